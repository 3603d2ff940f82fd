//! One draw through D3D12's graphics pipeline in software: vertex shading of the assembled
//! primitives (DXIL through [`rd3d12_shader::dxil::exec`]), rasterization ([`crate::raster`]), pixel
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
//! A geometry shader, when there is one, runs per assembled primitive and per GS instance on
//! that primitive's vertex-shader outputs (linked to its input signature by semantic, as
//! above); what it emits to stream 0 is assembled into its output topology (strips cut by
//! CutStream) and rasterized instead, and the pixel shader's inputs are linked to the GS
//! outputs; with an adjacency topology it reads every vertex ([`input_assembler::gs_inputs`]).
//! Other streams than 0 are not done; stream 0 can also go to stream output
//! (`stream_output`). A disabled rasterizer ([`PipelineDesc::rasterizes`]: RasterizedStream not
//! 0, or no pixel shader with depth and stencil tests off) draws nothing and needs no
//! SV_Position: the stages still run and stream out.
//!
//! With hull and domain shaders ([`Tess`]), the draw's topology is a patch list: each patch's
//! vertex-shader outputs go through the tessellation stages (`tessellation`), whose
//! primitives go on to the geometry shader or the rasterizer as assembled ones would.
//!
//! Every topology is drawn: triangles, aliased lines (the diamond-exit rule) and points (one
//! pixel each), see [`crate::raster`]; lines and points are front-facing, a line's inputs are
//! interpolated along it and a point's are its vertex's. Today: one viewport and scissor,
//! depth-stencil views of D16_UNORM, D24_UNORM_S8_UINT, D32_FLOAT and D32_FLOAT_S8X24_UINT
//! (see [`DepthStencilTarget`]), single-sampled targets.

use crate::input_assembler::{self, Primitive, VertexBuffer};
use crate::output_merger::{self as om, BlendInputs, Range};
use crate::raster::{self, Cull, Rect, TriangleState, Viewport};
use rd3d12_core::pipeline::{InputElement, PipelineDesc};
use rd3d12_shader::dxil::exec::{self, Env, EvalAt, ExecError, SampleMode, Val};
use rd3d12_shader::dxil::{EntryPoint, Function, Module, SignatureElement};
use rd3d12_sys as sys;
use std::collections::HashMap;

mod stream_output;
pub use stream_output::SoBuffer;

/// DXIL semantic kinds used here (DXIL.rst "Semantic Kind").
const SV_VERTEX_ID: u32 = 1;
const SV_INSTANCE_ID: u32 = 2;
const SV_POSITION: u32 = 3;
const SV_RENDER_TARGET_ARRAY_INDEX: u32 = 4;
const SV_VIEWPORT_ARRAY_INDEX: u32 = 5;
const SV_CLIP_DISTANCE: u32 = 6;
const SV_CULL_DISTANCE: u32 = 7;
const SV_PRIMITIVE_ID: u32 = 10;
const SV_IS_FRONT_FACE: u32 = 13;
const SV_SAMPLE_INDEX: u32 = 12;
const SV_COVERAGE: u32 = 14;
const SV_TARGET: u32 = 16;
const SV_DEPTH: u32 = 17;
const SV_STENCIL_REF: u32 = 20;
/// DXIL interpolation modes.
const INTERP_CONSTANT: u32 = 1;
const INTERP_NOPERSPECTIVE: u32 = 4;
const INTERP_LINEAR_CENTROID: u32 = 3;
const INTERP_NOPERSPECTIVE_CENTROID: u32 = 5;
const INTERP_LINEAR_SAMPLE: u32 = 6;
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
pub trait Bindings: Sync {
    /// Row `row` (16 bytes) of the constant buffer at (space, register); unbound reads 0.
    fn cbuffer_row(&self, _space: u32, _register: u32, _row: u32) -> [u32; 4] {
        [0; 4]
    }
    /// A filtered sample of the SRV at `texture` with the sampler at `sampler`; unbound reads 0.
    fn sample(
        &self,
        _texture: (u32, u32),
        _sampler: (u32, u32),
        _coords: [f32; 4],
        _offset: [i32; 3],
        _mode: SampleMode,
        _compare: Option<f32>,
    ) -> [f32; 4] {
        [0.0; 4]
    }
    /// A texel of the SRV (TextureLoad), as four 32-bit lanes; unbound reads 0.
    fn load(&self, _texture: (u32, u32), _mip: u32, _coords: [i32; 3]) -> [u32; 4] {
        [0; 4]
    }
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
    /// GetDimensions: width, height, depth or array size, mip count (typed and structured
    /// buffers: element count; raw buffers: size in bytes).
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
    /// IncrementCounter (delta 1; returns the value before) or DecrementCounter (delta -1;
    /// returns the value after) on a UAV's counter.
    fn update_counter(&self, _uav: (u32, u32), _delta: i32) -> u32 {
        0
    }
    /// Gather / GatherCmp: component `channel` of the four texels of a bilinear footprint.
    fn gather(
        &self,
        _texture: (u32, u32),
        _sampler: (u32, u32),
        _coords: [f32; 4],
        _offset: [i32; 2],
        _channel: u32,
        _compare: Option<f32>,
    ) -> [f32; 4] {
        [0.0; 4]
    }
    /// CalculateLevelOfDetail (`clamped`) / CalculateLevelOfDetailUnclamped.
    fn calculate_lod(
        &self,
        _texture: (u32, u32),
        _sampler: (u32, u32),
        _coords: [f32; 3],
        _ddx: [f32; 3],
        _ddy: [f32; 3],
        _clamped: bool,
    ) -> f32 {
        0.0
    }
}

/// The Env methods that reach resources, forwarded to [`Bindings`] through a [`Handles`]
/// table; every shader stage's Env has `handles`, `resources` (the module's resource
/// declarations) and `bindings` fields, and a `writes()` method: whether its UAV writes and
/// atomics take effect (not for helper pixel invocations or discarded ones, as D3D specifies;
/// their atomics return 0).
macro_rules! resource_ops {
    () => {
        fn create_handle(&mut self, class: u8, range: u32, index: u32) -> Result<u32, ExecError> {
            self.handles.create(self.resources, class, range, index)
        }
        fn cbuffer_row(&mut self, h: u32, row: u32) -> Result<[u32; 4], ExecError> {
            match self.handles.binding(h)? {
                (Class::Cbv, (space, reg)) => Ok(self.bindings.cbuffer_row(space, reg, row)),
                _ => Err(ExecError::Malformed("cbufferLoadLegacy on a handle that is not a CBV".into())),
            }
        }
        fn sample(
            &mut self,
            t: u32,
            s: u32,
            coords: [f32; 4],
            offset: [i32; 3],
            mode: SampleMode,
            compare: Option<f32>,
        ) -> Result<[f32; 4], ExecError> {
            let (tr, sr) = self.handles.srv_sampler(t, s, "sample")?;
            Ok(self.bindings.sample(tr, sr, coords, offset, mode, compare))
        }
        fn gather(
            &mut self,
            t: u32,
            s: u32,
            coords: [f32; 4],
            offset: [i32; 2],
            channel: u32,
            compare: Option<f32>,
        ) -> Result<[f32; 4], ExecError> {
            let (tr, sr) = self.handles.srv_sampler(t, s, "gather")?;
            Ok(self.bindings.gather(tr, sr, coords, offset, channel, compare))
        }
        fn calculate_lod(
            &mut self,
            t: u32,
            s: u32,
            coords: [f32; 3],
            ddx: [f32; 3],
            ddy: [f32; 3],
            clamped: bool,
        ) -> Result<f32, ExecError> {
            let (tr, sr) = self.handles.srv_sampler(t, s, "calculateLOD")?;
            Ok(self.bindings.calculate_lod(tr, sr, coords, ddx, ddy, clamped))
        }
        fn update_counter(&mut self, r: u32, delta: i32) -> Result<u32, ExecError> {
            let reg = self.handles.uav(r)?;
            if !self.writes() {
                return Ok(0);
            }
            Ok(self.bindings.update_counter(reg, delta))
        }
        fn texture_load(&mut self, t: u32, mip: u32, c: [i32; 3], o: [i32; 3]) -> Result<[u32; 4], ExecError> {
            let (class, reg) = self.handles.binding(t)?;
            let at = [c[0].wrapping_add(o[0]), c[1].wrapping_add(o[1]), c[2].wrapping_add(o[2])];
            Ok(self.bindings.texture_load(class, reg, mip, at))
        }
        fn texture_store(&mut self, t: u32, c: [i32; 3], v: [u32; 4], mask: u8) -> Result<(), ExecError> {
            let reg = self.handles.uav(t)?;
            if self.writes() {
                self.bindings.texture_store(reg, c, v, mask);
            }
            Ok(())
        }
        fn buffer_load(&mut self, b: u32, index: u32, offset: u32) -> Result<[u32; 4], ExecError> {
            let (class, reg) = self.handles.binding(b)?;
            Ok(self.bindings.buffer_load(class, reg, self.handles.stride(b), index, offset))
        }
        fn buffer_store(&mut self, b: u32, index: u32, offset: u32, v: [u32; 4], mask: u8) -> Result<(), ExecError> {
            let reg = self.handles.uav(b)?;
            if self.writes() {
                self.bindings.buffer_store(reg, self.handles.stride(b), index, offset, v, mask);
            }
            Ok(())
        }
        fn dimensions(&mut self, r: u32, mip: u32) -> Result<[u32; 4], ExecError> {
            let (class, reg) = self.handles.binding(r)?;
            Ok(self.bindings.dimensions(class, reg, mip))
        }
        fn atomic(&mut self, r: u32, op: u32, c: [i32; 3], v: u32) -> Result<u32, ExecError> {
            let reg = self.handles.uav(r)?;
            if !self.writes() {
                return Ok(0);
            }
            Ok(self.bindings.atomic(reg, op, c, v))
        }
        fn atomic_cmpxchg(&mut self, r: u32, c: [i32; 3], cmp: u32, new: u32) -> Result<u32, ExecError> {
            let reg = self.handles.uav(r)?;
            if !self.writes() {
                return Ok(0);
            }
            Ok(self.bindings.atomic_cmpxchg(reg, c, cmp, new))
        }
    };
}

mod tessellation;
pub(crate) use resource_ops;
pub use tessellation::Tess;
use tessellation::TessStage;

/// A render target: the bytes of one subresource.
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
    /// Bytes from one sample's copy of the subresource to the next (multisampled resources:
    /// [`rd3d12_core::allocation::msaa_sample_stride`]; 0 when single-sampled). `data` holds every
    /// sample the pipeline's SampleDesc.Count names.
    pub sample_stride: usize,
    /// Array slices (or 3D W slices) of the view that `data` holds, for primitives that pick
    /// one with SV_RenderTargetArrayIndex (1: only the first).
    pub layers: u32,
    /// Bytes from one slice of the view to the next (0 with one slice).
    pub layer_stride: usize,
}

/// The slice a primitive's SV_RenderTargetArrayIndex picks: slice 0 of the view when the
/// index is past its slices.
fn layer_offset(layer: u32, layers: u32, stride: usize) -> usize {
    if layer < layers {
        layer as usize * stride
    } else {
        0
    }
}

impl Target<'_> {
    fn element(&mut self, x: i32, y: i32, sample: u32, layer: u32) -> Option<&mut [u8]> {
        let size = rd3d12_core::format::info(self.format)?.bytes_per_element() as usize;
        let at = layer_offset(layer, self.layers, self.layer_stride)
            + sample as usize * self.sample_stride
            + y as usize * self.row_pitch
            + x as usize * size;
        self.data.get_mut(at..at + size)
    }
}

/// One plane of a depth-stencil view: the bytes of its subresource.
pub struct Plane<'a> {
    /// The subresource's bytes from its first row.
    pub data: &'a mut [u8],
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Bytes from one sample's copy to the next (0 when single-sampled), as [`Target`].
    pub sample_stride: usize,
    /// Array slices the view's `data` holds, as [`Target`].
    pub layers: u32,
    /// Bytes from one slice to the next, as [`Target`].
    pub layer_stride: usize,
}

impl Plane<'_> {
    fn element(&mut self, (x, y, sample, layer): (i32, i32, u32, u32), size: usize) -> Option<&mut [u8]> {
        let at = layer_offset(layer, self.layers, self.layer_stride)
            + sample as usize * self.sample_stride
            + usize::try_from(y).ok()? * self.row_pitch
            + usize::try_from(x).ok()? * size;
        self.data.get_mut(at..at + size)
    }
}

/// A depth-stencil view. Depth-stencil formats are planar in the runtime's layout: plane 0
/// holds depth (D16_UNORM: 2 bytes; D24_UNORM_S8_UINT: a 32-bit element with the 24-bit UNORM
/// in bits 0–23; D32_FLOAT and D32_FLOAT_S8X24_UINT: the f32), plane 1 one stencil byte per
/// pixel (D24_UNORM_S8_UINT and D32_FLOAT_S8X24_UINT only).
pub struct DepthStencilTarget<'a> {
    /// The view's format: D16_UNORM, D24_UNORM_S8_UINT, D32_FLOAT or D32_FLOAT_S8X24_UINT
    /// (other formats pass every pixel untested).
    pub format: sys::DXGI_FORMAT,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Plane 0: depth.
    pub depth: Plane<'a>,
    /// Plane 1: stencil (None: the format has none, and the stencil test passes).
    pub stencil: Option<Plane<'a>>,
    /// D3D12_DSV_FLAG_READ_ONLY_DEPTH: depth is tested but never written.
    pub read_only_depth: bool,
    /// D3D12_DSV_FLAG_READ_ONLY_STENCIL: stencil is tested but never written.
    pub read_only_stencil: bool,
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
    /// The hull and domain shaders, if the pipeline tessellates.
    pub tess: Option<Tess<'a>>,
    /// The geometry shader, if any (stream 0 is rasterized; nothing else is kept).
    pub gs: Option<Shader<'a>>,
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
    /// What `vertices` added to the vertex IDs: StartVertexLocation (DrawInstanced) or
    /// BaseVertexLocation (DrawIndexedInstanced). SV_VertexID counts from 0 regardless: it is
    /// the vertex's place in the draw, or the index as read from the index buffer.
    pub vertex_id_base: u32,
    /// InstanceCount.
    pub instances: u32,
    /// StartInstanceLocation.
    pub start_instance: u32,
    /// The bound vertex buffers by slot.
    pub vertex_buffers: Vec<Option<VertexBuffer<'a>>>,
    /// The bound viewports (at least one); a primitive draws through the one its
    /// SV_ViewportArrayIndex names (viewport 0 past the end).
    pub viewports: Vec<Viewport>,
    /// The scissor rectangle of each viewport (missing or None: the whole viewport).
    pub scissors: Vec<Option<Rect>>,
    /// OMSetBlendFactor.
    pub blend_factor: [f32; 4],
    /// OMSetStencilRef.
    pub stencil_ref: u8,
    /// SetSamplePositions' pattern (one pixel's samples, in 1/16 pixel from its center), or
    /// `None` for the standard pattern. Used when it has the pipeline's sample count (at a
    /// mismatch the behaviour is undefined; the standard pattern is used).
    pub sample_positions: Option<&'a [(i8, i8)]>,
}

/// Counts of what a draw did, over all its instances. Those named after a member of
/// D3D12_QUERY_DATA_PIPELINE_STATISTICS count what a pipeline-statistics query does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// IAVertices: vertices the input assembler read (strip cut indices are no vertices).
    pub ia_vertices: u64,
    /// VSInvocations: vertex shader invocations (a vertex number repeated within one instance
    /// is shaded once).
    pub vertices_shaded: u64,
    /// IAPrimitives: primitives (or patches) assembled (trailing incomplete ones are dropped).
    pub primitives: u64,
    /// HSInvocations: hull shader invocations, one per patch (both phases).
    pub hs_invocations: u64,
    /// DSInvocations: domain shader invocations, one per domain point of each patch.
    pub ds_invocations: u64,
    /// GSInvocations: geometry shader invocations (one per input primitive and GS instance).
    pub gs_invocations: u64,
    /// GSPrimitives: primitives the geometry shader output on stream 0.
    pub gs_primitives: u64,
    /// CInvocations: primitives sent to the rasterizer (every assembled one, or every one a
    /// geometry shader output).
    pub c_invocations: u64,
    /// CPrimitives: primitives rendered after clipping and culling. A triangle the near or far
    /// plane cuts into a polygon counts one per piece of its fan; culled, degenerate and fully
    /// clipped primitives count 0; coverage of pixel centers does not matter.
    pub c_primitives: u64,
    /// PSInvocations: pixel shader invocations for covered pixels, those that discard
    /// included, the quads' helper lanes not.
    pub ps_invocations: u64,
    /// Pixel shader invocations that were not helpers and not discarded.
    pub pixels_shaded: u64,
    /// Pixels that reached a render target.
    pub pixels_written: u64,
    /// Samples that passed the depth and stencil tests (all covered samples without a depth
    /// buffer): what an occlusion query counts.
    pub samples_passed: u64,
    /// D3D12_QUERY_DATA_SO_STATISTICS.NumPrimitivesWritten of stream 0: primitives written to
    /// the stream-output buffers (0 without a stream-output declaration).
    pub so_written: u64,
    /// PrimitivesStorageNeeded of stream 0: primitives that were to be written, those that did
    /// not fit included.
    pub so_needed: u64,
}

