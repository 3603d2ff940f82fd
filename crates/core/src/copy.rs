//! Copy commands: CopyBufferRegion, CopyTextureRegion, CopyResource
//! (commands-and-sync.md §6, footprints.md §5).
//!
//! Each function validates one recorded command exactly as the runtime does (every
//! `Err` makes the command list's Close return E_INVALIDARG and the command is dropped)
//! and turns a valid one into pure geometry for the executor:
//!
//! * [`copy_buffer_region`] → a byte range;
//! * [`copy_texture_region`] → a [`CopyPlan`]: two [`Surface`]s, an extent in *elements*
//!   (a texel, or a 4×4 block for BC formats; 2×1 packed formats use 2-texel elements)
//!   and the element size. Rows of `row_bytes` bytes are memmoved from
//!   [`CopyPlan::rows`]; texture sides use the CPU backend's tight layout
//!   ([`crate::allocation`]), placed-footprint sides the footprint's Offset and RowPitch;
//! * [`copy_resource`] → one [`ResourceCopy`] per subresource (one whole-buffer copy for
//!   buffers).
//!
//! Formats are compatible when identical, in the same cast group, or one of the
//! block-size equivalences (BC1/BC4 ↔ R16G16B16A16/R32G32 families; BC2/BC3/BC5/BC6H/BC7
//! ↔ R32G32B32A32 family; R9G9B9E5_SHAREDEXP ↔ R32 family): one BC block ↔ one texel, so
//! both sides' elements always have the same byte size.
//!
//! Planar textures (depth-stencil, NV12, …) are copied one plane per subresource; the
//! texture side's element format is the plane's footprint format (R32_TYPELESS depth /
//! R8_TYPELESS stencil for D24S8 and D32S8; R8 / R8G8 for NV12), and a placed footprint
//! for such a plane names that format. A placed footprint whose format is itself a planar
//! video format (NV12 …) describes all planes back to back (the bounds rule counts the
//! rows of every plane); the plane copied is the texture side's plane (REC).

use rd3d12_sys as sys;
use rd3d12_sys::{D3D12_BOX, D3D12_PLACED_SUBRESOURCE_FOOTPRINT, D3D12_RESOURCE_DESC1, DXGI_FORMAT};

use crate::allocation;
use crate::caps::Caps;
use crate::error::{msg, MessageId};
use crate::format::{self, s1, FormatInfo};
use crate::states::{HeapKind, Violation};

/// Where a copy reads or writes inside a resource.
#[derive(Debug, Clone, Copy)]
pub enum Location {
    /// D3D12_TEXTURE_COPY_LOCATION_TYPE_SUBRESOURCE_INDEX (textures).
    Subresource(u32),
    /// D3D12_TEXTURE_COPY_LOCATION_TYPE_PLACED_FOOTPRINT (buffers).
    Footprint(D3D12_PLACED_SUBRESOURCE_FOOTPRINT),
    /// The whole resource (CopyBufferRegion, CopyResource). Not a CopyTextureRegion
    /// location (#847/#860 there).
    Whole,
    /// A D3D12_TEXTURE_COPY_LOCATION Type that is neither 0 nor 1 (#847/#860).
    InvalidType(u32),
}

impl Location {
    /// From a D3D12_TEXTURE_COPY_LOCATION's Type and the union member that Type selects.
    pub fn from_texture_copy_location(
        ty: u32,
        subresource_index: u32,
        placed_footprint: D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    ) -> Self {
        match ty {
            0 => Location::Subresource(subresource_index),
            1 => Location::Footprint(placed_footprint),
            t => Location::InvalidType(t),
        }
    }
}

/// One side of a copy.
///
/// The same-resource rules (#998) compare the `desc` references: pass the resource's
/// own, address-stable desc (`&resource.desc`), so two sides name the same resource
/// exactly when their `desc` pointers are equal.
#[derive(Debug, Clone, Copy)]
pub struct Side<'a> {
    /// The resource's desc (its address identifies the resource).
    pub desc: &'a D3D12_RESOURCE_DESC1,
    /// Its heap.
    pub heap: HeapKind,
    /// Its subresource count ([`crate::subresource_count`]).
    pub subresource_count: u32,
    /// What the copy addresses.
    pub location: Location,
}

impl Side<'_> {
    /// Both sides name the same resource (the same `desc` reference).
    pub fn same_resource(&self, other: &Side<'_>) -> bool {
        core::ptr::eq(self.desc, other.desc)
    }
}

/// One side of a [`CopyPlan`]. Byte address of element (x, y, z) of sample `s`,
/// relative to the start of the resource's memory (the buffer for placed footprints, the
/// texture's backend layout otherwise):
///
/// ```text
/// offset + s × sample_stride + (origin.2 + z) × slice_pitch + (origin.1 + y) × row_pitch
///        + (origin.0 + x) × element_bytes
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Surface {
    /// Byte offset of the subresource: the tight-layout offset
    /// ([`crate::allocation::subresource_layout`]) for textures, the footprint's Offset
    /// (plus the preceding planes' rows for a planar footprint format) for buffers.
    pub offset: u64,
    /// Bytes between element rows (tight layout: the row size; footprints: RowPitch).
    pub row_pitch: u64,
    /// Bytes between depth slices (row pitch × element rows of the subresource/footprint).
    pub slice_pitch: u64,
    /// The subresource index (textures) or `None` (placed footprints).
    pub subresource: Option<u32>,
    /// First element copied, in elements (x, y) and slices (z).
    pub origin: (u32, u32, u32),
    /// Bytes between the samples of a multisampled texture; 0 when single-sampled.
    pub sample_stride: u64,
}

