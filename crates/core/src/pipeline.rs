//! Pipeline state objects: the owned, validated model behind CreateGraphicsPipelineState,
//! CreateComputePipelineState and CreatePipelineState (ID3D12Device2), and the rules each
//! description must satisfy.
//!
//! The caller's descriptions hold pointers (shader bytecode, input layouts, semantic names,
//! the root signature). This crate never dereferences a pointer: the runtime passes a
//! [`Resolver`] that copies what a pointer designates, and every conversion here works on the
//! copies. The three entry points — [`from_graphics_desc`], [`from_compute_desc`] and
//! [`stream::from_stream`] — produce the same [`PipelineDesc`], which [`validate`] checks and
//! turns into a [`Pipeline`]. Equivalent descriptions produce byte-identical
//! [`Pipeline::canonical`] encodings, which is what cached blobs and pipeline libraries
//! compare ([`cache`]).
//!
//! Every failure carries the HRESULT (E_INVALIDARG, or the two cached-blob codes) and the
//! D3D12_MESSAGE_ID Microsoft's debug layer reports for it.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/ns-d3d12-d3d12_graphics_pipeline_state_desc>

use core::fmt;

use rd3d12_sys as sys;
use rd3d12_sys::{
    D3D12_BLEND_DESC, D3D12_CACHED_PIPELINE_STATE, D3D12_COMPUTE_PIPELINE_STATE_DESC, D3D12_DEPTH_STENCIL_DESC,
    D3D12_DEPTH_STENCIL_DESC1, D3D12_DEPTH_STENCIL_DESC2, D3D12_GRAPHICS_PIPELINE_STATE_DESC, D3D12_RASTERIZER_DESC,
    D3D12_SHADER_BYTECODE, D3D12_STREAM_OUTPUT_DESC, D3D12_VIEW_INSTANCING_DESC,
};

use crate::caps::Caps;
use crate::error::MessageId;
use crate::root_signature::{DeviceLimits, ParameterKind, RootSignatureDesc, RootSignatureError, Version};
use crate::shader::{self, Checksum, Shader, ShaderModel, Stage};

pub mod cache;
pub mod stream;

/// D3D12_ERROR_ADAPTER_NOT_FOUND: a cached blob or library from different hardware.
pub const D3D12_ERROR_ADAPTER_NOT_FOUND: i32 = 0x887E_0001_u32 as i32;
/// D3D12_ERROR_DRIVER_VERSION_MISMATCH: a cached blob or library from another driver version.
pub const D3D12_ERROR_DRIVER_VERSION_MISMATCH: i32 = 0x887E_0002_u32 as i32;

// ---- errors -------------------------------------------------------------------------------------

/// A rejected pipeline description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PsoError {
    /// The HRESULT the Create call returns.
    pub hr: i32,
    /// The debug-layer message ID.
    pub id: MessageId,
    /// Human-readable text.
    pub message: String,
}

impl PsoError {
    /// An E_INVALIDARG failure.
    pub fn invalid(id: sys::D3D12_MESSAGE_ID, message: impl Into<String>) -> Self {
        PsoError { hr: sys::E_INVALIDARG, id: MessageId(id.0), message: message.into() }
    }
    /// A failure with another HRESULT.
    pub fn with_hr(hr: i32, id: sys::D3D12_MESSAGE_ID, message: impl Into<String>) -> Self {
        PsoError { hr, id: MessageId(id.0), message: message.into() }
    }
}

impl fmt::Display for PsoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} (hr {:#010x})", self.id, self.message, self.hr as u32)
    }
}

type R<T> = Result<T, PsoError>;

use sys::{
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDBLENDOP as BLENDOP,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDBLENDOPALPHA as BLENDOPALPHA,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDDESTBLEND as DESTBLEND,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDDESTBLENDALPHA as DESTBLENDALPHA,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDLOGICOPS as LOGICOPS,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDRENDERTARGETWRITEMASK as WRITEMASK,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDSRCBLEND as SRCBLEND,
    D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDSRCBLENDALPHA as SRCBLENDALPHA,
    D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_SAMPLE_DESC as SAMPLE_DESC,
};

// ---- the caller's memory ----------------------------------------------------------------------

/// What a pipeline needs of a root signature: its serialized form (the identity cached blobs
/// and libraries compare) and the layout validation reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootSignatureInfo {
    /// The root signature re-encoded as a serialized root signature (a DXBC container with an
    /// `RTS0` part): what cached blobs and libraries compare.
    pub blob: Vec<u8>,
    /// D3D12_ROOT_SIGNATURE_FLAGS.
    pub flags: u32,
    /// The root parameters in order.
    pub params: Vec<RootParam>,
}

/// One root parameter, as far as pipelines and command signatures care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RootParam {
    /// A descriptor table.
    Table,
    /// Root constants.
    Constants {
        /// Num32BitValues.
        num_values: u32,
    },
    /// A root CBV.
    Cbv,
    /// A root SRV.
    Srv,
    /// A root UAV.
    Uav,
}

impl RootSignatureInfo {
    /// The summary of a parsed root signature. Its identity is the desc re-encoded, so that the
    /// same root signature compares equal whichever blob (a standalone one, a shader holding it,
    /// another serializer's layout) it was created from.
    pub fn new(desc: &RootSignatureDesc) -> Self {
        let params = desc
            .parameters
            .iter()
            .map(|p| match &p.kind {
                ParameterKind::Table(_) => RootParam::Table,
                ParameterKind::Constants(c) => RootParam::Constants { num_values: c.num_32bit_values },
                ParameterKind::Cbv(_) => RootParam::Cbv,
                ParameterKind::Srv(_) => RootParam::Srv,
                ParameterKind::Uav(_) => RootParam::Uav,
            })
            .collect();
        RootSignatureInfo { blob: desc.encode(), flags: desc.flags, params }
    }

    /// Deserializes a serialized root signature (a container with an `RTS0` part) and checks it
    /// as CreateRootSignature does: its rules, then what `device` supports.
    pub fn from_blob(blob: &[u8], device: &DeviceLimits) -> Result<Self, RootSignatureError> {
        let desc = RootSignatureDesc::deserialize(blob)?;
        desc.validate()?;
        desc.check_device(device)?;
        Ok(Self::new(&desc))
    }
}

