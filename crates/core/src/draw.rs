//! One draw through D3D12's graphics pipeline in software: vertex shading of the assembled
//! primitives (DXIL through [`crate::dxil::exec`]), rasterization ([`crate::raster`]), pixel
//! shading in 2x2 quads, and the output merger ([`crate::output_merger`]) into render-target
//! and depth bytes. Pure logic: the runtime resolves the D3D12 bindings (root signature,
//! descriptor heaps, views, GPU virtual addresses) into the [`Bindings`] and [`Target`]s given
//! here.
//!
//! Linkage follows D3D12: input-layout elements feed the vertex shader's input signature by
//! semantic name (case-insensitive) and index; vertex-shader outputs feed pixel-shader inputs the
//! same way; SV_Position carries the clip-space position; SV_Target n goes to render target n;
//! SV_Depth replaces the interpolated depth. Pixel inputs are interpolated perspective-correctly
//! unless their interpolation mode is constant (the leading vertex's value) or noperspective.
//!
//! Today: triangle topologies (points and lines are not drawn), one viewport and scissor,
//! depth buffers of D32_FLOAT, single-sampled targets.

use crate::dxil::exec::{self, Env, ExecError, SampleMode, Val};
use crate::dxil::{EntryPoint, Function, Module, SignatureElement};
use crate::input_assembler::{self, Primitive, VertexBuffer};
use crate::output_merger::{self as om, BlendInputs, Range};
use crate::pipeline::{InputElement, PipelineDesc};
use crate::raster::{self, Cull, Rect, TriangleState, Viewport};
use rd3d12_sys as sys;
use std::collections::HashMap;

/// DXIL semantic kinds used here (DXIL.rst "Semantic Kind").
const SV_VERTEX_ID: u32 = 1;
const SV_INSTANCE_ID: u32 = 2;
const SV_POSITION: u32 = 3;
const SV_PRIMITIVE_ID: u32 = 10;
const SV_IS_FRONT_FACE: u32 = 13;
const SV_TARGET: u32 = 16;
const SV_DEPTH: u32 = 17;
/// DXIL interpolation modes.
const INTERP_CONSTANT: u32 = 1;
const INTERP_NOPERSPECTIVE: u32 = 4;
const INTERP_NOPERSPECTIVE_CENTROID: u32 = 5;
const INTERP_NOPERSPECTIVE_SAMPLE: u32 = 7;

/// A shader ready to run: its module, entry function and signatures.
pub struct Shader<'a> {
    /// The module.
    pub module: &'a Module,
    /// Its entry point (function and signatures).
    pub entry: &'a EntryPoint,
}

impl Shader<'_> {
    fn function(&self) -> Result<&Function, DrawError> {
        self.module.functions.get(self.entry.function).ok_or(DrawError::Shader(ExecError::Malformed("entry".into())))
    }
}

/// Resource class of a binding, as DXIL's `createHandle` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// Shader resource view.
    Srv,
    /// Unordered access view.
    Uav,
    /// Constant buffer view.
    Cbv,
    /// Sampler.
    Sampler,
}

/// What the bound resources answer, by (class, register space, register).
pub trait Bindings {
    /// Row `row` (16 bytes) of the constant buffer at (space, register).
    fn cbuffer_row(&self, space: u32, register: u32, row: u32) -> [u32; 4];
    /// A filtered sample of the SRV at `texture` with the sampler at `sampler`.
    fn sample(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 4],
        offset: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> [f32; 4];
    /// A texel of the SRV (TextureLoad), as four 32-bit lanes.
    fn load(&self, texture: (u32, u32), mip: u32, coords: [i32; 3]) -> [u32; 4];
    /// TextureLoad of an SRV or a UAV texture (UAVs have no mips: `mip` is 0). The default
    /// reads SRVs through [`Bindings::load`] and UAVs as 0.
    fn texture_load(&self, class: Class, texture: (u32, u32), mip: u32, coords: [i32; 3]) -> [u32; 4] {
        match class {
            Class::Srv => self.load(texture, mip, coords),
            _ => [0; 4],
        }
    }
    /// TextureStore into a UAV texture: the components of `mask`, as 32-bit lanes.
    fn texture_store(&self, _uav: (u32, u32), _coords: [i32; 3], _value: [u32; 4], _mask: u8) {}
    /// BufferLoad / RawBufferLoad of an SRV or UAV buffer: a typed buffer's element `index`; a
    /// raw buffer's four words from byte `index`; a structured buffer's four words from byte
    /// `offset` of element `index`. `stride` is the element stride the shader declares for a
    /// structured buffer (0 for raw and typed ones), for buffers bound without a view (root
    /// SRVs and UAVs). Out of range reads 0.
    fn buffer_load(&self, _class: Class, _buffer: (u32, u32), _stride: u32, _index: u32, _offset: u32) -> [u32; 4] {
        [0; 4]
    }
    /// BufferStore / RawBufferStore into a UAV buffer, addressed as [`Bindings::buffer_load`];
    /// out of range writes nothing.
    fn buffer_store(&self, _uav: (u32, u32), _stride: u32, _index: u32, _offset: u32, _value: [u32; 4], _mask: u8) {}
    /// GetDimensions: width, height, depth or array size, mip count (buffers: element count).
    fn dimensions(&self, _class: Class, _resource: (u32, u32), _mip: u32) -> [u32; 4] {
        [0; 4]
    }
    /// AtomicBinOp on a UAV (op: 0 ADD, 1 AND, 2 OR, 3 XOR, 4 IMIN, 5 IMAX, 6 UMIN, 7 UMAX,
    /// 8 EXCHANGE) at texel coordinates or, for buffers, (index, byte offset); returns the
    /// previous value.
    fn atomic(&self, _uav: (u32, u32), _op: u32, _coords: [i32; 3], _value: u32) -> u32 {
        0
    }
    /// AtomicCompareExchange on a UAV; returns the previous value.
    fn atomic_cmpxchg(&self, _uav: (u32, u32), _coords: [i32; 3], _cmp: u32, _new: u32) -> u32 {
        0
    }
}

