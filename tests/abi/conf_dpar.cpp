// tests/abi/conf_dpar.cpp - one draw's fragment work split over screen tiles and worker
// threads (issue #20), through the C ABI from C++: the result must be that of the
// single-threaded order, pixel for pixel.
//
// One DrawInstanced of 48 overlapping, alpha-blended rectangles (two triangles each) with a
// depth test, over a 517x389 RGBA8_UNORM target (odd sizes: tiles and 2x2 quads cut by the
// edges) and a D32_FLOAT depth buffer cleared to 1.0. The shaders are DXC's
// passthrough_interp (tests/fixtures/dxil): SV_Position = (POSITION, 1) and SV_Target0 =
// (v, v, v, v) for the vertex attribute VALUE = v, the same at a rectangle's four corners.
// Rectangle k covers the pixels [x0, x1) x [y0, y1) (corners on pixel edges, so no pixel center
// lies on an edge, and the top-left rule gives the diagonal's pixels to exactly one of the two
// triangles), at depth z_k, with v_k; depth and color orders differ from the draw order.
// DepthFunc LESS with writes; blending SRC_ALPHA / INV_SRC_ALPHA for color, ONE /
// INV_SRC_ALPHA for alpha.
//
// Checked against a reference computed here in submission order from the blend equation,
// with the same float arithmetic (UNORM8 read as byte / 255, written as floor(c * 255 + 0.5)
// after clamping): every byte of the target; the depth buffer (each pixel's nearest z or 1.0,
// within 1e-6); an occlusion query (samples that passed the depth test) and pipeline
// statistics (PSInvocations: covered pixels summed over the rectangles; CInvocations: 96).
// Run it with RD3D12_THREADS=1, 2, 3...: every count must give the same bytes.
//
// Then pixel-shader UAV atomics from every tile: count.ps adds 1 per invocation to a root
// UAV over a full-viewport quad; the count must be exactly the 201113 pixels.
//
// Then quads of one wave: DXC's ps_derivatives (derivatives and quad reads) over the same
// viewport, every pixel of its two RGBA32F targets equal to the values its HLSL header gives.
//
// The last line is "conf_dpar_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

static const int kW = 517, kH = 389, kRects = 48;
static const UINT kColorPitch = (kW * 4 + 255) / 256 * 256, kDepthPitch = kColorPitch;
static const float kClear[4] = {0.1f, 0.2f, 0.3f, 0.4f};

struct Vertex {
    float pos[3];
    float value;
};

struct Rect {
    int x0, y0, x1, y1;
    float z, v;
};

static ID3D12Resource *committed(ID3D12Device *dev, D3D12_HEAP_TYPE t, const D3D12_RESOURCE_DESC &d,
                                 D3D12_RESOURCE_STATES st, const D3D12_CLEAR_VALUE *clear = nullptr)
{
    D3D12_HEAP_PROPERTIES h = {};
    h.Type = t;
    ID3D12Resource *r = nullptr;
    CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, st, clear, IID_PPV_ARGS(&r)), S_OK);
    return r;
}

static ID3D12Resource *buffer(ID3D12Device *dev, D3D12_HEAP_TYPE t, UINT64 size, D3D12_RESOURCE_STATES st)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = size;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return committed(dev, t, d, st);
}

