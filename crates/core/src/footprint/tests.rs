//! GetCopyableFootprints tests: every worked example of footprints.md §4 plus hand-worked
//! cases, the invalid-input rule and property tests.

use super::*;
use proptest::prelude::*;
use rd3d12_sys::*;

pub(crate) fn tex(
    dim: D3D12_RESOURCE_DIMENSION,
    w: u64,
    h: u32,
    d: u16,
    mips: u16,
    fmt: DXGI_FORMAT,
) -> D3D12_RESOURCE_DESC1 {
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

pub(crate) fn tex2d(w: u64, h: u32, arr: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
    tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, arr, mips, fmt)
}

pub(crate) fn buffer(w: u64) -> D3D12_RESOURCE_DESC1 {
    let mut d = tex(D3D12_RESOURCE_DIMENSION_BUFFER, w, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d
}

/// Everything one call returns.
#[derive(Debug)]
struct Out {
    total: u64,
    /// (offset, format, width, height, depth, pitch)
    fp: Vec<(u64, u32, u32, u32, u32, u32)>,
    rows: Vec<u32>,
    sizes: Vec<u64>,
}

fn run(desc: &D3D12_RESOURCE_DESC1, first: u32, num: u32, base: u64) -> Out {
    let caps = Caps::today();
    let mut l = vec![D3D12_PLACED_SUBRESOURCE_FOOTPRINT::default(); num as usize];
    let mut r = vec![0u32; num as usize];
    let mut s = vec![0u64; num as usize];
    let total = copyable_footprints(desc, first, num, base, &caps, Some(&mut l), Some(&mut r), Some(&mut s));
    Out {
        total,
        fp: l
            .iter()
            .map(|p| {
                let f = &p.Footprint;
                (p.Offset, f.Format.0, f.Width, f.Height, f.Depth, f.RowPitch)
            })
            .collect(),
        rows: r,
        sizes: s,
    }
}

fn all(desc: &D3D12_RESOURCE_DESC1) -> Out {
    let n = crate::subresource::subresource_count(desc) as u32;
    run(desc, 0, n, 0)
}

fn assert_all_ones(o: &Out) {
    assert_eq!(o.total, u64::MAX);
    for &(off, f, w, h, d, p) in &o.fp {
        assert_eq!((off, f, w, h, d, p), (u64::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX, u32::MAX));
    }
    assert!(o.rows.iter().all(|&r| r == u32::MAX));
    assert!(o.sizes.iter().all(|&s| s == u64::MAX));
}

const RGBA8: u32 = 28;

#[test]
fn rgba8_32x32_footprint_is_256_pitch_8064_total() {
    // footprints.md §4.1: RowSize 32×4 = 128, RowPitch 256, size 31×256 + 128 = 8064.
    let o = all(&tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM));
    assert_eq!(o.fp, vec![(0, RGBA8, 32, 32, 1, 256)]);
    assert_eq!(o.rows, vec![32]);
    assert_eq!(o.sizes, vec![128]);
    assert_eq!(o.total, 8064);
}

#[test]
fn rgba8_32x32_with_base_offset_1000() {
    let o = run(&tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM), 0, 1, 1000);
    assert_eq!(o.fp[0].0, 1000);
    assert_eq!(o.total, 8064);
}

#[test]
fn bc1_64x64_7_mips_total_8712() {
    // footprints.md §4.2 table
    let o = all(&tex2d(64, 64, 1, 7, DXGI_FORMAT_BC1_UNORM));
    let offsets: Vec<u64> = o.fp.iter().map(|f| f.0).collect();
    assert_eq!(offsets, vec![0, 4096, 6144, 7168, 7680, 8192, 8704]);
    let wh: Vec<(u32, u32)> = o.fp.iter().map(|f| (f.2, f.3)).collect();
    assert_eq!(wh, vec![(64, 64), (32, 32), (16, 16), (8, 8), (4, 4), (4, 4), (4, 4)]);
    assert!(o.fp.iter().all(|f| f.5 == 256 && f.4 == 1 && f.1 == 71));
    assert_eq!(o.rows, vec![16, 8, 4, 2, 1, 1, 1]);
    assert_eq!(o.sizes, vec![128, 64, 32, 16, 8, 8, 8]);
    assert_eq!(o.total, 8712);
}

