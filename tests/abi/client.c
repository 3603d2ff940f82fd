/* tests/abi/client.c - ABI client test for libd3d12.so, written the way a C program compiled
 * against Microsoft's DirectX-Headers calls the runtime: CINTERFACE + COBJMACROS
 * (ID3D12Device_GetNodeCount(dev)), IIDs from libDirectX-Guids.a.
 *
 * Build and run (see tests/abi/README.md):
 *   gcc -std=c11 -Wall -Werror -DCINTERFACE -DCOBJMACROS -I/usr/include/directx \
 *       -I/usr/include/wsl/stubs -I/usr/include/wsl -I/usr/include tests/abi/client.c \
 *       -o $OUT/client_c -L$LIBDIR -ld3d12 -Wl,-rpath,$LIBDIR \
 *       /usr/lib/x86_64-linux-gnu/libDirectX-Guids.a
 *
 * Every check prints one line when it fails (file:line, what, got vs expected); the last line is
 * "client_c: N passed, M failed" and the exit status is 0 only when M is 0.
 *
 * Behaviour checked is Microsoft's (learn.microsoft.com and the comments of d3d12.h); the
 * places where a check encodes a documented rule rather than a measured one say so. */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* ---- the check counter ------------------------------------------------------------------- */

#include "check.h"
/* Context printed with a failure from a loop (which IID, which feature, which slot). */
static void check_failed(const char *file, int line, const char *what, HRESULT got)
{
    if (FAILED(got)) {
        g_passed++;
        return;
    }
    fail_prefix(file, line, what);
    printf("got HRESULT 0x%08x, expected a failure code\n", (unsigned)got);
}

#define CHECK_FAILED(got) check_failed(__FILE__, __LINE__, #got, (got))

/* A GUID nobody implements. */
static const GUID GUID_RANDOM = {0x8f2c61a4, 0x3b0e, 0x4d7c, {0x9a, 0x11, 0x52, 0xe6, 0x0d, 0x47, 0xb3, 0x9c}};
/* Private data keys of this test. */
static const GUID GUID_DATA_A = {0x1e3f0b5c, 0x7a21, 0x4c88, {0x8d, 0x02, 0x6f, 0x31, 0xa4, 0x55, 0x90, 0x01}};
static const GUID GUID_DATA_B = {0x1e3f0b5c, 0x7a21, 0x4c88, {0x8d, 0x02, 0x6f, 0x31, 0xa4, 0x55, 0x90, 0x02}};
static const GUID GUID_IFACE_A = {0x1e3f0b5c, 0x7a21, 0x4c88, {0x8d, 0x02, 0x6f, 0x31, 0xa4, 0x55, 0x90, 0x03}};
static const GUID GUID_IFACE_B = {0x1e3f0b5c, 0x7a21, 0x4c88, {0x8d, 0x02, 0x6f, 0x31, 0xa4, 0x55, 0x90, 0x04}};

/* ---- a C-implemented IUnknown that counts AddRef / Release -------------------------------- */

typedef struct counter
{
    IUnknown iface;
    ULONG refs;
    unsigned addrefs, releases;
} counter;

static ULONG STDMETHODCALLTYPE counter_add_ref(IUnknown *This)
{
    counter *c = (counter *)This;
    c->addrefs++;
    return ++c->refs;
}

static ULONG STDMETHODCALLTYPE counter_release(IUnknown *This)
{
    counter *c = (counter *)This;
    c->releases++;
    return --c->refs;
}

static HRESULT STDMETHODCALLTYPE counter_query_interface(IUnknown *This, REFIID riid, void **ppv)
{
    if (!ppv)
        return E_POINTER;
    if (memcmp(riid, &IID_IUnknown, sizeof(GUID)) == 0) {
        *ppv = This;
        counter_add_ref(This);
        return S_OK;
    }
    *ppv = NULL;
    return E_NOINTERFACE;
}

static IUnknownVtbl counter_vtbl = {counter_query_interface, counter_add_ref, counter_release};

static void counter_init(counter *c)
{
    memset(c, 0, sizeof(*c));
    c->iface.lpVtbl = &counter_vtbl;
    c->refs = 1;
}

/* ---- 1. the vtable index contract, against the C headers ---------------------------------- */

