// tests/abi/compute.cpp - dispatches executed by the CPU backend, through the C ABI from C++.
//
// The shaders are real DXIL: GLSL compute shaders converted by Mesa's spirv_to_dxil
// (tests/fixtures/dxil/*.comp and *.cs.dxil; shader model 6.2, unsigned, so the
// device enables D3D12ExperimentalShaderModels first). Storage buffers are raw UAVs
// (RWByteAddressBuffer), the image an RWTexture2D<float4>, the uniform block a CBV.
//
// Checked after copying the results to readback buffers:
//   1. copy (64 threads per group, 2 groups): dst[i] = src[i] * 3 + i, src at u0 and dst at u1
//      bound as root UAVs (raw buffers at a GPU virtual address); the word past the dispatched
//      threads keeps its value;
//   2. reduce (groupshared memory, barriers; 3 groups): dst[g] = the sum of src[64g .. 64g+63]
//      with src[i] = i * i, both raw UAV views in a descriptor table (group 0: 85344, worked by
//      hand as 63 * 64 * 127 / 6);
//   3. image (8x8 threads, 2x1 groups) into a 16x8 RGBA8_UNORM UAV texture: texel (x, y) =
//      (x / 255, y / 255, 0.5, 1.0) stored as bytes x, y, 128 (127.5 rounds up), 255;
//   4. atomic (32 threads, 2 groups): every thread appends its id + `add` (root constants at
//      b2, add = 100) at the slot an InterlockedAdd on word 0 returns: the counter ends at 64
//      and the values are 100..163 in some order;
//   5. a Dispatch with a zero group count does nothing;
//   6. a pipeline-statistics query around the copy counts 128 CS invocations;
//   4b. ExecuteIndirect with a (root constant, dispatch) signature and a count buffer of 2
//      over 3 records: two more groups appending with add = 1000 and 5000;
//   7. gather (GLSL textureGather): a 2x2 RGBA8 texture (an SRV in a table, a static sampler)
//      gathered at its center, each thread one channel, in D3D's texel order.
//
// The last line is "compute_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

struct Gpu : GpuBase {

    void init(ID3D12Device *d)
    {
        GpuBase::init(d, D3D12_COMMAND_LIST_TYPE_COMPUTE);
    }

    // A UAV buffer holding `words`, uploaded through a copy.
    ID3D12Resource *uav_buffer(const std::vector<uint32_t> &words, Com<ID3D12Resource> &upload)
    {
        UINT64 size = words.size() * 4;
        ID3D12Resource *b = buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON, true);
        upload.p = buffer(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
        void *p = nullptr;
        CHECK_HR(upload->Map(0, nullptr, &p), S_OK);
        memcpy(p, words.data(), size);
        list->CopyBufferRegion(b, 0, upload, 0, size);
        return b;
    }

    // The words of a buffer, copied to a readback buffer.
    std::vector<uint32_t> read(ID3D12Resource *b, size_t n)
    {
        Com<ID3D12Resource> rb;
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, n * 4, D3D12_RESOURCE_STATE_COPY_DEST);
        list->CopyBufferRegion(rb, 0, b, 0, n * 4);
        run();
        void *p = nullptr;
        CHECK_HR(rb->Map(0, nullptr, &p), S_OK);
        std::vector<uint32_t> out(n);
        memcpy(out.data(), p, n * 4);
        return out;
    }

    ID3D12PipelineState *pipeline(ID3D12RootSignature *rs, const char *name)
    {
        std::vector<char> cs = fixture(name);
        CHECK(cs.size() > 100);
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        ID3D12PipelineState *pso = nullptr;
        CHECK_HR(dev->CreateComputePipelineState(&d, IID_PPV_ARGS(&pso)), S_OK);
        return pso;
    }
};