static ID3D12Resource *texture(ID3D12Device *dev, DXGI_FORMAT f, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES st)
{
    D3D12_RESOURCE_DESC t = {};
    t.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    t.Width = kW;
    t.Height = kH;
    t.DepthOrArraySize = 1;
    t.MipLevels = 1;
    t.Format = f;
    t.SampleDesc.Count = 1;
    t.Flags = flags;
    return committed(dev, D3D12_HEAP_TYPE_DEFAULT, t, st);
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

static void copy_to(ID3D12GraphicsCommandList *l, ID3D12Resource *from, D3D12_RESOURCE_STATES was,
                    ID3D12Resource *to, DXGI_FORMAT f, UINT pitch)
{
    D3D12_RESOURCE_BARRIER b = transition(from, was, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = to;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {f, (UINT)kW, (UINT)kH, 1, pitch};
    src.pResource = from;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
}

// The rectangles: a fixed pseudo-random set, each at least partly on the target.
static std::vector<Rect> rects()
{
    std::vector<Rect> r;
    uint32_t seed = 12345;
    auto next = [&](int n) {
        seed = seed * 1103515245u + 12345u;
        return (int)((seed >> 8) % (uint32_t)n);
    };
    for (int k = 0; k < kRects; k++) {
        Rect q;
        q.x0 = next(kW + 60) - 40;
        q.y0 = next(kH + 60) - 40;
        q.x1 = std::min(q.x0 + 1 + next(320), kW + 40);
        q.y1 = std::min(q.y0 + 1 + next(240), kH + 40);
        q.x0 = std::min(q.x0, kW - 1);
        q.y0 = std::min(q.y0, kH - 1);
        q.x1 = std::max(q.x1, 1);
        q.y1 = std::max(q.y1, 1);
        // Depths in another order than the draw's, each apart from the others.
        q.z = (float)((k * 29) % kRects + 1) / (kRects + 2);
        q.v = (float)((k * 37) % kRects + 1) / (kRects + 1);
        r.push_back(q);
    }
    return r;
}

static uint8_t unorm8(float c)
{
    c = std::min(std::max(c, 0.0f), 1.0f);
    return (uint8_t)((double)c * 255.0 + 0.5);
}

static float from_unorm8(uint8_t b)
{
    return (float)(b / 255.0);
}

// 1. The blended, depth-tested rectangles (see the header).
static void blended_rectangles(ID3D12Device *dev)
{
    std::vector<char> vs = fixture("passthrough_interp.vs.dxil"), ps = fixture("passthrough_interp.ps.dxil");
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    D3D12_COMMAND_QUEUE_DESC qd = {};
    CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&queue)), S_OK);
    CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&alloc)), S_OK);
    CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, alloc, nullptr, IID_PPV_ARGS(&list)), S_OK);
    CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);

    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    Com<ID3DBlob> blob, err;
    Com<ID3D12RootSignature> rs;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (blob)
        CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                 S_OK);

    static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"VALUE", 0, DXGI_FORMAT_R32_FLOAT, 0, 12, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    D3D12_RENDER_TARGET_BLEND_DESC &bl = pd.BlendState.RenderTarget[0];
    bl.BlendEnable = TRUE;
    bl.SrcBlend = D3D12_BLEND_SRC_ALPHA;
    bl.DestBlend = D3D12_BLEND_INV_SRC_ALPHA;
    bl.BlendOp = D3D12_BLEND_OP_ADD;
    bl.SrcBlendAlpha = D3D12_BLEND_ONE;
    bl.DestBlendAlpha = D3D12_BLEND_INV_SRC_ALPHA;
    bl.BlendOpAlpha = D3D12_BLEND_OP_ADD;
    bl.LogicOp = D3D12_LOGIC_OP_NOOP;
    bl.RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    pd.SampleMask = UINT_MAX;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.DepthStencilState.DepthEnable = TRUE;
    pd.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
    pd.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
    pd.InputLayout = {layout, 2};
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    pd.NumRenderTargets = 2;
    pd.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    pd.RTVFormats[1] = DXGI_FORMAT_R8G8B8A8_UNORM;
    pd.DSVFormat = DXGI_FORMAT_D32_FLOAT;
    pd.SampleDesc.Count = 1;
    Com<ID3D12PipelineState> pso;
    if (rs) CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);

    Com<ID3D12Resource> rt, rt1, ds, color_rb, depth_rb, vb, query_rb;
    rt.p = texture(dev, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                   D3D12_RESOURCE_STATE_RENDER_TARGET);
    rt1.p = texture(dev, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                    D3D12_RESOURCE_STATE_RENDER_TARGET);
    ds.p = texture(dev, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL,
                   D3D12_RESOURCE_STATE_DEPTH_WRITE);
    color_rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, (UINT64)kColorPitch * kH, D3D12_RESOURCE_STATE_COPY_DEST);
    depth_rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, (UINT64)kDepthPitch * kH, D3D12_RESOURCE_STATE_COPY_DEST);
    query_rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    const std::vector<Rect> rr = rects();
    std::vector<Vertex> verts;
    for (const Rect &q : rr) {
        auto at = [&](int x, int y) {
            Vertex v = {{2.0f * x / kW - 1.0f, 1.0f - 2.0f * y / kH, q.z}, q.v};
            verts.push_back(v);
        };
        at(q.x0, q.y0), at(q.x1, q.y0), at(q.x0, q.y1);
        at(q.x1, q.y0), at(q.x1, q.y1), at(q.x0, q.y1);
    }
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, verts.size() * sizeof(Vertex), D3D12_RESOURCE_STATE_GENERIC_READ);
    Com<ID3D12DescriptorHeap> rtv_heap, dsv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    hd = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&dsv_heap)), S_OK);
    Com<ID3D12QueryHeap> occlusion, stats;
    D3D12_QUERY_HEAP_DESC qhd = {D3D12_QUERY_HEAP_TYPE_OCCLUSION, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qhd, IID_PPV_ARGS(&occlusion)), S_OK);
    qhd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qhd, IID_PPV_ARGS(&stats)), S_OK);

    if (queue && list && fence && pso && rt && rt1 && ds && color_rb && depth_rb && vb && rtv_heap && dsv_heap &&
        occlusion && stats && query_rb) {
        void *p = nullptr;
        CHECK_HR(vb->Map(0, nullptr, &p), S_OK);
        if (p) memcpy(p, verts.data(), verts.size() * sizeof(Vertex));
        vb->Unmap(0, nullptr);
        D3D12_CPU_DESCRIPTOR_HANDLE rtv[2] = {rtv_heap->GetCPUDescriptorHandleForHeapStart(),
                                              rtv_heap->GetCPUDescriptorHandleForHeapStart()};
        rtv[1].ptr += dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
        D3D12_CPU_DESCRIPTOR_HANDLE dsv = dsv_heap->GetCPUDescriptorHandleForHeapStart();
        dev->CreateRenderTargetView(rt, nullptr, rtv[0]);
        dev->CreateRenderTargetView(rt1, nullptr, rtv[1]);
        dev->CreateDepthStencilView(ds, nullptr, dsv);

        ID3D12GraphicsCommandList *l = list;
        l->ClearRenderTargetView(rtv[0], kClear, 0, nullptr);
        l->ClearRenderTargetView(rtv[1], kClear, 0, nullptr);
        l->ClearDepthStencilView(dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, nullptr);
        l->OMSetRenderTargets(2, rtv, FALSE, &dsv);
        l->SetGraphicsRootSignature(rs);
        l->SetPipelineState(pso);
        D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), (UINT)(verts.size() * sizeof(Vertex)),
                                        sizeof(Vertex)};
        l->IASetVertexBuffers(0, 1, &vbv);
        l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        D3D12_VIEWPORT vp = {0, 0, (float)kW, (float)kH, 0, 1};
        l->RSSetViewports(1, &vp);
        D3D12_RECT sc = {0, 0, kW, kH};
        l->RSSetScissorRects(1, &sc);
        l->BeginQuery(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
        l->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
        l->DrawInstanced((UINT)verts.size(), 1, 0, 0);
        l->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
        l->EndQuery(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0);
        l->ResolveQueryData(occlusion, D3D12_QUERY_TYPE_OCCLUSION, 0, 1, query_rb, 0);
        l->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, query_rb, 64);
        copy_to(l, rt, D3D12_RESOURCE_STATE_RENDER_TARGET, color_rb, DXGI_FORMAT_R8G8B8A8_UNORM, kColorPitch);
        copy_to(l, ds, D3D12_RESOURCE_STATE_DEPTH_WRITE, depth_rb, DXGI_FORMAT_D32_FLOAT, kDepthPitch);
        CHECK_HR(l->Close(), S_OK);
        ID3D12CommandList *cl = l;
        queue->ExecuteCommandLists(1, &cl);
        CHECK_HR(queue->Signal(fence, 1), S_OK);
        CHECK_HR(fence->SetEventOnCompletion(1, nullptr), S_OK);

        // The reference, in submission order.
        std::vector<float> color((size_t)kW * kH * 4), depth((size_t)kW * kH, 1.0f);
        uint8_t clear8[4];
        for (int c = 0; c < 4; c++) clear8[c] = unorm8(kClear[c]);
        std::vector<uint8_t> want((size_t)kW * kH * 4);
        for (size_t i = 0; i < want.size(); i++) want[i] = clear8[i % 4];
        uint64_t passed = 0, covered = 0;
        for (const Rect &q : rr)
            for (int y = std::max(q.y0, 0); y < std::min(q.y1, kH); y++)
                for (int x = std::max(q.x0, 0); x < std::min(q.x1, kW); x++) {
                    covered++;
                    size_t i = (size_t)y * kW + x;
                    if (!(q.z < depth[i])) continue;
                    passed++;
                    depth[i] = q.z;
                    const float a = q.v;
                    for (int c = 0; c < 4; c++) {
                        const float d = from_unorm8(want[i * 4 + c]);
                        const float out = c < 3 ? q.v * a + d * (1.0f - a) : q.v * 1.0f + d * (1.0f - a);
                        want[i * 4 + c] = unorm8(out);
                    }
                }

        const uint8_t *got = nullptr;
        CHECK_HR(color_rb->Map(0, nullptr, (void **)&got), S_OK);
        const uint8_t *gotz = nullptr;
        CHECK_HR(depth_rb->Map(0, nullptr, (void **)&gotz), S_OK);
        if (got && gotz) {
            unsigned bad = 0, bad_z = 0, changed = 0;
            for (int y = 0; y < kH; y++)
                for (int x = 0; x < kW; x++) {
                    const uint8_t *px = got + (size_t)y * kColorPitch + x * 4;
                    const uint8_t *w = &want[((size_t)y * kW + x) * 4];
                    changed += memcmp(w, clear8, 4) != 0;
                    if (memcmp(px, w, 4) != 0) {
                        if (bad < 4)
                            printf("pixel (%d,%d): got %u %u %u %u, expected %u %u %u %u\n", x, y, px[0], px[1],
                                   px[2], px[3], w[0], w[1], w[2], w[3]);
                        bad++;
                    }
                    float z;
                    memcpy(&z, gotz + (size_t)y * kDepthPitch + x * 4, 4);
                    if (std::fabs(z - depth[(size_t)y * kW + x]) > 1e-6f) {
                        if (bad_z < 4)
                            printf("depth (%d,%d): got %.9g, expected %.9g\n", x, y, z, depth[(size_t)y * kW + x]);
                        bad_z++;
                    }
                }
            set_ctx("%d rectangles over %dx%d", kRects, kW, kH);
            CHECK_EQ(bad, 0u);
            CHECK_EQ(bad_z, 0u);
            // The picture is not trivial: most pixels were drawn, many blended more than once.
            CHECK(changed > (unsigned)(kW * kH / 2));
            CHECK(passed > covered / 4 && passed < covered);
        }
        color_rb->Unmap(0, nullptr);
        depth_rb->Unmap(0, nullptr);
        const uint8_t *q = nullptr;
        CHECK_HR(query_rb->Map(0, nullptr, (void **)&q), S_OK);
        if (q) {
            uint64_t samples;
            memcpy(&samples, q, 8);
            D3D12_QUERY_DATA_PIPELINE_STATISTICS st;
            memcpy(&st, q + 64, sizeof st);
            CHECK_EQ(samples, passed);
            CHECK_EQ(st.PSInvocations, covered);
            CHECK_EQ(st.CInvocations, 2u * kRects);
            CHECK_EQ(st.VSInvocations, 6u * kRects);
        }
        query_rb->Unmap(0, nullptr);
    }
}

