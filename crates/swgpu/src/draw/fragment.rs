//! The fragment stage: one set-up primitive rasterized inside one screen tile, its pixel
//! shader run on 2x2 quads of its fragments, and the output merger's tests and writes of
//! each shaded sample. Runs on any worker: it reads the draw's [`DrawState`] and writes the
//! targets only at the tile's pixels.

use super::merge::{alpha_coverage, bits, depth_write, write_pixel};
use super::setup::{DrawState, Raster, SetupPrimitive};
use super::target::{DepthStencilTarget, Target};
use super::{input_element, Bindings, Class, DrawError, Handles};
use crate::input_assembler::Primitive;
use crate::raster::{self, Rect, Viewport};
use rd3d12_shader::dxil::metadata::FORCE_EARLY_DEPTH_STENCIL;
use rd3d12_shader::interp::env::{lanes, At, GatherReq, LodReq, SampleReq};
use rd3d12_shader::interp::{self, Mask, WaveEnv};
use rd3d12_shader::interp::{EvalAt, ExecError};
use rd3d12_shader::ir::interface::{ComponentType, Interpolation, SemanticKind, SignatureElement};
use rd3d12_shader::ir::Scalar;

/// What the pixel shader reports of a tile's work, summed over the tiles into [`super::DrawStats`].
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct FragmentStats {
    pub(super) ps_invocations: u64,
    pub(super) pixels_shaded: u64,
    pub(super) pixels_written: u64,
    pub(super) samples_passed: u64,
}

