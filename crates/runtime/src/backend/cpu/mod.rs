//! The CPU backend: a WARP-like software adapter. Memory is host memory, so the adapter is UMA
//! and cache-coherent, and a GPU virtual address can simply be a host address.

use super::{Architecture, Backend};

#[derive(Debug, Default)]
pub struct CpuBackend;

impl Backend for CpuBackend {
    fn description(&self) -> &str {
        "rd3d12 CPU adapter"
    }

    fn architecture(&self) -> Architecture {
        Architecture { tile_based_renderer: false, uma: true, cache_coherent_uma: true, isolated_mmu: true }
    }
}
pub mod bindings;
pub mod compute;
pub mod draw;
pub mod exec;
pub mod indirect;
pub mod memory;
pub mod surface;
