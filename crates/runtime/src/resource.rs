//! ID3D12Resource (up to ID3D12Resource2): committed, placed and reserved resources.
//!
//! Memory layout: buffers are plain bytes; textures use the tight layout of
//! `rd3d12_core::allocation` (every subresource's rows back to back), so Write/ReadFromSubresource
//! and copies are row-wise memcpy. Reserved resources own no memory: their 64 KB tiles are
//! mapped from heaps by the tile map (see [`crate::work::tiles`]).
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12resource>

use crate::com::{Child, Class, Hold, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use crate::heap::Heap;
use crate::work::descriptors::ResourceEntry;
use crate::work::memory::{Allocation, Memory};
use crate::work::tiles::TileMap;
use rd3d12_core::{allocation, format, ValidatedDesc};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Where a resource's bytes live.
pub enum Backing {
    /// Its own implicit heap.
    Committed(Arc<Allocation>),
    /// A range of an explicit heap, which the resource keeps alive (an internal reference:
    /// the heap's public count is left alone, as natively).
    Placed { heap: Hold<Heap>, offset: u64 },
    /// 64 KB tiles mapped from heaps on demand; `va` is a reserved address range for buffers.
    Reserved { tiles: Arc<Mutex<TileMap>>, va: crate::backend::memory::AddressRange },
}

impl Backing {
    /// The memory allocation of a committed or placed resource.
    fn allocation(&self) -> Option<&Arc<Allocation>> {
        match self {
            Backing::Committed(a) => Some(a),
            Backing::Placed { heap, .. } => Some(&heap.inner.alloc),
            Backing::Reserved { .. } => None,
        }
    }
}

pub struct Resource {
    device: Ptr<Device>,
    /// The desc GetDesc/GetDesc1 report (MipLevels and Alignment expanded).
    pub desc: D3D12_RESOURCE_DESC1,
    pub mip_levels: u32,
    pub array_size: u32,
    pub plane_count: u32,
    pub subresource_count: u32,
    /// Bytes of the resource's allocation (GetResourceAllocationInfo's SizeInBytes).
    pub size: u64,
    pub backing: Backing,
    /// Heap properties and flags GetHeapProperties reports (the heap's for placed resources).
    pub heap_props: D3D12_HEAP_PROPERTIES,
    pub heap_flags: D3D12_HEAP_FLAGS,
    pub clear_value: Option<D3D12_CLEAR_VALUE>,
    /// Outstanding Map calls per subresource (one counter inline for single-subresource
    /// resources, the common case).
    map_one: AtomicU32,
    map_more: Box<[AtomicU32]>,
    /// Host address of the resource's first byte (0 for reserved resources).
    base: usize,
    /// Whether Map is possible at all (CPU-visible heap, not reserved).
    cpu_accessible: bool,
    /// Map's fast path applies: a mappable buffer on a device without the debug layer (which
    /// counts nested maps); decided once so Map touches only the resource.
    fast_map: bool,
    initial_state: u32,
    /// Each subresource's state as executed work leaves it (barriers, decay): what the debug
    /// layer validates against. Made on first use.
    states: std::sync::OnceLock<crate::work::commands::States>,
    /// Unique for the process (never 0): what descriptors store to name the resource.
    pub id: u64,
    /// Whether the device's resource registry holds the resource (its first view registered it).
    pub(crate) registered: AtomicBool,
}

/// Source of resource ids: threads take blocks of [`ID_BLOCK`] ids from it and hand them out
/// one by one, so creating a resource touches no shared counter most of the time.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
const ID_BLOCK: u64 = 1024;

thread_local! {
    /// The thread's next id and the end of its block.
    static IDS: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// A process-unique resource id (never 0).
fn next_id() -> u64 {
    IDS.try_with(|c| {
        let (mut next, mut end) = c.get();
        if next == end {
            next = NEXT_ID.fetch_add(ID_BLOCK, Ordering::Relaxed);
            end = next + ID_BLOCK;
        }
        c.set((next + 1, end));
        next
    })
    .unwrap_or_else(|_| NEXT_ID.fetch_add(1, Ordering::Relaxed))
}

impl Drop for Resource {
    fn drop(&mut self) {
        if *self.registered.get_mut() {
            self.device.inner.resources.remove(self.id);
        }
        // A debug device's resources are in the debug layer's live-object registry (a no-op
        // while it is empty). The object's address: `inner` (this) sits at a fixed offset in
        // the #[repr(C)] Object, whose header is still intact while the inner state drops.
        crate::com::live::unregister(self as *const Resource as usize - std::mem::offset_of!(Object<Resource>, inner));
    }
}

impl Resource {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        device: Ptr<Device>,
        v: &ValidatedDesc,
        size: u64,
        backing: Backing,
        heap_props: D3D12_HEAP_PROPERTIES,
        heap_flags: D3D12_HEAP_FLAGS,
        clear_value: Option<D3D12_CLEAR_VALUE>,
        initial_state: D3D12_RESOURCE_STATES,
    ) -> Ptr<Resource> {
        // Buffers are created in COMMON whatever the initial state (resources.md §7).
        let is_buffer = v.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER;
        let initial_state = if is_buffer { 0 } else { initial_state.0 };
        let map_more = if v.subresource_count > 1 {
            (0..v.subresource_count).map(|_| AtomicU32::new(0)).collect()
        } else {
            Box::default()
        };
        let base = match &backing {
            Backing::Committed(a) => a.base() as usize,
            Backing::Placed { heap, offset } => heap.inner.alloc.base() as usize + *offset as usize,
            Backing::Reserved { .. } => 0,
        };
        let cpu_accessible = !matches!(backing, Backing::Reserved { .. })
            && match heap_props.Type {
                D3D12_HEAP_TYPE_UPLOAD | D3D12_HEAP_TYPE_READBACK => true,
                D3D12_HEAP_TYPE_CUSTOM => heap_props.CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE,
                _ => false,
            };

        let fast_map =
            cpu_accessible && v.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER && !device.inner.tracks_maps();
        let live = device.inner.debug_sink().is_some();
        let r = Ptr::new(Resource {
            device,
            desc: v.desc,
            mip_levels: v.mip_levels,
            array_size: v.array_size,
            plane_count: v.plane_count,
            subresource_count: v.subresource_count,
            size,
            backing,
            heap_props,
            heap_flags,
            clear_value,
            map_one: AtomicU32::new(0),
            map_more,
            base,
            cpu_accessible,
            fast_map,
            initial_state,
            states: std::sync::OnceLock::new(),
            id: next_id(),
            registered: AtomicBool::new(false),
        });
        if live {
            crate::com::live::register_object(&r);
        }
        r
    }

    /// The resource's bytes for executing commands.
    pub fn memory(&self) -> Memory {
        match &self.backing {
            Backing::Committed(a) => {
                Memory::Linear { alloc: a.clone(), offset: 0, size: self.size.min(a.desc.SizeInBytes) }
            }
            Backing::Placed { heap, offset } => {
                let alloc = &heap.inner.alloc;
                // A placed buffer may end before its 64 KB granule does, with the heap.
                let room = alloc.desc.SizeInBytes.saturating_sub(*offset);
                Memory::Linear { alloc: alloc.clone(), offset: *offset, size: self.size.min(room) }
            }
            Backing::Reserved { tiles, .. } => Memory::Tiled(tiles.clone()),
        }
    }

    /// What the device's resource registry holds for the resource once a view names it.
    pub fn view_entry(&self) -> ResourceEntry {
        ResourceEntry { memory: self.memory(), desc: self.desc, subresource_count: self.subresource_count }
    }

    pub fn is_buffer(&self) -> bool {
        self.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER
    }

    /// The first byte of the resource in host memory (None for reserved resources).
    pub fn base(&self) -> Option<*mut u8> {
        (self.base != 0).then_some(self.base as *mut u8)
    }

    /// The per-subresource states shared with executing work.
    pub fn states(&self) -> &crate::work::commands::States {
        self.states.get_or_init(|| {
            let first = crate::work::commands::SubState { state: self.initial_state, promoted: false };
            Arc::new(Mutex::new(vec![first; self.subresource_count as usize].into_boxed_slice()))
        })
    }

    fn map_counter(&self, sub: u32) -> Option<&AtomicU32> {
        if self.map_more.is_empty() {
            (sub == 0).then_some(&self.map_one)
        } else {
            self.map_more.get(sub as usize)
        }
    }

    /// GetGPUVirtualAddress: buffers' host address (the CPU adapter is cache-coherent UMA), a
    /// placed buffer's being its heap's base plus its offset; textures 0.
    pub fn gpu_virtual_address(&self) -> u64 {
        if !self.is_buffer() {
            return 0;
        }
        match &self.backing {
            Backing::Reserved { va, .. } => va.base() as u64,
            Backing::Committed(alloc) => {
                alloc.register_va(&self.device.inner);
                alloc.base() as u64
            }
            _ => self.base().map_or(0, |p| p as u64),
        }
    }

    pub fn is_cpu_accessible(&self) -> bool {
        self.cpu_accessible
    }

    /// Offset and tight footprint of a subresource in the resource's memory.
    pub fn subresource_layout(&self, sub: u32) -> Option<(u64, D3D12_SUBRESOURCE_FOOTPRINT)> {
        allocation::subresource_layout(&self.desc, sub)
    }

    /// Map: see [`map`]. Returns the pointer to hand out (byte 0 for buffers).
    fn map(&self, sub: u32, want_pointer: bool) -> Result<*mut u8> {
        let invalid = |id: D3D12_MESSAGE_ID, text: &'static str| {
            Error::invalid_arg(id, D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, text)
        };
        if !self.is_cpu_accessible() {
            return Err(invalid(D3D12_MESSAGE_ID_MAP_INVALIDHEAP, "Map needs a resource on a CPU-accessible heap"));
        }
        if sub >= self.subresource_count {
            return Err(invalid(D3D12_MESSAGE_ID_MAP_INVALIDSUBRESOURCE, "Map: subresource out of range"));
        }
        if !self.is_buffer() {
            if self.desc.Layout == D3D12_TEXTURE_LAYOUT_ROW_MAJOR {
                return Err(invalid(D3D12_MESSAGE_ID_MAP_INVALIDRESOURCE, "ROW_MAJOR textures cannot be mapped"));
            }
            if self.desc.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D && self.mip_levels > 1 {
                return Err(invalid(
                    D3D12_MESSAGE_ID_MAP_INVALIDRESOURCE,
                    "a 3D texture with several mips cannot be mapped",
                ));
            }
            // The layout of UNKNOWN / 64KB_UNDEFINED textures is not disclosed: the mapping only
            // enables Write/ReadFromSubresource.
            if want_pointer && self.desc.Layout != D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE {
                return Err(invalid(
                    D3D12_MESSAGE_ID_MAP_INVALIDDATAPOINTER,
                    "textures with an undefined layout map only with ppData NULL",
                ));
            }
        }
        let counter = self.map_counter(sub).ok_or(Error::INVALID_ARG)?;
        if self.device.inner.tracks_maps() {
            counter.fetch_add(1, Ordering::Relaxed);
        }
        let base = self.base().ok_or(Error::INVALID_ARG)?;
        if let Some(a) = self.backing.allocation() {
            if !a.memory.is_dirty() {
                a.memory.mark_dirty();
            }
        }
        if self.is_buffer() {
            return Ok(base);
        }
        let off = self.subresource_layout(sub).map_or(0, |(o, _)| o);
        // SAFETY: the subresource offset lies inside the resource's memory.
        Ok(unsafe { base.add(off as usize) })
    }

    /// Unmap: ignored when the subresource is not mapped or out of range (native).
    fn unmap(&self, sub: u32) {
        // The count is bookkeeping for the debug layer (the pointer stays valid while the
        // resource lives): an unmatched Unmap is ignored.
        if self.fast_map || !self.device.inner.tracks_maps() {
            return;
        }
        if let Some(m) = self.map_counter(sub) {
            if m.load(Ordering::Relaxed) > 0 {
                m.fetch_sub(1, Ordering::Relaxed);
            }
        }
    }

    pub fn map_count(&self, sub: u32) -> u32 {
        self.map_counter(sub).map_or(0, |m| m.load(Ordering::Acquire))
    }
}

