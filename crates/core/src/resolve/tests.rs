//! Resolve rules and math, values worked out by hand.

use super::*;
use rd3d12_sys::*;

fn tex(w: u64, h: u32, fmt: DXGI_FORMAT, samples: u32) -> D3D12_RESOURCE_DESC1 {
    D3D12_RESOURCE_DESC1 {
        Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Alignment: 0,
        Width: w,
        Height: h,
        DepthOrArraySize: 1,
        MipLevels: 1,
        Format: fmt,
        SampleDesc: DXGI_SAMPLE_DESC { Count: samples, Quality: 0 },
        Layout: D3D12_TEXTURE_LAYOUT_UNKNOWN,
        Flags: D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET,
        SamplerFeedbackMipRegion: Default::default(),
    }
}

fn side(desc: &D3D12_RESOURCE_DESC1) -> Side<'_> {
    Side { desc, heap: HeapKind::Default, subresource: 0 }
}

const RGBA8: DXGI_FORMAT = DXGI_FORMAT_R8G8B8A8_UNORM;

fn el(format: DXGI_FORMAT, mode: Mode, samples: &[&[u8]]) -> Vec<u8> {
    let (b, n) = resolve_element(format, mode, samples).unwrap();
    b[..n].to_vec()
}

#[test]
fn unorm8_average_rounds_like_a_float_to_unorm_conversion() {
    // (0 + 1 + 1 + 1) / 4 = 0.75 → 0.75 · 255 + 0.5 = 191.75 → 191; (10 + 20 + 30 + 41) / 4
    // = 25.25 → 25; 255s stay 255; (0 + 0 + 0 + 1/255) / 4 → 0.25 + 0.5 → 0.
    let s: [&[u8]; 4] = [&[0, 10, 255, 0], &[255, 20, 255, 0], &[255, 30, 255, 0], &[255, 41, 255, 1]];
    assert_eq!(el(RGBA8, Mode::Average, &s), [191, 25, 255, 0]);
    assert_eq!(el(RGBA8, Mode::Min, &s), [0, 10, 255, 0]);
    assert_eq!(el(RGBA8, Mode::Max, &s), [255, 41, 255, 1]);
}

#[test]
fn srgb_average_is_taken_in_linear_space() {
    // sRGB 0 and 255 are linear 0 and 1; their mean 0.5 encodes as
    // 1.055 · 0.5^(1/2.4) − 0.055 = 0.7354 → 0.7354 · 255 + 0.5 = 188.0 → 188 (not 128).
    // Alpha is linear: (0 + 255) / 2 = 127.5 → 128.
    let s: [&[u8]; 2] = [&[0, 0, 0, 0], &[255, 255, 255, 255]];
    assert_eq!(el(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, Mode::Average, &s), [188, 188, 188, 128]);
}

#[test]
fn float_average_and_integer_min_max() {
    let (a, b) = (1.0f32.to_le_bytes(), 4.0f32.to_le_bytes());
    assert_eq!(el(DXGI_FORMAT_R32_FLOAT, Mode::Average, &[&a, &b]), 2.5f32.to_le_bytes());
    // R16_SINT: −2 (0xFFFE) is below 3, compared as signed.
    let (m2, p3) = ((-2i16).to_le_bytes(), 3i16.to_le_bytes());
    assert_eq!(el(DXGI_FORMAT_R16_SINT, Mode::Min, &[&p3, &m2]), m2);
    assert_eq!(el(DXGI_FORMAT_R16_SINT, Mode::Max, &[&p3, &m2]), p3);
    // R32_UINT above 2^24 keeps every bit.
    let (x, y) = (0x0100_0001u32.to_le_bytes(), 0x0100_0000u32.to_le_bytes());
    assert_eq!(el(DXGI_FORMAT_R32_UINT, Mode::Max, &[&x, &y]), x);
}

#[test]
fn whole_resolve_plans_every_row_of_every_sample() {
    // 4×2 RGBA8 × 4: rows of 16 bytes, 32 bytes per sample.
    let (d, s) = (tex(4, 2, RGBA8, 1), tex(4, 2, RGBA8, 4));
    let p = plan(&side(&d), (0, 0), &side(&s), None, RGBA8, Mode::Average, false).unwrap().unwrap();
    assert_eq!((p.extent, p.samples, p.element_bytes), ((4, 2), 4, 4));
    assert_eq!(p.src_rows(1).collect::<Vec<_>>(), [16, 48, 80, 112]);
    assert_eq!(p.dst.row_offset(4, 0, 1, 0), 16);
}

