//! GPU virtual addresses of buffers. On the CPU adapter (cache-coherent UMA) a buffer's GPU
//! virtual address is its host address, so an address lies inside the memory of a heap or a
//! committed resource, or inside the address range reserved for a reserved buffer (whose bytes
//! are its tiles, wherever UpdateTileMappings put them). The registry maps an address back to
//! that memory so commands that take addresses (WriteBufferImmediate, root views, vertex/index
//! buffer views, stream output) can check them and reach the bytes safely, whatever the
//! application passes.
//!
//! Heaps (and reserved buffers) register when they are made, committed resources when their GPU
//! virtual address is first asked for (GetGPUVirtualAddress, the only way a program learns it),
//! each with a cheap append; the sorted index is built lazily by the first lookup after new
//! registrations, and entries of freed allocations are pruned then. Creating and releasing
//! resources thus costs nothing here, while lookups, which are rare (recording time), pay for
//! the index.

use crate::work::memory::Allocation;
use crate::work::memory::Memory;
use crate::work::tiles::TileMap;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, RwLock, Weak};

/// What an address range belongs to; held weakly, so a registration never keeps memory alive.
enum Owner {
    /// A heap's or committed resource's allocation.
    Allocation(Weak<Allocation>),
    /// A reserved buffer's tiles.
    Tiles(Weak<Mutex<TileMap>>),
}

impl Owner {
    fn alive(&self) -> bool {
        match self {
            Owner::Allocation(w) => w.strong_count() > 0,
            Owner::Tiles(w) => w.strong_count() > 0,
        }
    }
}

/// (length, owner) of a registered range.
type Entry = (u64, Owner);

#[derive(Default)]
pub struct VaRegistry {
    /// Registrations not yet in the index: (start, (length, owner)).
    pending: Mutex<Vec<(u64, Entry)>>,
    /// Start address → (length, owner).
    index: RwLock<BTreeMap<u64, Entry>>,
}

impl VaRegistry {
    /// Registers an allocation's address range.
    pub fn insert(&self, alloc: &Arc<Allocation>) {
        let start = alloc.base() as u64;
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.push((start, (alloc.desc.SizeInBytes, Owner::Allocation(Arc::downgrade(alloc)))));
        self.bound(p);
    }

    /// Registers the address range `[start, start + len)` reserved for a reserved buffer whose
    /// bytes are `tiles`.
    pub fn insert_tiled(&self, start: u64, len: u64, tiles: &Arc<Mutex<TileMap>>) {
        let mut p = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        p.push((start, (len, Owner::Tiles(Arc::downgrade(tiles)))));
        self.bound(p);
    }

    /// Keeps the backlog bounded when nothing looks addresses up.
    fn bound(&self, mut p: std::sync::MutexGuard<'_, Vec<(u64, Entry)>>) {
        if p.len() >= 4096 {
            let drained = std::mem::take(&mut *p);
            drop(p);
            self.merge(drained);
        }
    }

    fn merge(&self, drained: Vec<(u64, Entry)>) {
        let mut idx = self.index.write().unwrap_or_else(|e| e.into_inner());
        for (start, e) in drained {
            if e.1.alive() {
                idx.insert(start, e);
            }
        }
        idx.retain(|_, e| e.1.alive());
    }

    /// The memory holding `[va, va + len)` and the offset of `va` in it, if one live heap,
    /// committed resource or reserved buffer holds all of it.
    pub fn resolve(&self, va: u64, len: u64) -> Option<(Memory, u64)> {
        let drained = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if !drained.is_empty() {
            self.merge(drained);
        }
        let idx = self.index.read().unwrap_or_else(|e| e.into_inner());
        let (start, (size, owner)) = idx.range(..=va).next_back()?;
        let off = va - start;
        if off.checked_add(len)? > *size {
            return None;
        }
        let memory = match owner {
            Owner::Allocation(w) => Memory::Linear { alloc: w.upgrade()?, offset: 0, size: *size },
            Owner::Tiles(w) => Memory::Tiled(w.upgrade()?),
        };
        Some((memory, off))
    }
}
