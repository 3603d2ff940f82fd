//! The one validator for D3D12_RESOURCE_DESC / D3D12_RESOURCE_DESC1 (resources.md §4–§6).
//!
//! Order (runtime code): Dimension, Format existence, Layout and unknown flag bits (all
//! reported), then zero sizes, then per-dimension rules, then limits / mips / format
//! support, sample desc, layout-specific rules, flag/format compatibility, clear value,
//! alignment.
//!
//! The context ([`Api`]) changes a few rules:
//! * [`Api::Footprints`] (GetCopyableFootprints) runs the structural rules only: no
//!   adapter-level format support check, no MSAA quality check (Count > 1 is accepted and
//!   ignored), no layout capability checks, no usage-flag/format compatibility, no
//!   alignment check.
//! * [`Api::Committed`]: a 64 KB request for an MSAA texture that fails the 64-tile test is
//!   a warning and falls back to 4 MB (resources.md §6.3 REC); everywhere else it fails.
//! * [`Api::Reserved`]: textures must use a 64KB_* layout, tiled resources must be
//!   supported, packed mips are not allowed on arrays below tier 4.
//!
//! Usage flags (ALLOW_RENDER_TARGET / DEPTH_STENCIL / UNORDERED_ACCESS) are checked against
//! the format's *capability class* (over its cast group for typeless formats), not against
//! what [`Caps`] says is implemented today. MSAA is checked against `msaa_quality_levels(.., caps)`, i.e. what
//! CheckFeatureSupport reports.
//!
//! The success path does not allocate (GetCopyableFootprints calls the internal
//! [`check`] on every call); messages are formatted only when a [`DescError`] is built.

use core::fmt;

use rd3d12_sys as sys;
use rd3d12_sys::{D3D12_RESOURCE_DESC, D3D12_RESOURCE_DESC1, D3D12_RESOURCE_DIMENSION, DXGI_FORMAT};

use crate::caps::Caps;
use crate::error::{msg, Hr, MessageId};
use crate::format::{self, s1, s2, FormatInfo};
use crate::subresource::{max_mip_levels, mip_extent};
use crate::tiling;

/// Which API is validating the desc.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Api {
    /// CreateCommittedResource(1/2/3).
    Committed,
    /// CreatePlacedResource(1/2).
    Placed,
    /// CreateReservedResource(1/2).
    Reserved,
    /// GetResourceAllocationInfo(1/2/3).
    AllocationInfo,
    /// GetCopyableFootprints(1).
    Footprints,
}

/// D3D12_CLEAR_VALUE, read safely. The union is stored as its colour view; the
/// depth-stencil view overlays it (Depth = `color[0]`, Stencil = low byte of `color[1]`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClearValue {
    /// Clear value format.
    pub format: DXGI_FORMAT,
    /// The union's bytes as four floats.
    pub color: [f32; 4],
}

impl ClearValue {
    /// A colour clear value.
    pub const fn color(format: DXGI_FORMAT, rgba: [f32; 4]) -> Self {
        ClearValue { format, color: rgba }
    }
    /// A depth-stencil clear value.
    pub fn depth_stencil(format: DXGI_FORMAT, depth: f32, stencil: u8) -> Self {
        ClearValue { format, color: [depth, f32::from_bits(stencil as u32), 0.0, 0.0] }
    }
    /// From the raw 16 union bytes (little endian).
    pub fn from_bytes(format: DXGI_FORMAT, bytes: [u8; 16]) -> Self {
        let c = |i: usize| f32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        ClearValue { format, color: [c(0), c(4), c(8), c(12)] }
    }
    /// DepthStencil.Depth.
    pub fn depth(&self) -> f32 {
        self.color[0]
    }
    /// DepthStencil.Stencil.
    pub fn stencil(&self) -> u8 {
        (self.color[1].to_bits() & 0xFF) as u8
    }
}

/// A diagnostic (debug-layer message): ID and text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// D3D12_MESSAGE_ID.
    pub id: MessageId,
    /// Human-readable text.
    pub message: String,
}

/// A rejected desc: the HRESULT class, the primary debug message and any further messages
/// of the first validation phase (which reports all its findings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DescError {
    /// HRESULT class (E_INVALIDARG for every desc rule).
    pub hr: Hr,
    /// Primary message ID.
    pub id: MessageId,
    /// Primary message text.
    pub message: String,
    /// Further messages reported together with the primary one.
    pub extra: Vec<Diag>,
}

impl DescError {
    /// The raw HRESULT.
    pub fn hresult(&self) -> i32 {
        self.hr.to_hresult()
    }
}

impl fmt::Display for DescError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.id, self.message)
    }
}

impl std::error::Error for DescError {}

/// A desc that passed validation.
#[derive(Clone)]
pub struct ValidatedDesc {
    /// The desc as GetDesc1 reports it: MipLevels expanded, Alignment expanded to the
    /// effective placement alignment (a valid 4 KB request stays 4096).
    pub desc: D3D12_RESOURCE_DESC1,
    /// The format's table entry.
    pub format: &'static FormatInfo,
    /// Expanded mip count (1 for buffers).
    pub mip_levels: u32,
    /// Array size used for subresource numbering (1 for 3D and buffers).
    pub array_size: u32,
    /// Plane count (1 for buffers).
    pub plane_count: u32,
    /// mips × array × planes.
    pub subresource_count: u32,
    /// Effective placement alignment.
    pub alignment: u64,
    /// Non-fatal messages (e.g. #722 for MipLevels above the maximum).
    pub warnings: Vec<Diag>,
}

impl fmt::Debug for ValidatedDesc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidatedDesc")
            .field("dimension", &self.desc.Dimension)
            .field("width", &self.desc.Width)
            .field("height", &self.desc.Height)
            .field("depth_or_array_size", &self.desc.DepthOrArraySize)
            .field("format", &self.format.name)
            .field("mip_levels", &self.mip_levels)
            .field("alignment", &self.alignment)
            .field("subresource_count", &self.subresource_count)
            .field("warnings", &self.warnings)
            .finish()
    }
}

// ---------------------------------------------------------------------------------------
// Internal, allocation-free core.

