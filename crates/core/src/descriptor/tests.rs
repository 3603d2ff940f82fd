//! Descriptor rules: heap descs, the record, every view type's desc rules and the copy walk
//! (descriptors-and-binding.md §2–§5).

use super::*;
use rd3d12_sys::*;

fn res(
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
        Layout: D3D12_TEXTURE_LAYOUT_UNKNOWN,
        Flags: D3D12_RESOURCE_FLAGS(flags),
        SamplerFeedbackMipRegion: Default::default(),
    }
}

fn tex2d(w: u64, h: u32, arr: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
    res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, w, h, arr, mips, fmt, 0)
}

fn buffer(w: u64, flags: u32) -> D3D12_RESOURCE_DESC1 {
    res(D3D12_RESOURCE_DIMENSION_BUFFER, w, 1, 1, 1, DXGI_FORMAT_UNKNOWN, flags)
}

fn on(d: &D3D12_RESOURCE_DESC1) -> Option<ViewResource<'_>> {
    Some(ViewResource { desc: d, id: 7 })
}

fn srv_tex2d(fmt: DXGI_FORMAT, mip: u32, levels: u32) -> ViewDesc {
    ViewDesc {
        format: fmt.0,
        dimension: D3D12_SRV_DIMENSION_TEXTURE2D.0,
        mapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
        mip,
        mip_levels: levels,
        ..ViewDesc::default()
    }
}

const UAV_FLAG: u32 = 0x4;
const RT_FLAG: u32 = 0x1;
const DS_FLAG: u32 = 0x2;
const DENY_SRV: u32 = 0x8;

fn id_of(r: Result<Descriptor, Rule>) -> u32 {
    r.expect_err("expected an invalid desc").id.0
}

// ---- heaps ------------------------------------------------------------------------------

fn heap(ty: D3D12_DESCRIPTOR_HEAP_TYPE, n: u32, flags: u32, mask: u32) -> D3D12_DESCRIPTOR_HEAP_DESC {
    D3D12_DESCRIPTOR_HEAP_DESC {
        Type: ty,
        NumDescriptors: n,
        Flags: D3D12_DESCRIPTOR_HEAP_FLAGS(flags),
        NodeMask: mask,
    }
}

#[test]
fn increments_are_one_power_of_two_for_every_type_and_zero_for_unknown_types() {
    for t in 0..4 {
        assert_eq!(handle_increment(t), 64);
    }
    assert!(DESCRIPTOR_SIZE.is_power_of_two());
    assert_eq!(handle_increment(4), 0);
    assert_eq!(handle_increment(u32::MAX), 0);
}

#[test]
fn heap_desc_rules() {
    use D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV as VIEWS;
    use D3D12_DESCRIPTOR_HEAP_TYPE_DSV as DSV;
    use D3D12_DESCRIPTOR_HEAP_TYPE_RTV as RTV;
    use D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER as SAMPLERS;
    for t in [VIEWS, SAMPLERS, RTV, DSV] {
        assert_eq!(validate_heap_desc(&heap(t, 1, 0, 0)).unwrap().NodeMask, 1, "NodeMask 0 → 1");
        assert_eq!(validate_heap_desc(&heap(t, 1, 0, 1)).unwrap().NodeMask, 1);
        assert_eq!(validate_heap_desc(&heap(t, 0, 0, 0)).err(), Some(rules::HEAP_EMPTY));
        assert_eq!(validate_heap_desc(&heap(t, 1, 0, 2)).err(), Some(rules::HEAP_NODE_MASK));
        assert_eq!(validate_heap_desc(&heap(t, 1, 2, 0)).err(), Some(rules::HEAP_FLAGS));
    }
    assert_eq!(validate_heap_desc(&heap(D3D12_DESCRIPTOR_HEAP_TYPE(4), 1, 0, 0)).err(), Some(rules::HEAP_TYPE));
    assert_eq!(validate_heap_desc(&heap(RTV, 1, 1, 0)).err(), Some(rules::HEAP_VISIBLE_TYPE));
    assert_eq!(validate_heap_desc(&heap(DSV, 1, 1, 0)).err(), Some(rules::HEAP_VISIBLE_TYPE));
    assert!(validate_heap_desc(&heap(VIEWS, 1_000_000, 1, 0)).is_ok());
    assert_eq!(validate_heap_desc(&heap(VIEWS, 1_000_001, 1, 0)).err(), Some(rules::HEAP_TOO_MANY_VIEWS));
    assert!(validate_heap_desc(&heap(SAMPLERS, 2048, 1, 0)).is_ok());
    assert_eq!(validate_heap_desc(&heap(SAMPLERS, 2049, 1, 0)).err(), Some(rules::HEAP_TOO_MANY_SAMPLERS));
    // Limits are for shader-visible heaps only.
    assert!(validate_heap_desc(&heap(SAMPLERS, 1 << 20, 0, 0)).is_ok());
    assert!(validate_heap_desc(&heap(VIEWS, u32::MAX, 0, 0)).is_ok());
    assert_eq!(rules::HEAP_TOO_MANY_VIEWS.id.0, D3D12_MESSAGE_ID_CREATE_DESCRIPTOR_HEAP_LARGE_NUM_DESCRIPTORS.0);
}

