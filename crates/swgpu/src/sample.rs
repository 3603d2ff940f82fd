//! Texture sampling and texel loads as Direct3D defines them, for the CPU backend's shaders
//! (`Sample*`, `SampleCmp*`, `Gather*`, `Load`).
//!
//! The memory a texture lives in is abstracted by [`Texels`] (one decoded texel per call);
//! [`MemoryTexels`] implements it over [`ReadBytes`](crate::bytes::ReadBytes) (memory that other
//! threads may write: each element is copied out, never borrowed) with per-subresource layouts
//! through [`rd3d12_core::pack::decode_color`]. A [`View`] picks the mips and array slices a SRV
//! covers, a [`Sampler`] is the parsed sampler state, and [`sample`], [`gather`] and [`load`] do
//! the work.
//!
//! The rules (D3D11.3 functional spec §7.18 "Texture Sampling", §3.3.3 "Texture Coordinate
//! Interpretation", and the `sample*` / `gather4*` / `ld` instruction pages, which D3D12 keeps):
//! - texel centers lie at half-integers: point sampling takes texel `floor(u·size)`, linear
//!   sampling the texels `floor(u·size − 0.5)` and the next one, weighted by the fraction; the
//!   scaled coordinate is first snapped to 8 fractional bits (D3D12_SUBTEXEL_FRACTIONAL_BIT_COUNT),
//!   rounding to nearest even as the reference float-to-fixed conversion does (§3.2.4.1);
//! - before scaling, the coordinate's range is reduced as the address mode allows (`frac` for
//!   WRAP, into (−2, 2) for MIRROR, a clamp to [−10, 10] otherwise), which changes no result but
//!   keeps the integer texel addresses small;
//! - address modes act per axis on integer texel addresses that fall outside the mip: WRAP,
//!   MIRROR, CLAMP, BORDER (the texel becomes the border color, reduced to the components and
//!   range of the format by [`Texels::border`]) and MIRROR_ONCE;
//! - immediate offsets (`aoffimmi`, −8..7) are added in texel space, never along the array axis;
//!   cubes take none;
//! - the LOD is `log2(max(|ddx|, |ddy|))` of the derivatives scaled to texels of the view's most
//!   detailed mip (the isotropic formula), plus MipLODBias and the shader's bias, clamped as
//!   `max(MinLOD, min(MaxLOD, lod))`, then by the shader's clamp and the view's
//!   ResourceMinLODClamp (which counts in the resource's mips); LOD ≤ 0 magnifies (MinLOD/MaxLOD
//!   clamping before that decision: the spec leaves the order undefined); when the shader's clamp
//!   or ResourceMinLODClamp lies past the view's last mip no mip is left and the read returns 0
//!   in the format's components (§5.9.4.5.4);
//! - mip POINT takes mip `floor(lod + 0.5)`, mip LINEAR blends `floor(lod)` and the next by the
//!   fraction, the LOD snapped to 8 fractional bits, mips clamped to the view;
//! - ANISOTROPIC filters on 2D textures (arrays included) with derivatives use the spec's
//!   anisotropic LOD (the minor axis of the footprint, ratio clamped to MaxAnisotropy) and take
//!   `ceil(ratio)` trilinear taps spread evenly along the major axis, averaged (the spec leaves
//!   the tap pattern to implementations, so results match hardware only approximately); on
//!   other texture types and with explicit LODs they are trilinear, which the spec allows;
//! - comparison filtering compares the reference (quantized to the format by
//!   [`Texels::quantize_reference`]) against each tap's red component with ComparisonFunc,
//!   giving 1.0 or 0.0 per tap, then filters those; the result is replicated to all components;
//! - MINIMUM / MAXIMUM reduction returns the per-component minimum / maximum of the taps the
//!   standard filter would weight with a nonzero weight (over both mips for mip LINEAR);
//! - cubes: the face is the major axis (ties go to Z, then Y, then X), face coordinates are
//!   `(sc/|ma| + 1)/2, (tc/|ma| + 1)/2`; bilinear taps that fall off a face are read from the
//!   adjacent face, and at corners the missing fourth tap's weight is shared evenly by the three
//!   others (the spec's reference behaviour); address modes do not apply;
//! - array indices are rounded to the nearest integer (ties to even) and clamped to the view;
//! - `Gather` returns one component of the bilinear footprint's four texels from the view's most
//!   detailed mip (sampler address modes only); a cube corner's missing texel is the average of
//!   the other three (after comparison for `GatherCmp`);
//! - `Load` takes integer coordinates in the view's mip; anything outside the view returns 0 in
//!   the format's components and the (0, 0, 0, 1) defaults elsewhere;
//! - Shader4ComponentMapping is left to the caller ([`apply_mapping`] on the result).
//!
//! Block-compressed textures (BC1–BC7) are decoded by [`crate::bc`].

use rd3d12_sys as sys;
use rd3d12_sys::DXGI_FORMAT;

use crate::output_merger::compare;
use rd3d12_core::descriptor::{SamplerDesc, SamplerState, TextureRange};

/// Fractional bits of scaled texel coordinates and of the LOD (D3D12_SUBTEXEL_FRACTIONAL_BIT_COUNT,
/// D3D12_MIP_LOD_FRACTIONAL_BIT_COUNT).
const FRACTION_BITS: u32 = 8;

/// A texture's texels, independent of the memory holding them. Mips and array slices are the
/// resource's (absolute), not a view's.
pub trait Texels {
    /// Width, height and depth of mip `mip` (depth 1 unless 3D; height 1 for 1D).
    fn dims(&self, mip: u32) -> (u32, u32, u32);
    /// Mip levels.
    fn mips(&self) -> u32;
    /// Array slices (1 for 3D textures).
    fn array_size(&self) -> u32;
    /// The texel at (x, y) of depth slice or array slice `z` of mip `mip`, decoded as a shader
    /// reads it ([`rd3d12_core::pack::decode_color`]: normalized formats as floats, integer formats as
    /// the integer's value); `None` out of range or for formats without a decoder.
    fn fetch(&self, x: u32, y: u32, z: u32, mip: u32) -> Option<[f32; 4]>;
    /// The texel as the four 32-bit lanes a `Load` returns ([`rd3d12_core::pack::decode_lanes`]).
    fn fetch_lanes(&self, x: u32, y: u32, z: u32, mip: u32) -> Option<[u32; 4]> {
        self.fetch(x, y, z, mip).map(|c| c.map(f32::to_bits))
    }
    /// What a read out of range or of an empty LOD range returns, as values: 0 in the format's
    /// components, the (0, 0, 0, 1) defaults in the others.
    fn zero(&self) -> [f32; 4] {
        [0.0; 4]
    }
    /// What a `Load` out of range returns, as lanes ([`Texels::zero`] as a register holds it).
    fn zero_lanes(&self) -> [u32; 4] {
        self.zero().map(f32::to_bits)
    }
    /// The border color as filtering uses it: only the format's components, clamped to its
    /// range, the defaults elsewhere.
    fn border(&self, color: [f32; 4]) -> [f32; 4] {
        color
    }
    /// A comparison reference quantized to the format as depth is before a depth test (which
    /// includes the clamp to [0, 1] of UNORM formats).
    fn quantize_reference(&self, reference: f32) -> f32 {
        reference
    }
}

