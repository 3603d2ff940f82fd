//! ID3D12DebugCommandList / ID3D12DebugCommandList2 and ID3D12DebugCommandQueue: facets of a
//! command list or queue of a device created with the debug layer on (same identity and
//! reference count as their owner, see [`crate::com::facet`]).
//!
//! AssertResourceState on a list answers from the list's own state tracking where the list
//! has transitioned the subresource; otherwise, and always on a queue, the check is made when
//! the work reaches that point of execution (TRUE is returned, and the debug layer reports
//! INVALID_SUBRESOURCE_STATE then if the state differs). The feature mask and the list's
//! GPU-based-validation parameter are kept and read back (no GPU here for them to change).

use crate::com::facet::Facet;
use crate::com::{downcast, Class, Object, Ptr};
use crate::command_list::CommandList;
use crate::command_queue::CommandQueue;
use crate::device::Device;
use crate::error::{guard, guard_hr, Error};
use crate::resource::Resource;
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// The resource behind an interface pointer, if it is ours.
///
/// # Safety
/// `p` null or a live COM pointer.
unsafe fn resource<'a>(p: *mut ID3D12Resource) -> Option<&'a Object<Resource>> {
    // SAFETY: recognised by vtable.
    unsafe { downcast::<Resource, _>(p) }
}

// ---- ID3D12DebugCommandList2 ---------------------------------------------------------------------

pub struct DebugCommandList {
    list: *const Object<CommandList>,
    mask: AtomicU32,
    /// D3D12_DEBUG_COMMAND_LIST_GPU_BASED_VALIDATION_SETTINGS.ShaderPatchMode.
    patch_mode: AtomicU32,
}

// SAFETY: the owner pointer is used for reference counting and the list's own (locked) methods.
unsafe impl Send for DebugCommandList {}
// SAFETY: as above.
unsafe impl Sync for DebugCommandList {}

impl DebugCommandList {
    /// CommandList::query_extra.
    pub fn query(
        list: &Object<CommandList>,
        device: &Ptr<Device>,
        cell: &OnceLock<Ptr<DebugCommandList>>,
        riid: &GUID,
    ) -> Option<*mut c_void> {
        crate::com::facet::hand_out(list, device.inner.debug_sink().is_some(), cell, riid, || DebugCommandList {
            list,
            mask: AtomicU32::new(0),
            patch_mode: AtomicU32::new(0),
        })
    }
}

impl Facet for DebugCommandList {
    type Owner = CommandList;
    fn owner(&self) -> &Object<CommandList> {
        // SAFETY: the list owns this object, so it is alive while the object is reachable.
        unsafe { &*self.list }
    }
}

type ListIface = ID3D12DebugCommandList2;

// SAFETY: DEBUG_LIST_VTBL's slots all take an Object<DebugCommandList>.
unsafe impl Class for DebugCommandList {
    type Vtbl = ID3D12DebugCommandList2Vtbl;
    const VTBL: &'static ID3D12DebugCommandList2Vtbl = &DEBUG_LIST_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12DebugCommandList, IID_ID3D12DebugCommandList2];
}

unsafe fn list_this<'a>(p: *mut ListIface) -> Option<&'a Object<DebugCommandList>> {
    // SAFETY: COM This pointer of our vtable.
    unsafe { Object::<DebugCommandList>::from_this(p) }
}

unsafe extern "C" fn list_assert(p: *mut ListIface, r: *mut ID3D12Resource, sub: UINT, state: UINT) -> BOOL {
    guard("ID3D12DebugCommandList::AssertResourceState", 0, || {
        // SAFETY: forwarded; the resource recognised by vtable.
        let (Some(o), Some(r)) = (unsafe { list_this(p) }, unsafe { resource(r) }) else { return 0 };
        o.inner.owner().inner.assert_state(r, sub, state) as BOOL
    })
}

unsafe extern "C" fn list_set_mask(p: *mut ListIface, mask: D3D12_DEBUG_FEATURE) -> HRESULT {
    guard_hr("ID3D12DebugCommandList::SetFeatureMask", || {
        // SAFETY: forwarded.
        let o = unsafe { list_this(p) }.ok_or(Error::POINTER)?;
        if mask.0 & !0xf != 0 {
            return Err(Error::INVALID_ARG);
        }
        o.inner.mask.store(mask.0, Ordering::Relaxed);
        Ok(S_OK)
    })
}

unsafe extern "C" fn list_get_mask(p: *mut ListIface) -> D3D12_DEBUG_FEATURE {
    // SAFETY: forwarded.
    guard("ID3D12DebugCommandList::GetFeatureMask", D3D12_DEBUG_FEATURE(0), || {
        D3D12_DEBUG_FEATURE(unsafe { list_this(p) }.map_or(0, |o| o.inner.mask.load(Ordering::Relaxed)))
    })
}

const PATCH_MODE_SIZE: usize = size_of::<D3D12_DEBUG_COMMAND_LIST_GPU_BASED_VALIDATION_SETTINGS>();

