//! ID3D12PipelineLibrary / ID3D12PipelineLibrary1: named pipelines that serialize together.
//!
//! An entry is a name and the canonical encoding of the pipeline stored under it
//! ([`rd3d12_core::pipeline::cache`]); loading re-creates the pipeline from the caller's
//! description after checking that the description is the one stored. Loading a name again
//! while the object it gave is alive hands out that same object (one more reference), as on
//! Windows; the library itself holds no reference, so the count the caller sees is its own. The
//! blob handed to CreatePipelineLibrary is copied, so it need not outlive the library.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12pipelinelibrary1>

use crate::com::{hand_out, Child, Class, Object, Ptr, WeakSlot};
use crate::device::{null_out, Device};
use crate::error::{guard, guard_hr, Error, Result};
use crate::pipeline_state::{identity, stream_desc, to_error, CallerMemory, PipelineState};
use rd3d12_core::pipeline::cache::{self, LibraryEntry};
use rd3d12_core::pipeline::{self, PipelineDesc, PsoError};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

/// A name and the record of the live object a Load method made for it.
type Loaded = (Vec<u32>, Arc<WeakSlot<PipelineState>>);

pub struct PipelineLibrary {
    device: Ptr<Device>,
    entries: Mutex<Vec<LibraryEntry>>,
    loaded: Mutex<Vec<Loaded>>,
}

fn invalid(id: D3D12_MESSAGE_ID, text: impl Into<String>) -> Error {
    crate::pipeline_state::to_error(PsoError::invalid(id, text))
}

