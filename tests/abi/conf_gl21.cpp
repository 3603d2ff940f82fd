// tests/abi/conf_gl21.cpp - what Mesa's OpenGL driver needs of rd3d12 (issue #21), through the
// C ABI from C++: stages that write no SV_Position, and GetDimensions per view type.
//
// The shaders are real DXIL from tests/fixtures/dxil (glslang + Mesa's spirv2dxil,
// shader model 6.2, unsigned, so the device enables D3D12ExperimentalShaderModels first). The
// debug layer is on for the whole program. Checked:
//   1. nopos.vs (v = (2 pos, color.x + color.y, gl_VertexIndex), no gl_Position) with stream
//      output of TEXCOORD0 to one buffer (stride 16), RasterizedStream 0:
//      - DepthEnable TRUE and no pixel shader: E_INVALIDARG and message #682
//        CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT (the rasterizer is on, and has no
//        position); with a pixel shader (quad.ps) and depth off: the same;
//      - RasterizedStream D3D12_SO_NO_RASTERIZED_STREAM with DepthEnable TRUE: S_OK;
//      - no pixel shader, depth and stencil off (the rasterizer is disabled): S_OK, and a draw of
//        3 points streams out 3 vertices worked by hand below, BufferFilledSize 48; the
//        pipeline statistics count 3 VS invocations and 0 CInvocations / CPrimitives;
//   2. quad.vs then nopos.gs (two points per point, v = color + (10 k, gl_PrimitiveIDIn, 0, 0),
//      no gl_Position), the rasterizer disabled: 2 points stream out 4 vertices in emission
//      order, 2 GS invocations, 0 CInvocations;
//   3. dims.cs (GLSL textureSize / textureQueryLevels / imageSize, which Mesa
//      turns into DXIL getDimensions and reads the component DXIL puts each value in), one
//      thread, every view in one descriptor table (t0..t5, u6, u7):
//      - Texture1DArray SRV of slices 1..2 of an 8-wide, 3-slice, 2-mip texture, at mip 1:
//        (4, 2) (the slice count is DXIL's second component), 2 levels;
//      - Texture2DArray SRV of slices 1..4 of a 16x8, 5-slice, 3-mip texture, at mip 1:
//        (8, 4, 4), 3 levels;
//      - TextureCubeArray SRV of 2 cubes (12 faces) of 8x8: (8, 8, 2): cubes, not faces;
//      - Texture2DMS of 4x2, 4 samples: (4, 2);
//      - Texture2DMSArray of 4x4, 3 slices, 2 samples: (4, 4, 3) (the slice count third);
//      - typed Buffer SRV (R32_FLOAT, FirstElement 3, NumElements 37): 37;
//      - RWTexture1DArray UAV (R32_UINT, 4 wide, 3 slices): imageSize (4, 3); it loads slice 1
//        (7, 11, 13, 17) with coordinate (x, 1) and stores v + 100 to (x, 2): read back, slice 2
//        is (107, 111, 113, 117), slices 0 and 1 keep their values;
//   4. texture2dms_load.cs (DXC, copied from the shared DXIL corpus: Texture2DMS<float4>
//      GetDimensions(w, h, samples) and GetSamplePosition) on a 4x4 RGBA32F view of 4 samples,
//      16 threads: every thread's (w, h, samples) is (4, 4, 4), the sample count being DXIL's
//      fourth component; GetSamplePosition(k & 3) is D3D's standard 4x pattern in pixels:
//      (-2, -6), (6, -2), (-6, 2), (2, 6) sixteenths.
//
// The last line is "conf_gl21_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <fstream>
#include <iterator>
#include <string>
#include <vector>



struct Ctx {
    ID3D12Device *dev = nullptr;
    Com<ID3D12InfoQueue> iq;
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    UINT64 value = 0;

