//! Sampling tests: filters, address modes, mip selection, cubes, gathers and loads, worked
//! out by hand from the D3D11.3 functional spec.

use super::*;

const WRAP: u32 = 1;
const MIRROR: u32 = 2;
const CLAMP: u32 = 3;
const BORDER: u32 = 4;
const MIRROR_ONCE: u32 = 5;

/// Texels computed by a function of (x, y, z, mip, slice), for exact expectations.
struct Grid {
    size: (u32, u32, u32),
    mips: u32,
    slices: u32,
    data: Vec<Vec<[f32; 4]>>,
}

fn grid(size: (u32, u32, u32), mips: u32, slices: u32, f: impl Fn(u32, u32, u32, u32, u32) -> [f32; 4]) -> Grid {
    let mut g = Grid { size, mips, slices, data: Vec::new() };
    for slice in 0..slices {
        for mip in 0..mips {
            let (w, h, d) = g.dims(mip);
            let mut v = Vec::new();
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        v.push(f(x, y, z, mip, slice));
                    }
                }
            }
            g.data.push(v);
        }
    }
    g
}

/// One channel: R = f(x, y), others 0, alpha 1.
fn red(w: u32, h: u32, f: impl Fn(u32, u32) -> f32) -> Grid {
    grid((w, h, 1), 1, 1, |x, y, _, _, _| [f(x, y), 0.0, 0.0, 1.0])
}

impl Texels for Grid {
    fn dims(&self, mip: u32) -> (u32, u32, u32) {
        let m = |v: u32| v.checked_shr(mip).unwrap_or(0).max(1);
        (m(self.size.0), m(self.size.1), m(self.size.2))
    }
    fn mips(&self) -> u32 {
        self.mips
    }
    fn array_size(&self) -> u32 {
        self.slices
    }
    fn fetch(&self, x: u32, y: u32, z: u32, mip: u32) -> Option<[f32; 4]> {
        let (w, h, d) = self.dims(mip);
        let (slice, depth) = if self.size.2 > 1 { (0, z) } else { (z, 0) };
        if x >= w || y >= h || depth >= d || slice >= self.slices || mip >= self.mips {
            return None;
        }
        Some(self.data[(mip + slice * self.mips) as usize][((depth * h + y) * w + x) as usize])
    }
}

fn sampler(filter: u32, address: u32) -> Sampler {
    Sampler::new(&SamplerState {
        filter,
        address: [address; 3],
        mip_lod_bias: 0.0,
        max_anisotropy: 1,
        comparison_func: 0,
        border: [0; 4],
        min_lod: 0.0,
        max_lod: f32::MAX,
        flags: 0,
    })
}

const POINT: u32 = 0x00;
const LINEAR: u32 = 0x15;

fn at(g: &Grid, dim: Dim, s: &Sampler, coords: [f32; 4]) -> [f32; 4] {
    sample(g, &View::whole(dim, g), s, coords, [0; 3], Lod::Level(0.0), None)
}

fn r2(g: &Grid, s: &Sampler, u: f32, v: f32) -> f32 {
    at(g, Dim::Tex2D, s, [u, v, 0.0, 0.0])[0]
}

fn checkerboard() -> Grid {
    red(4, 4, |x, y| ((x + y) % 2 == 0) as u32 as f32)
}

#[test]
fn point_sampling_at_texel_centers_returns_the_texel() {
    let g = checkerboard();
    let s = sampler(POINT, WRAP);
    for y in 0..4 {
        for x in 0..4 {
            let (u, v) = ((x as f32 + 0.5) / 4.0, (y as f32 + 0.5) / 4.0);
            assert_eq!(r2(&g, &s, u, v), ((x + y) % 2 == 0) as u32 as f32, "({x}, {y})");
        }
    }
}

#[test]
fn point_sampling_takes_the_texel_whose_area_holds_the_coordinate() {
    let g = checkerboard();
    let s = sampler(POINT, WRAP);
    // Scaled u = 0.99 lies in texel 0; 1.0 is texel 1's left edge.
    assert_eq!(r2(&g, &s, 0.99 / 4.0, 0.125), 1.0);
    assert_eq!(r2(&g, &s, 0.25, 0.125), 0.0);
}

#[test]
fn linear_sampling_at_texel_centers_returns_the_texel() {
    let g = checkerboard();
    let s = sampler(LINEAR, WRAP);
    assert_eq!(r2(&g, &s, 0.125, 0.125), 1.0);
    assert_eq!(r2(&g, &s, 0.375, 0.125), 0.0);
}

#[test]
fn bilinear_weights_come_from_the_distance_to_texel_centers() {
    let g = checkerboard();
    let s = sampler(LINEAR, WRAP);
    // Scaled (0.75, 0.5): a quarter of the way from texel 0's center to texel 1's.
    assert_eq!(r2(&g, &s, 0.75 / 4.0, 0.125), 0.75);
    assert_eq!(r2(&g, &s, 1.25 / 4.0, 0.125), 0.25);
    // Halfway between four centers of a checkerboard: half white.
    assert_eq!(r2(&g, &s, 0.25, 0.25), 0.5);
    // A linear ramp is reproduced exactly: R = x + 10y at scaled (1.75, 1.25) is texel
    // position (1.25, 0.75).
    let ramp = red(4, 4, |x, y| x as f32 + 10.0 * y as f32);
    assert_eq!(r2(&ramp, &s, 1.75 / 4.0, 1.25 / 4.0), 1.25 + 7.5);
}

#[test]
fn scaled_coordinates_snap_to_8_fractional_bits() {
    let g = red(4, 1, |x, _| x as f32);
    // 0.9999 texels rounds to 1.0 in 16.8 fixed point: texel 1.
    assert_eq!(r2(&g, &sampler(POINT, CLAMP), 0.9999 / 4.0, 0.5), 1.0);
    // Linear weights are multiples of 1/256: scaled 1.5 + 0.3/256 gives weight 0/256 off
    // texel 1's center.
    assert_eq!(r2(&g, &sampler(LINEAR, CLAMP), (1.5 + 0.3 / 256.0) / 4.0, 0.5), 1.0);
}

#[test]
fn address_modes_on_integer_texel_addresses() {
    // (mode, address, size) -> texel; the spec's pseudocode cases.
    for (mode, t, want) in [
        (WRAP, -1, Some(3)),
        (WRAP, 4, Some(0)),
        (WRAP, -5, Some(3)),
        (WRAP, 9, Some(1)),
        (MIRROR, -1, Some(0)),
        (MIRROR, 4, Some(3)),
        (MIRROR, 5, Some(2)),
        (MIRROR, 8, Some(0)),
        (MIRROR, -5, Some(3)),
        (CLAMP, -7, Some(0)),
        (CLAMP, 100, Some(3)),
        (BORDER, -1, None),
        (BORDER, 4, None),
        (MIRROR_ONCE, -1, Some(0)),
        (MIRROR_ONCE, -3, Some(2)),
        (MIRROR_ONCE, -9, Some(3)),
        (MIRROR_ONCE, 6, Some(3)),
    ] {
        assert_eq!(address(mode, t, 4), want, "mode {mode} t {t}");
    }
    for mode in 1..=5 {
        assert_eq!(address(mode, 2, 4), Some(2), "in range is untouched by mode {mode}");
    }
    // Extreme addresses do not overflow.
    assert_eq!(address(MIRROR, i64::MIN, 4), Some(0));
    assert_eq!(address(MIRROR_ONCE, i64::MIN, 4), Some(3));
    assert_eq!(address(WRAP, i64::MIN, 3), Some(1));
}

#[test]
fn address_modes_outside_0_1_in_normalized_coordinates() {
    let g = red(4, 1, |x, _| x as f32);
    let r = |mode, u: f32| r2(&g, &sampler(POINT, mode), u, 0.5);
    // u = -0.125 is texel -1, 1.125 texel 4, -1.125 texel -5, 1.6 texel 6.
    assert_eq!([-0.125, 1.125, -1.125, 1.6].map(|u| r(WRAP, u)), [3.0, 0.0, 3.0, 2.0]);
    assert_eq!([-0.125, 1.125, -1.125, 1.6].map(|u| r(MIRROR, u)), [0.0, 3.0, 3.0, 1.0]);
    assert_eq!([-0.125, 1.125, -1.125, 1.6].map(|u| r(CLAMP, u)), [0.0, 3.0, 0.0, 3.0]);
    assert_eq!([-0.125, 1.125, -1.125, 1.6].map(|u| r(MIRROR_ONCE, u)), [0.0, 3.0, 3.0, 3.0]);
    assert_eq!([-0.125, 1.125, -1.125, 1.6].map(|u| r(BORDER, u)), [0.0; 4]);
    // Far outside, range reduction keeps the result.
    assert_eq!(r(WRAP, 1000.375), 1.0);
    assert_eq!(r(MIRROR, 1001.375), 2.0);
    assert_eq!(r(CLAMP, -1.0e9), 0.0);
}

#[test]
fn wrap_blends_the_last_and_first_texels_across_the_seam() {
    let g = red(4, 1, |x, _| x as f32);
    // u = 0: halfway between texel 3 (wrapped -1) and texel 0.
    assert_eq!(r2(&g, &sampler(LINEAR, WRAP), 0.0, 0.5), 1.5);
    assert_eq!(r2(&g, &sampler(LINEAR, CLAMP), 0.0, 0.5), 0.0);
    assert_eq!(r2(&g, &sampler(LINEAR, MIRROR), 1.0, 0.5), 3.0);
}

