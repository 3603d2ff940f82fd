//! ID3D12Device::CheckFeatureSupport.
//!
//! Contract (spec/features.md §1): the data size must equal the feature's struct exactly, an
//! unknown feature or a NULL pointer is E_INVALIDARG, NodeIndex must name an existing node, and
//! on failure the caller's struct is left as it was. Every answer is what the runtime can do
//! *today*: a feature that does not exist yet is reported absent, never claimed.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-checkfeaturesupport>

use crate::device::Device;
use crate::error::{Error, Result};
use rd3d12_sys::*;
use std::ffi::c_void;

/// The device's maximum feature level (what the runtime can do today: see `Caps::today`).
pub const MAX_FEATURE_LEVEL: D3D_FEATURE_LEVEL = D3D_FEATURE_LEVEL(rd3d12_core::Caps::today().feature_level);
/// Highest shader model the device reports. The CPU backend executes DXIL (vertex, pixel and
/// compute shaders, through `rd3d12_shader::interp`). 6.1 and 6.2 add nothing it must do
/// beyond 6.0 while their optional features stay off (view instancing tier 0, no
/// barycentrics, no native 16-bit shader ops, wave intrinsics of 6.0 executing); 32-bit floats keep their
/// denormals (a 6.2 shader's `ftz` denorm mode is not honoured yet). 6.1 is the lowest model
/// Mesa's OpenGL-on-12 compiler emits, 6.2 the one Mesa's spirv_to_dxil emits.
pub const MAX_SHADER_MODEL: D3D_SHADER_MODEL = D3D_SHADER_MODEL_6_2;
/// The environment switch that lowers the highest shader model the device reports and accepts,
/// for testing a program's paths for older drivers (programs with DXBC and DXIL builds of their
/// shaders pick DXBC below 6.0): `RD3D12_SHADER_MODEL=5.1` (or 6.0 up to [`MAX_SHADER_MODEL`]).
pub const SHADER_MODEL_ENV: &str = "RD3D12_SHADER_MODEL";
/// Highest root signature version. 1.2 is implemented in rd3d12_core::root_signature but the
/// 1.606 headers whose ABI this runtime implements do not define it (no
/// D3D_ROOT_SIGNATURE_VERSION_1_2, no D3D12_ROOT_SIGNATURE_DESC2), so 1.1 is the highest a 606
/// runtime knows.
pub const MAX_ROOT_SIGNATURE: D3D_ROOT_SIGNATURE_VERSION = D3D_ROOT_SIGNATURE_VERSION_1_1;

pub const NODE_COUNT: u32 = 1;

/// Whether wave intrinsics execute (OPTIONS1.WaveOps): the wave-wide interpreter runs the wave
/// and quad dx.ops of shader model 6.0 ([`rd3d12_shader::interp::wave::WaveOp`]), which
/// `rd3d12_shader::dxil::support` accepts.
const WAVE_OPS: bool = true;

/// OPTIONS1's WaveOps, WaveLaneCountMin, WaveLaneCountMax and TotalLaneCount for a device
/// with (`on`) or without wave intrinsics. The interpreter runs waves of
/// [`DEFAULT_LANES`](rd3d12_shader::interp::wave::DEFAULT_LANES) and, for a shader with
/// `[WaveSize]`, any power of two it allows from 4 to 128: the range D3D12 checks a
/// pipeline's WaveSize against ("D3D12 runtime validation will fail if shaders in a pipeline
/// state object have a required wave size that is not in the range reported by the driver",
/// DirectX-Specs "HLSL SM 6.6 WaveSize"). TotalLaneCount counts the default-size waves of
/// all workers ("the total number of SIMD lanes on the hardware"). Without wave intrinsics
/// the lane counts mean nothing and are 0.
fn wave_caps(on: bool) -> (BOOL, u32, u32, u32) {
    use rd3d12_shader::interp::wave::{DEFAULT_LANES, MAX_LANES, MIN_LANES};
    if !on {
        return (0, 0, 0, 0);
    }
    let workers = u32::try_from(rd3d12_swgpu::pool::threads()).unwrap_or(u32::MAX);
    (1, MIN_LANES, MAX_LANES, DEFAULT_LANES.saturating_mul(workers))
}

