//! What the runtime has actually implemented.
//!
//! The format table ([`crate::format`]) records the D3D12 *capability class* of every
//! format: what a feature-level 11_1 software adapter reports per Microsoft's
//! required-format tables. [`Caps`] says which of those capabilities the CPU backend can
//! deliver today; [`crate::format::format_support`] masks the class with it, so
//! `CheckFeatureSupport(FORMAT_SUPPORT)` never promises more than the runtime does.
//!
//! Resource *creation* validation deliberately checks the capability class instead of the
//! masked bits for usage flags (ALLOW_RENDER_TARGET / ALLOW_DEPTH_STENCIL /
//! ALLOW_UNORDERED_ACCESS): applications create render targets before they draw, and such
//! a resource is still a perfectly good copy source/destination for a CPU backend.

use rd3d12_sys as sys;

/// Implemented capabilities of the device/backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caps {
    /// `D3D_FEATURE_LEVEL` value of the device (e.g. `0xb100` for 11_1).
    pub feature_level: u32,
    /// Shaders execute (SRV/sampling/gather/typed buffer views, input assembler, stream out).
    pub shaders: bool,
    /// Render-target views: RTVs are created, bound and cleared (FORMAT_SUPPORT1_RENDER_TARGET).
    /// Blending and logic ops happen in draws, so they also need `shaders`.
    pub render_targets: bool,
    /// Depth-stencil views: DSVs are created, bound and cleared (FORMAT_SUPPORT1_DEPTH_STENCIL).
    pub depth_stencil: bool,
    /// Unordered-access views (typed UAV, UAV loads/stores/atomics). Needs `shaders`.
    pub uav: bool,
    /// Multisampled render targets (and MSAA resolves).
    pub msaa: bool,
    /// Loads from multisampled textures in shaders (Texture2DMS.Load).
    pub msaa_load: bool,
    /// The stream-output stage (SO_BUFFER).
    pub stream_output: bool,
    /// Video decode / processing / encode.
    pub video: bool,
    /// Swap chains / scan-out (DISPLAY, BACK_BUFFER_CAST).
    pub present: bool,
    /// `D3D12_TILED_RESOURCES_TIER` (0 = not supported, 1..=4).
    pub tiled_resources_tier: u32,
    /// OPTIONS5.SRVOnlyTiledResourceTier3.
    pub srv_only_tiled_resource_tier3: bool,
    /// OPTIONS.StandardSwizzle64KBSupported.
    pub standard_swizzle_64kb: bool,
    /// OPTIONS.CrossAdapterRowMajorTextureSupported.
    pub cross_adapter_row_major_texture: bool,
    /// Block-compressed textures whose top level is not a multiple of the block size
    /// (OPTIONS8.UnalignedBlockTexturesSupported).
    pub unaligned_block_textures: bool,
    /// OPTIONS4.MSAA64KBAlignedTextureSupported.
    pub msaa_64kb_aligned: bool,
    /// OPTIONS.TypedUAVLoadAdditionalFormats.
    pub typed_uav_load_additional_formats: bool,
    /// OPTIONS14.WriteableMSAATexturesSupported (MSAA + ALLOW_UNORDERED_ACCESS).
    pub writable_msaa_textures: bool,
    /// OPTIONS7.SamplerFeedbackTier != NOT_SUPPORTED.
    pub sampler_feedback: bool,
    /// GPU_VIRTUAL_ADDRESS_SUPPORT.MaxGPUVirtualAddressBitsPerResource.
    pub max_gpu_va_bits_per_resource: u32,
    /// OPTIONS2.ProgrammableSamplePositionsTier (0 = not supported, 1, 2). Besides
    /// SetSamplePositions, a non-zero tier lifts the runtime's whole-subresource rule for
    /// CopyTextureRegion of depth-stencil and multisampled resources.
    pub programmable_sample_positions_tier: u32,
}

