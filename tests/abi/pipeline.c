/* tests/abi/pipeline.c - pipeline states, pipeline libraries and command signatures through the
 * C ABI of libd3d12.so, written the way a C program compiled against Microsoft's DirectX-Headers
 * (CINTERFACE + COBJMACROS) calls them:
 *   ID3D12Device::CreateGraphicsPipelineState / CreateComputePipelineState,
 *   ID3D12Device2::CreatePipelineState (subobject streams), ID3D12PipelineState::GetCachedBlob,
 *   ID3D12Device1::CreatePipelineLibrary and ID3D12PipelineLibrary1,
 *   ID3D12Device::CreateCommandSignature and ID3D12GraphicsCommandList::ExecuteIndirect.
 *
 * Build and run like client.c (see tests/abi/README.md); the last line is
 * "pipeline_c: N passed, M failed" and the exit status is 0 only when M is 0.
 *
 * There is no shader compiler on the machines this runs on, so the shaders below are DXBC
 * containers laid out word by word from the container format (spec/descriptors-and-binding.md
 * §8.1): the header with its checksum (§8.4), I/O signature parts (ISGN/OSGN: a count, the
 * offset of the elements, 24-byte elements {name offset, semantic index, system value,
 * component type, register, mask | read-write mask << 8}, then the names) and a SHEX program
 * (version token: minor | major << 4 | program type << 16; length token; `ret`). The compute
 * shader is byte-identical to what FXC emits for an empty [numthreads(1,1,1)] kernel, checksum
 * included. Expected HRESULTs follow Microsoft's documentation of each method; where a rule
 * comes from the indirect-drawing spec (microsoft/DirectX-Specs d3d/IndirectDrawing.md) or is
 * this runtime's reading of an ambiguous one, the check says so. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* ---- the check counter ------------------------------------------------------------------- */

#include "check.h"

/* HRESULTs of the "Direct3D 12 return codes" page that the WSL stubs do not define:
 * MAKE_HRESULT(1, _FACD3D12 = 0x87e, 1 / 2). */
#define D3D12_ERROR_ADAPTER_NOT_FOUND_ ((HRESULT)0x887E0001L)
#define D3D12_ERROR_DRIVER_VERSION_MISMATCH_ ((HRESULT)0x887E0002L)

/* ---- shaders ------------------------------------------------------------------------------- */

/* vs_5_0: in POSITION0 (v0.xyzw), out SV_Position0 (o0) */
static const uint32_t vs_dxbc[] = {
    /* DXBC, checksum, version 1, 168 bytes, 3 parts, part offsets */
    0x43425844, 0x52c973fd, 0x7986d001, 0x9b1a48d9, 0xda48f4dd, 0x00000001, 0x000000a8, 0x00000003, 0x0000002c, 0x00000060, 0x00000094,
    /* ISGN, 44 bytes */
    0x4e475349, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000000, 0x00000003,
    0x00000000, 0x00000f0f, 0x49534f50, 0x4e4f4954, 0xababab00,
    /* OSGN, 44 bytes */
    0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000001, 0x00000003,
    0x00000000, 0x00000f0f, 0x505f5653, 0x7469736f, 0x006e6f69,
    /* SHEX, 12 bytes */
    0x58454853, 0x0000000c, 0x00010050, 0x00000003, 0x0100003e,
};

/* ps_5_0: in SV_Position0, out SV_Target0 */
static const uint32_t ps_dxbc[] = {
    /* DXBC, checksum, version 1, 168 bytes, 3 parts, part offsets */
    0x43425844, 0x14c62623, 0xda5853d3, 0x13c1d414, 0xfd50a0c7, 0x00000001, 0x000000a8, 0x00000003, 0x0000002c, 0x00000060, 0x00000094,
    /* ISGN, 44 bytes */
    0x4e475349, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000001, 0x00000003,
    0x00000000, 0x00000f0f, 0x505f5653, 0x7469736f, 0x006e6f69,
    /* OSGN, 44 bytes */
    0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000040, 0x00000003,
    0x00000000, 0x00000f0f, 0x545f5653, 0x65677261, 0xabab0074,
    /* SHEX, 12 bytes */
    0x58454853, 0x0000000c, 0x00000050, 0x00000003, 0x0100003e,
};

/* ps_5_0: in SV_Position0 and TEXCOORD0 (v1.xy), out SV_Target0 */
static const uint32_t ps_uv_dxbc[] = {
    /* DXBC, checksum, version 1, 204 bytes, 3 parts, part offsets */
    0x43425844, 0x6d7a983d, 0xfebe1506, 0xb53ff9a0, 0x0dada9ba, 0x00000001, 0x000000cc, 0x00000003, 0x0000002c, 0x00000084, 0x000000b8,
    /* ISGN, 80 bytes */
    0x4e475349, 0x00000050, 0x00000002, 0x00000008, 0x00000038, 0x00000000, 0x00000001, 0x00000003,
    0x00000000, 0x00000f0f, 0x00000044, 0x00000000, 0x00000000, 0x00000003, 0x00000001, 0x00000303,
    0x505f5653, 0x7469736f, 0x006e6f69, 0x43584554, 0x44524f4f, 0xababab00,
    /* OSGN, 44 bytes */
    0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000040, 0x00000003,
    0x00000000, 0x00000f0f, 0x545f5653, 0x65677261, 0xabab0074,
    /* SHEX, 12 bytes */
    0x58454853, 0x0000000c, 0x00000050, 0x00000003, 0x0100003e,
};

/* hs_5_0, no signature elements: hs_decls with the declarations every hull shader has
 * (3 input and 3 output control points, tri domain, integer partitioning, cw triangles, max
 * tessfactor 64), a fork phase that returns. Assembled by crates/shader's dxbc::asm. */
static const uint32_t hs_dxbc[] = {
    0x43425844, 0x03ca5e58, 0xa58ae4d7, 0x96f0853a, 0x7a71095e, 0x00000001, 0x00000084, 0x00000003, 0x0000002c, 0x0000003c, 0x0000004c, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x4e47534f, 0x00000008, 0x00000000, 0x00000008, 0x58454853, 0x00000030, 0x00030050, 0x0000000c, 0x01000071, 0x01001893, 0x01001894, 0x01001095, 0x01000896, 0x01001897, 0x02000098, 0x42800000, 0x01000073, 0x0100003e
};

/* ds_5_0, out SV_Position0: 3 input control points, tri domain, ret. */
static const uint32_t ds_dxbc[] = {
    0x43425844, 0x6f27bd10, 0x953889f9, 0xdf94ebd0, 0x5d62afb3, 0x00000001, 0x0000008c, 0x00000003, 0x0000002c, 0x0000003c, 0x00000070, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x4e47534f, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000001, 0x00000003, 0x00000000, 0x00000f0f, 0x505f5653, 0x7469736f, 0x006e6f69, 0x58454853, 0x00000014, 0x00040050, 0x00000005, 0x01001893, 0x01001095, 0x0100003e
};

/* cs_5_0: [numthreads(1,1,1)] void main() {} (byte-identical to FXC's output) */
static const uint32_t cs_dxbc[] = {
    /* DXBC, checksum, version 1, 116 bytes, 3 parts, part offsets */
    0x43425844, 0x1acc3ad0, 0x71c7b057, 0xc72c4306, 0xf432cb57, 0x00000001, 0x00000074, 0x00000003, 0x0000002c, 0x0000003c, 0x0000004c,
    /* ISGN, 8 bytes */
    0x4e475349, 0x00000008, 0x00000000, 0x00000008,
    /* OSGN, 8 bytes */
    0x4e47534f, 0x00000008, 0x00000000, 0x00000008,
    /* SHEX, 32 bytes */
    0x58454853, 0x00000020, 0x00050050, 0x00000008, 0x0100086a, 0x0400009b, 0x00000001, 0x00000001,
    0x00000001, 0x0100003e,
};

/* cs_5_0 with an embedded empty root signature (RTS0 version 1.0) */
static const uint32_t cs_rts0_dxbc[] = {
    /* DXBC, checksum, version 1, 152 bytes, 4 parts, part offsets */
    0x43425844, 0x022d3ca1, 0x822776ef, 0x64d161c7, 0x4fd81730, 0x00000001, 0x00000098, 0x00000004, 0x00000030, 0x00000040, 0x00000050, 0x00000070,
    /* ISGN, 8 bytes */
    0x4e475349, 0x00000008, 0x00000000, 0x00000008,
    /* OSGN, 8 bytes */
    0x4e47534f, 0x00000008, 0x00000000, 0x00000008,
    /* RTS0, 24 bytes */
    0x30535452, 0x00000018, 0x00000001, 0x00000000, 0x00000018, 0x00000000, 0x00000018, 0x00000000,
    /* SHEX, 32 bytes */
    0x58454853, 0x00000020, 0x00050050, 0x00000008, 0x0100086a, 0x0400009b, 0x00000001, 0x00000001,
    0x00000001, 0x0100003e,
};

/* cs_6_0 DXIL: ISG1, OSG1, PSV0 (runtime info v1, stage 5), HASH, DXIL (program header, bitcode header, 'BC' 0xC0DE) */
static const uint32_t cs_dxil[] = {
    /* DXBC, checksum, version 1, 204 bytes, 5 parts, part offsets */
    0x43425844, 0xdab52ab4, 0x3cb701a1, 0x6996346d, 0xa058b254, 0x00000001, 0x000000cc, 0x00000005, 0x00000034, 0x00000044, 0x00000054, 0x00000088, 0x000000a4,
    /* ISG1, 8 bytes */
    0x31475349, 0x00000008, 0x00000000, 0x00000008,
    /* OSG1, 8 bytes */
    0x3147534f, 0x00000008, 0x00000000, 0x00000008,
    /* PSV0, 44 bytes */
    0x30565350, 0x0000002c, 0x00000024, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    0x00000000, 0x00000005, 0x00000000, 0x00000000, 0x00000000,
    /* HASH, 20 bytes */
    0x48534148, 0x00000014, 0x00000000, 0xa8eb6564, 0x4a9639da, 0x3d79fa55, 0xde6eea78,
    /* DXIL, 32 bytes */
    0x4c495844, 0x00000020, 0x00050060, 0x00000008, 0x4c495844, 0x00000100, 0x00000010, 0x00000008,
    0xdec04342, 0x00001435,
};


