// tests/abi/draw.cpp - draws executed by the CPU backend, through the C ABI from C++.
//
// The shaders are real DXIL: the textured vertex and pixel shaders Mesa's OpenGL-on-12
// compiler produced (tests/fixtures/dxil, unsigned, so the device enables
// D3D12ExperimentalShaderModels first, as Mesa does on Linux). The vertex shader computes
// `mvp * pos` with mvp in cbuffer b0 and passes uv through; the pixel shader returns
// `texture(tex, uv) * tint` with tint in its own b0, tex at t0 and its sampler at s0.
//
// The root signature gives each stage its own bindings (shader visibility) and uses every kind
// of root parameter: a root CBV (VS b0, the matrix in an upload buffer), root constants (VS
// b1, Mesa's state variables; PS b0, the tint), a descriptor table (PS t0, an SRV of a 2x2
// texture in a shader-visible heap) and a static sampler (PS s0, point, clamp).
//
// A pipeline whose root signature leaves one of the shaders' resources unbound is refused with
// E_INVALIDARG (PS_ROOT_SIGNATURE_MISMATCH). Checked, pixel by pixel after a copy to a readback
// buffer:
//   1. DrawInstanced of a right triangle over the top-left half of a 16x16 RGBA8 target:
//      a pixel is covered exactly when x + y < 15 (its center inside; centers on the
//      hypotenuse belong to the right/bottom edge and are left out: 120 pixels), and
//      shows the 2x2 texture's texel of its quadrant times the tint; the rest keeps the clear;
//   2. DrawIndexedInstanced of a quad (two triangles of a 16-bit index buffer, base vertex
//      1) under a scissor of the left half: pixels x < 8 drawn, x >= 8 keep the clear;
//   2a. the same with a viewport outside D3D12's ranges ({NaN, NaN, 16, 16, -5, 7}): held to
//      them ({0, 0, 16, 16, 0, 1}), the same pixels;
//   2b. the same quad through ExecuteIndirect (index buffer view and indexed-draw arguments
//      read from a buffer);
//   3. a second draw with a new tint set by SetGraphicsRoot32BitConstant (one value at an
//      offset, the others kept);
//   3b. the triangle inside a render pass whose CLEAR beginning access clears the target
//      (cleared to black and unbound before) to the clear color;
//   3c. a bundle that sets the topology and one root constant and draws, inheriting every
//      other state from the direct list; what it set stays set for the list's next draw;
//   4. the triangle through a D24_UNORM_S8_UINT depth-stencil view cleared to (1.0, 0), depth
//      LESS and stencil ALWAYS / REPLACE with ref 0x5A: both planes, copied out through
//      GetCopyableFootprints, hold depth 0.5 (UNORM24 0x800000; Mesa's vertex shader maps
//      z = 0 to 0.5) and stencil 0x5A exactly on the 120 covered pixels, and 0xFFFFFF / 0
//      elsewhere;
//   5. a LINESTRIP through pixel centers (0.5,0.5) → (12.5,0.5) → (12.5,8.5) with uv = position
//      / 16: the aliased-line diamond-exit rule covers (0..11, 0) and (12, 0..7), 20 pixels,
//      each the texel of its quadrant (uv interpolated along the line to the pixel center).
//   6. with the debug layer (on for the whole test, which must report no message for the
//      correct draws above): draws without a pipeline state, without a root signature, with
//      another root signature than the pipeline's, without the descriptor table the pixel
//      shader's t0 needs, with the topology undefined or of another
//      type than the pipeline's, a depth-stencil view the pipeline does not declare, an indexed
//      draw without an index buffer and one reading past its view each report their
//      D3D12_MESSAGE_ID (category EXECUTION, severity ERROR), and the list still closes with
//      S_OK, as on Windows;
//   7. a triangle into a 4x MSAA target, resolved: pixels the hypotenuse crosses average the
//      covered samples (the standard 4x positions) with the clear; 7b. the same inside a render
//      pass whose CLEAR beginning access clears and whose RESOLVE ending access resolves; 7c. a
//      compute shader loads each sample of a pixel through a Texture2DMS view;
//   8. a geometry-shader pipeline (quad.vs/gs/ps, from GLSL through spirv2dxil: each point
//      becomes a square of +-0.25 in clip space, a 4-vertex triangle strip with the point's
//      color): two points give two 4x4-pixel squares on the 16x16 target, the rest keeps the
//      clear; its pipeline statistics count 2 GS invocations and 4 GS primitives;
//   and around the first draw, queries: OCCLUSION 120 (no depth buffer, so every covered
//   sample passes), BINARY_OCCLUSION 1, PIPELINE_STATISTICS with 3 IA vertices, 1 IA
//   primitive, 3 VS invocations, 1 clipper input and output, 120 PS invocations.
//
// The last line is "draw_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>



static D3D12_HEAP_PROPERTIES heap(D3D12_HEAP_TYPE t)
{
    D3D12_HEAP_PROPERTIES h = {};
    h.Type = t;
    return h;
}

static ID3D12Resource *buffer(ID3D12Device *dev, D3D12_HEAP_TYPE t, UINT64 size, D3D12_RESOURCE_STATES st,
                              D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE)
{
    D3D12_RESOURCE_DESC d = {};
    d.Flags = flags;
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = size;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    D3D12_HEAP_PROPERTIES h = heap(t);
    ID3D12Resource *r = nullptr;
    CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
    return r;
}

// A 2D texture in a default heap: RGBA8, one slice, one sample unless asked otherwise.
static ID3D12Resource *texture(ID3D12Device *dev, UINT w, UINT h, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES st,
                               DXGI_FORMAT format = DXGI_FORMAT_R8G8B8A8_UNORM, UINT16 slices = 1, UINT samples = 1)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = slices;
    d.MipLevels = 1;
    d.Format = format;
    d.SampleDesc.Count = samples;
    d.Flags = flags;
    D3D12_HEAP_PROPERTIES hp = heap(D3D12_HEAP_TYPE_DEFAULT);
    ID3D12Resource *r = nullptr;
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
    return r;
}

// A version 1.1 root signature of `n` parameters and `flags`, serialized and created
// (nullptr, with a failed check, if either step fails).
static ID3D12RootSignature *root_signature(ID3D12Device *dev, const D3D12_ROOT_PARAMETER1 *p, UINT n,
                                           D3D12_ROOT_SIGNATURE_FLAGS flags)
{
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = n;
    rd.Desc_1_1.pParameters = p;
    rd.Desc_1_1.Flags = flags;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    ID3D12RootSignature *rs = nullptr;
    if (blob)
        CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)), S_OK);
    return rs;
}

static void *map(ID3D12Resource *r)
{
    void *p = nullptr;
    CHECK_HR(r->Map(0, nullptr, &p), S_OK);
    return p;
}

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *r, D3D12_RESOURCE_STATES a, D3D12_RESOURCE_STATES b)
{
    D3D12_RESOURCE_BARRIER x = {};
    x.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    x.Transition.pResource = r;
    x.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    x.Transition.StateBefore = a;
    x.Transition.StateAfter = b;
    return x;
}

struct Rgba {
    unsigned char c[4];
};

// The 2x2 texture: one color per quadrant (top-left, top-right, bottom-left, bottom-right).
static const Rgba kTexels[4] = {{{200, 0, 0, 255}}, {{0, 200, 0, 255}}, {{0, 0, 200, 255}}, {{100, 100, 100, 255}}};
static const Rgba kClear = {{10, 20, 30, 40}};

