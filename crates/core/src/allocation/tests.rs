//! GetResourceAllocationInfo(1/2) and backend layout tests.

use super::*;
use proptest::prelude::*;
use rd3d12_sys::*;

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

fn rgba(w: u64, h: u32) -> D3D12_RESOURCE_DESC1 {
    tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM)
}

fn buf(w: u64) -> D3D12_RESOURCE_DESC1 {
    let mut d = tex(D3D12_RESOURCE_DIMENSION_BUFFER, w, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d
}

fn msaa_rt(w: u64, h: u32, count: u32) -> D3D12_RESOURCE_DESC1 {
    let mut d = rgba(w, h);
    d.SampleDesc.Count = count;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    d
}

fn info(descs: &[D3D12_RESOURCE_DESC1], caps: &Caps) -> (u64, u64) {
    let r = resource_allocation_info2(0, descs, caps, None);
    (r.SizeInBytes, r.Alignment)
}

fn one(d: D3D12_RESOURCE_DESC1) -> (u64, u64) {
    info(&[d], &Caps::today())
}

const K64: u64 = 65536;
const M4: u64 = 4 * 1024 * 1024;

#[test]
fn buffer_32_bytes_needs_65536() {
    assert_eq!(one(buf(32)), (65536, 65536));
    assert_eq!(one(buf(65536)), (65536, 65536));
    assert_eq!(one(buf(65537)), (131072, 65536));
}

#[test]
fn zero_descs_is_size_0_alignment_1() {
    assert_eq!(info(&[], &Caps::today()), (0, 1));
    let r = resource_allocation_info(0, &[], &Caps::today(), None);
    assert_eq!((r.SizeInBytes, r.Alignment), (0, 1));
}

#[test]
fn small_rgba8_32x32_with_4096_alignment() {
    // footprint TotalBytes 8064 → rounded to 4 KB
    let mut d = rgba(32, 32);
    d.Alignment = 4096;
    assert_eq!(one(d), (8192, 4096));
    // without the request the default 64 KB applies
    assert_eq!(one(rgba(32, 32)), (K64, K64));
}

#[test]
fn rgba8_256x256_asking_4096_is_invalid() {
    // 8×8 = 64 tiles of 32×32 > 16
    let mut d = rgba(256, 256);
    d.Alignment = 4096;
    assert_eq!(one(d), (u64::MAX, K64));
}

#[test]
fn render_target_asking_4096_is_invalid() {
    let mut d = rgba(32, 32);
    d.Alignment = 4096;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    assert_eq!(one(d), (u64::MAX, K64));
}

#[test]
fn invalid_buffer_alignments_report_64k() {
    for a in [4096u64, M4, 1] {
        let mut b = buf(32);
        b.Alignment = a;
        assert_eq!(one(b), (u64::MAX, K64), "{a}");
    }
}

#[test]
fn msaa_is_4mb() {
    let c = Caps::fl11_1_reference();
    // 512×512 4×: one sample is 511×2048+2048 = 1 MiB, 4 samples = 4 MiB
    assert_eq!(info(&[msaa_rt(512, 512, 4)], &c), (M4, M4));
    assert_eq!(msaa_sample_stride(&msaa_rt(512, 512, 4)), Some(1 << 20));
    // small MSAA texture still uses 4 MB by default
    assert_eq!(info(&[msaa_rt(16, 16, 4)], &c), (M4, M4));
    // explicit 64 KB (MSAA64KBAlignedTextureSupported): 16×16 4× = 4 × (15×256+64 → 4096) bytes
    let mut d = msaa_rt(16, 16, 4);
    d.Alignment = K64;
    assert_eq!(info(&[d], &c), (K64, K64));
    // today there is no MSAA at all
    assert_eq!(info(&[msaa_rt(512, 512, 4)], &Caps::today()), (u64::MAX, M4));
}

#[test]
fn invalid_desc_reports_default_alignment() {
    let mut d = rgba(0, 4);
    d.Alignment = 0;
    assert_eq!(one(d), (u64::MAX, K64));
    let mut m = msaa_rt(64, 64, 4);
    m.Alignment = 4096;
    assert_eq!(info(&[m], &Caps::fl11_1_reference()), (u64::MAX, M4));
}

#[test]
fn texture_sizes_follow_the_footprint_layout() {
    // BC1 64×64 7 mips: TotalBytes 8712 → 64 KB
    let bc = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 64, 64, 1, 7, DXGI_FORMAT_BC1_UNORM);
    assert_eq!(layout_bytes(&bc), Some(8712));
    assert_eq!(one(bc), (K64, K64));
    // 1024×1024 RGBA8 full chain: mip0 is 4 MiB exactly → > 4 MiB total → 4 MiB + 64 KB·k
    let mut big = rgba(1024, 1024);
    big.MipLevels = 0;
    let total = layout_bytes(&big).unwrap();
    assert!(total > 4 << 20 && total < (4 << 20) + (2 << 20));
    assert_eq!(one(big).0, total.div_ceil(K64) * K64);
    // NV12 1920×1080: TotalBytes 3317632 → 3342336 (51 × 64 KB)
    let nv12 = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 1920, 1080, 1, 1, DXGI_FORMAT_NV12);
    assert_eq!(layout_bytes(&nv12), Some(3317632));
    assert_eq!(one(nv12), (3342336, K64));
}

