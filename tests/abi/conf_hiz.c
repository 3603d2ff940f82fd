/* tests/abi/conf_hiz.c - partial copies of depth-stencil planes and programmable sample positions
 * (issue #21, piglit hiz@*-read-*), through the C ABI (CINTERFACE + COBJMACROS).
 *
 * 1. CheckFeatureSupport(OPTIONS2): ProgrammableSamplePositionsTier is TIER_1 (one pattern for
 *    every pixel), DepthBoundsTestSupported FALSE.
 * 2. With a non-zero tier the runtime lets CopyTextureRegion copy part of a depth-stencil
 *    subresource (commands-and-sync.md section 6: the whole-subresource rule is skipped): a
 *    64x64 D24_UNORM_S8_UINT texture cleared to depth 1.0 / stencil 0, then a rectangle
 *    (20,10)-(30,20) cleared to depth 0.25 / stencil 5; the box (17,9)-(34,26) of the depth plane
 *    (subresource 0) goes to a 17x17 R32_TYPELESS footprint, of the stencil plane (subresource 1)
 *    to a 17x17 R8_TYPELESS one. Element (i, j) is texel (17+i, 9+j): 0x400000 (floor(0.25 x
 *    (2^24-1) + 0.5), X8 bits zero) and stencil 5 for 3 <= i < 13 and 1 <= j < 11, 0xFFFFFF and 0
 *    elsewhere. An 8x8 footprint is then copied into the depth plane at (DstX, DstY) = (16, 24),
 *    and the whole plane read back: only that 8x8 region changed.
 * 3. SetSamplePositions (ID3D12GraphicsCommandList1): (0, 0, NULL) and a valid 1-pixel pattern
 *    record; NumPixels 2, NumSamplesPerPixel 3 and 4 pixels at tier 1 are dropped; Close S_OK.
 *
 * The last line is "conf_hiz: N passed, M failed"; the exit status is 0 only when M is 0. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static ID3D12Device *dev;

static ID3D12Resource *committed(D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES st,
                                 const D3D12_CLEAR_VALUE *clear)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = type;
    ID3D12Resource *r = NULL;
    CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &p, D3D12_HEAP_FLAG_NONE, d, st, clear,
                                                       &IID_ID3D12Resource, (void **)&r),
                  r);
    return r;
}

static ID3D12Resource *buffer(D3D12_HEAP_TYPE type, UINT64 width)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = width;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return committed(type, &d,
                     type == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ : D3D12_RESOURCE_STATE_COPY_DEST,
                     NULL);
}

static D3D12_TEXTURE_COPY_LOCATION sub_loc(ID3D12Resource *r, UINT sub)
{
    D3D12_TEXTURE_COPY_LOCATION l;
    memset(&l, 0, sizeof(l));
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l.SubresourceIndex = sub;
    return l;
}

/* A footprint at offset 0 of `r`: `format`, w x h, rows 256 bytes apart. */
static D3D12_TEXTURE_COPY_LOCATION fp_loc(ID3D12Resource *r, DXGI_FORMAT format, UINT w, UINT h)
{
    D3D12_TEXTURE_COPY_LOCATION l;
    memset(&l, 0, sizeof(l));
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    l.PlacedFootprint.Footprint.Format = format;
    l.PlacedFootprint.Footprint.Width = w;
    l.PlacedFootprint.Footprint.Height = h;
    l.PlacedFootprint.Footprint.Depth = 1;
    l.PlacedFootprint.Footprint.RowPitch = 256;
    return l;
}

static void transition(ID3D12GraphicsCommandList *l, ID3D12Resource *r, D3D12_RESOURCE_STATES before,
                       D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER b;
    memset(&b, 0, sizeof(b));
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = r;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = before;
    b.Transition.StateAfter = after;
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &b);
}

struct q {
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    UINT64 value;
};

static int q_init(struct q *q)
{
    memset(q, 0, sizeof(*q));
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q->queue), q->queue);
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                      &IID_ID3D12CommandAllocator, (void **)&q->alloc),
                  q->alloc);
    if (q->alloc)
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, q->alloc, NULL,
                                                     &IID_ID3D12GraphicsCommandList, (void **)&q->list),
                      q->list);
    CHECK_CREATED(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&q->fence),
                  q->fence);
    return q->queue && q->alloc && q->list && q->fence;
}