/// Reinterprets the caller's buffer as the feature's struct after checking pointer and size.
///
/// # Safety
/// `data` must be null or point at `size` writable bytes.
unsafe fn data<'a, T>(data: *mut c_void, size: u32) -> Result<&'a mut T> {
    if data.is_null() || size as usize != size_of::<T>() || !(data as usize).is_multiple_of(align_of::<T>()) {
        return Err(Error::INVALID_ARG);
    }
    // SAFETY: non-null, aligned, and the caller guarantees `size == size_of::<T>()` bytes; every
    // feature struct is plain old data for which any bit pattern is valid.
    Ok(unsafe { &mut *(data as *mut T) })
}

fn check_node(node: u32) -> Result<()> {
    if node < NODE_COUNT {
        Ok(())
    } else {
        Err(Error::INVALID_ARG)
    }
}

const fn b(v: bool) -> BOOL {
    v as BOOL
}

const KNOWN_LEVELS: &[D3D_FEATURE_LEVEL] = &[
    D3D_FEATURE_LEVEL_1_0_CORE,
    D3D_FEATURE_LEVEL_9_1,
    D3D_FEATURE_LEVEL_9_2,
    D3D_FEATURE_LEVEL_9_3,
    D3D_FEATURE_LEVEL_10_0,
    D3D_FEATURE_LEVEL_10_1,
    D3D_FEATURE_LEVEL_11_0,
    D3D_FEATURE_LEVEL_11_1,
    D3D_FEATURE_LEVEL_12_0,
    D3D_FEATURE_LEVEL_12_1,
    D3D_FEATURE_LEVEL_12_2,
];

/// Whether D3D12CreateDevice accepts `level` as the minimum feature level.
pub fn accepts_minimum_feature_level(level: D3D_FEATURE_LEVEL) -> bool {
    KNOWN_LEVELS.contains(&level)
        && (level == D3D_FEATURE_LEVEL_1_0_CORE || level.0 >= D3D_FEATURE_LEVEL_11_0.0)
        && level.0 <= MAX_FEATURE_LEVEL.0
}

/// FEATURE_LEVELS: the largest requested level not above the device's maximum (requested values
/// need be neither sorted nor valid); 0 if none qualifies.
pub fn max_supported_level(requested: &[D3D_FEATURE_LEVEL]) -> D3D_FEATURE_LEVEL {
    requested.iter().copied().filter(|l| l.0 <= MAX_FEATURE_LEVEL.0).max_by_key(|l| l.0).unwrap_or(D3D_FEATURE_LEVEL(0))
}

fn known_shader_model(m: D3D_SHADER_MODEL) -> bool {
    m == D3D_SHADER_MODEL_5_1 || (D3D_SHADER_MODEL_6_0.0..=D3D_HIGHEST_SHADER_MODEL.0).contains(&m.0)
}

/// The shader model a value of [`SHADER_MODEL_ENV`] names: "5.1", or "6.0" up to
/// [`MAX_SHADER_MODEL`] (surrounding blanks allowed); anything else (models this runtime does not
/// execute, 5.0 and below, which D3D12 has no D3D_SHADER_MODEL value for, or text) is `None`.
pub fn parse_shader_model(v: &str) -> Option<D3D_SHADER_MODEL> {
    let (major, minor) = v.trim().split_once('.')?;
    let (major, minor): (u32, u32) = (major.parse().ok()?, minor.parse().ok()?);
    if major > 0xf || minor > 0xf {
        return None;
    }
    let m = D3D_SHADER_MODEL(((major << 4) | minor) as _);
    (m == D3D_SHADER_MODEL_5_1 || (D3D_SHADER_MODEL_6_0.0..=MAX_SHADER_MODEL.0).contains(&m.0)).then_some(m)
}

