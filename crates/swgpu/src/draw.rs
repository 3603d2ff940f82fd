//! One draw through D3D12's graphics pipeline in software: vertex shading of the assembled
//! primitives (DXIL through [`rd3d12_shader::interp`]), rasterization ([`crate::raster`]), pixel
//! shading in 2x2 quads, and the output merger ([`crate::output_merger`]) into render-target
//! and depth bytes. Pure logic: the runtime resolves the D3D12 bindings (root signature,
//! descriptor heaps, views, GPU virtual addresses) into the [`Bindings`] and [`Target`]s given
//! here; targets are [`Surface`]s the draw reads and writes by byte offset, never slices.
//!
//! The stages, one module each: `vertex` (input layout linked once per draw, vertices fetched
//! and shaded), `tessellation`, `geometry`, `stream_output`, `setup` (the per-draw state table
//! and each primitive's viewport, user clip and cull distances, depth bias, rasterizer setup and
//! varyings), `tiles` (primitives binned into screen tiles, the tiles run on [`Workers`]),
//! `fragment` (a primitive rasterized in one tile and its pixel shader run on 2x2 quads) and
//! `merge` (the depth-stencil test and blending of each sample into the targets); `target`
//! holds the target types. Only `tiles` and `fragment` run on several threads: they read the
//! setup state and write the targets only at the pixels of their tile.
//!
//! Linkage follows D3D12: input-layout elements feed the vertex shader's input signature by
//! semantic name (case-insensitive) and index; vertex-shader outputs feed pixel-shader inputs the
//! same way; SV_Position carries the clip-space position; SV_Target n goes to render target n;
//! SV_Depth replaces the interpolated depth. Pixel inputs are interpolated perspective-correctly
//! unless their interpolation mode is constant (the leading vertex's value) or noperspective.
//!
//! A geometry shader, when there is one, runs per assembled primitive and per GS instance on
//! that primitive's vertex-shader outputs (linked to its input signature by semantic, as
//! above); what it emits to each stream is assembled into its output topology (strips cut by
//! that stream's CutStream); RasterizedStream's primitives are rasterized instead, and the
//! pixel shader's inputs are linked to that stream's GS outputs; with an adjacency topology it
//! reads every vertex ([`input_assembler::gs_inputs`]). Every stream goes to the stream-output
//! buffers its declaration entries name (`stream_output`). A disabled rasterizer
//! ([`PipelineDesc::rasterizes`]: D3D12_SO_NO_RASTERIZED_STREAM, or no pixel shader with depth
//! and stencil tests off) draws nothing and needs no SV_Position: the stages still run and
//! stream out.
//!
//! With hull and domain shaders ([`Tess`]), the draw's topology is a patch list: each patch's
//! vertex-shader outputs go through the tessellation stages (`tessellation`), whose
//! primitives go on to the geometry shader or the rasterizer as assembled ones would.
//!
//! Every topology is drawn: triangles, aliased lines (the diamond-exit rule) and points (one
//! pixel each), see [`crate::raster`]; lines and points are front-facing, a line's inputs are
//! interpolated along it and a point's are its vertex's. Depth-stencil views of D16_UNORM,
//! D24_UNORM_S8_UINT, D32_FLOAT and D32_FLOAT_S8X24_UINT (see [`DepthStencilTarget`]).

use crate::input_assembler::{self, Primitive, VertexBuffer};
use crate::raster::{Rect, Viewport};
use rd3d12_core::pipeline::PipelineDesc;
use rd3d12_shader::dxil::{EntryPoint, Function, Module};
use rd3d12_shader::interp::{ExecError, Mask, SampleMode};
use rd3d12_shader::ir::Scalar;

mod stream_output;
pub use stream_output::SoBuffer;

