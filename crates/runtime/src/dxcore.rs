//! DXCore: IDXCoreAdapterFactory, IDXCoreAdapterList and IDXCoreAdapter over the CPU adapter,
//! exported by libdxcore.so (crates/dxcore) through DXCoreCreateAdapterFactory.
//!
//! The factory is a process-wide singleton while referenced; it hands out one adapter object
//! (the same pointer from every list and from GetAdapterByLuid) while that is referenced.
//! Adapters hold their factory, lists hold their adapters and factory.
//!
//! Microsoft docs: <https://learn.microsoft.com/windows/win32/dxcore/dxcore-reference>
#![allow(clippy::missing_safety_doc, non_upper_case_globals)]

use crate::com::{self, Class, Object, Ptr, WeakSlot};
use crate::error::{guard, guard_hr, Error, Result};
use rd3d12_core::adapter::{self as facts, AdapterFacts, QueryError};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

fn query_error(e: QueryError) -> Error {
    Error::hr(match e {
        QueryError::Unknown => DXGI_ERROR_INVALID_CALL,
        QueryError::Unsupported => DXGI_ERROR_UNSUPPORTED,
        QueryError::BufferTooSmall | QueryError::BadInput => E_INVALIDARG,
    })
}

/// One RegisterEventNotification registration. No event ever fires for the CPU adapter (its
/// list never goes stale, it never becomes invalid, and it has no content protection), but
/// registrations are kept and removed as documented.
struct Registration {
    cookie: u32,
}

pub struct Factory {
    adapter: WeakSlot<Adapter>,
    registrations: Mutex<Vec<Registration>>,
    next_cookie: AtomicU32,
}

static FACTORY: WeakSlot<Factory> = WeakSlot::new();

/// DXCoreCreateAdapterFactory's object: the live factory, or a new one.
pub fn factory() -> Ptr<Factory> {
    FACTORY.get_or_make(|| {
        Ptr::new(Factory {
            adapter: WeakSlot::new(),
            registrations: Mutex::new(Vec::new()),
            next_cookie: AtomicU32::new(1),
        })
    })
}

impl Drop for Factory {
    fn drop(&mut self) {
        FACTORY.clear(self);
    }
}

impl Factory {
    fn adapter(obj: &Object<Factory>) -> Ptr<Adapter> {
        obj.inner
            .adapter
            .get_or_make(|| Ptr::new(Adapter { factory: Ptr::from_ref(obj), facts: crate::adapter::adapter_facts() }))
    }
}

/// A static, not a promoted constant: [`com::downcast`] recognises objects by this address,
/// which must be one for the whole library.
static FACTORY_VTBL: IDXCoreAdapterFactoryVtbl = IDXCoreAdapterFactoryVtbl {
    QueryInterface: Some(com::thunks::query_interface::<Factory, IDXCoreAdapterFactory>),
    AddRef: Some(com::thunks::add_ref::<Factory, IDXCoreAdapterFactory>),
    Release: Some(com::thunks::release::<Factory, IDXCoreAdapterFactory>),
    CreateAdapterList: Some(create_adapter_list),
    GetAdapterByLuid: Some(get_adapter_by_luid),
    IsNotificationTypeSupported: Some(is_notification_type_supported),
    RegisterEventNotification: Some(register_event_notification),
    UnregisterEventNotification: Some(unregister_event_notification),
};

// SAFETY: the vtable's slots all take an Object<Factory>.
unsafe impl Class for Factory {
    type Vtbl = IDXCoreAdapterFactoryVtbl;
    const VTBL: &'static IDXCoreAdapterFactoryVtbl = &FACTORY_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_IDXCoreAdapterFactory];
}

pub struct AdapterList {
    factory: Ptr<Factory>,
    adapters: Mutex<Vec<Ptr<Adapter>>>,
}

/// A static, not a promoted constant: [`com::downcast`] recognises objects by this address,
/// which must be one for the whole library.
static ADAPTER_LIST_VTBL: IDXCoreAdapterListVtbl = IDXCoreAdapterListVtbl {
    QueryInterface: Some(com::thunks::query_interface::<AdapterList, IDXCoreAdapterList>),
    AddRef: Some(com::thunks::add_ref::<AdapterList, IDXCoreAdapterList>),
    Release: Some(com::thunks::release::<AdapterList, IDXCoreAdapterList>),
    GetAdapter: Some(get_adapter),
    GetAdapterCount: Some(get_adapter_count),
    IsStale: Some(is_stale),
    GetFactory: Some(list_get_factory),
    Sort: Some(sort),
    IsAdapterPreferenceSupported: Some(is_adapter_preference_supported),
};