#[test]
fn border_color_replaces_texels_off_the_texture_and_blends_at_the_edge() {
    let g = red(4, 1, |_, _| 1.0);
    let mut s = sampler(LINEAR, BORDER);
    s.border = [0.0, 0.5, 0.25, 0.0];
    // Both taps off the texture.
    assert_eq!(at(&g, Dim::Tex2D, &s, [-0.5, 0.5, 0.0, 0.0]), [0.0, 0.5, 0.25, 0.0]);
    // u = 0 straddles the border: half texel, half border (v at a center: one row).
    assert_eq!(at(&g, Dim::Tex2D, &s, [0.0, 0.5, 0.0, 0.0]), [0.5, 0.25, 0.125, 0.5]);
    // Any axis in the border selects the border color.
    let mut s2 = sampler(POINT, CLAMP);
    s2.address[1] = BORDER;
    s2.border = [9.0; 4];
    assert_eq!(at(&g, Dim::Tex2D, &s2, [-3.0, 2.0, 0.0, 0.0]), [9.0; 4]);
}

fn bytes_texture<'a>(
    bytes: &'a [u8],
    format: DXGI_FORMAT,
    size: (u32, u32, u32),
    subs: &'a [SubresourceBytes],
) -> MemoryTexels<'a> {
    MemoryTexels { bytes, format, size, mips: 1, array_size: 1, subresources: subs }
}

const ONE_ROW: [SubresourceBytes; 1] = [SubresourceBytes { offset: 0, row_pitch: 256, depth_pitch: 256 }];

#[test]
fn border_color_keeps_only_the_formats_components_clamped_to_its_range() {
    let bytes = [255u8; 16];
    let r8 = bytes_texture(&bytes, sys::DXGI_FORMAT_R8_UNORM, (1, 1, 1), &ONE_ROW);
    let mut s = sampler(POINT, BORDER);
    s.border = [2.0, 0.7, 0.7, 0.2];
    let v = View::whole(Dim::Tex2D, &r8);
    assert_eq!(sample(&r8, &v, &s, [-1.0, 0.5, 0.0, 0.0], [0; 3], Lod::Level(0.0), None), [1.0, 0.0, 0.0, 1.0]);
    let snorm = bytes_texture(&bytes, sys::DXGI_FORMAT_R8G8_SNORM, (1, 1, 1), &ONE_ROW);
    s.border = [-3.0, 0.0, 0.5, 0.5];
    assert_eq!(sample(&snorm, &v, &s, [-1.0, 0.5, 0.0, 0.0], [0; 3], Lod::Level(0.0), None), [-1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn uint_border_color_gives_integers_with_the_sampler_flag() {
    let bytes = [0u8; 16];
    let t = bytes_texture(&bytes, sys::DXGI_FORMAT_R32G32B32A32_UINT, (1, 1, 1), &ONE_ROW);
    let s = Sampler::new(&SamplerState {
        filter: POINT,
        address: [BORDER; 3],
        mip_lod_bias: 0.0,
        max_anisotropy: 1,
        comparison_func: 0,
        border: [7, 8, 9, 10],
        min_lod: 0.0,
        max_lod: 0.0,
        flags: sys::D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0,
    });
    let v = View::whole(Dim::Tex2D, &t);
    assert_eq!(gather(&t, &v, &s, [-1.0, -1.0, 0.0, 0.0], [0; 3], 2, None), [9.0; 4]);
    let float_border = Sampler { border: [f32::from_bits(0x3f80_0000); 4], ..s };
    assert_eq!(float_border.border, [1.0; 4]);
}

/// A 16×16 texture with 5 mips, each mip's texels holding the mip index.
fn mip_chain() -> Grid {
    grid((16, 16, 1), 5, 1, |_, _, _, mip, _| [mip as f32, 0.0, 0.0, 1.0])
}

fn at_lod(g: &Grid, view: &View, s: &Sampler, mode: Lod) -> f32 {
    sample(g, view, s, [0.5, 0.5, 0.0, 0.0], [0; 3], mode, None)[0]
}

fn grad(d: f32) -> Lod {
    Lod::Derivatives { ddx: [d, 0.0, 0.0], ddy: [0.0, d / 2.0, 0.0], bias: 0.0, clamp: 0.0 }
}

#[test]
fn lod_is_log2_of_the_longer_derivative_in_texels() {
    let g = mip_chain();
    let v = View::whole(Dim::Tex2D, &g);
    let s = sampler(POINT, CLAMP);
    // ddx = 1/8 of a 16-texel texture is 2 texels: LOD 1.
    assert_eq!(lod(&g, &v, &s, [0.0; 4], grad(1.0 / 8.0)), 1.0);
    assert_eq!(at_lod(&g, &v, &s, grad(1.0 / 8.0)), 1.0);
    assert_eq!(at_lod(&g, &v, &s, grad(1.0 / 16.0)), 0.0);
    assert_eq!(at_lod(&g, &v, &s, grad(1.0 / 2.0)), 3.0);
    // The longer of ddx and ddy counts, and every component of each.
    let d = Lod::Derivatives { ddx: [0.0, 0.0, 0.0], ddy: [3.0 / 64.0, 4.0 / 64.0, 0.0], bias: 0.0, clamp: 0.0 };
    assert_eq!(lod(&g, &v, &s, [0.0; 4], d), (5.0f32 / 4.0).log2());
    // The w derivative is not a texel axis of a 2D texture.
    let w = Lod::Derivatives { ddx: [0.0, 0.0, 100.0], ddy: [1.0 / 16.0, 0.0, 0.0], bias: 0.0, clamp: 0.0 };
    assert_eq!(lod(&g, &v, &s, [0.0; 4], w), 0.0);
}

#[test]
fn calculate_lod_reports_the_clamped_and_the_raw_lod() {
    let g = mip_chain();
    let v = View { mip_levels: 3, ..View::whole(Dim::Tex2D, &g) };
    let s = sampler(LINEAR, CLAMP);
    let d = |x: f32| calculate_lod(&g, &v, &s, [0.0; 4], [x, 0.0, 0.0], [0.0; 3]);
    assert_eq!(d(1.0 / 8.0), (1.0, 1.0));
    assert_eq!(d(1.0 / 64.0), (0.0, -2.0), "magnified: clamped to mip 0");
    assert_eq!(d(4.0), (2.0, 6.0), "past the view's last mip");
    let biased = Sampler { mip_lod_bias: 0.5, max_lod: 1.25, ..s };
    assert_eq!(calculate_lod(&g, &v, &biased, [0.0; 4], [1.0 / 8.0, 0.0, 0.0], [0.0; 3]), (1.25, 1.5));
}

#[test]
fn mip_point_rounds_the_lod_to_the_nearest_mip() {
    let g = mip_chain();
    let v = View::whole(Dim::Tex2D, &g);
    let s = sampler(POINT, CLAMP);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(1.49)), 1.0);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(1.5)), 2.0);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(-3.0)), 0.0);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(40.0)), 4.0, "clamped to the last mip");
}

#[test]
fn mip_linear_blends_the_two_nearest_mips() {
    let g = mip_chain();
    let v = View::whole(Dim::Tex2D, &g);
    let s = sampler(0x11, CLAMP); // MIN_LINEAR_MAG_POINT_MIP_LINEAR
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(1.25)), 1.25);
    // 2^1.5 texels per pixel: LOD 1.5 after the 8-bit snap.
    assert_eq!(at_lod(&g, &v, &s, grad(2f32.powf(1.5) / 16.0)), 1.5);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(4.5)), 4.0, "past the last mip");
}

#[test]
fn lod_bias_and_clamps_apply_in_the_specs_order() {
    let g = mip_chain();
    let v = View::whole(Dim::Tex2D, &g);
    let mut s = sampler(POINT, CLAMP);
    s.mip_lod_bias = 1.0;
    assert_eq!(at_lod(&g, &v, &s, grad(1.0 / 8.0)), 2.0, "sampler bias");
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(0.0)), 1.0, "SampleLevel honours MipLODBias");
    let biased = Lod::Derivatives { ddx: [1.0 / 8.0, 0.0, 0.0], ddy: [0.0; 3], bias: -2.0, clamp: 0.0 };
    assert_eq!(at_lod(&g, &v, &s, biased), 0.0, "shader bias");
    s.mip_lod_bias = 0.0;
    s.max_lod = 2.0;
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(3.7)), 2.0, "MaxLOD");
    s.min_lod = 3.0;
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(0.0)), 3.0, "MinLOD wins over MaxLOD");
    let s = sampler(POINT, CLAMP);
    let clamped = Lod::Derivatives { ddx: [1.0 / 16.0, 0.0, 0.0], ddy: [0.0; 3], bias: 0.0, clamp: 2.0 };
    assert_eq!(at_lod(&g, &v, &s, clamped), 2.0, "the shader's clamp");
    let rv = View { min_lod_clamp: 3.0, ..v };
    assert_eq!(at_lod(&g, &rv, &s, Lod::Level(1.0)), 3.0, "ResourceMinLODClamp");
}

