// tests/abi/memory.cpp - ABI test of the memory model of libd3d12.so from C++: ordinary method
// syntax (dev->CreateHeap(...)), IID_PPV_ARGS / __uuidof from <dxguids/dxguids.h>, the
// struct-returning methods called the C++ way (GetDesc, GetCustomHeapProperties,
// GetResourceAllocationInfo), and std::thread for the free-threaded parts: concurrent
// Map/Unmap, concurrent WriteToSubresource / ReadFromSubresource into one texture, concurrent
// placed-resource creation in one heap, concurrent residency calls.
//
// Expected values are Microsoft's, as digested in shared/spec/heaps-and-memory.md and
// resources.md. memory.c covers the argument matrices and the two-process sharing test; this
// file covers the same model through the C++ ABI and from several threads.
//
// Build and run (see tests/abi/README.md):
//   g++ -std=c++17 -Wall -Werror -pthread -I/usr/include/directx -I/usr/include/wsl/stubs
//       -I/usr/include/wsl -I/usr/include tests/abi/memory.cpp -o $OUT/memory_cpp
//       -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
//
// Every check prints one line when it fails (file:line, what, got vs expected); the last line is
// "memory_cpp: N passed, M failed" and the exit status is 0 only when M is 0. Checks are only
// made on the main thread; worker threads count their own errors.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

// ---- the check counter --------------------------------------------------------------------

static unsigned g_passed, g_failed;
static std::string g_ctx;

static void fail_prefix(const char *file, int line, const char *what)
{
    g_failed++;
    if (!g_ctx.empty())
        std::printf("%s:%d: [%s] %s: ", file, line, g_ctx.c_str(), what);
    else
        std::printf("%s:%d: %s: ", file, line, what);
}

static void check_true(const char *file, int line, const char *what, bool ok)
{
    if (ok) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    std::printf("got false, expected true\n");
}

static void check_u64(const char *file, int line, const char *what, unsigned long long got,
                      unsigned long long expected)
{
    if (got == expected) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    std::printf("got %llu (0x%llx), expected %llu (0x%llx)\n", got, got, expected, expected);
}

static void check_hr(const char *file, int line, const char *what, HRESULT got, HRESULT expected)
{
    if (got == expected) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    std::printf("got HRESULT 0x%08x, expected 0x%08x\n", (unsigned)got, (unsigned)expected);
}

static void check_ptr(const char *file, int line, const char *what, const void *got,
                      const void *expected)
{
    if (got == expected) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    std::printf("got %p, expected %p\n", got, expected);
}

#define CHECK(cond) check_true(__FILE__, __LINE__, #cond, static_cast<bool>(cond))
#define CHECK_EQ(got, expected) \
    check_u64(__FILE__, __LINE__, #got, (unsigned long long)(got), (unsigned long long)(expected))
#define CHECK_HR(got, expected) check_hr(__FILE__, __LINE__, #got, (got), (expected))
#define CHECK_PTR(got, expected) \
    check_ptr(__FILE__, __LINE__, #got, (const void *)(got), (const void *)(expected))

static void *const SENTINEL = reinterpret_cast<void *>(uintptr_t(0x5a5a5a5a));

// ---- a minimal ComPtr ---------------------------------------------------------------------

template <class T> class Com
{
public:
    Com() = default;
    Com(const Com &) = delete;
    Com &operator=(const Com &) = delete;
    ~Com()
    {
        if (p_)
            p_->Release();
    }
    T *get() const { return p_; }
    T *operator->() const { return p_; }
    explicit operator bool() const { return p_ != nullptr; }
    // For IID_PPV_ARGS(&com): the address of the raw pointer, emptied first.
    T **operator&()
    {
        reset();
        return &p_;
    }
    void reset()
    {
        if (p_)
            p_->Release();
        p_ = nullptr;
    }
    // Gives the reference back now and returns Release's answer (the new count).
    ULONG release()
    {
        T *p = p_;
        p_ = nullptr;
        return p ? p->Release() : ~0u;
    }

private:
    T *p_ = nullptr;
};

static ULONG refcount(IUnknown *u)
{
    u->AddRef();
    return u->Release();
}

// ---- helpers ------------------------------------------------------------------------------

static D3D12_HEAP_PROPERTIES hprops(D3D12_HEAP_TYPE type,
                                    D3D12_CPU_PAGE_PROPERTY page = D3D12_CPU_PAGE_PROPERTY_UNKNOWN,
                                    D3D12_MEMORY_POOL pool = D3D12_MEMORY_POOL_UNKNOWN)
{
    D3D12_HEAP_PROPERTIES p = {};
    p.Type = type;
    p.CPUPageProperty = page;
    p.MemoryPoolPreference = pool;
    return p;
}

static D3D12_HEAP_DESC wb_heap_desc(UINT64 size, D3D12_HEAP_FLAGS flags = D3D12_HEAP_FLAG_NONE)
{
    D3D12_HEAP_DESC d = {};
    d.SizeInBytes = size;
    d.Properties = hprops(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0);
    d.Flags = flags;
    return d;
}

static D3D12_RESOURCE_DESC buf_desc(UINT64 width)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
    d.Width = width;
    d.Height = 1;
    d.DepthOrArraySize = 1;
    d.MipLevels = 1;
    d.Format = DXGI_FORMAT_UNKNOWN;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    return d;
}

static D3D12_RESOURCE_DESC tex_desc(UINT64 w, UINT h, UINT16 mips, UINT64 alignment)
{
    D3D12_RESOURCE_DESC d = {};
    d.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    d.Alignment = alignment;
    d.Width = w;
    d.Height = h;
    d.DepthOrArraySize = 1;
    d.MipLevels = mips;
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.SampleDesc.Count = 1;
    d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    return d;
}

static bool same_desc(const D3D12_RESOURCE_DESC &a, const D3D12_RESOURCE_DESC &b)
{
    return a.Dimension == b.Dimension && a.Alignment == b.Alignment && a.Width == b.Width &&
           a.Height == b.Height && a.DepthOrArraySize == b.DepthOrArraySize && a.MipLevels == b.MipLevels &&
           a.Format == b.Format && a.SampleDesc.Count == b.SampleDesc.Count &&
           a.SampleDesc.Quality == b.SampleDesc.Quality && a.Layout == b.Layout && a.Flags == b.Flags;
}

static bool all_bytes(const unsigned char *p, size_t n, unsigned char v)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != v)
            return false;
    return true;
}

