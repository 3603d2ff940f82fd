//! Memory the pipeline only reads — textures ([`crate::sample::MemoryTexels`]) and vertex
//! buffers ([`crate::input_assembler::VertexBuffer`]) — reached through [`ReadBytes`]: bytes are
//! copied out by offset, so no stage holds a `&[u8]` over memory that another thread (a UAV
//! write of another worker, another queue) may write meanwhile. The backend implements it over
//! its device memory with word-atomic loads; plain byte containers implement it for tests,
//! benchmarks and copies. This module touches nothing but the bytes it is given.

/// Bytes read by offset, possibly while other threads write them (`Sync`: a draw's or a
/// dispatch's workers share one). A reader sees, for each byte, a value some writer stored;
/// D3D12 leaves the result of such a race undefined, and it is no undefined behaviour here.
pub trait ReadBytes: Sync {
    /// The bytes held.
    fn len(&self) -> usize;
    /// Whether none are held.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Copies `dst.len()` bytes from byte `at` into `dst`; `false` (and `dst` untouched) when
    /// they are not all inside.
    fn read(&self, at: usize, dst: &mut [u8]) -> bool;
}

impl ReadBytes for [u8] {
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
    #[inline]
    fn read(&self, at: usize, dst: &mut [u8]) -> bool {
        match at.checked_add(dst.len()).and_then(|end| self.get(at..end)) {
            Some(src) => {
                dst.copy_from_slice(src);
                true
            }
            None => false,
        }
    }
}

impl<const N: usize> ReadBytes for [u8; N] {
    fn len(&self) -> usize {
        N
    }
    #[inline]
    fn read(&self, at: usize, dst: &mut [u8]) -> bool {
        self[..].read(at, dst)
    }
}

impl ReadBytes for Vec<u8> {
    fn len(&self) -> usize {
        <[u8]>::len(self)
    }
    #[inline]
    fn read(&self, at: usize, dst: &mut [u8]) -> bool {
        self[..].read(at, dst)
    }
}

/// The atomic bytes of a target surface can be read as a source too.
impl ReadBytes for crate::draw::Bytes {
    fn len(&self) -> usize {
        crate::draw::Surface::len(self)
    }
    fn read(&self, at: usize, dst: &mut [u8]) -> bool {
        crate::draw::Surface::read(self, at, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_copy_inside_ranges_and_refuse_the_rest() {
        let v: Vec<u8> = (0..10).collect();
        let mut d = [0xEEu8; 4];
        assert!(v.read(6, &mut d));
        assert_eq!(d, [6, 7, 8, 9]);
        assert!(!v.read(7, &mut d) && !v.read(usize::MAX, &mut d), "past the end or overflowing");
        assert_eq!(d, [6, 7, 8, 9], "a refused read leaves dst untouched");
        let a = [1u8, 2, 3];
        assert!(a.read(1, &mut d[..2]) && d[..2] == [2, 3]);
        let atomics = crate::draw::Bytes::new(&[0, 1, 2, 3, 4]);
        assert!(ReadBytes::read(&atomics, 2, &mut d[..3]) && d[..3] == [2, 3, 4]);
        assert!(!ReadBytes::read(&atomics, 3, &mut d[..3]));
        assert_eq!(ReadBytes::len(&atomics), 5);
    }
}
