//! Hull and domain shaders. A hull shader's program is its global declarations, then phases
//! (`hs_control_point_phase`, `hs_fork_phase`s, `hs_join_phase`s), each with its own
//! declarations and registers. It lowers to the two functions DXIL has: the control-point
//! function (the control-point phase, or a pass-through of the input control points when the
//! program has none) and the patch constant function (every fork and join phase in order,
//! each run once per declared instance with `vForkInstanceID` / `vJoinInstanceID`, its `ret`
//! ending the instance). Fork and join phases write patch constants; they read the input and
//! output control points (`vicp`, `vocp`), and a join phase also reads the patch constants the
//! phases before it wrote (`vpc`: every patch constant write also goes to a private copy of the
//! patch constant registers, zeroed at the start, which `vpc` reads). A domain shader reads
//! `vDomain`, its control points (`vicp`) and patch constants (`vpc`).

use super::{bad, Facts, LowerError, L, R};
use crate::dxbc::tokens::{Inst, Operand, Program};
use crate::ir::op::{BinOp, CmpPred, Dx, SysValue};
use crate::ir::{AddrSpace, Function, Op, Scalar, Terminator, Type};
use rd3d12_core::shader::SignatureElement;

/// Component `c` of a tessellation operand: `vOutputControlPointID` (22),
/// `vForkInstanceID` / `vJoinInstanceID` (23, 24), `vicp` (25), `vocp` (26), `vpc` (27),
/// `vDomain` (28).
pub(super) fn fetch(l: &mut L<'_>, o: &Operand, c: usize) -> R<crate::ir::Value> {
    let (hs, ds) = (l.prog.kind == 3, l.prog.kind == 4);
    match o.ty {
        22 if hs && !l.patch_phase => {
            let k = l.ci(0);
            Ok(l.dx(Dx::SysValue(SysValue::OutputControlPointId), vec![k], Type::Scalar(Scalar::I32)))
        }
        23 | 24 if l.patch_phase => {
            let p = l.instance.ok_or_else(|| LowerError::Malformed("an instance id outside its phase".into()))?;
            Ok(l.emit(Op::Load(1), vec![p], Type::Scalar(Scalar::I32)))
        }
        25 | 26 if hs || (ds && o.ty == 25) => {
            if o.index.len() != 2 {
                return bad("a control point operand has two indices");
            }
            let reg = L::imm_index(o, 1)?;
            let sig = if o.ty == 25 { l.inputs } else { l.outputs };
            let Some((e, row, col)) = L::element(sig, reg, c) else {
                return bad(format!("control point register {reg} component {c} is in no signature element"));
            };
            let s = L::scalar_of(e.component);
            let cp = l.index(&o.index[0])?;
            let (id, row, col) = (l.ci(e.id), l.ci(row), l.ci(col));
            let d = if o.ty == 25 { Dx::LoadInput { vertex: true } } else { Dx::LoadOutputControlPoint };
            if o.ty == 26 && !l.patch_phase {
                return bad("vocp outside a fork or join phase");
            }
            let v = l.dx(d, vec![id, row, col, cp], Type::Scalar(s));
            Ok(l.as_bits(v))
        }
        27 if ds => {
            let reg = L::imm_index(o, 0)?;
            let patch = l.patch;
            let Some((e, row, col)) = L::element(patch, reg, c) else {
                return bad(format!("vpc{reg} component {c} is in no patch constant element"));
            };
            let s = L::scalar_of(e.component);
            let (id, row, col) = (l.ci(e.id), l.ci(row), l.ci(col));
            let v = l.dx(Dx::LoadPatchConstant, vec![id, row, col], Type::Scalar(s));
            Ok(l.as_bits(v))
        }
        27 if hs && l.join_phase => {
            let Some(base) = l.patch_shadow else { return bad("vpc without a join phase") };
            let ix = o.index.first().ok_or_else(|| LowerError::Malformed("vpc without its index".into()))?;
            if ix.rel.is_none() {
                let reg = L::imm_index(o, 0)?;
                if L::element(l.patch, reg, c).is_none() {
                    return bad(format!("vpc{reg} component {c} is in no patch constant element"));
                }
                if reg >= PATCH_REGS {
                    return bad(format!("vpc{reg} past the {PATCH_REGS} patch constant registers"));
                }
                let p = l.emit(
                    Op::PtrAdd { offset: i64::from(4 * reg) + c as i64, strides: Box::new([]) },
                    vec![base],
                    Type::Ptr(AddrSpace::Private),
                );
                return Ok(l.emit(Op::Load(1), vec![p], Type::Scalar(Scalar::I32)));
            }
            // vpc[r#.x + n]: a register past the 32 reads 0 (the index is clamped to a cell
            // that stays 0).
            let i = l.index(ix)?;
            let n = l.ci(PATCH_REGS);
            let inside = l.cmp(CmpPred::IUlt, Scalar::I32, i, n);
            let i = l.emit(Op::Select, vec![inside, i, n], Type::Scalar(Scalar::I32));
            let p = l.emit(
                Op::PtrAdd { offset: c as i64, strides: Box::new([4]) },
                vec![base, i],
                Type::Ptr(AddrSpace::Private),
            );
            Ok(l.emit(Op::Load(1), vec![p], Type::Scalar(Scalar::I32)))
        }
        27 if hs => bad("vpc outside a hull shader's join phase"),
        28 if ds => {
            let k = l.ci(c.min(2) as u32);
            let v = l.dx(Dx::DomainLocation, vec![k], Type::Scalar(Scalar::F32));
            Ok(l.as_bits(v))
        }
        t => bad(format!("operand type {t} in this stage or phase")),
    }
}

