#!/usr/bin/env python3
"""tests/abi/layout.py - the device's layout-math methods through Python ctypes, by vtable index only.

Like client.py, every COM method is reached as obj->lpVtbl[index] and called with the C calling
convention, `This` first (the way HSP's #comfunc or any FFI without the C headers does). The
methods covered (ID3D12Device11 vtable slots):

    13 CheckFeatureSupport (FORMAT_SUPPORT)      25 GetResourceAllocationInfo (16-byte struct by value)
    30 CreateReservedResource                    38 GetCopyableFootprints (void, 8 arguments)
    42 GetResourceTiling (void)

A representative subset of tests/abi/layout.c; the expected numbers are worked out there (and in
footprints.md, resources.md §6-§8, features.md §3.4, heaps-and-memory.md §8.3).

Usage: python3 tests/abi/layout.py $LIBDIR/libd3d12.so

Every check prints one line when it fails (file:line, what, got vs expected); the last line is
"layout_py: N passed, M failed" and the exit status is 0 only when M is 0.
"""

import ctypes
import os
import sys
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_int32, c_uint8, c_uint16, c_uint32, c_uint64,
                    c_void_p, sizeof)

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
E_FAIL = 0x80004005
E_INVALIDARG = 0x80070057

HRESULT = c_int32
ULONG = c_uint32
UINT = c_uint32

ALL_ONES_32 = 0xFFFFFFFF
ALL_ONES_64 = 0xFFFFFFFFFFFFFFFF
FILL_32 = 0xCDCDCDCD
FILL_64 = 0xCDCDCDCDCDCDCDCD
KB4, KB64 = 4096, 65536

# enum values from d3d12.h / dxgiformat.h
D3D_FEATURE_LEVEL_11_0 = 0xB000
DIM_BUFFER, DIM_TEXTURE2D = 1, 3
LAYOUT_UNKNOWN, LAYOUT_ROW_MAJOR, LAYOUT_64KB_UNDEFINED_SWIZZLE = 0, 1, 2
FLAG_ALLOW_RENDER_TARGET = 0x1
STATE_COMMON = 0
FORMAT_UNKNOWN = 0
FORMAT_R8G8B8A8_UNORM = 28
FORMAT_D32_FLOAT = 40
FORMAT_R1_UNORM = 66
FORMAT_BC1_UNORM = 71
FORMAT_YUY2 = 107
D3D12_FEATURE_FORMAT_SUPPORT = 3
D3D12_PACKED_TILE = 0xFFFFFFFF

# D3D12_FORMAT_SUPPORT1 / 2 bits
S1_BUFFER = 0x1
S1_TEXTURE1D, S1_TEXTURE2D, S1_TEXTURE3D = 0x10, 0x20, 0x40
S1_MIP = 0x1000
S1_RENDER_TARGET = 0x4000
S1_DEPTH_STENCIL = 0x10000
S1_CAST_WITHIN_BIT_LAYOUT = 0x100000
S1_MULTISAMPLE_RESOLVE = 0x40000
S1_MULTISAMPLE_RENDERTARGET = 0x200000
S2_TILED = 0x200


class GUID(Structure):
    _fields_ = [("Data1", c_uint32), ("Data2", c_uint16), ("Data3", c_uint16), ("Data4", c_uint8 * 8)]


def guid(l, w1, w2, *b):
    """A GUID from the arguments of a DEFINE_GUID line."""
    return GUID(l, w1, w2, (c_uint8 * 8)(*b))


class SAMPLE_DESC(Structure):  # DXGI_SAMPLE_DESC
    _fields_ = [("Count", c_uint32), ("Quality", c_uint32)]


class RESOURCE_DESC(Structure):  # D3D12_RESOURCE_DESC (56 bytes, 4 bytes of padding after Dimension)
    _fields_ = [("Dimension", c_uint32), ("Alignment", c_uint64), ("Width", c_uint64), ("Height", c_uint32),
                ("DepthOrArraySize", c_uint16), ("MipLevels", c_uint16), ("Format", c_uint32),
                ("SampleDesc", SAMPLE_DESC), ("Layout", c_uint32), ("Flags", c_uint32)]


