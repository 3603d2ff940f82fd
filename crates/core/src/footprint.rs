//! ID3D12Device::GetCopyableFootprints(1) (footprints.md).
//!
//! * RowPitch = minimum row bytes aligned to 256 (512 for planar formats, which include
//!   the D24S8/D32S8 families).
//! * Every subresource starts 512-aligned relative to BaseOffset; BaseOffset itself is not
//!   aligned or checked (it simply wraps when added).
//! * size = (NumRows × Depth − 1) × RowPitch + RowSizeInBytes; TotalBytes = start of the
//!   last subresource + its size (no trailing padding, BaseOffset excluded).
//! * Invalid input (desc, or the First/Num range) fills every element of every provided
//!   output with 0xFF bytes and returns UINT64_MAX.
//!
//! The success path neither allocates nor formats strings.

use rd3d12_sys as sys;
use rd3d12_sys::{D3D12_PLACED_SUBRESOURCE_FOOTPRINT, D3D12_RESOURCE_DESC1, D3D12_SUBRESOURCE_FOOTPRINT, DXGI_FORMAT};

use crate::caps::Caps;
use crate::desc::{self, Api};
use crate::format::{self, FormatInfo};

/// D3D12_TEXTURE_DATA_PITCH_ALIGNMENT.
pub const PITCH_ALIGNMENT: u64 = sys::D3D12_TEXTURE_DATA_PITCH_ALIGNMENT as u64;
/// D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT.
pub const PLACEMENT_ALIGNMENT: u64 = sys::D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT as u64;
/// Row pitch alignment used for planar formats.
pub const PLANAR_PITCH_ALIGNMENT: u64 = 512;

#[inline]
const fn align_up(v: u64, a: u64) -> u64 {
    (v + (a - 1)) & !(a - 1)
}

/// The layout of one subresource (relative placement not included).
#[derive(Clone, Copy)]
pub struct SubresourceFootprint {
    /// Footprint (format of the plane, block-aligned extents, row pitch).
    pub footprint: D3D12_SUBRESOURCE_FOOTPRINT,
    /// Rows per depth slice.
    pub num_rows: u32,
    /// Bytes of data in one row.
    pub row_size: u64,
    /// Bytes from the first byte of the first row to the end of the last row's data.
    pub size: u64,
}

impl core::fmt::Debug for SubresourceFootprint {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let fp = &self.footprint;
        f.debug_struct("SubresourceFootprint")
            .field("format", &fp.Format.0)
            .field("width", &fp.Width)
            .field("height", &fp.Height)
            .field("depth", &fp.Depth)
            .field("row_pitch", &fp.RowPitch)
            .field("num_rows", &self.num_rows)
            .field("row_size", &self.row_size)
            .field("size", &self.size)
            .finish()
    }
}

/// Footprint of mip `mip`, plane `plane` of a texture with format `info` (no validation).
/// Mip extents are block aligned using the resource format's block size; planar formats
/// then use the plane's subsampling and format.
#[inline]
pub fn texture_subresource_footprint(
    info: &FormatInfo,
    dimension: sys::D3D12_RESOURCE_DIMENSION,
    width: u64,
    height: u32,
    depth: u32,
    mip: u32,
    plane: u32,
) -> Option<SubresourceFootprint> {
    let bw = info.block_width as u64;
    let bh = info.block_height as u64;
    let w = align_up(crate::subresource::mip_extent(width, mip), bw);
    let h = if dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D {
        1
    } else {
        align_up(crate::subresource::mip_extent(height as u64, mip), bh)
    };
    let d = if dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D {
        crate::subresource::mip_extent(depth as u64, mip)
    } else {
        1
    };
    let (fmt, fw, fh, row_size, min_pitch, rows): (DXGI_FORMAT, u64, u64, u64, u64, u64);
    let layouts = info.plane_layouts();
    if layouts.is_empty() {
        if plane != 0 {
            return None;
        }
        fmt = info.format;
        fw = w;
        fh = h;
        row_size = info.min_row_bytes(w);
        min_pitch = row_size;
        rows = h >> bh.trailing_zeros();
    } else {
        let p = layouts.get(plane as usize)?;
        let pi = format::info(p.format)?;
        fmt = p.format;
        fw = w.div_ceil(p.width_div as u64);
        fh = h.div_ceil(p.height_div as u64);
        row_size = pi.min_row_bytes(fw);
        min_pitch = pi.min_row_bytes(w.div_ceil(p.pitch_width_div as u64));
        rows = fh;
    }
    let pitch = align_up(min_pitch, if info.is_planar() { PLANAR_PITCH_ALIGNMENT } else { PITCH_ALIGNMENT });
    if fw > u32::MAX as u64 || fh > u32::MAX as u64 || pitch > u32::MAX as u64 || rows > u32::MAX as u64 {
        return None;
    }
    let size = (rows * d - 1) * pitch + row_size;
    Some(SubresourceFootprint {
        footprint: D3D12_SUBRESOURCE_FOOTPRINT {
            Format: fmt,
            Width: fw as u32,
            Height: fh as u32,
            Depth: d as u32,
            RowPitch: pitch as u32,
        },
        num_rows: rows as u32,
        row_size,
        size,
    })
}