#define BYTECODE(a) ((D3D12_SHADER_BYTECODE){ (a), sizeof(a) })

/* cs_dxil with its checksum zeroed: DXIL no validator signed. */
static uint32_t cs_dxil_unsigned[sizeof(cs_dxil) / 4];

/* Corrupted copies of the shaders (a flipped bit, a short length). */
static uint32_t scratch[64];
static D3D12_SHADER_BYTECODE flipped(const uint32_t *src, size_t bytes, size_t word, uint32_t mask)
{
    memcpy(scratch, src, bytes);
    scratch[word] ^= mask;
    return (D3D12_SHADER_BYTECODE){ scratch, bytes };
}

/* ---- the device and its root signatures ---------------------------------------------------- */

static ID3D12Device *dev;
static ID3D12Device1 *dev1;
static ID3D12Device2 *dev2;
static ID3D12RootSignature *rs_ia;    /* empty, ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT */
static ID3D12RootSignature *rs_plain; /* empty, no flags */
static ID3D12RootSignature *rs_args;  /* [0] 4 constants, [1] root CBV, [2] root SRV, [3] root UAV,
                                         [4] a descriptor table, [5] 1 constant; IA allowed */

static ID3D12RootSignature *make_root_signature(const D3D12_ROOT_SIGNATURE_DESC *desc)
{
    ID3DBlob *blob = NULL, *err = NULL;
    ID3D12RootSignature *rs = NULL;
    HRESULT hr = D3D12SerializeRootSignature(desc, D3D_ROOT_SIGNATURE_VERSION_1_0, &blob, &err);
    CHECK_HR(hr, S_OK);
    if (err)
        ID3D10Blob_Release(err);
    if (FAILED(hr))
        return NULL;
    CHECK_HR(ID3D12Device_CreateRootSignature(dev, 0, ID3D10Blob_GetBufferPointer(blob),
                                              ID3D10Blob_GetBufferSize(blob),
                                              &IID_ID3D12RootSignature, (void **)&rs),
             S_OK);
    ID3D10Blob_Release(blob);
    return rs;
}

static void make_root_signatures(void)
{
    D3D12_ROOT_SIGNATURE_DESC d;
    memset(&d, 0, sizeof(d));
    d.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    rs_ia = make_root_signature(&d);
    d.Flags = D3D12_ROOT_SIGNATURE_FLAG_NONE;
    rs_plain = make_root_signature(&d);

    D3D12_DESCRIPTOR_RANGE range = { D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 1, 0, 0 };
    D3D12_ROOT_PARAMETER p[6];
    memset(p, 0, sizeof(p));
    p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[0].Constants.Num32BitValues = 4;
    p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    p[1].Descriptor.ShaderRegister = 1;
    p[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
    p[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    p[4].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p[4].DescriptorTable.NumDescriptorRanges = 1;
    p[4].DescriptorTable.pDescriptorRanges = &range;
    p[5].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[5].Constants.ShaderRegister = 2;
    p[5].Constants.Num32BitValues = 1;
    d.NumParameters = 6;
    d.pParameters = p;
    d.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    rs_args = make_root_signature(&d);
}

/* ---- descriptions ---------------------------------------------------------------------------- */

static const D3D12_INPUT_ELEMENT_DESC position_layout[] = {
    { "POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0 },
};

/* VS + PS, one vertex attribute, one RGBA8 target; CD3DX12_BLEND_DESC(D3D12_DEFAULT) and
 * CD3DX12_RASTERIZER_DESC(D3D12_DEFAULT); the depth-stencil state zeroed (depth and stencil off),
 * as the DirectX samples do. */
static D3D12_GRAPHICS_PIPELINE_STATE_DESC gfx_desc(void)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d;
    memset(&d, 0, sizeof(d));
    d.pRootSignature = rs_ia;
    d.VS = BYTECODE(vs_dxbc);
    d.PS = BYTECODE(ps_dxbc);
    for (int i = 0; i < 8; i++) {
        D3D12_RENDER_TARGET_BLEND_DESC *t = &d.BlendState.RenderTarget[i];
        t->SrcBlend = t->SrcBlendAlpha = D3D12_BLEND_ONE;
        t->DestBlend = t->DestBlendAlpha = D3D12_BLEND_ZERO;
        t->BlendOp = t->BlendOpAlpha = D3D12_BLEND_OP_ADD;
        t->LogicOp = D3D12_LOGIC_OP_NOOP;
        t->RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    }
    d.SampleMask = UINT32_MAX;
    d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
    d.RasterizerState.DepthClipEnable = TRUE;
    d.InputLayout.pInputElementDescs = position_layout;
    d.InputLayout.NumElements = 1;
    d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    d.NumRenderTargets = 1;
    d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    return d;
}

static D3D12_COMPUTE_PIPELINE_STATE_DESC cs_desc(void)
{
    D3D12_COMPUTE_PIPELINE_STATE_DESC d;
    memset(&d, 0, sizeof(d));
    d.pRootSignature = rs_plain;
    d.CS = BYTECODE(cs_dxbc);
    return d;
}

static HRESULT gfx(const D3D12_GRAPHICS_PIPELINE_STATE_DESC *d, ID3D12PipelineState **out)
{
    return ID3D12Device_CreateGraphicsPipelineState(dev, d, &IID_ID3D12PipelineState, (void **)out);
}

static HRESULT compute(const D3D12_COMPUTE_PIPELINE_STATE_DESC *d, ID3D12PipelineState **out)
{
    return ID3D12Device_CreateComputePipelineState(dev, d, &IID_ID3D12PipelineState, (void **)out);
}

/* Creates a pipeline that must give `expected` (S_OK: an object, released again; otherwise
 * *ppv NULL). */
static void expect_gfx(const D3D12_GRAPHICS_PIPELINE_STATE_DESC *d, HRESULT expected, int line)
{
    ID3D12PipelineState *pso = SENTINEL;
    HRESULT hr = gfx(d, &pso);
    check_hr(__FILE__, line, "CreateGraphicsPipelineState", hr, expected);
    if (expected == S_OK)
        check_true(__FILE__, line, "pipeline created", SUCCEEDED(hr) && pso && (void *)pso != SENTINEL);
    else
        check_ptr(__FILE__, line, "*ppPipelineState after a failure", pso, NULL);
    if (SUCCEEDED(hr) && pso && (void *)pso != SENTINEL)
        check_u64(__FILE__, line, "Release", ID3D12PipelineState_Release(pso), 0);
}

static void expect_cs(const D3D12_COMPUTE_PIPELINE_STATE_DESC *d, HRESULT expected, int line)
{
    ID3D12PipelineState *pso = SENTINEL;
    HRESULT hr = compute(d, &pso);
    check_hr(__FILE__, line, "CreateComputePipelineState", hr, expected);
    if (expected != S_OK)
        check_ptr(__FILE__, line, "*ppPipelineState after a failure", pso, NULL);
    if (SUCCEEDED(hr) && pso && (void *)pso != SENTINEL)
        check_u64(__FILE__, line, "Release", ID3D12PipelineState_Release(pso), 0);
}

/* GFX(expected, statements on `d`): the standard description edited by the statements. */
#define GFX(expected, ...)                                                                      \
    do {                                                                                        \
        D3D12_GRAPHICS_PIPELINE_STATE_DESC d = gfx_desc();                                      \
        set_ctx("%s", #__VA_ARGS__);                                                            \
        __VA_ARGS__;                                                                            \
        expect_gfx(&d, (expected), __LINE__);                                                   \
    } while (0)

#define CS(expected, ...)                                                                       \
    do {                                                                                        \
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = cs_desc();                                        \
        set_ctx("%s", #__VA_ARGS__);                                                            \
        __VA_ARGS__;                                                                            \
        expect_cs(&d, (expected), __LINE__);                                                    \
    } while (0)

/* The bytes of GetCachedBlob (the caller frees them). */
static unsigned char *cached_blob(ID3D12PipelineState *pso, size_t *size)
{
    ID3DBlob *blob = NULL;
    *size = 0;
    CHECK_HR(ID3D12PipelineState_GetCachedBlob(pso, &blob), S_OK);
    if (!blob)
        return NULL;
    *size = ID3D10Blob_GetBufferSize(blob);
    unsigned char *out = malloc(*size);
    memcpy(out, ID3D10Blob_GetBufferPointer(blob), *size);
    CHECK_EQ(ID3D10Blob_Release(blob), 0);
    return out;
}

/* ---- graphics pipelines -------------------------------------------------------------------- */

static void test_graphics_object(void)
{
    set_ctx("graphics object");
    ID3D12PipelineState *pso = NULL;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = gfx_desc();
    ULONG dev_refs = refcount(dev);
    CHECK_CREATED(gfx(&d, &pso), pso);
    if (!pso)
        return;
    CHECK_EQ(refcount(dev), dev_refs + 1);
    CHECK_EQ(refcount(rs_ia), 1); /* a pipeline holds no reference on its root signature */
    const IID *iids[] = { &IID_IUnknown, &IID_ID3D12Object, &IID_ID3D12DeviceChild, &IID_ID3D12Pageable,
                          &IID_ID3D12PipelineState };
    for (size_t i = 0; i < sizeof(iids) / sizeof(iids[0]); i++) {
        void *q = NULL;
        CHECK_HR(ID3D12PipelineState_QueryInterface(pso, iids[i], &q), S_OK);
        CHECK_PTR(q, pso);
        if (q)
            IUnknown_Release((IUnknown *)q);
    }
    void *q = SENTINEL;
    CHECK_HR(ID3D12PipelineState_QueryInterface(pso, &IID_ID3D12Resource, &q), E_NOINTERFACE);
    CHECK_PTR(q, NULL);
    ID3D12Device *owner = NULL;
    CHECK_HR(ID3D12PipelineState_GetDevice(pso, &IID_ID3D12Device, (void **)&owner), S_OK);
    CHECK_PTR(owner, dev);
    if (owner)
        ID3D12Device_Release(owner);
    CHECK_HR(ID3D12PipelineState_GetCachedBlob(pso, NULL), E_INVALIDARG);
    RELEASE0(pso);
    CHECK_EQ(refcount(dev), dev_refs);

    CHECK_HR(ID3D12Device_CreateGraphicsPipelineState(dev, &d, &IID_ID3D12PipelineState, NULL), S_FALSE);
    CHECK_FAILS(ID3D12Device_CreateGraphicsPipelineState(dev, &d, &IID_ID3D12Resource, (void **)&pso), pso,
                E_NOINTERFACE);
    CHECK_FAILS(ID3D12Device_CreateGraphicsPipelineState(dev, NULL, &IID_ID3D12PipelineState, (void **)&pso),
                pso, E_INVALIDARG);
    set_ctx("%s", "");
}

static void test_graphics_rules(void)
{
    /* Valid variants. */
    GFX(S_OK, d.PS.BytecodeLength = 0);                                   /* PS is optional */
    GFX(S_OK, d.HS = BYTECODE(hs_dxbc); d.DS = BYTECODE(ds_dxbc);
        d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH);
    GFX(S_OK, d.NumRenderTargets = 3; d.RTVFormats[2] = DXGI_FORMAT_R16G16B16A16_FLOAT);
    GFX(S_OK, d.NumRenderTargets = 0; d.RTVFormats[0] = DXGI_FORMAT_UNKNOWN);
    GFX(S_OK, d.BlendState.RenderTarget[0].BlendEnable = TRUE);
    GFX(S_OK, d.BlendState.RenderTarget[1].SrcBlend = 0);                 /* only RT 0 counts */
    GFX(S_OK, d.DSVFormat = DXGI_FORMAT_D32_FLOAT; d.DepthStencilState.DepthEnable = TRUE;
        d.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
        d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS);
    GFX(S_OK, d.IBStripCutValue = D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF);
    GFX(S_OK, d.Flags = D3D12_PIPELINE_STATE_FLAG_TOOL_DEBUG);            /* a WARP-like adapter */
    GFX(S_OK, d.NodeMask = 1);
    GFX(S_OK, d.pRootSignature = rs_args);

    /* Shaders. */
    GFX(E_INVALIDARG, d.VS.BytecodeLength = 0);                           /* VS is required */
    GFX(E_INVALIDARG, d.VS = BYTECODE(ps_dxbc));                          /* a PS in the VS slot */
    GFX(E_INVALIDARG, d.PS = BYTECODE(vs_dxbc));
    GFX(E_INVALIDARG, d.VS = flipped(vs_dxbc, sizeof(vs_dxbc), 41, 1));   /* checksum mismatch */
    GFX(E_INVALIDARG, d.VS.BytecodeLength -= 4);                          /* truncated */
    GFX(E_INVALIDARG, d.VS.pShaderBytecode = NULL);
    GFX(E_INVALIDARG, d.HS = BYTECODE(hs_dxbc); d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH);
    GFX(E_INVALIDARG, d.DS = BYTECODE(ds_dxbc));                          /* DS without HS */
    GFX(E_INVALIDARG, d.PS = BYTECODE(ps_uv_dxbc));                       /* reads TEXCOORD0, never written */
    GFX(E_INVALIDARG, d.GS = BYTECODE(cs_dxbc));

    /* Root signature. */
    GFX(E_INVALIDARG, d.pRootSignature = NULL);
    GFX(E_INVALIDARG, d.pRootSignature = rs_plain);                       /* input layout without IA flag */
    GFX(E_INVALIDARG, d.pRootSignature = (ID3D12RootSignature *)dev);     /* not a root signature */

    /* Topology. */
    GFX(E_INVALIDARG, d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED);
    GFX(E_INVALIDARG, d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH);
    GFX(E_INVALIDARG, d.PrimitiveTopologyType = 5);

    /* Input layout. */
    D3D12_INPUT_ELEMENT_DESC e[2];
#define ONE_ELEMENT(...)                                                                        \
    e[0] = position_layout[0];                                                                  \
    __VA_ARGS__;                                                                                \
    d.InputLayout.pInputElementDescs = e
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].SemanticName = NULL));
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].SemanticName = "POSITION0"));      /* trailing digit */
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].SemanticName = "NORMAL"));         /* the VS reads POSITION */
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].Format = DXGI_FORMAT_BC1_UNORM));
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].Format = DXGI_FORMAT_D32_FLOAT));
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].InputSlot = D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT));
    GFX(S_OK, ONE_ELEMENT(e[0].InputSlot = D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT - 1));
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].InputSlotClass = 2));
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].InstanceDataStepRate = 1));         /* per-vertex with a rate */
    GFX(S_OK, ONE_ELEMENT(e[0].InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA;
                          e[0].InstanceDataStepRate = 1));
    GFX(E_INVALIDARG, ONE_ELEMENT(e[0].AlignedByteOffset = 2));            /* float3 needs 4 */
    GFX(E_INVALIDARG, ONE_ELEMENT(e[1] = e[0]); d.InputLayout.NumElements = 2);  /* duplicate */
    GFX(E_INVALIDARG, ONE_ELEMENT(e[1] = e[0]; e[1].SemanticName = "COLOR";
                                  e[1].InputSlotClass = D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA);
        d.InputLayout.NumElements = 2);                                   /* slot class changes */
    GFX(S_OK, ONE_ELEMENT(e[1] = e[0]; e[1].SemanticName = "COLOR";
                          e[1].AlignedByteOffset = D3D12_APPEND_ALIGNED_ELEMENT);
        d.InputLayout.NumElements = 2);
    GFX(E_INVALIDARG, d.InputLayout.NumElements = 0);                     /* POSITION missing */
    GFX(E_INVALIDARG, d.InputLayout.pInputElementDescs = NULL);
    GFX(E_INVALIDARG, d.InputLayout.NumElements = D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT + 1);

    /* Blend state. */
