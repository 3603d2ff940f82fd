//! The geometry stage: the geometry shader run per input primitive and GS instance, each of
//! its streams (up to D3D12_SO_STREAM_COUNT, EmitStream / CutStream n) assembled into
//! primitives of its output topology on its own: a cut on one stream ends only that stream's
//! strip. (A shader of several streams outputs points on all of them, "How To: Index Multiple
//! Output Streams"; the one output topology then applies to every stream.)

use super::{bits_of, f32_of, input_element, lane_val, slot_bits, slot_val, store_lane};
use super::{Bindings, Class, DrawError, DrawStats, Handles, Link, Outputs, ShadedVertex, Shader};
use crate::input_assembler::{self, Primitive};
use rd3d12_shader::dxil::Function;
use rd3d12_shader::interp::env::{lanes, At, GatherReq, LodReq, SampleReq};
use rd3d12_shader::interp::{self, ExecError, Mask, WaveEnv};
use rd3d12_shader::ir::interface::{SemanticKind, SignatureElement};
use rd3d12_shader::ir::Scalar;

/// One invocation (GS instance) of a geometry-shader wave: what it has stored, and the
/// vertices it emitted in order, each with its stream (`None` marks a cut of that stream).
struct GsLane {
    instance: u32,
    outputs: Outputs,
    emitted: Vec<(u32, Option<Outputs>)>,
}

/// The geometry shader's view of the instances of one input primitive, a lane each: the
/// primitive's vertices (VS outputs, linked to the GS input signature by semantic).
struct GsWave<'b> {
    inputs: &'b [SignatureElement],
    /// For each GS input (signature id, row): the VS output (signature id, row) feeding it.
    links: &'b [Link],
    verts: &'b [ShadedVertex],
    primitive_id: u32,
    lanes: &'b mut [GsLane],
    handles: &'b mut Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
}

impl GsWave<'_> {
    /// Every invocation's UAV writes take effect.
    fn writes(&self, m: Mask) -> Mask {
        m
    }
}

type R<T> = Result<T, ExecError>;

impl WaveEnv for GsWave<'_> {
    fn load_input(&mut self, m: Mask, at: (u32, u32, u8), vertex: Option<&[u64]>, s: Scalar, out: &mut [u64]) -> R<()> {
        let (sig, row, col) = at;
        let e = input_element(self.inputs, sig)?;
        if e.semantic == SemanticKind::PrimitiveId {
            lanes(m).for_each(|l| out[l] = s.mask(u64::from(self.primitive_id)));
            return Ok(());
        }
        let from = self.links.iter().find(|(k, _)| *k == (sig, row)).map(|(_, from)| from);
        for l in lanes(m) {
            let k = vertex.map_or(0, |v| v[l] as u32) as usize;
            let value = from.and_then(|from| self.verts.get(k)?.outputs.get(from)).map(|v| &v[col as usize & 3]);
            // Unlinked inputs read 0, typed as the element says.
            out[l] = match value {
                Some(v) => slot_bits(v, s),
                None => slot_bits(&lane_val(0, e.component), s),
            };
        }
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
    fn emit_stream(&mut self, m: Mask, stream: u32) -> R<()> {
        check_stream(stream)?;
        for l in lanes(m) {
            let lane = &mut self.lanes[l];
            lane.emitted.push((stream, Some(lane.outputs.clone())));
        }
        Ok(())
    }
    fn cut_stream(&mut self, m: Mask, stream: u32) -> R<()> {
        check_stream(stream)?;
        lanes(m).for_each(|l| self.lanes[l].emitted.push((stream, None)));
        Ok(())
    }
    /// GSInstanceID (100), PrimitiveID (108) and ViewID (138).
    fn system_value(&mut self, m: Mask, opcode: u32, _component: u32, out: &mut [u32]) -> R<()> {
        match opcode {
            100 => lanes(m).for_each(|l| out[l] = self.lanes[l].instance),
            108 => lanes(m).for_each(|l| out[l] = self.primitive_id),
            // ViewID: no view instancing (ViewInstancingTier 0), the one view 0.
            138 => lanes(m).for_each(|l| out[l] = 0),
            _ => return Err(ExecError::Unsupported(format!("dx.op {opcode} in a geometry shader"))),
        }
        Ok(())
    }
    wave_resource_ops!();
}

