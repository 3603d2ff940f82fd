//! DXIL: the LLVM 3.7 bitcode inside a shader model 6.x container's `DXIL` part.
//!
//! * [`bitstream`] — the LLVM bitstream container: blocks, records, abbreviations.
//! * [`types`] — the type table.
//! * [`module`] — the module: global values, constants, functions, value numbering.
//! * [`inst`] — instructions; `body` reads them from function bodies.
//! * [`metadata`] — metadata and the DXIL facts in it (entry points, signatures, resources).
//! * [`ops`] — `dx.op` calls and their opcodes.
//! * [`print`](mod@print) — LLVM-like text of a module, for eyes and tests.
//! * [`lower`] — the module lowered to the IR ([`crate::ir`]).
//! * [`support`] — whether the interpreter ([`exec`]) executes everything a module does.
//!
//! The layers stack: bytes → [`bitstream::parse`] (a tree of blocks and records) →
//! [`Module::parse`] (typed IR with absolute value ids) → [`Module::dx_metadata`] and
//! [`Module::dx_op`], what an interpreter dispatches on. Each layer reports malformed input
//! as an error value and never panics.

pub mod bitstream;
mod body;
pub mod inst;
pub mod lower;
pub mod metadata;
pub mod module;
pub mod ops;
pub mod print;
pub mod support;
pub mod types;

use core::fmt;

pub use inst::{Inst, InstKind, Operand};
pub use metadata::{DsState, DxMetadata, EntryPoint, GsState, HsState, WaveSize};
pub use module::{BasicBlock, Const, Function, Module, ValueDef, ValueId, ValueKind};
pub use ops::DxOp;
pub use types::{Type, TypeId, Types};

use rd3d12_core::dxbc::Container;
use rd3d12_core::shader::ShaderError;

/// Why DXIL could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DxilError {
    /// The container or its program header is malformed.
    Container(ShaderError),
    /// The bitstream is malformed.
    Bitstream(bitstream::BitError),
    /// A record or block has the wrong shape: (where, what).
    Malformed(&'static str, &'static str),
    /// A construct the reader does not implement: (what, its code).
    Unsupported(&'static str, u64),
}

impl fmt::Display for DxilError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DxilError::Container(e) => write!(f, "{e}"),
            DxilError::Bitstream(e) => write!(f, "{e}"),
            DxilError::Malformed(at, what) => write!(f, "malformed DXIL {at}: {what}"),
            DxilError::Unsupported(what, code) => write!(f, "unsupported DXIL {what} {code}"),
        }
    }
}

impl From<ShaderError> for DxilError {
    fn from(e: ShaderError) -> Self {
        DxilError::Container(e)
    }
}

impl From<bitstream::BitError> for DxilError {
    fn from(e: bitstream::BitError) -> Self {
        DxilError::Bitstream(e)
    }
}

/// The LLVM bitcode of a container's `DXIL` part (from its "BC" 0xC0DE magic to the size
/// the bitcode header gives).
///
/// Guarantees: the slice lies inside the part and starts with the bitcode magic; a container
/// without a `DXIL` part or with a malformed program header is an error.
pub fn bitcode(container: &[u8]) -> Result<&[u8], ShaderError> {
    let c = Container::parse_unverified(container)?;
    let part = c.part(*b"DXIL").ok_or(ShaderError::NoProgram)?;
    rd3d12_core::shader::dxil_bitcode(part)
}

/// A DXIL shader: its module and the DXIL facts of its metadata.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// The module.
    pub module: Module,
    /// Shader model, entry points with their signatures, resources.
    pub dx: DxMetadata,
}

/// Reads the DXIL program of a shader container.
///
/// Guarantees: the container is one [`rd3d12_core::shader::parse`] accepts; the module is read
/// as [`Module::parse`] guarantees; `dx.shaderModel` names the stage and shader model of the
/// program header, and there is exactly one entry point unless the program is a library.
/// Any malformation is an error, never a panic.
pub fn parse(container: &[u8]) -> Result<Program, DxilError> {
    let shader = rd3d12_core::shader::parse(container)?;
    let module = Module::parse(&bitstream::parse(bitcode(container)?)?)?;
    let dx = module.dx_metadata()?;
    let model = (shader.model.major as u32, shader.model.minor as u32);
    if dx.stage != shader.stage || dx.model != model {
        return Err(DxilError::Malformed("metadata", "dx.shaderModel differs from the program header"));
    }
    if shader.stage != rd3d12_core::shader::Stage::Library && dx.entry_points.len() != 1 {
        return Err(DxilError::Malformed("metadata", "a shader has one entry point"));
    }
    Ok(Program { module, dx })
}

#[cfg(test)]
mod fixture_gen;
#[cfg(test)]
mod tests;
