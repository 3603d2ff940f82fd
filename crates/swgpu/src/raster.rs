//! Triangle, line and point rasterization as Direct3D defines it, for the CPU backend's draws:
//! clipping in clip space, the viewport transform, vertex snapping to 16.8 fixed point, culling,
//! coverage of pixel centers with the top-left rule (triangles, and points as 1x1 squares),
//! the diamond-exit rule of aliased lines ([`LineSetup`]), and the interpolation weights
//! (perspective-correct and screen-linear) and depth of every covered pixel.
//!
//! The rules (D3D11.3 functional spec, "Rasterization Rules", which D3D12 keeps):
//! - viewport: `x = (x_ndc + 1) * W/2 + TopLeftX`, `y = (1 - y_ndc) * H/2 + TopLeftY`,
//!   `z = MinDepth + z_ndc * (MaxDepth - MinDepth)`; y grows downward;
//! - positions are snapped to 8 fractional bits (D3D12_SUBPIXEL_FRACTIONAL_BIT_COUNT);
//! - a pixel is covered when its center (x + 0.5, y + 0.5) is inside the triangle; a center
//!   exactly on an edge is covered only for a top edge (horizontal, the triangle below it) or a
//!   left edge (the triangle to its right), so triangles sharing an edge cover each pixel once;
//! - with FrontCounterClockwise FALSE a triangle whose vertices run clockwise on the render target
//!   is front-facing;
//! - clipping against `0 <= z <= w` when DepthClipEnable (else depth is clamped to the
//!   viewport's range), and against `w > 0`; x and y are not clipped (a guard band): only what
//!   falls in the viewport and scissor is produced;
//! - attributes are interpolated perspective-correctly (or linearly in screen space for
//!   `noperspective`), depth linearly in screen space;
//! - multisampling ("Multisampling" and "Standard Multisample Quality Levels"): a triangle
//!   covers each sample whose position ([`standard_sample_positions`](rd3d12_core::multisample::standard_sample_positions)) is inside it, by the same
//!   top-left rule; a pixel is produced when any sample is covered, with the attributes at its
//!   center (evaluated even when the center itself is outside: no centroid) and the depth at
//!   every sample. Points and aliased lines cover every sample of the pixels they cover.
//!
//! Everything here is pure arithmetic on `f32`/`f64`/`i64`; there is no unsafe code.

use rd3d12_sys as sys;

/// D3D12_VIEWPORT.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Viewport {
    /// TopLeftX.
    pub x: f32,
    /// TopLeftY.
    pub y: f32,
    /// Width.
    pub width: f32,
    /// Height.
    pub height: f32,
    /// MinDepth.
    pub min_depth: f32,
    /// MaxDepth.
    pub max_depth: f32,
}

impl Viewport {
    /// The viewport inside D3D12's ranges: TopLeftX/Y in [D3D12_VIEWPORT_BOUNDS_MIN,
    /// D3D12_VIEWPORT_BOUNDS_MAX], Width/Height ≥ 0 with the far edge at most BOUNDS_MAX, depths
    /// in [0, 1]; NaN as 0. Values outside those ranges are invalid in D3D12 (the docs give the
    /// ranges); clamping them keeps the rasterizer's fixed-point arithmetic in range whatever an
    /// application sets.
    pub fn in_bounds(&self) -> Viewport {
        let (lo, hi) = (sys::D3D12_VIEWPORT_BOUNDS_MIN as f32, sys::D3D12_VIEWPORT_BOUNDS_MAX as f32);
        let fix = |v: f32, a: f32, b: f32| if v.is_nan() { a.max(0.0).min(b) } else { v.clamp(a, b) };
        let (x, y) = (fix(self.x, lo, hi), fix(self.y, lo, hi));
        Viewport {
            x,
            y,
            width: fix(self.width, 0.0, hi - x),
            height: fix(self.height, 0.0, hi - y),
            min_depth: fix(self.min_depth, 0.0, 1.0),
            max_depth: fix(self.max_depth, 0.0, 1.0),
        }
    }
}

/// A pixel rectangle, `left..right` by `top..bottom` (D3D12_RECT: right and bottom exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rect {
    /// First column.
    pub left: i32,
    /// First row.
    pub top: i32,
    /// One past the last column.
    pub right: i32,
    /// One past the last row.
    pub bottom: i32,
}

impl Rect {
    /// The pixels in both rectangles.
    pub fn intersect(&self, o: &Rect) -> Rect {
        Rect {
            left: self.left.max(o.left),
            top: self.top.max(o.top),
            right: self.right.min(o.right),
            bottom: self.bottom.min(o.bottom),
        }
    }

    /// Whether no pixel is inside.
    pub fn is_empty(&self) -> bool {
        self.left >= self.right || self.top >= self.bottom
    }
}

/// D3D12_CULL_MODE.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cull {
    /// D3D12_CULL_MODE_NONE.
    None,
    /// D3D12_CULL_MODE_FRONT.
    Front,
    /// D3D12_CULL_MODE_BACK.
    Back,
}

impl Cull {
    /// From D3D12_CULL_MODE (1 NONE, 2 FRONT, 3 BACK).
    pub fn from_d3d(v: u32) -> Option<Cull> {
        match v {
            1 => Some(Cull::None),
            2 => Some(Cull::Front),
            3 => Some(Cull::Back),
            _ => None,
        }
    }
}

/// The rasterizer settings a triangle needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TriangleState<'a> {
    /// CullMode.
    pub cull: Cull,
    /// FrontCounterClockwise.
    pub front_ccw: bool,
    /// DepthClipEnable.
    pub depth_clip: bool,
    /// The viewport the triangle is drawn through.
    pub viewport: Viewport,
    /// Viewport ∩ scissor ∩ render target, in pixels: only pixels inside are produced.
    pub bounds: Rect,
    /// Sample positions relative to the pixel center in 1/16 pixel
    /// ([`standard_sample_positions`](rd3d12_core::multisample::standard_sample_positions), or SetSamplePositions'; `[(0, 0)]` single-sampled).
    pub samples: &'a [(i8, i8)],
}

/// Most samples per pixel (D3D12_MAX_MULTISAMPLE_SAMPLE_COUNT 32 is not supported; 16 is the
/// largest standard pattern).
pub const MAX_SAMPLES: usize = 16;

/// One covered pixel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fragment {
    /// Pixel column.
    pub x: i32,
    /// Pixel row.
    pub y: i32,
    /// Interpolated depth (before bias) at the pixel center, clamped to the viewport's depth
    /// range.
    pub depth: f32,
    /// Covered samples: bit `s` for sample `s` of [`TriangleState::samples`].
    pub coverage: u16,
    /// Interpolated depth at each covered sample (before bias, clamped like `depth`).
    pub sample_depth: [f32; MAX_SAMPLES],
    /// Perspective-correct weights of the triangle's three vertices (sum 1).
    pub persp: [f32; 3],
    /// Screen-linear weights (`noperspective` attributes; sum 1).
    pub linear: [f32; 3],
    /// SV_IsFrontFace.
    pub front_facing: bool,
}

/// Fractional bits of snapped positions (D3D12_SUBPIXEL_FRACTIONAL_BIT_COUNT).
pub const SUBPIXEL_BITS: u32 = 8;
const ONE: i64 = 1 << SUBPIXEL_BITS;
/// x and y beyond ±GUARD·w are clipped (so that fixed-point products stay within i64); pixels
/// there are outside any render target anyway.
const GUARD: f64 = 64.0;
/// The largest screen coordinate in subpixels, 2^30 − 1 (about 4.2 million pixels, twice what
/// the guard band lets through with the largest viewport): differences of two coordinates fit
/// 31 bits, so the fixed-point products of edge functions and areas fit i64.
const SNAP_LIMIT: f64 = ((1i64 << 30) - 1) as f64;

/// A vertex in clip space with its weights relative to the original triangle.
#[derive(Debug, Clone, Copy)]
struct ClipVertex {
    pos: [f64; 4],
    weights: [f64; 3],
}

fn lerp(a: &ClipVertex, b: &ClipVertex, t: f64) -> ClipVertex {
    let pos = std::array::from_fn(|i| a.pos[i] + (b.pos[i] - a.pos[i]) * t);
    let weights = std::array::from_fn(|i| a.weights[i] + (b.weights[i] - a.weights[i]) * t);
    ClipVertex { pos, weights }
}

/// Sutherland–Hodgman against one plane `d(v) >= 0` (a NaN distance is outside).
fn clip_plane(poly: &[ClipVertex], d: impl Fn(&ClipVertex) -> f64) -> Vec<ClipVertex> {
    let mut out = Vec::with_capacity(poly.len() + 2);
    for i in 0..poly.len() {
        let (a, b) = (&poly[i], &poly[(i + 1) % poly.len()]);
        let (da, db) = (d(a), d(b));
        if da >= 0.0 {
            out.push(*a);
        }
        // The crossing point is measured from the inside vertex: from a far outside one (x at
        // 1e38, say) the subtraction loses everything (fuzzed: a point meant to land on the
        // guard band landed at 4e22), and either direction of a shared edge gives one point.
        // (With a NaN distance there is no crossing point to add.)
        if (da >= 0.0) != (db >= 0.0) {
            let (inside, outside, di, dout) = if da >= 0.0 { (a, b, da, db) } else { (b, a, db, da) };
            let t = di / (di - dout);
            if t.is_finite() {
                out.push(lerp(inside, outside, t));
            }
        }
    }
    out
}

/// Clips a clip-space triangle, then against each user clip distance (its values at the three
/// vertices, interpolated like any attribute); the polygon's vertices carry weights of the
/// original three.
fn clip(tri: &[[f32; 4]; 3], depth_clip: bool, distances: &[[f32; 3]]) -> Vec<ClipVertex> {
    let mut poly: Vec<ClipVertex> = (0..3)
        .map(|i| {
            let mut weights = [0.0; 3];
            weights[i] = 1.0;
            ClipVertex { pos: tri[i].map(f64::from), weights }
        })
        .collect();
    // w > 0: a tiny epsilon keeps 1/w finite.
    poly = clip_plane(&poly, |v| v.pos[3] - 1e-9);
    if depth_clip {
        poly = clip_plane(&poly, |v| v.pos[2]);
        poly = clip_plane(&poly, |v| v.pos[3] - v.pos[2]);
    }
    for d in distances {
        if poly.len() < 3 {
            break;
        }
        poly = clip_plane(&poly, |v| (0..3).map(|k| v.weights[k] * f64::from(d[k])).sum());
    }
    for (axis, sign) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0)] {
        if poly.len() < 3 {
            break;
        }
        poly = clip_plane(&poly, |v| GUARD * v.pos[3] - sign * v.pos[axis]);
    }
    poly
}

