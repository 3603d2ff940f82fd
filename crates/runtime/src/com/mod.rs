//! The generic COM object layer shared by every D3D12 object.
//!
//! An object is an [`Object<T>`]: a `#[repr(C)]` header whose first field is the vtable pointer
//! (so a pointer to the object *is* the COM interface pointer), the reference count, the private
//! data store, then the Rust state `T`. Each class has one vtable, of the newest interface version
//! it implements, and answers QueryInterface for every interface in that chain ([`Class::IIDS`]).
//!
//! Vtables are built with [`object_vtbl!`] / [`child_vtbl!`], which fill the IUnknown,
//! ID3D12Object and ID3D12DeviceChild slots with the generic thunks of this module; a struct
//! literal must name every field, so no slot can be left out (and none is ever NULL).

pub mod facet;
pub mod live;
mod private_data;
pub mod thunks;

pub use private_data::PrivateData;

use rd3d12_sys::*;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicU64, Ordering};

/// The public reference count's bits of [`Object`]'s count word; the bits above count internal
/// references ([`Hold`]).
const PUBLIC: u64 = 0xFFFF_FFFF;
/// One internal reference.
const INTERNAL: u64 = 1 << 32;

/// A Rust type that backs a COM class.
///
/// # Safety
/// `VTBL` must be a vtable whose every slot expects `This` to point at an `Object<Self>`.
pub unsafe trait Class: Sized + Send + Sync + 'static {
    /// The flat `*Vtbl` struct of the newest interface the class implements.
    type Vtbl: Sync + 'static;
    /// The class's vtable: a reference to a `static`, whose address is one for the whole library
    /// ([`downcast`] recognises objects by it). A promoted `&Vtbl { .. }` constant is not: each
    /// codegen unit that names it may get its own copy in an optimised build, and objects made
    /// in one unit would not be recognised in another.
    const VTBL: &'static Self::Vtbl;
    /// Every interface answered by QueryInterface with the object's own pointer.
    const IIDS: &'static [GUID];
    /// The interface name and D3D12_MESSAGE_ID_LIVE_* ID under which ReportLiveDeviceObjects
    /// lists the class's objects (`None`: not listed).
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> = None;
    /// Whether `Ptr::new` and the final release record the object in the live registry
    /// themselves; a class created on a hot path says `false` and records its objects itself,
    /// only on a debug device ([`live::register_object`], [`live::unregister`]).
    const LIVE_AUTO: bool = true;
    /// Whether the object is resident (pageable objects; what the debug layer checks when
    /// submitted work references it).
    fn resident(&self) -> bool {
        true
    }
    /// Interfaces answered by another object (a new reference owned by the caller), e.g. the
    /// device's ID3D12InfoQueue when the debug layer is on.
    fn query_extra(_obj: &Object<Self>, _riid: &GUID) -> Option<*mut c_void> {
        None
    }
}

/// A class whose objects are device children (ID3D12DeviceChild::GetDevice).
pub trait Child: Class {
    fn device(&self) -> &Ptr<crate::device::Device>;
}

/// A COM object: interface pointer header, reference count, private data, Rust state.
///
/// The count word holds the public count (AddRef / Release) in its low 32 bits and internal
/// references ([`Hold`], what ID3D12DebugDevice reports as IntRef) above; the object is freed
/// when both reach zero.
#[repr(C)]
pub struct Object<T: Class> {
    vtbl: &'static T::Vtbl,
    refs: AtomicU64,
    pub(crate) private: PrivateData,
    pub inner: T,
}

impl<T: Class> Object<T> {
    /// Reinterprets a COM `This` pointer of any interface of `T`'s chain as the object.
    ///
    /// # Safety
    /// `this` must be null or a pointer handed out by this runtime for a `T` object that is still
    /// alive (the caller holds a reference, as COM requires).
    pub unsafe fn from_this<'a, I>(this: *mut I) -> Option<&'a Object<T>> {
        // SAFETY: the interface pointer is the address of the object's header (first field of a
        // #[repr(C)] struct), and the caller guarantees the object is alive.
        unsafe { (this as *const Object<T>).as_ref() }
    }

