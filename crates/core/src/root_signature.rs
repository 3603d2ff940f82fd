//! Root signatures: an owned model of D3D12_ROOT_SIGNATURE_DESC (1.0), _DESC1 (1.1) and _DESC2
//! (1.2), their validation, the serialized blob (a DXBC container holding an `RTS0` part) and
//! the conversions between versions.
//!
//! One model serves every version: [`RootSignatureDesc::version`] says which fields exist.
//! Descriptor range flags and root descriptor flags exist from 1.1 on (they are 0 in a 1.0
//! desc), static sampler flags from 1.2 on.
//!
//! Sources: spec/descriptors-and-binding.md §7–§8; Microsoft Learn pages of
//! D3D12SerializeVersionedRootSignature, GetRootSignatureDescAtVersion, D3D12_DESCRIPTOR_RANGE(1),
//! D3D12_DESCRIPTOR_RANGE_FLAGS, D3D12_STATIC_SAMPLER_DESC and "Root Signature Limits"; the
//! validation rules of Microsoft's root signature validator (DirectXShaderCompiler); blobs
//! produced by Microsoft's compiler for the byte layout.
//!
//! The serialized layout (offsets relative to the RTS0 payload): a 24-byte header {Version,
//! NumParameters, ParametersOffset, NumStaticSamplers, StaticSamplersOffset, Flags}, the
//! parameter array (12 bytes each: type, visibility, payload offset), each parameter's payload
//! in order (a table's {NumRanges, RangesOffset} directly followed by its ranges), then the
//! static samplers. This is the order Microsoft's serializer writes.

use crate::dxbc;
use crate::error::{Hr, MessageId};
use rd3d12_sys as sys;
use std::fmt;

/// The fourcc of the root signature part of a DXBC container.
pub const RTS0: [u8; 4] = *b"RTS0";

/// D3D12_MAX_ROOT_COST: the most DWORDs a root signature may take.
pub const MAX_ROOT_COST: u64 = sys::D3D12_MAX_ROOT_COST as u64;
/// D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND: the range starts right after the previous one.
pub const OFFSET_APPEND: u32 = sys::D3D12_DESCRIPTOR_RANGE_OFFSET_APPEND;
/// NumDescriptors of an unbounded range.
pub const UNBOUNDED: u32 = u32::MAX;
/// The first register space reserved for drivers and the system (0xFFFFFFF0..=0xFFFFFFFF).
pub const RESERVED_SPACE_START: u32 = sys::D3D12_DRIVER_RESERVED_REGISTER_SPACE_VALUES_START;

/// Descriptor range types (D3D12_DESCRIPTOR_RANGE_TYPE).
pub mod range_type {
    /// SRV, `t` registers.
    pub const SRV: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_TYPE_SRV.0;
    /// UAV, `u` registers.
    pub const UAV: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_TYPE_UAV.0;
    /// CBV, `b` registers.
    pub const CBV: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_TYPE_CBV.0;
    /// Sampler, `s` registers.
    pub const SAMPLER: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_TYPE_SAMPLER.0;
}

/// Root parameter types (D3D12_ROOT_PARAMETER_TYPE).
pub mod parameter_type {
    /// A descriptor table.
    pub const DESCRIPTOR_TABLE: u32 = rd3d12_sys::D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE.0;
    /// Inline 32-bit constants.
    pub const CONSTANTS: u32 = rd3d12_sys::D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS.0;
    /// A root CBV.
    pub const CBV: u32 = rd3d12_sys::D3D12_ROOT_PARAMETER_TYPE_CBV.0;
    /// A root SRV.
    pub const SRV: u32 = rd3d12_sys::D3D12_ROOT_PARAMETER_TYPE_SRV.0;
    /// A root UAV.
    pub const UAV: u32 = rd3d12_sys::D3D12_ROOT_PARAMETER_TYPE_UAV.0;
}

/// Shader visibilities (D3D12_SHADER_VISIBILITY).
pub mod visibility {
    /// Every stage.
    pub const ALL: u32 = rd3d12_sys::D3D12_SHADER_VISIBILITY_ALL.0;
    /// The pixel shader.
    pub const PIXEL: u32 = rd3d12_sys::D3D12_SHADER_VISIBILITY_PIXEL.0;
    /// The largest value (MESH).
    pub const MAX: u32 = rd3d12_sys::D3D12_SHADER_VISIBILITY_MESH.0;
    /// Names for messages, indexed by value.
    pub const NAMES: [&str; 8] = ["ALL", "VERTEX", "HULL", "DOMAIN", "GEOMETRY", "PIXEL", "AMPLIFICATION", "MESH"];
}

/// D3D12_DESCRIPTOR_RANGE_FLAGS bits.
pub mod range_flags {
    /// DESCRIPTORS_VOLATILE.
    pub const DESCRIPTORS_VOLATILE: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_VOLATILE.0;
    /// DATA_VOLATILE.
    pub const DATA_VOLATILE: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_FLAG_DATA_VOLATILE.0;
    /// DATA_STATIC_WHILE_SET_AT_EXECUTE.
    pub const DATA_STATIC_WHILE_SET_AT_EXECUTE: u32 =
        rd3d12_sys::D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE.0;
    /// DATA_STATIC.
    pub const DATA_STATIC: u32 = rd3d12_sys::D3D12_DESCRIPTOR_RANGE_FLAG_DATA_STATIC.0;
    /// DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS.
    pub const DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS: u32 =
        rd3d12_sys::D3D12_DESCRIPTOR_RANGE_FLAG_DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS.0;
    /// The three DATA_* flags.
    pub const DATA_MASK: u32 = DATA_VOLATILE | DATA_STATIC_WHILE_SET_AT_EXECUTE | DATA_STATIC;
    /// Every defined bit.
    pub const VALID: u32 = DESCRIPTORS_VOLATILE | DATA_MASK | DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS;
}

/// D3D12_ROOT_DESCRIPTOR_FLAGS bits.
pub mod descriptor_flags {
    /// DATA_VOLATILE.
    pub const DATA_VOLATILE: u32 = rd3d12_sys::D3D12_ROOT_DESCRIPTOR_FLAG_DATA_VOLATILE.0;
    /// DATA_STATIC_WHILE_SET_AT_EXECUTE.
    pub const DATA_STATIC_WHILE_SET_AT_EXECUTE: u32 =
        rd3d12_sys::D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC_WHILE_SET_AT_EXECUTE.0;
    /// DATA_STATIC.
    pub const DATA_STATIC: u32 = rd3d12_sys::D3D12_ROOT_DESCRIPTOR_FLAG_DATA_STATIC.0;
    /// Every defined bit.
    pub const VALID: u32 = DATA_VOLATILE | DATA_STATIC_WHILE_SET_AT_EXECUTE | DATA_STATIC;
}