// The input layout of the spirv2dxil fixtures quad.vs, clip.vs, pass2.vs (position float2 at
// TEXCOORD0, color float4 at TEXCOORD1), 24-byte vertices.
static const D3D12_INPUT_ELEMENT_DESC kQuadLayout[2] = {
    {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

// Mesa's textured shaders and their input layout (TEXCOORD0 position, TEXCOORD1 uv).
static const D3D12_INPUT_ELEMENT_DESC kTexturedLayout[2] = {
    {"TEXCOORD", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 1, DXGI_FORMAT_R32G32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

struct Fixture {
    ID3D12Device *dev = nullptr;
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    UINT64 fence_value = 0;
    Com<ID3D12RootSignature> rs;
    Com<ID3D12PipelineState> pso;
    Com<ID3D12Resource> tex, upload, rt, readback, cb, vb, ib;
    Com<ID3D12DescriptorHeap> srv_heap, rtv_heap;
    std::vector<char> vs = fixture("textured.vs.dxil"), ps = fixture("textured.ps.dxil");

    void run()
    {
        CHECK_HR(list->Close(), S_OK);
        ID3D12CommandList *l = list;
        queue->ExecuteCommandLists(1, &l);
        CHECK_HR(queue->Signal(fence, ++fence_value), S_OK);
        // A NULL event: SetEventOnCompletion blocks until the fence reaches the value.
        CHECK_HR(fence->SetEventOnCompletion(fence_value, nullptr), S_OK);
        CHECK_HR(alloc->Reset(), S_OK);
        CHECK_HR(list->Reset(alloc, nullptr), S_OK);
    }
};

// The textured pipeline: the fixture's root signature, no culling, one RGBA8 target, triangles.
static D3D12_GRAPHICS_PIPELINE_STATE_DESC textured_pso(const Fixture &f)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = f.rs;
    pd.VS = {f.vs.data(), f.vs.size()};
    pd.PS = {f.ps.data(), f.ps.size()};
    pd.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    pd.SampleMask = UINT_MAX;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.InputLayout = {kTexturedLayout, 2};
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    pd.NumRenderTargets = 1;
    pd.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    pd.SampleDesc.Count = 1;
    return pd;
}

static bool build(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    D3D12_COMMAND_QUEUE_DESC qd = {};
    CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&f.queue)), S_OK);
    CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&f.alloc)), S_OK);
    CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, f.alloc, nullptr, IID_PPV_ARGS(&f.list)), S_OK);
    CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&f.fence)), S_OK);

    // Root signature.
    D3D12_DESCRIPTOR_RANGE1 srv_range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0,
                                         D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p[4] = {};
    p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    p[0].Descriptor.ShaderRegister = 0;
    p[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[1].Constants.ShaderRegister = 1;
    p[1].Constants.Num32BitValues = 4;
    p[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    p[2].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[2].Constants.ShaderRegister = 0;
    p[2].Constants.Num32BitValues = 4;
    p[2].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    p[3].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p[3].DescriptorTable.NumDescriptorRanges = 1;
    p[3].DescriptorTable.pDescriptorRanges = &srv_range;
    p[3].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_STATIC_SAMPLER_DESC ss = {};
    ss.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    ss.AddressU = ss.AddressV = ss.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    ss.MaxLOD = D3D12_FLOAT32_MAX;
    ss.ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 4;
    rd.Desc_1_1.pParameters = p;
    rd.Desc_1_1.NumStaticSamplers = 1;
    rd.Desc_1_1.pStaticSamplers = &ss;
    rd.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (!blob) return false;
    CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&f.rs)), S_OK);

    // Pipeline: Mesa names its inputs TEXCOORD0 (pos) and TEXCOORD1 (uv).
    CHECK(f.vs.size() > 100 && f.ps.size() > 100);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&f.pso)), S_OK);
    if (!f.pso) return false;
    // The same pipeline with a root signature that leaves the pixel shader's t0 unbound: the
    // shaders' resource bindings (their PSV0 part) must all be bound, as on Windows.
    {
        rd.Desc_1_1.NumParameters = 3;
        Com<ID3DBlob> b3, e3;
        CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &b3, &e3), S_OK);
        Com<ID3D12RootSignature> partial;
        if (b3)
            CHECK_HR(dev->CreateRootSignature(0, b3->GetBufferPointer(), b3->GetBufferSize(), IID_PPV_ARGS(&partial)),
                     S_OK);
        D3D12_GRAPHICS_PIPELINE_STATE_DESC bad = pd;
        bad.pRootSignature = partial;
        ID3D12PipelineState *pso = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&pso)), E_INVALIDARG);
        CHECK_PTR(pso, NULL);
    }

    // The 2x2 texture, uploaded with CopyTextureRegion (rows 256-byte aligned in the buffer).
    f.tex.p = texture(dev, 2, 2, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    f.upload.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 512, D3D12_RESOURCE_STATE_GENERIC_READ);
    unsigned char *up = static_cast<unsigned char *>(map(f.upload));
    memcpy(up, &kTexels[0], 8);
    memcpy(up + 256, &kTexels[2], 8);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = f.tex;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.pResource = f.upload;
    src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    src.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 2, 2, 1, 256};
    f.list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    D3D12_RESOURCE_BARRIER b = transition(f.tex, D3D12_RESOURCE_STATE_COPY_DEST,
                                          D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
    f.list->ResourceBarrier(1, &b);

    // Views.
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4,
                                     D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&f.srv_heap)), S_OK);
    hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&f.rtv_heap)), S_OK);
    // The SRV goes to descriptor 2; the table starts at descriptor 2.
    UINT inc = dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE srv = f.srv_heap->GetCPUDescriptorHandleForHeapStart();
    srv.ptr += 2 * inc;
    dev->CreateShaderResourceView(f.tex, nullptr, srv);
    f.rt.p = texture(dev, 16, 16, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    dev->CreateRenderTargetView(f.rt, nullptr, f.rtv_heap->GetCPUDescriptorHandleForHeapStart());

    // The matrix (identity, columns as rows of the cbuffer) and the geometry.
    f.cb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    float *m = static_cast<float *>(map(f.cb));
    for (int i = 0; i < 16; i++) m[i] = (i % 5 == 0) ? 1.0f : 0.0f;
    // Vertex 0 is padding (the indexed draw uses base vertex 1); then the triangle's three
    // vertices and the quad's fourth corner. pos (x, y, 0, 1), uv.
    const float verts[5][6] = {
        {9, 9, 9, 9, 9, 9},      {-1, 1, 0, 1, 0, 0}, {1, 1, 0, 1, 1, 0},
        {-1, -1, 0, 1, 0, 1},    {1, -1, 0, 1, 1, 1},
    };
    f.vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(f.vb), verts, sizeof verts);
    const uint16_t idx[6] = {0, 1, 2, 2, 1, 3};
    f.ib.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof idx, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(f.ib), idx, sizeof idx);
    f.readback.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 16 * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    return true;
}

static void bind(Fixture &f, const float tint[4])
{
    ID3D12GraphicsCommandList *l = f.list;
    const float clear[4] = {kClear.c[0] / 255.0f, kClear.c[1] / 255.0f, kClear.c[2] / 255.0f, kClear.c[3] / 255.0f};
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = f.rtv_heap->GetCPUDescriptorHandleForHeapStart();
    l->ClearRenderTargetView(rtv, clear, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    ID3D12DescriptorHeap *heaps[] = {f.srv_heap};
    l->SetDescriptorHeaps(1, heaps);
    l->SetGraphicsRootSignature(f.rs);
    l->SetPipelineState(f.pso);
    l->SetGraphicsRootConstantBufferView(0, f.cb->GetGPUVirtualAddress());
    const float state_vars[4] = {1, 0, 0, 0};
    l->SetGraphicsRoot32BitConstants(1, 4, state_vars, 0);
    l->SetGraphicsRoot32BitConstants(2, 4, tint, 0);
    D3D12_GPU_DESCRIPTOR_HANDLE table = f.srv_heap->GetGPUDescriptorHandleForHeapStart();
    table.ptr += 2 * f.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    l->SetGraphicsRootDescriptorTable(3, table);
    D3D12_VERTEX_BUFFER_VIEW vbv = {f.vb->GetGPUVirtualAddress(), 5 * 24, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 16, 16};
    l->RSSetScissorRects(1, &sc);
}

// Copies the target to the readback buffer and returns its pixels (rows of 256 bytes).
static const Rgba *read_target(Fixture &f)
{
    D3D12_RESOURCE_BARRIER b = transition(f.rt, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    f.list->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = f.readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256};
    src.pResource = f.rt;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    f.list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    b = transition(f.rt, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_RENDER_TARGET);
    f.list->ResourceBarrier(1, &b);
    f.run();
    return static_cast<const Rgba *>(map(f.readback));
}

static Rgba expected_texel(int x, int y, const float tint[4])
{
    // uv at the pixel center: ((x + 0.5) / 16, (y + 0.5) / 16); point sampling picks the
    // texel of the quadrant.
    Rgba t = kTexels[(y >= 8) * 2 + (x >= 8)], out;
    for (int c = 0; c < 4; c++) {
        float v = t.c[c] / 255.0f * tint[c];
        out.c[c] = (unsigned char)(v * 255.0f + 0.5f);
    }
    return out;
}

static unsigned check_image(const Rgba *px, bool (*covered)(int, int), const float tint[4], const char *what)
{
    unsigned bad = 0, drawn = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            Rgba got = px[y * 64 + x];
            Rgba want = covered(x, y) ? expected_texel(x, y, tint) : kClear;
            drawn += covered(x, y);
            if (memcmp(&got, &want, 4) != 0) {
                if (bad < 4)
                    fprintf(stderr, "%s: pixel (%d,%d) is %d %d %d %d, expected %d %d %d %d\n", what, x, y, got.c[0],
                            got.c[1], got.c[2], got.c[3], want.c[0], want.c[1], want.c[2], want.c[3]);
                bad++;
            }
        }
    CHECK_EQ(bad, 0u);
    return drawn;
}

static bool in_triangle(int x, int y) { return x + y < 15; }
static bool left_half(int x, int) { return x < 8; }

// 4. The triangle through a D24S8 depth-stencil view: depth and stencil planes both written.
static void depth_stencil_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.DepthStencilState.DepthEnable = TRUE;
    pd.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    pd.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    pd.DepthStencilState.StencilEnable = TRUE;
    pd.DepthStencilState.StencilReadMask = 0xFF;
    pd.DepthStencilState.StencilWriteMask = 0xFF;
    D3D12_DEPTH_STENCILOP_DESC op = {D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_KEEP, D3D12_STENCIL_OP_REPLACE,
                                     D3D12_COMPARISON_FUNC_ALWAYS};
    pd.DepthStencilState.FrontFace = op;
    pd.DepthStencilState.BackFace = op;
    pd.DSVFormat = DXGI_FORMAT_D24_UNORM_S8_UINT;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = 16;
    d.Height = 16;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_D24_UNORM_S8_UINT;
    d.SampleDesc.Count = 1;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    D3D12_HEAP_PROPERTIES hp = heap(D3D12_HEAP_TYPE_DEFAULT);
    Com<ID3D12Resource> ds, rb;
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_DEPTH_WRITE, nullptr,
                                          IID_PPV_ARGS(&ds)),
             S_OK);
    Com<ID3D12DescriptorHeap> dsv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&dsv_heap)), S_OK);
    if (!ds || !dsv_heap) return;
    D3D12_CPU_DESCRIPTOR_HANDLE dsv = dsv_heap->GetCPUDescriptorHandleForHeapStart();
    dev->CreateDepthStencilView(ds, nullptr, dsv);
    D3D12_PLACED_SUBRESOURCE_FOOTPRINT fp[2] = {};
    UINT64 total = 0;
    dev->GetCopyableFootprints(&d, 0, 2, 0, fp, nullptr, nullptr, &total);
    rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, total, D3D12_RESOURCE_STATE_COPY_DEST);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    ID3D12GraphicsCommandList *l = f.list;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = f.rtv_heap->GetCPUDescriptorHandleForHeapStart();
    l->ClearDepthStencilView(dsv, D3D12_CLEAR_FLAG_DEPTH | D3D12_CLEAR_FLAG_STENCIL, 1.0f, 0, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, &dsv);
    l->SetPipelineState(pso);
    l->OMSetStencilRef(0x5A);
    l->DrawInstanced(3, 1, 1, 0);
    D3D12_RESOURCE_BARRIER b = transition(ds, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    for (UINT plane = 0; plane < 2; plane++) {
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        dst.pResource = rb;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint = fp[plane];
        src.pResource = ds;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.SubresourceIndex = plane;
        l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    }
    f.run();
    const unsigned char *m = static_cast<const unsigned char *>(map(rb));
    unsigned bad = 0, depth_hits = 0, stencil_hits = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            uint32_t z;
            memcpy(&z, m + fp[0].Offset + y * fp[0].Footprint.RowPitch + 4 * x, 4);
            unsigned char s = m[fp[1].Offset + y * fp[1].Footprint.RowPitch + x];
            bool hit = in_triangle(x, y);
            depth_hits += (z & 0xFFFFFF) == 0x800000;
            stencil_hits += s == 0x5A;
            if ((z & 0xFFFFFF) != (hit ? 0x800000u : 0xFFFFFFu) || s != (hit ? 0x5A : 0)) {
                if (bad < 4) fprintf(stderr, "D24S8: pixel (%d,%d) depth %06x stencil %02x\n", x, y, z & 0xFFFFFF, s);
                bad++;
            }
        }
    CHECK_EQ(bad, 0u);
    CHECK_EQ(depth_hits, 120u);
    CHECK_EQ(stencil_hits, 120u);

    // 4b. The pixel shader's stencil reference (stencil.ps, SV_StencilRef = red * 255 + 0.5, as
    // OPTIONS.PSSpecifiedStencilRefSupported promises) replaces OMSetStencilRef's: a red of 0.2
    // leaves 51 in the covered pixels of the stencil plane.
    D3D12_FEATURE_DATA_D3D12_OPTIONS opts = {};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &opts, sizeof opts), S_OK);
    CHECK_EQ(opts.PSSpecifiedStencilRefSupported, TRUE);
    std::vector<char> qvs = fixture("quad.vs.dxil"), sps = fixture("stencil.ps.dxil");
    pd.VS = {qvs.data(), qvs.size()};
    pd.PS = {sps.data(), sps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    pd.DepthStencilState.DepthEnable = FALSE;
    Com<ID3D12PipelineState> spso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&spso)), S_OK);
    if (!spso) return;
    const float tri[3][6] = {{-1, 1, 0.2f, 0.4f, 0.6f, 1}, {1, 1, 0.2f, 0.4f, 0.6f, 1}, {-1, -1, 0.2f, 0.4f, 0.6f, 1}};
    Com<ID3D12Resource> vb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof tri, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), tri, sizeof tri);
    bind(f, tint);
    b = transition(ds, D3D12_RESOURCE_STATE_COPY_SOURCE, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    l->ResourceBarrier(1, &b);
    l->ClearDepthStencilView(dsv, D3D12_CLEAR_FLAG_STENCIL, 1.0f, 0, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, &dsv);
    l->SetPipelineState(spso);
    l->OMSetStencilRef(0x5A);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof tri, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->DrawInstanced(3, 1, 0, 0);
    b = transition(ds, D3D12_RESOURCE_STATE_DEPTH_WRITE, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = rb;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint = fp[1];
    src.pResource = ds;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.SubresourceIndex = 1;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    f.run();
    m = static_cast<const unsigned char *>(map(rb));
    bad = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            unsigned char st = m[fp[1].Offset + y * fp[1].Footprint.RowPitch + x];
            if (st != (in_triangle(x, y) ? 51 : 0) && bad++ < 4)
                fprintf(stderr, "SV_StencilRef: pixel (%d,%d) stencil %u\n", x, y, st);
        }
    CHECK_EQ(bad, 0u);
}