    pub fn add_ref(&self) -> u32 {
        (self.refs.fetch_add(1, Ordering::Relaxed) + 1) as u32
    }

    /// Adds a reference only if the object still has public references (count above zero).
    pub fn try_add_ref(&self) -> bool {
        self.refs.fetch_update(Ordering::Acquire, Ordering::Relaxed, |n| (n & PUBLIC > 0).then_some(n + 1)).is_ok()
    }

    /// Drops one public reference and frees the object when it was the last reference of any
    /// kind. Returns the public count left.
    ///
    /// # Safety
    /// `this` must point at a live object on which the caller owns one reference.
    pub unsafe fn release(this: *const Self) -> u32 {
        // SAFETY: the caller owns a reference, so the object is alive here.
        let n = unsafe { (*this).refs.fetch_sub(1, Ordering::Release) } - 1;
        if n == 0 {
            // SAFETY: that was the last reference.
            unsafe { Self::destroy(this) };
        }
        (n & PUBLIC) as u32
    }

    /// Frees the object.
    ///
    /// # Safety
    /// The caller dropped the object's last reference (public and internal).
    unsafe fn destroy(this: *const Self) {
        std::sync::atomic::fence(Ordering::Acquire);
        if T::LIVE.is_some() && T::LIVE_AUTO {
            live::unregister(this as usize);
        }
        // SAFETY: the count reached zero, so nobody else holds a pointer to the object; it was
        // allocated by `Box` in `Ptr::new`.
        drop(unsafe { Box::from_raw(this as *mut Self) });
    }

    /// The public reference count.
    pub fn refcount(&self) -> u32 {
        (self.refs.load(Ordering::Relaxed) & PUBLIC) as u32
    }

    /// The object's own pointer as an interface pointer of type `I`.
    pub fn as_iface<I>(&self) -> *mut I {
        self as *const Self as *mut I
    }

    /// QueryInterface on the object: AddRef and the object pointer for an IID in the chain.
    pub fn query(&self, riid: &GUID) -> Option<*mut c_void> {
        if in_chain::<T>(riid) {
            self.add_ref();
            Some(self.as_iface())
        } else {
            T::query_extra(self, riid)
        }
    }
}

/// The object behind an interface pointer the caller passed, if it is one of ours of class `T`.
/// Our objects are recognised by their vtable pointer, so a foreign object (or another class)
/// gives `None` without being touched beyond its first pointer.
///
/// # Safety
/// `p` must be null or a live COM interface pointer.
pub unsafe fn downcast<'a, T: Class, I>(p: *mut I) -> Option<&'a Object<T>> {
    if p.is_null() {
        return None;
    }
    // SAFETY: every COM interface pointer points at its vtable pointer.
    let vtbl = unsafe { *(p as *const *const c_void) };
    if std::ptr::eq(vtbl, T::VTBL as *const T::Vtbl as *const c_void) {
        // SAFETY: the vtable is ours for class T, so the object is an Object<T>.
        Some(unsafe { &*(p as *const Object<T>) })
    } else {
        None
    }
}

/// An owned reference to an [`Object<T>`]: AddRef on clone, Release on drop.
pub struct Ptr<T: Class> {
    ptr: NonNull<Object<T>>,
    _own: PhantomData<Object<T>>,
}

// SAFETY: objects are Send + Sync (Class requires it) and the count is atomic.
unsafe impl<T: Class> Send for Ptr<T> {}
// SAFETY: as above.
unsafe impl<T: Class> Sync for Ptr<T> {}

impl<T: Class> Ptr<T> {
    /// Creates an object with a reference count of one.
    pub fn new(inner: T) -> Self {
        let obj = Box::new(Object { vtbl: T::VTBL, refs: AtomicU64::new(1), private: PrivateData::default(), inner });
        let ptr = NonNull::from(Box::leak(obj));
        if let (Some((iface, id)), true) = (T::LIVE, T::LIVE_AUTO) {
            if live::tracking() {
                live::register(ptr.as_ptr() as usize, iface, id, live::resident_thunk::<T>);
            }
        }
        Ptr { ptr, _own: PhantomData }
    }

