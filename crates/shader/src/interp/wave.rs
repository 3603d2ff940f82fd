//! The wave and quad intrinsics of shader models 6.0 to 6.7, as pure functions over the lanes of
//! one wave: what the interpreter calls for a `dx.op` of opcodes 110–123, 135, 136, 165–167, 221 and 222.
//!
//! May touch: [`crate::ir::types::Scalar`] (how lane bits are read), the operations as the IR
//! names them ([`crate::ir::wave`]) and the half-precision conversions of
//! [`super::alu`]; nothing else of the IR's instructions, of a module or of the
//! interpreter's state. The lowering decodes a call once with [`WaveOp::from_dx_op`]; the
//! interpreter runs it with [`eval`].
//!
//! # Lanes
//!
//! A wave has `W` lanes, a power of two from [`MIN_LANES`] to [`MAX_LANES`] ([`Lanes`]). A
//! value is given as one `u64` per lane, raw bits as [`Scalar`] says (integers zero-extended
//! from their width, floats as IEEE bits with `f16` in the low 16 bits, `Bool` as 0 or 1);
//! a lane mask is a [`Mask`] (`u128`, bit `i` = lane `i`, the layout of WaveActiveBallot's
//! `uint4` with `.x` = bits 0–31). Slices shorter than `W` read as 0 past their end and
//! outputs shorter than `W` are written where they reach: no input makes these functions
//! panic.
//!
//! # D3D's rules (sources)
//!
//! * Wave ops see only the *participating* lanes, the active lanes that are not helper lanes:
//!   "Inactive Lane: a lane which is not being executed at this point in the code, e.g. due
//!   to flow control, or insufficient work to fill this lane in the wave, or because it is a
//!   helper lane" (DXC wiki, "Wave Intrinsics", glossary). Shader model 6.7's
//!   `[WaveOpsIncludeHelperLanes]` (DirectX-Specs, "HLSL SM 6.7 Wave Ops Include Helper
//!   Lanes") is what makes helper lanes take part; it is not in shader model 6.0, so
//!   [`Lanes::participants`] excludes them. A helper lane still gets a result (a reduction's
//!   uniform value, a prefix over the participating lanes below it; IsFirstLane false), since
//!   quad operations and derivatives may read it afterwards.
//! * Quad ops read the other lanes of the 2x2 quad *including* helper lanes: "they assume that
//!   all lanes in the quad are made active, even helper lanes" (same page, "Quad-Wide Shuffle
//!   Operations"). Quad `k` is lanes `4k..4k+3`, quad lane 0 top-left, 1 top-right, 2
//!   bottom-left, 3 bottom-right; in compute shaders "quadID = WaveGetLaneIndex() / 4;
//!   quadIndex = WaveGetLaneIndex() % 4" (same page). Which threads share a quad is the
//!   caller's mapping of threads to lanes: pixels of a 2x2 block in that order; in compute,
//!   consecutive threads for a 1-D group (numthreads X a multiple of 4, Y = Z = 1) and 2x2
//!   blocks of thread IDs when X and Y are even (DirectX-Specs "HLSL SM 6.6 Derivatives",
//!   "Thread Groups and Quads"). Reading a quad lane that is not active is undefined (the page
//!   assumes uniform flow across the quad): here it reads 0.
//! * WaveReadLaneAt of a lane that does not participate or of an index `>= W`: "The return
//!   value from an invalid lane is undefined" (same page, "Wave Broadcast Intrinsics"): here
//!   0. The index may differ per lane (DXC accepts it since shader model 6.0).
//! * Ballot: "The least-significant bit corresponds to the lane with index zero. The bits
//!   corresponding to inactive lanes will be zero. The bits that are greater than or equal to
//!   WaveGetLaneCount will be zero" (same page, WaveBallot).
//! * Prefix ops are exclusive: "returns for each lane the sum of elements up to but not
//!   including that lane" (same page, "Wave Scan/Prefix Intrinsics"); lane 0 gets the
//!   identity (0 for a sum, 1 for a product).
//! * Sums and products: "The order of operations is undefined" (same page, WaveAllSum). Here
//!   they run in lane order from the lowest participating lane, `((v0 + v1) + v2) + ...`, so
//!   results are reproducible; a reduction starts from the first lane's value, a prefix from
//!   the identity. Integers wrap at their width (two's complement, as every HLSL integer op).
//!   `f16` steps are computed in `f32` and rounded to half each step (`f32` has more than
//!   twice half's precision plus 2 bits, so that double rounding equals one correct rounding).
//! * Min and max of floats follow D3D's `min`/`max`: "min or max operations with only one NaN
//!   operand return the other operand", and NaN when both are ("Floating-point rules
//!   (Direct3D 11)", learn.microsoft.com), so only all-NaN lanes give NaN; between `-0` and
//!   `+0` (which D3D leaves open) the lower lane's value is kept. The signed flag of
//!   WaveActiveOp chooses the integer comparison; for floats it is ignored.
//! * WaveActiveAllEqual compares floats as floats (`-0 == +0`, a NaN equals nothing), integers
//!   by their bits.
//! * With no participating lane (every active lane a helper), reductions give their identity
//!   (sum 0, product 1, min the type's largest value, max its smallest, AND all ones, OR and
//!   XOR 0), AllTrue and AllEqual true, AnyTrue false, ReadLaneFirst 0: defined, never a
//!   panic.

