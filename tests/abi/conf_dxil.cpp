// tests/abi/conf_dxil.cpp - DXIL the CPU backend executes, and DXIL it refuses, through the C ABI.
//
// Fixtures (tests/fixtures/dxil, see its README), all compute shaders of 64 threads
// writing a RWByteAddressBuffer at u0 (bound as a root UAV):
//   1. twoouts.cs.dxil (DXC's adduint64 with a new body; unsigned, so the device enables
//      D3D12ExperimentalShaderModels): a = i * 0x9E3779B1, b = i - 3, six words per thread:
//      IMul(a, b) element 0 (high word) and 1 (low word), UMul(a, b) high and low, UDiv(a, b)
//      quotient and remainder (division by zero: 0xFFFFFFFF twice). Checked for all 64 threads
//      against the 64-bit products, and by hand for threads 1, 2, 3 and 63;
//   2. static_global_array.cs.dxil (DXC, signed): constant-expression getelementptrs into a
//      private static array and groupshared memory: w[4i] = n(n+1)/2 with n = i & 7,
//      w[4i+1] = (n+1) i (+5 when n == 3), w[4i+2] = 4i + 5, w[4i+3] = 0xC0FFEE;
//   3. wave_active_sum_product.cs.dxil (DXC, signed; WaveGetLaneIndex, WaveActiveOp): wave
//      operations of shader model 6.0 execute, so CreateComputePipelineState and
//      CreatePipelineState create it, and every thread writes its wave's sums and products for
//      waves of 8 lanes (28, -36, 7.0, 24, 1, 0.5). wave/wave_match.cs.dxil (WaveMatch, shader
//      model 6.5) is refused with E_INVALIDARG and a NULL pipeline, the debug layer reporting
//      D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE (its shader model is above the
//      device's 6.2, although the interpreter runs WaveMatch);
//   3b. ps_derivatives.ps.dxil (DXC; QuadReadAcrossX and friends: dx.op QuadOp) with DXC's
//      passthrough_interp vertex shader: CreateGraphicsPipelineState creates it, as it does with
//      passthrough_interp's own pixel shader;
//   4. twoouts.cs.dxil with its bitcode damaged: DXIL that does not read is created (as before),
//      and its dispatch is skipped: it writes nothing, and the debug layer reports an EXECUTION
//      warning saying why.
//
// The last line is "conf_dxil_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>



struct Gpu : GpuBase {
    Com<ID3D12RootSignature> rs;

    void init(ID3D12Device *d)
    {
        GpuBase::init(d, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        // One root UAV at u0.
        D3D12_ROOT_PARAMETER1 p = {};
        p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        p.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
        rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        rd.Desc_1_1.NumParameters = 1;
        rd.Desc_1_1.pParameters = &p;
        Com<ID3DBlob> blob, err;
        CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
        if (blob)
            CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                     S_OK);
    }

    HRESULT pipeline(const std::vector<char> &cs, ID3D12PipelineState **pso)
    {
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        return dev->CreateComputePipelineState(&d, IID_PPV_ARGS(pso));
    }

    // Dispatches one group of `pso` over a u0 of `words` words filled with 0xDEAD; its words after.
    std::vector<uint32_t> dispatch(ID3D12PipelineState *pso, size_t words)
    {
        UINT64 size = words * 4;
        Com<ID3D12Resource> out, up, rb;
        out.p = buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON, true);
        up.p = buffer(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ, false);
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST, false);
        std::vector<uint32_t> w(words, 0xDEAD);
        if (!out || !up || !rb)
            return w;
        void *p = nullptr;
        CHECK_HR(up->Map(0, nullptr, &p), S_OK);
        if (p)
            memcpy(p, w.data(), size);
        list->CopyBufferRegion(out, 0, up, 0, size);
        D3D12_RESOURCE_BARRIER b = {};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        b.Transition.pResource = out;
        b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        b.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
        b.Transition.StateAfter = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
        list->ResourceBarrier(1, &b);
        list->SetComputeRootSignature(rs);
        list->SetPipelineState(pso);
        list->SetComputeRootUnorderedAccessView(0, out->GetGPUVirtualAddress());
        list->Dispatch(1, 1, 1);
        b.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
        b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        list->ResourceBarrier(1, &b);
        list->CopyBufferRegion(rb, 0, out, 0, size);
        run();
        CHECK_HR(rb->Map(0, nullptr, &p), S_OK);
        if (p)
            memcpy(w.data(), p, size);
        return w;
    }
};