#[test]
fn view_mips_are_relative_to_the_most_detailed_mip() {
    let g = mip_chain();
    let v = View { first_mip: 1, mip_levels: 2, ..View::whole(Dim::Tex2D, &g) };
    let s = sampler(POINT, CLAMP);
    // The view's mip 0 is 8×8: ddx 1/8 is one texel, LOD 0.
    assert_eq!(at_lod(&g, &v, &s, grad(1.0 / 8.0)), 1.0);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(1.0)), 2.0);
    assert_eq!(at_lod(&g, &v, &s, Lod::Level(3.0)), 2.0, "the view has 2 mips");
    // ResourceMinLODClamp counts in the resource's mips.
    let c = View { min_lod_clamp: 2.0, ..v };
    assert_eq!(at_lod(&g, &c, &s, Lod::Level(0.0)), 2.0);
}

#[test]
fn lod_at_or_below_zero_magnifies_above_minifies() {
    // MIN_POINT_MAG_LINEAR_MIP_POINT on a ramp: linear at LOD 0, point at LOD 0.25.
    let g = red(4, 1, |x, _| x as f32);
    let v = View::whole(Dim::Tex2D, &g);
    let s = sampler(0x04, CLAMP);
    let r = |l| sample(&g, &v, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], Lod::Level(l), None)[0];
    assert_eq!(r(0.0), 1.5);
    assert_eq!(r(-1.0), 1.5);
    assert_eq!(r(0.25), 2.0);
    // Below 1/512 the LOD snaps to 0: still magnified.
    assert_eq!(r(0.001), 1.5);
    assert_eq!(r(0.003), 2.0);
}

#[test]
fn anisotropic_filters_as_trilinear() {
    let s = sampler(0x55, CLAMP);
    assert!(s.anisotropic && s.min_linear && s.mag_linear && s.mip_linear);
    let g = mip_chain();
    assert_eq!(at_lod(&g, &View::whole(Dim::Tex2D, &g), &s, Lod::Level(2.5)), 2.5);
    let c = sampler(0xd5, CLAMP);
    assert_eq!(c.reduction, Reduction::Comparison);
    assert!(c.anisotropic);
}

#[test]
fn anisotropic_footprint_follows_the_specs_formulas() {
    // 4 texels along u per pixel, 1 along v: ratio 4, minor axis 1 texel, LOD 0.
    let a = anisotropic_footprint([4.0, 0.0], [0.0, 1.0], 16);
    assert_eq!(a, Anisotropy { lod: 0.0, ratio: 4.0, major: [4.0, 0.0] });
    // MaxAnisotropy 2 clamps the ratio; the minor axis becomes major / 2: LOD 1.
    let b = anisotropic_footprint([4.0, 0.0], [0.0, 1.0], 2);
    assert_eq!(b, Anisotropy { lod: 1.0, ratio: 2.0, major: [4.0, 0.0] });
    // The major axis is the longer derivative, here ddy.
    assert_eq!(anisotropic_footprint([0.0, 2.0], [8.0, 0.0], 16).major, [8.0, 0.0]);
    // A minor axis under a texel shrinks the ratio and keeps its negative LOD.
    let c = anisotropic_footprint([2.0, 0.0], [0.0, 0.5], 16);
    assert_eq!((c.lod, c.ratio), (-1.0, 2.0));
    // Parallel derivatives have no area: the ratio clamps to MaxAnisotropy (0 counts as 1).
    let d = anisotropic_footprint([4.0, 0.0], [2.0, 0.0], 0);
    assert_eq!((d.lod, d.ratio), (2.0, 1.0));
    assert_eq!(anisotropic_footprint([0.0; 2], [0.0; 2], 16).lod, f32::NEG_INFINITY);
}

#[test]
fn anisotropic_sampling_takes_the_minor_axis_lod_and_taps_along_the_major_axis() {
    let mut s = sampler(0x55, CLAMP);
    s.max_anisotropy = 16;
    let d = Lod::Derivatives { ddx: [4.0 / 16.0, 0.0, 0.0], ddy: [0.0, 1.0 / 16.0, 0.0], bias: 0.0, clamp: 0.0 };
    // Isotropic filtering would read mip 2; the minor axis is one texel: mip 0.
    let g = mip_chain();
    let v = View::whole(Dim::Tex2D, &g);
    assert_eq!(sample(&g, &v, &s, [0.5; 4], [0; 3], d, None)[0], 0.0);
    assert_eq!(sample(&g, &v, &sampler(LINEAR, CLAMP), [0.5; 4], [0; 3], d, None)[0], 2.0);
    assert_eq!(calculate_lod(&g, &v, &s, [0.5; 4], [4.0 / 16.0, 0.0, 0.0], [0.0, 1.0 / 16.0, 0.0]), (0.0, 0.0));
    // Four taps at -1.5, -0.5, 0.5 and 1.5 texels from u = 8 land on texel centers 6..9 of a
    // ramp R = x: their mean, minimum and maximum.
    let ramp = grid((16, 16, 1), 1, 1, |x, _, _, _, _| [x as f32, 0.0, 0.0, 1.0]);
    let rv = View::whole(Dim::Tex2D, &ramp);
    let at = |s: &Sampler| sample(&ramp, &rv, s, [0.5, 8.5 / 16.0, 0.0, 0.0], [0; 3], d, None)[0];
    assert_eq!(at(&s), 7.5);
    assert_eq!(at(&Sampler { reduction: Reduction::Minimum, ..s }), 6.0);
    assert_eq!(at(&Sampler { reduction: Reduction::Maximum, ..s }), 9.0);
    // Explicit LODs and cubes stay trilinear.
    assert_eq!(sample(&g, &v, &s, [0.5; 4], [0; 3], Lod::Level(2.0), None)[0], 2.0);
}

#[test]
fn filter_bits_select_min_mag_mip_and_reduction() {
    let s = sampler(0x94, CLAMP); // COMPARISON_MIN_MAG_LINEAR_MIP_POINT
    assert!(s.min_linear && s.mag_linear && !s.mip_linear);
    assert_eq!(s.reduction, Reduction::Comparison);
    let s = sampler(0x101, CLAMP); // MINIMUM_MIN_MAG_POINT_MIP_LINEAR
    assert!(!s.min_linear && !s.mag_linear && s.mip_linear);
    assert_eq!(s.reduction, Reduction::Minimum);
    assert_eq!(sampler(0x190, CLAMP).reduction, Reduction::Maximum);
    let s = sampler(0x10, CLAMP);
    assert!(s.min_linear && !s.mag_linear && !s.mip_linear);
}

#[test]
fn comparison_filtering_compares_each_tap_then_filters() {
    // R = 0.2, 0.6: with LESS, ref 0.4 passes only against 0.6.
    let g = red(2, 1, |x, _| if x == 0 { 0.2 } else { 0.6 });
    let v = View::whole(Dim::Tex2D, &g);
    let mut s = sampler(0x95, CLAMP);
    s.comparison_func = 2; // LESS
    let c = |s: &Sampler, u: f32, r: f32| sample(&g, &v, s, [u, 0.5, 0.0, 0.0], [0; 3], Lod::Level(0.0), Some(r));
    assert_eq!(c(&s, 0.5, 0.4), [0.5; 4], "halfway: one of two taps passes, replicated");
    assert_eq!(c(&s, 0.25, 0.4), [0.0; 4]);
    assert_eq!(c(&s, 0.75, 0.4), [1.0; 4]);
    assert_eq!(c(&s, 0.375, 0.4), [0.25; 4]);
    assert_eq!(c(&s, 0.5, 0.1), [1.0; 4]);
    assert_eq!(c(&s, 0.5, 0.6), [0.0; 4], "LESS fails on equality");
    s.comparison_func = 7; // GREATER_EQUAL
    assert_eq!(c(&s, 0.5, 0.6), [1.0; 4]);
    // Off the texture the border's red is compared.
    let mut b = sampler(0x80, BORDER);
    b.comparison_func = 2;
    b.border = [1.0, 0.0, 0.0, 0.0];
    assert_eq!(c(&b, -1.0, 0.5), [1.0; 4]);
}

#[test]
fn comparison_reference_is_quantized_and_clamped_to_the_format() {
    let bytes = 0xffffu16.to_le_bytes();
    let t = bytes_texture(&bytes, sys::DXGI_FORMAT_R16_UNORM, (1, 1, 1), &ONE_ROW);
    let v = View::whole(Dim::Tex2D, &t);
    let mut s = sampler(0x80, CLAMP);
    // LESS_EQUAL: 1.5 clamps to 1.0, which is <= the texel's 1.0.
    s.comparison_func = 4;
    assert_eq!(sample(&t, &v, &s, [0.5; 4], [0; 3], Lod::Level(0.0), Some(1.5))[0], 1.0);
    // EQUAL: 0.999995 quantizes to 65535/65535, 0.99999 to 65534/65535.
    s.comparison_func = 3;
    assert_eq!(sample(&t, &v, &s, [0.5; 4], [0; 3], Lod::Level(0.0), Some(0.999995))[0], 1.0);
    assert_eq!(sample(&t, &v, &s, [0.5; 4], [0; 3], Lod::Level(0.0), Some(0.99999))[0], 0.0);
}

