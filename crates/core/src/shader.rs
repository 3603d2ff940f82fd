//! Compiled shaders: the parts of a DXBC container ([`crate::dxbc`]) that the runtime reads.
//!
//! * `SHDR` / `SHEX` — FXC bytecode (shader model 4.x / 5.x). Token 0 is the version token:
//!   bits 0–3 minor, 4–7 major, 16–31 program type (0 pixel, 1 vertex, 2 geometry, 3 hull,
//!   4 domain, 5 compute); token 1 is the program length in tokens, both tokens included.
//! * `DXIL` — DXC output (shader model 6.x): a program header {u32 ProgramVersion (bits 0–3
//!   minor, 4–7 major, 16–31 shader kind), u32 SizeInUint32} followed by a bitcode header
//!   {"DXIL", u32 DxilVersion, u32 BitcodeOffset (from the bitcode header), u32 BitcodeSize}
//!   and LLVM bitcode starting with "BC" 0xC0DE.
//! * `ISGN` / `OSGN` / `PCSG` (24-byte elements), `OSG5` (28 bytes, with stream),
//!   `ISG1` / `OSG1` / `PSG1` (32 bytes, with stream and min precision) — I/O signatures: a
//!   header {u32 count, u32 offset of the first element} and elements whose semantic names are
//!   NUL-terminated strings at offsets from the start of the part. They are read into the one
//!   [`SignatureElement`] type of [`signature`], which DXIL's metadata reader also produces.
//! * `RTS0` — an embedded root signature (its payload; the layout is in
//!   descriptors-and-binding.md §8.2 and is parsed by the root-signature code).
//! * `HASH` — {u32 flags, 16-byte digest}: the shader hash DXC stores.
//! * `PSV0` — pipeline state validation data: {u32 size of the runtime info, runtime info,
//!   u32 resource count, [u32 bind-info size, resources]…}; from runtime info version 1
//!   (36 bytes) on, byte 24 is the shader stage, which must agree with the program.
//!
//! Every read is bounds-checked; malformed input gives a [`ShaderError`], never a panic.
//! [`ShaderBuilder`] writes small but well-formed DXBC and DXIL containers for tests (no shader
//! compiler exists on the machines this runtime is built on).

use core::fmt;

use crate::dxbc::{self, Container, ContainerError};

mod signature;
pub use signature::{
    element, parse_signature, signature_part, system_element, ComponentType, Interpolation, SemanticKind,
    SignatureElement, SignatureLayout, TessDomain,
};

/// A part fourcc as stored (e.g. `*b"SHEX"`).
pub type FourCC = [u8; 4];

/// Reads a little-endian u32 at `off`, or `None` past the end.
fn read_u32(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// A pipeline stage (FXC program type / DXIL shader kind; the numbering is the same).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Pixel shader (0).
    Pixel,
    /// Vertex shader (1).
    Vertex,
    /// Geometry shader (2).
    Geometry,
    /// Hull shader (3).
    Hull,
    /// Domain shader (4).
    Domain,
    /// Compute shader (5).
    Compute,
    /// DXIL library (6): not a pipeline stage.
    Library,
    /// Ray tracing stages (7–12) and node shaders (15): not usable in a pipeline state.
    RayTracingOrNode(u32),
    /// Mesh shader (13).
    Mesh,
    /// Amplification shader (14).
    Amplification,
}

impl Stage {
    /// The stage of a DXIL shader kind / PSV shader kind.
    pub fn from_dxil_kind(k: u32) -> Option<Stage> {
        Some(match k {
            0 => Stage::Pixel,
            1 => Stage::Vertex,
            2 => Stage::Geometry,
            3 => Stage::Hull,
            4 => Stage::Domain,
            5 => Stage::Compute,
            6 => Stage::Library,
            7..=12 | 15 => Stage::RayTracingOrNode(k),
            13 => Stage::Mesh,
            14 => Stage::Amplification,
            _ => return None,
        })
    }

    /// The stage of an FXC program type (0–5 only).
    pub fn from_dxbc_type(t: u32) -> Option<Stage> {
        (t <= 5).then(|| Stage::from_dxil_kind(t)).flatten()
    }

    /// The DXIL shader kind number.
    pub fn kind(self) -> u32 {
        match self {
            Stage::Pixel => 0,
            Stage::Vertex => 1,
            Stage::Geometry => 2,
            Stage::Hull => 3,
            Stage::Domain => 4,
            Stage::Compute => 5,
            Stage::Library => 6,
            Stage::RayTracingOrNode(k) => k,
            Stage::Mesh => 13,
            Stage::Amplification => 14,
        }
    }

