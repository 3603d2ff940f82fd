//! The DXGI format table: layout facts (element size, block size, planes), cast groups,
//! flags and the D3D12 *capability class* of every `DXGI_FORMAT` value that
//! dxgiformat.h (SDK 606) defines, plus `A4B4G4R4_UNORM` (191) from newer headers.
//!
//! Capability classes transcribe Microsoft's "Format support for Direct3D Feature Level
//! 11.1 hardware" tables (required, optional and dependant targets alike, since a
//! software adapter can implement every optional target). They are masked by
//! [`Caps`] in [`format_support`]; see `caps.rs` for the rationale.
//!
//! Layout facts (bits per unit, block width/height, planar flag, plane formats and
//! subsampling) follow footprints.md §2 / resources.md §10.

use rd3d12_sys as sys;
use rd3d12_sys::DXGI_FORMAT;

use crate::caps::Caps;

/// `DXGI_FORMAT_A4B4G4R4_UNORM` (191). Not in the SDK-606 dxgiformat.h, defined by newer
/// headers; the runtime knows it.
pub const DXGI_FORMAT_A4B4G4R4_UNORM: DXGI_FORMAT = DXGI_FORMAT(191);

/// Format property flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FormatFlags(pub u32);

impl FormatFlags {
    /// Has a depth component (D16, D24S8, D32, D32S8 and their typeless/readable family
    /// members that carry depth).
    pub const DEPTH: u32 = 1 << 0;
    /// Has a stencil component.
    pub const STENCIL: u32 = 1 << 1;
    /// sRGB encoded.
    pub const SRGB: u32 = 1 << 2;
    /// Partially typed ("_TYPELESS" parent of a cast group).
    pub const TYPELESS: u32 = 1 << 3;
    /// BC1–BC7 (4×4 blocks).
    pub const BLOCK_COMPRESSED: u32 = 1 << 4;
    /// YUV / video format (d3dx12 bYUV).
    pub const VIDEO: u32 = 1 << 5;
    /// Planar per the d3dx12 format table (NV12-class video formats and the D24S8/D32S8
    /// families). Footprints of planar formats use a 512-byte row pitch alignment.
    pub const PLANAR: u32 = 1 << 6;
    /// Packed 4:2:2 formats with 2×1 blocks (YUY2, Y210, Y216, R8G8_B8G8, G8R8_G8B8).
    pub const PACKED: u32 = 1 << 7;
    /// Opaque layout (420_OPAQUE, sampler feedback).
    pub const OPAQUE: u32 = 1 << 8;
    /// Not a D3D12 format at all (R1_UNORM): FORMAT_INFO fails with E_INVALIDARG.
    pub const NOT_D3D12: u32 = 1 << 9;
    /// Sampler-feedback format (requires sampler feedback support).
    pub const SAMPLER_FEEDBACK: u32 = 1 << 10;
    /// Required by Microsoft's tables (FORMAT_SUPPORT succeeds), but neither shaders nor the
    /// sampler decode it on the CPU backend: only what resources of it do (dimensions, mips,
    /// casting, copies) is reported: R8G8_B8G8, G8R8_G8B8, XR_BIAS, 420_OPAQUE, YUY2.
    pub const NOT_DECODED: u32 = 1 << 11;
    /// Only usable by video operations; unsupported without video.
    pub const VIDEO_ONLY: u32 = 1 << 12;
    /// UAV typed load is baseline (R32_FLOAT/UINT/SINT); for every other format it needs
    /// OPTIONS.TypedUAVLoadAdditionalFormats.
    pub const UAV_LOAD_BASELINE: u32 = 1 << 13;

    /// Whether `bit` is set.
    pub const fn has(self, bit: u32) -> bool {
        self.0 & bit != 0
    }
}

/// Layout of one plane for copies / footprints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaneInfo {
    /// Format of the plane in footprints (e.g. R8_TYPELESS for NV12 luma).
    pub format: DXGI_FORMAT,
    /// Plane width = ceil(W / width_div) of the block-aligned resource width.
    pub width_div: u8,
    /// Plane height = ceil(H / height_div) of the block-aligned resource height.
    pub height_div: u8,
    /// The minimum row pitch is computed from ceil(W / pitch_width_div) elements
    /// (differs from `width_div` only for NV11's chroma plane).
    pub pitch_width_div: u8,
}

/// Static description of one DXGI format.
#[derive(Debug, Clone, Copy)]
pub struct FormatInfo {
    /// The enum value.
    pub format: DXGI_FORMAT,
    /// Name without the `DXGI_FORMAT_` prefix.
    pub name: &'static str,
    /// Bits per element; per 4×4 block for BC formats; per plane-0 element for planar
    /// formats (d3dx12 BitsPerUnit).
    pub bits_per_element: u16,
    /// Width alignment in texels (block width).
    pub block_width: u8,
    /// Height alignment in texels (block height).
    pub block_height: u8,
    /// FORMAT_INFO PlaneCount (D3D12GetFormatPlaneCount).
    pub plane_count: u8,
    planes: &'static [PlaneInfo],
    /// Typeless parent (the family); the format itself when it has no typeless sibling.
    pub typeless: DXGI_FORMAT,
    /// Cast group representative (a format's views may be cast within its group).
    pub cast_group: DXGI_FORMAT,
    /// Property flags.
    pub flags: FormatFlags,
    /// Capability class, D3D12_FORMAT_SUPPORT1 bits.
    pub class_support1: u32,
    /// Capability class, D3D12_FORMAT_SUPPORT2 bits.
    pub class_support2: u32,
}

impl FormatInfo {
    /// Flag test.
    pub const fn has(&self, bit: u32) -> bool {
        self.flags.has(bit)
    }
    /// Planar per the d3dx12 table (512-byte footprint pitch).
    pub const fn is_planar(&self) -> bool {
        self.has(FormatFlags::PLANAR)
    }
    /// BC1–BC7.
    pub const fn is_block_compressed(&self) -> bool {
        self.has(FormatFlags::BLOCK_COMPRESSED)
    }
    /// Depth or stencil format.
    pub const fn is_depth_stencil(&self) -> bool {
        self.has(FormatFlags::DEPTH) || self.has(FormatFlags::STENCIL)
    }
    /// Partially typed.
    pub const fn is_typeless(&self) -> bool {
        self.has(FormatFlags::TYPELESS)
    }
    /// Whether a resource of this format may be used through any member of its cast group
    /// (views, usage flags, clear values): typeless formats, and the depth-read and
    /// stencil-read members of the depth-stencil families (R24_UNORM_X8_TYPELESS,
    /// X24_TYPELESS_G8_UINT, R32_FLOAT_X8X24_TYPELESS, X32_TYPELESS_G8X24_UINT), whose memory
    /// is the family's planar depth-stencil layout (DirectX-Specs, Planar Depth Stencil).
    pub const fn casts_within_group(&self) -> bool {
        self.is_typeless() || (self.is_depth_stencil() && self.class_support1 & s1::DEPTH_STENCIL == 0)
    }
    /// Video (YUV) format.
    pub const fn is_video(&self) -> bool {
        self.has(FormatFlags::VIDEO)
    }
    /// sRGB.
    pub const fn is_srgb(&self) -> bool {
        self.has(FormatFlags::SRGB)
    }
    /// Bytes of one element (one 4×4 block for BC); 0 for sub-byte formats.
    pub const fn bytes_per_element(&self) -> u32 {
        self.bits_per_element as u32 / 8
    }
    /// Copy layout of plane `plane` (`plane < plane_count`). Non-planar formats have a
    /// single plane whose format is the format itself.
    pub fn plane(&self, plane: u32) -> Option<PlaneInfo> {
        if self.planes.is_empty() {
            if plane == 0 {
                Some(PlaneInfo { format: self.format, width_div: 1, height_div: 1, pitch_width_div: 1 })
            } else {
                None
            }
        } else {
            self.planes.get(plane as usize).copied()
        }
    }
    /// The per-plane layouts (empty for single-plane formats whose copy format is the
    /// format itself).
    pub const fn plane_layouts(&self) -> &'static [PlaneInfo] {
        self.planes
    }
    /// Minimum bytes of one row of `width` texels of this format (d3dx12
    /// CalculateMinimumRowMajorRowPitch): BC → ceil(w/4) blocks; others align_up(w,
    /// block_width) × bits / 8 (rounded up).
    pub const fn min_row_bytes(&self, width: u64) -> u64 {
        if self.format.0 == 0 {
            return width;
        }
        // Block widths are powers of two (1, 2, 4, 8): shifts instead of divisions.
        let shift = (self.block_width as u64).trailing_zeros();
        let blocks = (width + (1 << shift) - 1) >> shift;
        // BC: whole blocks; others: texels rounded up to the block width.
        let units = if self.is_block_compressed() { blocks } else { blocks << shift };
        let bits = units * self.bits_per_element as u64;
        (bits + 7) >> 3
    }
}