type Iface = ID3D12Resource2;

// SAFETY: RESOURCE_VTBL's slots all take an Object<Resource>.
unsafe impl Class for Resource {
    type Vtbl = ID3D12Resource2Vtbl;
    const VTBL: &'static ID3D12Resource2Vtbl = &RESOURCE_VTBL;
    const IIDS: &'static [GUID] = &[
        IID_IUnknown,
        IID_ID3D12Object,
        IID_ID3D12DeviceChild,
        IID_ID3D12Pageable,
        IID_ID3D12Resource,
        IID_ID3D12Resource1,
        IID_ID3D12Resource2,
    ];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> = Some(("ID3D12Resource", D3D12_MESSAGE_ID_LIVE_RESOURCE));
    const LIVE_AUTO: bool = false;
    fn resident(&self) -> bool {
        self.backing.allocation().is_none_or(|a| a.residency.is_resident())
    }
}

impl Child for Resource {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live resource pointers.
unsafe fn res<'a>(this: *mut Iface) -> Result<&'a Resource> {
    // SAFETY: forwarded.
    unsafe { Object::<Resource>::from_this(this) }.map(|o| &o.inner).ok_or(Error::POINTER)
}

/// ID3D12Resource::Map. Nested maps are counted per subresource and return the same pointer;
/// on failure `*ppData` is left as it was (native).
unsafe extern "C" fn map(this: *mut Iface, sub: UINT, _read: *const D3D12_RANGE, pp: *mut *mut c_void) -> HRESULT {
    guard_hr("ID3D12Resource::Map", || {
        // SAFETY: COM This pointer.
        let r = unsafe { res(this)? };
        // The common case first: a mappable buffer, subresource 0.
        if r.fast_map && sub == 0 {
            if let Some(a) = r.backing.allocation() {
                if !a.memory.is_dirty() {
                    a.memory.mark_dirty();
                }
            }
            if !pp.is_null() {
                // SAFETY: non-null out-pointer from the caller.
                unsafe { *pp = r.base as *mut c_void };
            }
            return Ok(S_OK);
        }
        let p = r.map(sub, !pp.is_null())?;
        if !pp.is_null() {
            // SAFETY: non-null out-pointer from the caller.
            unsafe { *pp = p.cast() };
        }
        Ok(S_OK)
    })
}

unsafe extern "C" fn unmap(this: *mut Iface, sub: UINT, _written: *const D3D12_RANGE) {
    guard("ID3D12Resource::Unmap", (), || {
        // SAFETY: COM This pointer.
        if let Ok(r) = unsafe { res(this) } {
            r.unmap(sub)
        }
    })
}

unsafe extern "C" fn get_desc(this: *mut Iface) -> D3D12_RESOURCE_DESC {
    guard("ID3D12Resource::GetDesc", D3D12_RESOURCE_DESC::default(), || {
        // SAFETY: COM This pointer.
        unsafe { res(this) }.map(|r| rd3d12_core::desc::desc_from_desc1(&r.desc)).unwrap_or_default()
    })
}

unsafe extern "C" fn get_desc1(this: *mut Iface) -> D3D12_RESOURCE_DESC1 {
    // SAFETY: COM This pointer.
    guard("ID3D12Resource2::GetDesc1", D3D12_RESOURCE_DESC1::default(), || {
        unsafe { res(this) }.map(|r| r.desc).unwrap_or_default()
    })
}

unsafe extern "C" fn get_gpu_virtual_address(this: *mut Iface) -> D3D12_GPU_VIRTUAL_ADDRESS {
    // SAFETY: COM This pointer.
    guard("ID3D12Resource::GetGPUVirtualAddress", 0, || unsafe { res(this) }.map_or(0, |r| r.gpu_virtual_address()))
}

/// GetHeapProperties: both outputs optional; reserved resources have no heap (E_INVALIDARG,
/// outputs untouched).
unsafe extern "C" fn get_heap_properties(
    this: *mut Iface,
    props: *mut D3D12_HEAP_PROPERTIES,
    flags: *mut D3D12_HEAP_FLAGS,
) -> HRESULT {
    guard_hr("ID3D12Resource::GetHeapProperties", || {
        // SAFETY: COM This pointer.
        let r = unsafe { res(this)? };
        if matches!(r.backing, Backing::Reserved { .. }) {
            return Err(Error::INVALID_ARG);
        }
        // SAFETY: outputs are null or writable.
        unsafe {
            if let Some(p) = props.as_mut() {
                *p = r.heap_props;
            }
            if let Some(f) = flags.as_mut() {
                *f = r.heap_flags;
            }
        }
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_protected_resource_session(
    this: *mut Iface,
    _riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("ID3D12Resource1::GetProtectedResourceSession", || {
        if !ppv.is_null() {
            // SAFETY: non-null out-pointer.
            unsafe { *ppv = std::ptr::null_mut() };
        }
        // SAFETY: COM This pointer.
        unsafe { res(this)? };
        // No resource is created with a protected session on this adapter.
        Err(Error::hr(DXGI_ERROR_NOT_FOUND))
    })
}

/// A checked box of one subresource, in texels, plus the copy geometry in blocks.
struct Region {
    /// Byte offset of the box's first block row in the subresource, per depth slice below.
    first_byte: u64,
    row_bytes: usize,
    rows: u32,
    depth: u32,
    row_pitch: u64,
    slice_pitch: u64,
}

impl Resource {
    /// Validates Write/ReadFromSubresource's resource, subresource and box, and returns the
    /// geometry; `None` means an empty box (S_OK, nothing copied).
    fn cpu_region(&self, sub: u32, b: Option<&D3D12_BOX>, write: bool) -> Result<Option<Region>> {
        let (heap_id, res_id, box_id, sub_id) = if write {
            (
                D3D12_MESSAGE_ID_WRITETOSUBRESOURCE_INVALIDHEAP,
                D3D12_MESSAGE_ID_WRITETOSUBRESOURCE_INVALIDRESOURCE,
                D3D12_MESSAGE_ID_WRITETOSUBRESOURCE_INVALIDBOX,
                D3D12_MESSAGE_ID_WRITETOSUBRESOURCE_INVALIDSUBRESOURCE,
            )
        } else {
            (
                D3D12_MESSAGE_ID_READFROMSUBRESOURCE_INVALIDHEAP,
                D3D12_MESSAGE_ID_READFROMSUBRESOURCE_INVALIDRESOURCE,
                D3D12_MESSAGE_ID_READFROMSUBRESOURCE_INVALIDBOX,
                D3D12_MESSAGE_ID_READFROMSUBRESOURCE_INVALIDSUBRESOURCE,
            )
        };
        let invalid =
            |id, text: &'static str| Error::invalid_arg(id, D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION, text);
        if self.is_buffer() {
            return Err(invalid(res_id, "Write/ReadFromSubresource do not take buffers"));
        }
        let ds_or_msaa =
            self.desc.Flags.0 & D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL.0 != 0 || self.desc.SampleDesc.Count > 1;
        if ds_or_msaa {
            return Err(invalid(res_id, "depth-stencil and multisampled textures have no CPU access"));
        }
        if !self.is_cpu_accessible() {
            return Err(invalid(heap_id, "the texture is not on a CPU-accessible heap"));
        }
        let (offset, fp) = self.subresource_layout(sub).ok_or_else(|| invalid(sub_id, "subresource out of range"))?;
        let finfo = format::info(fp.Format).ok_or(Error::INVALID_ARG)?;
        let (bw, bh) = (finfo.block_width.max(1) as u32, finfo.block_height.max(1) as u32);
        let bpe = (finfo.bits_per_element as u64).div_ceil(8);
        let (w, h, d) = (fp.Width, fp.Height, fp.Depth);
        let bx = b.copied().unwrap_or(D3D12_BOX { left: 0, top: 0, front: 0, right: w, bottom: h, back: d });
        if bx.left > bx.right
            || bx.top > bx.bottom
            || bx.front > bx.back
            || bx.right > w
            || bx.bottom > h
            || bx.back > d
        {
            return Err(invalid(box_id, "the box does not lie inside the subresource"));
        }
        // Whole blocks: all four edges on block boundaries (the subresource's extents are
        // block aligned here, so a box reaching the edge of a small mip passes).
        if bx.left % bw != 0 || bx.top % bh != 0 || bx.right % bw != 0 || bx.bottom % bh != 0 {
            return Err(invalid(box_id, "the box is not made of whole blocks of the format"));
        }
        if bx.left == bx.right || bx.top == bx.bottom || bx.front == bx.back {
            return Ok(None);
        }
        let row_pitch = fp.RowPitch as u64;
        let rows_per_slice = h.div_ceil(bh) as u64;
        let slice_pitch = row_pitch * rows_per_slice;
        let first_byte =
            offset + bx.front as u64 * slice_pitch + (bx.top / bh) as u64 * row_pitch + (bx.left / bw) as u64 * bpe;
        Ok(Some(Region {
            first_byte,
            row_bytes: ((bx.right - bx.left).div_ceil(bw) as u64 * bpe) as usize,
            rows: (bx.bottom - bx.top).div_ceil(bh),
            depth: bx.back - bx.front,
            row_pitch,
            slice_pitch,
        }))
    }
}

/// ID3D12Resource::WriteToSubresource: the caller's rows (SrcRowPitch apart, slices
/// SrcDepthPitch apart) into the box of a texture on a CPU-accessible heap. No prior Map is
/// required (native).
unsafe extern "C" fn write_to_subresource(
    this: *mut Iface,
    sub: UINT,
    dst_box: *const D3D12_BOX,
    src: *const c_void,
    src_row_pitch: UINT,
    src_depth_pitch: UINT,
) -> HRESULT {
    guard_hr("ID3D12Resource::WriteToSubresource", || {
        // SAFETY: COM This pointer; the box is null or a D3D12_BOX.
        let r = unsafe { res(this)? };
        let Some(g) = r.cpu_region(sub, unsafe { dst_box.as_ref() }, true)? else { return Ok(S_OK) };
        if src.is_null() {
            return Err(Error::INVALID_ARG);
        }
        let base = r.base().ok_or(Error::INVALID_ARG)?;
        r.memory().mark_dirty();
        for z in 0..g.depth as usize {
            for y in 0..g.rows as usize {
                // SAFETY: the region was checked against the subresource, which lies inside the
                // resource's memory; the caller's rows are readable per the method's contract.
                unsafe {
                    let d = base.add(g.first_byte as usize + z * g.slice_pitch as usize + y * g.row_pitch as usize);
                    let s = (src as *const u8).add(z * src_depth_pitch as usize + y * src_row_pitch as usize);
                    std::ptr::copy(s, d, g.row_bytes);
                }
            }
        }
        Ok(S_OK)
    })
}

/// ID3D12Resource::ReadFromSubresource: the inverse of WriteToSubresource.
unsafe extern "C" fn read_from_subresource(
    this: *mut Iface,
    dst: *mut c_void,
    dst_row_pitch: UINT,
    dst_depth_pitch: UINT,
    sub: UINT,
    src_box: *const D3D12_BOX,
) -> HRESULT {
    guard_hr("ID3D12Resource::ReadFromSubresource", || {
        // SAFETY: COM This pointer; the box is null or a D3D12_BOX.
        let r = unsafe { res(this)? };
        let Some(g) = r.cpu_region(sub, unsafe { src_box.as_ref() }, false)? else { return Ok(S_OK) };
        if dst.is_null() {
            return Err(Error::INVALID_ARG);
        }
        let base = r.base().ok_or(Error::INVALID_ARG)?;
        for z in 0..g.depth as usize {
            for y in 0..g.rows as usize {
                // SAFETY: as in write_to_subresource, in the other direction.
                unsafe {
                    let s = base.add(g.first_byte as usize + z * g.slice_pitch as usize + y * g.row_pitch as usize);
                    let d = (dst as *mut u8).add(z * dst_depth_pitch as usize + y * dst_row_pitch as usize);
                    std::ptr::copy(s, d, g.row_bytes);
                }
            }
        }
        Ok(S_OK)
    })
}

static RESOURCE_VTBL: ID3D12Resource2Vtbl = crate::child_vtbl!(
    ID3D12Resource2Vtbl,
    Resource,
    Iface {
        Map: map,
        Unmap: unmap,
        GetDesc: get_desc,
        GetGPUVirtualAddress: get_gpu_virtual_address,
        WriteToSubresource: write_to_subresource,
        ReadFromSubresource: read_from_subresource,
        GetHeapProperties: get_heap_properties,
        GetProtectedResourceSession: get_protected_resource_session,
        GetDesc1: get_desc1,
    }
);