/// The Env methods that reach resources, forwarded to [`Bindings`] through a [`Handles`]
/// table; every shader stage's Env has `handles` and `bindings` fields.
macro_rules! resource_ops {
    () => {
        fn texture_load(&mut self, t: u32, mip: u32, c: [i32; 3], o: [i32; 3]) -> Result<[u32; 4], ExecError> {
            let (class, reg) = self.handles.binding(t)?;
            let at = [c[0].wrapping_add(o[0]), c[1].wrapping_add(o[1]), c[2].wrapping_add(o[2])];
            Ok(self.bindings.texture_load(class, reg, mip, at))
        }
        fn texture_store(&mut self, t: u32, c: [i32; 3], v: [u32; 4], mask: u8) -> Result<(), ExecError> {
            let reg = self.handles.uav(t)?;
            self.bindings.texture_store(reg, c, v, mask);
            Ok(())
        }
        fn buffer_load(&mut self, b: u32, index: u32, offset: u32) -> Result<[u32; 4], ExecError> {
            let (class, reg) = self.handles.binding(b)?;
            Ok(self.bindings.buffer_load(class, reg, self.handles.stride(b), index, offset))
        }
        fn buffer_store(&mut self, b: u32, index: u32, offset: u32, v: [u32; 4], mask: u8) -> Result<(), ExecError> {
            let reg = self.handles.uav(b)?;
            self.bindings.buffer_store(reg, self.handles.stride(b), index, offset, v, mask);
            Ok(())
        }
        fn dimensions(&mut self, r: u32, mip: u32) -> Result<[u32; 4], ExecError> {
            let (class, reg) = self.handles.binding(r)?;
            Ok(self.bindings.dimensions(class, reg, mip))
        }
        fn atomic(&mut self, r: u32, op: u32, c: [i32; 3], v: u32) -> Result<u32, ExecError> {
            let reg = self.handles.uav(r)?;
            Ok(self.bindings.atomic(reg, op, c, v))
        }
        fn atomic_cmpxchg(&mut self, r: u32, c: [i32; 3], cmp: u32, new: u32) -> Result<u32, ExecError> {
            let reg = self.handles.uav(r)?;
            Ok(self.bindings.atomic_cmpxchg(reg, c, cmp, new))
        }
    };
}
pub(crate) use resource_ops;

/// A render target or depth buffer: the bytes of one subresource.
pub struct Target<'a> {
    /// The subresource's bytes from its first row.
    pub data: &'a mut [u8],
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The view's format.
    pub format: sys::DXGI_FORMAT,
}

impl Target<'_> {
    fn element(&mut self, x: i32, y: i32) -> Option<&mut [u8]> {
        let size = crate::format::info(self.format)?.bytes_per_element() as usize;
        let at = y as usize * self.row_pitch + x as usize * size;
        self.data.get_mut(at..at + size)
    }
}

/// Why a draw stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawError {
    /// A shader could not run.
    Shader(ExecError),
    /// A state the software pipeline does not draw yet.
    Unsupported(&'static str),
}

impl From<ExecError> for DrawError {
    fn from(e: ExecError) -> Self {
        DrawError::Shader(e)
    }
}

/// Everything one draw needs besides the bindings.
pub struct DrawCall<'a> {
    /// The vertex shader.
    pub vs: Shader<'a>,
    /// The pixel shader, if any.
    pub ps: Option<Shader<'a>>,
    /// The pipeline's fixed-function states and input layout.
    pub pipeline: &'a PipelineDesc,
    /// IASetPrimitiveTopology.
    pub topology: input_assembler::Topology,
    /// Vertex numbers in draw order (indices plus base vertex, or consecutive numbers).
    pub vertices: Vec<u32>,
    /// The strip cut value of an indexed draw.
    pub cut: Option<u32>,
    /// InstanceCount.
    pub instances: u32,
    /// StartInstanceLocation.
    pub start_instance: u32,
    /// The bound vertex buffers by slot.
    pub vertex_buffers: Vec<Option<VertexBuffer<'a>>>,
    /// Viewport 0.
    pub viewport: Viewport,
    /// Scissor rectangle 0 (None: the whole viewport).
    pub scissor: Option<Rect>,
    /// OMSetBlendFactor.
    pub blend_factor: [f32; 4],
    /// OMSetStencilRef.
    pub stencil_ref: u8,
}

