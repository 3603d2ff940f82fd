/* tests/abi/conf_resources.c - Windows-conformance checks of resource and heap creation, format
 * support, copyable footprints and the debug layer's resource messages (issue #16), through the
 * C ABI the way a program built against Microsoft's DirectX-Headers calls the runtime
 * (CINTERFACE + COBJMACROS, IIDs from libDirectX-Guids.a).
 *
 * Each expected value is what Windows gives, from Microsoft's documentation (learn.microsoft.com
 * pages named beside each check) or from Microsoft's own debug-layer output where the text of a
 * message is checked.
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -pthread -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/conf_resources.c \
 *       -o $OUT/conf_resources -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * The last line is "conf_resources: N passed, M failed"; the exit status is 0 only when M is 0. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static ID3D12Device *dev;
static ID3D12InfoQueue *iq;

/* ---- helpers --------------------------------------------------------------------------------- */

static D3D12_HEAP_PROPERTIES hprops(D3D12_HEAP_TYPE type)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = type;
    if (type == D3D12_HEAP_TYPE_CUSTOM) {
        p.CPUPageProperty = D3D12_CPU_PAGE_PROPERTY_WRITE_BACK;
        p.MemoryPoolPreference = D3D12_MEMORY_POOL_L0;
    }
    return p;
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

static D3D12_RESOURCE_DESC tex_desc(D3D12_RESOURCE_DIMENSION dim, DXGI_FORMAT format, UINT64 w, UINT h, UINT16 depth,
                                    UINT16 mips, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = dim;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = depth;
    d.MipLevels = mips;
    d.Format = format;
    d.SampleDesc.Count = 1;
    d.Flags = flags;
    return d;
}

static D3D12_RESOURCE_DESC tex2d(DXGI_FORMAT format, UINT64 w, UINT h, D3D12_RESOURCE_FLAGS flags)
{
    return tex_desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, w, h, 1, 1, flags);
}

static HRESULT committed(const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES state, const D3D12_CLEAR_VALUE *cv,
                         ID3D12Resource **out)
{
    D3D12_HEAP_PROPERTIES hp = hprops(D3D12_HEAP_TYPE_DEFAULT);
    return ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, d, state, cv, &IID_ID3D12Resource,
                                                (void **)out);
}

static HRESULT make_heap(UINT64 size, D3D12_HEAP_TYPE type, D3D12_HEAP_FLAGS flags, ID3D12Heap **out)
{
    D3D12_HEAP_DESC d;
    memset(&d, 0, sizeof(d));
    d.SizeInBytes = size;
    d.Properties = hprops(type);
    d.Flags = flags;
    return ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)out);
}

static HRESULT placed(ID3D12Heap *heap, UINT64 offset, const D3D12_RESOURCE_DESC *d, D3D12_RESOURCE_STATES state,
                      ID3D12Resource **out)
{
    return ID3D12Device_CreatePlacedResource(dev, heap, offset, d, state, NULL, &IID_ID3D12Resource, (void **)out);
}

/* The newest stored message (malloc'd; NULL if none). */
static D3D12_MESSAGE *last_message(void)
{
    UINT64 n = ID3D12InfoQueue_GetNumStoredMessages(iq);
    if (n == 0)
        return NULL;
    SIZE_T len = 0;
    if (FAILED(ID3D12InfoQueue_GetMessage(iq, n - 1, NULL, &len)) || len < sizeof(D3D12_MESSAGE))
        return NULL;
    D3D12_MESSAGE *m = malloc(len);
    if (m && FAILED(ID3D12InfoQueue_GetMessage(iq, n - 1, m, &len))) {
        free(m);
        return NULL;
    }
    return m;
}

/* The newest message has `id` (STATE_CREATION, ERROR) and its description is exactly `text`. */
static void expect_message(int line, D3D12_MESSAGE_ID id, const char *text)
{
    D3D12_MESSAGE *m = last_message();
    check_true(__FILE__, line, "a message was stored", m != NULL);
    if (!m)
        return;
    check_u64(__FILE__, line, "message ID", m->ID, id);
    check_u64(__FILE__, line, "message category", m->Category, D3D12_MESSAGE_CATEGORY_STATE_CREATION);
    check_u64(__FILE__, line, "message severity", m->Severity, D3D12_MESSAGE_SEVERITY_ERROR);
    int same = strcmp(m->pDescription, text) == 0;
    check_true(__FILE__, line, "message text", same);
    if (!same)
        printf("    got:      %s\n    expected: %s\n", m->pDescription, text);
    free(m);
}

/* Records `record` on a direct list, executes it and waits for it. */
static void run_list(void (*record)(ID3D12GraphicsCommandList *, void *), void *ctx)
{
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    ID3D12CommandQueue *q = NULL;
    ID3D12CommandAllocator *a = NULL;
    ID3D12GraphicsCommandList *l = NULL;
    ID3D12Fence *f = NULL;
    CHECK_HR(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&q), S_OK);
    CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                 (void **)&a),
             S_OK);
    if (a)
        CHECK_HR(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a, NULL,
                                                &IID_ID3D12GraphicsCommandList, (void **)&l),
                 S_OK);
    CHECK_HR(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&f), S_OK);
    if (q && l && f) {
        /* Valid work: the debug layer has nothing to say about it. */
        UINT64 before = ID3D12InfoQueue_GetNumStoredMessages(iq);
        record(l, ctx);
        CHECK_HR(ID3D12GraphicsCommandList_Close(l), S_OK);
        ID3D12CommandList *lists[] = {(ID3D12CommandList *)l};
        ID3D12CommandQueue_ExecuteCommandLists(q, 1, lists);
        CHECK_HR(ID3D12CommandQueue_Signal(q, f, 1), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 1, NULL), S_OK);
        CHECK_EQ(ID3D12InfoQueue_GetNumStoredMessages(iq), before);
    }
    if (f)
        ID3D12Fence_Release(f);
    if (l)
        ID3D12GraphicsCommandList_Release(l);
    if (a)
        ID3D12CommandAllocator_Release(a);
    if (q)
        ID3D12CommandQueue_Release(q);
}