/// D3D12_SAMPLER_FLAGS bits valid in a 1.2 static sampler.
pub mod sampler_flags {
    /// UINT_BORDER_COLOR.
    pub const UINT_BORDER_COLOR: u32 = rd3d12_sys::D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0;
    /// NON_NORMALIZED_COORDINATES (defined by the same header release as root signature 1.2).
    pub const NON_NORMALIZED_COORDINATES: u32 = 0x2;
    /// Every defined bit.
    pub const VALID: u32 = UINT_BORDER_COLOR | NON_NORMALIZED_COORDINATES;
}

/// D3D12_ROOT_SIGNATURE_FLAGS bits (SDK 606).
pub mod flags {
    /// LOCAL_ROOT_SIGNATURE.
    pub const LOCAL_ROOT_SIGNATURE: u32 = rd3d12_sys::D3D12_ROOT_SIGNATURE_FLAG_LOCAL_ROOT_SIGNATURE.0;
    /// CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED.
    pub const CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED: u32 =
        rd3d12_sys::D3D12_ROOT_SIGNATURE_FLAG_CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED.0;
    /// SAMPLER_HEAP_DIRECTLY_INDEXED.
    pub const SAMPLER_HEAP_DIRECTLY_INDEXED: u32 =
        rd3d12_sys::D3D12_ROOT_SIGNATURE_FLAG_SAMPLER_HEAP_DIRECTLY_INDEXED.0;
    /// Every defined bit (0x1 through 0x800).
    pub const VALID: u32 = 0xfff;
}

/// A root signature version (D3D_ROOT_SIGNATURE_VERSION; also the RTS0 header's first word).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Version {
    /// 1.0: no range, descriptor or sampler flags.
    V1_0,
    /// 1.1: descriptor range flags and root descriptor flags.
    V1_1,
    /// 1.2: 1.1 plus static sampler flags.
    V1_2,
}

impl Version {
    /// Every version, oldest first.
    pub const ALL: [Version; 3] = [Version::V1_0, Version::V1_1, Version::V1_2];

    /// The version with this D3D_ROOT_SIGNATURE_VERSION value (1, 2, 3).
    pub const fn from_raw(v: u32) -> Option<Version> {
        match v {
            1 => Some(Version::V1_0),
            2 => Some(Version::V1_1),
            3 => Some(Version::V1_2),
            _ => None,
        }
    }

    /// The D3D_ROOT_SIGNATURE_VERSION value.
    pub const fn raw(self) -> u32 {
        match self {
            Version::V1_0 => 1,
            Version::V1_1 => 2,
            Version::V1_2 => 3,
        }
    }

    fn range_words(self) -> usize {
        if self == Version::V1_0 {
            5
        } else {
            6
        }
    }

    fn sampler_words(self) -> usize {
        if self == Version::V1_2 {
            14
        } else {
            13
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Version::V1_0 => "1.0",
            Version::V1_1 => "1.1",
            Version::V1_2 => "1.2",
        })
    }
}

/// D3D12_DESCRIPTOR_RANGE / D3D12_DESCRIPTOR_RANGE1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DescriptorRange {
    /// D3D12_DESCRIPTOR_RANGE_TYPE ([`range_type`]).
    pub range_type: u32,
    /// Descriptor count; [`UNBOUNDED`] for an unbounded range.
    pub num_descriptors: u32,
    /// First shader register.
    pub base_shader_register: u32,
    /// Register space.
    pub register_space: u32,
    /// D3D12_DESCRIPTOR_RANGE_FLAGS (1.1 and later; 0 in a 1.0 desc).
    pub flags: u32,
    /// Offset in descriptors from the table start, or [`OFFSET_APPEND`].
    pub offset_in_descriptors_from_table_start: u32,
}

impl DescriptorRange {
    /// The flags with the defaults of `version` made explicit: a 1.0 range behaves as
    /// DESCRIPTORS_VOLATILE | DATA_VOLATILE (a sampler range, which has no data, as
    /// DESCRIPTORS_VOLATILE); a 1.1 range without a DATA_* flag takes
    /// DATA_STATIC_WHILE_SET_AT_EXECUTE for SRV/CBV and DATA_VOLATILE for UAV.
    pub fn effective_flags(&self, version: Version) -> u32 {
        use range_flags::*;
        let sampler = self.range_type == range_type::SAMPLER;
        if version == Version::V1_0 {
            return if sampler { DESCRIPTORS_VOLATILE } else { DESCRIPTORS_VOLATILE | DATA_VOLATILE };
        }
        if sampler || self.flags & DATA_MASK != 0 {
            return self.flags;
        }
        let data = if self.range_type == range_type::UAV { DATA_VOLATILE } else { DATA_STATIC_WHILE_SET_AT_EXECUTE };
        self.flags | data
    }
}

/// D3D12_ROOT_CONSTANTS.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RootConstants {
    /// The `b` register.
    pub shader_register: u32,
    /// Register space.
    pub register_space: u32,
    /// Number of 32-bit values (the parameter's cost in DWORDs).
    pub num_32bit_values: u32,
}

/// D3D12_ROOT_DESCRIPTOR / D3D12_ROOT_DESCRIPTOR1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RootDescriptor {
    /// Shader register.
    pub shader_register: u32,
    /// Register space.
    pub register_space: u32,
    /// D3D12_ROOT_DESCRIPTOR_FLAGS (1.1 and later; 0 in a 1.0 desc).
    pub flags: u32,
}

/// A root parameter's type and payload.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ParameterKind {
    /// DESCRIPTOR_TABLE.
    Table(Vec<DescriptorRange>),
    /// 32BIT_CONSTANTS.
    Constants(RootConstants),
    /// A root CBV.
    Cbv(RootDescriptor),
    /// A root SRV.
    Srv(RootDescriptor),
    /// A root UAV.
    Uav(RootDescriptor),
}

impl ParameterKind {
    /// The D3D12_ROOT_PARAMETER_TYPE value.
    pub fn raw_type(&self) -> u32 {
        match self {
            ParameterKind::Table(_) => parameter_type::DESCRIPTOR_TABLE,
            ParameterKind::Constants(_) => parameter_type::CONSTANTS,
            ParameterKind::Cbv(_) => parameter_type::CBV,
            ParameterKind::Srv(_) => parameter_type::SRV,
            ParameterKind::Uav(_) => parameter_type::UAV,
        }
    }

