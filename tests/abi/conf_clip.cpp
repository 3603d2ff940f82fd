// tests/abi/conf_clip.cpp - clipping and interpolation through the C ABI from C++ (issue #21 group 6).
//
// D3D12 interpolates `noperspective` (linear noperspective) pixel-shader inputs linearly in
// screen space over the whole primitive, whether or not the clipper cut it: the vertices the
// clipper makes carry the attribute value the screen-linear interpolation of the original
// primitive has there (D3D11.3 functional spec, "Attribute Interpolation" and "Clipping":
// clipping must not change what the rasterizer interpolates).
//
// The shaders are Mesa's (tests/fixtures/dxil/noperspective.{vs,ps}.dxil, see its
// README): the vertex shader passes uv through as a noperspective output and writes
// SV_Position = (x, y * s, (z + w) / 2, w) with s in cbuffer b1 (root constants here, 1); the
// pixel shader returns (uv, 0, 1). Each vertex's uv is its own position on the 16x16 target
// divided by 16, so screen-linear interpolation gives every covered pixel exactly its center
// / 16, whatever the vertices' w; perspective-correct interpolation, or a clipped vertex with
// the clip-space (perspective) value, would not.
//
// Checked on an R32G32B32A32_FLOAT target, pixel by pixel after a copy to a readback buffer:
//   1. a triangle with top-left (0,0) and bottom-left (0,16) at w = 1, z = 0, and top-right
//      (16,0) at w = 4 behind the near plane (GL z = -8: D3D z = -2). Along both edges to the
//      far vertex the depth reaches 0 a fifth of the way in clip space, which is half way on
//      the screen (0.2 * 4 / (0.8 * 1 + 0.2 * 4)): the visible part is (0,0), (8,0), (8,8),
//      (0,16). Pixels x < 8 with x + y < 15 are drawn with ((x + 0.5) / 16, (y + 0.5) / 16, 0, 1);
//      the others (x >= 8, or centers on or past the edge x + y = 16) keep the clear;
//   2. a line along row 0 from x = 0 (w = 1) to x = 16 (w = 4, behind the near plane), cut
//      half way on the screen: pixels 0..7 of row 0 are drawn with u = (x + 0.5) / 16, the
//      rest of the target keeps the clear;
//   3. a 7-vertex TRIANGLESTRIP_ADJ draw without a geometry shader: one triangle (0-2-4), the
//      upper-left half (120 pixels); the seventh vertex completes no triangle;
//   4. depth bias (SlopeScaledDepthBias 2) of a triangle with a vertex behind the eye, into a
//      D32_FLOAT buffer: the slope of what the clipper leaves, 1/64 per pixel, biases every
//      drawn pixel by 2/64.
//
// The last line is "conf_clip_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
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



static ID3D12Resource *committed(ID3D12Device *dev, D3D12_HEAP_TYPE t, const D3D12_RESOURCE_DESC &d,
                                 D3D12_RESOURCE_STATES st)
{
    D3D12_HEAP_PROPERTIES h = {};
    h.Type = t;
    ID3D12Resource *r = nullptr;
    CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
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

static const int kSize = 16;
static const float kClear[4] = {0.25f, 0.5f, 0.75f, 0.125f};
// Each vertex: position (x, y, z, w) as the GL vertex shader reads it, then uv.
struct Vertex {
    float pos[4];
    float uv[2];
};

struct Setup {
    ID3D12Device *dev = nullptr;
    Com<ID3D12CommandQueue> queue;
    Com<ID3D12CommandAllocator> alloc;
    Com<ID3D12GraphicsCommandList> list;
    Com<ID3D12Fence> fence;
    UINT64 fence_value = 0;
    Com<ID3D12RootSignature> rs;
    Com<ID3D12Resource> rt, readback, vb;
    Com<ID3D12DescriptorHeap> rtv_heap;
    std::vector<char> vs = fixture("noperspective.vs.dxil"), ps = fixture("noperspective.ps.dxil");

    void run()
    {
        CHECK_HR(list->Close(), S_OK);
        ID3D12CommandList *l = list;
        queue->ExecuteCommandLists(1, &l);
        CHECK_HR(queue->Signal(fence, ++fence_value), S_OK);
        CHECK_HR(fence->SetEventOnCompletion(fence_value, nullptr), S_OK);
        CHECK_HR(alloc->Reset(), S_OK);
        CHECK_HR(list->Reset(alloc, nullptr), S_OK);
    }
};

static bool build(Setup &s)
{
    ID3D12Device *dev = s.dev;
    D3D12_COMMAND_QUEUE_DESC qd = {};
    CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&s.queue)), S_OK);
    CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_DIRECT, IID_PPV_ARGS(&s.alloc)), S_OK);
    CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_DIRECT, s.alloc, nullptr, IID_PPV_ARGS(&s.list)), S_OK);
    CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&s.fence)), S_OK);
    if (!s.queue || !s.list || !s.fence) return false;
    CHECK(s.vs.size() > 100 && s.ps.size() > 100);

    // Mesa's state variables at VS b1: four root constants.
    D3D12_ROOT_PARAMETER1 p = {};
    p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p.Constants.ShaderRegister = 1;
    p.Constants.Num32BitValues = 4;
    p.ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 1;
    rd.Desc_1_1.pParameters = &p;
    rd.Desc_1_1.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (!blob) return false;
    CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&s.rs)), S_OK);

    D3D12_RESOURCE_DESC t = {};
    t.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    t.Width = kSize;
    t.Height = kSize;
    t.DepthOrArraySize = 1;
    t.MipLevels = 1;
    t.Format = DXGI_FORMAT_R32G32B32A32_FLOAT;
    t.SampleDesc.Count = 1;
    t.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    s.rt.p = committed(dev, D3D12_HEAP_TYPE_DEFAULT, t, D3D12_RESOURCE_STATE_RENDER_TARGET);
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&s.rtv_heap)), S_OK);
    if (!s.rt || !s.rtv_heap) return false;
    dev->CreateRenderTargetView(s.rt, nullptr, s.rtv_heap->GetCPUDescriptorHandleForHeapStart());
    // 16 rows of 16 RGBA32F texels: 256 bytes each, already the placement alignment.
    s.readback.p = buffer(dev, D3D12_HEAP_TYPE_READBACK, kSize * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    s.vb.p = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 4096, D3D12_RESOURCE_STATE_GENERIC_READ);
    return s.readback && s.vb;
}

