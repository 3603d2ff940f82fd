//! Validator tests: every rule of resources.md §4–§6 with its message ID.

use super::*;
use crate::error::msg;
use proptest::prelude::*;
use rd3d12_sys::*;

fn tex(dim: D3D12_RESOURCE_DIMENSION, w: u64, h: u32, d: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
    D3D12_RESOURCE_DESC1 {
        Dimension: dim,
        Alignment: 0,
        Width: w,
        Height: h,
        DepthOrArraySize: d,
        MipLevels: mips,
        Format: fmt,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Layout: D3D12_TEXTURE_LAYOUT_UNKNOWN,
        Flags: D3D12_RESOURCE_FLAG_NONE,
        SamplerFeedbackMipRegion: Default::default(),
    }
}

fn t2(w: u64, h: u32, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
    tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, 1, 1, fmt)
}

fn rgba(w: u64, h: u32) -> D3D12_RESOURCE_DESC1 {
    t2(w, h, DXGI_FORMAT_R8G8B8A8_UNORM)
}

fn buf(w: u64) -> D3D12_RESOURCE_DESC1 {
    let mut d = tex(D3D12_RESOURCE_DIMENSION_BUFFER, w, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d
}

fn with_flags(mut d: D3D12_RESOURCE_DESC1, f: u32) -> D3D12_RESOURCE_DESC1 {
    d.Flags = D3D12_RESOURCE_FLAGS(f);
    d
}

fn msaa(mut d: D3D12_RESOURCE_DESC1, count: u32, quality: u32) -> D3D12_RESOURCE_DESC1 {
    d.SampleDesc = DXGI_SAMPLE_DESC { Count: count, Quality: quality };
    d
}

fn today() -> Caps {
    Caps::today()
}

fn full() -> Caps {
    Caps::fl11_1_reference()
}

fn ok(d: &D3D12_RESOURCE_DESC1, api: Api, caps: &Caps) -> ValidatedDesc {
    match validate_desc1(d, api, caps, None) {
        Ok(v) => v,
        Err(e) => panic!("expected success, got {e}"),
    }
}

fn err_with(d: &D3D12_RESOURCE_DESC1, api: Api, caps: &Caps, clear: Option<&ClearValue>) -> MessageId {
    match validate_desc1(d, api, caps, clear) {
        Ok(v) => panic!("expected failure, got {v:?}"),
        Err(e) => {
            assert_eq!(e.hr, Hr::InvalidArg);
            assert_eq!(e.hresult() as u32, 0x8007_0057);
            assert!(!e.message.is_empty());
            e.id
        }
    }
}

fn err(d: &D3D12_RESOURCE_DESC1) -> MessageId {
    err_with(d, Api::Committed, &today(), None)
}

fn err_full(d: &D3D12_RESOURCE_DESC1) -> MessageId {
    err_with(d, Api::Committed, &full(), None)
}

const RT: u32 = 0x1;
const DS: u32 = 0x2;
const UAV: u32 = 0x4;
const DENY_SRV: u32 = 0x8;
const CROSS: u32 = 0x10;
const SIMUL: u32 = 0x20;
const VDEC: u32 = 0x40;
const VENC: u32 = 0x80;
const RTAS: u32 = 0x100;

// ---- §4 items 1–3: dimension, format, layout, flags ---------------------------------

#[test]
fn dimension_unknown_is_720() {
    let mut d = rgba(4, 4);
    d.Dimension = D3D12_RESOURCE_DIMENSION(0);
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
}

#[test]
fn dimension_5_is_718() {
    let mut d = rgba(4, 4);
    d.Dimension = D3D12_RESOURCE_DIMENSION(5);
    assert_eq!(err(&d), msg::CREATERESOURCE_UNRECOGNIZEDDIMENSIONALITY);
}

#[test]
fn unknown_format_is_737() {
    assert_eq!(err(&t2(4, 4, DXGI_FORMAT(116))), msg::CREATERESOURCE_UNRECOGNIZEDFORMAT);
    assert_eq!(err(&t2(4, 4, DXGI_FORMAT(0xDEAD))), msg::CREATERESOURCE_UNRECOGNIZEDFORMAT);
}

#[test]
fn unknown_layout_is_719() {
    let mut d = rgba(4, 4);
    d.Layout = D3D12_TEXTURE_LAYOUT(4);
    assert_eq!(err(&d), msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT);
}

#[test]
fn unknown_flag_bits_are_719() {
    assert_eq!(err(&with_flags(rgba(4, 4), 0x200)), msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT);
    assert_eq!(err(&with_flags(rgba(4, 4), 0x400)), msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT);
}

#[test]
fn first_phase_reports_everything() {
    let mut d = t2(4, 4, DXGI_FORMAT(300));
    d.Dimension = D3D12_RESOURCE_DIMENSION(9);
    d.Layout = D3D12_TEXTURE_LAYOUT(9);
    d.Flags = D3D12_RESOURCE_FLAGS(0x8000);
    let e = validate_desc1(&d, Api::Committed, &today(), None).unwrap_err();
    assert_eq!(e.id, msg::CREATERESOURCE_UNRECOGNIZEDDIMENSIONALITY);
    let extra: Vec<MessageId> = e.extra.iter().map(|x| x.id).collect();
    assert_eq!(
        extra,
        vec![
            msg::CREATERESOURCE_UNRECOGNIZEDFORMAT,
            msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT,
            msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT
        ]
    );
    assert!(e.extra[0].message.contains("300"));
}

// ---- §4 item 4: zero sizes -------------------------------------------------------------

#[test]
fn zero_sizes_are_597() {
    for (w, h, d) in [(0u64, 4u32, 1u16), (4, 0, 1), (4, 4, 0)] {
        let mut x = rgba(w, h);
        x.DepthOrArraySize = d;
        assert_eq!(err(&x), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    }
    assert_eq!(err(&buf(0)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
}

// ---- §5.1 buffers ----------------------------------------------------------------------

#[test]
fn valid_buffer() {
    let v = ok(&buf(32), Api::Committed, &today());
    assert_eq!(v.alignment, 65536);
    assert_eq!(v.desc.Alignment, 65536);
    assert_eq!(v.subresource_count, 1);
    assert!(v.warnings.is_empty());
    // ALLOW_RENDER_TARGET is legal (meaningless) on buffers
    ok(&with_flags(buf(32), RT), Api::Placed, &today());
    ok(&with_flags(buf(32), UAV | RTAS), Api::Placed, &today());
    let mut a = buf(32);
    a.Alignment = 65536;
    ok(&a, Api::Placed, &today());
}

#[test]
fn buffer_rules() {
    let mut d = buf(64);
    d.Format = DXGI_FORMAT_R8G8B8A8_UNORM;
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDFORMAT);
    let mut d = buf(64);
    d.Height = 3;
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    let mut d = buf(64);
    d.DepthOrArraySize = 2;
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    for m in [0u16, 2] {
        let mut d = buf(64);
        d.MipLevels = m;
        assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDMIPLEVELS);
    }
    assert_eq!(err(&msaa(buf(64), 2, 0)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    assert_eq!(err(&msaa(buf(64), 1, 1)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    let mut d = buf(64);
    d.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDLAYOUT);
    for f in [DS, SIMUL, VDEC, VENC, RTAS] {
        assert_eq!(err(&with_flags(buf(64), f)), msg::CREATERESOURCE_INVALIDMISCFLAGS, "flag {f:#x}");
    }
    for a in [1u64, 256, 4096, 4194304, 131072] {
        let mut d = buf(64);
        d.Alignment = a;
        assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDALIGNMENT, "alignment {a}");
    }
    let cv = ClearValue::color(DXGI_FORMAT_UNKNOWN, [0.0; 4]);
    assert_eq!(err_with(&buf(64), Api::Committed, &today(), Some(&cv)), msg::CREATERESOURCE_INVALIDCLEARVALUE);
    // beyond the 40-bit per-resource VA range
    assert_eq!(err(&buf((1 << 40) + 1)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    ok(&buf(1 << 40), Api::AllocationInfo, &today());
}

// ---- §5.2–5.4 per dimension ------------------------------------------------------------

#[test]
fn texture_format_unknown_is_738() {
    assert_eq!(err(&t2(4, 4, DXGI_FORMAT_UNKNOWN)), msg::CREATERESOURCE_INVALIDFORMAT);
}

#[test]
fn texture1d_rules() {
    let d1 = |w: u64, h: u32, a: u16, f: DXGI_FORMAT| tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, w, h, a, 1, f);
    ok(&d1(16384, 1, 2048, DXGI_FORMAT_R8G8B8A8_UNORM), Api::Committed, &today());
    assert_eq!(err(&d1(16, 2, 1, DXGI_FORMAT_R8G8B8A8_UNORM)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    assert_eq!(err(&d1(16385, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    assert_eq!(err(&d1(16, 1, 2049, DXGI_FORMAT_R8G8B8A8_UNORM)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    // BC and planar video formats have no TEXTURE1D support
    assert_eq!(err(&d1(16, 1, 1, DXGI_FORMAT_BC1_UNORM)), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
    assert_eq!(err(&d1(16, 1, 1, DXGI_FORMAT_NV12)), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
    // depth formats support 1D
    ok(&d1(16, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT), Api::Committed, &today());
    // MSAA 1D
    assert_eq!(
        err_full(&with_flags(msaa(d1(16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM), 4, 0), RT)),
        msg::CREATERESOURCE_INVALIDSAMPLEDESC
    );
    // ROW_MAJOR 1D
    let mut d = d1(16, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    d.Flags = D3D12_RESOURCE_FLAGS(CROSS);
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
}

#[test]
fn texture2d_limits() {
    ok(&rgba(16384, 16384), Api::AllocationInfo, &today());
    assert_eq!(err(&rgba(16385, 4)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    assert_eq!(err(&rgba(4, 16385)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    let mut d = rgba(4, 4);
    d.DepthOrArraySize = 2049;
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    d.DepthOrArraySize = 2048;
    ok(&d, Api::Committed, &today());
    // below FL 11_0 the limits are 8192 / 512
    let mut c = today();
    c.feature_level = D3D_FEATURE_LEVEL_1_0_CORE.0;
    assert_eq!(err_with(&rgba(8193, 4), Api::Committed, &c, None), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    ok(&rgba(8192, 4), Api::Committed, &c);
    let mut d = rgba(4, 4);
    d.DepthOrArraySize = 513;
    assert_eq!(err_with(&d, Api::Committed, &c, None), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    // 1_0_CORE: no 1D / 3D
    let d3 = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 4, 4, 4, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_eq!(err_with(&d3, Api::Committed, &c, None), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
}

#[test]
fn texture3d_rules() {
    let d3 = |w: u64, h: u32, d: u16, f: DXGI_FORMAT| tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, w, h, d, 1, f);
    ok(&d3(2048, 2048, 2048, DXGI_FORMAT_R8_UNORM), Api::AllocationInfo, &today());
    assert_eq!(err(&d3(2049, 4, 4, DXGI_FORMAT_R8_UNORM)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    assert_eq!(err(&d3(4, 4, 2049, DXGI_FORMAT_R8_UNORM)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    // depth formats never report TEXTURE3D
    assert_eq!(err(&d3(4, 4, 4, DXGI_FORMAT_D32_FLOAT)), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
    assert_eq!(err(&with_flags(d3(4, 4, 4, DXGI_FORMAT_D16_UNORM), DS)), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
    // BC 3D is fine
    ok(&d3(8, 8, 3, DXGI_FORMAT_BC7_UNORM), Api::Committed, &today());
    // Count 0 and Count > 1 on 3D
    assert_eq!(err(&msaa(d3(4, 4, 4, DXGI_FORMAT_R8_UNORM), 0, 0)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    assert_eq!(
        err_full(&with_flags(msaa(d3(4, 4, 4, DXGI_FORMAT_R8_UNORM), 2, 0), RT)),
        msg::CREATERESOURCE_INVALIDSAMPLEDESC
    );
}

#[test]
fn planar_video_rules() {
    // native: NV12 8×6 fine, array 2 fine; 7×6 / 8×5 / MipLevels 0 / MipLevels 2 fail
    ok(&t2(8, 6, DXGI_FORMAT_NV12), Api::Committed, &today());
    let mut a = t2(8, 6, DXGI_FORMAT_NV12);
    a.DepthOrArraySize = 2;
    assert_eq!(ok(&a, Api::Committed, &today()).subresource_count, 4);
    assert_eq!(err(&t2(7, 6, DXGI_FORMAT_NV12)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    assert_eq!(err(&t2(8, 5, DXGI_FORMAT_NV12)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    let mut m = t2(8, 6, DXGI_FORMAT_NV12);
    m.MipLevels = 0;
    assert_eq!(err(&m), msg::CREATERESOURCE_INVALIDMIPLEVELS);
    m.MipLevels = 2;
    assert_eq!(err(&m), msg::CREATERESOURCE_INVALIDMIPLEVELS);
    // NV11: 4×1 alignment
    ok(&t2(8, 3, DXGI_FORMAT_NV11), Api::Committed, &today());
    assert_eq!(err(&t2(6, 2, DXGI_FORMAT_NV11)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    // P010 / P016 2×2
    assert_eq!(err(&t2(4, 3, DXGI_FORMAT_P010)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    // ROW_MAJOR NV12
    let mut r = with_flags(t2(8, 6, DXGI_FORMAT_NV12), CROSS);
    r.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    assert_eq!(err(&r), msg::CREATERESOURCE_INVALIDFORMAT);
    // video-only formats need video support
    assert_eq!(err(&t2(8, 6, DXGI_FORMAT_P208)), msg::CREATERESOURCE_INVALIDFORMAT);
    let mut v = today();
    v.video = true;
    ok(&t2(8, 6, DXGI_FORMAT_P208), Api::Committed, &v);
    assert_eq!(err_with(&t2(8, 5, DXGI_FORMAT_V208), Api::Committed, &v, None), msg::CREATERESOURCE_INVALIDDIMENSIONS);
}

#[test]
fn packed_422_width_multiple_of_2() {
    // Y210, YUY2 and R8G8_B8G8 (required by Microsoft's format tables) are 2-texel blocks
    for f in [DXGI_FORMAT_Y210, DXGI_FORMAT_YUY2, DXGI_FORMAT_R8G8_B8G8_UNORM] {
        ok(&t2(6, 3, f), Api::Committed, &today());
        assert_eq!(err(&t2(5, 3, f)), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    }
}

#[test]
fn unaligned_block_compressed() {
    // native: 31×32, 30×30 and 2×2 BC textures succeed with the capability
    for (w, h) in [(31u64, 32u32), (30, 30), (2, 2)] {
        ok(&t2(w, h, DXGI_FORMAT_BC1_UNORM), Api::Committed, &today());
    }
    let mut c = today();
    c.unaligned_block_textures = false;
    assert_eq!(
        err_with(&t2(31, 32, DXGI_FORMAT_BC1_UNORM), Api::Committed, &c, None),
        msg::CREATERESOURCE_INVALIDDIMENSIONS
    );
    ok(&t2(32, 32, DXGI_FORMAT_BC1_UNORM), Api::Committed, &c);
}

#[test]
fn unsupported_formats_are_738() {
    assert_eq!(err(&t2(8, 8, DXGI_FORMAT_R1_UNORM)), msg::CREATERESOURCE_INVALIDFORMAT);
    assert_eq!(err(&t2(8, 8, DXGI_FORMAT_AI44)), msg::CREATERESOURCE_INVALIDFORMAT);
    // required by Microsoft's tables: supported (as resources)
    ok(&t2(8, 8, DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM), Api::Committed, &today());
    ok(&t2(8, 8, DXGI_FORMAT_420_OPAQUE), Api::Committed, &today());
    assert_eq!(err(&t2(8, 8, DXGI_FORMAT_SAMPLER_FEEDBACK_MIN_MIP_OPAQUE)), msg::CREATERESOURCE_INVALIDFORMAT);
    ok(&t2(8, 8, DXGI_FORMAT_B4G4R4A4_UNORM), Api::Committed, &today());
    ok(&t2(8, 8, crate::format::DXGI_FORMAT_A4B4G4R4_UNORM), Api::Committed, &today());
}

// ---- §4 item 8: mips -------------------------------------------------------------------

#[test]
fn mip_levels_zero_expands_to_full_chain() {
    let mut d = rgba(32, 32);
    d.MipLevels = 0;
    let v = ok(&d, Api::Committed, &today());
    assert_eq!(v.desc.MipLevels, 6);
    assert_eq!(v.mip_levels, 6);
    let mut d3 = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 4, 2, 16, 0, DXGI_FORMAT_R8_UNORM);
    assert_eq!(ok(&d3, Api::Committed, &today()).mip_levels, 5);
    d3.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    assert_eq!(ok(&d3, Api::Committed, &today()).mip_levels, 3);
}

#[test]
fn more_mips_than_the_chain_is_accepted_with_722() {
    // native: MipLevels 10 on a 32×32 texture was accepted
    let mut d = rgba(32, 32);
    d.MipLevels = 10;
    let v = ok(&d, Api::Committed, &today());
    assert_eq!(v.mip_levels, 10);
    assert_eq!(v.desc.MipLevels, 10);
    assert_eq!(v.warnings.len(), 1);
    assert_eq!(v.warnings[0].id, msg::CREATERESOURCE_INVALIDMIPLEVELS);
    d.MipLevels = 15;
    ok(&d, Api::Committed, &today());
    d.MipLevels = 16;
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDMIPLEVELS);
}

// ---- §4 item 5: sample desc --------------------------------------------------------------

#[test]
fn sample_count_zero_is_723() {
    assert_eq!(err(&msaa(rgba(4, 4), 0, 0)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
}

#[test]
fn single_sample_quality() {
    assert_eq!(err(&msaa(rgba(4, 4), 1, 1)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    // the standard / center patterns are accepted for Count 1
    ok(&msaa(rgba(4, 4), 1, 0xFFFF_FFFF), Api::Committed, &today());
    ok(&msaa(rgba(4, 4), 1, 0xFFFF_FFFE), Api::Committed, &today());
    assert_eq!(err(&msaa(rgba(4, 4), 1, 0xFFFF_FFFD)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
}

#[test]
fn msaa_rules() {
    let rt = |c: u32, q: u32| with_flags(msaa(rgba(256, 256), c, q), RT);
    // today's CPU backend has MSAA (2, 4, 8 samples)
    assert_eq!(ok(&rt(4, 0), Api::Committed, &Caps::today()).alignment, 4 * 1024 * 1024);
    let v = ok(&rt(4, 0), Api::Committed, &full());
    assert_eq!(v.alignment, 4 * 1024 * 1024);
    ok(&rt(4, 0xFFFF_FFFF), Api::Committed, &full());
    ok(&rt(2, 0), Api::Committed, &full());
    ok(&rt(8, 0), Api::Committed, &full());
    assert_eq!(err_full(&rt(4, 1)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    assert_eq!(err_full(&rt(3, 0)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    assert_eq!(err_full(&rt(16, 0)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    // MSAA needs one mip
    let mut m = rt(4, 0);
    m.MipLevels = 2;
    assert_eq!(err_full(&m), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    m.MipLevels = 0;
    assert_eq!(err_full(&m), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    // flags
    assert_eq!(err_full(&msaa(rgba(256, 256), 4, 0)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err_full(&with_flags(msaa(rgba(256, 256), 4, 0), RT | UAV)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err_full(&with_flags(msaa(rgba(256, 256), 4, 0), RT | SIMUL)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    // depth MSAA
    ok(&with_flags(msaa(t2(64, 64, DXGI_FORMAT_D32_FLOAT_S8X24_UINT), 4, 0), DS), Api::Committed, &full());
    // BC formats have no MSAA
    assert_eq!(
        err_full(&with_flags(msaa(t2(64, 64, DXGI_FORMAT_BC1_UNORM), 4, 0), RT)),
        msg::CREATERESOURCE_INVALIDSAMPLEDESC
    );
    // array size > 1 is allowed
    let mut a = rt(4, 0);
    a.DepthOrArraySize = 3;
    ok(&a, Api::Committed, &full());
}

// ---- §4 item 6: flag combinations ---------------------------------------------------------

#[test]
fn depth_stencil_combinations_are_599() {
    let d = t2(16, 16, DXGI_FORMAT_D32_FLOAT);
    ok(&with_flags(d, DS), Api::Committed, &today());
    ok(&with_flags(d, DS | DENY_SRV), Api::Committed, &today());
    for f in [RT, UAV, SIMUL] {
        assert_eq!(err(&with_flags(d, DS | f)), msg::CREATERESOURCE_INVALIDMISCFLAGS, "{f:#x}");
    }
}

#[test]
fn deny_shader_resource_needs_depth_stencil() {
    assert_eq!(err(&with_flags(rgba(16, 16), DENY_SRV)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(rgba(16, 16), DENY_SRV | RT)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
}

#[test]
fn usage_flags_check_the_capability_class() {
    // RT/DS/UAV are accepted today although nothing can render yet
    ok(&with_flags(rgba(16, 16), RT), Api::Committed, &today());
    ok(&with_flags(rgba(16, 16), UAV), Api::Committed, &today());
    ok(&with_flags(rgba(16, 16), RT | UAV | SIMUL), Api::Committed, &today());
    ok(&with_flags(t2(16, 16, DXGI_FORMAT_D24_UNORM_S8_UINT), DS), Api::Committed, &today());
    // through the cast group
    ok(&with_flags(t2(16, 16, DXGI_FORMAT_R32_TYPELESS), DS), Api::Committed, &today());
    ok(&with_flags(t2(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS), RT | UAV), Api::Committed, &today());
    // fully typed formats are used as themselves: sRGB has no typed UAV
    assert_eq!(
        err(&with_flags(t2(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB), UAV)),
        msg::CREATERESOURCE_INVALIDMISCFLAGS
    );
    ok(&with_flags(t2(16, 16, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB), RT), Api::Committed, &today());
    // BC + RT, RGBA8 + DS, D32 + RT, BC + UAV, R9G9B9E5 + RT
    assert_eq!(err(&with_flags(t2(16, 16, DXGI_FORMAT_BC1_UNORM), RT)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(rgba(16, 16), DS)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(t2(16, 16, DXGI_FORMAT_D32_FLOAT), RT)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(t2(16, 16, DXGI_FORMAT_BC7_UNORM), UAV)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(t2(16, 16, DXGI_FORMAT_R9G9B9E5_SHAREDEXP), RT)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    // B8G8R8A8 has no typed UAV in the FL 11.1 table
    assert_eq!(err(&with_flags(t2(16, 16, DXGI_FORMAT_B8G8R8A8_UNORM), UAV)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    // UAV needs FL 11_0
    let mut c = today();
    c.feature_level = D3D_FEATURE_LEVEL_10_1.0;
    assert_eq!(
        err_with(&with_flags(rgba(16, 16), UAV), Api::Committed, &c, None),
        msg::CREATERESOURCE_INVALIDMISCFLAGS
    );
}

#[test]
fn video_reference_flags() {
    let d = with_flags(t2(16, 16, DXGI_FORMAT_NV12), VDEC | DENY_SRV);
    assert_eq!(err(&d), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(t2(16, 16, DXGI_FORMAT_NV12), VENC | DENY_SRV)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    let mut v = today();
    v.video = true;
    ok(&d, Api::Committed, &v);
    // needs DENY_SHADER_RESOURCE
    assert_eq!(
        err_with(&with_flags(t2(16, 16, DXGI_FORMAT_NV12), VDEC), Api::Committed, &v, None),
        msg::CREATERESOURCE_INVALIDMISCFLAGS
    );
}

#[test]
fn raytracing_flag_on_texture_is_599() {
    assert_eq!(err(&with_flags(rgba(16, 16), RTAS | UAV)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
}

// ---- §5.5 layouts ----------------------------------------------------------------------

#[test]
fn row_major_textures() {
    let rm = |f: u32| {
        let mut d = with_flags(rgba(64, 64), f);
        d.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        d
    };
    let v = ok(&rm(CROSS), Api::Committed, &today());
    assert_eq!(v.alignment, 65536);
    assert_eq!(err(&rm(0)), msg::CREATERESOURCE_INVALIDLAYOUT);
    let mut m = rm(CROSS);
    m.MipLevels = 2;
    assert_eq!(err(&m), msg::CREATERESOURCE_INVALIDMIPLEVELS);
    let mut a = rm(CROSS);
    a.DepthOrArraySize = 2;
    assert_eq!(err(&a), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    let mut t = rm(CROSS);
    t.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    assert_eq!(err(&t), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
    assert_eq!(err(&rm(CROSS | RT)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    let mut c = today();
    c.cross_adapter_row_major_texture = true;
    ok(&rm(CROSS | RT), Api::Committed, &c);
    let mut ds = with_flags(t2(64, 64, DXGI_FORMAT_D32_FLOAT), CROSS | DS);
    ds.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    assert_eq!(err(&ds), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    let mut al = rm(CROSS);
    al.Alignment = 4096;
    assert_eq!(err(&al), msg::CREATERESOURCE_INVALIDALIGNMENT);
    al.Alignment = 65536;
    ok(&al, Api::Placed, &today());
    assert_eq!(err_full(&with_flags(msaa(rm(CROSS), 4, 0), CROSS | RT)), msg::CREATERESOURCE_INVALIDSAMPLEDESC);
}

#[test]
fn tiled_layouts() {
    let mut d = rgba(512, 512);
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    let untiled = Caps { tiled_resources_tier: 0, ..today() };
    assert_eq!(err_with(&d, Api::Committed, &untiled, None), msg::CREATERESOURCE_INVALIDLAYOUT);
    assert_eq!(ok(&d, Api::Committed, &full()).alignment, 65536);
    d.Alignment = 4096;
    assert_eq!(err_full(&d), msg::CREATERESOURCE_INVALIDALIGNMENT);
    d.Alignment = 0;
    let mut d1 = d;
    d1.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE1D;
    d1.Height = 1;
    assert_eq!(err_full(&d1), msg::CREATERESOURCE_INVALIDLAYOUT);
    let mut d3 = d;
    d3.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    ok(&d3, Api::Committed, &full());
    let mut t2c = full();
    t2c.tiled_resources_tier = 2;
    assert_eq!(err_with(&d3, Api::Committed, &t2c, None), msg::CREATERESOURCE_INVALIDDIMENSIONALITY);
    t2c.srv_only_tiled_resource_tier3 = true;
    ok(&d3, Api::Committed, &t2c);
    // arrays with packed mips need tier 4
    let mut arr = d;
    arr.DepthOrArraySize = 4;
    arr.MipLevels = 3;
    ok(&arr, Api::Committed, &full());
    arr.MipLevels = 10;
    assert_eq!(err_full(&arr), msg::CREATERESOURCE_INVALIDDIMENSIONS);
    let mut t4 = full();
    t4.tiled_resources_tier = 4;
    ok(&arr, Api::Reserved, &t4);
    // 96-bit formats are not tiled
    let mut f96 = t2(64, 64, DXGI_FORMAT_R32G32B32_FLOAT);
    f96.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    assert_eq!(err_full(&f96), msg::CREATERESOURCE_INVALIDFORMAT);
    // standard swizzle needs its capability
    let mut s = rgba(64, 64);
    s.Layout = D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE;
    assert_eq!(err_full(&s), msg::CREATERESOURCE_INVALIDLAYOUT);
    let mut sc = full();
    sc.standard_swizzle_64kb = true;
    ok(&s, Api::Committed, &sc);
    let mut sds = with_flags(t2(64, 64, DXGI_FORMAT_D32_FLOAT), DS);
    sds.Layout = D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE;
    assert_eq!(err_with(&sds, Api::Committed, &sc, None), msg::CREATERESOURCE_INVALIDLAYOUT);
    let mut smsaa = with_flags(msaa(rgba(64, 64), 4, 0), RT);
    smsaa.Layout = D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE;
    assert_eq!(err_with(&smsaa, Api::Committed, &sc, None), msg::CREATERESOURCE_INVALIDLAYOUT);
}

#[test]
fn reserved_resources() {
    // an adapter without tiled resources rejects reserved resources
    let untiled = Caps { tiled_resources_tier: 0, ..today() };
    let mut d = rgba(512, 512);
    d.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    assert_eq!(err_with(&d, Api::Reserved, &untiled, None), msg::CREATERESOURCE_INVALIDLAYOUT);
    assert_eq!(err_with(&buf(65536), Api::Reserved, &untiled, None), msg::CREATERESOURCE_INVALIDLAYOUT);
    // today's runtime has tier 3
    ok(&d, Api::Reserved, &today());
    ok(&buf(65536), Api::Reserved, &today());
    ok(&d, Api::Reserved, &full());
    ok(&buf(65536), Api::Reserved, &full());
    // Layout UNKNOWN is not reservable
    assert_eq!(err_with(&rgba(512, 512), Api::Reserved, &full(), None), msg::CREATERESOURCE_INVALIDLAYOUT);
    // depth textures may be reserved (native, tier 1, no flags)
    let mut dd = t2(512, 512, DXGI_FORMAT_D32_FLOAT);
    dd.Layout = D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE;
    ok(&dd, Api::Reserved, &full());
}

// ---- §4 item 10: clear values ------------------------------------------------------------

#[test]
fn clear_value_rules() {
    let c = today();
    let col = ClearValue::color(DXGI_FORMAT_R8G8B8A8_UNORM, [0.0, 0.5, 1.0, 1.0]);
    ok(&with_flags(rgba(16, 16), RT), Api::Committed, &c);
    assert!(validate_desc1(&with_flags(rgba(16, 16), RT), Api::Committed, &c, Some(&col)).is_ok());
    // texture without RT/DS
    assert_eq!(err_with(&rgba(16, 16), Api::Committed, &c, Some(&col)), msg::CREATERESOURCE_INVALIDCLEARVALUE);
    // unknown clear format
    let bad = ClearValue::color(DXGI_FORMAT(250), [0.0; 4]);
    assert_eq!(
        err_with(&with_flags(rgba(16, 16), RT), Api::Committed, &c, Some(&bad)),
        msg::CREATERESOURCE_UNRECOGNIZEDCLEARVALUEFORMAT
    );
    // typeless clear format
    let tl = ClearValue::color(DXGI_FORMAT_R8G8B8A8_TYPELESS, [0.0; 4]);
    assert_eq!(
        err_with(&with_flags(rgba(16, 16), RT), Api::Committed, &c, Some(&tl)),
        msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT
    );
    // fully typed resource: formats must be identical
    let srgb = ClearValue::color(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, [0.0; 4]);
    assert_eq!(
        err_with(&with_flags(rgba(16, 16), RT), Api::Committed, &c, Some(&srgb)),
        msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT
    );
    // typeless resource: same cast group
    let typeless_rt = with_flags(t2(16, 16, DXGI_FORMAT_R8G8B8A8_TYPELESS), RT);
    assert!(validate_desc1(&typeless_rt, Api::Committed, &c, Some(&srgb)).is_ok());
    let other = ClearValue::color(DXGI_FORMAT_B8G8R8A8_UNORM, [0.0; 4]);
    assert_eq!(err_with(&typeless_rt, Api::Committed, &c, Some(&other)), msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT);
    // depth
    let dsd = with_flags(t2(16, 16, DXGI_FORMAT_D32_FLOAT), DS);
    let good = ClearValue::depth_stencil(DXGI_FORMAT_D32_FLOAT, 1.0, 0);
    assert!(validate_desc1(&dsd, Api::Committed, &c, Some(&good)).is_ok());
    for d in [1.5f32, -0.25, f32::NAN] {
        let cv = ClearValue::depth_stencil(DXGI_FORMAT_D32_FLOAT, d, 0);
        assert_eq!(err_with(&dsd, Api::Committed, &c, Some(&cv)), msg::CREATERESOURCE_INVALIDCLEARVALUE);
    }
    // typeless depth resource with a D32 clear value
    let r32 = with_flags(t2(16, 16, DXGI_FORMAT_R32_TYPELESS), DS);
    assert!(validate_desc1(&r32, Api::Committed, &c, Some(&good)).is_ok());
    // ...but R32_FLOAT is not a depth format
    let rf = ClearValue::depth_stencil(DXGI_FORMAT_R32_FLOAT, 1.0, 0);
    assert_eq!(err_with(&r32, Api::Committed, &c, Some(&rf)), msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT);
    // unsupported clear format
    let yuy = ClearValue::color(DXGI_FORMAT_YUY2, [0.0; 4]);
    assert_eq!(
        err_with(&with_flags(rgba(16, 16), RT), Api::Committed, &c, Some(&yuy)),
        msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT
    );
}

#[test]
fn clear_value_denormals_warn_818() {
    let c = today();
    let cv = ClearValue::color(DXGI_FORMAT_R8G8B8A8_UNORM, [1e-40, 0.0, 0.0, 1.0]);
    let v = validate_desc1(&with_flags(rgba(16, 16), RT), Api::Committed, &c, Some(&cv)).unwrap();
    assert_eq!(v.warnings.iter().map(|w| w.id).collect::<Vec<_>>(), vec![msg::CREATERESOURCE_CLEARVALUEDENORMFLUSH]);
}

#[test]
fn clear_value_union_view() {
    let cv = ClearValue::depth_stencil(DXGI_FORMAT_D24_UNORM_S8_UINT, 0.5, 0xAB);
    assert_eq!(cv.depth(), 0.5);
    assert_eq!(cv.stencil(), 0xAB);
    let mut bytes = [0u8; 16];
    bytes[..4].copy_from_slice(&0.25f32.to_le_bytes());
    bytes[4] = 7;
    let cv = ClearValue::from_bytes(DXGI_FORMAT_D32_FLOAT, bytes);
    assert_eq!((cv.depth(), cv.stencil()), (0.25, 7));
}

// ---- §6 alignment ----------------------------------------------------------------------

fn with_align(mut d: D3D12_RESOURCE_DESC1, a: u64) -> D3D12_RESOURCE_DESC1 {
    d.Alignment = a;
    d
}

#[test]
fn default_alignment_is_64k_or_4m() {
    assert_eq!(ok(&rgba(16, 16), Api::Committed, &today()).desc.Alignment, 65536);
    assert_eq!(ok(&with_flags(msaa(rgba(16, 16), 4, 0), RT), Api::Committed, &full()).desc.Alignment, 4194304);
}

#[test]
fn small_alignment_4k_rule() {
    let c = today();
    let a4 = |d: D3D12_RESOURCE_DESC1| with_align(d, 4096);
    // 32×32 RGBA8: 1 tile of 32×32 → OK, GetDesc keeps 4096
    let v = ok(&a4(rgba(32, 32)), Api::Placed, &c);
    assert_eq!((v.alignment, v.desc.Alignment), (4096, 4096));
    // 128×128 RGBA8: 4×4 = 16 tiles → OK
    ok(&a4(rgba(128, 128)), Api::Placed, &c);
    // 256×256 RGBA8: 64 tiles → #721
    assert_eq!(err_with(&a4(rgba(256, 256)), Api::Placed, &c, None), msg::CREATERESOURCE_INVALIDALIGNMENT);
    // 1024×1024 RGBA8 with 0/1/2/3 mips → rejected
    for m in 0..4 {
        let mut d = a4(rgba(1024, 1024));
        d.MipLevels = m;
        let e = validate_desc1(&d, Api::Placed, &c, None).unwrap_err();
        assert_eq!(e.id, msg::CREATERESOURCE_INVALIDALIGNMENT);
        // Microsoft's wording
        assert!(
            e.message.contains("A 4KB tile shape for D3D12_RESOURCE_DIMENSION_TEXTURE2D and R8G8B8A8_UNORM is 32 texels wide, 32 texels high, and 1 texels deep.")
                && e.message.contains("When Width = 1024, Height = 1024, and Depth = 1, the number of tiles needed is 1024, while 16 tiles is the maximum."),
            "{}",
            e.message
        );
    }
    // 16×16×1024-array RGBA8 → accepted (array size not counted)
    let mut arr = a4(rgba(16, 16));
    arr.DepthOrArraySize = 1024;
    ok(&arr, Api::Placed, &c);
    // 256×512 BC1, 10 mips → 2×8 = 16 tiles → accepted; ×64 array too
    let mut bc = a4(t2(256, 512, DXGI_FORMAT_BC1_UNORM));
    bc.MipLevels = 10;
    ok(&bc, Api::Placed, &c);
    bc.DepthOrArraySize = 64;
    ok(&bc, Api::Placed, &c);
    // 260×512 BC1 → 3×8 = 24 → rejected
    assert_eq!(
        err_with(&a4(t2(260, 512, DXGI_FORMAT_BC1_UNORM)), Api::Placed, &c, None),
        msg::CREATERESOURCE_INVALIDALIGNMENT
    );
    // thin textures: 8×2048 RGBA8 = 1×64 tiles → rejected (a byte estimate would accept)
    assert_eq!(err_with(&a4(rgba(8, 2048)), Api::Placed, &c, None), msg::CREATERESOURCE_INVALIDALIGNMENT);
    // RT / DS are never small
    assert_eq!(
        err_with(&a4(with_flags(rgba(32, 32), RT)), Api::Placed, &c, None),
        msg::CREATERESOURCE_INVALIDALIGNMENT
    );
    assert_eq!(
        err_with(&a4(with_flags(t2(32, 32, DXGI_FORMAT_D32_FLOAT), DS)), Api::Placed, &c, None),
        msg::CREATERESOURCE_INVALIDALIGNMENT
    );
    // UAV / simultaneous access are fine
    ok(&a4(with_flags(rgba(32, 32), UAV | SIMUL)), Api::Placed, &c);
    // planar formats (incl. D24S8 without DS flag) are never small
    assert_eq!(
        err_with(&a4(t2(16, 16, DXGI_FORMAT_D24_UNORM_S8_UINT)), Api::Placed, &c, None),
        msg::CREATERESOURCE_INVALIDALIGNMENT
    );
    assert_eq!(
        err_with(&a4(t2(16, 16, DXGI_FORMAT_NV12)), Api::Placed, &c, None),
        msg::CREATERESOURCE_INVALIDALIGNMENT
    );
    // 3D: 16×16×16 R8 is one 4 KB tile; 64×64×64 R8 is 64 tiles
    ok(&a4(tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 16, 1, DXGI_FORMAT_R8_UNORM)), Api::Placed, &c);
    assert_eq!(
        err_with(
            &a4(tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 64, 64, 64, 1, DXGI_FORMAT_R8_UNORM)),
            Api::Placed,
            &c,
            None
        ),
        msg::CREATERESOURCE_INVALIDALIGNMENT
    );
    // 1D: 4096 bytes per tile → 16384 texels RGBA8 = 16 tiles
    ok(&a4(tex(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 16384, 1, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM)), Api::Placed, &c);
}

#[test]
fn other_alignment_values_are_721() {
    for a in [1u64, 256, 512, 8192, 131072, 4194304] {
        assert_eq!(err(&with_align(rgba(32, 32), a)), msg::CREATERESOURCE_INVALIDALIGNMENT, "{a}");
    }
    ok(&with_align(rgba(32, 32), 65536), Api::Placed, &today());
}

#[test]
fn msaa_alignment() {
    let m = |a: u64| with_align(with_flags(msaa(rgba(256, 256), 4, 0), RT), a);
    let c = full();
    assert_eq!(ok(&m(4194304), Api::Placed, &c).alignment, 4194304);
    assert_eq!(ok(&m(65536), Api::Placed, &c).alignment, 65536);
    assert_eq!(err_with(&m(4096), Api::Placed, &c, None), msg::CREATERESOURCE_INVALIDALIGNMENT);
    assert_eq!(err_with(&m(131072), Api::Placed, &c, None), msg::CREATERESOURCE_INVALIDALIGNMENT);
    // without MSAA64KBAlignedTextureSupported: the 64-tile rule
    let mut nc = c;
    nc.msaa_64kb_aligned = false;
    // 256×256 4×: shape 64×64 → 16 tiles → fine
    assert_eq!(ok(&m(65536), Api::Placed, &nc).alignment, 65536);
    // 1200×800 2×: shape 64×128 → 19×7 = 133 tiles → placed fails, committed warns → 4 MB
    let big = with_align(with_flags(msaa(rgba(1200, 800), 2, 0), RT), 65536);
    assert_eq!(err_with(&big, Api::Placed, &nc, None), msg::CREATERESOURCE_INVALIDALIGNMENT);
    assert_eq!(err_with(&big, Api::AllocationInfo, &nc, None), msg::CREATERESOURCE_INVALIDALIGNMENT);
    let v = ok(&big, Api::Committed, &nc);
    assert_eq!(v.alignment, 4194304);
    assert_eq!(v.warnings[0].id, msg::CREATERESOURCE_INVALIDALIGNMENT);
}

#[test]
fn desc_and_desc1_agree() {
    let d1 = with_align(rgba(32, 32), 4096);
    let d = desc_from_desc1(&d1);
    let a = validate_desc(&d, Api::Placed, &today(), None).unwrap();
    let b = validate_desc1(&d1, Api::Placed, &today(), None).unwrap();
    assert_eq!(a.alignment, b.alignment);
    let mut bad = d;
    bad.Width = 0;
    assert_eq!(validate_desc(&bad, Api::Placed, &today(), None).unwrap_err().id, msg::CREATERESOURCE_INVALIDDIMENSIONS);
}

#[test]
fn footprints_context_is_structural() {
    // MSAA without RT, a placement rule broken, unsupported format: all fine for footprints
    let fp = |d: &D3D12_RESOURCE_DESC1| validate_desc1(d, Api::Footprints, &today(), None);
    assert!(fp(&msaa(rgba(64, 64), 4, 3)).is_ok());
    assert!(fp(&with_align(rgba(1024, 1024), 4096)).is_ok());
    assert!(fp(&with_align(rgba(64, 64), 4 << 20)).is_ok());
    // an Alignment that is no placement alignment at all is invalid (outputs ~0)
    for a in [1, 256, 12345, 131072, 8 << 20] {
        assert_eq!(fp(&with_align(rgba(64, 64), a)).unwrap_err().id, msg::CREATERESOURCE_INVALIDALIGNMENT, "{a}");
    }
    assert!(fp(&t2(8, 8, DXGI_FORMAT_YUY2)).is_ok());
    assert!(fp(&with_flags(t2(8, 8, DXGI_FORMAT_BC1_UNORM), RT)).is_ok());
    // structural problems still fail
    assert_eq!(fp(&t2(8, 8, DXGI_FORMAT(999))).unwrap_err().id, msg::CREATERESOURCE_UNRECOGNIZEDFORMAT);
    assert_eq!(fp(&msaa(rgba(64, 64), 0, 0)).unwrap_err().id, msg::CREATERESOURCE_INVALIDSAMPLEDESC);
    assert_eq!(fp(&with_flags(rgba(8, 8), DS | RT)).unwrap_err().id, msg::CREATERESOURCE_INVALIDMISCFLAGS);
}

#[test]
fn error_display() {
    let e = validate_desc1(&rgba(0, 4), Api::Committed, &today(), None).unwrap_err();
    let s = e.to_string();
    assert!(s.starts_with("#597 "), "{s}");
    assert!(s.contains("Width (0)"), "{s}");
}

// ---- properties ------------------------------------------------------------------------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever is accepted has a legal effective alignment, and 4096 only when every
    /// condition of the small-resource rule holds.
    #[test]
    fn alignment_rules_never_violated(
        w in 1u64..2048, h in 1u32..2048, arr in 1u16..8, mips in 0u16..4,
        fmt_pick in 0usize..6, flags_pick in 0usize..4, align_pick in 0usize..5, samples_pick in 0usize..3,
    ) {
        let fmts = [DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_R32G32B32A32_FLOAT,
                    DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_R8_UNORM, DXGI_FORMAT_BC7_UNORM];
        let flags = [0u32, RT, UAV, DS][flags_pick];
        let align = [0u64, 4096, 65536, 4194304, 8192][align_pick];
        let samples = [1u32, 4, 2][samples_pick];
        let f = fmts[fmt_pick];
        let mut d = with_align(with_flags(tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, arr, mips, f), flags), align);
        d.SampleDesc.Count = samples;
        if let Ok(v) = validate_desc1(&d, Api::Placed, &full(), None) {
            prop_assert!(matches!(v.alignment, 4096 | 65536 | 4194304));
            if align != 0 {
                prop_assert_eq!(v.alignment, align);
            } else {
                prop_assert_eq!(v.alignment, if samples > 1 { 4194304 } else { 65536 });
            }
            if v.alignment == 4096 {
                prop_assert_eq!(samples, 1);
                prop_assert_eq!(flags & (RT | DS), 0);
                prop_assert!(!v.format.is_planar());
                let s = crate::tiling::tile_shape_4k(f, d.Dimension, 1).unwrap();
                prop_assert!(crate::tiling::mip0_tile_count(&d, &s) <= 16);
            }
            if v.alignment == 4194304 {
                prop_assert!(samples > 1);
            }
        }
    }
}

// ---- issue #16: Windows conformance ----------------------------------------------------

#[test]
fn depth_family_members_may_be_depth_targets() {
    // The partially typed depth-read / stencil-read members of the planar depth-stencil
    // families describe the family's memory: Windows creates R24_UNORM_X8_TYPELESS depth targets.
    for f in [
        DXGI_FORMAT_R24G8_TYPELESS,
        DXGI_FORMAT_R24_UNORM_X8_TYPELESS,
        DXGI_FORMAT_X24_TYPELESS_G8_UINT,
        DXGI_FORMAT_R32G8X24_TYPELESS,
        DXGI_FORMAT_R32_FLOAT_X8X24_TYPELESS,
        DXGI_FORMAT_X32_TYPELESS_G8X24_UINT,
    ] {
        ok(&with_flags(t2(8, 8, f), DS), Api::Committed, &today());
    }
    // fully typed colour members of a depth format's cast group are not depth targets
    assert_eq!(err(&with_flags(t2(8, 8, DXGI_FORMAT_R32_FLOAT), DS)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    assert_eq!(err(&with_flags(t2(8, 8, DXGI_FORMAT_R16_UNORM), DS)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    // nor render targets
    assert_eq!(err(&with_flags(t2(8, 8, DXGI_FORMAT_R24_UNORM_X8_TYPELESS), RT)), msg::CREATERESOURCE_INVALIDMISCFLAGS);
    // the family's depth-stencil format is a valid clear value; another family's is not
    let d = with_flags(t2(8, 8, DXGI_FORMAT_R24_UNORM_X8_TYPELESS), DS);
    let cv = ClearValue::depth_stencil(DXGI_FORMAT_D24_UNORM_S8_UINT, 1.0, 0);
    validate_desc1(&d, Api::Committed, &today(), Some(&cv)).unwrap();
    let cv = ClearValue::depth_stencil(DXGI_FORMAT_D32_FLOAT, 1.0, 0);
    assert_eq!(err_with(&d, Api::Committed, &today(), Some(&cv)), msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT);
}

#[test]
fn typeless_msaa_targets_use_their_cast_group() {
    // 4x R32_TYPELESS: an R32_FLOAT render target or a D32_FLOAT depth target
    let v = ok(&with_flags(msaa(t2(64, 64, DXGI_FORMAT_R32_TYPELESS), 4, 0), RT), Api::Committed, &today());
    assert_eq!(v.alignment, ALIGN_4M);
    ok(&with_flags(msaa(t2(64, 64, DXGI_FORMAT_R32_TYPELESS), 4, 0), DS), Api::Committed, &today());
    // BC has no multisampled member
    assert_eq!(
        err(&with_flags(msaa(t2(64, 64, DXGI_FORMAT_BC1_TYPELESS), 4, 0), RT)),
        msg::CREATERESOURCE_INVALIDSAMPLEDESC
    );
}

#[test]
fn alignment_messages_use_microsofts_words() {
    let mut d = with_flags(rgba(64, 64), RT);
    d.Alignment = 4096;
    let e = validate_desc1(&d, Api::AllocationInfo, &today(), None).unwrap_err();
    assert_eq!(e.id, msg::CREATERESOURCE_INVALIDALIGNMENT);
    assert_eq!(
        e.message,
        "D3D12_RESOURCE_DESC::Alignment is invalid. The value is 4096. Resources with D3D12_RESOURCE_DESC::Flags with either D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET or D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL must set Alignment equal to 65536 (aka. D3D12_DEFAULT_RESOURCE_PLACEMENT_ALIGNMENT), or 0."
    );
    // a 3D texture names its depth: 64×64×64 RGBA8, 4 KB tiles of 16×8×8 → 4 × 8 × 8 = 256
    let mut d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 64, 64, 64, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    d.Alignment = 4096;
    let e = validate_desc1(&d, Api::AllocationInfo, &today(), None).unwrap_err();
    assert!(
        e.message.ends_with("A 4KB tile shape for D3D12_RESOURCE_DIMENSION_TEXTURE3D and R8G8B8A8_UNORM is 16 texels wide, 8 texels high, and 8 texels deep. When Width = 64, Height = 64, and Depth = 64, the number of tiles needed is 256, while 16 tiles is the maximum."),
        "{}",
        e.message
    );
}