/// Counts of what a draw did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Vertex shader invocations.
    pub vertices_shaded: u64,
    /// Primitives assembled.
    pub primitives: u64,
    /// Pixel shader invocations that were not helpers and not discarded.
    pub pixels_shaded: u64,
    /// Pixels that reached a render target.
    pub pixels_written: u64,
    /// Samples that passed the depth and stencil tests (all covered samples without a depth
    /// buffer): what an occlusion query counts.
    pub samples_passed: u64,
}

/// The handle numbers the draw's shaders create: (class, space, register).
#[derive(Default)]
pub(crate) struct Handles {
    list: Vec<(Class, u32, u32)>,
    /// The structured-buffer stride the shader declares for each handle (0 for none).
    strides: Vec<u32>,
}

impl Handles {
    /// The declared structured stride of a handle's resource (0: raw, typed or not a buffer).
    pub(crate) fn stride(&self, h: u32) -> u32 {
        self.strides.get(h as usize).copied().unwrap_or(0)
    }

    /// The class and (space, register) of a handle.
    pub(crate) fn binding(&self, h: u32) -> Result<(Class, (u32, u32)), ExecError> {
        match self.list.get(h as usize) {
            Some((c, space, reg)) => Ok((*c, (*space, *reg))),
            None => Err(ExecError::Malformed("a resource handle that was not created".into())),
        }
    }

    /// The (space, register) of a UAV handle.
    pub(crate) fn uav(&self, h: u32) -> Result<(u32, u32), ExecError> {
        match self.binding(h)? {
            (Class::Uav, reg) => Ok(reg),
            _ => Err(ExecError::Malformed("a write to a resource that is not a UAV".into())),
        }
    }

    pub(crate) fn create(
        &mut self,
        module_resources: &[crate::dxil::metadata::Resource],
        class: u8,
        range: u32,
        index: u32,
    ) -> Result<u32, ExecError> {
        use crate::dxil::metadata::ResourceClass as R;
        let (want, c) = match class {
            0 => (R::Srv, Class::Srv),
            1 => (R::Uav, Class::Uav),
            2 => (R::Cbv, Class::Cbv),
            3 => (R::Sampler, Class::Sampler),
            _ => return Err(ExecError::Malformed(format!("resource class {class}"))),
        };
        let r = module_resources
            .iter()
            .find(|r| r.class == want && r.id == range)
            .ok_or_else(|| ExecError::Malformed(format!("no resource range {range} of class {class}")))?;
        // `index` is the register itself (DXIL's createHandle takes the absolute index).
        let key = (c, r.space, index.max(r.lower_bound));
        if let Some(i) = self.list.iter().position(|k| *k == key) {
            return Ok(i as u32);
        }
        self.list.push(key);
        self.strides.push(r.stride);
        Ok(self.list.len() as u32 - 1)
    }
}

/// The vertex shader's view of one vertex.
struct VsEnv<'b, 'a> {
    inputs: &'b [SignatureElement],
    /// Input-layout element feeding each input signature element (by id), with its lanes.
    attrs: &'b [Option<[u32; 4]>],
    vertex_id: u32,
    instance_id: u32,
    outputs: HashMap<(u32, u32), [Val; 4]>,
    handles: &'b mut Handles,
    resources: &'b [crate::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
    _a: std::marker::PhantomData<&'a ()>,
}

fn lane_val(bits: u32, component_type: u32) -> Val {
    // DXIL component types: 1 I1, 2 I16, 3 U16, 4 I32, 5 U32, 6 I64, 7 U64, 8 F16, 9 F32, 10 F64.
    match component_type {
        8 | 9 => Val::F32(f32::from_bits(bits)),
        _ => Val::Int(u64::from(bits)),
    }
}

fn common_cbuffer(handles: &Handles, bindings: &dyn Bindings, h: u32, row: u32) -> Result<[u32; 4], ExecError> {
    match handles.list.get(h as usize) {
        Some((Class::Cbv, space, reg)) => Ok(bindings.cbuffer_row(*space, *reg, row)),
        _ => Err(ExecError::Malformed("cbufferLoadLegacy on a handle that is not a CBV".into())),
    }
}

