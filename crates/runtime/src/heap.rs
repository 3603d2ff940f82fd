//! ID3D12Heap (up to ID3D12Heap1), and the memory allocation a heap or a committed resource
//! owns.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12heap>

use crate::backend::memory::MemoryError;
use crate::com::{Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use crate::residency::Residency;
use crate::share::{Trailer, TRAILER};
use crate::work::memory::{Allocation, POOL};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::mem::ManuallyDrop;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

impl Allocation {
    /// Allocates zeroed memory for `desc` (CREATE_NOT_ZEROED may skip zeroing; fresh memfd pages
    /// are zero anyway). Counts the bytes as resident unless CREATE_NOT_RESIDENT. A shareable
    /// allocation (D3D12_HEAP_FLAG_SHARED) gets a last page describing it for OpenSharedHandle.
    pub fn new(device: &Device, desc: D3D12_HEAP_DESC, trailer: Option<Trailer>) -> Result<Arc<Allocation>> {
        Self::with_pool(device, desc, trailer, false)
    }

    /// An allocation for a committed resource: clean memory of an earlier one is reused, and
    /// this one's goes back to the pool if it is still clean when it dies.
    pub fn committed(device: &Device, desc: D3D12_HEAP_DESC, trailer: Option<Trailer>) -> Result<Arc<Allocation>> {
        let pooled = trailer.is_none();
        Self::with_pool(device, desc, trailer, pooled)
    }

    fn with_pool(
        device: &Device,
        desc: D3D12_HEAP_DESC,
        trailer: Option<Trailer>,
        pooled: bool,
    ) -> Result<Arc<Allocation>> {
        let extra = if trailer.is_some() { TRAILER } else { 0 };
        let bytes = desc
            .SizeInBytes
            .checked_next_multiple_of(4096)
            .and_then(|b| b.checked_add(extra))
            .ok_or(Error::OUT_OF_MEMORY)?;
        let reused = if pooled { POOL.take(bytes as usize) } else { None };
        let memory = match reused {
            Some(m) => m,
            None => device.backend().allocate(bytes).map_err(|e| match e {
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
            pooled,
            va_registered: AtomicBool::new(false),
        });
        if !pooled {
            a.register_va(device);
        }
        Ok(a)
    }

    /// Maps memory another process or device shared (OpenSharedHandle) and reads what it is.
    pub fn import(device: &Device, fd: i32) -> Result<(Arc<Allocation>, Trailer)> {
        let memory = device.backend().import(fd).map_err(|_| Error::INVALID_ARG)?;
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
            pooled: false,
            va_registered: AtomicBool::new(false),
        });
        alloc.register_va(device);
        Ok((alloc, t))
    }

    /// Puts the allocation in the device's VA registry. When this returns, the registry knows
    /// the address (threads racing here may both insert it, which is harmless: one entry per
    /// start address), so the address can be used at once on any thread.
    pub fn register_va(self: &Arc<Self>, device: &Device) {
        if !self.va_registered.load(Ordering::Acquire) {
            device.va().insert(self);
            self.va_registered.store(true, Ordering::Release);
        }
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