    /// The HLSL profile prefix ("vs", "ps", …).
    pub fn profile(self) -> &'static str {
        match self {
            Stage::Pixel => "ps",
            Stage::Vertex => "vs",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
            Stage::Library => "lib",
            Stage::RayTracingOrNode(_) => "raytracing/node",
            Stage::Mesh => "ms",
            Stage::Amplification => "as",
        }
    }
}

/// Shader model, ordered (5.1 < 6.0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShaderModel {
    /// Major version.
    pub major: u8,
    /// Minor version.
    pub minor: u8,
}

impl ShaderModel {
    /// A shader model.
    pub const fn new(major: u8, minor: u8) -> Self {
        ShaderModel { major, minor }
    }
    /// The D3D_SHADER_MODEL value (0x51, 0x60, …).
    pub const fn d3d_value(self) -> u32 {
        ((self.major as u32) << 4) | self.minor as u32
    }
    /// From a D3D_SHADER_MODEL value.
    pub const fn from_d3d_value(v: u32) -> Self {
        ShaderModel { major: ((v >> 4) & 0xF) as u8, minor: (v & 0xF) as u8 }
    }
}

impl fmt::Display for ShaderModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}

/// Which compiler's bytecode the container holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bytecode {
    /// FXC (`SHDR` / `SHEX`).
    Dxbc,
    /// DXC (`DXIL`).
    Dxil,
}

/// The state of the container checksum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Checksum {
    /// Matches the container.
    Valid,
    /// All zero: DXIL no validator signed.
    Unsigned,
    /// Present but wrong: the container was modified after compilation.
    Invalid,
}

/// The `HASH` part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShaderHash {
    /// Flags (1 = includes source).
    pub flags: u32,
    /// The digest.
    pub digest: [u8; 16],
}

/// What the runtime reads of a `PSV0` part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Psv {
    /// Size of the runtime info structure (24, 36, 48 or 52 in known versions).
    pub runtime_info_size: u32,
    /// The shader stage recorded from runtime info version 1 on.
    pub stage: Option<Stage>,
    /// The runtime info's first 16 bytes, the stage's own facts (PSVRuntimeInfo0's union) as
    /// four words: a hull shader's input and output control-point counts, tessellator domain
    /// and output primitive; a domain shader's input control-point count, whether it writes
    /// SV_Position (low byte) and its tessellator domain.
    pub stage_info: [u32; 4],
    /// Number of resource bindings.
    pub resource_count: u32,
    /// The resource bindings (PSVResourceBindInfo0): what the root signature must cover.
    pub bindings: Vec<PsvBinding>,
}

/// One resource binding of a PSV0 part: a register range of one class in one space.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PsvBinding {
    /// PSVResourceType: 1 sampler, 2 CBV, 3 typed SRV, 4 raw SRV, 5 structured SRV, 6 typed
    /// UAV, 7 raw UAV, 8 structured UAV, 9 structured UAV with counter.
    pub ty: u32,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower: u32,
    /// Last register (u32::MAX for an unbounded range).
    pub upper: u32,
}

/// A parsed shader container.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shader {
    /// FXC or DXC bytecode.
    pub bytecode: Bytecode,
    /// The program's stage.
    pub stage: Stage,
    /// The program's shader model.
    pub model: ShaderModel,
    /// Checksum state.
    pub checksum: Checksum,
    /// Input signature (empty if absent).
    pub inputs: Vec<SignatureElement>,
    /// Output signature (empty if absent).
    pub outputs: Vec<SignatureElement>,
    /// Patch-constant (hull/domain) or primitive (mesh) signature (empty if absent).
    pub patch_constants: Vec<SignatureElement>,
    /// The embedded root signature as a standalone serialized root signature (a container
    /// holding just the `RTS0` part), if the shader has one.
    pub root_signature: Option<Vec<u8>>,
    /// The `HASH` part.
    pub hash: Option<ShaderHash>,
    /// The `PSV0` part.
    pub psv: Option<Psv>,
    /// The `SFI0` part's feature flags (`D3D_SHADER_REQUIRES_*` of d3d12shader.h, such as
    /// [`REQUIRES_NATIVE_16BIT_OPS`]); 0 without the part.
    pub requires: u64,
}