#[test]
fn min_max_reduction_takes_the_extremes_of_weighted_taps() {
    let g = grid((2, 2, 1), 1, 1, |x, y, _, _, _| [(x + 2 * y) as f32, 3.0 - (x + 2 * y) as f32, 5.0, 1.0]);
    let v = View::whole(Dim::Tex2D, &g);
    let s = |f| sampler(f, CLAMP);
    let at = |f, u, v2| sample(&g, &v, &s(f), [u, v2, 0.0, 0.0], [0; 3], Lod::Level(0.0), None);
    // Center: all four taps, per component.
    assert_eq!(at(0x114, 0.5, 0.5), [0.0, 0.0, 5.0, 1.0]);
    assert_eq!(at(0x194, 0.5, 0.5), [3.0, 3.0, 5.0, 1.0]);
    // At texel (1, 0)'s center the others weigh 0 and do not count.
    assert_eq!(at(0x114, 0.75, 0.25), [1.0, 2.0, 5.0, 1.0]);
    assert_eq!(at(0x194, 0.75, 0.25), [1.0, 2.0, 5.0, 1.0]);
    // Between two texels in x only.
    assert_eq!(at(0x194, 0.5, 0.75), [3.0, 1.0, 5.0, 1.0]);
}

#[test]
fn min_max_reduction_spans_both_mips_of_mip_linear() {
    let g = mip_chain();
    let v = View::whole(Dim::Tex2D, &g);
    assert_eq!(at_lod(&g, &v, &sampler(0x115, CLAMP), Lod::Level(2.5)), 2.0);
    assert_eq!(at_lod(&g, &v, &sampler(0x195, CLAMP), Lod::Level(2.5)), 3.0);
    assert_eq!(at_lod(&g, &v, &sampler(0x195, CLAMP), Lod::Level(2.0)), 2.0, "zero weight on mip 3");
}

#[test]
fn immediate_offsets_move_in_texel_space_then_address() {
    let g = red(4, 1, |x, _| x as f32);
    let v = View::whole(Dim::Tex2D, &g);
    let o = |mode, off: i32| {
        sample(&g, &v, &sampler(POINT, mode), [0.125, 0.5, 0.0, 0.0], [off, 0, 0], Lod::Level(0.0), None)[0]
    };
    assert_eq!(o(CLAMP, 1), 1.0);
    assert_eq!(o(CLAMP, 7), 3.0);
    assert_eq!(o(CLAMP, -1), 0.0);
    assert_eq!(o(WRAP, -1), 3.0);
    assert_eq!(o(WRAP, -8), 0.0);
}

#[test]
fn array_index_rounds_to_nearest_even_and_clamps_to_the_view() {
    let g = grid((1, 1, 1), 1, 4, |_, _, _, _, slice| [slice as f32, 0.0, 0.0, 1.0]);
    let s = sampler(POINT, CLAMP);
    let v = View::whole(Dim::Tex2DArray, &g);
    let r = |v: &View, i: f32| sample(&g, v, &s, [0.5, 0.5, i, 0.0], [0; 3], Lod::Level(0.0), None)[0];
    assert_eq!([1.4, 1.5, 2.5, 7.0, -3.0].map(|i| r(&v, i)), [1.0, 2.0, 2.0, 3.0, 0.0]);
    let sub = View { first_slice: 1, array_size: 2, ..v };
    assert_eq!([0.0, 1.0, 5.0].map(|i| r(&sub, i)), [1.0, 2.0, 2.0]);
    // 1D arrays take the index from the second coordinate.
    let g1 = grid((2, 1, 1), 1, 3, |x, _, _, _, slice| [(10 * slice + x) as f32, 0.0, 0.0, 1.0]);
    let v1 = View::whole(Dim::Tex1DArray, &g1);
    let x = sample(&g1, &v1, &s, [0.75, 2.0, 0.0, 0.0], [0; 3], Lod::Level(0.0), None);
    assert_eq!(x[0], 21.0);
}

#[test]
fn volume_textures_filter_across_depth() {
    let g = grid((2, 2, 2), 1, 1, |_, _, z, _, _| [z as f32, 0.0, 0.0, 1.0]);
    let v = View::whole(Dim::Tex3D, &g);
    let r = |f, w| sample(&g, &v, &sampler(f, CLAMP), [0.5, 0.5, w, 0.0], [0; 3], Lod::Level(0.0), None)[0];
    assert_eq!(r(LINEAR, 0.5), 0.5);
    assert_eq!(r(LINEAR, 0.375), 0.25);
    assert_eq!(r(POINT, 0.75), 1.0);
    // A 3D texture's LOD counts depth texels too.
    let d = Lod::Derivatives { ddx: [0.0, 0.0, 1.0], ddy: [0.0; 3], bias: 0.0, clamp: 0.0 };
    assert_eq!(lod(&g, &v, &sampler(POINT, CLAMP), [0.0; 4], d), 1.0);
}

#[test]
fn cube_face_is_the_major_axis() {
    let faces =
        [[1.0, 0.0, 0.0], [-1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, -1.0]];
    for (i, d) in faces.into_iter().enumerate() {
        assert_eq!(cube_face(d), CubeFace { face: i as u32, u: 0.5, v: 0.5 }, "{d:?}");
        assert_eq!(cube_face(d.map(|c| c * 7.0)).face, i as u32);
    }
    // Ties go to Z, then Y.
    assert_eq!(cube_face([1.0, 1.0, 1.0]).face, 4);
    assert_eq!(cube_face([-1.0, 1.0, -1.0]).face, 5);
    assert_eq!(cube_face([1.0, -1.0, 0.5]).face, 3);
}

#[test]
fn degenerate_cube_directions_pick_a_face_inside_it() {
    // Found by the fuzzing property: a NaN component once made a face coordinate huge.
    let f = cube_face([f32::NAN, 0.0, 9.259165e27]);
    assert_eq!((f.face, f.u, f.v), (4, 0.5, 0.5));
    assert_eq!(cube_face([0.0; 3]), CubeFace { face: 4, u: 0.5, v: 0.5 });
    let inf = cube_face([f32::INFINITY, f32::INFINITY, 1.0]);
    assert!((0.0..=1.0).contains(&inf.u) && (0.0..=1.0).contains(&inf.v));
}

#[test]
fn filtered_comparisons_stay_within_0_and_1() {
    // Found by the fuzzing property: six anisotropic taps' weights summed past 1.
    let g = grid((8, 4, 1), 3, 1, |x, y, _, m, _| [(x + y + m) as f32, 1.0, 0.5, 1.0]);
    let mut s = sampler(0x152, BORDER);
    s.max_anisotropy = 6;
    let d = Lod::Derivatives { ddx: [0.0; 3], ddy: [8.5e9, 0.0, 0.0], bias: 2.3e-35, clamp: 0.0 };
    let r = sample(&g, &View::whole(Dim::Tex2D, &g), &s, [0.0; 4], [0; 3], d, Some(2.3e-35));
    assert!(r.iter().all(|v| (0.0..=1.0).contains(v)), "{r:?}");
}

#[test]
fn cube_face_coordinates_follow_texturecube_space() {
    // (sc, tc) per face: +X (-z, -y), -X (z, -y), +Y (x, z), -Y (x, -z), +Z (x, -y), -Z (-x, -y).
    let uv = |d: [f32; 3]| {
        let f = cube_face(d);
        (f.face, f.u, f.v)
    };
    assert_eq!(uv([2.0, 1.0, -1.0]), (0, 0.75, 0.25));
    assert_eq!(uv([-2.0, 1.0, -1.0]), (1, 0.25, 0.25));
    assert_eq!(uv([1.0, 2.0, -1.0]), (2, 0.75, 0.25));
    assert_eq!(uv([1.0, -2.0, -1.0]), (3, 0.75, 0.75));
    assert_eq!(uv([1.0, 1.0, 2.0]), (4, 0.75, 0.25));
    assert_eq!(uv([1.0, 1.0, -2.0]), (5, 0.25, 0.25));
}

/// A cube array of `cubes` 4×4 cubes with mips; R = 10·cube + face + 1 + 100·mip.
fn cubes(cubes: u32, mips: u32) -> Grid {
    grid((4, 4, 1), mips, 6 * cubes, |_, _, _, mip, slice| {
        [(10 * (slice / 6) + slice % 6 + 1 + 100 * mip) as f32, 0.0, 0.0, 1.0]
    })
}

#[test]
fn cube_sampling_reads_the_selected_face_of_the_selected_cube() {
    let g = cubes(2, 1);
    let v = View::whole(Dim::CubeArray, &g);
    let s = sampler(LINEAR, WRAP);
    let r = |d: [f32; 3], cube: f32| sample(&g, &v, &s, [d[0], d[1], d[2], cube], [0; 3], Lod::Level(0.0), None)[0];
    assert_eq!(r([0.0, -3.0, 0.1], 0.0), 4.0);
    assert_eq!(r([0.0, 0.0, -1.0], 1.0), 16.0);
    assert_eq!(r([0.0, 0.0, -1.0], 9.0), 16.0, "cube index clamped");
    let one = View { dim: Dim::Cube, array_size: 6, first_slice: 6, ..v };
    assert_eq!(sample(&g, &one, &s, [1.0, 0.0, 0.0, 0.0], [0; 3], Lod::Level(0.0), None)[0], 11.0);
}

