//! GetResourceAllocationInfo / GetResourceAllocationInfo1 / GetResourceAllocationInfo2
//! (resources.md §6–§8) and the CPU backend's resource memory layout.
//!
//! # Memory layout of the CPU backend (decision)
//!
//! * **Buffers** occupy `Width` bytes; their allocation size is `Width` rounded up to
//!   64 KB (native: a 32-byte buffer needs 65536).
//! * **Textures** store every subresource *tightly*: each subresource keeps the Format,
//!   Width, Height and Depth (block-aligned extents), NumRows and RowSizeInBytes of its
//!   copyable footprint, but its rows are contiguous (RowPitch = RowSizeInBytes, no
//!   padding) and its depth slices are RowPitch × NumRows apart. Every subresource starts
//!   at a 16-byte aligned offset ([`SUBRESOURCE_ALIGNMENT`]); subresources are in
//!   subresource order: mip fastest, then array slice, then plane. Planar formats (NV12
//!   etc.) and depth-stencil formats store one such subresource per plane, with the
//!   plane's footprint format and extents. [`subresource_layout`] gives the offset and
//!   (tight) footprint of one subresource in this layout.
//!
//!   Why tight and not the copyable footprint (256-byte row pitch, 512-aligned
//!   subresources): small textures then take exactly their texel bytes, like on Windows
//!   hardware. A 32×32 RGBA8 texture is 32 × 128 = 4096 bytes, so with Alignment 4096 it
//!   is {4096, 4096} (as Windows hardware reports) and a placed one takes 4 KB of its
//!   heap, not 64 KB (the default alignment) nor 8 KB (the copyable footprint layout's
//!   31 × 256 + 128 = 8064 bytes rounded up). The cost is that the layout no
//!   longer equals GetCopyableFootprints (which keeps Microsoft's 256/512 pitches and
//!   512-aligned offsets, see [`crate::footprint`]): CopyTextureRegion between a texture
//!   and a placed footprint is a row-wise memcpy between the two pitches, and a single
//!   memcpy when the footprint's pitch happens to equal the row size.
//! * **Multisampled textures** store `SampleDesc.Count` copies of the single-sample layout,
//!   sample-major: sample `s` of subresource `i` starts at
//!   `s × sample_stride + offset(i)` with `sample_stride` = the single-sample layout's
//!   bytes rounded up to 16 ([`msaa_sample_stride`]).
//! * The allocation size of a texture is that byte count rounded up to its placement
//!   alignment (4 KB, 64 KB or 4 MB, resources.md §6). For the 64KB_UNDEFINED_SWIZZLE /
//!   64KB_STANDARD_SWIZZLE layouts the size is additionally at least the resource's
//!   standard-tile count × 64 KB (GetResourceTiling), so tile mappings always fit.
//!
//! Invalid descs make SizeInBytes UINT64_MAX, with the alignment the desc would have had by
//! default (64 KB; 4 MB for multisampled textures).

use rd3d12_sys as sys;
use rd3d12_sys::{
    D3D12_RESOURCE_ALLOCATION_INFO, D3D12_RESOURCE_ALLOCATION_INFO1, D3D12_RESOURCE_DESC, D3D12_RESOURCE_DESC1,
    D3D12_SUBRESOURCE_FOOTPRINT,
};

use crate::caps::Caps;
use crate::desc::{self, Api, DescError};
use crate::footprint::{self, SubresourceFootprint};
use crate::format::{self, FormatInfo};
use crate::tiling;

/// Alignment of every texture subresource (and of the MSAA sample stride) in the backend
/// layout.
pub const SUBRESOURCE_ALIGNMENT: u64 = 16;

#[inline]
fn align_up(v: u64, a: u64) -> Option<u64> {
    debug_assert!(a.is_power_of_two());
    v.checked_add(a - 1).map(|x| x & !(a - 1))
}

/// One subresource of the backend layout.
#[derive(Clone, Copy, Debug)]
pub struct SubresourceLayout {
    /// Byte offset of the subresource from the start of the resource (sample 0).
    pub offset: u64,
    /// Footprint, row count and sizes.
    pub footprint: SubresourceFootprint,
}

struct Shape<'a> {
    info: &'a FormatInfo,
    mips: u32,
    array: u32,
    planes: u32,
}

fn shape(desc: &D3D12_RESOURCE_DESC1) -> Option<Shape<'static>> {
    let info = format::info(desc.Format)?;
    let mips = crate::subresource::mip_levels(desc);
    if mips == 0 {
        return None;
    }
    Some(Shape {
        info,
        mips,
        array: crate::subresource::array_size(desc).max(1),
        planes: info.plane_count.max(1) as u32,
    })
}