// SAFETY: the vtable's slots all take an Object<AdapterList>.
unsafe impl Class for AdapterList {
    type Vtbl = IDXCoreAdapterListVtbl;
    const VTBL: &'static IDXCoreAdapterListVtbl = &ADAPTER_LIST_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_IDXCoreAdapterList];
}

pub struct Adapter {
    factory: Ptr<Factory>,
    facts: AdapterFacts,
}

impl Drop for Adapter {
    fn drop(&mut self) {
        self.factory.inner.adapter.clear(self);
    }
}

/// A static, not a promoted constant: [`com::downcast`] recognises objects by this address,
/// which must be one for the whole library.
static ADAPTER_VTBL: IDXCoreAdapterVtbl = IDXCoreAdapterVtbl {
    QueryInterface: Some(com::thunks::query_interface::<Adapter, IDXCoreAdapter>),
    AddRef: Some(com::thunks::add_ref::<Adapter, IDXCoreAdapter>),
    Release: Some(com::thunks::release::<Adapter, IDXCoreAdapter>),
    IsValid: Some(is_valid),
    IsAttributeSupported: Some(is_attribute_supported),
    IsPropertySupported: Some(is_property_supported),
    GetProperty: Some(get_property),
    GetPropertySize: Some(get_property_size),
    IsQueryStateSupported: Some(is_query_state_supported),
    QueryState: Some(query_state),
    IsSetStateSupported: Some(is_set_state_supported),
    SetState: Some(set_state),
    GetFactory: Some(adapter_get_factory),
};

// SAFETY: the vtable's slots all take an Object<Adapter>.
unsafe impl Class for Adapter {
    type Vtbl = IDXCoreAdapterVtbl;
    const VTBL: &'static IDXCoreAdapterVtbl = &ADAPTER_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_IDXCoreAdapter];
}

/// The attributes the CPU adapter has: D3D12 graphics and D3D12 core compute (no D3D11).
pub fn has_attribute(g: &GUID) -> bool {
    *g == DXCORE_ADAPTER_ATTRIBUTE_D3D12_GRAPHICS || *g == DXCORE_ADAPTER_ATTRIBUTE_D3D12_CORE_COMPUTE
}

unsafe fn obj<'a, T: Class, I>(this: *mut I) -> Result<&'a Object<T>> {
    // SAFETY: the caller passes one of our live interface pointers.
    unsafe { Object::<T>::from_this(this) }.ok_or(Error::POINTER)
}

/// Hands `p` to `(riid, ppv)`: E_POINTER for a NULL `ppv`, E_NOINTERFACE outside its chain.
unsafe fn give<T: Class>(p: Ptr<T>, riid: *const GUID, ppv: *mut *mut c_void) -> Result<HRESULT> {
    if ppv.is_null() {
        return Err(Error::POINTER);
    }
    // SAFETY: as the caller's contract.
    Ok(unsafe { com::hand_out(p, riid, ppv) })
}

/// Clears a COM out-pointer and refuses a NULL one.
unsafe fn clear_out(ppv: *mut *mut c_void) -> Result<()> {
    if ppv.is_null() {
        return Err(Error::POINTER);
    }
    // SAFETY: non-null out-pointer from the caller.
    unsafe { *ppv = std::ptr::null_mut() };
    Ok(())
}

