//! ID3D12Object private data: application bytes or interfaces keyed by GUID, thread-safe.

use rd3d12_sys::*;
use std::sync::Mutex;

enum Entry {
    Bytes(Box<[u8]>),
    /// Holds one reference, released on replacement, deletion or destruction. NULL is a valid
    /// entry (SetPrivateDataInterface(guid, NULL)): it reads back as a NULL pointer.
    Iface(*mut IUnknown),
}

/// The private data store every object carries.
#[derive(Default)]
pub struct PrivateData {
    entries: Mutex<Vec<(GUID, Entry)>>,
}

// SAFETY: the only non-Send/Sync content is COM interface pointers on which we call nothing but
// AddRef and Release, which COM requires to be thread-safe.
unsafe impl Send for PrivateData {}
// SAFETY: as above; all access goes through the mutex.
unsafe impl Sync for PrivateData {}

/// Calls IUnknown::AddRef or Release on a foreign interface.
///
/// # Safety
/// `p` must be a live COM interface pointer.
unsafe fn iunknown(p: *mut IUnknown, add: bool) {
    // SAFETY: the caller guarantees `p` is a live interface, whose first field is its vtable.
    unsafe {
        let vt = &*(*p).lpVtbl;
        let f = if add { vt.AddRef } else { vt.Release };
        if let Some(f) = f {
            f(p);
        }
    }
}

impl Entry {
    fn bytes(&self) -> &[u8] {
        match self {
            Entry::Bytes(b) => b,
            Entry::Iface(p) => {
                // SAFETY: reading the pointer value's own bytes.
                unsafe {
                    std::slice::from_raw_parts(p as *const *mut IUnknown as *const u8, size_of::<*mut IUnknown>())
                }
            }
        }
    }
}

impl Drop for Entry {
    fn drop(&mut self) {
        if let Entry::Iface(p) = *self {
            if p.is_null() {
                return;
            }
            // SAFETY: the entry owns one reference on `p`.
            unsafe { iunknown(p, false) };
        }
    }
}

impl PrivateData {
    /// GetPrivateData: `*size` is the capacity of `data` on input and the stored size on output.
    /// Unknown GUID: DXGI_ERROR_NOT_FOUND with size 0. `data` NULL: size query. Too small a
    /// buffer: DXGI_ERROR_MORE_DATA with the needed size. An interface is AddRef'd as returned.
    ///
    /// # Safety
    /// `data` must be null or valid for `*size` bytes of writes.
    pub unsafe fn get(&self, guid: &GUID, size: &mut u32, data: *mut u8) -> HRESULT {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let Some((_, entry)) = entries.iter().find(|(g, _)| g == guid) else {
            *size = 0;
            return DXGI_ERROR_NOT_FOUND;
        };
        let bytes = entry.bytes();
        let needed = bytes.len() as u32;
        if data.is_null() {
            *size = needed;
            return S_OK;
        }
        if *size < needed {
            *size = needed;
            return DXGI_ERROR_MORE_DATA;
        }
        // SAFETY: the caller guarantees `data` holds `*size` >= needed bytes.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data, bytes.len()) };
        *size = needed;
        if let &Entry::Iface(p) = entry {
            if !p.is_null() {
                // SAFETY: the entry holds a reference, so `p` is alive; the caller receives a new one.
                unsafe { iunknown(p, true) };
            }
        }
        S_OK
    }

    /// Stores, replaces or (`None`) deletes the entry of `guid`. Whether an entry was there.
    fn put(&self, guid: &GUID, entry: Option<Entry>) -> bool {
        let old = {
            let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
            let pos = entries.iter().position(|(g, _)| g == guid);
            match (pos, entry) {
                (Some(i), Some(e)) => Some(std::mem::replace(&mut entries[i].1, e)),
                (Some(i), None) => Some(entries.swap_remove(i).1),
                (None, Some(e)) => {
                    entries.push((*guid, e));
                    None
                }
                (None, None) => None,
            }
        };
        let existed = old.is_some();
        // A replaced interface is released outside the lock: its Release may call back into us.
        drop(old);
        existed
    }

    /// SetPrivateData: stores a copy of `data` (S_OK); `None` deletes the entry: S_OK when
    /// there was one, S_FALSE when there was none (Windows).
    pub fn set(&self, guid: &GUID, data: Option<&[u8]>) -> HRESULT {
        let deleting = data.is_none();
        let existed = self.put(guid, data.map(|d| Entry::Bytes(d.into())));
        if deleting && !existed {
            S_FALSE
        } else {
            S_OK
        }
    }

    /// SetPrivateDataInterface: holds a reference on `iface`. NULL is stored too (Windows): the
    /// entry then reads back as a NULL pointer, pointer-sized.
    ///
    /// # Safety
    /// `iface` must be null or a live COM interface pointer.
    pub unsafe fn set_interface(&self, guid: &GUID, iface: *mut IUnknown) {
        if !iface.is_null() {
            // SAFETY: checked non-null; the caller guarantees it is a live interface.
            unsafe { iunknown(iface, true) };
        }
        self.put(guid, Some(Entry::Iface(iface)));
    }
}
