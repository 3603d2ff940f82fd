//! The device's memory methods: heaps, committed / placed / reserved resources, custom heap
//! properties, residency, shared handles and resource tiling.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-createcommittedresource>

use super::{dev, null_out, Iface};
use crate::com::{downcast, hand_out, Hold, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use crate::heap::Heap;
use crate::resource::{Backing, Resource};
use crate::share::{self, Trailer};
use crate::work::memory::Allocation;
use crate::work::tiles::{TileMap, TILE};
use rd3d12_core::heap::{self as rules, HeapApi, HeapArch, Placement};
use rd3d12_core::{allocation, desc::desc1_from_desc, validate_desc1, Api, ClearValue, DescError, ValidatedDesc};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::os::fd::IntoRawFd;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// A core validation failure as the error the debug layer reports (STATE_CREATION).
fn desc_error(e: DescError) -> Error {
    Error::invalid_arg(D3D12_MESSAGE_ID(e.id.0), D3D12_MESSAGE_CATEGORY_STATE_CREATION, e.message)
}

/// The device object behind `this`, for creating children that hold it.
///
/// # Safety
/// `this` null or our live device pointer.
unsafe fn device_obj<'a>(this: *mut Iface) -> Result<&'a Object<Device>> {
    // SAFETY: forwarded.
    unsafe { Object::<Device>::from_this(this) }.ok_or(Error::POINTER)
}

fn arch(d: &Device) -> HeapArch {
    let a = d.backend().architecture();
    HeapArch { uma: a.uma, cache_coherent_uma: a.cache_coherent_uma, node_count: 1, resource_heap_tier: 2 }
}

/// Reads an optimized clear value.
fn clear_of(cv: Option<&D3D12_CLEAR_VALUE>) -> Option<ClearValue> {
    cv.map(|c| {
        // Only the union member the format selects is read: a depth-stencil clear value leaves
        // the rest of the union uninitialized.
        let depth = rd3d12_core::format::info(c.Format).is_some_and(|i| i.is_depth_stencil());
        if depth {
            // SAFETY: the DepthStencil member of the union.
            let ds = unsafe { c.__bindgen_anon_1.DepthStencil };
            ClearValue::depth_stencil(c.Format, ds.Depth, ds.Stencil)
        } else {
            // SAFETY: the Color member of the union.
            ClearValue::color(c.Format, unsafe { c.__bindgen_anon_1.Color })
        }
    })
}

/// How a resource gets its memory.
enum How<'a> {
    Committed { props: &'a D3D12_HEAP_PROPERTIES, flags: D3D12_HEAP_FLAGS },
    Placed { heap: Option<&'a Object<Heap>>, offset: u64 },
    Reserved,
}

/// What validation found for a (desc, api, heap, initial state): the validated desc, its size
/// and, for committed resources, the normalized heap properties and flags. Shared with the
/// thread's cache (an `Rc`: handing out the cached one copies nothing).
struct Checked {
    v: ValidatedDesc,
    size: u64,
    heap: Option<(D3D12_HEAP_PROPERTIES, D3D12_HEAP_FLAGS)>,
}

/// Programs create many resources from the same desc on the same heap; each thread remembers
/// its last successful validation (without clear values or debug messages) and skips the rules
/// when the inputs are byte for byte the same.
type CheckKey = [u64; 13];

thread_local! {
    static LAST_CHECK: std::cell::RefCell<Option<(CheckKey, Rc<Checked>)>> = const { std::cell::RefCell::new(None) };
}

fn check_key(
    desc: &D3D12_RESOURCE_DESC1,
    api: Api,
    heap: Option<(D3D12_HEAP_PROPERTIES, D3D12_HEAP_FLAGS)>,
    state: D3D12_RESOURCE_STATES,
) -> CheckKey {
    let k = super::desc_key(desc);
    let (p, f) = heap.unwrap_or((D3D12_HEAP_PROPERTIES::default(), D3D12_HEAP_FLAGS(0)));
    let pair = |a: u32, b: u32| u64::from(a) | u64::from(b) << 32;
    [
        k[0],
        k[1],
        k[2],
        k[3],
        k[4],
        k[5],
        k[6],
        k[7],
        pair(api as u32, heap.is_some() as u32),
        pair(p.Type.0, p.CPUPageProperty.0),
        pair(p.MemoryPoolPreference.0, p.CreationNodeMask),
        pair(p.VisibleNodeMask, f.0),
        u64::from(state.0),
    ]
}

/// Key equality without an early exit (the compiler turns it into a few vector compares
/// instead of a memcmp call).
fn same_key(a: &CheckKey, b: &CheckKey) -> bool {
    a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Validates a resource's desc, size and heap coupling (resources.md, heaps-and-memory.md §6–§7).
fn check(
    desc: &D3D12_RESOURCE_DESC1,
    api: Api,
    heap: Option<(D3D12_HEAP_PROPERTIES, D3D12_HEAP_FLAGS)>,
    state: D3D12_RESOURCE_STATES,
    clear: Option<&D3D12_CLEAR_VALUE>,
    d: &Device,
) -> Result<Rc<Checked>> {
    let key = (clear.is_none()).then(|| check_key(desc, api, heap, state));
    if let Some(k) = &key {
        let hit = LAST_CHECK
            .try_with(|m| m.borrow().as_ref().filter(|(mk, _)| same_key(mk, k)).map(|(_, c)| c.clone()))
            .ok()
            .flatten();
        if let Some(hit) = hit {
            return Ok(hit);
        }
    }
    let caps = d.caps();
    let v = validate_desc1(desc, api, caps, clear_of(clear).as_ref()).map_err(desc_error)?;
    let size = allocation::backend_bytes(&v.desc, caps)
        .and_then(|b| b.checked_next_multiple_of(v.alignment))
        .ok_or_else(|| {
            Error::invalid_arg(
                D3D12_MESSAGE_ID_CREATERESOURCE_INVALIDDIMENSIONS,
                D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                "the resource size overflows 64 bits",
            )
        })?;
    let arch = arch(d);
    let heap_out = match (api, heap) {
        (Api::Committed, Some((props, flags))) => {
            let props =
                rules::validate_heap_properties(&props, &arch, HeapApi::CommittedResource).map_err(desc_error)?;
            let flags =
                rules::validate_heap_flags(flags, &props, &arch, HeapApi::CommittedResource).map_err(desc_error)?;
            Some((props, flags))
        }
        (_, h) => h,
    };
    let warnings = match heap_out {
        Some((props, flags)) => {
            rules::validate_resource_on_heap(&v, &props, flags, state, Placement::Committed).map_err(desc_error)?
        }
        None => {
            rules::validate_initial_state(&v.desc, state).map_err(desc_error)?;
            Vec::new()
        }
    };
    let checked = Rc::new(Checked { v, size, heap: heap_out });
    if let (Some(k), true, true) = (key, checked.v.warnings.is_empty(), warnings.is_empty()) {
        let _ = LAST_CHECK.try_with(|m| *m.borrow_mut() = Some((k, checked.clone())));
    }
    Ok(checked)
}

/// The one creation path of every Create*Resource method.
///
/// # Safety
/// `riid`/`ppv` as for [`hand_out`].
unsafe fn create_resource(
    this: *mut Iface,
    desc: Option<D3D12_RESOURCE_DESC1>,
    how: How<'_>,
    state: D3D12_RESOURCE_STATES,
    clear: Option<&D3D12_CLEAR_VALUE>,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> Result<HRESULT> {
    null_out(ppv);
    // SAFETY: COM This pointer.
    let device = unsafe { device_obj(this)? };
    let d = &device.inner;
    d.check_alive()?;
    let desc = desc.ok_or_else(|| {
        Error::invalid_arg(
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_NULLRESOURCEPROPERTIES,
            D3D12_MESSAGE_CATEGORY_STATE_CREATION,
            "pDesc is NULL",
        )
    })?;
    let api = match how {
        How::Committed { .. } => Api::Committed,
        How::Placed { .. } => Api::Placed,
        How::Reserved => Api::Reserved,
    };
    let clear = clear.copied();
    // Heap properties and flags the resource goes on (the committed resource's own, the
    // placed resource's heap's); reserved resources have none.
    let heap_in = match &how {
        How::Committed { props, flags } => Some((**props, *flags)),
        How::Placed { heap: Some(h), .. } => Some((h.inner.alloc.desc.Properties, h.inner.alloc.desc.Flags)),
        _ => None,
    };
    let checked = check(&desc, api, heap_in, state, clear.as_ref(), d)?;
    let (v, size) = (&checked.v, checked.size);
    let (backing, props, flags) = match how {
        How::Committed { .. } => {
            let (props, flags) = checked.heap.expect("committed resources have heap properties");
            if ppv.is_null() {
                return Ok(S_FALSE);
            }
            let heap_desc =
                D3D12_HEAP_DESC { SizeInBytes: size, Properties: props, Alignment: v.alignment, Flags: flags };
            let shared = flags.0 & D3D12_HEAP_FLAG_SHARED.0 != 0;
            let trailer = shared.then(|| Trailer::new(share::KIND_RESOURCE, heap_desc, v.desc, clear));
            let alloc = Allocation::committed(d, heap_desc, trailer)?;
            // Shaders write UAV resources with no record of it here: such memory must not go
            // back to the pool as clean (a later committed resource would see its bytes instead
            // of zeros).
            if v.desc.Flags.0 & D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS.0 != 0 {
                alloc.memory.mark_dirty();
            }
            (Backing::Committed(alloc), props, flags)
        }
        How::Placed { heap, offset } => {
            let heap = heap.ok_or_else(|| {
                Error::invalid_arg(
                    D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_NULLHEAP,
                    D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                    "pHeap is NULL or not a heap of this device",
                )
            })?;
            let hd = heap.inner.alloc.desc;
            // A buffer takes its Width in the heap, not its 64 KB allocation granule.
            let in_heap = if v.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER { v.desc.Width } else { size };
            let placement =
                Placement::Placed { offset, heap_size: hd.SizeInBytes, heap_alignment: hd.Alignment, size: in_heap };
            rules::check_placement(v.alignment, placement).map_err(desc_error)?;
            if ppv.is_null() {
                return Ok(S_FALSE);
            }
            (Backing::Placed { heap: Hold::new(heap), offset }, hd.Properties, hd.Flags)
        }
        How::Reserved => {
            if clear.is_some() && v.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER {
                return Err(Error::INVALID_ARG);
            }
            if ppv.is_null() {
                return Ok(S_FALSE);
            }
            let tiles = TileMap::new(&v.desc, d.caps());
            let va_len =
                if v.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER { tiles.num_tiles() as u64 * TILE } else { 1 };
            let va = d.backend().reserve(va_len).map_err(|_| Error::OUT_OF_MEMORY)?;
            let tiles = Arc::new(Mutex::new(tiles));
            if v.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER {
                // The buffer's GPU virtual address reaches its tiles.
                device.inner.va().insert_tiled(va.base() as u64, v.desc.Width, &tiles);
            }
            (Backing::Reserved { tiles, va }, D3D12_HEAP_PROPERTIES::default(), D3D12_HEAP_FLAGS(0))
        }
    };
    let r = Resource::new(Ptr::from_ref(device), v, size, backing, props, flags, clear, state);
    // SAFETY: as documented.
    Ok(unsafe { hand_out(r, riid, ppv) })
}

/// # Safety
/// `p` null or a readable `T`.
unsafe fn opt<'a, T>(p: *const T) -> Option<&'a T> {
    // SAFETY: forwarded.
    unsafe { p.as_ref() }
}

/// A protected session argument: the adapter offers no sessions, so only NULL is valid.
fn no_session(p: *mut ID3D12ProtectedResourceSession) -> Result<()> {
    if p.is_null() {
        Ok(())
    } else {
        Err(Error::INVALID_ARG)
    }
}

/// Resource creation with an initial layout belongs to enhanced barriers, which the adapter
/// reports unsupported (OPTIONS12.EnhancedBarriersSupported = FALSE).
fn no_layouts() -> Result<HRESULT> {
    Err(Error::invalid_arg(
        D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_INVALID_PARAMETERS,
        D3D12_MESSAGE_CATEGORY_STATE_CREATION,
        "creating resources with an initial barrier layout needs enhanced barriers, which this adapter does not support",
    ))
}

pub unsafe extern "C" fn create_committed_resource(
    this: *mut Iface,
    props: *const D3D12_HEAP_PROPERTIES,
    flags: D3D12_HEAP_FLAGS,
    desc: *const D3D12_RESOURCE_DESC,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateCommittedResource", || unsafe {
        // SAFETY: pointers are null or valid per the method's contract.
        let Some(props) = opt(props) else {
            null_out(ppv);
            return Err(Error::invalid_arg(
                D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_NULLHEAPPROPERTIES,
                D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                "pHeapProperties is NULL",
            ));
        };
        create_resource(
            this,
            opt(desc).map(desc1_from_desc),
            How::Committed { props, flags },
            state,
            opt(clear),
            riid,
            ppv,
        )
    })
}

pub unsafe extern "C" fn create_committed_resource1(
    this: *mut Iface,
    props: *const D3D12_HEAP_PROPERTIES,
    flags: D3D12_HEAP_FLAGS,
    desc: *const D3D12_RESOURCE_DESC,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    session: *mut ID3D12ProtectedResourceSession,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    if no_session(session).is_err() {
        null_out(ppv);
        return E_INVALIDARG;
    }
    // SAFETY: forwarded.
    unsafe { create_committed_resource(this, props, flags, desc, state, clear, riid, ppv) }
}

pub unsafe extern "C" fn create_committed_resource2(
    this: *mut Iface,
    props: *const D3D12_HEAP_PROPERTIES,
    flags: D3D12_HEAP_FLAGS,
    desc: *const D3D12_RESOURCE_DESC1,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    session: *mut ID3D12ProtectedResourceSession,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateCommittedResource2", || unsafe {
        no_session(session).inspect_err(|_| null_out(ppv))?;
        // SAFETY: pointers are null or valid per the method's contract.
        let Some(props) = opt(props) else {
            null_out(ppv);
            return Err(Error::INVALID_ARG);
        };
        create_resource(this, opt(desc).copied(), How::Committed { props, flags }, state, opt(clear), riid, ppv)
    })
}

