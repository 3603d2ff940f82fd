//! Primitive setup, and the per-draw table it reads: which viewport and slice a primitive goes
//! to, its user clip and cull distances, its depth bias, the rasterizer's setup of it and the
//! values its pixel shader inputs interpolate. [`DrawState`] is built once per draw (sample
//! pattern, rasterizer states per viewport, linkage of the pixel shader's inputs, what the
//! output merger needs of each target) and shared read-only by the fragment workers.

use super::fragment::Varyings;
use super::merge::{DepthKind, TargetInfo};
use super::target::{DepthStencilTarget, Target};
use super::{bits_of, f32_of, Bindings, DrawCall, DrawError, DrawStats, ShadedVertex, Shader};
use crate::input_assembler::Primitive;
use crate::raster::{self, Cull, LineSetup, Rect, TriangleSetup, TriangleState};
use rd3d12_core::pipeline::PipelineDesc;
use rd3d12_shader::dxil::Function;
use rd3d12_shader::ir::interface::{Interpolation, SemanticKind, SignatureElement};
use rd3d12_sys as sys;

/// A pixel shader input row's source: (its (signature id, row), the last stage's output
/// (signature id, row) feeding it, its interpolation mode).
type VaryingLink = ((u32, u32), (u32, u32), Interpolation);

/// What the pixel shader stage needs, found once per draw.
pub(super) struct PsInfo<'c> {
    pub(super) shader: &'c Shader<'c>,
    /// Its entry function (`None`: malformed; the first primitive with pixels reports it).
    pub(super) function: Option<&'c Function>,
    pub(super) resources: Vec<rd3d12_shader::dxil::metadata::Resource>,
    /// A shader that reads SV_SampleIndex or has a `sample` input runs once per covered sample
    /// (sample-frequency execution, as D3D11 defined it and D3D12 keeps).
    pub(super) per_sample: bool,
    /// Its inputs' sources, one per input row the last stage writes.
    links: Vec<VaryingLink>,
    pub(super) bindings: &'c dyn Bindings,
}

/// The per-draw table: states and formats worked out once, read by setup and every worker.
pub(super) struct DrawState<'c> {
    pub(super) call: &'c DrawCall<'c>,
    pub(super) p: &'c PipelineDesc,
    /// The render targets' sample pattern.
    pub(super) samples: &'c [(i8, i8)],
    /// SampleMask, limited to the pattern's samples.
    pub(super) sample_mask: u16,
    /// ForcedSampleCount 1 on multisampled targets: the rasterizer takes one sample, at the
    /// pixel center, and a covered pixel covers every sample of the targets
    /// (D3D12_RASTERIZER_DESC::ForcedSampleCount; "MRT with ForcedSampleCount 1").
    pub(super) forced_one: bool,
    /// Target-independent rasterization (ForcedSampleCount above 1, any bound target
    /// single-sampled): the rasterizer takes `samples` (the forced count) and a pixel any of
    /// whose samples pass is written to the targets' only sample.
    pub(super) tir_targets: bool,
    pub(super) all_samples: u16,
    pub(super) wireframe: bool,
    /// Whether stream 0 reaches the rasterizer.
    pub(super) rasterize: bool,
    /// One rasterizer state per viewport: viewport ∩ its scissor ∩ the targets.
    pub(super) tstates: Vec<TriangleState<'c>>,
    pick: PrimitiveIndices,
    user_planes: UserPlanes,
    /// The outputs the stage after the vertex shader (or tessellation) reads.
    pub(super) pre_gs_outputs: &'c [SignatureElement],
    /// The outputs the rasterizer and the pixel shader read: the last stage before them.
    pub(super) last_outputs: &'c [SignatureElement],
    pub(super) ps: Option<PsInfo<'c>>,
    /// What the output merger needs of each bound target.
    pub(super) target_info: Vec<Option<TargetInfo>>,
    pub(super) depth_kind: Option<DepthKind>,
    depth_format: Option<sys::DXGI_FORMAT>,
}

/// How a set-up primitive is rasterized.
pub(super) enum Raster {
    Point,
    Line(LineSetup),
    Triangle(TriangleSetup),
}

