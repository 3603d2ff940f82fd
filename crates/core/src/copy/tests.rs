//! Copy-command tests: every rule of commands-and-sync.md §6 with the native evidence it
//! cites, and hand-computed plans.

use super::*;
use crate::subresource::subresource_count;
use rd3d12_sys::*;

const DS_FLAG: u32 = 0x2;

fn tex(dim: D3D12_RESOURCE_DIMENSION, w: u64, h: u32, d: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
    D3D12_RESOURCE_DESC1 {
        Dimension: dim,
        Alignment: 0,
        Width: w,
        Height: h,
        DepthOrArraySize: d,
        MipLevels: mips,
        Format: fmt,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Layout: D3D12_TEXTURE_LAYOUT_UNKNOWN,
        Flags: D3D12_RESOURCE_FLAG_NONE,
        SamplerFeedbackMipRegion: Default::default(),
    }
}

fn tex2d(w: u64, h: u32, arr: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
    tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, arr, mips, fmt)
}

fn buffer(w: u64) -> D3D12_RESOURCE_DESC1 {
    let mut d = tex(D3D12_RESOURCE_DIMENSION_BUFFER, w, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d
}

fn with_flags(mut d: D3D12_RESOURCE_DESC1, flags: u32) -> D3D12_RESOURCE_DESC1 {
    d.Flags = D3D12_RESOURCE_FLAGS(flags);
    d
}

fn msaa(mut d: D3D12_RESOURCE_DESC1, count: u32) -> D3D12_RESOURCE_DESC1 {
    d.SampleDesc.Count = count;
    d
}

fn side(desc: &D3D12_RESOURCE_DESC1, heap: HeapKind, location: Location) -> Side<'_> {
    Side { desc, heap, subresource_count: subresource_count(desc) as u32, location }
}

fn sub(desc: &D3D12_RESOURCE_DESC1, i: u32) -> Side<'_> {
    side(desc, HeapKind::Default, Location::Subresource(i))
}

fn fp(offset: u64, fmt: DXGI_FORMAT, w: u32, h: u32, d: u32, pitch: u32) -> Location {
    Location::Footprint(D3D12_PLACED_SUBRESOURCE_FOOTPRINT {
        Offset: offset,
        Footprint: D3D12_SUBRESOURCE_FOOTPRINT { Format: fmt, Width: w, Height: h, Depth: d, RowPitch: pitch },
    })
}

fn whole(desc: &D3D12_RESOURCE_DESC1) -> Side<'_> {
    side(desc, HeapKind::Default, Location::Whole)
}

fn upload<'a>(buf: &'a D3D12_RESOURCE_DESC1, loc: Location) -> Side<'a> {
    side(buf, HeapKind::Upload, loc)
}

fn readback<'a>(buf: &'a D3D12_RESOURCE_DESC1, loc: Location) -> Side<'a> {
    side(buf, HeapKind::Readback, loc)
}

/// dst ← src at (0, 0, 0) with Caps::today().
fn copy(dst: &Side<'_>, src: &Side<'_>) -> Result<Option<CopyPlan>, Violation> {
    copy_texture_region(dst, 0, 0, 0, src, None, &Caps::today())
}

fn copy_at(
    dst: &Side<'_>,
    x: u32,
    y: u32,
    z: u32,
    src: &Side<'_>,
    b: Option<D3D12_BOX>,
) -> Result<Option<CopyPlan>, Violation> {
    copy_texture_region(dst, x, y, z, src, b.as_ref(), &Caps::today())
}

/// A device without programmable sample positions (OPTIONS2 tier NOT_SUPPORTED), where
/// depth-stencil and multisampled copies must be whole subresources.
fn tier0() -> Caps {
    Caps { programmable_sample_positions_tier: 0, ..Caps::today() }
}

/// `copy_at` on a [`tier0`] device.
fn copy_at_tier0(
    dst: &Side<'_>,
    x: u32,
    y: u32,
    z: u32,
    src: &Side<'_>,
    b: Option<D3D12_BOX>,
) -> Result<Option<CopyPlan>, Violation> {
    copy_texture_region(dst, x, y, z, src, b.as_ref(), &tier0())
}

fn id(r: Result<Option<CopyPlan>, Violation>) -> u32 {
    r.expect_err("expected an error").id.0
}

fn plan(r: Result<Option<CopyPlan>, Violation>) -> CopyPlan {
    r.expect("expected success").expect("expected a copy, not a no-op")
}

fn bx(left: u32, top: u32, front: u32, right: u32, bottom: u32, back: u32) -> Option<D3D12_BOX> {
    Some(D3D12_BOX { left, top, front, right, bottom, back })
}

fn no_unaligned_bc() -> Caps {
    Caps { unaligned_block_textures: false, ..Caps::today() }
}

// ---------------------------------------------------------------------------------------
// Plans.

#[test]
fn upload_rgba8_32x32_full_plan() {
    // footprints.md §4.1: {RGBA8, 32, 32, 1, RowPitch 256} at Offset 0, TotalBytes 8064.
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(8064);
    let p = plan(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256))));
    assert_eq!(
        p.dst,
        Surface {
            offset: 0,
            row_pitch: 128,
            slice_pitch: 4096,
            subresource: Some(0),
            origin: (0, 0, 0),
            sample_stride: 0
        }
    );
    assert_eq!(
        p.src,
        Surface {
            offset: 0,
            row_pitch: 256,
            slice_pitch: 8192,
            subresource: None,
            origin: (0, 0, 0),
            sample_stride: 0
        }
    );
    assert_eq!(p.element_bytes, 4);
    assert_eq!(p.extent, (32, 32, 1));
    assert_eq!(p.row_bytes, 128);
    assert_eq!(p.samples, 1);
    assert!(p.warnings.is_empty());
    let rows: Vec<_> = p.rows().collect();
    assert_eq!(rows.len(), 32);
    assert_eq!(rows[0], (0, 0));
    assert_eq!(rows[1], (128, 256));
    assert_eq!(rows[31], (31 * 128, 31 * 256));
    assert_eq!(p.dst_span(), 0..4096);
    assert_eq!(p.src_span(), 0..8064);
    // one byte short of the tight size
    let small = buffer(8063);
    let e = id(copy(&sub(&t, 0), &upload(&small, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256))));
    assert_eq!(e, 869);
}

#[test]
fn readback_with_box_and_offsets() {
    // mip 1 (16×16) of a 32×32 RGBA8 texture, box (4, 2)–(12, 10) into a footprint at 512.
    let t = tex2d(32, 32, 1, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(512 + 15 * 256 + 64);
    let dst = readback(&b, fp(512, DXGI_FORMAT_R8G8B8A8_UNORM, 16, 16, 1, 256));
    let p = plan(copy_at(&dst, 2, 3, 0, &sub(&t, 1), bx(4, 2, 0, 12, 10, 1)));
    assert_eq!(p.src.offset, 4096, "mip 1 follows the 4096 bytes of mip 0");
    assert_eq!((p.src.row_pitch, p.src.slice_pitch, p.src.origin), (64, 1024, (4, 2, 0)));
    assert_eq!((p.dst.offset, p.dst.row_pitch, p.dst.slice_pitch, p.dst.origin), (512, 256, 4096, (2, 3, 0)));
    assert_eq!((p.extent, p.row_bytes), ((8, 8, 1), 32));
    assert_eq!(p.rows().next(), Some((512 + 3 * 256 + 2 * 4, 4096 + 2 * 64 + 4 * 4)));
    // a box equal to the whole subresource is fine; beyond it is #871
    assert!(copy_at(&dst, 0, 0, 0, &sub(&t, 1), bx(0, 0, 0, 16, 16, 1)).is_ok());
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 1), bx(0, 0, 0, 17, 16, 1))), 871);
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 1), bx(0, 0, 0, 16, 17, 1))), 871);
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 1), bx(0, 0, 0, 16, 16, 2))), 871);
}

