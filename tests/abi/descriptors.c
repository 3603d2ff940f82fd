/* tests/abi/descriptors.c - ABI test of descriptor heaps, views and descriptor copies in
 * libd3d12.so, written the way a C program compiled against Microsoft's DirectX-Headers calls
 * the runtime: CINTERFACE + COBJMACROS, IIDs from libDirectX-Guids.a.
 *
 * Covers CreateDescriptorHeap (every rule of shared/spec/descriptors-and-binding.md §2),
 * ID3D12DescriptorHeap (GetDesc, handle starts by value), GetDescriptorHandleIncrementSize,
 * handle arithmetic, every view creator with valid and invalid descs, CreateSampler(2), the
 * sampler-feedback UAV, CopyDescriptors / CopyDescriptorsSimple range semantics (§4) and
 * residency of descriptor heaps.
 *
 * Views return void, so their effect is observed through the descriptors themselves. This
 * relies on rd3d12's documented representation: a CPU handle is the host address of an
 * `increment`-byte, position-independent record (copies are byte copies). So: a view from an
 * invalid desc must equal the null descriptor of its kind byte for byte; a NULL desc must
 * equal the explicit desc it stands for; copies must reproduce the source bytes; a call that
 * must write nothing must leave the bytes alone.
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -pthread -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/descriptors.c \
 *       -o $OUT/descriptors_c -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * Every check prints one line when it fails (file:line, what, got vs expected); the last line is
 * "descriptors_c: N passed, M failed" and the exit status is 0 only when M is 0. */
#define _GNU_SOURCE
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the check counter: check.h, plus this file's own checks ---------------------------- */

#include "check.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static ID3D12Device *dev;
/* The increment of each heap type, read once (they are constant for a device). */
static UINT inc[4];

static D3D12_DESCRIPTOR_HEAP_DESC hdesc(D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n, D3D12_DESCRIPTOR_HEAP_FLAGS flags,
                                        UINT mask)
{
    D3D12_DESCRIPTOR_HEAP_DESC d;
    memset(&d, 0, sizeof(d));
    d.Type = type;
    d.NumDescriptors = n;
    d.Flags = flags;
    d.NodeMask = mask;
    return d;
}

static HRESULT make_heap(D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n, D3D12_DESCRIPTOR_HEAP_FLAGS flags,
                         ID3D12DescriptorHeap **out)
{
    D3D12_DESCRIPTOR_HEAP_DESC d = hdesc(type, n, flags, 0);
    return ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)out);
}

/* CPU handle of descriptor i of a heap. */
static D3D12_CPU_DESCRIPTOR_HANDLE at(ID3D12DescriptorHeap *h, UINT i)
{
    D3D12_DESCRIPTOR_HEAP_DESC d = ID3D12DescriptorHeap_GetDesc(h);
    D3D12_CPU_DESCRIPTOR_HANDLE s = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h);
    s.ptr += (SIZE_T)i * inc[d.Type];
    return s;
}

/* The bytes of one descriptor (rd3d12: a handle is the address of its record). */
typedef struct {
    unsigned char b[256];
} rec;

static UINT g_inc; /* increment of the heap type under test */

static rec snap(D3D12_CPU_DESCRIPTOR_HANDLE h)
{
    rec r;
    memset(&r, 0, sizeof(r));
    memcpy(r.b, (const void *)h.ptr, g_inc);
    return r;
}

static int same(D3D12_CPU_DESCRIPTOR_HANDLE a, D3D12_CPU_DESCRIPTOR_HANDLE b)
{
    return memcmp((const void *)a.ptr, (const void *)b.ptr, g_inc) == 0;
}

static int same_rec(D3D12_CPU_DESCRIPTOR_HANDLE a, const rec *r)
{
    return memcmp((const void *)a.ptr, r->b, g_inc) == 0;
}

static void fill(D3D12_CPU_DESCRIPTOR_HANDLE h, unsigned char v)
{
    memset((void *)h.ptr, v, g_inc);
}

static D3D12_RESOURCE_DESC rdesc(D3D12_RESOURCE_DIMENSION dim, UINT64 w, UINT h, UINT16 depth, UINT16 mips,
                                 DXGI_FORMAT fmt, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = dim;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = depth;
    d.MipLevels = mips;
    d.Format = fmt;
    d.SampleDesc.Count = 1;
    d.Layout = dim == D3D12_RESOURCE_DIMENSION_BUFFER ? D3D12_TEXTURE_LAYOUT_ROW_MAJOR : D3D12_TEXTURE_LAYOUT_UNKNOWN;
    d.Flags = flags;
    return d;
}

static ID3D12Resource *make_res(D3D12_RESOURCE_DIMENSION dim, UINT64 w, UINT h, UINT16 depth, UINT16 mips,
                                DXGI_FORMAT fmt, D3D12_RESOURCE_FLAGS flags)
{
    D3D12_RESOURCE_DESC d = rdesc(dim, w, h, depth, mips, fmt, flags);
    D3D12_HEAP_PROPERTIES p;
    ID3D12Resource *r = NULL;
    D3D12_RESOURCE_STATES s = D3D12_RESOURCE_STATE_COMMON;
    memset(&p, 0, sizeof(p));
    p.Type = D3D12_HEAP_TYPE_DEFAULT;
    if (flags & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)
        s = D3D12_RESOURCE_STATE_DEPTH_WRITE;
    else if (flags & D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET)
        s = D3D12_RESOURCE_STATE_RENDER_TARGET;
    CHECK_CREATED(ID3D12Device_CreateCommittedResource(dev, &p, D3D12_HEAP_FLAG_NONE, &d, s, NULL,
                                                       &IID_ID3D12Resource, (void **)&r), r);
    return r;
}

static ID3D12Resource *make_tex2d(UINT w, UINT h, UINT16 arr, UINT16 mips, DXGI_FORMAT fmt, D3D12_RESOURCE_FLAGS f)
{
    return make_res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, arr, mips, fmt, f);
}

static ID3D12Resource *make_buffer(UINT64 w, D3D12_RESOURCE_FLAGS f)
{
    return make_res(D3D12_RESOURCE_DIMENSION_BUFFER, w, 1, 1, 1, DXGI_FORMAT_UNKNOWN, f);
}

static D3D12_SHADER_RESOURCE_VIEW_DESC srv_2d(DXGI_FORMAT fmt, UINT mip, UINT levels)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC d;
    memset(&d, 0, sizeof(d));
    d.Format = fmt;
    d.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2D;
    d.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    d.Texture2D.MostDetailedMip = mip;
    d.Texture2D.MipLevels = levels;
    return d;
}

static D3D12_SHADER_RESOURCE_VIEW_DESC srv_buf(DXGI_FORMAT fmt, UINT64 first, UINT n, UINT stride,
                                               D3D12_BUFFER_SRV_FLAGS flags)
{
    D3D12_SHADER_RESOURCE_VIEW_DESC d;
    memset(&d, 0, sizeof(d));
    d.Format = fmt;
    d.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    d.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    d.Buffer.FirstElement = first;
    d.Buffer.NumElements = n;
    d.Buffer.StructureByteStride = stride;
    d.Buffer.Flags = flags;
    return d;
}

static D3D12_UNORDERED_ACCESS_VIEW_DESC uav_buf(DXGI_FORMAT fmt, UINT n, UINT stride, UINT64 counter_offset,
                                                D3D12_BUFFER_UAV_FLAGS flags)
{
    D3D12_UNORDERED_ACCESS_VIEW_DESC d;
    memset(&d, 0, sizeof(d));
    d.Format = fmt;
    d.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    d.Buffer.NumElements = n;
    d.Buffer.StructureByteStride = stride;
    d.Buffer.CounterOffsetInBytes = counter_offset;
    d.Buffer.Flags = flags;
    return d;
}