/// One primitive after setup, ready for the fragment stage of any tile.
pub(super) struct SetupPrimitive {
    pub(super) kind: Primitive,
    /// Clip-space positions (points and lines repeat their last vertex).
    pub(super) clip: [[f32; 4]; 3],
    pub(super) raster: Raster,
    /// SV_ViewportArrayIndex (its state in [`DrawState::tstates`]: `tstate`) and
    /// SV_RenderTargetArrayIndex of the leading vertex.
    pub(super) viewport_index: u32,
    pub(super) tstate: usize,
    pub(super) layer: u32,
    pub(super) bias: f32,
    pub(super) prim_id: u32,
    /// The pixel shader's inputs at the three vertices (empty without a pixel shader).
    pub(super) varyings: Varyings,
    /// The pixels it may cover, within its viewport's bounds.
    pub(super) bounds: Rect,
}

impl<'c> DrawState<'c> {
    pub(super) fn new(
        call: &'c DrawCall<'c>,
        targets: &[Option<Target<'_>>],
        depth: Option<&DepthStencilTarget<'_>>,
        ps_bindings: &'c dyn Bindings,
    ) -> Result<DrawState<'c>, DrawError> {
        let p = call.pipeline;
        // ForcedSampleCount N above 1 (target-independent rasterization) rasterizes (and runs the
        // pixel shader) with N samples whatever is bound: nothing (UAV-only rendering) or
        // single-sampled render targets (CreateGraphicsPipelineState refuses others).
        let forced = p.rasterizer.forced_sample_count;
        // Any target bound is single-sampled then (UAV-only rendering binds none).
        let tir_targets = forced > 1;
        let count = if forced > 1 { forced } else { p.sample_count.max(1) };
        let standard = rd3d12_core::multisample::standard_sample_positions(count)
            .ok_or(DrawError::Unsupported("this sample count"))?;
        // SetSamplePositions' pattern, for pipelines of its sample count.
        let samples = match call.sample_positions {
            Some(s) if s.len() == standard.len() => s,
            _ => standard,
        };
        let sample_mask = (p.sample_mask & ((1u32 << samples.len()) - 1)) as u16;
        let forced_one = p.rasterizer.forced_sample_count == 1 && samples.len() > 1;
        let raster_samples = if forced_one {
            rd3d12_core::multisample::standard_sample_positions(1).unwrap_or(samples)
        } else {
            samples
        };
        let all_samples = ((1u32 << samples.len()) - 1) as u16;
        let pre_gs_outputs = call.tess.as_ref().map_or(&call.vs.entry.outputs, |t| &t.ds.entry.outputs);
        let last_outputs = call.gs.as_ref().map_or(pre_gs_outputs, |g| &g.entry.outputs);
        let rasterize = p.rasterizes(call.ps.is_some());
        // The outputs of the rasterized stream (a geometry shader's streams have their own).
        let rs = p.stream_output.rasterized_stream;
        let raster_outputs: Vec<SignatureElement> =
            last_outputs.iter().filter(|e| call.gs.is_none() || e.stream == rs).cloned().collect();
        let raster_outputs = &raster_outputs[..];
        // Without SV_Position the stages still run and stream out; only a disabled rasterizer is
        // valid then (CreateGraphicsPipelineState refuses the rest, see
        // [`PipelineDesc::rasterizes`]).
        if rasterize && !raster_outputs.iter().any(|e| e.semantic == SemanticKind::Position) {
            return Err(DrawError::Unsupported("rasterization without SV_Position"));
        }
        let rt = &p.rasterizer;
        let cull = Cull::from_d3d(rt.cull).unwrap_or(Cull::None);
        let limit = targets
            .iter()
            .flatten()
            .map(|t| (t.width, t.height))
            .chain(depth.map(|d| (d.width, d.height)))
            .fold((u32::MAX, u32::MAX), |a, b| (a.0.min(b.0), a.1.min(b.1)));
        if call.viewports.is_empty() {
            return Err(DrawError::Unsupported("a draw without a viewport"));
        }
        let tstates: Vec<TriangleState> = call
            .viewports
            .iter()
            .enumerate()
            .map(|(i, vp)| {
                let vp = &vp.in_bounds();
                let mut bounds = Rect {
                    left: vp.x.floor() as i32,
                    top: vp.y.floor() as i32,
                    right: (vp.x + vp.width).ceil() as i32,
                    bottom: (vp.y + vp.height).ceil() as i32,
                };
                if let Some(Some(s)) = call.scissors.get(i) {
                    bounds = bounds.intersect(s);
                }
                if limit.0 != u32::MAX {
                    bounds = bounds.intersect(&Rect { left: 0, top: 0, right: limit.0 as i32, bottom: limit.1 as i32 });
                }
                TriangleState {
                    cull,
                    front_ccw: rt.front_ccw,
                    depth_clip: rt.depth_clip,
                    viewport: *vp,
                    bounds,
                    samples: raster_samples,
                }
            })
            .collect();
        let ps = call.ps.as_ref().map(|ps| PsInfo {
            shader: ps,
            function: ps.function().ok(),
            resources: ps.resources.to_vec(),
            per_sample: ps.entry.inputs.iter().any(|e| {
                e.semantic == SemanticKind::SampleIndex
                    || matches!(e.interpolation, Interpolation::LinearSample | Interpolation::LinearNoperspectiveSample)
            }),
            links: varying_links(raster_outputs, &ps.entry.inputs),
            bindings: ps_bindings,
        });
        Ok(DrawState {
            call,
            p,
            samples,
            sample_mask,
            forced_one,
            tir_targets,
            all_samples,
            wireframe: rt.fill == sys::D3D12_FILL_MODE_WIREFRAME.0,
            rasterize,
            tstates,
            pick: PrimitiveIndices::of(raster_outputs),
            user_planes: UserPlanes::of(raster_outputs),
            pre_gs_outputs,
            last_outputs,
            ps,
            target_info: targets
                .iter()
                .enumerate()
                .map(|(n, t)| t.as_ref().and_then(|t| TargetInfo::of(p, n, t.format)))
                .collect(),
            depth_kind: depth.and_then(|d| DepthKind::of(d.format)),
            depth_format: depth.map(|d| d.format),
        })
    }

