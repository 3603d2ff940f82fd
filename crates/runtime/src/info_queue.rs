//! ID3D12InfoQueue / ID3D12InfoQueue1: the COM face of the debug device's message queue
//! (debug-layer.md §4), obtained by QueryInterface on a device created with the layer on. As on
//! Windows it shares the device's identity: AddRef and Release count the device's references,
//! and QueryInterface answers the device's interfaces. The device owns the one InfoQueue
//! object; its state lives in the device's [`Sink`].
//!
//! Size-query protocol of GetMessage and Get*Filter: with a NULL buffer the needed byte length
//! is written and S_OK returned; a buffer smaller than that is E_INVALIDARG; the strings and
//! arrays are stored right after the struct, which points into the same buffer.

use crate::com::{Class, Object};
use crate::debug::{self, Sink};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use rd3d12_core::info_queue::{Filter, FilterList, FilterStack, InfoQueue as Queue};
use rd3d12_sys::*;
use std::ffi::{c_void, CStr};
use std::sync::Arc;

pub struct InfoQueue {
    /// The owning device (not a counted reference: the device owns this object).
    device: *const Object<Device>,
    sink: Arc<Sink>,
}

// SAFETY: the device pointer is only used for reference counting and QueryInterface, which
// are thread-safe; the sink is Sync.
unsafe impl Send for InfoQueue {}
// SAFETY: as above.
unsafe impl Sync for InfoQueue {}

impl InfoQueue {
    /// The info queue of `device` (owned by the device, which must outlive it).
    pub fn new(device: &Object<Device>, sink: Arc<Sink>) -> InfoQueue {
        InfoQueue { device, sink }
    }
}

type Iface = ID3D12InfoQueue1;

// SAFETY: INFO_QUEUE_VTBL's slots all take an Object<InfoQueue>.
unsafe impl Class for InfoQueue {
    type Vtbl = ID3D12InfoQueue1Vtbl;
    const VTBL: &'static ID3D12InfoQueue1Vtbl = &INFO_QUEUE_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12InfoQueue, IID_ID3D12InfoQueue1];
}

/// Runs `f` on the queue behind `this`; `default` when `this` is not ours.
///
/// # Safety
/// `this` null or a live InfoQueue pointer.
unsafe fn with<R: Copy>(this: *mut Iface, name: &str, default: R, f: impl FnOnce(&mut Queue) -> R) -> R {
    guard(name, default, || {
        // SAFETY: forwarded.
        match unsafe { Object::<InfoQueue>::from_this(this) } {
            Some(o) => f(&mut o.inner.sink.lock()),
            None => default,
        }
    })
}

/// Like [`with`] for HRESULT methods.
///
/// # Safety
/// As [`with`].
unsafe fn with_hr(this: *mut Iface, name: &str, f: impl FnOnce(&mut Queue) -> Result<HRESULT>) -> HRESULT {
    guard_hr(name, || {
        // SAFETY: forwarded.
        let o = unsafe { Object::<InfoQueue>::from_this(this) }.ok_or(Error::POINTER)?;
        f(&mut o.inner.sink.lock())
    })
}

/// # Safety
/// `p` null or `n` readable values.
unsafe fn list<T: Copy>(p: *const T, n: u32, to: impl Fn(T) -> u32) -> Result<Vec<u32>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(Error::INVALID_ARG);
    }
    // SAFETY: forwarded.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) }.iter().map(|&v| to(v)).collect())
}

/// A D3D12_INFO_QUEUE_FILTER read from the caller.
///
/// # Safety
/// `f` null or a readable filter whose lists hold their counts.
unsafe fn read_filter(f: *const D3D12_INFO_QUEUE_FILTER) -> Result<Filter> {
    // SAFETY: forwarded.
    let f = unsafe { f.as_ref() }.ok_or(Error::INVALID_ARG)?;
    let desc = |d: &D3D12_INFO_QUEUE_FILTER_DESC| -> Result<FilterList> {
        // SAFETY: forwarded.
        unsafe {
            Ok(FilterList {
                categories: list(d.pCategoryList, d.NumCategories, |v| v.0)?,
                severities: list(d.pSeverityList, d.NumSeverities, |v| v.0)?,
                ids: list(d.pIDList, d.NumIDs, |v| v.0)?,
            })
        }
    };
    Ok(Filter { allow: desc(&f.AllowList)?, deny: desc(&f.DenyList)? })
}

