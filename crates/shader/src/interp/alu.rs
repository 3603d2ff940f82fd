//! Arithmetic on raw lane bits: LLVM's binary operators, casts and comparisons, and the
//! computing dx.ops, as pure functions of a [`Scalar`] type and `u64` bits. The lowering folds
//! constant expressions with the same functions, so a constant and the instruction it
//! replaces agree bit for bit.
//!
//! Semantics are today's interpreter's (DXIL.rst): integers wrap at their width; division by
//! zero gives all bits set (`udiv`, `urem`) or -1 (`sdiv`, `srem`); `fptosi`/`fptoui` saturate
//! (NaN gives 0); float operations of `f32` run in f32, unary dx.op math in f64 rounded to
//! f32; `f16` values compute in f32 and round back to half.

use crate::ir::op::{BinOp, CastOp, CmpPred, FClass, FUnary, IUnary, MinMax};
use crate::ir::Scalar;

/// `v` sign-extended from `w` bits.
#[inline(always)]
pub fn sext(v: u64, w: u32) -> i64 {
    if w == 0 || w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

/// `v` cut to `w` bits.
#[inline(always)]
pub fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

/// Bits of type `s` as an f64 (integers as today's interpreter reads them as a float: the low
/// 32 bits as an f32's).
#[inline(always)]
pub fn to_f64(s: Scalar, v: u64) -> f64 {
    match s {
        Scalar::F64 => f64::from_bits(v),
        s => f64::from(to_f32(s, v)),
    }
}

/// Bits of type `s` as an f32.
#[inline(always)]
pub fn to_f32(s: Scalar, v: u64) -> f32 {
    match s {
        Scalar::F32 => f32::from_bits(v as u32),
        Scalar::F64 => f64::from_bits(v) as f32,
        Scalar::F16 => half_to_f32(v as u16),
        _ => f32::from_bits(v as u32),
    }
}

/// An f32 as bits of float type `s` (`f64` widened, `f16` rounded to nearest even).
#[inline(always)]
pub fn from_f32(s: Scalar, x: f32) -> u64 {
    match s {
        Scalar::F64 => f64::from(x).to_bits(),
        Scalar::F16 => u64::from(f32_to_half(x)),
        _ => u64::from(x.to_bits()),
    }
}

/// An f64 as bits of float type `s` (f32 and f16 through `as f32`).
#[inline(always)]
pub fn from_f64(s: Scalar, x: f64) -> u64 {
    match s {
        Scalar::F64 => x.to_bits(),
        s => from_f32(s, x as f32),
    }
}

/// `a op b` for operands of type `s`.
#[inline(always)]
pub fn binary(op: BinOp, s: Scalar, a: u64, b: u64) -> u64 {
    match op {
        BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem => {
            if s == Scalar::F64 {
                let (x, y) = (f64::from_bits(a), f64::from_bits(b));
                return match op {
                    BinOp::FAdd => x + y,
                    BinOp::FSub => x - y,
                    BinOp::FMul => x * y,
                    BinOp::FDiv => x / y,
                    _ => x % y,
                }
                .to_bits();
            }
            let (x, y) = (to_f32(s, a), to_f32(s, b));
            let r = match op {
                BinOp::FAdd => x + y,
                BinOp::FSub => x - y,
                BinOp::FMul => x * y,
                BinOp::FDiv => x / y,
                _ => x % y,
            };
            from_f32(s, r)
        }
        _ => {
            let w = s.bits();
            let (sx, sy) = (sext(a, w), sext(b, w));
            let sh = (b % u64::from(w.max(1))) as u32;
            let r = match op {
                BinOp::Add => a.wrapping_add(b),
                BinOp::Sub => a.wrapping_sub(b),
                BinOp::Mul => a.wrapping_mul(b),
                BinOp::UDiv => a.checked_div(b).unwrap_or(u64::MAX),
                BinOp::SDiv => sx.checked_div(sy).unwrap_or(-1) as u64,
                BinOp::URem => a.checked_rem(b).unwrap_or(u64::MAX),
                BinOp::SRem => sx.checked_rem(sy).unwrap_or(-1) as u64,
                BinOp::Shl => a << sh,
                BinOp::LShr => a >> sh,
                BinOp::AShr => (sx >> sh) as u64,
                BinOp::And => a & b,
                BinOp::Or => a | b,
                _ => a ^ b,
            };
            mask(r, w)
        }
    }
}

/// `v` of type `from` cast to `to`.
#[inline(always)]
pub fn cast(op: CastOp, from: Scalar, to: Scalar, v: u64) -> u64 {
    let (fw, tw) = (from.bits(), to.bits());
    match op {
        CastOp::Trunc | CastOp::ZExt => mask(v, tw),
        CastOp::SExt => mask(sext(v, fw) as u64, tw),
        CastOp::FPToUI => {
            let max = if tw >= 64 { u64::MAX as f64 } else { ((1u64 << tw) - 1) as f64 };
            let x = to_f64(from, v);
            if x.is_nan() {
                0
            } else {
                x.clamp(0.0, max) as u64
            }
        }
        CastOp::FPToSI => {
            let (lo, hi) = if tw >= 64 { (i64::MIN, i64::MAX) } else { (-(1i64 << (tw - 1)), (1i64 << (tw - 1)) - 1) };
            let x = to_f64(from, v);
            let i = if x.is_nan() { 0 } else { (x as i64).clamp(lo, hi) };
            mask(i as u64, tw)
        }
        CastOp::UIToFP => from_f64(to, mask(v, fw) as f64),
        CastOp::SIToFP => from_f64(to, sext(v, fw) as f64),
        CastOp::FPTrunc | CastOp::FPExt => from_f64(to, to_f64(from, v)),
        CastOp::BitCast => v,
    }
}

/// `a pred b` for operands of type `s`.
#[inline(always)]
pub fn compare(p: CmpPred, s: Scalar, a: u64, b: u64) -> bool {
    use CmpPred::*;
    if p.is_float() {
        let (x, y) = (to_f64(s, a), to_f64(s, b));
        let unordered = x.is_nan() || y.is_nan();
        let ord = |r: bool| !unordered && r;
        let unord = |r: bool| unordered || r;
        return match p {
            FFalse => false,
            FOeq => ord(x == y),
            FOgt => ord(x > y),
            FOge => ord(x >= y),
            FOlt => ord(x < y),
            FOle => ord(x <= y),
            FOne => ord(x != y),
            FOrd => !unordered,
            FUno => unordered,
            FUeq => unord(x == y),
            FUgt => unord(x > y),
            FUge => unord(x >= y),
            FUlt => unord(x < y),
            FUle => unord(x <= y),
            FUne => unord(x != y),
            _ => true,
        };
    }
    let w = s.bits();
    let (x, y) = (mask(a, w), mask(b, w));
    let (sx, sy) = (sext(x, w), sext(y, w));
    match p {
        IEq => x == y,
        INe => x != y,
        IUgt => x > y,
        IUge => x >= y,
        IUlt => x < y,
        IUle => x <= y,
        ISgt => sx > sy,
        ISge => sx >= sy,
        ISlt => sx < sy,
        _ => sx <= sy,
    }
}

/// Round to nearest, ties to even, keeping the sign of a zero result (-0.5 gives -0, as
/// IEEE's roundToIntegralTiesToEven and x86's ROUNDPS do; the JIT's code uses the latter).
fn round_half_even(x: f64) -> f64 {
    x.round_ties_even()
}

/// A unary float dx.op on a value of type `s` (computed in f64; f32 and f16 results rounded
/// from it).
#[inline(always)]
pub fn funary(op: FUnary, s: Scalar, v: u64) -> u64 {
    use FUnary::*;
    if op == FAbs {
        // The sign bit cleared, NaNs' payloads kept (no round trip through f64).
        return match s {
            Scalar::F64 => v & !(1 << 63),
            Scalar::F16 => v & 0x7FFF,
            _ => v & 0x7FFF_FFFF,
        };
    }
    let x = if s == Scalar::F64 { f64::from_bits(v) } else { f64::from(to_f32(s, v)) };
    let r = match op {
        FAbs => x.abs(),
        Saturate => {
            if x.is_nan() {
                0.0
            } else {
                x.clamp(0.0, 1.0)
            }
        }
        Cos => x.cos(),
        Sin => x.sin(),
        Tan => x.tan(),
        Acos => x.acos(),
        Asin => x.asin(),
        Atan => x.atan(),
        Hcos => x.cosh(),
        Hsin => x.sinh(),
        Htan => x.tanh(),
        Exp => x.exp2(),
        Frc => x - x.floor(),
        Log => x.log2(),
        Sqrt => x.sqrt(),
        Rsqrt => 1.0 / x.sqrt(),
        RoundNe => round_half_even(x),
        RoundNi => x.floor(),
        RoundPi => x.ceil(),
        RoundZ => x.trunc(),
    };
    from_f64(s, r)
}

/// A float classification, on the value read as an f32 (as today's interpreter does).
pub fn fclass(c: FClass, s: Scalar, v: u64) -> bool {
    let x = to_f32(s, v);
    match c {
        FClass::IsNan => x.is_nan(),
        FClass::IsInf => x.is_infinite(),
        FClass::IsFinite => x.is_finite(),
        FClass::IsNormal => x.is_normal(),
    }
}

fn first_bit_hi(x: u64, w: u32) -> u64 {
    let x = mask(x, w);
    if x == 0 {
        u64::from(u32::MAX)
    } else {
        u64::from(w - 1 - (63 - x.leading_zeros()))
    }
}

/// An integer bit dx.op on a value of width `w`.
pub fn iunary(op: IUnary, w: u32, v: u64) -> u64 {
    match op {
        IUnary::Bfrev => mask(v.reverse_bits() >> (64 - w), w),
        IUnary::Countbits => u64::from(v.count_ones()),
        IUnary::FirstbitLo => {
            if v == 0 {
                u64::from(u32::MAX)
            } else {
                u64::from(v.trailing_zeros())
            }
        }
        IUnary::FirstbitHi => first_bit_hi(v, w),
        IUnary::FirstbitSHi => {
            let x = sext(v, w);
            first_bit_hi(if x < 0 { !x as u64 } else { x as u64 }, w)
        }
    }
}

/// A min or max dx.op on values of type `s` (float forms in f32: a NaN operand gives the
/// other one; of two zeros, the first).
pub fn minmax(op: MinMax, s: Scalar, a: u64, b: u64) -> u64 {
    let w = s.bits();
    match op {
        // `b` when it is the greater (lesser) or `a` is NaN, else `a`: a NaN operand gives the
        // other one, and equal operands (+0 and -0 too) give `a`, the same in every back end.
        MinMax::FMax | MinMax::FMin => {
            let (x, y) = (to_f32(s, a), to_f32(s, b));
            let better = if op == MinMax::FMax { y > x } else { y < x };
            from_f32(s, if better || x.is_nan() { y } else { x })
        }
        MinMax::IMax => mask(sext(a, w).max(sext(b, w)) as u64, w),
        MinMax::IMin => mask(sext(a, w).min(sext(b, w)) as u64, w),
        MinMax::UMax => a.max(b),
        MinMax::UMin => a.min(b),
    }
}

/// Ibfe (`signed`) / Ubfe (width, offset, value), as DXBC's ibfe / ubfe.
pub fn bfe(signed: bool, width: u64, off: u64, v: u64) -> u64 {
    let (width, off, v) = ((width & 31) as u32, (off & 31) as u32, v as u32);
    let r = if width == 0 {
        0
    } else if width + off < 32 {
        let shl = v << (32 - (width + off));
        if signed {
            ((shl as i32) >> (32 - width)) as u32
        } else {
            shl >> (32 - width)
        }
    } else if signed {
        ((v as i32) >> off) as u32
    } else {
        v >> off
    };
    u64::from(r)
}

/// Bfi (width, offset, value, replaced).
pub fn bfi(width: u64, off: u64, v: u64, replaced: u64) -> u64 {
    let (width, off) = ((width & 31) as u32, (off & 31) as u32);
    let m = (((1u64 << width) - 1) << off) as u32;
    u64::from(((v as u32) << off) & m | (replaced as u32) & !m)
}

/// Msad: `acc` plus |reference byte − source byte| over the byte lanes whose reference byte is
/// not zero.
pub fn msad(reference: u32, source: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |a, k| {
        let (r, s) = ((reference >> (8 * k)) & 0xFF, (source >> (8 * k)) & 0xFF);
        if r == 0 {
            a
        } else {
            a.wrapping_add(r.abs_diff(s))
        }
    })
}

