//! Clear geometry: offsets and extents worked out by hand from the tight layout
//! (16-byte aligned subresources, rows of Width × element bytes).

use super::*;
use crate::descriptor::{self, ViewDesc, ViewResource};
use rd3d12_sys::*;

fn tex(
    dim: D3D12_RESOURCE_DIMENSION,
    w: u64,
    h: u32,
    d: u16,
    mips: u16,
    fmt: DXGI_FORMAT,
    flags: u32,
) -> D3D12_RESOURCE_DESC1 {
    D3D12_RESOURCE_DESC1 {
        Dimension: dim,
        Alignment: 0,
        Width: w,
        Height: h,
        DepthOrArraySize: d,
        MipLevels: mips,
        Format: fmt,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Layout: if dim == D3D12_RESOURCE_DIMENSION_BUFFER {
            D3D12_TEXTURE_LAYOUT_ROW_MAJOR
        } else {
            D3D12_TEXTURE_LAYOUT_UNKNOWN
        },
        Flags: D3D12_RESOURCE_FLAGS(flags),
        SamplerFeedbackMipRegion: Default::default(),
    }
}

const RT: u32 = 1;
const DS: u32 = 2;
const UA: u32 = 4;

fn rect(l: i32, t: i32, r: i32, b: i32) -> D3D12_RECT {
    D3D12_RECT { left: l, top: t, right: r, bottom: b }
}

type Xyz = (u32, u32, u32);

fn one(fill: &Fill) -> (u64, u64, Xyz, Xyz) {
    (fill.surface.offset, fill.surface.row_pitch, fill.surface.origin, fill.extent)
}

#[test]
fn whole_2d_rtv() {
    let d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, RT);
    let v = descriptor::rtv(None, Some(ViewResource { desc: &d, id: 1 })).unwrap();
    let f = texture_fills(&d, &v, 0, 4, &[]).unwrap();
    assert_eq!(f.len(), 1);
    assert_eq!(one(&f[0]), (0, 16, (0, 0, 0), (4, 4, 1)));
    assert_eq!(f[0].rows(4).map(|r| r.0).collect::<Vec<_>>(), [0, 16, 32, 48]);
}

#[test]
fn array_mip_slice() {
    // 8×8 R32_FLOAT, 3 mips, 2 slices: mip chain 256 + 64 + 16 bytes at 0, 256, 320 (336
    // bytes, already 16-aligned); slice 1 starts at 336, its mip 1 at 336 + 256 = 592.
    let d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 2, 3, DXGI_FORMAT_R32_FLOAT, RT);
    let vd = ViewDesc {
        format: DXGI_FORMAT_R32_FLOAT.0,
        dimension: D3D12_RTV_DIMENSION_TEXTURE2DARRAY.0,
        mip: 1,
        first_slice: 1,
        array_size: 1,
        ..Default::default()
    };
    let v = descriptor::rtv(Some(&vd), Some(ViewResource { desc: &d, id: 1 })).unwrap();
    let f = texture_fills(&d, &v, 0, 4, &[]).unwrap();
    assert_eq!(f.len(), 1);
    assert_eq!(one(&f[0]), (592, 16, (0, 0, 0), (4, 4, 1)));
    assert_eq!(f[0].surface.subresource, Some(4));
    // Both slices: two fills, 336 bytes apart.
    let v = descriptor::rtv(
        Some(&ViewDesc { first_slice: 0, array_size: 2, ..vd }),
        Some(ViewResource { desc: &d, id: 1 }),
    )
    .unwrap();
    let f = texture_fills(&d, &v, 0, 4, &[]).unwrap();
    assert_eq!(f.iter().map(|f| f.surface.offset).collect::<Vec<_>>(), [256, 592]);
}

#[test]
fn rects_are_clipped_and_empty_ones_dropped() {
    let r = [rect(-1, -1, 2, 2), rect(3, 3, 10, 10), rect(2, 2, 1, 1), rect(5, 0, 9, 4)];
    assert_eq!(clip_rects(4, 4, &r), [(0, 0, 2, 2), (3, 3, 1, 1)]);
    assert_eq!(clip_rects(4, 4, &[]), [(0, 0, 4, 4)]);
    let d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 4, 4, 1, 1, DXGI_FORMAT_R16_UINT, RT);
    let v = descriptor::rtv(None, Some(ViewResource { desc: &d, id: 1 })).unwrap();
    let f = texture_fills(&d, &v, 0, 2, &[rect(1, 2, 3, 4)]).unwrap();
    assert_eq!(one(&f[0]), (0, 8, (1, 2, 0), (2, 2, 1)));
    // Row 0 of the fill: row 2, element 1 → 2 × 8 + 1 × 2 = 18; row 1 → 26.
    assert_eq!(f[0].rows(2).map(|r| r.0).collect::<Vec<_>>(), [18, 26]);
}

#[test]
fn stencil_plane_follows_depth_plane() {
    // D24S8 4×4: plane 0 is 4 × 4 × 4 = 64 bytes, plane 1 (1 byte per texel) at 64.
    let d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 4, 4, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, DS);
    let v = descriptor::dsv(None, Some(ViewResource { desc: &d, id: 1 })).unwrap();
    assert_eq!(one(&texture_fills(&d, &v, 0, 4, &[]).unwrap()[0]), (0, 16, (0, 0, 0), (4, 4, 1)));
    let s = texture_fills(&d, &v, 1, 1, &[]).unwrap();
    assert_eq!(one(&s[0]), (64, 4, (0, 0, 0), (4, 4, 1)));
    assert_eq!(s[0].surface.subresource, Some(1));
    // The wrong element size for the plane is refused.
    assert_eq!(texture_fills(&d, &v, 1, 4, &[]), Err(ClearError::ElementSize));
}

