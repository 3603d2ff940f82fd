//! The bytes of device memory this process holds: DXCore's AdapterMemoryBudget `currentUsage`.
//!
//! Every mapping of heap memory ([`super::memory::Memory`]) is registered here by its
//! file's identity (st_dev, st_ino) and length; the usage is, per file, the largest mapping of
//! it (a heap opened twice through a shared handle is one heap), summed. Mesa's d3d12 driver
//! asks for the budget at every flush, so this must be cheap: it was a scan of /proc/self/maps
//! (half a millisecond in a Mesa process, a third of its GL thread in small frames).
//!
//! Each library that holds the runtime (`libd3d12.so`, `libdxcore.so`) has its own copy of the
//! registry, and the heaps are made by `libd3d12.so`'s devices while DXCore's adapter answers
//! the budget. So a copy offers its registry to the others through `D3D12GetInterface` with a
//! private class id ([`CLSID`], answered by the C ABI crate, E_NOINTERFACE on Windows and in
//! other runtimes): a static object whose one method lists the registered files. The budget
//! query merges its own list with those of the other copies loaded in the process (found with
//! `dlopen(RTLD_NOLOAD)`, never loading anything). May touch: libc's loader calls, nothing of
//! the objects.

use rd3d12_sys::{GUID, HRESULT};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// The private class (and interface) id of the registry object: not a Microsoft GUID.
pub const CLSID: GUID =
    GUID { Data1: 0xea2a_c5bb, Data2: 0x5126, Data3: 0x4287, Data4: [0x87, 0xff, 0x84, 0xa9, 0x15, 0xad, 0xae, 0x69] };

/// (st_dev, st_ino) → the lengths of this copy's live mappings of that file.
type Files = HashMap<(u64, u64), Vec<usize>>;
static FILES: Mutex<Option<Files>> = Mutex::new(None);

/// A mapping of `file` of `len` bytes was made.
pub fn mapped(file: (u64, u64), len: usize) {
    let mut f = FILES.lock().unwrap_or_else(|e| e.into_inner());
    f.get_or_insert_with(HashMap::new).entry(file).or_default().push(len);
}

/// A mapping made by [`mapped`] is gone.
pub fn unmapped(file: (u64, u64), len: usize) {
    let mut f = FILES.lock().unwrap_or_else(|e| e.into_inner());
    let Some(map) = f.as_mut() else { return };
    if let Some(lens) = map.get_mut(&file) {
        if let Some(i) = lens.iter().position(|&l| l == len) {
            lens.swap_remove(i);
        }
        if lens.is_empty() {
            map.remove(&file);
        }
    }
}

/// This copy's files as (dev, ino, largest mapping).
fn local() -> Vec<[u64; 3]> {
    let f = FILES.lock().unwrap_or_else(|e| e.into_inner());
    f.iter()
        .flat_map(|m| m.iter())
        .map(|(&(dev, ino), lens)| [dev, ino, lens.iter().copied().max().unwrap_or(0) as u64])
        .collect()
}

/// The registry object's vtable: IUnknown, then `files`.
#[repr(C)]
struct Vtbl {
    query_interface: unsafe extern "C" fn(*mut c_void, *const GUID, *mut *mut c_void) -> HRESULT,
    add_ref: unsafe extern "C" fn(*mut c_void) -> u32,
    release: unsafe extern "C" fn(*mut c_void) -> u32,
    /// Writes up to `cap` (dev, ino, bytes) triples to `out` (3 words each); returns how many
    /// there are (more than `cap`: call again with room for them).
    files: unsafe extern "C" fn(*mut c_void, *mut u64, usize) -> usize,
}

#[repr(C)]
struct Registry {
    vtbl: &'static Vtbl,
}

// SAFETY: the object is immutable; its methods lock the registry.
unsafe impl Sync for Registry {}