    /// The cost in DWORDs: a table 1, constants one per value, a root descriptor 2.
    pub fn cost(&self) -> u64 {
        match self {
            ParameterKind::Table(_) => 1,
            ParameterKind::Constants(c) => c.num_32bit_values as u64,
            _ => 2,
        }
    }

    /// The root descriptor of a CBV/SRV/UAV parameter with its register type.
    pub fn root_descriptor(&self) -> Option<(u32, &RootDescriptor)> {
        match self {
            ParameterKind::Cbv(d) => Some((range_type::CBV, d)),
            ParameterKind::Srv(d) => Some((range_type::SRV, d)),
            ParameterKind::Uav(d) => Some((range_type::UAV, d)),
            _ => None,
        }
    }
}

/// D3D12_ROOT_PARAMETER / D3D12_ROOT_PARAMETER1.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct RootParameter {
    /// Type and payload.
    pub kind: ParameterKind,
    /// D3D12_SHADER_VISIBILITY.
    pub visibility: u32,
}

/// D3D12_STATIC_SAMPLER_DESC / D3D12_STATIC_SAMPLER_DESC1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StaticSampler {
    /// D3D12_FILTER.
    pub filter: u32,
    /// D3D12_TEXTURE_ADDRESS_MODE for U.
    pub address_u: u32,
    /// D3D12_TEXTURE_ADDRESS_MODE for V.
    pub address_v: u32,
    /// D3D12_TEXTURE_ADDRESS_MODE for W.
    pub address_w: u32,
    /// Mip LOD bias.
    pub mip_lod_bias: f32,
    /// Anisotropy clamp.
    pub max_anisotropy: u32,
    /// D3D12_COMPARISON_FUNC.
    pub comparison_func: u32,
    /// D3D12_STATIC_BORDER_COLOR.
    pub border_color: u32,
    /// Lowest mip level.
    pub min_lod: f32,
    /// Highest mip level.
    pub max_lod: f32,
    /// The `s` register.
    pub shader_register: u32,
    /// Register space.
    pub register_space: u32,
    /// D3D12_SHADER_VISIBILITY.
    pub visibility: u32,
    /// D3D12_SAMPLER_FLAGS (1.2 only; 0 before).
    pub flags: u32,
}

impl Default for StaticSampler {
    /// The defaults of the HLSL `StaticSampler(s0)` declaration: anisotropic ×16, WRAP,
    /// LESS_EQUAL, OPAQUE_WHITE, LOD 0..FLT_MAX.
    fn default() -> Self {
        StaticSampler {
            filter: sys::D3D12_FILTER_ANISOTROPIC.0,
            address_u: sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP.0,
            address_v: sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP.0,
            address_w: sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP.0,
            mip_lod_bias: 0.0,
            max_anisotropy: 16,
            comparison_func: sys::D3D12_COMPARISON_FUNC_LESS_EQUAL.0,
            border_color: sys::D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE.0,
            min_lod: 0.0,
            max_lod: f32::MAX,
            shader_register: 0,
            register_space: 0,
            visibility: visibility::ALL,
            flags: 0,
        }
    }
}

/// A root signature description of any version.
#[derive(Debug, Clone, PartialEq)]
pub struct RootSignatureDesc {
    /// Which fields are meaningful (and the RTS0 version written).
    pub version: Version,
    /// Root parameters in slot order.
    pub parameters: Vec<RootParameter>,
    /// Static samplers.
    pub static_samplers: Vec<StaticSampler>,
    /// D3D12_ROOT_SIGNATURE_FLAGS.
    pub flags: u32,
}

/// Why a root signature was refused: the HRESULT class, the debug-layer message ID and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootSignatureError {
    /// HRESULT class (E_INVALIDARG for every root signature rule; E_FAIL for a container without
    /// a root signature).
    pub hr: Hr,
    /// CREATE_ROOT_SIGNATURE_* message ID.
    pub id: MessageId,
    /// What is wrong, for the error blob and the debug layer.
    pub message: String,
}

impl RootSignatureError {
    fn with(id: sys::D3D12_MESSAGE_ID, message: impl Into<String>) -> Self {
        RootSignatureError { hr: Hr::InvalidArg, id: MessageId(id.0), message: message.into() }
    }

    /// A blob that cannot be parsed (CREATE_ROOT_SIGNATURE_DESERIALIZE_FAILED).
    pub fn malformed(message: impl Into<String>) -> Self {
        Self::with(sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_DESERIALIZE_FAILED, message)
    }

    /// A container without an RTS0 part (CREATE_ROOT_SIGNATURE_BLOB_NOT_FOUND): a well-formed
    /// container that simply holds no root signature is E_FAIL on Windows, not E_INVALIDARG.
    pub fn not_found(message: impl Into<String>) -> Self {
        RootSignatureError {
            hr: Hr::Fail,
            ..Self::with(sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_BLOB_NOT_FOUND, message)
        }
    }

    /// A description that breaks a rule (CREATE_ROOT_SIGNATURE_INVALID_CONFIGURATION).
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::with(sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_INVALID_CONFIGURATION, message)
    }

    /// A description the device cannot hold (CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE).
    pub fn unsupported(message: impl Into<String>) -> Self {
        Self::with(sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE, message)
    }

    /// The raw HRESULT.
    pub fn hresult(&self) -> i32 {
        self.hr.to_hresult()
    }
}

impl fmt::Display for RootSignatureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.id, self.message)
    }
}

impl std::error::Error for RootSignatureError {}

type Result<T> = std::result::Result<T, RootSignatureError>;

// ---- serialization ---------------------------------------------------------------------------

struct Writer(Vec<u8>);

