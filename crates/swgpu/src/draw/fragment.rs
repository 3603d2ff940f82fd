//! The fragment stage: one set-up primitive rasterized inside one screen tile, its pixel
//! shader run on 2x2 quads of its fragments, and the output merger's tests and writes of
//! each shaded sample. Runs on any worker: it reads the draw's [`DrawState`] and writes the
//! targets only at the tile's pixels.

use super::merge::{alpha_coverage, bits, depth_write, write_pixel};
use super::setup::{DrawState, Raster, SetupPrimitive};
use super::target::{DepthStencilTarget, Target};
use super::{bits_of, input_element, Bindings, Class, DrawError, Handles};
use super::{INTERP_CONSTANT, INTERP_LINEAR_CENTROID, INTERP_LINEAR_SAMPLE, INTERP_NOPERSPECTIVE};
use super::{INTERP_NOPERSPECTIVE_CENTROID, INTERP_NOPERSPECTIVE_SAMPLE};
use super::{SV_COVERAGE, SV_DEPTH, SV_IS_FRONT_FACE, SV_POSITION, SV_PRIMITIVE_ID};
use super::{SV_RENDER_TARGET_ARRAY_INDEX, SV_SAMPLE_INDEX, SV_STENCIL_REF, SV_TARGET, SV_VIEWPORT_ARRAY_INDEX};
use crate::input_assembler::Primitive;
use crate::raster::{self, Rect, Viewport};
use rd3d12_shader::dxil::exec::{self, Env, EvalAt, ExecError, SampleMode, Val};
use rd3d12_shader::dxil::SignatureElement;

/// What the pixel shader reports of a tile's work, summed over the tiles into [`super::DrawStats`].
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct FragmentStats {
    pub(super) ps_invocations: u64,
    pub(super) pixels_shaded: u64,
    pub(super) pixels_written: u64,
    pub(super) samples_passed: u64,
}

/// A worker's reusable buffers.
#[derive(Default)]
pub(super) struct Scratch {
    frags: Vec<raster::Fragment>,
    sorted: Vec<raster::Fragment>,
    lanes: [Handles; 4],
}

