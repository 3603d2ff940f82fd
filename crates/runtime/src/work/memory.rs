//! Memory as recorded work reaches it: the [`Allocation`] a heap or committed resource owns
//! (with the pool of clean memory that committed resources reuse), and [`Memory`], the bytes
//! of one resource as executing commands read and write them (a range of an allocation, or a
//! reserved resource's tiles). Creating allocations (residency, VA registration) is the heap's
//! business (`crate::heap`); here is only what work in flight needs.

use crate::backend::DeviceMemory;
use crate::residency::Residency;
use crate::work::tiles::{TileMap, TILE};
use rd3d12_sys::*;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Memory with the heap description it was made for: an explicit heap's, or the implicit heap
/// of a committed resource. Placed resources keep it alive through an `Arc` without touching
/// the heap's COM reference count (native: placing a resource leaves the heap's count alone).
pub struct Allocation {
    pub desc: D3D12_HEAP_DESC,
    pub memory: ManuallyDrop<Box<dyn DeviceMemory>>,
    pub residency: Residency,
    /// Whether clean memory goes back to the [`POOL`] when the allocation dies (committed
    /// resources).
    pub(crate) pooled: bool,
    /// Whether the device's VA registry knows the allocation. Heaps register when they are
    /// made; committed resources when their GPU virtual address is first asked for, the only
    /// way a program learns it (so creating and releasing them stays cheap).
    pub(crate) va_registered: AtomicBool,
}

/// Memory of released committed resources that was never mapped, written or shared, so it is
/// still all zero and a new committed resource can take it as is. Bounded in bytes. Zeroed
/// memory belongs to no device, so the pool is the process's, with a small stash per thread in
/// front of it: a thread that creates and releases resources reuses memory without taking a
/// lock or touching a shared counter.
pub(crate) struct Pool {
    free: Mutex<BTreeMap<usize, Vec<Box<dyn DeviceMemory>>>>,
    bytes: AtomicUsize,
}

/// The process's pool of clean memory.
pub(crate) static POOL: Pool = Pool { free: Mutex::new(BTreeMap::new()), bytes: AtomicUsize::new(0) };

thread_local! {
    /// Up to [`Pool::STASH_ITEMS`] blocks of at most [`Pool::STASH_ITEM`] bytes each.
    static STASH: RefCell<Vec<Box<dyn DeviceMemory>>> = const { RefCell::new(Vec::new()) };
}

impl Pool {
    const MAX_BYTES: usize = 256 << 20;
    const MAX_ITEM: usize = 4 << 20;
    const STASH_ITEMS: usize = 8;
    const STASH_ITEM: usize = 256 << 10;

    pub(crate) fn take(&self, len: usize) -> Option<Box<dyn DeviceMemory>> {
        let stashed = STASH
            .try_with(|s| {
                let mut s = s.borrow_mut();
                let i = s.iter().position(|m| m.len() == len)?;
                Some(s.swap_remove(i))
            })
            .ok()
            .flatten();
        if stashed.is_some() {
            return stashed;
        }
        let m = self.free.lock().unwrap_or_else(|e| e.into_inner()).get_mut(&len)?.pop()?;
        self.bytes.fetch_sub(len, Ordering::Relaxed);
        Some(m)
    }

    fn give(&self, m: Box<dyn DeviceMemory>) {
        let len = m.len();
        if m.is_dirty() || len > Self::MAX_ITEM {
            return;
        }
        // The thread's stash first (its destructor frees what is left when the thread ends);
        // a full stash, or a thread that is ending, hands the memory to the shared pool.
        let m = if len <= Self::STASH_ITEM {
            let back = STASH.try_with(|s| {
                let mut s = s.borrow_mut();
                if s.len() < Self::STASH_ITEMS {
                    s.push(m);
                    None
                } else {
                    Some(m)
                }
            });
            match back {
                Ok(None) => return,
                Ok(Some(m)) => m,
                // The stash is gone (thread exit): `m` was moved into the closure and dropped.
                Err(_) => return,
            }
        } else {
            m
        };
        if self.bytes.load(Ordering::Relaxed) + len > Self::MAX_BYTES {
            return;
        }
        self.bytes.fetch_add(len, Ordering::Relaxed);
        self.free.lock().unwrap_or_else(|e| e.into_inner()).entry(len).or_default().push(m);
    }
}