use super::alu::{f32_to_half, half_to_f32};
use crate::ir::types::Scalar;
/// The operations, as the IR names them ([`crate::ir::Op::Wave`]).
pub use crate::ir::wave::{BadWaveOp, BitOp, MultiPrefix, QuadDir, Reduce, WaveOp};

/// The fewest lanes a wave has (WaveGetLaneCount: "between 4 and 128").
pub const MIN_LANES: u32 = 4;
/// The most lanes a wave has.
pub const MAX_LANES: u32 = 128;
/// The interpreter's wave size when the shader does not ask for one (`[WaveSize]`).
pub const DEFAULT_LANES: u32 = 8;

/// A set of lanes: bit `i` is lane `i`.
pub type Mask = u128;

/// The lanes below `n`: bits `0..n` (all 128 for `n >= 128`).
pub fn lanes_below(n: u32) -> Mask {
    if n >= 128 {
        Mask::MAX
    } else {
        (1 << n) - 1
    }
}

/// One wave's lanes: its width and which lanes execute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lanes {
    width: u32,
    active: Mask,
    helper: Mask,
}

impl Lanes {
    /// A wave of `width` lanes of which `active` execute, `helper` of them as helper lanes of
    /// a pixel shader. Bits at or above `width` are dropped, and helper lanes that are not
    /// active too.
    ///
    /// Guarantees: `None` unless `width` is a power of two in [`MIN_LANES`]..=[`MAX_LANES`] (the
    /// wave sizes `[WaveSize]` allows, DirectX-Specs "HLSL SM 6.6 WaveSize").
    pub fn new(width: u32, active: Mask, helper: Mask) -> Option<Lanes> {
        if !(MIN_LANES..=MAX_LANES).contains(&width) || !width.is_power_of_two() {
            return None;
        }
        let active = active & lanes_below(width);
        Some(Lanes { width, active, helper: helper & active })
    }

    /// Every lane of a `width`-lane wave active, none a helper.
    pub fn full(width: u32) -> Option<Lanes> {
        Lanes::new(width, Mask::MAX, 0)
    }

    /// W, WaveGetLaneCount.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// The lanes that execute (helper lanes included): those that get results.
    pub fn active(&self) -> Mask {
        self.active
    }

    /// The active lanes that are helper lanes.
    pub fn helper(&self) -> Mask {
        self.helper
    }

    /// The lanes whose values wave operations see: active and not helpers.
    pub fn participants(&self) -> Mask {
        self.active & !self.helper
    }

    fn lanes(&self) -> impl Iterator<Item = usize> {
        0..self.width as usize
    }

    fn is_active(&self, i: usize) -> bool {
        i < 128 && self.active >> i & 1 == 1
    }

    fn participates(&self, i: usize) -> bool {
        i < 128 && self.participants() >> i & 1 == 1
    }

    fn first(&self) -> Option<usize> {
        let p = self.participants();
        (p != 0).then(|| p.trailing_zeros() as usize)
    }
}

