//! DXIL operations: calls to `dx.op.<class>.<overload>` functions whose first argument, an
//! `i32` constant, is the operation's opcode (DXIL.rst, "Operations via external
//! functions"; numbers and names from its opcode table).

use super::inst::{InstKind, Operand};
use super::module::{Function, Module, ValueKind};

/// Names of opcodes 0–225 (shader models 6.0–6.7), indexed by opcode, as DXIL.rst's opcode
/// table gives them.
const NAMES: [&str; 226] = [
    "TempRegLoad",
    "TempRegStore",
    "MinPrecXRegLoad",
    "MinPrecXRegStore",
    "LoadInput",
    "StoreOutput",
    "FAbs",
    "Saturate",
    "IsNaN",
    "IsInf",
    "IsFinite",
    "IsNormal",
    "Cos",
    "Sin",
    "Tan",
    "Acos",
    "Asin",
    "Atan",
    "Hcos",
    "Hsin",
    "Htan",
    "Exp",
    "Frc",
    "Log",
    "Sqrt",
    "Rsqrt",
    "Round_ne",
    "Round_ni",
    "Round_pi",
    "Round_z",
    "Bfrev",
    "Countbits",
    "FirstbitLo",
    "FirstbitHi",
    "FirstbitSHi",
    "FMax",
    "FMin",
    "IMax",
    "IMin",
    "UMax",
    "UMin",
    "IMul",
    "UMul",
    "UDiv",
    "UAddc",
    "USubb",
    "FMad",
    "Fma",
    "IMad",
    "UMad",
    "Msad",
    "Ibfe",
    "Ubfe",
    "Bfi",
    "Dot2",
    "Dot3",
    "Dot4",
    "CreateHandle",
    "CBufferLoad",
    "CBufferLoadLegacy",
    "Sample",
    "SampleBias",
    "SampleLevel",
    "SampleGrad",
    "SampleCmp",
    "SampleCmpLevelZero",
    "TextureLoad",
    "TextureStore",
    "BufferLoad",
    "BufferStore",
    "BufferUpdateCounter",
    "CheckAccessFullyMapped",
    "GetDimensions",
    "TextureGather",
    "TextureGatherCmp",
    "Texture2DMSGetSamplePosition",
    "RenderTargetGetSamplePosition",
    "RenderTargetGetSampleCount",
    "AtomicBinOp",
    "AtomicCompareExchange",
    "Barrier",
    "CalculateLOD",
    "Discard",
    "DerivCoarseX",
    "DerivCoarseY",
    "DerivFineX",
    "DerivFineY",
    "EvalSnapped",
    "EvalSampleIndex",
    "EvalCentroid",
    "SampleIndex",
    "Coverage",
    "InnerCoverage",
    "ThreadId",
    "GroupId",
    "ThreadIdInGroup",
    "FlattenedThreadIdInGroup",
    "EmitStream",
    "CutStream",
    "EmitThenCutStream",
    "GSInstanceID",
    "MakeDouble",
    "SplitDouble",
    "LoadOutputControlPoint",
    "LoadPatchConstant",
    "DomainLocation",
    "StorePatchConstant",
    "OutputControlPointID",
    "PrimitiveID",
    "CycleCounterLegacy",
    "WaveIsFirstLane",
    "WaveGetLaneIndex",
    "WaveGetLaneCount",
    "WaveAnyTrue",
    "WaveAllTrue",
    "WaveActiveAllEqual",
    "WaveActiveBallot",
    "WaveReadLaneAt",
    "WaveReadLaneFirst",
    "WaveActiveOp",
    "WaveActiveBit",
    "WavePrefixOp",
    "QuadReadLaneAt",
    "QuadOp",
    "BitcastI16toF16",
    "BitcastF16toI16",
    "BitcastI32toF32",
    "BitcastF32toI32",
    "BitcastI64toF64",
    "BitcastF64toI64",
    "LegacyF32ToF16",
    "LegacyF16ToF32",
    "LegacyDoubleToFloat",
    "LegacyDoubleToSInt32",
    "LegacyDoubleToUInt32",
    "WaveAllBitCount",
    "WavePrefixBitCount",
    "AttributeAtVertex",
    "ViewID",
    "RawBufferLoad",
    "RawBufferStore",
    "InstanceID",
    "InstanceIndex",
    "HitKind",
    "RayFlags",
    "DispatchRaysIndex",
    "DispatchRaysDimensions",
    "WorldRayOrigin",
    "WorldRayDirection",
    "ObjectRayOrigin",
    "ObjectRayDirection",
    "ObjectToWorld",
    "WorldToObject",
    "RayTMin",
    "RayTCurrent",
    "IgnoreHit",
    "AcceptHitAndEndSearch",
    "TraceRay",
    "ReportHit",
    "CallShader",
    "CreateHandleForLib",
    "PrimitiveIndex",
    "Dot2AddHalf",
    "Dot4AddI8Packed",
    "Dot4AddU8Packed",
    "WaveMatch",
    "WaveMultiPrefixOp",
    "WaveMultiPrefixBitCount",
    "SetMeshOutputCounts",
    "EmitIndices",
    "GetMeshPayload",
    "StoreVertexOutput",
    "StorePrimitiveOutput",
    "DispatchMesh",
    "WriteSamplerFeedback",
    "WriteSamplerFeedbackBias",
    "WriteSamplerFeedbackLevel",
    "WriteSamplerFeedbackGrad",
    "AllocateRayQuery",
    "RayQuery_TraceRayInline",
    "RayQuery_Proceed",
    "RayQuery_Abort",
    "RayQuery_CommitNonOpaqueTriangleHit",
    "RayQuery_CommitProceduralPrimitiveHit",
    "RayQuery_CommittedStatus",
    "RayQuery_CandidateType",
    "RayQuery_CandidateObjectToWorld3x4",
    "RayQuery_CandidateWorldToObject3x4",
    "RayQuery_CommittedObjectToWorld3x4",
    "RayQuery_CommittedWorldToObject3x4",
    "RayQuery_CandidateProceduralPrimitiveNonOpaque",
    "RayQuery_CandidateTriangleFrontFace",
    "RayQuery_CommittedTriangleFrontFace",
    "RayQuery_CandidateTriangleBarycentrics",
    "RayQuery_CommittedTriangleBarycentrics",
    "RayQuery_RayFlags",
    "RayQuery_WorldRayOrigin",
    "RayQuery_WorldRayDirection",
    "RayQuery_RayTMin",
    "RayQuery_CandidateTriangleRayT",
    "RayQuery_CommittedRayT",
    "RayQuery_CandidateInstanceIndex",
    "RayQuery_CandidateInstanceID",
    "RayQuery_CandidateGeometryIndex",
    "RayQuery_CandidatePrimitiveIndex",
    "RayQuery_CandidateObjectRayOrigin",
    "RayQuery_CandidateObjectRayDirection",
    "RayQuery_CommittedInstanceIndex",
    "RayQuery_CommittedInstanceID",
    "RayQuery_CommittedGeometryIndex",
    "RayQuery_CommittedPrimitiveIndex",
    "RayQuery_CommittedObjectRayOrigin",
    "RayQuery_CommittedObjectRayDirection",
    "GeometryIndex",
    "RayQuery_CandidateInstanceContributionToHitGroupIndex",
    "RayQuery_CommittedInstanceContributionToHitGroupIndex",
    "AnnotateHandle",
    "CreateHandleFromBinding",
    "CreateHandleFromHeap",
    "Unpack4x8",
    "Pack4x8",
    "IsHelperLane",
    "QuadVote",
    "TextureGatherRaw",
    "SampleCmpLevel",
    "TextureStoreSample",
];

