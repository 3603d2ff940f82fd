/* tests/abi/conf_copies.c - copy commands that Windows accepts (issues #16 and #21), through the C ABI
 * (CINTERFACE + COBJMACROS, IIDs from libDirectX-Guids.a).
 *
 * 1. Depth and stencil planes: CopyTextureRegion between a plane of a D24_UNORM_S8_UINT or
 *    D32_FLOAT_S8X24_UINT texture (subresource = plane * mips * array + slice * mips + mip) and an
 *    R32_* / R8_* placed footprint, on DIRECT, COMPUTE and COPY queues after a clear on DIRECT;
 *    texture-to-texture copies between R16/R32 colour textures and D16/D24/D32 depth planes in
 *    both directions, bit patterns preserved (D3D12 Planar Depth Stencil spec: the depth plane of
 *    R24G8 is 32 bits per element, D24 in bits 0-23, X8 in 24-31 written as zero by copies out).
 * 2. CopyTiles: linear-buffer offsets that are multiples of 16, flags NONE as
 *    SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER, box regions in x, y, z order and row-major
 *    regions (UseBox FALSE) that wrap to the next row and the next subresource; the buffer side
 *    of each 64 KB tile is linear (rows of the tile's texels, docs of CopyTiles).
 * 3. CopyResource between textures of formats of different texel size: the debug layer reports
 *    #944, Close succeeds as on Windows, nothing is copied, the device stays alive.
 * 4. Block-compressed textures: Read/WriteToSubresource with a box that is not whole blocks →
 *    E_INVALIDARG; CopyTextureRegion from a BC footprint of a height that is not a block multiple
 *    → Close E_INVALIDARG.
 * 5. One resource on both sides: CopyBufferRegion between non-overlapping ranges of one buffer,
 *    CopyTextureRegion between mip levels and array slices of one texture (colour, and a
 *    stencil plane of one depth-stencil array), all recorded and executed.
 *
 * The debug layer is on for the whole program: each refused call is also checked for Microsoft's
 * D3D12_MESSAGE_ID in the info queue. The last line is "conf_copies: N passed, M failed"; the
 * exit status is 0 only when M is 0. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static void check_bytes(const char *file, int line, const char *what, const unsigned char *got,
                        const unsigned char *expected, size_t n)
{
    size_t i = 0;
    while (i < n && got[i] == expected[i])
        i++;
    if (i == n) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    printf("bytes differ, first at %zu: got 0x%02x, expected 0x%02x\n", i, got[i], expected[i]);
}
#define CHECK_BYTES(what, got, expected, n) check_bytes(__FILE__, __LINE__, what, got, expected, n)

/* ---- resources ------------------------------------------------------------------------------ */

#define DS_FLAG D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL

static ID3D12Device *dev;
/* The debug layer's queue (the layer is on for the whole program): failures are checked for
 * Microsoft's message IDs. */
static ID3D12InfoQueue *iq;

static int has_message(D3D12_MESSAGE_ID id);

/* One message with `id` was stored since the last check; the stored messages are cleared. */
static void expect_message(int line, D3D12_MESSAGE_ID id)
{
    int found = has_message(id);
    check_true(__FILE__, line, "the debug layer stored the expected message ID", found);
    if (!found)
        printf("    (expected D3D12_MESSAGE_ID %d)\n", (int)id);
    if (iq)
        ID3D12InfoQueue_ClearStoredMessages(iq);
}
#define EXPECT_MESSAGE(id) expect_message(__LINE__, id)

/* Whether a message with `id` is stored (the stored messages stay). */
static int has_message(D3D12_MESSAGE_ID id)
{
    UINT64 n = iq ? ID3D12InfoQueue_GetNumStoredMessages(iq) : 0;
    int found = 0;
    for (UINT64 i = 0; i < n && !found; i++) {
        SIZE_T len = 0;
        if (FAILED(ID3D12InfoQueue_GetMessage(iq, i, NULL, &len)) || len < sizeof(D3D12_MESSAGE))
            continue;
        D3D12_MESSAGE *m = malloc(len);
        if (m && SUCCEEDED(ID3D12InfoQueue_GetMessage(iq, i, m, &len)))
            found = m->ID == id;
        free(m);
    }
    return found;
}

static void clear_messages(void)
{
    if (iq)
        ID3D12InfoQueue_ClearStoredMessages(iq);
}

static D3D12_RESOURCE_DESC buf_desc(UINT64 width)
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
    return d;
}

static D3D12_RESOURCE_DESC tex_desc(DXGI_FORMAT format, UINT64 width, UINT height, UINT16 array, UINT16 mips,
                                    D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = width;
    d.Height = height;
    d.DepthOrArraySize = array;
    d.MipLevels = mips;
    d.Format = format;
    d.SampleDesc.Count = 1;
    d.Flags = flags;
    return d;
}

static ID3D12Resource *make_committed(D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES st)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = type;
    ID3D12Resource *r;
    CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &p, D3D12_HEAP_FLAG_NONE, d, st, NULL,
                                                       &IID_ID3D12Resource, (void **)&r),
                  r);
    return r;
}

static ID3D12Resource *make_buffer(D3D12_HEAP_TYPE type, UINT64 width)
{
    D3D12_RESOURCE_DESC d = buf_desc(width);
    D3D12_RESOURCE_STATES st = type == D3D12_HEAP_TYPE_UPLOAD     ? D3D12_RESOURCE_STATE_GENERIC_READ
                               : type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                  : D3D12_RESOURCE_STATE_COMMON;
    return make_committed(type, &d, st);
}

static ID3D12Resource *make_texture(const D3D12_RESOURCE_DESC *d)
{
    return make_committed(D3D12_HEAP_TYPE_DEFAULT, d, D3D12_RESOURCE_STATE_COMMON);
}

/* An UPLOAD buffer holding `n` bytes of `data`. */
static ID3D12Resource *upload_of(const void *data, UINT64 n)
{
    ID3D12Resource *r = make_buffer(D3D12_HEAP_TYPE_UPLOAD, n);
    void *m = NULL;
    if (r && SUCCEEDED(ID3D12Resource_Map(r, 0, NULL, &m))) {
        memcpy(m, data, n);
        ID3D12Resource_Unmap(r, 0, NULL);
    }
    return r;
}

/* `n` bytes at `off` of a mappable buffer (zeros when it cannot be mapped). */
static void read_buf(ID3D12Resource *r, UINT64 off, void *out, UINT64 n)
{
    void *m = NULL;
    memset(out, 0, n);
    HRESULT hr = ID3D12Resource_Map(r, 0, NULL, &m);
    CHECK_HR(hr, S_OK);
    if (SUCCEEDED(hr)) {
        memcpy(out, (unsigned char *)m + off, n);
        D3D12_RANGE none = {0, 0};
        ID3D12Resource_Unmap(r, 0, &none);
    }
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    uint32_t x = seed * 2654435761u + 12345u;
    for (size_t i = 0; i < n; i++) {
        x = x * 1103515245u + 12345u;
        p[i] = (unsigned char)(x >> 16);
    }
}

static D3D12_TEXTURE_COPY_LOCATION loc_sub(ID3D12Resource *r, UINT sub)
{
    D3D12_TEXTURE_COPY_LOCATION l;
    memset(&l, 0, sizeof(l));
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l.SubresourceIndex = sub;
    return l;
}