/// Get*Filter: the size-query protocol, the arrays after the struct.
///
/// # Safety
/// `out` null or `*len` writable bytes; `len` null or writable.
unsafe fn write_filter(f: &Filter, out: *mut D3D12_INFO_QUEUE_FILTER, len: *mut SIZE_T) -> Result<HRESULT> {
    // SAFETY: forwarded.
    let len = unsafe { len.as_mut() }.ok_or(Error::INVALID_ARG)?;
    let need = f.byte_length();
    if out.is_null() {
        *len = need;
        return Ok(S_OK);
    }
    if *len < need {
        return Err(Error::INVALID_ARG);
    }
    let base = out as *mut u8;
    let mut at = std::mem::size_of::<D3D12_INFO_QUEUE_FILTER>();
    let mut put = |v: &[u32]| -> *mut u32 {
        // SAFETY: `need` bytes are writable and `at + 4 × len` stays within them (byte_length
        // counts every value); u32 alignment holds (the struct is 8-aligned, 96 bytes).
        unsafe {
            let p = base.add(at) as *mut u32;
            std::ptr::copy_nonoverlapping(v.as_ptr(), p, v.len());
            at += 4 * v.len();
            if v.is_empty() {
                std::ptr::null_mut()
            } else {
                p
            }
        }
    };
    let mut desc = |l: &FilterList| D3D12_INFO_QUEUE_FILTER_DESC {
        NumCategories: l.categories.len() as u32,
        pCategoryList: put(&l.categories).cast(),
        NumSeverities: l.severities.len() as u32,
        pSeverityList: put(&l.severities).cast(),
        NumIDs: l.ids.len() as u32,
        pIDList: put(&l.ids).cast(),
    };
    let allow = desc(&f.allow);
    let deny = desc(&f.deny);
    // SAFETY: the struct fits (need ≥ 96).
    unsafe { out.write(D3D12_INFO_QUEUE_FILTER { AllowList: allow, DenyList: deny }) };
    *len = need;
    Ok(S_OK)
}

unsafe extern "C" fn set_message_count_limit(this: *mut Iface, limit: UINT64) -> HRESULT {
    // SAFETY: forwarded.
    unsafe {
        with_hr(this, "ID3D12InfoQueue::SetMessageCountLimit", |q| {
            q.set_limit(limit);
            Ok(S_OK)
        })
    }
}
unsafe extern "C" fn clear_stored_messages(this: *mut Iface) {
    // SAFETY: forwarded.
    unsafe { with(this, "ID3D12InfoQueue::ClearStoredMessages", (), |q| q.clear()) }
}

unsafe extern "C" fn get_message(
    this: *mut Iface,
    index: UINT64,
    out: *mut D3D12_MESSAGE,
    len: *mut SIZE_T,
) -> HRESULT {
    // SAFETY: forwarded; `out` null or *len writable bytes.
    unsafe {
        with_hr(this, "ID3D12InfoQueue::GetMessage", |q| {
            let len = len.as_mut().ok_or(Error::INVALID_ARG)?;
            let m = q.get(index).ok_or(Error::INVALID_ARG)?;
            let text = m.text.as_bytes();
            let need = std::mem::size_of::<D3D12_MESSAGE>() + text.len() + 1;
            if out.is_null() {
                *len = need;
                return Ok(S_OK);
            }
            if *len < need {
                return Err(Error::INVALID_ARG);
            }
            let s = (out as *mut u8).add(std::mem::size_of::<D3D12_MESSAGE>());
            std::ptr::copy_nonoverlapping(text.as_ptr(), s, text.len());
            *s.add(text.len()) = 0;
            out.write(D3D12_MESSAGE {
                Category: D3D12_MESSAGE_CATEGORY(m.category as _),
                Severity: D3D12_MESSAGE_SEVERITY(m.severity as _),
                ID: D3D12_MESSAGE_ID(m.id as _),
                pDescription: s as *const _,
                DescriptionByteLength: text.len() + 1,
            });
            *len = need;
            Ok(S_OK)
        })
    }
}