/// A vertex on the render target: fixed-point position, depth, 1/w, and its weights of the
/// original primitive's vertices twice: in clip space (what perspective-correct attributes
/// follow) and on the screen (what `noperspective` attributes follow).
#[derive(Debug, Clone, Copy)]
struct ScreenVertex {
    x: i64,
    y: i64,
    z: f64,
    inv_w: f64,
    weights: [f64; 3],
    linear: [f64; 3],
}

/// Maps a clipped vertex to the render target; `w` holds the clip-space w of the original
/// primitive's vertices. A vertex the clipper made sits at clip-space weights `b` of them, so
/// its projected position is `Σ b_j w_j (v_j / w_j) / Σ b_k w_k`: its screen-space weights are
/// `b_j w_j / Σ b_k w_k`. Interpolating `noperspective` attributes with those keeps them linear
/// on the screen across the whole original primitive, as if it had not been clipped (the clip
/// space weights would bend them with perspective where the clipper cut).
fn to_screen(v: &ClipVertex, vp: &Viewport, w: [f64; 3]) -> ScreenVertex {
    let lw: [f64; 3] = std::array::from_fn(|j| v.weights[j] * w[j]);
    let lsum = lw[0] + lw[1] + lw[2];
    // (Σ b_k w_k is the vertex's own w, above the clipper's epsilon; an original vertex gets
    // exactly its unit weights back.)
    let linear = if lsum == 0.0 || !lsum.is_finite() { v.weights } else { lw.map(|x| x / lsum) };
    let inv_w = 1.0 / v.pos[3];
    let (xn, yn, zn) = (v.pos[0] * inv_w, v.pos[1] * inv_w, v.pos[2] * inv_w);
    let x = (xn + 1.0) * f64::from(vp.width) * 0.5 + f64::from(vp.x);
    let y = (1.0 - yn) * f64::from(vp.height) * 0.5 + f64::from(vp.y);
    let z = f64::from(vp.min_depth) + zn * f64::from(vp.max_depth - vp.min_depth);
    // Clamped to ±SNAP_LIMIT (NaN: 0). Clipping to the guard band keeps real coordinates far
    // inside; only precision lost clipping absurd inputs (1e38) lands outside.
    let snap = |c: f64| (c * ONE as f64).round().clamp(-SNAP_LIMIT, SNAP_LIMIT) as i64;
    ScreenVertex { x: snap(x), y: snap(y), z, inv_w, weights: v.weights, linear }
}

/// Twice the signed area; positive when the vertices run clockwise on the render target
/// (y down).
fn area2(a: &ScreenVertex, b: &ScreenVertex, c: &ScreenVertex) -> i64 {
    (b.x - a.x) * (c.y - a.y) - (c.x - a.x) * (b.y - a.y)
}

/// Rasterizes one triangle given in clip space, calling `emit` for every covered pixel in
/// `state.bounds`, row by row, left to right. Degenerate and culled triangles emit nothing.
/// Returns how many triangles were rendered after clipping and culling (what the
/// CPrimitives statistic counts): 0, or the pieces of the clipped polygon (one per vertex past
/// the second), whether or not they cover a pixel center in the bounds.
pub fn rasterize_triangle(tri: &[[f32; 4]; 3], state: &TriangleState, emit: impl FnMut(&Fragment)) -> u64 {
    rasterize_triangle_clipped(tri, &[], false, state, emit)
}

/// Rasterizes one triangle in D3D12_FILL_MODE_WIREFRAME: "draw lines connecting the vertices"
/// (D3D12_FILL_MODE). The triangle is clipped, its facing found and culled exactly as
/// [`rasterize_triangle`] does; then every edge of what is left is drawn as an aliased line
/// ([`LineSetup`]'s rules, so each edge is half-open and a corner is drawn once), edges the near
/// or far plane cut included. Fragments carry the triangle's facing and weights over its three
/// vertices. Returns what [`rasterize_triangle`] returns for the same triangle.
pub fn rasterize_wireframe(tri: &[[f32; 4]; 3], state: &TriangleState, emit: impl FnMut(&Fragment)) -> u64 {
    rasterize_triangle_clipped(tri, &[], true, state, emit)
}

/// [`rasterize_triangle`] (or, `wireframe`, [`rasterize_wireframe`]) of a triangle also clipped
/// by user clip distances (SV_ClipDistance): `distances` holds, per distance, its values at the
/// three vertices; the part where any interpolated distance is negative is cut away.
pub fn rasterize_triangle_clipped(
    tri: &[[f32; 4]; 3],
    distances: &[[f32; 3]],
    wireframe: bool,
    state: &TriangleState,
    emit: impl FnMut(&Fragment),
) -> u64 {
    TriangleSetup::new(tri, distances, state).map_or(0, |t| {
        t.rasterize(wireframe, state, emit);
        t.pieces()
    })
}

/// A triangle after setup: clipped (w, the near and far planes with DepthClipEnable, user clip
/// distances), mapped to the render target and snapped, its facing found; culled, degenerate
/// and fully clipped triangles have none. Set up once, it is rasterized in any part of the
/// bounds ([`TriangleSetup::rasterize`] with narrower [`TriangleState::bounds`]): the pixels of
/// the parts together are those of the whole, in the same order within each part.
#[derive(Debug, Clone)]
pub struct TriangleSetup {
    screen: Vec<ScreenVertex>,
    front_facing: bool,
}

impl TriangleSetup {
    /// Sets up a clip-space triangle with its user clip `distances` (see
    /// [`rasterize_triangle_clipped`]); `None` when nothing is left to draw in `state.bounds`.
    pub fn new(tri: &[[f32; 4]; 3], distances: &[[f32; 3]], state: &TriangleState) -> Option<TriangleSetup> {
        setup_triangle(tri, distances, state).map(|(screen, front_facing)| TriangleSetup { screen, front_facing })
    }

    /// The triangles rendered after clipping (CPrimitives): the pieces of the clipped polygon.
    pub fn pieces(&self) -> u64 {
        self.screen.len() as u64 - 2
    }

    /// The pixels the triangle can cover (a conservative box: a pixel outside it has no sample
    /// inside the triangle).
    pub fn pixel_box(&self) -> Rect {
        screen_box(&self.screen)
    }

    /// Calls `emit` for every covered pixel in `state.bounds` (filled, or with `wireframe` its
    /// edges as aliased lines: see [`rasterize_wireframe`]).
    pub fn rasterize(&self, wireframe: bool, state: &TriangleState, mut emit: impl FnMut(&Fragment)) {
        let (screen, front_facing) = (&self.screen, self.front_facing);
        if wireframe {
            for (i, a) in screen.iter().enumerate() {
                let b = screen[(i + 1) % screen.len()];
                if a.x == b.x && a.y == b.y {
                    continue;
                }
                let edge = LineSetup::between(*a, b);
                edge.rasterize(state, |f| emit(&Fragment { front_facing, ..*f }));
            }
        } else {
            // A fan from the first vertex; pieces of one polygon share edges, so the top-left
            // rule keeps every pixel single.
            for i in 1..screen.len() - 1 {
                raster_piece([screen[0], screen[i], screen[i + 1]], front_facing, state, &mut emit);
            }
        }
    }
}

/// The pixels around snapped points, with a margin of two pixels (what samples away from the
/// center and a line's diamonds reach is well inside).
fn screen_box(points: &[ScreenVertex]) -> Rect {
    let px = |v: i64, d: i64| (v.div_euclid(ONE) + d).clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    let (x0, x1) = (points.iter().map(|p| p.x).min().unwrap_or(0), points.iter().map(|p| p.x).max().unwrap_or(0));
    let (y0, y1) = (points.iter().map(|p| p.y).min().unwrap_or(0), points.iter().map(|p| p.y).max().unwrap_or(0));
    Rect { left: px(x0, -2), top: px(y0, -2), right: px(x1, 3), bottom: px(y1, 3) }
}

/// A triangle clipped and mapped to the render target, and whether it is front-facing; `None`
/// when nothing is left to draw (outside, degenerate, culled, or the bounds are empty).
fn setup_triangle(
    tri: &[[f32; 4]; 3],
    distances: &[[f32; 3]],
    state: &TriangleState,
) -> Option<(Vec<ScreenVertex>, bool)> {
    if state.bounds.is_empty() || tri.iter().flatten().any(|c| !c.is_finite()) {
        return None;
    }
    let poly = clip(tri, state.depth_clip, distances);
    if poly.len() < 3 {
        return None;
    }
    let w = [0, 1, 2].map(|i| f64::from(tri[i][3]));
    let screen: Vec<ScreenVertex> = poly.iter().map(|v| to_screen(v, &state.viewport, w)).collect();
    // Facing comes from the whole (clipped) polygon, which keeps the original's orientation.
    // (Summed wide: the pieces of a polygon that absurd inputs bent can add past i64.)
    let orientation: i128 =
        (1..screen.len() - 1).map(|i| i128::from(area2(&screen[0], &screen[i], &screen[i + 1]))).sum();
    if orientation == 0 {
        return None;
    }
    let clockwise = orientation > 0;
    let front_facing = clockwise != state.front_ccw;
    match state.cull {
        Cull::Front if front_facing => None,
        Cull::Back if !front_facing => None,
        _ => Some((screen, front_facing)),
    }
}