// 5. A line strip: each segment leaves out the pixel it ends in.
static bool on_strip(int x, int y) { return (y == 0 && x < 12) || (x == 12 && y < 8); }

static void line_strip_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    // Pixel (x, y) of the 16x16 viewport is clip (x / 8 - 1, 1 - y / 8).
    const float pts[3][2] = {{0.5f, 0.5f}, {12.5f, 0.5f}, {12.5f, 8.5f}};
    float verts[3][6];
    for (int i = 0; i < 3; i++) {
        float x = pts[i][0], y = pts[i][1];
        float v[6] = {x / 8 - 1, 1 - y / 8, 0, 1, x / 16, y / 16};
        memcpy(verts[i], v, sizeof v);
    }
    Com<ID3D12Resource> vb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    f.list->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_LINESTRIP);
    f.list->DrawInstanced(3, 1, 0, 0);
    CHECK_EQ(check_image(read_target(f), on_strip, tint, "LINESTRIP"), 20u);
}

// 5b. FillMode WIREFRAME: a clockwise triangle with corners on the centers of pixels (0,0),
// (12,0) and (0,12) is drawn as its three edges, each an aliased line that covers its first
// pixel and not its last: row 0 x 0..11, the diagonal (12,0)..(1,11), column 0 y 12..1; 36
// pixels. Culling is the triangle's: with CULL_MODE_BACK the same triangle wound the other
// way draws nothing.
static bool on_wire(int x, int y) { return (y == 0 && x < 12) || (x + y == 12 && x > 0) || (x == 0 && y > 0 && y <= 12); }

static void wireframe_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_WIREFRAME;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    // Clockwise, then the same corners counter-clockwise.
    const float pts[6][2] = {{0.5f, 0.5f}, {12.5f, 0.5f}, {0.5f, 12.5f}, {0.5f, 0.5f}, {0.5f, 12.5f}, {12.5f, 0.5f}};
    float verts[6][6];
    for (int i = 0; i < 6; i++) {
        float x = pts[i][0], y = pts[i][1];
        float v[6] = {x / 8 - 1, 1 - y / 8, 0, 1, x / 16, y / 16};
        memcpy(verts[i], v, sizeof v);
    }
    Com<ID3D12Resource> vb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);
    Com<ID3D12QueryHeap> occlusion;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2, 0};
    CHECK_HR(dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&occlusion)), S_OK);
    Com<ID3D12Resource> results;
    results.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 16, D3D12_RESOURCE_STATE_COPY_DEST);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    f.list->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    for (UINT i = 0; i < 2; i++) {
        f.list->BeginQuery(occlusion, D3D12_QUERY_TYPE_OCCLUSION, i);
        f.list->DrawInstanced(3, 1, 3 * i, 0);
        f.list->EndQuery(occlusion, D3D12_QUERY_TYPE_OCCLUSION, i);
    }
    f.list->ResolveQueryData(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0, 2, results, 0);
    CHECK_EQ(check_image(read_target(f), on_wire, tint, "WIREFRAME"), 36u);
    const UINT64 *q = static_cast<const UINT64 *>(map(results));
    CHECK_EQ(q[0], 36u);
    CHECK_EQ(q[1], 0u);
}

// 5c. Stream output: the quad shaders over a list of two triangles, SV_Position.xyzw into
// slot 0 and TEXCOORD0 (the color) into slot 1, both stride 16. Slot 0's view holds 96 bytes
// (both triangles); slot 1's holds 80 and its BufferFilledSize starts at 16 (set with
// WriteBufferImmediate), leaving room for one triangle: the second fits slot 0 but not slot
// 1, so it is written to neither. SO_STATISTICS_STREAM0: 1 written, 2 needed; the filled
// sizes end at 48 and 64; stream 0 is also rasterized (CInvocations 2).
static void stream_output_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    Com<ID3D12RootSignature> rs;
    rs.p = root_signature(dev, nullptr, 0,
                          D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT |
                              D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    if (!rs) return;
    std::vector<char> vs = fixture("quad.vs.dxil"), ps = fixture("quad.ps.dxil");
    const D3D12_SO_DECLARATION_ENTRY decl[2] = {{0, "SV_Position", 0, 0, 4, 0}, {0, "TEXCOORD", 0, 0, 4, 1}};
    const UINT strides[2] = {16, 16};
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.pRootSignature = rs;
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    pd.StreamOutput = {decl, 2, strides, 2, 0};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    float verts[6][6];
    for (int k = 0; k < 6; k++) {
        float v[6] = {k % 3 == 1 ? 0.5f : -0.5f, k % 3 == 2 ? -0.5f : 0.5f, k / 8.0f, 0.25f, 0.5f, 1};
        memcpy(verts[k], v, sizeof v);
    }
    Com<ID3D12Resource> vb, so, results, readback;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);
    so.p = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, 512, D3D12_RESOURCE_STATE_COPY_DEST);
    results.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 16, D3D12_RESOURCE_STATE_COPY_DEST);
    readback.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 512, D3D12_RESOURCE_STATE_COPY_DEST);
    Com<ID3D12QueryHeap> so_stats, stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_SO_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&so_stats)), S_OK);
    qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    Com<ID3D12GraphicsCommandList2> l2;
    CHECK_HR(f.list->QueryInterface(IID_PPV_ARGS(&l2)), S_OK);
    if (!so || !so_stats || !stats || !l2) return;
    const D3D12_GPU_VIRTUAL_ADDRESS va = so->GetGPUVirtualAddress();

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    ID3D12GraphicsCommandList *l = f.list;
    const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER filled[2] = {{va + 256, 0}, {va + 260, 16}};
    l2->WriteBufferImmediate(2, filled, nullptr);
    D3D12_RESOURCE_BARRIER b = transition(so, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_STREAM_OUT);
    l->ResourceBarrier(1, &b);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW views[2] = {{va, 96, va + 256}, {va + 128, 80, va + 260}};
    l->SOSetTargets(0, 2, views);
    l->BeginQuery(so_stats, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 0);
    l->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->DrawInstanced(6, 1, 0, 0);
    l->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->EndQuery(so_stats, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 0);
    l->ResolveQueryData(so_stats, D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0, 0, 1, results, 0);
    Com<ID3D12Resource> stat_results;
    stat_results.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    l->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, stat_results, 0);
    b = transition(so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(readback, 0, so, 0, 512);
    f.run();

    const float *out = static_cast<const float *>(map(readback));
    unsigned bad = 0;
    for (int v = 0; v < 3; v++)
        for (int c = 0; c < 4; c++) {
            const float pos = c < 2 ? verts[v][c] : (c == 2 ? 0.0f : 1.0f);
            bad += out[4 * v + c] != pos;              // slot 0 from byte 0
            bad += out[32 + 4 + 4 * v + c] != verts[v][2 + c];  // slot 1 from byte 128 + 16
        }
    for (int i = 12; i < 24; i++) bad += out[i] != 0.0f;       // slot 0: no second triangle
    for (int i = 32; i < 36; i++) bad += out[i] != 0.0f;       // slot 1 before its filled size
    for (int i = 48; i < 52; i++) bad += out[i] != 0.0f;       // slot 1 past the first triangle
    CHECK_EQ(bad, 0u);
    const uint32_t *counters = reinterpret_cast<const uint32_t *>(out + 64);
    CHECK_EQ(counters[0], 48u);
    CHECK_EQ(counters[1], 64u);
    D3D12_QUERY_DATA_SO_STATISTICS q;
    memcpy(&q, map(results), sizeof q);
    CHECK_EQ(q.NumPrimitivesWritten, 1u);
    CHECK_EQ(q.PrimitivesStorageNeeded, 2u);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st;
    memcpy(&st, map(stat_results), sizeof st);
    CHECK_EQ(st.CInvocations, 2u);
    CHECK_EQ(st.VSInvocations, 6u);
}

