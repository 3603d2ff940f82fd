//! What IR instructions do: [`Op`], and the typed enums for what DXIL encodes as integers
//! (binary and cast operators, comparison predicates, atomic operations, sample modes, ...).
//! [`Dx`] has one variant (or one typed family) per `dx.op` the interpreter executes; its
//! [`Dx::opcode`] gives the DXIL.rst number back, for messages and for the lowering's tests.

use super::interface::ResourceClass;
use super::types::Scalar;
pub use super::wave::WaveOp;

/// A binary operator (LLVM's, integer forms signless: the operator says how it reads them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    And,
    Or,
    Xor,
    FAdd,
    FSub,
    FMul,
    FDiv,
    FRem,
}

impl BinOp {
    /// The LLVM mnemonic.
    pub fn name(self) -> &'static str {
        use BinOp::*;
        match self {
            Add => "add",
            Sub => "sub",
            Mul => "mul",
            UDiv => "udiv",
            SDiv => "sdiv",
            URem => "urem",
            SRem => "srem",
            Shl => "shl",
            LShr => "lshr",
            AShr => "ashr",
            And => "and",
            Or => "or",
            Xor => "xor",
            FAdd => "fadd",
            FSub => "fsub",
            FMul => "fmul",
            FDiv => "fdiv",
            FRem => "frem",
        }
    }
}

/// A conversion between scalar types (LLVM's casts; pointer casts lower to copies).
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
    /// The same bits as another type of the same width.
    BitCast,
}

impl CastOp {
    /// The LLVM mnemonic.
    pub fn name(self) -> &'static str {
        use CastOp::*;
        match self {
            Trunc => "trunc",
            ZExt => "zext",
            SExt => "sext",
            FPToUI => "fptoui",
            FPToSI => "fptosi",
            UIToFP => "uitofp",
            SIToFP => "sitofp",
            FPTrunc => "fptrunc",
            FPExt => "fpext",
            BitCast => "bitcast",
        }
    }
}

/// A comparison predicate: LLVM's `fcmp` (ordered `O*`, unordered `U*`) and `icmp` ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum CmpPred {
    FFalse,
    FOeq,
    FOgt,
    FOge,
    FOlt,
    FOle,
    FOne,
    FOrd,
    FUno,
    FUeq,
    FUgt,
    FUge,
    FUlt,
    FUle,
    FUne,
    FTrue,
    IEq,
    INe,
    IUgt,
    IUge,
    IUlt,
    IUle,
    ISgt,
    ISge,
    ISlt,
    ISle,
}

impl CmpPred {
    const ALL: [CmpPred; 26] = {
        use CmpPred::*;
        [
            FFalse, FOeq, FOgt, FOge, FOlt, FOle, FOne, FOrd, FUno, FUeq, FUgt, FUge, FUlt, FUle, FUne, FTrue, IEq,
            INe, IUgt, IUge, IUlt, IUle, ISgt, ISge, ISlt, ISle,
        ]
    };

    /// From LLVM's numbering (0–15 `fcmp`, 32–41 `icmp`).
    pub fn from_llvm(pred: u32) -> Option<CmpPred> {
        match pred {
            0..=15 => Some(Self::ALL[pred as usize]),
            32..=41 => Some(Self::ALL[pred as usize - 16]),
            _ => None,
        }
    }

    /// LLVM's number.
    pub fn llvm(self) -> u32 {
        let i = self as u32;
        if i < 16 {
            i
        } else {
            i + 16
        }
    }

    /// Whether this is an `fcmp` predicate.
    pub fn is_float(self) -> bool {
        (self as u32) < 16
    }
}

/// An atomic read-modify-write operation: LLVM's `atomicrmw` set, which holds DXIL's
/// `AtomicBinOp` set too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum AtomicOp {
    Xchg,
    Add,
    Sub,
    And,
    Nand,
    Or,
    Xor,
    Max,
    Min,
    UMax,
    UMin,
}

impl AtomicOp {
    /// From LLVM's `atomicrmw` numbering (0 xchg … 10 umin).
    pub fn from_llvm(op: u32) -> Option<AtomicOp> {
        use AtomicOp::*;
        [Xchg, Add, Sub, And, Nand, Or, Xor, Max, Min, UMax, UMin].get(op as usize).copied()
    }

