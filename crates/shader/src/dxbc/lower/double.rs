//! Double-precision instructions (shader model 5.0, and the 11.1 additions `ddiv`, `dfma`,
//! `drcp`, `dtoi`, `dtou`, `itod`, `utod`), after the D3D11.3 functional spec and the
//! instructions' reference pages:
//!
//! * A double occupies two 32-bit components, the low word first: `.xy` (x the 32 LSBs, y the
//!   32 MSBs) and `.zw`. Sources are read as two doubles after their swizzle (components 0–1
//!   and 2–3; a swizzle that splits a double, e.g. `.yxzw`, is refused); double destinations
//!   take the masks `.xy`, `.zw`, `.xyzw` (anything else is refused) and double `j` of the
//!   result goes to pair `j`.
//! * Instructions with 32-bit results (`deq`, `dge`, `dlt`, `dne`, `dtof`, `dtoi`, `dtou`) write
//!   one or two components: the first component of the mask receives the first double's
//!   result, the second the second's. Instructions with 32-bit sources (`ftod`, `itod`, `utod`)
//!   convert source components x and y (post swizzle) into the first and second double.
//! * `dmovc` tests the first (second) 32-bit component of its condition for the first
//!   (second) double.
//! * Source modifiers act on the double (neg and abs flip and clear bit 63, the MSB word's bit
//!   31); `_sat` clamps to [0, 1]. Doubles keep their denormals; comparisons are ordered but
//!   `dne` (true for NaN); `dmax`/`dmin` give the other operand for one NaN; `dtoi`/`dtou`
//!   round toward zero, clamp to the integer range and give 0 for NaN, as `ftoi`/`ftou`;
//!   `dtof` rounds to nearest even.
//!
//! The IR's `f64` operations compute them: `MakeDouble` / `SplitDouble` move between the
//! register words and the double.

use super::{bad, Kind, LowerError, L, R};
use crate::dxbc::tokens::{Inst, Modifier, Operand, Select};
use crate::ir::op::{BinOp, CastOp, CmpPred, Dx, FUnary, MinMax};
use crate::ir::{Op, Scalar, Type, Value};

const F64: Scalar = Scalar::F64;
const I32: Scalar = Scalar::I32;

/// The doubles of destination mask `m` (bit j: double j is written).
fn pairs(m: u8) -> R<u8> {
    match m {
        0x3 => Ok(1),
        0xC => Ok(2),
        0xF => Ok(3),
        _ => bad(format!("double destination mask {m:#x} (not .xy, .zw or .xyzw)")),
    }
}

/// The components set in a 32-bit destination mask of a double instruction (one or two).
fn singles(m: u8) -> R<Vec<usize>> {
    let ks: Vec<usize> = (0..4).filter(|k| m & (1 << k) != 0).collect();
    if ks.is_empty() || ks.len() > 2 {
        return bad(format!("a destination mask of {} components (one or two)", ks.len()));
    }
    Ok(ks)
}

