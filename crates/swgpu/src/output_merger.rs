//! The output merger of D3D12's graphics pipeline, per pixel: the depth and stencil tests with
//! their writes, blending (every D3D12_BLEND factor and D3D12_BLEND_OP), logic ops on integer
//! render targets, and the render-target write mask. The CPU backend's draws run each shaded
//! pixel through these after the rasterizer ([`crate::raster`]).
//!
//! Rules (D3D11.3 functional spec "Output Merger", kept by D3D12): UNORM targets clamp the
//! source, destination and blend factor to [0, 1] before blending and SNORM ones to [-1, 1];
//! float targets do not clamp; MIN and MAX ignore the blend factors; SRC_ALPHA_SAT is
//! `min(As, 1 - Ad)` for color and 1 for alpha; the stencil test compares
//! `StencilRef & ReadMask` with `stored & ReadMask`, and a write changes only WriteMask's bits.

use rd3d12_core::pipeline::{DepthStencil, RtBlend, StencilFace};
use rd3d12_sys as sys;

/// How a render target's values are clamped around blending.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Range {
    /// UNORM: [0, 1].
    Unorm,
    /// SNORM: [-1, 1].
    Snorm,
    /// FLOAT: not clamped.
    Float,
}

impl Range {
    fn clamp(self, v: f32) -> f32 {
        match self {
            Range::Unorm => v.clamp(0.0, 1.0),
            Range::Snorm => v.clamp(-1.0, 1.0),
            Range::Float => v,
        }
    }
}

/// Everything a blend factor can read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BlendInputs {
    /// The pixel shader's output for the target (SV_Target n).
    pub src: [f32; 4],
    /// The second output of dual-source blending (SV_Target1).
    pub src1: [f32; 4],
    /// The value in the render target.
    pub dst: [f32; 4],
    /// OMSetBlendFactor.
    pub constant: [f32; 4],
}

/// The value of blend factor `f` for channel `c` (0..=3; 3 is alpha), or `None` for a value
/// that is not a D3D12_BLEND.
pub fn blend_factor(f: u32, c: usize, i: &BlendInputs) -> Option<f32> {
    let (s, s1, d, k) = (i.src, i.src1, i.dst, i.constant);
    Some(match f {
        1 => 0.0,                   // ZERO
        2 => 1.0,                   // ONE
        3 => s[c],                  // SRC_COLOR
        4 => 1.0 - s[c],            // INV_SRC_COLOR
        5 => s[3],                  // SRC_ALPHA
        6 => 1.0 - s[3],            // INV_SRC_ALPHA
        7 => d[3],                  // DEST_ALPHA
        8 => 1.0 - d[3],            // INV_DEST_ALPHA
        9 => d[c],                  // DEST_COLOR
        10 => 1.0 - d[c],           // INV_DEST_COLOR
        11 if c == 3 => 1.0,        // SRC_ALPHA_SAT (alpha)
        11 => s[3].min(1.0 - d[3]), // SRC_ALPHA_SAT
        14 => k[c],                 // BLEND_FACTOR
        15 => 1.0 - k[c],           // INV_BLEND_FACTOR
        16 => s1[c],                // SRC1_COLOR
        17 => 1.0 - s1[c],          // INV_SRC1_COLOR
        18 => s1[3],                // SRC1_ALPHA
        19 => 1.0 - s1[3],          // INV_SRC1_ALPHA
        20 => k[3],                 // ALPHA_FACTOR
        21 => 1.0 - k[3],           // INV_ALPHA_FACTOR
        _ => return None,
    })
}

/// One blend equation: `op` applied to `s · fs` and `d · fd` (MIN / MAX on `s` and `d`).
pub fn blend_op(op: u32, s: f32, fs: f32, d: f32, fd: f32) -> Option<f32> {
    Some(match op {
        1 => s * fs + d * fd, // ADD
        2 => s * fs - d * fd, // SUBTRACT
        3 => d * fd - s * fs, // REV_SUBTRACT
        4 => s.min(d),        // MIN
        5 => s.max(d),        // MAX
        _ => return None,
    })
}

