//! How well a dispatch uses the cores: 64 thread groups of compute fixtures run on one worker
//! and on two ([`rd3d12_swgpu::compute::dispatch_on`], the pool size injected, in the same
//! run), alternating, several rounds; prints each median time and the ratio two / one (issue
//! #20's target on a 2-core machine: at most 0.6). The results of both are checked equal. Then
//! the same on one worker under the interpreter alone and under the JIT, in turns (the JIT's
//! gain; results checked equal too).
//!
//! - `reduce`: reduce.cs.dxil, 64 threads a group summing through groupshared memory and barriers;
//! - `atomic`: atomic.cs.dxil, 32 threads a group appending through one InterlockedAdd counter;
//! - `spin`: spin.cs.dxil, one thread a group looping 2000 times (ALU only).
//!
//! `cargo run --release -p rd3d12-swgpu --example dispatch_speed [rounds] [threads]`

use rd3d12_shader::dxil::Program;
use rd3d12_swgpu::compute::dispatch_on;
use rd3d12_swgpu::draw::{Bindings, Class};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// Raw UAV buffers `u0`, `u1`, ... of 32-bit words, shared lock-free by the workers, and one
/// constant buffer row.
struct Words {
    uavs: Vec<Vec<AtomicU32>>,
    cb: [u32; 4],
}

impl Words {
    fn new(uavs: Vec<Vec<u32>>, cb: [u32; 4]) -> Self {
        Words { uavs: uavs.into_iter().map(|b| b.into_iter().map(AtomicU32::new).collect()).collect(), cb }
    }
    fn cell(&self, reg: u32, byte: u32) -> Option<&AtomicU32> {
        self.uavs.get(reg as usize)?.get((byte / 4) as usize)
    }
    fn snapshot(&self) -> Vec<Vec<u32>> {
        self.uavs.iter().map(|b| b.iter().map(|w| w.load(Ordering::Relaxed)).collect()).collect()
    }
}

impl Bindings for Words {
    fn cbuffer_row(&self, _: u32, _: u32, row: u32) -> [u32; 4] {
        if row == 0 {
            self.cb
        } else {
            [0; 4]
        }
    }
    fn buffer_load(&self, _: Class, b: (u32, u32), _: u32, index: u32, _: u32) -> [u32; 4] {
        std::array::from_fn(|k| self.cell(b.1, index + 4 * k as u32).map_or(0, |w| w.load(Ordering::Relaxed)))
    }
    fn buffer_store(&self, b: (u32, u32), _: u32, index: u32, _: u32, value: [u32; 4], mask: u8) {
        for (k, v) in value.iter().enumerate() {
            if let Some(w) = self.cell(b.1, index + 4 * k as u32).filter(|_| mask & (1 << k) != 0) {
                w.store(*v, Ordering::Relaxed);
            }
        }
    }
    fn atomic(&self, b: (u32, u32), _op: u32, c: [i32; 3], value: u32) -> u32 {
        self.cell(b.1, c[0] as u32).map_or(0, |w| w.fetch_add(value, Ordering::SeqCst))
    }
}

fn fixture(name: &str) -> Program {
    let path = format!("{}/../../tests/fixtures/dxil/{name}", env!("CARGO_MANIFEST_DIR"));
    rd3d12_shader::dxil::parse(&std::fs::read(path).expect("fixture")).expect("parses")
}

/// One dispatch of 64 groups on `threads` workers over fresh buffers: its time and what it
/// left in the buffers (sorted for `atomic`, whose slots depend on the order of the adds).
fn run(name: &str, p: &Program, threads: usize) -> (Duration, Vec<Vec<u32>>) {
    let b = match name {
        "reduce" => Words::new(vec![(0..64 * 64).collect(), vec![0; 64]], [0; 4]),
        "atomic" => Words::new(vec![vec![0; 1 + 64 * 32]], [100, 0, 0, 0]),
        _ => Words::new(vec![vec![2000, 0]], [0; 4]),
    };
    let start = Instant::now();
    dispatch_on(threads, p, &p.dx.entry_points[0], [64, 1, 1], &b).expect("runs");
    let t = start.elapsed();
    let mut out = b.snapshot();
    if name == "atomic" {
        out[0][1..].sort_unstable();
    }
    (t, out)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(9);
    let many: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    println!("64 groups per dispatch, {rounds} rounds, 1 worker vs {many} (pool of {})", rd3d12_swgpu::pool::threads());
    for (name, file) in [("reduce", "reduce.cs.dxil"), ("atomic", "atomic.cs.dxil"), ("spin", "spin.cs.dxil")] {
        let p = fixture(file);
        let (mut one, mut two) = (Vec::new(), Vec::new());
        run(name, &p, many); // warm-up: the pool's threads, the decoded function
        for _ in 0..rounds {
            let (a, ra) = run(name, &p, 1);
            let (b, rb) = run(name, &p, many);
            assert_eq!(ra, rb, "{name}: {many} workers differ from one");
            one.push(a);
            two.push(b);
        }
        let (a, b) = (median(one), median(two));
        println!(
            "{name:>7}: 1 worker {:8.3} ms, {many} workers {:8.3} ms, ratio {:.3}",
            a.as_secs_f64() * 1e3,
            b.as_secs_f64() * 1e3,
            b.as_secs_f64() / a.as_secs_f64()
        );
        // The interpreter alone against the default (the JIT), one worker, in turns.
        use rd3d12_shader::jit::{set_process_mode, Mode};
        let (mut jit, mut interp) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            set_process_mode(Some(Mode::Interp));
            let (i, ri) = run(name, &p, 1);
            set_process_mode(Some(Mode::Jit));
            let (j, rj) = run(name, &p, 1);
            assert_eq!(ri, rj, "{name}: the JIT differs from the interpreter");
            interp.push(i);
            jit.push(j);
        }
        set_process_mode(None);
        let (i, j) = (median(interp), median(jit));
        println!(
            "{name:>7}: 1 worker, interpreter {:8.3} ms, JIT {:8.3} ms: the JIT {:.2}x as fast",
            i.as_secs_f64() * 1e3,
            j.as_secs_f64() * 1e3,
            i.as_secs_f64() / j.as_secs_f64()
        );
    }
}
