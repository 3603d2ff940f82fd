/* tests/abi/conf_texwrap.c - integer render-target clears (issue #21, ext_texture_integer), through the C ABI
 * (CINTERFACE + COBJMACROS, IIDs from libDirectX-Guids.a).
 *
 * ClearRenderTargetView takes FLOAT ColorRGBA[4]. On a UINT or SINT view each float is converted to
 * the integer it holds ("The driver converts and clamps color values to the destination format as
 * appropriate per Direct3D conversion rules", ID3D11DeviceContext1::ClearView; the ClearRenderTargetView
 * remarks: a float "may not have the same bit pattern as the original integer", so integer bit patterns
 * need a quad instead). Values a float holds exactly come back exactly; an integer a float cannot hold
 * arrives already rounded to the nearest float (300000005 -> 300000000.0f -> 300000000), which is what
 * Mesa 22.3's integer glClear gives on Windows. Never the float's bit pattern.
 *
 * The last line is "conf_texwrap: N passed, M failed"; the exit status is 0 only when M is 0. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static ID3D12Device *dev;

static ID3D12Resource *committed(D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES st)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = type;
    ID3D12Resource *r = NULL;
    CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &p, D3D12_HEAP_FLAG_NONE, d, st, NULL,
                                                       &IID_ID3D12Resource, (void **)&r),
                  r);
    return r;
}

/* Clears a 4x4 render target of `format` (texel size `bpp` bytes) to `color` and copies texel
 * (3, 2) into `out` (bpp bytes). 1 when everything ran. */
static int clear_and_read(DXGI_FORMAT format, UINT bpp, const float color[4], void *out)
{
    int ok = 0;
    D3D12_RESOURCE_DESC t;
    memset(&t, 0, sizeof(t));
    t.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    t.Width = 4;
    t.Height = 4;
    t.DepthOrArraySize = 1;
    t.MipLevels = 1;
    t.Format = format;
    t.SampleDesc.Count = 1;
    t.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    D3D12_RESOURCE_DESC b;
    memset(&b, 0, sizeof(b));
    b.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    b.Width = 256 * 4;
    b.Height = 1;
    b.DepthOrArraySize = 1;
    b.MipLevels = 1;
    b.SampleDesc.Count = 1;
    b.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;

    ID3D12Resource *tex = committed(D3D12_HEAP_TYPE_DEFAULT, &t, D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *rb = committed(D3D12_HEAP_TYPE_READBACK, &b, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12DescriptorHeap *heap = NULL;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&heap), heap);
    ID3D12CommandQueue *queue = NULL;
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&queue), queue);
    ID3D12CommandAllocator *alloc = NULL;
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                      &IID_ID3D12CommandAllocator, (void **)&alloc),
                  alloc);
    ID3D12GraphicsCommandList *list = NULL;
    if (alloc)
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, NULL,
                                                     &IID_ID3D12GraphicsCommandList, (void **)&list),
                      list);
    ID3D12Fence *fence = NULL;
    CHECK_CREATED(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), fence);

    if (tex && rb && heap && queue && list && fence) {
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
        ID3D12Device_CreateRenderTargetView(dev, tex, NULL, rtv);
        ID3D12GraphicsCommandList_ClearRenderTargetView(list, rtv, color, 0, NULL);
        D3D12_RESOURCE_BARRIER br;
        memset(&br, 0, sizeof(br));
        br.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        br.Transition.pResource = tex;
        br.Transition.Subresource = 0;
        br.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
        br.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        ID3D12GraphicsCommandList_ResourceBarrier(list, 1, &br);
        D3D12_TEXTURE_COPY_LOCATION dst, src;
        memset(&dst, 0, sizeof(dst));
        memset(&src, 0, sizeof(src));
        dst.pResource = rb;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Footprint.Format = format;
        dst.PlacedFootprint.Footprint.Width = 4;
        dst.PlacedFootprint.Footprint.Height = 4;
        dst.PlacedFootprint.Footprint.Depth = 1;
        dst.PlacedFootprint.Footprint.RowPitch = 256;
        src.pResource = tex;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        ID3D12GraphicsCommandList_CopyTextureRegion(list, &dst, 0, 0, 0, &src, NULL);
        HRESULT hr = ID3D12GraphicsCommandList_Close(list);
        CHECK_HR(hr, S_OK);
        if (SUCCEEDED(hr)) {
            ID3D12CommandList *lists[1] = {(ID3D12CommandList *)list};
            ID3D12CommandQueue_ExecuteCommandLists(queue, 1, lists);
            CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, 1), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, 1, NULL), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(fence), 1);
            void *m = NULL;
            hr = ID3D12Resource_Map(rb, 0, NULL, &m);
            CHECK_HR(hr, S_OK);
            if (SUCCEEDED(hr)) {
                memcpy(out, (unsigned char *)m + 2 * 256 + 3 * bpp, bpp);
                D3D12_RANGE none = {0, 0};
                ID3D12Resource_Unmap(rb, 0, &none);
                ok = 1;
            }
        }
    }
    RELEASE0(fence);
    RELEASE0(list);
    RELEASE0(alloc);
    RELEASE0(queue);
    RELEASE0(heap);
    RELEASE0(rb);
    RELEASE0(tex);
    return ok;
}

