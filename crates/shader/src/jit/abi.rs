//! The unsafe boundary of the JIT, kept to this file: the compiled functions' calling
//! convention, the call table they reach the interpreter through, and the code memory.
//!
//! A compiled program is `extern "C" fn(ctx, regs) -> u32`:
//! * `ctx` points to a [`Ctx`], whose first fields are the call table, the addresses of
//!   [`exec_one`] (`extern "C" fn(ctx, block, inst, mask_lo, mask_hi) -> u32`) and
//!   [`check_one`] (`extern "C" fn(ctx, steps) -> u32`) and [`io_one`] (a signature input
//!   or output straight between the environment and a register row), the only functions
//!   generated code calls, then the state array (two `u64`s of lanes per segment: those
//!   waiting to run it on entry, those parked at a group barrier before it on return) and the
//!   wave's step counts;
//! * `regs` is the wave's register file, `slots * width` `u64`s, which the code reads and
//!   writes only at offsets below that (every slot it names was checked against the
//!   program's slot count when it was compiled, and [`run`] checks the wave's width
//!   and register file before calling);
//! * it returns 0 when no lane has anything left to run, `u32::MAX` when an instruction or
//!   the deadline failed (the error in `ctx`), `u32::MAX - 1` when lanes reached
//!   `unreachable`.
//!
//! [`exec_one`] runs one instruction of the block through the interpreter (`Wave::exec`) with
//! a panic caught there: no unwind ever crosses generated code.

#![allow(unsafe_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use cranelift_jit::{JITBuilder, JITModule};

use crate::interp::control::Pc;
use crate::interp::env::WaveEnv;
use crate::interp::program::Program;
use crate::interp::{deadline_passed, ExecError, Wave, STEP_BUDGET};
use crate::ir::Scalar;

type R<T> = Result<T, ExecError>;

/// What compiled code receives as `ctx`. Generated code reads the first six fields (at the
/// offsets `lower` names) and writes `steps` and `next_check`.
#[repr(C)]
pub(crate) struct Ctx<'w, 'p, 'e> {
    exec: usize,
    check: usize,
    /// Two `u64`s of lanes per segment: pending on entry, parked at a barrier on return.
    state: *mut u64,
    steps: u64,
    next_check: u64,
    io: usize,
    wave: *mut Wave<'p>,
    env: *mut (dyn WaveEnv + 'e),
    group: *mut [u64],
    err: Option<ExecError>,
    _w: core::marker::PhantomData<&'w mut ()>,
}

/// The call table's first entry: instruction `k` of block `b` for the lanes of the mask,
/// through the interpreter. 0: done; 1: a group barrier parked the lanes; 2: an error.
extern "C" fn exec_one(ctx: *mut Ctx<'_, '_, '_>, b: u32, k: u32, lo: u64, hi: u64) -> u32 {
    // SAFETY: `ctx` is the `Ctx` that `run` built on its stack and passed to the compiled
    // function, which passes it back unchanged; it outlives the call.
    let ctx = unsafe { &mut *ctx };
    let mask = u128::from(lo) | (u128::from(hi) << 64);
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the pointers were made in `run` from live exclusive borrows that nothing
        // else uses while the compiled function runs; generated code holds no Rust reference
        // into them (only the raw register pointer, whose writes are all done before this
        // call and resumed after it).
        let (wave, env, group) = unsafe { (&mut *ctx.wave, &mut *ctx.env, &mut *ctx.group) };
        let p = wave.p;
        let inst = p
            .blocks
            .get(b as usize)
            .and_then(|blk| blk.insts.get(k as usize))
            .ok_or_else(|| ExecError::Malformed(format!("instruction {k} of block {b}")))?;
        wave.exec(inst, mask, env, group)
    }));
    match r {
        Ok(Ok(false)) => 0,
        Ok(Ok(true)) => 1,
        Ok(Err(e)) => {
            ctx.err = Some(e);
            2
        }
        Err(_) => {
            ctx.err = Some(ExecError::Malformed("an instruction panicked in the interpreter".into()));
            2
        }
    }
}

/// The scalar types by the number generated code passes for them.
pub(crate) const SCALARS: [Scalar; 8] =
    [Scalar::Bool, Scalar::I8, Scalar::I16, Scalar::I32, Scalar::I64, Scalar::F16, Scalar::F32, Scalar::F64];

