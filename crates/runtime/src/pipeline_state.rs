//! ID3D12PipelineState: an immutable, validated pipeline ([`rd3d12_core::pipeline`] holds the
//! rules). GetCachedBlob returns the pipeline's canonical encoding sealed with the adapter's and
//! this runtime's identity, which a later Create*PipelineState accepts as CachedPSO.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12pipelinestate>

use crate::blob::Blob;
use crate::com::{Child, Class, Object, Ptr, WeakSlot};
use crate::device::Device;
use crate::error::{guard_hr, Error, Message, Result};
use crate::features;
use crate::root_signature::RootSignature;
use crate::work::pipeline::Executable;
use rd3d12_core::pipeline::cache::{self, Identity};
use rd3d12_core::pipeline::{
    self, stream, Limits, NotARootSignature, PipelineDesc, PsoError, Resolver, RootSignatureInfo,
};
use rd3d12_core::shader::ShaderModel;
use rd3d12_sys::*;
use std::ffi::{c_void, CStr};
use std::sync::Arc;

/// A core pipeline error as the Error the COM edge reports.
pub fn to_error(e: PsoError) -> Error {
    Error {
        hr: e.hr,
        message: Some(Message {
            id: D3D12_MESSAGE_ID(e.id.0),
            category: D3D12_MESSAGE_CATEGORY_STATE_CREATION,
            severity: D3D12_MESSAGE_SEVERITY_ERROR,
            text: e.message.into(),
        }),
    }
}

/// The caller's memory, read through the pointers of a description. COM's contract makes the
/// caller responsible for them: every non-null pointer designates what its field says.
pub struct CallerMemory;

impl Resolver for CallerMemory {
    fn bytes(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        if addr == 0 {
            return None;
        }
        // SAFETY: a non-null pointer from the caller's description, to `len` readable bytes.
        Some(unsafe { std::slice::from_raw_parts(addr as usize as *const u8, len) }.to_vec())
    }

    fn cstr(&self, addr: u64) -> Option<Vec<u8>> {
        if addr == 0 {
            return None;
        }
        // SAFETY: a non-null pointer from the caller's description, to a NUL-terminated string.
        Some(unsafe { CStr::from_ptr(addr as usize as *const std::ffi::c_char) }.to_bytes().to_vec())
    }

    fn root_signature(&self, addr: u64) -> std::result::Result<Option<RootSignatureInfo>, NotARootSignature> {
        if addr == 0 {
            return Ok(None);
        }
        // SAFETY: a non-null interface pointer from the caller; recognised by its vtable.
        let rs =
            unsafe { RootSignature::from_iface(addr as usize as *mut ID3D12RootSignature) }.ok_or(NotARootSignature)?;
        Ok(Some(root_signature_info(&rs.inner)))
    }
}

/// What pipelines and command signatures need of a root signature object.
pub fn root_signature_info(rs: &RootSignature) -> RootSignatureInfo {
    RootSignatureInfo::new(rs.desc())
}

/// The shaders of a pipeline as RD3D12_LOG=info names them: "CS DXBC cs_5_0", one a slot.
fn shader_list(p: &rd3d12_core::pipeline::Pipeline) -> String {
    use rd3d12_core::shader::Bytecode;
    let one = |(slot, s): &(rd3d12_core::pipeline::Slot, rd3d12_core::shader::Shader)| {
        let code = match s.bytecode {
            Bytecode::Dxbc => "DXBC",
            Bytecode::Dxil => "DXIL",
        };
        format!("{} {code} {}_{}_{}", slot.name(), s.stage.profile(), s.model.major, s.model.minor)
    };
    p.shaders.iter().map(one).collect::<Vec<_>>().join(", ")
}

/// Reads one feature struct through the device's own CheckFeatureSupport, so that validation
/// follows exactly what the device reports.
fn feature<T: Default>(device: &Device, f: D3D12_FEATURE) -> T {
    let mut v = T::default();
    // SAFETY: `v` is the feature's struct and the size passed is its size.
    let _ = unsafe { device.check_feature_support(f, &mut v as *mut T as *mut c_void, size_of::<T>() as u32) };
    v
}

