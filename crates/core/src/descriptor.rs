//! Descriptors (descriptors-and-binding.md §1–§6): descriptor heap rules, the 64-byte
//! descriptor record the CPU backend keeps in heap memory, and the validation of every view
//! and sampler desc (CreateConstantBufferView, CreateShaderResourceView,
//! CreateUnorderedAccessView, CreateRenderTargetView, CreateDepthStencilView,
//! CreateSampler / CreateSampler2).
//!
//! A descriptor is plain data: [`Descriptor`] is `#[repr(C)]`, 64 bytes, made only of integers
//! (any bit pattern is a valid value), and position independent, so CopyDescriptors is a
//! memmove and a heap slot can be read back whatever the application wrote there. Resources
//! are named by the runtime's resource id, never by a pointer: a reader resolves the id in the
//! device's registry and finds nothing once the resource is gone.
//!
//! View creation returns void: an invalid desc writes a *null* descriptor of the view's kind
//! ([`Descriptor::null`]) and the rule it broke ([`Rule`], with the debug layer's message ID)
//! goes to the debug layer.

use rd3d12_sys as sys;
use rd3d12_sys::{D3D12_DESCRIPTOR_HEAP_DESC, D3D12_RESOURCE_DESC1, DXGI_FORMAT};

use crate::error::MessageId;
use crate::format::{self, s1, FormatFlags, FormatInfo};

/// Bytes of one descriptor, the handle increment of every heap type (a power of two).
pub const DESCRIPTOR_SIZE: u32 = 64;

/// `D3D12_DEFAULT_SHADER_4_COMPONENT_MAPPING`: identity (0, 1, 2, 3) plus the always-set bit.
pub const DEFAULT_SHADER_4_COMPONENT_MAPPING: u32 = 0x1688;

/// GetDescriptorHandleIncrementSize: [`DESCRIPTOR_SIZE`] for the four heap types, 0 for any
/// other value (as a peer implementation answers; native UNSPECIFIED).
pub const fn handle_increment(ty: u32) -> u32 {
    if ty < sys::D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES.0 {
        DESCRIPTOR_SIZE
    } else {
        0
    }
}

// ---- rules ----------------------------------------------------------------------------------

/// A rule of descriptor creation or copying, with the message the debug layer reports when it
/// is broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// The D3D12_MESSAGE_ID.
    pub id: MessageId,
    /// A warning (the call still does its work) rather than an error.
    pub warning: bool,
    /// What the rule says.
    pub text: &'static str,
}

const fn error(id: sys::D3D12_MESSAGE_ID, text: &'static str) -> Rule {
    Rule { id: MessageId(id.0), warning: false, text }
}

const fn warning(id: sys::D3D12_MESSAGE_ID, text: &'static str) -> Rule {
    Rule { id: MessageId(id.0), warning: true, text }
}

/// Every rule, grouped by the call that checks it.
pub mod rules {
    use super::{error, warning, Rule};
    use rd3d12_sys::*;

    // CreateDescriptorHeap (E_INVALIDARG).
    /// Type is not one of the four heap types.
    pub const HEAP_TYPE: Rule =
        error(D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_INVALID_DESC, "unknown descriptor heap Type");
    /// Flags has bits other than SHADER_VISIBLE.
    pub const HEAP_FLAGS: Rule =
        error(D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_INVALID_DESC, "unknown descriptor heap Flags bits");
    /// RTV and DSV heaps cannot be shader visible.
    pub const HEAP_VISIBLE_TYPE: Rule = error(
        D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_INVALID_DESC,
        "only CBV_SRV_UAV and SAMPLER heaps can be SHADER_VISIBLE",
    );
    /// NumDescriptors is 0 (native UNSPECIFIED; REC E_INVALIDARG).
    pub const HEAP_EMPTY: Rule =
        error(D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_INVALID_DESC, "NumDescriptors must be at least 1");
    /// NodeMask names a node the adapter does not have.
    pub const HEAP_NODE_MASK: Rule =
        error(D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_INVALID_DESC, "NodeMask must be 0 or 1 (one node)");
    /// A shader-visible CBV_SRV_UAV heap holds at most 1,000,000 descriptors.
    pub const HEAP_TOO_MANY_VIEWS: Rule = error(
        D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_LARGE_NUM_DESCRIPTORS,
        "a shader-visible CBV_SRV_UAV heap holds at most 1000000 descriptors",
    );
    /// A shader-visible sampler heap holds at most 2048 descriptors.
    pub const HEAP_TOO_MANY_SAMPLERS: Rule = error(
        D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_LARGE_NUM_DESCRIPTORS,
        "a shader-visible SAMPLER heap holds at most 2048 descriptors",
    );

    // Handles.
    /// GetGPUDescriptorHandleForHeapStart on a heap that is not shader visible (returns 0).
    pub const GPU_HANDLE_NOT_VISIBLE: Rule = error(
        D3D12_MESSAGE_ID_DESCRIPTOR_HEAP_NOT_SHADER_VISIBLE,
        "GetGPUDescriptorHandleForHeapStart needs a SHADER_VISIBLE heap",
    );
    /// A destination handle that is not a descriptor of a live heap of the right type: nothing
    /// is written.
    pub const HANDLE_INVALID: Rule = error(
        D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE,
        "the CPU descriptor handle is not a descriptor of a live descriptor heap of this type",
    );

    // CopyDescriptors / CopyDescriptorsSimple.
    /// Source and destination totals differ, or a range leaves its heap: nothing is copied.
    pub const COPY_RANGES: Rule = error(
        D3D12_MESSAGE_ID_COPY_DESCRIPTORS_INVALID_RANGES,
        "the destination and source ranges must hold the same number of descriptors, inside heaps of the given type",
    );
    /// A source in a shader-visible heap (write-combined on GPUs): still copied here.
    pub const COPY_SOURCE_VISIBLE: Rule = error(
        D3D12_MESSAGE_ID_COPY_DESCRIPTORS_WRITE_ONLY_DESCRIPTOR,
        "descriptors are copied from non-shader-visible heaps only",
    );

    // CreateConstantBufferView.
    /// BufferLocation is not 256-byte aligned.
    pub const CBV_ALIGNMENT: Rule = error(
        D3D12_MESSAGE_ID_CREATE_CONSTANT_BUFFER_VIEW_INVALID_DESC,
        "BufferLocation must be a multiple of 256 (D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT)",
    );
    /// SizeInBytes is 0, not a multiple of 256 or above 65536.
    pub const CBV_SIZE: Rule = error(
        D3D12_MESSAGE_ID_CREATE_CONSTANT_BUFFER_VIEW_INVALID_DESC,
        "SizeInBytes must be a non-zero multiple of 256 of at most 65536",
    );