static void fill_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)((i * 31u + seed * 7u + (i >> 8)) & 0xff);
}

static bool under_valgrind()
{
    const char *v = std::getenv("RD3D12_UNDER_VALGRIND");
    return v && *v && std::strcmp(v, "0") != 0;
}

// ---- struct-returning methods, the C++ way --------------------------------------------------

static void test_by_value(ID3D12Device *dev)
{
    g_ctx = "by-value returns";
    D3D12_HEAP_PROPERTIES p = dev->GetCustomHeapProperties(1, D3D12_HEAP_TYPE_UPLOAD);
    CHECK_EQ(p.Type, D3D12_HEAP_TYPE_CUSTOM);
    CHECK_EQ(p.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK);
    CHECK_EQ(p.MemoryPoolPreference, D3D12_MEMORY_POOL_L0);
    CHECK_EQ(p.CreationNodeMask, 1);
    CHECK_EQ(p.VisibleNodeMask, 1);
    p = dev->GetCustomHeapProperties(1, D3D12_HEAP_TYPE_DEFAULT);
    CHECK_EQ(p.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE);
    CHECK_EQ(p.MemoryPoolPreference, D3D12_MEMORY_POOL_L0);
    p = dev->GetCustomHeapProperties(1, D3D12_HEAP_TYPE_READBACK);
    CHECK_EQ(p.CPUPageProperty, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK);

    // ID3D12Heap::GetDesc: size as given, masks 0 → 1, alignment 0 → 64 KB.
    ULONG base = refcount(dev);
    D3D12_HEAP_DESC hd = {};
    hd.SizeInBytes = 70000;
    hd.Properties = hprops(D3D12_HEAP_TYPE_READBACK);
    hd.Flags = D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS;
    Com<ID3D12Heap1> heap;
    CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (heap) {
        CHECK_EQ(refcount(dev), base + 1);
        D3D12_HEAP_DESC got = heap->GetDesc();
        CHECK_EQ(got.SizeInBytes, 70000);
        CHECK_EQ(got.Properties.Type, D3D12_HEAP_TYPE_READBACK);
        CHECK_EQ(got.Properties.CreationNodeMask, 1);
        CHECK_EQ(got.Properties.VisibleNodeMask, 1);
        CHECK_EQ(got.Alignment, 65536);
        CHECK_EQ(got.Flags, D3D12_HEAP_FLAG_ALLOW_ONLY_BUFFERS);
        Com<ID3D12Pageable> pg;
        CHECK_HR(heap->QueryInterface(IID_PPV_ARGS(&pg)), S_OK);
        CHECK_PTR(static_cast<IUnknown *>(pg.get()), static_cast<IUnknown *>(heap.get()));
    }
    heap.reset();
    CHECK_EQ(refcount(dev), base);

    // GetResourceAllocationInfo (16 bytes in RAX:RDX): the 4 KB rule and buffers.
    D3D12_RESOURCE_DESC small = tex_desc(32, 32, 1, 4096);
    D3D12_RESOURCE_ALLOCATION_INFO ai = dev->GetResourceAllocationInfo(0, 1, &small);
    CHECK_EQ(ai.SizeInBytes, 4096);
    CHECK_EQ(ai.Alignment, 4096);
    D3D12_RESOURCE_DESC b = buf_desc(100);
    ai = dev->GetResourceAllocationInfo(0, 1, &b);
    CHECK_EQ(ai.SizeInBytes, 65536);
    CHECK_EQ(ai.Alignment, 65536);
    Com<ID3D12Device4> dev4;
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&dev4)), S_OK);
    if (dev4) {
        D3D12_RESOURCE_DESC three[3] = {small, b, small};
        D3D12_RESOURCE_ALLOCATION_INFO1 each[3] = {};
        ai = dev4->GetResourceAllocationInfo1(0, 3, three, each);
        CHECK_EQ(each[0].Offset, 0);
        CHECK_EQ(each[1].Offset, 65536);
        CHECK_EQ(each[2].Offset, 131072);
        CHECK_EQ(ai.SizeInBytes, 196608);
        CHECK_EQ(ai.Alignment, 65536);
    }
    dev4.reset();

    // ID3D12Resource::GetDesc / ID3D12Resource2::GetDesc1 (56 / 64 bytes, hidden pointer).
    D3D12_HEAP_PROPERTIES dp = hprops(D3D12_HEAP_TYPE_DEFAULT);
    D3D12_RESOURCE_DESC td = tex_desc(32, 32, 0, 0);
    Com<ID3D12Resource2> r;
    CHECK_HR(dev->CreateCommittedResource(&dp, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                          IID_PPV_ARGS(&r)),
             S_OK);
    if (r) {
        D3D12_RESOURCE_DESC got = r->GetDesc();
        D3D12_RESOURCE_DESC want = td;
        want.MipLevels = 6;
        want.Alignment = 65536;
        CHECK(same_desc(got, want));
        D3D12_RESOURCE_DESC1 got1 = r->GetDesc1();
        CHECK_EQ(got1.MipLevels, 6);
        CHECK_EQ(got1.Width, 32);
        CHECK_EQ(got1.SamplerFeedbackMipRegion.Width, 0);
        CHECK_EQ(r->GetGPUVirtualAddress(), 0);
        D3D12_HEAP_PROPERTIES hp = {};
        D3D12_HEAP_FLAGS hf = D3D12_HEAP_FLAGS(0xdeadbeef);
        CHECK_HR(r->GetHeapProperties(&hp, &hf), S_OK);
        CHECK_EQ(hp.Type, D3D12_HEAP_TYPE_DEFAULT);
        CHECK_EQ(hp.VisibleNodeMask, 1);
    }
    r.reset();
    CHECK_EQ(refcount(dev), base);
    g_ctx.clear();
}