static void test_copy(Gpu &g)
{
    D3D12_ROOT_PARAMETER1 p[2] = {root_uav(0), root_uav(1)};
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(p, 2);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "copy.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> src(128), dst(130, 0xDEAD);
    for (uint32_t i = 0; i < 128; i++) src[i] = 1000 + 7 * i;
    Com<ID3D12Resource> up0, up1, bsrc, bdst;
    bsrc.p = g.uav_buffer(src, up0);
    bdst.p = g.uav_buffer(dst, up1);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootUnorderedAccessView(0, bsrc->GetGPUVirtualAddress());
    g.list->SetComputeRootUnorderedAccessView(1, bdst->GetGPUVirtualAddress());
    Com<ID3D12QueryHeap> stats;
    D3D12_QUERY_HEAP_DESC qd = {D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1, 0};
    CHECK_HR(g.dev->CreateQueryHeap(&qd, IID_PPV_ARGS(&stats)), S_OK);
    g.list->BeginQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    g.list->Dispatch(2, 1, 1);
    g.list->EndQuery(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
    Com<ID3D12Resource> results;
    results.p = g.buffer(D3D12_HEAP_TYPE_READBACK, sizeof(D3D12_QUERY_DATA_PIPELINE_STATISTICS),
                         D3D12_RESOURCE_STATE_COPY_DEST);
    g.list->ResolveQueryData(stats, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, results, 0);
    std::vector<uint32_t> out = g.read(bdst, 130);
    D3D12_QUERY_DATA_PIPELINE_STATISTICS *ps = nullptr;
    CHECK_HR(results->Map(0, nullptr, reinterpret_cast<void **>(&ps)), S_OK);
    if (ps) {
        CHECK_EQ(ps->CSInvocations, 128u);  // 2 groups of 64 threads
        CHECK_EQ(ps->VSInvocations, 0u);
        CHECK_EQ(ps->PSInvocations, 0u);
    }
    unsigned bad = 0;
    for (uint32_t i = 0; i < 128; i++) bad += out[i] != src[i] * 3 + i;
    CHECK_EQ(bad, 0u);
    CHECK_EQ(out[5], 1035u * 3 + 5);
    CHECK_EQ(out[128], 0xDEADu);
    CHECK_EQ(out[129], 0xDEADu);
}

static void test_reduce(Gpu &g)
{
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p = table(&r, 1);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "reduce.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> src(192), dst(3, 0);
    for (uint32_t i = 0; i < 192; i++) src[i] = i * i;
    Com<ID3D12Resource> up0, up1, bsrc, bdst;
    bsrc.p = g.uav_buffer(src, up0);
    bdst.p = g.uav_buffer(dst, up1);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 8, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    UINT inc = g.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    // The table starts at descriptor 5.
    D3D12_CPU_DESCRIPTOR_HANDLE c = heap->GetCPUDescriptorHandleForHeapStart();
    raw_uav(g.dev, bsrc, 192, {c.ptr + 5 * inc});
    raw_uav(g.dev, bdst, 3, {c.ptr + 6 * inc});
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    D3D12_GPU_DESCRIPTOR_HANDLE t = heap->GetGPUDescriptorHandleForHeapStart();
    t.ptr += 5 * inc;
    g.list->SetComputeRootDescriptorTable(0, t);
    g.list->Dispatch(3, 1, 1);
    std::vector<uint32_t> out = g.read(bdst, 3);
    CHECK_EQ(out[0], 85344u);
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t sum = 0;
        for (uint32_t i = 64 * k; i < 64 * (k + 1); i++) sum += i * i;
        CHECK_EQ(out[k], sum);
    }
}

static void test_image(Gpu &g)
{
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p = table(&r, 1);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "image.cs.dxil");
    if (!pso) return;
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = 16;
    d.Height = 8;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS;
    D3D12_HEAP_PROPERTIES hp = {};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    Com<ID3D12Resource> tex;
    CHECK_HR(g.dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
                                            nullptr, IID_PPV_ARGS(&tex)),
             S_OK);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    g.dev->CreateUnorderedAccessView(tex, nullptr, nullptr, heap->GetCPUDescriptorHandleForHeapStart());
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->Dispatch(2, 1, 1);
    // Copy the texture to a readback buffer (rows of 256 bytes).
    Com<ID3D12Resource> rb;
    rb.p = g.buffer(D3D12_HEAP_TYPE_READBACK, 8 * 256, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_RESOURCE_BARRIER b = {};
    b.Transition.pResource = tex;
    b.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    b.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
    b.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    g.list->ResourceBarrier(1, &b);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = rb;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    dst.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 16, 8, 1, 256};
    src.pResource = tex;
    src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    g.list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    g.run();
    unsigned char *px = nullptr;
    CHECK_HR(rb->Map(0, nullptr, reinterpret_cast<void **>(&px)), S_OK);
    if (!px) return;
    unsigned bad = 0;
    for (int y = 0; y < 8; y++)
        for (int x = 0; x < 16; x++) {
            const unsigned char *t = px + y * 256 + x * 4;
            bool ok = t[0] == x && t[1] == y && t[2] == 128 && t[3] == 255;
            if (!ok && bad++ < 4)
                fprintf(stderr, "image: texel (%d,%d) = %d %d %d %d\n", x, y, t[0], t[1], t[2], t[3]);
        }
    CHECK_EQ(bad, 0u);
}