// ---- IDXCoreAdapterFactory ----

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapterfactory-createadapterlist>
unsafe extern "C" fn create_adapter_list(
    this: *mut IDXCoreAdapterFactory,
    num: u32,
    attrs: *const GUID,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapterFactory::CreateAdapterList", || unsafe {
        let f = obj::<Factory, _>(this)?;
        clear_out(ppv)?;
        if num == 0 || attrs.is_null() {
            return Err(Error::INVALID_ARG);
        }
        let wanted = std::slice::from_raw_parts(attrs, num as usize);
        let adapters = if wanted.iter().all(has_attribute) { vec![Factory::adapter(f)] } else { Vec::new() };
        give(Ptr::new(AdapterList { factory: Ptr::from_ref(f), adapters: Mutex::new(adapters) }), riid, ppv)
    })
}

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapterfactory-getadapterbyluid>
unsafe extern "C" fn get_adapter_by_luid(
    this: *mut IDXCoreAdapterFactory,
    luid: *const LUID,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapterFactory::GetAdapterByLuid", || unsafe {
        let f = obj::<Factory, _>(this)?;
        clear_out(ppv)?;
        let ours = crate::adapter::luid();
        match luid.as_ref() {
            Some(l) if l.LowPart == ours.LowPart && l.HighPart == ours.HighPart => give(Factory::adapter(f), riid, ppv),
            _ => Err(Error::INVALID_ARG),
        }
    })
}

unsafe extern "C" fn is_notification_type_supported(
    _this: *mut IDXCoreAdapterFactory,
    t: DXCoreNotificationType,
) -> bool {
    // The adapter has no hardware content protection to tear down.
    t.0 <= DXCoreNotificationType_AdapterBudgetChange.0
}

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapterfactory-registereventnotification>
unsafe extern "C" fn register_event_notification(
    this: *mut IDXCoreAdapterFactory,
    object: *mut IUnknown,
    t: DXCoreNotificationType,
    callback: PFN_DXCORE_NOTIFICATION_CALLBACK,
    _context: *mut c_void,
    cookie: *mut u32,
) -> HRESULT {
    guard_hr("IDXCoreAdapterFactory::RegisterEventNotification", || unsafe {
        let f = obj::<Factory, _>(this)?;
        if let Some(c) = cookie.as_mut() {
            *c = 0;
        }
        if callback.is_none() || cookie.is_null() {
            return Err(Error::POINTER);
        }
        if !is_notification_type_supported(this, t) {
            return Err(Error::hr(DXGI_ERROR_INVALID_CALL));
        }
        if object.is_null() {
            return Err(Error::INVALID_ARG);
        }
        // A list raises AdapterListStale; an adapter the other kinds.
        let fits = if t == DXCoreNotificationType_AdapterListStale {
            com::downcast::<AdapterList, _>(object).is_some()
        } else {
            com::downcast::<Adapter, _>(object).is_some()
        };
        if !fits {
            return Err(Error::INVALID_ARG);
        }
        let n = f.inner.next_cookie.fetch_add(1, Ordering::Relaxed).max(1);
        f.inner.registrations.lock().unwrap_or_else(|e| e.into_inner()).push(Registration { cookie: n });
        *cookie = n;
        Ok(S_OK)
    })
}

unsafe extern "C" fn unregister_event_notification(this: *mut IDXCoreAdapterFactory, cookie: u32) -> HRESULT {
    guard_hr("IDXCoreAdapterFactory::UnregisterEventNotification", || unsafe {
        let f = obj::<Factory, _>(this)?;
        let mut regs = f.inner.registrations.lock().unwrap_or_else(|e| e.into_inner());
        let i = regs.iter().position(|r| r.cookie == cookie).ok_or(Error::INVALID_ARG)?;
        regs.remove(i);
        Ok(S_OK)
    })
}

// ---- IDXCoreAdapterList ----

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapterlist-getadapter>
unsafe extern "C" fn get_adapter(
    this: *mut IDXCoreAdapterList,
    index: u32,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapterList::GetAdapter", || unsafe {
        let l = obj::<AdapterList, _>(this)?;
        clear_out(ppv)?;
        let a = l.inner.adapters.lock().unwrap_or_else(|e| e.into_inner()).get(index as usize).cloned();
        give(a.ok_or(Error::INVALID_ARG)?, riid, ppv)
    })
}

unsafe extern "C" fn get_adapter_count(this: *mut IDXCoreAdapterList) -> u32 {
    guard("IDXCoreAdapterList::GetAdapterCount", 0, || unsafe {
        obj::<AdapterList, _>(this)
            .map_or(0, |l| l.inner.adapters.lock().unwrap_or_else(|e| e.into_inner()).len() as u32)
    })
}

/// The CPU adapter never goes away and no adapter ever arrives: a list never goes stale.
unsafe extern "C" fn is_stale(_this: *mut IDXCoreAdapterList) -> bool {
    false
}