#[test]
fn texture3d_box_plan() {
    // footprints.md §4.3 texture: R16G16B16A16_FLOAT 16×8×4 (8 bytes/texel).
    let t = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 8, 4, 1, DXGI_FORMAT_R16G16B16A16_FLOAT);
    let b = buffer(256 * (4 * 2 - 1) + 64);
    let dst = readback(&b, fp(0, DXGI_FORMAT_R16G16B16A16_FLOAT, 8, 4, 2, 256));
    let p = plan(copy_at(&dst, 0, 0, 0, &sub(&t, 0), bx(4, 2, 1, 12, 6, 3)));
    assert_eq!((p.src.row_pitch, p.src.slice_pitch, p.src.origin), (128, 1024, (4, 2, 1)));
    assert_eq!((p.dst.row_pitch, p.dst.slice_pitch, p.dst.origin), (256, 1024, (0, 0, 0)));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((8, 4, 2), 8, 64));
    let rows: Vec<_> = p.rows().collect();
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[4], (1024, 2 * 1024 + 2 * 128 + 4 * 8), "first row of the second slice");
    assert_eq!(p.dst_span(), 0..b.Width);
    // the footprint one byte short
    let small = buffer(b.Width - 1);
    let e = id(copy_at(
        &readback(&small, fp(0, DXGI_FORMAT_R16G16B16A16_FLOAT, 8, 4, 2, 256)),
        0,
        0,
        0,
        &sub(&t, 0),
        bx(4, 2, 1, 12, 6, 3),
    ));
    assert_eq!(e, 856);
    // DstZ past the 2 slices of the footprint
    assert_eq!(id(copy_at(&dst, 0, 0, 1, &sub(&t, 0), bx(4, 2, 1, 12, 6, 3))), 858);
}

// ---------------------------------------------------------------------------------------
// Placed footprint rules.

#[test]
fn worked_example_buffer_bound() {
    // gfx-rs#1843: R32G32B32A32_FLOAT 1024×1024, RowPitch 16384, Offset 16384 needs
    // 16793600 bytes, the buffer has 16777216 → #869 (source) / #856 (destination).
    let t = tex2d(1024, 1024, 1, 1, DXGI_FORMAT_R32G32B32A32_FLOAT);
    let b = buffer(16_777_216);
    let f = |off| fp(off, DXGI_FORMAT_R32G32B32A32_FLOAT, 1024, 1024, 1, 16384);
    let e = copy(&sub(&t, 0), &upload(&b, f(16384))).unwrap_err();
    assert_eq!(e.id.0, 869);
    assert!(e.message.contains("needs 16793600 bytes"), "{}", e.message);
    assert!(e.message.contains("1024x1024x1 R32G32B32A32_FLOAT"), "{}", e.message);
    assert!(e.message.contains("buffer Width is 16777216"), "{}", e.message);
    assert_eq!(id(copy(&readback(&b, f(16384)), &sub(&t, 0))), 856);
    // Offset 0: exactly 16384 × 1023 + 16384 = 16777216 bytes
    let p = plan(copy(&sub(&t, 0), &upload(&b, f(0))));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((1024, 1024, 1), 16, 16384));
    assert!(plan(copy(&readback(&b, f(0)), &sub(&t, 0))).warnings.is_empty());
}

#[test]
fn footprint_offset_alignment() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    for off in [1, 256, 511, 513, 1000] {
        let l = fp(off, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256);
        assert_eq!(id(copy(&sub(&t, 0), &upload(&b, l))), 869, "{off}");
        assert_eq!(id(copy(&readback(&b, l), &sub(&t, 0))), 856, "{off}");
    }
    assert!(copy(&sub(&t, 0), &upload(&b, fp(1024, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256))).is_ok());
}

#[test]
fn footprint_row_pitch() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    // 128 = the tight row size, but not a multiple of 256
    let l = fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 128);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, l))), 868);
    assert_eq!(id(copy(&readback(&b, l), &sub(&t, 0))), 855);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 384)))), 868);
    // a multiple of 256 smaller than the row
    let wide = tex2d(100, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_eq!(id(copy(&sub(&wide, 0), &upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 4, 1, 256)))), 868);
    assert!(copy(&sub(&wide, 0), &upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 100, 4, 1, 512))).is_ok());
    // larger pitches are fine
    let p = plan(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 1024))));
    assert_eq!(p.src.row_pitch, 1024);
}

#[test]
fn footprint_formats() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT(200), 32, 32, 1, 256)))), 865);
    assert_eq!(id(copy(&readback(&b, fp(0, DXGI_FORMAT(200), 32, 32, 1, 256)), &sub(&t, 0))), 852);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_UNKNOWN, 32, 32, 1, 256)))), 866);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_R1_UNORM, 32, 32, 1, 256)))), 866);
    assert_eq!(id(copy(&readback(&b, fp(0, DXGI_FORMAT_R1_UNORM, 32, 32, 1, 256)), &sub(&t, 0))), 853);
    // depth-stencil families are refused as footprint formats
    let ds = with_flags(tex2d(64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), DS_FLAG);
    for f in [DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_R24G8_TYPELESS, DXGI_FORMAT_X24_TYPELESS_G8_UINT] {
        assert_eq!(id(copy(&readback(&b, fp(0, f, 64, 64, 1, 256)), &sub(&ds, 0))), 857);
        assert_eq!(id(copy(&sub(&ds, 0), &upload(&b, fp(0, f, 64, 64, 1, 256)))), 870);
    }
    let ds32 = with_flags(tex2d(64, 64, 1, 1, DXGI_FORMAT_D32_FLOAT_S8X24_UINT), DS_FLAG);
    assert_eq!(id(copy(&sub(&ds32, 0), &upload(&b, fp(0, DXGI_FORMAT_R32G8X24_TYPELESS, 64, 64, 1, 512)))), 870);
}