/// The depth plane of a triangle as the rasterizer sees it after clipping (the near and far
/// planes with DepthClipEnable, w > 0, the user clip distances): (MaxDepthSlope, the largest of
/// |dz/dx| and |dz/dy| per render-target pixel; the largest |z| of the clipped polygon's
/// vertices), what depth bias needs. Also defined for a triangle with vertices behind the eye,
/// whose screen-space plane only its clipped part has. `None` when nothing is left or the
/// polygon has no area.
pub fn clipped_depth_plane(tri: &[[f32; 4]; 3], distances: &[[f32; 3]], state: &TriangleState) -> Option<(f64, f64)> {
    if tri.iter().flatten().any(|c| !c.is_finite()) {
        return None;
    }
    let poly = clip(tri, state.depth_clip, distances);
    let vp = &state.viewport;
    let s: Vec<[f64; 3]> = poly
        .iter()
        .map(|v| {
            let inv_w = 1.0 / v.pos[3];
            [
                (v.pos[0] * inv_w + 1.0) * f64::from(vp.width) * 0.5 + f64::from(vp.x),
                (1.0 - v.pos[1] * inv_w) * f64::from(vp.height) * 0.5 + f64::from(vp.y),
                f64::from(vp.min_depth) + v.pos[2] * inv_w * f64::from(vp.max_depth - vp.min_depth),
            ]
        })
        .collect();
    // The plane through the fan piece of largest area (the others agree up to rounding).
    let piece = |i: usize| {
        let e1: [f64; 3] = std::array::from_fn(|k| s[i][k] - s[0][k]);
        let e2: [f64; 3] = std::array::from_fn(|k| s[i + 1][k] - s[0][k]);
        (e1[0] * e2[1] - e2[0] * e1[1], e1, e2)
    };
    let (det, e1, e2) = (1..s.len().saturating_sub(1)).map(piece).max_by(|a, b| a.0.abs().total_cmp(&b.0.abs()))?;
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let dzdx = (e1[2] * e2[1] - e2[2] * e1[1]) / det;
    let dzdy = (e2[2] * e1[0] - e1[2] * e2[0]) / det;
    let max_abs_z = s.iter().map(|v| v[2].abs()).fold(0.0, f64::max);
    Some((dzdx.abs().max(dzdy.abs()), max_abs_z))
}

/// Whether edge a→b of a clockwise (positive-area) triangle is a top or left edge.
fn top_left(a: &ScreenVertex, b: &ScreenVertex) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    (dy == 0 && dx > 0) || dy < 0
}

fn raster_piece(mut v: [ScreenVertex; 3], front_facing: bool, state: &TriangleState, emit: &mut impl FnMut(&Fragment)) {
    let mut area = area2(&v[0], &v[1], &v[2]);
    if area == 0 {
        return;
    }
    if area < 0 {
        v.swap(1, 2);
        area = -area;
    }
    // Edge i is opposite vertex i: (v1→v2), (v2→v0), (v0→v1).
    let edges = [(1usize, 2usize), (2, 0), (0, 1)];
    let bias: [i64; 3] = edges.map(|(a, b)| if top_left(&v[a], &v[b]) { 0 } else { -1 });
    let min_x = v.iter().map(|p| p.x).min().unwrap_or(0);
    let max_x = v.iter().map(|p| p.x).max().unwrap_or(0);
    let min_y = v.iter().map(|p| p.y).min().unwrap_or(0);
    let max_y = v.iter().map(|p| p.y).max().unwrap_or(0);
    // Pixels whose samples can fall inside: center = x·ONE + ONE/2, samples within half a
    // pixel of it.
    let single = state.samples.len() <= 1 && state.samples.first().is_none_or(|&s| s == (0, 0));
    let margin = if single { 0 } else { ONE / 2 };
    let first = |lo: i64| ((lo - margin - ONE / 2) + ONE - 1).div_euclid(ONE);
    let last = |hi: i64| (hi + margin - ONE / 2).div_euclid(ONE);
    let b = &state.bounds;
    let (x0, x1) = (first(min_x).max(i64::from(b.left)), last(max_x).min(i64::from(b.right) - 1));
    let (y0, y1) = (first(min_y).max(i64::from(b.top)), last(max_y).min(i64::from(b.bottom) - 1));
    let (zlo, zhi) = depth_range(&state.viewport);
    let edge_at = |x: i64, y: i64| -> [i64; 3] {
        edges.map(|(a, bb)| {
            let (pa, pb) = (&v[a], &v[bb]);
            (pb.x - pa.x) * (y - pa.y) - (pb.y - pa.y) * (x - pa.x)
        })
    };
    let inside = |e: &[i64; 3]| (0..3).all(|k| e[k] + bias[k] >= 0);
    // The barycentric weights of an edge-function triple, and the depth they give.
    let weights = |e: &[i64; 3]| e.map(|x| x as f64 / area as f64);
    let depth_of = |l: &[f64; 3]| (l[0] * v[0].z + l[1] * v[1].z + l[2] * v[2].z).clamp(zlo, zhi);
    let depth_at = |e: &[i64; 3]| depth_of(&weights(e));
    let step = ONE / 16;
    if x0 > x1 {
        return;
    }
    // How each edge function changes from one pixel center to the next on a row: exact
    // integers, so stepping gives the very values `edge_at` would.
    let dx: [i64; 3] = edges.map(|(a, bb)| -(v[bb].y - v[a].y) * ONE);
    for py in y0..=y1 {
        let cy = py * ONE + ONE / 2;
        let row = edge_at(x0 * ONE + ONE / 2, cy);
        // Single-sampled, the covered centers of a row are one run: each edge's `e + bias >= 0`
        // holds on a half-line of columns, found by integer division (exact).
        let (from, to) = if single { covered_run(&row, &bias, &dx, x1 - x0) } else { (0, x1 - x0) };
        for n in from..=to {
            let px = x0 + n;
            let cx = px * ONE + ONE / 2;
            let e: [i64; 3] = std::array::from_fn(|k| row[k] + dx[k] * n);
            let mut coverage = 0u16;
            let mut sample_depth = [0.0f32; MAX_SAMPLES];
            if single {
                coverage = 1;
            } else {
                for (s, &(ox, oy)) in state.samples.iter().enumerate().take(MAX_SAMPLES) {
                    let es = edge_at(cx + i64::from(ox) * step, cy + i64::from(oy) * step);
                    if inside(&es) {
                        coverage |= 1 << s;
                        sample_depth[s] = depth_at(&es) as f32;
                    }
                }
            }
            if coverage == 0 {
                continue;
            }
            let l = weights(&e);
            let depth = depth_of(&l);
            if single {
                // The one sample is the center.
                sample_depth[0] = depth as f32;
            }
            let pw = [l[0] * v[0].inv_w, l[1] * v[1].inv_w, l[2] * v[2].inv_w];
            let psum = pw[0] + pw[1] + pw[2];
            let mut persp = [0.0f64; 3];
            let mut linear = [0.0f64; 3];
            for (k, vert) in v.iter().enumerate() {
                let pk = pw[k] / psum;
                for j in 0..3 {
                    persp[j] += pk * vert.weights[j];
                    linear[j] += l[k] * vert.linear[j];
                }
            }
            emit(&Fragment {
                x: px as i32,
                y: py as i32,
                depth: depth as f32,
                coverage,
                sample_depth,
                persp: persp.map(|x| x as f32),
                linear: linear.map(|x| x as f32),
                front_facing,
            });
        }
    }
}

/// The columns `n` in `0..=last` (from the row's first column) where every edge function
/// `row[k] + dx[k]·n` plus its `bias[k]` is at least 0, as `(from, to)`; `from > to` when
/// there are none. Exact: the same columns as testing each center.
fn covered_run(row: &[i64; 3], bias: &[i64; 3], dx: &[i64; 3], last: i64) -> (i64, i64) {
    let (mut from, mut to) = (0i64, last);
    for k in 0..3 {
        let e = row[k] + bias[k];
        match dx[k].cmp(&0) {
            std::cmp::Ordering::Equal if e < 0 => return (1, 0),
            std::cmp::Ordering::Equal => {}
            // e + dx·n >= 0 ⇔ n >= ceil(-e / dx).
            std::cmp::Ordering::Greater if e < 0 => from = from.max((-e + dx[k] - 1) / dx[k]),
            std::cmp::Ordering::Greater => {}
            // e + dx·n >= 0 ⇔ n <= floor(e / -dx), none when e < 0.
            std::cmp::Ordering::Less if e < 0 => return (1, 0),
            std::cmp::Ordering::Less => to = to.min(e / -dx[k]),
        }
    }
    (from, to)
}

/// Rasterizes a point: D3D12 draws a point as a 1x1-pixel square around its position (there
/// is no point size), so it covers the one pixel whose center the square contains, edges
/// taken by the top-left rule: the pixel `(ceil(x) − 1, ceil(y) − 1)`. Points with w <= 0, and
/// with DepthClipEnable those outside `0 <= z <= w`, are clipped; depth is clamped to the
/// viewport's range. Points are always front-facing; their weights are (1, 0, 0).
pub fn rasterize_point(p: &[f32; 4], state: &TriangleState, mut emit: impl FnMut(&Fragment)) -> bool {
    if p.iter().any(|c| !c.is_finite()) {
        return false;
    }
    let pos = p.map(f64::from);
    if pos[3] <= 1e-9 || (state.depth_clip && (pos[2] < 0.0 || pos[2] > pos[3])) {
        return false;
    }
    if pos[0].abs() > GUARD * pos[3] || pos[1].abs() > GUARD * pos[3] {
        return false;
    }
    let v = to_screen(&ClipVertex { pos, weights: [1.0, 0.0, 0.0] }, &state.viewport, [pos[3], 1.0, 1.0]);
    // The covered center c satisfies x − ½ <= c < x + ½, with c = px + ½.
    let (px, py) = ((v.x - 1).div_euclid(ONE), (v.y - 1).div_euclid(ONE));
    let b = &state.bounds;
    if px < i64::from(b.left) || px >= i64::from(b.right) || py < i64::from(b.top) || py >= i64::from(b.bottom) {
        return true;
    }
    let (zlo, zhi) = depth_range(&state.viewport);
    let depth = v.z.clamp(zlo, zhi) as f32;
    emit(&Fragment {
        x: px as i32,
        y: py as i32,
        depth,
        coverage: all_samples(state),
        sample_depth: [depth; MAX_SAMPLES],
        persp: [1.0, 0.0, 0.0],
        linear: [1.0, 0.0, 0.0],
        front_facing: true,
    });
    true
}