/// The highest shader model a device reports for `switch` (the value of [`SHADER_MODEL_ENV`],
/// if set): the model it names, or [`MAX_SHADER_MODEL`] when it is unset, or with a warning
/// when it names no model this runtime can report.
pub fn shader_model_for(switch: Option<&str>) -> (D3D_SHADER_MODEL, Option<String>) {
    match switch {
        None => (MAX_SHADER_MODEL, None),
        Some(v) => match parse_shader_model(v) {
            Some(m) => (m, None),
            None => (
                MAX_SHADER_MODEL,
                Some(format!(
                    "rd3d12: {SHADER_MODEL_ENV}={v:?} ignored: it must be 5.1 or 6.0 to {}.{}",
                    MAX_SHADER_MODEL.0 >> 4,
                    MAX_SHADER_MODEL.0 & 0xf
                )),
            ),
        },
    }
}

/// The highest shader model a device created now reports: [`MAX_SHADER_MODEL`], or lower under
/// [`SHADER_MODEL_ENV`] (a value it cannot take is ignored with a warning on stderr).
pub fn highest_shader_model() -> D3D_SHADER_MODEL {
    let v = std::env::var(SHADER_MODEL_ENV).ok();
    let (m, warning) = shader_model_for(v.as_deref());
    if let Some(w) = warning {
        eprintln!("{w}");
    }
    m
}

/// SHADER_MODEL's answer to a caller who asks for `asked` on a device whose highest model is
/// `highest`: the highest model both support ("no higher than the shader model passed in"), or
/// E_INVALIDARG for a value the runtime does not know.
pub fn report_shader_model(asked: D3D_SHADER_MODEL, highest: D3D_SHADER_MODEL) -> Result<D3D_SHADER_MODEL> {
    if !known_shader_model(asked) {
        return Err(Error::INVALID_ARG);
    }
    Ok(D3D_SHADER_MODEL(asked.0.min(highest.0)))
}

