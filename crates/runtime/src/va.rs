//! GPU virtual addresses of buffers. On the CPU adapter (cache-coherent UMA) a buffer's GPU
//! virtual address is its host address, so an address lies inside the memory of a heap or a
//! committed resource. The registry maps an address back to that memory so commands that take
//! addresses (WriteBufferImmediate, root views, vertex/index buffer views) can check them and
//! reach the bytes safely, whatever the application passes.
//!
//! Allocations register once when they are made (a cheap append); the sorted index is built
//! lazily by the first lookup after new registrations, and entries of freed allocations are
//! pruned then. Creating and releasing resources thus costs almost nothing here, while lookups,
//! which are rare (recording time), pay for the index.

use crate::heap::Allocation;
use crate::resource::Memory;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock, Weak};

type Entry = (u64, Weak<Allocation>);

#[derive(Default)]
pub struct VaRegistry {
    /// Registrations not yet in the index: (start, length, allocation).
    pending: Mutex<Vec<(u64, Entry)>>,
    /// Start address → (length, allocation).
    index: RwLock<BTreeMap<u64, Entry>>,
}

impl VaRegistry {
    /// Registers an allocation's address range.
    pub fn insert(&self, alloc: &Arc<Allocation>) {
        let start = alloc.base() as u64;
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.push((start, (alloc.desc.SizeInBytes, Arc::downgrade(alloc))));
        // Keep the backlog bounded when nothing looks addresses up.
        if p.len() >= 4096 {
            let drained = std::mem::take(&mut *p);
            drop(p);
            self.merge(drained);
        }
    }

    fn merge(&self, drained: Vec<(u64, Entry)>) {
        let mut idx = self.index.write().unwrap_or_else(|e| e.into_inner());
        for (start, e) in drained {
            if e.1.strong_count() > 0 {
                idx.insert(start, e);
            }
        }
        idx.retain(|_, e| e.1.strong_count() > 0);
    }

    /// The memory holding `[va, va + len)` and the offset of `va` in it, if one live heap or
    /// committed resource holds all of it.
    pub fn resolve(&self, va: u64, len: u64) -> Option<(Memory, u64)> {
        let drained = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if !drained.is_empty() {
            self.merge(drained);
        }
        let idx = self.index.read().unwrap_or_else(|e| e.into_inner());
        let (start, (size, weak)) = idx.range(..=va).next_back()?;
        let off = va - start;
        if off.checked_add(len)? > *size {
            return None;
        }
        let alloc = weak.upgrade()?;
        Some((Memory::Linear { alloc, offset: 0, size: *size }, off))
    }
}
