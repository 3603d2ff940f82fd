//! What the CPU interpreter ([`crate::interp`]) executes, decided for a whole module before
//! anything runs. A draw or dispatch stopped by an operation the interpreter does not implement
//! is skipped, which leaves its targets with wrong contents; pipeline creation refuses such a
//! shader instead ([`crate::pipeline::programs`]), naming the first construct found.
//!
//! The dx.op table is the IR's ([`Dx::from_opcode`]), plus the wave and quad operations of
//! [`WaveOp::from_dx_op`] and shader model 6.6's handles, which the lowering turns into IR
//! operations; the instruction, cast and constant rules below are the lowering's, which
//! refuses the rest (and `check` lowers every function, so nothing it refuses passes).

use super::inst::{CastOp, InstKind, Operand};
use super::module::{const_operands, Const, Function, Module, ValueId, ValueKind};
use crate::interp::wave::WaveOp;
use crate::ir::op::Dx;
use core::fmt;

/// A construct of a module that the interpreter does not execute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotExecuted {
    /// What it is, e.g. "dx.op.waveActiveOp (119, WaveActiveOp)".
    pub what: String,
    /// The function it is in.
    pub function: String,
}

impl fmt::Display for NotExecuted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not supported (in {})", self.what, self.function)
    }
}

/// The first construct of `module`'s function bodies (and of the constants and global
/// initialisers they reach) that [`super::exec`] would stop at as unsupported.
///
/// Guarantees: `Ok` means every instruction, every dx.op call and every constant operand of
/// every defined function is one the interpreter implements; what may still fail at execution
/// is data-dependent (an out-of-range access, the step budget) or a stage's environment (an
/// operation its stage does not have, which the DXIL validator rejects).
pub fn check(module: &Module) -> Result<(), NotExecuted> {
    for f in module.functions.iter().filter(|f| !f.declaration) {
        let err = |what: String| NotExecuted { what, function: f.name.clone() };
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            if let Some(what) = instruction(module, f, &inst.kind) {
                return Err(err(what));
            }
            for id in inst.kind.operands() {
                if let Some(what) = constant(module, f, id, 0) {
                    return Err(err(what));
                }
            }
        }
        // What the wave interpreter runs is the function lowered to the IR: lowered here (and
        // kept), a construct the lowering refuses is refused at creation too.
        if let Err(crate::interp::ExecError::Unsupported(what)) = crate::interp::program(module, f) {
            return Err(err(what));
        }
    }
    Ok(())
}

/// Why the interpreter would not run `kind`, if it would not.
fn instruction(m: &Module, f: &Function, kind: &InstKind) -> Option<String> {
    match kind {
        InstKind::Call { callee, .. } => match m.dx_op(f, kind) {
            Some(op) if Dx::from_opcode(op.opcode).is_some() => None,
            // Shader model 6.6's handles (AnnotateHandle, CreateHandleFromBinding): the lowering
            // makes them createHandle's (and refuses what it cannot resolve).
            Some(op) if matches!(op.opcode, 216 | 217) => None,
            Some(op) => {
                let name = || {
                    format!(
                        "{} ({}, {})",
                        op_class(op.function),
                        op.opcode,
                        op.name.unwrap_or("an opcode DXIL.rst does not define")
                    )
                };
                // Wave and quad operations run if their kind operands are constants in range.
                let consts: Vec<Option<u64>> = op
                    .args
                    .iter()
                    .map(|o| match o {
                        Operand::Value(v) => m.const_int(Some(f), *v).map(|c| c as u64),
                        Operand::Metadata(_) => None,
                    })
                    .collect();
                match WaveOp::from_dx_op(op.opcode, &consts) {
                    Ok(Some(_)) => None,
                    Ok(None) => Some(name()),
                    Err(e) => Some(format!("{} ({})", name(), e.what)),
                }
            }
            None => {
                let name = match m.value(Some(f), *callee).map(|v| &v.kind) {
                    Some(ValueKind::Function(i)) => m.functions.get(*i).map_or("?", |g| g.name.as_str()),
                    _ => "?",
                };
                Some(format!("a call to @{name}, which is not a dx.op"))
            }
        },
        InstKind::Cast { op, .. } => cast(*op),
        InstKind::AtomicRmw { op, .. } if *op > 10 => Some(format!("atomicrmw operation {op}")),
        InstKind::ShuffleVector { .. } => Some("shufflevector".into()),
        _ => None,
    }
}

fn cast(op: CastOp) -> Option<String> {
    matches!(op, CastOp::PtrToInt | CastOp::IntToPtr).then(|| format!("the cast {}", op.name()))
}

/// Why the interpreter would not evaluate value `id` if it is a constant (through its
/// operands and, for a global, its initialiser). Constants are acyclic (the reader checks);
/// globals may refer to each other, which `depth` bounds.
fn constant(m: &Module, f: &Function, id: ValueId, depth: u32) -> Option<String> {
    if depth > 64 {
        return None;
    }
    let def = m.value(Some(f), id)?;
    let c = match &def.kind {
        ValueKind::Const(c) => c,
        ValueKind::Global(g) => {
            let init = m.globals.get(*g)?.init?;
            return constant(m, f, init, depth + 1);
        }
        _ => return None,
    };
    if let Const::Cast { op, .. } = c {
        if let Some(why) = cast(*op) {
            return Some(format!("a constant expression with {why}"));
        }
    }
    const_operands(c).find_map(|v| constant(m, f, v, depth + 1))
}