/// `D3D_SHADER_REQUIRES_NATIVE_16BIT_OPS` (d3d12shader.h): the shader uses 16-bit types natively
/// (DXC's `-enable-16bit-types`), which needs OPTIONS4.Native16BitShaderOpsSupported.
pub const REQUIRES_NATIVE_16BIT_OPS: u64 = 0x4_0000;

/// Why a blob is not a usable shader.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShaderError {
    /// The container itself is malformed.
    Container(ContainerError),
    /// No `SHDR`, `SHEX` or `DXIL` part.
    NoProgram,
    /// More than one program part.
    ManyPrograms,
    /// A part that may appear once appears twice.
    DuplicatePart(FourCC),
    /// The program part is malformed.
    BadProgram(&'static str),
    /// A program type / shader kind that does not exist.
    UnknownStage(u32),
    /// A signature part is malformed.
    BadSignature(FourCC, &'static str),
    /// The `RTS0` part is malformed.
    BadRootSignature(String),
    /// The `HASH` part is malformed.
    BadHash,
    /// The `PSV0` part is malformed or disagrees with the program.
    BadPsv(&'static str),
}

impl fmt::Display for ShaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cc = |c: &FourCC| String::from_utf8_lossy(c).into_owned();
        match self {
            ShaderError::Container(e) => write!(f, "{e}"),
            ShaderError::NoProgram => write!(f, "the container holds no SHDR, SHEX or DXIL part"),
            ShaderError::ManyPrograms => write!(f, "the container holds more than one program part"),
            ShaderError::DuplicatePart(c) => write!(f, "part {} appears more than once", cc(c)),
            ShaderError::BadProgram(w) => write!(f, "malformed program: {w}"),
            ShaderError::UnknownStage(s) => write!(f, "unknown program type {s}"),
            ShaderError::BadSignature(c, w) => write!(f, "malformed {} signature: {w}", cc(c)),
            ShaderError::BadRootSignature(w) => write!(f, "malformed embedded root signature: {w}"),
            ShaderError::BadHash => write!(f, "malformed HASH part"),
            ShaderError::BadPsv(w) => write!(f, "malformed PSV0 part: {w}"),
        }
    }
}

impl From<ContainerError> for ShaderError {
    fn from(e: ContainerError) -> Self {
        ShaderError::Container(e)
    }
}

/// "DXIL" as the bitcode header magic.
const DXIL_MAGIC: u32 = u32::from_le_bytes(*b"DXIL");

fn parse_dxbc_program(data: &[u8], fourcc: FourCC) -> Result<(Stage, ShaderModel), ShaderError> {
    let version = read_u32(data, 0).ok_or(ShaderError::BadProgram("shorter than the version token"))?;
    let length = read_u32(data, 4).ok_or(ShaderError::BadProgram("shorter than the length token"))? as u64;
    if length < 2 || length * 4 > data.len() as u64 {
        return Err(ShaderError::BadProgram("program length does not fit the part"));
    }
    let ty = version >> 16;
    let stage = Stage::from_dxbc_type(ty).ok_or(ShaderError::UnknownStage(ty))?;
    let model = ShaderModel::new(((version >> 4) & 0xF) as u8, (version & 0xF) as u8);
    if !(4..=5).contains(&model.major) || model.minor > 1 {
        return Err(ShaderError::BadProgram("FXC bytecode must be shader model 4.0-5.1"));
    }
    if &fourcc == b"SHDR" && model.major != 4 || &fourcc == b"SHEX" && model.major != 5 {
        return Err(ShaderError::BadProgram("SHDR holds shader model 4, SHEX shader model 5"));
    }
    if model.major == 4 && matches!(stage, Stage::Hull | Stage::Domain) {
        return Err(ShaderError::BadProgram("hull and domain shaders need shader model 5"));
    }
    Ok((stage, model))
}

/// The LLVM bitcode of a `DXIL` part, after checking the program and bitcode headers.
///
/// Guarantees: the slice lies inside the program and starts with "BC" 0xC0DE.
pub fn dxil_bitcode(data: &[u8]) -> Result<&[u8], ShaderError> {
    let size = read_u32(data, 4).ok_or(ShaderError::BadProgram("shorter than the program header"))? as u64 * 4;
    if size < 24 || size > data.len() as u64 {
        return Err(ShaderError::BadProgram("program size does not fit the part"));
    }
    let data = &data[..size as usize];
    if read_u32(data, 8) != Some(DXIL_MAGIC) {
        return Err(ShaderError::BadProgram("bitcode header is not \"DXIL\""));
    }
    let bc_off = read_u32(data, 16).unwrap_or(0) as u64;
    let bc_size = read_u32(data, 20).unwrap_or(0) as u64;
    if bc_off < 16 || bc_size < 4 || 8 + bc_off + bc_size > size {
        return Err(ShaderError::BadProgram("bitcode lies outside the program"));
    }
    let bc = &data[8 + bc_off as usize..(8 + bc_off + bc_size) as usize];
    if bc[..4] != [b'B', b'C', 0xC0, 0xDE] {
        return Err(ShaderError::BadProgram("bitcode does not start with BC 0xC0DE"));
    }
    Ok(bc)
}

