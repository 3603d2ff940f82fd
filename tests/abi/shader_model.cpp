// tests/abi/shader_model.cpp - RD3D12_SHADER_MODEL (what `rd3d12 run --shader-model M` sets):
// the highest shader model a device reports and accepts, lowered for testing the paths programs
// take on older drivers (DirectML picks its DXBC shaders below 6.0). The switch is read when a
// device is made, so each part sets it and then creates (and at the end releases) its device.
//
// The shaders are the two builds of one copy kernel, dst[i] = src[i] * 3 + i (u0 the source,
// u1 the destination, raw root UAVs, 64 threads a group): tests/fixtures/dxbc/copy.cs.dxbc
// (cs_5_0) and tests/fixtures/dxil/copy.cs.dxil (cs_6_2, unsigned: experimental shader models
// are enabled first). Checked:
//   1. RD3D12_SHADER_MODEL=5.1: SHADER_MODEL answers 5.1 (0x51) to D3D_HIGHEST_SHADER_MODEL,
//      6.0 and 5.1 (the highest both support, as Microsoft documents), E_INVALIDARG to an unknown
//      0x50 (the caller's value left as it was); OPTIONS1's WaveOps and Int64ShaderOps, shader
//      model 6.0 features, are FALSE and the lane counts 0; the DXIL pipeline is refused
//      (E_INVALIDARG), the DXBC one is created and dispatched: dst = 3 * src + i for 128 words;
//   2. RD3D12_SHADER_MODEL=6.0: 6.0 reported, WaveOps and Int64ShaderOps TRUE, the 6.2 DXIL
//      refused, the DXBC run;
//   3. RD3D12_SHADER_MODEL=6.6 (not a model rd3d12 executes): ignored (a warning on stderr), so
//      6.2 is reported and both pipelines run, with the same words;
//   4. unset: 6.2, as before the switch existed.
//
// The last line is "shader_model_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <string>
#include <vector>

static const UINT WORDS = 128;

struct Gpu : GpuBase {
    // dst after `groups` groups of `cs` (empty when the pipeline is refused; `hr` its HRESULT).
    std::vector<uint32_t> copy(const std::vector<char> &cs, HRESULT *hr)
    {
        D3D12_ROOT_PARAMETER1 p[2] = {root_uav(0), root_uav(1)};
        Com<ID3D12RootSignature> rs;
        rs.p = root_signature(p, 2);
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        Com<ID3D12PipelineState> pso;
        *hr = dev->CreateComputePipelineState(&d, IID_PPV_ARGS(&pso));
        if (FAILED(*hr)) {
            CHECK(pso.p == nullptr);
            return {};
        }
        Com<ID3D12Resource> src, dst, up, rb;
        src.p = buffer(D3D12_HEAP_TYPE_DEFAULT, WORDS * 4, D3D12_RESOURCE_STATE_COMMON, true);
        dst.p = buffer(D3D12_HEAP_TYPE_DEFAULT, WORDS * 4, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
        up.p = buffer(D3D12_HEAP_TYPE_UPLOAD, WORDS * 4, D3D12_RESOURCE_STATE_GENERIC_READ);
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, WORDS * 4, D3D12_RESOURCE_STATE_COPY_DEST);
        uint32_t *w = nullptr;
        CHECK_HR(up->Map(0, nullptr, (void **)&w), S_OK);
        for (UINT i = 0; i < WORDS; i++) w[i] = 1000 + 7 * i;
        list->CopyBufferRegion(src, 0, up, 0, WORDS * 4);
        run();
        list->SetComputeRootSignature(rs);
        list->SetPipelineState(pso);
        list->SetComputeRootUnorderedAccessView(0, src->GetGPUVirtualAddress());
        list->SetComputeRootUnorderedAccessView(1, dst->GetGPUVirtualAddress());
        list->Dispatch(WORDS / 64, 1, 1);
        D3D12_RESOURCE_BARRIER b = {};
        b.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        b.Transition.pResource = dst;
        b.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
        b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        list->ResourceBarrier(1, &b);
        list->CopyBufferRegion(rb, 0, dst, 0, WORDS * 4);
        run();
        uint32_t *r = nullptr;
        CHECK_HR(rb->Map(0, nullptr, (void **)&r), S_OK);
        return r ? std::vector<uint32_t>(r, r + WORDS) : std::vector<uint32_t>{};
    }
};

static UINT reported(ID3D12Device *dev, UINT asked, HRESULT want = S_OK)
{
    D3D12_FEATURE_DATA_SHADER_MODEL sm = {(D3D_SHADER_MODEL)asked};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &sm, sizeof sm), want);
    return sm.HighestShaderModel;
}

// dst[i] = 3 * src[i] + i for src[i] = 1000 + 7i.
static bool copied(const std::vector<uint32_t> &out)
{
    if (out.size() != WORDS) return false;
    for (UINT i = 0; i < WORDS; i++)
        if (out[i] != 3 * (1000 + 7 * i) + i) return false;
    return true;
}

// One device under RD3D12_SHADER_MODEL=`value` (unset for nullptr): it reports `highest` and
// runs the DXIL kernel exactly when `dxil` says so.
static void part(const char *value, UINT highest, bool dxil)
{
    set_ctx("RD3D12_SHADER_MODEL=%s", value ? value : "(unset)");
    if (value)
        setenv("RD3D12_SHADER_MODEL", value, 1);
    else
        unsetenv("RD3D12_SHADER_MODEL");
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (!dev) return;
    CHECK_EQ(reported(dev, D3D_HIGHEST_SHADER_MODEL), highest);
    CHECK_EQ(reported(dev, D3D_SHADER_MODEL_6_0), highest < 0x60 ? highest : 0x60u);
    CHECK_EQ(reported(dev, D3D_SHADER_MODEL_5_1), 0x51u);
    CHECK_EQ(reported(dev, 0x50, E_INVALIDARG), 0x50u);

    bool sm6 = highest >= 0x60;
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 o1 = {};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS1, &o1, sizeof o1), S_OK);
    CHECK_EQ(o1.WaveOps, sm6);
    CHECK_EQ(o1.Int64ShaderOps, sm6);
    CHECK(sm6 ? o1.WaveLaneCountMin == 4 : o1.WaveLaneCountMin == 0 && o1.TotalLaneCount == 0);
    CHECK(o1.ExpandedComputeResourceStates);

    {
        Gpu g;
        g.init(dev, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        HRESULT hr = E_FAIL;
        std::vector<uint32_t> from_dxbc = g.copy(fixture("../dxbc/copy.cs.dxbc"), &hr);
        CHECK_HR(hr, S_OK);
        CHECK(copied(from_dxbc));
        std::vector<uint32_t> from_dxil = g.copy(fixture("copy.cs.dxil"), &hr);
        CHECK_HR(hr, dxil ? S_OK : E_INVALIDARG);
        CHECK(dxil ? from_dxil == from_dxbc : from_dxil.empty());
    }
    CHECK_EQ(dev->Release(), 0u);
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    part("5.1", 0x51, false);
    part("6.0", 0x60, false);
    part("6.6", 0x62, true);
    part(nullptr, 0x62, true);
    printf("shader_model_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
