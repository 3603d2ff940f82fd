//! ID3D12DebugDevice / ID3D12DebugDevice2 on a device created with the debug layer on: a facet
//! of the device (same identity and reference count, see [`crate::com::facet`]).
//!
//! ReportLiveDeviceObjects lists the device and every live object of the device with its
//! interface, address, debug name (SetName) and reference count, as STATE_CREATION WARNING
//! messages under the LIVE_* IDs (debug-layer.md §3.8), through the info queue; D3D12_RLDO_SUMMARY
//! adds a LIVE_OBJECT_SUMMARY message counting them by interface. The feature mask and the
//! debug parameters (feature flags, GPU-based validation settings, slowdown factor) are kept
//! and read back; the CPU backend has no GPU behaviour for them to change.

use crate::com::facet::Facet;
use crate::com::{live, Class, Object};
use crate::debug;
use crate::device::Device;
use crate::error::{guard, guard_hr, Error};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::Mutex;

pub struct DebugDevice {
    device: *const Object<Device>,
    state: Mutex<Params>,
}

#[derive(Default)]
struct Params {
    feature_mask: u32,
    /// Raw bytes of each parameter type 0..=2, as last set.
    params: [Vec<u8>; 3],
}

// SAFETY: the device pointer is only used for reference counting, QueryInterface and reading
// its identity; the rest is behind a mutex.
unsafe impl Send for DebugDevice {}
// SAFETY: as above.
unsafe impl Sync for DebugDevice {}

impl DebugDevice {
    /// The debug-device facet of `device` (owned by the device, which outlives it).
    pub fn new(device: &Object<Device>) -> DebugDevice {
        DebugDevice { device, state: Mutex::default() }
    }
}

impl Facet for DebugDevice {
    type Owner = Device;
    fn owner(&self) -> &Object<Device> {
        // SAFETY: the device owns this object, so it is alive while the object is reachable.
        unsafe { &*self.device }
    }
}

type Iface = ID3D12DebugDevice2;

// SAFETY: DEBUG_DEVICE_VTBL's slots all take an Object<DebugDevice>.
unsafe impl Class for DebugDevice {
    type Vtbl = ID3D12DebugDevice2Vtbl;
    const VTBL: &'static ID3D12DebugDevice2Vtbl = &DEBUG_DEVICE_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12DebugDevice, IID_ID3D12DebugDevice2];
}

/// The byte size each debug parameter type takes (1.606 headers: types 0..=2).
fn param_size(ty: u32) -> Option<usize> {
    match ty {
        0 => Some(size_of::<D3D12_DEBUG_FEATURE>()),
        1 => Some(size_of::<D3D12_DEBUG_DEVICE_GPU_BASED_VALIDATION_SETTINGS>()),
        2 => Some(size_of::<D3D12_DEBUG_DEVICE_GPU_SLOWDOWN_PERFORMANCE_FACTOR>()),
        _ => None,
    }
}

unsafe fn this<'a>(p: *mut Iface) -> Option<&'a Object<DebugDevice>> {
    // SAFETY: COM This pointer of our vtable.
    unsafe { Object::<DebugDevice>::from_this(p) }
}

