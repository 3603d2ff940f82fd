//! `libdxcore.so`: DXCore's one entry point, DXCoreCreateAdapterFactory, over the runtime's
//! DXCore objects (`rd3d12::dxcore`). Mesa's d3d12 driver loads this library by name with
//! dlopen and looks up nothing else.

use rd3d12::error::{guard_hr, Error};
use rd3d12_sys::*;
use std::ffi::c_void;

/// DXCoreCreateAdapterFactory: the process's IDXCoreAdapterFactory (the live one if any).
/// E_POINTER for a NULL `ppvFactory`, E_NOINTERFACE (with `*ppvFactory = NULL`) for an IID other
/// than IDXCoreAdapterFactory / IUnknown.
///
/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore/nf-dxcore-dxcorecreateadapterfactory>
///
/// # Safety
/// `riid` must be null or point at a GUID; `ppv_factory` null or writable.
#[no_mangle]
pub unsafe extern "C" fn DXCoreCreateAdapterFactory(riid: *const IID, ppv_factory: *mut *mut c_void) -> HRESULT {
    guard_hr("DXCoreCreateAdapterFactory", || {
        if ppv_factory.is_null() {
            return Err(Error::POINTER);
        }
        // SAFETY: pointers as documented above; ppv is non-null.
        Ok(unsafe { rd3d12::com::hand_out(rd3d12::dxcore::factory(), riid, ppv_factory) })
    })
}
