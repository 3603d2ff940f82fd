//! The legacy interpreter, and the entry points draws and dispatches call.
//!
//! [`run`], [`run_quad`] and [`run_group`] execute through the wave interpreter over the IR
//! ([`crate::interp`]); `RD3D12_INTERP=legacy` (read once) sends them here instead, to the
//! interpreter that runs DXIL function bodies directly, one invocation at a time, over
//! [`Val`]s ([`run_legacy`], [`run_quad_legacy`], [`run_group_legacy`]): kept for comparison
//! (`exec_speed`, the differential test of `interp`) until issue #20 closes. The [`Env`]
//! trait, [`Val`], [`ExecError`], [`SampleMode`], [`EvalAt`], the step budget and the
//! deadline ([`with_deadline`]) are the interface both share with the software GPU.
//!
//! Semantics follow DXIL.rst: integers wrap at their width; `fdiv` by zero and the like follow
//! IEEE-754 in f32; `fptosi`/`fptoui` saturate as D3D's ftoi/ftou do (NaN gives 0); the `Exp`
//! and `Log` operations are base 2; `Round_ne` rounds half to even. Memory (`alloca`, global
//! arrays) is per invocation, scalar by scalar. Unknown operations and malformed IR give an
//! [`ExecError`], never a panic, and a step budget stops endless loops.

use super::inst::{BinOp, CastOp, InstKind, Operand};
use super::module::{Const, Function, Module, ValueId, ValueKind};
use super::ops::opcode_name;
use super::types::{Type, TypeId};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

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

impl Val {
    fn int(&self) -> u64 {
        match self {
            Val::Int(v) => *v,
            Val::F32(f) => u64::from(f.to_bits()),
            Val::F64(f) => f.to_bits(),
            _ => 0,
        }
    }
    fn f32(&self) -> f32 {
        match self {
            Val::F32(f) => *f,
            Val::F64(f) => *f as f32,
            Val::Int(i) => f32::from_bits(*i as u32),
            _ => 0.0,
        }
    }
    fn f64(&self) -> f64 {
        match self {
            Val::F64(f) => *f,
            Val::F32(f) => f64::from(*f),
            _ => 0.0,
        }
    }
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

fn bad<T>(what: impl Into<String>) -> R<T> {
    Err(ExecError::Malformed(what.into()))
}

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
    /// (90), `Coverage` (91), `GSInstanceID` (100), `OutputControlPointID` (107), `ViewID` (138).
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

/// Steps one invocation may take before [`ExecError::StepBudget`].
#[cfg(not(fuzzing))]
pub const STEP_BUDGET: u64 = 50_000_000;
/// Under cargo-fuzz (`--cfg fuzzing`) a mutated shader that loops forever stops early, so that
/// the fuzzer moves on instead of reporting a timeout (fuzz/README.md).
#[cfg(fuzzing)]
pub const STEP_BUDGET: u64 = 100_000;

/// How often (in steps of one invocation) the deadline is looked at: rarely enough that reading
/// the clock costs nothing measurable, often enough (well under a millisecond) to stop promptly.
pub(crate) const DEADLINE_EVERY: u64 = 1 << 14;

thread_local! {
    /// When the work this thread runs must stop ([`with_deadline`]).
    static DEADLINE: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with a deadline for the shader work it does on this thread: an invocation that is
/// still running when it passes stops with [`ExecError::Timeout`]. `None` sets no deadline.
/// (The CPU backend's analog of the GPU timeout; each invocation looks at the clock every
/// [`DEADLINE_EVERY`] of its steps, so short invocations never read it.)
pub fn with_deadline<T>(deadline: Option<std::time::Instant>, f: impl FnOnce() -> T) -> T {
    /// Puts the previous deadline back, also when `f` unwinds.
    struct Restore(Option<std::time::Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.with(|d| d.set(self.0));
        }
    }
    let _restore = Restore(DEADLINE.with(|d| d.replace(deadline)));
    f()
}

/// The deadline [`with_deadline`] set on this thread (`None`: none), for work that hands its
/// invocations to other threads: they run under the same one.
pub fn current_deadline() -> Option<std::time::Instant> {
    DEADLINE.with(|d| d.get())
}

/// The thread's deadline, out of the interpreter's hot path.
#[cold]
#[inline(never)]
pub(crate) fn deadline_passed() -> bool {
    DEADLINE.with(|d| d.get()).is_some_and(|t| std::time::Instant::now() >= t)
}

/// Whether `RD3D12_INTERP=legacy` asks for this interpreter instead of the wave interpreter
/// over the IR ([`crate::interp`]); read once. (Kept for comparison until issue #20 closes.)
pub fn legacy() -> bool {
    static LEGACY: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *LEGACY.get_or_init(|| std::env::var("RD3D12_INTERP").is_ok_and(|v| v == "legacy"))
}

/// Runs `func` (the entry point: no arguments, `void`) of `module` once: through the wave
/// interpreter ([`crate::interp::run`]), or this one with `RD3D12_INTERP=legacy`.
pub fn run(module: &Module, func: &Function, env: &mut dyn Env) -> R<()> {
    if legacy() {
        run_legacy(module, func, env)
    } else {
        crate::interp::run(module, func, env)
    }
}

/// Runs a quad (see [`run_quad_legacy`]): through the wave interpreter
/// ([`crate::interp::run_quad`]), or this one with `RD3D12_INTERP=legacy`.
pub fn run_quad(module: &Module, func: &Function, envs: [&mut dyn Env; 4]) -> R<()> {
    if legacy() {
        run_quad_legacy(module, func, envs)
    } else {
        crate::interp::run_quad(module, func, envs)
    }
}

/// Runs a compute thread group (see [`run_group_legacy`]): through the wave interpreter
/// ([`crate::interp::run_group`]), or this one with `RD3D12_INTERP=legacy`.
pub fn run_group(module: &Module, func: &Function, envs: &mut [&mut dyn Env]) -> R<()> {
    if legacy() {
        run_group_legacy(module, func, envs)
    } else {
        crate::interp::run_group(module, func, envs)
    }
}

/// [`run_group`] in waves of `width` lanes (a `[WaveSize]` shader's size), through
/// [`crate::interp::run_group_waves`]; the legacy interpreter has no waves.
pub fn run_group_waves(module: &Module, func: &Function, envs: &mut [&mut dyn Env], width: usize) -> R<()> {
    if legacy() {
        run_group_legacy(module, func, envs)
    } else {
        crate::interp::run_group_waves(module, func, envs, width)
    }
}

/// This interpreter's [`run`].
pub fn run_legacy(module: &Module, func: &Function, env: &mut dyn Env) -> R<()> {
    if func.declaration || func.blocks.is_empty() {
        return bad(format!("{} has no body", func.name));
    }
    State::new(module, func).run(env)
}

/// Where an operand's value comes from, resolved once per function.
#[derive(Debug, Clone, Copy)]
enum Src {
    /// A local slot: an argument or an instruction result (value id minus `first_local`).
    Local(u32),
    /// An entry of [`Decoded::consts`].
    Const(u32),
    /// Evaluated when read: globals (their allocation is per invocation), constants that refer
    /// to them, and ids that do not resolve (whose error then comes at run time, as before).
    Dyn(ValueId),
}

/// What the operations need to know of a result type.
#[derive(Debug, Clone, Copy)]
struct Facts {
    /// The integer width (64 for other types).
    w: u32,
    /// The type is `double`.
    double: bool,
    /// The first element (or the type itself) is floating point: ResRet and CBufRet lanes are
    /// floats, not integers.
    float_elem: bool,
}

/// What a cast needs to know of its two types.
#[derive(Debug, Clone, Copy)]
struct CastFacts {
    /// Integer widths of the source and the result (64 for other types).
    fw: u32,
    tw: u32,
    /// The result is `double` (other float results are f32).
    to_double: bool,
    /// What a `bitcast` between these types does.
    bits: BitCast,
}

/// The bitcasts that change a value's representation; the others keep it.
#[derive(Debug, Clone, Copy)]
enum BitCast {
    I32ToF32,
    F32ToI32,
    I64ToF64,
    F64ToI64,
    I16ToHalf,
    HalfToI16,
    Same,
}

/// An instruction decoded for execution.
#[derive(Debug, Clone)]
enum Op {
    Ret,
    Br(u32),
    CondBr {
        cond: Src,
        then: u32,
        otherwise: u32,
    },
    Switch {
        cond: Src,
        default: u32,
        cases: Box<[(Src, u32)]>,
    },
    Unreachable,
    Binary {
        op: BinOp,
        a: Src,
        b: Src,
        w: u32,
        double: bool,
    },
    Cast {
        op: CastOp,
        v: Src,
        c: CastFacts,
    },
    Cmp {
        pred: u32,
        a: Src,
        b: Src,
        w: u32,
    },
    Select {
        cond: Src,
        then: Src,
        otherwise: Src,
    },
    /// `extractvalue` with one index.
    Extract {
        agg: Src,
        index: u32,
    },
    /// A dx.op call: its arguments after the opcode. `spread`: (element, slot) pairs when every
    /// use of the result is a one-index `extractvalue`; the call then writes the elements into
    /// those instructions' slots and builds no aggregate.
    Call {
        opcode: u32,
        args: Box<[Src]>,
        ty: TypeId,
        facts: Facts,
        spread: Option<Box<[Spread]>>,
    },
    /// `LoadInput`, `StoreOutput` and `CreateHandle` with constant operands (but the vertex
    /// and the value), run as [`run_dx_op`] would.
    LoadInput {
        sig: u32,
        row: u32,
        col: u8,
        vertex: Src,
    },
    StoreOutput {
        sig: u32,
        row: u32,
        col: u8,
        value: Src,
    },
    CreateHandle {
        class: u8,
        range: u32,
        index: u32,
    },
    /// An `extractvalue` whose element the dx.op call that made the aggregate wrote already.
    /// SSA makes that equivalent: the call dominates the extract, and no path from the call's
    /// next run reaches a use of the extract's old value without running the extract again.
    Nop,
    /// Run from the instruction itself (memory, vectors, calls that are not dx.ops).
    Other,
}

/// Where a fused dx.op call writes element `k` of its result: `slot`, after a bitcast when
/// `cast` is set (the extract's only use).
#[derive(Debug, Clone, Copy)]
struct Spread {
    k: u32,
    slot: u32,
    cast: Option<CastFacts>,
}

#[derive(Debug, Clone)]
struct DInst {
    op: Op,
    /// Whether lanes of a quad must run this instruction together (see [`run_quad`]): it
    /// needs the other lanes' values, branches, or reaches memory or resources that other
    /// lanes may see. The others (arithmetic, inputs, outputs, handles, cbuffer reads,
    /// discard) touch only the lane's own state and its own [`Env`].
    sync: bool,
    /// The result's slot (`u32::MAX` for an id below the function's locals, an error if set).
    dst: Option<u32>,
}

#[derive(Debug, Clone)]
struct DPhi {
    dst: Option<u32>,
    /// (predecessor block, value).
    incoming: Box<[(u32, Src)]>,
}

#[derive(Debug, Clone, Default)]
struct DBlock {
    /// The block's leading phis.
    phis: Vec<DPhi>,
    /// The index of the first instruction after them.
    first: usize,
    /// Every instruction, at its index in the block (phis included, as [`Op::Other`]).
    insts: Vec<DInst>,
}

/// A function body decoded for execution, computed once and kept in [`Function::exec_cache`]:
/// operands resolved to local slots and a constant pool, type facts precomputed, dx.op opcodes
/// known.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoded {
    consts: Vec<Val>,
    blocks: Vec<DBlock>,
}

/// What a decoding [`State`] points at while it evaluates constants.
static NOTHING_DECODED: Decoded = Decoded { consts: Vec::new(), blocks: Vec::new() };

fn int_bits(m: &Module, id: TypeId) -> u32 {
    match m.types.get(id) {
        Some(Type::Int(w)) => *w,
        _ => 64,
    }
}

fn facts(m: &Module, ty: TypeId) -> Facts {
    Facts {
        w: int_bits(m, ty),
        double: matches!(m.types.get(ty), Some(Type::Double)),
        float_elem: m.types.is_float(m.types.element(ty, 0).unwrap_or(ty)),
    }
}

fn cast_facts(m: &Module, from: TypeId, to: TypeId) -> CastFacts {
    let bits = match (m.types.get(from), m.types.get(to)) {
        (Some(Type::Int(32)), Some(Type::Float)) => BitCast::I32ToF32,
        (Some(Type::Float), Some(Type::Int(32))) => BitCast::F32ToI32,
        (Some(Type::Int(64)), Some(Type::Double)) => BitCast::I64ToF64,
        (Some(Type::Double), Some(Type::Int(64))) => BitCast::F64ToI64,
        (Some(Type::Int(16)), Some(Type::Half)) => BitCast::I16ToHalf,
        (Some(Type::Half), Some(Type::Int(16))) => BitCast::HalfToI16,
        _ => BitCast::Same,
    };
    CastFacts {
        fw: int_bits(m, from),
        tw: int_bits(m, to),
        to_double: matches!(m.types.get(to), Some(Type::Double)),
        bits,
    }
}

/// Whether dx.op `opcode` touches only its lane's state and its own [`Env`]: arithmetic,
/// inputs and outputs, handles, constant buffers (read-only), system values, discard.
fn lane_local(opcode: u32) -> bool {
    matches!(opcode, 4..=57 | 59 | 71 | 82 | 90 | 91 | 93..=96 | 101..=108 | 124..=134 | 138)
}

