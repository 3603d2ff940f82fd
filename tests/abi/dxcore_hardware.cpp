// RD3D12_AS_HARDWARE=1 (what `rd3d12 run --as-hardware` sets): the CPU adapter presents itself
// as a hardware adapter, the opt-in DirectML and torch-directml need (they skip adapters whose
// DXCore IsHardware property is FALSE). Compiled against Microsoft's dxcore.h and linked
// against both of our libraries. The switch is read when the adapter object is made, so this
// program sets it before its first DXCore call. Checked: IsHardware TRUE; the adapter is still
// found by D3D12 core compute and graphics attributes and by DXCoreAdapterPreference::Hardware;
// its identity (description, vendor and device IDs) is unchanged; D3D12CreateDevice takes it and
// D3D12_FEATURE_ARCHITECTURE1 is the CPU adapter's (UMA, cache-coherent UMA, not tile-based,
// isolated MMU), exactly as without the switch (tests/abi/dxcore.cpp checks IsHardware FALSE
// there).
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#define COM_NO_WINDOWS_H
#include <directx/dxcore.h>
#include <dxguids/dxguids.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

static int failures = 0, checks = 0;
#define CHECK(cond)                                                                       \
    do {                                                                                  \
        ++checks;                                                                         \
        if (!(cond)) {                                                                    \
            ++failures;                                                                   \
            std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                                 \
    } while (0)
#define CHECK_HR(expr, want)                                                                           \
    do {                                                                                               \
        ++checks;                                                                                      \
        HRESULT hr_ = (expr);                                                                          \
        if (hr_ != (HRESULT)(want)) {                                                                  \
            ++failures;                                                                                \
            std::fprintf(stderr, "%s:%d: %s = 0x%08x, expected 0x%08x\n", __FILE__, __LINE__, #expr, \
                         (unsigned)hr_, (unsigned)(want));                                             \
        }                                                                                              \
    } while (0)

int main() {
    setenv("RD3D12_AS_HARDWARE", "1", 1);

    IDXCoreAdapterFactory *factory = nullptr;
    CHECK_HR(DXCoreCreateAdapterFactory(IID_PPV_ARGS(&factory)), S_OK);
    if (!factory) return 1;

    // What DirectML asks for: D3D12 core compute adapters, hardware first.
    const GUID compute = DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE;
    IDXCoreAdapterList *list = nullptr;
    CHECK_HR(factory->CreateAdapterList(1, &compute, IID_PPV_ARGS(&list)), S_OK);
    if (!list) return 1;
    CHECK(list->GetAdapterCount() == 1);
    DXCoreAdapterPreference hw_first = DXCoreAdapterPreference::Hardware;
    CHECK_HR(list->Sort(1, &hw_first), S_OK);
    IDXCoreAdapter *adapter = nullptr;
    CHECK_HR(list->GetAdapter(0, IID_PPV_ARGS(&adapter)), S_OK);
    if (!adapter) return 1;

    bool is_hw = false, integrated = false;
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::IsHardware, &is_hw), S_OK);
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::IsIntegrated, &integrated), S_OK);
    CHECK(is_hw);
    CHECK(integrated);  // still the UMA adapter it is
    CHECK(adapter->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS));
    CHECK(adapter->IsAttributeSupported(DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE));
    char desc[64] = {};
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::DriverDescription, sizeof desc, desc), S_OK);
    CHECK(std::strcmp(desc, "rd3d12 CPU adapter") == 0);
    DXCoreHardwareID id = {};
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::HardwareID, &id), S_OK);
    CHECK(id.vendorID == 0x1414 && id.deviceID == 0x0d12);

    ID3D12Device *dev = nullptr;
    CHECK_HR(D3D12CreateDevice(adapter, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (!dev) return 1;
    D3D12_FEATURE_DATA_ARCHITECTURE1 arch = {};
    CHECK_HR(dev->CheckFeatureSupport(D3D12_FEATURE_ARCHITECTURE1, &arch, sizeof arch), S_OK);
    CHECK(arch.UMA && arch.CacheCoherentUMA && !arch.TileBasedRenderer && arch.IsolatedMMU);
    LUID luid = {};
    CHECK_HR(adapter->GetProperty(DXCoreAdapterProperty::InstanceLuid, &luid), S_OK);
    LUID dev_luid = dev->GetAdapterLuid();
    CHECK(luid.LowPart == dev_luid.LowPart && luid.HighPart == dev_luid.HighPart);

    CHECK(dev->Release() == 0);
    adapter->Release();
    list->Release();
    CHECK(factory->Release() == 0);
    std::printf("dxcore_hardware.cpp: %d checks, %d failed\n", checks, failures);
    return failures ? 1 : 0;
}
