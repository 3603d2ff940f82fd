//! ID3D12Device (implemented up to ID3D12Device11, the newest in DirectX-Headers 1.606).
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12device>

mod binding;
mod descriptors;
mod layout;
mod memory;
mod pipeline;
mod work;

use crate::backend::Backend;
use crate::com::{self, Class, Object, Ptr};
use crate::error::{guard, guard_hr, Error, Result};
use crate::features;
use crate::residency::Budget;
use rd3d12_core::Caps;
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// Whether a device was removed, and why, with the fences its removal releases.
pub struct Removal {
    /// S_OK while the device works; the removal reason afterwards.
    reason: AtomicI32,
    /// Every fence of the device, released together when the device is removed.
    fences: Mutex<Vec<std::sync::Weak<crate::fence::FenceCore>>>,
}

impl Removal {
    pub fn reason(&self) -> HRESULT {
        self.reason.load(Ordering::Acquire)
    }

    /// Removes the device with `reason` (the first reason sticks): fences read UINT64_MAX and
    /// every waiter is released.
    pub fn remove_with(&self, reason: HRESULT) {
        let _ = self.reason.compare_exchange(S_OK, reason, Ordering::AcqRel, Ordering::Acquire);
        let fences: Vec<_> =
            self.fences.lock().unwrap_or_else(|e| e.into_inner()).iter().filter_map(|w| w.upgrade()).collect();
        // Every fence reads UINT64_MAX before any waiter wakes.
        fences.iter().for_each(|f| f.mark_removed());
        fences.iter().for_each(|f| f.release_waiters());
    }
}

/// The device: one per adapter and process, as on Windows.
pub struct Device {
    backend: Arc<dyn Backend>,
    /// What the runtime implements; every capability answer and validation derives from it.
    caps: Caps,
    luid: LUID,
    /// Whether the device was removed and why, with its fences (shared with the queues'
    /// threads, which remove the device when work hangs).
    removal: Arc<Removal>,
    /// Resident and evicted bytes of the device's pageable objects.
    budget: Arc<Budget>,
    /// Buffer GPU virtual addresses.
    va: Arc<crate::work::va::VaRegistry>,
    /// Whether the one-time "shader work is not executed yet" warning was printed.
    pub(crate) warned_shader_work: std::sync::atomic::AtomicBool,
    /// The debug layer's message store, when the device was created with the layer on.
    debug: Option<Arc<crate::debug::Sink>>,
    /// The ID3D12InfoQueue1 face of the debug device (made on first QueryInterface).
    info_queue: OnceLock<Ptr<crate::info_queue::InfoQueue>>,
    /// The ID3D12DebugDevice2 face of the debug device (made on first QueryInterface).
    debug_device: OnceLock<Ptr<crate::debug_device::DebugDevice>>,
    /// Its ID3D12DebugDevice1 face (another vtable order, forwarding to the former).
    debug_device1: OnceLock<Ptr<crate::debug_device::DebugDevice1>>,
    /// What the device was created with (ID3D12DeviceConfiguration).
    config: DeviceConfig,
    /// The highest shader model it reports and accepts (features::highest_shader_model: below
    /// MAX_SHADER_MODEL only under RD3D12_SHADER_MODEL).
    shader_model: D3D_SHADER_MODEL,
    /// The ID3D12DeviceConfiguration face (made on first QueryInterface).
    configuration: OnceLock<Ptr<crate::device_factory::Configuration<Device>>>,
    /// Address ranges of the live descriptor heaps.
    pub(crate) descriptor_heaps: Arc<crate::work::descriptors::HeapRegistry>,
    /// Resources that views were created for, by resource id.
    pub(crate) resources: Arc<crate::work::descriptors::ResourceRegistry>,
}

type Iface = ID3D12Device11;

