//! Shader bytecode as CreateComputePipelineState receives it: the container and its parts
//! (`shader::parse`), the DXIL module and metadata (`dxil::parse`), each entry point's lowering to
//! the IR (`dxil::lower`, the printer, `passes::cfg`, the interpreter's layout), and pipeline
//! validation.
//! Malformed input must be an error value, never a panic, a hang or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rd3d12_core::caps::Caps;
use rd3d12_core::pipeline::{self, Limits, PipelineDesc, PipelineKind, Slot};
use rd3d12_core::shader::ShaderModel;

fuzz_target!(|data: &[u8]| {
    let _ = rd3d12_core::shader::parse(data);
    if let Ok(p) = rd3d12_shader::dxil::parse(data) {
        // The text printer walks every function, instruction and operand.
        let _ = p.module.to_string();
        // Each entry point lowered to the IR (printed, its control flow analysed) and laid out
        // for the interpreter, whatever its stage.
        for e in &p.dx.entry_points {
            let Some(f) = p.module.functions.get(e.function) else { continue };
            if let Ok(mut ir) = rd3d12_shader::dxil::lower::lower(&p.module, f) {
                let _ = ir.to_string();
                rd3d12_shader::passes::cfg::analyse(&mut ir);
            }
            let _ = rd3d12_shader::interp::program(&p.module, f);
        }
    }
    let limits = Limits { allow_unsigned_dxil: true, ..Limits::new(Caps::today(), ShaderModel::new(6, 2)) };
    let mut d = PipelineDesc::new(PipelineKind::Compute);
    d.set_shader(Slot::Cs, Some(data.to_vec()));
    let _ = pipeline::validate(&d, &limits);
});
