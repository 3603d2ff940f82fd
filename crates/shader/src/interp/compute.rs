//! Instruction dispatch, and the arithmetic instructions (LLVM's and the computing dx.ops)
//! over the lanes of a mask. Each reads its operands' slots and writes its result's, lane by
//! lane, through the functions of [`super::alu`].

use super::alu;
use super::control::{each, Wave};
use super::env::WaveEnv;
use super::program::XInst;
use super::R;
use crate::ir::op::{BinOp, Dx, DxBitcast, LegacyConv, MinMax, TwoOut};
use crate::ir::{Op, Scalar};

impl Wave<'_> {
    /// Slot `s` of lane `l`.
    #[inline(always)]
    pub(crate) fn r(&self, s: u32, l: usize) -> u64 {
        self.regs[s as usize * self.w + l]
    }

    /// Writes slot `s` of lane `l`.
    #[inline(always)]
    pub(crate) fn set(&mut self, s: u32, l: usize, v: u64) {
        self.regs[s as usize * self.w + l] = v;
    }

    /// Operand `k` of `inst` for lane `l` (0 when the operation has fewer operands).
    #[inline(always)]
    pub(crate) fn arg(&self, inst: &XInst, k: usize, l: usize) -> u64 {
        inst.args.get(k).map_or(0, |&s| self.r(s, l))
    }

    /// Operand `k` read as an f32.
    #[inline(always)]
    pub(crate) fn argf(&self, inst: &XInst, k: usize, l: usize) -> f32 {
        match inst.arg_ty.get(k) {
            Some(&s) => alu::to_f32(s, self.r(inst.args[k], l)),
            None => 0.0,
        }
    }

    /// Operand `k` read as an f64.
    #[inline(always)]
    fn argd(&self, inst: &XInst, k: usize, l: usize) -> f64 {
        match inst.arg_ty.get(k) {
            Some(&s) => alu::to_f64(s, self.r(inst.args[k], l)),
            None => 0.0,
        }
    }

    /// Runs `inst` for the lanes of `mask`; `true` when it is a group barrier that stops them.
    pub(crate) fn exec(&mut self, inst: &XInst, mask: u128, env: &mut dyn WaveEnv, group: &mut [u64]) -> R<bool> {
        let w = self.w;
        let (d, a) = (inst.dst as usize * w, inst.args.first().map_or(0, |&s| s as usize * w));
        match &inst.op {
            Op::Binary(op, s) => {
                let (op, s, b) = (*op, *s, inst.args[1] as usize * w);
                // The commonest operations of a full wave in straight loops the compiler can
                // vectorise; the rest through the generic function.
                macro_rules! lanes {
                    ($f:expr) => {
                        if mask == super::control::full(w) {
                            let g = $f;
                            for l in 0..w {
                                self.regs[d + l] = g(self.regs[a + l], self.regs[b + l]);
                            }
                        } else {
                            each(mask, w, |l| self.regs[d + l] = $f(self.regs[a + l], self.regs[b + l]));
                        }
                    };
                }
                let f32op = |g: fn(f32, f32) -> f32| {
                    move |x: u64, y: u64| u64::from(g(f32::from_bits(x as u32), f32::from_bits(y as u32)).to_bits())
                };
                match (op, s) {
                    (BinOp::FMul, Scalar::F32) => lanes!(f32op(|x, y| x * y)),
                    (BinOp::FAdd, Scalar::F32) => lanes!(f32op(|x, y| x + y)),
                    (BinOp::FSub, Scalar::F32) => lanes!(f32op(|x, y| x - y)),
                    (BinOp::Add, Scalar::I32) => lanes!(|x: u64, y: u64| u64::from((x as u32).wrapping_add(y as u32))),
                    _ => each(mask, w, |l| self.regs[d + l] = alu::binary(op, s, self.regs[a + l], self.regs[b + l])),
                }
            }
            Op::Cast(op, from, to) => {
                let (op, from, to) = (*op, *from, *to);
                each(mask, w, |l| self.regs[d + l] = alu::cast(op, from, to, self.regs[a + l]));
            }
            Op::Cmp(p, s) => {
                let (p, s, b) = (*p, *s, inst.args[1] as usize * w);
                each(mask, w, |l| self.regs[d + l] = u64::from(alu::compare(p, s, self.regs[a + l], self.regs[b + l])));
            }
            Op::Select => {
                let (t, e, n) = (inst.args[1] as usize, inst.args[2] as usize, inst.dst_ty.slots() as usize);
                each(mask, w, |l| {
                    let from = if self.regs[a + l] & 1 != 0 { t } else { e };
                    for k in 0..n {
                        self.regs[d + k * w + l] = self.regs[(from + k) * w + l];
                    }
                });
            }
            Op::Copy => {
                let n = inst.dst_ty.slots() as usize;
                each(mask, w, |l| {
                    for k in 0..n {
                        self.regs[d + k * w + l] = self.regs[a + k * w + l];
                    }
                });
            }
            Op::Extract(at) => {
                let (n, from) = (inst.dst_ty.slots() as usize, a + *at as usize * w);
                each(mask, w, |l| {
                    for k in 0..n {
                        self.regs[d + k * w + l] = self.regs[from + k * w + l];
                    }
                });
            }
            Op::Insert(at) => {
                let (n, v) = (inst.dst_ty.slots().min(inst.arg_slots[0]) as usize, inst.args[1] as usize * w);
                let vn = inst.arg_slots[1] as usize;
                each(mask, w, |l| {
                    for k in 0..n {
                        self.regs[d + k * w + l] = self.regs[a + k * w + l];
                    }
                    for k in 0..vn.min(n.saturating_sub(*at as usize)) {
                        self.regs[d + (*at as usize + k) * w + l] = self.regs[v + k * w + l];
                    }
                });
            }
            Op::ExtractDyn => {
                let (n, i) = (inst.arg_slots[0] as usize, inst.args[1] as usize * w);
                each(mask, w, |l| {
                    let k = self.regs[i + l] as usize;
                    self.regs[d + l] = if k < n { self.regs[a + k * w + l] } else { 0 };
                });
            }
            Op::InsertDyn => {
                let n = inst.dst_ty.slots().min(inst.arg_slots[0]) as usize;
                let (v, i) = (inst.args[1] as usize * w, inst.args[2] as usize * w);
                each(mask, w, |l| {
                    for k in 0..n {
                        self.regs[d + k * w + l] = self.regs[a + k * w + l];
                    }
                    let k = self.regs[i + l] as usize;
                    if k < n {
                        self.regs[d + k * w + l] = self.regs[v + l];
                    }
                });
            }
            Op::Alloca(_)
            | Op::Global(_)
            | Op::PtrAdd { .. }
            | Op::Load(_)
            | Op::Store(_)
            | Op::AtomicRmw(..)
            | Op::CmpXchg { .. } => self.memory(inst, mask, group)?,
            Op::Dx(dx) => return self.dx(*dx, inst, mask, env),
            Op::Wave { op, ty } => self.wave_op(*op, *ty, inst, mask)?,
        }
        Ok(false)
    }

    /// A computing dx.op: `true` when handled here (the others reach the environment).
    pub(crate) fn dx_compute(&mut self, dx: Dx, inst: &XInst, mask: u128) -> R<bool> {
        let w = self.w;
        let d = inst.dst as usize;
        let s = inst.dst_ty.slot(0);
        let a0 = inst.arg_ty.first().copied().unwrap_or(Scalar::I32);
        let width = s.bits();
        match dx {
            Dx::FUnary(op) => {
                let a = inst.args[0] as usize * w;
                each(mask, w, |l| self.regs[d * w + l] = alu::funary(op, s, self.regs[a + l]));
            }
            Dx::FClass(c) => each(mask, w, |l| {
                let v = u64::from(alu::fclass(c, a0, self.arg(inst, 0, l)));
                self.set(inst.dst, l, v);
            }),
            // The operand's width: FirstbitHi and Countbits of an i64 give an i32.
            Dx::IUnary(op) => each(mask, w, |l| {
                let v = alu::iunary(op, a0.bits(), self.arg(inst, 0, l));
                self.set(inst.dst, l, v);
            }),
            // Doubles compare as doubles (alu::minmax reads floats as f32); one NaN operand gives
            // the other, as D3D's min and max do.
            Dx::MinMax(op @ (MinMax::FMax | MinMax::FMin)) if s == Scalar::F64 => each(mask, w, |l| {
                let (a, b) = (f64::from_bits(self.arg(inst, 0, l)), f64::from_bits(self.arg(inst, 1, l)));
                let v = if op == MinMax::FMax { a.max(b) } else { a.min(b) };
                self.set(inst.dst, l, v.to_bits());
            }),
            Dx::MinMax(op) => each(mask, w, |l| {
                let v = alu::minmax(op, s, self.arg(inst, 0, l), self.arg(inst, 1, l));
                self.set(inst.dst, l, v);
            }),
            Dx::TwoOut(op) => each(mask, w, |l| {
                let (x, y) = (self.arg(inst, 0, l) as u32, self.arg(inst, 1, l) as u32);
                let (r0, r1) = match op {
                    TwoOut::IMul | TwoOut::UMul => {
                        let p = if op == TwoOut::IMul {
                            (i64::from(x as i32) * i64::from(y as i32)) as u64
                        } else {
                            u64::from(x) * u64::from(y)
                        };
                        ((p >> 32) as u32, p as u32)
                    }
                    TwoOut::UDiv => (x.checked_div(y).unwrap_or(u32::MAX), x.checked_rem(y).unwrap_or(u32::MAX)),
                    TwoOut::UAddc => {
                        let (r, c) = x.overflowing_add(y);
                        (r, u32::from(c))
                    }
                    TwoOut::USubb => {
                        let (r, c) = x.overflowing_sub(y);
                        (r, u32::from(c))
                    }
                };
                self.set(inst.dst, l, u64::from(r0));
                self.set(inst.dst + 1, l, u64::from(r1));
            }),
            Dx::FMad => each(mask, w, |l| {
                let v = self.argf(inst, 0, l) * self.argf(inst, 1, l) + self.argf(inst, 2, l);
                self.set(inst.dst, l, alu::from_f32(s, v));
            }),
            Dx::Fma => each(mask, w, |l| {
                let v = self.argd(inst, 0, l).mul_add(self.argd(inst, 1, l), self.argd(inst, 2, l));
                self.set(inst.dst, l, v.to_bits());
            }),
            Dx::IMad | Dx::UMad => each(mask, w, |l| {
                let v = self.arg(inst, 0, l).wrapping_mul(self.arg(inst, 1, l)).wrapping_add(self.arg(inst, 2, l));
                self.set(inst.dst, l, alu::mask(v, width));
            }),
            Dx::Msad => each(mask, w, |l| {
                let v =
                    alu::msad(self.arg(inst, 0, l) as u32, self.arg(inst, 1, l) as u32, self.arg(inst, 2, l) as u32);
                self.set(inst.dst, l, u64::from(v));
            }),
            Dx::Ibfe | Dx::Ubfe => each(mask, w, |l| {
                let v = alu::bfe(dx == Dx::Ibfe, self.arg(inst, 0, l), self.arg(inst, 1, l), self.arg(inst, 2, l));
                self.set(inst.dst, l, v);
            }),
            Dx::Bfi => each(mask, w, |l| {
                let v =
                    alu::bfi(self.arg(inst, 0, l), self.arg(inst, 1, l), self.arg(inst, 2, l), self.arg(inst, 3, l));
                self.set(inst.dst, l, v);
            }),
            Dx::Dot(n) => each(mask, w, |l| {
                let f = |k| self.argf(inst, k, l);
                let v = match n {
                    2 => f(0) * f(2) + f(1) * f(3),
                    3 => f(0) * f(3) + f(1) * f(4) + f(2) * f(5),
                    _ => f(0) * f(4) + f(1) * f(5) + f(2) * f(6) + f(3) * f(7),
                };
                self.set(inst.dst, l, alu::from_f32(s, v));
            }),
            Dx::Dot2AddHalf => each(mask, w, |l| {
                let f = |k| self.argf(inst, k, l);
                let v = f(0) + (f(1) * f(3) + f(2) * f(4));
                self.set(inst.dst, l, alu::from_f32(s, v));
            }),
            Dx::Dot4AddPacked { signed } => each(mask, w, |l| {
                let v = alu::dot4_add_packed(
                    signed,
                    self.arg(inst, 0, l) as u32,
                    self.arg(inst, 1, l) as u32,
                    self.arg(inst, 2, l) as u32,
                );
                self.set(inst.dst, l, u64::from(v));
            }),
            Dx::Unpack4x8 { signed } => each(mask, w, |l| {
                let packed = self.arg(inst, 0, l) as u32;
                for k in 0..4u32 {
                    let byte = (packed >> (8 * k)) & 0xFF;
                    let v = if signed { byte as u8 as i8 as i64 as u64 } else { u64::from(byte) };
                    self.set(inst.dst + k, l, alu::mask(v, width));
                }
            }),
            Dx::Pack4x8(mode) => each(mask, w, |l| {
                let v = (0..4).fold(0u32, |acc, k| {
                    let x = alu::sext(self.arg(inst, k, l), a0.bits());
                    acc | alu::pack_byte(mode, x) << (8 * k)
                });
                self.set(inst.dst, l, u64::from(v));
            }),
            Dx::CheckAccessFullyMapped => each(mask, w, |l| {
                let v = u64::from(self.arg(inst, 0, l) != 0);
                self.set(inst.dst, l, v);
            }),
            Dx::MakeDouble => each(mask, w, |l| {
                let v = (self.arg(inst, 1, l) << 32) | (self.arg(inst, 0, l) & 0xFFFF_FFFF);
                self.set(inst.dst, l, v);
            }),
            Dx::SplitDouble => each(mask, w, |l| {
                let b = self.argd(inst, 0, l).to_bits();
                self.set(inst.dst, l, b & 0xFFFF_FFFF);
                self.set(inst.dst + 1, l, b >> 32);
            }),
            Dx::Bitcast(b) => each(mask, w, |l| {
                let x = self.arg(inst, 0, l);
                let v = match b {
                    DxBitcast::I16ToF16 | DxBitcast::F16ToI16 => x & 0xFFFF,
                    DxBitcast::I32ToF32 | DxBitcast::F32ToI32 => x & 0xFFFF_FFFF,
                    DxBitcast::I64ToF64 | DxBitcast::F64ToI64 => x,
                };
                self.set(inst.dst, l, v);
            }),
            Dx::Legacy(c) => each(mask, w, |l| {
                let v = match c {
                    LegacyConv::F32ToF16 => u64::from(alu::f32_to_half(self.argf(inst, 0, l))),
                    LegacyConv::F16ToF32 => alu::from_f32(s, alu::half_to_f32(self.arg(inst, 0, l) as u16)),
                    LegacyConv::DoubleToFloat => alu::from_f32(s, self.argd(inst, 0, l) as f32),
                    LegacyConv::DoubleToSInt32 => {
                        let x = self.argd(inst, 0, l);
                        u64::from(if x.is_nan() { 0 } else { x.clamp(i32::MIN as f64, i32::MAX as f64) as i32 as u32 })
                    }
                    LegacyConv::DoubleToUInt32 => {
                        let x = self.argd(inst, 0, l);
                        u64::from(if x.is_nan() { 0 } else { x.clamp(0.0, u32::MAX as f64) as u32 })
                    }
                };
                self.set(inst.dst, l, v);
            }),
            _ => return Ok(false),
        }
        Ok(true)
    }
}
