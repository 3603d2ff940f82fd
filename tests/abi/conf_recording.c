/* tests/abi/conf_recording.c - recording calls that Windows accepts (issue #16, "Windows
 * conformance"): each list closes with S_OK, executes, and its result is read back.
 *
 *   1. ClearUnorderedAccessViewUint/Float through a NULL UAV (created with pResource NULL)
 *      while pResource is a real buffer: nothing is written (the buffer keeps the 0xA5A5A5A5
 *      an earlier clear wrote).
 *   2. ClearUnorderedAccessViewFloat on R32_UINT / R32_SINT buffer views and RGBA8_UINT /
 *      RGBA8_SINT textures: each value is taken as an integral float, as
 *      ID3D11DeviceContext1::ClearView documents ("235.0f maps to 235: rounds to zero,
 *      out of range/INF values clamp to target range, NaN to 0"). Worked by hand:
 *      UINT 3.7 -> 3, -1.5 -> 0, 5e9 -> 0xFFFFFFFF, 0.99 -> 0; SINT -1.5 -> -1, -7.9 -> -7,
 *      2.5 -> 2, -3e9 -> INT32_MIN; RGBA8_UINT (1.9, 255.5, 300, -3) -> 01 ff ff 00;
 *      RGBA8_SINT (-1.5, 127.9, -200, 100.2) -> ff 7f 80 64.
 *   3. Barriers on an UPLOAD buffer between read states GENERIC_READ combines
 *      (GENERIC_READ -> INDIRECT_ARGUMENT -> COPY_SOURCE -> INDIRECT_ARGUMENT -> GENERIC_READ,
 *      a copy from it in COPY_SOURCE), a READBACK buffer COPY_DEST <-> RESOLVE_DEST (the
 *      states Windows' #741 message names); leaving them for COPY_DEST / COMMON still fails
 *      with E_INVALIDARG and #741 RESOURCE_MANIPULATION ERROR. A 4x MSAA render target in
 *      RESOLVE_DEST for an in-place DECOMPRESS resolve, then resolved to one sample: the
 *      cleared colour survives.
 *   4. ClearDepthStencilView through DSVs with READ_ONLY_DEPTH and/or READ_ONLY_STENCIL:
 *      accepted; ClearFlags decides the planes written (D24S8: depth 0.25 -> 0x400000 =
 *      floor(0.25 * 0xFFFFFF + 0.5), 1.0 -> 0xFFFFFF in a rectangle; stencil bytes; D32 0.5).
 *   6. Set{Compute,Graphics}RootDescriptorTable with no descriptor heap set (or outside the
 *      set heap): Close S_OK, the debug layer reports #708 SET_DESCRIPTOR_TABLE_INVALID as
 *      EXECUTION ERROR (Windows' printed line, gfx-rs/wgpu#1798); a dispatch through such a
 *      table (reduce.cs.dxil) executes without removing the device.
 * Where an accepted call is checked, no ERROR message is stored either.
 *
 * The last line is "conf_recording_c: N passed, M failed"; exit status 0 only when M is 0. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static ID3D12Device *dev;
static ID3D12InfoQueue *iq;
static ID3D12CommandQueue *queue;
static ID3D12Fence *fence;
static UINT64 fence_value;

/* ---- messages ------------------------------------------------------------------------------ */

static UINT64 stored(void)
{
    return iq ? ID3D12InfoQueue_GetNumStoredMessages(iq) : 0;
}

/* Message `i` (malloc'd; NULL if none). */
static D3D12_MESSAGE *message(UINT64 i)
{
    SIZE_T len = 0;
    if (!iq || FAILED(ID3D12InfoQueue_GetMessage(iq, i, NULL, &len)) || len < sizeof(D3D12_MESSAGE))
        return NULL;
    D3D12_MESSAGE *m = malloc(len);
    if (m && FAILED(ID3D12InfoQueue_GetMessage(iq, i, m, &len))) {
        free(m);
        return NULL;
    }
    return m;
}

/* ERROR or CORRUPTION messages stored since `mark`. */
static unsigned errors_since(UINT64 mark)
{
    unsigned n = 0;
    for (UINT64 i = mark; i < stored(); i++) {
        D3D12_MESSAGE *m = message(i);
        if (m && m->Severity <= D3D12_MESSAGE_SEVERITY_ERROR) {
            printf("    unexpected: #%d %s\n", (int)m->ID, m->pDescription);
            n++;
        }
        free(m);
    }
    return n;
}

/* A message since `mark` with `id`, checked for category, severity and two text fragments. */
static void expect_message(int line, UINT64 mark, D3D12_MESSAGE_ID id, D3D12_MESSAGE_CATEGORY cat, const char *a,
                           const char *b)
{
    D3D12_MESSAGE *found = NULL;
    for (UINT64 i = mark; i < stored() && !found; i++) {
        D3D12_MESSAGE *m = message(i);
        if (m && m->ID == id)
            found = m;
        else
            free(m);
    }
    check_true(__FILE__, line, "the message was stored", found != NULL);
    if (!found)
        return;
    check_u64(__FILE__, line, "category", found->Category, cat);
    check_u64(__FILE__, line, "severity", found->Severity, D3D12_MESSAGE_SEVERITY_ERROR);
    check_true(__FILE__, line, a, strstr(found->pDescription, a) != NULL);
    check_true(__FILE__, line, b, strstr(found->pDescription, b) != NULL);
    if (!strstr(found->pDescription, a) || !strstr(found->pDescription, b))
        printf("    description: %s\n", found->pDescription);
    free(found);
}