/// The device's answers that pipeline validation depends on.
pub fn limits(device: &Device) -> Limits {
    let o: D3D12_FEATURE_DATA_D3D12_OPTIONS = feature(device, D3D12_FEATURE_D3D12_OPTIONS);
    let o2: D3D12_FEATURE_DATA_D3D12_OPTIONS2 = feature(device, D3D12_FEATURE_D3D12_OPTIONS2);
    let o3: D3D12_FEATURE_DATA_D3D12_OPTIONS3 = feature(device, D3D12_FEATURE_D3D12_OPTIONS3);
    let o7: D3D12_FEATURE_DATA_D3D12_OPTIONS7 = feature(device, D3D12_FEATURE_D3D12_OPTIONS7);
    let o14: D3D12_FEATURE_DATA_D3D12_OPTIONS14 = feature(device, D3D12_FEATURE_D3D12_OPTIONS14);
    // Shaders above the reported model are refused, as a driver that reports 5.1 refuses DXIL.
    let mut l = Limits::new(*device.caps(), ShaderModel::from_d3d_value(device.shader_model().0));
    // Experimental shader models (enabled for the device) let unsigned DXIL through, as on Windows.
    l.allow_unsigned_dxil = device.config().experimental_shader_models();
    l.logic_op = o.OutputMergerLogicOp != 0;
    l.conservative_raster_tier = o.ConservativeRasterizationTier.0;
    l.depth_bounds = o2.DepthBoundsTestSupported != 0;
    l.view_instancing_tier = o3.ViewInstancingTier.0;
    l.mesh_shaders = o7.MeshShaderTier != D3D12_MESH_SHADER_TIER_NOT_SUPPORTED;
    l.independent_stencil_masks = o14.IndependentFrontAndBackStencilRefMaskSupported != 0;
    l.node_count = features::NODE_COUNT;
    l.root_signature = crate::root_signature::device_limits(device);
    l
}

/// Who wrote a cached blob or library: the adapter (its description and architecture, stable
/// across processes, unlike the LUID) and this build of the runtime.
pub fn identity(device: &Device) -> Identity {
    let arch = device.backend().architecture();
    let adapter = format!("{} {:?}", device.backend().description(), arch);
    let driver = format!("rd3d12 {} pipeline format {}", env!("CARGO_PKG_VERSION"), cache::FORMAT_VERSION);
    Identity::new(&adapter, &driver)
}

/// A D3D12_PIPELINE_STATE_STREAM_DESC read into a description.
///
/// # Safety
/// `desc` null or a stream description whose stream holds SizeInBytes readable bytes.
pub unsafe fn stream_desc(desc: *const D3D12_PIPELINE_STATE_STREAM_DESC) -> Result<PipelineDesc> {
    // SAFETY: forwarded.
    let d = unsafe { desc.as_ref() }.ok_or(Error::INVALID_ARG)?;
    let bytes: &[u8] = if d.SizeInBytes == 0 {
        &[]
    } else if d.pPipelineStateSubobjectStream.is_null() {
        return Err(to_error(PsoError::invalid(
            D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM,
            "pPipelineStateSubobjectStream is NULL",
        )));
    } else {
        // SAFETY: the caller passes SizeInBytes readable bytes.
        unsafe { std::slice::from_raw_parts(d.pPipelineStateSubobjectStream as *const u8, d.SizeInBytes) }
    };
    stream::from_stream(bytes, &CallerMemory).map_err(to_error)
}

pub struct PipelineState {
    device: Ptr<Device>,
    /// The validated pipeline (parsed shaders, root signature, canonical encoding) and its
    /// programs, shared with the draws and dispatches recorded with it.
    pub pipeline: Arc<Executable>,
    /// The pipeline library's record of this object when a Load method made it: loading the
    /// same name again hands out this object while it lives (cleared on drop).
    library_slot: Option<Arc<WeakSlot<PipelineState>>>,
}