/// A worker's reusable buffers.
pub(super) struct Scratch {
    frags: Vec<raster::Fragment>,
    /// Each quad's fragments in `frags`, by place ([`quad_order`]).
    quads: Vec<[u32; 4]>,
    /// The handles a wave's shader creates.
    handles: Handles,
    /// The state of each lane of a pixel-shader wave.
    lanes: Box<[Lane; PS_WAVE]>,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            frags: Vec::new(),
            quads: Vec::new(),
            handles: Handles::default(),
            lanes: Box::new([Lane::default(); PS_WAVE]),
        }
    }
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
    let Scratch { frags, quads, handles: wave_handles, lanes: lane_state } = scratch;
    frags.clear();
    let forced = st.forced_one.then_some(st.all_samples);
    let mut add = |f: &raster::Fragment| {
        frags.push(*f);
        if let (Some(all), Some(f)) = (forced, frags.last_mut()) {
            f.coverage = all;
            f.sample_depth = [f.depth; raster::MAX_SAMPLES];
        }
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
    // [earlydepthstencil]: the depth-stencil test (and its writes) runs before the shader, and
    // pixels failing it never run: they become helper lanes, and the merge tests nothing more.
    let early = depth.filter(|_| shader.entry.shader_flags & FORCE_EARLY_DEPTH_STENCIL != 0);
    // Quads in (y, x) order, each quad's fragments by place.
    quad_order(frags, quads);
    // Any covered pixel of a quad (a quad covers one at least).
    let some = |q: &[u32; 4]| q.iter().copied().find(|&k| k != NONE).unwrap_or(0) as usize;
    let shape = match (&prim.kind, &prim.raster) {
        (Primitive::Point(_), _) => Shape::Point(frags[0].depth),
        (_, Raster::Line(l)) => Shape::Line(l),
        _ => Shape::Triangle(clip),
    };
    let mut wave = PsWave {
        inputs: &shader.entry.inputs,
        outputs: &shader.entry.outputs,
        varyings: &prim.varyings,
        shape,
        viewport,
        viewport_index: prim.viewport_index,
        layer,
        samples,
        sample: None,
        front: frags[0].front_facing,
        primitive_id: prim.prim_id,
        clip,
        handles: wave_handles,
        resources: &ps.resources[..],
        bindings: ps.bindings,
        lanes: lane_state,
        helpers: 0,
        discarded: 0,
    };
    wave.handles.list.clone_from(&handles.list);
    wave.handles.strides.clone_from(&handles.strides);
    // At sample frequency, pass n shades sample n of the pixels that cover it.
    for pass in 0..passes {
        let only = if per_sample { 1u16 << pass } else { u16::MAX };
        wave.sample = per_sample.then_some(pass as u32);
        let mut next = 0;
        while next < quads.len() {
            // The next quads that cover a sample of this pass, as one wave.
            let mut batch = [0usize; PS_QUADS];
            let mut n = 0;
            while n < PS_QUADS && next < quads.len() {
                if quads[next].iter().any(|&k| k != NONE && frags[k as usize].coverage & only != 0) {
                    batch[n] = next;
                    n += 1;
                }
                next += 1;
            }
            if n == 0 {
                break;
            }
            wave.helpers = 0;
            wave.discarded = 0;
            for (j, &q) in batch[..n].iter().enumerate() {
                let at = quads[q];
                let corner = &frags[some(&at)];
                let (qy, qx) = (corner.y & !1, corner.x & !1);
                for (i, &k) in at.iter().enumerate() {
                    let lane = 4 * j + i;
                    let (x, y) = (qx + (i as i32 & 1), qy + (i as i32 >> 1));
                    let frag = (k != NONE).then(|| &frags[k as usize]);
                    let ls = &mut wave.lanes[lane];
                    ls.frag = k;
                    ls.covered = frag.map_or(0, |f| f.coverage & only);
                    if let (Some(d), Some(f)) = (early, frag) {
                        let test = |s: u32| {
                            let z = f.sample_depth[s as usize] + bias;
                            let at = (x, y, s, layer);
                            depth_write((d, st.depth_kind), p, &viewport, at, z, f.front_facing, call.stencil_ref)
                        };
                        ls.covered = bits(ls.covered & sample_mask).filter(|&s| test(s)).fold(0, |m, s| m | 1 << s);
                    }
                    let (cx, cy) = (x as f32 + 0.5, y as f32 + 0.5);
                    let (persp, linear, z) = match frag {
                        Some(f) => (f.persp, f.linear, f.depth),
                        // Helpers: the primitive's weights extended to the pixel.
                        None => shape.weights(cx, cy, &viewport),
                    };
                    ls.persp = persp;
                    ls.linear = linear;
                    ls.position = [cx, cy, z];
                    ls.pixel = (x, y);
                    ls.raster_coverage = frag.map_or(0, |f| f.coverage);
                    ls.coverage = u32::from(ls.covered & sample_mask);
                    ls.written = 0;
                    ls.depth = None;
                    ls.out_coverage = None;
                    ls.stencil_ref = None;
                    if ls.covered == 0 {
                        wave.helpers |= 1 << lane;
                    }
                }
            }
            interp::run_wave(shader.module, ps_fn, &mut wave, 4 * n, PS_WAVE)?;
            for (j, &q) in batch[..n].iter().enumerate() {
                let front = frags[some(&quads[q])].front_facing;
                for lane in 4 * j..4 * j + 4 {
                    let helper = wave.helpers >> lane & 1 != 0;
                    stats.ps_invocations += u64::from(!helper);
                    if helper || wave.discarded >> lane & 1 != 0 {
                        continue;
                    }
                    let ls = &wave.lanes[lane];
                    let zs = &frags[ls.frag as usize].sample_depth;
                    let late = if early.is_some() { None } else { depth };
                    merge_lane(st, ls, zs, (targets, late), (&viewport, bias, layer, front), stats);
                }
            }
        }
    }
    Ok(())
}

