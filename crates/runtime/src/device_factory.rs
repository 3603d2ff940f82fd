//! ID3D12DeviceFactory (D3D12GetInterface(CLSID_D3D12DeviceFactory)) and
//! ID3D12DeviceConfiguration, after Microsoft's "D3D12 Independent Devices" spec.
//!
//! A factory holds its own configuration (flags, debug settings, experimental features), which
//! starts blank, can be copied from and to the process-wide configuration
//! (InitializeFromGlobalState / ApplyToGlobalState), and is what CreateDevice asks for. The CPU
//! adapter keeps one device per process, so CreateDevice follows the spec's rules for a driver
//! without independent devices ([`crate::device::create_device_from_factory`]).
//! ID3D12DeviceConfiguration is a face of the factory and of every device, reporting the
//! configuration and offering the root-signature exports.
//!
//! <https://microsoft.github.io/DirectX-Specs/d3d/IndependentDevices.html>
#![allow(clippy::missing_safety_doc)]

use crate::com::facet::{self, Facet};
use crate::com::{self, Class, Object, Ptr};
use crate::debug::{DebugSettings, Scope};
use crate::device::{Device, DeviceConfig};
use crate::error::{guard, guard_hr, Error, Result};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

pub struct DeviceFactory {
    flags: Mutex<D3D12_DEVICE_FACTORY_FLAGS>,
    /// Shared with the ID3D12Debug objects its GetConfigurationInterface hands out.
    debug: Arc<Mutex<DebugSettings>>,
    experimental: Mutex<Vec<GUID>>,
    configuration: OnceLock<Ptr<Configuration<DeviceFactory>>>,
}

impl DeviceFactory {
    /// A factory in the blank state: no flags, no debug layer, no experimental features.
    pub fn new() -> Ptr<DeviceFactory> {
        Ptr::new(DeviceFactory {
            flags: Mutex::new(D3D12_DEVICE_FACTORY_FLAG_NONE),
            debug: Arc::default(),
            experimental: Mutex::default(),
            configuration: OnceLock::new(),
        })
    }