/* ---- objects ------------------------------------------------------------------------------- */

static ID3D12Resource *committed(D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES st)
{
    D3D12_HEAP_PROPERTIES hp;
    memset(&hp, 0, sizeof(hp));
    hp.Type = type;
    ID3D12Resource *r = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, d, st, NULL, &IID_ID3D12Resource,
                                                  (void **)&r),
             S_OK);
    return r;
}

static ID3D12Resource *buffer(D3D12_HEAP_TYPE type, UINT64 width, D3D12_RESOURCE_FLAGS flags)
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
    d.Flags = flags;
    D3D12_RESOURCE_STATES st = type == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
                               : type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                  : D3D12_RESOURCE_STATE_COMMON;
    return committed(type, &d, st);
}

static D3D12_RESOURCE_DESC tex2d(DXGI_FORMAT f, UINT w, UINT h, UINT samples, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = f;
    d.SampleDesc.Count = samples;
    d.Flags = flags;
    return d;
}

static ID3D12DescriptorHeap *heap(D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n, int visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.Type = type;
    hd.NumDescriptors = n;
    hd.Flags = visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE;
    ID3D12DescriptorHeap *h = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h), S_OK);
    return h;
}

static D3D12_CPU_DESCRIPTOR_HANDLE cpu_at(ID3D12DescriptorHeap *h, UINT i)
{
    D3D12_CPU_DESCRIPTOR_HANDLE c = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h);
    D3D12_DESCRIPTOR_HEAP_DESC d = ID3D12DescriptorHeap_GetDesc(h);
    c.ptr += (SIZE_T)i * ID3D12Device_GetDescriptorHandleIncrementSize(dev, d.Type);
    return c;
}

static D3D12_GPU_DESCRIPTOR_HANDLE gpu_at(ID3D12DescriptorHeap *h, UINT i)
{
    D3D12_GPU_DESCRIPTOR_HANDLE g = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(h);
    D3D12_DESCRIPTOR_HEAP_DESC d = ID3D12DescriptorHeap_GetDesc(h);
    g.ptr += (UINT64)i * ID3D12Device_GetDescriptorHandleIncrementSize(dev, d.Type);
    return g;
}

/* A typed buffer UAV of `n` 32-bit elements from `first`, in the CPU heap and the GPU heap at
 * index `i` (pResource NULL: a NULL view). */
static void buffer_uav(ID3D12Resource *r, DXGI_FORMAT f, UINT first, UINT n, ID3D12DescriptorHeap *cpu,
                       ID3D12DescriptorHeap *gpu, UINT i)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC v;
    memset(&v, 0, sizeof(v));
    v.Format = f;
    v.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    v.Buffer.FirstElement = first;
    v.Buffer.NumElements = n;
    ID3D12Device_CreateUnorderedAccessView(dev, r, NULL, &v, cpu_at(cpu, i));
    ID3D12Device_CreateUnorderedAccessView(dev, r, NULL, &v, cpu_at(gpu, i));
}

static void transition(ID3D12GraphicsCommandList *l, ID3D12Resource *r, UINT sub, D3D12_RESOURCE_STATES before,
                       D3D12_RESOURCE_STATES after)
{
    D3D12_RESOURCE_BARRIER b;
    memset(&b, 0, sizeof(b));
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = r;
    b.Transition.Subresource = sub;
    b.Transition.StateBefore = before;
    b.Transition.StateAfter = after;
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &b);
}

static void uav_barrier(ID3D12GraphicsCommandList *l, ID3D12Resource *r)
{
    D3D12_RESOURCE_BARRIER b;
    memset(&b, 0, sizeof(b));
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_UAV;
    b.UAV.pResource = r;
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &b);
}

/* A recording direct list with its own allocator (a list whose Close failed can't be reset). */
struct list {
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *l;
};

static int open_list(struct list *x)
{
    x->alloc = NULL;
    x->l = NULL;
    CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                 (void **)&x->alloc),
             S_OK);
    if (x->alloc)
        CHECK_HR(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, x->alloc, NULL,
                                                &IID_ID3D12GraphicsCommandList, (void **)&x->l),
                 S_OK);
    return x->l != NULL;
}

static void close_list(struct list *x)
{
    RELEASE0(x->l);
    RELEASE0(x->alloc);
}

