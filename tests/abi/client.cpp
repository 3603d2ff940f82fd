// tests/abi/client.cpp - ABI client test for libd3d12.so, written the way a C++ program compiled
// against Microsoft's DirectX-Headers on Linux calls the runtime: ordinary method syntax
// (dev->GetNodeCount()), IID_PPV_ARGS / __uuidof (from <dxguids/dxguids.h>, the DirectX-Headers
// way of giving every interface its IID on non-MSVC compilers), IID_* variables from
// libDirectX-Guids.a (no INITGUID anywhere), and a small ComPtr-like owner.
//
// Build and run (see tests/abi/README.md):
//   g++ -std=c++17 -Wall -Werror -I/usr/include/directx -I/usr/include/wsl/stubs
//       -I/usr/include/wsl -I/usr/include tests/abi/client.cpp -o $OUT/client_cpp
//       -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
//
// Every check prints one line when it fails (file:line, what, got vs expected); the last line is
// "client_cpp: N passed, M failed" and the exit status is 0 only when M is 0.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <dxguids/dxguids.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <cwchar>
#include <string>

// ---- the check counter --------------------------------------------------------------------

static unsigned g_passed, g_failed;
static std::string g_ctx; // which IID / feature a failure inside a loop was about

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

static const GUID GUID_RANDOM = {0x8f2c61a4, 0x3b0e, 0x4d7c, {0x9a, 0x11, 0x52, 0xe6, 0x0d, 0x47, 0xb3, 0x9c}};
static const GUID GUID_DATA = {0x2a7d4c11, 0x0c3e, 0x4f19, {0xa2, 0x6b, 0x11, 0x22, 0x33, 0x44, 0x55, 0x01}};
static const GUID GUID_IFACE = {0x2a7d4c11, 0x0c3e, 0x4f19, {0xa2, 0x6b, 0x11, 0x22, 0x33, 0x44, 0x55, 0x02}};

// ---- a C++ IUnknown that counts its references ------------------------------------------

class Counter : public IUnknown
{
public:
    ULONG refs = 1;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override
    {
        if (!ppv)
            return E_POINTER;
        if (riid == __uuidof(IUnknown)) {
            *ppv = static_cast<IUnknown *>(this);
            AddRef();
            return S_OK;
        }
        *ppv = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return ++refs; }
    ULONG STDMETHODCALLTYPE Release() override { return --refs; }
};

// ---- the tests ----------------------------------------------------------------------------

static void test_guids()
{
    // __uuidof (dxguids.h) and libDirectX-Guids.a agree.
    CHECK(__uuidof(IUnknown) == IID_IUnknown);
    CHECK(__uuidof(ID3D12Object) == IID_ID3D12Object);
    CHECK(__uuidof(ID3D12Device) == IID_ID3D12Device);
    CHECK(__uuidof(ID3D12Device5) == IID_ID3D12Device5);
    CHECK(__uuidof(ID3D12Device11) == IID_ID3D12Device11);
    CHECK(__uuidof(ID3D12Resource) == IID_ID3D12Resource);
    CHECK_EQ(sizeof(LUID), 8);
    CHECK_EQ(sizeof(wchar_t), 4);
}

static void test_global_functions()
{
    CHECK_HR(D3D12EnableExperimentalFeatures(0, nullptr, nullptr, nullptr), S_OK);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12TiledResourceTier4, nullptr, nullptr), E_NOINTERFACE);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &GUID_RANDOM, nullptr, nullptr), E_NOINTERFACE);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, nullptr, nullptr, nullptr), E_INVALIDARG);

    {
        Com<ID3D12SDKConfiguration> cfg;
        CHECK_HR(D3D12GetInterface(CLSID_D3D12SDKConfiguration, IID_PPV_ARGS(&cfg)), E_NOINTERFACE);
        CHECK(!cfg);
        // CLSID_D3D12Debug: the debug interfaces (without enabling anything).
        Com<ID3D12Debug> dbg;
        CHECK_HR(D3D12GetInterface(CLSID_D3D12Debug, IID_PPV_ARGS(&dbg)), S_OK);
        CHECK(dbg);
        Com<ID3D12Debug3> dbg3;
        if (dbg)
            CHECK_HR(dbg->QueryInterface(IID_PPV_ARGS(&dbg3)), S_OK);
        CHECK(dbg3);
        CHECK_HR(D3D12GetInterface(CLSID_D3D12Debug, __uuidof(ID3D12Debug), nullptr), E_POINTER);
    }

    const D3D_FEATURE_LEVEL bad[] = {D3D_FEATURE_LEVEL_9_1,  D3D_FEATURE_LEVEL_9_3,
                                     D3D_FEATURE_LEVEL_10_0, D3D_FEATURE_LEVEL_10_1,
                                     D3D_FEATURE_LEVEL(0),   D3D_FEATURE_LEVEL(~0u),
                                     D3D_FEATURE_LEVEL_12_1, D3D_FEATURE_LEVEL_12_2};
    for (D3D_FEATURE_LEVEL l : bad) {
        g_ctx = "MinimumFeatureLevel " + std::to_string(unsigned(l));
        void *p = SENTINEL;
        CHECK_HR(D3D12CreateDevice(nullptr, l, __uuidof(ID3D12Device), &p), E_INVALIDARG);
        CHECK_PTR(p, nullptr);
        g_ctx.clear();
    }
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device), nullptr), S_FALSE);
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12DeviceChild), nullptr), S_FALSE);
    {
        Com<ID3D12DeviceChild> child;
        CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&child)), E_NOINTERFACE);
        CHECK(!child);
        Com<ID3D12Pageable> pageable;
        CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&pageable)), E_NOINTERFACE);
        CHECK(!pageable);
    }
    {
        Com<ID3D12Device> core;
        CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_1_0_CORE, IID_PPV_ARGS(&core)), S_OK);
        CHECK(core);
        if (core)
            CHECK_EQ(core.release(), 0);
    }
}

