//! DXBC: the front end for fxc's shader models 4.0–5.1 (`SHDR` / `SHEX` parts).
//!
//! * [`opcodes`] — the opcode table of Microsoft's `D3D12TokenizedProgramFormat.hpp`: names,
//!   operand counts, the shader model each appeared in.
//! * [`tokens`] — the token stream decoded: instructions, operands with their index
//!   representations, modifiers, immediates, custom data.
//! * [`lower`] — the program lowered to the same IR the DXIL front end produces
//!   ([`crate::ir`]), and the interface (signatures from the container's `ISGN` / `OSGN`, or
//!   `OSG5` / `OSG1` with a geometry shader's streams, `PCSG`; resources and thread-group size
//!   from the declarations).
//! * [`asm`] — a small assembler from fxc-like text, for tests (there is no fxc on Linux).
//!
//! [`parse`] gives a [`crate::dxil::Program`]: the pipeline's and the software GPU's unit of
//! a shader (a module of functions and its `dx` interface). A DXBC program's module holds one
//! function with no DXIL body whose lowered IR is laid out at parse time (its `exec_cache`),
//! so `interp::program` and the JIT find it there and never see where it came from.
//! `RDEF`, `STAT`, `SFI0` and the other parts are not needed: the program declares what it
//! uses. Malformed input is an error, never a panic.

pub mod asm;
pub mod lower;
pub mod opcodes;
pub mod tokens;

use crate::dxil::metadata::{DxMetadata, EntryPoint, FORCE_EARLY_DEPTH_STENCIL};
use crate::dxil::module::{ExecCache, Function, Module};
use rd3d12_core::dxbc::Container;
use rd3d12_core::shader::{Interpolation, ShaderError, Stage};

/// Why a DXBC shader is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DxbcError {
    /// The container or its signatures are malformed.
    Container(ShaderError),
    /// The token stream is malformed.
    Tokens(tokens::TokenError),
    /// An instruction of a later shader model than the program's version: (mnemonic, its
    /// model as major * 10 + minor, the program's).
    Model(&'static str, u8, u32),
    /// The program does not lower.
    Lower(lower::LowerError),
}

impl core::fmt::Display for DxbcError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            DxbcError::Container(e) => write!(f, "{e}"),
            DxbcError::Tokens(e) => write!(f, "{e}"),
            DxbcError::Model(name, m, v) => {
                write!(f, "{name} needs shader model {}.{}, the program is {}.{}", m / 10, m % 10, v / 10, v % 10)
            }
            DxbcError::Lower(e) => write!(f, "{e}"),
        }
    }
}

/// The program part of a DXBC container (`SHEX` or `SHDR`).
pub fn program_part(container: &[u8]) -> Result<&[u8], ShaderError> {
    let c = Container::parse_unverified(container)?;
    c.part(*b"SHEX").or_else(|| c.part(*b"SHDR")).ok_or(ShaderError::NoProgram)
}

/// A patch constant signature with each tess factor array as one element of several rows
/// (the container lists SV_TessFactor / SV_InsideTessFactor one register each; DXIL, and so
/// the tessellator's reader, has one element with a row per factor), ids renumbered.
fn merge_tess_factors(sig: &[rd3d12_core::shader::SignatureElement]) -> Vec<rd3d12_core::shader::SignatureElement> {
    use rd3d12_core::shader::SemanticKind as S;
    let mut out: Vec<rd3d12_core::shader::SignatureElement> = Vec::new();
    for e in sig {
        if let Some(last) = out.last_mut() {
            let tess = matches!(e.semantic, S::TessFactor | S::InsideTessFactor);
            if tess
                && last.semantic == e.semantic
                && last.mask == e.mask
                && i64::from(last.start_row) + i64::from(last.rows) == i64::from(e.start_row)
            {
                last.rows += 1;
                last.semantic_indices.extend(&e.semantic_indices);
                continue;
            }
        }
        out.push(e.clone());
    }
    for (k, e) in out.iter_mut().enumerate() {
        e.id = k as u32;
    }
    out
}