#[allow(clippy::too_many_arguments)] // the Env::sample arguments plus the two tables
fn common_sample(
    handles: &Handles,
    bindings: &dyn Bindings,
    t: u32,
    s: u32,
    coords: [f32; 4],
    offset: [i32; 3],
    mode: SampleMode,
    compare: Option<f32>,
) -> Result<[f32; 4], ExecError> {
    match (handles.list.get(t as usize), handles.list.get(s as usize)) {
        (Some((Class::Srv, ts, tr)), Some((Class::Sampler, ss, sr))) => {
            Ok(bindings.sample((*ts, *tr), (*ss, *sr), coords, offset, mode, compare))
        }
        _ => Err(ExecError::Malformed("sample without an SRV and a sampler".into())),
    }
}

impl Env for VsEnv<'_, '_> {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, _vertex: Option<u32>) -> Result<Val, ExecError> {
        let e =
            self.inputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("input signature".into()))?;
        Ok(match e.semantic_kind {
            SV_VERTEX_ID => Val::Int(u64::from(self.vertex_id)),
            SV_INSTANCE_ID => Val::Int(u64::from(self.instance_id)),
            _ => {
                let lanes = self.attrs.get((sig + row) as usize).copied().flatten().unwrap_or([0, 0, 0, 0]);
                lane_val(lanes[col as usize & 3], e.component_type)
            }
        })
    }
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> Result<(), ExecError> {
        let slot = self
            .outputs
            .entry((sig, row))
            .or_insert_with(|| [Val::F32(0.0), Val::F32(0.0), Val::F32(0.0), Val::F32(0.0)]);
        slot[col as usize & 3] = value.clone();
        Ok(())
    }
    fn create_handle(&mut self, class: u8, range: u32, index: u32) -> Result<u32, ExecError> {
        self.handles.create(self.resources, class, range, index)
    }
    fn cbuffer_row(&mut self, handle: u32, row: u32) -> Result<[u32; 4], ExecError> {
        common_cbuffer(self.handles, self.bindings, handle, row)
    }
    fn sample(
        &mut self,
        t: u32,
        s: u32,
        c: [f32; 4],
        o: [i32; 3],
        m: SampleMode,
        cmp: Option<f32>,
    ) -> Result<[f32; 4], ExecError> {
        common_sample(self.handles, self.bindings, t, s, c, o, m, cmp)
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        Err(ExecError::Malformed("discard outside a pixel shader".into()))
    }
    resource_ops!();
}

/// A shaded vertex: outputs by (signature id, row).
#[derive(Clone)]
struct ShadedVertex {
    clip: [f32; 4],
    outputs: HashMap<(u32, u32), [Val; 4]>,
}

/// For each PS input (signature id, row): the values at the three vertices, and the
/// interpolation mode.
type Varyings = HashMap<(u32, u32), ([[f32; 4]; 3], u32)>;

/// The pixel shader's view of one pixel of a quad.
struct PsEnv<'b> {
    inputs: &'b [SignatureElement],
    /// For each PS input (by id and row): the values at the three vertices, and the mode.
    varyings: &'b Varyings,
    persp: [f32; 3],
    linear: [f32; 3],
    position: [f32; 4],
    front: bool,
    primitive_id: u32,
    helper: bool,
    discarded: bool,
    targets: [Option<[Val; 4]>; 8],
    depth: Option<f32>,
    handles: &'b mut Handles,
    resources: &'b [crate::dxil::metadata::Resource],
    outputs: &'b [SignatureElement],
    bindings: &'b dyn Bindings,
}

impl Env for PsEnv<'_> {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, _vertex: Option<u32>) -> Result<Val, ExecError> {
        let e =
            self.inputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("input signature".into()))?;
        let c = col as usize & 3;
        Ok(match e.semantic_kind {
            SV_POSITION => Val::F32(self.position[c]),
            SV_IS_FRONT_FACE => Val::Int(u64::from(self.front)),
            SV_PRIMITIVE_ID => Val::Int(u64::from(self.primitive_id)),
            _ => match self.varyings.get(&(sig, row)) {
                Some((v, mode)) => {
                    let w = match *mode {
                        INTERP_CONSTANT => [1.0, 0.0, 0.0],
                        INTERP_NOPERSPECTIVE | INTERP_NOPERSPECTIVE_CENTROID | INTERP_NOPERSPECTIVE_SAMPLE => {
                            self.linear
                        }
                        _ => self.persp,
                    };
                    let x = w[0] * v[0][c] + w[1] * v[1][c] + w[2] * v[2][c];
                    if e.component_type == 9 || e.component_type == 8 || *mode != INTERP_CONSTANT {
                        Val::F32(x)
                    } else {
                        Val::Int(u64::from(v[0][c].to_bits()))
                    }
                }
                None => Val::F32(0.0),
            },
        })
    }
    fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> Result<(), ExecError> {
        let e =
            self.outputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("output signature".into()))?;
        match e.semantic_kind {
            SV_TARGET => {
                let n = e.semantic_indices.first().copied().unwrap_or(0) as usize;
                if let Some(t) = self.targets.get_mut(n) {
                    let slot = t.get_or_insert_with(|| [Val::F32(0.0), Val::F32(0.0), Val::F32(0.0), Val::F32(0.0)]);
                    slot[col as usize & 3] = value.clone();
                }
            }
            SV_DEPTH => {
                if let Val::F32(z) = value {
                    self.depth = Some(*z);
                }
            }
            _ => {}
        }
        Ok(())
    }
    fn create_handle(&mut self, class: u8, range: u32, index: u32) -> Result<u32, ExecError> {
        self.handles.create(self.resources, class, range, index)
    }
    fn cbuffer_row(&mut self, handle: u32, row: u32) -> Result<[u32; 4], ExecError> {
        common_cbuffer(self.handles, self.bindings, handle, row)
    }
    fn sample(
        &mut self,
        t: u32,
        s: u32,
        c: [f32; 4],
        o: [i32; 3],
        m: SampleMode,
        cmp: Option<f32>,
    ) -> Result<[f32; 4], ExecError> {
        common_sample(self.handles, self.bindings, t, s, c, o, m, cmp)
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        self.discarded = true;
        Ok(())
    }
    resource_ops!();
}

