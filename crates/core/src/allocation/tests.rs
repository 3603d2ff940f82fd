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
    // tight layout: 32 rows × 128 bytes = 4096 (the copyable footprint would be
    // 31 × 256 + 128 = 8064 → 8192)
    let mut d = rgba(32, 32);
    d.Alignment = 4096;
    assert_eq!(layout_bytes(&d), Some(4096));
    assert_eq!(one(d), (4096, 4096));
    // without the request the default 64 KB applies
    assert_eq!(one(rgba(32, 32)), (K64, K64));
    // 6 mips: 4096 + 1024 + 256 + 64 + 16 + 4 at offsets 0, 4096, 5120, 5376, 5440, 5456
    // (all already 16-aligned) → 5460 bytes → 8192
    d.MipLevels = 6;
    let offs: Vec<u64> = (0..6).map(|s| subresource_layout(&d, s).unwrap().0).collect();
    assert_eq!(offs, vec![0, 4096, 5120, 5376, 5440, 5456]);
    assert_eq!(layout_bytes(&d), Some(5460));
    assert_eq!(one(d), (8192, 4096));
}

#[test]
fn placed_32x32_rgba8_takes_4k() {
    // GetResourceAllocationInfo(0, 1, &desc) with Alignment 4096 (D3D12_RESOURCE_DESC):
    // Windows hardware reports {4096, 4096}.
    let mut d = rgba(32, 32);
    d.Alignment = 4096;
    let d0 = crate::desc::desc_from_desc1(&d);
    let mut out = [D3D12_RESOURCE_ALLOCATION_INFO1::default(); 1];
    let r = resource_allocation_info(0, &[d0], &Caps::today(), Some(&mut out));
    assert_eq!((r.SizeInBytes, r.Alignment), (4096, 4096));
    assert_eq!((out[0].Offset, out[0].Alignment, out[0].SizeInBytes), (0, 4096, 4096));
    // 16 of them fill exactly one 64 KB heap
    let r = resource_allocation_info(0, &[d0; 16], &Caps::today(), None);
    assert_eq!((r.SizeInBytes, r.Alignment), (K64, 4096));
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
    // 512×512 4×: one sample is 512 rows × 2048 bytes = 1 MiB, 4 samples = 4 MiB
    assert_eq!(info(&[msaa_rt(512, 512, 4)], &c), (M4, M4));
    assert_eq!(msaa_sample_stride(&msaa_rt(512, 512, 4)), Some(1 << 20));
    // small MSAA texture still uses 4 MB by default
    assert_eq!(info(&[msaa_rt(16, 16, 4)], &c), (M4, M4));
    // explicit 64 KB (MSAA64KBAlignedTextureSupported): 16×16 4× = 4 × (16 × 64 = 1024) bytes
    assert_eq!(msaa_sample_stride(&msaa_rt(16, 16, 4)), Some(1024));
    let mut d = msaa_rt(16, 16, 4);
    d.Alignment = K64;
    assert_eq!(info(&[d], &c), (K64, K64));
    // the CPU backend has MSAA today
    assert_eq!(info(&[msaa_rt(512, 512, 4)], &Caps::today()), (M4, M4));
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
fn texture_sizes_follow_the_tight_layout() {
    // BC1 64×64 7 mips, 8 bytes per 4×4 block; mips 64, 32, 16, 8, 4, 4, 4 (block aligned):
    //   16×16 blocks = 2048, 8×8 = 512, 4×4 = 128, 2×2 = 32, 1 block = 8 (three times)
    //   offsets 0, 2048, 2560, 2688, 2720, 2736 (2728 → 16), 2752 (2744 → 16); end 2760
    let mut bc = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 64, 64, 1, 7, DXGI_FORMAT_BC1_UNORM);
    let offs: Vec<u64> = (0..7).map(|s| subresource_layout(&bc, s).unwrap().0).collect();
    assert_eq!(offs, vec![0, 2048, 2560, 2688, 2720, 2736, 2752]);
    let (_, fp) = subresource_layout(&bc, 0).unwrap();
    assert_eq!((fp.Width, fp.Height, fp.RowPitch), (64, 64, 128));
    let (_, fp) = subresource_layout(&bc, 6).unwrap();
    assert_eq!((fp.Width, fp.Height, fp.RowPitch), (4, 4, 8));
    assert_eq!(layout_bytes(&bc), Some(2760));
    assert_eq!(one(bc), (K64, K64));
    bc.Alignment = 4096;
    assert_eq!(one(bc), (4096, 4096));
    // 1024×1024 RGBA8 full chain (11 mips): mip0 = 4 MiB; mips 1..10 are
    //   1 MiB + 256 KiB + 64 KiB + 16 KiB + 4096 + 1024 + 256 + 64 + 16 + 4 = 1398100
    //   (every size but the last is a multiple of 16, so no padding)
    //   total 4194304 + 1398100 = 5592404 → 86 × 64 KB = 5636096
    let mut big = rgba(1024, 1024);
    big.MipLevels = 0;
    assert_eq!(layout_bytes(&big), Some(5592404));
    assert_eq!(one(big), (5636096, K64));
    // NV12 1920×1080: luma R8 1920 × 1080 = 2073600 (16-aligned, so the chroma plane
    //   starts right there); chroma R8G8 960×540, row 1920 bytes × 540 = 1036800;
    //   total 3110400 → 48 × 64 KB = 3145728
    let nv12 = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 1920, 1080, 1, 1, DXGI_FORMAT_NV12);
    assert_eq!(layout_bytes(&nv12), Some(3110400));
    let (o, fp) = subresource_layout(&nv12, 1).unwrap();
    assert_eq!((o, fp.Format, fp.Width, fp.Height, fp.RowPitch), (2073600, DXGI_FORMAT_R8G8_TYPELESS, 960, 540, 1920));
    assert_eq!(one(nv12), (3145728, K64));
    // D32_FLOAT_S8X24 100×10 array 3: depth plane R32_TYPELESS rows 400 bytes × 10 = 4000
    //   per slice, slice stride align16(4000) = 4000 → plane 0 ends at 12000; stencil plane
    //   R8_TYPELESS rows 100 bytes × 10 = 1000 per slice, slice stride align16(1000) = 1008,
    //   slices at 12000, 13008, 14016; end 14016 + 1000 = 15016 → 64 KB
    let ds = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 100, 10, 3, 1, DXGI_FORMAT_D32_FLOAT_S8X24_UINT);
    let offs: Vec<u64> = (0..6).map(|s| subresource_layout(&ds, s).unwrap().0).collect();
    assert_eq!(offs, vec![0, 4000, 8000, 12000, 13008, 14016]);
    let (_, fp) = subresource_layout(&ds, 4).unwrap();
    assert_eq!((fp.Format, fp.Width, fp.RowPitch), (DXGI_FORMAT_R8_TYPELESS, 100, 100));
    assert_eq!(layout_bytes(&ds), Some(15016));
    assert_eq!(one(ds), (K64, K64));
    // 3D RGBA8 8×8×4 2 mips: mip0 rows 32 bytes × 8, depth slices 256 apart → 1024;
    //   mip1 4×4×2 → 16 × 4 × 2 = 128 at 1024; end 1152
    let v = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 8, 8, 4, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    let l = subresource_layout_full(&v, 1).unwrap();
    assert_eq!(
        (l.offset, l.footprint.footprint.Depth, l.footprint.footprint.RowPitch, l.footprint.size),
        (1024, 2, 16, 128)
    );
    assert_eq!(layout_bytes(&v), Some(1152));
}