    // Views: shared by SRV, UAV, RTV and DSV; each view type has its own IDs (see ViewIds).
    /// Both pResource and pDesc are NULL.
    pub const NO_RESOURCE_NO_DESC: &str = "a null descriptor needs a desc (pResource and pDesc are both NULL)";
    /// The resource lacks the usage flag the view needs.
    pub const USAGE_FLAG: &str = "the resource was not created with the flag this view needs";
    /// A NULL desc is not possible for this resource.
    pub const NO_DEFAULT: &str =
        "a NULL desc needs a typed, single-plane texture (buffers, typeless and planar formats need a desc)";
    /// ViewDimension unknown, or it does not fit the resource.
    pub const DIMENSION: &str = "ViewDimension does not match the resource's dimension and sample count";
    /// The format is not a DXGI_FORMAT value.
    pub const FORMAT_UNKNOWN: &str = "unrecognized Format";
    /// Typeless, incompatible or unusable view format.
    pub const FORMAT: &str = "Format must be fully typed, castable from the resource's format and usable for this view";
    /// PlaneSlice does not name the plane of the format, or the resource has no such plane.
    pub const PLANE: &str = "PlaneSlice is not a plane of the resource that the view format reads";
    /// Mip or array range outside the resource, or a count of 0.
    pub const RANGE: &str = "the mip / array / element range is empty or does not lie inside the resource";
    /// Shader4ComponentMapping is not a valid mapping.
    pub const MAPPING: &str =
        "Shader4ComponentMapping needs the always-set bit 12 and components 0..=5 (bits above 12 clear)";
    /// Buffer view rules: flags, raw, structured, typed.
    pub const BUFFER: &str = "invalid buffer view: Flags must be NONE or RAW; RAW needs R32_TYPELESS and no stride; \
                              a stride needs Format UNKNOWN; a typed view needs a buffer format";
    /// ResourceMinLODClamp is negative or NaN.
    pub const MIN_LOD: &str = "ResourceMinLODClamp must be a number >= 0";
    /// Unsupported feature (raytracing acceleration structures, writable MSAA, sampler feedback).
    pub const UNSUPPORTED: &str = "the view needs a feature this device does not support";
    /// DSV flags unknown, or read-only stencil on a format without stencil.
    pub const DSV_FLAGS: &str = "Flags must be READ_ONLY_DEPTH / READ_ONLY_STENCIL, the latter on a stencil format";

    // UAV counters.
    /// Counter rules.
    pub const UAV_COUNTER: Rule = error(
        D3D12_MESSAGE_ID_CREATE_UNORDEREDACCESS_VIEW_INVALID_COUNTER_USAGE,
        "a counter needs a structured buffer UAV (stride > 0, Format UNKNOWN, no RAW), a buffer counter resource and a \
         CounterOffsetInBytes that is a multiple of 4 inside it; without a counter CounterOffsetInBytes must be 0",
    );
    /// Counter offsets should be multiples of D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT (4096) per
    /// D3D12_BUFFER_UAV; the method page says 4: accepted, reported as a warning.
    pub const UAV_COUNTER_ALIGNMENT: Rule = warning(
        D3D12_MESSAGE_ID_CREATE_UNORDEREDACCESS_VIEW_INVALID_COUNTER_USAGE,
        "CounterOffsetInBytes should be a multiple of 4096 (D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT)",
    );

    // Samplers.
    /// Unknown filter, address mode, comparison function, LOD or anisotropy values.
    pub const SAMPLER: Rule = error(
        D3D12_MESSAGE_ID_CREATE_SAMPLER_INVALID,
        "invalid sampler: known Filter and address modes, MaxAnisotropy 0..=16 for anisotropic filters, MipLODBias \
         in [-16, 15.99], a ComparisonFunc for comparison filters, MinLOD <= MaxLOD (no NaN), known Flags",
    );
    /// A comparison function given to a filter that does not compare.
    pub const SAMPLER_COMPARISON_IGNORED: Rule = warning(
        D3D12_MESSAGE_ID_CREATE_SAMPLER_COMPARISON_FUNC_IGNORED,
        "ComparisonFunc is ignored: the filter is not a comparison filter",
    );
    /// Sampler feedback is not supported (OPTIONS7.SamplerFeedbackTier 0).
    pub const SAMPLER_FEEDBACK: Rule = error(
        D3D12_MESSAGE_ID_SAMPLER_FEEDBACK_UAV_REQUIRES_SAMPLER_FEEDBACK_CAPABILITY,
        "sampler feedback is not supported on this device",
    );
}

/// The message IDs of one view type (CreateShaderResourceView, …).
#[derive(Debug, Clone, Copy)]
struct ViewIds {
    desc: sys::D3D12_MESSAGE_ID,
    resource: sys::D3D12_MESSAGE_ID,
    format: sys::D3D12_MESSAGE_ID,
    unrecognized: sys::D3D12_MESSAGE_ID,
    dimensions: sys::D3D12_MESSAGE_ID,
    plane: sys::D3D12_MESSAGE_ID,
    video_plane: sys::D3D12_MESSAGE_ID,
    flags: sys::D3D12_MESSAGE_ID,
}

const SRV_IDS: ViewIds = ViewIds {
    desc: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDDESC,
    resource: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDRESOURCE,
    format: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDFORMAT,
    unrecognized: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_UNRECOGNIZEDFORMAT,
    dimensions: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDDIMENSIONS,
    plane: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDPLANESLICE,
    video_plane: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDVIDEOPLANESLICE,
    flags: sys::D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDDESC,
};
const UAV_IDS: ViewIds = ViewIds {
    desc: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDDESC,
    resource: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDRESOURCE,
    format: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDFORMAT,
    unrecognized: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_UNRECOGNIZEDFORMAT,
    dimensions: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDDIMENSIONS,
    plane: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDPLANESLICE,
    video_plane: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDVIDEOPLANESLICE,
    flags: sys::D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDFLAGS,
};
const RTV_IDS: ViewIds = ViewIds {
    desc: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDDESC,
    resource: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDRESOURCE,
    format: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDFORMAT,
    unrecognized: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_UNRECOGNIZEDFORMAT,
    dimensions: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDDIMENSIONS,
    plane: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDPLANESLICE,
    video_plane: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDVIDEOPLANESLICE,
    flags: sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDDESC,
};
const DSV_IDS: ViewIds = ViewIds {
    desc: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDDESC,
    resource: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDRESOURCE,
    format: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFORMAT,
    unrecognized: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_UNRECOGNIZEDFORMAT,
    dimensions: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDDIMENSIONS,
    plane: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDDESC,
    video_plane: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDDESC,
    flags: sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFLAGS,
};