// ---- the record -------------------------------------------------------------------------

#[test]
fn record_is_64_bytes_of_plain_data_and_null_is_kind_only() {
    assert_eq!(core::mem::size_of::<Descriptor>(), 64);
    assert_eq!(core::mem::align_of::<Descriptor>(), 8);
    let n = Descriptor::null(Kind::SRV);
    assert!(n.is_null());
    assert_eq!(n, Descriptor { kind: Kind::SRV, ..Descriptor::EMPTY });
    assert!(Descriptor::EMPTY.is_null());
    assert_eq!(Kind::SAMPLER.heap_type(), Some(D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER.0));
    assert_eq!(Kind::UAV.heap_type(), Some(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV.0));
    assert_eq!(Kind::EMPTY.heap_type(), None);
}

// ---- SRVs -------------------------------------------------------------------------------

#[test]
fn srv_texture2d_records_format_range_mapping_and_resource() {
    let r = tex2d(256, 256, 1, 9, DXGI_FORMAT_R8G8B8A8_UNORM);
    let d = srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 2, 3)), on(&r)).unwrap();
    assert_eq!(d.kind, Kind::SRV);
    assert_eq!(d.dimension, D3D12_SRV_DIMENSION_TEXTURE2D.0 as u8);
    assert_eq!(d.format, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_eq!(d.resource, 7);
    assert_eq!(d.component_mapping(), DEFAULT_SHADER_4_COMPONENT_MAPPING);
    assert_eq!(d.texture(), TextureRange { first_mip: 2, mip_levels: 3, first_slice: 0, array_size: 1, min_lod: 0.0 });
    assert!(!d.is_null());
    // -1 = all mips from MostDetailedMip.
    let d = srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 4, u32::MAX)), on(&r)).unwrap();
    assert_eq!((d.texture().first_mip, d.texture().mip_levels), (4, 5));
    assert_eq!(d.format, DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, "cast within the family");
    // Format UNKNOWN inherits the resource's.
    let d = srv(Some(&srv_tex2d(DXGI_FORMAT_UNKNOWN, 0, 1)), on(&r)).unwrap();
    assert_eq!(d.format, DXGI_FORMAT_R8G8B8A8_UNORM);
}

#[test]
fn srv_mip_ranges_must_fit_the_resource() {
    let r = tex2d(256, 256, 1, 9, DXGI_FORMAT_R8G8B8A8_UNORM);
    let dims = D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDDIMENSIONS.0;
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 9, 1)), on(&r))), dims);
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 0)), on(&r))), dims, "MipLevels 0");
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 5, 5)), on(&r))), dims);
    assert!(srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 5, 4)), on(&r)).is_ok());
    let mut v = srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    v.min_lod = -1.0;
    assert!(srv(Some(&v), on(&r)).is_err());
    v.min_lod = f32::NAN;
    assert!(srv(Some(&v), on(&r)).is_err());
    v.min_lod = 2.5;
    assert_eq!(srv(Some(&v), on(&r)).unwrap().texture().min_lod, 2.5);
}

#[test]
fn srv_formats_must_be_typed_castable_and_readable() {
    let r = tex2d(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_TYPELESS);
    let fmt = D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDFORMAT.0;
    assert!(srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_UINT, 0, 1)), on(&r)).is_ok());
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_R8G8B8A8_TYPELESS, 0, 1)), on(&r))), fmt);
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_UNKNOWN, 0, 1)), on(&r))), fmt, "inherits a typeless format");
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_R32_FLOAT, 0, 1)), on(&r))), fmt, "another family");
    assert_eq!(
        id_of(srv(Some(&srv_tex2d(DXGI_FORMAT(0xdead), 0, 1)), on(&r))),
        D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_UNRECOGNIZEDFORMAT.0
    );
    // A depth format cannot be read as such: R32_FLOAT reads D32_FLOAT.
    let dr = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 64, 64, 1, 1, DXGI_FORMAT_D32_FLOAT, DS_FLAG);
    assert_eq!(id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_D32_FLOAT, 0, 1)), on(&dr))), fmt);
    assert!(srv(Some(&srv_tex2d(DXGI_FORMAT_R32_FLOAT, 0, 1)), on(&dr)).is_ok());
}

