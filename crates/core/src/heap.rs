//! Heap rules: D3D12_HEAP_PROPERTIES and D3D12_HEAP_DESC validation, GetCustomHeapProperties,
//! and the heap/resource coupling checked when a committed or placed resource is created
//! (spec/heaps-and-memory.md §3–§7, spec/resources.md §7).

use crate::desc::{DescError, ValidatedDesc};
use crate::error::{Hr, MessageId};
use rd3d12_sys::*;

/// What the adapter is, as far as heaps care.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeapArch {
    /// ARCHITECTURE.UMA.
    pub uma: bool,
    /// ARCHITECTURE.CacheCoherentUMA.
    pub cache_coherent_uma: bool,
    /// GetNodeCount.
    pub node_count: u32,
    /// D3D12_RESOURCE_HEAP_TIER (1 or 2).
    pub resource_heap_tier: u32,
}

impl HeapArch {
    /// The CPU adapter: cache-coherent UMA, one node, resource heap tier 2.
    pub const CPU: HeapArch = HeapArch { uma: true, cache_coherent_uma: true, node_count: 1, resource_heap_tier: 2 };
}

/// Which creation path is asking: the message IDs differ between CreateHeap and the
/// CreateCommittedResource family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeapApi {
    /// ID3D12Device::CreateHeap(1).
    CreateHeap,
    /// CreateCommittedResource(1/2/3) (the implicit heap).
    CommittedResource,
}

fn fail(id: D3D12_MESSAGE_ID, message: String) -> DescError {
    DescError { hr: Hr::InvalidArg, id: MessageId(id.0), message, extra: Vec::new() }
}

const KNOWN_HEAP_FLAGS: u32 = 0x1 | 0x4 | 0x8 | 0x20 | 0x40 | 0x80 | 0x100 | 0x200 | 0x400 | 0x800 | 0x1000;
const DENY_MASK: u32 =
    D3D12_HEAP_FLAG_DENY_BUFFERS.0 | D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES.0 | D3D12_HEAP_FLAG_DENY_NON_RT_DS_TEXTURES.0;

fn node_mask_ok(mask: u32, arch: &HeapArch) -> bool {
    mask >> arch.node_count == 0
}