    bool init(ID3D12Device *d)
    {
        dev = d;
        dev->QueryInterface(IID_PPV_ARGS(&iq));
        CHECK(iq.p != nullptr);
        D3D12_COMMAND_QUEUE_DESC qd = {};
        qd.Type = D3D12_COMMAND_LIST_TYPE_DIRECT;
        CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue)), S_OK);
        CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&alloc)), S_OK);
        if (!queue || !alloc) return false;
        CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, nullptr, IID_PPV_ARGS(&list)), S_OK);
        CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);
        return list && fence;
    }

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

    ID3D12Resource *texture(D3D12_RESOURCE_DIMENSION dim, UINT64 w, UINT h, UINT16 slices, UINT16 mips,
                            DXGI_FORMAT format, UINT samples = 1,
                            D3D12_RESOURCE_FLAGS flags = D3D12_RESOURCE_FLAG_NONE)
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = dim;
        d.Width = w;
        d.Height = h;
        d.DepthOrArraySize = slices;
        d.MipLevels = mips;
        d.Format = format;
        d.SampleDesc.Count = samples;
        d.Flags = flags;
        D3D12_HEAP_PROPERTIES hp = {};
        hp.Type = D3D12_HEAP_TYPE_DEFAULT;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                              IID_PPV_ARGS(&r)),
                 S_OK);
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

    // Whether the last stored message has `id` and is an error; the queue is cleared.
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

static std::vector<uint32_t> words(ID3D12Resource *r, size_t n)
{
    void *p = nullptr;
    std::vector<uint32_t> out(n);
    CHECK_HR(r->Map(0, nullptr, &p), S_OK);
    if (p) memcpy(out.data(), p, n * 4);
    return out;
}

static float as_float(uint32_t w)
{
    float f;
    memcpy(&f, &w, 4);
    return f;
}