static void test_atomic(Gpu &g)
{
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p[2] = {table(&r, 1), {}};
    p[1].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
    p[1].Constants.ShaderRegister = 2;
    p[1].Constants.Num32BitValues = 1;
    p[1].ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(p, 2);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "atomic.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> init(129, 0);
    Com<ID3D12Resource> up, buf;
    buf.p = g.uav_buffer(init, up);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    raw_uav(g.dev, buf, 129, heap->GetCPUDescriptorHandleForHeapStart());
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->SetComputeRoot32BitConstant(1, 100, 0);
    g.list->Dispatch(2, 1, 1);
    g.list->Dispatch(0, 1, 1);

    // ExecuteIndirect: records of (root constant `add`, dispatch x y z), 16 bytes each; three
    // records, the count buffer says 2: adds 1000 and 5000, one group of 32 each.
    D3D12_INDIRECT_ARGUMENT_DESC a[2] = {};
    a[0].Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT;
    a[0].Constant.RootParameterIndex = 1;
    a[0].Constant.DestOffsetIn32BitValues = 0;
    a[0].Constant.Num32BitValuesToSet = 1;
    a[1].Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    D3D12_COMMAND_SIGNATURE_DESC sd = {16, 2, a, 0};
    Com<ID3D12CommandSignature> sig;
    CHECK_HR(g.dev->CreateCommandSignature(&sd, rs, IID_PPV_ARGS(&sig)), S_OK);
    const uint32_t records[12] = {1000, 1, 1, 1, 5000, 1, 1, 1, 9999, 1, 1, 1};
    Com<ID3D12Resource> argbuf, countbuf, up2, up3;
    argbuf.p = g.uav_buffer(std::vector<uint32_t>(records, records + 12), up2);
    countbuf.p = g.uav_buffer(std::vector<uint32_t>{2}, up3);
    if (sig) g.list->ExecuteIndirect(sig, 3, argbuf, 0, countbuf, 0);

    std::vector<uint32_t> out = g.read(buf, 129);
    CHECK_EQ(out[0], 128u);
    std::vector<uint32_t> values(out.begin() + 1, out.end());
    std::sort(values.begin(), values.end());
    std::vector<uint32_t> want;
    for (uint32_t i = 0; i < 64; i++) want.push_back(100 + i);
    for (uint32_t i = 0; i < 32; i++) want.push_back(1000 + i);
    for (uint32_t i = 0; i < 32; i++) want.push_back(5000 + i);
    CHECK(values == want);
}

static void test_gather(Gpu &g)
{
    // t0 in a table, s0 a static point/clamp sampler, u1 a root UAV.
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 1, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p[2] = {table(&r, 1), root_uav(1)};
    D3D12_STATIC_SAMPLER_DESC ss = {};
    ss.Filter = D3D12_FILTER_MIN_MAG_MIP_POINT;
    ss.AddressU = ss.AddressV = ss.AddressW = D3D12_TEXTURE_ADDRESS_MODE_CLAMP;
    ss.MaxLOD = D3D12_FLOAT32_MAX;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 2;
    rd.Desc_1_1.pParameters = p;
    rd.Desc_1_1.NumStaticSamplers = 1;
    rd.Desc_1_1.pStaticSamplers = &ss;
    Com<ID3DBlob> blob, err;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, &err), S_OK);
    if (!blob) return;
    Com<ID3D12RootSignature> rs;
    CHECK_HR(g.dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)), S_OK);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "gather.cs.dxil");
    if (!pso) return;
    // The 2x2 RGBA8 texture: red, green (row 0), blue, white (row 1), uploaded by a copy.
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Width = 2;
    d.Height = 2;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    D3D12_HEAP_PROPERTIES hp = {};
    hp.Type = D3D12_HEAP_TYPE_DEFAULT;
    Com<ID3D12Resource> tex, up, out, upo;
    CHECK_HR(g.dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                            IID_PPV_ARGS(&tex)),
             S_OK);
    std::vector<uint32_t> rows(128, 0);
    rows[0] = 0xFF0000FF;  // red    (bytes 255 0 0 255)
    rows[1] = 0xFF00FF00;  // green
    rows[64] = 0xFFFF0000; // blue, row 1 at 256 bytes
    rows[65] = 0xFFFFFFFF; // white
    Com<ID3D12Resource> staging;
    staging.p = g.buffer(D3D12_HEAP_TYPE_UPLOAD, 512, D3D12_RESOURCE_STATE_GENERIC_READ);
    void *m = nullptr;
    CHECK_HR(staging->Map(0, nullptr, &m), S_OK);
    memcpy(m, rows.data(), 512);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = tex;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.pResource = staging;
    src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    src.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, 2, 2, 1, 256};
    g.list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    out.p = g.uav_buffer(std::vector<uint32_t>(16, 0), upo);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    g.dev->CreateShaderResourceView(tex, nullptr, heap->GetCPUDescriptorHandleForHeapStart());
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->SetComputeRootUnorderedAccessView(1, out->GetGPUVirtualAddress());
    g.list->Dispatch(1, 1, 1);
    std::vector<uint32_t> got = g.read(out, 16);
    // Thread i gathers channel i at the texture's center: (-u,+v) blue, (+u,+v) white,
    // (+u,-v) green, (-u,-v) red.
    const float want[16] = {0, 1, 0, 1, 0, 1, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1};
    unsigned bad = 0;
    for (int i = 0; i < 16; i++) {
        float f;
        memcpy(&f, &got[i], 4);
        bad += f != want[i];
    }
    CHECK_EQ(bad, 0u);
}

