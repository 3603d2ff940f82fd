/* tests/abi/memory.c - ABI test of the memory model of libd3d12.so, written the way a C program
 * compiled against Microsoft's DirectX-Headers calls the runtime: CINTERFACE + COBJMACROS,
 * IIDs from libDirectX-Guids.a.
 *
 * Covers heaps (CreateHeap, GetDesc, GetCustomHeapProperties), committed / placed / reserved
 * resources and their heap rules, CPU access (Map/Unmap, WriteToSubresource /
 * ReadFromSubresource), aliasing, GPU virtual addresses, residency, shared handles across two
 * processes (data moved through copies on a command queue), shared fences (signalled and waited
 * on across two processes) and resource tiling. Expected values
 * are Microsoft's (learn.microsoft.com, d3d12.h) as digested in shared/spec/heaps-and-memory.md
 * and resources.md; where a check encodes a documented rule that contradicts the digest or the
 * runtime, the comment says so.
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -pthread -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/memory.c \
 *       -o $OUT/memory_c -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * Run without arguments. The program re-executes itself (/proc/self/exe with "--child ...") to
 * open shared handles in a second process; that mode is internal.
 *
 * Every check prints one line when it fails (file:line, what, got vs expected); the last line is
 * "memory_c: N passed, M failed" and the exit status is 0 only when M is 0. With
 * RD3D12_UNDER_VALGRIND set, loops run fewer iterations. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

/* ---- the check counter: check.h, plus this file's own checks ---------------------------- */

#include "check.h"
/* "memory_c", or "memory_c child (mode)" in the second process. */
static const char *g_name = "memory_c";


/* A creation call that must fail with `expected` and leave *ppv NULL. `obj` is the variable whose
 * address the call passes; anything created by mistake is released. */
/* HRESULTs not in the WSL stubs. */
/* dxgi: the Name passed to CreateSharedHandle is taken (documented for CreateSharedHandle). */
#define DXGI_ERROR_NAME_ALREADY_EXISTS_ ((HRESULT)0x887A002CL)
/* HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND): OpenSharedHandleByName of an unknown name. */
#define E_FILE_NOT_FOUND_ ((HRESULT)0x80070002L)

/* ---- helpers ------------------------------------------------------------------------------- */

static ID3D12Device *dev;

static D3D12_HEAP_PROPERTIES hprops(D3D12_HEAP_TYPE type, D3D12_CPU_PAGE_PROPERTY page,
                                    D3D12_MEMORY_POOL pool)
{
    D3D12_HEAP_PROPERTIES p;
    memset(&p, 0, sizeof(p));
    p.Type = type;
    p.CPUPageProperty = page;
    p.MemoryPoolPreference = pool;
    return p;
}

static D3D12_HEAP_DESC heap_desc(UINT64 size, D3D12_HEAP_TYPE type, D3D12_CPU_PAGE_PROPERTY page,
                                 D3D12_MEMORY_POOL pool, UINT64 alignment, D3D12_HEAP_FLAGS flags)
{
    D3D12_HEAP_DESC d;
    memset(&d, 0, sizeof(d));
    d.SizeInBytes = size;
    d.Properties = hprops(type, page, pool);
    d.Alignment = alignment;
    d.Flags = flags;
    return d;
}

static HRESULT make_heap(UINT64 size, D3D12_HEAP_TYPE type, D3D12_CPU_PAGE_PROPERTY page,
                         D3D12_MEMORY_POOL pool, UINT64 alignment, D3D12_HEAP_FLAGS flags,
                         ID3D12Heap **out)
{
    D3D12_HEAP_DESC d = heap_desc(size, type, page, pool, alignment, flags);
    return ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)out);
}

/* A CUSTOM WRITE_BACK / L0 heap (CPU-visible; holds buffers and textures at tier 2). */
static HRESULT make_wb_heap(UINT64 size, D3D12_HEAP_FLAGS flags, ID3D12Heap **out)
{
    return make_heap(size, D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK,
                     D3D12_MEMORY_POOL_L0, 0, flags, out);
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
    d.Format = DXGI_FORMAT_UNKNOWN;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

static D3D12_RESOURCE_DESC tex_desc(UINT64 width, UINT height, UINT16 mips, UINT64 alignment,
                                    D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Alignment = alignment;
    d.Width = width;
    d.Height = height;
    d.DepthOrArraySize = 1;
    d.MipLevels = mips;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    d.Flags = flags;
    return d;
}

static HRESULT committed(D3D12_HEAP_TYPE type, D3D12_CPU_PAGE_PROPERTY page, D3D12_MEMORY_POOL pool,
                         D3D12_HEAP_FLAGS heap_flags, const D3D12_RESOURCE_DESC *desc,
                         D3D12_RESOURCE_STATES state, ID3D12Resource **out)
{
    D3D12_HEAP_PROPERTIES p = hprops(type, page, pool);
    return ID3D12Device_CreateCommittedResource(dev, &p, heap_flags, desc, state, NULL,
                                                &IID_ID3D12Resource, (void **)out);
}

/* A committed resource on an abstract heap type, no heap flags. */
static HRESULT committed_on(D3D12_HEAP_TYPE type, const D3D12_RESOURCE_DESC *desc,
                            D3D12_RESOURCE_STATES state, ID3D12Resource **out)
{
    return committed(type, D3D12_CPU_PAGE_PROPERTY_UNKNOWN, D3D12_MEMORY_POOL_UNKNOWN,
                     D3D12_HEAP_FLAG_NONE, desc, state, out);
}

static HRESULT committed_wb(const D3D12_RESOURCE_DESC *desc, ID3D12Resource **out)
{
    return committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0,
                     D3D12_HEAP_FLAG_NONE, desc, D3D12_RESOURCE_STATE_COMMON, out);
}

static HRESULT placed(ID3D12Heap *heap, UINT64 offset, const D3D12_RESOURCE_DESC *desc,
                      D3D12_RESOURCE_STATES state, ID3D12Resource **out)
{
    return ID3D12Device_CreatePlacedResource(dev, heap, offset, desc, state, NULL,
                                             &IID_ID3D12Resource, (void **)out);
}

static int desc_equal(const D3D12_RESOURCE_DESC *a, const D3D12_RESOURCE_DESC *b)
{
    return a->Dimension == b->Dimension && a->Alignment == b->Alignment && a->Width == b->Width &&
           a->Height == b->Height && a->DepthOrArraySize == b->DepthOrArraySize &&
           a->MipLevels == b->MipLevels && a->Format == b->Format &&
           a->SampleDesc.Count == b->SampleDesc.Count &&
           a->SampleDesc.Quality == b->SampleDesc.Quality && a->Layout == b->Layout &&
           a->Flags == b->Flags;
}

/* Maps a buffer's subresource 0 and returns the pointer (NULL after a failed check). */
static unsigned char *map_buf(ID3D12Resource *r)
{
    void *p = NULL;
    if (!r)
        return NULL;
    HRESULT hr = ID3D12Resource_Map(r, 0, NULL, &p);
    check_hr(__FILE__, __LINE__, "Map(0, NULL, &p)", hr, S_OK);
    return SUCCEEDED(hr) ? (unsigned char *)p : NULL;
}

static int all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return 0;
    return 1;
}

/* ---- 0. what the adapter says about memory -------------------------------------------------- */

static void test_adapter(void)
{
    D3D12_FEATURE_DATA_ARCHITECTURE arch;
    memset(&arch, 0, sizeof(arch));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ARCHITECTURE, &arch, sizeof(arch)), S_OK);
    /* The CPU adapter is cache-coherent UMA (features.md §3.2). */
    CHECK_EQ(arch.UMA, TRUE);
    CHECK_EQ(arch.CacheCoherentUMA, TRUE);

    D3D12_FEATURE_DATA_D3D12_OPTIONS o;
    memset(&o, 0, sizeof(o));
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof(o)), S_OK);
    /* Heaps accept any mix of buffers and textures (flags 0 below), which is tier 2
     * (heaps-and-memory.md §5/§6, features.md: REC TIER_2). */
    CHECK_EQ(o.ResourceHeapTier, D3D12_RESOURCE_HEAP_TIER_2);
    CHECK_EQ(o.TiledResourcesTier, D3D12_TILED_RESOURCES_TIER_3);

    /* GetCustomHeapProperties (slot 26), returned by value (hidden result pointer on SysV). */
    static const struct
    {
        D3D12_HEAP_TYPE in;
        D3D12_CPU_PAGE_PROPERTY page;
    } expect[] = {
        {D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK},
        {D3D12_HEAP_TYPE_READBACK, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK},
    };
    for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
        set_ctx("GetCustomHeapProperties(1, %d)", (int)expect[i].in);
        D3D12_HEAP_PROPERTIES p = ID3D12Device_GetCustomHeapProperties(dev, 1, expect[i].in);
        CHECK_EQ(p.Type, D3D12_HEAP_TYPE_CUSTOM);
        CHECK_EQ(p.CPUPageProperty, expect[i].page);
        CHECK_EQ(p.MemoryPoolPreference, D3D12_MEMORY_POOL_L0);
        CHECK_EQ(p.CreationNodeMask, 1);
        CHECK_EQ(p.VisibleNodeMask, 1);
        /* The result is valid input for CreateHeap, and GetDesc gives it back. */
        D3D12_HEAP_DESC d;
        memset(&d, 0, sizeof(d));
        d.SizeInBytes = 65536;
        d.Properties = p;
        ID3D12Heap *h;
        CHECK_CREATED(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)&h), h);
        if (h) {
            D3D12_HEAP_DESC got = ID3D12Heap_GetDesc(h);
            CHECK(memcmp(&got.Properties, &p, sizeof(p)) == 0);
        }
        RELEASE0(h);
    }
    g_ctx[0] = 0;
}

/* ---- 1. heaps ------------------------------------------------------------------------------ */

static void test_heaps(void)
{
    ULONG base = refcount(dev);
    ID3D12Heap *h;
    void *p;

    /* A DEFAULT heap: one device reference, GetDesc by value, interfaces. */
    CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0, &h), h);
    if (h) {
        CHECK_EQ(refcount(dev), base + 1);
        CHECK_EQ(refcount(h), 1);
        D3D12_HEAP_DESC d = ID3D12Heap_GetDesc(h);
        CHECK_EQ(d.SizeInBytes, 65536);
        CHECK_EQ(d.Properties.Type, D3D12_HEAP_TYPE_DEFAULT); /* not converted to CUSTOM */
        CHECK_EQ(d.Properties.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_UNKNOWN);
        CHECK_EQ(d.Properties.MemoryPoolPreference, D3D12_MEMORY_POOL_UNKNOWN);
        CHECK_EQ(d.Properties.CreationNodeMask, 1); /* 0 → 1 */
        CHECK_EQ(d.Properties.VisibleNodeMask, 1);
        CHECK_EQ(d.Alignment, 65536); /* 0 → 64 KB */
        CHECK_EQ(d.Flags, 0);

        static const IID *const ok_iids[] = {&IID_IUnknown, &IID_ID3D12Object, &IID_ID3D12DeviceChild,
                                             &IID_ID3D12Pageable, &IID_ID3D12Heap, &IID_ID3D12Heap1};
        for (size_t i = 0; i < sizeof(ok_iids) / sizeof(ok_iids[0]); i++) {
            set_ctx("heap QueryInterface #%zu", i);
            p = NULL;
            CHECK_HR(ID3D12Heap_QueryInterface(h, ok_iids[i], &p), S_OK);
            CHECK_PTR(p, h);
            if (p)
                IUnknown_Release((IUnknown *)p);
        }
        g_ctx[0] = 0;
        p = SENTINEL;
        CHECK_HR(ID3D12Heap_QueryInterface(h, &IID_ID3D12Resource, &p), E_NOINTERFACE);
        CHECK_PTR(p, NULL);

        ID3D12Device *d2 = NULL;
        CHECK_HR(ID3D12Heap_GetDevice(h, &IID_ID3D12Device, (void **)&d2), S_OK);
        CHECK_PTR(d2, dev);
        if (d2)
            ID3D12Device_Release(d2);
        RELEASE0(h);
        CHECK_EQ(refcount(dev), base);
    }

    /* SizeInBytes need not be aligned; GetDesc reports it as given. */
    CHECK_CREATED(make_heap(100000, D3D12_HEAP_TYPE_UPLOAD, 0, 0, 0, 0, &h), h);
    if (h)
        CHECK_EQ(ID3D12Heap_GetDesc(h).SizeInBytes, 100000);
    RELEASE0(h);

    /* Every abstract type with the flag sets a tier-2 heap accepts. */
    static const D3D12_HEAP_FLAGS flag_sets[] = {
        D3D12_HEAP_FLAG_NONE,
        D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS,
        D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES,
        D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES,
        D3D12_HEAP_FLAG_CREATE_NOT_ZEROED,
        D3D12_HEAP_FLAG_CREATE_NOT_RESIDENT,
    };
    for (int t = D3D12_HEAP_TYPE_DEFAULT; t <= D3D12_HEAP_TYPE_READBACK; t++) {
        for (size_t f = 0; f < sizeof(flag_sets) / sizeof(flag_sets[0]); f++) {
            /* Texture-only heaps are checked on DEFAULT only. */
            if (t != D3D12_HEAP_TYPE_DEFAULT && (flag_sets[f] & D3D12_HEAP_FLAG_DENY_BUFFERS))
                continue;
            set_ctx("CreateHeap(type %d, flags 0x%x)", t, (unsigned)flag_sets[f]);
            CHECK_CREATED(make_heap(65536, t, 0, 0, 0, flag_sets[f], &h), h);
            if (h)
                CHECK_EQ(ID3D12Heap_GetDesc(h).Flags, flag_sets[f]);
            RELEASE0(h);
        }
    }
    g_ctx[0] = 0;

    /* CUSTOM heaps on a UMA adapter (§3 table). */
    for (int page = 0; page <= 3; page++) {
        for (int pool = 0; pool <= 2; pool++) {
            set_ctx("CreateHeap(CUSTOM, page %d, pool %d)", page, pool);
            int ok = page != D3D12_CPU_PAGE_PROPERTY_UNKNOWN && pool == D3D12_MEMORY_POOL_L0;
            if (ok) {
                CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_CUSTOM, page, pool, 0, 0, &h), h);
                if (h) {
                    D3D12_HEAP_DESC d = ID3D12Heap_GetDesc(h);
                    CHECK_EQ(d.Properties.Type, D3D12_HEAP_TYPE_CUSTOM);
                    CHECK_EQ(d.Properties.CPUPageProperty, page);
                    CHECK_EQ(d.Properties.MemoryPoolPreference, pool);
                }
                RELEASE0(h);
            } else {
                CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_CUSTOM, page, pool, 0, 0, &h), h, E_INVALIDARG);
            }
        }
    }
    /* Values outside the enums. */
    set_ctx("CreateHeap(CUSTOM, page 4 / pool 3)");
    CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_CUSTOM, 4, D3D12_MEMORY_POOL_L0, 0, 0, &h), h, E_INVALIDARG);
    CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, 3, 0, 0, &h), h,
                E_INVALIDARG);

    /* Page / pool must be UNKNOWN unless the type is CUSTOM. */
    set_ctx("non-CUSTOM heap with page/pool");
    CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, 0, 0, 0, &h), h,
                E_INVALIDARG);
    CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_UPLOAD, 0, D3D12_MEMORY_POOL_L0, 0, 0, &h), h, E_INVALIDARG);
    CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_READBACK, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK,
                          D3D12_MEMORY_POOL_L0, 0, 0, &h),
                h, E_INVALIDARG);

    /* Heap types 0 and 5 (GPU_UPLOAD does not exist for SDK 606 / this adapter), 6. */
    set_ctx("CreateHeap(type 0/5/6)");
    CHECK_FAILS(make_heap(65536, (D3D12_HEAP_TYPE)0, 0, 0, 0, 0, &h), h, E_INVALIDARG);
    CHECK_FAILS(make_heap(65536, (D3D12_HEAP_TYPE)5, 0, 0, 0, 0, &h), h, E_INVALIDARG);
    CHECK_FAILS(make_heap(65536, (D3D12_HEAP_TYPE)6, 0, 0, 0, 0, &h), h, E_INVALIDARG);

    /* Node masks with bits beyond the single node. */
    set_ctx("CreateHeap node masks");
    {
        D3D12_HEAP_DESC d = heap_desc(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0);
        d.Properties.CreationNodeMask = 2;
        d.Properties.VisibleNodeMask = 2;
        CHECK_FAILS(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)&h), h, E_INVALIDARG);
        d.Properties.CreationNodeMask = 1;
        d.Properties.VisibleNodeMask = 3;
        CHECK_FAILS(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)&h), h, E_INVALIDARG);
        d.Properties.CreationNodeMask = 1;
        d.Properties.VisibleNodeMask = 1;
        CHECK_CREATED(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)&h), h);
        RELEASE0(h);
    }

    /* Size 0. */
    set_ctx("CreateHeap(size 0)");
    CHECK_FAILS(make_heap(0, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0, &h), h, E_INVALIDARG);

    /* Alignments: 0, 64 KB and 4 MB only. */
    static const struct
    {
        UINT64 alignment, reported;
        HRESULT hr;
    } aligns[] = {
        {0, 65536, S_OK},           {65536, 65536, S_OK},     {4194304, 4194304, S_OK},
        {4096, 0, E_INVALIDARG},    {131072, 0, E_INVALIDARG}, {8388608, 0, E_INVALIDARG},
        {1, 0, E_INVALIDARG},       {32768, 0, E_INVALIDARG},
    };
    for (size_t i = 0; i < sizeof(aligns) / sizeof(aligns[0]); i++) {
        set_ctx("CreateHeap(Alignment %llu)", (unsigned long long)aligns[i].alignment);
        if (aligns[i].hr == S_OK) {
            CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, aligns[i].alignment, 0, &h), h);
            if (h)
                CHECK_EQ(ID3D12Heap_GetDesc(h).Alignment, aligns[i].reported);
            RELEASE0(h);
        } else {
            CHECK_FAILS(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, aligns[i].alignment, 0, &h), h,
                        aligns[i].hr);
        }
    }

    /* Flags: unknown bits, ALLOW_DISPLAY (committed resources only), every category denied,
     * cross-adapter (needs a second adapter and never WRITE_BACK or UPLOAD), protected. */
    static const struct
    {
        D3D12_HEAP_TYPE type;
        D3D12_CPU_PAGE_PROPERTY page;
        D3D12_MEMORY_POOL pool;
        unsigned flags;
        const char *what;
    } bad_flags[] = {
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0x2, "unknown bit 0x2"},
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0x10, "unknown bit 0x10"},
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0x40000000, "unknown bit 0x40000000"},
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0, D3D12_HEAP_FLAG_ALLOW_DISPLAY, "ALLOW_DISPLAY"},
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0, D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES | D3D12_HEAP_FLAG_ALLOW_DISPLAY,
         "ALLOW_ONLY_RT_DS_TEXTURES | ALLOW_DISPLAY"},
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0,
         D3D12_HEAP_FLAG_DENY_BUFFERS | D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES | D3D12_HEAP_FLAG_DENY_NON_RT_DS_TEXTURES,
         "all categories denied"},
        {D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0,
         D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER, "WRITE_BACK cross-adapter"},
        {D3D12_HEAP_TYPE_UPLOAD, 0, 0, D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER,
         "UPLOAD cross-adapter"},
        {D3D12_HEAP_TYPE_DEFAULT, 0, 0, D3D12_HEAP_FLAG_HARDWARE_PROTECTED, "HARDWARE_PROTECTED"},
    };
    for (size_t i = 0; i < sizeof(bad_flags) / sizeof(bad_flags[0]); i++) {
        set_ctx("CreateHeap(%s)", bad_flags[i].what);
        CHECK_FAILS(make_heap(65536, bad_flags[i].type, bad_flags[i].page, bad_flags[i].pool, 0,
                              (D3D12_HEAP_FLAGS)bad_flags[i].flags, &h),
                    h, E_INVALIDARG);
    }

    /* NULL desc; ppvHeap NULL (S_FALSE when valid); a non-heap IID; huge size. */
    set_ctx("CreateHeap(NULL desc / ppv NULL / riid)");
    CHECK_FAILS(ID3D12Device_CreateHeap(dev, NULL, &IID_ID3D12Heap, (void **)&h), h, E_INVALIDARG);
    {
        D3D12_HEAP_DESC d = heap_desc(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0);
        CHECK_HR(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, NULL), S_FALSE);
        CHECK_EQ(refcount(dev), base);
        d.SizeInBytes = 0;
        CHECK_HR(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, NULL), E_INVALIDARG);
        d.SizeInBytes = 65536;
        CHECK_FAILS(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Resource, (void **)&h), h, E_NOINTERFACE);
        CHECK_EQ(refcount(dev), base);
        set_ctx("CreateHeap(1 << 50 bytes)");
        d.SizeInBytes = 1ull << 50;
        CHECK_FAILS(ID3D12Device_CreateHeap(dev, &d, &IID_ID3D12Heap, (void **)&h), h, E_OUTOFMEMORY);
    }

    /* CreateHeap1 with no protected session behaves like CreateHeap. */
    set_ctx("CreateHeap1");
    {
        ID3D12Device4 *dev4 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device4, (void **)&dev4), S_OK);
        if (dev4) {
            D3D12_HEAP_DESC d = heap_desc(65536, D3D12_HEAP_TYPE_UPLOAD, 0, 0, 0, 0);
            CHECK_CREATED(ID3D12Device4_CreateHeap1(dev4, &d, NULL, &IID_ID3D12Heap, (void **)&h), h);
            RELEASE0(h);
            d.SizeInBytes = 0;
            CHECK_FAILS(ID3D12Device4_CreateHeap1(dev4, &d, NULL, &IID_ID3D12Heap, (void **)&h), h, E_INVALIDARG);
            ID3D12Device4_Release(dev4);
        }
    }

    /* A heap created without CREATE_NOT_ZEROED reads as zero (seen through a placed buffer). */
    set_ctx("heap contents");
    CHECK_CREATED(make_wb_heap(131072, 0, &h), h);
    if (h) {
        D3D12_RESOURCE_DESC bd = buf_desc(131072);
        ID3D12Resource *b;
        CHECK_CREATED(placed(h, 0, &bd, D3D12_RESOURCE_STATE_COMMON, &b), b);
        unsigned char *m = map_buf(b);
        if (m)
            CHECK(all_bytes(m, 131072, 0));
        RELEASE0(b);
        RELEASE0(h);
    }
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 2. committed and placed resources ------------------------------------------------------ */