pub unsafe extern "C" fn create_committed_resource3(
    _this: *mut Iface,
    _props: *const D3D12_HEAP_PROPERTIES,
    _flags: D3D12_HEAP_FLAGS,
    _desc: *const D3D12_RESOURCE_DESC1,
    _layout: D3D12_BARRIER_LAYOUT,
    _clear: *const D3D12_CLEAR_VALUE,
    _session: *mut ID3D12ProtectedResourceSession,
    _n: UINT32,
    _formats: *mut DXGI_FORMAT,
    _riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    null_out(ppv);
    guard_hr("CreateCommittedResource3", no_layouts)
}

pub unsafe extern "C" fn create_placed_resource(
    this: *mut Iface,
    heap: *mut ID3D12Heap,
    offset: UINT64,
    desc: *const D3D12_RESOURCE_DESC,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreatePlacedResource", || unsafe {
        // SAFETY: pointers are null or valid per the method's contract; the heap is recognised by
        // its vtable.
        let how = How::Placed { heap: downcast::<Heap, _>(heap), offset };
        create_resource(this, opt(desc).map(desc1_from_desc), how, state, opt(clear), riid, ppv)
    })
}

pub unsafe extern "C" fn create_placed_resource1(
    this: *mut Iface,
    heap: *mut ID3D12Heap,
    offset: UINT64,
    desc: *const D3D12_RESOURCE_DESC1,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreatePlacedResource1", || unsafe {
        // SAFETY: as create_placed_resource.
        let how = How::Placed { heap: downcast::<Heap, _>(heap), offset };
        create_resource(this, opt(desc).copied(), how, state, opt(clear), riid, ppv)
    })
}

