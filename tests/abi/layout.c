/* tests/abi/layout.c - C-ABI test of the device's layout-math methods, called the way a C program
 * compiled against Microsoft's DirectX-Headers calls them (CINTERFACE + COBJMACROS, IIDs from
 * libDirectX-Guids.a):
 *
 *   GetCopyableFootprints (slot 38) / ID3D12Device8::GetCopyableFootprints1 (slot 72)
 *   GetResourceAllocationInfo (slot 25, a 16-byte struct returned by value in RAX:RDX)
 *   ID3D12Device4::GetResourceAllocationInfo1 (slot 56) / ID3D12Device8::GetResourceAllocationInfo2 (68)
 *   CheckFeatureSupport (slot 13): FORMAT_SUPPORT, MULTISAMPLE_QUALITY_LEVELS, FORMAT_INFO, OPTIONS
 *   GetResourceTiling (slot 42) on resources from CreateReservedResource (slot 30)
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -pthread -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/layout.c \
 *       -o $OUT/layout_c -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * Every check prints one line when it fails (file:line, [case], what, got vs expected); the last
 * line is "layout_c: N passed, M failed" and the exit status is 0 only when M is 0.
 *
 * Expected numbers are worked out by hand in the comments from Microsoft's algorithm (d3dx12
 * D3DX12GetCopyableFootprints, the GetCopyableFootprints / GetResourceAllocationInfo /
 * GetResourceTiling pages on learn.microsoft.com), as digested in the spec folder
 * (footprints.md, resources.md §6-§8, features.md §3.4-§3.6, heaps-and-memory.md §8). Where a
 * value is this runtime's documented choice rather than Microsoft's (texture allocation sizes,
 * today's capability masks), the comment says so. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- the check counter ------------------------------------------------------------------- */

#include "check.h"
/* The case being checked, printed with every failure. */

#define ALL_ONES_32 0xFFFFFFFFu
#define ALL_ONES_64 0xFFFFFFFFFFFFFFFFull
/* Byte written into every output before a call, so that "left untouched" is observable. */
#define FILL 0xCD
#define FILL_32 0xCDCDCDCDu
#define FILL_64 0xCDCDCDCDCDCDCDCDull
#define FILL_16 0xCDCDu

#define KB64 65536ull
#define KB4 4096ull
#define MB4 4194304ull

/* ---- descs -------------------------------------------------------------------------------- */

static D3D12_RESOURCE_DESC tex(D3D12_RESOURCE_DIMENSION dim, DXGI_FORMAT format, UINT64 width, UINT height,
                               UINT16 depth_or_array, UINT16 mips)
{
    D3D12_RESOURCE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Dimension = dim;
    d.Alignment = 0;
    d.Width = width;
    d.Height = height;
    d.DepthOrArraySize = depth_or_array;
    d.MipLevels = mips;
    d.Format = format;
    d.SampleDesc.Count = 1;
    d.SampleDesc.Quality = 0;
    d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    d.Flags = D3D12_RESOURCE_FLAG_NONE;
    return d;
}

static D3D12_RESOURCE_DESC tex2d(DXGI_FORMAT format, UINT64 width, UINT height, UINT16 array, UINT16 mips)
{
    return tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, format, width, height, array, mips);
}

static D3D12_RESOURCE_DESC buffer(UINT64 width)
{
    D3D12_RESOURCE_DESC d = tex(D3D12_RESOURCE_DIMENSION_BUFFER, DXGI_FORMAT_UNKNOWN, width, 1, 1, 1);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

static D3D12_RESOURCE_DESC with_alignment(D3D12_RESOURCE_DESC d, UINT64 alignment)
{
    d.Alignment = alignment;
    return d;
}

static D3D12_RESOURCE_DESC1 desc1(const D3D12_RESOURCE_DESC *d)
{
    D3D12_RESOURCE_DESC1 o;
    memset(&o, 0, sizeof(o));
    o.Dimension = d->Dimension;
    o.Alignment = d->Alignment;
    o.Width = d->Width;
    o.Height = d->Height;
    o.DepthOrArraySize = d->DepthOrArraySize;
    o.MipLevels = d->MipLevels;
    o.Format = d->Format;
    o.SampleDesc = d->SampleDesc;
    o.Layout = d->Layout;
    o.Flags = d->Flags;
    return o; /* SamplerFeedbackMipRegion {0, 0, 0} */
}

/* ---- GetCopyableFootprints wrapper ---------------------------------------------------------- */

#define MAXSUB 16

/* All four outputs, one entry more than any query asks for: the extra entry must stay FILL. */
typedef struct fp_result
{
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT layouts[MAXSUB + 1];
    UINT rows[MAXSUB + 1];
    UINT64 sizes[MAXSUB + 1];
    UINT64 total;
} fp_result;

/* Which method: 0 = ID3D12Device::GetCopyableFootprints, 1 = ID3D12Device8::GetCopyableFootprints1
 * with the same desc as D3D12_RESOURCE_DESC1. */
static ID3D12Device8 *g_dev8;

static void footprints(ID3D12Device *dev, int v1, const D3D12_RESOURCE_DESC *d, UINT first, UINT num, UINT64 base,
                       fp_result *r)
{
    memset(r, FILL, sizeof(*r));
    if (v1) {
        D3D12_RESOURCE_DESC1 d1 = desc1(d);
        ID3D12Device8_GetCopyableFootprints1(g_dev8, &d1, first, num, base, r->layouts, r->rows, r->sizes, &r->total);
    } else {
        ID3D12Device_GetCopyableFootprints(dev, d, first, num, base, r->layouts, r->rows, r->sizes, &r->total);
    }
}

/* One subresource's outputs: Offset, Footprint {Format, Width, Height, Depth, RowPitch}, NumRows,
 * RowSizeInBytes. */
static void check_fp_at(const char *file, int line, const fp_result *r, unsigned i, UINT64 offset, DXGI_FORMAT fmt,
                        UINT w, UINT h, UINT depth, UINT pitch, UINT rows, UINT64 row_size)
{
    char what[64];
    snprintf(what, sizeof(what), "pLayouts[%u].Offset", i);
    check_u64(file, line, what, r->layouts[i].Offset, offset);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Format", i);
    check_u64(file, line, what, r->layouts[i].Footprint.Format, fmt);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Width", i);
    check_u64(file, line, what, r->layouts[i].Footprint.Width, w);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Height", i);
    check_u64(file, line, what, r->layouts[i].Footprint.Height, h);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Depth", i);
    check_u64(file, line, what, r->layouts[i].Footprint.Depth, depth);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.RowPitch", i);
    check_u64(file, line, what, r->layouts[i].Footprint.RowPitch, pitch);
    snprintf(what, sizeof(what), "pNumRows[%u]", i);
    check_u64(file, line, what, r->rows[i], rows);
    snprintf(what, sizeof(what), "pRowSizeInBytes[%u]", i);
    check_u64(file, line, what, r->sizes[i], row_size);
}
#define CHECK_FP(r, i, offset, fmt, w, h, d, pitch, rows, row_size) \
    check_fp_at(__FILE__, __LINE__, (r), (i), (offset), (fmt), (w), (h), (d), (pitch), (rows), (row_size))

/* Entry i of every array still holds FILL (written by nobody). */
static void check_untouched_at(const char *file, int line, const fp_result *r, unsigned i)
{
    char what[64];
    snprintf(what, sizeof(what), "pLayouts[%u].Offset untouched", i);
    check_u64(file, line, what, r->layouts[i].Offset, FILL_64);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Format untouched", i);
    check_u64(file, line, what, r->layouts[i].Footprint.Format, FILL_32);
    snprintf(what, sizeof(what), "pLayouts[%u].Footprint.RowPitch untouched", i);
    check_u64(file, line, what, r->layouts[i].Footprint.RowPitch, FILL_32);
    snprintf(what, sizeof(what), "pNumRows[%u] untouched", i);
    check_u64(file, line, what, r->rows[i], FILL_32);
    snprintf(what, sizeof(what), "pRowSizeInBytes[%u] untouched", i);
    check_u64(file, line, what, r->sizes[i], FILL_64);
}
#define CHECK_UNTOUCHED(r, i) check_untouched_at(__FILE__, __LINE__, (r), (i))

/* footprints.md §6: invalid input fills every element of every given array, for all
 * NumSubresources entries, with 0xFF bytes, and *pTotalBytes = UINT64_MAX. */
static void check_all_ones_at(const char *file, int line, const fp_result *r, unsigned num)
{
    char what[64];
    for (unsigned i = 0; i < num; i++) {
        snprintf(what, sizeof(what), "pLayouts[%u].Offset", i);
        check_u64(file, line, what, r->layouts[i].Offset, ALL_ONES_64);
        snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Format", i);
        check_u64(file, line, what, r->layouts[i].Footprint.Format, ALL_ONES_32);
        snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Width", i);
        check_u64(file, line, what, r->layouts[i].Footprint.Width, ALL_ONES_32);
        snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Height", i);
        check_u64(file, line, what, r->layouts[i].Footprint.Height, ALL_ONES_32);
        snprintf(what, sizeof(what), "pLayouts[%u].Footprint.Depth", i);
        check_u64(file, line, what, r->layouts[i].Footprint.Depth, ALL_ONES_32);
        snprintf(what, sizeof(what), "pLayouts[%u].Footprint.RowPitch", i);
        check_u64(file, line, what, r->layouts[i].Footprint.RowPitch, ALL_ONES_32);
        snprintf(what, sizeof(what), "pNumRows[%u]", i);
        check_u64(file, line, what, r->rows[i], ALL_ONES_32);
        snprintf(what, sizeof(what), "pRowSizeInBytes[%u]", i);
        check_u64(file, line, what, r->sizes[i], ALL_ONES_64);
    }
    check_u64(file, line, "*pTotalBytes", r->total, ALL_ONES_64);
    check_untouched_at(file, line, r, num);
}
#define CHECK_ALL_ONES(r, num) check_all_ones_at(__FILE__, __LINE__, (r), (num))

/* ---- 1. ABI facts and slots ----------------------------------------------------------------- */

static void test_abi(void)
{
    set_ctx("ABI");
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, CheckFeatureSupport) / sizeof(void *), 13);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, GetResourceAllocationInfo) / sizeof(void *), 25);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, CreateCommittedResource) / sizeof(void *), 27);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, CreateReservedResource) / sizeof(void *), 30);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, GetCopyableFootprints) / sizeof(void *), 38);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, GetResourceTiling) / sizeof(void *), 42);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, GetResourceAllocationInfo1) / sizeof(void *), 56);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, GetResourceAllocationInfo2) / sizeof(void *), 68);
    CHECK_EQ(offsetof(ID3D12Device11Vtbl, GetCopyableFootprints1) / sizeof(void *), 72);
    /* resources.md §1, footprints.md §1, heaps-and-memory.md §8.3 */
    CHECK_EQ(sizeof(D3D12_RESOURCE_DESC), 56);
    CHECK_EQ(sizeof(D3D12_RESOURCE_DESC1), 64);
    CHECK_EQ(sizeof(D3D12_RESOURCE_ALLOCATION_INFO), 16);
    CHECK_EQ(sizeof(D3D12_RESOURCE_ALLOCATION_INFO1), 24);
    CHECK_EQ(offsetof(D3D12_RESOURCE_ALLOCATION_INFO1, SizeInBytes), 16);
    CHECK_EQ(sizeof(D3D12_SUBRESOURCE_FOOTPRINT), 20);
    CHECK_EQ(sizeof(D3D12_PLACED_SUBRESOURCE_FOOTPRINT), 32);
    CHECK_EQ(offsetof(D3D12_PLACED_SUBRESOURCE_FOOTPRINT, Footprint), 8);
    CHECK_EQ(sizeof(D3D12_SUBRESOURCE_TILING), 12);
    CHECK_EQ(sizeof(D3D12_TILE_SHAPE), 12);
    CHECK_EQ(sizeof(D3D12_PACKED_MIP_INFO), 12);
    CHECK_EQ(sizeof(D3D12_FEATURE_DATA_FORMAT_SUPPORT), 12);
    CHECK_EQ(sizeof(D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS), 16);
    CHECK_EQ(sizeof(D3D12_FEATURE_DATA_FORMAT_INFO), 8);
    CHECK_EQ(D3D12_TEXTURE_DATA_PITCH_ALIGNMENT, 256);
    CHECK_EQ(D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT, 512);
    g_ctx[0] = 0;
}

