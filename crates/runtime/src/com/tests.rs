//! Tests of the generic COM layer through its thunks, with a test-only device child class.

use super::*;
use crate::device::Device;
use std::sync::atomic::{AtomicU32, AtomicUsize};

/// A minimal device child, as every later object (heap, resource, queue ...) will be.
struct TestChild {
    device: Ptr<Device>,
    dropped: &'static AtomicUsize,
}

impl Drop for TestChild {
    fn drop(&mut self) {
        self.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

static CHILD_VTBL: ID3D12DeviceChildVtbl = crate::child_vtbl!(ID3D12DeviceChildVtbl, TestChild, ID3D12DeviceChild {});

// SAFETY: CHILD_VTBL's slots take Object<TestChild>.
unsafe impl Class for TestChild {
    type Vtbl = ID3D12DeviceChildVtbl;
    const VTBL: &'static ID3D12DeviceChildVtbl = &CHILD_VTBL;
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild];
}

impl Child for TestChild {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

fn vt(p: *mut ID3D12DeviceChild) -> &'static ID3D12DeviceChildVtbl {
    // SAFETY: live test object.
    unsafe { &*(*p).lpVtbl }
}

#[test]
fn refcounts_are_returned_and_the_object_is_freed_at_zero() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let child = Ptr::new(TestChild { device: dev.clone(), dropped: &DROPPED }).into_raw() as *mut ID3D12DeviceChild;
    let v = vt(child);
    unsafe {
        assert_eq!(v.AddRef.unwrap()(child), 2);
        assert_eq!(v.Release.unwrap()(child), 1);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 0);
        assert_eq!(v.Release.unwrap()(child), 0);
    }
    assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
}

#[test]
fn an_internal_reference_outlives_the_public_count_without_showing_in_it() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let obj = Ptr::new(TestChild { device: dev.clone(), dropped: &DROPPED });
    let hold = Hold::new(&obj);
    assert_eq!(obj.refcount(), 1, "an internal reference is not public");
    let child = obj.into_raw() as *mut ID3D12DeviceChild;
    let v = vt(child);
    unsafe {
        assert_eq!(v.Release.unwrap()(child), 0);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 0, "held internally, the object lives on");
        // Still usable; a new public reference counts from 0.
        assert_eq!(v.AddRef.unwrap()(child), 1);
        assert_eq!(v.Release.unwrap()(child), 0);
    }
    assert_eq!(hold.refcount(), 0);
    drop(hold);
    assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
}

#[test]
fn device_child_keeps_its_device_alive_and_get_device_answers_it() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let dev_ptr = dev.as_ptr() as usize;
    let before = dev.refcount();
    let child = Ptr::new(TestChild { device: dev.clone(), dropped: &DROPPED }).into_raw() as *mut ID3D12DeviceChild;
    assert_eq!(dev.refcount(), before + 1, "a child holds one reference on its device");
    drop(dev);
    let v = vt(child);
    let mut out: *mut c_void = std::ptr::null_mut();
    unsafe {
        assert_eq!(v.GetDevice.unwrap()(child, &IID_ID3D12Device, &mut out), S_OK);
        assert_eq!(out as usize, dev_ptr);
        let d = out as *mut ID3D12Device;
        (*(*d).lpVtbl).Release.unwrap()(d);
        assert_eq!(v.GetDevice.unwrap()(child, &IID_ID3D12DeviceChild, &mut out), E_NOINTERFACE);
        assert!(out.is_null());
        assert_eq!(v.Release.unwrap()(child), 0);
    }
}

#[test]
fn query_interface_walks_the_chain_and_rejects_others() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let child = Ptr::new(TestChild { device: dev, dropped: &DROPPED }).into_raw() as *mut ID3D12DeviceChild;
    let v = vt(child);
    let mut out: *mut c_void = std::ptr::null_mut();
    unsafe {
        for iid in [IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild] {
            assert_eq!(v.QueryInterface.unwrap()(child, &iid, &mut out), S_OK);
            assert_eq!(out, child as *mut c_void);
            assert_eq!(v.Release.unwrap()(child), 1);
        }
        for iid in [IID_ID3D12Pageable, IID_ID3D12Device, IID_ID3D12Resource] {
            out = std::ptr::dangling_mut::<c_void>();
            assert_eq!(v.QueryInterface.unwrap()(child, &iid, &mut out), E_NOINTERFACE);
            assert!(out.is_null());
        }
        assert_eq!(v.QueryInterface.unwrap()(child, &IID_IUnknown, std::ptr::null_mut()), E_POINTER);
        assert_eq!(v.Release.unwrap()(child), 0);
    }
}