impl Writer {
    fn put(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn pos(&self) -> u32 {
        self.0.len() as u32
    }
    fn patch(&mut self, at: usize, v: u32) {
        self.0[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }
}

impl RootSignatureDesc {
    /// An empty description (no parameters, no samplers, no flags) of `version`.
    pub fn new(version: Version) -> Self {
        RootSignatureDesc { version, parameters: Vec::new(), static_samplers: Vec::new(), flags: 0 }
    }

    /// The root signature's size in DWORDs ([`ParameterKind::cost`] summed).
    pub fn cost(&self) -> u64 {
        self.parameters.iter().map(|p| p.kind.cost()).sum()
    }

    /// The RTS0 part payload, in the version's layout, without validation.
    pub fn encode_rts0(&self) -> Vec<u8> {
        let v = self.version;
        let mut w = Writer(Vec::new());
        w.put(v.raw());
        w.put(self.parameters.len() as u32);
        w.put(24);
        w.put(self.static_samplers.len() as u32);
        w.put(0); // static sampler offset, patched below
        w.put(self.flags);
        for p in &self.parameters {
            w.put(p.kind.raw_type());
            w.put(p.visibility);
            w.put(0); // payload offset, patched below
        }
        for (i, p) in self.parameters.iter().enumerate() {
            let at = w.pos();
            w.patch(24 + 12 * i + 8, at);
            match &p.kind {
                ParameterKind::Table(ranges) => {
                    w.put(ranges.len() as u32);
                    w.put(at + 8);
                    for r in ranges {
                        w.put(r.range_type);
                        w.put(r.num_descriptors);
                        w.put(r.base_shader_register);
                        w.put(r.register_space);
                        if v != Version::V1_0 {
                            w.put(r.flags);
                        }
                        w.put(r.offset_in_descriptors_from_table_start);
                    }
                }
                ParameterKind::Constants(c) => {
                    w.put(c.shader_register);
                    w.put(c.register_space);
                    w.put(c.num_32bit_values);
                }
                ParameterKind::Cbv(d) | ParameterKind::Srv(d) | ParameterKind::Uav(d) => {
                    w.put(d.shader_register);
                    w.put(d.register_space);
                    if v != Version::V1_0 {
                        w.put(d.flags);
                    }
                }
            }
        }
        let samplers_at = w.pos();
        w.patch(16, samplers_at);
        for s in &self.static_samplers {
            for word in [
                s.filter,
                s.address_u,
                s.address_v,
                s.address_w,
                s.mip_lod_bias.to_bits(),
                s.max_anisotropy,
                s.comparison_func,
                s.border_color,
                s.min_lod.to_bits(),
                s.max_lod.to_bits(),
                s.shader_register,
                s.register_space,
                s.visibility,
            ] {
                w.put(word);
            }
            if v == Version::V1_2 {
                w.put(s.flags);
            }
        }
        w.0
    }

    /// The serialized blob (a DXBC container with one RTS0 part), without validation.
    pub fn encode(&self) -> Vec<u8> {
        dxbc::build(&[(RTS0, &self.encode_rts0())])
    }

    /// D3D12SerializeVersionedRootSignature: validates, then encodes.
    pub fn serialize(&self) -> Result<Vec<u8>> {
        self.validate()?;
        Ok(self.encode())
    }
}

// ---- deserialization -------------------------------------------------------------------------

struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn u32(&self, at: u64, what: &str) -> Result<u32> {
        let at = usize::try_from(at).ok();
        at.and_then(|a| self.0.get(a..a.checked_add(4)?))
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| RootSignatureError::malformed(format!("RTS0: {what} lies outside the part")))
    }

    /// Checks that `count` records of `words` u32 each fit at `at`; returns the start.
    fn array(&self, at: u32, count: u32, words: usize, what: &str) -> Result<u64> {
        let end = at as u64 + count as u64 * words as u64 * 4;
        if end > self.0.len() as u64 {
            return Err(RootSignatureError::malformed(format!(
                "RTS0: {count} {what} at offset {at} exceed the part's {} bytes",
                self.0.len()
            )));
        }
        Ok(at as u64)
    }
}

impl RootSignatureDesc {
    /// Parses an RTS0 part payload. Only the structure is checked (offsets, counts, version,
    /// parameter types); [`RootSignatureDesc::validate`] checks the rules.
    pub fn decode_rts0(payload: &[u8]) -> Result<Self> {
        let r = Reader(payload);
        let raw_version = r.u32(0, "the header")?;
        let version = Version::from_raw(raw_version)
            .ok_or_else(|| RootSignatureError::malformed(format!("RTS0: unknown version {raw_version:#x}")))?;
        let (num_params, params_at) = (r.u32(4, "the header")?, r.u32(8, "the header")?);
        let (num_samplers, samplers_at) = (r.u32(12, "the header")?, r.u32(16, "the header")?);
        let flags = r.u32(20, "the header")?;

        let base = r.array(params_at, num_params, 3, "root parameters")?;
        let mut parameters = Vec::with_capacity(num_params as usize);
        for i in 0..num_params as u64 {
            let at = base + 12 * i;
            let (ty, vis, off) =
                (r.u32(at, "a parameter")?, r.u32(at + 4, "a parameter")?, r.u32(at + 8, "a parameter")?);
            let off = off as u64;
            let what = "a root parameter's payload";
            let descriptor = |r: &Reader| -> Result<RootDescriptor> {
                Ok(RootDescriptor {
                    shader_register: r.u32(off, what)?,
                    register_space: r.u32(off + 4, what)?,
                    flags: if version == Version::V1_0 { 0 } else { r.u32(off + 8, what)? },
                })
            };
            let kind = match ty {
                parameter_type::DESCRIPTOR_TABLE => {
                    let (n, at) = (r.u32(off, what)?, r.u32(off + 4, what)?);
                    let words = version.range_words();
                    let start = r.array(at, n, words, "descriptor ranges")?;
                    let ranges = (0..n as u64)
                        .map(|j| {
                            let w = |k: u64| r.u32(start + (j * words as u64 + k) * 4, "a range");
                            Ok(if version == Version::V1_0 {
                                DescriptorRange {
                                    range_type: w(0)?,
                                    num_descriptors: w(1)?,
                                    base_shader_register: w(2)?,
                                    register_space: w(3)?,
                                    flags: 0,
                                    offset_in_descriptors_from_table_start: w(4)?,
                                }
                            } else {
                                DescriptorRange {
                                    range_type: w(0)?,
                                    num_descriptors: w(1)?,
                                    base_shader_register: w(2)?,
                                    register_space: w(3)?,
                                    flags: w(4)?,
                                    offset_in_descriptors_from_table_start: w(5)?,
                                }
                            })
                        })
                        .collect::<Result<Vec<_>>>()?;
                    ParameterKind::Table(ranges)
                }
                parameter_type::CONSTANTS => ParameterKind::Constants(RootConstants {
                    shader_register: r.u32(off, what)?,
                    register_space: r.u32(off + 4, what)?,
                    num_32bit_values: r.u32(off + 8, what)?,
                }),
                parameter_type::CBV => ParameterKind::Cbv(descriptor(&r)?),
                parameter_type::SRV => ParameterKind::Srv(descriptor(&r)?),
                parameter_type::UAV => ParameterKind::Uav(descriptor(&r)?),
                other => {
                    return Err(RootSignatureError::malformed(format!(
                        "RTS0: root parameter [{i}] has unknown type {other:#x}"
                    )))
                }
            };
            parameters.push(RootParameter { kind, visibility: vis });
        }

        let words = version.sampler_words();
        let start = r.array(samplers_at, num_samplers, words, "static samplers")?;
        let mut static_samplers = Vec::with_capacity(num_samplers as usize);
        for k in 0..num_samplers as u64 {
            let w = |n: u64| r.u32(start + (k * words as u64 + n) * 4, "a static sampler");
            static_samplers.push(StaticSampler {
                filter: w(0)?,
                address_u: w(1)?,
                address_v: w(2)?,
                address_w: w(3)?,
                mip_lod_bias: f32::from_bits(w(4)?),
                max_anisotropy: w(5)?,
                comparison_func: w(6)?,
                border_color: w(7)?,
                min_lod: f32::from_bits(w(8)?),
                max_lod: f32::from_bits(w(9)?),
                shader_register: w(10)?,
                register_space: w(11)?,
                visibility: w(12)?,
                flags: if version == Version::V1_2 { w(13)? } else { 0 },
            });
        }
        Ok(RootSignatureDesc { version, parameters, static_samplers, flags })
    }

