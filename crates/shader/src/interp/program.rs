//! An IR function laid out for the wave interpreter, computed once per function: each
//! operand resolved to its first slot and scalar type, constants gathered to be written once
//! per wave, phis turned into parallel copies on each edge, memory regions (allocas and
//! globals) placed in a lane's private memory or the group's shared memory.

use super::ExecError;
use crate::ir::{self, AddrSpace, BlockId, Def, Op, Scalar, Terminator, Type};
use crate::passes;

/// The operands every dx.op instruction has (missing ones read 0): the most any takes
/// (`SampleGrad`: 16).
const DX_OPERANDS: usize = 16;

/// Scratch slots after the values (see [`Program::new`]): more than any operation writes.
const SCRATCH: u32 = 8;

/// One instruction: the IR operation with its operands' slots and types.
#[derive(Debug, Clone)]
pub struct XInst {
    /// The operation.
    pub op: Op,
    /// The first slot of each operand.
    pub args: Box<[u32]>,
    /// The scalar type of each operand (slot 0 of aggregates).
    pub arg_ty: Box<[Scalar]>,
    /// The slots each operand takes.
    pub arg_slots: Box<[u32]>,
    /// The bits of each operand that is a scalar constant (the same in every lane).
    pub imm: Box<[Option<u64>]>,
    /// The first slot of the result (`u32::MAX` when there is none).
    pub dst: u32,
    /// The result's type.
    pub dst_ty: Type,
    /// The memory region of an `Alloca` or `Global` (0 otherwise).
    pub region: u32,
}

/// The parallel copy of an edge's phis: (destination slot, source slot) pairs.
#[derive(Debug, Clone, Default)]
pub struct Edge {
    /// The block the edge enters.
    pub to: u32,
    /// Slot copies, read all before any is written.
    pub copies: Box<[(u32, u32)]>,
    /// A phi of the target has no value for this edge.
    pub missing: bool,
    /// A copy reads a slot another copy writes: the copies need a temporary.
    pub overlap: bool,
}

/// How a block ends, with its edges' phi copies.
#[derive(Debug, Clone)]
pub enum XTerm {
    /// Return.
    Ret,
    /// Unconditional branch.
    Br(Edge),
    /// Two-way branch on the `i1` in slot `cond`.
    CondBr {
        /// The condition's slot.
        cond: u32,
        /// When true.
        then: Edge,
        /// When false.
        otherwise: Edge,
    },
    /// Multi-way branch.
    Switch {
        /// The operand's slot.
        cond: u32,
        /// When no case matches.
        default: Edge,
        /// Case values and their edges.
        cases: Box<[(u64, Edge)]>,
    },
    /// Reaching it is an error.
    Unreachable,
}

/// A block.
#[derive(Debug, Clone)]
pub struct XBlock {
    /// Its instructions.
    pub insts: Box<[XInst]>,
    /// Its end.
    pub term: XTerm,
}

/// A memory region: where it starts in its space's memory, and its size in scalars.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// Groupshared (else private to each lane).
    pub group: bool,
    /// First cell.
    pub base: u32,
    /// Cells.
    pub len: u32,
}

/// A function ready for the wave interpreter.
#[derive(Debug, Clone)]
pub struct Program {
    /// The IR (for messages: the printer).
    pub ir: ir::Function,
    /// Slots per lane.
    pub slots: u32,
    /// Constant slots and their bits.
    pub consts: Box<[(u32, u64)]>,
    /// The blocks.
    pub blocks: Box<[XBlock]>,
    /// Each block's position in the structured order ([`ir::Cfg::order`]): the scheduling order
    /// of divergent lanes.
    pub order: Box<[u32]>,
    /// Memory regions; a pointer's high 32 bits name one.
    pub regions: Box<[Region]>,
    /// Cells of one lane's private memory.
    pub private_cells: u32,
    /// Initial private memory of a lane (globals' initialisers).
    pub private_init: Box<[u64]>,
    /// Cells of the group's shared memory.
    pub group_cells: u32,
    /// Its native code, per wave width, compiled on first use (`crate::jit`).
    pub jit: crate::jit::Cache,
}

