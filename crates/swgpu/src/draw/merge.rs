//! The output merger's writes: the depth-stencil test of a sample, a sample's color blended
//! into its target.

use super::target::{DepthStencilTarget, Target};
use crate::output_merger::{self as om, BlendInputs, Range};
use crate::raster::Viewport;
use rd3d12_core::pipeline::PipelineDesc;
use rd3d12_sys as sys;

/// The RT value range for blending.
fn range_of(format: sys::DXGI_FORMAT) -> Range {
    let name = rd3d12_core::format::info(format).map_or("", |i| i.name);
    if name.contains("SNORM") {
        Range::Snorm
    } else if name.contains("FLOAT") {
        Range::Float
    } else {
        Range::Unorm
    }
}

/// The depth and stencil tests of one pixel with their writes; `true` if the pixel passes.
///
/// The incoming depth is clamped to the viewport's depth range (what D3D does to SV_Depth;
/// interpolated depth already is) and then converted to the buffer's format the way a
/// depth write stores it ([`rd3d12_core::pack::encode_depth`]: UNORM `floor(z·(2ⁿ−1) + 0.5)`, f32
/// with denormals flushed), so the test compares exactly what is, or would be, stored. A plane
/// the view marks read-only is tested but never written.
pub(super) fn depth_write(
    (d, kind): (&DepthStencilTarget<'_>, Option<DepthKind>),
    p: &PipelineDesc,
    vp: &Viewport,
    at: (i32, i32, u32, u32),
    z: f32,
    front: bool,
    stencil_ref: u8,
) -> bool {
    // Neither test enabled: every sample passes and nothing is written (what
    // `om::depth_stencil` gives then), without reading the planes.
    if !p.depth_stencil.depth_enable && !p.depth_stencil.stencil_enable {
        return true;
    }
    let (lo, hi) = (vp.min_depth.min(vp.max_depth), vp.min_depth.max(vp.max_depth));
    let z = if z.is_nan() { z } else { z.clamp(lo, hi) };
    let Some(kind) = kind else { return true };
    let mut e = [0u8; 4];
    let Some(depth_at) = d.depth.offset(at, kind.bytes()).filter(|&o| d.depth.data.read(o, &mut e[..kind.bytes()]))
    else {
        return true;
    };
    // Both sides as exact f32s: UNORM values as their integers (at most 24 bits, exact in f32).
    let stored = kind.read(&e);
    let incoming = kind.quantize(z);
    let mut s = [0u8; 1];
    let stencil_at =
        d.stencil.as_ref().and_then(|p| p.offset(at, 1).filter(|&o| p.data.read(o, &mut s)).map(|o| (p, o)));
    let stored_stencil = stencil_at.map(|_| s[0]);
    let r = om::depth_stencil(&p.depth_stencil, front, incoming.0, Some(stored.0), stored_stencil, stencil_ref);
    if let (Some((plane, o)), Some(v), false) = (stencil_at, r.stencil, d.read_only_stencil) {
        plane.data.write(o, &[v]);
    }
    if let (Some(_), false) = (r.depth, d.read_only_depth) {
        kind.write(&mut e, incoming.1);
        d.depth.data.write(depth_at, &e[..kind.bytes()]);
    }
    r.pass
}

/// The depth plane's element layout of a depth-stencil format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum DepthKind {
    /// D16_UNORM: 2 bytes.
    Unorm16,
    /// D24_UNORM_S8_UINT's plane 0: a 32-bit element, the UNORM in bits 0–23.
    Unorm24,
    /// D32_FLOAT and D32_FLOAT_S8X24_UINT's plane 0: the f32.
    Float32,
}

impl DepthKind {
    pub(super) fn of(format: sys::DXGI_FORMAT) -> Option<DepthKind> {
        match format {
            sys::DXGI_FORMAT_D16_UNORM => Some(DepthKind::Unorm16),
            sys::DXGI_FORMAT_D24_UNORM_S8_UINT => Some(DepthKind::Unorm24),
            sys::DXGI_FORMAT_D32_FLOAT | sys::DXGI_FORMAT_D32_FLOAT_S8X24_UINT => Some(DepthKind::Float32),
            _ => None,
        }
    }

    fn bytes(self) -> usize {
        if self == DepthKind::Unorm16 {
            2
        } else {
            4
        }
    }

    fn format(self) -> sys::DXGI_FORMAT {
        match self {
            DepthKind::Unorm16 => sys::DXGI_FORMAT_D16_UNORM,
            DepthKind::Unorm24 => sys::DXGI_FORMAT_D24_UNORM_S8_UINT,
            DepthKind::Float32 => sys::DXGI_FORMAT_D32_FLOAT,
        }
    }

