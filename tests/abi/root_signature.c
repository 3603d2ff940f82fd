/* tests/abi/root_signature.c - root signatures through the C ABI of libd3d12.so:
 * D3D12SerializeRootSignature, D3D12SerializeVersionedRootSignature, the two deserializers,
 * ID3D12Device::CreateRootSignature and CheckFeatureSupport(ROOT_SIGNATURE), written the way a C
 * program compiled against Microsoft's DirectX-Headers (CINTERFACE + COBJMACROS) calls them.
 *
 * Build and run like client.c (see tests/abi/README.md); the last line is
 * "root_signature_c: N passed, M failed" and the exit status is 0 only when M is 0.
 *
 * The expected blobs below were laid out word by word from the serialized format in
 * spec/descriptors-and-binding.md §8 (header, parameter array, per-parameter payloads with
 * their ranges inline, static samplers last), and their checksums computed with a separate
 * implementation of the §8.4 container hash. Behaviour that encodes a measured Windows result
 * rather than a documented rule says so. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* ---- the check counter ------------------------------------------------------------------- */

#include "check.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- expected blobs ------------------------------------------------------------------------ */

/* k_rs10: the 1.0 desc k_desc10 below. RTS0 payload (offsets from its start):
 *   @0   header {1, 4 parameters at 24, 1 sampler at 168, ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT}
 *   @24  {TABLE, ALL, 72} {CONSTANTS, VERTEX, 120} {SRV, PIXEL, 132} {TABLE, PIXEL, 140}
 *   @72  {2 ranges at 80} {CBV 1 b0 space0 APPEND} {SRV 4 t0 space0 APPEND}
 *   @120 {b1, space 0, 4 values}   @132 {t8, space 1}
 *   @140 {1 range at 148} {SAMPLER 2 s0 space0 offset 0}
 *   @168 static sampler (13 words) -> 220 bytes; container 36 + 8 + 220 = 264 bytes.
 * k_rs11: the 1.1 desc k_desc11 (same shape with flags): ranges 6 words, root SRV 3 words,
 *   payloads at 72/128/140/152, sampler at 184 -> 236 bytes; container 280 bytes.
 * k_rs10_as_11: k_desc10 converted to 1.1 by a deserializer (1.0 semantics spelled out:
 *   DESCRIPTORS_VOLATILE | DATA_VOLATILE for view ranges, DESCRIPTORS_VOLATILE for the sampler
 *   range, DATA_VOLATILE for the root SRV).
 * k_shader_with_rs10: a container with ISGN and SHEX-like parts before k_rs10's RTS0 part, as a
 *   compiled shader with [RootSignature] carries it; k_shader_without_rs: the same, no RTS0.
 * k_cost65: one 65-value root constants parameter; k_overlap: root constants b0 for ALL and for
 *   VERTEX; k_version3 / k_version4: empty RTS0 with version 3 (1.2) / 4 (unknown);
 *   k_unbounded_srv: one table with an unbounded SRV range. */
static const uint32_t k_rs10[] = {
    0x43425844, 0xe1236924, 0xf73146c2, 0x90667b5d, 0x0982f165, 0x00000001, 0x00000108, 0x00000001,
    0x00000024, 0x30535452, 0x000000dc, 0x00000001, 0x00000004, 0x00000018, 0x00000001, 0x000000a8,
    0x00000001, 0x00000000, 0x00000000, 0x00000048, 0x00000001, 0x00000001, 0x00000078, 0x00000003,
    0x00000005, 0x00000084, 0x00000000, 0x00000005, 0x0000008c, 0x00000002, 0x00000050, 0x00000002,
    0x00000001, 0x00000000, 0x00000000, 0xffffffff, 0x00000000, 0x00000004, 0x00000000, 0x00000000,
    0xffffffff, 0x00000001, 0x00000000, 0x00000004, 0x00000008, 0x00000001, 0x00000001, 0x00000094,
    0x00000003, 0x00000002, 0x00000000, 0x00000000, 0x00000000, 0x00000015, 0x00000003, 0x00000003,
    0x00000003, 0x00000000, 0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x7f7fffff, 0x00000004,
    0x00000000, 0x00000005,
};
static const uint32_t k_rs11[] = {
    0x43425844, 0xd0231793, 0xa51d6f57, 0xa65ca7d3, 0x2e15af02, 0x00000001, 0x00000118, 0x00000001,
    0x00000024, 0x30535452, 0x000000ec, 0x00000002, 0x00000004, 0x00000018, 0x00000001, 0x000000b8,
    0x00000001, 0x00000000, 0x00000000, 0x00000048, 0x00000001, 0x00000001, 0x00000080, 0x00000003,
    0x00000005, 0x0000008c, 0x00000000, 0x00000005, 0x00000098, 0x00000002, 0x00000050, 0x00000002,
    0x00000001, 0x00000000, 0x00000000, 0x00000008, 0xffffffff, 0x00000000, 0x00000004, 0x00000000,
    0x00000000, 0x00000005, 0xffffffff, 0x00000001, 0x00000000, 0x00000004, 0x00000008, 0x00000001,
    0x00000002, 0x00000001, 0x000000a0, 0x00000003, 0x00000002, 0x00000000, 0x00000000, 0x00000001,
    0x00000000, 0x00000015, 0x00000003, 0x00000003, 0x00000003, 0x00000000, 0x00000001, 0x00000001,
    0x00000000, 0x00000000, 0x7f7fffff, 0x00000004, 0x00000000, 0x00000005,
};
static const uint32_t k_rs10_as_11[] = {
    0x43425844, 0x19f623f9, 0x34eb3002, 0x2b4b6a62, 0x35b8bd1b, 0x00000001, 0x00000118, 0x00000001,
    0x00000024, 0x30535452, 0x000000ec, 0x00000002, 0x00000004, 0x00000018, 0x00000001, 0x000000b8,
    0x00000001, 0x00000000, 0x00000000, 0x00000048, 0x00000001, 0x00000001, 0x00000080, 0x00000003,
    0x00000005, 0x0000008c, 0x00000000, 0x00000005, 0x00000098, 0x00000002, 0x00000050, 0x00000002,
    0x00000001, 0x00000000, 0x00000000, 0x00000003, 0xffffffff, 0x00000000, 0x00000004, 0x00000000,
    0x00000000, 0x00000003, 0xffffffff, 0x00000001, 0x00000000, 0x00000004, 0x00000008, 0x00000001,
    0x00000002, 0x00000001, 0x000000a0, 0x00000003, 0x00000002, 0x00000000, 0x00000000, 0x00000001,
    0x00000000, 0x00000015, 0x00000003, 0x00000003, 0x00000003, 0x00000000, 0x00000001, 0x00000001,
    0x00000000, 0x00000000, 0x7f7fffff, 0x00000004, 0x00000000, 0x00000005,
};
static const uint32_t k_shader_with_rs10[] = {
    0x43425844, 0xe1da38fa, 0x5819c375, 0xce1ad196, 0x8779b15c, 0x00000001, 0x00000140, 0x00000003,
    0x0000002c, 0x0000003c, 0x0000005c, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x58454853,
    0x00000018, 0x00050050, 0x0000000a, 0x0100086a, 0x0100003e, 0x00000000, 0x00000000, 0x30535452,
    0x000000dc, 0x00000001, 0x00000004, 0x00000018, 0x00000001, 0x000000a8, 0x00000001, 0x00000000,
    0x00000000, 0x00000048, 0x00000001, 0x00000001, 0x00000078, 0x00000003, 0x00000005, 0x00000084,
    0x00000000, 0x00000005, 0x0000008c, 0x00000002, 0x00000050, 0x00000002, 0x00000001, 0x00000000,
    0x00000000, 0xffffffff, 0x00000000, 0x00000004, 0x00000000, 0x00000000, 0xffffffff, 0x00000001,
    0x00000000, 0x00000004, 0x00000008, 0x00000001, 0x00000001, 0x00000094, 0x00000003, 0x00000002,
    0x00000000, 0x00000000, 0x00000000, 0x00000015, 0x00000003, 0x00000003, 0x00000003, 0x00000000,
    0x00000001, 0x00000001, 0x00000000, 0x00000000, 0x7f7fffff, 0x00000004, 0x00000000, 0x00000005,
};
static const uint32_t k_shader_without_rs[] = {
    0x43425844, 0x5f3dde0b, 0x16f69e8f, 0xd3f94456, 0x18657602, 0x00000001, 0x00000058, 0x00000002,
    0x00000028, 0x00000038, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x58454853, 0x00000018,
    0x00050050, 0x0000000a, 0x0100086a, 0x0100003e, 0x00000000, 0x00000000,
};
static const uint32_t k_cost65[] = {
    0x43425844, 0x5168a9ee, 0x63ce81b9, 0x2cd1e617, 0xd43ae129, 0x00000001, 0x0000005c, 0x00000001,
    0x00000024, 0x30535452, 0x00000030, 0x00000001, 0x00000001, 0x00000018, 0x00000000, 0x00000030,
    0x00000000, 0x00000001, 0x00000000, 0x00000024, 0x00000000, 0x00000000, 0x00000041,
};
static const uint32_t k_overlap[] = {
    0x43425844, 0x1d71e768, 0x645dce25, 0x93244a8d, 0xd1fef9fd, 0x00000001, 0x00000074, 0x00000001,
    0x00000024, 0x30535452, 0x00000048, 0x00000001, 0x00000002, 0x00000018, 0x00000000, 0x00000048,
    0x00000000, 0x00000001, 0x00000000, 0x00000030, 0x00000001, 0x00000001, 0x0000003c, 0x00000000,
    0x00000000, 0x00000004, 0x00000000, 0x00000000, 0x00000008,
};
static const uint32_t k_version3[] = {
    0x43425844, 0x1384c322, 0x03e373fd, 0x39312c24, 0x8a3e1faf, 0x00000001, 0x00000044, 0x00000001,
    0x00000024, 0x30535452, 0x00000018, 0x00000003, 0x00000000, 0x00000018, 0x00000000, 0x00000018,
    0x00000000,
};
static const uint32_t k_version4[] = {
    0x43425844, 0x3da57e03, 0x8ee83917, 0xba94cd2a, 0x63818310, 0x00000001, 0x00000044, 0x00000001,
    0x00000024, 0x30535452, 0x00000018, 0x00000004, 0x00000000, 0x00000018, 0x00000000, 0x00000018,
    0x00000000,
};
static const uint32_t k_unbounded_srv[] = {
    0x43425844, 0x9656db4f, 0x2d020c44, 0xde21ae36, 0x2ddc3842, 0x00000001, 0x0000006c, 0x00000001,
    0x00000024, 0x30535452, 0x00000040, 0x00000001, 0x00000001, 0x00000018, 0x00000000, 0x00000040,
    0x00000000, 0x00000000, 0x00000000, 0x00000024, 0x00000001, 0x0000002c, 0x00000000, 0xffffffff,
    0x00000000, 0x00000000, 0x00000000,
};