// The stored debug-layer messages, as (ID, category, severity, text).
struct Msg {
    D3D12_MESSAGE_ID id;
    D3D12_MESSAGE_CATEGORY category;
    D3D12_MESSAGE_SEVERITY severity;
    std::string text;
};

static std::vector<Msg> messages(ID3D12InfoQueue *q)
{
    std::vector<Msg> out;
    for (UINT64 i = 0; q && i < q->GetNumStoredMessages(); i++) {
        SIZE_T len = 0;
        if (FAILED(q->GetMessage(i, nullptr, &len)) || len == 0)
            continue;
        std::vector<char> buf(len);
        auto *m = reinterpret_cast<D3D12_MESSAGE *>(buf.data());
        if (SUCCEEDED(q->GetMessage(i, m, &len)))
            out.push_back({m->ID, m->Category, m->Severity, std::string(m->pDescription)});
    }
    return out;
}

static void test_two_outs(Gpu &g)
{
    set_ctx("twoouts: IMul, UMul, UDiv");
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.pipeline(fixture("twoouts.cs.dxil"), &pso), S_OK);
    if (!pso)
        return;
    std::vector<uint32_t> w = g.dispatch(pso, 6 * 64);
    auto at = [&](int i, int k) { return w[6 * i + k]; };
    // By hand. Thread 1: a = 0x9E3779B1 (-1640531535), b = -2: signed product 0x00000000_C3910C9E,
    // unsigned 0x9E3779AF_C3910C9E, a < b unsigned: quotient 0, remainder a.
    const uint32_t t1[6] = {0, 0xC3910C9E, 0x9E3779AF, 0xC3910C9E, 0, 0x9E3779B1};
    // Thread 2: a = 0x3C6EF362, b = -1: -a = 0xFFFFFFFF_C3910C9E; a * (2^32 - 1) = 0x3C6EF361_C3910C9E.
    const uint32_t t2[6] = {0xFFFFFFFF, 0xC3910C9E, 0x3C6EF361, 0xC3910C9E, 0, 0x3C6EF362};
    // Thread 3: b = 0.
    const uint32_t t3[6] = {0, 0, 0, 0, 0xFFFFFFFF, 0xFFFFFFFF};
    // Thread 63: a = 0xEFA6F28F, b = 60: -16456296060 = 0xFFFFFFFC_2B20D984; 0x38_2B20D984;
    // 4020695695 = 60 * 67011594 + 55.
    const uint32_t t63[6] = {0xFFFFFFFC, 0x2B20D984, 0x38, 0x2B20D984, 67011594, 55};
    for (int k = 0; k < 6; k++) {
        CHECK_EQ(at(1, k), t1[k]);
        CHECK_EQ(at(2, k), t2[k]);
        CHECK_EQ(at(3, k), t3[k]);
        CHECK_EQ(at(63, k), t63[k]);
    }
    unsigned wrong = 0;
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t a = i * 0x9E3779B1u, b = i - 3;
        uint64_t s = (uint64_t)((int64_t)(int32_t)a * (int64_t)(int32_t)b);
        uint64_t u = (uint64_t)a * b;
        uint32_t want[6] = {(uint32_t)(s >> 32), (uint32_t)s, (uint32_t)(u >> 32), (uint32_t)u,
                            b ? a / b : 0xFFFFFFFFu, b ? a % b : 0xFFFFFFFFu};
        for (int k = 0; k < 6; k++)
            wrong += at(i, k) != want[k];
    }
    CHECK_EQ(wrong, 0u);
}