#[test]
fn footprint_dimensions() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(1 << 30);
    let f = DXGI_FORMAT_R8G8B8A8_UNORM;
    // zero extents (gpuweb#648)
    for (w, h, d) in [(0, 32, 1), (32, 0, 1), (32, 32, 0)] {
        assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, f, w, h, d, 256)))), 867, "{w}×{h}×{d}");
        assert_eq!(id(copy(&readback(&b, fp(0, f, w, h, d, 256)), &sub(&t, 0))), 854, "{w}×{h}×{d}");
    }
    // 2D limit 16384, 1D limit 16384, 3D limit 2048
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, f, 16385, 2, 1, 65792)))), 867);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, f, 16385, 1, 1, 65792)))), 867);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, f, 2049, 2, 2, 8448)))), 867);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, f, 4, 4, 2049, 256)))), 867);
    // D32_FLOAT has no 3D textures; NV12 neither
    let d32 = tex2d(4, 4, 1, 1, DXGI_FORMAT_D32_FLOAT);
    assert_eq!(id(copy(&sub(&d32, 0), &upload(&b, fp(0, DXGI_FORMAT_D32_FLOAT, 4, 4, 2, 256)))), 867);
    // Y210 (2×1 texel blocks of 8 bytes): odd widths are rejected; a 4×4 footprint is
    // 2×4 elements of 8 bytes
    let y210 = tex2d(4, 4, 1, 1, DXGI_FORMAT_Y210);
    assert_eq!(id(copy(&sub(&y210, 0), &upload(&b, fp(0, DXGI_FORMAT_Y210, 3, 4, 1, 256)))), 867);
    let p = plan(copy(&sub(&y210, 0), &upload(&b, fp(0, DXGI_FORMAT_Y210, 4, 4, 1, 256))));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes, p.dst.row_pitch), ((2, 4, 1), 8, 16, 16));
    assert_eq!(id(copy_at(&sub(&y210, 0), 1, 0, 0, &upload(&b, fp(0, DXGI_FORMAT_Y210, 2, 4, 1, 256)), None)), 872);
    // YUY2 (2×1 texel blocks of 4 bytes) is copied like Y210
    let yuy2 = tex2d(4, 4, 1, 1, DXGI_FORMAT_YUY2);
    let p = plan(copy(&sub(&yuy2, 0), &upload(&b, fp(0, DXGI_FORMAT_YUY2, 4, 4, 1, 256))));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((2, 4, 1), 4, 8));
    assert_eq!(id(copy(&sub(&yuy2, 0), &upload(&b, fp(0, DXGI_FORMAT_YUY2, 3, 4, 1, 256)))), 867);
}

#[test]
fn bc_footprints_are_whole_blocks_even_with_unaligned_bc_support() {
    // SDL#15348: a BC7 2×2 footprint → #867 and E_INVALIDARG at Close; issue #16 (Windows): a
    // BC footprint whose height is not a block multiple fails Close with E_INVALIDARG. The
    // device's UnalignedBlockTexturesSupported frees texture extents, not footprints
    // (GetCopyableFootprints reports a 2×2 BC mip as 4×4).
    let t = tex2d(8, 8, 1, 3, DXGI_FORMAT_BC7_UNORM);
    let b = buffer(256);
    for caps in [Caps::today(), no_unaligned_bc()] {
        let src = upload(&b, fp(0, DXGI_FORMAT_BC7_UNORM, 2, 2, 1, 256));
        assert_eq!(copy_texture_region(&sub(&t, 2), 0, 0, 0, &src, None, &caps).unwrap_err().id.0, 867);
        let dst = readback(&b, fp(0, DXGI_FORMAT_BC7_UNORM, 2, 2, 1, 256));
        assert_eq!(copy_texture_region(&dst, 0, 0, 0, &sub(&t, 2), None, &caps).unwrap_err().id.0, 854);
        // the aligned 4×4 footprint: one 16-byte block into mip 2 (tight offset: mip 0 = 4
        // blocks = 64 bytes, mip 1 = 1 block = 16 bytes → 80)
        let aligned = upload(&b, fp(0, DXGI_FORMAT_BC7_UNORM, 4, 4, 1, 256));
        let p = plan(copy_texture_region(&sub(&t, 2), 0, 0, 0, &aligned, None, &caps));
        assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((1, 1, 1), 16, 16));
        assert_eq!((p.dst.offset, p.dst.row_pitch, p.dst.slice_pitch), (80, 16, 16));
    }
}

#[test]
fn bc3_height_63_footprint() {
    // Windows: E_INVALIDARG at Close, with or without UnalignedBlockTexturesSupported.
    let t = tex2d(64, 64, 1, 1, DXGI_FORMAT_BC3_UNORM);
    let b = buffer(65536);
    let src = upload(&b, fp(0, DXGI_FORMAT_BC3_UNORM, 64, 63, 1, 256));
    assert_eq!(copy_texture_region(&sub(&t, 0), 0, 0, 0, &src, None, &no_unaligned_bc()).unwrap_err().id.0, 867);
    assert_eq!(id(copy(&sub(&t, 0), &src)), 867);
    // height 64: 16 block rows of 16 blocks, bound 256 × 15 + 256 (the tight size)
    let p = plan(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_BC3_UNORM, 64, 64, 1, 256))));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((16, 16, 1), 16, 256));
    assert_eq!((p.dst.row_pitch, p.dst.slice_pitch), (256, 4096));
    let tight = buffer(256 * 15 + 256);
    assert!(copy(&sub(&t, 0), &upload(&tight, fp(0, DXGI_FORMAT_BC3_UNORM, 64, 64, 1, 256))).is_ok());
    let short = buffer(256 * 15 + 255);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&short, fp(0, DXGI_FORMAT_BC3_UNORM, 64, 64, 1, 256)))), 869);
}

// ---------------------------------------------------------------------------------------
// Locations, heaps, samples.

#[test]
fn location_types() {
    let t = tex2d(32, 32, 1, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    let f = fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256);
    // SUBRESOURCE_INDEX on a buffer / PLACED_FOOTPRINT on a texture
    assert_eq!(id(copy(&side(&b, HeapKind::Default, Location::Subresource(0)), &sub(&t, 0))), 848);
    assert_eq!(id(copy(&sub(&t, 0), &side(&b, HeapKind::Default, Location::Subresource(0)))), 861);
    assert_eq!(id(copy(&side(&t, HeapKind::Default, f), &upload(&b, f))), 848);
    assert_eq!(id(copy(&readback(&b, f), &side(&t, HeapKind::Default, f))), 861);
    // subresource range
    assert_eq!(id(copy(&sub(&t, 2), &upload(&b, f))), 850);
    assert_eq!(id(copy(&readback(&b, f), &sub(&t, 2))), 863);
    // unrecognized types
    assert_eq!(id(copy(&side(&t, HeapKind::Default, Location::InvalidType(2)), &upload(&b, f))), 847);
    assert_eq!(id(copy(&readback(&b, f), &side(&t, HeapKind::Default, Location::Whole))), 860);
    assert!(matches!(Location::from_texture_copy_location(0, 3, Default::default()), Location::Subresource(3)));
    assert!(matches!(Location::from_texture_copy_location(1, 0, Default::default()), Location::Footprint(_)));
    assert!(matches!(Location::from_texture_copy_location(7, 0, Default::default()), Location::InvalidType(7)));
}

#[test]
fn upload_destination_and_readback_source() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    let f = fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256);
    // SDL_gpu_examples#85: destination on an UPLOAD heap → #849
    assert_eq!(id(copy(&upload(&b, f), &sub(&t, 0))), 849);
    assert_eq!(id(copy(&sub(&t, 0), &readback(&b, f))), 862);
    assert!(copy(&sub(&t, 0), &side(&b, HeapKind::Default, f)).is_ok());
    assert!(copy(&side(&b, HeapKind::Custom, f), &sub(&t, 0)).is_ok());
}