class SUBRESOURCE_FOOTPRINT(Structure):  # D3D12_SUBRESOURCE_FOOTPRINT (20 bytes)
    _fields_ = [("Format", c_uint32), ("Width", c_uint32), ("Height", c_uint32), ("Depth", c_uint32),
                ("RowPitch", c_uint32)]


class PLACED_FOOTPRINT(Structure):  # D3D12_PLACED_SUBRESOURCE_FOOTPRINT (32 bytes)
    _fields_ = [("Offset", c_uint64), ("Footprint", SUBRESOURCE_FOOTPRINT)]


class ALLOCATION_INFO(Structure):  # D3D12_RESOURCE_ALLOCATION_INFO, returned by value in RAX:RDX
    _fields_ = [("SizeInBytes", c_uint64), ("Alignment", c_uint64)]


class FORMAT_SUPPORT(Structure):  # D3D12_FEATURE_DATA_FORMAT_SUPPORT
    _fields_ = [("Format", c_uint32), ("Support1", c_uint32), ("Support2", c_uint32)]


class TILE_SHAPE(Structure):  # D3D12_TILE_SHAPE
    _fields_ = [("WidthInTexels", c_uint32), ("HeightInTexels", c_uint32), ("DepthInTexels", c_uint32)]


class PACKED_MIP_INFO(Structure):  # D3D12_PACKED_MIP_INFO (12 bytes)
    _fields_ = [("NumStandardMips", c_uint8), ("NumPackedMips", c_uint8), ("NumTilesForPackedMips", c_uint32),
                ("StartTileIndexInOverallResource", c_uint32)]


class SUBRESOURCE_TILING(Structure):  # D3D12_SUBRESOURCE_TILING (12 bytes)
    _fields_ = [("WidthInTiles", c_uint32), ("HeightInTiles", c_uint16), ("DepthInTiles", c_uint16),
                ("StartTileIndexInOverallResource", c_uint32)]


# DEFINE_GUID values from /usr/include/directx/d3d12.h
IID_ID3D12Device = guid(0x189819f1, 0x1db6, 0x4b57, 0xbe, 0x54, 0x18, 0x21, 0x33, 0x9b, 0x85, 0xf7)
IID_ID3D12Resource = guid(0x696442be, 0xa72e, 0x4059, 0xbc, 0x79, 0x5b, 0x5c, 0x98, 0x04, 0x0f, 0xad)

# ---- calling by vtable index ---------------------------------------------------------------

RELEASE = 2  # IUnknown::Release, on the device and on resources
CHECK_FEATURE_SUPPORT = 13
GET_RESOURCE_ALLOCATION_INFO = 25
CREATE_RESERVED_RESOURCE = 30
GET_COPYABLE_FOOTPRINTS = 38
GET_RESOURCE_TILING = 42


def vtable(obj):
    """obj->lpVtbl as an array of slot addresses."""
    return ctypes.cast(c_void_p(obj), POINTER(POINTER(c_void_p)))[0]


def call(obj, index, restype, *argtypes_and_args):
    """Calls slot `index` of obj's vtable: call(obj, 7, UINT) or
    call(obj, 13, HRESULT, c_uint32, 3, c_void_p, addr, c_uint32, 12)."""
    types = argtypes_and_args[0::2]
    values = argtypes_and_args[1::2]
    fn = vtable(obj)[index]
    if not fn:
        raise RuntimeError(f"vtable slot {index} is NULL")
    proto = CFUNCTYPE(restype, c_void_p, *types)
    return proto(fn)(c_void_p(obj), *values)


def release(obj):
    return call(obj, RELEASE, ULONG)