fn parse_dxil_program(data: &[u8]) -> Result<(Stage, ShaderModel), ShaderError> {
    let version = read_u32(data, 0).ok_or(ShaderError::BadProgram("shorter than the program header"))?;
    dxil_bitcode(data)?;
    let kind = version >> 16;
    let stage = Stage::from_dxil_kind(kind).ok_or(ShaderError::UnknownStage(kind))?;
    let model = ShaderModel::new(((version >> 4) & 0xF) as u8, (version & 0xF) as u8);
    if model.major != 6 {
        return Err(ShaderError::BadProgram("DXIL must be shader model 6.x"));
    }
    Ok((stage, model))
}

fn parse_psv(p: &[u8], stage: Stage) -> Result<Psv, ShaderError> {
    let bad = ShaderError::BadPsv;
    let info_size = read_u32(p, 0).ok_or(bad("shorter than its header"))?;
    if info_size < 24 || 4 + info_size as u64 > p.len() as u64 {
        return Err(bad("runtime info outside the part"));
    }
    let info = &p[4..4 + info_size as usize];
    let psv_stage = if info_size >= 36 {
        let s = info[24] as u32;
        let s = Stage::from_dxil_kind(s).ok_or(bad("unknown shader stage"))?;
        if s != stage {
            return Err(bad("shader stage differs from the program's"));
        }
        Some(s)
    } else {
        None
    };
    let mut at = 4 + info_size as u64;
    let resource_count = read_u32(p, at as usize).ok_or(bad("resource count missing"))?;
    at += 4;
    let mut bindings = Vec::new();
    if resource_count > 0 {
        let bind_size = read_u32(p, at as usize).ok_or(bad("resource bind size missing"))? as u64;
        at += 4;
        if bind_size < 16 || at + bind_size * resource_count as u64 > p.len() as u64 {
            return Err(bad("resource bindings outside the part"));
        }
        for k in 0..resource_count as u64 {
            let b = (at + k * bind_size) as usize;
            let w = |i: usize| read_u32(p, b + 4 * i).unwrap_or(0);
            bindings.push(PsvBinding { ty: w(0), space: w(1), lower: w(2), upper: w(3) });
        }
    }
    let stage_info = std::array::from_fn(|i| read_u32(info, 4 * i).unwrap_or(0));
    Ok(Psv { runtime_info_size: info_size, stage: psv_stage, stage_info, resource_count, bindings })
}