impl Caps {
    /// What the CPU backend can do today: buffers and textures, copies and maps, clears, and
    /// draws and dispatches of DXIL vertex, pixel and compute shaders. No video, no swap chains.
    pub const fn today() -> Self {
        Caps {
            // Feature level 12_0 (learn.microsoft.com "Hardware feature levels" table; D3D11.3
            // functional spec "Feature Level 11_1"), each requirement executing:
            // - 11_1: UAVs at every stage (vertex, hull, domain, geometry, pixel and compute run
            //   the same loads, stores and atomics: swgpu's wave_resource_ops!; conf_fl11_1.cpp
            //   draws with vertex, geometry and pixel shader UAVs, dxbc_draw.cpp with hull and
            //   domain shader UAVs), 64 UAV slots (resource
            //   binding tier 3 bounds none; tier 1's 8 → 64 in root_signature::tier_limit),
            //   output-merger logic ops on UINT targets, target-independent rasterization
            //   (ForcedSampleCount 1/2/4/8/16 with no target or single-sampled targets:
            //   swgpu::draw::setup rasterizes at the forced count, SV_Coverage has its samples),
            //   UAV-only rendering forcing up to 16 samples, MRT with ForcedSampleCount 1,
            //   constant buffer offsetting and partial updates (root CBVs at any 256-byte
            //   aligned address, descriptor-table CBVs of any range), 16-bit BGR formats
            //   (format::BGR16_1). Minimum precision is optional (reported NONE: 32-bit math).
            // - 12_0: resource binding tier 2 (3 reported), tiled resources tier 2 (3),
            //   typed UAV loads of the additional formats, min/max filtering
            //   (swgpu::sample's reduction types), shader model 5.1 (DXBC) and 6.0 (DXIL).
            // Not 12_1: no conservative rasterization, no rasterizer-ordered views.
            feature_level: sys::D3D_FEATURE_LEVEL_12_0.0,
            // DXIL shaders execute (the shader crate's interpreter): sampling, gathers, loads, vertex and index
            // buffers, blending and logic ops in draws.
            shaders: true,
            // RTVs and DSVs are created, bound, cleared and drawn into.
            render_targets: true,
            depth_stencil: true,
            // Typed, raw and structured UAVs: loads, stores and atomics from shaders, clears.
            uav: true,
            // Multisampled render targets and depth buffers: clears, copies, resolves and
            // draws set every sample (4 MB / 64 KB placement like hardware).
            msaa: true,
            // Texture2DMS SRVs load any sample.
            msaa_load: true,
            // Stream 0 is written to SO buffers (draw::stream_output) and counted by
            // SO_STATISTICS queries.
            stream_output: true,
            video: false,
            present: false,
            // Reserved resources map 64 KB tiles from heaps; unmapped tiles read zero and drop
            // writes (tier 2), 3D reserved textures work the same way (tier 3).
            tiled_resources_tier: 3,
            srv_only_tiled_resource_tier3: false,
            standard_swizzle_64kb: false,
            cross_adapter_row_major_texture: false,
            // Footprints round every mip up to whole blocks; the CPU backend has no reason
            // to refuse unaligned BC top levels (resources.md §5.3 REC).
            unaligned_block_textures: true,
            msaa_64kb_aligned: true,
            // Typed UAV loads decode every format the backend stores (pack::decode_lanes).
            typed_uav_load_additional_formats: true,
            writable_msaa_textures: false,
            sampler_feedback: false,
            max_gpu_va_bits_per_resource: 40,
            programmable_sample_positions_tier: 1,
        }
    }

    /// A complete feature-level 11_1 software adapter (every capability the format classes
    /// describe, tiled resources tier 3). Used as the reference configuration in tests and
    /// as the target the backend grows into.
    pub const fn fl11_1_reference() -> Self {
        Caps {
            feature_level: sys::D3D_FEATURE_LEVEL_11_1.0,
            shaders: true,
            render_targets: true,
            depth_stencil: true,
            uav: true,
            msaa: true,
            msaa_load: true,
            stream_output: true,
            video: false,
            present: true,
            tiled_resources_tier: 3,
            srv_only_tiled_resource_tier3: false,
            standard_swizzle_64kb: false,
            cross_adapter_row_major_texture: false,
            unaligned_block_textures: true,
            msaa_64kb_aligned: true,
            typed_uav_load_additional_formats: true,
            writable_msaa_textures: false,
            sampler_feedback: false,
            max_gpu_va_bits_per_resource: 40,
            programmable_sample_positions_tier: 0,
        }
    }

    /// Feature level ≥ 11_0.
    pub const fn fl11_or_better(&self) -> bool {
        self.feature_level >= sys::D3D_FEATURE_LEVEL_11_0.0
    }
}

impl Default for Caps {
    fn default() -> Self {
        Caps::today()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn today_executes_shaders_and_stream_output_but_has_no_video_or_swap_chains() {
        let c = Caps::today();
        assert!(c.shaders && c.uav && c.typed_uav_load_additional_formats);
        assert!(c.msaa_load && c.stream_output);
        assert!(c.render_targets && c.depth_stencil);
        assert!(c.msaa && !c.video && !c.present);
        assert_eq!(c.tiled_resources_tier, 3);
        assert_eq!(c.feature_level, 0xc000);
        assert!(c.fl11_or_better());
    }
}