/// A finding with a lazily formatted message: `text` with up to three `{}` placeholders.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fault {
    pub id: MessageId,
    pub hr: Hr,
    pub text: &'static str,
    pub args: [u64; 9],
}

impl Fault {
    const fn new(id: MessageId, text: &'static str, a: [u64; 3]) -> Self {
        Fault::new_n(id, text, &a)
    }
    const fn new5(id: MessageId, text: &'static str, args: [u64; 5]) -> Self {
        Fault::new_n(id, text, &args)
    }
    /// Up to nine arguments.
    const fn new_n(id: MessageId, text: &'static str, a: &[u64]) -> Self {
        let mut args = [0u64; 9];
        let mut i = 0;
        while i < a.len() && i < args.len() {
            args[i] = a[i];
            i += 1;
        }
        Fault { id, hr: Hr::InvalidArg, text, args }
    }
    /// Formats the text: `{}` is a decimal argument, `{:#x}` a hexadecimal one, `{fmt}` a
    /// DXGI_FORMAT value by name (`R8G8B8A8_UNORM`, as Microsoft's messages write it) and
    /// `{dim}` a D3D12_RESOURCE_DIMENSION value by name.
    fn render(&self) -> String {
        #[derive(Clone, Copy)]
        enum Kind {
            Dec,
            Hex,
            Format,
            Dimension,
        }
        const KINDS: [(&str, Kind); 4] =
            [("{}", Kind::Dec), ("{:#x}", Kind::Hex), ("{fmt}", Kind::Format), ("{dim}", Kind::Dimension)];
        let mut out = String::with_capacity(self.text.len() + 16);
        let mut args = self.args.iter();
        let mut rest = self.text;
        while let Some(p) = rest.find('{') {
            out.push_str(&rest[..p]);
            let tail = &rest[p..];
            let Some(&(pat, kind)) = KINDS.iter().find(|(pat, _)| tail.starts_with(pat)) else {
                out.push('{');
                rest = &rest[p + 1..];
                continue;
            };
            match (args.next(), kind) {
                (Some(a), Kind::Hex) => out.push_str(&format!("{a:#x}")),
                (Some(a), Kind::Dec) => out.push_str(&a.to_string()),
                (Some(&a), Kind::Format) => match format::name(DXGI_FORMAT(a as u32)) {
                    Some(n) => out.push_str(n),
                    None => out.push_str(&a.to_string()),
                },
                (Some(&a), Kind::Dimension) => out.push_str(dimension_name(a)),
                (None, _) => out.push_str(pat),
            }
            rest = &rest[p + pat.len()..];
        }
        out.push_str(rest);
        out
    }
    fn diag(&self) -> Diag {
        Diag { id: self.id, message: self.render() }
    }
}

fn fault(id: MessageId, text: &'static str) -> Fault {
    Fault::new(id, text, [0; 3])
}

fn fault1(id: MessageId, text: &'static str, a: u64) -> Fault {
    Fault::new(id, text, [a, 0, 0])
}

fn fault2(id: MessageId, text: &'static str, a: u64, b: u64) -> Fault {
    Fault::new(id, text, [a, b, 0])
}

/// At most this many warnings are kept by the internal check.
const MAX_WARN: usize = 4;

/// Result of the internal check.
#[derive(Clone, Copy)]
pub(crate) struct Checked {
    pub info: &'static FormatInfo,
    pub mip_levels: u32,
    pub array_size: u32,
    pub planes: u32,
    pub alignment: u64,
    pub warnings: [Option<Fault>; MAX_WARN],
}

impl Checked {
    fn warn(&mut self, f: Fault) {
        if let Some(slot) = self.warnings.iter_mut().find(|w| w.is_none()) {
            *slot = Some(f);
        }
    }
}

const FLAG_RT: u32 = sys::D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET.0;
const FLAG_DS: u32 = sys::D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL.0;
const FLAG_UAV: u32 = sys::D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS.0;
const FLAG_DENY_SRV: u32 = sys::D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE.0;
const FLAG_CROSS_ADAPTER: u32 = sys::D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER.0;
const FLAG_SIMULTANEOUS: u32 = sys::D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS.0;
const FLAG_VIDEO_DECODE: u32 = sys::D3D12_RESOURCE_FLAG_VIDEO_DECODE_REFERENCE_ONLY.0;
const FLAG_VIDEO_ENCODE: u32 = sys::D3D12_RESOURCE_FLAG_VIDEO_ENCODE_REFERENCE_ONLY.0;
const FLAG_RTAS: u32 = sys::D3D12_RESOURCE_FLAG_RAYTRACING_ACCELERATION_STRUCTURE.0;
/// Flag bits known to SDK 606.
pub const KNOWN_RESOURCE_FLAGS: u32 = 0x1FF;
const FLAG_VIDEO: u32 = FLAG_VIDEO_DECODE | FLAG_VIDEO_ENCODE;

const DIM_BUFFER: D3D12_RESOURCE_DIMENSION = sys::D3D12_RESOURCE_DIMENSION_BUFFER;
const DIM_1D: D3D12_RESOURCE_DIMENSION = sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D;
const DIM_2D: D3D12_RESOURCE_DIMENSION = sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D;
const DIM_3D: D3D12_RESOURCE_DIMENSION = sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D;

const LAYOUT_UNKNOWN: u32 = sys::D3D12_TEXTURE_LAYOUT_UNKNOWN.0;
const LAYOUT_ROW_MAJOR: u32 = sys::D3D12_TEXTURE_LAYOUT_ROW_MAJOR.0;
const LAYOUT_64KB_UNDEFINED: u32 = sys::D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE.0;
const LAYOUT_64KB_STANDARD: u32 = sys::D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE.0;

/// D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT.
pub const ALIGN_64K: u64 = sys::D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT as u64;
/// D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT.
pub const ALIGN_4K: u64 = sys::D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT as u64;
/// D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT.
pub const ALIGN_4M: u64 = sys::D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT as u64;

