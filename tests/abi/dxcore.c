/* DXCore from C through libdxcore.so and libd3d12.so. Microsoft's dxcore_interface.h is C++
 * only, so a C program declares the three vtables itself, slot by slot in the header's
 * declaration order (IUnknown's three first), as below; this test is that C program. It checks
 * the bad-input HRESULTs of the DXCore reference pages and that D3D12CreateDevice takes the
 * adapter (tests/abi/dxcore.cpp covers the rest through the C++ header). */
#include <wsl/winadapter.h>
#include <directx/d3d12.h>

#include "check.h"

#include <stdbool.h>
#include <stdint.h>

typedef struct IDXCoreAdapter IDXCoreAdapter;
typedef struct IDXCoreAdapterList IDXCoreAdapterList;
typedef struct IDXCoreAdapterFactory IDXCoreAdapterFactory;

typedef struct {
    HRESULT (*QueryInterface)(IDXCoreAdapter *, REFIID, void **);
    ULONG (*AddRef)(IDXCoreAdapter *);
    ULONG (*Release)(IDXCoreAdapter *);
    bool (*IsValid)(IDXCoreAdapter *);
    bool (*IsAttributeSupported)(IDXCoreAdapter *, REFGUID);
    bool (*IsPropertySupported)(IDXCoreAdapter *, uint32_t);
    HRESULT (*GetProperty)(IDXCoreAdapter *, uint32_t, size_t, void *);
    HRESULT (*GetPropertySize)(IDXCoreAdapter *, uint32_t, size_t *);
    bool (*IsQueryStateSupported)(IDXCoreAdapter *, uint32_t);
    HRESULT (*QueryState)(IDXCoreAdapter *, uint32_t, size_t, const void *, size_t, void *);
    bool (*IsSetStateSupported)(IDXCoreAdapter *, uint32_t);
    HRESULT (*SetState)(IDXCoreAdapter *, uint32_t, size_t, const void *, size_t, const void *);
    HRESULT (*GetFactory)(IDXCoreAdapter *, REFIID, void **);
} IDXCoreAdapterVtbl;
struct IDXCoreAdapter { const IDXCoreAdapterVtbl *lpVtbl; };

typedef struct {
    HRESULT (*QueryInterface)(IDXCoreAdapterList *, REFIID, void **);
    ULONG (*AddRef)(IDXCoreAdapterList *);
    ULONG (*Release)(IDXCoreAdapterList *);
    HRESULT (*GetAdapter)(IDXCoreAdapterList *, uint32_t, REFIID, void **);
    uint32_t (*GetAdapterCount)(IDXCoreAdapterList *);
    bool (*IsStale)(IDXCoreAdapterList *);
    HRESULT (*GetFactory)(IDXCoreAdapterList *, REFIID, void **);
    HRESULT (*Sort)(IDXCoreAdapterList *, uint32_t, const uint32_t *);
    bool (*IsAdapterPreferenceSupported)(IDXCoreAdapterList *, uint32_t);
} IDXCoreAdapterListVtbl;
struct IDXCoreAdapterList { const IDXCoreAdapterListVtbl *lpVtbl; };

typedef struct {
    HRESULT (*QueryInterface)(IDXCoreAdapterFactory *, REFIID, void **);
    ULONG (*AddRef)(IDXCoreAdapterFactory *);
    ULONG (*Release)(IDXCoreAdapterFactory *);
    HRESULT (*CreateAdapterList)(IDXCoreAdapterFactory *, uint32_t, const GUID *, REFIID, void **);
    HRESULT (*GetAdapterByLuid)(IDXCoreAdapterFactory *, const LUID *, REFIID, void **);
    bool (*IsNotificationTypeSupported)(IDXCoreAdapterFactory *, uint32_t);
    HRESULT (*RegisterEventNotification)(IDXCoreAdapterFactory *, IUnknown *, uint32_t, void *, void *, uint32_t *);
    HRESULT (*UnregisterEventNotification)(IDXCoreAdapterFactory *, uint32_t);
} IDXCoreAdapterFactoryVtbl;
struct IDXCoreAdapterFactory { const IDXCoreAdapterFactoryVtbl *lpVtbl; };

HRESULT DXCoreCreateAdapterFactory(REFIID riid, void **ppvFactory);

/* The IIDs and attribute GUIDs of dxcore_interface.h. */
static const GUID IID_Factory = {0x78ee5945, 0xc36e, 0x4b13, {0xa6, 0x69, 0x00, 0x5d, 0xd1, 0x1c, 0x0f, 0x06}};
static const GUID IID_List = {0x526c7776, 0x40e9, 0x459b, {0xb7, 0x11, 0xf3, 0x2a, 0xd7, 0x6d, 0xfc, 0x28}};
static const GUID IID_Adapter = {0xf0db4c7f, 0xfe5a, 0x42a2, {0xbd, 0x62, 0xf2, 0xa6, 0xcf, 0x6f, 0xc8, 0x3e}};
static const GUID D3D12_GRAPHICS = {0x0c9ece4d, 0x2f6e, 0x4f01, {0x8c, 0x96, 0xe8, 0x9e, 0x33, 0x1b, 0x47, 0xb1}};

#define INVALID_CALL ((HRESULT)0x887A0001)
#define UNSUPPORTED ((HRESULT)0x887A0004)
enum { InstanceLuid = 0, DriverDescription = 2, HardwareIDParts = 14 };
enum { AdapterMemoryBudget = 1 };