#[test]
fn cube_texels_off_an_edge_come_from_the_adjacent_face() {
    // +X's right edge (sc = 1, z = -1) meets -Z's left edge (sc = -x = -1).
    assert_eq!(cube_texel(0, 4, 1, 4), Some((5, 0, 1)));
    // +X's left edge (z = +1) meets +Z's right edge.
    assert_eq!(cube_texel(0, -1, 2, 4), Some((4, 3, 2)));
    // +X's top (tc = -1, y = +1) meets +Y's right column (x = 1), rows running with z.
    assert_eq!(cube_texel(0, 0, -1, 4), Some((2, 3, 3)));
    // +Z's bottom (y = -1) meets -Y's top row (tc = -z = -1).
    assert_eq!(cube_texel(4, 1, 4, 4), Some((3, 1, 0)));
    assert_eq!(cube_texel(0, 4, 4, 4), None, "a corner has no fourth texel");
    assert_eq!(cube_texel(2, 1, 2, 4), Some((2, 1, 2)));
}

#[test]
fn cube_seams_pair_every_edge_texel_with_one_neighbouring_edge_texel() {
    for n in 1..=5u32 {
        for face in 0..6u32 {
            let n64 = i64::from(n);
            let mut off_edge = Vec::new();
            for k in 0..n64 {
                off_edge.extend([(-1, k), (n64, k), (k, -1), (k, n64)]);
            }
            let mut hit = std::collections::BTreeSet::new();
            let mut faces = std::collections::BTreeSet::new();
            for (i, j) in off_edge {
                let (f, x, y) = cube_texel(face, i, j, n).expect("an edge neighbour exists");
                assert!(f / 2 != face / 2, "face {face} -> {f}: neither itself nor its opposite");
                assert!(x == 0 || y == 0 || x == n - 1 || y == n - 1, "lands on an edge");
                hit.insert((f, x, y));
                faces.insert(f);
                // Stepping back across the seam from the neighbour returns to this face.
                let back = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                    .into_iter()
                    .filter_map(|(di, dj)| cube_texel(f, i64::from(x) + di, i64::from(y) + dj, n))
                    .any(|(bf, bx, by)| {
                        bf == face && (i64::from(bx), i64::from(by)) == (i.clamp(0, n64 - 1), j.clamp(0, n64 - 1))
                    });
                assert!(back, "n {n} face {face} ({i}, {j}) -> ({f}, {x}, {y}) does not lead back");
            }
            assert_eq!(faces.len(), 4, "the four neighbours of face {face}");
            if n > 1 {
                assert_eq!(hit.len(), 4 * n as usize, "distinct texels for n {n}");
            }
        }
    }
}

#[test]
fn cube_bilinear_spills_over_edges_and_shares_a_missing_corner() {
    let g = cubes(1, 1);
    let v = View::whole(Dim::Cube, &g);
    let s = sampler(LINEAR, CLAMP);
    let r = |d: [f32; 3]| sample(&g, &v, &s, [d[0], d[1], d[2], 0.0], [0; 3], Lod::Level(0.0), None)[0];
    // sc = 0.875: scaled 3.75 - 0.5 = 3.25, a quarter into -Z (face value 6); v at a center.
    assert_eq!(r([1.0, -0.25, -0.875]), 0.75 * 1.0 + 0.25 * 6.0);
    // Both sc and tc = 0.875 on +X: taps +X, -Z, -Y and the missing corner, whose 1/16 is
    // shared by the three.
    let want = 9.0 / 16.0 * 1.0 + 3.0 / 16.0 * 6.0 + 3.0 / 16.0 * 4.0 + 1.0 / 48.0 * (1.0 + 6.0 + 4.0);
    assert!((r([1.0, -0.875, -0.875]) - want).abs() < 1e-6);
}

#[test]
fn cube_lod_uses_face_derivatives_at_half_scale() {
    let g = grid((16, 16, 1), 5, 6, |_, _, _, mip, _| [mip as f32, 0.0, 0.0, 1.0]);
    let v = View::whole(Dim::Cube, &g);
    let s = sampler(POINT, CLAMP);
    let d = |ddx: [f32; 3]| Lod::Derivatives { ddx, ddy: [0.0; 3], bias: 0.0, clamp: 0.0 };
    // On +X at its center, dz = 1/4 is d(sc) = -1/4: 1/8 of the face's [-1, 1], 2 texels.
    assert_eq!(lod(&g, &v, &s, [1.0, 0.0, 0.0, 0.0], d([0.0, 0.0, 0.25])), 1.0);
    assert_eq!(lod(&g, &v, &s, [-1.0, 0.0, 0.0, 0.0], d([0.0, 0.25, 0.0])), 1.0);
    // Moving along the major axis at the face center changes nothing: LOD −∞, then MinLOD.
    assert_eq!(lod(&g, &v, &s, [0.0, 0.0, -1.0, 0.0], d([0.0, 0.0, 0.25])), 0.0);
    // Off center, moving away along the major axis shrinks the face coordinate.
    assert_eq!(lod(&g, &v, &s, [0.0, 0.5, -1.0, 0.0], d([0.0, 0.0, -0.5])), 1.0);
    assert_eq!(sample(&g, &v, &s, [1.0, 0.0, 0.0, 0.0], [0; 3], d([0.0, 0.0, 0.5]), None)[0], 2.0);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    #[test]
    fn addressed_texels_stay_inside_the_mip(mode in 1u32..=5, t in -100_000i64..100_000, n in 1u32..64) {
        match address(mode, t, n) {
            Some(v) => proptest::prop_assert!(v < n),
            None => proptest::prop_assert!(mode == BORDER && !(0..i64::from(n)).contains(&t)),
        }
    }

    #[test]
    fn wrap_and_mirror_are_periodic(t in -1000i64..1000, n in 1u32..32, k in -5i64..5) {
        let n64 = i64::from(n);
        proptest::prop_assert_eq!(address(WRAP, t, n), address(WRAP, t + k * n64, n));
        proptest::prop_assert_eq!(address(MIRROR, t, n), address(MIRROR, t + 2 * k * n64, n));
        proptest::prop_assert_eq!(address(MIRROR, t, n), address(MIRROR, -t - 1, n));
    }

    #[test]
    fn filtering_a_constant_texture_gives_the_constant(
        u in -3.0f32..3.0, v in -3.0f32..3.0, mode in 1u32..=5, filter in 0u32..0x20, level in -2.0f32..6.0,
    ) {
        let g = grid((8, 4, 1), 4, 1, |_, _, _, _, _| [0.25, 0.5, 0.75, 1.0]);
        let mut s = sampler(filter & 0x15, mode);
        s.border = [0.25, 0.5, 0.75, 1.0];
        let r = sample(&g, &View::whole(Dim::Tex2D, &g), &s, [u, v, 0.0, 0.0], [0; 3], Lod::Level(level), None);
        for (c, want) in r.into_iter().zip([0.25, 0.5, 0.75, 1.0]) {
            proptest::prop_assert!((c - want).abs() < 1e-6, "{:?}", r);
        }
    }

    #[test]
    fn filtered_values_lie_between_the_extremes(u in -2.0f32..2.0, v in -2.0f32..2.0, level in -1.0f32..4.0, seed in 0u32..1000) {
        let g = grid((8, 8, 1), 4, 1, |x, y, _, m, _| [((x * 7 + y * 13 + m * 5 + seed) % 17) as f32, 0.0, 0.0, 1.0]);
        let view = View::whole(Dim::Tex2D, &g);
        let at = |f| sample(&g, &view, &sampler(f, WRAP), [u, v, 0.0, 0.0], [0; 3], Lod::Level(level), None)[0];
        let (lo, hi, mid) = (at(0x115), at(0x195), at(0x15));
        proptest::prop_assert!(lo <= mid + 1e-4 && mid <= hi + 1e-4, "{} {} {}", lo, mid, hi);
        proptest::prop_assert!((0.0..=16.0).contains(&lo) && (0.0..=16.0).contains(&hi));
    }

    /// Shaders pass anything: NaN, infinities, huge values, any sampler state. No input
    /// panics (overflow included), and results stay finite for finite textures.
    #[test]
    fn any_input_samples_without_panicking(
        coords in proptest::array::uniform4(proptest::num::f32::ANY),
        ddx in proptest::array::uniform3(proptest::num::f32::ANY),
        ddy in proptest::array::uniform3(proptest::num::f32::ANY),
        level in proptest::num::f32::ANY,
        offset in proptest::array::uniform3(-8i32..8),
        filter in 0u32..0x200,
        address in 0u32..7,
        max_aniso in 0u32..17,
        dim in 0usize..7,
    ) {
        let g = grid((8, 4, 2), 3, 1, |x, y, z, m, _| [(x + y + z + m) as f32, 1.0, 0.5, 1.0]);
        let cubes = grid((4, 4, 1), 3, 12, |x, y, _, m, sl| [(x + y + m + sl) as f32, 0.0, 0.0, 1.0]);
        let dims = [Dim::Tex1D, Dim::Tex1DArray, Dim::Tex2D, Dim::Tex2DArray, Dim::Tex3D, Dim::Cube, Dim::CubeArray];
        let dim = dims[dim];
        let t: &Grid = if matches!(dim, Dim::Cube | Dim::CubeArray) { &cubes } else { &g };
        let view = View::whole(dim, t);
        let mut s = sampler(filter, address);
        s.max_anisotropy = max_aniso;
        s.comparison_func = filter % 9;
        for mode in [Lod::Level(level), Lod::Derivatives { ddx, ddy, bias: level, clamp: 0.0 }] {
            let r = sample(t, &view, &s, coords, offset, mode, None);
            proptest::prop_assert!(r.iter().all(|v| v.is_finite()), "{:?}", r);
            let c = sample(t, &view, &s, coords, offset, mode, Some(level));
            proptest::prop_assert!(c.iter().all(|v| (0.0..=1.0).contains(v)), "{:?}", c);
        }
        let _ = gather(t, &view, &s, coords, offset, 1, None);
        let _ = calculate_lod(t, &view, &s, coords, ddx, ddy);
        let xyz = coords.map(|c| c as i32);
        let _ = load(t, &view, [xyz[0], xyz[1], xyz[2]], level as u32, offset);
    }

    #[test]
    fn cube_faces_round_trip_through_their_directions(x in -1.0f32..1.0, y in -1.0f32..1.0, z in -1.0f32..1.0) {
        proptest::prop_assume!(x.abs().max(y.abs()).max(z.abs()) > 1e-3);
        let f = cube_face([x, y, z]);
        proptest::prop_assert!((0.0..=1.0).contains(&f.u) && (0.0..=1.0).contains(&f.v));
        let d = cube_direction(f.face, f64::from(f.u) * 2.0 - 1.0, f64::from(f.v) * 2.0 - 1.0);
        let back = cube_face(d.map(|c| c as f32));
        proptest::prop_assert_eq!(back.face, f.face);
        proptest::prop_assert!((back.u - f.u).abs() < 1e-5 && (back.v - f.v).abs() < 1e-5);
    }
}