/// Converts a D3D12_RESOURCE_DESC to a DESC1 (SamplerFeedbackMipRegion zero).
pub fn desc1_from_desc(d: &D3D12_RESOURCE_DESC) -> D3D12_RESOURCE_DESC1 {
    D3D12_RESOURCE_DESC1 {
        Dimension: d.Dimension,
        Alignment: d.Alignment,
        Width: d.Width,
        Height: d.Height,
        DepthOrArraySize: d.DepthOrArraySize,
        MipLevels: d.MipLevels,
        Format: d.Format,
        SampleDesc: d.SampleDesc,
        Layout: d.Layout,
        Flags: d.Flags,
        SamplerFeedbackMipRegion: Default::default(),
    }
}

/// Converts a DESC1 to a DESC (drops SamplerFeedbackMipRegion).
pub fn desc_from_desc1(d: &D3D12_RESOURCE_DESC1) -> D3D12_RESOURCE_DESC {
    D3D12_RESOURCE_DESC {
        Dimension: d.Dimension,
        Alignment: d.Alignment,
        Width: d.Width,
        Height: d.Height,
        DepthOrArraySize: d.DepthOrArraySize,
        MipLevels: d.MipLevels,
        Format: d.Format,
        SampleDesc: d.SampleDesc,
        Layout: d.Layout,
        Flags: d.Flags,
    }
}

/// Phase 1: dimension, format existence, layout, unknown flags. Calls `sink` for every
/// finding, returns the first.
fn phase1(desc: &D3D12_RESOURCE_DESC1, mut sink: impl FnMut(Fault)) -> Option<Fault> {
    let mut first = None;
    let mut report = |f: Fault| {
        if first.is_none() {
            first = Some(f);
        }
        sink(f);
    };
    let dim = desc.Dimension.0;
    if dim == 0 {
        report(fault(
            msg::CREATERESOURCE_INVALIDDIMENSIONALITY,
            "D3D12_RESOURCE_DESC::Dimension is D3D12_RESOURCE_DIMENSION_UNKNOWN.",
        ));
    } else if dim > 4 {
        report(fault1(
            msg::CREATERESOURCE_UNRECOGNIZEDDIMENSIONALITY,
            "D3D12_RESOURCE_DESC::Dimension ({}) is not a D3D12_RESOURCE_DIMENSION value.",
            dim as u64,
        ));
    }
    if format::info(desc.Format).is_none() {
        report(fault1(
            msg::CREATERESOURCE_UNRECOGNIZEDFORMAT,
            "D3D12_RESOURCE_DESC::Format ({}) is not a DXGI_FORMAT value.",
            desc.Format.0 as u64,
        ));
    }
    if desc.Layout.0 > LAYOUT_64KB_STANDARD {
        report(fault1(
            msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT,
            "D3D12_RESOURCE_DESC::Layout ({}) is not a D3D12_TEXTURE_LAYOUT value.",
            desc.Layout.0 as u64,
        ));
    }
    if desc.Flags.0 & !KNOWN_RESOURCE_FLAGS != 0 {
        report(fault1(
            msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT,
            "D3D12_RESOURCE_DESC::Flags contains unrecognized bits ({:#x} is invalid).",
            (desc.Flags.0 & !KNOWN_RESOURCE_FLAGS) as u64,
        ));
    }
    first
}

/// The internal, allocation-free validator.
pub(crate) fn check(
    desc: &D3D12_RESOURCE_DESC1,
    api: Api,
    caps: &Caps,
    clear: Option<&ClearValue>,
) -> Result<Checked, Fault> {
    if let Some(f) = phase1(desc, |_| {}) {
        return Err(f);
    }
    // phase1 guarantees a known format.
    let info = format::info(desc.Format).ok_or_else(|| fault(msg::CREATERESOURCE_UNRECOGNIZEDFORMAT, "bad format"))?;

    if desc.Width == 0 || desc.Height == 0 || desc.DepthOrArraySize == 0 {
        return Err(Fault::new(
            msg::CREATERESOURCE_INVALIDDIMENSIONS,
            "Width ({}), Height ({}) and DepthOrArraySize ({}) must all be at least 1.",
            [desc.Width, desc.Height as u64, desc.DepthOrArraySize as u64],
        ));
    }

    if api == Api::Footprints && !matches!(desc.Alignment, 0 | ALIGN_4K | ALIGN_64K | ALIGN_4M) {
        // GetCopyableFootprints checks no placement rule, but an Alignment that is none of
        // D3D12's placement alignments makes the desc invalid (every output ~0).
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDALIGNMENT,
            "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. It must be 0, 4096, 65536 or 4194304.",
            desc.Alignment,
        ));
    }

    if desc.Dimension == DIM_BUFFER {
        check_buffer(desc, info, api, caps, clear)
    } else {
        check_texture(desc, info, api, caps, clear)
    }
}