#define SLOT(vtbl, method, index)                                                   \
    do {                                                                            \
        set_ctx("%s slot %d", #vtbl "::" #method, (index));   \
        CHECK_EQ(offsetof(vtbl, method) / sizeof(void *), (index));                 \
        g_ctx[0] = 0;                                                               \
    } while (0)

/* The ID3D12Device slots (0..43), checked in both the ID3D12Device and ID3D12Device11 vtables:
 * each newer interface's vtable is the older one with methods appended. */
#define DEVICE_SLOTS(V)                                                                          \
    SLOT(V, QueryInterface, 0); SLOT(V, AddRef, 1); SLOT(V, Release, 2);                         \
    SLOT(V, GetPrivateData, 3); SLOT(V, SetPrivateData, 4); SLOT(V, SetPrivateDataInterface, 5); \
    SLOT(V, SetName, 6); SLOT(V, GetNodeCount, 7); SLOT(V, CreateCommandQueue, 8);               \
    SLOT(V, CreateCommandAllocator, 9); SLOT(V, CreateGraphicsPipelineState, 10);                \
    SLOT(V, CreateComputePipelineState, 11); SLOT(V, CreateCommandList, 12);                     \
    SLOT(V, CheckFeatureSupport, 13); SLOT(V, CreateDescriptorHeap, 14);                         \
    SLOT(V, GetDescriptorHandleIncrementSize, 15); SLOT(V, CreateRootSignature, 16);             \
    SLOT(V, CreateConstantBufferView, 17); SLOT(V, CreateShaderResourceView, 18);                \
    SLOT(V, CreateUnorderedAccessView, 19); SLOT(V, CreateRenderTargetView, 20);                 \
    SLOT(V, CreateDepthStencilView, 21); SLOT(V, CreateSampler, 22);                             \
    SLOT(V, CopyDescriptors, 23); SLOT(V, CopyDescriptorsSimple, 24);                            \
    SLOT(V, GetResourceAllocationInfo, 25); SLOT(V, GetCustomHeapProperties, 26);                \
    SLOT(V, CreateCommittedResource, 27); SLOT(V, CreateHeap, 28);                               \
    SLOT(V, CreatePlacedResource, 29); SLOT(V, CreateReservedResource, 30);                      \
    SLOT(V, CreateSharedHandle, 31); SLOT(V, OpenSharedHandle, 32);                              \
    SLOT(V, OpenSharedHandleByName, 33); SLOT(V, MakeResident, 34); SLOT(V, Evict, 35);          \
    SLOT(V, CreateFence, 36); SLOT(V, GetDeviceRemovedReason, 37);                               \
    SLOT(V, GetCopyableFootprints, 38); SLOT(V, CreateQueryHeap, 39);                            \
    SLOT(V, SetStablePowerState, 40); SLOT(V, CreateCommandSignature, 41);                       \
    SLOT(V, GetResourceTiling, 42); SLOT(V, GetAdapterLuid, 43)

static void test_layout(void)
{
    DEVICE_SLOTS(ID3D12DeviceVtbl);
    DEVICE_SLOTS(ID3D12Device11Vtbl);
    /* A few later versions' first / last slots. */
    SLOT(ID3D12Device11Vtbl, CreatePipelineLibrary, 44);
    SLOT(ID3D12Device11Vtbl, RemoveDevice, 58);
    SLOT(ID3D12Device11Vtbl, CreateSampler2, 79);
    CHECK_EQ(sizeof(ID3D12DeviceVtbl) / sizeof(void *), 44);
    CHECK_EQ(sizeof(ID3D12Device11Vtbl) / sizeof(void *), 80);

    SLOT(ID3D12ResourceVtbl, QueryInterface, 0);
    SLOT(ID3D12ResourceVtbl, SetName, 6);
    SLOT(ID3D12ResourceVtbl, GetDevice, 7);
    SLOT(ID3D12ResourceVtbl, Map, 8);
    SLOT(ID3D12ResourceVtbl, Unmap, 9);
    SLOT(ID3D12ResourceVtbl, GetDesc, 10);
    SLOT(ID3D12ResourceVtbl, GetGPUVirtualAddress, 11);
    SLOT(ID3D12ResourceVtbl, WriteToSubresource, 12);
    SLOT(ID3D12ResourceVtbl, ReadFromSubresource, 13);
    SLOT(ID3D12ResourceVtbl, GetHeapProperties, 14);
    CHECK_EQ(sizeof(ID3D12ResourceVtbl) / sizeof(void *), 15);

    /* Linux x86-64 ABI facts the other checks rely on. */
    CHECK_EQ(sizeof(LUID), 8);
    CHECK_EQ(sizeof(wchar_t), 4);
    CHECK_EQ(sizeof(WCHAR), 4);
    CHECK_EQ(sizeof(GUID), 16);
    CHECK_EQ(sizeof(BOOL), 4);
    CHECK_EQ(sizeof(D3D12_FEATURE_DATA_ARCHITECTURE), 16);
    CHECK_EQ(sizeof(D3D12_FEATURE_DATA_ARCHITECTURE1), 20);
    CHECK_EQ(sizeof(D3D12_FEATURE_DATA_FEATURE_LEVELS), 24);
}

/* ---- 2. D3D12EnableExperimentalFeatures ---------------------------------------------------- */

static void test_experimental(void)
{
    /* d3d12.h (D3D12EnableExperimentalFeatures comment): "If this method is called and a change
     * to existing feature enablement is made, all current D3D12 devices are set to
     * DEVICE_REMOVED state". This is the process's first Enable call, so enabling
     * D3D12ExperimentalShaderModels is a change for the device alive now. */
    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (dev) {
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
        CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, NULL, NULL), S_OK);
        /* documented (d3d12.h), not measured: the existing device is now removed */
        set_ctx("device alive across a change of experimental features (d3d12.h)");
        CHECK_FAILED(ID3D12Device_GetDeviceRemovedReason(dev));
        g_ctx[0] = 0;
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }

    /* No device is alive from here on in this function. */
    CHECK_HR(D3D12EnableExperimentalFeatures(0, NULL, NULL, NULL), S_OK);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, NULL, NULL), S_OK);
    UINT size0 = 0;
    void *cfg0 = NULL;
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, &cfg0, &size0), S_OK);
    /* Unrecognized features: E_NOINTERFACE (documented). */
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12TiledResourceTier4, NULL, NULL), E_NOINTERFACE);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &IID_ID3D12Device, NULL, NULL), E_NOINTERFACE);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &GUID_RANDOM, NULL, NULL), E_NOINTERFACE);
    const IID mixed[2] = {D3D12ExperimentalShaderModels, GUID_RANDOM};
    CHECK_HR(D3D12EnableExperimentalFeatures(2, mixed, NULL, NULL), E_NOINTERFACE);
    CHECK_HR(D3D12EnableExperimentalFeatures(1, NULL, NULL, NULL), E_INVALIDARG);
    CHECK_HR(D3D12EnableExperimentalFeatures(3, NULL, NULL, NULL), E_INVALIDARG);
    /* Leave D3D12ExperimentalShaderModels enabled: later calls in this process change nothing. */
    CHECK_HR(D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, NULL, NULL), S_OK);
}

