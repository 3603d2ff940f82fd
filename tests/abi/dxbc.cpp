// tests/abi/dxbc.cpp - DXBC (fxc's shader model 5.x bytecode) compute pipelines executed by the
// CPU backend, through the C ABI from C++.
//
// The shaders are tests/fixtures/dxbc/*.dxbc, assembled from the *.asm beside them by the
// shader crate's DXBC assembler (there is no fxc on Linux; the shader crate's tests check the
// blobs are their sources assembled). Checked after copying the results to readback buffers:
//   1. copy (cs_5_0, 64 threads a group, 2 groups): dst[i] = src[i] * 3 + i with src at u0
//      and dst at u1 bound as root UAVs given by a separate root signature; the word past the
//      dispatched threads keeps its value;
//   2. reduce (cs_5_1: one UAV range U0[0:1] in space 0, reached by a descriptor table;
//      groupshared memory, barriers in a loop; 3 groups): dst[g] = the sum of
//      src[64g .. 64g+63] with src[i] = i * i (group 0: 85344, worked by hand as
//      63 * 64 * 127 / 6);
//   3. append (cs_5_0 with its root signature embedded as RTS0, no root signature in the
//      desc; 32 threads, 2 groups): every thread takes a slot with an atomic add on word 0 and
//      writes its id + 100 there: the counter ends at 64 and the values are 100..163 in some
//      order;
//   4. refusals: dcl_thread_group in a cs_4_0 program (an instruction of a later shader model),
//      a loop without its endloop, a call cycle (bad_recursion.cs.dxbc), and a blob whose bytes
//      were changed after its checksum was sealed each make CreateComputePipelineState return
//      E_INVALIDARG with D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE from the
//      debug layer;
//   5. doubles (cs_5_0, 64 threads): a subroutine computes double(src[i]) * 1.5 + 0.25 with
//      dfma; dst holds each double as two words, low first (src[i] = 1000 + 7i: 1500.25 for
//      thread 0, all exact in double).
//
// The last line is "dxbc_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

// The bytes of tests/fixtures/dxbc/`name` (common.hpp's fixture() reads tests/fixtures/dxil/).
static std::vector<char> dxbc(const char *name)
{
    return fixture((std::string("../dxbc/") + name).c_str());
}

struct Gpu : GpuBase {
    Com<ID3D12InfoQueue> iq;

    void init(ID3D12Device *d)
    {
        GpuBase::init(d, D3D12_COMMAND_LIST_TYPE_COMPUTE);
        d->QueryInterface(IID_PPV_ARGS(&iq));
    }