static void test_committed(void)
{
    ULONG base = refcount(dev);
    ID3D12Resource *r;
    D3D12_RESOURCE_DESC bd = buf_desc(65536);
    D3D12_RESOURCE_DESC td = tex_desc(32, 32, 1, 0, D3D12_RESOURCE_FLAG_NONE);

    /* Initial state per heap type (resources.md §7; SDK 606 accepts COMMON on UPLOAD/READBACK,
     * and any subset of GENERIC_READ on UPLOAD). */
    static const struct
    {
        D3D12_HEAP_TYPE type;
        D3D12_RESOURCE_STATES state;
        HRESULT hr;
    } states[] = {
        {D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COMMON, S_OK},
        {D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_COPY_DEST, S_OK},
        {D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_STATE_GENERIC_READ, S_OK},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_GENERIC_READ, S_OK},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_COMMON, S_OK},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_COPY_SOURCE, S_OK},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_COPY_DEST, E_INVALIDARG},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, E_INVALIDARG},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_STATE_RENDER_TARGET, E_INVALIDARG},
        {D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COPY_DEST, S_OK},
        {D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COMMON, S_OK},
        {D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_GENERIC_READ, E_INVALIDARG},
        {D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_STATE_COPY_SOURCE, E_INVALIDARG},
    };
    for (size_t i = 0; i < sizeof(states) / sizeof(states[0]); i++) {
        set_ctx("committed buffer, heap type %d, state 0x%x", (int)states[i].type, (unsigned)states[i].state);
        if (states[i].hr == S_OK) {
            CHECK_CREATED(committed_on(states[i].type, &bd, states[i].state, &r), r);
            if (r)
                CHECK_EQ(refcount(dev), base + 1);
            RELEASE0(r);
        } else {
            CHECK_FAILS(committed_on(states[i].type, &bd, states[i].state, &r), r, states[i].hr);
        }
    }
    set_ctx("committed buffer on CUSTOM heaps");
    CHECK_CREATED(committed_wb(&bd, &r), r);
    RELEASE0(r);
    {
        /* CUSTOM heaps have no UPLOAD/READBACK restrictions: a UAV buffer in UNORDERED_ACCESS. */
        D3D12_RESOURCE_DESC uav = bd;
        uav.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
        CHECK_CREATED(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE, D3D12_MEMORY_POOL_L0,
                                0, &uav, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, &r),
                      r);
        RELEASE0(r);
    }

    /* Textures: not on UPLOAD / READBACK. */
    set_ctx("committed texture");
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &td, D3D12_RESOURCE_STATE_COMMON, &r), r);
    RELEASE0(r);
    CHECK_CREATED(committed_wb(&td, &r), r);
    RELEASE0(r);
    CHECK_CREATED(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, D3D12_MEMORY_POOL_L0, 0,
                            &td, D3D12_RESOURCE_STATE_COMMON, &r),
                  r);
    RELEASE0(r);
    CHECK_FAILS(committed_on(D3D12_HEAP_TYPE_UPLOAD, &td, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r, E_INVALIDARG);
    CHECK_FAILS(committed_on(D3D12_HEAP_TYPE_READBACK, &td, D3D12_RESOURCE_STATE_COPY_DEST, &r), r, E_INVALIDARG);
    {
        /* A texture on UPLOAD with a non-disclosable riid still fails with E_INVALIDARG. */
        D3D12_HEAP_PROPERTIES up = hprops(D3D12_HEAP_TYPE_UPLOAD, 0, 0);
        CHECK_FAILS(ID3D12Device_CreateCommittedResource(dev, &up, 0, &td, D3D12_RESOURCE_STATE_GENERIC_READ, NULL,
                                                         &IID_ID3D12Device, (void **)&r),
                    r, E_INVALIDARG);
    }

    /* RT / UAV buffers on UPLOAD / READBACK; simultaneous-access buffers anywhere. */
    static const struct
    {
        D3D12_HEAP_TYPE type;
        D3D12_RESOURCE_FLAGS flags;
    } bad_bufs[] = {
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET},
        {D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS},
        {D3D12_HEAP_TYPE_READBACK, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS},
        {D3D12_HEAP_TYPE_DEFAULT, D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS},
        {D3D12_HEAP_TYPE_UPLOAD, D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS},
    };
    for (size_t i = 0; i < sizeof(bad_bufs) / sizeof(bad_bufs[0]); i++) {
        set_ctx("committed buffer, heap type %d, flags 0x%x", (int)bad_bufs[i].type, (unsigned)bad_bufs[i].flags);
        D3D12_RESOURCE_DESC d = bd;
        d.Flags = bad_bufs[i].flags;
        D3D12_RESOURCE_STATES s = bad_bufs[i].type == D3D12_HEAP_TYPE_UPLOAD ? D3D12_RESOURCE_STATE_GENERIC_READ
                                  : bad_bufs[i].type == D3D12_HEAP_TYPE_READBACK ? D3D12_RESOURCE_STATE_COPY_DEST
                                                                                   : D3D12_RESOURCE_STATE_COMMON;
        CHECK_FAILS(committed_on(bad_bufs[i].type, &d, s, &r), r, E_INVALIDARG);
    }
    set_ctx("committed RT buffer on DEFAULT (legal, resources.md §5.1)");
    {
        D3D12_RESOURCE_DESC d = bd;
        d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &d, D3D12_RESOURCE_STATE_COMMON, &r), r);
        RELEASE0(r);
    }

    /* NULL arguments, a clear value on a buffer, ppv NULL. */
    set_ctx("CreateCommittedResource arguments");
    {
        D3D12_HEAP_PROPERTIES dp = hprops(D3D12_HEAP_TYPE_DEFAULT, 0, 0);
        D3D12_CLEAR_VALUE cv;
        memset(&cv, 0, sizeof(cv));
        cv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        CHECK_FAILS(ID3D12Device_CreateCommittedResource(dev, NULL, 0, &bd, 0, NULL, &IID_ID3D12Resource, (void **)&r),
                    r, E_INVALIDARG);
        CHECK_FAILS(ID3D12Device_CreateCommittedResource(dev, &dp, 0, NULL, 0, NULL, &IID_ID3D12Resource, (void **)&r),
                    r, E_INVALIDARG);
        CHECK_FAILS(ID3D12Device_CreateCommittedResource(dev, &dp, 0, &bd, 0, &cv, &IID_ID3D12Resource, (void **)&r),
                    r, E_INVALIDARG);
        CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &dp, 0, &bd, 0, NULL, &IID_ID3D12Resource, NULL), S_FALSE);
        CHECK_EQ(refcount(dev), base);
        /* A render-target texture with a matching optimized clear value. */
        D3D12_RESOURCE_DESC rt = tex_desc(32, 32, 1, 0, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
        CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &dp, 0, &rt, D3D12_RESOURCE_STATE_RENDER_TARGET, &cv,
                                                           &IID_ID3D12Resource, (void **)&r),
                      r);
        RELEASE0(r);
    }

    /* GetDesc: MipLevels 0 and Alignment 0 expanded, a valid 4 KB alignment kept, the rest as
     * passed; GetDesc1 (ID3D12Resource2) adds a zero SamplerFeedbackMipRegion. */
    set_ctx("GetDesc");
    {
        D3D12_RESOURCE_DESC d = tex_desc(32, 32, 0, 0, D3D12_RESOURCE_FLAG_NONE);
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &d, D3D12_RESOURCE_STATE_COMMON, &r), r);
        if (r) {
            D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
            D3D12_RESOURCE_DESC want = d;
            want.MipLevels = 6;
            want.Alignment = 65536;
            CHECK(desc_equal(&got, &want));
            CHECK_EQ(got.MipLevels, 6);
            CHECK_EQ(got.Alignment, 65536);
            ID3D12Resource2 *r2 = NULL;
            CHECK_HR(ID3D12Resource_QueryInterface(r, &IID_ID3D12Resource2, (void **)&r2), S_OK);
            if (r2) {
                D3D12_RESOURCE_DESC1 d1 = ID3D12Resource2_GetDesc1(r2);
                CHECK_EQ(d1.MipLevels, 6);
                CHECK_EQ(d1.Width, 32);
                CHECK_EQ(d1.SamplerFeedbackMipRegion.Width, 0);
                CHECK_EQ(d1.SamplerFeedbackMipRegion.Height, 0);
                CHECK_EQ(d1.SamplerFeedbackMipRegion.Depth, 0);
                ID3D12Resource2_Release(r2);
            }
            static const IID *const ok_iids[] = {&IID_IUnknown, &IID_ID3D12Object, &IID_ID3D12DeviceChild,
                                                 &IID_ID3D12Pageable, &IID_ID3D12Resource, &IID_ID3D12Resource1};
            for (size_t i = 0; i < sizeof(ok_iids) / sizeof(ok_iids[0]); i++) {
                void *p = NULL;
                CHECK_HR(ID3D12Resource_QueryInterface(r, ok_iids[i], &p), S_OK);
                CHECK_PTR(p, r);
                if (p)
                    IUnknown_Release((IUnknown *)p);
            }
            void *p = SENTINEL;
            CHECK_HR(ID3D12Resource_QueryInterface(r, &IID_ID3D12Heap, &p), E_NOINTERFACE);
            CHECK_PTR(p, NULL);
        }
        RELEASE0(r);

        d = tex_desc(32, 32, 1, 4096, D3D12_RESOURCE_FLAG_NONE);
        CHECK_CREATED(committed_wb(&d, &r), r);
        if (r) {
            D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
            CHECK(desc_equal(&got, &d));
            CHECK_EQ(got.Alignment, 4096);
        }
        RELEASE0(r);

        d = buf_desc(1000);
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_UPLOAD, &d, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r);
        if (r) {
            D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
            d.Alignment = 65536;
            CHECK(desc_equal(&got, &d));
            CHECK_EQ(got.Width, 1000);
        }
        RELEASE0(r);
    }

    /* GetHeapProperties of a committed resource: the properties as passed (node masks 0 → 1),
     * the flags passed; both outputs optional. */
    set_ctx("GetHeapProperties (committed)");
    {
        CHECK_CREATED(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE, D3D12_MEMORY_POOL_L0,
                                D3D12_HEAP_FLAG_CREATE_NOT_ZEROED, &bd, D3D12_RESOURCE_STATE_COMMON, &r),
                      r);
        if (r) {
            D3D12_HEAP_PROPERTIES p;
            D3D12_HEAP_FLAGS f = (D3D12_HEAP_FLAGS)0xdeadbeef;
            memset(&p, 0xcc, sizeof(p));
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, &p, &f), S_OK);
            CHECK_EQ(p.Type, D3D12_HEAP_TYPE_CUSTOM);
            CHECK_EQ(p.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE);
            CHECK_EQ(p.MemoryPoolPreference, D3D12_MEMORY_POOL_L0);
            CHECK_EQ(p.CreationNodeMask, 1);
            CHECK_EQ(p.VisibleNodeMask, 1);
            CHECK_EQ(f & D3D12_HEAP_FLAG_CREATE_NOT_ZEROED, D3D12_HEAP_FLAG_CREATE_NOT_ZEROED);
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, NULL, NULL), S_OK);
            memset(&p, 0xcc, sizeof(p));
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, &p, NULL), S_OK);
            CHECK_EQ(p.Type, D3D12_HEAP_TYPE_CUSTOM);
            f = (D3D12_HEAP_FLAGS)0xdeadbeef;
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, NULL, &f), S_OK);
            CHECK_EQ(f & D3D12_HEAP_FLAG_CREATE_NOT_ZEROED, D3D12_HEAP_FLAG_CREATE_NOT_ZEROED);
        }
        RELEASE0(r);
        /* An abstract type stays abstract. */
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_READBACK, &bd, D3D12_RESOURCE_STATE_COPY_DEST, &r), r);
        if (r) {
            D3D12_HEAP_PROPERTIES p;
            memset(&p, 0xcc, sizeof(p));
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, &p, NULL), S_OK);
            CHECK_EQ(p.Type, D3D12_HEAP_TYPE_READBACK);
            CHECK_EQ(p.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_UNKNOWN);
            CHECK_EQ(p.MemoryPoolPreference, D3D12_MEMORY_POOL_UNKNOWN);
            CHECK_EQ(p.CreationNodeMask, 1);
            CHECK_EQ(p.VisibleNodeMask, 1);
        }
        RELEASE0(r);
    }

    /* The newer creation methods without an initial layout; the enhanced-barrier ones fail
     * because the adapter reports no enhanced barriers. */
    set_ctx("CreateCommittedResource1/2, CreatePlacedResource1, *3/*2 (layouts)");
    {
        D3D12_HEAP_PROPERTIES dp = hprops(D3D12_HEAP_TYPE_DEFAULT, 0, 0);
        ID3D12Device4 *d4 = NULL;
        ID3D12Device8 *d8 = NULL;
        ID3D12Device10 *d10 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device4, (void **)&d4), S_OK);
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device8, (void **)&d8), S_OK);
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device10, (void **)&d10), S_OK);
        D3D12_RESOURCE_DESC1 bd1;
        memset(&bd1, 0, sizeof(bd1));
        bd1.Dimension = bd.Dimension;
        bd1.Width = bd.Width;
        bd1.Height = 1;
        bd1.DepthOrArraySize = 1;
        bd1.MipLevels = 1;
        bd1.SampleDesc.Count = 1;
        bd1.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        if (d4) {
            CHECK_CREATED(ID3D12Device4_CreateCommittedResource1(d4, &dp, 0, &bd, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                                 NULL, &IID_ID3D12Resource, (void **)&r),
                          r);
            RELEASE0(r);
        }
        if (d8) {
            CHECK_CREATED(ID3D12Device8_CreateCommittedResource2(d8, &dp, 0, &bd1, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                                 NULL, &IID_ID3D12Resource, (void **)&r),
                          r);
            RELEASE0(r);
            ID3D12Heap *h = NULL;
            CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0, &h), h);
            if (h) {
                CHECK_CREATED(ID3D12Device8_CreatePlacedResource1(d8, h, 0, &bd1, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                                  &IID_ID3D12Resource, (void **)&r),
                              r);
                RELEASE0(r);
                if (d10)
                    CHECK_FAILS(ID3D12Device10_CreatePlacedResource2(d10, h, 0, &bd1, D3D12_BARRIER_LAYOUT_UNDEFINED,
                                                                     NULL, 0, NULL, &IID_ID3D12Resource, (void **)&r),
                                r, E_INVALIDARG);
            }
            RELEASE0(h);
        }
        if (d10) {
            CHECK_FAILS(ID3D12Device10_CreateCommittedResource3(d10, &dp, 0, &bd1, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL,
                                                                NULL, 0, NULL, &IID_ID3D12Resource, (void **)&r),
                        r, E_INVALIDARG);
            CHECK_FAILS(ID3D12Device10_CreateReservedResource2(d10, &bd, D3D12_BARRIER_LAYOUT_UNDEFINED, NULL, NULL, 0,
                                                               NULL, &IID_ID3D12Resource, (void **)&r),
                        r, E_INVALIDARG);
        }
        if (d4)
            ID3D12Device4_Release(d4);
        if (d8)
            ID3D12Device8_Release(d8);
        if (d10)
            ID3D12Device10_Release(d10);
    }
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