/// A resource's (space, register).
type Register = (u32, u32);

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

    /// The (space, register) of an SRV handle and of a sampler handle, for `op`.
    pub(crate) fn srv_sampler(&self, t: u32, s: u32, op: &str) -> Result<(Register, Register), ExecError> {
        match (self.binding(t)?, self.binding(s)?) {
            ((Class::Srv, tr), (Class::Sampler, sr)) => Ok((tr, sr)),
            _ => Err(ExecError::Malformed(format!("{op} without an SRV and a sampler"))),
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
        module_resources: &[rd3d12_shader::dxil::metadata::Resource],
        class: u8,
        range: u32,
        index: u32,
    ) -> Result<u32, ExecError> {
        use rd3d12_shader::dxil::metadata::ResourceClass as R;
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
    outputs: Outputs,
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
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

/// Input signature element `sig`.
fn input_element(inputs: &[SignatureElement], sig: u32) -> Result<&SignatureElement, ExecError> {
    inputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("input signature".into()))
}

/// Component `col` of the output at (signature id, row); unwritten components read 0.
fn store_lane(outputs: &mut Outputs, at: (u32, u32), col: u8, value: &Val) {
    let slot = outputs.entry(at).or_insert_with(|| [Val::F32(0.0), Val::F32(0.0), Val::F32(0.0), Val::F32(0.0)]);
    slot[col as usize & 3] = value.clone();
}

impl VsEnv<'_, '_> {
    fn writes(&self) -> bool {
        true
    }
}

impl Env for VsEnv<'_, '_> {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, _vertex: Option<u32>) -> Result<Val, ExecError> {
        let e = input_element(self.inputs, sig)?;
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
        store_lane(&mut self.outputs, (sig, row), col, value);
        Ok(())
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
    outputs: Outputs,
}

/// A stage's outputs by (signature id, row).
type Outputs = HashMap<(u32, u32), [Val; 4]>;

/// Input (signature id, row) of one stage ← output (signature id, row) of the stage before.
type Link = ((u32, u32), (u32, u32));

/// The geometry shader's view of one invocation: the input primitive's vertices (VS outputs,
/// linked to the GS input signature by semantic) and the vertices it emits to stream 0.
struct GsEnv<'b> {
    inputs: &'b [SignatureElement],
    /// For each GS input (signature id, row): the VS output (signature id, row) feeding it.
    links: &'b [Link],
    verts: &'b [ShadedVertex],
    primitive_id: u32,
    instance: u32,
    outputs: Outputs,
    /// Emitted vertices' outputs in order; `None` marks a cut.
    emitted: Vec<Option<Outputs>>,
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
}

impl GsEnv<'_> {
    fn writes(&self) -> bool {
        true
    }
}

impl Env for GsEnv<'_> {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, vertex: Option<u32>) -> Result<Val, ExecError> {
        let e = input_element(self.inputs, sig)?;
        if e.semantic_kind == SV_PRIMITIVE_ID {
            return Ok(Val::Int(u64::from(self.primitive_id)));
        }
        let value = self
            .links
            .iter()
            .find(|(k, _)| *k == (sig, row))
            .and_then(|(_, from)| self.verts.get(vertex.unwrap_or(0) as usize)?.outputs.get(from))
            .map(|v| v[col as usize & 3].clone());
        // Unlinked inputs read 0, typed as the element says.
        Ok(value.unwrap_or_else(|| lane_val(0, e.component_type)))
    }
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> Result<(), ExecError> {
        store_lane(&mut self.outputs, (sig, row), col, value);
        Ok(())
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        Err(ExecError::Malformed("discard outside a pixel shader".into()))
    }
    fn emit_stream(&mut self, stream: u32) -> Result<(), ExecError> {
        if stream == 0 {
            self.emitted.push(Some(self.outputs.clone()));
        }
        Ok(())
    }
    fn cut_stream(&mut self, stream: u32) -> Result<(), ExecError> {
        if stream == 0 {
            self.emitted.push(None);
        }
        Ok(())
    }
    /// GSInstanceID (100) and PrimitiveID (108).
    fn system_value(&mut self, opcode: u32, _component: u32) -> Result<u32, ExecError> {
        match opcode {
            100 => Ok(self.instance),
            108 => Ok(self.primitive_id),
            _ => Err(ExecError::Unsupported(format!("dx.op {opcode} in a geometry shader"))),
        }
    }
    resource_ops!();
}

/// For each input (signature id, row) of `to`: the output (signature id, row) of `from` with
/// the same semantic name (case-insensitive) and index.
fn link_stages(from: &[SignatureElement], to: &[SignatureElement]) -> Vec<Link> {
    let mut links = Vec::new();
    for te in to {
        for (r, idx) in te.semantic_indices.iter().enumerate() {
            let found = from.iter().find_map(|o| {
                let row = o.semantic_indices.iter().position(|i| i == idx)?;
                o.name.eq_ignore_ascii_case(&te.name).then_some((o.id, row as u32))
            });
            if let Some(f) = found {
                links.push(((te.id, r as u32), f));
            }
        }
    }
    links
}

/// What a draw's geometry shader needs, set up once per draw.
struct GsStage<'b> {
    shader: &'b Shader<'b>,
    function: &'b Function,
    state: rd3d12_shader::dxil::GsState,
    topology: input_assembler::Topology,
    /// GS inputs fed by VS outputs, see [`link_stages`].
    links: Vec<Link>,
    resources: Vec<rd3d12_shader::dxil::metadata::Resource>,
    bindings: &'b dyn Bindings,
    /// The output signature ids of SV_Position (none when the output only feeds stream
    /// output or a disabled rasterizer) and SV_PrimitiveID.
    position: Option<u32>,
    primitive_id: Option<u32>,
}

/// A primitive for the rasterizer: its kind, its vertices (leading vertex first) and its
/// SV_PrimitiveID.
type RasterPrimitive = (Primitive, Vec<ShadedVertex>, u32);

impl<'b> GsStage<'b> {
    /// `from`: the output signature of the stage before (vertex or domain shader).
    fn new(shader: &'b Shader<'b>, from: &[SignatureElement], bindings: &'b dyn Bindings) -> Result<Self, DrawError> {
        let state = shader.entry.gs.ok_or(DrawError::Unsupported("a geometry shader without its state"))?;
        // D3D's limit of 32 instances ([instance(n)]), which a well-formed shader keeps.
        if state.instance_count > 32 {
            return Err(DrawError::Unsupported("a geometry shader of more than 32 instances"));
        }
        let topology = gs_output_topology(state.output_topology)
            .ok_or(DrawError::Unsupported("this geometry shader output topology"))?;
        let find = |kind| shader.entry.outputs.iter().find(|e| e.semantic_kind == kind).map(|e| e.id);
        Ok(GsStage {
            shader,
            function: shader.function()?,
            state,
            topology,
            links: link_stages(from, &shader.entry.inputs),
            resources: shader.module.dx_metadata().map(|m| m.resources).unwrap_or_default(),
            bindings,
            position: find(SV_POSITION),
            primitive_id: find(SV_PRIMITIVE_ID),
        })
    }

    /// Runs every instance of the shader on one input primitive and assembles what they
    /// emitted to stream 0: each instance's strips (cut by CutStream and at its end) become
    /// primitives of the output topology, with the input assembler's strip rules. Emits past
    /// `maxvertexcount` are dropped, as D3D does.
    fn run(
        &self,
        verts: &[ShadedVertex],
        primitive_id: u32,
        handles: &mut Handles,
        stats: &mut DrawStats,
    ) -> Result<Vec<RasterPrimitive>, DrawError> {
        let mut out = Vec::new();
        for instance in 0..self.state.instance_count {
            stats.gs_invocations += 1;
            let mut env = GsEnv {
                inputs: &self.shader.entry.inputs,
                links: &self.links,
                verts,
                primitive_id,
                instance,
                outputs: HashMap::new(),
                emitted: Vec::new(),
                handles: &mut *handles,
                resources: &self.resources,
                bindings: self.bindings,
            };
            exec::run(self.shader.module, self.function, &mut env)?;
            let mut shaded: Vec<ShadedVertex> = Vec::new();
            let mut order = Vec::new();
            for e in env.emitted {
                match e {
                    Some(outputs) if shaded.len() < self.state.max_vertex_count as usize => {
                        order.push(shaded.len() as u32);
                        let clip = self
                            .position
                            .and_then(|p| outputs.get(&(p, 0)))
                            .map_or([0.0; 4], |p| p.each_ref().map(f32_of));
                        shaded.push(ShadedVertex { clip, outputs });
                    }
                    Some(_) => {}
                    None => order.push(u32::MAX),
                }
            }
            for prim in input_assembler::primitives(self.topology, &order, Some(u32::MAX)) {
                let (ids, kind): (&[u32], Primitive) = match &prim {
                    Primitive::Point(v) => (std::slice::from_ref(v), Primitive::Point(0)),
                    Primitive::Line(l) => (l, Primitive::Line([0, 1])),
                    Primitive::Triangle(t) => (t, Primitive::Triangle([0, 1, 2])),
                };
                let vs: Vec<ShadedVertex> = ids.iter().map(|&i| shaded[i as usize].clone()).collect();
                // SV_PrimitiveID written by the shader: the leading vertex's.
                let id =
                    self.primitive_id.and_then(|s| vs[0].outputs.get(&(s, 0))).map_or(primitive_id, |v| bits_of(&v[0]));
                out.push((kind, vs, id));
                stats.gs_primitives += 1;
            }
        }
        Ok(out)
    }
}

/// The D3D topology of a geometry shader's output (D3D_PRIMITIVE_TOPOLOGY 1, 3 or 5).
fn gs_output_topology(t: u32) -> Option<input_assembler::Topology> {
    match t {
        1 => Some(input_assembler::Topology::PointList),
        3 => Some(input_assembler::Topology::LineStrip),
        5 => Some(input_assembler::Topology::TriangleStrip),
        _ => None,
    }
}

/// For each PS input (signature id, row): the values at the three vertices, and the
/// interpolation mode.
type Varyings = Vec<((u32, u32), ([[f32; 4]; 3], u32))>;

/// The pixel shader's view of one pixel of a quad.
struct PsEnv<'b> {
    inputs: &'b [SignatureElement],
    /// For each PS input (by id and row): the values at the three vertices, and the mode.
    varyings: &'b Varyings,
    persp: [f32; 3],
    linear: [f32; 3],
    position: [f32; 4],
    /// The primitive, to interpolate at other points of the pixel than its center.
    shape: Shape<'b>,
    viewport: Viewport,
    /// The primitive's SV_ViewportArrayIndex and SV_RenderTargetArrayIndex.
    viewport_index: u32,
    layer: u32,
    /// The pixel's integer coordinates.
    pixel: (i32, i32),
    /// The render target's sample pattern.
    samples: &'b [(i8, i8)],
    /// The samples the primitive covers in this pixel (before SampleMask): where centroid
    /// inputs are evaluated.
    raster_coverage: u16,
    /// The sample this invocation shades when the shader runs per sample.
    sample: Option<u32>,
    front: bool,
    primitive_id: u32,
    helper: bool,
    discarded: bool,
    /// Each render target's color, as the 32-bit lanes the shader stored (floats as their bits).
    targets: [Option<[u32; 4]>; 8],
    depth: Option<f32>,
    /// Input SV_Coverage: the pixel's covered samples ANDed with SampleMask.
    coverage: u32,
    /// Output SV_Coverage, ANDed into the samples written.
    out_coverage: Option<u32>,
    /// SV_StencilRef as the shader wrote it.
    stencil_ref: Option<u8>,
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    outputs: &'b [SignatureElement],
    bindings: &'b dyn Bindings,
}

impl PsEnv<'_> {
    /// Helper lanes and discarded invocations write no UAV.
    fn writes(&self) -> bool {
        !self.helper && !self.discarded
    }

    /// Sample `n`'s position in the render target (the pixel center past the pattern's end).
    fn sample_point(&self, n: u32) -> (f32, f32) {
        let (dx, dy) = self.samples.get(n as usize).map_or((0.0, 0.0), |&(x, y)| (f32::from(x), f32::from(y)));
        (self.pixel.0 as f32 + 0.5 + dx / 16.0, self.pixel.1 as f32 + 0.5 + dy / 16.0)
    }

    /// Where centroid interpolation evaluates: the pixel center when the primitive covers
    /// every sample (or none: a helper), else the covered sample of lowest index.
    fn centroid_point(&self) -> (f32, f32) {
        let all = ((1u32 << self.samples.len()) - 1) as u16;
        if self.raster_coverage == 0 || self.raster_coverage & all == all {
            (self.pixel.0 as f32 + 0.5, self.pixel.1 as f32 + 0.5)
        } else {
            self.sample_point(self.raster_coverage.trailing_zeros())
        }
    }

    /// The (perspective-correct, screen-linear) weights of the primitive's vertices at a point.
    fn weights_at(&self, (x, y): (f32, f32)) -> ([f32; 3], [f32; 3]) {
        let (p, l, _) = self.shape.weights(x, y, &self.viewport);
        (p, l)
    }

    /// Input (sig, row) component `c` from its three vertices' values under `mode`, with the
    /// weights `w` (perspective-correct, screen-linear) of where it is evaluated.
    fn interpolate(
        &self,
        e: &SignatureElement,
        v: &[[f32; 4]; 3],
        mode: u32,
        c: usize,
        w: ([f32; 3], [f32; 3]),
    ) -> Val {
        let w = match mode {
            INTERP_CONSTANT => [1.0, 0.0, 0.0],
            INTERP_NOPERSPECTIVE | INTERP_NOPERSPECTIVE_CENTROID | INTERP_NOPERSPECTIVE_SAMPLE => w.1,
            _ => w.0,
        };
        // Relative to the first vertex, as rasterizers interpolate: an attribute equal at the
        // three vertices comes out exactly, whatever rounding the weights carry.
        let x = v[0][c] + w[1] * (v[1][c] - v[0][c]) + w[2] * (v[2][c] - v[0][c]);
        if e.component_type == 9 || e.component_type == 8 || mode != INTERP_CONSTANT {
            Val::F32(x)
        } else {
            Val::Int(u64::from(v[0][c].to_bits()))
        }
    }

    fn varying(&self, sig: u32, row: u32) -> Option<&([[f32; 4]; 3], u32)> {
        self.varyings.iter().find(|(k, _)| *k == (sig, row)).map(|(_, v)| v)
    }
}

/// Where the last pre-rasterizer stage writes SV_ViewportArrayIndex and
/// SV_RenderTargetArrayIndex: (signature id) of each, if it does.
struct PrimitiveIndices {
    viewport: Option<u32>,
    layer: Option<u32>,
}

impl PrimitiveIndices {
    fn of(outputs: &[SignatureElement]) -> PrimitiveIndices {
        let find = |kind: u32| outputs.iter().find(|e| e.semantic_kind == kind).map(|e| e.id);
        PrimitiveIndices { viewport: find(SV_VIEWPORT_ARRAY_INDEX), layer: find(SV_RENDER_TARGET_ARRAY_INDEX) }
    }

    /// (viewport index, render-target array index) a vertex carries; 0 for what is not written.
    fn of_vertex(&self, v: &ShadedVertex) -> (u32, u32) {
        let read = |id: Option<u32>| id.and_then(|id| v.outputs.get(&(id, 0))).map_or(0, |x| bits_of(&x[0]));
        (read(self.viewport), read(self.layer))
    }
}

/// The last pre-rasterizer stage's SV_ClipDistance and SV_CullDistance outputs as (signature id,
/// row, components) per row.
struct UserPlanes {
    clip: Vec<(u32, u32, u32)>,
    cull: Vec<(u32, u32, u32)>,
}

impl UserPlanes {
    fn of(outputs: &[SignatureElement]) -> UserPlanes {
        let rows = |kind: u32| -> Vec<(u32, u32, u32)> {
            outputs
                .iter()
                .filter(|e| e.semantic_kind == kind)
                .flat_map(|e| (0..e.rows.max(1)).map(move |r| (e.id, r, e.cols.min(4))))
                .collect()
        };
        UserPlanes { clip: rows(SV_CLIP_DISTANCE), cull: rows(SV_CULL_DISTANCE) }
    }
}