fn rd_u32(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4).map_or(0, |s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Access to what the caller's pointers designate. The runtime implements it (it trusts the
/// pointers as COM's contract says); tests implement it over a map.
pub trait Resolver {
    /// A copy of `len` bytes at `addr`; `None` if `addr` is 0.
    fn bytes(&self, addr: u64, len: usize) -> Option<Vec<u8>>;
    /// A copy of the NUL-terminated string at `addr` (without the NUL); `None` if `addr` is 0.
    fn cstr(&self, addr: u64) -> Option<Vec<u8>>;
    /// The root signature behind an interface pointer: `Ok(None)` for 0, `Err` for a pointer
    /// that is not one of this device's root signatures.
    fn root_signature(&self, addr: u64) -> Result<Option<RootSignatureInfo>, NotARootSignature>;
}

/// A root signature pointer that does not designate one of the device's root signatures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotARootSignature;

// ---- the model ----------------------------------------------------------------------------------

/// The kind of pipeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PipelineKind {
    /// VS (+HS/DS/GS/PS).
    Graphics,
    /// CS.
    Compute,
    /// MS (+AS/PS).
    Mesh,
}

/// A shader slot of a pipeline description.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Slot {
    /// VS.
    Vs,
    /// HS.
    Hs,
    /// DS.
    Ds,
    /// GS.
    Gs,
    /// PS.
    Ps,
    /// CS.
    Cs,
    /// AS.
    As,
    /// MS.
    Ms,
}

impl Slot {
    /// All slots, in pipeline order.
    pub const ALL: [Slot; 8] = [Slot::As, Slot::Ms, Slot::Vs, Slot::Hs, Slot::Ds, Slot::Gs, Slot::Ps, Slot::Cs];

    /// The stage a shader in this slot must be.
    pub fn stage(self) -> Stage {
        match self {
            Slot::Vs => Stage::Vertex,
            Slot::Hs => Stage::Hull,
            Slot::Ds => Stage::Domain,
            Slot::Gs => Stage::Geometry,
            Slot::Ps => Stage::Pixel,
            Slot::Cs => Stage::Compute,
            Slot::As => Stage::Amplification,
            Slot::Ms => Stage::Mesh,
        }
    }

    /// The field name.
    pub fn name(self) -> &'static str {
        match self {
            Slot::Vs => "VS",
            Slot::Hs => "HS",
            Slot::Ds => "DS",
            Slot::Gs => "GS",
            Slot::Ps => "PS",
            Slot::Cs => "CS",
            Slot::As => "AS",
            Slot::Ms => "MS",
        }
    }

    /// The stage's CREATE*SHADER_INVALIDSHADERBYTECODE message.
    pub fn bad_bytecode(self) -> sys::D3D12_MESSAGE_ID {
        match self {
            Slot::Vs => sys::D3D12_MESSAGE_ID_CREATEVERTEXSHADER_INVALIDSHADERBYTECODE,
            Slot::Hs => sys::D3D12_MESSAGE_ID_CREATEHULLSHADER_INVALIDSHADERBYTECODE,
            Slot::Ds => sys::D3D12_MESSAGE_ID_CREATEDOMAINSHADER_INVALIDSHADERBYTECODE,
            Slot::Gs => sys::D3D12_MESSAGE_ID_CREATEGEOMETRYSHADER_INVALIDSHADERBYTECODE,
            Slot::Ps => sys::D3D12_MESSAGE_ID_CREATEPIXELSHADER_INVALIDSHADERBYTECODE,
            Slot::Cs => sys::D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE,
            Slot::As => sys::D3D12_MESSAGE_ID_CREATEAMPLIFICATIONSHADER_INVALIDSHADERBYTECODE,
            Slot::Ms => sys::D3D12_MESSAGE_ID_CREATEMESHSHADER_INVALIDSHADERBYTECODE,
        }
    }

    fn bad_type(self) -> sys::D3D12_MESSAGE_ID {
        match self {
            Slot::Vs => sys::D3D12_MESSAGE_ID_CREATEVERTEXSHADER_INVALIDSHADERTYPE,
            Slot::Hs => sys::D3D12_MESSAGE_ID_CREATEHULLSHADER_INVALIDSHADERTYPE,
            Slot::Ds => sys::D3D12_MESSAGE_ID_CREATEDOMAINSHADER_INVALIDSHADERTYPE,
            Slot::Gs => sys::D3D12_MESSAGE_ID_CREATEGEOMETRYSHADER_INVALIDSHADERTYPE,
            Slot::Ps => sys::D3D12_MESSAGE_ID_CREATEPIXELSHADER_INVALIDSHADERTYPE,
            Slot::Cs => sys::D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_INVALID_SHADER,
            Slot::As => sys::D3D12_MESSAGE_ID_CREATEAMPLIFICATIONSHADER_INVALIDSHADERBYTECODE,
            Slot::Ms => sys::D3D12_MESSAGE_ID_CREATEMESHSHADERWITHSTREAMOUTPUT_INVALIDSHADERTYPE,
        }
    }

    fn root_signature_mismatch(self) -> sys::D3D12_MESSAGE_ID {
        match self {
            Slot::Vs => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_VS_ROOT_SIGNATURE_MISMATCH,
            Slot::Hs => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_ROOT_SIGNATURE_MISMATCH,
            Slot::Ds => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_DS_ROOT_SIGNATURE_MISMATCH,
            Slot::Gs => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_GS_ROOT_SIGNATURE_MISMATCH,
            Slot::Ps => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_PS_ROOT_SIGNATURE_MISMATCH,
            Slot::Cs => sys::D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_CS_ROOT_SIGNATURE_MISMATCH,
            Slot::As => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_AS_ROOT_SIGNATURE_MISMATCH,
            Slot::Ms => sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MS_ROOT_SIGNATURE_MISMATCH,
        }
    }
}

/// D3D12_INPUT_ELEMENT_DESC, copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputElement {
    /// SemanticName (`None` when the pointer was NULL).
    pub semantic_name: Option<String>,
    /// SemanticIndex.
    pub semantic_index: u32,
    /// DXGI_FORMAT.
    pub format: u32,
    /// InputSlot.
    pub input_slot: u32,
    /// AlignedByteOffset (D3D12_APPEND_ALIGNED_ELEMENT = append).
    pub aligned_byte_offset: u32,
    /// D3D12_INPUT_CLASSIFICATION.
    pub slot_class: u32,
    /// InstanceDataStepRate.
    pub instance_step_rate: u32,
}