pub unsafe extern "C" fn create_placed_resource2(
    _this: *mut Iface,
    _heap: *mut ID3D12Heap,
    _offset: UINT64,
    _desc: *const D3D12_RESOURCE_DESC1,
    _layout: D3D12_BARRIER_LAYOUT,
    _clear: *const D3D12_CLEAR_VALUE,
    _n: UINT32,
    _formats: *mut DXGI_FORMAT,
    _riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    null_out(ppv);
    guard_hr("CreatePlacedResource2", no_layouts)
}

pub unsafe extern "C" fn create_reserved_resource(
    this: *mut Iface,
    desc: *const D3D12_RESOURCE_DESC,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateReservedResource", || unsafe {
        // SAFETY: pointers are null or valid per the method's contract.
        create_resource(this, opt(desc).map(desc1_from_desc), How::Reserved, state, opt(clear), riid, ppv)
    })
}

pub unsafe extern "C" fn create_reserved_resource1(
    this: *mut Iface,
    desc: *const D3D12_RESOURCE_DESC,
    state: D3D12_RESOURCE_STATES,
    clear: *const D3D12_CLEAR_VALUE,
    session: *mut ID3D12ProtectedResourceSession,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    if no_session(session).is_err() {
        null_out(ppv);
        return E_INVALIDARG;
    }
    // SAFETY: forwarded.
    unsafe { create_reserved_resource(this, desc, state, clear, riid, ppv) }
}

