//! The debug layer: the switches (ID3D12Debug*, `RD3D12_DEBUG`), the message sink of the device
//! created with the layer on, and rd3d12's own diagnostics level (`RD3D12_LOG`).
//!
//! Every validation failure of the runtime already carries Microsoft's message (ID, category,
//! severity, text: [`crate::error::Message`]); [`report`] hands it to the sink of the debug
//! device, which stores it in the info queue ([`rd3d12_core::info_queue`]), prints it to stderr
//! in Windows' format, calls the registered callbacks and breaks (SIGTRAP) when asked. With the
//! layer off, reporting is one relaxed atomic load on the error path and nothing on hot paths.
//!
//! ID3D12Debug objects (D3D12GetDebugInterface, D3D12GetInterface(CLSID_D3D12Debug)) share
//! process-wide settings: EnableDebugLayer takes effect for devices created afterwards, and
//! removes a live device created without the layer (the docs of EnableDebugLayer);
//! DisableDebugLayer takes effect once the device is released.

use crate::com::{Class, Object, Ptr};
use crate::error::{guard, guard_hr, Error, Message};
use rd3d12_core::info_queue::{self, InfoQueue, Msg};
use rd3d12_sys::*;
use std::ffi::{c_void, CString};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, RwLock};

// ---- switches ---------------------------------------------------------------------------------

static REQUESTED: AtomicBool = AtomicBool::new(false);
static GPU_BASED_VALIDATION: AtomicBool = AtomicBool::new(false);
static SYNCHRONIZED_QUEUE_VALIDATION: AtomicBool = AtomicBool::new(false);
static GBV_FLAGS: AtomicU32 = AtomicU32::new(0);
static AUTO_NAME: AtomicBool = AtomicBool::new(false);
static LEGACY_BARRIER_VALIDATION: AtomicBool = AtomicBool::new(false);

/// Whether devices created now get the layer: EnableDebugLayer was called (and not undone by
/// DisableDebugLayer), or `RD3D12_DEBUG` is set to 1 / true / on.
pub fn layer_requested() -> bool {
    REQUESTED.load(Ordering::Acquire) || env_on("RD3D12_DEBUG")
}

fn env_on(name: &str) -> bool {
    std::env::var(name).is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "on" | "yes"))
}

/// The settings of the ID3D12Debug* interfaces: the layer itself, GPU-based validation,
/// synchronized command queue validation, GBV flags, auto-naming, legacy barrier validation.
/// The CPU backend has no GPU to validate: the GPU settings are kept and reported, and change
/// nothing else.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DebugSettings {
    pub layer: bool,
    pub gbv: bool,
    pub sync_queue: bool,
    pub gbv_flags: u32,
    pub auto_name: bool,
    pub legacy_barrier: bool,
}

/// The process-wide settings, which D3D12CreateDevice uses.
pub fn global_settings() -> DebugSettings {
    DebugSettings {
        layer: layer_requested(),
        gbv: GPU_BASED_VALIDATION.load(Ordering::Relaxed),
        sync_queue: SYNCHRONIZED_QUEUE_VALIDATION.load(Ordering::Relaxed),
        gbv_flags: GBV_FLAGS.load(Ordering::Relaxed),
        auto_name: AUTO_NAME.load(Ordering::Relaxed),
        legacy_barrier: LEGACY_BARRIER_VALIDATION.load(Ordering::Relaxed),
    }
}

/// Replaces the process-wide settings (a device factory's ApplyToGlobalState, or its state
/// copied when it installs the process's device). Turning the layer on removes a live device
/// created without it, as EnableDebugLayer does, unless `remove_live` is false (no live device).
pub(crate) fn set_global_settings(s: DebugSettings, remove_live: bool) {
    GPU_BASED_VALIDATION.store(s.gbv, Ordering::Relaxed);
    SYNCHRONIZED_QUEUE_VALIDATION.store(s.sync_queue, Ordering::Relaxed);
    GBV_FLAGS.store(s.gbv_flags, Ordering::Relaxed);
    AUTO_NAME.store(s.auto_name, Ordering::Relaxed);
    LEGACY_BARRIER_VALIDATION.store(s.legacy_barrier, Ordering::Relaxed);
    if !s.layer {
        REQUESTED.store(false, Ordering::Release);
    } else if remove_live {
        enable_layer();
    } else {
        REQUESTED.store(true, Ordering::Release);
    }
}