/// Rasterizes `prim` inside `tile` and shades, tests and writes its fragments there.
/// `handles`: the handles the draw's earlier stages created, which each quad starts from.
#[allow(clippy::too_many_arguments)]
pub(super) fn shade(
    st: &DrawState<'_>,
    prim: &SetupPrimitive,
    tile: Rect,
    handles: &Handles,
    targets: &[Option<Target<'_>>],
    depth: Option<&DepthStencilTarget<'_>>,
    scratch: &mut Scratch,
    stats: &mut FragmentStats,
) -> Result<(), DrawError> {
    let (p, call) = (st.p, st.call);
    let mut tstate = st.tstates[prim.tstate];
    tstate.bounds = tstate.bounds.intersect(&tile);
    if tstate.bounds.is_empty() {
        return Ok(());
    }
    let viewport = tstate.viewport;
    let (clip, bias, layer) = (&prim.clip, prim.bias, prim.layer);
    // Covered pixels, grouped by quad below.
    let Scratch { frags, sorted, lanes } = scratch;
    frags.clear();
    let mut add = |f: &raster::Fragment| {
        let mut f = *f;
        if st.forced_one {
            f.coverage = st.all_samples;
            f.sample_depth = [f.depth; raster::MAX_SAMPLES];
        }
        frags.push(f)
    };
    match &prim.raster {
        Raster::Point => {
            raster::rasterize_point(&clip[0], &tstate, &mut add);
        }
        Raster::Line(l) => l.rasterize(&tstate, &mut add),
        Raster::Triangle(t) => t.rasterize(st.wireframe, &tstate, &mut add),
    }
    if st.wireframe {
        // Edges meet in corners; a pixel two edges cover is drawn once.
        frags.sort_by_key(|f| (f.y, f.x));
        frags.dedup_by_key(|f| (f.y, f.x));
    }
    if frags.is_empty() {
        return Ok(());
    }
    let sample_mask = st.sample_mask;
    let Some(ps) = &st.ps else {
        // No pixel shader: depth only.
        for f in frags.iter() {
            for s in bits(f.coverage & sample_mask) {
                let pass = match depth {
                    Some(d) => depth_write(
                        (d, st.depth_kind),
                        p,
                        &viewport,
                        (f.x, f.y, s, layer),
                        f.sample_depth[s as usize] + bias,
                        f.front_facing,
                        call.stencil_ref,
                    ),
                    None => true,
                };
                stats.samples_passed += u64::from(pass);
            }
        }
        return Ok(());
    };
    let ps_fn = ps.function.ok_or(DrawError::Shader(ExecError::Malformed("entry".into())))?;
    let shader = ps.shader;
    let samples = st.samples;
    let per_sample = ps.per_sample;
    let passes = if per_sample { samples.len() } else { 1 };
    let varyings = &prim.varyings;
    let ps_res = &ps.resources[..];
    // Quads in (y, x) order, each quad's fragments in raster order.
    let quad_of = |f: &raster::Fragment| (f.y & !1, f.x & !1);
    quad_order(frags, sorted);
    for covered in frags.chunk_by(|a, b| quad_of(a) == quad_of(b)) {
        let (qy, qx) = quad_of(&covered[0]);
        let front = covered[0].front_facing;
        let shape = match (&prim.kind, &prim.raster) {
            (Primitive::Point(_), _) => Shape::Point(covered[0].depth),
            (_, Raster::Line(l)) => Shape::Line(l),
            _ => Shape::Triangle(clip),
        };
        // At sample frequency, pass n shades sample n of the pixels that cover it.
        for pass in 0..passes {
            let only = if per_sample { 1u16 << pass } else { u16::MAX };
            if covered.iter().all(|f| f.coverage & only == 0) {
                continue;
            }
            // Each lane starts from the handles the draw made so far (allocations reused).
            for hs in lanes.iter_mut() {
                hs.list.clone_from(&handles.list);
                hs.strides.clone_from(&handles.strides);
            }
            let mut zs = [[0.0f32; raster::MAX_SAMPLES]; 4];
            let mut coverage = [0u16; 4];
            let mut lane_env = |lane: usize, hs| {
                let (x, y) = (qx + (lane as i32 & 1), qy + (lane as i32 >> 1));
                let frag = covered.iter().find(|f| f.x == x && f.y == y);
                if let Some(f) = frag {
                    zs[lane] = f.sample_depth;
                    coverage[lane] = f.coverage & only;
                }
                let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                let (persp, linear, z) = match frag {
                    Some(f) => (f.persp, f.linear, f.depth),
                    // Helpers: the primitive's weights extended to the pixel.
                    None => shape.weights(cx, cy, &viewport),
                };
                // SV_Position.w: the clip-space w at the pixel (1/w is linear on screen).
                let inv_w: f32 = (0..3).map(|k| linear[k] / clip[k][3]).sum();
                let w = if inv_w != 0.0 { 1.0 / inv_w } else { 0.0 };
                PsEnv {
                    inputs: &shader.entry.inputs,
                    varyings,
                    persp,
                    linear,
                    position: [cx, cy, z, w],
                    shape,
                    viewport,
                    viewport_index: prim.viewport_index,
                    layer,
                    pixel: (x, y),
                    samples,
                    raster_coverage: frag.map_or(0, |f| f.coverage),
                    sample: per_sample.then_some(pass as u32),
                    front,
                    primitive_id: prim.prim_id,
                    helper: coverage[lane] == 0,
                    discarded: false,
                    targets: Default::default(),
                    depth: None,
                    coverage: u32::from(coverage[lane] & sample_mask),
                    out_coverage: None,
                    stencil_ref: None,
                    handles: hs,
                    resources: ps_res,
                    outputs: &shader.entry.outputs,
                    bindings: ps.bindings,
                }
            };
            // Built in place (an array, not pushed into a Vec): the environments are moved
            // and freed per quad otherwise.
            let [h0, h1, h2, h3] = lanes.each_mut();
            let mut envs = [lane_env(0, h0), lane_env(1, h1), lane_env(2, h2), lane_env(3, h3)];
            {
                let [a, b, c, d] = &mut envs;
                exec::run_quad(shader.module, ps_fn, [a, b, c, d])?;
            }
            for (lane, env) in envs.iter().enumerate() {
                stats.ps_invocations += u64::from(!env.helper);
                if env.helper || env.discarded {
                    continue;
                }
                stats.pixels_shaded += 1;
                let (x, y) = (qx + (lane as i32 & 1), qy + (lane as i32 >> 1));
                let mut mask = coverage[lane] & sample_mask & env.out_coverage.map_or(0xFFFF, |m| m as u16);
                if p.blend.alpha_to_coverage {
                    let alpha = env.targets.first().copied().flatten().map_or(1.0, |t| f32::from_bits(t[3]));
                    mask &= alpha_coverage(alpha, samples.len());
                }
                // Per sample: the depth-stencil test (SV_Depth replaces the rasterized
                // depth; the bias applies to the latter only), then the output.
                let mut passed = 0u16;
                for s in bits(mask) {
                    let z = env.depth.unwrap_or(zs[lane][s as usize] + bias);
                    if let Some(d) = depth {
                        let stencil_ref = env.stencil_ref.unwrap_or(call.stencil_ref);
                        if !depth_write((d, st.depth_kind), p, &viewport, (x, y, s, layer), z, front, stencil_ref) {
                            continue;
                        }
                    }
                    passed |= 1 << s;
                }
                stats.samples_passed += u64::from(passed.count_ones());
                if passed == 0 {
                    continue;
                }
                let mut wrote = false;
                // Dual-source blending: SV_Target1 is the second source of target 0's
                // SRC1 blend factors.
                let src1 = env.targets[1].unwrap_or([0; 4]);
                for (n, slot) in targets.iter().enumerate() {
                    let (Some(t), Some(src)) = (slot.as_ref(), env.targets.get(n).cloned().flatten()) else {
                        continue;
                    };
                    if let Some(Some(info)) = st.target_info.get(n) {
                        for s in bits(passed) {
                            write_pixel(t, info, (x, y, s, layer), (&src, &src1), call.blend_factor);
                        }
                    }
                    wrote = true;
                }
                if wrote {
                    stats.pixels_written += 1;
                }
            }
        }
    }
    Ok(())
}

/// For each PS input (signature id, row): the values at the three vertices, and the
/// interpolation mode.
pub(super) type Varyings = Vec<((u32, u32), ([[f32; 4]; 3], u32))>;

/// The pixel shader's view of one pixel of a quad.
struct PsEnv<'b> {
    inputs: &'b [SignatureElement],
    /// For each PS input (by id and row): the values at the three vertices, and the mode.
    varyings: &'b Varyings,
    persp: [f32; 3],
    linear: [f32; 3],
    position: [f32; 4],
    /// The primitive, to interpolate at other points of the pixel than its center.
    shape: Shape<'b>,
    viewport: Viewport,
    /// The primitive's SV_ViewportArrayIndex and SV_RenderTargetArrayIndex.
    viewport_index: u32,
    layer: u32,
    /// The pixel's integer coordinates.
    pixel: (i32, i32),
    /// The render target's sample pattern.
    samples: &'b [(i8, i8)],
    /// The samples the primitive covers in this pixel (before SampleMask): where centroid
    /// inputs are evaluated.
    raster_coverage: u16,
    /// The sample this invocation shades when the shader runs per sample.
    sample: Option<u32>,
    front: bool,
    primitive_id: u32,
    helper: bool,
    discarded: bool,
    /// Each render target's color, as the 32-bit lanes the shader stored (floats as their bits).
    targets: [Option<[u32; 4]>; 8],
    depth: Option<f32>,
    /// Input SV_Coverage: the pixel's covered samples ANDed with SampleMask.
    coverage: u32,
    /// Output SV_Coverage, ANDed into the samples written.
    out_coverage: Option<u32>,
    /// SV_StencilRef as the shader wrote it.
    stencil_ref: Option<u8>,
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    outputs: &'b [SignatureElement],
    bindings: &'b dyn Bindings,
}