#[test]
fn tiled_layout_size_covers_all_tiles() {
    // 512×512 RGBA8 10 mips, 64KB_UNDEFINED_SWIZZLE: 22 tiles (21 standard + 1 packed)
    // = 1441792 bytes > tight layout 1048576 + 262144 + 65536 + 16384 + 4096 + 1024 + 256
    // + 64 + 16 + 4 = 1398100 bytes.
    let mut d = rgba(512, 512);
    d.MipLevels = 10;
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    assert_eq!(layout_bytes(&d), Some(1398100));
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
    // each is 4096 bytes at 4096 alignment: back to back
    assert_eq!((r.SizeInBytes, r.Alignment), (3 * 4096, 4096));
    assert_eq!(out.iter().map(|e| e.Offset).collect::<Vec<_>>(), vec![0, 4096, 8192]);
    assert!(out.iter().all(|e| (e.Alignment, e.SizeInBytes) == (4096, 4096)));
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
    // RGBA8 32×32, 2 mips, array 2: mip0 32 × 128 = 4096 bytes, mip1 16 × 64 = 1024 bytes
    // → slice stride 5120 → offsets 0, 4096, 5120, 9216; end 10240
    // (the copyable footprints of footprints.md §4.6 are at 0, 8192, 12288, 20480)
    let mut d = rgba(32, 32);
    d.MipLevels = 2;
    d.DepthOrArraySize = 2;
    let offs: Vec<u64> = (0..4).map(|s| subresource_layout(&d, s).unwrap().0).collect();
    assert_eq!(offs, vec![0, 4096, 5120, 9216]);
    assert_eq!(layout_bytes(&d), Some(10240));
    let (_, fp) = subresource_layout(&d, 0).unwrap();
    assert_eq!((fp.Width, fp.Height, fp.Depth, fp.RowPitch), (32, 32, 1, 128));
    let (_, fp) = subresource_layout(&d, 3).unwrap();
    assert_eq!((fp.Width, fp.Height, fp.RowPitch), (16, 16, 64));
    assert!(subresource_layout(&d, 4).is_none());
    // GetCopyableFootprints keeps Microsoft's layout
    let mut fps = [D3D12_PLACED_SUBRESOURCE_FOOTPRINT::default(); 4];
    let total = crate::footprint::copyable_footprints(&d, 0, 4, 0, &Caps::today(), Some(&mut fps), None, None);
    assert_eq!(total, 20480 + 15 * 256 + 64);
    assert_eq!(fps.iter().map(|f| f.Offset).collect::<Vec<_>>(), vec![0, 8192, 12288, 20480]);
    assert_eq!(fps[3].Footprint.RowPitch, 256);
    // D24S8 64×64: depth plane R32_TYPELESS 64 × 256 = 16384 bytes; stencil plane at 16384,
    // R8_TYPELESS rows of 64 bytes
    let ds = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT);
    let (o, fp) = subresource_layout(&ds, 1).unwrap();
    assert_eq!((o, fp.Format, fp.RowPitch), (16384, DXGI_FORMAT_R8_TYPELESS, 64));
    let full = subresource_layout_full(&ds, 0).unwrap();
    assert_eq!((full.footprint.num_rows, full.footprint.row_size, full.footprint.size), (64, 256, 16384));
    assert_eq!(full.footprint.footprint.RowPitch, 256);
    let full = subresource_layout_full(&ds, 1).unwrap();
    assert_eq!((full.footprint.num_rows, full.footprint.row_size, full.footprint.size), (64, 64, 4096));
    assert_eq!(layout_bytes(&ds), Some(20480));
    // buffers
    assert_eq!(subresource_layout(&buf(100), 0).unwrap().0, 0);
    assert_eq!(subresource_layout(&buf(100), 0).unwrap().1.Width, 100);
    assert!(subresource_layout(&buf(100), 1).is_none());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// Sizes are multiples of the alignment and cover the tight layout, the alignment is
    /// one of the legal values, and the subresources are tight, 16-aligned, in order and
    /// disjoint inside the layout.
    #[test]
    fn sizes_are_aligned_and_cover_the_layout(
        w in 1u64..3000, h in 1u32..3000, arr in 1u16..6, mips in 0u16..6, pick in 0usize..7, align_pick in 0usize..3,
    ) {
        let fmts = [DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_BC3_UNORM, DXGI_FORMAT_D32_FLOAT_S8X24_UINT,
                    DXGI_FORMAT_R16_FLOAT, DXGI_FORMAT_R32G32B32_FLOAT, DXGI_FORMAT_NV12, DXGI_FORMAT_D24_UNORM_S8_UINT];
        let fmt = fmts[pick];
        let info = crate::format::info(fmt).unwrap();
        let (bw, bh) = (info.block_width as u64, info.block_height as u32);
        let mut d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w.div_ceil(bw) * bw, h.div_ceil(bh) * bh, arr, mips, fmt);
        if info.is_video() {
            // video formats have a single mip
            d.MipLevels = 1;
        }
        d.Alignment = [0u64, 4096, 65536][align_pick];
        let c = Caps::today();
        let r = resource_allocation_info2(0, &[d], &c, None);
        prop_assert!(matches!(r.Alignment, 4096 | 65536));
        if r.SizeInBytes != u64::MAX {
            prop_assert_eq!(r.SizeInBytes % r.Alignment, 0);
            let bytes = layout_bytes(&d).unwrap();
            prop_assert!(r.SizeInBytes >= bytes);
            prop_assert!(r.SizeInBytes - bytes < r.Alignment);
            let v = crate::desc::validate_desc1(&d, Api::AllocationInfo, &c, None).unwrap();
            let mut prev_end = 0u64;
            for s in 0..v.subresource_count {
                let l = subresource_layout_full(&d, s).unwrap();
                let fp = l.footprint.footprint;
                // 16-aligned, rows contiguous
                prop_assert_eq!(l.offset % 16, 0);
                prop_assert_eq!(fp.RowPitch as u64, l.footprint.row_size);
                prop_assert_eq!(l.footprint.size, l.footprint.row_size * l.footprint.num_rows as u64 * fp.Depth as u64);
                // same format, extents, rows and row size as the copyable footprint
                let mut cf = [D3D12_PLACED_SUBRESOURCE_FOOTPRINT::default(); 1];
                let (mut rows, mut row) = ([0u32; 1], [0u64; 1]);
                let t = crate::footprint::copyable_footprints(&d, s, 1, 0, &c, Some(&mut cf), Some(&mut rows), Some(&mut row));
                prop_assert_ne!(t, u64::MAX);
                let c0 = cf[0].Footprint;
                prop_assert_eq!((fp.Format.0, fp.Width, fp.Height, fp.Depth), (c0.Format.0, c0.Width, c0.Height, c0.Depth));
                prop_assert_eq!((l.footprint.num_rows, l.footprint.row_size), (rows[0], row[0]));
                // in subresource order, disjoint, packed with < 16 bytes of padding
                prop_assert!(l.offset >= prev_end);
                prop_assert!(l.offset - prev_end < 16);
                prev_end = l.offset + l.footprint.size;
                prop_assert!(prev_end <= bytes);
                // subresource_layout is the same footprint
                let (o, f2) = subresource_layout(&d, s).unwrap();
                prop_assert_eq!((o, f2.RowPitch), (l.offset, fp.RowPitch));
            }
            prop_assert_eq!(prev_end, bytes);
            prop_assert_eq!(msaa_sample_stride(&d), Some(bytes.div_ceil(16) * 16));
        } else {
            prop_assert_eq!(d.Alignment, 4096);
        }
    }
}