static ID3D12PipelineState *pipeline(Setup &s, D3D12_PRIMITIVE_TOPOLOGY_TYPE type, float slope_bias = 0)
{
    static const D3D12_INPUT_ELEMENT_DESC layout[2] = {
        {"TEXCOORD", 0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"TEXCOORD", 1, DXGI_FORMAT_R32G32_FLOAT, 0, 16, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = {};
    pd.pRootSignature = s.rs;
    pd.VS = {s.vs.data(), s.vs.size()};
    pd.PS = {s.ps.data(), s.ps.size()};
    pd.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    pd.SampleMask = UINT_MAX;
    pd.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    pd.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    pd.RasterizerState.DepthClipEnable = TRUE;
    pd.InputLayout = {layout, 2};
    pd.PrimitiveTopologyType = type;
    pd.NumRenderTargets = 1;
    pd.RTVFormats[0] = DXGI_FORMAT_R32G32B32A32_FLOAT;
    pd.SampleDesc.Count = 1;
    if (slope_bias != 0) {
        // Depth ALWAYS passes and is written: the target holds each pixel's biased depth.
        pd.DepthStencilState.DepthEnable = TRUE;
        pd.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
        pd.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_ALWAYS;
        pd.DSVFormat = DXGI_FORMAT_D32_FLOAT;
        pd.RasterizerState.SlopeScaledDepthBias = slope_bias;
    }
    ID3D12PipelineState *pso = nullptr;
    CHECK_HR(s.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&pso)), S_OK);
    return pso;
}

