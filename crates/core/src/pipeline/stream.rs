//! D3D12_PIPELINE_STATE_STREAM_DESC: a byte stream of subobjects.
//!
//! Each subobject is laid out as d3dx12's `CD3DX12_PIPELINE_STATE_STREAM_SUBOBJECT` defines
//! it: a `D3D12_PIPELINE_STATE_SUBOBJECT_TYPE` (u32), then the subobject's struct at its
//! natural alignment, the whole aligned to `void*` (8 bytes). So a subobject starts at an
//! 8-byte boundary; its struct starts at offset 4 when the struct holds only 32-bit fields and
//! at offset 8 when it holds a pointer; the next subobject starts at the following 8-byte
//! boundary. The stream's last subobject may end without that padding.
//!
//! Every type of the 1.606 headers is accepted (0–22, 24–26); 23 and anything from 27 on is
//! unknown. A type may appear once (DEPTH_STENCIL, DEPTH_STENCIL1 and DEPTH_STENCIL2 count as
//! one state). Missing subobjects take d3dx12's defaults (the `Default` impls of the model); a
//! missing PRIMITIVE_TOPOLOGY is TRIANGLE, as on Windows.
//!
//! The pipeline kind follows the shader that only one kind has, as the D3D12_PIPELINE_STATE_
//! STREAM_DESC page says ("by which subobject type, out of VS, CS, and MS, is found"): VS →
//! graphics, CS → compute, MS (or AS) → mesh. Two of them in one stream fail; none at all cannot
//! be deduced. The other shaders of a graphics pipeline (HS, DS, GS, PS) next to a CS are
//! ignored with the rest of the graphics state: the pipeline is a compute pipeline. A shader
//! subobject with a zero length is no shader (d3dx12's stream helpers write every slot).

use rd3d12_sys as sys;
use rd3d12_sys::*;

use super::{
    blend, cached_pso, depth_stencil, depth_stencil1, depth_stencil2, input_layout, rasterizer, root_signature,
    shader_bytecode, stream_output, view_instancing, PipelineDesc, PipelineKind, PsoError, Resolver, Slot, R,
};

/// Reads the fields of a C struct from its bytes, mirroring the C layout's padding.
struct Rd<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Rd<'a> {
    fn new(b: &'a [u8]) -> Self {
        Rd { b, at: 0 }
    }
    fn align(&mut self, n: usize) {
        self.at = self.at.next_multiple_of(n);
    }
    fn u8(&mut self) -> u8 {
        let v = self.b.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        v
    }
    fn u32(&mut self) -> u32 {
        self.align(4);
        let v = super::rd_u32(self.b, self.at);
        self.at += 4;
        v
    }
    fn u64(&mut self) -> u64 {
        self.align(8);
        let v = super::rd_u64(self.b, self.at);
        self.at += 8;
        v
    }
    fn f32(&mut self) -> f32 {
        f32::from_bits(self.u32())
    }
    fn ptr<T>(&mut self) -> *const T {
        self.u64() as usize as *const T
    }
}

fn shader(b: &[u8]) -> D3D12_SHADER_BYTECODE {
    let mut r = Rd::new(b);
    D3D12_SHADER_BYTECODE { pShaderBytecode: r.ptr(), BytecodeLength: r.u64() as usize }
}

fn so_desc(b: &[u8]) -> D3D12_STREAM_OUTPUT_DESC {
    let mut r = Rd::new(b);
    D3D12_STREAM_OUTPUT_DESC {
        pSODeclaration: r.ptr(),
        NumEntries: r.u32(),
        pBufferStrides: r.ptr(),
        NumStrides: r.u32(),
        RasterizedStream: r.u32(),
    }
}

fn blend_desc(b: &[u8]) -> D3D12_BLEND_DESC {
    let mut r = Rd::new(b);
    let mut d =
        D3D12_BLEND_DESC { AlphaToCoverageEnable: r.u32(), IndependentBlendEnable: r.u32(), ..Default::default() };
    for t in d.RenderTarget.iter_mut() {
        t.BlendEnable = r.u32();
        t.LogicOpEnable = r.u32();
        t.SrcBlend = D3D12_BLEND(r.u32());
        t.DestBlend = D3D12_BLEND(r.u32());
        t.BlendOp = D3D12_BLEND_OP(r.u32());
        t.SrcBlendAlpha = D3D12_BLEND(r.u32());
        t.DestBlendAlpha = D3D12_BLEND(r.u32());
        t.BlendOpAlpha = D3D12_BLEND_OP(r.u32());
        t.LogicOp = D3D12_LOGIC_OP(r.u32());
        t.RenderTargetWriteMask = r.u8();
        r.align(4);
    }
    d
}