    /// Parses a serialized root signature: a DXBC container (with a valid checksum) holding an
    /// RTS0 part, alone or next to shader parts. Structure only, like [`Self::decode_rts0`].
    pub fn deserialize(blob: &[u8]) -> Result<Self> {
        let c = dxbc::Container::parse(blob).map_err(|e| RootSignatureError::malformed(e.to_string()))?;
        let part = c
            .part(RTS0)
            .ok_or_else(|| RootSignatureError::not_found("the container has no RTS0 (root signature) part"))?;
        Self::decode_rts0(part)
    }
}

// ---- version conversion ----------------------------------------------------------------------

impl RootSignatureDesc {
    /// GetRootSignatureDescAtVersion's conversion.
    ///
    /// * Up from 1.0, the flags spell out 1.0's semantics: ranges DESCRIPTORS_VOLATILE |
    ///   DATA_VOLATILE (sampler ranges, which have no data, DESCRIPTORS_VOLATILE), root
    ///   descriptors DATA_VOLATILE.
    /// * Down to 1.0, range and root descriptor flags are dropped (Microsoft documents this for
    ///   1.1 → 1.0; a 1.1 desc with any flags converts).
    /// * Down from 1.2, static sampler flags are dropped when they are UINT_BORDER_COLOR only
    ///   (the border colour enum already names UINT colours); any other sampler flag cannot be
    ///   expressed and the conversion fails.
    pub fn convert(&self, to: Version) -> Result<Self> {
        let mut out = self.clone();
        out.version = to;
        if to == self.version {
            return Ok(out);
        }
        if to < Version::V1_2 {
            for (k, s) in out.static_samplers.iter_mut().enumerate() {
                if s.flags & !sampler_flags::UINT_BORDER_COLOR != 0 {
                    return Err(RootSignatureError::invalid(format!(
                        "static sampler [{k}] has flags {:#x} that root signature {to} cannot express",
                        s.flags
                    )));
                }
                s.flags = 0;
            }
        }
        let from_1_0 = self.version == Version::V1_0;
        for p in &mut out.parameters {
            match &mut p.kind {
                ParameterKind::Table(ranges) => {
                    for r in ranges {
                        r.flags = match (from_1_0, to) {
                            (_, Version::V1_0) => 0,
                            (true, _) => r.effective_flags(Version::V1_0),
                            (false, _) => r.flags,
                        };
                    }
                }
                ParameterKind::Cbv(d) | ParameterKind::Srv(d) | ParameterKind::Uav(d) => {
                    d.flags = match (from_1_0, to) {
                        (_, Version::V1_0) => 0,
                        (true, _) => descriptor_flags::DATA_VOLATILE,
                        (false, _) => d.flags,
                    };
                }
                ParameterKind::Constants(_) => {}
            }
        }
        Ok(out)
    }
}

// ---- validation ------------------------------------------------------------------------------

/// What declared a register interval, for messages.
#[derive(Debug, Clone, Copy)]
enum Origin {
    Range { param: usize, slot: usize },
    Root { param: usize },
    Sampler { index: usize },
}

#[derive(Debug, Clone, Copy)]
struct Interval {
    class: u32,
    space: u32,
    lb: u32,
    ub: u32,
    vis: u32,
    origin: Origin,
}

fn range_type_name(t: u32) -> &'static str {
    match t {
        range_type::SRV => "SRV",
        range_type::UAV => "UAV",
        range_type::CBV => "CBV",
        range_type::SAMPLER => "SAMPLER",
        _ => "unknown",
    }
}

fn vis_name(v: u32) -> &'static str {
    visibility::NAMES.get(v as usize).copied().unwrap_or("unknown")
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.origin {
            Origin::Range { param, slot } => write!(f, "root parameter [{param}], descriptor table slot [{slot}]")?,
            Origin::Root { param } => write!(f, "root parameter [{param}]")?,
            Origin::Sampler { index } => write!(f, "static sampler [{index}]")?,
        }
        write!(f, ", visibility {}, registers {}..={}", vis_name(self.vis), self.lb, self.ub)
    }
}

/// Finds two register intervals of the same class and space that overlap and are visible to a
/// common stage (equal visibilities, or one of them ALL). Sorting by lower bound makes it a
/// single sweep: an interval overlaps an earlier one exactly when some earlier upper bound of a
/// conflicting visibility reaches its lower bound.
fn find_overlap(mut intervals: Vec<Interval>) -> Option<(Interval, Interval)> {
    intervals.sort_by_key(|i| (i.class, i.space, i.lb));
    let mut reach: [Option<Interval>; 8] = [None; 8];
    let mut group = None;
    for i in intervals {
        if group != Some((i.class, i.space)) {
            group = Some((i.class, i.space));
            reach = [None; 8];
        }
        let conflicting: &[u32] = if i.vis == visibility::ALL { &[0, 1, 2, 3, 4, 5, 6, 7] } else { &[i.vis, 0] };
        for &v in conflicting {
            if let Some(prev) = reach[v as usize] {
                if prev.ub >= i.lb {
                    return Some((i, prev));
                }
            }
        }
        let slot = &mut reach[i.vis as usize];
        if slot.is_none_or(|p| p.ub < i.ub) {
            *slot = Some(i);
        }
    }
    None
}