static VTBL: Vtbl = Vtbl { query_interface, add_ref, release, files };
static OBJECT: Registry = Registry { vtbl: &VTBL };

unsafe extern "C" fn query_interface(this: *mut c_void, riid: *const GUID, ppv: *mut *mut c_void) -> HRESULT {
    if ppv.is_null() {
        return rd3d12_sys::E_POINTER;
    }
    // SAFETY: null or a GUID from the caller; `ppv` is writable.
    unsafe {
        match riid.as_ref() {
            Some(g) if *g == CLSID || *g == rd3d12_sys::IID_IUnknown => {
                *ppv = this;
                rd3d12_sys::S_OK
            }
            _ => {
                *ppv = std::ptr::null_mut();
                rd3d12_sys::E_NOINTERFACE
            }
        }
    }
}

/// The object is static: references are not counted.
unsafe extern "C" fn add_ref(_: *mut c_void) -> u32 {
    1
}

unsafe extern "C" fn release(_: *mut c_void) -> u32 {
    1
}

unsafe extern "C" fn files(_: *mut c_void, out: *mut u64, cap: usize) -> usize {
    let files = std::panic::catch_unwind(local).unwrap_or_default();
    if !out.is_null() {
        for (i, f) in files.iter().take(cap).enumerate() {
            // SAFETY: the caller gives room for `cap` triples.
            unsafe { std::ptr::copy_nonoverlapping(f.as_ptr(), out.add(3 * i), 3) };
        }
    }
    files.len()
}

/// `D3D12GetInterface(&CLSID, &CLSID, ppv)`: this copy's registry object.
///
/// # Safety
/// `ppv` writable.
pub unsafe fn get(ppv: *mut *mut c_void) {
    // SAFETY: forwarded; the object is static and never written.
    unsafe { *ppv = &OBJECT as *const Registry as *mut c_void };
}

type GetInterface = unsafe extern "C" fn(*const GUID, *const GUID, *mut *mut c_void) -> HRESULT;

/// The files of the other copies of the runtime loaded in this process.
fn foreign() -> Vec<[u64; 3]> {
    let mut out = Vec::new();
    let mut seen: Vec<usize> = Vec::new();
    for name in [c"libd3d12.so", c"libd3d12core.so"] {
        // SAFETY: RTLD_NOLOAD only finds a library already loaded, taking a reference that
        // keeps it loaded until the dlclose below, after the last call into it.
        let h = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
        if h.is_null() {
            continue;
        }
        // SAFETY: `h` is a live handle.
        unsafe { ask(h, &mut seen, &mut out) };
        // SAFETY: the reference dlopen took.
        unsafe { libc::dlclose(h) };
    }
    out
}

/// Appends the files of the runtime copy in library `h` to `out`, unless it is this copy or
/// one in `seen`.
///
/// # Safety
/// `h` a live dlopen handle.
unsafe fn ask(h: *mut c_void, seen: &mut Vec<usize>, out: &mut Vec<[u64; 3]>) {
    // SAFETY: dlsym of plain C symbol names on a live handle. vkd3d's libraries declare their
    // entry points ms_abi: never call those.
    let sym = unsafe {
        let vkd3d = !libc::dlsym(h, c"D3D12CreateDeviceVKD3D".as_ptr()).is_null()
            || !libc::dlsym(h, c"vkd3d_create_event".as_ptr()).is_null();
        if vkd3d {
            return;
        }
        libc::dlsym(h, c"D3D12GetInterface".as_ptr())
    };
    if sym.is_null() {
        return;
    }
    // SAFETY: D3D12GetInterface's C signature on Linux (the headers' STDMETHODCALLTYPE is empty).
    let get = unsafe { std::mem::transmute::<*mut c_void, GetInterface>(sym) };
    let mut obj: *mut c_void = std::ptr::null_mut();
    // SAFETY: D3D12GetInterface's contract: GUID pointers and a writable out-pointer. A library
    // that does not know the class answers E_NOINTERFACE and leaves it NULL.
    let hr = unsafe { get(&CLSID, &CLSID, &mut obj) };
    if hr < 0 || obj.is_null() {
        return;
    }
    // SAFETY: an object of this module's layout (the class id is ours).
    let files_fn = unsafe { (**(obj as *const *const Vtbl)).files };
    // Our own copy, or one already asked under its other name.
    let key = files_fn as *const () as usize;
    if key == files as *const () as usize || seen.contains(&key) {
        return;
    }
    seen.push(key);
    let mut buf: Vec<u64> = Vec::new();
    loop {
        let cap = buf.len() / 3;
        // SAFETY: `buf` has room for `cap` triples.
        let n = unsafe { files_fn(obj, buf.as_mut_ptr(), cap) };
        if n <= cap {
            out.extend(buf.chunks_exact(3).take(n).map(|c| [c[0], c[1], c[2]]));
            return;
        }
        buf.resize(3 * n, 0);
    }
}