#[test]
fn sample_counts_must_match() {
    let ms = msaa(tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM), 4);
    let ss = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    let f = fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256);
    assert_eq!(id(copy(&readback(&b, f), &sub(&ms, 0))), 849);
    assert_eq!(id(copy(&sub(&ss, 0), &sub(&ms, 0))), 849);
    let mut q = ms;
    q.SampleDesc.Quality = 1;
    assert_eq!(id(copy(&sub(&q, 0), &sub(&ms, 0))), 849);
    // MSAA ↔ MSAA: whole subresource, every sample
    let other = ms;
    let p = plan(copy(&side(&other, HeapKind::Default, Location::Subresource(0)), &sub(&ms, 0)));
    assert_eq!(p.samples, 4);
    assert_eq!((p.dst.sample_stride, p.src.sample_stride), (4096, 4096));
    assert_eq!(p.rows().count(), 4 * 32);
    assert_eq!(p.rows().nth(32), Some((4096, 4096)));
    assert_eq!(p.dst_span(), 0..4 * 4096);
    // partial MSAA copies are rejected without programmable sample positions
    let d2 = side(&other, HeapKind::Default, Location::Subresource(0));
    assert_eq!(id(copy_at_tier0(&d2, 0, 0, 0, &sub(&ms, 0), bx(0, 0, 0, 16, 16, 1))), 873);
    assert_eq!(id(copy_at_tier0(&d2, 16, 0, 0, &sub(&ms, 0), bx(0, 0, 0, 16, 16, 1))), 872);
}

#[test]
fn reference_only_flags_must_match() {
    let a = tex2d(32, 32, 1, 1, DXGI_FORMAT_NV12);
    let dec =
        with_flags(a, D3D12_RESOURCE_FLAG_VIDEO_DECODE_REFERENCE_ONLY.0 | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE.0);
    let enc =
        with_flags(a, D3D12_RESOURCE_FLAG_VIDEO_ENCODE_REFERENCE_ONLY.0 | D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE.0);
    let deny = with_flags(a, D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE.0);
    assert_eq!(id(copy(&sub(&deny, 0), &side(&dec, HeapKind::Default, Location::Subresource(0)))), 1097);
    assert_eq!(id(copy(&sub(&enc, 0), &side(&deny, HeapKind::Default, Location::Subresource(0)))), 1303);
    assert!(copy(&sub(&deny, 0), &side(&deny, HeapKind::Default, Location::Subresource(0))).is_ok());
}

// ---------------------------------------------------------------------------------------
// Coordinates and boxes.

#[test]
fn destination_coordinates_block_aligned() {
    let t = tex2d(64, 64, 1, 1, DXGI_FORMAT_BC3_UNORM);
    let b = buffer(65536);
    let src = upload(&b, fp(0, DXGI_FORMAT_BC3_UNORM, 4, 4, 1, 256));
    assert_eq!(id(copy_at(&sub(&t, 0), 2, 0, 0, &src, None)), 872);
    assert_eq!(id(copy_at(&sub(&t, 0), 0, 6, 0, &src, None)), 872);
    let p = plan(copy_at(&sub(&t, 0), 8, 12, 0, &src, None));
    assert_eq!(p.dst.origin, (2, 3, 0), "origin in blocks");
    assert_eq!(p.rows().next().unwrap().0, 3 * 256 + 2 * 16);
    // non-BC formats: any texel
    let r = tex2d(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let rs = upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 4, 4, 1, 256));
    assert_eq!(plan(copy_at(&sub(&r, 0), 3, 5, 0, &rs, None)).dst.origin, (3, 5, 0));
}

#[test]
fn source_box_block_aligned_even_at_mip_edges() {
    // BC3 64×64 with 7 mips: mip 5 is 2×2, stored as one 4×4 block.
    let t = tex2d(64, 64, 1, 7, DXGI_FORMAT_BC3_UNORM);
    let b = buffer(65536);
    let dst = readback(&b, fp(0, DXGI_FORMAT_BC3_UNORM, 4, 4, 1, 256));
    // native: 2×2 and 1×1 boxes on the small mips are rejected
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 5), bx(0, 0, 0, 2, 2, 1))), 873);
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 6), bx(0, 0, 0, 1, 1, 1))), 873);
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 0), bx(2, 0, 0, 6, 4, 1))), 873);
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 0), bx(0, 1, 0, 4, 5, 1))), 873);
    // the block-aligned box and the NULL box copy the one block
    for b5 in [bx(0, 0, 0, 4, 4, 1), None] {
        let p = plan(copy_at(&dst, 0, 0, 0, &sub(&t, 5), b5));
        assert_eq!((p.extent, p.row_bytes), ((1, 1, 1), 16));
    }
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 5), bx(0, 0, 0, 8, 4, 1))), 871);
    // mip 0, box (4, 8)–(8, 12): block (1, 2)
    let p = plan(copy_at(&dst, 0, 0, 0, &sub(&t, 0), bx(4, 8, 0, 8, 12, 1)));
    assert_eq!((p.src.origin, p.extent), ((1, 2, 0), (1, 1, 1)));
    assert_eq!(p.rows().next().unwrap().1, 2 * 256 + 16);
    // a 2×2 BC footprint is not whole blocks, even for mip 5 (#854)
    let small = readback(&b, fp(0, DXGI_FORMAT_BC3_UNORM, 2, 2, 1, 256));
    assert_eq!(id(copy(&small, &sub(&t, 5))), 854);
}

#[test]
fn empty_box_is_a_no_op() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    let dst = readback(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256));
    for e in
        [bx(5, 0, 0, 5, 4, 1), bx(6, 0, 0, 5, 4, 1), bx(0, 4, 0, 4, 4, 1), bx(0, 0, 1, 4, 4, 1), bx(0, 0, 0, 0, 0, 0)]
    {
        assert!(copy_at(&dst, 0, 0, 0, &sub(&t, 0), e).unwrap().is_none());
    }
    // even when it lies outside the source or is unaligned
    let bc = tex2d(64, 64, 1, 1, DXGI_FORMAT_BC1_UNORM);
    let bdst = readback(&b, fp(0, DXGI_FORMAT_BC1_UNORM, 64, 64, 1, 256));
    assert!(copy_at(&bdst, 0, 0, 0, &sub(&bc, 0), bx(99, 1, 0, 3, 2, 1)).unwrap().is_none());
    // but location errors come first
    assert_eq!(id(copy_at(&dst, 0, 0, 0, &sub(&t, 1), bx(5, 0, 0, 5, 4, 1))), 863);
}

