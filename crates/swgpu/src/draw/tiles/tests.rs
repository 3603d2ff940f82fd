//! Draws split over screen tiles and workers give the bytes and counts of submission order (one
//! draw per primitive, one after the other), whatever the tile size and the number of workers;
//! every worker runs under the caller's GPU-timeout deadline.

use super::super::tests::{program, simple_call, textured_pipeline, vs_program, Lent, Vs, IDENTITY};
use super::super::{draw, Bindings, DepthStencilTarget, DrawStats, Plane, Target, Workers};
use crate::input_assembler::Topology;
use rd3d12_shader::interp::{self, SampleMode};
use rd3d12_sys as sys;
use std::sync::Mutex;
use std::thread::ThreadId;
use std::time::Instant;

const W: u32 = 90;
const H: u32 = 70;

/// The pixel stage: a tint of 1 and a "texture" of color (u, v, 0.5, u), so that alpha
/// blending shows; records the thread and deadline each sample ran under.
#[derive(Default)]
struct AlphaPs {
    seen: Mutex<Vec<(ThreadId, Option<Instant>)>>,
}

impl Bindings for AlphaPs {
    fn cbuffer_row(&self, _space: u32, _reg: u32, _row: u32) -> [u32; 4] {
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
        if let Ok(mut s) = self.seen.lock() {
            s.push((std::thread::current().id(), interp::current_deadline()));
        }
        [c[0], c[1], 0.5, c[0]]
    }
}

/// `n` triangles of a fixed pseudo-random set: (x, y, z, w) in clip space beyond the viewport
/// on every side, then uv in [0, 1].
fn triangles(n: usize) -> Vec<[f32; 6]> {
    let mut seed = 7u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
        (seed >> 8) as f32 / (1u32 << 24) as f32
    };
    (0..3 * n).map(|_| [next() * 2.6 - 1.3, next() * 2.6 - 1.3, next() * 1.8 - 0.9, 1.0, next(), next()]).collect()
}

/// One draw of `verts` as `topology` (`wireframe`: FILL_MODE_WIREFRAME) on `workers`, blended
/// (SRC_ALPHA, INV_SRC_ALPHA) with a LESS depth test into a D32 buffer cleared to 1.0: the
/// RGBA8 target's bytes, the depth bytes and the counts.
fn render(
    workers: Workers<'_>,
    topology: Topology,
    wireframe: bool,
    verts: &[[f32; 6]],
    ps: &AlphaPs,
) -> (Vec<u8>, Vec<u8>, DrawStats) {
    let mut rt = [64u8, 128, 192, 255].repeat((W * H) as usize);
    let mut depth = 1.0f32.to_le_bytes().repeat((W * H) as usize);
    let stats = render_into((&mut rt, &mut depth), workers, topology, wireframe, verts, ps);
    (rt, depth, stats)
}

/// [`render`] into given color and depth bytes.
fn render_into(
    (rt, depth): (&mut [u8], &mut [u8]),
    workers: Workers<'_>,
    topology: Topology,
    wireframe: bool,
    verts: &[[f32; 6]],
    ps: &AlphaPs,
) -> DrawStats {
    let vs = vs_program();
    let fs =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
    let p = textured_pipeline(&vs, |p| {
        let rt = &mut p.blend.rt[0];
        rt.blend_enable = true;
        (rt.src, rt.dest, rt.op) = (5, 6, 1);
        (rt.src_alpha, rt.dest_alpha, rt.op_alpha) = (2, 6, 1);
        p.depth_stencil.depth_enable = true;
        p.depth_stencil.write_mask = 1;
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_LESS.0;
        p.dsv_format = sys::DXGI_FORMAT_D32_FLOAT.0;
        p.num_render_targets = 1;
        if wireframe {
            p.rasterizer.fill = sys::D3D12_FILL_MODE_WIREFRAME.0;
        }
    });
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let mut call = simple_call((&vs, None, Some(&fs)), &p, topology, (0..verts.len() as u32).collect(), &vb, (W, H));
    call.workers = workers;
    {
        let (lent_rt, lent_depth) = (Lent::new(rt), Lent::new(depth));
        let mut targets = [Some(Target {
            data: &lent_rt,
            row_pitch: W as usize * 4,
            width: W,
            height: H,
            format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
            sample_stride: 0,
            layers: 1,
            layer_stride: 0,
        })];
        let mut ds = DepthStencilTarget {
            format: sys::DXGI_FORMAT_D32_FLOAT,
            width: W,
            height: H,
            depth: Plane { data: &lent_depth, row_pitch: W as usize * 4, sample_stride: 0, layers: 1, layer_stride: 0 },
            stencil: None,
            read_only_depth: false,
            read_only_stencil: false,
        };
        draw(
            &call,
            &Vs { mvp_cols: IDENTITY, flip: 1.0 },
            &Vs { mvp_cols: IDENTITY, flip: 1.0 },
            ps,
            &mut targets,
            Some(&mut ds),
            &mut [],
        )
        .expect("draws")
    }
}