impl Device {
    /// Answers CheckFeatureSupport.
    ///
    /// # Safety
    /// `ptr` must be null or point at `size` writable bytes.
    pub unsafe fn check_feature_support(&self, feature: D3D12_FEATURE, ptr: *mut c_void, size: u32) -> Result<()> {
        let arch = self.backend().architecture();
        let caps = self.caps();
        macro_rules! io {
            ($t:ty) => {
                // SAFETY: forwarded from the caller's contract.
                unsafe { data::<$t>(ptr, size) }?
            };
        }
        match feature {
            D3D12_FEATURE_D3D12_OPTIONS => {
                let d = io!(D3D12_FEATURE_DATA_D3D12_OPTIONS);
                *d = D3D12_FEATURE_DATA_D3D12_OPTIONS {
                    MinPrecisionSupport: D3D12_SHADER_MIN_PRECISION_SUPPORT_NONE,
                    TiledResourcesTier: D3D12_TILED_RESOURCES_TIER(caps.tiled_resources_tier),
                    ResourceBindingTier: D3D12_RESOURCE_BINDING_TIER_3,
                    ConservativeRasterizationTier: D3D12_CONSERVATIVE_RASTERIZATION_TIER_NOT_SUPPORTED,
                    MaxGPUVirtualAddressBitsPerResource: caps.max_gpu_va_bits_per_resource,
                    StandardSwizzle64KBSupported: b(caps.standard_swizzle_64kb),
                    CrossAdapterRowMajorTextureSupported: b(caps.cross_adapter_row_major_texture),
                    CrossNodeSharingTier: D3D12_CROSS_NODE_SHARING_TIER_NOT_SUPPORTED,
                    // Heaps hold any mix of buffers and textures (heap-and-memory.md §6).
                    ResourceHeapTier: D3D12_RESOURCE_HEAP_TIER_2,
                    // The output merger does logic ops on UINT render targets (core::output_merger).
                    OutputMergerLogicOp: 1,
                    // Doubles run in the interpreter (rd3d12_shader::interp) (arithmetic, fma, min/max, conversions).
                    DoublePrecisionFloatShaderOps: 1,
                    TypedUAVLoadAdditionalFormats: b(caps.typed_uav_load_additional_formats),
                    // A pixel shader's SV_StencilRef is the stencil reference of its pixel
                    // (swgpu::draw).
                    PSSpecifiedStencilRefSupported: 1,
                    ..Default::default()
                };
            }
            D3D12_FEATURE_ARCHITECTURE => {
                let d = io!(D3D12_FEATURE_DATA_ARCHITECTURE);
                check_node(d.NodeIndex)?;
                d.TileBasedRenderer = b(arch.tile_based_renderer);
                d.UMA = b(arch.uma);
                d.CacheCoherentUMA = b(arch.cache_coherent_uma);
            }
            D3D12_FEATURE_ARCHITECTURE1 => {
                let d = io!(D3D12_FEATURE_DATA_ARCHITECTURE1);
                check_node(d.NodeIndex)?;
                d.TileBasedRenderer = b(arch.tile_based_renderer);
                d.UMA = b(arch.uma);
                d.CacheCoherentUMA = b(arch.cache_coherent_uma);
                d.IsolatedMMU = b(arch.isolated_mmu);
            }
            D3D12_FEATURE_FEATURE_LEVELS => {
                let d = io!(D3D12_FEATURE_DATA_FEATURE_LEVELS);
                if d.NumFeatureLevels == 0 || d.pFeatureLevelsRequested.is_null() {
                    return Err(Error::INVALID_ARG);
                }
                // SAFETY: the caller passes NumFeatureLevels readable levels.
                let req = unsafe { std::slice::from_raw_parts(d.pFeatureLevelsRequested, d.NumFeatureLevels as usize) };
                d.MaxSupportedFeatureLevel = max_supported_level(req);
            }
            D3D12_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT => {
                let d = io!(D3D12_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT);
                d.MaxGPUVirtualAddressBitsPerResource = caps.max_gpu_va_bits_per_resource;
                d.MaxGPUVirtualAddressBitsPerProcess = 47;
            }
            D3D12_FEATURE_SHADER_MODEL => {
                let d = io!(D3D12_FEATURE_DATA_SHADER_MODEL);
                d.HighestShaderModel = report_shader_model(d.HighestShaderModel, self.shader_model())?;
            }
            D3D12_FEATURE_D3D12_OPTIONS1 => {
                // Wave intrinsics and 64-bit integers are shader model 6.0 features: a device
                // lowered to 5.1 (RD3D12_SHADER_MODEL) has neither, as a 5.1 driver.
                let sm6 = self.shader_model().0 >= D3D_SHADER_MODEL_6_0.0;
                let (wave_ops, lanes_min, lanes_max, lanes_total) = wave_caps(WAVE_OPS && sm6);
                *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS1) = D3D12_FEATURE_DATA_D3D12_OPTIONS1 {
                    WaveOps: wave_ops,
                    WaveLaneCountMin: lanes_min,
                    WaveLaneCountMax: lanes_max,
                    TotalLaneCount: lanes_total,
                    // Always TRUE when the query succeeds (the docs).
                    ExpandedComputeResourceStates: 1,
                    // 64-bit integer arithmetic runs in the interpreter (rd3d12_shader::interp).
                    Int64ShaderOps: b(sm6),
                }
            }
            D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_SUPPORT => {
                let d = io!(D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_SUPPORT);
                check_node(d.NodeIndex)?;
                d.Support = D3D12_PROTECTED_RESOURCE_SESSION_SUPPORT_FLAG_NONE;
            }
            D3D12_FEATURE_ROOT_SIGNATURE => {
                let d = io!(D3D12_FEATURE_DATA_ROOT_SIGNATURE);
                let v = d.HighestVersion;
                // The versions the 606 headers define; any other value is unknown.
                if v != D3D_ROOT_SIGNATURE_VERSION_1_0 && v != D3D_ROOT_SIGNATURE_VERSION_1_1 {
                    return Err(Error::INVALID_ARG);
                }
                d.HighestVersion = D3D_ROOT_SIGNATURE_VERSION(v.0.min(MAX_ROOT_SIGNATURE.0));
            }
            D3D12_FEATURE_D3D12_OPTIONS2 => {
                *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS2) = D3D12_FEATURE_DATA_D3D12_OPTIONS2 {
                    DepthBoundsTestSupported: 0,
                    ProgrammableSamplePositionsTier: D3D12_PROGRAMMABLE_SAMPLE_POSITIONS_TIER(
                        caps.programmable_sample_positions_tier as _,
                    ),
                }
            }
            D3D12_FEATURE_SHADER_CACHE => {
                // GetCachedBlob round-trips through CachedPSO; pipeline libraries serialize.
                io!(D3D12_FEATURE_DATA_SHADER_CACHE).SupportFlags = D3D12_SHADER_CACHE_SUPPORT_FLAGS(
                    D3D12_SHADER_CACHE_SUPPORT_SINGLE_PSO.0 | D3D12_SHADER_CACHE_SUPPORT_LIBRARY.0,
                );
            }
            D3D12_FEATURE_COMMAND_QUEUE_PRIORITY => {
                let d = io!(D3D12_FEATURE_DATA_COMMAND_QUEUE_PRIORITY);
                // Queues of every executable type accept NORMAL and HIGH; GLOBAL_REALTIME needs
                // privileges this adapter does not grant.
                let ty_ok =
                    [D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY]
                        .contains(&d.CommandListType);
                let prio_ok = d.Priority == D3D12_COMMAND_QUEUE_PRIORITY_NORMAL.0
                    || d.Priority == D3D12_COMMAND_QUEUE_PRIORITY_HIGH.0;
                d.PriorityForTypeIsSupported = b(ty_ok && prio_ok);
            }
            D3D12_FEATURE_D3D12_OPTIONS3 => {
                *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS3) = D3D12_FEATURE_DATA_D3D12_OPTIONS3 {
                    // Timestamps come from one CPU clock, which every queue type can read.
                    CopyQueueTimestampQueriesSupported: b(self.copy_queue_timestamps()),
                    WriteBufferImmediateSupportFlags: D3D12_COMMAND_LIST_SUPPORT_FLAGS(
                        D3D12_COMMAND_LIST_SUPPORT_FLAG_DIRECT.0
                            | D3D12_COMMAND_LIST_SUPPORT_FLAG_COMPUTE.0
                            | D3D12_COMMAND_LIST_SUPPORT_FLAG_COPY.0,
                    ),
                    ..Default::default()
                }
            }
            D3D12_FEATURE_EXISTING_HEAPS => io!(D3D12_FEATURE_DATA_EXISTING_HEAPS).Supported = 0,
            D3D12_FEATURE_D3D12_OPTIONS4 => {
                *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS4) = D3D12_FEATURE_DATA_D3D12_OPTIONS4 {
                    MSAA64KBAlignedTextureSupported: b(caps.msaa_64kb_aligned),
                    ..Default::default()
                }
            }
            D3D12_FEATURE_SERIALIZATION => {
                let d = io!(D3D12_FEATURE_DATA_SERIALIZATION);
                check_node(d.NodeIndex)?;
                d.HeapSerializationTier = D3D12_HEAP_SERIALIZATION_TIER_0;
            }
            D3D12_FEATURE_CROSS_NODE => *io!(D3D12_FEATURE_DATA_CROSS_NODE) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS5 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS5) = Default::default(),
            D3D12_FEATURE_DISPLAYABLE => *io!(D3D12_FEATURE_DATA_DISPLAYABLE) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS6 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS6) = Default::default(),
            D3D12_FEATURE_QUERY_META_COMMAND => {
                // No meta commands exist, so every CommandId is unknown.
                io!(D3D12_FEATURE_DATA_QUERY_META_COMMAND);
                return Err(Error::INVALID_ARG);
            }
            D3D12_FEATURE_D3D12_OPTIONS7 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS7) = Default::default(),
            D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPE_COUNT => {
                let d = io!(D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPE_COUNT);
                check_node(d.NodeIndex)?;
                d.Count = 0;
            }
            D3D12_FEATURE_PROTECTED_RESOURCE_SESSION_TYPES => {
                let d = io!(D3D12_FEATURE_DATA_PROTECTED_RESOURCE_SESSION_TYPES);
                check_node(d.NodeIndex)?;
                // Count must equal the type count (0); the array is then never written.
                if d.Count != 0 {
                    return Err(Error::INVALID_ARG);
                }
            }
            D3D12_FEATURE_D3D12_OPTIONS8 => {
                io!(D3D12_FEATURE_DATA_D3D12_OPTIONS8).UnalignedBlockTexturesSupported =
                    b(caps.unaligned_block_textures)
            }
            D3D12_FEATURE_D3D12_OPTIONS9 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS9) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS10 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS10) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS11 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS11) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS12 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS12) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS13 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS13) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS14 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS14) = Default::default(),
            D3D12_FEATURE_D3D12_OPTIONS15 => *io!(D3D12_FEATURE_DATA_D3D12_OPTIONS15) = Default::default(),
            _ => return self.check_format_feature(feature, ptr, size),
        }
        Ok(())
    }

    /// FORMAT_SUPPORT, MULTISAMPLE_QUALITY_LEVELS and FORMAT_INFO; anything else is unknown.
    ///
    /// # Safety
    /// As [`Device::check_feature_support`].
    unsafe fn check_format_feature(&self, feature: D3D12_FEATURE, ptr: *mut c_void, size: u32) -> Result<()> {
        use rd3d12_core::format::{self, FormatSupportError, MsaaError};
        let caps = self.caps();
        match feature {
            D3D12_FEATURE_FORMAT_SUPPORT => {
                // SAFETY: forwarded from the caller's contract.
                let d = unsafe { data::<D3D12_FEATURE_DATA_FORMAT_SUPPORT>(ptr, size) }?;
                match format::format_support(d.Format, caps) {
                    Ok((s1, s2)) => {
                        d.Support1 = D3D12_FORMAT_SUPPORT1(s1 as _);
                        d.Support2 = D3D12_FORMAT_SUPPORT2(s2 as _);
                        Ok(())
                    }
                    Err(FormatSupportError::InvalidArg) => Err(Error::INVALID_ARG),
                    Err(FormatSupportError::NotSupported) => {
                        d.Support1 = D3D12_FORMAT_SUPPORT1(0);
                        d.Support2 = D3D12_FORMAT_SUPPORT2(0);
                        Err(Error::FAIL)
                    }
                }
            }
            D3D12_FEATURE_MULTISAMPLE_QUALITY_LEVELS => {
                // SAFETY: forwarded from the caller's contract.
                let d = unsafe { data::<D3D12_FEATURE_DATA_MULTISAMPLE_QUALITY_LEVELS>(ptr, size) }?;
                match format::msaa_quality_levels(d.Format, d.SampleCount, d.Flags.0 as u32, caps) {
                    Ok(n) => {
                        d.NumQualityLevels = n;
                        Ok(())
                    }
                    Err(MsaaError::InvalidArg) => Err(Error::INVALID_ARG),
                    Err(MsaaError::Fail) => {
                        d.NumQualityLevels = 0;
                        Err(Error::FAIL)
                    }
                }
            }
            D3D12_FEATURE_FORMAT_INFO => {
                // SAFETY: forwarded from the caller's contract.
                let d = unsafe { data::<D3D12_FEATURE_DATA_FORMAT_INFO>(ptr, size) }?;
                d.PlaneCount = format::plane_count(d.Format).ok_or(Error::INVALID_ARG)?;
                Ok(())
            }
            _ => Err(Error::INVALID_ARG),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feature_levels_pick_largest_supported_request() {
        let l = |v: &[u32]| max_supported_level(&v.iter().map(|&x| D3D_FEATURE_LEVEL(x)).collect::<Vec<_>>()).0;
        assert_eq!(l(&[0x9300, 0x9200, 0x9100]), 0x9300);
        assert_eq!(l(&[0x0000, 0x3000]), 0x3000);
        assert_eq!(l(&[0xb000, 0xc000, 0xa000]), 0xc000);
        assert_eq!(l(&[0xb000, 0xb100, 0xc100]), 0xb100);
        assert_eq!(l(&[0xc100]), 0);
    }

    #[test]
    fn wave_lane_counts_are_what_the_interpreter_runs() {
        // On: [WaveSize] 4..=128 accepted (pixel quads are waves of 4), 8 lanes per worker.
        let workers = rd3d12_swgpu::pool::threads() as u32;
        assert_eq!(wave_caps(WAVE_OPS), (1, 4, 128, 8 * workers));
        // Without wave intrinsics the lane counts are 0.
        assert_eq!(wave_caps(false), (0, 0, 0, 0));
    }

    #[test]
    fn shader_model_switch_takes_the_models_the_runtime_executes() {
        let sm = |v: &str| parse_shader_model(v).map(|m| m.0);
        assert_eq!(sm("5.1"), Some(0x51));
        assert_eq!(sm(" 6.0 "), Some(0x60));
        assert_eq!(sm("6.2"), Some(0x62));
        // Above what executes, below what D3D12 names, or not a model at all.
        for bad in ["6.3", "6.9", "5.0", "4.0", "7.0", "51", "5.1.0", "", "x.y", "-5.1", "5.16", "16.1"] {
            assert_eq!(sm(bad), None, "{bad:?}");
        }
        assert_eq!(shader_model_for(None), (MAX_SHADER_MODEL, None));
        assert_eq!(shader_model_for(Some("5.1")), (D3D_SHADER_MODEL_5_1, None));
        let (m, warning) = shader_model_for(Some("6.6"));
        assert_eq!(m, MAX_SHADER_MODEL);
        assert!(warning.unwrap().contains("RD3D12_SHADER_MODEL=\"6.6\" ignored"));
    }

    #[test]
    fn shader_model_report_is_the_lower_of_asked_and_highest() {
        let r = |asked: u32, highest| report_shader_model(D3D_SHADER_MODEL(asked), highest).map(|m| m.0);
        // The usual probe, D3D_HIGHEST_SHADER_MODEL, is lowered to the device's highest.
        assert_eq!(r(D3D_HIGHEST_SHADER_MODEL.0, D3D_SHADER_MODEL_5_1), Ok(0x51));
        assert_eq!(r(0x62, D3D_SHADER_MODEL_5_1), Ok(0x51));
        assert_eq!(r(0x60, D3D_SHADER_MODEL_6_2), Ok(0x60));
        assert_eq!(r(0x51, D3D_SHADER_MODEL_6_2), Ok(0x51));
        assert_eq!(r(0x65, MAX_SHADER_MODEL), Ok(MAX_SHADER_MODEL.0));
        // Unknown values stay E_INVALIDARG whatever the device's model.
        for bad in [0x50, 0x40, 0x52, 0x5f, 0x70, 0] {
            assert_eq!(r(bad, D3D_SHADER_MODEL_5_1), Err(Error::INVALID_ARG), "{bad:#x}");
            assert_eq!(r(bad, MAX_SHADER_MODEL), Err(Error::INVALID_ARG), "{bad:#x}");
        }
    }

    #[test]
    fn minimum_feature_level_rules() {
        for ok in [D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_12_0, D3D_FEATURE_LEVEL_1_0_CORE] {
            assert!(accepts_minimum_feature_level(ok), "{ok:?}");
        }
        for bad in [0, !0, 0x9100, 0x9200, 0x9300, 0xa000, 0xa100, 0xb001, 0xb101, 0xc100, 0xc200] {
            assert!(!accepts_minimum_feature_level(D3D_FEATURE_LEVEL(bad)), "{bad:#x}");
        }
    }
}
