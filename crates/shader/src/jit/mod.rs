//! The JIT back end: IR programs compiled to native SIMD code with Cranelift.
//!
//! A compiled [`Code`] belongs to one [`Program`] and one wave width W (4, 8, 16, 32, 64 or
//! 128 lanes: [`width_for`]): one native function that runs the whole wave, until every lane
//! has returned or waits at a group barrier, over the interpreter's own register file (slot
//! `s` of lane `l` at `s * W + l`, raw bits in a `u64`). Divergent lanes are scheduled as the
//! interpreter schedules them (a pending mask per segment — a block, split after group
//! barriers — and the first pending one in the structured order runs next), so lanes meet at
//! the same places and wave operations see the same lanes. 32-bit values (`i1`, `i32`,
//! `float`) are computed four lanes to a 128-bit vector and written back under the mask with
//! bitselects, so lanes outside it keep their values; values used only later in the same
//! segment stay in registers, the others are stored for the segments, branches and phi
//! copies that read them. The step budget and the deadline are looked at every
//! `DEADLINE_EVERY` steps of the wave.
//!
//! What the JIT does not compile natively (resource operations, memory, wave operations,
//! 64- and 16-bit arithmetic, transcendental functions, ...) runs through the interpreter's
//! own implementation of that one instruction (`Wave::exec`, called back through the small
//! `extern "C"` table of `abi`): same registers, same semantics, no conversion; signature
//! inputs and outputs at constant places go straight between the [`crate::interp::WaveEnv`]
//! and the register row.
//!
//! `RD3D12_SHADER=interp|jit` (default `jit`) chooses; [`with_mode`] overrides it for the
//! calling thread and [`set_process_mode`] for every thread (tests and benchmarks run both
//! and compare). A program the JIT cannot compile runs in the interpreter, with a one-time
//! warning naming why. `RD3D12_JIT_LOG=1|2` reports each compiled program.
//!
//! Files: `lower` (the program's function: segments, dispatcher, terminators, phi copies,
//! register traffic), `ops` (which instructions are native, and their vector code), `abi`
//! (the only unsafe code of the crate: the compiled function's calling convention, the call
//! table, ownership of the code memory), [`differential`] (the JIT against the interpreter,
//! for the tests and the `jit` fuzz target).

mod abi;
pub mod differential;
mod lower;
mod ops;
#[cfg(test)]
mod tests;

use std::cell::Cell;
use std::sync::{Arc, OnceLock};

pub(crate) use abi::run;
pub use abi::Code;

use crate::interp::program::Program;

/// Which executor runs shaders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The reference interpreter, instruction by instruction.
    Interp,
    /// Native code from the JIT (the interpreter for what it does not compile).
    Jit,
}

thread_local! {
    static FORCED: Cell<Option<Mode>> = const { Cell::new(None) };
}

/// [`set_process_mode`]'s choice: 0 none, 1 the interpreter, 2 the JIT.
static PROCESS: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Every thread's mode from now on (`None`: `RD3D12_SHADER`'s again), for benchmarks that
/// compare the two in one run across worker threads; [`with_mode`] still wins on its thread.
pub fn set_process_mode(m: Option<Mode>) {
    let v = match m {
        None => 0,
        Some(Mode::Interp) => 1,
        Some(Mode::Jit) => 2,
    };
    PROCESS.store(v, std::sync::atomic::Ordering::Relaxed);
}

/// The mode `RD3D12_SHADER` asks for (read once), unless [`set_process_mode`] or, on this
/// thread, [`with_mode`] overrides it.
pub fn mode() -> Mode {
    if let Some(m) = FORCED.with(Cell::get) {
        return m;
    }
    match PROCESS.load(std::sync::atomic::Ordering::Relaxed) {
        1 => return Mode::Interp,
        2 => return Mode::Jit,
        _ => {}
    }
    static ENV: OnceLock<Mode> = OnceLock::new();
    *ENV.get_or_init(|| match std::env::var("RD3D12_SHADER").as_deref() {
        Ok("interp") => Mode::Interp,
        Ok("jit") | Err(_) => Mode::Jit,
        Ok(other) => {
            eprintln!("rd3d12: RD3D12_SHADER={other:?} is neither `interp` nor `jit`; using the JIT");
            Mode::Jit
        }
    })
}

/// Runs `f` with `m` as this thread's mode.
pub fn with_mode<T>(m: Mode, f: impl FnOnce() -> T) -> T {
    let old = FORCED.with(|c| c.replace(Some(m)));
    struct Reset(Option<Mode>);
    impl Drop for Reset {
        fn drop(&mut self) {
            FORCED.with(|c| c.set(self.0));
        }
    }
    let _reset = Reset(old);
    f()
}

/// The compiled width for a wave of `w` lanes: the power of two at or above it, 4 to 128.
pub fn width_for(w: usize) -> usize {
    w.clamp(4, 128).next_power_of_two()
}

/// A program's compiled code, one per width, made on first use (by the first thread that
/// needs it; the others wait for it) and kept with the program.
#[derive(Default)]
pub struct Cache {
    by_width: [OnceLock<Option<Arc<Code>>>; 6],
}

impl Clone for Cache {
    /// A copy of a program compiles again (the code memory is not shared).
    fn clone(&self) -> Self {
        Cache::default()
    }
}

impl core::fmt::Debug for Cache {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let widths: Vec<usize> = (0..6).filter(|&i| self.by_width[i].get().is_some()).map(|i| 4 << i).collect();
        write!(f, "jit::Cache {widths:?}")
    }
}

impl Cache {
    /// The code of `p` for waves of `width` lanes (a [`width_for`] value), compiled on first
    /// use; `None` when the JIT cannot compile it (warned once).
    pub fn get<'a>(&'a self, p: &Program, width: usize) -> Option<&'a Code> {
        let i = (width.trailing_zeros() as usize).checked_sub(2).filter(|&i| i < 6 && width.is_power_of_two())?;
        self.by_width[i]
            .get_or_init(|| match Code::compile(p, width) {
                Ok(c) => {
                    if log() {
                        eprintln!(
                            "rd3d12: jit {} (width {width}, {} slots): {} instructions native, {} through the interpreter {:?}, straight to the environment {:?}, {:.2} ms",
                            p.ir.name,
                            p.slots,
                            c.native,
                            c.called,
                            c.called_ops,
                            c.direct_ops,
                            c.compile_time.as_secs_f64() * 1e3
                        );
                        if log_ir() {
                            eprintln!("{}", p.ir);
                        }
                    }
                    Some(Arc::new(c))
                }
                Err(e) => {
                    warn_once(&p.ir.name, &e);
                    None
                }
            })
            .as_deref()
    }
}

fn warn_once(name: &str, why: &str) {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static SEEN: Mutex<Option<HashSet<String>>> = Mutex::new(None);
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if seen.get_or_insert_with(HashSet::new).insert(format!("{name}: {why}")) {
        eprintln!("rd3d12: the JIT cannot compile shader function {name} ({why}); it runs in the interpreter");
    }
}

/// `RD3D12_JIT_LOG=1`: a line per compiled program (what was native, compile time); `=2`:
/// with the program's IR.
fn log() -> bool {
    log_level() >= 1
}

fn log_ir() -> bool {
    log_level() >= 2
}

fn log_level() -> u32 {
    static LOG: OnceLock<u32> = OnceLock::new();
    *LOG.get_or_init(|| std::env::var("RD3D12_JIT_LOG").ok().and_then(|v| v.parse().ok()).unwrap_or(0))
}