/// Dot4AddI8Packed / Dot4AddU8Packed: `acc` plus the products of byte `k` of `a` and byte `k`
/// of `b` for k = 0..4, the bytes read as signed (`signed`) or unsigned, wrapping at 32 bits.
pub fn dot4_add_packed(signed: bool, acc: u32, a: u32, b: u32) -> u32 {
    (0..4).fold(acc, |sum, k| {
        let byte = |x: u32| {
            let v = (x >> (8 * k)) & 0xFF;
            if signed {
                v as u8 as i8 as i32 as u32
            } else {
                v
            }
        };
        sum.wrapping_add(byte(a).wrapping_mul(byte(b)))
    })
}

/// One component of Pack4x8 as its byte: the low 8 bits of `x`, or `x` (signed) clamped to
/// 0..=255 or -128..=127 first.
pub fn pack_byte(mode: crate::ir::op::PackMode, x: i64) -> u32 {
    use crate::ir::op::PackMode;
    let v = match mode {
        PackMode::Trunc => x,
        PackMode::UClamp => x.clamp(0, 255),
        PackMode::SClamp => x.clamp(-128, 127),
    };
    (v as u32) & 0xFF
}

/// IEEE half bits to f32.
pub fn half_to_f32(h: u16) -> f32 {
    let (s, e, m) = ((h >> 15) as u32, ((h >> 10) & 0x1f) as u32, (h & 0x3ff) as u32);
    let bits = match (e, m) {
        (0, 0) => s << 31,
        (0, _) => {
            // Subnormal: normalise.
            let mut e = 127 - 15 + 1;
            let mut m = m;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            (s << 31) | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
        (0x1f, _) => (s << 31) | (0xff << 23) | (m << 13),
        _ => (s << 31) | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// f32 to IEEE half bits, rounding to nearest even.
pub fn f32_to_half(f: f32) -> u16 {
    let b = f.to_bits();
    let s = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32;
    let m = b & 0x7f_ffff;
    if e == 0xff {
        return s | 0x7c00 | if m != 0 { 0x200 } else { 0 };
    }
    let e16 = e - 127 + 15;
    if e16 >= 0x1f {
        return s | 0x7c00;
    }
    if e16 <= 0 {
        if e16 < -10 {
            return s;
        }
        let m = m | 0x80_0000;
        let shift = (14 - e16) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let r = if rem > mid || (rem == mid && half & 1 == 1) { half + 1 } else { half };
        return s | r as u16;
    }
    let half = ((e16 as u32) << 10) | (m >> 13);
    let rem = m & 0x1fff;
    let r = if rem > 0x1000 || (rem == 0x1000 && half & 1 == 1) { half + 1 } else { half };
    s | r as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_conversions_round_trip_and_round_to_nearest_even() {
        for h in [0x3c00u16, 0xc000, 0x7bff, 0x0001, 0x0400, 0x8000] {
            assert_eq!(f32_to_half(half_to_f32(h)), h, "{h:#x}");
        }
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24), "the smallest subnormal");
        assert_eq!(f32_to_half(65520.0), 0x7c00, "rounds to infinity");
        // 1 + 2^-11 lies halfway between 1 and the next half: even (1) wins.
        assert_eq!(f32_to_half(1.0 + 2f32.powi(-11)), 0x3c00);
        assert_eq!(f32_to_half(1.0 + 3.0 * 2f32.powi(-11)), 0x3c02);
    }

    #[test]
    fn integers_wrap_and_divide_as_d3d() {
        assert_eq!(binary(BinOp::Add, Scalar::I32, 0xFFFF_FFFF, 1), 0);
        assert_eq!(binary(BinOp::UDiv, Scalar::I32, 7, 0), 0xFFFF_FFFF);
        assert_eq!(binary(BinOp::SDiv, Scalar::I32, 0xFFFF_FFF9, 2), 0xFFFF_FFFD, "-7 / 2 = -3");
        assert_eq!(binary(BinOp::Shl, Scalar::I32, 1, 33), 2, "shift counts wrap at the width");
        assert_eq!(binary(BinOp::AShr, Scalar::I8, 0x80, 7), 0xFF);
    }

    #[test]
    fn floats_compute_at_their_precision() {
        let f = |x: f32| u64::from(x.to_bits());
        assert_eq!(binary(BinOp::FMul, Scalar::F32, f(1.5), f(2.0)), f(3.0));
        assert_eq!(cast(CastOp::FPToSI, Scalar::F32, Scalar::I32, f(-3.7)), 0xFFFF_FFFD);
        assert_eq!(cast(CastOp::FPToUI, Scalar::F32, Scalar::I32, f(-1.0)), 0, "saturates");
        assert_eq!(cast(CastOp::FPToUI, Scalar::F32, Scalar::I32, f(f32::NAN)), 0);
        assert_eq!(cast(CastOp::SIToFP, Scalar::I32, Scalar::F32, 0xFFFF_FFFE), f(-2.0));
        assert_eq!(cast(CastOp::FPTrunc, Scalar::F32, Scalar::F16, f(1.0)), 0x3c00);
        assert!(compare(CmpPred::FUlt, Scalar::F32, f(f32::NAN), f(2.0)));
        assert!(!compare(CmpPred::FOlt, Scalar::F32, f(f32::NAN), f(2.0)));
        assert!(compare(CmpPred::ISlt, Scalar::I32, 0xFFFF_FFFF, 0), "-1 < 0 signed");
        assert_eq!(funary(FUnary::RoundNe, Scalar::F32, f(2.5)), f(2.0));
        assert_eq!(funary(FUnary::RoundNe, Scalar::F32, f(-0.5)), f(-0.0), "the sign stays");
        assert_eq!(funary(FUnary::RoundNe, Scalar::F32, f(-1.5)), f(-2.0));
        assert_eq!(minmax(MinMax::FMax, Scalar::F32, f(f32::NAN), f(1.0)), f(1.0));
        assert_eq!(iunary(IUnary::FirstbitHi, 32, 1), 31);
        assert_eq!(bfe(false, 4, 4, 0xABCD), 0xC);
        assert_eq!(msad(0xFF80_0010, 0x007F_FF30, 5), 5 + 32 + 1 + 255);
    }
}