/// The call table's third entry: a `LoadInput` (`store` 0) or `StoreOutput` (1) whose place
/// operands are constants, or a `CreateHandle` (2) whose range id and index are (`at`: range
/// id, index << 32, class << 56), straight between the environment and register row `slot`
/// (the environment reads and writes only the mask's lanes). 0: done; 2: an error.
#[allow(clippy::too_many_arguments)]
extern "C" fn io_one(ctx: *mut Ctx<'_, '_, '_>, store: u32, lo: u64, hi: u64, at: u64, ty: u32, slot: u32) -> u32 {
    // SAFETY: as in `exec_one`.
    let ctx = unsafe { &mut *ctx };
    let mask = u128::from(lo) | (u128::from(hi) << 64);
    let place = (at as u32, (at >> 32) as u32 & 0xFF_FFFF, (at >> 56) as u8);
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `exec_one`.
        let (wave, env) = unsafe { (&mut *ctx.wave, &mut *ctx.env) };
        let w = wave.w;
        let ty = SCALARS.get(ty as usize).copied().ok_or_else(|| ExecError::Malformed("a scalar type".into()))?;
        if mask == 0 {
            return Ok(());
        }
        if store == 3 {
            return cbuffer_rows(wave, env, mask, at as u32, (at >> 32) as usize, slot as usize);
        }
        let row = wave
            .regs
            .get_mut(slot as usize * w..(slot as usize + 1) * w)
            .ok_or_else(|| ExecError::Malformed(format!("slot {slot}")))?;
        match store {
            1 => env.store_output(mask, place, ty, row),
            2 => {
                // CreateHandle: range id, index and class as `at` packs them.
                let mut sc = wave.scratch.take().unwrap_or_default();
                let handles = sc.words(w).1;
                let r = env.create_handle(mask, (at >> 56) as u8, at as u32, (at >> 32) as u32 & 0xFF_FFFF, handles);
                if r.is_ok() && mask == crate::interp::control::full(w) {
                    row.iter_mut().zip(handles.iter()).for_each(|(r, &h)| *r = u64::from(h));
                } else if r.is_ok() {
                    for l in crate::interp::env::lanes(mask) {
                        if let (Some(r), Some(&h)) = (row.get_mut(l), handles.get(l)) {
                            *r = u64::from(h);
                        }
                    }
                }
                wave.scratch = Some(sc);
                r
            }
            _ => env.load_input(mask, place, None, ty, row),
        }
    }));
    match r {
        Ok(Ok(())) => 0,
        Ok(Err(e)) => {
            ctx.err = Some(e);
            2
        }
        Err(_) => {
            ctx.err = Some(ExecError::Malformed("an environment call panicked".into()));
            2
        }
    }
}

/// `io_one`'s CBufferLoadLegacy: constant row `row` of the buffer whose handle each lane holds
/// in slot `h`, its four words into slots `d..d + 4`, one environment call per distinct handle.
fn cbuffer_rows(wave: &mut Wave<'_>, env: &mut dyn WaveEnv, mask: u128, row: u32, h: usize, d: usize) -> R<()> {
    let w = wave.w;
    let mut sc = wave.scratch.take().unwrap_or_default();
    let r = cbuffer_rows_into(&mut wave.regs, w, sc.words(w).0, env, mask, row, h, d);
    wave.scratch = Some(sc);
    r
}

#[allow(clippy::too_many_arguments)]
fn cbuffer_rows_into(
    regs: &mut [u64],
    w: usize,
    words: &mut [[u32; 4]],
    env: &mut dyn WaveEnv,
    mask: u128,
    row: u32,
    h: usize,
    d: usize,
) -> R<()> {
    if regs.len() < (h + 1) * w || regs.len() < (d + 4) * w {
        return Err(ExecError::Malformed(format!("slots {h}, {d}")));
    }
    let full = mask == crate::interp::control::full(w);
    let handles = &regs[h * w..(h + 1) * w];
    let first = handles[mask.trailing_zeros() as usize];
    if full && handles.iter().all(|&x| x == first) {
        // The common case: one buffer for the whole wave.
        env.cbuffer_row(mask, first as u32, row, words)?;
    } else {
        let mut left = mask;
        while left != 0 {
            let handle = handles[left.trailing_zeros() as usize];
            let mut same = 0u128;
            for l in crate::interp::env::lanes(left) {
                if handles[l] == handle {
                    same |= 1 << l;
                }
            }
            env.cbuffer_row(same, handle as u32, row, words)?;
            left &= !same;
        }
    }
    for k in 0..4 {
        let out = &mut regs[(d + k) * w..(d + k + 1) * w];
        if full {
            out.iter_mut().zip(words.iter()).for_each(|(o, v)| *o = u64::from(v[k]));
        } else {
            for l in crate::interp::env::lanes(mask) {
                if let (Some(o), Some(v)) = (out.get_mut(l), words.get(l)) {
                    *o = u64::from(v[k]);
                }
            }
        }
    }
    Ok(())
}