    // A UAV buffer holding `words`, uploaded through a copy (run at once: the buffer decays to
    // COMMON, from which the dispatch promotes it to UNORDERED_ACCESS).
    ID3D12Resource *uav_buffer(const std::vector<uint32_t> &words, Com<ID3D12Resource> &upload)
    {
        UINT64 size = words.size() * 4;
        ID3D12Resource *b = buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON, true);
        upload.p = buffer(D3D12_HEAP_TYPE_UPLOAD, size, D3D12_RESOURCE_STATE_GENERIC_READ);
        void *p = nullptr;
        CHECK_HR(upload->Map(0, nullptr, &p), S_OK);
        memcpy(p, words.data(), size);
        list->CopyBufferRegion(b, 0, upload, 0, size);
        run();
        return b;
    }

    // The words of a UAV buffer (in UNORDERED_ACCESS after a dispatch), copied to a readback
    // buffer.
    std::vector<uint32_t> read(ID3D12Resource *b, size_t n)
    {
        D3D12_RESOURCE_BARRIER rbar = {};
        rbar.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        rbar.Transition.pResource = b;
        rbar.Transition.StateBefore = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
        rbar.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
        list->ResourceBarrier(1, &rbar);
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

    HRESULT try_pipeline(ID3D12RootSignature *rs, const std::vector<char> &cs, ID3D12PipelineState **pso)
    {
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        return dev->CreateComputePipelineState(&d, IID_PPV_ARGS(pso));
    }

    ID3D12PipelineState *pipeline(ID3D12RootSignature *rs, const char *name)
    {
        ID3D12PipelineState *pso = nullptr;
        CHECK_HR(try_pipeline(rs, dxbc(name), &pso), S_OK);
        return pso;
    }

    // Dispatches `groups` groups of compute shader `name` with root UAVs u0 = `src` and u1 =
    // `dst` (raw buffers made from the words) and returns what u1 holds after (empty when the
    // pipeline was not created).
    std::vector<uint32_t> src_to_dst(const char *name, const std::vector<uint32_t> &src,
                                     const std::vector<uint32_t> &dst, UINT groups)
    {
        D3D12_ROOT_PARAMETER1 p[2] = {root_uav(0), root_uav(1)};
        Com<ID3D12RootSignature> rs;
        rs.p = root_signature(p, 2);
        Com<ID3D12PipelineState> pso;
        pso.p = pipeline(rs, name);
        if (!pso) return {};
        Com<ID3D12Resource> up0, up1, bsrc, bdst;
        bsrc.p = uav_buffer(src, up0);
        bdst.p = uav_buffer(dst, up1);
        list->SetComputeRootSignature(rs);
        list->SetPipelineState(pso);
        list->SetComputeRootUnorderedAccessView(0, bsrc->GetGPUVirtualAddress());
        list->SetComputeRootUnorderedAccessView(1, bdst->GetGPUVirtualAddress());
        list->Dispatch(groups, 1, 1);
        return read(bdst, dst.size());
    }

    // Whether the last stored message is an error with `id`; the queue is cleared.
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

static void test_copy(Gpu &g)
{
    set_ctx("copy");
    std::vector<uint32_t> src(128), dst(130, 0xDEAD);
    for (uint32_t i = 0; i < 128; i++) src[i] = 1000 + 7 * i;
    std::vector<uint32_t> out = g.src_to_dst("copy.cs.dxbc", src, dst, 2);
    if (out.empty()) return;
    unsigned bad = 0;
    for (uint32_t i = 0; i < 128; i++) bad += out[i] != src[i] * 3 + i;
    CHECK_EQ(bad, 0u);
    CHECK_EQ(out[5], 1035u * 3 + 5);
    CHECK_EQ(out[127], (1000u + 7 * 127) * 3 + 127);
    CHECK_EQ(out[128], 0xDEADu);
}

static void test_doubles(Gpu &g)
{
    set_ctx("doubles");
    std::vector<uint32_t> src(64), dst(128, 0);
    for (uint32_t i = 0; i < 64; i++) src[i] = 1000 + 7 * i;
    std::vector<uint32_t> out = g.src_to_dst("doubles.cs.dxbc", src, dst, 1);
    if (out.empty()) return;
    unsigned bad = 0;
    for (uint32_t i = 0; i < 64; i++) {
        double d;
        memcpy(&d, &out[2 * i], 8);
        bad += d != (1000.0 + 7 * i) * 1.5 + 0.25;
    }
    CHECK_EQ(bad, 0u);
    // 1500.25 = 0x40977100_00000000; thread 63: (1000 + 441) * 1.5 + 0.25 = 2161.75.
    CHECK_EQ(out[0], 0u);
    CHECK_EQ(out[1], 0x40977100u);
    double last;
    memcpy(&last, &out[126], 8);
    CHECK(last == 2161.75);
}

// Committed memory starts zeroed (no D3D12_HEAP_FLAG_CREATE_NOT_ZEROED), also when it is the
// memory of a released buffer that only a shader wrote (no map, copy or clear touched it).
static void test_recycled_memory_is_zero(Gpu &g)
{
    set_ctx("recycled memory");
    D3D12_ROOT_PARAMETER1 p[2] = {root_uav(0), root_uav(1)};
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(p, 2);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "copy.cs.dxbc");
    if (!pso) return;
    std::vector<uint32_t> src(64);
    for (uint32_t i = 0; i < 64; i++) src[i] = 1 + i;
    Com<ID3D12Resource> up0, bsrc;
    bsrc.p = g.uav_buffer(src, up0);
    const UINT64 size = 65536;
    for (int round = 0; round < 3; round++) {
        Com<ID3D12Resource> dst;
        dst.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
        if (!dst) return;
        if (round > 0) {
            // The buffer before was written by the shader alone and released: this one reads 0.
            std::vector<uint32_t> fresh = g.read(dst, 64);
            unsigned nonzero = 0;
            for (uint32_t v : fresh) nonzero += v != 0;
            CHECK_EQ(nonzero, 0u);
            D3D12_RESOURCE_BARRIER back = {};
            back.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
            back.Transition.pResource = dst;
            back.Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_SOURCE;
            back.Transition.StateAfter = D3D12_RESOURCE_STATE_UNORDERED_ACCESS;
            g.list->ResourceBarrier(1, &back);
        }
        g.list->SetComputeRootSignature(rs);
        g.list->SetPipelineState(pso);
        g.list->SetComputeRootUnorderedAccessView(0, bsrc->GetGPUVirtualAddress());
        g.list->SetComputeRootUnorderedAccessView(1, dst->GetGPUVirtualAddress());
        g.list->Dispatch(1, 1, 1);
        g.run();
    }
}

