//! ID3D12DescriptorHeap, and how descriptors are written and read.
//!
//! A heap is zeroed host memory holding [`Descriptor`] records of 64 bytes
//! ([`rd3d12_core::descriptor::DESCRIPTOR_SIZE`], the increment of every type): a CPU handle is
//! the address of a record, the GPU handle of a shader-visible heap the same address (the CPU
//! adapter is cache-coherent UMA), so `start + n × increment` addresses descriptor n in both
//! spaces. Records are plain data; CopyDescriptors moves bytes.
//!
//! The device keeps two registries:
//! * [`HeapRegistry`](crate::work::descriptors::HeapRegistry): the address range of every live heap. Every handle the application
//!   passes is checked against it before anything is written or read, so a stale or made-up
//!   handle writes nothing (a per-thread cache of the last heap hit keeps this to a few loads on
//!   the hot paths);
//! * [`ResourceRegistry`](crate::work::descriptors::ResourceRegistry): the memory and desc of every resource a view was created for, keyed
//!   by the resource id a descriptor stores. A resource enters when its first view is created
//!   and leaves when it is destroyed, so [`resolve`] finds nothing for a descriptor of a
//!   destroyed resource (native: DESCRIPTOR_HANDLE_WITH_INVALID_RESOURCE, undefined) and work
//!   holding the returned [`Memory`](crate::work::memory::Memory) stays memory-safe.
//!
//! Writes race only with an application that destroys a heap while another of its threads
//! writes into it (undefined natively too): a handle is checked, then written.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12descriptorheap>

use crate::com::{Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, Error, Result};
use crate::residency::Residency;
use crate::work::descriptors::{ResourceEntry, Span, INC};
use rd3d12_core::descriptor::{self, Descriptor};
use rd3d12_sys::*;
use std::alloc::Layout;
use std::ptr::NonNull;

// ---- reading and writing descriptors --------------------------------------------------------

/// The descriptor at a CPU handle, if the handle is a descriptor of a live heap of the device
/// (any type; [`Descriptor::kind`] says what it holds, [`descriptor::Kind::EMPTY`] if never
/// written). Its resource, if any, is found with [`resolve`].
pub fn descriptor_at(device: &Device, h: D3D12_CPU_DESCRIPTOR_HANDLE) -> Option<Descriptor> {
    let s = device.descriptor_heaps.span(h.ptr)?;
    s.holds(h.ptr, 1).then(|| {
        // SAFETY: the handle addresses a whole record inside a live heap's memory; any bytes
        // are a valid Descriptor (integers only).
        unsafe { std::ptr::read(h.ptr as *const Descriptor) }
    })
}

/// The descriptor at a GPU handle: as [`descriptor_at`], for shader-visible heaps only.
pub fn descriptor_at_gpu(device: &Device, h: D3D12_GPU_DESCRIPTOR_HANDLE) -> Option<Descriptor> {
    let addr = usize::try_from(h.ptr).ok()?;
    let s = device.descriptor_heaps.span(addr)?;
    (s.visible && s.holds(addr, 1)).then(|| {
        // SAFETY: as in descriptor_at.
        unsafe { std::ptr::read(addr as *const Descriptor) }
    })
}

/// The memory, desc and subresource count of a descriptor's resource (or of a UAV's counter
/// resource, by its id); `None` for null descriptors and destroyed resources.
pub fn resolve(device: &Device, id: u64) -> Option<ResourceEntry> {
    device.resources.get(id)
}

/// Writes one descriptor at a CPU handle of a live heap of type `ty`; a handle that is not one
/// writes nothing and returns false.
#[inline]
pub fn write(device: &Device, h: D3D12_CPU_DESCRIPTOR_HANDLE, ty: D3D12_DESCRIPTOR_HEAP_TYPE, d: &Descriptor) -> bool {
    if device.descriptor_heaps.run(h.ptr, 1, ty.0).is_none() {
        return false;
    }
    // SAFETY: the handle addresses a whole record inside a live heap's memory (64-byte aligned:
    // heaps are 64-byte aligned and the offset a multiple of 64).
    unsafe { std::ptr::write(h.ptr as *mut Descriptor, *d) };
    true
}