#[test]
fn region_resolve_moves_the_rectangle() {
    // Source rect (1, 1)–(3, 2) of an 8×4 RGBA8 × 2 texture (32-byte rows, 128 bytes per
    // sample) to (5, 3) of an 8×4 destination.
    let (d, s) = (tex(8, 4, RGBA8, 1), tex(8, 4, RGBA8, 2));
    let r = D3D12_RECT { left: 1, top: 1, right: 3, bottom: 2 };
    let p = plan(&side(&d), (5, 3), &side(&s), Some(&r), RGBA8, Mode::Max, true).unwrap().unwrap();
    assert_eq!(p.extent, (2, 1));
    assert_eq!(p.src_rows(0).collect::<Vec<_>>(), [36, 164]);
    assert_eq!(p.dst.row_offset(4, 0, 0, 0), 3 * 32 + 5 * 4);
    // (6, 3) + 2 columns runs past the 8-wide destination.
    let e = plan(&side(&d), (7, 3), &side(&s), Some(&r), RGBA8, Mode::Max, true).unwrap_err();
    assert_eq!(e.id, msg::RESOLVESUBRESOURCEREGION_INVALID_RECT);
    let empty = D3D12_RECT { left: 2, top: 2, right: 2, bottom: 3 };
    assert_eq!(plan(&side(&d), (0, 0), &side(&s), Some(&empty), RGBA8, Mode::Max, true), Ok(None));
}

#[test]
fn invalid_resolves_name_their_rule() {
    let id = |d: &D3D12_RESOURCE_DESC1, s: &D3D12_RESOURCE_DESC1, f: DXGI_FORMAT, m: Mode| {
        plan(&side(d), (0, 0), &side(s), None, f, m, true).unwrap_err().id
    };
    let one = tex(4, 4, RGBA8, 1);
    let four = tex(4, 4, RGBA8, 4);
    assert_eq!(id(&one, &one, RGBA8, Mode::Average), msg::RESOLVESUBRESOURCE_INVALID_SAMPLE_COUNT);
    assert_eq!(id(&four, &four, RGBA8, Mode::Average), msg::RESOLVESUBRESOURCE_INVALID_SAMPLE_COUNT);
    assert_eq!(id(&one, &four, RGBA8, Mode::Decompress), msg::RESOLVESUBRESOURCE_INVALID_SAMPLE_COUNT);
    // Typed resources need exactly Format; a typeless one takes any member of its family.
    assert_eq!(id(&one, &four, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, Mode::Average), msg::RESOLVESUBRESOURCE_INVALID_FORMAT);
    let tl = tex(4, 4, DXGI_FORMAT_R8G8B8A8_TYPELESS, 4);
    assert!(plan(&side(&one), (0, 0), &side(&tl), None, RGBA8, Mode::Average, false).is_ok());
    assert_eq!(id(&one, &tl, DXGI_FORMAT_R8G8B8A8_TYPELESS, Mode::Average), msg::RESOLVESUBRESOURCE_INVALID_FORMAT);
    // Integer formats average nothing, but MIN/MAX them.
    let (u1, u4) = (tex(4, 4, DXGI_FORMAT_R8G8B8A8_UINT, 1), tex(4, 4, DXGI_FORMAT_R8G8B8A8_UINT, 4));
    assert_eq!(id(&u1, &u4, DXGI_FORMAT_R8G8B8A8_UINT, Mode::Average), msg::RESOLVESUBRESOURCE_INVALID_FORMAT);
    assert!(plan(&side(&u1), (0, 0), &side(&u4), None, DXGI_FORMAT_R8G8B8A8_UINT, Mode::Min, true).is_ok());
    // ResolveSubresource needs equal sizes.
    let big = tex(8, 4, RGBA8, 1);
    let e = plan(&side(&big), (0, 0), &side(&four), None, RGBA8, Mode::Average, false).unwrap_err();
    assert_eq!(e.id, msg::RESOLVESUBRESOURCE_RESOURCE_MISMATCH);
    let mut s = side(&one);
    s.subresource = 1;
    let e = plan(&s, (0, 0), &side(&four), None, RGBA8, Mode::Average, false).unwrap_err();
    assert_eq!(e.id, msg::RESOLVESUBRESOURCE_INVALID_SUBRESOURCE_INDEX);
    let mut u = side(&one);
    u.heap = HeapKind::Upload;
    let e = plan(&u, (0, 0), &side(&four), None, RGBA8, Mode::Average, false).unwrap_err();
    assert_eq!(e.id, msg::RESOLVESUBRESOURCE_INVALIDDSTRESOURCE);
}

#[test]
fn depth_average_only_through_the_region_call() {
    let (d1, d4) = (tex(4, 4, DXGI_FORMAT_D32_FLOAT, 1), tex(4, 4, DXGI_FORMAT_D32_FLOAT, 4));
    let f = DXGI_FORMAT_D32_FLOAT;
    assert!(plan(&side(&d1), (0, 0), &side(&d4), None, f, Mode::Average, false).is_err());
    let p = plan(&side(&d1), (0, 0), &side(&d4), None, f, Mode::Average, true).unwrap().unwrap();
    assert_eq!(p.format, DXGI_FORMAT_R32_FLOAT);
}