/// Validates heap properties and returns them with node masks 0 expanded to 1 (what GetDesc and
/// GetHeapProperties report).
pub fn validate_heap_properties(
    p: &D3D12_HEAP_PROPERTIES,
    arch: &HeapArch,
    api: HeapApi,
) -> Result<D3D12_HEAP_PROPERTIES, DescError> {
    let (unrecognized_type, unrecognized_page, unrecognized_pool, invalid) = match api {
        HeapApi::CreateHeap => (
            D3D12_MESSAGE_ID_CREATEHEAP_UNRECOGNIZEDHEAPTYPE,
            D3D12_MESSAGE_ID_CREATEHEAP_UNRECOGNIZEDCPUPAGEPROPERTIES,
            D3D12_MESSAGE_ID_CREATEHEAP_UNRECOGNIZEDMEMORYPOOL,
            D3D12_MESSAGE_ID_CREATEHEAP_INVALIDPROPERTIES,
        ),
        HeapApi::CommittedResource => (
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_UNRECOGNIZEDHEAPTYPE,
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_UNRECOGNIZEDCPUPAGEPROPERTIES,
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_UNRECOGNIZEDMEMORYPOOL,
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_INVALIDHEAPPROPERTIES,
        ),
    };
    let ty = p.Type;
    if !(D3D12_HEAP_TYPE_DEFAULT.0..=D3D12_HEAP_TYPE_CUSTOM.0).contains(&ty.0) {
        return Err(fail(unrecognized_type, format!("heap type {} is not a D3D12_HEAP_TYPE", ty.0)));
    }
    if p.CPUPageProperty.0 > D3D12_CPU_PAGE_PROPERTY_WRITE_BACK.0 {
        return Err(fail(unrecognized_page, format!("CPUPageProperty {} is not recognized", p.CPUPageProperty.0)));
    }
    if p.MemoryPoolPreference.0 > D3D12_MEMORY_POOL_L1.0 {
        return Err(fail(
            unrecognized_pool,
            format!("MemoryPoolPreference {} is not recognized", p.MemoryPoolPreference.0),
        ));
    }
    if ty != D3D12_HEAP_TYPE_CUSTOM {
        if p.CPUPageProperty != D3D12_CPU_PAGE_PROPERTY_UNKNOWN || p.MemoryPoolPreference != D3D12_MEMORY_POOL_UNKNOWN {
            return Err(fail(
                invalid,
                "CPUPageProperty and MemoryPoolPreference must be UNKNOWN unless the heap type is CUSTOM".into(),
            ));
        }
    } else {
        let page = p.CPUPageProperty;
        let pool = p.MemoryPoolPreference;
        let ok = match (page, pool) {
            (D3D12_CPU_PAGE_PROPERTY_UNKNOWN, _) | (_, D3D12_MEMORY_POOL_UNKNOWN) => false,
            (_, D3D12_MEMORY_POOL_L0) => true,
            // L1 exists only on NUMA adapters, and only without CPU access.
            (D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, D3D12_MEMORY_POOL_L1) => !arch.uma,
            _ => false,
        };
        if !ok {
            return Err(fail(
                invalid,
                format!(
                    "CUSTOM heap with CPUPageProperty {} and MemoryPoolPreference {} is not valid on this adapter",
                    page.0, pool.0
                ),
            ));
        }
    }
    let creation = if p.CreationNodeMask == 0 { 1 } else { p.CreationNodeMask };
    let visible = if p.VisibleNodeMask == 0 { 1 } else { p.VisibleNodeMask };
    if !node_mask_ok(creation, arch)
        || !node_mask_ok(visible, arch)
        || creation.count_ones() != 1
        || visible & creation != creation
    {
        return Err(fail(
            D3D12_MESSAGE_ID_INVALID_NODE_INDEX,
            format!("node masks creation {:#x} / visible {:#x} do not name this adapter's node", creation, visible),
        ));
    }
    Ok(D3D12_HEAP_PROPERTIES { CreationNodeMask: creation, VisibleNodeMask: visible, ..*p })
}

