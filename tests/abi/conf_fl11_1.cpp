// tests/abi/conf_fl11_1.cpp - feature levels 11_1 and 12_0 through Microsoft's headers: device
// creation at each level, FEATURE_LEVELS and the OPTIONS the levels require, and the two 11_1
// requirements that are draws: target-independent rasterization and UAVs written by the
// vertex and geometry shaders.
//
// Requirements (learn.microsoft.com "Hardware feature levels"; D3D11.3 functional spec
// "Feature Level 11_1"): 11_1 adds UAVs at every stage, 64 UAV slots, logic ops,
// target-independent rasterization and UAV-only rendering forcing up to 16 samples; 12_0 adds
// resource binding tier 2, tiled resources tier 2, typed UAV loads of the additional formats
// and min/max filtering. 12_1 (conservative rasterization, ROVs) is not reported.
//
// The draws (tests/fixtures/dxbc/tir.vs.dxbc, tir.gs.dxbc and tir.ps.dxbc): a triangle with
// screen corners (0, 0), (h, 0), (0, h), h = 4 - 1/32, on a 4x4 viewport. tir.vs writes
// 10 * SV_VertexID + 7 at word SV_VertexID of u0 (root UAV, visibility ALL) and ORs
// 1 << SV_VertexID into word 15; tir.gs passes the triangle through and adds 1 to word 14 of
// u0 per invocation (one per triangle); tir.ps counts invocations of pixel k = x + 4y at word 2k of u1 (root UAV, pixel
// visibility) and ORs SV_Coverage into word 2k + 1. A sample at pixel (x, y) with standard
// offset (dx, dy)/16 is inside when x + y + 1 + (dx + dy)/16 < h: pixels with x + y <= 2 have
// every sample, pixels with x + y = 3 those with dx + dy <= -1, the others none (no ties):
//   4x  (-2,-6) (6,-2) (-6,2) (2,6)                                  -> samples 0, 2: 0x5
//   8x  (1,-3) (-1,3) (5,1) (-3,-5) (-5,5) (-7,-1) (3,7) (7,-7)      -> 0, 3, 5: 0x29
//   16x (1,1) (-1,-3) (-3,2) (4,-1) (-5,-2) (2,5) (5,3) (3,-5) (-2,6) (0,-7) (-4,-6) (-6,4)
//       (-8,0) (7,-4) (6,7) (-7,-8)                   -> 1, 2, 4, 7, 9, 10, 11, 12, 15: 0x9E96
// The pixel shader runs once per pixel with a covered sample (10 pixels), whether nothing is
// bound (UAV-only rendering) or a single-sampled render target is.
//
// The last line is "conf_fl11_1_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <cstring>
#include <string>
#include <utility>
#include <vector>

static std::vector<char> dxbc(const char *name)
{
    return fixture((std::string("../dxbc/") + name).c_str());
}

static UINT64 last_message_id(ID3D12InfoQueue *iq)
{
    UINT64 n = iq->GetNumStoredMessages();
    if (n == 0) return 0;
    SIZE_T len = 0;
    CHECK_HR(iq->GetMessage(n - 1, nullptr, &len), S_OK);
    std::vector<char> buf(len);
    D3D12_MESSAGE *m = reinterpret_cast<D3D12_MESSAGE *>(buf.data());
    if (!len || FAILED(iq->GetMessage(n - 1, m, &len))) return 0;
    return m->ID;
}

static D3D12_RESOURCE_BARRIER transition(ID3D12Resource *r, D3D12_RESOURCE_STATES a, D3D12_RESOURCE_STATES b)
{
    D3D12_RESOURCE_BARRIER t = {};
    t.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
    t.Transition.pResource = r;
    t.Transition.StateBefore = a;
    t.Transition.StateAfter = b;
    t.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    return t;
}