/* ---- 9. depth-stencil-family formats, typeless MSAA, cross-adapter row-major textures -------- */

static void test_depth_family_depth_stencil(void)
{
    /* Every member of the R24G8 and R32G8X24 families describes the same planar depth-stencil
     * memory (learn.microsoft.com "Planar Depth Stencil" / DirectX-Specs PlanarDepthStencilDDISpec):
     * a texture of the partially typed depth-read format R24_UNORM_X8_TYPELESS may be a depth
     * target, viewed through D24_UNORM_S8_UINT (Windows accepts it, issue #16). */
    static const DXGI_FORMAT family[] = {
        DXGI_FORMAT_R24G8_TYPELESS,           DXGI_FORMAT_R24_UNORM_X8_TYPELESS,    DXGI_FORMAT_X24_TYPELESS_G8_UINT,
        DXGI_FORMAT_R32G8X24_TYPELESS,        DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS, DXGI_FORMAT_X32_TYPELESS_G8X24_UINT,
        DXGI_FORMAT_R32_TYPELESS,             DXGI_FORMAT_R16_TYPELESS,
    };
    static const DXGI_FORMAT dsv_of[] = {
        DXGI_FORMAT_D24_UNORM_S8_UINT,    DXGI_FORMAT_D24_UNORM_S8_UINT,    DXGI_FORMAT_D24_UNORM_S8_UINT,
        DXGI_FORMAT_D32_FLOAT_S8X24_UINT, DXGI_FORMAT_D32_FLOAT_S8X24_UINT, DXGI_FORMAT_D32_FLOAT_S8X24_UINT,
        DXGI_FORMAT_D32_FLOAT,            DXGI_FORMAT_D16_UNORM,
    };
    for (size_t i = 0; i < sizeof(family) / sizeof(family[0]); i++) {
        set_ctx("ALLOW_DEPTH_STENCIL texture of format %u", (unsigned)family[i]);
        D3D12_RESOURCE_DESC d = tex2d(family[i], 32, 32, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
        ID3D12Resource *r = NULL;
        CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL, &r), r);
        RELEASE0(r);
        /* With an optimized clear value of the family's depth-stencil format. */
        D3D12_CLEAR_VALUE cv;
        memset(&cv, 0, sizeof(cv));
        cv.Format = dsv_of[i];
        cv.DepthStencil.Depth = 1.0f;
        CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_DEPTH_WRITE, &cv, &r), r);
        if (r) {
            /* A DSV of the family's depth format on it, and a clear through it. */
            D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
            ID3D12DescriptorHeap *h = NULL;
            CHECK_HR(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h), S_OK);
            if (h) {
                D3D12_DEPTH_STENCIL_VIEW_DESC v;
                memset(&v, 0, sizeof(v));
                v.Format = dsv_of[i];
                v.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2D;
                UINT64 before = ID3D12InfoQueue_GetNumStoredMessages(iq);
                ID3D12Device_CreateDepthStencilView(dev, r, &v, ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h));
                CHECK_EQ(ID3D12InfoQueue_GetNumStoredMessages(iq), before);
                ID3D12DescriptorHeap_Release(h);
            }
        }
        RELEASE0(r);
    }
    /* A colour format is still no depth target (D3D12_RESOURCE_FLAGS docs). */
    set_ctx("ALLOW_DEPTH_STENCIL on R8G8B8A8_UNORM");
    D3D12_RESOURCE_DESC d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    ID3D12Resource *r = NULL;
    CHECK_FAILS(committed(&d, D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL, &r), r, E_INVALIDARG);
}

static void test_typeless_msaa(void)
{
    /* MULTISAMPLE_QUALITY_LEVELS of a typeless format: what its cast group's members can do
     * (R32_TYPELESS: R32_FLOAT render targets, D32_FLOAT depth targets), and 4x resources of it. */
    static const DXGI_FORMAT formats[] = {DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_R8G8B8A8_TYPELESS,
                                          DXGI_FORMAT_R16G16B16A16_TYPELESS, DXGI_FORMAT_R24G8_TYPELESS};
    for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
        set_ctx("MULTISAMPLE_QUALITY_LEVELS format %u, 4 samples", (unsigned)formats[i]);
        D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q;
        memset(&q, 0, sizeof(q));
        q.Format = formats[i];
        q.SampleCount = 4;
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof(q)), S_OK);
        CHECK(q.NumQualityLevels >= 1);
    }
    /* A typeless format whose group has no multisampled target (BC1): no levels. */
    set_ctx("MULTISAMPLE_QUALITY_LEVELS BC1_TYPELESS, 4 samples");
    D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS q;
    memset(&q, 0, sizeof(q));
    q.Format = DXGI_FORMAT_BC1_TYPELESS;
    q.SampleCount = 4;
    q.NumQualityLevels = 7;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &q, sizeof(q)), S_OK);
    CHECK_EQ(q.NumQualityLevels, 0);

    set_ctx("4x R32_TYPELESS render target");
    D3D12_RESOURCE_DESC d = tex2d(DXGI_FORMAT_R32_TYPELESS, 64, 64, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    d.SampleDesc.Count = 4;
    ID3D12Resource *r = NULL;
    CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &r), r);
    if (r) {
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
        CHECK_EQ(got.SampleDesc.Count, 4);
        CHECK_EQ(got.Alignment, D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT);
    }
    RELEASE0(r);
    set_ctx("4x R32_TYPELESS depth target");
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_DEPTH_WRITE, NULL, &r), r);
    RELEASE0(r);
    set_ctx("4x BC1_TYPELESS render target");
    d.Format = DXGI_FORMAT_BC1_TYPELESS;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    CHECK_FAILS(committed(&d, D3D12_RESOURCE_STATE_RENDER_TARGET, NULL, &r), r, E_INVALIDARG);
}