/// Decodes `f`'s body (see [`Decoded`]).
fn decode(m: &Module, f: &Function) -> Decoded {
    let local = |id: ValueId| -> Option<u32> {
        match m.value(Some(f), id)?.kind {
            ValueKind::Inst { .. } | ValueKind::Arg(_) => id.0.checked_sub(f.first_local),
            _ => None,
        }
    };
    // Locals used other than by a one-index extractvalue, and those extracts.
    let mut other_use = vec![false; f.values.len()];
    let mut extracts: HashMap<u32, Vec<(u32, u32)>> = HashMap::new();
    // Uses of each local, and the bitcasts of locals (value slot -> result slot, facts).
    let mut uses = vec![0u32; f.values.len()];
    let mut bitcasts: HashMap<u32, (u32, CastFacts)> = HashMap::new();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        for id in inst.kind.operands() {
            if let Some(s) = local(id).and_then(|s| uses.get_mut(s as usize)) {
                *s += 1;
            }
        }
        if let (InstKind::Cast { op: CastOp::BitCast, value }, Some(r)) =
            (&inst.kind, inst.result.and_then(|r| r.0.checked_sub(f.first_local)))
        {
            if let Some(v) = local(*value) {
                let from = m.value(Some(f), *value).map_or(inst.ty, |d| d.ty);
                bitcasts.insert(v, (r, cast_facts(m, from, inst.ty)));
            }
        }
        match &inst.kind {
            InstKind::ExtractValue { agg, indices } if indices.len() == 1 => {
                match (local(*agg), inst.result.and_then(|r| r.0.checked_sub(f.first_local))) {
                    (Some(a), Some(r)) => extracts.entry(a).or_default().push((indices[0], r)),
                    (Some(a), None) => other_use[a as usize] = true,
                    _ => {}
                }
            }
            kind => {
                for id in kind.operands() {
                    if let Some(s) = local(id) {
                        other_use[s as usize] = true;
                    }
                }
            }
        }
    }
    // dx.op results only extracted from: their calls spread the elements.
    let fused: Vec<u32> = f
        .blocks
        .iter()
        .flat_map(|b| &b.insts)
        .filter(|i| m.dx_op(f, &i.kind).is_some())
        .filter_map(|i| i.result.and_then(|r| r.0.checked_sub(f.first_local)))
        .filter(|&r| (r as usize) < other_use.len() && !other_use[r as usize] && extracts.contains_key(&r))
        .collect();
    // What each fused call writes; an element whose only use is a bitcast is written cast, into
    // the bitcast's slot (Mesa reads every uniform as i32 and bitcasts it), the bitcast then
    // being a no-op like the extract, for the same reason.
    let mut folded_casts: Vec<u32> = Vec::new();
    let mut spreads: HashMap<u32, Box<[Spread]>> = HashMap::new();
    for &r in &fused {
        let list = extracts[&r]
            .iter()
            .map(|&(k, e)| match bitcasts.get(&e) {
                Some(&(slot, c)) if uses.get(e as usize) == Some(&1) => {
                    folded_casts.push(slot);
                    Spread { k, slot, cast: Some(c) }
                }
                _ => Spread { k, slot: e, cast: None },
            })
            .collect();
        spreads.insert(r, list);
    }
    let mut consts: Vec<Val> = vec![Val::Undef];
    let mut pool: HashMap<u32, u32> = HashMap::new();
    let mut eval = State::bare(m, f, &NOTHING_DECODED);
    let mut resolve = |id: ValueId| -> Src {
        let Some(def) = m.value(Some(f), id) else { return Src::Dyn(id) };
        match def.kind {
            ValueKind::Inst { .. } | ValueKind::Arg(_) => {
                id.0.checked_sub(f.first_local).map_or(Src::Dyn(id), Src::Local)
            }
            ValueKind::Const(_) => {
                if let Some(&i) = pool.get(&id.0) {
                    return Src::Const(i);
                }
                match eval.value(id) {
                    Ok(v) if eval.memory.is_empty() => {
                        consts.push(v);
                        let i = consts.len() as u32 - 1;
                        pool.insert(id.0, i);
                        Src::Const(i)
                    }
                    _ => {
                        eval.memory.clear();
                        eval.globals.clear();
                        Src::Dyn(id)
                    }
                }
            }
            _ => Src::Dyn(id),
        }
    };
    let mut blocks = Vec::with_capacity(f.blocks.len());
    for b in &f.blocks {
        let mut db = DBlock { phis: Vec::new(), first: 0, insts: Vec::with_capacity(b.insts.len()) };
        let mut leading = true;
        for (i, inst) in b.insts.iter().enumerate() {
            let dst = inst.result.map(|id| id.0.checked_sub(f.first_local).unwrap_or(u32::MAX));
            if let (true, InstKind::Phi { incoming }) = (leading, &inst.kind) {
                db.phis.push(DPhi { dst, incoming: incoming.iter().map(|(v, from)| (*from, resolve(*v))).collect() });
                db.first = i + 1;
                db.insts.push(DInst { op: Op::Other, dst, sync: true });
                continue;
            }
            leading = false;
            let op = match &inst.kind {
                InstKind::Ret { .. } => Op::Ret,
                InstKind::Br { target } => Op::Br(*target),
                InstKind::CondBr { cond, then, otherwise } => {
                    Op::CondBr { cond: resolve(*cond), then: *then, otherwise: *otherwise }
                }
                InstKind::Switch { cond, default, cases } => Op::Switch {
                    cond: resolve(*cond),
                    default: *default,
                    cases: cases.iter().map(|(v, t)| (resolve(*v), *t)).collect(),
                },
                InstKind::Unreachable => Op::Unreachable,
                InstKind::Binary { op, lhs, rhs, .. } => Op::Binary {
                    op: *op,
                    a: resolve(*lhs),
                    b: resolve(*rhs),
                    w: int_bits(m, inst.ty),
                    double: matches!(m.types.get(inst.ty), Some(Type::Double)),
                },
                InstKind::Cast { .. } if dst.is_some_and(|d| folded_casts.contains(&d)) => Op::Nop,
                InstKind::Cast { op, value } => {
                    let from = m.value(Some(f), *value).map_or(inst.ty, |d| d.ty);
                    Op::Cast { op: *op, v: resolve(*value), c: cast_facts(m, from, inst.ty) }
                }
                InstKind::Cmp { pred, lhs, rhs } => {
                    let from = m.value(Some(f), *lhs).map_or(inst.ty, |d| d.ty);
                    Op::Cmp { pred: *pred, a: resolve(*lhs), b: resolve(*rhs), w: int_bits(m, from) }
                }
                InstKind::Select { cond, then, otherwise } => {
                    Op::Select { cond: resolve(*cond), then: resolve(*then), otherwise: resolve(*otherwise) }
                }
                InstKind::ExtractValue { agg, indices } if indices.len() == 1 => {
                    if local(*agg).is_some_and(|a| fused.contains(&a)) {
                        Op::Nop
                    } else {
                        Op::Extract { agg: resolve(*agg), index: indices[0] }
                    }
                }
                kind @ InstKind::Call { .. } => match m.dx_op(f, kind) {
                    Some(op) => {
                        let args = op
                            .args
                            .iter()
                            .map(|a| match a {
                                Operand::Value(v) => resolve(*v),
                                Operand::Metadata(_) => Src::Const(0),
                            })
                            .collect();
                        let args: Box<[Src]> = args;
                        let spread = dst.and_then(|r| spreads.get(&r)).cloned();
                        // The commonest operations, with constant operands, skip the generic path.
                        let imm = |k: usize| match op.args.get(k) {
                            Some(Operand::Value(v)) => m.const_int(Some(f), *v).map(|c| c as u64),
                            _ => None,
                        };
                        match (op.opcode, imm(0), imm(1), imm(2), args.get(3)) {
                            (4, Some(sig), Some(row), Some(col), Some(&vertex)) if args.len() == 4 => {
                                Op::LoadInput { sig: sig as u32, row: row as u32, col: col as u8, vertex }
                            }
                            (5, Some(sig), Some(row), Some(col), Some(&value)) if args.len() == 4 => {
                                Op::StoreOutput { sig: sig as u32, row: row as u32, col: col as u8, value }
                            }
                            (57, Some(class), Some(range), Some(index), _) if args.len() <= 4 => {
                                Op::CreateHandle { class: class as u8, range: range as u32, index: index as u32 }
                            }
                            _ => Op::Call { opcode: op.opcode, args, ty: inst.ty, facts: facts(m, inst.ty), spread },
                        }
                    }
                    None => Op::Other,
                },
                _ => Op::Other,
            };
            let sync = match &op {
                Op::Binary { .. }
                | Op::Cast { .. }
                | Op::Cmp { .. }
                | Op::Select { .. }
                | Op::Extract { .. }
                | Op::LoadInput { .. }
                | Op::StoreOutput { .. }
                | Op::CreateHandle { .. }
                | Op::Nop => false,
                Op::Call { opcode, .. } => !lane_local(*opcode),
                _ => true,
            };
            db.insts.push(DInst { op, dst, sync });
        }
        blocks.push(db);
    }
    Decoded { consts, blocks }
}

/// Runs `func` for a 2x2 quad of pixel-shader invocations: lane 0 at (x, y), 1 at (x + 1, y),
/// 2 at (x, y + 1), 3 at (x + 1, y + 1). Helper lanes run as well (their [`Env`] drops their
/// outputs): derivative operations and implicit-LOD sampling read the other lanes' values while
/// the quad runs the same instruction. Once lanes branch apart, each finishes on its own and its
/// derivatives are 0; D3D leaves derivatives in divergent control flow undefined.
pub fn run_quad_legacy(module: &Module, func: &Function, envs: [&mut dyn Env; 4]) -> R<()> {
    if func.declaration || func.blocks.is_empty() {
        return bad(format!("{} has no body", func.name));
    }
    let mut lanes =
        [State::new(module, func), State::new(module, func), State::new(module, func), State::new(module, func)];
    let mut done = [false; 4];
    loop {
        for (l, d) in lanes.iter_mut().zip(&done) {
            if !d {
                l.enter()?;
            }
        }
        let mut live = [0usize; 4];
        let mut n = 0;
        for i in (0..4).filter(|i| !done[*i]) {
            live[n] = i;
            n += 1;
        }
        let live = &live[..n];
        let Some(&first) = live.first() else { return Ok(()) };
        let at = (lanes[first].at.block, lanes[first].at.index);
        if live.iter().any(|&i| (lanes[i].at.block, lanes[i].at.index) != at) {
            break;
        }
        let inst = lanes[first].current()?;
        if !inst.sync {
            // A run of lane-local instructions up to the next synchronising one: each lane runs
            // it alone, as no lane can observe another's order there. The error reported is the
            // first in (instruction, lane) order, as when the lanes step together.
            let mut err: Option<(usize, ExecError)> = None;
            for &i in live {
                let lane = &mut lanes[i];
                let r = match lane.run_local(&mut *envs[i]) {
                    // Past the block's end: the error of stepping there.
                    Ok(()) => lane.current().map(|_| ()),
                    Err(e) => Err(e),
                };
                if let Err(e) = r {
                    if err.as_ref().is_none_or(|(j, _)| lane.at.index < *j) {
                        err = Some((lane.at.index, e));
                    }
                }
            }
            if let Some((_, e)) = err {
                return Err(e);
            }
            continue;
        }
        if let (Op::Call { opcode, args, .. }, 4) = (&inst.op, live.len()) {
            // Operands whose derivatives the operation needs (indices after the opcode): the
            // value of a derivative operation, the u, v, w of an implicit-LOD sample.
            let operands: &[usize] = match opcode {
                83..=86 => &[0],
                60 | 61 | 64 | 81 => &[2, 3, 4],
                _ => &[],
            };
            if !operands.is_empty() {
                let mut per_lane = [[[0.0f32; 4]; 3]; 4];
                for (j, &k) in operands.iter().enumerate() {
                    let mut v = [0.0f32; 4];
                    for (i, lane) in lanes.iter_mut().enumerate() {
                        v[i] = match args.get(k) {
                            Some(s) => lane.with(*s, Val::f32)?,
                            None => 0.0,
                        };
                    }
                    let (cx, cy) = (v[1] - v[0], v[2] - v[0]);
                    for (i, out) in per_lane.iter_mut().enumerate() {
                        let fx = if i < 2 { v[1] - v[0] } else { v[3] - v[2] };
                        let fy = if i % 2 == 0 { v[2] - v[0] } else { v[3] - v[1] };
                        out[j] = [cx, cy, fx, fy];
                    }
                }
                for (lane, d) in lanes.iter_mut().zip(per_lane) {
                    lane.derivs = Some(d);
                }
            }
        }
        for &i in live {
            done[i] = lanes[i].step(&mut *envs[i])?;
            lanes[i].derivs = None;
        }
    }
    for i in 0..4 {
        if !done[i] {
            lanes[i].run(&mut *envs[i])?;
        }
    }
    Ok(())
}