    /// Takes a new reference on an object the caller only borrows.
    pub fn from_ref(obj: &Object<T>) -> Self {
        obj.add_ref();
        Ptr { ptr: NonNull::from(obj), _own: PhantomData }
    }

    /// Adopts a reference the caller owns (e.g. one counted for a registry).
    ///
    /// # Safety
    /// `raw` must point at a live object whose one reference the caller transfers to the `Ptr`.
    pub unsafe fn from_raw(raw: *mut Object<T>) -> Self {
        Ptr { ptr: NonNull::new(raw).expect("null object"), _own: PhantomData }
    }

    /// Gives up ownership of the reference, returning the interface pointer.
    pub fn into_raw(self) -> *mut Object<T> {
        let p = self.ptr.as_ptr();
        std::mem::forget(self);
        p
    }

    pub fn as_ptr(&self) -> *mut Object<T> {
        self.ptr.as_ptr()
    }
}

impl<T: Class> std::ops::Deref for Ptr<T> {
    type Target = Object<T>;
    fn deref(&self) -> &Object<T> {
        // SAFETY: a Ptr owns a reference, so the object is alive while the Ptr is.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T: Class> Clone for Ptr<T> {
    fn clone(&self) -> Self {
        Ptr::from_ref(self)
    }
}

impl<T: Class> Drop for Ptr<T> {
    fn drop(&mut self) {
        // SAFETY: the Ptr owns one reference.
        unsafe { Object::release(self.ptr.as_ptr()) };
    }
}

/// An internal reference to an [`Object<T>`]: keeps it alive without showing in its public
/// reference count (ID3D12DebugDevice's IntRef). Native placed resources hold their heap this
/// way: placing a resource leaves the heap's count alone, yet the heap outlives its last public
/// reference while resources are placed in it.
pub struct Hold<T: Class> {
    ptr: NonNull<Object<T>>,
    _own: PhantomData<Object<T>>,
}

// SAFETY: as for Ptr.
unsafe impl<T: Class> Send for Hold<T> {}
// SAFETY: as for Ptr.
unsafe impl<T: Class> Sync for Hold<T> {}

impl<T: Class> Hold<T> {
    /// Takes an internal reference on an object the caller holds alive.
    pub fn new(obj: &Object<T>) -> Self {
        obj.refs.fetch_add(INTERNAL, Ordering::Relaxed);
        Hold { ptr: NonNull::from(obj), _own: PhantomData }
    }
}

impl<T: Class> std::ops::Deref for Hold<T> {
    type Target = Object<T>;
    fn deref(&self) -> &Object<T> {
        // SAFETY: a Hold owns a reference, so the object is alive while the Hold is.
        unsafe { self.ptr.as_ref() }
    }
}

impl<T: Class> Drop for Hold<T> {
    fn drop(&mut self) {
        let this = self.ptr.as_ptr() as *const Object<T>;
        // SAFETY: the Hold owns one internal reference, so the object is alive here.
        let n = unsafe { (*this).refs.fetch_sub(INTERNAL, Ordering::Release) } - INTERNAL;
        if n == 0 {
            // SAFETY: that was the last reference.
            unsafe { Object::destroy(this) };
        }
    }
}

/// Hands a new object to a `(riid, ppv)` out-parameter pair the way every D3D12 Create* method
/// does: `ppv == NULL` means "would it succeed?" and returns S_FALSE without keeping the object;
/// an IID outside the object's chain gives E_NOINTERFACE with `*ppv = NULL`.
///
/// # Safety
/// `riid` must be null or point at a GUID; `ppv` must be null or point at writable storage.
pub unsafe fn hand_out<T: Class>(obj: Ptr<T>, riid: *const GUID, ppv: *mut *mut c_void) -> HRESULT {
    if ppv.is_null() {
        return S_FALSE;
    }
    // SAFETY: checked non-null; the caller guarantees both pointers are valid.
    unsafe {
        *ppv = std::ptr::null_mut();
        let Some(riid) = riid.as_ref() else {
            return E_POINTER;
        };
        // An interface of the object's own chain: the new object's one reference becomes the
        // caller's (no AddRef and Release around it).
        if in_chain::<T>(riid) {
            *ppv = obj.into_raw() as *mut c_void;
            return S_OK;
        }
        match obj.query(riid) {
            Some(p) => {
                *ppv = p;
                S_OK
            }
            None => E_NOINTERFACE,
        }
    }
}

/// Whether `riid` is one of the IIDs of `T`'s interface chain. Data4 compares as one word (a
/// field-wise compare calls memcmp for it).
#[inline]
fn in_chain<T: Class>(riid: &GUID) -> bool {
    let key = |g: &GUID| (g.Data1, g.Data2, g.Data3, u64::from_ne_bytes(g.Data4));
    let want = key(riid);
    T::IIDS.iter().any(|i| key(i) == want)
}

/// Fills the IUnknown and ID3D12Object slots of a vtable for class `$cls` with interface `$iface`,
/// plus the given method slots.
#[macro_export]
macro_rules! object_vtbl {
    ($vtbl:ident, $cls:ty, $iface:ty { $($slot:ident : $f:expr),* $(,)? }) => {
        rd3d12_sys::$vtbl {
            QueryInterface: Some($crate::com::thunks::query_interface::<$cls, $iface>),
            AddRef: Some($crate::com::thunks::add_ref::<$cls, $iface>),
            Release: Some($crate::com::thunks::release::<$cls, $iface>),
            GetPrivateData: Some($crate::com::thunks::get_private_data::<$cls, $iface>),
            SetPrivateData: Some($crate::com::thunks::set_private_data::<$cls, $iface>),
            SetPrivateDataInterface: Some($crate::com::thunks::set_private_data_interface::<$cls, $iface>),
            SetName: Some($crate::com::thunks::set_name::<$cls, $iface>),
            $($slot: Some($f)),*
        }
    };
}

/// [`object_vtbl!`] plus ID3D12DeviceChild::GetDevice, for device children.
#[macro_export]
macro_rules! child_vtbl {
    ($vtbl:ident, $cls:ty, $iface:ty { $($slot:ident : $f:expr),* $(,)? }) => {
        $crate::object_vtbl!($vtbl, $cls, $iface {
            GetDevice: $crate::com::thunks::get_device::<$cls, $iface>,
            $($slot: $f),*
        })
    };
}

#[cfg(test)]
mod tests;

/// A weak reference to at most one live object of class `T`: the process-wide singletons
/// (DXCore's factory, a factory's adapter) and a pipeline library's loaded pipelines are handed
/// out again while someone holds them and made anew once the last reference is gone. The
/// object's `Drop` calls [`WeakSlot::clear`].
pub struct WeakSlot<T: Class> {
    addr: std::sync::Mutex<usize>,
    _t: PhantomData<T>,
}

impl<T: Class> Default for WeakSlot<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Class> WeakSlot<T> {
    pub const fn new() -> Self {
        WeakSlot { addr: std::sync::Mutex::new(0), _t: PhantomData }
    }

