//! rd3d12-swgpu: the software GPU that runs draws and dispatches on the CPU.
//!
//! * [`input_assembler`] — vertex and index fetch, primitive assembly.
//! * [`draw`] — a draw from vertices to pixels: shader stages, clipping, setup, the output merger;
//!   [`draw::stream_output`] and tessellation live beside it.
//! * [`tessellator`] — the fixed-function tessellator: domain points and primitives of a patch.
//! * [`raster`] — rasterization rules: fixed-point snapping, the top-left rule, coverage.
//! * [`output_merger`] — blending, logic ops, depth and stencil tests, format packing.
//! * [`sample`] — texture sampling (filters, address modes, mip selection, cubes) and texel loads.
//! * [`bytes`] — [`bytes::ReadBytes`], how stages read memory that other threads may write.
//! * [`bc`] — block-compressed texels (BC1–BC7) decoded for sampling.
//! * [`compute`] — dispatches: thread groups, group-shared memory, barriers.
//! * [`pool`] — the worker pool (`RD3D12_THREADS`) the parallel stages run on.
//!
//! It runs shaders through `rd3d12-shader` and reads D3D12's rules from `rd3d12-core`; it
//! never sees COM objects or the runtime: the backend hands it memory and descriptors.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bc;
pub mod bytes;
pub mod compute;
pub mod draw;
pub mod input_assembler;
pub mod output_merger;
pub mod pool;
pub mod raster;
pub mod sample;
pub mod tessellator;