#[test]
fn srv_of_depth_stencil_formats_selects_the_plane_by_format() {
    let r = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 64, 64, 1, 1, DXGI_FORMAT_R24G8_TYPELESS, DS_FLAG);
    let depth = srv(Some(&srv_tex2d(DXGI_FORMAT_R24_UNORM_X8_TYPELESS, 0, 1)), on(&r)).unwrap();
    assert_eq!(depth.plane, 0);
    let mut v = srv_tex2d(DXGI_FORMAT_X24_TYPELESS_G8_UINT, 0, 1);
    v.plane = 1;
    assert_eq!(srv(Some(&v), on(&r)).unwrap().plane, 1);
    v.plane = 0;
    assert_eq!(id_of(srv(Some(&v), on(&r))), D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDPLANESLICE.0);
    // D24_UNORM_S8_UINT itself is not readable; no default view of a planar format.
    assert!(srv(Some(&srv_tex2d(DXGI_FORMAT_D24_UNORM_S8_UINT, 0, 1)), on(&r)).is_err());
    assert!(srv(None, on(&r)).is_err());
    // A plane slice on a single-plane format.
    let c = tex2d(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let mut v = srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    v.plane = 1;
    assert_eq!(id_of(srv(Some(&v), on(&c))), D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDPLANESLICE.0);
}

#[test]
fn srv_of_video_planes_reads_each_plane_format() {
    let r = tex2d(64, 64, 1, 1, DXGI_FORMAT_NV12);
    let mut v = srv_tex2d(DXGI_FORMAT_R8_UNORM, 0, 1);
    assert_eq!(srv(Some(&v), on(&r)).unwrap().plane, 0);
    v.format = DXGI_FORMAT_R8G8_UNORM.0;
    assert!(srv(Some(&v), on(&r)).is_err(), "R8G8 is plane 1's format");
    v.plane = 1;
    assert_eq!(srv(Some(&v), on(&r)).unwrap().plane, 1);
    v.plane = 2;
    assert_eq!(id_of(srv(Some(&v), on(&r))), D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDVIDEOPLANESLICE.0);
}

#[test]
fn srv_default_views_infer_dimension_and_cover_everything() {
    let r = tex2d(64, 64, 4, 0, DXGI_FORMAT_R16G16B16A16_FLOAT);
    let mut r = r;
    r.MipLevels = 7;
    let d = srv(None, on(&r)).unwrap();
    assert_eq!(d.dimension, D3D12_SRV_DIMENSION_TEXTURE2DARRAY.0 as u8);
    assert_eq!(d.texture(), TextureRange { first_mip: 0, mip_levels: 7, first_slice: 0, array_size: 4, min_lod: 0.0 });
    assert_eq!(d.component_mapping(), DEFAULT_SHADER_4_COMPONENT_MAPPING);
    let mut ms = tex2d(64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    ms.SampleDesc.Count = 4;
    ms.Flags = D3D12_RESOURCE_FLAGS(RT_FLAG);
    assert_eq!(srv(None, on(&ms)).unwrap().dimension, D3D12_SRV_DIMENSION_TEXTURE2DMS.0 as u8);
    let t1 = res(D3D12_RESOURCE_DIMENSION_TEXTURE1D, 64, 1, 1, 1, DXGI_FORMAT_R8_UNORM, 0);
    assert_eq!(srv(None, on(&t1)).unwrap().dimension, D3D12_SRV_DIMENSION_TEXTURE1D.0 as u8);
    let t3 = res(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 8, 1, DXGI_FORMAT_R8_UNORM, 0);
    let d = srv(None, on(&t3)).unwrap();
    assert_eq!(d.dimension, D3D12_SRV_DIMENSION_TEXTURE3D.0 as u8);
    assert_eq!(d.texture().array_size, 8);
    // Buffers and typeless textures need a desc.
    assert!(srv(None, on(&buffer(256, 0))).is_err());
    assert!(srv(None, on(&tex2d(8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_TYPELESS))).is_err());
}

#[test]
fn srv_dimension_must_match_the_resource() {
    let r = tex2d(64, 64, 6, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let desc_id = D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDDESC.0;
    for dim in [
        D3D12_SRV_DIMENSION_TEXTURE3D,
        D3D12_SRV_DIMENSION_TEXTURE1D,
        D3D12_SRV_DIMENSION_TEXTURE2DMS,
        D3D12_SRV_DIMENSION_BUFFER,
    ] {
        let v = ViewDesc { dimension: dim.0, ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1) };
        assert_eq!(id_of(srv(Some(&v), on(&r))), desc_id, "{dim:?}");
    }
    let v = ViewDesc { dimension: 0, ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1) };
    assert_eq!(id_of(srv(Some(&v), on(&r))), desc_id);
    let v = ViewDesc { dimension: 12, ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1) };
    assert_eq!(id_of(srv(Some(&v), on(&r))), desc_id);
    // Raytracing acceleration structures are not supported.
    let v = ViewDesc { dimension: D3D12_SRV_DIMENSION_RAYTRACING_ACCELERATION_STRUCTURE.0, ..ViewDesc::default() };
    assert!(srv(Some(&v), None).is_err());
}