/// Where one subresource lies in a [`MemoryTexels`]' bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubresourceBytes {
    /// Byte offset of texel (0, 0, 0).
    pub offset: usize,
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Bytes from one depth slice to the next (3D); unused otherwise.
    pub depth_pitch: usize,
}

/// [`Texels`] over bytes in memory ([`crate::bytes::ReadBytes`]: a slice, or the backend's
/// device memory): the texels of `format` (the view's format) at the subresource layouts
/// given, subresource `mip + slice × mips` as D3D12 numbers them.
/// BC1–BC7 are decoded through [`crate::bc`] (rows are then rows of 4×4 blocks and `size` is
/// the mip-0 size in texels). Depth-stencil SRV formats (R24_UNORM_X8_TYPELESS,
/// R32_FLOAT_X8X24_TYPELESS, X24_TYPELESS_G8_UINT, X32_TYPELESS_G8X24_UINT) read the CPU layout's
/// depth or stencil plane: give the layouts of the plane the view reads. Video formats give no
/// texels (not decoded).
/// For a multisampled texture (`Load` of a Texture2DMS view) build one per sample: the CPU layout
/// stores whole single-sample copies, so sample `s` is these layouts over the bytes from
/// `s × allocation::msaa_sample_stride` on.
pub struct MemoryTexels<'a, B: ?Sized + crate::bytes::ReadBytes = [u8]> {
    /// The resource's bytes, read one element at a time (never as a slice: other threads may
    /// write them meanwhile).
    pub bytes: &'a B,
    /// The format texels are read as.
    pub format: DXGI_FORMAT,
    /// Width, height and depth of mip 0.
    pub size: (u32, u32, u32),
    /// Mip levels.
    pub mips: u32,
    /// Array slices (1 for 3D).
    pub array_size: u32,
    /// Layout of each subresource, `mip + slice × mips`.
    pub subresources: &'a [SubresourceBytes],
}

// By hand: derives would ask `B: Clone` of the (unsized) bytes themselves.
impl<B: ?Sized + crate::bytes::ReadBytes> Clone for MemoryTexels<'_, B> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<B: ?Sized + crate::bytes::ReadBytes> Copy for MemoryTexels<'_, B> {}

impl<B: ?Sized + crate::bytes::ReadBytes> std::fmt::Debug for MemoryTexels<'_, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryTexels")
            .field("bytes", &self.bytes.len())
            .field("format", &self.format)
            .field("size", &self.size)
            .field("mips", &self.mips)
            .field("array_size", &self.array_size)
            .field("subresources", &self.subresources)
            .finish()
    }
}

/// The layouts of plane `plane`'s subresources, `mip + slice × mips`, in the CPU backend's
/// texture layout ([`rd3d12_core::allocation::subresource_layout_full`]: tight rows, depth slices
/// `RowPitch × NumRows` apart), for [`MemoryTexels::subresources`]; with [`backend_size`] the
/// rest of a [`MemoryTexels`] over a texture's memory. `None` for buffers and invalid descs.
pub fn backend_layouts(desc: &sys::D3D12_RESOURCE_DESC1, plane: u32) -> Option<Vec<SubresourceBytes>> {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return None;
    }
    let (_, mips, slices) = backend_size(desc);
    let first = plane.checked_mul(mips.checked_mul(slices)?)?;
    (0..mips * slices)
        .map(|i| {
            let l = rd3d12_core::allocation::subresource_layout_full(desc, first + i)?;
            let row_pitch = l.footprint.footprint.RowPitch as usize;
            Some(SubresourceBytes {
                offset: usize::try_from(l.offset).ok()?,
                row_pitch,
                depth_pitch: row_pitch * l.footprint.num_rows as usize,
            })
        })
        .collect()
}

/// Mip-0 size in texels (width, height, depth), mip levels and array slices of a texture desc,
/// as [`MemoryTexels`] takes them.
pub fn backend_size(desc: &sys::D3D12_RESOURCE_DESC1) -> ((u32, u32, u32), u32, u32) {
    let is3d = desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    let depth = u32::from(desc.DepthOrArraySize).max(1);
    let size = (desc.Width.min(u64::from(u32::MAX)) as u32, desc.Height.max(1), if is3d { depth } else { 1 });
    (size, rd3d12_core::subresource::mip_levels(desc).max(1), if is3d { 1 } else { depth })
}

/// How a [`MemoryTexels`] format's elements decode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    /// One texel per element, through [`rd3d12_core::pack`].
    Plain(usize),
    /// 4×4 texels per block of this many bytes, through [`crate::bc`].
    Block(usize),
    /// A depth-stencil view format reading one plane of the CPU layout's planar depth-stencil
    /// resources (plane 0: 32-bit depth elements, 24-bit UNORM in the low bits or an f32;
    /// plane 1: 8-bit stencil), which [`rd3d12_core::pack`] does not decode.
    Depth24,
    /// R32_FLOAT_X8X24_TYPELESS: plane 0 of D32_FLOAT_S8X24_UINT, an f32 per texel.
    Depth32,
    /// X24_TYPELESS_G8_UINT / X32_TYPELESS_G8X24_UINT: the stencil plane, read as green.
    Stencil,
}

impl Codec {
    fn of(format: DXGI_FORMAT) -> Option<Codec> {
        if let Some(block) = crate::bc::block_bytes(format) {
            return Some(Codec::Block(block));
        }
        Some(match format {
            sys::DXGI_FORMAT_R24_UNORM_X8_TYPELESS => Codec::Depth24,
            sys::DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS => Codec::Depth32,
            sys::DXGI_FORMAT_X24_TYPELESS_G8_UINT | sys::DXGI_FORMAT_X32_TYPELESS_G8X24_UINT => Codec::Stencil,
            _ => {
                let info = rd3d12_core::format::info(format)?;
                if info.is_block_compressed() || info.is_planar() || info.bytes_per_element() == 0 {
                    return None;
                }
                Codec::Plain(info.bytes_per_element() as usize)
            }
        })
    }

    fn bytes(self) -> usize {
        match self {
            Codec::Plain(n) | Codec::Block(n) => n,
            Codec::Depth24 | Codec::Depth32 => 4,
            Codec::Stencil => 1,
        }
    }

    /// Lanes of a depth/stencil plane element (`None` for the other codecs).
    fn plane_lanes(self, e: &[u8]) -> Option<[u32; 4]> {
        let word = || u32::from_le_bytes([e[0], e[1], e[2], e[3]]);
        let one = 1.0f32.to_bits();
        Some(match self {
            Codec::Depth24 => [((word() & 0xff_ffff) as f64 / 16_777_215.0) as f32, 0.0, 0.0, 1.0].map(f32::to_bits),
            Codec::Depth32 => [word(), 0, 0, one],
            Codec::Stencil => [0, u32::from(e[0]), 0, 1],
            _ => return None,
        })
    }
}

/// The bytes of one element: a texel, or a 4×4 block (at most 16 bytes).
type Element = ([u8; 16], usize);