/* ---- 2. GetCopyableFootprints: the worked examples of footprints.md §4 ---------------------- */

static void test_footprint_examples(ID3D12Device *dev, int v1)
{
    static fp_result r;
    const char *m = v1 ? "GetCopyableFootprints1" : "GetCopyableFootprints";

    /* §4.1 R8G8B8A8_UNORM 32x32, 1 mip (the documented case).
     * RowSize = 32 x 4 = 128; RowPitch = align(128, 256) = 256; NumRows 32;
     * TotalBytes = (32 - 1) x 256 + 128 = 7936 + 128 = 8064 (no padding after the last row). */
    D3D12_RESOURCE_DESC d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1);
    set_ctx("%s RGBA8 32x32", m);
    footprints(dev, v1, &d, 0, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
    CHECK_EQ(r.total, 8064);
    CHECK_UNTOUCHED(&r, 1);

    /* Same with BaseOffset 1000: Offset = 1000, TotalBytes still 8064 (BaseOffset excluded). */
    set_ctx("%s RGBA8 32x32 BaseOffset 1000", m);
    footprints(dev, v1, &d, 0, 1, 1000, &r);
    CHECK_FP(&r, 0, 1000, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
    CHECK_EQ(r.total, 8064);

    /* §4.2 BC1_UNORM 64x64, MipLevels 0 = the full chain of 7 (64, 32, 16, 8, 4, 2, 1).
     * 8 bytes per 4x4 block; every pitch aligns to 256.
     *   mip0 64x64: 16x16 blocks, RowSize 128, 16 rows, size 15x256+128 = 3968 @0
     *   mip1 32x32:  8x8 blocks, RowSize 64,  8 rows, size 7x256+64 = 1856 @align(3968)=4096
     *   mip2 16x16:  4x4 blocks, RowSize 32,  4 rows, size 3x256+32 = 800  @align(5952)=6144
     *   mip3 8x8:    2x2 blocks, RowSize 16,  2 rows, size 256+16 = 272    @align(6944)=7168
     *   mip4 4x4:    1 block,    RowSize 8,   1 row,  size 8               @align(7440)=7680
     *   mip5 2x2 -> reported 4x4, 1 block, size 8                           @align(7688)=8192
     *   mip6 1x1 -> reported 4x4, 1 block, size 8                           @align(8200)=8704
     * TotalBytes = 8704 + 8 = 8712. */
    d = tex2d(DXGI_FORMAT_BC1_UNORM, 64, 64, 1, 0);
    set_ctx("%s BC1 64x64 7 mips", m);
    footprints(dev, v1, &d, 0, 7, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_BC1_UNORM, 64, 64, 1, 256, 16, 128);
    CHECK_FP(&r, 1, 4096, DXGI_FORMAT_BC1_UNORM, 32, 32, 1, 256, 8, 64);
    CHECK_FP(&r, 2, 6144, DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 256, 4, 32);
    CHECK_FP(&r, 3, 7168, DXGI_FORMAT_BC1_UNORM, 8, 8, 1, 256, 2, 16);
    CHECK_FP(&r, 4, 7680, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_FP(&r, 5, 8192, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_FP(&r, 6, 8704, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_EQ(r.total, 8712);
    CHECK_UNTOUCHED(&r, 7);

    /* §4.2 BC1 60x60, 6 mips (full chain: floor(log2 60) + 1 = 6):
     *   mip0 60x60: 15 block rows, RowSize 15 x 8 = 120, size 14x256+120 = 3704 @0
     *   mip1 30x30 -> 32x32: 8 rows, RowSize 64, size 1856                 @align(3704)=4096
     *   mip2 15x15 -> 16x16: 4 rows, RowSize 32, size 800                  @align(5952)=6144
     *   mip3 7x7 -> 8x8:     2 rows, RowSize 16, size 272                  @align(6944)=7168
     *   mip4 3x3 -> 4x4:     1 row,  RowSize 8,  size 8                    @align(7440)=7680
     *   mip5 1x1 -> 4x4:     1 row,  RowSize 8,  size 8                    @align(7688)=8192
     * TotalBytes = 8192 + 8 = 8200. */
    d = tex2d(DXGI_FORMAT_BC1_UNORM, 60, 60, 1, 6);
    set_ctx("%s BC1 60x60 6 mips", m);
    footprints(dev, v1, &d, 0, 6, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_BC1_UNORM, 60, 60, 1, 256, 15, 120);
    CHECK_FP(&r, 1, 4096, DXGI_FORMAT_BC1_UNORM, 32, 32, 1, 256, 8, 64);
    CHECK_FP(&r, 2, 6144, DXGI_FORMAT_BC1_UNORM, 16, 16, 1, 256, 4, 32);
    CHECK_FP(&r, 3, 7168, DXGI_FORMAT_BC1_UNORM, 8, 8, 1, 256, 2, 16);
    CHECK_FP(&r, 4, 7680, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_FP(&r, 5, 8192, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_EQ(r.total, 8200);

    /* BC7_UNORM 64x64, 3 mips: 16 bytes per 4x4 block.
     *   mip0: 16 blocks x 16 = RowSize 256, pitch 256, 16 rows, size 15x256+256 = 4096 @0
     *   mip1:  8 blocks -> RowSize 128, pitch 256, 8 rows, size 7x256+128 = 1920    @4096
     *   mip2:  4 blocks -> RowSize 64,  pitch 256, 4 rows, size 3x256+64 = 832      @align(6016)=6144
     * TotalBytes = 6144 + 832 = 6976. */
    d = tex2d(DXGI_FORMAT_BC7_UNORM, 64, 64, 1, 3);
    set_ctx("%s BC7 64x64 3 mips", m);
    footprints(dev, v1, &d, 0, 3, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_BC7_UNORM, 64, 64, 1, 256, 16, 256);
    CHECK_FP(&r, 1, 4096, DXGI_FORMAT_BC7_UNORM, 32, 32, 1, 256, 8, 128);
    CHECK_FP(&r, 2, 6144, DXGI_FORMAT_BC7_UNORM, 16, 16, 1, 256, 4, 64);
    CHECK_EQ(r.total, 6976);

    /* BC7 260x8: 65 blocks x 16 = RowSize 1040, pitch align(1040, 256) = 1280, 2 block rows,
     * size 1280 + 1040 = 2320. */
    d = tex2d(DXGI_FORMAT_BC7_UNORM, 260, 8, 1, 1);
    set_ctx("%s BC7 260x8", m);
    footprints(dev, v1, &d, 0, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_BC7_UNORM, 260, 8, 1, 1280, 2, 1040);
    CHECK_EQ(r.total, 2320);

    /* §4.3 Texture3D R16G16B16A16_FLOAT 16x8x4, 3 mips (8 bytes per texel):
     *   mip0 16x8x4: RowSize 128, pitch 256, 8 rows, size (8x4-1)x256+128 = 8064 @0
     *   mip1 8x4x2:  RowSize 64,  pitch 256, 4 rows, size (4x2-1)x256+64 = 1856  @align(8064)=8192
     *   mip2 4x2x1:  RowSize 32,  pitch 256, 2 rows, size (2-1)x256+32 = 288     @align(10048)=10240
     * TotalBytes = 10240 + 288 = 10528. */
    d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R16G16B16A16_FLOAT, 16, 8, 4, 3);
    set_ctx("%s 3D RGBA16F 16x8x4 3 mips", m);
    footprints(dev, v1, &d, 0, 3, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R16G16B16A16_FLOAT, 16, 8, 4, 256, 8, 128);
    CHECK_FP(&r, 1, 8192, DXGI_FORMAT_R16G16B16A16_FLOAT, 8, 4, 2, 256, 4, 64);
    CHECK_FP(&r, 2, 10240, DXGI_FORMAT_R16G16B16A16_FLOAT, 4, 2, 1, 256, 2, 32);
    CHECK_EQ(r.total, 10528);

    /* §4.4 NV12 64x64: 2 subresources (planes); planar -> pitch aligned to 512.
     *   plane 0 (Y):  R8_TYPELESS 64x64, RowSize 64, pitch 512, 64 rows, size 63x512+64 = 32320 @0
     *   plane 1 (UV): R8G8_TYPELESS 32x32, RowSize 64, pitch 512, 32 rows, size 31x512+64 = 15936
     *                 @align(32320) = 32768 = 64 x 512
     * TotalBytes = 32768 + 15936 = 48704. */
    d = tex2d(DXGI_FORMAT_NV12, 64, 64, 1, 1);
    set_ctx("%s NV12 64x64", m);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK_FP(&r, 1, 32768, DXGI_FORMAT_R8G8_TYPELESS, 32, 32, 1, 512, 32, 64);
    CHECK_EQ(r.total, 48704);
    CHECK_UNTOUCHED(&r, 2);

    /* §4.4 NV12 1920x1080: plane 0 pitch align(1920, 512) = 2048, size 1079x2048+1920 = 2211712;
     * plane 1 (960x540 R8G8, RowSize 960x2 = 1920, pitch 2048) @align(2211712) = 2211840
     * (= 1080 x 2048), size 539x2048+1920 = 1105792; TotalBytes = 2211840 + 1105792 = 3317632. */
    d = tex2d(DXGI_FORMAT_NV12, 1920, 1080, 1, 1);
    set_ctx("%s NV12 1920x1080", m);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8_TYPELESS, 1920, 1080, 1, 2048, 1080, 1920);
    CHECK_FP(&r, 1, 2211840, DXGI_FORMAT_R8G8_TYPELESS, 960, 540, 1, 2048, 540, 1920);
    CHECK_EQ(r.total, 3317632);

    /* P010 64x64 (footprints.md §2 plane table: R16 WxH and R16G16 W/2 x H/2):
     *   plane 0: R16_TYPELESS 64x64, RowSize 128, pitch 512, 64 rows, size 63x512+128 = 32384 @0
     *   plane 1: R16G16_TYPELESS 32x32, RowSize 32x4 = 128, pitch 512, 32 rows,
     *            size 31x512+128 = 16000 @align(32384) = 32768
     * TotalBytes = 32768 + 16000 = 48768. */
    d = tex2d(DXGI_FORMAT_P010, 64, 64, 1, 1);
    set_ctx("%s P010 64x64", m);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R16_TYPELESS, 64, 64, 1, 512, 64, 128);
    CHECK_FP(&r, 1, 32768, DXGI_FORMAT_R16G16_TYPELESS, 32, 32, 1, 512, 32, 128);
    CHECK_EQ(r.total, 48768);

    /* §4.5 D24_UNORM_S8_UINT 64x64 (planar, so pitch 512):
     *   plane 0: R32_TYPELESS 64x64, RowSize 256, pitch 512, size 63x512+256 = 32512 @0
     *   plane 1: R8_TYPELESS 64x64, RowSize 64, pitch 512, size 63x512+64 = 32320 @32768
     * TotalBytes = 32768 + 32320 = 65088. */
    d = tex2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 64, 64, 1, 1);
    set_ctx("%s D24S8 64x64", m);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R32_TYPELESS, 64, 64, 1, 512, 64, 256);
    CHECK_FP(&r, 1, 32768, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK_EQ(r.total, 65088);

    /* D24S8 64x64 with 2 mips: 4 subresources, plane-major (s = mip + plane x mips):
     *   s0 plane0 mip0: R32 64x64 RowSize 256, size 32512                            @0
     *   s1 plane0 mip1: R32 32x32 RowSize 128, pitch 512, size 31x512+128 = 16000    @32768
     *   s2 plane1 mip0: R8 64x64 RowSize 64, size 32320                              @align(48768)=49152
     *   s3 plane1 mip1: R8 32x32 RowSize 32, size 31x512+32 = 15904                  @align(81472)=81920
     * TotalBytes = 81920 + 15904 = 97824. */
    d = tex2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 64, 64, 1, 2);
    set_ctx("%s D24S8 64x64 2 mips", m);
    footprints(dev, v1, &d, 0, 4, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R32_TYPELESS, 64, 64, 1, 512, 64, 256);
    CHECK_FP(&r, 1, 32768, DXGI_FORMAT_R32_TYPELESS, 32, 32, 1, 512, 32, 128);
    CHECK_FP(&r, 2, 49152, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK_FP(&r, 3, 81920, DXGI_FORMAT_R8_TYPELESS, 32, 32, 1, 512, 32, 32);
    CHECK_EQ(r.total, 97824);

    /* D32_FLOAT_S8X24_UINT 100x30 (planes R32_TYPELESS and R8_TYPELESS, pitch 512):
     *   plane 0: RowSize 400, pitch 512, 30 rows, size 29x512+400 = 15248 @0
     *   plane 1: RowSize 100, pitch 512, 30 rows, size 29x512+100 = 14948 @align(15248) = 15360
     * TotalBytes = 15360 + 14948 = 30308. */
    d = tex2d(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 100, 30, 1, 1);
    set_ctx("%s D32S8X24 100x30", m);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R32_TYPELESS, 100, 30, 1, 512, 30, 400);
    CHECK_FP(&r, 1, 15360, DXGI_FORMAT_R8_TYPELESS, 100, 30, 1, 512, 30, 100);
    CHECK_EQ(r.total, 30308);

    /* NV11 64x64 (footprints.md §2: plane 1 is R8G8_TYPELESS ceil(W/4) x H, RowSizeInBytes from
     * ceil(W/4) = 16 elements = 32 bytes, pitch from ceil(W/2) = 32 elements = 64 -> 512):
     *   plane 0: R8_TYPELESS 64x64, RowSize 64, pitch 512, size 63x512+64 = 32320 @0
     *   plane 1: R8G8_TYPELESS 16x64, RowSize 32, pitch 512, 64 rows @align(32320) = 32768
     * TotalBytes is not checked: the last row counts RowSizeInBytes (32) in the digest's step
     * 3h but the minimum pitch (64) in d3dx12, and native is not recorded. */
    d = tex2d(DXGI_FORMAT_NV11, 64, 64, 1, 1);
    set_ctx("%s NV11 64x64", m);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK_FP(&r, 1, 32768, DXGI_FORMAT_R8G8_TYPELESS, 16, 64, 1, 512, 64, 32);

    /* V208 64x64, three R8 planes W x H, W x H/2, W x H/2 with the planar pitch 512 (d3dx12):
     *   plane 0: 64x64, RowSize 64, size 63x512+64 = 32320 @0
     *   plane 1: 64x32, RowSize 64, size 31x512+64 = 15936 @32768
     *   plane 2: 64x32, size 15936 @align(48704) = 49152
     * TotalBytes = 49152 + 15936 = 65088. */
    d = tex2d(DXGI_FORMAT_V208, 64, 64, 1, 1);
    set_ctx("%s V208 64x64", m);
    footprints(dev, v1, &d, 0, 3, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK_FP(&r, 1, 32768, DXGI_FORMAT_R8_TYPELESS, 64, 32, 1, 512, 32, 64);
    CHECK_FP(&r, 2, 49152, DXGI_FORMAT_R8_TYPELESS, 64, 32, 1, 512, 32, 64);
    CHECK_EQ(r.total, 65088);

    /* 420_OPAQUE 64x64 (footprints.md §2, native): ONE subresource, footprint format
     * R8_TYPELESS, pitch aligned to 512 (its row count and size are OPEN, not checked). */
    d = tex2d(DXGI_FORMAT_420_OPAQUE, 64, 64, 1, 1);
    set_ctx("%s 420_OPAQUE 64x64", m);
    footprints(dev, v1, &d, 0, 1, 0, &r);
    CHECK_EQ(r.layouts[0].Offset, 0);
    CHECK_EQ(r.layouts[0].Footprint.Format, DXGI_FORMAT_R8_TYPELESS);
    CHECK_EQ(r.layouts[0].Footprint.Width, 64);
    CHECK_EQ(r.layouts[0].Footprint.RowPitch, 512);
    footprints(dev, v1, &d, 0, 2, 0, &r);
    CHECK_ALL_ONES(&r, 2);

    /* §4.6 R8G8B8A8 32x32, 2 mips, array size 2; subresources mip-fastest:
     *   s0 slice0 mip0: size 8064                                    @0
     *   s1 slice0 mip1 16x16: RowSize 64, size 15x256+64 = 3904      @8192
     *   s2 slice1 mip0: size 8064                                    @align(12096)=12288
     *   s3 slice1 mip1: size 3904                                    @align(20352)=20480
     * TotalBytes = 20480 + 3904 = 24384. */
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 2, 2);
    set_ctx("%s RGBA8 32x32 2 mips array 2", m);
    footprints(dev, v1, &d, 0, 4, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
    CHECK_FP(&r, 1, 8192, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256, 16, 64);
    CHECK_FP(&r, 2, 12288, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
    CHECK_FP(&r, 3, 20480, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256, 16, 64);
    CHECK_EQ(r.total, 24384);
    CHECK_UNTOUCHED(&r, 4);

    /* §4.7 Buffer, Width 4: {UNKNOWN, 4, 1, 1, RowPitch 256}, NumRows 1, RowSize 4, TotalBytes 4. */
    d = buffer(4);
    set_ctx("%s buffer 4", m);
    footprints(dev, v1, &d, 0, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_UNKNOWN, 4, 1, 1, 256, 1, 4);
    CHECK_EQ(r.total, 4);
    CHECK_UNTOUCHED(&r, 1);

    /* Buffer, Width 1000, BaseOffset 512: pitch align(1000, 256) = 1024, Offset 512, TotalBytes 1000. */
    d = buffer(1000);
    set_ctx("%s buffer 1000 BaseOffset 512", m);
    footprints(dev, v1, &d, 0, 1, 512, &r);
    CHECK_FP(&r, 0, 512, DXGI_FORMAT_UNKNOWN, 1000, 1, 1, 1024, 1, 1000);
    CHECK_EQ(r.total, 1000);

    /* Texture1D RGBA8 width 100, array 3: each slice RowSize 400, pitch 512, 1 row, size 400;
     * offsets 0, align(400)=512, align(912)=1024; TotalBytes 1024 + 400 = 1424. */
    d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 1, 3, 1);
    set_ctx("%s 1D RGBA8 100 array 3", m);
    footprints(dev, v1, &d, 0, 3, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 1, 1, 512, 1, 400);
    CHECK_FP(&r, 1, 512, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 1, 1, 512, 1, 400);
    CHECK_FP(&r, 2, 1024, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 1, 1, 512, 1, 400);
    CHECK_EQ(r.total, 1424);

    /* R32G32B32_FLOAT (96 bits) 10x10: RowSize 120, pitch 256, size 9x256+120 = 2424. */
    d = tex2d(DXGI_FORMAT_R32G32B32_FLOAT, 10, 10, 1, 1);
    set_ctx("%s RGB32F 10x10", m);
    footprints(dev, v1, &d, 0, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R32G32B32_FLOAT, 10, 10, 1, 256, 10, 120);
    CHECK_EQ(r.total, 2424);

    /* §3: SampleDesc.Count > 1 is accepted and ignored (native: 512x512 RGBA8 4x RT).
     * RowSize 2048 = pitch, 512 rows, TotalBytes 511x2048+2048 = 1048576. */
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 512, 512, 1, 1);
    d.SampleDesc.Count = 4;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    set_ctx("%s RGBA8 512x512 4x MSAA", m);
    footprints(dev, v1, &d, 0, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 512, 512, 1, 2048, 512, 2048);
    CHECK_EQ(r.total, 1048576);
    g_ctx[0] = 0;
}

/* ---- 3. ranges, BaseOffset, NULL outputs, invalid input ----------------------------------- */

static void test_footprint_ranges(ID3D12Device *dev)
{
    static fp_result r;
    /* 4 subresources: (slice0 mip0 32x32, slice0 mip1 16x16, slice1 mip0, slice1 mip1) */
    D3D12_RESOURCE_DESC arr = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 2, 2);

    /* A subresource queried alone starts at BaseOffset (footprints.md §3 "properties"):
     * s3 = slice1 mip1 16x16 @0, TotalBytes = its size 3904. */
    set_ctx("range First 3 Num 1");
    footprints(dev, 0, &arr, 3, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256, 16, 64);
    CHECK_EQ(r.total, 3904);
    CHECK_UNTOUCHED(&r, 1);

    /* First 2 Num 2: s2 (8064 bytes) @0, s3 @align(8064) = 8192; TotalBytes 8192 + 3904 = 12096. */
    set_ctx("range First 2 Num 2");
    footprints(dev, 0, &arr, 2, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
    CHECK_FP(&r, 1, 8192, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256, 16, 64);
    CHECK_EQ(r.total, 12096);
    CHECK_UNTOUCHED(&r, 2);

    /* BC1 64x64 7 mips, First 5 Num 2: mip5 (8 bytes) @0, mip6 @align(8) = 512; TotalBytes 520. */
    D3D12_RESOURCE_DESC bc1 = tex2d(DXGI_FORMAT_BC1_UNORM, 64, 64, 1, 7);
    set_ctx("range BC1 First 5 Num 2");
    footprints(dev, 0, &bc1, 5, 2, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_FP(&r, 1, 512, DXGI_FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8);
    CHECK_EQ(r.total, 520);

    /* The stencil plane of D24S8 alone (First 1 = plane 1): R8_TYPELESS @0, size 32320. */
    D3D12_RESOURCE_DESC ds = tex2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 64, 64, 1, 1);
    set_ctx("range D24S8 plane 1 alone");
    footprints(dev, 0, &ds, 1, 1, 0, &r);
    CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 512, 64, 64);
    CHECK_EQ(r.total, 32320);

    /* Offsets are 512-aligned relative to BaseOffset, not absolutely: BaseOffset 1 gives
     * 1, 8193, 12289, 20481; TotalBytes unchanged (24384). */
    set_ctx("BaseOffset 1");
    footprints(dev, 0, &arr, 0, 4, 1, &r);
    CHECK_EQ(r.layouts[0].Offset, 1);
    CHECK_EQ(r.layouts[1].Offset, 8193);
    CHECK_EQ(r.layouts[2].Offset, 12289);
    CHECK_EQ(r.layouts[3].Offset, 20481);
    CHECK_EQ(r.total, 24384);

    /* BaseOffset is not checked; native accepts 0xFFFFFFFFFFFFFFFF and the addition wraps:
     * s0 @UINT64_MAX, s1 @UINT64_MAX + 8192 = 8191 (mod 2^64); TotalBytes 12096. */
    set_ctx("BaseOffset UINT64_MAX");
    footprints(dev, 0, &arr, 0, 2, ALL_ONES_64, &r);
    CHECK_EQ(r.layouts[0].Offset, ALL_ONES_64);
    CHECK_EQ(r.layouts[1].Offset, 8191);
    CHECK_EQ(r.total, 12096);

    /* NumSubresources 0 with a valid First: TotalBytes 0 (d3dx12 and a peer implementation;
     * native is unspecified), nothing written to the arrays. */
    set_ctx("Num 0");
    footprints(dev, 0, &arr, 0, 0, 0, &r);
    CHECK_EQ(r.total, 0);
    CHECK_UNTOUCHED(&r, 0);

    /* Any output may be NULL; the others still get the same values. */
    set_ctx("NULL outputs: only pTotalBytes");
    UINT64 total = FILL_64;
    ID3D12Device_GetCopyableFootprints(dev, &arr, 0, 4, 0, NULL, NULL, NULL, &total);
    CHECK_EQ(total, 24384);

    set_ctx("NULL outputs: only pLayouts");
    memset(&r, FILL, sizeof(r));
    ID3D12Device_GetCopyableFootprints(dev, &arr, 0, 4, 0, r.layouts, NULL, NULL, NULL);
    CHECK_EQ(r.layouts[0].Offset, 0);
    CHECK_EQ(r.layouts[1].Offset, 8192);
    CHECK_EQ(r.layouts[1].Footprint.Width, 16);
    CHECK_EQ(r.layouts[2].Offset, 12288);
    CHECK_EQ(r.layouts[3].Offset, 20480);
    CHECK_EQ(r.layouts[3].Footprint.RowPitch, 256);
    CHECK_EQ(r.layouts[4].Offset, FILL_64);

    set_ctx("NULL outputs: pNumRows and pRowSizeInBytes");
    memset(&r, FILL, sizeof(r));
    ID3D12Device_GetCopyableFootprints(dev, &arr, 0, 4, 0, NULL, r.rows, r.sizes, NULL);
    CHECK_EQ(r.rows[0], 32);
    CHECK_EQ(r.rows[1], 16);
    CHECK_EQ(r.rows[3], 16);
    CHECK_EQ(r.sizes[0], 128);
    CHECK_EQ(r.sizes[1], 64);
    CHECK_EQ(r.sizes[3], 64);
    CHECK_EQ(r.rows[4], FILL_32);
    CHECK_EQ(r.sizes[4], FILL_64);

    /* Every output NULL: nothing to write, must not crash. */
    ID3D12Device_GetCopyableFootprints(dev, &arr, 0, 4, 0, NULL, NULL, NULL, NULL);
    ID3D12Device_GetCopyableFootprints(dev, &arr, 0, 9, 0, NULL, NULL, NULL, NULL);

    /* ---- invalid input: all-ones in every given output (footprints.md §6) */
    D3D12_RESOURCE_DESC one = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1);

    /* Tex2D with 1 subresource, First 0 Num 2 (native-tested). */
    set_ctx("invalid: 1 subresource, First 0 Num 2");
    footprints(dev, 0, &one, 0, 2, 0, &r);
    CHECK_ALL_ONES(&r, 2);

    set_ctx("invalid: First 1 Num 1 of 1");
    footprints(dev, 0, &one, 1, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    set_ctx("invalid: First 4 Num 1 of 4");
    footprints(dev, 0, &arr, 4, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    /* First + Num overflowing 32 bits must not wrap into a valid range. */
    set_ctx("invalid: First 0xFFFFFFFF Num 2");
    footprints(dev, 0, &arr, 0xFFFFFFFFu, 2, 0, &r);
    CHECK_ALL_ONES(&r, 2);

    /* D24S8 has 2 subresources (planes); 3 is one too many. */
    set_ctx("invalid: D24S8 First 0 Num 3");
    footprints(dev, 0, &ds, 0, 3, 0, &r);
    CHECK_ALL_ONES(&r, 3);

    D3D12_RESOURCE_DESC bad = buffer(256);
    bad.Height = 3;
    set_ctx("invalid: buffer Height 3");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    bad = buffer(256);
    bad.DepthOrArraySize = 2;
    set_ctx("invalid: buffer DepthOrArraySize 2");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    bad = buffer(256);
    set_ctx("invalid: buffer First 1");
    footprints(dev, 0, &bad, 1, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    /* A 4 GB buffer does not fit the 32-bit footprint Width/RowPitch (debug message #1322
     * GETCOPYABLEFOOTPRINTS_UNSUPPORTED_BUFFER_WIDTH) -> invalid. */
    bad = buffer(0x100000000ull);
    set_ctx("invalid: buffer Width 2^32");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    bad = tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, DXGI_FORMAT_R8G8B8A8_UNORM, 64, 2, 1, 1);
    set_ctx("invalid: Texture1D Height 2");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    bad = tex2d(DXGI_FORMAT_UNKNOWN, 32, 32, 1, 1);
    set_ctx("invalid: Texture2D format UNKNOWN");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    bad = tex2d((DXGI_FORMAT)116, 32, 32, 1, 1);
    set_ctx("invalid: Texture2D format 116 (not a DXGI_FORMAT)");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    bad = tex((D3D12_RESOURCE_DIMENSION)0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1);
    set_ctx("invalid: Dimension UNKNOWN");
    footprints(dev, 0, &bad, 0, 1, 0, &r);
    CHECK_ALL_ONES(&r, 1);

    /* The same through GetCopyableFootprints1. */
    set_ctx("invalid (Footprints1): 1 subresource, First 0 Num 2");
    footprints(dev, 1, &one, 0, 2, 0, &r);
    CHECK_ALL_ONES(&r, 2);

    /* Invalid input with some outputs NULL: the given ones are still all-ones. */
    set_ctx("invalid with NULL outputs");
    memset(&r, FILL, sizeof(r));
    ID3D12Device_GetCopyableFootprints(dev, &one, 0, 2, 0, NULL, r.rows, NULL, NULL);
    CHECK_EQ(r.rows[0], ALL_ONES_32);
    CHECK_EQ(r.rows[1], ALL_ONES_32);
    CHECK_EQ(r.rows[2], FILL_32);
    total = 0;
    ID3D12Device_GetCopyableFootprints(dev, &one, 0, 2, 0, NULL, NULL, NULL, &total);
    CHECK_EQ(total, ALL_ONES_64);

    /* GetCopyableFootprints1: the DESC1 SamplerFeedbackMipRegion does not change footprints
     * (footprints.md §1): RGBA8 32x32 with a 4x4x1 mip region is still 8064 bytes. */
    if (g_dev8) {
        D3D12_RESOURCE_DESC1 d1 = desc1(&one);
        d1.SamplerFeedbackMipRegion.Width = 4;
        d1.SamplerFeedbackMipRegion.Height = 4;
        d1.SamplerFeedbackMipRegion.Depth = 1;
        set_ctx("GetCopyableFootprints1 with SamplerFeedbackMipRegion");
        memset(&r, FILL, sizeof(r));
        ID3D12Device8_GetCopyableFootprints1(g_dev8, &d1, 0, 1, 0, r.layouts, r.rows, r.sizes, &r.total);
        CHECK_FP(&r, 0, 0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128);
        CHECK_EQ(r.total, 8064);
    }
    g_ctx[0] = 0;
}

/* ---- 4. GetResourceAllocationInfo / 1 / 2 --------------------------------------------------- */

#define CHECK_INFO(info, size, align)            \
    do {                                         \
        CHECK_EQ((info).SizeInBytes, (size));    \
        CHECK_EQ((info).Alignment, (align));     \
    } while (0)

#define CHECK_INFO1(e, offset, align, size)      \
    do {                                         \
        CHECK_EQ((e).Offset, (offset));          \
        CHECK_EQ((e).Alignment, (align));        \
        CHECK_EQ((e).SizeInBytes, (size));       \
    } while (0)

static void test_allocation_info(ID3D12Device *dev, ID3D12Device4 *dev4)
{
    D3D12_RESOURCE_ALLOCATION_INFO info;
    D3D12_RESOURCE_DESC d;

    /* numResourceDescs 0 -> {0, 1} (native), with or without a descs pointer. */
    set_ctx("0 descs");
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 0, NULL);
    CHECK_INFO(info, 0, 1);
    d = buffer(4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 0, &d);
    CHECK_INFO(info, 0, 1);

    /* Buffers: Size = align(Width, 64 KB), Alignment 64 KB (resources.md §8). */
    set_ctx("buffer 4");
    d = buffer(4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB64, KB64);
    set_ctx("buffer 65537");
    d = buffer(65537);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, 2 * KB64, KB64);
    set_ctx("buffer 16 x 64 KB, Alignment 65536");
    d = with_alignment(buffer(16 * KB64), KB64);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, 16 * KB64, KB64);
    /* visibleMask 1 names node 0 of a single-node device: same answer. */
    set_ctx("buffer 4, visibleMask 1");
    d = buffer(4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 1, 1, &d);
    CHECK_INFO(info, KB64, KB64);
    /* A buffer may only use 0 or 64 KB: 4096 is invalid -> Size UINT64_MAX, Alignment still
     * the default 65536 (native). */
    set_ctx("buffer Alignment 4096 (invalid)");
    d = with_alignment(buffer(4), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, ALL_ONES_64, KB64);

    /* Textures. The byte count of a texture is driver dependent (resources.md §8); this
     * runtime's documented layout (crates/core/src/allocation.rs) stores subresources tightly
     * (rows back to back, subresources 16-byte aligned) and rounds up to the alignment. The
     * 32x32 RGBA8 = 32 x 32 x 4 = 4096 bytes case matches Windows hardware. */
    set_ctx("RGBA8 32x32 Alignment 4096");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB4, KB4);
    /* Alignment 0 -> 64 KB (resources.md §6.1), so the size rounds up to 65536. */
    set_ctx("RGBA8 32x32 Alignment 0");
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB64, KB64);
    set_ctx("RGBA8 32x32 Alignment 65536");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), KB64);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB64, KB64);

    /* 4 KB rule (resources.md §6.2): mip 0 of one slice needs at most 16 tiles of the 4 KB
     * shape (RGBA8 2D: 32x32). 128x128 -> 4 x 4 = 16 tiles: accepted; 128 x 128 x 4 = 65536
     * bytes -> {65536, 4096}. */
    set_ctx("RGBA8 128x128 Alignment 4096");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 128, 128, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB64, KB4);
    /* 256x256 -> 8 x 8 = 64 tiles > 16: invalid -> Size UINT64_MAX, Alignment the default
     * (64 KB) the desc would have had. */
    set_ctx("RGBA8 256x256 Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, ALL_ONES_64, KB64);
    /* 1024x1024 (1024 tiles) with any mip count: rejected (native). */
    set_ctx("RGBA8 1024x1024 3 mips Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 1024, 1024, 1, 3), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    /* The tile rule, not a byte estimate: 8x2048 RGBA8 is 65536 bytes but ceil(8/32) x
     * ceil(2048/32) = 64 tiles -> rejected. */
    set_ctx("RGBA8 8x2048 Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 8, 2048, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    /* Render targets may not use 4 KB: RT asking 4096 -> UINT64_MAX, Alignment 64 KB. */
    set_ctx("RGBA8 32x32 RT Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), KB4);
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, ALL_ONES_64, KB64);
    /* ... but the same render target with Alignment 0 is fine: {65536, 65536}. */
    set_ctx("RGBA8 32x32 RT Alignment 0");
    d.Alignment = 0;
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB64, KB64);
    /* Planar formats never get 4 KB (NV12, and the D24S8 family even without a DS flag). */
    set_ctx("NV12 64x64 Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_NV12, 64, 64, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    set_ctx("D24S8 16x16 Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 16, 16, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    /* Values other than 0, 4 KB, 64 KB (4 MB only for MSAA) are invalid. */
    set_ctx("RGBA8 32x32 Alignment 8192 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), 8192);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    set_ctx("RGBA8 32x32 Alignment 4 MB non-MSAA (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), MB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    /* MSAA (2, 4 and 8 samples): Alignment 0 takes the MSAA default, 4 MB, and the size (4 x
     * 16 KB here) is rounded up to it. */
    set_ctx("RGBA8 64x64 4x MSAA RT");
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);
    d.SampleDesc.Count = 4;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, MB4, MB4);

    /* 64KB_UNDEFINED_SWIZZLE textures take 0 or 64 KB only (resources.md §6.1); a 32x32 RGBA8
     * one is a single 64 KB tile -> {65536, 65536}; asking 4096 -> invalid. */
    set_ctx("RGBA8 32x32 64KB_UNDEFINED_SWIZZLE");
    d = tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1);
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB64, KB64);
    set_ctx("RGBA8 32x32 64KB_UNDEFINED_SWIZZLE Alignment 4096 (invalid)");
    d.Alignment = KB4;
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, ALL_ONES_64, KB64);

    /* Tight layout sums (this runtime's layout, see above):
     * RGBA8 16x16, 5 mips (16, 8, 4, 2, 1): 1024 + 256 + 64 + 16 + 4 = 1364 bytes (every
     * size a multiple of 16 but the last) -> {4096, 4096}. */
    set_ctx("RGBA8 16x16 5 mips Alignment 4096");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 5), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, KB4, KB4);
    /* RGBA8 64x64, 2 mips, array 2 (64x64 = 2x2 = 4 tiles of 32x32: 4 KB allowed):
     * per slice 16384 + 4096 = 20480, two slices 40960 = 10 x 4096 -> {40960, 4096}. */
    set_ctx("RGBA8 64x64 2 mips array 2 Alignment 4096");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 2, 2), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, 40960, KB4);
    /* 16x16 RGBA8 array 1024 with 4 KB: only mip 0 of one slice counts (1 tile) -> accepted
     * (native); 1024 slices x 1024 bytes = 1048576 -> {1048576, 4096}. */
    set_ctx("RGBA8 16x16 array 1024 Alignment 4096");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1024, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, 1048576, KB4);
    /* BC1 256x512, 10 mips, 4 KB: 4 KB BC1 tile is 128x64 texels -> 2 x 8 = 16 tiles: accepted
     * (native). Tight bytes per mip (8 bytes per 4x4 block):
     *   256x512: 64x128 blocks = 65536;  128x256: 32x64 = 16384;  64x128: 16x32 = 4096;
     *   32x64: 8x16 = 1024;  16x32: 4x8 = 256;  8x16: 2x4 = 64;  4x8: 1x2 = 16;
     *   2x4, 1x2, 1x1: 1 block = 8 each.
     * Offsets (16-aligned): 0, 65536, 81920, 86016, 87040, 87296, 87360, 87376, 87392, 87408;
     * end 87408 + 8 = 87416 -> align(87416, 4096) = 22 x 4096 = 90112. */
    set_ctx("BC1 256x512 10 mips Alignment 4096");
    d = with_alignment(tex2d(DXGI_FORMAT_BC1_UNORM, 256, 512, 1, 10), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, 90112, KB4);
    /* 260x512 BC1 -> 3 x 8 = 24 tiles: rejected (native). */
    set_ctx("BC1 260x512 Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_BC1_UNORM, 260, 512, 1, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    /* 3D RGBA8 16x16x16: 4 KB 3D 32-bit tile 16x8x8 -> 1 x 2 x 2 = 4 tiles: accepted;
     * 16 x 16 x 16 x 4 = 16384 bytes -> {16384, 4096}. */
    set_ctx("3D RGBA8 16x16x16 Alignment 4096");
    d = with_alignment(tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 16, 1), KB4);
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 1, &d);
    CHECK_INFO(info, 16384, KB4);

    /* Several descs: one heap region laid out like a C struct in array order, never reordered
     * (resources.md §8; the docs' 64 KB / 4 MB / 64 KB example needs MSAA, so 4 KB textures
     * and a 64 KB buffer play the small and large roles here).
     *   A = RGBA8 32x32 @4096 -> {4096, 4096};  B = buffer 65536 -> {65536, 65536}
     * [A, B, A]: offsets 0, align(4096, 64K) = 65536, 65536 + 65536 = 131072 (4 KB aligned);
     *            end 131072 + 4096 = 135168 -> Size align(135168, 64K) = 196608, Alignment 65536.
     * [B, A, A]: offsets 0, 65536, 69632; end 73728 -> Size 131072.
     * [A, A]:    offsets 0, 4096; end 8192 -> {8192, 4096}. */
    D3D12_RESOURCE_DESC a = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), KB4);
    D3D12_RESOURCE_DESC b = buffer(KB64);
    D3D12_RESOURCE_DESC aba[3] = {a, b, a}, baa[3] = {b, a, a}, aa[2] = {a, a};
    set_ctx("multi [A 4K tex, B 64K buffer, A]");
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 3, aba);
    CHECK_INFO(info, 196608, KB64);
    set_ctx("multi [B, A, A]");
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 3, baa);
    CHECK_INFO(info, 131072, KB64);
    set_ctx("multi [A, A]");
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 2, aa);
    CHECK_INFO(info, 8192, KB4);
    /* An invalid desc anywhere -> SizeInBytes UINT64_MAX. */
    D3D12_RESOURCE_DESC inv = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1), KB4);
    D3D12_RESOURCE_DESC a_inv_b[3] = {a, inv, b};
    set_ctx("multi [A, invalid, B]");
    info = ID3D12Device_GetResourceAllocationInfo(dev, 0, 3, a_inv_b);
    CHECK_EQ(info.SizeInBytes, ALL_ONES_64);

    /* GetResourceAllocationInfo1: same return value plus per-desc {Offset, Alignment,
     * SizeInBytes} with Offset the C-struct placement above. */
    if (dev4) {
        D3D12_RESOURCE_ALLOCATION_INFO1 e[4];
        memset(e, FILL, sizeof(e));
        set_ctx("Info1 [A, B, A]");
        info = ID3D12Device4_GetResourceAllocationInfo1(dev4, 0, 3, aba, e);
        CHECK_INFO(info, 196608, KB64);
        CHECK_INFO1(e[0], 0, KB4, KB4);
        CHECK_INFO1(e[1], KB64, KB64, KB64);
        CHECK_INFO1(e[2], 131072, KB4, KB4);
        CHECK_EQ(e[3].Offset, FILL_64); /* only numResourceDescs entries are written */

        memset(e, FILL, sizeof(e));
        set_ctx("Info1 [B, A, A]");
        info = ID3D12Device4_GetResourceAllocationInfo1(dev4, 0, 3, baa, e);
        CHECK_INFO(info, 131072, KB64);
        CHECK_INFO1(e[0], 0, KB64, KB64);
        CHECK_INFO1(e[1], KB64, KB4, KB4);
        CHECK_INFO1(e[2], 69632, KB4, KB4);

        /* The per-desc array is optional. */
        set_ctx("Info1 [A, B, A] NULL array");
        info = ID3D12Device4_GetResourceAllocationInfo1(dev4, 0, 3, aba, NULL);
        CHECK_INFO(info, 196608, KB64);
        set_ctx("Info1 0 descs");
        info = ID3D12Device4_GetResourceAllocationInfo1(dev4, 0, 0, NULL, NULL);
        CHECK_INFO(info, 0, 1);
        set_ctx("Info1 [A, invalid, B]");
        info = ID3D12Device4_GetResourceAllocationInfo1(dev4, 0, 3, a_inv_b, NULL);
        CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    }

    /* GetResourceAllocationInfo2 (ID3D12Device8, D3D12_RESOURCE_DESC1): same rules. */
    if (g_dev8) {
        D3D12_RESOURCE_DESC1 a1 = desc1(&a), b1 = desc1(&b), inv1 = desc1(&inv);
        D3D12_RESOURCE_DESC1 aba1[3] = {a1, b1, a1}, ainv1[2] = {a1, inv1};
        D3D12_RESOURCE_ALLOCATION_INFO1 e[4];
        set_ctx("Info2 single A");
        info = ID3D12Device8_GetResourceAllocationInfo2(g_dev8, 0, 1, &a1, NULL);
        CHECK_INFO(info, KB4, KB4);
        memset(e, FILL, sizeof(e));
        set_ctx("Info2 [A, B, A]");
        info = ID3D12Device8_GetResourceAllocationInfo2(g_dev8, 0, 3, aba1, e);
        CHECK_INFO(info, 196608, KB64);
        CHECK_INFO1(e[0], 0, KB4, KB4);
        CHECK_INFO1(e[1], KB64, KB64, KB64);
        CHECK_INFO1(e[2], 131072, KB4, KB4);
        CHECK_EQ(e[3].Offset, FILL_64);
        set_ctx("Info2 0 descs");
        info = ID3D12Device8_GetResourceAllocationInfo2(g_dev8, 0, 0, NULL, NULL);
        CHECK_INFO(info, 0, 1);
        set_ctx("Info2 [A, invalid]");
        info = ID3D12Device8_GetResourceAllocationInfo2(g_dev8, 0, 2, ainv1, NULL);
        CHECK_EQ(info.SizeInBytes, ALL_ONES_64);
    }
    g_ctx[0] = 0;
}

