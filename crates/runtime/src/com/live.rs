//! The live-object registry behind ID3D12DebugDevice::ReportLiveDeviceObjects: while a debug
//! device exists, every object of a class that names its interface ([`Class::LIVE`]) is recorded
//! at creation and removed before it is freed, so a report can read its reference count and
//! debug name.

use super::private_data::PrivateData;
use rd3d12_sys::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

/// The class-independent prefix of every `Object<T>` (`#[repr(C)]`: vtable, count, private data).
#[repr(C)]
struct Header {
    _vtbl: *const (),
    /// Public count in the low 32 bits, internal references above (see `Object`).
    refs: AtomicU64,
    private: PrivateData,
}

struct Entry {
    iface: &'static str,
    id: D3D12_MESSAGE_ID,
    /// Submitted command lists referencing the object that have not finished executing.
    pending: u32,
    /// Whether the object is resident (pageable objects), read under the registry lock.
    resident: fn(usize) -> bool,
}

static TRACKING: AtomicBool = AtomicBool::new(false);
static COUNT: AtomicUsize = AtomicUsize::new(0);
/// By object address (a map: submissions look up every object they reference).
static LIVE: Mutex<Option<HashMap<usize, Entry>>> = Mutex::new(None);

fn live() -> std::sync::MutexGuard<'static, Option<HashMap<usize, Entry>>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Turns recording on or off (on while a debug device exists).
pub fn set_tracking(on: bool) {
    TRACKING.store(on, Ordering::Release);
}

#[inline(always)]
pub(super) fn tracking() -> bool {
    TRACKING.load(Ordering::Relaxed)
}

#[cold]
#[inline(never)]
pub(super) fn register(addr: usize, iface: &'static str, id: D3D12_MESSAGE_ID, resident: fn(usize) -> bool) {
    let mut g = live();
    let l = g.get_or_insert_with(HashMap::new);
    l.insert(addr, Entry { iface, id, pending: 0, resident });
    COUNT.store(l.len(), Ordering::Release);
}

/// Records an object of a class whose `LIVE_AUTO` is false (its creator knows the device has
/// the debug layer).
pub fn register_object<T: super::Class>(obj: &super::Object<T>) {
    if let Some((iface, id)) = T::LIVE {
        if tracking() {
            register(obj as *const super::Object<T> as usize, iface, id, resident_thunk::<T>);
        }
    }
}

/// Called before an object of a tracked class is freed.
#[inline(always)]
pub fn unregister(addr: usize) {
    if COUNT.load(Ordering::Relaxed) != 0 {
        unregister_slow(addr);
    }
}

#[cold]
#[inline(never)]
fn unregister_slow(addr: usize) {
    let mut g = live();
    let gone = g.as_mut().and_then(|l| l.remove(&addr));
    let left = g.as_ref().map_or(0, HashMap::len);
    if left == 0 {
        *g = None; // the last object is gone: the table is freed, not left for the process's end
    }
    COUNT.store(left, Ordering::Release);
    drop(g);
    if let Some(e) = gone.filter(|e| e.pending > 0) {
        crate::debug::report_parts(
            &format!("{}::Release", e.iface),
            D3D12_MESSAGE_CATEGORY_EXECUTION,
            D3D12_MESSAGE_SEVERITY_ERROR,
            D3D12_MESSAGE_ID_OBJECT_DELETED_WHILE_STILL_IN_USE.0,
            &format!(
                "{} 0x{:016X} is destroyed while {} submitted command list(s) referencing it have not finished executing.",
                e.iface, addr, e.pending
            ),
        );
    }
}