#[test]
fn srv_cubes_need_six_faces_per_cube() {
    let r = tex2d(64, 64, 12, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let cube = ViewDesc { dimension: D3D12_SRV_DIMENSION_TEXTURECUBE.0, ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1) };
    assert_eq!(srv(Some(&cube), on(&r)).unwrap().texture().array_size, 6);
    assert!(srv(Some(&cube), on(&tex2d(64, 64, 5, 1, DXGI_FORMAT_R8G8B8A8_UNORM))).is_err());
    let arr = |first, n| ViewDesc {
        dimension: D3D12_SRV_DIMENSION_TEXTURECUBEARRAY.0,
        first_slice: first,
        array_size: n,
        ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1)
    };
    let t = srv(Some(&arr(0, u32::MAX)), on(&r)).unwrap().texture();
    assert_eq!((t.first_slice, t.array_size), (0, 12));
    let t = srv(Some(&arr(3, 1)), on(&r)).unwrap().texture();
    assert_eq!((t.first_slice, t.array_size), (3, 6));
    assert!(srv(Some(&arr(7, 1)), on(&r)).is_err());
    assert!(srv(Some(&arr(0, 0)), on(&r)).is_err());
    assert!(srv(Some(&arr(0, 3)), on(&r)).is_err());
}

#[test]
fn srv_arrays_default_to_all_slices_from_the_first() {
    let r = tex2d(64, 64, 8, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let v = |first, n| ViewDesc {
        dimension: D3D12_SRV_DIMENSION_TEXTURE2DARRAY.0,
        first_slice: first,
        array_size: n,
        ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1)
    };
    let t = srv(Some(&v(3, u32::MAX)), on(&r)).unwrap().texture();
    assert_eq!((t.first_slice, t.array_size), (3, 5));
    assert!(srv(Some(&v(8, 1)), on(&r)).is_err());
    assert!(srv(Some(&v(4, 5)), on(&r)).is_err());
    assert!(srv(Some(&v(0, 0)), on(&r)).is_err());
}

#[test]
fn srv_component_mapping_needs_the_always_set_bit_and_valid_components() {
    assert!(valid_component_mapping(DEFAULT_SHADER_4_COMPONENT_MAPPING));
    assert!(valid_component_mapping(0x1000 | 5 | 4 << 3 | 3 << 6 | 2 << 9));
    assert!(!valid_component_mapping(0x0688), "bit 12 clear");
    assert!(!valid_component_mapping(0x1000 | 6), "component 6");
    assert!(!valid_component_mapping(0x3688), "bit 13");
    let r = tex2d(8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
    let v = ViewDesc { mapping: 0, ..srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1) };
    assert_eq!(id_of(srv(Some(&v), on(&r))), D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDDESC.0);
    assert!(srv(Some(&v), None).is_err(), "a null SRV checks the mapping too");
}

#[test]
fn srv_deny_shader_resource_resources_have_no_srv() {
    let r = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, DXGI_FORMAT_D32_FLOAT, DS_FLAG | DENY_SRV);
    assert_eq!(
        id_of(srv(Some(&srv_tex2d(DXGI_FORMAT_R32_FLOAT, 0, 1)), on(&r))),
        D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDRESOURCE.0
    );
}

#[test]
fn null_views_need_a_desc_and_are_canonical() {
    let v = srv_tex2d(DXGI_FORMAT_R8G8B8A8_UNORM, 0, 1);
    assert_eq!(srv(Some(&v), None), Ok(Descriptor::null(Kind::SRV)));
    assert!(srv(None, None).is_err());
    let u =
        ViewDesc { dimension: D3D12_UAV_DIMENSION_TEXTURE2D.0, format: DXGI_FORMAT_R32_FLOAT.0, ..ViewDesc::default() };
    assert_eq!(uav(Some(&u), None, None), Ok(Descriptor::null(Kind::UAV)));
    let r = ViewDesc { dimension: D3D12_RTV_DIMENSION_TEXTURE2D.0, ..ViewDesc::default() };
    assert_eq!(rtv(Some(&r), None), Ok(Descriptor::null(Kind::RTV)));
    let d = ViewDesc { dimension: D3D12_DSV_DIMENSION_TEXTURE2D.0, ..ViewDesc::default() };
    assert_eq!(dsv(Some(&d), None), Ok(Descriptor::null(Kind::DSV)));
    let bad = ViewDesc { dimension: 0, ..d };
    assert!(dsv(Some(&bad), None).is_err());
}

fn buf_srv(fmt: DXGI_FORMAT, first: u64, n: u32, stride: u32, flags: u32) -> ViewDesc {
    ViewDesc {
        format: fmt.0,
        dimension: D3D12_SRV_DIMENSION_BUFFER.0,
        mapping: DEFAULT_SHADER_4_COMPONENT_MAPPING,
        first_element: first,
        num_elements: n,
        stride,
        flags,
        ..ViewDesc::default()
    }
}

