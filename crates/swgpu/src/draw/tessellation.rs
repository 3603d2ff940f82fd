//! The tessellation stages: hull shader, fixed-function tessellator, domain shader.
//!
//! A patch (the vertex-shader outputs of a patch list's control points) goes through the hull
//! shader's two phases, as DXIL splits them (DXIL.rst, "Hull shader"):
//! - the control-point phase, the entry function, runs once per output control point with
//!   `OutputControlPointID` (op 107) naming it; it reads the input patch with `LoadInput`
//!   (control point as the vertex index) and writes that control point's outputs;
//! - the patch-constant phase, the function the HS state names, runs once per patch; it reads
//!   the input patch (`LoadInput`) and the output control points (`LoadOutputControlPoint`,
//!   op 103) and writes the patch constants (`StorePatchConstant`, op 106), among them
//!   SV_TessFactor and SV_InsideTessFactor.
//!
//! The tessellator ([`crate::tessellator`]) turns the factors into domain points and
//! primitives; the domain shader runs once per domain point, reading the output control
//! points (`LoadInput`), the patch constants (`LoadPatchConstant`, op 104) and the point's
//! SV_DomainLocation (`DomainLocation`, op 105). Its outputs are the vertices of the
//! tessellator's primitives, which go on to the geometry shader or the rasterizer with the
//! patch's SV_PrimitiveID. Stages link by semantic as everywhere else: HS inputs to VS outputs,
//! DS inputs to HS outputs, DS patch constants to HS patch constants.
//!
//! The factors reach the tessellator as the hull shader wrote them: `[maxtessfactor]` is a
//! hint to drivers (the HLSL compiler clamps in the shader itself), and the tessellator does
//! its own clamping, rounding and culling (a factor ≤ 0 or NaN drops the patch).

use super::{f32_of, input_element, lane_val, link_stages, slot_bits, slot_val, store_lane};
use super::{
    Bindings, Class, Comp, DrawError, DrawStats, Handles, Link, Outputs, RasterPrimitive, ShadedVertex, Shader,
};
use crate::input_assembler::Primitive;
use crate::tessellator::{self, Domain, OutputPrimitive, Partitioning};
use rd3d12_shader::dxil::{Function, HsState};
use rd3d12_shader::interp::env::{lanes, At, GatherReq, LodReq, SampleReq};
use rd3d12_shader::interp::{self, ExecError, Mask, WaveEnv};
use rd3d12_shader::ir::interface::{SemanticKind, SignatureElement};
use rd3d12_shader::ir::Scalar;

/// The hull and domain shaders of a draw, with the bindings each stage sees.
pub struct Tess<'a> {
    /// The hull shader.
    pub hs: Shader<'a>,
    /// The domain shader.
    pub ds: Shader<'a>,
    /// What the hull shader's resources answer.
    pub hs_bindings: &'a dyn Bindings,
    /// What the domain shader's resources answer.
    pub ds_bindings: &'a dyn Bindings,
}

/// What a draw's tessellation needs, set up once per draw.
pub(super) struct TessStage<'b> {
    tess: &'b Tess<'b>,
    state: HsState,
    control_point_fn: &'b Function,
    patch_constant_fn: &'b Function,
    ds_fn: &'b Function,
    domain: Domain,
    partitioning: Partitioning,
    output: OutputPrimitive,
    /// HS inputs ← VS outputs; DS inputs ← HS outputs; DS patch constants ← HS patch constants.
    hs_links: Vec<Link>,
    ds_links: Vec<Link>,
    pc_links: Vec<Link>,
    hs_resources: Vec<rd3d12_shader::dxil::metadata::Resource>,
    ds_resources: Vec<rd3d12_shader::dxil::metadata::Resource>,
    /// The HS patch-constant signature ids of SV_TessFactor and SV_InsideTessFactor.
    tess_factor: Option<u32>,
    inside_tess_factor: Option<u32>,
    /// The DS output signature id of SV_Position.
    position: Option<u32>,
}

