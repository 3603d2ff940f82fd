//! Instructions: what the reader (`body`) produces for each record of a function
//! body, with operands as absolute [`ValueId`]s.

use super::module::ValueId;
use super::types::TypeId;

/// A binary operator; the float forms are told apart by the operand type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    FAdd,
    Sub,
    FSub,
    Mul,
    FMul,
    UDiv,
    SDiv,
    FDiv,
    URem,
    SRem,
    FRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
}

impl BinOp {
    /// Decodes a bitcode binary opcode for integer or floating point operands.
    pub fn decode(code: u64, float: bool) -> Option<BinOp> {
        use BinOp::*;
        Some(match (code, float) {
            (0, false) => Add,
            (0, true) => FAdd,
            (1, false) => Sub,
            (1, true) => FSub,
            (2, false) => Mul,
            (2, true) => FMul,
            (3, false) => UDiv,
            (4, false) => SDiv,
            (4, true) => FDiv,
            (5, false) => URem,
            (6, false) => SRem,
            (6, true) => FRem,
            (7, false) => Shl,
            (8, false) => LShr,
            (9, false) => AShr,
            (10, false) => And,
            (11, false) => Or,
            (12, false) => Xor,
            _ => return None,
        })
    }

    /// The LLVM mnemonic.
    pub fn name(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "add",
            FAdd => "fadd",
            Sub => "sub",
            FSub => "fsub",
            Mul => "mul",
            FMul => "fmul",
            UDiv => "udiv",
            SDiv => "sdiv",
            FDiv => "fdiv",
            URem => "urem",
            SRem => "srem",
            FRem => "frem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
        }
    }

    /// Whether the operator works on floating point values.
    pub fn is_float(self) -> bool {
        matches!(self, BinOp::FAdd | BinOp::FSub | BinOp::FMul | BinOp::FDiv | BinOp::FRem)
    }
}

/// A cast operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CastOp {
    Trunc,
    ZExt,
    SExt,
    FPToUI,
    FPToSI,
    UIToFP,
    SIToFP,
    FPTrunc,
    FPExt,
    PtrToInt,
    IntToPtr,
    BitCast,
    AddrSpaceCast,
}

impl CastOp {
    const ALL: [CastOp; 13] = [
        CastOp::Trunc,
        CastOp::ZExt,
        CastOp::SExt,
        CastOp::FPToUI,
        CastOp::FPToSI,
        CastOp::UIToFP,
        CastOp::SIToFP,
        CastOp::FPTrunc,
        CastOp::FPExt,
        CastOp::PtrToInt,
        CastOp::IntToPtr,
        CastOp::BitCast,
        CastOp::AddrSpaceCast,
    ];

    /// Decodes a bitcode cast opcode.
    pub fn decode(code: u64) -> Option<CastOp> {
        Self::ALL.get(usize::try_from(code).ok()?).copied()
    }

    /// The LLVM mnemonic.
    pub fn name(self) -> &'static str {
        [
            "trunc",
            "zext",
            "sext",
            "fptoui",
            "fptosi",
            "uitofp",
            "sitofp",
            "fptrunc",
            "fpext",
            "ptrtoint",
            "inttoptr",
            "bitcast",
            "addrspacecast",
        ][self as usize]
    }
}

/// The LLVM name of a comparison predicate (0–15 `fcmp`, 32–41 `icmp`).
pub fn predicate_name(pred: u32) -> Option<&'static str> {
    const F: [&str; 16] = [
        "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "uno", "ueq", "ugt", "uge", "ult", "ule", "une",
        "true",
    ];
    const I: [&str; 10] = ["eq", "ne", "ugt", "uge", "ult", "ule", "sgt", "sge", "slt", "sle"];
    match pred {
        0..=15 => Some(F[pred as usize]),
        32..=41 => Some(I[pred as usize - 32]),
        _ => None,
    }
}

/// The LLVM name of an `atomicrmw` operation.
pub fn atomic_rmw_name(op: u32) -> Option<&'static str> {
    ["xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin"].get(op as usize).copied()
}

/// An operand of a call: a value, or, for parameters of type `metadata`, a metadata id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operand {
    /// A value.
    Value(ValueId),
    /// A metadata node or string (index into the module's metadata).
    Metadata(u32),
}