/// Runs `func` for every thread of one compute thread group (`envs[i]` is thread i), with
/// groupshared memory common to them. Threads run one after another up to the next barrier
/// with the SyncThreadGroup flag (or their end); then the next round starts, so no thread
/// passes a barrier before every thread that will reach it has.
pub fn run_group_legacy(module: &Module, func: &Function, envs: &mut [&mut dyn Env]) -> R<()> {
    if func.declaration || func.blocks.is_empty() {
        return bad(format!("{} has no body", func.name));
    }
    let shared = Rc::new(RefCell::new(Shared::default()));
    let mut lanes: Vec<State<'_>> = envs
        .iter()
        .map(|_| {
            let mut s = State::new(module, func);
            s.shared = Some(shared.clone());
            s
        })
        .collect();
    let mut done = vec![false; envs.len()];
    while done.iter().any(|d| !d) {
        for (i, env) in envs.iter_mut().enumerate() {
            if done[i] {
                continue;
            }
            let lane = &mut lanes[i];
            loop {
                if lane.step(&mut **env)? {
                    done[i] = true;
                    break;
                }
                if lane.at_barrier {
                    lane.at_barrier = false;
                    break;
                }
            }
        }
    }
    Ok(())
}

/// Where an invocation is: block, the block it came from (for phis), instruction index, and
/// whether the block's phis have been read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cursor {
    block: usize,
    prev: Option<usize>,
    index: usize,
    entered: bool,
}

struct State<'m> {
    m: &'m Module,
    f: &'m Function,
    d: &'m Decoded,
    at: Cursor,
    steps: u64,
    /// `steps` when the deadline was last looked at.
    deadline_checked: u64,
    /// Derivatives of the operands of the instruction being run, supplied by the quad runner
    /// (`None` for an invocation running alone, whose derivatives are 0).
    /// Per operand: coarse d/dx, coarse d/dy, fine d/dx, fine d/dy.
    derivs: Option<[[f32; 4]; 3]>,
    locals: Vec<Option<Val>>,
    /// Invocation memory: one scalar array per `alloca` and per global variable used.
    memory: Vec<Vec<Val>>,
    /// Global variable index → its allocation.
    globals: Vec<(usize, usize)>,
    /// The thread group's shared memory (compute shaders run by [`run_group`]).
    shared: Option<Rc<RefCell<Shared>>>,
    /// Set when the invocation reached a barrier that synchronises the group.
    at_barrier: bool,
    /// A dx.op call's argument values (kept to reuse its allocation).
    scratch: Vec<Val>,
    /// A block's phi values, read before any is written (kept to reuse its allocation).
    phi_values: Vec<(Option<u32>, Val)>,
    /// The elements of the last dx.op with a struct result.
    lane_out: Vec<Val>,
}

thread_local! {
    /// Local-slot vectors of finished invocations, kept for the next ones: a draw runs many
    /// small invocations, and allocating each one's slots showed in profiles.
    static LOCALS_POOL: RefCell<Vec<Vec<Option<Val>>>> = const { RefCell::new(Vec::new()) };
}

/// `n` unset local slots, in a vector from [`LOCALS_POOL`] when one is there.
fn fresh_locals(n: usize) -> Vec<Option<Val>> {
    // try_with: a shader may run from a thread-local destructor, after the pool is gone.
    let mut v = LOCALS_POOL.try_with(|p| p.borrow_mut().pop()).ok().flatten().unwrap_or_default();
    if v.len() != n {
        v.clear();
        v.resize(n, None);
    }
    v
}

impl Drop for State<'_> {
    fn drop(&mut self) {
        let mut v = std::mem::take(&mut self.locals);
        // Returned unset, at its length: the next invocation of the function takes it as is.
        v.fill(None);
        let _ = LOCALS_POOL.try_with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < 64 {
                p.push(v);
            }
        });
    }
}

/// Groupshared memory: the allocations of the `addrspace(3)` globals, made on first use by any
/// thread of the group. Pointers into it carry allocation numbers from [`SHARED`].
#[derive(Default)]
struct Shared {
    memory: Vec<Vec<Val>>,
    globals: Vec<(usize, usize)>,
}

/// Allocation numbers at or above this one address the group's shared memory.
const SHARED: usize = 1 << 40;

impl<'m> State<'m> {
    fn new(m: &'m Module, f: &'m Function) -> Self {
        State::bare(m, f, f.exec_cache.0.get_or_init(|| decode(m, f)))
    }

    fn bare(m: &'m Module, f: &'m Function, d: &'m Decoded) -> Self {
        State {
            m,
            f,
            d,
            at: Cursor { block: 0, prev: None, index: 0, entered: false },
            steps: 0,
            deadline_checked: 0,
            derivs: None,
            locals: fresh_locals(f.values.len()),
            memory: Vec::new(),
            globals: Vec::new(),
            shared: None,
            at_barrier: false,
            scratch: Vec::new(),
            phi_values: Vec::new(),
            lane_out: Vec::new(),
        }
    }

    /// Runs `g` on the value of an operand.
    #[inline(always)]
    fn with<T>(&mut self, s: Src, g: impl FnOnce(&Val) -> T) -> R<T> {
        match s {
            Src::Local(i) => match self.locals.get(i as usize) {
                Some(Some(v)) => Ok(g(v)),
                _ => bad(format!("%{} read before it is set", i + self.f.first_local)),
            },
            Src::Const(i) => self.d.consts.get(i as usize).map_or_else(|| bad(format!("constant {i}")), |v| Ok(g(v))),
            Src::Dyn(id) => Ok(g(&self.value(id)?)),
        }
    }

    /// The value of an operand that is a set local or a constant (`None` otherwise: the caller
    /// takes the slow path through [`State::read`], which evaluates or reports it).
    #[inline(always)]
    fn get(&self, s: Src) -> Option<&Val> {
        match s {
            Src::Local(i) => self.locals.get(i as usize)?.as_ref(),
            Src::Const(i) => self.d.consts.get(i as usize),
            Src::Dyn(_) => None,
        }
    }

    #[inline(always)]
    fn read(&mut self, s: Src) -> R<Val> {
        self.with(s, Val::clone)
    }

    #[inline(always)]
    fn put(&mut self, dst: Option<u32>, v: Val) -> R<()> {
        if let Some(i) = dst {
            let slot = self.locals.get_mut(i as usize).ok_or_else(|| ExecError::Malformed("result id".into()))?;
            // Each scalar variant assigned on its own, so that, inlined where the value is made,
            // it is written in place: a Val built on the stack and copied into the slot costs a
            // stalled load (the copy reads in one piece what was written in several).
            match v {
                Val::Int(x) => *slot = Some(Val::Int(x)),
                Val::F32(x) => *slot = Some(Val::F32(x)),
                Val::F64(x) => *slot = Some(Val::F64(x)),
                Val::Handle(h) => *slot = Some(Val::Handle(h)),
                other => *slot = Some(other),
            }
        }
        Ok(())
    }

    /// Runs `f` on the cells of allocation `a` (private or shared).
    fn with_cells<T>(&mut self, a: usize, f: impl FnOnce(&mut Vec<Val>) -> R<T>) -> R<T> {
        if a >= SHARED {
            let sh = self.shared.as_ref().ok_or_else(|| ExecError::Malformed("groupshared pointer".into()))?;
            let mut sh = sh.borrow_mut();
            let cells = sh.memory.get_mut(a - SHARED).ok_or_else(|| ExecError::Malformed("allocation".into()))?;
            return f(cells);
        }
        let cells = self.memory.get_mut(a).ok_or_else(|| ExecError::Malformed("allocation".into()))?;
        f(cells)
    }

