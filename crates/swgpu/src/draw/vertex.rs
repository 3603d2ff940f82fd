//! The vertex stage: the input layout linked to the vertex shader's input signature once per
//! draw, and vertices fetched ([`crate::input_assembler::fetch`]) and shaded as waves of
//! [`VS_WAVE`] lanes.

use super::{
    f32_of, slot_bits, slot_val, Bindings, Class, Comp, DrawCall, DrawError, Handles, Outputs, ShadedVertex, Shader,
};
use crate::input_assembler;
use rd3d12_core::pipeline::InputElement;
use rd3d12_shader::dxil::Function;
use rd3d12_shader::interp::env::{lanes, At, GatherReq, LodReq, SampleReq};
use rd3d12_shader::interp::{self, ExecError, Mask, WaveEnv};
use rd3d12_shader::ir::interface::{ComponentType, SemanticKind, SignatureElement};
use rd3d12_shader::ir::Scalar;

type R<T> = Result<T, ExecError>;

/// What a draw's vertex shader needs, set up once per draw.
pub(super) struct VertexStage<'c> {
    call: &'c DrawCall<'c>,
    shader: &'c Shader<'c>,
    function: &'c Function,
    resources: Vec<rd3d12_shader::dxil::metadata::Resource>,
    bindings: &'c dyn Bindings,
    /// Each input-layout element's byte offset in its vertex.
    offsets: Vec<u32>,
    /// Input signature rows (by id + row): the input-layout element feeding each, if any.
    links: Vec<Option<usize>>,
    /// The output signature id of SV_Position.
    position: Option<u32>,
}

impl<'c> VertexStage<'c> {
    pub(super) fn new(call: &'c DrawCall<'c>, bindings: &'c dyn Bindings) -> Result<Self, DrawError> {
        let layout = &call.pipeline.input_layout;
        Ok(VertexStage {
            call,
            shader: &call.vs,
            function: call.vs.function()?,
            resources: call.vs.resources.to_vec(),
            bindings,
            offsets: input_assembler::element_offsets(layout),
            links: input_links(layout, &call.vs.entry.inputs),
            position: call.vs.entry.outputs.iter().find(|e| e.semantic == SemanticKind::Position).map(|e| e.id),
        })
    }

    /// Fetches vertices `vs` of `instance` and runs the vertex shader on them as one wave
    /// ([`VS_WAVE`] lanes at most), in order.
    pub(super) fn shade(&self, vs: &[u32], instance: u32) -> Result<Vec<ShadedVertex>, DrawError> {
        let call = self.call;
        let p = call.pipeline;
        // The rows the shader can write: each vertex's outputs in one allocation.
        let rows = call.vs.entry.outputs.iter().map(|e| e.rows.max(1) as usize).sum();
        // Each vertex's inputs, `links.len()` to a vertex, in one table for the wave: only the
        // elements the shader reads are fetched.
        let stride = self.links.len();
        let mut attrs: Vec<Option<[u32; 4]>> = Vec::with_capacity(stride * vs.len());
        for &v in vs {
            attrs.extend(self.links.iter().map(|l| {
                l.map(|i| {
                    input_assembler::fetch_element(
                        &p.input_layout,
                        &self.offsets,
                        &call.vertex_buffers,
                        i,
                        v,
                        instance,
                        call.start_instance,
                    )
                })
            }));
        }
        let mut lanes: Vec<VsLane> = vs
            .iter()
            .map(|&v| VsLane {
                // SV_VertexID and SV_InstanceID start at 0 whatever the draw's start
                // locations (which only choose the vertex data fetched).
                vertex_id: v.wrapping_sub(call.vertex_id_base),
                outputs: Outputs::with_rows(rows),
            })
            .collect();
        let n = lanes.len();
        if n == 0 {
            return Ok(Vec::new());
        }
        let mut wave = VsWave {
            inputs: &self.shader.entry.inputs,
            attrs: &attrs,
            stride,
            lanes: &mut lanes,
            instance_id: instance,
            starts: [call.vertex_id_base, call.start_instance],
            handles: Handles::default(),
            resources: &self.resources,
            bindings: self.bindings,
        };
        interp::run_wave(self.shader.module, self.function, &mut wave, n, VS_WAVE)?;
        Ok(lanes
            .into_iter()
            .map(|lane| {
                let pos = self
                    .position
                    .and_then(|s| lane.outputs.get(&(s, 0)))
                    .map_or([0.0; 4], |p| [0, 1, 2, 3].map(|c| f32_of(&p[c])));
                ShadedVertex { clip: pos, outputs: std::sync::Arc::new(lane.outputs) }
            })
            .collect())
    }
}

