#!/usr/bin/env python3
"""tests/abi/client.py - ABI client test for libd3d12.so through Python ctypes.

Calls COM methods ONLY by vtable index, the way HSP's #comfunc (and any FFI without the C
headers) does: read obj->lpVtbl[index] and call it with the C calling convention, `This` first.
GUIDs are written out from their DEFINE_GUID lines in /usr/include/directx/d3d12.h.

Usage: python3 tests/abi/client.py $LIBDIR/libd3d12.so

Every check prints one line when it fails (file:line, what, got vs expected); the last line is
"client_py: N passed, M failed" and the exit status is 0 only when M is 0.
"""

import ctypes
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_int32, c_uint8, c_uint16, c_uint32,
                    c_void_p, c_wchar, c_wchar_p, sizeof)

# ---- the check counter ---------------------------------------------------------------------

PASSED = 0
FAILED = 0
FILE = "tests/abi/" + os.path.basename(__file__)


def _record(ok, what, detail):
    """Counts one check; a failure prints the line of the check_* call in this file."""
    global PASSED, FAILED
    if ok:
        PASSED += 1
        return
    FAILED += 1
    line = sys._getframe(2).f_lineno
    print(f"{FILE}:{line}: {what}: {detail}")


def check(cond, what):
    _record(bool(cond), what, "got false, expected true")


def check_eq(got, expected, what):
    _record(got == expected, what, f"got {got!r}, expected {expected!r}")


def u32(hr):
    return hr & 0xFFFFFFFF


def check_hr(got, expected, what):
    _record(u32(got) == u32(expected), what,
            f"got HRESULT 0x{u32(got):08x}, expected 0x{u32(expected):08x}")


# ---- ABI types -----------------------------------------------------------------------------

S_OK = 0
S_FALSE = 1
E_NOINTERFACE = 0x80004002
E_POINTER = 0x80004003
E_INVALIDARG = 0x80070057
DXGI_ERROR_NOT_FOUND = 0x887A0002
DXGI_ERROR_MORE_DATA = 0x887A0003

D3D_FEATURE_LEVEL_1_0_CORE = 0x1000
D3D_FEATURE_LEVEL_9_1 = 0x9100
D3D_FEATURE_LEVEL_9_3 = 0x9300
D3D_FEATURE_LEVEL_10_0 = 0xA000
D3D_FEATURE_LEVEL_10_1 = 0xA100
D3D_FEATURE_LEVEL_11_0 = 0xB000
D3D_FEATURE_LEVEL_11_1 = 0xB100
D3D_FEATURE_LEVEL_12_0 = 0xC000
D3D_FEATURE_LEVEL_12_1 = 0xC100

D3D12_FEATURE_FEATURE_LEVELS = 2
D3D12_FEATURE_SHADER_MODEL = 7
D3D12_FEATURE_ROOT_SIGNATURE = 12
D3D12_FEATURE_ARCHITECTURE1 = 16

HRESULT = c_int32
ULONG = c_uint32
UINT = c_uint32


class GUID(Structure):
    _fields_ = [("Data1", c_uint32), ("Data2", c_uint16), ("Data3", c_uint16),
                ("Data4", c_uint8 * 8)]


def guid(l, w1, w2, *b):
    """A GUID from the arguments of a DEFINE_GUID line."""
    return GUID(l, w1, w2, (c_uint8 * 8)(*b))


class LUID(Structure):
    _fields_ = [("LowPart", c_uint32), ("HighPart", c_int32)]


class ARCHITECTURE1(Structure):  # D3D12_FEATURE_DATA_ARCHITECTURE1
    _fields_ = [("NodeIndex", c_uint32), ("TileBasedRenderer", c_int32), ("UMA", c_int32),
                ("CacheCoherentUMA", c_int32), ("IsolatedMMU", c_int32)]


class FEATURE_LEVELS(Structure):  # D3D12_FEATURE_DATA_FEATURE_LEVELS
    _fields_ = [("NumFeatureLevels", c_uint32), ("pFeatureLevelsRequested", POINTER(c_uint32)),
                ("MaxSupportedFeatureLevel", c_uint32)]