/* ---- the descs ----------------------------------------------------------------------------- */

static const D3D12_DESCRIPTOR_RANGE k_ranges10[] = {
    {D3D12_DESCRIPTOR_RANGE_TYPE_CBV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND},
    {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 4, 0, 0, D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND},
};
static const D3D12_DESCRIPTOR_RANGE k_sampler_ranges10[] = {
    {D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 0, 0, 0},
};
static const D3D12_STATIC_SAMPLER_DESC k_sampler = {
    D3D12_FILTER_MIN_MAG_MIP_LINEAR, D3D12_TEXTURE_ADDRESS_MODE_CLAMP, D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
    D3D12_TEXTURE_ADDRESS_MODE_CLAMP, 0.0f, 1, D3D12_COMPARISON_FUNC_NEVER,
    D3D12_STATIC_BORDER_COLOR_TRANSPARENT_BLACK, 0.0f, D3D12_FLOAT32_MAX, 4, 0, D3D12_SHADER_VISIBILITY_PIXEL,
};
static const D3D12_ROOT_PARAMETER k_params10[] = {
    {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, .DescriptorTable = {2, k_ranges10},
     .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL},
    {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS, .Constants = {1, 0, 4},
     .ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX},
    {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV, .Descriptor = {8, 1},
     .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL},
    {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE, .DescriptorTable = {1, k_sampler_ranges10},
     .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL},
};
static const D3D12_ROOT_SIGNATURE_DESC k_desc10 = {
    4, k_params10, 1, &k_sampler, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT,
};

/* The same shape in 1.1 with flags (k_flags) or with 1.0's semantics spelled out (k_volatile). */
struct flags11 {
    D3D12_DESCRIPTOR_RANGE_FLAGS cbv, srv, sampler;
    D3D12_ROOT_DESCRIPTOR_FLAGS root_srv;
};
static const struct flags11 k_flags = {
    D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC,
    D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE,
    D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE,
    D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE,
};
static const struct flags11 k_volatile = {
    D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE,
    D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE,
    D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE,
    D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE,
};

struct desc11 {
    D3D12_DESCRIPTOR_RANGE1 ranges[2], sampler_ranges[1];
    D3D12_ROOT_PARAMETER1 params[4];
    D3D12_ROOT_SIGNATURE_DESC1 desc;
};