impl ViewIds {
    fn desc(&self, text: &'static str) -> Rule {
        error(self.desc, text)
    }
    fn resource(&self, text: &'static str) -> Rule {
        error(self.resource, text)
    }
    fn format(&self) -> Rule {
        error(self.format, rules::FORMAT)
    }
    fn unrecognized(&self) -> Rule {
        error(self.unrecognized, rules::FORMAT_UNKNOWN)
    }
    fn range(&self) -> Rule {
        error(self.dimensions, rules::RANGE)
    }
    fn plane(&self) -> Rule {
        error(self.plane, rules::PLANE)
    }
    fn video_plane(&self) -> Rule {
        error(self.video_plane, rules::PLANE)
    }
    fn flags(&self, text: &'static str) -> Rule {
        error(self.flags, text)
    }
}

// ---- descriptor heaps -----------------------------------------------------------------------

/// CreateDescriptorHeap's desc rules (§2). Returns the desc GetDesc reports (NodeMask 0 → 1).
pub fn validate_heap_desc(d: &D3D12_DESCRIPTOR_HEAP_DESC) -> Result<D3D12_DESCRIPTOR_HEAP_DESC, Rule> {
    use sys::*;
    if d.Type.0 >= D3D12_DESCRIPTOR_HEAP_TYPE_NUM_TYPES.0 {
        return Err(rules::HEAP_TYPE);
    }
    if d.Flags.0 & !D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE.0 != 0 {
        return Err(rules::HEAP_FLAGS);
    }
    let visible = d.Flags.0 & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE.0 != 0;
    if visible && (d.Type == D3D12_DESCRIPTOR_HEAP_TYPE_RTV || d.Type == D3D12_DESCRIPTOR_HEAP_TYPE_DSV) {
        return Err(rules::HEAP_VISIBLE_TYPE);
    }
    if d.NumDescriptors == 0 {
        return Err(rules::HEAP_EMPTY);
    }
    if d.NodeMask > 1 {
        return Err(rules::HEAP_NODE_MASK);
    }
    if visible {
        if d.Type == D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV
            && d.NumDescriptors > D3D12_MAX_SHADER_VISIBLE_DESCRIPTOR_HEAP_SIZE_TIER_2
        {
            return Err(rules::HEAP_TOO_MANY_VIEWS);
        }
        if d.Type == D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER && d.NumDescriptors > D3D12_MAX_SHADER_VISIBLE_SAMPLER_HEAP_SIZE
        {
            return Err(rules::HEAP_TOO_MANY_SAMPLERS);
        }
    }
    Ok(D3D12_DESCRIPTOR_HEAP_DESC { NodeMask: 1, ..*d })
}

// ---- the descriptor record ------------------------------------------------------------------

/// What a descriptor holds.
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Kind(pub u8);

impl Kind {
    /// Never written (fresh heap memory is zero): reads as a null descriptor.
    pub const EMPTY: Kind = Kind(0);
    /// Constant buffer view.
    pub const CBV: Kind = Kind(1);
    /// Shader resource view.
    pub const SRV: Kind = Kind(2);
    /// Unordered access view.
    pub const UAV: Kind = Kind(3);
    /// Render target view.
    pub const RTV: Kind = Kind(4);
    /// Depth stencil view.
    pub const DSV: Kind = Kind(5);
    /// Sampler.
    pub const SAMPLER: Kind = Kind(6);

    /// The descriptor heap type that holds descriptors of this kind.
    pub const fn heap_type(self) -> Option<u32> {
        match self.0 {
            1..=3 => Some(sys::D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV.0),
            4 => Some(sys::D3D12_DESCRIPTOR_HEAP_TYPE_RTV.0),
            5 => Some(sys::D3D12_DESCRIPTOR_HEAP_TYPE_DSV.0),
            6 => Some(sys::D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER.0),
            _ => None,
        }
    }
}

/// One descriptor as it lies in descriptor heap memory: 64 bytes of integers.
///
/// The header says what the descriptor is; `words` hold the kind's payload, read through the
/// accessors ([`Descriptor::texture`], [`Descriptor::buffer`], [`Descriptor::cbv`],
/// [`Descriptor::counter`], [`Descriptor::sampler`], [`Descriptor::component_mapping`]).
/// A *null* descriptor (null resource, invalid desc) is the kind with everything else zero.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Descriptor {
    /// What the descriptor is.
    pub kind: Kind,
    /// The view dimension, as the kind's D3D12_{SRV,UAV,RTV,DSV}_DIMENSION value (0 for CBVs
    /// and samplers).
    pub dimension: u8,
    /// The plane the view reads or writes (PlaneSlice; 1 for stencil-only views of D24S8/D32S8).
    pub plane: u8,
    /// D3D12_BUFFER_SRV/UAV_FLAGS (buffer views), D3D12_DSV_FLAGS (DSVs) or D3D12_SAMPLER_FLAGS.
    pub flags: u8,
    /// The view format (resolved: never UNKNOWN for typed views; R32_TYPELESS for raw buffers;
    /// UNKNOWN for structured buffers, CBVs and samplers).
    pub format: DXGI_FORMAT,
    /// The runtime's id of the viewed resource; 0 for none (null views, CBVs, samplers).
    pub resource: u64,
    /// The payload.
    pub words: [u32; 12],
}

const _: () = assert!(core::mem::size_of::<Descriptor>() == DESCRIPTOR_SIZE as usize);

/// The mips and array slices a texture view covers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TextureRange {
    /// MostDetailedMip / MipSlice.
    pub first_mip: u32,
    /// Mips in the view (resolved; 1 for UAV/RTV/DSV).
    pub mip_levels: u32,
    /// First array slice (First2DArrayFace for cube arrays; FirstWSlice for 3D RTV/UAV).
    pub first_slice: u32,
    /// Array slices in the view (resolved; 6 × NumCubes for cube arrays; WSize for 3D
    /// RTV/UAV; the depth for 3D SRVs).
    pub array_size: u32,
    /// ResourceMinLODClamp (SRVs; 0 otherwise).
    pub min_lod: f32,
}

/// The elements a buffer view covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BufferRange {
    /// FirstElement.
    pub first_element: u64,
    /// NumElements.
    pub num_elements: u32,
    /// Bytes per element: StructureByteStride, 4 for raw views, the format's size for typed
    /// views.
    pub stride: u32,
}