/* A placed footprint at `offset` of `r`: `format`, w x h, pitch 256. */
static D3D12_TEXTURE_COPY_LOCATION loc_fp(ID3D12Resource *r, UINT64 offset, DXGI_FORMAT format, UINT w, UINT h)
{
    D3D12_TEXTURE_COPY_LOCATION l;
    memset(&l, 0, sizeof(l));
    l.pResource = r;
    l.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    l.PlacedFootprint.Offset = offset;
    l.PlacedFootprint.Footprint.Format = format;
    l.PlacedFootprint.Footprint.Width = w;
    l.PlacedFootprint.Footprint.Height = h;
    l.PlacedFootprint.Footprint.Depth = 1;
    l.PlacedFootprint.Footprint.RowPitch = 256;
    return l;
}

static void barrier(ID3D12GraphicsCommandList *l, ID3D12Resource *r, UINT sub, D3D12_RESOURCE_STATES before,
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

static void copy_region(ID3D12GraphicsCommandList *l, D3D12_TEXTURE_COPY_LOCATION dst, UINT x, UINT y,
                        D3D12_TEXTURE_COPY_LOCATION src, const D3D12_BOX *box)
{
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &dst, x, y, 0, &src, box);
}

/* ---- queues --------------------------------------------------------------------------------- */

struct q {
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    UINT64 value;
};

static const char *type_name(D3D12_COMMAND_LIST_TYPE t)
{
    return t == D3D12_COMMAND_LIST_TYPE_DIRECT ? "DIRECT" : t == D3D12_COMMAND_LIST_TYPE_COMPUTE ? "COMPUTE" : "COPY";
}

static void q_release(struct q *q)
{
    RELEASE0(q->list);
    RELEASE0(q->alloc);
    RELEASE0(q->fence);
    RELEASE0(q->queue);
}

/* A queue with a closed list; 1 when every object exists. */
static int q_init(struct q *q, D3D12_COMMAND_LIST_TYPE type)
{
    memset(q, 0, sizeof(*q));
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = type;
    CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q->queue), q->queue);
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, type, &IID_ID3D12CommandAllocator, (void **)&q->alloc),
                  q->alloc);
    if (q->alloc)
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, type, q->alloc, NULL, &IID_ID3D12GraphicsCommandList,
                                                     (void **)&q->list),
                      q->list);
    if (q->list)
        CHECK_HR(ID3D12GraphicsCommandList_Close(q->list), S_OK);
    CHECK_CREATED(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&q->fence),
                  q->fence);
    if (q->queue && q->alloc && q->list && q->fence)
        return 1;
    q_release(q);
    return 0;
}

static ID3D12GraphicsCommandList *q_begin(struct q *q)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(q->alloc), S_OK);
    HRESULT hr = ID3D12GraphicsCommandList_Reset(q->list, q->alloc, NULL);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr)) {
        /* After a failed Close the list is unusable (that failure was counted): the next
         * checks get a new list. */
        D3D12_COMMAND_LIST_TYPE type = ID3D12CommandQueue_GetDesc(q->queue).Type;
        RELEASE0(q->list);
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, type, q->alloc, NULL, &IID_ID3D12GraphicsCommandList,
                                                     (void **)&q->list),
                      q->list);
    }
    return q->list;
}

/* Close (S_OK expected), execute, wait; 1 when it ran and the device is alive. */
static int q_submit(struct q *q)
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
    CHECK_EQ(ID3D12Fence_GetCompletedValue(q->fence), q->value);
    HRESULT removed = ID3D12Device_GetDeviceRemovedReason(dev);
    CHECK_HR(removed, S_OK);
    return removed == S_OK;
}

/* A fresh DIRECT allocator and recording list for a recording that must fail: a list whose
 * Close failed can never be reset again (docs of Close and Reset). */
struct scratch {
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
};

static ID3D12GraphicsCommandList *scratch_open(struct scratch *s)
{
    memset(s, 0, sizeof(*s));
    clear_messages();
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT,
                                                      &IID_ID3D12CommandAllocator, (void **)&s->alloc),
                  s->alloc);
    if (s->alloc)
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, s->alloc, NULL,
                                                     &IID_ID3D12GraphicsCommandList, (void **)&s->list),
                      s->list);
    return s->list;
}

/* Close must fail with E_INVALIDARG after the debug layer reported `id`; Reset then fails the
 * same way; the device stays alive. */
static void scratch_close_fails(int line, struct scratch *s, D3D12_MESSAGE_ID id)
{
    if (s->list) {
        expect_message(line, id);
        check_hr(__FILE__, line, "Close", ID3D12GraphicsCommandList_Close(s->list), E_INVALIDARG);
        check_hr(__FILE__, line, "Reset", ID3D12GraphicsCommandList_Reset(s->list, s->alloc, NULL), E_INVALIDARG);
    }
    RELEASE0(s->list);
    RELEASE0(s->alloc);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
}

/* ---- 1. depth and stencil planes ------------------------------------------------------------ */

static ID3D12DescriptorHeap *dsv_heap(void)
{
    D3D12_DESCRIPTOR_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_DSV;
    hd.NumDescriptors = 1;
    ID3D12DescriptorHeap *h;
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h), h);
    return h;
}

/* Clears a 4x4 depth-stencil texture (DEPTH_WRITE) on DIRECT and leaves it in COMMON. */
static int clear_ds(struct q *direct, ID3D12Resource *t, float depth, UINT8 stencil)
{
    ID3D12DescriptorHeap *h = dsv_heap();
    int ok = 0;
    ID3D12GraphicsCommandList *l = h ? q_begin(direct) : NULL;
    if (l) {
        D3D12_CPU_DESCRIPTOR_HANDLE c = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h);
        ID3D12Device_CreateDepthStencilView(dev, t, NULL, c);
        ID3D12GraphicsCommandList_ClearDepthStencilView(l, c, D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, depth,
                                                       stencil, 0, NULL);
        barrier(l, t, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_DEPTH_WRITE,
                D3D12_RESOURCE_STATE_COMMON);
        ok = q_submit(direct);
    }
    RELEASE0(h);
    return ok;
}

/* Reads plane 0 (as `depth_fmt`, 4 bytes) and plane 1 (as `stencil_fmt`) of a 4x4 depth-stencil
 * texture in COMMON on queue `q`; the 16 depth words and 16 stencil bytes land in the arrays. */
static int read_planes(struct q *q, ID3D12Resource *t, DXGI_FORMAT depth_fmt, DXGI_FORMAT stencil_fmt,
                       uint32_t depth[16], unsigned char stencil[16])
{
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 2048);
    int ok = 0;
    memset(depth, 0, 64);
    memset(stencil, 0, 16);
    ID3D12GraphicsCommandList *l = rb ? q_begin(q) : NULL;
    if (l) {
        copy_region(l, loc_fp(rb, 0, depth_fmt, 4, 4), 0, 0, loc_sub(t, 0), NULL);
        copy_region(l, loc_fp(rb, 1024, stencil_fmt, 4, 4), 0, 0, loc_sub(t, 1), NULL);
        if (q_submit(q)) {
            for (int y = 0; y < 4; y++) {
                read_buf(rb, (UINT64)y * 256, depth + y * 4, 16);
                read_buf(rb, 1024 + (UINT64)y * 256, stencil + y * 4, 4);
            }
            ok = 1;
        }
    }
    RELEASE0(rb);
    return ok;
}

static void check_planes(const uint32_t depth[16], const unsigned char stencil[16], uint32_t want_depth,
                         unsigned char want_stencil)
{
    for (int i = 0; i < 16; i++) {
        CHECK_EQ(depth[i], want_depth);
        CHECK_EQ(stencil[i], want_stencil);
    }
}