/// The call table's second entry, every `DEADLINE_EVERY` steps of the wave: 0 to go on, 2
/// when the step budget is spent or the deadline passed (the error in `ctx`).
extern "C" fn check_one(ctx: *mut Ctx<'_, '_, '_>, steps: u64) -> u32 {
    // SAFETY: as in `exec_one`.
    let ctx = unsafe { &mut *ctx };
    let e = if steps > STEP_BUDGET {
        ExecError::StepBudget
    } else if catch_unwind(deadline_passed).unwrap_or(true) {
        ExecError::Timeout
    } else {
        return 0;
    };
    ctx.err = Some(e);
    2
}

type ProgramFn = extern "C" fn(*mut Ctx<'_, '_, '_>, *mut u64) -> u32;

/// A program's blocks compiled for waves of one width.
pub struct Code {
    /// Lanes per slot of the register file the code was compiled for.
    pub(crate) width: usize,
    /// Slots of the program's register file.
    slots: usize,
    /// The segments (block, first instruction) by their index in the state array.
    segments: Vec<(u32, u32)>,
    /// For each block, its segments' (first instruction, index); the first starts at 0.
    index: Vec<Vec<(u32, usize)>>,
    /// The function's address.
    entry: usize,
    /// Instructions compiled to native code, and those run through the interpreter.
    pub native: usize,
    /// Instructions that call the interpreter.
    pub called: usize,
    /// Those instructions' operations, by name, and how many of each.
    pub called_ops: std::collections::BTreeMap<String, usize>,
    /// The operations that call the environment directly, not through the interpreter
    /// (signature inputs and outputs at constant places, handles of constant ranges,
    /// constant-buffer rows), by name.
    pub direct_ops: std::collections::BTreeMap<String, usize>,
    /// How long compiling took.
    pub compile_time: std::time::Duration,
    module: Mutex<Option<JITModule>>,
}

// SAFETY: after `finalize_definitions` the module is never used again but to free its memory
// in `drop` (behind the mutex); the code it holds is immutable, and each call of it gets its
// own `Ctx` and register file, so calls from several threads share nothing mutable.
unsafe impl Send for Code {}
// SAFETY: as for `Send`: shared access only reads `segments` and calls immutable code.
unsafe impl Sync for Code {}

impl Drop for Code {
    fn drop(&mut self) {
        if let Some(m) = self.module.get_mut().unwrap_or_else(|e| e.into_inner()).take() {
            // SAFETY: the code is dropped with its program; no wave of the program is running
            // (a running wave borrows the program, so the program cannot be dropped), so no
            // function of this module is executing or will be called again.
            unsafe { m.free_memory() };
        }
    }
}

impl Code {
    /// Compiles `p` for waves of `width` lanes.
    pub(crate) fn compile(p: &Program, width: usize) -> Result<Code, String> {
        let t0 = std::time::Instant::now();
        let isa = super::lower::isa()?;
        let mut module = JITModule::new(JITBuilder::with_isa(isa, cranelift_module::default_libcall_names()));
        let lowered = match super::lower::compile(&mut module, p, width) {
            Ok(l) => l,
            Err(e) => {
                // SAFETY: nothing of this module was finalized or handed out.
                unsafe { module.free_memory() };
                return Err(e);
            }
        };
        if let Err(e) = module.finalize_definitions() {
            // SAFETY: as above: no function pointer was taken.
            unsafe { module.free_memory() };
            return Err(format!("cranelift: {e}"));
        }
        let entry = module.get_finalized_function(lowered.id) as usize;
        let mut index = vec![Vec::new(); p.blocks.len()];
        for (i, &(b, start)) in lowered.segments.iter().enumerate() {
            index[b as usize].push((start, i));
        }
        for v in index.iter_mut() {
            v.sort_unstable();
        }
        Ok(Code {
            width,
            slots: p.slots as usize,
            segments: lowered.segments,
            index,
            entry,
            native: lowered.native,
            called: lowered.called,
            called_ops: lowered.called_ops,
            direct_ops: lowered.direct_ops,
            compile_time: t0.elapsed(),
            module: Mutex::new(Some(module)),
        })
    }

    /// The segments: (block, first instruction).
    pub fn segments(&self) -> &[(u32, u32)] {
        &self.segments
    }
}

/// Runs `wave` (compiled as `code`) until every lane has returned (`true`) or the lanes not
/// done all wait at a group barrier (`false`; `wave.pc` says where they resume).
pub(crate) fn run(code: &Code, wave: &mut Wave<'_>, env: &mut dyn WaveEnv, group: &mut [u64]) -> R<bool> {
    if wave.w != code.width || wave.regs.len() < code.slots * code.width {
        return Err(ExecError::Malformed("a wave run with code of another width".into()));
    }
    let mut state = std::mem::take(&mut wave.tmp);
    state.clear();
    state.resize(2 * code.segments.len(), 0);
    for (l, pc) in wave.pc.iter().enumerate() {
        if let Pc::At(b, i) | Pc::Parked(b, i) = *pc {
            let segs = code.index.get(b as usize).map_or(&[][..], Vec::as_slice);
            let s = match segs.first() {
                Some(&(0, s)) if i == 0 => s,
                _ => {
                    segs.iter().find(|x| x.0 == i).ok_or_else(|| ExecError::Malformed(format!("a lane at {b}.{i}")))?.1
                }
            };
            state[2 * s + l / 64] |= 1 << (l % 64);
        }
    }
    let (steps, next_check) = wave.steps_state();
    let regs = wave.regs.as_mut_ptr();
    let mut ctx = Ctx {
        exec: exec_one as extern "C" fn(*mut Ctx<'_, '_, '_>, u32, u32, u64, u64) -> u32 as usize,
        check: check_one as extern "C" fn(*mut Ctx<'_, '_, '_>, u64) -> u32 as usize,
        state: state.as_mut_ptr(),
        steps,
        next_check,
        io: io_one as extern "C" fn(*mut Ctx<'_, '_, '_>, u32, u64, u64, u64, u32, u32) -> u32 as usize,
        wave: wave as *mut Wave<'_>,
        env: env as *mut dyn WaveEnv,
        group: group as *mut [u64],
        err: None,
        _w: core::marker::PhantomData,
    };
    // SAFETY: `code.entry` is the address of the program's function in `code` (alive:
    // borrowed), compiled with the signature of `ProgramFn` for waves of `code.width` lanes;
    // the register file has the `slots * width` cells it reads and writes (checked above) and
    // the state array two `u64`s per segment.
    let f: ProgramFn = unsafe { core::mem::transmute::<usize, ProgramFn>(code.entry) };
    let r = f(&mut ctx, regs);
    wave.set_steps_state(ctx.steps, ctx.next_check);
    match r {
        0 => {}
        u32::MAX => return Err(ctx.err.take().unwrap_or_else(|| ExecError::Malformed("JIT error".into()))),
        c if c == u32::MAX - 1 => return Err(ExecError::Malformed("reached `unreachable`".into())),
        _ => return Err(ExecError::Malformed("an instruction the JIT took for no barrier stopped the wave".into())),
    }
    let parked = state.iter().any(|&x| x != 0);
    wave.pc.fill(Pc::Done);
    if parked {
        for (s, &(b, i)) in code.segments.iter().enumerate() {
            for (k, &word) in state[2 * s..2 * s + 2].iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let l = 64 * k + m.trailing_zeros() as usize;
                    m &= m - 1;
                    if let Some(pc) = wave.pc.get_mut(l) {
                        *pc = Pc::Parked(b, i);
                    }
                }
            }
        }
    }
    wave.tmp = state;
    Ok(!parked)
}