impl L<'_> {
    /// Double `j` (0, 1) of `o` after its swizzle, modifiers applied: an `f64`.
    fn read_double(&mut self, o: &Operand, j: usize) -> R<Value> {
        // A 4-component source selects whole doubles: each pair of its swizzle is .xy or .zw.
        let whole = match o.select {
            Select::Swizzle(s) => s[2 * j].is_multiple_of(2) && s[2 * j + 1] == s[2 * j] + 1,
            Select::One(_) => false,
            // Immediates (no selection, or the identity mask mode) and one-component operands.
            Select::Mask(_) | Select::None => true,
        };
        if !whole {
            return bad("a double source's swizzle must pick .xy or .zw pairs");
        }
        let mut raw = o.clone();
        raw.modifier = Modifier::default();
        let w = self.read(&raw, 0x3 << (2 * j), Kind::Int)?;
        let (lo, mut hi) = (w[2 * j], w[2 * j + 1]);
        if o.modifier.abs {
            let k = self.ci(0x7FFF_FFFF);
            hi = self.bin(BinOp::And, I32, hi, k);
        }
        if o.modifier.neg {
            let k = self.ci(0x8000_0000);
            hi = self.bin(BinOp::Xor, I32, hi, k);
        }
        Ok(self.dx(Dx::MakeDouble, vec![lo, hi], Type::Scalar(F64)))
    }

    /// The two words (low, high) of an `f64`.
    fn split_double(&mut self, d: Value) -> (Value, Value) {
        let r = self.dx(Dx::SplitDouble, vec![d], Type::Agg([I32, I32].into()));
        (self.extract(r, 0, I32), self.extract(r, 1, I32))
    }

    /// `_sat` of a double.
    fn dsat(&mut self, inst: &Inst, v: Value) -> Value {
        if inst.saturate() {
            self.dx(Dx::FUnary(FUnary::Saturate), vec![v], Type::Scalar(F64))
        } else {
            v
        }
    }

    /// Writes double results `vals[j]` to pair `j` of `d`.
    fn write_doubles(&mut self, d: &Operand, vals: Vec<(usize, Value)>) -> R<()> {
        for (j, v) in vals {
            let (lo, hi) = self.split_double(v);
            self.write(d, 2 * j, lo)?;
            self.write(d, 2 * j + 1, hi)?;
        }
        Ok(())
    }

    /// A double operation with double sources and a double result.
    fn dop(&mut self, inst: &Inst, f: impl Fn(&mut Self, &[Value]) -> Value) -> R<()> {
        let (d, srcs) = inst.operands.split_first().ok_or_else(|| LowerError::Malformed("no operands".into()))?;
        let which = pairs(Self::dst_mask(d))?;
        let mut vals = Vec::new();
        for j in (0..2).filter(|j| which & (1 << j) != 0) {
            let args = srcs.iter().map(|s| self.read_double(s, j)).collect::<R<Vec<_>>>()?;
            let r = f(self, &args);
            let r = self.dsat(inst, r);
            vals.push((j, r));
        }
        self.write_doubles(d, vals)
    }

    /// Double sources, 32-bit results (`i32` bits or an `f32`): the n-th component of the mask
    /// receives double n's.
    fn dop32(&mut self, inst: &Inst, f: impl Fn(&mut Self, &[Value]) -> Value) -> R<()> {
        let (d, srcs) = inst.operands.split_first().ok_or_else(|| LowerError::Malformed("no operands".into()))?;
        let ks = singles(Self::dst_mask(d))?;
        let mut outs = Vec::new();
        for (j, &k) in ks.iter().enumerate() {
            let args = srcs.iter().map(|s| self.read_double(s, j)).collect::<R<Vec<_>>>()?;
            let mut r = f(self, &args);
            if inst.saturate() && self.f.ty(r) == &Type::Scalar(Scalar::F32) {
                r = self.dx(Dx::FUnary(FUnary::Saturate), vec![r], Type::Scalar(Scalar::F32));
            }
            outs.push((k, r));
        }
        for (k, r) in outs {
            self.write(d, k, r)?;
        }
        Ok(())
    }

    /// 32-bit sources x and y (post swizzle, `kind`'s modifiers), double results.
    fn dfrom32(&mut self, inst: &Inst, kind: Kind, f: impl Fn(&mut Self, Value) -> Value) -> R<()> {
        let [d, s] = &inst.operands[..] else { return bad("two operands") };
        let which = pairs(Self::dst_mask(d))?;
        let src = self.read(s, which, kind)?;
        let mut vals = Vec::new();
        for j in (0..2).filter(|j| which & (1 << j) != 0) {
            let r = f(self, src[j]);
            let r = self.dsat(inst, r);
            vals.push((j, r));
        }
        self.write_doubles(d, vals)
    }

    /// `dmovc dest, cond, a, b`.
    fn dmovc(&mut self, inst: &Inst) -> R<()> {
        let [d, c, a, b] = &inst.operands[..] else { return bad("dmovc: four operands") };
        let which = pairs(Self::dst_mask(d))?;
        let cond = self.read(c, which, Kind::Int)?;
        let mut vals = Vec::new();
        for j in (0..2).filter(|j| which & (1 << j) != 0) {
            let (x, y) = (self.read_double(a, j)?, self.read_double(b, j)?);
            let z = self.ci(0);
            let t = self.cmp(CmpPred::INe, I32, cond[j], z);
            let r = self.emit(Op::Select, vec![t, x, y], Type::Scalar(F64));
            let r = self.dsat(inst, r);
            vals.push((j, r));
        }
        self.write_doubles(d, vals)
    }
}

/// Lowers double instruction `inst` (opcodes 191–202, 211–213, 215–218).
pub(super) fn lower(l: &mut L<'_>, inst: &Inst) -> R<()> {
    use BinOp as B;
    let ty = Type::Scalar(F64);
    match inst.opcode {
        191 => l.dop(inst, |s, a| s.bin(B::FAdd, F64, a[0], a[1])),
        194 => l.dop(inst, |s, a| s.bin(B::FMul, F64, a[0], a[1])),
        211 => l.dop(inst, |s, a| s.bin(B::FDiv, F64, a[0], a[1])),
        192 => l.dop(inst, |s, a| s.dx(Dx::MinMax(MinMax::FMax), a.to_vec(), ty.clone())),
        193 => l.dop(inst, |s, a| s.dx(Dx::MinMax(MinMax::FMin), a.to_vec(), ty.clone())),
        199 => l.dop(inst, |_, a| a[0]),
        212 => l.dop(inst, |s, a| s.dx(Dx::Fma, a.to_vec(), ty.clone())),
        213 => l.dop(inst, |s, a| {
            let one = s.c(F64, 1f64.to_bits());
            s.bin(B::FDiv, F64, one, a[0])
        }),
        195..=198 => {
            let p = [CmpPred::FOeq, CmpPred::FOge, CmpPred::FOlt, CmpPred::FUne][inst.opcode as usize - 195];
            l.dop32(inst, |s, a| {
                let b = s.cmp(p, F64, a[0], a[1]);
                s.mask_of(b)
            })
        }
        200 => l.dmovc(inst),
        201 => l.dop32(inst, |s, a| s.cast(CastOp::FPTrunc, F64, Scalar::F32, a[0])),
        215 => l.dop32(inst, |s, a| s.cast(CastOp::FPToSI, F64, I32, a[0])),
        216 => l.dop32(inst, |s, a| s.cast(CastOp::FPToUI, F64, I32, a[0])),
        202 => l.dfrom32(inst, Kind::Float, |s, v| {
            let x = s.as_f32(v);
            s.cast(CastOp::FPExt, Scalar::F32, F64, x)
        }),
        217 => l.dfrom32(inst, Kind::Int, |s, v| s.cast(CastOp::SIToFP, I32, F64, v)),
        218 => l.dfrom32(inst, Kind::Int, |s, v| s.cast(CastOp::UIToFP, I32, F64, v)),
        _ => bad(format!("{} is not a double-precision instruction", inst.name())),
    }
}
