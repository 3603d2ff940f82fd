//! Where executing work finds descriptors and the resources they name: the address ranges of
//! a device's live descriptor heaps ([`HeapRegistry`]) and the resources views were made for
//! ([`ResourceRegistry`]). `crate::descriptor_heap` says how heaps and descriptors are laid out
//! and written; these registries are what recording and execution both read.

use crate::work::memory::Memory;
use rd3d12_core::descriptor::DESCRIPTOR_SIZE;
use rd3d12_sys::*;
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::RwLock;

/// Bytes per descriptor.
pub const INC: usize = DESCRIPTOR_SIZE as usize;

// ---- heap address ranges --------------------------------------------------------------------

/// Where a live heap's descriptors lie.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    /// D3D12_DESCRIPTOR_HEAP_TYPE value.
    pub ty: u32,
    pub visible: bool,
}

impl Span {
    const EMPTY: Span = Span { start: 0, end: 0, ty: u32::MAX, visible: false };

    /// Whether `n` descriptors from `addr` lie in the span at a descriptor boundary.
    #[inline]
    pub fn holds(&self, addr: usize, n: usize) -> bool {
        let off = addr.wrapping_sub(self.start);
        off < self.end - self.start && off.is_multiple_of(INC) && n <= (self.end - addr) / INC
    }
}

/// Bumped whenever a heap goes away, so a per-thread cached span never outlives its heap.
static GENERATION: AtomicU64 = AtomicU64::new(1);

thread_local! {
    /// The span of the last lookup: (generation, registry address, span).
    static LAST: Cell<(u64, usize, Span)> = const { Cell::new((0, 0, Span::EMPTY)) };
}

/// The address ranges of a device's live descriptor heaps.
#[derive(Default)]
pub struct HeapRegistry {
    spans: RwLock<BTreeMap<usize, Span>>,
}

impl HeapRegistry {
    pub(crate) fn insert(&self, s: Span) {
        self.spans.write().unwrap_or_else(|e| e.into_inner()).insert(s.start, s);
    }

    pub(crate) fn remove(&self, start: usize) {
        self.spans.write().unwrap_or_else(|e| e.into_inner()).remove(&start);
        GENERATION.fetch_add(1, Ordering::AcqRel);
    }

    /// The live heap holding address `addr`.
    #[inline]
    pub fn span(&self, addr: usize) -> Option<Span> {
        let generation = GENERATION.load(Ordering::Acquire);
        let me = self as *const HeapRegistry as usize;
        let (g, owner, s) = LAST.get();
        if g == generation && owner == me && addr.wrapping_sub(s.start) < s.end - s.start {
            return Some(s);
        }
        self.span_slow(addr, generation, me)
    }

    #[cold]
    fn span_slow(&self, addr: usize, generation: u64, me: usize) -> Option<Span> {
        let spans = self.spans.read().unwrap_or_else(|e| e.into_inner());
        let (_, s) = spans.range(..=addr).next_back()?;
        if addr >= s.end {
            return None;
        }
        LAST.set((generation, me, *s));
        Some(*s)
    }

    /// The heap holding `n` descriptors of heap type `ty` from `addr` (on a descriptor
    /// boundary), if there is one.
    #[inline]
    pub fn run(&self, addr: usize, n: usize, ty: u32) -> Option<Span> {
        let s = self.span(addr)?;
        (s.ty == ty && s.holds(addr, n)).then_some(s)
    }
}

// ---- viewed resources -----------------------------------------------------------------------

/// What a descriptor's resource id resolves to.
#[derive(Clone)]
pub struct ResourceEntry {
    /// The resource's bytes (shared ownership: safe to use after the resource is released).
    pub memory: Memory,
    /// GetDesc1's desc.
    pub desc: D3D12_RESOURCE_DESC1,
    pub subresource_count: u32,
}

/// The resources of a device that views were created for, by resource id.
#[derive(Default)]
pub struct ResourceRegistry {
    map: RwLock<HashMap<u64, ResourceEntry>>,
}

impl ResourceRegistry {
    /// Adds resource `id` the first time a view of it is made (later calls cost one load):
    /// `registered` is the resource's own flag, `entry` makes what the registry holds.
    #[inline]
    pub fn register(&self, id: u64, registered: &AtomicBool, entry: impl FnOnce() -> ResourceEntry) {
        if !registered.load(Ordering::Acquire) {
            self.register_slow(id, registered, entry());
        }
    }

    #[cold]
    fn register_slow(&self, id: u64, registered: &AtomicBool, e: ResourceEntry) {
        self.map.write().unwrap_or_else(|e| e.into_inner()).insert(id, e);
        registered.store(true, Ordering::Release);
    }

    /// Called when a registered resource is destroyed.
    pub fn remove(&self, id: u64) {
        self.map.write().unwrap_or_else(|e| e.into_inner()).remove(&id);
    }

    pub fn get(&self, id: u64) -> Option<ResourceEntry> {
        if id == 0 {
            return None;
        }
        self.map.read().unwrap_or_else(|e| e.into_inner()).get(&id).cloned()
    }

    pub fn len(&self) -> usize {
        self.map.read().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