static void test_placed(void)
{
    ULONG base = refcount(dev);
    ID3D12Heap *h = NULL;
    ID3D12Resource *r, *keep[3] = {NULL, NULL, NULL};
    D3D12_RESOURCE_DESC b64 = buf_desc(65536), b128 = buf_desc(131072);
    D3D12_RESOURCE_DESC t4k = tex_desc(32, 32, 1, 4096, D3D12_RESOURCE_FLAG_NONE);
    D3D12_RESOURCE_DESC t64k = tex_desc(32, 32, 1, 0, D3D12_RESOURCE_FLAG_NONE);

    set_ctx("placed: offsets in a 256 KB CUSTOM heap");
    CHECK_CREATED(make_wb_heap(262144, D3D12_HEAP_FLAG_CREATE_NOT_ZEROED, &h), h);
    if (!h)
        return;
    CHECK_EQ(refcount(dev), base + 1);
    CHECK_CREATED(placed(h, 0, &b64, D3D12_RESOURCE_STATE_COMMON, &keep[0]), keep[0]);
    CHECK_CREATED(placed(h, 196608, &b64, D3D12_RESOURCE_STATE_COMMON, &keep[1]), keep[1]); /* ends at the end */
    CHECK_CREATED(placed(h, 262144 - 4096, &t4k, D3D12_RESOURCE_STATE_COMMON, &keep[2]), keep[2]);
    /* Placing leaves the heap's count alone; each resource holds the device. */
    CHECK_EQ(refcount(h), 1);
    CHECK_EQ(refcount(dev), base + 4);
    CHECK_FAILS(placed(h, 4096, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);      /* 64 KB alignment */
    CHECK_FAILS(placed(h, 262144, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);    /* past the end */
    CHECK_FAILS(placed(h, 196608, &b128, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);   /* overhangs */
    CHECK_FAILS(placed(h, 0ull - 65536, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG); /* wraps */
    CHECK_FAILS(placed(h, 2048, &t4k, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);      /* 4 KB alignment */
    CHECK_FAILS(placed(h, 262144, &t4k, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
    CHECK_FAILS(placed(h, 4096, &t64k, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);     /* 64 KB texture */
    CHECK_CREATED(placed(h, 65536, &t64k, D3D12_RESOURCE_STATE_COMMON, &r), r);
    RELEASE0(r);

    /* NULL heap, clear value on a buffer, NULL desc, ppv NULL. */
    set_ctx("placed: arguments");
    {
        D3D12_CLEAR_VALUE cv;
        memset(&cv, 0, sizeof(cv));
        cv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        CHECK_FAILS(placed(NULL, 0, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
        CHECK_FAILS(ID3D12Device_CreatePlacedResource(dev, h, 65536, &b64, D3D12_RESOURCE_STATE_COMMON, &cv,
                                                      &IID_ID3D12Resource, (void **)&r),
                    r, E_INVALIDARG);
        CHECK_FAILS(ID3D12Device_CreatePlacedResource(dev, h, 65536, NULL, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                      &IID_ID3D12Resource, (void **)&r),
                    r, E_INVALIDARG);
        CHECK_HR(ID3D12Device_CreatePlacedResource(dev, h, 65536, &b64, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                   &IID_ID3D12Resource, NULL),
                 S_FALSE);
        CHECK_EQ(refcount(h), 1);
        CHECK_EQ(refcount(dev), base + 4);
    }

    /* GetDesc echoes; GetHeapProperties gives the heap's properties and flags. */
    set_ctx("placed: GetDesc / GetHeapProperties");
    if (keep[2]) {
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(keep[2]);
        CHECK(desc_equal(&got, &t4k));
        D3D12_HEAP_PROPERTIES p;
        D3D12_HEAP_FLAGS f = (D3D12_HEAP_FLAGS)0xdeadbeef;
        memset(&p, 0xcc, sizeof(p));
        CHECK_HR(ID3D12Resource_GetHeapProperties(keep[2], &p, &f), S_OK);
        CHECK_EQ(p.Type, D3D12_HEAP_TYPE_CUSTOM);
        CHECK_EQ(p.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK);
        CHECK_EQ(p.MemoryPoolPreference, D3D12_MEMORY_POOL_L0);
        CHECK_EQ(p.CreationNodeMask, 1);
        CHECK_EQ(p.VisibleNodeMask, 1);
        CHECK_EQ(f, D3D12_HEAP_FLAG_CREATE_NOT_ZEROED);
        CHECK_HR(ID3D12Resource_GetHeapProperties(keep[2], NULL, NULL), S_OK);
    }

    /* The heap can go first: the heap itself stays alive while placed resources use it (they
     * hold it internally, not through its public count), so it still holds its device. */
    set_ctx("placed: heap released first");
    RELEASE0(h);
    CHECK_EQ(refcount(dev), base + 4);
    if (keep[0] && keep[1]) {
        unsigned char *m0 = map_buf(keep[0]), *m1 = map_buf(keep[1]);
        if (m0 && m1) {
            memset(m0, 0x11, 65536);
            memset(m1, 0x22, 65536);
            CHECK(all_bytes(m0, 65536, 0x11));
            CHECK(all_bytes(m1, 65536, 0x22));
        }
    }
    for (int i = 0; i < 3; i++)
        RELEASE0(keep[i]);
    CHECK_EQ(refcount(dev), base);

    /* Heap categories (tier 2 heaps may still deny categories). */
    set_ctx("placed: heap categories");
    {
        D3D12_RESOURCE_DESC rt = tex_desc(32, 32, 1, 0, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
        ID3D12Heap *hb = NULL, *ht = NULL, *hrt = NULL;
        CHECK_CREATED(make_heap(131072, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS, &hb), hb);
        CHECK_CREATED(make_heap(131072, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, D3D12_HEAP_FLAG_ALLOW_ONLY_NON_RT_DS_TEXTURES,
                                &ht),
                      ht);
        CHECK_CREATED(make_heap(131072, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, D3D12_HEAP_FLAG_ALLOW_ONLY_RT_DS_TEXTURES,
                                &hrt),
                      hrt);
        if (hb) {
            CHECK_FAILS(placed(hb, 0, &t64k, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(hb, 0, &rt, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
            CHECK_CREATED(placed(hb, 0, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r);
            RELEASE0(r);
        }
        if (ht) {
            CHECK_FAILS(placed(ht, 0, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(ht, 0, &rt, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
            CHECK_CREATED(placed(ht, 0, &t64k, D3D12_RESOURCE_STATE_COMMON, &r), r);
            RELEASE0(r);
        }
        if (hrt) {
            CHECK_FAILS(placed(hrt, 0, &b64, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(hrt, 0, &t64k, D3D12_RESOURCE_STATE_COMMON, &r), r, E_INVALIDARG);
            CHECK_CREATED(placed(hrt, 0, &rt, D3D12_RESOURCE_STATE_RENDER_TARGET, &r), r);
            RELEASE0(r);
        }
        RELEASE0(hb);
        RELEASE0(ht);
        RELEASE0(hrt);
    }

    /* UPLOAD / READBACK heaps apply the committed rules to placed resources too. */
    set_ctx("placed: UPLOAD / READBACK heaps");
    {
        ID3D12Heap *hu = NULL, *hrb = NULL;
        CHECK_CREATED(make_heap(131072, D3D12_HEAP_TYPE_UPLOAD, 0, 0, 0, 0, &hu), hu);
        CHECK_CREATED(make_heap(131072, D3D12_HEAP_TYPE_READBACK, 0, 0, 0, 0, &hrb), hrb);
        D3D12_RESOURCE_DESC uav = b64;
        uav.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
        if (hu) {
            CHECK_FAILS(placed(hu, 0, &t64k, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(hu, 0, &uav, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(hu, 0, &b64, D3D12_RESOURCE_STATE_COPY_DEST, &r), r, E_INVALIDARG);
            CHECK_CREATED(placed(hu, 0, &b64, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r);
            RELEASE0(r);
        }
        if (hrb) {
            CHECK_FAILS(placed(hrb, 0, &t64k, D3D12_RESOURCE_STATE_COPY_DEST, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(hrb, 0, &uav, D3D12_RESOURCE_STATE_COPY_DEST, &r), r, E_INVALIDARG);
            CHECK_FAILS(placed(hrb, 0, &b64, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r, E_INVALIDARG);
            CHECK_CREATED(placed(hrb, 65536, &b64, D3D12_RESOURCE_STATE_COPY_DEST, &r), r);
            RELEASE0(r);
        }
        RELEASE0(hu);
        RELEASE0(hrb);
    }
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 3. the seed scenario: a small texture placed at 4 KB, CPU access, aliasing -------------- */

#define TEX_W 32
#define TEX_H 32
#define TEX_BYTES (TEX_W * TEX_H * 4)

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 31u + seed * 7u + (i >> 8)) & 0xff);
}

static void test_seed(void)
{
    ULONG base = refcount(dev);
    ID3D12Heap *h = NULL;
    ID3D12Resource *tex = NULL, *alias = NULL, *r;
    static unsigned char pat[TEX_BYTES], got[TEX_BYTES + 4096], expect[TEX_BYTES];

    set_ctx("seed: heap and texture");
    CHECK_CREATED(make_wb_heap(65536, 0, &h), h);
    if (!h)
        return;
    D3D12_RESOURCE_DESC td = tex_desc(TEX_W, TEX_H, 1, 4096, D3D12_RESOURCE_FLAG_NONE);
    D3D12_RESOURCE_ALLOCATION_INFO ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &td);
    CHECK_EQ(ai.SizeInBytes, 4096);
    CHECK_EQ(ai.Alignment, 4096);
    CHECK_CREATED(placed(h, 4096, &td, D3D12_RESOURCE_STATE_COMMON, &tex), tex);
    if (!tex) {
        RELEASE0(h);
        return;
    }
    D3D12_RESOURCE_DESC gd = ID3D12Resource_GetDesc(tex);
    CHECK(desc_equal(&gd, &td));
    CHECK_EQ(gd.Alignment, 4096);
    CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(tex), 0);

    /* No descs: {0, 1}; an invalid desc (a buffer asking for 4 KB): SizeInBytes UINT64_MAX. */
    ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 0, NULL);
    CHECK_EQ(ai.SizeInBytes, 0);
    CHECK_EQ(ai.Alignment, 1);
    {
        D3D12_RESOURCE_DESC bad = buf_desc(65536);
        bad.Alignment = 4096;
        ai = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &bad);
        CHECK_EQ(ai.SizeInBytes, UINT64_MAX);
        CHECK_EQ(ai.Alignment, 65536);
    }

    /* Two such textures back to back need 8 KB (GetResourceAllocationInfo1 offsets 0, 4096). */
    {
        ID3D12Device4 *d4 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device4, (void **)&d4), S_OK);
        if (d4) {
            D3D12_RESOURCE_DESC two[2] = {td, td};
            D3D12_RESOURCE_ALLOCATION_INFO1 each[2];
            memset(each, 0xcc, sizeof(each));
            D3D12_RESOURCE_ALLOCATION_INFO all = ID3D12Device4_GetResourceAllocationInfo1(d4, 0, 2, two, each);
            CHECK_EQ(all.SizeInBytes, 8192);
            CHECK_EQ(all.Alignment, 4096);
            CHECK_EQ(each[0].Offset, 0);
            CHECK_EQ(each[1].Offset, 4096);
            CHECK_EQ(each[1].SizeInBytes, 4096);
            CHECK_EQ(each[1].Alignment, 4096);
            ID3D12Device4_Release(d4);
        }
    }

    /* Write the whole subresource, read it back (no Map needed). */
    set_ctx("seed: Write/ReadFromSubresource");
    fill_pattern(pat, sizeof(pat), 1);
    CHECK_HR(ID3D12Resource_WriteToSubresource(tex, 0, NULL, pat, TEX_W * 4, TEX_BYTES), S_OK);
    memset(got, 0xee, sizeof(got));
    CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, TEX_BYTES, 0, NULL), S_OK);
    CHECK(memcmp(got, pat, TEX_BYTES) == 0);
    memcpy(expect, pat, TEX_BYTES);

    /* A wider destination pitch: rows land at the pitch, the gaps are not written. */
    memset(got, 0xee, sizeof(got));
    CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4 + 16, 0, 0, NULL), S_OK);
    {
        int rows_ok = 1, gaps_ok = 1;
        for (int y = 0; y < TEX_H; y++) {
            if (memcmp(got + y * (TEX_W * 4 + 16), pat + y * TEX_W * 4, TEX_W * 4) != 0)
                rows_ok = 0;
            if (y < TEX_H - 1 && !all_bytes(got + y * (TEX_W * 4 + 16) + TEX_W * 4, 16, 0xee))
                gaps_ok = 0;
        }
        CHECK(rows_ok);
        CHECK(gaps_ok);
    }

    /* With a box: an 8x8 block at (4, 2) from a source with a 40-byte pitch. */
    set_ctx("seed: boxes");
    {
        unsigned char src[8 * 40];
        fill_pattern(src, sizeof(src), 9);
        D3D12_BOX b = {4, 2, 0, 12, 10, 1};
        CHECK_HR(ID3D12Resource_WriteToSubresource(tex, 0, &b, src, 40, 0), S_OK);
        for (int y = 0; y < 8; y++)
            memcpy(expect + (2 + y) * TEX_W * 4 + 4 * 4, src + y * 40, 8 * 4);
        memset(got, 0xee, sizeof(got));
        CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 0, NULL), S_OK);
        CHECK(memcmp(got, expect, TEX_BYTES) == 0);
        unsigned char back[8 * 32];
        memset(back, 0xee, sizeof(back));
        CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, back, 32, 0, 0, &b), S_OK);
        int ok = 1;
        for (int y = 0; y < 8; y++)
            if (memcmp(back + y * 32, src + y * 40, 32) != 0)
                ok = 0;
        CHECK(ok);
    }

    /* Empty boxes inside the subresource: S_OK, nothing copied. */
    {
        static const D3D12_BOX empty[] = {
            {5, 5, 0, 5, 9, 1},     /* left == right */
            {0, 7, 0, 32, 7, 1},    /* top == bottom */
            {0, 0, 1, 32, 32, 1},   /* front == back == depth */
            {32, 32, 1, 32, 32, 1}, /* the far corner (the native (128,100,1) case) */
            {0, 0, 0, 0, 0, 0},
        };
        unsigned char junk[TEX_BYTES];
        memset(junk, 0x77, sizeof(junk));
        for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
            set_ctx("seed: empty box #%zu", i);
            CHECK_HR(ID3D12Resource_WriteToSubresource(tex, 0, &empty[i], junk, TEX_W * 4, 0), S_OK);
            memset(got, 0xee, sizeof(got));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 0, &empty[i]), S_OK);
            CHECK(all_bytes(got, sizeof(got), 0xee));
        }
    }

    /* Boxes outside the subresource, bad subresources: E_INVALIDARG, nothing copied. */
    {
        static const D3D12_BOX bad[] = {
            {0, 0, 0, 33, 32, 1},  /* right > width */
            {0, 0, 0, 32, 33, 1},  /* bottom > height */
            {0, 0, 0, 32, 32, 2},  /* back > depth */
            {32, 0, 0, 33, 1, 1},  /* past the right edge */
            {0, 0, 2, 32, 32, 2},  /* empty but out of range */
            {5, 0, 0, 4, 1, 1},    /* left > right */
            {0, 5, 0, 1, 4, 1},    /* top > bottom */
        };
        unsigned char junk[TEX_BYTES * 2];
        memset(junk, 0x77, sizeof(junk));
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            set_ctx("seed: out-of-range box #%zu", i);
            CHECK_HR(ID3D12Resource_WriteToSubresource(tex, 0, &bad[i], junk, TEX_W * 4, 0), E_INVALIDARG);
            memset(got, 0xee, sizeof(got));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 0, &bad[i]), E_INVALIDARG);
            CHECK(all_bytes(got, sizeof(got), 0xee));
        }
        set_ctx("seed: subresource 1 of a 1-subresource texture");
        CHECK_HR(ID3D12Resource_WriteToSubresource(tex, 1, NULL, junk, TEX_W * 4, 0), E_INVALIDARG);
        CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 1, NULL), E_INVALIDARG);
        CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, ~0u, NULL), E_INVALIDARG);
        memset(got, 0xee, sizeof(got));
        CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 0, NULL), S_OK);
        CHECK(memcmp(got, expect, TEX_BYTES) == 0);
    }

    /* Buffers, DEFAULT and NOT_AVAILABLE textures have no Write/ReadFromSubresource. */
    set_ctx("seed: resources without CPU texture access");
    {
        unsigned char tmp[TEX_BYTES];
        memset(tmp, 0, sizeof(tmp));
        D3D12_RESOURCE_DESC bd = buf_desc(65536);
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_READBACK, &bd, D3D12_RESOURCE_STATE_COPY_DEST, &r), r);
        if (r) {
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 0, NULL, tmp, 4096, 0), E_INVALIDARG);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, tmp, 4096, 0, 0, NULL), E_INVALIDARG);
        }
        RELEASE0(r);
        CHECK_CREATED(committed_wb(&bd, &r), r);
        if (r) {
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 0, NULL, tmp, 4096, 0), E_INVALIDARG);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, tmp, 4096, 0, 0, NULL), E_INVALIDARG);
        }
        RELEASE0(r);
        D3D12_RESOURCE_DESC t = tex_desc(TEX_W, TEX_H, 1, 0, 0);
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &t, D3D12_RESOURCE_STATE_COMMON, &r), r);
        if (r) {
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 0, NULL, tmp, TEX_W * 4, 0), E_INVALIDARG);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, tmp, TEX_W * 4, 0, 0, NULL), E_INVALIDARG);
        }
        RELEASE0(r);
        CHECK_CREATED(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, D3D12_MEMORY_POOL_L0, 0,
                                &t, D3D12_RESOURCE_STATE_COMMON, &r),
                      r);
        if (r) {
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 0, NULL, tmp, TEX_W * 4, 0), E_INVALIDARG);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, tmp, TEX_W * 4, 0, 0, NULL), E_INVALIDARG);
        }
        RELEASE0(r);
    }

    /* Mips and array slices are separate subresources (mip + slice * mips). */
    set_ctx("seed: mips and slices");
    {
        D3D12_RESOURCE_DESC t = tex_desc(TEX_W, TEX_H, 0, 0, 0); /* 6 mips */
        t.DepthOrArraySize = 2;
        CHECK_CREATED(committed_wb(&t, &r), r);
        if (r) {
            static unsigned char mip_data[12][TEX_BYTES];
            for (unsigned s = 0; s < 12; s++) {
                unsigned mip = s % 6, w = TEX_W >> mip, hh = TEX_H >> mip;
                fill_pattern(mip_data[s], w * hh * 4, 100 + s);
                CHECK_HR(ID3D12Resource_WriteToSubresource(r, s, NULL, mip_data[s], w * 4, w * hh * 4), S_OK);
            }
            int ok = 1;
            for (unsigned s = 0; s < 12; s++) {
                unsigned mip = s % 6, w = TEX_W >> mip, hh = TEX_H >> mip;
                memset(got, 0xee, sizeof(got));
                CHECK_HR(ID3D12Resource_ReadFromSubresource(r, got, w * 4, w * hh * 4, s, NULL), S_OK);
                if (memcmp(got, mip_data[s], w * hh * 4) != 0 || got[w * hh * 4] != 0xee) {
                    ok = 0;
                    printf("  (subresource %u differs)\n", s);
                }
            }
            CHECK(ok);
            /* mip 5 is 1x1: a box (0,0)-(2,1) is out of range there. */
            D3D12_BOX b = {0, 0, 0, 2, 1, 1};
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, got, 8, 0, 5, &b), E_INVALIDARG);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, got, 8, 0, 12, NULL), E_INVALIDARG);
        }
        RELEASE0(r);
    }

    /* 3D and 1D textures: depth pitch, boxes with front/back; Map(NULL) of a 3D texture works
     * with one mip only. */
    set_ctx("seed: 3D and 1D textures");
    {
        D3D12_RESOURCE_DESC t3 = tex_desc(8, 8, 1, 0, 0);
        t3.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
        t3.DepthOrArraySize = 4;
        CHECK_CREATED(committed_wb(&t3, &r), r);
        if (r) {
            unsigned char vol[4 * 8 * 8 * 4], back[4 * 8 * 8 * 4];
            fill_pattern(vol, sizeof(vol), 31);
            CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), S_OK);
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 0, NULL, vol, 8 * 4, 8 * 8 * 4), S_OK);
            memset(back, 0xee, sizeof(back));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, back, 8 * 4, 8 * 8 * 4, 0, NULL), S_OK);
            CHECK(memcmp(back, vol, sizeof(vol)) == 0);
            /* Slices 1..2, texels (2,3)-(6,5), into a tight buffer. */
            D3D12_BOX b = {2, 3, 1, 6, 5, 3};
            memset(back, 0xee, sizeof(back));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, back, 16, 32, 0, &b), S_OK);
            int ok = 1;
            for (int z = 0; z < 2; z++)
                for (int y = 0; y < 2; y++)
                    if (memcmp(back + z * 32 + y * 16, vol + (1 + z) * 256 + (3 + y) * 32 + 2 * 4, 16) != 0)
                        ok = 0;
            CHECK(ok);
            D3D12_BOX deep = {0, 0, 3, 8, 8, 5};
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, back, 32, 256, 0, &deep), E_INVALIDARG);
            ID3D12Resource_Unmap(r, 0, NULL);
        }
        RELEASE0(r);
        t3.MipLevels = 2;
        CHECK_CREATED(committed_wb(&t3, &r), r);
        if (r)
            CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), E_INVALIDARG);
        RELEASE0(r);

        D3D12_RESOURCE_DESC t1 = tex_desc(64, 1, 1, 0, 0);
        t1.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE1D;
        CHECK_CREATED(committed_wb(&t1, &r), r);
        if (r) {
            unsigned char line[64 * 4], back[64 * 4];
            fill_pattern(line, sizeof(line), 41);
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 0, NULL, line, sizeof(line), 0), S_OK);
            D3D12_BOX b = {8, 0, 0, 24, 1, 1};
            memset(back, 0xee, sizeof(back));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, back, 0, 0, 0, &b), S_OK);
            CHECK(memcmp(back, line + 8 * 4, 16 * 4) == 0);
            CHECK(back[16 * 4] == 0xee);
            D3D12_BOX tall = {0, 0, 0, 64, 2, 1};
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, back, 0, 0, 0, &tall), E_INVALIDARG);
        }
        RELEASE0(r);
    }

    /* Aliasing, one: a buffer over the whole heap shares the texture's bytes. Layout-agnostic:
     * the texture occupies only [4096, 8192) of the heap; clearing those bytes through the buffer
     * clears the texture, putting them back restores it. */
    set_ctx("seed: buffer aliasing the texture");
    {
        D3D12_RESOURCE_DESC bd = buf_desc(65536);
        CHECK_CREATED(placed(h, 0, &bd, D3D12_RESOURCE_STATE_COMMON, &alias), alias);
        unsigned char *m = map_buf(alias);
        if (m) {
            CHECK(all_bytes(m, 4096, 0));
            CHECK(all_bytes(m + 8192, 65536 - 8192, 0));
            CHECK(!all_bytes(m + 4096, 4096, 0));
            static unsigned char saved[4096];
            memcpy(saved, m + 4096, 4096);
            memset(m + 4096, 0, 4096);
            memset(got, 0xee, sizeof(got));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 0, NULL), S_OK);
            CHECK(all_bytes(got, TEX_BYTES, 0));
            memcpy(m + 4096, saved, 4096);
            memset(m, 0xff, 4096);
            memset(m + 8192, 0xff, 65536 - 8192);
            memset(got, 0xee, sizeof(got));
            CHECK_HR(ID3D12Resource_ReadFromSubresource(tex, got, TEX_W * 4, 0, 0, NULL), S_OK);
            CHECK(memcmp(got, expect, TEX_BYTES) == 0);
            /* A texture write shows through the buffer, only inside [4096, 8192). */
            memset(m + 4096, 0, 4096);
            CHECK_HR(ID3D12Resource_WriteToSubresource(tex, 0, NULL, pat, TEX_W * 4, 0), S_OK);
            CHECK(!all_bytes(m + 4096, 4096, 0));
            CHECK(all_bytes(m, 4096, 0xff));
            CHECK(all_bytes(m + 8192, 65536 - 8192, 0xff));
            ID3D12Resource_Unmap(alias, 0, NULL);
        }
        RELEASE0(alias);
    }
    RELEASE0(tex);
    RELEASE0(h);

    /* Aliasing, two: two buffers over the same bytes see each other's writes through Map. */
    set_ctx("seed: two aliasing buffers");
    {
        ID3D12Resource *a = NULL, *b = NULL;
        D3D12_RESOURCE_DESC ad = buf_desc(131072), bd = buf_desc(65536);
        CHECK_CREATED(make_wb_heap(131072, 0, &h), h);
        if (h) {
            CHECK_CREATED(placed(h, 0, &ad, D3D12_RESOURCE_STATE_COMMON, &a), a);
            CHECK_CREATED(placed(h, 65536, &bd, D3D12_RESOURCE_STATE_COMMON, &b), b);
        }
        unsigned char *ma = map_buf(a), *mb = map_buf(b);
        if (ma && mb) {
            fill_pattern(ma + 65536, 65536, 3);
            CHECK(memcmp(mb, ma + 65536, 65536) == 0);
            memset(mb + 100, 0x5c, 1000);
            CHECK(all_bytes(ma + 65536 + 100, 1000, 0x5c));
            CHECK(all_bytes(ma, 65536, 0));
        }
        if (a && b)
            CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(b), ID3D12Resource_GetGPUVirtualAddress(a) + 65536);
        RELEASE0(a);
        RELEASE0(b);
        RELEASE0(h);
    }
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 4. Map / Unmap ---------------------------------------------------------------------------- */