#[test]
fn bc1_60x60_6_mips_total_8200() {
    // footprints.md §4.2, mip not a multiple of 4
    let o = all(&tex2d(60, 60, 1, 6, DXGI_FORMAT_BC1_UNORM));
    let offsets: Vec<u64> = o.fp.iter().map(|f| f.0).collect();
    assert_eq!(offsets, vec![0, 4096, 6144, 7168, 7680, 8192]);
    assert_eq!((o.fp[0].2, o.fp[0].3), (60, 60));
    assert_eq!(o.rows[0], 15);
    assert_eq!(o.sizes[0], 120);
    // mip 1 is 30×30, reported 32×32
    assert_eq!((o.fp[1].2, o.fp[1].3, o.rows[1], o.sizes[1]), (32, 32, 8, 64));
    assert_eq!(o.total, 8200);
}

#[test]
fn bc7_single_mip_hand_worked() {
    // BC7 16 bytes per block. 100×36: blocks 25×9, RowSize 400, pitch 512, 9 rows,
    // size 8×512 + 400 = 4496.
    let o = all(&tex2d(100, 36, 1, 1, DXGI_FORMAT_BC7_UNORM));
    assert_eq!(o.fp, vec![(0, 98, 100, 36, 1, 512)]);
    assert_eq!((o.rows[0], o.sizes[0], o.total), (9, 400, 4496));
}

#[test]
fn bc7_3d_two_mips_hand_worked() {
    // 8×8×3: 2×2 blocks, RowSize 32, pitch 256, 2 rows, size (2×3−1)×256 + 32 = 1312;
    // mip1 4×4×1: 1 block row of 16 bytes at 1536 → total 1552.
    let o = all(&tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 8, 8, 3, 2, DXGI_FORMAT_BC7_UNORM));
    assert_eq!(o.fp, vec![(0, 98, 8, 8, 3, 256), (1536, 98, 4, 4, 1, 256)]);
    assert_eq!(o.rows, vec![2, 1]);
    assert_eq!(o.sizes, vec![32, 16]);
    assert_eq!(o.total, 1552);
}

#[test]
fn texture3d_rgba16f_16x8x4_3_mips_total_10528() {
    // footprints.md §4.3
    let o = all(&tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 8, 4, 3, DXGI_FORMAT_R16G16B16A16_FLOAT));
    assert_eq!(o.fp, vec![(0, 10, 16, 8, 4, 256), (8192, 10, 8, 4, 2, 256), (10240, 10, 4, 2, 1, 256)]);
    assert_eq!(o.rows, vec![8, 4, 2]);
    assert_eq!(o.sizes, vec![128, 64, 32]);
    assert_eq!(o.total, 10528);
}

#[test]
fn nv12_64x64_two_planes_total_48704() {
    // footprints.md §4.4
    let o = all(&tex2d(64, 64, 1, 1, DXGI_FORMAT_NV12));
    assert_eq!(o.fp, vec![(0, 60, 64, 64, 1, 512), (32768, 48, 32, 32, 1, 512)]);
    assert_eq!(o.rows, vec![64, 32]);
    assert_eq!(o.sizes, vec![64, 64]);
    assert_eq!(o.total, 48704);
}

#[test]
fn nv12_1920x1080_total_3317632() {
    let o = all(&tex2d(1920, 1080, 1, 1, DXGI_FORMAT_NV12));
    assert_eq!(o.fp, vec![(0, 60, 1920, 1080, 1, 2048), (2211840, 48, 960, 540, 1, 2048)]);
    assert_eq!(o.sizes, vec![1920, 1920]);
    assert_eq!(o.total, 3317632);
}

