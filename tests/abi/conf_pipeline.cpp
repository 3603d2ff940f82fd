// tests/abi/conf_pipeline.cpp - pipeline creation, pipeline libraries and root signatures where
// Windows' answers were measured (issue #16, "Windows conformance"), through the C ABI from C++.
//
// The shaders are real DXIL from tests/fixtures/dxil (spirv2dxil, unsigned, so the
// device enables D3D12ExperimentalShaderModels first): quad.vs (position float2 at TEXCOORD0,
// color float4 at TEXCOORD1), quad.ps (returns the color), dual.ps (SV_Target0 = the color,
// SV_Target0 index 1 = (0.5, 0.25, 1.0, 0.75)), copy.cs (64 threads: u1[i] = u0[i] * 3 + i, raw
// UAVs). The debug layer is on for the whole program. Checked:
//   1. a graphics pipeline whose DSVFormat is a colour format (R8G8B8A8_UNORM) with depth
//      enabled, DepthFunc NEVER: S_OK, as on Windows (the depth-stencil state is ignored); a
//      draw of a full-target triangle with only a render target bound writes every pixel with
//      the vertex color, and the debug layer reports nothing. The same through a pipeline state
//      stream without a PRIMITIVE_TOPOLOGY subobject: the type defaults to TRIANGLE, so a
//      TRIANGLELIST draw works and reports no topology mismatch;
//   2. a stream with a CS and graphics subobjects (a PS, blend, rasterizer, render target and
//      depth formats): S_OK, a compute pipeline (its GetCachedBlob equals the one of
//      CreateComputePipelineState with the same CS and root signature, and a Dispatch runs the
//      copy); a stream with a VS and a CS fails with E_INVALIDARG (two pipeline types);
//   3. dual-source blending (DestBlend SRC1_COLOR) with NumRenderTargets 2 and RTVFormats[1]
//      UNKNOWN: S_OK, and a draw blends: out = color * 1 + clear * src1 per channel, worked by
//      hand below; with IndependentBlendEnable and blending enabled on RenderTarget[1]:
//      E_INVALIDARG and message #675 OM_DUAL_SOURCE_BLENDING_CAN_ONLY_HAVE_RENDER_TARGET_0;
//   4. a pipeline library: LoadGraphicsPipeline, LoadComputePipeline and LoadPipeline of the
//      same name twice give the same COM pointer; the references are the caller's (2 after two
//      loads, Release returns 1 then 0), and a load after the last Release gives a working
//      object again; the same in a library created from the first one's serialized blob;
//   5. CreateRootSignature from shader bytecode without an RTS0 part (a vs_5_0 DXBC container
//      with a valid checksum): E_FAIL, NULL out, and message #696
//      CREATE_ROOT_SIGNATURE_BLOB_NOT_FOUND.
//
// The last line is "conf_pipeline_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
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



// A pipeline state stream laid out as alignas(void*) {type, struct} pairs (the
// D3D12_PIPELINE_STATE_STREAM_DESC page's layout).
struct Stream {
    std::vector<unsigned char> bytes;
    template <class T> Stream &add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE type, const T &inner)
    {
        size_t at = (bytes.size() + 7) / 8 * 8;
        bytes.resize(at);
        bytes.resize(at + sizeof(type));
        memcpy(&bytes[at], &type, sizeof(type));
        size_t in = (bytes.size() + alignof(T) - 1) / alignof(T) * alignof(T);
        bytes.resize(in + sizeof(T));
        memcpy(&bytes[in], &inner, sizeof(T));
        bytes.resize((bytes.size() + 7) / 8 * 8);
        return *this;
    }
    D3D12_PIPELINE_STATE_STREAM_DESC desc() { return {bytes.size(), bytes.data()}; }
};