fn check_buffer(
    desc: &D3D12_RESOURCE_DESC1,
    info: &'static FormatInfo,
    api: Api,
    caps: &Caps,
    clear: Option<&ClearValue>,
) -> Result<Checked, Fault> {
    if desc.Format != sys::DXGI_FORMAT_UNKNOWN {
        return Err(fault(msg::CREATERESOURCE_INVALIDFORMAT, "Buffers must use DXGI_FORMAT_UNKNOWN."));
    }
    if desc.Height != 1 || desc.DepthOrArraySize != 1 {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDDIMENSIONS,
            "Buffers must have Height 1 and DepthOrArraySize 1 (got {} and {}).",
            desc.Height as u64,
            desc.DepthOrArraySize as u64,
        ));
    }
    let va_limit = 1u64.checked_shl(caps.max_gpu_va_bits_per_resource).unwrap_or(u64::MAX);
    if desc.Width > va_limit {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDDIMENSIONS,
            "Buffer Width ({}) exceeds the per-resource virtual address range ({} bytes).",
            desc.Width,
            va_limit,
        ));
    }
    if desc.MipLevels != 1 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDMIPLEVELS,
            "Buffers must have MipLevels 1 (got {}).",
            desc.MipLevels as u64,
        ));
    }
    if desc.SampleDesc.Count != 1 || desc.SampleDesc.Quality != 0 {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDSAMPLEDESC,
            "Buffers must have SampleDesc {1, 0} (got Count {}, Quality {}).",
            desc.SampleDesc.Count as u64,
            desc.SampleDesc.Quality as u64,
        ));
    }
    if desc.Layout.0 != LAYOUT_ROW_MAJOR {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDLAYOUT,
            "Buffers must use D3D12_TEXTURE_LAYOUT_ROW_MAJOR (got layout {}).",
            desc.Layout.0 as u64,
        ));
    }
    let flags = desc.Flags.0;
    if flags & (FLAG_DS | FLAG_SIMULTANEOUS | FLAG_VIDEO) != 0 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDMISCFLAGS,
            "Buffers cannot use ALLOW_DEPTH_STENCIL, ALLOW_SIMULTANEOUS_ACCESS or VIDEO_*_REFERENCE_ONLY (Flags {:#x}).",
            flags as u64,
        ));
    }
    if flags & FLAG_RTAS != 0 && flags & FLAG_UAV == 0 {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDMISCFLAGS,
            "RAYTRACING_ACCELERATION_STRUCTURE requires ALLOW_UNORDERED_ACCESS.",
        ));
    }
    if api == Api::Reserved && caps.tiled_resources_tier == 0 {
        return Err(fault(msg::CREATERESOURCE_INVALIDLAYOUT, "Reserved resources require tiled resources support."));
    }
    if clear.is_some() {
        return Err(fault(msg::CREATERESOURCE_INVALIDCLEARVALUE, "Buffers cannot have an optimized clear value."));
    }
    if api != Api::Footprints && desc.Alignment != 0 && desc.Alignment != ALIGN_64K {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDALIGNMENT,
            "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. Buffers must set Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.",
            desc.Alignment,
        ));
    }
    Ok(Checked { info, mip_levels: 1, array_size: 1, planes: 1, alignment: ALIGN_64K, warnings: [None; MAX_WARN] })
}

fn dim_name(d: D3D12_RESOURCE_DIMENSION) -> u64 {
    d.0 as u64
}

/// A D3D12_RESOURCE_DIMENSION value's name, for messages.
fn dimension_name(d: u64) -> &'static str {
    match d {
        0 => "D3D12_RESOURCE_DIMENSION_UNKNOWN",
        1 => "D3D12_RESOURCE_DIMENSION_BUFFER",
        2 => "D3D12_RESOURCE_DIMENSION_TEXTURE1D",
        3 => "D3D12_RESOURCE_DIMENSION_TEXTURE2D",
        4 => "D3D12_RESOURCE_DIMENSION_TEXTURE3D",
        _ => "(unrecognized dimension)",
    }
}