fn f32_of(v: &Val) -> f32 {
    match v {
        Val::F32(f) => *f,
        Val::F64(f) => *f as f32,
        Val::Int(i) => f32::from_bits(*i as u32),
        _ => 0.0,
    }
}

fn bits_of(v: &Val) -> u32 {
    match v {
        Val::F32(f) => f.to_bits(),
        Val::Int(i) => *i as u32,
        other => f32_of(other).to_bits(),
    }
}

/// The input-layout element feeding each input signature element row, by id (+ row).
fn link_inputs(layout: &[InputElement], sig: &[SignatureElement], fetched: &[[u32; 4]]) -> Vec<Option<[u32; 4]>> {
    let n = sig.iter().map(|e| (e.id + e.rows.max(1)) as usize).max().unwrap_or(0);
    let mut out = vec![None; n];
    for e in sig {
        for (r, &index) in e.semantic_indices.iter().enumerate() {
            let found = layout.iter().position(|l| {
                l.semantic_name.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(&e.name)) && l.semantic_index == index
            });
            if let (Some(i), Some(slot)) = (found, out.get_mut(e.id as usize + r)) {
                *slot = fetched.get(i).copied();
            }
        }
    }
    out
}

/// The RT value range for blending.
fn range_of(format: sys::DXGI_FORMAT) -> Range {
    let name = crate::format::info(format).map_or("", |i| i.name);
    if name.contains("SNORM") {
        Range::Snorm
    } else if name.contains("FLOAT") {
        Range::Float
    } else {
        Range::Unorm
    }
}

