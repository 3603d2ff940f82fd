use super::*;
use crate::dxbc::{self, Container};

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// FXC output for `[numthreads(1,1,1)] void main() {}` compiled as cs_5_0.
const CS_5_0_FXC: [u32; 29] = [
    0x43425844, 0x1acc3ad0, 0x71c7b057, 0xc72c4306, 0xf432cb57, 0x00000001, 0x00000074, 0x00000003, 0x0000002c,
    0x0000003c, 0x0000004c, 0x4e475349, 0x00000008, 0x00000000, 0x00000008, 0x4e47534f, 0x00000008, 0x00000000,
    0x00000008, 0x58454853, 0x00000020, 0x00050050, 0x00000008, 0x0100086a, 0x0400009b, 0x00000001, 0x00000001,
    0x00000001, 0x0100003e,
];

fn vs_dxbc() -> ShaderBuilder {
    ShaderBuilder::dxbc(Stage::Vertex)
        .inputs(vec![element("POSITION", 0, 0), element("TEXCOORD", 1, 1)])
        .outputs(vec![system_element("SV_Position", 0, 0, SemanticKind::Position), element("TEXCOORD", 0, 1)])
}

#[test]
fn fxc_compute_shader_is_cs_5_0_with_valid_checksum() {
    let s = parse(&words(&CS_5_0_FXC)).unwrap();
    assert_eq!((s.bytecode, s.stage, s.model), (Bytecode::Dxbc, Stage::Compute, ShaderModel::new(5, 0)));
    assert_eq!(s.checksum, Checksum::Valid);
    assert!(s.inputs.is_empty() && s.outputs.is_empty() && s.root_signature.is_none());
}

#[test]
fn builder_matches_fxc_for_the_empty_compute_shader() {
    // Same parts, same program tokens: the writer produces what FXC produces.
    assert_eq!(ShaderBuilder::dxbc(Stage::Compute).build(), words(&CS_5_0_FXC));
}

#[test]
fn every_stage_round_trips_through_the_writer() {
    for stage in [Stage::Vertex, Stage::Pixel, Stage::Geometry, Stage::Hull, Stage::Domain, Stage::Compute] {
        for b in [ShaderBuilder::dxbc(stage), ShaderBuilder::dxil(stage)] {
            let s = parse(&b.build()).unwrap();
            assert_eq!((s.stage, s.bytecode, s.model, s.checksum), (stage, b.bytecode, b.model, Checksum::Valid));
        }
    }
    for stage in [Stage::Mesh, Stage::Amplification, Stage::Library] {
        assert_eq!(parse(&ShaderBuilder::dxil(stage).build()).unwrap().stage, stage);
    }
}

#[test]
fn signatures_round_trip_in_both_layouts() {
    let b = vs_dxbc();
    for s in [
        parse(&b.build()).unwrap(),
        parse(&ShaderBuilder { bytecode: Bytecode::Dxil, model: ShaderModel::new(6, 2), ..b.clone() }.build()).unwrap(),
    ] {
        assert_eq!(s.inputs, b.inputs);
        assert_eq!(s.outputs, b.outputs);
    }
    let mut e = element("COLOR", 3, 2);
    e.stream = 2;
    e.min_precision = 1;
    let part = signature_part(&[e.clone()], SignatureLayout::V1, None);
    assert_eq!(parse_signature(*b"OSG1", &part, SignatureLayout::V1).unwrap(), vec![e.clone()]);
    let part = signature_part(&[e.clone()], SignatureLayout::V5, None);
    let got = parse_signature(*b"OSG5", &part, SignatureLayout::V5).unwrap();
    assert_eq!((got[0].stream, got[0].min_precision), (2, 0));
}

#[test]
fn embedded_root_signature_becomes_a_standalone_blob() {
    let rts0 = empty_rts0(2, 1);
    let s = parse(&vs_dxbc().root_signature(rts0.clone()).build()).unwrap();
    let blob = s.root_signature.unwrap();
    let c = Container::parse(&blob).unwrap();
    assert_eq!(c.part(*b"RTS0").unwrap(), &rts0[..]);
    let bad = ShaderBuilder::dxbc(Stage::Compute).root_signature(empty_rts0(9, 0)).build();
    assert!(matches!(parse(&bad), Err(ShaderError::BadRootSignature(_))));
    let mut short = empty_rts0(1, 0);
    short[4..8].copy_from_slice(&100u32.to_le_bytes()); // 100 parameters in a 24-byte part
    let bad = ShaderBuilder::dxbc(Stage::Compute).root_signature(short).build();
    assert!(matches!(parse(&bad), Err(ShaderError::BadRootSignature(_))));
}

#[test]
fn checksum_states() {
    let mut b = vs_dxbc().build();
    assert_eq!(parse(&b).unwrap().checksum, Checksum::Valid);
    let last = b.len() - 1;
    b[last] ^= 0x40; // inside the SHEX part's last token: the program still parses
    assert_eq!(parse(&b).unwrap().checksum, Checksum::Invalid);
    b[4..20].fill(0);
    assert_eq!(parse(&b).unwrap().checksum, Checksum::Invalid, "FXC output is always signed");
    let mut d = ShaderBuilder::dxil(Stage::Pixel).build();
    d[4..20].fill(0);
    assert_eq!(parse(&d).unwrap().checksum, Checksum::Unsigned);
}