static void make_desc11(struct desc11 *d, const struct flags11 *f)
{
    memset(d, 0, sizeof(*d));
    for (unsigned i = 0; i < 2; i++) {
        d->ranges[i].RangeType = k_ranges10[i].RangeType;
        d->ranges[i].NumDescriptors = k_ranges10[i].NumDescriptors;
        d->ranges[i].BaseShaderRegister = k_ranges10[i].BaseShaderRegister;
        d->ranges[i].RegisterSpace = k_ranges10[i].RegisterSpace;
        d->ranges[i].OffsetInDescriptorsFromTableStart = k_ranges10[i].OffsetInDescriptorsFromTableStart;
    }
    d->ranges[0].Flags = f->cbv;
    d->ranges[1].Flags = f->srv;
    d->sampler_ranges[0] = (D3D12_DESCRIPTOR_RANGE1){D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 2, 0, 0, f->sampler, 0};
    d->params[0] = (D3D12_ROOT_PARAMETER1){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
                                          .DescriptorTable = {2, d->ranges},
                                          .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL};
    d->params[1] = (D3D12_ROOT_PARAMETER1){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
                                          .Constants = {1, 0, 4},
                                          .ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX};
    d->params[2] = (D3D12_ROOT_PARAMETER1){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV,
                                          .Descriptor = {8, 1, f->root_srv},
                                          .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL};
    d->params[3] = (D3D12_ROOT_PARAMETER1){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
                                          .DescriptorTable = {1, d->sampler_ranges},
                                          .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL};
    d->desc = (D3D12_ROOT_SIGNATURE_DESC1){4, d->params, 1, &k_sampler,
                                           D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT};
}

/* ---- comparisons --------------------------------------------------------------------------- */

static void check_blob(ID3DBlob *blob, const uint32_t *want, size_t size, const char *what)
{
    set_ctx("%s", what);
    CHECK(blob != NULL);
    if (!blob) {
        g_ctx[0] = 0;
        return;
    }
    CHECK_EQ(ID3D10Blob_GetBufferSize(blob), size);
    const uint32_t *got = ID3D10Blob_GetBufferPointer(blob);
    CHECK(got != NULL);
    CHECK_EQ((uintptr_t)got % 4, 0);
    if (got && ID3D10Blob_GetBufferSize(blob) == size) {
        size_t i = 0;
        while (i < size / 4 && got[i] == want[i])
            i++;
        if (i < size / 4)
            set_ctx("%s: first differing word %zu", what, i);
        CHECK_EQ(i, size / 4);
    }
    g_ctx[0] = 0;
}

static void check_sampler(const D3D12_STATIC_SAMPLER_DESC *got, const D3D12_STATIC_SAMPLER_DESC *want)
{
    CHECK(memcmp(got, want, sizeof(*got)) == 0);
}

static void check_desc10(const D3D12_ROOT_SIGNATURE_DESC *got, const D3D12_ROOT_SIGNATURE_DESC *want)
{
    CHECK(got != NULL);
    if (!got)
        return;
    CHECK_EQ(got->NumParameters, want->NumParameters);
    CHECK_EQ(got->NumStaticSamplers, want->NumStaticSamplers);
    CHECK_EQ(got->Flags, want->Flags);
    CHECK_EQ(got->pParameters == NULL, want->NumParameters == 0);
    CHECK_EQ(got->pStaticSamplers == NULL, want->NumStaticSamplers == 0);
    if (got->NumParameters != want->NumParameters || got->NumStaticSamplers != want->NumStaticSamplers)
        return;
    for (unsigned i = 0; i < want->NumParameters; i++) {
        const D3D12_ROOT_PARAMETER *g = &got->pParameters[i], *w = &want->pParameters[i];
        set_ctx("parameter %u", i);
        CHECK_EQ(g->ParameterType, w->ParameterType);
        CHECK_EQ(g->ShaderVisibility, w->ShaderVisibility);
        if (g->ParameterType != w->ParameterType)
            continue;
        switch (w->ParameterType) {
        case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
            CHECK_EQ(g->DescriptorTable.NumDescriptorRanges, w->DescriptorTable.NumDescriptorRanges);
            if (g->DescriptorTable.NumDescriptorRanges == w->DescriptorTable.NumDescriptorRanges)
                CHECK(memcmp(g->DescriptorTable.pDescriptorRanges, w->DescriptorTable.pDescriptorRanges,
                             w->DescriptorTable.NumDescriptorRanges * sizeof(D3D12_DESCRIPTOR_RANGE)) == 0);
            break;
        case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
            CHECK(memcmp(&g->Constants, &w->Constants, sizeof(g->Constants)) == 0);
            break;
        default:
            CHECK(memcmp(&g->Descriptor, &w->Descriptor, sizeof(g->Descriptor)) == 0);
        }
    }
    g_ctx[0] = 0;
    for (unsigned i = 0; i < want->NumStaticSamplers; i++)
        check_sampler(&got->pStaticSamplers[i], &want->pStaticSamplers[i]);
}

static void check_desc11(const D3D12_ROOT_SIGNATURE_DESC1 *got, const D3D12_ROOT_SIGNATURE_DESC1 *want)
{
    CHECK(got != NULL);
    if (!got)
        return;
    CHECK_EQ(got->NumParameters, want->NumParameters);
    CHECK_EQ(got->NumStaticSamplers, want->NumStaticSamplers);
    CHECK_EQ(got->Flags, want->Flags);
    if (got->NumParameters != want->NumParameters || got->NumStaticSamplers != want->NumStaticSamplers)
        return;
    for (unsigned i = 0; i < want->NumParameters; i++) {
        const D3D12_ROOT_PARAMETER1 *g = &got->pParameters[i], *w = &want->pParameters[i];
        set_ctx("parameter %u", i);
        CHECK_EQ(g->ParameterType, w->ParameterType);
        CHECK_EQ(g->ShaderVisibility, w->ShaderVisibility);
        if (g->ParameterType != w->ParameterType)
            continue;
        switch (w->ParameterType) {
        case D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE:
            CHECK_EQ(g->DescriptorTable.NumDescriptorRanges, w->DescriptorTable.NumDescriptorRanges);
            for (unsigned j = 0; j < w->DescriptorTable.NumDescriptorRanges &&
                                 j < g->DescriptorTable.NumDescriptorRanges; j++) {
                const D3D12_DESCRIPTOR_RANGE1 *gr = &g->DescriptorTable.pDescriptorRanges[j];
                const D3D12_DESCRIPTOR_RANGE1 *wr = &w->DescriptorTable.pDescriptorRanges[j];
                set_ctx("parameter %u range %u", i, j);
                CHECK_EQ(gr->RangeType, wr->RangeType);
                CHECK_EQ(gr->NumDescriptors, wr->NumDescriptors);
                CHECK_EQ(gr->BaseShaderRegister, wr->BaseShaderRegister);
                CHECK_EQ(gr->RegisterSpace, wr->RegisterSpace);
                CHECK_EQ(gr->Flags, wr->Flags);
                CHECK_EQ(gr->OffsetInDescriptorsFromTableStart, wr->OffsetInDescriptorsFromTableStart);
            }
            break;
        case D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS:
            CHECK(memcmp(&g->Constants, &w->Constants, sizeof(g->Constants)) == 0);
            break;
        default:
            CHECK_EQ(g->Descriptor.ShaderRegister, w->Descriptor.ShaderRegister);
            CHECK_EQ(g->Descriptor.RegisterSpace, w->Descriptor.RegisterSpace);
            CHECK_EQ(g->Descriptor.Flags, w->Descriptor.Flags);
        }
    }
    g_ctx[0] = 0;
    for (unsigned i = 0; i < want->NumStaticSamplers; i++)
        check_sampler(&got->pStaticSamplers[i], &want->pStaticSamplers[i]);
}