#define RT0(...)                                                                                \
    D3D12_RENDER_TARGET_BLEND_DESC *rt0 = &d.BlendState.RenderTarget[0];                        \
    __VA_ARGS__
    /* OutputMergerLogicOp is TRUE: logic ops on a UINT render target; a UNORM one has none. */
    GFX(S_OK, RT0(rt0->LogicOpEnable = TRUE; rt0->LogicOp = D3D12_LOGIC_OP_XOR; d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UINT));
    GFX(E_INVALIDARG, RT0(rt0->LogicOpEnable = TRUE; rt0->LogicOp = D3D12_LOGIC_OP_XOR));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->SrcBlend = 0));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->DestBlend = 12));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->BlendOp = 6));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->SrcBlendAlpha = D3D12_BLEND_SRC_COLOR));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->DestBlendAlpha = D3D12_BLEND_INV_DEST_COLOR));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->BlendOpAlpha = 0));
    GFX(E_INVALIDARG, RT0(rt0->RenderTargetWriteMask = 0x10));
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE); d.RTVFormats[0] = DXGI_FORMAT_R32_UINT);
    GFX(S_OK, d.RTVFormats[0] = DXGI_FORMAT_R32_UINT);
    GFX(E_INVALIDARG, d.BlendState.IndependentBlendEnable = TRUE; d.BlendState.RenderTarget[1].BlendEnable = TRUE;
        d.BlendState.RenderTarget[1].SrcBlend = 0);
    GFX(E_INVALIDARG, RT0(rt0->BlendEnable = TRUE; rt0->DestBlend = D3D12_BLEND_INV_SRC1_COLOR);
        d.NumRenderTargets = 2; d.RTVFormats[1] = DXGI_FORMAT_R8G8B8A8_UNORM); /* dual source, 2 RTs */

    /* Rasterizer state. */
    GFX(E_INVALIDARG, d.RasterizerState.FillMode = 0);
    GFX(E_INVALIDARG, d.RasterizerState.CullMode = 0);
    GFX(E_INVALIDARG, d.RasterizerState.ConservativeRaster = D3D12_CONSERVATIVE_RASTERIZATION_MODE_ON);
    GFX(E_INVALIDARG, d.RasterizerState.ForcedSampleCount = 3);
    GFX(S_OK, d.RasterizerState.ForcedSampleCount = 4); /* target-independent rasterization (11_1) */
    GFX(E_INVALIDARG, d.RasterizerState.ForcedSampleCount = 4; d.DSVFormat = DXGI_FORMAT_D32_FLOAT);
    GFX(E_INVALIDARG, d.RasterizerState.ForcedSampleCount = 4; d.SampleDesc.Count = 4);
    GFX(E_INVALIDARG, d.RasterizerState.SlopeScaledDepthBias = __builtin_nanf(""));
    GFX(S_OK, d.RasterizerState.FillMode = D3D12_FILL_MODE_WIREFRAME;
        d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE; d.RasterizerState.DepthBias = -4);

    /* Depth-stencil state. */
    GFX(E_INVALIDARG, d.DepthStencilState.DepthEnable = TRUE);            /* DepthFunc 0 */
    GFX(E_INVALIDARG, d.DepthStencilState.DepthWriteMask = 2);
    GFX(E_INVALIDARG, d.DepthStencilState.StencilEnable = TRUE);          /* stencil ops 0 */
    GFX(S_OK, d.DSVFormat = DXGI_FORMAT_R8G8B8A8_UNORM); /* a colour format: accepted, as on Windows */
    GFX(E_INVALIDARG, d.DSVFormat = DXGI_FORMAT_R24G8_TYPELESS);

    /* Render targets and samples. */
    GFX(E_INVALIDARG, d.NumRenderTargets = 9);
    GFX(E_INVALIDARG, d.RTVFormats[1] = DXGI_FORMAT_R8G8B8A8_UNORM);      /* beyond NumRenderTargets */
    GFX(E_INVALIDARG, d.RTVFormats[0] = DXGI_FORMAT_D32_FLOAT);
    GFX(E_INVALIDARG, d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_TYPELESS);
    GFX(E_INVALIDARG, d.RTVFormats[0] = 1000);
    GFX(E_INVALIDARG, d.SampleDesc.Count = 0);
    GFX(E_INVALIDARG, d.SampleDesc.Count = 3);                            /* not a supported count */
    GFX(E_INVALIDARG, d.SampleDesc.Quality = 1);

    /* The rest. */
    GFX(E_INVALIDARG, d.IBStripCutValue = 3);
    GFX(E_INVALIDARG, d.NodeMask = 2);                                    /* one node */
    GFX(E_INVALIDARG, d.Flags = 0x10);
    GFX(E_INVALIDARG, d.StreamOutput.NumEntries = 1);                     /* NULL declaration */
    set_ctx("%s", "");
}

