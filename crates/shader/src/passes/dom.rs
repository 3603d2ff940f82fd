//! Immediate dominators of a graph given by successor lists (Cooper, Harvey and Kennedy, "A
//! Simple, Fast Dominance Algorithm"): dominators of the CFG from the entry, post-dominators
//! from a virtual exit over the reversed CFG.

/// The immediate dominator of each node reachable from `entry` (`entry` is its own; `None`
/// for unreachable nodes).
pub fn idoms(succs: &[Vec<usize>], entry: usize) -> Vec<Option<usize>> {
    let n = succs.len();
    // Post-order from the entry, iteratively.
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack = vec![(entry, 0usize)];
    seen[entry] = true;
    while let Some((v, i)) = stack.pop() {
        if let Some(&s) = succs[v].get(i) {
            stack.push((v, i + 1));
            if !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            order.push(v);
        }
    }
    let mut po = vec![usize::MAX; n];
    for (i, &v) in order.iter().enumerate() {
        po[v] = i;
    }
    let mut preds = vec![Vec::new(); n];
    for (v, ss) in succs.iter().enumerate() {
        if seen[v] {
            for &s in ss {
                preds[s].push(v);
            }
        }
    }
    let mut idom = vec![None; n];
    idom[entry] = Some(entry);
    let mut changed = true;
    while changed {
        changed = false;
        for &v in order.iter().rev().filter(|&&v| v != entry) {
            let mut new: Option<usize> = None;
            for &p in &preds[v] {
                if idom[p].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => p,
                    Some(mut a) => {
                        let mut b = p;
                        while a != b {
                            while po[a] < po[b] {
                                a = idom[a].unwrap_or(entry);
                            }
                            while po[b] < po[a] {
                                b = idom[b].unwrap_or(entry);
                            }
                        }
                        a
                    }
                });
            }
            if new.is_some() && idom[v] != new {
                idom[v] = new;
                changed = true;
            }
        }
    }
    idom
}

/// Whether `a` dominates `b` in the tree `idom`.
pub fn dominates(idom: &[Option<usize>], a: usize, mut b: usize) -> bool {
    loop {
        if a == b {
            return true;
        }
        match idom[b] {
            Some(p) if p != b => b = p,
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diamond_is_dominated_by_its_head() {
        // 0 -> 1, 2; 1 -> 3; 2 -> 3; 4 unreachable.
        let g = vec![vec![1, 2], vec![3], vec![3], vec![], vec![3]];
        assert_eq!(idoms(&g, 0), [Some(0), Some(0), Some(0), Some(0), None]);
        let d = idoms(&g, 0);
        assert!(dominates(&d, 0, 3) && !dominates(&d, 1, 3));
    }

    #[test]
    fn a_loop_header_dominates_its_body() {
        // 0 -> 1; 1 -> 2, 4; 2 -> 3; 3 -> 1 (back edge); 4 exit.
        let g = vec![vec![1], vec![2, 4], vec![3], vec![1], vec![]];
        assert_eq!(idoms(&g, 0), [Some(0), Some(0), Some(1), Some(2), Some(1)]);
    }
}
