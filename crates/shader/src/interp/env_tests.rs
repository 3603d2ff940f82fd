//! The wave interpreter through the per-lane [`Env`] interface, on Mesa's fixtures: one
//! invocation ([`run`]) and 2x2 quads ([`run_quad`]), with values worked out by hand.

use super::*;
use crate::dxil::Module;

type R<T> = Result<T, ExecError>;

/// A pixel or vertex of a test: inputs by (signature, component), outputs likewise.
#[derive(Default)]
struct Mock {
    inputs: Vec<((u32, u8), Val)>,
    outputs: Vec<((u32, u8), Val)>,
    cbuffers: Vec<(u32, Vec<[f32; 4]>)>,
    discarded: bool,
    samples: u32,
    grads: Vec<([f32; 3], [f32; 3])>,
}

impl Env for Mock {
    fn load_input(&mut self, sig: u32, _row: u32, col: u8, _v: Option<u32>) -> R<Val> {
        Ok(self.inputs.iter().find(|(k, _)| *k == (sig, col)).map_or(Val::Undef, |(_, v)| v.clone()))
    }
    fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> R<()> {
        self.outputs.push(((sig, col), value.clone()));
        Ok(())
    }
    fn create_handle(&mut self, class: u8, range: u32, _index: u32) -> R<u32> {
        Ok(u32::from(class) * 100 + range)
    }
    fn cbuffer_row(&mut self, handle: u32, row: u32) -> R<[u32; 4]> {
        let rows = self.cbuffers.iter().find(|(h, _)| *h == handle).map(|(_, r)| r);
        Ok(rows.and_then(|r| r.get(row as usize)).map_or([0; 4], |r| r.map(f32::to_bits)))
    }
    fn sample(
        &mut self,
        t: u32,
        s: u32,
        c: [f32; 4],
        _o: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> R<[f32; 4]> {
        assert_eq!((t, s), (0, 300), "the SRV and the sampler of range 0");
        assert_eq!(compare, None);
        let SampleMode::Grad { ddx, ddy, .. } = mode else { panic!("{mode:?}") };
        self.grads.push((ddx, ddy));
        self.samples += 1;
        Ok([c[0], c[1], c[0] + c[1], 1.0])
    }
    fn discard(&mut self) -> R<()> {
        self.discarded = true;
        Ok(())
    }
}

impl Mock {
    fn out(&self, sig: u32, col: u8) -> f32 {
        self.outputs.iter().rev().find(|(k, _)| *k == (sig, col)).map_or(f32::NAN, |(_, v)| match v {
            Val::F32(x) => *x,
            Val::Int(i) => f32::from_bits(*i as u32),
            _ => f32::NAN,
        })
    }
}

fn module(name: &str) -> Module {
    let bytes = match name {
        "textured.ps" => {
            &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil"))[..]
        }
        "textured.vs" => {
            &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil"))[..]
        }
        "loop.ps" => {
            &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/loop.ps.dxil"))[..]
        }
        _ => &include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/loop.vs.dxil"))[..],
    };
    crate::dxil::parse(bytes).expect("fixture parses").module
}

fn run_main(m: &Module, env: &mut Mock) {
    let f = m.function("main").expect("main");
    run(m, f, env).expect("runs");
}

#[test]
fn textured_pixel_shader_samples_and_multiplies_by_the_tint() {
    // o = texture(tex, v_uv) * tint, with the mock texture returning (u, v, u + v, 1).
    let m = module("textured.ps");
    let mut env = Mock {
        inputs: vec![((0, 0), Val::F32(0.25)), ((0, 1), Val::F32(0.5))],
        cbuffers: vec![(200, vec![[2.0, 4.0, 0.5, 0.25]])],
        ..Mock::default()
    };
    run_main(&m, &mut env);
    assert_eq!(env.samples, 1);
    assert_eq!([env.out(0, 0), env.out(0, 1), env.out(0, 2), env.out(0, 3)], [0.5, 2.0, 0.375, 0.25]);
}

#[test]
fn a_quad_samples_with_the_differences_of_its_coordinates() {
    // The four pixels of a quad with v_uv = (0.25 + 0.125 dx, 0.5 + 0.0625 dy): each lane's
    // sample sees ddx = (0.125, 0, 0) and ddy = (0, 0.0625, 0); alone, a pixel sees zeros.
    let m = module("textured.ps");
    let f = m.function("main").unwrap();
    let mut envs: Vec<Mock> = (0..4)
        .map(|i| {
            let (dx, dy) = ((i % 2) as f32, (i / 2) as f32);
            Mock {
                inputs: vec![((0, 0), Val::F32(0.25 + 0.125 * dx)), ((0, 1), Val::F32(0.5 + 0.0625 * dy))],
                cbuffers: vec![(200, vec![[1.0; 4]])],
                ..Mock::default()
            }
        })
        .collect();
    let [a, b, c, d] = &mut envs[..] else { unreachable!() };
    run_quad(&m, f, [a, b, c, d]).unwrap();
    for (i, e) in envs.iter().enumerate() {
        assert_eq!(e.grads, [([0.125, 0.0, 0.0], [0.0, 0.0625, 0.0])], "lane {i}");
        assert_eq!(e.out(0, 0), 0.25 + 0.125 * (i % 2) as f32, "each lane keeps its own values");
    }
    let mut alone = Mock { inputs: envs[0].inputs.clone(), cbuffers: envs[0].cbuffers.clone(), ..Mock::default() };
    run(&m, f, &mut alone).unwrap();
    assert_eq!(alone.grads, [([0.0; 3], [0.0; 3])]);
}

#[test]
fn a_quad_whose_lanes_diverge_finishes_each_lane() {
    // loop.ps iterates int(x) % 7 times: x = 0.5, 1.5, 2.5, 3.5 branch apart after the first
    // iteration; every lane still gets its own GLSL result.
    let m = module("loop.ps");
    let f = m.function("main").unwrap();
    let t = 0.3f32;
    let mut envs: Vec<Mock> = (0..4)
        .map(|i| Mock {
            inputs: vec![((0, 0), Val::F32(i as f32 + 0.5))],
            cbuffers: vec![(200, vec![[t, 0.0, 0.0, 0.0]])],
            ..Mock::default()
        })
        .collect();
    let [a, b, c, d] = &mut envs[..] else { unreachable!() };
    run_quad(&m, f, [a, b, c, d]).unwrap();
    for (i, e) in envs.iter().enumerate() {
        let x = i as f32 + 0.5;
        let n = (x as i32) % 7;
        let want: f32 = (0..n).map(|k| (t * k as f32).sin()).sum();
        assert!((e.out(0, 0) - want).abs() < 1e-5, "lane {i}");
        assert!((e.out(0, 3) - n as f32).abs() < 1e-6);
    }
}

#[test]
fn extracts_and_bitcasts_of_dx_op_results_are_written_by_the_call() {
    // textured.ps extracts the 4 lanes of a sample and of a cbuffer row, and bitcasts the
    // cbuffer's i32 lanes to float: the two calls write all of these slots themselves.
    let m = module("textured.ps");
    let f = m.function("main").unwrap();
    let p = program(&m, f).expect("lowers");
    let ops: Vec<&crate::ir::Op> = p.blocks.iter().flat_map(|b| &b.insts).map(|i| &i.op).collect();
    // 3 handles, 2 inputs, the sample, the row, 4 products, 4 outputs: nothing else runs.
    assert_eq!(ops.len(), 15, "{ops:?}");
    assert!(!ops
        .iter()
        .any(|o| matches!(o, crate::ir::Op::Extract(_) | crate::ir::Op::Copy | crate::ir::Op::Cast(..))));
}

#[test]
fn textured_vertex_shader_transforms_by_the_matrix() {
    // gl_Position = mvp * pos with Mesa's GL-to-D3D fix-ups: z' = (z + w) / 2 and y scaled by
    // the second cbuffer's first value (its y flip); v_uv = uv.
    let m = module("textured.vs");
    let mut env = Mock::default();
    let pos = [1.0f32, 2.0, 3.0, 1.0];
    env.inputs = (0..4u8).map(|c| ((0, c), Val::F32(pos[c as usize]))).collect();
    env.inputs.push(((1, 0), Val::F32(0.125)));
    env.inputs.push(((1, 1), Val::F32(0.875)));
    // Column-major mvp: column k is cbuffer row k.
    let cols = [[1.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 1.0, 1.0], [5.0, 6.0, 7.0, 1.0]];
    env.cbuffers = vec![(200, cols.to_vec()), (201, vec![[-1.0, 0.0, 0.0, 0.0]])];
    run_main(&m, &mut env);
    // clip = (1 + 5, 4 + 6, 3 + 7, 3 + 1) = (6, 10, 10, 4).
    let p = [env.out(1, 0), env.out(1, 1), env.out(1, 2), env.out(1, 3)];
    assert_eq!(p, [6.0, -10.0, 7.0, 4.0]);
    assert_eq!([env.out(0, 0), env.out(0, 1)], [0.125, 0.875]);
}

#[test]
fn loop_shader_runs_its_loop_and_discards() {
    let m = module("loop.ps");
    let t = 0.7f32;
    for x in [0.5f32, 1.5, 3.5, 6.5, 13.5] {
        let mut env = Mock {
            inputs: vec![((0, 0), Val::F32(x))],
            cbuffers: vec![(200, vec![[t, 0.0, 0.0, 0.0]])],
            ..Mock::default()
        };
        run_main(&m, &mut env);
        // The GLSL, in Rust: i = int(x) % 7; c += (sin(t k), cos(x), 0.5, 1) for k < i.
        let i = (x as i32) % 7;
        let mut c = [0.0f32; 4];
        for k in 0..i {
            c[0] += (t * k as f32).sin();
            c[1] += x.cos();
            c[2] += 0.5;
            c[3] += 1.0;
        }
        assert_eq!(env.discarded, c[0] > 0.5, "x = {x}");
        for (k, want) in c.iter().enumerate() {
            assert!(
                (env.out(0, k as u8) - want).abs() < 1e-5,
                "x = {x} component {k}: {} vs {want}",
                env.out(0, k as u8)
            );
        }
    }
}

#[test]
fn passthrough_vertex_shader() {
    let m = module("loop.vs");
    let mut env = Mock { inputs: (0..4u8).map(|c| ((0, c), Val::F32(c as f32 + 0.5))).collect(), ..Mock::default() };
    run_main(&m, &mut env);
    assert!(!env.outputs.is_empty());
}

#[test]
fn bitfield_ops_match_dxbc() {
    // Evaluate the bitfield formulas as the interpreter does (ubfe / ibfe / bfi).
    fn ubfe(w: u32, o: u32, v: u32) -> u32 {
        if w == 0 {
            0
        } else if w + o < 32 {
            (v << (32 - (w + o))) >> (32 - w)
        } else {
            v >> o
        }
    }
    assert_eq!(ubfe(4, 4, 0xABCD), 0xC);
    assert_eq!(ubfe(0, 4, 0xABCD), 0);
    assert_eq!(ubfe(8, 28, 0xF000_0000), 0xF);
}