/* Closes (expecting `hr`), and on S_OK executes the list and waits for it. */
static int finish(int line, struct list *x, HRESULT hr)
{
    HRESULT got = ID3D12GraphicsCommandList_Close(x->l);
    check_hr(__FILE__, line, "Close", got, hr);
    if (got == S_OK) {
        ID3D12CommandList *cl = (ID3D12CommandList *)x->l;
        ID3D12CommandQueue_ExecuteCommandLists(queue, 1, &cl);
        CHECK_HR(ID3D12CommandQueue_Signal(queue, fence, ++fence_value), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(fence, fence_value, NULL), S_OK);
        check_u64(__FILE__, line, "fence completed", ID3D12Fence_GetCompletedValue(fence), fence_value);
        check_hr(__FILE__, line, "device not removed", ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    }
    close_list(x);
    return got == S_OK;
}

static void read_back(ID3D12Resource *rb, UINT64 off, void *out, size_t n)
{
    void *p = NULL;
    D3D12_RANGE range = {0, (SIZE_T)(off + n)};
    memset(out, 0xEE, n);
    if (SUCCEEDED(ID3D12Resource_Map(rb, 0, &range, &p)) && p) {
        memcpy(out, (const unsigned char *)p + off, n);
        D3D12_RANGE none = {0, 0};
        ID3D12Resource_Unmap(rb, 0, &none);
    }
}

/* Records a copy of subresource `sub` of `t` (in COPY_SOURCE) into `rb` at its footprint. */
static D3D12_PLACED_SUBRESOURCE_FOOTPRINT copy_sub(ID3D12GraphicsCommandList *l, ID3D12Resource *t, UINT sub,
                                                   ID3D12Resource *rb, UINT64 offset)
{
    D3D12_RESOURCE_DESC d = ID3D12Resource_GetDesc(t);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp;
    ID3D12Device_GetCopyableFootprints(dev, &d, sub, 1, offset, &fp, NULL, NULL, NULL);
    D3D12_TEXTURE_COPY_LOCATION dst, src;
    memset(&dst, 0, sizeof(dst));
    memset(&src, 0, sizeof(src));
    dst.pResource = rb;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint = fp;
    src.pResource = t;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = sub;
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, 0, 0, 0, &src, NULL);
    return fp;
}

/* ---- 1 and 2: UAV clears ------------------------------------------------------------------- */

static void test_null_uav_clear(void)
{
    set_ctx("ClearUnorderedAccessView through a NULL UAV");
    ID3D12DescriptorHeap *cpu = heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, 0);
    ID3D12DescriptorHeap *gpu = heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, 1);
    ID3D12Resource *buf = buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12Resource *rb = buffer(D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_FLAG_NONE);
    struct list x;
    if (!cpu || !gpu || !buf || !rb || !open_list(&x))
        goto out;
    buffer_uav(buf, DXGI_FORMAT_R32_UINT, 0, 64, cpu, gpu, 0);
    buffer_uav(NULL, DXGI_FORMAT_R32_UINT, 0, 64, cpu, gpu, 1);
    UINT64 mark = stored();
    const UINT a5[4] = {0xA5A5A5A5u, 0, 0, 0}, seven[4] = {7, 7, 7, 7};
    const FLOAT two[4] = {2.0f, 2.0f, 2.0f, 2.0f};
    ID3D12GraphicsCommandList_SetDescriptorHeaps(x.l, 1, &gpu);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(x.l, gpu_at(gpu, 0), cpu_at(cpu, 0), buf, a5, 0, NULL);
    uav_barrier(x.l, buf);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(x.l, gpu_at(gpu, 1), cpu_at(cpu, 1), buf, seven, 0, NULL);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(x.l, gpu_at(gpu, 1), cpu_at(cpu, 1), buf, two, 0, NULL);
    uav_barrier(x.l, buf);
    transition(x.l, buf, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12GraphicsCommandList_CopyBufferRegion(x.l, rb, 0, buf, 0, 256);
    if (!finish(__LINE__, &x, S_OK))
        goto out;
    CHECK_EQ(errors_since(mark), 0);
    uint32_t w[64];
    read_back(rb, 0, w, sizeof(w));
    unsigned bad = 0;
    for (int i = 0; i < 64; i++)
        bad += w[i] != 0xA5A5A5A5u;
    CHECK_EQ(bad, 0);
    CHECK_EQ(w[0], 0xA5A5A5A5u);
    CHECK_EQ(w[63], 0xA5A5A5A5u);
out:
    RELEASE0(rb);
    RELEASE0(buf);
    RELEASE0(gpu);
    RELEASE0(cpu);
    set_ctx("%s", "");
}