static void test_constant_geps(Gpu &g)
{
    set_ctx("static_global_array: constant-expression GEPs");
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.pipeline(fixture("static_global_array.cs.dxil"), &pso), S_OK);
    if (!pso)
        return;
    std::vector<uint32_t> w = g.dispatch(pso, 4 * 64);
    // Thread 3: 1 + 2 + 3 = 6; scratch[3] = T[3] * 3 + 5 = 17, read twice; thread 0's groupshared store.
    CHECK_EQ(w[12], 6u);
    CHECK_EQ(w[13], 17u);
    CHECK_EQ(w[14], 17u);
    CHECK_EQ(w[15], 0xC0FFEEu);
    unsigned wrong = 0;
    for (uint32_t i = 0; i < 64; i++) {
        uint32_t n = i & 7;
        uint32_t want[4] = {n * (n + 1) / 2, (n + 1) * i + (n == 3 ? 5 : 0), 4 * i + 5, 0xC0FFEE};
        for (int k = 0; k < 4; k++)
            wrong += w[4 * i + k] != want[k];
    }
    CHECK_EQ(wrong, 0u);
}

// Each of the 64 threads of wave_active_sum_product: its wave of 8 lanes' sums and products.
static void check_sums(const std::vector<uint32_t> &w)
{
    const uint32_t want[6] = {28, 0xFFFFFFDC, 0x40E00000, 24, 1, 0x3F000000};
    unsigned wrong = 0;
    for (uint32_t i = 0; i < 64; i++)
        for (int k = 0; k < 6; k++)
            wrong += w[6 * i + k] != want[k];
    CHECK_EQ(wrong, 0u);
    CHECK_EQ(w[0], 28u);
    CHECK_EQ(w[6 * 63 + 1], 0xFFFFFFDCu);
}

static void test_waves(Gpu &g, ID3D12InfoQueue *q)
{
    set_ctx("wave_active_sum_product: created and dispatched");
    std::vector<char> cs = fixture("wave_active_sum_product.cs.dxil");
    CHECK(cs.size() > 100);
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.pipeline(cs, &pso), S_OK);
    if (pso)
        check_sums(g.dispatch(pso, 6 * 64));

    // The same through a subobject stream (ID3D12Device2::CreatePipelineState).
    set_ctx("wave_active_sum_product: CreatePipelineState");
    Com<ID3D12Device2> dev2;
    CHECK_HR(g.dev->QueryInterface(IID_PPV_ARGS(&dev2)), S_OK);
    if (!dev2)
        return;
    struct alignas(void *) {
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE t0 = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE;
        ID3D12RootSignature *rs = nullptr;
        alignas(void *) D3D12_PIPELINE_STATE_SUBOBJECT_TYPE t1 = D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS;
        D3D12_SHADER_BYTECODE cs = {};
    } stream;
    stream.rs = g.rs;
    stream.cs = {cs.data(), cs.size()};
    D3D12_PIPELINE_STATE_STREAM_DESC sd = {sizeof(stream), &stream};
    Com<ID3D12PipelineState> streamed;
    CHECK_HR(dev2->CreatePipelineState(&sd, IID_PPV_ARGS(&streamed)), S_OK);
    if (streamed)
        check_sums(g.dispatch(streamed, 6 * 64));

    set_ctx("wave_match: refused at creation");
    std::vector<char> match = fixture("wave/wave_match.cs.dxil");
    CHECK(match.size() > 100);
    q->ClearStoredMessages();
    ID3D12PipelineState *refused = reinterpret_cast<ID3D12PipelineState *>(&match);
    CHECK_HR(g.pipeline(match, &refused), E_INVALIDARG);
    CHECK(refused == nullptr);
    bool named = false;
    for (const Msg &m : messages(q))
        named |= m.id == D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE &&
                 m.category == D3D12_MESSAGE_CATEGORY_STATE_CREATION && m.severity == D3D12_MESSAGE_SEVERITY_ERROR;
    CHECK(named);
}