impl<B: ?Sized + crate::bytes::ReadBytes> MemoryTexels<'_, B> {
    /// The bytes of the element holding texel (x, y, z) of `mip`, copied out: the texel
    /// itself, or its 4×4 block for BC formats. Bounds are the mip's size in texels (its
    /// "virtual" size: a BC mip of 10 texels has 12 in memory, and texels 10 and 11 are out of
    /// range).
    #[inline]
    fn element(&self, x: u32, y: u32, z: u32, mip: u32) -> Option<(Codec, Element)> {
        let (w, h, d) = self.dims(mip);
        if x >= w || y >= h || mip >= self.mips {
            return None;
        }
        let (slice, depth) = if d > 1 || self.array_size == 1 { (0, z) } else { (z, 0) };
        if depth >= d || slice >= self.array_size {
            return None;
        }
        let codec = Codec::of(self.format)?;
        let size = codec.bytes();
        let (x, y) = if matches!(codec, Codec::Block(_)) { (x / 4, y / 4) } else { (x, y) };
        let sub = self.subresources.get((mip + slice * self.mips) as usize)?;
        // Checked: a layout that points past the bytes reads nothing rather than overflowing.
        let at = (depth as usize)
            .checked_mul(sub.depth_pitch)?
            .checked_add((y as usize).checked_mul(sub.row_pitch)?)?
            .checked_add((x as usize).checked_mul(size)?)?
            .checked_add(sub.offset)?;
        let mut e = [0u8; 16];
        self.bytes.read(at, e.get_mut(..size)?).then_some((codec, (e, size)))
    }

    /// BC6H's stand-in format has an alpha BC6H lacks: its alpha reads 1.
    fn without_alpha(&self, mut c: [f32; 4]) -> [f32; 4] {
        if matches!(self.format, sys::DXGI_FORMAT_BC6H_UF16 | sys::DXGI_FORMAT_BC6H_SF16) {
            c[3] = 1.0;
        }
        c
    }

    /// The format border colors, references and out-of-range reads follow, for formats
    /// [`rd3d12_core::pack`] handles.
    fn value_format(&self) -> DXGI_FORMAT {
        crate::bc::uncompressed_equivalent(self.format).unwrap_or(self.format)
    }
}

impl<B: ?Sized + crate::bytes::ReadBytes> Texels for MemoryTexels<'_, B> {
    fn dims(&self, mip: u32) -> (u32, u32, u32) {
        let m = |v: u32| (v >> mip.min(31)).max(1);
        (m(self.size.0), m(self.size.1), m(self.size.2))
    }
    fn mips(&self) -> u32 {
        self.mips
    }
    fn array_size(&self) -> u32 {
        self.array_size
    }
    fn fetch(&self, x: u32, y: u32, z: u32, mip: u32) -> Option<[f32; 4]> {
        let (codec, (e, n)) = self.element(x, y, z, mip)?;
        let e = &e[..n];
        match codec {
            Codec::Plain(_) => rd3d12_core::pack::decode_color(self.format, e),
            Codec::Block(_) => crate::bc::decode_texel(self.format, e, x % 4, y % 4),
            Codec::Stencil => Some([0.0, f32::from(e[0]), 0.0, 1.0]),
            _ => codec.plane_lanes(e).map(|l| l.map(f32::from_bits)),
        }
    }
    fn fetch_lanes(&self, x: u32, y: u32, z: u32, mip: u32) -> Option<[u32; 4]> {
        let (codec, (e, n)) = self.element(x, y, z, mip)?;
        let e = &e[..n];
        match codec {
            Codec::Plain(_) => rd3d12_core::pack::decode_lanes(self.format, e),
            Codec::Block(_) => crate::bc::decode_texel(self.format, e, x % 4, y % 4).map(|c| c.map(f32::to_bits)),
            _ => codec.plane_lanes(e),
        }
    }
    fn zero(&self) -> [f32; 4] {
        match Codec::of(self.format) {
            Some(Codec::Depth24 | Codec::Depth32 | Codec::Stencil) => [0.0, 0.0, 0.0, 1.0],
            _ => self.without_alpha(rd3d12_core::pack::decode_color(self.value_format(), &[0; 16]).unwrap_or([0.0; 4])),
        }
    }
    fn zero_lanes(&self) -> [u32; 4] {
        // An element of zero bytes decodes to 0 in the format's components and the defaults in
        // the others, which is exactly what an out-of-range load returns.
        match Codec::of(self.format) {
            Some(c @ (Codec::Depth24 | Codec::Depth32 | Codec::Stencil)) => c.plane_lanes(&[0; 4]).unwrap_or([0; 4]),
            _ => rd3d12_core::pack::out_of_range_lanes(self.value_format()),
        }
    }
    fn border(&self, color: [f32; 4]) -> [f32; 4] {
        match Codec::of(self.format) {
            Some(Codec::Depth24) => [self.quantize_reference(color[0]), 0.0, 0.0, 1.0],
            Some(Codec::Depth32) => [color[0], 0.0, 0.0, 1.0],
            Some(Codec::Stencil) => {
                let g = if color[1].is_nan() { 0.0 } else { color[1].clamp(0.0, 255.0).trunc() };
                [0.0, g, 0.0, 1.0]
            }
            // Encoding then decoding drops the components the format lacks, clamps to its range
            // and snaps to its precision: the spec's treatment of border colors.
            _ => {
                let f = self.value_format();
                let c =
                    rd3d12_core::pack::encode_color(f, color).and_then(|(b, _)| rd3d12_core::pack::decode_color(f, &b));
                self.without_alpha(c.unwrap_or(color))
            }
        }
    }
    fn quantize_reference(&self, reference: f32) -> f32 {
        match Codec::of(self.format) {
            // As depth is stored in a D24 buffer: clamped to [0, 1], rounded to 24 bits.
            Some(Codec::Depth24) => {
                let r = if reference.is_nan() { 0.0 } else { f64::from(reference).clamp(0.0, 1.0) };
                ((r * 16_777_215.0).round() / 16_777_215.0) as f32
            }
            Some(Codec::Depth32 | Codec::Stencil) => reference,
            _ => {
                let f = self.value_format();
                rd3d12_core::pack::encode_color(f, [reference, 0.0, 0.0, 0.0])
                    .and_then(|(b, _)| rd3d12_core::pack::decode_color(f, &b))
                    .map_or(reference, |c| c[0])
            }
        }
    }
}

/// A shader resource view's texture type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dim {
    /// Texture1D.
    Tex1D,
    /// Texture1DArray.
    Tex1DArray,
    /// Texture2D (and 2D MS, for loads).
    Tex2D,
    /// Texture2DArray (and 2D MS arrays, for loads).
    Tex2DArray,
    /// Texture3D.
    Tex3D,
    /// TextureCube.
    Cube,
    /// TextureCubeArray.
    CubeArray,
}

impl Dim {
    /// The texture type of a D3D12_SRV_DIMENSION (None for buffers and unknown values).
    pub fn from_srv(dimension: u32) -> Option<Dim> {
        Some(match sys::D3D12_SRV_DIMENSION(dimension as _) {
            sys::D3D12_SRV_DIMENSION_TEXTURE1D => Dim::Tex1D,
            sys::D3D12_SRV_DIMENSION_TEXTURE1DARRAY => Dim::Tex1DArray,
            sys::D3D12_SRV_DIMENSION_TEXTURE2D | sys::D3D12_SRV_DIMENSION_TEXTURE2DMS => Dim::Tex2D,
            sys::D3D12_SRV_DIMENSION_TEXTURE2DARRAY | sys::D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY => Dim::Tex2DArray,
            sys::D3D12_SRV_DIMENSION_TEXTURE3D => Dim::Tex3D,
            sys::D3D12_SRV_DIMENSION_TEXTURECUBE => Dim::Cube,
            sys::D3D12_SRV_DIMENSION_TEXTURECUBEARRAY => Dim::CubeArray,
            _ => return None,
        })
    }