#define MAP_THREADS 8
#define MAP_REGION 8192

struct map_worker
{
    ID3D12Resource *res;
    unsigned char *expected_ptr;
    unsigned index, iterations;
    unsigned bad_hr, bad_ptr, bad_data;
};

static void *map_worker_main(void *arg)
{
    struct map_worker *w = arg;
    for (unsigned it = 0; it < w->iterations; it++) {
        D3D12_RANGE range = {w->index * MAP_REGION, (w->index + 1) * MAP_REGION};
        void *p = NULL;
        if (ID3D12Resource_Map(w->res, 0, &range, &p) != S_OK) {
            w->bad_hr++;
            continue;
        }
        if (p != w->expected_ptr)
            w->bad_ptr++;
        unsigned char *mine = (unsigned char *)p + w->index * MAP_REGION;
        unsigned char v = (unsigned char)(w->index * 29 + it);
        memset(mine, v, MAP_REGION);
        for (unsigned j = 0; j < MAP_REGION; j += 61)
            if (mine[j] != v)
                w->bad_data++;
        ID3D12Resource_Unmap(w->res, 0, &range);
    }
    return NULL;
}

static void test_map(void)
{
    ULONG base = refcount(dev);
    ID3D12Resource *r = NULL;
    void *p, *p2;
    D3D12_RESOURCE_DESC bd = buf_desc(65536);

    set_ctx("Map: UPLOAD buffer");
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_UPLOAD, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, &r), r);
    if (r) {
        p = NULL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), S_OK);
        CHECK(p != NULL);
        if (p) {
            CHECK(all_bytes(p, 65536, 0));
            fill_pattern(p, 65536, 5);
            /* Nested: the same pointer, the data kept; a read range never offsets it. */
            D3D12_RANGE rr = {4096, 8192};
            p2 = NULL;
            CHECK_HR(ID3D12Resource_Map(r, 0, &rr, &p2), S_OK);
            CHECK_PTR(p2, p);
            D3D12_RANGE none = {0, 0};
            p2 = NULL;
            CHECK_HR(ID3D12Resource_Map(r, 0, &none, &p2), S_OK);
            CHECK_PTR(p2, p);
            unsigned char ref[65536];
            fill_pattern(ref, sizeof(ref), 5);
            CHECK(memcmp(p2, ref, sizeof(ref)) == 0);
            ID3D12Resource_Unmap(r, 0, &none);
            ID3D12Resource_Unmap(r, 0, NULL);
            /* Still mapped once: the pointer is still valid. */
            CHECK(memcmp(p, ref, sizeof(ref)) == 0);
            D3D12_RANGE wr = {0, 65536};
            ID3D12Resource_Unmap(r, 0, &wr);
            /* Unmapped entirely: a new Map sees the data. */
            p2 = NULL;
            CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p2), S_OK);
            if (p2)
                CHECK(memcmp(p2, ref, sizeof(ref)) == 0);
            ID3D12Resource_Unmap(r, 0, NULL);
        }
        /* Map with ppData NULL just establishes the mapping. */
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), S_OK);
        ID3D12Resource_Unmap(r, 0, NULL);
        /* Subresource 1 of a buffer: E_INVALIDARG, *ppData untouched. */
        p = SENTINEL;
        CHECK_HR(ID3D12Resource_Map(r, 1, NULL, &p), E_INVALIDARG);
        CHECK_PTR(p, SENTINEL);
        CHECK_HR(ID3D12Resource_Map(r, 1, NULL, NULL), E_INVALIDARG);
        /* Unmap of something never mapped, or out of range, is ignored. */
        ID3D12Resource_Unmap(r, 0, NULL);
        ID3D12Resource_Unmap(r, 0, NULL);
        ID3D12Resource_Unmap(r, 1, NULL);
        ID3D12Resource_Unmap(r, ~0u, NULL);
        p = NULL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), S_OK);
        CHECK(p != NULL);
        ID3D12Resource_Unmap(r, 0, NULL);
    }

    /* Concurrent Map / Unmap and writes from 8 threads, each on its own 8 KB region, while this
     * thread keeps one Map outstanding (so the address is stable). */
    set_ctx("Map: 8 threads");
    if (r) {
        unsigned char *keep = NULL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, (void **)&keep), S_OK);
        if (keep) {
            struct map_worker w[MAP_THREADS];
            pthread_t t[MAP_THREADS];
            unsigned iterations = under_valgrind() ? 40 : 2000;
            for (unsigned i = 0; i < MAP_THREADS; i++) {
                memset(&w[i], 0, sizeof(w[i]));
                w[i].res = r;
                w[i].expected_ptr = keep;
                w[i].index = i;
                w[i].iterations = iterations;
            }
            int started[MAP_THREADS];
            for (unsigned i = 0; i < MAP_THREADS; i++)
                started[i] = pthread_create(&t[i], NULL, map_worker_main, &w[i]) == 0;
            for (unsigned i = 0; i < MAP_THREADS; i++) {
                CHECK(started[i]);
                if (started[i])
                    pthread_join(t[i], NULL);
            }
            for (unsigned i = 0; i < MAP_THREADS; i++) {
                set_ctx("Map: thread %u", i);
                CHECK_EQ(w[i].bad_hr, 0);
                CHECK_EQ(w[i].bad_ptr, 0);
                CHECK_EQ(w[i].bad_data, 0);
                CHECK(all_bytes(keep + i * MAP_REGION, MAP_REGION, (unsigned char)(i * 29 + iterations - 1)));
            }
            ID3D12Resource_Unmap(r, 0, NULL);
        }
    }
    RELEASE0(r);

    /* READBACK buffers map (and read zero); DEFAULT and NOT_AVAILABLE do not. */
    set_ctx("Map: heap types");
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_READBACK, &bd, D3D12_RESOURCE_STATE_COPY_DEST, &r), r);
    if (r) {
        p = NULL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), S_OK);
        if (p)
            CHECK(all_bytes(p, 65536, 0));
        D3D12_RANGE empty = {0, 0};
        ID3D12Resource_Unmap(r, 0, &empty);
    }
    RELEASE0(r);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &bd, D3D12_RESOURCE_STATE_COMMON, &r), r);
    if (r) {
        p = SENTINEL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), E_INVALIDARG);
        CHECK_PTR(p, SENTINEL);
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), E_INVALIDARG);
        ID3D12Resource_Unmap(r, 0, NULL); /* harmless */
    }
    RELEASE0(r);
    CHECK_CREATED(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, D3D12_MEMORY_POOL_L0, 0,
                            &bd, D3D12_RESOURCE_STATE_COMMON, &r),
                  r);
    if (r) {
        p = SENTINEL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), E_INVALIDARG);
        CHECK_PTR(p, SENTINEL);
    }
    RELEASE0(r);
    CHECK_CREATED(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE, D3D12_MEMORY_POOL_L0, 0,
                            &bd, D3D12_RESOURCE_STATE_COMMON, &r),
                  r);
    if (r) {
        p = NULL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), S_OK);
        CHECK(p != NULL);
        ID3D12Resource_Unmap(r, 0, NULL);
    }
    RELEASE0(r);

    /* Textures with an undefined layout: Map(ppData) is refused (the address is not disclosed),
     * Map(NULL) succeeds; subresources out of range fail either way. */
    set_ctx("Map: textures");
    {
        D3D12_RESOURCE_DESC td = tex_desc(32, 32, 2, 0, 0);
        CHECK_CREATED(committed_wb(&td, &r), r);
        if (r) {
            p = SENTINEL;
            CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &p), E_INVALIDARG);
            CHECK_PTR(p, SENTINEL);
            CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), S_OK);
            CHECK_HR(ID3D12Resource_Map(r, 1, NULL, NULL), S_OK);
            CHECK_HR(ID3D12Resource_Map(r, 2, NULL, NULL), E_INVALIDARG);
            /* Write/ReadFromSubresource while mapped. */
            unsigned char px[16 * 16 * 4], back[16 * 16 * 4];
            fill_pattern(px, sizeof(px), 11);
            CHECK_HR(ID3D12Resource_WriteToSubresource(r, 1, NULL, px, 16 * 4, 0), S_OK);
            CHECK_HR(ID3D12Resource_ReadFromSubresource(r, back, 16 * 4, 0, 1, NULL), S_OK);
            CHECK(memcmp(px, back, sizeof(px)) == 0);
            ID3D12Resource_Unmap(r, 1, NULL);
            ID3D12Resource_Unmap(r, 0, NULL);
            ID3D12Resource_Unmap(r, 0, NULL); /* not mapped any more: ignored */
        }
        RELEASE0(r);
    }
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 5. GPU virtual addresses ------------------------------------------------------------------ */

