//! Facets: objects that share another object's COM identity, as the debug layer's interfaces
//! share the device's on Windows (ID3D12InfoQueue, ID3D12DebugDevice). The owner holds the one
//! facet object; the facet's AddRef and Release count the owner's references, and its
//! QueryInterface answers the facet's own IIDs with itself and everything else as the owner.

use super::{Class, Object, Ptr};
use crate::error::{guard, guard_hr};
use rd3d12_sys::*;
use std::ffi::c_void;

/// A facet of an object of class `Owner`.
pub trait Facet: Class {
    type Owner: Class;
    /// The owning object (alive while the facet is reachable: the owner holds the facet).
    fn owner(&self) -> &Object<Self::Owner>;
}

/// QueryInterface on an owner for one of facet `T`'s IIDs: the facet in `cell` (made by `make`
/// on first use), the owner's count raised; `None` when the debug layer is off (`on` false) or
/// `riid` is not the facet's.
pub fn hand_out<T: Facet>(
    owner: &Object<T::Owner>,
    on: bool,
    cell: &std::sync::OnceLock<Ptr<T>>,
    riid: &GUID,
    make: impl FnOnce() -> T,
) -> Option<*mut c_void> {
    if !on || !T::IIDS[1..].contains(riid) {
        return None;
    }
    let f = cell.get_or_init(|| Ptr::new(make()));
    owner.add_ref();
    Some(f.as_iface())
}

/// IUnknown::QueryInterface of a facet.
///
/// # Safety
/// `this` a live facet pointer; `riid` null or a GUID; `ppv` null or writable.
pub unsafe extern "C" fn query_interface<T: Facet, I>(
    this: *mut I,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("QueryInterface", || {
        if ppv.is_null() {
            return Ok(E_POINTER);
        }
        // SAFETY: checked non-null.
        unsafe { *ppv = std::ptr::null_mut() };
        // SAFETY: COM This pointer; riid null or a GUID.
        let (Some(o), Some(riid)) = (unsafe { Object::<T>::from_this(this) }, unsafe { riid.as_ref() }) else {
            return Ok(E_POINTER);
        };
        let dev = o.inner.owner();
        let p = if T::IIDS[1..].contains(riid) {
            dev.add_ref();
            Some(o.as_iface::<c_void>())
        } else {
            dev.query(riid)
        };
        match p {
            Some(p) => {
                // SAFETY: checked non-null.
                unsafe { *ppv = p };
                Ok(S_OK)
            }
            None => Ok(E_NOINTERFACE),
        }
    })
}

/// IUnknown::AddRef of a facet: the owner's new count.
///
/// # Safety
/// `this` a live facet pointer.
pub unsafe extern "C" fn add_ref<T: Facet, I>(this: *mut I) -> ULONG {
    // SAFETY: COM This pointer.
    guard("AddRef", 0, || unsafe { Object::<T>::from_this(this) }.map_or(0, |o| o.inner.owner().add_ref()))
}

/// IUnknown::Release of a facet: the owner's new count (the owner, and with it the facet, is
/// freed at zero).
///
/// # Safety
/// `this` a live facet pointer on whose owner the caller holds a reference.
pub unsafe extern "C" fn release<T: Facet, I>(this: *mut I) -> ULONG {
    guard("Release", 0, || {
        // SAFETY: COM This pointer; the caller gives back one reference of the owner.
        unsafe { Object::<T>::from_this(this) }.map_or(0, |o| {
            let owner: *const Object<T::Owner> = o.inner.owner();
            // SAFETY: as above; nothing touches `o` afterwards.
            unsafe { Object::release(owner) }
        })
    })
}