    /// Sets up one primitive that reaches the rasterizer: `None` when it is culled (cull
    /// distances, clipped points) or nothing of it is left to draw. Counts CPrimitives.
    pub(super) fn setup(
        &self,
        kind: Primitive,
        verts: &[ShadedVertex],
        prim_id: u32,
        stats: &mut DrawStats,
    ) -> Option<SetupPrimitive> {
        // SV_ViewportArrayIndex and SV_RenderTargetArrayIndex of the leading vertex.
        let (viewport_index, layer) = self.pick.of_vertex(&verts[0]);
        let tstate_at = if (viewport_index as usize) < self.tstates.len() { viewport_index as usize } else { 0 };
        let tstate = &self.tstates[tstate_at];
        // Points and lines repeat their last vertex, with weight 0, to fill three.
        let last = verts.len() - 1;
        let vert = |k: usize| &verts[k.min(last)];
        let clip = [vert(0).clip, vert(1).clip, vert(2).clip];
        // SV_CullDistance: a primitive whose vertices are all negative on one distance is
        // dropped; SV_ClipDistance: the part where one is negative is cut away.
        let n = super::prim_vertices(&kind);
        let of = |set: &[(u32, u32, u32)]| -> Vec<[f32; 3]> {
            set.iter()
                .flat_map(|&(id, row, cols)| (0..cols as usize).map(move |c| (id, row, c)))
                .map(|(id, row, c)| {
                    std::array::from_fn(|k| vert(k.min(n - 1)).outputs.get(&(id, row)).map_or(0.0, |v| f32_of(&v[c])))
                })
                .collect()
        };
        let culled = of(&self.user_planes.cull).iter().any(|d| d[..n].iter().all(|&x| x < 0.0));
        let distances = of(&self.user_planes.clip);
        if culled || (n == 1 && distances.iter().any(|d| d[0].is_nan() || d[0] < 0.0)) {
            return None;
        }
        let bias = match kind {
            Primitive::Triangle(_) => {
                triangle_depth_bias(&clip, &distances, tstate, &self.p.rasterizer, self.depth_format)
            }
            _ => 0.0,
        };
        let (raster, bounds) = match kind {
            Primitive::Point(_) => {
                let mut at = Rect { left: 0, top: 0, right: 0, bottom: 0 };
                let at_pixel =
                    |f: &raster::Fragment| at = Rect { left: f.x, top: f.y, right: f.x + 1, bottom: f.y + 1 };
                if !raster::rasterize_point(&clip[0], tstate, at_pixel) {
                    return None;
                }
                stats.c_primitives += 1;
                (Raster::Point, at)
            }
            Primitive::Line(_) => {
                let l = LineSetup::clipped(&[clip[0], clip[1]], &distances, tstate)?;
                stats.c_primitives += 1;
                let b = l.pixel_box();
                (Raster::Line(l), b)
            }
            Primitive::Triangle(_) => {
                let t = TriangleSetup::new(&clip, &distances, tstate)?;
                stats.c_primitives += t.pieces();
                let b = t.pixel_box();
                (Raster::Triangle(t), b)
            }
        };
        let bounds = bounds.intersect(&tstate.bounds);
        if bounds.is_empty() {
            return None;
        }
        let varyings = match &self.ps {
            Some(ps) => ps
                .links
                .iter()
                .map(|&(key, (id, row), mode)| {
                    let vals: [[f32; 4]; 3] = core::array::from_fn(|k| {
                        vert(k).outputs.get(&(id, row)).map_or([0.0; 4], |o| [0, 1, 2, 3].map(|c| f32_of(&o[c])))
                    });
                    (key, (vals, mode))
                })
                .collect(),
            None => Vec::new(),
        };
        Some(SetupPrimitive {
            kind,
            clip,
            raster,
            viewport_index,
            tstate: tstate_at,
            layer,
            bias,
            prim_id,
            varyings,
            bounds,
        })
    }
}