// ---------------------------------------------------------------------------------------
// Support bit shorthands (D3D12_FORMAT_SUPPORT1 / 2).

/// D3D12_FORMAT_SUPPORT1 bit values.
pub mod s1 {
    #![allow(missing_docs)]
    pub const BUFFER: u32 = 0x1;
    pub const IA_VERTEX_BUFFER: u32 = 0x2;
    pub const IA_INDEX_BUFFER: u32 = 0x4;
    pub const SO_BUFFER: u32 = 0x8;
    pub const TEXTURE1D: u32 = 0x10;
    pub const TEXTURE2D: u32 = 0x20;
    pub const TEXTURE3D: u32 = 0x40;
    pub const TEXTURECUBE: u32 = 0x80;
    pub const SHADER_LOAD: u32 = 0x100;
    pub const SHADER_SAMPLE: u32 = 0x200;
    pub const SHADER_SAMPLE_COMPARISON: u32 = 0x400;
    pub const SHADER_SAMPLE_MONO_TEXT: u32 = 0x800;
    pub const MIP: u32 = 0x1000;
    pub const RENDER_TARGET: u32 = 0x4000;
    pub const BLENDABLE: u32 = 0x8000;
    pub const DEPTH_STENCIL: u32 = 0x10000;
    pub const MULTISAMPLE_RESOLVE: u32 = 0x40000;
    pub const DISPLAY: u32 = 0x80000;
    pub const CAST_WITHIN_BIT_LAYOUT: u32 = 0x100000;
    pub const MULTISAMPLE_RENDERTARGET: u32 = 0x200000;
    pub const MULTISAMPLE_LOAD: u32 = 0x400000;
    pub const SHADER_GATHER: u32 = 0x800000;
    pub const BACK_BUFFER_CAST: u32 = 0x1000000;
    pub const TYPED_UNORDERED_ACCESS_VIEW: u32 = 0x2000000;
    pub const SHADER_GATHER_COMPARISON: u32 = 0x4000000;
    pub const DECODER_OUTPUT: u32 = 0x8000000;
    pub const VIDEO_PROCESSOR_OUTPUT: u32 = 0x10000000;
    pub const VIDEO_PROCESSOR_INPUT: u32 = 0x20000000;
    pub const VIDEO_ENCODER: u32 = 0x40000000;
}

/// D3D12_FORMAT_SUPPORT2 bit values.
pub mod s2 {
    #![allow(missing_docs)]
    pub const UAV_ATOMIC_ADD: u32 = 0x1;
    pub const UAV_ATOMIC_BITWISE_OPS: u32 = 0x2;
    pub const UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE: u32 = 0x4;
    pub const UAV_ATOMIC_EXCHANGE: u32 = 0x8;
    pub const UAV_ATOMIC_SIGNED_MIN_OR_MAX: u32 = 0x10;
    pub const UAV_ATOMIC_UNSIGNED_MIN_OR_MAX: u32 = 0x20;
    pub const UAV_TYPED_LOAD: u32 = 0x40;
    pub const UAV_TYPED_STORE: u32 = 0x80;
    pub const OUTPUT_MERGER_LOGIC_OP: u32 = 0x100;
    pub const TILED: u32 = 0x200;
    pub const MULTIPLANE_OVERLAY: u32 = 0x4000;
    pub const SAMPLER_FEEDBACK: u32 = 0x8000;
}

use s1::*;
use s2::*;

const TEX: u32 = TEXTURE1D | TEXTURE2D | TEXTURE3D | TEXTURECUBE;
const SAMPLING: u32 = SHADER_LOAD | SHADER_SAMPLE | SHADER_GATHER;
const TYPELESS1: u32 = TEX | MIP | CAST_WITHIN_BIT_LAYOUT;
const NORM1: u32 = BUFFER
    | IA_VERTEX_BUFFER
    | TEX
    | SAMPLING
    | MIP
    | RENDER_TARGET
    | BLENDABLE
    | TYPED_UNORDERED_ACCESS_VIEW
    | MULTISAMPLE_RENDERTARGET
    | MULTISAMPLE_RESOLVE
    | MULTISAMPLE_LOAD
    | CAST_WITHIN_BIT_LAYOUT;
const NORM2: u32 = UAV_TYPED_LOAD | UAV_TYPED_STORE | TILED;
const INT1: u32 = BUFFER
    | IA_VERTEX_BUFFER
    | TEX
    | SHADER_LOAD
    | MIP
    | RENDER_TARGET
    | TYPED_UNORDERED_ACCESS_VIEW
    | MULTISAMPLE_RENDERTARGET
    | MULTISAMPLE_LOAD
    | CAST_WITHIN_BIT_LAYOUT;
const UINT2: u32 = UAV_TYPED_LOAD | UAV_TYPED_STORE | OUTPUT_MERGER_LOGIC_OP | TILED;
const SINT2: u32 = UAV_TYPED_LOAD | UAV_TYPED_STORE | TILED;
const SRGB1: u32 = TEX
    | SAMPLING
    | MIP
    | RENDER_TARGET
    | BLENDABLE
    | MULTISAMPLE_RENDERTARGET
    | MULTISAMPLE_RESOLVE
    | MULTISAMPLE_LOAD
    | CAST_WITHIN_BIT_LAYOUT;
const BCT1: u32 = TEXTURE2D | TEXTURE3D | TEXTURECUBE | MIP | CAST_WITHIN_BIT_LAYOUT;
const BC1S: u32 = BCT1 | SAMPLING;
const DEPTH1: u32 =
    TEXTURE1D | TEXTURE2D | TEXTURECUBE | MIP | DEPTH_STENCIL | MULTISAMPLE_RENDERTARGET | CAST_WITHIN_BIT_LAYOUT;
const DSTYPELESS1: u32 = TEXTURE1D | TEXTURE2D | TEXTURECUBE | MIP | CAST_WITHIN_BIT_LAYOUT;
const DEPTHREAD1: u32 = TEXTURE1D
    | TEXTURE2D
    | TEXTURECUBE
    | SHADER_LOAD
    | SHADER_SAMPLE
    | SHADER_SAMPLE_COMPARISON
    | SHADER_GATHER
    | SHADER_GATHER_COMPARISON
    | MIP
    | MULTISAMPLE_LOAD
    | CAST_WITHIN_BIT_LAYOUT;
const STENCILREAD1: u32 =
    TEXTURE1D | TEXTURE2D | TEXTURECUBE | SHADER_LOAD | MIP | MULTISAMPLE_LOAD | CAST_WITHIN_BIT_LAYOUT;
const VIDEO_IO: u32 = DECODER_OUTPUT | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT;
const ATOMICS: u32 = UAV_ATOMIC_ADD
    | UAV_ATOMIC_BITWISE_OPS
    | UAV_ATOMIC_COMPARE_STORE_OR_COMPARE_EXCHANGE
    | UAV_ATOMIC_EXCHANGE
    | UAV_ATOMIC_SIGNED_MIN_OR_MAX
    | UAV_ATOMIC_UNSIGNED_MIN_OR_MAX;
/// 16-bit BGR formats: B5G6R5, B5G5R5A1, B4G4R4A4, A4B4G4R4 (optional buffer/UAV/RT
/// targets included, no cast).
const BGR16_1: u32 = NORM1 & !CAST_WITHIN_BIT_LAYOUT;

// Flag shorthands.
const F_DEPTH: u32 = FormatFlags::DEPTH;
const F_STENCIL: u32 = FormatFlags::STENCIL;
const F_SRGB: u32 = FormatFlags::SRGB;
const F_TL: u32 = FormatFlags::TYPELESS;
const F_BC: u32 = FormatFlags::BLOCK_COMPRESSED;
const F_VIDEO: u32 = FormatFlags::VIDEO;
const F_PLANAR: u32 = FormatFlags::PLANAR;
const F_PACKED: u32 = FormatFlags::PACKED;
const F_OPAQUE: u32 = FormatFlags::OPAQUE;
const F_NOT12: u32 = FormatFlags::NOT_D3D12;
const F_SFB: u32 = FormatFlags::SAMPLER_FEEDBACK;
const F_NOT_DECODED: u32 = FormatFlags::NOT_DECODED;
const F_VONLY: u32 = FormatFlags::VIDEO_ONLY;
const F_ULB: u32 = FormatFlags::UAV_LOAD_BASELINE;

const fn pl(format: DXGI_FORMAT, width_div: u8, height_div: u8) -> PlaneInfo {
    PlaneInfo { format, width_div, height_div, pitch_width_div: width_div }
}

const PLANES_DS: [PlaneInfo; 2] = [pl(sys::DXGI_FORMAT_R32_TYPELESS, 1, 1), pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1)];
const PLANES_NV12: [PlaneInfo; 2] = [pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1), pl(sys::DXGI_FORMAT_R8G8_TYPELESS, 2, 2)];
const PLANES_P01X: [PlaneInfo; 2] =
    [pl(sys::DXGI_FORMAT_R16_TYPELESS, 1, 1), pl(sys::DXGI_FORMAT_R16G16_TYPELESS, 2, 2)];