/// Runs `op` on one wave: `ty` is the type of its value operand (ignored by the operations
/// without one), `args` its lane operands as [`WaveOp`] lists them. Results go to `out`
/// component-major: component `c` of lane `i` at `out[c * W + i]`, for `c <`
/// [`WaveOp::results`].
///
/// Guarantees: writes only the active lanes (helper lanes included); reads `args` only at
/// lanes below `W`; never panics, whatever the lengths of `args` and `out`.
pub fn eval(op: WaveOp, ty: Scalar, lanes: &Lanes, args: &[&[u64]], out: &mut [u64]) {
    let arg = |k: usize| args.get(k).copied().unwrap_or(&[]);
    let (v, index) = (arg(0), arg(1));
    let uniform = |out: &mut [u64], x: u64| each_active(lanes, out, |_| x);
    match op {
        WaveOp::IsFirstLane => is_first_lane(lanes, out),
        WaveOp::GetLaneIndex => each_active(lanes, out, |i| i as u64),
        WaveOp::GetLaneCount => uniform(out, u64::from(lanes.width)),
        WaveOp::AnyTrue => uniform(out, u64::from(any_true(lanes, v))),
        WaveOp::AllTrue => uniform(out, u64::from(all_true(lanes, v))),
        WaveOp::AllEqual => uniform(out, u64::from(all_equal(ty, lanes, v))),
        WaveOp::Ballot => {
            let b = ballot(lanes, v);
            let w = lanes.width as usize;
            for (c, word) in b.iter().enumerate() {
                let part = out.get_mut(c * w..).unwrap_or(&mut []);
                each_active(lanes, part, |_| u64::from(*word));
            }
        }
        WaveOp::ReadLaneAt => read_lane_at(lanes, v, index, out),
        WaveOp::ReadLaneFirst => uniform(out, read_lane_first(lanes, v)),
        WaveOp::Active { op, signed } => uniform(out, reduce(op, signed, ty, lanes, v)),
        WaveOp::Bit(op) => uniform(out, bit_reduce(op, ty, lanes, v)),
        WaveOp::Prefix { op, .. } => prefix(op, ty, lanes, v, out),
        WaveOp::QuadReadLaneAt => quad_read_lane_at(lanes, v, index, out),
        WaveOp::Quad(dir) => quad_read_across(dir, lanes, v, out),
        WaveOp::CountBits => uniform(out, u64::from(count_bits(lanes, v))),
        WaveOp::PrefixCountBits => prefix_count_bits(lanes, v, out),
        WaveOp::Match => {
            let w = lanes.width as usize;
            for i in lanes.lanes().filter(|&i| lanes.is_active(i)) {
                let m = match_mask(ty, lanes, v, i);
                for c in 0..4 {
                    if let Some(o) = out.get_mut(c * w + i) {
                        *o = u64::from((m >> (32 * c)) as u32);
                    }
                }
            }
        }
        WaveOp::MultiPrefix { op, .. } => {
            let masks = [arg(1), arg(2), arg(3), arg(4)];
            each_active(lanes, out, |i| multi_prefix(op, ty, lanes, v, lane_mask(&masks, i), i));
        }
        WaveOp::IsHelperLane => each_active(lanes, out, |i| u64::from(lanes.helper >> i & 1 == 1)),
        WaveOp::QuadVote { all } => each_active(lanes, out, |i| u64::from(quad_vote(all, lanes, v, i))),
        WaveOp::MultiPrefixCountBits => {
            let masks = [arg(1), arg(2), arg(3), arg(4)];
            let bits = ballot_mask(lanes, v);
            each_active(lanes, out, |i| u64::from((bits & lane_mask(&masks, i) & lanes_below(i as u32)).count_ones()));
        }
    }
}

/// QuadAny (`all` false) / QuadAll for lane `i`: whether `cond` is true in any / every active
/// lane of its quad (lanes `4q..4q+3`), helper lanes included, as the quad reads read them.
pub fn quad_vote(all: bool, lanes: &Lanes, cond: &[u64], i: usize) -> bool {
    let quad = (i & !3)..(i & !3) + 4;
    let mut active = quad.filter(|&j| lanes.is_active(j));
    if all {
        active.all(|j| bit(cond, j))
    } else {
        active.any(|j| bit(cond, j))
    }
}

/// WaveMatch for lane `i`: the participating lanes whose value has the bits of lane `i`'s (of
/// the value's width), lane `i` among them when it participates.
///
/// WaveMatch gives the mask of the active lanes holding the current lane's value (DirectX-Specs,
/// shader model 6.5's wave intrinsics, paraphrased); the comparison here is of the bits, so a
/// NaN matches the lanes holding the same NaN and -0 does not match +0.
pub fn match_mask(ty: Scalar, lanes: &Lanes, v: &[u64], i: usize) -> Mask {
    let m = width_mask(ty);
    let x = lane(v, i) & m;
    lanes.lanes().filter(|&j| lanes.participates(j) && lane(v, j) & m == x).fold(0, |a, j| a | 1 << j)
}

