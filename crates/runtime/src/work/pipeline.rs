//! A pipeline as recorded work executes it.

use rd3d12_core::pipeline::{Pipeline, PsoError, Slot};
use rd3d12_shader::dxil::Program;

/// A pipeline as draws and dispatches execute it: the validated pipeline and the DXIL program
/// of each shader, read (and checked to execute, [`rd3d12_shader::pipeline::dxil_programs`]) at creation.
/// Command lists hold it by `Arc` (no COM reference: native lists do not AddRef the PSOs they
/// record).
pub struct Executable {
    pub pipeline: Pipeline,
    programs: Vec<(Slot, std::result::Result<Program, String>)>,
}

impl std::ops::Deref for Executable {
    type Target = Pipeline;
    fn deref(&self) -> &Pipeline {
        &self.pipeline
    }
}

impl Executable {
    /// Reads the pipeline's DXIL programs; refuses one the CPU backend would not execute.
    pub fn new(pipeline: Pipeline) -> std::result::Result<Executable, PsoError> {
        let programs = rd3d12_shader::pipeline::dxil_programs(&pipeline)?
            .into_iter()
            .map(|(slot, p)| (slot, p.map_err(|e| e.to_string())))
            .collect();
        Ok(Executable { pipeline, programs })
    }

    /// The DXIL program of the shader in `slot`: `None` without a shader there, an error when
    /// the CPU backend cannot run it (DXBC bytecode, or DXIL it cannot read).
    pub fn program(&self, slot: Slot) -> Option<std::result::Result<&Program, &str>> {
        self.pipeline.desc.shader(slot)?;
        Some(match self.programs.iter().find(|(s, _)| *s == slot) {
            Some((_, p)) => p.as_ref().map_err(String::as_str),
            None => Err("DXBC bytecode is not executed by the CPU backend (DXIL only)"),
        })
    }
}