/// A sampler's state (D3D12_SAMPLER_DESC2 fields; enum values as u32, floats as f32).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SamplerState {
    /// D3D12_FILTER.
    pub filter: u32,
    /// D3D12_TEXTURE_ADDRESS_MODE of u, v, w.
    pub address: [u32; 3],
    /// MipLODBias.
    pub mip_lod_bias: f32,
    /// MaxAnisotropy.
    pub max_anisotropy: u32,
    /// D3D12_COMPARISON_FUNC (0 when the filter does not compare).
    pub comparison_func: u32,
    /// Border colour bits: floats, or integers with D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.
    pub border: [u32; 4],
    /// MinLOD.
    pub min_lod: f32,
    /// MaxLOD.
    pub max_lod: f32,
    /// D3D12_SAMPLER_FLAGS.
    pub flags: u32,
}

impl Descriptor {
    /// Fresh heap memory: nothing written.
    pub const EMPTY: Descriptor = Descriptor {
        kind: Kind::EMPTY,
        dimension: 0,
        plane: 0,
        flags: 0,
        format: DXGI_FORMAT(0),
        resource: 0,
        words: [0; 12],
    };

    /// The null descriptor of a kind: reads return 0, writes are dropped.
    pub const fn null(kind: Kind) -> Descriptor {
        Descriptor { kind, ..Descriptor::EMPTY }
    }

    /// Whether the descriptor is null: never written, a null view, a null CBV (address 0) or
    /// an invalid sampler.
    pub fn is_null(&self) -> bool {
        match self.kind {
            Kind::CBV => self.cbv().0 == 0,
            Kind::SAMPLER => self.words[1] == 0,
            Kind::SRV | Kind::UAV | Kind::RTV | Kind::DSV => self.resource == 0,
            _ => true,
        }
    }

    /// Whether a SRV / UAV / RTV views a buffer (dimension BUFFER).
    pub fn is_buffer_view(&self) -> bool {
        matches!(self.kind, Kind::SRV | Kind::UAV | Kind::RTV) && self.dimension == 1
    }

    /// The texture range of a texture view.
    pub fn texture(&self) -> TextureRange {
        let w = &self.words;
        TextureRange {
            first_mip: w[0],
            mip_levels: w[1],
            first_slice: w[2],
            array_size: w[3],
            min_lod: f32::from_bits(w[4]),
        }
    }

    /// The element range of a buffer view.
    pub fn buffer(&self) -> BufferRange {
        let w = &self.words;
        BufferRange { first_element: w[0] as u64 | (w[1] as u64) << 32, num_elements: w[2], stride: w[3] }
    }

    /// A CBV's BufferLocation and SizeInBytes.
    pub fn cbv(&self) -> (u64, u32) {
        (self.words[0] as u64 | (self.words[1] as u64) << 32, self.words[2])
    }

    /// Shader4ComponentMapping of a SRV.
    pub fn component_mapping(&self) -> u32 {
        self.words[5]
    }

    /// A UAV's counter: the counter resource's id and CounterOffsetInBytes.
    pub fn counter(&self) -> Option<(u64, u64)> {
        let w = &self.words;
        let id = w[6] as u64 | (w[7] as u64) << 32;
        (self.kind == Kind::UAV && id != 0).then(|| (id, w[8] as u64 | (w[9] as u64) << 32))
    }

    /// A sampler's state (None for other kinds and null samplers).
    pub fn sampler(&self) -> Option<SamplerState> {
        if self.kind != Kind::SAMPLER || self.is_null() {
            return None;
        }
        let w = &self.words;
        Some(SamplerState {
            filter: w[0],
            address: [w[1] & 0xff, (w[1] >> 8) & 0xff, (w[1] >> 16) & 0xff],
            comparison_func: w[1] >> 24,
            mip_lod_bias: f32::from_bits(w[2]),
            max_anisotropy: w[3],
            border: [w[4], w[5], w[6], w[7]],
            min_lod: f32::from_bits(w[8]),
            max_lod: f32::from_bits(w[9]),
            flags: self.flags as u32,
        })
    }

    fn set_texture(&mut self, r: TextureRange) {
        self.words[0] = r.first_mip;
        self.words[1] = r.mip_levels;
        self.words[2] = r.first_slice;
        self.words[3] = r.array_size;
        self.words[4] = r.min_lod.to_bits();
    }

    fn set_buffer(&mut self, r: BufferRange) {
        self.words[0] = r.first_element as u32;
        self.words[1] = (r.first_element >> 32) as u32;
        self.words[2] = r.num_elements;
        self.words[3] = r.stride;
    }

    fn set_counter(&mut self, id: u64, offset: u64) {
        self.words[6] = id as u32;
        self.words[7] = (id >> 32) as u32;
        self.words[8] = offset as u32;
        self.words[9] = (offset >> 32) as u32;
    }
}

// ---- view descs -----------------------------------------------------------------------------

/// A view desc of any type, its union member decoded (the runtime reads the member the
/// dimension selects; fields a dimension does not have stay 0).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ViewDesc {
    /// DXGI_FORMAT.
    pub format: u32,
    /// The view type's D3D12_*_DIMENSION value.
    pub dimension: u32,
    /// Shader4ComponentMapping (SRVs).
    pub mapping: u32,
    /// D3D12_BUFFER_SRV/UAV_FLAGS (buffers) or D3D12_DSV_FLAGS.
    pub flags: u32,
    /// Buffer FirstElement.
    pub first_element: u64,
    /// Buffer NumElements.
    pub num_elements: u32,
    /// Buffer StructureByteStride.
    pub stride: u32,
    /// UAV buffer CounterOffsetInBytes.
    pub counter_offset: u64,
    /// MostDetailedMip (SRV) or MipSlice.
    pub mip: u32,
    /// MipLevels (SRV; u32::MAX = all from `mip`).
    pub mip_levels: u32,
    /// FirstArraySlice, First2DArrayFace (cube arrays) or FirstWSlice (3D RTV/UAV).
    pub first_slice: u32,
    /// ArraySize, NumCubes (cube arrays) or WSize (3D RTV/UAV); u32::MAX = all.
    pub array_size: u32,
    /// PlaneSlice (2D and 2D array views of SRV, UAV, RTV).
    pub plane: u32,
    /// ResourceMinLODClamp (SRV).
    pub min_lod: f32,
}

/// The resource a view is created for.
#[derive(Debug, Clone, Copy)]
pub struct ViewResource<'a> {
    /// Its desc as GetDesc1 reports it (MipLevels expanded).
    pub desc: &'a D3D12_RESOURCE_DESC1,
    /// The runtime's id of the resource.
    pub id: u64,
}

/// Texture view shapes, shared by the four view types (whose dimension enums number them
/// differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Buffer,
    Tex1D,
    Tex1DArray,
    Tex2D,
    Tex2DArray,
    Tex2DMS,
    Tex2DMSArray,
    Tex3D,
    Cube,
    CubeArray,
}