#[test]
fn nv12_array_of_two() {
    // 8×6 array 2 → 4 subresources, plane-major: Y0, Y1, UV0, UV1.
    // Y: row 8, pitch 512, 6 rows, size 5×512+8 = 2568; UV 4×3 R8G8: row 8, 3 rows, 1032.
    let o = all(&tex2d(8, 6, 2, 1, DXGI_FORMAT_NV12));
    let offsets: Vec<u64> = o.fp.iter().map(|f| f.0).collect();
    assert_eq!(offsets, vec![0, 3072, 6144, 7680]);
    assert_eq!(o.total, 7680 + 1032);
}

#[test]
fn p010_4x4_hand_worked() {
    // plane0 R16 4×4: row 8, pitch 512, size 3×512+8 = 1544; plane1 R16G16 2×2 at 2048,
    // row 8, size 512+8 = 520 → 2568.
    let o = all(&tex2d(4, 4, 1, 1, DXGI_FORMAT_P010));
    assert_eq!(o.fp, vec![(0, 53, 4, 4, 1, 512), (2048, 33, 2, 2, 1, 512)]);
    assert_eq!(o.total, 2568);
}

#[test]
fn nv11_16x2_chroma_pitch_from_half_width() {
    // plane1 R8G8 is ceil(16/4)=4 wide (RowSize 8) but its pitch is computed from 8
    // elements (16 bytes) → 512. plane0 size 512+16 = 528; plane1 at 1024, size 512+8.
    let o = all(&tex2d(16, 2, 1, 1, DXGI_FORMAT_NV11));
    assert_eq!(o.fp, vec![(0, 60, 16, 2, 1, 512), (1024, 48, 4, 2, 1, 512)]);
    assert_eq!(o.sizes, vec![16, 8]);
    assert_eq!(o.total, 1544);
}

#[test]
fn v208_three_planes() {
    // 8×4: Y 8×4 (size 3×512+8 = 1544), two 8×2 chroma planes (size 520) at 2048, 3072.
    let o = all(&tex2d(8, 4, 1, 1, DXGI_FORMAT_V208));
    assert_eq!(o.fp, vec![(0, 60, 8, 4, 1, 512), (2048, 60, 8, 2, 1, 512), (3072, 60, 8, 2, 1, 512)]);
    assert_eq!(o.total, 3592);
}

#[test]
fn p208_and_v408() {
    // P208 4×2: Y 4×2 (512+4), UV R8G8 2×2 (512+4) at 1024
    let o = all(&tex2d(4, 2, 1, 1, DXGI_FORMAT_P208));
    assert_eq!(o.fp, vec![(0, 60, 4, 2, 1, 512), (1024, 48, 2, 2, 1, 512)]);
    assert_eq!(o.total, 1024 + 516);
    // V408 2×1: three R8 planes 2×1 of 2 bytes each
    let o = all(&tex2d(2, 1, 1, 1, DXGI_FORMAT_V408));
    assert_eq!(o.fp.iter().map(|f| f.0).collect::<Vec<_>>(), vec![0, 512, 1024]);
    assert_eq!(o.total, 1026);
}

#[test]
fn d24s8_64x64_two_planes_total_65088() {
    // footprints.md §4.5: depth plane R32_TYPELESS, stencil plane R8_TYPELESS, pitch 512.
    let o = all(&tex2d(64, 64, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT));
    assert_eq!(o.fp, vec![(0, 39, 64, 64, 1, 512), (32768, 60, 64, 64, 1, 512)]);
    assert_eq!(o.sizes, vec![256, 64]);
    assert_eq!(o.rows, vec![64, 64]);
    assert_eq!(o.total, 65088);
}

#[test]
fn d32s8x24_16x16_array2() {
    // Planes R32_TYPELESS / R8_TYPELESS, plane-major. Depth: row 64, pitch 512,
    // size 15×512+64 = 7744 at 0 and 8192; stencil: row 16, size 7696 at 16384, 24576.
    let o = all(&tex2d(16, 16, 2, 1, DXGI_FORMAT_D32_FLOAT_S8X24_UINT));
    assert_eq!(
        o.fp,
        vec![
            (0, 39, 16, 16, 1, 512),
            (8192, 39, 16, 16, 1, 512),
            (16384, 60, 16, 16, 1, 512),
            (24576, 60, 16, 16, 1, 512)
        ]
    );
    assert_eq!(o.total, 24576 + 7696);
}

