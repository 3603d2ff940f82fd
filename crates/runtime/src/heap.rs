//! ID3D12Heap (up to ID3D12Heap1), and the memory allocation a heap or a committed resource
//! owns.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12heap>

use crate::backend::cpu::memory::{Memory, MemoryError};
use crate::com::{Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use crate::residency::Residency;
use crate::share::{Trailer, TRAILER};
use rd3d12_sys::*;
use std::collections::HashMap;
use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

/// Memory with the heap description it was made for: an explicit heap's, or the implicit heap
/// of a committed resource. Placed resources keep it alive through an `Arc` without touching
/// the heap's COM reference count (native: placing a resource leaves the heap's count alone).
pub struct Allocation {
    pub desc: D3D12_HEAP_DESC,
    pub memory: ManuallyDrop<Memory>,
    pub residency: Residency,
    /// Where clean memory goes back when the allocation dies (committed resources).
    pool: Option<Arc<Pool>>,
}

/// Memory of released committed resources that was never mapped, written or shared, so it is
/// still all zero and a new committed resource can take it as is. Bounded in bytes.
#[derive(Default)]
pub struct Pool {
    free: Mutex<HashMap<usize, Vec<Memory>>>,
    bytes: AtomicUsize,
}

impl Pool {
    const MAX_BYTES: usize = 256 << 20;
    const MAX_ITEM: usize = 4 << 20;

    fn take(&self, len: usize) -> Option<Memory> {
        let m = self.free.lock().unwrap_or_else(|e| e.into_inner()).get_mut(&len)?.pop()?;
        self.bytes.fetch_sub(len, Ordering::Relaxed);
        Some(m)
    }

    fn give(&self, m: Memory) {
        let len = m.len();
        if m.is_dirty() || len > Self::MAX_ITEM || self.bytes.load(Ordering::Relaxed) + len > Self::MAX_BYTES {
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
        match &self.pool {
            Some(p) => p.give(m),
            None => drop(m),
        }
    }
}

impl Allocation {
    /// Allocates zeroed memory for `desc` (CREATE_NOT_ZEROED may skip zeroing; fresh memfd pages
    /// are zero anyway). Counts the bytes as resident unless CREATE_NOT_RESIDENT. A shareable
    /// allocation (D3D12_HEAP_FLAG_SHARED) gets a last page describing it for OpenSharedHandle.
    pub fn new(device: &Device, desc: D3D12_HEAP_DESC, trailer: Option<Trailer>) -> Result<Arc<Allocation>> {
        Self::with_pool(device, desc, trailer, None)
    }

    /// An allocation for a committed resource: clean memory of an earlier one is reused, and
    /// this one's goes back to the pool if it is still clean when it dies.
    pub fn committed(device: &Device, desc: D3D12_HEAP_DESC, trailer: Option<Trailer>) -> Result<Arc<Allocation>> {
        let pool = trailer.is_none().then(|| device.pool().clone());
        Self::with_pool(device, desc, trailer, pool)
    }

    fn with_pool(
        device: &Device,
        desc: D3D12_HEAP_DESC,
        trailer: Option<Trailer>,
        pool: Option<Arc<Pool>>,
    ) -> Result<Arc<Allocation>> {
        let extra = if trailer.is_some() { TRAILER } else { 0 };
        let bytes = desc
            .SizeInBytes
            .checked_next_multiple_of(4096)
            .and_then(|b| b.checked_add(extra))
            .ok_or(Error::OUT_OF_MEMORY)?;
        let reused = pool.as_ref().and_then(|p| p.take(bytes as usize));
        let memory = match reused {
            Some(m) => m,
            None => Memory::new(bytes).map_err(|e| match e {
                MemoryError::OutOfMemory => Error::OUT_OF_MEMORY,
                MemoryError::BadHandle => Error::INVALID_ARG,
            })?,
        };
        if let Some(t) = trailer {
            // SAFETY: the mapping holds `len` bytes, the last page reserved for the trailer.
            unsafe { t.store(memory.as_ptr(), memory.len()) };
        }
        let resident = desc.Flags.0 & D3D12_HEAP_FLAG_CREATE_NOT_RESIDENT.0 == 0;
        let a = Arc::new(Allocation {
            residency: Residency::new(device, desc.SizeInBytes, resident),
            desc,
            memory: ManuallyDrop::new(memory),
            pool,
        });
        device.va().insert(&a);
        Ok(a)
    }

    /// Maps memory another process or device shared (OpenSharedHandle) and reads what it is.
    pub fn import(device: &Device, fd: i32) -> Result<(Arc<Allocation>, Trailer)> {
        let memory = Memory::import(fd).map_err(|_| Error::INVALID_ARG)?;
        // SAFETY: the mapping holds `len` readable bytes.
        let t = unsafe { Trailer::load(memory.as_ptr(), memory.len()) }.ok_or(Error::INVALID_ARG)?;
        if t.heap.SizeInBytes > (memory.len() as u64).saturating_sub(TRAILER) {
            return Err(Error::INVALID_ARG);
        }
        memory.mark_dirty();
        let alloc = Arc::new(Allocation {
            residency: Residency::new(device, t.heap.SizeInBytes, true),
            desc: t.heap,
            memory: ManuallyDrop::new(memory),
            pool: None,
        });
        device.va().insert(&alloc);
        Ok((alloc, t))
    }

    pub fn base(&self) -> *mut u8 {
        self.memory.as_ptr()
    }
}

/// An explicit heap (CreateHeap / CreateHeap1 / OpenSharedHandle).
pub struct Heap {
    device: Ptr<Device>,
    pub alloc: Arc<Allocation>,
}

impl Heap {
    pub fn new(device: Ptr<Device>, alloc: Arc<Allocation>) -> Ptr<Heap> {
        Ptr::new(Heap { device, alloc })
    }
}

type Iface = ID3D12Heap1;

// SAFETY: HEAP_VTBL's slots all take an Object<Heap>.
unsafe impl Class for Heap {
    type Vtbl = ID3D12Heap1Vtbl;
    const VTBL: &'static ID3D12Heap1Vtbl = &HEAP_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12Heap, IID_ID3D12Heap1];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> = Some(("ID3D12Heap", D3D12_MESSAGE_ID_LIVE_HEAP));
}

impl Child for Heap {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live heap pointers.
unsafe fn heap<'a>(this: *mut Iface) -> Option<&'a Heap> {
    // SAFETY: forwarded.
    unsafe { Object::<Heap>::from_this(this) }.map(|o| &o.inner)
}

/// ID3D12Heap::GetDesc, by value: SizeInBytes as created, node masks and alignment expanded.
unsafe extern "C" fn get_desc(this: *mut Iface) -> D3D12_HEAP_DESC {
    // SAFETY: COM This pointer.
    guard("ID3D12Heap::GetDesc", D3D12_HEAP_DESC::default(), || {
        unsafe { heap(this) }.map(|h| h.alloc.desc).unwrap_or_default()
    })
}

/// ID3D12Heap1::GetProtectedResourceSession: heaps are never created with a session (the
/// adapter has none), so there is none to return.
unsafe extern "C" fn get_protected_resource_session(
    this: *mut Iface,
    _riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("ID3D12Heap1::GetProtectedResourceSession", || {
        if !ppv.is_null() {
            // SAFETY: non-null out-pointer.
            unsafe { *ppv = std::ptr::null_mut() };
        }
        // SAFETY: COM This pointer.
        unsafe { heap(this) }.ok_or(Error::POINTER)?;
        Err(Error::hr(DXGI_ERROR_NOT_FOUND))
    })
}

static HEAP_VTBL: ID3D12Heap1Vtbl = crate::child_vtbl!(
    ID3D12Heap1Vtbl,
    Heap,
    Iface { GetDesc: get_desc, GetProtectedResourceSession: get_protected_resource_session }
);