/// D3D12_SO_DECLARATION_ENTRY, copied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoEntry {
    /// Stream.
    pub stream: u32,
    /// SemanticName (`None` = a gap).
    pub semantic_name: Option<String>,
    /// SemanticIndex.
    pub semantic_index: u32,
    /// StartComponent.
    pub start_component: u8,
    /// ComponentCount.
    pub component_count: u8,
    /// OutputSlot.
    pub output_slot: u8,
}

/// D3D12_STREAM_OUTPUT_DESC, copied.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StreamOutput {
    /// The declaration.
    pub entries: Vec<SoEntry>,
    /// Buffer strides.
    pub strides: Vec<u32>,
    /// RasterizedStream.
    pub rasterized_stream: u32,
}

/// D3D12_RENDER_TARGET_BLEND_DESC.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RtBlend {
    /// BlendEnable.
    pub blend_enable: bool,
    /// LogicOpEnable.
    pub logic_op_enable: bool,
    /// SrcBlend.
    pub src: u32,
    /// DestBlend.
    pub dest: u32,
    /// BlendOp.
    pub op: u32,
    /// SrcBlendAlpha.
    pub src_alpha: u32,
    /// DestBlendAlpha.
    pub dest_alpha: u32,
    /// BlendOpAlpha.
    pub op_alpha: u32,
    /// LogicOp.
    pub logic_op: u32,
    /// RenderTargetWriteMask.
    pub write_mask: u8,
}

impl Default for RtBlend {
    /// CD3DX12_BLEND_DESC(D3D12_DEFAULT)'s render target: no blending, ONE/ZERO/ADD, all
    /// channels written.
    fn default() -> Self {
        RtBlend {
            blend_enable: false,
            logic_op_enable: false,
            src: sys::D3D12_BLEND_ONE.0,
            dest: sys::D3D12_BLEND_ZERO.0,
            op: sys::D3D12_BLEND_OP_ADD.0,
            src_alpha: sys::D3D12_BLEND_ONE.0,
            dest_alpha: sys::D3D12_BLEND_ZERO.0,
            op_alpha: sys::D3D12_BLEND_OP_ADD.0,
            logic_op: sys::D3D12_LOGIC_OP_NOOP.0,
            write_mask: 0xF,
        }
    }
}

/// D3D12_BLEND_DESC.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Blend {
    /// AlphaToCoverageEnable.
    pub alpha_to_coverage: bool,
    /// IndependentBlendEnable.
    pub independent: bool,
    /// RenderTarget[8].
    pub rt: [RtBlend; 8],
}

/// D3D12_RASTERIZER_DESC.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rasterizer {
    /// FillMode.
    pub fill: u32,
    /// CullMode.
    pub cull: u32,
    /// FrontCounterClockwise.
    pub front_ccw: bool,
    /// DepthBias.
    pub depth_bias: i32,
    /// DepthBiasClamp.
    pub depth_bias_clamp: f32,
    /// SlopeScaledDepthBias.
    pub slope_scaled_depth_bias: f32,
    /// DepthClipEnable.
    pub depth_clip: bool,
    /// MultisampleEnable.
    pub multisample: bool,
    /// AntialiasedLineEnable.
    pub antialiased_line: bool,
    /// ForcedSampleCount.
    pub forced_sample_count: u32,
    /// ConservativeRaster.
    pub conservative: u32,
}

impl Default for Rasterizer {
    /// CD3DX12_RASTERIZER_DESC(D3D12_DEFAULT): solid, back-face culling, depth clip on.
    fn default() -> Self {
        Rasterizer {
            fill: sys::D3D12_FILL_MODE_SOLID.0,
            cull: sys::D3D12_CULL_MODE_BACK.0,
            front_ccw: false,
            depth_bias: 0,
            depth_bias_clamp: 0.0,
            slope_scaled_depth_bias: 0.0,
            depth_clip: true,
            multisample: false,
            antialiased_line: false,
            forced_sample_count: 0,
            conservative: 0,
        }
    }
}

/// One face of the stencil state (D3D12_DEPTH_STENCILOP_DESC1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StencilFace {
    /// StencilFailOp.
    pub fail: u32,
    /// StencilDepthFailOp.
    pub depth_fail: u32,
    /// StencilPassOp.
    pub pass: u32,
    /// StencilFunc.
    pub func: u32,
    /// StencilReadMask.
    pub read_mask: u8,
    /// StencilWriteMask.
    pub write_mask: u8,
}

impl Default for StencilFace {
    fn default() -> Self {
        let keep = sys::D3D12_STENCIL_OP_KEEP.0;
        StencilFace {
            fail: keep,
            depth_fail: keep,
            pass: keep,
            func: sys::D3D12_COMPARISON_FUNC_ALWAYS.0,
            read_mask: 0xFF,
            write_mask: 0xFF,
        }
    }
}

/// D3D12_DEPTH_STENCIL_DESC / DESC1 / DESC2 in one shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepthStencil {
    /// DepthEnable.
    pub depth_enable: bool,
    /// DepthWriteMask.
    pub write_mask: u32,
    /// DepthFunc.
    pub func: u32,
    /// StencilEnable.
    pub stencil_enable: bool,
    /// FrontFace.
    pub front: StencilFace,
    /// BackFace.
    pub back: StencilFace,
    /// DepthBoundsTestEnable (DESC1 / DESC2).
    pub depth_bounds: bool,
}

impl Default for DepthStencil {
    /// CD3DX12_DEPTH_STENCIL_DESC(D3D12_DEFAULT): depth test LESS with writes, no stencil.
    fn default() -> Self {
        DepthStencil {
            depth_enable: true,
            write_mask: sys::D3D12_DEPTH_WRITE_MASK_ALL.0,
            func: sys::D3D12_COMPARISON_FUNC_LESS.0,
            stencil_enable: false,
            front: StencilFace::default(),
            back: StencilFace::default(),
            depth_bounds: false,
        }
    }
}

/// D3D12_VIEW_INSTANCING_DESC, copied.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ViewInstancing {
    /// ViewInstanceCount.
    pub count: u32,
    /// (ViewportArrayIndex, RenderTargetArrayIndex) per view.
    pub locations: Vec<(u32, u32)>,
    /// Flags.
    pub flags: u32,
}

