// DXCore through libdxcore.so and D3D12CreateDevice with a DXCore adapter, compiled against
// Microsoft's dxcore.h (C++ only) and linked against both of our libraries: the factory, the
// adapter list, every property of the header with its documented size, the memory budget
// against heaps we create, and the documented HRESULT of every bad input.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
// dxcore_interface.h would include windows.h; on Linux d3d12.h brought wsl/winadapter.h instead.
#define COM_NO_WINDOWS_H
#include <directx/dxcore.h>
#include <dxguids/dxguids.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0, checks = 0;
#define CHECK(cond)                                                                  \
    do {                                                                             \
        ++checks;                                                                    \
        if (!(cond)) {                                                               \
            ++failures;                                                              \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                            \
    } while (0)
#define CHECK_HR(expr, want)                                                                   \
    do {                                                                                       \
        ++checks;                                                                              \
        HRESULT hr_ = (expr);                                                                  \
        if (hr_ != (HRESULT)(want)) {                                                          \
            ++failures;                                                                        \
            std::fprintf(stderr, "%s:%d: %s = 0x%08x, expected 0x%08x\n", __FILE__, __LINE__, #expr, \
                         (unsigned)hr_, (unsigned)(want));                                      \
        }                                                                                      \
    } while (0)

static const HRESULT INVALID_CALL = (HRESULT)0x887A0001, UNSUPPORTED = (HRESULT)0x887A0004;

static ULONG refs(IUnknown *u) {
    u->AddRef();
    return u->Release();
}

// A COM object that is no adapter: D3D12CreateDevice must refuse it without looking inside.
struct NotAnAdapter : IUnknown {
    ULONG n = 1;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override {
        if (riid == __uuidof(IUnknown)) {
            *ppv = this;
            AddRef();
            return S_OK;
        }
        *ppv = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return ++n; }
    ULONG STDMETHODCALLTYPE Release() override { return --n; }
};

// A DXCore adapter of some other implementation: answers IDXCoreAdapter with another LUID.
struct ForeignAdapter : IDXCoreAdapter {
    ULONG n = 1;
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override {
        if (riid == __uuidof(IUnknown) || riid == __uuidof(IDXCoreAdapter)) {
            *ppv = this;
            AddRef();
            return S_OK;
        }
        *ppv = nullptr;
        return E_NOINTERFACE;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return ++n; }
    ULONG STDMETHODCALLTYPE Release() override { return --n; }
    bool STDMETHODCALLTYPE IsValid() override { return true; }
    bool STDMETHODCALLTYPE IsAttributeSupported(REFGUID) override { return true; }
    bool STDMETHODCALLTYPE IsPropertySupported(DXCoreAdapterProperty) override { return true; }
    HRESULT STDMETHODCALLTYPE GetProperty(DXCoreAdapterProperty p, size_t size, void *data) override {
        if (p != DXCoreAdapterProperty::InstanceLuid || size < sizeof(LUID)) return E_INVALIDARG;
        LUID l = {0x1234, 0};
        std::memcpy(data, &l, sizeof l);
        return S_OK;
    }
    HRESULT STDMETHODCALLTYPE GetPropertySize(DXCoreAdapterProperty, size_t *s) override {
        *s = sizeof(LUID);
        return S_OK;
    }
    bool STDMETHODCALLTYPE IsQueryStateSupported(DXCoreAdapterState) override { return false; }
    HRESULT STDMETHODCALLTYPE QueryState(DXCoreAdapterState, size_t, const void *, size_t, void *) override { return E_FAIL; }
    bool STDMETHODCALLTYPE IsSetStateSupported(DXCoreAdapterState) override { return false; }
    HRESULT STDMETHODCALLTYPE SetState(DXCoreAdapterState, size_t, const void *, size_t, const void *) override { return E_FAIL; }
    HRESULT STDMETHODCALLTYPE GetFactory(REFIID, void **ppv) override {
        *ppv = nullptr;
        return E_NOINTERFACE;
    }
};

static void notify(DXCoreNotificationType, IUnknown *, void *) {}

int main() {
    // ---- the factory ----
    IDXCoreAdapterFactory *factory = nullptr;
    CHECK_HR(DXCoreCreateAdapterFactory(__uuidof(IDXCoreAdapterFactory), nullptr), E_POINTER);
    void *junk = (void *)0x1;
    CHECK_HR(DXCoreCreateAdapterFactory(__uuidof(ID3D12Device), &junk), E_NOINTERFACE);
    CHECK(junk == nullptr);
    CHECK_HR(DXCoreCreateAdapterFactory(IID_PPV_ARGS(&factory)), S_OK);
    if (!factory) return 1;
    IDXCoreAdapterFactory *again = nullptr;
    CHECK_HR(DXCoreCreateAdapterFactory(IID_PPV_ARGS(&again)), S_OK);
    CHECK(again == factory);  // one factory per process while it is referenced
    again->Release();

    // ---- adapter lists ----
    const GUID gfx = DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS;
    IDXCoreAdapterList *list = nullptr;
    CHECK_HR(factory->CreateAdapterList(0, &gfx, IID_PPV_ARGS(&list)), E_INVALIDARG);
    CHECK_HR(factory->CreateAdapterList(1, nullptr, IID_PPV_ARGS(&list)), E_INVALIDARG);
    CHECK_HR(factory->CreateAdapterList(1, &gfx, __uuidof(IDXCoreAdapterList), nullptr), E_POINTER);
    CHECK_HR(factory->CreateAdapterList(1, &gfx, __uuidof(IDXCoreAdapter), (void **)&list), E_NOINTERFACE);
    CHECK(list == nullptr);
    CHECK_HR(factory->CreateAdapterList(1, &gfx, IID_PPV_ARGS(&list)), S_OK);
    if (!list) return 1;
    CHECK(list->GetAdapterCount() == 1);
    CHECK(!list->IsStale());
    const GUID d3d11 = DXCORE_ADAPTER_ATTRIBUTE_D3D11_GRAPHICS;
    IDXCoreAdapterList *none = nullptr;
    CHECK_HR(factory->CreateAdapterList(1, &d3d11, IID_PPV_ARGS(&none)), S_OK);  // valid, empty
    CHECK(none && none->GetAdapterCount() == 0);
    const GUID both[2] = {DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS, DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE};
    IDXCoreAdapterList *compute = nullptr;
    CHECK_HR(factory->CreateAdapterList(2, both, IID_PPV_ARGS(&compute)), S_OK);
    CHECK(compute && compute->GetAdapterCount() == 1);

    IDXCoreAdapter *adapter = nullptr;
    CHECK_HR(list->GetAdapter(1, IID_PPV_ARGS(&adapter)), E_INVALIDARG);
    CHECK_HR(list->GetAdapter(0, __uuidof(IDXCoreAdapter), nullptr), E_POINTER);
    CHECK_HR(list->GetAdapter(0, IID_PPV_ARGS(&adapter)), S_OK);
    if (!adapter) return 1;
    IDXCoreAdapter *same = nullptr;
    CHECK_HR(compute->GetAdapter(0, IID_PPV_ARGS(&same)), S_OK);
    CHECK(same == adapter);  // the same adapter object from every list
    same->Release();
    IDXCoreAdapterFactory *f2 = nullptr;
    CHECK_HR(list->GetFactory(IID_PPV_ARGS(&f2)), S_OK);
    CHECK(f2 == factory);
    f2->Release();
    CHECK_HR(adapter->GetFactory(IID_PPV_ARGS(&f2)), S_OK);
    CHECK(f2 == factory);
    f2->Release();

    // Sort: zero preferences or NULL are refused; unknown preferences are ignored.
    DXCoreAdapterPreference prefs[3] = {DXCoreAdapterPreference::HighPerformance, (DXCoreAdapterPreference)77,
                                        DXCoreAdapterPreference::Hardware};
    CHECK_HR(list->Sort(0, prefs), E_INVALIDARG);
    CHECK_HR(list->Sort(1, nullptr), E_INVALIDARG);
    CHECK_HR(list->Sort(3, prefs), S_OK);
    CHECK(list->IsAdapterPreferenceSupported(DXCoreAdapterPreference::MinimumPower));
    CHECK(!list->IsAdapterPreferenceSupported((DXCoreAdapterPreference)77));

    // ---- the adapter ----
    CHECK(adapter->IsValid());
    CHECK(adapter->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS));
    CHECK(adapter->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE));
    CHECK(!adapter->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D11_GRAPHICS));
    // Sizes of every property of the header (DXCoreAdapterProperty reference).
    const size_t sizes[15] = {sizeof(LUID), 8, 0, sizeof(DXCoreHardwareID), 4, 2, 2, 8, 8, 8, 1, 1, 1, 1,
                              sizeof(DXCoreHardwareIDParts)};
    for (int p = 0; p < 15; p++) {
        CHECK(adapter->IsPropertySupported((DXCoreAdapterProperty)p));
        size_t s = 0;
        CHECK_HR(adapter->GetPropertySize((DXCoreAdapterProperty)p, &s), S_OK);
        if (p != 2) CHECK(s == sizes[p]);
    }
    size_t dsize = 0;
    CHECK_HR(adapter->GetPropertySize(DXCoreAdapterProperty::DriverDescription, &dsize), S_OK);
    std::vector<char> desc(dsize + 40, 'x');
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DriverDescription, desc.size(), desc.data()), S_OK);  // larger buffer
    CHECK(std::strcmp(desc.data(), "rd3d12 CPU adapter") == 0 && dsize == std::strlen(desc.data()) + 1);
    CHECK(desc.back() == 0);  // the rest of the buffer is zeroed
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DriverDescription, dsize - 1, desc.data()), E_INVALIDARG);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DriverDescription, dsize, nullptr), E_POINTER);
    CHECK(!adapter->IsPropertySupported((DXCoreAdapterProperty)15));
    size_t s = 0;
    CHECK_HR(adapter->GetPropertySize((DXCoreAdapterProperty)15, &s), INVALID_CALL);
    CHECK_HR(adapter->GetPropertySize((DXCoreAdapterProperty)0x7fffffff, &s), INVALID_CALL);
    CHECK_HR(adapter->GetPropertySize(DXCoreAdapterProperty::InstanceLuid, nullptr), E_POINTER);
    uint64_t u64 = 0;
    CHECK_HR(adapter->GetProperty((DXCoreAdapterProperty)15, sizeof u64, &u64), INVALID_CALL);

    DXCoreHardwareID hw = {};
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::HardwareID, &hw), S_OK);
    CHECK(hw.vendorID == 0x1414 && hw.deviceID == 0x0d12);
    DXCoreHardwareIDParts parts = {};
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::HardwareIDParts, &parts), S_OK);
    CHECK(parts.vendorID == 0x1414 && parts.deviceID == 0x0d12 && parts.subVendorID == 0);
    uint64_t dedicated = 1, dedsys = 1, shared = 0, version = 0;
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DedicatedAdapterMemory, &dedicated), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DedicatedSystemMemory, &dedsys), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::SharedSystemMemory, &shared), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DriverVersion, &version), S_OK);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    CHECK(dedicated == 0 && dedsys == 0 && shared == (uint64_t)pages * (uint64_t)page);
    CHECK((version >> 48) == 0 && ((version >> 32) & 0xffff) == 1);  // 0.1.0.0, the crate's version
    uint32_t kmd = 0;
    uint16_t cpre = 0, gpre = 0;
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::KmdModelVersion, &kmd), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::ComputePreemptionGranularity, &cpre), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::GraphicsPreemptionGranularity, &gpre), S_OK);
    CHECK(kmd == 2700 && cpre == 500 && gpre == 500);
    bool hwb = true, integrated = false, detachable = true, acg = false;
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::IsHardware, &hwb), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::IsIntegrated, &integrated), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::IsDetachable, &detachable), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::AcgCompatible, &acg), S_OK);
    CHECK(!hwb && integrated && !detachable && acg);
    LUID luid = {};
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::InstanceLuid, &luid), S_OK);
    CHECK(luid.LowPart != 0 || luid.HighPart != 0);

    // GetAdapterByLuid finds the same adapter; another LUID is E_INVALIDARG.
    IDXCoreAdapter *byluid = nullptr;
    CHECK_HR(factory->GetAdapterByLuid(luid, IID_PPV_ARGS(&byluid)), S_OK);
    CHECK(byluid == adapter);
    if (byluid) byluid->Release();
    LUID other = {luid.LowPart ^ 0x10, luid.HighPart};
    CHECK_HR(factory->GetAdapterByLuid(other, IID_PPV_ARGS(&byluid)), E_INVALIDARG);
    CHECK_HR(factory->GetAdapterByLuid(luid, __uuidof(IDXCoreAdapter), nullptr), E_POINTER);

    // ---- D3D12CreateDevice on the DXCore adapter ----
    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(adapter, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (!dev) return 1;
    LUID dl = dev->GetAdapterLuid();
    CHECK(dl.LowPart == luid.LowPart && dl.HighPart == luid.HighPart);
    ID3D12Device *dev2 = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), S_OK);
    CHECK(dev2 == dev);  // NULL is the same adapter: the same device
    dev2->Release();
    NotAnAdapter stranger;
    CHECK_HR(D3D12CreateDevice(&stranger, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), E_INVALIDARG);
    CHECK(dev2 == nullptr && stranger.n == 1);
    ForeignAdapter foreign;
    CHECK_HR(D3D12CreateDevice(&foreign, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), UNSUPPORTED);
    CHECK(dev2 == nullptr && foreign.n == 1);  // the reference QueryInterface took is given back
    CHECK_HR(D3D12CreateDevice(adapter, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device), nullptr), S_FALSE);

    // ---- adapter state: the memory budget follows the heaps we create ----
    DXCoreAdapterMemoryBudgetNodeSegmentGroup local = {0, DXCoreSegmentGroup::Local};
    DXCoreAdapterMemoryBudget before = {}, after = {};
    CHECK(adapter->IsQueryStateSupported(DXCoreAdapterState::AdapterMemoryBudget));
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, &local, &before), S_OK);
    D3D12_HEAP_DESC hd = {};
    hd.SizeInBytes = 64 << 20;
    hd.Properties.Type = D3D12_HEAP_TYPE_DEFAULT;
    ID3D12Heap *heap = nullptr;
    CHECK_HR(dev->CreateHeap(&hd, IID_PPV_ARGS(&heap)), S_OK);
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, &local, &after), S_OK);
    CHECK(after.currentUsage == before.currentUsage + (64u << 20));
    CHECK(after.budget >= after.currentUsage && after.budget <= shared);
    CHECK(after.availableForReservation == after.budget / 2 && after.currentReservation == 0);
    if (heap) heap->Release();
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, &local, &after), S_OK);
    CHECK(after.currentUsage == before.currentUsage);
    DXCoreAdapterMemoryBudgetNodeSegmentGroup nonlocal = {0, DXCoreSegmentGroup::NonLocal};
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, &nonlocal, &after), S_OK);
    CHECK(after.budget == 0 && after.currentUsage == 0);  // UMA: no non-local memory
    DXCoreAdapterMemoryBudgetNodeSegmentGroup node1 = {1, DXCoreSegmentGroup::Local};
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, &node1, &after), E_INVALIDARG);
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, sizeof local, &local, sizeof after - 1, &after),
             E_INVALIDARG);
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, sizeof local - 1, &local, sizeof after, &after),
             E_INVALIDARG);
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, sizeof local, nullptr, sizeof after, &after),
             E_POINTER);
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::AdapterMemoryBudget, sizeof local, &local, sizeof after, nullptr),
             E_POINTER);
    uint8_t updating = 7;
    CHECK_HR(adapter->QueryState(DXCoreAdapterState::IsDriverUpdateInProgress, 0, nullptr, 1, &updating), S_OK);
    CHECK(updating == 0);
    CHECK_HR(adapter->QueryState((DXCoreAdapterState)2, 0, nullptr, 8, &u64), INVALID_CALL);
    // SetState: neither state of the header can be set.
    CHECK(!adapter->IsSetStateSupported(DXCoreAdapterState::AdapterMemoryBudget));
    CHECK_HR(adapter->SetState(DXCoreAdapterState::AdapterMemoryBudget, sizeof local, &local, sizeof before, &before),
             UNSUPPORTED);
    CHECK_HR(adapter->SetState((DXCoreAdapterState)9, 0, nullptr, 0, nullptr), INVALID_CALL);

    // ---- notifications ----
    uint32_t cookie = 99;
    CHECK(factory->IsNotificationTypeSupported(DXCoreNotificationType::AdapterListStale));
    CHECK_HR(factory->RegisterEventNotification(list, DXCoreNotificationType::AdapterListStale, nullptr, nullptr, &cookie),
             E_POINTER);
    CHECK(cookie == 0);
    CHECK_HR(factory->RegisterEventNotification(list, DXCoreNotificationType::AdapterListStale, notify, nullptr, nullptr),
             E_POINTER);
    CHECK_HR(factory->RegisterEventNotification(nullptr, DXCoreNotificationType::AdapterListStale, notify, nullptr, &cookie),
             E_INVALIDARG);
    CHECK_HR(factory->RegisterEventNotification(adapter, DXCoreNotificationType::AdapterListStale, notify, nullptr, &cookie),
             E_INVALIDARG);  // a list's notification on an adapter
    CHECK_HR(factory->RegisterEventNotification(list, (DXCoreNotificationType)42, notify, nullptr, &cookie), INVALID_CALL);
    CHECK_HR(factory->RegisterEventNotification(list, DXCoreNotificationType::AdapterListStale, notify, nullptr, &cookie), S_OK);
    CHECK(cookie != 0);
    uint32_t cookie2 = 0;
    CHECK_HR(factory->RegisterEventNotification(adapter, DXCoreNotificationType::AdapterBudgetChange, notify, nullptr, &cookie2),
             S_OK);
    CHECK(cookie2 != 0 && cookie2 != cookie);
    CHECK_HR(factory->UnregisterEventNotification(cookie), S_OK);
    CHECK_HR(factory->UnregisterEventNotification(cookie), E_INVALIDARG);
    CHECK_HR(factory->UnregisterEventNotification(cookie2), S_OK);

    // ---- events as Mesa uses them: the eventfd closed before the fence completes ----
    ID3D12Fence *fence = nullptr;
    CHECK_HR(dev->CreateFence(0, D3D12_FENCE_FLAG_NONE, IID_PPV_ARGS(&fence)), S_OK);
    int efd = eventfd(0, EFD_CLOEXEC);
    CHECK_HR(fence->SetEventOnCompletion(1, (HANDLE)(intptr_t)efd), S_OK);
    close(efd);
    int reused = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);  // very likely the same number
    CHECK_HR(fence->Signal(1), S_OK);
    uint64_t got = 0;
    CHECK(read(reused, &got, 8) < 0);  // the runtime wrote to its own duplicate, not to this one
    close(reused);
    int efd2 = eventfd(0, EFD_CLOEXEC);
    CHECK_HR(fence->SetEventOnCompletion(2, (HANDLE)(intptr_t)efd2), S_OK);
    CHECK_HR(fence->Signal(2), S_OK);
    struct pollfd pfd = {efd2, POLLIN, 0};
    CHECK(poll(&pfd, 1, 5000) == 1 && read(efd2, &got, 8) == 8 && got == 1);  // still signalled
    close(efd2);
    fence->Release();

    // ---- lifetimes ----
    CHECK(refs(adapter) == 3);  // ours, list's, compute list's: the device creation kept none
    compute->Release();
    none->Release();
    list->Release();
    CHECK(refs(adapter) == 1);
    adapter->Release();
    CHECK(factory->Release() == 0);
    CHECK(dev->Release() == 0);

    std::printf("dxcore.cpp: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