// Clears the target, draws `verts` as `topology` and returns the target's texels (row y at
// y * 16 texels of 4 floats), or nullptr.
static const float *draw(Setup &s, ID3D12PipelineState *pso, D3D_PRIMITIVE_TOPOLOGY topology, const Vertex *verts,
                         UINT n, ID3D12Resource *depth = nullptr, D3D12_CPU_DESCRIPTOR_HANDLE dsv = {})
{
    void *p = nullptr;
    CHECK_HR(s.vb->Map(0, nullptr, &p), S_OK);
    if (!p) return nullptr;
    memcpy(p, verts, n * sizeof(Vertex));
    s.vb->Unmap(0, nullptr);
    ID3D12GraphicsCommandList *l = s.list;
    D3D12_CPU_DESCRIPTOR_HANDLE rtv = s.rtv_heap->GetCPUDescriptorHandleForHeapStart();
    l->ClearRenderTargetView(rtv, kClear, 0, nullptr);
    if (depth) l->ClearDepthStencilView(dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0f, 0, 0, nullptr);
    l->OMSetRenderTargets(1, &rtv, FALSE, depth ? &dsv : nullptr);
    l->SetGraphicsRootSignature(s.rs);
    l->SetPipelineState(pso);
    const float state_vars[4] = {1, 0, 0, 0};
    l->SetGraphicsRoot32BitConstants(0, 4, state_vars, 0);
    D3D12_VERTEX_BUFFER_VIEW vbv = {s.vb->GetGPUVirtualAddress(), n * (UINT)sizeof(Vertex), sizeof(Vertex)};
    l->IASetVertexBuffers(0, 1, &vbv);
    l->IASetPrimitiveTopology(topology);
    D3D12_VIEWPORT vp = {0, 0, kSize, kSize, 0, 1};
    l->RSSetViewports(1, &vp);
    D3D12_RECT sc = {0, 0, kSize, kSize};
    l->RSSetScissorRects(1, &sc);
    l->DrawInstanced(n, 1, 0, 0);
    // The color target, or with a depth buffer its D32 plane (rows of 256 bytes either way).
    ID3D12Resource *from = depth ? depth : s.rt.p;
    D3D12_RESOURCE_STATES was = depth ? D3D12_RESOURCE_STATE_DEPTH_WRITE : D3D12_RESOURCE_STATE_RENDER_TARGET;
    D3D12_RESOURCE_BARRIER b = transition(from, was, D3D12_RESOURCE_STATE_COPY_SOURCE);
    l->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = s.readback;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {depth ? DXGI_FORMAT_D32_FLOAT : DXGI_FORMAT_R32G32B32A32_FLOAT, kSize, kSize, 1,
                                     256};
    src.pResource = from;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    l->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    b = transition(from, D3D12_RESOURCE_STATE_COPY_SOURCE, was);
    l->ResourceBarrier(1, &b);
    s.run();
    void *m = nullptr;
    CHECK_HR(s.readback->Map(0, nullptr, &m), S_OK);
    return static_cast<const float *>(m);
}

// Every pixel: drawn ones hold ((x + 0.5) / 16, (y + 0.5) / 16, 0, 1) within the 1/256-pixel
// snapping of the clipped vertices, the others the clear color exactly. Returns how many
// pixels were drawn.
static unsigned check_pixels(const float *px, bool (*covered)(int, int), const char *what)
{
    unsigned bad = 0, drawn = 0;
    for (int y = 0; y < kSize; y++)
        for (int x = 0; x < kSize; x++) {
            const float *got = px + (y * kSize + x) * 4;
            bool in = covered(x, y);
            float want[4] = {(x + 0.5f) / kSize, (y + 0.5f) / kSize, 0, 1};
            bool ok = true;
            for (int c = 0; c < 4; c++)
                ok = ok && (in ? std::fabs(got[c] - want[c]) < 2e-3f : got[c] == kClear[c]);
            drawn += in;
            if (!ok) {
                if (bad < 4)
                    fprintf(stderr, "%s: pixel (%d,%d) is %g %g %g %g, expected %s\n", what, x, y, got[0], got[1],
                            got[2], got[3], in ? "its center / 16" : "the clear color");
                bad++;
            }
        }
    set_ctx("%s", what);
    CHECK_EQ(bad, 0u);
    set_ctx("%s", "");
    return drawn;
}

static bool in_clipped_triangle(int x, int y) { return x < 8 && x + y < 15; }
static bool in_upper_left_half(int x, int y) { return x + y < 15; }
static bool in_clipped_line(int x, int y) { return y == 0 && x < 8; }

static void clipped_noperspective(Setup &s)
{
    // 1. The triangle; its far vertex (16, 0) on the screen is (1, 1) in NDC, at w = 4.
    {
        Com<ID3D12PipelineState> pso;
        pso.p = pipeline(s, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE);
        if (!pso) return;
        const Vertex tri[3] = {
            {{-1, 1, 0, 1}, {0, 0}},
            {{4, 4, -8, 4}, {1, 0}},
            {{-1, -1, 0, 1}, {0, 1}},
        };
        const float *px = draw(s, pso, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST, tri, 3);
        if (px) {
            CHECK_EQ(check_pixels(px, in_clipped_triangle, "clipped triangle"), 92u);
            s.readback->Unmap(0, nullptr);
        }
    }
    // 2. The line along row 0's centers (NDC y = 1 - 1/16), to the far end at w = 4.
    {
        Com<ID3D12PipelineState> pso;
        pso.p = pipeline(s, D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE);
        if (!pso) return;
        const float y = 1.0f - 1.0f / kSize;
        const Vertex line[2] = {
            {{-1, y, 0, 1}, {0, 0.5f / kSize}},
            {{4, 4 * y, -8, 4}, {1, 0.5f / kSize}},
        };
        const float *px = draw(s, pso, D3D_PRIMITIVE_TOPOLOGY_LINELIST, line, 2);
        if (px) {
            CHECK_EQ(check_pixels(px, in_clipped_line, "clipped line"), 8u);
            s.readback->Unmap(0, nullptr);
        }
    }
}