impl<'b> TessStage<'b> {
    /// Checks the pair and links it to the vertex shader's outputs `vs_outputs`.
    pub(super) fn new(tess: &'b Tess<'b>, vs_outputs: &[SignatureElement]) -> Result<Self, DrawError> {
        let state = tess.hs.entry.hs.ok_or(DrawError::Unsupported("a hull shader without its state"))?;
        // D3D's limits (1 to 32 control points in and out), which a well-formed shader keeps.
        if !(1..=32).contains(&state.input_control_points) || !(1..=32).contains(&state.output_control_points) {
            return Err(DrawError::Unsupported("a hull shader with more than 32 control points or none"));
        }
        let domain = Domain::from_dxil(state.domain).ok_or(DrawError::Unsupported("this tessellator domain"))?;
        let partitioning = Partitioning::from_dxil(state.partitioning)
            .ok_or(DrawError::Unsupported("this tessellator partitioning"))?;
        let output = OutputPrimitive::from_dxil(state.output_primitive)
            .ok_or(DrawError::Unsupported("this tessellator output primitive"))?;
        let patch_constant_fn = tess
            .hs
            .module
            .functions
            .get(state.patch_constant_function)
            .ok_or(DrawError::Unsupported("a hull shader without its patch constant function"))?;
        let find = |sig: &[SignatureElement], kind| sig.iter().find(|e| e.semantic == kind).map(|e| e.id);
        let hs_entry = tess.hs.entry;
        let ds_entry = tess.ds.entry;
        Ok(TessStage {
            tess,
            state,
            control_point_fn: tess.hs.function()?,
            patch_constant_fn,
            ds_fn: tess.ds.function()?,
            domain,
            partitioning,
            output,
            hs_links: link_stages(vs_outputs, &hs_entry.inputs),
            ds_links: link_stages(&hs_entry.outputs, &ds_entry.inputs),
            pc_links: link_stages(&hs_entry.patch_constants, &ds_entry.patch_constants),
            hs_resources: tess.hs.resources.to_vec(),
            ds_resources: tess.ds.resources.to_vec(),
            tess_factor: find(&hs_entry.patch_constants, SemanticKind::TessFactor),
            inside_tess_factor: find(&hs_entry.patch_constants, SemanticKind::InsideTessFactor),
            position: find(&ds_entry.outputs, SemanticKind::Position),
        })
    }