// SAFETY: DEVICE_VTBL's slots all take an `Object<Device>` as This.
unsafe impl Class for Device {
    type Vtbl = ID3D12Device11Vtbl;
    const VTBL: &'static ID3D12Device11Vtbl = &DEVICE_VTBL;
    /// The device answers ID3D12Object and every ID3D12Device version, but not
    /// ID3D12DeviceChild or ID3D12Pageable (native behaviour).
    const IIDS: &'static [GUID] = &[
        IID_IUnknown,
        IID_ID3D12Object,
        IID_ID3D12Device,
        IID_ID3D12Device1,
        IID_ID3D12Device2,
        IID_ID3D12Device3,
        IID_ID3D12Device4,
        IID_ID3D12Device5,
        IID_ID3D12Device6,
        IID_ID3D12Device7,
        IID_ID3D12Device8,
        IID_ID3D12Device9,
        IID_ID3D12Device10,
        IID_ID3D12Device11,
    ];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> = Some(("ID3D12Device", D3D12_MESSAGE_ID_LIVE_DEVICE));

    /// ID3D12InfoQueue / ID3D12InfoQueue1 and ID3D12DebugDevice / 1 / 2 on a device
    /// created with the debug layer on (E_NOINTERFACE otherwise).
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut std::ffi::c_void> {
        use crate::com::facet::hand_out;
        use crate::debug_device::{DebugDevice, DebugDevice1};
        let d = &obj.inner;
        let config = hand_out(obj, true, &d.configuration, riid, || crate::device_factory::Configuration::new(obj));
        if config.is_some() {
            return config;
        }
        let sink = obj.inner.debug.as_ref()?;
        let main = || Ptr::new(DebugDevice::new(obj));
        hand_out(obj, true, &d.info_queue, riid, || crate::info_queue::InfoQueue::new(obj, sink.clone()))
            .or_else(|| hand_out(obj, true, &d.debug_device, riid, || DebugDevice::new(obj)))
            .or_else(|| {
                hand_out(obj, true, &d.debug_device1, riid, || DebugDevice1::new(obj, d.debug_device.get_or_init(main)))
            })
    }
}

/// The LUID of the CPU adapter: non-zero, the same in every process of one boot
/// ([`crate::adapter::luid`]).
pub fn adapter_luid() -> LUID {
    crate::adapter::luid()
}

/// The live device, if any: D3D12CreateDevice returns it again instead of making a second one.
static LIVE_DEVICE: Mutex<usize> = Mutex::new(0);

/// What a device is created with, and reports through ID3D12DeviceConfiguration: the debug
/// settings and the experimental features. D3D12CreateDevice takes the process-wide ones; a
/// device factory its own.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceConfig {
    pub debug: crate::debug::DebugSettings,
    pub experimental: Vec<GUID>,
}

impl DeviceConfig {
    /// The process-wide configuration (ID3D12Debug switches, D3D12EnableExperimentalFeatures).
    pub fn global() -> Self {
        DeviceConfig {
            debug: crate::debug::global_settings(),
            experimental: EXPERIMENTAL.lock().unwrap_or_else(|e| e.into_inner()).clone(),
        }
    }

    /// Whether a device created with `self` may stand in for one asked with `want` (the
    /// Independent Devices spec's "device compatibility"): the same debug layer state, GPU-based
    /// validation included, and every experimental feature `want` enables.
    pub fn satisfies(&self, want: &DeviceConfig) -> bool {
        let (a, b) = (&self.debug, &want.debug);
        let debug_same = a.layer == b.layer && (!a.layer || (a.gbv == b.gbv && a.gbv_flags == b.gbv_flags));
        debug_same && want.experimental.iter().all(|g| self.experimental.contains(g))
    }

    pub fn experimental_shader_models(&self) -> bool {
        self.experimental.contains(&D3D12ExperimentalShaderModels)
    }
}

/// The live device for `live`, with a reference taken, if one is registered and not dying.
fn live_device(live: &usize) -> Option<Ptr<Device>> {
    if *live == 0 {
        return None;
    }
    // SAFETY: the registry entry is cleared by the device's Drop under the registry lock (held by
    // the caller), so a non-zero entry points at an allocated object; try_add_ref refuses one
    // already dying.
    let obj = unsafe { &*(*live as *const Object<Device>) };
    // SAFETY: try_add_ref just took the reference the Ptr adopts.
    obj.try_add_ref().then(|| unsafe { Ptr::from_raw(*live as *mut Object<Device>) })
}

/// A new device with `config`, registered as the process's device.
fn new_device(live: &mut usize, config: DeviceConfig) -> Ptr<Device> {
    let dev = Ptr::new(Device {
        backend: crate::backend::default_backend(),
        caps: Caps::today(),
        luid: adapter_luid(),
        removal: Arc::new(Removal { reason: AtomicI32::new(S_OK), fences: Mutex::new(Vec::new()) }),
        budget: Arc::default(),
        va: Default::default(),
        warned_shader_work: Default::default(),
        descriptor_heaps: Default::default(),
        resources: Default::default(),
        debug: config.debug.layer.then(crate::debug::attach),
        info_queue: OnceLock::new(),
        debug_device: OnceLock::new(),
        debug_device1: OnceLock::new(),
        configuration: OnceLock::new(),
        config,
        shader_model: crate::features::highest_shader_model(),
    });
    *live = dev.as_ptr() as usize;
    if dev.inner.debug.is_some() {
        crate::debug::report_startup_options(&dev.inner.config.debug);
    }
    dev
}