#[test]
fn buffer_srvs_typed_raw_and_structured() {
    let b = buffer(1024, 0);
    let d = srv(Some(&buf_srv(DXGI_FORMAT_R32G32B32A32_FLOAT, 2, 62, 0, 0)), on(&b)).unwrap();
    assert!(d.is_buffer_view());
    assert_eq!(d.buffer(), BufferRange { first_element: 2, num_elements: 62, stride: 16 });
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32G32B32A32_FLOAT, 2, 63, 0, 0)), on(&b)).is_err(), "past the end");
    // Raw: R32_TYPELESS, 4-byte elements, no stride.
    let d = srv(Some(&buf_srv(DXGI_FORMAT_R32_TYPELESS, 0, 256, 0, 1)), on(&b)).unwrap();
    assert_eq!((d.format, d.flags, d.buffer().stride), (DXGI_FORMAT_R32_TYPELESS, 1, 4));
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_UINT, 0, 4, 0, 1)), on(&b)).is_err());
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_TYPELESS, 0, 4, 4, 1)), on(&b)).is_err());
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_TYPELESS, 0, 4, 0, 0)), on(&b)).is_err(), "typeless without RAW");
    // Structured: Format UNKNOWN.
    let d = srv(Some(&buf_srv(DXGI_FORMAT_UNKNOWN, 1, 31, 32, 0)), on(&b)).unwrap();
    assert_eq!(d.buffer(), BufferRange { first_element: 1, num_elements: 31, stride: 32 });
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_UNKNOWN, 1, 32, 32, 0)), on(&b)).is_err());
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_FLOAT, 0, 1, 32, 0)), on(&b)).is_err());
    // Typed without a format, zero elements, unknown flags, overflow.
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_UNKNOWN, 0, 1, 0, 0)), on(&b)).is_err());
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_FLOAT, 0, 0, 0, 0)), on(&b)).is_err());
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_FLOAT, 0, 1, 0, 2)), on(&b)).is_err());
    assert!(srv(Some(&buf_srv(DXGI_FORMAT_R32_FLOAT, u64::MAX, 2, 0, 0)), on(&b)).is_err());
}

// ---- UAVs -------------------------------------------------------------------------------

fn buf_uav(fmt: DXGI_FORMAT, n: u32, stride: u32, counter_offset: u64, flags: u32) -> ViewDesc {
    ViewDesc {
        format: fmt.0,
        dimension: D3D12_UAV_DIMENSION_BUFFER.0,
        num_elements: n,
        stride,
        counter_offset,
        flags,
        ..ViewDesc::default()
    }
}

#[test]
fn uavs_need_allow_unordered_access() {
    let tex = tex2d(8, 8, 1, 1, DXGI_FORMAT_R32_FLOAT);
    let v =
        ViewDesc { format: DXGI_FORMAT_R32_FLOAT.0, dimension: D3D12_UAV_DIMENSION_TEXTURE2D.0, ..ViewDesc::default() };
    assert_eq!(id_of(uav(Some(&v), on(&tex), None)), D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDRESOURCE.0);
    let tex = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 3, DXGI_FORMAT_R32_FLOAT, UAV_FLAG);
    let d = uav(Some(&ViewDesc { mip: 2, ..v }), on(&tex), None).unwrap();
    assert_eq!((d.texture().first_mip, d.texture().mip_levels), (2, 1));
    assert!(uav(Some(&ViewDesc { mip: 3, ..v }), on(&tex), None).is_err());
    // Default UAV: first mip, typed.
    let d = uav(None, on(&tex), None).unwrap();
    assert_eq!((d.dimension, d.texture().mip_levels), (D3D12_UAV_DIMENSION_TEXTURE2D.0 as u8, 1));
}

#[test]
fn uavs_may_view_32_bit_typeless_textures_as_r32_words_and_nothing_else_may() {
    let view = |dim: u32, f: DXGI_FORMAT| ViewDesc { format: f.0, dimension: dim, ..ViewDesc::default() };
    let u2d = |f| view(D3D12_UAV_DIMENSION_TEXTURE2D.0, f);
    for res_format in [
        DXGI_FORMAT_R8G8B8A8_TYPELESS,
        DXGI_FORMAT_B8G8R8A8_TYPELESS,
        DXGI_FORMAT_B8G8R8X8_TYPELESS,
        DXGI_FORMAT_R16G16_TYPELESS,
        DXGI_FORMAT_R10G10B10A2_TYPELESS,
    ] {
        let t = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, res_format, UAV_FLAG);
        for f in [DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R32_UINT, DXGI_FORMAT_R32_SINT] {
            let d = uav(Some(&u2d(f)), on(&t), None).unwrap_or_else(|e| panic!("{res_format:?} as {f:?}: {e:?}"));
            assert_eq!(d.format, f);
        }
        // Only as R32 words: not as another family's formats, and only UAVs.
        assert!(uav(Some(&u2d(DXGI_FORMAT_R16G16B16A16_FLOAT)), on(&t), None).is_err());
        let s = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, res_format, 0);
        let srv_view = view(D3D12_SRV_DIMENSION_TEXTURE2D.0, DXGI_FORMAT_R32_UINT);
        let srv_view = ViewDesc { mapping: DEFAULT_SHADER_4_COMPONENT_MAPPING, mip_levels: u32::MAX, ..srv_view };
        assert!(srv(Some(&srv_view), on(&s)).is_err(), "{res_format:?}");
    }
    // Fully typed resources do not cast, nor do typeless ones of one 32-bit component or of
    // other sizes.
    for res_format in [DXGI_FORMAT_R8G8B8A8_UNORM, DXGI_FORMAT_R16G16_FLOAT, DXGI_FORMAT_R16G16B16A16_TYPELESS] {
        let t = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, res_format, UAV_FLAG);
        assert!(uav(Some(&u2d(DXGI_FORMAT_R32_UINT)), on(&t), None).is_err(), "{res_format:?}");
    }
}