#[test]
fn comparison_flushes_denormals() {
    let tiny = f32::from_bits(1);
    assert_eq!(compare_texel(3, 0.0, tiny), 1.0, "EQUAL: a denormal texel is 0");
    assert_eq!(compare_texel(2, tiny, 0.0), 0.0, "LESS: a denormal reference is 0");
    assert_eq!(compare_texel(2, 0.0, f32::NAN), 0.0, "NaN compares false");
}

#[test]
fn gather_returns_the_bilinear_footprint_counter_clockwise_from_lower_left() {
    let g = grid((4, 4, 1), 1, 1, |x, y, _, _, _| [(x + 10 * y) as f32, 100.0 + (x + 10 * y) as f32, 0.0, 1.0]);
    let v = View::whole(Dim::Tex2D, &g);
    let s = sampler(POINT, CLAMP);
    // Scaled (2, 2): footprint texels (1, 1) to (2, 2).
    assert_eq!(gather(&g, &v, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], 0, None), [21.0, 22.0, 12.0, 11.0]);
    assert_eq!(gather(&g, &v, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], 1, None), [121.0, 122.0, 112.0, 111.0]);
    assert_eq!(gather(&g, &v, &s, [0.5, 0.5, 0.0, 0.0], [1, -1, 0], 0, None), [12.0, 13.0, 3.0, 2.0]);
    // At the corner the address mode applies to each texel.
    assert_eq!(gather(&g, &v, &sampler(POINT, WRAP), [0.0, 0.0, 0.0, 0.0], [0; 3], 0, None), [3.0, 0.0, 30.0, 33.0]);
    let mut c = sampler(0x80, CLAMP);
    c.comparison_func = 2; // LESS
    assert_eq!(gather(&g, &v, &c, [0.5, 0.5, 0.0, 0.0], [0; 3], 0, Some(15.0)), [1.0, 1.0, 0.0, 0.0]);
}

#[test]
fn gather_on_a_cube_reads_across_edges() {
    let g = cubes(1, 1);
    let v = View::whole(Dim::Cube, &g);
    // On +X at sc = 0.875, v at 0.5: texels 3 and 4 (the latter on -Z) in columns.
    let r = gather(&g, &v, &sampler(POINT, CLAMP), [1.0, 0.0, -0.875, 0.0], [0; 3], 0, None);
    assert_eq!(r, [1.0, 6.0, 6.0, 1.0]);
}

#[test]
fn gather_synthesizes_a_cube_corner_as_the_average_of_three() {
    let g = cubes(1, 1);
    let v = View::whole(Dim::Cube, &g);
    // On +X at sc = tc = 0.875 the footprint is +X (1), -Z (6), -Y (4) and the corner.
    let r = gather(&g, &v, &sampler(POINT, CLAMP), [1.0, -0.875, -0.875, 0.0], [0; 3], 0, None);
    assert_eq!(r, [4.0, 11.0 / 3.0, 6.0, 1.0]);
    // GatherCmp synthesizes after comparing: 1 of 3 below 2 (LESS: 2 < texel fails for 1).
    let mut c = sampler(0x80, CLAMP);
    c.comparison_func = 2;
    let r = gather(&g, &v, &c, [1.0, -0.875, -0.875, 0.0], [0; 3], 0, Some(2.0));
    assert_eq!(r, [1.0, 2.0 / 3.0, 1.0, 0.0]);
}

#[test]
fn min_lod_clamps_past_the_last_mip_read_zero() {
    let g = mip_chain();
    let v = View { mip_levels: 3, ..View::whole(Dim::Tex2D, &g) };
    let s = sampler(POINT, CLAMP);
    let clamp = |c| Lod::Derivatives { ddx: [0.0; 3], ddy: [0.0; 3], bias: 0.0, clamp: c };
    assert_eq!(sample(&g, &v, &s, [0.5; 4], [0; 3], clamp(2.0), None), [2.0, 0.0, 0.0, 1.0]);
    assert_eq!(sample(&g, &v, &s, [0.5; 4], [0; 3], clamp(2.5), None), [0.0; 4]);
    let r = View { min_lod_clamp: 2.5, ..v };
    assert_eq!(sample(&g, &r, &s, [0.5; 4], [0; 3], Lod::Level(0.0), None), [0.0; 4]);
    // The sampler's own MinLOD past the end just clamps to the last mip.
    let m = Sampler { min_lod: 9.0, ..s };
    assert_eq!(sample(&g, &v, &m, [0.5; 4], [0; 3], Lod::Level(0.0), None)[0], 2.0);
}

#[test]
fn load_reads_texels_of_the_views_mips_and_slices() {
    let g =
        grid((4, 4, 1), 3, 3, |x, y, _, mip, slice| [(x + 10 * y + 100 * mip + 1000 * slice) as f32, 0.0, 0.0, 1.0]);
    let v = View { first_mip: 1, mip_levels: 2, first_slice: 1, array_size: 2, ..View::whole(Dim::Tex2DArray, &g) };
    let l = |xyz, mip, off| f32::from_bits(load(&g, &v, xyz, mip, off)[0]);
    assert_eq!(l([1, 1, 0], 0, [0; 3]), 1111.0);
    assert_eq!(l([0, 0, 1], 1, [0; 3]), 2200.0);
    assert_eq!(l([0, 0, 1], 0, [1, 1, 0]), 2111.0, "offsets, not on the array axis");
    assert_eq!(l([2, 0, 0], 0, [0; 3]), 0.0, "x past the 2×2 mip");
    assert_eq!(l([-1, 0, 0], 0, [0; 3]), 0.0);
    assert_eq!(l([0, 0, 2], 0, [0; 3]), 0.0, "slice past the view");
    assert_eq!(l([0, 0, 0], 2, [0; 3]), 0.0, "mip past the view");
    let v3 = grid((2, 2, 2), 1, 1, |x, y, z, _, _| [(x + 2 * y + 4 * z) as f32, 0.0, 0.0, 1.0]);
    assert_eq!(f32::from_bits(load(&v3, &View::whole(Dim::Tex3D, &v3), [1, 0, 1], 0, [0; 3])[0]), 5.0);
}

#[test]
fn load_out_of_range_gives_zero_in_the_formats_components_and_defaults_elsewhere() {
    let bytes = [0xffu8; 16];
    let one = 1.0f32.to_bits();
    for (format, inside, outside) in [
        (sys::DXGI_FORMAT_R8_UNORM, [one, 0, 0, one], [0, 0, 0, one]),
        (sys::DXGI_FORMAT_R8G8B8A8_UNORM, [one; 4], [0; 4]),
        (sys::DXGI_FORMAT_R32_UINT, [u32::MAX, 0, 0, 1], [0, 0, 0, 1]),
        (sys::DXGI_FORMAT_R16G16_SINT, [u32::MAX, u32::MAX, 0, 1], [0, 0, 0, 1]),
    ] {
        let t = bytes_texture(&bytes, format, (1, 1, 1), &ONE_ROW);
        let v = View::whole(Dim::Tex2D, &t);
        assert_eq!(load(&t, &v, [0, 0, 0], 0, [0; 3]), inside, "{format:?}");
        assert_eq!(load(&t, &v, [1, 0, 0], 0, [0; 3]), outside, "{format:?}");
        assert_eq!(t.zero().map(f32::to_bits)[3], if outside[3] == 0 { 0 } else { one }, "{format:?}");
    }
}

