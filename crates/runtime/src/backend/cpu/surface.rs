//! Render targets and depth-stencil planes addressed in place in heap memory: the software
//! GPU's [`Surface`] over a resource's bytes, so that a draw's workers write the pixels of their
//! own tiles straight into the heap, with no copy of each target in and out around the draw.
//!
//! A surface never makes a Rust reference to the heap bytes (which other queues and the
//! application may write at the same time, as D3D12 allows): every access is a bounds-checked
//! copy between the heap and a buffer of the caller's, through [`SharedBytes`].
//! Memory the backend cannot address as one range (reserved resources, whose tiles map
//! anywhere) goes through [`Lent`] instead: a copy in, the draw, a copy back.

use crate::backend::memory::SharedBytes;
use crate::work::memory::Memory;
use rd3d12_swgpu::draw::{Bytes, Surface};

/// `len` bytes of linear heap memory from a subresource's first byte, reached through
/// [`SharedBytes`] (the backend's one audited type for bytes that several threads touch).
pub struct HeapSurface<'m>(SharedBytes<'m>);

impl<'m> HeapSurface<'m> {
    /// The `len` bytes at `offset` of `memory`, if it is linear memory holding all of them.
    pub fn new(memory: &'m Memory, offset: u64, len: usize) -> Option<HeapSurface<'m>> {
        let base = memory.ptr(offset, len as u64)?;
        // SAFETY: `Memory::ptr` checked that the `len` bytes at `base` lie in the allocation,
        // which `memory` keeps mapped for `'m`.
        unsafe { SharedBytes::new(base, len) }.map(HeapSurface)
    }
}

impl Surface for HeapSurface<'_> {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn read(&self, offset: usize, dst: &mut [u8]) -> bool {
        self.0.get(offset as u64, dst)
    }

    fn write(&self, offset: usize, src: &[u8]) -> bool {
        self.0.put(offset as u64, src)
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

    #[test]
    fn heap_surface_reads_and_writes_in_place_inside_its_range_only() {
        let mut heap = vec![0u8; 4096];
        heap[100..104].copy_from_slice(&[1, 2, 3, 4]);
        // SAFETY: `heap` outlives the bytes' uses below.
        let bytes = unsafe { SharedBytes::new(heap.as_mut_ptr().wrapping_add(96), 16) }.unwrap();
        let s = HeapSurface(bytes);
        let mut b = [0u8; 8];
        assert!(s.read(0, &mut b));
        assert_eq!(b, [0, 0, 0, 0, 1, 2, 3, 4]);
        assert!(s.write(12, &[9, 9, 9, 9]));
        assert!(!s.write(13, &[7, 7, 7, 7]), "past the end");
        assert!(!s.read(usize::MAX, &mut b), "offset overflow");
        assert_eq!(&heap[96..116], &[0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 9, 9, 9, 9, 0, 0, 0, 0]);
    }
}
