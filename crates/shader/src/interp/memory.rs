//! Shader memory: allocas and private globals in each lane's own memory, groupshared globals
//! in the group's; pointers as (region << 32 | scalar index); loads, stores and atomics
//! checked against their region's bounds (an access outside is an error, as today).

use super::control::{try_each, Wave};
use super::program::{Region, XInst};
use super::{ExecError, R};
use crate::ir::op::AtomicOp;
use crate::ir::Op;

fn bad<T>(what: &str) -> R<T> {
    Err(ExecError::Malformed(what.into()))
}

impl Wave<'_> {
    /// The region of pointer `ptr` and the first cell of its access of `n` scalars for lane
    /// `l` (in the group's memory when the region is groupshared).
    #[inline(always)]
    fn cell(&self, ptr: u64, n: u32, l: usize, what: &str) -> R<(bool, usize)> {
        let Some(&Region { group, base, len }) = self.p.regions.get((ptr >> 32) as usize) else {
            return bad("allocation");
        };
        let i = ptr as u32;
        if u64::from(i) + u64::from(n) > u64::from(len) {
            return bad(what);
        }
        let at = (base + i) as usize;
        Ok((group, if group { at } else { l * self.p.private_cells as usize + at }))
    }

    /// An instruction on memory (see [`Op`]).
    pub(crate) fn memory(&mut self, inst: &XInst, mask: u128, group: &mut [u64]) -> R<()> {
        let w = self.w;
        match &inst.op {
            Op::Alloca(n) => {
                let r = u64::from(inst.region) << 32;
                try_each(mask, w, |l| {
                    // A fresh allocation reads as zeros, as `undef` does.
                    let (_, at) = self.cell(r, 0, l, "alloca")?;
                    self.mem[at..at + *n as usize].fill(0);
                    self.set(inst.dst, l, r);
                    Ok(())
                })
            }
            Op::Global(_) => {
                let r = u64::from(inst.region) << 32;
                try_each(mask, w, |l| {
                    self.set(inst.dst, l, r);
                    Ok(())
                })
            }
            Op::PtrAdd { offset, strides } => try_each(mask, w, |l| {
                let base = self.arg(inst, 0, l);
                let mut at = i64::from(base as u32).checked_add(*offset);
                for (k, &s) in strides.iter().enumerate() {
                    let i = self.arg(inst, k + 1, l) as i64;
                    at = at.and_then(|a| a.checked_add(i.checked_mul(i64::from(s))?));
                }
                let at = at.ok_or_else(|| ExecError::Malformed("index".into()))?;
                if at < 0 {
                    return bad("negative address");
                }
                self.set(inst.dst, l, (base & !0xFFFF_FFFF) | at.min(i64::from(u32::MAX)) as u64);
                Ok(())
            }),
            Op::Load(n) => try_each(mask, w, |l| {
                let (g, at) = self.cell(self.arg(inst, 0, l), *n, l, "load out of bounds")?;
                for k in 0..*n as usize {
                    let v = if g { group[at + k] } else { self.mem[at + k] };
                    self.set(inst.dst + k as u32, l, v);
                }
                Ok(())
            }),
            Op::Store(n) => try_each(mask, w, |l| {
                let (g, at) = self.cell(self.arg(inst, 0, l), *n, l, "store out of bounds")?;
                for k in 0..*n as usize {
                    let v = self.r(inst.args[1] + k as u32, l);
                    if g {
                        group[at + k] = v;
                    } else {
                        self.mem[at + k] = v;
                    }
                }
                Ok(())
            }),
            Op::AtomicRmw(op, s) => try_each(mask, w, |l| {
                let (g, at) = self.cell(self.arg(inst, 0, l), 1, l, "atomicrmw out of bounds")?;
                let cell = if g { &mut group[at] } else { &mut self.mem[at] };
                let (old, v, wd) = (*cell, self.regs[inst.args[1] as usize * w + l], s.bits());
                let (so, sv) = (super::alu::sext(old, wd), super::alu::sext(v, wd));
                let new = match op {
                    AtomicOp::Xchg => v,
                    AtomicOp::Add => old.wrapping_add(v),
                    AtomicOp::Sub => old.wrapping_sub(v),
                    AtomicOp::And => old & v,
                    AtomicOp::Nand => !(old & v),
                    AtomicOp::Or => old | v,
                    AtomicOp::Xor => old ^ v,
                    AtomicOp::Max => so.max(sv) as u64,
                    AtomicOp::Min => so.min(sv) as u64,
                    AtomicOp::UMax => old.max(v),
                    AtomicOp::UMin => old.min(v),
                };
                *cell = s.mask(new);
                self.set(inst.dst, l, s.mask(old));
                Ok(())
            }),
            Op::CmpXchg { pair, .. } => try_each(mask, w, |l| {
                let (g, at) = self.cell(self.arg(inst, 0, l), 1, l, "cmpxchg out of bounds")?;
                let (c, n) = (self.regs[inst.args[1] as usize * w + l], self.regs[inst.args[2] as usize * w + l]);
                let cell = if g { &mut group[at] } else { &mut self.mem[at] };
                let old = *cell;
                if old == c {
                    *cell = n;
                }
                self.set(inst.dst, l, old);
                if *pair {
                    self.set(inst.dst + 1, l, u64::from(old == c));
                }
                Ok(())
            }),
            _ => bad("not a memory operation"),
        }
    }
}