/* ---- 3. D3D12GetInterface ----------------------------------------------------------------- */

static void test_get_interface(void)
{
    static const struct
    {
        const char *name;
        const GUID *clsid, *iid;
    } classes[] = {
        {"CLSID_D3D12Tools", &CLSID_D3D12Tools, &IID_ID3D12Tools},
        {"CLSID_D3D12DeviceRemovedExtendedData", &CLSID_D3D12DeviceRemovedExtendedData,
         &IID_ID3D12DeviceRemovedExtendedDataSettings},
        {"CLSID_D3D12SDKConfiguration", &CLSID_D3D12SDKConfiguration, &IID_ID3D12SDKConfiguration},
        {"unknown CLSID", &GUID_RANDOM, &IID_IUnknown},
    };
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
        void *p = SENTINEL;
        set_ctx("D3D12GetInterface(%s)", classes[i].name);
        CHECK_HR(D3D12GetInterface(classes[i].clsid, classes[i].iid, &p), E_NOINTERFACE);
        CHECK_PTR(p, NULL);
        g_ctx[0] = 0;
    }
    /* CLSID_D3D12DeviceFactory gives a device factory (factory.cpp tests what it does); an IID
     * it does not answer is E_NOINTERFACE with the pointer cleared. */
    void *fp = SENTINEL;
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12DeviceFactory, &IID_ID3D12DeviceFactory, &fp), S_OK);
    if (fp && fp != SENTINEL)
        CHECK_EQ(ID3D12DeviceFactory_Release((ID3D12DeviceFactory *)fp), 0);
    fp = SENTINEL;
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12DeviceFactory, &IID_ID3D12Device, &fp), E_NOINTERFACE);
    CHECK_PTR(fp, NULL);
    CHECK_HR(D3D12GetInterface(&CLSID_D3D12Debug, &IID_ID3D12Debug, NULL), E_POINTER);
    /* CLSID_D3D12Debug gives the debug interfaces (debug.c tests what they do); a non-debug IID
     * is E_NOINTERFACE. */
    {
        ID3D12Debug *dbg = SENTINEL;
        CHECK_HR(D3D12GetInterface(&CLSID_D3D12Debug, &IID_ID3D12Debug, (void **)&dbg), S_OK);
        CHECK(dbg != NULL && dbg != SENTINEL);
        if (dbg && dbg != SENTINEL)
            CHECK_EQ(ID3D12Debug_Release(dbg), 0);
        void *p = SENTINEL;
        CHECK_HR(D3D12GetInterface(&CLSID_D3D12Debug, &IID_ID3D12Device, &p), E_NOINTERFACE);
        CHECK_PTR(p, NULL);
    }
}

/* ---- 4. D3D12CreateDevice arguments (no device alive) ------------------------------------- */

static void test_create_device_args(void)
{
    static const struct
    {
        const char *name;
        D3D_FEATURE_LEVEL level;
    } bad[] = {
        {"9_1", D3D_FEATURE_LEVEL_9_1},   {"9_2", D3D_FEATURE_LEVEL_9_2},
        {"9_3", D3D_FEATURE_LEVEL_9_3},   {"10_0", D3D_FEATURE_LEVEL_10_0},
        {"10_1", D3D_FEATURE_LEVEL_10_1}, {"0", (D3D_FEATURE_LEVEL)0},
        {"~0", (D3D_FEATURE_LEVEL)~0u},   {"12_1", D3D_FEATURE_LEVEL_12_1},
        {"12_2", D3D_FEATURE_LEVEL_12_2},
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        void *p = SENTINEL;
        set_ctx("D3D12CreateDevice(MinimumFeatureLevel %s)", bad[i].name);
        CHECK_HR(D3D12CreateDevice(NULL, bad[i].level, &IID_ID3D12Device, &p), E_INVALIDARG);
        CHECK_PTR(p, NULL);
        CHECK_HR(D3D12CreateDevice(NULL, bad[i].level, &IID_ID3D12Device, NULL), E_INVALIDARG);
        g_ctx[0] = 0;
    }

    /* ppDevice NULL: "test if device creation would succeed" -> S_FALSE. */
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, NULL), S_FALSE);
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, NULL, NULL), S_FALSE);
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12DeviceChild, NULL), S_FALSE);
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_1_0_CORE, &IID_ID3D12Device, NULL), S_FALSE);

    /* An IID the device does not answer: E_NOINTERFACE, *ppDevice NULL. */
    static const struct
    {
        const char *name;
        const IID *iid;
    } no_iface[] = {
        {"IID_ID3D12DeviceChild", &IID_ID3D12DeviceChild},
        {"IID_ID3D12Pageable", &IID_ID3D12Pageable},
        {"IID_ID3D12Resource", &IID_ID3D12Resource},
        {"random IID", &GUID_RANDOM},
    };
    for (size_t i = 0; i < sizeof(no_iface) / sizeof(no_iface[0]); i++) {
        void *p = SENTINEL;
        set_ctx("D3D12CreateDevice(riid %s)", no_iface[i].name);
        CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, no_iface[i].iid, &p), E_NOINTERFACE);
        CHECK_PTR(p, NULL);
        g_ctx[0] = 0;
    }

    /* Valid levels and interfaces; each device is the only reference and goes away at once. */
    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_1_0_CORE, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    if (dev)
        CHECK_EQ(ID3D12Device_Release(dev), 0);

    IUnknown *unk = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_IUnknown, (void **)&unk), S_OK);
    CHECK(unk != NULL);
    if (unk)
        CHECK_EQ(IUnknown_Release(unk), 0);

    ID3D12Device11 *dev11 = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device11, (void **)&dev11), S_OK);
    CHECK(dev11 != NULL);
    if (dev11) {
        CHECK_EQ(ID3D12Device11_GetNodeCount(dev11), 1);
        CHECK_EQ(ID3D12Device11_Release(dev11), 0);
    }
}

