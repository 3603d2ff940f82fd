// tests/abi/tdr.cpp - the GPU timeout (Windows' TDR) on the CPU backend, through the C ABI.
//
// On Windows a GPU that runs one piece of work too long is reset: the device is removed with
// DXGI_ERROR_DEVICE_HUNG, its fences complete (UINT64_MAX), and the debug layer reports the
// removal (#232 DEVICE_REMOVAL_PROCESS_AT_FAULT). rd3d12 gives every draw and dispatch the
// queue's timeout: RD3D12_TDR_DELAY seconds (set to 0.2 here, before the device exists), none
// on a queue created with D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT.
//
// Shaders (tests/fixtures/dxil, Mesa's spirv_to_dxil, u0 a raw UAV):
//   spin.cs.dxil: acc += k ^ (acc >> 3) for k < v[0], stored to v[1] (finite);
//   hang.cs.dxil: loops while v[0] == 0 (endless over zeroed memory).
// Checked:
//   1. a short spin on a timed queue finishes, with the value recomputed here;
//   2. a spin longer than the timeout on a DISABLE_GPU_TIMEOUT queue finishes too (and the
//      test checks that it did run longer than 0.2 s, else it would prove nothing);
//   3. the endless loop on a timed queue: the fence's event fires, GetCompletedValue is
//      UINT64_MAX, GetDeviceRemovedReason is DXGI_ERROR_DEVICE_HUNG, creation fails with
//      DXGI_ERROR_DEVICE_REMOVED, the info queue holds #232 (EXECUTION, ERROR), and an event
//      set at UINT64_MAX beforehand (the documented removal callback) fires;
//      the list submitted after the hanging one in the same call does not run.
//
// The last line is "tdr_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <chrono>
#include <fstream>
#include <iterator>
#include <poll.h>
#include <string>
#include <sys/eventfd.h>
#include <unistd.h>
#include <vector>

static const HRESULT HUNG = (HRESULT)0x887A0006;    // DXGI_ERROR_DEVICE_HUNG
static const HRESULT REMOVED = (HRESULT)0x887A0005; // DXGI_ERROR_DEVICE_REMOVED


static ID3D12Resource *buffer(ID3D12Device *dev, D3D12_HEAP_TYPE t, UINT64 size, D3D12_RESOURCE_STATES st,
                              bool uav)
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

// One queue with its list, fence and eventfd.
struct Queue {
    ID3D12CommandQueue *q = nullptr;
    ID3D12CommandAllocator *alloc = nullptr;
    ID3D12GraphicsCommandList *list = nullptr;
    ID3D12Fence *fence = nullptr;
    int event = eventfd(0, EFD_CLOEXEC);
    UINT64 value = 0;

    Queue(ID3D12Device *dev, D3D12_COMMAND_QUEUE_FLAGS flags)
    {
        D3D12_COMMAND_QUEUE_DESC qd = {};
        qd.Type = D3D12_COMMAND_LIST_TYPE_COMPUTE;
        qd.Flags = flags;
        CHECK_HR(dev->CreateCommandQueue(&qd, IID_PPV_ARGS(&q)), S_OK);
        CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&alloc)), S_OK);
        CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, alloc, nullptr, IID_PPV_ARGS(&list)),
                 S_OK);
        CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);
    }
    ~Queue()
    {
        list->Release();
        alloc->Release();
        fence->Release();
        q->Release();
        close(event);
    }

    // Executes the list (and `then`, when given, in the same call), signals, and waits for the
    // event for at most `limit_s` seconds; returns the seconds waited (-1: the event never came).
    double run(double limit_s, ID3D12CommandList *then = nullptr)
    {
        CHECK_HR(list->Close(), S_OK);
        ID3D12CommandList *lists[2] = {list, then};
        auto start = std::chrono::steady_clock::now();
        q->ExecuteCommandLists(then ? 2 : 1, lists);
        q->Signal(fence, ++value);
        CHECK_HR(fence->SetEventOnCompletion(value, (HANDLE)(intptr_t)event), S_OK);
        pollfd p = {event, POLLIN, 0};
        int got = poll(&p, 1, (int)(limit_s * 1000));
        double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (got != 1)
            return -1;
        uint64_t v;
        CHECK_EQ(read(event, &v, sizeof v), (ssize_t)sizeof v);
        return waited;
    }

    void reset()
    {
        CHECK_HR(alloc->Reset(), S_OK);
        CHECK_HR(list->Reset(alloc, nullptr), S_OK);
    }
};

// The spin shader's result for `n` iterations, as the shader computes it.
static uint32_t spin(uint32_t n)
{
    uint32_t acc = 0;
    for (uint32_t k = 0; k < n; k++)
        acc += k ^ (acc >> 3);
    return acc;
}