/// The 128-bit mask lane `i` gives in four `i32` words (`.x` bits 0–31).
fn lane_mask(words: &[&[u64]; 4], i: usize) -> Mask {
    words.iter().enumerate().fold(0, |m, (c, w)| m | Mask::from(lane(w, i) as u32) << (32 * c))
}

/// WaveMultiPrefixSum/Product/BitAnd/BitOr/BitXor for lane `i`: the operation over the
/// participating lanes `j < i` that are in `mask` (lane `i`'s partition), in lane order from
/// the identity (0 for sum, OR and XOR, 1 for product, all ones for AND).
///
/// The partition is the lane's mask operand (DirectX-Specs, shader model 6.5's wave
/// intrinsics: each lane's prefix runs over the lanes of its own partition, paraphrased);
/// lanes of the mask that do not participate take no part.
pub fn multi_prefix(op: MultiPrefix, ty: Scalar, lanes: &Lanes, v: &[u64], mask: Mask, i: usize) -> u64 {
    let m = width_mask(ty);
    let init = match op {
        MultiPrefix::Sum | MultiPrefix::Or | MultiPrefix::Xor => identity(Reduce::Sum, false, ty),
        MultiPrefix::Product => identity(Reduce::Product, false, ty),
        MultiPrefix::And => m,
    };
    let below = mask & lanes.participants() & lanes_below(i as u32);
    (0..i).filter(|&j| below >> j & 1 == 1).fold(init, |a, j| {
        let x = lane(v, j) & m;
        match op {
            MultiPrefix::Sum => combine(Reduce::Sum, false, ty, a, x),
            MultiPrefix::Product => combine(Reduce::Product, false, ty, a, x),
            MultiPrefix::And => a & x,
            MultiPrefix::Or => a | x,
            MultiPrefix::Xor => a ^ x,
        }
    })
}

/// `out[i] = f(i)` for each active lane `i` that `out` reaches.
fn each_active(lanes: &Lanes, out: &mut [u64], f: impl Fn(usize) -> u64) {
    for i in lanes.lanes() {
        if lanes.is_active(i) {
            if let Some(o) = out.get_mut(i) {
                *o = f(i);
            }
        }
    }
}

fn lane(v: &[u64], i: usize) -> u64 {
    v.get(i).copied().unwrap_or(0)
}

fn bit(v: &[u64], i: usize) -> bool {
    lane(v, i) & 1 == 1
}

/// WaveIsFirstLane: 1 for the lowest participating lane, 0 for every other active lane
/// (helper lanes included).
pub fn is_first_lane(lanes: &Lanes, out: &mut [u64]) {
    let first = lanes.first();
    each_active(lanes, out, |i| u64::from(Some(i) == first));
}

/// WaveActiveAnyTrue: whether `cond` is true in any participating lane.
pub fn any_true(lanes: &Lanes, cond: &[u64]) -> bool {
    ballot_mask(lanes, cond) != 0
}

/// WaveActiveAllTrue: whether `cond` is true in every participating lane (true for none).
pub fn all_true(lanes: &Lanes, cond: &[u64]) -> bool {
    ballot_mask(lanes, cond) == lanes.participants()
}

fn ballot_mask(lanes: &Lanes, cond: &[u64]) -> Mask {
    lanes.lanes().filter(|&i| lanes.participates(i) && bit(cond, i)).fold(0, |m, i| m | 1 << i)
}

/// WaveActiveBallot: bit `i` of the 128-bit result (`.x` bits 0–31, ..., `.w` bits 96–127) is
/// set when lane `i` participates and its `cond` is true.
pub fn ballot(lanes: &Lanes, cond: &[u64]) -> [u32; 4] {
    let m = ballot_mask(lanes, cond);
    [m as u32, (m >> 32) as u32, (m >> 64) as u32, (m >> 96) as u32]
}

/// WaveActiveCountBits: the number of participating lanes whose `bit` is true.
pub fn count_bits(lanes: &Lanes, bits: &[u64]) -> u32 {
    ballot_mask(lanes, bits).count_ones()
}

