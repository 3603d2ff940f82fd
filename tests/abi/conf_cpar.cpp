// tests/abi/conf_cpar.cpp - work the CPU backend spreads over its worker threads (issue #20):
// dispatches of many thread groups, and copies, clears and resolves large enough to be split.
// Every result is checked against values worked out by hand, byte for byte.
//
// The program runs its checks twice: first with the default pool (RD3D12_THREADS unset, one
// worker per core), then it runs itself again with RD3D12_THREADS=1 (every piece of work on
// the queue's thread, in order) and counts that run's exit status as one more check. Both runs
// must find the same hand-worked values, so the split work equals the one-thread work.
//
//   1. copy.cs, 64 groups of 64 threads over root UAVs: dst[i] = src[i] * 3 + i for the 4096
//      threads (src[i] = 1000 + 7i), the word past them untouched;
//   2. atomic.cs, 64 groups of 32 threads appending through one InterlockedAdd counter (word 0
//      of a raw UAV in a table) with root constant add = 100: the counter ends at 2048 and the
//      values are 100..2147, each once, whatever order the workers ran the groups in;
//   3. reduce.cs, 64 groups summing 64 words each through groupshared memory and barriers:
//      dst[g] = sum of (64g + k)^2 for k < 64;
//   4. CopyBufferRegion of 6 MiB + 7 bytes between odd offsets of two 8 MiB buffers, and
//      CopyResource of the whole buffer: byte i of the source pattern lands at i + shift;
//   5. CopyTextureRegion of a 1024x1024 RGBA8 texture from a placed footprint (4 MiB), a
//      600x500 box of it into another texture at (100, 200) (rows that are not contiguous),
//      both read back through footprints: every texel where the copies put it, zero elsewhere;
//   6. ClearRenderTargetView of a 1024x1024 RGBA8 target with a rect over the left half, then
//      ClearUnorderedAccessViewUint over an 8 MiB R32_UINT buffer: every texel and word;
//   7. ResolveSubresource of a 512x512 4x-multisampled RGBA8 target cleared to two colors
//      (top rows by a rect): every resolved texel is its rows' color.
//
// The last line is "conf_cpar_cpp: N passed, M failed"; the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include "check.h"
#include "common.hpp"

#include <algorithm>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

struct Gpu : GpuBase {

    ID3D12Resource *texture(UINT w, UINT h, UINT samples, D3D12_RESOURCE_FLAGS flags, D3D12_RESOURCE_STATES st)
    {
        D3D12_RESOURCE_DESC d = {};
        d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
        d.Width = w;
        d.Height = h;
        d.DepthOrArraySize = 1;
        d.MipLevels = 1;
        d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
        d.SampleDesc.Count = samples;
        d.Flags = flags;
        D3D12_HEAP_PROPERTIES hp = {};
        hp.Type = D3D12_HEAP_TYPE_DEFAULT;
        ID3D12Resource *r = nullptr;
        CHECK_HR(dev->CreateCommittedResource(&hp, D3D12_HEAP_FLAG_NONE, &d, st, nullptr, IID_PPV_ARGS(&r)), S_OK);
        return r;
    }

    // An upload buffer holding `bytes`.
    ID3D12Resource *upload(const std::vector<uint8_t> &bytes)
    {
        ID3D12Resource *b = buffer(D3D12_HEAP_TYPE_UPLOAD, bytes.size(), D3D12_RESOURCE_STATE_GENERIC_READ);
        void *p = nullptr;
        if (b && SUCCEEDED(b->Map(0, nullptr, &p))) {
            memcpy(p, bytes.data(), bytes.size());
            b->Unmap(0, nullptr);
        }
        return b;
    }

    // A UAV buffer holding `words`, uploaded through a copy (kept in `up`).
    ID3D12Resource *uav_buffer(const std::vector<uint32_t> &words, Com<ID3D12Resource> &up)
    {
        std::vector<uint8_t> bytes(words.size() * 4);
        memcpy(bytes.data(), words.data(), bytes.size());
        ID3D12Resource *b = buffer(D3D12_HEAP_TYPE_DEFAULT, bytes.size(), D3D12_RESOURCE_STATE_COMMON, true);
        up.p = upload(bytes);
        list->CopyBufferRegion(b, 0, up, 0, bytes.size());
        return b;
    }