#[test]
fn destination_region_bounds() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    let src = upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 32, 32, 1, 256));
    assert_eq!(id(copy_at(&sub(&t, 0), 1, 0, 0, &src, None)), 858);
    assert_eq!(id(copy_at(&sub(&t, 0), 0, 1, 0, &src, None)), 858);
    assert_eq!(id(copy_at(&sub(&t, 0), 0, 0, 1, &src, None)), 858);
    assert_eq!(id(copy_at(&sub(&t, 0), u32::MAX, 0, 0, &src, None)), 858);
    let p = plan(copy_at(&sub(&t, 0), 16, 16, 0, &src, bx(0, 0, 0, 16, 16, 1)));
    assert_eq!(p.dst.origin, (16, 16, 0));
    assert_eq!(p.dst_span(), (16 * 128 + 64)..(31 * 128 + 128));
    assert_eq!(id(copy_at(&sub(&t, 0), 17, 16, 0, &src, bx(0, 0, 0, 16, 16, 1))), 858);
    // 1D destination: DstY must stay 0
    let t1 = tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 64, 1, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let s1 = upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM, 64, 1, 1, 256));
    assert!(copy(&sub(&t1, 0), &s1).is_ok());
    assert_eq!(id(copy_at(&sub(&t1, 0), 0, 1, 0, &s1, None)), 858);
}

// ---------------------------------------------------------------------------------------
// Formats.

#[test]
fn format_compatibility_table() {
    let ok = [
        (DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM),
        (DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB),
        (DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_UINT),
        (DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_D32_FLOAT),
        (DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_BC1_UNORM_SRGB),
        (DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R16G16B16A16_UINT),
        (DXGI_FORMAT_BC4_SNORM, DXGI_FORMAT_R32G32_FLOAT),
        (DXGI_FORMAT_BC2_UNORM, DXGI_FORMAT_R32G32B32A32_UINT),
        (DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_R32G32B32A32_FLOAT),
        (DXGI_FORMAT_BC5_UNORM, DXGI_FORMAT_R32G32B32A32_SINT),
        (DXGI_FORMAT_BC6H_UF16, DXGI_FORMAT_R32G32B32A32_TYPELESS),
        (DXGI_FORMAT_BC7_UNORM_SRGB, DXGI_FORMAT_R32G32B32A32_UINT),
        (DXGI_FORMAT_R9G9B9E5_SHAREDEXP, DXGI_FORMAT_R32_UINT),
    ];
    for (a, b) in ok {
        assert!(formats_compatible(a, b) && formats_compatible(b, a), "{a:?} {b:?}");
    }
    let bad = [
        (DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM),
        (DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R32_UINT),
        (DXGI_FORMAT_R16G16B16A16_UINT, DXGI_FORMAT_R32G32_UINT),
        (DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_BC4_UNORM),
        (DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R32G32B32A32_UINT),
        (DXGI_FORMAT_BC4_UNORM, DXGI_FORMAT_R32G32B32A32_UINT), // BC4 is 64-bit only
        (DXGI_FORMAT_BC7_UNORM, DXGI_FORMAT_R16G16B16A16_UINT),
        (DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_BC7_UNORM),
        (DXGI_FORMAT_R9G9B9E5_SHAREDEXP, DXGI_FORMAT_R8G8B8A8_UINT),
        (DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D32_FLOAT),
        (DXGI_FORMAT(200), DXGI_FORMAT(200 + 1)),
    ];
    for (a, b) in bad {
        assert!(!formats_compatible(a, b) && !formats_compatible(b, a), "{a:?} {b:?}");
    }
}

#[test]
fn format_mismatch_in_copies() {
    let t = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = buffer(65536);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_B8G8R8A8_UNORM, 32, 32, 1, 256)))), 874);
    assert!(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 32, 32, 1, 256))).is_ok());
    let u = tex2d(32, 32, 1, 1, DXGI_FORMAT_R32_UINT);
    assert_eq!(id(copy(&sub(&u, 0), &sub(&t, 0))), 874);
    let s = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_SINT);
    assert!(copy(&side(&s, HeapKind::Default, Location::Subresource(0)), &sub(&t, 0)).is_ok());
}

#[test]
fn bc1_to_r16g16b16a16_block_conversion() {
    // A 64×64 BC1 source (16×16 blocks of 8 bytes) maps onto a 16×16-texel
    // R16G16B16A16 destination (8 bytes per texel).
    let bc = tex2d(64, 64, 1, 1, DXGI_FORMAT_BC1_UNORM);
    let unc = tex2d(16, 16, 1, 1, DXGI_FORMAT_R16G16B16A16_UINT);
    let p = plan(copy(&side(&unc, HeapKind::Default, Location::Subresource(0)), &sub(&bc, 0)));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((16, 16, 1), 8, 128));
    assert_eq!((p.src.row_pitch, p.src.slice_pitch), (128, 2048));
    assert_eq!((p.dst.row_pitch, p.dst.slice_pitch), (128, 2048));
    // the other way, with a box of 8×8 texels landing on 8×8 blocks at texel (32, 16)
    let p = plan(copy_at(
        &sub(&bc, 0),
        32,
        16,
        0,
        &side(&unc, HeapKind::Default, Location::Subresource(0)),
        bx(0, 0, 0, 8, 8, 1),
    ));
    assert_eq!((p.extent, p.dst.origin), ((8, 8, 1), (8, 4, 0)));
    // 9 texels → 9 blocks don't fit past block 8 of 16
    assert_eq!(
        id(copy_at(
            &sub(&bc, 0),
            32,
            0,
            0,
            &side(&unc, HeapKind::Default, Location::Subresource(0)),
            bx(0, 0, 0, 9, 8, 1)
        )),
        858
    );
    // BC1 ↔ R32G32B32A32 (16-byte texels) is not an equivalence
    let wide = tex2d(16, 16, 1, 1, DXGI_FORMAT_R32G32B32A32_UINT);
    assert_eq!(id(copy(&side(&wide, HeapKind::Default, Location::Subresource(0)), &sub(&bc, 0))), 874);
    // BC7 ↔ R32G32B32A32 is
    let bc7 = tex2d(64, 64, 1, 1, DXGI_FORMAT_BC7_UNORM);
    let p = plan(copy(&side(&wide, HeapKind::Default, Location::Subresource(0)), &sub(&bc7, 0)));
    assert_eq!((p.extent, p.element_bytes), ((16, 16, 1), 16));
    // a BC1 texture uploaded through an R16G16B16A16 footprint of 16×16 texels
    let b = buffer(65536);
    let p = plan(copy(&sub(&bc, 0), &upload(&b, fp(0, DXGI_FORMAT_R16G16B16A16_UINT, 16, 16, 1, 256))));
    assert_eq!((p.extent, p.row_bytes, p.src.row_pitch), ((16, 16, 1), 128, 256));
}

// ---------------------------------------------------------------------------------------
// Planes.