fn check_space(space: u32, what: impl FnOnce() -> String) -> Result<()> {
    if space >= RESERVED_SPACE_START {
        return Err(RootSignatureError::invalid(format!(
            "{} uses RegisterSpace {space:#x}; spaces {RESERVED_SPACE_START:#x}..=0xffffffff are reserved for the system",
            what()
        )));
    }
    Ok(())
}

/// D3D12_FILTER values of SDK 606: the point/linear combinations of min, mag and mip (bits 4, 2,
/// 0) or ANISOTROPIC (0x55), with a reduction type in bits 7–8. Returns whether it compares.
fn filter_is_comparison(filter: u32) -> Option<bool> {
    let reduction = filter >> 7;
    let base = filter & 0x7f;
    let known = matches!(base, 0x00 | 0x01 | 0x04 | 0x05 | 0x10 | 0x11 | 0x14 | 0x15 | 0x55);
    (known && reduction <= 3).then_some(reduction == 1)
}

fn validate_sampler(k: usize, s: &StaticSampler, version: Version) -> Result<()> {
    let bad = |what: String| Err(RootSignatureError::invalid(format!("static sampler [{k}]: {what}")));
    if s.visibility > visibility::MAX {
        return bad(format!("unknown ShaderVisibility {}", s.visibility));
    }
    let Some(comparison) = filter_is_comparison(s.filter) else {
        return bad(format!("unknown Filter {:#x}", s.filter));
    };
    let address_ok =
        |m: u32| (sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP.0..=sys::D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE.0).contains(&m);
    for (name, m) in [("AddressU", s.address_u), ("AddressV", s.address_v), ("AddressW", s.address_w)] {
        if !address_ok(m) {
            return bad(format!("unknown {name} {m}"));
        }
    }
    let (lo, hi) = (sys::D3D12_MIP_LOD_BIAS_MIN as f32, sys::D3D12_MIP_LOD_BIAS_MAX as f32);
    if !(lo..=hi).contains(&s.mip_lod_bias) {
        return bad(format!("MipLODBias {} is outside [{lo}, {hi}]", s.mip_lod_bias));
    }
    if s.max_anisotropy > sys::D3D12_MAX_MAXANISOTROPY {
        return bad(format!("MaxAnisotropy {} is above {}", s.max_anisotropy, sys::D3D12_MAX_MAXANISOTROPY));
    }
    let func_ok =
        (sys::D3D12_COMPARISON_FUNC_NEVER.0..=sys::D3D12_COMPARISON_FUNC_ALWAYS.0).contains(&s.comparison_func);
    if comparison && !func_ok {
        return bad(format!("a comparison filter needs a ComparisonFunc, got {}", s.comparison_func));
    }
    if s.min_lod.is_nan() || s.max_lod.is_nan() {
        return bad("MinLOD and MaxLOD must not be NaN".into());
    }
    if version < Version::V1_2 && s.flags != 0 {
        return bad(format!("Flags {:#x} need root signature 1.2", s.flags));
    }
    if s.flags & !sampler_flags::VALID != 0 {
        return bad(format!("unknown Flags bits {:#x}", s.flags & !sampler_flags::VALID));
    }
    check_space(s.register_space, || format!("static sampler [{k}]"))
}

fn validate_range_flags(i: usize, j: usize, r: &DescriptorRange, version: Version) -> Result<()> {
    use range_flags::*;
    let bad = |what: String| {
        Err(RootSignatureError::invalid(format!("root parameter [{i}], descriptor table slot [{j}]: {what}")))
    };
    if version == Version::V1_0 {
        return if r.flags != 0 { bad(format!("Flags {:#x} need root signature 1.1", r.flags)) } else { Ok(()) };
    }
    if r.flags & !VALID != 0 {
        return bad(format!("unknown descriptor range flag bits {:#x}", r.flags & !VALID));
    }
    if r.range_type == range_type::SAMPLER {
        if r.flags & DATA_MASK != 0 {
            return bad(format!(
                "sampler ranges take no DATA_* flags (there is no data behind a sampler), got {:#x}",
                r.flags
            ));
        }
        return Ok(());
    }
    if (r.flags & DATA_MASK).count_ones() > 1 {
        return bad(format!("at most one DATA_* flag may be set, got {:#x}", r.flags));
    }
    if r.flags & DATA_STATIC != 0 && r.flags & DESCRIPTORS_VOLATILE != 0 {
        return bad("DESCRIPTORS_VOLATILE cannot be combined with DATA_STATIC".into());
    }
    Ok(())
}

fn validate_table(
    i: usize,
    ranges: &[DescriptorRange],
    version: Version,
    vis: u32,
    out: &mut Vec<Interval>,
) -> Result<()> {
    let bad = |j: usize, what: String| {
        Err(RootSignatureError::invalid(format!("root parameter [{i}], descriptor table slot [{j}]: {what}")))
    };
    let (mut samplers, mut views) = (false, false);
    let mut append_at: u64 = 0;
    for (j, r) in ranges.iter().enumerate() {
        match r.range_type {
            range_type::SRV | range_type::UAV | range_type::CBV => views = true,
            range_type::SAMPLER => samplers = true,
            other => return bad(j, format!("unknown RangeType {other}")),
        }
        if samplers && views {
            return Err(RootSignatureError::invalid(format!(
                "root parameter [{i}]: a descriptor table cannot mix sampler ranges with CBV/SRV/UAV ranges"
            )));
        }
        if r.num_descriptors == 0 {
            return bad(j, "NumDescriptors is 0".into());
        }
        let start = match r.offset_in_descriptors_from_table_start {
            OFFSET_APPEND => append_at,
            explicit => explicit as u64,
        };
        if start > u32::MAX as u64 {
            return bad(j, "a range with OFFSET_APPEND cannot follow an unbounded range".into());
        }
        if r.num_descriptors == UNBOUNDED {
            append_at = 1 << 32;
        } else {
            let n = r.num_descriptors as u64;
            if r.base_shader_register as u64 + n - 1 > u32::MAX as u64 {
                return bad(j, format!("BaseShaderRegister {} + NumDescriptors {n} overflows", r.base_shader_register));
            }
            if start + n - 1 > u32::MAX as u64 {
                return bad(j, format!("descriptor offset {start} + NumDescriptors {n} overflows"));
            }
            append_at = start + n;
        }
        validate_range_flags(i, j, r, version)?;
        check_space(r.register_space, || format!("root parameter [{i}], descriptor table slot [{j}]"))?;
        let ub =
            if r.num_descriptors == UNBOUNDED { u32::MAX } else { r.base_shader_register + (r.num_descriptors - 1) };
        out.push(Interval {
            class: r.range_type,
            space: r.register_space,
            lb: r.base_shader_register,
            ub,
            vis,
            origin: Origin::Range { param: i, slot: j },
        });
    }
    Ok(())
}

