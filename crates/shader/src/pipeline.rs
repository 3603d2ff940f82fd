//! Which DXIL programs of a pipeline state the CPU backend holds, read and checked at
//! creation ([`dxil_programs`]).

use rd3d12_core::pipeline::{Pipeline, PsoError, Slot};
use rd3d12_core::shader::Bytecode;

/// A pipeline shader's DXIL program as the CPU backend holds it: the program, or why it could
/// not be read.
pub type DxilProgram = Result<crate::dxil::Program, crate::dxil::DxilError>;

/// Reads the DXIL program of each DXIL shader of `p` and checks that the CPU interpreter
/// executes all of it ([`crate::dxil::support::check`]).
///
/// Guarantees: a program that reads but calls an operation (or holds an instruction or a
/// constant expression) the interpreter does not implement, or that uses a construct the
/// reader does not implement ([`crate::dxil::DxilError::Unsupported`]), is an E_INVALIDARG
/// error with the stage's INVALIDSHADERBYTECODE message naming it: its draws and dispatches
/// would be skipped, and a refusal is better than wrong results. Bitcode that does not read
/// at all is returned as its error, for the backend to skip with a warning as before.
/// DXBC shaders have no entry.
pub fn dxil_programs(p: &Pipeline) -> Result<Vec<(Slot, DxilProgram)>, PsoError> {
    let mut out = Vec::new();
    for (slot, s) in &p.shaders {
        if s.bytecode != Bytecode::Dxil {
            continue;
        }
        let Some(bytes) = p.desc.shader(*slot) else { continue };
        let refuse = |why: String| PsoError::invalid(slot.bad_bytecode(), format!("{}: {why}", slot.name()));
        let program = crate::dxil::parse(bytes);
        match &program {
            // A [WaveSize] the device does not run is DxilError::Unsupported: refused below.
            Ok(prog) => crate::dxil::support::check(&prog.module).map_err(|e| refuse(e.to_string()))?,
            Err(e @ crate::dxil::DxilError::Unsupported(..)) => return Err(refuse(e.to_string())),
            Err(_) => {}
        }
        out.push((*slot, program));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_core::pipeline::{PipelineDesc, PipelineKind, RootSignatureInfo};
    use rd3d12_core::shader::{ShaderBuilder, Stage};
    use rd3d12_core::MessageId;
    use rd3d12_sys::*;

    #[test]
    fn dxil_the_cpu_interpreter_does_not_execute_is_refused() {
        let pipeline = |bytes: Vec<u8>| {
            let s = rd3d12_core::shader::parse(&bytes).unwrap();
            let mut desc = PipelineDesc::new(PipelineKind::Compute);
            desc.set_shader(Slot::Cs, Some(bytes));
            Pipeline {
                desc,
                shaders: vec![(Slot::Cs, s)],
                root_signature: RootSignatureInfo { blob: Vec::new(), flags: 0, params: Vec::new() },
                canonical: Vec::new(),
            }
        };
        // DXC's rayquery_inline (shader model 6.5): AllocateRayQuery (178) is an operation the
        // interpreter does not execute.
        let wave = pipeline(
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/dxil/dxc/rayquery_inline.cs.dxil"
            ))
            .to_vec(),
        );
        let e = dxil_programs(&wave).unwrap_err();
        assert_eq!(
            (e.hr, e.id),
            (E_INVALIDARG, MessageId(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE.0))
        );
        assert_eq!(e.message, "CS: dx.op.allocateRayQuery (178, AllocateRayQuery) is not supported (in main)");
        // The wave operations of shader model 6.0 execute.
        let sum = pipeline(
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/dxil/wave_active_sum_product.cs.dxil"
            ))
            .to_vec(),
        );
        assert!(matches!(&dxil_programs(&sum).unwrap()[..], [(Slot::Cs, Ok(_))]));
        // IMul, UMul and UDiv execute: the program is read once, here.
        let ok = pipeline(
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/twoouts.cs.dxil")).to_vec(),
        );
        assert!(matches!(&dxil_programs(&ok).unwrap()[..], [(Slot::Cs, Ok(_))]));
        // Bitcode that does not read (the builder's token stream) is handed on as its error, and
        // DXBC has no DXIL program at all.
        let fake = pipeline(ShaderBuilder::dxil(Stage::Compute).build());
        assert!(matches!(&dxil_programs(&fake).unwrap()[..], [(Slot::Cs, Err(_))]));
        assert!(dxil_programs(&pipeline(ShaderBuilder::dxbc(Stage::Compute).build())).unwrap().is_empty());
    }
}