    /// Tessellates one patch (`verts`: the vertex shader's outputs of its control points):
    /// the primitives the domain shader's vertices make, each with the patch's id.
    pub(super) fn run(
        &self,
        verts: &[ShadedVertex],
        patch_id: u32,
        handles: &mut Handles,
        stats: &mut DrawStats,
    ) -> Result<Vec<RasterPrimitive>, DrawError> {
        stats.hs_invocations += 1;
        // The control-point phase: the output control points as the lanes of one wave.
        let n = self.state.output_control_points;
        let mut lanes: Vec<HsLane> =
            (0..n).map(|control_point| HsLane { control_point, outputs: Outputs::default() }).collect();
        let mut patch_constants = Outputs::default();
        let mut hs = HsWave {
            inputs: &self.tess.hs.entry.inputs,
            links: &self.hs_links,
            verts,
            patch_id,
            lanes: &mut lanes,
            control_points: &[],
            patch_constants: &mut patch_constants,
            handles: &mut *handles,
            resources: &self.hs_resources,
            bindings: self.tess.hs_bindings,
        };
        interp::run_wave(self.tess.hs.module, self.control_point_fn, &mut hs, n as usize, TESS_WAVE)?;
        let control_points: Vec<Outputs> = lanes.into_iter().map(|l| l.outputs).collect();
        // The patch-constant phase: one lane, which reads the output control points (its
        // OutputControlPointID reads the last one, as after the phase before).
        let mut lane = [HsLane { control_point: n.saturating_sub(1), outputs: Outputs::default() }];
        let mut hs = HsWave {
            inputs: &self.tess.hs.entry.inputs,
            links: &self.hs_links,
            verts,
            patch_id,
            lanes: &mut lane,
            control_points: &control_points,
            patch_constants: &mut patch_constants,
            handles: &mut *handles,
            resources: &self.hs_resources,
            bindings: self.tess.hs_bindings,
        };
        interp::run_wave(self.tess.hs.module, self.patch_constant_fn, &mut hs, 1, TESS_WAVE)?;

        let factor = |sig: Option<u32>, row: u32| {
            sig.and_then(|s| patch_constants.get(&(s, row))).map_or(0.0, |v| f32_of(&v[0]))
        };
        let outer: [f32; 4] = std::array::from_fn(|r| factor(self.tess_factor, r as u32));
        let inner: [f32; 2] = std::array::from_fn(|r| factor(self.inside_tess_factor, r as u32));
        let t = tessellator::tessellate(self.domain, self.partitioning, self.output, &outer, &inner);

        // One domain-shader invocation per domain point, as waves of TESS_WAVE points.
        let mut shaded = Vec::with_capacity(t.points.len());
        for points in t.points.chunks(TESS_WAVE) {
            let mut lanes: Vec<DsLane> = points
                .iter()
                .map(|&p| DsLane {
                    location: tessellator::domain_location(self.domain, p),
                    outputs: Outputs::default(),
                })
                .collect();
            let mut ds = DsWave {
                inputs: &self.tess.ds.entry.inputs,
                links: &self.ds_links,
                pc_links: &self.pc_links,
                control_points: &control_points,
                patch_constants: &patch_constants,
                patch_id,
                lanes: &mut lanes,
                handles: &mut *handles,
                resources: &self.ds_resources,
                bindings: self.tess.ds_bindings,
            };
            interp::run_wave(self.tess.ds.module, self.ds_fn, &mut ds, points.len(), TESS_WAVE)?;
            stats.ds_invocations += points.len() as u64;
            for lane in lanes {
                let clip = self
                    .position
                    .and_then(|s| lane.outputs.get(&(s, 0)))
                    .map_or([0.0; 4], |p| p.each_ref().map(f32_of));
                shaded.push(ShadedVertex { clip, outputs: std::sync::Arc::new(lane.outputs) });
            }
        }
        let per = tessellator::vertices_per_primitive(self.domain, self.output);
        let kind = match per {
            1 => Primitive::Point(0),
            2 => Primitive::Line([0, 1]),
            _ => Primitive::Triangle([0, 1, 2]),
        };
        Ok(t.indices
            .chunks_exact(per)
            .map(|ids| (kind, ids.iter().map(|&i| shaded[i as usize].clone()).collect(), patch_id))
            .collect())
    }
}

/// Reads input (`sig`, `row`, `col`) of control point `vertex` through `links`; unlinked
/// inputs read 0, typed as the element says.
fn linked_input<'o>(
    inputs: &[SignatureElement],
    links: &[Link],
    point: impl Fn(usize) -> Option<&'o Outputs>,
    (sig, row, col): (u32, u32, u8),
    vertex: Option<u32>,
) -> Result<Comp, ExecError> {
    let e = input_element(inputs, sig)?;
    let value = links
        .iter()
        .find(|(k, _)| *k == (sig, row))
        .and_then(|(_, from)| point(vertex.unwrap_or(0) as usize)?.get(from))
        .map(|v| v[col as usize & 3]);
    Ok(value.unwrap_or_else(|| lane_val(0, e.component)))
}

/// Domain points (and output control points, up to D3D's 32, in one wave) shaded together.
const TESS_WAVE: usize = 8;

type R<T> = Result<T, ExecError>;