/// Validates heap flags for CreateHeap (`committed == false`) or a committed resource's implicit
/// heap. Returns the flags unchanged.
pub fn validate_heap_flags(
    flags: D3D12_HEAP_FLAGS,
    props: &D3D12_HEAP_PROPERTIES,
    arch: &HeapArch,
    api: HeapApi,
) -> Result<D3D12_HEAP_FLAGS, DescError> {
    let (unrecognized, invalid) = match api {
        HeapApi::CreateHeap => {
            (D3D12_MESSAGE_ID_CREATEHEAP_UNRECOGNIZEDMISCFLAGS, D3D12_MESSAGE_ID_CREATEHEAP_INVALIDMISCFLAGS)
        }
        HeapApi::CommittedResource => (
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_UNRECOGNIZEDHEAPMISCFLAGS,
            D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_INVALIDHEAPMISCFLAGS,
        ),
    };
    let f = flags.0;
    if f & !KNOWN_HEAP_FLAGS != 0 {
        return Err(fail(unrecognized, format!("heap flags {f:#x} contain unknown bits {:#x}", f & !KNOWN_HEAP_FLAGS)));
    }
    let has = |x: D3D12_HEAP_FLAGS| f & x.0 != 0;
    if api == HeapApi::CreateHeap && has(D3D12_HEAP_FLAG_ALLOW_DISPLAY) {
        return Err(fail(invalid, "ALLOW_DISPLAY is only valid for committed resources".into()));
    }
    if api == HeapApi::CreateHeap && arch.resource_heap_tier < 2 && (f & DENY_MASK).count_ones() != 2 {
        return Err(fail(
            invalid,
            "resource heap tier 1: a heap must allow exactly one category (buffers, RT/DS textures or other textures)"
                .into(),
        ));
    }
    if (f & DENY_MASK) == DENY_MASK {
        return Err(fail(invalid, "the heap flags deny every resource category".into()));
    }
    if has(D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER) {
        // Cross-adapter heaps are shared heaps (D3D12_HEAP_FLAGS docs; "Shared heaps"): SHARED
        // too, never a display heap, and (below) never CPU-accessible. Their memory is a shared
        // memfd like any shared heap's, which another adapter (process) can open.
        if !has(D3D12_HEAP_FLAG_SHARED) {
            return Err(fail(invalid, "SHARED_CROSS_ADAPTER heaps must also be SHARED".into()));
        }
        if has(D3D12_HEAP_FLAG_ALLOW_DISPLAY) {
            return Err(fail(invalid, "SHARED_CROSS_ADAPTER cannot be combined with ALLOW_DISPLAY".into()));
        }
    }
    if has(D3D12_HEAP_FLAG_SHARED) && cpu_page_property(props, arch) != D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE {
        // Shared heaps are not supported on CPU-accessible heaps (docs: Shared heaps).
        return Err(fail(invalid, "SHARED heaps cannot be CPU-accessible".into()));
    }
    if has(D3D12_HEAP_FLAG_HARDWARE_PROTECTED) {
        return Err(fail(
            invalid,
            "HARDWARE_PROTECTED needs protected resource sessions, which this adapter lacks".into(),
        ));
    }
    if has(D3D12_HEAP_FLAG_ALLOW_WRITE_WATCH) && cpu_page_property(props, arch) == D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE
    {
        return Err(fail(invalid, "ALLOW_WRITE_WATCH needs a CPU-accessible heap".into()));
    }
    Ok(flags)
}

/// Validates a D3D12_HEAP_DESC (CreateHeap) and returns what ID3D12Heap::GetDesc reports:
/// SizeInBytes as given, node masks expanded, Alignment 0 expanded to 64 KB, flags as given.
pub fn validate_heap_desc(desc: &D3D12_HEAP_DESC, arch: &HeapArch) -> Result<D3D12_HEAP_DESC, DescError> {
    if desc.SizeInBytes == 0 {
        return Err(fail(D3D12_MESSAGE_ID_CREATEHEAP_INVALIDSIZE, "SizeInBytes must not be 0".into()));
    }
    let props = validate_heap_properties(&desc.Properties, arch, HeapApi::CreateHeap)?;
    let alignment = match desc.Alignment {
        0 => D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT as u64,
        a if a == D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT as u64 => a,
        a if a == D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT as u64 => a,
        a => {
            return Err(fail(
                D3D12_MESSAGE_ID_CREATEHEAP_INVALIDALIGNMENT,
                format!("heap Alignment {a} must be 0, 65536 or 4194304"),
            ))
        }
    };
    validate_heap_flags(desc.Flags, &props, arch, HeapApi::CreateHeap)?;
    Ok(D3D12_HEAP_DESC { SizeInBytes: desc.SizeInBytes, Properties: props, Alignment: alignment, Flags: desc.Flags })
}