def tex2d(fmt, width, height, array=1, mips=1, alignment=0, flags=0, layout=LAYOUT_UNKNOWN):
    return RESOURCE_DESC(DIM_TEXTURE2D, alignment, width, height, array, mips, fmt, SAMPLE_DESC(1, 0), layout,
                         flags)


def buffer(width, alignment=0):
    return RESOURCE_DESC(DIM_BUFFER, alignment, width, 1, 1, 1, FORMAT_UNKNOWN, SAMPLE_DESC(1, 0),
                         LAYOUT_ROW_MAJOR, 0)


class Footprints:
    """The four outputs of GetCopyableFootprints, one entry more than asked for, all bytes 0xCD."""

    def __init__(self, num):
        self.layouts = (PLACED_FOOTPRINT * (num + 1))()
        self.rows = (c_uint32 * (num + 1))()
        self.sizes = (c_uint64 * (num + 1))()
        self.total = c_uint64()
        for obj in (self.layouts, self.rows, self.sizes, self.total):
            ctypes.memset(ctypes.addressof(obj), 0xCD, sizeof(obj))


def footprints(dev, desc, first, num, base=0, null=()):
    """GetCopyableFootprints (slot 38); outputs named in `null` are passed as NULL."""
    r = Footprints(num)
    ptr = {name: (None if name in null else ctypes.addressof(getattr(r, name)))
           for name in ("layouts", "rows", "sizes", "total")}
    call(dev, GET_COPYABLE_FOOTPRINTS, None, POINTER(RESOURCE_DESC), byref(desc), UINT, first, UINT, num,
         c_uint64, base, c_void_p, ptr["layouts"], c_void_p, ptr["rows"], c_void_p, ptr["sizes"],
         c_void_p, ptr["total"])
    return r


def layout_tuple(r, i):
    """(Offset, Format, Width, Height, Depth, RowPitch, NumRows, RowSizeInBytes) of entry i."""
    l = r.layouts[i]
    f = l.Footprint
    return (l.Offset, f.Format, f.Width, f.Height, f.Depth, f.RowPitch, r.rows[i], r.sizes[i])


ALL_ONES_ENTRY = (ALL_ONES_64, ALL_ONES_32, ALL_ONES_32, ALL_ONES_32, ALL_ONES_32, ALL_ONES_32, ALL_ONES_32,
                  ALL_ONES_64)
FILL_ENTRY = (FILL_64, FILL_32, FILL_32, FILL_32, FILL_32, FILL_32, FILL_32, FILL_64)


def allocation_info(dev, *descs, mask=0):
    """GetResourceAllocationInfo (slot 25): (SizeInBytes, Alignment)."""
    arr = (RESOURCE_DESC * len(descs))(*descs) if descs else None
    info = call(dev, GET_RESOURCE_ALLOCATION_INFO, ALLOCATION_INFO, UINT, mask, UINT, len(descs), c_void_p,
                ctypes.addressof(arr) if arr is not None else None)
    return info.SizeInBytes, info.Alignment


def format_support(dev, fmt):
    fs = FORMAT_SUPPORT(fmt, FILL_32, FILL_32)
    hr = call(dev, CHECK_FEATURE_SUPPORT, HRESULT, c_uint32, D3D12_FEATURE_FORMAT_SUPPORT, c_void_p,
              ctypes.addressof(fs), UINT, sizeof(fs))
    return hr, fs.Support1, fs.Support2


def create_reserved(dev, desc, what):
    out = c_void_p()
    hr = call(dev, CREATE_RESERVED_RESOURCE, HRESULT, POINTER(RESOURCE_DESC), byref(desc), c_uint32, STATE_COMMON,
              c_void_p, None, POINTER(GUID), byref(IID_ID3D12Resource), POINTER(c_void_p), byref(out))
    check_hr(hr, S_OK, f"CreateReservedResource({what})")
    return out.value


