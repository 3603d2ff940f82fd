//! The device's binding methods: CreateRootSignature.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-createrootsignature>

use super::{null_out, Iface};
use crate::com::{hand_out, Object, Ptr};
use crate::device::Device;
use crate::error::{guard_hr, Error};
use crate::root_signature::RootSignature;
use rd3d12_sys::*;
use std::ffi::c_void;

/// ID3D12Device::CreateRootSignature (slot 16): `blob` is a serialized root signature or shader
/// bytecode holding an RTS0 part. A NULL or empty blob, a malformed container or checksum, an
/// invalid desc, or one the device cannot hold is E_INVALIDARG; `ppv == NULL` with a valid blob
/// is S_FALSE. NodeMask 0 means the single node, as does 1.
pub unsafe extern "C" fn create_root_signature(
    this: *mut Iface,
    node_mask: UINT,
    blob: *const c_void,
    len: SIZE_T,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateRootSignature", || {
        null_out(ppv);
        // SAFETY: COM This pointer.
        let device = unsafe { Object::<Device>::from_this(this) }.ok_or(Error::POINTER)?;
        device.inner.check_alive()?;
        if node_mask > 1 || blob.is_null() || len == 0 {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: the caller passes `len` readable bytes at `blob`.
        let bytes = unsafe { std::slice::from_raw_parts(blob as *const u8, len) };
        let rs = RootSignature::create(Ptr::from_ref(device), bytes)?;
        // SAFETY: `riid` null or a GUID, `ppv` null or writable, per the method's contract.
        Ok(unsafe { hand_out(rs, riid, ppv) })
    })
}