    // `n` bytes of a buffer from byte `at`, through a readback buffer.
    std::vector<uint8_t> read_bytes(ID3D12Resource *b, UINT64 at, size_t n)
    {
        Com<ID3D12Resource> rb;
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, n, D3D12_RESOURCE_STATE_COPY_DEST);
        list->CopyBufferRegion(rb, 0, b, at, n);
        run();
        std::vector<uint8_t> out(n);
        void *p = nullptr;
        if (SUCCEEDED(rb->Map(0, nullptr, &p))) memcpy(out.data(), p, n);
        return out;
    }

    std::vector<uint32_t> read(ID3D12Resource *b, size_t words)
    {
        std::vector<uint8_t> bytes = read_bytes(b, 0, words * 4);
        std::vector<uint32_t> out(words);
        memcpy(out.data(), bytes.data(), words * 4);
        return out;
    }

    // A w x h RGBA8 texture's texels (subresource 0), through a footprint of rows of w * 4 bytes.
    std::vector<uint32_t> read_texture(ID3D12Resource *tex, UINT w, UINT h)
    {
        Com<ID3D12Resource> rb;
        rb.p = buffer(D3D12_HEAP_TYPE_READBACK, (UINT64)w * h * 4, D3D12_RESOURCE_STATE_COPY_DEST);
        D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
        dst.pResource = rb;
        dst.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
        dst.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, w, h, 1, w * 4};
        src.pResource = tex;
        src.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
        list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
        run();
        std::vector<uint32_t> out((size_t)w * h);
        void *p = nullptr;
        if (SUCCEEDED(rb->Map(0, nullptr, &p))) memcpy(out.data(), p, out.size() * 4);
        return out;
    }

    ID3D12PipelineState *pipeline(ID3D12RootSignature *rs, const char *name)
    {
        std::vector<char> cs = fixture(name);
        D3D12_COMPUTE_PIPELINE_STATE_DESC d = {};
        d.pRootSignature = rs;
        d.CS = {cs.data(), cs.size()};
        ID3D12PipelineState *pso = nullptr;
        CHECK_HR(dev->CreateComputePipelineState(&d, IID_PPV_ARGS(&pso)), S_OK);
        return pso;
    }

    ID3D12DescriptorHeap *heap(D3D12_DESCRIPTOR_HEAP_TYPE t, UINT n, bool visible)
    {
        D3D12_DESCRIPTOR_HEAP_DESC hd = {t, n, visible ? D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE
                                                       : D3D12_DESCRIPTOR_HEAP_FLAG_NONE, 0};
        ID3D12DescriptorHeap *h = nullptr;
        CHECK_HR(dev->CreateDescriptorHeap(&hd, IID_PPV_ARGS(&h)), S_OK);
        return h;
    }
};

static void test_copy_dispatch(Gpu &g)
{
    set_ctx("copy.cs x64");
    D3D12_ROOT_PARAMETER1 p[2] = {root_uav(0), root_uav(1)};
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(p, 2);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "copy.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> src(4096), dst(4097, 0xDEAD);
    for (uint32_t i = 0; i < 4096; i++) src[i] = 1000 + 7 * i;
    Com<ID3D12Resource> up0, up1, bsrc, bdst;
    bsrc.p = g.uav_buffer(src, up0);
    bdst.p = g.uav_buffer(dst, up1);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootUnorderedAccessView(0, bsrc->GetGPUVirtualAddress());
    g.list->SetComputeRootUnorderedAccessView(1, bdst->GetGPUVirtualAddress());
    g.list->Dispatch(64, 1, 1);
    std::vector<uint32_t> out = g.read(bdst, 4097);
    unsigned bad = 0;
    for (uint32_t i = 0; i < 4096; i++) bad += out[i] != src[i] * 3 + i;
    CHECK_EQ(bad, 0u);
    CHECK_EQ(out[4095], (1000u + 7 * 4095) * 3 + 4095);  // 97 000 by hand
    CHECK_EQ(out[4096], 0xDEADu);
}

static void test_atomic_dispatch(Gpu &g)
{
    set_ctx("atomic.cs x64");
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
    Com<ID3D12Resource> up, buf;
    buf.p = g.uav_buffer(std::vector<uint32_t>(1 + 2048, 0), up);
    Com<ID3D12DescriptorHeap> heap;
    heap.p = g.heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, true);
    raw_uav(g.dev, buf, 1 + 2048, heap->GetCPUDescriptorHandleForHeapStart());
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->SetComputeRoot32BitConstant(1, 100, 0);
    g.list->Dispatch(64, 1, 1);
    std::vector<uint32_t> out = g.read(buf, 1 + 2048);
    CHECK_EQ(out[0], 2048u);
    std::vector<uint32_t> values(out.begin() + 1, out.end());
    std::sort(values.begin(), values.end());
    unsigned bad = 0;
    for (uint32_t i = 0; i < 2048; i++) bad += values[i] != 100 + i;
    CHECK_EQ(bad, 0u);
}