/* An error blob: non-empty NUL-terminated text whose size counts the terminator. */
static void check_error_blob(ID3DBlob *err)
{
    CHECK(err != NULL && err != SENTINEL);
    if (!err || err == SENTINEL)
        return;
    const char *text = ID3D10Blob_GetBufferPointer(err);
    size_t size = ID3D10Blob_GetBufferSize(err);
    CHECK(size > 1);
    CHECK(text != NULL && size > 0 && text[size - 1] == 0);
    if (text && size > 0)
        CHECK_EQ(strlen(text) + 1, size);
    CHECK_EQ(ID3D10Blob_Release(err), 0);
}

/* ---- 1. serialization, byte for byte ------------------------------------------------------- */

static void test_serialize(void)
{
    ID3DBlob *blob = SENTINEL, *err = SENTINEL;
    CHECK_HR(D3D12SerializeRootSignature(&k_desc10, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), S_OK);
    CHECK_PTR(err, NULL); /* native: the error blob is set to NULL on success */
    check_blob(blob, k_rs10, sizeof(k_rs10), "1.0 via D3D12SerializeRootSignature");
    /* The blob answers IUnknown and ID3D10Blob (= ID3DBlob). */
    IUnknown *u = NULL;
    CHECK_HR(ID3D10Blob_QueryInterface(blob, &IID_IUnknown, (void **)&u), S_OK);
    CHECK_PTR(u, blob);
    if (u)
        IUnknown_Release(u);
    CHECK_HR(ID3D10Blob_QueryInterface(blob, &IID_ID3D12Object, (void **)&u), E_NOINTERFACE);
    CHECK_EQ(ID3D10Blob_Release(blob), 0);

    /* The error blob pointer is optional. */
    blob = NULL;
    CHECK_HR(D3D12SerializeRootSignature(&k_desc10, D3D_ROOT_SIGNATURE_VERSION_1, &blob, NULL), S_OK);
    check_blob(blob, k_rs10, sizeof(k_rs10), "1.0 without error blob");
    if (blob)
        ID3D10Blob_Release(blob);

    D3D12_VERSIONED_ROOT_SIGNATURE_DESC v = {.Version = D3D_ROOT_SIGNATURE_VERSION_1_0, .Desc_1_0 = k_desc10};
    blob = NULL, err = SENTINEL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, &err), S_OK);
    CHECK_PTR(err, NULL);
    check_blob(blob, k_rs10, sizeof(k_rs10), "1.0 via D3D12SerializeVersionedRootSignature");
    if (blob)
        ID3D10Blob_Release(blob);

    struct desc11 d11;
    make_desc11(&d11, &k_flags);
    v.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    v.Desc_1_1 = d11.desc;
    blob = NULL, err = SENTINEL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, &err), S_OK);
    CHECK_PTR(err, NULL);
    check_blob(blob, k_rs11, sizeof(k_rs11), "1.1 via D3D12SerializeVersionedRootSignature");
    if (blob)
        ID3D10Blob_Release(blob);

    make_desc11(&d11, &k_volatile);
    v.Desc_1_1 = d11.desc;
    blob = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, NULL), S_OK);
    check_blob(blob, k_rs10_as_11, sizeof(k_rs10_as_11), "1.1 with 1.0 semantics");
    if (blob)
        ID3D10Blob_Release(blob);

    /* The empty root signature: 68 bytes, RTS0 {version, 0, 24, 0, 24, 0} (spec §8.3). */
    D3D12_ROOT_SIGNATURE_DESC empty = {0};
    blob = NULL;
    CHECK_HR(D3D12SerializeRootSignature(&empty, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), S_OK);
    if (blob) {
        const uint32_t *w = ID3D10Blob_GetBufferPointer(blob);
        CHECK_EQ(ID3D10Blob_GetBufferSize(blob), 68);
        CHECK_EQ(w[0], 0x43425844);
        CHECK_EQ(w[6], 68);
        CHECK_EQ(w[9], 0x30535452);
        CHECK(w[11] == 1 && w[12] == 0 && w[13] == 24 && w[14] == 0 && w[15] == 24 && w[16] == 0);
        ID3D10Blob_Release(blob);
    }
}

/* ---- 2. serialization failures: E_INVALIDARG, an error blob, *ppBlob untouched -------------- */

static void expect_serialize_failure(const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *v, const char *what)
{
    set_ctx("%s", what);
    ID3DBlob *blob = SENTINEL, *err = SENTINEL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(v, &blob, &err), E_INVALIDARG);
    CHECK_PTR(blob, SENTINEL);
    check_error_blob(err);
    if (v && v->Version == D3D_ROOT_SIGNATURE_VERSION_1_0) {
        blob = SENTINEL, err = SENTINEL;
        CHECK_HR(D3D12SerializeRootSignature(&v->Desc_1_0, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err),
                 E_INVALIDARG);
        CHECK_PTR(blob, SENTINEL);
        check_error_blob(err);
    }
    g_ctx[0] = 0;
}

