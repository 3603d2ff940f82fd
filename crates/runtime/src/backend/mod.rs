//! The seam between the runtime objects and what executes their work. The device holds one
//! `Arc<dyn Backend>` ([`default_backend`] makes it); heaps, resources, pipeline states and
//! queues reach the backend only through the [`Backend`] trait, never by a backend's path, and
//! a backend reaches only [`crate::work`] (recorded work and the memory it touches), this
//! module, `crate::error`, the message sink `crate::debug` and the timeline `crate::trace`
//! (RD3D12_TRACE) — never the objects.
//!
//! # What a backend implements
//! - **The adapter** it drives: [`Backend::description`] and [`Backend::architecture`] (UMA,
//!   cache coherence), which feature reports and pipeline-cache identities are built from.
//! - **Memory**: [`Backend::allocate`] gives the zeroed bytes of a heap or committed resource
//!   (placed resources are ranges of a heap's allocation, chosen above the seam),
//!   [`Backend::import`] maps memory shared by file descriptor (OpenSharedHandle), and
//!   [`Backend::reserve`] gives the address range of a reserved resource, whose 64 KB tiles
//!   are then mapped from heap allocations by `crate::work::tiles`. Every allocation is mapped
//!   into the process ([`DeviceMemory::as_ptr`]): Map, Write/ReadFromSubresource and the GPU
//!   virtual addresses of the CPU adapter (cache-coherent UMA) are host addresses in it.
//! - **Pipeline compilation**: [`Backend::compile`] turns a pipeline that `rd3d12_core`
//!   validated into the [`Executable`] that draws and dispatches record: it reads the shaders
//!   into programs, may refuse the pipeline (Create*PipelineState fails with the error, as
//!   when a shader uses an operation nothing executes), and notes why the backend would not
//!   run its draws or dispatches (those are recorded as skipped work, reported when executed).
//! - **Execution**: [`Backend::execute`] runs one closed list's [`Recorded`] commands in
//!   order on the queue's thread, within the queue's GPU timeout per draw, dispatch and
//!   indirect command ([`Hung`] otherwise: the queue removes the device).
//!
//! # What stays above the seam
//! Everything D3D12 defines independently of the hardware, so that every backend accepts and
//! rejects exactly the same calls: argument and state validation, HRESULTs and the debug
//! layer's messages at recording time, resource-state tracking (promotion and decay after each
//! submission, `crate::work::states`), residency and budgets, VA and
//! descriptor registries, fences, queue ordering and threads, tile-mapping semantics, and
//! choosing the layout of placed resources (`rd3d12_core::allocation`).

pub mod cpu;
pub mod heap_usage;
pub mod memory;

use crate::work::commands::Recorded;
use crate::work::pipeline::Executable;
use memory::{AddressRange, MemoryError};
use rd3d12_core::pipeline::{Pipeline, PsoError};
use std::os::fd::{OwnedFd, RawFd};
use std::sync::Arc;

/// What the runtime reports about the adapter a backend drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Architecture {
    pub tile_based_renderer: bool,
    pub uma: bool,
    pub cache_coherent_uma: bool,
    pub isolated_mmu: bool,
}

/// Shader work ran past the queue's GPU timeout: the device is to be removed
/// (DXGI_ERROR_DEVICE_HUNG) and nothing after it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hung {
    /// "draw", "dispatch" or "indirect command".
    pub what: &'static str,
}

/// The memory of one heap or committed resource as a backend allocated it, mapped into the
/// process for its whole life.
pub trait DeviceMemory: Send + Sync {
    /// The first byte of the mapping; [`DeviceMemory::len`] bytes are readable and writable.
    fn as_ptr(&self) -> *mut u8;
    /// Bytes of the mapping (the request rounded up to whole pages).
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// A new file descriptor for the memory (a shared HANDLE), owned by the caller; the memory
    /// is dirty from then on (another process may write it).
    fn share(&self) -> Option<OwnedFd>;
    /// Notes that the bytes may no longer be all zero (mapped, written, shared).
    fn mark_dirty(&self);
    fn is_dirty(&self) -> bool;
    /// Makes the memory zero again (for reuse of dirty memory).
    fn clear(&self);
}

/// One backend: the adapter it drives, its memory, its pipeline compiler and its execution of
/// recorded work (the module docs say what stays above).
pub trait Backend: Send + Sync + 'static {
    /// A human-readable adapter description.
    fn description(&self) -> &str;
    fn architecture(&self) -> Architecture;

    /// `bytes` zeroed bytes of device memory, rounded up to whole pages; out of memory when the
    /// system cannot honour them now (not a fault at first touch).
    fn allocate(&self, bytes: u64) -> Result<Box<dyn DeviceMemory>, MemoryError>;
    /// Memory another device or process shared (OpenSharedHandle); `fd` stays the caller's.
    fn import(&self, fd: RawFd) -> Result<Box<dyn DeviceMemory>, MemoryError>;
    /// `bytes` (at least one page) of unique addresses with no memory behind them: the GPU
    /// virtual address range of a reserved resource.
    fn reserve(&self, bytes: u64) -> Result<AddressRange, MemoryError>;

    /// Compiles a validated pipeline into what draws and dispatches execute; an error refuses
    /// the pipeline.
    fn compile(&self, pipeline: Pipeline) -> Result<Executable, PsoError>;

    /// Executes one closed list's commands in order. Each draw, dispatch and indirect command
    /// must finish within `timeout` (`None`: no limit); one that does not stops the list there.
    fn execute(&self, list: &Recorded, timeout: Option<std::time::Duration>) -> Result<(), Hung>;
}

/// The backend a new device drives: the CPU backend, the only one today.
pub fn default_backend() -> Arc<dyn Backend> {
    Arc::new(cpu::CpuBackend)
}

#[cfg(test)]
mod tests;