#[test]
fn uav_3d_views_take_w_slices_of_the_mip() {
    let t = res(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 16, 16, 16, 2, DXGI_FORMAT_R32_FLOAT, UAV_FLAG);
    let v = |mip, first, n| ViewDesc {
        format: DXGI_FORMAT_R32_FLOAT.0,
        dimension: D3D12_UAV_DIMENSION_TEXTURE3D.0,
        mip,
        first_slice: first,
        array_size: n,
        ..ViewDesc::default()
    };
    let r = uav(Some(&v(1, 2, u32::MAX)), on(&t), None).unwrap().texture();
    assert_eq!((r.first_slice, r.array_size), (2, 6), "mip 1 is 8 deep");
    assert!(uav(Some(&v(1, 0, 9)), on(&t), None).is_err());
}

#[test]
fn uav_counters_need_structured_buffers_and_a_counter_buffer() {
    let b = buffer(4096, UAV_FLAG);
    let c = buffer(8192, UAV_FLAG);
    let counter = Some(ViewResource { desc: &c, id: 9 });
    let d = uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 4096, 0)), on(&b), counter).unwrap();
    assert_eq!(d.counter(), Some((9, 4096)));
    assert_eq!(uav_warning(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 4096, 0)), true), None);
    // Multiples of 4 are accepted, with the 4096 warning.
    let v = buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 8, 0);
    assert!(uav(Some(&v), on(&b), counter).is_ok());
    assert_eq!(uav_warning(Some(&v), true), Some(rules::UAV_COUNTER_ALIGNMENT));
    let counter_id = D3D12_MESSAGE_ID_CREATE_UNORDEREDACCESS_VIEW_INVALID_COUNTER_USAGE.0;
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 6, 0)), on(&b), counter)), counter_id);
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 8190, 0)), on(&b), counter)), counter_id);
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 8192, 0)), on(&b), counter)), counter_id);
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_R32_TYPELESS, 16, 0, 0, 1)), on(&b), counter)), counter_id);
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_R32_UINT, 16, 0, 0, 0)), on(&b), counter)), counter_id);
    assert_eq!(id_of(uav(None, on(&b), counter)), counter_id);
    let tex = tex2d(8, 8, 1, 1, DXGI_FORMAT_R32_UINT);
    let tc = Some(ViewResource { desc: &tex, id: 3 });
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 0, 0)), on(&b), tc)), counter_id);
    // No counter: the offset must be 0.
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 4, 0)), on(&b), None)), counter_id);
    assert_eq!(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 0, 0)), on(&b), None).unwrap().counter(), None);
    // A null UAV cannot have a counter.
    assert_eq!(id_of(uav(Some(&buf_uav(DXGI_FORMAT_UNKNOWN, 16, 16, 0, 0)), None, counter)), counter_id);
}

#[test]
fn typed_uavs_need_a_uav_format() {
    let b = buffer(4096, UAV_FLAG);
    assert!(uav(Some(&buf_uav(DXGI_FORMAT_R32_UINT, 16, 0, 0, 0)), on(&b), None).is_ok());
    assert!(uav(Some(&buf_uav(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, 16, 0, 0, 0)), on(&b), None).is_err(), "no sRGB UAVs");
    // Writable MSAA is not supported.
    let mut ms = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, DXGI_FORMAT_R32_FLOAT, UAV_FLAG | RT_FLAG);
    ms.SampleDesc.Count = 4;
    let v = ViewDesc {
        format: DXGI_FORMAT_R32_FLOAT.0,
        dimension: D3D12_UAV_DIMENSION_TEXTURE2DMS.0,
        ..ViewDesc::default()
    };
    assert!(uav(Some(&v), on(&ms), None).is_err());
}

// ---- RTVs and DSVs ----------------------------------------------------------------------