static void test_levels()
{
    const D3D_FEATURE_LEVEL ok[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_12_0};
    for (D3D_FEATURE_LEVEL l : ok) {
        set_ctx("MinimumFeatureLevel %#x", unsigned(l));
        ID3D12Device *d = nullptr;
        CHECK_HR(D3D12CreateDevice(nullptr, l, IID_PPV_ARGS(&d)), S_OK);
        CHECK_HR(D3D12CreateDevice(nullptr, l, __uuidof(ID3D12Device), nullptr), S_FALSE);
        if (d) d->Release();
    }
    set_ctx("MinimumFeatureLevel 12_1");
    void *p = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_12_1, __uuidof(ID3D12Device), &p), E_INVALIDARG);
    CHECK_PTR(p, nullptr);
    set_ctx("%s", "");
}

static void test_caps(ID3D12Device *dev)
{
    D3D_FEATURE_LEVEL all[] = {D3D_FEATURE_LEVEL_12_2, D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_12_1,
                               D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_11_1};
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl = {5, all, D3D_FEATURE_LEVEL(0)};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl), S_OK);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_12_0);
    D3D_FEATURE_LEVEL upto11[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1};
    fl = {2, upto11, D3D_FEATURE_LEVEL(0)};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof fl), S_OK);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_11_1);
    D3D12_FEATURE_DATA_D3D12_OPTIONS o = {};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o), S_OK);
    CHECK(o.OutputMergerLogicOp);
    CHECK(o.ResourceBindingTier >= D3D12_RESOURCE_BINDING_TIER_2);
    CHECK(o.TiledResourcesTier >= D3D12_TILED_RESOURCES_TIER_2);
    CHECK(o.TypedUAVLoadAdditionalFormats);
    // What 12_1 would need is absent.
    CHECK_EQ(o.ConservativeRasterizationTier, D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED);
    CHECK_EQ(o.ROVsSupported, FALSE);
    D3D12_FEATURE_DATA_SHADER_MODEL sm = {D3D_SHADER_MODEL_6_0};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &sm, sizeof sm), S_OK);
    CHECK_EQ(sm.HighestShaderModel, D3D_SHADER_MODEL_6_0);
}

struct Gpu : GpuBase {
    Com<ID3D12RootSignature> rs;
    std::vector<char> vs, gs, ps;
    Com<ID3D12InfoQueue> iq;