/// Blends `i.src` into `i.dst` with render target blend state `rt` (BlendEnable on), then
/// applies the write mask. Unknown factors or ops leave the destination as it is.
pub fn blend(rt: &RtBlend, range: Range, i: &BlendInputs) -> [f32; 4] {
    let clamp4 = |v: [f32; 4]| v.map(|x| range.clamp(x));
    let inp =
        BlendInputs { src: clamp4(i.src), src1: clamp4(i.src1), dst: clamp4(i.dst), constant: clamp4(i.constant) };
    let mut out = i.dst;
    for (c, o) in out.iter_mut().enumerate() {
        if rt.write_mask & (1 << c) == 0 {
            continue;
        }
        let (sf, df, op) = if c == 3 { (rt.src_alpha, rt.dest_alpha, rt.op_alpha) } else { (rt.src, rt.dest, rt.op) };
        let v = blend_factor(sf, c, &inp)
            .zip(blend_factor(df, c, &inp))
            .and_then(|(fs, fd)| blend_op(op, inp.src[c], fs, inp.dst[c], fd));
        if let Some(v) = v {
            *o = range.clamp(v);
        }
    }
    out
}

/// D3D12_LOGIC_OP `op` on integer source `s` and destination `d`, or `None` for an unknown op.
pub fn logic_op(op: u32, s: u32, d: u32) -> Option<u32> {
    Some(match op {
        0 => 0,         // CLEAR
        1 => !0,        // SET
        2 => s,         // COPY
        3 => !s,        // COPY_INVERTED
        4 => d,         // NOOP
        5 => !d,        // INVERT
        6 => s & d,     // AND
        7 => !(s & d),  // NAND
        8 => s | d,     // OR
        9 => !(s | d),  // NOR
        10 => s ^ d,    // XOR
        11 => !(s ^ d), // EQUIV
        12 => s & !d,   // AND_REVERSE
        13 => !s & d,   // AND_INVERTED
        14 => s | !d,   // OR_REVERSE
        15 => !s | d,   // OR_INVERTED
        _ => return None,
    })
}

/// Applies the write mask to an unblended write: channels whose bit is clear keep `dst`.
pub fn masked<T: Copy>(write_mask: u8, src: [T; 4], dst: [T; 4]) -> [T; 4] {
    std::array::from_fn(|c| if write_mask & (1 << c) != 0 { src[c] } else { dst[c] })
}

/// D3D12_COMPARISON_FUNC `func` of the incoming value `src` against the stored `dst`. Unknown
/// values (including D3D12_COMPARISON_FUNC_NONE) never pass.
pub fn compare<T: PartialOrd>(func: u32, src: T, dst: T) -> bool {
    match func {
        1 => false,      // NEVER
        2 => src < dst,  // LESS
        3 => src == dst, // EQUAL
        4 => src <= dst, // LESS_EQUAL
        5 => src > dst,  // GREATER
        6 => src != dst, // NOT_EQUAL
        7 => src >= dst, // GREATER_EQUAL
        8 => true,       // ALWAYS
        _ => false,
    }
}

/// D3D12_STENCIL_OP `op` on the stored value `v` with reference `r`.
pub fn stencil_op(op: u32, v: u8, r: u8) -> u8 {
    match op {
        2 => 0,                   // ZERO
        3 => r,                   // REPLACE
        4 => v.saturating_add(1), // INCR_SAT
        5 => v.saturating_sub(1), // DECR_SAT
        6 => !v,                  // INVERT
        7 => v.wrapping_add(1),   // INCR
        8 => v.wrapping_sub(1),   // DECR
        _ => v,                   // KEEP and unknown
    }
}