static void test_float_clear_of_integer_views(void)
{
    set_ctx("ClearUnorderedAccessViewFloat on integer UAVs");
    ID3D12DescriptorHeap *cpu = heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 12, 0);
    ID3D12DescriptorHeap *gpu = heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 12, 1);
    ID3D12Resource *buf = buffer(D3D12_HEAP_TYPE_DEFAULT, 40 * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    D3D12_RESOURCE_DESC du = tex2d(DXGI_FORMAT_R8G8B8A8_UINT, 2, 2, 1, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    D3D12_RESOURCE_DESC ds = tex2d(DXGI_FORMAT_R8G8B8A8_SINT, 2, 2, 1, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12Resource *tu = committed(D3D12_HEAP_TYPE_DEFAULT, &du, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12Resource *ts = committed(D3D12_HEAP_TYPE_DEFAULT, &ds, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    ID3D12Resource *rb = buffer(D3D12_HEAP_TYPE_READBACK, 4096, D3D12_RESOURCE_FLAG_NONE);
    struct list x;
    if (!cpu || !gpu || !buf || !tu || !ts || !rb || !open_list(&x))
        goto out;
    /* 0: the whole buffer; 1..8: four elements each (R32_UINT for 1..4, R32_SINT for 5..8);
     * elements 32..39 are in no view but 0. */
    buffer_uav(buf, DXGI_FORMAT_R32_UINT, 0, 40, cpu, gpu, 0);
    for (UINT i = 0; i < 8; i++)
        buffer_uav(buf, i < 4 ? DXGI_FORMAT_R32_UINT : DXGI_FORMAT_R32_SINT, 4 * i, 4, cpu, gpu, 1 + i);
    ID3D12Device_CreateUnorderedAccessView(dev, tu, NULL, NULL, cpu_at(cpu, 9));
    ID3D12Device_CreateUnorderedAccessView(dev, tu, NULL, NULL, cpu_at(gpu, 9));
    ID3D12Device_CreateUnorderedAccessView(dev, ts, NULL, NULL, cpu_at(cpu, 10));
    ID3D12Device_CreateUnorderedAccessView(dev, ts, NULL, NULL, cpu_at(gpu, 10));

    const float values[8] = {3.7f, -1.5f, 5e9f, 0.99f, -1.5f, -7.9f, 2.5f, -3e9f};
    const uint32_t want[8] = {3, 0, 0xFFFFFFFFu, 0, 0xFFFFFFFFu, (uint32_t)-7, 2, 0x80000000u};
    UINT64 mark = stored();
    const UINT fill[4] = {0x5A5A5A5Au, 0, 0, 0};
    ID3D12GraphicsCommandList_SetDescriptorHeaps(x.l, 1, &gpu);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewUint(x.l, gpu_at(gpu, 0), cpu_at(cpu, 0), buf, fill, 0, NULL);
    uav_barrier(x.l, buf);
    for (UINT i = 0; i < 8; i++) {
        const FLOAT v[4] = {values[i], 99.0f, 99.0f, 99.0f};
        ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(x.l, gpu_at(gpu, 1 + i), cpu_at(cpu, 1 + i), buf, v, 0,
                                                                NULL);
    }
    const FLOAT vu[4] = {1.9f, 255.5f, 300.0f, -3.0f}, vs[4] = {-1.5f, 127.9f, -200.0f, 100.2f};
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(x.l, gpu_at(gpu, 9), cpu_at(cpu, 9), tu, vu, 0, NULL);
    ID3D12GraphicsCommandList_ClearUnorderedAccessViewFloat(x.l, gpu_at(gpu, 10), cpu_at(cpu, 10), ts, vs, 0, NULL);
    uav_barrier(x.l, NULL);
    transition(x.l, buf, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    transition(x.l, tu, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    transition(x.l, ts, 0, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12GraphicsCommandList_CopyBufferRegion(x.l, rb, 0, buf, 0, 160);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fu = copy_sub(x.l, tu, 0, rb, 1024);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fs = copy_sub(x.l, ts, 0, rb, 2048);
    transition(x.l, tu, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    transition(x.l, ts, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    if (!finish(__LINE__, &x, S_OK))
        goto out;
    CHECK_EQ(errors_since(mark), 0);

    uint32_t w[40];
    read_back(rb, 0, w, sizeof(w));
    for (UINT i = 0; i < 8; i++) {
        set_ctx("ClearUnorderedAccessViewFloat %s %g", i < 4 ? "R32_UINT" : "R32_SINT", (double)values[i]);
        for (UINT k = 0; k < 4; k++)
            CHECK_EQ(w[4 * i + k], want[i]);
    }
    set_ctx("ClearUnorderedAccessViewFloat: elements outside the views");
    for (UINT k = 32; k < 40; k++)
        CHECK_EQ(w[k], 0x5A5A5A5Au);
    for (int t = 0; t < 2; t++) {
        const D3D12_PLACED_SUBRESOURCE_FOOTPRINT *fp = t ? &fs : &fu;
        const unsigned char *texel = t ? (const unsigned char *)"\xff\x7f\x80\x64" : (const unsigned char *)"\x01\xff\xff\x00";
        set_ctx("ClearUnorderedAccessViewFloat %s", t ? "R8G8B8A8_SINT" : "R8G8B8A8_UINT");
        unsigned bad = 0;
        for (UINT y = 0; y < 2; y++)
            for (UINT xx = 0; xx < 2; xx++) {
                unsigned char px[4];
                read_back(rb, fp->Offset + (UINT64)y * fp->Footprint.RowPitch + 4 * xx, px, 4);
                if (memcmp(px, texel, 4) != 0 && bad++ == 0)
                    printf("    texel (%u,%u) = %02x %02x %02x %02x\n", xx, y, px[0], px[1], px[2], px[3]);
            }
        CHECK_EQ(bad, 0);
    }
out:
    RELEASE0(rb);
    RELEASE0(ts);
    RELEASE0(tu);
    RELEASE0(buf);
    RELEASE0(gpu);
    RELEASE0(cpu);
    set_ctx("%s", "");
}

/* ---- 3: barriers ---------------------------------------------------------------------------- */

static void test_upload_readback_barriers(void)
{
    set_ctx("UPLOAD / READBACK read-state barriers");
    ID3D12Resource *up = buffer(D3D12_HEAP_TYPE_UPLOAD, 64, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *rb = buffer(D3D12_HEAP_TYPE_READBACK, 64, D3D12_RESOURCE_FLAG_NONE);
    struct list x;
    unsigned char data[64], got[64];
    void *p = NULL;
    if (!up || !rb || FAILED(ID3D12Resource_Map(up, 0, NULL, &p)) || !p || !open_list(&x))
        goto out;
    for (int i = 0; i < 64; i++)
        data[i] = (unsigned char)(3 * i + 1);
    memcpy(p, data, 64);
    ID3D12Resource_Unmap(up, 0, NULL);
    UINT64 mark = stored();
    transition(x.l, up, 0, D3D12_RESOURCE_STATE_GENERIC_READ, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    transition(x.l, up, 0, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    ID3D12GraphicsCommandList_CopyBufferRegion(x.l, rb, 0, up, 0, 64);
    transition(x.l, up, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT);
    transition(x.l, up, 0, D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT, D3D12_RESOURCE_STATE_GENERIC_READ);
    transition(x.l, rb, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    transition(x.l, rb, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!finish(__LINE__, &x, S_OK))
        goto out;
    CHECK_EQ(errors_since(mark), 0);
    read_back(rb, 0, got, 64);
    CHECK(memcmp(got, data, 64) == 0);

    /* Leaving GENERIC_READ's reads (COPY_DEST, COMMON) and READBACK's states stays invalid. */
    const D3D12_RESOURCE_STATES bad_after[2] = {D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON};
    for (int i = 0; i < 2; i++) {
        set_ctx("UPLOAD buffer GENERIC_READ -> 0x%x", (unsigned)bad_after[i]);
        if (!open_list(&x))
            break;
        mark = stored();
        transition(x.l, up, 0, D3D12_RESOURCE_STATE_GENERIC_READ, bad_after[i]);
        finish(__LINE__, &x, E_INVALIDARG);
        expect_message(__LINE__, mark, D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_HEAP,
                       D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, "ResourceBarrier", "D3D12_HEAP_TYPE_UPLOAD");
    }
    set_ctx("READBACK buffer COPY_DEST -> COPY_SOURCE");
    if (open_list(&x)) {
        mark = stored();
        transition(x.l, rb, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        finish(__LINE__, &x, E_INVALIDARG);
        expect_message(__LINE__, mark, D3D12_MESSAGE_ID_RESOURCE_BARRIER_INVALID_HEAP,
                       D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, "ResourceBarrier", "D3D12_HEAP_TYPE_READBACK");
    }
out:
    RELEASE0(rb);
    RELEASE0(up);
    set_ctx("%s", "");
}

static void test_msaa_resolve_dest(void)
{
    set_ctx("MSAA texture in RESOLVE_DEST");
    D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q;
    memset(&q, 0, sizeof(q));
    q.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    q.SampleCount = 4;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof(q)), S_OK);
    CHECK(q.NumQualityLevels > 0);
    if (!q.NumQualityLevels)
        return;
    D3D12_RESOURCE_DESC dm = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 4, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    D3D12_RESOURCE_DESC d1 = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *ms = committed(D3D12_HEAP_TYPE_DEFAULT, &dm, D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *ss = committed(D3D12_HEAP_TYPE_DEFAULT, &d1, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    ID3D12Resource *rb = buffer(D3D12_HEAP_TYPE_READBACK, 1024, D3D12_RESOURCE_FLAG_NONE);
    ID3D12DescriptorHeap *rtvs = heap(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, 0);
    struct list x;
    if (!ms || !ss || !rb || !rtvs || !open_list(&x))
        goto out;
    ID3D12Device_CreateRenderTargetView(dev, ms, NULL, cpu_at(rtvs, 0));
    UINT64 mark = stored();
    const FLOAT c[4] = {1.0f, 0.0f, 0.2f, 0.6f};
    ID3D12GraphicsCommandList_ClearRenderTargetView(x.l, cpu_at(rtvs, 0), c, 0, NULL);
    transition(x.l, ms, 0, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    ID3D12GraphicsCommandList1 *l1 = NULL;
    CHECK_HR(ID3D12GraphicsCommandList_QueryInterface(x.l, &IID_ID3D12GraphicsCommandList1, (void **)&l1), S_OK);
    if (l1) {
        ID3D12GraphicsCommandList1_ResolveSubresourceRegion(l1, ms, 0, 0, 0, ms, 0, NULL, DXGI_FORMAT_R8G8B8A8_UNORM,
                                                            D3D12_RESOLVE_MODE_DECOMPRESS);
        ID3D12GraphicsCommandList1_Release(l1);
    }
    transition(x.l, ms, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    ID3D12GraphicsCommandList_ResolveSubresource(x.l, ss, 0, ms, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    transition(x.l, ms, 0, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    transition(x.l, ss, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp = copy_sub(x.l, ss, 0, rb, 0);
    transition(x.l, ss, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    if (!finish(__LINE__, &x, S_OK))
        goto out;
    CHECK_EQ(errors_since(mark), 0);
    unsigned bad = 0;
    for (UINT y = 0; y < 4; y++)
        for (UINT xx = 0; xx < 4; xx++) {
            unsigned char px[4];
            read_back(rb, fp.Offset + (UINT64)y * fp.Footprint.RowPitch + 4 * xx, px, 4);
            bad += memcmp(px, "\xff\x00\x33\x99", 4) != 0; /* 0.2 * 255 = 51, 0.6 * 255 = 153 */
        }
    CHECK_EQ(bad, 0);
out:
    RELEASE0(rtvs);
    RELEASE0(rb);
    RELEASE0(ss);
    RELEASE0(ms);
    set_ctx("%s", "");
}

/* ---- 4: clears through read-only DSVs ------------------------------------------------------- */

static void dsv(ID3D12Resource *r, DXGI_FORMAT f, D3D12_DSV_FLAGS flags, D3D12_CPU_DESCRIPTOR_HANDLE h)
{
    D3D12_DEPTH_STENCIL_VIEW_DESC v;
    memset(&v, 0, sizeof(v));
    v.Format = f;
    v.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2D;
    v.Flags = flags;
    ID3D12Device_CreateDepthStencilView(dev, r, &v, h);
}

static void test_read_only_dsv_clears(void)
{
    set_ctx("ClearDepthStencilView through read-only DSVs");
    D3D12_RESOURCE_DESC d24 = tex2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 4, 1, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    D3D12_RESOURCE_DESC d32 = tex2d(DXGI_FORMAT_D32_FLOAT, 2, 2, 1, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    ID3D12Resource *a = committed(D3D12_HEAP_TYPE_DEFAULT, &d24, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12Resource *b = committed(D3D12_HEAP_TYPE_DEFAULT, &d32, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12Resource *rb = buffer(D3D12_HEAP_TYPE_READBACK, 16384, D3D12_RESOURCE_FLAG_NONE);
    ID3D12DescriptorHeap *dsvs = heap(D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 4, 0);
    struct list x;
    if (!a || !b || !rb || !dsvs || !open_list(&x))
        goto out;
    const DXGI_FORMAT f = DXGI_FORMAT_D24_UNORM_S8_UINT;
    dsv(a, f, D3D12_DSV_FLAG_READ_ONLY_DEPTH | D3D12_DSV_FLAG_READ_ONLY_STENCIL, cpu_at(dsvs, 0));
    dsv(a, f, D3D12_DSV_FLAG_READ_ONLY_DEPTH, cpu_at(dsvs, 1));
    dsv(a, f, D3D12_DSV_FLAG_READ_ONLY_STENCIL, cpu_at(dsvs, 2));
    dsv(b, DXGI_FORMAT_D32_FLOAT, D3D12_DSV_FLAG_READ_ONLY_DEPTH, cpu_at(dsvs, 3));
    UINT64 mark = stored();
    const D3D12_RECT inner = {1, 1, 3, 3}, column = {0, 0, 1, 4};
    /* Both planes through the fully read-only view; then depth 1.0 on `inner` through the
     * read-only-depth view, stencil 0xc3 on `column` through the read-only-stencil view. */
    ID3D12GraphicsCommandList_ClearDepthStencilView(x.l, cpu_at(dsvs, 0), D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL,
                                                    0.25f, 0x3c, 0, NULL);
    ID3D12GraphicsCommandList_ClearDepthStencilView(x.l, cpu_at(dsvs, 1), D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 1, &inner);
    ID3D12GraphicsCommandList_ClearDepthStencilView(x.l, cpu_at(dsvs, 2), D3D12_CLEAR_FLAG_STENCIL, 0.0f, 0xc3, 1,
                                                    &column);
    ID3D12GraphicsCommandList_ClearDepthStencilView(x.l, cpu_at(dsvs, 3), D3D12_CLEAR_FLAG_DEPTH, 0.5f, 0, 0, NULL);
    transition(x.l, a, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_DEPTH_WRITE,
               D3D12_RESOURCE_STATE_COPY_SOURCE);
    transition(x.l, b, 0, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_COPY_SOURCE);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fd = copy_sub(x.l, a, 0, rb, 0);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fs = copy_sub(x.l, a, 1, rb, 4096);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT f32 = copy_sub(x.l, b, 0, rb, 8192);
    transition(x.l, a, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_SOURCE,
               D3D12_RESOURCE_STATE_DEPTH_WRITE);
    transition(x.l, b, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    if (!finish(__LINE__, &x, S_OK))
        goto out;
    CHECK_EQ(errors_since(mark), 0);
    unsigned bad_d = 0, bad_s = 0, bad_f = 0;
    for (UINT y = 0; y < 4; y++)
        for (UINT xx = 0; xx < 4; xx++) {
            uint32_t v;
            unsigned char s;
            read_back(rb, fd.Offset + (UINT64)y * fd.Footprint.RowPitch + 4 * xx, &v, 4);
            read_back(rb, fs.Offset + (UINT64)y * fs.Footprint.RowPitch + xx, &s, 1);
            int in = xx >= 1 && xx < 3 && y >= 1 && y < 3;
            if ((v & 0xFFFFFF) != (in ? 0xFFFFFFu : 0x400000u) && bad_d++ == 0)
                printf("    depth (%u,%u) = 0x%06x\n", xx, y, v & 0xFFFFFF);
            if (s != (xx == 0 ? 0xc3 : 0x3c) && bad_s++ == 0)
                printf("    stencil (%u,%u) = 0x%02x\n", xx, y, s);
        }
    for (UINT y = 0; y < 2; y++)
        for (UINT xx = 0; xx < 2; xx++) {
            float v;
            read_back(rb, f32.Offset + (UINT64)y * f32.Footprint.RowPitch + 4 * xx, &v, 4);
            bad_f += v != 0.5f;
        }
    set_ctx("ClearDepthStencilView read-only DSVs: D24 depth");
    CHECK_EQ(bad_d, 0);
    set_ctx("ClearDepthStencilView read-only DSVs: S8 stencil");
    CHECK_EQ(bad_s, 0);
    set_ctx("ClearDepthStencilView read-only DSVs: D32");
    CHECK_EQ(bad_f, 0);
out:
    RELEASE0(dsvs);
    RELEASE0(rb);
    RELEASE0(b);
    RELEASE0(a);
    set_ctx("%s", "");
}

/* ---- 6: descriptor tables without descriptor heaps ------------------------------------------ */

static ID3D12RootSignature *table_root_signature(void)
{
    D3D12_DESCRIPTOR_RANGE1 r;
    memset(&r, 0, sizeof(r));
    r.RangeType = D3D12_DESCRIPTOR_RANGE_TYPE_UAV;
    r.NumDescriptors = 2;
    D3D12_ROOT_PARAMETER1 p;
    memset(&p, 0, sizeof(p));
    p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p.DescriptorTable.NumDescriptorRanges = 1;
    p.DescriptorTable.pDescriptorRanges = &r;
    p.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd;
    memset(&rd, 0, sizeof(rd));
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 1;
    rd.Desc_1_1.pParameters = &p;
    ID3DBlob *blob = NULL, *err = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (err)
        ID3D10Blob_Release(err);
    ID3D12RootSignature *rs = NULL;
    if (blob) {
        CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                                  ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                                  (void **)&rs),
                 S_OK);
        ID3D10Blob_Release(blob);
    }
    return rs;
}

/* The bytes of a DXIL fixture (malloc'd), from tests/fixtures/dxil. */
static void *fixture(const char *name, size_t *size)
{
    char path[4096];
    const char *slash = strrchr(__FILE__, '/');
    int dir = slash ? (int)(slash - __FILE__) : 1;
    snprintf(path, sizeof(path), "%.*s/../../tests/fixtures/dxil/%s", dir, slash ? __FILE__ : ".", name);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    void *data = malloc(1 << 20);
    *size = data ? fread(data, 1, 1 << 20, f) : 0;
    fclose(f);
    return data;
}

static void test_tables_without_heaps(void)
{
    set_ctx("descriptor tables without descriptor heaps");
    ID3D12RootSignature *rs = table_root_signature();
    ID3D12DescriptorHeap *gpu = heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, 1);
    ID3D12DescriptorHeap *other = heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, 1);
    ID3D12Resource *src = buffer(D3D12_HEAP_TYPE_DEFAULT, 192 * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12Resource *dst = buffer(D3D12_HEAP_TYPE_DEFAULT, 3 * 4, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12PipelineState *pso = NULL;
    size_t size = 0;
    void *cs = fixture("reduce.cs.dxil", &size);
    CHECK(cs != NULL && size > 100);
    if (!rs || !gpu || !other || !src || !dst || !cs)
        goto out;
    D3D12_COMPUTE_PIPELINE_STATE_DESC pd;
    memset(&pd, 0, sizeof(pd));
    pd.pRootSignature = rs;
    pd.CS.pShaderBytecode = cs;
    pd.CS.BytecodeLength = size;
    CHECK_HR(ID3D12Device_CreateComputePipelineState(dev, &pd, &IID_ID3D12PipelineState, (void **)&pso), S_OK);
    D3D12_UNORDERED_ACCESS_VIEW_DESC v;
    memset(&v, 0, sizeof(v));
    v.Format = DXGI_FORMAT_R32_TYPELESS;
    v.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    v.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    v.Buffer.NumElements = 192;
    ID3D12Device_CreateUnorderedAccessView(dev, src, NULL, &v, cpu_at(gpu, 0));
    v.Buffer.NumElements = 3;
    ID3D12Device_CreateUnorderedAccessView(dev, dst, NULL, &v, cpu_at(gpu, 1));

    /* Recording: no heap set (compute and graphics), a heap set but the table in another. */
    struct list x;
    for (int graphics = 0; graphics < 2; graphics++) {
        set_ctx("Set%sRootDescriptorTable with no descriptor heap", graphics ? "Graphics" : "Compute");
        if (!open_list(&x))
            break;
        UINT64 mark = stored();
        if (graphics) {
            ID3D12GraphicsCommandList_SetGraphicsRootSignature(x.l, rs);
            ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(x.l, 0, gpu_at(gpu, 0));
        } else {
            ID3D12GraphicsCommandList_SetComputeRootSignature(x.l, rs);
            ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(x.l, 0, gpu_at(gpu, 0));
        }
        finish(__LINE__, &x, S_OK);
        expect_message(__LINE__, mark, D3D12_MESSAGE_ID_SET_DESCRIPTOR_TABLE_INVALID, D3D12_MESSAGE_CATEGORY_EXECUTION,
                       graphics ? "ID3D12GraphicsCommandList::SetGraphicsRootDescriptorTable: "
                                : "ID3D12GraphicsCommandList::SetComputeRootDescriptorTable: ",
                       "no descriptor heap");
    }
    set_ctx("SetComputeRootDescriptorTable outside the set heap");
    if (open_list(&x)) {
        UINT64 mark = stored();
        ID3D12GraphicsCommandList_SetDescriptorHeaps(x.l, 1, &other);
        ID3D12GraphicsCommandList_SetComputeRootSignature(x.l, rs);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(x.l, 0, gpu_at(gpu, 0));
        finish(__LINE__, &x, S_OK);
        expect_message(__LINE__, mark, D3D12_MESSAGE_ID_SET_DESCRIPTOR_TABLE_INVALID, D3D12_MESSAGE_CATEGORY_EXECUTION,
                       "SetComputeRootDescriptorTable", "is not inside");
    }
    set_ctx("SetComputeRootDescriptorTable of a UAV range in the sampler heap");
    ID3D12DescriptorHeap *smp = heap(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2, 1);
    if (smp && open_list(&x)) {
        UINT64 mark = stored();
        ID3D12DescriptorHeap *both[2] = {gpu, smp};
        ID3D12GraphicsCommandList_SetDescriptorHeaps(x.l, 2, both);
        ID3D12GraphicsCommandList_SetComputeRootSignature(x.l, rs);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(x.l, 0, gpu_at(smp, 0));
        finish(__LINE__, &x, S_OK);
        expect_message(__LINE__, mark, D3D12_MESSAGE_ID_SET_DESCRIPTOR_TABLE_INVALID, D3D12_MESSAGE_CATEGORY_EXECUTION,
                       "D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV",
                       "from a different descriptor heap type: D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER");
    }
    RELEASE0(smp);

    /* Execution: dispatches through a table in no set heap, through a handle in no heap at
     * all, and through the heap's last (never written) descriptor and the one past its end
     * (their UAVs read zeros and drop writes), run and leave the device alive. */
    if (!pso)
        goto out;
    D3D12_GPU_DESCRIPTOR_HANDLE nowhere = {0x10};
    D3D12_GPU_DESCRIPTOR_HANDLE tables[3] = {gpu_at(gpu, 0), nowhere, gpu_at(gpu, 3)};
    static const char *const what[3] = {"with no heap set", "in no heap", "across the heap's end"};
    for (int t = 0; t < 3; t++) {
        set_ctx("Dispatch through a table %s", what[t]);
        if (!open_list(&x))
            break;
        ID3D12GraphicsCommandList_SetComputeRootSignature(x.l, rs);
        ID3D12GraphicsCommandList_SetPipelineState(x.l, pso);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(x.l, 0, tables[t]);
        ID3D12GraphicsCommandList_Dispatch(x.l, 3, 1, 1);
        finish(__LINE__, &x, S_OK);
    }
out:
    free(cs);
    RELEASE0(pso);
    RELEASE0(dst);
    RELEASE0(src);
    RELEASE0(other);
    RELEASE0(gpu);
    RELEASE0(rs);
    set_ctx("%s", "");
}

int main(void)
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, NULL, NULL), S_OK);
    ID3D12Debug *dbg = NULL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg), S_OK);
    if (dbg) {
        ID3D12Debug_EnableDebugLayer(dbg);
        ID3D12Debug_Release(dbg);
    }
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev)
        goto done;
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&iq), S_OK);
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    CHECK_HR(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&queue), S_OK);
    CHECK_HR(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&fence), S_OK);
    if (queue && fence) {
        test_null_uav_clear();
        test_float_clear_of_integer_views();
        test_upload_readback_barriers();
        test_msaa_resolve_dest();
        test_read_only_dsv_clears();
        test_tables_without_heaps();
    }
    RELEASE0(fence);
    RELEASE0(queue);
    if (iq)
        ID3D12InfoQueue_Release(iq);
    iq = NULL;
    CHECK_EQ(ID3D12Device_Release(dev), 0);
done:
    printf("conf_recording_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