static D3D12_SAMPLER_DESC sampler_desc(D3D12_FILTER filter, float bias)
{
    D3D12_SAMPLER_DESC s;
    memset(&s, 0, sizeof(s));
    s.Filter = filter;
    s.AddressU = D3D12_TEXTURE_ADDRESS_MODE_WRAP;
    s.AddressV = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    s.AddressW = D3D12_TEXTURE_ADDRESS_MODE_BORDER;
    s.MipLODBias = bias;
    s.MaxAnisotropy = 1;
    s.BorderColor[3] = 1.0f;
    s.MaxLOD = D3D12_FLOAT32_MAX;
    return s;
}

/* ---- 1. heaps ------------------------------------------------------------------------------ */

static void test_increments(void)
{
    set_ctx("increments");
    for (int t = 0; t < 4; t++) {
        inc[t] = ID3D12Device_GetDescriptorHandleIncrementSize(dev, (D3D12_DESCRIPTOR_HEAP_TYPE)t);
        /* rd3d12's choice: one 64-byte record for every type; any power of two would do. */
        CHECK_EQ(inc[t], 64);
        CHECK((inc[t] & (inc[t] - 1)) == 0);
        CHECK_EQ(ID3D12Device_GetDescriptorHandleIncrementSize(dev, (D3D12_DESCRIPTOR_HEAP_TYPE)t), inc[t]);
    }
    /* Unknown types: 0 (a peer implementation; native UNSPECIFIED). */
    CHECK_EQ(ID3D12Device_GetDescriptorHandleIncrementSize(dev, D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES), 0);
    CHECK_EQ(ID3D12Device_GetDescriptorHandleIncrementSize(dev, (D3D12_DESCRIPTOR_HEAP_TYPE)0x7fffffff), 0);
    g_ctx[0] = 0;
}

static void test_heap_matrix(void)
{
    static const D3D12_DESCRIPTOR_HEAP_TYPE types[] = {
        D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER,
        D3D12_DESCRIPTOR_HEAP_TYPE_RTV, D3D12_DESCRIPTOR_HEAP_TYPE_DSV};
    ID3D12DescriptorHeap *h;
    D3D12_DESCRIPTOR_HEAP_DESC d;

    for (unsigned i = 0; i < 4; i++) {
        D3D12_DESCRIPTOR_HEAP_TYPE t = types[i];
        int can_be_visible = t == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV || t == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER;
        set_ctx("type %d", (int)t);

        /* NONE: any type, NodeMask 0 reads back as 1. */
        d = hdesc(t, 5, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0);
        CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
        if (h) {
            D3D12_DESCRIPTOR_HEAP_DESC got = ID3D12DescriptorHeap_GetDesc(h);
            CHECK_EQ(got.Type, t);
            CHECK_EQ(got.NumDescriptors, 5);
            CHECK_EQ(got.Flags, D3D12_DESCRIPTOR_HEAP_FLAG_NONE);
            CHECK_EQ(got.NodeMask, 1);
            CHECK(ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h).ptr != 0);
            /* Not shader visible: no GPU handle (docs; debug #1315). */
            CHECK_EQ(ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(h).ptr, 0);
            RELEASE0(h);
        }
        /* NodeMask 1 is the one node; 2 names a node that does not exist. */
        d = hdesc(t, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 1);
        CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
        RELEASE0(h);
        d = hdesc(t, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 2);
        CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h,
                    E_INVALIDARG);
        /* NumDescriptors 0 (UNSPECIFIED natively; REC E_INVALIDARG). */
        d = hdesc(t, 0, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0);
        CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h,
                    E_INVALIDARG);
        /* Unknown flag bits. */
        d = hdesc(t, 1, (D3D12_DESCRIPTOR_HEAP_FLAGS)2, 0);
        CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h,
                    E_INVALIDARG);
        /* SHADER_VISIBLE: CBV_SRV_UAV and SAMPLER only. */
        d = hdesc(t, 3, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0);
        if (can_be_visible) {
            CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
            if (h) {
                CHECK_EQ(ID3D12DescriptorHeap_GetDesc(h).Flags, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE);
                CHECK(ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(h).ptr != 0);
            }
            RELEASE0(h);
        } else {
            CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h,
                        E_INVALIDARG);
        }
    }
    set_ctx("heap limits");
    /* Unknown types. */
    d = hdesc(D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0);
    CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h, E_INVALIDARG);
    d = hdesc((D3D12_DESCRIPTOR_HEAP_TYPE)-1, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0);
    CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h, E_INVALIDARG);
    /* Shader-visible limits: 1,000,000 views, 2048 samplers (#1013 above them). */
    d = hdesc(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2048, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0);
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
    RELEASE0(h);
    d.NumDescriptors = 2049;
    CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h, E_INVALIDARG);
    d.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_NONE; /* no limit when not shader visible */
    d.NumDescriptors = 4096;
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
    RELEASE0(h);
    d = hdesc(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1000000, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0);
    if (!under_valgrind()) {
        CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
        RELEASE0(h);
    }
    d.NumDescriptors = 1000001;
    CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h, E_INVALIDARG);
    /* Non-shader-visible heaps have no limit but memory: 2^32 - 1 records of 64 bytes are 256 GiB,
     * more than this machine has. */
    {
        long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
        d = hdesc(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 0xffffffffu, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0);
        if (pages > 0 && page > 0 && (double)pages * (double)page < 0xffffffffu * (double)inc[0])
            CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h,
                        E_OUTOFMEMORY);
    }
    /* NULL desc. */
    CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, NULL, &IID_ID3D12DescriptorHeap, (void **)&h), h, E_INVALIDARG);
    g_ctx[0] = 0;
}

static void test_heap_object(void)
{
    ID3D12DescriptorHeap *h = NULL, *v = NULL, *v2 = NULL;
    D3D12_DESCRIPTOR_HEAP_DESC d = hdesc(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0);
    ULONG dev_refs = refcount(dev);
    void *p = NULL;

    set_ctx("heap object");
    /* ppv NULL: S_FALSE, nothing kept. */
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, NULL), S_FALSE);
    CHECK_EQ(refcount(dev), dev_refs);
    /* An interface outside the chain. */
    CHECK_FAILS(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12Heap, (void **)&p), p, E_NOINTERFACE);
    CHECK_EQ(refcount(dev), dev_refs);

    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&h), h);
    if (!h)
        return;
    /* Device refcount +1 per heap. */
    CHECK_EQ(refcount(dev), dev_refs + 1);
    CHECK_EQ(refcount(h), 1);
    static const GUID *const iids[] = {&IID_IUnknown, &IID_ID3D12Object, &IID_ID3D12DeviceChild,
                                       &IID_ID3D12Pageable, &IID_ID3D12DescriptorHeap};
    for (unsigned i = 0; i < sizeof(iids) / sizeof(iids[0]); i++) {
        p = NULL;
        CHECK_HR(ID3D12DescriptorHeap_QueryInterface(h, iids[i], &p), S_OK);
        CHECK_PTR(p, h);
        if (p)
            IUnknown_Release((IUnknown *)p);
    }
    p = SENTINEL;
    CHECK_HR(ID3D12DescriptorHeap_QueryInterface(h, &IID_ID3D12Resource, &p), E_NOINTERFACE);
    CHECK_PTR(p, NULL);
    p = NULL;
    CHECK_HR(ID3D12DescriptorHeap_GetDevice(h, &IID_ID3D12Device, &p), S_OK);
    CHECK_PTR(p, dev);
    if (p)
        ID3D12Device_Release((ID3D12Device *)p);

    /* GetDesc by value, twice the same; the CPU start is stable and handles step by the
     * increment. */
    D3D12_DESCRIPTOR_HEAP_DESC g1 = ID3D12DescriptorHeap_GetDesc(h), g2 = ID3D12DescriptorHeap_GetDesc(h);
    CHECK(memcmp(&g1, &g2, sizeof(g1)) == 0);
    CHECK_EQ(g1.NumDescriptors, 8);
    D3D12_CPU_DESCRIPTOR_HANDLE c0 = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h);
    CHECK_EQ(ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(h).ptr, c0.ptr);
    CHECK_EQ(at(h, 7).ptr - c0.ptr, 7 * (SIZE_T)inc[0]);

    /* Shader-visible heaps: GPU handles of different heaps do not overlap. */
    d.Flags = D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE;
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&v), v);
    CHECK_CREATED(ID3D12Device_CreateDescriptorHeap(dev, &d, &IID_ID3D12DescriptorHeap, (void **)&v2), v2);
    if (v && v2) {
        UINT64 a = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(v).ptr;
        UINT64 b = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(v2).ptr;
        UINT64 len = 8 * (UINT64)inc[0];
        CHECK(a != 0 && b != 0);
        CHECK(a + len <= b || b + len <= a);
        CHECK_EQ(refcount(dev), dev_refs + 3);
    }

    /* Descriptor heaps are pageable: MakeResident / Evict count them. */
    ID3D12Pageable *pg[2] = {(ID3D12Pageable *)h, (ID3D12Pageable *)v};
    CHECK_HR(ID3D12Device_Evict(dev, 2, pg), S_OK);
    CHECK_HR(ID3D12Device_MakeResident(dev, 2, pg), S_OK);
    CHECK_HR(ID3D12Device_MakeResident(dev, 1, pg), S_OK);
    CHECK_HR(ID3D12Device_Evict(dev, 1, pg), S_OK);

    RELEASE0(v2);
    RELEASE0(v);
    RELEASE0(h);
    CHECK_EQ(refcount(dev), dev_refs);
    g_ctx[0] = 0;
}