// 2. Pixel-shader UAV atomics from every tile: count.ps adds 1 to u1 (a root UAV) per
// invocation and writes red; a full-viewport quad over the 517x389 target must count every
// pixel once (201113), PSInvocations must say the same, and every pixel be red.
// quad.vs.dxil's pipeline (TEXCOORD0 float2 position, TEXCOORD1 float4 color) with pixel shader
// `ps` over `n` render targets of format `f`, every channel written, no depth.
static D3D12_GRAPHICS_PIPELINE_STATE_DESC quad_pso(ID3D12RootSignature *rs, const std::vector<char> &vs,
                                                   const std::vector<char> &ps, UINT n, DXGI_FORMAT f)
{
    static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
        {"TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 1, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 8, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = rs;
    pd.VS = {vs.data(), vs.size()};
    pd.PS = {ps.data(), ps.size()};
    pd.SampleMask = UINT_MAX;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.InputLayout = {layout, 2};
    pd.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    pd.NumRenderTargets = n;
    for (UINT i = 0; i < n; i++) {
        pd.RTVFormats[i] = f;
        pd.BlendState.RenderTarget[i].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    }
    pd.SampleDesc.Count = 1;
    return pd;
}

// A quad over the whole viewport for quad.vs: (x, y) then a color the shaders ignore.
static const float kQuad[6][6] = {{-1, 1, 0, 0, 0, 1}, {1, 1, 0, 0, 0, 1},  {-1, -1, 0, 0, 0, 1},
                                  {1, 1, 0, 0, 0, 1},  {1, -1, 0, 0, 0, 1}, {-1, -1, 0, 0, 0, 1}};

static void uav_counts(ID3D12Device *dev)
{
    std::vector<char> vs = fixture("quad.vs.dxil"), ps = fixture("count.ps.dxil");
    GpuBase g;
    g.init(dev);
    D3D12_ROOT_PARAMETER1 param = {};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    param.Descriptor.ShaderRegister = 1;
    param.ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&param, 1, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = quad_pso(rs, vs, ps, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    Com<ID3D12PipelineState> pso;
    if (rs) CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    Com<ID3D12Resource> rt, counter, color_rb, count_rb, vb, query_rb;
    rt.p = texture(dev, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
                   D3D12_RESOURCE_STATE_RENDER_TARGET);
    D3D12_RESOURCE_DESC bd = {};
    bd.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    bd.Width = 256;
    bd.Height = 1;
    bd.DepthOrArraySize = 1;
    bd.MipLevels = 1;
    bd.SampleDesc.Count = 1;
    bd.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    bd.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    counter.p = committed(dev, D3D12_HEAP_TYPE_DEFAULT, bd, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    color_rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, (UINT64)kColorPitch * kH, D3D12_RESOURCE_STATE_COPY_DEST);
    count_rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    query_rb.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST);
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof kQuad, D3D12_RESOURCE_STATE_GENERIC_READ);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    Com<ID3D12QueryHeap> stats;
    D3D12_QUERY_HEAP_DESC qhd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(dev->CreateQueryHeap(&qhd, IID_PPV_ARGS(&stats)), S_OK);
    if (!(g.queue && g.list && g.fence && pso && rt && counter && color_rb && count_rb && query_rb && vb &&
          rtv_heap && stats))
        return;
    void *p = nullptr;
    CHECK_HR(vb->Map(0, nullptr, &p), S_OK);
    if (p) memcpy(p, kQuad, sizeof kQuad);
    vb->Unmap(0, nullptr);
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = rtv_heap->GetCPUDescriptorHandleForHeapStart();
    dev->CreateRenderTargetView(rt, nullptr, rtv);
    ID3D12GraphicsCommandList *l = g.list;
    l->ClearRenderTargetView(rtv, kClear, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, nullptr);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    l->SetGraphicsRootUnorderedAccessView(0, counter->GetGPUVirtualAddress());
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof kQuad, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    D3D12_VIEWPORT vp = {0, 0, (float)kW, (float)kH, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, kW, kH};
    l->RSSetScissorRects(1, &sc);
    l->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->DrawInstanced(6, 1, 0, 0);
    l->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    l->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, query_rb, 0);
    D3D12_RESOURCE_BARRIER b =
        transition(counter, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    l->CopyBufferRegion(count_rb, 0, counter, 0, 4);
    copy_to(l, rt, D3D12_RESOURCE_STATE_RENDER_TARGET, color_rb, DXGI_FORMAT_R8G8B8A8_UNORM, kColorPitch);
    g.run();
    set_ctx("UAV atomics over %dx%d", kW, kH);
    const uint8_t *got = nullptr;
    CHECK_HR(count_rb->Map(0, nullptr, (void **)&got), S_OK);
    if (got) {
        uint32_t n;
        memcpy(&n, got, 4);
        CHECK_EQ(n, (uint32_t)(kW * kH));
    }
    count_rb->Unmap(0, nullptr);
    CHECK_HR(query_rb->Map(0, nullptr, (void **)&got), S_OK);
    if (got) {
        D3D12_QUERY_DATA_PIPELINE_STATISTICS st;
        memcpy(&st, got, sizeof st);
        CHECK_EQ(st.PSInvocations, (uint64_t)(kW * kH));
    }
    query_rb->Unmap(0, nullptr);
    CHECK_HR(color_rb->Map(0, nullptr, (void **)&got), S_OK);
    if (got) {
        unsigned red = 0;
        for (int y = 0; y < kH; y++)
            for (int x = 0; x < kW; x++) {
                const uint8_t *px = got + (size_t)y * kColorPitch + x * 4;
                red += px[0] == 255 && px[1] == 0 && px[2] == 0 && px[3] == 255;
            }
        CHECK_EQ(red, (unsigned)(kW * kH));
    }
    color_rb->Unmap(0, nullptr);
}

