//! How fast the DXIL interpreter runs on its own: Mesa's textured pixel shader, with an
//! environment that does next to nothing, run alone and as 2x2 quads; reports nanoseconds per
//! invocation.
//!
//! `cargo run --release -p rd3d12-core --example exec_speed`

use rd3d12_shader::dxil::exec::{self, Env, ExecError, SampleMode, Val};
use std::time::Instant;

struct Nothing;

impl Env for Nothing {
    fn load_input(&mut self, _: u32, _: u32, col: u8, _: Option<u32>) -> Result<Val, ExecError> {
        Ok(Val::F32(f32::from(col)))
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

fn main() {
    let ps = rd3d12_shader::dxil::parse(include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/dxil/textured.ps.dxil"
    )))
    .expect("ps");
    let f = ps.module.function("main").expect("main");
    let n = 200_000;
    let t = Instant::now();
    for _ in 0..n {
        exec::run(&ps.module, f, &mut Nothing).expect("runs");
    }
    println!("run: {:.1} ns/invocation", t.elapsed().as_secs_f64() * 1e9 / f64::from(n));
    let t = Instant::now();
    for _ in 0..n / 4 {
        let (mut a, mut b, mut c, mut d) = (Nothing, Nothing, Nothing, Nothing);
        exec::run_quad(&ps.module, f, [&mut a, &mut b, &mut c, &mut d]).expect("runs");
    }
    println!("run_quad: {:.1} ns/invocation", t.elapsed().as_secs_f64() * 1e9 / f64::from(n));
}
