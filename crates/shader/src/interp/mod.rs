//! The reference executor over the IR: a *wave* of W lanes runs each instruction together,
//! under an execution mask. Lanes hold every value as raw bits (`u64` per slot, the value's
//! [`crate::ir::Type`] says how to read them) in one flat register file, slot `s` of lane `l`
//! at `s * W + l`: no allocation per instruction, no `Option<Val>` per value.
//!
//! * [`alu`] — arithmetic on raw lane bits (shared with the lowering's constant folding).
//! * [`program`](mod@program) — an IR function laid out for execution (slots, edges, memory regions).
//! * `control` — scheduling of divergent lanes, branches, phis, the step budget, barriers.
//! * `compute` — the arithmetic instructions over the lanes of a mask.
//! * `memory` — allocas, globals, pointers, loads, stores, atomics on shader memory.
//! * `rawbuf` — 16- and 64-bit raw and structured buffer loads and stores, in the
//!   environment's 32-bit words.
//! * `resources` — the dx.ops that reach the pipeline through each lane's [`Env`]: inputs,
//!   outputs, resources, system values, derivatives across a quad's lanes, discard.
//!
//! Divergence: lanes at different places run separately; the scheduler always runs the
//! waiting lanes whose block comes first in the structured order (reverse post-order with each
//! loop's blocks together), so the two sides of a branch
//! run one after the other and the lanes meet again at the branch's reconvergence point (its
//! immediate post-dominator) before running it together; a loop's lanes leave it one by one
//! and wait at its exit. Pixel shaders run quads as lanes 4k..4k+3 of a wave; compute thread
//! groups as several waves sharing groupshared memory, each stopping at a group barrier
//! until all have reached it. The interface with the pipeline is today's [`Env`], one per
//! lane, called lane by lane; the step budget and the deadline are today's too.
//!
//! Wave intrinsics ([`crate::ir::Op::Wave`]): [`wave`] computes them as pure functions of the
//! lanes' values, the lanes running the instruction and the wave's helper lanes;
//! `resources::wave_op` calls it. A wave is `Wave::lanes` wide for them (WaveGetLaneCount:
//! [`DEFAULT_WAVE`], a compute shader's `[WaveSize]`, 4 for a pixel quad), its lanes past the
//! invocations it holds inactive.

pub mod alu;
mod budget;
mod compute;
pub(crate) mod control;
pub mod env;
#[cfg(test)]
mod env_tests;
mod lane;
mod memory;
pub mod program;
mod rawbuf;
mod resources;
#[cfg(test)]
mod tests;
pub mod wave;

pub use budget::{current_deadline, with_deadline, STEP_BUDGET};
pub(crate) use budget::{deadline_passed, DEADLINE_EVERY};
pub use control::Wave;
pub use env::{Mask, PerLane, WaveEnv};
pub use lane::{Env, EvalAt, ExecError, SampleMode, Val};
use program::Program;

use crate::dxil::module::{Function, Module};
use crate::ir::Scalar;

/// The lanes of a wave when the shader does not ask for a size (`[WaveSize(N)]`).
pub const DEFAULT_WAVE: usize = 8;

/// The most lanes a wave has (D3D's largest `[WaveSize]`).
pub const MAX_WAVE: usize = 128;

type R<T> = Result<T, ExecError>;

/// `func` of `module` lowered and laid out, computed once and kept with the function.
pub fn program<'m>(module: &Module, func: &'m Function) -> R<&'m Program> {
    let p = func.exec_cache.0.get_or_init(|| {
        let f = crate::dxil::lower::lower(module, func).map_err(|e| match e {
            crate::dxil::lower::LowerError::Unsupported(s) => ExecError::Unsupported(s),
            crate::dxil::lower::LowerError::Malformed(s) => ExecError::Malformed(s),
        })?;
        Program::new(f)
    });
    p.as_ref().map_err(Clone::clone)
}

/// Runs one wave of `lanes` invocations of `func` over a wave-wide environment, as a wave of
/// `width` lanes (WaveGetLaneCount; `lanes <= width <= MAX_WAVE`). Pixel quads are lanes
/// 4k..4k+3 (lane 4k at (x, y), then (x + 1, y), (x, y + 1), (x + 1, y + 1)).
pub fn run_wave(module: &Module, func: &Function, env: &mut dyn WaveEnv, lanes: usize, width: usize) -> R<()> {
    let p = program(module, func)?;
    let lanes = lanes.min(MAX_WAVE);
    let mut group = vec![0u64; p.group_cells as usize];
    Wave::new(p, lanes, false).with_lanes(width.clamp(lanes.max(1), MAX_WAVE)).run(env, &mut group).map(|_| ())
}