/// The INFO message a debug device starts with: the settings it was created with.
pub(crate) fn report_startup_options(s: &DebugSettings) {
    let (gbv, sync, flags, auto_name, legacy) = (s.gbv, s.sync_queue, s.gbv_flags, s.auto_name, s.legacy_barrier);
    let on = |b: bool| if b { "enabled" } else { "disabled" };
    deliver(
        "ID3D12Device::CreateDevice",
        D3D12_MESSAGE_CATEGORY_STATE_CREATION.0,
        D3D12_MESSAGE_SEVERITY_INFO.0,
        D3D12_MESSAGE_ID_CREATEDEVICE_DEBUG_LAYER_STARTUP_OPTIONS.0,
        &format!(
            "Debug layer startup options: GPU-Based Validation: {}{}, GPU-Based Validation flags: 0x{flags:x}, \
             Synchronized Command Queue Validation: {}, Auto-Naming: {}, Legacy Barrier Validation: {}.",
            on(gbv),
            if gbv { " (no GPU on the CPU backend: nothing to validate there)" } else { "" },
            on(sync),
            on(auto_name),
            on(legacy)
        ),
    );
}

fn enable_layer() {
    if !REQUESTED.swap(true, Ordering::AcqRel) {
        crate::device::remove_live_device_without_layer();
    }
}

// ---- rd3d12's own diagnostics ------------------------------------------------------------------

/// Levels of `RD3D12_LOG`: off, error (the default: internal errors only), warn, info (also
/// every failing call with its HRESULT), trace (also every guarded call by name).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Error = 1,
    Warn = 2,
    Info = 3,
    Trace = 4,
}

/// `log_enabled(Level::Trace)` for every call into the runtime: one relaxed load once the level
/// is known, the environment read on first use.
#[inline(always)]
pub fn tracing() -> bool {
    match TRACING.load(Ordering::Relaxed) {
        0 => false,
        1 => true,
        _ => init_tracing(),
    }
}

/// 0 no, 1 yes, 2 not read yet.
static TRACING: AtomicU8 = AtomicU8::new(2);

#[cold]
fn init_tracing() -> bool {
    let t = log_enabled(Level::Trace);
    TRACING.store(u8::from(t), Ordering::Relaxed);
    t
}

/// Whether rd3d12's own diagnostics of `level` are printed (`RD3D12_LOG`, default `error`).
pub fn log_enabled(level: Level) -> bool {
    static LEVEL: AtomicU8 = AtomicU8::new(u8::MAX);
    let mut l = LEVEL.load(Ordering::Relaxed);
    if l == u8::MAX {
        l = match std::env::var("RD3D12_LOG").map(|v| v.trim().to_ascii_lowercase()) {
            Ok(v) if v == "off" || v == "0" || v == "none" => 0,
            Ok(v) if v == "warn" || v == "warning" => 2,
            Ok(v) if v == "info" || v == "debug" => 3,
            Ok(v) if v == "trace" => 4,
            _ => 1,
        };
        LEVEL.store(l, Ordering::Relaxed);
    }
    level as u8 <= l
}

// ---- the sink of the debug device --------------------------------------------------------------

/// The message store of a device created with the layer on.
#[derive(Default)]
pub struct Sink {
    pub queue: Mutex<InfoQueue>,
}

impl Sink {
    pub fn lock(&self) -> std::sync::MutexGuard<'_, InfoQueue> {
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }
}

static ACTIVE: AtomicBool = AtomicBool::new(false);
static SINK: RwLock<Option<Arc<Sink>>> = RwLock::new(None);

/// A new sink for a device created with the layer on; messages go to it from now on.
pub fn attach() -> Arc<Sink> {
    let s = Arc::new(Sink::default());
    *SINK.write().unwrap_or_else(|e| e.into_inner()) = Some(s.clone());
    ACTIVE.store(true, Ordering::Release);
    crate::com::live::set_tracking(true);
    s
}

/// The device owning `sink` is gone.
pub fn detach(sink: &Arc<Sink>) {
    let mut cur = SINK.write().unwrap_or_else(|e| e.into_inner());
    if cur.as_ref().is_some_and(|c| Arc::ptr_eq(c, sink)) {
        *cur = None;
        ACTIVE.store(false, Ordering::Release);
        crate::com::live::set_tracking(false);
    }
}