// 3. A triangle strip with adjacency of 7 vertices makes one triangle (n triangles take 2n + 4
// vertices; the Primitive Topologies page: primitives with adjacency have twice the vertices):
// 0-2-4, the upper-left half. The seventh vertex (the bottom-right corner) would complete the
// strip's second triangle 2-6-4 if its adjacent vertex 7 existed; without it nothing more is
// drawn. Without a geometry shader the adjacent (odd) vertices only take up their places.
static void strip_with_adjacency(Setup &s)
{
    Com<ID3D12PipelineState> pso;
    pso.p = pipeline(s, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE);
    if (!pso) return;
    const Vertex odd = {{0, 0, 0, 1}, {0.5f, 0.5f}};
    const Vertex strip[7] = {
        {{-1, 1, 0, 1}, {0, 0}}, odd, {{1, 1, 0, 1}, {1, 0}}, odd, {{-1, -1, 0, 1}, {0, 1}}, odd,
        {{1, -1, 0, 1}, {1, 1}},
    };
    const float *px = draw(s, pso, D3D_PRIMITIVE_TOPOLOGY_TRIANGLESTRIP_ADJ, strip, 7);
    if (px) {
        CHECK_EQ(check_pixels(px, in_upper_left_half, "7-vertex triangle strip with adjacency"), 120u);
        s.readback->Unmap(0, nullptr);
    }
}

// 4. Depth bias of a triangle with a vertex behind the eye: D3D biases what the clipper
// leaves. In D3D clip space (the vertex shader's z' = (z + w) / 2): A (-1, 1, 0.25, 1),
// B (1, 1, 0.5, 1) and C (0, -3, -0.375, -1) behind the eye all lie on the plane
// z' = 0.375 w + x / 8, i.e. depth 0.25 + x / 64 per pixel on the 16x16 viewport. With
// SlopeScaledDepthBias 2 (MaxDepthSlope 1/64) every drawn pixel stores 0.25 + (x + 0.5) / 64 +
// 2 / 64; row 0 is drawn across (the clipped polygon runs from A and B down past the viewport),
// and other pixels keep the clear depth 1 or hold the same biased depth.
static void bias_behind_the_eye(Setup &s)
{
    D3D12_RESOURCE_DESC t = {};
    t.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    t.Width = kSize;
    t.Height = kSize;
    t.DepthOrArraySize = 1;
    t.MipLevels = 1;
    t.Format = DXGI_FORMAT_D32_FLOAT;
    t.SampleDesc.Count = 1;
    t.Flags = D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL;
    Com<ID3D12Resource> depth;
    depth.p = committed(s.dev, D3D12_HEAP_TYPE_DEFAULT, t, D3D12_RESOURCE_STATE_DEPTH_WRITE);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
    CHECK_HR(s.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    Com<ID3D12PipelineState> pso;
    pso.p = pipeline(s, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE, 2.0f);
    if (!depth || !heap || !pso) return;
    D3D12_CPU_DESCRIPTOR_HANDLE dsv = heap->GetCPUDescriptorHandleForHeapStart();
    s.dev->CreateDepthStencilView(depth, nullptr, dsv);
    // GL-side z = 2 z' - w.
    const Vertex tri[3] = {
        {{-1, 1, -0.5f, 1}, {0, 0}},
        {{1, 1, 0, 1}, {0, 0}},
        {{0, -3, 0.25f, -1}, {0, 0}},
    };
    const float *px = draw(s, pso, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST, tri, 3, depth, dsv);
    if (!px) return;
    unsigned bad = 0, row0 = 0;
    for (int y = 0; y < kSize; y++)
        for (int x = 0; x < kSize; x++) {
            float got = px[y * 64 + x];
            float want = 0.25f + (x + 0.5f) / 64 + 2.0f / 64;
            bool drawn = std::fabs(got - want) < 1e-6f;
            row0 += y == 0 && drawn;
            if (!drawn && (y == 0 || got != 1.0f)) {
                if (bad < 4) fprintf(stderr, "bias: pixel (%d,%d) has depth %.9g, expected %.9g\n", x, y, got, want);
                bad++;
            }
        }
    s.readback->Unmap(0, nullptr);
    CHECK_EQ(bad, 0u);
    CHECK_EQ(row0, 16u);
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Setup s;
            s.dev = dev;
            if (build(s)) {
                clipped_noperspective(s);
                strip_with_adjacency(s);
                bias_behind_the_eye(s);
            }
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_clip_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