/* A clear on DIRECT, read back on every queue type through R32 / R8 footprints. */
static void test_ds_planes_on_queues(struct q qs[3])
{
    D3D12_RESOURCE_DESC d24 = tex_desc(DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 4, 1, 1, DS_FLAG);
    D3D12_RESOURCE_DESC d32 =
        tex_desc(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 4, 4, 1, 1, DS_FLAG);
    ID3D12Resource *a = make_committed(D3D12_HEAP_TYPE_DEFAULT, &d24, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    ID3D12Resource *b = make_committed(D3D12_HEAP_TYPE_DEFAULT, &d32, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    uint32_t depth[16];
    unsigned char stencil[16];
    /* D24: 0.25 x (2^24 - 1) = 4194303.75 -> 0x400000 in bits 0-23, bits 24-31 zero. */
    if (a && clear_ds(&qs[0], a, 0.25f, 0x5a)) {
        static const DXGI_FORMAT dfmt[3] = {DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32_UINT};
        static const DXGI_FORMAT sfmt[3] = {DXGI_FORMAT_R8_TYPELESS, DXGI_FORMAT_R8_UINT, DXGI_FORMAT_R8_TYPELESS};
        for (int i = 0; i < 3; i++) {
            set_ctx("D24S8 planes read on %s", type_name(ID3D12CommandQueue_GetDesc(qs[i].queue).Type));
            if (read_planes(&qs[i], a, dfmt[i], sfmt[i], depth, stencil))
                check_planes(depth, stencil, 0x400000u, 0x5a);
        }
    }
    /* D32S8: the float's bits (0.75f = 0x3f400000). */
    if (b && clear_ds(&qs[0], b, 0.75f, 0xc3)) {
        for (int i = 0; i < 3; i++) {
            set_ctx("D32S8 planes read on %s", type_name(ID3D12CommandQueue_GetDesc(qs[i].queue).Type));
            if (read_planes(&qs[i], b, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R8_UINT, depth, stencil))
                check_planes(depth, stencil, 0x3f400000u, 0xc3);
        }
    }
    RELEASE0(a);
    RELEASE0(b);
    g_ctx[0] = 0;
}

/* Every subresource of an 8x8 D32S8 texture with 2 mips and 2 slices (subresource = plane * 4 +
 * slice * 2 + mip) written from its own footprint on COPY and read back on COMPUTE. */
static void test_ds_subresource_indices(struct q *copy, struct q *compute)
{
    set_ctx("D32S8 8x8, 2 mips, 2 slices: 8 subresources");
    D3D12_RESOURCE_DESC d =
        tex_desc(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 8, 8, 2, 2, DS_FLAG);
    ID3D12Resource *t = make_texture(&d);
    static unsigned char img[8 * 2048], got[8 * 2048];
    fill_pattern(img, sizeof(img), 7);
    ID3D12Resource *up = upload_of(img, sizeof(img));
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, sizeof(img));
    ID3D12GraphicsCommandList *l = t && up && rb ? q_begin(copy) : NULL;
    if (!l)
        goto out;
    for (UINT sub = 0; sub < 8; sub++) {
        UINT plane = sub / 4, mip = sub % 2, size = 8 >> mip;
        DXGI_FORMAT f = plane ? DXGI_FORMAT_R8_UINT : DXGI_FORMAT_R32_FLOAT;
        copy_region(l, loc_sub(t, sub), 0, 0, loc_fp(up, sub * 2048, f, size, size), NULL);
    }
    if (!q_submit(copy) || !(l = q_begin(compute)))
        goto out;
    for (UINT sub = 0; sub < 8; sub++) {
        UINT plane = sub / 4, mip = sub % 2, size = 8 >> mip;
        DXGI_FORMAT f = plane ? DXGI_FORMAT_R8_TYPELESS : DXGI_FORMAT_R32_TYPELESS;
        copy_region(l, loc_fp(rb, sub * 2048, f, size, size), 0, 0, loc_sub(t, sub), NULL);
    }
    if (q_submit(compute)) {
        read_buf(rb, 0, got, sizeof(got));
        for (UINT sub = 0; sub < 8; sub++) {
            UINT plane = sub / 4, mip = sub % 2, size = 8 >> mip;
            set_ctx("D32S8 subresource %u (plane %u, slice %u, mip %u)", sub, plane, (sub / 2) % 2, mip);
            for (UINT y = 0; y < size; y++) {
                size_t o = sub * 2048 + y * 256;
                CHECK_BYTES("row", got + o, img + o, size * (plane ? 1 : 4));
            }
        }
    }
out:
    RELEASE0(t);
    RELEASE0(up);
    RELEASE0(rb);
    g_ctx[0] = 0;
}

/* Both planes of a D24S8 texture through the footprints GetCopyableFootprints gives for them
 * (one buffer, pitch 512, plane 1 right after plane 0: footprints.md 4.5), as d3dx12's
 * UpdateSubresources uses them: 16x8, plane 0 R32_TYPELESS at 0, plane 1 R8_TYPELESS at
 * 8 x 512 = 4096. */
static void test_ds_copyable_footprints(struct q *q)
{
    set_ctx("D24S8 16x8 through GetCopyableFootprints' two footprints");
    D3D12_RESOURCE_DESC d = tex_desc(DXGI_FORMAT_D24_UNORM_S8_UINT, 16, 8, 1, 1, DS_FLAG);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp[2];
    UINT rows[2];
    UINT64 row_size[2], total = 0;
    ID3D12Device_GetCopyableFootprints(dev, &d, 0, 2, 0, fp, rows, row_size, &total);
    CHECK_EQ(fp[0].Footprint.Format, DXGI_FORMAT_R32_TYPELESS);
    CHECK_EQ(fp[1].Footprint.Format, DXGI_FORMAT_R8_TYPELESS);
    CHECK_EQ(fp[0].Footprint.RowPitch, 512);
    CHECK_EQ(fp[1].Offset, 4096);
    CHECK_EQ(total, 4096 + 7 * 512 + 16);
    if (total != 4096 + 7 * 512 + 16)
        return;
    static unsigned char img[4096 + 7 * 512 + 16], got[sizeof(img)];
    fill_pattern(img, sizeof(img), 21);
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++)
            img[y * 512 + x * 4 + 3] = 0; /* X8 of D24X8 */
    ID3D12Resource *t = make_texture(&d), *up = upload_of(img, sizeof(img));
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, sizeof(img));
    ID3D12GraphicsCommandList *l = t && up && rb ? q_begin(q) : NULL;
    if (l) {
        for (UINT sub = 0; sub < 2; sub++) {
            D3D12_TEXTURE_COPY_LOCATION src = loc_fp(up, 0, DXGI_FORMAT_UNKNOWN, 0, 0);
            src.PlacedFootprint = fp[sub];
            copy_region(l, loc_sub(t, sub), 0, 0, src, NULL);
        }
        barrier(l, t, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST,
                D3D12_RESOURCE_STATE_COPY_SOURCE);
        for (UINT sub = 0; sub < 2; sub++) {
            D3D12_TEXTURE_COPY_LOCATION dst = loc_fp(rb, 0, DXGI_FORMAT_UNKNOWN, 0, 0);
            dst.PlacedFootprint = fp[sub];
            copy_region(l, dst, 0, 0, loc_sub(t, sub), NULL);
        }
        barrier(l, t, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_SOURCE,
                D3D12_RESOURCE_STATE_COMMON);
        if (q_submit(q)) {
            read_buf(rb, 0, got, sizeof(got));
            for (UINT sub = 0; sub < 2; sub++)
                for (UINT y = 0; y < rows[sub]; y++) {
                    size_t o = fp[sub].Offset + (size_t)y * fp[sub].Footprint.RowPitch;
                    CHECK_BYTES(sub ? "stencil row" : "depth row", got + o, img + o, row_size[sub]);
                }
        }
    }
    RELEASE0(t);
    RELEASE0(up);
    RELEASE0(rb);
    g_ctx[0] = 0;
}