struct Ctx {
    ID3D12Device *dev = nullptr;
    Com<ID3D12Device2> dev2;
    Com<ID3D12InfoQueue> iq;
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    UINT64 value = 0;
    Com<ID3D12RootSignature> rs_ia, rs_uav;
    Com<ID3D12Resource> rt, readback, vb;
    Com<ID3D12DescriptorHeap> rtv_heap;
    std::vector<char> vs = fixture("quad.vs.dxil"), ps = fixture("quad.ps.dxil"), dual = fixture("dual.ps.dxil"),
                      cs = fixture("copy.cs.dxil");

    void run()
    {
        CHECK_HR(list->Close(), S_OK);
        ID3D12CommandList *l = list;
        queue->ExecuteCommandLists(1, &l);
        CHECK_HR(queue->Signal(fence, ++value), S_OK);
        CHECK_HR(fence->SetEventOnCompletion(value, nullptr), S_OK);
        CHECK_HR(alloc->Reset(), S_OK);
        CHECK_HR(list->Reset(alloc, nullptr), S_OK);
    }

    ID3D12Resource *buffer(D3D12_HEAP_TYPE t, UINT64 size, D3D12_RESOURCE_STATES st, bool uav = false)
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        d.Width = size;
        d.Height = 1;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.SampleDesc.Count = 1;
        d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        d.Flags = uav ? D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS : D3D12_RESOURCE_FLAG_NONE;
        D3D12_HEAP_PROPERTIES h = {};
        h.Type = t;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
        return r;
    }

    ID3D12RootSignature *root_signature(const D3D12_ROOT_PARAMETER1 *p, UINT n, D3D12_ROOT_SIGNATURE_FLAGS flags)
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
            CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                     S_OK);
        return rs;
    }

    // Errors and warnings the debug layer stored since the last call (the queue is cleared).
    UINT64 messages()
    {
        UINT64 n = iq ? iq->GetNumStoredMessages() : 0;
        if (iq) iq->ClearStoredMessages();
        return n;
    }

    // Whether the last stored message has `id`; the queue is cleared.
    bool last_message_is(D3D12_MESSAGE_ID id)
    {
        UINT64 n = iq ? iq->GetNumStoredMessages() : 0;
        bool ok = false;
        SIZE_T len = 0;
        if (n && SUCCEEDED(iq->GetMessage(n - 1, nullptr, &len)) && len) {
            std::vector<char> buf(len);
            D3D12_MESSAGE *m = reinterpret_cast<D3D12_MESSAGE *>(buf.data());
            ok = SUCCEEDED(iq->GetMessage(n - 1, m, &len)) && m->ID == id &&
                 m->Severity == D3D12_MESSAGE_SEVERITY_ERROR;
        }
        if (iq) iq->ClearStoredMessages();
        return ok;
    }
};

static const D3D12_INPUT_ELEMENT_DESC kQuadLayout[2] = {
    {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};

// The vertex color of the full-target triangle and the clear color (bytes / 255).
static const float kColor[4] = {0.2f, 0.4f, 0.6f, 1.0f};
static const unsigned char kClear[4] = {100, 200, 50, 255};

static D3D12_GRAPHICS_PIPELINE_STATE_DESC quad_pso(Ctx &c, const std::vector<char> &ps)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = {};
    d.pRootSignature = c.rs_ia;
    d.VS = {c.vs.data(), c.vs.size()};
    d.PS = {ps.data(), ps.size()};
    d.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    d.SampleMask = UINT_MAX;
    d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    d.RasterizerState.DepthClipEnable = TRUE;
    d.InputLayout = {kQuadLayout, 2};
    d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    d.NumRenderTargets = 1;
    d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    return d;
}

