//! The wave's interface with the pipeline: [`WaveEnv`], called once per instruction for the
//! lanes of a mask, not once per lane.
//!
//! A call covers the lanes of `m` (bit `l`: lane `l`, below the wave's width). What may differ
//! between lanes comes in slices indexed by lane (`reqs[l]`), results go to slices indexed by
//! lane (`out[l]`); entries of lanes outside `m` are neither read nor written. Resource handles,
//! signature places and other operands that a call takes as one value are the same in every
//! lane of `m`: where a shader's differ between lanes (dynamic indexing), the interpreter calls
//! once for each set of lanes that agree. Values are the bits of a register slot of the given
//! [`Scalar`] type (floats as their own width's bits); resource data are 32-bit words.
//!
//! Every pipeline stage of swgpu implements [`WaveEnv`] over its whole wave; [`PerLane`] runs
//! a wave over one [`Env`] per lane (the per-invocation interface the tests implement). The
//! JIT reaches the pipeline through this interface too: its call table (`crate::jit`) runs an
//! instruction's interpreter code, which calls these methods, or calls `load_input` /
//! `store_output` straight on the wave's register rows.

use super::{bits_of, val_of, Env, EvalAt, ExecError, SampleMode, R};
use crate::ir::Scalar;

/// Lanes of a wave, bit `l` for lane `l`.
pub type Mask = u128;

/// One lane's `Sample*` operands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SampleReq {
    /// Texture coordinates (u, v, w, array index as the view needs).
    pub coords: [f32; 4],
    /// The immediate texel offset.
    pub offset: [i32; 3],
    /// How the mip level is chosen.
    pub mode: SampleMode,
    /// SampleCmp*'s reference value.
    pub compare: Option<f32>,
}

impl Default for SampleReq {
    fn default() -> Self {
        SampleReq { coords: [0.0; 4], offset: [0; 3], mode: SampleMode::Level(0.0), compare: None }
    }
}

/// One lane's `TextureGather*` operands.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GatherReq {
    /// Texture coordinates.
    pub coords: [f32; 4],
    /// The texel offset.
    pub offset: [i32; 2],
    /// The component gathered.
    pub channel: u32,
    /// TextureGatherCmp's reference value.
    pub compare: Option<f32>,
}

/// One lane's `CalculateLOD` operands.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LodReq {
    /// Texture coordinates.
    pub coords: [f32; 3],
    /// Their derivatives across the quad.
    pub ddx: [f32; 3],
    /// d/dy.
    pub ddy: [f32; 3],
}

/// One lane's place in a resource: texture coordinates (offset applied) and mip level or
/// sample index for loads; buffer element index and byte offset for buffers (in `c[0]` and
/// `c[1]`).
pub type At = [i32; 3];