    /// Texel-space axes (1 to 3), which also index the array coordinate for array types.
    const fn axes(self) -> usize {
        match self {
            Dim::Tex1D | Dim::Tex1DArray => 1,
            Dim::Tex2D | Dim::Tex2DArray | Dim::Cube | Dim::CubeArray => 2,
            Dim::Tex3D => 3,
        }
    }
}

/// The part of a texture a view shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// The texture type.
    pub dim: Dim,
    /// The view's most detailed mip (MostDetailedMip).
    pub first_mip: u32,
    /// Mips in the view.
    pub mip_levels: u32,
    /// First array slice (First2DArrayFace for cube arrays; 0 for 3D).
    pub first_slice: u32,
    /// Array slices in the view (6 per cube; 1 for 3D).
    pub array_size: u32,
    /// ResourceMinLODClamp, in the resource's mips (0 for none).
    pub min_lod_clamp: f32,
}

impl View {
    /// The view a SRV descriptor describes: its D3D12_SRV_DIMENSION and texture range.
    pub fn from_srv(dimension: u32, range: &TextureRange) -> Option<View> {
        let dim = Dim::from_srv(dimension)?;
        Some(View {
            dim,
            first_mip: range.first_mip,
            mip_levels: range.mip_levels,
            first_slice: if dim == Dim::Tex3D { 0 } else { range.first_slice },
            array_size: if dim == Dim::Tex3D { 1 } else { range.array_size },
            min_lod_clamp: range.min_lod,
        })
    }

    /// A view of every mip and slice of `t`.
    pub fn whole(dim: Dim, t: &(impl Texels + ?Sized)) -> View {
        View {
            dim,
            first_mip: 0,
            mip_levels: t.mips(),
            first_slice: 0,
            array_size: if dim == Dim::Tex3D { 1 } else { t.array_size() },
            min_lod_clamp: 0.0,
        }
    }

    /// Mips the view can reach in `t`: at least 1.
    fn levels(&self, t: &(impl Texels + ?Sized)) -> u32 {
        self.mip_levels.min(t.mips().saturating_sub(self.first_mip)).max(1)
    }
}

/// How the taps of a filter combine (D3D12_FILTER_REDUCTION_TYPE, filter bits 7–8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reduction {
    /// Weighted average.
    Standard,
    /// Weighted average of comparison results.
    Comparison,
    /// Per-component minimum.
    Minimum,
    /// Per-component maximum.
    Maximum,
}

/// A sampler's state, ready for filtering.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sampler {
    /// Minification filter is LINEAR (else POINT).
    pub min_linear: bool,
    /// Magnification filter is LINEAR.
    pub mag_linear: bool,
    /// Mip filter is LINEAR.
    pub mip_linear: bool,
    /// The filter is ANISOTROPIC (see the module notes).
    pub anisotropic: bool,
    /// MaxAnisotropy (0 counts as 1).
    pub max_anisotropy: u32,
    /// The reduction.
    pub reduction: Reduction,
    /// D3D12_TEXTURE_ADDRESS_MODE of u, v, w.
    pub address: [u32; 3],
    /// MipLODBias.
    pub mip_lod_bias: f32,
    /// MinLOD.
    pub min_lod: f32,
    /// MaxLOD.
    pub max_lod: f32,
    /// D3D12_COMPARISON_FUNC (0 never passes).
    pub comparison_func: u32,
    /// The border color as values: the float border, or the integers of a UINT border.
    pub border: [f32; 4],
}

impl Sampler {
    /// From a sampler descriptor's state. Filter bits: mip in bit 0, mag in bit 2, min in bit
    /// 4, anisotropic in bit 6, the reduction in bits 7–8.
    pub fn new(s: &SamplerState) -> Sampler {
        let anisotropic = s.filter & 0x40 != 0;
        let uint_border = s.flags & sys::D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0 != 0;
        Sampler {
            // Anisotropic filtering is at least trilinear.
            min_linear: anisotropic || s.filter & 0x10 != 0,
            mag_linear: anisotropic || s.filter & 0x04 != 0,
            mip_linear: anisotropic || s.filter & 0x01 != 0,
            anisotropic,
            max_anisotropy: s.max_anisotropy,
            reduction: match (s.filter >> 7) & 3 {
                0 => Reduction::Standard,
                1 => Reduction::Comparison,
                2 => Reduction::Minimum,
                _ => Reduction::Maximum,
            },
            address: s.address,
            mip_lod_bias: s.mip_lod_bias,
            min_lod: s.min_lod,
            max_lod: s.max_lod,
            comparison_func: s.comparison_func,
            border: s.border.map(|b| if uint_border { b as f32 } else { f32::from_bits(b) }),
        }
    }

    /// From a (validated) sampler desc.
    pub fn from_desc(d: &SamplerDesc) -> Sampler {
        Sampler::new(&SamplerState {
            filter: d.filter,
            address: d.address,
            mip_lod_bias: d.mip_lod_bias,
            max_anisotropy: d.max_anisotropy,
            comparison_func: d.comparison_func,
            border: d.border,
            min_lod: d.min_lod,
            max_lod: d.max_lod,
            flags: d.flags,
        })
    }
}

/// How a sample picks its LOD.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Lod {
    /// From the derivatives of the coordinates along the render target's x and y
    /// (`Sample`, `SampleBias`, `SampleGrad`, `SampleCmp`), with a shader bias and the shader's
    /// LOD clamp (0.0 for none).
    Derivatives {
        /// d(coords)/dx.
        ddx: [f32; 3],
        /// d(coords)/dy.
        ddy: [f32; 3],
        /// The shader's bias (`SampleBias`; 0.0 otherwise).
        bias: f32,
        /// The shader's LOD clamp (`clamp` operand; 0.0 for none).
        clamp: f32,
    },
    /// An explicit LOD (`SampleLevel`; `SampleCmpLevelZero` is `Level(0.0)`).
    Level(f32),
}

// ---- coordinates ----------------------------------------------------------------------------

/// Snaps a scaled coordinate to fixed point with 8 fractional bits (NaN becomes 0).
fn fixed(x: f32) -> f64 {
    if x.is_nan() {
        return 0.0;
    }
    let scale = (1u32 << FRACTION_BITS) as f64;
    ((x as f64) * scale).round_ties_even() / scale
}

/// The spec's range reduction of a normalized coordinate before scaling (§7.18.6).
fn reduce(u: f32, mode: u32) -> f32 {
    match sys::D3D12_TEXTURE_ADDRESS_MODE(mode as _) {
        sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP => u - u.floor(),
        sys::D3D12_TEXTURE_ADDRESS_MODE_MIRROR => (u / 2.0).fract() * 2.0,
        _ => u.clamp(-10.0, 10.0),
    }
}