impl PipelineLibrary {
    /// CreatePipelineLibrary: an empty blob gives an empty library; anything else must be a
    /// library this adapter and runtime serialized.
    pub fn create(device: Ptr<Device>, blob: &[u8]) -> Result<Ptr<PipelineLibrary>> {
        device.inner.check_alive()?;
        let entries = cache::parse_library(blob, &identity(&device.inner)).map_err(to_error)?;
        Ok(Ptr::new(PipelineLibrary { device, entries: Mutex::new(entries), loaded: Mutex::default() }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<LibraryEntry>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn store(&self, name: Vec<u32>, pso: &PipelineState) -> Result<()> {
        let mut e = self.lock();
        if e.iter().any(|(n, _)| *n == name) {
            return Err(invalid(
                D3D12_MESSAGE_ID_STOREPIPELINE_DUPLICATENAME,
                "a pipeline with this name is already stored",
            ));
        }
        e.push((name, pso.pipeline.canonical.clone()));
        Ok(())
    }

    /// The pipeline `desc` describes, if it is the one stored under `name`: the object an
    /// earlier load of the name made while it lives, else a new one.
    fn load(&self, name: &[u32], desc: &PipelineDesc) -> Result<Ptr<PipelineState>> {
        let stored = self.lock().iter().find(|(n, _)| n == name).map(|(_, enc)| enc.clone()).ok_or_else(|| {
            invalid(D3D12_MESSAGE_ID_LOADPIPELINE_NAMENOTFOUND, "no pipeline is stored under this name")
        })?;
        let p = PipelineState::validate(&self.device, desc)?;
        if p.canonical != stored {
            return Err(invalid(
                D3D12_MESSAGE_ID_LOADPIPELINE_INVALIDDESC,
                "the description differs from the pipeline stored under this name",
            ));
        }
        let slot = {
            let mut loaded = self.loaded.lock().unwrap_or_else(|e| e.into_inner());
            match loaded.iter().find(|(n, _)| n == name) {
                Some((_, s)) => s.clone(),
                None => {
                    let s = Arc::new(WeakSlot::new());
                    loaded.push((name.to_vec(), s.clone()));
                    s
                }
            }
        };
        Ok(slot.get_or_make(|| PipelineState::make(self.device.clone(), p, Some(slot.clone()))))
    }

    fn serialized(&self) -> Vec<u8> {
        cache::serialize_library(&self.lock(), &identity(&self.device.inner))
    }
}

type Iface = ID3D12PipelineLibrary1;

// SAFETY: PIPELINE_LIBRARY_VTBL's slots all take an Object<PipelineLibrary>.
unsafe impl Class for PipelineLibrary {
    type Vtbl = ID3D12PipelineLibrary1Vtbl;
    const VTBL: &'static ID3D12PipelineLibrary1Vtbl = &PIPELINE_LIBRARY_VTBL;
    /// Not ID3D12Pageable: the interface derives from ID3D12DeviceChild.
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12PipelineLibrary, IID_ID3D12PipelineLibrary1];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12PipelineLibrary", D3D12_MESSAGE_ID_LIVE_PIPELINELIBRARY));
}

impl Child for PipelineLibrary {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live library pointers.
unsafe fn lib<'a>(this: *mut Iface) -> Result<&'a PipelineLibrary> {
    // SAFETY: forwarded.
    unsafe { Object::<PipelineLibrary>::from_this(this) }.map(|o| &o.inner).ok_or(Error::POINTER)
}

/// The code units of a NUL-terminated wide string (wchar_t is 4 bytes on Linux).
///
/// # Safety
/// `name` null or a NUL-terminated wide string.
unsafe fn wide(name: LPCWSTR, missing: D3D12_MESSAGE_ID) -> Result<Vec<u32>> {
    if name.is_null() {
        return Err(invalid(missing, "pName is NULL"));
    }
    let mut out = Vec::new();
    // SAFETY: read up to and excluding the terminator, per the method's contract.
    while unsafe { *name.add(out.len()) } != 0 {
        out.push(unsafe { *name.add(out.len()) } as u32);
    }
    Ok(out)
}

/// ID3D12PipelineLibrary::StorePipeline: E_INVALIDARG for a NULL name, a name already stored
/// (overwriting is not supported) or a pipeline that is not ours.
unsafe extern "C" fn store_pipeline(this: *mut Iface, name: LPCWSTR, pso: *mut ID3D12PipelineState) -> HRESULT {
    guard_hr("StorePipeline", || {
        // SAFETY: COM This pointer, the caller's string and interface pointer.
        let l = unsafe { lib(this)? };
        let name = unsafe { wide(name, D3D12_MESSAGE_ID_STOREPIPELINE_NONAME)? };
        let pso = unsafe { PipelineState::from_iface(pso) }.ok_or(Error::INVALID_ARG)?;
        l.store(name, &pso.inner)?;
        Ok(S_OK)
    })
}

/// The shared body of the three Load methods.
///
/// # Safety
/// As the Load methods.
unsafe fn load(
    what: &str,
    this: *mut Iface,
    name: LPCWSTR,
    riid: *const IID,
    ppv: *mut *mut c_void,
    desc: impl FnOnce() -> Result<PipelineDesc>,
) -> HRESULT {
    guard_hr(what, || {
        null_out(ppv);
        // SAFETY: COM This pointer and the caller's string.
        let l = unsafe { lib(this)? };
        let name = unsafe { wide(name, D3D12_MESSAGE_ID_LOADPIPELINE_NAMENOTFOUND)? };
        let pso = l.load(&name, &desc()?)?;
        // SAFETY: forwarded.
        Ok(unsafe { hand_out(pso, riid, ppv) })
    })
}

/// ID3D12PipelineLibrary::LoadGraphicsPipeline: E_INVALIDARG when the name is not stored or
/// the description is not the stored one.
unsafe extern "C" fn load_graphics_pipeline(
    this: *mut Iface,
    name: LPCWSTR,
    desc: *const D3D12_GRAPHICS_PIPELINE_STATE_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded; `desc` null or a description.
    unsafe {
        load("LoadGraphicsPipeline", this, name, riid, ppv, || {
            let d = desc.as_ref().ok_or(Error::INVALID_ARG)?;
            pipeline::from_graphics_desc(d, &CallerMemory).map_err(to_error)
        })
    }
}

/// ID3D12PipelineLibrary::LoadComputePipeline.
unsafe extern "C" fn load_compute_pipeline(
    this: *mut Iface,
    name: LPCWSTR,
    desc: *const D3D12_COMPUTE_PIPELINE_STATE_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded; `desc` null or a description.
    unsafe {
        load("LoadComputePipeline", this, name, riid, ppv, || {
            let d = desc.as_ref().ok_or(Error::INVALID_ARG)?;
            pipeline::from_compute_desc(d, &CallerMemory).map_err(to_error)
        })
    }
}

/// ID3D12PipelineLibrary1::LoadPipeline.
unsafe extern "C" fn load_pipeline(
    this: *mut Iface,
    name: LPCWSTR,
    desc: *const D3D12_PIPELINE_STATE_STREAM_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded; `desc` null or a stream description.
    unsafe { load("LoadPipeline", this, name, riid, ppv, || stream_desc(desc)) }
}

/// ID3D12PipelineLibrary::GetSerializedSize.
unsafe extern "C" fn get_serialized_size(this: *mut Iface) -> SIZE_T {
    // SAFETY: COM This pointer.
    guard("GetSerializedSize", 0, || unsafe { lib(this) }.map_or(0, |l| cache::serialized_library_size(&l.lock())))
}

/// ID3D12PipelineLibrary::Serialize: E_INVALIDARG for a NULL buffer or one smaller than
/// GetSerializedSize.
unsafe extern "C" fn serialize(this: *mut Iface, data: *mut c_void, size: SIZE_T) -> HRESULT {
    guard_hr("Serialize", || {
        // SAFETY: COM This pointer.
        let l = unsafe { lib(this)? };
        if data.is_null() {
            return Err(Error::INVALID_ARG);
        }
        let bytes = l.serialized();
        if size < bytes.len() {
            return Err(invalid(
                D3D12_MESSAGE_ID_PIPELINELIBRARY_SERIALIZE_NOTENOUGHMEMORY,
                format!("the buffer holds {size} bytes; the library needs {}", bytes.len()),
            ));
        }
        // SAFETY: the caller passes `size` writable bytes (at least bytes.len()).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), data as *mut u8, bytes.len()) };
        Ok(S_OK)
    })
}

static PIPELINE_LIBRARY_VTBL: ID3D12PipelineLibrary1Vtbl = crate::child_vtbl!(
    ID3D12PipelineLibrary1Vtbl,
    PipelineLibrary,
    Iface {
        StorePipeline: store_pipeline,
        LoadGraphicsPipeline: load_graphics_pipeline,
        LoadComputePipeline: load_compute_pipeline,
        GetSerializedSize: get_serialized_size,
        Serialize: serialize,
        LoadPipeline: load_pipeline,
    }
);