/// Footprint of a buffer of `width` bytes, or `None` if it does not fit the 32-bit
/// footprint fields.
#[inline]
pub fn buffer_footprint(width: u64) -> Option<SubresourceFootprint> {
    let pitch = align_up(width, PITCH_ALIGNMENT);
    if pitch > u32::MAX as u64 {
        return None;
    }
    Some(SubresourceFootprint {
        footprint: D3D12_SUBRESOURCE_FOOTPRINT {
            Format: sys::DXGI_FORMAT_UNKNOWN,
            Width: width as u32,
            Height: 1,
            Depth: 1,
            RowPitch: pitch as u32,
        },
        num_rows: 1,
        row_size: width,
        size: width,
    })
}

const ALL_ONES_FOOTPRINT: D3D12_PLACED_SUBRESOURCE_FOOTPRINT = D3D12_PLACED_SUBRESOURCE_FOOTPRINT {
    Offset: u64::MAX,
    Footprint: D3D12_SUBRESOURCE_FOOTPRINT {
        Format: DXGI_FORMAT(u32::MAX),
        Width: u32::MAX,
        Height: u32::MAX,
        Depth: u32::MAX,
        RowPitch: u32::MAX,
    },
};

#[cold]
fn fill_invalid(
    num: u32,
    layouts: Option<&mut [D3D12_PLACED_SUBRESOURCE_FOOTPRINT]>,
    num_rows: Option<&mut [u32]>,
    row_sizes: Option<&mut [u64]>,
) -> u64 {
    let n = num as usize;
    if let Some(l) = layouts {
        let k = n.min(l.len());
        l[..k].fill(ALL_ONES_FOOTPRINT);
    }
    if let Some(r) = num_rows {
        let k = n.min(r.len());
        r[..k].fill(u32::MAX);
    }
    if let Some(r) = row_sizes {
        let k = n.min(r.len());
        r[..k].fill(u64::MAX);
    }
    u64::MAX
}

/// Why a GetCopyableFootprints call is invalid (the debug-layer message it would emit).
pub fn footprint_error(desc: &D3D12_RESOURCE_DESC1, first: u32, num: u32, caps: &Caps) -> Option<crate::desc::Diag> {
    match desc::validate_desc1(desc, Api::Footprints, caps, None) {
        Err(e) => Some(crate::desc::Diag { id: e.id, message: e.message }),
        Ok(v) => {
            if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER && buffer_footprint(desc.Width).is_none() {
                return Some(crate::desc::Diag {
                    id: crate::error::msg::GETCOPYABLEFOOTPRINTS_UNSUPPORTED_BUFFER_WIDTH,
                    message: format!("Buffer Width {} does not fit a subresource footprint.", desc.Width),
                });
            }
            let count = v.subresource_count;
            if first >= count || num > count - first {
                Some(crate::desc::Diag {
                    id: crate::error::msg::GETCOPYABLEFOOTPRINTS_INVALIDSUBRESOURCERANGE,
                    message: format!(
                        "FirstSubresource ({first}) + NumSubresources ({num}) exceeds the subresource count ({count})."
                    ),
                })
            } else {
                None
            }
        }
    }
}