/* A desc GetResourceAllocationInfo accepts with 4 KB is one CreateCommittedResource accepts, and
 * GetDesc keeps the requested 4096 (resources.md §6.1, native); the rejected one is refused. */
static void test_committed_alignment(ID3D12Device *dev)
{
    D3D12_HEAP_PROPERTIES heap;
    memset(&heap, 0, sizeof(heap));
    heap.Type = D3D12_HEAP_TYPE_DEFAULT;
    D3D12_RESOURCE_DESC d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1), KB4);
    ID3D12Resource *res = NULL;
    set_ctx("CreateCommittedResource RGBA8 32x32 Alignment 4096");
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &heap, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON,
                                                  NULL, &IID_ID3D12Resource, (void **)&res),
             S_OK);
    if (res) {
        D3D12_RESOURCE_DESC got = ID3D12Resource_GetDesc(res);
        CHECK_EQ(got.Alignment, KB4);
        CHECK_EQ(got.Width, 32);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }
    set_ctx("CreateCommittedResource RGBA8 256x256 Alignment 4096 (invalid)");
    d = with_alignment(tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 256, 256, 1, 1), KB4);
    res = (ID3D12Resource *)(uintptr_t)0x5a5a5a5a;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &heap, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON,
                                                  NULL, &IID_ID3D12Resource, (void **)&res),
             E_INVALIDARG);
    CHECK(res == NULL);
    g_ctx[0] = 0;
}