#[test]
fn tiled_layout_size_covers_all_tiles() {
    // 512×512 RGBA8 10 mips, 64KB_UNDEFINED_SWIZZLE: 22 tiles (21 standard + 1 packed)
    // = 1441792 bytes > footprint layout 1408516 bytes.
    let mut d = rgba(512, 512);
    d.MipLevels = 10;
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    assert_eq!(layout_bytes(&d), Some(1408516));
    assert_eq!(info(&[d], &Caps::fl11_1_reference()), (1441792, K64));
}

#[test]
fn multi_desc_c_struct_placement_docs_example() {
    // (64 KB, 4 MB, 64 KB) needs 12 MB; (4 MB, 64 KB, 64 KB) needs 8 MB.
    let c = Caps::fl11_1_reference();
    let a = buf(K64);
    let m = msaa_rt(512, 512, 4);
    let mut out = [D3D12_RESOURCE_ALLOCATION_INFO1::default(); 3];
    let r = resource_allocation_info2(0, &[a, m, a], &c, Some(&mut out));
    assert_eq!((r.SizeInBytes, r.Alignment), (12 << 20, M4));
    let rows: Vec<(u64, u64, u64)> = out.iter().map(|e| (e.Offset, e.Alignment, e.SizeInBytes)).collect();
    assert_eq!(rows, vec![(0, K64, K64), (M4, M4, M4), (8 << 20, K64, K64)]);
    let r = resource_allocation_info2(0, &[m, a, a], &c, Some(&mut out));
    assert_eq!((r.SizeInBytes, r.Alignment), (8 << 20, M4));
    let rows: Vec<(u64, u64, u64)> = out.iter().map(|e| (e.Offset, e.Alignment, e.SizeInBytes)).collect();
    assert_eq!(rows, vec![(0, M4, M4), (M4, K64, K64), (M4 + K64, K64, K64)]);
}

#[test]
fn multi_desc_small_alignment_packs_tightly() {
    let mut s = rgba(32, 32);
    s.Alignment = 4096;
    let mut out = [D3D12_RESOURCE_ALLOCATION_INFO1::default(); 3];
    let r = resource_allocation_info2(0, &[s, s, s], &Caps::today(), Some(&mut out));
    assert_eq!((r.SizeInBytes, r.Alignment), (3 * 8192, 4096));
    assert_eq!(out.iter().map(|e| e.Offset).collect::<Vec<_>>(), vec![0, 8192, 16384]);
}

#[test]
fn multi_desc_with_an_invalid_entry() {
    let mut bad = buf(32);
    bad.Height = 2;
    let mut out = [D3D12_RESOURCE_ALLOCATION_INFO1 { Offset: 7, Alignment: 7, SizeInBytes: 7 }; 3];
    let r = resource_allocation_info2(0, &[buf(32), bad, buf(32)], &Caps::today(), Some(&mut out));
    assert_eq!((r.SizeInBytes, r.Alignment), (u64::MAX, K64));
    assert_eq!((out[0].Offset, out[0].Alignment, out[0].SizeInBytes), (0, K64, K64));
    for e in &out[1..] {
        assert_eq!((e.Offset, e.Alignment, e.SizeInBytes), (u64::MAX, K64, u64::MAX));
    }
}