// ---- the seed scenario in C++ ----------------------------------------------------------------

static void test_seed(ID3D12Device *dev)
{
    g_ctx = "seed (C++)";
    ULONG base = refcount(dev);
    D3D12_HEAP_DESC hd = wb_heap_desc(65536);
    Com<ID3D12Heap> heap;
    CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!heap)
        return;
    D3D12_RESOURCE_DESC td = tex_desc(32, 32, 1, 4096);
    Com<ID3D12Resource> tex;
    CHECK_HR(dev->CreatePlacedResource(heap.get(), 4096, &td, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                       IID_PPV_ARGS(&tex)),
             S_OK);
    CHECK_EQ(refcount(heap.get()), 1);
    if (tex) {
        CHECK(same_desc(tex->GetDesc(), td));
        std::vector<unsigned char> pat(4096), got(4096);
        fill_pattern(pat.data(), pat.size(), 2);
        CHECK_HR(tex->WriteToSubresource(0, nullptr, pat.data(), 128, 4096), S_OK);
        CHECK_HR(tex->ReadFromSubresource(got.data(), 128, 4096, 0, nullptr), S_OK);
        CHECK(got == pat);
        D3D12_BOX box = {8, 8, 0, 16, 12, 1};
        unsigned char part[4 * 32];
        std::memset(part, 0xee, sizeof(part));
        CHECK_HR(tex->ReadFromSubresource(part, 32, 0, 0, &box), S_OK);
        bool ok = true;
        for (int y = 0; y < 4; y++)
            if (std::memcmp(part + y * 32, pat.data() + (8 + y) * 128 + 8 * 4, 32) != 0)
                ok = false;
        CHECK(ok);
        D3D12_BOX out = {0, 0, 0, 33, 1, 1};
        CHECK_HR(tex->ReadFromSubresource(part, 32, 0, 0, &out), E_INVALIDARG);
        D3D12_BOX empty = {3, 3, 0, 3, 3, 1};
        CHECK_HR(tex->WriteToSubresource(0, &empty, pat.data(), 128, 0), S_OK);
        void *p = SENTINEL;
        CHECK_HR(tex->Map(0, nullptr, &p), E_INVALIDARG);
        CHECK_PTR(p, SENTINEL);
        CHECK_HR(tex->Map(0, nullptr, nullptr), S_OK);
        tex->Unmap(0, nullptr);

        // A buffer over the heap sees the texture's bytes change (and only those).
        D3D12_RESOURCE_DESC bd = buf_desc(65536);
        Com<ID3D12Resource> alias;
        CHECK_HR(dev->CreatePlacedResource(heap.get(), 0, &bd, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                           IID_PPV_ARGS(&alias)),
                 S_OK);
        unsigned char *m = nullptr;
        if (alias)
            CHECK_HR(alias->Map(0, nullptr, reinterpret_cast<void **>(&m)), S_OK);
        if (m) {
            CHECK(!all_bytes(m + 4096, 4096, 0));
            CHECK(all_bytes(m, 4096, 0));
            CHECK(all_bytes(m + 8192, 65536 - 8192, 0));
            std::memset(m + 4096, 0, 4096);
            CHECK_HR(tex->ReadFromSubresource(got.data(), 128, 4096, 0, nullptr), S_OK);
            CHECK(all_bytes(got.data(), got.size(), 0));
            alias->Unmap(0, nullptr);
        }
    }
    tex.reset();
    CHECK_EQ(heap.release(), 0);
    CHECK_EQ(refcount(dev), base);
    g_ctx.clear();
}