static void test_gpu_va(void)
{
    ULONG base = refcount(dev);
    ID3D12Resource *b[3] = {NULL, NULL, NULL}, *t = NULL, *pa = NULL, *pb = NULL, *pt = NULL;
    ID3D12Heap *h = NULL;
    D3D12_RESOURCE_DESC bd = buf_desc(65536);

    set_ctx("GPU VA: committed buffers");
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &bd, D3D12_RESOURCE_STATE_COMMON, &b[0]), b[0]);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_UPLOAD, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, &b[1]), b[1]);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_READBACK, &bd, D3D12_RESOURCE_STATE_COPY_DEST, &b[2]), b[2]);
    D3D12_GPU_VIRTUAL_ADDRESS va[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        if (b[i])
            va[i] = ID3D12Resource_GetGPUVirtualAddress(b[i]);
        CHECK(va[i] != 0);
    }
    /* Distinct, non-overlapping ranges. */
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            CHECK(va[i] + 65536 <= va[j] || va[j] + 65536 <= va[i]);
    /* Eviction keeps the address. */
    if (b[0]) {
        ID3D12Pageable *pg = (ID3D12Pageable *)b[0];
        CHECK_HR(ID3D12Device_Evict(dev, 1, &pg), S_OK);
        CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(b[0]), va[0]);
        CHECK_HR(ID3D12Device_MakeResident(dev, 1, &pg), S_OK);
        CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(b[0]), va[0]);
    }

    set_ctx("GPU VA: placed buffers");
    CHECK_CREATED(make_heap(196608, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0, &h), h);
    if (h) {
        CHECK_CREATED(placed(h, 0, &bd, D3D12_RESOURCE_STATE_COMMON, &pa), pa);
        CHECK_CREATED(placed(h, 65536, &bd, D3D12_RESOURCE_STATE_COMMON, &pb), pb);
        D3D12_RESOURCE_DESC td = tex_desc(32, 32, 1, 0, 0);
        CHECK_CREATED(placed(h, 131072, &td, D3D12_RESOURCE_STATE_COMMON, &pt), pt);
        if (pa && pb) {
            D3D12_GPU_VIRTUAL_ADDRESS a = ID3D12Resource_GetGPUVirtualAddress(pa);
            D3D12_GPU_VIRTUAL_ADDRESS bb = ID3D12Resource_GetGPUVirtualAddress(pb);
            CHECK(a != 0);
            CHECK_EQ(bb, a + 65536);
            for (int i = 0; i < 3; i++)
                CHECK(va[i] + 65536 <= a || a + 196608 <= va[i]);
        }
        if (pt)
            CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(pt), 0);
    }

    set_ctx("GPU VA: textures");
    {
        D3D12_RESOURCE_DESC td = tex_desc(32, 32, 1, 0, 0);
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &td, D3D12_RESOURCE_STATE_COMMON, &t), t);
        if (t)
            CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(t), 0);
    }
    for (int i = 0; i < 3; i++)
        RELEASE0(b[i]);
    RELEASE0(t);
    RELEASE0(pa);
    RELEASE0(pb);
    RELEASE0(pt);
    RELEASE0(h);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 6. residency ------------------------------------------------------------------------------ */

static void test_residency(void)
{
    ULONG base = refcount(dev);
    ID3D12Heap *h = NULL, *hn = NULL;
    ID3D12Resource *b = NULL, *t = NULL;
    D3D12_RESOURCE_DESC bd = buf_desc(65536), td = tex_desc(32, 32, 1, 0, 0);

    set_ctx("residency");
    CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0, &h), h);
    CHECK_CREATED(make_heap(65536, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, D3D12_HEAP_FLAG_CREATE_NOT_RESIDENT, &hn), hn);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_UPLOAD, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, &b), b);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &td, D3D12_RESOURCE_STATE_COMMON, &t), t);
    if (h && hn && b && t) {
        ID3D12Pageable *objs[4] = {(ID3D12Pageable *)h, (ID3D12Pageable *)hn, (ID3D12Pageable *)b,
                                   (ID3D12Pageable *)t};
        /* Write through the buffer, evict and bring everything back: the data survives. */
        unsigned char *m = map_buf(b);
        if (m) {
            fill_pattern(m, 65536, 21);
            ID3D12Resource_Unmap(b, 0, NULL);
        }
        /* Counts start at 1 (0 for CREATE_NOT_RESIDENT); two MakeResident then two Evict bring
         * them back, a third MakeResident leaves every object resident. */
        CHECK_HR(ID3D12Device_MakeResident(dev, 4, objs), S_OK);
        CHECK_HR(ID3D12Device_MakeResident(dev, 4, objs), S_OK);
        CHECK_HR(ID3D12Device_Evict(dev, 4, objs), S_OK);
        CHECK_HR(ID3D12Device_Evict(dev, 4, objs), S_OK); /* hn evicted again (count 0) */
        CHECK_HR(ID3D12Device_MakeResident(dev, 4, objs), S_OK);
        CHECK_HR(ID3D12Device_MakeResident(dev, 1, objs), S_OK);
        CHECK_HR(ID3D12Device_Evict(dev, 1, objs), S_OK);
        /* The same object several times in one call. */
        ID3D12Pageable *twice[2] = {objs[0], objs[0]};
        CHECK_HR(ID3D12Device_MakeResident(dev, 2, twice), S_OK);
        CHECK_HR(ID3D12Device_Evict(dev, 2, twice), S_OK);
        m = map_buf(b);
        if (m) {
            unsigned char ref[65536];
            fill_pattern(ref, sizeof(ref), 21);
            CHECK(memcmp(m, ref, sizeof(ref)) == 0);
            ID3D12Resource_Unmap(b, 0, NULL);
        }
        /* Counts: 0 objects with or without an array; NULL array with objects. */
        CHECK_HR(ID3D12Device_MakeResident(dev, 0, NULL), S_OK);
        CHECK_HR(ID3D12Device_Evict(dev, 0, NULL), S_OK);
        CHECK_HR(ID3D12Device_MakeResident(dev, 0, objs), S_OK);
        CHECK_HR(ID3D12Device_Evict(dev, 0, objs), S_OK);
        CHECK_HR(ID3D12Device_MakeResident(dev, 1, NULL), E_INVALIDARG);
        CHECK_HR(ID3D12Device_Evict(dev, 2, NULL), E_INVALIDARG);

        /* SetResidencyPriority (ID3D12Device1, slot 46). */
        set_ctx("SetResidencyPriority");
        ID3D12Device1 *d1 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device1, (void **)&d1), S_OK);
        CHECK_EQ(offsetof(ID3D12Device1Vtbl, SetResidencyPriority) / sizeof(void *), 46);
        if (d1) {
            D3D12_RESIDENCY_PRIORITY prio[4] = {D3D12_RESIDENCY_PRIORITY_MINIMUM, D3D12_RESIDENCY_PRIORITY_HIGH,
                                                D3D12_RESIDENCY_PRIORITY_MAXIMUM,
                                                (D3D12_RESIDENCY_PRIORITY)(D3D12_RESIDENCY_PRIORITY_NORMAL + 5)};
            CHECK_HR(ID3D12Device1_SetResidencyPriority(d1, 4, objs, prio), S_OK);
            CHECK_HR(ID3D12Device1_SetResidencyPriority(d1, 0, NULL, NULL), S_OK);
            /* The object-array rule of MakeResident / Evict (#703 / #705). */
            CHECK_HR(ID3D12Device1_SetResidencyPriority(d1, 1, NULL, prio), E_INVALIDARG);
            ID3D12Device1_Release(d1);
        }
        /* Residency calls took no references. */
        CHECK_EQ(refcount(h), 1);
        CHECK_EQ(refcount(b), 1);
    }
    RELEASE0(h);
    RELEASE0(hn);
    RELEASE0(b);
    RELEASE0(t);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- 7. shared handles across processes --------------------------------------------------------- */

#define SHARE_SIZE 65536
/* The parent's pattern lies at [0, SHARE_CHUNK) of the shared buffer, the child's answer at
 * [SHARE_ANSWER_OFFSET, SHARE_ANSWER_OFFSET + SHARE_CHUNK). */
#define SHARE_CHUNK 4096
#define SHARE_ANSWER_OFFSET 16384

/* The exchanges. Each has its own seed, so that bytes left by one cannot pass for another's. */
static const struct share_mode {
    const char *mode;
    int resource; /* 1: a shared committed buffer; 0: a shared heap with a buffer placed at 0 */
    int by_name;  /* 1: the child finds the handle by name; 0: it inherits the descriptor */
    unsigned seed;
} g_share_modes[] = {
    {"heap-fd", 0, 0, 77},
    {"resource-fd", 1, 0, 79},
    {"heap-name", 0, 1, 81},
    {"resource-name", 1, 1, 83},
};

static const struct share_mode *share_mode(const char *mode)
{
    for (size_t i = 0; i < sizeof(g_share_modes) / sizeof(g_share_modes[0]); i++)
        if (strcmp(g_share_modes[i].mode, mode) == 0)
            return &g_share_modes[i];
    return NULL;
}

static void share_pattern(unsigned char *p, unsigned seed)
{
    fill_pattern(p, SHARE_CHUNK, seed);
}

static void share_answer(unsigned char *p, unsigned seed)
{
    fill_pattern(p, SHARE_CHUNK, seed + 1);
    for (int i = 0; i < SHARE_CHUNK; i++)
        p[i] ^= 0xa5;
}

/* Byte-for-byte comparison; a failure names the first differing byte. */
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
    size_t bad = 0;
    for (size_t j = i; j < n; j++)
        bad += got[j] != expected[j];
    fail_prefix(file, line, what);
    printf("%zu of %zu bytes differ, first at %zu: got 0x%02x, expected 0x%02x\n", bad, n, i, got[i], expected[i]);
}

#define CHECK_BYTES(what, got, expected, n) check_bytes(__FILE__, __LINE__, (what), (got), (expected), (n))

static int handle_fd(HANDLE h)
{
    return (int)(intptr_t)h;
}

/* ---- copies on a queue: one DIRECT queue, allocator, graphics command list and fence ---------- */

struct gpu {
    ID3D12CommandQueue *queue;
    ID3D12CommandAllocator *alloc;
    ID3D12GraphicsCommandList *list;
    ID3D12Fence *fence;
    UINT64 value;
    /* An eventfd for SetEventOnCompletion, or -1: SetEventOnCompletion(value, NULL) blocks. */
    int event;
};

static void gpu_release(struct gpu *g)
{
    RELEASE0(g->list);
    RELEASE0(g->alloc);
    RELEASE0(g->fence);
    RELEASE0(g->queue);
    if (g->event >= 0)
        close(g->event);
    g->event = -1;
}

/* Returns 1 when every object exists. The list is created recording and closed at once. */
static int gpu_init(struct gpu *g, int use_eventfd)
{
    memset(g, 0, sizeof(*g));
    g->event = -1;
    D3D12_COMMAND_QUEUE_DESC qd;
    memset(&qd, 0, sizeof(qd));
    qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
    CHECK_CREATED(ID3D12Device_CreateCommandQueue(dev, &qd, &IID_ID3D12CommandQueue, (void **)&g->queue), g->queue);
    CHECK_CREATED(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator,
                                                      (void **)&g->alloc),
                  g->alloc);
    if (g->alloc) {
        CHECK_CREATED(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, g->alloc, NULL,
                                                     &IID_ID3D12GraphicsCommandList, (void **)&g->list),
                      g->list);
        if (g->list)
            CHECK_HR(ID3D12GraphicsCommandList_Close(g->list), S_OK);
    }
    CHECK_CREATED(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&g->fence),
                  g->fence);
    if (use_eventfd) {
        g->event = eventfd(0, EFD_CLOEXEC);
        CHECK(g->event >= 0);
    }
    if (g->queue && g->alloc && g->list && g->fence && (!use_eventfd || g->event >= 0))
        return 1;
    gpu_release(g);
    return 0;
}

/* Signals the next fence value on the queue and waits for it on the CPU. */
static int gpu_wait(struct gpu *g)
{
    g->value++;
    CHECK_HR(ID3D12CommandQueue_Signal(g->queue, g->fence, g->value), S_OK);
    if (g->event >= 0) {
        /* Docs: the event is signalled when the fence reaches the value; an eventfd counts. */
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(g->fence, g->value, (HANDLE)(intptr_t)g->event), S_OK);
        struct pollfd p = {g->event, POLLIN, 0};
        int n;
        do
            n = poll(&p, 1, 10000);
        while (n < 0 && errno == EINTR);
        CHECK_EQ(n, 1);
        uint64_t count = 0;
        if (n == 1)
            CHECK_EQ(read(g->event, &count, sizeof(count)), sizeof(count));
        CHECK_EQ(count, 1);
    } else {
        /* Docs: "If hEvent is a null handle, then this API will not return until the specified
         * fence value(s) have been reached." */
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(g->fence, g->value, NULL), S_OK);
    }
    UINT64 done = ID3D12Fence_GetCompletedValue(g->fence);
    CHECK_EQ(done, g->value);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    return done == g->value;
}

/* CopyBufferRegion(dst, dst_off, src, src_off, n) on the queue, waited for. */
static int gpu_copy(struct gpu *g, ID3D12Resource *dst, UINT64 dst_off, ID3D12Resource *src, UINT64 src_off,
                    UINT64 n)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(g->alloc), S_OK);
    HRESULT hr = ID3D12GraphicsCommandList_Reset(g->list, g->alloc, NULL);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr))
        return 0;
    ID3D12GraphicsCommandList_CopyBufferRegion(g->list, dst, dst_off, src, src_off, n);
    hr = ID3D12GraphicsCommandList_Close(g->list);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr))
        return 0;
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)g->list};
    ID3D12CommandQueue_ExecuteCommandLists(g->queue, 1, lists);
    return gpu_wait(g);
}

/* Writes `n` bytes at `off` of the DEFAULT buffer `dst`: an UPLOAD buffer, then a copy. */
static int gpu_upload(struct gpu *g, ID3D12Resource *dst, UINT64 off, const unsigned char *data, UINT64 n)
{
    D3D12_RESOURCE_DESC bd = buf_desc(n);
    ID3D12Resource *up = NULL;
    int ok = 0;
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_UPLOAD, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, &up), up);
    unsigned char *m = map_buf(up);
    if (m) {
        memcpy(m, data, n);
        ID3D12Resource_Unmap(up, 0, NULL);
        ok = gpu_copy(g, dst, off, up, 0, n);
    }
    RELEASE0(up);
    return ok;
}

/* Reads `n` bytes at `off` of the DEFAULT buffer `src`: a copy into a READBACK buffer, then Map. */
static int gpu_readback(struct gpu *g, ID3D12Resource *src, UINT64 off, unsigned char *out, UINT64 n)
{
    D3D12_RESOURCE_DESC bd = buf_desc(n);
    ID3D12Resource *rb = NULL;
    int ok = 0;
    memset(out, 0, n);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_READBACK, &bd, D3D12_RESOURCE_STATE_COPY_DEST, &rb), rb);
    if (rb && gpu_copy(g, rb, 0, src, off, n)) {
        unsigned char *m = map_buf(rb);
        if (m) {
            memcpy(out, m, n);
            D3D12_RANGE none = {0, 0};
            ID3D12Resource_Unmap(rb, 0, &none);
            ok = 1;
        }
    }
    RELEASE0(rb);
    return ok;
}

/* Checks that `buf` holds exchange `m`'s pattern, and its answer when `answer` is set. */
static void check_exchange(struct gpu *g, ID3D12Resource *buf, const struct share_mode *m, int answer)
{
    unsigned char got[SHARE_CHUNK], want[SHARE_CHUNK];
    share_pattern(want, m->seed);
    if (gpu_readback(g, buf, 0, got, SHARE_CHUNK))
        CHECK_BYTES("the parent's pattern, read back in the parent", got, want, SHARE_CHUNK);
    if (answer) {
        share_answer(want, m->seed);
        if (gpu_readback(g, buf, SHARE_ANSWER_OFFSET, got, SHARE_CHUNK))
            CHECK_BYTES("the child's answer, read back in the parent", got, want, SHARE_CHUNK);
    }
}

static char g_exe[4096];

/* Starts this program again as "--child MODE ARG" and returns its pid (or -1). The `nkeep`
 * descriptors in `keep` are made inheritable for the exec only: each must be close-on-exec
 * before (checked), and is again in this process as soon as the child is forked. */
static pid_t spawn_child(const char *mode, const char *arg, const int *keep, int nkeep)
{
    for (int i = 0; i < nkeep; i++) {
        int fl = fcntl(keep[i], F_GETFD);
        CHECK(fl >= 0);
        /* A handle from CreateSharedHandle with NULL attributes is not inheritable (Windows:
         * bInheritHandle FALSE); on Linux, close-on-exec. */
        CHECK(fl >= 0 && (fl & FD_CLOEXEC));
        if (fl >= 0)
            CHECK(fcntl(keep[i], F_SETFD, fl & ~FD_CLOEXEC) == 0);
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        execl(g_exe, g_exe, "--child", mode, arg, (char *)NULL);
        _exit(127);
    }
    for (int i = 0; i < nkeep; i++)
        fcntl(keep[i], F_SETFD, FD_CLOEXEC);
    CHECK(pid > 0);
    return pid > 0 ? pid : -1;
}

/* Waits (at most `timeout_ms`; then SIGKILL) for a child from spawn_child and returns its exit
 * status, or -1 when it did not exit normally. */
static int reap_child(pid_t pid, int timeout_ms)
{
    if (pid <= 0)
        return -1;
    int status = 0;
    pid_t w;
    for (int waited = 0;; waited += 5) {
        w = waitpid(pid, &status, WNOHANG);
        if (w != 0 && !(w < 0 && errno == EINTR))
            break;
        if (waited >= timeout_ms) {
            printf("%s: child %d still running after %d ms, killed\n", g_name, (int)pid, timeout_ms);
            kill(pid, SIGKILL);
            do
                w = waitpid(pid, &status, 0);
            while (w < 0 && errno == EINTR);
            break;
        }
        struct timespec ts = {0, 5000000};
        nanosleep(&ts, NULL);
    }
    if (w != pid || !WIFEXITED(status))
        return -1;
    return WEXITSTATUS(status);
}