/// WavePrefixCountBits: for each active lane `i`, the participating lanes `j < i` whose `bit`
/// is true.
pub fn prefix_count_bits(lanes: &Lanes, bits: &[u64], out: &mut [u64]) {
    let m = ballot_mask(lanes, bits);
    each_active(lanes, out, |i| u64::from((m & lanes_below(i as u32)).count_ones()));
}

/// WaveActiveAllEqual: whether every participating lane holds the first one's value (floats
/// compared as floats).
pub fn all_equal(ty: Scalar, lanes: &Lanes, v: &[u64]) -> bool {
    let Some(first) = lanes.first() else { return true };
    let x = lane(v, first);
    lanes.lanes().filter(|&i| lanes.participates(i)).all(|i| equal(ty, x, lane(v, i)))
}

/// WaveReadLaneFirst: the value of the lowest participating lane (0 when none).
pub fn read_lane_first(lanes: &Lanes, v: &[u64]) -> u64 {
    lanes.first().map_or(0, |i| lane(v, i))
}

/// WaveReadLaneAt: each active lane `i` gets the value of lane `index[i]` (the low 32 bits:
/// the operand is an `i32`); 0 when that lane does not participate or is `>= W`.
pub fn read_lane_at(lanes: &Lanes, v: &[u64], index: &[u64], out: &mut [u64]) {
    each_active(lanes, out, |i| {
        let src = lane(index, i) as u32 as usize;
        if src < lanes.width as usize && lanes.participates(src) {
            lane(v, src)
        } else {
            0
        }
    });
}

/// QuadReadLaneAt: each active lane gets the value of lane `index[i]` (0..=3) of its quad,
/// helper lanes included; 0 for an index above 3 or an inactive source lane.
pub fn quad_read_lane_at(lanes: &Lanes, v: &[u64], index: &[u64], out: &mut [u64]) {
    each_active(lanes, out, |i| {
        let q = lane(index, i) as u32;
        let src = (i & !3) + q as usize;
        if q < 4 && lanes.is_active(src) {
            lane(v, src)
        } else {
            0
        }
    });
}

/// QuadReadAcrossX/Y/Diagonal: each active lane gets the value of the lane across its quad in
/// that direction, helper lanes included; 0 when that lane is inactive.
pub fn quad_read_across(dir: QuadDir, lanes: &Lanes, v: &[u64], out: &mut [u64]) {
    each_active(lanes, out, |i| {
        let src = i ^ dir.xor();
        if lanes.is_active(src) {
            lane(v, src)
        } else {
            0
        }
    });
}

/// WaveActiveSum/Product/Min/Max over the participating lanes, in lane order (see the module
/// doc for order, wrapping, NaN and the identity when no lane participates). `signed` is the
/// comparison of integer Min and Max.
pub fn reduce(op: Reduce, signed: bool, ty: Scalar, lanes: &Lanes, v: &[u64]) -> u64 {
    let mut acc: Option<u64> = None;
    for i in lanes.lanes().filter(|&i| lanes.participates(i)) {
        let x = lane(v, i) & width_mask(ty);
        acc = Some(match acc {
            None => x,
            Some(a) => combine(op, signed, ty, a, x),
        });
    }
    acc.unwrap_or_else(|| identity(op, signed, ty))
}

/// WavePrefixSum/Product: for each active lane `i`, the sum or product of the participating
/// lanes `j < i`, from the identity, in lane order.
pub fn prefix(op: Reduce, ty: Scalar, lanes: &Lanes, v: &[u64], out: &mut [u64]) {
    let mut acc = identity(op, false, ty);
    for i in lanes.lanes() {
        if lanes.is_active(i) {
            if let Some(o) = out.get_mut(i) {
                *o = acc;
            }
        }
        if lanes.participates(i) {
            acc = combine(op, false, ty, acc, lane(v, i) & width_mask(ty));
        }
    }
}

/// WaveActiveBitAnd/Or/Xor over the participating lanes (the value's width; AND of no lane is
/// all ones).
pub fn bit_reduce(op: BitOp, ty: Scalar, lanes: &Lanes, v: &[u64]) -> u64 {
    let m = width_mask(ty);
    let init = if op == BitOp::And { m } else { 0 };
    lanes.lanes().filter(|&i| lanes.participates(i)).fold(init, |a, i| {
        let x = lane(v, i) & m;
        match op {
            BitOp::And => a & x,
            BitOp::Or => a | x,
            BitOp::Xor => a ^ x,
        }
    })
}