pub unsafe extern "C" fn create_reserved_resource2(
    _this: *mut Iface,
    _desc: *const D3D12_RESOURCE_DESC,
    _layout: D3D12_BARRIER_LAYOUT,
    _clear: *const D3D12_CLEAR_VALUE,
    _session: *mut ID3D12ProtectedResourceSession,
    _n: UINT32,
    _formats: *mut DXGI_FORMAT,
    _riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    null_out(ppv);
    guard_hr("CreateReservedResource2", no_layouts)
}

/// CreateHeap / CreateHeap1.
///
/// # Safety
/// Pointers null or valid per the method's contract.
unsafe fn create_heap_impl(
    this: *mut Iface,
    desc: *const D3D12_HEAP_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> Result<HRESULT> {
    null_out(ppv);
    // SAFETY: COM This pointer.
    let device = unsafe { device_obj(this)? };
    device.inner.check_alive()?;
    // SAFETY: null or a desc.
    let desc = unsafe { desc.as_ref() }.ok_or_else(|| {
        Error::invalid_arg(D3D12_MESSAGE_ID_CREATEHEAP_NULLDESC, D3D12_MESSAGE_CATEGORY_STATE_CREATION, "pDesc is NULL")
    })?;
    let desc = rules::validate_heap_desc(desc, &arch(&device.inner)).map_err(desc_error)?;
    if ppv.is_null() {
        return Ok(S_FALSE);
    }
    let shared = desc.Flags.0 & D3D12_HEAP_FLAG_SHARED.0 != 0;
    let trailer = shared.then(|| Trailer::new(share::KIND_HEAP, desc, Default::default(), None));
    let alloc = Allocation::new(&device.inner, desc, trailer)?;
    // SAFETY: as documented.
    Ok(unsafe { hand_out(Heap::new(Ptr::from_ref(device), alloc), riid, ppv) })
}

pub unsafe extern "C" fn create_heap(
    this: *mut Iface,
    desc: *const D3D12_HEAP_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    // SAFETY: forwarded.
    guard_hr("CreateHeap", || unsafe { create_heap_impl(this, desc, riid, ppv) })
}

pub unsafe extern "C" fn create_heap1(
    this: *mut Iface,
    desc: *const D3D12_HEAP_DESC,
    session: *mut ID3D12ProtectedResourceSession,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateHeap1", || {
        no_session(session).inspect_err(|_| null_out(ppv))?;
        // SAFETY: forwarded.
        unsafe { create_heap_impl(this, desc, riid, ppv) }
    })
}

