//! A pixel shader's quads through a whole draw: DXC's `ps_derivatives.ps.dxil` (fine and coarse
//! derivatives, fwidth, QuadReadAcrossX/Y/Diagonal of `f = px² + 3 py` and the pixel
//! coordinates; its HLSL header works out every value) drawn into two 8x8 RGBA32F targets by
//! Mesa's `quad.vs.dxil`. The fragment stage runs up to eight quads as one wave, so these
//! check that each quad's lanes read only their own quad, with helper lanes (pixels of a quad
//! outside the triangle) taking part in derivatives and quad reads but writing nothing.

mod common;

use rd3d12_swgpu::draw::{draw, Bindings, Bytes, Target, Workers};
use rd3d12_sys as sys;

struct Nothing;
impl Bindings for Nothing {}

fn fixture(name: &str) -> rd3d12_shader::dxil::Program {
    let path = format!("{}/../../tests/fixtures/dxil/{name}", env!("CARGO_MANIFEST_DIR"));
    rd3d12_shader::dxil::parse(&std::fs::read(path).unwrap()).unwrap()
}

const W: u32 = 8;

/// Draws the triangle `tri` (clip-space x, y) over the 8x8 targets; returns both targets as
/// 64 pixels of 4 floats (NaN where nothing was written).
fn run(tri: [[f32; 2]; 3], workers: Workers) -> [Vec<[f32; 4]>; 2] {
    let (vs, ps) = (common::quad::vs(), fixture("ps_derivatives.ps.dxil"));
    let p = common::quad::pipeline(&vs, 2);
    let vb = common::quad::vertices(&tri);
    let call = common::quad::call(&vs, &ps, &p, &vb, W as f32, workers);
    let nan: Vec<u8> = (0..W * W * 4).flat_map(|_| f32::NAN.to_le_bytes()).collect();
    let rts = [Bytes::new(&nan), Bytes::new(&nan)];
    let target = |b| Target {
        data: b,
        row_pitch: (W * 16) as usize,
        width: W,
        height: W,
        format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        sample_stride: 0,
        layers: 1,
        layer_stride: 0,
    };
    let mut targets = [Some(target(&rts[0])), Some(target(&rts[1]))];
    draw(&call, &Nothing, &Nothing, &Nothing, &mut targets, None, &mut []).expect("draws");
    let pixels = |b: &Bytes| {
        let v = b.to_vec();
        (0..(W * W) as usize)
            .map(|i| {
                std::array::from_fn(|c| f32::from_le_bytes(v[i * 16 + c * 4..i * 16 + c * 4 + 4].try_into().unwrap()))
            })
            .collect()
    };
    [pixels(&rts[0]), pixels(&rts[1])]
}

/// The HLSL header's values at pixel (px, py).
fn want(px: u32, py: u32) -> [[f32; 4]; 2] {
    let a = (px / 2) as f32;
    [
        [4.0 * a + 1.0, 3.0, 4.0 * a + 1.0, 3.0],
        [4.0 * a + 4.0, (px ^ 1) as f32, (py ^ 1) as f32, ((px ^ 1) + 8 * (py ^ 1)) as f32],
    ]
}

#[test]
fn every_quad_of_a_full_screen_triangle_reads_only_its_own_lanes() {
    let [rt0, rt1] = run([[-1.0, -1.0], [-1.0, 3.0], [3.0, -1.0]], Workers::serial());
    for py in 0..W {
        for px in 0..W {
            let i = (py * W + px) as usize;
            assert_eq!([rt0[i], rt1[i]], want(px, py), "pixel ({px}, {py})");
        }
    }
}

/// A triangle whose edge crosses quads: the covered pixels get the same values (their quads'
/// helper lanes computed `f` at their own pixels), the others keep the targets' NaN.
#[test]
fn helper_lanes_feed_derivatives_and_quad_reads_but_write_nothing() {
    // Clip-space corners (-1, 1) top-left, (1, 1) top-right, (-1, -1) bottom-left: the pixels
    // whose centres lie above the anti-diagonal px + py < 7 (on screen, y down).
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    // One thread, and two workers over 4x4-pixel tiles (quads never straddle a tile).
    for workers in [Workers::serial(), Workers { pool: Some(&pool), tile: 4 }] {
        let [rt0, rt1] = run([[-1.0, 1.0], [1.0, 1.0], [-1.0, -1.0]], workers);
        let mut partial = 0;
        for py in 0..W {
            for px in 0..W {
                let i = (py * W + px) as usize;
                let covered = px + py < 7;
                if covered {
                    assert_eq!([rt0[i], rt1[i]], want(px, py), "pixel ({px}, {py})");
                    let (qx, qy) = (px & !1, py & !1);
                    partial += usize::from((qx + 1) + (qy + 1) >= 7);
                } else {
                    assert!(
                        rt0[i].iter().chain(&rt1[i]).all(|x| x.is_nan()),
                        "pixel ({px}, {py}) written: {:?}",
                        rt0[i]
                    );
                }
            }
        }
        assert!(partial >= 4, "the edge crosses quads ({partial} covered pixels with helpers beside them)");
    }
}
