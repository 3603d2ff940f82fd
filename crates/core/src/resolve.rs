//! ResolveSubresource and ResolveSubresourceRegion: validation, geometry and the per-element
//! math of a resolve.
//!
//! Rules (learn.microsoft.com ID3D12GraphicsCommandList::ResolveSubresource,
//! ID3D12GraphicsCommandList1::ResolveSubresourceRegion, D3D12_RESOLVE_MODE; every `Err`
//! drops the call and makes Close return E_INVALIDARG):
//!
//! * Both resources are textures of the same dimension (#879 RESOURCE_MISMATCH); the
//!   destination is on a DEFAULT heap (#RESOLVESUBRESOURCE_INVALIDDSTRESOURCE); the
//!   subresource indices exist (#877).
//! * MIN, MAX, AVERAGE: a multisampled source and a single-sampled destination.
//!   DECOMPRESS: equal sample counts; source and destination may be the same resource.
//!   Otherwise #RESOLVESUBRESOURCE_INVALID_SAMPLE_COUNT.
//! * Formats (#878 INVALID_FORMAT): `Format` is a typed format; a typed resource must have
//!   exactly `Format`, a typeless one must be `Format`'s typeless family. AVERAGE needs a
//!   format with MULTISAMPLE_RESOLVE support (never integer formats) — for
//!   ResolveSubresourceRegion also the single-plane depth formats D16_UNORM and D32_FLOAT
//!   ("including the depth plane"); MIN, MAX and DECOMPRESS take any render-target or
//!   depth-stencil format. Planar depth-stencil formats (D24S8, D32S8) and the sampler
//!   feedback modes are not supported (REC: #878).
//! * ResolveSubresource resolves whole subresources of equal size (#879). For
//!   ResolveSubresourceRegion a NULL rectangle means the whole source subresource; the
//!   rectangle must lie inside the source and the region at (DstX, DstY) inside the
//!   destination (#RESOLVESUBRESOURCEREGION_INVALID_RECT); an empty one resolves nothing.
//!
//! Math ([`resolve_element`]): AVERAGE is the mean of the samples per component in float
//! (UNORM / SNORM / FLOAT decoded with [`crate::pack::decode_color`], sRGB colour channels
//! in linear space, as D3D resolves them), re-encoded with [`crate::pack::encode_color`]'s
//! rounding; MIN and MAX are per component (integers compared as integers). DECOMPRESS
//! copies every sample: this backend never compresses, so on one resource it changes no
//! byte.

use rd3d12_sys as sys;
use sys::{D3D12_RECT, D3D12_RESOURCE_DESC1, DXGI_FORMAT};

use crate::allocation;
use crate::copy::Surface;
use crate::error::{msg, MessageId};
use crate::format::{self, s1};
use crate::pack;
use crate::states::{HeapKind, Violation};
use crate::subresource;

/// D3D12_RESOLVE_MODE values this backend implements.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// D3D12_RESOLVE_MODE_DECOMPRESS: every sample copied.
    Decompress,
    /// D3D12_RESOLVE_MODE_MIN.
    Min,
    /// D3D12_RESOLVE_MODE_MAX.
    Max,
    /// D3D12_RESOLVE_MODE_AVERAGE (ResolveSubresource's only mode).
    Average,
}

/// One side of a resolve.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The resource's desc.
    pub desc: &'a D3D12_RESOURCE_DESC1,
    /// Its heap.
    pub heap: HeapKind,
    /// The subresource named by the call.
    pub subresource: u32,
}

/// Pure geometry and math of a valid resolve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvePlan {
    /// Destination rows (`sample_stride` set for DECOMPRESS of multisampled resources).
    pub dst: Surface,
    /// Source rows, `sample_stride` apart per sample.
    pub src: Surface,
    /// Elements per row, rows.
    pub extent: (u32, u32),
    /// Source samples.
    pub samples: u32,
    /// Bytes of one element.
    pub element_bytes: u32,
    /// The format the math is done in (`Format`, depth formats as their colour twin).
    pub format: DXGI_FORMAT,
    /// The operation.
    pub mode: Mode,
}

impl ResolvePlan {
    /// Source row offsets of row `y`, one per sample.
    pub fn src_rows(&self, y: u32) -> impl Iterator<Item = u64> + '_ {
        (0..self.samples).map(move |s| self.src.row_offset(self.element_bytes, s, y, 0))
    }

    /// Bytes per row.
    pub fn row_bytes(&self) -> usize {
        self.extent.0 as usize * self.element_bytes as usize
    }
}

fn err(id: MessageId, text: impl Into<String>) -> Violation {
    Violation::new(id, text)
}

/// D3D12_RESOLVE_MODE → [`Mode`]; `None` for the sampler-feedback modes and unknown values.
pub fn mode(raw: u32) -> Option<Mode> {
    match raw {
        0 => Some(Mode::Decompress),
        1 => Some(Mode::Min),
        2 => Some(Mode::Max),
        3 => Some(Mode::Average),
        _ => None,
    }
}