macro_rules! counters {
    ($($name:ident => $what:literal, $f:expr;)*) => {$(
        unsafe extern "C" fn $name(this: *mut Iface) -> UINT64 {
            // SAFETY: forwarded.
            unsafe { with(this, $what, 0, $f) }
        }
    )*};
}

counters! {
    num_allowed => "ID3D12InfoQueue::GetNumMessagesAllowedByStorageFilter", |q: &mut Queue| q.allowed();
    num_denied => "ID3D12InfoQueue::GetNumMessagesDeniedByStorageFilter", |q: &mut Queue| q.denied();
    num_stored => "ID3D12InfoQueue::GetNumStoredMessages", |q: &mut Queue| q.stored();
    num_visible => "ID3D12InfoQueue::GetNumStoredMessagesAllowedByRetrievalFilter", |q: &mut Queue| q.visible();
    num_discarded => "ID3D12InfoQueue::GetNumMessagesDiscardedByMessageCountLimit", |q: &mut Queue| q.discarded();
    message_count_limit => "ID3D12InfoQueue::GetMessageCountLimit", |q: &mut Queue| q.limit();
}

/// The filter-stack methods, once for the storage stack and once for the retrieval stack.
macro_rules! filter_methods {
    ($stack:ident, $add:ident, $get:ident, $clear:ident, $push_empty:ident, $push_copy:ident, $push:ident, $pop:ident, $size:ident) => {
        unsafe extern "C" fn $add(this: *mut Iface, f: *mut D3D12_INFO_QUEUE_FILTER) -> HRESULT {
            // SAFETY: forwarded; the filter null or readable.
            unsafe {
                with_hr(this, stringify!($add), |q| {
                    let f = read_filter(f)?;
                    q.$stack.top_mut().append(&f);
                    Ok(S_OK)
                })
            }
        }
        unsafe extern "C" fn $get(this: *mut Iface, f: *mut D3D12_INFO_QUEUE_FILTER, len: *mut SIZE_T) -> HRESULT {
            // SAFETY: forwarded.
            unsafe { with_hr(this, stringify!($get), |q| write_filter(q.$stack.top(), f, len)) }
        }
        unsafe extern "C" fn $clear(this: *mut Iface) {
            // SAFETY: forwarded.
            unsafe { with(this, stringify!($clear), (), |q| *q.$stack.top_mut() = Filter::default()) }
        }
        unsafe extern "C" fn $push_empty(this: *mut Iface) -> HRESULT {
            // SAFETY: forwarded.
            unsafe {
                with_hr(this, stringify!($push_empty), |q| {
                    q.$stack.push(Filter::default());
                    Ok(S_OK)
                })
            }
        }
        unsafe extern "C" fn $push_copy(this: *mut Iface) -> HRESULT {
            // SAFETY: forwarded.
            unsafe {
                with_hr(this, stringify!($push_copy), |q| {
                    let top = q.$stack.top().clone();
                    q.$stack.push(top);
                    Ok(S_OK)
                })
            }
        }
        unsafe extern "C" fn $push(this: *mut Iface, f: *mut D3D12_INFO_QUEUE_FILTER) -> HRESULT {
            // SAFETY: forwarded.
            unsafe {
                with_hr(this, stringify!($push), |q| {
                    let f = read_filter(f)?;
                    q.$stack.push(f);
                    Ok(S_OK)
                })
            }
        }
        unsafe extern "C" fn $pop(this: *mut Iface) {
            // SAFETY: forwarded.
            unsafe { with(this, stringify!($pop), (), |q| q.$stack.pop()) }
        }
        unsafe extern "C" fn $size(this: *mut Iface) -> UINT {
            // SAFETY: forwarded.
            unsafe { with(this, stringify!($size), 0, |q| FilterStack::len(&q.$stack) as UINT) }
        }
    };
}