/// Whether a device with the debug layer exists (messages have somewhere to go).
#[inline]
pub fn active() -> bool {
    ACTIVE.load(Ordering::Relaxed)
}

fn current() -> Option<Arc<Sink>> {
    if !ACTIVE.load(Ordering::Acquire) {
        return None;
    }
    SINK.read().unwrap_or_else(|e| e.into_inner()).clone()
}

/// `Interface::Method` for a method name as the runtime's guards know it: names that already
/// say their interface are kept; command-list, queue and device methods get theirs.
fn qualify(method: &str) -> std::borrow::Cow<'_, str> {
    if method.contains("::") || method.is_empty() {
        return method.into();
    }
    let iface = match method {
        "ExecuteCommandLists" | "UpdateTileMappings" | "CopyTileMappings" => "ID3D12CommandQueue",
        "Close" | "Reset" => "ID3D12GraphicsCommandList",
        m if m.starts_with("D3D12") => return m.into(),
        _ => "ID3D12Device",
    };
    format!("{iface}::{method}").into()
}

/// Reports a runtime message raised by `method` (e.g. `CreateCommittedResource` or
/// `ID3D12Resource::Map`) to the debug layer, if a device has it on.
#[cold]
pub fn report(method: &str, m: &Message) {
    if !ACTIVE.load(Ordering::Relaxed) {
        return;
    }
    let method = qualify(method);
    deliver(&method, m.category.0, m.severity.0, m.id.0, &m.text);
}

/// Reports a command-list method's message (`ID3D12GraphicsCommandList::<name>`).
#[cold]
pub fn report_list(name: &str, m: &Message) {
    report_list_parts(name, m.category, m.severity, m.id.0, &m.text);
}

/// [`report_list`] by parts (findings that do not fail the call, e.g. resource states).
#[cold]
pub fn report_list_parts(
    name: &str,
    category: D3D12_MESSAGE_CATEGORY,
    severity: D3D12_MESSAGE_SEVERITY,
    id: u32,
    text: &str,
) {
    if !ACTIVE.load(Ordering::Relaxed) {
        return;
    }
    let method = format!("ID3D12GraphicsCommandList::{name}");
    deliver(&method, category.0, severity.0, id, text);
}

/// Reports a message by its parts (rules that are not errors of a call: warnings, and the
/// errors of void methods).
#[cold]
pub fn report_parts(
    method: &str,
    category: D3D12_MESSAGE_CATEGORY,
    severity: D3D12_MESSAGE_SEVERITY,
    id: u32,
    text: &str,
) {
    if !ACTIVE.load(Ordering::Relaxed) {
        return;
    }
    deliver(&qualify(method), category.0, severity.0, id, text);
}

/// Stores, prints, calls back and breaks: the path of every message, from the runtime
/// (`method` non-empty) or from AddMessage / AddApplicationMessage (`method` empty).
pub(crate) fn deliver(method: &str, category: u32, severity: u32, id: u32, text: &str) {
    let Some(sink) = current() else { return };
    let id_name = message_id_name(D3D12_MESSAGE_ID(id as _)).unwrap_or("UNKNOWN");
    // Core rules name their method at the start of their text; the method prefix says it already.
    let bare = method.rsplit("::").next().unwrap_or("");
    let text =
        if bare.is_empty() { text } else { text.strip_prefix(bare).and_then(|t| t.strip_prefix(": ")).unwrap_or(text) };
    let description = if method.is_empty() { text.to_string() } else { format!("{method}: {text}") };
    let outcome = sink.lock().add(Msg { category, severity, id, text: description.clone() });
    if outcome.print {
        eprintln!("{}", info_queue::format_line(method, category, severity, id, id_name, text));
    }
    call_back(category, severity, id, &description, outcome.stored);
    if outcome.brk {
        eprintln!("{}", info_queue::break_line(category, severity, id, id_name));
        // SAFETY: raising a signal has no memory-safety preconditions; the program asked to
        // break on this message (a debugger stops here; without one SIGTRAP ends the process).
        unsafe { libc::raise(libc::SIGTRAP) };
    }
}

