//! Copy propagation for the register file: a value that only repeats bits another value
//! already holds (`extract` of an aggregate's slot, `copy`, `bitcast`) takes that value's
//! slots instead of its own, and its instruction does nothing. Valid in SSA: every use of the
//! copy is dominated by its definition, so no new instance of the source can be made between
//! the two (a loop that redefines the source runs the copy again first).

use crate::ir::op::CastOp;
use crate::ir::{Function, Op, Value};

/// For each value that is a copy: the value and the slot offset in it whose bits it repeats
/// (followed through chains of copies to a value that is not one).
pub fn aliases(f: &Function) -> Vec<Option<(Value, u32)>> {
    let mut of: Vec<Option<(Value, u32)>> = vec![None; f.values.len()];
    for i in f.blocks.iter().flat_map(|b| &b.insts) {
        let (Some(d), Some(&src)) = (i.dst, i.args.first()) else { continue };
        let at = match i.op {
            Op::Extract(k) => k,
            Op::Copy | Op::Cast(CastOp::BitCast, ..) => 0,
            _ => continue,
        };
        of[d.0 as usize] = Some((src, at));
    }
    // Chains: follow to the root (bounded by the value count: copies cannot form a cycle in
    // SSA, but malformed IR must not hang).
    let mut out = of.clone();
    for v in 0..of.len() {
        let Some((mut src, mut at)) = of[v] else { continue };
        let mut n = 0;
        while let Some((s, k)) = of[src.0 as usize] {
            src = s;
            at += k;
            n += 1;
            if n > of.len() {
                break;
            }
        }
        out[v] = Some((src, at));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::op::{BinOp, CastOp};
    use crate::ir::{Block, Cfg, Def, Inst, Scalar, Terminator, Type};

    #[test]
    fn extracts_and_bitcasts_alias_their_source() {
        // %0 = {i32, i32} (an instruction result); %1 = extract 1 %0; %2 = bitcast %1 to float;
        // %3 = fadd %2, %2 (not a copy).
        let mut f = Function { name: "t".into(), values: vec![], blocks: vec![], globals: vec![], cfg: Cfg::default() };
        f.add_value(Type::Agg([Scalar::I32; 2].into()), Def::Inst);
        f.add_value(Type::Scalar(Scalar::I32), Def::Inst);
        f.add_value(Type::Scalar(Scalar::F32), Def::Inst);
        f.add_value(Type::Scalar(Scalar::F32), Def::Inst);
        let inst = |op, a: u32, d: u32| Inst { op, args: [Value(a), Value(a)][..1].into(), dst: Some(Value(d)) };
        f.blocks.push(Block {
            phis: vec![],
            insts: vec![
                inst(Op::Extract(1), 0, 1),
                inst(Op::Cast(CastOp::BitCast, Scalar::I32, Scalar::F32), 1, 2),
                Inst {
                    op: Op::Binary(BinOp::FAdd, Scalar::F32),
                    args: [Value(2), Value(2)].into(),
                    dst: Some(Value(3)),
                },
            ],
            term: Terminator::Ret,
        });
        assert_eq!(aliases(&f), [None, Some((Value(0), 1)), Some((Value(0), 1)), None]);
    }
}