static void test_reduce_dispatch(Gpu &g)
{
    set_ctx("reduce.cs x64");
    D3D12_DESCRIPTOR_RANGE1 r = {D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 2, 0, 0, D3D12_DESCRIPTOR_RANGE_FLAG_NONE, 0};
    D3D12_ROOT_PARAMETER1 p = table(&r, 1);
    Com<ID3D12RootSignature> rs;
    rs.p = g.root_signature(&p, 1);
    Com<ID3D12PipelineState> pso;
    pso.p = g.pipeline(rs, "reduce.cs.dxil");
    if (!pso) return;
    std::vector<uint32_t> src(4096);
    for (uint32_t i = 0; i < 4096; i++) src[i] = i * i;
    Com<ID3D12Resource> up0, up1, bsrc, bdst;
    bsrc.p = g.uav_buffer(src, up0);
    bdst.p = g.uav_buffer(std::vector<uint32_t>(64, 0), up1);
    Com<ID3D12DescriptorHeap> heap;
    heap.p = g.heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, true);
    UINT inc = g.dev->GetDescriptorHandleIncrementSize(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV);
    D3D12_CPU_DESCRIPTOR_HANDLE c = heap->GetCPUDescriptorHandleForHeapStart();
    raw_uav(g.dev, bsrc, 4096, c);
    raw_uav(g.dev, bdst, 64, {c.ptr + inc});
    ID3D12DescriptorHeap *heaps[] = {heap};
    g.list->SetDescriptorHeaps(1, heaps);
    g.list->SetComputeRootSignature(rs);
    g.list->SetPipelineState(pso);
    g.list->SetComputeRootDescriptorTable(0, heap->GetGPUDescriptorHandleForHeapStart());
    g.list->Dispatch(64, 1, 1);
    std::vector<uint32_t> out = g.read(bdst, 64);
    CHECK_EQ(out[0], 85344u);  // 63 * 64 * 127 / 6
    unsigned bad = 0;
    for (uint32_t k = 0; k < 64; k++) {
        uint32_t sum = 0;
        for (uint32_t i = 64 * k; i < 64 * (k + 1); i++) sum += i * i;
        bad += out[k] != sum;
    }
    CHECK_EQ(bad, 0u);
}

// Byte i of the test pattern: not periodic at any power of two below 2^24.
static uint8_t pattern(size_t i)
{
    return (uint8_t)((i * 2654435761u) >> 13 ^ i >> 17);
}

static void test_buffer_copies(Gpu &g)
{
    set_ctx("CopyBufferRegion 6 MiB");
    const size_t size = 8 << 20, n = (6 << 20) + 7, from = 5, to = 1000003;
    std::vector<uint8_t> src(size);
    for (size_t i = 0; i < size; i++) src[i] = pattern(i);
    Com<ID3D12Resource> up, a, b;
    up.p = g.upload(src);
    a.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON);
    b.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, size, D3D12_RESOURCE_STATE_COMMON);
    g.list->CopyBufferRegion(a, to, up, from, n);
    std::vector<uint8_t> out = g.read_bytes(a, 0, size);
    size_t bad = 0;
    for (size_t i = 0; i < size; i++) {
        uint8_t want = (i >= to && i < to + n) ? pattern(i - to + from) : 0;
        bad += out[i] != want;
    }
    CHECK_EQ(bad, (size_t)0);

    set_ctx("CopyResource 8 MiB");
    g.list->CopyResource(b, up);
    out = g.read_bytes(b, 0, size);
    CHECK(out == src);
}

// Texel (x, y) of the test textures.
static uint32_t texel(uint32_t x, uint32_t y)
{
    return (y << 16) ^ x ^ 0x5a000000u;
}