unsafe extern "C" fn list_get_factory(
    this: *mut IDXCoreAdapterList,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapterList::GetFactory", || unsafe {
        let l = obj::<AdapterList, _>(this)?;
        clear_out(ppv)?;
        give(l.inner.factory.clone(), riid, ppv)
    })
}

/// Orders two adapters by one preference: `Less` when `a` is preferred.
fn prefer(p: DXCoreAdapterPreference, a: &AdapterFacts, b: &AdapterFacts) -> std::cmp::Ordering {
    match p {
        // Hardware first; integrated adapters draw the least power; discrete ones perform best.
        DXCoreAdapterPreference_Hardware => b.is_hardware.cmp(&a.is_hardware),
        DXCoreAdapterPreference_MinimumPower => b.is_integrated.cmp(&a.is_integrated),
        DXCoreAdapterPreference_HighPerformance => a.is_integrated.cmp(&b.is_integrated),
        _ => std::cmp::Ordering::Equal,
    }
}

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapterlist-sort>
/// Unknown preferences are ignored, as documented; the sort is stable.
unsafe extern "C" fn sort(this: *mut IDXCoreAdapterList, n: u32, prefs: *const DXCoreAdapterPreference) -> HRESULT {
    guard_hr("IDXCoreAdapterList::Sort", || unsafe {
        let l = obj::<AdapterList, _>(this)?;
        if n == 0 || prefs.is_null() {
            return Err(Error::INVALID_ARG);
        }
        let prefs = std::slice::from_raw_parts(prefs, n as usize);
        l.inner.adapters.lock().unwrap_or_else(|e| e.into_inner()).sort_by(|a, b| {
            prefs
                .iter()
                .map(|p| prefer(*p, &a.inner.facts, &b.inner.facts))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        Ok(S_OK)
    })
}

unsafe extern "C" fn is_adapter_preference_supported(
    _this: *mut IDXCoreAdapterList,
    p: DXCoreAdapterPreference,
) -> bool {
    p.0 <= DXCoreAdapterPreference_HighPerformance.0
}

// ---- IDXCoreAdapter ----

unsafe extern "C" fn is_valid(_this: *mut IDXCoreAdapter) -> bool {
    true
}

unsafe extern "C" fn is_attribute_supported(_this: *mut IDXCoreAdapter, attr: *const GUID) -> bool {
    // SAFETY: null or a GUID from the caller.
    unsafe { attr.as_ref() }.is_some_and(has_attribute)
}

unsafe extern "C" fn is_property_supported(_this: *mut IDXCoreAdapter, p: DXCoreAdapterProperty) -> bool {
    p.0 < facts::PROPERTY_COUNT
}

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapter-getproperty>
unsafe extern "C" fn get_property(
    this: *mut IDXCoreAdapter,
    p: DXCoreAdapterProperty,
    size: usize,
    data: *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapter::GetProperty", || unsafe {
        let a = obj::<Adapter, _>(this)?;
        a.inner.facts.property(p.0).map_err(query_error)?;
        if data.is_null() {
            return Err(Error::POINTER);
        }
        let out = std::slice::from_raw_parts_mut(data as *mut u8, size);
        a.inner.facts.fill_property(p.0, out).map_err(query_error)?;
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_property_size(
    this: *mut IDXCoreAdapter,
    p: DXCoreAdapterProperty,
    size: *mut usize,
) -> HRESULT {
    guard_hr("IDXCoreAdapter::GetPropertySize", || unsafe {
        let a = obj::<Adapter, _>(this)?;
        let v = a.inner.facts.property(p.0).map_err(query_error)?;
        *size.as_mut().ok_or(Error::POINTER)? = v.len();
        Ok(S_OK)
    })
}

unsafe extern "C" fn is_query_state_supported(_this: *mut IDXCoreAdapter, s: DXCoreAdapterState) -> bool {
    s.0 < facts::STATE_COUNT
}

/// <https://learn.microsoft.com/windows/win32/dxcore/dxcore_interface/nf-dxcore_interface-idxcoreadapter-querystate>
/// IsDriverUpdateInProgress is a one-byte false (the runtime is never updated under a running
/// process); AdapterMemoryBudget takes a DXCoreAdapterMemoryBudgetNodeSegmentGroup and fills a
/// DXCoreAdapterMemoryBudget with the heaps' real usage and the system's available memory.
unsafe extern "C" fn query_state(
    this: *mut IDXCoreAdapter,
    s: DXCoreAdapterState,
    in_size: usize,
    input: *const c_void,
    out_size: usize,
    out: *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapter::QueryState", || unsafe {
        obj::<Adapter, _>(this)?;
        match s {
            DXCoreAdapterState_IsDriverUpdateInProgress => {
                if out.is_null() {
                    return Err(Error::POINTER);
                }
                if out_size < 1 {
                    return Err(Error::INVALID_ARG);
                }
                *(out as *mut u8) = 0;
                Ok(S_OK)
            }
            DXCoreAdapterState_AdapterMemoryBudget => {
                if input.is_null() || out.is_null() {
                    return Err(Error::POINTER);
                }
                if in_size < size_of::<DXCoreAdapterMemoryBudgetNodeSegmentGroup>()
                    || out_size < size_of::<DXCoreAdapterMemoryBudget>()
                {
                    return Err(Error::INVALID_ARG);
                }
                let which = std::ptr::read_unaligned(input as *const DXCoreAdapterMemoryBudgetNodeSegmentGroup);
                let b = facts::memory_budget(
                    which.nodeIndex,
                    which.segmentGroup.0,
                    crate::adapter::heap_usage(),
                    crate::adapter::available_memory(),
                    crate::adapter::total_memory(),
                )
                .map_err(query_error)?;
                let v = DXCoreAdapterMemoryBudget {
                    budget: b.budget,
                    currentUsage: b.current_usage,
                    availableForReservation: b.available_for_reservation,
                    currentReservation: b.current_reservation,
                };
                std::ptr::write_unaligned(out as *mut DXCoreAdapterMemoryBudget, v);
                Ok(S_OK)
            }
            _ => Err(Error::hr(DXGI_ERROR_INVALID_CALL)),
        }
    })
}

/// Neither state of the headers can be set (DXCoreAdapterState reference).
unsafe extern "C" fn is_set_state_supported(_this: *mut IDXCoreAdapter, _s: DXCoreAdapterState) -> bool {
    false
}

unsafe extern "C" fn set_state(
    this: *mut IDXCoreAdapter,
    s: DXCoreAdapterState,
    _in_size: usize,
    _input: *const c_void,
    _data_size: usize,
    _data: *const c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapter::SetState", || unsafe {
        obj::<Adapter, _>(this)?;
        Err(Error::hr(if s.0 < facts::STATE_COUNT { DXGI_ERROR_UNSUPPORTED } else { DXGI_ERROR_INVALID_CALL }))
    })
}