/* Fills subresource `sub` of `t` (COMMON) from `data` as 4x4 elements of `bytes` bytes through a
 * footprint of `fmt`, and reads subresource `rsub` of `r` back through a footprint of `rfmt`. */
static int upload_4x4(struct q *q, ID3D12Resource *t, UINT sub, DXGI_FORMAT fmt, const void *data, UINT bytes)
{
    unsigned char img[1024];
    memset(img, 0, sizeof(img));
    for (int y = 0; y < 4; y++)
        memcpy(img + y * 256, (const unsigned char *)data + y * 4 * bytes, 4 * bytes);
    ID3D12Resource *up = upload_of(img, sizeof(img));
    int ok = 0;
    ID3D12GraphicsCommandList *l = up ? q_begin(q) : NULL;
    if (l) {
        copy_region(l, loc_sub(t, sub), 0, 0, loc_fp(up, 0, fmt, 4, 4), NULL);
        barrier(l, t, sub, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
        ok = q_submit(q);
    }
    RELEASE0(up);
    return ok;
}

static int readback_4x4(struct q *q, ID3D12Resource *t, UINT sub, DXGI_FORMAT fmt, void *out, UINT bytes)
{
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 1024);
    int ok = 0;
    memset(out, 0, 16 * bytes);
    ID3D12GraphicsCommandList *l = rb ? q_begin(q) : NULL;
    if (l) {
        copy_region(l, loc_fp(rb, 0, fmt, 4, 4), 0, 0, loc_sub(t, sub), NULL);
        if (q_submit(q)) {
            for (int y = 0; y < 4; y++)
                read_buf(rb, (UINT64)y * 256, (unsigned char *)out + y * 4 * bytes, 4 * bytes);
            ok = 1;
        }
    }
    RELEASE0(rb);
    return ok;
}

/* Texture-to-texture copies between colour textures and depth planes, both directions. */
struct tex_pair {
    DXGI_FORMAT color, depth;
    UINT bytes, plane;
    DXGI_FORMAT fp; /* footprint format for uploads and read-backs */
};

