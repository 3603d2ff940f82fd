//! The device's pipeline methods: CreateGraphicsPipelineState, CreateComputePipelineState,
//! CreatePipelineState (ID3D12Device2), CreatePipelineLibrary (ID3D12Device1) and
//! CreateCommandSignature.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-creategraphicspipelinestate>

use super::{null_out, Iface};
use crate::com::{hand_out, Class, Object, Ptr};
use crate::command_signature::CommandSignature;
use crate::device::Device;
use crate::error::{guard_hr, Error, Result};
use crate::pipeline_library::PipelineLibrary;
use crate::pipeline_state::{stream_desc, to_error, CallerMemory, PipelineState};
use rd3d12_core::pipeline;
use rd3d12_sys::*;
use std::ffi::c_void;

/// Runs a Create* body: `*ppv` is NULL on failure; `ppv == NULL` with valid arguments is S_FALSE
/// (the object is made and released).
///
/// # Safety
/// `this` null or our live device pointer; `riid`/`ppv` as for [`hand_out`].
unsafe fn create<T: Class>(
    name: &str,
    this: *mut Iface,
    riid: *const IID,
    ppv: *mut *mut c_void,
    f: impl FnOnce(Ptr<Device>) -> Result<Ptr<T>>,
) -> HRESULT {
    guard_hr(name, || {
        null_out(ppv);
        // SAFETY: COM This pointer.
        let d = unsafe { Object::<Device>::from_this(this) }.ok_or(Error::POINTER)?;
        d.inner.check_alive()?;
        let obj = f(Ptr::from_ref(d))?;
        // SAFETY: forwarded.
        Ok(unsafe { hand_out(obj, riid, ppv) })
    })
}

/// ID3D12Device::CreateGraphicsPipelineState (slot 10).
pub unsafe extern "C" fn create_graphics_pipeline_state(
    this: *mut Iface,
    desc: *const D3D12_GRAPHICS_PIPELINE_STATE_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded; `desc` null or a description whose pointers are valid (COM contract).
    unsafe {
        create("CreateGraphicsPipelineState", this, riid, ppv, |dev| {
            let d = desc.as_ref().ok_or(Error::INVALID_ARG)?;
            let d = pipeline::from_graphics_desc(d, &CallerMemory).map_err(to_error)?;
            PipelineState::create(dev, &d)
        })
    }
}

/// ID3D12Device::CreateComputePipelineState (slot 11).
pub unsafe extern "C" fn create_compute_pipeline_state(
    this: *mut Iface,
    desc: *const D3D12_COMPUTE_PIPELINE_STATE_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: as above.
    unsafe {
        create("CreateComputePipelineState", this, riid, ppv, |dev| {
            let d = desc.as_ref().ok_or(Error::INVALID_ARG)?;
            let d = pipeline::from_compute_desc(d, &CallerMemory).map_err(to_error)?;
            PipelineState::create(dev, &d)
        })
    }
}

/// ID3D12Device2::CreatePipelineState: a subobject stream.
pub unsafe extern "C" fn create_pipeline_state(
    this: *mut Iface,
    desc: *const D3D12_PIPELINE_STATE_STREAM_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: as above; the stream holds SizeInBytes readable bytes.
    unsafe { create("CreatePipelineState", this, riid, ppv, |dev| PipelineState::create(dev, &stream_desc(desc)?)) }
}

/// ID3D12Device1::CreatePipelineLibrary: a zero length means an empty library (the pointer may
/// then be NULL); otherwise the blob must be readable.
pub unsafe extern "C" fn create_pipeline_library(
    this: *mut Iface,
    blob: *const c_void,
    len: SIZE_T,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: as above; `blob` holds `len` readable bytes.
    unsafe {
        create("CreatePipelineLibrary", this, riid, ppv, |dev| {
            let bytes: &[u8] = match (len, blob.is_null()) {
                (0, _) => &[],
                (_, true) => return Err(Error::INVALID_ARG),
                _ => std::slice::from_raw_parts(blob as *const u8, len),
            };
            PipelineLibrary::create(dev, bytes)
        })
    }
}

/// ID3D12Device::CreateCommandSignature (slot 41).
pub unsafe extern "C" fn create_command_signature(
    this: *mut Iface,
    desc: *const D3D12_COMMAND_SIGNATURE_DESC,
    root: *mut ID3D12RootSignature,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: as above.
    unsafe {
        create("CreateCommandSignature", this, riid, ppv, |dev| {
            let d = desc.as_ref().ok_or(Error::INVALID_ARG)?;
            CommandSignature::create(dev, d, root)
        })
    }
}
