//! A pipeline as recorded work executes it: what [`crate::backend::Backend::compile`] makes of
//! a validated pipeline.

use rd3d12_core::pipeline::{Pipeline, Slot};
use rd3d12_shader::dxil::Program;

/// A pipeline as draws and dispatches execute it: the validated pipeline, the program of each
/// shader the backend read at creation, and why the backend would not run the pipeline's
/// draws or dispatches. Command lists hold it by `Arc` (no COM reference: native lists do not
/// AddRef the PSOs they record).
pub struct Executable {
    pub pipeline: Pipeline,
    programs: Vec<(Slot, std::result::Result<std::sync::Arc<Program>, String>)>,
    /// Why the backend does not run the pipeline's draws ([0]) and dispatches ([1]); `None`:
    /// it does.
    skips: [Option<String>; 2],
}

impl std::ops::Deref for Executable {
    type Target = Pipeline;
    fn deref(&self) -> &Pipeline {
        &self.pipeline
    }
}

impl Executable {
    /// A pipeline with the programs read from its shaders (by slot; an error for a shader that
    /// could not be read), whose draws and dispatches run until [`Executable::with_skips`]
    /// says otherwise.
    pub fn new(
        pipeline: Pipeline,
        programs: Vec<(Slot, std::result::Result<std::sync::Arc<Program>, String>)>,
    ) -> Executable {
        Executable { pipeline, programs, skips: [None, None] }
    }

    /// The pipeline with the reasons its draws (`skips[0]`) and dispatches (`skips[1]`) do
    /// not run.
    pub fn with_skips(self, skips: [Option<String>; 2]) -> Executable {
        Executable { skips, ..self }
    }

    /// Why the backend does not run the pipeline's dispatches (`compute`) or draws; `None`
    /// when it does.
    pub fn skip_reason(&self, compute: bool) -> Option<&str> {
        self.skips[usize::from(compute)].as_deref()
    }

    /// Whether the backend runs the pipeline's dispatches (`compute`) or draws.
    pub fn runs(&self, compute: bool) -> bool {
        self.skip_reason(compute).is_none()
    }

    /// The program (DXIL, or DXBC lowered to the same IR) of the shader in `slot`: `None`
    /// without a shader there, an error when the CPU backend cannot run it (DXIL it cannot
    /// read; DXBC it cannot run is refused at creation).
    pub fn program(&self, slot: Slot) -> Option<std::result::Result<&Program, &str>> {
        self.pipeline.desc.shader(slot)?;
        Some(match self.programs.iter().find(|(s, _)| *s == slot) {
            Some((_, p)) => p.as_deref().map_err(String::as_str),
            None => Err("the shader's program was not read at creation"),
        })
    }
}