/// Moves `n` descriptors between two checked runs (memmove: overlapping runs allowed).
///
/// # Safety
/// Both runs must have been checked with [`HeapRegistry::run`](crate::work::descriptors::HeapRegistry::run) for `n` descriptors.
#[inline]
pub unsafe fn copy_run(dst: usize, src: usize, n: usize) {
    // SAFETY: the caller checked both runs.
    unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, n * INC) };
}

// ---- the heap object ------------------------------------------------------------------------

/// The heap's records.
struct Slots {
    ptr: NonNull<u8>,
    layout: Layout,
}

// SAFETY: the memory is plain bytes owned by the heap; concurrent access follows D3D12's rules
// (different threads write different descriptors).
unsafe impl Send for Slots {}
// SAFETY: as above.
unsafe impl Sync for Slots {}

impl Drop for Slots {
    fn drop(&mut self) {
        // SAFETY: allocated in `Slots::new` with this layout.
        unsafe { std::alloc::dealloc(self.ptr.as_ptr(), self.layout) };
    }
}

impl Slots {
    /// Zeroed, 64-byte aligned memory for `n` records; `None` when it cannot be had.
    fn new(n: u32) -> Option<Slots> {
        let bytes = (n as usize).checked_mul(INC)?;
        // Refuse what the machine could never back (calloc would overcommit it).
        if bytes as u64 > physical_memory() {
            return None;
        }
        let layout = Layout::from_size_align(bytes, INC).ok()?;
        // SAFETY: the layout has a non-zero size (n ≥ 1 was validated).
        let ptr = NonNull::new(unsafe { std::alloc::alloc_zeroed(layout) })?;
        Some(Slots { ptr, layout })
    }
}

/// Bytes of physical memory of the host.
fn physical_memory() -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    if pages <= 0 || size <= 0 {
        return u64::MAX;
    }
    (pages as u64).saturating_mul(size as u64)
}

pub struct DescriptorHeap {
    device: Ptr<Device>,
    /// GetDesc's desc (NodeMask 0 → 1).
    pub desc: D3D12_DESCRIPTOR_HEAP_DESC,
    slots: Slots,
    pub residency: Residency,
}

impl DescriptorHeap {
    /// CreateDescriptorHeap (descriptors-and-binding.md §2): the desc rules, then zeroed
    /// memory (E_OUTOFMEMORY when it cannot be had), registered with the device.
    pub fn create(device: Ptr<Device>, desc: &D3D12_DESCRIPTOR_HEAP_DESC) -> Result<Ptr<DescriptorHeap>> {
        let desc = descriptor::validate_heap_desc(desc)
            .map_err(|r| Error::invalid_arg(r.id.into(), D3D12_MESSAGE_CATEGORY_STATE_CREATION, r.text))?;
        let slots = Slots::new(desc.NumDescriptors).ok_or(Error::OUT_OF_MEMORY)?;
        let bytes = slots.layout.size();
        let start = slots.ptr.as_ptr() as usize;
        let visible = desc.Flags.0 & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE.0 != 0;
        device.inner.descriptor_heaps.insert(Span { start, end: start + bytes, ty: desc.Type.0, visible });
        let residency = Residency::new(&device.inner, bytes as u64, true);
        Ok(Ptr::new(DescriptorHeap { device, desc, slots, residency }))
    }

    /// The CPU handle of descriptor 0.
    pub fn cpu_start(&self) -> D3D12_CPU_DESCRIPTOR_HANDLE {
        D3D12_CPU_DESCRIPTOR_HANDLE { ptr: self.slots.ptr.as_ptr() as usize }
    }

    /// The GPU handle of descriptor 0: the same address for shader-visible heaps, 0 otherwise.
    pub fn gpu_start(&self) -> D3D12_GPU_DESCRIPTOR_HANDLE {
        let visible = self.desc.Flags.0 & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE.0 != 0;
        D3D12_GPU_DESCRIPTOR_HANDLE { ptr: if visible { self.slots.ptr.as_ptr() as u64 } else { 0 } }
    }
}

impl Drop for DescriptorHeap {
    fn drop(&mut self) {
        // Unregistered before the memory goes (fields drop after this).
        self.device.inner.descriptor_heaps.remove(self.slots.ptr.as_ptr() as usize);
    }
}

type Iface = ID3D12DescriptorHeap;