static void test_serialize_failures(void)
{
    ID3DBlob *blob = SENTINEL, *err = SENTINEL;
    /* D3D12SerializeRootSignature takes 1.0 only; native leaves *ppBlob alone (measured). */
    CHECK_HR(D3D12SerializeRootSignature(&k_desc10, D3D_ROOT_SIGNATURE_VERSION_1_1, &blob, &err), E_INVALIDARG);
    CHECK_PTR(blob, SENTINEL);
    check_error_blob(err);
    err = SENTINEL;
    CHECK_HR(D3D12SerializeRootSignature(NULL, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err), E_INVALIDARG);
    check_error_blob(err);
    CHECK_HR(D3D12SerializeRootSignature(&k_desc10, D3D_ROOT_SIGNATURE_VERSION_1_0, NULL, NULL), E_INVALIDARG);
    CHECK_HR(D3D12SerializeVersionedRootSignature(NULL, &blob, NULL), E_INVALIDARG);
    CHECK_PTR(blob, SENTINEL);

    /* Versions: 0, 1.2 (3: not defined by the 1.606 headers this runtime implements) and junk. */
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC v = {.Version = (D3D_ROOT_SIGNATURE_VERSION)0, .Desc_1_0 = k_desc10};
    expect_serialize_failure(&v, "version 0");
    v.Version = (D3D_ROOT_SIGNATURE_VERSION)3;
    expect_serialize_failure(&v, "version 1.2");
    v.Version = (D3D_ROOT_SIGNATURE_VERSION)0xdeadbeef;
    expect_serialize_failure(&v, "version 0xdeadbeef");

    D3D12_DESCRIPTOR_RANGE ranges[2];
    D3D12_ROOT_PARAMETER params[65];
    D3D12_STATIC_SAMPLER_DESC samplers[2];
    v.Version = D3D_ROOT_SIGNATURE_VERSION_1_0;
    D3D12_ROOT_SIGNATURE_DESC *d = &v.Desc_1_0;

    /* 64 DWORDs at most: 64 tables pass, 65 fail; 33 root CBVs (66) fail; 65 constants fail. */
    D3D12_DESCRIPTOR_RANGE one[65];
    for (unsigned i = 0; i < 65; i++) {
        one[i] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, i, 0, 0};
        params[i] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
                                           .DescriptorTable = {1, &one[i]}};
    }
    *d = (D3D12_ROOT_SIGNATURE_DESC){64, params, 0, NULL, 0};
    blob = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, NULL), S_OK);
    if (blob)
        ID3D10Blob_Release(blob);
    d->NumParameters = 65;
    expect_serialize_failure(&v, "65 tables");
    for (unsigned i = 0; i < 33; i++)
        params[i] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV, .Descriptor = {i, 0}};
    d->NumParameters = 33;
    expect_serialize_failure(&v, "33 root CBVs");
    params[0] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
                                       .Constants = {0, 0, 65}};
    d->NumParameters = 1;
    expect_serialize_failure(&v, "65 root constants");

    /* Descriptor tables. */
    params[0] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
                                       .DescriptorTable = {2, ranges}};
    ranges[0] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, 0};
    ranges[1] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER, 1, 2, 0, 10};
    expect_serialize_failure(&v, "sampler and SRV ranges in one table");
    ranges[1] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 0, 0, 0, 1};
    expect_serialize_failure(&v, "NumDescriptors 0");
    ranges[0].NumDescriptors = UINT_MAX;
    ranges[1] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0,
                                         D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND};
    expect_serialize_failure(&v, "APPEND after an unbounded range");
    ranges[1].OffsetInDescriptorsFromTableStart = 100;
    blob = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, NULL), S_OK); /* explicit offset: fine */
    if (blob)
        ID3D10Blob_Release(blob);
    ranges[0] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 2, UINT_MAX, 0, 0};
    expect_serialize_failure(&v, "register overflow");
    ranges[0] = (D3D12_DESCRIPTOR_RANGE){(D3D12_DESCRIPTOR_RANGE_TYPE)4, 1, 0, 0, 0};
    expect_serialize_failure(&v, "unknown range type");
    ranges[0] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0xfffffff0, 0};
    expect_serialize_failure(&v, "reserved register space");
    ranges[0] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 4, 0, 0, 0};
    ranges[1] = (D3D12_DESCRIPTOR_RANGE){D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 3, 0, 4};
    expect_serialize_failure(&v, "overlapping u3 in one table");
    params[0].DescriptorTable = (D3D12_ROOT_DESCRIPTOR_TABLE){2, NULL};
    expect_serialize_failure(&v, "NULL pDescriptorRanges");

    /* Overlaps across parameters: b0 for ALL and for VERTEX (measured: native fails). */
    params[0] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
                                       .Constants = {0, 0, 4}, .ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL};
    params[1] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS,
                                       .Constants = {0, 0, 8},
                                       .ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX};
    d->NumParameters = 2;
    expect_serialize_failure(&v, "b0 for ALL and VERTEX");
    params[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL; /* measured: native accepts */
    blob = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, NULL), S_OK);
    if (blob)
        ID3D10Blob_Release(blob);
    params[0] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = {0, 0}};
    params[1] = (D3D12_ROOT_PARAMETER){.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV, .Descriptor = {0, 0},
                                       .ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL};
    expect_serialize_failure(&v, "root u0 for ALL and PIXEL");

    /* Parameters and flags. */
    params[1].ParameterType = (D3D12_ROOT_PARAMETER_TYPE)5;
    expect_serialize_failure(&v, "unknown parameter type");
    params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    params[1].ShaderVisibility = (D3D12_SHADER_VISIBILITY)8;
    expect_serialize_failure(&v, "unknown visibility");
    params[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    d->Flags = (D3D12_ROOT_SIGNATURE_FLAGS)0x1000;
    expect_serialize_failure(&v, "unknown root signature flag");
    d->Flags = 0;
    d->pParameters = NULL;
    expect_serialize_failure(&v, "NULL pParameters");
    d->pParameters = params;

    /* Static samplers. */
    d->NumParameters = 0;
    samplers[0] = k_sampler;
    samplers[1] = k_sampler;
    *d = (D3D12_ROOT_SIGNATURE_DESC){0, NULL, 2, samplers, 0};
    expect_serialize_failure(&v, "two static samplers on s4 for PIXEL");
    samplers[1].ShaderRegister = 5;
    samplers[1].MipLODBias = 16.0f;
    expect_serialize_failure(&v, "MipLODBias 16");
    samplers[1].MipLODBias = 0.0f;
    samplers[1].MaxAnisotropy = 17;
    expect_serialize_failure(&v, "MaxAnisotropy 17");
    samplers[1].MaxAnisotropy = 16;
    samplers[1].AddressU = (D3D12_TEXTURE_ADDRESS_MODE)0;
    expect_serialize_failure(&v, "AddressU 0");
    samplers[1].AddressU = D3D12_TEXTURE_ADDRESS_MODE_WRAP;
    samplers[1].Filter = D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR;
    samplers[1].ComparisonFunc = (D3D12_COMPARISON_FUNC)0;
    expect_serialize_failure(&v, "comparison filter without a function");
    samplers[1].ComparisonFunc = D3D12_COMPARISON_FUNC_LESS;
    blob = NULL;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&v, &blob, NULL), S_OK);
    if (blob)
        ID3D10Blob_Release(blob);
    d->pStaticSamplers = NULL;
    expect_serialize_failure(&v, "NULL pStaticSamplers");

    /* 1.1 flags. */
    struct desc11 d11;
    make_desc11(&d11, &k_flags);
    v.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    d11.ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
    v.Desc_1_1 = d11.desc;
    expect_serialize_failure(&v, "two DATA flags");
    d11.ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE | D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
    expect_serialize_failure(&v, "DESCRIPTORS_VOLATILE with DATA_STATIC");
    d11.ranges[0].Flags = (D3D12_DESCRIPTOR_RANGE_FLAGS)0x20;
    expect_serialize_failure(&v, "unknown range flag");
    d11.ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_NONE;
    d11.sampler_ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC;
    expect_serialize_failure(&v, "DATA flag on a sampler range");
    d11.sampler_ranges[0].Flags = D3D12_DESCRIPTOR_RANGE_FLAG_NONE;
    d11.params[2].Descriptor.Flags = D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE | D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC;
    expect_serialize_failure(&v, "two DATA flags on a root descriptor");
    d11.params[2].Descriptor.Flags = (D3D12_ROOT_DESCRIPTOR_FLAGS)1;
    expect_serialize_failure(&v, "DESCRIPTORS_VOLATILE on a root descriptor");
}

/* ---- 3. deserializers ---------------------------------------------------------------------- */