// ---- ID3D12InfoQueue1 callbacks (process-wide, DirectX-Specs MessageCallback.md) ---------------

struct Callback {
    cookie: u32,
    func: unsafe extern "C" fn(D3D12_MESSAGE_CATEGORY, D3D12_MESSAGE_SEVERITY, D3D12_MESSAGE_ID, LPCSTR, *mut c_void),
    ignore_filters: bool,
    context: usize,
}

static CALLBACKS: RwLock<Vec<Callback>> = RwLock::new(Vec::new());
static NEXT_COOKIE: AtomicU32 = AtomicU32::new(1);

fn call_back(category: u32, severity: u32, id: u32, description: &str, stored: bool) {
    let list = CALLBACKS.read().unwrap_or_else(|e| e.into_inner());
    if list.is_empty() {
        return;
    }
    let Ok(text) = CString::new(description.replace('\0', " ")) else { return };
    for c in list.iter().filter(|c| c.ignore_filters || stored) {
        // SAFETY: the application registered this function for exactly these arguments; the
        // description lives until the call returns.
        unsafe {
            (c.func)(
                D3D12_MESSAGE_CATEGORY(category as _),
                D3D12_MESSAGE_SEVERITY(severity as _),
                D3D12_MESSAGE_ID(id as _),
                text.as_ptr(),
                c.context as *mut c_void,
            )
        };
    }
}

/// RegisterMessageCallback: a unique non-zero cookie.
pub fn register_callback(
    func: unsafe extern "C" fn(D3D12_MESSAGE_CATEGORY, D3D12_MESSAGE_SEVERITY, D3D12_MESSAGE_ID, LPCSTR, *mut c_void),
    flags: u32,
    context: *mut c_void,
) -> u32 {
    let cookie = NEXT_COOKIE.fetch_add(1, Ordering::Relaxed).max(1);
    let ignore_filters = flags & D3D12_MESSAGE_CALLBACK_IGNORE_FILTERS.0 != 0;
    CALLBACKS.write().unwrap_or_else(|e| e.into_inner()).push(Callback {
        cookie,
        func,
        ignore_filters,
        context: context as usize,
    });
    cookie
}

/// UnregisterMessageCallback: false for an unknown cookie. Waits for running callbacks (they
/// run under the read lock).
pub fn unregister_callback(cookie: u32) -> bool {
    let mut list = CALLBACKS.write().unwrap_or_else(|e| e.into_inner());
    let before = list.len();
    list.retain(|c| c.cookie != cookie);
    list.len() != before
}

// ---- ID3D12Debug, ID3D12Debug1, ID3D12Debug2 ---------------------------------------------------

/// Where a debug object's settings go: the process-wide switches (D3D12GetDebugInterface,
/// D3D12GetInterface), or one device factory's own copy (its GetConfigurationInterface).
#[derive(Clone)]
pub enum Scope {
    Global,
    Factory(Arc<Mutex<DebugSettings>>),
}

impl Scope {
    fn update(&self, f: impl FnOnce(&mut DebugSettings)) {
        match self {
            Scope::Global => {
                // The layer switch is the API's own (RD3D12_DEBUG is not part of it).
                let mut s = DebugSettings { layer: REQUESTED.load(Ordering::Acquire), ..global_settings() };
                let before = s.layer;
                f(&mut s);
                GPU_BASED_VALIDATION.store(s.gbv, Ordering::Relaxed);
                SYNCHRONIZED_QUEUE_VALIDATION.store(s.sync_queue, Ordering::Relaxed);
                GBV_FLAGS.store(s.gbv_flags, Ordering::Relaxed);
                AUTO_NAME.store(s.auto_name, Ordering::Relaxed);
                LEGACY_BARRIER_VALIDATION.store(s.legacy_barrier, Ordering::Relaxed);
                match (before, s.layer) {
                    (false, true) => enable_layer(),
                    (true, false) => REQUESTED.store(false, Ordering::Release),
                    _ => {}
                }
            }
            Scope::Factory(m) => f(&mut m.lock().unwrap_or_else(|e| e.into_inner())),
        }
    }
}

/// ID3D12Debug … ID3D12Debug6 (one chain of vtables).
pub struct Debug {
    scope: Scope,
}
/// ID3D12Debug1 (its own IUnknown-derived interface).
pub struct Debug1 {
    scope: Scope,
}
/// ID3D12Debug2 (its own IUnknown-derived interface).
pub struct Debug2 {
    scope: Scope,
}