/// GetCustomHeapProperties, by value. An invalid type returns the input type with UNKNOWN page
/// and pool and zero masks.
pub unsafe extern "C" fn get_custom_heap_properties(
    this: *mut Iface,
    node_mask: UINT,
    ty: D3D12_HEAP_TYPE,
) -> D3D12_HEAP_PROPERTIES {
    let fallback = D3D12_HEAP_PROPERTIES { Type: ty, ..Default::default() };
    guard("GetCustomHeapProperties", fallback, || {
        // SAFETY: COM This pointer.
        let Ok(d) = (unsafe { dev(this) }) else { return fallback };
        if node_mask > 1 {
            return fallback;
        }
        rules::custom_heap_properties(node_mask, ty, &arch(d)).unwrap_or(fallback)
    })
}

/// The residency state of a pageable object of ours: heaps and committed resources (placed and
/// reserved resources are paged with their heap; passing them is ignored).
///
/// # Safety
/// `p` null or a live COM pointer.
unsafe fn residency_of<'a>(p: *mut ID3D12Pageable) -> Option<&'a crate::residency::Residency> {
    // SAFETY: recognised by vtable.
    if let Some(h) = unsafe { downcast::<Heap, _>(p) } {
        return Some(&h.inner.alloc.residency);
    }
    // SAFETY: as above.
    if let Some(h) = unsafe { downcast::<crate::descriptor_heap::DescriptorHeap, _>(p) } {
        return Some(&h.inner.residency);
    }
    // SAFETY: as above.
    match unsafe { downcast::<Resource, _>(p) }.map(|r| &r.inner.backing) {
        Some(Backing::Committed(a)) => Some(&a.residency),
        _ => None,
    }
}