static bool setup(Ctx &c)
{
    ID3D12Device *dev = c.dev;
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&c.dev2)), S_OK);
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&c.iq)), S_OK);
    D3D12_COMMAND_QUEUE_DESC qd = {};
    CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&c.queue)), S_OK);
    CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&c.alloc)), S_OK);
    CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, c.alloc, nullptr, IID_PPV_ARGS(&c.list)), S_OK);
    CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&c.fence)), S_OK);
    c.rs_ia.p = c.root_signature(nullptr, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    D3D12_ROOT_PARAMETER1 uav[2] = {};
    for (UINT i = 0; i < 2; i++) {
        uav[i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        uav[i].Descriptor.ShaderRegister = i;
        uav[i].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    }
    c.rs_uav.p = c.root_signature(uav, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);

    D3D12_RESOURCE_DESC td = {};
    td.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    td.Width = 16;
    td.Height = 16;
    td.DepthOrArraySize = 1;
    td.MipLevels = 1;
    td.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    td.SampleDesc.Count = 1;
    td.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    D3D12_HEAP_PROPERTIES hp = {};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_RENDER_TARGET, nullptr,
                                          IID_PPV_ARGS(&c.rt)),
             S_OK);
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&c.rtv_heap)), S_OK);
    if (!c.rt || !c.rtv_heap || !c.rs_ia || !c.rs_uav || !c.dev2) return false;
    dev->CreateRenderTargetView(c.rt, nullptr, c.rtv_heap->GetCPUDescriptorHandleForHeapStart());
    // One triangle over the whole 16x16 target: (-1,-1), (3,-1), (-1,3), all of kColor.
    float verts[3][6] = {{-1, -1}, {3, -1}, {-1, 3}};
    for (auto &v : verts) memcpy(&v[2], kColor, sizeof kColor);
    c.vb.p = c.buffer(D3D12_HEAP_TYPE_UPLOAD, sizeof verts, D3D12_RESOURCE_STATE_GENERIC_READ);
    void *p = nullptr;
    CHECK_HR(c.vb->Map(0, nullptr, &p), S_OK);
    if (p) memcpy(p, verts, sizeof verts);
    c.readback.p = c.buffer(D3D12_HEAP_TYPE_READBACK, 16 * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    c.messages();
    return c.vb && c.readback;
}

// Clears the target, draws the triangle with `pso` and returns the 16x16 pixels (rows of 256
// bytes in the readback buffer).
static const unsigned char *draw(Ctx &c, ID3D12PipelineState *pso)
{
    ID3D12GraphicsCommandList *l = c.list;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = c.rtv_heap->GetCPUDescriptorHandleForHeapStart();
    const float clear[4] = {kClear[0] / 255.0f, kClear[1] / 255.0f, kClear[2] / 255.0f, kClear[3] / 255.0f};
    l->ClearRenderTargetView(rtv, clear, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetGraphicsRootSignature(c.rs_ia);
    l->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {c.vb->GetGPUVirtualAddress(), 3 * 24, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    D3D12_VIEWPORT vp = {0, 0, 16, 16, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 16, 16};
    l->RSSetScissorRects(1, &sc);
    l->DrawInstanced(3, 1, 0, 0);
    D3D12_RESOURCE_BARRIER b = {};
    b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    b.Transition.pResource = c.rt;
    b.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
    b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    l->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = c.readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256};
    src.pResource = c.rt;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    std::swap(b.Transition.StateBefore, b.Transition.StateAfter);
    l->ResourceBarrier(1, &b);
    c.run();
    void *p = nullptr;
    CHECK_HR(c.readback->Map(0, nullptr, &p), S_OK);
    return static_cast<const unsigned char *>(p);
}

// Every pixel equals `want` (each channel within 1).
static void check_all(const unsigned char *px, const unsigned char want[4], const char *what)
{
    set_ctx("%s", what);
    unsigned bad = 0;
    for (int y = 0; y < 16 && px; y++)
        for (int x = 0; x < 16; x++)
            for (int ch = 0; ch < 4; ch++)
                bad += std::abs(int(px[y * 256 + x * 4 + ch]) - int(want[ch])) > 1;
    CHECK(px != nullptr);
    CHECK_EQ(bad, 0u);
    g_ctx[0] = 0;
}

static unsigned char unorm8(float v)
{
    return (unsigned char)std::lround(std::fmin(std::fmax(v, 0.0f), 1.0f) * 255.0f);
}

// 1. A colour DSVFormat: accepted, the depth state ignored; streams default to TRIANGLE.
static void colour_dsv_format(Ctx &c)
{
    unsigned char color[4];
    for (int i = 0; i < 4; i++) color[i] = unorm8(kColor[i]);

    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = quad_pso(c, c.ps);
    d.DSVFormat = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.DepthStencilState.DepthEnable = TRUE;
    d.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_NEVER;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&pso)), S_OK);
    CHECK_EQ(c.messages(), 0u);
    if (pso) {
        check_all(draw(c, pso), color, "colour DSVFormat, DepthFunc NEVER");
        CHECK_EQ(c.messages(), 0u);
    }

    // The same as a stream, without PRIMITIVE_TOPOLOGY.
    D3D12_RT_FORMAT_ARRAY rts = {};
    rts.RTFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    rts.NumRenderTargets = 1;
    D3D12_DEPTH_STENCIL_DESC ds = d.DepthStencilState;
    Stream s;
    s.add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, static_cast<ID3D12RootSignature *>(c.rs_ia))
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, d.VS)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, d.PS)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, d.InputLayout)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER, d.RasterizerState)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL, ds)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT, DXGI_FORMAT_R8G8B8A8_UNORM)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, rts);
    D3D12_PIPELINE_STATE_STREAM_DESC sd = s.desc();
    Com<ID3D12PipelineState> spso;
    CHECK_HR(c.dev2->CreatePipelineState(&sd, IID_PPV_ARGS(&spso)), S_OK);
    CHECK_EQ(c.messages(), 0u);
    if (spso) {
        // TRIANGLELIST matches the defaulted TRIANGLE type: no PRIMITIVE_TOPOLOGY_MISMATCH.
        check_all(draw(c, spso), color, "stream without PRIMITIVE_TOPOLOGY");
        CHECK_EQ(c.messages(), 0u);
    }
}