/// A removed device is not handed out again: creation fails instead (D3D12CreateDevice remarks).
fn unless_removed(dev: Ptr<Device>) -> Result<Ptr<Device>> {
    match dev.inner.removed_reason() {
        S_OK => Ok(dev),
        _ => Err(Error::hr(DXGI_ERROR_DEVICE_REMOVED)),
    }
}

/// D3D12CreateDevice: validates the minimum feature level and returns the process's device for
/// the CPU adapter, creating it if none is alive.
pub fn create_device(min_level: D3D_FEATURE_LEVEL) -> Result<Ptr<Device>> {
    if !features::accepts_minimum_feature_level(min_level) {
        return Err(Error::INVALID_ARG);
    }
    let mut live = LIVE_DEVICE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dev) = live_device(&live) {
        return unless_removed(dev);
    }
    Ok(new_device(&mut live, DeviceConfig::global()))
}

/// The adapter argument of D3D12CreateDevice and ID3D12DeviceFactory::CreateDevice: NULL (the
/// default adapter, the CPU adapter) or an IDXCoreAdapter whose LUID is the CPU adapter's, asked
/// through QueryInterface and GetProperty (adapters are told apart by LUID, not by pointer). A
/// DXCore adapter with another LUID is one this runtime does not drive (DXGI_ERROR_UNSUPPORTED);
/// an object that is no adapter is E_INVALIDARG.
///
/// # Safety
/// `adapter` must be null or a live COM object.
pub unsafe fn check_adapter(adapter: *mut IUnknown) -> Result<()> {
    if adapter.is_null() {
        return Ok(());
    }
    let ours = adapter_luid();
    // SAFETY: a live COM object per the contract.
    match unsafe { crate::dxcore::dxcore_adapter_luid(adapter) } {
        Some(l) if l.LowPart == ours.LowPart && l.HighPart == ours.HighPart => Ok(()),
        Some(_) => Err(Error::hr(DXGI_ERROR_UNSUPPORTED)),
        None => Err(Error::INVALID_ARG),
    }
}

pub const DXGI_ERROR_ALREADY_EXISTS: HRESULT = 0x887A_0036_u32 as HRESULT;

/// ID3D12DeviceFactory::CreateDevice. The CPU adapter keeps one device per process (it is a
/// "driver without independent devices" in the Independent Devices spec), so the factory's
/// flags decide: an existing device is returned only with ALLOW_RETURNING_EXISTING_DEVICE and
/// a compatible configuration (any configuration with ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE),
/// else DXGI_ERROR_ALREADY_EXISTS; a new device becomes the process's device, and the factory's
/// configuration the process-wide one, unless DISALLOW_STORING_NEW_DEVICE_AS_SINGLETON
/// (DXGI_ERROR_UNSUPPORTED).
pub fn create_device_from_factory(
    min_level: D3D_FEATURE_LEVEL,
    config: &DeviceConfig,
    flags: D3D12_DEVICE_FACTORY_FLAGS,
) -> Result<Ptr<Device>> {
    if !features::accepts_minimum_feature_level(min_level) {
        return Err(Error::INVALID_ARG);
    }
    let has = |f: D3D12_DEVICE_FACTORY_FLAGS| flags.0 & f.0 != 0;
    let mut live = LIVE_DEVICE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(dev) = live_device(&live) {
        let dev = unless_removed(dev)?;
        let compatible = dev.inner.config.satisfies(config);
        if has(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE)
            && (compatible || has(D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE))
        {
            return Ok(dev);
        }
        return Err(Error::hr(DXGI_ERROR_ALREADY_EXISTS));
    }
    if has(D3D12_DEVICE_FACTORY_FLAG_DISALLOW_STORING_NEW_DEVICE_AS_SINGLETON) {
        return Err(Error::hr(DXGI_ERROR_UNSUPPORTED));
    }
    // The new device is the process's device: its configuration becomes the global one (spec).
    crate::debug::set_global_settings(config.debug, false);
    *EXPERIMENTAL.lock().unwrap_or_else(|e| e.into_inner()) = config.experimental.clone();
    Ok(new_device(&mut live, config.clone()))
}

