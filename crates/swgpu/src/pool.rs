//! The worker pool that the parallel parts of the software GPU run on (dispatches' thread
//! groups, a draw's screen tiles, large copies and clears): rayon's work-stealing pool, built
//! once per process.
//!
//! Its size is `RD3D12_THREADS` when that is a whole number ≥ 1, else
//! [`std::thread::available_parallelism`]. With one thread, work runs on the calling thread
//! in submission order, which is what the parallel paths must reproduce exactly.

use std::sync::OnceLock;

/// The number of workers: `RD3D12_THREADS` (≥ 1) or the machine's available parallelism.
pub fn threads() -> usize {
    static N: OnceLock<usize> = OnceLock::new();
    *N.get_or_init(|| {
        std::env::var("RD3D12_THREADS")
            .ok()
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|n| *n >= 1)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    })
}

/// The process's pool of [`threads`] workers (named `rd3d12-worker-N`). `None` when only one
/// thread is wanted, or when the pool could not be built (the caller then runs the work itself,
/// in order: a missing pool slows rd3d12 down but never fails a call).
pub fn pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: OnceLock<Option<rayon::ThreadPool>> = OnceLock::new();
    POOL.get_or_init(|| {
        let n = threads();
        if n <= 1 {
            return None;
        }
        rayon::ThreadPoolBuilder::new().num_threads(n).thread_name(|i| format!("rd3d12-worker-{i}")).build().ok()
    })
    .as_ref()
}

/// Runs `f(i)` for every `i` in `0..n`, spread over the pool, and returns when all have run.
/// Without a pool (one thread) the calls run here, in order.
pub fn for_each(n: usize, f: impl Fn(usize) + Sync) {
    match pool() {
        Some(p) if n > 1 => p.scope(|s| {
            let f = &f;
            for i in 0..n {
                s.spawn(move |_| f(i));
            }
        }),
        _ => (0..n).for_each(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn for_each_runs_every_index_once() {
        let hits: Vec<AtomicUsize> = (0..1000).map(|_| AtomicUsize::new(0)).collect();
        for_each(hits.len(), |i| {
            hits[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        assert!(threads() >= 1);
    }
}