/// Parses a shader container.
pub fn parse(bytes: &[u8]) -> Result<Shader, ShaderError> {
    let c = Container::parse_unverified(bytes)?;
    let count = |cc: &FourCC| c.parts.iter().filter(|p| &p.fourcc == cc).count();
    for once in [
        b"SHDR", b"SHEX", b"DXIL", b"ISGN", b"OSGN", b"PCSG", b"OSG5", b"ISG1", b"OSG1", b"PSG1", b"RTS0", b"HASH",
        b"PSV0",
    ] {
        if count(once) > 1 {
            return Err(ShaderError::DuplicatePart(*once));
        }
    }
    let programs: Vec<_> = c.parts.iter().filter(|p| matches!(&p.fourcc, b"SHDR" | b"SHEX" | b"DXIL")).collect();
    let program = match programs.as_slice() {
        [] => return Err(ShaderError::NoProgram),
        [p] => *p,
        _ => return Err(ShaderError::ManyPrograms),
    };
    let (bytecode, (stage, model)) = if &program.fourcc == b"DXIL" {
        (Bytecode::Dxil, parse_dxil_program(program.data)?)
    } else {
        (Bytecode::Dxbc, parse_dxbc_program(program.data, program.fourcc)?)
    };
    let sig = |names: &[(&FourCC, SignatureLayout)]| -> Result<Vec<SignatureElement>, ShaderError> {
        let mut found = None;
        for (cc, layout) in names {
            if let Some(d) = c.part(**cc) {
                if found.is_some() {
                    return Err(ShaderError::DuplicatePart(**cc));
                }
                found = Some(parse_signature(**cc, d, *layout)?);
            }
        }
        Ok(found.unwrap_or_default())
    };
    let inputs = sig(&[(b"ISGN", SignatureLayout::V0), (b"ISG1", SignatureLayout::V1)])?;
    let outputs =
        sig(&[(b"OSGN", SignatureLayout::V0), (b"OSG5", SignatureLayout::V5), (b"OSG1", SignatureLayout::V1)])?;
    let patch_constants = sig(&[(b"PCSG", SignatureLayout::V0), (b"PSG1", SignatureLayout::V1)])?;
    let root_signature = match c.part(*b"RTS0") {
        Some(p) => {
            crate::root_signature::RootSignatureDesc::decode_rts0(p)
                .map_err(|e| ShaderError::BadRootSignature(e.message))?;
            Some(dxbc::build(&[(*b"RTS0", p)]))
        }
        None => None,
    };
    let hash = match c.part(*b"HASH") {
        Some(h) if h.len() >= 20 => {
            let mut digest = [0; 16];
            digest.copy_from_slice(&h[4..20]);
            Some(ShaderHash { flags: read_u32(h, 0).unwrap_or(0), digest })
        }
        Some(_) => return Err(ShaderError::BadHash),
        None => None,
    };
    let psv = c.part(*b"PSV0").map(|p| parse_psv(p, stage)).transpose()?;
    let stored = c.stored_checksum();
    let checksum = if stored == dxbc::checksum(&c.bytes[dxbc::CHECKSUM_START..]) {
        Checksum::Valid
    } else if stored == [0; 4] && bytecode == Bytecode::Dxil {
        Checksum::Unsigned
    } else {
        Checksum::Invalid
    };
    // SFI0: a little-endian u64 (shorter parts read as far as they go).
    let requires = c.part(*b"SFI0").map_or(0, |p| {
        let mut b = [0u8; 8];
        let n = p.len().min(8);
        b[..n].copy_from_slice(&p[..n]);
        u64::from_le_bytes(b)
    });
    Ok(Shader {
        bytecode,
        stage,
        model,
        checksum,
        inputs,
        outputs,
        patch_constants,
        root_signature,
        hash,
        psv,
        requires,
    })
}

// ---- the writer ---------------------------------------------------------------------------------

/// `elements` with each id its position.
fn numbered(mut elements: Vec<SignatureElement>) -> Vec<SignatureElement> {
    for (i, e) in elements.iter_mut().enumerate() {
        e.id = i as u32;
    }
    elements
}

/// Writes minimal, well-formed shader containers: the program does nothing but return (a
/// compute shader also declares a 1×1×1 thread group), with the given signatures and an
/// optional embedded root signature.
#[derive(Debug, Clone)]
pub struct ShaderBuilder {
    /// The program's stage.
    pub stage: Stage,
    /// The program's shader model.
    pub model: ShaderModel,
    /// Which bytecode to write.
    pub bytecode: Bytecode,
    /// Input signature.
    pub inputs: Vec<SignatureElement>,
    /// Output signature.
    pub outputs: Vec<SignatureElement>,
    /// Patch-constant signature (written only when non-empty).
    pub patch_constants: Vec<SignatureElement>,
    /// `RTS0` payload to embed.
    pub rts0: Option<Vec<u8>>,
    /// Write a PSV0 part (DXIL only).
    pub psv: bool,
}

impl ShaderBuilder {
    /// FXC bytecode, shader model 5.0.
    pub fn dxbc(stage: Stage) -> Self {
        ShaderBuilder {
            stage,
            model: ShaderModel::new(5, 0),
            bytecode: Bytecode::Dxbc,
            inputs: Vec::new(),
            outputs: Vec::new(),
            patch_constants: Vec::new(),
            rts0: None,
            psv: false,
        }
    }

    /// DXIL bytecode, shader model 6.0, with a PSV0 part.
    pub fn dxil(stage: Stage) -> Self {
        ShaderBuilder { model: ShaderModel::new(6, 0), bytecode: Bytecode::Dxil, psv: true, ..Self::dxbc(stage) }
    }

    /// Sets the inputs (their ids become their positions, as the reader numbers them).
    pub fn inputs(mut self, e: Vec<SignatureElement>) -> Self {
        self.inputs = numbered(e);
        self
    }