/// Colour twin of a single-plane depth format (the math format); the format itself otherwise.
fn math_format(f: DXGI_FORMAT) -> DXGI_FORMAT {
    match f {
        sys::DXGI_FORMAT_D32_FLOAT => sys::DXGI_FORMAT_R32_FLOAT,
        sys::DXGI_FORMAT_D16_UNORM => sys::DXGI_FORMAT_R16_UNORM,
        f => f,
    }
}

fn is_integer(f: DXGI_FORMAT) -> bool {
    format::info(f).is_some_and(|i| i.name.ends_with("_UINT") || i.name.ends_with("_SINT"))
}

fn is_sint(f: DXGI_FORMAT) -> bool {
    format::info(f).is_some_and(|i| i.name.ends_with("_SINT"))
}

/// Whether `format` may be used for `mode` (`region`: ResolveSubresourceRegion).
fn format_allowed(format: DXGI_FORMAT, mode: Mode, region: bool) -> bool {
    let Some(i) = format::info(format) else { return false };
    if i.is_typeless()
        || i.is_planar()
        || i.format.0 == 0
        || pack::decode_color(math_format(format), &[0; 16]).is_none()
    {
        return false;
    }
    let depth = i.is_depth_stencil();
    match mode {
        Mode::Average => !is_integer(format) && (i.class_support1 & s1::MULTISAMPLE_RESOLVE != 0 || (region && depth)),
        _ => i.class_support1 & (s1::RENDER_TARGET | s1::DEPTH_STENCIL) != 0,
    }
}

/// Whether a resource of format `res` resolves through `format`.
fn resource_format_ok(res: DXGI_FORMAT, format: DXGI_FORMAT) -> bool {
    match (format::info(res), format::info(format)) {
        (Some(r), Some(f)) => res == format || (r.is_typeless() && f.typeless == res),
        _ => false,
    }
}

/// Validates a resolve and plans it. `rect`: ResolveSubresourceRegion's rectangle (`None`:
/// NULL, the whole source subresource); `region`: the call is ResolveSubresourceRegion (a
/// NULL rectangle and (0, 0) for ResolveSubresource, which also needs equal sizes).
/// `Ok(None)`: a valid resolve of an empty rectangle.
#[allow(clippy::too_many_arguments)]
pub fn plan(
    dst: &Side<'_>,
    dst_xy: (u32, u32),
    src: &Side<'_>,
    rect: Option<&D3D12_RECT>,
    format: DXGI_FORMAT,
    mode: Mode,
    region: bool,
) -> Result<Option<ResolvePlan>, Violation> {
    let (dd, sd) = (dst.desc, src.desc);
    if dd.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER
        || sd.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER
        || dd.Dimension != sd.Dimension
    {
        return Err(err(
            msg::RESOLVESUBRESOURCE_RESOURCE_MISMATCH,
            "Resolve: source and destination must be textures of the same dimension.",
        ));
    }
    if dst.heap != HeapKind::Default && dst.heap != HeapKind::Custom {
        return Err(err(
            msg::RESOLVESUBRESOURCE_INVALIDDSTRESOURCE,
            "Resolve: the destination must be on a DEFAULT heap.",
        ));
    }
    let (dc, sc) = (dd.SampleDesc.Count.max(1), sd.SampleDesc.Count.max(1));
    let counts_ok = match mode {
        Mode::Decompress => dc == sc,
        _ => sc > 1 && dc == 1,
    };
    if !counts_ok {
        return Err(err(
            msg::RESOLVESUBRESOURCE_INVALID_SAMPLE_COUNT,
            format!("Resolve: source sample count {sc} and destination sample count {dc} do not fit {mode:?}."),
        ));
    }
    for s in [dst, src] {
        if u64::from(s.subresource) >= subresource::subresource_count(s.desc) {
            return Err(err(
                msg::RESOLVESUBRESOURCE_INVALID_SUBRESOURCE_INDEX,
                format!("Resolve: subresource {} does not exist.", s.subresource),
            ));
        }
    }
    if !format_allowed(format, mode, region)
        || !resource_format_ok(dd.Format, format)
        || !resource_format_ok(sd.Format, format)
    {
        return Err(err(
            msg::RESOLVESUBRESOURCE_INVALID_FORMAT,
            format!(
                "Resolve: format {} can't resolve ({mode:?}) from {} to {}.",
                format::name(format).unwrap_or("?"),
                format::name(sd.Format).unwrap_or("?"),
                format::name(dd.Format).unwrap_or("?")
            ),
        ));
    }
    let layout = |s: &Side<'_>| allocation::subresource_layout(s.desc, s.subresource);
    let mismatch =
        || err(msg::RESOLVESUBRESOURCE_RESOURCE_MISMATCH, "Resolve: the subresources do not fit each other.");
    let ((doff, dfp), (soff, sfp)) = (layout(dst).ok_or_else(mismatch)?, layout(src).ok_or_else(mismatch)?);
    let element_bytes = sfp.RowPitch / sfp.Width.max(1);
    if !region && (dfp.Width != sfp.Width || dfp.Height != sfp.Height) {
        return Err(mismatch());
    }
    let bad_rect = || {
        err(
            msg::RESOLVESUBRESOURCEREGION_INVALID_RECT,
            "ResolveSubresourceRegion: the rectangle or the destination region lies outside its subresource.",
        )
    };
    let (x, y, w, h) = match rect {
        None => (0, 0, sfp.Width, sfp.Height),
        Some(r) => {
            if r.left < 0 || r.top < 0 || r.right < r.left || r.bottom < r.top {
                return Err(bad_rect());
            }
            (r.left as u32, r.top as u32, (r.right - r.left) as u32, (r.bottom - r.top) as u32)
        }
    };
    let fits = |x: u32, y: u32, fw: u32, fh: u32| {
        x.checked_add(w).is_some_and(|e| e <= fw) && y.checked_add(h).is_some_and(|e| e <= fh)
    };
    if !fits(x, y, sfp.Width, sfp.Height) || !fits(dst_xy.0, dst_xy.1, dfp.Width, dfp.Height) {
        return Err(bad_rect());
    }
    if w == 0 || h == 0 {
        return Ok(None);
    }
    let stride = |d: &D3D12_RESOURCE_DESC1| {
        if d.SampleDesc.Count > 1 {
            allocation::msaa_sample_stride(d).ok_or_else(mismatch)
        } else {
            Ok(0)
        }
    };
    let surface = |offset: u64, pitch: u32, rows: u32, sub: u32, origin: (u32, u32), sample_stride: u64| Surface {
        offset,
        row_pitch: pitch as u64,
        slice_pitch: pitch as u64 * rows as u64,
        subresource: Some(sub),
        origin: (origin.0, origin.1, 0),
        sample_stride,
    };
    Ok(Some(ResolvePlan {
        dst: surface(doff, dfp.RowPitch, dfp.Height, dst.subresource, dst_xy, stride(dd)?),
        src: surface(soff, sfp.RowPitch, sfp.Height, src.subresource, (x, y), stride(sd)?),
        extent: (w, h),
        samples: sc,
        element_bytes,
        format: math_format(format),
        mode,
    }))
}