/// A pipeline description, owned and normalised.
#[derive(Debug, Clone, PartialEq)]
pub struct PipelineDesc {
    /// Graphics, compute or mesh.
    pub kind: PipelineKind,
    /// pRootSignature (resolved).
    pub root_signature: Option<RootSignatureInfo>,
    /// Shader bytecode by slot (absent = `None`).
    pub shaders: Vec<(Slot, Vec<u8>)>,
    /// StreamOutput.
    pub stream_output: StreamOutput,
    /// BlendState.
    pub blend: Blend,
    /// SampleMask.
    pub sample_mask: u32,
    /// RasterizerState.
    pub rasterizer: Rasterizer,
    /// DepthStencilState.
    pub depth_stencil: DepthStencil,
    /// InputLayout.
    pub input_layout: Vec<InputElement>,
    /// IBStripCutValue.
    pub ib_strip_cut: u32,
    /// PrimitiveTopologyType.
    pub topology_type: u32,
    /// NumRenderTargets.
    pub num_render_targets: u32,
    /// RTVFormats.
    pub rtv_formats: [u32; 8],
    /// DSVFormat.
    pub dsv_format: u32,
    /// SampleDesc.Count.
    pub sample_count: u32,
    /// SampleDesc.Quality.
    pub sample_quality: u32,
    /// NodeMask.
    pub node_mask: u32,
    /// CachedPSO: `None` when absent (size 0).
    pub cached_blob: Option<Vec<u8>>,
    /// Flags.
    pub flags: u32,
    /// View instancing.
    pub view_instancing: ViewInstancing,
}

impl PipelineDesc {
    /// Whether the rasterizer runs (for the stream RasterizedStream names; without a geometry
    /// shader only stream 0 has primitives): D3D12_SO_NO_RASTERIZED_STREAM leaves it out, and
    /// a pipeline without a pixel shader whose depth and stencil tests are both off disables
    /// rasterization (learn.microsoft.com, "Rasterizer (RS) stage": "You may disable
    /// rasterization by telling the pipeline there is no pixel shader ... and disable depth and
    /// stencil testing"). A disabled rasterizer counts no CInvocations or CPrimitives and needs
    /// no SV_Position.
    pub fn rasterizes(&self, has_ps: bool) -> bool {
        self.stream_output.rasterized_stream < sys::D3D12_SO_STREAM_COUNT
            && (has_ps || self.depth_stencil.depth_enable || self.depth_stencil.stencil_enable)
    }

    /// A description with every state at its stream default and no shaders.
    pub fn new(kind: PipelineKind) -> Self {
        PipelineDesc {
            kind,
            root_signature: None,
            shaders: Vec::new(),
            stream_output: StreamOutput::default(),
            blend: Blend::default(),
            sample_mask: sys::D3D12_DEFAULT_SAMPLE_MASK,
            rasterizer: Rasterizer::default(),
            depth_stencil: DepthStencil::default(),
            input_layout: Vec::new(),
            ib_strip_cut: 0,
            topology_type: 0,
            num_render_targets: 0,
            rtv_formats: [0; 8],
            dsv_format: 0,
            sample_count: 1,
            sample_quality: 0,
            node_mask: 0,
            cached_blob: None,
            flags: 0,
            view_instancing: ViewInstancing::default(),
        }
    }

    /// The bytecode in a slot.
    pub fn shader(&self, slot: Slot) -> Option<&[u8]> {
        self.shaders.iter().find(|(s, _)| *s == slot).map(|(_, b)| b.as_slice())
    }

    /// Sets (or clears) a slot.
    pub fn set_shader(&mut self, slot: Slot, bytes: Option<Vec<u8>>) {
        self.shaders.retain(|(s, _)| *s != slot);
        if let Some(b) = bytes {
            self.shaders.push((slot, b));
            self.shaders.sort_by_key(|(s, _)| Slot::ALL.iter().position(|x| x == s));
        }
    }
}

// ---- conversions from the API structs -----------------------------------------------------------

fn b(v: sys::BOOL) -> bool {
    v != 0
}

/// D3D12_SHADER_BYTECODE → bytes; length 0 means "no shader".
pub fn shader_bytecode(bc: &D3D12_SHADER_BYTECODE, slot: Slot, r: &dyn Resolver) -> R<Option<Vec<u8>>> {
    if bc.BytecodeLength == 0 {
        return Ok(None);
    }
    r.bytes(bc.pShaderBytecode as u64, bc.BytecodeLength).map(Some).ok_or_else(|| {
        PsoError::invalid(
            slot.bad_bytecode(),
            format!("{}: pShaderBytecode is NULL with a non-zero length", slot.name()),
        )
    })
}

fn semantic(addr: u64, r: &dyn Resolver) -> Option<String> {
    r.cstr(addr).map(|v| String::from_utf8_lossy(&v).into_owned())
}

/// D3D12_INPUT_LAYOUT_DESC (pointer and count) → elements.
pub fn input_layout(ptr: u64, n: u32, r: &dyn Resolver) -> R<Vec<InputElement>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if n > sys::D3D12_IA_VERTEX_INPUT_STRUCTURE_ELEMENT_COUNT {
        return Err(PsoError::invalid(
            sys::D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_TOOMANYELEMENTS,
            format!("InputLayout.NumElements {n} exceeds 32"),
        ));
    }
    const SIZE: usize = size_of::<sys::D3D12_INPUT_ELEMENT_DESC>();
    let bytes = r.bytes(ptr, SIZE * n as usize).ok_or_else(|| {
        PsoError::invalid(
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INPUTLAYOUT_NOT_SET,
            "InputLayout.pInputElementDescs is NULL with NumElements > 0",
        )
    })?;
    Ok(bytes
        .chunks_exact(SIZE)
        .map(|e| {
            let w = |at| rd_u32(e, at);
            InputElement {
                semantic_name: semantic(rd_u64(e, 0), r),
                semantic_index: w(8),
                format: w(12),
                input_slot: w(16),
                aligned_byte_offset: w(20),
                slot_class: w(24),
                instance_step_rate: w(28),
            }
        })
        .collect())
}

fn rd_u64(b: &[u8], at: usize) -> u64 {
    b.get(at..at + 8).map_or(0, |s| u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]))
}