fn rasterizer_desc(b: &[u8]) -> D3D12_RASTERIZER_DESC {
    let mut r = Rd::new(b);
    D3D12_RASTERIZER_DESC {
        FillMode: D3D12_FILL_MODE(r.u32()),
        CullMode: D3D12_CULL_MODE(r.u32()),
        FrontCounterClockwise: r.u32(),
        DepthBias: r.u32() as i32,
        DepthBiasClamp: r.f32(),
        SlopeScaledDepthBias: r.f32(),
        DepthClipEnable: r.u32(),
        MultisampleEnable: r.u32(),
        AntialiasedLineEnable: r.u32(),
        ForcedSampleCount: r.u32(),
        ConservativeRaster: D3D12_CONSERVATIVE_RASTERIZATION_MODE(r.u32()),
    }
}

fn stencil_op(r: &mut Rd) -> D3D12_DEPTH_STENCILOP_DESC {
    D3D12_DEPTH_STENCILOP_DESC {
        StencilFailOp: D3D12_STENCIL_OP(r.u32()),
        StencilDepthFailOp: D3D12_STENCIL_OP(r.u32()),
        StencilPassOp: D3D12_STENCIL_OP(r.u32()),
        StencilFunc: D3D12_COMPARISON_FUNC(r.u32()),
    }
}

/// The fields DEPTH_STENCIL and DEPTH_STENCIL1 share, in their order.
fn ds_common(r: &mut Rd) -> (BOOL, u32, u32, BOOL, u8, u8, D3D12_DEPTH_STENCILOP_DESC, D3D12_DEPTH_STENCILOP_DESC) {
    let (e, w, f, s) = (r.u32(), r.u32(), r.u32(), r.u32());
    let (rm, wm) = (r.u8(), r.u8());
    (e, w, f, s, rm, wm, stencil_op(r), stencil_op(r))
}

fn ds_desc(b: &[u8]) -> D3D12_DEPTH_STENCIL_DESC {
    let (e, w, f, s, rm, wm, front, back) = ds_common(&mut Rd::new(b));
    D3D12_DEPTH_STENCIL_DESC {
        DepthEnable: e,
        DepthWriteMask: D3D12_DEPTH_WRITE_MASK(w),
        DepthFunc: D3D12_COMPARISON_FUNC(f),
        StencilEnable: s,
        StencilReadMask: rm,
        StencilWriteMask: wm,
        FrontFace: front,
        BackFace: back,
    }
}

fn ds1_desc(b: &[u8]) -> D3D12_DEPTH_STENCIL_DESC1 {
    let mut r = Rd::new(b);
    let (e, w, f, s, rm, wm, front, back) = ds_common(&mut r);
    D3D12_DEPTH_STENCIL_DESC1 {
        DepthEnable: e,
        DepthWriteMask: D3D12_DEPTH_WRITE_MASK(w),
        DepthFunc: D3D12_COMPARISON_FUNC(f),
        StencilEnable: s,
        StencilReadMask: rm,
        StencilWriteMask: wm,
        FrontFace: front,
        BackFace: back,
        DepthBoundsTestEnable: r.u32(),
    }
}

fn ds2_desc(b: &[u8]) -> D3D12_DEPTH_STENCIL_DESC2 {
    let mut r = Rd::new(b);
    let (e, w, f, s) = (r.u32(), r.u32(), r.u32(), r.u32());
    let face = |r: &mut Rd| {
        let op = stencil_op(r);
        let (rm, wm) = (r.u8(), r.u8());
        D3D12_DEPTH_STENCILOP_DESC1 {
            StencilFailOp: op.StencilFailOp,
            StencilDepthFailOp: op.StencilDepthFailOp,
            StencilPassOp: op.StencilPassOp,
            StencilFunc: op.StencilFunc,
            StencilReadMask: rm,
            StencilWriteMask: wm,
        }
    };
    let front = face(&mut r);
    let back = face(&mut r);
    D3D12_DEPTH_STENCIL_DESC2 {
        DepthEnable: e,
        DepthWriteMask: D3D12_DEPTH_WRITE_MASK(w),
        DepthFunc: D3D12_COMPARISON_FUNC(f),
        StencilEnable: s,
        FrontFace: front,
        BackFace: back,
        DepthBoundsTestEnable: r.u32(),
    }
}

fn cached(b: &[u8]) -> D3D12_CACHED_PIPELINE_STATE {
    let mut r = Rd::new(b);
    D3D12_CACHED_PIPELINE_STATE { pCachedBlob: r.ptr(), CachedBlobSizeInBytes: r.u64() as usize }
}