/// A shader ready to run: its module, entry function and signatures.
pub struct Shader<'a> {
    /// The module.
    pub module: &'a Module,
    /// Its entry point (function and signatures).
    pub entry: &'a EntryPoint,
    /// The resource ranges it declares (the program's interface, whichever front end read it:
    /// DXIL's `dx.resources`, DXBC's declarations).
    pub resources: &'a [rd3d12_shader::dxil::metadata::Resource],
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
    /// [`Bindings::sample`] for each lane `l` of `m`, with `reqs[l]`, into `out[l]`: one
    /// call per wave, so an implementation finds the texture and the sampler once.
    fn sample_lanes(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        m: Mask,
        reqs: &[rd3d12_shader::interp::env::SampleReq],
        out: &mut [[f32; 4]],
    ) {
        for_lanes(m, |l| {
            let q = &reqs[l];
            out[l] = self.sample(texture, sampler, q.coords, q.offset, q.mode, q.compare);
        });
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

/// Calls `f` for each lane of `m`, lowest first; the low lanes of a whole wave (the common
/// mask) as a plain count. For small bodies (two calls of `f` are inlined).
#[inline(always)]
pub(crate) fn for_lanes(m: Mask, mut f: impl FnMut(usize)) {
    if m & m.wrapping_add(1) == 0 {
        for l in 0..(Mask::BITS - m.leading_zeros()) as usize {
            f(l);
        }
    } else {
        for l in rd3d12_shader::interp::env::lanes(m) {
            f(l);
        }
    }
}

/// The resource operations of a stage's [`rd3d12_shader::interp::WaveEnv`], over its `handles`
/// (one table for the wave), `resources` (the module's declarations) and `bindings`;
/// `self.writes(m)` says which lanes of `m` may have side effects (not helpers, not discarded).
macro_rules! wave_resource_ops {
    () => {
        fn create_handle(
            &mut self,
            m: Mask,
            class: u8,
            range: u32,
            index: u32,
            out: &mut [u32],
        ) -> Result<(), ExecError> {
            let h = self.handles.create(self.resources, class, range, index)?;
            $crate::draw::for_lanes(m, |l| out[l] = h);
            Ok(())
        }
        fn cbuffer_row(&mut self, m: Mask, h: u32, row: u32, out: &mut [[u32; 4]]) -> Result<(), ExecError> {
            let v = match self.handles.binding(h)? {
                (Class::Cbv, (space, reg)) => self.bindings.cbuffer_row(space, reg, row),
                _ => return Err(ExecError::Malformed("cbufferLoadLegacy on a handle that is not a CBV".into())),
            };
            $crate::draw::for_lanes(m, |l| out[l] = v);
            Ok(())
        }
        fn sample(
            &mut self,
            m: Mask,
            t: u32,
            s: u32,
            reqs: &[SampleReq],
            out: &mut [[f32; 4]],
        ) -> Result<(), ExecError> {
            let (tr, sr) = self.handles.srv_sampler(t, s, "sample")?;
            self.bindings.sample_lanes(tr, sr, m, reqs, out);
            Ok(())
        }
        fn gather(
            &mut self,
            m: Mask,
            t: u32,
            s: u32,
            reqs: &[GatherReq],
            out: &mut [[f32; 4]],
        ) -> Result<(), ExecError> {
            let (tr, sr) = self.handles.srv_sampler(t, s, "gather")?;
            for l in lanes(m) {
                let q = &reqs[l];
                out[l] = self.bindings.gather(tr, sr, q.coords, q.offset, q.channel, q.compare);
            }
            Ok(())
        }
        fn calculate_lod(
            &mut self,
            m: Mask,
            t: u32,
            s: u32,
            reqs: &[LodReq],
            clamped: bool,
            out: &mut [f32],
        ) -> Result<(), ExecError> {
            let (tr, sr) = self.handles.srv_sampler(t, s, "calculateLOD")?;
            for l in lanes(m) {
                let q = &reqs[l];
                out[l] = self.bindings.calculate_lod(tr, sr, q.coords, q.ddx, q.ddy, clamped);
            }
            Ok(())
        }
        fn update_counter(&mut self, m: Mask, r: u32, delta: i32, out: &mut [u32]) -> Result<(), ExecError> {
            let reg = self.handles.uav(r)?;
            let writes = self.writes(m);
            for l in lanes(m) {
                out[l] = if writes >> l & 1 != 0 { self.bindings.update_counter(reg, delta) } else { 0 };
            }
            Ok(())
        }
        fn texture_load(
            &mut self,
            m: Mask,
            t: u32,
            at: &[At],
            mip: &[u32],
            out: &mut [[u32; 4]],
        ) -> Result<(), ExecError> {
            let (class, reg) = self.handles.binding(t)?;
            for l in lanes(m) {
                out[l] = self.bindings.texture_load(class, reg, mip[l], at[l]);
            }
            Ok(())
        }
        fn texture_store(&mut self, m: Mask, t: u32, at: &[At], v: &[[u32; 4]], mask: u8) -> Result<(), ExecError> {
            let reg = self.handles.uav(t)?;
            for l in lanes(self.writes(m)) {
                self.bindings.texture_store(reg, at[l], v[l], mask);
            }
            Ok(())
        }
        fn buffer_load(&mut self, m: Mask, b: u32, at: &[At], out: &mut [[u32; 4]]) -> Result<(), ExecError> {
            let (class, reg) = self.handles.binding(b)?;
            let stride = self.handles.stride(b);
            for l in lanes(m) {
                out[l] = self.bindings.buffer_load(class, reg, stride, at[l][0] as u32, at[l][1] as u32);
            }
            Ok(())
        }
        fn buffer_store(&mut self, m: Mask, b: u32, at: &[At], v: &[[u32; 4]], mask: u8) -> Result<(), ExecError> {
            let reg = self.handles.uav(b)?;
            let stride = self.handles.stride(b);
            for l in lanes(self.writes(m)) {
                self.bindings.buffer_store(reg, stride, at[l][0] as u32, at[l][1] as u32, v[l], mask);
            }
            Ok(())
        }
        fn dimensions(&mut self, m: Mask, r: u32, mip: u32, out: &mut [[u32; 4]]) -> Result<(), ExecError> {
            let (class, reg) = self.handles.binding(r)?;
            let d = self.bindings.dimensions(class, reg, mip);
            for l in lanes(m) {
                out[l] = d;
            }
            Ok(())
        }
        fn atomic(&mut self, m: Mask, r: u32, op: u32, at: &[At], v: &[u32], out: &mut [u32]) -> Result<(), ExecError> {
            let reg = self.handles.uav(r)?;
            let writes = self.writes(m);
            for l in lanes(m) {
                out[l] = if writes >> l & 1 != 0 { self.bindings.atomic(reg, op, at[l], v[l]) } else { 0 };
            }
            Ok(())
        }
        fn atomic_cmpxchg(
            &mut self,
            m: Mask,
            r: u32,
            at: &[At],
            v: &[[u32; 2]],
            out: &mut [u32],
        ) -> Result<(), ExecError> {
            let reg = self.handles.uav(r)?;
            let writes = self.writes(m);
            for l in lanes(m) {
                out[l] =
                    if writes >> l & 1 != 0 { self.bindings.atomic_cmpxchg(reg, at[l], v[l][0], v[l][1]) } else { 0 };
            }
            Ok(())
        }
    };
}

mod fragment;
mod geometry;
mod merge;
mod setup;
mod target;
mod tessellation;
#[cfg(test)]
mod tests;
mod tiles;
mod vertex;
use geometry::{link_stages, GsStage, RasterPrimitive};
pub use target::{Bytes, DepthStencilTarget, Plane, Surface, Target};
pub use tessellation::Tess;
use tessellation::TessStage;
use vertex::{input_element, lane_val, store_lane};
pub(crate) use wave_resource_ops;

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
    /// The geometry shader, if any (RasterizedStream is rasterized, every stream streams out).
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
    /// Where the fragment work runs ([`Workers::process`] for the process's pool).
    pub workers: Workers<'a>,
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
    /// GSPrimitives: primitives the geometry shader output, on all its streams.
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
    /// D3D12_QUERY_DATA_SO_STATISTICS.NumPrimitivesWritten of each stream: primitives written
    /// to the stream-output buffers (0 for a stream without stream-output declaration entries).
    pub so_written: [u64; 4],
    /// PrimitivesStorageNeeded of each stream: primitives that were to be written, those that
    /// did not fit included. A stream overflowed when it needed more than it wrote.
    pub so_needed: [u64; 4],
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

/// A shaded vertex: outputs by (signature id, row), shared by the primitives that use the
/// vertex (a clone is a reference count, not a copy of the rows).
#[derive(Clone)]
struct ShadedVertex {
    clip: [f32; 4],
    outputs: std::sync::Arc<Outputs>,
}

/// A stage's outputs by (signature id, row), in the order first written: a short list (a
/// shader writes a few rows), searched instead of hashed.
#[derive(Clone, Default)]
struct Outputs(Vec<((u32, u32), [Comp; 4])>);

/// One component of a stage's output: a value of the kinds a slot hands the environment,
/// as plain data (no drop, copied by value: a vertex writes and its primitives read many).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Comp {
    Int(u64),
    F32(f32),
    F64(f64),
}