unsafe extern "C" fn adapter_get_factory(
    this: *mut IDXCoreAdapter,
    riid: *const GUID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("IDXCoreAdapter::GetFactory", || unsafe {
        let a = obj::<Adapter, _>(this)?;
        clear_out(ppv)?;
        give(a.inner.factory.clone(), riid, ppv)
    })
}

/// The LUID of an adapter object from any library, asked through QueryInterface for
/// IDXCoreAdapter and GetProperty(InstanceLuid), never by looking inside it. `None` when the
/// object is not a DXCore adapter.
///
/// # Safety
/// `unk` must be a live COM object.
pub unsafe fn dxcore_adapter_luid(unk: *mut IUnknown) -> Option<LUID> {
    // SAFETY: a live COM object's first field is its vtable pointer.
    let qi = unsafe { (*(*unk).lpVtbl).QueryInterface? };
    let mut p: *mut c_void = std::ptr::null_mut();
    // SAFETY: QueryInterface with a valid IID and out-pointer.
    if unsafe { qi(unk, &IID_IDXCoreAdapter, &mut p) } < 0 || p.is_null() {
        return None;
    }
    let a = p as *mut IDXCoreAdapter;
    let mut luid = LUID::default();
    // SAFETY: `a` is an IDXCoreAdapter the object handed out with a reference we now release.
    unsafe {
        let v = &*(*a).lpVtbl;
        let hr = v.GetProperty.map_or(E_FAIL, |f| {
            f(a, DXCoreAdapterProperty_InstanceLuid, size_of::<LUID>(), &mut luid as *mut LUID as *mut c_void)
        });
        if let Some(r) = v.Release {
            r(a);
        }
        (hr >= 0).then_some(luid)
    }
}