#[test]
fn d24s8_planes_through_footprints() {
    // footprints.md §4.5: D24S8 64×64 → plane 0 R32_TYPELESS, plane 1 R8_TYPELESS.
    let ds = with_flags(tex2d(64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), DS_FLAG);
    assert_eq!(subresource_count(&ds), 2);
    // stencil plane readback into a 256-pitch R8_TYPELESS footprint
    let b = buffer(256 * 63 + 64);
    let p = plan(copy(&readback(&b, fp(0, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 256)), &sub(&ds, 1)));
    assert_eq!(
        p.src,
        Surface {
            offset: 16384,
            row_pitch: 64,
            slice_pitch: 4096,
            subresource: Some(1),
            origin: (0, 0, 0),
            sample_stride: 0
        }
    );
    assert_eq!((p.dst.offset, p.dst.row_pitch, p.dst.slice_pitch), (0, 256, 16384));
    assert_eq!((p.extent, p.element_bytes, p.row_bytes), ((64, 64, 1), 1, 64));
    // R8_UINT is in the same cast group
    assert!(copy(&readback(&b, fp(0, DXGI_FORMAT_R8_UINT, 64, 64, 1, 256)), &sub(&ds, 1)).is_ok());
    // the depth plane with GetCopyableFootprints' 512 pitch (TotalBytes of plane 0 = 32512)
    let b0 = buffer(32512);
    let p = plan(copy(&sub(&ds, 0), &upload(&b0, fp(0, DXGI_FORMAT_R32_TYPELESS, 64, 64, 1, 512))));
    assert_eq!((p.element_bytes, p.row_bytes, p.dst.row_pitch, p.src.row_pitch), (4, 256, 256, 512));
    // ... and with pitch 256 (native: works)
    let p = plan(copy(&readback(&b0, fp(0, DXGI_FORMAT_R32_FLOAT, 64, 64, 1, 256)), &sub(&ds, 0)));
    assert_eq!(p.dst.row_pitch, 256);
    // plane/footprint format mismatch
    assert_eq!(id(copy(&readback(&b0, fp(0, DXGI_FORMAT_R8_TYPELESS, 64, 64, 1, 256)), &sub(&ds, 0))), 874);
    assert_eq!(id(copy(&readback(&b0, fp(0, DXGI_FORMAT_R32_TYPELESS, 64, 64, 1, 256)), &sub(&ds, 1))), 874);
}

#[test]
fn depth_stencil_copies_are_whole_subresource_without_programmable_sample_positions() {
    let ds = with_flags(tex2d(64, 64, 1, 1, DXGI_FORMAT_D32_FLOAT), DS_FLAG);
    let b = buffer(65536);
    let f = |w, h| fp(0, DXGI_FORMAT_R32_TYPELESS, w, h, 1, 256);
    assert!(copy_at_tier0(&sub(&ds, 0), 0, 0, 0, &upload(&b, f(64, 64)), None).is_ok());
    // smaller footprint: sizes differ
    assert_eq!(id(copy_at_tier0(&sub(&ds, 0), 0, 0, 0, &upload(&b, f(32, 32)), None)), 862);
    // a partial box, at (0, 0) or elsewhere
    assert_eq!(id(copy_at_tier0(&sub(&ds, 0), 0, 0, 0, &upload(&b, f(64, 64)), bx(0, 0, 0, 32, 32, 1))), 873);
    assert_eq!(id(copy_at_tier0(&sub(&ds, 0), 32, 0, 0, &upload(&b, f(64, 64)), bx(0, 0, 0, 32, 32, 1))), 872);
    // a whole box is a NULL box
    assert!(copy_at_tier0(&sub(&ds, 0), 0, 0, 0, &upload(&b, f(64, 64)), bx(0, 0, 0, 64, 64, 1)).is_ok());
    // texture ↔ texture between two D24S8 resources, plane by plane
    let a = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), DS_FLAG);
    let c = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_R24G8_TYPELESS), DS_FLAG);
    let p = plan(copy(&side(&c, HeapKind::Default, Location::Subresource(1)), &sub(&a, 1)));
    assert_eq!((p.element_bytes, p.src.offset, p.dst.offset), (1, 1024, 1024));
    assert_eq!(id(copy(&side(&c, HeapKind::Default, Location::Subresource(0)), &sub(&a, 1))), 874);
}

#[test]
fn programmable_sample_positions_allow_partial_depth_stencil_and_msaa_copies() {
    // The runtime applies the whole-subresource rule only while OPTIONS2.
    // ProgrammableSamplePositionsTier is NOT_SUPPORTED (commands-and-sync.md §6).
    let tier1 = Caps { programmable_sample_positions_tier: 1, ..Caps::today() };
    let ds = with_flags(tex2d(64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), DS_FLAG);
    let b = buffer(65536);
    // depth plane, box (17, 9)–(34, 26) into a 17×17 footprint: rows 256 bytes apart
    let dst = readback(&b, fp(0, DXGI_FORMAT_R32_TYPELESS, 17, 17, 1, 256));
    let p = plan(copy_texture_region(&dst, 0, 0, 0, &sub(&ds, 0), bx(17, 9, 0, 34, 26, 1).as_ref(), &tier1));
    assert_eq!((p.extent, p.element_bytes, p.src.origin, p.src.row_pitch), ((17, 17, 1), 4, (17, 9, 0), 256));
    assert_eq!((p.dst.origin, p.dst.row_pitch), ((0, 0, 0), 256));
    // stencil plane: 1-byte elements after the 64×64×4 depth plane
    let dst = readback(&b, fp(0, DXGI_FORMAT_R8_TYPELESS, 17, 17, 1, 256));
    let p = plan(copy_texture_region(&dst, 0, 0, 0, &sub(&ds, 1), bx(17, 9, 0, 34, 26, 1).as_ref(), &tier1));
    assert_eq!((p.element_bytes, p.src.offset, p.src.row_pitch), (1, 64 * 64 * 4, 64));
    // a partial destination region and a smaller footprint
    let src = upload(&b, fp(0, DXGI_FORMAT_R32_TYPELESS, 8, 8, 1, 256));
    let p = plan(copy_texture_region(&sub(&ds, 0), 16, 24, 0, &src, None, &tier1));
    assert_eq!((p.extent, p.dst.origin), ((8, 8, 1), (16, 24, 0)));
    // the same calls without the tier: #862, #873, #862, #872
    let today = tier0();
    let dst = readback(&b, fp(0, DXGI_FORMAT_R32_TYPELESS, 17, 17, 1, 256));
    assert_eq!(id(copy_texture_region(&dst, 0, 0, 0, &sub(&ds, 0), bx(17, 9, 0, 34, 26, 1).as_ref(), &today)), 862);
    let whole = readback(&b, fp(0, DXGI_FORMAT_R32_TYPELESS, 64, 64, 1, 256));
    assert_eq!(id(copy_texture_region(&whole, 0, 0, 0, &sub(&ds, 0), bx(17, 9, 0, 34, 26, 1).as_ref(), &today)), 873);
    assert_eq!(id(copy_texture_region(&sub(&ds, 0), 16, 24, 0, &src, None, &today)), 862);
    // multisampled textures: a partial box copies every sample of the region
    let a = msaa(tex2d(16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM), 4);
    let c = msaa(tex2d(16, 16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM), 4);
    let p = plan(copy_texture_region(&sub(&c, 0), 4, 4, 0, &sub(&a, 0), bx(0, 0, 0, 8, 8, 1).as_ref(), &tier1));
    assert_eq!((p.extent, p.samples, p.dst.origin), ((8, 8, 1), 4, (4, 4, 0)));
    assert_eq!(id(copy_texture_region(&sub(&c, 0), 4, 4, 0, &sub(&a, 0), bx(0, 0, 0, 8, 8, 1).as_ref(), &today)), 872);
}