fn so_invalid(id: sys::D3D12_MESSAGE_ID, m: impl Into<String>) -> PsoError {
    PsoError::invalid(id, m)
}

/// D3D12_STREAM_OUTPUT_DESC → owned.
pub fn stream_output(d: &D3D12_STREAM_OUTPUT_DESC, r: &dyn Resolver) -> R<StreamOutput> {
    use sys::{
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDNUMENTRIES as NUMENTRIES,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDNUMSTRIDES as NUMSTRIDES,
    };
    if d.NumEntries == 0 {
        return Ok(StreamOutput { rasterized_stream: d.RasterizedStream, ..Default::default() });
    }
    let max_entries = sys::D3D12_SO_STREAM_COUNT * sys::D3D12_SO_OUTPUT_COMPONENT_COUNT;
    if d.NumEntries > max_entries {
        return Err(so_invalid(NUMENTRIES, format!("StreamOutput.NumEntries {} exceeds {max_entries}", d.NumEntries)));
    }
    if d.NumStrides > sys::D3D12_SO_BUFFER_SLOT_COUNT {
        return Err(so_invalid(NUMSTRIDES, format!("StreamOutput.NumStrides {} exceeds 4", d.NumStrides)));
    }
    const SIZE: usize = size_of::<sys::D3D12_SO_DECLARATION_ENTRY>();
    let bytes = r
        .bytes(d.pSODeclaration as u64, SIZE * d.NumEntries as usize)
        .ok_or_else(|| so_invalid(NUMENTRIES, "StreamOutput.pSODeclaration is NULL with NumEntries > 0"))?;
    let entries = bytes
        .chunks_exact(SIZE)
        .map(|e| SoEntry {
            stream: rd_u32(e, 0),
            semantic_name: semantic(rd_u64(e, 8), r),
            semantic_index: rd_u32(e, 16),
            start_component: e[20],
            component_count: e[21],
            output_slot: e[22],
        })
        .collect();
    let strides = if d.NumStrides == 0 {
        Vec::new()
    } else {
        let s = r
            .bytes(d.pBufferStrides as u64, 4 * d.NumStrides as usize)
            .ok_or_else(|| so_invalid(NUMSTRIDES, "StreamOutput.pBufferStrides is NULL with NumStrides > 0"))?;
        s.chunks_exact(4).map(|c| rd_u32(c, 0)).collect()
    };
    Ok(StreamOutput { entries, strides, rasterized_stream: d.RasterizedStream })
}

/// D3D12_BLEND_DESC → model.
pub fn blend(d: &D3D12_BLEND_DESC) -> Blend {
    let mut out = Blend {
        alpha_to_coverage: b(d.AlphaToCoverageEnable),
        independent: b(d.IndependentBlendEnable),
        ..Default::default()
    };
    for (o, t) in out.rt.iter_mut().zip(d.RenderTarget.iter()) {
        *o = RtBlend {
            blend_enable: b(t.BlendEnable),
            logic_op_enable: b(t.LogicOpEnable),
            src: t.SrcBlend.0,
            dest: t.DestBlend.0,
            op: t.BlendOp.0,
            src_alpha: t.SrcBlendAlpha.0,
            dest_alpha: t.DestBlendAlpha.0,
            op_alpha: t.BlendOpAlpha.0,
            logic_op: t.LogicOp.0,
            write_mask: t.RenderTargetWriteMask,
        };
    }
    out
}

/// D3D12_RASTERIZER_DESC → model.
pub fn rasterizer(d: &D3D12_RASTERIZER_DESC) -> Rasterizer {
    Rasterizer {
        fill: d.FillMode.0,
        cull: d.CullMode.0,
        front_ccw: b(d.FrontCounterClockwise),
        depth_bias: d.DepthBias,
        depth_bias_clamp: d.DepthBiasClamp,
        slope_scaled_depth_bias: d.SlopeScaledDepthBias,
        depth_clip: b(d.DepthClipEnable),
        multisample: b(d.MultisampleEnable),
        antialiased_line: b(d.AntialiasedLineEnable),
        forced_sample_count: d.ForcedSampleCount,
        conservative: d.ConservativeRaster.0,
    }
}

fn face(op: &sys::D3D12_DEPTH_STENCILOP_DESC, read_mask: u8, write_mask: u8) -> StencilFace {
    StencilFace {
        fail: op.StencilFailOp.0,
        depth_fail: op.StencilDepthFailOp.0,
        pass: op.StencilPassOp.0,
        func: op.StencilFunc.0,
        read_mask,
        write_mask,
    }
}

/// D3D12_DEPTH_STENCIL_DESC → model.
pub fn depth_stencil(d: &D3D12_DEPTH_STENCIL_DESC) -> DepthStencil {
    DepthStencil {
        depth_enable: b(d.DepthEnable),
        write_mask: d.DepthWriteMask.0,
        func: d.DepthFunc.0,
        stencil_enable: b(d.StencilEnable),
        front: face(&d.FrontFace, d.StencilReadMask, d.StencilWriteMask),
        back: face(&d.BackFace, d.StencilReadMask, d.StencilWriteMask),
        depth_bounds: false,
    }
}

/// D3D12_DEPTH_STENCIL_DESC1 → model.
pub fn depth_stencil1(d: &D3D12_DEPTH_STENCIL_DESC1) -> DepthStencil {
    DepthStencil {
        depth_enable: b(d.DepthEnable),
        write_mask: d.DepthWriteMask.0,
        func: d.DepthFunc.0,
        stencil_enable: b(d.StencilEnable),
        front: face(&d.FrontFace, d.StencilReadMask, d.StencilWriteMask),
        back: face(&d.BackFace, d.StencilReadMask, d.StencilWriteMask),
        depth_bounds: b(d.DepthBoundsTestEnable),
    }
}

/// D3D12_DEPTH_STENCIL_DESC2 → model.
pub fn depth_stencil2(d: &D3D12_DEPTH_STENCIL_DESC2) -> DepthStencil {
    let f = |o: &sys::D3D12_DEPTH_STENCILOP_DESC1| StencilFace {
        fail: o.StencilFailOp.0,
        depth_fail: o.StencilDepthFailOp.0,
        pass: o.StencilPassOp.0,
        func: o.StencilFunc.0,
        read_mask: o.StencilReadMask,
        write_mask: o.StencilWriteMask,
    };
    DepthStencil {
        depth_enable: b(d.DepthEnable),
        write_mask: d.DepthWriteMask.0,
        func: d.DepthFunc.0,
        stencil_enable: b(d.StencilEnable),
        front: f(&d.FrontFace),
        back: f(&d.BackFace),
        depth_bounds: b(d.DepthBoundsTestEnable),
    }
}

