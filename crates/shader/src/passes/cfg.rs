//! The control flow facts of a function ([`Cfg`]): predecessors, reverse post-order, the
//! reconvergence point of every block (its immediate post-dominator, from a virtual exit that
//! every `ret` and `unreachable` reaches) and the natural loops (back edges to a dominating
//! header). A SIMD back end runs the two sides of a divergent branch masked and joins them
//! at the reconvergence point; SPIR-V's merge blocks are the same blocks.

use super::dom::{dominates, idoms};
use crate::ir::{BlockId, Cfg, Function, Loop};

/// Computes `f.cfg`.
pub fn analyse(f: &mut Function) {
    f.cfg = facts(f);
}

/// The control flow facts of `f`.
pub fn facts(f: &Function) -> Cfg {
    let n = f.blocks.len();
    let succs: Vec<Vec<usize>> = f
        .blocks
        .iter()
        .map(|b| b.term.successors().iter().map(|s| s.0 as usize).filter(|&s| s < n).collect())
        .collect();
    let mut preds = vec![Vec::new(); n];
    for (b, ss) in succs.iter().enumerate() {
        for &s in ss {
            if !preds[s].contains(&BlockId(b as u32)) {
                preds[s].push(BlockId(b as u32));
            }
        }
    }
    if n == 0 {
        return Cfg::default();
    }
    // Reverse post-order from the entry.
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(0usize, 0usize)];
    seen[0] = true;
    while let Some((v, i)) = stack.pop() {
        if let Some(&s) = succs[v].get(i) {
            stack.push((v, i + 1));
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(v);
        }
    }
    let rpo: Vec<BlockId> = post.iter().rev().map(|&b| BlockId(b as u32)).collect();
    let mut rpo_index = vec![u32::MAX; n];
    for (i, b) in rpo.iter().enumerate() {
        rpo_index[b.0 as usize] = i as u32;
    }
    // Post-dominators: the reversed graph from a virtual exit (node n).
    let mut rev: Vec<Vec<usize>> = preds.iter().map(|p| p.iter().map(|b| b.0 as usize).collect()).collect();
    rev.push((0..n).filter(|&b| succs[b].is_empty()).collect());
    let pd = idoms(&rev, n);
    let ipdom = (0..n).map(|b| pd[b].filter(|&p| p != n).map(|p| BlockId(p as u32))).collect();
    // Loops: an edge to a block that dominates its source is a back edge.
    let dom = idoms(&succs, 0);
    let mut loops: Vec<Loop> = Vec::new();
    for &h in &rpo {
        let h = h.0 as usize;
        let latches: Vec<usize> =
            preds[h].iter().map(|p| p.0 as usize).filter(|&p| dom[p].is_some() && dominates(&dom, h, p)).collect();
        if latches.is_empty() {
            continue;
        }
        let mut body = vec![h];
        let mut work = latches.clone();
        while let Some(b) = work.pop() {
            if body.contains(&b) {
                continue;
            }
            body.push(b);
            work.extend(preds[b].iter().map(|p| p.0 as usize).filter(|p| dom[*p].is_some()));
        }
        let mut exits = Vec::new();
        for &b in &body {
            for &s in &succs[b] {
                if !body.contains(&s) && !exits.contains(&BlockId(s as u32)) {
                    exits.push(BlockId(s as u32));
                }
            }
        }
        let id = |v: Vec<usize>| v.into_iter().map(|b| BlockId(b as u32)).collect();
        loops.push(Loop { header: BlockId(h as u32), latches: id(latches), blocks: id(body), exits });
    }
    let order = structured_order(n, &rpo, &loops);
    Cfg { preds, rpo, rpo_index, ipdom, loops, order }
}