/* A texture <- upload buffer -> readback buffer round trip of subresource 0 through the
 * footprint `fp` at offset 0 of both buffers. */
struct round_trip
{
    ID3D12Resource *tex, *up, *down;
    D3D12_SUBRESOURCE_FOOTPRINT fp;
};

static void record_round_trip(ID3D12GraphicsCommandList *l, void *ctx)
{
    struct round_trip *rt = ctx;
    D3D12_TEXTURE_COPY_LOCATION t, b;
    memset(&t, 0, sizeof(t));
    memset(&b, 0, sizeof(b));
    t.pResource = rt->tex;
    t.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    b.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    b.PlacedFootprint.Footprint = rt->fp;
    b.pResource = rt->up;
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &t, 0, 0, 0, &b, NULL);
    D3D12_RESOURCE_BARRIER bar;
    memset(&bar, 0, sizeof(bar));
    bar.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    bar.Transition.pResource = rt->tex;
    bar.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    bar.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
    bar.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    ID3D12GraphicsCommandList_ResourceBarrier(l, 1, &bar);
    b.pResource = rt->down;
    ID3D12GraphicsCommandList_CopyTextureRegion(l, &b, 0, 0, 0, &t, NULL);
}

static ID3D12Resource *cpu_buffer(D3D12_HEAP_TYPE type, UINT64 size)
{
    D3D12_HEAP_PROPERTIES hp = hprops(type);
    D3D12_RESOURCE_DESC d = buf_desc(size);
    ID3D12Resource *r = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, &d,
                                                  type == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
                                                                                 : D3D12_RESOURCE_STATE_COPY_DEST,
                                                  NULL, &IID_ID3D12Resource, (void **)&r),
             S_OK);
    return r;
}