/// GetCopyableFootprints1. Output slices, when given, have `num` entries. Returns
/// TotalBytes (UINT64_MAX when the input is invalid, in which case every provided output
/// element is filled with 0xFF bytes).
#[allow(clippy::too_many_arguments)]
pub fn copyable_footprints(
    desc: &D3D12_RESOURCE_DESC1,
    first: u32,
    num: u32,
    base_offset: u64,
    caps: &Caps,
    mut layouts: Option<&mut [D3D12_PLACED_SUBRESOURCE_FOOTPRINT]>,
    mut num_rows: Option<&mut [u32]>,
    mut row_sizes: Option<&mut [u64]>,
) -> u64 {
    let Ok(c) = desc::check(desc, Api::Footprints, caps, None) else {
        return fill_invalid(num, layouts, num_rows, row_sizes);
    };

    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        let Some(fp) = buffer_footprint(desc.Width) else {
            return fill_invalid(num, layouts, num_rows, row_sizes);
        };
        if first != 0 || num > 1 {
            return fill_invalid(num, layouts, num_rows, row_sizes);
        }
        if num == 0 {
            return 0;
        }
        write(0, base_offset, &fp, &mut layouts, &mut num_rows, &mut row_sizes);
        return fp.size;
    }

    let mips = c.mip_levels;
    let per_plane = mips * c.array_size;
    let count = per_plane * c.planes;
    if first >= count || num > count - first {
        return fill_invalid(num, layouts, num_rows, row_sizes);
    }

    let mut running = 0u64;
    let mut total = 0u64;
    let mut overflow = false;
    // Incremental (mip, plane) counters avoid a division per subresource.
    let mut mip = first % mips;
    let mut plane = first / per_plane;
    let mut in_plane = first % per_plane;
    // Subresources of one plane and mip share a footprint; cache the last one.
    let mut cached: Option<(u32, u32, SubresourceFootprint)> = None;
    for i in 0..num {
        let fp = match cached {
            Some((m, p, fp)) if m == mip && p == plane => fp,
            _ => {
                let Some(fp) = texture_subresource_footprint(
                    c.info,
                    desc.Dimension,
                    desc.Width,
                    desc.Height,
                    desc.DepthOrArraySize as u32,
                    mip,
                    plane,
                ) else {
                    return fill_invalid(num, layouts, num_rows, row_sizes);
                };
                cached = Some((mip, plane, fp));
                fp
            }
        };
        running = align_up(running, PLACEMENT_ALIGNMENT);
        write(i as usize, base_offset.wrapping_add(running), &fp, &mut layouts, &mut num_rows, &mut row_sizes);
        match running.checked_add(fp.size) {
            Some(end) => {
                running = end;
                total = end;
            }
            None => overflow = true,
        }
        mip += 1;
        in_plane += 1;
        if mip == mips {
            mip = 0;
        }
        if in_plane == per_plane {
            in_plane = 0;
            plane += 1;
        }
    }
    if overflow {
        u64::MAX
    } else {
        total
    }
}

#[inline(always)]
fn write(
    i: usize,
    offset: u64,
    fp: &SubresourceFootprint,
    layouts: &mut Option<&mut [D3D12_PLACED_SUBRESOURCE_FOOTPRINT]>,
    num_rows: &mut Option<&mut [u32]>,
    row_sizes: &mut Option<&mut [u64]>,
) {
    if let Some(l) = layouts.as_deref_mut().and_then(|l| l.get_mut(i)) {
        *l = D3D12_PLACED_SUBRESOURCE_FOOTPRINT { Offset: offset, Footprint: fp.footprint };
    }
    if let Some(r) = num_rows.as_deref_mut().and_then(|r| r.get_mut(i)) {
        *r = fp.num_rows;
    }
    if let Some(r) = row_sizes.as_deref_mut().and_then(|r| r.get_mut(i)) {
        *r = fp.row_size;
    }
}

/// GetCopyableFootprints (D3D12_RESOURCE_DESC flavour).
#[allow(clippy::too_many_arguments)]
pub fn copyable_footprints_desc(
    desc: &sys::D3D12_RESOURCE_DESC,
    first: u32,
    num: u32,
    base_offset: u64,
    caps: &Caps,
    layouts: Option<&mut [D3D12_PLACED_SUBRESOURCE_FOOTPRINT]>,
    num_rows: Option<&mut [u32]>,
    row_sizes: Option<&mut [u64]>,
) -> u64 {
    copyable_footprints(&desc::desc1_from_desc(desc), first, num, base_offset, caps, layouts, num_rows, row_sizes)
}

#[cfg(test)]
mod tests;