#[test]
fn d32_float_is_not_planar() {
    // 64×64 D32: 256 pitch, size 63×256+256 = 16384
    let o = all(&tex2d(64, 64, 1, 1, DXGI_FORMAT_D32_FLOAT));
    assert_eq!(o.fp, vec![(0, 40, 64, 64, 1, 256)]);
    assert_eq!(o.total, 16384);
}

#[test]
fn rgba8_32x32_2_mips_array_2_total_24384() {
    // footprints.md §4.6
    let o = all(&tex2d(32, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM));
    let offsets: Vec<u64> = o.fp.iter().map(|f| f.0).collect();
    assert_eq!(offsets, vec![0, 8192, 12288, 20480]);
    assert_eq!(o.sizes, vec![128, 64, 128, 64]);
    assert_eq!(o.total, 24384);
}

#[test]
fn texture1d_array_with_mips() {
    // 100 texels RGBA8 (400 bytes, pitch 512), mip1 50 texels (200 bytes), 3 slices.
    let o = all(&tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 100, 1, 3, 2, DXGI_FORMAT_R8G8B8A8_UNORM));
    let offsets: Vec<u64> = o.fp.iter().map(|f| f.0).collect();
    assert_eq!(offsets, vec![0, 512, 1024, 1536, 2048, 2560]);
    assert_eq!(o.fp[1], (512, RGBA8, 50, 1, 1, 256));
    assert_eq!(o.fp[0].5, 512);
    assert_eq!(o.total, 2760);
}

#[test]
fn buffer_width_4() {
    // footprints.md §4.7
    let o = all(&buffer(4));
    assert_eq!(o.fp, vec![(0, 0, 4, 1, 1, 256)]);
    assert_eq!((o.rows[0], o.sizes[0], o.total), (1, 4, 4));
}

#[test]
fn yuy2_packed_rows() {
    // 6×2: 2 bytes per texel → RowSize 12, pitch 256, size 256+12. YUY2 has no mips.
    let o = all(&tex2d(6, 2, 1, 1, DXGI_FORMAT_YUY2));
    assert_eq!(o.fp, vec![(0, 107, 6, 2, 1, 256)]);
    assert_eq!((o.rows[0], o.sizes[0], o.total), (2, 12, 268));
    assert_all_ones(&run(&tex2d(6, 2, 1, 2, DXGI_FORMAT_YUY2), 0, 1, 0));
    // Y216 (4 bytes per texel, 2×1 blocks): 6×2 → RowSize 24
    let o = all(&tex2d(6, 2, 1, 1, DXGI_FORMAT_Y216));
    assert_eq!((o.sizes[0], o.total), (24, 256 + 24));
}

#[test]
fn r8g8_b8g8_mip_rounds_to_block_width() {
    // 6×2, mip1 is 3×1 → reported 4×1 (8 bytes) at 512.
    let o = all(&tex2d(6, 2, 1, 2, DXGI_FORMAT_R8G8_B8G8_UNORM));
    assert_eq!(o.fp, vec![(0, 68, 6, 2, 1, 256), (512, 68, 4, 1, 1, 256)]);
    assert_eq!(o.sizes, vec![12, 8]);
    assert_eq!(o.total, 520);
}

#[test]
fn opaque_420_single_r8_plane() {
    // OPEN choice: one R8_TYPELESS plane with 512 pitch (luma rows only).
    let o = all(&tex2d(4, 4, 1, 1, DXGI_FORMAT_420_OPAQUE));
    assert_eq!(o.fp, vec![(0, 60, 4, 4, 1, 512)]);
    assert_eq!(o.total, 3 * 512 + 4);
}