/// Every sample of the state's pattern (points and lines cover whole pixels).
fn all_samples(state: &TriangleState) -> u16 {
    let n = state.samples.len().clamp(1, MAX_SAMPLES);
    (((1u32 << n) - 1) & 0xFFFF) as u16
}

fn depth_range(vp: &Viewport) -> (f64, f64) {
    (f64::from(vp.min_depth.min(vp.max_depth)), f64::from(vp.min_depth.max(vp.max_depth)))
}

/// An aliased line ready to rasterize: clipped, on the render target, snapped.
///
/// Coverage follows the D3D11.3 functional spec's aliased line rules (§3.4.3, kept by D3D12):
/// every pixel has a diamond `|x − cx| + |y − cy| <= ½` around its center; for an x-major line
/// (`|dx| >= |dy|`) the diamond keeps its lower-left and lower-right edges and its bottom
/// corner and leaves out the upper edges and the top, left and right corners; a y-major line's
/// diamond also keeps the right corner. A line covers a pixel when, travelling from its start
/// to its end, it exits the pixel's diamond: it meets the diamond and does not end inside it.
/// So lines are half-open, and the strips' shared vertices are drawn once.
#[derive(Debug, Clone, Copy)]
pub struct LineSetup {
    a: ScreenVertex,
    b: ScreenVertex,
    y_major: bool,
}

impl LineSetup {
    /// Clips a clip-space line (w > 0; `0 <= z <= w` with DepthClipEnable) and maps it to the
    /// render target; `None` when nothing is left or the line has no length.
    pub fn new(l: &[[f32; 4]; 2], state: &TriangleState) -> Option<LineSetup> {
        LineSetup::clipped(l, &[], state)
    }

    /// [`LineSetup::new`] of a line also clipped by user clip distances: per distance, its
    /// values at the two ends (the third is unused).
    pub fn clipped(l: &[[f32; 4]; 2], distances: &[[f32; 3]], state: &TriangleState) -> Option<LineSetup> {
        if l.iter().flatten().any(|c| !c.is_finite()) {
            return None;
        }
        let (p, q) = (l[0].map(f64::from), l[1].map(f64::from));
        // Planes `n · v + c >= 0`: w > 0, then 0 <= z <= w, then the guard band.
        let mut planes: Vec<([f64; 4], f64)> = vec![([0.0, 0.0, 0.0, 1.0], -1e-9)];
        if state.depth_clip {
            planes.push(([0.0, 0.0, 1.0, 0.0], 0.0));
            planes.push(([0.0, 0.0, -1.0, 1.0], 0.0));
        }
        for (axis, sign) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0)] {
            let mut n = [0.0, 0.0, 0.0, GUARD];
            n[axis] = -sign;
            planes.push((n, 0.0));
        }
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (n, c) in &planes {
            let d = |v: &[f64; 4]| n[0] * v[0] + n[1] * v[1] + n[2] * v[2] + n[3] * v[3] + c;
            let (d0, d1) = (d(&p), d(&q));
            if d0 < 0.0 && d1 < 0.0 {
                return None;
            }
            if d0 < 0.0 {
                t0 = t0.max(d0 / (d0 - d1));
            } else if d1 < 0.0 {
                t1 = t1.min(d0 / (d0 - d1));
            }
        }
        for d in distances {
            let (d0, d1) = (f64::from(d[0]), f64::from(d[1]));
            // A NaN distance leaves no defined part of the line.
            let (in0, in1) = (d0 >= 0.0, d1 >= 0.0);
            if (!in0 && !in1) || d0.is_nan() || d1.is_nan() {
                return None;
            }
            if !in0 {
                t0 = t0.max(d0 / (d0 - d1));
            } else if !in1 {
                t1 = t1.min(d0 / (d0 - d1));
            }
        }
        if t0 > t1 {
            return None;
        }
        let at =
            |t: f64| ClipVertex { pos: std::array::from_fn(|i| p[i] + (q[i] - p[i]) * t), weights: [1.0 - t, t, 0.0] };
        let w = [p[3], q[3], 1.0];
        let (a, b) = (to_screen(&at(t0), &state.viewport, w), to_screen(&at(t1), &state.viewport, w));
        if a.x == b.x && a.y == b.y {
            return None;
        }
        Some(LineSetup::between(a, b))
    }

    /// The line from `a` to `b`, two distinct snapped render-target points.
    fn between(a: ScreenVertex, b: ScreenVertex) -> LineSetup {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        LineSetup { a, b, y_major: dx.abs() < dy.abs() }
    }

    /// The pixels the line can cover (a conservative box).
    pub fn pixel_box(&self) -> Rect {
        screen_box(&[self.a, self.b])
    }

    /// Whether the line covers pixel (px, py) (the diamond-exit rule above), exactly.
    pub fn covers(&self, px: i64, py: i64) -> bool {
        let (cx, cy) = (px * ONE + ONE / 2, py * ONE + ONE / 2);
        let (ax, ay) = (i128::from(self.a.x - cx), i128::from(self.a.y - cy));
        let (ex, ey) = (i128::from(self.b.x - self.a.x), i128::from(self.b.y - self.a.y));
        // The point at t = n / d, scaled by d, inside the half-open diamond?
        let inside = |n: i128, d: i128| {
            let (u, v) = (ax * d + n * ex, ay * d + n * ey);
            let (s, half) = (u.abs() + v.abs(), i128::from(ONE / 2) * d);
            s < half || (s == half && (v > 0 || (self.y_major && u == half)))
        };
        if inside(1, 1) {
            return false; // it ends inside: it never exits
        }
        // t in [lo, hi] where the segment is inside the closed diamond; fractions (n, d > 0).
        let (mut lo, mut hi) = ((0i128, 1i128), (1i128, 1i128));
        let half = i128::from(ONE / 2);
        for (su, sv) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let c0 = su * ax + sv * ay;
            let k = su * ex + sv * ey;
            // c0 + t·k <= half
            if k == 0 {
                if c0 > half {
                    return false;
                }
            } else if k > 0 {
                let bound = (half - c0, k);
                if bound.0 * hi.1 < hi.0 * bound.1 {
                    hi = bound;
                }
            } else {
                let bound = (c0 - half, -k);
                if bound.0 * lo.1 > lo.0 * bound.1 {
                    lo = bound;
                }
            }
        }
        if lo.0 * hi.1 > hi.0 * lo.1 {
            return false;
        }
        // The part in the closed diamond is convex: if any of it is in the half-open diamond,
        // one of its ends or its middle is.
        let mid = (lo.0 * hi.1 + hi.0 * lo.1, 2 * lo.1 * hi.1);
        inside(lo.0, lo.1) || inside(hi.0, hi.1) || inside(mid.0, mid.1)
    }

    /// Calls `emit` for every covered pixel in `state.bounds`.
    pub fn rasterize(&self, state: &TriangleState, mut emit: impl FnMut(&Fragment)) {
        let b = &state.bounds;
        if b.is_empty() {
            return;
        }
        let (a, e) = (&self.a, &self.b);
        // Along the major axis every pixel from one end to the other; across it, the pixels
        // within two of where the line crosses the pixel's center line.
        let (major_a, major_b, minor_a, minor_b) =
            if self.y_major { (a.y, e.y, a.x, e.x) } else { (a.x, e.x, a.y, e.y) };
        let first = major_a.min(major_b).div_euclid(ONE) - 1;
        let last = major_a.max(major_b).div_euclid(ONE) + 1;
        let (lo_major, hi_major, lo_minor, hi_minor) = if self.y_major {
            (i64::from(b.top), i64::from(b.bottom), i64::from(b.left), i64::from(b.right))
        } else {
            (i64::from(b.left), i64::from(b.right), i64::from(b.top), i64::from(b.bottom))
        };
        for m in first.max(lo_major)..=last.min(hi_major - 1) {
            let c = (m * ONE + ONE / 2 - major_a) as f64;
            let across = minor_a as f64 + c * (minor_b - minor_a) as f64 / (major_b - major_a) as f64;
            let n0 = (across / ONE as f64).floor() as i64;
            for n in (n0 - 2).max(lo_minor)..=(n0 + 2).min(hi_minor - 1) {
                let (px, py) = if self.y_major { (n, m) } else { (m, n) };
                if self.covers(px, py) {
                    let (persp, linear, depth) = self.weights_at(px as f32 + 0.5, py as f32 + 0.5, &state.viewport);
                    emit(&Fragment {
                        x: px as i32,
                        y: py as i32,
                        depth,
                        coverage: all_samples(state),
                        sample_depth: [depth; MAX_SAMPLES],
                        persp,
                        linear,
                        front_facing: true,
                    });
                }
            }
        }
    }

    /// The line's weights at render-target point (x, y): the point projected onto the line in
    /// screen space gives the screen-linear weights (not clamped, so helper pixels extrapolate);
    /// the perspective-correct ones follow 1/w; depth is linear and clamped to the viewport's
    /// range. The third weight is 0.
    pub fn weights_at(&self, x: f32, y: f32, vp: &Viewport) -> ([f32; 3], [f32; 3], f32) {
        let (a, b) = (&self.a, &self.b);
        let one = ONE as f64;
        let (ex, ey) = ((b.x - a.x) as f64 / one, (b.y - a.y) as f64 / one);
        let (px, py) = (f64::from(x) - a.x as f64 / one, f64::from(y) - a.y as f64 / one);
        let t = (px * ex + py * ey) / (ex * ex + ey * ey);
        let l = [1.0 - t, t];
        let pw = [l[0] * a.inv_w, l[1] * b.inv_w];
        let psum = pw[0] + pw[1];
        let pl = if psum > 0.0 { [pw[0] / psum, pw[1] / psum] } else { l };
        let (zlo, zhi) = depth_range(vp);
        let depth = (l[0] * a.z + l[1] * b.z).clamp(zlo, zhi);
        let mut persp = [0.0f64; 3];
        let mut linear = [0.0f64; 3];
        for (k, vert) in [a, b].iter().enumerate() {
            for j in 0..3 {
                persp[j] += pl[k] * vert.weights[j];
                linear[j] += l[k] * vert.linear[j];
            }
        }
        (persp.map(|v| v as f32), linear.map(|v| v as f32), depth as f32)
    }
}