/// Tight footprint of mip `mip`, plane `plane`: the copyable footprint's format, extents,
/// row count and row size, with RowPitch = row size and no padding between rows.
fn sub_fp(desc: &D3D12_RESOURCE_DESC1, info: &FormatInfo, mip: u32, plane: u32) -> Option<SubresourceFootprint> {
    let mut f = footprint::texture_subresource_footprint(
        info,
        desc.Dimension,
        desc.Width,
        desc.Height,
        desc.DepthOrArraySize as u32,
        mip,
        plane,
    )?;
    f.footprint.RowPitch = u32::try_from(f.row_size).ok()?;
    f.size = f.row_size.checked_mul(f.num_rows as u64)?.checked_mul(f.footprint.Depth as u64)?;
    Some(f)
}

/// Layout of one mip chain (one slice of one plane) starting at a 16-aligned offset:
/// returns (offset of `want_mip` within the chain, chain length).
fn chain(desc: &D3D12_RESOURCE_DESC1, s: &Shape<'_>, plane: u32, want_mip: u32) -> Option<(u64, u64)> {
    let mut running = 0u64;
    let mut want = 0u64;
    for m in 0..s.mips {
        running = align_up(running, SUBRESOURCE_ALIGNMENT)?;
        if m == want_mip {
            want = running;
        }
        running = running.checked_add(sub_fp(desc, s.info, m, plane)?.size)?;
    }
    Some((want, running))
}

/// Offset and tight footprint (RowPitch = row size) of `subresource` in the backend layout
/// (see the module docs); buffers get their copyable footprint at offset 0.
/// `None` for buffers' subresources other than 0, out-of-range indices and unknown
/// formats. The desc is assumed valid.
pub fn subresource_layout_full(desc: &D3D12_RESOURCE_DESC1, subresource: u32) -> Option<SubresourceLayout> {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        if subresource != 0 {
            return None;
        }
        return Some(SubresourceLayout { offset: 0, footprint: footprint::buffer_footprint(desc.Width)? });
    }
    let s = shape(desc)?;
    let per_plane = s.mips as u64 * s.array as u64;
    if subresource as u64 >= per_plane * s.planes as u64 {
        return None;
    }
    let sub = crate::subresource::decompose_subresource(subresource, s.mips, s.array);
    let plane_base = planes_end(desc, &s, sub.plane)?;
    let (mip_off, len) = chain(desc, &s, sub.plane, sub.mip)?;
    let stride = align_up(len, SUBRESOURCE_ALIGNMENT)?;
    let offset = plane_base.checked_add(stride.checked_mul(sub.array_slice as u64)?)?.checked_add(mip_off)?;
    Some(SubresourceLayout { offset, footprint: sub_fp(desc, s.info, sub.mip, sub.plane)? })
}

/// `(offset, tight footprint)` of `subresource` in the backend layout.
pub fn subresource_layout(desc: &D3D12_RESOURCE_DESC1, subresource: u32) -> Option<(u64, D3D12_SUBRESOURCE_FOOTPRINT)> {
    subresource_layout_full(desc, subresource).map(|l| (l.offset, l.footprint.footprint))
}

/// Bytes of the single-sample texture layout: end of the last subresource of the tight
/// layout (no trailing padding). Buffers: Width.
pub fn layout_bytes(desc: &D3D12_RESOURCE_DESC1) -> Option<u64> {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return Some(desc.Width);
    }
    let s = shape(desc)?;
    planes_end_unaligned(desc, &s, s.planes)
}

/// End of the first `planes` planes (all slices), not aligned.
fn planes_end_unaligned(desc: &D3D12_RESOURCE_DESC1, s: &Shape<'_>, planes: u32) -> Option<u64> {
    let mut end = 0u64;
    for p in 0..planes {
        let (_, len) = chain(desc, s, p, 0)?;
        let stride = align_up(len, SUBRESOURCE_ALIGNMENT)?;
        end = align_up(end, SUBRESOURCE_ALIGNMENT)?;
        end = end.checked_add(stride.checked_mul(s.array as u64 - 1)?)?.checked_add(len)?;
    }
    Some(end)
}

/// Start of plane `plane` (16-aligned).
fn planes_end(desc: &D3D12_RESOURCE_DESC1, s: &Shape<'_>, plane: u32) -> Option<u64> {
    align_up(planes_end_unaligned(desc, s, plane)?, SUBRESOURCE_ALIGNMENT)
}

/// Distance between the samples of a multisampled texture (layout bytes rounded up to 16).
pub fn msaa_sample_stride(desc: &D3D12_RESOURCE_DESC1) -> Option<u64> {
    align_up(layout_bytes(desc)?, SUBRESOURCE_ALIGNMENT)
}