// QueryInterface through IID_PPV_ARGS for one device version: same pointer, one more reference.
template <class T> static void qi_one(ID3D12Device *dev, const char *name, ULONG base)
{
    g_ctx = std::string("QueryInterface ") + name;
    Com<T> q;
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&q)), S_OK);
    CHECK_PTR(static_cast<IUnknown *>(q.get()), static_cast<IUnknown *>(dev));
    CHECK_EQ(refcount(dev), base + 1);
    if (q)
        CHECK_EQ(q.release(), base);
    g_ctx.clear();
}

template <class T> static void qi_none(ID3D12Device *dev, const char *name)
{
    g_ctx = std::string("QueryInterface ") + name;
    T *q = reinterpret_cast<T *>(SENTINEL);
    CHECK_HR(dev->QueryInterface(IID_PPV_ARGS(&q)), E_NOINTERFACE);
    CHECK_PTR(q, nullptr);
    g_ctx.clear();
}

static void test_query_interface(ID3D12Device *dev)
{
    ULONG base = refcount(dev);
    qi_one<IUnknown>(dev, "IUnknown", base);
    qi_one<ID3D12Object>(dev, "ID3D12Object", base);
    qi_one<ID3D12Device>(dev, "ID3D12Device", base);
    qi_one<ID3D12Device1>(dev, "ID3D12Device1", base);
    qi_one<ID3D12Device2>(dev, "ID3D12Device2", base);
    qi_one<ID3D12Device3>(dev, "ID3D12Device3", base);
    qi_one<ID3D12Device4>(dev, "ID3D12Device4", base);
    qi_one<ID3D12Device5>(dev, "ID3D12Device5", base);
    qi_one<ID3D12Device6>(dev, "ID3D12Device6", base);
    qi_one<ID3D12Device7>(dev, "ID3D12Device7", base);
    qi_one<ID3D12Device8>(dev, "ID3D12Device8", base);
    qi_one<ID3D12Device9>(dev, "ID3D12Device9", base);
    qi_one<ID3D12Device10>(dev, "ID3D12Device10", base);
    qi_one<ID3D12Device11>(dev, "ID3D12Device11", base);

    qi_none<ID3D12DeviceChild>(dev, "ID3D12DeviceChild");
    qi_none<ID3D12Pageable>(dev, "ID3D12Pageable");
    qi_none<ID3D12Resource>(dev, "ID3D12Resource");
    qi_none<ID3D12Fence>(dev, "ID3D12Fence");
    qi_none<ID3D12CommandQueue>(dev, "ID3D12CommandQueue");
    qi_none<ID3D12Debug>(dev, "ID3D12Debug");
    CHECK_HR(dev->QueryInterface(__uuidof(ID3D12Device), nullptr), E_POINTER);

    // The template QueryInterface of IUnknown works as well.
    Com<ID3D12Device9> d9;
    CHECK_HR(dev->QueryInterface(&d9), S_OK);
    CHECK_PTR(static_cast<IUnknown *>(d9.get()), static_cast<IUnknown *>(dev));
    if (d9) {
        // A method of a later version, called through the C++ vtable.
        CHECK_EQ(d9->GetNodeCount(), 1);
        CHECK_EQ(d9.release(), base);
    }
    CHECK_EQ(refcount(dev), base);
}