/* Runs this program again as "--child MODE ARG" and returns its exit status (or -1). The
 * descriptor `keep_fd` (if >= 0) is made inheritable first. */
static int run_child(const char *mode, const char *arg, int keep_fd)
{
    return reap_child(spawn_child(mode, arg, &keep_fd, keep_fd >= 0 ? 1 : 0), 120000);
}

/* One exchange with a child: `buf` is the parent's view of the shared buffer and `obj` the shared
 * object. The parent writes the pattern, shares `obj` (by descriptor, or under a name), runs the
 * child, and checks that the child's answer arrived and the pattern is intact. */
static void exchange(struct gpu *g, const struct share_mode *m, ID3D12DeviceChild *obj, ID3D12Resource *buf)
{
    unsigned char pattern[SHARE_CHUNK];
    share_pattern(pattern, m->seed);
    if (!gpu_upload(g, buf, 0, pattern, SHARE_CHUNK))
        return;
    HANDLE sh = NULL;
    wchar_t name[64];
    char arg[64];
    if (m->by_name) {
        snprintf(arg, sizeof(arg), "rd3d12-memory-c-%s-%d", m->mode, (int)getpid());
        swprintf(name, 64, L"%s", arg);
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, obj, NULL, GENERIC_ALL, name, &sh), S_OK);
    } else {
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, obj, NULL, GENERIC_ALL, NULL, &sh), S_OK);
    }
    int fd = handle_fd(sh);
    CHECK(fd > 2);
    if (fd <= 2)
        return;
    if (!m->by_name)
        snprintf(arg, sizeof(arg), "%d", fd);
    /* The child exits 0 only when it ran its checks and all of them passed. */
    CHECK_EQ(run_child(m->mode, arg, m->by_name ? -1 : fd), 0);
    close(fd);
    check_exchange(g, buf, m, 1);
}

static void test_shared(void)
{
    ULONG base = refcount(dev);
    ID3D12Heap *hd = NULL, *h2 = NULL;
    ID3D12Resource *r = NULL, *r2 = NULL, *buf = NULL, *sb = NULL;
    HANDLE sh = NULL;
    struct gpu g;

    ssize_t n = readlink("/proc/self/exe", g_exe, sizeof(g_exe) - 1);
    CHECK(n > 0);
    g_exe[n > 0 ? n : 0] = 0;

    /* shared-heaps.md (learn.microsoft.com, "Sharing heaps across processes"): "Shared heaps
     * are not supported on CPU-accessible heaps: D3D12_HEAP_TYPE_UPLOAD,
     * D3D12_HEAP_TYPE_READBACK, and D3D12_HEAP_TYPE_CUSTOM without
     * D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE." Documented, not measured: E_INVALIDARG. So data
     * crosses processes only through the GPU: copies to and from a shared DEFAULT buffer. */
    set_ctx("SHARED on CPU-accessible heaps (documented: not supported)");
    {
        ID3D12Heap *x;
        CHECK_FAILS(make_heap(SHARE_SIZE, D3D12_HEAP_TYPE_UPLOAD, 0, 0, 0, D3D12_HEAP_FLAG_SHARED, &x), x,
                    E_INVALIDARG);
        CHECK_FAILS(make_heap(SHARE_SIZE, D3D12_HEAP_TYPE_READBACK, 0, 0, 0, D3D12_HEAP_FLAG_SHARED, &x), x,
                    E_INVALIDARG);
        CHECK_FAILS(make_heap(SHARE_SIZE, D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE,
                              D3D12_MEMORY_POOL_L0, 0, D3D12_HEAP_FLAG_SHARED, &x),
                    x, E_INVALIDARG);
        CHECK_FAILS(make_wb_heap(SHARE_SIZE, D3D12_HEAP_FLAG_SHARED, &x), x, E_INVALIDARG);
        D3D12_RESOURCE_DESC bd = buf_desc(SHARE_SIZE);
        ID3D12Resource *y;
        CHECK_FAILS(committed(D3D12_HEAP_TYPE_UPLOAD, 0, 0, D3D12_HEAP_FLAG_SHARED, &bd,
                              D3D12_RESOURCE_STATE_GENERIC_READ, &y),
                    y, E_INVALIDARG);
        CHECK_FAILS(committed(D3D12_HEAP_TYPE_READBACK, 0, 0, D3D12_HEAP_FLAG_SHARED, &bd,
                              D3D12_RESOURCE_STATE_COPY_DEST, &y),
                    y, E_INVALIDARG);
        CHECK_FAILS(committed(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0,
                              D3D12_HEAP_FLAG_SHARED, &bd, D3D12_RESOURCE_STATE_COMMON, &y),
                    y, E_INVALIDARG);
    }

    set_ctx("shared handles: queue");
    int have_gpu = gpu_init(&g, 0);
    ULONG gbase = refcount(dev);

    /* The documented kind: a shared DEFAULT heap, opened in this process and in another one. */
    set_ctx("shared DEFAULT heap");
    CHECK_CREATED(make_heap(SHARE_SIZE, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, D3D12_HEAP_FLAG_SHARED, &hd), hd);
    CHECK_CREATED(make_heap(SHARE_SIZE, D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE,
                            D3D12_MEMORY_POOL_L0, 0, D3D12_HEAP_FLAG_SHARED, &h2),
                  h2);
    RELEASE0(h2);
    if (hd) {
        D3D12_RESOURCE_DESC bd = buf_desc(SHARE_SIZE);
        CHECK_CREATED(placed(hd, 0, &bd, D3D12_RESOURCE_STATE_COMMON, &sb), sb);
        /* A placed resource is not shareable by itself. */
        if (sb) {
            HANDLE x = SENTINEL;
            CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)sb, NULL, GENERIC_ALL, NULL, &x),
                     E_INVALIDARG);
        }
        const struct share_mode *m = share_mode("heap-fd");
        unsigned char pattern[SHARE_CHUNK];
        share_pattern(pattern, m->seed);
        if (have_gpu && sb)
            gpu_upload(&g, sb, 0, pattern, SHARE_CHUNK);
        sh = NULL;
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)hd, NULL, GENERIC_ALL, NULL, &sh), S_OK);
        int fd = handle_fd(sh);
        CHECK(fd > 2);
        if (fd > 2) {
            /* A second handle is another descriptor. */
            HANDLE sh2 = NULL;
            CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)hd, NULL, GENERIC_ALL, NULL, &sh2),
                     S_OK);
            CHECK(handle_fd(sh2) > 2 && handle_fd(sh2) != fd);
            if (handle_fd(sh2) > 2)
                close(handle_fd(sh2));
            /* Open in this process: a new heap object with the same description over the same
             * memory (the pattern reads back through a buffer placed on it). */
            CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, sh, &IID_ID3D12Heap, (void **)&h2), h2);
            if (h2) {
                CHECK(h2 != hd);
                D3D12_HEAP_DESC a = ID3D12Heap_GetDesc(hd), b = ID3D12Heap_GetDesc(h2);
                CHECK_EQ(b.SizeInBytes, a.SizeInBytes);
                CHECK_EQ(b.Properties.Type, D3D12_HEAP_TYPE_DEFAULT);
                CHECK_EQ(b.Alignment, a.Alignment);
                CHECK_EQ(b.Flags & D3D12_HEAP_FLAG_SHARED, D3D12_HEAP_FLAG_SHARED);
                CHECK_EQ(refcount(dev), gbase + 3);
                CHECK_CREATED(placed(h2, 0, &bd, D3D12_RESOURCE_STATE_COMMON, &buf), buf);
                if (buf) {
                    CHECK(ID3D12Resource_GetGPUVirtualAddress(buf) != 0);
                    if (have_gpu && sb)
                        check_exchange(&g, buf, m, 0);
                }
                RELEASE0(buf);
            }
            RELEASE0(h2);
            close(fd);
        }
        /* A fresh process with its own device: reads the pattern, writes its answer. */
        if (have_gpu && sb)
            exchange(&g, m, (ID3D12DeviceChild *)hd, sb);
    }

    /* A shared committed DEFAULT buffer opens as a resource with the same description. */
    set_ctx("shared committed resource");
    {
        D3D12_RESOURCE_DESC bd = buf_desc(SHARE_SIZE);
        CHECK_CREATED(committed(D3D12_HEAP_TYPE_DEFAULT, 0, 0, D3D12_HEAP_FLAG_SHARED, &bd, D3D12_RESOURCE_STATE_COMMON,
                                &r),
                      r);
        if (r) {
            const struct share_mode *m = share_mode("resource-fd");
            unsigned char pattern[SHARE_CHUNK];
            share_pattern(pattern, m->seed);
            if (have_gpu)
                gpu_upload(&g, r, 0, pattern, SHARE_CHUNK);
            D3D12_HEAP_FLAGS f = 0;
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, NULL, &f), S_OK);
            CHECK_EQ(f & D3D12_HEAP_FLAG_SHARED, D3D12_HEAP_FLAG_SHARED);
            sh = NULL;
            CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)r, NULL, GENERIC_ALL, NULL, &sh), S_OK);
            int fd = handle_fd(sh);
            CHECK(fd > 2);
            if (fd > 2) {
                CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, sh, &IID_ID3D12Resource, (void **)&r2), r2);
                if (r2) {
                    CHECK(r2 != r);
                    D3D12_RESOURCE_DESC a = ID3D12Resource_GetDesc(r), b = ID3D12Resource_GetDesc(r2);
                    CHECK(desc_equal(&a, &b));
                    CHECK(ID3D12Resource_GetGPUVirtualAddress(r2) != 0);
                    if (have_gpu)
                        check_exchange(&g, r2, m, 0);
                }
                RELEASE0(r2);
                close(fd);
            }
            if (have_gpu)
                exchange(&g, m, (ID3D12DeviceChild *)r, r);
            /* And under a name. */
            set_ctx("named shared committed resource");
            if (have_gpu)
                exchange(&g, share_mode("resource-name"), (ID3D12DeviceChild *)r, r);
        }
        RELEASE0(r);
    }

    /* Names: published per user; a taken name is refused; unknown names are not found. */
    set_ctx("named shared handles");
    if (hd) {
        wchar_t name[64], other[64];
        char narrow[64];
        snprintf(narrow, sizeof(narrow), "rd3d12-memory-c-%d", (int)getpid());
        swprintf(name, 64, L"%s", narrow);
        swprintf(other, 64, L"%s-missing", narrow);
        sh = NULL;
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)hd, NULL, GENERIC_ALL, name, &sh), S_OK);
        int fd = handle_fd(sh);
        CHECK(fd > 2);
        if (fd > 2) {
            /* CreateSharedHandle docs: "If Name matches the name of an existing resource,
             * CreateSharedHandle fails with DXGI_ERROR_NAME_ALREADY_EXISTS." */
            HANDLE again = NULL;
            HRESULT name_taken =
                ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)hd, NULL, GENERIC_ALL, name, &again);
            CHECK_HR(name_taken, DXGI_ERROR_NAME_ALREADY_EXISTS_);
            if (SUCCEEDED(name_taken) && handle_fd(again) > 2)
                close(handle_fd(again));
            HANDLE by = NULL;
            CHECK_HR(ID3D12Device_OpenSharedHandleByName(dev, other, GENERIC_ALL, &by), E_FILE_NOT_FOUND_);
            by = NULL;
            CHECK_HR(ID3D12Device_OpenSharedHandleByName(dev, name, GENERIC_ALL, &by), S_OK);
            if (handle_fd(by) > 2) {
                CHECK(handle_fd(by) != fd);
                CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, by, &IID_ID3D12Heap, (void **)&h2), h2);
                if (h2)
                    CHECK_EQ(ID3D12Heap_GetDesc(h2).SizeInBytes, SHARE_SIZE);
                RELEASE0(h2);
                close(handle_fd(by));
            }
            /* Once that handle is closed, its descriptor number may be reused for anything.
             * Here dup3 closes it and puts a handle to another shared heap (128 KB) at the same
             * number. The name must then be gone or still lead to this heap, never to the other
             * object. */
            ID3D12Heap *o = NULL;
            CHECK_CREATED(make_heap(2 * SHARE_SIZE, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, D3D12_HEAP_FLAG_SHARED, &o), o);
            HANDLE oh = NULL;
            if (o)
                CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)o, NULL, GENERIC_ALL, NULL, &oh),
                         S_OK);
            int ofd = handle_fd(oh);
            if (ofd > 2) {
                CHECK_EQ(dup3(ofd, fd, O_CLOEXEC), fd);
                close(ofd);
                by = NULL;
                HRESULT hr = ID3D12Device_OpenSharedHandleByName(dev, name, GENERIC_ALL, &by);
                UINT64 size = SHARE_SIZE;
                if (SUCCEEDED(hr) && handle_fd(by) > 2) {
                    CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, by, &IID_ID3D12Heap, (void **)&h2), h2);
                    if (h2)
                        size = ID3D12Heap_GetDesc(h2).SizeInBytes;
                    RELEASE0(h2);
                    close(handle_fd(by));
                }
                CHECK(hr == E_FILE_NOT_FOUND_ || hr == S_OK);
                CHECK_EQ(size, SHARE_SIZE);
            }
            close(fd);
            RELEASE0(o);
        }
        /* The other process finds the heap by name and exchanges data through it. */
        if (have_gpu && sb)
            exchange(&g, share_mode("heap-name"), (ID3D12DeviceChild *)hd, sb);
    }
    RELEASE0(sb);

    /* Invalid: objects that are not shareable, NULL pHandle, descriptors that are not ours. */
    set_ctx("shared handles: invalid");
    {
        ID3D12Heap *plain = NULL;
        CHECK_CREATED(make_heap(SHARE_SIZE, D3D12_HEAP_TYPE_DEFAULT, 0, 0, 0, 0, &plain), plain);
        if (plain) {
            HANDLE x = NULL;
            CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)plain, NULL, GENERIC_ALL, NULL, &x),
                     E_INVALIDARG);
        }
        RELEASE0(plain);
        D3D12_RESOURCE_DESC bd = buf_desc(SHARE_SIZE);
        CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_DEFAULT, &bd, D3D12_RESOURCE_STATE_COMMON, &r), r);
        if (r) {
            HANDLE x = NULL;
            CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)r, NULL, GENERIC_ALL, NULL, &x),
                     E_INVALIDARG);
        }
        RELEASE0(r);
        if (hd)
            CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)hd, NULL, GENERIC_ALL, NULL, NULL),
                     E_INVALIDARG);
        ID3D12Heap *x;
        CHECK_FAILS(ID3D12Device_OpenSharedHandle(dev, (HANDLE)(intptr_t)-1, &IID_ID3D12Heap, (void **)&x), x,
                    E_INVALIDARG);
        int closed = open("/dev/null", O_RDONLY | O_CLOEXEC);
        CHECK(closed >= 0);
        if (closed >= 0) {
            close(closed);
            CHECK_FAILS(ID3D12Device_OpenSharedHandle(dev, (HANDLE)(intptr_t)closed, &IID_ID3D12Heap, (void **)&x), x,
                        E_INVALIDARG);
        }
        int pfd[2];
        CHECK(pipe2(pfd, O_CLOEXEC) == 0);
        CHECK_FAILS(ID3D12Device_OpenSharedHandle(dev, (HANDLE)(intptr_t)pfd[0], &IID_ID3D12Heap, (void **)&x), x,
                    E_INVALIDARG);
        close(pfd[0]);
        close(pfd[1]);
    }
    RELEASE0(hd);
    if (have_gpu)
        gpu_release(&g);
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* The second process: a fresh device opens what the parent shared, checks the parent's pattern
 * byte for byte and writes its answer, both through copies on its own queue. The exit status is 0
 * when at least one check ran and none failed; otherwise the number of failed checks (at most
 * 120), or 121 when no check ran. A hung wait ends the process by SIGALRM. */
static int child_exit(void)
{
    g_ctx[0] = 0;
    printf("%s: %u passed, %u failed\n", g_name, g_passed, g_failed);
    fflush(stdout);
    if (g_failed)
        return g_failed > 120 ? 120 : (int)g_failed;
    return g_passed ? 0 : 121;
}

static int child_fence_main(const char *arg);