class Tiling:
    def __init__(self):
        self.num_tiles = c_uint32(FILL_32)
        self.packed = PACKED_MIP_INFO()
        self.shape = TILE_SHAPE()
        self.num_sub = c_uint32()
        self.sub = (SUBRESOURCE_TILING * 64)()
        for obj in (self.packed, self.shape, self.sub):
            ctypes.memset(ctypes.addressof(obj), 0xCD, sizeof(obj))

    def packed_tuple(self):
        p = self.packed
        return (p.NumStandardMips, p.NumPackedMips, p.NumTilesForPackedMips, p.StartTileIndexInOverallResource)

    def shape_tuple(self):
        return (self.shape.WidthInTexels, self.shape.HeightInTexels, self.shape.DepthInTexels)

    def sub_tuple(self, i):
        s = self.sub[i]
        return (s.WidthInTiles, s.HeightInTiles, s.DepthInTiles, s.StartTileIndexInOverallResource)


SUB_FILL = (FILL_32, 0xCDCD, 0xCDCD, FILL_32)
SUB_PACKED = (0, 0, 0, D3D12_PACKED_TILE)


def resource_tiling(dev, res, capacity, first):
    """GetResourceTiling (slot 42) with every output given."""
    t = Tiling()
    t.num_sub.value = capacity
    call(dev, GET_RESOURCE_TILING, None, c_void_p, res, POINTER(c_uint32), byref(t.num_tiles),
         POINTER(PACKED_MIP_INFO), byref(t.packed), POINTER(TILE_SHAPE), byref(t.shape), POINTER(c_uint32),
         byref(t.num_sub), UINT, first, POINTER(SUBRESOURCE_TILING), t.sub)
    return t


# ---- the tests -----------------------------------------------------------------------------

def test_abi():
    check_eq(sizeof(RESOURCE_DESC), 56, "sizeof(D3D12_RESOURCE_DESC)")
    check_eq(RESOURCE_DESC.Format.offset, 32, "offsetof(D3D12_RESOURCE_DESC, Format)")
    check_eq(sizeof(PLACED_FOOTPRINT), 32, "sizeof(D3D12_PLACED_SUBRESOURCE_FOOTPRINT)")
    check_eq(sizeof(ALLOCATION_INFO), 16, "sizeof(D3D12_RESOURCE_ALLOCATION_INFO)")
    check_eq(sizeof(PACKED_MIP_INFO), 12, "sizeof(D3D12_PACKED_MIP_INFO)")
    check_eq(sizeof(SUBRESOURCE_TILING), 12, "sizeof(D3D12_SUBRESOURCE_TILING)")
    check_eq(sizeof(FORMAT_SUPPORT), 12, "sizeof(D3D12_FEATURE_DATA_FORMAT_SUPPORT)")