/// D3D12_CACHED_PIPELINE_STATE → bytes (`None` when the size is 0).
pub fn cached_pso(c: &D3D12_CACHED_PIPELINE_STATE, r: &dyn Resolver) -> R<Option<Vec<u8>>> {
    if c.CachedBlobSizeInBytes == 0 {
        return Ok(None);
    }
    r.bytes(c.pCachedBlob as u64, c.CachedBlobSizeInBytes).map(Some).ok_or_else(|| {
        PsoError::invalid(
            sys::D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALIDCACHEDBLOB,
            "CachedPSO.pCachedBlob is NULL with a non-zero size",
        )
    })
}

/// D3D12_VIEW_INSTANCING_DESC → owned.
pub fn view_instancing(d: &D3D12_VIEW_INSTANCING_DESC, r: &dyn Resolver) -> R<ViewInstancing> {
    let mut v = ViewInstancing { count: d.ViewInstanceCount, locations: Vec::new(), flags: d.Flags.0 };
    if d.ViewInstanceCount > 0 && d.ViewInstanceCount <= sys::D3D12_MAX_VIEW_INSTANCE_COUNT {
        let bytes = r.bytes(d.pViewInstanceLocations as u64, 8 * d.ViewInstanceCount as usize).ok_or_else(|| {
            PsoError::invalid(
                sys::D3D12_MESSAGE_ID_VIEW_INSTANCING_INVALIDARGS,
                "pViewInstanceLocations is NULL with ViewInstanceCount > 0",
            )
        })?;
        v.locations = bytes.chunks_exact(8).map(|c| (rd_u32(c, 0), rd_u32(c, 4))).collect();
    }
    Ok(v)
}

fn root_signature(addr: u64, r: &dyn Resolver) -> R<Option<RootSignatureInfo>> {
    r.root_signature(addr).map_err(|NotARootSignature| {
        PsoError::invalid(
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE,
            "pRootSignature is not a root signature of this device",
        )
    })
}

/// D3D12_GRAPHICS_PIPELINE_STATE_DESC → model.
pub fn from_graphics_desc(d: &D3D12_GRAPHICS_PIPELINE_STATE_DESC, r: &dyn Resolver) -> R<PipelineDesc> {
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.root_signature = root_signature(d.pRootSignature as u64, r)?;
    for (slot, bc) in [(Slot::Vs, &d.VS), (Slot::Hs, &d.HS), (Slot::Ds, &d.DS), (Slot::Gs, &d.GS), (Slot::Ps, &d.PS)] {
        p.set_shader(slot, shader_bytecode(bc, slot, r)?);
    }
    p.stream_output = stream_output(&d.StreamOutput, r)?;
    p.blend = blend(&d.BlendState);
    p.sample_mask = d.SampleMask;
    p.rasterizer = rasterizer(&d.RasterizerState);
    p.depth_stencil = depth_stencil(&d.DepthStencilState);
    p.input_layout = input_layout(d.InputLayout.pInputElementDescs as u64, d.InputLayout.NumElements, r)?;
    p.ib_strip_cut = d.IBStripCutValue.0;
    p.topology_type = d.PrimitiveTopologyType.0;
    p.num_render_targets = d.NumRenderTargets;
    p.rtv_formats = d.RTVFormats.map(|f| f.0);
    p.dsv_format = d.DSVFormat.0;
    p.sample_count = d.SampleDesc.Count;
    p.sample_quality = d.SampleDesc.Quality;
    p.node_mask = d.NodeMask;
    p.cached_blob = cached_pso(&d.CachedPSO, r)?;
    p.flags = d.Flags.0;
    Ok(p)
}

/// D3D12_COMPUTE_PIPELINE_STATE_DESC → model.
pub fn from_compute_desc(d: &D3D12_COMPUTE_PIPELINE_STATE_DESC, r: &dyn Resolver) -> R<PipelineDesc> {
    let mut p = PipelineDesc::new(PipelineKind::Compute);
    p.root_signature = root_signature(d.pRootSignature as u64, r)?;
    p.set_shader(Slot::Cs, shader_bytecode(&d.CS, Slot::Cs, r)?);
    p.node_mask = d.NodeMask;
    p.cached_blob = cached_pso(&d.CachedPSO, r)?;
    p.flags = d.Flags.0;
    Ok(p)
}

// ---- validation ---------------------------------------------------------------------------------

/// What the device supports, as its CheckFeatureSupport answers say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Formats and MSAA.
    pub caps: Caps,
    /// SHADER_MODEL.HighestShaderModel.
    pub max_shader_model: ShaderModel,
    /// Unsigned DXIL is accepted (experimental shader models are enabled).
    pub allow_unsigned_dxil: bool,
    /// OPTIONS.OutputMergerLogicOp.
    pub logic_op: bool,
    /// OPTIONS.ConservativeRasterizationTier.
    pub conservative_raster_tier: u32,
    /// OPTIONS2.DepthBoundsTestSupported.
    pub depth_bounds: bool,
    /// OPTIONS14.IndependentFrontAndBackStencilRefMaskSupported.
    pub independent_stencil_masks: bool,
    /// OPTIONS3.ViewInstancingTier.
    pub view_instancing_tier: u32,
    /// OPTIONS7.MeshShaderTier != NOT_SUPPORTED.
    pub mesh_shaders: bool,
    /// OPTIONS4.Native16BitShaderOpsSupported.
    pub native_16bit_ops: bool,
    /// GetNodeCount.
    pub node_count: u32,
    /// What CreateRootSignature accepts: root signatures embedded in shaders are checked
    /// against it.
    pub root_signature: DeviceLimits,
}