/* Close (S_OK expected), execute, wait for the queue. */
static int q_run(struct q *q)
{
    HRESULT hr = ID3D12GraphicsCommandList_Close(q->list);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr))
        return 0;
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)q->list};
    ID3D12CommandQueue_ExecuteCommandLists(q->queue, 1, lists);
    q->value++;
    CHECK_HR(ID3D12CommandQueue_Signal(q->queue, q->fence, q->value), S_OK);
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(q->fence, q->value, NULL), S_OK);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    return 1;
}

static void q_reset(struct q *q)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(q->alloc), S_OK);
    CHECK_HR(ID3D12GraphicsCommandList_Reset(q->list, q->alloc, NULL), S_OK);
}

static void *map(ID3D12Resource *r)
{
    void *m = NULL;
    CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &m), S_OK);
    return m;
}

static void test_options2(void)
{
    set_ctx("OPTIONS2");
    D3D12_FEATURE_DATA_D3D12_OPTIONS2 o;
    memset(&o, 0xcc, sizeof(o));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS2, &o, sizeof(o)), S_OK);
    CHECK_EQ(o.ProgrammableSamplePositionsTier, D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER_1);
    CHECK_EQ(o.DepthBoundsTestSupported, FALSE);
}

static void test_partial_plane_copies(struct q *q)
{
    set_ctx("partial D24S8 plane copies");
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = 64;
    d.Height = 64;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
    d.SampleDesc.Count = 1;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    D3D12_CLEAR_VALUE cv;
    memset(&cv, 0, sizeof(cv));
    cv.Format = d.Format;
    cv.DepthStencil.Depth = 1.0f;
    ID3D12Resource *ds = committed(D3D12_HEAP_TYPE_DEFAULT, &d, D3D12_RESOURCE_STATE_DEPTH_WRITE, &cv);
    ID3D12Resource *depth_rb = buffer(D3D12_HEAP_TYPE_READBACK, 256 * 17);
    ID3D12Resource *stencil_rb = buffer(D3D12_HEAP_TYPE_READBACK, 256 * 17);
    ID3D12Resource *whole_rb = buffer(D3D12_HEAP_TYPE_READBACK, 256 * 64);
    ID3D12Resource *up = buffer(D3D12_HEAP_TYPE_UPLOAD, 256 * 8);
    ID3D12DescriptorHeap *heap = NULL;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&heap), heap);
    if (!ds || !depth_rb || !stencil_rb || !whole_rb || !up || !heap)
        goto out;
    D3D12_CPU_DESCRIPTOR_HANDLE dsv = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(heap);
    ID3D12Device_CreateDepthStencilView(dev, ds, NULL, dsv);

    /* The 8x8 upload: element (i, j) = 0x010000 * j + 0x100 * i + 0x11 (X8 bits zero). */
    uint32_t *u = map(up);
    if (!u)
        goto out;
    for (UINT j = 0; j < 8; j++)
        for (UINT i = 0; i < 8; i++)
            u[j * 64 + i] = 0x010000u * j + 0x100u * i + 0x11u;
    ID3D12Resource_Unmap(up, 0, NULL);

    ID3D12GraphicsCommandList *l = q->list;
    D3D12_CLEAR_FLAGS both = D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL;
    ID3D12GraphicsCommandList_ClearDepthStencilView(l, dsv, both, 1.0f, 0, 0, NULL);
    D3D12_RECT rect = {20, 10, 30, 20};
    ID3D12GraphicsCommandList_ClearDepthStencilView(l, dsv, both, 0.25f, 5, 1, &rect);
    transition(l, ds, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_COPY_SOURCE);
    D3D12_BOX box = {17, 9, 0, 34, 26, 1};
    D3D12_TEXTURE_COPY_LOCATION dst = fp_loc(depth_rb, DXGI_FORMAT_R32_TYPELESS, 17, 17);
    D3D12_TEXTURE_COPY_LOCATION src = sub_loc(ds, 0);
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, &box);
    dst = fp_loc(stencil_rb, DXGI_FORMAT_R8_TYPELESS, 17, 17);
    src = sub_loc(ds, 1);
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, &box);
    /* Into the depth plane at (16, 24), then the whole plane out. */
    transition(l, ds, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COPY_DEST);
    dst = sub_loc(ds, 0);
    src = fp_loc(up, DXGI_FORMAT_R32_TYPELESS, 8, 8);
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 16, 24, 0, &src, NULL);
    transition(l, ds, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    dst = fp_loc(whole_rb, DXGI_FORMAT_R32_TYPELESS, 64, 64);
    src = sub_loc(ds, 0);
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
    if (!q_run(q))
        goto out;

    const uint32_t *dp = map(depth_rb);
    const uint8_t *sp = map(stencil_rb);
    const uint32_t *wp = map(whole_rb);
    if (dp && sp && wp) {
        unsigned depth_ok = 0, stencil_ok = 0, whole_ok = 0;
        for (UINT j = 0; j < 17; j++)
            for (UINT i = 0; i < 17; i++) {
                int in = i >= 3 && i < 13 && j >= 1 && j < 11;
                depth_ok += dp[j * 64 + i] == (in ? 0x400000u : 0xFFFFFFu);
                stencil_ok += sp[j * 256 + i] == (in ? 5 : 0);
            }
        for (UINT y = 0; y < 64; y++)
            for (UINT x = 0; x < 64; x++) {
                uint32_t want = x >= 20 && x < 30 && y >= 10 && y < 20 ? 0x400000u : 0xFFFFFFu;
                if (x >= 16 && x < 24 && y >= 24 && y < 32)
                    want = 0x010000u * (y - 24) + 0x100u * (x - 16) + 0x11u;
                whole_ok += wp[y * 64 + x] == want;
            }
        CHECK_EQ(depth_ok, 17 * 17);
        CHECK_EQ(stencil_ok, 17 * 17);
        CHECK_EQ(whole_ok, 64 * 64);
        CHECK_EQ(dp[1 * 64 + 3], 0x400000u);  /* texel (20, 10) */
        CHECK_EQ(dp[0 * 64 + 3], 0xFFFFFFu);  /* texel (20, 9) */
        CHECK_EQ(sp[10 * 256 + 12], 5);       /* texel (29, 19) */
        CHECK_EQ(sp[11 * 256 + 12], 0);       /* texel (29, 20) */
    }
out:
    RELEASE0(heap);
    RELEASE0(up);
    RELEASE0(whole_rb);
    RELEASE0(stencil_rb);
    RELEASE0(depth_rb);
    RELEASE0(ds);
}