    /// From DXIL's `AtomicBinOp` numbering (0 ADD, 1 AND, 2 OR, 3 XOR, 4 IMIN, 5 IMAX, 6 UMIN,
    /// 7 UMAX, 8 EXCHANGE).
    pub fn from_dxil(op: u32) -> Option<AtomicOp> {
        use AtomicOp::*;
        [Add, And, Or, Xor, Min, Max, UMin, UMax, Xchg].get(op as usize).copied()
    }

    /// DXIL's `AtomicBinOp` number (`None` for sub and nand, which DXIL has not).
    pub fn dxil(self) -> Option<u32> {
        use AtomicOp::*;
        Some(match self {
            Add => 0,
            And => 1,
            Or => 2,
            Xor => 3,
            Min => 4,
            Max => 5,
            UMin => 6,
            UMax => 7,
            Xchg => 8,
            Sub | Nand => return None,
        })
    }

    /// The LLVM mnemonic.
    pub fn name(self) -> &'static str {
        ["xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin"][self as usize]
    }
}

/// A one-operand float operation of `dx.op.unary` / `dx.op.isSpecialFloat` families.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FUnary {
    FAbs,
    Saturate,
    Cos,
    Sin,
    Tan,
    Acos,
    Asin,
    Atan,
    Hcos,
    Hsin,
    Htan,
    Exp,
    Frc,
    Log,
    Sqrt,
    Rsqrt,
    RoundNe,
    RoundNi,
    RoundPi,
    RoundZ,
}

/// `IsNaN`, `IsInf`, `IsFinite`, `IsNormal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum FClass {
    IsNan,
    IsInf,
    IsFinite,
    IsNormal,
}

/// One-operand integer bit operations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum IUnary {
    Bfrev,
    Countbits,
    FirstbitLo,
    FirstbitHi,
    FirstbitSHi,
}

/// Two-operand min/max operations (`FMax`, `FMin`, `IMax`, `IMin`, `UMax`, `UMin`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum MinMax {
    FMax,
    FMin,
    IMax,
    IMin,
    UMax,
    UMin,
}

/// Operations with two results (`{hi, lo}`, `{quotient, remainder}`, `{result, carry}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TwoOut {
    IMul,
    UMul,
    UDiv,
    UAddc,
    USubb,
}

/// How a `Sample*` operation picks its level and whether it compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SampleKind {
    /// `Sample`: implicit LOD from the quad's derivatives.
    Implicit,
    /// `SampleBias`.
    Bias,
    /// `SampleLevel`.
    Level,
    /// `SampleGrad`: the shader's derivatives.
    Grad,
    /// `SampleCmp`: implicit LOD and a comparison.
    Cmp,
    /// `SampleCmpLevelZero`.
    CmpLevelZero,
}

/// Which derivative: coarse (one per quad) or fine (per row or column), along x or y.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Deriv {
    CoarseX,
    CoarseY,
    FineX,
    FineY,
}

/// Bitcasts between sizes of `dx.op.bitcast*` (124–129).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum DxBitcast {
    I16ToF16,
    F16ToI16,
    I32ToF32,
    F32ToI32,
    I64ToF64,
    F64ToI64,
}

/// The legacy conversions 130–134.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum LegacyConv {
    F32ToF16,
    F16ToF32,
    DoubleToFloat,
    DoubleToSInt32,
    DoubleToUInt32,
}

/// How `Pack4x8` (220) narrows each component to a byte (DXIL.rst `PackMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PackMode {
    /// 0: the low 8 bits (pack_u8, pack_s8).
    Trunc,
    /// 1: the signed value clamped to 0..=255 (pack_clamp_u8).
    UClamp,
    /// 2: the signed value clamped to -128..=127 (pack_clamp_s8).
    SClamp,
}

/// A system value read by an operation of its own (the environment answers it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum SysValue {
    SampleIndex,
    Coverage,
    ThreadId,
    GroupId,
    ThreadIdInGroup,
    FlattenedThreadIdInGroup,
    GsInstanceId,
    OutputControlPointId,
    PrimitiveId,
    ViewId,
    /// SV_StartVertexLocation (shader model 6.8, vertex shaders): the draw's
    /// StartVertexLocation, or BaseVertexLocation of an indexed draw.
    StartVertexLocation,
    /// SV_StartInstanceLocation (6.8): the draw's StartInstanceLocation.
    StartInstanceLocation,
}

