//! The per-invocation interface: [`Env`], what one shader invocation reaches outside itself,
//! one call per lane, and the values and errors it trades in ([`Val`], [`ExecError`],
//! [`SampleMode`], [`EvalAt`]). The stages that run one invocation at a time (geometry, hull,
//! domain) and the tests implement it; [`super::env::PerLane`] runs a wave over one per lane.
//! The stages that run whole waves implement [`super::WaveEnv`] instead.

use crate::dxil::ops::opcode_name;

/// A runtime value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// An integer of its type's width, in the low bits, zero-extended.
    Int(u64),
    /// A `half` or `float` (halves are computed in f32, as minimum precision allows).
    F32(f32),
    /// A `double`.
    F64(f64),
    /// A struct, array or vector.
    Agg(Vec<Val>),
    /// A `%dx.types.Handle`: the number the [`Env`] gave it.
    Handle(u32),
    /// A pointer into invocation memory: allocation number and scalar index.
    Ptr(usize, usize),
    /// `undef`.
    Undef,
}

/// Why an invocation stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExecError {
    /// An instruction or operation the interpreter does not implement.
    Unsupported(String),
    /// IR that cannot be executed (a missing value, a type mismatch).
    Malformed(String),
    /// More steps than the budget allows.
    StepBudget,
    /// The thread's deadline ([`with_deadline`]) passed: the work runs longer than the GPU
    /// timeout allows (Windows would reset the GPU: TDR).
    Timeout,
}

impl core::fmt::Display for ExecError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ExecError::Unsupported(s) => write!(f, "unsupported: {s}"),
            ExecError::Malformed(s) => write!(f, "malformed: {s}"),
            ExecError::StepBudget => f.write_str("step budget exhausted"),
            ExecError::Timeout => f.write_str("the GPU timeout expired"),
        }
    }
}

type R<T> = Result<T, ExecError>;

/// How a `sample*` operation picks its mip level.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SampleMode {
    /// From derivatives of the coordinates: the quad's (`Sample`, `SampleBias`, `SampleCmp`;
    /// zero for an invocation running alone) or the shader's (`SampleGrad`), plus a bias and a
    /// LOD clamp (0 meaning none, as DXIL passes `undef`).
    Grad {
        /// d(coords)/dx in texture coordinates (u, v, w).
        ddx: [f32; 3],
        /// d(coords)/dy.
        ddy: [f32; 3],
        /// SampleBias's bias (0 otherwise).
        bias: f32,
        /// The LOD clamp.
        clamp: f32,
    },
    /// An explicit LOD (`SampleLevel`; `SampleCmpLevelZero` is level 0).
    Level(f32),
}

/// Where an `Eval*` operation interpolates an input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalAt {
    /// `EvalSnapped`: the pixel center moved by (x, y) sixteenths of a pixel, each in −8..=7.
    Snapped(i32, i32),
    /// `EvalSampleIndex`: the position of sample `n` of the render target's pattern.
    Sample(u32),
    /// `EvalCentroid`: where a centroid-interpolated input is evaluated.
    Centroid,
}