static void test_texture_copies(Gpu &g)
{
    set_ctx("CopyTextureRegion 1024x1024");
    const UINT w = 1024, h = 1024;
    std::vector<uint8_t> bytes((size_t)w * h * 4);
    for (UINT y = 0; y < h; y++)
        for (UINT x = 0; x < w; x++) {
            uint32_t t = texel(x, y);
            memcpy(&bytes[((size_t)y * w + x) * 4], &t, 4);
        }
    Com<ID3D12Resource> up, tex, part;
    up.p = g.upload(bytes);
    tex.p = g.texture(w, h, 1, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    part.p = g.texture(w, h, 1, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_COPY_DEST);
    D3D12_TEXTURE_COPY_LOCATION dst = {}, src = {};
    dst.pResource = tex;
    dst.Type = D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX;
    src.pResource = up;
    src.Type = D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT;
    src.PlacedFootprint.Footprint = {DXGI_FORMAT_R8G8B8A8_UNORM, w, h, 1, w * 4};
    g.list->CopyTextureRegion(&dst, 0, 0, 0, &src, nullptr);
    // A 600x500 box from (7, 3) of the footprint into the second texture at (100, 200).
    D3D12_BOX box = {7, 3, 0, 607, 503, 1};
    dst.pResource = part;
    g.list->CopyTextureRegion(&dst, 100, 200, 0, &src, &box);
    D3D12_RESOURCE_BARRIER bar[2] = {};
    for (int k = 0; k < 2; k++) {
        bar[k].Transition.pResource = k ? part : tex;
        bar[k].Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
        bar[k].Transition.StateBefore = D3D12_RESOURCE_STATE_COPY_DEST;
        bar[k].Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    }
    g.list->ResourceBarrier(2, bar);
    std::vector<uint32_t> whole = g.read_texture(tex, w, h);
    size_t bad = 0;
    for (UINT y = 0; y < h; y++)
        for (UINT x = 0; x < w; x++) bad += whole[(size_t)y * w + x] != texel(x, y);
    CHECK_EQ(bad, (size_t)0);

    set_ctx("CopyTextureRegion box 600x500");
    std::vector<uint32_t> boxed = g.read_texture(part, w, h);
    bad = 0;
    for (UINT y = 0; y < h; y++)
        for (UINT x = 0; x < w; x++) {
            bool inside = x >= 100 && x < 700 && y >= 200 && y < 700;
            uint32_t want = inside ? texel(x - 100 + 7, y - 200 + 3) : 0;
            bad += boxed[(size_t)y * w + x] != want;
        }
    CHECK_EQ(bad, (size_t)0);
    CHECK_EQ(boxed[200 * w + 100], texel(7, 3));
}

static void test_clears(Gpu &g)
{
    set_ctx("ClearRenderTargetView 1024x1024");
    const UINT w = 1024, h = 1024;
    Com<ID3D12Resource> rt;
    rt.p = g.texture(w, h, 1, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    Com<ID3D12DescriptorHeap> rtvs;
    rtvs.p = g.heap(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, false);
    g.dev->CreateRenderTargetView(rt, nullptr, rtvs->GetCPUDescriptorHandleForHeapStart());
    // Blue everywhere, then the left half red: UNORM 1.0 is 255, 0.0 is 0 (bytes R, G, B, A).
    const float blue[4] = {0, 0, 1, 1}, red[4] = {1, 0, 0, 1};
    D3D12_RECT left = {0, 0, 512, 1024};
    g.list->ClearRenderTargetView(rtvs->GetCPUDescriptorHandleForHeapStart(), blue, 0, nullptr);
    g.list->ClearRenderTargetView(rtvs->GetCPUDescriptorHandleForHeapStart(), red, 1, &left);
    D3D12_RESOURCE_BARRIER bar = {};
    bar.Transition.pResource = rt;
    bar.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    bar.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
    bar.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    g.list->ResourceBarrier(1, &bar);
    std::vector<uint32_t> px = g.read_texture(rt, w, h);
    size_t bad = 0;
    for (UINT y = 0; y < h; y++)
        for (UINT x = 0; x < w; x++) bad += px[(size_t)y * w + x] != (x < 512 ? 0xFF0000FFu : 0xFFFF0000u);
    CHECK_EQ(bad, (size_t)0);

    set_ctx("ClearUnorderedAccessViewUint 8 MiB");
    const UINT words = 2 << 20;
    Com<ID3D12Resource> buf;
    buf.p = g.buffer(D3D12_HEAP_TYPE_DEFAULT, (UINT64)words * 4, D3D12_RESOURCE_STATE_UNORDERED_ACCESS, true);
    Com<ID3D12DescriptorHeap> gpu, cpu;
    gpu.p = g.heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, true);
    cpu.p = g.heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 1, false);
    D3D12_UNORDERED_ACCESS_VIEW_DESC u = {};
    u.Format = DXGI_FORMAT_R32_UINT;
    u.ViewDimension = D3D12_UAV_DIMENSION_BUFFER;
    u.Buffer.NumElements = words;
    g.dev->CreateUnorderedAccessView(buf, nullptr, &u, gpu->GetCPUDescriptorHandleForHeapStart());
    g.dev->CreateUnorderedAccessView(buf, nullptr, &u, cpu->GetCPUDescriptorHandleForHeapStart());
    ID3D12DescriptorHeap *heaps[] = {gpu};
    g.list->SetDescriptorHeaps(1, heaps);
    const UINT v[4] = {0xC0FFEE11u, 0, 0, 0};
    g.list->ClearUnorderedAccessViewUint(gpu->GetGPUDescriptorHandleForHeapStart(),
                                         cpu->GetCPUDescriptorHandleForHeapStart(), buf, v, 0, nullptr);
    std::vector<uint32_t> out = g.read(buf, words);
    bad = 0;
    for (UINT i = 0; i < words; i++) bad += out[i] != 0xC0FFEE11u;
    CHECK_EQ(bad, (size_t)0);
}