    fn ty(&self, id: TypeId) -> R<&'m Type> {
        self.m.types.get(id).map_or_else(|| bad(format!("type {}", id.0)), Ok)
    }

    /// The number of scalars a type occupies in invocation memory.
    fn scalars(&self, id: TypeId) -> R<usize> {
        Ok(match self.ty(id)? {
            Type::Struct { elems, .. } => {
                let mut n = 0;
                for e in elems {
                    n += self.scalars(*e)?;
                }
                n
            }
            Type::Array { len, elem } => (*len as usize).saturating_mul(self.scalars(*elem)?),
            Type::Vector { len, elem } => (*len as usize).saturating_mul(self.scalars(*elem)?),
            _ => 1,
        })
    }

    fn int_bits(&self, id: TypeId) -> u32 {
        match self.m.types.get(id) {
            Some(Type::Int(w)) => *w,
            _ => 64,
        }
    }

    fn value(&mut self, id: ValueId) -> R<Val> {
        let def = self.m.value(Some(self.f), id).ok_or_else(|| ExecError::Malformed(format!("value {}", id.0)))?;
        match &def.kind {
            ValueKind::Inst { .. } | ValueKind::Arg(_) => {
                let i = (id.0 - self.f.first_local) as usize;
                self.locals
                    .get(i)
                    .cloned()
                    .flatten()
                    .map_or_else(|| bad(format!("%{} read before it is set", id.0)), Ok)
            }
            ValueKind::Const(c) => self.constant(c, def.ty),
            ValueKind::Global(g) => {
                let g = *g;
                Ok(Val::Ptr(self.global(g)?, 0))
            }
            ValueKind::Function(_) => Ok(Val::Undef),
        }
    }

    fn constant(&mut self, c: &Const, ty: TypeId) -> R<Val> {
        let t = self.ty(ty)?;
        Ok(match c {
            Const::Undef => Val::Undef,
            Const::Null => self.zero(ty)?,
            Const::Int(i) => Val::Int(mask(*i as u64, self.int_bits(ty))),
            Const::Float(bits) => match t {
                Type::Double => Val::F64(f64::from_bits(*bits)),
                Type::Half => Val::F32(half_to_f32(*bits as u16)),
                _ => Val::F32(f32::from_bits(*bits as u32)),
            },
            Const::Aggregate(ids) => {
                let mut v = Vec::with_capacity(ids.len());
                for id in ids {
                    v.push(self.value(*id)?);
                }
                Val::Agg(v)
            }
            Const::Data(words) => {
                let elem = self.m.types.element(ty, 0).ok_or_else(|| ExecError::Malformed("data constant".into()))?;
                let v = words
                    .iter()
                    .map(|w| match self.m.types.get(elem) {
                        Some(Type::Float) => Val::F32(f32::from_bits(*w as u32)),
                        Some(Type::Double) => Val::F64(f64::from_bits(*w)),
                        Some(Type::Half) => Val::F32(half_to_f32(*w as u16)),
                        _ => Val::Int(*w),
                    })
                    .collect();
                Val::Agg(v)
            }
            Const::String(b) => Val::Agg(b.iter().map(|c| Val::Int(u64::from(*c))).collect()),
            Const::Cast { op, value } => {
                let v = self.value(*value)?;
                let from = self.m.value(Some(self.f), *value).map(|d| d.ty).unwrap_or(ty);
                self.cast(*op, &v, from, ty)?
            }
            Const::Binary { op, lhs, rhs } => {
                let (a, b) = (self.value(*lhs)?, self.value(*rhs)?);
                self.binary(*op, &a, &b, ty)?
            }
            // A constant getelementptr is evaluated as the instruction is: DXC writes one for
            // every constant index into a global (`static` arrays, groupshared memory).
            Const::Gep { source_ty, ops, .. } => {
                let (base, rest) =
                    ops.split_first().ok_or_else(|| ExecError::Malformed("GEP without a base".into()))?;
                let base = self.value(*base)?;
                let mut idx = Vec::with_capacity(rest.len());
                for i in rest {
                    idx.push(self.value(*i)?.int() as i64);
                }
                self.gep(&base, *source_ty, &idx)?
            }
            Const::Cmp { pred, lhs, rhs } => {
                let (a, b) = (self.value(*lhs)?, self.value(*rhs)?);
                let from = self.m.value(Some(self.f), *lhs).map_or(ty, |d| d.ty);
                Val::Int(u64::from(compare(*pred, &a, &b, self.int_bits(from))?))
            }
            Const::Select { cond, then, otherwise } => {
                let c = self.value(*cond)?.int() & 1 != 0;
                self.value(if c { *then } else { *otherwise })?
            }
        })
    }

    /// `getelementptr` from `base` (a pointer to `source_ty`) by `indices`: the first steps
    /// over whole `source_ty`s, the others into its structs, arrays and vectors.
    fn gep(&mut self, base: &Val, source_ty: TypeId, indices: &[i64]) -> R<Val> {
        let Val::Ptr(a, mut at) = *base else { return bad("getelementptr on a non-pointer") };
        let mut t = source_ty;
        for (k, &i) in indices.iter().enumerate() {
            if k == 0 {
                at = offset(at, i, self.scalars(t)?)?;
                continue;
            }
            match self.ty(t)? {
                Type::Struct { elems, .. } => {
                    for e in elems.iter().take(i as usize) {
                        at += self.scalars(*e)?;
                    }
                    t = *elems.get(i as usize).ok_or_else(|| ExecError::Malformed("struct index".into()))?;
                }
                Type::Array { elem, .. } | Type::Vector { elem, .. } => {
                    let elem = *elem;
                    at = offset(at, i, self.scalars(elem)?)?;
                    t = elem;
                }
                _ => return bad("getelementptr into a scalar"),
            }
        }
        Ok(Val::Ptr(a, at))
    }

    fn zero(&self, ty: TypeId) -> R<Val> {
        Ok(match self.ty(ty)? {
            Type::Float | Type::Half => Val::F32(0.0),
            Type::Double => Val::F64(0.0),
            Type::Struct { elems, .. } => Val::Agg(elems.iter().map(|e| self.zero(*e)).collect::<R<_>>()?),
            Type::Array { len, elem } => Val::Agg(vec![self.zero(*elem)?; *len as usize]),
            Type::Vector { len, elem } => Val::Agg(vec![self.zero(*elem)?; *len as usize]),
            _ => Val::Int(0),
        })
    }

    /// The allocation of global variable `g`, made (and initialised) on first use.
    fn global(&mut self, g: usize) -> R<usize> {
        if let Some((_, a)) = self.globals.iter().find(|(i, _)| *i == g) {
            return Ok(*a);
        }
        let gl = self.m.globals.get(g).ok_or_else(|| ExecError::Malformed("global".into()))?.clone();
        if gl.addr_space == 3 {
            if let Some(sh) = self.shared.clone() {
                if let Some((_, a)) = sh.borrow().globals.iter().find(|(i, _)| *i == g) {
                    return Ok(SHARED + *a);
                }
                // Groupshared memory starts undefined (zero here, as most hardware shows it).
                let n = self.scalars(gl.value_ty)?;
                if n > 1 << 24 {
                    return Err(ExecError::Unsupported("groupshared above 16M scalars".into()));
                }
                let mut cells = Vec::with_capacity(n);
                flatten(&self.zero(gl.value_ty)?, &mut cells);
                cells.resize(n, Val::Int(0));
                let mut b = sh.borrow_mut();
                b.memory.push(cells);
                let a = b.memory.len() - 1;
                b.globals.push((g, a));
                return Ok(SHARED + a);
            }
        }
        let n = self.scalars(gl.value_ty)?;
        let mut cells = vec![Val::Undef; n];
        if let Some(init) = gl.init {
            let v = self.value(init)?;
            let mut flat = Vec::new();
            flatten(&v, &mut flat);
            for (c, v) in cells.iter_mut().zip(flat) {
                *c = v;
            }
        }
        self.memory.push(cells);
        let a = self.memory.len() - 1;
        self.globals.push((g, a));
        Ok(a)
    }

    fn set(&mut self, id: Option<ValueId>, v: Val) -> R<()> {
        if let Some(id) = id {
            let i =
                id.0.checked_sub(self.f.first_local).ok_or_else(|| ExecError::Malformed("result id".into()))? as usize;
            *self.locals.get_mut(i).ok_or_else(|| ExecError::Malformed("result id".into()))? = Some(v);
        }
        Ok(())
    }

    fn run(&mut self, env: &mut dyn Env) -> R<()> {
        loop {
            self.run_local(env)?;
            if self.step(env)? {
                return Ok(());
            }
        }
    }

    /// Runs the instructions from the cursor up to the next one that synchronises a quad (see
    /// [`DInst::sync`]), which is left to [`State::step`]: none of them branches, so this is
    /// `step` without its per-instruction lookups.
    fn run_local(&mut self, env: &mut dyn Env) -> R<()> {
        self.enter()?;
        let d = self.d;
        let Some(b) = d.blocks.get(self.at.block) else { return Ok(()) };
        while let Some(inst) = b.insts.get(self.at.index) {
            if inst.sync {
                break;
            }
            self.steps += 1;
            if self.steps > STEP_BUDGET {
                return Err(ExecError::StepBudget);
            }
            if !matches!(inst.op, Op::Nop) {
                self.run_op(&inst.op, inst.dst, env)?;
            }
            self.at.index += 1;
        }
        Ok(())
    }

    /// The instruction at the cursor (after the block's phis).
    fn current(&self) -> R<&'m DInst> {
        self.d
            .blocks
            .get(self.at.block)
            .and_then(|b| b.insts.get(self.at.index))
            .map_or_else(|| bad("block without a terminator"), Ok)
    }

    /// Enters the cursor's block if it has not been entered: its phis read their incoming
    /// values together, before any of them is written.
    #[inline(always)]
    fn enter(&mut self) -> R<()> {
        if self.at.entered {
            return Ok(());
        }
        self.enter_block()
    }

    fn enter_block(&mut self) -> R<()> {
        let d = self.d;
        let b = d.blocks.get(self.at.block).ok_or_else(|| ExecError::Malformed(format!("block {}", self.at.block)))?;
        if b.phis.is_empty() {
            self.at.index = b.first;
            self.at.entered = true;
            return Ok(());
        }
        let mut phis = std::mem::take(&mut self.phi_values);
        phis.clear();
        let r = self.read_phis(b, &mut phis);
        for (dst, v) in phis.drain(..) {
            if r.is_ok() {
                self.put(dst, v)?;
            }
        }
        self.phi_values = phis;
        r?;
        self.at.index = b.first;
        self.at.entered = true;
        Ok(())
    }

    fn read_phis(&mut self, b: &'m DBlock, out: &mut Vec<(Option<u32>, Val)>) -> R<()> {
        for phi in &b.phis {
            let p = self.at.prev.ok_or_else(|| ExecError::Malformed("phi in the entry block".into()))?;
            let (_, v) = phi
                .incoming
                .iter()
                .find(|(from, _)| *from as usize == p)
                .ok_or_else(|| ExecError::Malformed("phi without the predecessor".into()))?;
            out.push((phi.dst, self.read(*v)?));
        }
        Ok(())
    }

    /// Runs one instruction; `true` once the function has returned.
    fn step(&mut self, env: &mut dyn Env) -> R<bool> {
        self.enter()?;
        self.steps += 1;
        if self.steps > STEP_BUDGET {
            return Err(ExecError::StepBudget);
        }
        // Branches and synchronising instructions come here; the lane-local runs between them
        // ([`State::run_local`]) do not branch, so every loop passes through: the deadline is
        // looked at here, every [`DEADLINE_EVERY`] steps.
        if self.steps - self.deadline_checked >= DEADLINE_EVERY {
            self.deadline_checked = self.steps;
            if deadline_passed() {
                return Err(ExecError::Timeout);
            }
        }
        let inst = self.current()?;
        let next = match &inst.op {
            Op::Ret => return Ok(true),
            Op::Br(target) => Some(*target as usize),
            Op::CondBr { cond, then, otherwise } => {
                Some(if self.with(*cond, Val::int)? & 1 != 0 { *then } else { *otherwise } as usize)
            }
            Op::Switch { cond, default, cases } => {
                let c = self.with(*cond, Val::int)?;
                let mut to = *default;
                for (v, target) in cases.iter() {
                    if self.with(*v, Val::int)? == c {
                        to = *target;
                        break;
                    }
                }
                Some(to as usize)
            }
            Op::Unreachable => return bad("reached `unreachable`"),
            Op::Other => {
                let orig = self
                    .f
                    .blocks
                    .get(self.at.block)
                    .and_then(|b| b.insts.get(self.at.index))
                    .ok_or_else(|| ExecError::Malformed("block without a terminator".into()))?;
                if let Some(v) = self.exec(&orig.kind, orig.ty)? {
                    self.set(orig.result, v)?;
                }
                None
            }
            op => {
                self.run_op(op, inst.dst, env)?;
                None
            }
        };
        match next {
            Some(n) => self.at = Cursor { block: n, prev: Some(self.at.block), index: 0, entered: false },
            None => self.at.index += 1,
        }
        Ok(false)
    }

    /// Runs a decoded instruction that is not a terminator.
    /// Runs a dx.op through [`run_dx_op`] (kept out of [`State::run_op`], whose frame it would
    /// make large for every instruction).
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn run_call(
        &mut self,
        opcode: u32,
        srcs: &'m [Src],
        ty: TypeId,
        facts: Facts,
        spread: Option<&'m [Spread]>,
        dst: Option<u32>,
        env: &mut dyn Env,
    ) -> R<()> {
        let v = {
            // Arguments are read in place; only a global among them is evaluated first.
            let mut owned = false;
            for s in srcs.iter() {
                match *s {
                    Src::Local(j) if !matches!(self.locals.get(j as usize), Some(Some(_))) => {
                        return bad(format!("%{} read before it is set", j + self.f.first_local));
                    }
                    Src::Dyn(_) => owned = true,
                    _ => {}
                }
            }
            if owned {
                let mut vals = std::mem::take(&mut self.scratch);
                vals.clear();
                for s in srcs.iter() {
                    match self.read(*s) {
                        Ok(v) => vals.push(v),
                        Err(e) => {
                            self.scratch = vals;
                            return Err(e);
                        }
                    }
                }
                self.scratch = vals;
            }
            let mut cx =
                OpCx { m: self.m, out: &mut self.lane_out, derivs: self.derivs, grouped: self.shared.is_some() };
            let args =
                Args { srcs, locals: &self.locals, consts: &self.d.consts, owned: owned.then_some(&self.scratch[..]) };
            let r = run_dx_op(&mut cx, opcode, args, ty, facts, env);
            match (r?, spread) {
                (Out::None, _) => return Ok(()),
                (Out::Barrier, _) => {
                    self.at_barrier = true;
                    return Ok(());
                }
                (Out::One(v), None) => v,
                (Out::Lanes(n), None) => Val::Agg(self.lane_out[..n].to_vec()),
                (Out::One(Val::Agg(e)), Some(sp)) => {
                    for s in sp.iter() {
                        let v = e.get(s.k as usize).cloned();
                        let v = v.ok_or_else(|| ExecError::Malformed("extractvalue out of range".into()))?;
                        self.put_spread(s, v)?;
                    }
                    return Ok(());
                }
                (Out::Words { w, float, n }, None) => {
                    Val::Agg((0..n).filter_map(|k| Out::word(&w, float, n, k)).collect())
                }
                (Out::Words { w, float, n }, Some(sp)) => {
                    for sp in sp.iter() {
                        let k = sp.k;
                        if sp.cast.is_some() {
                            let v = Out::word(&w, float, n, k as usize);
                            let v = v.ok_or_else(|| ExecError::Malformed("extractvalue out of range".into()))?;
                            self.put_spread(sp, v)?;
                            continue;
                        }
                        let s = self
                            .locals
                            .get_mut(sp.slot as usize)
                            .ok_or_else(|| ExecError::Malformed("result id".into()))?;
                        // Each variant assigned on its own, so that it is written in place: a
                        // Val built on the stack and copied costs a stalled load.
                        match (w.get(k as usize), float) {
                            (Some(x), true) => *s = Some(Val::F32(f32::from_bits(*x))),
                            (Some(x), false) => *s = Some(Val::Int(u64::from(*x))),
                            (None, _) if k == 4 && n == 5 => *s = Some(Val::Int(1)),
                            (None, _) => return bad("extractvalue out of range"),
                        }
                    }
                    return Ok(());
                }
                (Out::Lanes(n), Some(sp)) => {
                    for s in sp.iter() {
                        let v = self.lane_out.get(s.k as usize).filter(|_| (s.k as usize) < n).cloned();
                        let v = v.ok_or_else(|| ExecError::Malformed("extractvalue out of range".into()))?;
                        self.put_spread(s, v)?;
                    }
                    return Ok(());
                }
                (Out::One(_), Some(_)) => return bad("extractvalue out of range"),
            }
        };
        self.put(dst, v)
    }

    /// Writes element `v` of a fused call's result where [`Spread`] says.
    #[inline(always)]
    fn put_spread(&mut self, s: &Spread, v: Val) -> R<()> {
        match s.cast {
            Some(c) => {
                let v = cast(CastOp::BitCast, &v, c)?;
                self.put(Some(s.slot), v)
            }
            None => self.put(Some(s.slot), v),
        }
    }

    fn run_op(&mut self, op: &'m Op, dst: Option<u32>, env: &mut dyn Env) -> R<()> {
        let v = match op {
            // Each arm stores its result itself: built in registers and written in place, it is
            // not copied through the stack, which costs a stalled load per instruction.
            Op::Binary { op, a, b, w, double } => {
                let v = match (self.get(*a), self.get(*b)) {
                    (Some(x), Some(y)) => binary(*op, x, y, *w, *double)?,
                    _ => {
                        let (a, b) = (self.read(*a)?, self.read(*b)?);
                        binary(*op, &a, &b, *w, *double)?
                    }
                };
                return self.put(dst, v);
            }
            Op::Cast { op, v, c } => {
                let v = match self.get(*v) {
                    Some(x) => cast(*op, x, *c)?,
                    None => {
                        let v = self.read(*v)?;
                        cast(*op, &v, *c)?
                    }
                };
                return self.put(dst, v);
            }
            Op::Cmp { pred, a, b, w } => {
                let r = match (self.get(*a), self.get(*b)) {
                    (Some(x), Some(y)) => compare(*pred, x, y, *w)?,
                    _ => {
                        let (a, b) = (self.read(*a)?, self.read(*b)?);
                        compare(*pred, &a, &b, *w)?
                    }
                };
                return self.put(dst, Val::Int(u64::from(r)));
            }
            Op::Select { cond, then, otherwise } => {
                let c = if self.with(*cond, Val::int)? & 1 != 0 { *then } else { *otherwise };
                self.read(c)?
            }
            Op::Extract { agg, index } => self
                .with(*agg, |v| match v {
                    Val::Agg(e) => e.get(*index as usize).cloned(),
                    _ => None,
                })?
                .ok_or_else(|| ExecError::Malformed("extractvalue out of range".into()))?,
            Op::Call { opcode, args, ty, facts, spread } => {
                return self.run_call(*opcode, args, *ty, *facts, spread.as_deref(), dst, env)
            }
            Op::Nop => return Ok(()),
            Op::LoadInput { sig, row, col, vertex } => {
                let vertex = self.with(*vertex, |v| match v {
                    Val::Int(v) => Some(*v as u32),
                    _ => None,
                })?;
                let v = env.load_input(*sig, *row, *col, vertex)?;
                return self.put(dst, v);
            }
            Op::StoreOutput { sig, row, col, value } => {
                match self.get(*value) {
                    Some(v) => env.store_output(*sig, *row, *col, v)?,
                    None => {
                        let v = self.read(*value)?;
                        env.store_output(*sig, *row, *col, &v)?;
                    }
                }
                return Ok(());
            }
            Op::CreateHandle { class, range, index } => {
                let h = env.create_handle(*class, *range, *index)?;
                return self.put(dst, Val::Handle(h));
            }
            _ => return bad("a terminator run as an operation"),
        };
        self.put(dst, v)
    }

    fn exec(&mut self, kind: &InstKind, ty: TypeId) -> R<Option<Val>> {
        Ok(Some(match kind {
            InstKind::ExtractValue { agg, indices } => {
                let mut v = self.value(*agg)?;
                for i in indices {
                    v = match v {
                        Val::Agg(mut e) if (*i as usize) < e.len() => e.swap_remove(*i as usize),
                        _ => return bad("extractvalue out of range"),
                    };
                }
                v
            }
            InstKind::InsertValue { agg, value, indices } => {
                let mut a = self.value(*agg)?;
                let v = self.value(*value)?;
                let mut slot = &mut a;
                for i in indices {
                    slot = match slot {
                        Val::Agg(e) if (*i as usize) < e.len() => &mut e[*i as usize],
                        _ => return bad("insertvalue out of range"),
                    };
                }
                *slot = v;
                a
            }
            InstKind::ExtractElement { vector, index } => {
                let (v, i) = (self.value(*vector)?, self.value(*index)?.int() as usize);
                match v {
                    Val::Agg(e) => e.get(i).cloned().unwrap_or(Val::Undef),
                    _ => return bad("extractelement on a scalar"),
                }
            }
            InstKind::InsertElement { vector, value, index } => {
                let (mut v, x, i) = (self.value(*vector)?, self.value(*value)?, self.value(*index)?.int() as usize);
                if let Val::Agg(e) = &mut v {
                    if let Some(s) = e.get_mut(i) {
                        *s = x;
                    }
                }
                v
            }
            InstKind::Alloca { allocated, count, .. } => {
                let n = self.scalars(*allocated)?.saturating_mul(self.value(*count)?.int().max(1) as usize);
                if n > 1 << 24 {
                    return Err(ExecError::Unsupported("alloca above 16M scalars".into()));
                }
                self.memory.push(vec![Val::Undef; n]);
                Val::Ptr(self.memory.len() - 1, 0)
            }
            InstKind::Gep { source_ty, base, indices, .. } => {
                let base = self.value(*base)?;
                let mut idx = Vec::with_capacity(indices.len());
                for i in indices {
                    idx.push(self.value(*i)?.int() as i64);
                }
                self.gep(&base, *source_ty, &idx)?
            }
            InstKind::Load { ptr, .. } => {
                let Val::Ptr(a, at) = self.value(*ptr)? else { return bad("load from a non-pointer") };
                let n = self.scalars(ty)?;
                self.with_cells(a, |m| {
                    let cells = m.get(at..at + n).ok_or_else(|| ExecError::Malformed("load out of bounds".into()))?;
                    Ok(if n == 1 { cells[0].clone() } else { Val::Agg(cells.to_vec()) })
                })?
            }
            InstKind::Store { ptr, value, .. } => {
                let Val::Ptr(a, at) = self.value(*ptr)? else { return bad("store to a non-pointer") };
                let v = self.value(*value)?;
                let mut flat = Vec::new();
                flatten(&v, &mut flat);
                self.with_cells(a, |m| {
                    let cells = m
                        .get_mut(at..at + flat.len())
                        .ok_or_else(|| ExecError::Malformed("store out of bounds".into()))?;
                    cells.clone_from_slice(&flat);
                    Ok(())
                })?;
                return Ok(None);
            }
            InstKind::AtomicRmw { op, ptr, value, .. } => {
                let Val::Ptr(a, at) = self.value(*ptr)? else { return bad("atomicrmw on a non-pointer") };
                let v = self.value(*value)?.int();
                let w = self.int_bits(ty);
                let op = *op;
                self.with_cells(a, |m| {
                    let cell = m.get_mut(at).ok_or_else(|| ExecError::Malformed("atomicrmw out of bounds".into()))?;
                    let old = cell.int();
                    let (so, sv) = (sext(old, w), sext(v, w));
                    let new = match op {
                        0 => v,
                        1 => old.wrapping_add(v),
                        2 => old.wrapping_sub(v),
                        3 => old & v,
                        4 => !(old & v),
                        5 => old | v,
                        6 => old ^ v,
                        7 => so.max(sv) as u64,
                        8 => so.min(sv) as u64,
                        9 => old.max(v),
                        10 => old.min(v),
                        _ => return Err(ExecError::Unsupported(format!("atomicrmw operation {op}"))),
                    };
                    *cell = Val::Int(mask(new, w));
                    Ok(Val::Int(mask(old, w)))
                })?
            }
            InstKind::CmpXchg { ptr, cmp, new, pair, .. } => {
                let Val::Ptr(a, at) = self.value(*ptr)? else { return bad("cmpxchg on a non-pointer") };
                let (c, n) = (self.value(*cmp)?.int(), self.value(*new)?.int());
                let pair = *pair;
                self.with_cells(a, |m| {
                    let cell = m.get_mut(at).ok_or_else(|| ExecError::Malformed("cmpxchg out of bounds".into()))?;
                    let old = cell.int();
                    let ok = old == c;
                    if ok {
                        *cell = Val::Int(n);
                    }
                    Ok(if pair { Val::Agg(vec![Val::Int(old), Val::Int(u64::from(ok))]) } else { Val::Int(old) })
                })?
            }
            InstKind::Call { .. } => return Err(ExecError::Unsupported("a call that is not a dx.op".into())),
            InstKind::Fence { .. } => return Ok(None),
            other => return Err(ExecError::Unsupported(format!("{other:?}"))),
        }))
    }

    fn binary(&self, op: BinOp, a: &Val, b: &Val, ty: TypeId) -> R<Val> {
        binary(op, a, b, self.int_bits(ty), matches!(self.m.types.get(ty), Some(Type::Double)))
    }

    fn cast(&self, op: CastOp, v: &Val, from: TypeId, to: TypeId) -> R<Val> {
        cast(op, v, cast_facts(self.m, from, to))
    }
}

