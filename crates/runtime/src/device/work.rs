//! The device's methods that create execution objects: queues, allocators, command lists,
//! fences and query heaps, plus the multi-fence wait and EnqueueMakeResident.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-createcommandqueue>

use super::{null_out, Iface};
use crate::com::{downcast, hand_out, Object, Ptr};
use crate::command_allocator::CommandAllocator;
use crate::command_list;
use crate::command_queue::CommandQueue;
use crate::device::Device;
use crate::error::{guard_hr, Error, Result};
use crate::fence::{self, Fence};
use crate::query_heap::QueryHeap;
use rd3d12_sys::*;
use std::ffi::c_void;

/// # Safety
/// `this` null or our live device pointer.
unsafe fn device<'a>(this: *mut Iface) -> Result<&'a Object<Device>> {
    // SAFETY: forwarded.
    let d = unsafe { Object::<Device>::from_this(this) }.ok_or(Error::POINTER)?;
    d.inner.check_alive()?;
    Ok(d)
}

/// Runs a Create* body: `*ppv` is NULL on failure; `ppv == NULL` with valid arguments is S_FALSE.
///
/// # Safety
/// `riid`/`ppv` as for [`hand_out`].
unsafe fn create<T: crate::com::Class>(
    name: &str,
    riid: *const IID,
    ppv: *mut *mut c_void,
    f: impl FnOnce() -> Result<Ptr<T>>,
) -> HRESULT {
    guard_hr(name, || {
        null_out(ppv);
        let obj = f()?;
        // SAFETY: forwarded.
        Ok(unsafe { hand_out(obj, riid, ppv) })
    })
}

pub unsafe extern "C" fn create_command_queue(
    this: *mut Iface,
    desc: *const D3D12_COMMAND_QUEUE_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: pointers null or valid per the method's contract.
    unsafe {
        create("CreateCommandQueue", riid, ppv, || {
            let d = device(this)?;
            let desc = desc.as_ref().ok_or(Error::INVALID_ARG)?;
            CommandQueue::create(Ptr::from_ref(d), desc)
        })
    }
}

/// ID3D12Device9::CreateCommandQueue1: the creator ID only groups queues for scheduling.
pub unsafe extern "C" fn create_command_queue1(
    this: *mut Iface,
    desc: *const D3D12_COMMAND_QUEUE_DESC,
    creator: *const IID,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    if creator.is_null() {
        null_out(ppv);
        return E_INVALIDARG;
    }
    // SAFETY: forwarded.
    unsafe { create_command_queue(this, desc, riid, ppv) }
}

pub unsafe extern "C" fn create_command_allocator(
    this: *mut Iface,
    ty: D3D12_COMMAND_LIST_TYPE,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded.
    unsafe {
        create("CreateCommandAllocator", riid, ppv, || CommandAllocator::create(Ptr::from_ref(device(this)?), ty))
    }
}

pub unsafe extern "C" fn create_command_list(
    this: *mut Iface,
    node_mask: UINT,
    ty: D3D12_COMMAND_LIST_TYPE,
    allocator: *mut ID3D12CommandAllocator,
    initial: *mut ID3D12PipelineState,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: the allocator and the initial state are recognised by vtable.
    unsafe {
        create("CreateCommandList", riid, ppv, || {
            command_list::create(device(this)?, node_mask, ty, downcast::<CommandAllocator, _>(allocator), initial)
        })
    }
}

pub unsafe extern "C" fn create_command_list1(
    this: *mut Iface,
    node_mask: UINT,
    ty: D3D12_COMMAND_LIST_TYPE,
    flags: D3D12_COMMAND_LIST_FLAGS,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded.
    unsafe { create("CreateCommandList1", riid, ppv, || command_list::create1(device(this)?, node_mask, ty, flags.0)) }
}

pub unsafe extern "C" fn create_fence(
    this: *mut Iface,
    initial: UINT64,
    flags: D3D12_FENCE_FLAGS,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded.
    unsafe { create("CreateFence", riid, ppv, || Fence::create(Ptr::from_ref(device(this)?), initial, flags)) }
}

pub unsafe extern "C" fn create_query_heap(
    this: *mut Iface,
    desc: *const D3D12_QUERY_HEAP_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: pointers null or valid per the method's contract.
    unsafe {
        create("CreateQueryHeap", riid, ppv, || {
            let d = device(this)?;
            QueryHeap::create(Ptr::from_ref(d), desc.as_ref().ok_or(Error::INVALID_ARG)?)
        })
    }
}

/// ID3D12Device1::SetEventOnMultipleFenceCompletion: ALL (0) or ANY (1); a NULL event blocks.
/// NumFences 0, NULL arrays, a NULL fence or other flags: E_INVALIDARG.
pub unsafe extern "C" fn set_event_on_multiple_fence_completion(
    this: *mut Iface,
    fences: *const *mut ID3D12Fence,
    values: *const UINT64,
    n: UINT,
    flags: D3D12_MULTIPLE_FENCE_WAIT_FLAGS,
    event: HANDLE,
) -> HRESULT {
    guard_hr("SetEventOnMultipleFenceCompletion", || {
        // SAFETY: COM This pointer; arrays hold `n` entries; fences recognised by vtable.
        unsafe { Object::<Device>::from_this(this) }.ok_or(Error::POINTER)?;
        if flags.0 > D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY.0 {
            return Err(Error::invalid_arg(
                D3D12_MESSAGE_ID_SETEVENTONMULTIPLEFENCECOMPLETION_INVALIDFLAGS,
                D3D12_MESSAGE_CATEGORY_MISCELLANEOUS,
                format!("Flags 0x{:x} is neither D3D12_MULTIPLE_FENCE_WAIT_FLAG_ALL nor _ANY.", flags.0),
            ));
        }
        // No fence to wait for, or no arrays: E_INVALIDARG (Windows), nothing registered.
        if n == 0 || fences.is_null() || values.is_null() {
            return Err(Error::INVALID_ARG);
        }
        let mut list = Vec::with_capacity(n as usize);
        for i in 0..n as usize {
            let f = unsafe { downcast::<Fence, _>(*fences.add(i)) }.ok_or(Error::INVALID_ARG)?;
            list.push((f.inner.core.clone(), unsafe { *values.add(i) }));
        }
        fence::wait_multiple(&list, flags == D3D12_MULTIPLE_FENCE_WAIT_FLAG_ANY, event);
        Ok(S_OK)
    })
}

/// ID3D12Device3::EnqueueMakeResident: CPU memory is resident at once, so the objects' counts
/// go up now and the fence is signalled with the value.
pub unsafe extern "C" fn enqueue_make_resident(
    this: *mut Iface,
    flags: D3D12_RESIDENCY_FLAGS,
    n: UINT,
    objects: *const *mut ID3D12Pageable,
    fence: *mut ID3D12Fence,
    value: UINT64,
) -> HRESULT {
    guard_hr("EnqueueMakeResident", || {
        if flags.0 & !D3D12_RESIDENCY_FLAG_DENY_OVERBUDGET.0 != 0 {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: the fence recognised by vtable.
        let f = unsafe { downcast::<Fence, _>(fence) }.ok_or(Error::INVALID_ARG)?;
        // SAFETY: forwarded.
        let hr = unsafe { super::memory::make_resident(this, n, objects) };
        if hr < 0 {
            return Ok(hr);
        }
        f.inner.core.signal(value);
        Ok(S_OK)
    })
}