/// What an instruction does.
#[derive(Debug, Clone, PartialEq)]
pub enum InstKind {
    /// `lhs op rhs`. `flags`: nuw (bit 0) / nsw (bit 1) for integer add, sub, mul, shl;
    /// exact (bit 0) for divisions and right shifts; fast-math flags for float operations.
    Binary {
        /// The operator.
        op: BinOp,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
        /// Operator flags as stored.
        flags: u64,
    },
    /// A cast to the instruction's type.
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        value: ValueId,
    },
    /// `icmp` / `fcmp`.
    Cmp {
        /// Predicate (see [`predicate_name`]).
        pred: u32,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// `select`.
    Select {
        /// Condition (i1 or a vector of i1).
        cond: ValueId,
        /// Value if true.
        then: ValueId,
        /// Value if false.
        otherwise: ValueId,
    },
    /// `extractvalue`.
    ExtractValue {
        /// The aggregate.
        agg: ValueId,
        /// Indices.
        indices: Vec<u32>,
    },
    /// `insertvalue`.
    InsertValue {
        /// The aggregate.
        agg: ValueId,
        /// The value inserted.
        value: ValueId,
        /// Indices.
        indices: Vec<u32>,
    },
    /// `extractelement`.
    ExtractElement {
        /// The vector.
        vector: ValueId,
        /// The index.
        index: ValueId,
    },
    /// `insertelement`.
    InsertElement {
        /// The vector.
        vector: ValueId,
        /// The element.
        value: ValueId,
        /// The index.
        index: ValueId,
    },
    /// `shufflevector`.
    ShuffleVector {
        /// First vector.
        a: ValueId,
        /// Second vector.
        b: ValueId,
        /// The constant mask.
        mask: ValueId,
    },
    /// `getelementptr`.
    Gep {
        /// `inbounds`.
        inbounds: bool,
        /// The type the base pointer points to.
        source_ty: TypeId,
        /// The base pointer.
        base: ValueId,
        /// The indices.
        indices: Vec<ValueId>,
    },
    /// `alloca`.
    Alloca {
        /// The type allocated.
        allocated: TypeId,
        /// Element count.
        count: ValueId,
        /// Alignment in bytes (0 = unspecified).
        align: u64,
    },
    /// `load`.
    Load {
        /// The address.
        ptr: ValueId,
        /// Alignment in bytes (0 = unspecified).
        align: u64,
        /// `volatile`.
        volatile: bool,
    },
    /// `store`.
    Store {
        /// The address.
        ptr: ValueId,
        /// The value stored.
        value: ValueId,
        /// Alignment in bytes (0 = unspecified).
        align: u64,
        /// `volatile`.
        volatile: bool,
    },
    /// `atomicrmw`.
    AtomicRmw {
        /// Operation (see [`atomic_rmw_name`]).
        op: u32,
        /// The address.
        ptr: ValueId,
        /// The operand.
        value: ValueId,
        /// `volatile`.
        volatile: bool,
        /// Memory ordering code.
        ordering: u64,
    },
    /// `cmpxchg`; the result is `{ T, i1 }`, or for the old record form (LLVM's
    /// `CMPXCHG_OLD`, which Mesa writes) the value loaded, `T` (`pair` false).
    CmpXchg {
        /// The address.
        ptr: ValueId,
        /// The expected value.
        cmp: ValueId,
        /// The new value.
        new: ValueId,
        /// `volatile`.
        volatile: bool,
        /// Success ordering code.
        ordering: u64,
        /// The result is `{ T, i1 }` (the loaded value and whether it matched).
        pair: bool,
    },
    /// `call`.
    Call {
        /// The callee (a function value).
        callee: ValueId,
        /// The callee's function type.
        fn_ty: TypeId,
        /// The arguments.
        args: Vec<Operand>,
        /// Fast-math flags (0 = none).
        flags: u64,
    },
    /// `phi`.
    Phi {
        /// (value, predecessor block) pairs.
        incoming: Vec<(ValueId, u32)>,
    },
    /// `ret`.
    Ret {
        /// The returned value.
        value: Option<ValueId>,
    },
    /// An unconditional `br`.
    Br {
        /// Target block.
        target: u32,
    },
    /// A conditional `br`.
    CondBr {
        /// The i1 condition.
        cond: ValueId,
        /// Target if true.
        then: u32,
        /// Target if false.
        otherwise: u32,
    },
    /// `switch`.
    Switch {
        /// The value switched on.
        cond: ValueId,
        /// Target when no case matches.
        default: u32,
        /// (constant case value, target) pairs.
        cases: Vec<(ValueId, u32)>,
    },
    /// `unreachable`.
    Unreachable,
    /// `fence`.
    Fence {
        /// Ordering code.
        ordering: u64,
        /// Synchronisation scope code.
        scope: u64,
    },
}