impl Limits {
    /// The limits of a device whose implemented capabilities are `caps`, with today's answers
    /// for the optional features (none of them supported) and root signatures up to 1.1 on
    /// resource binding tier 1; callers with other answers set the fields.
    pub const fn new(caps: Caps, max_shader_model: ShaderModel) -> Self {
        Limits {
            caps,
            max_shader_model,
            allow_unsigned_dxil: false,
            logic_op: false,
            conservative_raster_tier: 0,
            depth_bounds: false,
            independent_stencil_masks: false,
            view_instancing_tier: 0,
            mesh_shaders: false,
            native_16bit_ops: false,
            node_count: 1,
            root_signature: DeviceLimits {
                max_version: Version::V1_1,
                binding_tier: 1,
                feature_level: caps.feature_level,
                raytracing: false,
            },
        }
    }
}

/// A validated pipeline: the description, its parsed shaders and its effective root signature.
#[derive(Debug, Clone, PartialEq)]
pub struct Pipeline {
    /// The description (its `cached_blob` cleared).
    pub desc: PipelineDesc,
    /// The shaders, by slot.
    pub shaders: Vec<(Slot, Shader)>,
    /// pRootSignature, or the root signature embedded in the shaders.
    pub root_signature: RootSignatureInfo,
    /// The canonical encoding ([`cache::encode`]) that cached blobs and libraries compare.
    pub canonical: Vec<u8>,
}

impl Pipeline {
    /// The parsed shader in a slot.
    pub fn shader(&self, slot: Slot) -> Option<&Shader> {
        self.shaders.iter().find(|(s, _)| *s == slot).map(|(_, sh)| sh)
    }
}

fn gp(id: sys::D3D12_MESSAGE_ID, m: impl Into<String>) -> PsoError {
    PsoError::invalid(id, m)
}

fn parse_shaders(d: &PipelineDesc, l: &Limits) -> R<Vec<(Slot, Shader)>> {
    let mut out: Vec<(Slot, Shader)> = Vec::new();
    for (slot, bytes) in &d.shaders {
        let slot = *slot;
        let name = slot.name();
        let s = shader::parse(bytes).map_err(|e| PsoError::invalid(slot.bad_bytecode(), format!("{name}: {e}")))?;
        match s.checksum {
            Checksum::Valid => {}
            Checksum::Unsigned if l.allow_unsigned_dxil => {}
            Checksum::Unsigned => {
                let why = "the DXIL container is unsigned (only experimental shader models allow that)";
                return Err(gp(slot.bad_bytecode(), format!("{name}: {why}")));
            }
            Checksum::Invalid => {
                return Err(gp(
                    slot.bad_bytecode(),
                    format!("{name}: the container checksum does not match its contents"),
                ))
            }
        }
        if s.stage != slot.stage() {
            return Err(gp(slot.bad_type(), format!("{name}: the bytecode is a {} shader", s.stage.profile())));
        }
        if s.model > l.max_shader_model {
            return Err(gp(
                slot.bad_bytecode(),
                format!(
                    "{name}: shader model {} exceeds the device's highest shader model {}",
                    s.model, l.max_shader_model
                ),
            ));
        }
        // Windows: "Shader uses native 16bit ops, but the device does not support this"
        // (CREATESHADER_INVALIDBYTECODE, as reported in DirectXShaderCompiler#3495).
        if s.requires & shader::REQUIRES_NATIVE_16BIT_OPS != 0 && !l.native_16bit_ops {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATESHADER_INVALIDBYTECODE,
                format!("{name}: the shader uses native 16-bit operations, which the device does not support"),
            ));
        }
        if let Some((other, first)) = out.first() {
            if first.bytecode != s.bytecode {
                return Err(gp(
                    sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_SHADER_MODEL_MISMATCH,
                    format!("{name} and {} mix DXBC and DXIL bytecode", other.name()),
                ));
            }
        }
        out.push((slot, s));
    }
    Ok(out)
}

fn effective_root_signature(d: &PipelineDesc, shaders: &[(Slot, Shader)], l: &Limits) -> R<RootSignatureInfo> {
    if let Some(rs) = &d.root_signature {
        return Ok(rs.clone());
    }
    let mut found: Option<(Slot, &Vec<u8>)> = None;
    for (slot, s) in shaders {
        let Some(blob) = &s.root_signature else { continue };
        match found {
            None => found = Some((*slot, blob)),
            Some((first, f)) if f != blob => {
                return Err(gp(
                    slot.root_signature_mismatch(),
                    format!("the root signatures embedded in {} and {} differ", first.name(), slot.name()),
                ))
            }
            Some(_) => {}
        }
    }
    let Some((slot, blob)) = found else {
        let id = if d.kind == PipelineKind::Compute {
            sys::D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_MISSING_ROOT_SIGNATURE
        } else {
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE
        };
        return Err(gp(id, "pRootSignature is NULL and no shader embeds a root signature"));
    };
    RootSignatureInfo::from_blob(blob, &l.root_signature).map_err(|e| PsoError {
        hr: e.hresult(),
        id: e.id,
        message: format!("{}'s embedded root signature: {}", slot.name(), e.message),
    })
}

/// What binds one shader register: a root parameter (by index) or a static sampler.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Binder {
    /// Root parameter `n`.
    Parameter(usize),
    /// A static sampler.
    StaticSampler,
}