impl Outputs {
    /// Room for `rows` rows (a stage's output signature: one allocation per vertex).
    fn with_rows(rows: usize) -> Outputs {
        Outputs(Vec::with_capacity(rows))
    }

    /// The row at (signature id, row), if written.
    fn get(&self, at: &(u32, u32)) -> Option<&[Comp; 4]> {
        self.0.iter().find(|(k, _)| k == at).map(|(_, v)| v)
    }

    /// The row at `at`, unwritten components 0.
    fn row_mut(&mut self, at: (u32, u32)) -> &mut [Comp; 4] {
        let i = match self.0.iter().position(|(k, _)| *k == at) {
            Some(i) => i,
            None => {
                self.0.push((at, [Comp::F32(0.0); 4]));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }
}

/// Input (signature id, row) of one stage ← output (signature id, row) of the stage before.
type Link = ((u32, u32), (u32, u32));

fn f32_of(v: &Comp) -> f32 {
    match v {
        Comp::F32(f) => *f,
        Comp::F64(f) => *f as f32,
        Comp::Int(i) => f32::from_bits(*i as u32),
    }
}

/// A stage's output value as the bits of an interpreter slot of type `s`: what the
/// interpreter hands a per-invocation environment, bit for bit (floats widened or narrowed to
/// the slot's type, integers masked to its width).
fn slot_bits(v: &Comp, s: Scalar) -> u64 {
    use rd3d12_shader::interp::alu;
    match v {
        Comp::Int(i) => s.mask(*i),
        Comp::F32(f) => match s {
            Scalar::F64 => f64::from(*f).to_bits(),
            Scalar::F16 => u64::from(alu::f32_to_half(*f)),
            s => s.mask(u64::from(f.to_bits())),
        },
        Comp::F64(d) => match s {
            Scalar::F64 => d.to_bits(),
            Scalar::F32 | Scalar::F16 => alu::from_f64(s, *d),
            s => s.mask(d.to_bits()),
        },
    }
}

/// The bits of a slot of type `s` as the value a stage keeps of an output (halves as f32).
fn slot_val(bits: u64, s: Scalar) -> Comp {
    match s {
        Scalar::F32 => Comp::F32(f32::from_bits(bits as u32)),
        Scalar::F64 => Comp::F64(f64::from_bits(bits)),
        Scalar::F16 => Comp::F32(rd3d12_shader::interp::alu::half_to_f32(bits as u16)),
        _ => Comp::Int(bits),
    }
}

fn bits_of(v: &Comp) -> u32 {
    match v {
        Comp::F32(f) => f.to_bits(),
        Comp::Int(i) => *i as u32,
        other => f32_of(other).to_bits(),
    }
}

/// The size of the screen tiles a draw's fragment work is split into ([`Workers::tile`]).
pub const TILE: u32 = 64;

/// Primitives set up before their fragment work runs: the stages before the rasterizer run
/// ahead of the fragment stage by at most this many.
const BATCH: usize = 1024;

/// Where a draw's fragment work runs: screen tiles of `tile` pixels square, spread over `pool`
/// (`None`: the calling thread, tile after tile). The result is the same either way.
#[derive(Clone, Copy)]
pub struct Workers<'a> {
    /// The pool the tiles run on.
    pub pool: Option<&'a rayon::ThreadPool>,
    /// The tiles' side in pixels (even, so that no 2x2 quad straddles two tiles).
    pub tile: u32,
}

impl Workers<'static> {
    /// The process's pool ([`crate::pool::pool`], `RD3D12_THREADS`) with [`TILE`]-pixel tiles.
    pub fn process() -> Self {
        Workers { pool: crate::pool::pool(), tile: TILE }
    }

