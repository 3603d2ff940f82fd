// tests/abi/conf_wave.cpp - wave and quad intrinsics of shader model 6.0 through the C ABI.
//
// 1. CheckFeatureSupport(OPTIONS1): WaveOps TRUE, WaveLaneCountMin 4 and WaveLaneCountMax 128
//    (every [WaveSize] the specs allow), TotalLaneCount a whole number of 8-lane waves.
// 2. The DXC fixtures of tests/fixtures/dxil/wave (see its README; HLSL beside each), compute
//    shaders writing u0 (a root UAV; t0 a root SRV where they read one), dispatched through the
//    D3D12 API, compared word by word with what their HLSL gives for waves of W = 8 lanes (the
//    default; threads fill lanes in order, lane = flattened thread index % 8). The same tables
//    as crates/swgpu/tests/wave.rs, worked out by hand: see there for the derivations.
// 3. WaveSize: wavesize_4/16/32/64 (shader model 6.6) run with exactly N lanes,
//    wavesize_range_16_64_32 (6.8) with its preferred 32 and wavesize_range_4_128 with the
//    default 8, when the device's highest shader model has them; below it, creation fails with
//    E_INVALIDARG as on Windows (rd3d12 reports 6.2: the WaveSize fixtures are run at the
//    interpreter level, by rd3d12-shader's and rd3d12-swgpu's tests). wave_16bit (6.2, native
//    16-bit types) runs when OPTIONS4 reports Native16BitShaderOpsSupported and is refused
//    otherwise (SFI0's D3D_SHADER_REQUIRES_NATIVE_16BIT_OPS, as Windows refuses it).
//
// The last line is "conf_wave_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

struct Gpu : GpuBase {
    Com<ID3D12RootSignature> rs;

    void init(ID3D12Device *d)
    {
        GpuBase::init(d, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        // Parameter 0: a root UAV at u0; parameter 1: a root SRV at t0.
        D3D12_ROOT_PARAMETER1 p[2] = {};
        p[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
        p[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
        p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_SRV;
        p[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
        D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
        rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
        rd.Desc_1_1.NumParameters = 2;
        rd.Desc_1_1.pParameters = p;
        Com<ID3DBlob> blob, err;
        CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
        if (blob)
            CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)),
                     S_OK);
    }

    HRESULT pipeline(const char *name, ID3D12PipelineState **pso)
    {
        std::vector<char> cs = fixture((std::string("wave/") + name + ".cs.dxil").c_str());
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        return dev->CreateComputePipelineState(&d, IID_PPV_ARGS(pso));
    }

    // Dispatches `groups` groups of `pso` with u0 holding `u0` and t0 holding `t0` (an upload
    // buffer; none when empty); u0's words after.
    std::vector<uint32_t> dispatch(ID3D12PipelineState *pso, UINT groups, std::vector<uint32_t> u0,
                                   const std::vector<uint32_t> &t0 = {})
    {
        UINT64 size = u0.size() * 4;
        Com<ID3D12Resource> out, up, rb, in;
        out.p = buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON, true);
        up.p = buffer(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ, false);
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, size, D3D12_RESOURCE_STATE_COPY_DEST, false);
        void *p = nullptr;
        if (!t0.empty()) {
            in.p = buffer(D3D12_HEAP_TYPE_UPLOAD, t0.size() * 4, D3D12_RESOURCE_STATE_GENERIC_READ, false);
            if (!in)
                return u0;
            CHECK_HR(in->Map(0, nullptr, &p), S_OK);
            if (p)
                memcpy(p, t0.data(), t0.size() * 4);
        }
        if (!out || !up || !rb)
            return u0;
        CHECK_HR(up->Map(0, nullptr, &p), S_OK);
        if (p)
            memcpy(p, u0.data(), size);
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
        if (in)
            list->SetComputeRootShaderResourceView(1, in->GetGPUVirtualAddress());
        list->Dispatch(groups, 1, 1);
        b.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
        b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        list->ResourceBarrier(1, &b);
        list->CopyBufferRegion(rb, 0, out, 0, size);
        run();
        CHECK_HR(rb->Map(0, nullptr, &p), S_OK);
        if (p)
            memcpy(u0.data(), p, size);
        return u0;
    }

    // Creates fixture `name` and runs one group over `words` words of 0xDEAD.
    std::vector<uint32_t> run_fixture(const char *name, size_t words, UINT groups = 1)
    {
        set_ctx("%s", name);
        Com<ID3D12PipelineState> pso;
        CHECK_HR(pipeline(name, &pso), S_OK);
        if (!pso)
            return {};
        return dispatch(pso, groups, std::vector<uint32_t>(words, 0xDEAD));
    }
};