/// The caller's pageable array, checked (NumObjects > 0 needs a non-NULL array of non-NULL
/// objects: E_INVALIDARG, #703/#705).
///
/// # Safety
/// `objects` null or `count` readable pointers.
unsafe fn pageables<'a>(
    count: u32,
    objects: *const *mut ID3D12Pageable,
    id: D3D12_MESSAGE_ID,
) -> Result<&'a [*mut ID3D12Pageable]> {
    if count == 0 {
        return Ok(&[]);
    }
    let bad = || Error::invalid_arg(id, D3D12_MESSAGE_CATEGORY_MISCELLANEOUS, "NULL object array or object");
    if objects.is_null() {
        return Err(bad());
    }
    // SAFETY: the caller passes `count` pointers.
    let objs = unsafe { std::slice::from_raw_parts(objects, count as usize) };
    if objs.iter().any(|p| p.is_null()) {
        return Err(bad());
    }
    Ok(objs)
}

/// MakeResident: every object's residency count goes up by one.
pub unsafe extern "C" fn make_resident(this: *mut Iface, count: UINT, objects: *const *mut ID3D12Pageable) -> HRESULT {
    guard_hr("MakeResident", || {
        // SAFETY: COM This pointer and the caller's array.
        unsafe { dev(this)? };
        let objs = unsafe { pageables(count, objects, D3D12_MESSAGE_ID_MAKERESIDENT_NULLOBJECTARRAY)? };
        for &p in objs {
            // SAFETY: live COM pointers from the caller.
            if let Some(r) = unsafe { residency_of(p) } {
                r.make_resident();
            }
        }
        Ok(S_OK)
    })
}

/// Evict: every object's residency count goes down by one (an object already at 0 stays there:
/// debug #1136); returns S_OK.
pub unsafe extern "C" fn evict(this: *mut Iface, count: UINT, objects: *const *mut ID3D12Pageable) -> HRESULT {
    guard_hr("Evict", || {
        // SAFETY: COM This pointer and the caller's array.
        unsafe { dev(this)? };
        let objs = unsafe { pageables(count, objects, D3D12_MESSAGE_ID_EVICT_NULLOBJECTARRAY)? };
        for &p in objs {
            if crate::com::live::in_use(p as usize) {
                crate::debug::report_parts(
                    "Evict",
                    D3D12_MESSAGE_CATEGORY_EXECUTION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    D3D12_MESSAGE_ID_OBJECT_EVICTED_WHILE_STILL_IN_USE.0,
                    "an object is evicted while submitted work that references it has not finished executing",
                );
            }
            // SAFETY: live COM pointers from the caller.
            if let Some(r) = unsafe { residency_of(p) } {
                r.evict();
            }
        }
        Ok(S_OK)
    })
}