/// Draws with fewer vertex waves than this shade them on the calling thread.
const PARALLEL_WAVES: usize = 16;

impl VertexStage<'_> {
    /// [`VertexStage::shade`] of every wave of `waves` (consecutive vertices of one order) of
    /// `instance`, on the workers: the shaded vertices in order, up to the first wave that
    /// failed, and that wave's error.
    pub(super) fn shade_waves(&self, waves: &[&[u32]], instance: u32) -> (Vec<ShadedVertex>, Option<DrawError>) {
        type Slot = std::sync::Mutex<Option<Vec<ShadedVertex>>>;
        let done: Vec<Slot> = waves.iter().map(|_| std::sync::Mutex::new(None)).collect();
        let lowest = crate::pool::Lowest::default();
        // A few waves (a cube, a quad) cost less than waking the workers, who would then spin
        // for more work on cores the queue and the application need: they run here.
        let threads = if waves.len() < PARALLEL_WAVES { 1 } else { crate::pool::threads() };
        // A wave's work is small: several to a claim keep the claim counter cold.
        let per = waves.len().div_ceil(threads * 8).clamp(1, 16);
        crate::pool::workers(threads, waves.len().div_ceil(per), |claim| {
            while let Some(c) = claim.next() {
                for i in c * per..((c + 1) * per).min(waves.len()) {
                    if lowest.passed(i) {
                        return;
                    }
                    match self.shade(waves[i], instance) {
                        Ok(v) => *done[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(v),
                        Err(e) => return lowest.fail(i, e),
                    }
                }
            }
        });
        let mut out = Vec::with_capacity(waves.iter().map(|w| w.len()).sum());
        for slot in done {
            match slot.into_inner().unwrap_or_else(|e| e.into_inner()) {
                Some(v) => out.extend(v),
                None => break,
            }
        }
        (out, lowest.into_result().err())
    }
}

/// Where each vertex number stands in a draw's order of first use: a table by number for
/// the numbers of one draw's usual range, a map beyond.
#[derive(Default)]
pub(super) struct Places {
    dense: Vec<u32>,
    sparse: std::collections::HashMap<u32, u32>,
}

impl Places {
    /// Numbers below this many go in the table.
    const DENSE: u32 = 1 << 20;

    /// Records that `v` stands at `k`; `false` (and nothing changes) when `v` has a place.
    pub(super) fn insert(&mut self, v: u32, k: u32) -> bool {
        if v < Self::DENSE {
            let i = v as usize;
            if i >= self.dense.len() {
                self.dense.resize((i + 1).next_power_of_two(), u32::MAX);
            }
            if self.dense[i] != u32::MAX {
                return false;
            }
            self.dense[i] = k;
            true
        } else {
            match self.sparse.entry(v) {
                std::collections::hash_map::Entry::Occupied(_) => false,
                std::collections::hash_map::Entry::Vacant(e) => {
                    e.insert(k);
                    true
                }
            }
        }
    }

    /// The place of `v`.
    pub(super) fn get(&self, v: u32) -> Option<u32> {
        if v < Self::DENSE {
            self.dense.get(v as usize).copied().filter(|&k| k != u32::MAX)
        } else {
            self.sparse.get(&v).copied()
        }
    }
}

/// Vertices shaded together, as one wave (WaveGetLaneCount in a vertex shader).
pub(super) const VS_WAVE: usize = 8;

/// One vertex of a vertex-shader wave.
struct VsLane {
    vertex_id: u32,
    outputs: Outputs,
}

/// The vertex shader's view of a wave of vertices of one instance.
struct VsWave<'b> {
    inputs: &'b [SignatureElement],
    /// For each lane, `stride` entries: the input-layout element feeding each input signature
    /// row (by id + row), with its lanes.
    attrs: &'b [Option<[u32; 4]>],
    stride: usize,
    lanes: &'b mut [VsLane],
    instance_id: u32,
    /// SV_StartVertexLocation (StartVertexLocation, or an indexed draw's BaseVertexLocation)
    /// and SV_StartInstanceLocation.
    starts: [u32; 2],
    /// The handles the wave's shader creates.
    handles: Handles,
    resources: &'b [rd3d12_shader::dxil::metadata::Resource],
    bindings: &'b dyn Bindings,
}