def test_footprints(dev):
    # R8G8B8A8_UNORM 32x32 (footprints.md §4.1): RowSize 128, RowPitch 256, 32 rows,
    # TotalBytes (32 - 1) x 256 + 128 = 8064.
    rgba = tex2d(FORMAT_R8G8B8A8_UNORM, 32, 32)
    r = footprints(dev, rgba, 0, 1)
    check_eq(layout_tuple(r, 0), (0, FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256, 32, 128), "RGBA8 32x32 footprint")
    check_eq(r.total.value, 8064, "RGBA8 32x32 TotalBytes")
    check_eq(layout_tuple(r, 1), FILL_ENTRY, "RGBA8 32x32 entry 1 untouched")
    # BaseOffset 1000: Offset 1000, TotalBytes unchanged.
    r = footprints(dev, rgba, 0, 1, base=1000)
    check_eq(r.layouts[0].Offset, 1000, "RGBA8 32x32 BaseOffset 1000: Offset")
    check_eq(r.total.value, 8064, "RGBA8 32x32 BaseOffset 1000: TotalBytes")
    # Only pTotalBytes.
    r = footprints(dev, rgba, 0, 1, null=("layouts", "rows", "sizes"))
    check_eq(r.total.value, 8064, "RGBA8 32x32 TotalBytes alone")
    check_eq(r.layouts[0].Offset, FILL_64, "NULL pLayouts not written")

    # BC1_UNORM 64x64, MipLevels 0 = 7 mips (footprints.md §4.2); 8 bytes per 4x4 block, pitch 256:
    #   mip  extents   rows RowSize  size              offset
    #   0    64x64     16   128      15x256+128 = 3968 0
    #   1    32x32      8    64      7x256+64 = 1856   align(3968)  = 4096
    #   2    16x16      4    32      3x256+32 = 800    align(5952)  = 6144
    #   3    8x8        2    16      256+16 = 272      align(6944)  = 7168
    #   4    4x4        1     8      8                 align(7440)  = 7680
    #   5    2x2 -> 4x4 1     8      8                 align(7688)  = 8192
    #   6    1x1 -> 4x4 1     8      8                 align(8200)  = 8704
    # TotalBytes = 8704 + 8 = 8712.
    bc1 = tex2d(FORMAT_BC1_UNORM, 64, 64, mips=0)
    expected = [(0, 64, 16, 128), (4096, 32, 8, 64), (6144, 16, 4, 32), (7168, 8, 2, 16), (7680, 4, 1, 8),
                (8192, 4, 1, 8), (8704, 4, 1, 8)]
    r = footprints(dev, bc1, 0, 7)
    for mip, (off, extent, rows, row_size) in enumerate(expected):
        check_eq(layout_tuple(r, mip), (off, FORMAT_BC1_UNORM, extent, extent, 1, 256, rows, row_size),
                 f"BC1 64x64 mip {mip}")
    check_eq(r.total.value, 8712, "BC1 64x64 7 mips TotalBytes")
    check_eq(layout_tuple(r, 7), FILL_ENTRY, "BC1 entry 7 untouched")
    # First 5, Num 2: a range starts at BaseOffset; mip 6 at align(8) = 512; TotalBytes 520.
    r = footprints(dev, bc1, 5, 2)
    check_eq(layout_tuple(r, 0), (0, FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8), "BC1 First 5: mip 5")
    check_eq(layout_tuple(r, 1), (512, FORMAT_BC1_UNORM, 4, 4, 1, 256, 1, 8), "BC1 First 5: mip 6")
    check_eq(r.total.value, 520, "BC1 First 5 Num 2 TotalBytes")

    # Invalid input (footprints.md §6): 1 subresource, First 0 Num 2 -> every element all-ones.
    r = footprints(dev, rgba, 0, 2)
    check_eq(layout_tuple(r, 0), ALL_ONES_ENTRY, "invalid range: entry 0 all-ones")
    check_eq(layout_tuple(r, 1), ALL_ONES_ENTRY, "invalid range: entry 1 all-ones")
    check_eq(r.total.value, ALL_ONES_64, "invalid range: TotalBytes")
    check_eq(layout_tuple(r, 2), FILL_ENTRY, "invalid range: entry 2 untouched")
    bad = buffer(256)
    bad.Height = 3
    r = footprints(dev, bad, 0, 1)
    check_eq(layout_tuple(r, 0), ALL_ONES_ENTRY, "buffer Height 3: all-ones")
    check_eq(r.total.value, ALL_ONES_64, "buffer Height 3: TotalBytes")

    # Buffer, Width 4 (footprints.md §4.7).
    r = footprints(dev, buffer(4), 0, 1)
    check_eq(layout_tuple(r, 0), (0, FORMAT_UNKNOWN, 4, 1, 1, 256, 1, 4), "buffer 4 footprint")
    check_eq(r.total.value, 4, "buffer 4 TotalBytes")