/* ---- 5. the device ----------------------------------------------------------------------- */

static void test_singleton(ID3D12Device *dev)
{
    ULONG base = refcount(dev);
    ID3D12Device *again = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&again), S_OK);
    CHECK_PTR(again, dev);
    CHECK_EQ(refcount(dev), base + 1);

    ID3D12Device5 *again5 = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_1_0_CORE, &IID_ID3D12Device5, (void **)&again5), S_OK);
    CHECK_PTR(again5, dev);
    CHECK_EQ(refcount(dev), base + 2);

    /* Probes and failures while the device is alive take no reference. */
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, NULL), S_FALSE);
    void *p = SENTINEL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Pageable, &p), E_NOINTERFACE);
    CHECK_PTR(p, NULL);
    p = SENTINEL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_12_1, &IID_ID3D12Device, &p), E_INVALIDARG);
    CHECK_PTR(p, NULL);
    CHECK_EQ(refcount(dev), base + 2);

    if (again5)
        CHECK_EQ(ID3D12Device5_Release(again5), base + 1);
    if (again)
        CHECK_EQ(ID3D12Device_Release(again), base);
}

static void test_basic_methods(ID3D12Device *dev)
{
    CHECK_EQ(ID3D12Device_GetNodeCount(dev), 1);

    LUID a = ID3D12Device_GetAdapterLuid(dev);
    LUID b = ID3D12Device_GetAdapterLuid(dev);
    CHECK(a.LowPart != 0 || a.HighPart != 0);
    CHECK_EQ(a.LowPart, b.LowPart);
    CHECK_EQ(a.HighPart, b.HighPart);

    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
    CHECK_HR(ID3D12Device_SetStablePowerState(dev, TRUE), S_OK);
    CHECK_HR(ID3D12Device_SetStablePowerState(dev, FALSE), S_OK);
    CHECK_HR(ID3D12Device_MakeResident(dev, 0, NULL), S_OK);
    CHECK_HR(ID3D12Device_Evict(dev, 0, NULL), S_OK);
    CHECK_HR(ID3D12Device_MakeResident(dev, 1, NULL), E_INVALIDARG);
    CHECK_HR(ID3D12Device_Evict(dev, 2, NULL), E_INVALIDARG);
    CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
}

