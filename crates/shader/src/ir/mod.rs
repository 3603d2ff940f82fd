//! The shader IR: one typed SSA form that every front end (DXIL, later DXBC) produces and
//! every back end (the interpreter, later the JIT and SPIR-V) consumes.
//!
//! * [`types`] — the types of values ([`types::Scalar`], [`types::Type`]).
//! * [`op`] — what instructions do: [`op::Op`] and the typed enums of DXIL's integer codes.
//! * [`wave`] — the wave and quad operations of [`Op::Wave`], decoded.
//! * [`interface`] — the shader interface: signatures, resources, stage state.
//! * [`print`](mod@print) — text like `%5 = fadd float %3, %4`, for eyes and test messages.
//!
//! A [`Function`] is a list of [`Block`]s, each with leading [`Phi`]s, instructions and one
//! [`Terminator`]; every [`Value`] (constants too) has one [`Type`] and one definition.
//! The structured control flow facts a SIMD back end needs ([`Cfg`]: reconvergence points,
//! loops) are computed by `crate::passes` and kept beside the body. Nothing here knows DXIL.

pub mod interface;
pub mod op;
pub mod print;
pub mod types;
pub mod wave;

pub use op::Op;
pub use types::{AddrSpace, Scalar, Type};

/// A value of a function: an index into [`Function::values`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Value(pub u32);

/// A block of a function: an index into [`Function::blocks`]; block 0 is the entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// How a value is defined.
#[derive(Debug, Clone, PartialEq)]
pub enum Def {
    /// A constant: the raw bits of each slot (see [`Type`]); `undef` reads as zeros.
    Const(Box<[u64]>),
    /// A phi or instruction result.
    Inst,
}

/// A value: its type and how it is defined.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueInfo {
    /// Its type.
    pub ty: Type,
    /// Its definition.
    pub def: Def,
}

/// A phi: `dst` takes the value of the predecessor the block was entered from.
#[derive(Debug, Clone, PartialEq)]
pub struct Phi {
    /// The result.
    pub dst: Value,
    /// (predecessor, value) pairs.
    pub incoming: Box<[(BlockId, Value)]>,
}

/// An instruction: an operation, its operands and its result.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// What it does.
    pub op: Op,
    /// Operands, in the order [`Op`]'s variant says.
    pub args: Box<[Value]>,
    /// The result (`None` for `void`).
    pub dst: Option<Value>,
}

/// How a block ends.
#[derive(Debug, Clone, PartialEq)]
pub enum Terminator {
    /// The function returns.
    Ret,
    /// An unconditional branch.
    Br(BlockId),
    /// A two-way branch on an `i1`.
    CondBr {
        /// The condition.
        cond: Value,
        /// Target when it is true.
        then: BlockId,
        /// Target when it is false.
        otherwise: BlockId,
    },
    /// A multi-way branch on an integer.
    Switch {
        /// The value switched on.
        cond: Value,
        /// Target when no case matches.
        default: BlockId,
        /// (case value, target), the case values cut to the operand's width.
        cases: Box<[(u64, BlockId)]>,
    },
    /// Reaching here is an error.
    Unreachable,
}

impl Terminator {
    /// The blocks it may branch to, in order.
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Ret | Terminator::Unreachable => vec![],
            Terminator::Br(b) => vec![*b],
            Terminator::CondBr { then, otherwise, .. } => vec![*then, *otherwise],
            Terminator::Switch { default, cases, .. } => {
                core::iter::once(*default).chain(cases.iter().map(|(_, b)| *b)).collect()
            }
        }
    }
}

/// A basic block.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    /// The phis, read together on entry.
    pub phis: Vec<Phi>,
    /// The instructions.
    pub insts: Vec<Inst>,
    /// How it ends.
    pub term: Terminator,
}

/// A global variable a function reaches: `cells` scalars in its address space, initialised
/// (private ones) from `init` or to zero.
#[derive(Debug, Clone, PartialEq)]
pub struct Global {
    /// Its name in the front end.
    pub name: String,
    /// Its address space.
    pub space: AddrSpace,
    /// The scalars it holds.
    pub cells: u32,
    /// The initial value of each cell (`None`: zeros).
    pub init: Option<Box<[u64]>>,
}

/// Structured control flow facts (`crate::passes`): what a SIMD back end needs to run
/// divergent lanes masked and reconverge them.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Cfg {
    /// Predecessors of each block.
    pub preds: Vec<Vec<BlockId>>,
    /// The reachable blocks in reverse post-order (the entry first).
    pub rpo: Vec<BlockId>,
    /// Each block's position in [`Cfg::rpo`] (`u32::MAX` when unreachable).
    pub rpo_index: Vec<u32>,
    /// Each block's immediate post-dominator (`None`: the virtual exit): for a block ending in
    /// a conditional branch or switch, the reconvergence point of its lanes.
    pub ipdom: Vec<Option<BlockId>>,
    /// The natural loops, outermost first.
    pub loops: Vec<Loop>,
    /// Each reachable block's position in the structured order: reverse post-order with every
    /// loop's blocks moved together right after its header, so that a loop's exits come after
    /// all of its blocks (`u32::MAX` when unreachable). Lanes scheduled in this order meet at
    /// reconvergence points, loop exits included.
    pub order: Vec<u32>,
}

/// A natural loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loop {
    /// Its header, the target of its back edges.
    pub header: BlockId,
    /// The blocks with a back edge to the header.
    pub latches: Vec<BlockId>,
    /// Its blocks, the header first.
    pub blocks: Vec<BlockId>,
    /// The blocks outside it that its blocks branch to.
    pub exits: Vec<BlockId>,
}

/// A function in SSA form.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Every value, constants included.
    pub values: Vec<ValueInfo>,
    /// The blocks; block 0 is the entry.
    pub blocks: Vec<Block>,
    /// The globals its [`Op::Global`] instructions name.
    pub globals: Vec<Global>,
    /// Control flow facts (empty until `crate::passes::cfg::analyse` runs).
    pub cfg: Cfg,
}

impl Function {
    /// The type of a value.
    pub fn ty(&self, v: Value) -> &Type {
        &self.values[v.0 as usize].ty
    }

    /// A new value of type `ty` defined by `def`.
    pub fn add_value(&mut self, ty: Type, def: Def) -> Value {
        self.values.push(ValueInfo { ty, def });
        Value(self.values.len() as u32 - 1)
    }

    /// The constant bits of `v`, if it is a constant.
    pub fn const_bits(&self, v: Value) -> Option<&[u64]> {
        match &self.values.get(v.0 as usize)?.def {
            Def::Const(b) => Some(b),
            Def::Inst => None,
        }
    }
}