#[test]
fn memory_texels_follow_pitches_subresources_and_the_format() {
    // A 2×2 RGBA8 texture, 2 mips, 2 slices: rows padded to 16 bytes.
    let mut bytes = vec![0u8; 256];
    let subs = [
        SubresourceBytes { offset: 0, row_pitch: 16, depth_pitch: 32 },
        SubresourceBytes { offset: 32, row_pitch: 16, depth_pitch: 16 },
        SubresourceBytes { offset: 64, row_pitch: 16, depth_pitch: 32 },
        SubresourceBytes { offset: 96, row_pitch: 16, depth_pitch: 16 },
    ];
    bytes[16 + 4..16 + 8].copy_from_slice(&[255, 0, 51, 255]); // mip 0 slice 0 (1, 1)
    bytes[96..100].copy_from_slice(&[0, 255, 0, 0]); // mip 1 slice 1
    let t = MemoryTexels {
        bytes: &bytes,
        format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
        size: (2, 2, 1),
        mips: 2,
        array_size: 2,
        subresources: &subs,
    };
    assert_eq!(t.dims(1), (1, 1, 1));
    assert_eq!(t.fetch(1, 1, 0, 0), Some([1.0, 0.0, 0.2, 1.0]));
    assert_eq!(t.fetch(0, 0, 1, 1), Some([0.0, 1.0, 0.0, 0.0]));
    assert_eq!(t.fetch(2, 0, 0, 0), None);
    assert_eq!(t.fetch(0, 0, 2, 0), None);
    assert_eq!(t.fetch(0, 0, 0, 2), None);
    // 3D: z is depth, through the depth pitch.
    let mut vol = vec![0u8; 64];
    vol[32..36].copy_from_slice(&[0, 0, 255, 0]);
    let subs3 = [SubresourceBytes { offset: 0, row_pitch: 16, depth_pitch: 32 }];
    let t3 = MemoryTexels { size: (2, 2, 2), mips: 1, array_size: 1, bytes: &vol, subresources: &subs3, ..t };
    assert_eq!(t3.fetch(0, 0, 1, 0), Some([0.0, 0.0, 1.0, 0.0]));
    // Video formats are not decoded.
    let video = MemoryTexels { format: sys::DXGI_FORMAT_NV12, ..t };
    assert_eq!(video.fetch(0, 0, 0, 0), None);
}

#[test]
fn component_mapping_selects_sources_and_forced_values() {
    let rgba = [1.0, 2.0, 3.0, 4.0];
    let identity = rd3d12_core::descriptor::DEFAULT_SHADER_4_COMPONENT_MAPPING;
    assert_eq!(apply_mapping(identity, rgba, 0.0, 1.0), rgba);
    // (B, R, FORCE_0, FORCE_1) encoded as D3D12_ENCODE_SHADER_4_COMPONENT_MAPPING does.
    let encode = |s: [u32; 4]| s[0] | s[1] << 3 | s[2] << 6 | s[3] << 9 | 1 << 12;
    let m = encode([2, 0, 4, 5]);
    assert_eq!(apply_mapping(m, rgba, 0.0, 1.0), [3.0, 1.0, 0.0, 1.0]);
    assert_eq!(apply_mapping(m, [7u32, 8, 9, 10], 0, 1), [9, 7, 0, 1]);
    assert_eq!([0, 1, 2, 3].map(|c| mapping_source(m, c)), [2, 0, 4, 5]);
}

