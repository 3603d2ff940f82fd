//! `libd3d12.so`: the exported Direct3D 12 entry points, nothing else. Each is a thin shell over
//! the runtime crate: argument checks at the edge, a panic guard, errors turned into HRESULTs.
//! Every export carries the symbol version VER_1 (see `d3d12.map`), like Microsoft's Linux
//! libd3d12.so.

use rd3d12::error::{guard_hr, Error};
use rd3d12_sys::*;
use std::ffi::c_void;

/// D3D12CreateDevice. A NULL adapter means the default adapter, the CPU adapter. A non-NULL
/// adapter must be an IDXCoreAdapter (from our libdxcore.so or any other DXCore) whose LUID is
/// the CPU adapter's: adapters are told apart by LUID, not by pointer (D3D12CreateDevice
/// remarks). A DXCore adapter with another LUID is one this runtime does not drive
/// (DXGI_ERROR_UNSUPPORTED); an object that is no adapter at all is E_INVALIDARG.
/// `ppDevice == NULL` asks whether creation would succeed: S_FALSE.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12createdevice>
///
/// # Safety
/// `riid` must be null or point at a GUID; `pp_device` null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12CreateDevice(
    adapter: *mut IUnknown,
    minimum_feature_level: D3D_FEATURE_LEVEL,
    riid: *const IID,
    pp_device: *mut *mut c_void,
) -> HRESULT {
    guard_hr("D3D12CreateDevice", || {
        if !pp_device.is_null() {
            // SAFETY: non-null out-pointer from the caller.
            unsafe { *pp_device = std::ptr::null_mut() };
            if riid.is_null() {
                return Err(Error::INVALID_ARG);
            }
        }
        // SAFETY: a non-null adapter is a live COM object (the caller's contract).
        unsafe { rd3d12::device::check_adapter(adapter)? };
        let dev = rd3d12::create_device(minimum_feature_level)?;
        // SAFETY: pointers as documented above.
        Ok(unsafe { rd3d12::device::hand_out_device(dev, riid, pp_device) })
    })
}

/// D3D12EnableExperimentalFeatures: D3D12ExperimentalShaderModels (no configuration struct)
/// is accepted, as Mesa's d3d12 driver requires; any other feature is unrecognized
/// (E_NOINTERFACE). Changing the enabled set removes the live device (d3d12.h).
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12enableexperimentalfeatures>
///
/// # Safety
/// `iids` must point at `num_features` GUIDs when `num_features > 0`.
#[no_mangle]
pub unsafe extern "C" fn D3D12EnableExperimentalFeatures(
    num_features: UINT,
    iids: *const IID,
    _configuration_structs: *mut c_void,
    _configuration_struct_sizes: *mut UINT,
) -> HRESULT {
    guard_hr("D3D12EnableExperimentalFeatures", || {
        if num_features == 0 {
            return rd3d12::device::enable_experimental_features(&[]).map(|()| S_OK);
        }
        if iids.is_null() {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: the caller passes `num_features` GUIDs.
        let iids = unsafe { std::slice::from_raw_parts(iids, num_features as usize) };
        rd3d12::device::enable_experimental_features(iids).map(|()| S_OK)
    })
}

/// D3D12GetInterface: CLSID_D3D12Debug gives the debug interfaces (as D3D12GetDebugInterface),
/// CLSID_D3D12DeviceFactory a new ID3D12DeviceFactory; the other classes (tools, DRED settings,
/// SDK configuration: there are no D3D12Core redistributables to select) are not offered, so
/// they give E_NOINTERFACE with `*ppv = NULL`.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12getinterface>
///
/// # Safety
/// `ppv` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12GetInterface(rclsid: *const GUID, riid: *const IID, ppv: *mut *mut c_void) -> HRESULT {
    guard_hr("D3D12GetInterface", || {
        if ppv.is_null() {
            return Err(Error::POINTER);
        }
        // SAFETY: non-null out-pointer from the caller.
        unsafe { *ppv = std::ptr::null_mut() };
        // SAFETY: null or GUIDs from the caller.
        let (Some(clsid), Some(_)) = (unsafe { rclsid.as_ref() }, unsafe { riid.as_ref() }) else {
            return Err(Error::INVALID_ARG);
        };
        if *clsid == CLSID_D3D12Debug {
            // SAFETY: `riid` is a GUID and `ppv` writable.
            return Ok(unsafe { rd3d12::debug::get_debug_interface(riid, ppv) });
        }
        // rd3d12's own: the heap registry of this copy of the runtime, for libdxcore's memory
        // budget (a private class id; see rd3d12::backend::heap_usage).
        if *clsid == rd3d12::backend::heap_usage::CLSID {
            // SAFETY: `ppv` is writable.
            unsafe { rd3d12::backend::heap_usage::get(ppv) };
            return Ok(S_OK);
        }
        if *clsid == CLSID_D3D12DeviceFactory {
            // SAFETY: `riid` is a GUID and `ppv` writable.
            return Ok(unsafe { rd3d12::com::hand_out(rd3d12::device_factory::DeviceFactory::new(), riid, ppv) });
        }
        Err(Error::NO_INTERFACE)
    })
}