/// The bits of a value of `ty`.
fn width_mask(ty: Scalar) -> u64 {
    match ty.bits() {
        64 => u64::MAX,
        n => (1u64 << n) - 1,
    }
}

/// An integer of `ty` sign-extended.
fn sext(ty: Scalar, x: u64) -> i64 {
    let s = 64 - ty.bits();
    ((x << s) as i64) >> s
}

fn equal(ty: Scalar, a: u64, b: u64) -> bool {
    match ty {
        Scalar::F16 => half_to_f32(a as u16) == half_to_f32(b as u16),
        Scalar::F32 => f32::from_bits(a as u32) == f32::from_bits(b as u32),
        Scalar::F64 => f64::from_bits(a) == f64::from_bits(b),
        _ => (a ^ b) & width_mask(ty) == 0,
    }
}

/// The value a reduction of no lanes gives.
fn identity(op: Reduce, signed: bool, ty: Scalar) -> u64 {
    let m = width_mask(ty);
    let top = 1u64 << (ty.bits() - 1);
    match (op, ty) {
        // +0.0 for the floats.
        (Reduce::Sum, _) => 0,
        (Reduce::Product, Scalar::F16) => 0x3C00,
        (Reduce::Product, Scalar::F32) => 1f32.to_bits().into(),
        (Reduce::Product, Scalar::F64) => 1f64.to_bits(),
        (Reduce::Product, _) => 1 & m,
        (Reduce::Min, Scalar::F16) => 0x7C00,
        (Reduce::Min, Scalar::F32) => f32::INFINITY.to_bits().into(),
        (Reduce::Min, Scalar::F64) => f64::INFINITY.to_bits(),
        (Reduce::Min, _) if signed => m >> 1,
        (Reduce::Min, _) => m,
        (Reduce::Max, Scalar::F16) => 0xFC00,
        (Reduce::Max, Scalar::F32) => f32::NEG_INFINITY.to_bits().into(),
        (Reduce::Max, Scalar::F64) => f64::NEG_INFINITY.to_bits(),
        (Reduce::Max, _) if signed => top,
        (Reduce::Max, _) => 0,
    }
}

/// `a op b` in `ty`, both already masked to its width.
fn combine(op: Reduce, signed: bool, ty: Scalar, a: u64, b: u64) -> u64 {
    let m = width_mask(ty);
    let f32op = |x: f32, y: f32| match op {
        Reduce::Sum => x + y,
        Reduce::Product => x * y,
        Reduce::Min => x.min(y),
        Reduce::Max => x.max(y),
    };
    match ty {
        // Min and max pick a lane's own bits: no rounding, and -0 / +0 stay as given.
        Scalar::F16 | Scalar::F32 | Scalar::F64 if matches!(op, Reduce::Min | Reduce::Max) => {
            let (x, y) = match ty {
                Scalar::F16 => (f64::from(half_to_f32(a as u16)), f64::from(half_to_f32(b as u16))),
                Scalar::F32 => (f64::from(f32::from_bits(a as u32)), f64::from(f32::from_bits(b as u32))),
                _ => (f64::from_bits(a), f64::from_bits(b)),
            };
            let take_b = match op {
                Reduce::Min => x.is_nan() && !y.is_nan() || y < x,
                _ => x.is_nan() && !y.is_nan() || y > x,
            };
            if take_b {
                b
            } else {
                a
            }
        }
        Scalar::F16 => u64::from(f32_to_half(f32op(half_to_f32(a as u16), half_to_f32(b as u16)))),
        Scalar::F32 => u64::from(f32op(f32::from_bits(a as u32), f32::from_bits(b as u32)).to_bits()),
        Scalar::F64 => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            let r = if op == Reduce::Sum { x + y } else { x * y };
            r.to_bits()
        }
        _ => match op {
            Reduce::Sum => a.wrapping_add(b) & m,
            Reduce::Product => a.wrapping_mul(b) & m,
            Reduce::Min if signed => {
                if sext(ty, b) < sext(ty, a) {
                    b
                } else {
                    a
                }
            }
            Reduce::Max if signed => {
                if sext(ty, b) > sext(ty, a) {
                    b
                } else {
                    a
                }
            }
            Reduce::Min => a.min(b),
            Reduce::Max => a.max(b),
        },
    }
}

#[cfg(test)]
mod tests;