    fn config(&self) -> DeviceConfig {
        DeviceConfig {
            debug: *self.debug.lock().unwrap_or_else(|e| e.into_inner()),
            experimental: self.experimental.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }
}

// SAFETY: FACTORY_VTBL's slots all take an Object<DeviceFactory>.
unsafe impl Class for DeviceFactory {
    type Vtbl = ID3D12DeviceFactoryVtbl;
    const VTBL: &'static ID3D12DeviceFactoryVtbl = &FACTORY_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12DeviceFactory];
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut c_void> {
        facet::hand_out(obj, true, &obj.inner.configuration, riid, || Configuration::new(obj))
    }
}

unsafe fn factory<'a>(this: *mut ID3D12DeviceFactory) -> Result<&'a Object<DeviceFactory>> {
    // SAFETY: COM This pointer.
    unsafe { Object::from_this(this) }.ok_or(Error::POINTER)
}

/// InitializeFromGlobalState: the process-wide debug settings and experimental features.
unsafe extern "C" fn initialize_from_global_state(this: *mut ID3D12DeviceFactory) -> HRESULT {
    guard_hr("ID3D12DeviceFactory::InitializeFromGlobalState", || {
        // SAFETY: COM This pointer.
        let f = unsafe { factory(this)? };
        let g = DeviceConfig::global();
        *f.inner.debug.lock().unwrap_or_else(|e| e.into_inner()) = g.debug;
        *f.inner.experimental.lock().unwrap_or_else(|e| e.into_inner()) = g.experimental;
        Ok(S_OK)
    })
}

/// ApplyToGlobalState: replays the factory's settings on the process-wide switches, with their
/// usual effects (a new experimental set or the layer turned on removes the live device).
unsafe extern "C" fn apply_to_global_state(this: *mut ID3D12DeviceFactory) -> HRESULT {
    guard_hr("ID3D12DeviceFactory::ApplyToGlobalState", || {
        // SAFETY: COM This pointer.
        let c = unsafe { factory(this)? }.inner.config();
        let before = crate::debug::global_settings();
        crate::debug::set_global_settings(c.debug, c.debug.layer && !before.layer);
        crate::device::enable_experimental_features(&c.experimental)?;
        Ok(S_OK)
    })
}

unsafe extern "C" fn set_flags(this: *mut ID3D12DeviceFactory, flags: D3D12_DEVICE_FACTORY_FLAGS) -> HRESULT {
    guard_hr("ID3D12DeviceFactory::SetFlags", || {
        // SAFETY: COM This pointer.
        let f = unsafe { factory(this)? };
        if !crate::device::valid_factory_flags(flags) {
            return Err(Error::INVALID_ARG);
        }
        *f.inner.flags.lock().unwrap_or_else(|e| e.into_inner()) = flags;
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_flags(this: *mut ID3D12DeviceFactory) -> D3D12_DEVICE_FACTORY_FLAGS {
    guard("ID3D12DeviceFactory::GetFlags", D3D12_DEVICE_FACTORY_FLAG_NONE, || {
        // SAFETY: COM This pointer.
        unsafe { factory(this) }
            .map_or(D3D12_DEVICE_FACTORY_FLAG_NONE, |f| *f.inner.flags.lock().unwrap_or_else(|e| e.into_inner()))
    })
}

/// GetConfigurationInterface: CLSID_D3D12Debug gives debug interfaces whose settings are this
/// factory's; the tools and DRED classes are not offered (as by D3D12GetInterface).
unsafe extern "C" fn get_configuration_interface(
    this: *mut ID3D12DeviceFactory,
    clsid: *const GUID,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("ID3D12DeviceFactory::GetConfigurationInterface", || {
        // SAFETY: COM This pointer.
        let f = unsafe { factory(this)? };
        if ppv.is_null() {
            return Err(Error::POINTER);
        }
        // SAFETY: non-null out-pointer; clsid and riid null or GUIDs.
        unsafe { *ppv = std::ptr::null_mut() };
        let (Some(clsid), Some(riid)) = (unsafe { clsid.as_ref() }, unsafe { riid.as_ref() }) else {
            return Err(Error::INVALID_ARG);
        };
        if *clsid != CLSID_D3D12Debug {
            return Err(Error::NO_INTERFACE);
        }
        let p =
            crate::debug::debug_interface_in(riid, Scope::Factory(f.inner.debug.clone())).ok_or(Error::NO_INTERFACE)?;
        // SAFETY: non-null out-pointer.
        unsafe { *ppv = p };
        Ok(S_OK)
    })
}

/// EnableExperimentalFeatures: as the export, for this factory's next devices only.
unsafe extern "C" fn factory_enable_experimental_features(
    this: *mut ID3D12DeviceFactory,
    n: UINT,
    iids: *const IID,
    _structs: *mut c_void,
    _sizes: *mut UINT,
) -> HRESULT {
    guard_hr("ID3D12DeviceFactory::EnableExperimentalFeatures", || {
        // SAFETY: COM This pointer.
        let f = unsafe { factory(this)? };
        let list = if n == 0 {
            Vec::new()
        } else if iids.is_null() {
            return Err(Error::INVALID_ARG);
        } else {
            // SAFETY: the caller passes `n` GUIDs.
            crate::device::known_experimental_features(unsafe { std::slice::from_raw_parts(iids, n as usize) })?
        };
        *f.inner.experimental.lock().unwrap_or_else(|e| e.into_inner()) = list;
        Ok(S_OK)
    })
}

/// CreateDevice: the adapter as D3D12CreateDevice takes it, then the factory's flags decide
/// between the process's existing device and a new one.
unsafe extern "C" fn create_device(
    this: *mut ID3D12DeviceFactory,
    adapter: *mut IUnknown,
    level: D3D_FEATURE_LEVEL,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("ID3D12DeviceFactory::CreateDevice", || {
        // SAFETY: COM This pointer.
        let f = unsafe { factory(this)? };
        if !ppv.is_null() {
            // SAFETY: non-null out-pointer.
            unsafe { *ppv = std::ptr::null_mut() };
            if riid.is_null() {
                return Err(Error::INVALID_ARG);
            }
        }
        // SAFETY: the adapter is null or a live COM object.
        unsafe { crate::device::check_adapter(adapter)? };
        let flags = *f.inner.flags.lock().unwrap_or_else(|e| e.into_inner());
        let dev = crate::device::create_device_from_factory(level, &f.inner.config(), flags)?;
        // SAFETY: pointers as the method's contract.
        Ok(unsafe { crate::device::hand_out_device(dev, riid, ppv) })
    })
}

static FACTORY_VTBL: ID3D12DeviceFactoryVtbl = ID3D12DeviceFactoryVtbl {
    QueryInterface: Some(com::thunks::query_interface::<DeviceFactory, ID3D12DeviceFactory>),
    AddRef: Some(com::thunks::add_ref::<DeviceFactory, ID3D12DeviceFactory>),
    Release: Some(com::thunks::release::<DeviceFactory, ID3D12DeviceFactory>),
    InitializeFromGlobalState: Some(initialize_from_global_state),
    ApplyToGlobalState: Some(apply_to_global_state),
    SetFlags: Some(set_flags),
    GetFlags: Some(get_flags),
    GetConfigurationInterface: Some(get_configuration_interface),
    EnableExperimentalFeatures: Some(factory_enable_experimental_features),
    CreateDevice: Some(create_device),
};

// ---- ID3D12DeviceConfiguration -------------------------------------------------------------

/// An object whose configuration ID3D12DeviceConfiguration reports: a device or a factory.
pub trait Configured: Class {
    fn device_config(&self) -> DeviceConfig;
}

impl Configured for Device {
    fn device_config(&self) -> DeviceConfig {
        self.config().clone()
    }
}

impl Configured for DeviceFactory {
    fn device_config(&self) -> DeviceConfig {
        self.config()
    }
}

/// The ID3D12DeviceConfiguration face of a device or factory (sharing its identity).
pub struct Configuration<O: Configured> {
    owner: *const Object<O>,
}

// SAFETY: the owner pointer is only used for reference counting, QueryInterface and reading its
// configuration, all thread-safe; the owner outlives the face it holds.
unsafe impl<O: Configured> Send for Configuration<O> {}
// SAFETY: as above.
unsafe impl<O: Configured> Sync for Configuration<O> {}

impl<O: Configured> Configuration<O> {
    pub fn new(owner: &Object<O>) -> Self {
        Configuration { owner }
    }
}

impl<O: Configured> Facet for Configuration<O> {
    type Owner = O;
    fn owner(&self) -> &Object<O> {
        // SAFETY: the owner holds this face, so it is alive while the face is reachable.
        unsafe { &*self.owner }
    }
}

// SAFETY: the vtable's slots all take an Object<Configuration<O>>.
unsafe impl<O: Configured> Class for Configuration<O> {
    type Vtbl = ID3D12DeviceConfigurationVtbl;
    const VTBL: &'static ID3D12DeviceConfigurationVtbl = &ID3D12DeviceConfigurationVtbl {
        QueryInterface: Some(facet::query_interface::<Configuration<O>, ID3D12DeviceConfiguration>),
        AddRef: Some(facet::add_ref::<Configuration<O>, ID3D12DeviceConfiguration>),
        Release: Some(facet::release::<Configuration<O>, ID3D12DeviceConfiguration>),
        GetDesc: Some(get_desc::<O>),
        GetEnabledExperimentalFeatures: Some(get_enabled_experimental_features::<O>),
        SerializeVersionedRootSignature: Some(serialize_versioned_root_signature),
        CreateVersionedRootSignatureDeserializer: Some(create_versioned_root_signature_deserializer),
    };
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12DeviceConfiguration];
}

fn config_of<O: Configured>(this: *mut ID3D12DeviceConfiguration) -> Option<DeviceConfig> {
    // SAFETY: COM This pointer of a configuration face.
    unsafe { Object::<Configuration<O>>::from_this(this) }.map(|o| o.inner.owner().inner.device_config())
}

/// The D3D12_DEVICE_CONFIGURATION_DESC of a configuration: its debug flags, the SDK version of
/// the headers the runtime implements, and the number of experimental features.
pub fn desc_of(c: &DeviceConfig) -> D3D12_DEVICE_CONFIGURATION_DESC {
    let d = &c.debug;
    let mut flags = 0;
    let mut set = |on: bool, f: D3D12_DEVICE_FLAGS| {
        if on {
            flags |= f.0;
        }
    };
    set(d.layer, D3D12_DEVICE_FLAG_DEBUG_LAYER_ENABLED);
    set(d.layer && d.gbv, D3D12_DEVICE_FLAG_GPU_BASED_VALIDATION_ENABLED);
    set(d.layer && !d.sync_queue, D3D12_DEVICE_FLAG_SYNCHRONIZED_COMMAND_QUEUE_VALIDATION_DISABLED);
    set(d.layer && d.auto_name, D3D12_DEVICE_FLAG_AUTO_DEBUG_NAME_ENABLED);
    set(d.layer && d.legacy_barrier, D3D12_DEVICE_FLAG_FORCE_LEGACY_STATE_VALIDATION);
    D3D12_DEVICE_CONFIGURATION_DESC {
        Flags: D3D12_DEVICE_FLAGS(flags),
        GpuBasedValidationFlags: if d.layer && d.gbv { d.gbv_flags } else { 0 },
        SDKVersion: D3D12_SDK_VERSION,
        NumEnabledExperimentalFeatures: c.experimental.len() as u32,
    }
}

unsafe extern "C" fn get_desc<O: Configured>(this: *mut ID3D12DeviceConfiguration) -> D3D12_DEVICE_CONFIGURATION_DESC {
    guard("ID3D12DeviceConfiguration::GetDesc", D3D12_DEVICE_CONFIGURATION_DESC::default(), || {
        config_of::<O>(this).map(|c| desc_of(&c)).unwrap_or_default()
    })
}

/// GetEnabledExperimentalFeatures: `NumGuids` must be the number GetDesc reports.
unsafe extern "C" fn get_enabled_experimental_features<O: Configured>(
    this: *mut ID3D12DeviceConfiguration,
    guids: *mut GUID,
    n: UINT,
) -> HRESULT {
    guard_hr("ID3D12DeviceConfiguration::GetEnabledExperimentalFeatures", || {
        let c = config_of::<O>(this).ok_or(Error::POINTER)?;
        if n as usize != c.experimental.len() || (n > 0 && guids.is_null()) {
            return Err(Error::INVALID_ARG);
        }
        if n > 0 {
            // SAFETY: the caller passes room for `n` GUIDs.
            unsafe { std::slice::from_raw_parts_mut(guids, n as usize) }.copy_from_slice(&c.experimental);
        }
        Ok(S_OK)
    })
}

unsafe extern "C" fn serialize_versioned_root_signature(
    _this: *mut ID3D12DeviceConfiguration,
    desc: *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC,
    blob: *mut *mut ID3DBlob,
    error: *mut *mut ID3DBlob,
) -> HRESULT {
    // SAFETY: forwarded from the caller's contract (as the export).
    unsafe { crate::root_signature::serialize_versioned_root_signature(desc, blob, error) }
}

unsafe extern "C" fn create_versioned_root_signature_deserializer(
    _this: *mut ID3D12DeviceConfiguration,
    blob: *const c_void,
    size: SIZE_T,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded from the caller's contract (as the export).
    unsafe { crate::root_signature::create_versioned_root_signature_deserializer(blob, size, riid, ppv) }
}