impl Surface {
    /// Byte offset of the first element of element row `y`, slice `z`, sample `sample` of
    /// the copied region.
    pub fn row_offset(&self, element_bytes: u32, sample: u32, y: u32, z: u32) -> u64 {
        self.offset
            + sample as u64 * self.sample_stride
            + (self.origin.2 as u64 + z as u64) * self.slice_pitch
            + (self.origin.1 as u64 + y as u64) * self.row_pitch
            + self.origin.0 as u64 * element_bytes as u64
    }
}

/// Pure geometry of a valid CopyTextureRegion (or one subresource of a CopyResource).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopyPlan {
    /// Destination side.
    pub dst: Surface,
    /// Source side.
    pub src: Surface,
    /// Bytes of one element (identical on both sides).
    pub element_bytes: u32,
    /// Elements per row, element rows, depth slices.
    pub extent: (u32, u32, u32),
    /// Bytes per row copied: `extent.0 × element_bytes`.
    pub row_bytes: u64,
    /// Samples to copy (SampleDesc.Count; 1 for single-sampled copies).
    pub samples: u32,
    /// The destination is the depth plane of a D24_UNORM_S8_UINT-family texture: its 4-byte
    /// elements hold the depth in bits 0–23 and zero in bits 24–31 (the X8 bits), so byte 3
    /// of every element is written as zero whatever the source holds (Planar Depth Stencil
    /// spec: copies out of that plane give X8 = 0).
    pub zero_x8: bool,
    /// Debug-layer findings that do not reject the copy (#998 COPY_ON_SAME_SUBRESOURCE).
    pub warnings: Vec<Violation>,
}

impl CopyPlan {
    /// `(dst, src)` byte offsets of every row to copy (`row_bytes` each): samples
    /// outermost, then slices, then rows.
    pub fn rows(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let (_, h, d) = self.extent;
        let eb = self.element_bytes;
        (0..self.samples).flat_map(move |s| {
            (0..d).flat_map(move |z| {
                (0..h).map(move |y| (self.dst.row_offset(eb, s, y, z), self.src.row_offset(eb, s, y, z)))
            })
        })
    }

    fn span(&self, s: &Surface) -> core::ops::Range<u64> {
        let (_, h, d) = self.extent;
        let start = s.row_offset(self.element_bytes, 0, 0, 0);
        let end = s.row_offset(self.element_bytes, self.samples - 1, h - 1, d - 1) + self.row_bytes;
        start..end
    }

    /// The destination bytes touched, first to last (gaps between rows included).
    pub fn dst_span(&self) -> core::ops::Range<u64> {
        self.span(&self.dst)
    }

    /// The source bytes read, first to last (gaps between rows included).
    pub fn src_span(&self) -> core::ops::Range<u64> {
        self.span(&self.src)
    }
}

/// One copy operation of [`copy_resource`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceCopy {
    /// The whole buffer: `bytes` bytes from offset 0 to offset 0.
    Buffer {
        /// Bytes (the buffers' Width).
        bytes: u64,
    },
    /// One texture subresource.
    Texture(CopyPlan),
}

// ---------------------------------------------------------------------------------------
// Helpers.

/// Message IDs of one side of CopyTextureRegion.
struct Ids {
    name: &'static str,
    ty: MessageId,
    dimension: MessageId,
    resource: MessageId,
    subresource: MessageId,
    unrecognized_format: MessageId,
    format: MessageId,
    dimensions: MessageId,
    row_pitch: MessageId,
    placement: MessageId,
    ds_format: MessageId,
}

const DST: Ids = Ids {
    name: "destination",
    ty: msg::COPYTEXTUREREGION_UNRECOGNIZEDDSTTYPE,
    dimension: msg::COPYTEXTUREREGION_INVALIDDSTRESOURCEDIMENSION,
    resource: msg::COPYTEXTUREREGION_INVALIDDSTRESOURCE,
    subresource: msg::COPYTEXTUREREGION_INVALIDDSTSUBRESOURCE,
    unrecognized_format: msg::COPYTEXTUREREGION_UNRECOGNIZEDDSTFORMAT,
    format: msg::COPYTEXTUREREGION_INVALIDDSTFORMAT,
    dimensions: msg::COPYTEXTUREREGION_INVALIDDSTDIMENSIONS,
    row_pitch: msg::COPYTEXTUREREGION_INVALIDDSTROWPITCH,
    placement: msg::COPYTEXTUREREGION_INVALIDDSTPLACEMENT,
    ds_format: msg::COPYTEXTUREREGION_INVALIDDSTDSPLACEDFOOTPRINTFORMAT,
};

const SRC: Ids = Ids {
    name: "source",
    ty: msg::COPYTEXTUREREGION_UNRECOGNIZEDSRCTYPE,
    dimension: msg::COPYTEXTUREREGION_INVALIDSRCRESOURCEDIMENSION,
    resource: msg::COPYTEXTUREREGION_INVALIDSRCRESOURCE,
    subresource: msg::COPYTEXTUREREGION_INVALIDSRCSUBRESOURCE,
    unrecognized_format: msg::COPYTEXTUREREGION_UNRECOGNIZEDSRCFORMAT,
    format: msg::COPYTEXTUREREGION_INVALIDSRCFORMAT,
    dimensions: msg::COPYTEXTUREREGION_INVALIDSRCDIMENSIONS,
    row_pitch: msg::COPYTEXTUREREGION_INVALIDSRCROWPITCH,
    placement: msg::COPYTEXTUREREGION_INVALIDSRCPLACEMENT,
    ds_format: msg::COPYTEXTUREREGION_INVALIDSRCDSPLACEDFOOTPRINTFORMAT,
};

fn err(id: MessageId, text: String) -> Violation {
    Violation::new(id, text)
}

fn is_buffer(desc: &D3D12_RESOURCE_DESC1) -> bool {
    desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER
}

#[inline]
fn div_ceil(v: u32, d: u32) -> u32 {
    v.div_ceil(d)
}