/* ---- 2. views ------------------------------------------------------------------------------ */

/* Slots of the view heap used below. */
enum {
    NULL_SRV, NULL_UAV, NULL_CBV, SCRATCH, A, B, C, D_, E, F, G, VIEW_SLOTS = 64
};

static void test_srvs(ID3D12DescriptorHeap *h)
{
    ID3D12Resource *tex = make_tex2d(64, 64, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *arr = make_tex2d(32, 32, 6, 2, DXGI_FORMAT_R16G16B16A16_FLOAT, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *tl = make_tex2d(16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_TYPELESS, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *ds = make_tex2d(16, 16, 1, 1, DXGI_FORMAT_R24G8_TYPELESS, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    ID3D12Resource *buf = make_buffer(1024, D3D12_RESOURCE_FLAG_NONE);
    D3D12_SHADER_RESOURCE_VIEW_DESC sd;
    rec before;

    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV];
    if (!tex || !arr || !tl || !ds || !buf)
        goto out;

    set_ctx("SRV");
    /* The null SRV (NULL resource, a desc for its dimension). */
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    ID3D12Device_CreateShaderResourceView(dev, NULL, &sd, at(h, NULL_SRV));
    /* A valid view is not null, and the same desc gives the same bytes wherever it lands. */
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, A));
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, B));
    CHECK(!same(at(h, A), at(h, NULL_SRV)));
    CHECK(same(at(h, A), at(h, B)));
    /* A different mip range is a different descriptor. */
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 2);
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, B));
    CHECK(!same(at(h, A), at(h, B)));
    /* NULL desc = the explicit full view: same format, TEXTURE2D, all mips (-1), default mapping. */
    ID3D12Device_CreateShaderResourceView(dev, tex, NULL, at(h, C));
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, (UINT)-1);
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, D_));
    CHECK(same(at(h, C), at(h, D_)));
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 7); /* 64x64: 7 mips */
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, E));
    CHECK(same(at(h, C), at(h, E)));
    /* Format UNKNOWN in a desc inherits the resource's. */
    sd = srv_2d(DXGI_FORMAT_UNKNOWN, 0, 7);
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, E));
    CHECK(same(at(h, C), at(h, E)));
    /* Arrays: NULL desc = TEXTURE2DARRAY of every slice and mip. */
    ID3D12Device_CreateShaderResourceView(dev, arr, NULL, at(h, C));
    memset(&sd, 0, sizeof(sd));
    sd.Format = DXGI_FORMAT_R16G16B16A16_FLOAT;
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DARRAY;
    sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    sd.Texture2DArray.MipLevels = (UINT)-1;
    sd.Texture2DArray.ArraySize = (UINT)-1;
    ID3D12Device_CreateShaderResourceView(dev, arr, &sd, at(h, D_));
    CHECK(same(at(h, C), at(h, D_)));
    sd.Texture2DArray.MipLevels = 2;
    sd.Texture2DArray.ArraySize = 6;
    ID3D12Device_CreateShaderResourceView(dev, arr, &sd, at(h, D_));
    CHECK(same(at(h, C), at(h, D_)));
    /* Cubes need 6 slices: the 6-slice array has one. */
    memset(&sd, 0, sizeof(sd));
    sd.Format = DXGI_FORMAT_R16G16B16A16_FLOAT;
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
    sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    sd.TextureCube.MipLevels = 1;
    ID3D12Device_CreateShaderResourceView(dev, arr, &sd, at(h, D_));
    CHECK(!same(at(h, D_), at(h, NULL_SRV)));
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBEARRAY;
    sd.TextureCubeArray.MipLevels = 1;
    sd.TextureCubeArray.NumCubes = 2; /* 12 faces of 6 */
    ID3D12Device_CreateShaderResourceView(dev, arr, &sd, at(h, D_));
    CHECK(same(at(h, D_), at(h, NULL_SRV)));
    /* Depth-stencil planes: depth via R24_UNORM_X8 (plane 0), stencil via X24_G8 (plane 1). */
    sd = srv_2d(DXGI_FORMAT_R24_UNORM_X8_TYPELESS, 0, 1);
    ID3D12Device_CreateShaderResourceView(dev, ds, &sd, at(h, E));
    CHECK(!same(at(h, E), at(h, NULL_SRV)));
    sd = srv_2d(DXGI_FORMAT_X24_TYPELESS_G8_UINT, 0, 1);
    sd.Texture2D.PlaneSlice = 1;
    ID3D12Device_CreateShaderResourceView(dev, ds, &sd, at(h, F));
    CHECK(!same(at(h, F), at(h, NULL_SRV)));
    CHECK(!same(at(h, E), at(h, F)));
    /* Buffers: typed, raw, structured. */
    sd = srv_buf(DXGI_FORMAT_R32_FLOAT, 0, 256, 0, D3D12_BUFFER_SRV_FLAG_NONE);
    ID3D12Device_CreateShaderResourceView(dev, buf, &sd, at(h, G));
    CHECK(!same(at(h, G), at(h, NULL_SRV)));
    sd = srv_buf(DXGI_FORMAT_R32_TYPELESS, 0, 256, 0, D3D12_BUFFER_SRV_FLAG_RAW);
    ID3D12Device_CreateShaderResourceView(dev, buf, &sd, at(h, G));
    CHECK(!same(at(h, G), at(h, NULL_SRV)));
    sd = srv_buf(DXGI_FORMAT_UNKNOWN, 4, 60, 16, D3D12_BUFFER_SRV_FLAG_NONE);
    ID3D12Device_CreateShaderResourceView(dev, buf, &sd, at(h, G));
    CHECK(!same(at(h, G), at(h, NULL_SRV)));

    /* Every invalid desc writes the null SRV (the debug layer reports the rule). */
    struct {
        const char *what;
        ID3D12Resource *r;
        D3D12_SHADER_RESOURCE_VIEW_DESC d;
        int null_desc;
    } bad[24];
    unsigned n = 0;
