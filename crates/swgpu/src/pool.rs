//! The worker pool that the parallel parts of the software GPU run on (dispatches' thread
//! groups, a draw's screen tiles, large copies and clears): rayon's work-stealing pool, built
//! once per process.
//!
//! Its size is `RD3D12_THREADS` when that is a whole number ≥ 1, else
//! [`std::thread::available_parallelism`]. With one thread, work runs on the calling thread
//! in submission order, which is what the parallel paths must reproduce exactly.
//!
//! Work is handed out as indices `0..n` that the workers claim one at a time in increasing
//! order ([`Claim`]): index `i` starts only after every lower index has started. A caller that
//! stops at its first failure can so report the same failure as the one-thread order does
//! (see [`crate::compute::dispatch`]). The thread count is a parameter of [`workers`] and
//! [`for_each_with`], so that tests and benchmarks compare pool sizes in one process (the
//! environment variable is read once).

use std::sync::atomic::{AtomicUsize, Ordering};
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

/// The indices `0..n` of one [`workers`] call, claimed in increasing order.
pub struct Claim {
    next: AtomicUsize,
    n: usize,
}

impl Claim {
    /// The lowest index no worker has claimed yet, now this worker's; `None` when all are.
    pub fn next(&self) -> Option<usize> {
        // Relaxed: the counter only hands out distinct indices; the work's own results are
        // published by the end of the pool's scope (or the thread's join).
        let i = self.next.fetch_add(1, Ordering::Relaxed);
        (i < self.n).then_some(i)
    }
}

/// Runs `worker` on up to `threads` workers at once, which share the claim of the indices
/// `0..n` (each worker loops on [`Claim::next`]), and returns when every worker has returned.
/// The calling thread is one of the workers: with `threads` ≤ 1 or `n` ≤ 1 it is the only
/// one, and so takes the indices in order. The others come from the process's [`pool`] or,
/// when it has none (`RD3D12_THREADS=1` while a test asks for more), are scoped threads of
/// their own. (The caller working too saves a wake-up, and keeps the work going while a
/// worker waits for a core that another process holds.) A panic of a worker is resumed here
/// once every worker has ended.
pub fn workers(threads: usize, n: usize, worker: impl Fn(&Claim) + Sync) {
    let claim = Claim { next: AtomicUsize::new(0), n };
    let k = threads.min(n);
    if k <= 1 {
        return worker(&claim);
    }
    let (worker, claim) = (&worker, &claim);
    match pool() {
        Some(p) => p.in_place_scope(|s| {
            for _ in 1..k {
                s.spawn(move |_| worker(claim));
            }
            worker(claim);
        }),
        None => std::thread::scope(|s| {
            for _ in 1..k {
                s.spawn(move || worker(claim));
            }
            worker(claim);
        }),
    }
}

/// The failure of the lowest index among work items that fail, whichever worker meets it
/// first. Since [`Claim`] hands out indices in increasing order, when item k fails every lower
/// item has started: a worker that stops claiming once [`Lowest::passed`] says so leaves the
/// result the one the one-thread order stops at (when failures depend only on the item).
pub struct Lowest<E> {
    at: AtomicUsize,
    first: std::sync::Mutex<Option<(usize, E)>>,
}

impl<E> Default for Lowest<E> {
    fn default() -> Self {
        Lowest { at: AtomicUsize::new(usize::MAX), first: std::sync::Mutex::new(None) }
    }
}

impl<E> Lowest<E> {
    /// Whether item `i` comes after a failed one (the worker can stop: later claims are higher).
    pub fn passed(&self, i: usize) -> bool {
        i > self.at.load(Ordering::Relaxed)
    }

    /// Notes that item `i` failed with `e`; the lowest item's failure is kept.
    pub fn fail(&self, i: usize, e: E) {
        self.at.fetch_min(i, Ordering::Relaxed);
        let mut f = self.first.lock().unwrap_or_else(|p| p.into_inner());
        if f.as_ref().is_none_or(|(at, _)| i < *at) {
            *f = Some((i, e));
        }
    }