/// For each PS input row: the output of the last stage with the same semantic (name,
/// case-insensitive, and index), with the input's interpolation mode. Rows no output feeds
/// are left out (they read 0).
fn varying_links(last: &[SignatureElement], inputs: &[SignatureElement]) -> Vec<VaryingLink> {
    let mut links: Vec<VaryingLink> = Vec::new();
    for pe in inputs {
        for (r, idx) in pe.semantic_indices.iter().enumerate() {
            let Some(ve) = last.iter().find(|o| o.is(&pe.name, *idx)) else {
                continue;
            };
            let vrow = ve.semantic_indices.iter().position(|i| i == idx).unwrap_or(0) as u32;
            let key = (pe.id, r as u32);
            match links.iter_mut().find(|(k, _, _)| *k == key) {
                Some(l) => *l = (key, (ve.id, vrow), pe.interpolation),
                None => links.push((key, (ve.id, vrow), pe.interpolation)),
            }
        }
    }
    links
}

/// Where the last pre-rasterizer stage writes SV_ViewportArrayIndex and
/// SV_RenderTargetArrayIndex: (signature id) of each, if it does.
struct PrimitiveIndices {
    pub(super) viewport: Option<u32>,
    pub(super) layer: Option<u32>,
}

impl PrimitiveIndices {
    fn of(outputs: &[SignatureElement]) -> PrimitiveIndices {
        let find = |kind: SemanticKind| outputs.iter().find(|e| e.semantic == kind).map(|e| e.id);
        PrimitiveIndices {
            viewport: find(SemanticKind::ViewportArrayIndex),
            layer: find(SemanticKind::RenderTargetArrayIndex),
        }
    }

    /// (viewport index, render-target array index) a vertex carries; 0 for what is not written.
    fn of_vertex(&self, v: &ShadedVertex) -> (u32, u32) {
        let read = |id: Option<u32>| id.and_then(|id| v.outputs.get(&(id, 0))).map_or(0, |x| bits_of(&x[0]));
        (read(self.viewport), read(self.layer))
    }
}