impl Shape {
    /// SRV, UAV and RTV dimensions: BUFFER 1 … TEXTURE3D 8 (SRV adds cubes 9, 10).
    fn from_common(d: u32, cubes: bool) -> Option<Shape> {
        Some(match d {
            1 => Shape::Buffer,
            2 => Shape::Tex1D,
            3 => Shape::Tex1DArray,
            4 => Shape::Tex2D,
            5 => Shape::Tex2DArray,
            6 => Shape::Tex2DMS,
            7 => Shape::Tex2DMSArray,
            8 => Shape::Tex3D,
            9 if cubes => Shape::Cube,
            10 if cubes => Shape::CubeArray,
            _ => return None,
        })
    }

    fn from_dsv(d: u32) -> Option<Shape> {
        Some(match d {
            1 => Shape::Tex1D,
            2 => Shape::Tex1DArray,
            3 => Shape::Tex2D,
            4 => Shape::Tex2DArray,
            5 => Shape::Tex2DMS,
            6 => Shape::Tex2DMSArray,
            _ => return None,
        })
    }

    /// The dimension value of the shape for a view kind.
    fn value(self, kind: Kind) -> u8 {
        if kind == Kind::DSV {
            return match self {
                Shape::Tex1D => 1,
                Shape::Tex1DArray => 2,
                Shape::Tex2D => 3,
                Shape::Tex2DArray => 4,
                Shape::Tex2DMS => 5,
                Shape::Tex2DMSArray => 6,
                // No other shape reaches a DSV (from_dsv, and no default 3D DSV).
                _ => 0,
            };
        }
        match self {
            Shape::Buffer => 1,
            Shape::Tex1D => 2,
            Shape::Tex1DArray => 3,
            Shape::Tex2D => 4,
            Shape::Tex2DArray => 5,
            Shape::Tex2DMS => 6,
            Shape::Tex2DMSArray => 7,
            Shape::Tex3D => 8,
            Shape::Cube => 9,
            Shape::CubeArray => 10,
        }
    }

    fn resource_dimension(self) -> u32 {
        match self {
            Shape::Buffer => sys::D3D12_RESOURCE_DIMENSION_BUFFER.0,
            Shape::Tex1D | Shape::Tex1DArray => sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D.0,
            Shape::Tex3D => sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D.0,
            _ => sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D.0,
        }
    }

    fn multisampled(self) -> bool {
        matches!(self, Shape::Tex2DMS | Shape::Tex2DMSArray)
    }

    /// Whether the view desc has a PlaneSlice field.
    fn has_plane(self, kind: Kind) -> bool {
        kind != Kind::DSV && matches!(self, Shape::Tex2D | Shape::Tex2DArray)
    }

    /// The dimension a NULL desc infers (§5.1): arrays when ArraySize > 1, MS when sampled
    /// more than once; never cubes.
    fn infer(d: &D3D12_RESOURCE_DESC1) -> Option<Shape> {
        let array = d.DepthOrArraySize > 1;
        Some(match d.Dimension {
            sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D if array => Shape::Tex1DArray,
            sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D => Shape::Tex1D,
            sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D => match (d.SampleDesc.Count > 1, array) {
                (true, true) => Shape::Tex2DMSArray,
                (true, false) => Shape::Tex2DMS,
                (false, true) => Shape::Tex2DArray,
                (false, false) => Shape::Tex2D,
            },
            sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D => Shape::Tex3D,
            _ => return None,
        })
    }

    /// The capability bit a texture format needs for this shape.
    fn texture_bit(self) -> u32 {
        match self {
            Shape::Buffer => s1::BUFFER,
            Shape::Tex1D | Shape::Tex1DArray => s1::TEXTURE1D,
            Shape::Tex3D => s1::TEXTURE3D,
            Shape::Cube | Shape::CubeArray => s1::TEXTURECUBE,
            _ => s1::TEXTURE2D,
        }
    }
}

fn has_flag(d: &D3D12_RESOURCE_DESC1, flag: sys::D3D12_RESOURCE_FLAGS) -> bool {
    d.Flags.0 & flag.0 != 0
}

/// Shader4ComponentMapping: four 3-bit fields of 0..=5, bit 12 set, nothing above.
pub fn valid_component_mapping(m: u32) -> bool {
    if m & !0x1fff != 0 || m & sys::D3D12_SHADER_COMPONENT_MAPPING_ALWAYS_SET_BIT_AVOIDING_ZEROMEM_MISTAKES == 0 {
        return false;
    }
    (0..4).all(|i| (m >> (3 * i)) & 7 <= 5)
}

/// The view format of a texture view and the plane it reads: `format` 0 inherits the
/// resource's format; the view format must be fully typed, in the resource's (or the plane's)
/// cast group, and have the capability `need` (plus the shape's texture bit).
fn texture_format(
    ids: &ViewIds,
    format: u32,
    res: &D3D12_RESOURCE_DESC1,
    desc_plane: Option<u32>,
    need: u32,
    shape: Shape,
) -> Result<(&'static FormatInfo, u8), Rule> {
    let rf = format::info(res.Format).ok_or_else(|| ids.format())?;
    let f = if format == 0 { res.Format } else { DXGI_FORMAT(format) };
    let fi = format::info(f).filter(|i| !i.has(FormatFlags::NOT_D3D12)).ok_or_else(|| ids.unrecognized())?;
    if fi.is_typeless() || f.0 == 0 {
        return Err(ids.format());
    }
    let plane = if rf.plane_count > 1 && rf.is_depth_stencil() {
        // D24S8 / D32S8 families: the format picks the plane (R24_UNORM_X8 depth, X24_G8 stencil).
        if fi.cast_group != rf.cast_group {
            return Err(ids.format());
        }
        let plane = (fi.has(FormatFlags::STENCIL) && !fi.has(FormatFlags::DEPTH)) as u32;
        if desc_plane.is_some_and(|p| p != plane) {
            return Err(ids.plane());
        }
        plane
    } else if rf.plane_count > 1 {
        // Video planar formats: PlaneSlice picks the plane, the format must fit that plane.
        let p = desc_plane.unwrap_or(0);
        let pl = rf.plane(p).ok_or_else(|| ids.video_plane())?;
        let pf = format::info(pl.format).ok_or_else(|| ids.format())?;
        if pf.cast_group != fi.cast_group {
            return Err(ids.format());
        }
        p
    } else {
        if fi.cast_group != rf.cast_group
            && !(need & s1::TYPED_UNORDERED_ACCESS_VIEW != 0 && r32_uav_cast(res.Format, f))
        {
            return Err(ids.format());
        }
        if desc_plane.is_some_and(|p| p != 0) {
            return Err(ids.plane());
        }
        0
    };
    let need = need | shape.texture_bit();
    if fi.class_support1 & need != need {
        return Err(ids.format());
    }
    Ok((fi, plane as u8))
}