/// A texel address on one axis after the address mode: `None` selects the border color.
/// Addresses inside `[0, n)` are returned unchanged whatever the mode (§7.18.9).
pub fn address(mode: u32, t: i64, n: u32) -> Option<u32> {
    let n = i64::from(n.max(1));
    if (0..n).contains(&t) {
        return Some(t as u32);
    }
    let t = match sys::D3D12_TEXTURE_ADDRESS_MODE(mode as _) {
        sys::D3D12_TEXTURE_ADDRESS_MODE_WRAP => t.rem_euclid(n),
        sys::D3D12_TEXTURE_ADDRESS_MODE_MIRROR => {
            let t = if t < 0 { -(t + 1) } else { t };
            let flip = (t / n) & 1 == 1;
            let t = t % n;
            if flip {
                n - t - 1
            } else {
                t
            }
        }
        sys::D3D12_TEXTURE_ADDRESS_MODE_CLAMP => t.clamp(0, n - 1),
        sys::D3D12_TEXTURE_ADDRESS_MODE_MIRROR_ONCE => (if t < 0 { -(t + 1) } else { t }).clamp(0, n - 1),
        sys::D3D12_TEXTURE_ADDRESS_MODE_BORDER => return None,
        _ => 0,
    };
    Some(t as u32)
}

/// The taps of one axis: up to two (texel address before the address mode, weight).
fn axis_taps(u: f32, n: u32, linear: bool, offset: i32) -> [(i64, f32); 2] {
    let scaled = u * n as f32;
    if linear {
        let s = fixed(scaled - 0.5);
        let t = s.floor();
        let w = (s - t) as f32;
        // Saturating: texel addresses of absurd coordinates stay absurd instead of overflowing.
        let t = (t as i64).saturating_add(i64::from(offset));
        [(t, 1.0 - w), (t.saturating_add(1), w)]
    } else {
        [((fixed(scaled).floor() as i64).saturating_add(i64::from(offset)), 1.0), (0, 0.0)]
    }
}

/// A cube face: index (+X, −X, +Y, −Y, +Z, −Z) and face coordinates in [0, 1].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubeFace {
    /// The face, as its array slice within the cube (0 = +X … 5 = −Z).
    pub face: u32,
    /// The coordinate along the face's width.
    pub u: f32,
    /// The coordinate along the face's height.
    pub v: f32,
}

/// The face a direction points at and the (sc, tc, |ma|) of TextureCube coordinate space:
/// the largest-magnitude component picks the face, ties going to Z, then Y, then X.
fn cube_axes(d: [f64; 3]) -> (u32, f64, f64, f64) {
    let [x, y, z] = d;
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    if az >= ax && az >= ay {
        if z >= 0.0 {
            (4, x, -y, az)
        } else {
            (5, -x, -y, az)
        }
    } else if ay >= ax {
        if y >= 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if x >= 0.0 {
        (0, -z, -y, ax)
    } else {
        (1, z, -y, ax)
    }
}

/// The direction of face coordinates (sc, tc) ∈ [−1, 1]² of `face` (the inverse of
/// [`cube_axes`] with |ma| = 1).
fn cube_direction(face: u32, sc: f64, tc: f64) -> [f64; 3] {
    match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    }
}

/// The cube face a direction selects and its face coordinates (§7.18.7). NaN components count
/// as 0, and the zero vector reads the center of +Z (a direction has to pick some face).
pub fn cube_face(dir: [f32; 3]) -> CubeFace {
    let (face, sc, tc, ma) = cube_axes(dir.map(|c| if c.is_nan() { 0.0 } else { f64::from(c) }));
    let coord = |s: f64| {
        let c = if ma > 0.0 && ma.is_finite() { (s / ma + 1.0) * 0.5 } else { 0.5 };
        // |s| <= |ma|, so this only catches infinite directions (inf / inf).
        if c.is_nan() {
            0.5
        } else {
            c.clamp(0.0, 1.0) as f32
        }
    };
    CubeFace { face, u: coord(sc), v: coord(tc) }
}

/// Texel (i, j) of `face` of size n×n, possibly one texel off the face: the face and texel
/// that hold it (the neighbouring face's edge texel), or None at a corner, where no texel is.
fn cube_texel(face: u32, i: i64, j: i64, n: u32) -> Option<(u32, u32, u32)> {
    let n64 = i64::from(n);
    let (i_in, j_in) = ((0..n64).contains(&i), (0..n64).contains(&j));
    if i_in && j_in {
        return Some((face, i as u32, j as u32));
    }
    if !i_in && !j_in {
        return None;
    }
    // Re-project the texel's center onto the cube: one past an edge, its direction's major
    // axis is the neighbouring face's, and the projection lands inside that face's edge texel.
    let nf = n as f64;
    let c = |t: i64| (t as f64 + 0.5) / nf * 2.0 - 1.0;
    let (f, sc, tc, ma) = cube_axes(cube_direction(face, c(i), c(j)));
    let t = |s: f64| ((((s / ma) + 1.0) * 0.5 * nf).floor() as i64).clamp(0, n64 - 1) as u32;
    Some((f, t(sc), t(tc)))
}

// ---- LOD ------------------------------------------------------------------------------------