// 5d. SV_VertexID and SV_InstanceID count from 0: StartVertexLocation, BaseVertexLocation and
// StartInstanceLocation only choose the data fetched. ids.vs.dxil writes (SV_VertexID,
// SV_InstanceID, 0, 1) to TEXCOORD0, captured by stream output with nothing rasterized and no
// pixel shader: DrawInstanced(2, 2, 5, 7) gives (0,0) (1,0) (0,1) (1,1); an indexed draw of
// indices 4 and 9 with BaseVertexLocation 100 gives the indices, 4 and 9.
static void vertex_ids_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    Com<ID3D12RootSignature> rs;
    rs.p = root_signature(dev, nullptr, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
    if (!rs) return;
    std::vector<char> vs = fixture("ids.vs.dxil");
    const D3D12_SO_DECLARATION_ENTRY decl = {0, "TEXCOORD", 0, 0, 2, 0};
    const UINT stride = 8;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.pRootSignature = rs;
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {};
    pd.InputLayout = {};
    pd.NumRenderTargets = 0;
    pd.RTVFormats[0] = DXGI_FORMAT_UNKNOWN;
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    pd.StreamOutput = {&decl, 1, &stride, 1, D3D12_SO_NO_RASTERIZED_STREAM};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    Com<ID3D12Resource> so, ib, readback;
    so.p = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_STREAM_OUT);
    ib.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 4, D3D12_RESOURCE_STATE_GENERIC_READ);
    readback.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!pso || !so || !ib) return;
    const uint16_t indices[2] = {4, 9};
    memcpy(map(ib), indices, sizeof indices);
    const D3D12_GPU_VIRTUAL_ADDRESS va = so->GetGPUVirtualAddress();
    ID3D12GraphicsCommandList *l = f.list;
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    // The filled size (byte 192) starts at 0: the buffer was created zeroed.
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW view = {va, 128, va + 192};
    l->SOSetTargets(0, 1, &view);
    l->DrawInstanced(2, 2, 5, 7);
    D3D12_INDEX_BUFFER_VIEW ibv = {ib->GetGPUVirtualAddress(), 4, DXGI_FORMAT_R16_UINT};
    l->IASetIndexBuffer(&ibv);
    l->DrawIndexedInstanced(2, 1, 0, 100, 0);
    D3D12_RESOURCE_BARRIER b = transition(so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(readback, 0, so, 0, 256);
    f.run();
    const float *out = static_cast<const float *>(map(readback));
    const float want[12] = {0, 0, 1, 0, 0, 1, 1, 1, 4, 0, 9, 0};
    unsigned bad = 0;
    for (int i = 0; i < 12; i++)
        if (out[i] != want[i] && bad++ < 4) fprintf(stderr, "vertex ids: float %d is %g, expected %g\n", i, out[i], want[i]);
    CHECK_EQ(bad, 0u);
    uint32_t filled;
    memcpy(&filled, out + 48, 4);
    CHECK_EQ(filled, 48u);
}

// 5e. SV_ClipDistance and SV_CullDistance (clip.vs.dxil: distances 0 and 1 from the color's x
// and y, the cull distance from its z). A triangle over the 16x16 target whose distance 0 is
// 8 - x on screen keeps the 128 pixels left of x = 8; with the cull distance negative at all
// three vertices it draws nothing, negative at two it draws the same 128.
static unsigned clip_draw(Fixture &f, const float cull[3])
{
    ID3D12Device *dev = f.dev;
    std::vector<char> vs = fixture("clip.vs.dxil"), ps = fixture("quad.ps.dxil");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return ~0u;
    const float corners[3][2] = {{0, 0}, {32, 0}, {0, 32}};
    float verts[3][6];
    for (int i = 0; i < 3; i++) {
        float x = corners[i][0], y = corners[i][1];
        float v[6] = {x / 8 - 1, 1 - y / 8, 8 - x, 1, cull[i], 1};
        memcpy(verts[i], v, sizeof v);
    }
    Com<ID3D12Resource> vb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);
    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    f.list->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    f.list->DrawInstanced(3, 1, 0, 0);
    const Rgba *px = read_target(f);
    unsigned drawn = 0, right_of_cut = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            if (memcmp(&px[y * 64 + x], &kClear, 4) != 0) {
                drawn++;
                right_of_cut += x >= 8;
            }
    CHECK_EQ(right_of_cut, 0u);
    return drawn;
}

static void clip_draws(Fixture &f)
{
    const float keep[3] = {1, 1, 1}, all_negative[3] = {-1, -2, -0.5f}, two_negative[3] = {-1, -2, 0.5f};
    CHECK_EQ(clip_draw(f, keep), 128u);
    CHECK_EQ(clip_draw(f, all_negative), 0u);
    CHECK_EQ(clip_draw(f, two_negative), 128u);
}

// 8b. SV_RenderTargetArrayIndex and SV_ViewportArrayIndex: layer.gs.dxil runs twice per
// triangle, instance i sending it to slice i of a 2-slice array RTV through viewport i (the
// second halves the color). A triangle over the target fills slice 0 through viewport 0 (16x16)
// and, in slice 1, only viewport 1 (x 8..16, y 0..8), itself cut by scissor 1 to x < 12.
static void layered_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    std::vector<char> vs = fixture("quad.vs.dxil"), gs = fixture("layer.gs.dxil"), ps = fixture("quad.ps.dxil");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.VS = {vs.data(), vs.size()};
    pd.GS = {gs.data(), gs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    Com<ID3D12Resource> arr, readback;
    arr.p = texture(dev, 16, 16, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET,
                    DXGI_FORMAT_R8G8B8A8_UNORM, 2);
    readback.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 2 * 16 * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    if (!pso || !arr || !rtv_heap) return;
    D3D12_RENDER_TARGET_VIEW_DESC rd = {};
    rd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    rd.ViewDimension = D3D12_RTV_DIMENSION_TEXTURE2DARRAY;
    rd.Texture2DArray.ArraySize = 2;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    dev->CreateRenderTargetView(arr, &rd, rtv);
    const float verts[3][6] = {{-1, -1, 1, 0.5f, 0.25f, 1}, {3, -1, 1, 0.5f, 0.25f, 1}, {-1, 3, 1, 0.5f, 0.25f, 1}};
    Com<ID3D12Resource> vb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f}, zero[4] = {};
    bind(f, tint);
    ID3D12GraphicsCommandList *l = f.list;
    l->ClearRenderTargetView(rtv, zero, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    const D3D12_VIEWPORT vps[2] = {{0, 0, 16, 16, 0, 1}, {8, 0, 8, 8, 0, 1}};
    const D3D12_RECT scs[2] = {{0, 0, 16, 16}, {0, 0, 12, 16}};
    l->RSSetViewports(2, vps);
    l->RSSetScissorRects(2, scs);
    l->DrawInstanced(3, 1, 0, 0);
    D3D12_RESOURCE_BARRIER b = transition(arr, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    for (UINT slice = 0; slice < 2; slice++) {
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        dst.pResource = readback;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Offset = slice * 16 * 256;
        dst.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256};
        src.pResource = arr;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.SubresourceIndex = slice;
        l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    }
    f.run();
    const unsigned char *px = static_cast<const unsigned char *>(map(readback));
    unsigned bad = 0, lit1 = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            const unsigned char *a = px + y * 256 + 4 * x, *c = px + 16 * 256 + y * 256 + 4 * x;
            const unsigned char full[4] = {255, 128, 64, 255}, half[4] = {128, 64, 32, 128}, none[4] = {0, 0, 0, 0};
            bool in1 = x >= 8 && x < 12 && y < 8;
            lit1 += in1;
            bad += memcmp(a, full, 4) != 0;
            bad += memcmp(c, in1 ? half : none, 4) != 0;
        }
    CHECK_EQ(bad, 0u);
    CHECK_EQ(lit1, 32u);
}

// 8d. UAV-only rendering: no render target and no depth-stencil view, the pipeline's
// SampleDesc left zero (as Mesa's d3d12 driver sends it for GL framebuffers without
// attachments, and Windows takes it). count.ps adds 1 to u1 per pixel: the triangle (-1, 1),
// (1, 1), (-1, -1) on a 16x16 viewport covers the 120 pixels with x + y < 15.
static void uav_only_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    D3D12_ROOT_PARAMETER1 p = {};
    p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    p.Descriptor.ShaderRegister = 1;
    p.ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    Com<ID3D12RootSignature> rs;
    rs.p = root_signature(dev, &p, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    if (!rs) return;
    std::vector<char> vs = fixture("quad.vs.dxil"), ps = fixture("count.ps.dxil");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.pRootSignature = rs;
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    pd.NumRenderTargets = 0;
    pd.RTVFormats[0] = DXGI_FORMAT_UNKNOWN;
    pd.SampleDesc = {0, 0};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    const float tri[3][6] = {{-1, 1, 1, 0, 0, 1}, {1, 1, 1, 0, 0, 1}, {-1, -1, 1, 0, 0, 1}};
    Com<ID3D12Resource> vb, counter, rb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof tri, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), tri, sizeof tri);
    counter.p = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                       D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    if (!counter) return;
    rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    ID3D12GraphicsCommandList *l = f.list;
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->SetGraphicsRootUnorderedAccessView(0, counter->GetGPUVirtualAddress());
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof tri, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    l->OMSetRenderTargets(0, nullptr, FALSE, nullptr);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 16, 16};
    l->RSSetScissorRects(1, &sc);
    l->DrawInstanced(3, 1, 0, 0);
    D3D12_RESOURCE_BARRIER b = transition(counter, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(rb, 0, counter, 0, 4);
    f.run();
    uint32_t n = 0;
    memcpy(&n, map(rb), 4);
    CHECK_EQ(n, 120u);
}

