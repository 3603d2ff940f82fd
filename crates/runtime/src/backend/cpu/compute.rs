//! Dispatches on the CPU: a recorded [`DispatchWork`] runs [`rd3d12_core::compute::dispatch`]
//! with the compute root signature's bindings ([`super::bindings`]).

use super::bindings::StageBindings;
use super::draw::Skipped;
use crate::commands::DispatchWork;
use crate::pipeline_state::Executable;
use rd3d12_core::pipeline::{PipelineKind, Slot};
use rd3d12_sys::*;

/// Whether the CPU backend runs a pipeline's dispatches: a compute pipeline whose DXIL it can
/// read.
pub fn runnable(e: &Executable) -> bool {
    e.pipeline.desc.kind == PipelineKind::Compute && matches!(e.program(Slot::Cs), Some(Ok(_)))
}

/// Executes one dispatch.
pub fn run(w: &DispatchWork) -> Result<rd3d12_core::compute::DispatchStats, Skipped> {
    let Some(Ok(p)) = w.pipeline.program(Slot::Cs) else {
        return Err(Skipped::Unsupported("the compute shader cannot run".into()));
    };
    let Some(entry) = p.dx.entry_points.first() else {
        return Err(Skipped::Unsupported("a shader without an entry point".into()));
    };
    // Compute work sees the parameters of every visibility (compute has no stage filter).
    let b = StageBindings::new(&w.binds, D3D12_SHADER_VISIBILITY_ALL);
    rd3d12_core::compute::dispatch(&p.module, entry, w.groups, &b).map_err(Skipped::from)
}
