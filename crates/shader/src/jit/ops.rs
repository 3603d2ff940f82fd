//! The natively compiled operations: which instructions the JIT computes itself
//! ([`native`]), and their lowering to `I32X4` lane vectors.
//!
//! Each computes exactly what `interp::alu` computes for the same bits (the tests compare the
//! two on every operation): integer arithmetic wraps, shifts by a constant take it modulo 32,
//! float arithmetic is IEEE binary32 in the same order of operations, float-to-integer
//! conversions saturate (NaN to 0), min/max and saturate follow alu's explicit rules for NaN
//! and signed zeros.

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{types, InstBuilder, Value};
use cranelift_frontend::FunctionBuilder;

use super::lower::{le, Seg, V};
use crate::interp::program::XInst;
use crate::ir::op::{BinOp, CastOp, CmpPred, Dx, DxBitcast, FUnary, MinMax};
use crate::ir::{Op, Scalar};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum K {
    /// `i1`: all ones or zero (memory: 1 or 0).
    B,
    /// `i32`.
    I,
    /// `float`.
    F,
}

pub(crate) fn kind(s: Scalar) -> Option<K> {
    match s {
        Scalar::Bool => Some(K::B),
        Scalar::I32 => Some(K::I),
        Scalar::F32 => Some(K::F),
        _ => None,
    }
}

/// Whether the JIT computes `i` itself (else it calls the interpreter for it).
pub(crate) fn native(i: &XInst) -> bool {
    let a = |j: usize| i.arg_ty.get(j).copied().and_then(kind);
    let d = i.dst_ty.scalar().and_then(kind);
    let all = |n: usize, k: K| (0..n).all(|j| a(j) == Some(k) && i.arg_slots.get(j) == Some(&1));
    match &i.op {
        Op::Binary(op, s) => {
            use BinOp::*;
            let s = kind(*s);
            d == s
                && all(2, s.unwrap_or(K::I))
                && matches!(
                    (op, s),
                    (Add | Sub | Mul | Shl | LShr | AShr | UDiv | SDiv | URem | SRem, Some(K::I))
                        | (And | Or | Xor, Some(K::I | K::B))
                        | (FAdd | FSub | FMul | FDiv, Some(K::F))
                )
        }
        Op::Cmp(p, s) => {
            let s = kind(*s);
            d == Some(K::B)
                && all(2, s.unwrap_or(K::I))
                && match s {
                    Some(K::I) => !p.is_float(),
                    Some(K::B) => matches!(p, CmpPred::IEq | CmpPred::INe),
                    Some(K::F) => p.is_float(),
                    None => false,
                }
        }
        Op::Select => {
            let n = i.dst_ty.slots();
            a(0) == Some(K::B)
                && n > 0
                && i.arg_slots.get(1) == Some(&n)
                && i.arg_slots.get(2) == Some(&n)
                && (0..n).all(|k| kind(i.dst_ty.slot(k)).is_some())
        }
        Op::Cast(op, from, to) => matches!(
            (op, kind(*from), kind(*to)),
            (CastOp::ZExt | CastOp::SExt, Some(K::B), Some(K::I))
                | (CastOp::Trunc, Some(K::I), Some(K::B))
                | (CastOp::FPToSI | CastOp::FPToUI, Some(K::F), Some(K::I))
                | (CastOp::SIToFP | CastOp::UIToFP, Some(K::I | K::B), Some(K::F))
        ),
        Op::Insert(_) => {
            let n = i.dst_ty.slots();
            n > 0
                && i.arg_slots.len() >= 2
                && (0..n).all(|k| kind(i.dst_ty.slot(k)).is_some())
                && i.arg_ty.iter().take(2).all(|s| kind(*s).is_some())
        }
        Op::Dx(dx) => match dx {
            Dx::FUnary(op) => {
                use FUnary::*;
                matches!(op, FAbs | Saturate | Sqrt | Rsqrt | Frc | RoundNe | RoundNi | RoundPi | RoundZ)
                    && d == Some(K::F)
                    && all(1, K::F)
            }
            Dx::FMad => d == Some(K::F) && all(3, K::F),
            Dx::Dot(n) => d == Some(K::F) && (2..=4).contains(n) && all(2 * *n as usize, K::F),
            Dx::MinMax(MinMax::FMax | MinMax::FMin) => d == Some(K::F) && all(2, K::F),
            Dx::MinMax(_) => d == Some(K::I) && all(2, K::I),
            Dx::IMad | Dx::UMad => d == Some(K::I) && all(3, K::I),
            Dx::Bitcast(DxBitcast::I32ToF32) => d == Some(K::F) && all(1, K::I),
            Dx::Bitcast(DxBitcast::F32ToI32) => d == Some(K::I) && all(1, K::F),
            _ => false,
        },
        _ => false,
    }
}