/// Whether [`run_dx_op`] implements dx.op `opcode` (some of them only in the stages whose
/// [`Env`] provides them). [`super::support::check`] refuses a module calling any other.
pub fn executes(opcode: u32) -> bool {
    matches!(opcode, 4..=57 | 59..=91 | 93..=108 | 124..=134 | 137..=140)
}

/// The error [`run_dx_op`] gives for an opcode it does not implement. Wave and quad
/// operations, which [`super::support::check`] accepts for the wave interpreter, say so.
fn not_implemented(opcode: u32) -> ExecError {
    let name = opcode_name(opcode).unwrap_or("unknown");
    match crate::interp::wave::WaveOp::from_dx_op(opcode, &[]) {
        Ok(Some(_)) | Err(_) => ExecError::Unsupported(format!(
            "dx.op {opcode} ({name}): wave operations run only on the wave interpreter, not with RD3D12_INTERP=legacy"
        )),
        Ok(None) => ExecError::Unsupported(format!("dx.op {opcode} ({name})")),
    }
}

/// Runs dx.op `opcode` (see [`State::run_op`]).
fn run_dx_op(cx: &mut OpCx<'_>, opcode: u32, args: Args<'_>, ty: TypeId, facts: Facts, env: &mut dyn Env) -> R<Out> {
    let f = |i: usize| args.get(i).map_or(0.0, Val::f32);
    let u = |i: usize| args.get(i).map_or(0, Val::int);
    let is_double = facts.double;
    let float1 = |g: fn(f64) -> f64| -> Val {
        if is_double {
            Val::F64(g(args.first().map_or(0.0, Val::f64)))
        } else {
            Val::F32(g(f64::from(f(0))) as f32)
        }
    };
    let w = facts.w;
    Ok(Out::One(match opcode {
        // LoadInput (sig, row, col, vertex: GS/HS/DS) and AttributeAtVertex (sig, row, col,
        // VertexID: a pixel shader input's value at one of the primitive's vertices).
        4 | 137 => {
            let vertex = match args.get(3) {
                Some(Val::Int(v)) => Some(*v as u32),
                _ => None,
            };
            env.load_input(u(0) as u32, u(1) as u32, u(2) as u8, vertex)?
        }
        5 => {
            env.store_output(u(0) as u32, u(1) as u32, u(2) as u8, args.get(3).unwrap_or(&Val::Undef))?;
            return Ok(Out::None);
        }
        6 => float1(f64::abs),
        7 => float1(|x| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) }),
        8..=11 => {
            let x = f(0);
            Val::Int(u64::from(match opcode {
                8 => x.is_nan(),
                9 => x.is_infinite(),
                10 => x.is_finite(),
                _ => x.is_normal(),
            }))
        }
        12 => float1(f64::cos),
        13 => float1(f64::sin),
        14 => float1(f64::tan),
        15 => float1(f64::acos),
        16 => float1(f64::asin),
        17 => float1(f64::atan),
        18 => float1(f64::cosh),
        19 => float1(f64::sinh),
        20 => float1(f64::tanh),
        21 => float1(f64::exp2),
        22 => float1(|x| x - x.floor()),
        23 => float1(f64::log2),
        24 => float1(f64::sqrt),
        25 => float1(|x| 1.0 / x.sqrt()),
        26 => float1(round_half_even),
        27 => float1(f64::floor),
        28 => float1(f64::ceil),
        29 => float1(f64::trunc),
        30 => Val::Int(mask(u(0).reverse_bits() >> (64 - w), w)),
        31 => Val::Int(u64::from(u(0).count_ones())),
        32 => Val::Int(if u(0) == 0 { u64::from(u32::MAX) } else { u64::from(u(0).trailing_zeros()) }),
        33 => Val::Int(first_bit_hi(u(0), w)),
        34 => {
            let x = sext(u(0), w);
            Val::Int(first_bit_hi(if x < 0 { !x as u64 } else { x as u64 }, w))
        }
        35 | 36 => {
            let (a, b) = (f(0), f(1));
            // D3D min/max: a NaN operand gives the other one.
            Val::F32(if opcode == 35 { a.max(b) } else { a.min(b) })
        }
        37 => Val::Int(mask(sext(u(0), w).max(sext(u(1), w)) as u64, w)),
        38 => Val::Int(mask(sext(u(0), w).min(sext(u(1), w)) as u64, w)),
        39 => Val::Int(u(0).max(u(1))),
        40 => Val::Int(u(0).min(u(1))),
        46 => Val::F32(f(0) * f(1) + f(2)),
        47 => {
            let d = |i: usize| args.get(i).map_or(0.0, Val::f64);
            Val::F64(d(0).mul_add(d(1), d(2)))
        }
        48 | 49 => Val::Int(mask(u(0).wrapping_mul(u(1)).wrapping_add(u(2)), w)),
        54 => Val::F32(f(0) * f(2) + f(1) * f(3)),
        55 => Val::F32(f(0) * f(3) + f(1) * f(4) + f(2) * f(5)),
        56 => Val::F32(f(0) * f(4) + f(1) * f(5) + f(2) * f(6) + f(3) * f(7)),
        57 => Val::Handle(env.create_handle(u(0) as u8, u(1) as u32, u(2) as u32)?),
        59 => {
            let Some(Val::Handle(h)) = args.first() else { return bad("cbufferLoadLegacy without a handle") };
            let row = env.cbuffer_row(*h, u(1) as u32)?;
            return Ok(Out::Words { w: row, float: facts.float_elem, n: 4 });
        }
        60..=65 => {
            let (Some(Val::Handle(t)), Some(Val::Handle(sm))) = (args.first(), args.get(1)) else {
                return bad("sample without handles");
            };
            let coords = [f(2), f(3), f(4), f(5)];
            let off = |i: usize| match args.get(i) {
                Some(Val::Int(v)) => *v as u32 as i32,
                _ => 0,
            };
            let offset = [off(6), off(7), off(8)];
            // The quad's coarse derivatives of u, v, w (zero when running alone).
            let quad = |k: usize| cx.derivs.as_ref().and_then(|d| d.get(k)).map_or((0.0, 0.0), |d| (d[0], d[1]));
            let (qx, qy) = ([quad(0).0, quad(1).0, quad(2).0], [quad(0).1, quad(1).1, quad(2).1]);
            let (mode, compare) = match opcode {
                60 => (SampleMode::Grad { ddx: qx, ddy: qy, bias: 0.0, clamp: f(9) }, None),
                61 => (SampleMode::Grad { ddx: qx, ddy: qy, bias: f(9), clamp: f(10) }, None),
                62 => (SampleMode::Level(f(9)), None),
                63 => (
                    SampleMode::Grad { ddx: [f(9), f(10), f(11)], ddy: [f(12), f(13), f(14)], bias: 0.0, clamp: f(15) },
                    None,
                ),
                64 => (SampleMode::Grad { ddx: qx, ddy: qy, bias: 0.0, clamp: f(10) }, Some(f(9))),
                _ => (SampleMode::Level(0.0), Some(f(9))),
            };
            let c = env.sample(*t, *sm, coords, offset, mode, compare)?;
            // The status word: every texel mapped (CheckAccessFullyMapped is true).
            return Ok(Out::Words { w: c.map(f32::to_bits), float: true, n: 5 });
        }
        // CheckAccessFullyMapped of a status word.
        71 => Val::Int(u64::from(u(0) != 0)),
        // TextureGather (srv, sampler, c0..c3, o0, o1, channel) and TextureGatherCmp (.., compare).
        73 | 74 => {
            let (Some(Val::Handle(t)), Some(Val::Handle(sm))) = (args.first(), args.get(1)) else {
                return bad("gather without handles");
            };
            let off = |i: usize| match args.get(i) {
                Some(Val::Int(v)) => *v as u32 as i32,
                _ => 0,
            };
            let compare = (opcode == 74).then(|| f(9));
            let c = env.gather(*t, *sm, [f(2), f(3), f(4), f(5)], [off(6), off(7)], u(8) as u32, compare)?;
            // Integer results carry the values themselves.
            let float = facts.float_elem;
            let [x, y, z, w] = c.map(|x| if float { Val::F32(x) } else { Val::Int(u64::from(x as i64 as u32)) });
            return Ok(lanes(cx.out, [x, y, z, w, Val::Int(1)]));
        }
        // CalculateLOD (srv, sampler, c0, c1, c2, clamped): derivatives from the quad.
        81 => {
            let (Some(Val::Handle(t)), Some(Val::Handle(sm))) = (args.first(), args.get(1)) else {
                return bad("calculateLOD without handles");
            };
            let quad = |k: usize| cx.derivs.as_ref().and_then(|d| d.get(k)).map_or((0.0, 0.0), |d| (d[0], d[1]));
            let (qx, qy) = ([quad(0).0, quad(1).0, quad(2).0], [quad(0).1, quad(1).1, quad(2).1]);
            Val::F32(env.calculate_lod(*t, *sm, [f(2), f(3), f(4)], qx, qy, u(5) & 1 != 0)?)
        }
        // IMul / UMul: {high, low} words of the full 64-bit product, signed or unsigned, in
        // the order DXBC's imul / umul write destHI, destLO (Microsoft's DXBC-to-DXIL converter
        // extracts element 0 into destHI).
        41 | 42 => {
            let (hi, lo) = mul_hi_lo(u(0) as u32, u(1) as u32, opcode == 41);
            return Ok(lanes(cx.out, [Val::Int(u64::from(hi)), Val::Int(u64::from(lo))]));
        }
        // Msad (reference, source, accumulator): the accumulator plus the absolute
        // differences of the byte pairs whose reference byte is not zero.
        50 => Val::Int(u64::from(msad(u(0) as u32, u(1) as u32, u(2) as u32))),
        // UDiv: {quotient, remainder}; division by zero gives all bits set in both (D3D).
        43 => {
            let (a, b) = (u(0) as u32, u(1) as u32);
            let (q, r) = (a.checked_div(b).unwrap_or(u32::MAX), a.checked_rem(b).unwrap_or(u32::MAX));
            return Ok(lanes(cx.out, [Val::Int(u64::from(q)), Val::Int(u64::from(r))]));
        }
        // UAddc / USubb: {result, carry or borrow}.
        44 => {
            let (r, c) = (u(0) as u32).overflowing_add(u(1) as u32);
            return Ok(lanes(cx.out, [Val::Int(u64::from(r)), Val::Int(u64::from(c))]));
        }
        45 => {
            let (r, c) = (u(0) as u32).overflowing_sub(u(1) as u32);
            return Ok(lanes(cx.out, [Val::Int(u64::from(r)), Val::Int(u64::from(c))]));
        }
        // Ibfe / Ubfe (width, offset, value) and Bfi (width, offset, value, replaced), as
        // DXBC's ibfe / ubfe / bfi.
        51 | 52 => {
            let (width, off, v) = ((u(0) & 31) as u32, (u(1) & 31) as u32, u(2) as u32);
            let r = if width == 0 {
                0
            } else if width + off < 32 {
                let shl = v << (32 - (width + off));
                if opcode == 51 {
                    ((shl as i32) >> (32 - width)) as u32
                } else {
                    shl >> (32 - width)
                }
            } else if opcode == 51 {
                ((v as i32) >> off) as u32
            } else {
                v >> off
            };
            Val::Int(u64::from(r))
        }
        53 => {
            let (width, off) = ((u(0) & 31) as u32, (u(1) & 31) as u32);
            let mask = (((1u64 << width) - 1) << off) as u32;
            Val::Int(u64::from(((u(2) as u32) << off) & mask | (u(3) as u32) & !mask))
        }
        // MakeDouble (lo, hi) and SplitDouble -> {lo, hi}.
        101 => Val::F64(f64::from_bits((u(1) << 32) | (u(0) & 0xFFFF_FFFF))),
        102 => {
            let b = args.first().map_or(0.0, Val::f64).to_bits();
            return Ok(lanes(cx.out, [Val::Int(b & 0xFFFF_FFFF), Val::Int(b >> 32)]));
        }
        // Bitcasts between sizes: the same bits, typed by the result.
        124 | 126 | 128 => match cx.m.types.get(ty).map_or_else(|| bad(format!("type {}", ty.0)), Ok)? {
            Type::Double => Val::F64(f64::from_bits(u(0))),
            Type::Half => Val::F32(half_to_f32(u(0) as u16)),
            _ => Val::F32(f32::from_bits(u(0) as u32)),
        },
        125 => Val::Int(u64::from(f32_to_half(f(0)))),
        127 => Val::Int(u64::from(f(0).to_bits())),
        129 => Val::Int(args.first().map_or(0.0, Val::f64).to_bits()),
        // f32 <-> f16 of f32tof16 / f16tof32: the half in the low 16 bits of an i32.
        130 => Val::Int(u64::from(f32_to_half(f(0)))),
        131 => Val::F32(half_to_f32(u(0) as u16)),
        132 => Val::F32(args.first().map_or(0.0, Val::f64) as f32),
        133 => {
            let d = args.first().map_or(0.0, Val::f64);
            Val::Int(u64::from(if d.is_nan() { 0 } else { d.clamp(i32::MIN as f64, i32::MAX as f64) as i32 as u32 }))
        }
        134 => {
            let d = args.first().map_or(0.0, Val::f64);
            Val::Int(u64::from(if d.is_nan() { 0 } else { d.clamp(0.0, u32::MAX as f64) as u32 }))
        }
        // TextureLoad (handle, mip or sample, c0..c2, o0..o2).
        66 => {
            let h = handle(args, 0)?;
            let i = |k: usize| u(k) as u32 as i32;
            let r = env.texture_load(h, u(1) as u32, [i(2), i(3), i(4)], [i(5), i(6), i(7)])?;
            return Ok(Out::Words { w: r, float: facts.float_elem, n: 5 });
        }
        // TextureStore (handle, c0..c2, v0..v3, mask).
        67 => {
            let h = handle(args, 0)?;
            let i = |k: usize| u(k) as u32 as i32;
            // textureStore(handle, c0, c1, c2, v0, v1, v2, v3, mask).
            let v = [4, 5, 6, 7].map(|k| args.get(k).map_or(0, lane_bits));
            env.texture_store(h, [i(1), i(2), i(3)], v, u(8) as u8)?;
            return Ok(Out::None);
        }
        // BufferLoad (handle, c0, c1) and RawBufferLoad (handle, c0, c1, mask, alignment).
        68 | 139 => {
            let h = handle(args, 0)?;
            let c1 = match args.get(2) {
                Some(Val::Int(v)) => *v as u32,
                _ => 0,
            };
            let r = env.buffer_load(h, u(1) as u32, c1)?;
            return Ok(Out::Words { w: r, float: facts.float_elem, n: 5 });
        }
        // BufferStore (handle, c0, c1, v0..v3, mask) and RawBufferStore (.., mask, alignment).
        69 | 140 => {
            let h = handle(args, 0)?;
            let c1 = match args.get(2) {
                Some(Val::Int(v)) => *v as u32,
                _ => 0,
            };
            let v = [3, 4, 5, 6].map(|k| args.get(k).map_or(0, lane_bits));
            env.buffer_store(h, u(1) as u32, c1, v, u(7) as u8)?;
            return Ok(Out::None);
        }
        // GetDimensions (handle, mip) -> {width, height, depth, mips}.
        72 => {
            let h = handle(args, 0)?;
            let d = env.dimensions(h, u(1) as u32)?;
            return Ok(lanes(cx.out, d.map(|x| Val::Int(u64::from(x)))));
        }
        // Texture2DMSGetSamplePosition (handle, sample) -> {x, y}: the sample's offset from the
        // pixel center in pixels, in D3D's standard pattern for the view's sample count
        // (GetDimensions' fourth component); (0, 0) for an index past the count or an unbound
        // view (learn.microsoft.com, "samplepos (sm4.1 - asm)").
        75 => {
            let h = handle(args, 0)?;
            let samples = env.dimensions(h, 0)?[3];
            let index = u(1) as u32 as usize;
            let (x, y) = rd3d12_core::multisample::standard_sample_positions(samples)
                .and_then(|p| p.get(index))
                .map_or((0.0, 0.0), |&(x, y)| (f32::from(x) / 16.0, f32::from(y) / 16.0));
            return Ok(lanes(cx.out, [Val::F32(x), Val::F32(y)]));
        }
        // AtomicBinOp (handle, op, c0..c2, value), AtomicCompareExchange (handle, c0..c2, cmp, new).
        78 => {
            let h = handle(args, 0)?;
            let i = |k: usize| u(k) as u32 as i32;
            Val::Int(u64::from(env.atomic(h, u(1) as u32, [i(2), i(3), i(4)], u(5) as u32)?))
        }
        79 => {
            let h = handle(args, 0)?;
            let i = |k: usize| u(k) as u32 as i32;
            Val::Int(u64::from(env.atomic_cmpxchg(h, [i(1), i(2), i(3)], u(4) as u32, u(5) as u32)?))
        }
        // BufferUpdateCounter (handle, inc: i8 1 or -1).
        70 => {
            let h = handle(args, 0)?;
            let delta = if u(1) as u8 as i8 >= 0 { 1 } else { -1 };
            Val::Int(u64::from(env.update_counter(h, delta)?))
        }
        // Barrier: with the SyncThreadGroup flag (1), a thread of a group stops here until
        // every thread of the group got here (see run_group); memory is coherent already.
        80 => {
            return Ok(if u(0) & 1 != 0 && cx.grouped { Out::Barrier } else { Out::None });
        }
        // EmitStream, CutStream, EmitThenCutStream (stream: i8).
        97 => {
            env.emit_stream(u(0) as u32)?;
            return Ok(Out::None);
        }
        98 => {
            env.cut_stream(u(0) as u32)?;
            return Ok(Out::None);
        }
        99 => {
            env.emit_stream(u(0) as u32)?;
            env.cut_stream(u(0) as u32)?;
            return Ok(Out::None);
        }
        90 | 91 | 93..=96 | 100 | 107 | 108 | 138 => Val::Int(u64::from(env.system_value(opcode, u(0) as u32)?)),
        // LoadOutputControlPoint (sig, row, col, index), LoadPatchConstant (sig, row, col),
        // DomainLocation (component), StorePatchConstant (sig, row, col, value).
        103 => env.load_output_control_point(u(0) as u32, u(1) as u32, u(2) as u8, u(3) as u32)?,
        104 => env.load_patch_constant(u(0) as u32, u(1) as u32, u(2) as u8)?,
        105 => Val::F32(env.domain_location(u(0) as u32)?),
        106 => {
            env.store_patch_constant(u(0) as u32, u(1) as u32, u(2) as u8, args.get(3).unwrap_or(&Val::Undef))?;
            return Ok(Out::None);
        }
        // EvalSnapped (sig, row, col, offsetX, offsetY): offsets are 4-bit signed sixteenths,
        // so only the low four bits count.
        87 => {
            let four = |v: u64| ((v as i32) << 28) >> 28;
            env.eval_input(u(0) as u32, u(1) as u32, u(2) as u8, EvalAt::Snapped(four(u(3)), four(u(4))))?
        }
        88 => env.eval_input(u(0) as u32, u(1) as u32, u(2) as u8, EvalAt::Sample(u(3) as u32))?,
        89 => env.eval_input(u(0) as u32, u(1) as u32, u(2) as u8, EvalAt::Centroid)?,
        76 => {
            let [x, y] = env.sample_position(u(0) as u32)?;
            return Ok(lanes(cx.out, [Val::F32(x), Val::F32(y)]));
        }
        77 => Val::Int(u64::from(env.sample_count()?)),

        // DerivCoarseX/Y, DerivFineX/Y: the quad's differences (0 alone).
        83..=86 => {
            let d = cx.derivs.as_ref().and_then(|d| d.first()).copied().unwrap_or([0.0; 4]);
            Val::F32(d[(opcode - 83) as usize])
        }
        82 => {
            if u(0) & 1 != 0 {
                env.discard()?;
            }
            return Ok(Out::None);
        }
        n => return Err(not_implemented(n)),
    }))
}

