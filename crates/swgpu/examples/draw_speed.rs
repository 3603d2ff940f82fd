//! How fast the software pipeline draws: a 256x256 RGBA8 target covered by a quad (two
//! triangles) of Mesa's textured shaders (vertex: matrix × position; pixel: sample × tint),
//! repeated; reports nanoseconds per pixel and per shader invocation, and the ratio to a
//! baseline measured in the same run: writing the same pixels' colors in a plain loop. The
//! draws run on one thread and on a pool of `threads` ([`Workers`]) by turns, `repeats` times;
//! medians are printed, with the median ratio of the pool's time to one thread's (the screen
//! tiles of issue #20's parallel draws: at most 0.6 with two threads on two cores) and how many
//! CPUs the pool's runs kept busy (time the process used / wall time: on a shared machine
//! whose other work takes the cores, the ratio says nothing).
//!
//! `cargo run --release -p rd3d12-swgpu --example draw_speed [draws] [threads] [repeats]`

use rd3d12_core::pipeline::{InputElement, PipelineDesc, PipelineKind};
use rd3d12_shader::interp::SampleMode;
use rd3d12_swgpu::draw::{draw, Bindings, Bytes, DrawCall, Shader, Target, Workers};
use rd3d12_swgpu::input_assembler::{Topology, VertexBuffer};
use rd3d12_swgpu::raster::Viewport;
use rd3d12_sys as sys;
use std::time::Instant;