/// Writes component `k` of a fork or join phase's output: a patch constant.
pub(super) fn write_patch(l: &mut L<'_>, o: &Operand, k: usize, v: crate::ir::Value) -> R<()> {
    let reg = L::imm_index(o, 0)?;
    let patch = l.patch;
    let Some((e, row, col)) = L::element(patch, reg, k) else {
        return bad(format!("o{reg} component {k} is in no patch constant element"));
    };
    let v = if L::scalar_of(e.component) == Scalar::F32 { l.as_f32(v) } else { l.as_bits(v) };
    let (id, row, col) = (l.ci(e.id), l.ci(row), l.ci(col));
    l.emit_void(Op::Dx(Dx::StorePatchConstant), vec![id, row, col, v]);
    if let Some(base) = l.patch_shadow.filter(|_| reg < PATCH_REGS) {
        let bits = l.as_bits(v);
        let p = l.emit(
            Op::PtrAdd { offset: i64::from(4 * reg) + k as i64, strides: Box::new([]) },
            vec![base],
            Type::Ptr(AddrSpace::Private),
        );
        l.emit_void(Op::Store(1), vec![p, bits]);
    }
    Ok(())
}

/// The patch constant registers a hull shader has (vpc0 to vpc31).
const PATCH_REGS: u32 = 32;

/// A hull shader's phases: (marker opcode, body).
type Phases<'a> = Vec<(u32, &'a [Inst])>;

/// Splits a hull shader into its global declarations and its phases.
fn phases(prog: &Program) -> R<(&[Inst], Phases<'_>)> {
    let starts: Vec<usize> =
        prog.insts.iter().enumerate().filter(|(_, i)| matches!(i.opcode, 114..=116)).map(|(k, _)| k).collect();
    let first = starts.first().copied().unwrap_or(prog.insts.len());
    let mut out = Vec::new();
    for (n, &s) in starts.iter().enumerate() {
        let end = starts.get(n + 1).copied().unwrap_or(prog.insts.len());
        out.push((prog.insts[s].opcode, &prog.insts[s + 1..end]));
    }
    if out.iter().filter(|(m, _)| *m == 114).count() > 1 {
        return bad("two control-point phases");
    }
    let global = &prog.insts[..first];
    if global
        .iter()
        .any(|i| !crate::dxbc::opcodes::is_declaration(i.opcode) && i.opcode != crate::dxbc::opcodes::CUSTOMDATA)
    {
        return bad("an instruction before the first hull shader phase");
    }
    Ok((global, out))
}