#[test]
fn dxil_parts_are_read() {
    let s = parse(&ShaderBuilder::dxil(Stage::Pixel).build()).unwrap();
    assert_eq!(
        s.psv,
        Some(Psv {
            runtime_info_size: 36,
            stage: Some(Stage::Pixel),
            stage_info: [0; 4],
            resource_count: 0,
            bindings: vec![]
        })
    );
    assert!(s.hash.is_some());
}

/// Rebuilds a container with one part replaced.
fn replace_part(blob: &[u8], cc: &FourCC, data: Option<&[u8]>) -> Vec<u8> {
    let c = Container::parse(blob).unwrap();
    let mut parts = Vec::new();
    for p in &c.parts {
        if &p.fourcc == cc {
            if let Some(d) = data {
                parts.push((*cc, d));
            }
        } else {
            parts.push((p.fourcc, p.data));
        }
    }
    dxbc::build(&parts)
}

fn build(parts: &[(FourCC, Vec<u8>)]) -> Vec<u8> {
    let refs: Vec<(FourCC, &[u8])> = parts.iter().map(|(c, d)| (*c, d.as_slice())).collect();
    dxbc::build(&refs)
}

fn err(blob: &[u8]) -> ShaderError {
    parse(blob).unwrap_err()
}

#[test]
fn malformed_programs_are_rejected() {
    let vs = vs_dxbc().build();
    assert_eq!(err(&replace_part(&vs, b"SHEX", None)), ShaderError::NoProgram);
    let two = build(&[(*b"SHEX", words(&[0x10050, 3, 0x0100003e])), (*b"SHDR", words(&[0x10040, 2]))]);
    assert_eq!(err(&two), ShaderError::ManyPrograms);
    let dup = build(&[(*b"SHEX", words(&[0x10050, 2])), (*b"SHEX", words(&[0x10050, 2]))]);
    assert_eq!(err(&dup), ShaderError::DuplicatePart(*b"SHEX"));
    for (tokens, what) in [
        (vec![0x10050], "no length token"),
        (vec![0x10050, 9, 0], "length beyond the part"),
        (vec![0x10050, 1], "length below 2"),
        (vec![0x10060, 2], "SM 6 in SHEX"),
        (vec![0x10040, 2], "SM 4 in SHEX"),
        (vec![0x10052, 2], "SM 5.2"),
    ] {
        let b = replace_part(&vs, b"SHEX", Some(&words(&tokens)));
        assert!(matches!(err(&b), ShaderError::BadProgram(_)), "{what}");
    }
    assert_eq!(err(&replace_part(&vs, b"SHEX", Some(&words(&[0x60050, 2])))), ShaderError::UnknownStage(6));
    let hs4 = build(&[(*b"SHDR", words(&[0x30040, 2]))]);
    assert!(matches!(err(&hs4), ShaderError::BadProgram(_)));
    let vs4 = build(&[(*b"SHDR", words(&[0x10041, 2]))]);
    assert_eq!(parse(&vs4).unwrap().model, ShaderModel::new(4, 1));
}

#[test]
fn malformed_dxil_is_rejected() {
    let ps = ShaderBuilder::dxil(Stage::Pixel).build();
    let c = Container::parse(&ps).unwrap();
    let good = c.part(*b"DXIL").unwrap().to_vec();
    let patch = |off: usize, v: u32| {
        let mut d = good.clone();
        d[off..off + 4].copy_from_slice(&v.to_le_bytes());
        replace_part(&ps, b"DXIL", Some(&d))
    };
    for (b, what) in [
        (patch(4, 100), "size beyond the part"),
        (patch(4, 5), "size below the headers"),
        (patch(8, 0x12345678), "bad DXIL magic"),
        (patch(16, 8), "bitcode offset inside the header"),
        (patch(20, 1000), "bitcode beyond the program"),
        (patch(24, 0), "bad bitcode magic"),
        (patch(0, 0x50), "SM 5.0 DXIL"),
        (replace_part(&ps, b"DXIL", Some(&good[..20])), "truncated part"),
    ] {
        assert!(matches!(err(&b), ShaderError::BadProgram(_)), "{what}: {:?}", parse(&b));
    }
    assert_eq!(err(&patch(0, (99 << 16) | 0x60)), ShaderError::UnknownStage(99));
    // PSV0 whose stage disagrees with the program, and one that is cut short.
    let mut b = ShaderBuilder::dxil(Stage::Pixel);
    b.psv = false;
    let psv = ShaderBuilder::dxil(Stage::Vertex).psv_part();
    let bad = replace_part(&ShaderBuilder::dxil(Stage::Pixel).build(), b"PSV0", Some(&psv));
    assert!(matches!(err(&bad), ShaderError::BadPsv(_)));
    let bad = replace_part(&ShaderBuilder::dxil(Stage::Pixel).build(), b"PSV0", Some(&psv[..20]));
    assert!(matches!(err(&bad), ShaderError::BadPsv(_)));
    assert!(parse(&b.build()).unwrap().psv.is_none());
    let bad = replace_part(&ps, b"HASH", Some(&[0; 8]));
    assert_eq!(err(&bad), ShaderError::BadHash);
}