// 2. A CS with graphics subobjects: a compute pipeline.
static void compute_stream_with_graphics_subobjects(Ctx &c)
{
    D3D12_SHADER_BYTECODE cs = {c.cs.data(), c.cs.size()}, ps = {c.ps.data(), c.ps.size()},
                          vs = {c.vs.data(), c.vs.size()};
    D3D12_RT_FORMAT_ARRAY rts = {};
    rts.RTFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    rts.NumRenderTargets = 1;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC g = quad_pso(c, c.ps);
    Stream s;
    s.add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, static_cast<ID3D12RootSignature *>(c.rs_uav))
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, ps)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, cs)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND, g.BlendState)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER, g.RasterizerState)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, rts)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT, DXGI_FORMAT_D32_FLOAT);
    D3D12_PIPELINE_STATE_STREAM_DESC sd = s.desc();
    Com<ID3D12PipelineState> spso, cpso;
    CHECK_HR(c.dev2->CreatePipelineState(&sd, IID_PPV_ARGS(&spso)), S_OK);
    D3D12_COMPUTE_PIPELINE_STATE_DESC cd = {};
    cd.pRootSignature = c.rs_uav;
    cd.CS = cs;
    CHECK_HR(c.dev->CreateComputePipelineState(&cd, IID_PPV_ARGS(&cpso)), S_OK);
    CHECK_EQ(c.messages(), 0u);
    if (!spso || !cpso) return;
    // The same pipeline: equal cached blobs.
    Com<ID3DBlob> a, b;
    CHECK_HR(spso->GetCachedBlob(&a), S_OK);
    CHECK_HR(cpso->GetCachedBlob(&b), S_OK);
    CHECK(a && b && a->GetBufferSize() == b->GetBufferSize() &&
          memcmp(a->GetBufferPointer(), b->GetBufferPointer(), a->GetBufferSize()) == 0);

    // It dispatches: dst[i] = src[i] * 3 + i over 64 threads.
    std::vector<uint32_t> src(64);
    for (uint32_t i = 0; i < 64; i++) src[i] = 5 * i + 1;
    Com<ID3D12Resource> up, bsrc, bdst, rb;
    bsrc.p = c.buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON, true);
    bdst.p = c.buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
    up.p = c.buffer(D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ);
    rb.p = c.buffer(D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    void *p = nullptr;
    CHECK_HR(up->Map(0, nullptr, &p), S_OK);
    if (!p) return;
    memcpy(p, src.data(), 256);
    c.list->CopyBufferRegion(bsrc, 0, up, 0, 256);
    c.list->SetComputeRootSignature(c.rs_uav);
    c.list->SetPipelineState(spso);
    c.list->SetComputeRootUnorderedAccessView(0, bsrc->GetGPUVirtualAddress());
    c.list->SetComputeRootUnorderedAccessView(1, bdst->GetGPUVirtualAddress());
    c.list->Dispatch(1, 1, 1);
    c.list->CopyBufferRegion(rb, 0, bdst, 0, 256);
    c.run();
    void *mapped = nullptr;
    CHECK_HR(rb->Map(0, nullptr, &mapped), S_OK);
    const uint32_t *out = static_cast<const uint32_t *>(mapped);
    unsigned bad = 0;
    for (uint32_t i = 0; out && i < 64; i++) bad += out[i] != src[i] * 3 + i;
    CHECK(out != nullptr);
    CHECK_EQ(bad, 0u);

    // A VS and a CS are two pipeline types: refused.
    Stream two;
    two.add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, static_cast<ID3D12RootSignature *>(c.rs_uav))
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, vs)
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, cs);
    sd = two.desc();
    ID3D12PipelineState *bad_pso = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
    CHECK_HR(c.dev2->CreatePipelineState(&sd, IID_PPV_ARGS(&bad_pso)), E_INVALIDARG);
    CHECK_PTR(bad_pso, NULL);
    CHECK(c.last_message_is(D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM));
}

