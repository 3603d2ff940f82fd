// ID3D12DeviceFactory and ID3D12DeviceConfiguration (Microsoft's "D3D12 Independent Devices"
// spec) through D3D12GetInterface(CLSID_D3D12DeviceFactory). The CPU adapter keeps one device
// per process, so CreateDevice follows the spec's rules for a driver without independent
// devices: the factory's flags choose between the existing device and DXGI_ERROR_ALREADY_EXISTS,
// and a new device becomes the process's device with the factory's configuration. The steps
// depend on each other (one process, one device), in this order.
#include <wsl/winadapter.h>
#include <directx/d3d12.h>
#include <directx/d3d12sdklayers.h>
#include <dxguids/dxguids.h>

#include "check.h"

static const HRESULT ALREADY_EXISTS = (HRESULT)0x887A0036, UNSUPPORTED = (HRESULT)0x887A0004;

static ID3D12DeviceFactory *new_factory() {
    ID3D12DeviceFactory *f = nullptr;
    CHECK_HR(D3D12GetInterface(CLSID_D3D12DeviceFactory, IID_PPV_ARGS(&f)), S_OK);
    return f;
}

static ID3D12DeviceConfiguration *config_of(IUnknown *o) {
    ID3D12DeviceConfiguration *c = nullptr;
    CHECK_HR(o->QueryInterface(IID_PPV_ARGS(&c)), S_OK);
    return c;
}

// A COM object that is no adapter.
struct NotAnAdapter : IUnknown {
    HRESULT STDMETHODCALLTYPE QueryInterface(REFIID riid, void **ppv) override {
        *ppv = nullptr;
        if (riid != __uuidof(IUnknown)) return E_NOINTERFACE;
        *ppv = this;
        return S_OK;
    }
    ULONG STDMETHODCALLTYPE AddRef() override { return 2; }
    ULONG STDMETHODCALLTYPE Release() override { return 1; }
};