/// Bytes the backend needs for the resource, before rounding to the placement alignment.
pub fn backend_bytes(desc: &D3D12_RESOURCE_DESC1, caps: &Caps) -> Option<u64> {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return Some(desc.Width);
    }
    let samples = desc.SampleDesc.Count.max(1) as u64;
    let mut bytes = if samples > 1 { msaa_sample_stride(desc)?.checked_mul(samples)? } else { layout_bytes(desc)? };
    let layout = desc.Layout;
    if layout == sys::D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE
        || layout == sys::D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE
    {
        let tiles = tiling::num_tiles(desc, caps).checked_mul(tiling::TILE_SIZE)?;
        bytes = bytes.max(tiles);
    }
    Some(bytes)
}

/// Allocation size and alignment of one desc, or the validation error together with the
/// alignment reported for it.
pub fn allocation_info_one(
    desc: &D3D12_RESOURCE_DESC1,
    caps: &Caps,
) -> Result<D3D12_RESOURCE_ALLOCATION_INFO, (DescError, u64)> {
    let fallback = desc::default_alignment(desc);
    let v = desc::validate_desc1(desc, Api::AllocationInfo, caps, None).map_err(|e| (e, fallback))?;
    let too_big = || {
        (
            DescError {
                hr: crate::error::Hr::InvalidArg,
                id: crate::error::msg::CREATERESOURCE_INVALIDDIMENSIONS,
                message: "The resource size overflows 64 bits.".into(),
                extra: Vec::new(),
            },
            fallback,
        )
    };
    let bytes = backend_bytes(&v.desc, caps).ok_or_else(too_big)?;
    let size = align_up(bytes, v.alignment).ok_or_else(too_big)?;
    Ok(D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: size, Alignment: v.alignment })
}

/// GetResourceAllocationInfo2 (DESC1) with the optional per-desc
/// D3D12_RESOURCE_ALLOCATION_INFO1 array.
///
/// The descs are laid out like a C struct in array order: offset_i = align_up(end_{i−1},
/// alignment_i); SizeInBytes = align_up(end_last, max alignment); Alignment = max
/// alignment. No descs → {0, 1}. An invalid desc (or a `visible_mask` naming nodes other
/// than node 0) → SizeInBytes = UINT64_MAX, Alignment = the largest alignment seen
/// including the invalid desc's default; processing stops there and its entry and all
/// later ones are {UINT64_MAX, default alignment, UINT64_MAX}.
pub fn resource_allocation_info2(
    visible_mask: u32,
    descs: &[D3D12_RESOURCE_DESC1],
    caps: &Caps,
    mut info1: Option<&mut [D3D12_RESOURCE_ALLOCATION_INFO1]>,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    if descs.is_empty() {
        return D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: 0, Alignment: 1 };
    }
    let mut end = 0u64;
    let mut max_align = 1u64;
    let mut failed_at: Option<usize> = None;
    for (i, d) in descs.iter().enumerate() {
        let r = if visible_mask > 1 { None } else { allocation_info_one(d, caps).ok() };
        let placed = r.and_then(|r| {
            let off = align_up(end, r.Alignment)?;
            let e = off.checked_add(r.SizeInBytes)?;
            Some((r, off, e))
        });
        let Some((r, off, e)) = placed else {
            max_align = max_align.max(desc::default_alignment(d));
            failed_at = Some(i);
            break;
        };
        end = e;
        max_align = max_align.max(r.Alignment);
        if let Some(slot) = info1.as_deref_mut().and_then(|s| s.get_mut(i)) {
            *slot = D3D12_RESOURCE_ALLOCATION_INFO1 { Offset: off, Alignment: r.Alignment, SizeInBytes: r.SizeInBytes };
        }
    }
    if let Some(k) = failed_at {
        if let Some(s) = info1 {
            for (j, d) in descs.iter().enumerate().skip(k) {
                if let Some(e) = s.get_mut(j) {
                    *e = D3D12_RESOURCE_ALLOCATION_INFO1 {
                        Offset: u64::MAX,
                        Alignment: desc::default_alignment(d),
                        SizeInBytes: u64::MAX,
                    };
                }
            }
        }
        return D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: u64::MAX, Alignment: max_align };
    }
    match align_up(end, max_align) {
        Some(size) => D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: size, Alignment: max_align },
        None => D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: u64::MAX, Alignment: max_align },
    }
}

/// GetResourceAllocationInfo / GetResourceAllocationInfo1 (D3D12_RESOURCE_DESC).
pub fn resource_allocation_info(
    visible_mask: u32,
    descs: &[D3D12_RESOURCE_DESC],
    caps: &Caps,
    info1: Option<&mut [D3D12_RESOURCE_ALLOCATION_INFO1]>,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    // Small arrays convert on the stack; larger ones allocate (not a hot path).
    let converted: Vec<D3D12_RESOURCE_DESC1> = descs.iter().map(desc::desc1_from_desc).collect();
    resource_allocation_info2(visible_mask, &converted, caps, info1)
}

#[cfg(test)]
mod tests;