#define BAD(w, res, desc) (bad[n].what = (w), bad[n].r = (res), bad[n].d = (desc), bad[n].null_desc = 0, n++)
#define BAD_NULL(w, res) (bad[n].what = (w), bad[n].r = (res), bad[n].null_desc = 1, n++)
    BAD("MostDetailedMip past the last mip", tex, srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 7, 1));
    BAD("MipLevels 0", tex, srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0));
    BAD("mips past the end", tex, srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 5, 3));
    BAD("typeless view format", tl, srv_2d(DXGI_FORMAT_R8G8B8A8_TYPELESS, 0, 1));
    BAD("format of another family", tex, srv_2d(DXGI_FORMAT_R32_FLOAT, 0, 1));
    BAD("unknown format value", tex, srv_2d((DXGI_FORMAT)0xdead, 0, 1));
    BAD("inherits a typeless format", tl, srv_2d(DXGI_FORMAT_UNKNOWN, 0, 1));
    BAD_NULL("NULL desc of a typeless texture", tl);
    BAD_NULL("NULL desc of a buffer", buf);
    BAD_NULL("NULL desc of a depth-stencil format", ds);
    BAD("D24_UNORM_S8_UINT is not readable", ds, srv_2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 0, 1));
    BAD("stencil format on plane 0", ds, srv_2d(DXGI_FORMAT_X24_TYPELESS_G8_UINT, 0, 1));
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    sd.Texture2D.PlaneSlice = 1;
    BAD("PlaneSlice 1 of a single-plane format", tex, sd);
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    sd.Shader4ComponentMapping = 0;
    BAD("mapping without the always-set bit", tex, sd);
    sd.Shader4ComponentMapping = D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING(6, 1, 2, 3);
    BAD("mapping component 6", tex, sd);
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
    BAD("TEXTURE3D view of a 2D texture", tex, sd);
    sd.ViewDimension = D3D12_SRV_DIMENSION_UNKNOWN;
    BAD("ViewDimension UNKNOWN", tex, sd);
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURECUBE;
    BAD("cube view of a single slice", tex, sd);
    sd.ViewDimension = D3D12_SRV_DIMENSION_BUFFER;
    BAD("BUFFER view of a texture", tex, sd);
    BAD("typeless buffer view without RAW", buf, srv_buf(DXGI_FORMAT_R32_TYPELESS, 0, 4, 0, D3D12_BUFFER_SRV_FLAG_NONE));
    BAD("RAW with R32_UINT", buf, srv_buf(DXGI_FORMAT_R32_UINT, 0, 4, 0, D3D12_BUFFER_SRV_FLAG_RAW));
    BAD("structured with a format", buf, srv_buf(DXGI_FORMAT_R32_FLOAT, 0, 4, 16, D3D12_BUFFER_SRV_FLAG_NONE));
    BAD("elements past the end", buf, srv_buf(DXGI_FORMAT_UNKNOWN, 4, 61, 16, D3D12_BUFFER_SRV_FLAG_NONE));
    BAD("NumElements 0", buf, srv_buf(DXGI_FORMAT_R32_FLOAT, 0, 0, 0, D3D12_BUFFER_SRV_FLAG_NONE));
#undef BAD
#undef BAD_NULL
    for (unsigned i = 0; i < n; i++) {
        set_ctx("SRV: %s", bad[i].what);
        fill(at(h, SCRATCH), 0xcd);
        ID3D12Device_CreateShaderResourceView(dev, bad[i].r, bad[i].null_desc ? NULL : &bad[i].d, at(h, SCRATCH));
        CHECK(same(at(h, SCRATCH), at(h, NULL_SRV)));
    }

    set_ctx("SRV: null");
    /* Null descriptors are one canonical record, whatever the dimension. */
    memset(&sd, 0, sizeof(sd));
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE3D;
    sd.Format = DXGI_FORMAT_R32_FLOAT;
    sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    fill(at(h, SCRATCH), 0xcd);
    ID3D12Device_CreateShaderResourceView(dev, NULL, &sd, at(h, SCRATCH));
    CHECK(same(at(h, SCRATCH), at(h, NULL_SRV)));
    /* NULL resource and NULL desc: invalid, still the null SRV. */
    fill(at(h, SCRATCH), 0xcd);
    ID3D12Device_CreateShaderResourceView(dev, NULL, NULL, at(h, SCRATCH));
    CHECK(same(at(h, SCRATCH), at(h, NULL_SRV)));

    /* A descriptor is plain data: it outlives its resource and still copies. */
    set_ctx("SRV: released resource");
    sd = srv_2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    ID3D12Device_CreateShaderResourceView(dev, tex, &sd, at(h, A));
    before = snap(at(h, A));
    RELEASE0(tex);
    CHECK(same_rec(at(h, A), &before));
    ID3D12Device_CopyDescriptorsSimple(dev, 1, at(h, B), at(h, A), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK(same_rec(at(h, B), &before));

out:
    RELEASE0(tex);
    RELEASE0(arr);
    RELEASE0(tl);
    RELEASE0(ds);
    RELEASE0(buf);
    g_ctx[0] = 0;
}