fn view_inst(b: &[u8]) -> D3D12_VIEW_INSTANCING_DESC {
    let mut r = Rd::new(b);
    D3D12_VIEW_INSTANCING_DESC {
        ViewInstanceCount: r.u32(),
        pViewInstanceLocations: r.ptr(),
        Flags: D3D12_VIEW_INSTANCING_FLAGS(r.u32()),
    }
}

/// (alignment, size) of a subobject type's struct; `None` for a type the headers do not define.
pub fn subobject_layout(ty: u32) -> Option<(usize, usize)> {
    macro_rules! l {
        ($t:ty) => {
            (align_of::<$t>(), size_of::<$t>())
        };
    }
    Some(match D3D12_PIPELINE_STATE_SUBOBJECT_TYPE(ty) {
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE => l!(*mut ID3D12RootSignature),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS
        | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS => l!(D3D12_SHADER_BYTECODE),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT => l!(D3D12_STREAM_OUTPUT_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND => l!(D3D12_BLEND_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK => l!(UINT),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER => l!(D3D12_RASTERIZER_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL => l!(D3D12_DEPTH_STENCIL_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT => l!(D3D12_INPUT_LAYOUT_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE => l!(D3D12_INDEX_BUFFER_STRIP_CUT_VALUE),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY => l!(D3D12_PRIMITIVE_TOPOLOGY_TYPE),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS => l!(D3D12_RT_FORMAT_ARRAY),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT => l!(DXGI_FORMAT),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC => l!(DXGI_SAMPLE_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK => l!(D3D12_NODE_MASK),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO => l!(D3D12_CACHED_PIPELINE_STATE),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS => l!(D3D12_PIPELINE_STATE_FLAGS),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1 => l!(D3D12_DEPTH_STENCIL_DESC1),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING => l!(D3D12_VIEW_INSTANCING_DESC),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2 => l!(D3D12_DEPTH_STENCIL_DESC2),
        _ => return None,
    })
}

/// The duplicate-detection group of a type: the three depth-stencil versions share one.
fn group(ty: u32) -> u32 {
    match D3D12_PIPELINE_STATE_SUBOBJECT_TYPE(ty) {
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1 | D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2 => {
            D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL.0
        }
        _ => ty,
    }
}

fn stream_err(id: D3D12_MESSAGE_ID, m: impl Into<String>) -> PsoError {
    PsoError::invalid(id, m)
}

/// Parses a pipeline state stream into a description (not yet validated).
pub fn from_stream(stream: &[u8], r: &dyn Resolver) -> R<PipelineDesc> {
    use sys::{
        D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CANNOT_DEDUCE_TYPE as DEDUCE,
        D3D12_MESSAGE_ID_CREATEPIPELINESTATE_DUPLICATE_SUBOBJECT as DUP,
        D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM as INVALID,
        D3D12_MESSAGE_ID_CREATEPIPELINESTATE_UNKNOWN_SUBOBJECT as UNKNOWN,
        D3D12_MESSAGE_ID_CREATEPIPELINESTATE_ZERO_SIZE_STREAM as ZERO,
    };
    if stream.is_empty() {
        return Err(stream_err(ZERO, "SizeInBytes is 0"));
    }
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.topology_type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE.0;
    let mut seen: Vec<u32> = Vec::new();
    let mut at = 0usize;
    while at < stream.len() {
        if at + 4 > stream.len() {
            return Err(stream_err(INVALID, format!("the stream ends inside the subobject type at byte {at}")));
        }
        let ty = super::rd_u32(stream, at);
        let (align, size) = subobject_layout(ty)
            .ok_or_else(|| stream_err(UNKNOWN, format!("unknown subobject type {ty} at byte {at}")))?;
        let inner = (at + 4).next_multiple_of(align);
        let end = inner + size;
        if end > stream.len() {
            return Err(stream_err(INVALID, format!("subobject type {ty} at byte {at} runs past SizeInBytes")));
        }
        if seen.contains(&group(ty)) {
            return Err(stream_err(DUP, format!("subobject type {ty} appears more than once")));
        }
        seen.push(group(ty));
        apply(&mut p, ty, &stream[inner..end], r)?;
        at = end.next_multiple_of(8);
    }
    let has = |s: Slot| p.shader(s).is_some();
    let (vs, cs, mesh) = (has(Slot::Vs), has(Slot::Cs), has(Slot::As) || has(Slot::Ms));
    p.kind = match (vs, cs, mesh) {
        (true, false, false) => PipelineKind::Graphics,
        (false, true, false) => PipelineKind::Compute,
        (false, false, true) => PipelineKind::Mesh,
        (false, false, false) if p.shaders.is_empty() => {
            return Err(stream_err(DEDUCE, "the stream holds no shader, so its pipeline type cannot be deduced"))
        }
        // HS, DS, GS or PS without a VS: a graphics pipeline that lacks its vertex shader.
        (false, false, false) => PipelineKind::Graphics,
        _ => {
            return Err(stream_err(
                INVALID,
                "the stream holds shaders of two pipeline types (VS for graphics, CS for compute, AS/MS for mesh)",
            ))
        }
    };
    if p.kind == PipelineKind::Compute {
        p.shaders.retain(|(s, _)| *s == Slot::Cs);
    }
    Ok(p)
}

fn apply(p: &mut PipelineDesc, ty: u32, b: &[u8], r: &dyn Resolver) -> R<()> {
    let slot = |s: Slot, p: &mut PipelineDesc| -> R<()> {
        p.set_shader(s, shader_bytecode(&shader(b), s, r)?);
        Ok(())
    };
    let u = |i: usize| super::rd_u32(b, i);
    match D3D12_PIPELINE_STATE_SUBOBJECT_TYPE(ty) {
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE => {
            p.root_signature = root_signature(super::rd_u64(b, 0), r)?
        }
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS => slot(Slot::Vs, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS => slot(Slot::Ps, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS => slot(Slot::Ds, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS => slot(Slot::Hs, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS => slot(Slot::Gs, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS => slot(Slot::Cs, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS => slot(Slot::As, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS => slot(Slot::Ms, p)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT => p.stream_output = stream_output(&so_desc(b), r)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND => p.blend = blend(&blend_desc(b)),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK => p.sample_mask = u(0),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER => p.rasterizer = rasterizer(&rasterizer_desc(b)),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL => p.depth_stencil = depth_stencil(&ds_desc(b)),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1 => p.depth_stencil = depth_stencil1(&ds1_desc(b)),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2 => p.depth_stencil = depth_stencil2(&ds2_desc(b)),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT => {
            p.input_layout = input_layout(super::rd_u64(b, 0), u(8), r)?
        }
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE => p.ib_strip_cut = u(0),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY => p.topology_type = u(0),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS => {
            for (i, f) in p.rtv_formats.iter_mut().enumerate() {
                *f = u(4 * i);
            }
            p.num_render_targets = u(32);
        }
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT => p.dsv_format = u(0),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC => (p.sample_count, p.sample_quality) = (u(0), u(4)),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK => p.node_mask = u(0),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO => p.cached_blob = cached_pso(&cached(b), r)?,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS => p.flags = u(0),
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING => p.view_instancing = view_instancing(&view_inst(b), r)?,
        _ => unreachable!("subobject_layout filtered unknown types"),
    }
    Ok(())
}

// ---- a writer, for tests ------------------------------------------------------------------------

/// Builds a stream the way a C program's `alignas(void*)` subobject structs lay it out.
#[derive(Debug, Default, Clone)]
pub struct StreamWriter {
    /// The bytes so far.
    pub bytes: Vec<u8>,
}

impl StreamWriter {
    /// An empty stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends a subobject whose struct bytes are `inner` (laid out per `subobject_layout`).
    /// Unknown types are written with an 8-byte-aligned struct.
    pub fn raw(mut self, ty: u32, inner: &[u8]) -> Self {
        let align = subobject_layout(ty).map_or(4, |l| l.0);
        let start = self.bytes.len().next_multiple_of(8);
        self.bytes.resize(start, 0);
        self.bytes.extend_from_slice(&ty.to_le_bytes());
        let inner_at = self.bytes.len().next_multiple_of(align);
        self.bytes.resize(inner_at, 0);
        self.bytes.extend_from_slice(inner);
        let end = self.bytes.len().next_multiple_of(8);
        self.bytes.resize(end, 0);
        self
    }

    /// Appends a subobject made of 32-bit words.
    pub fn words(self, ty: u32, w: &[u32]) -> Self {
        let b: Vec<u8> = w.iter().flat_map(|x| x.to_le_bytes()).collect();
        self.raw(ty, &b)
    }

    /// Appends a subobject made of a pointer-sized address and a size (shader bytecode, cached
    /// PSO, input layout).
    pub fn addr_len(self, ty: u32, addr: u64, len: u64) -> Self {
        let mut b = addr.to_le_bytes().to_vec();
        b.extend_from_slice(&len.to_le_bytes());
        self.raw(ty, &b)
    }
}