#[test]
fn volume_w_slices() {
    // 4×4×4 R8_UNORM: rows of 4 bytes, slices of 16; W slices 1..3.
    let d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 4, 4, 4, 1, DXGI_FORMAT_R8_UNORM, RT);
    let vd = ViewDesc {
        format: DXGI_FORMAT_R8_UNORM.0,
        dimension: D3D12_RTV_DIMENSION_TEXTURE3D.0,
        first_slice: 1,
        array_size: 2,
        ..Default::default()
    };
    let v = descriptor::rtv(Some(&vd), Some(ViewResource { desc: &d, id: 1 })).unwrap();
    let f = texture_fills(&d, &v, 0, 1, &[]).unwrap();
    assert_eq!(one(&f[0]), (0, 4, (0, 0, 1), (4, 4, 2)));
    assert_eq!(f[0].rows(1).map(|r| r.0).collect::<Vec<_>>(), [16, 20, 24, 28, 32, 36, 40, 44]);
}

#[test]
fn buffer_views() {
    let d = tex(D3D12_RESOURCE_DIMENSION_BUFFER, 256, 1, 1, 1, DXGI_FORMAT_UNKNOWN, UA);
    let id = Some(ViewResource { desc: &d, id: 1 });
    // Raw: elements are 32-bit words; FirstElement 2 → byte 8.
    let raw = ViewDesc {
        format: DXGI_FORMAT_R32_TYPELESS.0,
        dimension: D3D12_UAV_DIMENSION_BUFFER.0,
        first_element: 2,
        num_elements: 4,
        flags: 1,
        ..Default::default()
    };
    let v = descriptor::uav(Some(&raw), id, None).unwrap();
    assert_eq!(one(&buffer_fills(256, &v, 4, &[]).unwrap()[0]), (8, 16, (0, 0, 0), (4, 1, 1)));
    // Structured, stride 8: FirstElement 1 → byte 8, two structures = four words; a rect
    // over element 1 only → words 2..4.
    let st = ViewDesc {
        format: 0,
        dimension: D3D12_UAV_DIMENSION_BUFFER.0,
        first_element: 1,
        num_elements: 2,
        stride: 8,
        ..Default::default()
    };
    let v = descriptor::uav(Some(&st), id, None).unwrap();
    assert_eq!(one(&buffer_fills(256, &v, 4, &[]).unwrap()[0]), (8, 16, (0, 0, 0), (4, 1, 1)));
    assert_eq!(one(&buffer_fills(256, &v, 4, &[rect(1, 0, 5, 1)]).unwrap()[0]), (8, 16, (2, 0, 0), (2, 1, 1)));
    // Typed R16_UINT: FirstElement 3 → byte 6.
    let ty = ViewDesc {
        format: DXGI_FORMAT_R16_UINT.0,
        dimension: D3D12_UAV_DIMENSION_BUFFER.0,
        first_element: 3,
        num_elements: 5,
        ..Default::default()
    };
    let v = descriptor::uav(Some(&ty), id, None).unwrap();
    assert_eq!(one(&buffer_fills(256, &v, 2, &[]).unwrap()[0]), (6, 10, (0, 0, 0), (5, 1, 1)));
    // A buffer smaller than the view: the view belongs to another resource.
    assert_eq!(buffer_fills(12, &v, 2, &[]), Err(ClearError::ViewMismatch));
}

#[test]
fn view_outside_the_resource() {
    let big = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 4, 4, DXGI_FORMAT_R8_UNORM, RT);
    let vd = ViewDesc {
        format: DXGI_FORMAT_R8_UNORM.0,
        dimension: D3D12_RTV_DIMENSION_TEXTURE2DARRAY.0,
        mip: 3,
        first_slice: 3,
        array_size: 1,
        ..Default::default()
    };
    let v = descriptor::rtv(Some(&vd), Some(ViewResource { desc: &big, id: 1 })).unwrap();
    let small = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, DXGI_FORMAT_R8_UNORM, RT);
    assert_eq!(texture_fills(&small, &v, 0, 1, &[]), Err(ClearError::ViewMismatch));
}

#[test]
fn msaa_clear_writes_every_sample() {
    // 4×4 RGBA8 with 4 samples: one sample's layout is 4 rows of 16 bytes = 64 bytes (a
    // multiple of 16), so sample s starts at 64 s.
    let mut d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 4, 4, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM, RT);
    d.SampleDesc.Count = 4;
    let v = descriptor::rtv(None, Some(ViewResource { desc: &d, id: 1 })).unwrap();
    let f = texture_fills(&d, &v, 0, 4, &[rect(1, 2, 3, 4)]).unwrap();
    assert_eq!(f.len(), 1);
    assert_eq!((f[0].samples, f[0].surface.sample_stride), (4, 64));
    // Rows 2 and 3 from x = 1: 2·16 + 4 = 36 and 52, then the same 64, 128, 192 on.
    assert_eq!(f[0].rows(4).map(|r| r.0).collect::<Vec<_>>(), [36, 52, 100, 116, 164, 180, 228, 244]);
}

#[test]
fn msaa_depth_clear_writes_every_sample() {
    // 3×2 D32_FLOAT with 2 samples: 3·4 = 12-byte rows, 24 bytes rounded up to 32 per sample.
    let mut d = tex(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 3, 2, 1, 1, DXGI_FORMAT_D32_FLOAT, DS);
    d.SampleDesc.Count = 2;
    let v = descriptor::dsv(None, Some(ViewResource { desc: &d, id: 1 })).unwrap();
    let f = texture_fills(&d, &v, 0, 4, &[]).unwrap();
    assert_eq!(f[0].rows(4).map(|r| r.0).collect::<Vec<_>>(), [0, 12, 32, 44]);
}