/// Lowers a hull shader to its control-point function (0) and patch constant function (1).
pub(super) fn lower_hs(
    prog: &Program,
    inputs: &[SignatureElement],
    outputs: &[SignatureElement],
    patch: &[SignatureElement],
) -> R<(Vec<Function>, Facts)> {
    let (global, phases) = phases(prog)?;
    // The control-point function.
    let mut l = L::new(prog, inputs, outputs, patch);
    l.run(global)?;
    match phases.iter().find(|(m, _)| *m == 114) {
        Some((_, body)) => l.run(body)?,
        None => pass_through(&mut l)?,
    }
    let (cp, facts) = l.finish();
    // The patch constant function: each fork and join phase, once per instance.
    let mut l = L::new(prog, inputs, outputs, patch);
    l.run(global)?;
    l.patch_phase = true;
    if phases.iter().any(|(m, _)| *m == 116) {
        // The copy of the patch constants a join phase reads, one more register (always 0)
        // for indices past the last, zeroed: a vpc no phase wrote reads 0.
        let cells = 4 * (PATCH_REGS + 1);
        let base = l.prologue(Op::Alloca(cells), Type::Ptr(AddrSpace::Private));
        let zero = l.ci(0);
        for k in 0..cells {
            let p = l.emit(
                Op::PtrAdd { offset: i64::from(k), strides: Box::new([]) },
                vec![base],
                Type::Ptr(AddrSpace::Private),
            );
            l.emit_void(Op::Store(1), vec![p, zero]);
        }
        l.patch_shadow = Some(base);
    }
    for (marker, body) in phases.iter().filter(|(m, _)| *m != 114) {
        l.join_phase = *marker == 116;
        let count_op = if *marker == 115 { 153 } else { 154 };
        let count = body.iter().find(|i| i.opcode == count_op).and_then(|i| i.extra.first().copied()).unwrap_or(1);
        if count > 128 {
            return bad(format!("a phase of {count} instances"));
        }
        // Each phase has registers of its own.
        l.temps = None;
        l.xs.clear();
        let counter = l.prologue(Op::Alloca(1), Type::Ptr(AddrSpace::Private));
        let zero = l.ci(0);
        l.emit_void(Op::Store(1), vec![counter, zero]);
        let (header, body_b, latch, exit) = (l.block(), l.block(), l.block(), l.block());
        l.end(Terminator::Br(header), header);
        let i = l.emit(Op::Load(1), vec![counter], Type::Scalar(Scalar::I32));
        let n = l.ci(count);
        let more = l.cmp(CmpPred::IUlt, Scalar::I32, i, n);
        l.end(Terminator::CondBr { cond: more, then: body_b, otherwise: exit }, body_b);
        l.instance = Some(counter);
        l.ret_to = Some(latch);
        l.run(body)?;
        l.end(Terminator::Br(latch), latch);
        let i = l.emit(Op::Load(1), vec![counter], Type::Scalar(Scalar::I32));
        let one = l.ci(1);
        let next = l.bin(BinOp::Add, Scalar::I32, i, one);
        l.emit_void(Op::Store(1), vec![counter, next]);
        l.end(Terminator::Br(header), exit);
        l.ret_to = None;
        l.instance = None;
    }
    let (pc, _) = l.finish();
    if facts.hs.output_control_points == 0 || facts.hs.input_control_points == 0 || facts.hs.domain == 0 {
        return bad("a hull shader without its control point counts or domain");
    }
    Ok((vec![cp, pc], facts))
}

/// The control-point phase a hull shader without one has: each output control point is the
/// input control point of its index, element by element at the same registers.
fn pass_through(l: &mut L<'_>) -> R<()> {
    let k = l.ci(0);
    let cp = l.dx(Dx::SysValue(SysValue::OutputControlPointId), vec![k], Type::Scalar(Scalar::I32));
    let (inputs, outputs) = (l.inputs, l.outputs);
    for e in outputs {
        for c in (0..4).filter(|c| e.mask & (1 << c) != 0) {
            for row in 0..e.rows {
                let reg = (e.start_row.max(0) as u32) + row;
                let Some((i, irow, icol)) = L::element(inputs, reg, c) else {
                    return bad(format!("pass-through: output register {reg} has no input at its place"));
                };
                let s = L::scalar_of(i.component);
                let (id, r, col) = (l.ci(i.id), l.ci(irow), l.ci(icol));
                let v = l.dx(Dx::LoadInput { vertex: true }, vec![id, r, col, cp], Type::Scalar(s));
                let ocol = (c as i64 - i64::from(e.start_col)).max(0) as u32;
                let (oid, orow, oc) = (l.ci(e.id), l.ci(row), l.ci(ocol));
                l.emit_void(Op::Dx(Dx::StoreOutput), vec![oid, orow, oc, v]);
            }
        }
    }
    Ok(())
}