/// Runs a compute thread group as waves over wave-wide environments (`waves[k]`: the
/// environment of wave k and its lanes; waves of `width` lanes) sharing groupshared memory:
/// each wave runs until its lanes all wait at a group barrier (or end), then the next; a round
/// ends when every wave has, so no thread passes a barrier before every thread that will
/// reach it has.
pub fn run_group_wave_envs(
    module: &Module,
    func: &Function,
    waves: &mut [(&mut dyn WaveEnv, usize)],
    width: usize,
) -> R<()> {
    let p = program(module, func)?;
    let width = width.clamp(1, MAX_WAVE);
    let mut group = vec![0u64; p.group_cells as usize];
    let mut ws: Vec<Wave<'_>> =
        waves.iter().map(|(_, n)| Wave::new(p, (*n).clamp(1, width), true).with_lanes(width)).collect();
    let mut done = vec![false; ws.len()];
    while done.iter().any(|d| !d) {
        for ((w, (env, _)), d) in ws.iter_mut().zip(waves.iter_mut()).zip(done.iter_mut()) {
            if !*d {
                *d = w.run(&mut **env, &mut group)?;
            }
        }
    }
    Ok(())
}

/// Runs one invocation of `func` (as a wave of one lane).
pub fn run(module: &Module, func: &Function, env: &mut dyn Env) -> R<()> {
    let p = program(module, func)?;
    let mut group = vec![0u64; p.group_cells as usize];
    Wave::new(p, 1, false).run(&mut PerLane(&mut [env]), &mut group).map(|_| ())
}

/// Runs a 2x2 quad of pixel-shader invocations as a wave of four lanes (lane 0 at (x, y), 1 at
/// (x + 1, y), 2 at (x, y + 1), 3 at (x + 1, y + 1)).
pub fn run_quad(module: &Module, func: &Function, envs: [&mut dyn Env; 4]) -> R<()> {
    let p = program(module, func)?;
    let mut group = vec![0u64; p.group_cells as usize];
    let mut envs = envs;
    Wave::new(p, 4, false).run(&mut PerLane(&mut envs), &mut group).map(|_| ())
}

/// Runs pixel-shader invocations as waves of up to [`MAX_WAVE`] lanes, `envs` in quads (lanes
/// 4k..4k+3 are one 2x2 quad, ordered as in [`run_quad`]; derivatives read within a quad).
pub fn run_quads(module: &Module, func: &Function, envs: &mut [&mut dyn Env]) -> R<()> {
    run_waves(module, func, envs, MAX_WAVE)
}

/// Runs independent invocations (vertices, domain points, pixels in quads) as waves of up to
/// `width` lanes (1..=[`MAX_WAVE`]; a multiple of 4 keeps quads whole), `envs[i]` lane `i % width`
/// of wave `i / width`.
pub fn run_waves(module: &Module, func: &Function, envs: &mut [&mut dyn Env], width: usize) -> R<()> {
    let p = program(module, func)?;
    let mut group = vec![0u64; p.group_cells as usize];
    for c in envs.chunks_mut(width.clamp(1, MAX_WAVE)) {
        group.fill(0);
        Wave::new(p, c.len(), false).with_lanes(width).run(&mut PerLane(c), &mut group)?;
    }
    Ok(())
}

/// Runs every thread of a compute thread group (`envs[i]` is thread i, the flattened thread
/// id) as waves of [`DEFAULT_WAVE`] lanes sharing groupshared memory (see
/// [`run_group_wave_envs`]).
pub fn run_group(module: &Module, func: &Function, envs: &mut [&mut dyn Env]) -> R<()> {
    run_group_waves(module, func, envs, DEFAULT_WAVE)
}

/// [`run_group`] with waves of `width` lanes (1..=[`MAX_WAVE`]).
pub fn run_group_waves(module: &Module, func: &Function, envs: &mut [&mut dyn Env], width: usize) -> R<()> {
    let width = width.clamp(1, MAX_WAVE);
    let mut lanes: Vec<PerLane<'_, '_>> = envs.chunks_mut(width).map(PerLane).collect();
    let mut waves: Vec<(&mut dyn WaveEnv, usize)> = lanes
        .iter_mut()
        .map(|p| {
            let n = p.0.len();
            (p as &mut dyn WaveEnv, n)
        })
        .collect();
    run_group_wave_envs(module, func, &mut waves, width)
}

/// A value from an [`Env`] as the bits of a slot of type `s`.
#[inline(always)]
pub(crate) fn bits_of(v: &Val, s: Scalar) -> u64 {
    match v {
        Val::Int(i) => s.mask(*i),
        Val::F32(f) => match s {
            Scalar::F64 => f64::from(*f).to_bits(),
            Scalar::F16 => u64::from(alu::f32_to_half(*f)),
            s => s.mask(u64::from(f.to_bits())),
        },
        Val::F64(d) => match s {
            Scalar::F64 => d.to_bits(),
            Scalar::F32 | Scalar::F16 => alu::from_f64(s, *d),
            s => s.mask(d.to_bits()),
        },
        Val::Handle(h) => u64::from(*h),
        _ => 0,
    }
}

/// The bits of a slot of type `s` as the [`Val`] today's interpreter would hand an [`Env`].
#[inline(always)]
pub(crate) fn val_of(bits: u64, s: Scalar) -> Val {
    match s {
        Scalar::F32 => Val::F32(f32::from_bits(bits as u32)),
        Scalar::F64 => Val::F64(f64::from_bits(bits)),
        Scalar::F16 => Val::F32(alu::half_to_f32(bits as u16)),
        _ => Val::Int(bits),
    }
}