#[test]
fn visible_mask() {
    let c = Caps::today();
    assert_eq!(resource_allocation_info2(1, &[buf(32)], &c, None).SizeInBytes, K64);
    assert_eq!(resource_allocation_info2(0, &[buf(32)], &c, None).SizeInBytes, K64);
    assert_eq!(resource_allocation_info2(2, &[buf(32)], &c, None).SizeInBytes, u64::MAX);
}

#[test]
fn desc0_flavour() {
    let d = crate::desc::desc_from_desc1(&buf(32));
    let mut out = [D3D12_RESOURCE_ALLOCATION_INFO1::default(); 1];
    let r = resource_allocation_info(0, &[d], &Caps::today(), Some(&mut out));
    assert_eq!((r.SizeInBytes, r.Alignment), (K64, K64));
    assert_eq!((out[0].Offset, out[0].SizeInBytes), (0, K64));
}

#[test]
fn allocation_info_one_reports_the_error() {
    let mut d = rgba(256, 256);
    d.Alignment = 4096;
    let (e, a) = allocation_info_one(&d, &Caps::today()).unwrap_err();
    assert_eq!(e.id, crate::error::msg::CREATERESOURCE_INVALIDALIGNMENT);
    assert_eq!(a, K64);
}

#[test]
fn subresource_layout_examples() {
    // RGBA8 32×32, 2 mips, array 2: offsets 0, 8192, 12288, 20480 (footprints.md §4.6)
    let mut d = rgba(32, 32);
    d.MipLevels = 2;
    d.DepthOrArraySize = 2;
    let offs: Vec<u64> = (0..4).map(|s| subresource_layout(&d, s).unwrap().0).collect();
    assert_eq!(offs, vec![0, 8192, 12288, 20480]);
    let (_, fp) = subresource_layout(&d, 3).unwrap();
    assert_eq!((fp.Width, fp.Height, fp.RowPitch), (16, 16, 256));
    assert!(subresource_layout(&d, 4).is_none());
    // D24S8 64×64: stencil plane at 32768
    let ds = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT);
    let (o, fp) = subresource_layout(&ds, 1).unwrap();
    assert_eq!((o, fp.Format, fp.RowPitch), (32768, DXGI_FORMAT_R8_TYPELESS, 512));
    let full = subresource_layout_full(&ds, 0).unwrap();
    assert_eq!((full.footprint.num_rows, full.footprint.row_size, full.footprint.size), (64, 256, 32512));
    // buffers
    assert_eq!(subresource_layout(&buf(100), 0).unwrap().0, 0);
    assert_eq!(subresource_layout(&buf(100), 0).unwrap().1.Width, 100);
    assert!(subresource_layout(&buf(100), 1).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Sizes are multiples of the alignment, cover the layout, and the alignment is one of
    /// the legal values.
    #[test]
    fn sizes_are_aligned_and_cover_the_layout(
        w in 1u64..3000, h in 1u32..3000, arr in 1u16..6, mips in 0u16..6, pick in 0usize..5, align_pick in 0usize..3,
    ) {
        let fmts = [DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_D32_FLOAT_S8X24_UINT,
                    DXGI_FORMAT_R16_FLOAT, DXGI_FORMAT_R32G32B32_FLOAT];
        let mut d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, arr, mips, fmts[pick]);
        d.Alignment = [0u64, 4096, 65536][align_pick];
        let c = Caps::today();
        let r = resource_allocation_info2(0, &[d], &c, None);
        prop_assert!(matches!(r.Alignment, 4096 | 65536));
        if r.SizeInBytes != u64::MAX {
            prop_assert_eq!(r.SizeInBytes % r.Alignment, 0);
            let bytes = layout_bytes(&d).unwrap();
            prop_assert!(r.SizeInBytes >= bytes);
            prop_assert!(r.SizeInBytes - bytes < r.Alignment);
            // every subresource lies inside the allocation
            let v = crate::desc::validate_desc1(&d, Api::AllocationInfo, &c, None).unwrap();
            for s in 0..v.subresource_count {
                let l = subresource_layout_full(&d, s).unwrap();
                prop_assert_eq!(l.offset % 512, 0);
                prop_assert!(l.offset + l.footprint.size <= bytes);
            }
        } else {
            prop_assert_eq!(d.Alignment, 4096);
        }
    }
}