/// The binders of every register of a shader resource range `b` (a PSV0 binding) among the
/// parameters of `desc` visible to the stage in `slot`: CBVs by root constants, root CBVs or
/// table ranges; raw and structured buffer SRVs/UAVs (without counter) also by root SRVs/UAVs;
/// typed views and textures only by table ranges; samplers by table ranges or static samplers;
/// an unbounded range by an unbounded table range from its first register. `None` when a
/// register is left unbound (or the binding's type is unknown: `Some(vec![])`).
pub fn binders(desc: &RootSignatureDesc, slot: Slot, b: &crate::shader::PsvBinding) -> Option<Vec<Binder>> {
    use crate::root_signature::{range_type, visibility, UNBOUNDED};
    // D3D12_SHADER_VISIBILITY of the stage (compute sees every parameter).
    let vis = match slot {
        Slot::Vs => 1,
        Slot::Hs => 2,
        Slot::Ds => 3,
        Slot::Gs => 4,
        Slot::Ps => 5,
        Slot::As => 6,
        Slot::Ms => 7,
        Slot::Cs => visibility::ALL,
    };
    let visible = |v: u32| slot == Slot::Cs || v == visibility::ALL || v == vis;
    let rt = match b.ty {
        1 => range_type::SAMPLER,
        2 => range_type::CBV,
        3..=5 => range_type::SRV,
        6..=9 => range_type::UAV,
        _ => return Some(Vec::new()),
    };
    let params = || desc.parameters.iter().enumerate().filter(|(_, p)| visible(p.visibility));
    if b.upper == u32::MAX {
        return params()
            .find(|(_, p)| match &p.kind {
                ParameterKind::Table(ranges) => ranges.iter().any(|r| {
                    r.range_type == rt
                        && r.register_space == b.space
                        && r.num_descriptors == UNBOUNDED
                        && r.base_shader_register <= b.lower
                }),
                _ => false,
            })
            .map(|(i, _)| vec![Binder::Parameter(i)]);
    }
    let root_view_ok = matches!(b.ty, 2 | 4 | 5 | 7 | 8);
    let binder = |reg: u32| -> Option<Binder> {
        if rt == range_type::SAMPLER
            && desc
                .static_samplers
                .iter()
                .any(|ss| ss.shader_register == reg && ss.register_space == b.space && visible(ss.visibility))
        {
            return Some(Binder::StaticSampler);
        }
        params()
            .find(|(_, p)| match &p.kind {
                ParameterKind::Constants(c) => {
                    rt == range_type::CBV && c.shader_register == reg && c.register_space == b.space
                }
                ParameterKind::Table(ranges) => ranges.iter().any(|r| {
                    r.range_type == rt
                        && r.register_space == b.space
                        && reg >= r.base_shader_register
                        && (r.num_descriptors == UNBOUNDED || reg - r.base_shader_register < r.num_descriptors)
                }),
                other => other.root_descriptor().is_some_and(|(t, rd)| {
                    t == rt && root_view_ok && rd.shader_register == reg && rd.register_space == b.space
                }),
            })
            .map(|(i, _)| Binder::Parameter(i))
    };
    if b.upper < b.lower {
        return Some(Vec::new());
    }
    (b.lower..=b.upper).take(4096).map(binder).collect()
}

/// Whether the root signature binds every resource range a DXIL shader declares (its PSV0
/// resource bindings, see [`binders`]). A range left unbound fails creation with the stage's
/// ROOT_SIGNATURE_MISMATCH message, as on Windows ("not fully bound in root signature").
fn check_bindings(shaders: &[(Slot, Shader)], rs: &RootSignatureInfo) -> R<()> {
    let any = shaders.iter().any(|(_, s)| s.psv.as_ref().is_some_and(|p| !p.bindings.is_empty()));
    if !any {
        return Ok(());
    }
    let Ok(desc) = RootSignatureDesc::deserialize(&rs.blob) else { return Ok(()) };
    for (slot, s) in shaders {
        let Some(psv) = &s.psv else { continue };
        for b in &psv.bindings {
            if binders(&desc, *slot, b).is_some() {
                continue;
            }
            let name = match b.ty {
                1 => "sampler",
                2 => "CBV",
                3..=5 => "SRV",
                _ => "UAV",
            };
            let count = if b.upper == u32::MAX { "unbounded".to_string() } else { (b.upper - b.lower + 1).to_string() };
            return Err(gp(
                slot.root_signature_mismatch(),
                format!(
                    "Root Signature doesn't match {}: Shader {name} descriptor range (BaseShaderRegister={}, \
                     NumDescriptors={count}, RegisterSpace={}) is not fully bound in root signature",
                    slot.name(),
                    b.lower,
                    b.space
                ),
            ));
        }
    }
    Ok(())
}

/// Validates a description and builds the pipeline (without looking at its cached blob:
/// [`cache::check_cached_blob`] does that, with the device's identity).
pub fn validate(d: &PipelineDesc, l: &Limits) -> R<Pipeline> {
    let valid_flags = sys::D3D12_PIPELINE_STATE_FLAG_TOOL_DEBUG.0;
    if d.flags & !valid_flags != 0 {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_FLAGS,
            format!("Flags {:#x} has bits no pipeline flag defines", d.flags),
        ));
    }
    let nodes = if l.node_count >= 32 { u32::MAX } else { (1u32 << l.node_count) - 1 };
    if d.node_mask & !nodes != 0 {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_INVALID_NODE_INDEX,
            format!("NodeMask {:#x} names a node the device does not have", d.node_mask),
        ));
    }
    let shaders = parse_shaders(d, l)?;
    let has = |s: Slot| d.shader(s).is_some();
    match d.kind {
        PipelineKind::Compute => {
            if !has(Slot::Cs) {
                return Err(gp(sys::D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_INVALID_SHADER, "CS is not set"));
            }
        }
        PipelineKind::Mesh => {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEMESHSHADER_INVALIDSHADERBYTECODE,
                "mesh and amplification shaders are not supported (OPTIONS7.MeshShaderTier is NOT_SUPPORTED)",
            ))
        }
        PipelineKind::Graphics => {
            if !has(Slot::Vs) {
                return Err(gp(
                    sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_VERTEX_SHADER_NOT_SET,
                    "VS is not set",
                ));
            }
            if has(Slot::Hs) != has(Slot::Ds) {
                return Err(gp(
                    sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH,
                    "a hull shader needs a domain shader and the other way round",
                ));
            }
        }
    }
    let root_signature = effective_root_signature(d, &shaders, l)?;
    check_bindings(&shaders, &root_signature)?;
    let mut desc = d.clone();
    desc.cached_blob = None;
    if d.kind == PipelineKind::Graphics {
        graphics::validate(d, &shaders, &root_signature, l)?;
        if d.dsv_format != 0 && !graphics::has_depth_stencil(d.dsv_format) {
            // A colour DSVFormat, which Windows accepts: the depth-stencil state is ignored.
            desc.depth_stencil.depth_enable = false;
            desc.depth_stencil.stencil_enable = false;
        }
    } else {
        // Graphics-only state means nothing to a compute pipeline: normalise it away so that
        // equivalent descriptions encode identically.
        let keep = PipelineDesc::new(PipelineKind::Compute);
        desc = PipelineDesc {
            root_signature: desc.root_signature,
            shaders: desc.shaders,
            node_mask: desc.node_mask,
            flags: desc.flags,
            ..keep
        };
    }
    desc.node_mask = desc.node_mask.max(1);
    let canonical = cache::encode(&desc);
    Ok(Pipeline { desc, shaders, root_signature, canonical })
}

mod graphics;

#[cfg(test)]
mod tests;