impl<'a> Seg<'a, '_> {
    fn arg(&mut self, i: &XInst, j: usize, k: K) -> Vec<Value> {
        self.get(i.args[j], k)
    }

    fn f(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(types::F32X4, le(), x)
    }

    fn i(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(V, le(), x)
    }

    /// Lane-wise `g` over float operands, giving floats.
    fn fmap(&mut self, ops: &[Vec<Value>], g: impl Fn(&mut FunctionBuilder<'a>, &[Value]) -> Value) -> Vec<Value> {
        (0..self.nv())
            .map(|j| {
                let xs: Vec<Value> = ops.iter().map(|o| o[j]).collect::<Vec<_>>();
                let xs: Vec<Value> = xs.into_iter().map(|x| self.f(x)).collect();
                let r = g(&mut self.b, &xs);
                self.i(r)
            })
            .collect()
    }

    /// Lane-wise `g` over integer-lane operands (masks, ints, float bits as they are).
    fn imap(&mut self, ops: &[Vec<Value>], g: impl Fn(&mut FunctionBuilder<'a>, &[Value]) -> Value) -> Vec<Value> {
        (0..self.nv())
            .map(|j| {
                let xs: Vec<Value> = ops.iter().map(|o| o[j]).collect();
                g(&mut self.b, &xs)
            })
            .collect()
    }

    /// A float compare's lane mask.
    fn fcmp(b: &mut FunctionBuilder<'_>, p: CmpPred, x: Value, y: Value) -> Value {
        use CmpPred::*;
        let cc = match p {
            FOeq => FloatCC::Equal,
            FOgt => FloatCC::GreaterThan,
            FOge => FloatCC::GreaterThanOrEqual,
            FOlt => FloatCC::LessThan,
            FOle => FloatCC::LessThanOrEqual,
            FOrd => FloatCC::Ordered,
            FUno => FloatCC::Unordered,
            FUgt => FloatCC::UnorderedOrGreaterThan,
            FUge => FloatCC::UnorderedOrGreaterThanOrEqual,
            FUlt => FloatCC::UnorderedOrLessThan,
            FUle => FloatCC::UnorderedOrLessThanOrEqual,
            FUne => FloatCC::NotEqual,
            FOne => {
                let o = b.ins().fcmp(FloatCC::Ordered, x, y);
                let n = b.ins().fcmp(FloatCC::NotEqual, x, y);
                return b.ins().band(o, n);
            }
            FUeq => {
                let u = b.ins().fcmp(FloatCC::Unordered, x, y);
                let e = b.ins().fcmp(FloatCC::Equal, x, y);
                return b.ins().bor(u, e);
            }
            FFalse | FTrue => {
                // Every lane equal to itself or not: all ones; FFalse its complement.
                let e = b.ins().fcmp(FloatCC::Equal, x, x);
                let n = b.ins().fcmp(FloatCC::NotEqual, x, x);
                let all = b.ins().bor(e, n);
                return if p == FTrue { all } else { b.ins().bnot(all) };
            }
            _ => FloatCC::Equal,
        };
        b.ins().fcmp(cc, x, y)
    }

    fn icc(p: CmpPred) -> IntCC {
        use CmpPred::*;
        match p {
            IEq => IntCC::Equal,
            INe => IntCC::NotEqual,
            IUgt => IntCC::UnsignedGreaterThan,
            IUge => IntCC::UnsignedGreaterThanOrEqual,
            IUlt => IntCC::UnsignedLessThan,
            IUle => IntCC::UnsignedLessThanOrEqual,
            ISgt => IntCC::SignedGreaterThan,
            ISge => IntCC::SignedGreaterThanOrEqual,
            ISlt => IntCC::SignedLessThan,
            _ => IntCC::SignedLessThanOrEqual,
        }
    }

    /// A natively compiled instruction.
    pub(crate) fn native(&mut self, i: &XInst) -> Result<(), String> {
        let d = i.dst;
        match &i.op {
            Op::Binary(op, s) => {
                let k = kind(*s).ok_or("binary type")?;
                let (x, y) = (self.arg(i, 0, k), self.arg(i, 1, k));
                use BinOp::*;
                let r = match op {
                    FAdd | FSub | FMul | FDiv => self.fmap(&[x, y], |b, v| match op {
                        FAdd => b.ins().fadd(v[0], v[1]),
                        FSub => b.ins().fsub(v[0], v[1]),
                        FMul => b.ins().fmul(v[0], v[1]),
                        _ => b.ins().fdiv(v[0], v[1]),
                    }),
                    Shl | LShr | AShr | UDiv | SDiv | URem | SRem
                        if !(matches!(op, Shl | LShr | AShr) && i.imm[1].is_some()) =>
                    {
                        // Per lane: x86 has no vector division, nor (before AVX2) shifts by
                        // a vector; Cranelift masks a scalar i32 shift by 31, alu takes it
                        // modulo 32. Division as alu: a zero divisor gives all ones, the
                        // signed overflow (MIN / -1) wraps to MIN with remainder 0.
                        let op = *op;
                        self.imap(&[x, y], |b, v| {
                            let mut out = v[0];
                            for l in 0..4u8 {
                                let (a, c) = (b.ins().extractlane(v[0], l), b.ins().extractlane(v[1], l));
                                let r = match op {
                                    Shl => b.ins().ishl(a, c),
                                    LShr => b.ins().ushr(a, c),
                                    AShr => b.ins().sshr(a, c),
                                    _ => {
                                        let one = b.ins().iconst(types::I32, 1);
                                        let zero = b.ins().icmp_imm_u(IntCC::Equal, c, 0);
                                        let mut safe = b.ins().select(zero, one, c);
                                        if matches!(op, SDiv | SRem) {
                                            let min = b.ins().icmp_imm_u(IntCC::Equal, a, 0x8000_0000);
                                            let neg1 = b.ins().icmp_imm_u(IntCC::Equal, c, 0xFFFF_FFFF);
                                            let both = b.ins().band(min, neg1);
                                            safe = b.ins().select(both, one, safe);
                                        }
                                        let q = match op {
                                            UDiv => b.ins().udiv(a, safe),
                                            URem => b.ins().urem(a, safe),
                                            SDiv => b.ins().sdiv(a, safe),
                                            _ => b.ins().srem(a, safe),
                                        };
                                        let ones = b.ins().iconst(types::I32, -1);
                                        b.ins().select(zero, ones, q)
                                    }
                                };
                                out = b.ins().insertlane(out, r, l);
                            }
                            out
                        })
                    }
                    Shl | LShr | AShr => {
                        let sh = (i.imm[1].unwrap_or(0) % 32) as i64;
                        self.imap(&[x], |b, v| match op {
                            Shl => b.ins().ishl_imm_u(v[0], sh),
                            LShr => b.ins().ushr_imm_u(v[0], sh),
                            _ => b.ins().sshr_imm_u(v[0], sh),
                        })
                    }
                    _ => self.imap(&[x, y], |b, v| match op {
                        Add => b.ins().iadd(v[0], v[1]),
                        Sub => b.ins().isub(v[0], v[1]),
                        Mul => b.ins().imul(v[0], v[1]),
                        And => b.ins().band(v[0], v[1]),
                        Or => b.ins().bor(v[0], v[1]),
                        _ => b.ins().bxor(v[0], v[1]),
                    }),
                };
                self.def(d, k, r);
            }
            Op::Cmp(p, s) => {
                let k = kind(*s).ok_or("compare type")?;
                let (x, y) = (self.arg(i, 0, k), self.arg(i, 1, k));
                let p = *p;
                let r = if k == K::F {
                    let nv = self.nv();
                    (0..nv)
                        .map(|j| {
                            let (a, c) = (self.f(x[j]), self.f(y[j]));
                            Self::fcmp(&mut self.b, p, a, c)
                        })
                        .collect()
                } else {
                    self.imap(&[x, y], |b, v| b.ins().icmp(Self::icc(p), v[0], v[1]))
                };
                self.def(d, K::B, r);
            }
            Op::Select => {
                let c = self.arg(i, 0, K::B);
                for k in 0..i.dst_ty.slots() {
                    let kk = kind(i.dst_ty.slot(k)).ok_or("select type")?;
                    let t = self.get(i.args[1] + k, kk);
                    let e = self.get(i.args[2] + k, kk);
                    let r = self.imap(&[c.clone(), t, e], |b, v| b.ins().bitselect(v[0], v[1], v[2]));
                    self.def(d + k, kk, r);
                }
            }
            Op::Cast(op, from, _) => {
                let kf = kind(*from).ok_or("cast type")?;
                let x = self.arg(i, 0, kf);
                let (k, r) = match op {
                    CastOp::ZExt => (K::I, self.convert(x, K::B, K::I)),
                    CastOp::SExt => (K::I, x),
                    CastOp::Trunc => (K::B, self.convert(x, K::I, K::B)),
                    CastOp::FPToSI | CastOp::FPToUI => {
                        let signed = *op == CastOp::FPToSI;
                        (
                            K::I,
                            self.imap(&[x], |b, v| {
                                let f = b.ins().bitcast(types::F32X4, le(), v[0]);
                                if signed {
                                    b.ins().fcvt_to_sint_sat(V, f)
                                } else {
                                    b.ins().fcvt_to_uint_sat(V, f)
                                }
                            }),
                        )
                    }
                    _ => {
                        let signed = *op == CastOp::SIToFP;
                        // An i1 reads as 0 / 1 (unsigned) or 0 / -1 (signed): its mask.
                        let x = if kf == K::B && !signed { self.convert(x, K::B, K::I) } else { x };
                        (
                            K::F,
                            self.imap(&[x], |b, v| {
                                let f = if signed {
                                    b.ins().fcvt_from_sint(types::F32X4, v[0])
                                } else {
                                    b.ins().fcvt_from_uint(types::F32X4, v[0])
                                };
                                b.ins().bitcast(V, le(), f)
                            }),
                        )
                    }
                };
                self.def(d, k, r);
            }
            Op::Insert(at) => {
                let n = i.dst_ty.slots().min(i.arg_slots[0]);
                let vn = i.arg_slots[1].min(n.saturating_sub(*at));
                for k in 0..n {
                    let kk = kind(i.dst_ty.slot(k)).ok_or("insert type")?;
                    let src = if k >= *at && k < at + vn { i.args[1] + (k - at) } else { i.args[0] + k };
                    let v = self.get(src, kk);
                    self.def(d + k, kk, v);
                }
            }
            Op::Dx(dx) => self.dx(*dx, i)?,
            _ => return Err(format!("{:?} is not native", i.op)),
        }
        match self.err.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn dx(&mut self, dx: Dx, i: &XInst) -> Result<(), String> {
        let d = i.dst;
        match dx {
            Dx::FUnary(op) => {
                let x = self.arg(i, 0, K::F);
                let r = match op {
                    FUnary::FAbs => {
                        let m = self.splat(0x7FFF_FFFF);
                        self.imap(&[x], |b, v| b.ins().band(v[0], m))
                    }
                    FUnary::Saturate => {
                        let (zero, one) = (self.splat(0), self.splat(1.0f32.to_bits()));
                        self.imap(&[x], |b, v| {
                            // x < 0 → +0; then > 1 → 1; NaN → +0 (as alu's clamp; -0 stays).
                            let f = b.ins().bitcast(types::F32X4, le(), v[0]);
                            let (fz, fo) =
                                (b.ins().bitcast(types::F32X4, le(), zero), b.ins().bitcast(types::F32X4, le(), one));
                            let lt = b.ins().fcmp(FloatCC::LessThan, f, fz);
                            let t = b.ins().bitselect(lt, zero, v[0]);
                            let tf = b.ins().bitcast(types::F32X4, le(), t);
                            let gt = b.ins().fcmp(FloatCC::GreaterThan, tf, fo);
                            let t = b.ins().bitselect(gt, one, t);
                            let nan = b.ins().fcmp(FloatCC::Unordered, f, f);
                            b.ins().bitselect(nan, zero, t)
                        })
                    }
                    FUnary::Rsqrt | FUnary::Frc => {
                        // As alu: in f64, rounded once to f32 (1 / sqrt(x); x - floor(x)).
                        let one = self.b.ins().f64const(1.0);
                        let one = self.b.ins().splat(types::F64X2, one);
                        let swap = self.b.func.dfg.immediates.push(cranelift_codegen::ir::ConstantData::from(
                            &[8u8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7][..],
                        ));
                        let join = self.b.func.dfg.immediates.push(cranelift_codegen::ir::ConstantData::from(
                            &[0u8, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23][..],
                        ));
                        self.imap(&[x], |b, v| {
                            let f = b.ins().bitcast(types::F32X4, le(), v[0]);
                            let bytes = b.ins().bitcast(types::I8X16, le(), f);
                            let high = b.ins().shuffle(bytes, bytes, swap);
                            let high = b.ins().bitcast(types::F32X4, le(), high);
                            let halves = [b.ins().fvpromote_low(f), b.ins().fvpromote_low(high)].map(|d| {
                                let r = if op == FUnary::Rsqrt {
                                    let s = b.ins().sqrt(d);
                                    b.ins().fdiv(one, s)
                                } else {
                                    let fl = b.ins().floor(d);
                                    b.ins().fsub(d, fl)
                                };
                                let r = b.ins().fvdemote(r);
                                b.ins().bitcast(types::I8X16, le(), r)
                            });
                            let r = b.ins().shuffle(halves[0], halves[1], join);
                            b.ins().bitcast(V, le(), r)
                        })
                    }
                    _ => self.fmap(&[x], |b, v| match op {
                        FUnary::Sqrt => b.ins().sqrt(v[0]),
                        FUnary::RoundNe => b.ins().nearest(v[0]),
                        FUnary::RoundNi => b.ins().floor(v[0]),
                        FUnary::RoundPi => b.ins().ceil(v[0]),
                        _ => b.ins().trunc(v[0]),
                    }),
                };
                self.def(d, K::F, r);
            }
            Dx::FMad => {
                let ops = [self.arg(i, 0, K::F), self.arg(i, 1, K::F), self.arg(i, 2, K::F)];
                let r = self.fmap(&ops, |b, v| {
                    let m = b.ins().fmul(v[0], v[1]);
                    b.ins().fadd(m, v[2])
                });
                self.def(d, K::F, r);
            }
            Dx::Dot(n) => {
                let n = n as usize;
                let ops: Vec<Vec<Value>> = (0..2 * n).map(|j| self.arg(i, j, K::F)).collect();
                let r = self.fmap(&ops, |b, v| {
                    let mut acc = b.ins().fmul(v[0], v[n]);
                    for k in 1..n {
                        let m = b.ins().fmul(v[k], v[n + k]);
                        acc = b.ins().fadd(acc, m);
                    }
                    acc
                });
                self.def(d, K::F, r);
            }
            Dx::MinMax(op) => {
                let k = if matches!(op, MinMax::FMax | MinMax::FMin) { K::F } else { K::I };
                let (x, y) = (self.arg(i, 0, k), self.arg(i, 1, k));
                let r = self.imap(&[x, y], |b, v| match op {
                    MinMax::FMax | MinMax::FMin => {
                        // alu::minmax: b when it is greater (less) or a is NaN, else a.
                        let (fa, fb) =
                            (b.ins().bitcast(types::F32X4, le(), v[0]), b.ins().bitcast(types::F32X4, le(), v[1]));
                        let cc = if op == MinMax::FMax { FloatCC::GreaterThan } else { FloatCC::LessThan };
                        let better = b.ins().fcmp(cc, fb, fa);
                        let nan = b.ins().fcmp(FloatCC::Unordered, fa, fa);
                        let take = b.ins().bor(better, nan);
                        b.ins().bitselect(take, v[1], v[0])
                    }
                    MinMax::IMax => b.ins().smax(v[0], v[1]),
                    MinMax::IMin => b.ins().smin(v[0], v[1]),
                    MinMax::UMax => b.ins().umax(v[0], v[1]),
                    MinMax::UMin => b.ins().umin(v[0], v[1]),
                });
                self.def(d, k, r);
            }
            Dx::IMad | Dx::UMad => {
                let ops = [self.arg(i, 0, K::I), self.arg(i, 1, K::I), self.arg(i, 2, K::I)];
                let r = self.imap(&ops, |b, v| {
                    let m = b.ins().imul(v[0], v[1]);
                    b.ins().iadd(m, v[2])
                });
                self.def(d, K::I, r);
            }
            Dx::Bitcast(c) => {
                let (from, to) = if c == DxBitcast::I32ToF32 { (K::I, K::F) } else { (K::F, K::I) };
                let x = self.arg(i, 0, from);
                self.def(d, to, x);
            }
            _ => return Err(format!("{dx:?} is not native")),
        }
        Ok(())
    }
}