static void test_check_feature_support(ID3D12Device *dev)
{
    /* ARCHITECTURE1 */
    D3D12_FEATURE_DATA_ARCHITECTURE1 a1;
    memset(&a1, 0x77, sizeof(a1));
    a1.NodeIndex = 0;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ARCHITECTURE1, &a1, sizeof(a1)), S_OK);
    CHECK_EQ(a1.NodeIndex, 0);
    CHECK_EQ(a1.TileBasedRenderer, 0);
    CHECK_EQ(a1.UMA, 1);
    CHECK_EQ(a1.CacheCoherentUMA, 1);
    CHECK_EQ(a1.IsolatedMMU, 1);

    /* ARCHITECTURE agrees with ARCHITECTURE1 */
    D3D12_FEATURE_DATA_ARCHITECTURE a0;
    memset(&a0, 0x77, sizeof(a0));
    a0.NodeIndex = 0;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ARCHITECTURE, &a0, sizeof(a0)), S_OK);
    CHECK_EQ(a0.TileBasedRenderer, a1.TileBasedRenderer);
    CHECK_EQ(a0.UMA, a1.UMA);
    CHECK_EQ(a0.CacheCoherentUMA, a1.CacheCoherentUMA);

    /* NodeIndex past the node count: E_INVALIDARG, outputs untouched. */
    memset(&a1, 0x77, sizeof(a1));
    a1.NodeIndex = 1;
    D3D12_FEATURE_DATA_ARCHITECTURE1 before = a1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ARCHITECTURE1, &a1, sizeof(a1)), E_INVALIDARG);
    CHECK(memcmp(&a1, &before, sizeof(a1)) == 0);
    memset(&a0, 0x77, sizeof(a0));
    a0.NodeIndex = 1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ARCHITECTURE, &a0, sizeof(a0)), E_INVALIDARG);

    /* The size must be exact; NULL data is invalid; outputs untouched on failure. */
    static const struct
    {
        const char *name;
        D3D12_FEATURE feature;
        UINT size;
    } sized[] = {
        {"ARCHITECTURE1", D3D12_FEATURE_ARCHITECTURE1, sizeof(D3D12_FEATURE_DATA_ARCHITECTURE1)},
        {"ARCHITECTURE", D3D12_FEATURE_ARCHITECTURE, sizeof(D3D12_FEATURE_DATA_ARCHITECTURE)},
        {"D3D12_OPTIONS", D3D12_FEATURE_D3D12_OPTIONS, sizeof(D3D12_FEATURE_DATA_D3D12_OPTIONS)},
        {"SHADER_MODEL", D3D12_FEATURE_SHADER_MODEL, sizeof(D3D12_FEATURE_DATA_SHADER_MODEL)},
        {"ROOT_SIGNATURE", D3D12_FEATURE_ROOT_SIGNATURE, sizeof(D3D12_FEATURE_DATA_ROOT_SIGNATURE)},
        {"FEATURE_LEVELS", D3D12_FEATURE_FEATURE_LEVELS, sizeof(D3D12_FEATURE_DATA_FEATURE_LEVELS)},
    };
    for (size_t i = 0; i < sizeof(sized) / sizeof(sized[0]); i++) {
        /* 8-aligned, large enough for every struct above plus one byte */
        uint64_t buf[16], ref[16];
        UINT sizes[3] = {sized[i].size + 1, sized[i].size - 1, 0};
        for (int s = 0; s < 3; s++) {
            memset(buf, 0x77, sizeof(buf));
            ((UINT *)buf)[0] = 0; /* NodeIndex 0 where there is one */
            memcpy(ref, buf, sizeof(buf));
            set_ctx("CheckFeatureSupport(%s) size %u", sized[i].name, sizes[s]);
            CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, sized[i].feature, buf, sizes[s]), E_INVALIDARG);
            CHECK(memcmp(buf, ref, sizeof(buf)) == 0);
        }
        set_ctx("CheckFeatureSupport(%s, NULL) size %u", sized[i].name, sized[i].size);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, sized[i].feature, NULL, sized[i].size), E_INVALIDARG);
        g_ctx[0] = 0;
    }

    /* Unknown features. */
    static const UINT unknown[] = {9, 11, 13, 15, 17, 0xFFFF, 0x7FFFFFFF, 0xFFFFFFFF};
    for (size_t i = 0; i < sizeof(unknown) / sizeof(unknown[0]); i++) {
        uint64_t buf[16];
        memset(buf, 0, sizeof(buf));
        set_ctx("CheckFeatureSupport(feature %u)", unknown[i]);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, (D3D12_FEATURE)unknown[i], buf, 4), E_INVALIDARG);
        CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, (D3D12_FEATURE)unknown[i], buf, sizeof(buf)), E_INVALIDARG);
        g_ctx[0] = 0;
    }

    /* FEATURE_LEVELS */
    D3D12_FEATURE_DATA_FEATURE_LEVELS fl;
    D3D_FEATURE_LEVEL low[3] = {D3D_FEATURE_LEVEL_9_3, D3D_FEATURE_LEVEL_9_2, D3D_FEATURE_LEVEL_9_1};
    D3D_FEATURE_LEVEL mid[2] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_12_1};
    D3D_FEATURE_LEVEL unsorted[3] = {D3D_FEATURE_LEVEL_12_1, D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_11_1};
    fl.NumFeatureLevels = 0;
    fl.pFeatureLevelsRequested = low;
    fl.MaxSupportedFeatureLevel = (D3D_FEATURE_LEVEL)0x1234;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof(fl)), E_INVALIDARG);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, 0x1234);
    fl.NumFeatureLevels = 3;
    fl.pFeatureLevelsRequested = low;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof(fl)), S_OK);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_9_3);
    fl.NumFeatureLevels = 2;
    fl.pFeatureLevelsRequested = mid;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof(fl)), S_OK);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_11_0);
    fl.NumFeatureLevels = 3;
    fl.pFeatureLevelsRequested = unsorted;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_FEATURE_LEVELS, &fl, sizeof(fl)), S_OK);
    CHECK_EQ(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_12_0);

    /* SHADER_MODEL: in = highest the app knows, out = min(in, device max); unknown in -> E_INVALIDARG */
    D3D12_FEATURE_DATA_SHADER_MODEL sm;
    sm.HighestShaderModel = D3D_SHADER_MODEL_6_5;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_SHADER_MODEL, &sm, sizeof(sm)), S_OK);
    CHECK_EQ(sm.HighestShaderModel, D3D_SHADER_MODEL_6_2);
    sm.HighestShaderModel = D3D_SHADER_MODEL_5_1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_SHADER_MODEL, &sm, sizeof(sm)), S_OK);
    CHECK_EQ(sm.HighestShaderModel, D3D_SHADER_MODEL_5_1);
    sm.HighestShaderModel = (D3D_SHADER_MODEL)0x99;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_SHADER_MODEL, &sm, sizeof(sm)), E_INVALIDARG);
    CHECK_EQ(sm.HighestShaderModel, 0x99);

    /* ROOT_SIGNATURE */
    D3D12_FEATURE_DATA_ROOT_SIGNATURE rs;
    rs.HighestVersion = D3D_ROOT_SIGNATURE_VERSION_1_1;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ROOT_SIGNATURE, &rs, sizeof(rs)), S_OK);
    CHECK_EQ(rs.HighestVersion, D3D_ROOT_SIGNATURE_VERSION_1_1);
    rs.HighestVersion = (D3D_ROOT_SIGNATURE_VERSION)0;
    CHECK_HR(ID3D12Device_CheckFeatureSupport(dev, D3D12_FEATURE_ROOT_SIGNATURE, &rs, sizeof(rs)), E_INVALIDARG);
    CHECK_EQ(rs.HighestVersion, 0);
}