#[test]
fn depth_stencil_planes_copy_to_and_from_colour_textures() {
    // A plane of a depth-stencil texture copies to and from a texture of its plane's format
    // family (depth: R32_TYPELESS family for D24S8 and D32S8; stencil: R8_TYPELESS family).
    let d24 = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), DS_FLAG);
    let d32s8 = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_D32_FLOAT_S8X24_UINT), DS_FLAG);
    let r32 = tex2d(16, 16, 1, 1, DXGI_FORMAT_R32_UINT);
    let r32f = tex2d(16, 16, 1, 1, DXGI_FORMAT_R32_FLOAT);
    let r8 = tex2d(16, 16, 1, 1, DXGI_FORMAT_R8_UINT);
    let r16 = tex2d(16, 16, 1, 1, DXGI_FORMAT_R16_UNORM);
    for ds in [&d24, &d32s8] {
        // depth plane (subresource 0) both ways: 4-byte elements, the plane's tight layout
        let p = plan(copy(&sub(&r32, 0), &sub(ds, 0)));
        assert_eq!((p.element_bytes, p.extent, p.src.offset, p.src.row_pitch), (4, (16, 16, 1), 0, 64));
        assert!(!p.zero_x8);
        // into D24's depth plane the X8 bits are written as zero; D32's plane is a whole float
        let p = plan(copy(&sub(ds, 0), &sub(&r32f, 0)));
        assert_eq!(p.zero_x8, core::ptr::eq(ds, &d24));
        let b = buffer(4096);
        let p = plan(copy(&sub(ds, 0), &upload(&b, fp(0, DXGI_FORMAT_R32_UINT, 16, 16, 1, 256))));
        assert_eq!(p.zero_x8, core::ptr::eq(ds, &d24));
        // stencil plane (subresource 1) both ways: after the 16×16×4 depth plane
        let p = plan(copy(&sub(ds, 1), &sub(&r8, 0)));
        assert_eq!((p.element_bytes, p.dst.offset, p.dst.row_pitch, p.zero_x8), (1, 1024, 16, false));
        assert!(copy(&sub(&r8, 0), &sub(ds, 1)).is_ok());
        // another plane's family, or a colour format of another size
        assert_eq!(id(copy(&sub(&r8, 0), &sub(ds, 0))), 874);
        assert_eq!(id(copy(&sub(ds, 1), &sub(&r32, 0))), 874);
        assert_eq!(id(copy(&sub(&r16, 0), &sub(ds, 0))), 874);
    }
    // two depth-stencil formats of different families stay incompatible, even plane 0 ↔ 0
    assert_eq!(id(copy(&sub(&d32s8, 0), &sub(&d24, 0))), 874);
    // D16 ↔ R16 and D32 ↔ R32 are one cast group each
    let d16 = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_D16_UNORM), DS_FLAG);
    assert_eq!(plan(copy(&sub(&r16, 0), &sub(&d16, 0))).element_bytes, 2);
    let d32 = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_D32_FLOAT), DS_FLAG);
    assert!(copy(&sub(&d32, 0), &sub(&r32f, 0)).is_ok());
}

#[test]
fn nv12_planes() {
    // NV12 64×64: plane 0 R8 64×64, plane 1 R8G8 32×32 (tight: at 4096, 64-byte rows).
    let t = tex2d(64, 64, 1, 1, DXGI_FORMAT_NV12);
    let b = buffer(65536);
    let p = plan(copy(&sub(&t, 1), &upload(&b, fp(0, DXGI_FORMAT_R8G8_TYPELESS, 32, 32, 1, 256))));
    assert_eq!((p.dst.offset, p.dst.row_pitch, p.extent, p.element_bytes), (4096, 64, (32, 32, 1), 2));
    // an NV12-format footprint describes both planes: 64 + 32 rows
    let whole = buffer(256 * 95 + 64);
    let p = plan(copy(&sub(&t, 1), &upload(&whole, fp(0, DXGI_FORMAT_NV12, 64, 64, 1, 256))));
    assert_eq!((p.src.offset, p.src.row_pitch, p.extent, p.element_bytes), (64 * 256, 256, (32, 32, 1), 2));
    let p = plan(copy(&sub(&t, 0), &upload(&whole, fp(0, DXGI_FORMAT_NV12, 64, 64, 1, 256))));
    assert_eq!((p.src.offset, p.extent, p.element_bytes), (0, (64, 64, 1), 1));
    let short = buffer(256 * 95 + 63);
    assert_eq!(id(copy(&sub(&t, 0), &upload(&short, fp(0, DXGI_FORMAT_NV12, 64, 64, 1, 256)))), 869);
    // odd NV12 footprint sizes are rejected (2×2 blocks)
    assert_eq!(id(copy(&sub(&t, 0), &upload(&b, fp(0, DXGI_FORMAT_NV12, 63, 64, 1, 256)))), 867);
}