/// What a shader invocation reaches outside itself.
pub trait Env {
    /// `LoadInput`: component `col` of row `row` of input signature element `sig`, for vertex
    /// `vertex` of the primitive (geometry and hull shaders; `None` otherwise).
    fn load_input(&mut self, sig: u32, row: u32, col: u8, vertex: Option<u32>) -> R<Val>;
    /// `StoreOutput`.
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> R<()>;
    /// `CreateHandle`: resource class (0 SRV, 1 UAV, 2 CBV, 3 sampler), range id, index.
    fn create_handle(&mut self, class: u8, range: u32, index: u32) -> R<u32>;
    /// `CBufferLoadLegacy`: the four 32-bit words of 16-byte row `row`.
    fn cbuffer_row(&mut self, handle: u32, row: u32) -> R<[u32; 4]>;
    /// `Sample*`: the filtered value (`compare`: the reference of SampleCmp*, whose result is in
    /// every component).
    fn sample(
        &mut self,
        texture: u32,
        sampler: u32,
        coords: [f32; 4],
        offset: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> R<[f32; 4]>;
    /// `Discard` with a true condition.
    fn discard(&mut self) -> R<()>;
    /// `TextureGather` / `TextureGatherCmp`: component `channel` of the four texels a bilinear
    /// sample would read, in D3D's order (−u+v, +u+v, +u−v, −u−v); with `compare`, each
    /// compared against it.
    fn gather(
        &mut self,
        _texture: u32,
        _sampler: u32,
        _coords: [f32; 4],
        _offset: [i32; 2],
        _channel: u32,
        _compare: Option<f32>,
    ) -> R<[f32; 4]> {
        unsupported("TextureGather")
    }
    /// `CalculateLOD`: the LOD a sample with these derivatives would use, clamped to the
    /// sampler's and view's ranges (`clamped`) or not.
    fn calculate_lod(
        &mut self,
        _texture: u32,
        _sampler: u32,
        _coords: [f32; 3],
        _ddx: [f32; 3],
        _ddy: [f32; 3],
        _clamped: bool,
    ) -> R<f32> {
        unsupported("CalculateLOD")
    }
    /// `TextureLoad`: the texel (as its four 32-bit lanes) at integer coordinates of a mip
    /// level (or sample index), offset applied; out of range gives 0.
    fn texture_load(
        &mut self,
        _texture: u32,
        _mip_or_sample: u32,
        _coords: [i32; 3],
        _offset: [i32; 3],
    ) -> R<[u32; 4]> {
        unsupported("TextureLoad")
    }
    /// `TextureStore`: the components of `mask` at integer coordinates.
    fn texture_store(&mut self, _texture: u32, _coords: [i32; 3], _value: [u32; 4], _mask: u8) -> R<()> {
        unsupported("TextureStore")
    }
    /// `BufferLoad` / `RawBufferLoad`: element `index` (typed), or at byte `index` (raw), or
    /// element `index` plus byte `offset` (structured).
    fn buffer_load(&mut self, _buffer: u32, _index: u32, _offset: u32) -> R<[u32; 4]> {
        unsupported("BufferLoad")
    }
    /// `BufferStore` / `RawBufferStore`.
    fn buffer_store(&mut self, _buffer: u32, _index: u32, _offset: u32, _value: [u32; 4], _mask: u8) -> R<()> {
        unsupported("BufferStore")
    }
    /// `GetDimensions`: width, height, depth or array size, mip count (typed and structured
    /// buffers: element count; raw buffers: size in bytes).
    fn dimensions(&mut self, _resource: u32, _mip: u32) -> R<[u32; 4]> {
        unsupported("GetDimensions")
    }
    /// `AtomicBinOp` (op: 0 ADD, 1 AND, 2 OR, 3 XOR, 4 IMIN, 5 IMAX, 6 UMIN, 7 UMAX, 8 EXCHANGE);
    /// returns the value before the operation.
    fn atomic(&mut self, _resource: u32, _op: u32, _coords: [i32; 3], _value: u32) -> R<u32> {
        unsupported("AtomicBinOp")
    }
    /// `AtomicCompareExchange`; returns the value before the operation.
    fn atomic_cmpxchg(&mut self, _resource: u32, _coords: [i32; 3], _cmp: u32, _new: u32) -> R<u32> {
        unsupported("AtomicCompareExchange")
    }
    /// `BufferUpdateCounter`: adds `delta` (1 or -1) to a UAV's hidden counter; returns the
    /// value before an increment and after a decrement (IncrementCounter / DecrementCounter).
    fn update_counter(&mut self, _uav: u32, _delta: i32) -> R<u32> {
        unsupported("BufferUpdateCounter")
    }
    /// A system value read by an operation: `ThreadId` (93), `GroupId` (94), `ThreadIdInGroup`
    /// (95), `FlattenedThreadIdInGroup` (96, component 0), `PrimitiveID` (108), `SampleIndex`
    /// (90), `Coverage` (91), `GSInstanceID` (100), `OutputControlPointID` (107), `ViewID` (138),
    /// `StartVertexLocation` (256), `StartInstanceLocation` (257).
    fn system_value(&mut self, opcode: u32, _component: u32) -> R<u32> {
        unsupported(opcode_name(opcode).unwrap_or("system value"))
    }
    /// `EvalSnapped` / `EvalSampleIndex` / `EvalCentroid` (pixel shaders): component `col` of
    /// row `row` of input `sig` interpolated at another point of the pixel than its
    /// declaration says.
    fn eval_input(&mut self, _sig: u32, _row: u32, _col: u8, _at: EvalAt) -> R<Val> {
        unsupported("EvalSnapped/EvalSampleIndex/EvalCentroid")
    }
    /// `RenderTargetGetSampleCount` (77): the samples per pixel of the bound render targets.
    fn sample_count(&mut self) -> R<u32> {
        unsupported("RenderTargetGetSampleCount")
    }
    /// `RenderTargetGetSamplePosition` (76): sample `index`'s offset from the pixel center in
    /// pixels (x right, y down); (0, 0) for an index past the count.
    fn sample_position(&mut self, _index: u32) -> R<[f32; 2]> {
        unsupported("RenderTargetGetSamplePosition")
    }
    /// `LoadOutputControlPoint` (103, a hull shader's patch constant function): component `col`
    /// of row `row` of output `sig` as the control-point phase wrote it for control point
    /// `index`.
    fn load_output_control_point(&mut self, _sig: u32, _row: u32, _col: u8, _index: u32) -> R<Val> {
        unsupported("LoadOutputControlPoint")
    }
    /// `StorePatchConstant` (106, a hull shader's patch constant function).
    fn store_patch_constant(&mut self, _sig: u32, _row: u32, _col: u8, _value: &Val) -> R<()> {
        unsupported("StorePatchConstant")
    }
    /// `LoadPatchConstant` (104, domain shaders): component `col` of row `row` of patch
    /// constant `sig`.
    fn load_patch_constant(&mut self, _sig: u32, _row: u32, _col: u8) -> R<Val> {
        unsupported("LoadPatchConstant")
    }
    /// `DomainLocation` (105, domain shaders): component `component` of SV_DomainLocation.
    fn domain_location(&mut self, _component: u32) -> R<f32> {
        unsupported("DomainLocation")
    }
    /// `EmitStream` (geometry shaders): the outputs stored so far become a vertex of `stream`.
    fn emit_stream(&mut self, _stream: u32) -> R<()> {
        unsupported("EmitStream")
    }
    /// `CutStream` (geometry shaders): the current strip of `stream` ends.
    fn cut_stream(&mut self, _stream: u32) -> R<()> {
        unsupported("CutStream")
    }
    /// Whether this invocation starts as a helper lane: a pixel of its 2x2 quad outside the
    /// primitive, run only for its neighbours' derivatives (its outputs and side effects are
    /// the environment's to drop). Wave operations leave helper lanes out; a lane that
    /// discards becomes one. `false` unless the environment says so.
    fn is_helper(&self) -> bool {
        false
    }
}

fn unsupported<T>(what: &str) -> R<T> {
    Err(ExecError::Unsupported(format!("dx.op {what}")))
}
