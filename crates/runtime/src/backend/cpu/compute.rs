//! Dispatches on the CPU: a recorded [`DispatchWork`] runs [`rd3d12_swgpu::compute::dispatch`]
//! (thread groups spread over the worker pool) with the compute root signature's bindings
//! ([`super::bindings`]), the registers the shader declares resolved once before the workers
//! start.

use super::bindings::StageBindings;
use super::draw::Skipped;
use crate::work::commands::DispatchWork;
use crate::work::pipeline::Executable;
use rd3d12_core::pipeline::{PipelineKind, Slot};
use rd3d12_sys::*;

/// Why the CPU backend does not run a pipeline's dispatches (`None`: it does, a compute
/// pipeline whose DXIL it read).
pub fn not_runnable(e: &Executable) -> Option<String> {
    if e.pipeline.desc.kind != PipelineKind::Compute {
        return Some("the pipeline state is not a compute pipeline".into());
    }
    match e.program(Slot::Cs) {
        Some(Ok(_)) => None,
        Some(Err(why)) => Some(format!("CS: {why}")),
        None => Some("the pipeline has no compute shader".into()),
    }
}

/// Whether the CPU backend runs a pipeline's dispatches ([`not_runnable`] gives no reason).
pub fn runnable(e: &Executable) -> bool {
    not_runnable(e).is_none()
}

/// Executes one dispatch.
pub fn run(w: &DispatchWork) -> Result<rd3d12_swgpu::compute::DispatchStats, Skipped> {
    let Some(Ok(p)) = w.pipeline.program(Slot::Cs) else {
        return Err(Skipped::Unsupported("the compute shader cannot run".into()));
    };
    let Some(entry) = p.dx.entry_points.first() else {
        return Err(Skipped::Unsupported("a shader without an entry point".into()));
    };
    // Compute work sees the parameters of every visibility (compute has no stage filter).
    let b = StageBindings::with_resources(&w.binds, D3D12_SHADER_VISIBILITY_ALL, &p.dx.resources);
    rd3d12_swgpu::compute::dispatch(p, entry, w.groups, &b).map_err(Skipped::from)
}
