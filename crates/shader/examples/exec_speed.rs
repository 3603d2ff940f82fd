//! How fast the shader interpreter runs on its own: Mesa's textured pixel shader, with an
//! environment that does next to nothing, as waves of one lane, a quad, and waves of 8, 16 and
//! 32 lanes over one `Env` per lane, and waves of 8 and 32 over one `WaveEnv` (as the pipeline
//! stages run them), in the same run; reports nanoseconds per invocation. `cargo xtask speed`
//! compares it with the interpreter of an older revision (issue #20's baseline).
//!
//! The WaveEnv waves also run under the interpreter alone (the JIT's gain, same run).
//!
//! `cargo run --release -p rd3d12-shader --example exec_speed [FIXTURE]` (`textured.ps` by
//! default; `EXEC_SPEED_PROFILE=W` runs only waves of W lanes, `eW` the same over one `WaveEnv`,
//! for a profiler; `EXEC_SPEED_N` invocations per measurement, 100000 by default)

use rd3d12_shader::interp::{self, env::lanes, env::SampleReq, Env, ExecError, Mask, SampleMode, Val, WaveEnv};
use rd3d12_shader::ir::Scalar;

type R<T> = Result<T, ExecError>;
use std::time::Instant;

struct Nothing;

impl Env for Nothing {
    fn load_input(&mut self, _: u32, _: u32, col: u8, _: Option<u32>) -> Result<Val, ExecError> {
        // 5.5 + col: loop.ps then runs its loop 5 times.
        Ok(Val::F32(5.5 + f32::from(col)))
    }
    fn store_output(&mut self, _: u32, _: u32, _: u8, v: &Val) -> Result<(), ExecError> {
        std::hint::black_box(v);
        Ok(())
    }
    fn create_handle(&mut self, class: u8, range: u32, _: u32) -> Result<u32, ExecError> {
        Ok(u32::from(class) * 10 + range)
    }
    fn cbuffer_row(&mut self, _: u32, _: u32) -> Result<[u32; 4], ExecError> {
        Ok([1.0f32.to_bits(); 4])
    }
    fn sample(
        &mut self,
        _: u32,
        _: u32,
        c: [f32; 4],
        _: [i32; 3],
        _: SampleMode,
        _: Option<f32>,
    ) -> Result<[f32; 4], ExecError> {
        Ok(c)
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        Ok(())
    }
}

/// [`Nothing`] for a whole wave at once (the interface the pipeline stages implement).
struct NothingWave;

impl WaveEnv for NothingWave {
    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), _: Option<&[u64]>, _: Scalar, out: &mut [u64]) -> R<()> {
        let v = u64::from((5.5 + f32::from(at.2)).to_bits());
        for l in lanes(m) {
            out[l] = v;
        }
        Ok(())
    }
    fn store_output(&mut self, _: Mask, _: (u32, u32, u8), _: Scalar, v: &[u64]) -> R<()> {
        std::hint::black_box(v);
        Ok(())
    }
    fn create_handle(&mut self, m: Mask, class: u8, range: u32, _: u32, out: &mut [u32]) -> R<()> {
        for l in lanes(m) {
            out[l] = u32::from(class) * 10 + range;
        }
        Ok(())
    }
    fn cbuffer_row(&mut self, m: Mask, _: u32, _: u32, out: &mut [[u32; 4]]) -> R<()> {
        for l in lanes(m) {
            out[l] = [1.0f32.to_bits(); 4];
        }
        Ok(())
    }
    fn sample(&mut self, m: Mask, _: u32, _: u32, reqs: &[SampleReq], out: &mut [[f32; 4]]) -> R<()> {
        for l in lanes(m) {
            out[l] = reqs[l].coords;
        }
        Ok(())
    }
    fn discard(&mut self, _: Mask) -> R<()> {
        Ok(())
    }
}

/// Nanoseconds per invocation of `n` invocations run `per` at a time by `f`.
fn time(n: u32, per: u32, mut f: impl FnMut()) -> f64 {
    let t = Instant::now();
    for _ in 0..n / per {
        f();
    }
    t.elapsed().as_secs_f64() * 1e9 / f64::from(n)
}

fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "textured.ps".into());
    let path = format!("{}/../../tests/fixtures/dxil/{name}.dxil", env!("CARGO_MANIFEST_DIR"));
    let ps = rd3d12_shader::dxil::parse(&std::fs::read(&path).expect("fixture")).expect("ps");
    let (m, f) = (&ps.module, ps.module.function("main").expect("main"));
    let n: u32 = std::env::var("EXEC_SPEED_N").ok().and_then(|v| v.parse().ok()).unwrap_or(100_000);
    if let Some(w) = std::env::var("EXEC_SPEED_PROFILE").ok().and_then(|v| v.strip_prefix('e')?.parse::<u32>().ok()) {
        // Only waves of `w` lanes over one WaveEnv.
        let ns = time(n * 50, w, || interp::run_wave(m, f, &mut NothingWave, w as usize, w as usize).expect("runs"));
        println!("wave of {w}, WaveEnv: {ns:.1} ns per invocation");
        return;
    }
    if let Some(w) = std::env::var("EXEC_SPEED_PROFILE").ok().and_then(|v| v.parse::<u32>().ok()) {
        // Only waves of `w` lanes, long enough for `perf record`.
        let mut envs: Vec<Nothing> = (0..w).map(|_| Nothing).collect();
        let ns = time(n * 50, w, || {
            let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
            interp::run_quads(m, f, &mut refs).expect("runs")
        });
        println!("wave of {w}: {ns:.1} ns per invocation");
        return;
    }
    // The machine may be shared: every configuration runs in each of several rounds, and the
    // fastest round counts.
    let mut best = [f64::MAX; 7];
    // Waves of 8 and 32 over one WaveEnv under the interpreter alone (RD3D12_SHADER=interp),
    // in the same rounds: the JIT's gain.
    let mut interp_only = [f64::MAX; 2];
    for _ in 0..7 {
        for (k, w) in [8u32, 32].into_iter().enumerate() {
            let t = rd3d12_shader::jit::with_mode(rd3d12_shader::jit::Mode::Interp, || {
                time(n, w, || interp::run_wave(m, f, &mut NothingWave, w as usize, w as usize).expect("runs"))
            });
            interp_only[k] = interp_only[k].min(t);
        }
        let mut t = Vec::new();
        t.push(time(n, 1, || interp::run(m, f, &mut Nothing).expect("runs")));
        t.push(time(n, 4, || {
            let (mut a, mut b, mut c, mut d) = (Nothing, Nothing, Nothing, Nothing);
            interp::run_quad(m, f, [&mut a, &mut b, &mut c, &mut d]).expect("runs")
        }));
        for w in [8u32, 16, 32] {
            let mut envs: Vec<Nothing> = (0..w).map(|_| Nothing).collect();
            t.push(time(n, w, || {
                let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
                interp::run_quads(m, f, &mut refs).expect("runs")
            }));
        }
        for w in [8u32, 32] {
            t.push(time(n, w, || interp::run_wave(m, f, &mut NothingWave, w as usize, w as usize).expect("runs")));
        }
        for (b, t) in best.iter_mut().zip(t) {
            *b = b.min(t);
        }
    }
    let [one, quad, w8, w16, w32, e8, e32] = best;
    println!("{name}, ns per invocation (one core, best of 7 rounds):");
    println!("  wave of 1, Env:        {one:8.1}");
    println!("  wave of 4 (quad), Env: {quad:8.1}");
    for (w, ns) in [(8, w8), (16, w16), (32, w32)] {
        println!("  wave of {w:2}, Env:       {ns:8.1}");
    }
    for (w, ns) in [(8, e8), (32, e32)] {
        println!("  wave of {w:2}, WaveEnv:   {ns:8.1}");
    }
    for ((w, ns), i) in [(8, e8), (32, e32)].into_iter().zip(interp_only) {
        println!(
            "  wave of {w:2}, WaveEnv, interpreter only: {i:8.1} ({:.2}x the time of {:?})",
            i / ns,
            rd3d12_shader::jit::mode()
        );
    }
}