/// Checks a D3D12_DEVICE_FACTORY_FLAGS value: known bits only, and
/// ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE only with ALLOW_RETURNING_EXISTING_DEVICE.
pub fn valid_factory_flags(flags: D3D12_DEVICE_FACTORY_FLAGS) -> bool {
    let known = D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE.0
        | D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE.0
        | D3D12_DEVICE_FACTORY_FLAG_DISALLOW_STORING_NEW_DEVICE_AS_SINGLETON.0;
    let incompatible = flags.0 & D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_INCOMPATIBLE_EXISTING_DEVICE.0 != 0;
    let existing = flags.0 & D3D12_DEVICE_FACTORY_FLAG_ALLOW_RETURNING_EXISTING_DEVICE.0 != 0;
    flags.0 & !known == 0 && (!incompatible || existing)
}

/// Checks experimental feature IIDs as D3D12EnableExperimentalFeatures does: an unknown one is
/// E_NOINTERFACE. Returns the set without repeats.
pub fn known_experimental_features(features: &[GUID]) -> Result<Vec<GUID>> {
    if features.iter().any(|f| !KNOWN_EXPERIMENTAL.contains(f)) {
        return Err(Error::NO_INTERFACE);
    }
    let mut new: Vec<GUID> = Vec::new();
    for f in features {
        if !new.contains(f) {
            new.push(*f);
        }
    }
    Ok(new)
}

/// The experimental features enabled by D3D12EnableExperimentalFeatures.
static EXPERIMENTAL: Mutex<Vec<GUID>> = Mutex::new(Vec::new());

/// The experimental features this runtime knows. D3D12ExperimentalShaderModels needs no
/// configuration struct; Mesa's d3d12 driver enables it before creating its device.
const KNOWN_EXPERIMENTAL: &[GUID] = &[D3D12ExperimentalShaderModels];

/// D3D12EnableExperimentalFeatures: an unknown feature is E_NOINTERFACE; a change to the set of
/// enabled features puts the live device in the DEVICE_REMOVED state (d3d12.h).
pub fn enable_experimental_features(features: &[GUID]) -> Result<()> {
    let new = known_experimental_features(features)?;
    let mut cur = EXPERIMENTAL.lock().unwrap_or_else(|e| e.into_inner());
    let same = cur.len() == new.len() && new.iter().all(|f| cur.contains(f));
    if !same {
        *cur = new;
        drop(cur);
        let live = LIVE_DEVICE.lock().unwrap_or_else(|e| e.into_inner());
        if *live != 0 {
            // SAFETY: a registered device is allocated while the registry lock is held (its Drop
            // clears the entry under this lock).
            unsafe { &*(*live as *const Object<Device>) }.inner.remove();
        }
    }
    Ok(())
}

/// EnableDebugLayer with a live device created without the layer: the device is removed (the
/// docs of ID3D12Debug::EnableDebugLayer).
pub fn remove_live_device_without_layer() {
    let live = LIVE_DEVICE.lock().unwrap_or_else(|e| e.into_inner());
    if *live != 0 {
        // SAFETY: a registered device is allocated while the registry lock is held.
        let d = unsafe { &*(*live as *const Object<Device>) };
        if d.inner.debug.is_none() {
            d.inner.remove();
        }
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        if let Some(s) = &self.debug {
            crate::debug::detach(s);
        }
        let mut live = LIVE_DEVICE.lock().unwrap_or_else(|e| e.into_inner());
        if *live != 0 {
            // SAFETY: only computing the address of the registered object's `inner` field.
            let inner = unsafe { std::ptr::addr_of!((*(*live as *const Object<Device>)).inner) };
            if std::ptr::eq(inner, self) {
                *live = 0;
            }
        }
    }
}

impl Device {
    /// What the device was created with.
    pub fn config(&self) -> &DeviceConfig {
        &self.config
    }

    /// The highest shader model the device reports (SHADER_MODEL) and whose shaders its
    /// pipelines accept.
    pub fn shader_model(&self) -> D3D_SHADER_MODEL {
        self.shader_model
    }

    /// The backend executing the device's work (shared with its queues' threads).
    pub fn backend(&self) -> &Arc<dyn Backend> {
        &self.backend
    }

    pub fn caps(&self) -> &Caps {
        &self.caps
    }

    pub fn budget(&self) -> &Arc<Budget> {
        &self.budget
    }

    pub fn luid(&self) -> LUID {
        self.luid
    }

    pub fn removed_reason(&self) -> HRESULT {
        self.removal.reason()
    }

    /// The removal state, for the queues' threads.
    pub fn removal(&self) -> &Arc<Removal> {
        &self.removal
    }

