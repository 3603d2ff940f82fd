//! What the CPU interpreter ([`super::exec`]) executes, decided for a whole module before
//! anything runs. A draw or dispatch stopped by an operation the interpreter does not implement
//! is skipped, which leaves its targets with wrong contents; pipeline creation refuses such a
//! shader instead ([`rd3d12_core::pipeline::dxil_programs`]), naming the first construct found.
//!
//! The dx.op table is [`super::exec::executes`], beside the dispatch it describes (a test
//! there keeps the two equal); the instruction, cast and constant rules below mirror
//! `State::exec`, [`super::exec`]'s `cast` and `State::constant`.

use super::inst::{CastOp, InstKind};
use super::module::{const_operands, Const, Function, Module, ValueId, ValueKind};
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
        if !super::exec::legacy() {
            if let Err(super::exec::ExecError::Unsupported(what)) = crate::interp::program(module, f) {
                return Err(err(what));
            }
        }
    }
    Ok(())
}

/// Why the interpreter would not run `kind`, if it would not.
fn instruction(m: &Module, f: &Function, kind: &InstKind) -> Option<String> {
    match kind {
        InstKind::Call { callee, .. } => match m.dx_op(f, kind) {
            Some(op) if super::exec::executes(op.opcode) => None,
            Some(op) => Some(format!(
                "{} ({}, {})",
                op_class(op.function),
                op.opcode,
                op.name.unwrap_or("an opcode DXIL.rst does not define")
            )),
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

    #[test]
    fn wave_operations_are_named() {
        let p = super::super::parse(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/dxil/wave_active_sum_product.cs.dxil"
        )));
        let e = check(&p.unwrap().module).unwrap_err();
        assert_eq!(e.what, "dx.op.waveGetLaneIndex (111, WaveGetLaneIndex)");
        assert_eq!(e.to_string(), "dx.op.waveGetLaneIndex (111, WaveGetLaneIndex) is not supported (in main)");
    }

    /// Every DXIL fixture (Mesa's GL and SPIR-V compilers, DXC) executes, but the two kept
    /// for their wave and quad operations.
    #[test]
    fn every_fixture_in_the_repository_executes() {
        const REFUSED: [(&str, &str); 2] = [
            ("wave_active_sum_product.cs.dxil", "dx.op.waveGetLaneIndex (111, WaveGetLaneIndex)"),
            ("ps_derivatives.ps.dxil", "dx.op.quadOp (123, QuadOp)"),
        ];
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".dxil") {
                continue;
            }
            let p = super::super::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
            let refused = REFUSED.iter().find(|(n, _)| *n == name).map(|(_, what)| what.to_string());
            assert_eq!(check(&p.module).map_err(|e| e.what), refused.map_or(Ok(()), Err), "{name}");
            n += 1;
        }
        assert!(n >= 40, "{n} fixtures");
    }
}