/// The output merger for one shaded pixel: the depth-stencil test of each covered sample and
/// the writes of the colors the shader stored.
fn merge_lane(
    st: &DrawState<'_>,
    ls: &Lane,
    zs: &[f32; raster::MAX_SAMPLES],
    (targets, depth): (&[Option<Target<'_>>], Option<&DepthStencilTarget<'_>>),
    (viewport, bias, layer, front): (&Viewport, f32, u32, bool),
    stats: &mut FragmentStats,
) {
    let (p, call) = (st.p, st.call);
    stats.pixels_shaded += 1;
    let (x, y) = ls.pixel;
    let mut mask = ls.covered & st.sample_mask & ls.out_coverage.map_or(0xFFFF, |m| m as u16);
    if p.blend.alpha_to_coverage {
        let alpha = if ls.written & 1 != 0 { f32::from_bits(ls.targets[0][3]) } else { 1.0 };
        mask &= alpha_coverage(alpha, st.samples.len());
    }
    // Per sample: the depth-stencil test (SV_Depth replaces the rasterized depth; the bias
    // applies to the latter only), then the output.
    let mut passed = 0u16;
    match depth {
        // Without a depth-stencil view every sample passes.
        None => passed = mask,
        Some(d) => {
            for s in bits(mask) {
                let z = ls.depth.unwrap_or(zs[s as usize] + bias);
                let stencil_ref = ls.stencil_ref.unwrap_or(call.stencil_ref);
                if depth_write((d, st.depth_kind), p, viewport, (x, y, s, layer), z, front, stencil_ref) {
                    passed |= 1 << s;
                }
            }
        }
    }
    stats.samples_passed += u64::from(passed.count_ones());
    if passed == 0 {
        return;
    }
    // Target-independent rasterization: the single-sampled targets take a pixel any of whose
    // forced samples passed.
    let written = if st.tir_targets { 1 } else { passed };
    let mut wrote = false;
    // Dual-source blending: SV_Target1 is the second source of target 0's SRC1 blend factors.
    let src1 = if ls.written & 2 != 0 { ls.targets[1] } else { [0; 4] };
    for (n, slot) in targets.iter().enumerate() {
        let Some(t) = slot.as_ref() else { continue };
        if n >= 8 || ls.written >> n & 1 == 0 {
            continue;
        }
        let src = ls.targets[n];
        if let Some(Some(info)) = st.target_info.get(n) {
            for s in bits(written) {
                write_pixel(t, info, (x, y, s, layer), (&src, &src1), call.blend_factor);
            }
        }
        wrote = true;
    }
    if wrote {
        stats.pixels_written += 1;
    }
}

/// The lanes of `m` when they are the wave's first ones (every lane of a full or partial
/// wave, the common mask): their count.
#[inline(always)]
fn whole(m: Mask) -> Option<usize> {
    (m & m.wrapping_add(1) == 0).then(|| (Mask::BITS - m.leading_zeros()) as usize)
}

/// Quads per pixel-shader wave, and its lanes (WaveGetLaneCount in a pixel shader).
const PS_QUADS: usize = 8;
const PS_WAVE: usize = 4 * PS_QUADS;

type R<T> = Result<T, ExecError>;

/// For each PS input (signature id, row): the values at the three vertices, and the
/// interpolation mode.
pub(super) type Varyings = Vec<((u32, u32), ([[f32; 4]; 3], Interpolation))>;

/// One lane of a pixel-shader wave: its pixel, where it is evaluated, what it wrote.
#[derive(Clone, Copy)]
struct Lane {
    /// The pixel's integer coordinates.
    pixel: (i32, i32),
    persp: [f32; 3],
    linear: [f32; 3],
    /// SV_Position's x, y, z (its w: [`PsWave::position_w`]).
    position: [f32; 3],
    /// The samples the primitive covers in this pixel (before SampleMask): where centroid
    /// inputs are evaluated.
    raster_coverage: u16,
    /// The samples this invocation shades (this pass's of `raster_coverage`); 0: a helper.
    covered: u16,
    /// Input SV_Coverage: the covered samples ANDed with SampleMask.
    coverage: u32,
    /// The lane's fragment in the tile's list (`u32::MAX`: none, a helper).
    frag: u32,
    /// Each render target's color, as the 32-bit lanes the shader stored (floats as their
    /// bits), and which targets it wrote (bit n: SV_Target n).
    targets: [[u32; 4]; 8],
    written: u8,
    depth: Option<f32>,
    /// Output SV_Coverage, ANDed into the samples written.
    out_coverage: Option<u32>,
    /// SV_StencilRef as the shader wrote it.
    stencil_ref: Option<u8>,
}

impl Default for Lane {
    fn default() -> Self {
        Lane {
            pixel: (0, 0),
            persp: [0.0; 3],
            linear: [0.0; 3],
            position: [0.0; 3],
            raster_coverage: 0,
            covered: 0,
            coverage: 0,
            frag: u32::MAX,
            targets: [[0; 4]; 8],
            written: 0,
            depth: None,
            out_coverage: None,
            stencil_ref: None,
        }
    }
}

/// The pixel shader's view of a wave of quads of one primitive.
struct PsWave<'b> {
    inputs: &'b [SignatureElement],
    outputs: &'b [SignatureElement],
    /// For each PS input (by id and row): the values at the three vertices, and the mode.
    varyings: &'b Varyings,
    /// The primitive, to interpolate at other points of the pixel than its center.
    shape: Shape<'b>,
    viewport: Viewport,
    /// The primitive's SV_ViewportArrayIndex and SV_RenderTargetArrayIndex.
    viewport_index: u32,
    layer: u32,
    /// The render target's sample pattern.
    samples: &'b [(i8, i8)],
    /// The sample this pass shades when the shader runs per sample.
    sample: Option<u32>,
    front: bool,
    primitive_id: u32,
    /// The primitive's clip-space vertices.
    clip: &'b [[f32; 4]; 3],
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
    lanes: &'b mut [Lane; PS_WAVE],
    /// Lanes that are helpers (uncovered quad members), and lanes that discarded.
    helpers: Mask,
    discarded: Mask,
}

