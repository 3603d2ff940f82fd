//! Slot allocation: each value gets `ty.slots()` consecutive `u64` slots of a lane's flat
//! register file, in value order. A back end that keeps W lanes stores slot `s` of lane `l`
//! at `s * W + l`, so an instruction reads each operand's lanes contiguously.

use crate::ir::Function;

/// The first slot of each value, and the total; the copies of [`super::copies::aliases`]
/// (`Some` there) take their source's slots.
pub fn allocate_shared(f: &Function, aliases: &[Option<(crate::ir::Value, u32)>]) -> (Vec<u32>, u32) {
    let mut next = 0u32;
    let mut base: Vec<u32> = f
        .values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            if aliases.get(i).is_some_and(Option::is_some) {
                return 0;
            }
            let b = next;
            next += v.ty.slots();
            b
        })
        .collect();
    for (v, a) in aliases.iter().enumerate() {
        if let Some((src, at)) = a {
            base[v] = base[src.0 as usize] + at;
        }
    }
    (base, next)
}

/// The first slot of each value, and the total.
pub fn allocate(f: &Function) -> (Vec<u32>, u32) {
    let mut next = 0u32;
    let base = f
        .values
        .iter()
        .map(|v| {
            let b = next;
            next += v.ty.slots();
            b
        })
        .collect();
    (base, next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Cfg, Def, Scalar, Type};

    #[test]
    fn aggregates_take_consecutive_slots() {
        let mut f = Function { name: "t".into(), values: vec![], blocks: vec![], globals: vec![], cfg: Cfg::default() };
        f.add_value(Type::Scalar(Scalar::F32), Def::Inst);
        f.add_value(Type::Agg([Scalar::I32; 5].into()), Def::Inst);
        f.add_value(Type::Void, Def::Inst);
        f.add_value(Type::Handle, Def::Inst);
        assert_eq!(allocate(&f), (vec![0, 1, 6, 6], 7));
        // Value 0 a copy of slot 3 of value 1: it takes no slots of its own.
        let aliases = [Some((crate::ir::Value(1), 3)), None, None, None];
        assert_eq!(allocate_shared(&f, &aliases), (vec![3, 0, 5, 5], 6));
    }
}