/// The primitive a pixel shader runs for, to interpolate at any point of the render target.
#[derive(Clone, Copy)]
enum Shape<'a> {
    /// A point: every attribute is its vertex's; its depth.
    Point(f32),
    Line(&'a raster::LineSetup),
    /// A triangle's clip-space vertices.
    Triangle(&'a [[f32; 4]; 3]),
}

impl Shape<'_> {
    /// (perspective-correct weights, screen-linear weights, depth) at render-target point (x, y).
    fn weights(&self, x: f32, y: f32, vp: &Viewport) -> ([f32; 3], [f32; 3], f32) {
        match self {
            Shape::Point(z) => ([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], *z),
            Shape::Line(l) => l.weights_at(x, y, vp),
            Shape::Triangle(clip) => {
                raster::weights_at(clip, vp, x, y).unwrap_or(([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.0))
            }
        }
    }
}

impl Env for PsEnv<'_> {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, vertex: Option<u32>) -> Result<Val, ExecError> {
        let e = input_element(self.inputs, sig)?;
        let c = col as usize & 3;
        if let Some(k) = vertex {
            // GetAttributeAtVertex: the value at vertex k of the primitive, not interpolated.
            let v = self
                .varyings
                .iter()
                .find(|(key, _)| *key == (sig, row))
                .map_or(0.0, |(_, (v, _))| v.get(k as usize).map_or(0.0, |x| x[c]));
            return Ok(if e.component_type == 9 || e.component_type == 8 {
                Val::F32(v)
            } else {
                Val::Int(u64::from(v.to_bits()))
            });
        }
        Ok(match e.semantic_kind {
            // At sample frequency a position declared `sample` is the sample's.
            SV_POSITION if c < 2 && e.interpolation == INTERP_NOPERSPECTIVE_SAMPLE && self.sample.is_some() => {
                let (x, y) = self.sample_point(self.sample.unwrap_or(0));
                Val::F32(if c == 0 { x } else { y })
            }
            SV_POSITION => Val::F32(self.position[c]),
            SV_IS_FRONT_FACE => Val::Int(u64::from(self.front)),
            SV_PRIMITIVE_ID => Val::Int(u64::from(self.primitive_id)),
            SV_SAMPLE_INDEX => Val::Int(u64::from(self.sample.unwrap_or(0))),
            SV_RENDER_TARGET_ARRAY_INDEX => Val::Int(u64::from(self.layer)),
            SV_VIEWPORT_ARRAY_INDEX => Val::Int(u64::from(self.viewport_index)),
            _ => match self.varying(sig, row) {
                Some((v, mode)) => {
                    let w = match *mode {
                        INTERP_LINEAR_SAMPLE | INTERP_NOPERSPECTIVE_SAMPLE if self.sample.is_some() => {
                            self.weights_at(self.sample_point(self.sample.unwrap_or(0)))
                        }
                        INTERP_LINEAR_CENTROID | INTERP_NOPERSPECTIVE_CENTROID if !self.helper => {
                            self.weights_at(self.centroid_point())
                        }
                        _ => (self.persp, self.linear),
                    };
                    self.interpolate(e, v, *mode, c, w)
                }
                None => Val::F32(0.0),
            },
        })
    }
    /// EvalSnapped / EvalSampleIndex / EvalCentroid: the input's declared mode minus its
    /// centroid or sample part, at the pixel center moved by sixteenths, at a sample of the
    /// pattern, or at the centroid ("Use of centroid or sample is ignored. Attributes with
    /// constant interpolation are also allowed": EvaluateAttribute* docs).
    fn eval_input(&mut self, sig: u32, row: u32, col: u8, at: EvalAt) -> Result<Val, ExecError> {
        let e = input_element(self.inputs, sig)?;
        let Some((v, mode)) = self.varying(sig, row) else {
            return Ok(Val::F32(0.0));
        };
        let point = match at {
            EvalAt::Snapped(x, y) => {
                (self.pixel.0 as f32 + 0.5 + x as f32 / 16.0, self.pixel.1 as f32 + 0.5 + y as f32 / 16.0)
            }
            EvalAt::Sample(n) => self.sample_point(n),
            EvalAt::Centroid => self.centroid_point(),
        };
        Ok(self.interpolate(e, v, *mode, col as usize & 3, self.weights_at(point)))
    }
    fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> Result<(), ExecError> {
        let e =
            self.outputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("output signature".into()))?;
        match e.semantic_kind {
            SV_TARGET => {
                let n = e.semantic_indices.first().copied().unwrap_or(0) as usize;
                if let Some(t) = self.targets.get_mut(n) {
                    let slot = t.get_or_insert([0; 4]);
                    slot[col as usize & 3] = bits_of(value);
                }
            }
            SV_DEPTH => {
                if let Val::F32(z) = value {
                    self.depth = Some(*z);
                }
            }
            SV_COVERAGE => self.out_coverage = Some(bits_of(value)),
            // The stencil reference the depth-stencil test and REPLACE use for this pixel (its
            // low 8 bits), instead of OMSetStencilRef's.
            SV_STENCIL_REF => self.stencil_ref = Some(bits_of(value) as u8),
            _ => {}
        }
        Ok(())
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        self.discarded = true;
        Ok(())
    }
    fn sample_count(&mut self) -> Result<u32, ExecError> {
        Ok(self.samples.len() as u32)
    }
    fn sample_position(&mut self, index: u32) -> Result<[f32; 2], ExecError> {
        Ok(self.samples.get(index as usize).map_or([0.0; 2], |&(x, y)| [f32::from(x) / 16.0, f32::from(y) / 16.0]))
    }
    /// SampleIndex (90): the sample this invocation shades (0 at pixel frequency, see
    /// [`draw`]); Coverage (91): the covered samples under SampleMask (at sample frequency only
    /// the invocation's own).
    fn system_value(&mut self, opcode: u32, _component: u32) -> Result<u32, ExecError> {
        match opcode {
            90 => Ok(self.sample.unwrap_or(0)),
            91 => Ok(self.coverage),
            _ => Err(ExecError::Unsupported(format!("dx.op {opcode} in a pixel shader"))),
        }
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

/// Puts fragments in quad order: quads by (y, x) of their top-left pixel, each quad's fragments
/// in raster order (what a stable sort by quad gives). The rasterizer emits a triangle's pixels
/// row by row, so pairs of rows merge in one pass; other orders (clipped polygons, lines) are
/// sorted by pixel first.
fn quad_order(frags: &mut Vec<raster::Fragment>, scratch: &mut Vec<raster::Fragment>) {
    let key = |f: &raster::Fragment| (f.y, f.x);
    if !frags.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
        frags.sort_unstable_by_key(key);
    }
    scratch.clear();
    let mut rest = &frags[..];
    while let Some(first) = rest.first() {
        // The rows of this quad row: y even (top) and y + 1 (bottom), each sorted by x.
        let qy = first.y & !1;
        let end = rest.iter().position(|f| f.y & !1 != qy).unwrap_or(rest.len());
        let (pair, tail) = rest.split_at(end);
        let split = pair.iter().position(|f| f.y != pair[0].y).unwrap_or(pair.len());
        let (mut top, mut bottom) = pair.split_at(split);
        if top.first().is_some_and(|f| f.y & 1 == 1) {
            // Only the bottom row has pixels here.
            (top, bottom) = (&[], top);
        }
        while !top.is_empty() || !bottom.is_empty() {
            let qx = match (top.first(), bottom.first()) {
                (Some(a), Some(b)) => (a.x & !1).min(b.x & !1),
                (Some(a), None) => a.x & !1,
                (None, Some(b)) => b.x & !1,
                (None, None) => break,
            };
            let t = top.iter().position(|f| f.x & !1 != qx).unwrap_or(top.len());
            let b = bottom.iter().position(|f| f.x & !1 != qx).unwrap_or(bottom.len());
            scratch.extend_from_slice(&top[..t]);
            scratch.extend_from_slice(&bottom[..b]);
            top = &top[t..];
            bottom = &bottom[b..];
        }
        rest = tail;
    }
    std::mem::swap(frags, scratch);
}

/// The RT value range for blending.
fn range_of(format: sys::DXGI_FORMAT) -> Range {
    let name = rd3d12_core::format::info(format).map_or("", |i| i.name);
    if name.contains("SNORM") {
        Range::Snorm
    } else if name.contains("FLOAT") {
        Range::Float
    } else {
        Range::Unorm
    }
}

