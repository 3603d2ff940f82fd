//! The pipeline and binding state a command list records for draws and dispatches (what
//! OMSet*, IASet*, RSSet*, SetPipelineState, the root signature and root argument setters
//! leave set), and how a bundle's state merges into the list that executes it. Plain data:
//! recording validates and fills it, recorded work copies from it.

use rd3d12_core::root_signature::RootSlot;
use rd3d12_sys::*;
use std::sync::Arc;

/// Pipeline and binding state recorded for draws and dispatches.
#[derive(Default, Clone)]
pub struct GraphicsState {
    pub topology: i32,
    pub viewports: Vec<D3D12_VIEWPORT>,
    pub scissors: Vec<D3D12_RECT>,
    pub blend_factor: [f32; 4],
    pub stencil_ref: u32,
    /// SetSamplePositions: one pixel's pattern, empty for the standard pattern. Bundles
    /// inherit it and cannot set it.
    pub sample_positions: Vec<(i8, i8)>,
    pub pipeline: usize,
    /// The bound pipeline as draws and dispatches execute it.
    pub executable: Option<Arc<crate::work::pipeline::Executable>>,
    /// The bound root signatures' descs (compute, graphics).
    pub root_descs: [Option<Arc<rd3d12_core::root_signature::RootSignatureDesc>>; 2],
    /// Their canonical encodings, compared with the pipeline's at draws and dispatches.
    pub root_canonical: [Option<Arc<[u8]>>; 2],
    /// The bound shader-visible heaps: (address range of the descriptors, D3D12_DESCRIPTOR_HEAP_TYPE).
    pub descriptor_heaps: Vec<(std::ops::Range<u64>, u32)>,
    pub compute_root_signature: usize,
    pub graphics_root_signature: usize,
    /// The parameter shapes of the bound root signatures (compute, graphics).
    pub root_slots: [Option<Arc<[RootSlot]>>; 2],
    /// (compute?, parameter index) → argument.
    pub root_args: Vec<(bool, u32, RootArg)>,
    pub index_buffer: Option<D3D12_INDEX_BUFFER_VIEW>,
    pub vertex_buffers: Vec<(u32, D3D12_VERTEX_BUFFER_VIEW)>,
    pub so_targets: Vec<(u32, D3D12_STREAM_OUTPUT_BUFFER_VIEW)>,
    pub render_targets: Vec<D3D12_CPU_DESCRIPTOR_HANDLE>,
    pub depth_stencil: Option<D3D12_CPU_DESCRIPTOR_HANDLE>,
    pub view_instance_mask: u32,
    /// What a bundle set itself (the rest it inherits from the list that executes it).
    pub bundle_set: BundleSet,
    /// The state is a bundle's (root arguments may target the executing list's root signature).
    pub bundle: bool,
}

/// The state a bundle set (ExecuteBundle: bundles inherit everything from the executing list
/// but the pipeline state and the primitive topology, and what they set stays set).
#[derive(Default, Clone, Copy)]
pub struct BundleSet {
    /// Set{Compute,Graphics}RootSignature (compute, graphics).
    pub root_signature: [bool; 2],
    pub index_buffer: bool,
    pub blend_factor: bool,
    pub stencil_ref: bool,
    pub descriptor_heaps: bool,
}

impl GraphicsState {
    /// The state a bundle's draw or dispatch runs with, or the executing list's state after the
    /// bundle: `self` (the executing list's state) with what the bundle `b` set. The pipeline
    /// state and topology are always the bundle's.
    pub fn with_bundle(&self, b: &GraphicsState) -> GraphicsState {
        let mut m = self.clone();
        m.pipeline = b.pipeline;
        m.executable = b.executable.clone();
        m.topology = b.topology;
        for k in 0..2 {
            let compute = k == 0;
            if b.bundle_set.root_signature[k] {
                m.root_descs[k] = b.root_descs[k].clone();
                m.root_slots[k] = b.root_slots[k].clone();
                m.root_canonical[k] = b.root_canonical[k].clone();
                if compute {
                    m.compute_root_signature = b.compute_root_signature;
                } else {
                    m.graphics_root_signature = b.graphics_root_signature;
                }
                m.root_args.retain(|a| a.0 != compute);
            }
        }
        for a in &b.root_args {
            let arg = match &a.2 {
                // Constants a bundle set against the executing list's root signature: written
                // at their offset into the list's values of that parameter.
                RootArg::Constants(off, vals) => {
                    let n = match m.root_descs[usize::from(!a.0)]
                        .as_deref()
                        .and_then(|r| r.parameters.get(a.1 as usize))
                        .map(|p| &p.kind)
                    {
                        Some(rd3d12_core::root_signature::ParameterKind::Constants(c)) => c.num_32bit_values as usize,
                        _ => (*off as usize + vals.len()).max(vals.len()),
                    };
                    let mut all = match m.root_args.iter().find(|x| x.0 == a.0 && x.1 == a.1) {
                        Some((_, _, RootArg::Constants(0, old))) => old.clone(),
                        _ => vec![0; n],
                    };
                    all.resize(n.max(*off as usize + vals.len()), 0);
                    all[*off as usize..*off as usize + vals.len()].copy_from_slice(vals);
                    RootArg::Constants(0, all)
                }
                other => other.clone(),
            };
            m.root_args.retain(|x| !(x.0 == a.0 && x.1 == a.1));
            m.root_args.push((a.0, a.1, arg));
        }
        for (slot, v) in &b.vertex_buffers {
            m.vertex_buffers.retain(|x| x.0 != *slot);
            m.vertex_buffers.push((*slot, *v));
        }
        if b.bundle_set.index_buffer {
            m.index_buffer = b.index_buffer;
        }
        if b.bundle_set.blend_factor {
            m.blend_factor = b.blend_factor;
        }
        if b.bundle_set.stencil_ref {
            m.stencil_ref = b.stencil_ref;
        }
        if b.bundle_set.descriptor_heaps {
            m.descriptor_heaps = b.descriptor_heaps.clone();
        }
        m.bundle_set = BundleSet::default();
        m.bundle = false;
        m
    }
}

#[derive(Clone, Debug)]
pub enum RootArg {
    Table(u64),
    Constants(u32, Vec<u32>),
    View(RootView, u64),
}

/// The kind of a root descriptor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootView {
    Cbv,
    Srv,
    Uav,
}
