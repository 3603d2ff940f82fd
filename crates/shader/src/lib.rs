//! rd3d12-shader: the shader compiler.
//!
//! * [`dxil`] — the DXIL front end: the LLVM bitstream, the module, `dx.op` calls, metadata,
//!   the lowering to the IR ([`dxil::lower`]).
//! * [`ir`] — the shader IR: one typed SSA form ([`ir::Function`], [`ir::Op`]), the shader
//!   interface ([`ir::interface`]), a printer.
//! * [`passes`] — passes over the IR, one file each (dominators, control flow facts, copies,
//!   slots).
//! * [`interp`] — the reference executor over the IR: waves of lanes under execution masks, and
//!   the wave intrinsics' semantics ([`interp::wave`]).
//! * [`jit`] — the Cranelift back end: blocks compiled to SIMD code over the interpreter's
//!   register file, the interpreter's own code for what it does not compile.
//! * [`pipeline`] — which DXIL programs of a pipeline state execute, checked at creation.
//!
//! It knows D3D12's rules through `rd3d12-core` (containers, signatures, stages) and nothing
//! of COM, the runtime or a backend. Issue #20 grows it further: wave intrinsics
//! (`interp/wave.rs`), later `dxbc/`, `jit/` and `spirv/`.
// Unsafe code only in `jit::abi` (calling generated code), which allows it for itself.
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod dxbc;
pub mod dxil;
pub mod interp;
pub mod ir;
pub mod jit;
pub mod passes;
pub mod pipeline;