fn check_texture(
    desc: &D3D12_RESOURCE_DESC1,
    info: &'static FormatInfo,
    api: Api,
    caps: &Caps,
    clear: Option<&ClearValue>,
) -> Result<Checked, Fault> {
    let dim = desc.Dimension;
    let flags = desc.Flags.0;
    let footprints = api == Api::Footprints;
    let layout = desc.Layout.0;

    // ---- format usable for textures at all
    if desc.Format == sys::DXGI_FORMAT_UNKNOWN {
        return Err(fault(msg::CREATERESOURCE_INVALIDFORMAT, "Textures cannot use DXGI_FORMAT_UNKNOWN."));
    }
    if footprints {
        if info.has(format::FormatFlags::NOT_D3D12) || info.has(format::FormatFlags::SAMPLER_FEEDBACK) {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDFORMAT,
                "Format {} has no copyable layout.",
                desc.Format.0 as u64,
            ));
        }
    } else if !format::adapter_supports(info, caps) {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDFORMAT,
            "Format {} is not supported by this device (CheckFeatureSupport(FORMAT_SUPPORT) fails).",
            desc.Format.0 as u64,
        ));
    }
    let dim_bit = match dim {
        DIM_1D => s1::TEXTURE1D,
        DIM_2D => s1::TEXTURE2D,
        _ => s1::TEXTURE3D,
    };
    if info.class_support1 & dim_bit == 0 {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDDIMENSIONALITY,
            "Format {} does not support resource dimension {}.",
            desc.Format.0 as u64,
            dim_name(dim),
        ));
    }
    if caps.feature_level < sys::D3D_FEATURE_LEVEL_9_1.0 && dim != DIM_2D {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDDIMENSIONALITY,
            "Feature level 1_0_CORE devices only support buffers and 2D textures (dimension {}).",
            dim_name(dim),
        ));
    }

    // ---- per-dimension limits
    let low_fl = !caps.fl11_or_better();
    let max_2d = if low_fl { 8192u64 } else { sys::D3D12_REQ_TEXTURE2D_U_OR_V_DIMENSION as u64 };
    let max_arr = if low_fl { 512u64 } else { sys::D3D12_REQ_TEXTURE2D_ARRAY_AXIS_DIMENSION as u64 };
    let max_3d = sys::D3D12_REQ_TEXTURE3D_U_V_OR_W_DIMENSION as u64;
    let depth_or_array = desc.DepthOrArraySize as u64;
    match dim {
        DIM_1D => {
            if desc.Height != 1 {
                return Err(fault1(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Texture1D Height must be 1 (got {}).",
                    desc.Height as u64,
                ));
            }
            if desc.Width > max_2d {
                return Err(fault2(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Texture1D Width ({}) exceeds {}.",
                    desc.Width,
                    max_2d,
                ));
            }
            if depth_or_array > max_arr {
                return Err(fault2(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Texture1D array size ({}) exceeds {}.",
                    depth_or_array,
                    max_arr,
                ));
            }
        }
        DIM_2D => {
            if desc.Width > max_2d || desc.Height as u64 > max_2d {
                return Err(Fault::new(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Texture2D Width ({}) and Height ({}) must not exceed {}.",
                    [desc.Width, desc.Height as u64, max_2d],
                ));
            }
            if depth_or_array > max_arr {
                return Err(fault2(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Texture2D array size ({}) exceeds {}.",
                    depth_or_array,
                    max_arr,
                ));
            }
        }
        _ => {
            if desc.Width > max_3d || desc.Height as u64 > max_3d || depth_or_array > max_3d {
                return Err(Fault::new(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Texture3D extents ({}, {}, {}) must not exceed 2048.",
                    [desc.Width, desc.Height as u64, depth_or_array],
                ));
            }
        }
    }

    // ---- width/height alignment of the format (block sizes are powers of two)
    let (bw, bh) = (info.block_width as u64, info.block_height as u64);
    let skip_block_check = info.is_block_compressed() && caps.unaligned_block_textures;
    if !skip_block_check && (desc.Width & (bw - 1) != 0 || (desc.Height as u64) & (bh - 1) != 0) {
        return Err(Fault::new5(
            msg::CREATERESOURCE_INVALIDDIMENSIONS,
            "Width ({}) and Height ({}) must be multiples of the format's block size ({}x{}).",
            [desc.Width, desc.Height as u64, bw, bh, 0],
        ));
    }

    // ---- mips
    let max_mips = match dim {
        DIM_1D => max_mip_levels(desc.Width, 1, 1),
        DIM_2D => max_mip_levels(desc.Width, desc.Height, 1),
        _ => max_mip_levels(desc.Width, desc.Height, desc.DepthOrArraySize as u32),
    };
    let mips = if desc.MipLevels == 0 { max_mips } else { desc.MipLevels as u32 };
    let mut checked = Checked {
        info,
        mip_levels: mips,
        array_size: if dim == DIM_3D { 1 } else { desc.DepthOrArraySize as u32 },
        planes: info.plane_count as u32,
        alignment: ALIGN_64K,
        warnings: [None; MAX_WARN],
    };
    if mips > sys::D3D12_REQ_MIP_LEVELS {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDMIPLEVELS,
            "MipLevels ({}) exceeds D3D12_REQ_MIP_LEVELS ({}).",
            mips as u64,
            sys::D3D12_REQ_MIP_LEVELS as u64,
        ));
    }
    if mips > 1 && info.class_support1 & s1::MIP == 0 {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDMIPLEVELS,
            "Format {} does not support mipmaps (MipLevels {} after expansion).",
            desc.Format.0 as u64,
            mips as u64,
        ));
    }
    if mips > max_mips {
        checked.warn(fault2(
            msg::CREATERESOURCE_INVALIDMIPLEVELS,
            "MipLevels ({}) is larger than the full mip chain ({}); the extra levels are 1x1.",
            mips as u64,
            max_mips as u64,
        ));
    }

    // ---- sample desc
    let count = desc.SampleDesc.Count;
    let quality = desc.SampleDesc.Quality;
    if count == 0 {
        return Err(fault(msg::CREATERESOURCE_INVALIDSAMPLEDESC, "SampleDesc.Count must be at least 1."));
    }
    if count > 1 {
        if dim != DIM_2D {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDSAMPLEDESC,
                "Multisampling (Count {}) requires a Texture2D.",
                count as u64,
            ));
        }
        if mips != 1 {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDSAMPLEDESC,
                "Multisampled textures must have exactly one mip level (got {}).",
                mips as u64,
            ));
        }
    }
    if !footprints {
        let qflags = if api == Api::Reserved { sys::D3D12_MULTISAMPLE_QUALITY_LEVELS_FLAG_TILED_RESOURCE.0 } else { 0 };
        let levels = format::msaa_quality_levels(desc.Format, count, qflags, caps).unwrap_or(0);
        let pattern =
            (quality == 0xFFFF_FFFF || quality == 0xFFFF_FFFE) && matches!(count, 1 | 2 | 4 | 8 | 16) && levels > 0;
        if !(quality < levels || pattern) {
            return Err(Fault::new(
                msg::CREATERESOURCE_INVALIDSAMPLEDESC,
                "SampleDesc {Count {}, Quality {}} is not supported for this format ({} quality levels).",
                [count as u64, quality as u64, levels as u64],
            ));
        }
        if count > 1 {
            if flags & (FLAG_RT | FLAG_DS) == 0 {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "Multisampled textures require ALLOW_RENDER_TARGET or ALLOW_DEPTH_STENCIL.",
                ));
            }
            if flags & FLAG_UAV != 0 && !caps.writable_msaa_textures {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "Multisampled textures cannot use ALLOW_UNORDERED_ACCESS on this device.",
                ));
            }
            if flags & FLAG_SIMULTANEOUS != 0 {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "Multisampled textures cannot use ALLOW_SIMULTANEOUS_ACCESS.",
                ));
            }
            if layout == LAYOUT_64KB_STANDARD {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDLAYOUT,
                    "Multisampled textures cannot use D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE.",
                ));
            }
            if layout == LAYOUT_ROW_MAJOR {
                return Err(fault(msg::CREATERESOURCE_INVALIDSAMPLEDESC, "ROW_MAJOR textures cannot be multisampled."));
            }
        }
    }

    // ---- layout-specific rules
    if !footprints {
        if api == Api::Reserved {
            if caps.tiled_resources_tier == 0 {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDLAYOUT,
                    "Reserved resources require tiled resources support.",
                ));
            }
            if layout != LAYOUT_64KB_UNDEFINED && layout != LAYOUT_64KB_STANDARD {
                return Err(fault1(
                    msg::CREATERESOURCE_INVALIDLAYOUT,
                    "Reserved textures must use a 64KB_* layout (got layout {}).",
                    layout as u64,
                ));
            }
        }
        match layout {
            LAYOUT_ROW_MAJOR => check_row_major(desc, info, mips, caps, flags)?,
            LAYOUT_64KB_UNDEFINED => check_64kb_undefined(desc, info, mips, caps, flags)?,
            LAYOUT_64KB_STANDARD => {
                if !caps.standard_swizzle_64kb {
                    return Err(fault(
                        msg::CREATERESOURCE_INVALIDLAYOUT,
                        "D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE is not supported by this device.",
                    ));
                }
                if dim == DIM_1D || count > 1 || flags & FLAG_DS != 0 || info.bits_per_element == 96 {
                    return Err(fault(
                        msg::CREATERESOURCE_INVALIDLAYOUT,
                        "64KB_STANDARD_SWIZZLE is not allowed for Texture1D, MSAA, depth-stencil or 96-bit formats.",
                    ));
                }
                check_64kb_undefined(desc, info, mips, caps, flags)?;
            }
            _ => {}
        }
    }

    // ---- flag combinations
    if flags & FLAG_DS != 0 && flags & (FLAG_RT | FLAG_UAV | FLAG_SIMULTANEOUS) != 0 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDMISCFLAGS,
            "ALLOW_DEPTH_STENCIL cannot be combined with ALLOW_RENDER_TARGET, ALLOW_UNORDERED_ACCESS or ALLOW_SIMULTANEOUS_ACCESS (Flags {:#x}).",
            flags as u64,
        ));
    }
    if flags & FLAG_DENY_SRV != 0 && flags & (FLAG_DS | FLAG_VIDEO) == 0 {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDMISCFLAGS,
            "DENY_SHADER_RESOURCE requires ALLOW_DEPTH_STENCIL (or a VIDEO_*_REFERENCE_ONLY flag).",
        ));
    }
    if flags & FLAG_RTAS != 0 {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDMISCFLAGS,
            "RAYTRACING_ACCELERATION_STRUCTURE is only valid for buffers.",
        ));
    }
    if !footprints {
        // Typeless resources (and the depth-stencil families' depth / stencil read formats)
        // may be used through any member of their cast group; fully typed ones only as
        // themselves (castable-format lists are a post-606 feature).
        let group = if info.casts_within_group() {
            format::cast_group_class_support1(desc.Format)
        } else {
            info.class_support1
        };
        if flags & FLAG_UAV != 0 {
            if !caps.fl11_or_better() {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "ALLOW_UNORDERED_ACCESS on textures requires feature level 11_0.",
                ));
            }
            if group & s1::TYPED_UNORDERED_ACCESS_VIEW == 0 {
                return Err(fault1(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "Format {} (or its cast group, if typeless) does not support typed unordered access.",
                    desc.Format.0 as u64,
                ));
            }
        }
        if flags & FLAG_RT != 0 && group & s1::RENDER_TARGET == 0 {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDMISCFLAGS,
                "Format {} (or its cast group, if typeless) cannot be a render target.",
                desc.Format.0 as u64,
            ));
        }
        if flags & FLAG_DS != 0 && group & s1::DEPTH_STENCIL == 0 {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDMISCFLAGS,
                "Format {} (or its cast group, if typeless) cannot be a depth-stencil target.",
                desc.Format.0 as u64,
            ));
        }
        if flags & FLAG_VIDEO != 0 {
            if !caps.video {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "VIDEO_*_REFERENCE_ONLY requires video support.",
                ));
            }
            if flags & FLAG_DENY_SRV == 0 || dim != DIM_2D || layout != LAYOUT_UNKNOWN || mips != 1 || clear.is_some() {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "VIDEO_*_REFERENCE_ONLY textures must be 2D, DENY_SHADER_RESOURCE, Layout UNKNOWN, one mip, and have no clear value.",
                ));
            }
            if flags & FLAG_VIDEO_DECODE != 0 && info.class_support1 & s1::DECODER_OUTPUT == 0 {
                return Err(fault(
                    msg::CREATERESOURCE_INVALIDMISCFLAGS,
                    "VIDEO_DECODE_REFERENCE_ONLY requires a format with DECODER_OUTPUT support.",
                ));
            }
        }
    }

    // ---- clear value
    if let Some(cv) = clear {
        check_clear_value(desc, info, caps, flags, cv, &mut checked)?;
    }

    // ---- alignment
    if !footprints {
        match texture_alignment(desc, info, api, caps) {
            Ok((a, warn)) => {
                checked.alignment = a;
                if let Some(w) = warn {
                    checked.warn(w);
                }
            }
            Err(f) => return Err(f),
        }
    } else {
        checked.alignment = default_alignment(desc);
    }
    Ok(checked)
}