/// What the depth-stencil stage decides for one pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DepthStencilResult {
    /// Whether the pixel goes on to the render targets.
    pub pass: bool,
    /// The depth to store, if it changes.
    pub depth: Option<f32>,
    /// The stencil value to store, if it changes.
    pub stencil: Option<u8>,
}

/// The depth and stencil tests of one pixel at depth `z` on a `front`-facing primitive, against
/// the stored values (`None` where the depth-stencil view has no such plane, which passes).
pub fn depth_stencil(
    ds: &DepthStencil,
    front: bool,
    z: f32,
    stored_depth: Option<f32>,
    stored_stencil: Option<u8>,
    stencil_ref: u8,
) -> DepthStencilResult {
    let face: &StencilFace = if front { &ds.front } else { &ds.back };
    let stencil_on = ds.stencil_enable && stored_stencil.is_some();
    let sv = stored_stencil.unwrap_or(0);
    let write_stencil = |op: u32| -> Option<u8> {
        if !stencil_on {
            return None;
        }
        let new = (sv & !face.write_mask) | (stencil_op(op, sv, stencil_ref) & face.write_mask);
        (new != sv).then_some(new)
    };
    if stencil_on && !compare(face.func, stencil_ref & face.read_mask, sv & face.read_mask) {
        return DepthStencilResult { pass: false, depth: None, stencil: write_stencil(face.fail) };
    }
    let depth_pass = match (ds.depth_enable, stored_depth) {
        (true, Some(d)) => compare(ds.func, z, d),
        _ => true,
    };
    if !depth_pass {
        return DepthStencilResult { pass: false, depth: None, stencil: write_stencil(face.depth_fail) };
    }
    let writes_depth = ds.depth_enable && ds.write_mask == sys::D3D12_DEPTH_WRITE_MASK_ALL.0 && stored_depth.is_some();
    DepthStencilResult {
        pass: true,
        depth: (writes_depth && stored_depth != Some(z)).then_some(z),
        stencil: write_stencil(face.pass),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rt(src: u32, dest: u32, op: u32) -> RtBlend {
        RtBlend {
            blend_enable: true,
            src,
            dest,
            op,
            src_alpha: src.clamp(1, 8),
            dest_alpha: dest.clamp(1, 8),
            op_alpha: op,
            ..RtBlend::default()
        }
    }

    fn inputs(src: [f32; 4], dst: [f32; 4]) -> BlendInputs {
        BlendInputs { src, src1: [0.0; 4], dst, constant: [0.5, 0.25, 0.125, 1.0] }
    }

    #[test]
    fn classic_alpha_blending() {
        // SRC_ALPHA / INV_SRC_ALPHA / ADD: 0.25·src + 0.75·dst per color channel; alpha uses
        // the alpha factors (here SRC_ALPHA, INV_SRC_ALPHA as well).
        let mut r = rt(5, 6, 1);
        r.src_alpha = 5;
        r.dest_alpha = 6;
        let out = blend(&r, Range::Unorm, &inputs([1.0, 0.0, 0.5, 0.25], [0.0, 1.0, 0.5, 1.0]));
        assert_eq!(out, [0.25, 0.75, 0.5, 0.25 * 0.25 + 0.75 * 1.0]);
    }

    #[test]
    fn min_max_ignore_factors_and_subtracts_clamp_on_unorm() {
        let i = inputs([0.2, 0.9, 0.5, 1.0], [0.6, 0.1, 0.5, 0.0]);
        assert_eq!(blend(&rt(1, 1, 4), Range::Unorm, &i), [0.2, 0.1, 0.5, 0.0]);
        assert_eq!(blend(&rt(1, 1, 5), Range::Unorm, &i), [0.6, 0.9, 0.5, 1.0]);
        // ONE, ONE, SUBTRACT: src - dst, clamped to [0, 1] on UNORM, not on FLOAT.
        let sub = rt(2, 2, 2);
        let u = blend(&sub, Range::Unorm, &i);
        assert!(u[0] == 0.0 && (u[1] - 0.8).abs() < 1e-6 && u[2] == 0.0 && u[3] == 1.0, "{u:?}");
        let f = blend(&sub, Range::Float, &i);
        assert!((f[0] + 0.4).abs() < 1e-6 && (f[1] - 0.8).abs() < 1e-6);
        // REV_SUBTRACT: dst - src.
        let rev = blend(&rt(2, 2, 3), Range::Snorm, &i);
        assert!((rev[0] - 0.4).abs() < 1e-6 && (rev[1] + 0.8).abs() < 1e-6 && rev[3] == -1.0);
    }

    #[test]
    fn unorm_clamps_inputs_before_blending() {
        // A shader output of 2.0 on a UNORM target counts as 1.0: ONE/ONE/ADD with dst 0.25 → 1.
        let out = blend(&rt(2, 2, 1), Range::Unorm, &inputs([2.0, -1.0, 0.5, 0.5], [0.25, 0.25, 0.25, 0.25]));
        assert_eq!(out, [1.0, 0.25, 0.75, 0.75]);
        // On FLOAT: 2.25, -0.75.
        let out = blend(&rt(2, 2, 1), Range::Float, &inputs([2.0, -1.0, 0.5, 0.5], [0.25, 0.25, 0.25, 0.25]));
        assert_eq!(out[..2], [2.25, -0.75]);
    }

    #[test]
    fn every_factor_reads_its_source() {
        let i = BlendInputs {
            src: [0.1, 0.2, 0.3, 0.4],
            src1: [0.5, 0.6, 0.7, 0.8],
            dst: [0.9, 0.8, 0.7, 0.6],
            constant: [0.25, 0.5, 0.75, 0.125],
        };
        let want = |f: u32, c: usize| blend_factor(f, c, &i).unwrap();
        assert_eq!(want(3, 1), 0.2);
        assert!((want(4, 1) - 0.8).abs() < 1e-6);
        assert_eq!(want(5, 0), 0.4);
        assert_eq!(want(7, 0), 0.6);
        assert!((want(8, 0) - 0.4).abs() < 1e-6);
        assert_eq!(want(9, 2), 0.7);
        assert!((want(11, 0) - 0.4).abs() < 1e-6, "min(As 0.4, 1 - Ad 0.4)");
        assert_eq!(want(11, 3), 1.0);
        assert_eq!(want(14, 2), 0.75);
        assert_eq!(want(15, 2), 0.25);
        assert_eq!(want(16, 0), 0.5);
        assert_eq!(want(18, 0), 0.8);
        assert!((want(19, 0) - 0.2).abs() < 1e-6);
        assert_eq!(want(20, 0), 0.125);
        assert_eq!(want(21, 0), 0.875);
        assert_eq!(blend_factor(12, 0, &i), None, "12 and 13 are not blend factors");
        assert_eq!(blend_factor(22, 0, &i), None);
    }

    #[test]
    fn write_mask_keeps_unwritten_channels() {
        let mut r = rt(2, 1, 1);
        r.write_mask = 0b1010; // G and A
        let out = blend(&r, Range::Unorm, &inputs([1.0, 1.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0]));
        assert_eq!(out, [0.0, 1.0, 0.0, 1.0]);
        assert_eq!(masked(0b0101, [1u32, 2, 3, 4], [9, 9, 9, 9]), [1, 9, 3, 9]);
    }

    #[test]
    fn logic_ops_on_bits() {
        let (s, d) = (0b1100u32, 0b1010u32);
        let low = |v: u32| v & 0xF;
        let want = [
            0, 0xF, 0b1100, 0b0011, 0b1010, 0b0101, 0b1000, 0b0111, 0b1110, 0b0001, 0b0110, 0b1001, 0b0100, 0b0010,
            0b1101, 0b1011,
        ];
        for (op, w) in want.iter().enumerate() {
            assert_eq!(low(logic_op(op as u32, s, d).unwrap()), *w, "op {op}");
        }
        assert_eq!(logic_op(16, s, d), None);
    }

    #[test]
    fn comparison_functions() {
        let all: Vec<bool> = (1..=8).map(|f| compare(f, 0.5f32, 0.5)).collect();
        assert_eq!(all, [false, false, true, true, false, false, true, true]);
        assert!(compare(2, 0.25f32, 0.5) && !compare(5, 0.25f32, 0.5));
        assert!(!compare(0, 1, 1), "COMPARISON_FUNC_NONE never passes");
    }

    #[test]
    fn stencil_ops_wrap_and_saturate() {
        assert_eq!(stencil_op(4, 255, 0), 255);
        assert_eq!(stencil_op(7, 255, 0), 0);
        assert_eq!(stencil_op(5, 0, 0), 0);
        assert_eq!(stencil_op(8, 0, 0), 255);
        assert_eq!(stencil_op(6, 0b1010_0101, 0), 0b0101_1010);
        assert_eq!(stencil_op(3, 7, 42), 42);
        assert_eq!(stencil_op(1, 7, 42), 7);
    }

    fn ds() -> DepthStencil {
        DepthStencil::default()
    }

    #[test]
    fn depth_test_less_with_write() {
        let d = ds();
        assert_eq!(
            depth_stencil(&d, true, 0.25, Some(0.5), None, 0),
            DepthStencilResult { pass: true, depth: Some(0.25), stencil: None }
        );
        assert_eq!(
            depth_stencil(&d, true, 0.75, Some(0.5), None, 0),
            DepthStencilResult { pass: false, depth: None, stencil: None }
        );
        // No depth plane bound: the test passes and nothing is written.
        assert_eq!(
            depth_stencil(&d, true, 0.75, None, None, 0),
            DepthStencilResult { pass: true, depth: None, stencil: None }
        );
        let mut zero = ds();
        zero.write_mask = sys::D3D12_DEPTH_WRITE_MASK_ZERO.0;
        assert_eq!(depth_stencil(&zero, true, 0.25, Some(0.5), None, 0).depth, None);
    }

    #[test]
    fn stencil_paths_and_masks() {
        let mut d = ds();
        d.stencil_enable = true;
        d.front = StencilFace { fail: 2, depth_fail: 7, pass: 3, func: 3, read_mask: 0x0F, write_mask: 0xF0 };
        // EQUAL on the low nibble: ref 0x15 & 0x0F == stored 0x25 & 0x0F → pass; REPLACE writes
        // only the high nibble: (0x25 & 0x0F) | (0x15 & 0xF0) = 0x15.
        let r = depth_stencil(&d, true, 0.25, Some(0.5), Some(0x25), 0x15);
        assert_eq!(r, DepthStencilResult { pass: true, depth: Some(0.25), stencil: Some(0x15) });
        // Stencil fails: ZERO on the high nibble only: 0x26 → 0x06.
        let r = depth_stencil(&d, true, 0.25, Some(0.5), Some(0x26), 0x15);
        assert_eq!(r, DepthStencilResult { pass: false, depth: None, stencil: Some(0x06) });
        // Stencil passes, depth fails: INCR (0x25 + 1 = 0x26), high nibble unchanged: no write.
        let r = depth_stencil(&d, true, 0.75, Some(0.5), Some(0x25), 0x15);
        assert_eq!(r, DepthStencilResult { pass: false, depth: None, stencil: None });
        // The back face uses its own state (defaults: ALWAYS, KEEP).
        let r = depth_stencil(&d, false, 0.25, Some(0.5), Some(0x26), 0x15);
        assert_eq!(r, DepthStencilResult { pass: true, depth: Some(0.25), stencil: None });
    }
}
