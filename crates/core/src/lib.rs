//! rd3d12-core: the pure rules of Direct3D 12 resources, with no FFI and no COM.
//!
//! * [`format`] — the DXGI format table, FORMAT_SUPPORT / FORMAT_INFO /
//!   MULTISAMPLE_QUALITY_LEVELS answers.
//! * [`caps`] — what the runtime has implemented (masks format support).
//! * [`desc`] — the D3D12_RESOURCE_DESC(1) validator.
//! * [`descriptor`] — descriptor heaps, the descriptor record, view and sampler validation.
//! * [`subresource`] — subresource numbering.
//! * [`footprint`] — GetCopyableFootprints.
//! * [`allocation`] — GetResourceAllocationInfo(1/2) and the CPU backend memory layout.
//! * [`tiling`] — tile shapes and GetResourceTiling.
//! * [`multisample`] — the standard sample patterns.
//! * [`states`] — resource states, barrier validation, promotion and decay.
//! * [`clear`] — which bytes Clear{RenderTarget,DepthStencil,UnorderedAccess}View write.
//! * [`copy`] — CopyBufferRegion / CopyTextureRegion / CopyResource validation and plans.
//! * [`dxbc`] — the DXBC container (shaders, root signatures) and its checksum.
//! * [`shader`] — compiled shader containers (DXBC / DXIL): stage, model, signatures.
//! * [`root_signature`] — root signature descs 1.0/1.1/1.2: validation, RTS0 blobs, conversion.
//! * [`pipeline`] — pipeline state descriptions and streams: validation, cached blobs, libraries.
//! * [`indirect`] — command signatures and ExecuteIndirect argument rules.
//! * [`info_queue`] — the debug layer's message queue: storage, filters, break-on, printed lines.
//! * [`error`] — HRESULT classes and debug-layer message IDs.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod adapter;
pub mod allocation;
pub mod caps;
pub mod clear;
pub mod copy;
pub mod desc;
pub mod descriptor;
pub mod dxbc;
pub mod error;
pub mod footprint;
pub mod format;
pub mod heap;
pub mod indirect;
pub mod info_queue;
pub mod multisample;
pub mod pack;
pub mod pipeline;
pub mod resolve;
pub mod root_signature;
pub mod shader;
pub mod states;
pub mod subresource;
pub mod tiling;

pub use allocation::{
    allocation_info_one, resource_allocation_info, resource_allocation_info2, subresource_layout,
    subresource_layout_full, SubresourceLayout,
};
pub use caps::Caps;
pub use copy::{
    copy_buffer_region, copy_resource, copy_texture_region, CopyPlan, Location, ResourceCopy, Side, Surface,
};
pub use desc::{validate_desc, validate_desc1, Api, ClearValue, DescError, Diag, ValidatedDesc};
pub use error::{msg, Hr, MessageId};
pub use footprint::{copyable_footprints, copyable_footprints_desc, SubresourceFootprint};
pub use format::{
    format_support, from_name, info, msaa_quality_levels, plane_count, FormatFlags, FormatInfo, FormatSupportError,
    MsaaError, PlaneInfo, DXGI_FORMAT_A4B4G4R4_UNORM,
};
pub use states::{
    decays, is_read_only, is_valid_state, is_write_state, validate_barrier_flags, validate_transition, HeapKind,
    ListStates, ListType, SubresourceEnd, Violation,
};
pub use subresource::{calc_subresource, decompose_subresource, subresource_count, Subresource};
pub use tiling::{resource_tiling, tile_shape_4k, tile_shape_64k, ResourceTiling};