pub unsafe extern "C" fn set_residency_priority(
    this: *mut Iface,
    count: UINT,
    objects: *const *mut ID3D12Pageable,
    priorities: *const D3D12_RESIDENCY_PRIORITY,
) -> HRESULT {
    guard_hr("SetResidencyPriority", || {
        // SAFETY: COM This pointer and the caller's arrays.
        unsafe { dev(this)? };
        let objs = unsafe { pageables(count, objects, D3D12_MESSAGE_ID_MAKERESIDENT_NULLOBJECTARRAY)? };
        if count > 0 && priorities.is_null() {
            return Err(Error::INVALID_ARG);
        }
        for (i, &p) in objs.iter().enumerate() {
            // SAFETY: `count` priorities; live COM pointers.
            let prio = unsafe { *priorities.add(i) };
            if let Some(r) = unsafe { residency_of(p) } {
                r.set_priority(prio);
            }
        }
        Ok(S_OK)
    })
}

/// CreateSharedHandle: a new file descriptor (as the HANDLE) for a heap created with
/// D3D12_HEAP_FLAG_SHARED, a committed resource on such a heap, or a fence created with
/// D3D12_FENCE_FLAG_SHARED; with a Name, the handle is also published under it (see [`share`]).
/// Attributes and access rights have no Linux meaning.
pub unsafe extern "C" fn create_shared_handle(
    this: *mut Iface,
    object: *mut ID3D12DeviceChild,
    _attributes: *const SECURITY_ATTRIBUTES,
    _access: DWORD,
    name: LPCWSTR,
    handle: *mut HANDLE,
) -> HRESULT {
    guard_hr("CreateSharedHandle", || {
        // SAFETY: COM This pointer.
        unsafe { dev(this)? };
        // SAFETY: null or a writable HANDLE.
        let out = unsafe { handle.as_mut() }.ok_or(Error::INVALID_ARG)?;
        // SAFETY: null or a NUL-terminated wide string.
        let name = if name.is_null() { None } else { Some(unsafe { share::name_from_wide(name)? }) };
        // A fence created with D3D12_FENCE_FLAG_SHARED shares its page.
        // SAFETY: recognised by vtable.
        if let Some(f) = unsafe { downcast::<crate::fence::Fence, _>(object) } {
            let page = f.inner.core.shared_page().ok_or(Error::INVALID_ARG)?;
            let fd = page.memory.share().ok_or(Error::OUT_OF_MEMORY)?.into_raw_fd();
            return publish_handle(fd, name, out);
        }
        // SAFETY: recognised by vtable.
        let alloc = if let Some(h) = unsafe { downcast::<Heap, _>(object) } {
            &h.inner.alloc
        } else if let Some(r) = unsafe { downcast::<Resource, _>(object) } {
            match &r.inner.backing {
                Backing::Committed(a) => a,
                _ => return Err(Error::INVALID_ARG),
            }
        } else {
            return Err(Error::INVALID_ARG);
        };
        if alloc.desc.Flags.0 & D3D12_HEAP_FLAG_SHARED.0 == 0 {
            return Err(Error::INVALID_ARG);
        }
        let fd = alloc.memory.share().ok_or(Error::OUT_OF_MEMORY)?.into_raw_fd();
        publish_handle(fd, name, out)
    })
}

/// Hands a new descriptor to the caller as a HANDLE, publishing it under `name` if given.
fn publish_handle(fd: i32, name: Option<String>, out: &mut HANDLE) -> Result<HRESULT> {
    if let Some(n) = name {
        if let Err(e) = share::publish(&n, fd) {
            // SAFETY: we own `fd`.
            unsafe { libc::close(fd) };
            return Err(e);
        }
    }
    *out = share::fd_to_handle(fd);
    Ok(S_OK)
}