// Position float2 at TEXCOORD0, color float4 at TEXCOORD1: the fixtures' vertex input.
static const D3D12_INPUT_ELEMENT_DESC kQuadLayout[2] = {
    {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    {"TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
};
static const D3D12_SO_DECLARATION_ENTRY kDecl = {0, "TEXCOORD", 0, 0, 4, 0};
static const UINT kStride = 16;

// A point-list pipeline of `vs` (and `gs`) without render targets, streaming TEXCOORD0 out;
// depth, stencil and pixel shader off.
static D3D12_GRAPHICS_PIPELINE_STATE_DESC so_pso(ID3D12RootSignature *rs, const std::vector<char> &vs,
                                                 const std::vector<char> *gs)
{
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = {};
    d.pRootSignature = rs;
    d.VS = {vs.data(), vs.size()};
    if (gs) d.GS = {gs->data(), gs->size()};
    d.SampleMask = UINT_MAX;
    d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    d.RasterizerState.DepthClipEnable = TRUE;
    d.InputLayout = {kQuadLayout, 2};
    d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT;
    d.SampleDesc.Count = 1;
    d.StreamOutput = {&kDecl, 1, &kStride, 1, 0};
    return d;
}

// Draws `n` points of (k, -k) with color (k + 1, 10, 0, 1) through `pso` with one 64-byte
// stream-output buffer; returns its 16 words and the pipeline statistics.
static std::vector<uint32_t> so_draw(Ctx &c, ID3D12RootSignature *rs, ID3D12PipelineState *pso, UINT n,
                                     D3D12_QUERY_DATA_PIPELINE_STATISTICS &stats, uint32_t &filled)
{
    Com<ID3D12Resource> vb, so, readback, qrb;
    Com<ID3D12QueryHeap> qh;
    vb.p = c.buffer(D3D12_HEAP_TYPE_UPLOAD, 24 * 4, D3D12_RESOURCE_STATE_GENERIC_READ);
    so.p = c.buffer(D3D12_HEAP_TYPE_DEFAULT, 128, D3D12_RESOURCE_STATE_STREAM_OUT);
    readback.p = c.buffer(D3D12_HEAP_TYPE_READBACK, 128, D3D12_RESOURCE_STATE_COPY_DEST);
    qrb.p = c.buffer(D3D12_HEAP_TYPE_READBACK, sizeof stats, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(c.dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&qh)), S_OK);
    if (!vb || !so || !readback || !qrb || !qh) return {};
    float verts[4][6];
    for (int k = 0; k < 4; k++) {
        const float v[6] = {float(k), -float(k), k + 1.0f, 10.0f, 0.0f, 1.0f};
        memcpy(verts[k], v, sizeof v);
    }
    void *p = nullptr;
    CHECK_HR(vb->Map(0, nullptr, &p), S_OK);
    if (p) memcpy(p, verts, sizeof verts);
    ID3D12GraphicsCommandList *l = c.list;
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_POINTLIST);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), 24 * 4, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    D3D12_VIEWPORT vp = {0, 0, 8, 8, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, 8, 8};
    l->RSSetScissorRects(1, &sc);
    // 64 bytes of room; the filled size lives at byte 64 (zero: the buffer was created zeroed).
    const D3D12_GPU_VIRTUAL_ADDRESS va = so->GetGPUVirtualAddress();
    const D3D12_STREAM_OUTPUT_BUFFER_VIEW view = {va, 64, va + 64};
    l->SOSetTargets(0, 1, &view);
    l->BeginQuery(qh, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->DrawInstanced(n, 1, 0, 0);
    l->EndQuery(qh, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->ResolveQueryData(qh, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, qrb, 0);
    D3D12_RESOURCE_BARRIER b = transition(so, D3D12_RESOURCE_STATE_STREAM_OUT, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(readback, 0, so, 0, 128);
    c.run();
    CHECK_HR(qrb->Map(0, nullptr, &p), S_OK);
    if (p) memcpy(&stats, p, sizeof stats);
    std::vector<uint32_t> out = words(readback, 17);
    filled = out[16];
    out.resize(16);
    return out;
}

static void no_position_vertex_shader(Ctx &c, ID3D12RootSignature *rs)
{
    set_ctx("nopos.vs");
    std::vector<char> vs = fixture("nopos.vs.dxil"), ps = fixture("quad.ps.dxil");
    Com<ID3D12PipelineState> bad, bad_ps, unrasterized, pso;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = so_pso(rs, vs, nullptr);
    d.DepthStencilState.DepthEnable = TRUE;
    d.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    d.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    d.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&bad)), E_INVALIDARG);
    CHECK(bad.p == nullptr);
    CHECK(c.last_message_is(D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT));
    // Nothing is rasterized with RasterizedStream D3D12_SO_NO_RASTERIZED_STREAM.
    d.StreamOutput.RasterizedStream = D3D12_SO_NO_RASTERIZED_STREAM;
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&unrasterized)), S_OK);
    // A pixel shader turns the rasterizer on, even with depth off.
    D3D12_GRAPHICS_PIPELINE_STATE_DESC e = so_pso(rs, vs, nullptr);
    e.PS = {ps.data(), ps.size()};
    e.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    e.NumRenderTargets = 1;
    e.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&e, IID_PPV_ARGS(&bad_ps)), E_INVALIDARG);
    CHECK(c.last_message_is(D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT));
    // No pixel shader, no depth or stencil test: the rasterizer is disabled.
    D3D12_GRAPHICS_PIPELINE_STATE_DESC ok = so_pso(rs, vs, nullptr);
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&ok, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st = {};
    uint32_t filled = 0;
    std::vector<uint32_t> out = so_draw(c, rs, pso, 3, st, filled);
    if (out.size() != 16) return;
    unsigned bad_values = 0;
    for (int k = 0; k < 3; k++) {
        const float want[4] = {2.0f * k, -2.0f * k, k + 11.0f, float(k)};
        for (int i = 0; i < 4; i++)
            if (as_float(out[4 * k + i]) != want[i] && bad_values++ < 4)
                fprintf(stderr, "nopos.vs: vertex %d component %d is %g, expected %g\n", k, i, as_float(out[4 * k + i]),
                        want[i]);
    }
    CHECK_EQ(bad_values, 0u);
    CHECK_EQ(out[12], 0u); // past the three vertices
    CHECK_EQ(filled, 48u);
    CHECK_EQ(st.VSInvocations, 3u);
    CHECK_EQ(st.CInvocations, 0u);
    CHECK_EQ(st.CPrimitives, 0u);
    CHECK_EQ(st.PSInvocations, 0u);
}