#[test]
fn malformed_signatures_are_rejected() {
    let good = signature_part(&[element("POSITION", 0, 0)], SignatureLayout::V0, None);
    let cases: Vec<(Vec<u8>, &str)> = vec![
        (good[..4].to_vec(), "no element offset"),
        (
            {
                let mut d = good.clone();
                d[0] = 9;
                d
            },
            "count beyond the part",
        ),
        (
            {
                let mut d = good.clone();
                d[4] = 4;
                d
            },
            "elements over the header",
        ),
        (
            {
                let mut d = good.clone();
                d[8] = 0xF0;
                d
            },
            "name offset beyond the part",
        ),
        (
            {
                let mut d = good.clone();
                d[8] = 0;
                d
            },
            "name offset inside the header",
        ),
        (
            {
                let mut d = good.clone();
                let n = d.len();
                d[n - 4..].fill(b'A');
                d[32..].fill(b'A');
                d
            },
            "unterminated name",
        ),
        (
            {
                let mut d = good.clone();
                d[32] = 0xFF;
                d
            },
            "name is not UTF-8",
        ),
    ];
    for (part, what) in cases {
        let r = parse_signature(*b"ISGN", &part, SignatureLayout::V0);
        assert!(matches!(r, Err(ShaderError::BadSignature(..))), "{what}: {r:?}");
        let blob = replace_part(&vs_dxbc().build(), b"ISGN", Some(&part));
        assert!(matches!(parse(&blob), Err(ShaderError::BadSignature(..))), "{what}");
    }
    let both = build(&[
        (*b"ISGN", good.clone()),
        (*b"ISG1", signature_part(&[], SignatureLayout::V1, None)),
        (*b"SHEX", words(&[0x10050, 2])),
    ]);
    assert_eq!(err(&both), ShaderError::DuplicatePart(*b"ISG1"));
}

#[test]
fn truncated_and_corrupted_blobs_never_panic() {
    let blobs = [
        words(&CS_5_0_FXC),
        vs_dxbc().root_signature(empty_rts0(1, 0)).build(),
        ShaderBuilder::dxil(Stage::Pixel).inputs(vec![element("TEXCOORD", 0, 0)]).build(),
    ];
    for blob in &blobs {
        for n in 0..blob.len() {
            assert!(parse(&blob[..n]).is_err(), "a prefix of {n} bytes parsed");
        }
        for i in 0..blob.len() {
            for v in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut b = blob.clone();
                b[i] = v;
                let _ = parse(&b);
                if b.len() >= dxbc::HEADER_SIZE {
                    dxbc::seal(&mut b);
                }
                let _ = parse(&b);
            }
        }
    }
}

#[test]
fn shader_model_ordering_and_values() {
    assert!(ShaderModel::new(5, 1) < ShaderModel::new(6, 0));
    assert_eq!(ShaderModel::new(6, 5).d3d_value(), 0x65);
    assert_eq!(ShaderModel::from_d3d_value(0x51), ShaderModel::new(5, 1));
}

#[test]
fn psv_resource_bindings_of_mesas_pixel_shader() {
    // textured.ps: cbuffer b0 (the tint), texture t0, sampler s0, all space 0, one register each.
    let s = parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")))
        .expect("parses");
    let mut b = s.psv.expect("PSV0").bindings;
    b.sort_by_key(|b| b.ty);
    assert_eq!(
        b,
        vec![
            PsvBinding { ty: 1, space: 0, lower: 0, upper: 0 },
            PsvBinding { ty: 2, space: 0, lower: 0, upper: 0 },
            PsvBinding { ty: 3, space: 0, lower: 0, upper: 0 },
        ]
    );
}

#[test]
fn psv_stage_info_of_mesa_hull_and_domain_shaders() {
    let hs = parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_quad.hs.dxil")))
        .expect("parses");
    let ds = parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/tess_quad.ds.dxil")))
        .expect("parses");
    // HS: 4 input and 4 output control points, quad domain (3), triangle_ccw output (4).
    assert_eq!(hs.psv.expect("PSV0").stage_info, [4, 4, 3, 4]);
    // DS: 4 input control points, writes SV_Position (1), quad domain.
    assert_eq!(ds.psv.expect("PSV0").stage_info, [4, 1, 3, 0]);
}

#[test]
fn psv_stage_info_of_mesa_geometry_shaders_is_their_input_primitive_first() {
    let quad = parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.gs.dxil")))
        .expect("parses");
    let layer = parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/layer.gs.dxil")))
        .expect("parses");
    // GSInfo: input primitive (D3D_PRIMITIVE), output topology, output stream mask.
    assert_eq!(quad.psv.expect("PSV0").stage_info[..3], [1, 5, 1]);
    assert_eq!(layer.psv.expect("PSV0").stage_info[..3], [3, 5, 1]);
}