/* ---- 5. CheckFeatureSupport: FORMAT_SUPPORT, MULTISAMPLE_QUALITY_LEVELS, FORMAT_INFO -------- */

/* Today's runtime copies and maps resources, creates and clears render-target and depth-stencil
 * views, but runs no shaders and has no MSAA (crates/core/src/caps.rs Caps::today):
 * FORMAT_SUPPORT reports the texture dimensions, MIP and CAST_WITHIN_BIT_LAYOUT of each format's
 * class, RENDER_TARGET / DEPTH_STENCIL where the class has them, TILED (tiled resources tier 3),
 * and no buffer / shader / blending / MSAA / UAV / video / display bits. */
#define S1_TEX123 (D3D12_FORMAT_SUPPORT1_TEXTURE1D | D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D)
#define S1_COPY (D3D12_FORMAT_SUPPORT1_MIP | D3D12_FORMAT_SUPPORT1_CAST_WITHIN_BIT_LAYOUT)

static void check_format_support_at(const char *file, int line, ID3D12Device *dev, const char *name,
                                    DXGI_FORMAT format, HRESULT hr, UINT s1, UINT s2)
{
    D3D12_FEATURE_DATA_FORMAT_SUPPORT fs;
    memset(&fs, FILL, sizeof(fs));
    fs.Format = format;
    set_ctx("FORMAT_SUPPORT %s", name);
    check_hr(file, line, "CheckFeatureSupport(FORMAT_SUPPORT)",
             ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs, sizeof(fs)), hr);
    check_u64(file, line, "Format (in) unchanged", fs.Format, format);
    check_u64(file, line, "Support1", fs.Support1, s1);
    check_u64(file, line, "Support2", fs.Support2, s2);
    g_ctx[0] = 0;
}
#define CHECK_FORMAT_SUPPORT(dev, format, hr, s1, s2) \
    check_format_support_at(__FILE__, __LINE__, (dev), #format, (DXGI_FORMAT)(format), (hr), (s1), (s2))

static void test_format_features(ID3D12Device *dev)
{
    const UINT tiled = D3D12_FORMAT_SUPPORT2_TILED;

    /* Options: TiledResourcesTier 3 (reserved resources exist). */
    D3D12_FEATURE_DATA_D3D12_OPTIONS opt;
    memset(&opt, 0, sizeof(opt));
    set_ctx("OPTIONS");
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS, &opt, sizeof(opt)), S_OK);
    CHECK_EQ(opt.TiledResourcesTier, D3D12_TILED_RESOURCES_TIER_3);
    g_ctx[0] = 0;

    /* FORMAT_SUPPORT (features.md §3.4), today's masks. */
    /* Render targets also multisample and resolve; depth buffers multisample. */
    const UINT rt = D3D12_FORMAT_SUPPORT1_RENDER_TARGET | D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RENDERTARGET |
                    D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RESOLVE | D3D12_FORMAT_SUPPORT1_MULTISAMPLE_LOAD,
               ds = D3D12_FORMAT_SUPPORT1_DEPTH_STENCIL | D3D12_FORMAT_SUPPORT1_MULTISAMPLE_RENDERTARGET;
    /* Shaders execute: cube textures, loads, sampling and gathers; buffers and vertex buffers;
     * blending in draws; typed UAVs with typed loads and stores; Texture2DMS loads (with the
     * render-target bits); SO_BUFFER for the formats of 32-bit channels (stream output runs).
     * No DISPLAY (no swap chains). */
    const UINT cube = D3D12_FORMAT_SUPPORT1_TEXTURECUBE,
               read = D3D12_FORMAT_SUPPORT1_SHADER_LOAD | D3D12_FORMAT_SUPPORT1_SHADER_SAMPLE |
                      D3D12_FORMAT_SUPPORT1_SHADER_GATHER,
               vb = D3D12_FORMAT_SUPPORT1_BUFFER | D3D12_FORMAT_SUPPORT1_IA_VERTEX_BUFFER,
               blend = D3D12_FORMAT_SUPPORT1_BLENDABLE, uav = D3D12_FORMAT_SUPPORT1_TYPED_UNORDERED_ACCESS_VIEW,
               so = D3D12_FORMAT_SUPPORT1_SO_BUFFER,
               uavrw = D3D12_FORMAT_SUPPORT2_UAV_TYPED_LOAD | D3D12_FORMAT_SUPPORT2_UAV_TYPED_STORE;
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_R8G8B8A8_UNORM, S_OK, S1_TEX123 | cube | S1_COPY | rt | read | vb | blend | uav,
                         tiled | uavrw);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_B8G8R8A8_UNORM, S_OK, S1_TEX123 | cube | S1_COPY | rt | read | vb | blend, tiled);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_R8G8B8A8_TYPELESS, S_OK, S1_TEX123 | cube | S1_COPY, tiled);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_R32G32B32A32_FLOAT, S_OK,
                         S1_TEX123 | cube | S1_COPY | rt | read | vb | blend | uav | so, tiled | uavrw);
    /* 96-bit: no tiled support, no typed UAV. */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_R32G32B32_FLOAT, S_OK,
                         S1_TEX123 | cube | S1_COPY | rt | read | vb | blend | so, 0);
    /* BC: 2D, 3D and cube, no 1D; read by shaders. */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_BC1_UNORM, S_OK,
                         D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D | cube | S1_COPY | read,
                         tiled);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_BC7_UNORM, S_OK,
                         D3D12_FORMAT_SUPPORT1_TEXTURE2D | D3D12_FORMAT_SUPPORT1_TEXTURE3D | cube | S1_COPY | read,
                         tiled);
    /* Depth: 1D, 2D and cube, no 3D (features.md §3.4 D32_FLOAT), DEPTH_STENCIL; not sampled as
     * a depth format (its SRVs are R32_FLOAT / R24_UNORM_X8_TYPELESS). */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_D32_FLOAT, S_OK,
                         D3D12_FORMAT_SUPPORT1_TEXTURE1D | D3D12_FORMAT_SUPPORT1_TEXTURE2D | cube | S1_COPY | ds, tiled);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_D24_UNORM_S8_UINT, S_OK,
                         D3D12_FORMAT_SUPPORT1_TEXTURE1D | D3D12_FORMAT_SUPPORT1_TEXTURE2D | cube | S1_COPY | ds, 0);
    /* NV12: a 2D texture, nothing else without video. */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_NV12, S_OK, D3D12_FORMAT_SUPPORT1_TEXTURE2D, 0);
    /* UNKNOWN -> S_OK, Support1 BUFFER (native); Support2 TILED (tiled buffers exist). */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_UNKNOWN, S_OK, D3D12_FORMAT_SUPPORT1_BUFFER, tiled);
    /* Known formats the device does not support: E_FAIL with both masks zeroed. */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_R1_UNORM, E_FAIL, 0, 0);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_AI44, E_FAIL, 0, 0);
    /* Required packed/video formats: 2D textures, nothing decoded (all in conf_resources.c). */
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_YUY2, S_OK, D3D12_FORMAT_SUPPORT1_TEXTURE2D, 0);
    CHECK_FORMAT_SUPPORT(dev, DXGI_FORMAT_420_OPAQUE, S_OK, D3D12_FORMAT_SUPPORT1_TEXTURE2D, 0);
    CHECK_FORMAT_SUPPORT(dev, 116, E_FAIL, 0, 0); /* between the enum's members: unsupported */
    /* Values past the last format: E_INVALIDARG, outputs left untouched. */
    CHECK_FORMAT_SUPPORT(dev, 200, E_INVALIDARG, FILL_32, FILL_32);
    CHECK_FORMAT_SUPPORT(dev, 0xFFFFFFFFu, E_INVALIDARG, FILL_32, FILL_32);

    D3D12_FEATURE_DATA_FORMAT_SUPPORT fs = {DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0};
    set_ctx("FORMAT_SUPPORT size");
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs, sizeof(fs) - 1), E_INVALIDARG);
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_SUPPORT, &fs, sizeof(fs) + 1), E_INVALIDARG);

    /* MULTISAMPLE_QUALITY_LEVELS (features.md §3.5). */
    D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS ms;
    static const struct
    {
        const char *name;
        DXGI_FORMAT format;
        UINT count;
        HRESULT hr;
        UINT levels;
    } msaa[] = {
        /* SampleCount 1: 1 level for every format (native). */
        {"RGBA8 x1", DXGI_FORMAT_R8G8B8A8_UNORM, 1, S_OK, 1},
        {"UNKNOWN x1", DXGI_FORMAT_UNKNOWN, 1, S_OK, 1},
        {"D32_FLOAT x1", DXGI_FORMAT_D32_FLOAT, 1, S_OK, 1},
        {"BC1 x1", DXGI_FORMAT_BC1_UNORM, 1, S_OK, 1},
        /* MSAA: one quality level for 2, 4 and 8 samples of render-target and depth formats. */
        {"RGBA8 x2", DXGI_FORMAT_R8G8B8A8_UNORM, 2, S_OK, 1},
        {"RGBA8 x4", DXGI_FORMAT_R8G8B8A8_UNORM, 4, S_OK, 1},
        {"RGBA8 x8", DXGI_FORMAT_R8G8B8A8_UNORM, 8, S_OK, 1},
        {"D32_FLOAT x4", DXGI_FORMAT_D32_FLOAT, 4, S_OK, 1},
        {"BC1 x4", DXGI_FORMAT_BC1_UNORM, 4, S_OK, 0},
        /* Unsupported counts and UNKNOWN: S_OK, 0 levels (native). */
        {"RGBA8 x3", DXGI_FORMAT_R8G8B8A8_UNORM, 3, S_OK, 0},
        {"RGBA8 x32", DXGI_FORMAT_R8G8B8A8_UNORM, 32, S_OK, 0},
        {"UNKNOWN x4", DXGI_FORMAT_UNKNOWN, 4, S_OK, 0},
        /* SampleCount 0: E_FAIL with NumQualityLevels 0 (native). */
        {"RGBA8 x0", DXGI_FORMAT_R8G8B8A8_UNORM, 0, E_FAIL, 0},
        {"UNKNOWN x0", DXGI_FORMAT_UNKNOWN, 0, E_FAIL, 0},
    };
    for (size_t i = 0; i < sizeof(msaa) / sizeof(msaa[0]); i++) {
        memset(&ms, 0, sizeof(ms));
        ms.Format = msaa[i].format;
        ms.SampleCount = msaa[i].count;
        ms.Flags = D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_NONE;
        ms.NumQualityLevels = 77;
        set_ctx("MULTISAMPLE_QUALITY_LEVELS %s", msaa[i].name);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &ms, sizeof(ms)),
                 msaa[i].hr);
        CHECK_EQ(ms.NumQualityLevels, msaa[i].levels);
        CHECK_EQ(ms.Flags, D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_NONE);
        CHECK_EQ(ms.SampleCount, msaa[i].count);
    }
    /* Count 1 with the TILED_RESOURCE flag: still 1 level, Flags kept. */
    memset(&ms, 0, sizeof(ms));
    ms.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    ms.SampleCount = 1;
    ms.Flags = D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_TILED_RESOURCE;
    set_ctx("MULTISAMPLE_QUALITY_LEVELS RGBA8 x1 TILED_RESOURCE");
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &ms, sizeof(ms)), S_OK);
    CHECK_EQ(ms.NumQualityLevels, 1);
    CHECK_EQ(ms.Flags, D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_TILED_RESOURCE);

    /* An unknown format value: E_INVALIDARG. */
    memset(&ms, 0, sizeof(ms));
    ms.Format = (DXGI_FORMAT)116;
    ms.SampleCount = 1;
    set_ctx("MULTISAMPLE_QUALITY_LEVELS format 116");
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS, &ms, sizeof(ms)),
             E_INVALIDARG);

    /* FORMAT_INFO (features.md §3.6, resources.md §10). */
    static const struct
    {
        const char *name;
        DXGI_FORMAT format;
        HRESULT hr;
        UINT8 planes;
    } fi[] = {
        {"UNKNOWN", DXGI_FORMAT_UNKNOWN, S_OK, 1},
        {"R8G8B8A8_UNORM", DXGI_FORMAT_R8G8B8A8_UNORM, S_OK, 1},
        {"BC1_UNORM", DXGI_FORMAT_BC1_UNORM, S_OK, 1},
        {"D32_FLOAT", DXGI_FORMAT_D32_FLOAT, S_OK, 1},
        {"D16_UNORM", DXGI_FORMAT_D16_UNORM, S_OK, 1},
        {"YUY2", DXGI_FORMAT_YUY2, S_OK, 1},
        {"D24_UNORM_S8_UINT", DXGI_FORMAT_D24_UNORM_S8_UINT, S_OK, 2},
        {"R24G8_TYPELESS", DXGI_FORMAT_R24G8_TYPELESS, S_OK, 2},
        {"D32_FLOAT_S8X24_UINT", DXGI_FORMAT_D32_FLOAT_S8X24_UINT, S_OK, 2},
        {"R32G8X24_TYPELESS", DXGI_FORMAT_R32G8X24_TYPELESS, S_OK, 2},
        {"NV12", DXGI_FORMAT_NV12, S_OK, 2},
        {"P010", DXGI_FORMAT_P010, S_OK, 2},
        {"P016", DXGI_FORMAT_P016, S_OK, 2},
        {"NV11", DXGI_FORMAT_NV11, S_OK, 2},
        {"V208", DXGI_FORMAT_V208, S_OK, 3},
        {"V408", DXGI_FORMAT_V408, S_OK, 3},
        {"P208", DXGI_FORMAT_P208, S_OK, 2},
        /* d3dx12 GetPlaneCount: 1 (not in the 2-plane list although flagged planar) */
        {"420_OPAQUE", DXGI_FORMAT_420_OPAQUE, S_OK, 1},
        /* Not a D3D12 format / not a DXGI_FORMAT: E_INVALIDARG, PlaneCount untouched. */
        {"R1_UNORM", DXGI_FORMAT_R1_UNORM, E_INVALIDARG, 0xCD},
        {"116", (DXGI_FORMAT)116, E_INVALIDARG, 0xCD},
        {"0xFFFFFFFF", (DXGI_FORMAT)0xFFFFFFFFu, E_INVALIDARG, 0xCD},
    };
    for (size_t i = 0; i < sizeof(fi) / sizeof(fi[0]); i++) {
        D3D12_FEATURE_DATA_FORMAT_INFO info;
        memset(&info, FILL, sizeof(info));
        info.Format = fi[i].format;
        set_ctx("FORMAT_INFO %s", fi[i].name);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FORMAT_INFO, &info, sizeof(info)), fi[i].hr);
        CHECK_EQ(info.PlaneCount, fi[i].planes);
        CHECK_EQ(info.Format, fi[i].format); /* left as passed */
    }
    g_ctx[0] = 0;
}

