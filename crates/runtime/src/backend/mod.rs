//! Backends behind one trait. The CPU backend is the default and runs everywhere; a Vulkan
//! backend comes later. The trait grows as the runtime objects need the backend (memory,
//! queues, copies).

pub mod cpu;

/// What the runtime reports about the adapter a backend drives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Architecture {
    pub tile_based_renderer: bool,
    pub uma: bool,
    pub cache_coherent_uma: bool,
    pub isolated_mmu: bool,
}

/// One backend: the adapter it drives and, later, its memory and execution services.
pub trait Backend: Send + Sync + 'static {
    /// A human-readable adapter description.
    fn description(&self) -> &str;
    fn architecture(&self) -> Architecture;
}