static void test_color_depth_copies(struct q *q)
{
    static const struct tex_pair pairs[] = {
        {DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_D32_FLOAT, 4, 0, DXGI_FORMAT_R32_TYPELESS},
        {DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_D32_FLOAT, 4, 0, DXGI_FORMAT_R32_FLOAT},
        {DXGI_FORMAT_R16_UNORM, DXGI_FORMAT_D16_UNORM, 2, 0, DXGI_FORMAT_R16_TYPELESS},
        {DXGI_FORMAT_R16_UINT, DXGI_FORMAT_D16_UNORM, 2, 0, DXGI_FORMAT_R16_UNORM},
        {DXGI_FORMAT_R32_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 0, DXGI_FORMAT_R32_UINT},
        {DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 4, 0, DXGI_FORMAT_R32_FLOAT},
        {DXGI_FORMAT_R8_UINT, DXGI_FORMAT_D24_UNORM_S8_UINT, 1, 1, DXGI_FORMAT_R8_UINT},
        {DXGI_FORMAT_R8_UINT, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 1, 1, DXGI_FORMAT_R8_TYPELESS},
    };
    for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
        const struct tex_pair *p = &pairs[i];
        set_ctx("colour %d <-> depth %d plane %u", p->color, p->depth, p->plane);
        D3D12_RESOURCE_DESC cd = tex_desc(p->color, 4, 4, 1, 1, D3D12_RESOURCE_FLAG_NONE);
        D3D12_RESOURCE_DESC dd = tex_desc(p->depth, 4, 4, 1, 1, DS_FLAG);
        ID3D12Resource *c = make_texture(&cd), *d = make_texture(&dd), *c2 = make_texture(&cd);
        unsigned char data[64], want[64], got[64];
        fill_pattern(data, sizeof(data), 11 + (unsigned)i);
        memcpy(want, data, sizeof(data));
        /* D24's depth field is bits 0-23; copies give the X8 bits (24-31) as zero, whatever the
         * colour texture held there (every source element has a non-zero byte 3 here). */
        if (p->depth == DXGI_FORMAT_D24_UNORM_S8_UINT && p->plane == 0)
            for (int k = 0; k < 16; k++) {
                data[k * 4 + 3] |= 0x80;
                want[k * 4 + 3] = 0;
            }
        /* colour -> depth: read the plane back through a footprint. */
        if (c && d && c2 && upload_4x4(q, c, 0, p->color == DXGI_FORMAT_R32_TYPELESS ? DXGI_FORMAT_R32_UINT : p->color,
                                       data, p->bytes)) {
            ID3D12GraphicsCommandList *l = q_begin(q);
            if (l) {
                copy_region(l, loc_sub(d, p->plane), 0, 0, loc_sub(c, 0), NULL);
                barrier(l, d, p->plane, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
                if (q_submit(q) && readback_4x4(q, d, p->plane, p->fp, got, p->bytes))
                    CHECK_BYTES("colour -> depth plane, read as a footprint", got, want, 16 * p->bytes);
            }
            /* depth -> colour (CopyTextureRegion), and read the colour texture back. */
            l = q_begin(q);
            if (l) {
                copy_region(l, loc_sub(c2, 0), 0, 0, loc_sub(d, p->plane), NULL);
                barrier(l, c2, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
                if (q_submit(q) && readback_4x4(q, c2, 0, p->fp == DXGI_FORMAT_R32_TYPELESS ? DXGI_FORMAT_R32_UINT
                                                          : p->color == DXGI_FORMAT_R32_TYPELESS ? DXGI_FORMAT_R32_UINT
                                                                                                 : p->color,
                                                got, p->bytes))
                    CHECK_BYTES("depth plane -> colour", got, want, 16 * p->bytes);
            }
        }
        /* CopyResource between the single-plane pairs (same subresource count). */
        if (c && d && c2 && p->depth != DXGI_FORMAT_D24_UNORM_S8_UINT && p->depth != DXGI_FORMAT_D32_FLOAT_S8X24_UINT) {
            ID3D12GraphicsCommandList *l = q_begin(q);
            if (l) {
                ID3D12GraphicsCommandList_CopyResource(l, c2, d);
                barrier(l, c2, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
                if (q_submit(q) && readback_4x4(q, c2, 0, p->fp, got, p->bytes))
                    CHECK_BYTES("CopyResource depth -> colour", got, want, 16 * p->bytes);
            }
        }
        RELEASE0(c);
        RELEASE0(c2);
        RELEASE0(d);
    }
    g_ctx[0] = 0;
}

/* A footprint upload into D24S8's depth plane with bits 24-31 set reads back with them zero
 * (the plane holds D24X8), on a COPY queue. */
static void test_d24_x8(struct q *copy)
{
    set_ctx("D24S8 depth plane from an R32_UINT footprint with X8 bits set");
    D3D12_RESOURCE_DESC d = tex_desc(DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 4, 1, 1, DS_FLAG);
    ID3D12Resource *t = make_texture(&d);
    uint32_t in[16], out[16];
    for (int k = 0; k < 16; k++)
        in[k] = 0xff000000u | (0x10203u * (uint32_t)(k + 1));
    if (t && upload_4x4(copy, t, 0, DXGI_FORMAT_R32_UINT, in, 4) &&
        readback_4x4(copy, t, 0, DXGI_FORMAT_R32_TYPELESS, out, 4))
        for (int k = 0; k < 16; k++)
            CHECK_EQ(out[k], 0x10203u * (uint32_t)(k + 1));
    RELEASE0(t);
    g_ctx[0] = 0;
}

/* ---- 2. CopyTiles --------------------------------------------------------------------------- */

#define TILE 65536u
/* Where mip 1 of the CopyTiles texture starts in its upload buffer (after 384 rows of 1024 bytes). */
#define MIP1_AT (384u * 1024u)

static void map_all(ID3D12CommandQueue *queue, ID3D12Resource *r, ID3D12Heap *heap, UINT tiles)
{
    D3D12_TILED_RESOURCE_COORDINATE c = {0, 0, 0, 0};
    D3D12_TILE_REGION_SIZE sz = {tiles, FALSE, 0, 0, 0};
    D3D12_TILE_RANGE_FLAGS fl = D3D12_TILE_RANGE_FLAG_NONE;
    UINT start = 0;
    ID3D12CommandQueue_UpdateTileMappings(queue, r, 1, &c, &sz, heap, 1, &fl, &start, &tiles,
                                          D3D12_TILE_MAPPING_FLAG_NONE);
}

static void copy_tiles(ID3D12GraphicsCommandList *l, ID3D12Resource *t, UINT x, UINT y, UINT sub,
                       D3D12_TILE_REGION_SIZE size, ID3D12Resource *b, UINT64 off, D3D12_TILE_COPY_FLAGS f)
{
    D3D12_TILED_RESOURCE_COORDINATE c = {x, y, 0, sub};
    ID3D12GraphicsCommandList_CopyTiles(l, t, &c, &size, b, off, f);
}

/* RGBA8 reserved texture 256x384 with 2 mips: mip 0 is 2x3 tiles of 128x128 (tiles 0-5), mip 1
 * (128x192) 1x2 tiles (6, 7). Texel (x, y) of mip (or slice) m: x, y, their high bits and m. */
static void texel_value(unsigned char *t, UINT x, UINT y, UINT mip)
{
    t[0] = (unsigned char)x;
    t[1] = (unsigned char)y;
    t[2] = (unsigned char)((x >> 8) | (y >> 8) << 2 | mip << 4);
    t[3] = (unsigned char)(0xa0 + mip);
}

/* The linear 64 KB image of tile (tx, ty) of mip (or slice) m: 128 rows of 512 bytes (docs of
 * CopyTiles: the buffer side of each tile is linear). */
static void tile_image(unsigned char *out, UINT tx, UINT ty, UINT mip)
{
    for (UINT y = 0; y < 128; y++)
        for (UINT x = 0; x < 128; x++)
            texel_value(out + y * 512 + x * 4, tx * 128 + x, ty * 128 + y, mip);
}

static void test_copy_tiles(struct q *q)
{
    set_ctx("CopyTiles");
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 256, 384, 1, 2, D3D12_RESOURCE_FLAG_NONE);
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    ID3D12Resource *t = NULL, *up = NULL, *rb = NULL;
    ID3D12Heap *heap = NULL;
    unsigned char *img = calloc(1, MIP1_AT + 192 * 1024), *got = malloc(8 * TILE + 64), *want = malloc(TILE);
    UINT total = 0;
    CHECK_CREATED(ID3D12Device_CreateReservedResource(dev, &td, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                      (void **)&t),
                  t);
    if (t) {
        D3D12_PACKED_MIP_INFO pm;
        D3D12_TILE_SHAPE shape;
        UINT n = 2;
        D3D12_SUBRESOURCE_TILING st[2];
        ID3D12Device_GetResourceTiling(dev, t, &total, &pm, &shape, &n, 0, st);
        CHECK_EQ(total, 8);
        CHECK_EQ(pm.NumPackedMips, 0);
        CHECK_EQ(shape.WidthInTexels, 128);
        CHECK_EQ(st[0].WidthInTiles, 2);
        CHECK_EQ(st[0].HeightInTiles, 3);
        CHECK_EQ(st[1].WidthInTiles, 1);
        CHECK_EQ(st[1].HeightInTiles, 2);
        CHECK_EQ(st[1].StartTileIndexInOverallResource, 6);
    }
    D3D12_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.SizeInBytes = 8 * TILE;
    hd.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    hd.Flags = D3D12_HEAP_FLAG_DENY_BUFFERS | D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES;
    CHECK_CREATED(ID3D12Device_CreateHeap(dev, &hd, &IID_ID3D12Heap, (void **)&heap), heap);
    if (!t || !heap || total != 8 || !img || !got || !want)
        goto out;
    map_all(q->queue, t, heap, 8);

    /* Both mips through CopyTextureRegion (texel values known everywhere). */
    {
        for (UINT mip = 0; mip < 2; mip++) {
            UINT w = 256 >> mip, h = 384 >> mip;
            for (UINT y = 0; y < h; y++)
                for (UINT x = 0; x < w; x++)
                    texel_value(img + (mip ? MIP1_AT : 0) + y * 1024 + x * 4, x, y, mip);
        }
        up = upload_of(img, MIP1_AT + 192 * 1024);
        ID3D12GraphicsCommandList *l = up ? q_begin(q) : NULL;
        if (!l)
            goto out;
        D3D12_TEXTURE_COPY_LOCATION s0 = loc_fp(up, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 256, 384);
        s0.PlacedFootprint.Footprint.RowPitch = 1024;
        D3D12_TEXTURE_COPY_LOCATION s1 = loc_fp(up, MIP1_AT, DXGI_FORMAT_R8G8B8A8_UNORM, 128, 192);
        s1.PlacedFootprint.Footprint.RowPitch = 1024;
        copy_region(l, loc_sub(t, 0), 0, 0, s0, NULL);
        copy_region(l, loc_sub(t, 1), 0, 0, s1, NULL);
        barrier(l, t, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST,
                D3D12_RESOURCE_STATE_COMMON);
        if (!q_submit(q))
            goto out;
    }

    /* Flags NONE = SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER; offset 48 (a multiple of 16, not of
     * 512); a 2x2 box at tile (0, 1) of mip 0 comes out in x, y order: (0,1) (1,1) (0,2) (1,2). */
    rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 8 * TILE + 64);
    ID3D12GraphicsCommandList *l = rb ? q_begin(q) : NULL;
    if (!l)
        goto out;
    D3D12_TILE_REGION_SIZE box = {4, TRUE, 2, 2, 1};
    copy_tiles(l, t, 0, 1, 0, box, rb, 48, D3D12_TILE_COPY_FLAG_NONE);
    if (q_submit(q)) {
        static const UINT order[4][2] = {{0, 1}, {1, 1}, {0, 2}, {1, 2}};
        for (int k = 0; k < 4; k++) {
            set_ctx("CopyTiles box, flags NONE, offset 48: tile %d = (%u, %u)", k, order[k][0], order[k][1]);
            read_buf(rb, 48 + (UINT64)k * TILE, got, TILE);
            tile_image(want, order[k][0], order[k][1], 0);
            CHECK_BYTES("linear tile", got, want, TILE);
        }
    }

    /* Row-major, no box: 4 tiles from (1, 1) of mip 0 run (1,1) (0,2) (1,2), then wrap into mip 1's
     * tile (0,0); offset 16. */
    l = q_begin(q);
    if (!l)
        goto out;
    D3D12_TILE_REGION_SIZE run = {4, FALSE, 0, 0, 0};
    copy_tiles(l, t, 1, 1, 0, run, rb, 16, D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    if (q_submit(q)) {
        static const UINT order[4][3] = {{1, 1, 0}, {0, 2, 0}, {1, 2, 0}, {0, 0, 1}};
        for (int k = 0; k < 4; k++) {
            set_ctx("CopyTiles row-major from (1,1): tile %d = mip %u (%u, %u)", k, order[k][2], order[k][0],
                    order[k][1]);
            read_buf(rb, 16 + (UINT64)k * TILE, got, TILE);
            tile_image(want, order[k][0], order[k][1], order[k][2]);
            CHECK_BYTES("linear tile", got, want, TILE);
        }
    }

    /* Buffer -> tiles: mip 1's tile (0,1) written from mip 0's tile (1,0) image at offset 32 (row-major,
     * one tile), then read back with a box. */
    {
        ID3D12Resource *src = NULL;
        tile_image(want, 1, 0, 0);
        memset(got, 0, 32);
        memcpy(got + 32, want, TILE);
        src = upload_of(got, TILE + 32);
        l = src ? q_begin(q) : NULL;
        if (l) {
            D3D12_TILE_REGION_SIZE one = {1, FALSE, 0, 0, 0};
            copy_tiles(l, t, 0, 1, 1, one, src, 32, D3D12_TILE_COPY_FLAG_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE);
            barrier(l, t, 1, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
            D3D12_TILE_REGION_SIZE b1 = {1, TRUE, 1, 1, 1};
            copy_tiles(l, t, 0, 1, 1, b1, rb, 0, D3D12_TILE_COPY_FLAG_NONE);
            if (q_submit(q)) {
                set_ctx("CopyTiles buffer -> mip 1 tile (0,1) -> buffer");
                read_buf(rb, 0, got, TILE);
                CHECK_BYTES("tile written and read back", got, want, TILE);
            }
        }
        RELEASE0(src);
    }

    /* Invalid: an offset that is not a multiple of 16, and both direction flags. */
    set_ctx("CopyTiles invalid");
    {
        struct scratch sc;
        D3D12_TILE_REGION_SIZE one = {1, FALSE, 0, 0, 0};
        if ((l = scratch_open(&sc)))
            copy_tiles(l, t, 0, 0, 0, one, rb, 8, D3D12_TILE_COPY_FLAG_NONE);
        scratch_close_fails(__LINE__, &sc, D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER);
        if ((l = scratch_open(&sc)))
            copy_tiles(l, t, 0, 0, 0, one, rb, 0,
                       D3D12_TILE_COPY_FLAG_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE |
                           D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
        scratch_close_fails(__LINE__, &sc, D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER);
    }
out:
    free(img);
    free(got);
    free(want);
    RELEASE0(up);
    RELEASE0(rb);
    RELEASE0(t);
    RELEASE0(heap);
    g_ctx[0] = 0;
}

/* A box with Depth 2 in a 2D array runs through the next array slice at the same mip
 * (D3D12_TILE_REGION_SIZE): RGBA8 256x256, 1 mip, 2 slices (2x2 tiles each); a 1x2x2 box at
 * tile (1, 0) of slice 0 gives slice 0's (1,0) (1,1), then slice 1's (1,0) (1,1). */
static void test_copy_tiles_array(struct q *q)
{
    set_ctx("CopyTiles box through array slices");
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256, 2, 1, D3D12_RESOURCE_FLAG_NONE);
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    ID3D12Resource *t = NULL, *up = NULL, *rb = NULL;
    ID3D12Heap *heap = NULL;
    unsigned char *img = malloc(2 * 256 * 1024), *got = malloc(TILE), *want = malloc(TILE);
    CHECK_CREATED(ID3D12Device_CreateReservedResource(dev, &td, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                      (void **)&t),
                  t);
    D3D12_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.SizeInBytes = 8 * TILE;
    hd.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    hd.Flags = D3D12_HEAP_FLAG_DENY_BUFFERS | D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES;
    CHECK_CREATED(ID3D12Device_CreateHeap(dev, &hd, &IID_ID3D12Heap, (void **)&heap), heap);
    if (!t || !heap || !img || !got || !want)
        goto out;
    map_all(q->queue, t, heap, 8);
    for (UINT slice = 0; slice < 2; slice++)
        for (UINT y = 0; y < 256; y++)
            for (UINT x = 0; x < 256; x++)
                texel_value(img + slice * 256 * 1024 + y * 1024 + x * 4, x, y, slice);
    up = upload_of(img, 2 * 256 * 1024);
    rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 4 * TILE);
    ID3D12GraphicsCommandList *l = up && rb ? q_begin(q) : NULL;
    if (!l)
        goto out;
    for (UINT slice = 0; slice < 2; slice++) {
        D3D12_TEXTURE_COPY_LOCATION src = loc_fp(up, slice * 256 * 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256);
        src.PlacedFootprint.Footprint.RowPitch = 1024;
        copy_region(l, loc_sub(t, slice), 0, 0, src, NULL);
    }
    barrier(l, t, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COMMON);
    D3D12_TILE_REGION_SIZE box = {4, TRUE, 1, 2, 2};
    copy_tiles(l, t, 1, 0, 0, box, rb, 0, D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER);
    if (q_submit(q)) {
        static const UINT order[4][3] = {{1, 0, 0}, {1, 1, 0}, {1, 0, 1}, {1, 1, 1}};
        for (int k = 0; k < 4; k++) {
            set_ctx("CopyTiles 1x2x2 box: tile %d = slice %u (%u, %u)", k, order[k][2], order[k][0], order[k][1]);
            read_buf(rb, (UINT64)k * TILE, got, TILE);
            tile_image(want, order[k][0], order[k][1], order[k][2]);
            CHECK_BYTES("linear tile", got, want, TILE);
        }
    }
out:
    free(img);
    free(got);
    free(want);
    RELEASE0(up);
    RELEASE0(rb);
    RELEASE0(t);
    RELEASE0(heap);
    g_ctx[0] = 0;
}

/* ---- 3. CopyResource of formats of different texel size ------------------------------------ */

/* Invalid (the sizes in bytes differ), but Windows' runtime records it and Close succeeds: only
 * the debug layer reports #944 (issue #16). rd3d12 copies nothing: the destination keeps its
 * bytes, the rest of the list runs and the device stays alive. */
static void test_copy_resource_size_mismatch(struct q *q)
{
    D3D12_RESOURCE_DESC a = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    D3D12_RESOURCE_DESC b = tex_desc(DXGI_FORMAT_R16G16B16A16_FLOAT, 16, 16, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    D3D12_RESOURCE_DESC c = tex_desc(DXGI_FORMAT_R16_FLOAT, 16, 16, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *ta = make_texture(&a), *tb = make_texture(&b), *tc = make_texture(&c);
    /* 16 rows of 256 bytes (64 used), every byte 0x11. */
    static UINT8 fill[16 * 256];
    memset(fill, 0x11, sizeof(fill));
    ID3D12Resource *up = upload_of(fill, sizeof(fill));
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, sizeof(fill));
    const struct {
        const char *what;
        ID3D12Resource *dst, *src;
    } cases[2] = {{"CopyResource RGBA8 <- RGBA16F (4 vs 8 bytes a texel)", ta, tb},
                  {"CopyResource R16F <- RGBA8 (2 vs 4 bytes a texel)", tc, ta}};
    for (int k = 0; k < 2; k++) {
        set_ctx("%s", cases[k].what);
        ID3D12GraphicsCommandList *l = ta && tb && tc && up && rb ? q_begin(q) : NULL;
        if (!l)
            break;
        if (iq)
            ID3D12InfoQueue_ClearStoredMessages(iq);
        copy_region(l, loc_sub(ta, 0), 0, 0, loc_fp(up, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16), NULL);
        ID3D12GraphicsCommandList_CopyResource(l, cases[k].dst, cases[k].src);
        EXPECT_MESSAGE(D3D12_MESSAGE_ID_COPYRESOURCE_INVALIDDSTRESOURCE);
        barrier(l, ta, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_region(l, loc_fp(rb, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16), 0, 0, loc_sub(ta, 0), NULL);
        barrier(l, ta, 0, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_COMMON);
        if (q_submit(q)) {
            static UINT8 got[16 * 256];
            read_buf(rb, 0, got, sizeof(got));
            unsigned wrong = 0;
            for (int y = 0; y < 16; y++)
                for (int x = 0; x < 64; x++) wrong += got[y * 256 + x] != 0x11;
            CHECK_EQ(wrong, 0u);
        }
    }
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    RELEASE0(up);
    RELEASE0(rb);
    RELEASE0(ta);
    RELEASE0(tb);
    RELEASE0(tc);
    g_ctx[0] = 0;
}

/* Multisampled copies copy every sample: a 4x4 RGBA8 4x target cleared to one colour, copied
 * by CopyResource and by CopyTextureRegion (whole subresource) into two other 4x targets, each
 * resolved (average) and read back; the colour only survives the average if all four samples of
 * every texel were copied. */
static void test_msaa_copies(struct q *q)
{
    set_ctx("multisampled CopyResource / CopyTextureRegion");
    D3D12_RESOURCE_DESC md = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    md.SampleDesc.Count = 4;
    D3D12_RESOURCE_DESC sd = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *ms = make_committed(D3D12_HEAP_TYPE_DEFAULT, &md, D3D12_RESOURCE_STATE_RENDER_TARGET);
    ID3D12Resource *c1 = make_committed(D3D12_HEAP_TYPE_DEFAULT, &md, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *c2 = make_committed(D3D12_HEAP_TYPE_DEFAULT, &md, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12Resource *r1 = make_committed(D3D12_HEAP_TYPE_DEFAULT, &sd, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    ID3D12Resource *r2 = make_committed(D3D12_HEAP_TYPE_DEFAULT, &sd, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 2048);
    D3D12_DESCRIPTOR_HEAP_DESC hd;
    memset(&hd, 0, sizeof(hd));
    hd.Type = D3D12_DESCRIPTOR_HEAP_TYPE_RTV;
    hd.NumDescriptors = 1;
    ID3D12DescriptorHeap *rtvs = NULL;
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&rtvs), rtvs);
    ID3D12GraphicsCommandList *l = ms && c1 && c2 && r1 && r2 && rb && rtvs ? q_begin(q) : NULL;
    if (l) {
        D3D12_CPU_DESCRIPTOR_HANDLE h = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtvs);
        ID3D12Device_CreateRenderTargetView(dev, ms, NULL, h);
        /* 0.2, 0.4, 0.6, 1.0 -> 0x33, 0x66, 0x99, 0xff in every sample. */
        const float colour[4] = {0.2f, 0.4f, 0.6f, 1.0f};
        ID3D12GraphicsCommandList_ClearRenderTargetView(l, h, colour, 0, NULL);
        barrier(l, ms, 0, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
        ID3D12GraphicsCommandList_CopyResource(l, c1, ms);
        copy_region(l, loc_sub(c2, 0), 0, 0, loc_sub(ms, 0), NULL);
        barrier(l, c1, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        barrier(l, c2, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        ID3D12GraphicsCommandList_ResolveSubresource(l, r1, 0, c1, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
        ID3D12GraphicsCommandList_ResolveSubresource(l, r2, 0, c2, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
        barrier(l, r1, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        barrier(l, r2, 0, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_region(l, loc_fp(rb, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4), 0, 0, loc_sub(r1, 0), NULL);
        copy_region(l, loc_fp(rb, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4), 0, 0, loc_sub(r2, 0), NULL);
        if (q_submit(q)) {
            unsigned char got[16];
            static const unsigned char want[16] = {0x33, 0x66, 0x99, 0xff, 0x33, 0x66, 0x99, 0xff,
                                                   0x33, 0x66, 0x99, 0xff, 0x33, 0x66, 0x99, 0xff};
            for (int y = 0; y < 4; y++) {
                read_buf(rb, (UINT64)y * 256, got, 16);
                CHECK_BYTES("CopyResource of 4 samples, resolved", got, want, 16);
                read_buf(rb, 1024 + (UINT64)y * 256, got, 16);
                CHECK_BYTES("CopyTextureRegion of 4 samples, resolved", got, want, 16);
            }
        }
    }
    RELEASE0(rtvs);
    RELEASE0(ms);
    RELEASE0(c1);
    RELEASE0(c2);
    RELEASE0(r1);
    RELEASE0(r2);
    RELEASE0(rb);
    g_ctx[0] = 0;
}

/* ---- 4. block-compressed boxes -------------------------------------------------------------- */

static void test_bc_boxes(struct q *q)
{
    set_ctx("BC1 16x16 custom-heap texture: Write/ReadFromSubresource boxes");
    D3D12_RESOURCE_DESC d = tex_desc(DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    D3D12_HEAP_PROPERTIES hp;
    memset(&hp, 0, sizeof(hp));
    hp.Type = D3D12_HEAP_TYPE_CUSTOM;
    hp.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK;
    hp.MemoryPoolPreference = D3D12_MEMORY_POOL_L0;
    ID3D12Resource *t;
    CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &d,
                                                       D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                       (void **)&t),
                  t);
    unsigned char data[512], got[512];
    fill_pattern(data, sizeof(data), 5);
    if (t) {
        CHECK_HR(ID3D12Resource_Map(t, 0, NULL, NULL), S_OK);
        /* Whole blocks: 8x8 texels = 2x2 blocks of 8 bytes; row pitch 16 bytes (one block row). */
        D3D12_BOX whole = {4, 4, 0, 12, 12, 1};
        CHECK_HR(ID3D12Resource_WriteToSubresource(t, 0, &whole, data, 16, 32), S_OK);
        memset(got, 0, sizeof(got));
        CHECK_HR(ID3D12Resource_ReadFromSubresource(t, got, 16, 32, 0, &whole), S_OK);
        CHECK_BYTES("2x2 blocks written and read", got, data, 32);
        static const D3D12_BOX bad[] = {
            {4, 4, 0, 10, 12, 1}, /* right not a block edge */
            {2, 4, 0, 12, 12, 1}, /* left */
            {4, 4, 0, 12, 6, 1},  /* bottom */
            {4, 1, 0, 12, 12, 1}, /* top */
        };
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            set_ctx("BC1 box (%u,%u)-(%u,%u)", bad[i].left, bad[i].top, bad[i].right, bad[i].bottom);
            clear_messages();
            CHECK_HR(ID3D12Resource_WriteToSubresource(t, 0, &bad[i], data, 16, 32), E_INVALIDARG);
            EXPECT_MESSAGE(D3D12_MESSAGE_ID_WRITETOSUBRESOURCE_INVALIDBOX);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(t, got, 16, 32, 0, &bad[i]), E_INVALIDARG);
            EXPECT_MESSAGE(D3D12_MESSAGE_ID_READFROMSUBRESOURCE_INVALIDBOX);
        }
        /* Unchanged by the refused write. */
        memset(got, 0, sizeof(got));
        set_ctx("BC1 after refused writes");
        CHECK_HR(ID3D12Resource_ReadFromSubresource(t, got, 16, 32, 0, &whole), S_OK);
        CHECK_BYTES("blocks unchanged", got, data, 32);
        ID3D12Resource_Unmap(t, 0, NULL);
    }

    set_ctx("CopyTextureRegion from a BC1 footprint of height 6");
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 1, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *tex = make_texture(&td);
    ID3D12Resource *big = make_buffer(D3D12_HEAP_TYPE_UPLOAD, 4096);
    struct scratch sc;
    ID3D12GraphicsCommandList *l = tex && big ? scratch_open(&sc) : NULL;
    if (l) {
        copy_region(l, loc_sub(tex, 0), 0, 0, loc_fp(big, 0, DXGI_FORMAT_BC1_UNORM, 16, 6), NULL);
        scratch_close_fails(__LINE__, &sc, D3D12_MESSAGE_ID_COPYTEXTUREREGION_INVALIDSRCDIMENSIONS);
    }
    /* Height 8 (two block rows) is valid. */
    set_ctx("CopyTextureRegion from a BC1 footprint of height 8");
    l = tex && big ? q_begin(q) : NULL;
    if (l) {
        copy_region(l, loc_sub(tex, 0), 0, 0, loc_fp(big, 0, DXGI_FORMAT_BC1_UNORM, 16, 8), NULL);
        q_submit(q);
    }
    RELEASE0(big);
    RELEASE0(tex);
    RELEASE0(t);
    g_ctx[0] = 0;
}

/* ---- 5. one resource on both sides ---------------------------------------------------------- */

static void test_same_resource(struct q *q)
{
    set_ctx("CopyBufferRegion within one buffer");
    unsigned char data[4096], got[4096], want[4096];
    fill_pattern(data, sizeof(data), 3);
    ID3D12Resource *b = make_buffer(D3D12_HEAP_TYPE_DEFAULT, 4096);
    ID3D12Resource *up = upload_of(data, sizeof(data));
    ID3D12Resource *rb = make_buffer(D3D12_HEAP_TYPE_READBACK, 4096);
    ID3D12GraphicsCommandList *l = b && up && rb ? q_begin(q) : NULL;
    if (l) {
        ID3D12GraphicsCommandList_CopyBufferRegion(l, b, 0, up, 0, 4096);
        /* [0, 1000) -> [2000, 3000), then [2500, 2600) -> [100, 200): both ranges disjoint. */
        clear_messages();
        ID3D12GraphicsCommandList_CopyBufferRegion(l, b, 2000, b, 0, 1000);
        ID3D12GraphicsCommandList_CopyBufferRegion(l, b, 100, b, 2500, 100);
        CHECK(!has_message(D3D12_MESSAGE_ID_COPY_ON_SAME_SUBRESOURCE));
        ID3D12GraphicsCommandList_CopyBufferRegion(l, rb, 0, b, 0, 4096);
        if (q_submit(q)) {
            memcpy(want, data, 4096);
            memcpy(want + 2000, data, 1000);
            memcpy(want + 100, want + 2500, 100);
            read_buf(rb, 0, got, 4096);
            CHECK_BYTES("buffer after two copies within it", got, want, 4096);
        }
    }

    /* Overlapping ranges of one buffer: undefined, not refused; the debug layer reports #998
     * COPY_ON_SAME_SUBRESOURCE, the list closes and runs, the device stays alive. */
    set_ctx("CopyBufferRegion between overlapping ranges of one buffer");
    l = b ? q_begin(q) : NULL;
    if (l) {
        clear_messages();
        ID3D12GraphicsCommandList_CopyBufferRegion(l, b, 100, b, 0, 1000);
        EXPECT_MESSAGE(D3D12_MESSAGE_ID_COPY_ON_SAME_SUBRESOURCE);
        q_submit(q);
    }

    set_ctx("CopyTextureRegion between mips and slices of one texture");
    /* RGBA8 8x8, 2 slices, 2 mips: subresources 0 (s0 m0), 1 (s0 m1), 2 (s1 m0), 3 (s1 m1). */
    D3D12_RESOURCE_DESC td = tex_desc(DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8, 2, 2, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *t = make_texture(&td);
    l = t && up && rb ? q_begin(q) : NULL;
    if (l) {
        D3D12_TEXTURE_COPY_LOCATION src = loc_fp(up, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8);
        copy_region(l, loc_sub(t, 0), 0, 0, src, NULL);
        barrier(l, t, 0, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        /* mip 0 texels (2..6, 2..6) -> mip 1 of slice 0; mip 0 -> slice 1 mip 0 whole. */
        D3D12_BOX box = {2, 2, 0, 6, 6, 1};
        copy_region(l, loc_sub(t, 1), 0, 0, loc_sub(t, 0), &box);
        copy_region(l, loc_sub(t, 2), 0, 0, loc_sub(t, 0), NULL);
        barrier(l, t, 1, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        barrier(l, t, 2, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_region(l, loc_fp(rb, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4), 0, 0, loc_sub(t, 1), NULL);
        copy_region(l, loc_fp(rb, 2048, DXGI_FORMAT_R8G8B8A8_UNORM, 8, 8), 0, 0, loc_sub(t, 2), NULL);
        if (q_submit(q)) {
            read_buf(rb, 0, got, 4096);
            for (int y = 0; y < 4; y++)
                CHECK_BYTES("mip 1 row from mip 0's box", got + y * 256, data + (y + 2) * 256 + 8, 16);
            for (int y = 0; y < 8; y++)
                CHECK_BYTES("slice 1 row from slice 0", got + 2048 + y * 256, data + y * 256, 32);
        }
    }

    set_ctx("CopyTextureRegion between the stencil planes of two slices of one texture");
    /* D24S8 4x4, 2 slices, 1 mip: subresources 0, 1 depth; 2, 3 stencil. */
    D3D12_RESOURCE_DESC dd = tex_desc(DXGI_FORMAT_D24_UNORM_S8_UINT, 4, 4, 2, 1, DS_FLAG);
    ID3D12Resource *ds = make_texture(&dd);
    l = ds && up && rb ? q_begin(q) : NULL;
    if (l) {
        copy_region(l, loc_sub(ds, 2), 0, 0, loc_fp(up, 0, DXGI_FORMAT_R8_UINT, 4, 4), NULL);
        copy_region(l, loc_sub(ds, 0), 0, 0, loc_fp(up, 1024, DXGI_FORMAT_R32_UINT, 4, 4), NULL);
        barrier(l, ds, 2, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_region(l, loc_sub(ds, 3), 0, 0, loc_sub(ds, 2), NULL);
        barrier(l, ds, 3, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
        copy_region(l, loc_fp(rb, 0, DXGI_FORMAT_R8_TYPELESS, 4, 4), 0, 0, loc_sub(ds, 3), NULL);
        if (q_submit(q)) {
            read_buf(rb, 0, got, 1024);
            for (int y = 0; y < 4; y++)
                CHECK_BYTES("slice 1 stencil row", got + y * 256, data + y * 256, 4);
        }
    }
    RELEASE0(ds);
    RELEASE0(t);
    RELEASE0(b);
    RELEASE0(up);
    RELEASE0(rb);
    g_ctx[0] = 0;
}

int main(void)
{
    ID3D12Debug *debug = NULL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&debug), S_OK);
    if (debug)
        ID3D12Debug_EnableDebugLayer(debug);
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (dev)
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&iq), S_OK);
    if (dev) {
        struct q qs[3];
        int ok = q_init(&qs[0], D3D12_COMMAND_LIST_TYPE_DIRECT);
        ok &= q_init(&qs[1], D3D12_COMMAND_LIST_TYPE_COMPUTE);
        ok &= q_init(&qs[2], D3D12_COMMAND_LIST_TYPE_COPY);
        if (ok) {
            test_ds_planes_on_queues(qs);
            test_ds_subresource_indices(&qs[2], &qs[1]);
            test_ds_copyable_footprints(&qs[0]);
            test_color_depth_copies(&qs[0]);
            test_d24_x8(&qs[2]);
            test_copy_tiles(&qs[0]);
            test_copy_tiles_array(&qs[0]);
            test_copy_resource_size_mismatch(&qs[0]);
            test_msaa_copies(&qs[0]);
            test_bc_boxes(&qs[0]);
            test_same_resource(&qs[0]);
        }
        for (int i = 0; i < 3; i++)
            q_release(&qs[i]);
        if (iq)
            ID3D12InfoQueue_Release(iq);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }
    if (debug)
        ID3D12Debug_Release(debug);
    printf("conf_copies: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