    /// ID3D12Device5::RemoveDevice: the device is removed for good.
    pub fn remove(&self) {
        self.remove_with(DXGI_ERROR_DEVICE_REMOVED);
    }

    /// Removes the device with `reason` (the first reason sticks): fences read UINT64_MAX and
    /// every waiter is released.
    pub fn remove_with(&self, reason: HRESULT) {
        self.removal.remove_with(reason);
    }

    /// Create* on a removed device fails with DXGI_ERROR_DEVICE_REMOVED.
    pub fn check_alive(&self) -> Result<()> {
        match self.removed_reason() {
            S_OK => Ok(()),
            _ => Err(Error::hr(DXGI_ERROR_DEVICE_REMOVED)),
        }
    }

    /// Whether Map/Unmap nesting is counted: only the debug layer reports it, so without the
    /// layer Map is a pointer lookup (Map stays thread-safe and returns the same pointer).
    pub fn tracks_maps(&self) -> bool {
        self.debug.is_some()
    }

    /// The debug layer's message store, when the device has the layer.
    pub fn debug_sink(&self) -> Option<&Arc<crate::debug::Sink>> {
        self.debug.as_ref()
    }

    pub fn va(&self) -> &Arc<crate::work::va::VaRegistry> {
        &self.va
    }

    pub fn register_fence(&self, f: &Arc<crate::fence::FenceCore>) {
        let mut v = self.removal.fences.lock().unwrap_or_else(|e| e.into_inner());
        v.retain(|w| w.strong_count() > 0);
        v.push(Arc::downgrade(f));
    }

    /// OPTIONS3.CopyQueueTimestampQueriesSupported: the CPU clock serves every queue type.
    pub fn copy_queue_timestamps(&self) -> bool {
        true
    }
}

/// The device behind a `This` pointer.
///
/// # Safety
/// `this` must be null or one of our live device interface pointers.
unsafe fn dev<'a>(this: *mut Iface) -> Result<&'a Device> {
    // SAFETY: forwarded from the caller.
    unsafe { Object::<Device>::from_this(this) }.map(|o| &o.inner).ok_or(Error::POINTER)
}

// ---- ID3D12Device ----------------------------------------------------------------------------

unsafe extern "C" fn get_node_count(this: *mut Iface) -> UINT {
    // SAFETY: COM This pointer.
    guard("GetNodeCount", 0, || unsafe { dev(this) }.map_or(0, |_| features::NODE_COUNT))
}

unsafe extern "C" fn check_feature_support(
    this: *mut Iface,
    feature: D3D12_FEATURE,
    data: *mut c_void,
    size: UINT,
) -> HRESULT {
    guard_hr("CheckFeatureSupport", || {
        // SAFETY: COM This pointer; `data` holds `size` bytes per the method's contract.
        unsafe { dev(this)?.check_feature_support(feature, data, size) }.map(|()| S_OK)
    })
}

unsafe extern "C" fn get_device_removed_reason(this: *mut Iface) -> HRESULT {
    // SAFETY: COM This pointer.
    guard_hr("GetDeviceRemovedReason", || Ok(unsafe { dev(this)? }.removed_reason()))
}

unsafe extern "C" fn set_stable_power_state(this: *mut Iface, _enable: BOOL) -> HRESULT {
    // The CPU adapter's clocks are the host's: there is nothing to pin, so the call succeeds.
    // SAFETY: COM This pointer.
    guard_hr("SetStablePowerState", || unsafe { dev(this) }.map(|_| S_OK))
}

unsafe extern "C" fn get_adapter_luid(this: *mut Iface) -> LUID {
    // SAFETY: COM This pointer.
    guard("GetAdapterLuid", LUID::default(), || unsafe { dev(this) }.map_or(LUID::default(), |d| d.luid()))
}

// ---- ID3D12Device5 ---------------------------------------------------------------------------

unsafe extern "C" fn remove_device(this: *mut Iface) {
    // SAFETY: COM This pointer.
    guard("RemoveDevice", (), || {
        if let Ok(d) = unsafe { dev(this) } {
            d.remove()
        }
    })
}

unsafe extern "C" fn enumerate_meta_commands(
    this: *mut Iface,
    count: *mut UINT,
    _descs: *mut D3D12_META_COMMAND_DESC,
) -> HRESULT {
    guard_hr("EnumerateMetaCommands", || {
        // SAFETY: COM This pointer.
        unsafe { dev(this)? };
        // SAFETY: checked for null; the caller passes a writable UINT.
        let count = unsafe { count.as_mut() }.ok_or(Error::INVALID_ARG)?;
        // The CPU adapter offers no meta commands.
        *count = 0;
        Ok(S_OK)
    })
}