/// The debug classes: where their settings go.
trait Scoped: Class {
    fn scope(&self) -> &Scope;
}
impl Scoped for Debug {
    fn scope(&self) -> &Scope {
        &self.scope
    }
}
impl Scoped for Debug1 {
    fn scope(&self) -> &Scope {
        &self.scope
    }
}
impl Scoped for Debug2 {
    fn scope(&self) -> &Scope {
        &self.scope
    }
}

// SAFETY: DEBUG_VTBL's slots all take an Object<Debug>.
unsafe impl Class for Debug {
    type Vtbl = ID3D12Debug6Vtbl;
    const VTBL: &'static ID3D12Debug6Vtbl = &DEBUG_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Debug, IID_ID3D12Debug3, IID_ID3D12Debug4, IID_ID3D12Debug5, IID_ID3D12Debug6];
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut c_void> {
        debug_interface_in(riid, obj.inner.scope.clone())
    }
}
// SAFETY: DEBUG1_VTBL's slots all take an Object<Debug1>.
unsafe impl Class for Debug1 {
    type Vtbl = ID3D12Debug1Vtbl;
    const VTBL: &'static ID3D12Debug1Vtbl = &DEBUG1_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12Debug1];
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut c_void> {
        debug_interface_in(riid, obj.inner.scope.clone())
    }
}
// SAFETY: DEBUG2_VTBL's slots all take an Object<Debug2>.
unsafe impl Class for Debug2 {
    type Vtbl = ID3D12Debug2Vtbl;
    const VTBL: &'static ID3D12Debug2Vtbl = &DEBUG2_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12Debug2];
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut c_void> {
        debug_interface_in(riid, obj.inner.scope.clone())
    }
}

/// A new reference to a debug object answering `riid`, if it is one of the debug interfaces:
/// what D3D12GetDebugInterface and QueryInterface between the debug objects hand out.
pub fn debug_interface(riid: &GUID) -> Option<*mut c_void> {
    debug_interface_in(riid, Scope::Global)
}

/// [`debug_interface`] for objects whose settings go to `scope`.
pub fn debug_interface_in(riid: &GUID, scope: Scope) -> Option<*mut c_void> {
    if Debug::IIDS[1..].contains(riid) {
        Some(Ptr::new(Debug { scope }).into_raw() as *mut c_void)
    } else if Debug1::IIDS[1..].contains(riid) {
        Some(Ptr::new(Debug1 { scope }).into_raw() as *mut c_void)
    } else if Debug2::IIDS[1..].contains(riid) {
        Some(Ptr::new(Debug2 { scope }).into_raw() as *mut c_void)
    } else {
        None
    }
}

fn is_debug_interface(riid: &GUID) -> bool {
    [Debug::IIDS, Debug1::IIDS, Debug2::IIDS].iter().any(|ids| ids[1..].contains(riid))
}

/// D3D12GetDebugInterface(riid, ppvDebug): E_NOINTERFACE for IIDs that are not debug
/// interfaces; `ppvDebug == NULL` asks whether the interface exists (S_FALSE).
///
/// # Safety
/// `riid` null or a GUID; `ppv` null or writable.
pub unsafe fn get_debug_interface(riid: *const IID, ppv: *mut *mut c_void) -> HRESULT {
    guard_hr("D3D12GetDebugInterface", || {
        if !ppv.is_null() {
            // SAFETY: writable per the contract.
            unsafe { *ppv = std::ptr::null_mut() };
        }
        // SAFETY: null or a GUID.
        let riid = unsafe { riid.as_ref() }.ok_or(Error::INVALID_ARG)?;
        if !is_debug_interface(riid) {
            return Err(Error::NO_INTERFACE);
        }
        if ppv.is_null() {
            return Ok(S_FALSE);
        }
        let p = debug_interface(riid).ok_or(Error::NO_INTERFACE)?;
        // SAFETY: writable per the contract.
        unsafe { *ppv = p };
        Ok(S_OK)
    })
}