/// Names of opcodes 238–257 (shader model 6.8: work graphs, barriers, SampleCmpGrad/Bias,
/// the start locations), from 238 on. 226–237 were the experimental wave-matrix operations,
/// which DXIL.rst lists as reserved.
const NAMES_6_8: [&str; 20] = [
    "AllocateNodeOutputRecords",
    "GetNodeRecordPtr",
    "IncrementOutputCount",
    "OutputComplete",
    "GetInputRecordCount",
    "FinishedCrossGroupSharing",
    "BarrierByMemoryType",
    "BarrierByMemoryHandle",
    "BarrierByNodeRecordHandle",
    "CreateNodeOutputHandle",
    "IndexNodeHandle",
    "AnnotateNodeHandle",
    "CreateNodeInputRecordHandle",
    "AnnotateNodeRecordHandle",
    "NodeOutputIsValid",
    "GetRemainingRecursionLevels",
    "SampleCmpGrad",
    "SampleCmpBias",
    "StartVertexLocation",
    "StartInstanceLocation",
];

/// A few opcodes by name, for readable dispatch and tests.
#[allow(missing_docs)]
pub mod opcode {
    pub const LOAD_INPUT: u32 = 4;
    pub const STORE_OUTPUT: u32 = 5;
    pub const COS: u32 = 12;
    pub const SIN: u32 = 13;
    pub const CREATE_HANDLE: u32 = 57;
    pub const CBUFFER_LOAD_LEGACY: u32 = 59;
    pub const SAMPLE: u32 = 60;
    pub const DISCARD: u32 = 82;
}