/// GetCustomHeapProperties: the CUSTOM equivalent of an abstract heap type on this adapter
/// (heaps-and-memory.md §4). CUSTOM or an unknown type returns the input type with UNKNOWN page
/// and pool and zero masks (the debug layer reports #643/#644).
pub fn custom_heap_properties(
    node_mask: u32,
    ty: D3D12_HEAP_TYPE,
    arch: &HeapArch,
) -> Result<D3D12_HEAP_PROPERTIES, DescError> {
    let (page, pool) = match ty {
        D3D12_HEAP_TYPE_DEFAULT => {
            (D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE, if arch.uma { D3D12_MEMORY_POOL_L0 } else { D3D12_MEMORY_POOL_L1 })
        }
        D3D12_HEAP_TYPE_UPLOAD => (
            if arch.cache_coherent_uma {
                D3D12_CPU_PAGE_PROPERTY_WRITE_BACK
            } else {
                D3D12_CPU_PAGE_PROPERTY_WRITE_COMBINE
            },
            D3D12_MEMORY_POOL_L0,
        ),
        D3D12_HEAP_TYPE_READBACK => (D3D12_CPU_PAGE_PROPERTY_WRITE_BACK, D3D12_MEMORY_POOL_L0),
        D3D12_HEAP_TYPE_CUSTOM => {
            return Err(fail(
                D3D12_MESSAGE_ID_GETCUSTOMHEAPPROPERTIES_INVALIDHEAPTYPE,
                "GetCustomHeapProperties needs an abstract heap type, not CUSTOM".into(),
            ))
        }
        _ => {
            return Err(fail(
                D3D12_MESSAGE_ID_GETCUSTOMHEAPPROPERTIES_UNRECOGNIZEDHEAPTYPE,
                format!("heap type {} is not recognized", ty.0),
            ))
        }
    };
    let mask = if node_mask == 0 { 1 } else { node_mask };
    Ok(D3D12_HEAP_PROPERTIES {
        Type: D3D12_HEAP_TYPE_CUSTOM,
        CPUPageProperty: page,
        MemoryPoolPreference: pool,
        CreationNodeMask: mask,
        VisibleNodeMask: mask,
    })
}

/// The CPU page property a heap really has (abstract types resolved through
/// [`custom_heap_properties`]).
pub fn cpu_page_property(p: &D3D12_HEAP_PROPERTIES, arch: &HeapArch) -> D3D12_CPU_PAGE_PROPERTY {
    if p.Type == D3D12_HEAP_TYPE_CUSTOM {
        p.CPUPageProperty
    } else {
        custom_heap_properties(1, p.Type, arch)
            .map(|c| c.CPUPageProperty)
            .unwrap_or(D3D12_CPU_PAGE_PROPERTY_NOT_AVAILABLE)
    }
}

/// How a resource is being put on its heap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// A committed resource: the implicit heap is made for it.
    Committed,
    /// A placed resource at `offset` in a heap of `heap_size` bytes and `heap_alignment`.
    Placed {
        /// HeapOffset.
        offset: u64,
        /// The heap's SizeInBytes.
        heap_size: u64,
        /// The heap's alignment.
        heap_alignment: u64,
        /// The bytes the resource takes in the heap: a buffer's Width, a texture's
        /// allocation size (CreatePlacedResource docs: "HeapOffset plus the resource size
        /// must be smaller than or equal to the heap size. GetResourceAllocationInfo must be
        /// used to understand the sizes of texture resources").
        size: u64,
    },
}

const GENERIC_READ: u32 = 0xAC3;

fn is_rt_ds_texture(d: &D3D12_RESOURCE_DESC1) -> bool {
    d.Flags.0 & (D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET.0 | D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL.0) != 0
}