unsafe extern "C" fn enumerate_meta_command_parameters(
    this: *mut Iface,
    _id: *const GUID,
    _stage: D3D12_META_COMMAND_PARAMETER_STAGE,
    _total: *mut UINT,
    _count: *mut UINT,
    _descs: *mut D3D12_META_COMMAND_PARAMETER_DESC,
) -> HRESULT {
    // SAFETY: COM This pointer. No meta command exists, so every CommandId is invalid.
    guard_hr("EnumerateMetaCommandParameters", || unsafe { dev(this) }.and(Err(Error::INVALID_ARG)))
}

unsafe extern "C" fn create_meta_command(
    this: *mut Iface,
    _id: *const GUID,
    _node_mask: UINT,
    _data: *const c_void,
    _size: SIZE_T,
    _riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateMetaCommand", || {
        null_out(ppv);
        // SAFETY: COM This pointer. No meta command exists, so every CommandId is invalid.
        unsafe { dev(this) }.and(Err(Error::INVALID_ARG))
    })
}

unsafe extern "C" fn get_raytracing_prebuild_info(
    this: *mut Iface,
    _desc: *const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_INPUTS,
    info: *mut D3D12_RAYTRACING_ACCELERATION_STRUCTURE_PREBUILD_INFO,
) {
    guard("GetRaytracingAccelerationStructurePrebuildInfo", (), || {
        // Raytracing is reported NOT_SUPPORTED (OPTIONS5); the sizes of an unsupported build are 0.
        // SAFETY: COM This pointer; `info` is null or writable.
        if unsafe { dev(this) }.is_ok() {
            if let Some(info) = unsafe { info.as_mut() } {
                *info = Default::default();
            }
        }
    })
}

unsafe extern "C" fn check_driver_matching_identifier(
    this: *mut Iface,
    _ty: D3D12_SERIALIZED_DATA_TYPE,
    _id: *const D3D12_SERIALIZED_DATA_DRIVER_MATCHING_IDENTIFIER,
) -> D3D12_DRIVER_MATCHING_IDENTIFIER_STATUS {
    // The only serialized data type is raytracing acceleration structures, which this adapter
    // does not support.
    const UNSUPPORTED: D3D12_DRIVER_MATCHING_IDENTIFIER_STATUS = D3D12_DRIVER_MATCHING_IDENTIFIER_UNSUPPORTED_TYPE;
    // SAFETY: COM This pointer.
    guard("CheckDriverMatchingIdentifier", UNSUPPORTED, || {
        let _ = unsafe { dev(this) };
        UNSUPPORTED
    })
}

// ---- ID3D12Device6 ---------------------------------------------------------------------------

unsafe extern "C" fn set_background_processing_mode(
    this: *mut Iface,
    mode: D3D12_BACKGROUND_PROCESSING_MODE,
    action: D3D12_MEASUREMENTS_ACTION,
    event: HANDLE,
    further: *mut BOOL,
) -> HRESULT {
    guard_hr("SetBackgroundProcessingMode", || {
        // SAFETY: COM This pointer.
        unsafe { dev(this)? };
        if mode.0 > D3D12_BACKGROUND_PROCESSING_MODE_DISABLE_PROFILING_BY_SYSTEM.0
            || action.0 > D3D12_MEASUREMENTS_ACTION_DISCARD_PREVIOUS.0
        {
            return Err(Error::INVALID_ARG);
        }
        // The CPU adapter does no background optimisation: nothing to measure, done at once.
        // SAFETY: `further` is null or a writable BOOL.
        if let Some(f) = unsafe { further.as_mut() } {
            *f = 0;
        }
        if !event.is_null() {
            crate::event::signal(event);
        }
        Ok(S_OK)
    })
}

// ---- ID3D12Device9 ---------------------------------------------------------------------------