impl SysValue {
    /// The dx.op opcode that reads it.
    pub fn opcode(self) -> u32 {
        use SysValue::*;
        match self {
            SampleIndex => 90,
            Coverage => 91,
            ThreadId => 93,
            GroupId => 94,
            ThreadIdInGroup => 95,
            FlattenedThreadIdInGroup => 96,
            GsInstanceId => 100,
            OutputControlPointId => 107,
            PrimitiveId => 108,
            ViewId => 138,
            StartVertexLocation => 256,
            StartInstanceLocation => 257,
        }
    }
}

/// Where an `Eval*` operation interpolates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum EvalKind {
    Snapped,
    SampleIndex,
    Centroid,
}

/// A `dx.op` operation. Operands follow DXIL.rst's order after the opcode, minus those
/// that became a field (an atomic operation, a resource class, barrier flags).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dx {
    /// `LoadInput` (4): sig, row, col, vertex (`vertex`: the vertex operand is not `undef`).
    LoadInput {
        /// A vertex index is given (geometry, hull, domain shaders).
        vertex: bool,
    },
    /// `StoreOutput` (5): sig, row, col, value.
    StoreOutput,
    /// `AttributeAtVertex` (137): sig, row, col, vertex.
    AttributeAtVertex,
    /// Unary float math (6, 7, 12–29).
    FUnary(FUnary),
    /// Float classification (8–11), giving an `i1`.
    FClass(FClass),
    /// Integer bit operations (30–34).
    IUnary(IUnary),
    /// Min and max (35–40).
    MinMax(MinMax),
    /// Two-result integer operations (41–45).
    TwoOut(TwoOut),
    /// `FMad` (46): a * b + c in f32, rounded twice (as today's interpreter does).
    FMad,
    /// `Fma` (47): fused, in f64.
    Fma,
    /// `IMad` (48) / `UMad` (49): a * b + c, wrapping.
    IMad,
    /// `UMad` (49).
    UMad,
    /// `Msad` (50).
    Msad,
    /// `Ibfe` (51).
    Ibfe,
    /// `Ubfe` (52).
    Ubfe,
    /// `Bfi` (53).
    Bfi,
    /// `Dot2` / `Dot3` / `Dot4` (54–56): the component count.
    Dot(u8),
    /// `CreateHandle` (57): range id, index, non-uniform.
    CreateHandle(ResourceClass),
    /// `CBufferLoad` (58): handle, byte offset, alignment: one value of the result's type at
    /// that offset (DXIL.rst; DXC reads cbuffers with `CBufferLoadLegacy` only).
    CBufferLoad,
    /// `CBufferLoadLegacy` (59): handle, row.
    CBufferLoadLegacy,
    /// `Sample*` (60–65): texture, sampler, c0..c3, o0..o2, then the mode's operands.
    Sample(SampleKind),
    /// `TextureLoad` (66).
    TextureLoad,
    /// `TextureStore` (67).
    TextureStore,
    /// `BufferLoad` (68).
    BufferLoad,
    /// `BufferStore` (69).
    BufferStore,
    /// `BufferUpdateCounter` (70).
    BufferUpdateCounter,
    /// `CheckAccessFullyMapped` (71).
    CheckAccessFullyMapped,
    /// `GetDimensions` (72).
    GetDimensions,
    /// `TextureGather` (73).
    TextureGather,
    /// `TextureGatherCmp` (74).
    TextureGatherCmp,
    /// `Texture2DMSGetSamplePosition` (75).
    Texture2DMSGetSamplePosition,
    /// `RenderTargetGetSamplePosition` (76).
    RenderTargetGetSamplePosition,
    /// `RenderTargetGetSampleCount` (77).
    RenderTargetGetSampleCount,
    /// `AtomicBinOp` (78): handle, c0..c2, value.
    AtomicBinOp(AtomicOp),
    /// `AtomicCompareExchange` (79).
    AtomicCompareExchange,
    /// `Barrier` (80); `group_sync`: the SyncThreadGroup flag.
    Barrier {
        /// Threads of the group wait for each other.
        group_sync: bool,
    },
    /// `CalculateLOD` (81).
    CalculateLod,
    /// `Discard` (82): condition.
    Discard,
    /// `DerivCoarseX` … `DerivFineY` (83–86).
    Deriv(Deriv),
    /// `EvalSnapped`, `EvalSampleIndex`, `EvalCentroid` (87–89).
    Eval(EvalKind),
    /// A system value (90, 91, 93–96, 100, 107, 108, 138, 256, 257): its component.
    SysValue(SysValue),
    /// `EmitStream` (97).
    EmitStream,
    /// `CutStream` (98).
    CutStream,
    /// `EmitThenCutStream` (99).
    EmitThenCutStream,
    /// `MakeDouble` (101).
    MakeDouble,
    /// `SplitDouble` (102).
    SplitDouble,
    /// `LoadOutputControlPoint` (103).
    LoadOutputControlPoint,
    /// `LoadPatchConstant` (104).
    LoadPatchConstant,
    /// `DomainLocation` (105).
    DomainLocation,
    /// `StorePatchConstant` (106).
    StorePatchConstant,
    /// `Bitcast*` (124–129).
    Bitcast(DxBitcast),
    /// `LegacyF32ToF16` … `LegacyDoubleToUInt32` (130–134).
    Legacy(LegacyConv),
    /// `RawBufferLoad` (139).
    RawBufferLoad,
    /// `RawBufferStore` (140).
    RawBufferStore,
    /// `Dot2AddHalf` (162): acc, ax, ay, bx, by: `acc + ax * bx + ay * by` in f32 (the halves
    /// widened exactly).
    Dot2AddHalf,
    /// `Dot4AddI8Packed` (163, `signed`) / `Dot4AddU8Packed` (164): acc, a, b: `acc` plus the
    /// products of the four byte pairs of `a` and `b` (signed or unsigned bytes), wrapping.
    Dot4AddPacked {
        /// The bytes are signed (163).
        signed: bool,
    },
    /// `Unpack4x8` (219): packed: the four bytes of an `i32`, lowest first, zero- or
    /// (`signed`, unpack mode 1) sign-extended to the result's four integers.
    Unpack4x8 {
        /// Unpack mode 1 (unpack_s8s16, unpack_s8s32).
        signed: bool,
    },
    /// `Pack4x8` (220): x, y, z, w (integers of one width): one `i32`, x in the lowest byte.
    Pack4x8(PackMode),
    /// `RawBufferLoad` (139) of 16-bit values (`-enable-16bit-types`): handle, index, offset,
    /// as [`Dx::RawBufferLoad`], each value two bytes of the buffer (not a 32-bit word);
    /// `raw`: a ByteAddressBuffer (the element offset is `undef`), else a structured buffer.
    RawBufferLoad16 {
        /// The index is the byte address (ByteAddressBuffer).
        raw: bool,
    },
    /// `RawBufferStore` (140) of 16-bit values: handle, index, offset, v0..v3, as
    /// [`Dx::RawBufferStore`], writing two bytes per value and no others.
    RawBufferStore16 {
        /// The index is the byte address (ByteAddressBuffer).
        raw: bool,
    },
    /// `SampleCmpLevel` (224, shader model 6.7): texture, sampler, c0..c3, o0..o2, compare,
    /// lod.
    SampleCmpLevel,
    /// `SampleCmpGrad` (254, 6.8): texture, sampler, c0..c3, o0..o2, compare, ddx0..ddx2,
    /// ddy0..ddy2, clamp.
    SampleCmpGrad,
    /// `SampleCmpBias` (255, 6.8): texture, sampler, c0..c3, o0..o2, compare, bias, clamp
    /// (the quad's derivatives, as `SampleCmp`).
    SampleCmpBias,
    /// `RawBufferLoad` (139) of 64-bit values (`Load<uint64_t>`, `Load<double>`), each value two
    /// 32-bit words of the buffer, low first; `raw` as for [`Dx::RawBufferLoad16`].
    RawBufferLoad64 {
        /// The index is the byte address (ByteAddressBuffer).
        raw: bool,
    },
    /// `RawBufferStore` (140) of 64-bit values: two words each.
    RawBufferStore64 {
        /// The index is the byte address (ByteAddressBuffer).
        raw: bool,
    },
    /// `BarrierByMemoryType` (244, shader model 6.8): no operands left; `group_sync`: the
    /// semantics' GroupSync flag (bit 0). Memory types and scopes need nothing more of an
    /// interpreter whose memory operations are seen at once.
    BarrierByMemoryType {
        /// Threads of the group wait for each other.
        group_sync: bool,
    },
    /// `BarrierByMemoryHandle` (245): the handle; `group_sync` as for
    /// [`Dx::BarrierByMemoryType`].
    BarrierByMemoryHandle {
        /// Threads of the group wait for each other.
        group_sync: bool,
    },
}