def test_allocation_info(dev):
    check_eq(allocation_info(dev), (0, 1), "0 descs")
    # Buffers: Width rounded up to 64 KB, alignment 64 KB; 4 KB is not a buffer alignment.
    check_eq(allocation_info(dev, buffer(4)), (KB64, KB64), "buffer 4")
    check_eq(allocation_info(dev, buffer(65537)), (2 * KB64, KB64), "buffer 65537")
    check_eq(allocation_info(dev, buffer(4, alignment=KB4)), (ALL_ONES_64, KB64), "buffer Alignment 4096")
    # 32x32 RGBA8 = 4096 bytes in the runtime's tight texture layout -> {4096, 4096}; with
    # Alignment 0 the alignment is 64 KB.
    small = tex2d(FORMAT_R8G8B8A8_UNORM, 32, 32, alignment=KB4)
    check_eq(allocation_info(dev, small), (KB4, KB4), "RGBA8 32x32 Alignment 4096")
    check_eq(allocation_info(dev, tex2d(FORMAT_R8G8B8A8_UNORM, 32, 32)), (KB64, KB64), "RGBA8 32x32 Alignment 0")
    # 256x256 RGBA8 needs 8x8 = 64 tiles of 32x32 > 16 -> no 4 KB: {UINT64_MAX, 65536}.
    check_eq(allocation_info(dev, tex2d(FORMAT_R8G8B8A8_UNORM, 256, 256, alignment=KB4)), (ALL_ONES_64, KB64),
             "RGBA8 256x256 Alignment 4096")
    # Render targets may not use 4 KB.
    check_eq(allocation_info(dev, tex2d(FORMAT_R8G8B8A8_UNORM, 32, 32, alignment=KB4,
                                        flags=FLAG_ALLOW_RENDER_TARGET)),
             (ALL_ONES_64, KB64), "RGBA8 32x32 RT Alignment 4096")
    # Several descs, C-struct placement in array order (A = 4 KB texture, B = 64 KB buffer):
    #   [A, B, A]: offsets 0, 65536, 131072; end 135168 -> align(64 KB) = 196608
    #   [B, A, A]: offsets 0, 65536, 69632; end 73728 -> 131072
    #   [A, A]:    end 8192 -> {8192, 4096}
    big = buffer(KB64)
    check_eq(allocation_info(dev, small, big, small), (196608, KB64), "[A, B, A]")
    check_eq(allocation_info(dev, big, small, small), (131072, KB64), "[B, A, A]")
    check_eq(allocation_info(dev, small, small), (8192, KB4), "[A, A]")
    invalid = tex2d(FORMAT_R8G8B8A8_UNORM, 256, 256, alignment=KB4)
    check_eq(allocation_info(dev, small, invalid, big)[0], ALL_ONES_64, "[A, invalid, B] SizeInBytes")