// 3. Dual-source blending with a second, format-less target; refused with blending on RT 1.
static void dual_source_blending(Ctx &c)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = quad_pso(c, c.dual);
    D3D12_RENDER_TARGET_BLEND_DESC &t = d.BlendState.RenderTarget[0];
    t.BlendEnable = TRUE;
    t.SrcBlend = D3D12_BLEND_ONE;
    t.DestBlend = D3D12_BLEND_SRC1_COLOR;
    t.BlendOp = D3D12_BLEND_OP_ADD;
    t.SrcBlendAlpha = D3D12_BLEND_ONE;
    t.DestBlendAlpha = D3D12_BLEND_ZERO;
    t.BlendOpAlpha = D3D12_BLEND_OP_ADD;
    d.NumRenderTargets = 2;
    d.RTVFormats[1] = DXGI_FORMAT_UNKNOWN;
    Com<ID3D12PipelineState> pso;
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&pso)), S_OK);
    CHECK_EQ(c.messages(), 0u);
    if (pso) {
        // o0 = kColor, o1 = (0.5, 0.25, 1.0, 0.75): rgb = color + clear * o1, alpha = color.a.
        const float src1[3] = {0.5f, 0.25f, 1.0f};
        unsigned char want[4];
        for (int i = 0; i < 3; i++) want[i] = unorm8(kColor[i] + kClear[i] / 255.0f * src1[i]);
        want[3] = unorm8(kColor[3]);
        // By hand: r = 0.2 + 0.392 * 0.5 = 0.396 -> 101; g = 0.4 + 0.784 * 0.25 = 0.596 -> 152;
        // b = 0.6 + 0.196 = 0.796 -> 203; a = 255.
        CHECK_EQ(want[0], 101u);
        CHECK_EQ(want[1], 152u);
        CHECK_EQ(want[2], 203u);
        check_all(draw(c, pso), want, "dual-source blending, NumRenderTargets 2, RTVFormats[1] UNKNOWN");
        CHECK_EQ(c.messages(), 0u);
    }

    d.BlendState.IndependentBlendEnable = TRUE;
    d.BlendState.RenderTarget[1] = t;
    d.BlendState.RenderTarget[1].DestBlend = D3D12_BLEND_ZERO;
    ID3D12PipelineState *bad = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&bad)), E_INVALIDARG);
    CHECK_PTR(bad, NULL);
    CHECK(c.last_message_is(
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_OM_DUAL_SOURCE_BLENDING_CAN_ONLY_HAVE_RENDER_TARGET_0));
    // IndependentBlendEnable with RenderTarget[1] not blending is fine.
    d.BlendState.RenderTarget[1].BlendEnable = FALSE;
    Com<ID3D12PipelineState> ok;
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&ok)), S_OK);
    CHECK_EQ(c.messages(), 0u);
}