static void test_uavs_and_cbvs(ID3D12DescriptorHeap *h)
{
    ID3D12Resource *buf = make_buffer(65536, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12Resource *ctr = make_buffer(8192, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12Resource *plain = make_buffer(4096, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *tex = make_tex2d(16, 16, 1, 2, DXGI_FORMAT_R32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    ID3D12Resource *feedback = make_tex2d(16, 16, 1, 1, DXGI_FORMAT_R8_UINT, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    D3D12_UNORDERED_ACCESS_VIEW_DESC ud;

    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV];
    if (!buf || !ctr || !plain || !tex || !feedback)
        goto out;

    set_ctx("UAV");
    ud = uav_buf(DXGI_FORMAT_UNKNOWN, 16, 16, 0, D3D12_BUFFER_UAV_FLAG_NONE);
    ID3D12Device_CreateUnorderedAccessView(dev, NULL, NULL, &ud, at(h, NULL_UAV));
    /* A null UAV is not a null SRV. */
    CHECK(!same(at(h, NULL_UAV), at(h, NULL_SRV)));
    ID3D12Device_CreateUnorderedAccessView(dev, buf, NULL, &ud, at(h, A));
    CHECK(!same(at(h, A), at(h, NULL_UAV)));
    /* A counter is part of the descriptor. */
    ud.Buffer.CounterOffsetInBytes = 4096;
    ID3D12Device_CreateUnorderedAccessView(dev, buf, ctr, &ud, at(h, B));
    CHECK(!same(at(h, B), at(h, NULL_UAV)));
    CHECK(!same(at(h, A), at(h, B)));
    /* Multiples of 4 are accepted (the method page), 4096 recommended (D3D12_BUFFER_UAV). */
    ud.Buffer.CounterOffsetInBytes = 8;
    ID3D12Device_CreateUnorderedAccessView(dev, buf, ctr, &ud, at(h, C));
    CHECK(!same(at(h, C), at(h, NULL_UAV)));
    CHECK(!same(at(h, B), at(h, C)));
    /* Texture UAVs: NULL desc = the first mip as TEXTURE2D. */
    ID3D12Device_CreateUnorderedAccessView(dev, tex, NULL, NULL, at(h, D_));
    memset(&ud, 0, sizeof(ud));
    ud.Format = DXGI_FORMAT_R32_FLOAT;
    ud.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
    ID3D12Device_CreateUnorderedAccessView(dev, tex, NULL, &ud, at(h, E));
    CHECK(same(at(h, D_), at(h, E)));
    ud.Texture2D.MipSlice = 1;
    ID3D12Device_CreateUnorderedAccessView(dev, tex, NULL, &ud, at(h, E));
    CHECK(!same(at(h, D_), at(h, E)));
    CHECK(!same(at(h, E), at(h, NULL_UAV)));

    struct {
        const char *what;
        ID3D12Resource *r, *c;
        D3D12_UNORDERED_ACCESS_VIEW_DESC d;
    } bad[16];
    unsigned n = 0;
#define BAD(w, res, cnt, desc) (bad[n].what = (w), bad[n].r = (res), bad[n].c = (cnt), bad[n].d = (desc), n++)
    BAD("counter offset not a multiple of 4", buf, ctr, uav_buf(DXGI_FORMAT_UNKNOWN, 16, 16, 6, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("counter past the counter buffer", buf, ctr, uav_buf(DXGI_FORMAT_UNKNOWN, 16, 16, 8192, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("counter on a typed view", buf, ctr, uav_buf(DXGI_FORMAT_R32_UINT, 16, 0, 0, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("counter on a raw view", buf, ctr, uav_buf(DXGI_FORMAT_R32_TYPELESS, 16, 0, 0, D3D12_BUFFER_UAV_FLAG_RAW));
    BAD("counter resource is a texture", buf, tex, uav_buf(DXGI_FORMAT_UNKNOWN, 16, 16, 0, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("counter offset without a counter", buf, NULL, uav_buf(DXGI_FORMAT_UNKNOWN, 16, 16, 4, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("counter on a null UAV", NULL, ctr, uav_buf(DXGI_FORMAT_UNKNOWN, 16, 16, 0, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("no ALLOW_UNORDERED_ACCESS", plain, NULL, uav_buf(DXGI_FORMAT_R32_UINT, 16, 0, 0, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("elements past the end", buf, NULL, uav_buf(DXGI_FORMAT_UNKNOWN, 4097, 16, 0, D3D12_BUFFER_UAV_FLAG_NONE));
    BAD("unknown buffer flags", buf, NULL, uav_buf(DXGI_FORMAT_R32_UINT, 16, 0, 0, (D3D12_BUFFER_UAV_FLAGS)2));
    ud = uav_buf(DXGI_FORMAT_R32_FLOAT, 0, 0, 0, D3D12_BUFFER_UAV_FLAG_NONE);
    ud.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE2D;
    ud.Texture2D.MipSlice = 2;
    BAD("MipSlice past the last mip", tex, NULL, ud);
    ud.Texture2D.MipSlice = 0;
    ud.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    BAD("format of another family", tex, NULL, ud);
#undef BAD
    for (unsigned i = 0; i < n; i++) {
        set_ctx("UAV: %s", bad[i].what);
        fill(at(h, SCRATCH), 0xcd);
        ID3D12Device_CreateUnorderedAccessView(dev, bad[i].r, bad[i].c, &bad[i].d, at(h, SCRATCH));
        CHECK(same(at(h, SCRATCH), at(h, NULL_UAV)));
    }
    set_ctx("UAV: counter without a desc");
    fill(at(h, SCRATCH), 0xcd);
    ID3D12Device_CreateUnorderedAccessView(dev, buf, ctr, NULL, at(h, SCRATCH));
    CHECK(same(at(h, SCRATCH), at(h, NULL_UAV)));

    /* Sampler feedback is not supported (OPTIONS7.SamplerFeedbackTier 0): a null UAV. */
    set_ctx("sampler feedback UAV");
    {
        ID3D12Device8 *d8 = NULL;
        CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device8, (void **)&d8), S_OK);
        if (d8) {
            fill(at(h, SCRATCH), 0xcd);
            ID3D12Device8_CreateSamplerFeedbackUnorderedAccessView(d8, tex, feedback, at(h, SCRATCH));
            CHECK(same(at(h, SCRATCH), at(h, NULL_UAV)));
            ID3D12Device8_Release(d8);
        }
    }

    /* CBVs: NULL desc and BufferLocation 0 are null; 256-byte alignment, size ≤ 65536. */
    set_ctx("CBV");
    {
        D3D12_CONSTANT_BUFFER_VIEW_DESC cd;
        D3D12_GPU_VIRTUAL_ADDRESS va = ID3D12Resource_GetGPUVirtualAddress(buf);
        ID3D12Device_CreateConstantBufferView(dev, NULL, at(h, NULL_CBV));
        CHECK(!same(at(h, NULL_CBV), at(h, NULL_SRV)));
        cd.BufferLocation = 0;
        cd.SizeInBytes = 256;
        ID3D12Device_CreateConstantBufferView(dev, &cd, at(h, A));
        CHECK(same(at(h, A), at(h, NULL_CBV)));
        cd.BufferLocation = va;
        cd.SizeInBytes = 256;
        ID3D12Device_CreateConstantBufferView(dev, &cd, at(h, A));
        CHECK(!same(at(h, A), at(h, NULL_CBV)));
        cd.BufferLocation = va + 256;
        ID3D12Device_CreateConstantBufferView(dev, &cd, at(h, B));
        CHECK(!same(at(h, A), at(h, B)));
        cd.SizeInBytes = 65536 - 256;
        ID3D12Device_CreateConstantBufferView(dev, &cd, at(h, B));
        CHECK(!same(at(h, B), at(h, NULL_CBV)));
        static const struct {
            UINT64 offset;
            UINT size;
        } bad_cbv[] = {{128, 256}, {0, 255}, {0, 0}, {0, 65536 + 256}, {4, 512}};
        for (unsigned i = 0; i < sizeof(bad_cbv) / sizeof(bad_cbv[0]); i++) {
            set_ctx("CBV: offset %llu size %u", (unsigned long long)bad_cbv[i].offset, bad_cbv[i].size);
            cd.BufferLocation = va + bad_cbv[i].offset;
            cd.SizeInBytes = bad_cbv[i].size;
            fill(at(h, SCRATCH), 0xcd);
            ID3D12Device_CreateConstantBufferView(dev, &cd, at(h, SCRATCH));
            CHECK(same(at(h, SCRATCH), at(h, NULL_CBV)));
        }
    }
out:
    RELEASE0(buf);
    RELEASE0(ctr);
    RELEASE0(plain);
    RELEASE0(tex);
    RELEASE0(feedback);
    g_ctx[0] = 0;
}

static void test_rtvs_dsvs(void)
{
    ID3D12DescriptorHeap *rh = NULL, *dh = NULL;
    ID3D12Resource *rt = make_tex2d(32, 32, 4, 2, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    ID3D12Resource *tex = make_tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
    ID3D12Resource *ds = make_tex2d(32, 32, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    ID3D12Resource *d32 = make_tex2d(32, 32, 1, 1, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL);
    D3D12_RENDER_TARGET_VIEW_DESC rd;
    D3D12_DEPTH_STENCIL_VIEW_DESC dd;

    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &rh), S_OK);
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &dh), S_OK);
    if (!rh || !dh || !rt || !tex || !ds || !d32)
        goto out;

    set_ctx("RTV");
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_RTV];
    memset(&rd, 0, sizeof(rd));
    rd.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2D;
    ID3D12Device_CreateRenderTargetView(dev, NULL, &rd, at(rh, 0)); /* null RTV */
    /* NULL desc = TEXTURE2DARRAY, mip 0, every slice. */
    ID3D12Device_CreateRenderTargetView(dev, rt, NULL, at(rh, 1));
    rd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    rd.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
    rd.Texture2DArray.ArraySize = 4;
    ID3D12Device_CreateRenderTargetView(dev, rt, &rd, at(rh, 2));
    CHECK(same(at(rh, 1), at(rh, 2)));
    CHECK(!same(at(rh, 1), at(rh, 0)));
    rd.Texture2DArray.ArraySize = (UINT)-1;
    ID3D12Device_CreateRenderTargetView(dev, rt, &rd, at(rh, 2));
    CHECK(same(at(rh, 1), at(rh, 2)));
    rd.Texture2DArray.MipSlice = 1;
    ID3D12Device_CreateRenderTargetView(dev, rt, &rd, at(rh, 2));
    CHECK(!same(at(rh, 1), at(rh, 2)));
    CHECK(!same(at(rh, 2), at(rh, 0)));
    /* Invalid: mip past the end, slices past the end, no ALLOW_RENDER_TARGET, depth format. */
    rd.Texture2DArray.MipSlice = 2;
    fill(at(rh, 3), 0xcd);
    ID3D12Device_CreateRenderTargetView(dev, rt, &rd, at(rh, 3));
    CHECK(same(at(rh, 3), at(rh, 0)));
    rd.Texture2DArray.MipSlice = 0;
    rd.Texture2DArray.FirstArraySlice = 2;
    rd.Texture2DArray.ArraySize = 3;
    fill(at(rh, 3), 0xcd);
    ID3D12Device_CreateRenderTargetView(dev, rt, &rd, at(rh, 3));
    CHECK(same(at(rh, 3), at(rh, 0)));
    fill(at(rh, 3), 0xcd);
    ID3D12Device_CreateRenderTargetView(dev, tex, NULL, at(rh, 3));
    CHECK(same(at(rh, 3), at(rh, 0)));
    fill(at(rh, 3), 0xcd);
    ID3D12Device_CreateRenderTargetView(dev, NULL, NULL, at(rh, 3));
    CHECK(same(at(rh, 3), at(rh, 0)));

    set_ctx("DSV");
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_DSV];
    memset(&dd, 0, sizeof(dd));
    dd.ViewDimension = D3D12_DSV_DIMENSION_TEXTURE2D;
    ID3D12Device_CreateDepthStencilView(dev, NULL, &dd, at(dh, 0)); /* null DSV */
    ID3D12Device_CreateDepthStencilView(dev, ds, NULL, at(dh, 1));
    dd.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
    ID3D12Device_CreateDepthStencilView(dev, ds, &dd, at(dh, 2));
    CHECK(same(at(dh, 1), at(dh, 2)));
    CHECK(!same(at(dh, 1), at(dh, 0)));
    dd.Flags = D3D12_DSV_FLAG_READ_ONLY_DEPTH | D3D12_DSV_FLAG_READ_ONLY_STENCIL;
    ID3D12Device_CreateDepthStencilView(dev, ds, &dd, at(dh, 2));
    CHECK(!same(at(dh, 1), at(dh, 2)));
    CHECK(!same(at(dh, 2), at(dh, 0)));
    /* Invalid: unknown flags, read-only stencil without stencil, a colour format, no
     * ALLOW_DEPTH_STENCIL. */
    dd.Flags = (D3D12_DSV_FLAGS)4;
    fill(at(dh, 3), 0xcd);
    ID3D12Device_CreateDepthStencilView(dev, ds, &dd, at(dh, 3));
    CHECK(same(at(dh, 3), at(dh, 0)));
    dd.Format = DXGI_FORMAT_D32_FLOAT;
    dd.Flags = D3D12_DSV_FLAG_READ_ONLY_DEPTH;
    ID3D12Device_CreateDepthStencilView(dev, d32, &dd, at(dh, 4));
    CHECK(!same(at(dh, 4), at(dh, 0)));
    dd.Flags = D3D12_DSV_FLAG_READ_ONLY_STENCIL;
    fill(at(dh, 3), 0xcd);
    ID3D12Device_CreateDepthStencilView(dev, d32, &dd, at(dh, 3));
    CHECK(same(at(dh, 3), at(dh, 0)));
    dd.Flags = D3D12_DSV_FLAG_NONE;
    dd.Format = DXGI_FORMAT_R32_FLOAT;
    fill(at(dh, 3), 0xcd);
    ID3D12Device_CreateDepthStencilView(dev, d32, &dd, at(dh, 3));
    CHECK(same(at(dh, 3), at(dh, 0)));
    fill(at(dh, 3), 0xcd);
    ID3D12Device_CreateDepthStencilView(dev, tex, NULL, at(dh, 3));
    CHECK(same(at(dh, 3), at(dh, 0)));

    /* A view of one type into a heap of another type writes nothing. */
    set_ctx("wrong heap type");
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_RTV];
    {
        rec r = snap(at(rh, 5));
        ID3D12Device_CreateShaderResourceView(dev, tex, NULL, at(rh, 5));
        CHECK(same_rec(at(rh, 5), &r));
        ID3D12Device_CreateDepthStencilView(dev, ds, NULL, at(rh, 5));
        CHECK(same_rec(at(rh, 5), &r));
    }
out:
    RELEASE0(rt);
    RELEASE0(tex);
    RELEASE0(ds);
    RELEASE0(d32);
    RELEASE0(rh);
    RELEASE0(dh);
    g_ctx[0] = 0;
}

static void test_samplers(void)
{
    ID3D12DescriptorHeap *sh = NULL;
    ID3D12Device11 *d11 = NULL;
    D3D12_SAMPLER_DESC s;

    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 16, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &sh), S_OK);
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device11, (void **)&d11), S_OK);
    if (!sh || !d11)
        goto out;
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER];

    set_ctx("sampler");
    /* The invalid sampler (address mode 0) is the null sampler. */
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 0.0f);
    s.AddressU = (D3D12_TEXTURE_ADDRESS_MODE)0;
    ID3D12Device_CreateSampler(dev, &s, at(sh, 0));
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 0.0f);
    ID3D12Device_CreateSampler(dev, &s, at(sh, 1));
    CHECK(!same(at(sh, 1), at(sh, 0)));
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 1.5f);
    ID3D12Device_CreateSampler(dev, &s, at(sh, 2));
    CHECK(!same(at(sh, 1), at(sh, 2)));
    /* CreateSampler2 with float border colours and no flags = CreateSampler. */
    {
        D3D12_SAMPLER_DESC2 s2;
        memset(&s2, 0, sizeof(s2));
        s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 1.5f);
        s2.Filter = s.Filter;
        s2.AddressU = s.AddressU;
        s2.AddressV = s.AddressV;
        s2.AddressW = s.AddressW;
        s2.MipLODBias = s.MipLODBias;
        s2.MaxAnisotropy = s.MaxAnisotropy;
        s2.ComparisonFunc = s.ComparisonFunc;
        memcpy(s2.FloatBorderColor, s.BorderColor, sizeof(s.BorderColor));
        s2.MinLOD = s.MinLOD;
        s2.MaxLOD = s.MaxLOD;
        s2.Flags = D3D12_SAMPLER_FLAG_NONE;
        ID3D12Device11_CreateSampler2(d11, &s2, at(sh, 3));
        CHECK(same(at(sh, 2), at(sh, 3)));
        /* Integer border colours are a different sampler. */
        s2.Flags = D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR;
        s2.UintBorderColor[0] = 7;
        ID3D12Device11_CreateSampler2(d11, &s2, at(sh, 4));
        CHECK(!same(at(sh, 4), at(sh, 3)));
        CHECK(!same(at(sh, 4), at(sh, 0)));
        /* Unknown flags. */
        s2.Flags = (D3D12_SAMPLER_FLAGS)0x80;
        fill(at(sh, 5), 0xcd);
        ID3D12Device11_CreateSampler2(d11, &s2, at(sh, 5));
        CHECK(same(at(sh, 5), at(sh, 0)));
        fill(at(sh, 5), 0xcd);
        ID3D12Device11_CreateSampler2(d11, NULL, at(sh, 5));
        CHECK(same(at(sh, 5), at(sh, 0)));
    }
    /* Anisotropic and comparison samplers. */
    s = sampler_desc(D3D12_FILTER_ANISOTROPIC, 0.0f);
    s.MaxAnisotropy = 16;
    ID3D12Device_CreateSampler(dev, &s, at(sh, 6));
    CHECK(!same(at(sh, 6), at(sh, 0)));
    s = sampler_desc(D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR, 0.0f);
    s.ComparisonFunc = D3D12_COMPARISON_FUNC_LESS_EQUAL;
    ID3D12Device_CreateSampler(dev, &s, at(sh, 7));
    CHECK(!same(at(sh, 7), at(sh, 0)));
    /* A comparison function on a plain filter is ignored (a warning), not an error. */
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 0.0f);
    s.ComparisonFunc = D3D12_COMPARISON_FUNC_LESS;
    ID3D12Device_CreateSampler(dev, &s, at(sh, 8));
    CHECK(same(at(sh, 8), at(sh, 1)));

    /* ANISOTROPIC with MaxAnisotropy 0 is valid (Mesa's d3d12 driver creates its null sampler
     * so): the descriptor is written, unlike the invalid ones below. */
    s = sampler_desc(D3D12_FILTER_ANISOTROPIC, 0.0f);
    s.MaxAnisotropy = 0;
    fill(at(sh, 9), 0xcd);
    ID3D12Device_CreateSampler(dev, &s, at(sh, 9));
    CHECK(!same(at(sh, 9), at(sh, 0)));
    struct {
        const char *what;
        D3D12_SAMPLER_DESC d;
    } bad[12];
    unsigned n = 0;
#define BAD(w) (bad[n].what = (w), bad[n].d = s, n++)
    s = sampler_desc(D3D12_FILTER_ANISOTROPIC, 0.0f);
    s.MaxAnisotropy = 17;
    BAD("MaxAnisotropy 17");
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 16.0f);
    BAD("MipLODBias 16");
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, -16.5f);
    BAD("MipLODBias -16.5");
    s = sampler_desc(D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR, 0.0f);
    BAD("comparison filter without a function");
    s.ComparisonFunc = (D3D12_COMPARISON_FUNC)9;
    BAD("comparison function 9");
    s = sampler_desc((D3D12_FILTER)0x56, 0.0f);
    BAD("unknown filter");
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 0.0f);
    s.AddressW = (D3D12_TEXTURE_ADDRESS_MODE)6;
    BAD("address mode 6");
    s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_LINEAR, 0.0f);
    s.MinLOD = 4.0f;
    s.MaxLOD = 2.0f;
    BAD("MinLOD above MaxLOD");