// Compares u0 with a per-lane table: thread i writes the N words of row i % rows.
template <size_t N>
static void check_table(const char *name, const std::vector<uint32_t> &got, const uint32_t (*rows)[N], size_t count,
                        size_t threads = 64)
{
    set_ctx("%s", name);
    CHECK_EQ(got.size(), threads * N);
    if (got.size() != threads * N)
        return;
    unsigned wrong = 0;
    for (size_t i = 0; i < threads; i++)
        for (size_t k = 0; k < N; k++) {
            if (got[i * N + k] != rows[i % count][k] && wrong++ < 8)
                printf("  %s: thread %zu word %zu = 0x%08x, want 0x%08x\n", name, i, k, got[i * N + k],
                       rows[i % count][k]);
        }
    CHECK_EQ(wrong, 0u);
}

// The tables, W = 8 (see crates/swgpu/tests/wave.rs for each derivation).
static const uint32_t LANE_BASICS[8][3] = {{8, 0, 1}, {8, 1, 0}, {8, 2, 0}, {8, 3, 0},
                                           {8, 4, 0}, {8, 5, 0}, {8, 6, 0}, {8, 7, 0}};
static const uint32_t VOTE[1][8] = {{1, 0, 1, 0, 0xAA, 0, 0, 0}};
static const uint32_t READ_LANE[8][4] = {
    {1002, 1001, 1000, 0x40600000}, {1002, 1002, 1000, 0x40600000}, {1002, 1003, 1000, 0x40600000},
    {1002, 1004, 1000, 0x40600000}, {1002, 1005, 1000, 0x40600000}, {1002, 1006, 1000, 0x40600000},
    {1002, 1007, 1000, 0x40600000}, {1002, 1000, 1000, 0x40600000}};
static const uint32_t SUM_PRODUCT[1][6] = {{28, 0xFFFFFFDC, 0x40E00000, 24, 1, 0x3F000000}};
static const uint32_t MINMAX[1][6] = {{5, 12, 0xFFFFFFFE, 2, 0xFFFFFFFF, 0xC0200000}};
static const uint32_t BITS[1][3] = {{0xFFFFFF00, 0xFF, 0}};
static const uint32_t COUNTBITS_ALLEQUAL[1][4] = {{3, 1, 0, 0}};
static const uint32_t PREFIX[8][5] = {
    {0, 0, 0, 1, 0},
    {0, 0, 0x3FC00000, 2, 0},
    {1, 0xFFFFFFFD, 0x40400000, 4, 1},
    {3, 0xFFFFFFFD, 0x40900000, 8, 1},
    {6, 0xFFFFFFFA, 0x40C00000, 16, 1},
    {10, 0xFFFFFFFA, 0x40F00000, 32, 1},
    {15, 0xFFFFFFF7, 0x41100000, 64, 2},
    {21, 0xFFFFFFF7, 0x41280000, 64, 2}};
static const uint32_t QUAD[8][5] = {
    {101, 102, 103, 102, 0x3F000000}, {100, 103, 102, 102, 0x3F000000}, {103, 100, 101, 102, 0x3F000000},
    {102, 101, 100, 102, 0x3F000000}, {105, 106, 107, 106, 0x40200000}, {104, 107, 106, 106, 0x40200000},
    {107, 104, 105, 106, 0x40200000}, {106, 105, 104, 106, 0x40200000}};
static const uint32_t DIVERGENT_IF[8][6] = {
    {12, 0, 0, 6, 0x55, 8}, {4, 16, 1, 1, 0, 8}, {12, 0, 1, 6, 0x55, 8}, {4, 16, 1, 0, 1, 8},
    {12, 0, 2, 6, 0x55, 8}, {4, 16, 1, 0, 2, 8}, {12, 0, 3, 6, 0x55, 8}, {4, 16, 1, 0, 3, 8}};
static const uint32_t DIVERGENT_LOOP[4][4] = {{8, 0, 1, 8}, {14, 1, 2, 8}, {18, 2, 3, 8}, {20, 3, 4, 8}};
static const uint32_t VECTOR[8][9] = {
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 0, 0},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 1, 0},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 2, (uint32_t)-1},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 3, (uint32_t)-3},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 4, (uint32_t)-6},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 5, (uint32_t)-10},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 6, (uint32_t)-15},
    {0x41000000, 0x41E00000, 0xC1E00000, 0x40800000, 7, 8, 49, 7, (uint32_t)-21}};
static const uint32_t WAVE_16BIT[1][4] = {{28, 0x40800000, 0xFFFFFF9C, 0x3F400000}};