#[test]
fn same_subresource_is_a_warning() {
    let t = tex2d(32, 32, 1, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    let s = sub(&t, 0);
    let p = plan(copy_at(&s, 16, 0, 0, &s, bx(0, 0, 0, 16, 16, 1)));
    assert_eq!(p.warnings.len(), 1);
    assert_eq!(p.warnings[0].id.0, 998);
    // another subresource of the same resource: no warning
    let p = plan(copy_at(&sub(&t, 1), 0, 0, 0, &s, bx(0, 0, 0, 16, 16, 1)));
    assert!(p.warnings.is_empty());
    // the same index on another resource (another desc) with identical contents: no warning
    let t2 = t;
    let o = sub(&t2, 0);
    assert!(!o.same_resource(&s));
    assert!(plan(copy(&o, &s)).warnings.is_empty());
}

// ---------------------------------------------------------------------------------------
// CopyBufferRegion.

#[test]
fn copy_buffer_region_rules() {
    let a = buffer(1024);
    let b = buffer(256);
    let t = tex2d(4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let d = |desc| side(desc, HeapKind::Default, Location::Whole);
    let s = |desc| side(desc, HeapKind::Default, Location::Whole);
    assert_eq!(copy_buffer_region(&d(&a), 768, &s(&b), 0, 256).unwrap(), Some((768, 0, 256)));
    assert_eq!(copy_buffer_region(&d(&a), 769, &s(&b), 0, 256).unwrap_err().id.0, 841);
    assert_eq!(copy_buffer_region(&d(&a), u64::MAX, &s(&b), 0, 1).unwrap_err().id.0, 841);
    assert_eq!(copy_buffer_region(&d(&a), 0, &s(&b), 1, 256).unwrap_err().id.0, 844);
    assert_eq!(copy_buffer_region(&d(&a), 0, &s(&b), 0, u64::MAX).unwrap_err().id.0, 841);
    assert_eq!(copy_buffer_region(&d(&t), 0, &s(&b), 0, 4).unwrap_err().id.0, 840);
    assert_eq!(copy_buffer_region(&d(&a), 0, &s(&t), 0, 4).unwrap_err().id.0, 843);
    // NumBytes 0: no-op (offsets up to the end are fine)
    assert_eq!(copy_buffer_region(&d(&a), 1024, &s(&b), 256, 0).unwrap(), None);
    assert_eq!(copy_buffer_region(&d(&a), 1025, &s(&b), 0, 0).unwrap_err().id.0, 841);
    // UPLOAD destination rejected; READBACK source allowed
    let up = side(&a, HeapKind::Upload, Location::Whole);
    assert_eq!(copy_buffer_region(&up, 0, &s(&b), 0, 4).unwrap_err().id.0, 538);
    let rb = side(&b, HeapKind::Readback, Location::Whole);
    assert!(copy_buffer_region(&d(&a), 0, &rb, 0, 4).unwrap().is_some());
    // the same buffer: disjoint ranges fine, overlapping ones warn (#998) but copy
    assert!(copy_buffer_region(&d(&a), 0, &d(&a), 512, 512).unwrap().is_some());
    assert!(buffer_copy_overlap(&d(&a), 0, &d(&a), 512, 512).is_none());
    assert_eq!(copy_buffer_region(&d(&a), 0, &d(&a), 100, 512).unwrap(), Some((0, 100, 512)));
    assert_eq!(buffer_copy_overlap(&d(&a), 0, &d(&a), 100, 512).unwrap().id.0, 998);
    assert_eq!(buffer_copy_overlap(&d(&a), 600, &d(&a), 100, 512).unwrap().id.0, 998);
    assert!(buffer_copy_overlap(&d(&a), 612, &d(&a), 100, 512).is_none());
    assert!(buffer_copy_overlap(&d(&a), 0, &d(&a), 0, 0).is_none());
    // two buffers with equal descs are different resources
    let a2 = a;
    assert!(buffer_copy_overlap(&d(&a), 0, &d(&a2), 100, 512).is_none());
}

// ---------------------------------------------------------------------------------------
// CopyResource.

#[test]
fn copy_resource_buffers() {
    let a = buffer(1000);
    let b = buffer(1000);
    let c = buffer(1001);
    let t = tex2d(4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_eq!(
        copy_resource(&whole(&a), &whole(&b), &Caps::today()).unwrap(),
        vec![ResourceCopy::Buffer { bytes: 1000 }]
    );
    assert_eq!(copy_resource(&whole(&a), &whole(&c), &Caps::today()).unwrap_err().id.0, 944);
    assert_eq!(copy_resource(&whole(&a), &whole(&t), &Caps::today()).unwrap_err().id.0, 944);
    let up = side(&a, HeapKind::Upload, Location::Whole);
    assert_eq!(copy_resource(&up, &whole(&b), &Caps::today()).unwrap_err().id.0, 944);
    let rb = side(&b, HeapKind::Readback, Location::Whole);
    assert!(copy_resource(&whole(&a), &rb, &Caps::today()).is_ok());
}

#[test]
fn copy_resource_textures() {
    // RGBA8 32×32, 2 mips, 2 slices: tight layout mip0 @0 (4096), mip1 @4096 (1024),
    // slice 1 @5120.
    let a = tex2d(32, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    let b = tex2d(32, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB);
    let ops = copy_resource(&whole(&a), &whole(&b), &Caps::today()).unwrap();
    assert_eq!(ops.len(), 4);
    let offs: Vec<_> = ops
        .iter()
        .map(|o| match o {
            ResourceCopy::Texture(p) => {
                assert_eq!(p.dst.offset, p.src.offset);
                (p.dst.offset, p.extent, p.row_bytes, p.dst.subresource)
            }
            ResourceCopy::Buffer { .. } => panic!("texture expected"),
        })
        .collect();
    assert_eq!(
        offs,
        vec![
            (0, (32, 32, 1), 128, Some(0)),
            (4096, (16, 16, 1), 64, Some(1)),
            (5120, (32, 32, 1), 128, Some(2)),
            (9216, (16, 16, 1), 64, Some(3)),
        ]
    );
    let e = |d: &D3D12_RESOURCE_DESC1| copy_resource(&whole(d), &whole(&a), &Caps::today()).unwrap_err().id.0;
    assert_eq!(e(&tex2d(32, 32, 2, 2, DXGI_FORMAT_B8G8R8A8_UNORM)), 944);
    assert_eq!(e(&tex2d(32, 32, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM)), 944);
    assert_eq!(e(&tex2d(32, 32, 1, 2, DXGI_FORMAT_R8G8B8A8_UNORM)), 944);
    assert_eq!(e(&tex2d(32, 16, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM)), 944);
    assert_eq!(e(&msaa(tex2d(32, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM), 4)), 944);
    assert_eq!(e(&tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 32, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM)), 944);
    // formats of different texel sizes: the sizes in bytes differ (Windows' text)
    let v = copy_resource(&whole(&tex2d(32, 32, 2, 2, DXGI_FORMAT_R16G16B16A16_FLOAT)), &whole(&a), &Caps::today())
        .unwrap_err();
    assert_eq!(v.id.0, 944);
    assert!(v.message.contains("must have the same size"), "{}", v.message);
    assert!(v.message.contains("pSrcResource has resource size (10240) and pDstResource has resource size (20480)"));
    // MSAA ↔ MSAA: every sample
    let m = msaa(tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM), 4);
    let ops = copy_resource(&whole(&m), &whole(&m), &Caps::today()).unwrap();
    let ResourceCopy::Texture(p) = &ops[0] else { panic!() };
    assert_eq!((p.samples, p.dst.sample_stride), (4, 4096));
}

#[test]
fn copy_resource_reinterpret_and_planes() {
    // BC1 64×64 ↔ R16G16B16A16 16×16, 3 mips each: 16/8/4 elements per side
    let bc = tex2d(64, 64, 1, 3, DXGI_FORMAT_BC1_UNORM);
    let unc = tex2d(16, 16, 1, 3, DXGI_FORMAT_R16G16B16A16_UINT);
    let ops = copy_resource(&whole(&unc), &whole(&bc), &Caps::today()).unwrap();
    let ext: Vec<_> = ops
        .iter()
        .map(|o| match o {
            ResourceCopy::Texture(p) => (p.extent, p.element_bytes),
            _ => panic!(),
        })
        .collect();
    assert_eq!(ext, vec![((16, 16, 1), 8), ((8, 8, 1), 8), ((4, 4, 1), 8)]);
    // same texel size is not enough
    assert_eq!(
        copy_resource(&whole(&tex2d(64, 64, 1, 3, DXGI_FORMAT_R16G16B16A16_UINT)), &whole(&bc), &Caps::today())
            .unwrap_err()
            .id
            .0,
        944
    );
    // depth-stencil: one plan per plane
    let ds = with_flags(tex2d(16, 16, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), DS_FLAG);
    let ops = copy_resource(&whole(&ds), &whole(&ds), &Caps::today()).unwrap();
    let eb: Vec<_> = ops
        .iter()
        .map(|o| match o {
            ResourceCopy::Texture(p) => (p.element_bytes, p.src.offset),
            _ => panic!(),
        })
        .collect();
    assert_eq!(eb, vec![(4, 0), (1, 1024)]);
}