/// D3D's four geometry-shader streams (D3D12_SO_STREAM_COUNT).
pub(super) const STREAMS: usize = 4;

fn check_stream(stream: u32) -> R<()> {
    if stream as usize >= STREAMS {
        return Err(ExecError::Malformed(format!("stream {stream} of a geometry shader (streams are 0 to 3)")));
    }
    Ok(())
}

/// For each input (signature id, row) of `to`: the output (signature id, row) of `from` with
/// the same semantic name (case-insensitive) and index.
pub(super) fn link_stages(from: &[SignatureElement], to: &[SignatureElement]) -> Vec<Link> {
    let mut links = Vec::new();
    for te in to {
        for (r, idx) in te.semantic_indices.iter().enumerate() {
            let found = from.iter().find_map(|o| {
                let row = o.semantic_indices.iter().position(|i| i == idx)?;
                o.name.eq_ignore_ascii_case(&te.name).then_some((o.id, row as u32))
            });
            if let Some(f) = found {
                links.push(((te.id, r as u32), f));
            }
        }
    }
    links
}

/// What a draw's geometry shader needs, set up once per draw.
pub(super) struct GsStage<'b> {
    shader: &'b Shader<'b>,
    function: &'b Function,
    state: rd3d12_shader::dxil::GsState,
    topology: input_assembler::Topology,
    /// GS inputs fed by VS outputs, see [`link_stages`].
    links: Vec<Link>,
    resources: Vec<rd3d12_shader::dxil::metadata::Resource>,
    bindings: &'b dyn Bindings,
    /// Per stream, the output signature ids of SV_Position (none when the stream only feeds
    /// stream output or a disabled rasterizer) and SV_PrimitiveID.
    position: [Option<u32>; STREAMS],
    primitive_id: [Option<u32>; STREAMS],
}

/// A primitive for the rasterizer: its kind, its vertices (leading vertex first) and its
/// SV_PrimitiveID.
pub(super) type RasterPrimitive = (Primitive, Vec<ShadedVertex>, u32);

/// A primitive a geometry shader output, with its stream.
pub(super) type StreamPrimitive = (u32, RasterPrimitive);

impl<'b> GsStage<'b> {
    /// `from`: the output signature of the stage before (vertex or domain shader).
    pub(super) fn new(
        shader: &'b Shader<'b>,
        from: &[SignatureElement],
        bindings: &'b dyn Bindings,
    ) -> Result<Self, DrawError> {
        let state = shader.entry.gs.ok_or(DrawError::Unsupported("a geometry shader without its state"))?;
        // D3D's limit of 32 instances ([instance(n)]), which a well-formed shader keeps.
        if state.instance_count > 32 {
            return Err(DrawError::Unsupported("a geometry shader of more than 32 instances"));
        }
        let topology = gs_output_topology(state.output_topology)
            .ok_or(DrawError::Unsupported("this geometry shader output topology"))?;
        let find = |kind, stream: usize| {
            shader.entry.outputs.iter().find(|e| e.semantic == kind && e.stream as usize == stream).map(|e| e.id)
        };
        Ok(GsStage {
            shader,
            function: shader.function()?,
            state,
            topology,
            links: link_stages(from, &shader.entry.inputs),
            resources: shader.resources.to_vec(),
            bindings,
            position: std::array::from_fn(|k| find(SemanticKind::Position, k)),
            primitive_id: std::array::from_fn(|k| find(SemanticKind::PrimitiveId, k)),
        })
    }