struct Vs;
impl Bindings for Vs {
    fn cbuffer_row(&self, _space: u32, reg: u32, row: u32) -> [u32; 4] {
        let identity = [[1.0f32, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
        match reg {
            0 => identity.get(row as usize).copied().unwrap_or([0.0; 4]).map(f32::to_bits),
            _ => [1.0f32, 0.0, 0.0, 0.0].map(f32::to_bits),
        }
    }
}

struct Ps;
impl Bindings for Ps {
    fn cbuffer_row(&self, _: u32, _: u32, _: u32) -> [u32; 4] {
        [1.0f32; 4].map(f32::to_bits)
    }
    fn sample(
        &self,
        _: (u32, u32),
        _: (u32, u32),
        c: [f32; 4],
        _: [i32; 3],
        _: SampleMode,
        _: Option<f32>,
    ) -> [f32; 4] {
        [c[0], c[1], 0.5, 1.0]
    }
}

fn main() {
    let draws: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(20);
    let threads: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(2);
    let repeats: usize = std::env::args().nth(3).and_then(|a| a.parse().ok()).unwrap_or(7);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("a pool");
    let vs = rd3d12_shader::dxil::parse(include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/dxil/textured.vs.dxil"
    )))
    .expect("vs");
    let ps = rd3d12_shader::dxil::parse(include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/dxil/textured.ps.dxil"
    )))
    .expect("ps");
    let ins = &vs.dx.entry_points[0].inputs;
    let element = |i: usize, format: sys::DXGI_FORMAT, offset: u32| InputElement {
        semantic_name: Some(ins[i].name.clone()),
        semantic_index: ins[i].semantic_indices[0],
        format: format.0,
        input_slot: 0,
        aligned_byte_offset: offset,
        slot_class: 0,
        instance_step_rate: 0,
    };
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout =
        vec![element(0, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 0), element(1, sys::DXGI_FORMAT_R32G32_FLOAT, 16)];
    p.rasterizer.cull = 1;
    p.depth_stencil.depth_enable = false;
    let quad: [[f32; 6]; 4] = [
        [-1.0, 1.0, 0.0, 1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 1.0, 1.0, 0.0],
        [-1.0, -1.0, 0.0, 1.0, 0.0, 1.0],
        [1.0, -1.0, 0.0, 1.0, 1.0, 1.0],
    ];
    let vb: Vec<u8> = quad.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let (w, h) = (256u32, 256u32);
    let mut call = DrawCall {
        vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0], resources: &vs.dx.resources },
        tess: None,
        gs: None,
        ps: Some(Shader { module: &ps.module, entry: &ps.dx.entry_points[0], resources: &ps.dx.resources }),
        pipeline: &p,
        topology: Topology::TriangleList,
        vertices: vec![0, 1, 2, 2, 1, 3],
        cut: None,
        vertex_id_base: 0,
        instances: 1,
        start_instance: 0,
        vertex_buffers: vec![Some(VertexBuffer { data: &vb, stride: 24 })],
        viewports: vec![Viewport { x: 0.0, y: 0.0, width: w as f32, height: h as f32, min_depth: 0.0, max_depth: 1.0 }],
        scissors: Vec::new(),
        blend_factor: [0.0; 4],
        stencil_ref: 0,
        sample_positions: None,
        workers: Workers::serial(),
    };
    let rt = Bytes::new(&vec![0u8; (w * h * 4) as usize]);
    let mut pixels = 0u64;
    let mut invocations = 0u64;
    // (wall seconds, CPU seconds of the process) for `draws` draws.
    let mut time = |call: &DrawCall<'_>| {
        let (start, cpu) = (Instant::now(), cpu_seconds());
        (pixels, invocations) = (0, 0);
        for _ in 0..draws {
            let mut targets = [Some(Target {
                data: &rt,
                row_pitch: (w * 4) as usize,
                width: w,
                height: h,
                format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
                sample_stride: 0,
                layers: 1,
                layer_stride: 0,
            })];
            let s = draw(call, &Vs, &Vs, &Ps, &mut targets, None, &mut []).expect("draws");
            pixels += s.pixels_written;
            invocations += s.ps_invocations;
        }
        (start.elapsed().as_secs_f64(), cpu_seconds() - cpu)
    };
    // One thread and the pool by turns, so that a change of the machine's load hits both.
    let pooled = Workers { pool: Some(&pool), ..Workers::serial() };
    let (mut serial, mut parallel, mut ratios, mut busy) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..repeats {
        call.workers = Workers::serial();
        let one = time(&call);
        call.workers = pooled;
        let many = time(&call);
        serial.push(one.0);
        parallel.push(many.0);
        ratios.push(many.0 / one.0);
        busy.push(many.1 / many.0);
    }
    let t = median(&mut serial);
    let t_pool = median(&mut parallel);
    // Baseline: the same colors written by a plain loop.
    let mut base = vec![0u8; (w * h * 4) as usize];
    let b0 = Instant::now();
    for _ in 0..draws {
        for y in 0..h {
            for x in 0..w {
                let (u, v) = ((x as f32 + 0.5) / w as f32, (y as f32 + 0.5) / h as f32);
                let at = ((y * w + x) * 4) as usize;
                base[at..at + 4].copy_from_slice(&[(u * 255.0 + 0.5) as u8, (v * 255.0 + 0.5) as u8, 128, 255]);
            }
        }
    }
    let tb = b0.elapsed().as_secs_f64();
    std::hint::black_box(&base);
    println!("draws {draws} of {w}x{h}: {pixels} pixels, {invocations} pixel-shader invocations in {t:.3} s");
    println!("ns/pixel {:.1}", t * 1e9 / pixels as f64);
    println!("baseline (plain color loop) ns/pixel {:.2}", tb * 1e9 / pixels as f64);
    println!("ratio to baseline {:.0}", t / tb);
    println!(
        "{threads} threads: ns/pixel {:.1}, time ratio to 1 thread {:.2} (median of {repeats} pairs; CPUs busy {:.2})",
        t_pool * 1e9 / pixels as f64,
        median(&mut ratios),
        median(&mut busy)
    );
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The CPU time the process used so far (user + system, from /proc/self/stat; 0 where there is
/// none), to tell how many cores a run really had.
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name's closing parenthesis: utime and stime are the 12th and 13th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let ticks: f64 = rest.split_whitespace().skip(11).take(2).filter_map(|f| f.parse::<f64>().ok()).sum();
    ticks / 100.0
}