filter_methods!(
    storage,
    add_storage_entries,
    get_storage_filter,
    clear_storage_filter,
    push_empty_storage,
    push_copy_storage,
    push_storage,
    pop_storage,
    storage_stack_size
);
filter_methods!(
    retrieval,
    add_retrieval_entries,
    get_retrieval_filter,
    clear_retrieval_filter,
    push_empty_retrieval,
    push_copy_retrieval,
    push_retrieval,
    pop_retrieval,
    retrieval_stack_size
);

/// # Safety
/// `s` null or a NUL-terminated string.
unsafe fn text<'a>(s: LPCSTR) -> Result<std::borrow::Cow<'a, str>> {
    if s.is_null() {
        return Err(Error::INVALID_ARG);
    }
    // SAFETY: forwarded.
    Ok(unsafe { CStr::from_ptr(s) }.to_string_lossy())
}

unsafe extern "C" fn add_message(
    this: *mut Iface,
    category: D3D12_MESSAGE_CATEGORY,
    severity: D3D12_MESSAGE_SEVERITY,
    id: D3D12_MESSAGE_ID,
    description: LPCSTR,
) -> HRESULT {
    guard_hr("ID3D12InfoQueue::AddMessage", || {
        // SAFETY: COM This pointer; the string null or NUL-terminated.
        unsafe { Object::<InfoQueue>::from_this(this) }.ok_or(Error::POINTER)?;
        let t = unsafe { text(description)? };
        debug::deliver("", category.0, severity.0, id.0, &t);
        Ok(S_OK)
    })
}

unsafe extern "C" fn add_application_message(
    this: *mut Iface,
    severity: D3D12_MESSAGE_SEVERITY,
    description: LPCSTR,
) -> HRESULT {
    // SAFETY: forwarded.
    unsafe {
        add_message(
            this,
            D3D12_MESSAGE_CATEGORY_APPLICATION_DEFINED,
            severity,
            D3D12_MESSAGE_ID_STRING_FROM_APPLICATION,
            description,
        )
    }
}

macro_rules! break_on {
    ($set:ident, $get:ident, $ty:ty, $qset:ident, $qget:ident) => {
        unsafe extern "C" fn $set(this: *mut Iface, v: $ty, on: BOOL) -> HRESULT {
            // SAFETY: forwarded.
            unsafe {
                with_hr(this, stringify!($set), |q| {
                    q.$qset(v.0 as u32, on != 0);
                    Ok(S_OK)
                })
            }
        }
        unsafe extern "C" fn $get(this: *mut Iface, v: $ty) -> BOOL {
            // SAFETY: forwarded.
            unsafe { with(this, stringify!($get), 0, |q| q.$qget(v.0 as u32) as BOOL) }
        }
    };
}

break_on!(set_break_category, get_break_category, D3D12_MESSAGE_CATEGORY, set_break_category, break_category);
break_on!(set_break_severity, get_break_severity, D3D12_MESSAGE_SEVERITY, set_break_severity, break_severity);
break_on!(set_break_id, get_break_id, D3D12_MESSAGE_ID, set_break_id, break_id);

unsafe extern "C" fn set_mute(this: *mut Iface, mute: BOOL) {
    // SAFETY: forwarded.
    unsafe { with(this, "ID3D12InfoQueue::SetMuteDebugOutput", (), |q| q.mute = mute != 0) }
}
unsafe extern "C" fn get_mute(this: *mut Iface) -> BOOL {
    // SAFETY: forwarded.
    unsafe { with(this, "ID3D12InfoQueue::GetMuteDebugOutput", 0, |q| q.mute as BOOL) }
}