const PLANES_420_OPAQUE: [PlaneInfo; 1] = [pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1)];
const PLANES_NV11: [PlaneInfo; 2] = [
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1),
    PlaneInfo { format: sys::DXGI_FORMAT_R8G8_TYPELESS, width_div: 4, height_div: 1, pitch_width_div: 2 },
];
const PLANES_P208: [PlaneInfo; 2] = [pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1), pl(sys::DXGI_FORMAT_R8G8_TYPELESS, 2, 1)];
const PLANES_V208: [PlaneInfo; 3] = [
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1),
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 2),
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 2),
];
const PLANES_V408: [PlaneInfo; 3] = [
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1),
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1),
    pl(sys::DXGI_FORMAT_R8_TYPELESS, 1, 1),
];

/// Plain 1×1-block single-plane format.
const fn f(v: u32, name: &'static str, bits: u16, parent: u32, flags: u32, c1: u32, c2: u32) -> FormatInfo {
    FormatInfo {
        format: DXGI_FORMAT(v),
        name,
        bits_per_element: bits,
        block_width: 1,
        block_height: 1,
        plane_count: 1,
        planes: &[],
        typeless: DXGI_FORMAT(parent),
        cast_group: DXGI_FORMAT(parent),
        flags: FormatFlags(flags),
        class_support1: c1,
        class_support2: c2,
    }
}

const fn block(mut i: FormatInfo, w: u8, h: u8) -> FormatInfo {
    i.block_width = w;
    i.block_height = h;
    i
}

const fn planes(mut i: FormatInfo, count: u8, p: &'static [PlaneInfo]) -> FormatInfo {
    i.plane_count = count;
    i.planes = p;
    i
}

const fn group(mut i: FormatInfo, g: u32) -> FormatInfo {
    i.cast_group = DXGI_FORMAT(g);
    i
}

/// Number of table entries: 0..=115, 130..=132, 189..=191.
const TABLE_LEN: usize = 116 + 3 + 3;