impl Dx {
    /// Whether this is a group barrier, where a compute wave may stop until its group has
    /// come (the interpreter's `exec` returns `true` for it; the JIT splits blocks after it).
    pub fn is_barrier(self) -> bool {
        matches!(self, Dx::Barrier { .. } | Dx::BarrierByMemoryType { .. } | Dx::BarrierByMemoryHandle { .. })
    }

    /// The operation of a dx.op opcode that the IR knows, with its fields still unset where an
    /// operand gives them ([`Dx::LoadInput`], [`Dx::CreateHandle`], [`Dx::AtomicBinOp`],
    /// [`Dx::Barrier`], [`Dx::Unpack4x8`], [`Dx::Pack4x8`] and the shader model 6.8 barriers take
    /// defaults the lowering replaces).
    pub fn from_opcode(opcode: u32) -> Option<Dx> {
        use Dx::*;
        Some(match opcode {
            4 => LoadInput { vertex: false },
            5 => StoreOutput,
            6 => FUnary(self::FUnary::FAbs),
            7 => FUnary(self::FUnary::Saturate),
            8 => FClass(self::FClass::IsNan),
            9 => FClass(self::FClass::IsInf),
            10 => FClass(self::FClass::IsFinite),
            11 => FClass(self::FClass::IsNormal),
            12..=29 => {
                use self::FUnary::*;
                FUnary(
                    [
                        Cos, Sin, Tan, Acos, Asin, Atan, Hcos, Hsin, Htan, Exp, Frc, Log, Sqrt, Rsqrt, RoundNe,
                        RoundNi, RoundPi, RoundZ,
                    ][opcode as usize - 12],
                )
            }
            30..=34 => {
                use self::IUnary::*;
                IUnary([Bfrev, Countbits, FirstbitLo, FirstbitHi, FirstbitSHi][opcode as usize - 30])
            }
            35..=40 => {
                use self::MinMax::*;
                MinMax([FMax, FMin, IMax, IMin, UMax, UMin][opcode as usize - 35])
            }
            41..=45 => {
                use self::TwoOut::*;
                TwoOut([IMul, UMul, UDiv, UAddc, USubb][opcode as usize - 41])
            }
            46 => FMad,
            47 => Fma,
            48 => IMad,
            49 => UMad,
            50 => Msad,
            51 => Ibfe,
            52 => Ubfe,
            53 => Bfi,
            54..=56 => Dot(opcode as u8 - 52),
            57 => CreateHandle(ResourceClass::Srv),
            58 => CBufferLoad,
            59 => CBufferLoadLegacy,
            60..=65 => {
                use SampleKind::*;
                Sample([Implicit, Bias, Level, Grad, Cmp, CmpLevelZero][opcode as usize - 60])
            }
            66 => TextureLoad,
            67 => TextureStore,
            68 => BufferLoad,
            69 => BufferStore,
            70 => BufferUpdateCounter,
            71 => CheckAccessFullyMapped,
            72 => GetDimensions,
            73 => TextureGather,
            74 => TextureGatherCmp,
            75 => Texture2DMSGetSamplePosition,
            76 => RenderTargetGetSamplePosition,
            77 => RenderTargetGetSampleCount,
            78 => AtomicBinOp(AtomicOp::Add),
            79 => AtomicCompareExchange,
            80 => Barrier { group_sync: false },
            81 => CalculateLod,
            82 => Discard,
            83..=86 => {
                use self::Deriv::*;
                Deriv([CoarseX, CoarseY, FineX, FineY][opcode as usize - 83])
            }
            87 => Eval(EvalKind::Snapped),
            88 => Eval(EvalKind::SampleIndex),
            89 => Eval(EvalKind::Centroid),
            90 => SysValue(self::SysValue::SampleIndex),
            91 => SysValue(self::SysValue::Coverage),
            93 => SysValue(self::SysValue::ThreadId),
            94 => SysValue(self::SysValue::GroupId),
            95 => SysValue(self::SysValue::ThreadIdInGroup),
            96 => SysValue(self::SysValue::FlattenedThreadIdInGroup),
            97 => EmitStream,
            98 => CutStream,
            99 => EmitThenCutStream,
            100 => SysValue(self::SysValue::GsInstanceId),
            101 => MakeDouble,
            102 => SplitDouble,
            103 => LoadOutputControlPoint,
            104 => LoadPatchConstant,
            105 => DomainLocation,
            106 => StorePatchConstant,
            107 => SysValue(self::SysValue::OutputControlPointId),
            108 => SysValue(self::SysValue::PrimitiveId),
            124..=129 => {
                use DxBitcast::*;
                Bitcast([I16ToF16, F16ToI16, I32ToF32, F32ToI32, I64ToF64, F64ToI64][opcode as usize - 124])
            }
            130..=134 => {
                use LegacyConv::*;
                Legacy([F32ToF16, F16ToF32, DoubleToFloat, DoubleToSInt32, DoubleToUInt32][opcode as usize - 130])
            }
            137 => AttributeAtVertex,
            138 => SysValue(self::SysValue::ViewId),
            139 => RawBufferLoad,
            140 => RawBufferStore,
            162 => Dot2AddHalf,
            163 => Dot4AddPacked { signed: true },
            164 => Dot4AddPacked { signed: false },
            219 => Unpack4x8 { signed: false },
            220 => Pack4x8(PackMode::Trunc),
            224 => SampleCmpLevel,
            254 => SampleCmpGrad,
            255 => SampleCmpBias,
            256 => SysValue(self::SysValue::StartVertexLocation),
            257 => SysValue(self::SysValue::StartInstanceLocation),
            244 => BarrierByMemoryType { group_sync: false },
            245 => BarrierByMemoryHandle { group_sync: false },
            _ => return None,
        })
    }

