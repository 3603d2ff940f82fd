//! ID3DBlob (= ID3D10Blob): an immutable byte buffer handed to the caller, as returned by the
//! root signature serializers (the blob and its error blob) and by GetCachedBlob-style calls.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3dcommon/nn-d3dcommon-id3d10blob>

use crate::com::{Class, Object, Ptr};
use crate::error::guard;
use rd3d12_sys::*;
use std::ffi::c_void;

/// The bytes of a blob. Stored in 8-byte words so the buffer is aligned for callers that read
/// it as DWORDs (serialized root signatures, shader bytecode).
pub struct Blob {
    words: Box<[u64]>,
    len: usize,
}

impl Blob {
    /// A blob holding a copy of `bytes`.
    pub fn new(bytes: &[u8]) -> Ptr<Blob> {
        let mut words = vec![0u64; bytes.len().div_ceil(8).max(1)].into_boxed_slice();
        for (w, chunk) in words.iter_mut().zip(bytes.chunks(8)) {
            let mut b = [0u8; 8];
            b[..chunk.len()].copy_from_slice(chunk);
            *w = u64::from_ne_bytes(b);
        }
        Ptr::new(Blob { words, len: bytes.len() })
    }

    /// An error blob: the message as a NUL-terminated string (GetBufferSize counts the NUL),
    /// the form D3D compilers and serializers use for their error text.
    pub fn text(message: &str) -> Ptr<Blob> {
        let mut bytes = message.replace('\0', " ").into_bytes();
        bytes.push(0);
        Blob::new(&bytes)
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.words.as_ptr() as *mut u8
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `words` holds at least `len` initialised bytes, and u8 has no alignment needs.
        unsafe { std::slice::from_raw_parts(self.as_ptr(), self.len) }
    }

    /// Hands the blob out as an `ID3DBlob*` reference owned by the caller.
    pub fn into_raw(blob: Ptr<Blob>) -> *mut ID3DBlob {
        blob.into_raw() as *mut ID3DBlob
    }
}

type Iface = ID3D10Blob;

// SAFETY: BLOB_VTBL's slots all take an Object<Blob>.
unsafe impl Class for Blob {
    type Vtbl = ID3D10BlobVtbl;
    const VTBL: &'static ID3D10BlobVtbl = &BLOB_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D10Blob];
}

/// ID3D10Blob::GetBufferPointer.
unsafe extern "C" fn get_buffer_pointer(this: *mut Iface) -> LPVOID {
    guard("ID3D10Blob::GetBufferPointer", std::ptr::null_mut(), || {
        // SAFETY: COM This pointer.
        unsafe { Object::<Blob>::from_this(this) }.map_or(std::ptr::null_mut(), |b| b.inner.as_ptr() as *mut c_void)
    })
}

/// ID3D10Blob::GetBufferSize.
unsafe extern "C" fn get_buffer_size(this: *mut Iface) -> SIZE_T {
    // SAFETY: COM This pointer.
    guard("ID3D10Blob::GetBufferSize", 0, || unsafe { Object::<Blob>::from_this(this) }.map_or(0, |b| b.inner.len))
}

static BLOB_VTBL: ID3D10BlobVtbl = ID3D10BlobVtbl {
    QueryInterface: Some(crate::com::thunks::query_interface::<Blob, Iface>),
    AddRef: Some(crate::com::thunks::add_ref::<Blob, Iface>),
    Release: Some(crate::com::thunks::release::<Blob, Iface>),
    GetBufferPointer: Some(get_buffer_pointer),
    GetBufferSize: Some(get_buffer_size),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blob_keeps_bytes_aligned_and_counts_the_text_terminator() {
        let b = Blob::new(&[1, 2, 3, 4, 5]);
        assert_eq!(b.inner.bytes(), &[1, 2, 3, 4, 5]);
        assert_eq!(b.inner.as_ptr() as usize % 8, 0);
        let t = Blob::text("bad");
        assert_eq!(t.inner.bytes(), b"bad\0");
        let e = Blob::new(&[]);
        assert!(e.inner.is_empty());
        assert!(!e.inner.as_ptr().is_null());
    }

    #[test]
    fn blob_vtable_reports_pointer_and_size() {
        let b = Blob::new(&[9; 13]);
        let p = b.as_iface::<Iface>();
        // SAFETY: `p` is a live blob pointer.
        unsafe {
            assert_eq!(get_buffer_size(p), 13);
            assert_eq!(get_buffer_pointer(p) as *const u8, b.inner.as_ptr() as *const u8);
        }
    }
}