#[test]
fn memory_texels_decode_bc_blocks_by_block_rows_within_the_virtual_size() {
    // A 6×6 BC4 mip: 2×2 blocks of 8 bytes, block rows 16 bytes apart. Block (1, 1) holds
    // r0 = 255, r1 = 0 with every code 1 (0.0) except texel (1, 0) of the block, code 0.
    let mut bytes = [0u8; 32];
    bytes[24] = 255;
    let codes: u64 = (0..16).filter(|&i| i != 1).fold(0, |a, i| a | 1 << (3 * i));
    bytes[26..32].copy_from_slice(&codes.to_le_bytes()[..6]);
    let subs = [SubresourceBytes { offset: 0, row_pitch: 16, depth_pitch: 32 }];
    let t = MemoryTexels {
        bytes: &bytes,
        format: sys::DXGI_FORMAT_BC4_UNORM,
        size: (6, 6, 1),
        mips: 1,
        array_size: 1,
        subresources: &subs,
    };
    assert_eq!(t.fetch(5, 4, 0, 0), Some([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(t.fetch(4, 4, 0, 0), Some([0.0, 0.0, 0.0, 1.0]));
    assert_eq!(t.fetch(6, 4, 0, 0), None, "texel 6 lies in the block but past the mip");
    assert_eq!(t.zero(), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(t.border([2.0, 0.5, 0.5, 0.5]), [1.0, 0.0, 0.0, 1.0]);
    // BC6H stands in as RGBA16 float, but has no alpha: it reads 1.
    let hdr = MemoryTexels { format: sys::DXGI_FORMAT_BC6H_SF16, ..t };
    assert_eq!(hdr.zero(), [0.0, 0.0, 0.0, 1.0]);
    assert_eq!(hdr.border([-2.0, 0.5, 8.0, 0.0]), [-2.0, 0.5, 8.0, 1.0]);
    // Point sampling the texel and clamping past the edge.
    let v = View::whole(Dim::Tex2D, &t);
    let s = sampler(POINT, CLAMP);
    assert_eq!(sample(&t, &v, &s, [5.5 / 6.0, 4.5 / 6.0, 0.0, 0.0], [0; 3], Lod::Level(0.0), None)[0], 1.0);
    assert_eq!(sample(&t, &v, &s, [1.5, 4.5 / 6.0, 0.0, 0.0], [0; 3], Lod::Level(0.0), None)[0], 1.0);
    assert_eq!(sample(&t, &v, &s, [1.5, 5.5 / 6.0, 0.0, 0.0], [0; 3], Lod::Level(0.0), None)[0], 0.0);
}

/// A [`crate::bytes::ReadBytes`] that logs every read (offset, length): texels must be read an
/// element at a time, never as a view of the whole memory.
struct Logged(crate::draw::Bytes, std::sync::Mutex<Vec<(usize, usize)>>);

impl crate::bytes::ReadBytes for Logged {
    fn len(&self) -> usize {
        crate::draw::Surface::len(&self.0)
    }
    fn read(&self, at: usize, dst: &mut [u8]) -> bool {
        self.1.lock().unwrap().push((at, dst.len()));
        crate::draw::Surface::read(&self.0, at, dst)
    }
}

#[test]
fn memory_texels_read_one_element_at_a_time_through_any_reader() {
    // A 2×2 RGBA8 texture in rows of 12 bytes (4 of padding), then a BC4 block at byte 24:
    // through atomic bytes, texels and filters equal the slice's, and each read is one texel
    // (4 bytes at its own offset) or one block (8 bytes).
    let mut bytes = vec![0u8; 32];
    bytes[..8].copy_from_slice(&[255, 0, 0, 255, 0, 255, 0, 255]);
    bytes[12..20].copy_from_slice(&[0, 0, 255, 255, 51, 102, 153, 204]);
    bytes[24] = 255; // BC4 r0 = 1.0, r1 = 0, every code 0: all texels 1.0
    let subs = [SubresourceBytes { offset: 0, row_pitch: 12, depth_pitch: 24 }];
    let logged = Logged(crate::draw::Bytes::new(&bytes), Default::default());
    let slice = bytes_texture(&bytes, sys::DXGI_FORMAT_R8G8B8A8_UNORM, (2, 2, 1), &subs);
    let atomic = MemoryTexels {
        bytes: &logged,
        format: slice.format,
        size: slice.size,
        mips: 1,
        array_size: 1,
        subresources: &subs,
    };
    for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        assert_eq!(atomic.fetch(x, y, 0, 0), slice.fetch(x, y, 0, 0), "texel ({x}, {y})");
    }
    assert_eq!(atomic.fetch(1, 1, 0, 0), Some([0.2, 0.4, 0.6, 0.8]));
    assert_eq!(atomic.fetch_lanes(1, 0, 0, 0), Some([0.0f32, 1.0, 0.0, 1.0].map(f32::to_bits)));
    assert_eq!(*logged.1.lock().unwrap(), [(0, 4), (4, 4), (12, 4), (16, 4), (16, 4), (4, 4)]);
    let v = View::whole(Dim::Tex2D, &slice);
    let s = sampler(LINEAR, CLAMP);
    let c = [0.5, 0.5, 0.0, 0.0];
    let filtered = sample(&atomic, &v, &s, c, [0; 3], Lod::Level(0.0), None);
    assert_eq!(filtered, sample(&slice, &v, &s, c, [0; 3], Lod::Level(0.0), None));
    assert_eq!(filtered[3], (1.0 + 1.0 + 1.0 + 0.8) / 4.0, "the four texels' mean");
    logged.1.lock().unwrap().clear();
    let bc_subs = [SubresourceBytes { offset: 24, row_pitch: 8, depth_pitch: 8 }];
    let bc = MemoryTexels { format: sys::DXGI_FORMAT_BC4_UNORM, size: (4, 4, 1), subresources: &bc_subs, ..atomic };
    assert_eq!(bc.fetch(3, 2, 0, 0), Some([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(*logged.1.lock().unwrap(), [(24, 8)]);
    // A layout past the end of the memory reads nothing.
    let past = [SubresourceBytes { offset: 28, row_pitch: 8, depth_pitch: 8 }];
    assert_eq!(MemoryTexels { subresources: &past, ..atomic }.fetch(1, 0, 0, 0), None);
}

#[test]
fn depth_views_read_the_depth_plane_for_shadow_comparisons() {
    // D24 plane 0: 24-bit UNORM in the low bits of 32-bit elements (top byte ignored).
    let mut bytes = [0u8; 8];
    bytes[..4].copy_from_slice(&(0xAB00_0000u32 | 0x80_0000).to_le_bytes());
    bytes[4..].copy_from_slice(&0xff_ffffu32.to_le_bytes());
    let subs = [SubresourceBytes { offset: 0, row_pitch: 8, depth_pitch: 8 }];
    let t = MemoryTexels {
        bytes: &bytes,
        format: sys::DXGI_FORMAT_R24_UNORM_X8_TYPELESS,
        size: (2, 1, 1),
        mips: 1,
        array_size: 1,
        subresources: &subs,
    };
    let half = (0x80_0000 as f64 / 16_777_215.0) as f32;
    assert_eq!(t.fetch(0, 0, 0, 0), Some([half, 0.0, 0.0, 1.0]));
    assert_eq!(t.fetch(1, 0, 0, 0), Some([1.0, 0.0, 0.0, 1.0]));
    assert_eq!(t.zero(), [0.0, 0.0, 0.0, 1.0]);
    // The reference is clamped and rounded to 24 bits: 0.5 equals the stored 0x800000.
    assert_eq!(t.quantize_reference(0.5), half);
    assert_eq!(t.quantize_reference(7.0), 1.0);
    let v = View::whole(Dim::Tex2D, &t);
    let mut s = sampler(0x95, CLAMP);
    s.comparison_func = 4; // LESS_EQUAL
    let pcf = |r| sample(&t, &v, &s, [0.5, 0.5, 0.0, 0.0], [0; 3], Lod::Level(0.0), Some(r))[0];
    assert_eq!(pcf(0.5), 1.0);
    assert_eq!(pcf(0.75), 0.5);
    assert_eq!(pcf(2.0), 0.5, "2.0 clamps to 1.0, which is <= the 1.0 texel");
}

#[test]
fn depth32_and_stencil_views_read_their_planes() {
    let bytes = 0.25f32.to_le_bytes();
    let subs = [SubresourceBytes { offset: 0, row_pitch: 4, depth_pitch: 4 }];
    let d = MemoryTexels {
        bytes: &bytes[..],
        format: sys::DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS,
        size: (1, 1, 1),
        mips: 1,
        array_size: 1,
        subresources: &subs,
    };
    assert_eq!(d.fetch(0, 0, 0, 0), Some([0.25, 0.0, 0.0, 1.0]));
    // The stencil plane: one byte per texel, read as green (an integer).
    let st = [7u8, 200];
    let ss = [SubresourceBytes { offset: 0, row_pitch: 2, depth_pitch: 2 }];
    for format in [sys::DXGI_FORMAT_X24_TYPELESS_G8_UINT, sys::DXGI_FORMAT_X32_TYPELESS_G8X24_UINT] {
        let t = MemoryTexels { bytes: &st[..], format, size: (2, 1, 1), subresources: &ss, ..d };
        let v = View::whole(Dim::Tex2D, &t);
        assert_eq!(load(&t, &v, [1, 0, 0], 0, [0; 3]), [0, 200, 0, 1]);
        assert_eq!(load(&t, &v, [2, 0, 0], 0, [0; 3]), [0, 0, 0, 1]);
        assert_eq!(t.fetch(0, 0, 0, 0), Some([0.0, 7.0, 0.0, 1.0]));
        assert_eq!(t.border([9.0, 300.0, 1.0, 1.0]), [0.0, 255.0, 0.0, 1.0]);
    }
}

#[test]
fn backend_layouts_address_the_cpu_layout_of_a_texture() {
    use rd3d12_core::pack::encode_color;
    // A 4×2 RGBA8 2D array of 2 slices with 2 mips, written texel by texel through the
    // layouts, then read back through MemoryTexels.
    let desc = sys::D3D12_RESOURCE_DESC1 {
        Dimension: sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Alignment: 0,
        Width: 4,
        Height: 2,
        DepthOrArraySize: 2,
        MipLevels: 2,
        Format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
        SampleDesc: sys::DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Layout: sys::D3D12_TEXTURE_LAYOUT_UNKNOWN,
        Flags: sys::D3D12_RESOURCE_FLAG_NONE,
        SamplerFeedbackMipRegion: Default::default(),
    };
    let layouts = backend_layouts(&desc, 0).unwrap();
    assert_eq!(layouts.len(), 4);
    assert_eq!(layouts[0], SubresourceBytes { offset: 0, row_pitch: 16, depth_pitch: 32 });
    let (size, mips, array_size) = backend_size(&desc);
    assert_eq!((size, mips, array_size), ((4, 2, 1), 2, 2));
    let bytes_len = rd3d12_core::allocation::layout_bytes(&desc).unwrap() as usize;
    let mut bytes = vec![0u8; bytes_len];
    let value = |x: u32, y: u32, mip: u32, slice: u32| {
        [x as f32 / 255.0, y as f32 / 255.0, mip as f32 / 255.0, slice as f32 / 255.0]
    };
    for slice in 0..2 {
        for mip in 0..2u32 {
            let l = layouts[(mip + slice * 2) as usize];
            for y in 0..(2 >> mip) {
                for x in 0..(4 >> mip) {
                    let at = l.offset + y as usize * l.row_pitch + x as usize * 4;
                    let (e, _) = encode_color(desc.Format, value(x, y, mip, slice)).unwrap();
                    bytes[at..at + 4].copy_from_slice(&e[..4]);
                }
            }
        }
    }
    let t = MemoryTexels { bytes: &bytes, format: desc.Format, size, mips, array_size, subresources: &layouts };
    for (x, y, mip, slice) in [(3, 1, 0, 0), (1, 0, 1, 1), (0, 0, 1, 0), (2, 1, 0, 1)] {
        assert_eq!(t.fetch(x, y, slice, mip), Some(value(x, y, mip, slice)));
    }
    assert_eq!(
        backend_layouts(&sys::D3D12_RESOURCE_DESC1 { Dimension: sys::D3D12_RESOURCE_DIMENSION_BUFFER, ..desc }, 0),
        None
    );
    assert_eq!(backend_layouts(&desc, 1), None, "RGBA8 has one plane");
    // D24S8: plane 0 holds 32-bit depth elements, plane 1 the stencil bytes after it.
    let ds = sys::D3D12_RESOURCE_DESC1 {
        DepthOrArraySize: 1,
        MipLevels: 1,
        Format: sys::DXGI_FORMAT_D24_UNORM_S8_UINT,
        ..desc
    };
    let depth = backend_layouts(&ds, 0).unwrap();
    let stencil = backend_layouts(&ds, 1).unwrap();
    assert_eq!((depth[0].offset, depth[0].row_pitch), (0, 16));
    assert_eq!((stencil[0].offset, stencil[0].row_pitch), (32, 4));
}

#[test]
fn memory_texels_with_layouts_past_the_bytes_read_nothing() {
    let bytes = [0u8; 16];
    let subs = [SubresourceBytes { offset: usize::MAX - 2, row_pitch: usize::MAX, depth_pitch: usize::MAX }];
    let t = MemoryTexels {
        bytes: &bytes,
        format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
        size: (4, 4, 4),
        mips: 1,
        array_size: 1,
        subresources: &subs,
    };
    assert_eq!(t.fetch(0, 0, 0, 0), None);
    assert_eq!(t.fetch(3, 3, 3, 0), None);
    assert_eq!(MemoryTexels { subresources: &[], ..t }.fetch(0, 0, 0, 0), None, "no layout");
}

#[test]
fn views_past_the_texture_read_zero_without_overflow() {
    let g = grid((2, 2, 1), 1, 2, |_, _, _, _, _| [1.0; 4]);
    let v =
        View { first_mip: u32::MAX, first_slice: u32::MAX, array_size: u32::MAX, ..View::whole(Dim::Tex2DArray, &g) };
    let s = sampler(LINEAR, WRAP);
    assert_eq!(sample(&g, &v, &s, [0.5, 0.5, 3.0, 0.0], [0; 3], Lod::Level(0.0), None), [0.0; 4]);
    assert_eq!(gather(&g, &v, &s, [0.5; 4], [0; 3], 0, None), [0.0; 4]);
    assert_eq!(load(&g, &v, [0, 0, 1], 0, [0; 3]), [0; 4]);
    let c = View { dim: Dim::CubeArray, ..v };
    assert_eq!(sample(&g, &c, &s, [1.0, 0.0, 0.0, 9.0], [0; 3], Lod::Level(0.0), None), [0.0; 4]);
}

#[test]
fn views_come_from_srv_descriptors() {
    let r = TextureRange { first_mip: 1, mip_levels: 3, first_slice: 6, array_size: 12, min_lod: 0.5 };
    let v = View::from_srv(sys::D3D12_SRV_DIMENSION_TEXTURECUBEARRAY.0, &r).unwrap();
    assert_eq!(
        v,
        View { dim: Dim::CubeArray, first_mip: 1, mip_levels: 3, first_slice: 6, array_size: 12, min_lod_clamp: 0.5 }
    );
    let v3 = View::from_srv(sys::D3D12_SRV_DIMENSION_TEXTURE3D.0, &r).unwrap();
    assert_eq!((v3.first_slice, v3.array_size), (0, 1));
    assert_eq!(View::from_srv(sys::D3D12_SRV_DIMENSION_BUFFER.0, &r), None);
}
