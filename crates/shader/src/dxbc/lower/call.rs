//! Subroutines: `label l#` opens a subroutine body that runs to the next `label` (or hull
//! shader phase, or the end of the program); the main program ends at the first label.
//! `call l#` and `callc_z|nz cond, l#` are lowered by inlining the body at the call site: its
//! `ret` / `retc` return to the instruction after the call, its structured control flow is
//! its own (a `break` of the caller's loop inside it is malformed). A call cycle (recursion,
//! which the format does not allow), a label declared twice or never, or nesting deeper than
//! the format's 32 levels is malformed; inlining that would pass [`INLINE_LIMIT`] instructions
//! in all is refused as unsupported rather than built.

use super::{bad, unsupported, LowerError, L, R};
use crate::dxbc::tokens::{ty, Inst};
use crate::ir::{BlockId, Terminator};

/// The deepest nesting of subroutine calls (`D3D12_COMMONSHADER_SUBROUTINE_NESTING_LIMIT`).
const MAX_DEPTH: usize = 32;

/// The most instructions inlining may lower in all.
pub(super) const INLINE_LIMIT: usize = 1 << 16;

/// Whether an instruction ends the body of a subroutine before it.
pub(super) fn ends_body(opcode: u32) -> bool {
    matches!(opcode, 44 | 114..=116)
}

impl L<'_> {
    /// The body of label `n`: the instructions after its `label` up to the next.
    fn label_body(&self, n: u32) -> R<(usize, usize)> {
        let insts = &self.prog.insts;
        let mut found = None;
        for (k, i) in insts.iter().enumerate().filter(|(_, i)| i.opcode == 44) {
            let o = i.operands.first().ok_or_else(|| LowerError::Malformed("label without its operand".into()))?;
            if o.ty != ty::LABEL {
                return bad(format!("label of operand type {}", o.ty));
            }
            if Self::imm_index(o, 0)? == n {
                if found.is_some() {
                    return bad(format!("label l{n} twice"));
                }
                let end = insts[k + 1..].iter().position(|i| ends_body(i.opcode)).map_or(insts.len(), |e| k + 1 + e);
                found = Some((k + 1, end));
            }
        }
        found.ok_or_else(|| LowerError::Malformed(format!("a call of l{n}, which no label declares")))
    }

    /// `call l#` (4) / `callc cond, l#` (5).
    pub(super) fn call(&mut self, inst: &Inst) -> R<()> {
        let (cond, lab) = match (inst.opcode, &inst.operands[..]) {
            (4, [l]) => (None, l),
            (5, [_, l]) => (Some(self.test(inst)?), l),
            _ => return bad("call takes a label, callc a condition and a label"),
        };
        if lab.ty != ty::LABEL {
            return bad(format!("a call of operand type {}", lab.ty));
        }
        let n = Self::imm_index(lab, 0)?;
        let (start, end) = self.label_body(n)?;
        if self.calls.contains(&n) {
            return bad(format!("l{n} is called again from inside itself (a call cycle: recursion is not allowed)"));
        }
        if self.calls.len() >= MAX_DEPTH {
            return bad(format!("subroutine calls nested deeper than {MAX_DEPTH}"));
        }
        self.inlined += end - start;
        if self.inlined > INLINE_LIMIT {
            return unsupported(format!("subroutines inlined past {INLINE_LIMIT} instructions"));
        }
        let after = self.block();
        if let Some(c) = cond {
            let then = self.block();
            self.end(Terminator::CondBr { cond: c, then, otherwise: after }, then);
        }
        let flow = std::mem::take(&mut self.flow);
        let ret_to: Option<BlockId> = self.ret_to.replace(after);
        self.calls.push(n);
        let prog = self.prog;
        self.run_insts(&prog.insts[start..end])?;
        if !self.flow.is_empty() {
            return bad(format!("a block is not closed at the end of l{n}"));
        }
        self.calls.pop();
        self.flow = flow;
        self.ret_to = ret_to;
        self.end(Terminator::Br(after), after);
        Ok(())
    }
}
