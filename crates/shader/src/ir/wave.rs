//! The wave and quad operations of shader models 6.0 to 6.7 (dx.ops 110–123, 135, 136, 165–167, 221, 222) as the IR names
//! them in [`super::Op::Wave`]: decoded once from a call's constant kind operands
//! ([`WaveOp::from_dx_op`]), with their operand and result shapes. What they compute over a
//! wave's lanes is `crate::interp::wave`'s (D3D's rules and their sources are there). Nothing
//! here knows DXIL's bitcode or the interpreter.

use super::types::Scalar;

/// WaveActiveOp's and WavePrefixOp's operation (DXIL.rst `WaveOpKind`: Sum 0, Product 1,
/// Min 2, Max 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reduce {
    /// WaveActiveSum, WavePrefixSum.
    Sum,
    /// WaveActiveProduct, WavePrefixProduct.
    Product,
    /// WaveActiveMin.
    Min,
    /// WaveActiveMax.
    Max,
}

/// WaveActiveBit's operation (DXIL.rst `WaveBitOpKind`: And 0, Or 1, Xor 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BitOp {
    /// WaveActiveBitAnd.
    And,
    /// WaveActiveBitOr.
    Or,
    /// WaveActiveBitXor.
    Xor,
}

/// WaveMultiPrefixOp's operation (DXIL.rst `WaveMultiPrefixOpKind`: Sum 0, And 1, Or 2, Xor 3,
/// Product 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MultiPrefix {
    /// WaveMultiPrefixSum.
    Sum,
    /// WaveMultiPrefixBitAnd.
    And,
    /// WaveMultiPrefixBitOr.
    Or,
    /// WaveMultiPrefixBitXor.
    Xor,
    /// WaveMultiPrefixProduct.
    Product,
}

/// QuadOp's direction (DXIL.rst `QuadOpKind`: ReadAcrossX 0, ReadAcrossY 1,
/// ReadAcrossDiagonal 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QuadDir {
    /// QuadReadAcrossX: quad lane `q ^ 1`.
    X,
    /// QuadReadAcrossY: quad lane `q ^ 2`.
    Y,
    /// QuadReadAcrossDiagonal: quad lane `q ^ 3`.
    Diagonal,
}

impl QuadDir {
    /// The quad lane read: `q ^ xor()`.
    pub fn xor(self) -> usize {
        match self {
            QuadDir::X => 1,
            QuadDir::Y => 2,
            QuadDir::Diagonal => 3,
        }
    }
}

/// A wave or quad operation of shader model 6.0, decoded from its `dx.op` call.
///
/// Operands of [`eval`](crate::interp::wave::eval): `args[0]` is the value (`cond`/`bit` for the boolean ones, of type
/// `i1`), `args[1]` the lane index of ReadLaneAt and QuadReadLaneAt; the others take none.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WaveOp {
    /// 110 WaveIsFirstLane(): `Bool`.
    IsFirstLane,
    /// 111 WaveGetLaneIndex(): `I32`.
    GetLaneIndex,
    /// 112 WaveGetLaneCount(): `I32`.
    GetLaneCount,
    /// 113 WaveAnyTrue(cond): `Bool`.
    AnyTrue,
    /// 114 WaveAllTrue(cond): `Bool`.
    AllTrue,
    /// 115 WaveActiveAllEqual(value): `Bool`.
    AllEqual,
    /// 116 WaveActiveBallot(cond): `%dx.types.fouri32`, four `I32` results (x, y, z, w).
    Ballot,
    /// 117 WaveReadLaneAt(value, lane): the value's type.
    ReadLaneAt,
    /// 118 WaveReadLaneFirst(value).
    ReadLaneFirst,
    /// 119 WaveActiveOp(value, op, sop): `sop` 0 signed, 1 unsigned (DXIL.rst `SignedOpKind`).
    Active {
        /// The operation.
        op: Reduce,
        /// Whether Min and Max compare integers as signed.
        signed: bool,
    },
    /// 120 WaveActiveBit(value, op).
    Bit(BitOp),
    /// 121 WavePrefixOp(value, op, sop): Sum or Product only.
    Prefix {
        /// [`Reduce::Sum`] or [`Reduce::Product`].
        op: Reduce,
        /// The signed flag (no effect on a wrapping sum or product).
        signed: bool,
    },
    /// 122 QuadReadLaneAt(value, quadLane).
    QuadReadLaneAt,
    /// 123 QuadOp(value, op).
    Quad(QuadDir),
    /// 135 WaveAllBitCount(bit) (WaveActiveCountBits): `I32`.
    CountBits,
    /// 136 WavePrefixBitCount(bit) (WavePrefixCountBits): `I32`.
    PrefixCountBits,
    /// 165 WaveMatch(value) (shader model 6.5): like Ballot, four `I32` results, the lanes whose
    /// value has the same bits as this lane's.
    Match,
    /// 166 WaveMultiPrefixOp(value, mask0..mask3, op, sop) (6.5): the exclusive prefix over the
    /// participating lanes below this one that are in this lane's mask; the value's type.
    MultiPrefix {
        /// The operation.
        op: MultiPrefix,
        /// The signed flag (`sop` 0; no effect on these wrapping or bitwise operations).
        signed: bool,
    },
    /// 167 WaveMultiPrefixBitCount(bit, mask0..mask3) (6.5): `I32`, the lanes below this one in
    /// its mask whose `bit` is true.
    MultiPrefixCountBits,
    /// 221 IsHelperLane() (6.6): `Bool`, whether this lane is a helper lane.
    IsHelperLane,
    /// 222 QuadVote(cond, op) (6.7, QuadAny / QuadAll): `Bool`, whether `cond` holds in any
    /// (`all` false, op 0) or every (op 1) active lane of this lane's quad, helper lanes
    /// included as for the other quad operations.
    QuadVote {
        /// QuadAll (op 1).
        all: bool,
    },
}