impl PsEnv<'_> {
    /// Helper lanes and discarded invocations write no UAV.
    fn writes(&self) -> bool {
        !self.helper && !self.discarded
    }

    /// Sample `n`'s position in the render target (the pixel center past the pattern's end).
    fn sample_point(&self, n: u32) -> (f32, f32) {
        let (dx, dy) = self.samples.get(n as usize).map_or((0.0, 0.0), |&(x, y)| (f32::from(x), f32::from(y)));
        (self.pixel.0 as f32 + 0.5 + dx / 16.0, self.pixel.1 as f32 + 0.5 + dy / 16.0)
    }

    /// Where centroid interpolation evaluates: the pixel center when the primitive covers
    /// every sample (or none: a helper), else the covered sample of lowest index.
    fn centroid_point(&self) -> (f32, f32) {
        let all = ((1u32 << self.samples.len()) - 1) as u16;
        if self.raster_coverage == 0 || self.raster_coverage & all == all {
            (self.pixel.0 as f32 + 0.5, self.pixel.1 as f32 + 0.5)
        } else {
            self.sample_point(self.raster_coverage.trailing_zeros())
        }
    }

    /// The (perspective-correct, screen-linear) weights of the primitive's vertices at a point.
    fn weights_at(&self, (x, y): (f32, f32)) -> ([f32; 3], [f32; 3]) {
        let (p, l, _) = self.shape.weights(x, y, &self.viewport);
        (p, l)
    }

    /// Input (sig, row) component `c` from its three vertices' values under `mode`, with the
    /// weights `w` (perspective-correct, screen-linear) of where it is evaluated.
    fn interpolate(
        &self,
        e: &SignatureElement,
        v: &[[f32; 4]; 3],
        mode: u32,
        c: usize,
        w: ([f32; 3], [f32; 3]),
    ) -> Val {
        let w = match mode {
            INTERP_CONSTANT => [1.0, 0.0, 0.0],
            INTERP_NOPERSPECTIVE | INTERP_NOPERSPECTIVE_CENTROID | INTERP_NOPERSPECTIVE_SAMPLE => w.1,
            _ => w.0,
        };
        // Relative to the first vertex, as rasterizers interpolate: an attribute equal at the
        // three vertices comes out exactly, whatever rounding the weights carry.
        let x = v[0][c] + w[1] * (v[1][c] - v[0][c]) + w[2] * (v[2][c] - v[0][c]);
        if e.component_type == 9 || e.component_type == 8 || mode != INTERP_CONSTANT {
            Val::F32(x)
        } else {
            Val::Int(u64::from(v[0][c].to_bits()))
        }
    }

    fn varying(&self, sig: u32, row: u32) -> Option<&([[f32; 4]; 3], u32)> {
        self.varyings.iter().find(|(k, _)| *k == (sig, row)).map(|(_, v)| v)
    }
}