/// What a wave of shader invocations reaches outside itself. The defaults refuse the
/// operation (the stage has no such thing).
pub trait WaveEnv {
    /// The lanes that start as helpers: pixels of a quad outside the primitive, run only for
    /// their neighbours' derivatives (their outputs and side effects are the environment's to
    /// drop). Wave operations leave helper lanes out; a lane that discards becomes one.
    fn helpers(&self) -> Mask {
        0
    }
    /// `LoadInput` / `AttributeAtVertex`: component `col` of row `row` of input element `sig`
    /// (`vertex[l]`: the primitive's vertex, for geometry and hull shaders and
    /// GetAttributeAtVertex), as type `s`.
    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), vertex: Option<&[u64]>, s: Scalar, out: &mut [u64]) -> R<()>;
    /// `StoreOutput` of values of type `s`.
    fn store_output(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()>;
    /// `CreateHandle`: resource class (0 SRV, 1 UAV, 2 CBV, 3 sampler), range id, index; the
    /// handle each lane gets.
    fn create_handle(&mut self, m: Mask, class: u8, range: u32, index: u32, out: &mut [u32]) -> R<()>;
    /// `CBufferLoadLegacy`: the four 32-bit words of 16-byte row `row`.
    fn cbuffer_row(&mut self, m: Mask, handle: u32, row: u32, out: &mut [[u32; 4]]) -> R<()>;
    /// `Sample*`: the filtered values (SampleCmp*'s comparison in every component).
    fn sample(&mut self, _m: Mask, _t: u32, _s: u32, _reqs: &[SampleReq], _out: &mut [[f32; 4]]) -> R<()> {
        unsupported("Sample")
    }
    /// `TextureGather*`: component `channel` of the four texels a bilinear sample would read,
    /// in D3D's order (−u+v, +u+v, +u−v, −u−v), compared with the reference for GatherCmp.
    fn gather(&mut self, _m: Mask, _t: u32, _s: u32, _reqs: &[GatherReq], _out: &mut [[f32; 4]]) -> R<()> {
        unsupported("TextureGather")
    }
    /// `CalculateLOD`, clamped to the sampler's and view's ranges (`clamped`) or not.
    fn calculate_lod(
        &mut self,
        _m: Mask,
        _t: u32,
        _s: u32,
        _reqs: &[LodReq],
        _clamped: bool,
        _out: &mut [f32],
    ) -> R<()> {
        unsupported("CalculateLOD")
    }
    /// `TextureLoad`: the texels (as 32-bit words) at `at[l]` (offset applied) of mip level or
    /// sample `mip[l]`; out of range gives 0.
    fn texture_load(&mut self, _m: Mask, _t: u32, _at: &[At], _mip: &[u32], _out: &mut [[u32; 4]]) -> R<()> {
        unsupported("TextureLoad")
    }
    /// `TextureStore`: the components of `mask` of `values[l]` at `at[l]`.
    fn texture_store(&mut self, _m: Mask, _t: u32, _at: &[At], _values: &[[u32; 4]], _mask: u8) -> R<()> {
        unsupported("TextureStore")
    }
    /// `BufferLoad` / `RawBufferLoad`: element `at[l][0]` (typed), at byte `at[l][0]` (raw), or
    /// element `at[l][0]` plus byte `at[l][1]` (structured).
    fn buffer_load(&mut self, _m: Mask, _b: u32, _at: &[At], _out: &mut [[u32; 4]]) -> R<()> {
        unsupported("BufferLoad")
    }
    /// `BufferStore` / `RawBufferStore` of the components of `mask`.
    fn buffer_store(&mut self, _m: Mask, _b: u32, _at: &[At], _values: &[[u32; 4]], _mask: u8) -> R<()> {
        unsupported("BufferStore")
    }
    /// `GetDimensions` at mip `mip`: width, height, depth or array size, mip count (typed and
    /// structured buffers: element count; raw buffers: size in bytes).
    fn dimensions(&mut self, _m: Mask, _r: u32, _mip: u32, _out: &mut [[u32; 4]]) -> R<()> {
        unsupported("GetDimensions")
    }
    /// `AtomicBinOp` (op: 0 ADD, 1 AND, 2 OR, 3 XOR, 4 IMIN, 5 IMAX, 6 UMIN, 7 UMAX, 8
    /// EXCHANGE) of `values[l]` at `at[l]`, lane by lane in lane order; the values before.
    fn atomic(&mut self, _m: Mask, _r: u32, _op: u32, _at: &[At], _values: &[u32], _out: &mut [u32]) -> R<()> {
        unsupported("AtomicBinOp")
    }
    /// `AtomicCompareExchange` of (compare, new) `values[l]`, in lane order; the values before.
    fn atomic_cmpxchg(&mut self, _m: Mask, _r: u32, _at: &[At], _values: &[[u32; 2]], _out: &mut [u32]) -> R<()> {
        unsupported("AtomicCompareExchange")
    }
    /// `BufferUpdateCounter` by `delta` (1 or −1) for each lane in lane order: the value before
    /// an increment and after a decrement.
    fn update_counter(&mut self, _m: Mask, _uav: u32, _delta: i32, _out: &mut [u32]) -> R<()> {
        unsupported("BufferUpdateCounter")
    }
    /// A system value read by an operation (see [`Env::system_value`]).
    fn system_value(&mut self, _m: Mask, opcode: u32, _component: u32, _out: &mut [u32]) -> R<()> {
        unsupported(crate::dxil::ops::opcode_name(opcode).unwrap_or("system value"))
    }
    /// `Discard` for the lanes of `m` (whose condition is true).
    fn discard(&mut self, _m: Mask) -> R<()> {
        Err(ExecError::Malformed("discard outside a pixel shader".into()))
    }
    /// `EvalSnapped` / `EvalSampleIndex` / `EvalCentroid`: input (sig, row, col) interpolated
    /// at `evals[l]`, as type `s`.
    fn eval_input(&mut self, _m: Mask, _at: (u32, u32, u8), _evals: &[EvalAt], _s: Scalar, _out: &mut [u64]) -> R<()> {
        unsupported("EvalSnapped/EvalSampleIndex/EvalCentroid")
    }
    /// `RenderTargetGetSampleCount`.
    fn sample_count(&mut self, _m: Mask, _out: &mut [u32]) -> R<()> {
        unsupported("RenderTargetGetSampleCount")
    }
    /// `RenderTargetGetSamplePosition` of sample `index`.
    fn sample_position(&mut self, _m: Mask, _index: u32, _out: &mut [[f32; 2]]) -> R<()> {
        unsupported("RenderTargetGetSamplePosition")
    }
    /// `LoadOutputControlPoint` of control point `index[l]`, as type `s`.
    fn load_output_control_point(
        &mut self,
        _m: Mask,
        _at: (u32, u32, u8),
        _index: &[u64],
        _s: Scalar,
        _out: &mut [u64],
    ) -> R<()> {
        unsupported("LoadOutputControlPoint")
    }
    /// `StorePatchConstant` of values of type `s`.
    fn store_patch_constant(&mut self, _m: Mask, _at: (u32, u32, u8), _s: Scalar, _values: &[u64]) -> R<()> {
        unsupported("StorePatchConstant")
    }
    /// `LoadPatchConstant`, as type `s`.
    fn load_patch_constant(&mut self, _m: Mask, _at: (u32, u32, u8), _s: Scalar, _out: &mut [u64]) -> R<()> {
        unsupported("LoadPatchConstant")
    }
    /// `DomainLocation`: component `component` of SV_DomainLocation.
    fn domain_location(&mut self, _m: Mask, _component: u32, _out: &mut [f32]) -> R<()> {
        unsupported("DomainLocation")
    }
    /// `EmitStream` for each lane of `m` in lane order.
    fn emit_stream(&mut self, _m: Mask, _stream: u32) -> R<()> {
        unsupported("EmitStream")
    }
    /// `CutStream` for each lane of `m` in lane order.
    fn cut_stream(&mut self, _m: Mask, _stream: u32) -> R<()> {
        unsupported("CutStream")
    }
}