impl Drop for Allocation {
    fn drop(&mut self) {
        // SAFETY: the memory is taken once, here, and never used again through `self`.
        let m = unsafe { ManuallyDrop::take(&mut self.memory) };
        if self.pooled {
            POOL.give(m);
        }
    }
}

impl Allocation {
    pub fn base(&self) -> *mut u8 {
        self.memory.as_ptr()
    }
}

/// A resource's bytes as executing commands reach them: shared ownership of the memory, so work
/// in flight stays memory-safe even if the application releases the resource too early, and no
/// COM reference (native command lists do not AddRef what they record).
#[derive(Clone)]
pub enum Memory {
    /// `size` bytes at `offset` in an allocation.
    Linear { alloc: Arc<Allocation>, offset: u64, size: u64 },
    /// A reserved resource's tiles.
    Tiled(Arc<Mutex<TileMap>>),
}

impl Memory {
    /// Notes that the bytes may be written (a copy destination, a mapping): memory that was
    /// written is cleared before a later committed resource reuses it.
    pub fn mark_dirty(&self) {
        if let Memory::Linear { alloc, .. } = self {
            alloc.memory.mark_dirty();
        }
    }

    /// The bytes the memory spans (a reserved resource: all its tiles).
    pub fn len(&self) -> u64 {
        match self {
            Memory::Linear { size, .. } => *size,
            Memory::Tiled(t) => t.lock().unwrap_or_else(|e| e.into_inner()).num_tiles() as u64 * TILE,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Host pointer to `len` bytes at `off`, if they lie inside linear memory.
    pub fn ptr(&self, off: u64, len: u64) -> Option<*mut u8> {
        match self {
            Memory::Linear { alloc, offset, size } => {
                let end = off.checked_add(len)?;
                // SAFETY: `offset + off` lies inside the allocation (offset + size is within it).
                (end <= *size).then(|| unsafe { alloc.base().add((offset + off) as usize) })
            }
            Memory::Tiled(_) => None,
        }
    }

    /// Reads bytes at a byte offset (buffers); unmapped tiles read zero. False if out of range.
    pub fn read(&self, off: u64, dst: &mut [u8]) -> bool {
        match self {
            Memory::Linear { .. } => match self.ptr(off, dst.len() as u64) {
                // SAFETY: the range was checked against the memory.
                Some(p) => unsafe {
                    std::ptr::copy(p, dst.as_mut_ptr(), dst.len());
                    true
                },
                None => false,
            },
            Memory::Tiled(t) => {
                let t = t.lock().unwrap_or_else(|e| e.into_inner());
                if off.checked_add(dst.len() as u64).is_none_or(|e| e > t.num_tiles() as u64 * TILE) {
                    return false;
                }
                let mut pos = 0;
                for (tile, o, n) in TileMap::buffer_pieces(off, dst.len() as u64) {
                    t.read(tile, o, &mut dst[pos..pos + n]);
                    pos += n;
                }
                true
            }
        }
    }

    /// Writes bytes at a byte offset (buffers); writes to unmapped tiles are dropped.
    pub fn write(&self, off: u64, src: &[u8]) -> bool {
        match self {
            Memory::Linear { .. } => match self.ptr(off, src.len() as u64) {
                // SAFETY: the range was checked against the memory.
                Some(p) => unsafe {
                    std::ptr::copy(src.as_ptr(), p, src.len());
                    true
                },
                None => false,
            },
            Memory::Tiled(t) => {
                let t = t.lock().unwrap_or_else(|e| e.into_inner());
                if off.checked_add(src.len() as u64).is_none_or(|e| e > t.num_tiles() as u64 * TILE) {
                    return false;
                }
                let mut pos = 0;
                for (tile, o, n) in TileMap::buffer_pieces(off, src.len() as u64) {
                    t.write(tile, o, &src[pos..pos + n]);
                    pos += n;
                }
                true
            }
        }
    }
}