/// Checks that every instruction belongs to the program's shader model.
fn check_model(p: &tokens::Program) -> Result<(), DxbcError> {
    let v = p.major * 10 + p.minor;
    for i in &p.insts {
        if let Some(e) = opcodes::info(i.opcode) {
            if u32::from(e.4) > v {
                return Err(DxbcError::Model(e.1, e.4, v));
            }
        }
    }
    Ok(())
}

/// Reads, checks and lowers the DXBC program of a shader container.
///
/// Guarantees: the container is one [`rd3d12_core::shader::parse`] accepts, with a `SHEX` or
/// `SHDR` part whose version names the container's stage; the token stream decodes
/// ([`tokens::decode`]); no instruction is of a later shader model than the program's; the
/// program lowers ([`lower::lower`]) and is laid out for execution. The result's one entry
/// point has the container's signatures (pixel inputs with the interpolation their
/// `dcl_input_ps` declares), the declared resources and `dcl_thread_group`.
pub fn parse(container: &[u8]) -> Result<crate::dxil::Program, DxbcError> {
    let shader = rd3d12_core::shader::parse(container).map_err(DxbcError::Container)?;
    let part = program_part(container).map_err(DxbcError::Container)?;
    let prog = tokens::decode(part).map_err(DxbcError::Tokens)?;
    if Stage::from_dxbc_type(prog.kind) != Some(shader.stage) {
        return Err(DxbcError::Container(ShaderError::NoProgram));
    }
    check_model(&prog)?;
    let patch = merge_tess_factors(&shader.patch_constants);
    let (fs, facts) = lower::lower(&prog, &shader.inputs, &shader.outputs, &patch).map_err(DxbcError::Lower)?;
    let mut functions = Vec::new();
    for f in fs {
        let laid = crate::interp::program::Program::new(f)
            .map_err(|e| DxbcError::Lower(lower::LowerError::Malformed(e.to_string())))?;
        let cache = ExecCache::default();
        let _ = cache.0.set(Ok(laid));
        functions.push(Function {
            name: if functions.is_empty() { "main" } else { "patch_constants" }.into(),
            value: crate::dxil::ValueId(0),
            ty: crate::dxil::TypeId(0),
            declaration: false,
            linkage: 0,
            calling_conv: 0,
            paramattr: 0,
            first_local: 0,
            values: Vec::new(),
            blocks: Vec::new(),
            exec_cache: cache,
        });
    }
    let mut inputs = shader.inputs.clone();
    for e in &mut inputs {
        if let Some(&(_, mode)) = facts.interpolation.iter().find(|(r, _)| i64::from(*r) == i64::from(e.start_row)) {
            e.interpolation = Interpolation::from_dxil(mode).unwrap_or(Interpolation::Undefined);
        }
    }
    let entry = EntryPoint {
        function: 0,
        name: "main".into(),
        inputs,
        outputs: shader.outputs.clone(),
        patch_constants: patch,
        num_threads: facts.num_threads,
        gs: (shader.stage == Stage::Geometry)
            .then_some(crate::dxil::GsState { active_stream_mask: facts.streams.max(1), ..facts.gs }),
        hs: (shader.stage == Stage::Hull).then_some(facts.hs),
        ds: (shader.stage == Stage::Domain).then_some(crate::dxil::DsState {
            domain: facts.hs.domain,
            input_control_points: facts.hs.input_control_points,
        }),
        wave_size: None,
        shader_flags: if facts.early_depth { FORCE_EARLY_DEPTH_STENCIL } else { 0 },
    };
    let dx = DxMetadata {
        dxil_version: (0, 0),
        stage: shader.stage,
        model: (prog.major, prog.minor),
        entry_points: vec![entry],
        resources: facts.resources,
    };
    let module = Module {
        version: 1,
        triple: "dxbc".into(),
        datalayout: String::new(),
        types: Default::default(),
        values: Vec::new(),
        globals: Vec::new(),
        functions,
        metadata: Default::default(),
    };
    Ok(crate::dxil::Program { module, dx })
}

#[cfg(test)]
mod tests;