static void test_uint32(void)
{
    set_ctx("R32G32B32A32_UINT clear");
    /* 300000005 and 2139193217 (0x7F817F81, a NaN's bit pattern) are what piglit's
     * fbo_integer_precision_clear asks for; Mesa 22.3 passes (float)v. */
    const float c[4] = {(float)300000005u, 7.0f, 6.0f, (float)2139193217u};
    uint32_t got[4] = {0};
    if (clear_and_read(DXGI_FORMAT_R32G32B32A32_UINT, 16, c, got)) {
        CHECK_EQ(got[0], 300000000u); /* the float's value, rounded already by the cast */
        CHECK_EQ(got[1], 7u);
        CHECK_EQ(got[2], 6u);
        CHECK_EQ(got[3], 2139193216u); /* 0x7F817F80: the value of the float, not its bits */
    }
    /* Exactly representable values come back exactly, the largest ones included. */
    const float big[4] = {16777216.0f, 4294967040.0f, 0.0f, 1.0f};
    if (clear_and_read(DXGI_FORMAT_R32G32B32A32_UINT, 16, big, got)) {
        CHECK_EQ(got[0], 16777216u);
        CHECK_EQ(got[1], 4294967040u);
        CHECK_EQ(got[2], 0u);
        CHECK_EQ(got[3], 1u);
    }
}

static void test_sint32(void)
{
    set_ctx("R32G32B32A32_SINT clear");
    const float c[4] = {(float)300000005, -7.0f, (float)-300000005, 2147483520.0f};
    int32_t got[4] = {0};
    if (clear_and_read(DXGI_FORMAT_R32G32B32A32_SINT, 16, c, got)) {
        CHECK_EQ(got[0], 300000000);
        CHECK_EQ(got[1], -7);
        CHECK_EQ(got[2], -300000000);
        CHECK_EQ(got[3], 2147483520);
    }
}

static void test_narrow(void)
{
    set_ctx("R16G16_UINT and R8G8B8A8_SINT clears");
    const float c16[4] = {65535.0f, 1234.0f, 0.0f, 0.0f};
    uint16_t g16[2] = {0};
    if (clear_and_read(DXGI_FORMAT_R16G16_UINT, 4, c16, g16)) {
        CHECK_EQ(g16[0], 65535);
        CHECK_EQ(g16[1], 1234);
    }
    const float c8[4] = {-128.0f, 127.0f, -1.0f, 5.0f};
    int8_t g8[4] = {0};
    if (clear_and_read(DXGI_FORMAT_R8G8B8A8_SINT, 4, c8, g8)) {
        CHECK_EQ(g8[0], -128);
        CHECK_EQ(g8[1], 127);
        CHECK_EQ(g8[2], -1);
        CHECK_EQ(g8[3], 5);
    }
}

int main(void)
{
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (dev) {
        test_uint32();
        test_sint32();
        test_narrow();
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }
    printf("conf_texwrap: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