fn check_row_major(
    desc: &D3D12_RESOURCE_DESC1,
    info: &FormatInfo,
    mips: u32,
    caps: &Caps,
    flags: u32,
) -> Result<(), Fault> {
    if desc.Dimension != DIM_2D {
        return Err(fault(msg::CREATERESOURCE_INVALIDDIMENSIONALITY, "ROW_MAJOR textures must be Texture2D."));
    }
    if mips != 1 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDMIPLEVELS,
            "ROW_MAJOR textures must have one mip level (got {}).",
            mips as u64,
        ));
    }
    if desc.DepthOrArraySize != 1 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDDIMENSIONS,
            "ROW_MAJOR textures cannot be arrays (DepthOrArraySize {}).",
            desc.DepthOrArraySize as u64,
        ));
    }
    if desc.SampleDesc.Count != 1 || desc.SampleDesc.Quality != 0 {
        return Err(fault(msg::CREATERESOURCE_INVALIDSAMPLEDESC, "ROW_MAJOR textures must have SampleDesc {1, 0}."));
    }
    if flags & FLAG_DS != 0 {
        return Err(fault(msg::CREATERESOURCE_INVALIDMISCFLAGS, "ROW_MAJOR textures cannot be depth-stencil targets."));
    }
    if flags & (FLAG_RT | FLAG_UAV) != 0 && !caps.cross_adapter_row_major_texture {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDMISCFLAGS,
            "ROW_MAJOR render targets / UAVs require CrossAdapterRowMajorTextureSupported.",
        ));
    }
    if info.is_video() {
        return Err(fault(msg::CREATERESOURCE_INVALIDFORMAT, "ROW_MAJOR textures cannot use video formats."));
    }
    if flags & FLAG_CROSS_ADAPTER == 0 {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDLAYOUT,
            "ROW_MAJOR textures require D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER.",
        ));
    }
    Ok(())
}