static void no_position_geometry_shader(Ctx &c, ID3D12RootSignature *rs)
{
    set_ctx("nopos.gs");
    std::vector<char> vs = fixture("quad.vs.dxil"), gs = fixture("nopos.gs.dxil");
    Com<ID3D12PipelineState> pso;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = so_pso(rs, vs, &gs);
    CHECK_HR(c.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;
    D3D12_QUERY_DATA_PIPELINE_STATISTICS st = {};
    uint32_t filled = 0;
    std::vector<uint32_t> out = so_draw(c, rs, pso, 2, st, filled);
    if (out.size() != 16) return;
    // Point p (color (p + 1, 10, 0, 1)) emits v = color + (10 k, p, 0, 0) for k = 0, 1.
    unsigned bad_values = 0;
    for (int p = 0; p < 2; p++)
        for (int k = 0; k < 2; k++) {
            const float want[4] = {p + 1.0f + 10.0f * k, 10.0f + p, 0.0f, 1.0f};
            const uint32_t *v = &out[8 * p + 4 * k];
            for (int i = 0; i < 4; i++)
                if (as_float(v[i]) != want[i] && bad_values++ < 4)
                    fprintf(stderr, "nopos.gs: point %d vertex %d component %d is %g, expected %g\n", p, k, i,
                            as_float(v[i]), want[i]);
        }
    CHECK_EQ(bad_values, 0u);
    CHECK_EQ(filled, 64u);
    CHECK_EQ(st.GSInvocations, 2u);
    CHECK_EQ(st.CInvocations, 0u);
}

static void get_dimensions(Ctx &c)
{
    set_ctx("dims.cs");
    ID3D12Device *dev = c.dev;
    // One table: t0..t5 (descriptors 0..5), u6 and u7 (descriptors 6, 7).
    const D3D12_DESCRIPTOR_RANGE1 ranges[2] = {
        {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 6, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0},
        {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 6, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 6},
    };
    D3D12_ROOT_PARAMETER1 param = {};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    param.DescriptorTable = {2, ranges};
    Com<ID3D12RootSignature> rs;
    rs.p = c.root_signature(&param, 1, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    if (!rs) return;
    std::vector<char> cs = fixture("dims.cs.dxil");
    D3D12_COMPUTE_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.CS = {cs.data(), cs.size()};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateComputePipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    if (!pso) return;

    const DXGI_FORMAT rgba8 = DXGI_FORMAT_R8G8B8A8_UNORM;
    const D3D12_RESOURCE_DIMENSION t1 = D3D12_RESOURCE_DIMENSION_TEXTURE1D, t2 = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    Com<ID3D12Resource> a1, a2, cube, ms, msa, tb, img, out, up, rb;
    a1.p = c.texture(t1, 8, 1, 3, 2, rgba8);
    a2.p = c.texture(t2, 16, 8, 5, 3, rgba8);
    cube.p = c.texture(t2, 8, 8, 12, 1, rgba8);
    ms.p = c.texture(t2, 4, 2, 1, 1, rgba8, 4, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    msa.p = c.texture(t2, 4, 4, 3, 1, rgba8, 2, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    tb.p = c.buffer(D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON);
    img.p = c.texture(t1, 4, 1, 3, 1, DXGI_FORMAT_R32_UINT, 1, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS);
    out.p = c.buffer(D3D12_HEAP_TYPE_DEFAULT, 128, D3D12_RESOURCE_STATE_COMMON, true);
    up.p = c.buffer(D3D12_HEAP_TYPE_UPLOAD, 1536, D3D12_RESOURCE_STATE_GENERIC_READ);
    rb.p = c.buffer(D3D12_HEAP_TYPE_READBACK, 1536 + 128, D3D12_RESOURCE_STATE_COPY_DEST);
    if (!a1 || !a2 || !cube || !ms || !msa || !tb || !img || !out || !up || !rb) return;

    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    Com<ID3D12DescriptorHeap> heap;
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!heap) return;
    const UINT inc = dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE h0 = heap->GetCPUDescriptorHandleForHeapStart();
    auto at = [&](UINT i) { return D3D12_CPU_DESCRIPTOR_HANDLE{h0.ptr + i * inc}; };
    auto srv = [&](DXGI_FORMAT f, D3D12_SRV_DIMENSION dim) {
        D3D12_SHADER_RESOURCE_VIEW_DESC s = {};
        s.Format = f;
        s.ViewDimension = dim;
        s.Shader4ComponentMapping = D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING;
        return s;
    };
    D3D12_SHADER_RESOURCE_VIEW_DESC s = srv(rgba8, D3D12_SRV_DIMENSION_TEXTURE1DARRAY);
    s.Texture1DArray = {0, UINT(-1), 1, 2, 0.0f};
    dev->CreateShaderResourceView(a1, &s, at(0));
    s = srv(rgba8, D3D12_SRV_DIMENSION_TEXTURE2DARRAY);
    s.Texture2DArray = {0, UINT(-1), 1, 4, 0, 0.0f};
    dev->CreateShaderResourceView(a2, &s, at(1));
    s = srv(rgba8, D3D12_SRV_DIMENSION_TEXTURECUBEARRAY);
    s.TextureCubeArray = {0, 1, 0, 2, 0.0f};
    dev->CreateShaderResourceView(cube, &s, at(2));
    s = srv(rgba8, D3D12_SRV_DIMENSION_TEXTURE2DMS);
    dev->CreateShaderResourceView(ms, &s, at(3));
    s = srv(rgba8, D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY);
    s.Texture2DMSArray = {0, 3};
    dev->CreateShaderResourceView(msa, &s, at(4));
    s = srv(DXGI_FORMAT_R32_FLOAT, D3D12_SRV_DIMENSION_BUFFER);
    s.Buffer = {3, 37, 0, D3D12_BUFFER_SRV_FLAG_NONE};
    dev->CreateShaderResourceView(tb, &s, at(5));
    D3D12_UNORDERED_ACCESS_VIEW_DESC u = {};
    u.Format = DXGI_FORMAT_R32_UINT;
    u.ViewDimension = D3D12_UAV_DIMENSION_TEXTURE1DARRAY;
    u.Texture1DArray = {0, 0, 3};
    dev->CreateUnorderedAccessView(img, nullptr, &u, at(6));
    u = {};
    u.Format = DXGI_FORMAT_R32_TYPELESS;
    u.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    u.Buffer.NumElements = 32;
    u.Buffer.Flags = D3D12_BUFFER_UAV_FLAG_RAW;
    dev->CreateUnorderedAccessView(out, nullptr, &u, at(7));

    // The image's slices, 512 bytes apart in the upload buffer: slice 0 (1, 2, 3, 4), slice 1
    // (7, 11, 13, 17), slice 2 0xEE.
    const uint32_t slices[3][4] = {{1, 2, 3, 4}, {7, 11, 13, 17}, {0xEE, 0xEE, 0xEE, 0xEE}};
    void *p = nullptr;
    CHECK_HR(up->Map(0, nullptr, &p), S_OK);
    if (!p) return;
    for (int k = 0; k < 3; k++) memcpy(static_cast<char *>(p) + 512 * k, slices[k], 16);
    ID3D12GraphicsCommandList *l = c.list;
    for (UINT k = 0; k < 3; k++) {
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        dst.pResource = img;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        dst.SubresourceIndex = k;
        src.pResource = up;
        src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        src.PlacedFootprint = {512ull * k, {DXGI_FORMAT_R32_UINT, 4, 1, 1, 256}};
        l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    }
    D3D12_RESOURCE_BARRIER b = transition(img, D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    l->ResourceBarrier(1, &b);
    ID3D12DescriptorHeap *heaps[] = {heap};
    l->SetDescriptorHeaps(1, heaps);
    l->SetComputeRootSignature(rs);
    l->SetPipelineState(pso);
    l->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    l->Dispatch(1, 1, 1);
    b = transition(img, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    for (UINT k = 0; k < 3; k++) {
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        src.pResource = img;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        src.SubresourceIndex = k;
        dst.pResource = rb;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint = {512ull * k, {DXGI_FORMAT_R32_UINT, 4, 1, 1, 256}};
        l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    }
    l->CopyBufferRegion(rb, 1536, out, 0, 128);
    c.run();
    std::vector<uint32_t> got = words(rb, (1536 + 128) / 4);
    const uint32_t *o = &got[1536 / 4];
    struct Want {
        const char *what;
        unsigned at, n;
        uint32_t v[4];
    };
    const Want want[] = {
        {"Texture1DArray size at mip 1 (width, slices)", 0, 2, {4, 2}},
        {"Texture2DArray size at mip 1 (width, height, slices)", 2, 3, {8, 4, 4}},
        {"TextureCubeArray size (width, height, cubes)", 5, 3, {8, 8, 2}},
        {"Texture2DMS size", 8, 2, {4, 2}},
        {"Texture2DMSArray size (width, height, slices)", 10, 3, {4, 4, 3}},
        {"typed Buffer element count", 13, 1, {37}},
        {"RWTexture1DArray size (width, slices)", 14, 2, {4, 3}},
        {"Texture2DArray / Texture1DArray mip levels", 16, 2, {3, 2}},
        {"RWTexture1DArray loads of slice 1", 18, 4, {7, 11, 13, 17}},
    };
    for (const Want &w : want) {
        set_ctx("dims.cs: %s", w.what);
        for (unsigned i = 0; i < w.n; i++) CHECK_EQ(o[w.at + i], w.v[i]);
    }
    set_ctx("dims.cs: RWTexture1DArray slices after the stores");
    for (int k = 0; k < 3; k++)
        for (int x = 0; x < 4; x++) {
            const uint32_t expected = k == 2 ? slices[1][x] + 100 : slices[k][x];
            CHECK_EQ(got[128 * k + x], expected);
        }
}

static void multisample_dimensions(Ctx &c)
{
    set_ctx("texture2dms_load.cs");
    ID3D12Device *dev = c.dev;
    const D3D12_DESCRIPTOR_RANGE1 range = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 params[2] = {};
    params[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
    params[0].DescriptorTable = {1, &range};
    params[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    params[1].Descriptor.ShaderRegister = 0;
    Com<ID3D12RootSignature> rs;
    rs.p = c.root_signature(params, 2, D3D12_ROOT_SIGNATURE_FLAG_NONE);
    if (!rs) return;
    std::vector<char> cs = fixture("texture2dms_load.cs.dxil");
    D3D12_COMPUTE_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.CS = {cs.data(), cs.size()};
    Com<ID3D12PipelineState> pso;
    CHECK_HR(dev->CreateComputePipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    Com<ID3D12Resource> ms, out, rb;
    ms.p = c.texture(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 4, 4, 1, 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 4,
                     D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET);
    out.p = c.buffer(D3D12_HEAP_TYPE_DEFAULT, 96 * 16, D3D12_RESOURCE_STATE_COMMON, true);
    rb.p = c.buffer(D3D12_HEAP_TYPE_READBACK, 96 * 16, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    Com<ID3D12DescriptorHeap> heap;
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!pso || !ms || !out || !rb || !heap) return;
    dev->CreateShaderResourceView(ms, nullptr, heap->GetCPUDescriptorHandleForHeapStart());
    ID3D12GraphicsCommandList *l = c.list;
    ID3D12DescriptorHeap *heaps[] = {heap};
    l->SetDescriptorHeaps(1, heaps);
    l->SetComputeRootSignature(rs);
    l->SetPipelineState(pso);
    l->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    l->SetComputeRootUnorderedAccessView(1, out->GetGPUVirtualAddress());
    l->Dispatch(1, 1, 1);
    l->CopyBufferRegion(rb, 0, out, 0, 96 * 16);
    c.run();
    std::vector<uint32_t> got = words(rb, 96 * 4);
    const float pos[4][2] = {{-2 / 16.0f, -6 / 16.0f}, {6 / 16.0f, -2 / 16.0f}, {-6 / 16.0f, 2 / 16.0f}, {2 / 16.0f, 6 / 16.0f}};
    unsigned bad = 0;
    for (int k = 0; k < 16; k++) {
        const float dims[4] = {4, 4, 4, 0};
        const float where[4] = {pos[k & 3][0], pos[k & 3][1], 0, 0};
        for (int i = 0; i < 4; i++) {
            const float d = as_float(got[4 * (6 * k + 4) + i]), p = as_float(got[4 * (6 * k + 5) + i]);
            if (d != dims[i] && bad++ < 4) fprintf(stderr, "thread %d: dimension %d is %g, expected %g\n", k, i, d, dims[i]);
            if (p != where[i] && bad++ < 4) fprintf(stderr, "thread %d: position %d is %g, expected %g\n", k, i, p, where[i]);
        }
    }
    CHECK_EQ(bad, 0u);
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
            if (c.init(dev)) {
                Com<ID3D12RootSignature> rs;
                rs.p = c.root_signature(nullptr, 0,
                                        D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT |
                                            D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT);
                if (rs) {
                    no_position_vertex_shader(c, rs);
                    no_position_geometry_shader(c, rs);
                }
                get_dimensions(c);
                multisample_dimensions(c);
            }
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_gl21_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