static void test_deserializers(void)
{
    ID3D12RootSignatureDeserializer *ds = SENTINEL;
    /* Only the exact interface: not even IUnknown (measured). */
    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_rs10, sizeof(k_rs10), &IID_IUnknown, (void **)&ds),
             E_NOINTERFACE);
    CHECK_PTR(ds, NULL);
    ds = SENTINEL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_rs10, sizeof(k_rs10),
                                                  &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&ds),
             E_NOINTERFACE);
    CHECK_PTR(ds, NULL);

    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_rs10, sizeof(k_rs10), &IID_ID3D12RootSignatureDeserializer,
                                                  (void **)&ds),
             S_OK);
    if (ds) {
        const D3D12_ROOT_SIGNATURE_DESC *desc = ID3D12RootSignatureDeserializer_GetRootSignatureDesc(ds);
        check_desc10(desc, &k_desc10);
        CHECK_PTR(ID3D12RootSignatureDeserializer_GetRootSignatureDesc(ds), desc);
        IUnknown *u = SENTINEL;
        CHECK_HR(ID3D12RootSignatureDeserializer_QueryInterface(ds, &IID_IUnknown, (void **)&u), E_NOINTERFACE);
        CHECK_PTR(u, NULL);
        CHECK_EQ(refcount(ds), 1);
        /* The desc round-trips to the same bytes. */
        ID3DBlob *blob = NULL;
        CHECK_HR(D3D12SerializeRootSignature(desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), S_OK);
        check_blob(blob, k_rs10, sizeof(k_rs10), "1.0 desc -> blob -> desc -> blob");
        if (blob)
            ID3D10Blob_Release(blob);
        CHECK_EQ(ID3D12RootSignatureDeserializer_Release(ds), 0);
    }

    /* The 1.0 deserializer converts 1.1 blobs, dropping the flags (documented; measured). */
    ds = NULL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_rs11, sizeof(k_rs11), &IID_ID3D12RootSignatureDeserializer,
                                                  (void **)&ds),
             S_OK);
    if (ds) {
        check_desc10(ID3D12RootSignatureDeserializer_GetRootSignatureDesc(ds), &k_desc10);
        CHECK_EQ(ID3D12RootSignatureDeserializer_Release(ds), 0);
    }
    /* From shader bytecode with an RTS0 part. */
    ds = NULL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_shader_with_rs10, sizeof(k_shader_with_rs10),
                                                  &IID_ID3D12RootSignatureDeserializer, (void **)&ds),
             S_OK);
    if (ds) {
        check_desc10(ID3D12RootSignatureDeserializer_GetRootSignatureDesc(ds), &k_desc10);
        CHECK_EQ(ID3D12RootSignatureDeserializer_Release(ds), 0);
    }

    struct desc11 flags, vol;
    make_desc11(&flags, &k_flags);
    make_desc11(&vol, &k_volatile);

    /* Versioned, 1.0 blob: unconverted 1.0; 1.1 spells out 1.0's volatility. */
    ID3D12VersionedRootSignatureDeserializer *vd = SENTINEL;
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(k_rs10, sizeof(k_rs10), &IID_IUnknown, (void **)&vd),
             E_NOINTERFACE);
    CHECK_PTR(vd, NULL);
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(k_rs10, sizeof(k_rs10),
                                                           &IID_ID3D12RootSignatureDeserializer, (void **)&vd),
             E_NOINTERFACE);
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(k_rs10, sizeof(k_rs10),
                                                           &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&vd),
             S_OK);
    if (vd) {
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *un =
            ID3D12VersionedRootSignatureDeserializer_GetUnconvertedRootSignatureDesc(vd);
        CHECK(un != NULL);
        if (un) {
            CHECK_EQ(un->Version, D3D_ROOT_SIGNATURE_VERSION_1_0);
            check_desc10(&un->Desc_1_0, &k_desc10);
        }
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at = SENTINEL;
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(
                     vd, D3D_ROOT_SIGNATURE_VERSION_1_0, &at),
                 S_OK);
        CHECK_PTR(at, un); /* measured: the unconverted desc itself */
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at11 = NULL;
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(
                     vd, D3D_ROOT_SIGNATURE_VERSION_1_1, &at11),
                 S_OK);
        if (at11) {
            CHECK_EQ(at11->Version, D3D_ROOT_SIGNATURE_VERSION_1_1);
            check_desc11(&at11->Desc_1_1, &vol.desc);
            /* Serializing the converted desc gives the blob laid out by hand. */
            ID3DBlob *blob = NULL;
            CHECK_HR(D3D12SerializeVersionedRootSignature(at11, &blob, NULL), S_OK);
            check_blob(blob, k_rs10_as_11, sizeof(k_rs10_as_11), "1.0 blob converted to 1.1");
            if (blob)
                ID3D10Blob_Release(blob);
        }
        /* Every version asked for stays valid, and is built once. */
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *again = NULL;
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(
                     vd, D3D_ROOT_SIGNATURE_VERSION_1_1, &again),
                 S_OK);
        CHECK_PTR(again, at11);
        if (un)
            check_desc10(&un->Desc_1_0, &k_desc10);
        /* Versions the runtime does not know, and a NULL out-pointer. */
        static const D3D_ROOT_SIGNATURE_VERSION bad[] = {(D3D_ROOT_SIGNATURE_VERSION)0,
                                                         (D3D_ROOT_SIGNATURE_VERSION)3,
                                                         (D3D_ROOT_SIGNATURE_VERSION)0xdeadbeef};
        for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
            set_ctx("GetRootSignatureDescAtVersion(%#x)", (unsigned)bad[i]);
            at = SENTINEL;
            CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(vd, bad[i], &at),
                     E_INVALIDARG);
            CHECK_PTR(at, NULL);
        }
        g_ctx[0] = 0;
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(
                     vd, D3D_ROOT_SIGNATURE_VERSION_1_1, NULL),
                 E_INVALIDARG);
        CHECK_EQ(ID3D12VersionedRootSignatureDeserializer_Release(vd), 0);
    }

    /* Versioned, 1.1 blob: unconverted 1.1 with its flags; 1.0 drops them. */
    vd = NULL;
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(k_rs11, sizeof(k_rs11),
                                                           &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&vd),
             S_OK);
    if (vd) {
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *un =
            ID3D12VersionedRootSignatureDeserializer_GetUnconvertedRootSignatureDesc(vd);
        CHECK(un != NULL);
        if (un) {
            CHECK_EQ(un->Version, D3D_ROOT_SIGNATURE_VERSION_1_1);
            check_desc11(&un->Desc_1_1, &flags.desc);
            ID3DBlob *blob = NULL;
            CHECK_HR(D3D12SerializeVersionedRootSignature(un, &blob, NULL), S_OK);
            check_blob(blob, k_rs11, sizeof(k_rs11), "1.1 desc -> blob -> desc -> blob");
            if (blob)
                ID3D10Blob_Release(blob);
        }
        const D3D12_VERSIONED_ROOT_SIGNATURE_DESC *at10 = NULL;
        CHECK_HR(ID3D12VersionedRootSignatureDeserializer_GetRootSignatureDescAtVersion(
                     vd, D3D_ROOT_SIGNATURE_VERSION_1_0, &at10),
                 S_OK);
        if (at10) {
            CHECK_EQ(at10->Version, D3D_ROOT_SIGNATURE_VERSION_1_0);
            check_desc10(&at10->Desc_1_0, &k_desc10);
            ID3DBlob *blob = NULL;
            CHECK_HR(D3D12SerializeVersionedRootSignature(at10, &blob, NULL), S_OK);
            check_blob(blob, k_rs10, sizeof(k_rs10), "1.1 blob converted to 1.0");
            if (blob)
                ID3D10Blob_Release(blob);
        }
        CHECK_EQ(ID3D12VersionedRootSignatureDeserializer_Release(vd), 0);
    }

    /* Bad sources: E_INVALIDARG, *ppv NULL. */
    uint32_t bad_sum[ARRAY_SIZE(k_rs10)];
    memcpy(bad_sum, k_rs10, sizeof(bad_sum));
    bad_sum[20] ^= 1;
    static const uint8_t garbage[64] = {1, 2, 3};
    struct {
        const void *data;
        size_t size;
        const char *what;
    } bad[] = {
        {NULL, 0, "NULL"},
        {k_rs10, 0, "size 0"},
        {garbage, sizeof(garbage), "garbage"},
        {k_rs10, sizeof(k_rs10) - 4, "truncated"},
        {bad_sum, sizeof(bad_sum), "bad checksum"},
        {k_version3, sizeof(k_version3), "RTS0 version 3 (1.2)"},
        {k_version4, sizeof(k_version4), "RTS0 version 4"},
        {(const uint8_t *)k_rs10 + 44, sizeof(k_rs10) - 44, "bare RTS0 payload"},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        set_ctx("deserializer from %s", bad[i].what);
        ds = SENTINEL;
        CHECK_HR(D3D12CreateRootSignatureDeserializer(bad[i].data, bad[i].size, &IID_ID3D12RootSignatureDeserializer,
                                                      (void **)&ds),
                 E_INVALIDARG);
        CHECK_PTR(ds, NULL);
        vd = SENTINEL;
        CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(bad[i].data, bad[i].size,
                                                               &IID_ID3D12VersionedRootSignatureDeserializer,
                                                               (void **)&vd),
                 E_INVALIDARG);
        CHECK_PTR(vd, NULL);
    }
    g_ctx[0] = 0;
    /* A well-formed container without an RTS0 part holds no root signature: E_FAIL, as
     * CreateRootSignature answers on Windows (the deserializers read blobs the same way). */
    ds = SENTINEL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_shader_without_rs, sizeof(k_shader_without_rs),
                                                  &IID_ID3D12RootSignatureDeserializer, (void **)&ds),
             E_FAIL);
    CHECK_PTR(ds, NULL);
    vd = SENTINEL;
    CHECK_HR(D3D12CreateVersionedRootSignatureDeserializer(k_shader_without_rs, sizeof(k_shader_without_rs),
                                                           &IID_ID3D12VersionedRootSignatureDeserializer, (void **)&vd),
             E_FAIL);
    CHECK_PTR(vd, NULL);
    /* Deserializers parse; they do not validate (CreateRootSignature does). */
    ds = NULL;
    CHECK_HR(D3D12CreateRootSignatureDeserializer(k_cost65, sizeof(k_cost65), &IID_ID3D12RootSignatureDeserializer,
                                                  (void **)&ds),
             S_OK);
    if (ds) {
        const D3D12_ROOT_SIGNATURE_DESC *d = ID3D12RootSignatureDeserializer_GetRootSignatureDesc(ds);
        CHECK(d && d->NumParameters == 1 && d->pParameters[0].Constants.Num32BitValues == 65);
        ID3D12RootSignatureDeserializer_Release(ds);
    }
}

