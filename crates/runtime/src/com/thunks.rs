//! Generic thunks for the IUnknown, ID3D12Object and ID3D12DeviceChild slots of every vtable.
//! `T` is the class, `I` the interface type the vtable's slots name as `This`.
//!
//! Microsoft docs: <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12object>
//!
//! # Safety
//! Every thunk is a COM entry point with COM's contract: `This` is null or a live pointer this
//! runtime handed out for a `T`, and the other pointers are null or valid as the method's
//! documentation says. Each thunk checks what it can (nulls) before using them.
#![allow(clippy::missing_safety_doc)]

use super::{Child, Class, Object};
use crate::error::{guard, guard_hr};
use rd3d12_sys::*;
use std::ffi::c_void;

/// IUnknown::QueryInterface: the object's pointer for any IID of its chain, else E_NOINTERFACE
/// with `*ppv = NULL`; E_POINTER for a NULL `ppv`.
pub unsafe extern "C" fn query_interface<T: Class, I>(
    this: *mut I,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("QueryInterface", || {
        if ppv.is_null() {
            return Ok(E_POINTER);
        }
        // SAFETY: checked non-null; COM callers pass writable storage.
        unsafe { *ppv = std::ptr::null_mut() };
        // SAFETY: `this` is one of our interface pointers; `riid` is null or a GUID.
        let (Some(obj), Some(riid)) = (unsafe { Object::<T>::from_this(this) }, unsafe { riid.as_ref() }) else {
            return Ok(E_POINTER);
        };
        Ok(match obj.query(riid) {
            Some(p) => {
                // SAFETY: as above.
                unsafe { *ppv = p };
                S_OK
            }
            None => E_NOINTERFACE,
        })
    })
}

/// IUnknown::AddRef: the new count.
pub unsafe extern "C" fn add_ref<T: Class, I>(this: *mut I) -> ULONG {
    // SAFETY: `this` is one of our live interface pointers.
    guard("AddRef", 0, || unsafe { Object::<T>::from_this(this) }.map_or(0, |o| o.add_ref()))
}

/// IUnknown::Release: the new count; the object is freed at zero.
pub unsafe extern "C" fn release<T: Class, I>(this: *mut I) -> ULONG {
    guard("Release", 0, || {
        if this.is_null() {
            return 0;
        }
        // SAFETY: the caller owns the reference it gives back.
        unsafe { Object::<T>::release(this as *const Object<T>) }
    })
}

/// ID3D12Object::GetPrivateData.
pub unsafe extern "C" fn get_private_data<T: Class, I>(
    this: *mut I,
    guid: *const GUID,
    size: *mut UINT,
    data: *mut c_void,
) -> HRESULT {
    guard_hr("GetPrivateData", || {
        // SAFETY: pointers come from the caller; each is checked for null before use.
        let (Some(obj), Some(guid), Some(size)) =
            (unsafe { Object::<T>::from_this(this) }, unsafe { guid.as_ref() }, unsafe { size.as_mut() })
        else {
            return Ok(E_INVALIDARG);
        };
        // SAFETY: `data` is null or holds `*size` bytes, per the method's contract.
        Ok(unsafe { obj.private.get(guid, size, data.cast()) })
    })
}

/// ID3D12Object::SetPrivateData: a copy of the bytes; NULL data or size 0 deletes the entry
/// (S_FALSE when there was none).
pub unsafe extern "C" fn set_private_data<T: Class, I>(
    this: *mut I,
    guid: *const GUID,
    size: UINT,
    data: *const c_void,
) -> HRESULT {
    guard_hr("SetPrivateData", || {
        // SAFETY: checked for null before use.
        let (Some(obj), Some(guid)) = (unsafe { Object::<T>::from_this(this) }, unsafe { guid.as_ref() }) else {
            return Ok(E_INVALIDARG);
        };
        // NULL data deletes the entry whatever the size (Windows: S_OK, or S_FALSE when there
        // was none), as does a size of 0.
        let bytes = (size != 0 && !data.is_null()).then(|| {
            // SAFETY: the caller passes `size` readable bytes at `data` (non-null here).
            unsafe { std::slice::from_raw_parts(data as *const u8, size as usize) }
        });
        Ok(obj.private.set(guid, bytes))
    })
}

/// ID3D12Object::SetPrivateDataInterface: holds a reference; NULL is stored as a NULL pointer.
pub unsafe extern "C" fn set_private_data_interface<T: Class, I>(
    this: *mut I,
    guid: *const GUID,
    iface: *const IUnknown,
) -> HRESULT {
    guard_hr("SetPrivateDataInterface", || {
        // SAFETY: checked for null before use.
        let (Some(obj), Some(guid)) = (unsafe { Object::<T>::from_this(this) }, unsafe { guid.as_ref() }) else {
            return Ok(E_INVALIDARG);
        };
        // SAFETY: `iface` is null or a live interface, per the method's contract.
        unsafe { obj.private.set_interface(guid, iface as *mut IUnknown) };
        Ok(S_OK)
    })
}

/// ID3D12Object::SetName: stored as WKPDID_D3DDebugObjectNameW, the wide string with its
/// terminator (wchar_t is 4 bytes on Linux). A NULL name is E_INVALIDARG.
pub unsafe extern "C" fn set_name<T: Class, I>(this: *mut I, name: LPCWSTR) -> HRESULT {
    guard_hr("SetName", || {
        // SAFETY: checked for null before use.
        let Some(obj) = (unsafe { Object::<T>::from_this(this) }) else {
            return Ok(E_INVALIDARG);
        };
        if name.is_null() {
            return Ok(E_INVALIDARG);
        }
        let mut len = 0usize;
        // SAFETY: `name` is a NUL-terminated wide string, per the method's contract.
        while unsafe { *name.add(len) } != 0 {
            len += 1;
        }
        // SAFETY: `len + 1` wide characters are readable, the terminator included.
        let bytes = unsafe { std::slice::from_raw_parts(name as *const u8, (len + 1) * size_of::<WCHAR>()) };
        Ok(obj.private.set(&WKPDID_D3DDebugObjectNameW, Some(bytes)))
    })
}

/// ID3D12DeviceChild::GetDevice: QueryInterface on the device that created the object.
pub unsafe extern "C" fn get_device<T: Child, I>(this: *mut I, riid: *const IID, ppv: *mut *mut c_void) -> HRESULT {
    guard_hr("GetDevice", || {
        // SAFETY: checked for null before use.
        let Some(obj) = (unsafe { Object::<T>::from_this(this) }) else {
            return Ok(E_INVALIDARG);
        };
        let device = obj.inner.device();
        // SAFETY: forwarded to QueryInterface with the caller's pointers.
        Ok(unsafe { query_interface::<crate::device::Device, c_void>(device.as_iface(), riid, ppv) })
    })
}