/// A binary operator on values of a type of integer width `w` (`double`: the type is double).
#[inline(always)]
fn binary(op: BinOp, a: &Val, b: &Val, w: u32, double: bool) -> R<Val> {
    if op.is_float() {
        if double {
            let (x, y) = (a.f64(), b.f64());
            return Ok(Val::F64(match op {
                BinOp::FAdd => x + y,
                BinOp::FSub => x - y,
                BinOp::FMul => x * y,
                BinOp::FDiv => x / y,
                _ => x % y,
            }));
        }
        let (x, y) = (a.f32(), b.f32());
        return Ok(Val::F32(match op {
            BinOp::FAdd => x + y,
            BinOp::FSub => x - y,
            BinOp::FMul => x * y,
            BinOp::FDiv => x / y,
            _ => x % y,
        }));
    }
    let (x, y) = (a.int(), b.int());
    let (sx, sy) = (sext(x, w), sext(y, w));
    let sh = (y % u64::from(w.max(1))) as u32;
    let r = match op {
        BinOp::Add => x.wrapping_add(y),
        BinOp::Sub => x.wrapping_sub(y),
        BinOp::Mul => x.wrapping_mul(y),
        // D3D: integer division by zero gives all bits set (udiv) or -1 (sdiv) without a trap.
        BinOp::UDiv => x.checked_div(y).unwrap_or(u64::MAX),
        BinOp::SDiv => sx.checked_div(sy).unwrap_or(-1) as u64,
        BinOp::URem => x.checked_rem(y).unwrap_or(u64::MAX),
        BinOp::SRem => sx.checked_rem(sy).unwrap_or(-1) as u64,
        BinOp::Shl => x << sh,
        BinOp::LShr => x >> sh,
        BinOp::AShr => (sx >> sh) as u64,
        BinOp::And => x & y,
        BinOp::Or => x | y,
        BinOp::Xor => x ^ y,
        _ => return bad("float operator on integers"),
    };
    Ok(Val::Int(mask(r, w)))
}