static void test_cross_adapter_row_major(void)
{
    /* D3D12_HEAP_FLAGS: SHARED_CROSS_ADAPTER heaps are shared (SHARED too); ROW_MAJOR textures
     * (D3D12_TEXTURE_LAYOUT docs) need ALLOW_CROSS_ADAPTER and such a heap. */
    set_ctx("cross-adapter heap");
    ID3D12Heap *heap = NULL;
    CHECK_CREATED(make_heap(1 << 20, D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER,
                            &heap),
                  heap);
    if (!heap)
        return;
    D3D12_HEAP_DESC hd = ID3D12Heap_GetDesc(heap);
    CHECK_EQ(hd.Flags, D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER);
    CHECK_EQ(hd.SizeInBytes, 1 << 20);

    set_ctx("ROW_MAJOR cross-adapter texture placed in it");
    D3D12_RESOURCE_DESC d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    D3D12_RESOURCE_ALLOCATION_INFO ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK(ai.SizeInBytes != UINT64_MAX);
    CHECK_EQ(ai.Alignment, D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
    ID3D12Resource *r = NULL;
    CHECK_CREATED(placed(heap, 0, &d, D3D12_RESOURCE_STATE_COMMON, &r), r);
    if (r) {
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
        CHECK_EQ(got.Layout, D3D12_TEXTURE_LAYOUT_ROW_MAJOR);
        CHECK_EQ(got.Flags, D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER);
        D3D12_HEAP_PROPERTIES hp;
        D3D12_HEAP_FLAGS hf = 0;
        CHECK_HR(ID3D12Resource_GetHeapProperties(r, &hp, &hf), S_OK);
        CHECK_EQ(hf, D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER);
        /* ID3D12Resource::Map docs: ROW_MAJOR textures cannot be mapped (their memory is the
         * other adapter's to read); the out pointer is left alone. */
        set_ctx("Map of a ROW_MAJOR texture");
        void *p = SENTINEL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), E_INVALIDARG);
        CHECK_PTR(p, SENTINEL);
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), E_INVALIDARG);
        /* Its heap is not CPU-accessible (a DEFAULT heap): #822 MAP_INVALIDHEAP. */
        D3D12_MESSAGE *m = last_message();
        CHECK(m != NULL);
        if (m) {
            CHECK_EQ(m->ID, D3D12_MESSAGE_ID_MAP_INVALIDHEAP);
            free(m);
        }
        ID3D12Resource_Release(r);
        /* A ROW_MAJOR texture is a copy source and destination (CrossAdapterRowMajorTextureSupported
         * FALSE: copies only): data in through one copy comes out through another. */
        set_ctx("copies through a ROW_MAJOR texture");
        D3D12_FEATURE_DATA_D3D12_OPTIONS o;
        memset(&o, 0, sizeof(o));
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof(o)), S_OK);
        CHECK_EQ(o.CrossAdapterRowMajorTextureSupported, FALSE);
        r = NULL;
        CHECK_CREATED(placed(heap, 0, &d, D3D12_RESOURCE_STATE_COPY_DEST, &r), r);
        struct round_trip rt = {r, cpu_buffer(D3D12_HEAP_TYPE_UPLOAD, 64 * 256),
                                cpu_buffer(D3D12_HEAP_TYPE_READBACK, 64 * 256),
                                {DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 256}};
        unsigned char *p8 = NULL;
        if (r && rt.up && rt.down && SUCCEEDED(ID3D12Resource_Map(rt.up, 0, NULL, (void **)&p8))) {
            for (unsigned k = 0; k < 64 * 256; k++)
                p8[k] = (unsigned char)(k ^ (k >> 8));
            ID3D12Resource_Unmap(rt.up, 0, NULL);
            run_list(record_round_trip, &rt);
            unsigned char *q8 = NULL;
            CHECK_HR(ID3D12Resource_Map(rt.down, 0, NULL, (void **)&q8), S_OK);
            if (q8) {
                unsigned bad = 0;
                for (unsigned y = 0; y < 64; y++)
                    for (unsigned x = 0; x < 256; x++)
                        bad += q8[y * 256 + x] != (unsigned char)((y * 256 + x) ^ y);
                CHECK_EQ(bad, 0);
                ID3D12Resource_Unmap(rt.down, 0, NULL);
            }
        }
        if (rt.up)
            ID3D12Resource_Release(rt.up);
        if (rt.down)
            ID3D12Resource_Release(rt.down);
    }
    RELEASE0(r);

    /* What a cross-adapter heap is for: a shared handle (a file descriptor on Linux) that opens
     * as a heap with the same description, in which the texture can be placed again. */
    set_ctx("cross-adapter heap shared handle");
    HANDLE sh = NULL;
    CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)heap, NULL, GENERIC_ALL, NULL, &sh), S_OK);
    if (sh) {
        ID3D12Heap *h2 = NULL;
        CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, sh, &IID_ID3D12Heap, (void **)&h2), h2);
        if (h2) {
            D3D12_HEAP_DESC d2 = ID3D12Heap_GetDesc(h2);
            CHECK_EQ(d2.SizeInBytes, hd.SizeInBytes);
            CHECK_EQ(d2.Flags & (D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER),
                     D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER);
            d.Flags = D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER;
            CHECK_CREATED(placed(h2, 0, &d, D3D12_RESOURCE_STATE_COMMON, &r), r);
            RELEASE0(r);
        }
        RELEASE0(h2);
        close((int)(intptr_t)sh);
    }

    /* Without ALLOW_CROSS_ADAPTER, a ROW_MAJOR texture is refused. */
    set_ctx("ROW_MAJOR texture without ALLOW_CROSS_ADAPTER");
    d.Flags = D3D12_RESOURCE_FLAG_NONE;
    CHECK_FAILS(placed(heap, 0, &d, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
    /* A cross-adapter texture goes in a cross-adapter heap only. */
    set_ctx("cross-adapter texture in a plain heap");
    ID3D12Heap *plain = NULL;
    CHECK_CREATED(make_heap(1 << 20, D3D12_HEAP_TYPE_DEFAULT, D3D12_HEAP_FLAG_NONE, &plain), plain);
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER;
    if (plain)
        CHECK_FAILS(placed(plain, 0, &d, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
    RELEASE0(plain);
    RELEASE0(heap);
}

/* ---- 10. a small buffer in a small heap --------------------------------------------------- */

static void test_small_buffer_small_heap(void)
{
    /* CreatePlacedResource docs: "HeapOffset plus the resource size must be smaller than or equal
     * to the heap size. GetResourceAllocationInfo must be used to understand the sizes of texture
     * resources": a buffer's size is its Width, not its 64 KB allocation granule. */
    static const D3D12_HEAP_TYPE types[] = {D3D12_HEAP_TYPE_UPLOAD, D3D12_HEAP_TYPE_READBACK, D3D12_HEAP_TYPE_CUSTOM,
                                            D3D12_HEAP_TYPE_DEFAULT};
    static const D3D12_RESOURCE_STATES states[] = {D3D12_RESOURCE_STATE_GENERIC_READ, D3D12_RESOURCE_STATE_COPY_DEST,
                                                   D3D12_RESOURCE_STATE_COMMON, D3D12_RESOURCE_STATE_COMMON};
    for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
        set_ctx("1 KiB buffer in a 1 KiB heap of type %u", (unsigned)types[i]);
        ID3D12Heap *heap = NULL;
        CHECK_CREATED(make_heap(1024, types[i], D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS, &heap), heap);
        if (!heap)
            continue;
        D3D12_RESOURCE_DESC d = buf_desc(1024);
        ID3D12Resource *r = NULL;
        CHECK_CREATED(placed(heap, 0, &d, states[i], &r), r);
        if (r && types[i] != D3D12_HEAP_TYPE_DEFAULT) {
            CHECK(ID3D12Resource_GetGPUVirtualAddress(r) != 0);
            unsigned char *p = NULL;
            CHECK_HR(ID3D12Resource_Map(r, 0, NULL, (void **)&p), S_OK);
            if (p) {
                for (unsigned k = 0; k < 1024; k++)
                    p[k] = (unsigned char)(k * 7 + 3);
                unsigned bad = 0;
                for (unsigned k = 0; k < 1024; k++)
                    bad += p[k] != (unsigned char)(k * 7 + 3);
                CHECK_EQ(bad, 0);
                ID3D12Resource_Unmap(r, 0, NULL);
            }
        }
        RELEASE0(r);
        /* One byte more than the heap holds, or 1 KiB at an offset, does not fit. */
        d = buf_desc(1025);
        CHECK_FAILS(placed(heap, 0, &d, states[i], &r), r, E_INVALIDARG);
        d = buf_desc(512);
        CHECK_FAILS(placed(heap, 65536, &d, states[i], &r), r, E_INVALIDARG);
        RELEASE0(heap);
    }
    /* GetResourceAllocationInfo of the buffer is still the 64 KB granule. */
    set_ctx("GetResourceAllocationInfo(1 KiB buffer)");
    D3D12_RESOURCE_DESC d = buf_desc(1024);
    D3D12_RESOURCE_ALLOCATION_INFO ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(ai.SizeInBytes, 65536);
    CHECK_EQ(ai.Alignment, 65536);
}

/* ---- 11. placed resources keep their heap alive --------------------------------------------- */

static void test_heap_outlives_its_public_references(void)
{
    /* Placing a resource leaves the heap's count alone (1), yet the heap stays usable after its
     * last public reference is released while the placed resource lives. */
    set_ctx("heap released while a placed buffer lives");
    ID3D12Heap *heap = NULL;
    CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_UPLOAD, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS, &heap), heap);
    if (!heap)
        return;
    D3D12_RESOURCE_DESC d = buf_desc(256);
    ID3D12Resource *a = NULL, *b = NULL;
    CHECK_CREATED(placed(heap, 0, &d, D3D12_RESOURCE_STATE_GENERIC_READ, &a), a);
    CHECK_EQ(refcount(heap), 1);
    CHECK_EQ(ID3D12Heap_Release(heap), 0);
    /* The heap is alive through `a`: a second buffer can be placed in it, aliasing `a`. */
    CHECK_CREATED(placed(heap, 0, &d, D3D12_RESOURCE_STATE_GENERIC_READ, &b), b);
    if (a && b) {
        unsigned char *pa = NULL, *pb = NULL;
        CHECK_HR(ID3D12Resource_Map(a, 0, NULL, (void **)&pa), S_OK);
        CHECK_HR(ID3D12Resource_Map(b, 0, NULL, (void **)&pb), S_OK);
        if (pa && pb) {
            memset(pa, 0xA5, 256);
            CHECK_EQ(pb[0], 0xA5);
            CHECK_EQ(pb[255], 0xA5);
        }
        CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(a), ID3D12Resource_GetGPUVirtualAddress(b));
    }
    RELEASE0(a);
    RELEASE0(b);
}