/// Runs one draw. Each stage reads its own bindings (root signature visibility); pixels go to
/// `targets[n]` (None: no RTV bound in slot n), depth and stencil to `depth`; the pipeline's
/// states decide how.
///
/// Multisampling (SampleDesc.Count 2, 4, 8 or 16; targets laid out `sample_stride` apart):
/// coverage and depth are per sample at the standard positions ([`raster`]); the pixel shader
/// runs once per pixel, at the pixel center, also when it reads SV_SampleIndex (which then
/// reads 0; D3D would run it per sample: not done here) — SV_Coverage reads the covered samples
/// under SampleMask. Its output goes to every covered sample that SampleMask, an output
/// SV_Coverage and alpha-to-coverage ([`alpha_coverage`]) keep and that passes the depth-stencil
/// test at its own depth. Occlusion counts passing samples.
pub fn draw(
    call: &DrawCall<'_>,
    vs_bindings: &dyn Bindings,
    gs_bindings: &dyn Bindings,
    ps_bindings: &dyn Bindings,
    targets: &mut [Option<Target<'_>>],
    mut depth: Option<&mut DepthStencilTarget<'_>>,
    so: &mut [Option<SoBuffer<'_>>],
) -> Result<DrawStats, DrawError> {
    let p = call.pipeline;
    // UAV-only rendering with ForcedSampleCount N rasterizes (and runs the pixel shader) with
    // N samples although nothing is bound to take them.
    let forced = p.rasterizer.forced_sample_count;
    let uav_only = p.num_render_targets == 0 && p.dsv_format == 0;
    let count = if forced > 1 && uav_only { forced } else { p.sample_count.max(1) };
    let standard = rd3d12_core::multisample::standard_sample_positions(count)
        .ok_or(DrawError::Unsupported("this sample count"))?;
    // SetSamplePositions' pattern, for pipelines of its sample count.
    let samples = match call.sample_positions {
        Some(s) if s.len() == standard.len() => s,
        _ => standard,
    };
    // SampleMask, limited to the pattern's samples.
    let sample_mask = (p.sample_mask & ((1u32 << samples.len()) - 1)) as u16;
    // ForcedSampleCount 1 on multisampled targets: the rasterizer takes one sample, at the
    // pixel center, and a covered pixel covers every sample of the targets
    // (D3D12_RASTERIZER_DESC::ForcedSampleCount; "MRT with ForcedSampleCount 1").
    let forced_one = p.rasterizer.forced_sample_count == 1 && samples.len() > 1;
    let raster_samples =
        if forced_one { rd3d12_core::multisample::standard_sample_positions(1).unwrap_or(samples) } else { samples };
    let all_samples = ((1u32 << samples.len()) - 1) as u16;
    let mut stats = DrawStats::default();
    let read = call.vertices.iter().filter(|&&v| Some(v) != call.cut).count() as u64;
    stats.ia_vertices = read * u64::from(call.instances);
    let prims = input_assembler::primitives(call.topology, &call.vertices, call.cut);
    // A geometry shader sees every vertex of each primitive, adjacent ones included.
    let gs_inputs = match call.gs {
        Some(_) => input_assembler::gs_inputs(call.topology, &call.vertices, call.cut),
        None => Vec::new(),
    };
    let offsets = input_assembler::element_offsets(&p.input_layout);
    let vs_fn = call.vs.function()?;
    let mut handles = Handles::default();
    let vs_res = call.vs.module.dx_metadata().map(|m| m.resources).unwrap_or_default();
    let ps_md = call.ps.as_ref().map(|s| s.module.dx_metadata().map(|m| m.resources).unwrap_or_default());
    let pos_sig = call.vs.entry.outputs.iter().find(|e| e.semantic_kind == SV_POSITION).map(|e| e.id);
    let tess = call.tess.as_ref().map(|t| TessStage::new(t, &call.vs.entry.outputs)).transpose()?;
    // Patch lists go to the tessellation stages and only they take patches. A patch list of
    // another control-point count than the hull shader's input patch still runs, as on
    // Windows' WARP (Mesa's d3d12 driver declares 32 input control points and draws GL's
    // patch size): patches have the topology's count, and the hull shader reads control
    // points past it as 0 (the debug layer reports the mismatch when the draw is recorded).
    let patches = match (call.topology, &tess) {
        (input_assembler::Topology::PatchList(n), Some(_)) => input_assembler::patches(n, &call.vertices, call.cut),
        (input_assembler::Topology::PatchList(_), None) => {
            return Err(DrawError::Unsupported("a patch list without tessellation stages"))
        }
        (_, Some(_)) => return Err(DrawError::Unsupported("tessellation of a topology that is no patch list")),
        _ => Vec::new(),
    };
    // The outputs the stage after the vertex shader (or tessellation) reads.
    let pre_gs_outputs = call.tess.as_ref().map_or(&call.vs.entry.outputs, |t| &t.ds.entry.outputs);
    let gs = call.gs.as_ref().map(|g| GsStage::new(g, pre_gs_outputs, gs_bindings)).transpose()?;
    // The outputs the rasterizer and the pixel shader read: the last stage before them.
    let last_outputs = call.gs.as_ref().map_or(pre_gs_outputs, |g| &g.entry.outputs);
    // Stream output, and whether stream 0 (the only one that runs) is also rasterized.
    let so_writer = stream_output::Writer::new(&p.stream_output, last_outputs);
    let rasterize = p.rasterizes(call.ps.is_some());
    // Without SV_Position the stages still run and stream out; only a disabled rasterizer is
    // valid then (CreateGraphicsPipelineState refuses the rest, see
    // [`PipelineDesc::rasterizes`]).
    if rasterize && !last_outputs.iter().any(|e| e.semantic_kind == SV_POSITION) {
        return Err(DrawError::Unsupported("rasterization without SV_Position"));
    }
    let rt = &p.rasterizer;
    let cull = Cull::from_d3d(rt.cull).unwrap_or(Cull::None);
    let wireframe = rt.fill == sys::D3D12_FILL_MODE_WIREFRAME.0;
    let user_planes = UserPlanes::of(last_outputs);
    let limit = targets
        .iter()
        .flatten()
        .map(|t| (t.width, t.height))
        .chain(depth.as_deref().map(|d| (d.width, d.height)))
        .fold((u32::MAX, u32::MAX), |a, b| (a.0.min(b.0), a.1.min(b.1)));
    // One rasterizer state per viewport: viewport ∩ its scissor ∩ the targets.
    if call.viewports.is_empty() {
        return Err(DrawError::Unsupported("a draw without a viewport"));
    }
    let tstates: Vec<TriangleState> = call
        .viewports
        .iter()
        .enumerate()
        .map(|(i, vp)| {
            let vp = &vp.in_bounds();
            let mut bounds = Rect {
                left: vp.x.floor() as i32,
                top: vp.y.floor() as i32,
                right: (vp.x + vp.width).ceil() as i32,
                bottom: (vp.y + vp.height).ceil() as i32,
            };
            if let Some(Some(s)) = call.scissors.get(i) {
                bounds = bounds.intersect(s);
            }
            if limit.0 != u32::MAX {
                bounds = bounds.intersect(&Rect { left: 0, top: 0, right: limit.0 as i32, bottom: limit.1 as i32 });
            }
            TriangleState {
                cull,
                front_ccw: rt.front_ccw,
                depth_clip: rt.depth_clip,
                viewport: *vp,
                bounds,
                samples: raster_samples,
            }
        })
        .collect();
    let pick = PrimitiveIndices::of(last_outputs);

    let mut frags: Vec<raster::Fragment> = Vec::new();
    let mut frag_scratch: Vec<raster::Fragment> = Vec::new();
    let mut lane_handles: [Handles; 4] = Default::default();
    let integer_targets: Vec<bool> = targets
        .iter()
        .map(|t| {
            t.as_ref().is_some_and(|t| rd3d12_core::format::info(t.format).is_some_and(|i| i.name.contains("INT")))
        })
        .collect();
    for instance in 0..call.instances {
        let mut cache: HashMap<u32, ShadedVertex> = HashMap::new();
        let count = if tess.is_some() { patches.len() } else { prims.len() };
        for prim_id in 0..count {
            let ids: &[u32] = match (patches.get(prim_id), gs_inputs.get(prim_id), &prims.get(prim_id)) {
                (Some(patch), _, _) => patch,
                (None, Some(all), _) => all,
                (None, None, Some(Primitive::Point(v))) => std::slice::from_ref(v),
                (None, None, Some(Primitive::Line(l))) => l,
                (None, None, Some(Primitive::Triangle(t))) => t,
                (None, None, None) => continue,
            };
            let mut verts = Vec::with_capacity(3);
            for &v in ids {
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
                        // SV_VertexID and SV_InstanceID start at 0 whatever the draw's start
                        // locations (which only choose the vertex data fetched).
                        vertex_id: v.wrapping_sub(call.vertex_id_base),
                        instance_id: instance,
                        outputs: HashMap::new(),
                        handles: &mut handles,
                        resources: &vs_res,
                        bindings: vs_bindings,
                        _a: std::marker::PhantomData,
                    };
                    exec::run(call.vs.module, vs_fn, &mut env)?;
                    stats.vertices_shaded += 1;
                    let pos = pos_sig
                        .and_then(|s| env.outputs.get(&(s, 0)))
                        .map_or([0.0; 4], |p| [0, 1, 2, 3].map(|c| f32_of(&p[c])));
                    slot.insert(ShadedVertex { clip: pos, outputs: env.outputs });
                }
                verts.push(cache[&v].clone());
            }
            stats.primitives += 1;
            // The primitives to rasterize: the assembled one, or what the geometry shader
            // made of it.
            let raster_prims = match (&tess, &gs) {
                (Some(t), None) => t.run(&verts, prim_id as u32, &mut handles, &mut stats)?,
                (Some(t), Some(g)) => {
                    let mut out = Vec::new();
                    for (_, verts, id) in t.run(&verts, prim_id as u32, &mut handles, &mut stats)? {
                        out.extend(g.run(&verts, id, &mut handles, &mut stats)?);
                    }
                    out
                }
                (None, Some(g)) => g.run(&verts, prim_id as u32, &mut handles, &mut stats)?,
                (None, None) => vec![(prims[prim_id], verts, prim_id as u32)],
            };
            for (prim, verts, prim_id) in raster_prims {
                let prim = &prim;
                if let Some(w) = &so_writer {
                    let n = match prim {
                        Primitive::Point(_) => 1,
                        Primitive::Line(_) => 2,
                        Primitive::Triangle(_) => 3,
                    };
                    let list: Vec<&ShadedVertex> = verts.iter().take(n).collect();
                    stats.so_needed += 1;
                    stats.so_written += u64::from(w.write(&list, so));
                }
                if !rasterize {
                    continue;
                }
                stats.c_invocations += 1;
                // SV_ViewportArrayIndex and SV_RenderTargetArrayIndex of the leading vertex.
                let (viewport_index, layer) = pick.of_vertex(&verts[0]);
                let tstate = tstates.get(viewport_index as usize).unwrap_or(&tstates[0]);
                let viewport = tstate.viewport;
                // Points and lines repeat their last vertex, with weight 0, to fill three.
                let last = verts.len() - 1;
                let vert = |k: usize| &verts[k.min(last)];
                let clip = [vert(0).clip, vert(1).clip, vert(2).clip];
                // SV_CullDistance: a primitive whose vertices are all negative on one distance is
                // dropped; SV_ClipDistance: the part where one is negative is cut away.
                let n = match prim {
                    Primitive::Point(_) => 1,
                    Primitive::Line(_) => 2,
                    Primitive::Triangle(_) => 3,
                };
                let of = |set: &[(u32, u32, u32)]| -> Vec<[f32; 3]> {
                    set.iter()
                        .flat_map(|&(id, row, cols)| (0..cols as usize).map(move |c| (id, row, c)))
                        .map(|(id, row, c)| {
                            std::array::from_fn(|k| {
                                vert(k.min(n - 1)).outputs.get(&(id, row)).map_or(0.0, |v| f32_of(&v[c]))
                            })
                        })
                        .collect()
                };
                let culled = of(&user_planes.cull).iter().any(|d| d[..n].iter().all(|&x| x < 0.0));
                let distances = of(&user_planes.clip);
                if culled || (n == 1 && distances.iter().any(|d| d[0].is_nan() || d[0] < 0.0)) {
                    continue;
                }
                let bias = match prim {
                    Primitive::Triangle(_) => {
                        triangle_depth_bias(&clip, &distances, tstate, rt, depth.as_deref().map(|d| d.format))
                    }
                    _ => 0.0,
                };
                // Covered pixels, grouped by quad below.
                frags.clear();
                let mut add = |f: &raster::Fragment| {
                    let mut f = *f;
                    if forced_one {
                        f.coverage = all_samples;
                        f.sample_depth = [f.depth; raster::MAX_SAMPLES];
                    }
                    frags.push(f)
                };
                let line = match prim {
                    Primitive::Point(_) => {
                        stats.c_primitives += u64::from(raster::rasterize_point(&clip[0], tstate, &mut add));
                        None
                    }
                    Primitive::Line(_) => {
                        let setup = raster::LineSetup::clipped(&[clip[0], clip[1]], &distances, tstate);
                        if let Some(l) = &setup {
                            stats.c_primitives += 1;
                            l.rasterize(tstate, &mut add);
                        }
                        setup
                    }
                    Primitive::Triangle(_) => {
                        stats.c_primitives +=
                            raster::rasterize_triangle_clipped(&clip, &distances, wireframe, tstate, &mut add);
                        None
                    }
                };
                if wireframe {
                    // Edges meet in corners; a pixel two edges cover is drawn once.
                    frags.sort_by_key(|f| (f.y, f.x));
                    frags.dedup_by_key(|f| (f.y, f.x));
                }
                if frags.is_empty() {
                    continue;
                }
                let Some(ps) = &call.ps else {
                    // No pixel shader: depth only.
                    for f in &frags {
                        for s in bits(f.coverage & sample_mask) {
                            let pass = match depth.as_deref_mut() {
                                Some(d) => depth_write(
                                    d,
                                    p,
                                    &viewport,
                                    (f.x, f.y, s, layer),
                                    f.sample_depth[s as usize] + bias,
                                    f.front_facing,
                                    call.stencil_ref,
                                ),
                                None => true,
                            };
                            stats.samples_passed += u64::from(pass);
                        }
                    }
                    continue;
                };
                let ps_fn = ps.function()?;
                // A shader that reads SV_SampleIndex or has a `sample` input runs once per covered
                // sample (sample-frequency execution, as D3D11 defined it and D3D12 keeps).
                let per_sample = ps.entry.inputs.iter().any(|e| {
                    e.semantic_kind == SV_SAMPLE_INDEX
                        || matches!(e.interpolation, INTERP_LINEAR_SAMPLE | INTERP_NOPERSPECTIVE_SAMPLE)
                });
                let passes = if per_sample { samples.len() } else { 1 };
                // Varyings: for each PS input row, the three vertices' values of the VS output with
                // the same semantic.
                let mut varyings: Varyings = Vec::new();
                for pe in &ps.entry.inputs {
                    for (r, idx) in pe.semantic_indices.iter().enumerate() {
                        let Some(ve) = last_outputs.iter().find(|o| {
                            o.name.eq_ignore_ascii_case(&pe.name)
                                && o.semantic_indices.iter().position(|i| i == idx).is_some()
                        }) else {
                            continue;
                        };
                        let vrow = ve.semantic_indices.iter().position(|i| i == idx).unwrap_or(0) as u32;
                        let vals: [[f32; 4]; 3] = core::array::from_fn(|k| {
                            vert(k)
                                .outputs
                                .get(&(ve.id, vrow))
                                .map_or([0.0; 4], |o| [0, 1, 2, 3].map(|c| f32_of(&o[c])))
                        });
                        let key = (pe.id, r as u32);
                        match varyings.iter_mut().find(|(k, _)| *k == key) {
                            Some((_, v)) => *v = (vals, pe.interpolation),
                            None => varyings.push((key, (vals, pe.interpolation))),
                        }
                    }
                }
                let ps_res = ps_md.as_deref().unwrap_or(&[]);
                // Quads in (y, x) order, each quad's fragments in raster order.
                let quad_of = |f: &raster::Fragment| (f.y & !1, f.x & !1);
                quad_order(&mut frags, &mut frag_scratch);
                for covered in frags.chunk_by(|a, b| quad_of(a) == quad_of(b)) {
                    let (qy, qx) = quad_of(&covered[0]);
                    let front = covered[0].front_facing;
                    let shape = match (prim, &line) {
                        (Primitive::Point(_), _) => Shape::Point(covered[0].depth),
                        (_, Some(l)) => Shape::Line(l),
                        _ => Shape::Triangle(&clip),
                    };
                    // At sample frequency, pass n shades sample n of the pixels that cover it.
                    for pass in 0..passes {
                        let only = if per_sample { 1u16 << pass } else { u16::MAX };
                        if covered.iter().all(|f| f.coverage & only == 0) {
                            continue;
                        }
                        // Each lane starts from the handles the draw made so far (allocations reused).
                        for hs in lane_handles.iter_mut() {
                            hs.list.clone_from(&handles.list);
                            hs.strides.clone_from(&handles.strides);
                        }
                        let mut zs = [[0.0f32; raster::MAX_SAMPLES]; 4];
                        let mut coverage = [0u16; 4];
                        let mut lane_env = |lane: usize, hs| {
                            let (x, y) = (qx + (lane as i32 & 1), qy + (lane as i32 >> 1));
                            let frag = covered.iter().find(|f| f.x == x && f.y == y);
                            if let Some(f) = frag {
                                zs[lane] = f.sample_depth;
                                coverage[lane] = f.coverage & only;
                            }
                            let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                            let (persp, linear, z) = match frag {
                                Some(f) => (f.persp, f.linear, f.depth),
                                // Helpers: the primitive's weights extended to the pixel.
                                None => shape.weights(cx, cy, &viewport),
                            };
                            // SV_Position.w: the clip-space w at the pixel (1/w is linear on screen).
                            let inv_w: f32 = (0..3).map(|k| linear[k] / clip[k][3]).sum();
                            let w = if inv_w != 0.0 { 1.0 / inv_w } else { 0.0 };
                            PsEnv {
                                inputs: &ps.entry.inputs,
                                varyings: &varyings,
                                persp,
                                linear,
                                position: [cx, cy, z, w],
                                shape,
                                viewport,
                                viewport_index,
                                layer,
                                pixel: (x, y),
                                samples,
                                raster_coverage: frag.map_or(0, |f| f.coverage),
                                sample: per_sample.then_some(pass as u32),
                                front,
                                primitive_id: prim_id,
                                helper: coverage[lane] == 0,
                                discarded: false,
                                targets: Default::default(),
                                depth: None,
                                coverage: u32::from(coverage[lane] & sample_mask),
                                out_coverage: None,
                                stencil_ref: None,
                                handles: hs,
                                resources: ps_res,
                                outputs: &ps.entry.outputs,
                                bindings: ps_bindings,
                            }
                        };
                        // Built in place (an array, not pushed into a Vec): the environments are moved
                        // and freed per quad otherwise.
                        let [h0, h1, h2, h3] = lane_handles.each_mut();
                        let mut envs = [lane_env(0, h0), lane_env(1, h1), lane_env(2, h2), lane_env(3, h3)];
                        {
                            let [a, b, c, d] = &mut envs;
                            exec::run_quad(ps.module, ps_fn, [a, b, c, d])?;
                        }
                        for (lane, env) in envs.iter().enumerate() {
                            stats.ps_invocations += u64::from(!env.helper);
                            if env.helper || env.discarded {
                                continue;
                            }
                            stats.pixels_shaded += 1;
                            let (x, y) = (qx + (lane as i32 & 1), qy + (lane as i32 >> 1));
                            let mut mask = coverage[lane] & sample_mask & env.out_coverage.map_or(0xFFFF, |m| m as u16);
                            if p.blend.alpha_to_coverage {
                                let alpha =
                                    env.targets.first().copied().flatten().map_or(1.0, |t| f32::from_bits(t[3]));
                                mask &= alpha_coverage(alpha, samples.len());
                            }
                            // Per sample: the depth-stencil test (SV_Depth replaces the rasterized
                            // depth; the bias applies to the latter only), then the output.
                            let mut passed = 0u16;
                            for s in bits(mask) {
                                let z = env.depth.unwrap_or(zs[lane][s as usize] + bias);
                                if let Some(d) = depth.as_deref_mut() {
                                    let stencil_ref = env.stencil_ref.unwrap_or(call.stencil_ref);
                                    if !depth_write(d, p, &viewport, (x, y, s, layer), z, front, stencil_ref) {
                                        continue;
                                    }
                                }
                                passed |= 1 << s;
                            }
                            stats.samples_passed += u64::from(passed.count_ones());
                            if passed == 0 {
                                continue;
                            }
                            let mut wrote = false;
                            // Dual-source blending: SV_Target1 is the second source of target 0's
                            // SRC1 blend factors.
                            let src1 = env.targets[1].unwrap_or([0; 4]);
                            for (n, slot) in targets.iter_mut().enumerate() {
                                let (Some(t), Some(src)) = (slot.as_mut(), env.targets.get(n).cloned().flatten())
                                else {
                                    continue;
                                };
                                let blend = &p.blend.rt[if p.blend.independent { n } else { 0 }];
                                for s in bits(passed) {
                                    write_pixel(
                                        t,
                                        integer_targets[n],
                                        (x, y, s, layer),
                                        (&src, &src1),
                                        blend,
                                        call.blend_factor,
                                    );
                                }
                                wrote = true;
                            }
                            if wrote {
                                stats.pixels_written += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(stats)
}

/// The depth and stencil tests of one pixel with their writes; `true` if the pixel passes.
///
/// The depth bias of a triangle (D3D11.3 §15.10 "Depth Bias", which D3D12 keeps): DepthBias
/// scaled by the depth buffer's resolution (2⁻ⁿ for an n-bit UNORM buffer, 2^(e−23) for a float
/// buffer, e the exponent of the triangle's largest |z|) plus SlopeScaledDepthBias times the
/// triangle's largest screen-space depth slope, clamped by DepthBiasClamp. Zero without a depth
/// buffer or without bias. A triangle with a vertex behind the eye (w ≤ 0) has a screen-space
/// plane only where clipping leaves it: slope and largest |z| come from the clipped polygon
/// ([`raster::clipped_depth_plane`], cut by `distances` as it is drawn).
fn triangle_depth_bias(
    clip: &[[f32; 4]; 3],
    distances: &[[f32; 3]],
    tstate: &TriangleState,
    rt: &rd3d12_core::pipeline::Rasterizer,
    format: Option<sys::DXGI_FORMAT>,
) -> f32 {
    let Some(format) = format else { return 0.0 };
    if rt.depth_bias == 0 && rt.slope_scaled_depth_bias == 0.0 {
        return 0.0;
    }
    let unorm_bits = match format {
        sys::DXGI_FORMAT_D16_UNORM => Some(16),
        sys::DXGI_FORMAT_D24_UNORM_S8_UINT => Some(24),
        _ => None,
    };
    if clip.iter().any(|c| c[3] <= 0.0) {
        let Some((slope, max_abs_z)) = raster::clipped_depth_plane(clip, distances, tstate) else {
            return 0.0;
        };
        return raster::depth_bias(
            rt.depth_bias,
            rt.slope_scaled_depth_bias,
            rt.depth_bias_clamp,
            slope as f32,
            unorm_bits,
            max_abs_z as f32,
        );
    }
    let vp = &tstate.viewport;
    // Screen-space positions.
    let s = clip.map(|c| {
        let (x, y, z) = (c[0] / c[3], c[1] / c[3], c[2] / c[3]);
        [
            f64::from(vp.x) + (1.0 + f64::from(x)) * f64::from(vp.width) / 2.0,
            f64::from(vp.y) + (1.0 - f64::from(y)) * f64::from(vp.height) / 2.0,
            f64::from(vp.min_depth) + f64::from(z) * f64::from(vp.max_depth - vp.min_depth),
        ]
    });
    let e1 = [s[1][0] - s[0][0], s[1][1] - s[0][1], s[1][2] - s[0][2]];
    let e2 = [s[2][0] - s[0][0], s[2][1] - s[0][1], s[2][2] - s[0][2]];
    let det = e1[0] * e2[1] - e2[0] * e1[1];
    let slope = if det == 0.0 {
        0.0
    } else {
        let dzdx = (e1[2] * e2[1] - e2[2] * e1[1]) / det;
        let dzdy = (e2[2] * e1[0] - e1[2] * e2[0]) / det;
        dzdx.abs().max(dzdy.abs())
    };
    let max_abs_z = s.iter().map(|v| v[2].abs()).fold(0.0f64, f64::max) as f32;
    raster::depth_bias(
        rt.depth_bias,
        rt.slope_scaled_depth_bias,
        rt.depth_bias_clamp,
        slope as f32,
        unorm_bits,
        max_abs_z,
    )
}

/// The incoming depth is clamped to the viewport's depth range (what D3D does to SV_Depth;
/// interpolated depth already is) and then converted to the buffer's format the way a
/// depth write stores it ([`rd3d12_core::pack::encode_depth`]: UNORM `floor(z·(2ⁿ−1) + 0.5)`, f32
/// with denormals flushed), so the test compares exactly what is, or would be, stored. A plane
/// the view marks read-only is tested but never written.
fn depth_write(
    d: &mut DepthStencilTarget<'_>,
    p: &PipelineDesc,
    vp: &Viewport,
    at: (i32, i32, u32, u32),
    z: f32,
    front: bool,
    stencil_ref: u8,
) -> bool {
    let (lo, hi) = (vp.min_depth.min(vp.max_depth), vp.min_depth.max(vp.max_depth));
    let z = if z.is_nan() { z } else { z.clamp(lo, hi) };
    let Some(kind) = DepthKind::of(d.format) else { return true };
    let Some(e) = d.depth.element(at, kind.bytes()) else { return true };
    // Both sides as exact f32s: UNORM values as their integers (at most 24 bits, exact in f32).
    let stored = kind.read(e);
    let incoming = kind.quantize(z);
    let stencil_at = match d.stencil.as_mut() {
        Some(s) => s.element(at, 1),
        None => None,
    };
    let stored_stencil = stencil_at.as_ref().map(|s| s[0]);
    let r = om::depth_stencil(&p.depth_stencil, front, incoming.0, Some(stored.0), stored_stencil, stencil_ref);
    if let (Some(s), Some(v), false) = (stencil_at, r.stencil, d.read_only_stencil) {
        s[0] = v;
    }
    if let (Some(_), false) = (r.depth, d.read_only_depth) {
        let Some(e) = d.depth.element(at, kind.bytes()) else { return r.pass };
        kind.write(e, incoming.1);
    }
    r.pass
}

/// The depth plane's element layout of a depth-stencil format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DepthKind {
    /// D16_UNORM: 2 bytes.
    Unorm16,
    /// D24_UNORM_S8_UINT's plane 0: a 32-bit element, the UNORM in bits 0–23.
    Unorm24,
    /// D32_FLOAT and D32_FLOAT_S8X24_UINT's plane 0: the f32.
    Float32,
}

impl DepthKind {
    fn of(format: sys::DXGI_FORMAT) -> Option<DepthKind> {
        match format {
            sys::DXGI_FORMAT_D16_UNORM => Some(DepthKind::Unorm16),
            sys::DXGI_FORMAT_D24_UNORM_S8_UINT => Some(DepthKind::Unorm24),
            sys::DXGI_FORMAT_D32_FLOAT | sys::DXGI_FORMAT_D32_FLOAT_S8X24_UINT => Some(DepthKind::Float32),
            _ => None,
        }
    }

    fn bytes(self) -> usize {
        if self == DepthKind::Unorm16 {
            2
        } else {
            4
        }
    }

    fn format(self) -> sys::DXGI_FORMAT {
        match self {
            DepthKind::Unorm16 => sys::DXGI_FORMAT_D16_UNORM,
            DepthKind::Unorm24 => sys::DXGI_FORMAT_D24_UNORM_S8_UINT,
            DepthKind::Float32 => sys::DXGI_FORMAT_D32_FLOAT,
        }
    }

    /// The stored value as the test compares it, and its bits.
    fn read(self, e: &[u8]) -> (f32, u32) {
        match self {
            DepthKind::Unorm16 => {
                let v = u32::from(u16::from_le_bytes([e[0], e[1]]));
                (v as f32, v)
            }
            DepthKind::Unorm24 => {
                let v = u32::from_le_bytes([e[0], e[1], e[2], e[3]]) & 0x00FF_FFFF;
                (v as f32, v)
            }
            DepthKind::Float32 => {
                let v = u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
                (f32::from_bits(v), v)
            }
        }
    }

    /// `z` converted to the format: the value the test compares, and the bits a write stores.
    fn quantize(self, z: f32) -> (f32, u32) {
        let (b, _) = rd3d12_core::pack::encode_depth(self.format(), z).unwrap_or(([0; 16], 0));
        self.read(&b[..4])
    }

    /// Stores `bits`; D24's bits 24–31 (no part of the depth) are kept.
    fn write(self, e: &mut [u8], bits: u32) {
        let b = bits.to_le_bytes();
        match self {
            DepthKind::Unorm16 => e[..2].copy_from_slice(&b[..2]),
            DepthKind::Unorm24 => e[..3].copy_from_slice(&b[..3]),
            DepthKind::Float32 => e[..4].copy_from_slice(&b),
        }
    }
}

/// The samples of a coverage mask, lowest first.
fn bits(mask: u16) -> impl Iterator<Item = u32> {
    (0..16).filter(move |s| mask & (1 << s) != 0)
}

/// Alpha-to-coverage: the first `round(alpha × n)` samples of `n` (alpha clamped to [0, 1],
/// NaN → 0). D3D leaves the dither pattern to the implementation; this one is ordered and the
/// same for every pixel, and with one sample it keeps the pixel for alpha ≥ 0.5.
fn alpha_coverage(alpha: f32, n: usize) -> u16 {
    let a = if alpha.is_nan() { 0.0 } else { alpha.clamp(0.0, 1.0) };
    let k = (a * n as f32 + 0.5).floor() as u32;
    ((1u32 << k.min(16)) - 1) as u16
}

/// Writes one sample's color (`integer`: the target's format is an integer one), blended,
/// logic-oped or copied.
fn write_pixel(
    t: &mut Target<'_>,
    integer: bool,
    (x, y, sample, layer): (i32, i32, u32, u32),
    (src, src1): (&[u32; 4], &[u32; 4]),
    blend: &rd3d12_core::pipeline::RtBlend,
    factor: [f32; 4],
) {
    let format = t.format;
    let Some(e) = t.element(x, y, sample, layer) else { return };
    // Without blending or logic ops and with every channel written, the stored value is unused.
    let replace = blend.write_mask & 0xF == 0xF;
    if integer {
        let s = *src;
        let d = if replace && !blend.logic_op_enable {
            [0; 4]
        } else {
            rd3d12_core::pack::decode_lanes(format, e).unwrap_or([0; 4])
        };
        let v = if blend.logic_op_enable {
            [0, 1, 2, 3].map(|c| om::logic_op(blend.logic_op, s[c], d[c]).unwrap_or(d[c]))
        } else {
            s
        };
        let v = om::masked(blend.write_mask, v, d);
        if let Some((b, n)) = rd3d12_core::pack::encode_uint(format, v) {
            e.copy_from_slice(&b[..n]);
        }
        return;
    }
    let s = src.map(f32::from_bits);
    let d = if replace && !blend.blend_enable {
        [0.0; 4]
    } else {
        rd3d12_core::pack::decode_color(format, e).unwrap_or([0.0; 4])
    };
    let v = if blend.blend_enable {
        let src1 = src1.map(f32::from_bits);
        om::blend(blend, range_of(format), &BlendInputs { src: s, src1, dst: d, constant: factor })
    } else {
        om::masked(blend.write_mask, s, d)
    };
    if let Some((b, n)) = rd3d12_core::pack::encode_color(format, v) {
        e.copy_from_slice(&b[..n]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_core::pipeline::PipelineKind;

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
    }

    /// A draw of `vertices` from one buffer of 24-byte vertices on a `w`×`h` viewport at the
    /// origin with the (vertex, geometry, pixel) shaders: one instance, no strip cut, scissor,
    /// blend factor or stencil reference.
    pub(super) fn simple_call<'a>(
        (vs, gs, ps): (
            &'a rd3d12_shader::dxil::Program,
            Option<&'a rd3d12_shader::dxil::Program>,
            Option<&'a rd3d12_shader::dxil::Program>,
        ),
        pipeline: &'a PipelineDesc,
        topology: input_assembler::Topology,
        vertices: Vec<u32>,
        vb: &'a [u8],
        (w, h): (u32, u32),
    ) -> DrawCall<'a> {
        let shader = |p: &'a rd3d12_shader::dxil::Program| Shader { module: &p.module, entry: &p.dx.entry_points[0] };
        DrawCall {
            vs: shader(vs),
            tess: None,
            gs: gs.map(shader),
            ps: ps.map(shader),
            pipeline,
            topology,
            vertices,
            cut: None,
            vertex_id_base: 0,
            instances: 1,
            start_instance: 0,
            vertex_buffers: vec![Some(VertexBuffer { data: vb, stride: 24 })],
            viewports: vec![Viewport {
                x: 0.0,
                y: 0.0,
                width: w as f32,
                height: h as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            }],
            scissors: Vec::new(),
            blend_factor: [0.0; 4],
            stencil_ref: 0,
            sample_positions: None,
        }
    }

    /// A single-sample, single-layer RGBA8_UNORM target of `w`x`h` over `data` (tightly packed rows).
    pub(super) fn rgba8(data: &mut [u8], w: u32, h: u32) -> Target<'_> {
        Target {
            data,
            row_pitch: w as usize * 4,
            width: w,
            height: h,
            format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
            sample_stride: 0,
            layers: 1,
            layer_stride: 0,
        }
    }

    pub(super) fn program(bytes: &[u8]) -> rd3d12_shader::dxil::Program {
        rd3d12_shader::dxil::parse(bytes).expect("fixture parses")
    }

    pub(super) fn element(name: &str, index: u32, format: sys::DXGI_FORMAT, offset: u32) -> InputElement {
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
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
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
        let call = simple_call(
            (&vs, None, Some(&ps)),
            &p,
            input_assembler::Topology::TriangleList,
            vec![0, 1, 2],
            &vb,
            (16, 16),
        );
        let identity = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
        let mut rt = vec![0u8; 16 * 16 * 4];
        let stats = {
            let mut targets = [Some(rgba8(&mut rt, 16, 16))];
            draw(&call, &Vs { mvp_cols: identity, flip: 1.0 }, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
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

    const IDENTITY: [[f32; 4]; 4] =
        [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

    /// The textured fixtures' pipeline: position (float4) and uv (float2) per vertex, culling
    /// off, and the pipeline's default depth-stencil state unless `f` changes it.
    fn textured_pipeline(vs: &rd3d12_shader::dxil::Program, f: impl FnOnce(&mut PipelineDesc)) -> PipelineDesc {
        let ins = &vs.dx.entry_points[0].inputs;
        let mut p = PipelineDesc::new(PipelineKind::Graphics);
        p.input_layout = vec![
            element(&ins[0].name, ins[0].semantic_indices[0], sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 0),
            element(&ins[1].name, ins[1].semantic_indices[0], sys::DXGI_FORMAT_R32G32_FLOAT, 16),
        ];
        p.rasterizer.cull = 1;
        f(&mut p);
        p
    }

    /// Runs one draw of `verts` ((x, y, z, w) in clip space, then u, v) on a `w`×`h` viewport
    /// with the textured fixtures (`with_ps` false: no pixel shader).
    #[allow(clippy::too_many_arguments)]
    fn run_draw(
        p: &PipelineDesc,
        topology: input_assembler::Topology,
        verts: &[[f32; 6]],
        order: Vec<u32>,
        cut: Option<u32>,
        with_ps: bool,
        (w, h): (u32, u32),
        targets: &mut [Option<Target<'_>>],
        depth: Option<&mut DepthStencilTarget<'_>>,
        stencil_ref: u8,
    ) -> DrawStats {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
        let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let mut call = simple_call((&vs, None, with_ps.then_some(&ps)), p, topology, order, &vb, (w, h));
        call.cut = cut;
        call.stencil_ref = stencil_ref;
        draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &Ps, targets, depth, &mut []).expect("draws")
    }

    fn vs_program() -> rd3d12_shader::dxil::Program {
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")))
    }

    /// The upper-left half of a 4x4 target at depth `d` (clip z = 2d − 1: Mesa's vertex shader
    /// maps GL's [-1, 1] to [0, 1]), uv (0,0), (1,0), (0,1): it covers the 6 pixels with
    /// x + y < 3, (0,0) (1,0) (2,0) (0,1) (1,1) (0,2), clockwise (front-facing).
    fn half(d: f32) -> [[f32; 6]; 3] {
        let z = 2.0 * d - 1.0;
        [[-1.0, 1.0, z, 1.0, 0.0, 0.0], [1.0, 1.0, z, 1.0, 1.0, 0.0], [-1.0, -1.0, z, 1.0, 0.0, 1.0]]
    }

    fn ds_target<'a>(
        format: sys::DXGI_FORMAT,
        depth: &'a mut [u8],
        stencil: Option<&'a mut [u8]>,
    ) -> DepthStencilTarget<'a> {
        let bytes = depth.len() / 16;
        DepthStencilTarget {
            format,
            width: 4,
            height: 4,
            depth: Plane { data: depth, row_pitch: 4 * bytes, sample_stride: 0, layers: 1, layer_stride: 0 },
            stencil: stencil.map(|s| Plane { data: s, row_pitch: 4, sample_stride: 0, layers: 1, layer_stride: 0 }),
            read_only_depth: false,
            read_only_stencil: false,
        }
    }

    /// A 4x4 depth plane of `format` cleared to `d`, as ClearDepthStencilView writes it.
    fn cleared(format: sys::DXGI_FORMAT, d: f32) -> Vec<u8> {
        let (e, n) = rd3d12_core::pack::encode_depth(format, d).unwrap();
        e[..n].repeat(16)
    }

    const TRI: input_assembler::Topology = input_assembler::Topology::TriangleList;
    const COVERED: [usize; 6] = [0, 1, 2, 4, 5, 8];

    #[test]
    fn unorm_depth_buffers_store_the_rounded_unorm_of_the_depth() {
        let vs = vs_program();
        let p = textured_pipeline(&vs, |_| {});
        // Depth 0.25 over a buffer cleared to 1.0 with LESS: the 6 covered pixels take
        // floor(0.25·(2ⁿ−1) + 0.5): D16 16383.75 → 0x4000, D24 4194303.75 → 0x400000.
        for (format, want, one) in [
            (sys::DXGI_FORMAT_D16_UNORM, vec![0x00, 0x40], vec![0xFF, 0xFF]),
            (sys::DXGI_FORMAT_D24_UNORM_S8_UINT, vec![0x00, 0x00, 0x40, 0x00], vec![0xFF, 0xFF, 0xFF, 0x00]),
            (sys::DXGI_FORMAT_D32_FLOAT, 0.25f32.to_le_bytes().to_vec(), 1.0f32.to_le_bytes().to_vec()),
        ] {
            let mut d = cleared(format, 1.0);
            let n = want.len();
            let st = {
                let mut ds = ds_target(format, &mut d, None);
                run_draw(&p, TRI, &half(0.25), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0)
            };
            assert_eq!(st.samples_passed, 6);
            for i in 0..16 {
                let px = &d[i * n..(i + 1) * n];
                assert_eq!(px, if COVERED.contains(&i) { &want[..] } else { &one[..] }, "{format:?} pixel {i}");
            }
        }
    }

    #[test]
    fn set_sample_positions_moves_the_samples_that_are_tested() {
        // Single-sampled, D32 cleared to 1, the upper-left half at depth 0.25: the edge
        // x + y = 4 (in pixels) passes through the centers of the four pixels with x + y = 3,
        // which the standard (0, 0) sample leaves out (6 covered). Programmed to (-8, -8), the
        // pixel's top-left corner, the sample of those four lies at x + y = 3 < 4: 10 covered.
        // A pattern of another sample count than the pipeline's is ignored here (undefined).
        let vs = vs_program();
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
        let p = textured_pipeline(&vs, |_| {});
        let vb: Vec<u8> = half(0.25).iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let format = sys::DXGI_FORMAT_D32_FLOAT;
        for (pattern, want) in [(None, 6), (Some(&[(-8i8, -8i8)][..]), 10), (Some(&[(-8, -8), (4, 4)][..]), 6)] {
            let mut d = cleared(format, 1.0);
            let mut call = simple_call((&vs, None, Some(&ps)), &p, TRI, vec![0, 1, 2], &vb, (4, 4));
            call.sample_positions = pattern;
            let st = {
                let mut ds = ds_target(format, &mut d, None);
                draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &Ps, &mut [], Some(&mut ds), &mut [])
                    .expect("draws")
            };
            assert_eq!(st.samples_passed, want, "{pattern:?}");
            let written = (0..16).filter(|i| d[i * 4..i * 4 + 4] == 0.25f32.to_le_bytes()).count() as u64;
            assert_eq!(written, want, "{pattern:?}");
        }
    }

    #[test]
    fn msaa_depth_is_written_per_covered_sample_under_the_sample_mask() {
        // 4x on a 4x4 D32 buffer (64 bytes per sample): the half triangle's hypotenuse is
        // x + y = 4 on screen; pixel (x, y)'s samples lie at x + y + 1 + (−0.5, 0.25, −0.25, 0.5)
        // on that axis, so x + y ≤ 2 covers all four, x + y = 3 samples 0 and 2, the rest none.
        // SampleMask 0b0011 keeps samples 0 and 1: sample 0 on the 10 pixels x + y ≤ 3, sample
        // 1 on the 6 with x + y ≤ 2; 16 samples pass (ALWAYS) and store depth 0.
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| {
            p.sample_count = 4;
            p.sample_mask = 0b0011;
            p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
        });
        let mut d = cleared(sys::DXGI_FORMAT_D32_FLOAT, 1.0).repeat(4);
        let stats = {
            let mut ds = ds_target(sys::DXGI_FORMAT_D32_FLOAT, &mut d, None);
            ds.depth.row_pitch = 16;
            ds.depth.sample_stride = 64;
            run_draw(&p, TRI, &half(0.0), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0)
        };
        assert_eq!(stats.samples_passed, 16);
        for s in 0..4 {
            for i in 0..16 {
                let (x, y) = (i % 4, i / 4);
                let hit = (s == 0 && x + y <= 3) || (s == 1 && x + y <= 2);
                let at = 64 * s + 4 * i;
                let got = f32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]);
                assert_eq!(got, if hit { 0.0 } else { 1.0 }, "sample {s} pixel ({x}, {y})");
            }
        }
    }

    /// `clip.vert` (quad.vert plus gl_ClipDistance[0] = color.x, [1] = color.y,
    /// gl_CullDistance[0] = color.z) over a triangle covering an 8x8 target. Distance 0 is
    /// 4 − x on screen, so the pixels with centers left of x = 4 stay: 32. A cull distance
    /// negative at every vertex drops the triangle; negative at two of three, it stays whole.
    #[test]
    fn clip_distances_cut_and_cull_distances_drop_triangles() {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/clip.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
        let p = quad_pipeline();
        let run = |cull: [f32; 3]| {
            // Screen corners (0, 0), (16, 0), (0, 16) of an 8x8 viewport.
            let corners = [(0.0f32, 0.0f32), (16.0, 0.0), (0.0, 16.0)];
            let vb: Vec<u8> = corners
                .iter()
                .zip(cull)
                .flat_map(|(&(x, y), c)| [x / 4.0 - 1.0, 1.0 - y / 4.0, 4.0 - x, 1.0, c, 1.0])
                .flat_map(f32::to_le_bytes)
                .collect();
            let tl = input_assembler::Topology::TriangleList;
            let call = simple_call((&vs, None, Some(&ps)), &p, tl, vec![0, 1, 2], &vb, (8, 8));
            let mut rt = vec![0u8; 8 * 8 * 4];
            let st = {
                let mut targets = [Some(rgba8(&mut rt, 8, 8))];
                draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
            };
            let drawn: Vec<(usize, usize)> = (0..64).filter(|i| rt[4 * i + 3] != 0).map(|i| (i % 8, i / 8)).collect();
            (drawn, st)
        };
        let (drawn, st) = run([1.0, 1.0, 1.0]);
        assert_eq!(drawn.len(), 32);
        assert!(drawn.iter().all(|&(x, _)| x < 4), "{drawn:?}");
        // The cut leaves the quadrilateral (0, 0) (4, 0) (4, 12) (0, 16): two pieces.
        assert_eq!((st.c_invocations, st.c_primitives), (1, 2));
        let (drawn, st) = run([-1.0, -2.0, -0.5]);
        assert!(drawn.is_empty());
        assert_eq!((st.c_invocations, st.c_primitives, st.ps_invocations), (1, 0, 0));
        let (drawn, _) = run([-1.0, -2.0, 0.5]);
        assert_eq!(drawn.len(), 32);
    }

    /// Stream output of `quad.vert` (outputs v_color = the vertex color, SV_Position =
    /// (pos, 0, 1)) over a 4-vertex triangle strip, assembled as (0, 1, 2) and (1, 3, 2).
    /// Slot 0 takes SV_Position.xyzw (stride 16) and has room for one triangle after its
    /// BufferFilledSize of 4; slot 1 takes TEXCOORD0.yz, a one-component gap, TEXCOORD0.x
    /// (stride 20, the last 4 bytes of each vertex untouched). The second triangle fits slot 1
    /// but not slot 0, so it is written nowhere: 1 written, 2 needed. With RasterizedStream
    /// NO_RASTERIZED_STREAM the target stays as it was.
    #[test]
    fn stream_output_appends_whole_primitives_at_the_filled_size_of_every_slot() {
        use rd3d12_core::pipeline::{SoEntry, StreamOutput};
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
        let mut p = quad_pipeline();
        let entry = |name: Option<&str>, start: u8, count: u8, slot: u8| SoEntry {
            stream: 0,
            semantic_name: name.map(str::to_string),
            semantic_index: 0,
            start_component: start,
            component_count: count,
            output_slot: slot,
        };
        p.stream_output = StreamOutput {
            entries: vec![
                entry(Some("SV_Position"), 0, 4, 0),
                entry(Some("TEXCOORD"), 1, 2, 1),
                entry(None, 0, 1, 1),
                entry(Some("texcoord"), 0, 1, 1),
            ],
            strides: vec![16, 20],
            rasterized_stream: sys::D3D12_SO_NO_RASTERIZED_STREAM,
        };
        let verts: Vec<[f32; 6]> = (0..4)
            .map(|k| k as f32)
            .map(|k| [k * 0.25 - 0.5, 0.5 - k * 0.25, k, 10.0 + k, 20.0 + k, 30.0 + k])
            .collect();
        let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let strip = input_assembler::Topology::TriangleStrip;
        let call = simple_call((&vs, None, Some(&ps)), &p, strip, vec![0, 1, 2, 3], &vb, (8, 8));
        let (mut slot0, mut slot1) = (vec![0xAAu8; 4 + 48 + 4], vec![0xBBu8; 200]);
        let mut rt = vec![7u8; 8 * 8 * 4];
        let stats = {
            let mut so =
                [Some(SoBuffer { data: &mut slot0, filled: 4 }), Some(SoBuffer { data: &mut slot1, filled: 0 })];
            let mut targets = [Some(rgba8(&mut rt, 8, 8))];
            let st = draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut so).expect("draws");
            assert_eq!(so[0].as_ref().map(|b| b.filled), Some(52));
            assert_eq!(so[1].as_ref().map(|b| b.filled), Some(60));
            st
        };
        assert_eq!((stats.so_written, stats.so_needed), (1, 2));
        assert_eq!((stats.c_invocations, stats.ps_invocations), (0, 0));
        assert!(rt.iter().all(|&b| b == 7), "nothing is rasterized");
        let f32s = |b: &[u8]| b.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>();
        assert_eq!(&slot0[..4], &[0xAA; 4]);
        assert_eq!(&slot0[52..], &[0xAA; 4]);
        let pos = |k: usize| [verts[k][0], verts[k][1], 0.0, 1.0];
        assert_eq!(f32s(&slot0[4..52]), [pos(0), pos(1), pos(2)].concat());
        for (v, &k) in [0usize, 1, 2].iter().enumerate() {
            let at = 20 * v;
            assert_eq!(f32s(&slot1[at..at + 8]), [verts[k][3], verts[k][4]], "vertex {v}");
            assert_eq!(&slot1[at + 8..at + 12], &[0xBB; 4], "the gap of vertex {v}");
            assert_eq!(f32s(&slot1[at + 12..at + 16]), [verts[k][2]], "vertex {v}");
            assert_eq!(&slot1[at + 16..at + 20], &[0xBB; 4], "past the declaration, vertex {v}");
        }
        assert!(slot1[60..].iter().all(|&b| b == 0xBB));
    }

    /// Draws `tris` (screen-space corners) on a 2x2, 4x RGBA32F target with `vs` (position
    /// float2 at TEXCOORD0, color float4 at TEXCOORD1: the corner's screen x and y) and `ps`;
    /// returns each sample's color, indexed [sample][pixel], and the statistics.
    fn msaa_float_draw(vs: &[u8], ps: &[u8], tris: &[[f32; 2]]) -> (Vec<Vec<[f32; 4]>>, DrawStats) {
        msaa_float_draw_with(vs, ps, tris, |_| {})
    }

    /// [`msaa_float_draw`] with the pipeline changed by `edit`.
    fn msaa_float_draw_with(
        vs: &[u8],
        ps: &[u8],
        tris: &[[f32; 2]],
        edit: impl Fn(&mut PipelineDesc),
    ) -> (Vec<Vec<[f32; 4]>>, DrawStats) {
        let (vs, ps) = (program(vs), program(ps));
        let mut p = quad_pipeline();
        p.sample_count = 4;
        p.rtv_formats[0] = sys::DXGI_FORMAT_R32G32B32A32_FLOAT.0;
        edit(&mut p);
        let vb: Vec<u8> = tris
            .iter()
            .flat_map(|&[x, y]| [x - 1.0, 1.0 - y, x, y, 0.0, 1.0])
            .flat_map(|f: f32| f.to_le_bytes())
            .collect();
        let tl = input_assembler::Topology::TriangleList;
        let call = simple_call((&vs, None, Some(&ps)), &p, tl, (0..tris.len() as u32).collect(), &vb, (2, 2));
        let mut rt = vec![0u8; 4 * 64];
        let stats = {
            let mut targets = [Some(Target {
                data: &mut rt,
                row_pitch: 32,
                width: 2,
                height: 2,
                format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
                sample_stride: 64,
                layers: 1,
                layer_stride: 0,
            })];
            draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
        };
        let f = |at: usize| f32::from_le_bytes([rt[at], rt[at + 1], rt[at + 2], rt[at + 3]]);
        let colors =
            (0..4).map(|s| (0..4).map(|i| std::array::from_fn(|c| f(64 * s + 16 * i + 4 * c))).collect()).collect();
        (colors, stats)
    }

    fn close(a: [f32; 4], b: [f32; 4]) -> bool {
        a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-4)
    }

    /// `persample.frag` (a `sample in` color, gl_SampleID): the shader runs once per covered
    /// sample, sees its index and gets the color interpolated at the sample; a triangle over
    /// the whole 2x2 target makes 16 invocations, each sample its own value.
    #[test]
    fn a_shader_with_sample_inputs_runs_once_per_sample_at_the_samples_position() {
        let (got, stats) = msaa_float_draw(
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")),
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/persample.ps.dxil")),
            &[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]],
        );
        assert_eq!(stats.ps_invocations, 16);
        let pattern = rd3d12_core::multisample::standard_sample_positions(4).unwrap();
        for (s, &(dx, dy)) in pattern.iter().enumerate() {
            for (i, &px) in got[s].iter().enumerate() {
                let (x, y) = ((i % 2) as f32, (i / 2) as f32);
                let want = [x + 0.5 + f32::from(dx) / 16.0, y + 0.5 + f32::from(dy) / 16.0, s as f32 * 0.25, 1.0];
                assert!(close(px, want), "sample {s} pixel {i}: {px:?}, expected {want:?}");
            }
        }
    }

    /// `eval.frag` with `pass2.vert`: interpolateAtOffset(0.25, -0.125) is EvalSnapped (4, -2)
    /// sixteenths, interpolateAtSample(1) sample 1 at (6, -2)/16, interpolateAtCentroid and a
    /// `centroid in` the centroid. Pixel (0, 0) is cut by the edge x = 0.45: samples 0 and 2
    /// (x 0.375 and 0.125) are in, 1 and 3 (0.875, 0.625) and the center out, so the centroid
    /// is sample 0; a pixel the triangle covers whole has its centroid at the center.
    #[test]
    fn eval_operations_and_centroid_inputs_interpolate_where_the_docs_say() {
        let (got, stats) = msaa_float_draw(
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/pass2.vs.dxil")),
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/eval.ps.dxil")),
            &[[-4.0, -4.0], [0.45, -4.0], [0.45, 10.0]],
        );
        assert_eq!(stats.ps_invocations, 2, "pixels (0, 0) and (0, 1), once each");
        let want = [0.5 + 0.25, 0.5 + 6.0 / 16.0, 0.5 - 2.0 / 16.0, 0.5 - 2.0 / 16.0];
        for s in [0, 2] {
            assert!(close(got[s][0], want), "sample {s}: {:?}, expected {want:?}", got[s][0]);
        }
        assert_eq!(got[1][0], [0.0; 4], "sample 1 is not covered");
        let (whole, _) = msaa_float_draw(
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/pass2.vs.dxil")),
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/eval.ps.dxil")),
            &[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]],
        );
        // Pixel (1, 0): x 1.5 at the center.
        assert!(close(whole[3][1], [1.75, 1.5 + 6.0 / 16.0, 1.5, 1.5]), "{:?}", whole[3][1]);
    }

    /// ForcedSampleCount 1 on a 4x target: the rasterizer samples the pixel center only and a
    /// covered pixel gets every sample. An edge at x = 0.55 covers the centers of column 0
    /// (0.5) and, at 4x, only samples 0 and 2 (x 0.375 and 0.125; 0.875 and 0.625 are out); an
    /// edge at x = 0.45 covers samples 0 and 2 but no center.
    #[test]
    fn forced_sample_count_one_rasterizes_the_center_and_writes_every_sample() {
        let vs = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil"));
        let ps = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil"));
        let forced = |p: &mut PipelineDesc| p.rasterizer.forced_sample_count = 1;
        let edge = |x: f32| [[-4.0, -4.0], [x, -4.0], [x, 10.0]];
        // The color is the corner's (x, y, 0, 1), interpolated at the center (0.5, y + 0.5).
        let (got, stats) = msaa_float_draw_with(vs, ps, &edge(0.55), forced);
        assert_eq!(stats.ps_invocations, 2, "pixels (0, 0) and (0, 1)");
        for s in 0..4 {
            for (i, px) in got[s].iter().enumerate() {
                let covered = i % 2 == 0;
                assert_eq!(px[3], if covered { 1.0 } else { 0.0 }, "sample {s} pixel {i}");
            }
        }
        let (normal, _) = msaa_float_draw(vs, ps, &edge(0.55));
        let covered: Vec<usize> = (0..4).filter(|&s| normal[s][0][3] == 1.0).collect();
        assert_eq!(covered, [0, 2], "without ForcedSampleCount only samples 0 and 2");
        let (none, stats) = msaa_float_draw_with(vs, ps, &edge(0.45), forced);
        assert_eq!(stats.ps_invocations, 0);
        assert!(none.iter().flatten().all(|px| *px == [0.0; 4]));
    }

    /// UAV-only rendering with ForcedSampleCount 4: the pixel shader runs wherever one of the 4
    /// samples is covered. The half triangle covers the 6 centers with x + y < 3 and, at 4x,
    /// samples 0 and 2 of the 4 pixels with x + y = 3 as well.
    #[test]
    fn uav_only_forced_sample_count_rasterizes_with_that_many_samples() {
        let vs = vs_program();
        let invocations = |forced: u32| {
            let p = textured_pipeline(&vs, |p| {
                p.num_render_targets = 0;
                p.rtv_formats = [0; 8];
                p.dsv_format = 0;
                p.depth_stencil.depth_enable = false;
                p.rasterizer.forced_sample_count = forced;
            });
            run_draw(&p, TRI, &half(0.0), vec![0, 1, 2], None, true, (4, 4), &mut [], None, 0).ps_invocations
        };
        assert_eq!(invocations(0), 6);
        assert_eq!(invocations(1), 6);
        assert_eq!(invocations(4), 10);
    }

    #[test]
    fn alpha_to_coverage_keeps_the_first_round_alpha_n_samples() {
        assert_eq!(alpha_coverage(0.0, 4), 0);
        assert_eq!(alpha_coverage(0.3, 4), 0b0001);
        assert_eq!(alpha_coverage(0.5, 4), 0b0011);
        assert_eq!(alpha_coverage(1.0, 4), 0b1111);
        assert_eq!(alpha_coverage(f32::NAN, 8), 0);
        assert_eq!(alpha_coverage(0.5, 1), 1);
        assert_eq!(alpha_coverage(2.0, 16), 0xFFFF);
    }

    #[test]
    fn a_triangle_with_a_vertex_behind_the_eye_gets_the_bias_of_its_clipped_part() {
        // raster's a_triangle_behind_the_eye_has_the_depth_plane_of_its_clipped_part: slope
        // 1/64 per pixel, largest clipped z 1. On D32_FLOAT, DepthBias 1 is 2^(0 - 23) and
        // SlopeScaledDepthBias 2 adds 2/64 (it was no bias at all, as if w <= 0 had no plane).
        let mut rt = textured_pipeline(&vs_program(), |_| {}).rasterizer;
        rt.depth_bias = 1;
        rt.slope_scaled_depth_bias = 2.0;
        rt.depth_bias_clamp = 0.0;
        let st = TriangleState {
            cull: Cull::None,
            front_ccw: false,
            depth_clip: true,
            viewport: Viewport { x: 0.0, y: 0.0, width: 16.0, height: 16.0, min_depth: 0.0, max_depth: 1.0 },
            bounds: Rect { left: 0, top: 0, right: 16, bottom: 16 },
            samples: rd3d12_core::multisample::standard_sample_positions(1).unwrap(),
        };
        let tri = [[-1.0, 1.0, 0.25, 1.0], [1.0, 1.0, 0.5, 1.0], [0.0, -3.0, -0.375, -1.0]];
        let b = triangle_depth_bias(&tri, &[], &st, &rt, Some(sys::DXGI_FORMAT_D32_FLOAT));
        assert_eq!(b, (2.0f32).powi(-23) + 2.0 / 64.0);
    }

    #[test]
    fn depth_bias_moves_the_tested_depth() {
        let vs = vs_program();
        // Constant bias on D16: 10 · 2⁻¹⁶ added to depth 0, stored floor(10·65535/65536 + 0.5)
        // = floor(10.4998) = 10 on the covered pixels (0 without bias), with ALWAYS so every
        // covered pixel writes.
        let p = textured_pipeline(&vs, |p| {
            p.rasterizer.depth_bias = 10;
            p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
        });
        let mut d = cleared(sys::DXGI_FORMAT_D16_UNORM, 1.0);
        {
            let mut ds = ds_target(sys::DXGI_FORMAT_D16_UNORM, &mut d, None);
            run_draw(&p, TRI, &half(0.0), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0);
        }
        for i in 0..16 {
            let want: u16 = if COVERED.contains(&i) { 10 } else { 0xFFFF };
            assert_eq!(u16::from_le_bytes([d[2 * i], d[2 * i + 1]]), want, "pixel {i}");
        }
        // Slope-scaled bias 1.0 on D32: a full-viewport triangle pair whose depth runs from 0 at
        // the left edge to 0.125 at the right edge of the 4-pixel viewport has slope 1/32 per
        // pixel; pixel x stores its center's depth (x + 0.5)/32 plus 1/32, exactly (x + 1.5)/32.
        let p = textured_pipeline(&vs, |p| {
            p.rasterizer.slope_scaled_depth_bias = 1.0;
            p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
        });
        // Clip z = 2d − 1 with d = 0 at x = −1 and d = 0.125 at x = 1.
        let (z0, z1) = (-1.0, 2.0 * 0.125 - 1.0);
        let quad = [
            [-1.0, 1.0, z0, 1.0, 0.0, 0.0],
            [1.0, 1.0, z1, 1.0, 1.0, 0.0],
            [-1.0, -1.0, z0, 1.0, 0.0, 1.0],
            [1.0, -1.0, z1, 1.0, 1.0, 1.0],
        ];
        let mut d = cleared(sys::DXGI_FORMAT_D32_FLOAT, 1.0);
        {
            let mut ds = ds_target(sys::DXGI_FORMAT_D32_FLOAT, &mut d, None);
            run_draw(&p, TRI, &quad, vec![0, 1, 2, 2, 1, 3], None, false, (4, 4), &mut [], Some(&mut ds), 0);
        }
        for i in 0..16 {
            let x = (i % 4) as f32;
            let got = f32::from_le_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
            assert_eq!(got, (x + 1.5) / 32.0, "pixel {i}");
        }
    }

    /// The pixel stage of `lod.ps`: CalculateLOD on a 4x4 texture of 3 mips, point sampler.
    struct LodPs;
    impl Bindings for LodPs {
        fn calculate_lod(
            &self,
            texture: (u32, u32),
            sampler: (u32, u32),
            coords: [f32; 3],
            ddx: [f32; 3],
            ddy: [f32; 3],
            clamped: bool,
        ) -> f32 {
            assert_eq!((texture, sampler), ((0, 0), (0, 0)));
            let bytes = vec![0u8; 4 * (16 + 4 + 1)];
            let subs = [
                crate::sample::SubresourceBytes { offset: 0, row_pitch: 16, depth_pitch: 64 },
                crate::sample::SubresourceBytes { offset: 64, row_pitch: 8, depth_pitch: 16 },
                crate::sample::SubresourceBytes { offset: 80, row_pitch: 4, depth_pitch: 4 },
            ];
            let t = crate::sample::MemoryTexels {
                bytes: &bytes,
                format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
                size: (4, 4, 1),
                mips: 3,
                array_size: 1,
                subresources: &subs,
            };
            let view = crate::sample::View::whole(crate::sample::Dim::Tex2D, &t);
            let s = crate::sample::Sampler::from_desc(&rd3d12_core::descriptor::SamplerDesc {
                filter: 0,
                address: [1, 1, 1],
                mip_lod_bias: 0.0,
                max_anisotropy: 1,
                comparison_func: 0,
                border: [0; 4],
                min_lod: 0.0,
                max_lod: f32::MAX,
                flags: 0,
            });
            let c = [coords[0], coords[1], coords[2], 0.0];
            let (lod, unclamped) = crate::sample::calculate_lod(&t, &view, &s, c, ddx, ddy);
            if clamped {
                lod
            } else {
                unclamped
            }
        }
    }

    #[test]
    fn calculate_lod_takes_the_quads_derivatives() {
        // uv runs from 0 to 1 over the 16 pixels of each axis: 1/16 per pixel, a quarter texel
        // of the 4x4 texture, so the unclamped LOD is log2(1/4) = -2 and the clamped LOD 0.
        // lod.ps writes (clamped, unclamped, 0, 1) to an RGBA32F target.
        let vs = vs_program();
        let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/lod.ps.dxil")));
        let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
        let quad: [[f32; 6]; 4] = [
            [-1.0, 1.0, 0.0, 1.0, 0.0, 0.0],
            [1.0, 1.0, 0.0, 1.0, 1.0, 0.0],
            [-1.0, -1.0, 0.0, 1.0, 0.0, 1.0],
            [1.0, -1.0, 0.0, 1.0, 1.0, 1.0],
        ];
        let vb: Vec<u8> = quad.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let call = simple_call((&vs, None, Some(&ps)), &p, TRI, vec![0, 1, 2, 2, 1, 3], &vb, (16, 16));
        let mut rt = vec![0u8; 16 * 16 * 16];
        let stats = {
            let mut targets = [Some(Target {
                data: &mut rt,
                row_pitch: 256,
                width: 16,
                height: 16,
                format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
                sample_stride: 0,
                layers: 1,
                layer_stride: 0,
            })];
            draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &LodPs, &mut targets, None, &mut []).expect("draws")
        };
        assert_eq!(stats.pixels_written, 256);
        for (i, px) in rt.chunks(16).enumerate() {
            let v: Vec<f32> = px.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
            assert_eq!((v[0], v[2], v[3]), (0.0, 0.0, 1.0), "pixel {i}");
            assert!((v[1] + 2.0).abs() < 1e-4, "pixel {i}: unclamped LOD {}", v[1]);
        }
    }

    /// count.ps's bindings: an atomic add on u1 counted here.
    struct Counting(std::sync::atomic::AtomicU32);
    impl Bindings for Counting {
        fn atomic(&self, uav: (u32, u32), op: u32, _: [i32; 3], value: u32) -> u32 {
            assert_eq!((uav, op), ((0, 1), 0));
            self.0.fetch_add(value, std::sync::atomic::Ordering::Relaxed)
        }
    }

    #[test]
    fn helper_lanes_write_no_uav() {
        // The half triangle covers 6 pixels of the 4x4 target in three quads: (0,0) with its 4
        // pixels, (2,0) with 1 and (0,2) with 1, so 6 helper lanes run beside them. count.ps adds
        // 1 to u1 per invocation: only the 6 covered pixels count.
        let vs = vs_program();
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/count.ps.dxil")));
        let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
        let verts = half(0.5);
        let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let call = simple_call((&vs, None, Some(&ps)), &p, TRI, vec![0, 1, 2], &vb, (4, 4));
        let counting = Counting(std::sync::atomic::AtomicU32::new(0));
        let stats =
            draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &counting, &mut [], None, &mut []).expect("draws");
        assert_eq!(stats.ps_invocations, 6);
        assert_eq!(counting.0.load(std::sync::atomic::Ordering::Relaxed), 6);
    }

    #[test]
    fn unorm_depth_compares_in_the_buffers_precision() {
        // Stored 0.25; incoming 0.250001. EQUAL passes on D16 (both 16384: 0.250001·65535 =
        // 16383.82 rounds to 16384) but not on D32_FLOAT, which keeps the difference.
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_EQUAL.0);
        for (format, passed) in [(sys::DXGI_FORMAT_D16_UNORM, 6), (sys::DXGI_FORMAT_D32_FLOAT, 0)] {
            let mut d = cleared(format, 0.25);
            let mut ds = ds_target(format, &mut d, None);
            let st = run_draw(&p, TRI, &half(0.250001), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0);
            assert_eq!(st.samples_passed, passed, "{format:?}");
        }
    }

    #[test]
    fn stencil_ops_follow_the_stencil_and_depth_results_with_the_write_mask() {
        // D24S8; stencil: row 0 holds 5, the rest 3; depth 1.0 except pixel (1,0) at 0.0.
        // Front face: EQUAL to ref 5, pass INCR_SAT, depth-fail DECR, fail INVERT, write mask
        // 0x0F. Drawn at depth 0.5 with LESS:
        //   (0,0), (2,0): 5 == 5, 0.5 < 1 → 6, depth 0.5 (0x800000);
        //   (1,0): 5 == 5, 0.5 < 0 fails → 4, depth stays 0;
        //   (0,1), (1,1), (0,2): 3 != 5 → (3 & 0xF0) | (!3 & 0x0F) = 0x0C, depth stays 1.0.
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| {
            p.depth_stencil.stencil_enable = true;
            p.depth_stencil.front = rd3d12_core::pipeline::StencilFace {
                fail: sys::D3D12_STENCIL_OP_INVERT.0,
                depth_fail: sys::D3D12_STENCIL_OP_DECR.0,
                pass: sys::D3D12_STENCIL_OP_INCR_SAT.0,
                func: sys::D3D12_COMPARISON_FUNC_EQUAL.0,
                read_mask: 0xFF,
                write_mask: 0x0F,
            };
            // The back face would zero everything: the triangle is front-facing.
            p.depth_stencil.back.func = sys::D3D12_COMPARISON_FUNC_NEVER.0;
            p.depth_stencil.back.fail = sys::D3D12_STENCIL_OP_ZERO.0;
        });
        let format = sys::DXGI_FORMAT_D24_UNORM_S8_UINT;
        let mut d = cleared(format, 1.0);
        d[4..8].copy_from_slice(&[0, 0, 0, 0]);
        let mut s: Vec<u8> = (0..16).map(|i| if i < 4 { 5 } else { 3 }).collect();
        let st = {
            let mut ds = ds_target(format, &mut d, Some(&mut s));
            run_draw(&p, TRI, &half(0.5), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 5)
        };
        assert_eq!(st.samples_passed, 2);
        assert_eq!(s, [6, 4, 6, 5, 0x0C, 0x0C, 3, 3, 0x0C, 3, 3, 3, 3, 3, 3, 3]);
        let depth: Vec<u32> = d.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let one = 0x00FF_FFFF;
        assert_eq!(depth[..4], [0x80_0000, 0, 0x80_0000, one]);
        assert!(depth[4..].iter().all(|&v| v == one));
        // Wound the other way the triangle is back-facing: NEVER, fail ZERO on all 6 pixels.
        let order = vec![0, 2, 1];
        let mut ds = ds_target(format, &mut d, Some(&mut s));
        let st = run_draw(&p, TRI, &half(0.5), order, None, false, (4, 4), &mut [], Some(&mut ds), 5);
        assert_eq!(st.samples_passed, 0);
        assert_eq!(s, [0, 0, 0, 5, 0, 0, 3, 3, 0, 3, 3, 3, 3, 3, 3, 3]);
    }

    #[test]
    fn read_only_planes_are_tested_but_not_written() {
        // D32S8, depth cleared to 1.0 and stencil to 7; ALWAYS / REPLACE with ref 9 and depth
        // LESS at 0.5: writable planes take 0.5 and 9 on the 6 covered pixels; read-only ones
        // keep their bytes while the pixels still pass (and a stencil test still applies).
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| {
            p.depth_stencil.stencil_enable = true;
            p.depth_stencil.front.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
        });
        let format = sys::DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
        for (ro_depth, ro_stencil) in [(false, false), (true, false), (false, true), (true, true)] {
            let mut d = cleared(format, 1.0);
            let mut s = vec![7u8; 16];
            let st = {
                let mut ds = ds_target(format, &mut d, Some(&mut s));
                ds.read_only_depth = ro_depth;
                ds.read_only_stencil = ro_stencil;
                run_draw(&p, TRI, &half(0.5), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 9)
            };
            assert_eq!(st.samples_passed, 6);
            for i in 0..16 {
                let z = f32::from_le_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
                let hit = COVERED.contains(&i);
                assert_eq!(z, if hit && !ro_depth { 0.5 } else { 1.0 }, "{ro_depth} {ro_stencil} {i}");
                assert_eq!(s[i], if hit && !ro_stencil { 9 } else { 7 }, "{ro_depth} {ro_stencil} {i}");
            }
        }
    }

    #[test]
    fn shader_depth_is_clamped_to_the_viewport_depth_range() {
        // SV_Depth 0.9 through a viewport of depths [0.2, 0.6] on D16 stores 0.6:
        // floor(0.6·65535 + 0.5) = 39321 = 0x9999; -3.0 stores 0.2: 13107 = 0x3333.
        let mut p = PipelineDesc::new(PipelineKind::Graphics);
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
        let vp = Viewport { x: 0.0, y: 0.0, width: 4.0, height: 4.0, min_depth: 0.2, max_depth: 0.6 };
        let mut d = cleared(sys::DXGI_FORMAT_D16_UNORM, 1.0);
        let mut ds = ds_target(sys::DXGI_FORMAT_D16_UNORM, &mut d, None);
        assert!(depth_write(&mut ds, &p, &vp, (1, 0, 0, 0), 0.9, true, 0));
        assert!(depth_write(&mut ds, &p, &vp, (2, 0, 0, 0), -3.0, true, 0));
        assert_eq!(d[..8], [0xFF, 0xFF, 0x99, 0x99, 0x33, 0x33, 0xFF, 0xFF]);
    }

    /// Clip-space (x, y, 0, 1) of render-target point (x, y) on an 8x8 viewport, with uv.
    fn px(x: f32, y: f32, u: f32, v: f32) -> [f32; 6] {
        [x / 4.0 - 1.0, 1.0 - y / 4.0, 0.0, 1.0, u, v]
    }

    fn unorm8(c: f32) -> u8 {
        (c * 255.0).round() as u8
    }

    #[test]
    fn a_cut_line_strip_draws_each_segment_half_open_with_uv_along_it() {
        // Strip 0-1-2, cut, 3-4 on an 8x8 RGBA8 target; the pixel shader writes (u, v, 0.5, 1).
        //   0→1: centers of (0,0) to (4,0): pixels (k,0), k = 0..3, at t = k/4: u = k/4, v = 0;
        //   1→2: centers of (4,0) to (4,4): pixels (4,k), k = 0..3: u = 1, v = k/4 (the shared
        //        vertex's pixel (4,0) is drawn once, by the segment it starts);
        //   3→4: centers of (0,6) to (3,6): pixels (k,6), k = 0..2: u = k/3, v = 0;
        // and nothing from 2 to 3 (the cut). 11 pixels.
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
        let verts = [
            px(0.5, 0.5, 0.0, 0.0),
            px(4.5, 0.5, 1.0, 0.0),
            px(4.5, 4.5, 1.0, 1.0),
            px(0.5, 6.5, 0.0, 0.0),
            px(3.5, 6.5, 1.0, 0.0),
        ];
        let cut = 0xFFFF_FFFF;
        let mut rt = vec![0u8; 8 * 8 * 4];
        let stats = {
            let mut t = [Some(rgba8(&mut rt, 8, 8))];
            let order = vec![0, 1, 2, cut, 3, 4];
            run_draw(&p, input_assembler::Topology::LineStrip, &verts, order, Some(cut), true, (8, 8), &mut t, None, 0)
        };
        assert_eq!((stats.primitives, stats.pixels_shaded, stats.pixels_written), (3, 11, 11));
        let mut want = vec![0u8; 8 * 8 * 4];
        let mut put = |x: usize, y: usize, u: f32, v: f32| {
            want[y * 32 + x * 4..y * 32 + x * 4 + 4].copy_from_slice(&[unorm8(u), unorm8(v), 128, 255])
        };
        for k in 0..4 {
            put(k, 0, k as f32 / 4.0, 0.0);
            put(4, k, 1.0, k as f32 / 4.0);
        }
        for k in 0..3 {
            put(k, 6, k as f32 / 3.0, 0.0);
        }
        assert_eq!(rt, want);
    }

    #[test]
    fn a_point_list_shades_one_pixel_per_point_with_its_vertex_values() {
        // (1.5, 2.5) → pixel (1,2); (6.0, 3.0) → square [5.5, 6.5) x [2.5, 3.5) → (5,2);
        // (7.9, 7.9) → (7,7). Each point's uv reaches its pixel unchanged.
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
        let verts = [px(1.5, 2.5, 0.2, 0.6), px(6.0, 3.0, 1.0, 0.0), px(7.9, 7.9, 0.0, 1.0)];
        let mut rt = vec![0u8; 8 * 8 * 4];
        let stats = {
            let mut t = [Some(rgba8(&mut rt, 8, 8))];
            run_draw(
                &p,
                input_assembler::Topology::PointList,
                &verts,
                vec![0, 1, 2],
                None,
                true,
                (8, 8),
                &mut t,
                None,
                0,
            )
        };
        assert_eq!((stats.primitives, stats.pixels_shaded, stats.pixels_written), (3, 3, 3));
        let mut want = vec![0u8; 8 * 8 * 4];
        for (x, y, c) in [(1, 2, [51, 153, 128, 255]), (5, 2, [255, 0, 128, 255]), (7, 7, [0, 255, 128, 255])] {
            want[y * 32 + x * 4..y * 32 + x * 4 + 4].copy_from_slice(&c);
        }
        assert_eq!(rt, want);
    }

    #[test]
    fn lines_use_the_front_face_stencil_state_and_write_depth() {
        // A line list of two lines at depth 0.5 through a D24S8 view: front face ALWAYS /
        // REPLACE with ref 3, back face NEVER (lines are always front-facing). Line 0 runs
        // along row 1 from the center of (0,1) to the center of (3,1): (0,1) (1,1) (2,1);
        // line 1 down column 3 from (3,0)'s center to (3,3)'s: (3,0) (3,1) (3,2). The 6
        // samples pass; stencil 3 and depth 0x800000 there, the clear elsewhere.
        let vs = vs_program();
        let p = textured_pipeline(&vs, |p| {
            p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_LESS_EQUAL.0;
            p.depth_stencil.stencil_enable = true;
            p.depth_stencil.front.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
            p.depth_stencil.back.func = sys::D3D12_COMPARISON_FUNC_NEVER.0;
        });
        let at = |x: f32, y: f32| [x / 2.0 - 1.0, 1.0 - y / 2.0, 0.0, 1.0, 0.0, 0.0];
        let verts = [at(0.5, 1.5), at(3.5, 1.5), at(3.5, 0.5), at(3.5, 3.5)];
        let format = sys::DXGI_FORMAT_D24_UNORM_S8_UINT;
        let mut d = cleared(format, 1.0);
        let mut s = vec![0u8; 16];
        let st = {
            let mut ds = ds_target(format, &mut d, Some(&mut s));
            let topo = input_assembler::Topology::LineList;
            run_draw(&p, topo, &verts, vec![0, 1, 2, 3], None, false, (4, 4), &mut [], Some(&mut ds), 3)
        };
        assert_eq!(st.samples_passed, 6);
        let hit = [3, 4, 5, 6, 7, 11];
        for i in 0..16 {
            let z = u32::from_le_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
            let h = hit.contains(&i);
            assert_eq!((s[i], z), if h { (3, 0x80_0000) } else { (0, 0xFF_FFFF) }, "pixel {i}");
        }
    }

    #[test]
    fn pipeline_statistics_count_what_each_stage_did() {
        // An indexed triangle strip 0 1 2 3 | cut | 4 5 0 over a 4x4 target, two instances.
        // Per instance: the IA reads 7 vertices (the cut is none) and assembles 3 triangles;
        // vertex 0 comes twice but is shaded once: 6 VS invocations; all 3 reach the
        // rasterizer; the quad's two triangles are rendered but 4-5-0 (three copies of one
        // position) is degenerate: 2; the quad covers all 16 pixels: 16 PS invocations.
        let vs = vs_program();
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
        let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
        let corner = |x: f32, y: f32| [x, y, 0.0, 1.0, 0.0, 0.0];
        let verts = [
            corner(-1.0, 1.0),
            corner(1.0, 1.0),
            corner(-1.0, -1.0),
            corner(1.0, -1.0),
            corner(-1.0, 1.0),
            corner(-1.0, 1.0),
        ];
        let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let cut = 0xFFFF_FFFF;
        let mut call = simple_call(
            (&vs, None, Some(&ps)),
            &p,
            input_assembler::Topology::TriangleStrip,
            vec![0, 1, 2, 3, cut, 4, 5, 0],
            &vb,
            (4, 4),
        );
        call.cut = Some(cut);
        call.instances = 2;
        let mut rt = vec![0u8; 4 * 4 * 4];
        let mut targets = [Some(rgba8(&mut rt, 4, 4))];
        let st =
            draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &Ps, &mut targets, None, &mut []).expect("draws");
        assert_eq!(
            st,
            DrawStats {
                ia_vertices: 14,
                vertices_shaded: 12,
                primitives: 6,
                hs_invocations: 0,
                ds_invocations: 0,
                gs_invocations: 0,
                gs_primitives: 0,
                c_invocations: 6,
                c_primitives: 4,
                ps_invocations: 32,
                pixels_shaded: 32,
                pixels_written: 32,
                samples_passed: 32,
                so_written: 0,
                so_needed: 0,
            }
        );
    }

    /// The pipeline of the spirv2dxil quad shaders: TEXCOORD0 position (float2), TEXCOORD1
    /// color (float4) in 24-byte vertices, no culling, no depth test.
    fn quad_pipeline() -> PipelineDesc {
        let mut p = PipelineDesc::new(PipelineKind::Graphics);
        p.input_layout = vec![
            element("TEXCOORD", 0, sys::DXGI_FORMAT_R32G32_FLOAT, 0),
            element("TEXCOORD", 1, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 8),
        ];
        p.rasterizer.cull = 1;
        p.depth_stencil.depth_enable = false;
        p
    }

    /// Draws `points` ((x, y) in clip space, then an RGBA color) as `topology` on an 8x8 RGBA8
    /// target through quad.vs.dxil, the geometry shader `gs` and the pixel shader `ps`.
    fn gs_draw(
        gs: &rd3d12_shader::dxil::Program,
        ps: &rd3d12_shader::dxil::Program,
        topology: input_assembler::Topology,
        points: &[[f32; 6]],
    ) -> (Vec<u8>, DrawStats) {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
        let p = quad_pipeline();
        let vb: Vec<u8> = points.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let call =
            simple_call((&vs, Some(gs), Some(ps)), &p, topology, (0..points.len() as u32).collect(), &vb, (8, 8));
        let mut rt = vec![0u8; 8 * 8 * 4];
        let st = {
            let mut targets = [Some(rgba8(&mut rt, 8, 8))];
            draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
        };
        (rt, st)
    }

    /// stencil.frag writes `int(color.r * 255 + 0.5)` to SV_StencilRef: with REPLACE, the
    /// covered pixels of a 4x4 D24S8 target get 51 for a red of 0.2, not OMSetStencilRef's 9.
    #[test]
    fn a_pixel_shaders_stencil_ref_replaces_the_pipelines() {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/stencil.ps.dxil")));
        let mut p = quad_pipeline();
        p.depth_stencil.stencil_enable = true;
        p.depth_stencil.front.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
        p.depth_stencil.back.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
        // The upper-left half of the target: pixels with x + y < 3.
        let verts: [[f32; 6]; 3] =
            [[-1.0, 1.0, 0.2, 0.4, 0.6, 1.0], [1.0, 1.0, 0.2, 0.4, 0.6, 1.0], [-1.0, -1.0, 0.2, 0.4, 0.6, 1.0]];
        let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let mut call = simple_call(
            (&vs, None, Some(&ps)),
            &p,
            input_assembler::Topology::TriangleList,
            vec![0, 1, 2],
            &vb,
            (4, 4),
        );
        call.stencil_ref = 9;
        let format = sys::DXGI_FORMAT_D24_UNORM_S8_UINT;
        let mut d = cleared(format, 1.0);
        let mut st = vec![3u8; 16];
        {
            let mut ds = ds_target(format, &mut d, Some(&mut st));
            draw(&call, &Ps, &Ps, &Ps, &mut [], Some(&mut ds), &mut []).expect("draws");
        }
        for (i, &v) in st.iter().enumerate() {
            let (x, y) = (i % 4, i / 4);
            assert_eq!(v, if x + y < 3 { 51 } else { 3 }, "pixel ({x}, {y})");
        }
    }

    #[test]
    fn quad_order_equals_a_stable_sort_by_quad() {
        let frag = |x: i32, y: i32| raster::Fragment {
            x,
            y,
            depth: 0.0,
            coverage: 1,
            sample_depth: [0.0; raster::MAX_SAMPLES],
            persp: [0.0; 3],
            linear: [0.0; 3],
            front_facing: true,
        };
        // Pseudo-random pixel sets: rows with gaps, quads with only a bottom row, odd widths,
        // in raster order and shuffled (as clipped polygons and lines give them).
        let mut seed = 7u32;
        let mut next = || {
            seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
            seed >> 16
        };
        for case in 0..200 {
            let mut pixels: Vec<(i32, i32)> =
                (0..40).map(|_| ((next() % 13) as i32 - 2, (next() % 9) as i32 - 3)).collect();
            pixels.sort_unstable_by_key(|&(x, y)| (y, x));
            pixels.dedup();
            if case % 2 == 1 {
                pixels.reverse();
                let mid = pixels.len() / 2;
                pixels.swap(0, mid);
            }
            let mut frags: Vec<raster::Fragment> = pixels.iter().map(|&(x, y)| frag(x, y)).collect();
            let mut want = frags.clone();
            want.sort_by_key(|f| (f.y, f.x));
            want.sort_by_key(|f| (f.y & !1, f.x & !1));
            quad_order(&mut frags, &mut Vec::new());
            let order = |v: &[raster::Fragment]| v.iter().map(|f| (f.x, f.y)).collect::<Vec<_>>();
            assert_eq!(order(&frags), order(&want), "case {case}");
        }
    }

    #[test]
    fn geometry_shaders_of_more_than_32_instances_are_refused_not_run() {
        // D3D's [instance(n)] is at most 32; a malformed state asking for more is refused
        // rather than run four billion times.
        let mut gs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.gs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
        if let Some(s) = gs.dx.entry_points[0].gs.as_mut() {
            s.instance_count = u32::MAX;
        }
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
        let p = PipelineDesc::new(PipelineKind::Graphics);
        let vb = [0u8; 24];
        let call =
            simple_call((&vs, Some(&gs), Some(&ps)), &p, input_assembler::Topology::PointList, vec![0], &vb, (8, 8));
        let r = draw(&call, &Ps, &Ps, &Ps, &mut [], None, &mut []);
        assert!(matches!(r, Err(DrawError::Unsupported(_))));
    }

    /// `dual.frag` writes the color to SV_Target0 and (0.5, 0.25, 1.0, 0.75) to SV_Target1:
    /// with SRC1_COLOR / INV_SRC1_ALPHA (color) and ONE / SRC1_ALPHA (alpha) over a float
    /// target holding (0.5, 0.25, 1.0, 0.5), a (0.25, 0.5, 0.75, 1.0) triangle stores
    /// rgb = src·src1 + dst·(1 − 0.75) = (0.25, 0.1875, 1.0) and a = 1 + 0.5·0.75 = 1.375.
    #[test]
    fn dual_source_blending_reads_the_second_output() {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/dual.ps.dxil")));
        let mut p = quad_pipeline();
        p.rtv_formats[0] = sys::DXGI_FORMAT_R32G32B32A32_FLOAT.0;
        let rt0 = &mut p.blend.rt[0];
        rt0.blend_enable = true;
        (rt0.src, rt0.dest, rt0.op) = (sys::D3D12_BLEND_SRC1_COLOR.0, sys::D3D12_BLEND_INV_SRC1_ALPHA.0, 1);
        (rt0.src_alpha, rt0.dest_alpha, rt0.op_alpha) = (sys::D3D12_BLEND_ONE.0, sys::D3D12_BLEND_SRC1_ALPHA.0, 1);
        let c = [0.25f32, 0.5, 0.75, 1.0];
        let tri: Vec<[f32; 6]> =
            [[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]].iter().map(|&[x, y]| [x, y, c[0], c[1], c[2], c[3]]).collect();
        let vb: Vec<u8> = tri.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let tl = input_assembler::Topology::TriangleList;
        let call = simple_call((&vs, None, Some(&ps)), &p, tl, vec![0, 1, 2], &vb, (2, 2));
        let mut rt: Vec<u8> = [0.5f32, 0.25, 1.0, 0.5].repeat(4).iter().flat_map(|f| f.to_le_bytes()).collect();
        {
            let mut targets = [Some(Target {
                data: &mut rt,
                row_pitch: 32,
                width: 2,
                height: 2,
                format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
                sample_stride: 0,
                layers: 1,
                layer_stride: 0,
            })];
            draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws");
        }
        let got: Vec<f32> = rt.chunks(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        assert_eq!(got, [0.25, 0.1875, 1.0, 1.375].repeat(4));
    }

    /// `layer.geom` runs twice per triangle; instance i writes gl_Layer = gl_ViewportIndex = i
    /// and halves the color for i = 1. A triangle over an 8x8, 2-slice target: slice 0 is
    /// covered through viewport 0 (the whole target), slice 1 only inside viewport 1 (x 4..8,
    /// y 0..4) with the halved color; the depth buffer's slices follow.
    #[test]
    fn a_geometry_shader_picks_slice_and_viewport_per_primitive() {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
        let gs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/layer.gs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
        let mut p = quad_pipeline();
        let tri: [[f32; 6]; 3] =
            [[-1.0, -1.0, 1.0, 0.5, 0.25, 1.0], [3.0, -1.0, 1.0, 0.5, 0.25, 1.0], [-1.0, 3.0, 1.0, 0.5, 0.25, 1.0]];
        let vb: Vec<u8> = tri.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
        let tl = input_assembler::Topology::TriangleList;
        let viewport1 = Viewport { x: 4.0, y: 0.0, width: 4.0, height: 4.0, min_depth: 0.0, max_depth: 1.0 };
        p.depth_stencil.depth_enable = true;
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
        let call = simple_call((&vs, Some(&gs), Some(&ps)), &p, tl, vec![0, 1, 2], &vb, (8, 8));
        let call = DrawCall { viewports: [call.viewports.clone(), vec![viewport1]].concat(), ..call };
        let mut rt = vec![0u8; 2 * 8 * 8 * 4];
        // A 2-slice D32_FLOAT buffer cleared to 1.0: the triangle (z = 0) writes 0.0 where it
        // is drawn, in the slice it is drawn into.
        let mut depth = 1.0f32.to_le_bytes().repeat(2 * 64);
        let st = {
            let mut targets = [Some(Target {
                data: &mut rt,
                row_pitch: 32,
                width: 8,
                height: 8,
                format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
                sample_stride: 0,
                layers: 2,
                layer_stride: 256,
            })];
            let mut ds = DepthStencilTarget {
                format: sys::DXGI_FORMAT_D32_FLOAT,
                width: 8,
                height: 8,
                depth: Plane { data: &mut depth, row_pitch: 32, sample_stride: 0, layers: 2, layer_stride: 256 },
                stencil: None,
                read_only_depth: false,
                read_only_stencil: false,
            };
            draw(&call, &Ps, &Ps, &Ps, &mut targets, Some(&mut ds), &mut []).expect("draws")
        };
        assert_eq!(st.gs_invocations, 2);
        for i in 0..64 {
            let z = |at: usize| f32::from_le_bytes([depth[at], depth[at + 1], depth[at + 2], depth[at + 3]]);
            let (x, y) = (i % 8, i / 8);
            assert_eq!(z(4 * i), 0.0, "slice 0 depth ({x}, {y})");
            assert_eq!(z(256 + 4 * i), if x >= 4 && y < 4 { 0.0 } else { 1.0 }, "slice 1 depth ({x}, {y})");
        }
        for i in 0..64 {
            let (x, y) = (i % 8, i / 8);
            assert_eq!(rt[4 * i..4 * i + 4], [255, 128, 64, 255], "slice 0 pixel ({x}, {y})");
            let want = if x >= 4 && y < 4 { [128, 64, 32, 128] } else { [0; 4] };
            assert_eq!(rt[256 + 4 * i..256 + 4 * i + 4], want, "slice 1 pixel ({x}, {y})");
        }
    }

    /// Mesa's quad fixtures (quad.vert, quad.geom, quad.frag): each point becomes a
    /// 0.5 × 0.5 clip-space square around it, a 4-vertex triangle strip with the point's color.
    #[test]
    fn a_geometry_shader_turns_each_point_into_a_two_by_two_pixel_quad() {
        let gs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.gs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
        // layout(points) in; layout(triangle_strip, max_vertices = 4) out; no invocations.
        let state = rd3d12_shader::dxil::GsState {
            input_primitive: 1,
            max_vertex_count: 4,
            active_stream_mask: 1,
            output_topology: 5,
            instance_count: 1,
        };
        assert_eq!(gs.dx.entry_points[0].gs, Some(state));
        // On an 8x8 viewport one pixel is 0.25 in clip space: (-0.5, 0.5) lands on the pixel
        // corner (2, 2) and its quad covers pixels x 1..=2, y 1..=2; (0.5, -0.25) lands on
        // (6, 5), covering x 5..=6, y 4..=5.
        let (rt, st) = gs_draw(
            &gs,
            &ps,
            input_assembler::Topology::PointList,
            &[[-0.5, 0.5, 1.0, 0.0, 0.0, 1.0], [0.5, -0.25, 0.0, 0.25, 1.0, 1.0]],
        );
        assert_eq!((st.vertices_shaded, st.primitives), (2, 2));
        assert_eq!((st.gs_invocations, st.gs_primitives), (2, 4));
        // Two triangles per quad reach the rasterizer; their shared diagonal runs through pixel
        // centers, and the top-left rule gives each such pixel to one triangle only.
        assert_eq!((st.c_invocations, st.c_primitives), (4, 4));
        assert_eq!(st.pixels_written, 8);
        for y in 0..8usize {
            for x in 0..8usize {
                let want = match (x, y) {
                    (1..=2, 1..=2) => [255, 0, 0, 255],
                    (5..=6, 4..=5) => [0, 64, 255, 255],
                    _ => [0; 4],
                };
                assert_eq!(rt[y * 32 + x * 4..y * 32 + x * 4 + 4], want, "pixel ({x}, {y})");
            }
        }
    }

    /// split.geom with primid.frag: two GS instances per point, each emitting two one-pixel
    /// points in separate strips, with SV_PrimitiveID = 2 × input primitive + instance, which
    /// the pixel shader reads back as red / 16.
    #[test]
    fn geometry_shader_instances_cuts_and_written_primitive_ids_reach_the_pixels() {
        let gs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/split.gs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/primid.ps.dxil")));
        assert_eq!(gs.dx.entry_points[0].gs.map(|s| (s.instance_count, s.output_topology)), Some((2, 1)));
        // Pixel centers (1, 1) and (4, 5).
        let (rt, st) = gs_draw(
            &gs,
            &ps,
            input_assembler::Topology::PointList,
            &[[-0.625, 0.625, 0.0, 0.0, 0.0, 1.0], [0.125, -0.375, 0.0, 0.0, 0.0, 1.0]],
        );
        assert_eq!((st.gs_invocations, st.gs_primitives, st.c_invocations), (4, 8, 8));
        assert_eq!(st.pixels_written, 8);
        for y in 0..8usize {
            for x in 0..8usize {
                // Primitive id 2p + i at pixel (x0 + i, y0 + k): red round(255 · id / 16).
                let id = match (x, y) {
                    (1..=2, 1..=2) => Some(x - 1),
                    (4..=5, 5..=6) => Some(2 + x - 4),
                    _ => None,
                };
                let want = id.map_or([0; 4], |id| [[0, 16, 32, 48][id], 0, 0, 255]);
                assert_eq!(rt[y * 32 + x * 4..y * 32 + x * 4 + 4], want, "pixel ({x}, {y})");
            }
        }
    }

    /// adj.geom: a line list with adjacency gives the geometry shader all four vertices; it
    /// emits points at the two adjacent ones only.
    #[test]
    fn a_geometry_shader_reads_the_adjacent_vertices_of_a_line() {
        let gs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/adj.gs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
        assert_eq!(gs.dx.entry_points[0].gs.map(|s| s.input_primitive), Some(6));
        // Pixel centers (0, 0), (2, 2), (4, 4), (6, 6), in red, green, blue, white.
        let at = |k: f32| -1.0 + (2.0 * k + 0.5) / 4.0;
        let (a, b) = (at(0.0), at(1.0));
        let points = [
            [a, -a, 1.0, 0.0, 0.0, 1.0],
            [b, -b, 0.0, 1.0, 0.0, 1.0],
            [at(2.0), -at(2.0), 0.0, 0.0, 1.0, 1.0],
            [at(3.0), -at(3.0), 1.0, 1.0, 1.0, 1.0],
        ];
        let (rt, st) = gs_draw(&gs, &ps, input_assembler::Topology::LineListAdj, &points);
        assert_eq!((st.vertices_shaded, st.gs_invocations, st.gs_primitives), (4, 1, 2));
        for y in 0..8usize {
            for x in 0..8usize {
                let want = match (x, y) {
                    (0, 0) => [255, 0, 0, 255],
                    (6, 6) => [255, 255, 255, 255],
                    _ => [0; 4],
                };
                assert_eq!(rt[y * 32 + x * 4..y * 32 + x * 4 + 4], want, "pixel ({x}, {y})");
            }
        }
    }
}