static TABLE: [FormatInfo; TABLE_LEN] = [
    f(0, "UNKNOWN", 0, 0, 0, BUFFER, TILED),
    f(1, "R32G32B32A32_TYPELESS", 128, 1, F_TL, TYPELESS1, TILED),
    f(2, "R32G32B32A32_FLOAT", 128, 1, 0, NORM1 | SO_BUFFER, NORM2),
    f(3, "R32G32B32A32_UINT", 128, 1, 0, INT1 | SO_BUFFER, UINT2),
    f(4, "R32G32B32A32_SINT", 128, 1, 0, INT1 | SO_BUFFER, SINT2),
    f(5, "R32G32B32_TYPELESS", 96, 5, F_TL, TYPELESS1, 0),
    f(
        6,
        "R32G32B32_FLOAT",
        96,
        5,
        0,
        BUFFER
            | IA_VERTEX_BUFFER
            | SO_BUFFER
            | TEX
            | SAMPLING
            | MIP
            | RENDER_TARGET
            | BLENDABLE
            | MULTISAMPLE_RENDERTARGET
            | MULTISAMPLE_RESOLVE
            | MULTISAMPLE_LOAD
            | CAST_WITHIN_BIT_LAYOUT,
        0,
    ),
    f(
        7,
        "R32G32B32_UINT",
        96,
        5,
        0,
        BUFFER
            | IA_VERTEX_BUFFER
            | SO_BUFFER
            | TEX
            | SHADER_LOAD
            | MIP
            | RENDER_TARGET
            | MULTISAMPLE_RENDERTARGET
            | MULTISAMPLE_LOAD
            | CAST_WITHIN_BIT_LAYOUT,
        OUTPUT_MERGER_LOGIC_OP,
    ),
    f(
        8,
        "R32G32B32_SINT",
        96,
        5,
        0,
        BUFFER
            | IA_VERTEX_BUFFER
            | SO_BUFFER
            | TEX
            | SHADER_LOAD
            | MIP
            | RENDER_TARGET
            | MULTISAMPLE_RENDERTARGET
            | MULTISAMPLE_LOAD
            | CAST_WITHIN_BIT_LAYOUT,
        0,
    ),
    f(9, "R16G16B16A16_TYPELESS", 64, 9, F_TL, TYPELESS1, TILED),
    f(10, "R16G16B16A16_FLOAT", 64, 9, 0, NORM1 | DISPLAY | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT, NORM2),
    f(11, "R16G16B16A16_UNORM", 64, 9, 0, NORM1, NORM2),
    f(12, "R16G16B16A16_UINT", 64, 9, 0, INT1, UINT2),
    f(13, "R16G16B16A16_SNORM", 64, 9, 0, NORM1, NORM2),
    f(14, "R16G16B16A16_SINT", 64, 9, 0, INT1, SINT2),
    f(15, "R32G32_TYPELESS", 64, 15, F_TL, TYPELESS1, TILED),
    f(16, "R32G32_FLOAT", 64, 15, 0, NORM1 | SO_BUFFER, NORM2),
    f(17, "R32G32_UINT", 64, 15, 0, INT1 | SO_BUFFER, UINT2),
    f(18, "R32G32_SINT", 64, 15, 0, INT1 | SO_BUFFER, SINT2),
    planes(f(19, "R32G8X24_TYPELESS", 64, 19, F_TL | F_DEPTH | F_STENCIL | F_PLANAR, DSTYPELESS1, 0), 2, &PLANES_DS),
    planes(f(20, "D32_FLOAT_S8X24_UINT", 64, 19, F_DEPTH | F_STENCIL | F_PLANAR, DEPTH1, 0), 2, &PLANES_DS),
    planes(f(21, "R32_FLOAT_X8X24_TYPELESS", 64, 19, F_DEPTH | F_PLANAR, DEPTHREAD1, 0), 2, &PLANES_DS),
    planes(f(22, "X32_TYPELESS_G8X24_UINT", 64, 19, F_STENCIL | F_PLANAR, STENCILREAD1, 0), 2, &PLANES_DS),
    f(23, "R10G10B10A2_TYPELESS", 32, 23, F_TL, TYPELESS1, TILED),
    f(
        24,
        "R10G10B10A2_UNORM",
        32,
        23,
        0,
        NORM1 | DISPLAY | BACK_BUFFER_CAST | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT,
        NORM2,
    ),
    f(25, "R10G10B10A2_UINT", 32, 23, 0, INT1, UINT2),
    f(26, "R11G11B10_FLOAT", 32, 26, 0, NORM1 & !CAST_WITHIN_BIT_LAYOUT, NORM2),
    f(27, "R8G8B8A8_TYPELESS", 32, 27, F_TL, TYPELESS1, TILED),
    f(
        28,
        "R8G8B8A8_UNORM",
        32,
        27,
        0,
        NORM1 | DISPLAY | BACK_BUFFER_CAST | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT,
        NORM2,
    ),
    f(
        29,
        "R8G8B8A8_UNORM_SRGB",
        32,
        27,
        F_SRGB,
        SRGB1 | DISPLAY | BACK_BUFFER_CAST | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT,
        TILED,
    ),
    f(30, "R8G8B8A8_UINT", 32, 27, 0, INT1, UINT2),
    f(31, "R8G8B8A8_SNORM", 32, 27, 0, NORM1, NORM2),
    f(32, "R8G8B8A8_SINT", 32, 27, 0, INT1, SINT2),
    f(33, "R16G16_TYPELESS", 32, 33, F_TL, TYPELESS1, TILED),
    f(34, "R16G16_FLOAT", 32, 33, 0, NORM1, NORM2),
    f(35, "R16G16_UNORM", 32, 33, 0, NORM1, NORM2),
    f(36, "R16G16_UINT", 32, 33, 0, INT1, UINT2),
    f(37, "R16G16_SNORM", 32, 33, 0, NORM1, NORM2),
    f(38, "R16G16_SINT", 32, 33, 0, INT1, SINT2),
    f(39, "R32_TYPELESS", 32, 39, F_TL, TYPELESS1, TILED),
    f(40, "D32_FLOAT", 32, 39, F_DEPTH, DEPTH1, TILED),
    f(
        41,
        "R32_FLOAT",
        32,
        39,
        F_ULB,
        NORM1 | SO_BUFFER | SHADER_SAMPLE_COMPARISON | SHADER_GATHER_COMPARISON,
        NORM2 | UAV_ATOMIC_EXCHANGE,
    ),
    f(42, "R32_UINT", 32, 39, F_ULB, INT1 | SO_BUFFER | IA_INDEX_BUFFER, UINT2 | ATOMICS),
    f(43, "R32_SINT", 32, 39, F_ULB, INT1 | SO_BUFFER, SINT2 | ATOMICS),
    planes(f(44, "R24G8_TYPELESS", 32, 44, F_TL | F_DEPTH | F_STENCIL | F_PLANAR, DSTYPELESS1, 0), 2, &PLANES_DS),
    planes(f(45, "D24_UNORM_S8_UINT", 32, 44, F_DEPTH | F_STENCIL | F_PLANAR, DEPTH1, 0), 2, &PLANES_DS),
    planes(f(46, "R24_UNORM_X8_TYPELESS", 32, 44, F_DEPTH | F_PLANAR, DEPTHREAD1, 0), 2, &PLANES_DS),
    planes(f(47, "X24_TYPELESS_G8_UINT", 32, 44, F_STENCIL | F_PLANAR, STENCILREAD1, 0), 2, &PLANES_DS),
    f(48, "R8G8_TYPELESS", 16, 48, F_TL, TYPELESS1, TILED),
    f(49, "R8G8_UNORM", 16, 48, 0, NORM1, NORM2),
    f(50, "R8G8_UINT", 16, 48, 0, INT1, UINT2),
    f(51, "R8G8_SNORM", 16, 48, 0, NORM1, NORM2),
    f(52, "R8G8_SINT", 16, 48, 0, INT1, SINT2),
    f(53, "R16_TYPELESS", 16, 53, F_TL, TYPELESS1, TILED),
    f(54, "R16_FLOAT", 16, 53, 0, NORM1, NORM2),
    f(55, "D16_UNORM", 16, 53, F_DEPTH, DEPTH1, TILED),
    f(56, "R16_UNORM", 16, 53, 0, NORM1 | SHADER_SAMPLE_COMPARISON | SHADER_GATHER_COMPARISON, NORM2),
    f(57, "R16_UINT", 16, 53, 0, INT1 | IA_INDEX_BUFFER, UINT2),
    f(58, "R16_SNORM", 16, 53, 0, NORM1, NORM2),
    f(59, "R16_SINT", 16, 53, 0, INT1, SINT2),
    f(60, "R8_TYPELESS", 8, 60, F_TL, TYPELESS1, TILED),
    f(61, "R8_UNORM", 8, 60, 0, NORM1, NORM2),
    f(62, "R8_UINT", 8, 60, 0, INT1, UINT2),
    f(63, "R8_SNORM", 8, 60, 0, NORM1, NORM2),
    f(64, "R8_SINT", 8, 60, 0, INT1, SINT2),
    f(65, "A8_UNORM", 8, 65, 0, NORM1 & !(BUFFER | IA_VERTEX_BUFFER | CAST_WITHIN_BIT_LAYOUT), NORM2),
    block(f(66, "R1_UNORM", 1, 66, F_NOT12, 0, 0), 8, 1),
    f(67, "R9G9B9E5_SHAREDEXP", 32, 67, 0, TEX | SAMPLING | MIP, TILED),
    block(f(68, "R8G8_B8G8_UNORM", 16, 68, F_PACKED | F_NOT_DECODED, TEX | SAMPLING | MIP, 0), 2, 1),
    block(f(69, "G8R8_G8B8_UNORM", 16, 69, F_PACKED | F_NOT_DECODED, TEX | SAMPLING | MIP, 0), 2, 1),
    block(f(70, "BC1_TYPELESS", 64, 70, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(71, "BC1_UNORM", 64, 70, F_BC, BC1S, TILED), 4, 4),
    block(f(72, "BC1_UNORM_SRGB", 64, 70, F_BC | F_SRGB, BC1S, TILED), 4, 4),
    block(f(73, "BC2_TYPELESS", 128, 73, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(74, "BC2_UNORM", 128, 73, F_BC, BC1S, TILED), 4, 4),
    block(f(75, "BC2_UNORM_SRGB", 128, 73, F_BC | F_SRGB, BC1S, TILED), 4, 4),
    block(f(76, "BC3_TYPELESS", 128, 76, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(77, "BC3_UNORM", 128, 76, F_BC, BC1S, TILED), 4, 4),
    block(f(78, "BC3_UNORM_SRGB", 128, 76, F_BC | F_SRGB, BC1S, TILED), 4, 4),
    block(f(79, "BC4_TYPELESS", 64, 79, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(80, "BC4_UNORM", 64, 79, F_BC, BC1S, TILED), 4, 4),
    block(f(81, "BC4_SNORM", 64, 79, F_BC, BC1S, TILED), 4, 4),
    block(f(82, "BC5_TYPELESS", 128, 82, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(83, "BC5_UNORM", 128, 82, F_BC, BC1S, TILED), 4, 4),
    block(f(84, "BC5_SNORM", 128, 82, F_BC, BC1S, TILED), 4, 4),
    f(85, "B5G6R5_UNORM", 16, 85, 0, BGR16_1, NORM2),
    f(86, "B5G5R5A1_UNORM", 16, 86, 0, BGR16_1, NORM2),
    f(
        87,
        "B8G8R8A8_UNORM",
        32,
        90,
        0,
        (NORM1 & !TYPED_UNORDERED_ACCESS_VIEW)
            | DISPLAY
            | BACK_BUFFER_CAST
            | VIDEO_PROCESSOR_INPUT
            | VIDEO_PROCESSOR_OUTPUT,
        TILED,
    ),
    f(
        88,
        "B8G8R8X8_UNORM",
        32,
        92,
        0,
        (NORM1 & !TYPED_UNORDERED_ACCESS_VIEW) | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT,
        TILED,
    ),
    group(
        f(
            89,
            "R10G10B10_XR_BIAS_A2_UNORM",
            32,
            89,
            F_NOT_DECODED,
            TEXTURE2D
                | DISPLAY
                | CAST_WITHIN_BIT_LAYOUT
                | BACK_BUFFER_CAST
                | VIDEO_PROCESSOR_INPUT
                | VIDEO_PROCESSOR_OUTPUT,
            TILED,
        ),
        23,
    ),
    f(90, "B8G8R8A8_TYPELESS", 32, 90, F_TL, TYPELESS1, TILED),
    f(
        91,
        "B8G8R8A8_UNORM_SRGB",
        32,
        90,
        F_SRGB,
        SRGB1 | DISPLAY | BACK_BUFFER_CAST | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT,
        TILED,
    ),
    f(92, "B8G8R8X8_TYPELESS", 32, 92, F_TL, TYPELESS1, TILED),
    f(93, "B8G8R8X8_UNORM_SRGB", 32, 92, F_SRGB, SRGB1, TILED),
    block(f(94, "BC6H_TYPELESS", 128, 94, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(95, "BC6H_UF16", 128, 94, F_BC, BC1S, TILED), 4, 4),
    block(f(96, "BC6H_SF16", 128, 94, F_BC, BC1S, TILED), 4, 4),
    block(f(97, "BC7_TYPELESS", 128, 97, F_TL | F_BC, BCT1, TILED), 4, 4),
    block(f(98, "BC7_UNORM", 128, 97, F_BC, BC1S, TILED), 4, 4),
    block(f(99, "BC7_UNORM_SRGB", 128, 97, F_BC | F_SRGB, BC1S, TILED), 4, 4),
    f(
        100,
        "AYUV",
        32,
        100,
        F_VIDEO,
        TEXTURE2D | SAMPLING | MIP | RENDER_TARGET | BLENDABLE | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
        UAV_TYPED_STORE,
    ),
    f(101, "Y410", 32, 101, F_VIDEO, TEXTURE2D | SAMPLING | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO, UAV_TYPED_STORE),
    f(
        102,
        "Y416",
        64,
        102,
        F_VIDEO,
        TEXTURE2D | SAMPLING | MIP | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
        UAV_TYPED_STORE,
    ),
    planes(
        block(
            f(
                103,
                "NV12",
                8,
                103,
                F_VIDEO | F_PLANAR,
                TEXTURE2D | SAMPLING | RENDER_TARGET | BLENDABLE | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
                UAV_TYPED_STORE,
            ),
            2,
            2,
        ),
        2,
        &PLANES_NV12,
    ),
    planes(
        block(
            f(
                104,
                "P010",
                16,
                104,
                F_VIDEO | F_PLANAR,
                TEXTURE2D | SAMPLING | RENDER_TARGET | BLENDABLE | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
                UAV_TYPED_STORE,
            ),
            2,
            2,
        ),
        2,
        &PLANES_P01X,
    ),
    planes(
        block(
            f(
                105,
                "P016",
                16,
                105,
                F_VIDEO | F_PLANAR,
                TEXTURE2D | SAMPLING | RENDER_TARGET | BLENDABLE | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
                UAV_TYPED_STORE,
            ),
            2,
            2,
        ),
        2,
        &PLANES_P01X,
    ),
    planes(
        block(
            f(106, "420_OPAQUE", 8, 106, F_VIDEO | F_PLANAR | F_OPAQUE | F_NOT_DECODED, TEXTURE2D | VIDEO_IO, 0),
            2,
            2,
        ),
        1,
        &PLANES_420_OPAQUE,
    ),
    block(
        f(
            107,
            "YUY2",
            16,
            107,
            F_VIDEO | F_PACKED | F_NOT_DECODED,
            TEXTURE2D | SAMPLING | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
            UAV_TYPED_STORE,
        ),
        2,
        1,
    ),
    block(
        f(
            108,
            "Y210",
            32,
            108,
            F_VIDEO | F_PACKED,
            TEXTURE2D | SAMPLING | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
            UAV_TYPED_STORE,
        ),
        2,
        1,
    ),
    block(
        f(
            109,
            "Y216",
            32,
            109,
            F_VIDEO | F_PACKED,
            TEXTURE2D | SAMPLING | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
            UAV_TYPED_STORE,
        ),
        2,
        1,
    ),
    planes(
        block(
            f(
                110,
                "NV11",
                8,
                110,
                F_VIDEO | F_PLANAR,
                TEXTURE2D | SAMPLING | RENDER_TARGET | BLENDABLE | TYPED_UNORDERED_ACCESS_VIEW | VIDEO_IO,
                UAV_TYPED_STORE,
            ),
            4,
            1,
        ),
        2,
        &PLANES_NV11,
    ),
    f(111, "AI44", 8, 111, F_VIDEO | F_VONLY, TEXTURE2D | VIDEO_PROCESSOR_INPUT, 0),
    f(112, "IA44", 8, 112, F_VIDEO | F_VONLY, TEXTURE2D | VIDEO_PROCESSOR_INPUT, 0),
    f(113, "P8", 8, 113, F_VIDEO | F_VONLY, TEXTURE2D | VIDEO_PROCESSOR_INPUT, 0),
    f(114, "A8P8", 16, 114, F_VIDEO | F_VONLY, TEXTURE2D | VIDEO_PROCESSOR_INPUT, 0),
    f(115, "B4G4R4A4_UNORM", 16, 115, 0, BGR16_1, NORM2),
    // 130..=132
    planes(block(f(130, "P208", 8, 130, F_VIDEO | F_PLANAR | F_VONLY, TEXTURE2D | VIDEO_IO, 0), 2, 1), 2, &PLANES_P208),
    planes(block(f(131, "V208", 8, 131, F_VIDEO | F_PLANAR | F_VONLY, TEXTURE2D | VIDEO_IO, 0), 1, 2), 3, &PLANES_V208),
    planes(f(132, "V408", 8, 132, F_VIDEO | F_PLANAR | F_VONLY, TEXTURE2D | VIDEO_IO, 0), 3, &PLANES_V408),
    // 189..=191
    f(189, "SAMPLER_FEEDBACK_MIN_MIP_OPAQUE", 8, 189, F_OPAQUE | F_SFB, TEXTURE2D, SAMPLER_FEEDBACK),
    f(190, "SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE", 8, 190, F_OPAQUE | F_SFB, TEXTURE2D, SAMPLER_FEEDBACK),
    f(191, "A4B4G4R4_UNORM", 16, 191, 0, BGR16_1, NORM2),
];

const fn index_of(v: u32) -> Option<usize> {
    match v {
        0..=115 => Some(v as usize),
        130..=132 => Some(116 + (v - 130) as usize),
        189..=191 => Some(119 + (v - 189) as usize),
        _ => None,
    }
}

/// The table entry of `f`; `None` for values that are not in the DXGI_FORMAT enum.
#[inline]
pub fn info(f: DXGI_FORMAT) -> Option<&'static FormatInfo> {
    match index_of(f.0) {
        Some(i) => Some(&TABLE[i]),
        None => None,
    }
}

/// Every known format, in enum order.
pub fn all() -> &'static [FormatInfo] {
    &TABLE
}

/// Looks up a format by name, with or without the `DXGI_FORMAT_` prefix, ignoring case.
pub fn from_name(name: &str) -> Option<DXGI_FORMAT> {
    let n = name.trim();
    let stripped = if n.len() >= 12 && n[..12].eq_ignore_ascii_case("DXGI_FORMAT_") { &n[12..] } else { n };
    TABLE.iter().find(|i| i.name.eq_ignore_ascii_case(stripped)).map(|i| i.format)
}

/// The name of a format (without prefix), or `None` for unknown values.
pub fn name(f: DXGI_FORMAT) -> Option<&'static str> {
    info(f).map(|i| i.name)
}

/// CheckFeatureSupport(FORMAT_INFO).PlaneCount: UNKNOWN → 1; values outside the enum and
/// formats D3D12 does not know (R1_UNORM) → `None` (E_INVALIDARG).
pub fn plane_count(f: DXGI_FORMAT) -> Option<u8> {
    let i = info(f)?;
    if i.has(F_NOT12) {
        return None;
    }
    Some(i.plane_count)
}

/// Why FORMAT_SUPPORT failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormatSupportError {
    /// Not a DXGI_FORMAT enum value → E_INVALIDARG.
    InvalidArg,
    /// A known format this adapter does not support → E_FAIL with zero support bits.
    NotSupported,
}

impl FormatSupportError {
    /// The HRESULT class.
    pub fn hr(self) -> crate::error::Hr {
        match self {
            FormatSupportError::InvalidArg => crate::error::Hr::InvalidArg,
            FormatSupportError::NotSupported => crate::error::Hr::Fail,
        }
    }
}

/// Whether the adapter described by `caps` supports the format at all (FORMAT_SUPPORT
/// succeeds). Independent of which individual capabilities are implemented.
pub fn adapter_supports(i: &FormatInfo, caps: &Caps) -> bool {
    if i.has(F_NOT12) {
        return false;
    }
    if i.has(F_VONLY) && !caps.video {
        return false;
    }
    if i.has(F_SFB) && !caps.sampler_feedback {
        return false;
    }
    true
}

/// The capability class masked by what `caps` says is implemented.
pub fn masked_support(i: &FormatInfo, caps: &Caps) -> (u32, u32) {
    let mut a = i.class_support1;
    let mut b = i.class_support2;
    if i.format.0 == 0 {
        // Buffers exist regardless of shaders.
        a = BUFFER;
        b &= TILED;
    } else if !caps.shaders {
        a &= !(BUFFER
            | IA_VERTEX_BUFFER
            | IA_INDEX_BUFFER
            | SO_BUFFER
            | TEXTURECUBE
            | SHADER_LOAD
            | SHADER_SAMPLE
            | SHADER_SAMPLE_COMPARISON
            | SHADER_SAMPLE_MONO_TEXT
            | SHADER_GATHER
            | SHADER_GATHER_COMPARISON
            | MULTISAMPLE_LOAD);
    }
    if !caps.render_targets {
        a &= !(RENDER_TARGET | BLENDABLE | MULTISAMPLE_RESOLVE | DISPLAY | BACK_BUFFER_CAST);
        b &= !OUTPUT_MERGER_LOGIC_OP;
    }
    if i.has(F_VIDEO) && !caps.video {
        // Render targets of video formats are per-plane views, which come with video support;
        // so are the shader views (video formats are not decoded by the sampler).
        a &= !(RENDER_TARGET | BLENDABLE | SHADER_LOAD | SHADER_SAMPLE | SHADER_GATHER | TYPED_UNORDERED_ACCESS_VIEW);
        b &= !(UAV_TYPED_LOAD | UAV_TYPED_STORE);
    }
    if !caps.shaders {
        // Blending and logic ops are done by draws.
        a &= !BLENDABLE;
        b &= !OUTPUT_MERGER_LOGIC_OP;
    }
    if !caps.present {
        a &= !(DISPLAY | BACK_BUFFER_CAST);
    }
    if i.has(F_NOT_DECODED) {
        // Nothing reads or writes its texels but copies: no views that interpret them.
        a &= !(TEXTURECUBE
            | SHADER_LOAD
            | SHADER_SAMPLE
            | SHADER_SAMPLE_COMPARISON
            | SHADER_SAMPLE_MONO_TEXT
            | SHADER_GATHER
            | SHADER_GATHER_COMPARISON
            | RENDER_TARGET
            | BLENDABLE
            | MULTISAMPLE_RENDERTARGET
            | MULTISAMPLE_RESOLVE
            | MULTISAMPLE_LOAD
            | TYPED_UNORDERED_ACCESS_VIEW);
        b &= !(ATOMICS | UAV_TYPED_LOAD | UAV_TYPED_STORE | OUTPUT_MERGER_LOGIC_OP);
    }
    if !caps.stream_output {
        a &= !SO_BUFFER;
    }
    if !caps.msaa_load {
        a &= !MULTISAMPLE_LOAD;
    }
    if !caps.depth_stencil {
        a &= !DEPTH_STENCIL;
    }
    let ms_rt = caps.msaa
        && ((i.class_support1 & RENDER_TARGET != 0 && caps.render_targets)
            || (i.class_support1 & DEPTH_STENCIL != 0 && caps.depth_stencil));
    if !ms_rt {
        a &= !MULTISAMPLE_RENDERTARGET;
    }
    if !caps.msaa {
        a &= !(MULTISAMPLE_RESOLVE | MULTISAMPLE_LOAD);
    }
    if !(caps.uav && caps.shaders) {
        a &= !TYPED_UNORDERED_ACCESS_VIEW;
        b &= !(ATOMICS | UAV_TYPED_LOAD | UAV_TYPED_STORE);
    }
    if !caps.typed_uav_load_additional_formats && !i.has(F_ULB) {
        b &= !UAV_TYPED_LOAD;
    }
    if !caps.video {
        a &= !(DECODER_OUTPUT | VIDEO_PROCESSOR_INPUT | VIDEO_PROCESSOR_OUTPUT | VIDEO_ENCODER);
    }
    if caps.tiled_resources_tier == 0 {
        b &= !TILED;
    }
    b &= !MULTIPLANE_OVERLAY;
    if !caps.sampler_feedback {
        b &= !SAMPLER_FEEDBACK;
    }
    (a, b)
}

/// CheckFeatureSupport(D3D12_FEATURE_FORMAT_SUPPORT): `(Support1, Support2)`.
///
/// Values between the enum's members that name no format (116–129, 133–188) are formats
/// this device does not support (E_FAIL), as on Windows, where every value up to the
/// sampler-feedback formats answers S_OK or E_FAIL; only values past the last format are
/// invalid arguments.
pub fn format_support(f: DXGI_FORMAT, caps: &Caps) -> Result<(u32, u32), FormatSupportError> {
    let Some(i) = info(f) else {
        return Err(if f.0 <= DXGI_FORMAT_A4B4G4R4_UNORM.0 {
            FormatSupportError::NotSupported
        } else {
            FormatSupportError::InvalidArg
        });
    };
    if !adapter_supports(i, caps) {
        return Err(FormatSupportError::NotSupported);
    }
    Ok(masked_support(i, caps))
}

/// OR of the capability classes (Support1) of every format in `f`'s cast group: what a
/// resource of format `f` can be used as through a (possibly cast) view.
pub fn cast_group_class_support1(f: DXGI_FORMAT) -> u32 {
    let Some(i) = info(f) else { return 0 };
    if i.format.0 == 0 {
        return i.class_support1;
    }
    TABLE.iter().filter(|o| o.format.0 != 0 && o.cast_group == i.cast_group).fold(0, |acc, o| acc | o.class_support1)
}

/// Whether `a` and `b` are in the same cast group.
pub fn same_cast_group(a: DXGI_FORMAT, b: DXGI_FORMAT) -> bool {
    match (info(a), info(b)) {
        (Some(x), Some(y)) => x.cast_group == y.cast_group,
        _ => false,
    }
}

/// Why MULTISAMPLE_QUALITY_LEVELS failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MsaaError {
    /// Unknown format enum value or unknown flags → E_INVALIDARG.
    InvalidArg,
    /// SampleCount 0 → E_FAIL (NumQualityLevels set to 0).
    Fail,
}

impl MsaaError {
    /// The HRESULT class.
    pub fn hr(self) -> crate::error::Hr {
        match self {
            MsaaError::InvalidArg => crate::error::Hr::InvalidArg,
            MsaaError::Fail => crate::error::Hr::Fail,
        }
    }
}

/// CheckFeatureSupport(D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS) → NumQualityLevels
/// (features.md §3.5).
///
/// `flags` is D3D12_MULTISAMPLE_QUALITY_LEVEL_FLAGS (NONE 0, TILED_RESOURCE 1).
pub fn msaa_quality_levels(f: DXGI_FORMAT, sample_count: u32, flags: u32, caps: &Caps) -> Result<u32, MsaaError> {
    let i = info(f).ok_or(MsaaError::InvalidArg)?;
    if flags & !sys::D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_TILED_RESOURCE.0 != 0 {
        return Err(MsaaError::InvalidArg);
    }
    if sample_count == 0 {
        return Err(MsaaError::Fail);
    }
    if sample_count == 1 {
        return Ok(1);
    }
    if i.format.0 == 0 || !adapter_supports(i, caps) {
        return Ok(0);
    }
    if !matches!(sample_count, 2 | 4 | 8) {
        return Ok(0);
    }
    // A typeless format is multisampled through its cast group's members (a 4x R32_TYPELESS
    // texture is an R32_FLOAT render target or a D32_FLOAT depth target).
    let (a, b) = if i.casts_within_group() {
        TABLE
            .iter()
            .filter(|o| o.format.0 != 0 && o.cast_group == i.cast_group && adapter_supports(o, caps))
            .map(|o| masked_support(o, caps))
            .fold((0, 0), |(x, y), (a, b)| (x | a, y | b))
    } else {
        masked_support(i, caps)
    };
    if a & MULTISAMPLE_RENDERTARGET == 0 {
        return Ok(0);
    }
    if flags & sys::D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_TILED_RESOURCE.0 != 0
        && (caps.tiled_resources_tier < 2 || b & TILED == 0)
    {
        return Ok(0);
    }
    Ok(1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_sys::*;

    #[test]
    fn table_is_dense_and_in_order() {
        for (idx, i) in TABLE.iter().enumerate() {
            assert_eq!(index_of(i.format.0), Some(idx), "{}", i.name);
            // the footprint/validation code relies on power-of-two block sizes
            assert!(i.block_width.is_power_of_two() && i.block_height.is_power_of_two(), "{}", i.name);
            assert!(info(i.format).is_some());
            if i.plane_count > 1 {
                assert_eq!(i.plane_layouts().len(), i.plane_count as usize, "{}", i.name);
            }
            // parents and groups are real formats of the table
            assert!(info(i.typeless).is_some());
            assert!(info(i.cast_group).is_some());
        }
        assert!(info(DXGI_FORMAT(116)).is_none());
        assert!(info(DXGI_FORMAT(129)).is_none());
        assert!(info(DXGI_FORMAT(133)).is_none());
        assert!(info(DXGI_FORMAT(188)).is_none());
        assert!(info(DXGI_FORMAT(192)).is_none());
        assert!(info(DXGI_FORMAT_FORCE_UINT).is_none());
    }

    #[test]
    fn names_match_sys_constants() {
        let pairs: &[(DXGI_FORMAT, &str)] = &[
            (DXGI_FORMAT_R8G8B8A8_UNORM, "R8G8B8A8_UNORM"),
            (DXGI_FORMAT_D24_UNORM_S8_UINT, "D24_UNORM_S8_UINT"),
            (DXGI_FORMAT_BC7_UNORM_SRGB, "BC7_UNORM_SRGB"),
            (DXGI_FORMAT_420_OPAQUE, "420_OPAQUE"),
            (DXGI_FORMAT_B4G4R4A4_UNORM, "B4G4R4A4_UNORM"),
            (DXGI_FORMAT_P208, "P208"),
            (DXGI_FORMAT_V208, "V208"),
            (DXGI_FORMAT_V408, "V408"),
            (DXGI_FORMAT_SAMPLER_FEEDBACK_MIN_MIP_OPAQUE, "SAMPLER_FEEDBACK_MIN_MIP_OPAQUE"),
            (DXGI_FORMAT_SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE, "SAMPLER_FEEDBACK_MIP_REGION_USED_OPAQUE"),
            (super::DXGI_FORMAT_A4B4G4R4_UNORM, "A4B4G4R4_UNORM"),
            (DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, "R10G10B10_XR_BIAS_A2_UNORM"),
            (DXGI_FORMAT_BC6H_SF16, "BC6H_SF16"),
            (DXGI_FORMAT_A8P8, "A8P8"),
        ];
        for &(fmt, n) in pairs {
            assert_eq!(name(fmt), Some(n));
            assert_eq!(from_name(n), Some(fmt));
        }
    }

    #[test]
    fn from_name_prefix_and_case() {
        assert_eq!(from_name("DXGI_FORMAT_R8G8B8A8_UNORM"), Some(DXGI_FORMAT_R8G8B8A8_UNORM));
        assert_eq!(from_name("dxgi_format_r8g8b8a8_unorm"), Some(DXGI_FORMAT_R8G8B8A8_UNORM));
        assert_eq!(from_name("bc1_unorm_srgb"), Some(DXGI_FORMAT_BC1_UNORM_SRGB));
        assert_eq!(from_name("nv12"), Some(DXGI_FORMAT_NV12));
        assert_eq!(from_name("UNKNOWN"), Some(DXGI_FORMAT_UNKNOWN));
        assert_eq!(from_name("R8G8B8A8"), None);
        assert_eq!(from_name("DXGI_FORMAT_"), None);
        assert_eq!(from_name("FORCE_UINT"), None);
    }

    #[test]
    fn element_sizes_per_footprints_table() {
        let cases: &[(DXGI_FORMAT, u16, u8, u8)] = &[
            (DXGI_FORMAT_R32G32B32A32_FLOAT, 128, 1, 1),
            (DXGI_FORMAT_R32G32B32_FLOAT, 96, 1, 1),
            (DXGI_FORMAT_Y416, 64, 1, 1),
            (DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 64, 1, 1),
            (DXGI_FORMAT_R9G9B9E5_SHAREDEXP, 32, 1, 1),
            (DXGI_FORMAT_D24_UNORM_S8_UINT, 32, 1, 1),
            (DXGI_FORMAT_A8P8, 16, 1, 1),
            (DXGI_FORMAT_P8, 8, 1, 1),
            (DXGI_FORMAT_R1_UNORM, 1, 8, 1),
            (DXGI_FORMAT_YUY2, 16, 2, 1),
            (DXGI_FORMAT_G8R8_G8B8_UNORM, 16, 2, 1),
            (DXGI_FORMAT_Y210, 32, 2, 1),
            (DXGI_FORMAT_BC1_UNORM, 64, 4, 4),
            (DXGI_FORMAT_BC4_SNORM, 64, 4, 4),
            (DXGI_FORMAT_BC6H_UF16, 128, 4, 4),
            (DXGI_FORMAT_NV12, 8, 2, 2),
            (DXGI_FORMAT_420_OPAQUE, 8, 2, 2),
            (DXGI_FORMAT_P016, 16, 2, 2),
            (DXGI_FORMAT_NV11, 8, 4, 1),
            (DXGI_FORMAT_P208, 8, 2, 1),
            (DXGI_FORMAT_V208, 8, 1, 2),
            (DXGI_FORMAT_V408, 8, 1, 1),
        ];
        for &(fmt, bits, bw, bh) in cases {
            let i = info(fmt).unwrap();
            assert_eq!((i.bits_per_element, i.block_width, i.block_height), (bits, bw, bh), "{}", i.name);
        }
    }

    #[test]
    fn min_row_bytes_examples() {
        // BC1: ceil(w/4) × 8
        assert_eq!(info(DXGI_FORMAT_BC1_UNORM).unwrap().min_row_bytes(60), 120);
        assert_eq!(info(DXGI_FORMAT_BC7_UNORM).unwrap().min_row_bytes(1), 16);
        // YUY2: 2 bytes per texel, width aligned to 2
        assert_eq!(info(DXGI_FORMAT_YUY2).unwrap().min_row_bytes(3), 8);
        // R1: 8 texels per byte
        assert_eq!(info(DXGI_FORMAT_R1_UNORM).unwrap().min_row_bytes(9), 2);
        assert_eq!(info(DXGI_FORMAT_R8G8B8A8_UNORM).unwrap().min_row_bytes(32), 128);
        assert_eq!(info(DXGI_FORMAT_UNKNOWN).unwrap().min_row_bytes(4), 4);
    }

    #[test]
    fn plane_counts_per_format_info_rules() {
        assert_eq!(plane_count(DXGI_FORMAT_UNKNOWN), Some(1));
        for fmt in [
            DXGI_FORMAT_NV12,
            DXGI_FORMAT_P010,
            DXGI_FORMAT_P016,
            DXGI_FORMAT_NV11,
            DXGI_FORMAT_P208,
            DXGI_FORMAT_R24G8_TYPELESS,
            DXGI_FORMAT_D24_UNORM_S8_UINT,
            DXGI_FORMAT_R24_UNORM_X8_TYPELESS,
            DXGI_FORMAT_X24_TYPELESS_G8_UINT,
            DXGI_FORMAT_R32G8X24_TYPELESS,
            DXGI_FORMAT_D32_FLOAT_S8X24_UINT,
            DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS,
            DXGI_FORMAT_X32_TYPELESS_G8X24_UINT,
        ] {
            assert_eq!(plane_count(fmt), Some(2), "{:?}", name(fmt));
        }
        assert_eq!(plane_count(DXGI_FORMAT_V208), Some(3));
        assert_eq!(plane_count(DXGI_FORMAT_V408), Some(3));
        for fmt in [
            DXGI_FORMAT_D16_UNORM,
            DXGI_FORMAT_D32_FLOAT,
            DXGI_FORMAT_YUY2,
            DXGI_FORMAT_AYUV,
            DXGI_FORMAT_Y210,
            DXGI_FORMAT_420_OPAQUE,
            DXGI_FORMAT_R8G8B8A8_UNORM,
        ] {
            assert_eq!(plane_count(fmt), Some(1), "{:?}", name(fmt));
        }
        assert_eq!(plane_count(DXGI_FORMAT_R1_UNORM), None);
        assert_eq!(plane_count(DXGI_FORMAT(116)), None);
        assert_eq!(plane_count(DXGI_FORMAT(0xFFFF)), None);
    }

    #[test]
    fn plane_layouts() {
        let d = info(DXGI_FORMAT_D24_UNORM_S8_UINT).unwrap();
        assert_eq!(d.plane(0).unwrap().format, DXGI_FORMAT_R32_TYPELESS);
        assert_eq!(d.plane(1).unwrap().format, DXGI_FORMAT_R8_TYPELESS);
        assert!(d.plane(2).is_none());
        let n = info(DXGI_FORMAT_NV12).unwrap();
        assert_eq!(
            n.plane(1).unwrap(),
            PlaneInfo { format: DXGI_FORMAT_R8G8_TYPELESS, width_div: 2, height_div: 2, pitch_width_div: 2 }
        );
        let n11 = info(DXGI_FORMAT_NV11).unwrap();
        assert_eq!(n11.plane(1).unwrap().width_div, 4);
        assert_eq!(n11.plane(1).unwrap().pitch_width_div, 2);
        let r = info(DXGI_FORMAT_R8G8B8A8_UNORM).unwrap();
        assert_eq!(r.plane(0).unwrap().format, DXGI_FORMAT_R8G8B8A8_UNORM);
        assert!(r.plane(1).is_none());
    }

    #[test]
    fn flags() {
        assert!(info(DXGI_FORMAT_D32_FLOAT).unwrap().is_depth_stencil());
        assert!(!info(DXGI_FORMAT_D32_FLOAT).unwrap().is_planar());
        assert!(info(DXGI_FORMAT_D24_UNORM_S8_UINT).unwrap().is_planar());
        assert!(info(DXGI_FORMAT_D24_UNORM_S8_UINT).unwrap().has(FormatFlags::STENCIL));
        assert!(info(DXGI_FORMAT_BC3_UNORM_SRGB).unwrap().is_srgb());
        assert!(info(DXGI_FORMAT_BC3_UNORM_SRGB).unwrap().is_block_compressed());
        assert!(info(DXGI_FORMAT_R8G8B8A8_TYPELESS).unwrap().is_typeless());
        assert!(!info(DXGI_FORMAT_R24_UNORM_X8_TYPELESS).unwrap().is_typeless());
        assert!(info(DXGI_FORMAT_YUY2).unwrap().has(FormatFlags::PACKED));
        assert!(info(DXGI_FORMAT_R8G8_B8G8_UNORM).unwrap().has(FormatFlags::PACKED));
        assert!(info(DXGI_FORMAT_NV12).unwrap().is_video());
        assert!(info(DXGI_FORMAT_420_OPAQUE).unwrap().is_planar());
    }

    #[test]
    fn cast_groups() {
        assert!(same_cast_group(DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB));
        assert!(same_cast_group(DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_D32_FLOAT));
        assert!(same_cast_group(DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM_SRGB));
        assert!(!same_cast_group(DXGI_FORMAT_B8G8R8A8_UNORM, DXGI_FORMAT_B8G8R8X8_UNORM));
        assert!(same_cast_group(DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, DXGI_FORMAT_R10G10B10A2_TYPELESS));
        assert!(!same_cast_group(DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_B8G8R8A8_UNORM));
        assert_eq!(info(DXGI_FORMAT_D24_UNORM_S8_UINT).unwrap().typeless, DXGI_FORMAT_R24G8_TYPELESS);
        // typeless R32 can become a depth buffer through D32_FLOAT
        assert_ne!(cast_group_class_support1(DXGI_FORMAT_R32_TYPELESS) & s1::DEPTH_STENCIL, 0);
        assert_ne!(cast_group_class_support1(DXGI_FORMAT_R8G8B8A8_TYPELESS) & s1::RENDER_TARGET, 0);
        assert_eq!(cast_group_class_support1(DXGI_FORMAT_BC1_TYPELESS) & s1::RENDER_TARGET, 0);
    }

    #[test]
    fn format_support_today_is_copies_and_clearable_views() {
        let c = Caps::today();
        // UNKNOWN → BUFFER only, plus TILED (reserved buffers; tier 3 today)
        assert_eq!(format_support(DXGI_FORMAT_UNKNOWN, &c), Ok((0x1, 0x200)));
        // RGBA8: BUFFER 0x1 | IA_VERTEX_BUFFER 0x2 | TEXTURE1D/2D/3D/CUBE 0xF0 | SHADER_LOAD 0x100
        // | SHADER_SAMPLE 0x200 | MIP 0x1000 | RENDER_TARGET 0x4000 | BLENDABLE 0x8000 |
        // MULTISAMPLE_RESOLVE 0x40000 | CAST_WITHIN_BIT_LAYOUT 0x100000 | MULTISAMPLE_RENDERTARGET
        // 0x200000 | MULTISAMPLE_LOAD 0x400000 | SHADER_GATHER 0x800000 |
        // TYPED_UNORDERED_ACCESS_VIEW 0x2000000 = 0x2F4D3F3; not DISPLAY / BACK_BUFFER_CAST (no
        // swap chains); SO_BUFFER is for 32-bit channels only. Support2: UAV_TYPED_LOAD 0x40 |
        // UAV_TYPED_STORE 0x80 | TILED 0x200.
        assert_eq!(format_support(DXGI_FORMAT_R8G8B8A8_UNORM, &c), Ok((0x2F4D3F3, 0x2C0)));
        // BGRA8: the same without typed UAVs (its class has none): 0x2F4D3F3 − 0x2000000.
        assert_eq!(format_support(DXGI_FORMAT_B8G8R8A8_UNORM, &c), Ok((0xF4D3F3, 0x200)));
        // D32_FLOAT: TEXTURE1D|2D|CUBE 0xB0 | MIP | DEPTH_STENCIL 0x10000 | CAST |
        // MULTISAMPLE_RENDERTARGET; no TEXTURE3D, not sampled as D32 (its SRVs are R32_FLOAT)
        assert_eq!(format_support(DXGI_FORMAT_D32_FLOAT, &c), Ok((0x3110B0, 0x200)));
        // BC1: TEXTURE2D|3D|CUBE 0xE0 | LOAD | SAMPLE | MIP | CAST | GATHER; no 1D, no views to write
        assert_eq!(format_support(DXGI_FORMAT_BC1_UNORM, &c), Ok((0x9013E0, 0x200)));
        // NV12: TEXTURE2D only (no mips, no cast; video formats are not decoded)
        assert_eq!(format_support(DXGI_FORMAT_NV12, &c), Ok((0x20, 0)));
        // R32_UINT: BUFFER | IA_VERTEX_BUFFER | IA_INDEX_BUFFER | SO_BUFFER 0x8 | TEXTURE1D..CUBE
        // | LOAD | MIP | RENDER_TARGET | CAST | MULTISAMPLE_RENDERTARGET | MULTISAMPLE_LOAD |
        // TYPED_UAV (no sampling, blending or resolve for integers); Support2: every UAV atomic
        // 0x3F | typed load/store 0xC0 | OUTPUT_MERGER_LOGIC_OP 0x100 | TILED.
        assert_eq!(format_support(DXGI_FORMAT_R32_UINT, &c), Ok((0x27051FF, 0x3FF)));
        // a value between the enum's members: not supported; past the last format: invalid
        assert_eq!(format_support(DXGI_FORMAT(116), &c), Err(FormatSupportError::NotSupported));
        assert_eq!(format_support(DXGI_FORMAT(188), &c), Err(FormatSupportError::NotSupported));
        assert_eq!(format_support(DXGI_FORMAT(192), &c), Err(FormatSupportError::InvalidArg));
        assert_eq!(format_support(DXGI_FORMAT(0xFFFF_FFFF), &c), Err(FormatSupportError::InvalidArg));
        // known but unsupported
        for fmt in
            [DXGI_FORMAT_R1_UNORM, DXGI_FORMAT_AI44, DXGI_FORMAT_P208, DXGI_FORMAT_SAMPLER_FEEDBACK_MIN_MIP_OPAQUE]
        {
            assert_eq!(format_support(fmt, &c), Err(FormatSupportError::NotSupported), "{:?}", name(fmt));
        }
    }

    #[test]
    fn required_packed_and_video_formats_report_only_what_resources_do() {
        let c = Caps::today();
        // TEXTURE1D/2D/3D 0x70 | MIP 0x1000: no cube or shader reads (not decoded)
        assert_eq!(format_support(DXGI_FORMAT_R8G8_B8G8_UNORM, &c), Ok((0x1070, 0)));
        assert_eq!(format_support(DXGI_FORMAT_G8R8_G8B8_UNORM, &c), Ok((0x1070, 0)));
        // TEXTURE2D | CAST_WITHIN_BIT_LAYOUT (no display without swap chains) | TILED
        assert_eq!(format_support(DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM, &c), Ok((0x100020, 0x200)));
        // TEXTURE2D, no video
        assert_eq!(format_support(DXGI_FORMAT_420_OPAQUE, &c), Ok((0x20, 0)));
        assert_eq!(format_support(DXGI_FORMAT_YUY2, &c), Ok((0x20, 0)));
    }

    #[test]
    fn typeless_formats_have_their_cast_groups_msaa_levels() {
        let c = Caps::today();
        for f in [DXGI_FORMAT_R32_TYPELESS, DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_R24G8_TYPELESS] {
            assert_eq!(msaa_quality_levels(f, 4, 0, &c), Ok(1), "{:?}", name(f));
        }
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_BC1_TYPELESS, 4, 0, &c), Ok(0));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_R32_TYPELESS, 3, 0, &c), Ok(0));
    }

    #[test]
    fn masked_bits_never_exceed_class() {
        for caps in [Caps::today(), Caps::fl11_1_reference()] {
            for i in all() {
                if let Ok((a, b)) = format_support(i.format, &caps) {
                    assert_eq!(a & !i.class_support1, 0, "{}", i.name);
                    assert_eq!(b & !i.class_support2, 0, "{}", i.name);
                    if !caps.shaders {
                        assert_eq!(a & (s1::SHADER_LOAD | s1::SHADER_SAMPLE | s1::TEXTURECUBE), 0);
                    }
                    if !caps.render_targets {
                        assert_eq!(a & (s1::RENDER_TARGET | s1::BLENDABLE), 0);
                    }
                    if !caps.video {
                        assert_eq!(
                            a & (s1::DECODER_OUTPUT | s1::VIDEO_PROCESSOR_INPUT | s1::VIDEO_PROCESSOR_OUTPUT),
                            0
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn format_support_reference_adapter() {
        let c = Caps::fl11_1_reference();
        let (a, b) = format_support(DXGI_FORMAT_R8G8B8A8_UNORM, &c).unwrap();
        // features.md §3.4 example for R8G8B8A8_UNORM
        let expect = s1::BUFFER
            | s1::IA_VERTEX_BUFFER
            | s1::TEXTURE1D
            | s1::TEXTURE2D
            | s1::TEXTURE3D
            | s1::TEXTURECUBE
            | s1::SHADER_LOAD
            | s1::SHADER_SAMPLE
            | s1::MIP
            | s1::RENDER_TARGET
            | s1::BLENDABLE
            | s1::MULTISAMPLE_RESOLVE
            | s1::CAST_WITHIN_BIT_LAYOUT
            | s1::MULTISAMPLE_RENDERTARGET
            | s1::MULTISAMPLE_LOAD
            | s1::SHADER_GATHER
            | s1::TYPED_UNORDERED_ACCESS_VIEW
            | s1::DISPLAY
            | s1::BACK_BUFFER_CAST;
        assert_eq!(a, expect);
        assert_eq!(b, s2::UAV_TYPED_LOAD | s2::UAV_TYPED_STORE | s2::TILED);
        let (a, b) = format_support(DXGI_FORMAT_R32_UINT, &c).unwrap();
        assert_ne!(a & s1::IA_INDEX_BUFFER, 0);
        assert_eq!(b & 0x3F, 0x3F);
        let (a, _) = format_support(DXGI_FORMAT_D32_FLOAT, &c).unwrap();
        assert_ne!(a & s1::DEPTH_STENCIL, 0);
        assert_eq!(a & s1::TEXTURE3D, 0);
        let (a, _) = format_support(DXGI_FORMAT_BC1_UNORM, &c).unwrap();
        assert_eq!(a & s1::RENDER_TARGET, 0);
    }

    #[test]
    fn msaa_levels_native_rules() {
        let c = Caps::fl11_1_reference();
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0, &c), Err(MsaaError::Fail));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_UNKNOWN, 0, 0, &c), Err(MsaaError::Fail));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_UNKNOWN, 1, 0, &c), Ok(1));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_BC1_UNORM, 1, 0, &c), Ok(1));
        for n in [2, 4, 8, 16, 32] {
            assert_eq!(msaa_quality_levels(DXGI_FORMAT_UNKNOWN, n, 0, &c), Ok(0));
        }
        for n in [3, 5, 6, 7, 32] {
            assert_eq!(msaa_quality_levels(DXGI_FORMAT_R8G8B8A8_UNORM, n, 0, &c), Ok(0));
        }
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 0, &c), Ok(1));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 4, 0, &c), Ok(1));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_BC1_UNORM, 4, 0, &c), Ok(0));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT(200), 4, 0, &c), Err(MsaaError::InvalidArg));
        // today: MSAA render targets with one quality level
        let t = Caps::today();
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_R8G8B8A8_UNORM, 4, 0, &t), Ok(1));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_R8G8B8A8_UNORM, 1, 0, &t), Ok(1));
        assert_eq!(msaa_quality_levels(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0, &t), Err(MsaaError::Fail));
    }
}