impl PsWave<'_> {
    /// Helper lanes and discarded invocations write no UAV.
    fn writes(&self, m: Mask) -> Mask {
        m & !self.helpers & !self.discarded
    }

    /// Sample `n`'s position in the render target (the pixel center past the pattern's end).
    fn sample_point(&self, l: usize, n: u32) -> (f32, f32) {
        let (dx, dy) = self.samples.get(n as usize).map_or((0.0, 0.0), |&(x, y)| (f32::from(x), f32::from(y)));
        let p = self.lanes[l].pixel;
        (p.0 as f32 + 0.5 + dx / 16.0, p.1 as f32 + 0.5 + dy / 16.0)
    }

    /// Where centroid interpolation evaluates: the pixel center when the primitive covers
    /// every sample (or none: a helper), else the covered sample of lowest index.
    fn centroid_point(&self, l: usize) -> (f32, f32) {
        let all = ((1u32 << self.samples.len()) - 1) as u16;
        let (rc, p) = (self.lanes[l].raster_coverage, self.lanes[l].pixel);
        if rc == 0 || rc & all == all {
            (p.0 as f32 + 0.5, p.1 as f32 + 0.5)
        } else {
            self.sample_point(l, rc.trailing_zeros())
        }
    }

    /// The (perspective-correct, screen-linear) weights of the primitive's vertices at a point.
    fn weights_at(&self, (x, y): (f32, f32)) -> ([f32; 3], [f32; 3]) {
        let (p, l, _) = self.shape.weights(x, y, &self.viewport);
        (p, l)
    }

    /// SV_Position.w: the clip-space w at the pixel (1/w is linear on screen).
    fn position_w(&self, l: usize) -> f32 {
        let inv_w: f32 = (0..3).map(|k| self.lanes[l].linear[k] / self.clip[k][3]).sum();
        if inv_w != 0.0 {
            1.0 / inv_w
        } else {
            0.0
        }
    }

    fn varying(&self, sig: u32, row: u32) -> Option<&([[f32; 4]; 3], Interpolation)> {
        self.varyings.iter().find(|(k, _)| *k == (sig, row)).map(|(_, v)| v)
    }
}

/// Input (sig, row) component `c` from its three vertices' values `v` under `mode`, with the
/// weights `w` (perspective-correct, screen-linear) of where it is evaluated, as the bits of
/// a slot of type `s`.
#[inline(always)]
fn interpolate(
    float: bool,
    v: &[[f32; 4]; 3],
    mode: Interpolation,
    c: usize,
    w: (&[f32; 3], &[f32; 3]),
    s: Scalar,
) -> u64 {
    let w = match mode {
        Interpolation::Constant => &[1.0, 0.0, 0.0],
        Interpolation::LinearNoperspective
        | Interpolation::LinearNoperspectiveCentroid
        | Interpolation::LinearNoperspectiveSample => w.1,
        _ => w.0,
    };
    // Relative to the first vertex, as rasterizers interpolate: an attribute equal at the
    // three vertices comes out exactly, whatever rounding the weights carry.
    let x = v[0][c] + w[1] * (v[1][c] - v[0][c]) + w[2] * (v[2][c] - v[0][c]);
    if float || mode != Interpolation::Constant {
        f32_bits(x, s)
    } else {
        s.mask(u64::from(v[0][c].to_bits()))
    }
}