/// ExecuteCommandLists with the layer on: each object the lists reference counts one more
/// pending use; returns the debug layer's findings (an object already destroyed, or not
/// resident) as (ID, severity, text).
pub fn begin_use(ids: impl Iterator<Item = u64>) -> Vec<(D3D12_MESSAGE_ID, D3D12_MESSAGE_SEVERITY, String)> {
    let mut found = Vec::new();
    if !tracking() {
        return found;
    }
    let mut g = live();
    let Some(l) = g.as_mut() else { return found };
    for id in ids {
        match l.get_mut(&(id as usize)) {
            Some(e) => {
                e.pending += 1;
                if !(e.resident)(id as usize) {
                    found.push((
                        D3D12_MESSAGE_ID_INVALID_USE_OF_NON_RESIDENT_RESOURCE,
                        D3D12_MESSAGE_SEVERITY_ERROR,
                        format!(
                            "{} 0x{id:016X} is referenced by the submitted work but is not resident (Evict).",
                            e.iface
                        ),
                    ));
                }
            }
            None => found.push((
                D3D12_MESSAGE_ID_USE_OF_ZERO_REFCOUNT_OBJECT,
                D3D12_MESSAGE_SEVERITY_CORRUPTION,
                format!("an object 0x{id:016X} referenced by the submitted work has already been destroyed."),
            )),
        }
    }
    found
}

/// The work counted by [`begin_use`] has finished executing.
pub fn end_use(ids: impl Iterator<Item = u64>) {
    if COUNT.load(Ordering::Acquire) == 0 {
        return;
    }
    let mut g = live();
    let Some(l) = g.as_mut() else { return };
    for id in ids {
        if let Some(e) = l.get_mut(&(id as usize)) {
            e.pending = e.pending.saturating_sub(1);
        }
    }
}

/// Whether submitted work that has not finished references the object at `addr`.
pub fn in_use(addr: usize) -> bool {
    if COUNT.load(Ordering::Acquire) == 0 {
        return false;
    }
    live().as_ref().and_then(|l| l.get(&addr)).is_some_and(|e| e.pending > 0)
}

/// The residency of the object at `addr` of class `T` (for [`register`]).
pub(super) fn resident_thunk<T: super::Class>(addr: usize) -> bool {
    // SAFETY: called under the registry lock for a registered (so live) Object<T>.
    T::resident(&unsafe { &*(addr as *const super::Object<T>) }.inner)
}

/// One live object as ReportLiveDeviceObjects lists it.
pub struct LiveObject {
    pub addr: usize,
    pub iface: &'static str,
    pub id: D3D12_MESSAGE_ID,
    pub refs: u32,
    /// Internal references (other objects holding it: IntRef).
    pub int_refs: u32,
    /// SetName's name (WKPDID_D3DDebugObjectNameW), if any.
    pub name: Option<String>,
}

/// Every recorded object, by address.
pub fn snapshot() -> Vec<LiveObject> {
    let g = live();
    let mut out: Vec<LiveObject> = g
        .iter()
        .flatten()
        .map(|(&addr, e)| {
            // SAFETY: entries are removed (under this lock) before their object is freed, so the
            // address points at a live Object<T>, whose #[repr(C)] prefix is a Header.
            let h = unsafe { &*(addr as *const Header) };
            let refs = h.refs.load(Ordering::Relaxed);
            LiveObject {
                addr,
                iface: e.iface,
                id: e.id,
                refs: refs as u32,
                int_refs: (refs >> 32) as u32,
                name: name_of(&h.private),
            }
        })
        .collect();
    out.sort_by_key(|o| o.addr);
    out
}

pub(crate) fn name_of(p: &PrivateData) -> Option<String> {
    let mut size = 0u32;
    // SAFETY: a NULL buffer asks for the size only.
    unsafe { p.get(&WKPDID_D3DDebugObjectNameW, &mut size, std::ptr::null_mut()) };
    if size < 4 {
        return None;
    }
    let mut buf = vec![0u8; size as usize];
    // SAFETY: `buf` holds `size` writable bytes.
    if unsafe { p.get(&WKPDID_D3DDebugObjectNameW, &mut size, buf.as_mut_ptr()) } != S_OK {
        return None;
    }
    let wide: String = buf
        .chunks_exact(4)
        .map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
        .take_while(|&c| c != 0)
        .filter_map(char::from_u32)
        .collect();
    Some(wide)
}