unsafe extern "C" fn register_callback(
    this: *mut Iface,
    func: D3D12MessageFunc,
    flags: D3D12_MESSAGE_CALLBACK_FLAGS,
    context: *mut c_void,
    cookie: *mut DWORD,
) -> HRESULT {
    guard_hr("ID3D12InfoQueue1::RegisterMessageCallback", || {
        // SAFETY: COM This pointer; `cookie` null or writable.
        unsafe { Object::<InfoQueue>::from_this(this) }.ok_or(Error::POINTER)?;
        let cookie = unsafe { cookie.as_mut() }.ok_or(Error::INVALID_ARG)?;
        *cookie = 0;
        let func = func.ok_or(Error::INVALID_ARG)?;
        *cookie = debug::register_callback(func, flags.0, context);
        Ok(S_OK)
    })
}

unsafe extern "C" fn unregister_callback(this: *mut Iface, cookie: DWORD) -> HRESULT {
    guard_hr("ID3D12InfoQueue1::UnregisterMessageCallback", || {
        // SAFETY: COM This pointer.
        unsafe { Object::<InfoQueue>::from_this(this) }.ok_or(Error::POINTER)?;
        if debug::unregister_callback(cookie) {
            Ok(S_OK)
        } else {
            Err(Error::INVALID_ARG)
        }
    })
}

impl crate::com::facet::Facet for InfoQueue {
    type Owner = Device;
    fn owner(&self) -> &Object<Device> {
        // SAFETY: the device owns this object, so it is alive while the object is reachable.
        unsafe { &*self.device }
    }
}

static INFO_QUEUE_VTBL: ID3D12InfoQueue1Vtbl = ID3D12InfoQueue1Vtbl {
    QueryInterface: Some(crate::com::facet::query_interface::<InfoQueue, Iface>),
    AddRef: Some(crate::com::facet::add_ref::<InfoQueue, Iface>),
    Release: Some(crate::com::facet::release::<InfoQueue, Iface>),
    SetMessageCountLimit: Some(set_message_count_limit),
    ClearStoredMessages: Some(clear_stored_messages),
    GetMessage: Some(get_message),
    GetNumMessagesAllowedByStorageFilter: Some(num_allowed),
    GetNumMessagesDeniedByStorageFilter: Some(num_denied),
    GetNumStoredMessages: Some(num_stored),
    GetNumStoredMessagesAllowedByRetrievalFilter: Some(num_visible),
    GetNumMessagesDiscardedByMessageCountLimit: Some(num_discarded),
    GetMessageCountLimit: Some(message_count_limit),
    AddStorageFilterEntries: Some(add_storage_entries),
    GetStorageFilter: Some(get_storage_filter),
    ClearStorageFilter: Some(clear_storage_filter),
    PushEmptyStorageFilter: Some(push_empty_storage),
    PushCopyOfStorageFilter: Some(push_copy_storage),
    PushStorageFilter: Some(push_storage),
    PopStorageFilter: Some(pop_storage),
    GetStorageFilterStackSize: Some(storage_stack_size),
    AddRetrievalFilterEntries: Some(add_retrieval_entries),
    GetRetrievalFilter: Some(get_retrieval_filter),
    ClearRetrievalFilter: Some(clear_retrieval_filter),
    PushEmptyRetrievalFilter: Some(push_empty_retrieval),
    PushCopyOfRetrievalFilter: Some(push_copy_retrieval),
    PushRetrievalFilter: Some(push_retrieval),
    PopRetrievalFilter: Some(pop_retrieval),
    GetRetrievalFilterStackSize: Some(retrieval_stack_size),
    AddMessage: Some(add_message),
    AddApplicationMessage: Some(add_application_message),
    SetBreakOnCategory: Some(set_break_category),
    SetBreakOnSeverity: Some(set_break_severity),
    SetBreakOnID: Some(set_break_id),
    GetBreakOnCategory: Some(get_break_category),
    GetBreakOnSeverity: Some(get_break_severity),
    GetBreakOnID: Some(get_break_id),
    SetMuteDebugOutput: Some(set_mute),
    GetMuteDebugOutput: Some(get_mute),
    RegisterMessageCallback: Some(register_callback),
    UnregisterMessageCallback: Some(unregister_callback),
};