/// The reference: one draw per primitive, in order, each on one tile on this thread (what
/// submission order gives, whatever the tiles of one draw do), and the counts summed.
fn one_draw_per_primitive(topology: Topology, wireframe: bool, verts: &[[f32; 6]]) -> (Vec<u8>, Vec<u8>, DrawStats) {
    let n = match topology {
        Topology::PointList => 1,
        Topology::LineList => 2,
        _ => 3,
    };
    let mut rt = [64u8, 128, 192, 255].repeat((W * H) as usize);
    let mut depth = 1.0f32.to_le_bytes().repeat((W * H) as usize);
    let mut total = DrawStats::default();
    for prim in verts.chunks_exact(n) {
        let s = render_into((&mut rt, &mut depth), untiled(), topology, wireframe, prim, &AlphaPs::default());
        total.ia_vertices += s.ia_vertices;
        total.vertices_shaded += s.vertices_shaded;
        total.primitives += s.primitives;
        total.c_invocations += s.c_invocations;
        total.c_primitives += s.c_primitives;
        total.ps_invocations += s.ps_invocations;
        total.pixels_shaded += s.pixels_shaded;
        total.pixels_written += s.pixels_written;
        total.samples_passed += s.samples_passed;
    }
    (rt, depth, total)
}

/// One tile over everything, on the calling thread: the order of the untiled draw.
fn untiled() -> Workers<'static> {
    Workers { pool: None, tile: 1 << 20 }
}

fn pool(n: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(n).build().expect("a pool")
}

#[test]
fn tiles_on_any_number_of_workers_give_the_bytes_and_counts_of_submission_order() {
    let (two, three) = (pool(2), pool(3));
    let verts = triangles(40);
    for (topology, wireframe) in [
        (Topology::TriangleList, false),
        (Topology::TriangleList, true),
        (Topology::LineList, false),
        (Topology::PointList, false),
    ] {
        let (rt, depth, stats) = one_draw_per_primitive(topology, wireframe, &verts);
        // Not a trivial picture: much was drawn, and blended over earlier primitives.
        let changed = rt.chunks(4).filter(|px| px != &[64, 128, 192, 255]).count();
        assert!(changed > 40, "{topology:?} wireframe {wireframe}: {changed} pixels drawn");
        assert!(stats.samples_passed > 0 && stats.samples_passed <= stats.ps_invocations);
        for workers in [
            untiled(),
            Workers { pool: None, tile: 8 },
            Workers { pool: Some(&two), tile: 8 },
            Workers { pool: Some(&three), tile: 16 },
            Workers { pool: Some(&two), tile: 64 },
        ] {
            let tiles = workers.tile;
            let got = render(workers, topology, wireframe, &verts, &AlphaPs::default());
            assert!(got.0 == rt, "{topology:?} wireframe {wireframe}, tiles of {tiles}: color bytes differ");
            assert!(got.1 == depth, "{topology:?} wireframe {wireframe}, tiles of {tiles}: depth bytes differ");
            assert_eq!(got.2, stats, "{topology:?} wireframe {wireframe}, tiles of {tiles}");
        }
    }
}

#[test]
fn every_worker_runs_under_the_deadline_of_the_thread_that_draws() {
    let two = pool(2);
    let deadline = Instant::now() + std::time::Duration::from_secs(3600);
    let ps = AlphaPs::default();
    interp::with_deadline(Some(deadline), || {
        render(Workers { pool: Some(&two), tile: 8 }, Topology::TriangleList, false, &triangles(40), &ps)
    });
    let seen = ps.seen.lock().expect("samples");
    assert!(!seen.is_empty());
    assert!(seen.iter().all(|(_, d)| *d == Some(deadline)), "a worker ran without the draw's deadline");
    let here = std::thread::current().id();
    assert!(seen.iter().any(|(t, _)| *t != here), "the tiles ran on the pool's workers");
}

#[test]
fn a_pixel_shader_that_cannot_run_fails_the_draw_alike_on_every_number_of_workers() {
    let two = pool(2);
    let vs = vs_program();
    let mut fs =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
    fs.dx.entry_points[0].function = usize::MAX;
    let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
    let verts = triangles(10);
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let mut errors = Vec::new();
    for workers in [untiled(), Workers { pool: None, tile: 8 }, Workers { pool: Some(&two), tile: 8 }] {
        let mut call = simple_call((&vs, None, Some(&fs)), &p, Topology::TriangleList, (0..30).collect(), &vb, (W, H));
        call.workers = workers;
        let mut rt = vec![7u8; (W * H * 4) as usize];
        let result = {
            let lent = Lent::new(&mut rt);
            let mut targets = [Some(super::super::tests::rgba8(&lent, W, H))];
            let b = Vs { mvp_cols: IDENTITY, flip: 1.0 };
            draw(&call, &b, &b, &AlphaPs::default(), &mut targets, None, &mut []).map(|_| ())
        };
        assert!(rt.iter().all(|&b| b == 7), "nothing is drawn");
        errors.push(result);
    }
    assert!(errors[0].is_err());
    assert!(errors.iter().all(|e| *e == errors[0]), "{errors:?}");
}