/// Applies `f` to the settings of the debug object behind `this`.
fn update<T: Scoped, I>(name: &str, this: *mut I, f: impl FnOnce(&mut DebugSettings)) {
    guard(name, (), || {
        // SAFETY: COM This pointer of a debug object.
        if let Some(o) = unsafe { Object::<T>::from_this(this) } {
            o.inner.scope().update(f);
        }
    })
}

unsafe extern "C" fn enable_debug_layer<T: Scoped, I>(this: *mut I) {
    update::<T, I>("ID3D12Debug::EnableDebugLayer", this, |s| s.layer = true)
}
unsafe extern "C" fn set_gbv<T: Scoped, I>(this: *mut I, on: BOOL) {
    update::<T, I>("ID3D12Debug::SetEnableGPUBasedValidation", this, |s| s.gbv = on != 0)
}
unsafe extern "C" fn set_sync_queue<T: Scoped, I>(this: *mut I, on: BOOL) {
    update::<T, I>("ID3D12Debug::SetEnableSynchronizedCommandQueueValidation", this, |s| s.sync_queue = on != 0)
}
unsafe extern "C" fn set_gbv_flags<T: Scoped, I>(this: *mut I, flags: D3D12_GPU_BASED_VALIDATION_FLAGS) {
    update::<T, I>("ID3D12Debug::SetGPUBasedValidationFlags", this, |s| s.gbv_flags = flags.0)
}
unsafe extern "C" fn disable_debug_layer(this: *mut ID3D12Debug6) {
    update::<Debug, _>("ID3D12Debug4::DisableDebugLayer", this, |s| s.layer = false)
}
unsafe extern "C" fn set_auto_name(this: *mut ID3D12Debug6, on: BOOL) {
    update::<Debug, _>("ID3D12Debug5::SetEnableAutoName", this, |s| s.auto_name = on != 0)
}
unsafe extern "C" fn set_legacy_barrier(this: *mut ID3D12Debug6, on: BOOL) {
    update::<Debug, _>("ID3D12Debug6::SetForceLegacyBarrierValidation", this, |s| s.legacy_barrier = on != 0)
}

static DEBUG_VTBL: ID3D12Debug6Vtbl = ID3D12Debug6Vtbl {
    QueryInterface: Some(crate::com::thunks::query_interface::<Debug, ID3D12Debug6>),
    AddRef: Some(crate::com::thunks::add_ref::<Debug, ID3D12Debug6>),
    Release: Some(crate::com::thunks::release::<Debug, ID3D12Debug6>),
    EnableDebugLayer: Some(enable_debug_layer::<Debug, ID3D12Debug6>),
    SetEnableGPUBasedValidation: Some(set_gbv::<Debug, ID3D12Debug6>),
    SetEnableSynchronizedCommandQueueValidation: Some(set_sync_queue::<Debug, ID3D12Debug6>),
    SetGPUBasedValidationFlags: Some(set_gbv_flags::<Debug, ID3D12Debug6>),
    DisableDebugLayer: Some(disable_debug_layer),
    SetEnableAutoName: Some(set_auto_name),
    SetForceLegacyBarrierValidation: Some(set_legacy_barrier),
};

static DEBUG1_VTBL: ID3D12Debug1Vtbl = ID3D12Debug1Vtbl {
    QueryInterface: Some(crate::com::thunks::query_interface::<Debug1, ID3D12Debug1>),
    AddRef: Some(crate::com::thunks::add_ref::<Debug1, ID3D12Debug1>),
    Release: Some(crate::com::thunks::release::<Debug1, ID3D12Debug1>),
    EnableDebugLayer: Some(enable_debug_layer::<Debug1, ID3D12Debug1>),
    SetEnableGPUBasedValidation: Some(set_gbv::<Debug1, ID3D12Debug1>),
    SetEnableSynchronizedCommandQueueValidation: Some(set_sync_queue::<Debug1, ID3D12Debug1>),
};

static DEBUG2_VTBL: ID3D12Debug2Vtbl = ID3D12Debug2Vtbl {
    QueryInterface: Some(crate::com::thunks::query_interface::<Debug2, ID3D12Debug2>),
    AddRef: Some(crate::com::thunks::add_ref::<Debug2, ID3D12Debug2>),
    Release: Some(crate::com::thunks::release::<Debug2, ID3D12Debug2>),
    SetGPUBasedValidationFlags: Some(set_gbv_flags::<Debug2, ID3D12Debug2>),
};