/* ---- 6. GetResourceTiling on reserved resources ------------------------------------------- */

static ID3D12Resource *reserved(ID3D12Device *dev, const D3D12_RESOURCE_DESC *d)
{
    ID3D12Resource *res = NULL;
    CHECK_HR(ID3D12Device_CreateReservedResource(dev, d, D3D12_RESOURCE_STATE_COMMON, NULL, &IID_ID3D12Resource,
                                                 (void **)&res),
             S_OK);
    return res;
}

static D3D12_RESOURCE_DESC tiled2d(DXGI_FORMAT format, UINT64 w, UINT h, UINT16 array, UINT16 mips)
{
    D3D12_RESOURCE_DESC d = tex2d(format, w, h, array, mips);
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    return d;
}

typedef struct tiling_result
{
    UINT num_tiles;
    D3D12_PACKED_MIP_INFO packed;
    D3D12_TILE_SHAPE shape;
    UINT num_sub;
    D3D12_SUBRESOURCE_TILING sub[64];
} tiling_result;

static void tiling(ID3D12Device *dev, ID3D12Resource *res, UINT capacity, UINT first, tiling_result *t)
{
    memset(t, FILL, sizeof(*t));
    t->num_sub = capacity;
    ID3D12Device_GetResourceTiling(dev, res, &t->num_tiles, &t->packed, &t->shape, &t->num_sub, first, t->sub);
}