#[test]
fn single_subresource_queries_start_at_base_offset() {
    let d = tex2d(64, 64, 1, 7, DXGI_FORMAT_BC1_UNORM);
    let o = run(&d, 1, 1, 0);
    assert_eq!(o.fp, vec![(0, 71, 32, 32, 1, 256)]);
    assert_eq!(o.total, 1856);
    let o = run(&d, 3, 2, 512);
    assert_eq!(o.fp.iter().map(|f| f.0).collect::<Vec<_>>(), vec![512, 512 + 512]);
    assert_eq!(o.total, 512 + 8);
}

#[test]
fn msaa_is_accepted_and_ignored() {
    let mut d = tex2d(512, 512, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    d.SampleDesc.Count = 4;
    d.Flags = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET;
    let o = all(&d);
    assert_eq!(o.fp, vec![(0, RGBA8, 512, 512, 1, 2048)]);
    assert_eq!(o.total, 511 * 2048 + 2048);
}

#[test]
fn mip_levels_zero_is_expanded() {
    let d = tex2d(32, 32, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
    let o = run(&d, 0, 6, 0);
    assert_eq!(o.total, o.fp[5].0 + 4);
    // 7 subresources do not exist
    assert_all_ones(&run(&d, 0, 7, 0));
}

#[test]
fn extra_mips_beyond_the_chain_are_1x1() {
    // native accepts MipLevels 10 on 32×32; mips 5..9 are 1×1
    let o = all(&tex2d(32, 32, 1, 10, DXGI_FORMAT_R8G8B8A8_UNORM));
    assert_eq!(o.fp.len(), 10);
    for k in 5..10 {
        assert_eq!((o.fp[k].2, o.fp[k].3), (1, 1));
        assert_eq!(o.sizes[k], 4);
    }
}

#[test]
fn num_zero_is_valid_and_zero_bytes() {
    let d = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_eq!(copyable_footprints(&d, 0, 0, 0, &Caps::today(), None, None, None), 0);
}

#[test]
fn base_offset_wraps() {
    let d = tex2d(32, 32, 1, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    let o = run(&d, 0, 2, u64::MAX);
    assert_eq!(o.fp[0].0, u64::MAX);
    assert_eq!(o.fp[1].0, 8191);
    assert_eq!(o.total, 8192 + 15 * 256 + 64);
}

#[test]
fn invalid_buffer_height_3_fills_all_ones() {
    let mut d = buffer(64);
    d.Height = 3;
    assert_all_ones(&run(&d, 0, 1, 0));
    let mut d = buffer(64);
    d.DepthOrArraySize = 2;
    assert_all_ones(&run(&d, 0, 1, 0));
}

#[test]
fn invalid_texture1d_height_2_fills_all_ones() {
    let d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 64, 2, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_all_ones(&run(&d, 0, 1, 0));
}

#[test]
fn invalid_range_fills_every_entry() {
    let d = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let o = run(&d, 0, 2, 0);
    assert_eq!(o.fp.len(), 2);
    assert_all_ones(&o);
    assert_all_ones(&run(&d, 1, 1, 0));
    assert_all_ones(&run(&d, 1, 0, 0));
    assert_all_ones(&run(&d, u32::MAX, 2, 0));
    let b = buffer(16);
    assert_all_ones(&run(&b, 0, 2, 0));
    assert_all_ones(&run(&b, 1, 1, 0));
}

#[test]
fn invalid_formats_fill_all_ones() {
    assert_all_ones(&run(&tex2d(32, 32, 1, 1, DXGI_FORMAT(200)), 0, 1, 0));
    assert_all_ones(&run(&tex2d(32, 32, 1, 1, DXGI_FORMAT_UNKNOWN), 0, 1, 0));
    assert_all_ones(&run(&tex2d(32, 32, 1, 1, DXGI_FORMAT_R1_UNORM), 0, 1, 0));
    assert_all_ones(&run(&tex2d(32, 32, 1, 1, DXGI_FORMAT_SAMPLER_FEEDBACK_MIN_MIP_OPAQUE), 0, 1, 0));
    // 3D depth and 1D BC are not textures of their dimension
    assert_all_ones(&run(&tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 4, 4, 4, 1, DXGI_FORMAT_D32_FLOAT), 0, 1, 0));
    assert_all_ones(&run(&tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 4, 1, 1, 1, DXGI_FORMAT_BC1_UNORM), 0, 1, 0));
    // planar formats have no mips
    assert_all_ones(&run(&tex2d(8, 6, 1, 2, DXGI_FORMAT_NV12), 0, 1, 0));
    // NV12 must be 2×2 aligned
    assert_all_ones(&run(&tex2d(7, 6, 1, 1, DXGI_FORMAT_NV12), 0, 1, 0));
}

#[test]
fn huge_buffer_does_not_fit_a_footprint() {
    assert_all_ones(&run(&buffer(0x1_0000_0000), 0, 1, 0));
    assert_all_ones(&run(&buffer(0xFFFF_FF01), 0, 1, 0));
    let o = run(&buffer(0xFFFF_FF00), 0, 1, 0);
    assert_eq!(o.fp[0].5, 0xFFFF_FF00);
    let e = footprint_error(&buffer(0x1_0000_0000), 0, 1, &Caps::today()).unwrap();
    assert_eq!(e.id, crate::error::msg::GETCOPYABLEFOOTPRINTS_UNSUPPORTED_BUFFER_WIDTH);
}

#[test]
fn footprint_error_messages() {
    let c = Caps::today();
    let d = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert!(footprint_error(&d, 0, 1, &c).is_none());
    assert_eq!(
        footprint_error(&d, 0, 2, &c).unwrap().id,
        crate::error::msg::GETCOPYABLEFOOTPRINTS_INVALIDSUBRESOURCERANGE
    );
    let mut b = buffer(4);
    b.Height = 3;
    assert_eq!(footprint_error(&b, 0, 1, &c).unwrap().id, crate::error::msg::CREATERESOURCE_INVALIDDIMENSIONS);
}

#[test]
fn any_subset_of_outputs() {
    let d = tex2d(64, 64, 1, 7, DXGI_FORMAT_BC1_UNORM);
    let c = Caps::today();
    let mut sizes = [0u64; 7];
    assert_eq!(copyable_footprints(&d, 0, 7, 0, &c, None, None, Some(&mut sizes)), 8712);
    assert_eq!(sizes, [128, 64, 32, 16, 8, 8, 8]);
    let mut rows = [0u32; 7];
    assert_eq!(copyable_footprints(&d, 0, 7, 0, &c, None, Some(&mut rows), None), 8712);
    assert_eq!(rows, [16, 8, 4, 2, 1, 1, 1]);
    // invalid: only the provided array is touched
    let mut rows = [0u32; 8];
    assert_eq!(copyable_footprints(&d, 0, 8, 0, &c, None, Some(&mut rows), None), u64::MAX);
    assert_eq!(rows, [u32::MAX; 8]);
}

#[test]
fn desc_flavour_matches_desc1() {
    let d1 = tex2d(32, 32, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let d = crate::desc::desc_from_desc1(&d1);
    assert_eq!(copyable_footprints_desc(&d, 0, 1, 0, &Caps::today(), None, None, None), 8064);
}

// ---------------------------------------------------------------------------------------
// Property tests

fn copyable_formats() -> Vec<DXGI_FORMAT> {
    crate::format::all()
        .iter()
        .filter(|i| {
            i.format.0 != 0
                && !i.has(crate::format::FormatFlags::NOT_D3D12)
                && !i.has(crate::format::FormatFlags::SAMPLER_FEEDBACK)
        })
        .map(|i| i.format)
        .collect()
}

prop_compose! {
    fn arb_desc()(
        fmt_idx in 0usize..200,
        dim in 0u32..3,
        w in 1u64..600,
        h in 1u32..300,
        d in 1u16..12,
        mips in 0u16..12,
    ) -> D3D12_RESOURCE_DESC1 {
        let formats = copyable_formats();
        let f = formats[fmt_idx % formats.len()];
        let i = crate::format::info(f).unwrap();
        let dimension = match dim {
            0 => D3D12_RESOURCE_DIMENSION_TEXTURE1D,
            1 => D3D12_RESOURCE_DIMENSION_TEXTURE2D,
            _ => D3D12_RESOURCE_DIMENSION_TEXTURE3D,
        };
        let bw = i.block_width as u64;
        let bh = i.block_height as u32;
        let w = w.div_ceil(bw) * bw;
        let h = if dimension == D3D12_RESOURCE_DIMENSION_TEXTURE1D { 1 } else { h.div_ceil(bh) * bh };
        let mut desc = tex(dimension, w, h, d, mips, f);
        if i.class_support1 & crate::format::s1::MIP == 0 {
            desc.MipLevels = 1;
        }
        desc
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn footprint_invariants(desc in arb_desc(), base in prop_oneof![Just(0u64), 0u64..100_000, Just(u64::MAX - 10)]) {
        let caps = Caps::today();
        let Some(v) = crate::desc::validate_desc1(&desc, Api::Footprints, &caps, None).ok() else {
            // dimension not supported by the format (e.g. BC 1D): must be all-ones
            let o = run(&desc, 0, 1, base);
            assert_all_ones(&o);
            return Ok(());
        };
        let n = v.subresource_count;
        let o = run(&desc, 0, n, base);
        prop_assert_ne!(o.total, u64::MAX);
        let info = crate::format::info(desc.Format).unwrap();
        let pitch_align = if info.is_planar() { 512 } else { 256 };
        let mut prev_end = 0u64;
        for k in 0..n as usize {
            let (off, f, w, _h, d, pitch) = o.fp[k];
            let rel = off.wrapping_sub(base);
            prop_assert_eq!(pitch as u64 % pitch_align, 0);
            prop_assert_eq!(rel % 512, 0);
            prop_assert!(rel >= prev_end);
            prop_assert!(o.sizes[k] <= pitch as u64);
            let fi = crate::format::info(DXGI_FORMAT(f)).unwrap();
            prop_assert_eq!(o.sizes[k], fi.min_row_bytes(w as u64));
            let size = (o.rows[k] as u64 * d as u64 - 1) * pitch as u64 + o.sizes[k];
            prev_end = rel + size;
            // a single-subresource query starts at BaseOffset with the same footprint
            let one = run(&desc, k as u32, 1, base);
            prop_assert_eq!(one.fp[0].0, base);
            prop_assert_eq!((one.fp[0].1, one.fp[0].2, one.fp[0].3, one.fp[0].4, one.fp[0].5), (o.fp[k].1, o.fp[k].2, o.fp[k].3, o.fp[k].4, o.fp[k].5));
            prop_assert_eq!(one.total, size);
            // the backend layout is tight: same format and extents, RowPitch = row size,
            // never after the copyable placement
            let (lo, lfp) = crate::allocation::subresource_layout(&desc, k as u32).unwrap();
            prop_assert!(lo <= rel);
            prop_assert_eq!((lfp.Format.0, lfp.Width, lfp.Height, lfp.Depth), (o.fp[k].1, o.fp[k].2, o.fp[k].3, o.fp[k].4));
            prop_assert_eq!(lfp.RowPitch as u64, o.sizes[k]);
        }
        // TotalBytes == last offset + pitch × (rows × depth − 1) + row size
        let last = n as usize - 1;
        let (off, _, _, _, d, pitch) = o.fp[last];
        prop_assert_eq!(o.total, off.wrapping_sub(base) + pitch as u64 * (o.rows[last] as u64 * d as u64 - 1) + o.sizes[last]);
        // the tight backend layout never needs more than the copyable footprints
        prop_assert!(crate::allocation::layout_bytes(&desc).unwrap() <= o.total);
    }

    #[test]
    fn buffer_footprints(w in 1u64..10_000_000) {
        let o = run(&buffer(w), 0, 1, 0);
        prop_assert_eq!(o.total, w);
        prop_assert_eq!(o.fp[0].5 as u64, w.div_ceil(256) * 256);
        prop_assert_eq!(o.sizes[0], w);
    }
}