/// The one cast across format families a view may make: a texture UAV of
/// R32_FLOAT, R32_UINT or R32_SINT over a resource created with one of the 32-bit typeless
/// formats whose elements are several components, which a shader then reads and writes as
/// whole 32-bit words (the D3D11 way to load any 32-bit format through the three formats
/// every device can load from a UAV, kept by D3D12; Microsoft's OpenGL-on-D3D12 driver binds
/// GL image views of another format this way).
fn r32_uav_cast(resource: DXGI_FORMAT, view: DXGI_FORMAT) -> bool {
    use sys::*;
    matches!(view, DXGI_FORMAT_R32_FLOAT | DXGI_FORMAT_R32_UINT | DXGI_FORMAT_R32_SINT)
        && matches!(
            resource,
            DXGI_FORMAT_R8G8B8A8_TYPELESS
                | DXGI_FORMAT_B8G8R8A8_TYPELESS
                | DXGI_FORMAT_B8G8R8X8_TYPELESS
                | DXGI_FORMAT_R16G16_TYPELESS
                | DXGI_FORMAT_R10G10B10A2_TYPELESS
        )
}

/// Resolves `first + count` (count u32::MAX = all from `first`) inside `0..total`.
fn sub_range(first: u32, count: u32, total: u32) -> Option<(u32, u32)> {
    if first >= total {
        return None;
    }
    let n = if count == u32::MAX { total - first } else { count };
    (n >= 1 && n <= total - first).then_some((first, n))
}

/// The mips and slices of a texture view (`srv`: MipLevels and cube shapes apply).
fn texture_range(
    ids: &ViewIds,
    v: &ViewDesc,
    res: &D3D12_RESOURCE_DESC1,
    shape: Shape,
    srv: bool,
) -> Result<TextureRange, Rule> {
    let mips = res.MipLevels.max(1) as u32;
    let layers = res.DepthOrArraySize.max(1) as u32;
    let bad = || ids.range();
    let ms = shape.multisampled();
    let first_mip = if ms { 0 } else { v.mip };
    let (first_mip, mip_levels) = if srv && !ms {
        sub_range(first_mip, v.mip_levels, mips).ok_or_else(bad)?
    } else if first_mip < mips {
        (first_mip, 1)
    } else {
        return Err(bad());
    };
    let (first_slice, array_size) = match shape {
        Shape::Buffer | Shape::Tex1D | Shape::Tex2D | Shape::Tex2DMS => (0, 1),
        Shape::Tex1DArray | Shape::Tex2DArray | Shape::Tex2DMSArray => {
            sub_range(v.first_slice, v.array_size, layers).ok_or_else(bad)?
        }
        Shape::Cube if layers >= 6 => (0, 6),
        Shape::Cube => return Err(bad()),
        Shape::CubeArray => {
            let first = v.first_slice;
            let room = layers.checked_sub(first).ok_or_else(bad)? / 6;
            let cubes = if v.array_size == u32::MAX { room } else { v.array_size };
            if cubes == 0 || cubes > room {
                return Err(bad());
            }
            (first, cubes * 6)
        }
        Shape::Tex3D if srv => (0, layers),
        Shape::Tex3D => sub_range(v.first_slice, v.array_size, (layers >> first_mip).max(1)).ok_or_else(bad)?,
    };
    let min_lod = if srv { v.min_lod } else { 0.0 };
    if min_lod.is_nan() || min_lod < 0.0 {
        return Err(ids.desc(rules::MIN_LOD));
    }
    Ok(TextureRange { first_mip, mip_levels, first_slice, array_size, min_lod })
}

/// A buffer view's format, flags and element range (SRV, UAV, RTV).
fn buffer_view(
    ids: &ViewIds,
    kind: Kind,
    v: &ViewDesc,
    res: &D3D12_RESOURCE_DESC1,
) -> Result<(DXGI_FORMAT, u8, BufferRange), Rule> {
    const RAW: u32 = 1;
    let flags = if kind == Kind::RTV { 0 } else { v.flags };
    if flags & !RAW != 0 {
        return Err(ids.flags(rules::BUFFER));
    }
    let (format, stride) = if flags & RAW != 0 {
        if v.format != sys::DXGI_FORMAT_R32_TYPELESS.0 {
            return Err(ids.format());
        }
        if v.stride != 0 {
            return Err(ids.desc(rules::BUFFER));
        }
        (v.format, 4)
    } else if v.stride > 0 && kind != Kind::RTV {
        if v.format != 0 {
            return Err(ids.format());
        }
        (0, v.stride)
    } else {
        let fi = format::info(DXGI_FORMAT(v.format))
            .filter(|i| !i.has(FormatFlags::NOT_D3D12))
            .ok_or_else(|| ids.unrecognized())?;
        let need = match kind {
            Kind::UAV => s1::BUFFER | s1::TYPED_UNORDERED_ACCESS_VIEW,
            Kind::RTV => s1::RENDER_TARGET,
            _ => s1::BUFFER,
        };
        if v.format == 0 || fi.is_typeless() || fi.class_support1 & need != need || fi.bits_per_element % 8 != 0 {
            return Err(ids.format());
        }
        (v.format, fi.bytes_per_element())
    };
    let end = (v.first_element as u128 + v.num_elements as u128) * stride as u128;
    if v.num_elements == 0 || end > res.Width as u128 {
        return Err(ids.range());
    }
    let range = BufferRange { first_element: v.first_element, num_elements: v.num_elements, stride };
    Ok((DXGI_FORMAT(format), flags as u8, range))
}

/// What a texture view needs of its format, per kind and shape.
fn capability(kind: Kind, shape: Shape) -> u32 {
    match kind {
        Kind::SRV if shape.multisampled() => s1::MULTISAMPLE_LOAD,
        Kind::SRV => s1::SHADER_LOAD,
        Kind::UAV => s1::TYPED_UNORDERED_ACCESS_VIEW,
        Kind::RTV if shape.multisampled() => s1::MULTISAMPLE_RENDERTARGET,
        Kind::RTV => s1::RENDER_TARGET,
        _ => s1::DEPTH_STENCIL,
    }
}