# DEFINE_GUID values from /usr/include/directx/d3d12.h (and wsl/stubs/unknwnbase.h, d3dcommon.h)
IID_IUnknown = guid(0x00000000, 0x0000, 0x0000, 0xc0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x46)
IID_ID3D12Object = guid(0xc4fec28f, 0x7966, 0x4e95, 0x9f, 0x94, 0xf4, 0x31, 0xcb, 0x56, 0xc3, 0xb8)
IID_ID3D12DeviceChild = guid(0x905db94b, 0xa00c, 0x4140, 0x9d, 0xf5, 0x2b, 0x64, 0xca, 0x9e, 0xa3, 0x57)
IID_ID3D12Pageable = guid(0x63ee58fb, 0x1268, 0x4835, 0x86, 0xda, 0xf0, 0x08, 0xce, 0x62, 0xf0, 0xd6)
IID_ID3D12Resource = guid(0x696442be, 0xa72e, 0x4059, 0xbc, 0x79, 0x5b, 0x5c, 0x98, 0x04, 0x0f, 0xad)
IID_ID3D12Fence = guid(0x0a753dcf, 0xc4d8, 0x4b91, 0xad, 0xf6, 0xbe, 0x5a, 0x60, 0xd9, 0x5a, 0x76)
IID_ID3D12Debug = guid(0x344488b7, 0x6846, 0x474b, 0xb9, 0x89, 0xf0, 0x27, 0x44, 0x82, 0x45, 0xe0)
IID_ID3D12Device = guid(0x189819f1, 0x1db6, 0x4b57, 0xbe, 0x54, 0x18, 0x21, 0x33, 0x9b, 0x85, 0xf7)
IID_ID3D12Device1 = guid(0x77acce80, 0x638e, 0x4e65, 0x88, 0x95, 0xc1, 0xf2, 0x33, 0x86, 0x86, 0x3e)
IID_ID3D12Device2 = guid(0x30baa41e, 0xb15b, 0x475c, 0xa0, 0xbb, 0x1a, 0xf5, 0xc5, 0xb6, 0x43, 0x28)
IID_ID3D12Device3 = guid(0x81dadc15, 0x2bad, 0x4392, 0x93, 0xc5, 0x10, 0x13, 0x45, 0xc4, 0xaa, 0x98)
IID_ID3D12Device4 = guid(0xe865df17, 0xa9ee, 0x46f9, 0xa4, 0x63, 0x30, 0x98, 0x31, 0x5a, 0xa2, 0xe5)
IID_ID3D12Device5 = guid(0x8b4f173b, 0x2fea, 0x4b80, 0x8f, 0x58, 0x43, 0x07, 0x19, 0x1a, 0xb9, 0x5d)
IID_ID3D12Device6 = guid(0xc70b221b, 0x40e4, 0x4a17, 0x89, 0xaf, 0x02, 0x5a, 0x07, 0x27, 0xa6, 0xdc)
IID_ID3D12Device7 = guid(0x5c014b53, 0x68a1, 0x4b9b, 0x8b, 0xd1, 0xdd, 0x60, 0x46, 0xb9, 0x35, 0x8b)
IID_ID3D12Device8 = guid(0x9218E6BB, 0xF944, 0x4F7E, 0xA7, 0x5C, 0xB1, 0xB2, 0xC7, 0xB7, 0x01, 0xF3)
IID_ID3D12Device9 = guid(0x4c80e962, 0xf032, 0x4f60, 0xbc, 0x9e, 0xeb, 0xc2, 0xcf, 0xa1, 0xd8, 0x3c)
IID_ID3D12Device10 = guid(0x517f8718, 0xaa66, 0x49f9, 0xb0, 0x2b, 0xa7, 0xab, 0x89, 0xc0, 0x60, 0x31)
IID_ID3D12Device11 = guid(0x5405c344, 0xd457, 0x444e, 0xb4, 0xdd, 0x23, 0x66, 0xe4, 0x5a, 0xee, 0x39)
CLSID_D3D12Debug = guid(0xf2352aeb, 0xdd84, 0x49fe, 0xb9, 0x7b, 0xa9, 0xdc, 0xfd, 0xcc, 0x1b, 0x4f)
CLSID_D3D12SDKConfiguration = guid(0x7cda6aca, 0xa03e, 0x49c8, 0x94, 0x58, 0x03, 0x34, 0xd2, 0x0e, 0x07, 0xce)
IID_ID3D12SDKConfiguration = guid(0xe9eb5314, 0x33aa, 0x42b2, 0xa7, 0x18, 0xd7, 0x7f, 0x58, 0xb1, 0xf1, 0xc7)
D3D12ExperimentalShaderModels = guid(0x76f5573e, 0xf13a, 0x40f5, 0xb2, 0x97, 0x81, 0xce, 0x9e, 0x18, 0x93, 0x3f)
WKPDID_D3DDebugObjectNameW = guid(0x4cca5fd8, 0x921f, 0x42c8, 0x85, 0x66, 0x70, 0xca, 0xf2, 0xa9, 0xb7, 0x41)
GUID_RANDOM = guid(0x8f2c61a4, 0x3b0e, 0x4d7c, 0x9a, 0x11, 0x52, 0xe6, 0x0d, 0x47, 0xb3, 0x9c)
GUID_DATA = guid(0x3b8e5d22, 0x1d4f, 0x4a2a, 0xb3, 0x7c, 0x22, 0x33, 0x44, 0x55, 0x66, 0x01)
GUID_IFACE = guid(0x3b8e5d22, 0x1d4f, 0x4a2a, 0xb3, 0x7c, 0x22, 0x33, 0x44, 0x55, 0x66, 0x02)