#[inline(always)]
fn cast(op: CastOp, v: &Val, c: CastFacts) -> R<Val> {
    let (fw, tw) = (c.fw, c.tw);
    let to_float = |x: f64| -> R<Val> { Ok(if c.to_double { Val::F64(x) } else { Val::F32(x as f32) }) };
    Ok(match op {
        CastOp::Trunc | CastOp::ZExt => Val::Int(mask(v.int(), tw)),
        CastOp::SExt => Val::Int(mask(sext(v.int(), fw) as u64, tw)),
        // ftou / ftoi: saturating to the result's range, NaN to 0.
        CastOp::FPToUI => {
            let max = if tw >= 64 { u64::MAX as f64 } else { ((1u64 << tw) - 1) as f64 };
            let x = v.f64();
            Val::Int(if x.is_nan() { 0 } else { x.clamp(0.0, max) as u64 })
        }
        CastOp::FPToSI => {
            let (lo, hi) = if tw >= 64 { (i64::MIN, i64::MAX) } else { (-(1i64 << (tw - 1)), (1i64 << (tw - 1)) - 1) };
            let x = v.f64();
            let i = if x.is_nan() { 0 } else { (x as i64).clamp(lo, hi) };
            Val::Int(mask(i as u64, tw))
        }
        CastOp::UIToFP => to_float(v.int() as f64)?,
        CastOp::SIToFP => to_float(sext(v.int(), fw) as f64)?,
        CastOp::FPTrunc | CastOp::FPExt => to_float(v.f64())?,
        CastOp::BitCast => match c.bits {
            BitCast::I32ToF32 => Val::F32(f32::from_bits(v.int() as u32)),
            BitCast::F32ToI32 => Val::Int(u64::from(v.f32().to_bits())),
            BitCast::I64ToF64 => Val::F64(f64::from_bits(v.int())),
            BitCast::F64ToI64 => Val::Int(v.f64().to_bits()),
            BitCast::I16ToHalf => Val::F32(half_to_f32(v.int() as u16)),
            BitCast::HalfToI16 => Val::Int(u64::from(f32_to_half(v.f32()))),
            BitCast::Same => v.clone(),
        },
        CastOp::AddrSpaceCast => v.clone(),
        other => return Err(ExecError::Unsupported(format!("cast {}", other.name()))),
    })
}

/// What a dx.op gives: nothing, a value, or the elements of a struct result (the lanes of a
/// ResRet or CBufRet, a {result, carry} pair ...), kept apart to build no aggregate when the
/// elements are only extracted.
enum Out {
    None,
    One(Val),
    /// The elements are in [`OpCx::out`].
    Lanes(usize),
    /// A barrier that synchronises the thread group.
    Barrier,
    /// A ResRet or CBufRet: four 32-bit lanes, floats or integers, then (`n` = 5) a status
    /// word of 1 (the access was fully mapped).
    Words {
        w: [u32; 4],
        float: bool,
        n: usize,
    },
}

impl Out {
    /// Element `k` of a [`Out::Words`] result.
    #[inline(always)]
    fn word(w: &[u32; 4], float: bool, n: usize, k: usize) -> Option<Val> {
        match (w.get(k), float) {
            (Some(x), true) => Some(Val::F32(f32::from_bits(*x))),
            (Some(x), false) => Some(Val::Int(u64::from(*x))),
            (None, _) => (k == 4 && n == 5).then_some(Val::Int(1)),
        }
    }
}

/// What a dx.op sees of the invocation running it.
struct OpCx<'a> {
    m: &'a Module,
    /// Where an operation with a struct result puts its elements.
    out: &'a mut Vec<Val>,
    derivs: Option<[[f32; 4]; 3]>,
    /// The invocation runs in a thread group (see [`run_group`]).
    grouped: bool,
}

/// A dx.op's arguments after the opcode, read where they live (locals, the constant pool) or,
/// when one had to be evaluated (a global), from the values computed beforehand.
#[derive(Clone, Copy)]
struct Args<'a> {
    srcs: &'a [Src],
    locals: &'a [Option<Val>],
    consts: &'a [Val],
    owned: Option<&'a [Val]>,
}

impl<'a> Args<'a> {
    #[inline(always)]
    fn get(&self, i: usize) -> Option<&'a Val> {
        if let Some(o) = self.owned {
            return o.get(i);
        }
        match *self.srcs.get(i)? {
            Src::Local(j) => self.locals.get(j as usize)?.as_ref(),
            Src::Const(j) => self.consts.get(j as usize),
            Src::Dyn(_) => None,
        }
    }

    #[inline(always)]
    fn first(&self) -> Option<&'a Val> {
        self.get(0)
    }
}

fn lanes<const N: usize>(out: &mut Vec<Val>, v: [Val; N]) -> Out {
    out.clear();
    out.extend(v);
    Out::Lanes(N)
}

/// The handle operand `k` of a dx.op.
fn handle(args: Args<'_>, k: usize) -> R<u32> {
    match args.get(k) {
        Some(Val::Handle(h)) => Ok(*h),
        _ => bad("a resource operation without a handle"),
    }
}

/// A value as the 32-bit lane a resource stores (floats as their bits).
fn lane_bits(v: &Val) -> u32 {
    match v {
        Val::F32(f) => f.to_bits(),
        other => other.int() as u32,
    }
}

fn mask(v: u64, w: u32) -> u64 {
    if w >= 64 {
        v
    } else {
        v & ((1u64 << w) - 1)
    }
}

fn sext(v: u64, w: u32) -> i64 {
    if w == 0 || w >= 64 {
        v as i64
    } else {
        ((v << (64 - w)) as i64) >> (64 - w)
    }
}

fn offset(at: usize, i: i64, size: usize) -> R<usize> {
    let o = (at as i64).checked_add(i.checked_mul(size as i64).ok_or(ExecError::Malformed("index".into()))?);
    o.filter(|o| *o >= 0).map(|o| o as usize).ok_or_else(|| ExecError::Malformed("negative address".into()))
}

fn flatten(v: &Val, out: &mut Vec<Val>) {
    match v {
        Val::Agg(e) => e.iter().for_each(|x| flatten(x, out)),
        other => out.push(other.clone()),
    }
}

fn first_bit_hi(x: u64, w: u32) -> u64 {
    let x = mask(x, w);
    if x == 0 {
        u64::from(u32::MAX)
    } else {
        // Counted from the most significant bit, as DXIL's FirstbitHi is.
        u64::from(w - 1 - (63 - x.leading_zeros()))
    }
}

fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (x - x.trunc()).abs() == 0.5 && r % 2.0 != 0.0 {
        r - x.signum()
    } else {
        r
    }
}

/// LLVM's float comparison predicates (0–15) and integer ones (32–41).
#[inline(always)]
fn compare(pred: u32, a: &Val, b: &Val, w: u32) -> R<bool> {
    if pred <= 15 {
        let (x, y) = (a.f64(), b.f64());
        let unordered = x.is_nan() || y.is_nan();
        let ord = |r: bool| !unordered && r;
        let unord = |r: bool| unordered || r;
        return Ok(match pred {
            0 => false,
            1 => ord(x == y),
            2 => ord(x > y),
            3 => ord(x >= y),
            4 => ord(x < y),
            5 => ord(x <= y),
            6 => ord(x != y),
            7 => !unordered,
            8 => unordered,
            9 => unord(x == y),
            10 => unord(x > y),
            11 => unord(x >= y),
            12 => unord(x < y),
            13 => unord(x <= y),
            14 => unord(x != y),
            _ => true,
        });
    }
    let (x, y) = (mask(a.int(), w), mask(b.int(), w));
    let (sx, sy) = (sext(x, w), sext(y, w));
    Ok(match pred {
        32 => x == y,
        33 => x != y,
        34 => x > y,
        35 => x >= y,
        36 => x < y,
        37 => x <= y,
        38 => sx > sy,
        39 => sx >= sy,
        40 => sx < sy,
        41 => sx <= sy,
        _ => return bad(format!("predicate {pred}")),
    })
}

/// IMul (`signed`) / UMul: the (high, low) words of the 64-bit product.
fn mul_hi_lo(a: u32, b: u32, signed: bool) -> (u32, u32) {
    let p = if signed { (i64::from(a as i32) * i64::from(b as i32)) as u64 } else { u64::from(a) * u64::from(b) };
    ((p >> 32) as u32, p as u32)
}

/// Msad: `acc` plus |reference byte − source byte| over the byte lanes whose reference byte is
/// not zero.
fn msad(reference: u32, source: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |a, k| {
        let (r, s) = ((reference >> (8 * k)) & 0xFF, (source >> (8 * k)) & 0xFF);
        if r == 0 {
            a
        } else {
            a.wrapping_add(r.abs_diff(s))
        }
    })
}