// ---- std::thread: concurrent Map / Unmap -------------------------------------------------------

static void test_threads_map(ID3D12Device *dev)
{
    g_ctx = "threads: Map/Unmap";
    const unsigned kThreads = 8, kRegion = 8192;
    const unsigned iterations = under_valgrind() ? 40 : 3000;
    D3D12_HEAP_PROPERTIES up = hprops(D3D12_HEAP_TYPE_UPLOAD);
    D3D12_RESOURCE_DESC bd = buf_desc(kThreads * kRegion);
    Com<ID3D12Resource> buf;
    CHECK_HR(dev->CreateCommittedResource(&up, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, nullptr,
                                          IID_PPV_ARGS(&buf)),
             S_OK);
    if (!buf)
        return;

    // Round one: nobody else holds a mapping, so each thread checks only its data and that
    // nested maps inside the thread agree.
    // Round two: the main thread keeps one Map outstanding, so every Map must return it.
    for (int round = 0; round < 2; round++) {
        unsigned char *keep = nullptr;
        if (round == 1) {
            CHECK_HR(buf->Map(0, nullptr, reinterpret_cast<void **>(&keep)), S_OK);
            if (!keep)
                break;
        }
        struct Result
        {
            unsigned bad_hr = 0, bad_ptr = 0, bad_data = 0;
        };
        std::vector<Result> res(kThreads);
        std::vector<std::thread> threads;
        for (unsigned i = 0; i < kThreads; i++) {
            threads.emplace_back([&, i] {
                Result &r = res[i];
                for (unsigned it = 0; it < iterations; it++) {
                    D3D12_RANGE range = {i * kRegion, (i + 1) * kRegion};
                    void *p = nullptr, *q = nullptr;
                    if (buf->Map(0, &range, &p) != S_OK || !p) {
                        r.bad_hr++;
                        continue;
                    }
                    if (buf->Map(0, nullptr, &q) != S_OK || q != p)
                        r.bad_ptr++;
                    if (keep && p != keep)
                        r.bad_ptr++;
                    unsigned char *mine = static_cast<unsigned char *>(p) + i * kRegion;
                    unsigned char v = (unsigned char)(i * 37 + it + round);
                    std::memset(mine, v, kRegion);
                    for (unsigned j = 0; j < kRegion; j += 97)
                        if (mine[j] != v)
                            r.bad_data++;
                    buf->Unmap(0, nullptr);
                    buf->Unmap(0, &range);
                }
            });
        }
        for (auto &t : threads)
            t.join();
        unsigned char *m = nullptr;
        CHECK_HR(buf->Map(0, nullptr, reinterpret_cast<void **>(&m)), S_OK);
        for (unsigned i = 0; i < kThreads; i++) {
            g_ctx = "threads: Map/Unmap round " + std::to_string(round) + " thread " + std::to_string(i);
            CHECK_EQ(res[i].bad_hr, 0);
            CHECK_EQ(res[i].bad_ptr, 0);
            CHECK_EQ(res[i].bad_data, 0);
            if (m)
                CHECK(all_bytes(m + i * kRegion, kRegion, (unsigned char)(i * 37 + iterations - 1 + round)));
        }
        if (m)
            buf->Unmap(0, nullptr);
        if (keep)
            buf->Unmap(0, nullptr);
    }
    CHECK_EQ(buf.release(), 0);
    g_ctx.clear();
}