static void test_methods(ID3D12Device *dev)
{
    CHECK_EQ(dev->GetNodeCount(), 1);
    LUID l = dev->GetAdapterLuid();
    LUID l2 = dev->GetAdapterLuid();
    CHECK(l.LowPart != 0 || l.HighPart != 0);
    CHECK_EQ(l.LowPart, l2.LowPart);
    CHECK_EQ(l.HighPart, l2.HighPart);
    CHECK_HR(dev->GetDeviceRemovedReason(), S_OK);
    CHECK_HR(dev->SetStablePowerState(TRUE), S_OK);
    CHECK_HR(dev->MakeResident(0, nullptr), S_OK);
    CHECK_HR(dev->Evict(0, nullptr), S_OK);
    CHECK_HR(dev->MakeResident(1, nullptr), E_INVALIDARG);
    CHECK_HR(dev->Evict(1, nullptr), E_INVALIDARG);

    // The C++ virtual call and the raw vtable slot (the index contract) agree.
    using any_fn = void (*)();
    any_fn const *slots = *reinterpret_cast<any_fn const *const *>(dev);
    auto raw_nodes = reinterpret_cast<UINT (*)(ID3D12Device *)>(slots[7]);
    auto raw_removed = reinterpret_cast<HRESULT (*)(ID3D12Device *)>(slots[37]);
    auto raw_luid = reinterpret_cast<LUID (*)(ID3D12Device *)>(slots[43]);
    CHECK_EQ(raw_nodes(dev), dev->GetNodeCount());
    CHECK_HR(raw_removed(dev), dev->GetDeviceRemovedReason());
    LUID raw = raw_luid(dev);
    CHECK_EQ(raw.LowPart, l.LowPart);
    CHECK_EQ(raw.HighPart, l.HighPart);
    for (size_t i = 0; i < 80; i++) {
        g_ctx = "device vtable slot " + std::to_string(i);
        CHECK(slots[i] != nullptr);
        g_ctx.clear();
    }
}

static void test_features(ID3D12Device *dev)
{
    D3D12_FEATURE_DATA_ARCHITECTURE1 a{};
    a.NodeIndex = 0;
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE1, &a, sizeof(a)), S_OK);
    CHECK_EQ(a.TileBasedRenderer, 0);
    CHECK_EQ(a.UMA, 1);
    CHECK_EQ(a.CacheCoherentUMA, 1);
    CHECK_EQ(a.IsolatedMMU, 1);

    D3D12_FEATURE_DATA_ARCHITECTURE1 b;
    std::memset(&b, 0x77, sizeof(b));
    b.NodeIndex = 1;
    D3D12_FEATURE_DATA_ARCHITECTURE1 before = b;
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE1, &b, sizeof(b)), E_INVALIDARG);
    CHECK(std::memcmp(&b, &before, sizeof(b)) == 0);
    b.NodeIndex = 0;
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE1, &b, sizeof(b) + 1), E_INVALIDARG);
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE1, &b, sizeof(b) - 1), E_INVALIDARG);
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE1, nullptr, sizeof(b)), E_INVALIDARG);
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE(9), &b, sizeof(b)), E_INVALIDARG);
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE(0xFFFF), &b, sizeof(b)), E_INVALIDARG);

    D3D_FEATURE_LEVEL levels[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_12_0};
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl{};
    fl.NumFeatureLevels = 2;
    fl.pFeatureLevelsRequested = levels;
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof(fl)), S_OK);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_12_0);
    fl.NumFeatureLevels = 0;
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof(fl)), E_INVALIDARG);

    D3D12_FEATURE_DATA_SHADER_MODEL sm{D3D_SHADER_MODEL_6_5};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &sm, sizeof(sm)), S_OK);
    CHECK_EQ(sm.HighestShaderModel, D3D_SHADER_MODEL_6_2);
    sm.HighestShaderModel = D3D_SHADER_MODEL(0x99);
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_SHADER_MODEL, &sm, sizeof(sm)), E_INVALIDARG);
    CHECK_EQ(sm.HighestShaderModel, 0x99);

    D3D12_FEATURE_DATA_ROOT_SIGNATURE rs{D3D_ROOT_SIGNATURE_VERSION_1_1};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ROOT_SIGNATURE, &rs, sizeof(rs)), S_OK);
    CHECK_EQ(rs.HighestVersion, D3D_ROOT_SIGNATURE_VERSION_1_1);
    rs.HighestVersion = D3D_ROOT_SIGNATURE_VERSION(0);
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ROOT_SIGNATURE, &rs, sizeof(rs)), E_INVALIDARG);
    CHECK_EQ(rs.HighestVersion, 0);
}