fn check_64kb_undefined(
    desc: &D3D12_RESOURCE_DESC1,
    info: &FormatInfo,
    mips: u32,
    caps: &Caps,
    flags: u32,
) -> Result<(), Fault> {
    let tier = caps.tiled_resources_tier;
    if tier == 0 {
        return Err(fault(msg::CREATERESOURCE_INVALIDLAYOUT, "64KB texture layouts require tiled resources support."));
    }
    if desc.Dimension == DIM_1D {
        return Err(fault(msg::CREATERESOURCE_INVALIDLAYOUT, "64KB texture layouts are not available for Texture1D."));
    }
    if desc.Dimension == DIM_3D
        && tier < 3
        && !(caps.srv_only_tiled_resource_tier3 && flags & (FLAG_RT | FLAG_DS | FLAG_UAV) == 0)
    {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDDIMENSIONALITY,
            "Tiled Texture3D requires tiled resources tier 3.",
        ));
    }
    if info.class_support2 & s2::TILED == 0 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDFORMAT,
            "Format {} does not support tiled resources.",
            desc.Format.0 as u64,
        ));
    }
    if desc.Dimension == DIM_2D && desc.DepthOrArraySize > 1 && tier < 4 {
        let Some(s) = tiling::tile_shape_64k(desc.Format, desc.Dimension, desc.SampleDesc.Count.max(1)) else {
            return Err(fault(msg::CREATERESOURCE_INVALIDFORMAT, "Format has no standard tile shape."));
        };
        let (tw, th) = (s.WidthInTexels as u64, s.HeightInTexels as u64);
        for m in 0..mips {
            let w = mip_extent(desc.Width, m);
            let h = mip_extent(desc.Height as u64, m);
            let bad = if tier == 1 { !w.is_multiple_of(tw) || !h.is_multiple_of(th) } else { w < tw || h < th };
            if bad {
                return Err(Fault::new(
                    msg::CREATERESOURCE_INVALIDDIMENSIONS,
                    "Tiled texture arrays cannot have packed mips below tier 4 (mip {} is {}x{}).",
                    [m as u64, w, h],
                ));
            }
        }
    }
    Ok(())
}

fn check_clear_value(
    desc: &D3D12_RESOURCE_DESC1,
    info: &FormatInfo,
    caps: &Caps,
    flags: u32,
    cv: &ClearValue,
    checked: &mut Checked,
) -> Result<(), Fault> {
    if flags & FLAG_VIDEO != 0 {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDCLEARVALUE,
            "VIDEO_*_REFERENCE_ONLY resources cannot have a clear value.",
        ));
    }
    if flags & (FLAG_RT | FLAG_DS) == 0 {
        return Err(fault(
            msg::CREATERESOURCE_INVALIDCLEARVALUE,
            "An optimized clear value requires ALLOW_RENDER_TARGET or ALLOW_DEPTH_STENCIL.",
        ));
    }
    let Some(ci) = format::info(cv.format) else {
        return Err(fault1(
            msg::CREATERESOURCE_UNRECOGNIZEDCLEARVALUEFORMAT,
            "Clear value format ({}) is not a DXGI_FORMAT value.",
            cv.format.0 as u64,
        ));
    };
    if !format::adapter_supports(ci, caps) || ci.is_typeless() || cv.format == sys::DXGI_FORMAT_UNKNOWN {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT,
            "Clear value format {} is unsupported or typeless.",
            cv.format.0 as u64,
        ));
    }
    if info.casts_within_group() {
        if !format::same_cast_group(desc.Format, cv.format) {
            return Err(fault2(
                msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT,
                "Clear value format {} is not castable from resource format {}.",
                cv.format.0 as u64,
                desc.Format.0 as u64,
            ));
        }
    } else if cv.format != desc.Format {
        return Err(fault2(
            msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT,
            "Clear value format {} must equal the fully typed resource format {}.",
            cv.format.0 as u64,
            desc.Format.0 as u64,
        ));
    }
    if flags & FLAG_RT != 0 && ci.class_support1 & s1::RENDER_TARGET == 0 {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT,
            "Clear value format {} is not a render-target format.",
            cv.format.0 as u64,
        ));
    }
    if flags & FLAG_DS != 0 {
        if ci.class_support1 & s1::DEPTH_STENCIL == 0 {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT,
                "Clear value format {} is not a depth-stencil format.",
                cv.format.0 as u64,
            ));
        }
        let d = cv.depth();
        if !(0.0..=1.0).contains(&d) {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDCLEARVALUE,
                "Depth clear value (bits {:#x}) must be within [0.0, 1.0].",
                d.to_bits() as u64,
            ));
        }
        if d.is_subnormal() {
            checked.warn(fault(
                msg::CREATERESOURCE_CLEARVALUEDENORMFLUSH,
                "The depth clear value is denormalized and will be flushed to zero.",
            ));
        }
    } else if cv.color.iter().any(|c| c.is_subnormal()) {
        checked.warn(fault(
            msg::CREATERESOURCE_CLEARVALUEDENORMFLUSH,
            "The clear colour contains denormalized values that will be flushed to zero.",
        ));
    }
    Ok(())
}

/// The alignment the runtime picks for Alignment = 0 (resources.md §6.1): 64 KB, 4 MB for
/// multisampled textures with Layout UNKNOWN.
pub fn default_alignment(desc: &D3D12_RESOURCE_DESC1) -> u64 {
    if desc.Dimension != DIM_BUFFER && desc.SampleDesc.Count > 1 && desc.Layout.0 == LAYOUT_UNKNOWN {
        ALIGN_4M
    } else {
        ALIGN_64K
    }
}