static void test_query_interface(ID3D12Device *dev)
{
    static const struct
    {
        const char *name;
        const IID *iid;
    } yes[] = {
        {"IID_IUnknown", &IID_IUnknown},         {"IID_ID3D12Object", &IID_ID3D12Object},
        {"IID_ID3D12Device", &IID_ID3D12Device}, {"IID_ID3D12Device1", &IID_ID3D12Device1},
        {"IID_ID3D12Device2", &IID_ID3D12Device2}, {"IID_ID3D12Device3", &IID_ID3D12Device3},
        {"IID_ID3D12Device4", &IID_ID3D12Device4}, {"IID_ID3D12Device5", &IID_ID3D12Device5},
        {"IID_ID3D12Device6", &IID_ID3D12Device6}, {"IID_ID3D12Device7", &IID_ID3D12Device7},
        {"IID_ID3D12Device8", &IID_ID3D12Device8}, {"IID_ID3D12Device9", &IID_ID3D12Device9},
        {"IID_ID3D12Device10", &IID_ID3D12Device10}, {"IID_ID3D12Device11", &IID_ID3D12Device11},
    }, no[] = {
        {"IID_ID3D12DeviceChild", &IID_ID3D12DeviceChild},
        {"IID_ID3D12Pageable", &IID_ID3D12Pageable},
        {"IID_ID3D12Resource", &IID_ID3D12Resource},
        {"IID_ID3D12Heap", &IID_ID3D12Heap},
        {"IID_ID3D12Fence", &IID_ID3D12Fence},
        {"IID_ID3D12CommandQueue", &IID_ID3D12CommandQueue},
        {"IID_ID3D12Debug", &IID_ID3D12Debug},
        {"IID_ID3D12DeviceFactory", &IID_ID3D12DeviceFactory},
        {"random IID", &GUID_RANDOM},
    };
    enum { NYES = sizeof(yes) / sizeof(yes[0]) };
    void *got[NYES];
    ULONG base = refcount(dev);

    for (size_t i = 0; i < NYES; i++) {
        got[i] = SENTINEL;
        set_ctx("QueryInterface(%s)", yes[i].name);
        CHECK_HR(ID3D12Device_QueryInterface(dev, yes[i].iid, &got[i]), S_OK);
        CHECK_PTR(got[i], dev);
        CHECK_EQ(refcount(dev), base + i + 1);
        g_ctx[0] = 0;
    }
    /* The vtable behind every version's pointer is the same full ID3D12Device11 vtable. */
    if (got[NYES - 1] != SENTINEL && got[NYES - 1])
        CHECK_PTR(((ID3D12Device11 *)got[NYES - 1])->lpVtbl, dev->lpVtbl);
    for (size_t i = NYES; i-- > 0;) {
        set_ctx("Release after QueryInterface(%s)", yes[i].name);
        if (got[i] && got[i] != SENTINEL)
            CHECK_EQ(IUnknown_Release((IUnknown *)got[i]), base + i);
        g_ctx[0] = 0;
    }

    for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
        void *p = SENTINEL;
        set_ctx("QueryInterface(%s)", no[i].name);
        CHECK_HR(ID3D12Device_QueryInterface(dev, no[i].iid, &p), E_NOINTERFACE);
        CHECK_PTR(p, NULL);
        g_ctx[0] = 0;
    }
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device, NULL), E_POINTER);
    CHECK_EQ(refcount(dev), base);

    /* AddRef / Release return the new count. */
    CHECK_EQ(ID3D12Device_AddRef(dev), base + 1);
    CHECK_EQ(ID3D12Device_AddRef(dev), base + 2);
    CHECK_EQ(ID3D12Device_Release(dev), base + 1);
    CHECK_EQ(ID3D12Device_Release(dev), base);
}

static void test_private_data(ID3D12Device *dev)
{
    unsigned char buf[64];
    UINT size;

    /* Unknown GUID: DXGI_ERROR_NOT_FOUND with size 0. */
    size = 123;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, buf), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    size = 123;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, NULL), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    /* pDataSize NULL */
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, NULL, buf), E_INVALIDARG);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, NULL, NULL), E_INVALIDARG);

    /* Round trip. */
    const unsigned char data[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_A, sizeof(data), data), S_OK);
    size = 0;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, NULL), S_OK);
    CHECK_EQ(size, sizeof(data));
    size = 4;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, buf), DXGI_ERROR_MORE_DATA);
    CHECK_EQ(size, sizeof(data));
    memset(buf, 0, sizeof(buf));
    size = sizeof(data);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, buf), S_OK);
    CHECK_EQ(size, sizeof(data));
    CHECK(memcmp(buf, data, sizeof(data)) == 0);
    memset(buf, 0, sizeof(buf));
    size = sizeof(buf);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, buf), S_OK);
    CHECK_EQ(size, sizeof(data));
    CHECK(memcmp(buf, data, sizeof(data)) == 0);

    /* A second key is independent; replacing changes the size. */
    const uint32_t word = 0xCAFEF00Du;
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_B, sizeof(word), &word), S_OK);
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_A, 3, data + 10), S_OK);
    size = sizeof(buf);
    memset(buf, 0, sizeof(buf));
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, buf), S_OK);
    CHECK_EQ(size, 3);
    CHECK(buf[0] == 11 && buf[1] == 12 && buf[2] == 13);
    uint32_t w = 0;
    size = sizeof(w);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_B, &size, &w), S_OK);
    CHECK_EQ(w, 0xCAFEF00Du);

    /* Delete: NULL data whatever the size (Windows deletes with a non-zero size too), or size 0
     * with data. */
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_A, 8, NULL), S_OK);
    size = 99;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_A, &size, buf), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_B, 0, &word), S_OK);
    size = 99;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_DATA_B, &size, &w), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);
    /* Deleting what is not there: S_FALSE (Windows). */
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_B, 0, NULL), S_FALSE);
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_DATA_A, 8, NULL), S_FALSE);
}