def test_format_support(dev):
    # Today's runtime: texture dimensions, MIP, CAST_WITHIN_BIT_LAYOUT and TILED; render targets
    # (multisampled and resolvable too) and depth-stencil (multisampled too); shaders execute:
    # buffers, vertex buffers, cube textures, loads, sampling, gathers, blending, typed UAVs with
    # typed loads and stores (see layout.c). Written as numbers: RGBA8 0x2F4D3F3 = BUFFER 0x1 |
    # IA_VERTEX_BUFFER 0x2 | TEXTURE1D/2D/3D/CUBE 0xF0 | SHADER_LOAD 0x100 | SHADER_SAMPLE 0x200 |
    # MIP 0x1000 | RENDER_TARGET 0x4000 | BLENDABLE 0x8000 | MULTISAMPLE_RESOLVE 0x40000 |
    # CAST 0x100000 | MULTISAMPLE_RENDERTARGET 0x200000 | MULTISAMPLE_LOAD 0x400000 |
    # SHADER_GATHER 0x800000 | TYPED_UAV 0x2000000; Support2 0x2C0 = UAV_TYPED_LOAD 0x40 | UAV_TYPED_STORE 0x80 | TILED 0x200.
    # BC1 0x9013E0 = 2D|3D|CUBE 0xE0 | LOAD | SAMPLE | MIP | CAST | GATHER. D32_FLOAT 0x3110B0 =
    # 1D|2D|CUBE 0xB0 | MIP | DEPTH_STENCIL 0x10000 | CAST | MULTISAMPLE_RENDERTARGET.
    for name, fmt, expected in (
            ("R8G8B8A8_UNORM", FORMAT_R8G8B8A8_UNORM, (S_OK, 0x2F4D3F3, 0x2C0)),
            ("BC1_UNORM", FORMAT_BC1_UNORM, (S_OK, 0x9013E0, S2_TILED)),
            ("D32_FLOAT", FORMAT_D32_FLOAT, (S_OK, 0x3110B0, S2_TILED)),
            ("UNKNOWN", FORMAT_UNKNOWN, (S_OK, S1_BUFFER, S2_TILED)),
            # known but unsupported: E_FAIL with both masks zeroed
            ("R1_UNORM", FORMAT_R1_UNORM, (E_FAIL, 0, 0)),
            # required packed/video format: a 2D texture, nothing decoded (TEXTURE2D 0x20)
            ("YUY2", FORMAT_YUY2, (S_OK, 0x20, 0)),
            # a value between the enum's members: not supported (E_FAIL), as on Windows
            ("116", 116, (E_FAIL, 0, 0)),
            # past the last format: E_INVALIDARG, outputs untouched
            ("0xFFFFFFFF", 0xFFFFFFFF, (E_INVALIDARG, FILL_32, FILL_32))):
        hr, s1, s2 = format_support(dev, fmt)
        check_eq((u32(hr), s1, s2), expected, f"FORMAT_SUPPORT {name} (hr, Support1, Support2)")