/// Bytes of heap memory mapped in this process by any copy of the runtime.
pub fn bytes() -> u64 {
    merged(local().into_iter().chain(foreign()))
}

/// The sum over files of each file's largest mapping.
fn merged(files: impl Iterator<Item = [u64; 3]>) -> u64 {
    let mut per_file: HashMap<(u64, u64), u64> = HashMap::new();
    for [dev, ino, len] in files {
        let e = per_file.entry((dev, ino)).or_insert(0);
        *e = (*e).max(len);
    }
    per_file.values().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This copy's entries for the fake device `dev` (other tests map real heaps meanwhile).
    fn entries(dev: u64) -> Vec<[u64; 3]> {
        let mut v: Vec<_> = local().into_iter().filter(|f| f[0] == dev).collect();
        v.sort();
        v
    }

    #[test]
    fn files_count_once_at_their_largest_mapping() {
        let dev = u64::MAX - 1;
        mapped((dev, 1), 4096);
        mapped((dev, 1), 8192);
        mapped((dev, 2), 4096);
        assert_eq!(entries(dev), [[dev, 1, 8192], [dev, 2, 4096]]);
        assert_eq!(merged(entries(dev).into_iter()), 8192 + 4096);
        unmapped((dev, 1), 8192);
        assert_eq!(entries(dev), [[dev, 1, 4096], [dev, 2, 4096]]);
        unmapped((dev, 1), 4096);
        unmapped((dev, 2), 4096);
        assert!(entries(dev).is_empty());
        // Two copies' lists of one file: the larger mapping, once.
        assert_eq!(merged([[5, 9, 100], [5, 9, 300], [6, 9, 50]].into_iter()), 350);
    }

    #[test]
    fn the_object_lists_the_files() {
        let mut obj = std::ptr::null_mut();
        // SAFETY: a writable out-pointer.
        unsafe { get(&mut obj) };
        let f = (u64::MAX - 2, 7);
        mapped(f, 65536);
        // SAFETY: the object just handed out; room for no triples asks for the count.
        let vtbl = unsafe { *(obj as *const *const Vtbl) };
        let n = unsafe { ((*vtbl).files)(obj, std::ptr::null_mut(), 0) };
        let mut buf = vec![0u64; 3 * n];
        // SAFETY: room for `n` triples.
        assert_eq!(unsafe { ((*vtbl).files)(obj, buf.as_mut_ptr(), n) }, n);
        assert!(buf.chunks_exact(3).any(|c| c == [u64::MAX - 2, 7, 65536]));
        unmapped(f, 65536);
        let mut unk = std::ptr::null_mut();
        // SAFETY: IUnknown's QueryInterface on the object.
        assert_eq!(unsafe { ((*vtbl).query_interface)(obj, &rd3d12_sys::IID_IUnknown, &mut unk) }, rd3d12_sys::S_OK);
        assert_eq!(unk, obj);
    }
}