/* ---- 4. CreateRootSignature ---------------------------------------------------------------- */

static void test_create(ID3D12Device *dev)
{
    ID3D12RootSignature *rs = SENTINEL;
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, k_rs10, sizeof(k_rs10), &IID_ID3D12RootSignature,
                                              (void **)&rs),
             S_OK);
    if (rs && rs != SENTINEL) {
        CHECK_EQ(refcount(dev), 2); /* a device child holds its device */
        CHECK_EQ(refcount(rs), 1);
        ID3D12Device *d2 = NULL;
        CHECK_HR(ID3D12RootSignature_GetDevice(rs, &IID_ID3D12Device, (void **)&d2), S_OK);
        CHECK_PTR(d2, dev);
        if (d2)
            ID3D12Device_Release(d2);
        static const struct {
            const GUID *iid;
            HRESULT hr;
            const char *name;
        } qi[] = {
            {&IID_IUnknown, S_OK, "IUnknown"},
            {&IID_ID3D12Object, S_OK, "ID3D12Object"},
            {&IID_ID3D12DeviceChild, S_OK, "ID3D12DeviceChild"},
            {&IID_ID3D12RootSignature, S_OK, "ID3D12RootSignature"},
            {&IID_ID3D12Pageable, E_NOINTERFACE, "ID3D12Pageable"}, /* measured */
            {&IID_ID3D12RootSignatureDeserializer, E_NOINTERFACE, "ID3D12RootSignatureDeserializer"},
        };
        for (unsigned i = 0; i < ARRAY_SIZE(qi); i++) {
            set_ctx("QueryInterface(%s)", qi[i].name);
            IUnknown *u = SENTINEL;
            CHECK_HR(ID3D12RootSignature_QueryInterface(rs, qi[i].iid, (void **)&u), qi[i].hr);
            CHECK_PTR(u, qi[i].hr == S_OK ? (void *)rs : NULL);
            if (qi[i].hr == S_OK && u)
                IUnknown_Release(u);
        }
        g_ctx[0] = 0;
        CHECK_HR(ID3D12RootSignature_SetName(rs, L"root signature"), S_OK);
        CHECK_EQ(ID3D12RootSignature_Release(rs), 0);
        CHECK_EQ(refcount(dev), 1);
    }

    /* From shader bytecode, from a 1.1 blob, with NodeMask 1, and a longer buffer than the blob. */
    uint32_t longer[ARRAY_SIZE(k_rs11) + 4];
    memcpy(longer, k_rs11, sizeof(k_rs11));
    memset(longer + ARRAY_SIZE(k_rs11), 0xee, 16);
    struct {
        const void *data;
        size_t size;
        UINT node;
        const char *what;
    } good[] = {
        {k_shader_with_rs10, sizeof(k_shader_with_rs10), 0, "shader bytecode with RTS0"},
        {k_rs11, sizeof(k_rs11), 1, "1.1 blob, node mask 1"},
        {k_rs10_as_11, sizeof(k_rs10_as_11), 0, "1.1 blob with volatile flags"},
        {longer, sizeof(longer), 0, "blob followed by other bytes"},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(good); i++) {
        set_ctx("CreateRootSignature from %s", good[i].what);
        rs = NULL;
        CHECK_HR(ID3D12Device_CreateRootSignature(dev, good[i].node, good[i].data, good[i].size,
                                                  &IID_ID3D12RootSignature, (void **)&rs),
                 S_OK);
        CHECK(rs != NULL);
        if (rs)
            CHECK_EQ(ID3D12RootSignature_Release(rs), 0);
    }
    g_ctx[0] = 0;

    /* ppv NULL: S_FALSE, nothing kept. A wrong IID: E_NOINTERFACE, *ppv NULL. */
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, k_rs10, sizeof(k_rs10), &IID_ID3D12RootSignature, NULL),
             S_FALSE);
    rs = SENTINEL;
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, k_rs10, sizeof(k_rs10), &IID_ID3D12Heap, (void **)&rs),
             E_NOINTERFACE);
    CHECK_PTR(rs, NULL);
    CHECK_EQ(refcount(dev), 1);

    /* Every invalid blob: E_INVALIDARG, *ppv NULL. */
    uint32_t bad_sum[ARRAY_SIZE(k_rs10)];
    memcpy(bad_sum, k_rs10, sizeof(bad_sum));
    bad_sum[ARRAY_SIZE(bad_sum) - 1] ^= 0x100;
    uint32_t bad_magic[ARRAY_SIZE(k_rs10)];
    memcpy(bad_magic, k_rs10, sizeof(bad_magic));
    bad_magic[0] = 0x43425845;
    static const uint8_t garbage[300] = {0x44, 0x58, 0x42, 0x43};
    struct {
        const void *data;
        size_t size;
        UINT node;
        const char *what;
    } bad[] = {
        {NULL, 0, 0, "NULL blob"},
        {NULL, sizeof(k_rs10), 0, "NULL blob with a size"},
        {k_rs10, 0, 0, "size 0"},
        {garbage, sizeof(garbage), 0, "garbage after DXBC"},
        {bad_magic, sizeof(bad_magic), 0, "bad magic"},
        {bad_sum, sizeof(bad_sum), 0, "bad checksum"},
        {k_rs10, sizeof(k_rs10) - 1, 0, "truncated by one byte"},
        {k_rs10, 40, 0, "truncated to 40 bytes"},
        {(const uint8_t *)k_rs10 + 44, sizeof(k_rs10) - 44, 0, "bare RTS0 payload"},
        {k_version4, sizeof(k_version4), 0, "unknown RTS0 version"},
        {k_version3, sizeof(k_version3), 0, "root signature 1.2 (not in the 606 ABI)"},
        {k_cost65, sizeof(k_cost65), 0, "65 DWORDs"},
        {k_overlap, sizeof(k_overlap), 0, "b0 for ALL and VERTEX"},
        {k_rs10, sizeof(k_rs10), 2, "node mask 2"},
    };
    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        set_ctx("CreateRootSignature from %s", bad[i].what);
        rs = SENTINEL;
        CHECK_HR(ID3D12Device_CreateRootSignature(dev, bad[i].node, bad[i].data, bad[i].size,
                                                  &IID_ID3D12RootSignature, (void **)&rs),
                 E_INVALIDARG);
        CHECK_PTR(rs, NULL);
        CHECK_HR(ID3D12Device_CreateRootSignature(dev, bad[i].node, bad[i].data, bad[i].size,
                                                  &IID_ID3D12RootSignature, NULL),
                 E_INVALIDARG);
    }
    g_ctx[0] = 0;
    /* Shader bytecode without a root signature part: E_FAIL on Windows, not E_INVALIDARG. */
    rs = SENTINEL;
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, k_shader_without_rs, sizeof(k_shader_without_rs),
                                              &IID_ID3D12RootSignature, (void **)&rs),
             E_FAIL);
    CHECK_PTR(rs, NULL);

    /* Unbounded ranges need resource binding tier 2 or more (tier 1 allows none). */
    D3D12_FEATURE_DATA_D3D12_OPTIONS o = {0};
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof(o)), S_OK);
    rs = NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, k_unbounded_srv, sizeof(k_unbounded_srv),
                                              &IID_ID3D12RootSignature, (void **)&rs),
             o.ResourceBindingTier >= D3D12_RESOURCE_BINDING_TIER_2 ? S_OK : E_INVALIDARG);
    if (rs)
        ID3D12RootSignature_Release(rs);
    /* Serialization does not depend on the device. */
    ID3DBlob *blob = NULL;
    D3D12_DESCRIPTOR_RANGE unbounded = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, UINT_MAX, 0, 0, 0};
    D3D12_ROOT_PARAMETER table = {.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
                                  .DescriptorTable = {1, &unbounded}};
    D3D12_ROOT_SIGNATURE_DESC d = {1, &table, 0, NULL, 0};
    CHECK_HR(D3D12SerializeRootSignature(&d, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), S_OK);
    check_blob(blob, k_unbounded_srv, sizeof(k_unbounded_srv), "unbounded SRV table");
    if (blob)
        ID3D10Blob_Release(blob);

    /* LOCAL_ROOT_SIGNATURE needs raytracing, which this adapter does not report. */
    D3D12_FEATURE_DATA_D3D12_OPTIONS5 o5 = {0};
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_D3D12_OPTIONS5, &o5, sizeof(o5)), S_OK);
    D3D12_ROOT_SIGNATURE_DESC local = {0, NULL, 0, NULL, D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE};
    blob = NULL;
    CHECK_HR(D3D12SerializeRootSignature(&local, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, NULL), S_OK);
    if (blob) {
        rs = NULL;
        CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                                  ID3D10Blob_GetBufferSize(blob), &IID_ID3D12RootSignature,
                                                  (void **)&rs),
                 o5.RaytracingTier == D3D12_RAYTRACING_TIER_NOT_SUPPORTED ? E_INVALIDARG : S_OK);
        if (rs)
            ID3D12RootSignature_Release(rs);
        ID3D10Blob_Release(blob);
    }
    CHECK_EQ(refcount(dev), 1);
}

