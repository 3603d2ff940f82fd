//! The rasterizer's runs of covered centers against testing every center of the box.

use super::*;
use rd3d12_core::multisample::standard_sample_positions;

/// A fragment's place, depth and weights: (x, y, depth, persp, linear).
type Seen = (i32, i32, f32, [f32; 3], [f32; 3]);

/// The fragments of a triangle as testing each pixel center of its box against the three edge
/// functions gives them (what the rasterizer did before it found each row's run by division):
/// (x, y, depth, persp, linear) in raster order.
fn each_center(tri: &[[f32; 4]; 3], st: &TriangleState) -> Vec<Seen> {
    let mut out = Vec::new();
    let Some((screen, _)) = setup_triangle(tri, &[], st) else { return out };
    for i in 1..screen.len() - 1 {
        let mut v = [screen[0], screen[i], screen[i + 1]];
        let mut area = area2(&v[0], &v[1], &v[2]);
        if area == 0 {
            continue;
        }
        if area < 0 {
            v.swap(1, 2);
            area = -area;
        }
        let edges = [(1usize, 2usize), (2, 0), (0, 1)];
        let bias = edges.map(|(a, b)| if top_left(&v[a], &v[b]) { 0 } else { -1 });
        let b = &st.bounds;
        for py in i64::from(b.top)..i64::from(b.bottom) {
            for px in i64::from(b.left)..i64::from(b.right) {
                let (x, y) = (px * ONE + ONE / 2, py * ONE + ONE / 2);
                let e = edges.map(|(a, c)| (v[c].x - v[a].x) * (y - v[a].y) - (v[c].y - v[a].y) * (x - v[a].x));
                if (0..3).any(|k| e[k] + bias[k] < 0) {
                    continue;
                }
                let l = e.map(|x| x as f64 / area as f64);
                let z = (l[0] * v[0].z + l[1] * v[1].z + l[2] * v[2].z).clamp(0.0, 1.0);
                let pw = [l[0] * v[0].inv_w, l[1] * v[1].inv_w, l[2] * v[2].inv_w];
                let psum = pw[0] + pw[1] + pw[2];
                let (mut persp, mut linear) = ([0.0f64; 3], [0.0f64; 3]);
                for (k, vert) in v.iter().enumerate() {
                    for j in 0..3 {
                        persp[j] += pw[k] / psum * vert.weights[j];
                        linear[j] += l[k] * vert.linear[j];
                    }
                }
                out.push((px as i32, py as i32, z as f32, persp.map(|x| x as f32), linear.map(|x| x as f32)));
            }
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(400))]
    /// Triangles of any size and slope, partly off a 37x29 target, in perspective or clipped by
    /// the near plane: the same pixels in the same order, with bit-identical depth and weights.
    #[test]
    fn runs_of_covered_centers_equal_testing_every_center(
        c in proptest::collection::vec(-1.6f32..1.6, 9),
        w in proptest::collection::vec(0.2f32..3.0, 3),
        z in proptest::collection::vec(-0.3f32..1.2, 3),
        halves in proptest::collection::vec(-20i32..94, 6),
        on_halves: bool,
    ) {
        let (tw, th) = (37, 29);
        let st = TriangleState {
            cull: Cull::None,
            front_ccw: false,
            depth_clip: true,
            viewport: Viewport { x: 0.0, y: 0.0, width: tw as f32, height: th as f32, min_depth: 0.0, max_depth: 1.0 },
            bounds: Rect { left: 0, top: 0, right: tw, bottom: th },
            samples: standard_sample_positions(1).unwrap(),
        };
        // Vertices on half pixels put pixel centers on edges, where the top-left rule decides.
        let tri: [[f32; 4]; 3] = std::array::from_fn(|i| match on_halves {
            true => {
                let (x, y) = (halves[2 * i] as f32 / 2.0, halves[2 * i + 1] as f32 / 2.0);
                [x / tw as f32 * 2.0 - 1.0, 1.0 - y / th as f32 * 2.0, z[i], 1.0]
            }
            false => [c[3 * i] * w[i], c[3 * i + 1] * w[i], z[i] * w[i], w[i]],
        });
        let mut got = Vec::new();
        rasterize_triangle(&tri, &st, |f| got.push((f.x, f.y, f.depth, f.persp, f.linear)));
        let want = each_center(&tri, &st);
        // Compared as bits: -0.0 and 0.0 differ, NaNs are equal.
        let bits = |v: &[Seen]| -> Vec<String> {
            v.iter().map(|&(x, y, z, p, l)| format!("{x} {y} {:x} {:x?} {:x?}", z.to_bits(), p.map(f32::to_bits), l.map(f32::to_bits))).collect()
        };
        proptest::prop_assert_eq!(bits(&got), bits(&want));
    }
}