// Runs the spin shader for `n` iterations on `q`; returns the seconds it took (-1: timeout of
// the wait itself) and checks the stored value.
static double run_spin(ID3D12Device *dev, Queue &q, ID3D12RootSignature *rs, ID3D12PipelineState *pso, uint32_t n)
{
    ID3D12Resource *b = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ, false);
    ID3D12Resource *u = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON, true);
    ID3D12Resource *rb = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST, false);
    uint32_t *p = nullptr;
    CHECK_HR(b->Map(0, nullptr, (void **)&p), S_OK);
    p[0] = n;
    p[1] = 0xDEAD;
    auto barrier = [&](D3D12_RESOURCE_STATES from, D3D12_RESOURCE_STATES to) {
        D3D12_RESOURCE_BARRIER br = {};
        br.Type = D3D12_RESOURCE_BARRIER_TYPE_TRANSITION;
        br.Transition.pResource = u;
        br.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        br.Transition.StateBefore = from;
        br.Transition.StateAfter = to;
        q.list->ResourceBarrier(1, &br);
    };
    q.list->CopyBufferRegion(u, 0, b, 0, 8);
    barrier(D3D12_RESOURCE_STATE_COPY_DEST, D3D12_RESOURCE_STATE_UNORDERED_ACCESS);
    q.list->SetComputeRootSignature(rs);
    q.list->SetPipelineState(pso);
    q.list->SetComputeRootUnorderedAccessView(0, u->GetGPUVirtualAddress());
    q.list->Dispatch(1, 1, 1);
    barrier(D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_COPY_SOURCE);
    q.list->CopyBufferRegion(rb, 0, u, 0, 8);
    double t = q.run(120);
    CHECK(t >= 0);
    uint32_t *r = nullptr;
    CHECK_HR(rb->Map(0, nullptr, (void **)&r), S_OK);
    set_ctx("spin n=%u", n);
    CHECK_EQ(r[1], spin(n));
    set_ctx("%s", "");
    q.reset();
    b->Release();
    u->Release();
    rb->Release();
    return t;
}