/// A foreign COM object that counts its references, for SetPrivateDataInterface.
#[repr(C)]
struct Counted {
    vtbl: *const IUnknownVtbl,
    refs: AtomicU32,
}

unsafe extern "C" fn counted_qi(_: *mut IUnknown, _: *const IID, _: *mut *mut c_void) -> HRESULT {
    E_NOINTERFACE
}
unsafe extern "C" fn counted_add(p: *mut IUnknown) -> ULONG {
    unsafe { (*(p as *mut Counted)).refs.fetch_add(1, Ordering::SeqCst) + 1 }
}
unsafe extern "C" fn counted_rel(p: *mut IUnknown) -> ULONG {
    unsafe { (*(p as *mut Counted)).refs.fetch_sub(1, Ordering::SeqCst) - 1 }
}
static COUNTED_VTBL: IUnknownVtbl =
    IUnknownVtbl { QueryInterface: Some(counted_qi), AddRef: Some(counted_add), Release: Some(counted_rel) };

#[test]
fn private_data_and_interfaces_follow_the_documented_contract() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let child = Ptr::new(TestChild { device: dev, dropped: &DROPPED }).into_raw() as *mut ID3D12DeviceChild;
    let v = vt(child);
    let key = IID_ID3D12Heap; // any GUID
    let mut size = 16u32;
    let mut buf = [0u8; 16];
    unsafe {
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, &mut size, buf.as_mut_ptr().cast()), DXGI_ERROR_NOT_FOUND);
        assert_eq!(size, 0);
        assert_eq!(v.SetPrivateData.unwrap()(child, &key, 5, b"hello".as_ptr().cast()), S_OK);
        size = 0;
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, &mut size, std::ptr::null_mut()), S_OK);
        assert_eq!(size, 5);
        size = 4;
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, &mut size, buf.as_mut_ptr().cast()), DXGI_ERROR_MORE_DATA);
        assert_eq!(size, 5);
        size = 16;
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, &mut size, buf.as_mut_ptr().cast()), S_OK);
        assert_eq!((size, &buf[..5]), (5, &b"hello"[..]));
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, std::ptr::null_mut(), buf.as_mut_ptr().cast()), E_INVALIDARG);
        // NULL data deletes whatever the size (Windows): S_OK, then S_FALSE with nothing left.
        assert_eq!(v.SetPrivateData.unwrap()(child, &key, 3, std::ptr::null()), S_OK);
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, &mut size, std::ptr::null_mut()), DXGI_ERROR_NOT_FOUND);
        assert_eq!(v.SetPrivateData.unwrap()(child, &key, 3, std::ptr::null()), S_FALSE);
        assert_eq!(v.SetPrivateData.unwrap()(child, &key, 0, std::ptr::null()), S_FALSE);
        // A NULL interface is an entry: a NULL pointer, pointer-sized.
        assert_eq!(v.SetPrivateDataInterface.unwrap()(child, &key, std::ptr::null()), S_OK);
        let mut null_iface: *mut IUnknown = std::ptr::dangling_mut();
        size = size_of::<*mut IUnknown>() as u32;
        assert_eq!(
            v.GetPrivateData.unwrap()(child, &key, &mut size, (&mut null_iface as *mut *mut IUnknown).cast()),
            S_OK
        );
        assert_eq!((size, null_iface), (8, std::ptr::null_mut()));
        assert_eq!(v.SetPrivateData.unwrap()(child, &key, 0, std::ptr::null()), S_OK);

        let counted = Box::into_raw(Box::new(Counted { vtbl: &COUNTED_VTBL, refs: AtomicU32::new(1) }));
        let unk = counted as *mut IUnknown;
        assert_eq!(v.SetPrivateDataInterface.unwrap()(child, &key, unk), S_OK);
        assert_eq!((*counted).refs.load(Ordering::SeqCst), 2);
        let mut got: *mut IUnknown = std::ptr::null_mut();
        size = size_of::<*mut IUnknown>() as u32;
        assert_eq!(v.GetPrivateData.unwrap()(child, &key, &mut size, (&mut got as *mut *mut IUnknown).cast()), S_OK);
        assert_eq!(got, unk);
        assert_eq!((*counted).refs.load(Ordering::SeqCst), 3, "GetPrivateData AddRefs a stored interface");
        counted_rel(unk);
        // Replacing by bytes releases the interface.
        assert_eq!(v.SetPrivateData.unwrap()(child, &key, 1, b"x".as_ptr().cast()), S_OK);
        assert_eq!((*counted).refs.load(Ordering::SeqCst), 1);
        // Destruction releases it too.
        assert_eq!(v.SetPrivateDataInterface.unwrap()(child, &key, unk), S_OK);
        assert_eq!((*counted).refs.load(Ordering::SeqCst), 2);
        assert_eq!(v.Release.unwrap()(child), 0);
        assert_eq!((*counted).refs.load(Ordering::SeqCst), 1);
        drop(Box::from_raw(counted));
    }
}