/// A wave opcode whose immediate operand is missing (not a constant) or out of range.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BadWaveOp {
    /// The dx.op opcode.
    pub opcode: u32,
    /// What is wrong, e.g. "WaveActiveOp's op kind is not 0..=3".
    pub what: &'static str,
}

impl core::fmt::Display for BadWaveOp {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "dx.op {}: {}", self.opcode, self.what)
    }
}

impl WaveOp {
    /// Decodes `dx.op` `opcode` with its operands after the opcode, `Some(bits)` for those
    /// that are integer constants: `[value, op, sop]` for WaveActiveOp (119) and WavePrefixOp
    /// (121), `[value, op]` for WaveActiveBit (120) and QuadOp (123). Operand encodings from
    /// DXIL.rst's operation table and `DxilConstants.h` (WaveOpKind, WaveBitOpKind,
    /// SignedOpKind, QuadOpKind).
    ///
    /// Guarantees: `Ok(None)` for an opcode that is not one of these wave or quad operations;
    /// an error when an operation's kind operand is not a constant of its range (WavePrefixOp
    /// takes only Sum and Product).
    pub fn from_dx_op(opcode: u32, consts: &[Option<u64>]) -> Result<Option<WaveOp>, BadWaveOp> {
        let imm = |i: usize, max: u64, what: &'static str| match consts.get(i).copied().flatten() {
            Some(v) if v <= max => Ok(v),
            _ => Err(BadWaveOp { opcode, what }),
        };
        let reduce = |k| [Reduce::Sum, Reduce::Product, Reduce::Min, Reduce::Max][k as usize];
        Ok(Some(match opcode {
            110 => WaveOp::IsFirstLane,
            111 => WaveOp::GetLaneIndex,
            112 => WaveOp::GetLaneCount,
            113 => WaveOp::AnyTrue,
            114 => WaveOp::AllTrue,
            115 => WaveOp::AllEqual,
            116 => WaveOp::Ballot,
            117 => WaveOp::ReadLaneAt,
            118 => WaveOp::ReadLaneFirst,
            119 => WaveOp::Active {
                op: reduce(imm(1, 3, "WaveActiveOp's op kind is not a constant 0..=3")?),
                signed: imm(2, 1, "WaveActiveOp's signed kind is not a constant 0 or 1")? == 0,
            },
            120 => WaveOp::Bit(
                [BitOp::And, BitOp::Or, BitOp::Xor]
                    [imm(1, 2, "WaveActiveBit's op kind is not a constant 0..=2")? as usize],
            ),
            121 => WaveOp::Prefix {
                op: reduce(imm(1, 1, "WavePrefixOp's op kind is not a constant 0 (sum) or 1 (product)")?),
                signed: imm(2, 1, "WavePrefixOp's signed kind is not a constant 0 or 1")? == 0,
            },
            122 => WaveOp::QuadReadLaneAt,
            123 => WaveOp::Quad(
                [QuadDir::X, QuadDir::Y, QuadDir::Diagonal]
                    [imm(1, 2, "QuadOp's op kind is not a constant 0..=2")? as usize],
            ),
            135 => WaveOp::CountBits,
            136 => WaveOp::PrefixCountBits,
            165 => WaveOp::Match,
            166 => WaveOp::MultiPrefix {
                op: [MultiPrefix::Sum, MultiPrefix::And, MultiPrefix::Or, MultiPrefix::Xor, MultiPrefix::Product]
                    [imm(5, 4, "WaveMultiPrefixOp's op kind is not a constant 0..=4")? as usize],
                signed: imm(6, 1, "WaveMultiPrefixOp's signed kind is not a constant 0 or 1")? == 0,
            },
            167 => WaveOp::MultiPrefixCountBits,
            221 => WaveOp::IsHelperLane,
            222 => WaveOp::QuadVote { all: imm(1, 1, "QuadVote's op kind is not a constant 0 (any) or 1 (all)")? == 1 },
            _ => return Ok(None),
        }))
    }

    /// The dx.op opcode.
    pub fn opcode(self) -> u32 {
        match self {
            WaveOp::IsFirstLane => 110,
            WaveOp::GetLaneIndex => 111,
            WaveOp::GetLaneCount => 112,
            WaveOp::AnyTrue => 113,
            WaveOp::AllTrue => 114,
            WaveOp::AllEqual => 115,
            WaveOp::Ballot => 116,
            WaveOp::ReadLaneAt => 117,
            WaveOp::ReadLaneFirst => 118,
            WaveOp::Active { .. } => 119,
            WaveOp::Bit(_) => 120,
            WaveOp::Prefix { .. } => 121,
            WaveOp::QuadReadLaneAt => 122,
            WaveOp::Quad(_) => 123,
            WaveOp::CountBits => 135,
            WaveOp::PrefixCountBits => 136,
            WaveOp::Match => 165,
            WaveOp::MultiPrefix { .. } => 166,
            WaveOp::MultiPrefixCountBits => 167,
            WaveOp::IsHelperLane => 221,
            WaveOp::QuadVote { .. } => 222,
        }
    }

    /// How many lane operands [`eval`](crate::interp::wave::eval) reads from `args`: 0 for the lane queries, 2 for
    /// ReadLaneAt and QuadReadLaneAt (value, lane), 5 for the multi-prefix operations (value,
    /// then the mask's four words), else 1.
    pub fn lane_operands(self) -> usize {
        match self {
            WaveOp::IsFirstLane | WaveOp::GetLaneIndex | WaveOp::GetLaneCount | WaveOp::IsHelperLane => 0,
            WaveOp::ReadLaneAt | WaveOp::QuadReadLaneAt => 2,
            WaveOp::MultiPrefix { .. } | WaveOp::MultiPrefixCountBits => 5,
            _ => 1,
        }
    }

    /// The type of each result for a value operand of type `value`: `Bool` for the votes,
    /// IsFirstLane and AllEqual, `I32` for lane indices, counts and Ballot's words, the value's
    /// own type for the reductions, prefixes, broadcasts and quad reads.
    pub fn result(self, value: Scalar) -> Scalar {
        match self {
            WaveOp::IsFirstLane
            | WaveOp::AnyTrue
            | WaveOp::AllTrue
            | WaveOp::AllEqual
            | WaveOp::IsHelperLane
            | WaveOp::QuadVote { .. } => Scalar::Bool,
            WaveOp::GetLaneIndex
            | WaveOp::GetLaneCount
            | WaveOp::Ballot
            | WaveOp::Match
            | WaveOp::CountBits
            | WaveOp::PrefixCountBits
            | WaveOp::MultiPrefixCountBits => Scalar::I32,
            _ => value,
        }
    }

    /// How many values each lane gets (4 for Ballot's and WaveMatch's `uint4`, else 1).
    pub fn results(self) -> usize {
        if matches!(self, WaveOp::Ballot | WaveOp::Match) {
            4
        } else {
            1
        }
    }

    /// Whether it reads helper lanes (the quad operations) rather than only participating
    /// lanes.
    pub fn is_quad(self) -> bool {
        matches!(self, WaveOp::Quad(_) | WaveOp::QuadReadLaneAt | WaveOp::QuadVote { .. })
    }
}