/// One hull-shader invocation: its output control point (the control-point phase) and what it
/// stored.
struct HsLane {
    control_point: u32,
    outputs: Outputs,
}

/// The hull shader's view of one patch, in either phase: the control-point phase's lanes are
/// the output control points; the patch-constant phase is one lane that reads them.
struct HsWave<'b> {
    inputs: &'b [SignatureElement],
    links: &'b [Link],
    verts: &'b [ShadedVertex],
    patch_id: u32,
    lanes: &'b mut [HsLane],
    /// Every output control point, once the control-point phase is done (none before).
    control_points: &'b [Outputs],
    patch_constants: &'b mut Outputs,
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
}

impl HsWave<'_> {
    /// Every invocation's UAV writes take effect.
    fn writes(&self, m: Mask) -> Mask {
        m
    }
}

impl WaveEnv for HsWave<'_> {
    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), vertex: Option<&[u64]>, s: Scalar, out: &mut [u64]) -> R<()> {
        if input_element(self.inputs, at.0)?.semantic == SemanticKind::PrimitiveId {
            lanes(m).for_each(|l| out[l] = s.mask(u64::from(self.patch_id)));
            return Ok(());
        }
        let verts = self.verts;
        for l in lanes(m) {
            let v = linked_input(
                self.inputs,
                self.links,
                |i| verts.get(i).map(|v| &*v.outputs),
                at,
                vertex.map(|v| v[l] as u32),
            )?;
            out[l] = slot_bits(&v, s);
        }
        Ok(())
    }
    fn store_output(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()> {
        for l in lanes(m) {
            store_lane(&mut self.lanes[l].outputs, (at.0, at.1), at.2, &slot_val(values[l], s));
        }
        Ok(())
    }
    fn load_output_control_point(
        &mut self,
        m: Mask,
        at: (u32, u32, u8),
        index: &[u64],
        s: Scalar,
        out: &mut [u64],
    ) -> R<()> {
        let (sig, row, col) = at;
        for l in lanes(m) {
            let v = self.control_points.get(index[l] as u32 as usize).and_then(|cp| cp.get(&(sig, row)));
            out[l] = slot_bits(v.map_or(&Comp::F32(0.0), |v| &v[col as usize & 3]), s);
        }
        Ok(())
    }
    fn store_patch_constant(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()> {
        for l in lanes(m) {
            store_lane(self.patch_constants, (at.0, at.1), at.2, &slot_val(values[l], s));
        }
        Ok(())
    }
    fn discard(&mut self, _m: Mask) -> R<()> {
        Err(ExecError::Malformed("discard outside a pixel shader".into()))
    }
    /// OutputControlPointID (107), PrimitiveID (108) and ViewID (138: no view instancing,
    /// view 0).
    fn system_value(&mut self, m: Mask, opcode: u32, _component: u32, out: &mut [u32]) -> R<()> {
        match opcode {
            107 => lanes(m).for_each(|l| out[l] = self.lanes[l].control_point),
            108 => lanes(m).for_each(|l| out[l] = self.patch_id),
            // ViewID: no view instancing (ViewInstancingTier 0), the one view 0.
            138 => lanes(m).for_each(|l| out[l] = 0),
            _ => return Err(ExecError::Unsupported(format!("dx.op {opcode} in a hull shader"))),
        }
        Ok(())
    }
    wave_resource_ops!();
}

/// One domain point of a domain-shader wave: where it is and what it stored.
struct DsLane {
    location: [f32; 3],
    outputs: Outputs,
}

/// The domain shader's view of a wave of one patch's domain points.
struct DsWave<'b> {
    inputs: &'b [SignatureElement],
    links: &'b [Link],
    pc_links: &'b [Link],
    control_points: &'b [Outputs],
    patch_constants: &'b Outputs,
    patch_id: u32,
    lanes: &'b mut [DsLane],
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
}

impl DsWave<'_> {
    /// Every invocation's UAV writes take effect.
    fn writes(&self, m: Mask) -> Mask {
        m
    }
}