unsafe extern "C" fn list_set_param(
    p: *mut ListIface,
    ty: D3D12_DEBUG_COMMAND_LIST_PARAMETER_TYPE,
    data: *const c_void,
    size: UINT,
) -> HRESULT {
    guard_hr("ID3D12DebugCommandList2::SetDebugParameter", || {
        // SAFETY: forwarded.
        let o = unsafe { list_this(p) }.ok_or(Error::POINTER)?;
        if ty != D3D12_DEBUG_COMMAND_LIST_PARAMETER_GPU_BASED_VALIDATION_SETTINGS
            || data.is_null()
            || size as usize != PATCH_MODE_SIZE
        {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: `size` readable bytes holding the settings struct.
        let v =
            unsafe { std::ptr::read_unaligned(data as *const D3D12_DEBUG_COMMAND_LIST_GPU_BASED_VALIDATION_SETTINGS) };
        o.inner.patch_mode.store(v.ShaderPatchMode.0, Ordering::Relaxed);
        Ok(S_OK)
    })
}

unsafe extern "C" fn list_get_param(
    p: *mut ListIface,
    ty: D3D12_DEBUG_COMMAND_LIST_PARAMETER_TYPE,
    data: *mut c_void,
    size: UINT,
) -> HRESULT {
    guard_hr("ID3D12DebugCommandList2::GetDebugParameter", || {
        // SAFETY: forwarded.
        let o = unsafe { list_this(p) }.ok_or(Error::POINTER)?;
        if ty != D3D12_DEBUG_COMMAND_LIST_PARAMETER_GPU_BASED_VALIDATION_SETTINGS
            || data.is_null()
            || size as usize != PATCH_MODE_SIZE
        {
            return Err(Error::INVALID_ARG);
        }
        let v = D3D12_DEBUG_COMMAND_LIST_GPU_BASED_VALIDATION_SETTINGS {
            ShaderPatchMode: D3D12_GPU_BASED_VALIDATION_SHADER_PATCH_MODE(o.inner.patch_mode.load(Ordering::Relaxed)),
        };
        // SAFETY: `size` writable bytes.
        unsafe { std::ptr::write_unaligned(data as *mut D3D12_DEBUG_COMMAND_LIST_GPU_BASED_VALIDATION_SETTINGS, v) };
        Ok(S_OK)
    })
}

static DEBUG_LIST_VTBL: ID3D12DebugCommandList2Vtbl = ID3D12DebugCommandList2Vtbl {
    QueryInterface: Some(crate::com::facet::query_interface::<DebugCommandList, ListIface>),
    AddRef: Some(crate::com::facet::add_ref::<DebugCommandList, ListIface>),
    Release: Some(crate::com::facet::release::<DebugCommandList, ListIface>),
    AssertResourceState: Some(list_assert),
    SetFeatureMask: Some(list_set_mask),
    GetFeatureMask: Some(list_get_mask),
    SetDebugParameter: Some(list_set_param),
    GetDebugParameter: Some(list_get_param),
};

// ---- ID3D12DebugCommandQueue ----------------------------------------------------------------------

pub struct DebugCommandQueue {
    queue: *const Object<CommandQueue>,
}

// SAFETY: the owner pointer is used for reference counting and the queue's thread-safe submit.
unsafe impl Send for DebugCommandQueue {}
// SAFETY: as above.
unsafe impl Sync for DebugCommandQueue {}

impl DebugCommandQueue {
    /// CommandQueue::query_extra.
    pub fn query(
        queue: &Object<CommandQueue>,
        device: &Ptr<Device>,
        cell: &OnceLock<Ptr<DebugCommandQueue>>,
        riid: &GUID,
    ) -> Option<*mut c_void> {
        crate::com::facet::hand_out(queue, device.inner.debug_sink().is_some(), cell, riid, || DebugCommandQueue {
            queue,
        })
    }
}

impl Facet for DebugCommandQueue {
    type Owner = CommandQueue;
    fn owner(&self) -> &Object<CommandQueue> {
        // SAFETY: the queue owns this object, so it is alive while the object is reachable.
        unsafe { &*self.queue }
    }
}

type QueueIface = ID3D12DebugCommandQueue;

// SAFETY: DEBUG_QUEUE_VTBL's slots all take an Object<DebugCommandQueue>.
unsafe impl Class for DebugCommandQueue {
    type Vtbl = ID3D12DebugCommandQueueVtbl;
    const VTBL: &'static ID3D12DebugCommandQueueVtbl = &DEBUG_QUEUE_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12DebugCommandQueue];
}

unsafe extern "C" fn queue_assert(p: *mut QueueIface, r: *mut ID3D12Resource, sub: UINT, state: UINT) -> BOOL {
    guard("ID3D12DebugCommandQueue::AssertResourceState", 0, || {
        // SAFETY: COM This pointer; the resource recognised by vtable.
        let (Some(o), Some(r)) = (unsafe { Object::<DebugCommandQueue>::from_this(p) }, unsafe { resource(r) }) else {
            return 0;
        };
        o.inner.owner().inner.assert_state(r, sub, state) as BOOL
    })
}

static DEBUG_QUEUE_VTBL: ID3D12DebugCommandQueueVtbl = ID3D12DebugCommandQueueVtbl {
    QueryInterface: Some(crate::com::facet::query_interface::<DebugCommandQueue, QueueIface>),
    AddRef: Some(crate::com::facet::add_ref::<DebugCommandQueue, QueueIface>),
    Release: Some(crate::com::facet::release::<DebugCommandQueue, QueueIface>),
    AssertResourceState: Some(queue_assert),
};
