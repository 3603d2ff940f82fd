use super::*;
use rd3d12_sys as sys;

#[test]
fn every_dxil_number_maps_to_its_enum_and_back() {
    // DXIL.rst's tables, by number: 33 semantic kinds, 17 component types, 8 interpolation modes.
    let (k, c, i) = (SemanticKind::ALL.len() as u32, ComponentType::ALL.len() as u32, Interpolation::ALL.len() as u32);
    assert_eq!((k, c, i), (33, 17, 8));
    for v in 0..k {
        assert_eq!(SemanticKind::from_dxil(v).map(SemanticKind::dxil), Some(v));
    }
    for v in 0..c {
        assert_eq!(ComponentType::from_dxil(v).map(ComponentType::dxil), Some(v));
    }
    for v in 0..i {
        assert_eq!(Interpolation::from_dxil(v).map(Interpolation::dxil), Some(v));
    }
    // Spot checks against DXIL.rst's numbers.
    assert_eq!(SemanticKind::from_dxil(3), Some(SemanticKind::Position));
    assert_eq!(SemanticKind::from_dxil(16), Some(SemanticKind::Target));
    assert_eq!(SemanticKind::from_dxil(25), Some(SemanticKind::TessFactor));
    assert_eq!(SemanticKind::from_dxil(30), Some(SemanticKind::CullPrimitive));
    assert_eq!(ComponentType::from_dxil(9), Some(ComponentType::F32));
    assert_eq!(ComponentType::from_dxil(16), Some(ComponentType::UNormF64));
    assert_eq!(Interpolation::from_dxil(4), Some(Interpolation::LinearNoperspective));
    assert_eq!(Interpolation::from_dxil(7), Some(Interpolation::LinearNoperspectiveSample));
    // Unknown numbers are refused, not mapped to a default.
    for v in [k, k + 1, 255, u32::MAX] {
        assert_eq!(SemanticKind::from_dxil(v), None);
    }
    for v in [c, 100, u32::MAX] {
        assert_eq!(ComponentType::from_dxil(v), None);
    }
    for v in [i, 9, u32::MAX] {
        assert_eq!(Interpolation::from_dxil(v), None);
    }
}

#[test]
fn every_d3d_name_maps_to_its_kind_and_back() {
    let names = [
        (sys::D3D_NAME_UNDEFINED, SemanticKind::Arbitrary, None, 0),
        (sys::D3D_NAME_POSITION, SemanticKind::Position, None, 0),
        (sys::D3D_NAME_CLIP_DISTANCE, SemanticKind::ClipDistance, None, 0),
        (sys::D3D_NAME_CULL_DISTANCE, SemanticKind::CullDistance, None, 0),
        (sys::D3D_NAME_RENDER_TARGET_ARRAY_INDEX, SemanticKind::RenderTargetArrayIndex, None, 0),
        (sys::D3D_NAME_VIEWPORT_ARRAY_INDEX, SemanticKind::ViewportArrayIndex, None, 0),
        (sys::D3D_NAME_VERTEX_ID, SemanticKind::VertexId, None, 0),
        (sys::D3D_NAME_PRIMITIVE_ID, SemanticKind::PrimitiveId, None, 0),
        (sys::D3D_NAME_INSTANCE_ID, SemanticKind::InstanceId, None, 0),
        (sys::D3D_NAME_IS_FRONT_FACE, SemanticKind::IsFrontFace, None, 0),
        (sys::D3D_NAME_SAMPLE_INDEX, SemanticKind::SampleIndex, None, 0),
        (sys::D3D_NAME_FINAL_QUAD_EDGE_TESSFACTOR, SemanticKind::TessFactor, Some(TessDomain::Quad), 2),
        (sys::D3D_NAME_FINAL_QUAD_INSIDE_TESSFACTOR, SemanticKind::InsideTessFactor, Some(TessDomain::Quad), 1),
        (sys::D3D_NAME_FINAL_TRI_EDGE_TESSFACTOR, SemanticKind::TessFactor, Some(TessDomain::Tri), 2),
        (sys::D3D_NAME_FINAL_TRI_INSIDE_TESSFACTOR, SemanticKind::InsideTessFactor, Some(TessDomain::Tri), 0),
        (sys::D3D_NAME_FINAL_LINE_DETAIL_TESSFACTOR, SemanticKind::TessFactor, Some(TessDomain::Isoline), 1),
        (sys::D3D_NAME_FINAL_LINE_DENSITY_TESSFACTOR, SemanticKind::TessFactor, Some(TessDomain::Isoline), 0),
        (sys::D3D_NAME_BARYCENTRICS, SemanticKind::Barycentrics, None, 0),
        (sys::D3D_NAME_SHADINGRATE, SemanticKind::ShadingRate, None, 0),
        (sys::D3D_NAME_CULLPRIMITIVE, SemanticKind::CullPrimitive, None, 0),
        (sys::D3D_NAME_TARGET, SemanticKind::Target, None, 3),
        (sys::D3D_NAME_DEPTH, SemanticKind::Depth, None, 0),
        (sys::D3D_NAME_COVERAGE, SemanticKind::Coverage, None, 0),
        (sys::D3D_NAME_DEPTH_GREATER_EQUAL, SemanticKind::DepthGreaterEqual, None, 0),
        (sys::D3D_NAME_DEPTH_LESS_EQUAL, SemanticKind::DepthLessEqual, None, 0),
        (sys::D3D_NAME_STENCIL_REF, SemanticKind::StencilRef, None, 0),
        (sys::D3D_NAME_INNER_COVERAGE, SemanticKind::InnerCoverage, None, 0),
    ];
    for (name, kind, domain, row) in names {
        assert_eq!(SemanticKind::from_d3d_name(name.0), Some(kind), "{name:?}");
        assert_eq!(kind.d3d_name(domain, row), Some(name.0), "{kind:?} {domain:?} row {row}");
    }
    // Every other number up to 0x100 is refused.
    for v in (0..0x100).filter(|v| !names.iter().any(|(n, ..)| n.0 == *v)) {
        assert_eq!(SemanticKind::from_d3d_name(v), None, "{v}");
    }
    assert_eq!(SemanticKind::from_d3d_name(u32::MAX), None);
    // Kinds a container never lists, a tess factor without a domain, an isoline inside factor.
    for k in [SemanticKind::DispatchThreadId, SemanticKind::DomainLocation, SemanticKind::ViewId] {
        assert_eq!(k.d3d_name(None, 0), None, "{k:?}");
    }
    assert_eq!(SemanticKind::TessFactor.d3d_name(None, 0), None);
    assert_eq!(SemanticKind::InsideTessFactor.d3d_name(Some(TessDomain::Isoline), 0), None);
    assert_eq!(TessDomain::from_dxil(1), Some(TessDomain::Isoline));
    assert_eq!(TessDomain::from_dxil(3), Some(TessDomain::Quad));
    assert_eq!((TessDomain::from_dxil(0), TessDomain::from_dxil(4)), (None, None));
}