impl WaveEnv for DsWave<'_> {
    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), vertex: Option<&[u64]>, s: Scalar, out: &mut [u64]) -> R<()> {
        if input_element(self.inputs, at.0)?.semantic == SemanticKind::PrimitiveId {
            lanes(m).for_each(|l| out[l] = s.mask(u64::from(self.patch_id)));
            return Ok(());
        }
        let points = self.control_points;
        for l in lanes(m) {
            let v = linked_input(self.inputs, self.links, |i| points.get(i), at, vertex.map(|v| v[l] as u32))?;
            out[l] = slot_bits(&v, s);
        }
        Ok(())
    }
    fn load_patch_constant(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, out: &mut [u64]) -> R<()> {
        let (sig, row, col) = at;
        let value = self
            .pc_links
            .iter()
            .find(|(k, _)| *k == (sig, row))
            .and_then(|(_, from)| self.patch_constants.get(from))
            .map_or(&Comp::F32(0.0), |v| &v[col as usize & 3]);
        let bits = slot_bits(value, s);
        lanes(m).for_each(|l| out[l] = bits);
        Ok(())
    }
    fn domain_location(&mut self, m: Mask, component: u32, out: &mut [f32]) -> R<()> {
        lanes(m).for_each(|l| out[l] = self.lanes[l].location.get(component as usize).copied().unwrap_or(0.0));
        Ok(())
    }
    fn store_output(&mut self, m: Mask, at: (u32, u32, u8), s: Scalar, values: &[u64]) -> R<()> {
        for l in lanes(m) {
            store_lane(&mut self.lanes[l].outputs, (at.0, at.1), at.2, &slot_val(values[l], s));
        }
        Ok(())
    }
    fn discard(&mut self, _m: Mask) -> R<()> {
        Err(ExecError::Malformed("discard outside a pixel shader".into()))
    }
    /// PrimitiveID (108): the patch's; ViewID (138): no view instancing, view 0.
    fn system_value(&mut self, m: Mask, opcode: u32, _component: u32, out: &mut [u32]) -> R<()> {
        match opcode {
            108 => lanes(m).for_each(|l| out[l] = self.patch_id),
            // ViewID: no view instancing (ViewInstancingTier 0), the one view 0.
            138 => lanes(m).for_each(|l| out[l] = 0),
            _ => return Err(ExecError::Unsupported(format!("dx.op {opcode} in a domain shader"))),
        }
        Ok(())
    }
    wave_resource_ops!();
}

#[cfg(test)]
mod tests {
    use super::super::tests::{element, program, rgba8, simple_call, Lent};
    use super::super::{draw, Bindings, DrawError, DrawStats, Tess};
    use super::Shader;
    use crate::input_assembler::Topology;
    use rd3d12_core::pipeline::{PipelineDesc, PipelineKind};
    use rd3d12_sys as sys;

    /// What Mesa's shaders read: the hull shader's uniforms at b0 (row 0 the outer factors,
    /// row 1 the inner ones) and the domain shader's y flip at b1 (1: none).
    struct Factors {
        outer: [f32; 4],
        inner: [f32; 2],
    }
    impl Bindings for Factors {
        fn cbuffer_row(&self, _space: u32, reg: u32, row: u32) -> [u32; 4] {
            match (reg, row) {
                (0, 0) => self.outer.map(f32::to_bits),
                (0, 1) => [self.inner[0], self.inner[1], 0.0, 0.0].map(f32::to_bits),
                _ => [1.0f32; 4].map(f32::to_bits),
            }
        }
    }
    struct Nothing;
    impl Bindings for Nothing {}