/// The primitive a pixel shader runs for, to interpolate at any point of the render target.
#[derive(Clone, Copy)]
enum Shape<'a> {
    /// A point: every attribute is its vertex's; its depth.
    Point(f32),
    Line(&'a raster::LineSetup),
    /// A triangle's clip-space vertices.
    Triangle(&'a [[f32; 4]; 3]),
}

impl Shape<'_> {
    /// (perspective-correct weights, screen-linear weights, depth) at render-target point (x, y).
    fn weights(&self, x: f32, y: f32, vp: &Viewport) -> ([f32; 3], [f32; 3], f32) {
        match self {
            Shape::Point(z) => ([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], *z),
            Shape::Line(l) => l.weights_at(x, y, vp),
            Shape::Triangle(clip) => {
                raster::weights_at(clip, vp, x, y).unwrap_or(([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], 0.0))
            }
        }
    }
}

impl Env for PsEnv<'_> {
    /// Helper pixels (uncovered quad members) and invocations that discarded: wave operations
    /// leave them out, quad reads and derivatives still see them.
    fn is_helper(&self) -> bool {
        self.helper || self.discarded
    }

    fn load_input(&mut self, sig: u32, row: u32, col: u8, vertex: Option<u32>) -> Result<Val, ExecError> {
        let e = input_element(self.inputs, sig)?;
        let c = col as usize & 3;
        if let Some(k) = vertex {
            // GetAttributeAtVertex: the value at vertex k of the primitive, not interpolated.
            let v = self
                .varyings
                .iter()
                .find(|(key, _)| *key == (sig, row))
                .map_or(0.0, |(_, (v, _))| v.get(k as usize).map_or(0.0, |x| x[c]));
            return Ok(if e.component_type == 9 || e.component_type == 8 {
                Val::F32(v)
            } else {
                Val::Int(u64::from(v.to_bits()))
            });
        }
        Ok(match e.semantic_kind {
            // At sample frequency a position declared `sample` is the sample's.
            SV_POSITION if c < 2 && e.interpolation == INTERP_NOPERSPECTIVE_SAMPLE && self.sample.is_some() => {
                let (x, y) = self.sample_point(self.sample.unwrap_or(0));
                Val::F32(if c == 0 { x } else { y })
            }
            SV_POSITION => Val::F32(self.position[c]),
            SV_IS_FRONT_FACE => Val::Int(u64::from(self.front)),
            SV_PRIMITIVE_ID => Val::Int(u64::from(self.primitive_id)),
            SV_SAMPLE_INDEX => Val::Int(u64::from(self.sample.unwrap_or(0))),
            SV_RENDER_TARGET_ARRAY_INDEX => Val::Int(u64::from(self.layer)),
            SV_VIEWPORT_ARRAY_INDEX => Val::Int(u64::from(self.viewport_index)),
            _ => match self.varying(sig, row) {
                Some((v, mode)) => {
                    let w = match *mode {
                        INTERP_LINEAR_SAMPLE | INTERP_NOPERSPECTIVE_SAMPLE if self.sample.is_some() => {
                            self.weights_at(self.sample_point(self.sample.unwrap_or(0)))
                        }
                        INTERP_LINEAR_CENTROID | INTERP_NOPERSPECTIVE_CENTROID if !self.helper => {
                            self.weights_at(self.centroid_point())
                        }
                        _ => (self.persp, self.linear),
                    };
                    self.interpolate(e, v, *mode, c, w)
                }
                None => Val::F32(0.0),
            },
        })
    }
    /// EvalSnapped / EvalSampleIndex / EvalCentroid: the input's declared mode minus its
    /// centroid or sample part, at the pixel center moved by sixteenths, at a sample of the
    /// pattern, or at the centroid ("Use of centroid or sample is ignored. Attributes with
    /// constant interpolation are also allowed": EvaluateAttribute* docs).
    fn eval_input(&mut self, sig: u32, row: u32, col: u8, at: EvalAt) -> Result<Val, ExecError> {
        let e = input_element(self.inputs, sig)?;
        let Some((v, mode)) = self.varying(sig, row) else {
            return Ok(Val::F32(0.0));
        };
        let point = match at {
            EvalAt::Snapped(x, y) => {
                (self.pixel.0 as f32 + 0.5 + x as f32 / 16.0, self.pixel.1 as f32 + 0.5 + y as f32 / 16.0)
            }
            EvalAt::Sample(n) => self.sample_point(n),
            EvalAt::Centroid => self.centroid_point(),
        };
        Ok(self.interpolate(e, v, *mode, col as usize & 3, self.weights_at(point)))
    }
    fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> Result<(), ExecError> {
        let e =
            self.outputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("output signature".into()))?;
        match e.semantic_kind {
            SV_TARGET => {
                let n = e.semantic_indices.first().copied().unwrap_or(0) as usize;
                if let Some(t) = self.targets.get_mut(n) {
                    let slot = t.get_or_insert([0; 4]);
                    slot[col as usize & 3] = bits_of(value);
                }
            }
            SV_DEPTH => {
                if let Val::F32(z) = value {
                    self.depth = Some(*z);
                }
            }
            SV_COVERAGE => self.out_coverage = Some(bits_of(value)),
            // The stencil reference the depth-stencil test and REPLACE use for this pixel (its
            // low 8 bits), instead of OMSetStencilRef's.
            SV_STENCIL_REF => self.stencil_ref = Some(bits_of(value) as u8),
            _ => {}
        }
        Ok(())
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        self.discarded = true;
        Ok(())
    }
    fn sample_count(&mut self) -> Result<u32, ExecError> {
        Ok(self.samples.len() as u32)
    }
    fn sample_position(&mut self, index: u32) -> Result<[f32; 2], ExecError> {
        Ok(self.samples.get(index as usize).map_or([0.0; 2], |&(x, y)| [f32::from(x) / 16.0, f32::from(y) / 16.0]))
    }
    /// SampleIndex (90): the sample this invocation shades (0 at pixel frequency, see
    /// [`draw`]); Coverage (91): the covered samples under SampleMask (at sample frequency only
    /// the invocation's own).
    fn system_value(&mut self, opcode: u32, _component: u32) -> Result<u32, ExecError> {
        match opcode {
            90 => Ok(self.sample.unwrap_or(0)),
            91 => Ok(self.coverage),
            _ => Err(ExecError::Unsupported(format!("dx.op {opcode} in a pixel shader"))),
        }
    }
    resource_ops!();
}