static void test_reduce(Gpu &g)
{
    set_ctx("reduce");
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p = table(&r, 1);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "reduce.cs.dxbc");
    if (!pso) return;
    std::vector<uint32_t> src(192), dst(3, 0);
    for (uint32_t i = 0; i < 192; i++) src[i] = i * i;
    Com<ID3D12Resource> up0, up1, bsrc, bdst;
    bsrc.p = g.uav_buffer(src, up0);
    bdst.p = g.uav_buffer(dst, up1);
    Com<ID3D12DescriptorHeap> heap;
    D3D12_DESCRIPTOR_HEAP_DESC hd = {D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE, 0};
    CHECK_HR(g.dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    UINT inc = g.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE c = heap->GetCPUDescriptorHandleForHeapStart();
    raw_uav(g.dev, bsrc, 192, {c.ptr + 1 * inc});
    raw_uav(g.dev, bdst, 3, {c.ptr + 2 * inc});
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    D3D12_GPU_DESCRIPTOR_HANDLE t = heap->GetGPUDescriptorHandleForHeapStart();
    t.ptr += 1 * inc;
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

static void test_append(Gpu &g)
{
    set_ctx("append");
    // No root signature in the desc: the shader's RTS0 (a root UAV at u0) is used; the list
    // binds a root signature made from the same blob.
    std::vector<char> cs = dxbc("append.cs.dxbc");
    Com<ID3D12RootSignature> rs;
    CHECK_HR(g.dev->CreateRootSignature(0, cs.data(), cs.size(), IID_PPV_ARGS(&rs)), S_OK);
    Com<ID3D12PipelineState> pso;
    CHECK_HR(g.try_pipeline(nullptr, cs, &pso), S_OK);
    if (!pso || !rs) return;
    std::vector<uint32_t> words(65, 0);
    Com<ID3D12Resource> up, b;
    b.p = g.uav_buffer(words, up);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootUnorderedAccessView(0, b->GetGPUVirtualAddress());
    g.list->Dispatch(2, 1, 1);
    std::vector<uint32_t> out = g.read(b, 65);
    CHECK_EQ(out[0], 64u);
    std::vector<uint32_t> vals(out.begin() + 1, out.end());
    std::sort(vals.begin(), vals.end());
    unsigned bad = 0;
    for (uint32_t i = 0; i < 64; i++) bad += vals[i] != 100 + i;
    CHECK_EQ(bad, 0u);
}

static void test_refused(Gpu &g)
{
    set_ctx("refused");
    D3D12_ROOT_PARAMETER1 p = root_uav(0);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    g.last_message_is(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE);  // clears
    ID3D12PipelineState *pso = reinterpret_cast<ID3D12PipelineState *>(SENTINEL);
    CHECK_HR(g.try_pipeline(rs, dxbc("bad_model.cs.dxbc"), &pso), E_INVALIDARG);
    CHECK(pso == nullptr);
    CHECK(g.last_message_is(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE));
    // Unbalanced control flow: a loop without its endloop.
    pso = nullptr;
    CHECK_HR(g.try_pipeline(rs, dxbc("bad_flow.cs.dxbc"), &pso), E_INVALIDARG);
    CHECK(pso == nullptr);
    CHECK(g.last_message_is(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE));
    // A call cycle: l0 calls l1, which calls l0.
    pso = nullptr;
    CHECK_HR(g.try_pipeline(rs, dxbc("bad_recursion.cs.dxbc"), &pso), E_INVALIDARG);
    CHECK(pso == nullptr);
    CHECK(g.last_message_is(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE));
    // copy.cs.dxbc with its last instruction (ret) made an unknown opcode: the container's
    // checksum no longer matches, which D3D12 refuses before reading the program.
    std::vector<char> cs = dxbc("copy.cs.dxbc");
    uint32_t unknown = 0x010007ff;
    memcpy(&cs[cs.size() - 4], &unknown, 4);
    pso = nullptr;
    CHECK_HR(g.try_pipeline(rs, cs, &pso), E_INVALIDARG);
    CHECK(pso == nullptr);
    CHECK(g.last_message_is(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE));
    if (pso) pso->Release();
}

int main()
{
    {
        Com<ID3D12Debug> debug;
        CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
        if (debug) debug->EnableDebugLayer();
    }
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Gpu g;
            g.init(dev);
            test_copy(g);
            test_reduce(g);
            test_append(g);
            test_refused(g);
            test_doubles(g);
            test_recycled_memory_is_zero(g);
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    printf("dxbc_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