/* ---- compute pipelines --------------------------------------------------------------------- */

static void test_compute(void)
{
    memcpy(cs_dxil_unsigned, cs_dxil, sizeof(cs_dxil));
    memset(&cs_dxil_unsigned[1], 0, 16);
    CS(S_OK, (void)0);
    CS(S_OK, d.pRootSignature = rs_args);
    CS(S_OK, d.pRootSignature = NULL; d.CS = BYTECODE(cs_rts0_dxbc));     /* embedded root signature */
    CS(E_INVALIDARG, d.pRootSignature = NULL);
    CS(E_INVALIDARG, d.CS.BytecodeLength = 0);
    CS(E_INVALIDARG, d.CS = BYTECODE(vs_dxbc));
    CS(E_INVALIDARG, d.CS = flipped(cs_dxbc, sizeof(cs_dxbc), 28, 0x1000000));
    /* Shader model 6.0 DXIL (the device reports 6.2): accepted when signed; unsigned DXIL only
     * with experimental shader models, which this process does not enable. */
    CS(S_OK, d.CS = BYTECODE(cs_dxil));
    CS(E_INVALIDARG, d.CS = BYTECODE(cs_dxil_unsigned));
    CS(E_INVALIDARG, d.NodeMask = 4);
    CS(E_INVALIDARG, d.Flags = 2);
    ID3D12PipelineState *pso;
    CHECK_FAILS(ID3D12Device_CreateComputePipelineState(dev, NULL, &IID_ID3D12PipelineState, (void **)&pso), pso,
                E_INVALIDARG);
    D3D12_COMPUTE_PIPELINE_STATE_DESC d = cs_desc();
    CHECK_HR(ID3D12Device_CreateComputePipelineState(dev, &d, &IID_ID3D12PipelineState, NULL), S_FALSE);
    set_ctx("%s", "");
}

/* ---- cached blobs -------------------------------------------------------------------------- */

static void test_cached_blob(void)
{
    set_ctx("cached blob");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = gfx_desc();
    ID3D12PipelineState *pso = NULL, *again = NULL;
    CHECK_CREATED(gfx(&d, &pso), pso);
    if (!pso)
        return;
    size_t n = 0, n2 = 0;
    unsigned char *blob = cached_blob(pso, &n);
    CHECK(n > 72);
    d.CachedPSO.pCachedBlob = blob;
    d.CachedPSO.CachedBlobSizeInBytes = n;
    CHECK_CREATED(gfx(&d, &again), again);
    /* The same description gives the same blob, whether or not it came with one. */
    if (again) {
        unsigned char *blob2 = cached_blob(again, &n2);
        CHECK(n2 == n && blob2 && memcmp(blob, blob2, n) == 0);
        free(blob2);
    }
    RELEASE0(again);
    /* Layout (this runtime's format): 8-byte magic, version, 0, adapter identity at 16, driver
     * identity at 32, body length at 48, body, 16-byte checksum. D3D12_CACHED_PIPELINE_STATE's
     * page: a blob from another adapter is D3D12_ERROR_ADAPTER_NOT_FOUND, from another driver
     * version D3D12_ERROR_DRIVER_VERSION_MISMATCH, and one that does not match the description
     * E_INVALIDARG. */
    struct { size_t at; HRESULT hr; } flips[] = {
        { 0, E_INVALIDARG },                         /* magic */
        { 16, D3D12_ERROR_ADAPTER_NOT_FOUND_ },
        { 31, D3D12_ERROR_ADAPTER_NOT_FOUND_ },
        { 8, D3D12_ERROR_DRIVER_VERSION_MISMATCH_ }, /* format version */
        { 32, D3D12_ERROR_DRIVER_VERSION_MISMATCH_ },
        { 48, E_INVALIDARG },                        /* length */
        { 60, E_INVALIDARG },                        /* body: integrity check */
        { 0, E_INVALIDARG },
    };
    flips[7].at = n - 1;                             /* the checksum itself */
    for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
        set_ctx("cached blob, byte %zu flipped", flips[i].at);
        blob[flips[i].at] ^= 0x40;
        ID3D12PipelineState *p;
        CHECK_FAILS(gfx(&d, &p), p, flips[i].hr);
        blob[flips[i].at] ^= 0x40;
    }
    set_ctx("cached blob");
    ID3D12PipelineState *p;
    d.CachedPSO.CachedBlobSizeInBytes = n - 1;
    CHECK_FAILS(gfx(&d, &p), p, E_INVALIDARG);
    d.CachedPSO.CachedBlobSizeInBytes = 16;
    CHECK_FAILS(gfx(&d, &p), p, E_INVALIDARG);
    d.CachedPSO.CachedBlobSizeInBytes = n;
    d.CachedPSO.pCachedBlob = NULL;
    CHECK_FAILS(gfx(&d, &p), p, E_INVALIDARG);
    d.CachedPSO.CachedBlobSizeInBytes = 0;
    CHECK_CREATED(gfx(&d, &p), p);                   /* size 0: no cached blob */
    RELEASE0(p);
    /* A blob of this description does not fit another one. */
    d.CachedPSO.pCachedBlob = blob;
    d.CachedPSO.CachedBlobSizeInBytes = n;
    d.SampleMask = 0xF;
    CHECK_FAILS(gfx(&d, &p), p, E_INVALIDARG);
    /* Nor a compute pipeline. */
    D3D12_COMPUTE_PIPELINE_STATE_DESC c = cs_desc();
    c.CachedPSO.pCachedBlob = blob;
    c.CachedPSO.CachedBlobSizeInBytes = n;
    CHECK_FAILS(compute(&c, &p), p, E_INVALIDARG);
    free(blob);
    /* Compute round trip. */
    c = cs_desc();
    CHECK_CREATED(compute(&c, &p), p);
    if (p) {
        blob = cached_blob(p, &n);
        c.CachedPSO.pCachedBlob = blob;
        c.CachedPSO.CachedBlobSizeInBytes = n;
        CHECK_CREATED(compute(&c, &again), again);
        RELEASE0(again);
        free(blob);
    }
    RELEASE0(p);
    RELEASE0(pso);
    set_ctx("%s", "");
}

/* ---- pipeline state streams ---------------------------------------------------------------- */

/* d3dx12's CD3DX12_PIPELINE_STATE_STREAM_SUBOBJECT: the type, then the struct, aligned to void*. */
#define SUBOBJECT(name, T)                                                                      \
    typedef struct {                                                                            \
        alignas(void *) D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type;                               \
        T inner;                                                                                \
    } name
SUBOBJECT(so_root, ID3D12RootSignature *);
SUBOBJECT(so_shader, D3D12_SHADER_BYTECODE);
SUBOBJECT(so_layout, D3D12_INPUT_LAYOUT_DESC);
SUBOBJECT(so_topology, D3D12_PRIMITIVE_TOPOLOGY_TYPE);
/* d3d12.h declares D3D12_RT_FORMAT_ARRAY as a struct tag only (no typedef in C). */
SUBOBJECT(so_rtv, struct D3D12_RT_FORMAT_ARRAY);
SUBOBJECT(so_uint, UINT);
SUBOBJECT(so_blend, D3D12_BLEND_DESC);
SUBOBJECT(so_raster, D3D12_RASTERIZER_DESC);
SUBOBJECT(so_ds1, D3D12_DEPTH_STENCIL_DESC1);
SUBOBJECT(so_sample, DXGI_SAMPLE_DESC);
SUBOBJECT(so_cached, D3D12_CACHED_PIPELINE_STATE);
SUBOBJECT(so_view, D3D12_VIEW_INSTANCING_DESC);

/* The standard graphics pipeline as a stream; the states it omits take d3dx12's defaults,
 * so it spells out the zeroed depth-stencil state of gfx_desc(). */
struct gfx_stream {
    so_root rs;
    so_shader vs, ps;
    so_layout layout;
    so_topology topology;
    so_rtv rtv;
    so_ds1 ds;
};

static struct gfx_stream gfx_stream(void)
{
    struct gfx_stream s;
    memset(&s, 0, sizeof(s));
    s.rs.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE;
    s.rs.inner = rs_ia;
    s.vs.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS;
    s.vs.inner = BYTECODE(vs_dxbc);
    s.ps.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS;
    s.ps.inner = BYTECODE(ps_dxbc);
    s.layout.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT;
    s.layout.inner.pInputElementDescs = position_layout;
    s.layout.inner.NumElements = 1;
    s.topology.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY;
    s.topology.inner = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    s.rtv.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS;
    s.rtv.inner.NumRenderTargets = 1;
    s.rtv.inner.RTFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    s.ds.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1;
    return s;
}

static HRESULT stream(const void *data, size_t size, ID3D12PipelineState **out)
{
    D3D12_PIPELINE_STATE_STREAM_DESC d = { size, (void *)data };
    return ID3D12Device2_CreatePipelineState(dev2, &d, &IID_ID3D12PipelineState, (void **)out);
}

