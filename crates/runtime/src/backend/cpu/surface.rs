//! Render targets and depth-stencil planes addressed in place in heap memory: the software
//! GPU's [`Surface`] over a resource's bytes, so that a draw's workers write the pixels of their
//! own tiles straight into the heap, with no copy of each target in and out around the draw.
//!
//! This is the one place the draw path touches heap memory through raw pointers. A surface
//! never makes a Rust reference to the heap bytes (which other queues and the application may
//! write at the same time, as D3D12 allows): every access is a bounds-checked copy between the
//! heap and a buffer of the caller's, as [`Memory::read`] and [`Memory::write`] do.
//! Memory the backend cannot address as one range (reserved resources, whose tiles map
//! anywhere) goes through [`Lent`] instead: a copy in, the draw, a copy back.

use crate::resource::Memory;
use rd3d12_swgpu::draw::{Bytes, Surface};
use std::marker::PhantomData;

/// `len` bytes of linear heap memory from a subresource's first byte.
pub struct HeapSurface<'m> {
    base: *mut u8,
    len: usize,
    /// The memory (and so its allocation, which it holds) outlives the surface.
    _memory: PhantomData<&'m Memory>,
}

// SAFETY: the surface only copies bytes through `base` (no references), and the allocation
// stays mapped while the borrowed `Memory` lives; D3D12 leaves the synchronisation of
// resource contents between queues and the CPU to the application, as for `Memory` itself.
unsafe impl Send for HeapSurface<'_> {}
// SAFETY: as above; the draw gives each worker disjoint pixels, so no two of its copies overlap.
unsafe impl Sync for HeapSurface<'_> {}

impl<'m> HeapSurface<'m> {
    /// The `len` bytes at `offset` of `memory`, if it is linear memory holding all of them.
    pub fn new(memory: &'m Memory, offset: u64, len: usize) -> Option<HeapSurface<'m>> {
        let base = memory.ptr(offset, len as u64)?;
        Some(HeapSurface { base, len, _memory: PhantomData })
    }

    /// Whether `n` bytes at `offset` lie inside.
    fn holds(&self, offset: usize, n: usize) -> bool {
        offset.checked_add(n).is_some_and(|end| end <= self.len)
    }
}

impl Surface for HeapSurface<'_> {
    fn len(&self) -> usize {
        self.len
    }

    fn read(&self, offset: usize, dst: &mut [u8]) -> bool {
        if !self.holds(offset, dst.len()) {
            return false;
        }
        // SAFETY: `offset + dst.len() <= len`, and `base .. base + len` lies inside the mapped
        // allocation (`Memory::ptr` checked it) for as long as the memory is borrowed; `dst` is
        // the caller's own buffer, so the ranges do not overlap.
        unsafe { std::ptr::copy_nonoverlapping(self.base.add(offset), dst.as_mut_ptr(), dst.len()) };
        true
    }

    fn write(&self, offset: usize, src: &[u8]) -> bool {
        if !self.holds(offset, src.len()) {
            return false;
        }
        // SAFETY: as in `read`, with the copy going the other way.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.base.add(offset), src.len()) };
        true
    }
}

/// A subresource the draw reaches through a copy: its bytes read from `memory` at `offset`,
/// written back by [`Lent::give_back`].
pub struct Lent<'m> {
    memory: &'m Memory,
    offset: u64,
    bytes: Bytes,
}

impl<'m> Lent<'m> {
    /// A copy of the `len` bytes at `offset` (what cannot be read reads 0).
    pub fn new(memory: &'m Memory, offset: u64, len: usize) -> Lent<'m> {
        let mut v = vec![0u8; len];
        memory.read(offset, &mut v);
        Lent { memory, offset, bytes: Bytes::new(&v) }
    }

    /// Writes the bytes back where they came from.
    pub fn give_back(&self) {
        self.memory.write(self.offset, &self.bytes.to_vec());
    }
}

/// A subresource's bytes for a draw: in place when the memory is linear, else a copy.
pub enum TargetMemory<'m> {
    /// Written in place.
    InPlace(HeapSurface<'m>),
    /// Written to a copy, given back after the draw.
    Copy(Lent<'m>),
}

impl<'m> TargetMemory<'m> {
    /// The `len` bytes at `offset` of `memory`.
    pub fn new(memory: &'m Memory, offset: u64, len: usize) -> TargetMemory<'m> {
        match HeapSurface::new(memory, offset, len) {
            Some(s) => TargetMemory::InPlace(s),
            None => TargetMemory::Copy(Lent::new(memory, offset, len)),
        }
    }

    /// The surface the draw writes.
    pub fn surface(&self) -> &dyn Surface {
        match self {
            TargetMemory::InPlace(s) => s,
            TargetMemory::Copy(l) => &l.bytes,
        }
    }

    /// Puts a copy's bytes back (in-place memory has nothing to do).
    pub fn finish(&self) {
        if let TargetMemory::Copy(l) = self {
            l.give_back();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::Memory;

    #[test]
    fn heap_surface_reads_and_writes_in_place_inside_its_range_only() {
        let dev = crate::create_device(rd3d12_sys::D3D_FEATURE_LEVEL_11_0).unwrap();
        let desc = rd3d12_sys::D3D12_HEAP_DESC { SizeInBytes: 4096, ..Default::default() };
        let alloc = crate::heap::Allocation::new(&dev.inner, desc, None).unwrap();
        let m = Memory::Linear { alloc, offset: 0, size: 4096 };
        m.write(100, &[1, 2, 3, 4]);
        let s = HeapSurface::new(&m, 96, 16).expect("linear");
        let mut b = [0u8; 8];
        assert!(s.read(0, &mut b));
        assert_eq!(b, [0, 0, 0, 0, 1, 2, 3, 4]);
        assert!(s.write(12, &[9, 9, 9, 9]));
        assert!(!s.write(13, &[7, 7, 7, 7]), "past the end");
        assert!(!s.read(usize::MAX, &mut b), "offset overflow");
        let mut all = [0u8; 20];
        m.read(96, &mut all);
        assert_eq!(all, [0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 0]);
        assert!(HeapSurface::new(&m, 4090, 16).is_none(), "a range past the memory");
    }
}