/// Runs one draw. Each stage reads its own bindings (root signature visibility); pixels go to
/// `targets[n]` (None: no RTV bound in slot n) and depth to `depth`; the pipeline's states
/// decide how.
pub fn draw(
    call: &DrawCall<'_>,
    vs_bindings: &dyn Bindings,
    ps_bindings: &dyn Bindings,
    targets: &mut [Option<Target<'_>>],
    mut depth: Option<&mut Target<'_>>,
) -> Result<DrawStats, DrawError> {
    let p = call.pipeline;
    if !matches!(
        call.topology,
        input_assembler::Topology::TriangleList
            | input_assembler::Topology::TriangleStrip
            | input_assembler::Topology::TriangleListAdj
            | input_assembler::Topology::TriangleStripAdj
    ) {
        return Err(DrawError::Unsupported("point and line topologies"));
    }
    if p.sample_count > 1 {
        return Err(DrawError::Unsupported("multisampled targets"));
    }
    let mut stats = DrawStats::default();
    let prims = input_assembler::primitives(call.topology, &call.vertices, call.cut);
    let offsets = input_assembler::element_offsets(&p.input_layout);
    let vs_fn = call.vs.function()?;
    let mut handles = Handles::default();
    let vs_res = call.vs.module.dx_metadata().map(|m| m.resources).unwrap_or_default();
    let ps_md = call.ps.as_ref().map(|s| s.module.dx_metadata().map(|m| m.resources).unwrap_or_default());
    let pos_sig = call
        .vs
        .entry
        .outputs
        .iter()
        .find(|e| e.semantic_kind == SV_POSITION)
        .map(|e| e.id)
        .ok_or(DrawError::Unsupported("a vertex shader without SV_Position"))?;
    let rt = &p.rasterizer;
    let cull = Cull::from_d3d(rt.cull).unwrap_or(Cull::None);
    let mut bounds = Rect {
        left: call.viewport.x.floor() as i32,
        top: call.viewport.y.floor() as i32,
        right: (call.viewport.x + call.viewport.width).ceil() as i32,
        bottom: (call.viewport.y + call.viewport.height).ceil() as i32,
    };
    if let Some(s) = call.scissor {
        bounds = bounds.intersect(&s);
    }
    let limit = targets
        .iter()
        .flatten()
        .map(|t| (t.width, t.height))
        .chain(depth.as_deref().map(|d| (d.width, d.height)))
        .fold((u32::MAX, u32::MAX), |a, b| (a.0.min(b.0), a.1.min(b.1)));
    if limit.0 != u32::MAX {
        bounds = bounds.intersect(&Rect { left: 0, top: 0, right: limit.0 as i32, bottom: limit.1 as i32 });
    }
    let tstate =
        TriangleState { cull, front_ccw: rt.front_ccw, depth_clip: rt.depth_clip, viewport: call.viewport, bounds };

    for instance in 0..call.instances {
        let mut cache: HashMap<u32, ShadedVertex> = HashMap::new();
        for (prim_id, prim) in prims.iter().enumerate() {
            let Primitive::Triangle(tri) = prim else { continue };
            let mut verts = Vec::with_capacity(3);
            for &v in tri {
                if let std::collections::hash_map::Entry::Vacant(slot) = cache.entry(v) {
                    let fetched = input_assembler::fetch(
                        &p.input_layout,
                        &offsets,
                        &call.vertex_buffers,
                        v,
                        instance,
                        call.start_instance,
                    );
                    let attrs = link_inputs(&p.input_layout, &call.vs.entry.inputs, &fetched);
                    let mut env = VsEnv {
                        inputs: &call.vs.entry.inputs,
                        attrs: &attrs,
                        vertex_id: v,
                        instance_id: instance + call.start_instance,
                        outputs: HashMap::new(),
                        handles: &mut handles,
                        resources: &vs_res,
                        bindings: vs_bindings,
                        _a: std::marker::PhantomData,
                    };
                    exec::run(call.vs.module, vs_fn, &mut env)?;
                    stats.vertices_shaded += 1;
                    let pos = env.outputs.get(&(pos_sig, 0)).map_or([0.0; 4], |p| [0, 1, 2, 3].map(|c| f32_of(&p[c])));
                    slot.insert(ShadedVertex { clip: pos, outputs: env.outputs });
                }
                verts.push(cache[&v].clone());
            }
            stats.primitives += 1;
            let clip = [verts[0].clip, verts[1].clip, verts[2].clip];
            // Covered pixels, grouped by quad.
            let mut quads: HashMap<(i32, i32), Vec<raster::Fragment>> = HashMap::new();
            raster::rasterize_triangle(&clip, &tstate, |f| quads.entry((f.x & !1, f.y & !1)).or_default().push(*f));
            if quads.is_empty() {
                continue;
            }
            let Some(ps) = &call.ps else {
                // No pixel shader: depth only.
                for frags in quads.values() {
                    for f in frags {
                        let pass = match depth.as_deref_mut() {
                            Some(d) => depth_write(d, p, f.x, f.y, f.depth, f.front_facing, call.stencil_ref),
                            None => true,
                        };
                        stats.samples_passed += u64::from(pass);
                    }
                }
                continue;
            };
            let ps_fn = ps.function()?;
            // Varyings: for each PS input row, the three vertices' values of the VS output with
            // the same semantic.
            let mut varyings: Varyings = HashMap::new();
            for pe in &ps.entry.inputs {
                for (r, idx) in pe.semantic_indices.iter().enumerate() {
                    let Some(ve) = call.vs.entry.outputs.iter().find(|o| {
                        o.name.eq_ignore_ascii_case(&pe.name)
                            && o.semantic_indices.iter().position(|i| i == idx).is_some()
                    }) else {
                        continue;
                    };
                    let vrow = ve.semantic_indices.iter().position(|i| i == idx).unwrap_or(0) as u32;
                    let vals: [[f32; 4]; 3] = core::array::from_fn(|k| {
                        verts[k].outputs.get(&(ve.id, vrow)).map_or([0.0; 4], |o| [0, 1, 2, 3].map(|c| f32_of(&o[c])))
                    });
                    varyings.insert((pe.id, r as u32), (vals, pe.interpolation));
                }
            }
            let ps_res = ps_md.as_deref().unwrap_or(&[]);
            let mut keys: Vec<_> = quads.keys().copied().collect();
            keys.sort_by_key(|&(x, y)| (y, x));
            for (qx, qy) in keys {
                let covered = &quads[&(qx, qy)];
                let front = covered[0].front_facing;
                let mut envs: Vec<PsEnv<'_>> = Vec::with_capacity(4);
                let mut handle_sets: Vec<Handles> =
                    (0..4).map(|_| Handles { list: handles.list.clone(), strides: handles.strides.clone() }).collect();
                let mut zs = [0.0f32; 4];
                for (lane, hs) in handle_sets.iter_mut().enumerate() {
                    let (x, y) = (qx + (lane as i32 & 1), qy + (lane as i32 >> 1));
                    let frag = covered.iter().find(|f| f.x == x && f.y == y);
                    let (persp, linear, z) =
                        match frag {
                            Some(f) => (f.persp, f.linear, f.depth),
                            None => raster::weights_at(&clip, &call.viewport, x as f32 + 0.5, y as f32 + 0.5)
                                .unwrap_or(([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.0)),
                        };
                    zs[lane] = z;
                    // SV_Position.w: the clip-space w at the pixel (1/w is linear on screen).
                    let inv_w: f32 = (0..3).map(|k| linear[k] / clip[k][3]).sum();
                    let w = if inv_w != 0.0 { 1.0 / inv_w } else { 0.0 };
                    envs.push(PsEnv {
                        inputs: &ps.entry.inputs,
                        varyings: &varyings,
                        persp,
                        linear,
                        position: [x as f32 + 0.5, y as f32 + 0.5, z, w],
                        front,
                        primitive_id: prim_id as u32,
                        helper: frag.is_none(),
                        discarded: false,
                        targets: Default::default(),
                        depth: None,
                        handles: hs,
                        resources: ps_res,
                        outputs: &ps.entry.outputs,
                        bindings: ps_bindings,
                    });
                }
                {
                    let [a, b, c, d] = &mut envs[..] else { unreachable!() };
                    exec::run_quad(ps.module, ps_fn, [a, b, c, d])?;
                }
                for (lane, env) in envs.iter().enumerate() {
                    if env.helper || env.discarded {
                        continue;
                    }
                    stats.pixels_shaded += 1;
                    let (x, y) = (qx + (lane as i32 & 1), qy + (lane as i32 >> 1));
                    let z = env.depth.unwrap_or(zs[lane]);
                    if let Some(d) = depth.as_deref_mut() {
                        if !depth_write(d, p, x, y, z, front, call.stencil_ref) {
                            continue;
                        }
                    }
                    stats.samples_passed += 1;
                    let mut wrote = false;
                    for (n, slot) in targets.iter_mut().enumerate() {
                        let (Some(t), Some(src)) = (slot.as_mut(), env.targets.get(n).cloned().flatten()) else {
                            continue;
                        };
                        let blend = &p.blend.rt[if p.blend.independent { n } else { 0 }];
                        write_pixel(t, x, y, &src, blend, call.blend_factor);
                        wrote = true;
                    }
                    if wrote {
                        stats.pixels_written += 1;
                    }
                }
            }
        }
    }
    Ok(stats)
}

/// The depth test and write of one pixel; `true` if the pixel passes. D32_FLOAT only; other
/// depth formats pass untested.
fn depth_write(d: &mut Target<'_>, p: &PipelineDesc, x: i32, y: i32, z: f32, front: bool, stencil_ref: u8) -> bool {
    if d.format != sys::DXGI_FORMAT_D32_FLOAT {
        return true;
    }
    let Some(e) = d.element(x, y) else { return true };
    let stored = f32::from_le_bytes([e[0], e[1], e[2], e[3]]);
    let r = om::depth_stencil(&p.depth_stencil, front, z, Some(stored), None, stencil_ref);
    if let Some(nz) = r.depth {
        e.copy_from_slice(&nz.to_le_bytes());
    }
    r.pass
}

/// Blends (or logic-ops, or copies) one pixel's color into a render target.
fn write_pixel(t: &mut Target<'_>, x: i32, y: i32, src: &[Val; 4], blend: &crate::pipeline::RtBlend, factor: [f32; 4]) {
    let format = t.format;
    let Some(e) = t.element(x, y) else { return };
    let integer = crate::format::info(format).is_some_and(|i| i.name.contains("INT"));
    if integer {
        let s = [0, 1, 2, 3].map(|c| bits_of(&src[c]));
        let d = crate::pack::decode_lanes(format, e).unwrap_or([0; 4]);
        let v = if blend.logic_op_enable {
            [0, 1, 2, 3].map(|c| om::logic_op(blend.logic_op, s[c], d[c]).unwrap_or(d[c]))
        } else {
            s
        };
        let v = om::masked(blend.write_mask, v, d);
        if let Some((b, n)) = crate::pack::encode_uint(format, v) {
            e.copy_from_slice(&b[..n]);
        }
        return;
    }
    let s = [0, 1, 2, 3].map(|c| f32_of(&src[c]));
    let d = crate::pack::decode_color(format, e).unwrap_or([0.0; 4]);
    let v = if blend.blend_enable {
        om::blend(blend, range_of(format), &BlendInputs { src: s, src1: [0.0; 4], dst: d, constant: factor })
    } else {
        om::masked(blend.write_mask, s, d)
    };
    if let Some((b, n)) = crate::pack::encode_color(format, v) {
        e.copy_from_slice(&b[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipeline::PipelineKind;

    struct Vs {
        mvp_cols: [[f32; 4]; 4],
        flip: f32,
    }
    impl Bindings for Vs {
        fn cbuffer_row(&self, _space: u32, reg: u32, row: u32) -> [u32; 4] {
            match reg {
                0 => self.mvp_cols.get(row as usize).copied().unwrap_or([0.0; 4]).map(f32::to_bits),
                _ => [self.flip, 0.0, 0.0, 0.0].map(f32::to_bits),
            }
        }
        fn sample(
            &self,
            _: (u32, u32),
            _: (u32, u32),
            _: [f32; 4],
            _: [i32; 3],
            _: SampleMode,
            _: Option<f32>,
        ) -> [f32; 4] {
            [0.0; 4]
        }
        fn load(&self, _: (u32, u32), _: u32, _: [i32; 3]) -> [u32; 4] {
            [0; 4]
        }
    }
    /// The pixel stage: a tint of (1, 1, 1, 1) and a "texture" whose color is (u, v, 0.5, 1).
    struct Ps;
    impl Bindings for Ps {
        fn cbuffer_row(&self, _space: u32, _reg: u32, _row: u32) -> [u32; 4] {
            [1.0f32; 4].map(f32::to_bits)
        }
        fn sample(
            &self,
            t: (u32, u32),
            s: (u32, u32),
            c: [f32; 4],
            _: [i32; 3],
            _: SampleMode,
            _: Option<f32>,
        ) -> [f32; 4] {
            assert_eq!((t, s), ((0, 0), (0, 0)));
            [c[0], c[1], 0.5, 1.0]
        }
        fn load(&self, _: (u32, u32), _: u32, _: [i32; 3]) -> [u32; 4] {
            [0; 4]
        }
    }

    fn program(bytes: &[u8]) -> crate::dxil::Program {
        crate::dxil::parse(bytes).expect("fixture parses")
    }

    fn element(name: &str, index: u32, format: sys::DXGI_FORMAT, offset: u32) -> InputElement {
        InputElement {
            semantic_name: Some(name.into()),
            semantic_index: index,
            format: format.0,
            input_slot: 0,
            aligned_byte_offset: offset,
            slot_class: 0,
            instance_step_rate: 0,
        }
    }

    #[test]
    fn mesa_textured_shaders_draw_a_triangle_into_rgba8() {
        let vs = program(include_bytes!("../tests/fixtures/dxil/textured.vs.dxil"));
        let ps = program(include_bytes!("../tests/fixtures/dxil/textured.ps.dxil"));
        // Which TEXCOORD indices Mesa gave the position and uv inputs.
        let ins = &vs.dx.entry_points[0].inputs;
        let (pos_idx, uv_idx) = (ins[0].semantic_indices[0], ins[1].semantic_indices[0]);
        let mut p = PipelineDesc::new(PipelineKind::Graphics);
        p.input_layout = vec![
            element(&ins[0].name, pos_idx, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 0),
            element(&ins[1].name, uv_idx, sys::DXGI_FORMAT_R32G32_FLOAT, 16),
        ];
        p.rasterizer.cull = 1; // none
        p.depth_stencil.depth_enable = false;
        // A right triangle over the top-left half of a 16x16 target: NDC (-1,1), (1,1), (-1,-1)
        // with uv (0,0), (1,0), (0,1).
        let verts: [[f32; 6]; 3] =
            [[-1.0, 1.0, 0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0, 1.0, 0.0], [-1.0, -1.0, 0.0, 1.0, 0.0, 1.0]];
        let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let call = DrawCall {
            vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0] },
            ps: Some(Shader { module: &ps.module, entry: &ps.dx.entry_points[0] }),
            pipeline: &p,
            topology: input_assembler::Topology::TriangleList,
            vertices: vec![0, 1, 2],
            cut: None,
            instances: 1,
            start_instance: 0,
            vertex_buffers: vec![Some(VertexBuffer { data: &vb, stride: 24 })],
            viewport: Viewport { x: 0.0, y: 0.0, width: 16.0, height: 16.0, min_depth: 0.0, max_depth: 1.0 },
            scissor: None,
            blend_factor: [0.0; 4],
            stencil_ref: 0,
        };
        let identity = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
        let mut rt = vec![0u8; 16 * 16 * 4];
        let stats = {
            let mut targets = [Some(Target {
                data: &mut rt,
                row_pitch: 64,
                width: 16,
                height: 16,
                format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
            })];
            draw(&call, &Vs { mvp_cols: identity, flip: 1.0 }, &Ps, &mut targets, None).expect("draws")
        };
        assert_eq!(stats.vertices_shaded, 3);
        // Pixel centers with x + y + 1 < 16 are inside: 120 pixels.
        assert_eq!(stats.pixels_written, 120);
        assert_eq!(stats.samples_passed, 120);
        for y in 0..16usize {
            for x in 0..16usize {
                let px = &rt[y * 64 + x * 4..y * 64 + x * 4 + 4];
                if x + y < 15 {
                    // uv at the pixel center: ((x + 0.5) / 16, (y + 0.5) / 16).
                    let want =
                        [(x as f32 + 0.5) / 16.0, (y as f32 + 0.5) / 16.0, 0.5, 1.0].map(|c| (c * 255.0).round() as u8);
                    assert_eq!(px, want, "pixel ({x}, {y})");
                } else {
                    assert_eq!(px, [0, 0, 0, 0], "pixel ({x}, {y}) is outside");
                }
            }
        }
    }
}