static void test_options1(ID3D12Device *dev)
{
    set_ctx("OPTIONS1");
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 o = {};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS1, &o, sizeof o), S_OK);
    CHECK_EQ(o.WaveOps, TRUE);
    CHECK_EQ(o.WaveLaneCountMin, 4u);
    CHECK_EQ(o.WaveLaneCountMax, 128u);
    CHECK(o.TotalLaneCount >= 8 && o.TotalLaneCount % 8 == 0);
    CHECK_EQ(o.Int64ShaderOps, TRUE);
    CHECK_EQ(o.ExpandedComputeResourceStates, TRUE);
}

static void test_sm60(Gpu &g)
{
    check_table("wave_lane_basics", g.run_fixture("wave_lane_basics", 64 * 3), LANE_BASICS, 8);
    check_table("wave_vote", g.run_fixture("wave_vote", 64 * 8), VOTE, 1);
    check_table("wave_read_lane", g.run_fixture("wave_read_lane", 64 * 4), READ_LANE, 8);
    check_table("wave_active_sum_product", g.run_fixture("wave_active_sum_product", 64 * 6), SUM_PRODUCT, 1);
    check_table("wave_active_minmax", g.run_fixture("wave_active_minmax", 64 * 6), MINMAX, 1);
    check_table("wave_active_bits", g.run_fixture("wave_active_bits", 64 * 3), BITS, 1);
    check_table("wave_countbits_allequal", g.run_fixture("wave_countbits_allequal", 64 * 4), COUNTBITS_ALLEQUAL, 1);
    check_table("wave_prefix", g.run_fixture("wave_prefix", 64 * 5), PREFIX, 8);
    check_table("quad_read", g.run_fixture("quad_read", 64 * 5), QUAD, 8);
    check_table("wave_divergent_if", g.run_fixture("wave_divergent_if", 64 * 6), DIVERGENT_IF, 8);
    check_table("wave_divergent_loop", g.run_fixture("wave_divergent_loop", 64 * 4), DIVERGENT_LOOP, 4);
    check_table("wave_vector", g.run_fixture("wave_vector", 64 * 9), VECTOR, 8);
}

// 4 groups of 64: thread t keeps t when t % 3 == 0 (86 values), one InterlockedAdd on word 0
// per wave; the waves' blocks may land in any order, so the values are compared as a set.
static void test_compaction(Gpu &g)
{
    set_ctx("wave_compaction");
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.pipeline("wave_compaction", &pso), S_OK);
    if (!pso)
        return;
    std::vector<uint32_t> u0(257, 0xDEAD);
    u0[0] = 0;
    std::vector<uint32_t> w = g.dispatch(pso, 4, u0);
    CHECK_EQ(w[0], 86u);
    std::vector<int> seen(256, 0);
    unsigned bad = 0;
    for (size_t k = 1; k <= 86; k++) {
        if (w[k] < 256 && w[k] % 3 == 0 && !seen[w[k]])
            seen[w[k]] = 1;
        else
            bad++;
    }
    CHECK_EQ(bad, 0u);
    for (size_t k = 87; k < 257; k++)
        bad += w[k] != 0xDEAD;
    CHECK_EQ(bad, 0u);
}

// prefix_scan_wave: In[k] = k % 7 + 1, Out[k] = the inclusive prefix sum (1, 3, ..., 28, 29, ...,
// 1018 at 255); softmax_wave: 8 rows of e^(0.5 (c % 8)) / (8 sum_k<8 e^(0.5 k)).
static void test_kernels(Gpu &g)
{
    set_ctx("prefix_scan_wave");
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.pipeline("prefix_scan_wave", &pso), S_OK);
    if (pso) {
        std::vector<uint32_t> in(256);
        for (uint32_t k = 0; k < 256; k++)
            in[k] = k % 7 + 1;
        std::vector<uint32_t> w = g.dispatch(pso, 1, std::vector<uint32_t>(256, 0xDEAD), in);
        CHECK_EQ(w[0], 1u);
        CHECK_EQ(w[1], 3u);
        CHECK_EQ(w[6], 28u);
        CHECK_EQ(w[7], 29u);
        CHECK_EQ(w[255], 1018u);
        unsigned bad = 0;
        for (uint32_t k = 0; k < 256; k++) {
            uint32_t c = (k + 1) / 7, r = (k + 1) % 7;
            bad += w[k] != 28 * c + r * (r + 1) / 2;
        }
        CHECK_EQ(bad, 0u);
    }
    set_ctx("softmax_wave");
    Com<ID3D12PipelineState> sm;
    CHECK_HR(g.pipeline("softmax_wave", &sm), S_OK);
    if (sm) {
        std::vector<uint32_t> x(512);
        for (uint32_t i = 0; i < 512; i++) {
            float v = (float)(i % 64 % 8) * 0.5f - (float)(i / 64) * 0.25f;
            memcpy(&x[i], &v, 4);
        }
        std::vector<uint32_t> w = g.dispatch(sm, 8, std::vector<uint32_t>(512, 0xDEAD), x);
        double denom = 0;
        for (int k = 0; k < 8; k++)
            denom += 8 * exp(0.5 * k);
        unsigned bad = 0;
        for (uint32_t i = 0; i < 512; i++) {
            float got;
            memcpy(&got, &w[i], 4);
            double want = exp(0.5 * (i % 8)) / denom;
            bad += !(fabs((got - want) / want) < 1e-5);
        }
        CHECK_EQ(bad, 0u);
    }
}