/* ---- 14. FORMAT_SUPPORT for every format value up to 190 ----------------------------------- */

static void test_format_support_every_format(void)
{
    /* ID3D12Device::CheckFeatureSupport docs: a format the device does not support gives E_FAIL;
     * every value up to the sampler-feedback formats answers S_OK or E_FAIL. */
    for (unsigned f = 0; f <= DXGI_FORMAT_SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE; f++) {
        set_ctx("FORMAT_SUPPORT(%u)", f);
        D3D12_FEATURE_DATA_FORMAT_SUPPORT s;
        memset(&s, 0xcc, sizeof(s));
        s.Format = (DXGI_FORMAT)f;
        HRESULT hr = ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &s, sizeof(s));
        CHECK(hr == S_OK || hr == E_FAIL);
        CHECK_EQ(s.Format, f);
        if (hr == E_FAIL) {
            CHECK_EQ(s.Support1, 0);
            CHECK_EQ(s.Support2, 0);
        }
    }
    /* Formats every feature level 11+ device supports (DXGI format support tables, "Format
     * Support: required"). */
    static const DXGI_FORMAT required[] = {
        DXGI_FORMAT_UNKNOWN,           DXGI_FORMAT_R32G32B32A32_FLOAT, DXGI_FORMAT_R8G8B8A8_UNORM,
        DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_BC7_UNORM,          DXGI_FORMAT_R9G9B9E5_SHAREDEXP,
        DXGI_FORMAT_B8G8R8A8_UNORM,    DXGI_FORMAT_R24_UNORM_X8_TYPELESS,
    };
    for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
        set_ctx("FORMAT_SUPPORT(required %u)", (unsigned)required[i]);
        D3D12_FEATURE_DATA_FORMAT_SUPPORT s = {required[i], 0, 0};
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &s, sizeof(s)), S_OK);
        CHECK(s.Support1 != 0);
    }

    /* The packed and video formats the tables require: S_OK, with what a CPU adapter executes:
     * the resource dimensions (and mips) the tables give, creation and copies, never shader
     * sampling (it does not decode them), never video or scan-out (it has neither). */
    static const struct
    {
        DXGI_FORMAT format;
        UINT support1, support2;
    } packed[] = {
        {DXGI_FORMAT_R8G8_B8G8_UNORM,
         D3D12_FORMAT_SUPPORT1_TEXTURE1D | D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D |
             D3D12_FORMAT_SUPPORT1_MIP,
         0},
        {DXGI_FORMAT_G8R8_G8B8_UNORM,
         D3D12_FORMAT_SUPPORT1_TEXTURE1D | D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D |
             D3D12_FORMAT_SUPPORT1_MIP,
         0},
        /* Tiled resources (tier 3) map any format's tiles. */
        {DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM,
         D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_CAST_WITHIN_BIT_LAYOUT, D3D12_FORMAT_SUPPORT2_TILED},
        {DXGI_FORMAT_420_OPAQUE, D3D12_FORMAT_SUPPORT1_TEXTURE2D, 0},
        {DXGI_FORMAT_YUY2, D3D12_FORMAT_SUPPORT1_TEXTURE2D, 0},
    };
    for (size_t i = 0; i < sizeof(packed) / sizeof(packed[0]); i++) {
        set_ctx("FORMAT_SUPPORT(packed/video %u)", (unsigned)packed[i].format);
        D3D12_FEATURE_DATA_FORMAT_SUPPORT s = {packed[i].format, 0, 0};
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &s, sizeof(s)), S_OK);
        CHECK_EQ(s.Support1, packed[i].support1);
        CHECK_EQ(s.Support2, packed[i].support2);
        /* What is claimed is true: a 2D texture of the format is created. */
        D3D12_RESOURCE_DESC d = tex2d(packed[i].format, 16, 16, D3D12_RESOURCE_FLAG_NONE);
        ID3D12Resource *r = NULL;
        CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_COMMON, NULL, &r), r);
        RELEASE0(r);
    }
    /* A value outside the DXGI_FORMAT enum altogether stays an invalid argument. */
    set_ctx("FORMAT_SUPPORT(0x7fffffff)");
    D3D12_FEATURE_DATA_FORMAT_SUPPORT s = {(DXGI_FORMAT)0x7fffffff, 0, 0};
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &s, sizeof(s)), E_INVALIDARG);
}