static void test_streams(void)
{
    set_ctx("stream");
    ID3D12PipelineState *from_stream = NULL, *from_desc = NULL, *p;
    struct gfx_stream s = gfx_stream();
    CHECK_CREATED(stream(&s, sizeof(s), &from_stream), from_stream);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = gfx_desc();
    CHECK_CREATED(gfx(&d, &from_desc), from_desc);
    if (from_stream && from_desc) {
        /* The same pipeline through either API: the same cached blob, accepted by both. */
        size_t n1, n2;
        unsigned char *b1 = cached_blob(from_stream, &n1), *b2 = cached_blob(from_desc, &n2);
        CHECK(n1 == n2 && b1 && b2 && memcmp(b1, b2, n1) == 0);
        d.CachedPSO.pCachedBlob = b1;
        d.CachedPSO.CachedBlobSizeInBytes = n1;
        CHECK_CREATED(gfx(&d, &p), p);
        RELEASE0(p);
        free(b1);
        free(b2);
    }
    RELEASE0(from_stream);
    RELEASE0(from_desc);

    /* Every other subobject type of the 1.606 headers, at default-like values. */
    struct {
        struct gfx_stream base;
        so_blend blend;
        so_uint sample_mask;
        so_raster raster;
        so_uint strip_cut, dsv_format;
        so_sample sample;
        so_uint node_mask;
        so_cached cached;
        so_uint flags;
        so_view view;
        so_shader gs, cs, as, ms;
    } all;
    memset(&all, 0, sizeof(all));
    all.base = gfx_stream();
    all.blend.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND;
    all.blend.inner = gfx_desc().BlendState;
    all.sample_mask.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK;
    all.sample_mask.inner = 1;
    all.raster.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER;
    all.raster.inner = gfx_desc().RasterizerState;
    all.strip_cut.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE;
    all.dsv_format.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT;
    all.dsv_format.inner = DXGI_FORMAT_D16_UNORM;
    all.sample.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC;
    all.sample.inner.Count = 1;
    all.node_mask.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK;
    all.cached.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO;
    all.flags.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS;
    all.view.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING;
    all.gs.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS;
    all.cs.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS;   /* empty: not a shader */
    all.as.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS;
    all.ms.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS;
    CHECK_CREATED(stream(&all, sizeof(all), &p), p);
    RELEASE0(p);

    /* A compute stream. */
    struct {
        so_shader cs;
        so_root rs;
    } cs = { { D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, BYTECODE(cs_dxbc) },
             { D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, rs_plain } };
    CHECK_CREATED(stream(&cs, sizeof(cs), &p), p);
    RELEASE0(p);
    /* The last subobject may end without its padding to 8 bytes. */
    struct {
        struct gfx_stream base;
        so_sample sample;
    } short_tail;
    short_tail.base = gfx_stream();
    short_tail.sample.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC;
    short_tail.sample.inner.Count = 1;
    short_tail.sample.inner.Quality = 0;
    CHECK_CREATED(stream(&short_tail, offsetof(__typeof__(short_tail), sample) + 12, &p), p);
    RELEASE0(p);

    /* Invalid streams. */
    CHECK_FAILS(stream(&s, 0, &p), p, E_INVALIDARG);                   /* zero size */
    CHECK_FAILS(stream(NULL, 64, &p), p, E_INVALIDARG);
    CHECK_FAILS(stream(&s, sizeof(s) - 12, &p), p, E_INVALIDARG);      /* cut inside a subobject */
    CHECK_FAILS(ID3D12Device2_CreatePipelineState(dev2, NULL, &IID_ID3D12PipelineState, (void **)&p), p,
                E_INVALIDARG);
    struct gfx_stream bad = gfx_stream();
    bad.topology.type = 23;                                              /* unknown type */
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    bad = gfx_stream();
    bad.topology.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MAX_VALID;
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    bad = gfx_stream();
    bad.ps.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS;               /* duplicate VS */
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    bad = gfx_stream();
    bad.ps.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS;               /* CS with VS */
    bad.ps.inner = BYTECODE(cs_dxbc);
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    bad = gfx_stream();
    bad.vs.inner.BytecodeLength = 0;                                     /* no shader at all */
    bad.ps.inner.BytecodeLength = 0;
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    bad = gfx_stream();
    bad.topology.inner = D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED;        /* the rules still apply */
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    /* Depth bounds need OPTIONS2.DepthBoundsTestSupported, FALSE on this device. */
    bad = gfx_stream();
    bad.ds.inner.DepthBoundsTestEnable = TRUE;
    CHECK_FAILS(stream(&bad, sizeof(bad), &p), p, E_INVALIDARG);
    /* View instancing needs OPTIONS3.ViewInstancingTier, NOT_SUPPORTED on this device. */
    D3D12_VIEW_INSTANCE_LOCATION loc[2] = { { 0, 0 }, { 0, 1 } };
    struct {
        struct gfx_stream base;
        so_view view;
    } vi;
    vi.base = gfx_stream();
    vi.view.type = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING;
    vi.view.inner.ViewInstanceCount = 2;
    vi.view.inner.pViewInstanceLocations = loc;
    vi.view.inner.Flags = D3D12_VIEW_INSTANCING_FLAG_NONE;
    CHECK_FAILS(stream(&vi, sizeof(vi), &p), p, E_INVALIDARG);
    set_ctx("%s", "");
}

/* ---- pipeline libraries -------------------------------------------------------------------- */

static HRESULT make_library(const void *blob, size_t size, ID3D12PipelineLibrary1 **out)
{
    return ID3D12Device1_CreatePipelineLibrary(dev1, blob, size, &IID_ID3D12PipelineLibrary1, (void **)out);
}

static void test_library(void)
{
    set_ctx("library");
    ID3D12PipelineLibrary1 *lib = NULL, *again = NULL;
    ID3D12PipelineState *gfx_pso = NULL, *cs_pso = NULL, *p = NULL;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC gd = gfx_desc();
    D3D12_COMPUTE_PIPELINE_STATE_DESC cd = cs_desc();
    CHECK_CREATED(make_library(NULL, 0, &lib), lib);                    /* empty */
    CHECK_CREATED(gfx(&gd, &gfx_pso), gfx_pso);
    CHECK_CREATED(compute(&cd, &cs_pso), cs_pso);
    if (!lib || !gfx_pso || !cs_pso)
        goto done;
    const IID *iids[] = { &IID_IUnknown, &IID_ID3D12Object, &IID_ID3D12DeviceChild, &IID_ID3D12PipelineLibrary,
                          &IID_ID3D12PipelineLibrary1 };
    for (size_t i = 0; i < sizeof(iids) / sizeof(iids[0]); i++) {
        void *q = NULL;
        CHECK_HR(ID3D12PipelineLibrary1_QueryInterface(lib, iids[i], &q), S_OK);
        CHECK_PTR(q, lib);
        if (q)
            IUnknown_Release((IUnknown *)q);
    }
    void *q = SENTINEL;
    CHECK_HR(ID3D12PipelineLibrary1_QueryInterface(lib, &IID_ID3D12Pageable, &q), E_NOINTERFACE);
    CHECK_PTR(q, NULL);
    size_t empty_size = ID3D12PipelineLibrary1_GetSerializedSize(lib);
    CHECK(empty_size > 0);

    /* StorePipeline: a name once; NULL name or pipeline refused. */
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, L"gfx", gfx_pso), S_OK);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, L"gfx", gfx_pso), E_INVALIDARG);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, L"gfx", cs_pso), E_INVALIDARG);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, NULL, cs_pso), E_INVALIDARG);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, L"none", NULL), E_INVALIDARG);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, L"cs", cs_pso), S_OK);
    CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(lib, L"GFX", gfx_pso), S_OK); /* names are case-sensitive */
    CHECK(ID3D12PipelineLibrary1_GetSerializedSize(lib) > empty_size);

    /* Loads: the name must exist and the description match the stored pipeline. */
    CHECK_CREATED(ID3D12PipelineLibrary1_LoadGraphicsPipeline(lib, L"gfx", &gd, &IID_ID3D12PipelineState, (void **)&p), p);
    CHECK(p != gfx_pso);
    RELEASE0(p);
    CHECK_CREATED(ID3D12PipelineLibrary1_LoadComputePipeline(lib, L"cs", &cd, &IID_ID3D12PipelineState, (void **)&p), p);
    RELEASE0(p);
    struct gfx_stream s = gfx_stream();
    D3D12_PIPELINE_STATE_STREAM_DESC sd = { sizeof(s), &s };
    CHECK_CREATED(ID3D12PipelineLibrary1_LoadPipeline(lib, L"gfx", &sd, &IID_ID3D12PipelineState, (void **)&p), p);
    RELEASE0(p);
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadGraphicsPipeline(lib, L"missing", &gd, &IID_ID3D12PipelineState, (void **)&p),
                p, E_INVALIDARG);
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadGraphicsPipeline(lib, NULL, &gd, &IID_ID3D12PipelineState, (void **)&p), p,
                E_INVALIDARG);
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadGraphicsPipeline(lib, L"gfx", NULL, &IID_ID3D12PipelineState, (void **)&p),
                p, E_INVALIDARG);
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadComputePipeline(lib, L"gfx", &cd, &IID_ID3D12PipelineState, (void **)&p), p,
                E_INVALIDARG);
    gd.SampleMask = 0x3;
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadGraphicsPipeline(lib, L"gfx", &gd, &IID_ID3D12PipelineState, (void **)&p),
                p, E_INVALIDARG);
    gd = gfx_desc();
    s.topology.inner = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadPipeline(lib, L"gfx", &sd, &IID_ID3D12PipelineState, (void **)&p), p,
                E_INVALIDARG);
    s = gfx_stream();
    CHECK_FAILS(ID3D12PipelineLibrary1_LoadPipeline(lib, L"cs", &sd, &IID_ID3D12PipelineState, (void **)&p), p,
                E_INVALIDARG);

    /* Serialize: at least GetSerializedSize bytes. */
    size_t size = ID3D12PipelineLibrary1_GetSerializedSize(lib);
    unsigned char *data = malloc(size + 8);
    CHECK_HR(ID3D12PipelineLibrary1_Serialize(lib, data, size - 1), E_INVALIDARG);
    CHECK_HR(ID3D12PipelineLibrary1_Serialize(lib, NULL, size), E_INVALIDARG);
    CHECK_HR(ID3D12PipelineLibrary1_Serialize(lib, data, size + 8), S_OK);

    /* Reload: the same pipelines under the same names. */
    CHECK_CREATED(make_library(data, size, &again), again);
    if (again) {
        CHECK_EQ(ID3D12PipelineLibrary1_GetSerializedSize(again), size);
        CHECK_CREATED(ID3D12PipelineLibrary1_LoadGraphicsPipeline(again, L"gfx", &gd, &IID_ID3D12PipelineState, (void **)&p), p);
        RELEASE0(p);
        CHECK_CREATED(ID3D12PipelineLibrary1_LoadComputePipeline(again, L"cs", &cd, &IID_ID3D12PipelineState, (void **)&p), p);
        RELEASE0(p);
        CHECK_HR(ID3D12PipelineLibrary1_StorePipeline(again, L"cs", cs_pso), E_INVALIDARG);
        RELEASE0(again);
    }
    /* Corrupt and foreign blobs (CreatePipelineLibrary's page: corrupted → E_INVALIDARG, another
     * driver → D3D12_ERROR_DRIVER_VERSION_MISMATCH, other hardware → D3D12_ERROR_ADAPTER_NOT_FOUND). */
    struct { size_t at; HRESULT hr; } flips[] = {
        { 1, E_INVALIDARG },
        { 20, D3D12_ERROR_ADAPTER_NOT_FOUND_ },
        { 40, D3D12_ERROR_DRIVER_VERSION_MISMATCH_ },
        { 64, E_INVALIDARG },
    };
    for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++) {
        set_ctx("library blob byte %zu flipped", flips[i].at);
        data[flips[i].at] ^= 0x20;
        CHECK_FAILS(make_library(data, size, &again), again, flips[i].hr);
        data[flips[i].at] ^= 0x20;
    }
    set_ctx("library");
    CHECK_FAILS(make_library(data, size - 1, &again), again, E_INVALIDARG);
    CHECK_FAILS(make_library(data, 10, &again), again, E_INVALIDARG);
    CHECK_FAILS(make_library(NULL, size, &again), again, E_INVALIDARG);
    CHECK_FAILS(make_library(vs_dxbc, sizeof(vs_dxbc), &again), again, E_INVALIDARG);
    CHECK_HR(ID3D12Device1_CreatePipelineLibrary(dev1, data, size, &IID_ID3D12PipelineLibrary, NULL), S_FALSE);
    free(data);

    /* The library reports SINGLE_PSO | LIBRARY shader-cache support. */
    D3D12_FEATURE_DATA_SHADER_CACHE sc = { 0 };
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_SHADER_CACHE, &sc, sizeof(sc)), S_OK);
    CHECK_EQ(sc.SupportFlags, D3D12_SHADER_CACHE_SUPPORT_SINGLE_PSO | D3D12_SHADER_CACHE_SUPPORT_LIBRARY);