static void check_shape_at(const char *file, int line, const tiling_result *t, UINT w, UINT h, UINT d)
{
    check_u64(file, line, "shape.WidthInTexels", t->shape.WidthInTexels, w);
    check_u64(file, line, "shape.HeightInTexels", t->shape.HeightInTexels, h);
    check_u64(file, line, "shape.DepthInTexels", t->shape.DepthInTexels, d);
}
#define CHECK_SHAPE(t, w, h, d) check_shape_at(__FILE__, __LINE__, (t), (w), (h), (d))

static void check_sub_at(const char *file, int line, const D3D12_SUBRESOURCE_TILING *s, unsigned i, UINT w, UINT h,
                         UINT d, UINT start)
{
    char what[64];
    snprintf(what, sizeof(what), "sub[%u].WidthInTiles", i);
    check_u64(file, line, what, s[i].WidthInTiles, w);
    snprintf(what, sizeof(what), "sub[%u].HeightInTiles", i);
    check_u64(file, line, what, s[i].HeightInTiles, h);
    snprintf(what, sizeof(what), "sub[%u].DepthInTiles", i);
    check_u64(file, line, what, s[i].DepthInTiles, d);
    snprintf(what, sizeof(what), "sub[%u].StartTileIndexInOverallResource", i);
    check_u64(file, line, what, s[i].StartTileIndexInOverallResource, start);
}
#define CHECK_SUB(t, i, w, h, d, start) check_sub_at(__FILE__, __LINE__, (t)->sub, (i), (w), (h), (d), (start))
#define CHECK_SUB_UNTOUCHED(t, i) \
    check_sub_at(__FILE__, __LINE__, (t)->sub, (i), FILL_32, FILL_16, FILL_16, FILL_32)