    /// The live object, or a new one made by `make` (which must not touch this slot).
    pub fn get_or_make(&self, make: impl FnOnce() -> Ptr<T>) -> Ptr<T> {
        let mut a = self.addr.lock().unwrap_or_else(|e| e.into_inner());
        if *a != 0 {
            // SAFETY: the entry is cleared by the object's Drop under this lock, before its memory
            // is freed, so a non-zero entry points at allocated memory; try_add_ref refuses an
            // object whose count already reached zero.
            let obj = unsafe { &*(*a as *const Object<T>) };
            if obj.try_add_ref() {
                // SAFETY: try_add_ref just took the reference the Ptr adopts.
                return unsafe { Ptr::from_raw(*a as *mut Object<T>) };
            }
        }
        let p = make();
        *a = p.as_ptr() as usize;
        p
    }

    /// Forgets the object whose state is `inner`, if it is the one recorded (called from its Drop).
    pub fn clear(&self, inner: *const T) {
        let mut a = self.addr.lock().unwrap_or_else(|e| e.into_inner());
        if *a != 0 {
            // SAFETY: only the address of the recorded object's `inner` field is computed.
            let rec = unsafe { std::ptr::addr_of!((*(*a as *const Object<T>)).inner) };
            if std::ptr::eq(rec, inner) {
                *a = 0;
            }
        }
    }
}