    /// The DXIL.rst opcode.
    pub fn opcode(self) -> u32 {
        use Dx::*;
        match self {
            LoadInput { .. } => 4,
            StoreOutput => 5,
            FUnary(u) => match u {
                self::FUnary::FAbs => 6,
                self::FUnary::Saturate => 7,
                u => 12 + u as u32 - self::FUnary::Cos as u32,
            },
            FClass(c) => 8 + c as u32,
            IUnary(u) => 30 + u as u32,
            MinMax(m) => 35 + m as u32,
            TwoOut(t) => 41 + t as u32,
            FMad => 46,
            Fma => 47,
            IMad => 48,
            UMad => 49,
            Msad => 50,
            Ibfe => 51,
            Ubfe => 52,
            Bfi => 53,
            Dot(n) => 52 + u32::from(n),
            CreateHandle(_) => 57,
            CBufferLoad => 58,
            CBufferLoadLegacy => 59,
            Sample(k) => 60 + k as u32,
            TextureLoad => 66,
            TextureStore => 67,
            BufferLoad => 68,
            BufferStore => 69,
            BufferUpdateCounter => 70,
            CheckAccessFullyMapped => 71,
            GetDimensions => 72,
            TextureGather => 73,
            TextureGatherCmp => 74,
            Texture2DMSGetSamplePosition => 75,
            RenderTargetGetSamplePosition => 76,
            RenderTargetGetSampleCount => 77,
            AtomicBinOp(_) => 78,
            AtomicCompareExchange => 79,
            Barrier { .. } => 80,
            CalculateLod => 81,
            Discard => 82,
            Deriv(d) => 83 + d as u32,
            Eval(e) => 87 + e as u32,
            SysValue(s) => s.opcode(),
            EmitStream => 97,
            CutStream => 98,
            EmitThenCutStream => 99,
            MakeDouble => 101,
            SplitDouble => 102,
            LoadOutputControlPoint => 103,
            LoadPatchConstant => 104,
            DomainLocation => 105,
            StorePatchConstant => 106,
            Bitcast(b) => 124 + b as u32,
            Legacy(l) => 130 + l as u32,
            AttributeAtVertex => 137,
            RawBufferLoad => 139,
            RawBufferStore => 140,
            Dot2AddHalf => 162,
            Dot4AddPacked { signed } => 164 - u32::from(signed),
            Unpack4x8 { .. } => 219,
            Pack4x8(_) => 220,
            RawBufferLoad16 { .. } | RawBufferLoad64 { .. } => 139,
            RawBufferStore16 { .. } | RawBufferStore64 { .. } => 140,
            SampleCmpLevel => 224,
            SampleCmpGrad => 254,
            SampleCmpBias => 255,
            BarrierByMemoryType { .. } => 244,
            BarrierByMemoryHandle { .. } => 245,
        }
    }

