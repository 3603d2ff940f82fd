//! ClearRenderTargetView, ClearDepthStencilView and ClearUnorderedAccessView{Uint,Float}:
//! which bytes of a resource a clear writes.
//!
//! A clear writes one element pattern (from [`crate::pack`]) over every element its view
//! covers: every array slice of the view's mip (the W slices of a 3D view), or the view's
//! elements of a buffer. Rectangles restrict the clear to their union in x and y (`left` and
//! `right` are elements of a buffer view, whose height is one row), clipped to the view; an
//! empty or inverted rectangle clears nothing. A multisampled texture's clear sets every
//! sample (the same rows, `s × msaa_sample_stride` on for sample `s`). The geometry is the CPU backend's tight layout
//! ([`crate::allocation::subresource_layout`]).

use crate::allocation;
use crate::copy::Surface;
use crate::descriptor::{Descriptor, Kind};
use crate::subresource;
use rd3d12_sys as sys;
use sys::{D3D12_RECT, D3D12_RESOURCE_DESC1};

/// One rectangle of element rows to fill: `extent.0` elements per row, `extent.1` rows,
/// `extent.2` slices, starting at `surface.origin`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fill {
    /// Where the rows are (the surface's `subresource` names the texture subresource;
    /// `None` for buffers).
    pub surface: Surface,
    /// Elements per row, rows, slices.
    pub extent: (u32, u32, u32),
    /// Samples written (SampleDesc.Count; 1 for single-sampled resources and buffers): a
    /// clear of a multisampled resource sets every sample, `surface.sample_stride` apart.
    pub samples: u32,
}

impl Fill {
    /// Byte offsets of every row (`extent.0 × element_bytes` bytes each) of every sample,
    /// with its row and slice within the fill: samples outermost, then slices, then rows.
    pub fn rows(&self, element_bytes: u32) -> impl Iterator<Item = (u64, u32, u32)> + '_ {
        let (_, h, d) = self.extent;
        (0..self.samples.max(1)).flat_map(move |s| {
            (0..d).flat_map(move |z| (0..h).map(move |y| (self.surface.row_offset(element_bytes, s, y, z), y, z)))
        })
    }
}

/// Why a clear cannot be planned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClearError {
    /// The view's range or plane does not fit the resource (the resource is not the one the
    /// view was created for).
    ViewMismatch,
    /// The element size does not divide the view's element (structured buffer stride not a
    /// multiple of 4).
    ElementSize,
}

/// The x-y rectangles of a `width × height` view a clear covers: the whole view for no
/// rectangles, otherwise each rectangle clipped to it (empty ones dropped). Overlapping
/// rectangles are kept as given: writing an element twice with one pattern is harmless.
pub fn clip_rects(width: u32, height: u32, rects: &[D3D12_RECT]) -> Vec<(u32, u32, u32, u32)> {
    if rects.is_empty() {
        return if width > 0 && height > 0 { vec![(0, 0, width, height)] } else { Vec::new() };
    }
    let clamp = |v: i32, max: u32| (v.max(0) as u32).min(max);
    rects
        .iter()
        .filter_map(|r| {
            let (l, t) = (clamp(r.left, width), clamp(r.top, height));
            let (rr, b) = (clamp(r.right, width), clamp(r.bottom, height));
            (rr > l && b > t).then(|| (l, t, rr - l, b - t))
        })
        .collect()
}

/// The fills of a clear through texture view `view` (RTV, DSV or UAV) of the resource
/// `desc`, writing `element_bytes`-byte elements of plane `plane` (1: the stencil plane of a
/// depth-stencil format; 0 otherwise).
pub fn texture_fills(
    desc: &D3D12_RESOURCE_DESC1,
    view: &Descriptor,
    plane: u32,
    element_bytes: u32,
    rects: &[D3D12_RECT],
) -> Result<Vec<Fill>, ClearError> {
    let range = view.texture();
    let mips = subresource::mip_levels(desc);
    let is_3d = desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    let slices = if is_3d { 1 } else { subresource::array_size(desc).max(1) };
    if range.first_mip >= mips
        || (!is_3d && range.first_slice.checked_add(range.array_size).is_none_or(|e| e > slices))
        || range.array_size == 0
    {
        return Err(ClearError::ViewMismatch);
    }
    let samples = desc.SampleDesc.Count.max(1);
    let sample_stride =
        if samples > 1 { allocation::msaa_sample_stride(desc).ok_or(ClearError::ViewMismatch)? } else { 0 };
    let mut fills = Vec::new();
    let (first, count) = if is_3d { (0, 1) } else { (range.first_slice, range.array_size) };
    for slice in first..first + count {
        let sub = subresource::subresource_index(desc, range.first_mip, slice, plane);
        let (offset, fp) = allocation::subresource_layout(desc, sub).ok_or(ClearError::ViewMismatch)?;
        if fp.Width as u64 * element_bytes as u64 != fp.RowPitch as u64 {
            return Err(ClearError::ElementSize);
        }
        let (z0, depth) = if is_3d {
            // The W slices of the view, clipped to the mip's depth.
            let z0 = range.first_slice.min(fp.Depth);
            (z0, range.array_size.min(fp.Depth - z0))
        } else {
            (0, 1)
        };
        if depth == 0 {
            continue;
        }
        let row_pitch = fp.RowPitch as u64;
        let slice_pitch = row_pitch * fp.Height as u64;
        for (x, y, w, h) in clip_rects(fp.Width, fp.Height, rects) {
            fills.push(Fill {
                surface: Surface {
                    offset,
                    row_pitch,
                    slice_pitch,
                    subresource: Some(sub),
                    origin: (x, y, z0),
                    sample_stride,
                },
                extent: (w, h, depth),
                samples,
            });
        }
    }
    Ok(fills)
}

/// The fill of a clear through buffer view `view` (RTV or UAV) of a `buffer_bytes`-byte
/// buffer with `element_bytes`-byte elements: typed views write one element per view
/// element; raw and structured views (format R32_TYPELESS / UNKNOWN, 4-byte pattern) write
/// every 32-bit word of their elements.
pub fn buffer_fills(
    buffer_bytes: u64,
    view: &Descriptor,
    element_bytes: u32,
    rects: &[D3D12_RECT],
) -> Result<Vec<Fill>, ClearError> {
    let b = view.buffer();
    // Bytes of one view element: the structure stride, 4 for raw views, else the format's.
    let view_element = if b.stride > 0 {
        b.stride
    } else if view.format == sys::DXGI_FORMAT_R32_TYPELESS && view.kind == Kind::UAV {
        4
    } else {
        element_bytes
    };
    if element_bytes == 0 || view_element % element_bytes != 0 {
        return Err(ClearError::ElementSize);
    }
    let per = view_element / element_bytes;
    let start = b.first_element.checked_mul(view_element as u64).ok_or(ClearError::ViewMismatch)?;
    let bytes = (b.num_elements as u64).checked_mul(view_element as u64).ok_or(ClearError::ViewMismatch)?;
    if start.checked_add(bytes).is_none_or(|e| e > buffer_bytes) {
        return Err(ClearError::ViewMismatch);
    }
    Ok(clip_rects(b.num_elements, 1, rects)
        .into_iter()
        .map(|(x, _, w, _)| Fill {
            surface: Surface {
                offset: start,
                row_pitch: bytes,
                slice_pitch: bytes,
                subresource: None,
                origin: (x * per, 0, 0),
                sample_stride: 0,
            },
            extent: (w * per, 1, 1),
            samples: 1,
        })
        .collect())
}

#[cfg(test)]
mod tests;