done:
    RELEASE0(lib);
    RELEASE0(gfx_pso);
    RELEASE0(cs_pso);
    set_ctx("%s", "");
}

/* ---- command signatures -------------------------------------------------------------------- */

static D3D12_INDIRECT_ARGUMENT_DESC arg(D3D12_INDIRECT_ARGUMENT_TYPE type, UINT a, UINT b, UINT c)
{
    D3D12_INDIRECT_ARGUMENT_DESC d;
    memset(&d, 0, sizeof(d));
    d.Type = type;
    d.Constant.RootParameterIndex = a;
    d.Constant.DestOffsetIn32BitValues = b;
    d.Constant.Num32BitValuesToSet = c;
    return d;
}

#define DRAW_ARG arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW, 0, 0, 0)
#define DRAW_INDEXED_ARG arg(D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED, 0, 0, 0)
#define DISPATCH_ARG arg(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH, 0, 0, 0)
#define VB_ARG(slot) arg(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, (slot), 0, 0)
#define IB_ARG arg(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW, 0, 0, 0)
#define CONST_ARG(i, off, n) arg(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, (i), (off), (n))
#define CBV_ARG(i) arg(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, (i), 0, 0)
#define SRV_ARG(i) arg(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, (i), 0, 0)
#define UAV_ARG(i) arg(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, (i), 0, 0)

static HRESULT signature(UINT stride, const D3D12_INDIRECT_ARGUMENT_DESC *args, UINT n, UINT node_mask,
                         ID3D12RootSignature *rs, ID3D12CommandSignature **out)
{
    D3D12_COMMAND_SIGNATURE_DESC d = { stride, n, args, node_mask };
    return ID3D12Device_CreateCommandSignature(dev, &d, rs, &IID_ID3D12CommandSignature, (void **)out);
}

/* SIG(expected, stride, root signature, arguments...) */
#define SIG(expected, stride, rs, ...)                                                          \
    do {                                                                                        \
        D3D12_INDIRECT_ARGUMENT_DESC a_[] = { __VA_ARGS__ };                                    \
        ID3D12CommandSignature *s_ = SENTINEL;                                                  \
        set_ctx("stride %u: %s", (unsigned)(stride), #__VA_ARGS__);                             \
        HRESULT hr_ = signature((stride), a_, sizeof(a_) / sizeof(a_[0]), 0, (rs), &s_);        \
        check_hr(__FILE__, __LINE__, "CreateCommandSignature", hr_, (expected));                \
        if (SUCCEEDED(hr_) && s_ && (void *)s_ != SENTINEL)                                     \
            check_u64(__FILE__, __LINE__, "Release", ID3D12CommandSignature_Release(s_), 0);    \
        else                                                                                    \
            check_ptr(__FILE__, __LINE__, "*ppvCommandSignature", s_, NULL);                    \
    } while (0)

static void test_command_signatures(void)
{
    /* Plain signatures: draw 16, indexed draw 20, dispatch 12 bytes of arguments; any larger
     * stride that is a multiple of 4. */
    SIG(S_OK, 16, NULL, DRAW_ARG);
    SIG(S_OK, 36, NULL, DRAW_INDEXED_ARG);     /* the spec's "no argument changes" example */
    SIG(S_OK, 12, NULL, DISPATCH_ARG);
    SIG(S_OK, 256, NULL, DISPATCH_ARG);
    SIG(E_INVALIDARG, 12, NULL, DRAW_ARG);     /* stride below the arguments */
    SIG(E_INVALIDARG, 16, NULL, DRAW_INDEXED_ARG);
    SIG(E_INVALIDARG, 18, NULL, DRAW_ARG);     /* not a multiple of 4 */
    SIG(E_INVALIDARG, 15, NULL, DISPATCH_ARG);
    /* Exactly one draw or dispatch, last. */
    SIG(E_INVALIDARG, 32, NULL, DRAW_ARG, DRAW_ARG);
    SIG(E_INVALIDARG, 32, NULL, DISPATCH_ARG, DRAW_ARG);
    SIG(E_INVALIDARG, 32, NULL, DRAW_ARG, VB_ARG(0));
    SIG(E_INVALIDARG, 32, NULL, VB_ARG(0));
    /* Unsupported and unknown types. */
    SIG(E_INVALIDARG, 256, NULL, arg(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS, 0, 0, 0));
    SIG(E_INVALIDARG, 256, NULL, arg(D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH, 0, 0, 0));
    SIG(E_INVALIDARG, 256, NULL, arg(11, 0, 0, 0));
    /* Vertex and index buffers. */
    SIG(S_OK, 52, NULL, VB_ARG(0), VB_ARG(31), DRAW_INDEXED_ARG);
    SIG(S_OK, 36, NULL, IB_ARG, DRAW_INDEXED_ARG);
    SIG(E_INVALIDARG, 52, NULL, VB_ARG(32), DRAW_ARG);
    SIG(E_INVALIDARG, 52, NULL, VB_ARG(1), VB_ARG(1), DRAW_ARG);
    SIG(E_INVALIDARG, 36, NULL, IB_ARG, DRAW_ARG);
    SIG(E_INVALIDARG, 52, NULL, IB_ARG, IB_ARG, DRAW_INDEXED_ARG);
    SIG(E_INVALIDARG, 28, NULL, VB_ARG(0), DISPATCH_ARG);
    /* Root arguments: a root signature if and only if the signature changes root arguments. */
    SIG(S_OK, 24, rs_args, CONST_ARG(0, 1, 2), DRAW_ARG);
    SIG(E_INVALIDARG, 24, NULL, CONST_ARG(0, 1, 2), DRAW_ARG);
    SIG(E_INVALIDARG, 16, rs_args, DRAW_ARG);
    SIG(S_OK, 16 + 8 + 8 + 8 + 4 + 12, rs_args, CONST_ARG(0, 0, 4), CBV_ARG(1), SRV_ARG(2), UAV_ARG(3),
        CONST_ARG(5, 0, 1), DISPATCH_ARG);
    SIG(S_OK, 24, rs_args, CONST_ARG(0, 0, 1), CONST_ARG(0, 2, 1), DRAW_ARG);  /* split, sorted */
    SIG(E_INVALIDARG, 24, rs_args, CONST_ARG(0, 2, 1), CONST_ARG(0, 0, 1), DRAW_ARG);
    SIG(E_INVALIDARG, 24, rs_args, CONST_ARG(0, 0, 2), CONST_ARG(0, 1, 1), DRAW_ARG);
    SIG(E_INVALIDARG, 32, rs_args, CONST_ARG(0, 2, 3), DRAW_ARG);              /* 2 + 3 > 4 */
    SIG(E_INVALIDARG, 32, rs_args, CONST_ARG(0, 0, 0), DRAW_ARG);
    SIG(E_INVALIDARG, 32, rs_args, CONST_ARG(1, 0, 1), DRAW_ARG);              /* [1] is a CBV */
    SIG(E_INVALIDARG, 32, rs_args, CBV_ARG(2), DRAW_ARG);                      /* [2] is an SRV */
    SIG(E_INVALIDARG, 32, rs_args, SRV_ARG(3), DRAW_ARG);
    SIG(E_INVALIDARG, 32, rs_args, UAV_ARG(4), DRAW_ARG);                      /* a table */
    SIG(E_INVALIDARG, 32, rs_args, CBV_ARG(6), DRAW_ARG);                      /* beyond the signature */
    SIG(E_INVALIDARG, 32, rs_args, SRV_ARG(2), CBV_ARG(1), DRAW_ARG);          /* not sorted */
    SIG(E_INVALIDARG, 32, rs_args, CBV_ARG(1), CBV_ARG(1), DRAW_ARG);
    /* The spec's "root constants and vertex buffers" example: 4 + 4 + 16 + 16 = 40 bytes. */
    SIG(S_OK, 40, rs_args, CONST_ARG(0, 0, 1), CONST_ARG(5, 0, 1), VB_ARG(3), DRAW_ARG);
    SIG(E_INVALIDARG, 36, rs_args, CONST_ARG(0, 0, 1), CONST_ARG(5, 0, 1), VB_ARG(3), DRAW_ARG);

    set_ctx("command signature object");
    ID3D12CommandSignature *s = NULL;
    D3D12_INDIRECT_ARGUMENT_DESC one[] = { DRAW_ARG }, two[] = { CONST_ARG(0, 0, 1), DRAW_ARG };
    CHECK_FAILS(signature(16, one, 0, 0, NULL, &s), s, E_INVALIDARG);       /* no arguments */
    CHECK_FAILS(signature(16, NULL, 1, 0, NULL, &s), s, E_INVALIDARG);
    CHECK_FAILS(signature(16, one, 1, 2, NULL, &s), s, E_INVALIDARG);       /* node 1 does not exist */
    CHECK_FAILS(signature(20, two, 2, 0, (ID3D12RootSignature *)dev, &s), s, E_INVALIDARG);
    CHECK_FAILS(ID3D12Device_CreateCommandSignature(dev, NULL, NULL, &IID_ID3D12CommandSignature, (void **)&s), s,
                E_INVALIDARG);
    D3D12_COMMAND_SIGNATURE_DESC d = { 16, 1, one, 0 };
    CHECK_HR(ID3D12Device_CreateCommandSignature(dev, &d, NULL, &IID_ID3D12CommandSignature, NULL), S_FALSE);
    ULONG rs_refs = refcount(rs_args);
    CHECK_CREATED(signature(20, two, 2, 1, rs_args, &s), s);
    if (s) {
        /* The signature holds a reference on its root signature (IndirectDrawing.md test plan). */
        CHECK_EQ(refcount(rs_args), rs_refs + 1);
        const IID *iids[] = { &IID_IUnknown, &IID_ID3D12Object, &IID_ID3D12DeviceChild, &IID_ID3D12Pageable,
                              &IID_ID3D12CommandSignature };
        for (size_t i = 0; i < sizeof(iids) / sizeof(iids[0]); i++) {
            void *q = NULL;
            CHECK_HR(ID3D12CommandSignature_QueryInterface(s, iids[i], &q), S_OK);
            CHECK_PTR(q, s);
            if (q)
                IUnknown_Release((IUnknown *)q);
        }
        RELEASE0(s);
    }
    CHECK_EQ(refcount(rs_args), rs_refs);
    set_ctx("%s", "");
}

/* ---- ExecuteIndirect ----------------------------------------------------------------------- */

static ID3D12Resource *make_resource(const D3D12_RESOURCE_DESC *desc)
{
    D3D12_HEAP_PROPERTIES hp;
    memset(&hp, 0, sizeof(hp));
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    ID3D12Resource *r = NULL;
    CHECK_HR(ID3D12Device_CreateCommittedResource(dev, &hp, D3D12_HEAP_FLAG_NONE, desc, D3D12_RESOURCE_STATE_COMMON,
                                                  NULL, &IID_ID3D12Resource, (void **)&r),
             S_OK);
    return r;
}

static ID3D12Resource *make_buffer(UINT64 width)
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
    return make_resource(&d);
}