// CreateGraphicsPipelineState with DXC's passthrough_interp VS and `ps` (both pixel shaders read
// SV_Position and write two float4 targets).
static HRESULT graphics_pipeline(Gpu &g, ID3D12RootSignature *rs, const std::vector<char> &vs,
                                 const std::vector<char> &ps, ID3D12PipelineState **pso)
{
    D3D12_INPUT_ELEMENT_DESC il[2] = {
        {"POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0, 0, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
        {"VALUE", 0, DXGI_FORMAT_R32_FLOAT, 0, 12, D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA, 0},
    };
    D3D12_GRAPHICS_PIPELINE_STATE_DESC d = {};
    d.pRootSignature = rs;
    d.VS = {vs.data(), vs.size()};
    d.PS = {ps.data(), ps.size()};
    d.InputLayout = {il, 2};
    d.PrimitiveTopologyType = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE;
    d.NumRenderTargets = 2;
    d.RTVFormats[0] = d.RTVFormats[1] = DXGI_FORMAT_R32G32B32A32_FLOAT;
    d.SampleDesc.Count = 1;
    d.SampleMask = 0xFFFFFFFF;
    d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
    d.RasterizerState.DepthClipEnable = TRUE;
    for (int i = 0; i < 2; i++)
        d.BlendState.RenderTarget[i].RenderTargetWriteMask = D3D12_COLOR_WRITE_ENABLE_ALL;
    return g.dev->CreateGraphicsPipelineState(&d, IID_PPV_ARGS(pso));
}

static void test_quad_ops_graphics(Gpu &g)
{
    set_ctx("ps_derivatives: QuadOp created by CreateGraphicsPipelineState");
    D3D12_ROOT_SIGNATURE_DESC rd = {};
    rd.Flags = D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeRootSignature(&rd, D3D_ROOT_SIGNATURE_VERSION_1, &blob, &err), S_OK);
    Com<ID3D12RootSignature> rs;
    if (blob)
        CHECK_HR(g.dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                 S_OK);
    std::vector<char> vs = fixture("passthrough_interp.vs.dxil");
    Com<ID3D12PipelineState> ok;
    CHECK_HR(graphics_pipeline(g, rs, vs, fixture("passthrough_interp.ps.dxil"), &ok), S_OK);
    Com<ID3D12PipelineState> quad;
    CHECK_HR(graphics_pipeline(g, rs, vs, fixture("ps_derivatives.ps.dxil"), &quad), S_OK);
    CHECK(quad.p != nullptr);
}

static void test_skipped_dispatch(Gpu &g, ID3D12InfoQueue *q)
{
    set_ctx("damaged bitcode: the dispatch is skipped and reported");
    std::vector<char> cs = fixture("twoouts.cs.dxil");
    // The DXIL part's bitcode (the last "BC" 0xC0DE: the STAT part before it holds a copy of
    // the program): its first word after the magic all ones, an abbreviation id of 3
    // (UNABBREV_RECORD) at the top level, where only blocks may appear.
    size_t bc = 0;
    for (size_t i = 0; i + 8 <= cs.size(); i++)
        if (memcmp(&cs[i], "BC\xC0\xDE", 4) == 0)
            bc = i;
    CHECK(bc > 0);
    if (bc == 0)
        return;
    memset(&cs[bc + 4], 0xFF, 4);
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.pipeline(cs, &pso), S_OK);
    if (!pso)
        return;
    q->ClearStoredMessages();
    std::vector<uint32_t> w = g.dispatch(pso, 6 * 64);
    CHECK_EQ(w[0], 0xDEADu);
    CHECK_EQ(w[6 * 64 - 1], 0xDEADu);
    bool reported = false;
    for (const Msg &m : messages(q))
        reported |= m.category == D3D12_MESSAGE_CATEGORY_EXECUTION && m.severity == D3D12_MESSAGE_SEVERITY_WARNING &&
                    m.text.find("skipped a dispatch: CS: ") != std::string::npos;
    CHECK(reported);
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    Com<ID3D12Debug> debug;
    CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
    if (debug)
        debug->EnableDebugLayer();
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Com<ID3D12InfoQueue> q;
            CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&q)), S_OK);
            if (q)
                q->SetMuteDebugOutput(TRUE);
            Gpu g;
            g.init(dev);
            test_two_outs(g);
            test_constant_geps(g);
            test_quad_ops_graphics(g);
            if (q) {
                test_waves(g, q);
                test_skipped_dispatch(g, q);
            }
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_dxil_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