static void test_set_sample_positions(struct q *q)
{
    set_ctx("SetSamplePositions");
    ID3D12GraphicsCommandList1 *l1 = NULL;
    CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(q->list, &IID_ID3D12GraphicsCommandList1, (void **)&l1), S_OK);
    if (!l1)
        return;
    D3D12_SAMPLE_POSITION four[4] = {{-8, -8}, {7, 7}, {-2, 6}, {6, -2}};
    ID3D12GraphicsCommandList1_SetSamplePositions(l1, 4, 1, four);
    ID3D12GraphicsCommandList1_SetSamplePositions(l1, 4, 2, four); /* NumPixels 2: dropped */
    ID3D12GraphicsCommandList1_SetSamplePositions(l1, 3, 1, four); /* 3 samples: dropped */
    ID3D12GraphicsCommandList1_SetSamplePositions(l1, 1, 4, four); /* 4 pixels need tier 2: dropped */
    ID3D12GraphicsCommandList1_SetSamplePositions(l1, 0, 0, NULL); /* back to the standard pattern */
    CHECK_HR(ID3D12GraphicsCommandList_Close(q->list), S_OK);
    ID3D12GraphicsCommandList1_Release(l1);
}

int main(void)
{
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev) {
        printf("conf_hiz: %u passed, %u failed\n", g_passed, g_failed + 1);
        return 1;
    }
    test_options2();
    struct q q;
    if (q_init(&q)) {
        test_partial_plane_copies(&q);
        q_reset(&q);
        test_set_sample_positions(&q);
    }
    RELEASE0(q.list);
    RELEASE0(q.alloc);
    RELEASE0(q.fence);
    RELEASE0(q.queue);
    RELEASE0(dev);
    printf("conf_hiz: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