impl Drop for PipelineState {
    fn drop(&mut self) {
        if let Some(slot) = &self.library_slot {
            slot.clear(self);
        }
    }
}

impl PipelineState {
    /// Create*PipelineState after the description was read: validates it, checks a CachedPSO
    /// against it, and makes the object.
    pub fn create(device: Ptr<Device>, desc: &PipelineDesc) -> Result<Ptr<PipelineState>> {
        let p = Self::validate(&device, desc)?;
        Ok(Self::make(device, p, None))
    }

    /// The checks of Create*PipelineState: the description, its CachedPSO, then whether the
    /// CPU backend executes its shaders.
    pub fn validate(device: &Ptr<Device>, desc: &PipelineDesc) -> Result<Executable> {
        device.inner.check_alive()?;
        let p = pipeline::validate(desc, &limits(&device.inner)).map_err(to_error)?;
        if let Some(blob) = &desc.cached_blob {
            cache::check_cached_blob(blob, &p.canonical, &identity(&device.inner)).map_err(to_error)?;
        }
        let shaders = crate::debug::log_enabled(crate::debug::Level::Info).then(|| shader_list(&p));
        // The DXIL programs are read and checked to execute here, at creation.
        let e = device.inner.backend().compile(p).map_err(to_error);
        if let Some(list) = shaders {
            // Which bytecode a program hands over (DirectML's DXBC or DXIL path, say), and whether
            // it runs; a refusal's reason follows from the guard.
            eprintln!("rd3d12: pipeline {list}: {}", if e.is_ok() { "created" } else { "refused" });
        }
        e
    }

    /// The object of a validated pipeline; `library_slot` is the library record it clears when
    /// it dies.
    pub fn make(
        device: Ptr<Device>,
        e: Executable,
        library_slot: Option<Arc<WeakSlot<PipelineState>>>,
    ) -> Ptr<PipelineState> {
        Ptr::new(PipelineState { device, pipeline: Arc::new(e), library_slot })
    }

    /// The PSO behind an interface pointer the caller passed, if it is one of ours.
    ///
    /// # Safety
    /// `p` must be null or a live COM interface pointer.
    pub unsafe fn from_iface<'a>(p: *mut ID3D12PipelineState) -> Option<&'a Object<PipelineState>> {
        // SAFETY: forwarded.
        unsafe { crate::com::downcast::<PipelineState, _>(p) }
    }
}

type Iface = ID3D12PipelineState;

// SAFETY: PIPELINE_STATE_VTBL's slots all take an Object<PipelineState>.
unsafe impl Class for PipelineState {
    type Vtbl = ID3D12PipelineStateVtbl;
    const VTBL: &'static ID3D12PipelineStateVtbl = &PIPELINE_STATE_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12PipelineState];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12PipelineState", D3D12_MESSAGE_ID_LIVE_PIPELINESTATE));
}

impl Child for PipelineState {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// ID3D12PipelineState::GetCachedBlob: a new ID3DBlob with the serialized pipeline. A NULL
/// `ppBlob` is E_INVALIDARG.
///
/// <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12pipelinestate-getcachedblob>
unsafe extern "C" fn get_cached_blob(this: *mut Iface, pp_blob: *mut *mut ID3DBlob) -> HRESULT {
    guard_hr("GetCachedBlob", || {
        // SAFETY: COM This pointer.
        let pso = unsafe { Object::<PipelineState>::from_this(this) }.ok_or(Error::POINTER)?;
        // SAFETY: checked for null; the caller passes writable storage for one pointer.
        let out = unsafe { pp_blob.as_mut() }.ok_or(Error::INVALID_ARG)?;
        let bytes = cache::cached_blob(&pso.inner.pipeline.canonical, &identity(&pso.inner.device.inner));
        *out = Blob::into_raw(Blob::new(&bytes));
        Ok(S_OK)
    })
}

static PIPELINE_STATE_VTBL: ID3D12PipelineStateVtbl =
    crate::child_vtbl!(ID3D12PipelineStateVtbl, PipelineState, Iface { GetCachedBlob: get_cached_blob });

#[cfg(test)]
mod tests;