// 8. Geometry shader: points at clip (-0.5, 0.5) and (0.5, -0.25) land on pixel corners (4, 4)
// and (12, 10); each becomes a 4x4 square (x 2..5, y 2..5 red; x 10..13, y 8..11 in
// (0, 64, 255, 255)).
static void geometry_draw(Fixture &f)
{
    ID3D12Device *dev = f.dev;
    std::vector<char> vs = fixture("quad.vs.dxil"), gs = fixture("quad.gs.dxil"), ps = fixture("quad.ps.dxil");
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.VS = {vs.data(), vs.size()};
    pd.GS = {gs.data(), gs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    const float verts[2][6] = {{-0.5f, 0.5f, 1, 0, 0, 1}, {0.5f, -0.25f, 0, 0.25f, 1, 1}};
    Com<ID3D12Resource> vb;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);
    Com<ID3D12QueryHeap> stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    Com<ID3D12Resource> results;
    results.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    f.list->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    f.list->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    f.list->DrawInstanced(2, 1, 0, 0);
    f.list->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    f.list->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 0);
    const Rgba *px = read_target(f);
    unsigned wrong = 0, lit = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            Rgba want = kClear;
            if (x >= 2 && x <= 5 && y >= 2 && y <= 5) want = {{255, 0, 0, 255}};
            if (x >= 10 && x <= 13 && y >= 8 && y <= 11) want = {{0, 64, 255, 255}};
            const Rgba &got = px[y * 64 + x];
            lit += memcmp(&want, &kClear, 4) != 0;
            if (memcmp(&got, &want, 4) != 0 && wrong++ < 4)
                printf("geometry shader: pixel (%d, %d) is %d %d %d %d\n", x, y, got.c[0], got.c[1], got.c[2], got.c[3]);
        }
    CHECK_EQ(wrong, 0u);
    CHECK_EQ(lit, 32u);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st;
    memcpy(&st, map(results), sizeof st);
    CHECK_EQ(st.IAPrimitives, 2u);
    CHECK_EQ(st.VSInvocations, 2u);
    CHECK_EQ(st.GSInvocations, 2u);
    CHECK_EQ(st.GSPrimitives, 4u);
    CHECK_EQ(st.CInvocations, 4u);
    CHECK_EQ(st.PSInvocations, 32u);
}

// Checks stored message `i` of the info queue: its ID and category.
static void check_message(ID3D12InfoQueue *iq, UINT64 i, D3D12_MESSAGE_ID id, D3D12_MESSAGE_CATEGORY category)
{
    SIZE_T len = 0;
    CHECK_HR(iq->GetMessage(i, nullptr, &len), S_OK);
    std::vector<char> buf(len);
    D3D12_MESSAGE *m = reinterpret_cast<D3D12_MESSAGE *>(buf.data());
    if (len && SUCCEEDED(iq->GetMessage(i, m, &len))) {
        CHECK_EQ(m->ID, id);
        CHECK_EQ(m->Category, category);
        CHECK_EQ(m->Severity, D3D12_MESSAGE_SEVERITY_ERROR);
    }
}

// 8c. Tessellation: Mesa's hull and domain shaders (from GLSL: tess_quad is quads,
// fractional_odd_spacing; tess_iso isolines; both read the factors from their uniforms at b0)
// over one patch of four control points at the corners of the target, the pixel shader writing
// SV_DomainLocation. With every factor 1 the patch is two triangles whose corners carry (u, v):
// pixel (x, y) reads u = (x + 0.5) / 16, v = 1 - (y + 0.5) / 16. With factor 3: a 4x4 grid of
// domain points and 18 triangles, still filling the target. An edge factor of 0 culls the
// patch. Isolines: density 3 and detail 4 make 3 lines of 5 points. Pipeline statistics count
// one hull-shader invocation per patch and one domain-shader invocation per point.
static D3D12_QUERY_DATA_PIPELINE_STATISTICS tess_draw(Fixture &f, ID3D12RootSignature *rs, ID3D12PipelineState *pso,
                                                       const float factors[8], D3D12_PRIMITIVE_TOPOLOGY topology)
{
    ID3D12Device *dev = f.dev;
    const float square[4][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    Com<ID3D12Resource> vb, results;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof square, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), square, sizeof square);
    results.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    Com<ID3D12QueryHeap> stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    const float tint[4] = {1, 1, 1, 1};
    bind(f, tint);
    const float black[4] = {0, 0, 0, 0};
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = f.rtv_heap->GetCPUDescriptorHandleForHeapStart();
    f.list->ClearRenderTargetView(rtv, black, 0, nullptr);
    f.list->SetGraphicsRootSignature(rs);
    f.list->SetPipelineState(pso);
    f.list->SetGraphicsRoot32BitConstants(0, 8, factors, 0);
    const float no_flip[4] = {1, 1, 1, 1};
    f.list->SetGraphicsRoot32BitConstants(1, 4, no_flip, 0);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof square, 8};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    f.list->IASetPrimitiveTopology(topology);
    f.list->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    f.list->DrawInstanced(4, 1, 0, 0);
    f.list->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    f.list->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 0);
    read_target(f);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st;
    memcpy(&st, map(results), sizeof st);
    return st;
}

static void tessellation_draws(Fixture &f, ID3D12InfoQueue *iq)
{
    ID3D12Device *dev = f.dev;
    // b0: the hull shader's uniforms (outer factors, then inner); b1: the domain shader's y flip.
    D3D12_ROOT_PARAMETER1 p[2] = {};
    p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[0].Constants = {0, 0, 8};
    p[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_HULL;
    p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[1].Constants = {1, 0, 4};
    p[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_DOMAIN;
    Com<ID3D12RootSignature> rs;
    rs.p = root_signature(dev, p, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    if (!rs) return;
    std::vector<char> vs = fixture("tess.vs.dxil"), ps = fixture("tess.ps.dxil"), hs = fixture("tess_quad.hs.dxil"),
                      ds = fixture("tess_quad.ds.dxil"), iso_hs = fixture("tess_iso.hs.dxil"),
                      iso_ds = fixture("tess_iso.ds.dxil");
    static const D3D12_INPUT_ELEMENT_DESC layout = {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0,
                                                    D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0};
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.pRootSignature = rs;
    pd.VS = {vs.data(), vs.size()};
    pd.HS = {hs.data(), hs.size()};
    pd.DS = {ds.data(), ds.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {&layout, 1};
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH;
    Com<ID3D12PipelineState> pso, iso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    {
        // A hull shader needs PATCH topology, and a domain shader beside it: E_INVALIDARG and
        // a STATE_CREATION error each (HULL_SHADER_INPUT_TOPOLOGY_MISMATCH, HS_XOR_DS_MISMATCH).
        D3D12_GRAPHICS_PIPELINE_STATE_DESC bad = pd;
        bad.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        ID3D12PipelineState *out = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&out)), E_INVALIDARG);
        CHECK_PTR(out, NULL);
        bad = pd;
        bad.DS = {nullptr, 0};
        out = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&out)), E_INVALIDARG);
        CHECK_PTR(out, NULL);
        // The domain shader must read the hull shader's control points (4, not tess_tri's 3) in
        // its domain (quad, not tess_iso's isoline).
        std::vector<char> tri_ds = fixture("tess_tri.ds.dxil");
        bad = pd;
        bad.DS = {tri_ds.data(), tri_ds.size()};
        out = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&out)), E_INVALIDARG);
        CHECK_PTR(out, NULL);
        bad.DS = {iso_ds.data(), iso_ds.size()};
        out = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&out)), E_INVALIDARG);
        CHECK_PTR(out, NULL);
        // A geometry shader must take what reaches it: quad.gs takes points, and the tessellator
        // makes triangles here; without tessellation, TRIANGLE topology makes triangles too.
        std::vector<char> gs = fixture("quad.gs.dxil"), quad_vs = fixture("quad.vs.dxil"),
                          quad_ps = fixture("quad.ps.dxil");
        bad = pd;
        bad.GS = {gs.data(), gs.size()};
        out = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&out)), E_INVALIDARG);
        CHECK_PTR(out, NULL);
        bad = textured_pso(f);
        bad.VS = {quad_vs.data(), quad_vs.size()};
        bad.GS = {gs.data(), gs.size()};
        bad.PS = {quad_ps.data(), quad_ps.size()};
        bad.InputLayout = {kQuadLayout, 2};
        out = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
        CHECK_HR(dev->CreateGraphicsPipelineState(&bad, IID_PPV_ARGS(&out)), E_INVALIDARG);
        CHECK_PTR(out, NULL);
        CHECK_EQ(iq->GetNumStoredMessages(), 6u);
        const D3D12_MESSAGE_ID ids[6] = {D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HULL_SHADER_INPUT_TOPOLOGY_MISMATCH,
                                         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH,
                                         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_DS_CONTROL_POINT_COUNT_MISMATCH,
                                         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_DS_TESSELLATOR_DOMAIN_MISMATCH,
                                         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH,
                                         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH};
        for (UINT64 i = 0; i < 6; i++) check_message(iq, i, ids[i], D3D12_MESSAGE_CATEGORY_STATE_CREATION);
        iq->ClearStoredMessages();
    }
    pd.HS = {iso_hs.data(), iso_hs.size()};
    pd.DS = {iso_ds.data(), iso_ds.size()};
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&iso)), S_OK);
    if (!pso || !iso) return;
    const auto patch4 = D3D_PRIMITIVE_TOPOLOGY_4_CONTROL_POINT_PATCHLIST;

    const float ones[8] = {1, 1, 1, 1, 1, 1, 0, 0};
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st = tess_draw(f, rs, pso, ones, patch4);
    const Rgba *px = static_cast<const Rgba *>(map(f.readback));
    unsigned wrong = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            const float u = (x + 0.5f) / 16, v = 1 - (y + 0.5f) / 16;
            const Rgba want = {{(unsigned char)lrintf(u * 255), (unsigned char)lrintf(v * 255), 128, 255}};
            const Rgba &got = px[y * 64 + x];
            if (memcmp(&got, &want, 4) != 0 && wrong++ < 4)
                printf("tessellation: pixel (%d, %d) is %d %d %d %d, not %d %d 128 255\n", x, y, got.c[0], got.c[1],
                       got.c[2], got.c[3], want.c[0], want.c[1]);
        }
    CHECK_EQ(wrong, 0u);
    CHECK_EQ(st.IAVertices, 4u);
    CHECK_EQ(st.IAPrimitives, 1u);
    CHECK_EQ(st.VSInvocations, 4u);
    CHECK_EQ(st.HSInvocations, 1u);
    CHECK_EQ(st.DSInvocations, 4u);
    CHECK_EQ(st.CInvocations, 2u);
    CHECK_EQ(st.PSInvocations, 256u);

    const float threes[8] = {3, 3, 3, 3, 3, 3, 0, 0};
    st = tess_draw(f, rs, pso, threes, patch4);
    px = static_cast<const Rgba *>(map(f.readback));
    unsigned lit = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) lit += px[y * 64 + x].c[3] == 255;
    CHECK_EQ(lit, 256u);
    CHECK_EQ(st.DSInvocations, 16u);
    CHECK_EQ(st.CInvocations, 18u);

    const float culled[8] = {3, 0, 3, 3, 3, 3, 0, 0};
    st = tess_draw(f, rs, pso, culled, patch4);
    px = static_cast<const Rgba *>(map(f.readback));
    lit = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) lit += px[y * 64 + x].c[3] != 0;
    CHECK_EQ(lit, 0u);
    CHECK_EQ(st.HSInvocations, 1u);
    CHECK_EQ(st.DSInvocations, 0u);
    CHECK_EQ(st.CInvocations, 0u);

    const float lines[8] = {3, 4, 0, 0, 0, 0, 0, 0};
    st = tess_draw(f, rs, iso, lines, patch4);
    CHECK_EQ(st.DSInvocations, 15u);
    CHECK_EQ(st.CInvocations, 12u);

    // Patch lists of another control-point count than the hull shader's 4 execute, as on
    // Windows' WARP (Mesa's d3d12 driver relies on it: it declares 32 input control points and
    // draws GL's patch size): the input assembler makes patches of the topology's count (four
    // vertices: two patches of 2, or one of 3 and a dropped incomplete one), each hull shader
    // invocation reads the missing control points as 0, and each factor-1 quad patch has 4
    // domain points.
    st = tess_draw(f, rs, pso, ones, D3D_PRIMITIVE_TOPOLOGY_2_CONTROL_POINT_PATCHLIST);
    CHECK_EQ(st.IAVertices, 4u);
    CHECK_EQ(st.IAPrimitives, 2u);
    CHECK_EQ(st.HSInvocations, 2u);
    CHECK_EQ(st.DSInvocations, 8u);
    st = tess_draw(f, rs, pso, ones, D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST);
    CHECK_EQ(st.IAPrimitives, 1u);
    CHECK_EQ(st.HSInvocations, 1u);
    CHECK_EQ(st.DSInvocations, 4u);

    // A patch list of 3 control points for a hull shader that takes 4: the debug layer
    // reports PRIMITIVE_TOPOLOGY_MISMATCH_PIPELINE_STATE when the draw is recorded.
    iq->ClearStoredMessages();
    f.list->SetGraphicsRootSignature(rs);
    f.list->SetPipelineState(pso);
    f.list->SetGraphicsRoot32BitConstants(0, 8, ones, 0);
    const float no_flip[4] = {1, 1, 1, 1};
    f.list->SetGraphicsRoot32BitConstants(1, 4, no_flip, 0);
    D3D12_VERTEX_BUFFER_VIEW vbv = {f.vb->GetGPUVirtualAddress(), 5 * 24, 8};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_3_CONTROL_POINT_PATCHLIST);
    f.list->DrawInstanced(3, 1, 0, 0);
    CHECK_EQ(iq->GetNumStoredMessages(), 1u);
    check_message(iq, 0, D3D12_MESSAGE_ID_PRIMITIVE_TOPOLOGY_MISMATCH_PIPELINE_STATE, D3D12_MESSAGE_CATEGORY_EXECUTION);
    iq->ClearStoredMessages();
    CHECK_HR(f.list->Close(), S_OK);
    CHECK_HR(f.list->Reset(f.alloc, nullptr), S_OK);
}