static void test_name(ID3D12Device *dev)
{
    static const wchar_t name[] = L"rd3d12 abi client device";
    wchar_t buf[64];
    UINT size;

    CHECK_HR(ID3D12Device_SetName(dev, name), S_OK);
    size = 0;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectNameW, &size, NULL), S_OK);
    CHECK_EQ(size, (wcslen(name) + 1) * sizeof(wchar_t));
    memset(buf, 0x55, sizeof(buf));
    size = sizeof(buf);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectNameW, &size, buf), S_OK);
    CHECK_EQ(size, sizeof(name));
    CHECK(memcmp(buf, name, sizeof(name)) == 0);
    size = 8;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectNameW, &size, buf), DXGI_ERROR_MORE_DATA);
    CHECK_EQ(size, sizeof(name));

    /* A second name replaces the first; the empty name is just the terminator. */
    CHECK_HR(ID3D12Device_SetName(dev, L"x"), S_OK);
    size = sizeof(buf);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectNameW, &size, buf), S_OK);
    CHECK_EQ(size, 2 * sizeof(wchar_t));
    CHECK(buf[0] == L'x' && buf[1] == 0);
    CHECK_HR(ID3D12Device_SetName(dev, L""), S_OK);
    size = sizeof(buf);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectNameW, &size, buf), S_OK);
    CHECK_EQ(size, sizeof(wchar_t));
    CHECK(buf[0] == 0);

    CHECK_HR(ID3D12Device_SetName(dev, NULL), E_INVALIDARG);

    /* Leave a name for the destruction check in main. */
    CHECK_HR(ID3D12Device_SetName(dev, name), S_OK);
}

static void test_private_interface(ID3D12Device *dev, counter *keep)
{
    counter a, b;
    counter_init(&a);
    counter_init(&b);
    UINT size;

    /* The device holds exactly one reference. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_A, &a.iface), S_OK);
    CHECK_EQ(a.refs, 2);
    /* Setting the same interface again keeps exactly one reference. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_A, &a.iface), S_OK);
    CHECK_EQ(a.refs, 2);

    /* GetPrivateData returns the pointer, AddRef'd. */
    size = 0;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_IFACE_A, &size, NULL), S_OK);
    CHECK_EQ(size, sizeof(IUnknown *));
    CHECK_EQ(a.refs, 2);
    IUnknown *out = NULL;
    size = sizeof(out);
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_IFACE_A, &size, &out), S_OK);
    CHECK_EQ(size, sizeof(IUnknown *));
    CHECK_PTR(out, &a.iface);
    CHECK_EQ(a.refs, 3);
    if (out == &a.iface)
        IUnknown_Release(out);
    CHECK_EQ(a.refs, 2);

    /* Replace: the old one is released, the new one held once. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_A, &b.iface), S_OK);
    CHECK_EQ(a.refs, 1);
    CHECK_EQ(b.refs, 2);

    /* The same interface under two keys is held twice. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_B, &b.iface), S_OK);
    CHECK_EQ(b.refs, 3);

    /* A NULL interface replaces (releases) b and is stored: it reads back as a NULL pointer
     * (Windows); SetPrivateData(NULL) deletes it. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_B, NULL), S_OK);
    CHECK_EQ(b.refs, 2);
    size = 5;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_IFACE_B, &size, NULL), S_OK);
    CHECK_EQ(size, sizeof(IUnknown *));
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_IFACE_B, 0, NULL), S_OK);
    size = 5;
    CHECK_HR(ID3D12Device_GetPrivateData(dev, &GUID_IFACE_B, &size, NULL), DXGI_ERROR_NOT_FOUND);
    CHECK_EQ(size, 0);

    /* Replacing an interface with bytes releases it too. */
    const uint32_t word = 7;
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_IFACE_A, sizeof(word), &word), S_OK);
    CHECK_EQ(b.refs, 1);
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_IFACE_A, 0, NULL), S_OK);

    /* Interface replaced by delete, then set again and deleted via SetPrivateData size 0. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_A, &a.iface), S_OK);
    CHECK_EQ(a.refs, 2);
    CHECK_HR(ID3D12Device_SetPrivateData(dev, &GUID_IFACE_A, 0, NULL), S_OK);
    CHECK_EQ(a.refs, 1);

    CHECK_EQ(a.addrefs, a.releases);
    CHECK_EQ(b.addrefs, b.releases);

    /* Hand the device a reference on the caller's counter, released when the device dies. */
    CHECK_HR(ID3D12Device_SetPrivateDataInterface(dev, &GUID_IFACE_B, &keep->iface), S_OK);
    CHECK_EQ(keep->refs, 2);
}