// ---- std::thread: concurrent Write/ReadFromSubresource into bands of one texture --------------

static void test_threads_texture(ID3D12Device *dev)
{
    g_ctx = "threads: Write/ReadFromSubresource";
    const unsigned kThreads = 8, kW = 64, kH = 64, kBand = kH / kThreads;
    const unsigned iterations = under_valgrind() ? 10 : 300;
    D3D12_HEAP_PROPERTIES wb = hprops(D3D12_HEAP_TYPE_CUSTOM, D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0);
    D3D12_RESOURCE_DESC td = tex_desc(kW, kH, 1, 0);
    Com<ID3D12Resource> tex;
    CHECK_HR(dev->CreateCommittedResource(&wb, D3D12_HEAP_FLAG_NONE, &td, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                          IID_PPV_ARGS(&tex)),
             S_OK);
    if (!tex)
        return;
    std::vector<unsigned> bad_hr(kThreads), bad_data(kThreads);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < kThreads; i++) {
        threads.emplace_back([&, i] {
            std::vector<unsigned char> src(kW * 4 * kBand), back(kW * 4 * kBand);
            D3D12_BOX box = {0, i * kBand, 0, kW, (i + 1) * kBand, 1};
            for (unsigned it = 0; it < iterations; it++) {
                fill_pattern(src.data(), src.size(), i * 1000 + it);
                if (tex->WriteToSubresource(0, &box, src.data(), kW * 4, 0) != S_OK)
                    bad_hr[i]++;
                if (tex->ReadFromSubresource(back.data(), kW * 4, 0, 0, &box) != S_OK)
                    bad_hr[i]++;
                if (back != src)
                    bad_data[i]++;
            }
        });
    }
    for (auto &t : threads)
        t.join();
    std::vector<unsigned char> all(kW * 4 * kH), band(kW * 4 * kBand);
    CHECK_HR(tex->ReadFromSubresource(all.data(), kW * 4, 0, 0, nullptr), S_OK);
    for (unsigned i = 0; i < kThreads; i++) {
        g_ctx = "threads: texture band " + std::to_string(i);
        CHECK_EQ(bad_hr[i], 0);
        CHECK_EQ(bad_data[i], 0);
        fill_pattern(band.data(), band.size(), i * 1000 + iterations - 1);
        CHECK(std::memcmp(all.data() + i * band.size(), band.data(), band.size()) == 0);
    }
    CHECK_EQ(tex.release(), 0);
    g_ctx.clear();
}

// ---- std::thread: placed resources created and released concurrently in one heap --------------