/// Texture alignment rules (resources.md §6). Returns the effective alignment and an
/// optional warning.
fn texture_alignment(
    desc: &D3D12_RESOURCE_DESC1,
    info: &FormatInfo,
    api: Api,
    caps: &Caps,
) -> Result<(u64, Option<Fault>), Fault> {
    let a = desc.Alignment;
    let count = desc.SampleDesc.Count.max(1);
    if desc.Layout.0 != LAYOUT_UNKNOWN {
        return if a == 0 || a == ALIGN_64K {
            Ok((ALIGN_64K, None))
        } else {
            Err(fault1(
                msg::CREATERESOURCE_INVALIDALIGNMENT,
                "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. Textures with D3D12_TEXTURE_LAYOUT_ROW_MAJOR, D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE or D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE must set Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.",
                a,
            ))
        };
    }
    if a == 0 {
        return Ok((if count > 1 { ALIGN_4M } else { ALIGN_64K }, None));
    }
    if count <= 1 {
        if a == ALIGN_64K {
            return Ok((ALIGN_64K, None));
        }
        if desc.Flags.0 & (FLAG_RT | FLAG_DS) != 0 {
            // Microsoft's wording (the debug layer's #721).
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDALIGNMENT,
                "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. Resources with D3D12_RESOURCE_DESC::Flags with either D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET or D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL must set Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.",
                a,
            ));
        }
        if desc.Flags.0 & FLAG_VIDEO != 0 {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDALIGNMENT,
                "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. Video reference textures must set Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.",
                a,
            ));
        }
        if a != ALIGN_4K {
            return Err(fault1(
                msg::CREATERESOURCE_INVALIDALIGNMENT,
                "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. Textures must set Alignment equal to 0, 4096 (aka. D3D12_SMALL_RESOURCE_PLACEMENT_ALIGNMENT) or 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT).",
                a,
            ));
        }
        if info.is_planar() {
            return Err(fault(
                msg::CREATERESOURCE_INVALIDALIGNMENT,
                "Planar formats cannot use the 4096-byte small resource alignment.",
            ));
        }
        let Some(s) = tiling::tile_shape_4k(desc.Format, desc.Dimension, 1) else {
            return Err(fault(msg::CREATERESOURCE_INVALIDALIGNMENT, "No 4 KB tile shape for this format."));
        };
        let tiles = tiling::mip0_tile_count(desc, &s);
        if tiles > 16 {
            // Microsoft's wording (the debug layer's #721, as GetResourceAllocationInfo and
            // Create*Resource print it).
            return Err(Fault::new_n(
                msg::CREATERESOURCE_INVALIDALIGNMENT,
                "D3D12_RESOURCE_DESC::Alignment cannot be 4KB, since D3D12_RESOURCE_DESC::Width, D3D12_RESOURCE_DESC::Height, and/ or D3D12_RESOURCE_DESC::DepthOrArraySize are too large. 4KB alignment requires the most detailed mip level be theoretically 64KB or smaller. A 4KB tile shape for {dim} and {fmt} is {} texels wide, {} texels high, and {} texels deep. When Width = {}, Height = {}, and Depth = {}, the number of tiles needed is {}, while 16 tiles is the maximum.",
                &[
                    desc.Dimension.0 as u64,
                    desc.Format.0 as u64,
                    s.WidthInTexels as u64,
                    s.HeightInTexels as u64,
                    s.DepthInTexels as u64,
                    desc.Width,
                    desc.Height as u64,
                    if desc.Dimension == DIM_3D { desc.DepthOrArraySize as u64 } else { 1 },
                    tiles,
                ],
            ));
        }
        return Ok((ALIGN_4K, None));
    }
    // multisampled
    if a == ALIGN_4M {
        return Ok((ALIGN_4M, None));
    }
    if a != ALIGN_64K {
        return Err(fault1(
            msg::CREATERESOURCE_INVALIDALIGNMENT,
            "D3D12_RESOURCE_DESC::Alignment is invalid. The value is {}. Multisampled textures must set Alignment equal to 4194304 (aka. D3D12_DEFAULT_MSAA_RESOURCE_PLACEMENT_ALIGNMENT), 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0.",
            a,
        ));
    }
    if caps.msaa_64kb_aligned {
        return Ok((ALIGN_64K, None));
    }
    let ok = match tiling::tile_shape_64k(desc.Format, desc.Dimension, count) {
        Some(s) => tiling::mip0_tile_count(desc, &s) <= 64,
        None => false,
    };
    if ok {
        return Ok((ALIGN_64K, None));
    }
    let f = fault(
        msg::CREATERESOURCE_INVALIDALIGNMENT,
        "Alignment 65536 for a multisampled texture requires the most detailed mip to fit in 64 tiles of 64 KB.",
    );
    if api == Api::Committed {
        Ok((ALIGN_4M, Some(f)))
    } else {
        Err(f)
    }
}

// ---------------------------------------------------------------------------------------
// Public API.

fn build_error(desc: &D3D12_RESOURCE_DESC1, f: Fault) -> DescError {
    let mut extra = Vec::new();
    // Phase-1 findings are all reported.
    let _ = phase1(desc, |g| {
        if g != f {
            extra.push(g.diag());
        }
    });
    DescError { hr: f.hr, id: f.id, message: f.render(), extra }
}

/// Validates a D3D12_RESOURCE_DESC1 for `api`. `clear` is the optimized clear value
/// (pOptimizedClearValue) when the API takes one.
pub fn validate_desc1(
    desc: &D3D12_RESOURCE_DESC1,
    api: Api,
    caps: &Caps,
    clear: Option<&ClearValue>,
) -> Result<ValidatedDesc, DescError> {
    match check(desc, api, caps, clear) {
        Ok(c) => {
            let mut out = *desc;
            out.MipLevels = c.mip_levels as u16;
            out.Alignment = c.alignment;
            let subresource_count =
                if desc.Dimension == DIM_BUFFER { 1 } else { c.mip_levels * c.array_size * c.planes };
            Ok(ValidatedDesc {
                desc: out,
                format: c.info,
                mip_levels: c.mip_levels,
                array_size: c.array_size,
                plane_count: c.planes,
                subresource_count,
                alignment: c.alignment,
                warnings: c.warnings.iter().flatten().map(Fault::diag).collect(),
            })
        }
        Err(f) => Err(build_error(desc, f)),
    }
}

/// Validates a D3D12_RESOURCE_DESC (as DESC1 with a zero SamplerFeedbackMipRegion).
pub fn validate_desc(
    desc: &D3D12_RESOURCE_DESC,
    api: Api,
    caps: &Caps,
    clear: Option<&ClearValue>,
) -> Result<ValidatedDesc, DescError> {
    validate_desc1(&desc1_from_desc(desc), api, caps, clear)
}

#[cfg(test)]
mod tests;