static int child_main(const char *mode, const char *arg)
{
    static char name_buf[96];
    snprintf(name_buf, sizeof(name_buf), "memory_c child (%s)", mode);
    g_name = name_buf;
    set_ctx("child %s", mode);
    alarm(60);
    if (strcmp(mode, "fence") == 0)
        return child_fence_main(arg);
    const struct share_mode *m = share_mode(mode);
    CHECK(m != NULL);
    if (!m)
        goto done;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev)
        goto done;
    CHECK_EQ(refcount(dev), 1);

    struct gpu g;
    /* The child waits through an eventfd, the parent with a NULL event. */
    int have_gpu = gpu_init(&g, 1);
    ULONG gbase = refcount(dev);

    HANDLE h = NULL;
    if (m->by_name) {
        wchar_t name[96];
        swprintf(name, 96, L"%s", arg);
        CHECK_HR(ID3D12Device_OpenSharedHandleByName(dev, name, GENERIC_ALL, &h), S_OK);
    } else {
        h = (HANDLE)(intptr_t)atoi(arg);
    }

    ID3D12Resource *r = NULL, *b = NULL;
    ID3D12Heap *heap = NULL;
    if (m->resource) {
        CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, h, &IID_ID3D12Resource, (void **)&r), r);
        if (r) {
            CHECK_EQ(refcount(dev), gbase + 1);
            D3D12_RESOURCE_DESC d = ID3D12Resource_GetDesc(r), want = buf_desc(SHARE_SIZE);
            want.Alignment = 65536;
            CHECK(desc_equal(&d, &want));
            D3D12_HEAP_PROPERTIES p;
            D3D12_HEAP_FLAGS f = 0;
            CHECK_HR(ID3D12Resource_GetHeapProperties(r, &p, &f), S_OK);
            CHECK_EQ(p.Type, D3D12_HEAP_TYPE_DEFAULT);
            CHECK_EQ(f & D3D12_HEAP_FLAG_SHARED, D3D12_HEAP_FLAG_SHARED);
            CHECK(ID3D12Resource_GetGPUVirtualAddress(r) != 0);
        }
    } else {
        CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, h, &IID_ID3D12Heap, (void **)&heap), heap);
        if (heap) {
            CHECK_EQ(refcount(dev), gbase + 1);
            D3D12_HEAP_DESC d = ID3D12Heap_GetDesc(heap);
            CHECK_EQ(d.SizeInBytes, SHARE_SIZE);
            CHECK_EQ(d.Alignment, 65536);
            CHECK_EQ(d.Properties.Type, D3D12_HEAP_TYPE_DEFAULT);
            CHECK_EQ(d.Flags & D3D12_HEAP_FLAG_SHARED, D3D12_HEAP_FLAG_SHARED);
            D3D12_RESOURCE_DESC bd = buf_desc(SHARE_SIZE);
            CHECK_CREATED(placed(heap, 0, &bd, D3D12_RESOURCE_STATE_COMMON, &b), b);
            if (b)
                CHECK(ID3D12Resource_GetGPUVirtualAddress(b) != 0);
        }
    }
    /* The handle is closed once opened (as CloseHandle after OpenSharedHandle): the object
     * keeps the memory. */
    if (handle_fd(h) > 2)
        close(handle_fd(h));

    ID3D12Resource *shared = m->resource ? r : b;
    if (have_gpu && shared) {
        unsigned char got[SHARE_CHUNK], want[SHARE_CHUNK];
        share_pattern(want, m->seed);
        if (gpu_readback(&g, shared, 0, got, SHARE_CHUNK))
            CHECK_BYTES("the parent's pattern, read back in the child", got, want, SHARE_CHUNK);
        share_answer(want, m->seed);
        gpu_upload(&g, shared, SHARE_ANSWER_OFFSET, want, SHARE_CHUNK);
    }
    RELEASE0(b);
    RELEASE0(r);
    RELEASE0(heap);
    if (have_gpu)
        gpu_release(&g);
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    dev = NULL;
done:
    return child_exit();
}

/* ---- 7b. shared fences across processes ----------------------------------------------------------- */

/* The seed of the fence exchange's pattern (the answer uses FENCE_SEED + 1, see share_answer). */
#define FENCE_SEED 91

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Waits up to `ms` for the eventfd `fd`: 1 when it fired (its counter must then read 1), else 0. */
static int event_fired(int fd, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    int n;
    do
        n = poll(&p, 1, ms);
    while (n < 0 && errno == EINTR);
    if (n != 1)
        return 0;
    uint64_t count = 0;
    CHECK_EQ(read(fd, &count, sizeof(count)), sizeof(count));
    CHECK_EQ(count, 1);
    return 1;
}

/* The child's one-byte progress messages, over a pipe: the byte read within `ms`, or 0 on a
 * timeout or EOF (the child is gone). */
static char pipe_get(int fd, int ms)
{
    struct pollfd p = {fd, POLLIN, 0};
    int n;
    do
        n = poll(&p, 1, ms);
    while (n < 0 && errno == EINTR);
    char c = 0;
    if (n != 1 || read(fd, &c, 1) != 1)
        c = 0;
    return c;
}

static void pipe_put(int fd, char c)
{
    CHECK_EQ(write(fd, &c, 1), 1);
}

/* ID3D12Fence1::GetCreationFlags (0xdead when the fence has no ID3D12Fence1). */
static UINT fence_flags(ID3D12Fence *f)
{
    ID3D12Fence1 *f1 = NULL;
    UINT flags = 0xdead;
    CHECK_HR(ID3D12Fence_QueryInterface(f, &IID_ID3D12Fence1, (void **)&f1), S_OK);
    if (f1) {
        flags = (UINT)ID3D12Fence1_GetCreationFlags(f1);
        ID3D12Fence1_Release(f1);
    }
    return flags;
}

/* Submits CopyBufferRegion(dst, dst_off, src, 0, n) behind a queue Wait(wait_fence, wait_value);
 * the queue signals signal_fence to signal_value after it. Nothing is waited for here. */
static int gpu_copy_gated(struct gpu *g, ID3D12Resource *dst, UINT64 dst_off, ID3D12Resource *src, UINT64 n,
                          ID3D12Fence *wait_fence, UINT64 wait_value, ID3D12Fence *signal_fence, UINT64 signal_value)
{
    CHECK_HR(ID3D12CommandAllocator_Reset(g->alloc), S_OK);
    HRESULT hr = ID3D12GraphicsCommandList_Reset(g->list, g->alloc, NULL);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr))
        return 0;
    ID3D12GraphicsCommandList_CopyBufferRegion(g->list, dst, dst_off, src, 0, n);
    hr = ID3D12GraphicsCommandList_Close(g->list);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr))
        return 0;
    CHECK_HR(ID3D12CommandQueue_Wait(g->queue, wait_fence, wait_value), S_OK);
    ID3D12CommandList *lists[1] = {(ID3D12CommandList *)g->list};
    ID3D12CommandQueue_ExecuteCommandLists(g->queue, 1, lists);
    CHECK_HR(ID3D12CommandQueue_Signal(g->queue, signal_fence, signal_value), S_OK);
    return 1;
}

/* A fence created with D3D12_FENCE_FLAG_SHARED: CreateSharedHandle gives a descriptor (and,
 * with a Name, publishes it); OpenSharedHandle opens the same fence, in this process or another,
 * and every signal (CPU or queue, up or down) is seen by all of them: GetCompletedValue,
 * SetEventOnCompletion with an eventfd or NULL, and ID3D12CommandQueue::Wait. */
static void test_shared_fence(void)
{
    ULONG base = refcount(dev);
    ID3D12Fence *f = NULL, *f2 = NULL, *plain = NULL;
    ID3D12Resource *sb = NULL;
    struct gpu g;
    if (!g_exe[0]) {
        ssize_t n = readlink("/proc/self/exe", g_exe, sizeof(g_exe) - 1);
        CHECK(n > 0);
        g_exe[n > 0 ? n : 0] = 0;
    }
    /* Every wait below is bounded; this catches a hang inside the runtime. */
    alarm(180);

    char narrow[64];
    wchar_t name[64];
    snprintf(narrow, sizeof(narrow), "rd3d12-memory-c-fence-%d", (int)getpid());
    swprintf(name, 64, L"%s", narrow);

    /* Only a fence created with SHARED has a shared handle (as for heaps without SHARED). */
    set_ctx("shared fence: fence without SHARED");
    CHECK_CREATED(ID3D12Device_CreateFence(dev, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, (void **)&plain), plain);
    if (plain) {
        HANDLE x = NULL;
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)plain, NULL, GENERIC_ALL, NULL, &x),
                 E_INVALIDARG);
        x = NULL;
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)plain, NULL, GENERIC_ALL, name, &x),
                 E_INVALIDARG);
        /* The failed call published nothing. */
        x = NULL;
        CHECK_HR(ID3D12Device_OpenSharedHandleByName(dev, name, GENERIC_ALL, &x), E_FILE_NOT_FOUND_);
        CHECK_EQ(fence_flags(plain), D3D12_FENCE_FLAG_NONE);
    }
    RELEASE0(plain);

    set_ctx("shared fence: queue");
    int have_gpu = gpu_init(&g, 0);
    ULONG gbase = refcount(dev);

    /* Two objects over one fence in this process. */
    set_ctx("shared fence: opened in this process");
    CHECK_CREATED(ID3D12Device_CreateFence(dev, 5, D3D12_FENCE_FLAG_SHARED, &IID_ID3D12Fence, (void **)&f), f);
    if (!f || !have_gpu)
        goto out;
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 5);
    CHECK_EQ(fence_flags(f), D3D12_FENCE_FLAG_SHARED);
    HANDLE fh = NULL;
    CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)f, NULL, GENERIC_ALL, NULL, &fh), S_OK);
    int ffd = handle_fd(fh);
    CHECK(ffd > 2);
    if (ffd <= 2)
        goto out;
    int ev = eventfd(0, EFD_CLOEXEC);
    CHECK(ev >= 0);
    if (ev < 0) {
        close(ffd);
        goto out;
    }
    CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, fh, &IID_ID3D12Fence, (void **)&f2), f2);
    if (f2) {
        CHECK(f2 != f);
        CHECK_EQ(refcount(dev), gbase + 2);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f2), 5);
        CHECK_EQ(fence_flags(f2), D3D12_FENCE_FLAG_SHARED);
        /* A CPU signal through one object reaches the other's value and its eventfd. */
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 7, (HANDLE)(intptr_t)ev), S_OK);
        CHECK_EQ(event_fired(ev, 0), 0);
        CHECK_HR(ID3D12Fence_Signal(f2, 7), S_OK);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 7);
        CHECK_EQ(event_fired(ev, 10000), 1);
        /* Down again, and straight away an event for one above the new value, registered
         * through the other object: it must wait (SetEventOnCompletion fires at once only for
         * a value already reached). Each round first brings both objects to 100 (the NULL wait
         * returns once `f` has seen it), then lowers the fence to 50 through `f2`. */
        unsigned wrong = 0, early = 0;
        for (int i = 0; i < 20; i++) {
            ID3D12Fence_Signal(f2, 100);
            ID3D12Fence_SetEventOnCompletion(f, 100, NULL);
            ID3D12Fence_Signal(f2, 50);
            wrong += ID3D12Fence_GetCompletedValue(f) != 50;
            ID3D12Fence_SetEventOnCompletion(f, 51, (HANDLE)(intptr_t)ev);
            if (event_fired(ev, 0)) {
                early++;
                continue;
            }
            ID3D12Fence_Signal(f2, 51);
            wrong += !event_fired(ev, 10000);
        }
        CHECK_EQ(wrong, 0);
        CHECK_EQ(early, 0);
        /* The same after a queue signal through `f` that `f2` has seen: the CPU lowers the
         * fence through `f` itself, and an event above the new value must wait. */
        unsigned early_q = 0;
        wrong = 0;
        for (int i = 0; i < 20; i++) {
            ID3D12CommandQueue_Signal(g.queue, f, 60);
            ID3D12Fence_SetEventOnCompletion(f2, 60, NULL);
            ID3D12Fence_Signal(f, 55);
            wrong += ID3D12Fence_GetCompletedValue(f2) != 55;
            ID3D12Fence_SetEventOnCompletion(f, 56, (HANDLE)(intptr_t)ev);
            if (event_fired(ev, 0)) {
                early_q++;
                continue;
            }
            ID3D12Fence_Signal(f, 56);
            wrong += !event_fired(ev, 10000);
        }
        CHECK_EQ(wrong, 0);
        CHECK_EQ(early_q, 0);
        /* Let the queue finish; back to 5. */
        CHECK_HR(ID3D12CommandQueue_Signal(g.queue, f, 57), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 57, NULL), S_OK);
        sleep_ms(100);
        CHECK_HR(ID3D12Fence_Signal(f2, 5), S_OK);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 5);
        /* A queue signal the other way. */
        CHECK_HR(ID3D12CommandQueue_Signal(g.queue, f, 6), S_OK);
        CHECK_HR(ID3D12Fence_SetEventOnCompletion(f2, 6, NULL), S_OK);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f2), 6);
        CHECK_HR(ID3D12Fence_Signal(f, 5), S_OK);
        CHECK_EQ(ID3D12Fence_GetCompletedValue(f2), 5);
        /* The descriptor opens a fence, nothing else. */
        ID3D12Heap *xh;
        CHECK_FAILS(ID3D12Device_OpenSharedHandle(dev, fh, &IID_ID3D12Heap, (void **)&xh), xh, E_NOINTERFACE);
    }
    RELEASE0(f2);

    /* The same fence under a name. */
    set_ctx("shared fence: by name");
    HANDLE nh = NULL;
    CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)f, NULL, GENERIC_ALL, name, &nh), S_OK);
    int nfd = handle_fd(nh);
    CHECK(nfd > 2 && nfd != ffd);
    if (nfd > 2) {
        HANDLE again = NULL;
        HRESULT hr = ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)f, NULL, GENERIC_ALL, name, &again);
        CHECK_HR(hr, DXGI_ERROR_NAME_ALREADY_EXISTS_);
        if (SUCCEEDED(hr) && handle_fd(again) > 2)
            close(handle_fd(again));
        HANDLE by = NULL;
        CHECK_HR(ID3D12Device_OpenSharedHandleByName(dev, name, GENERIC_ALL, &by), S_OK);
        if (handle_fd(by) > 2) {
            CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, by, &IID_ID3D12Fence, (void **)&f2), f2);
            close(handle_fd(by));
        }
        if (f2) {
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f2), 5);
            CHECK_EQ(fence_flags(f2), D3D12_FENCE_FLAG_SHARED);
            CHECK_HR(ID3D12Fence_Signal(f, 8), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f2), 8);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(f2, 8, NULL), S_OK);
            CHECK_HR(ID3D12Fence_Signal(f2, 5), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 5);
        }
        RELEASE0(f2);
    }

    /* With a second process: the child opens the fence by descriptor and by name and the shared
     * buffer by descriptor. Its progress comes back over a pipe: 'R' (opened, about to block in
     * SetEventOnCompletion(10, NULL)), 'W' (its copy is queued behind Wait(fence, 20)), 'D' (it
     * saw 30 and checked everything; it next waits for 40), 'L' (it lowered the fence to 3). */
    set_ctx("shared fence: with another process");
    {
        D3D12_RESOURCE_DESC bd = buf_desc(SHARE_SIZE);
        CHECK_CREATED(committed(D3D12_HEAP_TYPE_DEFAULT, 0, 0, D3D12_HEAP_FLAG_SHARED, &bd, D3D12_RESOURCE_STATE_COMMON,
                                &sb),
                      sb);
    }
    HANDLE bh = NULL;
    if (sb)
        CHECK_HR(ID3D12Device_CreateSharedHandle(dev, (ID3D12DeviceChild *)sb, NULL, GENERIC_ALL, NULL, &bh), S_OK);
    int bfd = handle_fd(bh);
    int pfd[2] = {-1, -1};
    CHECK(pipe2(pfd, O_CLOEXEC) == 0);
    if (bfd > 2 && nfd > 2 && pfd[0] >= 0) {
        ID3D12Fence *xf;
        CHECK_FAILS(ID3D12Device_OpenSharedHandle(dev, bh, &IID_ID3D12Fence, (void **)&xf), xf, E_NOINTERFACE);
        char arg[128];
        snprintf(arg, sizeof(arg), "%d:%d:%d:%s", ffd, bfd, pfd[1], narrow);
        int keep[3] = {ffd, bfd, pfd[1]};
        pid_t pid = spawn_child("fence", arg, keep, 3);
        close(pfd[1]);
        pfd[1] = -1;
        int ok = pid > 0;
        unsigned char got[SHARE_CHUNK], want[SHARE_CHUNK];
        if (ok) {
            char c = pipe_get(pfd[0], 20000);
            CHECK_EQ(c, 'R');
            ok = c == 'R';
        }
        /* The child blocks on 10; a queue writes the pattern and then signals 10. */
        if (ok) {
            sleep_ms(50);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 5);
            share_pattern(want, FENCE_SEED);
            ok = gpu_upload(&g, sb, 0, want, SHARE_CHUNK);
        }
        if (ok) {
            CHECK_HR(ID3D12CommandQueue_Signal(g.queue, f, 10), S_OK);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 10, NULL), S_OK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 10);
            char c = pipe_get(pfd[0], 20000);
            CHECK_EQ(c, 'W');
            ok = c == 'W';
        }
        /* The child's queue holds its copy and its Signal(30) until the fence reaches 20: nothing
         * moves until this process signals 20 from the CPU. */
        if (ok) {
            sleep_ms(100);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 10);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 30, (HANDLE)(intptr_t)ev), S_OK);
            CHECK_EQ(event_fired(ev, 0), 0);
            unsigned char zero[SHARE_CHUNK];
            memset(zero, 0, sizeof(zero));
            if (gpu_readback(&g, sb, SHARE_ANSWER_OFFSET, got, SHARE_CHUNK))
                CHECK_BYTES("the answer bytes while the child's queue waits for 20", got, zero, SHARE_CHUNK);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 10);
            CHECK_HR(ID3D12Fence_Signal(f, 20), S_OK);
            ok = event_fired(ev, 10000);
            CHECK(ok);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 30);
        }
        if (ok) {
            share_answer(want, FENCE_SEED);
            if (gpu_readback(&g, sb, SHARE_ANSWER_OFFSET, got, SHARE_CHUNK))
                CHECK_BYTES("the child's answer, after its queue signalled 30", got, want, SHARE_CHUNK);
            share_pattern(want, FENCE_SEED);
            if (gpu_readback(&g, sb, 0, got, SHARE_CHUNK))
                CHECK_BYTES("the pattern, after the exchange", got, want, SHARE_CHUNK);
            char c = pipe_get(pfd[0], 20000);
            CHECK_EQ(c, 'D');
            ok = c == 'D';
        }
        /* Values go down too: on 40 the child signals 3 from the CPU and says 'L'; this process
         * reads 3. After a pause (the same registration straight away is the in-process check
         * above), an event for 4 waits until this process signals 50. */
        if (ok) {
            CHECK_HR(ID3D12Fence_Signal(f, 40), S_OK);
            char c = pipe_get(pfd[0], 20000);
            CHECK_EQ(c, 'L');
            ok = c == 'L';
        }
        if (ok) {
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 3);
            sleep_ms(100);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 3);
            CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 4, (HANDLE)(intptr_t)ev), S_OK);
            int early = event_fired(ev, 20);
            CHECK_EQ(early, 0);
            CHECK_HR(ID3D12Fence_Signal(f, 50), S_OK);
            if (!early)
                CHECK_EQ(event_fired(ev, 10000), 1);
            CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 50);
        }
        /* A broken exchange: release whatever the child waits for. */
        if (!ok)
            ID3D12Fence_Signal(f, 1000);
        CHECK_EQ(reap_child(pid, 90000), 0);
    }
    if (pfd[0] >= 0)
        close(pfd[0]);
    if (pfd[1] >= 0)
        close(pfd[1]);
    if (bfd > 2)
        close(bfd);
    if (nfd > 2)
        close(nfd);
    close(ffd);
    close(ev);