static void test_private_data(ID3D12Device *dev, Counter &keep)
{
    // Name.
    const wchar_t name[] = L"client_cpp device";
    CHECK_HR(dev->SetName(name), S_OK);
    wchar_t buf[64] = {};
    UINT size = sizeof(buf);
    CHECK_HR(dev->GetPrivateData(WKPDID_D3DDebugObjectNameW, &size, buf), S_OK);
    CHECK_EQ(size, (std::wcslen(name) + 1) * sizeof(wchar_t));
    CHECK(std::wcscmp(buf, name) == 0);
    CHECK_HR(dev->SetName(nullptr), E_INVALIDARG);

    // Bytes.
    const uint64_t value = 0x0123456789abcdefull;
    size = 42;
    CHECK_HR(dev->GetPrivateData(GUID_DATA, &size, nullptr), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    CHECK_HR(dev->GetPrivateData(GUID_DATA, nullptr, nullptr), E_INVALIDARG);
    CHECK_HR(dev->SetPrivateData(GUID_DATA, sizeof(value), &value), S_OK);
    size = 0;
    CHECK_HR(dev->GetPrivateData(GUID_DATA, &size, nullptr), S_OK);
    CHECK_EQ(size, sizeof(value));
    uint32_t small = 0;
    size = sizeof(small);
    CHECK_HR(dev->GetPrivateData(GUID_DATA, &size, &small), DXGI_ERROR_MORE_DATA);
    CHECK_EQ(size, sizeof(value));
    uint64_t back = 0;
    size = sizeof(back);
    CHECK_HR(dev->GetPrivateData(GUID_DATA, &size, &back), S_OK);
    CHECK_EQ(back, value);
    // NULL data deletes whatever the size; deleting what is not there is S_FALSE (Windows).
    CHECK_HR(dev->SetPrivateData(GUID_DATA, 4, nullptr), S_OK);
    size = 42;
    CHECK_HR(dev->GetPrivateData(GUID_DATA, &size, &back), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    CHECK_HR(dev->SetPrivateData(GUID_DATA, 0, nullptr), S_FALSE);

    // Interface.
    Counter a, b;
    CHECK_HR(dev->SetPrivateDataInterface(GUID_IFACE, &a), S_OK);
    CHECK_EQ(a.refs, 2);
    IUnknown *out = nullptr;
    size = sizeof(out);
    CHECK_HR(dev->GetPrivateData(GUID_IFACE, &size, &out), S_OK);
    CHECK_PTR(out, static_cast<IUnknown *>(&a));
    CHECK_EQ(a.refs, 3);
    if (out)
        out->Release();
    CHECK_HR(dev->SetPrivateDataInterface(GUID_IFACE, &b), S_OK);
    CHECK_EQ(a.refs, 1);
    CHECK_EQ(b.refs, 2);
    CHECK_HR(dev->SetPrivateDataInterface(GUID_IFACE, nullptr), S_OK);
    CHECK_EQ(b.refs, 1);

    // Held until the device dies.
    CHECK_HR(dev->SetPrivateDataInterface(GUID_IFACE, &keep), S_OK);
    CHECK_EQ(keep.refs, 2);
}

int main()
{
    test_guids();
    test_global_functions();

    Counter keep;
    {
        Com<ID3D12Device> dev;
        CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
        CHECK(dev);
        if (dev) {
            CHECK_EQ(refcount(dev.get()), 1);

            // The singleton rule.
            {
                Com<ID3D12Device2> again;
                CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&again)), S_OK);
                CHECK_PTR(static_cast<IUnknown *>(again.get()), static_cast<IUnknown *>(dev.get()));
                CHECK_EQ(refcount(dev.get()), 2);
                if (again)
                    CHECK_EQ(again.release(), 1);
            }

            test_query_interface(dev.get());
            test_methods(dev.get());
            test_features(dev.get());
            test_private_data(dev.get(), keep);

            CHECK_EQ(dev->AddRef(), 2);
            CHECK_EQ(dev->Release(), 1);
            CHECK_EQ(dev.release(), 0);
            CHECK_EQ(keep.refs, 1);
        }
    }

    // A new device after the last release is a fresh object.
    {
        Com<ID3D12Device11> dev;
        CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
        if (dev) {
            CHECK_EQ(refcount(dev.get()), 1);
            UINT size = 1;
            CHECK_HR(dev->GetPrivateData(WKPDID_D3DDebugObjectNameW, &size, nullptr), DXGI_ERROR_NOT_FOUND);
            CHECK_EQ(dev.release(), 0);
        }
    }

    std::printf("client_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