int main() {
    // ---- a blank factory; flags ----
    ID3D12DeviceFactory *f1 = new_factory();
    if (!f1) return 1;
    CHECK_EQ(f1->GetFlags(), D3D12_DEVICE_FACTORY_FLAG_NONE);
    CHECK_HR(f1->SetFlags(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE), E_INVALIDARG);
    CHECK_HR(f1->SetFlags((D3D12_DEVICE_FACTORY_FLAGS)0x100), E_INVALIDARG);
    CHECK_EQ(f1->GetFlags(), D3D12_DEVICE_FACTORY_FLAG_NONE);

    // No device yet, and the factory may not install one: DXGI_ERROR_UNSUPPORTED.
    CHECK_HR(f1->SetFlags(D3D12_DEVICE_FACTORY_FLAG_DISALLOW_STORING_NEW_DEVICE_AS_SINGLETON), S_OK);
    ID3D12Device *dev = reinterpret_cast<ID3D12Device *>(SENTINEL);
    CHECK_HR(f1->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), UNSUPPORTED);
    CHECK_PTR(dev, NULL);

    // Experimental features stay with the factory until a device is made.
    GUID unknown = {0x12345678, 0x1, 0x2, {1, 2, 3, 4, 5, 6, 7, 8}};
    CHECK_HR(f1->EnableExperimentalFeatures(1, &unknown, nullptr, nullptr), E_NOINTERFACE);
    CHECK_HR(f1->EnableExperimentalFeatures(1, nullptr, nullptr, nullptr), E_INVALIDARG);
    CHECK_HR(f1->EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, nullptr, nullptr), S_OK);
    ID3D12DeviceConfiguration *fc = config_of(f1);
    if (!fc) return 1;
    D3D12_DEVICE_CONFIGURATION_DESC d = fc->GetDesc();
    CHECK_EQ(d.Flags, D3D12_DEVICE_FLAG_NONE);
    CHECK_EQ(d.SDKVersion, D3D12_SDK_VERSION);
    CHECK_EQ(d.NumEnabledExperimentalFeatures, 1);
    GUID got[2] = {};
    CHECK_HR(fc->GetEnabledExperimentalFeatures(got, 2), E_INVALIDARG);
    CHECK_HR(fc->GetEnabledExperimentalFeatures(got, 1), S_OK);
    CHECK(got[0] == D3D12ExperimentalShaderModels);
    // The configuration face shares the factory's identity.
    CHECK_EQ(refcount(f1), 2);
    ID3D12DeviceFactory *back = nullptr;
    CHECK_HR(fc->QueryInterface(IID_PPV_ARGS(&back)), S_OK);
    CHECK(back == f1);
    back->Release();
    fc->Release();

    // ---- the first device: installed as the process's device, with the factory's features ----
    CHECK_HR(f1->SetFlags(D3D12_DEVICE_FACTORY_FLAG_NONE), S_OK);
    NotAnAdapter stranger;
    CHECK_HR(f1->CreateDevice(&stranger, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), E_INVALIDARG);
    CHECK_HR(f1->CreateDevice(nullptr, D3D_FEATURE_LEVEL_9_1, IID_PPV_ARGS(&dev)), E_INVALIDARG);
    CHECK_HR(f1->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (!dev) return 1;
    ID3D12Device *same = nullptr;
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&same)), S_OK);
    CHECK(same == dev);  // the factory's device is the process's device
    same->Release();
    ID3D12DeviceConfiguration *dc = config_of(dev);
    if (!dc) return 1;
    d = dc->GetDesc();
    CHECK_EQ(d.NumEnabledExperimentalFeatures, 1);
    CHECK_EQ(d.Flags, D3D12_DEVICE_FLAG_NONE);
    CHECK_HR(dc->GetEnabledExperimentalFeatures(got, 1), S_OK);
    CHECK(got[0] == D3D12ExperimentalShaderModels);
    ID3D12Device *dback = nullptr;
    CHECK_HR(dc->QueryInterface(IID_PPV_ARGS(&dback)), S_OK);
    CHECK(dback == dev);
    dback->Release();
    // The root-signature exports, through the configuration.
    D3D12_VERSIONED_ROOT_SIGNATURE_DESC rs = {};
    rs.Version = D3D_ROOT_SIGNATURE_VERSION_1_1;
    ID3DBlob *blob = nullptr, *err = nullptr;
    CHECK_HR(dc->SerializeVersionedRootSignature(&rs, &blob, &err), S_OK);
    if (blob) {
        ID3D12VersionedRootSignatureDeserializer *des = nullptr;
        CHECK_HR(dc->CreateVersionedRootSignatureDeserializer(blob->GetBufferPointer(), blob->GetBufferSize(),
                                                             IID_PPV_ARGS(&des)),
                 S_OK);
        if (des) des->Release();
        blob->Release();
    }
    dc->Release();

    // ---- a second, blank factory: the existing device only when allowed and compatible ----
    ID3D12DeviceFactory *f2 = new_factory();
    ID3D12Device *dev2 = reinterpret_cast<ID3D12Device *>(SENTINEL);
    CHECK_HR(f2->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), ALREADY_EXISTS);
    CHECK_PTR(dev2, NULL);
    CHECK_HR(f2->SetFlags(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE), S_OK);
    // Asking for no experimental feature is satisfied by a device that has one.
    CHECK_HR(f2->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), S_OK);
    CHECK(dev2 == dev);
    if (dev2) dev2->Release();
    CHECK_HR(f2->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, __uuidof(ID3D12Device), nullptr), S_FALSE);

    // ---- a factory with its own debug layer: not the process's switch ----
    ID3D12DeviceFactory *f3 = new_factory();
    ID3D12Debug *dbg = nullptr;
    CHECK_HR(f3->GetConfigurationInterface(CLSID_D3D12Debug, IID_PPV_ARGS(&dbg)), S_OK);
    void *tools = SENTINEL;
    CHECK_HR(f3->GetConfigurationInterface(CLSID_D3D12Tools, IID_ID3D12Tools, &tools), E_NOINTERFACE);
    CHECK_PTR(tools, NULL);
    if (dbg) {
        dbg->EnableDebugLayer();
        ID3D12Debug3 *dbg3 = nullptr;
        CHECK_HR(dbg->QueryInterface(IID_PPV_ARGS(&dbg3)), S_OK);  // the same factory's settings
        if (dbg3) {
            dbg3->SetEnableGPUBasedValidation(TRUE);
            dbg3->Release();
        }
        dbg->Release();
    }
    // The process's device was not removed, as a global EnableDebugLayer would have done.
    CHECK_HR(dev->GetDeviceRemovedReason(), S_OK);
    ID3D12DeviceConfiguration *f3c = config_of(f3);
    if (f3c) {
        d = f3c->GetDesc();
        CHECK_EQ(d.Flags, D3D12_DEVICE_FLAG_DEBUG_LAYER_ENABLED | D3D12_DEVICE_FLAG_GPU_BASED_VALIDATION_ENABLED |
                              D3D12_DEVICE_FLAG_SYNCHRONIZED_COMMAND_QUEUE_VALIDATION_DISABLED);
        CHECK_EQ(d.NumEnabledExperimentalFeatures, 0);
        f3c->Release();
    }
    // Incompatible (the layer differs): refused unless any existing device will do.
    CHECK_HR(f3->SetFlags(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE), S_OK);
    CHECK_HR(f3->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), ALREADY_EXISTS);
    CHECK_HR(f3->SetFlags(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE |
                          D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE),
             S_OK);
    CHECK_HR(f3->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), S_OK);
    CHECK(dev2 == dev);
    if (dev2) dev2->Release();
    // InitializeFromGlobalState: back to the process's configuration (no layer, the feature the
    // first factory installed), which the device satisfies.
    CHECK_HR(f3->InitializeFromGlobalState(), S_OK);
    CHECK_HR(f3->SetFlags(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE), S_OK);
    CHECK_HR(f3->CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev2)), S_OK);
    CHECK(dev2 == dev);
    if (dev2) dev2->Release();
    f3c = config_of(f3);
    if (f3c) {
        CHECK_EQ(f3c->GetDesc().NumEnabledExperimentalFeatures, 1);
        f3c->Release();
    }

    // ---- ApplyToGlobalState: a new global experimental set removes the process's device ----
    CHECK_HR(f2->ApplyToGlobalState(), S_OK);  // f2 is blank: no experimental features
    CHECK(dev->GetDeviceRemovedReason() != S_OK);
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&same)), DXGI_ERROR_DEVICE_REMOVED);

    CHECK_EQ(f3->Release(), 0);
    CHECK_EQ(f2->Release(), 0);
    CHECK_EQ(f1->Release(), 0);
    CHECK_EQ(dev->Release(), 0);
    // With the removed device gone, a new one has the blank global configuration.
    CHECK_HR(D3D12CreateDevice(nullptr, D3D_FEATURE_LEVEL_11_0, IID_PPV_ARGS(&dev)), S_OK);
    if (dev) {
        dc = config_of(dev);
        if (dc) {
            CHECK_EQ(dc->GetDesc().NumEnabledExperimentalFeatures, 0);
            dc->Release();
        }
        CHECK_EQ(dev->Release(), 0);
    }

    printf("factory_cpp: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