/// `dx.op.waveActiveOp` of `dx.op.waveActiveOp.i32`: the name without its overload suffix.
fn op_class(function: &str) -> &str {
    let rest = function.strip_prefix("dx.op.").unwrap_or(function);
    match rest.find('.') {
        Some(i) => &function[..6 + i],
        None => function,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn op_class_drops_the_overload() {
        assert_eq!(op_class("dx.op.waveActiveOp.i32"), "dx.op.waveActiveOp");
        assert_eq!(op_class("dx.op.createHandle"), "dx.op.createHandle");
        assert_eq!(op_class("dx.op.binaryWithTwoOuts.i32"), "dx.op.binaryWithTwoOuts");
    }

    fn fixture(name: &str) -> crate::dxil::Program {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
        super::super::parse(&std::fs::read(format!("{dir}/{name}")).unwrap()).unwrap()
    }

    /// The wave and quad operations of shader models 6.0 and 6.5 are accepted; an operation
    /// the interpreter does not run (AllocateRayQuery, 6.5) is refused by name.
    #[test]
    fn wave_operations_are_named() {
        assert_eq!(check(&fixture("wave_active_sum_product.cs.dxil").module), Ok(()));
        assert_eq!(check(&fixture("wave/quad_read.cs.dxil").module), Ok(()));
        assert_eq!(check(&fixture("wave/wave_match.cs.dxil").module), Ok(()));
        assert_eq!(check(&fixture("dxc/wave_multiprefix.cs.dxil").module), Ok(()));
        let e = check(&fixture("dxc/rayquery_inline.cs.dxil").module).unwrap_err();
        assert_eq!(e.what, "dx.op.allocateRayQuery (178, AllocateRayQuery)");
        assert_eq!(e.to_string(), "dx.op.allocateRayQuery (178, AllocateRayQuery) is not supported (in main)");
    }

    /// A wave operation whose kind operand is out of range (WaveActiveOp's op kind 7, made
    /// from DXC's WaveActiveSum) is refused naming the operand.
    #[test]
    fn a_wave_operation_with_a_bad_kind_is_refused() {
        let mut p = fixture("wave_active_sum_product.cs.dxil");
        let m = &mut p.module;
        let f = m.functions.iter().position(|f| !f.declaration).unwrap();
        let kind = m.functions[f]
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .find_map(|i| match m.dx_op(&m.functions[f], &i.kind) {
                Some(op) if op.opcode == 119 => match op.args.get(1) {
                    Some(Operand::Value(v)) => Some(*v),
                    _ => None,
                },
                _ => None,
            })
            .unwrap();
        // The constant itself becomes 7 (every use of it: the first one check meets is a
        // WaveActiveOp's kind).
        let first_local = m.functions[f].first_local;
        let def = if kind.0 >= first_local {
            &mut m.functions[f].values[(kind.0 - first_local) as usize]
        } else {
            &mut m.values[kind.0 as usize]
        };
        def.kind = ValueKind::Const(Const::Int(7));
        let e = check(m).unwrap_err();
        assert_eq!(e.what, "dx.op.waveActiveOp (119, WaveActiveOp) (WaveActiveOp's op kind is not a constant 0..=3)");
    }

    /// Every DXIL fixture (Mesa's GL and SPIR-V compilers, DXC; the top level's, `wave/`'s,
    /// whose WaveSize ones bind resources as shader model 6.6 does, and `dxc/`'s) executes, but
    /// those listed, refused naming their first operation the interpreter does not run.
    #[test]
    fn every_fixture_in_the_repository_executes() {
        const REFUSED: [(&str, &str); 3] = [
            ("dxc/atomic64_bab.cs.dxil", "dx.op 78 (AtomicBinOp) of 64-bit values"),
            ("dxc/mesh_pipeline.MSMain.ms.dxil", "dx.op.getMeshPayload (170, GetMeshPayload)"),
            ("dxc/rayquery_inline.cs.dxil", "dx.op.allocateRayQuery (178, AllocateRayQuery)"),
        ];
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
        let mut n = 0;
        for sub in ["", "wave/", "dxc/"] {
            for entry in std::fs::read_dir(format!("{dir}/{sub}")).unwrap() {
                let name = format!("{sub}{}", entry.unwrap().file_name().to_string_lossy());
                if !name.ends_with(".dxil") {
                    continue;
                }
                let p = fixture(&name);
                let refused = REFUSED.iter().find(|(n, _)| *n == name).map(|(_, what)| what.to_string());
                assert_eq!(check(&p.module).map_err(|e| e.what), refused.map_or(Ok(()), Err), "{name}");
                n += 1;
            }
        }
        assert!(n >= 60, "{n} fixtures");
    }
}