unsafe extern "C" fn shader_cache_control(
    this: *mut Iface,
    kinds: D3D12_SHADER_CACHE_KIND_FLAGS,
    control: D3D12_SHADER_CACHE_CONTROL_FLAGS,
) -> HRESULT {
    guard_hr("ShaderCacheControl", || {
        // SAFETY: COM This pointer.
        unsafe { dev(this)? };
        let all_kinds = D3D12_SHADER_CACHE_KIND_FLAG_IMPLICIT_D3D_CACHE_FOR_DRIVER.0
            | D3D12_SHADER_CACHE_KIND_FLAG_IMPLICIT_D3D_CONVERSIONS.0
            | D3D12_SHADER_CACHE_KIND_FLAG_IMPLICIT_DRIVER_MANAGED.0
            | D3D12_SHADER_CACHE_KIND_FLAG_APPLICATION_MANAGED.0;
        let (disable, enable, clear) = (
            D3D12_SHADER_CACHE_CONTROL_FLAG_DISABLE.0,
            D3D12_SHADER_CACHE_CONTROL_FLAG_ENABLE.0,
            D3D12_SHADER_CACHE_CONTROL_FLAG_CLEAR.0,
        );
        if kinds.0 == 0 || kinds.0 & !all_kinds != 0 || control.0 == 0 || control.0 & !(disable | enable | clear) != 0 {
            return Err(Error::INVALID_ARG);
        }
        if control.0 & disable != 0 && control.0 & enable != 0 {
            return Err(Error::INVALID_ARG);
        }
        // No shader cache exists yet: disabling, enabling or clearing an empty cache succeeds.
        Ok(S_OK)
    })
}

/// A resource desc as eight words, field by field (never its raw bytes: the struct has padding
/// after Dimension that callers leave uninitialized), for the per-thread memos of the layout and
/// creation paths.
pub(crate) fn desc_key(d: &D3D12_RESOURCE_DESC1) -> [u64; 8] {
    let m = d.SamplerFeedbackMipRegion;
    [
        d.Dimension.0 as u64 | (d.Layout.0 as u64) << 32,
        d.Alignment,
        d.Width,
        d.Height as u64 | (d.DepthOrArraySize as u64) << 32 | (d.MipLevels as u64) << 48,
        d.Format.0 as u64 | (d.SampleDesc.Count as u64) << 32,
        d.SampleDesc.Quality as u64 | (d.Flags.0 as u64) << 32,
        m.Width as u64 | (m.Height as u64) << 32,
        m.Depth as u64,
    ]
}

/// Sets a COM out-pointer to NULL if the caller passed one.
pub(crate) fn null_out(ppv: *mut *mut c_void) {
    if !ppv.is_null() {
        // SAFETY: a non-null out-pointer from the caller is writable storage for one pointer.
        unsafe { *ppv = std::ptr::null_mut() };
    }
}

/// Features the CPU adapter reports absent (OPTIONS5 raytracing NOT_SUPPORTED, protected
/// sessions NONE, no shader cache sessions (SHADER_CACHE reports SINGLE_PSO | LIBRARY only), no
/// lifetime tracking, EXISTING_HEAPS FALSE): creating their objects fails with
/// DXGI_ERROR_UNSUPPORTED, *ppv = NULL.
macro_rules! unsupported {
    ($($name:ident($($a:ident : $t:ty),*) => $out:ident;)*) => {$(
        unsafe extern "C" fn $name(this: *mut Iface, $($a: $t),*) -> HRESULT {
            guard_hr(stringify!($name), || {
                null_out($out);
                $(let _ = $a;)*
                // SAFETY: COM This pointer.
                unsafe { dev(this)? };
                Ok(DXGI_ERROR_UNSUPPORTED)
            })
        }
    )*};
}