#[test]
fn every_container_component_type_maps_to_its_enum_and_back() {
    use ComponentType::*;
    let table =
        [(0, Invalid), (1, U32), (2, I32), (3, F32), (4, U16), (5, I16), (6, F16), (7, U64), (8, I64), (9, F64)];
    assert_eq!(sys::D3D_REGISTER_COMPONENT_UINT32.0, 1);
    assert_eq!(sys::D3D_REGISTER_COMPONENT_SINT32.0, 2);
    assert_eq!(sys::D3D_REGISTER_COMPONENT_FLOAT32.0, 3);
    for (n, t) in table {
        assert_eq!(ComponentType::from_d3d(n), Some(t));
        assert_eq!(t.d3d(), Some(n));
    }
    for v in [10, 11, 255, u32::MAX] {
        assert_eq!(ComponentType::from_d3d(v), None);
    }
    // bool is written as uint32; the normalized types have no container number.
    assert_eq!(I1.d3d(), Some(1));
    for t in [SNormF16, UNormF16, SNormF32, UNormF32, SNormF64, UNormF64] {
        assert_eq!(t.d3d(), None, "{t:?}");
    }
    assert!(F32.is_float() && UNormF16.is_float() && !U32.is_float() && !I1.is_float());
}

#[test]
fn a_part_with_an_unknown_code_is_refused() {
    let good =
        signature_part(&[system_element("SV_Position", 0, 0, SemanticKind::Position)], SignatureLayout::V0, None);
    assert_eq!(parse_signature(*b"OSGN", &good, SignatureLayout::V0).unwrap()[0].semantic, SemanticKind::Position);
    // Element words: name offset, index, system value (word 2), component type (3), register, mask.
    for (word, value, why) in [(2, 17, "unknown system value"), (3, 10, "unknown component type")] {
        let mut part = good.clone();
        part[8 + 4 * word..12 + 4 * word].copy_from_slice(&u32::to_le_bytes(value));
        assert_eq!(
            parse_signature(*b"OSGN", &part, SignatureLayout::V0),
            Err(ShaderError::BadSignature(*b"OSGN", why))
        );
    }
}

#[test]
fn a_container_element_reads_its_rows_and_columns_from_register_and_mask() {
    let mut e = element("TEXCOORD", 2, 5);
    e.mask = 0b0110;
    e.rw_mask = 0b0010;
    let part = signature_part(&[e], SignatureLayout::V0, None);
    let got = parse_signature(*b"ISGN", &part, SignatureLayout::V0).unwrap();
    let g = &got[0];
    assert_eq!((g.start_row, g.rows, g.start_col, g.cols, g.mask, g.rw_mask), (5, 1, 1, 2, 0b0110, 0b0010));
    assert_eq!((g.id, g.semantic_indices.as_slice(), g.component), (0, &[2][..], ComponentType::F32));
    assert!(g.is("texcoord", 2) && !g.is("TEXCOORD", 1));
    // A tess factor is written with its domain's names, one entry per row.
    let tf = SignatureElement {
        semantic: SemanticKind::TessFactor,
        semantic_indices: vec![0, 1],
        rows: 2,
        cols: 1,
        mask: 1,
        ..element("SV_TessFactor", 0, 0)
    };
    let part = signature_part(&[tf], SignatureLayout::V0, Some(TessDomain::Isoline));
    let got = parse_signature(*b"PCSG", &part, SignatureLayout::V0).unwrap();
    let words = |i: usize| u32::from_le_bytes(part[8 + 24 * i + 8..8 + 24 * i + 12].try_into().unwrap());
    assert_eq!((words(0), words(1)), (16, 15));
    assert_eq!(
        got.iter().map(|e| (e.id, e.start_row, e.semantic)).collect::<Vec<_>>(),
        [(0, 0, SemanticKind::TessFactor), (1, 1, SemanticKind::TessFactor)]
    );
}