/// IEEE half bits to f32.
pub fn half_to_f32(h: u16) -> f32 {
    let (s, e, m) = ((h >> 15) as u32, ((h >> 10) & 0x1f) as u32, (h & 0x3ff) as u32);
    let bits = match (e, m) {
        (0, 0) => s << 31,
        (0, _) => {
            // Subnormal: normalise.
            let mut e = 127 - 15 + 1;
            let mut m = m;
            while m & 0x400 == 0 {
                m <<= 1;
                e -= 1;
            }
            (s << 31) | ((e as u32) << 23) | ((m & 0x3ff) << 13)
        }
        (0x1f, _) => (s << 31) | (0xff << 23) | (m << 13),
        _ => (s << 31) | ((e + 127 - 15) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

/// f32 to IEEE half bits, rounding to nearest even.
pub fn f32_to_half(f: f32) -> u16 {
    let b = f.to_bits();
    let s = ((b >> 16) & 0x8000) as u16;
    let e = ((b >> 23) & 0xff) as i32;
    let m = b & 0x7f_ffff;
    if e == 0xff {
        return s | 0x7c00 | if m != 0 { 0x200 } else { 0 };
    }
    let e16 = e - 127 + 15;
    if e16 >= 0x1f {
        return s | 0x7c00;
    }
    if e16 <= 0 {
        if e16 < -10 {
            return s;
        }
        let m = m | 0x80_0000;
        let shift = (14 - e16) as u32;
        let half = m >> shift;
        let rem = m & ((1 << shift) - 1);
        let mid = 1 << (shift - 1);
        let r = if rem > mid || (rem == mid && half & 1 == 1) { half + 1 } else { half };
        return s | r as u16;
    }
    let half = ((e16 as u32) << 10) | (m >> 13);
    let rem = m & 0x1fff;
    let r = if rem > 0x1000 || (rem == 0x1000 && half & 1 == 1) { half + 1 } else { half };
    s | r as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pixel or vertex of a test: inputs by (signature, component), outputs likewise.
    #[derive(Default)]
    struct Mock {
        inputs: Vec<((u32, u8), Val)>,
        outputs: Vec<((u32, u8), Val)>,
        cbuffers: Vec<(u32, Vec<[f32; 4]>)>,
        discarded: bool,
        samples: u32,
        grads: Vec<([f32; 3], [f32; 3])>,
    }

    impl Env for Mock {
        fn load_input(&mut self, sig: u32, _row: u32, col: u8, _v: Option<u32>) -> R<Val> {
            Ok(self.inputs.iter().find(|(k, _)| *k == (sig, col)).map_or(Val::Undef, |(_, v)| v.clone()))
        }
        fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> R<()> {
            self.outputs.push(((sig, col), value.clone()));
            Ok(())
        }
        fn create_handle(&mut self, class: u8, range: u32, _index: u32) -> R<u32> {
            Ok(u32::from(class) * 100 + range)
        }
        fn cbuffer_row(&mut self, handle: u32, row: u32) -> R<[u32; 4]> {
            let rows = self.cbuffers.iter().find(|(h, _)| *h == handle).map(|(_, r)| r);
            Ok(rows.and_then(|r| r.get(row as usize)).map_or([0; 4], |r| r.map(f32::to_bits)))
        }
        fn sample(
            &mut self,
            t: u32,
            s: u32,
            c: [f32; 4],
            _o: [i32; 3],
            mode: SampleMode,
            compare: Option<f32>,
        ) -> R<[f32; 4]> {
            assert_eq!((t, s), (0, 300), "the SRV and the sampler of range 0");
            assert_eq!(compare, None);
            let SampleMode::Grad { ddx, ddy, .. } = mode else { panic!("{mode:?}") };
            self.grads.push((ddx, ddy));
            self.samples += 1;
            Ok([c[0], c[1], c[0] + c[1], 1.0])
        }
        fn discard(&mut self) -> R<()> {
            self.discarded = true;
            Ok(())
        }
    }

    impl Mock {
        fn out(&self, sig: u32, col: u8) -> f32 {
            self.outputs.iter().rev().find(|(k, _)| *k == (sig, col)).map_or(f32::NAN, |(_, v)| v.f32())
        }
    }

    fn module(name: &str) -> Module {
        let bytes = match name {
            "textured.ps" => {
                &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil"))[..]
            }
            "textured.vs" => {
                &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil"))[..]
            }
            "loop.ps" => {
                &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/loop.ps.dxil"))[..]
            }
            _ => &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/loop.vs.dxil"))[..],
        };
        crate::dxil::parse(bytes).expect("fixture parses").module
    }

    fn run_main(m: &Module, env: &mut Mock) {
        let f = m.function("main").expect("main");
        run(m, f, env).expect("runs");
    }

    #[test]
    fn textured_pixel_shader_samples_and_multiplies_by_the_tint() {
        // o = texture(tex, v_uv) * tint, with the mock texture returning (u, v, u + v, 1).
        let m = module("textured.ps");
        let mut env = Mock {
            inputs: vec![((0, 0), Val::F32(0.25)), ((0, 1), Val::F32(0.5))],
            cbuffers: vec![(200, vec![[2.0, 4.0, 0.5, 0.25]])],
            ..Mock::default()
        };
        run_main(&m, &mut env);
        assert_eq!(env.samples, 1);
        assert_eq!([env.out(0, 0), env.out(0, 1), env.out(0, 2), env.out(0, 3)], [0.5, 2.0, 0.375, 0.25]);
    }

    #[test]
    fn a_quad_samples_with_the_differences_of_its_coordinates() {
        // The four pixels of a quad with v_uv = (0.25 + 0.125 dx, 0.5 + 0.0625 dy): each lane's
        // sample sees ddx = (0.125, 0, 0) and ddy = (0, 0.0625, 0); alone, a pixel sees zeros.
        let m = module("textured.ps");
        let f = m.function("main").unwrap();
        let mut envs: Vec<Mock> = (0..4)
            .map(|i| {
                let (dx, dy) = ((i % 2) as f32, (i / 2) as f32);
                Mock {
                    inputs: vec![((0, 0), Val::F32(0.25 + 0.125 * dx)), ((0, 1), Val::F32(0.5 + 0.0625 * dy))],
                    cbuffers: vec![(200, vec![[1.0; 4]])],
                    ..Mock::default()
                }
            })
            .collect();
        let [a, b, c, d] = &mut envs[..] else { unreachable!() };
        run_quad(&m, f, [a, b, c, d]).unwrap();
        for (i, e) in envs.iter().enumerate() {
            assert_eq!(e.grads, [([0.125, 0.0, 0.0], [0.0, 0.0625, 0.0])], "lane {i}");
            assert_eq!(e.out(0, 0), 0.25 + 0.125 * (i % 2) as f32, "each lane keeps its own values");
        }
        let mut alone = Mock { inputs: envs[0].inputs.clone(), cbuffers: envs[0].cbuffers.clone(), ..Mock::default() };
        run(&m, f, &mut alone).unwrap();
        assert_eq!(alone.grads, [([0.0; 3], [0.0; 3])]);
    }

    #[test]
    fn a_quad_whose_lanes_diverge_finishes_each_lane() {
        // loop.ps iterates int(x) % 7 times: x = 0.5, 1.5, 2.5, 3.5 branch apart after the first
        // iteration; every lane still gets its own GLSL result.
        let m = module("loop.ps");
        let f = m.function("main").unwrap();
        let t = 0.3f32;
        let mut envs: Vec<Mock> = (0..4)
            .map(|i| Mock {
                inputs: vec![((0, 0), Val::F32(i as f32 + 0.5))],
                cbuffers: vec![(200, vec![[t, 0.0, 0.0, 0.0]])],
                ..Mock::default()
            })
            .collect();
        let [a, b, c, d] = &mut envs[..] else { unreachable!() };
        run_quad(&m, f, [a, b, c, d]).unwrap();
        for (i, e) in envs.iter().enumerate() {
            let x = i as f32 + 0.5;
            let n = (x as i32) % 7;
            let want: f32 = (0..n).map(|k| (t * k as f32).sin()).sum();
            assert!((e.out(0, 0) - want).abs() < 1e-5, "lane {i}");
            assert!((e.out(0, 3) - n as f32).abs() < 1e-6);
        }
    }

    #[test]
    fn extracts_and_bitcasts_of_dx_op_results_are_written_by_the_call() {
        // textured.ps extracts the 4 lanes of a sample and of a cbuffer row, and bitcasts the
        // cbuffer's i32 lanes to float: the two calls write all of these slots themselves.
        let m = module("textured.ps");
        let f = m.function("main").unwrap();
        let d = f.exec_cache.0.get_or_init(|| decode(&m, f));
        let nops = d.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.op, Op::Nop)).count();
        assert_eq!(nops, 12);
    }

    #[test]
    fn textured_vertex_shader_transforms_by_the_matrix() {
        // gl_Position = mvp * pos with Mesa's GL-to-D3D fix-ups: z' = (z + w) / 2 and y scaled by
        // the second cbuffer's first value (its y flip); v_uv = uv.
        let m = module("textured.vs");
        let mut env = Mock::default();
        let pos = [1.0f32, 2.0, 3.0, 1.0];
        env.inputs = (0..4u8).map(|c| ((0, c), Val::F32(pos[c as usize]))).collect();
        env.inputs.push(((1, 0), Val::F32(0.125)));
        env.inputs.push(((1, 1), Val::F32(0.875)));
        // Column-major mvp: column k is cbuffer row k.
        let cols = [[1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0], [5.0, 6.0, 7.0, 1.0]];
        env.cbuffers = vec![(200, cols.to_vec()), (201, vec![[-1.0, 0.0, 0.0, 0.0]])];
        run_main(&m, &mut env);
        // clip = (1 + 5, 4 + 6, 3 + 7, 3 + 1) = (6, 10, 10, 4).
        let p = [env.out(1, 0), env.out(1, 1), env.out(1, 2), env.out(1, 3)];
        assert_eq!(p, [6.0, -10.0, 7.0, 4.0]);
        assert_eq!([env.out(0, 0), env.out(0, 1)], [0.125, 0.875]);
    }

    #[test]
    fn loop_shader_runs_its_loop_and_discards() {
        let m = module("loop.ps");
        let t = 0.7f32;
        for x in [0.5f32, 1.5, 3.5, 6.5, 13.5] {
            let mut env = Mock {
                inputs: vec![((0, 0), Val::F32(x))],
                cbuffers: vec![(200, vec![[t, 0.0, 0.0, 0.0]])],
                ..Mock::default()
            };
            run_main(&m, &mut env);
            // The GLSL, in Rust: i = int(x) % 7; c += (sin(t k), cos(x), 0.5, 1) for k < i.
            let i = (x as i32) % 7;
            let mut c = [0.0f32; 4];
            for k in 0..i {
                c[0] += (t * k as f32).sin();
                c[1] += x.cos();
                c[2] += 0.5;
                c[3] += 1.0;
            }
            assert_eq!(env.discarded, c[0] > 0.5, "x = {x}");
            for (k, want) in c.iter().enumerate() {
                assert!(
                    (env.out(0, k as u8) - want).abs() < 1e-5,
                    "x = {x} component {k}: {} vs {want}",
                    env.out(0, k as u8)
                );
            }
        }
    }

    #[test]
    fn passthrough_vertex_shader() {
        let m = module("loop.vs");
        let mut env =
            Mock { inputs: (0..4u8).map(|c| ((0, c), Val::F32(c as f32 + 0.5))).collect(), ..Mock::default() };
        run_main(&m, &mut env);
        assert!(!env.outputs.is_empty());
    }

    #[test]
    fn bitfield_ops_match_dxbc() {
        // Evaluate the bitfield formulas as the interpreter does (ubfe / ibfe / bfi).
        fn ubfe(w: u32, o: u32, v: u32) -> u32 {
            if w == 0 {
                0
            } else if w + o < 32 {
                (v << (32 - (w + o))) >> (32 - w)
            } else {
                v >> o
            }
        }
        assert_eq!(ubfe(4, 4, 0xABCD), 0xC);
        assert_eq!(ubfe(0, 4, 0xABCD), 0);
        assert_eq!(ubfe(8, 28, 0xF000_0000), 0xF);
    }

    /// [`executes`] is exactly the set of opcodes [`run_dx_op`] has an arm for: run with no
    /// arguments, every other opcode ends in its fallback error (and no opcode panics).
    #[test]
    fn executes_lists_the_opcodes_run_dx_op_implements() {
        let m = module("loop.ps");
        for opcode in 0..=300u32 {
            let mut out = Vec::new();
            let mut cx = OpCx { m: &m, out: &mut out, derivs: None, grouped: false };
            let args = Args { srcs: &[], locals: &[], consts: &[], owned: Some(&[]) };
            let facts = Facts { w: 32, double: false, float_elem: false };
            let r = run_dx_op(&mut cx, opcode, args, TypeId(0), facts, &mut Mock::default());
            let fallback = matches!(&r, Err(e) if *e == not_implemented(opcode));
            assert_eq!(executes(opcode), !fallback, "dx.op {opcode}: {:?}", r.err());
        }
        // The ops of issue #16: IMul, UMul, UDiv run; wave operations do not.
        assert!(executes(41) && executes(42) && executes(43));
        assert!(!(110..=123).any(executes) && !executes(135) && !executes(136));
    }

    #[test]
    fn integer_and_float_helpers() {
        assert_eq!(sext(0xFF, 8), -1);
        // (high, low): (2^32 - 1)^2 = 0xFFFFFFFE_00000001; 2^16 * 2^16 = 2^32.
        assert_eq!(mul_hi_lo(0xFFFF_FFFF, 0xFFFF_FFFF, false), (0xFFFF_FFFE, 1));
        assert_eq!(mul_hi_lo(0x1_0000, 0x1_0000, false), (1, 0));
        // Signed: -1 * -1 = 1; -2 * 3 = -6 = 0xFFFFFFFF_FFFFFFFA; 2^31 * 2 unsigned = 2^32.
        assert_eq!(mul_hi_lo(0xFFFF_FFFF, 0xFFFF_FFFF, true), (0, 1));
        assert_eq!(mul_hi_lo(0xFFFF_FFFE, 3, true), (0xFFFF_FFFF, 0xFFFF_FFFA));
        assert_eq!(mul_hi_lo(0x8000_0000, 2, false), (1, 0));
        assert_eq!(mul_hi_lo(0x8000_0000, 2, true), (0xFFFF_FFFF, 0));
        // Bytes (ref, src): (0x10, 0x30) 32, (0, 0xFF) skipped, (0x80, 0x7F) 1, (0xFF, 0) 255.
        assert_eq!(msad(0xFF80_0010, 0x007F_FF30, 5), 5 + 32 + 1 + 255);
        assert_eq!(mask(u64::MAX, 32), 0xFFFF_FFFF);
        assert_eq!(round_half_even(2.5), 2.0);
        assert_eq!(round_half_even(3.5), 4.0);
        assert_eq!(round_half_even(-2.5), -2.0);
        assert_eq!(first_bit_hi(1, 32), 31);
        assert_eq!(first_bit_hi(0x8000_0000, 32), 0);
        assert_eq!(first_bit_hi(0, 32), u64::from(u32::MAX));
        for h in [0x3c00u16, 0xc000, 0x7bff, 0x0001, 0x0400, 0x8000] {
            assert_eq!(f32_to_half(half_to_f32(h)), h, "{h:#x}");
        }
        assert_eq!(half_to_f32(0x3c00), 1.0);
        assert_eq!(f32_to_half(65520.0), 0x7c00, "rounds to infinity");
        assert!(compare(4, &Val::F32(1.0), &Val::F32(2.0), 32).unwrap());
        assert!(!compare(4, &Val::F32(f32::NAN), &Val::F32(2.0), 32).unwrap());
        assert!(compare(12, &Val::F32(f32::NAN), &Val::F32(2.0), 32).unwrap());
        assert!(compare(40, &Val::Int(0xFFFF_FFFF), &Val::Int(0), 32).unwrap(), "-1 < 0 signed");
        assert!(!compare(36, &Val::Int(0xFFFF_FFFF), &Val::Int(0), 32).unwrap());
    }
}