/// OpenSharedHandle: rebuilds the heap or committed resource a shared descriptor carries. The
/// caller keeps (and closes) its descriptor.
pub unsafe extern "C" fn open_shared_handle(
    this: *mut Iface,
    handle: HANDLE,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("OpenSharedHandle", || {
        null_out(ppv);
        // SAFETY: COM This pointer.
        let device = unsafe { device_obj(this)? };
        device.inner.check_alive()?;
        let fd = share::handle_to_fd(handle).ok_or(Error::INVALID_ARG)?;
        if let Some(f) = crate::fence::Fence::open(Ptr::from_ref(device), fd) {
            if ppv.is_null() {
                return Ok(S_FALSE);
            }
            // SAFETY: as hand_out.
            return Ok(unsafe { hand_out(f, riid, ppv) });
        }
        let (alloc, t) = Allocation::import(&device.inner, fd)?;
        if ppv.is_null() {
            return Ok(S_FALSE);
        }
        match t.kind {
            // SAFETY (both arms): as hand_out.
            share::KIND_HEAP => Ok(unsafe { hand_out(Heap::new(Ptr::from_ref(device), alloc), riid, ppv) }),
            share::KIND_RESOURCE => {
                let caps = device.inner.caps();
                let clear = (t.has_clear != 0).then_some(t.clear);
                let v = validate_desc1(&t.resource, Api::Committed, caps, clear_of(clear.as_ref()).as_ref())
                    .map_err(desc_error)?;
                let size = alloc.desc.SizeInBytes;
                let r = Resource::new(
                    Ptr::from_ref(device),
                    &v,
                    size,
                    Backing::Committed(alloc),
                    t.heap.Properties,
                    t.heap.Flags,
                    clear,
                    D3D12_RESOURCE_STATE_COMMON,
                );
                Ok(unsafe { hand_out(r, riid, ppv) })
            }
            _ => Err(Error::INVALID_ARG),
        }
    })
}

/// OpenSharedHandleByName: a new descriptor for the object published under `name` by this user
/// (HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND) if there is none).
pub unsafe extern "C" fn open_shared_handle_by_name(
    this: *mut Iface,
    name: LPCWSTR,
    _access: DWORD,
    handle: *mut HANDLE,
) -> HRESULT {
    guard_hr("OpenSharedHandleByName", || {
        // SAFETY: COM This pointer.
        unsafe { dev(this)? };
        // SAFETY: null or writable.
        let out = unsafe { handle.as_mut() }.ok_or(Error::INVALID_ARG)?;
        if name.is_null() {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: a NUL-terminated wide string.
        let n = unsafe { share::name_from_wide(name)? };
        *out = share::fd_to_handle(share::open_by_name(&n)?);
        Ok(S_OK)
    })
}

/// GetResourceTiling: every output optional; `pNumSubresourceTilings` is in/out.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn get_resource_tiling(
    this: *mut Iface,
    resource: *mut ID3D12Resource,
    num_tiles: *mut UINT,
    packed: *mut D3D12_PACKED_MIP_INFO,
    shape: *mut D3D12_TILE_SHAPE,
    num_sub: *mut UINT,
    first: UINT,
    tilings: *mut D3D12_SUBRESOURCE_TILING,
) {
    guard("GetResourceTiling", (), || {
        // SAFETY: COM This pointer; the resource is recognised by vtable; outputs null or valid.
        let (Ok(d), Some(r)) = (unsafe { dev(this) }, unsafe { downcast::<Resource, _>(resource) }) else { return };
        let num_sub = unsafe { num_sub.as_mut() };
        let tilings = match (&num_sub, tilings.is_null()) {
            (Some(n), false) => Some(unsafe { std::slice::from_raw_parts_mut(tilings, **n as usize) }),
            _ => None,
        };
        let t = rd3d12_core::tiling::resource_tiling(&r.inner.desc, d.caps(), num_sub, first, tilings);
        unsafe {
            if let Some(n) = num_tiles.as_mut() {
                *n = t.num_tiles;
            }
            if let Some(p) = packed.as_mut() {
                *p = t.packed_mip_info;
            }
            if let Some(s) = shape.as_mut() {
                *s = t.tile_shape;
            }
        }
    })
}