/// D3D12GetDebugInterface: ID3D12Debug … ID3D12Debug6 (ID3D12Debug1 and ID3D12Debug2 as their
/// own objects). EnableDebugLayer turns the debug layer on for devices created afterwards
/// (`RD3D12_DEBUG=1` does the same without code changes).
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12getdebuginterface>
///
/// # Safety
/// `riid` null or a GUID; `ppv_debug` null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12GetDebugInterface(riid: *const IID, ppv_debug: *mut *mut c_void) -> HRESULT {
    // SAFETY: forwarded.
    unsafe { rd3d12::debug::get_debug_interface(riid, ppv_debug) }
}

/// D3D12SerializeRootSignature: serializes a 1.0 desc; `Version` must be
/// D3D_ROOT_SIGNATURE_VERSION_1_0. On success `*ppBlob` is the blob and `*ppErrorBlob` NULL; on
/// failure (E_INVALIDARG) `*ppErrorBlob` holds the reason as NUL-terminated text and `*ppBlob` is
/// left as it was.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12serializerootsignature>
///
/// # Safety
/// `root_signature` null or a valid desc; `pp_blob`, `pp_error_blob` null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12SerializeRootSignature(
    root_signature: *const D3D12_ROOT_SIGNATURE_DESC,
    version: D3D_ROOT_SIGNATURE_VERSION,
    pp_blob: *mut *mut ID3DBlob,
    pp_error_blob: *mut *mut ID3DBlob,
) -> HRESULT {
    // SAFETY: pointers as documented above.
    unsafe { rd3d12::root_signature::serialize_root_signature(root_signature, version, pp_blob, pp_error_blob) }
}

/// D3D12SerializeVersionedRootSignature: serializes a desc at its own version (1.0 or 1.1),
/// with the outputs of D3D12SerializeRootSignature.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12serializeversionedrootsignature>
///
/// # Safety
/// `root_signature` null or a valid versioned desc; `pp_blob`, `pp_error_blob` null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12SerializeVersionedRootSignature(
    root_signature: *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC,
    pp_blob: *mut *mut ID3DBlob,
    pp_error_blob: *mut *mut ID3DBlob,
) -> HRESULT {
    // SAFETY: pointers as documented above.
    unsafe { rd3d12::root_signature::serialize_versioned_root_signature(root_signature, pp_blob, pp_error_blob) }
}

/// D3D12CreateRootSignatureDeserializer: a deserializer whose GetRootSignatureDesc returns the
/// blob's desc as 1.0. Malformed blobs are E_INVALIDARG.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12createrootsignaturedeserializer>
///
/// # Safety
/// `src` null or `size` readable bytes; `riid` null or a GUID; `ppv` null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12CreateRootSignatureDeserializer(
    src: LPCVOID,
    size: SIZE_T,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: pointers as documented above.
    unsafe { rd3d12::root_signature::create_root_signature_deserializer(src, size, riid, ppv) }
}

/// D3D12CreateVersionedRootSignatureDeserializer: a deserializer that returns the blob's desc
/// at any supported version.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-d3d12createversionedrootsignaturedeserializer>
///
/// # Safety
/// `src` null or `size` readable bytes; `riid` null or a GUID; `ppv` null or writable.
#[no_mangle]
pub unsafe extern "C" fn D3D12CreateVersionedRootSignatureDeserializer(
    src: LPCVOID,
    size: SIZE_T,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: pointers as documented above.
    unsafe { rd3d12::root_signature::create_versioned_root_signature_deserializer(src, size, riid, ppv) }
}