    /// The DXIL.rst name.
    pub fn name(self) -> &'static str {
        crate::dxil::ops::opcode_name(self.opcode()).unwrap_or("?")
    }
}

/// What an instruction does. Operands are the instruction's `args`, in the order each variant
/// documents; types are in the variant where the operation needs them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Op {
    /// `a op b` on scalars of the type.
    Binary(BinOp, Scalar),
    /// `a` from the first type to the second.
    Cast(CastOp, Scalar, Scalar),
    /// `a pred b` on operands of the type, giving an `i1`.
    Cmp(CmpPred, Scalar),
    /// cond, then, otherwise: any type.
    Select,
    /// The operand's slots as they are (pointer casts, bitcasts of aggregates).
    Copy,
    /// Slot `n` of an aggregate operand (`extractvalue`, `extractelement` by a constant).
    Extract(u32),
    /// agg, value: the aggregate with the value's slots at slot `n`.
    Insert(u32),
    /// vector, index: element `index` (one slot each), 0 past the end.
    ExtractDyn,
    /// vector, value, index: the vector with element `index` replaced (none past the end).
    InsertDyn,
    /// A fresh private allocation of `n` scalars (its pointer).
    Alloca(u32),
    /// The address of global `n` of the function's [`super::Function::globals`].
    Global(u32),
    /// base, indices...: the base pointer moved by `offset` scalars plus each index times its
    /// stride (`getelementptr`, with the type walk done by the lowering).
    PtrAdd {
        /// Scalars added whatever the indices.
        offset: i64,
        /// The stride (in scalars) of each index operand.
        strides: Box<[u32]>,
    },
    /// ptr: `n` scalars read.
    Load(u32),
    /// ptr, value: `n` scalars written.
    Store(u32),
    /// ptr, value: the old value.
    AtomicRmw(AtomicOp, Scalar),
    /// ptr, cmp, new: the old value and (`pair`) whether it matched.
    CmpXchg {
        /// The result is `{T, i1}`.
        pair: bool,
        /// The scalar type.
        ty: Scalar,
    },
    /// A dx.op call.
    Dx(Dx),
    /// A wave or quad intrinsic (dx.ops 110–123, 135, 136), its constant kind operands
    /// decoded into `op`; operands are the lane operands of [`WaveOp::lane_operands`] (the
    /// value, then the lane index of ReadLaneAt / QuadReadLaneAt), `ty` the value's type
    /// (`I32` for the operations without one). The result's type is [`WaveOp::result`] of
    /// `ty` (Ballot: four `I32`).
    Wave {
        /// The operation.
        op: WaveOp,
        /// The type of the value operand.
        ty: Scalar,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The IR has an operation for exactly the dx.ops the interpreter executes (wave and quad
    /// operations are [`Op::Wave`]), and each names its opcode back.
    #[test]
    fn dx_covers_the_executed_opcodes_and_round_trips() {
        let executes = |op| matches!(op, 4..=91 | 93..=108 | 124..=134 | 137..=140 | 162..=164 | 219 | 220 | 224 | 244 | 245 | 254..=257);
        for opcode in 0..=300u32 {
            let d = Dx::from_opcode(opcode);
            assert_eq!(d.is_some(), executes(opcode), "dx.op {opcode}");
            if let Some(d) = d {
                assert_eq!(d.opcode(), opcode, "{d:?}");
                assert_eq!(Some(d.name()), crate::dxil::ops::opcode_name(opcode));
            }
        }
    }

    #[test]
    fn integer_codes_map_both_ways() {
        for p in (0..=15).chain(32..=41) {
            assert_eq!(CmpPred::from_llvm(p).map(CmpPred::llvm), Some(p));
        }
        assert_eq!(CmpPred::from_llvm(16), None);
        assert_eq!(CmpPred::from_llvm(40), Some(CmpPred::ISlt));
        for op in 0..9 {
            assert_eq!(AtomicOp::from_dxil(op).and_then(AtomicOp::dxil), Some(op));
        }
        assert_eq!(AtomicOp::from_llvm(10), Some(AtomicOp::UMin));
        assert_eq!(AtomicOp::from_dxil(4), Some(AtomicOp::Min));
    }
}