unsupported! {
    create_protected_resource_session(_d: *const D3D12_PROTECTED_RESOURCE_SESSION_DESC, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    create_protected_resource_session1(_d: *const D3D12_PROTECTED_RESOURCE_SESSION_DESC1, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    create_lifetime_tracker(_o: *mut ID3D12LifetimeOwner, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    create_state_object(_d: *const D3D12_STATE_OBJECT_DESC, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    add_to_state_object(_d: *const D3D12_STATE_OBJECT_DESC, _s: *mut ID3D12StateObject, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    create_shader_cache_session(_d: *const D3D12_SHADER_CACHE_SESSION_DESC, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    // EXISTING_HEAPS is reported unsupported.
    open_existing_heap_from_address(_a: *const c_void, _r: *const IID, ppv: *mut *mut c_void) => ppv;
    open_existing_heap_from_file_mapping(_h: HANDLE, _r: *const IID, ppv: *mut *mut c_void) => ppv;
}

use binding::*;
use descriptors::*;
use layout::*;
use memory::*;
use pipeline::*;
use work::*;

static DEVICE_VTBL: ID3D12Device11Vtbl = crate::object_vtbl!(
    ID3D12Device11Vtbl,
    Device,
    Iface {
        GetNodeCount: get_node_count,
        CreateCommandQueue: create_command_queue,
        CreateCommandAllocator: create_command_allocator,
        CreateGraphicsPipelineState: create_graphics_pipeline_state,
        CreateComputePipelineState: create_compute_pipeline_state,
        CreateCommandList: create_command_list,
        CheckFeatureSupport: check_feature_support,
        CreateDescriptorHeap: create_descriptor_heap,
        GetDescriptorHandleIncrementSize: get_descriptor_handle_increment_size,
        CreateRootSignature: create_root_signature,
        CreateConstantBufferView: create_constant_buffer_view,
        CreateShaderResourceView: create_shader_resource_view,
        CreateUnorderedAccessView: create_unordered_access_view,
        CreateRenderTargetView: create_render_target_view,
        CreateDepthStencilView: create_depth_stencil_view,
        CreateSampler: create_sampler,
        CopyDescriptors: copy_descriptors,
        CopyDescriptorsSimple: copy_descriptors_simple,
        GetResourceAllocationInfo: get_resource_allocation_info,
        GetCustomHeapProperties: get_custom_heap_properties,
        CreateCommittedResource: create_committed_resource,
        CreateHeap: create_heap,
        CreatePlacedResource: create_placed_resource,
        CreateReservedResource: create_reserved_resource,
        CreateSharedHandle: create_shared_handle,
        OpenSharedHandle: open_shared_handle,
        OpenSharedHandleByName: open_shared_handle_by_name,
        MakeResident: make_resident,
        Evict: evict,
        CreateFence: create_fence,
        GetDeviceRemovedReason: get_device_removed_reason,
        GetCopyableFootprints: get_copyable_footprints,
        CreateQueryHeap: create_query_heap,
        SetStablePowerState: set_stable_power_state,
        CreateCommandSignature: create_command_signature,
        GetResourceTiling: get_resource_tiling,
        GetAdapterLuid: get_adapter_luid,
        CreatePipelineLibrary: create_pipeline_library,
        SetEventOnMultipleFenceCompletion: set_event_on_multiple_fence_completion,
        SetResidencyPriority: set_residency_priority,
        CreatePipelineState: create_pipeline_state,
        OpenExistingHeapFromAddress: open_existing_heap_from_address,
        OpenExistingHeapFromFileMapping: open_existing_heap_from_file_mapping,
        EnqueueMakeResident: enqueue_make_resident,
        CreateCommandList1: create_command_list1,
        CreateProtectedResourceSession: create_protected_resource_session,
        CreateCommittedResource1: create_committed_resource1,
        CreateHeap1: create_heap1,
        CreateReservedResource1: create_reserved_resource1,
        GetResourceAllocationInfo1: get_resource_allocation_info1,
        CreateLifetimeTracker: create_lifetime_tracker,
        RemoveDevice: remove_device,
        EnumerateMetaCommands: enumerate_meta_commands,
        EnumerateMetaCommandParameters: enumerate_meta_command_parameters,
        CreateMetaCommand: create_meta_command,
        CreateStateObject: create_state_object,
        GetRaytracingAccelerationStructurePrebuildInfo: get_raytracing_prebuild_info,
        CheckDriverMatchingIdentifier: check_driver_matching_identifier,
        SetBackgroundProcessingMode: set_background_processing_mode,
        AddToStateObject: add_to_state_object,
        CreateProtectedResourceSession1: create_protected_resource_session1,
        GetResourceAllocationInfo2: get_resource_allocation_info2,
        CreateCommittedResource2: create_committed_resource2,
        CreatePlacedResource1: create_placed_resource1,
        CreateSamplerFeedbackUnorderedAccessView: create_sampler_feedback_uav,
        GetCopyableFootprints1: get_copyable_footprints1,
        CreateShaderCacheSession: create_shader_cache_session,
        ShaderCacheControl: shader_cache_control,
        CreateCommandQueue1: create_command_queue1,
        CreateCommittedResource3: create_committed_resource3,
        CreatePlacedResource2: create_placed_resource2,
        CreateReservedResource2: create_reserved_resource2,
        CreateSampler2: create_sampler2,
    }
);

/// The raw vtable, for tests that check every slot is filled.
pub fn vtable() -> &'static ID3D12Device11Vtbl {
    &DEVICE_VTBL
}

/// Hands the device to D3D12CreateDevice's `(riid, ppDevice)` pair.
///
/// # Safety
/// As [`com::hand_out`].
pub unsafe fn hand_out_device(dev: Ptr<Device>, riid: *const GUID, ppv: *mut *mut c_void) -> HRESULT {
    // SAFETY: forwarded.
    unsafe { com::hand_out(dev, riid, ppv) }
}