static void test_threads_placed(ID3D12Device *dev)
{
    g_ctx = "threads: placed resources";
    const unsigned kThreads = 8;
    const unsigned iterations = under_valgrind() ? 10 : 200;
    ULONG base = refcount(dev);
    D3D12_HEAP_DESC hd = wb_heap_desc(kThreads * 65536);
    Com<ID3D12Heap> heap;
    CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!heap)
        return;
    // The heap's base address, from a buffer placed at offset 0.
    D3D12_RESOURCE_DESC whole = buf_desc(kThreads * 65536);
    Com<ID3D12Resource> all;
    CHECK_HR(dev->CreatePlacedResource(heap.get(), 0, &whole, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                       IID_PPV_ARGS(&all)),
             S_OK);
    if (!all)
        return;
    const D3D12_GPU_VIRTUAL_ADDRESS heap_va = all->GetGPUVirtualAddress();
    CHECK(heap_va != 0);
    unsigned char *whole_map = nullptr;
    CHECK_HR(all->Map(0, nullptr, reinterpret_cast<void **>(&whole_map)), S_OK);

    std::vector<unsigned> bad_hr(kThreads), bad_va(kThreads), bad_data(kThreads);
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < kThreads; i++) {
        threads.emplace_back([&, i] {
            D3D12_RESOURCE_DESC bd = buf_desc(65536);
            D3D12_RESOURCE_DESC td = tex_desc(32, 32, 1, 4096);
            for (unsigned it = 0; it < iterations; it++) {
                ID3D12Resource *b = nullptr, *t = nullptr;
                if (dev->CreatePlacedResource(heap.get(), i * 65536, &bd, D3D12_RESOURCE_STATE_COMMON, nullptr,
                                              IID_PPV_ARGS(&b)) != S_OK ||
                    !b) {
                    bad_hr[i]++;
                    continue;
                }
                if (b->GetGPUVirtualAddress() != heap_va + i * 65536)
                    bad_va[i]++;
                unsigned char *m = nullptr;
                if (b->Map(0, nullptr, reinterpret_cast<void **>(&m)) != S_OK || !m) {
                    bad_hr[i]++;
                } else {
                    m[it % 4096] = (unsigned char)(i + 1);
                    b->Unmap(0, nullptr);
                }
                // A small texture aliasing the second half of this thread's 64 KB.
                if (dev->CreatePlacedResource(heap.get(), i * 65536 + 32768, &td, D3D12_RESOURCE_STATE_COMMON,
                                              nullptr, IID_PPV_ARGS(&t)) != S_OK ||
                    !t)
                    bad_hr[i]++;
                if (t && t->Release() != 0)
                    bad_hr[i]++;
                if (b->Release() != 0)
                    bad_hr[i]++;
            }
            // What the thread wrote through its buffers, seen through the heap-wide buffer.
            for (unsigned it = 0; it < iterations && it < 4096; it++)
                if (whole_map && whole_map[i * 65536 + it] != (unsigned char)(i + 1))
                    bad_data[i]++;
        });
    }
    for (auto &t : threads)
        t.join();
    for (unsigned i = 0; i < kThreads; i++) {
        g_ctx = "threads: placed, thread " + std::to_string(i);
        CHECK_EQ(bad_hr[i], 0);
        CHECK_EQ(bad_va[i], 0);
        CHECK_EQ(bad_data[i], 0);
    }
    g_ctx = "threads: placed resources";
    CHECK_EQ(refcount(heap.get()), 1);
    CHECK_EQ(refcount(dev), base + 2);
    if (whole_map)
        all->Unmap(0, nullptr);
    CHECK_EQ(all.release(), 0);
    CHECK_EQ(heap.release(), 0);
    CHECK_EQ(refcount(dev), base);
    g_ctx.clear();
}

// ---- std::thread: residency calls from several threads ----------------------------------------

static void test_threads_residency(ID3D12Device *dev)
{
    g_ctx = "threads: residency";
    const unsigned kThreads = 8;
    const unsigned iterations = under_valgrind() ? 50 : 2000;
    D3D12_HEAP_DESC hd = {};
    hd.SizeInBytes = 65536;
    hd.Properties = hprops(D3D12_HEAP_TYPE_DEFAULT);
    Com<ID3D12Heap> heap;
    CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    D3D12_HEAP_PROPERTIES up = hprops(D3D12_HEAP_TYPE_UPLOAD);
    D3D12_RESOURCE_DESC bd = buf_desc(65536);
    Com<ID3D12Resource> buf;
    CHECK_HR(dev->CreateCommittedResource(&up, D3D12_HEAP_FLAG_NONE, &bd, D3D12_RESOURCE_STATE_GENERIC_READ, nullptr,
                                          IID_PPV_ARGS(&buf)),
             S_OK);
    Com<ID3D12Device1> dev1;
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&dev1)), S_OK);
    if (!heap || !buf || !dev1)
        return;
    std::atomic<unsigned> bad{0};
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < kThreads; i++) {
        threads.emplace_back([&, i] {
            ID3D12Pageable *objs[2] = {heap.get(), buf.get()};
            D3D12_RESIDENCY_PRIORITY prio[2] = {D3D12_RESIDENCY_PRIORITY_HIGH, D3D12_RESIDENCY_PRIORITY_LOW};
            for (unsigned it = 0; it < iterations; it++) {
                // Always MakeResident before Evict: the counts never go below the initial 1.
                if (dev->MakeResident(2, objs) != S_OK)
                    bad++;
                if (dev1->SetResidencyPriority(2, objs, prio) != S_OK)
                    bad++;
                if (dev->Evict(2, objs) != S_OK)
                    bad++;
                (void)i;
            }
        });
    }
    for (auto &t : threads)
        t.join();
    CHECK_EQ(bad.load(), 0u);
    CHECK_HR(dev->MakeResident(1, nullptr), E_INVALIDARG);
    CHECK_HR(dev->Evict(1, nullptr), E_INVALIDARG);
    CHECK_EQ(refcount(heap.get()), 1);
    CHECK_EQ(refcount(buf.get()), 1);
    g_ctx.clear();
}