    bool setup()
    {
        D3D12_ROOT_PARAMETER1 p[2] = {root_uav(0), root_uav(1)};
        p[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_PIXEL;
        rs.p = root_signature(p, 2, D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT);
        vs = dxbc("tir.vs.dxbc");
        gs = dxbc("tir.gs.dxbc");
        ps = dxbc("tir.ps.dxbc");
        dev->QueryInterface(IID_PPV_ARGS(&iq));
        return rs && vs.size() > 100 && gs.size() > 100 && ps.size() > 100;
    }

    D3D12_GRAPHICS_PIPELINE_STATE_DESC pso(UINT forced, bool rtv)
    {
        static const D3D12_INPUT_ELEMENT_DESC el = {
            "POSITION", 0, DXGI_FORMAT_R32G32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0};
        D3D12_GRAPHICS_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.VS = {vs.data(), vs.size()};
        d.GS = {gs.data(), gs.size()};
        d.PS = {ps.data(), ps.size()};
        d.InputLayout = {&el, 1};
        d.SampleMask = UINT_MAX;
        d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
        d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
        d.RasterizerState.DepthClipEnable = TRUE;
        d.RasterizerState.ForcedSampleCount = forced;
        d.BlendState.RenderTarget[0].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
        d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
        d.NumRenderTargets = rtv ? 1 : 0;
        d.RTVFormats[0] = rtv ? DXGI_FORMAT_R8G8B8A8_UNORM : DXGI_FORMAT_UNKNOWN;
        d.SampleDesc = {1, 0};
        return d;
    }

    ID3D12Resource *target()
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Width = d.Height = 4;
        d.DepthOrArraySize = d.MipLevels = 1;
        d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        d.SampleDesc.Count = 1;
        d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
        D3D12_HEAP_PROPERTIES hp = {};
        hp.Type = D3D12_HEAP_TYPE_DEFAULT;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_RENDER_TARGET,
                                              nullptr, IID_PPV_ARGS(&r)),
                 S_OK);
        return r;
    }

    // One draw with ForcedSampleCount `forced` (with a single-sampled RGBA8 target bound when
    // `rtv`); u0 (16 words) and u1 (32 words) as read back.
    bool draw(UINT forced, bool rtv, std::vector<UINT> &u0, std::vector<UINT> &u1)
    {
        D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = pso(forced, rtv);
        Com<ID3D12PipelineState> state;
        CHECK_HR(dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&state)), S_OK);
        const float h = 1.0f - 1.0f / 64; // screen 4 - 1/32 on the 4x4 viewport
        const float tri[3][2] = {{-1, 1}, {h, 1}, {-1, -h}};
        Com<ID3D12Resource> vb, zeros, a, b, rb, rt;
        Com<ID3D12DescriptorHeap> heap;
        vb.p = buffer(D3D12_HEAP_TYPE_UPLOAD, sizeof tri, D3D12_RESOURCE_STATE_GENERIC_READ);
        zeros.p = buffer(D3D12_HEAP_TYPE_UPLOAD, 128, D3D12_RESOURCE_STATE_GENERIC_READ);
        a.p = buffer(D3D12_HEAP_TYPE_DEFAULT, 64, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
        b.p = buffer(D3D12_HEAP_TYPE_DEFAULT, 128, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, 192, D3D12_RESOURCE_STATE_COPY_DEST);
        if (rtv) {
            rt.p = target();
            D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
            CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
            if (!rt || !heap) return false;
            dev->CreateRenderTargetView(rt, nullptr, heap->GetCPUDescriptorHandleForHeapStart());
        }
        if (!state || !vb || !zeros || !a || !b || !rb) return false;
        void *m = nullptr;
        CHECK_HR(vb->Map(0, nullptr, &m), S_OK);
        if (!m) return false;
        memcpy(m, tri, sizeof tri);
        vb->Unmap(0, nullptr);
        m = nullptr;
        CHECK_HR(zeros->Map(0, nullptr, &m), S_OK);
        if (!m) return false;
        memset(m, 0, 128);
        zeros->Unmap(0, nullptr);
        // The UAVs start at zero whatever memory they were given.
        D3D12_RESOURCE_BARRIER z[2] = {
            transition(a, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST),
            transition(b, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_DEST)};
        list->ResourceBarrier(2, z);
        list->CopyBufferRegion(a, 0, zeros, 0, 64);
        list->CopyBufferRegion(b, 0, zeros, 0, 128);
        for (D3D12_RESOURCE_BARRIER &t : z) std::swap(t.Transition.StateBefore, t.Transition.StateAfter);
        list->ResourceBarrier(2, z);
        list->SetGraphicsRootSignature(rs);
        list->SetPipelineState(state);
        list->SetGraphicsRootUnorderedAccessView(0, a->GetGPUVirtualAddress());
        list->SetGraphicsRootUnorderedAccessView(1, b->GetGPUVirtualAddress());
        D3D12_VERTEX_BUFFER_VIEW vbv = {vb->GetGPUVirtualAddress(), sizeof tri, 8};
        list->IASetVertexBuffers(0, 1, &vbv);
        list->IASetPrimitiveTopology(D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        if (rtv) {
            D3D12_CPU_DESCRIPTOR_HANDLE h0 = heap->GetCPUDescriptorHandleForHeapStart();
            list->OMSetRenderTargets(1, &h0, FALSE, nullptr);
        } else {
            list->OMSetRenderTargets(0, nullptr, FALSE, nullptr);
        }
        D3D12_VIEWPORT vp = {0, 0, 4, 4, 0, 1};
        list->RSSetViewports(1, &vp);
        D3D12_RECT sc = {0, 0, 4, 4};
        list->RSSetScissorRects(1, &sc);
        list->DrawInstanced(3, 1, 0, 0);
        D3D12_RESOURCE_BARRIER bs[2] = {
            transition(a, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE),
            transition(b, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE)};
        list->ResourceBarrier(2, bs);
        list->CopyBufferRegion(rb, 0, a, 0, 64);
        list->CopyBufferRegion(rb, 64, b, 0, 128);
        run();
        CHECK_HR(rb->Map(0, nullptr, &m), S_OK);
        if (!m) return false;
        const UINT *w = static_cast<const UINT *>(m);
        u0.assign(w, w + 16);
        u1.assign(w + 16, w + 48);
        rb->Unmap(0, nullptr);
        return true;
    }
};