/// The isotropic LOD of derivatives already in texel space (§7.18.11): `log2` of the longer
/// derivative (−∞ for none).
pub fn isotropic_lod(ddx: [f32; 3], ddy: [f32; 3]) -> f32 {
    let len = |d: [f32; 3]| (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
    len(ddx).max(len(ddy)).log2()
}

/// Derivatives of a cube direction turned into derivatives of the major face's coordinates,
/// scaled to texels of a face `n` texels wide (§7.18.11). The spec writes the quotient rule
/// for a positive major axis; the sign of the major axis is applied to its derivative here so
/// that negative faces get the true derivative of their face coordinates.
fn cube_derivatives(dir: [f32; 3], d: [f32; 3], n: u32) -> [f32; 3] {
    let dir = dir.map(f64::from);
    let d = d.map(f64::from);
    let (face, sc, tc, ma) = cube_axes(dir);
    // The derivative vector read in the same face's axes: the minor axes selected and mirrored
    // as the direction's were, and the major axis signed so it is d|ma|.
    let (dsc, dtc, dma) = cube_axes_for_face(face, d);
    if ma == 0.0 {
        return [0.0; 3];
    }
    let q = |s: f64, ds: f64| ((ma * ds - s * dma) / (ma * ma) * 0.5 * n as f64) as f32;
    [q(sc, dsc), q(tc, dtc), 0.0]
}

/// (sc, tc, ma) of vector `d` read in the axes of `face` (whatever its own major axis), `ma`
/// signed as the face's axis points.
fn cube_axes_for_face(face: u32, d: [f64; 3]) -> (f64, f64, f64) {
    let [x, y, z] = d;
    match face {
        0 => (-z, -y, x),
        1 => (z, -y, -x),
        2 => (x, z, y),
        3 => (x, -z, -y),
        4 => (x, -y, z),
        _ => (-x, -y, -z),
    }
}

/// The LOD a sample uses, relative to the view's most detailed mip, after bias and every clamp
/// (§7.18.11): `max(MinLOD, min(MaxLOD, lod + MipLODBias + bias))`, then at least the shader's
/// clamp and the view's ResourceMinLODClamp.
pub fn lod(t: &(impl Texels + ?Sized), view: &View, s: &Sampler, coords: [f32; 4], mode: Lod) -> f32 {
    let (raw, bias) = match mode {
        Lod::Level(l) => (l, 0.0),
        Lod::Derivatives { ddx, ddy, bias, .. } => match anisotropy(t, view, s, ddx, ddy) {
            Some(a) => (a.lod, bias),
            None => (derivative_lod(t, view, coords, ddx, ddy), bias),
        },
    };
    // f32::max / min return the number when one side is NaN: NaN never propagates (§3.1).
    let biased = raw + s.mip_lod_bias + bias;
    let clamped = s.min_lod.max(s.max_lod.min(biased));
    clamped.max(min_clamp(view, mode))
}

/// The LOD of derivatives `ddx`, `ddy` of `coords` before bias and clamps: the derivatives in
/// texels of the view's most detailed mip (face texels for cubes), then [`isotropic_lod`].
fn derivative_lod(t: &(impl Texels + ?Sized), view: &View, coords: [f32; 4], ddx: [f32; 3], ddy: [f32; 3]) -> f32 {
    let (w, h, d) = t.dims(view.first_mip);
    let (dx, dy) = match view.dim {
        Dim::Cube | Dim::CubeArray => {
            let dir = [coords[0], coords[1], coords[2]];
            (cube_derivatives(dir, ddx, w), cube_derivatives(dir, ddy, w))
        }
        dim => {
            let size = [w as f32, h as f32, d as f32];
            let scale = |v: [f32; 3]| std::array::from_fn(|i| if i < dim.axes() { v[i] * size[i] } else { 0.0 });
            (scale(ddx), scale(ddy))
        }
    };
    isotropic_lod(dx, dy)
}

/// An anisotropic footprint (§7.18.11): the LOD of its minor axis, how many times longer the
/// major axis is (clamped to MaxAnisotropy), and the major axis in texels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anisotropy {
    /// `log2` of the minor axis length (before bias and clamps).
    pub lod: f32,
    /// Ratio of anisotropy, in [1, MaxAnisotropy].
    pub ratio: f32,
    /// The major axis (u, v) in texels of the view's most detailed mip: the line taps spread on.
    pub major: [f32; 2],
}

/// The spec's anisotropic LOD computation on texel-space derivatives `dx`, `dy` (u, v): the
/// major axis is the longer derivative, the ratio its squared length over the parallelogram's
/// area, clamped to `max_anisotropy` (then the minor axis is major / ratio, else area / major);
/// a minor axis under one texel shrinks the ratio (`max(1, ratio · minor)`) and is not clamped,
/// so negative LODs stay reachable for LOD biasing, as the spec recommends.
pub fn anisotropic_footprint(dx: [f32; 2], dy: [f32; 2], max_anisotropy: u32) -> Anisotropy {
    let sq = |d: [f32; 2]| d[0] * d[0] + d[1] * d[1];
    let (sx, sy) = (sq(dx), sq(dy));
    let (major, sq_major) = if sx > sy { (dx, sx) } else { (dy, sy) };
    let length_major = sq_major.sqrt();
    if !length_major.is_finite() || length_major <= 0.0 {
        return Anisotropy { lod: length_major.log2(), ratio: 1.0, major: [0.0; 2] };
    }
    let determinant = (dx[0] * dy[1] - dx[1] * dy[0]).abs();
    let max = max_anisotropy.max(1) as f32;
    let mut ratio = sq_major / determinant;
    let length_minor = if ratio.is_nan() || ratio > max {
        ratio = max;
        length_major / ratio
    } else {
        determinant / length_major
    };
    if length_minor < 1.0 {
        ratio = (ratio * length_minor).max(1.0);
    }
    Anisotropy { lod: length_minor.log2(), ratio, major }
}

/// The footprint of an anisotropic sampler's implicit-LOD sample on a 2D texture (the only
/// type the spec filters anisotropically); `None` otherwise.
fn anisotropy(
    t: &(impl Texels + ?Sized),
    view: &View,
    s: &Sampler,
    ddx: [f32; 3],
    ddy: [f32; 3],
) -> Option<Anisotropy> {
    if !s.anisotropic || !matches!(view.dim, Dim::Tex2D | Dim::Tex2DArray) {
        return None;
    }
    let (w, h, _) = t.dims(view.first_mip);
    let texels = |d: [f32; 3]| [d[0] * w as f32, d[1] * h as f32];
    Some(anisotropic_footprint(texels(ddx), texels(ddy), s.max_anisotropy))
}

/// `CalculateLevelOfDetail` and `CalculateLevelOfDetailUnclamped` (the `lod` instruction):
/// `(clamped, unclamped)`. The unclamped LOD is the derivatives' LOD plus MipLODBias, free of
/// every clamp (so it may be negative or −∞); the clamped one is the LOD a sample would use:
/// all of [`lod`]'s clamps, then the view's mip range `[0, mips − 1]`.
pub fn calculate_lod(
    t: &(impl Texels + ?Sized),
    view: &View,
    s: &Sampler,
    coords: [f32; 4],
    ddx: [f32; 3],
    ddy: [f32; 3],
) -> (f32, f32) {
    let raw = match anisotropy(t, view, s, ddx, ddy) {
        Some(a) => a.lod,
        None => derivative_lod(t, view, coords, ddx, ddy),
    };
    let unclamped = raw + s.mip_lod_bias;
    let mode = Lod::Derivatives { ddx, ddy, bias: 0.0, clamp: 0.0 };
    let last = (view.levels(t) - 1) as f32;
    (lod(t, view, s, coords, mode).clamp(0.0, last), unclamped)
}

/// The larger of the shader's LOD clamp and the view's ResourceMinLODClamp, in the view's mips.
/// ResourceMinLODClamp counts in the resource's mips, not from MostDetailedMip (what native
/// drivers do; vkd3d-proton found the same).
fn min_clamp(view: &View, mode: Lod) -> f32 {
    let shader = match mode {
        Lod::Derivatives { clamp, .. } => clamp,
        Lod::Level(_) => 0.0,
    };
    shader.max(view.min_lod_clamp - view.first_mip as f32)
}

// ---- filtering ------------------------------------------------------------------------------

/// 1.0 when `reference ComparisonFunc texel` holds, else 0.0; float denormals are flushed to
/// zero going into the comparison (D3D float rules; gather4_c says so explicitly).
fn compare_texel(func: u32, reference: f32, texel: f32) -> f32 {
    let flush = |x: f32| if x.is_subnormal() { 0.0 } else { x };
    if compare(func, flush(reference), flush(texel)) {
        1.0
    } else {
        0.0
    }
}

/// Combines taps as the reduction says.
struct Acc {
    reduction: Reduction,
    /// (ComparisonFunc, quantized reference) when comparing.
    compare: Option<(u32, f32)>,
    sum: [f32; 4],
    extreme: Option<[f32; 4]>,
}