out:
    RELEASE0(sb);
    RELEASE0(f);
    if (have_gpu)
        gpu_release(&g);
    CHECK_EQ(refcount(dev), base);
    alarm(0);
    g_ctx[0] = 0;
}

/* The second process of the fence exchange (ARG "FENCE_FD:BUFFER_FD:PIPE_FD:NAME"); see
 * test_shared_fence. Exit status as child_main. */
static int child_fence_main(const char *arg)
{
    int ffd = -1, bfd = -1, wfd = -1;
    char narrow[96] = "";
    CHECK_EQ(sscanf(arg, "%d:%d:%d:%95s", &ffd, &bfd, &wfd, narrow), 4);
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev)
        return child_exit();
    struct gpu g;
    int have_gpu = gpu_init(&g, 1);
    ULONG gbase = refcount(dev);
    ID3D12Fence *f = NULL, *fn = NULL;
    ID3D12Resource *r = NULL, *up = NULL;
    int ev = eventfd(0, EFD_CLOEXEC);
    CHECK(ev >= 0);

    /* The fence by descriptor and by name, the buffer by descriptor; handles closed once opened. */
    CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, (HANDLE)(intptr_t)ffd, &IID_ID3D12Fence, (void **)&f), f);
    CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, (HANDLE)(intptr_t)bfd, &IID_ID3D12Resource, (void **)&r), r);
    if (ffd > 2)
        close(ffd);
    if (bfd > 2)
        close(bfd);
    wchar_t name[96];
    swprintf(name, 96, L"%s", narrow);
    HANDLE h = NULL;
    CHECK_HR(ID3D12Device_OpenSharedHandleByName(dev, name, GENERIC_ALL, &h), S_OK);
    if (handle_fd(h) > 2) {
        CHECK_CREATED(ID3D12Device_OpenSharedHandle(dev, h, &IID_ID3D12Fence, (void **)&fn), fn);
        close(handle_fd(h));
    }
    CHECK_EQ(refcount(dev), gbase + 3);
    if (!(have_gpu && f && fn && r && ev >= 0 && wfd > 2))
        goto out;
    CHECK(f != fn);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 5);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(fn), 5);
    CHECK_EQ(fence_flags(f), D3D12_FENCE_FLAG_SHARED);
    CHECK_EQ(fence_flags(fn), D3D12_FENCE_FLAG_SHARED);

    /* Blocks until the parent's queue signals 10, after its copy of the pattern. */
    pipe_put(wfd, 'R');
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 10, NULL), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 10);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(fn), 10);
    unsigned char got[SHARE_CHUNK], want[SHARE_CHUNK];
    share_pattern(want, FENCE_SEED);
    if (gpu_readback(&g, r, 0, got, SHARE_CHUNK))
        CHECK_BYTES("the parent's pattern, read back in the child after 10", got, want, SHARE_CHUNK);

    /* The answer goes in behind a queue Wait(20) (the parent signals 20 from the CPU); the
     * queue then signals 30. */
    D3D12_RESOURCE_DESC bd = buf_desc(SHARE_CHUNK);
    CHECK_CREATED(committed_on(D3D12_HEAP_TYPE_UPLOAD, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, &up), up);
    unsigned char *m = map_buf(up);
    if (!m)
        goto out;
    share_answer(m, FENCE_SEED);
    ID3D12Resource_Unmap(up, 0, NULL);
    if (!gpu_copy_gated(&g, r, SHARE_ANSWER_OFFSET, up, SHARE_CHUNK, fn, 20, f, 30))
        goto out;
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fn, 30, (HANDLE)(intptr_t)ev), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 10);
    pipe_put(wfd, 'W');
    CHECK_EQ(event_fired(ev, 20000), 1);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 30);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(fn), 30);
    /* The queue's own fence: everything submitted is done. */
    gpu_wait(&g);
    RELEASE0(up);
    pipe_put(wfd, 'D');

    /* 40 from the parent; then down to 3 from here, which the parent waits to see; then 50. */
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(fn, 40, NULL), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(f), 40);
    CHECK_HR(ID3D12Fence_Signal(f, 3), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(fn), 3);
    pipe_put(wfd, 'L');
    CHECK_HR(ID3D12Fence_SetEventOnCompletion(f, 50, NULL), S_OK);
    CHECK_EQ(ID3D12Fence_GetCompletedValue(fn), 50);
out:
    if (wfd > 2)
        close(wfd);
    if (ev >= 0)
        close(ev);
    RELEASE0(up);
    RELEASE0(r);
    RELEASE0(fn);
    RELEASE0(f);
    if (have_gpu)
        gpu_release(&g);
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    dev = NULL;
    return child_exit();
}

/* ---- 8. reserved resources and tiling ------------------------------------------------------------ */

static HRESULT reserved(const D3D12_RESOURCE_DESC *d, ID3D12Resource **out)
{
    return ID3D12Device_CreateReservedResource(dev, d, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                               (void **)out);
}

static void test_reserved(void)
{
    ULONG base = refcount(dev);
    ID3D12Resource *r = NULL;
    UINT ntiles, nsub;
    D3D12_PACKED_MIP_INFO pm;
    D3D12_TILE_SHAPE shape;
    D3D12_SUBRESOURCE_TILING st[16];

    /* A buffer of 4 tiles. */
    set_ctx("reserved buffer");
    D3D12_RESOURCE_DESC bd = buf_desc(4 * 65536);
    CHECK_CREATED(reserved(&bd, &r), r);
    if (r) {
        CHECK_EQ(refcount(dev), base + 1);
        CHECK(ID3D12Resource_GetGPUVirtualAddress(r) != 0);
        D3D12_HEAP_PROPERTIES p;
        memset(&p, 0xcc, sizeof(p));
        D3D12_HEAP_FLAGS f = (D3D12_HEAP_FLAGS)0xdeadbeef;
        CHECK_HR(ID3D12Resource_GetHeapProperties(r, &p, &f), E_INVALIDARG);
        CHECK_EQ(f, 0xdeadbeef);
        CHECK_EQ(p.Type, 0xcccccccc);
        void *m = SENTINEL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &m), E_INVALIDARG);
        CHECK_PTR(m, SENTINEL);
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), E_INVALIDARG);
        ID3D12Resource_Unmap(r, 0, NULL);
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
        bd.Alignment = 65536;
        CHECK(desc_equal(&got, &bd));

        ntiles = 0;
        memset(&pm, 0xcc, sizeof(pm));
        memset(&shape, 0xcc, sizeof(shape));
        memset(st, 0xcc, sizeof(st));
        nsub = 16;
        ID3D12Device_GetResourceTiling(dev, (ID3D12Resource *)r, &ntiles, &pm, &shape, &nsub, 0, st);
        CHECK_EQ(ntiles, 4);
        CHECK_EQ(pm.NumStandardMips, 0);
        CHECK_EQ(pm.NumPackedMips, 0);
        CHECK_EQ(pm.NumTilesForPackedMips, 0);
        CHECK_EQ(shape.WidthInTexels, 65536);
        CHECK_EQ(shape.HeightInTexels, 1);
        CHECK_EQ(shape.DepthInTexels, 1);
        CHECK_EQ(nsub, 1);
        CHECK_EQ(st[0].WidthInTiles, 4);
        CHECK_EQ(st[0].StartTileIndexInOverallResource, 0);
        /* Everything NULL is a no-op. */
        ID3D12Device_GetResourceTiling(dev, r, NULL, NULL, NULL, NULL, 0, NULL);
    }
    RELEASE0(r);
    bd = buf_desc(1024);
    CHECK_CREATED(reserved(&bd, &r), r);
    if (r) {
        ntiles = 0;
        ID3D12Device_GetResourceTiling(dev, r, &ntiles, NULL, NULL, NULL, 0, NULL);
        CHECK_EQ(ntiles, 1);
    }
    RELEASE0(r);

    /* Invalid reserved buffers: a clear value, a non-ROW_MAJOR layout. */
    set_ctx("reserved buffer: invalid");
    {
        D3D12_CLEAR_VALUE cv;
        memset(&cv, 0, sizeof(cv));
        cv.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        bd = buf_desc(65536);
        CHECK_FAILS(ID3D12Device_CreateReservedResource(dev, &bd, D3D12_RESOURCE_STATE_COMMON, &cv, &IID_ID3D12Resource,
                                                        (void **)&r),
                    r, E_INVALIDARG);
        bd.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
        CHECK_FAILS(reserved(&bd, &r), r, E_INVALIDARG);
        bd.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
        CHECK_FAILS(reserved(&bd, &r), r, E_INVALIDARG);
        bd = buf_desc(65536);
        CHECK_HR(ID3D12Device_CreateReservedResource(dev, &bd, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                     NULL),
                 S_FALSE);
        CHECK_FAILS(ID3D12Device_CreateReservedResource(dev, NULL, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                        &IID_ID3D12Resource, (void **)&r),
                    r, E_INVALIDARG);
    }

    /* A 512x512 RGBA8 texture, one mip: 16 tiles of 128x128. */
    set_ctx("reserved texture 512x512x1");
    D3D12_RESOURCE_DESC td = tex_desc(512, 512, 1, 0, 0);
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    CHECK_CREATED(reserved(&td, &r), r);
    if (r) {
        CHECK_EQ(ID3D12Resource_GetGPUVirtualAddress(r), 0);
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(r);
        D3D12_RESOURCE_DESC want = td;
        want.Alignment = 65536;
        CHECK(desc_equal(&got, &want));
        void *m = SENTINEL;
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, &m), E_INVALIDARG);
        CHECK_HR(ID3D12Resource_Map(r, 0, NULL, NULL), E_INVALIDARG);
        CHECK_HR(ID3D12Resource_GetHeapProperties(r, NULL, NULL), E_INVALIDARG);
        ntiles = 0;
        memset(&pm, 0xcc, sizeof(pm));
        memset(&shape, 0xcc, sizeof(shape));
        memset(st, 0xcc, sizeof(st));
        nsub = 16;
        ID3D12Device_GetResourceTiling(dev, r, &ntiles, &pm, &shape, &nsub, 0, st);
        CHECK_EQ(ntiles, 16);
        CHECK_EQ(pm.NumStandardMips, 1);
        CHECK_EQ(pm.NumPackedMips, 0);
        CHECK_EQ(pm.NumTilesForPackedMips, 0);
        CHECK_EQ(shape.WidthInTexels, 128);
        CHECK_EQ(shape.HeightInTexels, 128);
        CHECK_EQ(shape.DepthInTexels, 1);
        CHECK_EQ(nsub, 1);
        CHECK_EQ(st[0].WidthInTiles, 4);
        CHECK_EQ(st[0].HeightInTiles, 4);
        CHECK_EQ(st[0].DepthInTiles, 1);
        CHECK_EQ(st[0].StartTileIndexInOverallResource, 0);
        CHECK_EQ(st[1].WidthInTiles, 0xcccccccc); /* beyond the count: untouched */
    }
    RELEASE0(r);

    /* 10 mips: standard mips 16 + 4 + 1 tiles, then the packed tail. */
    set_ctx("reserved texture 512x512, 10 mips");
    td.MipLevels = 10;
    CHECK_CREATED(reserved(&td, &r), r);
    if (r) {
        ntiles = 0;
        memset(&pm, 0xcc, sizeof(pm));
        memset(st, 0xcc, sizeof(st));
        nsub = 16;
        ID3D12Device_GetResourceTiling(dev, r, &ntiles, &pm, NULL, &nsub, 0, st);
        CHECK(pm.NumStandardMips >= 3);
        CHECK_EQ(pm.NumPackedMips, 10 - pm.NumStandardMips);
        CHECK_EQ(nsub, 10);
        CHECK_EQ(st[0].WidthInTiles, 4);
        CHECK_EQ(st[0].StartTileIndexInOverallResource, 0);
        CHECK_EQ(st[1].WidthInTiles, 2);
        CHECK_EQ(st[1].HeightInTiles, 2);
        CHECK_EQ(st[1].StartTileIndexInOverallResource, 16);
        CHECK_EQ(st[2].WidthInTiles, 1);
        CHECK_EQ(st[2].StartTileIndexInOverallResource, 20);
        if (pm.NumStandardMips == 3) {
            CHECK(pm.NumTilesForPackedMips >= 1);
            CHECK_EQ(pm.StartTileIndexInOverallResource, 21);
            CHECK_EQ(ntiles, 21 + pm.NumTilesForPackedMips);
            CHECK_EQ(st[3].WidthInTiles, 0);
            CHECK_EQ(st[3].HeightInTiles, 0);
            CHECK_EQ(st[3].DepthInTiles, 0);
            CHECK_EQ(st[3].StartTileIndexInOverallResource, D3D12_PACKED_TILE);
        }
        /* pNumSubresourceTilings is in/out: First past the end → 0; First 2 → 8; capacity 1 →
         * exactly one entry written. */
        nsub = 16;
        ID3D12Device_GetResourceTiling(dev, r, NULL, NULL, NULL, &nsub, 10, st);
        CHECK_EQ(nsub, 0);
        nsub = 64;
        D3D12_SUBRESOURCE_TILING many[64];
        ID3D12Device_GetResourceTiling(dev, r, NULL, NULL, NULL, &nsub, 2, many);
        CHECK_EQ(nsub, 8);
        CHECK_EQ(many[0].StartTileIndexInOverallResource, 20);
        memset(st, 0xcc, sizeof(st));
        nsub = 1;
        ID3D12Device_GetResourceTiling(dev, r, NULL, NULL, NULL, &nsub, 1, st);
        CHECK_EQ(nsub, 1);
        CHECK_EQ(st[0].StartTileIndexInOverallResource, 16);
        CHECK_EQ(st[1].WidthInTiles, 0xcccccccc);
    }
    RELEASE0(r);

    /* An array of 4 with 3 mips: 21 tiles per slice, 12 subresource tilings. */
    set_ctx("reserved texture array");
    td.MipLevels = 3;
    td.DepthOrArraySize = 4;
    CHECK_CREATED(reserved(&td, &r), r);
    if (r) {
        ntiles = 0;
        nsub = 16;
        memset(st, 0xcc, sizeof(st));
        ID3D12Device_GetResourceTiling(dev, r, &ntiles, NULL, NULL, &nsub, 0, st);
        CHECK_EQ(ntiles, 84);
        CHECK_EQ(nsub, 12);
        CHECK_EQ(st[3].StartTileIndexInOverallResource, 21);
        CHECK_EQ(st[11].StartTileIndexInOverallResource, 83);
    }
    RELEASE0(r);

    /* Fully packed: 64x64, one mip. */
    set_ctx("reserved texture 64x64");
    td = tex_desc(64, 64, 1, 0, 0);
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    CHECK_CREATED(reserved(&td, &r), r);
    if (r) {
        ntiles = 0;
        memset(&pm, 0xcc, sizeof(pm));
        ID3D12Device_GetResourceTiling(dev, r, &ntiles, &pm, NULL, NULL, 0, NULL);
        CHECK_EQ(ntiles, 1);
        CHECK_EQ(pm.NumStandardMips, 0);
        CHECK_EQ(pm.NumPackedMips, 1);
        CHECK_EQ(pm.NumTilesForPackedMips, 1);
        CHECK_EQ(pm.StartTileIndexInOverallResource, 0);
    }
    RELEASE0(r);

    /* 3D (tier 3): RGBA32F 64^3 with 3 mips: 4x4x4 + 2x2x2 + 1 tiles of 16^3. */
    set_ctx("reserved 3D texture");
    td = tex_desc(64, 64, 3, 0, 0);
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    td.DepthOrArraySize = 64;
    td.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    CHECK_CREATED(reserved(&td, &r), r);
    if (r) {
        ntiles = 0;
        memset(&shape, 0xcc, sizeof(shape));
        ID3D12Device_GetResourceTiling(dev, r, &ntiles, NULL, &shape, NULL, 0, NULL);
        CHECK_EQ(ntiles, 73);
        CHECK_EQ(shape.WidthInTexels, 16);
        CHECK_EQ(shape.HeightInTexels, 16);
        CHECK_EQ(shape.DepthInTexels, 16);
    }
    RELEASE0(r);

    /* Invalid reserved textures: Layout UNKNOWN, ROW_MAJOR, 1D. */
    set_ctx("reserved texture: invalid");
    td = tex_desc(512, 512, 1, 0, 0);
    CHECK_FAILS(reserved(&td, &r), r, E_INVALIDARG);
    td.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    CHECK_FAILS(reserved(&td, &r), r, E_INVALIDARG);
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE1D;
    td.Height = 1;
    CHECK_FAILS(reserved(&td, &r), r, E_INVALIDARG);

    /* CreateReservedResource1 without a protected session. */
    set_ctx("CreateReservedResource1");
    {
        ID3D12Device4 *d4 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device4, (void **)&d4), S_OK);
        if (d4) {
            bd = buf_desc(65536);
            CHECK_CREATED(ID3D12Device4_CreateReservedResource1(d4, &bd, D3D12_RESOURCE_STATE_COMMON, NULL, NULL,
                                                                &IID_ID3D12Resource, (void **)&r),
                          r);
            RELEASE0(r);
            ID3D12Device4_Release(d4);
        }
    }
    CHECK_EQ(refcount(dev), base);
    g_ctx[0] = 0;
}

/* ---- main -------------------------------------------------------------------------------------- */

int main(int argc, char **argv)
{
    if (argc == 4 && strcmp(argv[1], "--child") == 0)
        return child_main(argv[2], argv[3]);
    if (argc != 1) {
        fprintf(stderr, "usage: %s (no arguments)\n", argv[0]);
        return 2;
    }

    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    if (dev) {
        CHECK_EQ(refcount(dev), 1);
        test_adapter();
        test_heaps();
        test_committed();
        test_placed();
        test_seed();
        test_map();
        test_gpu_va();
        test_residency();
        test_shared();
        test_shared_fence();
        test_reserved();
        CHECK_EQ(refcount(dev), 1);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }

    printf("%s: %u passed, %u failed\n", g_name, g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