static void test_resolve(Gpu &g)
{
    set_ctx("ResolveSubresource 512x512 4x");
    const UINT w = 512, h = 512;
    Com<ID3D12Resource> ms, single;
    ms.p = g.texture(w, h, 4, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, D3D12_RESOURCE_STATE_RENDER_TARGET);
    single.p = g.texture(w, h, 1, D3D12_RESOURCE_FLAG_NONE, D3D12_RESOURCE_STATE_RESOLVE_DEST);
    Com<ID3D12DescriptorHeap> rtvs;
    rtvs.p = g.heap(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, false);
    g.dev->CreateRenderTargetView(ms, nullptr, rtvs->GetCPUDescriptorHandleForHeapStart());
    // Green, then the top 100 rows white: every sample of a pixel alike, so the average is it.
    const float green[4] = {0, 1, 0, 1}, white[4] = {1, 1, 1, 1};
    D3D12_RECT top = {0, 0, 512, 100};
    g.list->ClearRenderTargetView(rtvs->GetCPUDescriptorHandleForHeapStart(), green, 0, nullptr);
    g.list->ClearRenderTargetView(rtvs->GetCPUDescriptorHandleForHeapStart(), white, 1, &top);
    D3D12_RESOURCE_BARRIER bar = {};
    bar.Transition.pResource = ms;
    bar.Transition.Subresource = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
    bar.Transition.StateBefore = D3D12_RESOURCE_STATE_RENDER_TARGET;
    bar.Transition.StateAfter = D3D12_RESOURCE_STATE_RESOLVE_SOURCE;
    g.list->ResourceBarrier(1, &bar);
    g.list->ResolveSubresource(single, 0, ms, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    bar.Transition.pResource = single;
    bar.Transition.StateBefore = D3D12_RESOURCE_STATE_RESOLVE_DEST;
    bar.Transition.StateAfter = D3D12_RESOURCE_STATE_COPY_SOURCE;
    g.list->ResourceBarrier(1, &bar);
    std::vector<uint32_t> px = g.read_texture(single, w, h);
    size_t bad = 0;
    for (UINT y = 0; y < h; y++)
        for (UINT x = 0; x < w; x++) bad += px[(size_t)y * w + x] != (y < 100 ? 0xFFFFFFFFu : 0xFF00FF00u);
    CHECK_EQ(bad, (size_t)0);
}

// Runs this program again with RD3D12_THREADS=1 (marked by CPAR_ONE_THREAD); its exit status.
// The program's path comes from /proc/self/exe read as a link (under valgrind that is the
// program's, not valgrind's own binary).
static int run_one_thread(const char *self)
{
    char path[4096];
    ssize_t len = readlink("/proc/self/exe", path, sizeof(path) - 1);
    if (len <= 0) return -1;
    path[len] = 0;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("RD3D12_THREADS", "1", 1);
        setenv("CPAR_ONE_THREAD", "1", 1);
        execl(path, self, (char *)nullptr);
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
    (void)argc;
    bool child = getenv("CPAR_ONE_THREAD") != nullptr;
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        {
            Gpu g;
            g.init(dev);
            test_copy_dispatch(g);
            test_atomic_dispatch(g);
            test_reduce_dispatch(g);
            test_buffer_copies(g);
            test_texture_copies(g);
            test_clears(g);
            test_resolve(g);
        }
        CHECK_EQ(dev->Release(), 0u);
    }
    if (!child) {
        set_ctx("the same checks with RD3D12_THREADS=1");
        CHECK_EQ(run_one_thread(argv[0]), 0);
        set_ctx("%s", "");
    }
    printf("%s: %u passed, %u failed\n", child ? "conf_cpar_cpp (RD3D12_THREADS=1)" : "conf_cpar_cpp", g_passed,
           g_failed);
    return g_failed ? 1 : 0;
}