pub(super) fn lane_val(bits: u32, component: ComponentType) -> Comp {
    match component {
        ComponentType::F16 | ComponentType::F32 => Comp::F32(f32::from_bits(bits)),
        _ => Comp::Int(u64::from(bits)),
    }
}

/// Input signature element `sig`.
pub(super) fn input_element(inputs: &[SignatureElement], sig: u32) -> Result<&SignatureElement, ExecError> {
    inputs.iter().find(|e| e.id == sig).ok_or_else(|| ExecError::Malformed("input signature".into()))
}

/// Component `col` of the output at (signature id, row); unwritten components read 0.
pub(super) fn store_lane(outputs: &mut Outputs, at: (u32, u32), col: u8, value: &Comp) {
    outputs.row_mut(at)[col as usize & 3] = *value;
}

impl VsWave<'_> {
    /// Every vertex's UAV writes take effect.
    fn writes(&self, m: Mask) -> Mask {
        m
    }
}

impl WaveEnv for VsWave<'_> {
    fn load_input(
        &mut self,
        m: Mask,
        at: (u32, u32, u8),
        _vertex: Option<&[u64]>,
        s: Scalar,
        out: &mut [u64],
    ) -> R<()> {
        let (sig, row, col) = at;
        let e = input_element(self.inputs, sig)?;
        match e.semantic {
            SemanticKind::VertexId => lanes(m).for_each(|l| out[l] = s.mask(u64::from(self.lanes[l].vertex_id))),
            SemanticKind::InstanceId => lanes(m).for_each(|l| out[l] = s.mask(u64::from(self.instance_id))),
            _ => {
                for l in lanes(m) {
                    let k = (sig + row) as usize;
                    let attr = (k < self.stride).then(|| self.attrs.get(l * self.stride + k)).flatten();
                    let attr = attr.copied().flatten().unwrap_or([0; 4]);
                    out[l] = slot_bits(&lane_val(attr[col as usize & 3], e.component), s);
                }
            }
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
    fn system_value(&mut self, m: Mask, opcode: u32, _component: u32, out: &mut [u32]) -> R<()> {
        let v = match opcode {
            // SV_StartVertexLocation (StartVertexLocation, or an indexed draw's
            // BaseVertexLocation) and SV_StartInstanceLocation.
            256 => self.starts[0],
            257 => self.starts[1],
            // ViewID: no view instancing (ViewInstancingTier 0), the one view 0.
            138 => 0,
            _ => return Err(ExecError::Unsupported(format!("system value {opcode} in a vertex shader"))),
        };
        lanes(m).for_each(|l| out[l] = v);
        Ok(())
    }
    wave_resource_ops!();
}

/// The input-layout element feeding each input signature element row, by id (+ row): the
/// element of the same semantic name (case-insensitive) and index.
fn input_links(layout: &[InputElement], sig: &[SignatureElement]) -> Vec<Option<usize>> {
    let n = sig.iter().map(|e| (e.id + e.rows.max(1)) as usize).max().unwrap_or(0);
    let mut out = vec![None; n];
    for e in sig {
        for (r, &index) in e.semantic_indices.iter().enumerate() {
            let found = layout.iter().position(|l| {
                l.semantic_name.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(&e.name)) && l.semantic_index == index
            });
            if let (Some(i), Some(slot)) = (found, out.get_mut(e.id as usize + r)) {
                *slot = Some(i);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Places;

    /// Numbers in the table and in the map each get the first place given; later inserts of
    /// the same number change nothing; numbers never inserted have none.
    #[test]
    fn places_keep_the_first_use() {
        let mut p = Places::default();
        let big = Places::DENSE + 7;
        for (k, v) in [5u32, 0, big, 5, u32::MAX, big, 0].into_iter().enumerate() {
            let fresh = p.insert(v, k as u32);
            assert_eq!(fresh, [0, 1, 2, 4].contains(&k), "insert #{k} of {v}");
        }
        assert_eq!([5, 0, big, u32::MAX].map(|v| p.get(v)), [Some(0), Some(1), Some(2), Some(4)]);
        assert_eq!([1, 6, Places::DENSE, big + 1].map(|v| p.get(v)), [None; 4]);
    }
}