/// Rasterizes an aliased line given in clip space (see [`LineSetup`]), calling `emit` for every
/// covered pixel in `state.bounds`; culling does not apply and lines are front-facing.
pub fn rasterize_line(l: &[[f32; 4]; 2], state: &TriangleState, emit: impl FnMut(&Fragment)) {
    if let Some(s) = LineSetup::new(l, state) {
        s.rasterize(state, emit);
    }
}

/// The interpolation weights of a clip-space triangle at the render-target point (x, y), even
/// outside the triangle (what helper pixels of a quad need): (perspective-correct weights,
/// screen-linear weights, depth). Computed in homogeneous 2D (the triangle's clip-space x, y, w
/// as a 3x3 matrix), so vertices behind the eye need no clipping. `None` for a triangle that is
/// degenerate as seen from the eye.
pub fn weights_at(tri: &[[f32; 4]; 3], vp: &Viewport, x: f32, y: f32) -> Option<([f32; 3], [f32; 3], f32)> {
    let xn = (f64::from(x) - f64::from(vp.x)) / (f64::from(vp.width) * 0.5) - 1.0;
    let yn = 1.0 - (f64::from(y) - f64::from(vp.y)) / (f64::from(vp.height) * 0.5);
    let c = |i: usize, k: usize| f64::from(tri[i][k]);
    // Columns: vertex i's (x, y, w). Solve M·b = (xn, yn, 1) by Cramer's rule.
    let m = [[c(0, 0), c(1, 0), c(2, 0)], [c(0, 1), c(1, 1), c(2, 1)], [c(0, 3), c(1, 3), c(2, 3)]];
    let det3 = |m: &[[f64; 3]; 3]| {
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    };
    let d = det3(&m);
    if d == 0.0 || !d.is_finite() {
        return None;
    }
    let p = [xn, yn, 1.0];
    let mut b = [0.0f64; 3];
    for (i, bi) in b.iter_mut().enumerate() {
        let mut mi = m;
        for r in 0..3 {
            mi[r][i] = p[r];
        }
        *bi = det3(&mi) / d;
    }
    let sum: f64 = b.iter().sum();
    if sum == 0.0 || !sum.is_finite() {
        return None;
    }
    let persp = b.map(|v| v / sum);
    // Screen-linear weights: the point's screen position is Σ b_i w_i s_i / Σ b_j w_j.
    let lw: Vec<f64> = (0..3).map(|i| persp[i] * c(i, 3)).collect();
    let lsum: f64 = lw.iter().sum();
    let linear = [lw[0] / lsum, lw[1] / lsum, lw[2] / lsum];
    let zn: f64 = (0..3).map(|i| linear[i] * c(i, 2) / c(i, 3)).sum();
    let z = f64::from(vp.min_depth) + zn * f64::from(vp.max_depth - vp.min_depth);
    Some((persp.map(|v| v as f32), linear.map(|v| v as f32), z as f32))
}

/// The depth bias D3D adds to a triangle's depth (D3D11.3 spec, "Depth Bias"): for a UNORM depth
/// buffer of `unorm_bits` bits, `DepthBias · 2^-bits + SlopeScaledDepthBias · MaxDepthSlope`;
/// for a float buffer (`unorm_bits` None), `DepthBias · 2^(exponent(max |z|) - 23)` plus the
/// same slope term. The result is clamped to `clamp` when it is non-zero (the sign of `clamp`
/// says which side), and NaN-free.
pub fn depth_bias(
    depth_bias: i32,
    slope_scaled: f32,
    clamp: f32,
    max_depth_slope: f32,
    unorm_bits: Option<u32>,
    max_abs_z: f32,
) -> f32 {
    let r = match unorm_bits {
        Some(bits) => (2.0f64).powi(-(bits as i32)),
        None => {
            let e = if max_abs_z > 0.0 { max_abs_z.log2().floor() as i32 } else { -126 };
            (2.0f64).powi(e - 23)
        }
    };
    let mut b = f64::from(depth_bias) * r + f64::from(slope_scaled) * f64::from(max_depth_slope);
    if !b.is_finite() {
        b = 0.0;
    }
    let c = f64::from(clamp);
    if c > 0.0 {
        b = b.min(c);
    } else if c < 0.0 {
        b = b.max(c);
    }
    b as f32
}