    /// Sets the outputs (their ids become their positions).
    pub fn outputs(mut self, e: Vec<SignatureElement>) -> Self {
        self.outputs = numbered(e);
        self
    }

    /// Embeds a root signature payload.
    pub fn root_signature(mut self, rts0: Vec<u8>) -> Self {
        self.rts0 = Some(rts0);
        self
    }

    /// The FXC program tokens.
    fn dxbc_program(&self) -> Vec<u8> {
        let version = (self.stage.kind() << 16) | self.model.d3d_value();
        let mut t = vec![version, 0];
        if self.stage == Stage::Compute {
            t.extend_from_slice(&[0x0100086a, 0x0400009b, 1, 1, 1]); // dcl_globalFlags, dcl_thread_group 1,1,1
        }
        t.push(0x0100003e); // ret
        t[1] = t.len() as u32;
        t.iter().flat_map(|w| w.to_le_bytes()).collect()
    }

    /// The DXIL program part: headers and a token bitcode stream.
    fn dxil_program(&self) -> Vec<u8> {
        let bitcode = [b'B', b'C', 0xC0, 0xDE, 0x35, 0x14, 0, 0];
        let words = (24 + bitcode.len()) / 4;
        let mut out = Vec::new();
        for w in [
            (self.stage.kind() << 16) | self.model.d3d_value(),
            words as u32,
            DXIL_MAGIC,
            0x0100 | self.model.minor as u32,
            16,
            bitcode.len() as u32,
        ] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&bitcode);
        out
    }

    fn psv_part(&self) -> Vec<u8> {
        let mut info = [0u8; 36];
        info[24] = self.stage.kind() as u8;
        info[28] = self.inputs.len() as u8;
        info[29] = self.outputs.len() as u8;
        let mut out = Vec::new();
        out.extend_from_slice(&36u32.to_le_bytes());
        out.extend_from_slice(&info);
        out.extend_from_slice(&0u32.to_le_bytes()); // no resources
        out
    }

    /// The container.
    pub fn build(&self) -> Vec<u8> {
        let mut parts: Vec<(FourCC, Vec<u8>)> = Vec::new();
        let (v0, v1) = (SignatureLayout::V0, SignatureLayout::V1);
        match self.bytecode {
            Bytecode::Dxbc => {
                parts.push((*b"ISGN", signature_part(&self.inputs, v0, None)));
                // FXC writes SM5 geometry-shader outputs with their stream (OSG5).
                if self.stage == Stage::Geometry && self.model.major >= 5 {
                    parts.push((*b"OSG5", signature_part(&self.outputs, SignatureLayout::V5, None)));
                } else {
                    parts.push((*b"OSGN", signature_part(&self.outputs, v0, None)));
                }
                if !self.patch_constants.is_empty() {
                    parts.push((*b"PCSG", signature_part(&self.patch_constants, v0, None)));
                }
                if let Some(r) = &self.rts0 {
                    parts.push((*b"RTS0", r.clone()));
                }
                parts.push((if self.model.major >= 5 { *b"SHEX" } else { *b"SHDR" }, self.dxbc_program()));
            }
            Bytecode::Dxil => {
                parts.push((*b"ISG1", signature_part(&self.inputs, v1, None)));
                parts.push((*b"OSG1", signature_part(&self.outputs, v1, None)));
                if !self.patch_constants.is_empty() {
                    parts.push((*b"PSG1", signature_part(&self.patch_constants, v1, None)));
                }
                if self.psv {
                    parts.push((*b"PSV0", self.psv_part()));
                }
                if let Some(r) = &self.rts0 {
                    parts.push((*b"RTS0", r.clone()));
                }
                // A stand-in digest: DXC hashes the program; any 16 bytes do for a reader.
                let digest = dxbc::checksum(&self.dxil_program());
                let hash: Vec<u8> = [0].iter().chain(digest.iter()).flat_map(|w: &u32| w.to_le_bytes()).collect();
                parts.push((*b"HASH", hash));
                parts.push((*b"DXIL", self.dxil_program()));
            }
        }
        let refs: Vec<(FourCC, &[u8])> = parts.iter().map(|(c, d)| (*c, d.as_slice())).collect();
        dxbc::build(&refs)
    }
}

/// The empty root signature payload (version `v`, no parameters, no samplers, `flags`).
pub fn empty_rts0(version: u32, flags: u32) -> Vec<u8> {
    [version, 0, 24, 0, 24, flags].iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests;