/// The common path of SRV / UAV / RTV / DSV creation: null resources, NULL descs (default
/// views), dimension, format, plane and ranges. UAV counters and DSV flags are left to the
/// callers.
fn view(kind: Kind, ids: &ViewIds, desc: Option<&ViewDesc>, res: Option<ViewResource<'_>>) -> Result<Descriptor, Rule> {
    let (usage, deny) = match kind {
        Kind::SRV => (None, Some(sys::D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE)),
        Kind::UAV => (Some(sys::D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS), None),
        Kind::RTV => (Some(sys::D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET), None),
        _ => (Some(sys::D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL), None),
    };
    let shape_of =
        |d: u32| if kind == Kind::DSV { Shape::from_dsv(d) } else { Shape::from_common(d, kind == Kind::SRV) };
    let Some(r) = res else {
        // A null descriptor: the desc is mandatory and names a known dimension.
        let v = desc.ok_or_else(|| ids.desc(rules::NO_RESOURCE_NO_DESC))?;
        if shape_of(v.dimension).is_none() {
            return Err(ids.desc(rules::DIMENSION));
        }
        if kind == Kind::SRV && !valid_component_mapping(v.mapping) {
            return Err(ids.desc(rules::MAPPING));
        }
        return Ok(Descriptor::null(kind));
    };
    let rd = r.desc;
    if usage.is_some_and(|f| !has_flag(rd, f)) || deny.is_some_and(|f| has_flag(rd, f)) {
        return Err(ids.resource(rules::USAGE_FLAG));
    }
    let default;
    let (v, shape) = match desc {
        Some(v) => (v, shape_of(v.dimension).ok_or_else(|| ids.desc(rules::DIMENSION))?),
        None => {
            // Default view: planar (depth-stencil, video) resources need a desc for SRVs/UAVs.
            let shape = Shape::infer(rd).ok_or_else(|| ids.desc(rules::NO_DEFAULT))?;
            let planar = format::info(rd.Format).is_some_and(|i| i.plane_count > 1);
            // There are no 3D depth-stencil views.
            if (planar && kind != Kind::DSV) || (kind == Kind::DSV && shape == Shape::Tex3D) {
                return Err(ids.desc(rules::NO_DEFAULT));
            }
            default = ViewDesc {
                format: rd.Format.0,
                dimension: shape.value(kind) as u32,
                mapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
                mip_levels: u32::MAX,
                array_size: u32::MAX,
                ..ViewDesc::default()
            };
            (&default, shape)
        }
    };
    if shape.resource_dimension() != rd.Dimension.0 || shape.multisampled() != (rd.SampleDesc.Count > 1) {
        return Err(ids.desc(rules::DIMENSION));
    }
    if kind == Kind::UAV && shape.multisampled() {
        // OPTIONS14.WriteableMSAATexturesSupported is FALSE.
        return Err(ids.desc(rules::UNSUPPORTED));
    }
    if kind == Kind::SRV && !valid_component_mapping(v.mapping) {
        return Err(ids.desc(rules::MAPPING));
    }
    let mut d = Descriptor::null(kind);
    d.dimension = shape.value(kind);
    d.resource = r.id;
    if kind == Kind::SRV {
        d.words[5] = v.mapping;
    }
    if shape == Shape::Buffer {
        let (format, flags, range) = buffer_view(ids, kind, v, rd)?;
        d.format = format;
        d.flags = flags;
        d.set_buffer(range);
        return Ok(d);
    }
    let plane = shape.has_plane(kind).then_some(v.plane);
    let (fi, plane) = texture_format(ids, v.format, rd, plane, capability(kind, shape), shape)?;
    d.format = fi.format;
    d.plane = plane;
    d.set_texture(texture_range(ids, v, rd, shape, kind == Kind::SRV)?);
    Ok(d)
}

/// CreateShaderResourceView. RAYTRACING_ACCELERATION_STRUCTURE views are unsupported
/// (OPTIONS5.RaytracingTier NOT_SUPPORTED).
pub fn srv(desc: Option<&ViewDesc>, res: Option<ViewResource<'_>>) -> Result<Descriptor, Rule> {
    if desc.is_some_and(|v| v.dimension == sys::D3D12_SRV_DIMENSION_RAYTRACING_ACCELERATION_STRUCTURE.0) {
        return Err(SRV_IDS.desc(rules::UNSUPPORTED));
    }
    view(Kind::SRV, &SRV_IDS, desc, res)
}

/// CreateUnorderedAccessView, with its optional counter resource (§5.1 UAV counters).
pub fn uav(
    desc: Option<&ViewDesc>,
    res: Option<ViewResource<'_>>,
    counter: Option<ViewResource<'_>>,
) -> Result<Descriptor, Rule> {
    let buffer = desc.filter(|v| v.dimension == sys::D3D12_UAV_DIMENSION_BUFFER.0);
    match counter {
        Some(c) => {
            let v = buffer.filter(|_| res.is_some()).ok_or(rules::UAV_COUNTER)?;
            let counter_end = v.counter_offset.checked_add(4);
            let ok = v.stride > 0
                && v.format == 0
                && v.flags & 1 == 0
                && c.desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER
                && v.counter_offset % 4 == 0
                && counter_end.is_some_and(|e| e <= c.desc.Width);
            if !ok {
                return Err(rules::UAV_COUNTER);
            }
        }
        None if buffer.is_some_and(|v| v.counter_offset != 0) => return Err(rules::UAV_COUNTER),
        None => {}
    }
    let mut d = view(Kind::UAV, &UAV_IDS, desc, res)?;
    if let (Some(c), Some(v)) = (counter, buffer) {
        d.set_counter(c.id, v.counter_offset);
    }
    Ok(d)
}

/// The warning a valid UAV may still earn (counter offset not 4096-aligned).
pub fn uav_warning(desc: Option<&ViewDesc>, has_counter: bool) -> Option<Rule> {
    let v = desc?;
    (has_counter && v.counter_offset % sys::D3D12_UAV_COUNTER_PLACEMENT_ALIGNMENT as u64 != 0)
        .then_some(rules::UAV_COUNTER_ALIGNMENT)
}

/// CreateRenderTargetView.
pub fn rtv(desc: Option<&ViewDesc>, res: Option<ViewResource<'_>>) -> Result<Descriptor, Rule> {
    view(Kind::RTV, &RTV_IDS, desc, res)
}

/// CreateDepthStencilView: the common rules plus Flags (READ_ONLY_DEPTH 1, READ_ONLY_STENCIL 2,
/// the latter only on formats with stencil).
pub fn dsv(desc: Option<&ViewDesc>, res: Option<ViewResource<'_>>) -> Result<Descriptor, Rule> {
    let flags = desc.map_or(0, |v| v.flags);
    if flags & !3 != 0 {
        return Err(DSV_IDS.flags(rules::DSV_FLAGS));
    }
    let mut d = view(Kind::DSV, &DSV_IDS, desc, res)?;
    if !d.is_null() {
        let stencil = format::info(d.format).is_some_and(|i| i.has(FormatFlags::STENCIL));
        if flags & 2 != 0 && !stencil {
            return Err(DSV_IDS.flags(rules::DSV_FLAGS));
        }
        d.flags = flags as u8;
    }
    Ok(d)
}