#undef BAD
    for (unsigned i = 0; i < n; i++) {
        set_ctx("sampler: %s", bad[i].what);
        fill(at(sh, 9), 0xcd);
        ID3D12Device_CreateSampler(dev, &bad[i].d, at(sh, 9));
        CHECK(same(at(sh, 9), at(sh, 0)));
    }
    set_ctx("sampler: NULL desc");
    fill(at(sh, 9), 0xcd);
    ID3D12Device_CreateSampler(dev, NULL, at(sh, 9));
    CHECK(same(at(sh, 9), at(sh, 0)));
out:
    RELEASE0(sh);
    if (d11)
        ID3D12Device11_Release(d11);
    g_ctx[0] = 0;
}

/* Handles that are not descriptors of a live heap write nothing. */
static void test_bad_handles(void)
{
    ID3D12DescriptorHeap *h = NULL, *gone = NULL;
    ID3D12Resource *tex = make_tex2d(8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
    D3D12_CPU_DESCRIPTOR_HANDLE old, mid;
    rec r0, r1;

    set_ctx("bad handles");
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV];
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &h), S_OK);
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &gone), S_OK);
    if (!h || !gone || !tex)
        goto out;
    /* A released heap: its memory is gone (valgrind would report any write). */
    old = at(gone, 1);
    RELEASE0(gone);
    ID3D12Device_CreateShaderResourceView(dev, tex, NULL, old);
    ID3D12Device_CopyDescriptorsSimple(dev, 1, old, at(h, 0), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12Device_CopyDescriptorsSimple(dev, 1, at(h, 0), old, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    /* Not on a descriptor boundary, past the end, NULL. */
    r0 = snap(at(h, 0));
    r1 = snap(at(h, 1));
    mid = at(h, 0);
    mid.ptr += 8;
    ID3D12Device_CreateShaderResourceView(dev, tex, NULL, mid);
    CHECK(same_rec(at(h, 0), &r0));
    CHECK(same_rec(at(h, 1), &r1));
    ID3D12Device_CreateShaderResourceView(dev, tex, NULL, at(h, 4));
    {
        D3D12_CPU_DESCRIPTOR_HANDLE null_handle = {0};
        ID3D12Device_CreateShaderResourceView(dev, tex, NULL, null_handle);
    }
    /* The heap's own descriptors still work. */
    ID3D12Device_CreateShaderResourceView(dev, tex, NULL, at(h, 3));
    CHECK(!same_rec(at(h, 3), &r0));
out:
    RELEASE0(tex);
    RELEASE0(h);
    RELEASE0(gone);
    g_ctx[0] = 0;
}

/* ---- 3. copies ----------------------------------------------------------------------------- */

/* Fills slots [first, first + n) of a sampler heap with distinct samplers (bias = tag + i/8). */
static void distinct_samplers(ID3D12DescriptorHeap *h, UINT first, UINT n, float tag)
{
    for (UINT i = 0; i < n; i++) {
        D3D12_SAMPLER_DESC s = sampler_desc(D3D12_FILTER_MIN_MAG_MIP_POINT, tag + (float)i / 8.0f);
        ID3D12Device_CreateSampler(dev, &s, at(h, first + i));
    }
}

static void test_copies(void)
{
    ID3D12DescriptorHeap *src = NULL, *dst = NULL, *vis = NULL, *views = NULL;
    rec r[16];

    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 16, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &src), S_OK);
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 16, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &dst), S_OK);
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 16, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, &vis), S_OK);
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 16, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &views), S_OK);
    if (!src || !dst || !vis || !views)
        goto out;
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER];

    set_ctx("copies: sources");
    distinct_samplers(src, 0, 16, 1.0f);
    for (UINT i = 0; i < 16; i++)
        r[i] = snap(at(src, i));
    for (UINT i = 1; i < 16; i++)
        CHECK(memcmp(r[i].b, r[i - 1].b, g_inc) != 0);

    /* Simple: n descriptors, into a shader-visible heap too. */
    set_ctx("CopyDescriptorsSimple");
    ID3D12Device_CopyDescriptorsSimple(dev, 16, at(dst, 0), at(src, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    for (UINT i = 0; i < 16; i++)
        CHECK(same_rec(at(dst, i), &r[i]));
    ID3D12Device_CopyDescriptorsSimple(dev, 5, at(vis, 11), at(src, 2), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    for (UINT i = 0; i < 5; i++)
        CHECK(same_rec(at(vis, 11 + i), &r[2 + i]));
    /* Count 0, a run leaving the heap, a type other than the heaps': nothing is copied. */
    distinct_samplers(dst, 0, 16, 5.0f);
    rec d0 = snap(at(dst, 0)), d15 = snap(at(dst, 15));
    ID3D12Device_CopyDescriptorsSimple(dev, 0, at(dst, 0), at(src, 3), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK(same_rec(at(dst, 0), &d0));
    ID3D12Device_CopyDescriptorsSimple(dev, 2, at(dst, 15), at(src, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK(same_rec(at(dst, 15), &d15));
    ID3D12Device_CopyDescriptorsSimple(dev, 2, at(dst, 0), at(src, 15), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK(same_rec(at(dst, 0), &d0));
    ID3D12Device_CopyDescriptorsSimple(dev, 1, at(dst, 0), at(src, 3), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    CHECK(same_rec(at(dst, 0), &d0));
    ID3D12Device_CopyDescriptorsSimple(dev, 1, at(views, 0), at(src, 3), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    ID3D12Device_CopyDescriptorsSimple(dev, 1, at(dst, 0), at(views, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK(same_rec(at(dst, 0), &d0));
    /* Overlapping runs in one heap behave like memmove. */
    ID3D12Device_CopyDescriptorsSimple(dev, 16, at(dst, 0), at(src, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    ID3D12Device_CopyDescriptorsSimple(dev, 8, at(dst, 2), at(dst, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    for (UINT i = 0; i < 8; i++)
        CHECK(same_rec(at(dst, 2 + i), &r[i]));
    ID3D12Device_CopyDescriptorsSimple(dev, 16, at(dst, 0), at(src, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    ID3D12Device_CopyDescriptorsSimple(dev, 8, at(dst, 0), at(dst, 3), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    for (UINT i = 0; i < 8; i++)
        CHECK(same_rec(at(dst, i), &r[3 + i]));

    /* CopyDescriptors: ranges need not line up. */
    set_ctx("CopyDescriptors: sparse to contiguous");
    distinct_samplers(dst, 0, 16, 5.0f);
    {
        D3D12_CPU_DESCRIPTOR_HANDLE ds[1] = {at(dst, 4)};
        UINT dn[1] = {6};
        D3D12_CPU_DESCRIPTOR_HANDLE ss[3] = {at(src, 1), at(src, 10), at(src, 7)};
        UINT sn[3] = {2, 3, 1};
        rec before3 = snap(at(dst, 3)), before10 = snap(at(dst, 10));
        ID3D12Device_CopyDescriptors(dev, 1, ds, dn, 3, ss, sn, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        static const UINT expect[6] = {1, 2, 10, 11, 12, 7};
        for (UINT i = 0; i < 6; i++)
            CHECK(same_rec(at(dst, 4 + i), &r[expect[i]]));
        CHECK(same_rec(at(dst, 3), &before3));
        CHECK(same_rec(at(dst, 10), &before10));
    }
    set_ctx("CopyDescriptors: contiguous to sparse, across heaps");
    distinct_samplers(dst, 0, 16, 5.0f);
    {
        D3D12_CPU_DESCRIPTOR_HANDLE ds[3] = {at(dst, 14), at(vis, 0), at(dst, 0)};
        UINT dn[3] = {2, 1, 2};
        D3D12_CPU_DESCRIPTOR_HANDLE ss[1] = {at(src, 8)};
        UINT sn[1] = {5};
        ID3D12Device_CopyDescriptors(dev, 3, ds, dn, 1, ss, sn, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        CHECK(same_rec(at(dst, 14), &r[8]));
        CHECK(same_rec(at(dst, 15), &r[9]));
        CHECK(same_rec(at(vis, 0), &r[10]));
        CHECK(same_rec(at(dst, 0), &r[11]));
        CHECK(same_rec(at(dst, 1), &r[12]));
    }
    set_ctx("CopyDescriptors: NULL sizes mean 1");
    distinct_samplers(dst, 0, 16, 5.0f);
    {
        D3D12_CPU_DESCRIPTOR_HANDLE ds[3] = {at(dst, 9), at(dst, 3), at(dst, 6)};
        D3D12_CPU_DESCRIPTOR_HANDLE ss[3] = {at(src, 0), at(src, 5), at(src, 15)};
        UINT dn[1] = {3};
        ID3D12Device_CopyDescriptors(dev, 3, ds, NULL, 3, ss, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        CHECK(same_rec(at(dst, 9), &r[0]));
        CHECK(same_rec(at(dst, 3), &r[5]));
        CHECK(same_rec(at(dst, 6), &r[15]));
        /* One destination range of 3 from three single sources. */
        ID3D12Device_CopyDescriptors(dev, 1, &ds[0], dn, 3, ss, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        CHECK(same_rec(at(dst, 9), &r[0]));
        CHECK(same_rec(at(dst, 10), &r[5]));
        CHECK(same_rec(at(dst, 11), &r[15]));
    }
    set_ctx("CopyDescriptors: invalid calls copy nothing");
    distinct_samplers(dst, 0, 16, 5.0f);
    {
        rec before[16];
        for (UINT i = 0; i < 16; i++)
            before[i] = snap(at(dst, i));
        D3D12_CPU_DESCRIPTOR_HANDLE ds[2] = {at(dst, 0), at(dst, 8)};
        UINT dn[2] = {4, 4};
        D3D12_CPU_DESCRIPTOR_HANDLE ss[2] = {at(src, 0), at(src, 8)};
        UINT sn[2] = {4, 3};
        /* Totals differ (8 vs 7). */
        ID3D12Device_CopyDescriptors(dev, 2, ds, dn, 2, ss, sn, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        /* The second destination range leaves the heap: the first is not copied either. */
        dn[1] = 9;
        sn[1] = 9;
        ss[1] = at(src, 0);
        ID3D12Device_CopyDescriptors(dev, 2, ds, dn, 2, ss, sn, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        /* Heap type other than the given one. */
        dn[1] = 4;
        sn[1] = 4;
        ID3D12Device_CopyDescriptors(dev, 2, ds, dn, 2, ss, sn, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        /* A source in a heap of another type. */
        ss[1] = at(views, 0);
        ID3D12Device_CopyDescriptors(dev, 2, ds, dn, 2, ss, sn, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        for (UINT i = 0; i < 16; i++)
            CHECK(same_rec(at(dst, i), &before[i]));
        /* Empty ranges are fine, whatever their handle. */
        D3D12_CPU_DESCRIPTOR_HANDLE junk = {1};
        D3D12_CPU_DESCRIPTOR_HANDLE ds2[2] = {junk, at(dst, 2)};
        UINT dn2[2] = {0, 1};
        ID3D12Device_CopyDescriptors(dev, 2, ds2, dn2, 1, ss, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
        CHECK(same_rec(at(dst, 2), &r[0]));
        ID3D12Device_CopyDescriptors(dev, 0, NULL, NULL, 0, NULL, NULL, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    }
    /* Sources in shader-visible heaps are against the rules (#654: write-combined on GPUs); the
     * CPU adapter's memory is ordinary, so the copy still happens, as it does natively. */
    set_ctx("copy from a shader-visible heap");
    ID3D12Device_CopyDescriptorsSimple(dev, 16, at(vis, 0), at(src, 0), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    ID3D12Device_CopyDescriptorsSimple(dev, 1, at(dst, 0), at(vis, 6), D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER);
    CHECK(same_rec(at(dst, 0), &r[6]));
out:
    RELEASE0(src);
    RELEASE0(dst);
    RELEASE0(vis);
    RELEASE0(views);
    g_ctx[0] = 0;
}

/* Views copied between CBV_SRV_UAV heaps keep their meaning: an SRV copied into a
 * shader-visible heap equals the same SRV created there. */
static void test_copy_views(void)
{
    ID3D12DescriptorHeap *cpu = NULL, *vis = NULL;
    ID3D12Resource *tex = make_tex2d(16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_NONE);
    g_inc = inc[D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV];
    set_ctx("copy views");
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, &cpu), S_OK);
    CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, &vis), S_OK);
    if (cpu && vis && tex) {
        ID3D12Device_CreateShaderResourceView(dev, tex, NULL, at(cpu, 2));
        ID3D12Device_CreateShaderResourceView(dev, tex, NULL, at(vis, 0));
        ID3D12Device_CopyDescriptorsSimple(dev, 1, at(vis, 3), at(cpu, 2), D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
        CHECK(same(at(vis, 3), at(vis, 0)));
    }
    RELEASE0(tex);
    RELEASE0(cpu);
    RELEASE0(vis);
    g_ctx[0] = 0;
}

static void test_binding_tier(void)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS o;
    memset(&o, 0, sizeof(o));
    set_ctx("binding tier");
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof(o)), S_OK);
    /* Heaps impose no per-stage limits beyond their sizes (spec §6 REC). */
    CHECK_EQ(o.ResourceBindingTier, D3D12_RESOURCE_BINDING_TIER_3);
    g_ctx[0] = 0;
}

int main(void)
{
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    if (dev) {
        CHECK_EQ(refcount(dev), 1);
        test_increments();
        test_binding_tier();
        test_heap_matrix();
        test_heap_object();
        {
            ID3D12DescriptorHeap *views = NULL;
            CHECK_HR(make_heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, VIEW_SLOTS, D3D12_DESCRIPTOR_HEAP_FLAG_NONE,
                               &views), S_OK);
            if (views) {
                test_srvs(views);
                test_uavs_and_cbvs(views);
            }
            RELEASE0(views);
        }
        test_rtvs_dsvs();
        test_samplers();
        test_bad_handles();
        test_copies();
        test_copy_views();
        CHECK_EQ(refcount(dev), 1);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }

    printf("descriptors_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