// ---- shared handles in one process -------------------------------------------------------------

static void test_shared(ID3D12Device *dev)
{
    g_ctx = "shared handles (C++)";
    ULONG base = refcount(dev);
    D3D12_HEAP_DESC hd = {};
    hd.SizeInBytes = 65536;
    hd.Properties = hprops(D3D12_HEAP_TYPE_DEFAULT);
    hd.Flags = D3D12_HEAP_FLAG_SHARED;
    Com<ID3D12Heap> heap;
    CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    if (!heap)
        return;
    HANDLE h = nullptr;
    CHECK_HR(dev->CreateSharedHandle(heap.get(), nullptr, GENERIC_ALL, nullptr, &h), S_OK);
    int fd = (int)(intptr_t)h;
    CHECK(fd > 2);
    if (fd > 2) {
        Com<ID3D12Heap> opened;
        CHECK_HR(dev->OpenSharedHandle(h, IID_PPV_ARGS(&opened)), S_OK);
        if (opened) {
            D3D12_HEAP_DESC a = heap->GetDesc(), b = opened->GetDesc();
            CHECK_EQ(b.SizeInBytes, a.SizeInBytes);
            CHECK_EQ(b.Properties.Type, a.Properties.Type);
            CHECK_EQ(b.Flags & D3D12_HEAP_FLAG_SHARED, D3D12_HEAP_FLAG_SHARED);
            CHECK_EQ(refcount(dev), base + 2);
        }
        CHECK_EQ(opened.release(), 0);
        // By name, in this process.
        wchar_t name[64];
        std::swprintf(name, 64, L"rd3d12-memory-cpp-%d", (int)getpid());
        HANDLE named = nullptr;
        CHECK_HR(dev->CreateSharedHandle(heap.get(), nullptr, GENERIC_ALL, name, &named), S_OK);
        HANDLE by = nullptr;
        CHECK_HR(dev->OpenSharedHandleByName(name, GENERIC_ALL, &by), S_OK);
        if ((intptr_t)by > 2) {
            CHECK((intptr_t)by != (intptr_t)named);
            Com<ID3D12Heap> via;
            CHECK_HR(dev->OpenSharedHandle(by, IID_PPV_ARGS(&via)), S_OK);
            if (via)
                CHECK_EQ(via->GetDesc().SizeInBytes, 65536);
            close((int)(intptr_t)by);
        }
        if ((intptr_t)named > 2)
            close((int)(intptr_t)named);
        close(fd);
    }
    // Not shareable: a heap without SHARED.
    D3D12_HEAP_DESC plain_desc = hd;
    plain_desc.Flags = D3D12_HEAP_FLAG_NONE;
    Com<ID3D12Heap> plain;
    CHECK_HR(dev->CreateHeap(&plain_desc, IID_PPV_ARGS(&plain)), S_OK);
    if (plain) {
        HANDLE x = nullptr;
        CHECK_HR(dev->CreateSharedHandle(plain.get(), nullptr, GENERIC_ALL, nullptr, &x), E_INVALIDARG);
    }
    CHECK_HR(dev->CreateSharedHandle(heap.get(), nullptr, GENERIC_ALL, nullptr, nullptr), E_INVALIDARG);
    Com<ID3D12Heap> bogus;
    CHECK_HR(dev->OpenSharedHandle(reinterpret_cast<HANDLE>(intptr_t(-1)), IID_PPV_ARGS(&bogus)), E_INVALIDARG);
    CHECK(!bogus);
    plain.reset();
    CHECK_EQ(heap.release(), 0);
    CHECK_EQ(refcount(dev), base);
    g_ctx.clear();
}

// ---- reserved resources and tiling ------------------------------------------------------------