    /// Everything on the calling thread.
    pub fn serial() -> Self {
        Workers { pool: None, tile: TILE }
    }
}

/// Runs one draw. Each stage reads its own bindings (root signature visibility); pixels go to
/// `targets[n]` (None: no RTV bound in slot n), depth and stencil to `depth`; the pipeline's
/// states decide how.
///
/// The stages: input assembly and the vertex stage (`vertex`, with a per-instance cache of
/// shaded vertices), tessellation and the geometry shader, stream output, then setup
/// (`setup`: viewport, user clip and cull distances, depth bias, the rasterizer's setup) in
/// batches of primitives whose fragment work (`tiles`, `fragment`, `merge`) runs per
/// screen tile on [`DrawCall::workers`]. Each tile takes the batch's primitives in submission
/// order, so every pixel sees the depth tests and blends of the single-threaded order.
///
/// Multisampling (SampleDesc.Count 2, 4, 8 or 16; targets laid out `sample_stride` apart):
/// coverage and depth are per sample at the standard positions ([`crate::raster`]); the pixel shader
/// runs once per pixel at the pixel center, or once per covered sample when it reads
/// SV_SampleIndex or has a `sample` input; SV_Coverage reads the covered samples under
/// SampleMask. Its output goes to every covered sample that SampleMask, an output SV_Coverage
/// and alpha-to-coverage (`merge::alpha_coverage`) keep and that passes the depth-stencil test
/// at its own depth. Occlusion counts passing samples.
///
/// An error stops the draw: the primitives before it stay drawn (the batch it happened in is
/// finished first), and of the errors the tiles of one batch meet, that of the earliest
/// primitive is returned.
pub fn draw(
    call: &DrawCall<'_>,
    vs_bindings: &dyn Bindings,
    gs_bindings: &dyn Bindings,
    ps_bindings: &dyn Bindings,
    targets: &mut [Option<Target<'_>>],
    depth: Option<&mut DepthStencilTarget<'_>>,
    so: &mut [Option<SoBuffer<'_>>],
) -> Result<DrawStats, DrawError> {
    let targets: &[Option<Target<'_>>] = targets;
    let depth = depth.map(|d| &*d);
    let st = setup::DrawState::new(call, targets, depth, ps_bindings)?;
    let p = call.pipeline;
    let mut stats = DrawStats::default();
    let read = call.vertices.iter().filter(|&&v| Some(v) != call.cut).count() as u64;
    stats.ia_vertices = read * u64::from(call.instances);
    let prims = input_assembler::primitives(call.topology, &call.vertices, call.cut);
    // A geometry shader sees every vertex of each primitive, adjacent ones included.
    let gs_inputs = match call.gs {
        Some(_) => input_assembler::gs_inputs(call.topology, &call.vertices, call.cut),
        None => Vec::new(),
    };
    let vs = vertex::VertexStage::new(call, vs_bindings)?;
    let mut handles = Handles::default();
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
    let gs = call.gs.as_ref().map(|g| GsStage::new(g, st.pre_gs_outputs, gs_bindings)).transpose()?;
    // Stream output, one writer per stream with declaration entries; the stream rasterized.
    let so_writers: [Option<stream_output::Writer>; 4] =
        std::array::from_fn(|k| stream_output::Writer::new(&p.stream_output, st.last_outputs, k as u32));
    let raster_stream = p.stream_output.rasterized_stream;
    let mut batch: Vec<setup::SetupPrimitive> = Vec::new();
    let mut front = || -> Result<(), DrawError> {
        let count = if tess.is_some() { patches.len() } else { prims.len() };
        let ids_of = |prim_id: usize| -> &[u32] {
            match (patches.get(prim_id), gs_inputs.get(prim_id), &prims.get(prim_id)) {
                (Some(patch), _, _) => patch,
                (None, Some(all), _) => all,
                (None, None, Some(Primitive::Point(v))) => std::slice::from_ref(v),
                (None, None, Some(Primitive::Line(l))) => l,
                (None, None, Some(Primitive::Triangle(t))) => t,
                (None, None, None) => &[],
            }
        };
        // Each vertex once per instance, in the order the primitives first use them, shaded
        // in waves of that order's consecutive vertices: the waves a serial walk would make,
        // shading the next wave when a primitive needs a vertex not shaded yet, since that
        // vertex is always the next of the order. The waves run on the workers ahead of the
        // primitives (D3D orders no vertex shader invocations, UAV writes included).
        let mut order: Vec<u32> = Vec::new();
        let mut place = vertex::Places::default();
        for prim_id in 0..count {
            for &v in ids_of(prim_id) {
                if place.insert(v, order.len() as u32) {
                    order.push(v);
                }
            }
        }
        let waves: Vec<&[u32]> = order.chunks(vertex::VS_WAVE).collect();
        for instance in 0..call.instances {
            // The vertices shaded, by place in `order`, up to the first wave that failed.
            let (shaded, failed) = vs.shade_waves(&waves, instance);
            stats.vertices_shaded += shaded.len() as u64;
            for prim_id in 0..count {
                let ids = ids_of(prim_id);
                if ids.is_empty() {
                    continue;
                }
                let mut verts = Vec::with_capacity(ids.len());
                for &v in ids {
                    match place.get(v).and_then(|k| shaded.get(k as usize)) {
                        Some(sv) => verts.push(sv.clone()),
                        // A vertex of the failed wave or after it: where the serial walk stops.
                        None => return Err(failed.unwrap_or(DrawError::Unsupported("a vertex was not shaded"))),
                    }
                }
                stats.primitives += 1;
                // The primitives to rasterize: the assembled one, or what the geometry shader
                // made of it.
                let raster_prims: Vec<geometry::StreamPrimitive> = match (&tess, &gs) {
                    (Some(t), None) => {
                        t.run(&verts, prim_id as u32, &mut handles, &mut stats)?.into_iter().map(|p| (0, p)).collect()
                    }
                    (Some(t), Some(g)) => {
                        let mut out = Vec::new();
                        for (_, verts, id) in t.run(&verts, prim_id as u32, &mut handles, &mut stats)? {
                            out.extend(g.run(&verts, id, &mut handles, &mut stats)?);
                        }
                        out
                    }
                    (None, Some(g)) => g.run(&verts, prim_id as u32, &mut handles, &mut stats)?,
                    (None, None) => {
                        prims.get(prim_id).map(|p| vec![(0, (*p, verts, prim_id as u32))]).unwrap_or_default()
                    }
                };
                for (stream, (prim, verts, prim_id)) in raster_prims {
                    let s = (stream as usize).min(3);
                    if let Some(w) = &so_writers[s] {
                        let list: Vec<&ShadedVertex> = verts.iter().take(prim_vertices(&prim)).collect();
                        stats.so_needed[s] += 1;
                        stats.so_written[s] += u64::from(w.write(&list, so));
                    }
                    if !st.rasterize || stream != raster_stream {
                        continue;
                    }
                    stats.c_invocations += 1;
                    if let Some(s) = st.setup(prim, &verts, prim_id, &mut stats) {
                        batch.push(s);
                    }
                    if batch.len() >= BATCH {
                        let done = tiles::run(&st, &batch, &handles, targets, depth, &mut stats);
                        batch.clear();
                        done?;
                    }
                }
            }
        }
        Ok(())
    };
    let front_result = front();
    // What was set up before an error is still drawn, as a GPU would have.
    let back_result = tiles::run(&st, &batch, &handles, targets, depth, &mut stats);
    front_result.and(back_result)?;
    Ok(stats)
}

/// The vertices of a point, line or triangle.
fn prim_vertices(p: &Primitive) -> usize {
    match p {
        Primitive::Point(_) => 1,
        Primitive::Line(_) => 2,
        Primitive::Triangle(_) => 3,
    }
}