/// One resolved element of `format` (a [`ResolvePlan::format`]) from the same element of
/// every sample (`samples`, each at least one element long): MIN, MAX or AVERAGE. `None` for
/// DECOMPRESS or a format [`pack`] does not decode.
pub fn resolve_element(format: DXGI_FORMAT, mode: Mode, samples: &[&[u8]]) -> Option<([u8; 16], usize)> {
    if samples.is_empty() || mode == Mode::Decompress {
        return None;
    }
    if is_integer(format) {
        // Integers: MIN/MAX compared as integers (AVERAGE never reaches here).
        let sint = is_sint(format);
        let mut acc = pack::decode_lanes(format, samples[0])?;
        for s in &samples[1..] {
            let v = pack::decode_lanes(format, s)?;
            for (a, b) in acc.iter_mut().zip(v) {
                let less = if sint { (b as i32) < (*a as i32) } else { b < *a };
                if less == (mode == Mode::Min) && b != *a {
                    *a = b;
                }
            }
        }
        return pack::encode_uint(format, acc);
    }
    let mut acc = pack::decode_color(format, samples[0])?.map(f64::from);
    for s in &samples[1..] {
        let v = pack::decode_color(format, s)?;
        for (a, b) in acc.iter_mut().zip(v) {
            let b = f64::from(b);
            *a = match mode {
                Mode::Min => a.min(b),
                Mode::Max => a.max(b),
                _ => *a + b,
            };
        }
    }
    if mode == Mode::Average {
        acc = acc.map(|a| a / samples.len() as f64);
    }
    pack::encode_color(format, acc.map(|a| a as f32))
}

/// A resolved row: element `i` of `out` from element `i` of every sample row in `rows`
/// (MIN, MAX, AVERAGE). Elements the format can't decode are left as they were.
pub fn resolve_row(format: DXGI_FORMAT, mode: Mode, element_bytes: u32, rows: &[&[u8]], out: &mut [u8]) {
    let eb = element_bytes as usize;
    if eb == 0 {
        return;
    }
    let mut elems: Vec<&[u8]> = Vec::with_capacity(rows.len());
    for (i, o) in out.chunks_exact_mut(eb).enumerate() {
        elems.clear();
        elems.extend(rows.iter().filter_map(|r| r.get(i * eb..(i + 1) * eb)));
        if let Some((bytes, n)) = resolve_element(format, mode, &elems) {
            o.copy_from_slice(&bytes[..n.min(eb)]);
        }
    }
}

#[cfg(test)]
mod tests;