static void test_reserved(ID3D12Device *dev)
{
    g_ctx = "reserved (C++)";
    D3D12_RESOURCE_DESC td = tex_desc(512, 512, 1, 0);
    td.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    Com<ID3D12Resource> r;
    CHECK_HR(dev->CreateReservedResource(&td, D3D12_RESOURCE_STATE_COMMON, nullptr, IID_PPV_ARGS(&r)), S_OK);
    if (r) {
        UINT tiles = 0, nsub = 1;
        D3D12_PACKED_MIP_INFO pm = {};
        D3D12_TILE_SHAPE shape = {};
        D3D12_SUBRESOURCE_TILING st = {};
        dev->GetResourceTiling(r.get(), &tiles, &pm, &shape, &nsub, 0, &st);
        CHECK_EQ(tiles, 16);
        CHECK_EQ(shape.WidthInTexels, 128);
        CHECK_EQ(shape.HeightInTexels, 128);
        CHECK_EQ(pm.NumStandardMips, 1);
        CHECK_EQ(nsub, 1);
        CHECK_EQ(st.WidthInTiles, 4);
        CHECK_EQ(st.HeightInTiles, 4);
        void *p = SENTINEL;
        CHECK_HR(r->Map(0, nullptr, &p), E_INVALIDARG);
        CHECK_PTR(p, SENTINEL);
        D3D12_HEAP_FLAGS f = D3D12_HEAP_FLAGS(0xdeadbeef);
        CHECK_HR(r->GetHeapProperties(nullptr, &f), E_INVALIDARG);
        CHECK_EQ(f, 0xdeadbeef);
    }
    r.reset();
    td.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    CHECK_HR(dev->CreateReservedResource(&td, D3D12_RESOURCE_STATE_COMMON, nullptr, IID_PPV_ARGS(&r)), E_INVALIDARG);
    CHECK(!r);
    D3D12_RESOURCE_DESC bd = buf_desc(3 * 65536 + 1);
    CHECK_HR(dev->CreateReservedResource(&bd, D3D12_RESOURCE_STATE_COMMON, nullptr, IID_PPV_ARGS(&r)), S_OK);
    if (r) {
        CHECK(r->GetGPUVirtualAddress() != 0);
        UINT tiles = 0;
        dev->GetResourceTiling(r.get(), &tiles, nullptr, nullptr, nullptr, 0, nullptr);
        CHECK_EQ(tiles, 4);
    }
    r.reset();

    // The enhanced-barrier creation methods: the adapter has no enhanced barriers.
    g_ctx = "ID3D12Device10 (C++)";
    Com<ID3D12Device10> dev10;
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&dev10)), S_OK);
    if (dev10) {
        D3D12_HEAP_PROPERTIES dp = hprops(D3D12_HEAP_TYPE_DEFAULT);
        D3D12_RESOURCE_DESC1 bd1 = {};
        bd1.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        bd1.Width = 65536;
        bd1.Height = 1;
        bd1.DepthOrArraySize = 1;
        bd1.MipLevels = 1;
        bd1.SampleDesc.Count = 1;
        bd1.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        ID3D12Resource *raw = static_cast<ID3D12Resource *>(SENTINEL);
        CHECK_HR(dev10->CreateCommittedResource3(&dp, D3D12_HEAP_FLAG_NONE, &bd1, D3D12_BARRIER_LAYOUT_UNDEFINED,
                                                 nullptr, nullptr, 0, nullptr, IID_PPV_ARGS(&raw)),
                 E_INVALIDARG);
        CHECK_PTR(raw, nullptr);
        raw = static_cast<ID3D12Resource *>(SENTINEL);
        CHECK_HR(dev10->CreateReservedResource2(&bd, D3D12_BARRIER_LAYOUT_UNDEFINED, nullptr, nullptr, 0, nullptr,
                                                IID_PPV_ARGS(&raw)),
                 E_INVALIDARG);
        CHECK_PTR(raw, nullptr);
        D3D12_HEAP_DESC hd = {};
        hd.SizeInBytes = 65536;
        hd.Properties = dp;
        Com<ID3D12Heap> heap;
        CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
        if (heap) {
            raw = static_cast<ID3D12Resource *>(SENTINEL);
            CHECK_HR(dev10->CreatePlacedResource2(heap.get(), 0, &bd1, D3D12_BARRIER_LAYOUT_UNDEFINED, nullptr, 0,
                                                  nullptr, IID_PPV_ARGS(&raw)),
                     E_INVALIDARG);
            CHECK_PTR(raw, nullptr);
        }
    }
    g_ctx.clear();
}

int main()
{
    {
        Com<ID3D12Device> dev;
        CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
        CHECK(dev);
        if (dev) {
            CHECK_EQ(refcount(dev.get()), 1);
            test_by_value(dev.get());
            test_seed(dev.get());
            test_threads_map(dev.get());
            test_threads_texture(dev.get());
            test_threads_placed(dev.get());
            test_threads_residency(dev.get());
            test_shared(dev.get());
            test_reserved(dev.get());
            CHECK_EQ(refcount(dev.get()), 1);
            CHECK_EQ(dev.release(), 0);
        }
    }
    std::printf("memory_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