// Quads of one wave (issue #20: pixel shaders run as waves of eight 2x2 quads): DXC's
// ps_derivatives (fine and coarse derivatives, fwidth, QuadReadAcrossX/Y/Diagonal of
// f = px * px + 3 py and of the pixel coordinates) over the whole kW x kH viewport as a quad of
// two triangles into two R32G32B32A32_FLOAT targets. Its HLSL header gives every pixel's values:
// RT0 = (4 (px / 2) + 1, 3, 4 (px / 2) + 1, 3), RT1 = (4 (px / 2) + 4, px ^ 1, py ^ 1,
// (px ^ 1) + 8 (py ^ 1)); the quads the diagonal cuts have helper lanes in each triangle, and the
// last column's quads a helper past the target's edge: they feed derivatives and quad reads.
static void quad_ops(ID3D12Device *dev)
{
    std::vector<char> vs = fixture("quad.vs.dxil"), ps = fixture("ps_derivatives.ps.dxil");
    GpuBase g;
    g.init(dev);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(nullptr, 0, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
    const DXGI_FORMAT f = DXGI_FORMAT_R32G32B32A32_FLOAT;
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = quad_pso(rs, vs, ps, 2, f);
    Com<ID3D12PipelineState> pso;
    if (rs) CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    const UINT pitch = (kW * 16 + 255) / 256 * 256;
    Com<ID3D12Resource> rt[2], rb[2], vb;
    for (int i = 0; i < 2; i++) {
        rt[i].p = texture(dev, f, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
        rb[i].p = buffer(dev, D3D12_HEAP_TYPE_READBACK, (UINT64)pitch * kH, D3D12_RESOURCE_STATE_COPY_DEST);
    }
    vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, sizeof kQuad, D3D12_RESOURCE_STATE_GENERIC_READ);
    Com<ID3D12DescriptorHeap> rtv_heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&rtv_heap)), S_OK);
    if (!(g.queue && g.list && g.fence && pso && rt[0] && rt[1] && rb[0] && rb[1] && vb && rtv_heap))
        return;
    void *p = nullptr;
    CHECK_HR(vb->Map(0, nullptr, &p), S_OK);
    if (p) memcpy(p, kQuad, sizeof kQuad);
    vb->Unmap(0, nullptr);
    D3D12_CPU_DESCRIPTOR_HANDLE rtv[2] = {rtv_heap->GetCPUDescriptorHandleForHeapStart(), {}};
    rtv[1].ptr = rtv[0].ptr + dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_RTV);
    ID3D12GraphicsCommandList *l = g.list;
    const float nan[4] = {NAN, NAN, NAN, NAN};
    for (int i = 0; i < 2; i++) {
        dev->CreateRenderTargetView(rt[i], nullptr, rtv[i]);
        l->ClearRenderTargetView(rtv[i], nan, 0, nullptr);
    }
    l->OMSetRenderTargets(2, rtv, FALSE, nullptr);
    l->SetGraphicsRootSignature(rs);
    l->SetPipelineState(pso);
    D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof kQuad, 24};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
    D3D12_VIEWPORT vp = {0, 0, (float)kW, (float)kH, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, kW, kH};
    l->RSSetScissorRects(1, &sc);
    l->DrawInstanced(6, 1, 0, 0);
    for (int i = 0; i < 2; i++)
        copy_to(l, rt[i], D3D12_RESOURCE_STATE_RENDER_TARGET, rb[i], f, pitch);
    g.run();
    set_ctx("quad operations over %dx%d", kW, kH);
    const uint8_t *got[2] = {nullptr, nullptr};
    for (int i = 0; i < 2; i++)
        CHECK_HR(rb[i]->Map(0, nullptr, (void **)&got[i]), S_OK);
    if (got[0] && got[1]) {
        unsigned wrong = 0;
        for (int y = 0; y < kH; y++)
            for (int x = 0; x < kW; x++) {
                const float a = (float)(x / 2);
                const float want[2][4] = {{4 * a + 1, 3, 4 * a + 1, 3},
                                          {4 * a + 4, (float)(x ^ 1), (float)(y ^ 1), (float)((x ^ 1) + 8 * (y ^ 1))}};
                for (int i = 0; i < 2; i++) {
                    float px[4];
                    memcpy(px, got[i] + (size_t)y * pitch + x * 16, 16);
                    for (int c = 0; c < 4; c++)
                        if (px[c] != want[i][c] && wrong++ < 4)
                            printf("  pixel (%d, %d) RT%d.%d: %g, want %g\n", x, y, i, c, px[c], want[i][c]);
                }
            }
        CHECK_EQ(wrong, 0u);
    }
    for (int i = 0; i < 2; i++)
        rb[i]->Unmap(0, nullptr);
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (!dev) {
        printf("conf_dpar_cpp: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }
    blended_rectangles(dev);
    uav_counts(dev);
    quad_ops(dev);
    CHECK_EQ(dev->Release(), 0u);
    printf("conf_dpar_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