impl RootSignatureDesc {
    /// Checks every rule a root signature must follow on any device: known flags and enum
    /// values, flags allowed by the version, the 64-DWORD cost, descriptor table rules (no
    /// empty range, no sampler/view mix, APPEND after unbounded, overflows), static sampler
    /// fields, reserved register spaces, and no two bindings of one register type overlapping
    /// in a register space for a common shader stage.
    pub fn validate(&self) -> Result<()> {
        let v = self.version;
        if self.flags & !flags::VALID != 0 {
            return Err(RootSignatureError::invalid(format!(
                "unknown root signature flag bits {:#x}",
                self.flags & !flags::VALID
            )));
        }
        let mut intervals = Vec::new();
        for (i, p) in self.parameters.iter().enumerate() {
            if p.visibility > visibility::MAX {
                return Err(RootSignatureError::invalid(format!(
                    "root parameter [{i}]: unknown ShaderVisibility {}",
                    p.visibility
                )));
            }
            match &p.kind {
                ParameterKind::Table(ranges) => validate_table(i, ranges, v, p.visibility, &mut intervals)?,
                ParameterKind::Constants(c) => {
                    check_space(c.register_space, || format!("root parameter [{i}]"))?;
                    intervals.push(Interval {
                        class: range_type::CBV,
                        space: c.register_space,
                        lb: c.shader_register,
                        ub: c.shader_register,
                        vis: p.visibility,
                        origin: Origin::Root { param: i },
                    });
                }
                ParameterKind::Cbv(d) | ParameterKind::Srv(d) | ParameterKind::Uav(d) => {
                    let bad = |what: String| Err(RootSignatureError::invalid(format!("root parameter [{i}]: {what}")));
                    if v == Version::V1_0 && d.flags != 0 {
                        return bad(format!("Flags {:#x} need root signature 1.1", d.flags));
                    }
                    if d.flags & !descriptor_flags::VALID != 0 {
                        return bad(format!(
                            "unknown root descriptor flag bits {:#x}",
                            d.flags & !descriptor_flags::VALID
                        ));
                    }
                    if d.flags.count_ones() > 1 {
                        return bad(format!("at most one DATA_* flag may be set, got {:#x}", d.flags));
                    }
                    check_space(d.register_space, || format!("root parameter [{i}]"))?;
                    let (class, _) = p.kind.root_descriptor().expect("a root descriptor");
                    intervals.push(Interval {
                        class,
                        space: d.register_space,
                        lb: d.shader_register,
                        ub: d.shader_register,
                        vis: p.visibility,
                        origin: Origin::Root { param: i },
                    });
                }
            }
        }
        let cost = self.cost();
        if cost > MAX_ROOT_COST {
            return Err(RootSignatureError::invalid(format!(
                "the root signature costs {cost} DWORDs, above the maximum of {MAX_ROOT_COST} (a descriptor table \
                 costs 1, a root CBV/SRV/UAV 2, root constants 1 per 32-bit value)"
            )));
        }
        for (k, s) in self.static_samplers.iter().enumerate() {
            validate_sampler(k, s, v)?;
            intervals.push(Interval {
                class: range_type::SAMPLER,
                space: s.register_space,
                lb: s.shader_register,
                ub: s.shader_register,
                vis: s.visibility,
                origin: Origin::Sampler { index: k },
            });
        }
        if let Some((a, b)) = find_overlap(intervals) {
            return Err(RootSignatureError::invalid(format!(
                "{} register range ({a}) overlaps another {} register range ({b}) in register space {}",
                range_type_name(a.class),
                range_type_name(b.class),
                a.space
            )));
        }
        Ok(())
    }
}

// ---- what a device supports ------------------------------------------------------------------

/// What the creating device supports, for [`RootSignatureDesc::check_device`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeviceLimits {
    /// The highest root signature version (FEATURE_ROOT_SIGNATURE).
    pub max_version: Version,
    /// D3D12_RESOURCE_BINDING_TIER (1..=3).
    pub binding_tier: u32,
    /// D3D_FEATURE_LEVEL of the device.
    pub feature_level: u32,
    /// Whether raytracing is supported (local root signatures need it).
    pub raytracing: bool,
}

/// The most descriptors of one type that descriptor tables may expose to one stage on a
/// binding tier (spec §6), or `None` when the whole heap may be used (unbounded ranges allowed).
fn tier_limit(tier: u32, ty: u32, feature_level: u32) -> Option<u64> {
    let uav_tier1 = if feature_level >= sys::D3D_FEATURE_LEVEL_11_1.0 { 64 } else { 8 };
    match (tier, ty) {
        (1, range_type::CBV) | (2, range_type::CBV) => Some(14),
        (1, range_type::SRV) => Some(128),
        (1, range_type::UAV) => Some(uav_tier1),
        (2, range_type::UAV) => Some(64),
        (1, range_type::SAMPLER) => Some(16),
        _ => None,
    }
}

/// Whether an unbounded range of `ty` is allowed on `tier`: tier 1 none, tier 2 SRVs and
/// samplers (the 2048-sampler heap bounds them), tier 3 every type.
fn unbounded_allowed(tier: u32, ty: u32) -> bool {
    match tier {
        1 => false,
        2 => ty == range_type::SRV || ty == range_type::SAMPLER,
        _ => true,
    }
}