/// Bytes of one copy element of a (non-planar) format: a BC block, or a block_width ×
/// block_height group of texels (1 texel for ordinary formats).
fn element_bytes(i: &FormatInfo) -> u32 {
    if i.is_block_compressed() {
        i.bits_per_element as u32 / 8
    } else {
        i.bits_per_element as u32 * i.block_width as u32 * i.block_height as u32 / 8
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reinterpret {
    Bits64,
    Bits128,
    SharedExp,
}

/// The block-size equivalence class of a format: (class, is the compressed /
/// shared-exponent side).
fn reinterpret_class(i: &FormatInfo) -> Option<(Reinterpret, bool)> {
    let g = i.cast_group;
    if g == sys::DXGI_FORMAT_BC1_TYPELESS || g == sys::DXGI_FORMAT_BC4_TYPELESS {
        Some((Reinterpret::Bits64, true))
    } else if g == sys::DXGI_FORMAT_BC2_TYPELESS
        || g == sys::DXGI_FORMAT_BC3_TYPELESS
        || g == sys::DXGI_FORMAT_BC5_TYPELESS
        || g == sys::DXGI_FORMAT_BC6H_TYPELESS
        || g == sys::DXGI_FORMAT_BC7_TYPELESS
    {
        Some((Reinterpret::Bits128, true))
    } else if g == sys::DXGI_FORMAT_R16G16B16A16_TYPELESS || g == sys::DXGI_FORMAT_R32G32_TYPELESS {
        Some((Reinterpret::Bits64, false))
    } else if g == sys::DXGI_FORMAT_R32G32B32A32_TYPELESS {
        Some((Reinterpret::Bits128, false))
    } else if g == sys::DXGI_FORMAT_R9G9B9E5_SHAREDEXP {
        Some((Reinterpret::SharedExp, true))
    } else if g == sys::DXGI_FORMAT_R32_TYPELESS {
        Some((Reinterpret::SharedExp, false))
    } else {
        None
    }
}

/// Copy-compatible formats (§6.2): identical, same cast group, or a block-size
/// equivalence between a compressed (or shared-exponent) format and an uncompressed one.
pub fn formats_compatible(a: DXGI_FORMAT, b: DXGI_FORMAT) -> bool {
    if a == b || format::same_cast_group(a, b) {
        return true;
    }
    let (Some(x), Some(y)) = (format::info(a), format::info(b)) else { return false };
    match (reinterpret_class(x), reinterpret_class(y)) {
        (Some((cx, px)), Some((cy, py))) => cx == cy && px != py,
        _ => false,
    }
}

/// One side of CopyTextureRegion after its location checks.
#[derive(Clone, Copy)]
struct Resolved {
    /// Element format (never planar).
    elem: &'static FormatInfo,
    /// Texel extents of the subresource / footprint (block aligned for textures).
    w: u32,
    h: u32,
    d: u32,
    offset: u64,
    row_pitch: u64,
    slice_pitch: u64,
    subresource: Option<u32>,
    sample_stride: u64,
    /// The texture's plane (0 for footprints).
    plane: u32,
    /// Textures: the resource format; footprints: the footprint format.
    format: DXGI_FORMAT,
    /// A footprint whose format is planar, not yet resolved to a plane.
    planar: Option<(&'static FormatInfo, D3D12_PLACED_SUBRESOURCE_FOOTPRINT)>,
}

impl Resolved {
    fn block(&self) -> (u32, u32) {
        (self.elem.block_width as u32, self.elem.block_height as u32)
    }

    /// Extents in elements (rounded up).
    fn elements(&self) -> (u32, u32, u32) {
        let (bw, bh) = self.block();
        (div_ceil(self.w, bw), div_ceil(self.h, bh), self.d)
    }
}

/// Tight-layout view of texture subresource `sub`.
fn texture_side(desc: &D3D12_RESOURCE_DESC1, sub: u32) -> Option<Resolved> {
    let l = allocation::subresource_layout_full(desc, sub)?;
    let fp = l.footprint.footprint;
    let elem = format::info(fp.Format)?;
    let sample_stride = if desc.SampleDesc.Count > 1 { allocation::msaa_sample_stride(desc)? } else { 0 };
    Some(Resolved {
        elem,
        w: fp.Width,
        h: fp.Height,
        d: fp.Depth,
        offset: l.offset,
        row_pitch: fp.RowPitch as u64,
        slice_pitch: fp.RowPitch as u64 * l.footprint.num_rows as u64,
        subresource: Some(sub),
        sample_stride,
        plane: crate::subresource::decompose(desc, sub).plane,
        format: desc.Format,
        planar: None,
    })
}

/// Plane `plane` of a placed footprint with a planar format: planes follow each other,
/// each `RowPitch × rows` bytes.
fn footprint_plane(info: &'static FormatInfo, pf: &D3D12_PLACED_SUBRESOURCE_FOOTPRINT, plane: u32) -> Option<Resolved> {
    let layouts = info.plane_layouts();
    let p = layouts.get(plane as usize)?;
    let elem = format::info(p.format)?;
    let f = &pf.Footprint;
    let pitch = f.RowPitch as u64;
    let mut offset = pf.Offset;
    for q in &layouts[..plane as usize] {
        offset = offset.checked_add(pitch * div_ceil(f.Height, q.height_div as u32) as u64)?;
    }
    let h = div_ceil(f.Height, p.height_div as u32);
    Some(Resolved {
        elem,
        w: div_ceil(f.Width, p.width_div as u32),
        h,
        d: f.Depth,
        offset,
        row_pitch: pitch,
        slice_pitch: pitch * h as u64,
        subresource: None,
        sample_stride: 0,
        plane: 0,
        format: f.Format,
        planar: None,
    })
}

/// Placed-footprint rules 1–7 of §6.2 against a buffer of `buffer_width` bytes.
fn footprint_side(
    buffer_width: u64,
    pf: &D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    ids: &Ids,
    caps: &Caps,
) -> Result<Resolved, Violation> {
    let f = &pf.Footprint;
    let n = ids.name;
    // 1. Placement alignment.
    let placement = sys::D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT as u64;
    if !pf.Offset.is_multiple_of(placement) {
        return Err(err(
            ids.placement,
            format!(
                "CopyTextureRegion: the {n} placed footprint Offset {} must be a multiple of {placement} \
                 (D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT).",
                pf.Offset
            ),
        ));
    }
    // 2. Format.
    let Some(info) = format::info(f.Format) else {
        return Err(err(
            ids.unrecognized_format,
            format!("CopyTextureRegion: the {n} placed footprint Format {} is not recognized.", f.Format.0),
        ));
    };
    if f.Format == sys::DXGI_FORMAT_UNKNOWN || !format::adapter_supports(info, caps) {
        return Err(err(
            ids.format,
            format!("CopyTextureRegion: the {n} placed footprint Format {} is not supported.", info.name),
        ));
    }
    if info.cast_group == sys::DXGI_FORMAT_R32G8X24_TYPELESS || info.cast_group == sys::DXGI_FORMAT_R24G8_TYPELESS {
        return Err(err(
            ids.ds_format,
            format!(
                "CopyTextureRegion: the {n} placed footprint Format {} is a depth-stencil format; copy each plane with \
                 R32_TYPELESS (depth) or R8_TYPELESS (stencil).",
                info.name
            ),
        ));
    }
    let dims_err = |why: &str| {
        err(
            ids.dimensions,
            format!(
                "CopyTextureRegion: the {n} placed footprint {}×{}×{} ({}) is invalid: {why}.",
                f.Width, f.Height, f.Depth, info.name
            ),
        )
    };
    // 5. Non-zero extents.
    if f.Width == 0 || f.Height == 0 || f.Depth == 0 {
        return Err(dims_err("Width, Height and Depth must be at least 1"));
    }
    // 3. Implied dimension and its limits.
    let class = info.class_support1;
    let (need, max_wh, max_d, dim) = if f.Depth > 1 {
        (s1::TEXTURE3D, sys::D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION, sys::D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION, "3D")
    } else if f.Height == 1 && class & s1::TEXTURE1D != 0 {
        (s1::TEXTURE1D, sys::D3D12_REQ_TEXTURE1D_U_DIMENSION, 1, "1D")
    } else {
        (s1::TEXTURE2D, sys::D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION, 1, "2D")
    };
    if class & need == 0 {
        return Err(dims_err(&format!("the format does not support {dim} textures")));
    }
    if f.Width > max_wh || f.Height > max_wh || f.Depth > max_d {
        return Err(dims_err(&format!("the {dim} size limit is {max_wh}")));
    }
    // 4. Block multiples. Footprints are always whole blocks, also on devices with
    // UnalignedBlockTexturesSupported: that capability frees the texture's extents, and
    // GetCopyableFootprints still reports them rounded up to blocks.
    let (bw, bh) = (info.block_width as u32, info.block_height as u32);
    if !(f.Width.is_multiple_of(bw) && f.Height.is_multiple_of(bh)) {
        return Err(dims_err(&format!("Width and Height must be multiples of {bw} and {bh}")));
    }
    // 6. Row pitch.
    let row_bytes = info.min_row_bytes(f.Width as u64);
    let pitch = f.RowPitch as u64;
    let pitch_align = sys::D3D12_TEXTURE_DATA_PITCH_ALIGNMENT as u64;
    if pitch < row_bytes || !pitch.is_multiple_of(pitch_align) {
        return Err(err(
            ids.row_pitch,
            format!(
                "CopyTextureRegion: the {n} placed footprint RowPitch {pitch} must be a multiple of {pitch_align} \
                 (D3D12_TEXTURE_DATA_PITCH_ALIGNMENT) and at least the row size {row_bytes}."
            ),
        ));
    }
    // 7. Buffer bound: Offset + RowPitch × (rows × Depth − 1) + rowBytes ≤ Width.
    let rows: u64 = if info.is_planar() {
        info.plane_layouts().iter().map(|p| div_ceil(f.Height, p.height_div as u32) as u64).sum()
    } else {
        div_ceil(f.Height, bh) as u64
    };
    let end = (rows * f.Depth as u64 - 1)
        .checked_mul(pitch)
        .and_then(|v| v.checked_add(row_bytes))
        .and_then(|v| v.checked_add(pf.Offset));
    match end {
        Some(e) if e <= buffer_width => {}
        _ => {
            return Err(err(
                ids.placement,
                format!(
                    "CopyTextureRegion: the {n} placed footprint ({}x{}x{} {}, RowPitch {pitch}) needs {} bytes \
                     of the buffer (Offset {} + RowPitch {pitch} × ({rows} rows × Depth {} − 1) + {row_bytes} \
                     bytes of the last row), but the buffer Width is {buffer_width}.",
                    f.Width,
                    f.Height,
                    f.Depth,
                    crate::format::name(f.Format).unwrap_or("UNKNOWN"),
                    end.map_or_else(|| "more than 2^64".to_string(), |e| e.to_string()),
                    pf.Offset,
                    f.Depth
                ),
            ));
        }
    }
    if info.is_planar() {
        // Resolved to a plane once the other side is known.
        let mut r = footprint_plane(info, pf, 0).ok_or_else(|| dims_err("planar layout"))?;
        r.planar = Some((info, *pf));
        r.format = f.Format;
        return Ok(r);
    }
    Ok(Resolved {
        elem: info,
        w: f.Width,
        h: f.Height,
        d: f.Depth,
        offset: pf.Offset,
        row_pitch: pitch,
        slice_pitch: pitch * div_ceil(f.Height, bh) as u64,
        subresource: None,
        sample_stride: 0,
        plane: 0,
        format: f.Format,
        planar: None,
    })
}

/// Location checks of one CopyTextureRegion side.
fn resolve(side: &Side<'_>, ids: &Ids, caps: &Caps) -> Result<Resolved, Violation> {
    let n = ids.name;
    match side.location {
        Location::Whole | Location::InvalidType(_) => {
            Err(err(ids.ty, format!("CopyTextureRegion: the {n} D3D12_TEXTURE_COPY_LOCATION Type is not recognized.")))
        }
        Location::Subresource(i) => {
            if is_buffer(side.desc) {
                return Err(err(
                    ids.dimension,
                    format!(
                        "CopyTextureRegion: the {n} is a buffer, which needs a PLACED_FOOTPRINT location, not \
                         SUBRESOURCE_INDEX."
                    ),
                ));
            }
            let bad = || {
                err(
                    ids.subresource,
                    format!(
                        "CopyTextureRegion: the {n} SubresourceIndex {i} is out of range (the resource has {} \
                         subresources).",
                        side.subresource_count
                    ),
                )
            };
            if i >= side.subresource_count {
                return Err(bad());
            }
            texture_side(side.desc, i).ok_or_else(bad)
        }
        Location::Footprint(pf) => {
            if !is_buffer(side.desc) {
                return Err(err(
                    ids.dimension,
                    format!(
                        "CopyTextureRegion: the {n} is a texture, which needs a SUBRESOURCE_INDEX location, not \
                         PLACED_FOOTPRINT."
                    ),
                ));
            }
            footprint_side(side.desc.Width, &pf, ids, caps)
        }
    }
}

/// Resolves planar footprints to the plane the other side copies and returns whether
/// the two sides' formats are compatible.
fn pair(d: &mut Resolved, s: &mut Resolved) -> bool {
    fn with_plane(r: &mut Resolved, plane: u32) -> bool {
        if let Some((info, pf)) = r.planar {
            match footprint_plane(info, &pf, plane) {
                Some(p) => *r = p,
                None => return false,
            }
        }
        true
    }
    // Texture ↔ footprint: the footprint names either the plane's format or (planar
    // footprint formats) the texture's own format.
    fn texture_footprint(t: &Resolved, f: &mut Resolved) -> bool {
        if f.planar.is_some() {
            with_plane(f, t.plane) && formats_compatible(f.format, t.format)
        } else {
            formats_compatible(f.format, t.elem.format)
        }
    }
    // Texture ↔ texture: compatible resource formats copy plane to same plane; a plane of
    // a depth-stencil texture also copies to and from a single-plane texture of its plane's
    // format family (depth R32/R16 … ↔ R32_FLOAT, R32_UINT …; stencil ↔ R8_UINT …), the
    // same formats its placed footprints take (Planar Depth Stencil spec).
    fn texture_texture(d: &Resolved, s: &Resolved) -> bool {
        let ds_plane = |r: &Resolved| format::info(r.format).is_some_and(|i| i.is_planar() && i.is_depth_stencil());
        if formats_compatible(d.format, s.format) {
            d.plane == s.plane
        } else {
            ds_plane(d) != ds_plane(s) && formats_compatible(d.elem.format, s.elem.format)
        }
    }
    let ok = match (d.subresource.is_some(), s.subresource.is_some()) {
        (true, true) => texture_texture(d, s),
        (true, false) => texture_footprint(d, s),
        (false, true) => texture_footprint(s, d),
        (false, false) => with_plane(d, 0) && with_plane(s, 0) && formats_compatible(d.format, s.format),
    };
    ok && element_bytes(d.elem) == element_bytes(s.elem)
}

fn reference_only_flags(dst: &D3D12_RESOURCE_DESC1, src: &D3D12_RESOURCE_DESC1) -> Result<(), Violation> {
    let diff = dst.Flags.0 ^ src.Flags.0;
    if diff & sys::D3D12_RESOURCE_FLAG_VIDEO_DECODE_REFERENCE_ONLY.0 != 0 {
        return Err(err(
            msg::COPYTEXTUREREGION_MISMATCH_DECODE_REFERENCE_ONLY_FLAG,
            "CopyTextureRegion: D3D12_RESOURCE_FLAG_VIDEO_DECODE_REFERENCE_ONLY must match on both resources."
                .to_string(),
        ));
    }
    if diff & sys::D3D12_RESOURCE_FLAG_VIDEO_ENCODE_REFERENCE_ONLY.0 != 0 {
        return Err(err(
            msg::COPYTEXTUREREGION_MISMATCH_ENCODE_REFERENCE_ONLY_FLAG,
            "CopyTextureRegion: D3D12_RESOURCE_FLAG_VIDEO_ENCODE_REFERENCE_ONLY must match on both resources."
                .to_string(),
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// CopyTextureRegion.

/// CopyTextureRegion(pDst, DstX, DstY, DstZ, pSrc, pSrcBox) (§6.2). NULL locations are
/// the caller's check (#846/#859). `Ok(None)`: an empty source box — a well-defined
/// no-op for which the debug layer reports #875 COPYTEXTUREREGION_EMPTYBOX.
///
/// Checks, in order: each side's location (type #847/#860; SUBRESOURCE_INDEX on a buffer
/// or PLACED_FOOTPRINT on a texture #848/#861; subresource range #850/#863; placed
/// footprint rules 1–7 #852–#857 / #865–#870); source on a READBACK heap #862,
/// destination on an UPLOAD heap #849; sample count and quality equal (#849); video
/// reference-only flags equal (#1097/#1303); DstX/DstY multiples of the destination's
/// block size (#872); the box (empty → no-op; block aligned #873; inside the source
/// #871); formats compatible (#874); destination region inside the destination (#858);
/// depth-stencil or MSAA copies whole-subresource (#862 / #872 / #873). Copying a
/// subresource onto itself is only a warning (#998) in [`CopyPlan::warnings`].
///
/// Coordinates and the box are in texels of the (plane of the) subresource or footprint;
/// block-compressed extents are block aligned (a 2×2 BC mip is 4×4 texels, one block).
pub fn copy_texture_region(
    dst: &Side<'_>,
    dst_x: u32,
    dst_y: u32,
    dst_z: u32,
    src: &Side<'_>,
    src_box: Option<&D3D12_BOX>,
    caps: &Caps,
) -> Result<Option<CopyPlan>, Violation> {
    let mut d = resolve(dst, &DST, caps)?;
    let mut s = resolve(src, &SRC, caps)?;
    if src.heap == HeapKind::Readback {
        return Err(err(
            SRC.resource,
            "CopyTextureRegion: the source resource is on a READBACK heap, which can't be a copy source.".to_string(),
        ));
    }
    if dst.heap == HeapKind::Upload {
        return Err(err(
            DST.resource,
            "CopyTextureRegion: the destination resource is on an UPLOAD heap, which can't be written by the GPU."
                .to_string(),
        ));
    }
    let (dsd, ssd) = (dst.desc.SampleDesc, src.desc.SampleDesc);
    if dsd.Count != ssd.Count || dsd.Quality != ssd.Quality {
        return Err(err(
            DST.resource,
            format!(
                "CopyTextureRegion: the MSAA properties of source ({}, {}) and destination ({}, {}) must match.",
                ssd.Count, ssd.Quality, dsd.Count, dsd.Quality
            ),
        ));
    }
    reference_only_flags(dst.desc, src.desc)?;
    let formats_ok = pair(&mut d, &mut s);

    let (dbw, dbh) = d.block();
    if !dst_x.is_multiple_of(dbw) || !dst_y.is_multiple_of(dbh) {
        return Err(err(
            msg::COPYTEXTUREREGION_INVALIDDSTCOORDINATES,
            format!(
                "CopyTextureRegion: DstX {dst_x} and DstY {dst_y} must be multiples of the destination format's block \
                 size {dbw}×{dbh}."
            ),
        ));
    }

    let (sbw, sbh) = s.block();
    let whole = D3D12_BOX {
        left: 0,
        top: 0,
        front: 0,
        right: s.w.next_multiple_of(sbw),
        bottom: s.h.next_multiple_of(sbh),
        back: s.d,
    };
    let (bx, box_whole) = match src_box {
        None => (whole, true),
        Some(b) => {
            if b.right <= b.left || b.bottom <= b.top || b.back <= b.front {
                return Ok(None);
            }
            if !b.left.is_multiple_of(sbw)
                || !b.right.is_multiple_of(sbw)
                || !b.top.is_multiple_of(sbh)
                || !b.bottom.is_multiple_of(sbh)
            {
                return Err(err(
                    msg::COPYTEXTUREREGION_INVALIDSRCBOX,
                    format!(
                        "CopyTextureRegion: pSrcBox ({}, {}, {})–({}, {}, {}) must be aligned to the source format's \
                         block size {sbw}×{sbh}.",
                        b.left, b.top, b.front, b.right, b.bottom, b.back
                    ),
                ));
            }
            if b.right > whole.right || b.bottom > whole.bottom || b.back > whole.back {
                return Err(err(
                    msg::COPYTEXTUREREGION_SRCREGIONOUTOFBOUNDS,
                    format!(
                        "CopyTextureRegion: pSrcBox ({}, {}, {})–({}, {}, {}) extends past the source ({}×{}×{}).",
                        b.left, b.top, b.front, b.right, b.bottom, b.back, whole.right, whole.bottom, whole.back
                    ),
                ));
            }
            let w =
                (b.left, b.top, b.front, b.right, b.bottom, b.back) == (0, 0, 0, whole.right, whole.bottom, whole.back);
            (*b, w)
        }
    };

    if !formats_ok {
        return Err(err(
            msg::COPYTEXTUREREGION_FORMATMISMATCH,
            format!(
                "CopyTextureRegion: the source format {} and the destination format {} are not copy-compatible.",
                format::name(s.format).unwrap_or("?"),
                format::name(d.format).unwrap_or("?")
            ),
        ));
    }

    let extent = ((bx.right - bx.left) / sbw, (bx.bottom - bx.top) / sbh, bx.back - bx.front);
    let s_origin = (bx.left / sbw, bx.top / sbh, bx.front);
    let d_origin = (dst_x / dbw, dst_y / dbh, dst_z);
    let d_ext = d.elements();
    let fits = |o: u32, e: u32, lim: u32| o as u64 + e as u64 <= lim as u64;
    if !(fits(d_origin.0, extent.0, d_ext.0)
        && fits(d_origin.1, extent.1, d_ext.1)
        && fits(d_origin.2, extent.2, d_ext.2))
    {
        return Err(err(
            msg::COPYTEXTUREREGION_DSTREGIONOUTOFBOUNDS,
            format!(
                "CopyTextureRegion: the destination region at ({dst_x}, {dst_y}, {dst_z}) of {}×{}×{} elements \
                 extends past the destination ({}×{}×{} elements).",
                extent.0, extent.1, extent.2, d_ext.0, d_ext.1, d_ext.2
            ),
        ));
    }

    // Whole subresources only, unless the device supports programmable sample positions: the
    // runtime skips this rule when OPTIONS2.ProgrammableSamplePositionsTier is non-zero
    // (commands-and-sync.md §6; the Programmable Sample Positions spec's partial depth-stencil
    // copies).
    let depth_stencil = (dst.desc.Flags.0 | src.desc.Flags.0) & sys::D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL.0 != 0;
    if (depth_stencil || dsd.Count > 1) && caps.programmable_sample_positions_tier == 0 {
        let what = if depth_stencil { "depth-stencil" } else { "multisampled" };
        if s.elements() != d_ext {
            return Err(err(
                SRC.resource,
                format!("CopyTextureRegion: {what} copies must copy whole subresources of equal size."),
            ));
        }
        if (dst_x, dst_y, dst_z) != (0, 0, 0) {
            return Err(err(
                msg::COPYTEXTUREREGION_INVALIDDSTCOORDINATES,
                format!("CopyTextureRegion: {what} copies need DstX = DstY = DstZ = 0."),
            ));
        }
        if !box_whole {
            return Err(err(
                msg::COPYTEXTUREREGION_INVALIDSRCBOX,
                format!("CopyTextureRegion: {what} copies need a NULL pSrcBox or one covering the whole subresource."),
            ));
        }
    }

    let mut warnings = Vec::new();
    if dst.same_resource(src) && d.subresource.is_some() && d.subresource == s.subresource {
        warnings.push(err(
            msg::COPY_ON_SAME_SUBRESOURCE,
            format!(
                "CopyTextureRegion: source and destination are the same subresource {}; the result is undefined.",
                d.subresource.unwrap_or_default()
            ),
        ));
    }
    Ok(Some(plan(&d, d_origin, &s, s_origin, extent, dsd.Count.max(1), warnings)))
}

fn plan(
    d: &Resolved,
    d_origin: (u32, u32, u32),
    s: &Resolved,
    s_origin: (u32, u32, u32),
    extent: (u32, u32, u32),
    samples: u32,
    warnings: Vec<Violation>,
) -> CopyPlan {
    let surface = |r: &Resolved, origin| Surface {
        offset: r.offset,
        row_pitch: r.row_pitch,
        slice_pitch: r.slice_pitch,
        subresource: r.subresource,
        origin,
        sample_stride: r.sample_stride,
    };
    let element_bytes = element_bytes(s.elem);
    let d24 = format::info(d.format).is_some_and(|i| i.cast_group == sys::DXGI_FORMAT_R24G8_TYPELESS);
    CopyPlan {
        zero_x8: d24 && d.plane == 0 && d.subresource.is_some(),
        dst: surface(d, d_origin),
        src: surface(s, s_origin),
        element_bytes,
        extent,
        row_bytes: extent.0 as u64 * element_bytes as u64,
        samples,
        warnings,
    }
}

// ---------------------------------------------------------------------------------------
// CopyBufferRegion.

/// CopyBufferRegion(pDst, DstOffset, pSrc, SrcOffset, NumBytes) (§6.1). NULL resources
/// are the caller's check (#839/#842); the sides' locations are ignored. Returns
/// `(dst_offset, src_offset, num_bytes)`, or `Ok(None)` for NumBytes 0 (no-op).
///
/// Errors: either side not a buffer (#840/#843); DstOffset + NumBytes > dst Width (#841)
/// or SrcOffset + NumBytes > src Width (#844); the destination on an UPLOAD heap (REC: it
/// can never be in COPY_DEST; reported as #538 INVALID_SUBRESOURCE_STATE). READBACK
/// buffers may be read. Overlapping ranges of one buffer are undefined but not rejected:
/// [`buffer_copy_overlap`] gives the debug-layer warning (execute the copy as a memmove).
pub fn copy_buffer_region(
    dst: &Side<'_>,
    dst_offset: u64,
    src: &Side<'_>,
    src_offset: u64,
    num_bytes: u64,
) -> Result<Option<(u64, u64, u64)>, Violation> {
    if !is_buffer(dst.desc) {
        return Err(err(
            msg::COPYBUFFERREGION_INVALIDDSTRESOURCEDIMENSION,
            "CopyBufferRegion: the destination must be a buffer.".to_string(),
        ));
    }
    if !is_buffer(src.desc) {
        return Err(err(
            msg::COPYBUFFERREGION_INVALIDSRCRESOURCEDIMENSION,
            "CopyBufferRegion: the source must be a buffer.".to_string(),
        ));
    }
    if dst.heap == HeapKind::Upload {
        return Err(err(
            msg::INVALID_SUBRESOURCE_STATE,
            "CopyBufferRegion: the destination is on an UPLOAD heap, which stays in GENERIC_READ and can't be a copy \
             destination."
                .to_string(),
        ));
    }
    if dst_offset.checked_add(num_bytes).is_none_or(|e| e > dst.desc.Width) {
        return Err(err(
            msg::COPYBUFFERREGION_DSTRANGEOUTOFBOUNDS,
            format!(
                "CopyBufferRegion: DstOffset {dst_offset} + NumBytes {num_bytes} exceeds the destination Width {}.",
                dst.desc.Width
            ),
        ));
    }
    if src_offset.checked_add(num_bytes).is_none_or(|e| e > src.desc.Width) {
        return Err(err(
            msg::COPYBUFFERREGION_SRCRANGEOUTOFBOUNDS,
            format!(
                "CopyBufferRegion: SrcOffset {src_offset} + NumBytes {num_bytes} exceeds the source Width {}.",
                src.desc.Width
            ),
        ));
    }
    if num_bytes == 0 {
        return Ok(None);
    }
    Ok(Some((dst_offset, src_offset, num_bytes)))
}

/// The debug-layer warning (#998 COPY_ON_SAME_SUBRESOURCE) for a CopyBufferRegion whose
/// source and destination ranges overlap in one buffer; `None` otherwise.
pub fn buffer_copy_overlap(
    dst: &Side<'_>,
    dst_offset: u64,
    src: &Side<'_>,
    src_offset: u64,
    num_bytes: u64,
) -> Option<Violation> {
    let overlap = num_bytes != 0
        && dst.same_resource(src)
        && dst_offset < src_offset.saturating_add(num_bytes)
        && src_offset < dst_offset.saturating_add(num_bytes);
    overlap.then(|| {
        err(
            msg::COPY_ON_SAME_SUBRESOURCE,
            format!(
                "CopyBufferRegion: the ranges [{dst_offset}, +{num_bytes}) and [{src_offset}, +{num_bytes}) of the same \
                 buffer overlap; the result is undefined."
            ),
        )
    })
}

// ---------------------------------------------------------------------------------------
// CopyResource.

/// Windows' first CopyResource rule for textures (its debug text, e.g.
/// DirectX-Graphics-Samples#344): the resources' sizes in bytes must be equal, so formats of
/// different texel sizes fail here. Windows' runtime records such a copy and Close succeeds
/// (issue #16: only its debug layer reports it), so the caller reports this finding and
/// records nothing, where [`copy_resource`]'s other failures fail the list.
pub fn copy_resource_size_mismatch(dst: &Side<'_>, src: &Side<'_>) -> Option<Violation> {
    let (dd, sd) = (dst.desc, src.desc);
    if is_buffer(dd) || is_buffer(sd) || dd.Dimension != sd.Dimension || dd.SampleDesc.Count != sd.SampleDesc.Count {
        return None;
    }
    let bytes = |d: &D3D12_RESOURCE_DESC1| {
        allocation::layout_bytes(d).and_then(|b| b.checked_mul(d.SampleDesc.Count.max(1) as u64))
    };
    let (sb, db) = (bytes(sd), bytes(dd));
    (sb != db).then(|| {
        let show = |b: Option<u64>| b.map_or_else(|| "-1".to_string(), |b| b.to_string());
        err(
            msg::COPYRESOURCE_INVALIDDSTRESOURCE,
            format!(
                "CopyResource: Source and Destination resource must have the same size. But pSrcResource has resource \
                 size ({}) and pDstResource has resource size ({}).",
                show(sb),
                show(db)
            ),
        )
    })
}

/// CopyResource(pDst, pSrc) (§6.3). NULL resources and `dst` and `src` being the same
/// resource are the caller's checks (#943/#945, #944/#946); the sides' locations are
/// ignored. Every failure is #944 COPYRESOURCE_INVALIDDSTRESOURCE: different dimensions;
/// the destination on an UPLOAD heap; buffers of different Width; textures with
/// different sample count/quality, different sizes in bytes (formats of different texel
/// sizes), incompatible formats, different mip levels or array size, or different extents
/// (for a block-size reinterpretation such as BC1 ↔ R16G16B16A16 the extents compare in
/// elements: a 64×64 BC1 texture ↔ 16×16 texels).
/// Depth-stencil resources are allowed. Returns one whole-buffer copy for buffers, one
/// plan per subresource (in subresource order) for textures. `caps` is accepted for
/// symmetry with [`copy_texture_region`]; no CopyResource rule depends on it today.
pub fn copy_resource(dst: &Side<'_>, src: &Side<'_>, caps: &Caps) -> Result<Vec<ResourceCopy>, Violation> {
    let _ = caps;
    let e = |m: String| err(msg::COPYRESOURCE_INVALIDDSTRESOURCE, format!("CopyResource: {m}"));
    let (dd, sd) = (dst.desc, src.desc);
    if dd.Dimension != sd.Dimension {
        return Err(e(format!(
            "source and destination must have the same dimension ({} vs {}).",
            sd.Dimension.0, dd.Dimension.0
        )));
    }
    if dst.heap == HeapKind::Upload {
        return Err(e("the destination is on an UPLOAD heap, which can't be a copy destination.".to_string()));
    }
    if is_buffer(dd) {
        if dd.Width != sd.Width {
            return Err(e(format!(
                "source and destination must have the same size, but the source has {} bytes and the destination {}.",
                sd.Width, dd.Width
            )));
        }
        return Ok(vec![ResourceCopy::Buffer { bytes: dd.Width }]);
    }
    if dd.SampleDesc.Count != sd.SampleDesc.Count || dd.SampleDesc.Quality != sd.SampleDesc.Quality {
        return Err(e("source and destination must have the same sample count and quality.".to_string()));
    }
    if let Some(v) = copy_resource_size_mismatch(dst, src) {
        return Err(v);
    }
    if !formats_compatible(dd.Format, sd.Format) {
        return Err(e(format!(
            "the formats {} and {} are not copy-compatible.",
            format::name(sd.Format).unwrap_or("?"),
            format::name(dd.Format).unwrap_or("?")
        )));
    }
    let mips = crate::subresource::mip_levels(dd);
    if mips != crate::subresource::mip_levels(sd)
        || crate::subresource::array_size(dd) != crate::subresource::array_size(sd)
        || dst.subresource_count != src.subresource_count
    {
        return Err(e("source and destination must have the same mip levels and array size.".to_string()));
    }
    let (Some(di), Some(si)) = (format::info(dd.Format), format::info(sd.Format)) else {
        return Err(e("unknown format.".to_string()));
    };
    let top = |desc: &D3D12_RESOURCE_DESC1, i: &FormatInfo| {
        (
            (desc.Width.div_ceil(i.block_width as u64)),
            desc.Height.div_ceil(i.block_height as u32),
            desc.DepthOrArraySize,
        )
    };
    if top(dd, di) != top(sd, si) {
        return Err(e(format!(
            "the dimensions of the source ({}×{}×{}) and the destination ({}×{}×{}) do not match.",
            sd.Width, sd.Height, sd.DepthOrArraySize, dd.Width, dd.Height, dd.DepthOrArraySize
        )));
    }
    let samples = dd.SampleDesc.Count.max(1);
    let mut ops = Vec::with_capacity(dst.subresource_count as usize);
    for i in 0..dst.subresource_count {
        let (Some(d), Some(s)) = (texture_side(dd, i), texture_side(sd, i)) else {
            return Err(e(format!("subresource {i} has no layout.")));
        };
        let ext = s.elements();
        if ext != d.elements() || element_bytes(d.elem) != element_bytes(s.elem) {
            return Err(e(format!("subresource {i} has different extents on the source and the destination.")));
        }
        ops.push(ResourceCopy::Texture(plan(&d, (0, 0, 0), &s, (0, 0, 0), ext, samples, Vec::new())));
    }
    Ok(ops)
}

#[cfg(test)]
mod tests;