#[cfg(test)]
mod run_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_core::multisample::standard_sample_positions;

    #[test]
    fn clipping_a_far_vertex_lands_on_the_guard_band() {
        // Fuzzed: x = 3.4e38 at one vertex. Measured from that vertex the crossing point came out
        // at x = 3.8e22 (the fixed-point area then overflowed); from the inside one it is 64.
        for far in [3.4e38f32, -3.4e38, 1e30, 1e20] {
            let tri = [[far, 1.97, 0.0, 1.0], [0.0, 1.97, 0.0, 1.0], [-9.1, -70.0, 0.0, 1.0]];
            let poly = clip(&tri, true, &[]);
            assert!(poly.len() >= 3, "{far}");
            for v in &poly {
                let (x, y) = (v.pos[0] / v.pos[3], v.pos[1] / v.pos[3]);
                assert!(x.abs() <= GUARD * (1.0 + 1e-12) && y.abs() <= GUARD * (1.0 + 1e-12), "{far}: {:?}", v.pos);
            }
            // The edge's two directions give the same point.
            let rev = [tri[1], tri[0], tri[2]];
            let xs = |p: &[ClipVertex]| {
                let mut v: Vec<i64> = p.iter().map(|v| (v.pos[0] * 1e6).round() as i64).collect();
                v.sort();
                v
            };
            assert_eq!(xs(&poly), xs(&clip(&rev, true, &[])), "{far}");
        }
    }

    #[test]
    fn absurd_triangles_rasterize_without_overflow() {
        // Fuzzed: every vertex far out (y near ±3.4e38), so even measured from the inside vertex
        // a crossing point keeps an error of 1e22; the snap's clamp keeps the fixed-point
        // arithmetic in range. Whatever is drawn stays inside the bounds.
        let tris = [
            [[152.0, -3.0031724e38, 0.0, 1.0], [0.0, 3.4028235e38, 0.0, 1.0], [-2.4741293e38, -3.004055e38, 0.0, 1.0]],
            [[3.4e38, 3.4e38, 0.5, 1.0], [-3.4e38, 3.3e38, 0.5, 1.0], [0.0, -3.4e38, 0.5, 1.0]],
            [[1e30, 0.0, 0.5, 1e-30], [0.0, 1e30, 0.5, 1e-30], [-1e30, -1e30, 0.5, 1.0]],
        ];
        for (k, tri) in tris.iter().enumerate() {
            for depth_clip in [true, false] {
                let st = TriangleState { depth_clip, ..state(8, 8) };
                let mut n = 0;
                rasterize_triangle(tri, &st, |f| {
                    assert!((0..8).contains(&f.x) && (0..8).contains(&f.y), "{k}: ({}, {})", f.x, f.y);
                    n += 1;
                });
                assert!(n <= 64, "{k}");
            }
        }
    }

    #[test]
    fn viewports_are_held_to_d3d12s_ranges() {
        let vp = |x, y, width, height, min_depth, max_depth| Viewport { x, y, width, height, min_depth, max_depth };
        // In range: unchanged.
        let ok = vp(-10.5, 3.0, 64.0, 32.0, 0.25, 1.0);
        assert_eq!(ok.in_bounds(), ok);
        // A far edge past 32767, a start below -32768, NaN, infinities, depths outside [0, 1].
        assert_eq!(
            vp(1e30, f32::NAN, 5.0, f32::INFINITY, -1.0, f32::NAN).in_bounds(),
            vp(32767.0, 0.0, 0.0, 32767.0, 0.0, 0.0)
        );
        assert_eq!(vp(-1e9, 32000.0, 1e9, -4.0, 2.0, 0.5).in_bounds(), vp(-32768.0, 32000.0, 65535.0, 0.0, 1.0, 0.5));
        // Points through an absurd viewport: no overflow (fuzzed: a point at x = 1e30 pixels).
        let st = TriangleState { viewport: vp(f32::MAX, 0.0, f32::MAX, 8.0, 0.0, 1.0).in_bounds(), ..state(8, 8) };
        let mut n = 0;
        rasterize_point(&[0.5, 0.0, 0.5, 1.0], &st, |_| n += 1);
        assert_eq!(n, 0, "the viewport starts at x = 32767, right of the 8x8 bounds");
    }

    fn state(w: i32, h: i32) -> TriangleState<'static> {
        TriangleState {
            cull: Cull::None,
            front_ccw: false,
            depth_clip: true,
            viewport: Viewport { x: 0.0, y: 0.0, width: w as f32, height: h as f32, min_depth: 0.0, max_depth: 1.0 },
            bounds: Rect { left: 0, top: 0, right: w, bottom: h },
            samples: standard_sample_positions(1).unwrap(),
        }
    }

    /// Clip-space position of render-target pixel coordinates (x, y) on a w×h viewport.
    fn at(x: f32, y: f32, w: f32, h: f32, z: f32) -> [f32; 4] {
        [x / w * 2.0 - 1.0, 1.0 - y / h * 2.0, z, 1.0]
    }

    fn covered(tri: &[[f32; 4]; 3], st: &TriangleState) -> Vec<(i32, i32)> {
        let mut v = Vec::new();
        rasterize_triangle(tri, st, |f| v.push((f.x, f.y)));
        v
    }

    #[test]
    fn right_triangle_covers_the_centers_strictly_inside_its_hypotenuse() {
        // (0,0), (4,0), (0,4) on a 4x4 target: centers (x+.5, y+.5) with x + y + 1 < 4 are inside;
        // those with x + y = 3 lie on the hypotenuse, a right edge, so they are not covered.
        let st = state(4, 4);
        let tri = [at(0.0, 0.0, 4.0, 4.0, 0.5), at(4.0, 0.0, 4.0, 4.0, 0.5), at(0.0, 4.0, 4.0, 4.0, 0.5)];
        let mut got = covered(&tri, &st);
        got.sort();
        assert_eq!(got, vec![(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (2, 0)]);
    }

    #[test]
    fn two_triangles_of_a_quad_cover_every_pixel_exactly_once() {
        for (w, h) in [(4, 4), (7, 5), (16, 9)] {
            let st = state(w, h);
            let (wf, hf) = (w as f32, h as f32);
            let a = at(0.0, 0.0, wf, hf, 0.0);
            let b = at(wf, 0.0, wf, hf, 0.0);
            let c = at(0.0, hf, wf, hf, 0.0);
            let d = at(wf, hf, wf, hf, 0.0);
            let mut count = vec![0u32; (w * h) as usize];
            for tri in [[a, b, c], [c, b, d]] {
                rasterize_triangle(&tri, &st, |f| count[(f.y * w + f.x) as usize] += 1);
            }
            assert!(count.iter().all(|&n| n == 1), "{w}x{h}: {count:?}");
        }
    }

    #[test]
    fn a_fan_around_a_center_pixel_corner_covers_it_once() {
        // Eight triangles meeting at (2,2), an exact pixel corner, plus arbitrary slanted edges
        // through pixel centers: every pixel of the octagon's inside exactly once.
        let st = state(4, 4);
        let c = at(2.0, 2.0, 4.0, 4.0, 0.0);
        let ring = [(0.0, 0.0), (2.0, 0.0), (4.0, 0.0), (4.0, 2.0), (4.0, 4.0), (2.0, 4.0), (0.0, 4.0), (0.0, 2.0)];
        let mut count = [0u32; 16];
        for i in 0..8 {
            let (p, q) = (ring[i], ring[(i + 1) % 8]);
            let tri = [c, at(p.0, p.1, 4.0, 4.0, 0.0), at(q.0, q.1, 4.0, 4.0, 0.0)];
            rasterize_triangle(&tri, &st, |f| count[(f.y * 4 + f.x) as usize] += 1);
        }
        assert_eq!(count, [1; 16]);
    }

    #[test]
    fn a_jittered_mesh_covers_every_pixel_exactly_once() {
        // A 6x6 grid of points over a 23x17 target, the inner ones moved by sub-pixel amounts
        // (some onto pixel centers), each cell split into two triangles: whatever the slopes, the
        // top-left rule gives every pixel to exactly one triangle.
        let (w, h) = (23, 17);
        let st = state(w, h);
        let n = 6;
        let mut seed = 0x2545_f491_u32;
        let mut rnd = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed % 1000) as f32 / 1000.0
        };
        let mut pts = vec![[0.0f32; 2]; n * n];
        for j in 0..n {
            for i in 0..n {
                let mut x = i as f32 * w as f32 / (n - 1) as f32;
                let mut y = j as f32 * h as f32 / (n - 1) as f32;
                if i > 0 && i < n - 1 && j > 0 && j < n - 1 {
                    x = (x + rnd() * 1.5 - 0.75).floor() + if rnd() < 0.3 { 0.5 } else { rnd() };
                    y = (y + rnd() * 1.5 - 0.75).floor() + if rnd() < 0.3 { 0.5 } else { rnd() };
                }
                pts[j * n + i] = [x, y];
            }
        }
        let p = |i: usize, j: usize| {
            let [x, y] = pts[j * n + i];
            at(x, y, w as f32, h as f32, 0.0)
        };
        let mut count = vec![0u32; (w * h) as usize];
        for j in 0..n - 1 {
            for i in 0..n - 1 {
                let quad = [p(i, j), p(i + 1, j), p(i, j + 1), p(i + 1, j + 1)];
                for tri in [[quad[0], quad[1], quad[2]], [quad[2], quad[1], quad[3]]] {
                    rasterize_triangle(&tri, &st, |f| count[(f.y * w + f.x) as usize] += 1);
                }
            }
        }
        assert!(count.iter().all(|&c| c == 1), "{count:?}");
    }

    #[test]
    fn wireframe_draws_the_three_edges_half_open_with_the_triangles_facing_and_weights() {
        // Corners on the centers of pixels (0,0), (8,0) and (0,8), clockwise. Each edge is an
        // aliased line that covers its start pixel and not its end pixel: the top edge covers
        // x 0..=7 of row 0, the diagonal (8,0) to (1,7), the left edge (0,8) up to (0,1); 24
        // pixels, none twice, no inside pixel.
        let mut st = state(16, 16);
        st.cull = Cull::Back;
        let p = |x: f32, y: f32| at(x + 0.5, y + 0.5, 16.0, 16.0, 0.25);
        let tri = [p(0.0, 0.0), p(8.0, 0.0), p(0.0, 8.0)];
        let mut got = Vec::new();
        let pieces = rasterize_wireframe(&tri, &st, |f| got.push(*f));
        assert_eq!(pieces, 1);
        let mut want: Vec<(i32, i32)> = (0..8).map(|x| (x, 0)).collect();
        want.extend((0..8).map(|k| (8 - k, k)));
        want.extend((1..=8).map(|y| (0, y)));
        let mut at_px: Vec<(i32, i32)> = got.iter().map(|f| (f.x, f.y)).collect();
        at_px.sort();
        want.sort();
        assert_eq!(at_px, want);
        assert!(got.iter().all(|f| f.front_facing && f.depth == 0.25 && f.coverage == 1));
        let weights = |x, y| got.iter().find(|f| (f.x, f.y) == (x, y)).map(|f| f.linear).unwrap();
        assert_eq!(weights(4, 0), [0.5, 0.5, 0.0]);
        assert_eq!(weights(4, 4), [0.0, 0.5, 0.5]);
        assert_eq!(weights(0, 4), [0.5, 0.0, 0.5]);
        // Facing and culling are the triangle's: counter-clockwise is back-facing here.
        assert_eq!(rasterize_wireframe(&[tri[0], tri[2], tri[1]], &st, |_| panic!("culled")), 0);
        st.cull = Cull::None;
        let mut back = Vec::new();
        rasterize_wireframe(&[tri[0], tri[2], tri[1]], &st, |f| back.push((f.x, f.y, f.front_facing)));
        assert_eq!(back.len(), 24);
        assert!(back.iter().all(|b| !b.2));
    }

    #[test]
    fn user_clip_distances_shorten_lines_and_cut_triangles() {
        // A line along row 0 from the center of pixel 0 to that of pixel 8, distance 4 at its
        // start and −4 at its end: it stops at x = 4.5, the center of pixel 4, which a line
        // ending there does not cover: pixels 0 to 3.
        let st = state(16, 16);
        let p = |x: f32, y: f32| at(x, y, 16.0, 16.0, 0.0);
        let line = LineSetup::clipped(&[p(0.5, 0.5), p(8.5, 0.5)], &[[4.0, -4.0, 0.0]], &st).unwrap();
        let mut xs = Vec::new();
        line.rasterize(&st, |f| xs.push(f.x));
        assert_eq!(xs, [0, 1, 2, 3]);
        assert!(LineSetup::clipped(&[p(0.5, 0.5), p(8.5, 0.5)], &[[-1.0, -1.0, 0.0]], &st).is_none());
        // A triangle over the 16x16 target cut by distance 2 − y: rows 0 and 1 stay.
        let tri = [p(0.0, 0.0), p(32.0, 0.0), p(0.0, 32.0)];
        let mut rows = std::collections::BTreeSet::new();
        let pieces = rasterize_triangle_clipped(&tri, &[[2.0, 2.0, -30.0]], false, &st, |f| {
            rows.insert(f.y);
        });
        assert_eq!(rows.into_iter().collect::<Vec<_>>(), [0, 1]);
        assert_eq!(pieces, 2, "the cut leaves a quadrilateral: two pieces");
    }

    #[test]
    fn clockwise_is_front_unless_front_counter_clockwise() {
        let tri_cw = [at(0.0, 0.0, 4.0, 4.0, 0.0), at(4.0, 0.0, 4.0, 4.0, 0.0), at(0.0, 4.0, 4.0, 4.0, 0.0)];
        let tri_ccw = [tri_cw[0], tri_cw[2], tri_cw[1]];
        let mut st = state(4, 4);
        let mut faces = Vec::new();
        rasterize_triangle(&tri_cw, &st, |f| faces.push(f.front_facing));
        assert!(faces.iter().all(|&f| f));
        st.cull = Cull::Back;
        assert_eq!(covered(&tri_ccw, &st).len(), 0, "counter-clockwise is back-facing and culled");
        assert_eq!(covered(&tri_cw, &st).len(), 6);
        st.front_ccw = true;
        assert_eq!(covered(&tri_cw, &st).len(), 0);
        st.cull = Cull::Front;
        assert_eq!(covered(&tri_cw, &st).len(), 6);
    }

    #[test]
    fn weights_interpolate_linearly_without_perspective() {
        // A triangle with w = 1 everywhere: perspective and linear weights agree, and at the center
        // of pixel (0,0) of (0,0),(4,0),(0,4) they are (1 - 0.125 - 0.125, 0.125, 0.125).
        let st = state(4, 4);
        let tri = [at(0.0, 0.0, 4.0, 4.0, 0.0), at(4.0, 0.0, 4.0, 4.0, 0.5), at(0.0, 4.0, 4.0, 4.0, 1.0)];
        let mut first = None;
        rasterize_triangle(&tri, &st, |f| {
            if f.x == 0 && f.y == 0 {
                first = Some(*f);
            }
        });
        let f = first.expect("pixel (0,0) is covered");
        for (a, b) in f.persp.iter().zip([0.75, 0.125, 0.125]) {
            assert!((a - b).abs() < 1e-6, "{:?}", f.persp);
        }
        assert_eq!(f.persp, f.linear);
        // depth = 0.75·0 + 0.125·0.5 + 0.125·1
        assert!((f.depth - 0.1875).abs() < 1e-6);
    }

    #[test]
    fn perspective_weights_follow_one_over_w() {
        // The same screen triangle with vertex 1 at w = 2: at a pixel whose linear weights are
        // (l0, l1, l2), the perspective weights are (l0, l1/2, l2) normalised.
        let st = state(4, 4);
        let mut tri = [at(0.0, 0.0, 4.0, 4.0, 0.0), at(4.0, 0.0, 4.0, 4.0, 0.0), at(0.0, 4.0, 4.0, 4.0, 0.0)];
        tri[1] = tri[1].map(|c| c * 2.0);
        rasterize_triangle(&tri, &st, |f| {
            let l = f.linear;
            let s = l[0] + l[1] / 2.0 + l[2];
            let want = [l[0] / s, l[1] / 2.0 / s, l[2] / s];
            for (a, b) in f.persp.iter().zip(want) {
                assert!((a - b).abs() < 1e-5, "{f:?}");
            }
        });
    }

    #[test]
    fn scissor_and_viewport_bound_the_pixels() {
        let mut st = state(8, 8);
        st.bounds = st.bounds.intersect(&Rect { left: 2, top: 1, right: 5, bottom: 3 });
        let tri = [at(-4.0, -4.0, 8.0, 8.0, 0.0), at(20.0, -4.0, 8.0, 8.0, 0.0), at(-4.0, 20.0, 8.0, 8.0, 0.0)];
        let mut got = covered(&tri, &st);
        got.sort();
        assert_eq!(got, vec![(2, 1), (2, 2), (3, 1), (3, 2), (4, 1), (4, 2)]);
    }

    #[test]
    fn triangles_behind_the_eye_or_beyond_far_are_clipped() {
        let st = state(4, 4);
        // Entirely at z > w: beyond the far plane.
        let far = [[-1.0, 1.0, 2.0, 1.0], [1.0, 1.0, 2.0, 1.0], [-1.0, -1.0, 2.0, 1.0]];
        assert!(covered(&far, &st).is_empty());
        let mut no_clip = st;
        no_clip.depth_clip = false;
        let mut depths = Vec::new();
        rasterize_triangle(&far, &no_clip, |f| depths.push(f.depth));
        assert!(!depths.is_empty() && depths.iter().all(|&d| d == 1.0), "clamped to MaxDepth without depth clip");
        // All w < 0: behind the eye.
        let behind = [[-1.0, 1.0, 0.5, -1.0], [1.0, 1.0, 0.5, -1.0], [-1.0, -1.0, 0.5, -1.0]];
        assert!(covered(&behind, &no_clip).is_empty());
    }

    #[test]
    fn a_triangle_crossing_the_near_plane_keeps_the_visible_part() {
        // The right-angle triangle with its top-right vertex pushed behind the near plane
        // (z < 0): clipping keeps pixels where the interpolated z >= 0.
        let st = state(4, 4);
        let tri = [[-1.0, 1.0, 0.5, 1.0], [1.0, 1.0, -0.5, 1.0], [-1.0, -1.0, 0.5, 1.0]];
        let got = covered(&tri, &st);
        assert!(!got.is_empty());
        rasterize_triangle(&tri, &st, |f| assert!(f.depth >= 0.0));
        assert!(got.len() < 6, "part of the triangle is clipped away: {got:?}");
        // Cut by z = 0 across its two edges from vertex 1, the triangle becomes a quadrilateral:
        // two triangles rendered.
        assert_eq!(rasterize_triangle(&tri, &st, |_| {}), 2);
        let far = [[-1.0, 1.0, 2.0, 1.0], [1.0, 1.0, 2.0, 1.0], [-1.0, -1.0, 2.0, 1.0]];
        assert_eq!(rasterize_triangle(&far, &st, |_| {}), 0);
        for w in [0.0f32, f32::NAN] {
            let bad = [[0.0, 0.0, 0.0, w], [1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 0.0, 1.0]];
            rasterize_triangle(&bad, &st, |_| {});
        }
    }

    #[test]
    fn degenerate_triangles_cover_nothing() {
        let st = state(4, 4);
        let p = at(1.0, 1.0, 4.0, 4.0, 0.0);
        assert!(covered(&[p, p, p], &st).is_empty());
        let line = [at(0.0, 0.0, 4.0, 4.0, 0.0), at(2.0, 2.0, 4.0, 4.0, 0.0), at(4.0, 4.0, 4.0, 4.0, 0.0)];
        assert!(covered(&line, &st).is_empty());
    }

    #[test]
    fn weights_at_agree_with_the_rasterizer_and_extend_past_the_edges() {
        let st = state(8, 8);
        let mut tri = [at(0.0, 0.0, 8.0, 8.0, 0.2), at(8.0, 0.0, 8.0, 8.0, 0.4), at(0.0, 8.0, 8.0, 8.0, 0.6)];
        tri[1] = tri[1].map(|c| c * 2.0);
        rasterize_triangle(&tri, &st, |f| {
            let (p, l, z) = weights_at(&tri, &st.viewport, f.x as f32 + 0.5, f.y as f32 + 0.5).unwrap();
            for k in 0..3 {
                assert!((p[k] - f.persp[k]).abs() < 1e-5 && (l[k] - f.linear[k]).abs() < 1e-5, "{f:?} {p:?} {l:?}");
            }
            assert!((z - f.depth).abs() < 1e-5);
        });
        // Outside the triangle the weights go negative but still sum to 1.
        let (p, _, _) = weights_at(&tri, &st.viewport, 7.5, 7.5).unwrap();
        assert!(p.iter().any(|v| *v < 0.0) && (p.iter().sum::<f32>() - 1.0).abs() < 1e-5);
    }

    #[test]
    fn depth_bias_follows_the_format() {
        // UNORM24: 1 unit = 2^-24.
        assert_eq!(depth_bias(1, 0.0, 0.0, 0.0, Some(24), 0.5), (2.0f32).powi(-24));
        // FLOAT32 with max |z| 0.5 (exponent -1): 1 unit = 2^(-1-23).
        assert_eq!(depth_bias(1, 0.0, 0.0, 0.0, None, 0.5), (2.0f32).powi(-24));
        assert_eq!(depth_bias(4, 0.0, 0.0, 0.0, None, 0.75), 4.0 * (2.0f32).powi(-24));
        // Slope term and clamp.
        assert_eq!(depth_bias(0, 2.0, 0.0, 0.25, Some(16), 0.0), 0.5);
        assert_eq!(depth_bias(0, 2.0, 0.1, 0.25, Some(16), 0.0), 0.1);
        assert_eq!(depth_bias(0, -2.0, -0.1, 0.25, Some(16), 0.0), -0.1);
    }

    fn line(from: (f32, f32), to: (f32, f32), st: &TriangleState) -> Vec<(i32, i32)> {
        let (w, h) = (st.viewport.width, st.viewport.height);
        let l = [at(from.0, from.1, w, h, 0.5), at(to.0, to.1, w, h, 0.5)];
        let mut v = Vec::new();
        rasterize_line(&l, st, |f| v.push((f.x, f.y)));
        v.sort();
        v
    }

    #[test]
    fn a_line_through_pixel_centers_leaves_out_the_pixel_it_ends_in() {
        // From the center of (0,0) to the center of (4,0): it ends inside (4,0)'s diamond, so it
        // never exits it; each of (0,0)..(3,0) it exits. Reversed, (0,0) is the end instead.
        let st = state(8, 8);
        assert_eq!(line((0.5, 0.5), (4.5, 0.5), &st), [(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(line((4.5, 0.5), (0.5, 0.5), &st), [(1, 0), (2, 0), (3, 0), (4, 0)]);
        // The 45° diagonal (x-major) from (0,0) to (4,4) crosses the centers of (k,k) and
        // misses every other diamond (|x − 1.5| + |x − 0.5| >= 1 on y = x): 4 pixels.
        assert_eq!(line((0.0, 0.0), (4.0, 4.0), &st), [(0, 0), (1, 1), (2, 2), (3, 3)]);
    }

    #[test]
    fn lines_on_pixel_edges_take_the_row_above_and_the_column_left() {
        let st = state(8, 8);
        // y = 1 runs through the bottom corners of row 0's diamonds (kept) and the top corners
        // of row 1's (left out).
        assert_eq!(line((0.0, 1.0), (4.0, 1.0), &st), [(0, 0), (1, 0), (2, 0), (3, 0)]);
        // x = 1, y-major: the right corners of column 0's diamonds are kept for y-major
        // lines, the left corners of column 1's are not.
        assert_eq!(line((1.0, 0.0), (1.0, 4.0), &st), [(0, 0), (0, 1), (0, 2), (0, 3)]);
        // The same x = 1 segment reversed (bottom to top) gives the same column.
        assert_eq!(line((1.0, 4.0), (1.0, 0.0), &st), [(0, 0), (0, 1), (0, 2), (0, 3)]);
    }

    #[test]
    fn short_lines_that_end_inside_a_diamond_cover_only_what_they_exit() {
        let st = state(8, 8);
        assert!(line((0.4, 0.5), (0.6, 0.5), &st).is_empty(), "starts and ends in one diamond");
        // From (0.5, 0.5) to (1.2, 0.5): leaves (0,0)'s diamond at its right corner (not kept for
        // x-major lines), ends inside (1,0)'s.
        assert_eq!(line((0.5, 0.5), (1.2, 0.5), &st), [(0, 0)]);
        assert!(line((2.0, 2.0), (2.0, 2.0), &st).is_empty(), "no length");
    }

    #[test]
    fn line_weights_follow_the_projection_onto_the_line() {
        // (0.5, 0.5) to (4.5, 0.5), w = 1: pixel (k, 0)'s center is k/4 of the way.
        let st = state(8, 8);
        let l = [at(0.5, 0.5, 8.0, 8.0, 0.0), at(4.5, 0.5, 8.0, 8.0, 1.0)];
        let mut got = Vec::new();
        rasterize_line(&l, &st, |f| got.push((f.x, f.linear, f.persp, f.depth, f.front_facing)));
        assert_eq!(got.len(), 4);
        for (x, linear, persp, depth, front) in got {
            let t = x as f32 / 4.0;
            assert!((linear[1] - t).abs() < 1e-6 && (linear[0] - (1.0 - t)).abs() < 1e-6 && linear[2] == 0.0);
            assert_eq!(linear, persp);
            assert!((depth - t).abs() < 1e-6 && front);
        }
    }

    #[test]
    fn a_line_crossing_the_near_plane_is_clipped_to_its_visible_part() {
        // z from -1 (behind near) at x = 0.5 to 1 at x = 8.5, w = 1: visible from x = 4.5 on.
        let st = state(16, 4);
        let l = [at(0.5, 0.5, 16.0, 4.0, -1.0), at(8.5, 0.5, 16.0, 4.0, 1.0)];
        let mut xs = Vec::new();
        rasterize_line(&l, &st, |f| xs.push(f.x));
        assert_eq!(xs, [4, 5, 6, 7]);
    }

    #[test]
    fn noperspective_weights_of_a_clipped_triangle_stay_linear_on_the_screen() {
        // (0,0), (4,0), (0,4) on a 4x4 target with vertex 1 at w = 2, cut by a clip distance of
        // 1, 1, -3 at the vertices. The distance is 0 a quarter of the way from each of vertex 0
        // and 1 to vertex 2 in clip space: on the screen at (0, 1), and at 1/7 of the way from
        // (4, 0) to (0, 4) (t·w2 / ((1 − t)·w1 + t·w2) = 0.25 / 1.75), (24/7, 4/7). Row 0's
        // centers (0.5..2.5, 0.5) lie above that cut; their screen-linear weights are the
        // unclipped triangle's, (1 − x/4 − y/4, x/4, y/4), whatever vertices the clipper made.
        let st = state(4, 4);
        let mut tri = [at(0.0, 0.0, 4.0, 4.0, 0.5), at(4.0, 0.0, 4.0, 4.0, 0.5), at(0.0, 4.0, 4.0, 4.0, 0.5)];
        tri[1] = tri[1].map(|c| c * 2.0);
        let mut row0 = Vec::new();
        let pieces = rasterize_triangle_clipped(&tri, &[[1.0, 1.0, -3.0]], false, &st, |f| {
            assert_eq!(f.y, 0, "below the cut: {f:?}");
            row0.push((f.x, f.linear, f.persp));
        });
        assert_eq!(pieces, 2);
        let xs: Vec<i32> = row0.iter().map(|r| r.0).collect();
        assert_eq!(xs, [0, 1, 2]);
        // (The cut's vertex is snapped to 1/256 pixel: 1e-3 covers that, and not the clip-space
        // weights, which put 1/4 instead of 1/7 of vertex 2 at the cut's end on edge 1-2.)
        let want = [[0.75, 0.125, 0.125], [0.5, 0.375, 0.125], [0.25, 0.625, 0.125]];
        for ((x, linear, persp), want) in row0.into_iter().zip(want) {
            for (a, b) in linear.iter().zip(want) {
                assert!((a - b).abs() < 1e-3, "pixel {x}: {linear:?}, want {want:?}");
            }
            // Perspective-correct weights still follow 1/w: (l0, l1/2, l2) normalised.
            let s = want[0] + want[1] / 2.0 + want[2];
            for (a, b) in persp.iter().zip([want[0] / s, want[1] / 2.0 / s, want[2] / s]) {
                assert!((a - b).abs() < 1e-3, "pixel {x}: {persp:?}");
            }
        }
    }

    #[test]
    fn noperspective_weights_of_a_line_cut_by_the_near_plane_stay_linear_on_the_screen() {
        // From x = 0 (w = 1, z = 0.5) to x = 8 (w = 2, z = −1) on row 0 of an 8x1 target: z = 0
        // a third of the way in clip space, on the screen at (1/3·2) / (2/3·1 + 1/3·2) = 1/2 of
        // it, x = 4. Pixels 0..=3 are drawn, with the unclipped line's screen weights
        // ((8 − x)/8, x/8) at their centers, not the clip-space third stretched over them.
        let st = state(8, 1);
        let mut q = at(8.0, 0.5, 8.0, 1.0, -0.5);
        q = q.map(|c| c * 2.0);
        let l = [at(0.0, 0.5, 8.0, 1.0, 0.5), q];
        let mut got = Vec::new();
        rasterize_line(&l, &st, |f| got.push((f.x, f.linear)));
        assert_eq!(got.iter().map(|g| g.0).collect::<Vec<_>>(), [0, 1, 2, 3]);
        for (x, linear) in got {
            let t = (x as f32 + 0.5) / 8.0;
            assert!((linear[1] - t).abs() < 1e-6 && (linear[0] - (1.0 - t)).abs() < 1e-6, "pixel {x}: {linear:?}");
        }
    }

    #[test]
    fn a_triangle_behind_the_eye_has_the_depth_plane_of_its_clipped_part() {
        // On a 16x16 viewport the plane z = 0.375 + x_ndc / 8, i.e. 0.25 + x / 64 per pixel:
        // a vertex (X, Y, Z, W) lies on it when Z = 0.375 W + X / 8, W < 0 too. A (-1, 1) and
        // B (1, 1) at w = 1 (z 0.25 and 0.5), C = (0, -3) behind the eye at w = -1. The near
        // plane cuts A-C (z = 0 at 2/5 of it); B-C reaches the far plane (z = w) at 4/9 of the
        // way, (5/9, -7/9, 1/9, 1/9), x_ndc = 5, where z = 0.375 + 5/8 = 1. What is left has
        // slope 1/64 in x, 0 in y, and its largest z is that 1, no vertex's.
        let st = state(16, 16);
        let tri = [[-1.0, 1.0, 0.25, 1.0], [1.0, 1.0, 0.5, 1.0], [0.0, -3.0, -0.375, -1.0]];
        let (slope, max_z) = clipped_depth_plane(&tri, &[], &st).expect("the part in front of the eye");
        assert!((slope - 1.0 / 64.0).abs() < 1e-12, "{slope}");
        assert!((max_z - 1.0).abs() < 1e-12, "{max_z}");
        // Entirely behind the eye: nothing left.
        let behind = [[-1.0, 1.0, 0.5, -1.0], [1.0, 1.0, 0.5, -1.0], [-1.0, -1.0, 0.5, -1.0]];
        assert!(clipped_depth_plane(&behind, &[], &st).is_none());
    }

    #[test]
    fn a_point_covers_the_pixel_whose_center_its_square_holds() {
        let st = state(8, 8);
        let point = |x: f32, y: f32| {
            let mut v = Vec::new();
            rasterize_point(&at(x, y, 8.0, 8.0, 0.25), &st, |f| v.push((f.x, f.y, f.depth, f.front_facing)));
            v
        };
        assert_eq!(point(2.3, 1.7), [(2, 1, 0.25, true)]);
        // Square [1.5, 2.5) x [0.5, 1.5): the left and top edges hold the centers.
        assert_eq!(point(2.0, 1.0), [(1, 0, 0.25, true)]);
        assert_eq!(point(2.5, 1.5), [(2, 1, 0.25, true)]);
        assert!(point(8.2, 1.0).is_empty(), "outside the target");
        // Rendered (CPrimitives) unless clipped: off the target still counts, behind the eye
        // or beyond far does not.
        assert!(rasterize_point(&at(8.2, 1.0, 8.0, 8.0, 0.25), &st, |_| {}));
        let mut behind = Vec::new();
        assert!(!rasterize_point(&[0.0, 0.0, 0.5, -1.0], &st, |f| behind.push(f.x)));
        assert!(!rasterize_point(&[0.0, 0.0, 2.0, 1.0], &st, |f| behind.push(f.x)));
        assert!(behind.is_empty());
    }

    #[test]
    fn msaa_edge_covers_exactly_the_samples_inside() {
        // 4× pattern (1/16 px from the center): (−2, −6), (6, −2), (−6, 2), (2, 6). The edge
        // x + y = 4 crosses pixel (1, 2), center (1.5, 2.5): its samples sit at x + y = 3.5,
        // 4.25, 3.75, 4.5, so the upper-left triangle covers samples 0 and 2, the lower-right
        // one samples 1 and 3. Pixel (2, 2) (sums 4.5 .. 5.5) is outside the first entirely.
        let mut st = state(4, 4);
        st.samples = standard_sample_positions(4).unwrap();
        let run = |tri: &[[f32; 4]; 3]| {
            let mut v = Vec::new();
            rasterize_triangle(tri, &st, |f| v.push(*f));
            v
        };
        // z = 0.1·x on the first triangle.
        let upper = run(&[at(0.0, 0.0, 4.0, 4.0, 0.0), at(4.0, 0.0, 4.0, 4.0, 0.4), at(0.0, 4.0, 4.0, 4.0, 0.0)]);
        let find = |v: &[Fragment], x, y| v.iter().find(|f| (f.x, f.y) == (x, y)).copied();
        let f = find(&upper, 1, 2).unwrap();
        assert_eq!(f.coverage, 0b0101);
        // Depth at each covered sample: 0.1 × 1.375 and 0.1 × 1.125.
        assert!((f.sample_depth[0] - 0.1375).abs() < 1e-6 && (f.sample_depth[2] - 0.1125).abs() < 1e-6);
        assert_eq!(find(&upper, 2, 1).unwrap().coverage, 0b0101);
        assert_eq!(find(&upper, 1, 1).unwrap().coverage, 0b1111);
        assert!(find(&upper, 2, 2).is_none());
        let lower = run(&[at(4.0, 0.0, 4.0, 4.0, 0.0), at(4.0, 4.0, 4.0, 4.0, 0.0), at(0.0, 4.0, 4.0, 4.0, 0.0)]);
        assert_eq!(find(&lower, 1, 2).unwrap().coverage, 0b1010);
        assert_eq!(find(&lower, 2, 2).unwrap().coverage, 0b1111);
        // Together the two triangles cover every sample of every pixel exactly once.
        for y in 0..4 {
            for x in 0..4 {
                let a = find(&upper, x, y).map_or(0, |f| f.coverage);
                let b = find(&lower, x, y).map_or(0, |f| f.coverage);
                assert_eq!((a & b, a | b), (0, 0b1111), "pixel ({x}, {y})");
            }
        }
    }
}