// Loads `name` twice through `load` and checks the two results are one object whose
// references are the caller's.
template <class F> static void loads_share_one_object(Ctx &c, const char *what, F load, bool draws)
{
    set_ctx("%s", what);
    ID3D12PipelineState *a = nullptr, *b = nullptr;
    CHECK_HR(load(&a), S_OK);
    CHECK_HR(load(&b), S_OK);
    CHECK(a != nullptr);
    CHECK_PTR(b, a);
    if (a && b) {
        CHECK_EQ(refcount(a), 2u);
        CHECK_EQ(b->Release(), 1u);
        CHECK_EQ(a->Release(), 0u);
    }
    // After the last Release, a load makes a working object again.
    ID3D12PipelineState *again = nullptr;
    CHECK_HR(load(&again), S_OK);
    CHECK(again != nullptr);
    if (again) {
        CHECK_EQ(refcount(again), 1u);
        if (draws) {
            unsigned char color[4];
            for (int i = 0; i < 4; i++) color[i] = unorm8(kColor[i]);
            check_all(draw(c, again), color, what);
            set_ctx("%s", what);
        }
        CHECK_EQ(again->Release(), 0u);
    }
    g_ctx[0] = 0;
}

// 4. Pipeline libraries.
static void library_loads(Ctx &c)
{
    Com<ID3D12Device1> dev1;
    CHECK_HR(c.dev->QueryInterface(IID_PPV_ARGS(&dev1)), S_OK);
    if (!dev1) return;
    Com<ID3D12PipelineLibrary1> lib;
    CHECK_HR(dev1->CreatePipelineLibrary(nullptr, 0, IID_PPV_ARGS(&lib)), S_OK);
    if (!lib) return;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC g = quad_pso(c, c.ps);
    D3D12_COMPUTE_PIPELINE_STATE_DESC cd = {};
    cd.pRootSignature = c.rs_uav;
    cd.CS = {c.cs.data(), c.cs.size()};
    {
        Com<ID3D12PipelineState> gp, cp;
        CHECK_HR(c.dev->CreateGraphicsPipelineState(&g, IID_PPV_ARGS(&gp)), S_OK);
        CHECK_HR(c.dev->CreateComputePipelineState(&cd, IID_PPV_ARGS(&cp)), S_OK);
        CHECK_HR(lib->StorePipeline(L"graphics", gp), S_OK);
        CHECK_HR(lib->StorePipeline(L"compute", cp), S_OK);
    }
    Stream s;
    s.add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, static_cast<ID3D12RootSignature *>(c.rs_uav))
        .add(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS, cd.CS);
    D3D12_PIPELINE_STATE_STREAM_DESC sd = s.desc();

    for (int pass = 0; pass < 2; pass++) {
        ID3D12PipelineLibrary1 *l = lib;
        Com<ID3D12PipelineLibrary1> reloaded;
        std::vector<unsigned char> blob;
        if (pass == 1) {
            // A library created from the first one's serialized blob.
            blob.resize(lib->GetSerializedSize());
            CHECK_HR(lib->Serialize(blob.data(), blob.size()), S_OK);
            CHECK_HR(dev1->CreatePipelineLibrary(blob.data(), blob.size(), IID_PPV_ARGS(&reloaded)), S_OK);
            if (!reloaded) return;
            l = reloaded;
        }
        const char *tag = pass ? " (deserialized library)" : "";
        std::string what = std::string("LoadGraphicsPipeline") + tag;
        loads_share_one_object(
            c, what.c_str(), [&](ID3D12PipelineState **o) { return l->LoadGraphicsPipeline(L"graphics", &g, IID_PPV_ARGS(o)); },
            true);
        what = std::string("LoadComputePipeline") + tag;
        loads_share_one_object(
            c, what.c_str(), [&](ID3D12PipelineState **o) { return l->LoadComputePipeline(L"compute", &cd, IID_PPV_ARGS(o)); },
            false);
        what = std::string("LoadPipeline") + tag;
        loads_share_one_object(
            c, what.c_str(), [&](ID3D12PipelineState **o) { return l->LoadPipeline(L"compute", &sd, IID_PPV_ARGS(o)); },
            false);
        // LoadComputePipeline and LoadPipeline of one name and pipeline: one object too.
        ID3D12PipelineState *x = nullptr, *y = nullptr;
        CHECK_HR(l->LoadComputePipeline(L"compute", &cd, IID_PPV_ARGS(&x)), S_OK);
        CHECK_HR(l->LoadPipeline(L"compute", &sd, IID_PPV_ARGS(&y)), S_OK);
        CHECK_PTR(y, x);
        if (y) CHECK_EQ(y->Release(), 1u);
        if (x) CHECK_EQ(x->Release(), 0u);
    }
    // A description that is not the stored one still fails, even while the name's object lives.
    ID3D12PipelineState *held = nullptr, *other = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
    CHECK_HR(lib->LoadGraphicsPipeline(L"graphics", &g, IID_PPV_ARGS(&held)), S_OK);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC g2 = g;
    g2.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
    CHECK_HR(lib->LoadGraphicsPipeline(L"graphics", &g2, IID_PPV_ARGS(&other)), E_INVALIDARG);
    CHECK_PTR(other, NULL);
    CHECK(c.last_message_is(D3D12_MESSAGE_ID_LOADPIPELINE_INVALIDDESC));
    if (held) CHECK_EQ(held->Release(), 0u);
}