impl InstKind {
    /// The value operands, in order (phi values, call arguments that are values, ...).
    pub fn operands(&self) -> Vec<ValueId> {
        use InstKind::*;
        match self {
            Binary { lhs, rhs, .. } | Cmp { lhs, rhs, .. } => vec![*lhs, *rhs],
            Cast { value, .. } => vec![*value],
            Select { cond, then, otherwise } => vec![*cond, *then, *otherwise],
            ExtractValue { agg, .. } => vec![*agg],
            InsertValue { agg, value, .. } => vec![*agg, *value],
            ExtractElement { vector, index } => vec![*vector, *index],
            InsertElement { vector, value, index } => vec![*vector, *value, *index],
            ShuffleVector { a, b, mask } => vec![*a, *b, *mask],
            Gep { base, indices, .. } => core::iter::once(*base).chain(indices.iter().copied()).collect(),
            Alloca { count, .. } => vec![*count],
            Load { ptr, .. } => vec![*ptr],
            Store { ptr, value, .. } | AtomicRmw { ptr, value, .. } => vec![*ptr, *value],
            CmpXchg { ptr, cmp, new, .. } => vec![*ptr, *cmp, *new],
            Call { callee, args, .. } => core::iter::once(*callee)
                .chain(args.iter().filter_map(|a| match a {
                    Operand::Value(v) => Some(*v),
                    Operand::Metadata(_) => None,
                }))
                .collect(),
            Phi { incoming } => incoming.iter().map(|(v, _)| *v).collect(),
            Ret { value } => value.iter().copied().collect(),
            CondBr { cond, .. } => vec![*cond],
            Switch { cond, cases, .. } => core::iter::once(*cond).chain(cases.iter().map(|(v, _)| *v)).collect(),
            Br { .. } | Unreachable | Fence { .. } => vec![],
        }
    }

    /// The blocks this instruction may branch to (empty for non-terminators and `ret`).
    pub fn successors(&self) -> Vec<u32> {
        match self {
            InstKind::Br { target } => vec![*target],
            InstKind::CondBr { then, otherwise, .. } => vec![*then, *otherwise],
            InstKind::Switch { default, cases, .. } => {
                core::iter::once(*default).chain(cases.iter().map(|(_, b)| *b)).collect()
            }
            _ => vec![],
        }
    }

    /// Whether the instruction ends a basic block.
    pub fn is_terminator(&self) -> bool {
        matches!(
            self,
            InstKind::Ret { .. }
                | InstKind::Br { .. }
                | InstKind::CondBr { .. }
                | InstKind::Switch { .. }
                | InstKind::Unreachable
        )
    }
}

/// An instruction: what it does, its result type (`void` for none) and result value id.
#[derive(Debug, Clone, PartialEq)]
pub struct Inst {
    /// What it does.
    pub kind: InstKind,
    /// Result type (the module's `void` for instructions without a result).
    pub ty: TypeId,
    /// The result's value id, for instructions with a non-void result.
    pub result: Option<ValueId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_tables_match_llvm_numbering() {
        assert_eq!(BinOp::decode(2, true), Some(BinOp::FMul));
        assert_eq!(BinOp::decode(5, false), Some(BinOp::URem));
        assert_eq!(BinOp::decode(5, true), None);
        assert!(BinOp::FRem.is_float());
        assert_eq!(CastOp::decode(11).map(CastOp::name), Some("bitcast"));
        assert_eq!(CastOp::decode(4).map(CastOp::name), Some("fptosi"));
        assert_eq!(CastOp::decode(13), None);
        assert_eq!(predicate_name(39), Some("sge"));
        assert_eq!(predicate_name(4), Some("olt"));
        assert_eq!(predicate_name(20), None);
        assert_eq!(atomic_rmw_name(10), Some("umin"));
    }
}
