//! Hull and domain shaders. A hull shader's program is its global declarations, then phases
//! (`hs_control_point_phase`, `hs_fork_phase`s, `hs_join_phase`s), each with its own
//! declarations and registers. It lowers to the two functions DXIL has: the control-point
//! function (the control-point phase, or a pass-through of the input control points when the
//! program has none) and the patch constant function (every fork and join phase in order,
//! each run once per declared instance with `vForkInstanceID` / `vJoinInstanceID`, its `ret`
//! ending the instance). Fork and join phases write patch constants; they read the input and
//! output control points (`vicp`, `vocp`). A domain shader reads `vDomain`, its control
//! points (`vicp`) and patch constants (`vpc`).

use super::{bad, unsupported, Facts, LowerError, L, R};
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
        27 => unsupported("vpc in a hull shader's join phase"),
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
    Ok(())
}

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
    for (marker, body) in phases.iter().filter(|(m, _)| *m != 114) {
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