def test_tiling(dev):
    # Reserved buffer of 16 x 64 KB (heaps-and-memory.md §8.3, native): 16 tiles, shape 65536x1x1,
    # no standard or packed mips; one subresource tiling of 16x1x1 tiles from tile 0.
    res = create_reserved(dev, buffer(16 * KB64), "buffer 16 x 64 KB")
    if res:
        t = resource_tiling(dev, res, 4, 0)
        check_eq(t.num_tiles.value, 16, "buffer NumTilesForEntireResource")
        check_eq(t.shape_tuple(), (65536, 1, 1), "buffer tile shape")
        check_eq(t.packed_tuple(), (0, 0, 0, 0), "buffer packed mip info")
        check_eq(t.num_sub.value, 1, "buffer NumSubresourceTilings")
        check_eq(t.sub_tuple(0), (16, 1, 1, 0), "buffer subresource tiling")
        check_eq(t.sub_tuple(1), SUB_FILL, "buffer tiling entry 1 untouched")
        check_eq(release(res), 0, "buffer final Release")

    # RGBA8 128x128, 1 mip: exactly one 128x128 tile.
    res = create_reserved(dev, tex2d(FORMAT_R8G8B8A8_UNORM, 128, 128, layout=LAYOUT_64KB_UNDEFINED_SWIZZLE),
                          "RGBA8 128x128")
    if res:
        t = resource_tiling(dev, res, 4, 0)
        check_eq(t.num_tiles.value, 1, "RGBA8 128x128 tiles")
        check_eq(t.shape_tuple(), (128, 128, 1), "RGBA8 tile shape")
        check_eq(t.packed_tuple(), (1, 0, 0, 0), "RGBA8 128x128 packed mip info")
        check_eq(t.sub_tuple(0), (1, 1, 1, 0), "RGBA8 128x128 subresource tiling")
        check_eq(release(res), 0, "RGBA8 128x128 final Release")

    # RGBA8 512x512, 10 mips (native): mips 512/256/128 take 16 + 4 + 1 tiles; mip 3 (64) and
    # below are packed: 3 standard mips, 7 packed, first packed tile 21.
    res = create_reserved(dev, tex2d(FORMAT_R8G8B8A8_UNORM, 512, 512, mips=10,
                                     layout=LAYOUT_64KB_UNDEFINED_SWIZZLE), "RGBA8 512x512 10 mips")
    if res:
        t = resource_tiling(dev, res, 64, 0)
        std, packed, packed_tiles, start = t.packed_tuple()
        check_eq((std, packed, start), (3, 7, 21), "10 mips (NumStandardMips, NumPackedMips, packed start)")
        check(packed_tiles >= 1, "10 mips NumTilesForPackedMips >= 1")
        check_eq(t.num_tiles.value, 21 + packed_tiles, "10 mips NumTilesForEntireResource")
        check_eq(t.num_sub.value, 10, "10 mips NumSubresourceTilings")
        check_eq([t.sub_tuple(i) for i in range(3)], [(4, 4, 1, 0), (2, 2, 1, 16), (1, 1, 1, 20)],
                 "10 mips standard tilings")
        check_eq([t.sub_tuple(i) for i in range(3, 10)], [SUB_PACKED] * 7, "10 mips packed tilings")
        check_eq(t.sub_tuple(10), SUB_FILL, "10 mips entry 10 untouched")
        # First 10 of 10 -> 0 written; capacity 1 -> exactly 1 written, the rest untouched.
        t = resource_tiling(dev, res, 64, 10)
        check_eq((t.num_sub.value, t.sub_tuple(0)), (0, SUB_FILL), "First 10 of 10")
        t = resource_tiling(dev, res, 1, 1)
        check_eq((t.num_sub.value, t.sub_tuple(0), t.sub_tuple(1)), (1, (2, 2, 1, 16), SUB_FILL), "capacity 1")
        # Everything NULL: a no-op.
        call(dev, GET_RESOURCE_TILING, None, c_void_p, res, c_void_p, None, c_void_p, None, c_void_p, None,
             c_void_p, None, UINT, 0, c_void_p, None)
        check_eq(release(res), 0, "RGBA8 512x512 final Release")

    # RGBA8 512x512, 3 mips, array 4 (native): 21 tiles per slice -> 84, 12 subresource tilings;
    # slice 3 mip 2 starts at 3 x 21 + 20 = 83.
    res = create_reserved(dev, tex2d(FORMAT_R8G8B8A8_UNORM, 512, 512, array=4, mips=3,
                                     layout=LAYOUT_64KB_UNDEFINED_SWIZZLE), "RGBA8 512x512 3 mips array 4")
    if res:
        t = resource_tiling(dev, res, 64, 0)
        check_eq(t.num_tiles.value, 84, "array NumTilesForEntireResource")
        check_eq(t.num_sub.value, 12, "array NumSubresourceTilings")
        check_eq(t.sub_tuple(11), (1, 1, 1, 83), "array slice 3 mip 2")
        check_eq(release(res), 0, "array final Release")


def main():
    if len(sys.argv) != 2:
        print("usage: layout.py path/to/libd3d12.so")
        return 2
    lib = ctypes.CDLL(sys.argv[1])
    create = lib.D3D12CreateDevice
    create.argtypes = [c_void_p, c_uint32, POINTER(GUID), POINTER(c_void_p)]
    create.restype = HRESULT

    test_abi()
    dev_p = c_void_p()
    check_hr(create(None, D3D_FEATURE_LEVEL_11_0, byref(IID_ID3D12Device), byref(dev_p)), S_OK,
             "D3D12CreateDevice(11_0)")
    dev = dev_p.value
    if not dev:
        print(f"layout_py: {PASSED} passed, {FAILED} failed")
        return 1
    test_footprints(dev)
    test_allocation_info(dev)
    test_format_support(dev)
    test_tiling(dev)
    check_eq(release(dev), 0, "final Release of the device")

    print(f"layout_py: {PASSED} passed, {FAILED} failed")
    return 0 if FAILED == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