/* ---- 5. CheckFeatureSupport(ROOT_SIGNATURE) ------------------------------------------------- */

static void test_feature(ID3D12Device *dev)
{
    D3D12_FEATURE_DATA_ROOT_SIGNATURE f = {D3D_ROOT_SIGNATURE_VERSION_1_1};
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ROOT_SIGNATURE, &f, sizeof(f)), S_OK);
    CHECK_EQ(f.HighestVersion, D3D_ROOT_SIGNATURE_VERSION_1_1);
    f.HighestVersion = D3D_ROOT_SIGNATURE_VERSION_1_0;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ROOT_SIGNATURE, &f, sizeof(f)), S_OK);
    CHECK_EQ(f.HighestVersion, D3D_ROOT_SIGNATURE_VERSION_1_0);
    /* 0, 1.2 (3: unknown to the 1.606 headers) and junk fail and leave the field alone. */
    static const unsigned bad[] = {0, 3, 0xdeadbeef};
    for (unsigned i = 0; i < ARRAY_SIZE(bad); i++) {
        set_ctx("HighestVersion %#x", bad[i]);
        f.HighestVersion = (D3D_ROOT_SIGNATURE_VERSION)bad[i];
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ROOT_SIGNATURE, &f, sizeof(f)), E_INVALIDARG);
        CHECK_EQ(f.HighestVersion, bad[i]);
    }
    g_ctx[0] = 0;
}

int main(void)
{
    test_serialize();
    test_serialize_failures();
    test_deserializers();

    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    if (dev) {
        test_feature(dev);
        test_create(dev);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }

    printf("root_signature_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