    /// The stored value as the test compares it, and its bits.
    fn read(self, e: &[u8]) -> (f32, u32) {
        match self {
            DepthKind::Unorm16 => {
                let v = u32::from(u16::from_le_bytes([e[0], e[1]]));
                (v as f32, v)
            }
            DepthKind::Unorm24 => {
                let v = u32::from_le_bytes([e[0], e[1], e[2], e[3]]) & 0x00FF_FFFF;
                (v as f32, v)
            }
            DepthKind::Float32 => {
                let v = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                (f32::from_bits(v), v)
            }
        }
    }

    /// `z` converted to the format: the value the test compares, and the bits a write stores.
    fn quantize(self, z: f32) -> (f32, u32) {
        let (b, _) = rd3d12_core::pack::encode_depth(self.format(), z).unwrap_or(([0; 16], 0));
        self.read(&b[..4])
    }

    /// Stores `bits`; D24's bits 24–31 (no part of the depth) are kept.
    fn write(self, e: &mut [u8], bits: u32) {
        let b = bits.to_le_bytes();
        match self {
            DepthKind::Unorm16 => e[..2].copy_from_slice(&b[..2]),
            DepthKind::Unorm24 => e[..3].copy_from_slice(&b[..3]),
            DepthKind::Float32 => e[..4].copy_from_slice(&b),
        }
    }
}

/// The samples of a coverage mask, lowest first.
pub(super) fn bits(mask: u16) -> impl Iterator<Item = u32> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        let s = (rest != 0).then(|| rest.trailing_zeros())?;
        rest &= rest - 1;
        Some(s)
    })
}

/// Alpha-to-coverage: the first `round(alpha × n)` samples of `n` (alpha clamped to [0, 1],
/// NaN → 0). D3D leaves the dither pattern to the implementation; this one is ordered and the
/// same for every pixel, and with one sample it keeps the pixel for alpha ≥ 0.5.
pub(super) fn alpha_coverage(alpha: f32, n: usize) -> u16 {
    let a = if alpha.is_nan() { 0.0 } else { alpha.clamp(0.0, 1.0) };
    let k = (a * n as f32 + 0.5).floor() as u32;
    ((1u32 << k.min(16)) - 1) as u16
}

/// What the output merger needs of one bound render target, worked out once per draw.
pub(super) struct TargetInfo {
    /// Bytes per pixel (per sample) of the view's format.
    pub(super) size: usize,
    /// The format is an integer one: logic ops apply, blending does not.
    pub(super) integer: bool,
    /// The value range blending clamps to.
    pub(super) range: Range,
    /// The blend state of the target's slot (slot 0's unless IndependentBlendEnable).
    pub(super) blend: rd3d12_core::pipeline::RtBlend,
    /// For R8G8B8A8_UNORM and B8G8R8A8_UNORM: the byte of each of R, G, B, A, for the
    /// conversions written out here instead of [`rd3d12_core::pack`]'s general ones.
    unorm8: Option<[usize; 4]>,
}

/// 8-bit UNORM → float, exactly as [`rd3d12_core::pack::decode_color`] converts it.
fn from_unorm8(b: u8) -> f32 {
    (f64::from(b) / 255.0) as f32
}

/// Float → 8-bit UNORM, exactly as [`rd3d12_core::pack::encode_color`] converts it: NaN → 0,
/// clamped, `floor(c·255 + 0.5)` in f64 (denormals come out 0 either way).
fn to_unorm8(c: f32) -> u8 {
    if c.is_nan() {
        return 0;
    }
    (f64::from(c).clamp(0.0, 1.0) * 255.0 + 0.5) as u8
}

impl TargetInfo {
    /// The table of target `n` of `p` in `format`; `None` for a format without a size.
    pub(super) fn of(p: &PipelineDesc, n: usize, format: sys::DXGI_FORMAT) -> Option<TargetInfo> {
        let info = rd3d12_core::format::info(format)?;
        Some(TargetInfo {
            size: info.bytes_per_element() as usize,
            integer: info.name.contains("INT"),
            range: range_of(format),
            blend: p.blend.rt[if p.blend.independent { n } else { 0 }],
            unorm8: match format {
                sys::DXGI_FORMAT_R8G8B8A8_UNORM => Some([0, 1, 2, 3]),
                sys::DXGI_FORMAT_B8G8R8A8_UNORM => Some([2, 1, 0, 3]),
                _ => None,
            },
        })
    }
}