fn unsupported<T>(what: &str) -> R<T> {
    Err(ExecError::Unsupported(format!("dx.op {what}")))
}

/// The lanes of `m`, lowest first.
#[inline(always)]
pub fn lanes(m: Mask) -> impl Iterator<Item = usize> {
    let mut m = m;
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(l)
        }
    })
}

/// A wave over one [`Env`] per lane: each call goes to the lanes' environments one by one, in
/// lane order, the first error stopping it.
pub struct PerLane<'a, 'e>(pub &'a mut [&'e mut dyn Env]);

impl PerLane<'_, '_> {
    fn each(&mut self, m: Mask, mut f: impl FnMut(usize, &mut dyn Env) -> R<()>) -> R<()> {
        for l in lanes(m) {
            let Some(e) = self.0.get_mut(l) else { break };
            f(l, &mut **e)?;
        }
        Ok(())
    }
}

impl WaveEnv for PerLane<'_, '_> {
    fn helpers(&self) -> Mask {
        let mut h = 0;
        for (l, e) in self.0.iter().enumerate().take(128) {
            if e.is_helper() {
                h |= 1 << l;
            }
        }
        h
    }
    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), vertex: Option<&[u64]>, s: Scalar, out: &mut [u64]) -> R<()> {
        self.each(m, |l, e| {
            let v = e.load_input(at.0, at.1, at.2, vertex.map(|v| v[l] as u32))?;
            out[l] = bits_of(&v, s);
            Ok(())
        })
    }
    fn store_output(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()> {
        self.each(m, |l, e| e.store_output(at.0, at.1, at.2, &val_of(values[l], s)))
    }
    /// Each lane's environment keeps its own table of handles.
    fn create_handle(&mut self, m: Mask, class: u8, range: u32, index: u32, out: &mut [u32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.create_handle(class, range, index)?;
            Ok(())
        })
    }
    fn cbuffer_row(&mut self, m: Mask, handle: u32, row: u32, out: &mut [[u32; 4]]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.cbuffer_row(handle, row)?;
            Ok(())
        })
    }
    fn sample(&mut self, m: Mask, t: u32, s: u32, reqs: &[SampleReq], out: &mut [[f32; 4]]) -> R<()> {
        self.each(m, |l, e| {
            let q = &reqs[l];
            out[l] = e.sample(t, s, q.coords, q.offset, q.mode, q.compare)?;
            Ok(())
        })
    }
    fn gather(&mut self, m: Mask, t: u32, s: u32, reqs: &[GatherReq], out: &mut [[f32; 4]]) -> R<()> {
        self.each(m, |l, e| {
            let q = &reqs[l];
            out[l] = e.gather(t, s, q.coords, q.offset, q.channel, q.compare)?;
            Ok(())
        })
    }
    fn calculate_lod(&mut self, m: Mask, t: u32, s: u32, reqs: &[LodReq], clamped: bool, out: &mut [f32]) -> R<()> {
        self.each(m, |l, e| {
            let q = &reqs[l];
            out[l] = e.calculate_lod(t, s, q.coords, q.ddx, q.ddy, clamped)?;
            Ok(())
        })
    }
    fn texture_load(&mut self, m: Mask, t: u32, at: &[At], mip: &[u32], out: &mut [[u32; 4]]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.texture_load(t, mip[l], at[l], [0; 3])?;
            Ok(())
        })
    }
    fn texture_store(&mut self, m: Mask, t: u32, at: &[At], values: &[[u32; 4]], mask: u8) -> R<()> {
        self.each(m, |l, e| e.texture_store(t, at[l], values[l], mask))
    }
    fn buffer_load(&mut self, m: Mask, b: u32, at: &[At], out: &mut [[u32; 4]]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.buffer_load(b, at[l][0] as u32, at[l][1] as u32)?;
            Ok(())
        })
    }
    fn buffer_store(&mut self, m: Mask, b: u32, at: &[At], values: &[[u32; 4]], mask: u8) -> R<()> {
        self.each(m, |l, e| e.buffer_store(b, at[l][0] as u32, at[l][1] as u32, values[l], mask))
    }
    fn dimensions(&mut self, m: Mask, r: u32, mip: u32, out: &mut [[u32; 4]]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.dimensions(r, mip)?;
            Ok(())
        })
    }
    fn atomic(&mut self, m: Mask, r: u32, op: u32, at: &[At], values: &[u32], out: &mut [u32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.atomic(r, op, at[l], values[l])?;
            Ok(())
        })
    }
    fn atomic_cmpxchg(&mut self, m: Mask, r: u32, at: &[At], values: &[[u32; 2]], out: &mut [u32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.atomic_cmpxchg(r, at[l], values[l][0], values[l][1])?;
            Ok(())
        })
    }
    fn update_counter(&mut self, m: Mask, uav: u32, delta: i32, out: &mut [u32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.update_counter(uav, delta)?;
            Ok(())
        })
    }
    fn system_value(&mut self, m: Mask, opcode: u32, component: u32, out: &mut [u32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.system_value(opcode, component)?;
            Ok(())
        })
    }
    fn discard(&mut self, m: Mask) -> R<()> {
        self.each(m, |_, e| e.discard())
    }
    fn eval_input(&mut self, m: Mask, at: (u32, u32, u8), evals: &[EvalAt], s: Scalar, out: &mut [u64]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = bits_of(&e.eval_input(at.0, at.1, at.2, evals[l])?, s);
            Ok(())
        })
    }
    fn sample_count(&mut self, m: Mask, out: &mut [u32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.sample_count()?;
            Ok(())
        })
    }
    fn sample_position(&mut self, m: Mask, index: u32, out: &mut [[f32; 2]]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.sample_position(index)?;
            Ok(())
        })
    }
    fn load_output_control_point(
        &mut self,
        m: Mask,
        at: (u32, u32, u8),
        index: &[u64],
        s: Scalar,
        out: &mut [u64],
    ) -> R<()> {
        self.each(m, |l, e| {
            out[l] = bits_of(&e.load_output_control_point(at.0, at.1, at.2, index[l] as u32)?, s);
            Ok(())
        })
    }
    fn store_patch_constant(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()> {
        self.each(m, |l, e| e.store_patch_constant(at.0, at.1, at.2, &val_of(values[l], s)))
    }
    fn load_patch_constant(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, out: &mut [u64]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = bits_of(&e.load_patch_constant(at.0, at.1, at.2)?, s);
            Ok(())
        })
    }
    fn domain_location(&mut self, m: Mask, component: u32, out: &mut [f32]) -> R<()> {
        self.each(m, |l, e| {
            out[l] = e.domain_location(component)?;
            Ok(())
        })
    }
    fn emit_stream(&mut self, m: Mask, stream: u32) -> R<()> {
        self.each(m, |_, e| e.emit_stream(stream))
    }
    fn cut_stream(&mut self, m: Mask, stream: u32) -> R<()> {
        self.each(m, |_, e| e.cut_stream(stream))
    }
}