impl RootSignatureDesc {
    /// CreateRootSignature's checks against the device (CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE):
    /// the version, local root signatures without raytracing, directly indexed heaps below
    /// binding tier 3, more static samplers than a device holds, and the binding tier's limits
    /// on descriptor tables (unbounded ranges; descriptors per stage, UAVs across all stages).
    pub fn check_device(&self, limits: &DeviceLimits) -> Result<()> {
        let no = |what: String| Err(RootSignatureError::unsupported(what));
        if self.version > limits.max_version {
            return no(format!("root signature {} is above the device's {}", self.version, limits.max_version));
        }
        if self.flags & flags::LOCAL_ROOT_SIGNATURE != 0 && !limits.raytracing {
            return no("LOCAL_ROOT_SIGNATURE needs a device that supports raytracing".into());
        }
        let direct = flags::CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED | flags::SAMPLER_HEAP_DIRECTLY_INDEXED;
        if self.flags & direct != 0 && limits.binding_tier < 3 {
            return no(format!(
                "directly indexed descriptor heaps need resource binding tier 3, the device has tier {}",
                limits.binding_tier
            ));
        }
        if self.static_samplers.len() as u64 > sys::D3D12_MAX_LIVE_STATIC_SAMPLERS as u64 {
            return no(format!(
                "{} static samplers exceed the {} a device can hold",
                self.static_samplers.len(),
                sys::D3D12_MAX_LIVE_STATIC_SAMPLERS
            ));
        }
        // Bounded descriptors per stage (1..=7) and type; UAVs also across all stages.
        let mut per_stage = [[0u64; 4]; 8];
        let mut uavs_all = 0u64;
        for (i, p) in self.parameters.iter().enumerate() {
            let ParameterKind::Table(ranges) = &p.kind else { continue };
            for (j, r) in ranges.iter().enumerate() {
                let ty = r.range_type.min(3);
                if r.num_descriptors == UNBOUNDED {
                    if !unbounded_allowed(limits.binding_tier, ty) {
                        return no(format!(
                            "root parameter [{i}], descriptor table slot [{j}]: an unbounded {} range needs a higher \
                             resource binding tier than the device's tier {}",
                            range_type_name(ty),
                            limits.binding_tier
                        ));
                    }
                    continue;
                }
                for (stage, counts) in per_stage.iter_mut().enumerate().skip(1) {
                    if p.visibility == visibility::ALL || p.visibility == stage as u32 {
                        counts[ty as usize] += r.num_descriptors as u64;
                    }
                }
                if ty == range_type::UAV {
                    uavs_all += r.num_descriptors as u64;
                }
            }
        }
        for ty in [range_type::SRV, range_type::UAV, range_type::CBV, range_type::SAMPLER] {
            let Some(limit) = tier_limit(limits.binding_tier, ty, limits.feature_level) else { continue };
            let (stage, most) = (1..8).map(|s| (s, per_stage[s][ty as usize])).max_by_key(|&(_, n)| n).unwrap();
            if most > limit {
                return no(format!(
                    "descriptor tables expose {most} {}s to the {} stage, above resource binding tier {}'s {limit}",
                    range_type_name(ty),
                    vis_name(stage as u32),
                    limits.binding_tier
                ));
            }
            if ty == range_type::UAV && uavs_all > limit {
                return no(format!(
                    "descriptor tables hold {uavs_all} UAVs across all stages, above resource binding tier {}'s {limit}",
                    limits.binding_tier
                ));
            }
        }
        Ok(())
    }

    /// The descriptor offset of each range of a table from the table start, with
    /// [`OFFSET_APPEND`] resolved (valid tables only).
    pub fn table_offsets(ranges: &[DescriptorRange]) -> Vec<u32> {
        let mut next: u64 = 0;
        ranges
            .iter()
            .map(|r| {
                let start = match r.offset_in_descriptors_from_table_start {
                    OFFSET_APPEND => next,
                    o => o as u64,
                };
                next = if r.num_descriptors == UNBOUNDED { 1 << 32 } else { start + r.num_descriptors as u64 };
                start.min(u32::MAX as u64) as u32
            })
            .collect()
    }

    /// The DWORD offset of each root parameter's argument in the root argument buffer (its
    /// running cost), as SetGraphicsRoot* and command signatures address them.
    pub fn argument_offsets(&self) -> Vec<u32> {
        let mut at = 0u64;
        self.parameters
            .iter()
            .map(|p| {
                let here = at;
                at += p.kind.cost();
                here.min(u32::MAX as u64) as u32
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;

// ---- binding: what SetGraphicsRoot* / SetComputeRoot* may set --------------------------------

/// The shape of one root parameter, as the binding methods of a command list check it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSlot {
    /// A descriptor table; `sampler` when its ranges are sampler ranges (bound from the
    /// sampler heap), otherwise from the CBV/SRV/UAV heap.
    Table {
        /// Sampler ranges.
        sampler: bool,
    },
    /// Root constants: the number of 32-bit values.
    Constants(u32),
    /// A root CBV.
    Cbv,
    /// A root SRV.
    Srv,
    /// A root UAV.
    Uav,
}

/// One SetGraphicsRoot* / SetComputeRoot* call, without its payload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootSet {
    /// SetRootDescriptorTable.
    Table,
    /// SetRoot32BitConstant(s): `count` values at `offset`.
    Constants {
        /// DestOffsetIn32BitValues.
        offset: u32,
        /// Values set (1 for SetRoot32BitConstant).
        count: u32,
    },
    /// SetRootConstantBufferView.
    Cbv,
    /// SetRootShaderResourceView.
    Srv,
    /// SetRootUnorderedAccessView.
    Uav,
}

impl RootSignatureDesc {
    /// The shape of every root parameter, in slot order.
    pub fn slots(&self) -> Vec<RootSlot> {
        self.parameters
            .iter()
            .map(|p| match &p.kind {
                ParameterKind::Table(r) => {
                    RootSlot::Table { sampler: r.first().is_some_and(|r| r.range_type == range_type::SAMPLER) }
                }
                ParameterKind::Constants(c) => RootSlot::Constants(c.num_32bit_values),
                ParameterKind::Cbv(_) => RootSlot::Cbv,
                ParameterKind::Srv(_) => RootSlot::Srv,
                ParameterKind::Uav(_) => RootSlot::Uav,
            })
            .collect()
    }
}

/// Whether a SetRoot* call fits the root signature set on the list (`None`: no root
/// signature set): the index names a parameter of the call's type, and root constants stay
/// inside the parameter's values. The error is the debug layer's text.
pub fn check_root_set(slots: Option<&[RootSlot]>, index: u32, set: RootSet) -> core::result::Result<(), &'static str> {
    let slots = slots.ok_or("no root signature is set on the command list for this pipeline type")?;
    let slot = slots.get(index as usize).ok_or("RootParameterIndex is beyond the root signature's parameters")?;
    match (set, *slot) {
        (RootSet::Table, RootSlot::Table { .. })
        | (RootSet::Cbv, RootSlot::Cbv)
        | (RootSet::Srv, RootSlot::Srv)
        | (RootSet::Uav, RootSlot::Uav) => Ok(()),
        (RootSet::Constants { offset, count }, RootSlot::Constants(n)) => {
            if offset.checked_add(count).is_some_and(|e| e <= n) {
                Ok(())
            } else {
                Err("DestOffsetIn32BitValues + the values set exceed the parameter's Num32BitValues")
            }
        }
        _ => Err("the root parameter at RootParameterIndex has another type"),
    }
}