/// Checks a validated resource desc against the heap it goes on: heap category flags, textures
/// on UPLOAD/READBACK, RT/UAV buffers on CPU heaps, the initial state per heap type and flags,
/// and (placed) offset alignment and fit. Returns debug warnings (e.g. #1328 for a buffer whose
/// initial state is ignored).
pub fn validate_resource_on_heap(
    v: &ValidatedDesc,
    props: &D3D12_HEAP_PROPERTIES,
    heap_flags: D3D12_HEAP_FLAGS,
    initial_state: D3D12_RESOURCE_STATES,
    placement: Placement,
) -> Result<Vec<crate::desc::Diag>, DescError> {
    let d = &v.desc;
    let invalid = D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_INVALID_PARAMETERS;
    let is_buffer = d.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER;
    let f = heap_flags.0;
    let denied = if is_buffer {
        f & D3D12_HEAP_FLAG_DENY_BUFFERS.0 != 0
    } else if is_rt_ds_texture(d) {
        f & D3D12_HEAP_FLAG_DENY_RT_DS_TEXTURES.0 != 0
    } else {
        f & D3D12_HEAP_FLAG_DENY_NON_RT_DS_TEXTURES.0 != 0
    };
    if denied {
        return Err(fail(invalid, "the heap flags deny this resource's category".into()));
    }
    let ty = props.Type;
    let cpu_heap = ty == D3D12_HEAP_TYPE_UPLOAD || ty == D3D12_HEAP_TYPE_READBACK;
    if cpu_heap && !is_buffer {
        return Err(fail(invalid, "textures cannot be placed on UPLOAD or READBACK heaps".into()));
    }
    let rt_uav = D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET.0 | D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS.0;
    if cpu_heap && d.Flags.0 & rt_uav != 0 {
        return Err(fail(invalid, "UPLOAD and READBACK buffers cannot allow render target or unordered access".into()));
    }
    let cross_heap = f & D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER.0 != 0;
    if d.Layout == D3D12_TEXTURE_LAYOUT_ROW_MAJOR && !is_buffer && !cross_heap {
        // D3D12_TEXTURE_LAYOUT docs: row-major textures are for cross-adapter sharing.
        return Err(fail(invalid, "ROW_MAJOR textures need a SHARED_CROSS_ADAPTER heap".into()));
    }
    if d.Flags.0 & D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER.0 != 0 && !cross_heap {
        // ALLOW_CROSS_ADAPTER resources live in cross-adapter heaps (resources.md §4 item 6).
        return Err(fail(invalid, "ALLOW_CROSS_ADAPTER resources need a SHARED_CROSS_ADAPTER heap".into()));
    }
    let s = initial_state.0;
    if ty == D3D12_HEAP_TYPE_UPLOAD && s != 0 && (s & !GENERIC_READ != 0) {
        return Err(fail(invalid, format!("resources on UPLOAD heaps start in GENERIC_READ, not {s:#x}")));
    }
    if ty == D3D12_HEAP_TYPE_READBACK && s != 0 && s != D3D12_RESOURCE_STATE_COPY_DEST.0 {
        return Err(fail(invalid, format!("resources on READBACK heaps start in COPY_DEST, not {s:#x}")));
    }
    validate_initial_state(d, initial_state)?;
    let mut warnings = Vec::new();
    if is_buffer && s != 0 && !cpu_heap {
        warnings.push(crate::desc::Diag {
            id: MessageId(D3D12_MESSAGE_ID_CREATERESOURCE_STATE_IGNORED.0),
            message: format!("initial state {s:#x} of a buffer is ignored: buffers are created in COMMON"),
        });
    }
    check_placement(v.alignment, placement)?;
    Ok(warnings)
}

/// A placed resource's offset and fit in its heap: HeapOffset a multiple of the resource's
/// alignment, the heap at least as aligned, and the resource inside the heap. Committed
/// resources always pass.
pub fn check_placement(alignment: u64, placement: Placement) -> Result<(), DescError> {
    let invalid = D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_INVALID_PARAMETERS;
    if let Placement::Placed { offset, heap_size, heap_alignment, size } = placement {
        if offset % alignment != 0 {
            return Err(fail(
                invalid,
                format!("HeapOffset {offset} is not a multiple of the resource's alignment {alignment}"),
            ));
        }
        if heap_alignment < alignment {
            return Err(fail(
                invalid,
                format!("the heap's alignment {heap_alignment} is smaller than the resource's {alignment}"),
            ));
        }
        if offset.checked_add(size).is_none_or(|end| end > heap_size) {
            return Err(fail(
                invalid,
                format!("{size} bytes at offset {offset} do not fit in a heap of {heap_size} bytes"),
            ));
        }
    }
    Ok(())
}