# ---- calling by vtable index ---------------------------------------------------------------

# ID3D12Device slots (the index contract)
QUERY_INTERFACE, ADD_REF, RELEASE = 0, 1, 2
GET_PRIVATE_DATA, SET_PRIVATE_DATA, SET_PRIVATE_DATA_INTERFACE, SET_NAME = 3, 4, 5, 6
GET_NODE_COUNT = 7
CHECK_FEATURE_SUPPORT = 13
MAKE_RESIDENT, EVICT = 34, 35
GET_DEVICE_REMOVED_REASON = 37
SET_STABLE_POWER_STATE = 40
GET_ADAPTER_LUID = 43
DEVICE11_SLOTS = 80


def vtable(obj):
    """obj->lpVtbl as an array of slot addresses."""
    return ctypes.cast(c_void_p(obj), POINTER(POINTER(c_void_p)))[0]


def call(obj, index, restype, *argtypes_and_args):
    """Calls slot `index` of obj's vtable: call(obj, 7, UINT) or
    call(obj, 13, HRESULT, c_uint32, 16, c_void_p, addr, c_uint32, 20)."""
    types = argtypes_and_args[0::2]
    values = argtypes_and_args[1::2]
    fn = vtable(obj)[index]
    if not fn:
        raise RuntimeError(f"vtable slot {index} is NULL")
    proto = CFUNCTYPE(restype, c_void_p, *types)
    return proto(fn)(c_void_p(obj), *values)


def qi(obj, iid):
    out = c_void_p(0x5A5A5A5A)
    hr = call(obj, QUERY_INTERFACE, HRESULT, POINTER(GUID), byref(iid), POINTER(c_void_p), byref(out))
    return hr, out.value


def add_ref(obj):
    return call(obj, ADD_REF, ULONG)


def release(obj):
    return call(obj, RELEASE, ULONG)


def refcount(obj):
    add_ref(obj)
    return release(obj)


def get_private_data(obj, key, size, buf):
    """(hr, size out) for GetPrivateData; size None passes pDataSize NULL."""
    if size is None:
        hr = call(obj, GET_PRIVATE_DATA, HRESULT, POINTER(GUID), byref(key), POINTER(UINT), None,
                  c_void_p, buf)
        return hr, None
    s = UINT(size)
    hr = call(obj, GET_PRIVATE_DATA, HRESULT, POINTER(GUID), byref(key), POINTER(UINT), byref(s),
              c_void_p, buf)
    return hr, s.value


def set_private_data(obj, key, size, data):
    return call(obj, SET_PRIVATE_DATA, HRESULT, POINTER(GUID), byref(key), UINT, size, c_void_p, data)


def check_feature(obj, feature, data_addr, size):
    return call(obj, CHECK_FEATURE_SUPPORT, HRESULT, c_uint32, feature, c_void_p, data_addr, UINT, size)


# ---- a Python IUnknown that counts its references -----------------------------------------

QI_FN = CFUNCTYPE(HRESULT, c_void_p, POINTER(GUID), POINTER(c_void_p))
REF_FN = CFUNCTYPE(ULONG, c_void_p)