    fn fixture(name: &str) -> rd3d12_shader::dxil::Program {
        program(match name {
            "tri.hs" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_tri.hs.dxil"))
            }
            "tri.ds" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_tri.ds.dxil"))
            }
            "quad.hs" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_quad.hs.dxil"))
            }
            "quad.ds" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_quad.ds.dxil"))
            }
            "iso.hs" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_iso.hs.dxil"))
            }
            "iso.ds" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_iso.ds.dxil"))
            }
            "points.hs" => {
                include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_points.hs.dxil"))
            }
            _ => unreachable!("no fixture {name}"),
        })
    }

    /// Draws one patch of control points `points` (clip-space x, y) through Mesa's tess.vs,
    /// the hull and domain shaders named, and tess.ps (color = SV_DomainLocation, alpha 1) on
    /// a 16x16 RGBA8 target of zeros.
    fn tess_draw(hs: &str, ds: &str, points: &[[f32; 2]], f: Factors) -> (Vec<u8>, DrawStats) {
        tess_draw_edited(hs, ds, points, f, |_| {}).expect("draws")
    }

    /// As [`tess_draw`], with the hull shader's program changed by `edit` first.
    fn tess_draw_edited(
        hs: &str,
        ds: &str,
        points: &[[f32; 2]],
        f: Factors,
        edit: impl FnOnce(&mut rd3d12_shader::dxil::Program),
    ) -> Result<(Vec<u8>, DrawStats), DrawError> {
        let vs =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess.vs.dxil")));
        let ps =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess.ps.dxil")));
        let (mut hs, ds) = (fixture(hs), fixture(ds));
        edit(&mut hs);
        let mut p = PipelineDesc::new(PipelineKind::Graphics);
        let ins = &vs.dx.entry_points[0].inputs;
        p.input_layout = vec![element(&ins[0].name, ins[0].semantic_indices[0], sys::DXGI_FORMAT_R32G32_FLOAT, 0)];
        p.rasterizer.cull = 1;
        p.depth_stencil.depth_enable = false;
        let vb: Vec<u8> =
            points.iter().flat_map(|q| [q[0], q[1], 0.0, 0.0, 0.0, 0.0]).flat_map(f32::to_le_bytes).collect();
        let n = points.len() as u32;
        let mut call =
            simple_call((&vs, None, Some(&ps)), &p, Topology::PatchList(n as u8), (0..n).collect(), &vb, (16, 16));
        call.tess = Some(Tess {
            hs: Shader { module: &hs.module, entry: &hs.dx.entry_points[0], resources: &hs.dx.resources },
            ds: Shader { module: &ds.module, entry: &ds.dx.entry_points[0], resources: &ds.dx.resources },
            hs_bindings: &f,
            ds_bindings: &f,
        });
        let mut rt = vec![0u8; 16 * 16 * 4];
        let stats = {
            let lent_rt = Lent::new(&mut rt);
            let mut targets = [Some(rgba8(&lent_rt, 16, 16))];
            draw(&call, &Nothing, &Nothing, &Nothing, &mut targets, None, &mut [])?
        };
        Ok((rt, stats))
    }

    /// The quad patch's corners: u runs left to right, v bottom to top (clip space y up).
    const SQUARE: [[f32; 2]; 4] = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0], [1.0, 1.0]];

    #[test]
    fn a_quad_patch_of_factor_one_is_two_triangles_colored_by_their_domain_location() {
        let (rt, st) = tess_draw("quad.hs", "quad.ds", &SQUARE, Factors { outer: [1.0; 4], inner: [1.0; 2] });
        assert_eq!((st.primitives, st.vertices_shaded, st.hs_invocations), (1, 4, 1));
        assert_eq!(st.ds_invocations, 4, "the four corners");
        assert_eq!(st.c_invocations, 2);
        assert_eq!(st.pixels_written, 256);
        // The domain shader's bend vanishes at the corners, so both triangles interpolate the
        // corners' (u, v): u = (x + 0.5) / 16 and v = 1 - (y + 0.5) / 16 at pixel centers (none
        // lands on a rounding tie: 255 (2x + 1) / 32 is never a half).
        for y in 0..16 {
            for x in 0..16 {
                let (u, v) = ((x as f32 + 0.5) / 16.0, 1.0 - (y as f32 + 0.5) / 16.0);
                let want = [(u * 255.0).round() as u8, (v * 255.0).round() as u8, 128, 255];
                assert_eq!(rt[(y * 16 + x) * 4..][..4], want, "pixel ({x}, {y})");
            }
        }
    }

    #[test]
    fn a_quad_patch_of_factor_three_has_sixteen_points_and_eighteen_triangles() {
        // Fractional-odd partitioning at an odd whole factor is integer partitioning: three
        // segments per edge and per inside direction, a 4x4 grid of points, 2 x 3 x 3
        // triangles. The bent patch still fills the square: its edges only slide along it.
        let (_, st) = tess_draw("quad.hs", "quad.ds", &SQUARE, Factors { outer: [3.0; 4], inner: [3.0; 2] });
        assert_eq!((st.hs_invocations, st.ds_invocations, st.c_invocations), (1, 16, 18));
        assert_eq!(st.pixels_written, 256);
    }

    #[test]
    fn a_patch_with_an_edge_factor_of_zero_or_nan_is_culled() {
        for bad in [0.0, -1.0, f32::NAN] {
            let f = Factors { outer: [4.0, bad, 4.0, 4.0], inner: [4.0; 2] };
            let (rt, st) = tess_draw("quad.hs", "quad.ds", &SQUARE, f);
            assert_eq!((st.hs_invocations, st.ds_invocations, st.c_invocations), (1, 0, 0), "factor {bad}");
            assert!(rt.iter().all(|&b| b == 0));
        }
    }

    #[test]
    fn a_triangle_patch_of_integer_factor_two_has_seven_points_and_six_triangles() {
        // Each edge in two; the inside factor 2 shrinks the inner ring to the center point:
        // six points on the outer ring, one in the middle, a fan of six triangles.
        let tri = [[-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]];
        let (_, st) = tess_draw("tri.hs", "tri.ds", &tri, Factors { outer: [2.0; 4], inner: [2.0; 2] });
        assert_eq!((st.hs_invocations, st.ds_invocations, st.c_invocations, st.c_primitives), (1, 7, 6, 6));
        // Point output: the same seven points, each a primitive of its own.
        let (_, st) = tess_draw("points.hs", "tri.ds", &tri, Factors { outer: [2.0; 4], inner: [2.0; 2] });
        assert_eq!((st.ds_invocations, st.c_invocations), (7, 7));
    }

    #[test]
    fn an_isoline_patch_draws_density_lines_of_detail_segments() {
        // SV_TessFactor[0] is the line density (3 lines, at v = 0, 1/3, 2/3), [1] the detail
        // (4 segments, 5 points each).
        let (rt, st) = tess_draw("iso.hs", "iso.ds", &SQUARE, Factors { outer: [3.0, 4.0, 0.0, 0.0], inner: [0.0; 2] });
        assert_eq!((st.hs_invocations, st.ds_invocations, st.c_invocations), (1, 15, 12));
        assert!(rt.chunks(4).any(|p| p[3] == 255), "the lines are drawn");
    }

    #[test]
    fn hull_shaders_past_d3d_limits_are_refused_not_run() {
        // A malformed hull shader state (D3D allows 1 to 32 control points) is refused before
        // anything is allocated for it.
        for n in [0, 33, u32::MAX] {
            let r =
                tess_draw_edited("quad.hs", "quad.ds", &SQUARE, Factors { outer: [1.0; 4], inner: [1.0; 2] }, |p| {
                    if let Some(h) = p.dx.entry_points[0].hs.as_mut() {
                        h.output_control_points = n;
                    }
                });
            assert!(matches!(r, Err(DrawError::Unsupported(_))), "{n} output control points");
        }
    }
}
