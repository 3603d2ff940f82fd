//! The step budget and the deadline: how an invocation that never ends still ends (the CPU
//! backend's analog of the GPU timeout, TDR).

/// Steps one wave may take before [`super::ExecError::StepBudget`] (a block run counts its
/// instructions once for all its lanes): the end of work that never ends where no deadline
/// is set (a queue without a GPU timeout; with one, the deadline comes long before). 2^32:
/// tens of seconds of the JIT's code, minutes of the interpreter's; past 50 million steps,
/// the earlier budget, ordinary long shaders ran under the JIT in a tenth of a second.
#[cfg(not(fuzzing))]
pub const STEP_BUDGET: u64 = 1 << 32;
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
/// still running when it passes stops with [`super::ExecError::Timeout`]. `None` sets no deadline.
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