impl Program {
    /// Lays out `f` (whose control flow facts are computed).
    pub fn new(f: ir::Function) -> Result<Program, ExecError> {
        let aliases = passes::copies::aliases(&f);
        let (base, values) = passes::slots::allocate_shared(&f, &aliases);
        // After the values: a slot that stays 0, for the operands a malformed dx.op call lacks,
        // then scratch slots that results nothing reads go to (a call whose result DXIL
        // declares void or narrower than the operation writes): malformed input reads zeros
        // and writes nowhere that matters, and never indexes past the register file.
        let (zero, scratch, slots) = (values, values + 1, values + 1 + SCRATCH);
        let mut consts = Vec::new();
        for (i, v) in f.values.iter().enumerate() {
            if let Def::Const(bits) = &v.def {
                for (k, b) in bits.iter().enumerate() {
                    consts.push((base[i] + k as u32, *b));
                }
            }
        }
        // Regions: globals first, then one per alloca.
        let mut regions = Vec::new();
        let (mut private, mut group) = (0u32, 0u32);
        let mut init = Vec::new();
        let mut place = |g: bool, len: u32, regions: &mut Vec<Region>| -> Result<u32, ExecError> {
            let at = if g { &mut group } else { &mut private };
            let r = Region { group: g, base: *at, len };
            *at = at
                .checked_add(len)
                .filter(|n| *n <= 1 << 26)
                .ok_or_else(|| ExecError::Unsupported("more than 64M scalars of shader memory".into()))?;
            regions.push(r);
            Ok(regions.len() as u32 - 1)
        };
        for g in &f.globals {
            let r = place(g.space == AddrSpace::Group, g.cells, &mut regions)?;
            if g.space == AddrSpace::Private {
                let Region { base: b, len, .. } = regions[r as usize];
                init.resize((b + len) as usize, 0);
                if let Some(v) = &g.init {
                    for (c, x) in init[b as usize..].iter_mut().zip(v.iter()) {
                        *c = *x;
                    }
                }
            }
        }
        let scalar = |v: ir::Value| f.ty(v).slot(0);
        let slot = |v: ir::Value| base[v.0 as usize];
        let edge = |from: usize, to: BlockId| -> Edge {
            let Some(t) = f.blocks.get(to.0 as usize) else {
                return Edge { to: to.0, copies: [].into(), missing: true, overlap: false };
            };
            let mut copies = Vec::new();
            let mut missing = false;
            for p in &t.phis {
                match p.incoming.iter().find(|(b, _)| b.0 as usize == from) {
                    Some((_, v)) => {
                        for k in 0..f.ty(p.dst).slots().min(f.ty(*v).slots()) {
                            copies.push((slot(p.dst) + k, slot(*v) + k));
                        }
                    }
                    None => missing = true,
                }
            }
            let overlap = copies.iter().any(|(_, src)| copies.iter().any(|(dst, _)| dst == src));
            Edge { to: to.0, copies: copies.into(), missing, overlap }
        };
        let mut blocks = Vec::with_capacity(f.blocks.len());
        for (bi, b) in f.blocks.iter().enumerate() {
            let mut insts = Vec::with_capacity(b.insts.len());
            for i in &b.insts {
                if i.dst.is_some_and(|d| aliases[d.0 as usize].is_some()) {
                    // A copy: its value is its source's slots already.
                    continue;
                }
                let region = match i.op {
                    Op::Alloca(n) => place(false, n, &mut regions)?,
                    Op::Global(g) => g,
                    _ => 0,
                };
                let mut x = XInst {
                    op: i.op.clone(),
                    args: i.args.iter().map(|v| slot(*v)).collect(),
                    arg_ty: i.args.iter().map(|v| scalar(*v)).collect(),
                    arg_slots: i.args.iter().map(|v| f.ty(*v).slots()).collect(),
                    imm: i.args.iter().map(|v| f.const_bits(*v).and_then(|b| b.first().copied())).collect(),
                    dst: i.dst.map_or(scratch, slot),
                    dst_ty: i.dst.map_or(Type::Void, |d| f.ty(d).clone()),
                    region,
                };
                if matches!(x.op, Op::Dx(_) | Op::Wave { .. }) && x.args.len() < DX_OPERANDS {
                    let pad = DX_OPERANDS - x.args.len();
                    let grow = |b: &[u32], v: u32| b.iter().copied().chain(std::iter::repeat_n(v, pad)).collect();
                    x.args = grow(&x.args, zero);
                    x.arg_slots = grow(&x.arg_slots, 1);
                    x.arg_ty = x.arg_ty.iter().copied().chain(std::iter::repeat_n(Scalar::I32, pad)).collect();
                    x.imm = x.imm.iter().copied().chain(std::iter::repeat_n(Some(0), pad)).collect();
                }
                insts.push(x);
            }
            let term = match &b.term {
                Terminator::Ret => XTerm::Ret,
                Terminator::Br(t) => XTerm::Br(edge(bi, *t)),
                Terminator::CondBr { cond, then, otherwise } => {
                    XTerm::CondBr { cond: slot(*cond), then: edge(bi, *then), otherwise: edge(bi, *otherwise) }
                }
                Terminator::Switch { cond, default, cases } => XTerm::Switch {
                    cond: slot(*cond),
                    default: edge(bi, *default),
                    cases: cases.iter().map(|(v, t)| (*v, edge(bi, *t))).collect(),
                },
                Terminator::Unreachable => XTerm::Unreachable,
            };
            blocks.push(XBlock { insts: insts.into(), term });
        }
        init.resize(private as usize, 0);
        let order = f.cfg.order.iter().copied().collect();
        Ok(Program {
            ir: f,
            slots,
            consts: consts.into(),
            blocks: blocks.into(),
            order,
            regions: regions.into(),
            private_cells: private,
            private_init: init.into(),
            group_cells: group,
            jit: crate::jit::Cache::default(),
        })
    }
}