/// The last pre-rasterizer stage's SV_ClipDistance and SV_CullDistance outputs as (signature id,
/// row, components) per row.
struct UserPlanes {
    pub(super) clip: Vec<(u32, u32, u32)>,
    pub(super) cull: Vec<(u32, u32, u32)>,
}

impl UserPlanes {
    fn of(outputs: &[SignatureElement]) -> UserPlanes {
        let rows = |kind: SemanticKind| -> Vec<(u32, u32, u32)> {
            outputs
                .iter()
                .filter(|e| e.semantic == kind)
                .flat_map(|e| (0..e.rows.max(1)).map(move |r| (e.id, r, e.cols.min(4))))
                .collect()
        };
        UserPlanes { clip: rows(SemanticKind::ClipDistance), cull: rows(SemanticKind::CullDistance) }
    }
}

/// The depth bias of a triangle (D3D11.3 §15.10 "Depth Bias", which D3D12 keeps): DepthBias
/// scaled by the depth buffer's resolution (2⁻ⁿ for an n-bit UNORM buffer, 2^(e−23) for a float
/// buffer, e the exponent of the triangle's largest |z|) plus SlopeScaledDepthBias times the
/// triangle's largest screen-space depth slope, clamped by DepthBiasClamp. Zero without a depth
/// buffer or without bias. A triangle with a vertex behind the eye (w ≤ 0) has a screen-space
/// plane only where clipping leaves it: slope and largest |z| come from the clipped polygon
/// ([`raster::clipped_depth_plane`], cut by `distances` as it is drawn).
pub(super) fn triangle_depth_bias(
    clip: &[[f32; 4]; 3],
    distances: &[[f32; 3]],
    tstate: &TriangleState,
    rt: &rd3d12_core::pipeline::Rasterizer,
    format: Option<sys::DXGI_FORMAT>,
) -> f32 {
    let Some(format) = format else { return 0.0 };
    if rt.depth_bias == 0 && rt.slope_scaled_depth_bias == 0.0 {
        return 0.0;
    }
    let unorm_bits = match format {
        sys::DXGI_FORMAT_D16_UNORM => Some(16),
        sys::DXGI_FORMAT_D24_UNORM_S8_UINT => Some(24),
        _ => None,
    };
    if clip.iter().any(|c| c[3] <= 0.0) {
        let Some((slope, max_abs_z)) = raster::clipped_depth_plane(clip, distances, tstate) else {
            return 0.0;
        };
        return raster::depth_bias(
            rt.depth_bias,
            rt.slope_scaled_depth_bias,
            rt.depth_bias_clamp,
            slope as f32,
            unorm_bits,
            max_abs_z as f32,
        );
    }
    let vp = &tstate.viewport;
    // Screen-space positions.
    let s = clip.map(|c| {
        let (x, y, z) = (c[0] / c[3], c[1] / c[3], c[2] / c[3]);
        [
            f64::from(vp.x) + (1.0 + f64::from(x)) * f64::from(vp.width) / 2.0,
            f64::from(vp.y) + (1.0 - f64::from(y)) * f64::from(vp.height) / 2.0,
            f64::from(vp.min_depth) + f64::from(z) * f64::from(vp.max_depth - vp.min_depth),
        ]
    });
    let e1 = [s[1][0] - s[0][0], s[1][1] - s[0][1], s[1][2] - s[0][2]];
    let e2 = [s[2][0] - s[0][0], s[2][1] - s[0][1], s[2][2] - s[0][2]];
    let det = e1[0] * e2[1] - e2[0] * e1[1];
    let slope = if det == 0.0 {
        0.0
    } else {
        let dzdx = (e1[2] * e2[1] - e2[2] * e1[1]) / det;
        let dzdy = (e2[2] * e1[0] - e1[2] * e2[0]) / det;
        dzdx.abs().max(dzdy.abs())
    };
    let max_abs_z = s.iter().map(|v| v[2].abs()).fold(0.0f64, f64::max) as f32;
    raster::depth_bias(
        rt.depth_bias,
        rt.slope_scaled_depth_bias,
        rt.depth_bias_clamp,
        slope as f32,
        unorm_bits,
        max_abs_z,
    )
}