/* Records one ExecuteIndirect on a new list of `type` and returns what Close says. */
static HRESULT execute_indirect(D3D12_COMMAND_LIST_TYPE type, ID3D12CommandSignature *sig, UINT max,
                                ID3D12Resource *args, UINT64 args_offset, ID3D12Resource *count,
                                UINT64 count_offset)
{
    ID3D12CommandAllocator *alloc = NULL;
    ID3D12GraphicsCommandList *list = NULL;
    HRESULT hr = ID3D12Device_CreateCommandAllocator(dev, type, &IID_ID3D12CommandAllocator, (void **)&alloc);
    if (FAILED(hr))
        return hr;
    hr = ID3D12Device_CreateCommandList(dev, 0, type, alloc, NULL, &IID_ID3D12GraphicsCommandList, (void **)&list);
    if (SUCCEEDED(hr)) {
        ID3D12GraphicsCommandList_ExecuteIndirect(list, sig, max, args, args_offset, count, count_offset);
        hr = ID3D12GraphicsCommandList_Close(list);
        ID3D12GraphicsCommandList_Release(list);
    }
    ID3D12CommandAllocator_Release(alloc);
    return hr;
}

static void test_execute_indirect(void)
{
    set_ctx("ExecuteIndirect");
    ID3D12CommandSignature *draw = NULL, *dispatch = NULL, *draw_vb = NULL;
    D3D12_INDIRECT_ARGUMENT_DESC a_draw[] = { DRAW_ARG }, a_dispatch[] = { DISPATCH_ARG },
                                 a_draw_vb[] = { VB_ARG(0), DRAW_ARG };
    CHECK_CREATED(signature(16, a_draw, 1, 0, NULL, &draw), draw);
    CHECK_CREATED(signature(12, a_dispatch, 1, 0, NULL, &dispatch), dispatch);
    CHECK_CREATED(signature(32, a_draw_vb, 2, 0, NULL, &draw_vb), draw_vb);
    ID3D12Resource *args = make_buffer(256), *count = make_buffer(16);
    D3D12_RESOURCE_DESC td;
    memset(&td, 0, sizeof(td));
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    td.Width = td.Height = 16;
    td.DepthOrArraySize = td.MipLevels = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.SampleDesc.Count = 1;
    ID3D12Resource *tex = make_resource(&td);
    if (!draw || !dispatch || !draw_vb || !args || !count || !tex)
        goto done;
    const D3D12_COMMAND_LIST_TYPE DIRECT = D3D12_COMMAND_LIST_TYPE_DIRECT;
    const D3D12_COMMAND_LIST_TYPE COMPUTE = D3D12_COMMAND_LIST_TYPE_COMPUTE;
    const D3D12_COMMAND_LIST_TYPE BUNDLE = D3D12_COMMAND_LIST_TYPE_BUNDLE;
    /* The argument range: offset + stride × (max − 1) + the arguments of one command ≤ width. */
    CHECK_HR(execute_indirect(DIRECT, draw, 16, args, 0, NULL, 0), S_OK);         /* 16 × 16 = 256 */
    CHECK_HR(execute_indirect(DIRECT, draw, 17, args, 0, NULL, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, draw, 15, args, 16, NULL, 0), S_OK);
    CHECK_HR(execute_indirect(DIRECT, draw, 16, args, 4, NULL, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, draw_vb, 8, args, 0, NULL, 0), S_OK);       /* 32 × 7 + 32 */
    CHECK_HR(execute_indirect(DIRECT, dispatch, 1, args, 244, NULL, 0), S_OK);    /* 244 + 12 = 256 */
    CHECK_HR(execute_indirect(DIRECT, dispatch, 1, args, 248, NULL, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, draw, 0, args, 256, NULL, 0), S_OK);        /* nothing read */
    CHECK_HR(execute_indirect(DIRECT, draw, 1, args, 2, NULL, 0), E_INVALIDARG);  /* 4-byte aligned */
    /* The count buffer: a 4-byte aligned UINT inside the buffer. */
    CHECK_HR(execute_indirect(DIRECT, draw, 4, args, 0, count, 12), S_OK);
    CHECK_HR(execute_indirect(DIRECT, draw, 4, args, 0, count, 16), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, draw, 4, args, 0, count, 6), E_INVALIDARG);
    /* Buffers only, and a command signature. */
    CHECK_HR(execute_indirect(DIRECT, draw, 1, tex, 0, NULL, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, draw, 1, args, 0, tex, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, draw, 1, NULL, 0, NULL, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(DIRECT, NULL, 1, args, 0, NULL, 0), E_INVALIDARG);
    /* List types: dispatch on compute lists; draws only on direct lists (a method illegal on the
     * list's type fails Close with E_FAIL, as for Draw); nothing on copy lists. */
    CHECK_HR(execute_indirect(COMPUTE, dispatch, 1, args, 0, NULL, 0), S_OK);
    CHECK_HR(execute_indirect(COMPUTE, draw, 1, args, 0, NULL, 0), E_FAIL);
    CHECK_HR(execute_indirect(D3D12_COMMAND_LIST_TYPE_COPY, dispatch, 1, args, 0, NULL, 0), E_FAIL);
    /* Bundles (IndirectDrawing.md "Bundles"): no count buffer, a single-argument signature. */
    CHECK_HR(execute_indirect(BUNDLE, draw, 1, args, 0, NULL, 0), S_OK);
    CHECK_HR(execute_indirect(BUNDLE, draw, 1, args, 0, count, 0), E_INVALIDARG);
    CHECK_HR(execute_indirect(BUNDLE, draw_vb, 1, args, 0, NULL, 0), E_INVALIDARG);
done:
    RELEASE0(draw);
    RELEASE0(dispatch);
    RELEASE0(draw_vb);
    RELEASE0(args);
    RELEASE0(count);
    RELEASE0(tex);
    set_ctx("%s", "");
}