/// Writes one sample's color, blended, logic-oped or copied.
pub(super) fn write_pixel(
    t: &Target<'_>,
    info: &TargetInfo,
    at: (i32, i32, u32, u32),
    (src, src1): (&[u32; 4], &[u32; 4]),
    factor: [f32; 4],
) {
    let (format, blend) = (t.format, &info.blend);
    // R8G8B8A8 / B8G8R8A8 UNORM replaced whole (every channel written, no blending): the
    // shader's color converted and stored, what the general path below computes for it.
    if let (Some(order), 0xF, false) = (info.unorm8, blend.write_mask & 0xF, blend.blend_enable) {
        let Some(at) = t.offset(at, 4) else { return };
        let mut b = [0u8; 4];
        for (c, &i) in order.iter().enumerate() {
            b[i] = to_unorm8(f32::from_bits(src[c]));
        }
        t.data.write(at, &b);
        return;
    }
    let mut bytes = [0u8; 16];
    let Some(e) = bytes.get_mut(..info.size) else { return };
    let Some(at) = t.offset(at, info.size) else { return };
    // Without blending or logic ops and with every channel written, the stored value is unused.
    let replace = blend.write_mask & 0xF == 0xF;
    let needs_dst = if info.integer { !replace || blend.logic_op_enable } else { !replace || blend.blend_enable };
    // Out of range: nothing is read, nothing written.
    if needs_dst {
        if !t.data.read(at, e) {
            return;
        }
    } else if at.checked_add(info.size).is_none_or(|end| end > t.data.len()) {
        return;
    }
    if info.integer {
        let s = *src;
        let d = if needs_dst { rd3d12_core::pack::decode_lanes(format, e).unwrap_or([0; 4]) } else { [0; 4] };
        let v = if blend.logic_op_enable {
            [0, 1, 2, 3].map(|c| om::logic_op(blend.logic_op, s[c], d[c]).unwrap_or(d[c]))
        } else {
            s
        };
        let v = om::masked(blend.write_mask, v, d);
        if let Some((b, n)) = rd3d12_core::pack::encode_uint(format, v) {
            t.data.write(at, &b[..n]);
        }
        return;
    }
    let s = src.map(f32::from_bits);
    let d = match (needs_dst, info.unorm8) {
        (false, _) => [0.0; 4],
        (true, Some(at)) => at.map(|i| from_unorm8(e[i])),
        (true, None) => rd3d12_core::pack::decode_color(format, e).unwrap_or([0.0; 4]),
    };
    let v = if blend.blend_enable {
        let src1 = src1.map(f32::from_bits);
        om::blend(blend, info.range, &BlendInputs { src: s, src1, dst: d, constant: factor })
    } else {
        om::masked(blend.write_mask, s, d)
    };
    if let Some(order) = info.unorm8 {
        let mut b = [0u8; 4];
        for (c, &i) in order.iter().enumerate() {
            b[i] = to_unorm8(v[c]);
        }
        t.data.write(at, &b);
    } else if let Some((b, n)) = rd3d12_core::pack::encode_color(format, v) {
        t.data.write(at, &b[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_lists_the_samples_of_a_mask_lowest_first() {
        assert_eq!(bits(0).count(), 0);
        assert_eq!(bits(0b1010_0000_0000_0101).collect::<Vec<_>>(), [0, 2, 13, 15]);
        assert_eq!(bits(u16::MAX).collect::<Vec<_>>(), (0..16).collect::<Vec<_>>());
    }

    #[test]
    fn unorm8_conversions_equal_the_general_ones() {
        for f in [sys::DXGI_FORMAT_R8G8B8A8_UNORM, sys::DXGI_FORMAT_B8G8R8A8_UNORM] {
            let order = TargetInfo::of(&PipelineDesc::new(rd3d12_core::pipeline::PipelineKind::Graphics), 0, f)
                .and_then(|t| t.unorm8)
                .expect("a fast format");
            for b in 0..=255u8 {
                let e = [b, b.wrapping_add(1), b.wrapping_add(7), b.wrapping_mul(3)];
                let want = rd3d12_core::pack::decode_color(f, &e).expect("decodes");
                assert_eq!(order.map(|i| from_unorm8(e[i])), want, "{f:?} {e:?}");
            }
            let specials = [f32::NAN, -0.0, f32::MIN_POSITIVE / 2.0, -1.0, 2.0, f32::INFINITY, 0.5, 0.5 / 255.0];
            let steps = (0..=4096).map(|k| k as f32 / 4096.0 * 1.1 - 0.05);
            for x in specials.into_iter().chain(steps) {
                let v = [x, 1.0 - x, x * 0.5, x * x];
                let (want, n) = rd3d12_core::pack::encode_color(f, v).expect("encodes");
                let mut got = [0u8; 4];
                for (c, &i) in order.iter().enumerate() {
                    got[i] = to_unorm8(v[c]);
                }
                assert_eq!(got[..], want[..n], "{f:?} {v:?}");
            }
        }
    }
}