#[test]
fn rtvs_need_allow_render_target_and_a_render_target_format() {
    let plain = tex2d(8, 8, 4, 2, DXGI_FORMAT_R8G8B8A8_UNORM);
    assert_eq!(id_of(rtv(None, on(&plain))), D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDRESOURCE.0);
    let rt = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 4, 2, DXGI_FORMAT_R8G8B8A8_UNORM, RT_FLAG);
    let d = rtv(None, on(&rt)).unwrap();
    assert_eq!(d.dimension, D3D12_RTV_DIMENSION_TEXTURE2DARRAY.0 as u8);
    assert_eq!(d.texture(), TextureRange { first_mip: 0, mip_levels: 1, first_slice: 0, array_size: 4, min_lod: 0.0 });
    let v = ViewDesc {
        format: DXGI_FORMAT_R8G8B8A8_UNORM_SRGB.0,
        dimension: D3D12_RTV_DIMENSION_TEXTURE2D.0,
        mip: 1,
        ..ViewDesc::default()
    };
    assert_eq!(rtv(Some(&v), on(&rt)).unwrap().texture().first_mip, 1);
    let v = ViewDesc { mip: 2, ..v };
    assert_eq!(id_of(rtv(Some(&v), on(&rt))), D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDDIMENSIONS.0);
    let rt3 = res(D3D12_RESOURCE_DIMENSION_TEXTURE3D, 8, 8, 8, 1, DXGI_FORMAT_R8G8B8A8_UNORM, RT_FLAG);
    let d = rtv(None, on(&rt3)).unwrap();
    assert_eq!((d.dimension, d.texture().array_size), (D3D12_RTV_DIMENSION_TEXTURE3D.0 as u8, 8));
    // Typeless resources need a desc; BC formats are not render targets.
    let tl = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, DXGI_FORMAT_R8G8B8A8_TYPELESS, RT_FLAG);
    assert_eq!(id_of(rtv(None, on(&tl))), D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDFORMAT.0);
}

#[test]
fn rtv_buffers_are_typed_element_ranges() {
    let b = buffer(256, RT_FLAG);
    let v = ViewDesc {
        format: DXGI_FORMAT_R32_FLOAT.0,
        dimension: D3D12_RTV_DIMENSION_BUFFER.0,
        num_elements: 64,
        ..ViewDesc::default()
    };
    assert_eq!(rtv(Some(&v), on(&b)).unwrap().buffer(), BufferRange { first_element: 0, num_elements: 64, stride: 4 });
    assert!(rtv(Some(&ViewDesc { num_elements: 65, ..v }), on(&b)).is_err());
}

#[test]
fn dsvs_need_allow_depth_stencil_a_depth_format_and_known_flags() {
    let ds = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, DXGI_FORMAT_D24_UNORM_S8_UINT, DS_FLAG);
    let d = dsv(None, on(&ds)).unwrap();
    assert_eq!(
        (d.kind, d.dimension, d.format),
        (Kind::DSV, D3D12_DSV_DIMENSION_TEXTURE2D.0 as u8, DXGI_FORMAT_D24_UNORM_S8_UINT)
    );
    let v = ViewDesc {
        format: DXGI_FORMAT_D24_UNORM_S8_UINT.0,
        dimension: D3D12_DSV_DIMENSION_TEXTURE2D.0,
        flags: 3,
        ..ViewDesc::default()
    };
    assert_eq!(dsv(Some(&v), on(&ds)).unwrap().flags, 3);
    assert_eq!(
        id_of(dsv(Some(&ViewDesc { flags: 4, ..v }), on(&ds))),
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFLAGS.0
    );
    let d32 = res(D3D12_RESOURCE_DIMENSION_TEXTURE2D, 8, 8, 1, 1, DXGI_FORMAT_D32_FLOAT, DS_FLAG);
    let v32 = ViewDesc { format: DXGI_FORMAT_D32_FLOAT.0, flags: 1, ..v };
    assert!(dsv(Some(&v32), on(&d32)).is_ok());
    assert_eq!(
        id_of(dsv(Some(&ViewDesc { flags: 2, ..v32 }), on(&d32))),
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFLAGS.0
    );
    let rv = ViewDesc { format: DXGI_FORMAT_R32_FLOAT.0, ..v32 };
    assert_eq!(id_of(dsv(Some(&rv), on(&d32))), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFORMAT.0);
    let plain = tex2d(8, 8, 1, 1, DXGI_FORMAT_D32_FLOAT);
    assert_eq!(id_of(dsv(None, on(&plain))), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDRESOURCE.0);
    // DSV dimensions are numbered without BUFFER: 3 is TEXTURE2D; there is no 3D DSV.
    let v3 = ViewDesc { dimension: 7, ..v32 };
    assert!(dsv(Some(&v3), on(&d32)).is_err());
}

// ---- CBVs and samplers ------------------------------------------------------------------

#[test]
fn cbv_alignment_and_size_rules() {
    assert_eq!(cbv(None), Ok(Descriptor::null(Kind::CBV)));
    assert_eq!(cbv(Some((0, 256))), Ok(Descriptor::null(Kind::CBV)));
    let d = cbv(Some((0x1_0000_0100, 65536))).unwrap();
    assert_eq!(d.cbv(), (0x1_0000_0100, 65536));
    assert!(!d.is_null());
    assert_eq!(cbv(Some((0x1080, 256))), Err(rules::CBV_ALIGNMENT));
    assert_eq!(cbv(Some((0x1000, 255))), Err(rules::CBV_SIZE));
    assert_eq!(cbv(Some((0x1000, 0))), Err(rules::CBV_SIZE));
    assert_eq!(cbv(Some((0x1000, 65536 + 256))), Err(rules::CBV_SIZE));
}