// 7. A 4x MSAA target: the triangle (0, 0), (16, 0), (0, 16) drawn into a 16x16 RGBA8 target
// with 4 samples cleared to (10, 20, 30, 255), resolved (AVERAGE) into a single-sampled texture.
// The standard 4x positions, in 1/16 pixel from the center, are (-2, -6), (6, -2), (-6, 2),
// (2, 6): at pixel (x, y) sample s lies at x + y + 1 + d_s with d = (-0.5, 0.25, -0.25, 0.5) on
// the axis x + y, and is inside when that is below 16 (the hypotenuse is a right edge). So
// pixels with x + y <= 14 have all four samples covered (the texel of their quadrant, tint 1),
// those with x + y = 15 samples 0 and 2 (the texel and the clear averaged: (0, 200, 0) and
// (10, 20, 30) give (5, 110, 15), (0, 0, 200) gives (5, 10, 115), alpha 255), the rest none.
// The pixel shader runs once per pixel at its center (uv of the center's quadrant).
// 7c. Texture2DMS loads: a compute shader (msload.cs, from GLSL texelFetch on a sampler2DMS)
// reads the four samples of pixel (15, 0) of the 4x target drawn in 7: samples 0 and 2 are
// covered (the top-right quadrant's texel, 0 200 0 255), samples 1 and 3 keep the clear
// (10 20 30 255). The view is an SRV of dimension TEXTURE2DMS in a table; the output a root UAV.
static void msaa_load(Fixture &f, ID3D12Resource *ms)
{
    ID3D12Device *dev = f.dev;
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p[2] = {};
    p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    p[0].DescriptorTable.NumDescriptorRanges = 1;
    p[0].DescriptorTable.pDescriptorRanges = &r;
    p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    p[1].Descriptor.ShaderRegister = 1;
    Com<ID3D12RootSignature> rs;
    rs.p = root_signature(dev, p, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    if (!rs) return;
    std::vector<char> cs = fixture("msload.cs.dxil");
    D3D12_COMPUTE_PIPELINE_STATE_DESC cd = {};
    cd.pRootSignature = rs;
    cd.CS = {cs.data(), cs.size()};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateComputePipelineState(&cd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    // The SRV in descriptor 3 of the shader-visible heap.
    UINT inc = dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE c = f.srv_heap->GetCPUDescriptorHandleForHeapStart();
    c.ptr += 3 * inc;
    D3D12_SHADER_RESOURCE_VIEW_DESC sd = {};
    sd.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    sd.ViewDimension = D3D12_SRV_DIMENSION_TEXTURE2DMS;
    sd.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
    dev->CreateShaderResourceView(ms, &sd, c);
    Com<ID3D12Resource> out;
    D3D12_RESOURCE_DESC bd = {};
    bd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    bd.Width = 64;
    bd.Height = 1;
    bd.DepthOrArraySize = 1;
    bd.MipLevels = 1;
    bd.SampleDesc.Count = 1;
    bd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    bd.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    D3D12_HEAP_PROPERTIES hp = heap(D3D12_HEAP_TYPE_DEFAULT);
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, nullptr,
                                          IID_PPV_ARGS(&out)),
             S_OK);
    if (!out) return;
    ID3D12GraphicsCommandList *l = f.list;
    D3D12_RESOURCE_BARRIER b =
        transition(ms, D3D12_RESOURCE_STATE_RESOLVE_SOURCE, D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE);
    l->ResourceBarrier(1, &b);
    ID3D12DescriptorHeap *heaps[] = {f.srv_heap};
    l->SetDescriptorHeaps(1, heaps);
    l->SetComputeRootSignature(rs);
    l->SetPipelineState(pso);
    D3D12_GPU_DESCRIPTOR_HANDLE g = f.srv_heap->GetGPUDescriptorHandleForHeapStart();
    g.ptr += 3 * inc;
    l->SetComputeRootDescriptorTable(0, g);
    l->SetComputeRootUnorderedAccessView(1, out->GetGPUVirtualAddress());
    l->Dispatch(1, 1, 1);
    b = transition(out, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(f.readback, 0, out, 0, 64);
    f.run();
    const uint32_t *w = static_cast<const uint32_t *>(map(f.readback));
    const uint32_t want[16] = {0, 200, 0, 255, 10, 20, 30, 255, 0, 200, 0, 255, 10, 20, 30, 255};
    unsigned bad = 0;
    for (int i = 0; i < 16; i++) bad += w[i] != want[i];
    CHECK_EQ(bad, 0u);
}

static void msaa_draw(Fixture &f, bool render_pass)
{
    ID3D12Device *dev = f.dev;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.RasterizerState.MultisampleEnable = TRUE;
    pd.SampleDesc.Count = 4;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);

    Com<ID3D12Resource> ms, resolved;
    ms.p = texture(dev, 16, 16, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET,
                   DXGI_FORMAT_R8G8B8A8_UNORM, 1, 4);
    resolved.p = texture(dev, 16, 16, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    if (!pso || !ms || !resolved || !rtv_heap) return;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    dev->CreateRenderTargetView(ms, nullptr, rtv);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    bind(f, tint);
    ID3D12GraphicsCommandList *l = f.list;
    const float clear[4] = {10 / 255.0f, 20 / 255.0f, 30 / 255.0f, 1.0f};
    D3D12_RESOURCE_BARRIER b;
    if (render_pass) {
        // The same through a render pass: CLEAR beginning access, RESOLVE (AVERAGE) ending
        // access of the whole target into `resolved`.
        Com<ID3D12GraphicsCommandList4> l4;
        CHECK_HR(l->QueryInterface(IID_PPV_ARGS(&l4)), S_OK);
        if (!l4) return;
        D3D12_RENDER_PASS_ENDING_ACCESS_RESOLVE_SUBRESOURCE_PARAMETERS sub = {0, 0, 0, 0, {0, 0, 16, 16}};
        D3D12_RENDER_PASS_RENDER_TARGET_DESC rp = {};
        rp.cpuDescriptor = rtv;
        rp.BeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
        rp.BeginningAccess.Clear.ClearValue.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        for (int c = 0; c < 4; c++) rp.BeginningAccess.Clear.ClearValue.Color[c] = clear[c];
        rp.EndingAccess.Type = D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_RESOLVE;
        rp.EndingAccess.Resolve.pSrcResource = ms;
        rp.EndingAccess.Resolve.pDstResource = resolved;
        rp.EndingAccess.Resolve.SubresourceCount = 1;
        rp.EndingAccess.Resolve.pSubresourceParameters = &sub;
        rp.EndingAccess.Resolve.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        rp.EndingAccess.Resolve.ResolveMode = D3D12_RESOLVE_MODE_AVERAGE;
        l4->BeginRenderPass(1, &rp, nullptr, D3D12_RENDER_PASS_FLAG_NONE);
        l4->SetPipelineState(pso);
        l4->DrawInstanced(3, 1, 1, 0);
        l4->EndRenderPass();
    } else {
        l->ClearRenderTargetView(rtv, clear, 0, nullptr);
        l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
        l->SetPipelineState(pso);
        l->DrawInstanced(3, 1, 1, 0);
        b = transition(ms, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
        l->ResourceBarrier(1, &b);
        l->ResolveSubresource(resolved, 0, ms, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    }
    b = transition(resolved, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = f.readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256};
    src.pResource = resolved;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    f.run();
    const Rgba *px = static_cast<const Rgba *>(map(f.readback));
    const Rgba bg = {{10, 20, 30, 255}};
    unsigned bad = 0, full = 0, half = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) {
            Rgba want = bg;
            if (x + y <= 14) {
                want = kTexels[(y >= 8) * 2 + (x >= 8)];
                full++;
            } else if (x + y == 15) {
                // Only the top-right (green) and bottom-left (blue) quadrants reach x + y = 15.
                want = x >= 8 ? Rgba{{5, 110, 15, 255}} : Rgba{{5, 10, 115, 255}};
                half++;
            }
            Rgba got = px[y * 64 + x];
            if (memcmp(&got, &want, 4) != 0) {
                if (bad < 4)
                    fprintf(stderr, "MSAA: pixel (%d,%d) is %d %d %d %d, expected %d %d %d %d\n", x, y, got.c[0],
                            got.c[1], got.c[2], got.c[3], want.c[0], want.c[1], want.c[2], want.c[3]);
                bad++;
            }
        }
    CHECK_EQ(bad, 0u);
    CHECK_EQ(full, 120u);
    CHECK_EQ(half, 16u);
    if (!render_pass) msaa_load(f, ms);
}

// 9. Sample-rate shading and attribute evaluation on a 2x2 R32G32B32A32_FLOAT target with
// 4 samples, read back through ResolveSubresource (AVERAGE). The vertex shader passes a color
// that is the corner's screen position (x, y, 0, 1). The 4x standard pattern's offsets sum to
// zero, so averaging a per-sample position gives the pixel center.
static void sample_rate_draw(Fixture &f, const char *vs_name, const char *ps_name, const float (&tri)[3][2],
                             const float (&want)[4][4], UINT64 invocations)
{
    ID3D12Device *dev = f.dev;
    std::vector<char> vs = fixture(vs_name), ps = fixture(ps_name);
    const DXGI_FORMAT fmt = DXGI_FORMAT_R32G32B32A32_FLOAT;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = textured_pso(f);
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.InputLayout = {kQuadLayout, 2};
    pd.RTVFormats[0] = fmt;
    pd.SampleDesc.Count = 4;
    pd.RasterizerState.MultisampleEnable = TRUE;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    float verts[3][6];
    for (int i = 0; i < 3; i++) {
        float x = tri[i][0], y = tri[i][1];
        float v[6] = {x - 1, 1 - y, x, y, 0, 1};
        memcpy(verts[i], v, sizeof v);
    }
    Com<ID3D12Resource> vb, ms, resolved, results;
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    memcpy(map(vb), verts, sizeof verts);
    results.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    ms.p = texture(dev, 2, 2, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET, fmt, 1, 4);
    resolved.p = texture(dev, 2, 2, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST, fmt);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    Com<ID3D12QueryHeap> stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    if (!pso || !ms || !resolved || !rtv_heap || !stats) return;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    dev->CreateRenderTargetView(ms, nullptr, rtv);

    const float tint[4] = {1.0f, 1.0f, 1.0f, 1.0f}, zero[4] = {};
    bind(f, tint);
    ID3D12GraphicsCommandList *l = f.list;
    l->ClearRenderTargetView(rtv, zero, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof verts, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    D3D12_VIEWPORT vp = {0, 0, 2, 2, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 2, 2};
    l->RSSetScissorRects(1, &sc);
    l->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->DrawInstanced(3, 1, 0, 0);
    l->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 0);
    D3D12_RESOURCE_BARRIER b = transition(ms, D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_RESOLVE_SOURCE);
    l->ResourceBarrier(1, &b);
    l->ResolveSubresource(resolved, 0, ms, 0, fmt);
    b = transition(resolved, D3D12_RESOURCE_STATE_RESOLVE_DEST, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = f.readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {fmt, 2, 2, 1, 256};
    src.pResource = resolved;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    f.run();
    const unsigned char *rows = static_cast<const unsigned char *>(map(f.readback));
    unsigned bad = 0;
    for (int i = 0; i < 4; i++) {
        float got[4];
        memcpy(got, rows + (i / 2) * 256 + (i % 2) * 16, sizeof got);
        for (int c = 0; c < 4; c++)
            if (std::fabs(got[c] - want[i][c]) > 1e-4f && bad++ < 4)
                fprintf(stderr, "%s: pixel %d channel %d is %f, expected %f\n", ps_name, i, c, got[c], want[i][c]);
    }
    CHECK_EQ(bad, 0u);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st;
    memcpy(&st, map(results), sizeof st);
    CHECK_EQ(st.PSInvocations, invocations);
}

static void sample_rate_draws(Fixture &f)
{
    // persample.frag: a `sample in` color and gl_SampleID, so one invocation per sample (16);
    // blue is the sample index / 4, averaging 0.375.
    const float whole[3][2] = {{0, 0}, {4, 0}, {0, 4}};
    const float per_sample[4][4] = {{0.5f, 0.5f, 0.375f, 1}, {1.5f, 0.5f, 0.375f, 1}, {0.5f, 1.5f, 0.375f, 1},
                                    {1.5f, 1.5f, 0.375f, 1}};
    sample_rate_draw(f, "quad.vs.dxil", "persample.ps.dxil", whole, per_sample, 16);
    // eval.frag: (EvalSnapped (4, -2)/16, EvalSampleIndex 1, EvalCentroid, a centroid input) of
    // the color's x. The edge x = 0.45 leaves samples 0 and 2 of column 0 covered (not the
    // center), so the centroid is sample 0 (x 0.375): (0.75, 0.875, 0.375, 0.375) on two of
    // four samples averages to half that; column 1 stays clear. One invocation per pixel.
    const float cut[3][2] = {{-4, -4}, {0.45f, -4}, {0.45f, 10}};
    const float evaluated[4][4] = {
        {0.375f, 0.4375f, 0.1875f, 0.1875f}, {0, 0, 0, 0}, {0.375f, 0.4375f, 0.1875f, 0.1875f}, {0, 0, 0, 0}};
    sample_rate_draw(f, "pass2.vs.dxil", "eval.ps.dxil", cut, evaluated, 2);
}

static void draws(ID3D12Device *dev)
{
    Fixture f;
    f.dev = dev;
    if (!build(f)) {
        CHECK(!"the fixture was built");
        return;
    }

    // 1. DrawInstanced: the triangle, inside occlusion, binary-occlusion and
    //    pipeline-statistics queries resolved to a readback buffer.
    const float tint[4] = {1.0f, 0.5f, 1.0f, 1.0f};
    Com<ID3D12QueryHeap> occlusion, stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 2, 0};
    CHECK_HR(f.dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&occlusion)), S_OK);
    qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(f.dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    bind(f, tint);
    f.list->BeginQuery(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
    f.list->BeginQuery(occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
    f.list->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    f.list->DrawInstanced(3, 1, 1, 0);
    f.list->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    f.list->EndQuery(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
    f.list->EndQuery(occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1);
    Com<ID3D12Resource> results;
    results.p = buffer(f.dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    f.list->ResolveQueryData(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0, 1, results, 0);
    f.list->ResolveQueryData(occlusion, D3D12_QUERY_TYPE_BINARY_OCCLUSION, 1, 1, results, 8);
    f.list->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 16);
    CHECK_EQ(check_image(read_target(f), in_triangle, tint, "DrawInstanced"), 120u);
    const UINT64 *q = static_cast<const UINT64 *>(map(results));
    CHECK_EQ(q[0], 120u);  // samples that passed (no depth buffer: every covered sample)
    CHECK_EQ(q[1], 1u);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS ps;
    memcpy(&ps, q + 2, sizeof ps);
    CHECK_EQ(ps.IAVertices, 3u);
    CHECK_EQ(ps.IAPrimitives, 1u);
    CHECK_EQ(ps.VSInvocations, 3u);
    CHECK_EQ(ps.CInvocations, 1u);
    CHECK_EQ(ps.CPrimitives, 1u);
    CHECK_EQ(ps.PSInvocations, 120u);
    CHECK_EQ(ps.GSInvocations, 0u);
    CHECK_EQ(ps.CSInvocations, 0u);

    // 2. DrawIndexedInstanced: the quad (indices 0..3 + base vertex 1), scissored to x < 8.
    bind(f, tint);
    D3D12_INDEX_BUFFER_VIEW ibv = {f.ib->GetGPUVirtualAddress(), 12, DXGI_FORMAT_R16_UINT};
    f.list->IASetIndexBuffer(&ibv);
    D3D12_RECT half = {0, 0, 8, 16};
    f.list->RSSetScissorRects(1, &half);
    f.list->DrawIndexedInstanced(6, 1, 0, 1, 0);
    CHECK_EQ(check_image(read_target(f), left_half, tint, "DrawIndexedInstanced"), 128u);

    // 2a. The same draw through a viewport outside D3D12's ranges (NaN corner, depths -5 and 7):
    //     invalid in D3D12, so rd3d12 holds it to the ranges (NaN as 0, depths to [0, 1]) and
    //     draws what viewport {0, 0, 16, 16, 0, 1} draws, instead of overflowing.
    bind(f, tint);
    f.list->IASetIndexBuffer(&ibv);
    f.list->RSSetScissorRects(1, &half);
    D3D12_VIEWPORT odd = {NAN, NAN, 16, 16, -5, 7};
    f.list->RSSetViewports(1, &odd);
    f.list->DrawIndexedInstanced(6, 1, 0, 1, 0);
    CHECK_EQ(check_image(read_target(f), left_half, tint, "viewport held to D3D12's ranges"), 128u);

    // 2b. The same quad through ExecuteIndirect: a record of (index buffer view, indexed draw
    //     arguments), 36 bytes, read from an upload buffer when the list executes; the list
    //     has no index buffer set.
    bind(f, tint);
    f.list->RSSetScissorRects(1, &half);
    D3D12_INDIRECT_ARGUMENT_DESC ia[2] = {};
    ia[0].Type = D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW;
    ia[1].Type = D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED;
    D3D12_COMMAND_SIGNATURE_DESC sd = {36, 2, ia, 0};
    Com<ID3D12CommandSignature> sig;
    CHECK_HR(f.dev->CreateCommandSignature(&sd, nullptr, IID_PPV_ARGS(&sig)), S_OK);
    Com<ID3D12Resource> argbuf;
    argbuf.p = buffer(f.dev, D3D12_HEAP_TYPE_UPLOAD, 36, D3D12_RESOURCE_STATE_GENERIC_READ);
    unsigned char *rec = static_cast<unsigned char *>(map(argbuf));
    memcpy(rec, &ibv, sizeof ibv);
    const D3D12_DRAW_INDEXED_ARGUMENTS da = {6, 1, 0, 1, 0};
    memcpy(rec + 16, &da, sizeof da);
    if (sig) f.list->ExecuteIndirect(sig, 1, argbuf, 0, nullptr, 0);
    CHECK_EQ(check_image(read_target(f), left_half, tint, "ExecuteIndirect"), 128u);

    // 3. One root constant changed at an offset: the tint's blue becomes 0.25.
    bind(f, tint);
    float quarter = 0.25f;
    UINT bits;
    memcpy(&bits, &quarter, 4);
    f.list->SetGraphicsRoot32BitConstant(2, bits, 2);
    f.list->DrawInstanced(3, 1, 1, 0);
    const float tint2[4] = {1.0f, 0.5f, 0.25f, 1.0f};
    CHECK_EQ(check_image(read_target(f), in_triangle, tint2, "SetGraphicsRoot32BitConstant"), 120u);

    // 3b. A render pass: the target cleared to black and unbound, then BeginRenderPass binds
    //     it with a CLEAR beginning access of the clear color; the triangle drawn inside shows
    //     the same image as draw 1.
    bind(f, tint);
    {
        Com<ID3D12GraphicsCommandList4> l4;
        CHECK_HR(f.list->QueryInterface(IID_PPV_ARGS(&l4)), S_OK);
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = f.rtv_heap->GetCPUDescriptorHandleForHeapStart();
        const float black[4] = {0, 0, 0, 0};
        f.list->ClearRenderTargetView(rtv, black, 0, nullptr);
        f.list->OMSetRenderTargets(0, nullptr, FALSE, nullptr);
        D3D12_RENDER_PASS_RENDER_TARGET_DESC rp = {};
        rp.cpuDescriptor = rtv;
        rp.BeginningAccess.Type = D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
        rp.BeginningAccess.Clear.ClearValue.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        for (int c = 0; c < 4; c++) rp.BeginningAccess.Clear.ClearValue.Color[c] = kClear.c[c] / 255.0f;
        rp.EndingAccess.Type = D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_PRESERVE;
        if (l4) {
            l4->BeginRenderPass(1, &rp, nullptr, D3D12_RENDER_PASS_FLAG_NONE);
            l4->DrawInstanced(3, 1, 1, 0);
            l4->EndRenderPass();
        }
    }
    CHECK_EQ(check_image(read_target(f), in_triangle, tint, "render pass"), 120u);

    // 3c. A bundle (initial pipeline state: the PSO): it sets the topology and one root
    //     constant (the tint's blue, 0.25) and draws; everything else (root signature, the other
    //     root arguments, descriptor heaps, vertex buffers, render target, viewport, scissor) it
    //     inherits from the direct list. The constant stays set after the bundle: a second draw
    //     in the direct list shows the same image.
    {
        Com<ID3D12CommandAllocator> balloc;
        Com<ID3D12GraphicsCommandList> bundle;
        CHECK_HR(f.dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_BUNDLE, IID_PPV_ARGS(&balloc)), S_OK);
        CHECK_HR(f.dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_BUNDLE, balloc, f.pso, IID_PPV_ARGS(&bundle)),
                 S_OK);
        if (bundle) {
            bundle->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
            bundle->SetGraphicsRoot32BitConstant(2, bits, 2);
            bundle->DrawInstanced(3, 1, 1, 0);
            CHECK_HR(bundle->Close(), S_OK);
            bind(f, tint);
            f.list->ExecuteBundle(bundle);
            CHECK_EQ(check_image(read_target(f), in_triangle, tint2, "bundle"), 120u);
            bind(f, tint);
            f.list->ExecuteBundle(bundle);
            const float black[4] = {0, 0, 0, 0};
            f.list->ClearRenderTargetView(f.rtv_heap->GetCPUDescriptorHandleForHeapStart(), black, 0, nullptr);
            const float clear[4] = {kClear.c[0] / 255.0f, kClear.c[1] / 255.0f, kClear.c[2] / 255.0f,
                                    kClear.c[3] / 255.0f};
            f.list->ClearRenderTargetView(f.rtv_heap->GetCPUDescriptorHandleForHeapStart(), clear, 0, nullptr);
            f.list->DrawInstanced(3, 1, 1, 0);
            CHECK_EQ(check_image(read_target(f), in_triangle, tint2, "after the bundle"), 120u);
        }
    }

    // 4. Depth and stencil planes of a D24S8 view.
    depth_stencil_draw(f);

    // 5. A line strip.
    line_strip_draw(f);
    wireframe_draw(f);
    stream_output_draw(f);
    vertex_ids_draw(f);
    clip_draws(f);
    layered_draw(f);
    sample_rate_draws(f);
    geometry_draw(f);
    uav_only_draw(f);

    // 7. A 4x multisampled draw, resolved; 7b. the same in a render pass with a RESOLVE ending
    //    access.
    msaa_draw(f, false);
    msaa_draw(f, true);

    // 6. The debug layer's draw-time checks.
    Com<ID3D12InfoQueue> iq;
    CHECK_HR(f.dev->QueryInterface(IID_PPV_ARGS(&iq)), S_OK);
    if (!iq) return;
    // Only the startup message of the device (INFO) and the refused pipeline's error, nothing
    // from the correct draws above.
    CHECK_EQ(iq->GetNumStoredMessages(), 2u);
    check_message(iq, 1, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_PS_ROOT_SIGNATURE_MISMATCH,
                  D3D12_MESSAGE_CATEGORY_STATE_CREATION);
    iq->ClearStoredMessages();
    // 8c runs here, where the pipelines it refuses can be checked in the queue.
    tessellation_draws(f, iq);
    auto expect = [&](D3D12_MESSAGE_ID id, const char *what) {
        set_ctx("%s", what);
        CHECK_EQ(iq->GetNumStoredMessages(), 1u);
        check_message(iq, 0, id, D3D12_MESSAGE_CATEGORY_EXECUTION);
        iq->ClearStoredMessages();
        set_ctx("%s", "");
    };
    CHECK_HR(f.list->Close(), S_OK);
    CHECK_HR(f.list->Reset(f.alloc, nullptr), S_OK);
    f.list->DrawInstanced(3, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_PIPELINE_STATE_NOT_SET, "no pipeline state");
    f.list->SetPipelineState(f.pso);
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    D3D12_VERTEX_BUFFER_VIEW vbv = {f.vb->GetGPUVirtualAddress(), 5 * 24, 24};
    f.list->IASetVertexBuffers(0, 1, &vbv);
    f.list->DrawInstanced(3, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_ROOT_SIGNATURE_NOT_SET, "no root signature");
    // Another root signature: one root CBV.
    D3D12_ROOT_PARAMETER1 one = {};
    one.ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
    Com<ID3D12RootSignature> other;
    other.p = root_signature(f.dev, &one, 1, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    f.list->SetGraphicsRootSignature(other);
    f.list->DrawInstanced(3, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_ROOT_SIGNATURE_MISMATCH, "another root signature");
    // Back to the pipeline's root signature: its arguments start unset. With all but the
    // pixel shader's descriptor table set, the draw reports that table.
    f.list->SetGraphicsRootSignature(f.rs);
    f.list->SetGraphicsRootConstantBufferView(0, f.cb->GetGPUVirtualAddress());
    const float state_vars[4] = {1, 0, 0, 0};
    f.list->SetGraphicsRoot32BitConstants(1, 4, state_vars, 0);
    f.list->SetGraphicsRoot32BitConstants(2, 4, tint, 0);
    f.list->DrawInstanced(3, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_DESCRIPTOR_TABLE_NOT_SET, "the SRV table unset");
    D3D12_GPU_DESCRIPTOR_HANDLE table = f.srv_heap->GetGPUDescriptorHandleForHeapStart();
    table.ptr += 2 * f.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    ID3D12DescriptorHeap *heaps[] = {f.srv_heap};
    f.list->SetDescriptorHeaps(1, heaps);
    f.list->SetGraphicsRootDescriptorTable(3, table);
    f.list->DrawInstanced(3, 1, 0, 0);
    CHECK_EQ(iq->GetNumStoredMessages(), 0u);
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_UNDEFINED);
    f.list->DrawInstanced(3, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INVALID_PRIMITIVETOPOLOGY, "undefined topology");
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_LINELIST);
    f.list->DrawInstanced(2, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_PRIMITIVE_TOPOLOGY_MISMATCH_PIPELINE_STATE, "lines on a triangle pipeline");
    f.list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    f.list->DrawIndexedInstanced(3, 1, 0, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_BUFFER_NOT_SET, "no index buffer");
    f.list->IASetIndexBuffer(&ibv);
    f.list->DrawIndexedInstanced(6, 1, 1, 0, 0);
    expect(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_BUFFER_TOO_SMALL, "indices 1..7 of 6");
    f.list->DrawIndexedInstanced(6, 1, 0, 1, 0);
    CHECK_EQ(iq->GetNumStoredMessages(), 0u);
    // A depth-stencil view bound while the pipeline's DSVFormat is UNKNOWN.
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Width = 16;
        d.Height = 16;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.Format = DXGI_FORMAT_D32_FLOAT;
        d.SampleDesc.Count = 1;
        d.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
        D3D12_HEAP_PROPERTIES hp = heap(D3D12_HEAP_TYPE_DEFAULT);
        Com<ID3D12Resource> depth;
        CHECK_HR(f.dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_DEPTH_WRITE, nullptr,
                                                IID_PPV_ARGS(&depth)),
                 S_OK);
        Com<ID3D12DescriptorHeap> dsv_heap;
        D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        CHECK_HR(f.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&dsv_heap)), S_OK);
        D3D12_CPU_DESCRIPTOR_HANDLE dsv = dsv_heap->GetCPUDescriptorHandleForHeapStart();
        f.dev->CreateDepthStencilView(depth, nullptr, dsv);
        D3D12_CPU_DESCRIPTOR_HANDLE rtv = f.rtv_heap->GetCPUDescriptorHandleForHeapStart();
        f.list->OMSetRenderTargets(1, &rtv, FALSE, &dsv);
        f.list->DrawIndexedInstanced(6, 1, 0, 1, 0);
        expect(D3D12_MESSAGE_ID_DEPTH_STENCIL_FORMAT_MISMATCH_PIPELINE_STATE, "a DSV the pipeline does not declare");
    }
    CHECK_HR(f.list->Close(), S_OK);
    CHECK_HR(f.list->Reset(f.alloc, nullptr), S_OK);
}


int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    {
        Com<ID3D12Debug> debug;
        CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
        if (debug) debug->EnableDebugLayer();
    }
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        draws(dev);
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("draw_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