// Shader models 6.6 and 6.8 ([WaveSize]) and native 16-bit types: run where the device has them,
// refused at creation (E_INVALIDARG) where it does not, as on Windows.
static void test_optional(Gpu &g)
{
    D3D12_FEATURE_DATA_SHADER_MODEL sm = {D3D_SHADER_MODEL_6_8};
    CHECK_HR(g.dev->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &sm, sizeof sm), S_OK);
    const uint32_t sizes[4] = {4, 16, 32, 64};
    for (uint32_t n : sizes) {
        std::string name = "wavesize_" + std::to_string(n);
        set_ctx("%s", name.c_str());
        Com<ID3D12PipelineState> pso;
        HRESULT hr = g.pipeline(name.c_str(), &pso);
        if (sm.HighestShaderModel < D3D_SHADER_MODEL_6_6) {
            CHECK_HR(hr, E_INVALIDARG);
            continue;
        }
        CHECK_HR(hr, S_OK);
        if (!pso)
            continue;
        // WaveGetLaneCount() = N and WaveActiveSum(1) = N in all 64 threads.
        std::vector<uint32_t> w = g.dispatch(pso, 1, std::vector<uint32_t>(128, 0xDEAD));
        unsigned bad = 0;
        for (uint32_t v : w)
            bad += v != n;
        CHECK_EQ(bad, 0u);
    }
    set_ctx("wavesize_range_16_64_32 and wavesize_range_4_128");
    Com<ID3D12PipelineState> r32, r8;
    HRESULT h32 = g.pipeline("wavesize_range_16_64_32", &r32), h8 = g.pipeline("wavesize_range_4_128", &r8);
    if (sm.HighestShaderModel < D3D_SHADER_MODEL_6_8) {
        CHECK_HR(h32, E_INVALIDARG);
        CHECK_HR(h8, E_INVALIDARG);
    } else {
        CHECK_HR(h32, S_OK);
        CHECK_HR(h8, S_OK);
        if (r32) {
            // The preferred 32: (32, 32, lane i % 32).
            std::vector<uint32_t> w = g.dispatch(r32, 1, std::vector<uint32_t>(192, 0xDEAD));
            unsigned bad = 0;
            for (uint32_t i = 0; i < 64; i++)
                bad += w[3 * i] != 32 || w[3 * i + 1] != 32 || w[3 * i + 2] != i % 32;
            CHECK_EQ(bad, 0u);
        }
        if (r8) {
            // Any size allowed: the default 8; the ballot of all lanes has 8 bits.
            std::vector<uint32_t> w = g.dispatch(r8, 1, std::vector<uint32_t>(256, 0xDEAD));
            unsigned bad = 0;
            for (uint32_t v : w)
                bad += v != 8;
            CHECK_EQ(bad, 0u);
        }
    }
    set_ctx("wave_16bit");
    D3D12_FEATURE_DATA_D3D12_OPTIONS4 o4 = {};
    CHECK_HR(g.dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS4, &o4, sizeof o4), S_OK);
    Com<ID3D12PipelineState> h;
    HRESULT hr = g.pipeline("wave_16bit", &h);
    if (!o4.Native16BitShaderOpsSupported) {
        CHECK_HR(hr, E_INVALIDARG);
    } else {
        CHECK_HR(hr, S_OK);
        if (h)
            check_table("wave_16bit", g.dispatch(h, 1, std::vector<uint32_t>(256, 0xDEAD)), WAVE_16BIT, 1);
    }
}

int main()
{
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            test_options1(dev);
            Gpu g;
            g.init(dev);
            test_sm60(g);
            test_compaction(g);
            test_kernels(g);
            test_optional(g);
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("conf_wave_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