/// CreateConstantBufferView: NULL desc or BufferLocation 0 make a null CBV; otherwise the
/// address is 256-byte aligned and the size a non-zero multiple of 256 up to 65536.
pub fn cbv(desc: Option<(u64, u32)>) -> Result<Descriptor, Rule> {
    let mut d = Descriptor::null(Kind::CBV);
    let Some((address, size)) = desc.filter(|&(a, _)| a != 0) else { return Ok(d) };
    let align = sys::D3D12_CONSTANT_BUFFER_DATA_PLACEMENT_ALIGNMENT;
    if address % align as u64 != 0 {
        return Err(rules::CBV_ALIGNMENT);
    }
    if size == 0 || size % align != 0 || size > sys::D3D12_REQ_CONSTANT_BUFFER_ELEMENT_COUNT * 16 {
        return Err(rules::CBV_SIZE);
    }
    d.words[0] = address as u32;
    d.words[1] = (address >> 32) as u32;
    d.words[2] = size;
    Ok(d)
}

/// D3D12_SAMPLER_DESC / D3D12_SAMPLER_DESC2 as plain fields.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct SamplerDesc {
    /// D3D12_FILTER.
    pub filter: u32,
    /// AddressU, AddressV, AddressW.
    pub address: [u32; 3],
    /// MipLODBias.
    pub mip_lod_bias: f32,
    /// MaxAnisotropy.
    pub max_anisotropy: u32,
    /// ComparisonFunc.
    pub comparison_func: u32,
    /// BorderColor bits (float or, with UINT_BORDER_COLOR, integer).
    pub border: [u32; 4],
    /// MinLOD.
    pub min_lod: f32,
    /// MaxLOD.
    pub max_lod: f32,
    /// D3D12_SAMPLER_FLAGS (0 for D3D12_SAMPLER_DESC).
    pub flags: u32,
}

/// A D3D12_FILTER of SDK 606: point/linear min, mag and mip (bits 4, 2, 0) or ANISOTROPIC
/// (0x55), COMPARISON_ANISOTROPIC included; reduction in bits 7–8. Returns (compares,
/// anisotropic).
fn filter_kind(filter: u32) -> Option<(bool, bool)> {
    let base = filter & 0x7f;
    let reduction = filter >> 7;
    let known = matches!(base, 0x00 | 0x01 | 0x04 | 0x05 | 0x10 | 0x11 | 0x14 | 0x15 | 0x55);
    (known && reduction <= 3).then_some((reduction == 1, base == 0x55))
}

/// CreateSampler / CreateSampler2.
pub fn sampler(s: &SamplerDesc) -> Result<Descriptor, Rule> {
    let bad = Err(rules::SAMPLER);
    let Some((compares, anisotropic)) = filter_kind(s.filter) else { return bad };
    let address_ok =
        |m: u32| (sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP.0..=sys::D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE.0).contains(&m);
    if !s.address.iter().all(|&m| address_ok(m)) {
        return bad;
    }
    // 0 is accepted as well, as for root-signature static samplers: Microsoft's own OpenGL-on-12
    // driver (Mesa d3d12) creates its null sampler as ANISOTROPIC with MaxAnisotropy 0 and runs
    // under the debug layer; a sampler then filters as with 1.
    if anisotropic && s.max_anisotropy > sys::D3D12_MAX_MAXANISOTROPY {
        return bad;
    }
    let (lo, hi) = (sys::D3D12_MIP_LOD_BIAS_MIN as f32, sys::D3D12_MIP_LOD_BIAS_MAX as f32);
    if !(lo..=hi).contains(&s.mip_lod_bias) {
        return bad;
    }
    let func_ok =
        (sys::D3D12_COMPARISON_FUNC_NEVER.0..=sys::D3D12_COMPARISON_FUNC_ALWAYS.0).contains(&s.comparison_func);
    if compares && !func_ok {
        return bad;
    }
    if s.min_lod.is_nan() || s.max_lod.is_nan() || s.min_lod > s.max_lod {
        return bad;
    }
    if s.flags & !sys::D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0 != 0 {
        return bad;
    }
    let mut d = Descriptor::null(Kind::SAMPLER);
    d.flags = s.flags as u8;
    let func = if compares { s.comparison_func } else { 0 };
    d.words[0] = s.filter;
    d.words[1] = s.address[0] | s.address[1] << 8 | s.address[2] << 16 | func << 24;
    d.words[2] = s.mip_lod_bias.to_bits();
    d.words[3] = if anisotropic { s.max_anisotropy } else { s.max_anisotropy.min(sys::D3D12_MAX_MAXANISOTROPY) };
    d.words[4..8].copy_from_slice(&s.border);
    d.words[8] = s.min_lod.to_bits();
    d.words[9] = s.max_lod.to_bits();
    Ok(d)
}

/// The warning a valid sampler may still earn (a comparison function on a non-comparison
/// filter).
pub fn sampler_warning(s: &SamplerDesc) -> Option<Rule> {
    let (compares, _) = filter_kind(s.filter)?;
    (!compares && s.comparison_func != 0).then_some(rules::SAMPLER_COMPARISON_IGNORED)
}

// ---- copies ---------------------------------------------------------------------------------

/// CopyDescriptors' range walk: destination and source ranges as (start address, count of
/// descriptors `unit` bytes apart); calls `copy(dst, src, n)` for each run of `n` descriptors
/// where both sides are contiguous, in order. Totals must match ([`rules::COPY_RANGES`]);
/// nothing is called otherwise.
pub fn copy_runs(
    dst: &[(usize, u32)],
    src: &[(usize, u32)],
    unit: usize,
    mut copy: impl FnMut(usize, usize, u32),
) -> Result<(), Rule> {
    let total = |r: &[(usize, u32)]| r.iter().map(|&(_, n)| n as u64).sum::<u64>();
    if total(dst) != total(src) {
        return Err(rules::COPY_RANGES);
    }
    let (mut di, mut si) = (0, 0);
    let (mut d_done, mut s_done) = (0u32, 0u32);
    while di < dst.len() && si < src.len() {
        let (d0, dn) = dst[di];
        let (s0, sn) = src[si];
        let n = (dn - d_done).min(sn - s_done);
        if n > 0 {
            copy(d0 + d_done as usize * unit, s0 + s_done as usize * unit, n);
        }
        d_done += n;
        s_done += n;
        if d_done == dn {
            di += 1;
            d_done = 0;
        }
        if s_done == sn {
            si += 1;
            s_done = 0;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