fn linear() -> SamplerDesc {
    SamplerDesc {
        filter: D3D12_FILTER_MIN_MAG_MIP_LINEAR.0,
        address: [1, 2, 3],
        max_anisotropy: 1,
        max_lod: f32::MAX,
        border: [1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()],
        ..SamplerDesc::default()
    }
}

#[test]
fn samplers_round_trip_their_state() {
    let d = sampler(&linear()).unwrap();
    let s = d.sampler().unwrap();
    assert_eq!(s.filter, D3D12_FILTER_MIN_MAG_MIP_LINEAR.0);
    assert_eq!(s.address, [1, 2, 3]);
    assert_eq!((s.max_lod, s.border[0]), (f32::MAX, 1.0f32.to_bits()));
    let c =
        SamplerDesc { filter: D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT.0, comparison_func: 4, flags: 1, ..linear() };
    let s = sampler(&c).unwrap().sampler().unwrap();
    assert_eq!((s.comparison_func, s.flags), (4, 1));
    assert_eq!(Descriptor::null(Kind::SAMPLER).sampler(), None);
}

#[test]
fn sampler_rules() {
    assert!(sampler(&SamplerDesc { filter: 0x56, ..linear() }).is_err(), "unknown filter");
    assert!(sampler(&SamplerDesc { address: [0, 1, 1], ..linear() }).is_err());
    assert!(sampler(&SamplerDesc { address: [1, 1, 6], ..linear() }).is_err());
    let aniso = SamplerDesc { filter: D3D12_FILTER_ANISOTROPIC.0, ..linear() };
    assert!(sampler(&SamplerDesc { max_anisotropy: 16, ..aniso }).is_ok());
    // 0 is accepted (filters as 1), as for static samplers; Mesa's null sampler uses it.
    assert!(sampler(&SamplerDesc { max_anisotropy: 0, ..aniso }).is_ok());
    assert!(sampler(&SamplerDesc { max_anisotropy: 17, ..aniso }).is_err());
    assert!(sampler(&SamplerDesc { max_anisotropy: 0, ..linear() }).is_ok(), "ignored without anisotropy");
    assert!(sampler(&SamplerDesc { mip_lod_bias: -16.0, ..linear() }).is_ok());
    assert!(sampler(&SamplerDesc { mip_lod_bias: 15.99, ..linear() }).is_ok());
    assert!(sampler(&SamplerDesc { mip_lod_bias: 16.0, ..linear() }).is_err());
    assert!(sampler(&SamplerDesc { mip_lod_bias: f32::NAN, ..linear() }).is_err());
    let cmp = SamplerDesc { filter: D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR.0, ..linear() };
    assert!(sampler(&SamplerDesc { comparison_func: 0, ..cmp }).is_err());
    assert!(sampler(&SamplerDesc { comparison_func: 9, ..cmp }).is_err());
    assert!(sampler(&SamplerDesc { comparison_func: 8, ..cmp }).is_ok());
    assert!(sampler(&SamplerDesc { min_lod: 2.0, max_lod: 1.0, ..linear() }).is_err());
    assert!(sampler(&SamplerDesc { min_lod: f32::NAN, ..linear() }).is_err());
    assert!(sampler(&SamplerDesc { flags: 2, ..linear() }).is_err());
    assert_eq!(
        sampler_warning(&SamplerDesc { comparison_func: 3, ..linear() }),
        Some(rules::SAMPLER_COMPARISON_IGNORED)
    );
    assert_eq!(sampler_warning(&linear()), None);
    // MINIMUM / MAXIMUM reductions are known filters.
    assert!(sampler(&SamplerDesc { filter: D3D12_FILTER_MAXIMUM_MIN_MAG_MIP_POINT.0, ..linear() }).is_ok());
}

// ---- copies -----------------------------------------------------------------------------

#[test]
fn copy_runs_split_at_both_sides_range_boundaries() {
    let mut runs = Vec::new();
    // dst: 3 ranges (1 + 4 + 2 = 7), src: 2 ranges (5 + 2 = 7), 64-byte units.
    let dst = [(1000, 1), (2000, 4), (3000, 2)];
    let src = [(10_000, 5), (20_000, 2)];
    copy_runs(&dst, &src, 64, |d, s, n| runs.push((d, s, n))).unwrap();
    assert_eq!(runs, vec![(1000, 10_000, 1), (2000, 10_064, 4), (3000, 20_000, 2)]);
}

#[test]
fn copy_runs_skip_empty_ranges_and_need_equal_totals() {
    let mut runs = Vec::new();
    copy_runs(&[(0, 0), (100, 2)], &[(500, 1), (600, 0), (700, 1)], 8, |d, s, n| runs.push((d, s, n))).unwrap();
    assert_eq!(runs, vec![(100, 500, 1), (108, 700, 1)]);
    let mut called = false;
    assert_eq!(copy_runs(&[(0, 2)], &[(0, 3)], 8, |_, _, _| called = true), Err(rules::COPY_RANGES));
    assert!(!called);
    assert_eq!(copy_runs(&[], &[], 8, |_, _, _| called = true), Ok(()));
    assert!(!called);
}