unsafe extern "C" fn set_feature_mask(p: *mut Iface, mask: D3D12_DEBUG_FEATURE) -> HRESULT {
    guard_hr("ID3D12DebugDevice::SetFeatureMask", || {
        // SAFETY: forwarded.
        let o = unsafe { this(p) }.ok_or(Error::POINTER)?;
        if mask.0 & !0xf != 0 {
            return Err(Error::INVALID_ARG);
        }
        o.inner.state.lock().unwrap_or_else(|e| e.into_inner()).feature_mask = mask.0;
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_feature_mask(p: *mut Iface) -> D3D12_DEBUG_FEATURE {
    guard("ID3D12DebugDevice::GetFeatureMask", D3D12_DEBUG_FEATURE(0), || {
        // SAFETY: forwarded.
        let m = unsafe { this(p) }.map_or(0, |o| o.inner.state.lock().unwrap_or_else(|e| e.into_inner()).feature_mask);
        D3D12_DEBUG_FEATURE(m)
    })
}

/// ReportLiveDeviceObjects: the device line, each object's line (DETAIL, or no flags), then
/// the summary (SUMMARY).
unsafe extern "C" fn report_live_device_objects(p: *mut Iface, flags: D3D12_RLDO_FLAGS) -> HRESULT {
    guard_hr("ID3D12DebugDevice::ReportLiveDeviceObjects", || {
        // SAFETY: forwarded.
        let o = unsafe { this(p) }.ok_or(Error::POINTER)?;
        if flags.0 & !0x7 != 0 {
            return Err(Error::INVALID_ARG);
        }
        let detail = flags.0 & D3D12_RLDO_DETAIL.0 != 0 || flags.0 & D3D12_RLDO_SUMMARY.0 == 0;
        let objects = live::snapshot();
        let dev = o.inner.owner() as *const Object<Device> as usize;
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for obj in &objects {
            match counts.iter_mut().find(|c| c.0 == obj.iface) {
                Some(c) => c.1 += 1,
                None => counts.push((obj.iface, 1)),
            }
            if !detail {
                continue;
            }
            let name = obj.name.as_deref().map_or_else(String::new, |n| format!(", Name: {n}"));
            let text = if obj.addr == dev {
                format!("Live {} at 0x{:016X}{name}, Refcount: {}", obj.iface, obj.addr, obj.refs)
            } else {
                format!(
                    "\tLive {} at 0x{:016X}{name}, Refcount: {}, IntRef: {}",
                    obj.iface, obj.addr, obj.refs, obj.int_refs
                )
            };
            debug::deliver(
                "",
                D3D12_MESSAGE_CATEGORY_STATE_CREATION.0,
                D3D12_MESSAGE_SEVERITY_WARNING.0,
                obj.id.0,
                &text,
            );
        }
        if flags.0 & D3D12_RLDO_SUMMARY.0 != 0 {
            let list: Vec<String> = counts.iter().map(|(i, n)| format!("{i}: {n}")).collect();
            let text = format!("Live Object Summary: {} objects ({})", objects.len(), list.join(", "));
            debug::deliver(
                "",
                D3D12_MESSAGE_CATEGORY_STATE_CREATION.0,
                D3D12_MESSAGE_SEVERITY_INFO.0,
                D3D12_MESSAGE_ID_LIVE_OBJECT_SUMMARY.0,
                &text,
            );
        }
        Ok(S_OK)
    })
}

unsafe extern "C" fn set_debug_parameter(
    p: *mut Iface,
    ty: D3D12_DEBUG_DEVICE_PARAMETER_TYPE,
    data: *const c_void,
    size: UINT,
) -> HRESULT {
    guard_hr("ID3D12DebugDevice2::SetDebugParameter", || {
        // SAFETY: forwarded.
        let o = unsafe { this(p) }.ok_or(Error::POINTER)?;
        let need = param_size(ty.0).ok_or(Error::INVALID_ARG)?;
        if data.is_null() || size as usize != need {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: `size` readable bytes per the method's contract.
        let bytes = unsafe { std::slice::from_raw_parts(data as *const u8, need) }.to_vec();
        o.inner.state.lock().unwrap_or_else(|e| e.into_inner()).params[ty.0 as usize] = bytes;
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_debug_parameter(
    p: *mut Iface,
    ty: D3D12_DEBUG_DEVICE_PARAMETER_TYPE,
    data: *mut c_void,
    size: UINT,
) -> HRESULT {
    guard_hr("ID3D12DebugDevice2::GetDebugParameter", || {
        // SAFETY: forwarded.
        let o = unsafe { this(p) }.ok_or(Error::POINTER)?;
        let need = param_size(ty.0).ok_or(Error::INVALID_ARG)?;
        if data.is_null() || size as usize != need {
            return Err(Error::INVALID_ARG);
        }
        let st = o.inner.state.lock().unwrap_or_else(|e| e.into_inner());
        let v = &st.params[ty.0 as usize];
        // SAFETY: `size` == need writable bytes per the method's contract.
        unsafe {
            std::ptr::write_bytes(data as *mut u8, 0, need);
            std::ptr::copy_nonoverlapping(v.as_ptr(), data as *mut u8, v.len().min(need));
        }
        Ok(S_OK)
    })
}

static DEBUG_DEVICE_VTBL: ID3D12DebugDevice2Vtbl = ID3D12DebugDevice2Vtbl {
    QueryInterface: Some(crate::com::facet::query_interface::<DebugDevice, Iface>),
    AddRef: Some(crate::com::facet::add_ref::<DebugDevice, Iface>),
    Release: Some(crate::com::facet::release::<DebugDevice, Iface>),
    SetFeatureMask: Some(set_feature_mask),
    GetFeatureMask: Some(get_feature_mask),
    ReportLiveDeviceObjects: Some(report_live_device_objects),
    SetDebugParameter: Some(set_debug_parameter),
    GetDebugParameter: Some(get_debug_parameter),
};

// ---- ID3D12DebugDevice1: the same operations in another vtable order ------------------------------

/// ID3D12DebugDevice1 (an IUnknown-derived interface of its own): forwards to the device's
/// ID3D12DebugDevice2 facet, so both see one feature state.
pub struct DebugDevice1 {
    device: *const Object<Device>,
    main: *const Object<DebugDevice>,
}

// SAFETY: both pointers are owned by the device, which outlives the facet; calls go through the
// thread-safe facet methods.
unsafe impl Send for DebugDevice1 {}
// SAFETY: as above.
unsafe impl Sync for DebugDevice1 {}

impl DebugDevice1 {
    /// The ID3D12DebugDevice1 facet of `device`, forwarding to `main`.
    pub fn new(device: &Object<Device>, main: &Object<DebugDevice>) -> DebugDevice1 {
        DebugDevice1 { device, main }
    }
}

impl Facet for DebugDevice1 {
    type Owner = Device;
    fn owner(&self) -> &Object<Device> {
        // SAFETY: the device owns this object.
        unsafe { &*self.device }
    }
}

type Iface1 = ID3D12DebugDevice1;

// SAFETY: DEBUG_DEVICE1_VTBL's slots all take an Object<DebugDevice1>.
unsafe impl Class for DebugDevice1 {
    type Vtbl = ID3D12DebugDevice1Vtbl;
    const VTBL: &'static ID3D12DebugDevice1Vtbl = &DEBUG_DEVICE1_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12DebugDevice1];
}

/// The ID3D12DebugDevice2 interface pointer behind an ID3D12DebugDevice1 one (null if not ours).
unsafe fn main_of(p: *mut Iface1) -> *mut Iface {
    // SAFETY: COM This pointer of our vtable.
    unsafe { Object::<DebugDevice1>::from_this(p) }.map_or(std::ptr::null_mut(), |o| o.inner.main as *mut Iface)
}

unsafe extern "C" fn set_debug_parameter1(
    p: *mut Iface1,
    ty: D3D12_DEBUG_DEVICE_PARAMETER_TYPE,
    data: *const c_void,
    size: UINT,
) -> HRESULT {
    // SAFETY: forwarded to the main facet.
    unsafe { set_debug_parameter(main_of(p), ty, data, size) }
}

unsafe extern "C" fn get_debug_parameter1(
    p: *mut Iface1,
    ty: D3D12_DEBUG_DEVICE_PARAMETER_TYPE,
    data: *mut c_void,
    size: UINT,
) -> HRESULT {
    // SAFETY: forwarded to the main facet.
    unsafe { get_debug_parameter(main_of(p), ty, data, size) }
}

unsafe extern "C" fn report_live_device_objects1(p: *mut Iface1, flags: D3D12_RLDO_FLAGS) -> HRESULT {
    // SAFETY: forwarded to the main facet.
    unsafe { report_live_device_objects(main_of(p), flags) }
}

static DEBUG_DEVICE1_VTBL: ID3D12DebugDevice1Vtbl = ID3D12DebugDevice1Vtbl {
    QueryInterface: Some(crate::com::facet::query_interface::<DebugDevice1, Iface1>),
    AddRef: Some(crate::com::facet::add_ref::<DebugDevice1, Iface1>),
    Release: Some(crate::com::facet::release::<DebugDevice1, Iface1>),
    SetDebugParameter: Some(set_debug_parameter1),
    GetDebugParameter: Some(get_debug_parameter1),
    ReportLiveDeviceObjects: Some(report_live_device_objects1),
};