int main()
{
    setenv("RD3D12_TDR_DELAY", "0.2", 1);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12Debug *debug = nullptr;
    CHECK_HR(D3D12GetDebugInterface(IID_PPV_ARGS(&debug)), S_OK);
    if (debug) {
        debug->EnableDebugLayer();
        debug->Release();
    }
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (!dev) {
        printf("tdr_cpp: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }
    ID3D12InfoQueue *iq = nullptr;
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&iq)), S_OK);

    D3D12_ROOT_PARAMETER1 param = {};
    param.ParameterType = D3D12_ROOT_PARAMETER_TYPE_UAV;
    param.ShaderVisibility = D3D12_SHADER_VISIBILITY_ALL;
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rd = {};
    rd.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    rd.Desc_1_1.NumParameters = 1;
    rd.Desc_1_1.pParameters = &param;
    ID3DBlob *blob = nullptr;
    CHECK_HR(D3D12SerializeVersionedRootSignature(&rd, &blob, nullptr), S_OK);
    ID3D12RootSignature *rs = nullptr;
    CHECK_HR(dev->CreateRootSignature(0, blob->GetBufferPointer(), blob->GetBufferSize(), IID_PPV_ARGS(&rs)), S_OK);
    blob->Release();
    ID3D12PipelineState *spin_pso = nullptr, *hang_pso = nullptr;
    for (auto [name, pso] : {std::pair{"spin.cs.dxil", &spin_pso}, std::pair{"hang.cs.dxil", &hang_pso}}) {
        std::vector<char> cs = fixture(name);
        CHECK(cs.size() > 100);
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        CHECK_HR(dev->CreateComputePipelineState(&d, IID_PPV_ARGS(pso)), S_OK);
    }
    if (!spin_pso || !hang_pso) {
        printf("tdr_cpp: %u passed, %u failed\n", g_passed, g_failed);
        return 1;
    }

    {
        // 1. Ordinary work on a timed queue is untouched.
        Queue timed(dev, D3D12_COMMAND_QUEUE_FLAG_NONE);
        run_spin(dev, timed, rs, spin_pso, 1000);
        CHECK_HR(dev->GetDeviceRemovedReason(), S_OK);

        // 2. Past the timeout, on a queue without one.
        Queue untimed(dev, D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT);
        // About 360 million steps: a second of the JIT's code, longer in the interpreter
        // (RD3D12_SHADER=interp), well inside the step budget (2^32) of a queue without a timeout.
        uint32_t n = 40000000;
        double t = run_spin(dev, untimed, rs, spin_pso, n);
        set_ctx("the long spin took %.3f s", t);
        CHECK(t > 0.2); // it must outlast the timeout, or this proves nothing
        set_ctx("%s", "");
        CHECK_HR(dev->GetDeviceRemovedReason(), S_OK);

        // 3. The endless loop on the timed queue; a second list after it in the same call
        // (a copy into a readback buffer) must not run.
        ID3D12Resource *u = buffer(dev, D3D12_HEAP_TYPE_DEFAULT, 256, D3D12_RESOURCE_STATE_COMMON, true);
        ID3D12Resource *src = buffer(dev, D3D12_HEAP_TYPE_UPLOAD, 256, D3D12_RESOURCE_STATE_GENERIC_READ, false);
        ID3D12Resource *rb = buffer(dev, D3D12_HEAP_TYPE_READBACK, 256, D3D12_RESOURCE_STATE_COPY_DEST, false);
        uint32_t *s = nullptr;
        CHECK_HR(src->Map(0, nullptr, (void **)&s), S_OK);
        s[0] = 0x600D;
        ID3D12CommandAllocator *a2 = nullptr;
        ID3D12GraphicsCommandList *after = nullptr;
        CHECK_HR(dev->CreateCommandAllocator(D3D12_COMMAND_LIST_TYPE_COMPUTE, IID_PPV_ARGS(&a2)), S_OK);
        CHECK_HR(dev->CreateCommandList(0, D3D12_COMMAND_LIST_TYPE_COMPUTE, a2, nullptr, IID_PPV_ARGS(&after)), S_OK);
        after->CopyBufferRegion(rb, 0, src, 0, 4);
        CHECK_HR(after->Close(), S_OK);

        // The documented device-removal callback: an event at UINT64_MAX on any fence.
        int removed_ev = eventfd(0, EFD_CLOEXEC);
        CHECK_HR(untimed.fence->SetEventOnCompletion(UINT64_MAX, (HANDLE)(intptr_t)removed_ev), S_OK);
        pollfd rp = {removed_ev, POLLIN, 0};
        CHECK_EQ(poll(&rp, 1, 0), 0); // not before the hang

        timed.list->SetComputeRootSignature(rs);
        timed.list->SetPipelineState(hang_pso);
        timed.list->SetComputeRootUnorderedAccessView(0, u->GetGPUVirtualAddress());
        timed.list->Dispatch(1, 1, 1);
        UINT64 before = iq->GetNumStoredMessages();
        double waited = timed.run(60, after);
        set_ctx("the hang was stopped after %.3f s", waited);
        CHECK(waited >= 0.2 && waited < 30);
        set_ctx("%s", "");
        CHECK_EQ(poll(&rp, 1, 5000), 1); // the removal callback fired
        close(removed_ev);
        CHECK_EQ(timed.fence->GetCompletedValue(), UINT64_MAX);
        CHECK_EQ(untimed.fence->GetCompletedValue(), UINT64_MAX);
        CHECK_HR(dev->GetDeviceRemovedReason(), HUNG);
        ID3D12Resource *none = nullptr;
        D3D12_HEAP_PROPERTIES h = {D3D12_HEAP_TYPE_DEFAULT};
        D3D12_RESOURCE_DESC d = rb->GetDesc();
        CHECK_HR(dev->CreateCommittedResource(&h, D3D12_HEAP_FLAG_NONE, &d, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                              IID_PPV_ARGS(&none)),
                 REMOVED);
        uint32_t *r = nullptr;
        if (rb->Map(0, nullptr, (void **)&r) == S_OK) {
            CHECK_EQ(r[0], 0u); // the copy after the hang never ran
            rb->Unmap(0, nullptr);
        }
        // The debug layer's removal message.
        bool found = false;
        for (UINT64 i = before; i < iq->GetNumStoredMessages(); i++) {
            SIZE_T len = 0;
            CHECK_HR(iq->GetMessage(i, nullptr, &len), S_OK);
            std::vector<char> m(len);
            D3D12_MESSAGE *msg = (D3D12_MESSAGE *)m.data();
            CHECK_HR(iq->GetMessage(i, msg, &len), S_OK);
            if (msg->ID == D3D12_MESSAGE_ID_DEVICE_REMOVAL_PROCESS_AT_FAULT) {
                found = true;
                CHECK_EQ(msg->Category, D3D12_MESSAGE_CATEGORY_EXECUTION);
                CHECK_EQ(msg->Severity, D3D12_MESSAGE_SEVERITY_ERROR);
                CHECK(strstr(msg->pDescription, "DXGI_ERROR_DEVICE_HUNG") != nullptr);
            }
        }
        CHECK(found);
        after->Release();
        a2->Release();
        u->Release();
        src->Release();
        rb->Release();
    }
    spin_pso->Release();
    hang_pso->Release();
    rs->Release();
    iq->Release();
    CHECK_EQ(dev->Release(), 0u);
    printf("tdr_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