/// The DXIL.rst name of an opcode, or `None` for one this table does not know.
pub fn opcode_name(opcode: u32) -> Option<&'static str> {
    match opcode {
        238.. => NAMES_6_8.get(opcode as usize - 238).copied(),
        _ => NAMES.get(opcode as usize).copied(),
    }
}

/// A decoded `dx.op` call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DxOp<'m> {
    /// The opcode.
    pub opcode: u32,
    /// Its DXIL.rst name, `None` for an opcode the table does not know.
    pub name: Option<&'static str>,
    /// The function's name (`dx.op.loadInput.f32`).
    pub function: &'m str,
    /// The operands after the opcode.
    pub args: &'m [Operand],
}

impl Module {
    /// Decodes `inst` of `func` as a `dx.op` call: a call to a function named `dx.op.*`
    /// whose first argument is an integer constant.
    ///
    /// Guarantees: `Some` only for such calls; `name` is `None` when the opcode is outside
    /// the table, which an interpreter must treat as unsupported.
    pub fn dx_op<'m>(&'m self, func: &'m Function, inst: &'m InstKind) -> Option<DxOp<'m>> {
        let InstKind::Call { callee, args, .. } = inst else { return None };
        let ValueKind::Function(i) = self.value(Some(func), *callee)?.kind else { return None };
        let function = self.functions.get(i)?.name.as_str();
        if !function.starts_with("dx.op.") {
            return None;
        }
        let Some((Operand::Value(first), rest)) = args.split_first() else { return None };
        let opcode = u32::try_from(self.const_int(Some(func), *first)?).ok()?;
        Some(DxOp { opcode, name: opcode_name(opcode), function, args: rest })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opcode_numbers_match_dxil_rst() {
        assert_eq!(opcode_name(opcode::LOAD_INPUT), Some("LoadInput"));
        assert_eq!(opcode_name(opcode::STORE_OUTPUT), Some("StoreOutput"));
        assert_eq!(opcode_name(opcode::COS), Some("Cos"));
        assert_eq!(opcode_name(opcode::SIN), Some("Sin"));
        assert_eq!(opcode_name(opcode::CREATE_HANDLE), Some("CreateHandle"));
        assert_eq!(opcode_name(opcode::CBUFFER_LOAD_LEGACY), Some("CBufferLoadLegacy"));
        assert_eq!(opcode_name(opcode::SAMPLE), Some("Sample"));
        assert_eq!(opcode_name(opcode::DISCARD), Some("Discard"));
        assert_eq!(opcode_name(93), Some("ThreadId"));
        assert_eq!(opcode_name(126), Some("BitcastI32toF32"));
        assert_eq!(opcode_name(140), Some("RawBufferStore"));
        assert_eq!(opcode_name(141), Some("InstanceID"));
        assert_eq!(opcode_name(165), Some("WaveMatch"));
        assert_eq!(opcode_name(213), Some("GeometryIndex"));
        assert_eq!(opcode_name(225), Some("TextureStoreSample"));
        assert_eq!(opcode_name(226), None);
        assert_eq!(opcode_name(237), None);
        assert_eq!(opcode_name(238), Some("AllocateNodeOutputRecords"));
        assert_eq!(opcode_name(244), Some("BarrierByMemoryType"));
        assert_eq!(opcode_name(257), Some("StartInstanceLocation"));
        assert_eq!(opcode_name(258), None);
    }
}