impl Acc {
    fn add(&mut self, texel: [f32; 4], w: f32) {
        if w == 0.0 {
            return;
        }
        let texel = match self.compare {
            Some((func, r)) => [compare_texel(func, r, texel[0]); 4],
            None => texel,
        };
        match self.reduction {
            Reduction::Minimum | Reduction::Maximum if self.compare.is_none() => {
                let max = self.reduction == Reduction::Maximum;
                self.extreme = Some(match self.extreme {
                    None => texel,
                    Some(e) => std::array::from_fn(|c| if max { e[c].max(texel[c]) } else { e[c].min(texel[c]) }),
                });
            }
            _ => {
                for (s, t) in self.sum.iter_mut().zip(texel) {
                    *s += t * w;
                }
            }
        }
    }

    fn result(&self) -> [f32; 4] {
        match (self.extreme, self.compare) {
            (Some(e), _) => e,
            // Weights sum to 1 only up to rounding: a filtered comparison stays in [0, 1].
            (None, Some(_)) => self.sum.map(|v| v.clamp(0.0, 1.0)),
            (None, None) => self.sum,
        }
    }
}

/// Everything one sample needs.
struct Ctx<'a, T: Texels + ?Sized> {
    t: &'a T,
    view: &'a View,
    s: &'a Sampler,
    /// The border color as the format reduces it ([`Texels::border`]), worked out at the
    /// first tap that needs it: most samples never address the border.
    border: std::cell::OnceCell<[f32; 4]>,
}

impl<T: Texels + ?Sized> Ctx<'_, T> {
    /// Adds the taps of mip `m` (view-relative) with total weight `weight`.
    fn level(&self, acc: &mut Acc, m: u32, linear: bool, c: &Coords, offset: [i32; 3], weight: f32) {
        let mip = self.view.first_mip.saturating_add(m);
        let (w, h, d) = self.t.dims(mip);
        if let Some(face) = c.face {
            return self.cube_level(acc, mip, w, linear, face, c.slice, weight);
        }
        let axes = self.view.dim.axes();
        let size = [w, h, d];
        let taps: [[(i64, f32); 2]; 3] = std::array::from_fn(|a| {
            if a < axes {
                axis_taps(c.uvw[a], size[a], linear, offset[a])
            } else {
                [(0, 1.0), (0, 0.0)]
            }
        });
        for &(z, wz) in &taps[2] {
            for &(y, wy) in &taps[1] {
                for &(x, wx) in &taps[0] {
                    let tw = wx * wy * wz * weight;
                    if tw == 0.0 {
                        continue;
                    }
                    acc.add(self.texel(mip, [x, y, z], size, c.slice), tw);
                }
            }
        }
    }

    /// The texel at texel address `p` after the address modes (the border when any axis says
    /// so), `slice` the absolute array slice.
    fn texel(&self, mip: u32, p: [i64; 3], size: [u32; 3], slice: u32) -> [f32; 4] {
        let axes = self.view.dim.axes();
        let mut q = [0u32; 3];
        for a in 0..axes {
            match address(self.s.address[a], p[a], size[a]) {
                Some(v) => q[a] = v,
                None => return *self.border.get_or_init(|| self.t.border(self.s.border)),
            }
        }
        let z = if self.view.dim == Dim::Tex3D { q[2] } else { slice };
        self.t.fetch(q[0], q[1], z, mip).unwrap_or_else(|| self.t.zero())
    }

    #[allow(clippy::too_many_arguments)]
    fn cube_level(&self, acc: &mut Acc, mip: u32, n: u32, linear: bool, f: CubeFace, cube: u32, weight: f32) {
        let fetch = |face: u32, i: u32, j: u32| {
            self.t.fetch(i, j, cube.saturating_add(face), mip).unwrap_or_else(|| self.t.zero())
        };
        let n64 = i64::from(n);
        if !linear {
            let t = |u: f32| (fixed(u * n as f32).floor() as i64).clamp(0, n64 - 1) as u32;
            return acc.add(fetch(f.face, t(f.u), t(f.v)), weight);
        }
        let [iu, iv] = [f.u, f.v].map(|u| axis_taps(u, n, true, 0));
        let mut taps = [(None, 0.0f32); 4];
        for (k, ((i, wi), (j, wj))) in
            [(iu[0], iv[0]), (iu[1], iv[0]), (iu[0], iv[1]), (iu[1], iv[1])].into_iter().enumerate()
        {
            taps[k] = (cube_texel(f.face, i, j, n), wi * wj);
        }
        // At a corner the fourth texel does not exist: its weight goes to the other three.
        let missing: f32 = taps.iter().filter(|t| t.0.is_none()).map(|t| t.1).sum();
        for (texel, w) in taps {
            if let Some((face, i, j)) = texel {
                acc.add(fetch(face, i, j), (w + missing / 3.0) * weight);
            }
        }
    }
}

/// Coordinates resolved once per sample: normalized texel-axis coordinates, the cube face,
/// and the absolute array slice (of the cube's +X face for cubes).
struct Coords {
    uvw: [f32; 3],
    face: Option<CubeFace>,
    slice: u32,
}

fn resolve(view: &View, s: &Sampler, coords: [f32; 4]) -> Coords {
    let slices = view.array_size.max(1);
    let index = |v: f32, count: u32| -> u32 {
        let r = if v.is_nan() { 0.0 } else { v.round_ties_even() };
        r.clamp(0.0, count.saturating_sub(1) as f32) as u32
    };
    match view.dim {
        Dim::Cube | Dim::CubeArray => {
            let cube = if view.dim == Dim::CubeArray { index(coords[3], slices / 6) } else { 0 };
            let face = cube_face([coords[0], coords[1], coords[2]]);
            Coords {
                uvw: [face.u, face.v, 0.0],
                face: Some(face),
                slice: view.first_slice.saturating_add(cube.saturating_mul(6)),
            }
        }
        dim => {
            let axes = dim.axes();
            let uvw = std::array::from_fn(|a| if a < axes { reduce(coords[a], s.address[a]) } else { 0.0 });
            let slice = match dim {
                Dim::Tex1DArray => index(coords[1], slices),
                Dim::Tex2DArray => index(coords[2], slices),
                _ => 0,
            };
            Coords { uvw, face: None, slice: view.first_slice.saturating_add(slice) }
        }
    }
}