static void test_tir(Gpu &g)
{
    struct Case {
        UINT forced, all, edge;
    };
    const Case cases[] = {{4, 0xF, 0x5}, {8, 0xFF, 0x29}, {16, 0xFFFF, 0x9E96}};
    for (bool rtv : {false, true}) {
        for (const Case &c : cases) {
            set_ctx("ForcedSampleCount %u, %s", c.forced, rtv ? "a single-sampled RTV" : "UAV-only");
            std::vector<UINT> u0, u1;
            if (!g.draw(c.forced, rtv, u0, u1)) {
                CHECK(!"draw");
                continue;
            }
            UINT invocations = 0;
            for (int k = 0; k < 16; k++) {
                int x = k % 4, y = k / 4;
                UINT want_cov = x + y <= 2 ? c.all : x + y == 3 ? c.edge : 0;
                set_ctx("ForcedSampleCount %u, %s, pixel (%d, %d)", c.forced, rtv ? "RTV" : "UAV-only", x, y);
                CHECK_EQ(u1[2 * k], want_cov ? 1u : 0u);
                CHECK_EQ(u1[2 * k + 1], want_cov);
                invocations += u1[2 * k];
            }
            set_ctx("ForcedSampleCount %u, %s", c.forced, rtv ? "a single-sampled RTV" : "UAV-only");
            CHECK_EQ(invocations, 10u);
            // The vertex shader's UAV: word v = 10 v + 7, word 15 the vertices that ran; the
            // geometry shader's: word 14 its one invocation.
            const UINT want_vs[16] = {7, 17, 27, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 7};
            for (int k = 0; k < 16; k++) CHECK_EQ(u0[k], want_vs[k]);
        }
    }
    set_ctx("%s", "");
}

// CreateGraphicsPipelineState's rules for ForcedSampleCount at 11_1 and above.
static void test_pso_rules(Gpu &g)
{
    struct Bad {
        const char *what;
        UINT forced, samples;
        bool rtv;
        DXGI_FORMAT dsv;
        D3D12_MESSAGE_ID id;
    };
    const Bad bad[] = {
        {"ForcedSampleCount 3", 3, 1, false, DXGI_FORMAT_UNKNOWN, D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT},
        {"ForcedSampleCount 32", 32, 1, false, DXGI_FORMAT_UNKNOWN,
         D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT},
        {"ForcedSampleCount 4 on a 4x target", 4, 4, true, DXGI_FORMAT_UNKNOWN,
         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT},
        {"ForcedSampleCount 8 with a DSV format", 8, 1, false, DXGI_FORMAT_D32_FLOAT,
         D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT},
    };
    for (const Bad &b : bad) {
        set_ctx("%s", b.what);
        D3D12_GRAPHICS_PIPELINE_STATE_DESC pd = g.pso(b.forced, b.rtv);
        pd.SampleDesc.Count = b.samples;
        pd.DSVFormat = b.dsv;
        Com<ID3D12PipelineState> s;
        CHECK_HR(g.dev->CreateGraphicsPipelineState(&pd, IID_PPV_ARGS(&s)), E_INVALIDARG);
        if (g.iq) CHECK_EQ(last_message_id(g.iq), (UINT64)b.id);
    }
    set_ctx("%s", "");
}

int main()
{
    {
        Com<ID3D12Debug> debug;
        CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
        if (debug) debug->EnableDebugLayer();
    }
    test_levels();
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_12_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        test_caps(dev);
        {
            Gpu g;
            g.init(dev);
            if (g.setup()) {
                test_tir(g);
                test_pso_rules(g);
            } else {
                CHECK(!"setup");
            }
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_fl11_1_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