typedef void (*any_fn)(void);

static void test_runtime_vtable(ID3D12Device *dev)
{
    /* Every slot of the ID3D12Device11 vtable the device really has is filled. */
    ID3D12Device11 *dev11 = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device11, (void **)&dev11), S_OK);
    if (!dev11)
        return;
    any_fn const *slots = (any_fn const *)dev11->lpVtbl;
    size_t nslots = sizeof(ID3D12Device11Vtbl) / sizeof(void *);
    CHECK_EQ(nslots, 80);
    for (size_t i = 0; i < nslots; i++) {
        set_ctx("device vtable slot %zu", i);
        CHECK(slots[i] != NULL);
        g_ctx[0] = 0;
    }

    /* A raw slot is the named method. */
    CHECK_PTR((const void *)(uintptr_t)slots[7], (const void *)(uintptr_t)dev->lpVtbl->GetNodeCount);
    CHECK_PTR((const void *)(uintptr_t)slots[37], (const void *)(uintptr_t)dev->lpVtbl->GetDeviceRemovedReason);
    CHECK_PTR((const void *)(uintptr_t)slots[43], (const void *)(uintptr_t)dev->lpVtbl->GetAdapterLuid);

    /* Calling by index gives the named method's answers. */
    UINT (*raw_node_count)(ID3D12Device *) = (UINT (*)(ID3D12Device *))slots[7];
    HRESULT (*raw_removed)(ID3D12Device *) = (HRESULT (*)(ID3D12Device *))slots[37];
    LUID (*raw_luid)(ID3D12Device *) = (LUID (*)(ID3D12Device *))slots[43];
    CHECK_EQ(raw_node_count(dev), ID3D12Device_GetNodeCount(dev));
    CHECK_EQ(raw_node_count(dev), 1);
    CHECK_HR(raw_removed(dev), ID3D12Device_GetDeviceRemovedReason(dev));
    LUID named = ID3D12Device_GetAdapterLuid(dev);
    LUID raw = raw_luid(dev);
    CHECK_EQ(raw.LowPart, named.LowPart);
    CHECK_EQ(raw.HighPart, named.HighPart);

    /* The same through the void** view the brief of HSP-style callers uses. */
    void *const *pv = (void *const *)dev->lpVtbl;
    CHECK(pv[7] != NULL && pv[43] != NULL && pv[37] != NULL);

    ULONG held = refcount(dev);
    CHECK_EQ(ID3D12Device11_Release(dev11), held - 1);
}

/* ---- 6. a removed device ------------------------------------------------------------------ */

static void test_removed_device(void)
{
    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (!dev)
        return;
    ID3D12Device5 *dev5 = NULL;
    CHECK_HR(ID3D12Device_QueryInterface(dev, &IID_ID3D12Device5, (void **)&dev5), S_OK);
    if (dev5) {
        ID3D12Device5_RemoveDevice(dev5);
        CHECK_FAILED(ID3D12Device_GetDeviceRemovedReason(dev));
        /* learn.microsoft.com, D3D12CreateDevice remarks: "If the current Direct3D 12 device is in
         * a removed state (that is, ID3D12Device::GetDeviceRemovedReason returns a failing
         * HRESULT), then D3D12CreateDevice instead fails" (instead of returning the existing
         * device). */
        void *p = SENTINEL;
        HRESULT hr = D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, &p);
        set_ctx("D3D12CreateDevice while the existing device is removed (D3D12CreateDevice remarks)");
        CHECK_FAILED(hr);
        if (SUCCEEDED(hr) && p && p != SENTINEL)
            IUnknown_Release((IUnknown *)p);
        else
            CHECK_PTR(p, NULL);
        g_ctx[0] = 0;
        CHECK_EQ(ID3D12Device5_Release(dev5), 1);
    }
    CHECK_EQ(ID3D12Device_Release(dev), 0);

    /* With the removed device gone, a new healthy one is created. */
    dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (dev) {
        CHECK_HR(ID3D12Device_GetDeviceRemovedReason(dev), S_OK);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }
}

int main(void)
{
    test_layout();
    test_experimental();
    test_get_interface();
    test_create_device_args();

    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    CHECK(dev != NULL);
    counter keep;
    counter_init(&keep);
    if (dev) {
        CHECK_EQ(refcount(dev), 1);
        test_singleton(dev);
        test_basic_methods(dev);
        test_check_feature_support(dev);
        test_query_interface(dev);
        test_private_data(dev);
        test_name(dev);
        test_private_interface(dev, &keep);
        test_runtime_vtable(dev);

        /* The last reference: the device dies and releases what it held. */
        CHECK_EQ(refcount(dev), 1);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
        CHECK_EQ(keep.refs, 1);
        CHECK_EQ(keep.addrefs, keep.releases);

        /* The next device is a new object: one reference, no private data. */
        dev = NULL;
        CHECK_HR(D3D12CreateDevice(NULL, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
        if (dev) {
            CHECK_EQ(refcount(dev), 1);
            UINT size = 77;
            CHECK_HR(ID3D12Device_GetPrivateData(dev, &WKPDID_D3DDebugObjectNameW, &size, NULL),
                     DXGI_ERROR_NOT_FOUND);
            CHECK_EQ(size, 0);
            CHECK_EQ(ID3D12Device_Release(dev), 0);
        }
    }

    test_removed_device();

    printf("client_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