static void test_tiling(ID3D12Device *dev)
{
    static tiling_result t;
    ID3D12Resource *res;
    D3D12_RESOURCE_DESC d;

    /* Standard 64 KB tile shapes (resources.md §6.4, heaps-and-memory.md §8.2): one mip that
     * exactly fills one tile -> 1 tile, 1 standard mip, nothing packed. */
    static const struct
    {
        const char *name;
        DXGI_FORMAT format;
        UINT w, h;
    } one_tile[] = {
        {"RGBA8 128x128", DXGI_FORMAT_R8G8B8A8_UNORM, 128, 128},
        {"R8 256x256", DXGI_FORMAT_R8_UNORM, 256, 256},
        {"BC1 512x256", DXGI_FORMAT_BC1_UNORM, 512, 256},
        {"R8G8 256x128", DXGI_FORMAT_R8G8_UNORM, 256, 128},
        {"RGBA16 128x64", DXGI_FORMAT_R16G16B16A16_FLOAT, 128, 64},
        {"RGBA32F 64x64", DXGI_FORMAT_R32G32B32A32_FLOAT, 64, 64},
        {"BC7 256x256", DXGI_FORMAT_BC7_UNORM, 256, 256},
    };
    for (size_t i = 0; i < sizeof(one_tile) / sizeof(one_tile[0]); i++) {
        set_ctx("GetResourceTiling %s", one_tile[i].name);
        d = tiled2d(one_tile[i].format, one_tile[i].w, one_tile[i].h, 1, 1);
        res = reserved(dev, &d);
        if (!res)
            continue;
        tiling(dev, res, 4, 0, &t);
        CHECK_EQ(t.num_tiles, 1);
        CHECK_SHAPE(&t, one_tile[i].w, one_tile[i].h, 1);
        CHECK_EQ(t.packed.NumStandardMips, 1);
        CHECK_EQ(t.packed.NumPackedMips, 0);
        CHECK_EQ(t.packed.NumTilesForPackedMips, 0);
        CHECK_EQ(t.packed.StartTileIndexInOverallResource, 0);
        CHECK_EQ(t.num_sub, 1);
        CHECK_SUB(&t, 0, 1, 1, 1, 0);
        CHECK_SUB_UNTOUCHED(&t, 1);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }

    /* RGBA8 512x512, 10 mips (native example): tile 128x128.
     *   mip0 512: 4x4 = 16 tiles @0;  mip1 256: 2x2 = 4 @16;  mip2 128: 1x1 = 1 @20;
     *   mip3 64 < 128 -> packed from here: NumStandardMips 3, NumPackedMips 7, first packed
     *   tile 16 + 4 + 1 = 21, NumTilesForPackedMips >= 1, total = 21 + packed tiles.
     * Packed subresource tilings: {0, 0, 0, D3D12_PACKED_TILE}. */
    set_ctx("GetResourceTiling RGBA8 512x512 10 mips");
    d = tiled2d(DXGI_FORMAT_R8G8B8A8_UNORM, 512, 512, 1, 10);
    res = reserved(dev, &d);
    if (res) {
        tiling(dev, res, 64, 0, &t);
        CHECK_SHAPE(&t, 128, 128, 1);
        CHECK_EQ(t.packed.NumStandardMips, 3);
        CHECK_EQ(t.packed.NumPackedMips, 7);
        CHECK_EQ(t.packed.StartTileIndexInOverallResource, 21);
        CHECK(t.packed.NumTilesForPackedMips >= 1);
        CHECK_EQ(t.num_tiles, 21 + t.packed.NumTilesForPackedMips);
        CHECK_EQ(t.num_sub, 10);
        CHECK_SUB(&t, 0, 4, 4, 1, 0);
        CHECK_SUB(&t, 1, 2, 2, 1, 16);
        CHECK_SUB(&t, 2, 1, 1, 1, 20);
        for (unsigned m = 3; m < 10; m++)
            CHECK_SUB(&t, m, 0, 0, 0, D3D12_PACKED_TILE);
        CHECK_SUB_UNTOUCHED(&t, 10);

        /* pNumSubresourceTilings in/out (heaps-and-memory.md §8.3, native):
         * First 10 of 10 -> 0 written, array untouched. */
        set_ctx("GetResourceTiling First 10 of 10");
        tiling(dev, res, 64, 10, &t);
        CHECK_EQ(t.num_sub, 0);
        CHECK_SUB_UNTOUCHED(&t, 0);
        CHECK_EQ(t.packed.StartTileIndexInOverallResource, 21);
        /* First 2, capacity 64 -> min(64, 10 - 2) = 8 written: mip2 then 7 packed mips. */
        set_ctx("GetResourceTiling First 2 capacity 64");
        tiling(dev, res, 64, 2, &t);
        CHECK_EQ(t.num_sub, 8);
        CHECK_SUB(&t, 0, 1, 1, 1, 20);
        CHECK_SUB(&t, 1, 0, 0, 0, D3D12_PACKED_TILE);
        CHECK_SUB(&t, 7, 0, 0, 0, D3D12_PACKED_TILE);
        CHECK_SUB_UNTOUCHED(&t, 8);
        /* Capacity 1 -> exactly one entry, the rest of the caller's array untouched. */
        set_ctx("GetResourceTiling capacity 1");
        tiling(dev, res, 1, 1, &t);
        CHECK_EQ(t.num_sub, 1);
        CHECK_SUB(&t, 0, 2, 2, 1, 16);
        CHECK_SUB_UNTOUCHED(&t, 1);
        /* Capacity 0 -> nothing written. */
        set_ctx("GetResourceTiling capacity 0");
        tiling(dev, res, 0, 0, &t);
        CHECK_EQ(t.num_sub, 0);
        CHECK_SUB_UNTOUCHED(&t, 0);
        /* pNumSubresourceTilings NULL -> the tilings array is ignored; the other outputs are
         * still written. */
        set_ctx("GetResourceTiling pNumSubresourceTilings NULL");
        memset(&t, FILL, sizeof(t));
        ID3D12Device_GetResourceTiling(dev, res, &t.num_tiles, &t.packed, &t.shape, NULL, 0, t.sub);
        CHECK_SUB_UNTOUCHED(&t, 0);
        CHECK_EQ(t.packed.NumStandardMips, 3);
        CHECK_EQ(t.shape.WidthInTexels, 128);
        CHECK(t.num_tiles != FILL_32);
        /* Only pNumTilesForEntireResource. */
        set_ctx("GetResourceTiling only pNumTilesForEntireResource");
        UINT n = 0;
        ID3D12Device_GetResourceTiling(dev, res, &n, NULL, NULL, NULL, 0, NULL);
        CHECK(n >= 22);
        /* Everything NULL: a no-op. */
        ID3D12Device_GetResourceTiling(dev, res, NULL, NULL, NULL, NULL, 0, NULL);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }

    /* RGBA8 512x512, 3 mips, array 4 (native): mips 512/256/128 are all whole tiles, nothing
     * packed; 16 + 4 + 1 = 21 tiles per slice, 4 slices -> 84 tiles; 3 x 4 = 12 subresource
     * tilings; slice a, mip m starts at 21a + {0, 16, 20}[m]. */
    set_ctx("GetResourceTiling RGBA8 512x512 3 mips array 4");
    d = tiled2d(DXGI_FORMAT_R8G8B8A8_UNORM, 512, 512, 4, 3);
    res = reserved(dev, &d);
    if (res) {
        tiling(dev, res, 64, 0, &t);
        CHECK_EQ(t.num_tiles, 84);
        CHECK_SHAPE(&t, 128, 128, 1);
        CHECK_EQ(t.packed.NumStandardMips, 3);
        CHECK_EQ(t.packed.NumPackedMips, 0);
        CHECK_EQ(t.packed.NumTilesForPackedMips, 0);
        CHECK_EQ(t.packed.StartTileIndexInOverallResource, 0);
        CHECK_EQ(t.num_sub, 12);
        CHECK_SUB(&t, 0, 4, 4, 1, 0);
        CHECK_SUB(&t, 2, 1, 1, 1, 20);
        CHECK_SUB(&t, 3, 4, 4, 1, 21);
        CHECK_SUB(&t, 4, 2, 2, 1, 37);
        CHECK_SUB(&t, 8, 1, 1, 1, 62);
        CHECK_SUB(&t, 11, 1, 1, 1, 83);
        CHECK_SUB_UNTOUCHED(&t, 12);
        /* First 10, capacity 64 -> 2 written (slice 3 mips 1 and 2). */
        set_ctx("GetResourceTiling array First 10");
        tiling(dev, res, 64, 10, &t);
        CHECK_EQ(t.num_sub, 2);
        CHECK_SUB(&t, 0, 2, 2, 1, 79);
        CHECK_SUB(&t, 1, 1, 1, 1, 83);
        CHECK_SUB_UNTOUCHED(&t, 2);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }

    /* 64x64 RGBA8, 1 mip: smaller than a tile -> fully packed: 0 standard mips, 1 packed mip
     * in 1 tile, first packed tile 0 (heaps-and-memory.md §8.3, native). */
    set_ctx("GetResourceTiling RGBA8 64x64 (fully packed)");
    d = tiled2d(DXGI_FORMAT_R8G8B8A8_UNORM, 64, 64, 1, 1);
    res = reserved(dev, &d);
    if (res) {
        tiling(dev, res, 4, 0, &t);
        CHECK_EQ(t.num_tiles, 1);
        CHECK_EQ(t.packed.NumStandardMips, 0);
        CHECK_EQ(t.packed.NumPackedMips, 1);
        CHECK_EQ(t.packed.NumTilesForPackedMips, 1);
        CHECK_EQ(t.packed.StartTileIndexInOverallResource, 0);
        CHECK_EQ(t.num_sub, 1);
        CHECK_SUB(&t, 0, 0, 0, 0, D3D12_PACKED_TILE);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }

    /* 3D RGBA32F 64x64x64, 3 mips (native): tile 16x16x16; 4x4x4 + 2x2x2 + 1 = 73 tiles. */
    set_ctx("GetResourceTiling 3D RGBA32F 64^3 3 mips");
    d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, DXGI_FORMAT_R32G32B32A32_FLOAT, 64, 64, 64, 3);
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    res = reserved(dev, &d);
    if (res) {
        tiling(dev, res, 64, 0, &t);
        CHECK_EQ(t.num_tiles, 73);
        CHECK_SHAPE(&t, 16, 16, 16);
        CHECK_EQ(t.packed.NumStandardMips, 3);
        CHECK_EQ(t.packed.NumPackedMips, 0);
        CHECK_EQ(t.num_sub, 3);
        CHECK_SUB(&t, 0, 4, 4, 4, 0);
        CHECK_SUB(&t, 1, 2, 2, 2, 64);
        CHECK_SUB(&t, 2, 1, 1, 1, 72);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }

    /* Buffers (native): 16 x 65536 bytes -> 16 tiles, tile shape 65536x1x1, no mips at all;
     * its one subresource tiling spans 16 x 1 x 1 tiles from tile 0. */
    set_ctx("GetResourceTiling buffer 16 x 64 KB");
    d = buffer(16 * KB64);
    res = reserved(dev, &d);
    if (res) {
        tiling(dev, res, 4, 0, &t);
        CHECK_EQ(t.num_tiles, 16);
        CHECK_SHAPE(&t, 65536, 1, 1);
        CHECK_EQ(t.packed.NumStandardMips, 0);
        CHECK_EQ(t.packed.NumPackedMips, 0);
        CHECK_EQ(t.packed.NumTilesForPackedMips, 0);
        CHECK_EQ(t.packed.StartTileIndexInOverallResource, 0);
        CHECK_EQ(t.num_sub, 1);
        CHECK_SUB(&t, 0, 16, 1, 1, 0);
        CHECK_SUB_UNTOUCHED(&t, 1);
        /* First 1 of 1 -> 0 written. */
        tiling(dev, res, 4, 1, &t);
        CHECK_EQ(t.num_sub, 0);
        CHECK_SUB_UNTOUCHED(&t, 0);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }
    /* Buffer of 1024 bytes -> 1 tile (native). */
    set_ctx("GetResourceTiling buffer 1024");
    d = buffer(1024);
    res = reserved(dev, &d);
    if (res) {
        tiling(dev, res, 4, 0, &t);
        CHECK_EQ(t.num_tiles, 1);
        CHECK_SHAPE(&t, 65536, 1, 1);
        CHECK_EQ(ID3D12Resource_Release(res), 0);
    }
    g_ctx[0] = 0;
}

int main(void)
{
    test_abi();

    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev) {
        printf("layout_c: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }
    ID3D12Device4 *dev4 = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device4, (void **)&dev4), S_OK);
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device8, (void **)&g_dev8), S_OK);

    test_footprint_examples(dev, 0);
    if (g_dev8)
        test_footprint_examples(dev, 1);
    test_footprint_ranges(dev);
    test_allocation_info(dev, dev4);
    test_committed_alignment(dev);
    test_format_features(dev);
    test_tiling(dev);

    if (dev4)
        CHECK_EQ(ID3D12Device4_Release(dev4), 2);
    if (g_dev8)
        CHECK_EQ(ID3D12Device8_Release(g_dev8), 1);
    CHECK_EQ(ID3D12Device_Release(dev), 0);

    printf("layout_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