/// The structured order (see [`Cfg::order`]): blocks in reverse post-order, but a loop
/// header brings its loop's blocks (each inner loop likewise) right after itself.
fn structured_order(n: usize, rpo: &[BlockId], loops: &[Loop]) -> Vec<u32> {
    fn emit(
        b: BlockId,
        rpo: &[BlockId],
        loops: &[Loop],
        order: &mut Vec<u32>,
        next: &mut u32,
        busy: &mut Vec<BlockId>,
    ) {
        if order[b.0 as usize] != u32::MAX {
            return;
        }
        order[b.0 as usize] = *next;
        *next += 1;
        // The outermost loop headed here (loops are listed outermost first); its blocks in
        // reverse post-order, headers of inner loops emitting theirs.
        if let Some(l) = loops.iter().find(|l| l.header == b && !busy.contains(&b)) {
            busy.push(b);
            for &x in rpo.iter().filter(|x| l.blocks.contains(x)) {
                emit(x, rpo, loops, order, next, busy);
            }
            busy.pop();
        }
    }
    let mut order = vec![u32::MAX; n];
    let mut next = 0;
    let mut busy = Vec::new();
    for &b in rpo {
        emit(b, rpo, loops, &mut order, &mut next, &mut busy);
    }
    order
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::ir::{Block, Def, Scalar, Terminator, Type, Value};

    /// A function of empty blocks ending as `terms` say; value 0 is an `i1` condition.
    pub(crate) fn shape(terms: Vec<Terminator>) -> Function {
        let mut f = Function { name: "t".into(), values: vec![], blocks: vec![], globals: vec![], cfg: Cfg::default() };
        f.add_value(Type::Scalar(Scalar::Bool), Def::Inst);
        f.blocks = terms.into_iter().map(|term| Block { phis: vec![], insts: vec![], term }).collect();
        f
    }

    fn br(t: u32, e: u32) -> Terminator {
        Terminator::CondBr { cond: Value(0), then: BlockId(t), otherwise: BlockId(e) }
    }

    #[test]
    fn an_if_else_reconverges_at_its_join() {
        // bb0: br bb1, bb2; bb1 -> bb3; bb2 -> bb3; bb3: ret.
        let mut f = shape(vec![br(1, 2), Terminator::Br(BlockId(3)), Terminator::Br(BlockId(3)), Terminator::Ret]);
        analyse(&mut f);
        assert_eq!(f.cfg.ipdom[0], Some(BlockId(3)), "{f}");
        assert_eq!(f.cfg.rpo.first(), Some(&BlockId(0)));
        assert_eq!(f.cfg.preds[3], [BlockId(1), BlockId(2)]);
        assert!(f.cfg.loops.is_empty());
        assert!(f.to_string().contains("br %0, bb1, bb2 ; reconverge bb3"), "{f}");
    }

    #[test]
    fn a_loop_has_its_header_latch_and_exit() {
        // bb0 -> bb1; bb1: br bb2, bb4; bb2: br bb3, bb4 (break); bb3 -> bb1; bb4: ret.
        let mut f =
            shape(vec![Terminator::Br(BlockId(1)), br(2, 4), br(3, 4), Terminator::Br(BlockId(1)), Terminator::Ret]);
        analyse(&mut f);
        let l = &f.cfg.loops[..];
        assert_eq!(l.len(), 1, "{f}");
        assert_eq!(
            (l[0].header, &l[0].latches[..], &l[0].exits[..]),
            (BlockId(1), &[BlockId(3)][..], &[BlockId(4)][..])
        );
        let mut body = l[0].blocks.clone();
        body.sort();
        assert_eq!(body, [BlockId(1), BlockId(2), BlockId(3)]);
        // Both the loop test and the break reconverge after the loop.
        assert_eq!((f.cfg.ipdom[1], f.cfg.ipdom[2]), (Some(BlockId(4)), Some(BlockId(4))));
    }

    #[test]
    fn a_loop_comes_before_its_exits_in_the_structured_order() {
        // bb0 -> bb1 (header); bb1: br bb2, bb3; bb3: br bb4 (exit), bb5; bb2 -> bb6;
        // bb5 -> bb6; bb6 -> bb1 (latch). Reverse post-order puts the exit bb4 before bb2 and
        // bb6; the structured order puts it after every block of the loop.
        let mut f = shape(vec![
            Terminator::Br(BlockId(1)),
            br(2, 3),
            Terminator::Br(BlockId(6)),
            br(4, 5),
            Terminator::Ret,
            Terminator::Br(BlockId(6)),
            Terminator::Br(BlockId(1)),
        ]);
        analyse(&mut f);
        let (o, r) = (&f.cfg.order, &f.cfg.rpo_index);
        assert!(r[4] < r[2] || r[4] < r[6], "reverse post-order alone would run the exit early: {r:?}");
        for b in [1, 2, 3, 5, 6] {
            assert!(o[b] < o[4], "bb{b} before the exit: {o:?}");
        }
        assert_eq!(o[0], 0);
    }

    #[test]
    fn an_endless_loop_reconverges_nowhere() {
        // bb0: br bb1, bb2; bb1 -> bb1; bb2: ret. The endless side never reaches the exit, so
        // it post-dominates nothing: bb0's lanes that leave reconverge at bb2, bb1's nowhere.
        let mut f = shape(vec![br(1, 2), Terminator::Br(BlockId(1)), Terminator::Ret]);
        analyse(&mut f);
        assert_eq!((f.cfg.ipdom[0], f.cfg.ipdom[1]), (Some(BlockId(2)), None), "{f}");
        assert_eq!(f.cfg.loops.len(), 1);
    }
}