/// A float as the bits of a slot of type `s`.
#[inline(always)]
fn f32_bits(x: f32, s: Scalar) -> u64 {
    match s {
        Scalar::F64 | Scalar::F16 => interp::alu::from_f32(s, x),
        s => s.mask(u64::from(x.to_bits())),
    }
}

/// The bits of a slot of type `s` as the 32-bit word a target or system value holds.
#[inline(always)]
fn word_of(bits: u64, s: Scalar) -> u32 {
    match s {
        Scalar::F64 | Scalar::F16 => interp::alu::to_f32(s, bits).to_bits(),
        _ => bits as u32,
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

impl WaveEnv for PsWave<'_> {
    /// Helper pixels (uncovered quad members): wave operations leave them out, quad reads and
    /// derivatives still see them.
    fn helpers(&self) -> Mask {
        self.helpers
    }

    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), vertex: Option<&[u64]>, s: Scalar, out: &mut [u64]) -> R<()> {
        let (sig, row, col) = at;
        let e = input_element(self.inputs, sig)?;
        let c = col as usize & 3;
        let float = matches!(e.component, ComponentType::F32 | ComponentType::F16);
        if let Some(k) = vertex {
            // GetAttributeAtVertex: the value at vertex k of the primitive, not interpolated.
            let v = self.varying(sig, row).map(|(v, _)| v);
            for l in lanes(m) {
                let x = v.and_then(|v| v.get(k[l] as usize)).map_or(0.0, |x| x[c]);
                out[l] = if float { f32_bits(x, s) } else { s.mask(u64::from(x.to_bits())) };
            }
            return Ok(());
        }
        let int = |v: u32| s.mask(u64::from(v));
        match e.semantic {
            // At sample frequency a position declared `sample` is the sample's.
            SemanticKind::Position
                if c < 2 && e.interpolation == Interpolation::LinearNoperspectiveSample && self.sample.is_some() =>
            {
                for l in lanes(m) {
                    let (x, y) = self.sample_point(l, self.sample.unwrap_or(0));
                    out[l] = f32_bits(if c == 0 { x } else { y }, s);
                }
            }
            SemanticKind::Position if c == 3 => lanes(m).for_each(|l| out[l] = f32_bits(self.position_w(l), s)),
            SemanticKind::Position => lanes(m).for_each(|l| out[l] = f32_bits(self.lanes[l].position[c], s)),
            SemanticKind::IsFrontFace => lanes(m).for_each(|l| out[l] = int(u32::from(self.front))),
            SemanticKind::PrimitiveId => lanes(m).for_each(|l| out[l] = int(self.primitive_id)),
            SemanticKind::SampleIndex => lanes(m).for_each(|l| out[l] = int(self.sample.unwrap_or(0))),
            SemanticKind::RenderTargetArrayIndex => lanes(m).for_each(|l| out[l] = int(self.layer)),
            SemanticKind::ViewportArrayIndex => lanes(m).for_each(|l| out[l] = int(self.viewport_index)),
            _ => match self.varying(sig, row) {
                // The common case: float slots of a whole wave, each lane at its pixel's own
                // weights. The same arithmetic as `interpolate`, in the same order.
                Some(&(v, mode))
                    if s == Scalar::F32
                        && whole(m).is_some()
                        && !matches!(
                            mode,
                            Interpolation::Constant
                                | Interpolation::LinearCentroid
                                | Interpolation::LinearNoperspectiveCentroid
                        )
                        && !(matches!(
                            mode,
                            Interpolation::LinearSample | Interpolation::LinearNoperspectiveSample
                        ) && self.sample.is_some()) =>
                {
                    let k = whole(m).unwrap_or(0).min(PS_WAVE);
                    let linear = matches!(
                        mode,
                        Interpolation::LinearNoperspective
                            | Interpolation::LinearNoperspectiveCentroid
                            | Interpolation::LinearNoperspectiveSample
                    );
                    let (v0, d1, d2) = (v[0][c], v[1][c] - v[0][c], v[2][c] - v[0][c]);
                    for (o, ls) in out[..k].iter_mut().zip(&self.lanes[..k]) {
                        let w = if linear { &ls.linear } else { &ls.persp };
                        *o = u64::from((v0 + w[1] * d1 + w[2] * d2).to_bits());
                    }
                }
                Some((v, mode)) => {
                    let mode = *mode;
                    for l in lanes(m) {
                        let ls = &self.lanes[l];
                        let w = match mode {
                            Interpolation::LinearSample | Interpolation::LinearNoperspectiveSample
                                if self.sample.is_some() =>
                            {
                                self.weights_at(self.sample_point(l, self.sample.unwrap_or(0)))
                            }
                            Interpolation::LinearCentroid | Interpolation::LinearNoperspectiveCentroid
                                if self.helpers >> l & 1 == 0 =>
                            {
                                self.weights_at(self.centroid_point(l))
                            }
                            _ => {
                                out[l] = interpolate(float, v, mode, c, (&ls.persp, &ls.linear), s);
                                continue;
                            }
                        };
                        out[l] = interpolate(float, v, mode, c, (&w.0, &w.1), s);
                    }
                }
                None => lanes(m).for_each(|l| out[l] = f32_bits(0.0, s)),
            },
        }
        Ok(())
    }
    /// EvalSnapped / EvalSampleIndex / EvalCentroid: the input's declared mode minus its
    /// centroid or sample part, at the pixel center moved by sixteenths, at a sample of the
    /// pattern, or at the centroid ("Use of centroid or sample is ignored. Attributes with
    /// constant interpolation are also allowed": EvaluateAttribute* docs).
    fn eval_input(&mut self, m: Mask, at: (u32, u32, u8), evals: &[EvalAt], s: Scalar, out: &mut [u64]) -> R<()> {
        let (sig, row, col) = at;
        let e = input_element(self.inputs, sig)?;
        let float = matches!(e.component, ComponentType::F32 | ComponentType::F16);
        let Some((v, mode)) = self.varying(sig, row) else {
            lanes(m).for_each(|l| out[l] = f32_bits(0.0, s));
            return Ok(());
        };
        for l in lanes(m) {
            let p = self.lanes[l].pixel;
            let point = match evals[l] {
                EvalAt::Snapped(x, y) => (p.0 as f32 + 0.5 + x as f32 / 16.0, p.1 as f32 + 0.5 + y as f32 / 16.0),
                EvalAt::Sample(n) => self.sample_point(l, n),
                EvalAt::Centroid => self.centroid_point(l),
            };
            let w = self.weights_at(point);
            out[l] = interpolate(float, v, *mode, col as usize & 3, (&w.0, &w.1), s);
        }
        Ok(())
    }
    fn store_output(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()> {
        let (sig, _row, col) = at;
        let e =
            self.outputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("output signature".into()))?;
        match e.semantic {
            SemanticKind::Target => {
                let n = e.semantic_indices.first().copied().unwrap_or(0) as usize;
                let c = col as usize & 3;
                match whole(m) {
                    // A whole wave's 32-bit values (what `word_of` keeps of them).
                    Some(k) if n < 8 && !matches!(s, Scalar::F64 | Scalar::F16) => {
                        let k = k.min(PS_WAVE);
                        for (ls, &v) in self.lanes[..k].iter_mut().zip(&values[..k]) {
                            if ls.written >> n & 1 == 0 {
                                ls.targets[n] = [0; 4];
                                ls.written |= 1 << n;
                            }
                            ls.targets[n][c] = v as u32;
                        }
                    }
                    _ if n < 8 => {
                        for l in lanes(m) {
                            let ls = &mut self.lanes[l];
                            if ls.written >> n & 1 == 0 {
                                ls.targets[n] = [0; 4];
                                ls.written |= 1 << n;
                            }
                            ls.targets[n][c] = word_of(values[l], s);
                        }
                    }
                    _ => {}
                }
            }
            // SV_DepthGreaterEqual / SV_DepthLessEqual (conservative depth) are the depth the
            // shader writes, as SV_Depth is; the inequality is the shader's promise.
            SemanticKind::Depth | SemanticKind::DepthGreaterEqual | SemanticKind::DepthLessEqual if s.is_float() => {
                lanes(m).for_each(|l| self.lanes[l].depth = Some(f32::from_bits(word_of(values[l], s))))
            }
            SemanticKind::Coverage => lanes(m).for_each(|l| self.lanes[l].out_coverage = Some(word_of(values[l], s))),
            // The stencil reference the depth-stencil test and REPLACE use for this pixel (its
            // low 8 bits), instead of OMSetStencilRef's.
            SemanticKind::StencilRef => {
                lanes(m).for_each(|l| self.lanes[l].stencil_ref = Some(word_of(values[l], s) as u8))
            }
            _ => {}
        }
        Ok(())
    }
    fn discard(&mut self, m: Mask) -> R<()> {
        self.discarded |= m;
        Ok(())
    }
    fn sample_count(&mut self, m: Mask, out: &mut [u32]) -> R<()> {
        lanes(m).for_each(|l| out[l] = self.samples.len() as u32);
        Ok(())
    }
    fn sample_position(&mut self, m: Mask, index: u32, out: &mut [[f32; 2]]) -> R<()> {
        let p = self.samples.get(index as usize).map_or([0.0; 2], |&(x, y)| [f32::from(x) / 16.0, f32::from(y) / 16.0]);
        lanes(m).for_each(|l| out[l] = p);
        Ok(())
    }
    /// SampleIndex (90): the sample this invocation shades (0 at pixel frequency, see
    /// [`draw`]); Coverage (91): the covered samples under SampleMask (at sample frequency only
    /// the invocation's own); ViewID (138): 0.
    fn system_value(&mut self, m: Mask, opcode: u32, _component: u32, out: &mut [u32]) -> R<()> {
        match opcode {
            90 => lanes(m).for_each(|l| out[l] = self.sample.unwrap_or(0)),
            91 => lanes(m).for_each(|l| out[l] = self.lanes[l].coverage),
            // ViewID: view instancing is not supported (ViewInstancingTier 0), so every draw has
            // the one view 0.
            138 => lanes(m).for_each(|l| out[l] = 0),
            _ => return Err(ExecError::Unsupported(format!("dx.op {opcode} in a pixel shader"))),
        }
        Ok(())
    }
    wave_resource_ops!();
}