    /// Runs every instance of the shader on one input primitive and assembles what they
    /// emitted to each stream: each instance's strips of a stream (cut by that stream's
    /// CutStream and at the instance's end) become primitives of the output topology, with
    /// the input assembler's strip rules. Emits past `maxvertexcount`, counted over all
    /// streams in emit order, are dropped, as D3D does. The primitives come instance after
    /// instance, and within an instance stream after stream.
    pub(super) fn run(
        &self,
        verts: &[ShadedVertex],
        primitive_id: u32,
        handles: &mut Handles,
        stats: &mut DrawStats,
    ) -> Result<Vec<StreamPrimitive>, DrawError> {
        let mut out = Vec::new();
        // The instances as lanes of waves of up to GS_WAVE, each instance's output in order.
        let count = self.state.instance_count;
        for first in (0..count).step_by(GS_WAVE) {
            let mut lanes: Vec<GsLane> = (first..count.min(first.saturating_add(GS_WAVE as u32)))
                .map(|instance| GsLane { instance, outputs: Outputs::default(), emitted: Vec::new() })
                .collect();
            stats.gs_invocations += lanes.len() as u64;
            let n = lanes.len();
            let mut wave = GsWave {
                inputs: &self.shader.entry.inputs,
                links: &self.links,
                verts,
                primitive_id,
                lanes: &mut lanes,
                handles: &mut *handles,
                resources: &self.resources,
                bindings: self.bindings,
            };
            interp::run_wave(self.shader.module, self.function, &mut wave, n, GS_WAVE)?;
            self.assemble(lanes, primitive_id, &mut out, stats);
        }
        Ok(out)
    }

    /// The primitives of each instance's emitted strips, instance after instance, stream
    /// after stream.
    fn assemble(&self, lanes: Vec<GsLane>, primitive_id: u32, out: &mut Vec<StreamPrimitive>, stats: &mut DrawStats) {
        for lane in lanes {
            let mut shaded: Vec<ShadedVertex> = Vec::new();
            let mut order: [Vec<u32>; STREAMS] = Default::default();
            for (stream, e) in lane.emitted {
                let s = (stream as usize).min(STREAMS - 1);
                match e {
                    Some(outputs) if shaded.len() < self.state.max_vertex_count as usize => {
                        order[s].push(shaded.len() as u32);
                        let clip = self.position[s]
                            .and_then(|p| outputs.get(&(p, 0)))
                            .map_or([0.0; 4], |p| p.each_ref().map(f32_of));
                        shaded.push(ShadedVertex { clip, outputs: std::sync::Arc::new(outputs) });
                    }
                    Some(_) => {}
                    None => order[s].push(u32::MAX),
                }
            }
            for (s, order) in order.iter().enumerate() {
                for prim in input_assembler::primitives(self.topology, order, Some(u32::MAX)) {
                    let (ids, kind): (&[u32], Primitive) = match &prim {
                        Primitive::Point(v) => (std::slice::from_ref(v), Primitive::Point(0)),
                        Primitive::Line(l) => (l, Primitive::Line([0, 1])),
                        Primitive::Triangle(t) => (t, Primitive::Triangle([0, 1, 2])),
                    };
                    let vs: Vec<ShadedVertex> = ids.iter().map(|&i| shaded[i as usize].clone()).collect();
                    // SV_PrimitiveID written by the shader: the leading vertex's.
                    let id = self.primitive_id[s]
                        .and_then(|id| vs[0].outputs.get(&(id, 0)))
                        .map_or(primitive_id, |v| bits_of(&v[0]));
                    out.push((s as u32, (kind, vs, id)));
                    stats.gs_primitives += 1;
                }
            }
        }
    }
}

/// GS instances run together, as one wave (D3D allows 32 instances).
const GS_WAVE: usize = 32;

/// The D3D topology of a geometry shader's output (D3D_PRIMITIVE_TOPOLOGY 1, 3 or 5).
fn gs_output_topology(t: u32) -> Option<input_assembler::Topology> {
    match t {
        1 => Some(input_assembler::Topology::PointList),
        3 => Some(input_assembler::Topology::LineStrip),
        5 => Some(input_assembler::Topology::TriangleStrip),
        _ => None,
    }
}