#[test]
fn set_name_stores_the_wide_name_with_its_terminator() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let child = Ptr::new(TestChild { device: dev, dropped: &DROPPED }).into_raw() as *mut ID3D12DeviceChild;
    let v = vt(child);
    let name: Vec<i32> = "heap".chars().map(|c| c as i32).chain([0]).collect();
    let mut out = [0i32; 8];
    let mut size = 32u32;
    unsafe {
        assert_eq!(v.SetName.unwrap()(child, name.as_ptr()), S_OK);
        assert_eq!(
            v.GetPrivateData.unwrap()(child, &WKPDID_D3DDebugObjectNameW, &mut size, out.as_mut_ptr().cast()),
            S_OK
        );
        assert_eq!(size, 20, "4 characters and the terminator, 4 bytes each");
        assert_eq!(&out[..5], &name[..]);
        assert_eq!(v.SetName.unwrap()(child, std::ptr::null()), E_INVALIDARG);
        assert_eq!(v.Release.unwrap()(child), 0);
    }
}

#[test]
fn private_data_is_thread_safe() {
    static DROPPED: AtomicUsize = AtomicUsize::new(0);
    let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
    let child = Ptr::new(TestChild { device: dev, dropped: &DROPPED });
    std::thread::scope(|s| {
        for t in 0..4u8 {
            let child = &child;
            s.spawn(move || {
                let key = GUID { Data1: t as u32, ..Default::default() };
                for i in 0..500u32 {
                    child.private.set(&key, Some(&i.to_le_bytes()));
                    let (mut size, mut buf) = (4u32, [0u8; 4]);
                    // SAFETY: buf holds 4 bytes.
                    assert_eq!(unsafe { child.private.get(&key, &mut size, buf.as_mut_ptr()) }, S_OK);
                    assert_eq!(u32::from_le_bytes(buf), i);
                }
            });
        }
    });
}

/// Every non-generic class's `VTBL` names a `static` (`= &NAME;`): `downcast` recognises objects
/// by the vtable's address, and a promoted `&Vtbl { .. }` constant may have one copy per codegen
/// unit in optimised builds (DXCore's lists and adapters were not recognised in release
/// builds). A generic class cannot have a static; it must never be downcast.
#[test]
fn class_vtables_are_statics() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    walk(&src, &mut files);
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let mut generic = false;
        for line in text.lines() {
            if line.starts_with("unsafe impl") {
                generic = line.starts_with("unsafe impl<");
            }
            if !line.trim_start().starts_with("const VTBL: &'static ") || line.contains("Self::Vtbl") {
                continue; // not a class's vtable (or the trait's declaration)
            }
            let value = line.split_once(" = ").map(|(_, v)| v.trim());
            let named = value.is_some_and(|v| {
                v.strip_prefix('&').and_then(|v| v.strip_suffix(';')).is_some_and(|n| {
                    !n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
                })
            });
            assert!(named || generic, "{}: `{}` is not a static", f.display(), line.trim());
            checked += 1;
        }
    }
    assert!(checked > 25, "only {checked} classes found");
}
