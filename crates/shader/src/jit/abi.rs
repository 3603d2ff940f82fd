//! The unsafe boundary of the JIT, kept to this file: the compiled functions' calling
//! convention, the call table they reach the interpreter through, and the code memory.
//!
//! A compiled segment is `extern "C" fn(ctx, regs, mask_lo, mask_hi) -> u32`:
//! * `ctx` points to a [`Ctx`], whose first field is the address of [`exec_one`]
//!   (`extern "C" fn(ctx, inst) -> u32`), the only function generated code calls;
//! * `regs` is the wave's register file, `slots * width` `u64`s, which the code reads and
//!   writes only at offsets below that (every slot it names was checked against the
//!   program's slot count when it was compiled, and [`run_segment`] checks the wave's width
//!   and register file before calling);
//! * the mask is the lanes that run, bit `l` for lane `l` (`mask_hi`: lanes 64..127);
//! * it returns 0 when the segment ran to its end, `k + 1` when instruction `k` (a group
//!   barrier) parked the lanes, `u32::MAX` when an instruction failed (the error in `ctx`).
//!
//! [`exec_one`] runs one instruction of the block through the interpreter (`Wave::exec`) with
//! a panic caught there: no unwind ever crosses generated code.

#![allow(unsafe_code)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use cranelift_jit::{JITBuilder, JITModule};

use crate::interp::env::WaveEnv;
use crate::interp::program::Program;
use crate::interp::{ExecError, Wave};

type R<T> = Result<T, ExecError>;

/// What compiled code receives as `ctx`. Generated code reads `exec` (offset 0) only.
#[repr(C)]
pub(crate) struct Ctx<'w, 'p, 'e> {
    exec: usize,
    wave: *mut Wave<'p>,
    env: *mut (dyn WaveEnv + 'e),
    group: *mut [u64],
    block: u32,
    mask: u128,
    err: Option<ExecError>,
    _w: core::marker::PhantomData<&'w mut ()>,
}

/// The call table entry: instruction `k` of the current block for the lanes of the mask,
/// through the interpreter. 0: done; 1: a group barrier parked the lanes; 2: an error.
extern "C" fn exec_one(ctx: *mut Ctx<'_, '_, '_>, k: u32) -> u32 {
    // SAFETY: `ctx` is the `Ctx` that `run_segment` built on its stack and passed to the
    // compiled function, which passes it back unchanged; it outlives the call.
    let ctx = unsafe { &mut *ctx };
    let r = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the pointers were made in `run_segment` from live exclusive borrows that
        // nothing else uses while the compiled function runs; generated code holds no Rust
        // reference into them (only the raw register pointer, whose writes are all done
        // before this call and resumed after it).
        let (wave, env, group) = unsafe { (&mut *ctx.wave, &mut *ctx.env, &mut *ctx.group) };
        let p = wave.p;
        let inst = p
            .blocks
            .get(ctx.block as usize)
            .and_then(|b| b.insts.get(k as usize))
            .ok_or_else(|| ExecError::Malformed(format!("instruction {k} of block {}", ctx.block)))?;
        wave.exec(inst, ctx.mask, env, group)
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

type SegmentFn = extern "C" fn(*mut Ctx<'_, '_, '_>, *mut u64, u64, u64) -> u32;

/// A program's blocks compiled for waves of one width.
pub struct Code {
    /// Lanes per slot of the register file the code was compiled for.
    pub(crate) width: usize,
    /// Slots of the program's register file.
    slots: usize,
    /// For each block: (first instruction, entry address) of its segments, by start.
    segments: Vec<Vec<(u32, usize)>>,
    /// Instructions compiled to native code, and those run through the interpreter.
    pub native: usize,
    /// Instructions that call the interpreter.
    pub called: usize,
    /// Those instructions' operations, by name, and how many of each.
    pub called_ops: std::collections::BTreeMap<String, usize>,
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
        let mut segments = vec![Vec::new(); p.blocks.len()];
        for s in &lowered.segments {
            segments[s.block as usize].push((s.start, module.get_finalized_function(s.id) as usize));
        }
        Ok(Code {
            width,
            slots: p.slots as usize,
            segments,
            native: lowered.native,
            called: lowered.called,
            called_ops: lowered.called_ops,
            compile_time: t0.elapsed(),
            module: Mutex::new(Some(module)),
        })
    }

    /// The entry of block `b`'s segment starting at instruction `start`.
    pub(crate) fn segment(&self, b: u32, start: u32) -> Option<usize> {
        self.segments.get(b as usize)?.iter().find(|s| s.0 == start).map(|s| s.1)
    }
}

/// Runs the compiled segment at `entry` (of `code`, block `b`) for the lanes of `mask`:
/// `Some(k)` when a group barrier at instruction `k - 1` parked them (they resume at `k`).
pub(crate) fn run_segment(
    code: &Code,
    entry: usize,
    wave: &mut Wave<'_>,
    b: u32,
    mask: u128,
    env: &mut dyn WaveEnv,
    group: &mut [u64],
) -> R<Option<u32>> {
    if wave.w != code.width || wave.regs.len() < code.slots * code.width {
        return Err(ExecError::Malformed("a wave run with code of another width".into()));
    }
    let regs = wave.regs.as_mut_ptr();
    let mut ctx = Ctx {
        exec: exec_one as extern "C" fn(*mut Ctx<'_, '_, '_>, u32) -> u32 as usize,
        wave: wave as *mut Wave<'_>,
        env: env as *mut dyn WaveEnv,
        group: group as *mut [u64],
        block: b,
        mask,
        err: None,
        _w: core::marker::PhantomData,
    };
    // SAFETY: `entry` is the address of a function of `code` (alive: borrowed), compiled with
    // the signature of `SegmentFn` for waves of `code.width` lanes, and the register file has
    // the `slots * width` cells it reads and writes (checked above).
    let f: SegmentFn = unsafe { core::mem::transmute::<usize, SegmentFn>(entry) };
    let r = f(&mut ctx, regs, mask as u64, (mask >> 64) as u64);
    match r {
        0 => Ok(None),
        u32::MAX => Err(ctx.err.take().unwrap_or_else(|| ExecError::Malformed("JIT error".into()))),
        k => Ok(Some(k)),
    }
}