/// Puts fragments in quad order: quads by (y, x) of their top-left pixel, each quad's fragments
/// in raster order (what a stable sort by quad gives). The rasterizer emits a triangle's pixels
/// row by row, so pairs of rows merge in one pass; other orders (clipped polygons, lines) are
/// sorted by pixel first.
pub(super) fn quad_order(frags: &mut Vec<raster::Fragment>, scratch: &mut Vec<raster::Fragment>) {
    let key = |f: &raster::Fragment| (f.y, f.x);
    if !frags.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
        frags.sort_unstable_by_key(key);
    }
    scratch.clear();
    let mut rest = &frags[..];
    while let Some(first) = rest.first() {
        // The rows of this quad row: y even (top) and y + 1 (bottom), each sorted by x.
        let qy = first.y & !1;
        let end = rest.iter().position(|f| f.y & !1 != qy).unwrap_or(rest.len());
        let (pair, tail) = rest.split_at(end);
        let split = pair.iter().position(|f| f.y != pair[0].y).unwrap_or(pair.len());
        let (mut top, mut bottom) = pair.split_at(split);
        if top.first().is_some_and(|f| f.y & 1 == 1) {
            // Only the bottom row has pixels here.
            (top, bottom) = (&[], top);
        }
        while !top.is_empty() || !bottom.is_empty() {
            let qx = match (top.first(), bottom.first()) {
                (Some(a), Some(b)) => (a.x & !1).min(b.x & !1),
                (Some(a), None) => a.x & !1,
                (None, Some(b)) => b.x & !1,
                (None, None) => break,
            };
            let t = top.iter().position(|f| f.x & !1 != qx).unwrap_or(top.len());
            let b = bottom.iter().position(|f| f.x & !1 != qx).unwrap_or(bottom.len());
            scratch.extend_from_slice(&top[..t]);
            scratch.extend_from_slice(&bottom[..b]);
            top = &top[t..];
            bottom = &bottom[b..];
        }
        rest = tail;
    }
    std::mem::swap(frags, scratch);
}
