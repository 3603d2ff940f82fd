//! The CPU backend: a WARP-like software adapter. Memory is host memory ([`super::memory`]), so
//! the adapter is UMA and cache-coherent, and a GPU virtual address can simply be a host
//! address. Shaders are DXIL read by `rd3d12_shader` and run by `rd3d12_swgpu`.

use super::memory::{AddressRange, Memory, MemoryError};
use super::{Architecture, Backend, DeviceMemory, Hung};
use crate::work::commands::Recorded;
use crate::work::pipeline::Executable;
use rd3d12_core::pipeline::{Pipeline, PsoError};
use std::os::fd::RawFd;

#[derive(Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn description(&self) -> &str {
        "rd3d12 CPU adapter"
    }

    fn architecture(&self) -> Architecture {
        Architecture { tile_based_renderer: false, uma: true, cache_coherent_uma: true, isolated_mmu: true }
    }

    fn allocate(&self, bytes: u64) -> Result<Box<dyn DeviceMemory>, MemoryError> {
        Ok(Box::new(Memory::new(bytes)?))
    }

    fn import(&self, fd: RawFd) -> Result<Box<dyn DeviceMemory>, MemoryError> {
        Ok(Box::new(Memory::import(fd)?))
    }

    fn reserve(&self, bytes: u64) -> Result<AddressRange, MemoryError> {
        AddressRange::reserve(bytes)
    }

    /// Reads the pipeline's DXIL and DXBC programs (refusing one that calls an operation the
    /// interpreter does not implement, and DXBC that does not lower) and notes why its draws
    /// or dispatches would not run.
    fn compile(&self, pipeline: Pipeline) -> Result<Executable, PsoError> {
        let programs = rd3d12_shader::pipeline::programs(&pipeline)?
            .into_iter()
            .map(|(slot, p)| (slot, p.map_err(|e| e.to_string())))
            .collect();
        let e = Executable::new(pipeline, programs);
        let skip = [draw::not_runnable(&e), compute::not_runnable(&e)];
        Ok(e.with_skips(skip))
    }

    fn execute(&self, list: &Recorded, timeout: Option<std::time::Duration>) -> Result<(), Hung> {
        exec::run(list, timeout)
    }
}

pub mod bindings;
pub mod compute;
pub mod draw;
pub mod exec;
pub mod indirect;
pub mod surface;