/* ---- main ---------------------------------------------------------------------------------- */

/* ---- binding methods ------------------------------------------------------------------------
 * SetDescriptorHeaps takes shader-visible CBV/SRV/UAV and sampler heaps, one of each; SetRoot*
 * must name a parameter of its type in the bound root signature (rs_args), root constants
 * stay inside the parameter, and a descriptor table lies in the bound heap of its type. An
 * invalid call makes Close fail with E_INVALIDARG. */

/* Records `calls` into a fresh direct list after binding rs_args (graphics and compute) and
 * returns what Close says. */
#define BIND_CLOSE(expected, calls)                                                                          \
    do {                                                                                                     \
        ID3D12CommandAllocator *a_ = NULL;                                                                   \
        ID3D12GraphicsCommandList *l = NULL;                                                                 \
        CHECK_HR(ID3D12Device_CreateCommandAllocator(dev, D3D12_COMMAND_LIST_TYPE_DIRECT,                    \
                                                     &IID_ID3D12CommandAllocator, (void **)&a_),             \
                 S_OK);                                                                                      \
        if (a_ && SUCCEEDED(ID3D12Device_CreateCommandList(dev, 0, D3D12_COMMAND_LIST_TYPE_DIRECT, a_, NULL, \
                                                           &IID_ID3D12GraphicsCommandList, (void **)&l))) {  \
            calls;                                                                                           \
            check_hr(__FILE__, __LINE__, "Close after " #calls, ID3D12GraphicsCommandList_Close(l),         \
                     (expected));                                                                            \
            ID3D12GraphicsCommandList_Release(l);                                                            \
        }                                                                                                    \
        if (a_)                                                                                              \
            ID3D12CommandAllocator_Release(a_);                                                              \
    } while (0)

static ID3D12DescriptorHeap *heap_of(D3D12_DESCRIPTOR_HEAP_TYPE type, UINT n, int visible)
{
    D3D12_DESCRIPTOR_HEAP_DESC hd = {type, n,
                                     visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE : D3D12_DESCRIPTOR_HEAP_FLAG_NONE,
                                     0};
    ID3D12DescriptorHeap *h = NULL;
    CHECK_HR(ID3D12Device_CreateDescriptorHeap(dev, &hd, &IID_ID3D12DescriptorHeap, (void **)&h), S_OK);
    return h;
}

static void test_binding(void)
{
    set_ctx("binding");
    ID3D12DescriptorHeap *res = heap_of(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, 1);
    ID3D12DescriptorHeap *res2 = heap_of(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, 1);
    ID3D12DescriptorHeap *smp = heap_of(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 8, 1);
    ID3D12DescriptorHeap *cpu = heap_of(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, 0);
    ID3D12DescriptorHeap *rtv = heap_of(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 4, 0);
    ID3D12DescriptorHeap *dsv = heap_of(D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, 0);
    if (!res || !res2 || !smp || !cpu)
        goto out;
    D3D12_GPU_DESCRIPTOR_HANDLE t0 = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(res);
    D3D12_GPU_DESCRIPTOR_HANDLE t7 = {t0.ptr + 7 * ID3D12Device_GetDescriptorHandleIncrementSize(
                                                    dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV)};
    D3D12_GPU_DESCRIPTOR_HANDLE other = ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(res2);
    D3D12_GPU_DESCRIPTOR_HANDLE past = {t7.ptr + ID3D12Device_GetDescriptorHandleIncrementSize(
                                                     dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV)};
    ID3D12DescriptorHeap *both[2] = {res, smp}, *two_res[2] = {res, res2}, *non_visible[1] = {cpu};
    const UINT four[4] = {1, 2, 3, 4};
    D3D12_GPU_VIRTUAL_ADDRESS va = 0x10000;

    /* Every valid form. */
    BIND_CLOSE(S_OK, {
        ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 2, both);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(l, 0, 4, four, 0);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(l, 0, 2, four, 2);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(l, 0, 9, 3);
        ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(l, 1, va);
        ID3D12GraphicsCommandList_SetGraphicsRootShaderResourceView(l, 2, va);
        ID3D12GraphicsCommandList_SetGraphicsRootUnorderedAccessView(l, 3, va);
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(l, 4, t0);
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(l, 4, t7);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(l, 5, 9, 0);
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(l, 0, 4, four, 0);
        ID3D12GraphicsCommandList_SetComputeRootConstantBufferView(l, 1, va);
        ID3D12GraphicsCommandList_SetComputeRootShaderResourceView(l, 2, va);
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 3, va);
        ID3D12GraphicsCommandList_SetComputeRootDescriptorTable(l, 4, t0);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, NULL);
        ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 0, NULL);
    });
    /* Heaps: two of one type; a heap that is not shader-visible; NULL; more than two. */
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 2, two_res));
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 1, non_visible));
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 1, NULL));
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 3, both));
    /* No root signature set; an index past the parameters; a parameter of another type. */
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(l, 0, 1, 0));
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(l, 0, 1, 0);
    });
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRootConstantBufferView(l, 6, va);
    });
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRootShaderResourceView(l, 1, va);
    });
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetComputeRootUnorderedAccessView(l, 0, va);
    });
    /* Constants beyond Num32BitValues (4 at offset 1; 1 at offset 4; 2 into a 1-value one). */
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstants(l, 0, 4, four, 1);
    });
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(l, 0, 1, 4);
    });
    BIND_CLOSE(E_INVALIDARG, {
        ID3D12GraphicsCommandList_SetComputeRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetComputeRoot32BitConstants(l, 5, 2, four, 0);
    });
    /* Tables: no heap bound; a heap not bound; past the bound heap's end; into the sampler
     * heap for an SRV table. Windows' runtime records them (only the debug layer reports #708,
     * checked in conf_recording.c): Close succeeds. */
    BIND_CLOSE(S_OK, {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(l, 4, t0);
    });
    BIND_CLOSE(S_OK, {
        ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 2, both);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(l, 4, other);
    });
    BIND_CLOSE(S_OK, {
        ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 2, both);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(l, 4, past);
    });
    BIND_CLOSE(S_OK, {
        ID3D12GraphicsCommandList_SetDescriptorHeaps(l, 2, both);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRootDescriptorTable(
            l, 4, ID3D12DescriptorHeap_GetGPUDescriptorHandleForHeapStart(smp));
    });
    /* Changing the root signature drops the arguments (nothing to check from outside but that
     * the list still closes); a root signature that is not one. */
    BIND_CLOSE(S_OK, {
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_args);
        ID3D12GraphicsCommandList_SetGraphicsRoot32BitConstant(l, 0, 1, 0);
        ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, rs_plain);
    });
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetGraphicsRootSignature(l, (ID3D12RootSignature *)res));
    /* SetPipelineState: a pipeline state object; not NULL, not another object. */
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetPipelineState(l, NULL));
    BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_SetPipelineState(l, (ID3D12PipelineState *)res));
    {
        ID3D12PipelineState *pso = NULL;
        D3D12_COMPUTE_PIPELINE_STATE_DESC cd = cs_desc();
        CHECK_HR(compute(&cd, &pso), S_OK);
        if (pso) {
            BIND_CLOSE(S_OK, ID3D12GraphicsCommandList_SetPipelineState(l, pso));
            RELEASE0(pso);
        }
    }

    /* OMSetRenderTargets: handles of live RTV heaps (a single range stays inside its heap)
     * and a DSV-heap handle; at most 8. */
    if (rtv && dsv) {
        D3D12_CPU_DESCRIPTOR_HANDLE r0 = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(rtv);
        D3D12_CPU_DESCRIPTOR_HANDLE r1 = {r0.ptr + ID3D12Device_GetDescriptorHandleIncrementSize(
                                                       dev, D3D12_DESCRIPTOR_HEAP_TYPE_RTV)};
        D3D12_CPU_DESCRIPTOR_HANDLE d0 = ID3D12DescriptorHeap_GetCPUDescriptorHandleForHeapStart(dsv);
        D3D12_CPU_DESCRIPTOR_HANDLE arr[2] = {r1, r0};
        BIND_CLOSE(S_OK, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 4, &r0, TRUE, &d0));
        BIND_CLOSE(S_OK, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 2, arr, FALSE, NULL));
        BIND_CLOSE(S_OK, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 0, NULL, FALSE, &d0));
        BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 4, &r1, TRUE, NULL));
        BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 1, &d0, FALSE, NULL));
        BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 1, &r0, FALSE, &r0));
        BIND_CLOSE(E_INVALIDARG, ID3D12GraphicsCommandList_OMSetRenderTargets(l, 9, &r0, TRUE, NULL));
    }
out:
    RELEASE0(res);
    RELEASE0(res2);
    RELEASE0(smp);
    RELEASE0(cpu);
    RELEASE0(rtv);
    RELEASE0(dsv);
    set_ctx("%s", "");
}

int main(void)
{
    HRESULT hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev);
    CHECK_HR(hr, S_OK);
    if (FAILED(hr)) {
        printf("pipeline_c: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device1, (void **)&dev1), S_OK);
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device2, (void **)&dev2), S_OK);
    make_root_signatures();
    if (rs_ia && rs_plain && rs_args && dev1 && dev2) {
        test_graphics_object();
        test_graphics_rules();
        test_compute();
        test_cached_blob();
        test_streams();
        test_library();
        test_command_signatures();
        test_execute_indirect();
        test_binding();
    }
    RELEASE0(rs_ia);
    RELEASE0(rs_plain);
    RELEASE0(rs_args);
    if (dev1)
        ID3D12Device1_Release(dev1);
    if (dev2)
        ID3D12Device2_Release(dev2);
    CHECK_EQ(ID3D12Device_Release(dev), 0);
    printf("pipeline_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