int main(void) {
    IDXCoreAdapterFactory *f = NULL;
    CHECK_HR(DXCoreCreateAdapterFactory(&IID_Factory, NULL), E_POINTER);
    CHECK_HR(DXCoreCreateAdapterFactory(&IID_List, (void **)&f), E_NOINTERFACE);
    CHECK(f == NULL);
    CHECK_HR(DXCoreCreateAdapterFactory(&IID_Factory, (void **)&f), S_OK);
    if (!f) return 1;

    IDXCoreAdapterList *list = NULL;
    CHECK_HR(f->lpVtbl->CreateAdapterList(f, 0, &D3D12_GRAPHICS, &IID_List, (void **)&list), E_INVALIDARG);
    CHECK_HR(f->lpVtbl->CreateAdapterList(f, 1, NULL, &IID_List, (void **)&list), E_INVALIDARG);
    CHECK_HR(f->lpVtbl->CreateAdapterList(f, 1, &D3D12_GRAPHICS, &IID_List, NULL), E_POINTER);
    CHECK_HR(f->lpVtbl->CreateAdapterList(f, 1, &D3D12_GRAPHICS, &IID_List, (void **)&list), S_OK);
    if (!list) return 1;
    CHECK_EQ(list->lpVtbl->GetAdapterCount(list), 1);

    IDXCoreAdapter *a = NULL;
    CHECK_HR(list->lpVtbl->GetAdapter(list, 1, &IID_Adapter, (void **)&a), E_INVALIDARG);
    CHECK_HR(list->lpVtbl->GetAdapter(list, 0, &IID_Factory, (void **)&a), E_NOINTERFACE);
    CHECK_HR(list->lpVtbl->GetAdapter(list, 0, &IID_Adapter, (void **)&a), S_OK);
    if (!a) return 1;
    CHECK(a->lpVtbl->IsValid(a));

    /* Unknown property keys, short buffers and NULL pointers. */
    size_t size = 0;
    char buf[64];
    CHECK_HR(a->lpVtbl->GetPropertySize(a, 15, &size), INVALID_CALL);
    CHECK_HR(a->lpVtbl->GetPropertySize(a, 0xffffffffu, &size), INVALID_CALL);
    CHECK_HR(a->lpVtbl->GetProperty(a, 15, sizeof buf, buf), INVALID_CALL);
    CHECK_HR(a->lpVtbl->GetPropertySize(a, DriverDescription, NULL), E_POINTER);
    CHECK_HR(a->lpVtbl->GetPropertySize(a, DriverDescription, &size), S_OK);
    CHECK_EQ(size, sizeof "rd3d12 CPU adapter");
    CHECK_HR(a->lpVtbl->GetProperty(a, DriverDescription, size - 1, buf), E_INVALIDARG);
    CHECK_HR(a->lpVtbl->GetProperty(a, DriverDescription, size, NULL), E_POINTER);
    CHECK_HR(a->lpVtbl->GetProperty(a, DriverDescription, sizeof buf, buf), S_OK);
    CHECK(strcmp(buf, "rd3d12 CPU adapter") == 0);
    uint32_t parts[5] = {0};
    CHECK_HR(a->lpVtbl->GetProperty(a, HardwareIDParts, sizeof parts - 1, parts), E_INVALIDARG);
    CHECK_HR(a->lpVtbl->GetProperty(a, HardwareIDParts, sizeof parts, parts), S_OK);
    CHECK_EQ(parts[0], 0x1414);
    uint32_t in[2] = {0, 0}; /* node 0, local segment group */
    uint64_t out[4];
    CHECK_HR(a->lpVtbl->QueryState(a, AdapterMemoryBudget, sizeof in, in, sizeof out, out), S_OK);
    CHECK_HR(a->lpVtbl->QueryState(a, AdapterMemoryBudget, sizeof in, NULL, sizeof out, out), E_POINTER);
    CHECK_HR(a->lpVtbl->QueryState(a, AdapterMemoryBudget, sizeof in, in, sizeof out - 8, out), E_INVALIDARG);
    CHECK_HR(a->lpVtbl->QueryState(a, 7, 0, NULL, sizeof out, out), INVALID_CALL);
    CHECK_HR(a->lpVtbl->SetState(a, AdapterMemoryBudget, sizeof in, in, sizeof out, out), UNSUPPORTED);

    /* D3D12CreateDevice takes the adapter of the other library, by its LUID. */
    LUID luid;
    CHECK_HR(a->lpVtbl->GetProperty(a, InstanceLuid, sizeof luid, &luid), S_OK);
    ID3D12Device *dev = NULL;
    CHECK_HR(D3D12CreateDevice((IUnknown *)a, D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, (void **)&dev), S_OK);
    if (dev) {
        LUID dl = ID3D12Device_GetAdapterLuid(dev);
        CHECK(dl.LowPart == luid.LowPart && dl.HighPart == luid.HighPart);
        CHECK_EQ(ID3D12Device_Release(dev), 0);
    }
    /* GetAdapterByLuid with a NULL LUID reference: no adapter. */
    IDXCoreAdapter *b = NULL;
    CHECK_HR(f->lpVtbl->GetAdapterByLuid(f, NULL, &IID_Adapter, (void **)&b), E_INVALIDARG);

    a->lpVtbl->Release(a);
    /* Nothing inside holds the list: this is its last reference (Mesa 22.3 never releases the
     * list it enumerates with, so valgrind finds an AdapterList "definitely lost" under Mesa). */
    CHECK_EQ(list->lpVtbl->Release(list), 0);
    CHECK_EQ(f->lpVtbl->Release(f), 0);
    printf("dxcore_c: %u passed, %u failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