// vs_5_0 (in POSITION0, out SV_Position0, `ret`): a DXBC container with ISGN, OSGN and SHEX
// parts, its checksum valid, and no RTS0 part (the vertex shader of tests/abi/pipeline.c).
static const uint32_t kVsDxbc[] = {
    0x43425844, 0x52c973fd, 0x7986d001, 0x9b1a48d9, 0xda48f4dd, 0x00000001, 0x000000a8, 0x00000003, 0x0000002c,
    0x00000060, 0x00000094, 0x4e475349, 0x0000002c, 0x00000001, 0x00000008, 0x00000020, 0x00000000, 0x00000000,
    0x00000003, 0x00000000, 0x00000f0f, 0x49534f50, 0x4e4f4954, 0xababab00, 0x4e47534f, 0x0000002c, 0x00000001,
    0x00000008, 0x00000020, 0x00000000, 0x00000001, 0x00000003, 0x00000000, 0x00000f0f, 0x505f5653, 0x7469736f,
    0x006e6f69, 0x58454853, 0x0000000c, 0x00010050, 0x00000003, 0x0100003e,
};

// 5. A container without RTS0.
static void root_signature_without_rts0(Ctx &c)
{
    ID3D12RootSignature *rs = reinterpret_cast<ID3D12RootSignature *>(SENTINEL);
    CHECK_HR(c.dev->CreateRootSignature(0, kVsDxbc, sizeof kVsDxbc, IID_PPV_ARGS(&rs)), E_FAIL);
    CHECK_PTR(rs, NULL);
    CHECK(c.last_message_is(D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_BLOB_NOT_FOUND));
    // With a NULL ppv as well.
    CHECK_HR(c.dev->CreateRootSignature(0, kVsDxbc, sizeof kVsDxbc, __uuidof(ID3D12RootSignature), nullptr), E_FAIL);
    c.messages();
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
        {
            Ctx c;
            c.dev = dev;
            if (setup(c)) {
                colour_dsv_format(c);
                compute_stream_with_graphics_subobjects(c);
                dual_source_blending(c);
                library_loads(c);
                root_signature_without_rts0(c);
            }
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_pipeline_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