/// No fragment at a place of a quad.
pub(super) const NONE: u32 = u32::MAX;

/// The quads of `frags` in quad order, into `quads`: quads by (y, x) of their top-left pixel,
/// each as the index in `frags` of its pixel at each place (0 top left, 1 top right, 2 bottom
/// left, 3 bottom right; [`NONE`] where it covers none). The rasterizer emits a triangle's
/// pixels row by row, so pairs of rows merge in one pass; other orders (clipped polygons,
/// lines) are sorted by pixel first.
pub(super) fn quad_order(frags: &mut [raster::Fragment], quads: &mut Vec<[u32; 4]>) {
    let key = |f: &raster::Fragment| (f.y, f.x);
    if !frags.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
        frags.sort_unstable_by_key(key);
    }
    quads.clear();
    let mut i = 0;
    while i < frags.len() {
        // The rows of this quad row: y even (top) and y + 1 (bottom), each sorted by x.
        let qy = frags[i].y & !1;
        let end = i + frags[i..].iter().position(|f| f.y & !1 != qy).unwrap_or(frags.len() - i);
        let split = i + frags[i..end].iter().position(|f| f.y != frags[i].y).unwrap_or(end - i);
        // (Only the bottom row has pixels when the first is odd.)
        let (mut t, t_end, mut b) = if frags[i].y & 1 == 1 { (end, end, i) } else { (i, split, split) };
        while t < t_end || b < end {
            let qx = match (frags[t..t_end].first(), frags[b..end].first()) {
                (Some(a), Some(c)) => (a.x & !1).min(c.x & !1),
                (Some(a), None) => a.x & !1,
                (None, Some(c)) => c.x & !1,
                (None, None) => break,
            };
            let mut q = [NONE; 4];
            while t < t_end && frags[t].x & !1 == qx {
                q[(frags[t].x & 1) as usize] = t as u32;
                t += 1;
            }
            while b < end && frags[b].x & !1 == qx {
                q[2 + (frags[b].x & 1) as usize] = b as u32;
                b += 1;
            }
            quads.push(q);
        }
        i = end;
    }
}