/* ---- 15. GetCopyableFootprints: invalid Alignment, unaligned block-compressed textures ------- */

static void test_footprints(void)
{
    /* GetCopyableFootprints docs: an invalid desc fills every output with ~0. */
    static const UINT64 bad_alignments[] = {1, 256, 8192, 131072, 1u << 21, 1ull << 23};
    for (size_t i = 0; i < sizeof(bad_alignments) / sizeof(bad_alignments[0]); i++) {
        for (int tex = 0; tex < 2; tex++) {
            set_ctx("GetCopyableFootprints(%s, Alignment %llu)", tex ? "texture" : "buffer",
                    (unsigned long long)bad_alignments[i]);
            D3D12_RESOURCE_DESC d =
                tex ? tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, D3D12_RESOURCE_FLAG_NONE) : buf_desc(1024);
            d.Alignment = bad_alignments[i];
            D3D12_PLACED_SUBRESOURCE_FOOTPRINT l;
            UINT rows = 0;
            UINT64 row_size = 0, total = 0;
            memset(&l, 0, sizeof(l));
            UINT64 before = ID3D12InfoQueue_GetNumStoredMessages(iq);
            ID3D12Device_GetCopyableFootprints(dev, &d, 0, 1, 0, &l, &rows, &row_size, &total);
            /* ... and the debug layer says why (#721, the Alignment is none of D3D12's). */
            CHECK_EQ(ID3D12InfoQueue_GetNumStoredMessages(iq), before + 1);
            D3D12_MESSAGE *m = last_message();
            CHECK(m != NULL);
            if (m) {
                CHECK_EQ(m->ID, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT);
                CHECK(strstr(m->pDescription, "ID3D12Device::GetCopyableFootprints: D3D12_RESOURCE_DESC::Alignment is "
                                              "invalid.") == m->pDescription);
                free(m);
            }
            CHECK_EQ(l.Offset, UINT64_MAX);
            CHECK_EQ(l.Footprint.Format, 0xffffffffu);
            CHECK_EQ(l.Footprint.Width, UINT_MAX);
            CHECK_EQ(l.Footprint.Height, UINT_MAX);
            CHECK_EQ(l.Footprint.Depth, UINT_MAX);
            CHECK_EQ(l.Footprint.RowPitch, UINT_MAX);
            CHECK_EQ(rows, UINT_MAX);
            CHECK_EQ(row_size, UINT64_MAX);
            CHECK_EQ(total, UINT64_MAX);
        }
    }
    /* The valid alignments describe the same layout as 0. */
    static const UINT64 good_alignments[] = {0, 4096, 65536, 4194304};
    for (size_t i = 0; i < sizeof(good_alignments) / sizeof(good_alignments[0]); i++) {
        set_ctx("GetCopyableFootprints(64x64 RGBA8, Alignment %llu)", (unsigned long long)good_alignments[i]);
        D3D12_RESOURCE_DESC d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, D3D12_RESOURCE_FLAG_NONE);
        d.Alignment = good_alignments[i];
        UINT64 total = 0, before = ID3D12InfoQueue_GetNumStoredMessages(iq);
        ID3D12Device_GetCopyableFootprints(dev, &d, 0, 1, 0, NULL, NULL, NULL, &total);
        CHECK_EQ(total, 63 * 256 + 256);
        CHECK_EQ(ID3D12InfoQueue_GetNumStoredMessages(iq), before);
    }

    /* OPTIONS8.UnalignedBlockTexturesSupported: the top mip of a BC texture need not be a block
     * multiple (D3D12_FEATURE_DATA_D3D12_OPTIONS8 docs). */
    set_ctx("OPTIONS8");
    D3D12_FEATURE_DATA_D3D12_OPTIONS8 o8;
    memset(&o8, 0xcc, sizeof(o8));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS8, &o8, sizeof(o8)), S_OK);
    CHECK_EQ(o8.UnalignedBlockTexturesSupported, TRUE);

    /* Footprints of such textures cover whole 4x4 blocks: Width/Height rounded up to 4, one row
     * per block row, RowSizeInBytes = blocks x block bytes, rows 256 bytes apart
     * (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT), subresources 512-byte aligned, TotalBytes without
     * the last row's padding. */
    static const struct
    {
        D3D12_RESOURCE_DIMENSION dim;
        DXGI_FORMAT format;
        UINT w, h;
        UINT16 depth;
        UINT block_bytes;
    } bc[] = {
        {D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC1_UNORM, 3, 1, 1, 8},
        {D3D12_RESOURCE_DIMENSION_TEXTURE2D, DXGI_FORMAT_BC7_UNORM, 3, 1, 1, 16},
        {D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_BC1_UNORM, 2, 2, 2, 8},
    };
    for (size_t i = 0; i < sizeof(bc) / sizeof(bc[0]); i++) {
        set_ctx("unaligned BC: format %u %ux%ux%u", (unsigned)bc[i].format, bc[i].w, bc[i].h, bc[i].depth);
        D3D12_RESOURCE_DESC d = tex_desc(bc[i].dim, bc[i].format, bc[i].w, bc[i].h, bc[i].depth, 0,
                                         D3D12_RESOURCE_FLAG_NONE);
        ID3D12Resource *r = NULL;
        CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_COMMON, NULL, &r), r);
        if (!r)
            continue;
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
        CHECK_EQ(got.MipLevels, 2); /* floor(log2(3 or 2)) + 1 */
        D3D12_PLACED_SUBRESOURCE_FOOTPRINT l[2];
        UINT rows[2] = {0, 0};
        UINT64 sizes[2] = {0, 0}, total = 0;
        ID3D12Device_GetCopyableFootprints(dev, &got, 0, 2, 0, l, rows, sizes, &total);
        for (unsigned m = 0; m < 2; m++) {
            UINT depth = bc[i].dim == D3D12_RESOURCE_DIMENSION_TEXTURE3D ? (m == 0 ? 2 : 1) : 1;
            CHECK_EQ(l[m].Offset, m * 512);
            CHECK_EQ(l[m].Footprint.Format, bc[i].format);
            CHECK_EQ(l[m].Footprint.Width, 4);
            CHECK_EQ(l[m].Footprint.Height, 4);
            CHECK_EQ(l[m].Footprint.Depth, depth);
            CHECK_EQ(l[m].Footprint.RowPitch, 256);
            CHECK_EQ(rows[m], 1);
            CHECK_EQ(sizes[m], bc[i].block_bytes);
        }
        /* mip 1 starts at 512; its one row of one block ends the data. */
        CHECK_EQ(total, 512 + bc[i].block_bytes);
        /* The claim executes: mip 0's blocks go in through its footprint and come out again. */
        ID3D12Resource_Release(r);
        d.MipLevels = 1;
        r = NULL;
        CHECK_CREATED(committed(&d, D3D12_RESOURCE_STATE_COPY_DEST, NULL, &r), r);
        struct round_trip rt = {r, cpu_buffer(D3D12_HEAP_TYPE_UPLOAD, 1024), cpu_buffer(D3D12_HEAP_TYPE_READBACK, 1024),
                                l[0].Footprint};
        unsigned char *p8 = NULL;
        if (r && rt.up && rt.down && SUCCEEDED(ID3D12Resource_Map(rt.up, 0, NULL, (void **)&p8))) {
            for (unsigned k = 0; k < 1024; k++)
                p8[k] = (unsigned char)(k * 13 + 1);
            ID3D12Resource_Unmap(rt.up, 0, NULL);
            run_list(record_round_trip, &rt);
            unsigned char *q8 = NULL;
            CHECK_HR(ID3D12Resource_Map(rt.down, 0, NULL, (void **)&q8), S_OK);
            if (q8) {
                unsigned bad = 0;
                for (unsigned z = 0; z < bc[i].depth; z++)
                    for (unsigned k = 0; k < bc[i].block_bytes; k++)
                        bad += q8[z * 256 + k] != (unsigned char)((z * 256 + k) * 13 + 1);
                CHECK_EQ(bad, 0);
                ID3D12Resource_Unmap(rt.down, 0, NULL);
            }
        }
        if (rt.up)
            ID3D12Resource_Release(rt.up);
        if (rt.down)
            ID3D12Resource_Release(rt.down);
        /* Mip 0 alone: (depth - 1) slices of 256 bytes, then one row. */
        UINT64 total0 = 0;
        ID3D12Device_GetCopyableFootprints(dev, &got, 0, 1, 0, NULL, NULL, NULL, &total0);
        CHECK_EQ(total0, (bc[i].depth - 1) * 256 + bc[i].block_bytes);
        RELEASE0(r);
    }
}