/// Initial state rules shared by every creation path (resources.md §7): known bits only, at most
/// one write state and no read/write mix, and states that need a usage flag only with that flag.
pub fn validate_initial_state(d: &D3D12_RESOURCE_DESC1, state: D3D12_RESOURCE_STATES) -> Result<(), DescError> {
    let invalid = D3D12_MESSAGE_ID_CREATERESOURCEANDHEAP_INVALID_PARAMETERS;
    let s = state.0;
    const WRITE: u32 = 0x4 | 0x8 | 0x10 | 0x100 | 0x400 | 0x1000 | 0x40_0000 | 0x2_0000 | 0x8_0000 | 0x80_0000;
    const KNOWN: u32 = 0x1
        | 0x2
        | 0x4
        | 0x8
        | 0x10
        | 0x20
        | 0x40
        | 0x80
        | 0x100
        | 0x200
        | 0x400
        | 0x800
        | 0x1000
        | 0x2000
        | 0x40_0000
        | 0x100_0000
        | 0x1_0000
        | 0x2_0000
        | 0x4_0000
        | 0x8_0000
        | 0x10_0000
        | 0x20_0000
        | 0x80_0000;
    if s & !KNOWN != 0 {
        return Err(fail(invalid, format!("initial state {s:#x} has unknown bits")));
    }
    let writes = s & WRITE;
    if writes.count_ones() > 1 || (writes != 0 && s & !WRITE != 0) {
        return Err(fail(invalid, format!("initial state {s:#x} mixes write states or reads with a write")));
    }
    let flags = d.Flags.0;
    let need = |bit: u32, flag: D3D12_RESOURCE_FLAGS| s & bit == 0 || flags & flag.0 != 0;
    let ok = need(D3D12_RESOURCE_STATE_RENDER_TARGET.0, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET)
        && need(D3D12_RESOURCE_STATE_DEPTH_WRITE.0, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)
        && need(D3D12_RESOURCE_STATE_DEPTH_READ.0, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL)
        && need(D3D12_RESOURCE_STATE_UNORDERED_ACCESS.0, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS)
        && need(
            D3D12_RESOURCE_STATE_RAYTRACING_ACCELERATION_STRUCTURE.0,
            D3D12_RESOURCE_FLAG_RAYTRACING_ACCELERATION_STRUCTURE,
        );
    if !ok {
        return Err(fail(invalid, format!("initial state {s:#x} needs a usage flag the resource does not have")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heap(flags: u32) -> D3D12_HEAP_DESC {
        D3D12_HEAP_DESC {
            SizeInBytes: 1 << 20,
            Properties: D3D12_HEAP_PROPERTIES { Type: D3D12_HEAP_TYPE_DEFAULT, ..Default::default() },
            Alignment: 0,
            Flags: D3D12_HEAP_FLAGS(flags),
        }
    }

    #[test]
    fn cross_adapter_heaps_are_shared_default_heaps() {
        let shared = D3D12_HEAP_FLAG_SHARED.0;
        let cross = D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER.0;
        let got = validate_heap_desc(&heap(shared | cross), &HeapArch::CPU).unwrap();
        assert_eq!(got.Flags.0, shared | cross);
        // without SHARED, or on a CPU-visible heap: refused
        assert!(validate_heap_desc(&heap(cross), &HeapArch::CPU).is_err());
        let mut up = heap(shared | cross);
        up.Properties.Type = D3D12_HEAP_TYPE_UPLOAD;
        assert!(validate_heap_desc(&up, &HeapArch::CPU).is_err());
    }

    #[test]
    fn placement_fits_the_size_given() {
        // a 1 KiB buffer (its Width) in a 1 KiB heap
        let p = |offset, size| Placement::Placed { offset, heap_size: 1024, heap_alignment: 65536, size };
        assert!(check_placement(65536, p(0, 1024)).is_ok());
        assert!(check_placement(65536, p(0, 1025)).is_err());
        assert!(check_placement(65536, p(65536, 1)).is_err());
    }
}