class Counter:
    def __init__(self):
        self.refs = 1

        def _qi(this, riid, ppv):
            if not ppv:
                return E_POINTER - (1 << 32)
            if bytes(riid.contents) == bytes(IID_IUnknown):
                ppv[0] = this
                self.refs += 1
                return S_OK
            ppv[0] = None
            return E_NOINTERFACE - (1 << 32)

        def _add_ref(this):
            self.refs += 1
            return self.refs

        def _release(this):
            self.refs -= 1
            return self.refs

        self._fns = (QI_FN(_qi), REF_FN(_add_ref), REF_FN(_release))
        self._vtbl = (c_void_p * 3)(*[ctypes.cast(f, c_void_p) for f in self._fns])
        self._obj = (c_void_p * 1)(ctypes.addressof(self._vtbl))

    @property
    def ptr(self):
        return ctypes.addressof(self._obj)


# ---- the tests -----------------------------------------------------------------------------

def main():
    if len(sys.argv) != 2:
        print("usage: client.py path/to/libd3d12.so")
        return 2
    lib = ctypes.CDLL(sys.argv[1])
    create = lib.D3D12CreateDevice
    create.argtypes = [c_void_p, c_uint32, POINTER(GUID), POINTER(c_void_p)]
    create.restype = HRESULT
    enable = lib.D3D12EnableExperimentalFeatures
    enable.argtypes = [UINT, POINTER(GUID), c_void_p, POINTER(UINT)]
    enable.restype = HRESULT
    get_interface = lib.D3D12GetInterface
    get_interface.argtypes = [POINTER(GUID), POINTER(GUID), POINTER(c_void_p)]
    get_interface.restype = HRESULT

    # -- global functions, no device alive
    check_hr(enable(0, None, None, None), S_OK, "D3D12EnableExperimentalFeatures(0)")
    check_hr(enable(1, byref(D3D12ExperimentalShaderModels), None, None), S_OK,
             "D3D12EnableExperimentalFeatures(ShaderModels)")
    check_hr(enable(1, byref(GUID_RANDOM), None, None), E_NOINTERFACE,
             "D3D12EnableExperimentalFeatures(unknown)")
    check_hr(enable(1, None, None, None), E_INVALIDARG, "D3D12EnableExperimentalFeatures(1, NULL)")

    p = c_void_p(0x5A5A5A5A)
    check_hr(get_interface(byref(CLSID_D3D12SDKConfiguration), byref(IID_ID3D12SDKConfiguration), byref(p)),
             E_NOINTERFACE, "D3D12GetInterface(SDKConfiguration)")
    check_eq(p.value, None, "D3D12GetInterface *ppv")
    check_hr(get_interface(byref(CLSID_D3D12Debug), byref(IID_ID3D12Debug), None), E_POINTER,
             "D3D12GetInterface(ppv NULL)")

    for level in (D3D_FEATURE_LEVEL_9_1, D3D_FEATURE_LEVEL_9_3, D3D_FEATURE_LEVEL_10_0, D3D_FEATURE_LEVEL_10_1,
                  0, 0xFFFFFFFF, D3D_FEATURE_LEVEL_12_1):
        p = c_void_p(0x5A5A5A5A)
        check_hr(create(None, level, byref(IID_ID3D12Device), byref(p)), E_INVALIDARG,
                 f"D3D12CreateDevice(level 0x{level:x})")
        check_eq(p.value, None, f"D3D12CreateDevice(level 0x{level:x}) *ppDevice")
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, byref(IID_ID3D12Device), None), S_FALSE,
             "D3D12CreateDevice(ppDevice NULL)")
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, None, None), S_FALSE,
             "D3D12CreateDevice(riid NULL, ppDevice NULL)")
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, byref(IID_ID3D12DeviceChild), None), S_FALSE,
             "D3D12CreateDevice(DeviceChild, ppDevice NULL)")
    p = c_void_p(0x5A5A5A5A)
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, byref(IID_ID3D12DeviceChild), byref(p)), E_NOINTERFACE,
             "D3D12CreateDevice(DeviceChild)")
    check_eq(p.value, None, "D3D12CreateDevice(DeviceChild) *ppDevice")

    # -- the device
    dev_p = c_void_p()
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, byref(IID_ID3D12Device), byref(dev_p)), S_OK,
             "D3D12CreateDevice(11_0)")
    dev = dev_p.value
    check(dev, "device pointer non-NULL")
    if not dev:
        print(f"client_py: {PASSED} passed, {FAILED} failed")
        return 1

    table = vtable(dev)
    for i in range(DEVICE11_SLOTS):
        check(table[i], f"device vtable slot {i} non-NULL")

    check_eq(refcount(dev), 1, "initial refcount")
    check_eq(add_ref(dev), 2, "AddRef")
    check_eq(release(dev), 1, "Release")

    # singleton
    again = c_void_p()
    check_hr(create(None, D3D_FEATURE_LEVEL_1_0_CORE, byref(IID_ID3D12Device), byref(again)), S_OK,
             "second D3D12CreateDevice")
    check_eq(again.value, dev, "second D3D12CreateDevice returns the same device")
    check_eq(refcount(dev), 2, "refcount after second create")
    if again.value:
        check_eq(release(again.value), 1, "Release of the second reference")

    # QueryInterface
    for name, iid in (("IUnknown", IID_IUnknown), ("ID3D12Object", IID_ID3D12Object),
                      ("ID3D12Device", IID_ID3D12Device), ("ID3D12Device1", IID_ID3D12Device1),
                      ("ID3D12Device2", IID_ID3D12Device2), ("ID3D12Device3", IID_ID3D12Device3),
                      ("ID3D12Device4", IID_ID3D12Device4), ("ID3D12Device5", IID_ID3D12Device5),
                      ("ID3D12Device6", IID_ID3D12Device6), ("ID3D12Device7", IID_ID3D12Device7),
                      ("ID3D12Device8", IID_ID3D12Device8), ("ID3D12Device9", IID_ID3D12Device9),
                      ("ID3D12Device10", IID_ID3D12Device10), ("ID3D12Device11", IID_ID3D12Device11)):
        hr, out = qi(dev, iid)
        check_hr(hr, S_OK, f"QueryInterface({name})")
        check_eq(out, dev, f"QueryInterface({name}) pointer")
        if hr == S_OK and out:
            check_eq(release(out), 1, f"Release after QueryInterface({name})")
    for name, iid in (("ID3D12DeviceChild", IID_ID3D12DeviceChild), ("ID3D12Pageable", IID_ID3D12Pageable),
                      ("ID3D12Resource", IID_ID3D12Resource), ("ID3D12Fence", IID_ID3D12Fence),
                      ("random", GUID_RANDOM)):
        hr, out = qi(dev, iid)
        check_hr(hr, E_NOINTERFACE, f"QueryInterface({name})")
        check_eq(out, None, f"QueryInterface({name}) *ppv")
    check_hr(call(dev, QUERY_INTERFACE, HRESULT, POINTER(GUID), byref(IID_ID3D12Device), POINTER(c_void_p), None),
             E_POINTER, "QueryInterface(ppv NULL)")
    check_eq(refcount(dev), 1, "refcount after the QueryInterface walk")

    # simple methods
    check_eq(call(dev, GET_NODE_COUNT, UINT), 1, "GetNodeCount")
    check_hr(call(dev, GET_DEVICE_REMOVED_REASON, HRESULT), S_OK, "GetDeviceRemovedReason")
    check_hr(call(dev, SET_STABLE_POWER_STATE, HRESULT, c_int32, 1), S_OK, "SetStablePowerState")
    check_hr(call(dev, MAKE_RESIDENT, HRESULT, UINT, 0, c_void_p, None), S_OK, "MakeResident(0)")
    check_hr(call(dev, EVICT, HRESULT, UINT, 1, c_void_p, None), E_INVALIDARG, "Evict(1, NULL)")
    luid = call(dev, GET_ADAPTER_LUID, LUID)
    luid2 = call(dev, GET_ADAPTER_LUID, LUID)
    check(luid.LowPart != 0 or luid.HighPart != 0, "GetAdapterLuid non-zero")
    check_eq((luid.LowPart, luid.HighPart), (luid2.LowPart, luid2.HighPart), "GetAdapterLuid stable")
    check_eq(sizeof(LUID), 8, "sizeof(LUID)")

    # CheckFeatureSupport
    arch = ARCHITECTURE1(0, 7, 7, 7, 7)
    check_eq(sizeof(arch), 20, "sizeof(D3D12_FEATURE_DATA_ARCHITECTURE1)")
    check_hr(check_feature(dev, D3D12_FEATURE_ARCHITECTURE1, ctypes.addressof(arch), sizeof(arch)), S_OK,
             "CheckFeatureSupport(ARCHITECTURE1)")
    check_eq((arch.TileBasedRenderer, arch.UMA, arch.CacheCoherentUMA, arch.IsolatedMMU), (0, 1, 1, 1),
             "ARCHITECTURE1 (TileBasedRenderer, UMA, CacheCoherentUMA, IsolatedMMU)")
    bad = ARCHITECTURE1(1, 7, 7, 7, 7)
    check_hr(check_feature(dev, D3D12_FEATURE_ARCHITECTURE1, ctypes.addressof(bad), sizeof(bad)), E_INVALIDARG,
             "CheckFeatureSupport(ARCHITECTURE1, NodeIndex 1)")
    check_eq((bad.TileBasedRenderer, bad.UMA, bad.CacheCoherentUMA, bad.IsolatedMMU), (7, 7, 7, 7),
             "ARCHITECTURE1 untouched on failure")
    for size in (sizeof(arch) + 1, sizeof(arch) - 1, 0):
        check_hr(check_feature(dev, D3D12_FEATURE_ARCHITECTURE1, ctypes.addressof(arch), size), E_INVALIDARG,
                 f"CheckFeatureSupport(ARCHITECTURE1, size {size})")
    check_hr(check_feature(dev, D3D12_FEATURE_ARCHITECTURE1, None, sizeof(arch)), E_INVALIDARG,
             "CheckFeatureSupport(ARCHITECTURE1, NULL)")
    for feature in (9, 0xFFFF):
        check_hr(check_feature(dev, feature, ctypes.addressof(arch), sizeof(arch)), E_INVALIDARG,
                 f"CheckFeatureSupport(feature {feature})")
    levels = (c_uint32 * 2)(D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_12_0)
    fl = FEATURE_LEVELS(2, ctypes.cast(levels, POINTER(c_uint32)), 0)
    check_hr(check_feature(dev, D3D12_FEATURE_FEATURE_LEVELS, ctypes.addressof(fl), sizeof(fl)), S_OK,
             "CheckFeatureSupport(FEATURE_LEVELS)")
    check_eq(fl.MaxSupportedFeatureLevel, D3D_FEATURE_LEVEL_12_0, "MaxSupportedFeatureLevel")
    sm = c_uint32(0x65)
    check_hr(check_feature(dev, D3D12_FEATURE_SHADER_MODEL, ctypes.addressof(sm), 4), S_OK,
             "CheckFeatureSupport(SHADER_MODEL 6_5)")
    check_eq(sm.value, 0x62, "HighestShaderModel")
    rs = c_uint32(0)
    check_hr(check_feature(dev, D3D12_FEATURE_ROOT_SIGNATURE, ctypes.addressof(rs), 4), E_INVALIDARG,
             "CheckFeatureSupport(ROOT_SIGNATURE 0)")
    check_eq(rs.value, 0, "HighestVersion untouched")

    # SetName / GetPrivateData
    name = "client_py device"
    check_eq(sizeof(c_wchar), 4, "sizeof(wchar_t)")
    check_hr(call(dev, SET_NAME, HRESULT, c_wchar_p, name), S_OK, "SetName")
    hr, size = get_private_data(dev, WKPDID_D3DDebugObjectNameW, 0, None)
    check_hr(hr, S_OK, "GetPrivateData(name) size query")
    check_eq(size, (len(name) + 1) * 4, "name size")
    buf = ctypes.create_unicode_buffer(64)
    hr, size = get_private_data(dev, WKPDID_D3DDebugObjectNameW, sizeof(buf), ctypes.addressof(buf))
    check_hr(hr, S_OK, "GetPrivateData(name)")
    check_eq(buf.value, name, "name round trip")
    check_hr(call(dev, SET_NAME, HRESULT, c_wchar_p, None), E_INVALIDARG, "SetName(NULL)")

    # private data
    hr, size = get_private_data(dev, GUID_DATA, 99, None)
    check_hr(hr, DXGI_ERROR_NOT_FOUND, "GetPrivateData(unknown GUID)")
    check_eq(size, 0, "GetPrivateData(unknown GUID) size")
    hr, _ = get_private_data(dev, GUID_DATA, None, None)
    check_hr(hr, E_INVALIDARG, "GetPrivateData(pDataSize NULL)")
    data = (c_uint8 * 12)(*range(1, 13))
    check_hr(set_private_data(dev, GUID_DATA, 12, ctypes.addressof(data)), S_OK, "SetPrivateData")
    small = (c_uint8 * 4)()
    hr, size = get_private_data(dev, GUID_DATA, 4, ctypes.addressof(small))
    check_hr(hr, DXGI_ERROR_MORE_DATA, "GetPrivateData(too small)")
    check_eq(size, 12, "GetPrivateData(too small) needed size")
    back = (c_uint8 * 16)()
    hr, size = get_private_data(dev, GUID_DATA, 16, ctypes.addressof(back))
    check_hr(hr, S_OK, "GetPrivateData")
    check_eq((size, bytes(back)[:12]), (12, bytes(data)), "private data round trip")
    # NULL data deletes whatever the size; deleting what is not there is S_FALSE (Windows)
    check_hr(set_private_data(dev, GUID_DATA, 4, None), S_OK, "SetPrivateData(NULL, 4) deletes")
    hr, size = get_private_data(dev, GUID_DATA, 16, ctypes.addressof(back))
    check_hr(hr, DXGI_ERROR_NOT_FOUND, "GetPrivateData after delete")
    check_hr(set_private_data(dev, GUID_DATA, 0, None), S_FALSE, "SetPrivateData delete of nothing")

    # SetPrivateDataInterface with a Python IUnknown
    a, b = Counter(), Counter()
    set_iface = lambda obj: call(dev, SET_PRIVATE_DATA_INTERFACE, HRESULT, POINTER(GUID), byref(GUID_IFACE),  # noqa: E731
                                 c_void_p, obj)
    check_hr(set_iface(a.ptr), S_OK, "SetPrivateDataInterface(a)")
    check_eq(a.refs, 2, "device holds one reference on a")
    out = c_void_p()
    hr, size = get_private_data(dev, GUID_IFACE, sizeof(out), ctypes.addressof(out))
    check_hr(hr, S_OK, "GetPrivateData(interface)")
    check_eq(out.value, a.ptr, "GetPrivateData(interface) pointer")
    check_eq(a.refs, 3, "GetPrivateData(interface) AddRefs")
    if out.value == a.ptr:
        release(out.value)
    check_hr(set_iface(b.ptr), S_OK, "SetPrivateDataInterface(b) replaces a")
    check_eq((a.refs, b.refs), (1, 2), "refs after replace")
    check_hr(set_iface(None), S_OK, "SetPrivateDataInterface(NULL) stores a NULL interface")
    check_eq(b.refs, 1, "refs after replace by NULL")
    out = c_void_p(1)
    hr, size = get_private_data(dev, GUID_IFACE, sizeof(out), ctypes.addressof(out))
    check_eq((hr, size, out.value), (S_OK, 8, None), "GetPrivateData(NULL interface)")
    check_hr(set_iface(a.ptr), S_OK, "SetPrivateDataInterface(a) again")
    check_eq(a.refs, 2, "device holds one reference on a again")

    # raw slots equal named behaviour (GetNodeCount 7 / GetDeviceRemovedReason 37 / GetAdapterLuid 43)
    check_eq(call(dev, 7, UINT), call(dev, GET_NODE_COUNT, UINT), "slot 7")
    luid3 = call(dev, 43, LUID)
    check_eq((luid3.LowPart, luid3.HighPart), (luid.LowPart, luid.HighPart), "slot 43")

    # the final release
    check_eq(refcount(dev), 1, "refcount before the final Release")
    check_eq(release(dev), 0, "final Release")
    check_eq(a.refs, 1, "the dead device released its private interface")

    # a new device is a fresh object
    dev_p = c_void_p()
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, byref(IID_ID3D12Device11), byref(dev_p)), S_OK,
             "D3D12CreateDevice(ID3D12Device11)")
    if dev_p.value:
        check_eq(refcount(dev_p.value), 1, "new device refcount")
        hr, size = get_private_data(dev_p.value, WKPDID_D3DDebugObjectNameW, 5, None)
        check_hr(hr, DXGI_ERROR_NOT_FOUND, "new device has no name")
        check_eq(release(dev_p.value), 0, "final Release of the new device")

    print(f"client_py: {PASSED} passed, {FAILED} failed")
    return 0 if FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