/// `Sample*` / `SampleCmp*`: the filtered value at `coords` (u, v, w / array index / cube
/// direction and cube index, as the view's type uses them) with texel `offset` (ignored for
/// cubes), at the LOD `mode` gives. `compare` is the reference of a comparison sample: the
/// result is then the filtered comparison, replicated to all four components.
pub fn sample(
    t: &(impl Texels + ?Sized),
    view: &View,
    s: &Sampler,
    coords: [f32; 4],
    offset: [i32; 3],
    mode: Lod,
    compare: Option<f32>,
) -> [f32; 4] {
    let last = view.levels(t) - 1;
    // Min-LOD clamps past the view's last mip leave no mip to read (§5.8, §5.9.4.5.4).
    if min_clamp(view, mode) > last as f32 {
        return t.zero();
    }
    let lod = lod(t, view, s, coords, mode);
    let ctx = Ctx { t, view, s, border: std::cell::OnceCell::new() };
    // Anisotropic samples take ceil(ratio) trilinear taps spread evenly along the major axis of
    // the footprint, each at the minor axis' LOD; everything else takes one tap.
    let (taps, step) = match mode {
        Lod::Derivatives { ddx, ddy, .. } => match anisotropy(t, view, s, ddx, ddy) {
            Some(a) if a.ratio > 1.0 => {
                let (w, h, _) = t.dims(view.first_mip);
                (a.ratio.ceil() as u32, [a.major[0] / w as f32, a.major[1] / h as f32])
            }
            _ => (1, [0.0; 2]),
        },
        Lod::Level(_) => (1, [0.0; 2]),
    };
    let mut acc = Acc {
        reduction: s.reduction,
        compare: compare.map(|r| (s.comparison_func, t.quantize_reference(r))),
        sum: [0.0; 4],
        extreme: None,
    };
    // The LOD in 8.8 fixed point (room for any clamped LOD, none for infinities); the
    // magnification test reads the same snapped value the mip selection does.
    let l = fixed(lod.clamp(-256.0, 256.0)) as f32;
    let linear = if l <= 0.0 { s.mag_linear } else { s.min_linear };
    for k in 0..taps {
        let along = (k as f32 + 0.5) / taps as f32 - 0.5;
        let mut at = coords;
        at[0] += along * step[0];
        at[1] += along * step[1];
        let c = resolve(view, s, at);
        let share = 1.0 / taps as f32;
        if s.mip_linear {
            let m = l.floor();
            let w = l - m;
            let m0 = (m.max(0.0) as u32).min(last);
            let m1 = ((m + 1.0).max(0.0) as u32).min(last);
            ctx.level(&mut acc, m0, linear, &c, offset, (1.0 - w) * share);
            if w > 0.0 {
                ctx.level(&mut acc, m1, linear, &c, offset, w * share);
            }
        } else {
            let m = ((l + 0.5).floor().max(0.0) as u32).min(last);
            ctx.level(&mut acc, m, linear, &c, offset, share);
        }
    }
    acc.result()
}

/// `Gather*` / `GatherCmp*`: component `component` (0 = R … 3 = A; the comparison result for
/// `GatherCmp`) of the four texels a bilinear filter at `coords` reads from the view's most
/// detailed mip, in the order (u0, v1), (u1, v1), (u1, v0), (u0, v0) — counter-clockwise from
/// the lower left, `u0, v0` being the upper-left texel of the footprint.
pub fn gather(
    t: &(impl Texels + ?Sized),
    view: &View,
    s: &Sampler,
    coords: [f32; 4],
    offset: [i32; 3],
    component: usize,
    compare: Option<f32>,
) -> [f32; 4] {
    let ctx = Ctx { t, view, s, border: std::cell::OnceCell::new() };
    let c = resolve(view, s, coords);
    let cmp = compare.map(|r| (s.comparison_func, t.quantize_reference(r)));
    let pick = |texel: [f32; 4]| match cmp {
        Some((func, r)) => compare_texel(func, r, texel[0]),
        None => texel[component.min(3)],
    };
    let mip = view.first_mip;
    let (w, h, d) = t.dims(mip);
    // The four texels in gather order as (di, dj) from the footprint's upper-left texel.
    const ORDER: [(i64, i64); 4] = [(0, 1), (1, 1), (1, 0), (0, 0)];
    if let Some(f) = c.face {
        let [iu, iv] = [f.u, f.v].map(|u| axis_taps(u, w, true, 0)[0].0);
        let texels = ORDER.map(|(di, dj)| {
            cube_texel(f.face, iu + di, iv + dj, w)
                .map(|(face, i, j)| pick(t.fetch(i, j, c.slice.saturating_add(face), mip).unwrap_or_else(|| t.zero())))
        });
        // A corner's missing texel is the average of the three that exist (after comparing,
        // for GatherCmp).
        let present: Vec<f32> = texels.iter().flatten().copied().collect();
        let average = present.iter().sum::<f32>() / present.len().max(1) as f32;
        return texels.map(|v| v.unwrap_or(average));
    }
    let size = [w, h, d];
    let x0 = axis_taps(c.uvw[0], w, true, offset[0])[0].0;
    let y0 = if view.dim.axes() > 1 { axis_taps(c.uvw[1], h, true, offset[1])[0].0 } else { 0 };
    ORDER.map(|(di, dj)| pick(ctx.texel(mip, [x0 + di, y0 + dj, 0], size, c.slice)))
}

/// What Shader4ComponentMapping selects for result component `c` (0–3): a source component
/// 0–3, or 4 (D3D12_SHADER_COMPONENT_MAPPING_FORCE_VALUE_0) / 5 (FORCE_VALUE_1). For `Gather`,
/// pass the selector of the gathered component as `component` (forced values gather as
/// constants).
pub fn mapping_source(mapping: u32, c: usize) -> u32 {
    (mapping >> (3 * (c as u32 & 3))) & 7
}

/// Shader4ComponentMapping applied to what a read returns: each component becomes the source
/// component its selector names, `zero` for FORCE_VALUE_0 or `one` for FORCE_VALUE_1 (1.0 for
/// sampled values; for `Load` lanes, integer 1 for integer formats and the bits of 1.0
/// otherwise). Applied to the filtered result, so the border color is remapped like a texel.
pub fn apply_mapping<T: Copy>(mapping: u32, v: [T; 4], zero: T, one: T) -> [T; 4] {
    std::array::from_fn(|c| match mapping_source(mapping, c) {
        s @ 0..=3 => v[s as usize],
        5 => one,
        _ => zero,
    })
}

/// `Load` (TextureLoad): the texel at integer coordinates `xyz` (x, y, and z or the array
/// slice, as the view's type uses them) plus `offset` (not on the array axis), of view-relative
/// mip `mip`, as [`Texels::fetch_lanes`] gives it. Anything out of the view — coordinates, mip,
/// slice — reads as [`Texels::zero_lanes`].
pub fn load(t: &(impl Texels + ?Sized), view: &View, xyz: [i32; 3], mip: u32, offset: [i32; 3]) -> [u32; 4] {
    let zero = t.zero_lanes();
    if mip >= view.levels(t) || view.first_mip.saturating_add(mip) >= t.mips() {
        return zero;
    }
    let abs = view.first_mip.saturating_add(mip);
    let (w, h, d) = t.dims(abs);
    let axes = match view.dim {
        // Cubes are loaded as 2D arrays.
        Dim::Cube | Dim::CubeArray => 2,
        dim => dim.axes(),
    };
    let size = [w, h, d];
    let mut p = [0u32; 3];
    for a in 0..axes {
        let v = i64::from(xyz[a]) + i64::from(offset[a]);
        if !(0..i64::from(size[a])).contains(&v) {
            return zero;
        }
        p[a] = v as u32;
    }
    let z = match view.dim {
        Dim::Tex3D => p[2],
        dim => {
            let slice = match dim {
                Dim::Tex1DArray => xyz[1],
                Dim::Tex2DArray | Dim::Cube | Dim::CubeArray => xyz[2],
                _ => 0,
            };
            if slice < 0 || slice as u32 >= view.array_size.max(1) {
                return zero;
            }
            view.first_slice.saturating_add(slice as u32)
        }
    };
    t.fetch_lanes(p[0], p[1], z, abs).unwrap_or(zero)
}

#[cfg(test)]
mod tests;
