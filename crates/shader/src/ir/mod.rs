//! The shader IR: one typed SSA form that every front end (DXIL, later DXBC) produces and
//! every back end (the interpreter, later the JIT and SPIR-V) consumes.
//!
//! * [`types`] — scalar and vector types of IR values.

pub mod types;