// 8. Doubles and 64-bit integers (wide.cs from GLSL with GL_ARB_gpu_shader_int64), as
//    OPTIONS.DoublePrecisionFloatShaderOps and OPTIONS1.Int64ShaderOps report: a = 1.5,
//    b = -0.25, x = 0x1_0000_0003, y = 7 give a+b 1.25, a*b -0.375, a/b -6, fma(a,b,a) 1.125,
//    min -0.25, double(float(a)) 1.5; x+y 0x1_0000_000A, x*y 0x7_0000_0015, x>>3 0x2000_0000,
//    x/y 613566757, uint64(a) 1 (std430: a@0 b@8 x@16 y@24 d[6]@32 q[5]@80).
static void test_wide(Gpu &g)
{
    D3D12_FEATURE_DATA_D3D12_OPTIONS o = {};
    CHECK_HR(g.dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o), S_OK);
    CHECK_EQ(o.DoublePrecisionFloatShaderOps, TRUE);
    D3D12_FEATURE_DATA_D3D12_OPTIONS1 o1 = {};
    CHECK_HR(g.dev->CheckFeatureSupport(D3D12_FEATURE_D3D12_OPTIONS1, &o1, sizeof o1), S_OK);
    CHECK_EQ(o1.Int64ShaderOps, TRUE);
    CHECK_EQ(o1.ExpandedComputeResourceStates, TRUE);
    // Wave intrinsics execute: waves of 4 (pixel quads) to 128 lanes ([WaveSize]).
    CHECK_EQ(o1.WaveOps, TRUE);
    CHECK_EQ(o1.WaveLaneCountMin, 4u);
    CHECK_EQ(o1.WaveLaneCountMax, 128u);
    CHECK(o1.TotalLaneCount >= 8 && o1.TotalLaneCount % 8 == 0);
    D3D12_ROOT_PARAMETER1 p = root_uav(0);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "wide.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> io(30, 0);
    const double a = 1.5, b = -0.25;
    const uint64_t x = 0x100000003ull, y = 7;
    memcpy(&io[0], &a, 8);
    memcpy(&io[2], &b, 8);
    memcpy(&io[4], &x, 8);
    memcpy(&io[6], &y, 8);
    Com<ID3D12Resource> up, buf;
    buf.p = g.uav_buffer(io, up);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootUnorderedAccessView(0, buf->GetGPUVirtualAddress());
    g.list->Dispatch(1, 1, 1);
    std::vector<uint32_t> out = g.read(buf, 30);
    double d[6];
    uint64_t q[5];
    memcpy(d, &out[8], sizeof d);
    memcpy(q, &out[20], sizeof q);
    const double wd[6] = {1.25, -0.375, -6.0, 1.125, -0.25, 1.5};
    const uint64_t wq[5] = {0x10000000Aull, 0x700000015ull, 0x20000000ull, 613566757ull, 1};
    CHECK(memcmp(d, wd, sizeof d) == 0);
    CHECK(memcmp(q, wq, sizeof q) == 0);
}

// length.cs (from GLSL .length() of two storage buffers' unsized arrays): a raw buffer's
// GetDimensions is its size in bytes, as ByteAddressBuffer::GetDimensions documents. u0 holds
// a uint and then uints (10 words: (40 - 4) / 4 = 9 elements), u1 uvec4s (12 words: 48 / 16 =
// 3); the shader stores 9 * 1000 + 3 in u0's first word.
static void test_length(Gpu &g)
{
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p = table(&r, 1);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "length.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> a(16, 0), b(12, 0);
    Com<ID3D12Resource> up0, up1, ba, bb;
    ba.p = g.uav_buffer(a, up0);
    bb.p = g.uav_buffer(b, up1);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    UINT inc = g.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE c = heap->GetCPUDescriptorHandleForHeapStart();
    raw_uav(g.dev, ba, 10, c);
    raw_uav(g.dev, bb, 12, {c.ptr + inc});
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->Dispatch(1, 1, 1);
    std::vector<uint32_t> out = g.read(ba, 1);
    CHECK_EQ(out[0], 9003u);
}

int main()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Gpu g;
            g.init(dev);
            test_copy(g);
            test_reduce(g);
            test_image(g);
            test_atomic(g);
            test_gather(g);
            test_wide(g);
            test_length(g);
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("compute_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