// SAFETY: DESCRIPTOR_HEAP_VTBL's slots all take an Object<DescriptorHeap>.
unsafe impl Class for DescriptorHeap {
    type Vtbl = ID3D12DescriptorHeapVtbl;
    const VTBL: &'static ID3D12DescriptorHeapVtbl = &DESCRIPTOR_HEAP_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12DescriptorHeap];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12DescriptorHeap", D3D12_MESSAGE_ID_LIVE_DESCRIPTORHEAP));
}

impl Child for DescriptorHeap {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live descriptor heap pointers.
unsafe fn heap<'a>(this: *mut Iface) -> Option<&'a DescriptorHeap> {
    // SAFETY: forwarded.
    unsafe { Object::<DescriptorHeap>::from_this(this) }.map(|o| &o.inner)
}

/// ID3D12DescriptorHeap::GetDesc, by value.
unsafe extern "C" fn get_desc(this: *mut Iface) -> D3D12_DESCRIPTOR_HEAP_DESC {
    // SAFETY: COM This pointer.
    guard("ID3D12DescriptorHeap::GetDesc", D3D12_DESCRIPTOR_HEAP_DESC::default(), || {
        unsafe { heap(this) }.map(|h| h.desc).unwrap_or_default()
    })
}

/// ID3D12DescriptorHeap::GetCPUDescriptorHandleForHeapStart: the address of descriptor 0.
unsafe extern "C" fn get_cpu_start(this: *mut Iface) -> D3D12_CPU_DESCRIPTOR_HANDLE {
    // SAFETY: COM This pointer.
    guard("ID3D12DescriptorHeap::GetCPUDescriptorHandleForHeapStart", D3D12_CPU_DESCRIPTOR_HANDLE::default(), || {
        unsafe { heap(this) }.map(|h| h.cpu_start()).unwrap_or_default()
    })
}

/// ID3D12DescriptorHeap::GetGPUDescriptorHandleForHeapStart: non-zero for shader-visible heaps,
/// 0 otherwise (debug #1315).
unsafe extern "C" fn get_gpu_start(this: *mut Iface) -> D3D12_GPU_DESCRIPTOR_HANDLE {
    // SAFETY: COM This pointer.
    guard("ID3D12DescriptorHeap::GetGPUDescriptorHandleForHeapStart", D3D12_GPU_DESCRIPTOR_HANDLE::default(), || {
        unsafe { heap(this) }.map(|h| h.gpu_start()).unwrap_or_default()
    })
}

static DESCRIPTOR_HEAP_VTBL: ID3D12DescriptorHeapVtbl = crate::child_vtbl!(
    ID3D12DescriptorHeapVtbl,
    DescriptorHeap,
    Iface {
        GetDesc: get_desc,
        GetCPUDescriptorHandleForHeapStart: get_cpu_start,
        GetGPUDescriptorHandleForHeapStart: get_gpu_start,
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::resource::Resource;
    use rd3d12_core::descriptor::Kind;
    use std::ffi::c_void;
    use std::ptr::null_mut;

    /// A device, the raw device pointer and its vtable.
    fn device() -> (Ptr<Device>, *mut ID3D12Device11, &'static ID3D12Device11Vtbl) {
        let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
        let raw = dev.as_ptr() as *mut ID3D12Device11;
        (dev, raw, crate::device::vtable())
    }

    fn texture(raw: *mut ID3D12Device11, v: &ID3D12Device11Vtbl) -> *mut ID3D12Resource {
        let hp = D3D12_HEAP_PROPERTIES { Type: D3D12_HEAP_TYPE_DEFAULT, ..Default::default() };
        let desc = D3D12_RESOURCE_DESC {
            Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
            Width: 16,
            Height: 16,
            DepthOrArraySize: 1,
            MipLevels: 1,
            Format: DXGI_FORMAT_R8G8B8A8_UNORM,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            ..Default::default()
        };
        let mut r: *mut c_void = null_mut();
        // SAFETY: live device; valid arguments.
        let hr = unsafe {
            v.CreateCommittedResource.unwrap()(
                raw,
                &hp,
                D3D12_HEAP_FLAG_NONE,
                &desc,
                D3D12_RESOURCE_STATE_COMMON,
                std::ptr::null(),
                &IID_ID3D12Resource,
                &mut r,
            )
        };
        assert_eq!(hr, S_OK);
        r.cast()
    }

    fn heap(dev: &Ptr<Device>, ty: D3D12_DESCRIPTOR_HEAP_TYPE, n: u32, flags: u32) -> Ptr<DescriptorHeap> {
        let d = D3D12_DESCRIPTOR_HEAP_DESC {
            Type: ty,
            NumDescriptors: n,
            Flags: D3D12_DESCRIPTOR_HEAP_FLAGS(flags),
            NodeMask: 0,
        };
        DescriptorHeap::create(dev.clone(), &d).unwrap()
    }

    #[test]
    fn a_view_resolves_to_its_resource_until_the_resource_is_destroyed() {
        let (dev, raw, v) = device();
        let h = heap(&dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 4, 0);
        let tex = texture(raw, v);
        let slot = D3D12_CPU_DESCRIPTOR_HANDLE { ptr: h.inner.cpu_start().ptr + INC };
        // SAFETY: live device and resource.
        unsafe { v.CreateShaderResourceView.unwrap()(raw, tex, std::ptr::null(), slot) };
        let d = descriptor_at(&dev.inner, slot).unwrap();
        assert_eq!((d.kind, d.format), (Kind::SRV, DXGI_FORMAT_R8G8B8A8_UNORM));
        // SAFETY: `tex` is one of our live resources.
        let id = unsafe { Object::<Resource>::from_this(tex) }.unwrap().inner.id;
        assert_eq!(d.resource, id);
        let e = resolve(&dev.inner, d.resource).unwrap();
        assert_eq!((e.desc.Width, e.subresource_count), (16, 1));
        // Never written: EMPTY.
        assert_eq!(descriptor_at(&dev.inner, h.inner.cpu_start()).unwrap().kind, Kind::EMPTY);
        // Releasing the resource leaves a descriptor that resolves to nothing.
        // SAFETY: the test owns the one reference.
        assert_eq!(unsafe { Object::<Resource>::release(tex as *const Object<Resource>) }, 0);
        assert_eq!(descriptor_at(&dev.inner, slot).unwrap().resource, id);
        assert!(resolve(&dev.inner, id).is_none());
        drop(e);
    }

    #[test]
    fn handles_outside_live_heaps_read_and_write_nothing() {
        let (dev, _, _) = device();
        let h = heap(&dev, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, 2, 0);
        let start = h.inner.cpu_start();
        let null = Descriptor::null(Kind::SAMPLER);
        assert!(write(&dev.inner, start, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, &null));
        // Wrong type, misaligned, past the end.
        assert!(!write(&dev.inner, start, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, &null));
        let mid = D3D12_CPU_DESCRIPTOR_HANDLE { ptr: start.ptr + 4 };
        assert!(!write(&dev.inner, mid, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, &null));
        assert!(descriptor_at(&dev.inner, mid).is_none());
        let end = D3D12_CPU_DESCRIPTOR_HANDLE { ptr: start.ptr + 2 * INC };
        assert!(descriptor_at(&dev.inner, end).is_none());
        assert!(descriptor_at(&dev.inner, start).is_some());
        // Not shader visible: no GPU reads.
        assert!(descriptor_at_gpu(&dev.inner, D3D12_GPU_DESCRIPTOR_HANDLE { ptr: start.ptr as u64 }).is_none());
        // The cached span dies with its heap.
        drop(h);
        assert!(descriptor_at(&dev.inner, start).is_none());
        assert!(!write(&dev.inner, start, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, &null));
    }

    #[test]
    fn shader_visible_heaps_answer_gpu_handles_at_the_same_address() {
        let (dev, _, _) = device();
        let h = heap(&dev, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 3, 1);
        let g = h.inner.gpu_start();
        assert_eq!(g.ptr, h.inner.cpu_start().ptr as u64);
        let at = D3D12_CPU_DESCRIPTOR_HANDLE { ptr: h.inner.cpu_start().ptr + 2 * INC };
        assert!(write(&dev.inner, at, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, &Descriptor::null(Kind::UAV)));
        let d = descriptor_at_gpu(&dev.inner, D3D12_GPU_DESCRIPTOR_HANDLE { ptr: g.ptr + 2 * INC as u64 }).unwrap();
        assert_eq!(d.kind, Kind::UAV);
    }
}