/* ---- 22. GetResourceAllocationInfo's #721 in Microsoft's words ------------------------------- */

static void test_allocation_info_alignment_messages(void)
{
    ID3D12InfoQueue_ClearStoredMessages(iq);
    /* Microsoft's small-resources sample probes 4 KB placement with GetResourceAllocationInfo;
     * for a texture whose top mip needs more than 16 4 KB tiles the debug layer says (issue 718
     * of microsoft/DirectX-Graphics-Samples, Windows' own output): */
    set_ctx("GetResourceAllocationInfo(1024x1024 RGBA8, Alignment 4096)");
    D3D12_RESOURCE_DESC d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 1024, 1024, D3D12_RESOURCE_FLAG_NONE);
    d.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    D3D12_RESOURCE_ALLOCATION_INFO ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    /* GetResourceAllocationInfo docs: SizeInBytes UINT64_MAX on error. The alignment is not the
     * 4096 asked for (what the sample tests before asking again with 0). */
    CHECK_EQ(ai.SizeInBytes, UINT64_MAX);
    CHECK_EQ(ai.Alignment, D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT);
    expect_message(__LINE__, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT,
                   "ID3D12Device::GetResourceAllocationInfo: D3D12_RESOURCE_DESC::Alignment cannot be 4KB, since "
                   "D3D12_RESOURCE_DESC::Width, D3D12_RESOURCE_DESC::Height, and/ or "
                   "D3D12_RESOURCE_DESC::DepthOrArraySize are too large. 4KB alignment requires the most detailed "
                   "mip level be theoretically 64KB or smaller. A 4KB tile shape for "
                   "D3D12_RESOURCE_DIMENSION_TEXTURE2D and R8G8B8A8_UNORM is 32 texels wide, 32 texels high, and 1 "
                   "texels deep. When Width = 1024, Height = 1024, and Depth = 1, the number of tiles needed is 1024, "
                   "while 16 tiles is the maximum.");
    /* The same words for other shapes: BC1 260x512 (tiles of 128x64 texels: 3 x 8 = 24). */
    set_ctx("GetResourceAllocationInfo(260x512 BC1, Alignment 4096)");
    d = tex2d(DXGI_FORMAT_BC1_UNORM, 260, 512, D3D12_RESOURCE_FLAG_NONE);
    d.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(ai.SizeInBytes, UINT64_MAX);
    expect_message(__LINE__, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT,
                   "ID3D12Device::GetResourceAllocationInfo: D3D12_RESOURCE_DESC::Alignment cannot be 4KB, since "
                   "D3D12_RESOURCE_DESC::Width, D3D12_RESOURCE_DESC::Height, and/ or "
                   "D3D12_RESOURCE_DESC::DepthOrArraySize are too large. 4KB alignment requires the most detailed "
                   "mip level be theoretically 64KB or smaller. A 4KB tile shape for "
                   "D3D12_RESOURCE_DIMENSION_TEXTURE2D and BC1_UNORM is 128 texels wide, 64 texels high, and 1 "
                   "texels deep. When Width = 260, Height = 512, and Depth = 1, the number of tiles needed is 24, "
                   "while 16 tiles is the maximum.");
    /* A render target asking for 4 KB. */
    set_ctx("GetResourceAllocationInfo(64x64 RGBA8 render target, Alignment 4096)");
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    d.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(ai.SizeInBytes, UINT64_MAX);
    expect_message(__LINE__, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT,
                   "ID3D12Device::GetResourceAllocationInfo: D3D12_RESOURCE_DESC::Alignment is invalid. The value is "
                   "4096. Resources with D3D12_RESOURCE_DESC::Flags with either "
                   "D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET or D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL must set "
                   "Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.");
    set_ctx("GetResourceAllocationInfo(64x64 D32 depth target, Alignment 4096)");
    d = tex2d(DXGI_FORMAT_D32_FLOAT, 64, 64, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    d.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(ai.SizeInBytes, UINT64_MAX);
    expect_message(__LINE__, D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT,
                   "ID3D12Device::GetResourceAllocationInfo: D3D12_RESOURCE_DESC::Alignment is invalid. The value is "
                   "4096. Resources with D3D12_RESOURCE_DESC::Flags with either "
                   "D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET or D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL must set "
                   "Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.");
    /* The same call asked twice reports twice (the answer may be remembered, the message is not
     * skipped). */
    UINT64 n = ID3D12InfoQueue_GetNumStoredMessages(iq);
    ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(ai.SizeInBytes, UINT64_MAX);
    CHECK_EQ(ID3D12InfoQueue_GetNumStoredMessages(iq), n + 1);
    /* A small texture that qualifies: no message, {4096, 4096}. */
    set_ctx("GetResourceAllocationInfo(32x32 RGBA8, Alignment 4096)");
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, D3D12_RESOURCE_FLAG_NONE);
    d.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    n = ID3D12InfoQueue_GetNumStoredMessages(iq);
    ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(ai.SizeInBytes, 4096);
    CHECK_EQ(ai.Alignment, 4096);
    CHECK_EQ(ID3D12InfoQueue_GetNumStoredMessages(iq), n);
    /* CreateCommittedResource reports the same words. */
    set_ctx("CreateCommittedResource(1024x1024 RGBA8, Alignment 4096)");
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 1024, 1024, D3D12_RESOURCE_FLAG_NONE);
    d.Alignment = D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT;
    ID3D12Resource *r = NULL;
    CHECK_FAILS(committed(&d, D3D12_RESOURCE_STATE_COMMON, NULL, &r), r, E_INVALIDARG);
    D3D12_MESSAGE *m = NULL;
    /* #721 comes before the E_INVALIDARG return message (#602) where one is sent: find it. */
    for (UINT64 k = ID3D12InfoQueue_GetNumStoredMessages(iq); k-- > n;) {
        SIZE_T len = 0;
        if (FAILED(ID3D12InfoQueue_GetMessage(iq, k, NULL, &len)))
            break;
        D3D12_MESSAGE *c = malloc(len);
        if (c && SUCCEEDED(ID3D12InfoQueue_GetMessage(iq, k, c, &len)) &&
            c->ID == D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDALIGNMENT) {
            m = c;
            break;
        }
        free(c);
    }
    CHECK(m != NULL);
    if (m) {
        CHECK(strstr(m->pDescription, "ID3D12Device::CreateCommittedResource: D3D12_RESOURCE_DESC::Alignment cannot "
                                      "be 4KB") == m->pDescription);
        CHECK(strstr(m->pDescription, "the number of tiles needed is 1024, while 16 tiles is the maximum.") != NULL);
        free(m);
    }
}

int main(void)
{
    ID3D12Debug *dbg = NULL;
    CHECK_HR(D3D12GetDebugInterface(&IID_ID3D12Debug, (void **)&dbg), S_OK);
    if (dbg) {
        ID3D12Debug_EnableDebugLayer(dbg);
        ID3D12Debug_Release(dbg);
    }
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev) {
        printf("conf_resources: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12InfoQueue, (void **)&iq), S_OK);
    if (iq) {
        ID3D12InfoQueue_SetMuteDebugOutput(iq, TRUE);
        test_depth_family_depth_stencil();
        test_typeless_msaa();
        test_cross_adapter_row_major();
        test_small_buffer_small_heap();
        test_heap_outlives_its_public_references();
        test_format_support_every_format();
        test_footprints();
        test_allocation_info_alignment_messages();
        ID3D12InfoQueue_Release(iq);
    }
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    printf("conf_resources: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