    /// The lowest failure, if any.
    pub fn into_result(self) -> Result<(), E> {
        match self.first.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some((_, e)) => Err(e),
            None => Ok(()),
        }
    }
}

/// Runs `f(i)` for every `i` in `0..n` on up to `threads` workers ([`workers`]), and returns
/// when all have run. With one thread the calls run here, in order.
pub fn for_each_with(threads: usize, n: usize, f: impl Fn(usize) + Sync) {
    workers(threads, n, |claim| {
        while let Some(i) = claim.next() {
            f(i);
        }
    })
}

/// [`for_each_with`] on the process's [`threads`].
pub fn for_each(n: usize, f: impl Fn(usize) + Sync) {
    for_each_with(threads(), n, f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;

    #[test]
    fn for_each_runs_every_index_once() {
        for t in [1, 2, 3, 8] {
            let hits: Vec<AtomicUsize> = (0..1000).map(|_| AtomicUsize::new(0)).collect();
            for_each_with(t, hits.len(), |i| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1), "{t} threads");
        }
        let hits: Vec<AtomicUsize> = (0..10).map(|_| AtomicUsize::new(0)).collect();
        for_each(hits.len(), |i| {
            hits[i].fetch_add(1, Ordering::Relaxed);
        });
        assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        assert!(threads() >= 1);
    }

    #[test]
    fn one_thread_runs_in_order_on_the_calling_thread() {
        let me = std::thread::current().id();
        let seen = Mutex::new(Vec::new());
        for_each_with(1, 100, |i| {
            assert_eq!(std::thread::current().id(), me);
            seen.lock().unwrap().push(i);
        });
        assert_eq!(*seen.lock().unwrap(), (0..100).collect::<Vec<_>>());
    }

    #[test]
    fn indices_start_in_increasing_order_on_every_worker() {
        // Each worker sees its indices increase, and no index is claimed before a lower one:
        // the order of claims, recorded under a lock, is 0, 1, 2, ...
        let order = Mutex::new(Vec::new());
        workers(4, 500, |claim| {
            let mut last = None;
            loop {
                let mut o = order.lock().unwrap();
                let Some(i) = claim.next() else { break };
                o.push(i);
                drop(o);
                assert!(last < Some(i));
                last = Some(i);
            }
        });
        assert_eq!(*order.lock().unwrap(), (0..500).collect::<Vec<_>>());
    }

    #[test]
    fn the_lowest_failure_wins_whatever_the_thread_count() {
        // Items 37, 80 and 300 fail; every run stops at 37, as one thread in order does.
        for t in [1, 2, 3, 8] {
            for _ in 0..20 {
                let lowest = Lowest::default();
                workers(t, 500, |claim| {
                    while let Some(i) = claim.next() {
                        if lowest.passed(i) {
                            break;
                        }
                        if [300, 80, 37].contains(&i) {
                            lowest.fail(i, format!("item {i}"));
                        }
                    }
                });
                assert_eq!(lowest.into_result(), Err("item 37".to_string()), "{t} threads");
            }
        }
        assert_eq!(Lowest::<()>::default().into_result(), Ok(()));
    }

    #[test]
    fn two_workers_share_work_that_waits() {
        // 20 items on two workers, each item waiting (up to 10 s) until a second thread has
        // taken one: both take items (the caller and a pool or scoped thread). No timing is
        // asserted: on a loaded machine the second worker may start late, not never.
        let ids = Mutex::new(std::collections::HashSet::new());
        for_each_with(2, 20, |_| {
            ids.lock().unwrap().insert(std::thread::current().id());
            let until = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while ids.lock().unwrap().len() < 2 && std::time::Instant::now() < until {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        });
        assert_eq!(ids.lock().unwrap().len(), 2);
    }

    #[test]
    fn more_threads_than_the_pool_still_finish() {
        // Two threads asked for, whatever RD3D12_THREADS made the pool: both workers run.
        let ran = AtomicUsize::new(0);
        workers(2, 2, |claim| {
            ran.fetch_add(1, Ordering::Relaxed);
            while claim.next().is_some() {}
        });
        assert_eq!(ran.load(Ordering::Relaxed), 2);
    }
}
