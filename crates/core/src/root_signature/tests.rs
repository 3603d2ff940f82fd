use super::*;
use proptest::prelude::*;

const SRV: u32 = range_type::SRV;
const UAV: u32 = range_type::UAV;
const CBV: u32 = range_type::CBV;
const SAMPLER: u32 = range_type::SAMPLER;
const APPEND: u32 = OFFSET_APPEND;

fn words(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn as_words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

fn range(range_type: u32, n: u32, base: u32, space: u32, flags: u32, offset: u32) -> DescriptorRange {
    DescriptorRange {
        range_type,
        num_descriptors: n,
        base_shader_register: base,
        register_space: space,
        flags,
        offset_in_descriptors_from_table_start: offset,
    }
}

fn table(visibility: u32, ranges: Vec<DescriptorRange>) -> RootParameter {
    RootParameter { kind: ParameterKind::Table(ranges), visibility }
}

fn constants(visibility: u32, reg: u32, space: u32, n: u32) -> RootParameter {
    RootParameter {
        kind: ParameterKind::Constants(RootConstants {
            shader_register: reg,
            register_space: space,
            num_32bit_values: n,
        }),
        visibility,
    }
}

fn root(ty: u32, visibility: u32, reg: u32, space: u32, flags: u32) -> RootParameter {
    let d = RootDescriptor { shader_register: reg, register_space: space, flags };
    let kind = match ty {
        CBV => ParameterKind::Cbv(d),
        SRV => ParameterKind::Srv(d),
        _ => ParameterKind::Uav(d),
    };
    RootParameter { kind, visibility }
}

fn desc(
    version: Version,
    parameters: Vec<RootParameter>,
    static_samplers: Vec<StaticSampler>,
    flags: u32,
) -> RootSignatureDesc {
    RootSignatureDesc { version, parameters, static_samplers, flags }
}

fn sampler(reg: u32, space: u32, visibility: u32) -> StaticSampler {
    StaticSampler { shader_register: reg, register_space: space, visibility, ..StaticSampler::default() }
}

fn assert_invalid(d: &RootSignatureDesc, needle: &str) {
    match d.validate() {
        Ok(()) => panic!("accepted, expected an error containing {needle:?}: {d:?}"),
        Err(e) => {
            assert_eq!(e.hr, Hr::InvalidArg);
            assert_eq!(e.id.0, sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_INVALID_CONFIGURATION.0);
            assert!(e.message.contains(needle), "message {:?} lacks {needle:?}", e.message);
        }
    }
    assert!(d.serialize().is_err());
}

// ---- byte-exact blobs ------------------------------------------------------------------------

/// Root signatures compiled by Microsoft's fxc (`/T rootsig_1_0`, `/T rootsig_1_1`) and checked
/// byte for byte against D3D12SerializeRootSignature / D3D12SerializeVersionedRootSignature on
/// Windows by public conformance tests. Each is paired with the desc it encodes.
mod microsoft {
    pub const EMPTY_1_0: &[u32] = &[
        0x43425844, 0xd64afc1d, 0x5dc27735, 0x9edacb4a, 0x6bd8a7fa, 0x00000001, 0x00000044, 0x00000001, 0x00000024,
        0x30535452, 0x00000018, 0x00000001, 0x00000000, 0x00000018, 0x00000000, 0x00000018, 0x00000000,
    ];
    pub const EMPTY_1_1: &[u32] = &[
        0x43425844, 0x791882cb, 0x83c1db39, 0x327edc93, 0x3163085b, 0x00000001, 0x00000044, 0x00000001, 0x00000024,
        0x30535452, 0x00000018, 0x00000002, 0x00000000, 0x00000018, 0x00000000, 0x00000018, 0x00000000,
    ];
    /// RootFlags(DENY_PIXEL_SHADER_ROOT_ACCESS)
    pub const DENY_PS_1_1: &[u32] = &[
        0x43425844, 0xca541ae8, 0x791dbcaa, 0xe8a61219, 0x697a84c7, 0x00000001, 0x00000044, 0x00000001, 0x00000024,
        0x30535452, 0x00000018, 0x00000002, 0x00000000, 0x00000018, 0x00000000, 0x00000018, 0x00000020,
    ];
    /// CBV(b4, space = 1, visibility = SHADER_VISIBILITY_GEOMETRY)
    pub const CBV_1_0: &[u32] = &[
        0x43425844, 0x6d4cfb48, 0xbfecaa8d, 0x379ff9c3, 0x0cc56997, 0x00000001, 0x00000058, 0x00000001, 0x00000024,
        0x30535452, 0x0000002c, 0x00000001, 0x00000001, 0x00000018, 0x00000000, 0x0000002c, 0x00000000, 0x00000002,
        0x00000004, 0x00000024, 0x00000004, 0x00000001,
    ];
    pub const CBV_1_1: &[u32] = &[
        0x43425844, 0x8450397e, 0x4e136d61, 0xb4fe3b44, 0xc7223872, 0x00000001, 0x0000005c, 0x00000001, 0x00000024,
        0x30535452, 0x00000030, 0x00000002, 0x00000001, 0x00000018, 0x00000000, 0x00000030, 0x00000000, 0x00000002,
        0x00000004, 0x00000024, 0x00000004, 0x00000001, 0x00000000,
    ];
    /// CBV(b4, space = 1, visibility = SHADER_VISIBILITY_VERTEX), SRV(t13, flags = DATA_STATIC),
    /// UAV(u6, flags = DATA_STATIC_WHILE_SET_AT_EXECUTE)
    pub const ROOT_DESCRIPTORS_1_1: &[u32] = &[
        0x43425844, 0x8ddedbbe, 0xbcfea259, 0x6b35bfbb, 0x23e1de24, 0x00000001, 0x0000008c, 0x00000001, 0x00000024,
        0x30535452, 0x00000060, 0x00000002, 0x00000003, 0x00000018, 0x00000000, 0x00000060, 0x00000000, 0x00000002,
        0x00000001, 0x0000003c, 0x00000003, 0x00000000, 0x00000048, 0x00000004, 0x00000000, 0x00000054, 0x00000004,
        0x00000001, 0x00000000, 0x0000000d, 0x00000000, 0x00000008, 0x00000006, 0x00000000, 0x00000004,
    ];
    /// RootConstants(num32BitConstants=3, b4), RootConstants(num32BitConstants=4, b5, space = 3)
    pub const CONSTANTS_1_0: &[u32] = &[
        0x43425844, 0xbc015590, 0xa9a4a345, 0x7e446850, 0x2be05281, 0x00000001, 0x00000074, 0x00000001, 0x00000024,
        0x30535452, 0x00000048, 0x00000001, 0x00000002, 0x00000018, 0x00000000, 0x00000048, 0x00000000, 0x00000001,
        0x00000000, 0x00000030, 0x00000001, 0x00000000, 0x0000003c, 0x00000004, 0x00000000, 0x00000003, 0x00000005,
        0x00000003, 0x00000004,
    ];
    /// DescriptorTable(CBV(b1, space = 7), SRV(t16, numDescriptors = 8),
    ///                 UAV(u3, numDescriptors = unbounded, offset = 44))
    pub const TABLE_1_0: &[u32] = &[
        0x43425844, 0x0f92e563, 0x4766993f, 0x2304e283, 0x14f0d8dc, 0x00000001, 0x00000094, 0x00000001, 0x00000024,
        0x30535452, 0x00000068, 0x00000001, 0x00000001, 0x00000018, 0x00000000, 0x00000068, 0x00000000, 0x00000000,
        0x00000000, 0x00000024, 0x00000003, 0x0000002c, 0x00000002, 0x00000001, 0x00000001, 0x00000007, 0xffffffff,
        0x00000000, 0x00000008, 0x00000010, 0x00000000, 0xffffffff, 0x00000001, 0xffffffff, 0x00000003, 0x00000000,
        0x0000002c,
    ];
    /// The same table with flags DESCRIPTORS_VOLATILE, DESCRIPTORS_VOLATILE | DATA_VOLATILE, DATA_STATIC.
    pub const TABLE_FLAGS_1_1: &[u32] = &[
        0x43425844, 0xe77ffa8f, 0xfab552d5, 0x586e15d4, 0x4c186c26, 0x00000001, 0x000000a0, 0x00000001, 0x00000024,
        0x30535452, 0x00000074, 0x00000002, 0x00000001, 0x00000018, 0x00000000, 0x00000074, 0x00000000, 0x00000000,
        0x00000000, 0x00000024, 0x00000003, 0x0000002c, 0x00000002, 0x00000001, 0x00000001, 0x00000007, 0x00000001,
        0xffffffff, 0x00000000, 0x00000008, 0x00000010, 0x00000000, 0x00000003, 0xffffffff, 0x00000001, 0xffffffff,
        0x00000003, 0x00000000, 0x00000008, 0x0000002c,
    ];
    /// StaticSampler(s0, filter = FILTER_MIN_MAG_MIP_POINT, addressV = TEXTURE_ADDRESS_CLAMP,
    ///               visibility = SHADER_VISIBILITY_PIXEL),
    /// StaticSampler(s0, filter = FILTER_MIN_MAG_POINT_MIP_LINEAR, AddressW = TEXTURE_ADDRESS_BORDER,
    ///               MipLODBias = 1, maxLod = 10, borderColor = STATIC_BORDER_COLOR_OPAQUE_BLACK, space = 3)
    pub const SAMPLERS_1_0: &[u32] = &[
        0x43425844, 0x52ed526c, 0x892c2d7c, 0xb8ab1123, 0x7e3a727d, 0x00000001, 0x000000ac, 0x00000001, 0x00000024,
        0x30535452, 0x00000080, 0x00000001, 0x00000000, 0x00000018, 0x00000002, 0x00000018, 0x00000000, 0x00000000,
        0x00000001, 0x00000003, 0x00000001, 0x00000000, 0x00000010, 0x00000004, 0x00000002, 0x00000000, 0x7f7fffff,
        0x00000000, 0x00000000, 0x00000005, 0x00000001, 0x00000001, 0x00000001, 0x00000004, 0x3f800000, 0x00000010,
        0x00000004, 0x00000001, 0x00000000, 0x41200000, 0x00000000, 0x00000003, 0x00000000,
    ];
    pub const SAMPLERS_1_1: &[u32] = &[
        0x43425844, 0xcf44eb9e, 0xdbeaed6b, 0xb8d52b6f, 0x0be01c3b, 0x00000001, 0x000000ac, 0x00000001, 0x00000024,
        0x30535452, 0x00000080, 0x00000002, 0x00000000, 0x00000018, 0x00000002, 0x00000018, 0x00000000, 0x00000000,
        0x00000001, 0x00000003, 0x00000001, 0x00000000, 0x00000010, 0x00000004, 0x00000002, 0x00000000, 0x7f7fffff,
        0x00000000, 0x00000000, 0x00000005, 0x00000001, 0x00000001, 0x00000001, 0x00000004, 0x3f800000, 0x00000010,
        0x00000004, 0x00000001, 0x00000000, 0x41200000, 0x00000000, 0x00000003, 0x00000000,
    ];
}

fn microsoft_cases() -> Vec<(&'static str, &'static [u32], RootSignatureDesc)> {
    use Version::*;
    let table_ranges = |f: [u32; 3]| {
        vec![
            range(CBV, 1, 1, 7, f[0], APPEND),
            range(SRV, 8, 16, 0, f[1], APPEND),
            range(UAV, UNBOUNDED, 3, 0, f[2], 44),
        ]
    };
    let samplers = vec![
        StaticSampler {
            filter: sys::D3D12_FILTER_MIN_MAG_MIP_POINT.0,
            address_v: sys::D3D12_TEXTURE_ADDRESS_MODE_CLAMP.0,
            visibility: visibility::PIXEL,
            ..StaticSampler::default()
        },
        StaticSampler {
            filter: sys::D3D12_FILTER_MIN_MAG_POINT_MIP_LINEAR.0,
            address_w: sys::D3D12_TEXTURE_ADDRESS_MODE_BORDER.0,
            mip_lod_bias: 1.0,
            max_lod: 10.0,
            border_color: sys::D3D12_STATIC_BORDER_COLOR_OPAQUE_BLACK.0,
            register_space: 3,
            ..StaticSampler::default()
        },
    ];
    use range_flags::*;
    vec![
        ("empty 1.0", microsoft::EMPTY_1_0, desc(V1_0, vec![], vec![], 0)),
        ("empty 1.1", microsoft::EMPTY_1_1, desc(V1_1, vec![], vec![], 0)),
        ("deny ps 1.1", microsoft::DENY_PS_1_1, desc(V1_1, vec![], vec![], 0x20)),
        ("cbv 1.0", microsoft::CBV_1_0, desc(V1_0, vec![root(CBV, 4, 4, 1, 0)], vec![], 0)),
        ("cbv 1.1", microsoft::CBV_1_1, desc(V1_1, vec![root(CBV, 4, 4, 1, 0)], vec![], 0)),
        (
            "root descriptors 1.1",
            microsoft::ROOT_DESCRIPTORS_1_1,
            desc(
                V1_1,
                vec![
                    root(CBV, 1, 4, 1, 0),
                    root(SRV, 0, 13, 0, descriptor_flags::DATA_STATIC),
                    root(UAV, 0, 6, 0, descriptor_flags::DATA_STATIC_WHILE_SET_AT_EXECUTE),
                ],
                vec![],
                0,
            ),
        ),
        (
            "constants 1.0",
            microsoft::CONSTANTS_1_0,
            desc(V1_0, vec![constants(0, 4, 0, 3), constants(0, 5, 3, 4)], vec![], 0),
        ),
        ("table 1.0", microsoft::TABLE_1_0, desc(V1_0, vec![table(0, table_ranges([0; 3]))], vec![], 0)),
        (
            "table flags 1.1",
            microsoft::TABLE_FLAGS_1_1,
            desc(
                V1_1,
                vec![table(0, table_ranges([DESCRIPTORS_VOLATILE, DESCRIPTORS_VOLATILE | DATA_VOLATILE, DATA_STATIC]))],
                vec![],
                0,
            ),
        ),
        ("samplers 1.0", microsoft::SAMPLERS_1_0, desc(V1_0, vec![], samplers.clone(), 0)),
        ("samplers 1.1", microsoft::SAMPLERS_1_1, desc(V1_1, vec![], samplers, 0)),
    ]
}

#[test]
fn serialization_is_byte_exact_with_microsoft_blobs() {
    for (name, blob, d) in microsoft_cases() {
        let got = d.serialize().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(as_words(&got), blob, "{name}");
    }
}

#[test]
fn microsoft_blobs_deserialize_to_their_descs() {
    for (name, blob, d) in microsoft_cases() {
        let got = RootSignatureDesc::deserialize(&words(blob)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got, d, "{name}");
        assert_eq!(got.validate(), Ok(()), "{name}");
    }
}

/// A 1.2 blob worked out by hand from spec §8: one pixel-visible table with one SRV range
/// (DATA_STATIC, APPEND) and one static sampler with UINT_BORDER_COLOR, flags
/// ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT.
fn hand_1_2() -> (RootSignatureDesc, Vec<u32>) {
    let s = StaticSampler {
        filter: sys::D3D12_FILTER_MIN_MAG_MIP_LINEAR.0,
        address_u: sys::D3D12_TEXTURE_ADDRESS_MODE_BORDER.0,
        address_v: sys::D3D12_TEXTURE_ADDRESS_MODE_BORDER.0,
        address_w: sys::D3D12_TEXTURE_ADDRESS_MODE_CLAMP.0,
        mip_lod_bias: -2.5,
        max_anisotropy: 1,
        comparison_func: sys::D3D12_COMPARISON_FUNC_NEVER.0,
        border_color: sys::D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT.0,
        min_lod: 0.5,
        max_lod: 4.0,
        shader_register: 2,
        register_space: 1,
        visibility: visibility::PIXEL,
        flags: sampler_flags::UINT_BORDER_COLOR,
    };
    let d = desc(
        Version::V1_2,
        vec![table(visibility::PIXEL, vec![range(SRV, 2, 0, 0, range_flags::DATA_STATIC, APPEND)])],
        vec![s],
        1,
    );
    #[rustfmt::skip]
    let rts0 = vec![
        3, 1, 24, 1, 68, 1,                 // header: v1.2, 1 parameter at 24, 1 sampler at 68, flags
        0, 5, 36,                           // parameter 0: table, PIXEL, payload at 36
        1, 44,                              // 1 range at 44
        0, 2, 0, 0, 8, 0xffff_ffff,         // SRV, 2, t0, space 0, DATA_STATIC, APPEND
        0x15, 4, 4, 3, (-2.5f32).to_bits(), 1, 1, 4, 0.5f32.to_bits(), 4.0f32.to_bits(), 2, 1, 5, 1,
    ];
    (d, rts0)
}

#[test]
fn version_1_2_blob_matches_hand_worked_layout() {
    let (d, rts0) = hand_1_2();
    assert_eq!(as_words(&d.encode_rts0()), rts0);
    let blob = d.serialize().unwrap();
    let w = as_words(&blob);
    // Container: magic, checksum, version 1, total 168 bytes, 1 part at 36, "RTS0", 124 bytes.
    assert_eq!(w[0], 0x43425844);
    assert_eq!(&w[5..11], &[1, 168, 1, 36, 0x30535452, 124]);
    assert_eq!(&w[11..], &rts0[..]);
    assert_eq!(&w[1..5], &dxbc::checksum(&blob[20..]));
    assert_eq!(RootSignatureDesc::deserialize(&blob).unwrap(), d);
}

#[test]
fn empty_root_signature_is_68_bytes_at_every_version() {
    for v in Version::ALL {
        let blob = RootSignatureDesc::new(v).serialize().unwrap();
        assert_eq!(blob.len(), 68);
        assert_eq!(&as_words(&blob)[11..], &[v.raw(), 0, 24, 0, 24, 0]);
    }
}

/// A desc with every parameter kind, serialized at each version, laid out by hand: the same
/// parameters get 5- or 6-word ranges, 2- or 3-word root descriptors, 13- or 14-word samplers.
#[test]
fn mixed_desc_layout_at_every_version() {
    for v in Version::ALL {
        let f = |x: u32| if v == Version::V1_0 { 0 } else { x };
        let d = desc(
            v,
            vec![
                root(UAV, 0, 1, 2, f(descriptor_flags::DATA_VOLATILE)),
                table(3, vec![]),
                constants(1, 0, 0, 7),
                table(0, vec![range(SAMPLER, 4, 0, 0, f(range_flags::DESCRIPTORS_VOLATILE), 0)]),
            ],
            vec![sampler(9, 0, 2)],
            0x40,
        );
        let ext = v != Version::V1_0;
        let mut want = vec![v.raw(), 4, 24, 1, 0, 0x40];
        // 4 parameters: payloads start at 24 + 48 = 72.
        let uav_len = if ext { 12 } else { 8 };
        let p1 = 72 + uav_len;
        let p2 = p1 + 8;
        let p3 = p2 + 12;
        want.extend([4, 0, 72, 0, 3, p1, 1, 1, p2, 0, 0, p3]);
        want.extend([1, 2]);
        if ext {
            want.push(descriptor_flags::DATA_VOLATILE);
        }
        want.extend([0, p1 + 8]); // the empty table: its ranges would start right after it
        want.extend([0, 0, 7]);
        want.extend([1, p3 + 8, SAMPLER, 4, 0, 0]);
        if ext {
            want.push(range_flags::DESCRIPTORS_VOLATILE);
        }
        want.push(0);
        let samplers_at = (want.len() * 4) as u32;
        want[4] = samplers_at;
        let s = sampler(9, 0, 2);
        want.extend([s.filter, 1, 1, 1, 0, 16, 4, 2, 0, f32::MAX.to_bits(), 9, 0, 2]);
        if v == Version::V1_2 {
            want.push(0);
        }
        assert_eq!(as_words(&d.encode_rts0()), want, "{v}");
        let blob = d.serialize().unwrap();
        assert_eq!(RootSignatureDesc::deserialize(&blob).unwrap(), d, "{v}");
    }
}

// ---- round trips -----------------------------------------------------------------------------

fn any_version() -> impl Strategy<Value = Version> {
    prop_oneof![Just(Version::V1_0), Just(Version::V1_1), Just(Version::V1_2)]
}

fn any_range() -> impl Strategy<Value = DescriptorRange> {
    (0u32..5, any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>())
        .prop_map(|(t, n, b, s, f, o)| range(t, n, b, s, f, o))
}

fn any_parameter() -> impl Strategy<Value = RootParameter> {
    let d = (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(r, s, f)| RootDescriptor {
        shader_register: r,
        register_space: s,
        flags: f,
    });
    let kind = prop_oneof![
        proptest::collection::vec(any_range(), 0..5).prop_map(ParameterKind::Table),
        (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(r, s, n)| ParameterKind::Constants(RootConstants {
            shader_register: r,
            register_space: s,
            num_32bit_values: n
        })),
        d.clone().prop_map(ParameterKind::Cbv),
        d.clone().prop_map(ParameterKind::Srv),
        d.prop_map(ParameterKind::Uav),
    ];
    (kind, any::<u32>()).prop_map(|(kind, visibility)| RootParameter { kind, visibility })
}

fn any_sampler() -> impl Strategy<Value = StaticSampler> {
    (proptest::array::uniform14(any::<u32>()), -100.0f32..100.0, -100.0f32..100.0).prop_map(|(w, bias, lod)| {
        StaticSampler {
            filter: w[0],
            address_u: w[1],
            address_v: w[2],
            address_w: w[3],
            mip_lod_bias: bias,
            max_anisotropy: w[5],
            comparison_func: w[6],
            border_color: w[7],
            min_lod: lod,
            max_lod: f32::from_bits(w[9] & 0x7f7f_ffff),
            shader_register: w[10],
            register_space: w[11],
            visibility: w[12],
            flags: w[13],
        }
    })
}

/// Any desc the model can hold, valid or not, with the fields a version lacks set to 0.
fn any_desc() -> impl Strategy<Value = RootSignatureDesc> {
    (
        any_version(),
        proptest::collection::vec(any_parameter(), 0..6),
        proptest::collection::vec(any_sampler(), 0..4),
        any::<u32>(),
    )
        .prop_map(|(version, mut parameters, mut static_samplers, flags)| {
            if version == Version::V1_0 {
                for p in &mut parameters {
                    match &mut p.kind {
                        ParameterKind::Table(r) => r.iter_mut().for_each(|r| r.flags = 0),
                        ParameterKind::Cbv(d) | ParameterKind::Srv(d) | ParameterKind::Uav(d) => d.flags = 0,
                        ParameterKind::Constants(_) => {}
                    }
                }
            }
            if version != Version::V1_2 {
                static_samplers.iter_mut().for_each(|s| s.flags = 0);
            }
            RootSignatureDesc { version, parameters, static_samplers, flags }
        })
}

proptest! {
    #[test]
    fn every_desc_round_trips_through_its_blob(d in any_desc()) {
        let blob = d.encode();
        prop_assert_eq!(RootSignatureDesc::deserialize(&blob).unwrap(), d.clone());
        prop_assert_eq!(RootSignatureDesc::decode_rts0(&d.encode_rts0()).unwrap(), d);
    }

    #[test]
    fn truncated_or_corrupted_blobs_never_panic(d in any_desc(), cut in any::<usize>(), at in any::<usize>(), x in any::<u8>()) {
        let payload = d.encode_rts0();
        let cut = cut % payload.len();
        prop_assert!(RootSignatureDesc::decode_rts0(&payload[..cut]).is_err() || cut >= 24);
        let mut bad = payload.clone();
        let at = at % bad.len();
        bad[at] ^= x | 1;
        let _ = RootSignatureDesc::decode_rts0(&bad);
        let _ = RootSignatureDesc::decode_rts0(&payload[..cut]);
    }

    #[test]
    fn conversion_up_and_back_preserves_the_desc(d in any_desc(), to in any_version()) {
        // Converting to a newer version and back is lossless when no 1.2 sampler flag is lost.
        if let Ok(c) = d.convert(to) {
            prop_assert_eq!(c.version, to);
            if to >= d.version {
                let back = c.convert(d.version).unwrap();
                if d.version == Version::V1_0 || to == d.version {
                    prop_assert_eq!(back, d);
                }
            }
        }
    }
}

#[test]
fn valid_descs_round_trip_through_serialize_at_every_version() {
    for v in Version::ALL {
        let f = |x: u32| if v == Version::V1_0 { 0 } else { x };
        let d = desc(
            v,
            vec![
                table(
                    0,
                    vec![
                        range(CBV, 2, 0, 0, f(range_flags::DATA_STATIC), APPEND),
                        range(SRV, UNBOUNDED, 0, 1, f(range_flags::DESCRIPTORS_VOLATILE), 10),
                    ],
                ),
                table(5, vec![range(SAMPLER, 8, 0, 0, 0, 0)]),
                constants(1, 2, 0, 16),
                root(SRV, 0, 0, 0, f(descriptor_flags::DATA_STATIC_WHILE_SET_AT_EXECUTE)),
                root(UAV, 4, 3, 5, 0),
            ],
            vec![sampler(8, 0, 0), sampler(8, 1, 5)],
            0x1 | 0x20,
        );
        let blob = d.serialize().unwrap();
        let back = RootSignatureDesc::deserialize(&blob).unwrap();
        assert_eq!(back, d, "{v}");
        assert_eq!(back.serialize().unwrap(), blob, "{v}");
    }
}

// ---- rules -----------------------------------------------------------------------------------

#[test]
fn cost_limit_is_64_dwords() {
    let tables = |n: usize| {
        let params = (0..n).map(|i| table(0, vec![range(SRV, 1, i as u32, 0, 0, 0)])).collect();
        desc(Version::V1_0, params, vec![], 0)
    };
    assert_eq!(tables(64).cost(), 64);
    assert_eq!(tables(64).validate(), Ok(()));
    assert_invalid(&tables(65), "costs 65 DWORDs");
    let roots = |n: u32| {
        let params = (0..n).map(|i| root(CBV, 0, i, 0, 0)).collect();
        desc(Version::V1_1, params, vec![], 0)
    };
    assert_eq!(roots(32).validate(), Ok(()));
    assert_invalid(&roots(33), "costs 66 DWORDs");
    let consts = |n: u32| desc(Version::V1_0, vec![constants(0, 0, 0, n)], vec![], 0);
    assert_eq!(consts(64).validate(), Ok(()));
    assert_invalid(&consts(65), "costs 65 DWORDs");
    assert_invalid(&consts(u32::MAX), "costs 4294967295 DWORDs");
    // Mixed: 1 + 2 + 61 = 64.
    let mixed = desc(
        Version::V1_0,
        vec![table(0, vec![range(SRV, 1, 0, 0, 0, 0)]), root(UAV, 0, 0, 0, 0), constants(0, 0, 0, 61)],
        vec![],
        0,
    );
    assert_eq!(mixed.cost(), 64);
    assert_eq!(mixed.validate(), Ok(()));
    // Static samplers cost nothing.
    let samplers = desc(Version::V1_0, vec![constants(0, 0, 0, 64)], (0..100).map(|i| sampler(i, 0, 0)).collect(), 0);
    assert_eq!(samplers.validate(), Ok(()));
}

#[test]
fn unknown_enum_values_and_flag_bits_are_rejected() {
    use Version::*;
    assert_invalid(&desc(V1_0, vec![], vec![], 0x1000), "unknown root signature flag bits 0x1000");
    assert_eq!(desc(V1_0, vec![], vec![], 0xfff).validate(), Ok(()));
    assert_invalid(&desc(V1_0, vec![table(8, vec![])], vec![], 0), "unknown ShaderVisibility 8");
    assert_invalid(&desc(V1_0, vec![table(0, vec![range(4, 1, 0, 0, 0, 0)])], vec![], 0), "unknown RangeType 4");
    assert_invalid(&desc(V1_0, vec![], vec![sampler(0, 0, 8)], 0), "unknown ShaderVisibility 8");
}

#[test]
fn descriptor_table_rules() {
    use Version::*;
    let t = |ranges| desc(V1_0, vec![table(0, ranges)], vec![], 0);
    assert_eq!(t(vec![]).validate(), Ok(()), "an empty table is allowed");
    assert_invalid(&t(vec![range(SRV, 1, 0, 0, 0, 0), range(SAMPLER, 1, 0, 0, 0, 1)]), "cannot mix sampler");
    assert_invalid(&t(vec![range(SAMPLER, 1, 0, 0, 0, 0), range(CBV, 1, 0, 0, 0, 1)]), "cannot mix sampler");
    assert_invalid(&t(vec![range(SRV, 0, 0, 0, 0, 0)]), "NumDescriptors is 0");
    // APPEND after an unbounded range has no start; an explicit offset does.
    assert_invalid(
        &t(vec![range(SRV, UNBOUNDED, 0, 0, 0, 0), range(UAV, 1, 0, 0, 0, APPEND)]),
        "cannot follow an unbounded",
    );
    assert_eq!(t(vec![range(SRV, UNBOUNDED, 0, 0, 0, 0), range(UAV, 1, 0, 0, 0, 5)]).validate(), Ok(()));
    assert_eq!(t(vec![range(UAV, 1, 0, 0, 0, 5), range(SRV, UNBOUNDED, 0, 0, 0, APPEND)]).validate(), Ok(()));
    // Register and descriptor overflows.
    assert_eq!(t(vec![range(SRV, 1, u32::MAX, 0, 0, 0)]).validate(), Ok(()));
    assert_invalid(
        &t(vec![range(SRV, 2, u32::MAX, 0, 0, 0)]),
        "BaseShaderRegister 4294967295 + NumDescriptors 2 overflows",
    );
    assert_eq!(t(vec![range(SRV, 2, 0, 0, 0, u32::MAX - 1)]).validate(), Ok(()), "ends at descriptor 0xffffffff");
    assert_invalid(&t(vec![range(SRV, 3, 0, 0, 0, u32::MAX - 1)]), "descriptor offset 4294967294 + NumDescriptors 3");
    assert_invalid(
        &t(vec![range(SRV, 0x8000_0000, 0, 0, 0, 0), range(UAV, 0x8000_0001, 0, 0, 0, APPEND)]),
        "overflows",
    );
    assert_eq!(
        t(vec![range(SRV, 0x8000_0000, 0, 0, 0, 0), range(UAV, 0x8000_0000, 0, 0, 0, APPEND)]).validate(),
        Ok(())
    );
    assert_eq!(
        t(vec![range(SRV, 0x8000_0000, 0, 0, 0, 0), range(UAV, 0x7fff_ffff, 0, 0, 0, APPEND)]).validate(),
        Ok(())
    );
    // Ranges may alias descriptors of the heap (offsets overlap) as long as registers do not.
    assert_eq!(t(vec![range(SRV, 4, 0, 0, 0, 0), range(UAV, 4, 0, 0, 0, 0)]).validate(), Ok(()));
}

#[test]
fn reserved_register_spaces_are_rejected_everywhere() {
    use Version::*;
    for space in [0xffff_fff0, 0xffff_fff7, 0xffff_fff8, u32::MAX] {
        let msg = "reserved for the system";
        assert_invalid(&desc(V1_0, vec![table(0, vec![range(SRV, 1, 0, space, 0, 0)])], vec![], 0), msg);
        assert_invalid(&desc(V1_0, vec![constants(0, 0, space, 1)], vec![], 0), msg);
        assert_invalid(&desc(V1_0, vec![root(UAV, 0, 0, space, 0)], vec![], 0), msg);
        assert_invalid(&desc(V1_0, vec![], vec![sampler(0, space, 0)], 0), msg);
    }
    assert_eq!(desc(V1_0, vec![constants(0, 0, 0xffff_ffef, 1)], vec![], 0).validate(), Ok(()));
}

#[test]
fn flags_are_checked_per_version() {
    use range_flags::*;
    use Version::*;
    let t = |v, ty, flags| desc(v, vec![table(0, vec![range(ty, 1, 0, 0, flags, 0)])], vec![], 0);
    // 1.0 has no flags at all.
    assert_invalid(&t(V1_0, SRV, DATA_STATIC), "need root signature 1.1");
    assert_invalid(&desc(V1_0, vec![root(CBV, 0, 0, 0, 2)], vec![], 0), "need root signature 1.1");
    // Range flags in 1.1.
    for ok in [0, DESCRIPTORS_VOLATILE, DATA_VOLATILE, DATA_STATIC, DATA_STATIC_WHILE_SET_AT_EXECUTE] {
        assert_eq!(t(V1_1, SRV, ok).validate(), Ok(()), "{ok:#x}");
    }
    for ok in [DESCRIPTORS_VOLATILE | DATA_VOLATILE, DESCRIPTORS_VOLATILE | DATA_STATIC_WHILE_SET_AT_EXECUTE] {
        assert_eq!(t(V1_1, UAV, ok).validate(), Ok(()), "{ok:#x}");
    }
    assert_eq!(t(V1_1, CBV, DESCRIPTORS_STATIC_KEEPING_BUFFER_BOUNDS_CHECKS | DATA_STATIC).validate(), Ok(()));
    assert_invalid(&t(V1_1, SRV, 0x20), "unknown descriptor range flag bits 0x20");
    assert_invalid(&t(V1_1, SRV, DATA_VOLATILE | DATA_STATIC), "at most one DATA_* flag");
    assert_invalid(&t(V1_2, CBV, DATA_STATIC_WHILE_SET_AT_EXECUTE | DATA_STATIC), "at most one DATA_* flag");
    assert_invalid(&t(V1_1, UAV, DESCRIPTORS_VOLATILE | DATA_STATIC), "cannot be combined with DATA_STATIC");
    assert_eq!(t(V1_1, SAMPLER, DESCRIPTORS_VOLATILE).validate(), Ok(()));
    for data in [DATA_VOLATILE, DATA_STATIC, DATA_STATIC_WHILE_SET_AT_EXECUTE] {
        assert_invalid(&t(V1_1, SAMPLER, data), "sampler ranges take no DATA_* flags");
    }
    // Root descriptor flags in 1.1: DATA_* only, at most one.
    let r = |flags| desc(V1_1, vec![root(SRV, 0, 0, 0, flags)], vec![], 0);
    for ok in [0, 2, 4, 8] {
        assert_eq!(r(ok).validate(), Ok(()), "{ok:#x}");
    }
    assert_invalid(&r(1), "unknown root descriptor flag bits 0x1");
    assert_invalid(&r(2 | 8), "at most one DATA_* flag");
    // Static sampler flags only in 1.2.
    let s = |v, flags| desc(v, vec![], vec![StaticSampler { flags, ..sampler(0, 0, 0) }], 0);
    assert_invalid(&s(V1_1, 1), "need root signature 1.2");
    assert_eq!(s(V1_2, 1).validate(), Ok(()));
    assert_eq!(s(V1_2, 3).validate(), Ok(()));
    assert_invalid(&s(V1_2, 4), "unknown Flags bits 0x4");
}

#[test]
fn static_sampler_fields_are_checked() {
    let s = |f: &dyn Fn(&mut StaticSampler)| {
        let mut s = sampler(0, 0, 0);
        f(&mut s);
        desc(Version::V1_0, vec![], vec![s], 0)
    };
    assert_invalid(&s(&|s| s.filter = 0x2), "unknown Filter 0x2");
    assert_invalid(&s(&|s| s.filter = 0x56), "unknown Filter 0x56");
    assert_invalid(&s(&|s| s.filter = 0x200), "unknown Filter 0x200");
    for ok in [0x0, 0x15, 0x55, 0x94, 0xd5, 0x100, 0x1d5] {
        let cmp = |s: &mut StaticSampler| {
            s.filter = ok;
            s.max_anisotropy = 4;
        };
        assert_eq!(s(&cmp).validate(), Ok(()), "{ok:#x}");
    }
    assert_invalid(&s(&|s| s.address_u = 0), "unknown AddressU 0");
    assert_invalid(&s(&|s| s.address_v = 6), "unknown AddressV 6");
    assert_invalid(&s(&|s| s.address_w = 99), "unknown AddressW 99");
    assert_invalid(&s(&|s| s.mip_lod_bias = 16.0), "MipLODBias 16");
    assert_invalid(&s(&|s| s.mip_lod_bias = -16.5), "MipLODBias -16.5");
    assert_invalid(&s(&|s| s.mip_lod_bias = f32::NAN), "MipLODBias NaN");
    assert_eq!(s(&|s| s.mip_lod_bias = -16.0).validate(), Ok(()));
    assert_eq!(s(&|s| s.mip_lod_bias = 15.99).validate(), Ok(()));
    assert_invalid(&s(&|s| s.max_anisotropy = 17), "MaxAnisotropy 17");
    assert_eq!(s(&|s| s.max_anisotropy = 0).validate(), Ok(()));
    // Comparison filters need a comparison function; others ignore it.
    assert_invalid(
        &s(&|s| {
            s.filter = sys::D3D12_FILTER_COMPARISON_MIN_MAG_MIP_LINEAR.0;
            s.comparison_func = 0;
        }),
        "needs a ComparisonFunc",
    );
    assert_invalid(
        &s(&|s| {
            s.filter = sys::D3D12_FILTER_COMPARISON_ANISOTROPIC.0;
            s.comparison_func = 9;
        }),
        "needs a ComparisonFunc",
    );
    assert_eq!(s(&|s| s.comparison_func = 0).validate(), Ok(()));
    assert_invalid(&s(&|s| s.min_lod = f32::NAN), "must not be NaN");
    assert_invalid(&s(&|s| s.max_lod = f32::NAN), "must not be NaN");
    assert_eq!(
        s(&|s| {
            s.min_lod = f32::NEG_INFINITY;
            s.max_lod = f32::INFINITY;
        })
        .validate(),
        Ok(())
    );
}

#[test]
fn overlapping_registers_are_rejected_per_visibility() {
    use Version::*;
    const VS: u32 = 1;
    const PS: u32 = 5;
    let d = |params| desc(V1_0, params, vec![], 0);
    // Root constants b0 for ALL and for VERTEX overlap; PIXEL and VERTEX do not.
    assert_invalid(&d(vec![constants(0, 0, 0, 4), constants(VS, 0, 0, 8)]), "CBV register range");
    assert_eq!(d(vec![constants(PS, 0, 0, 4), constants(VS, 0, 0, 8), constants(0, 1, 0, 3)]).validate(), Ok(()));
    // Root UAV u0 for ALL and PIXEL overlap; GEOMETRY and PIXEL do not.
    assert_invalid(&d(vec![root(UAV, 0, 0, 0, 0), root(UAV, PS, 0, 0, 0)]), "UAV register range");
    assert_eq!(d(vec![root(UAV, 4, 0, 0, 0), root(UAV, PS, 0, 0, 0)]).validate(), Ok(()));
    // Different register types and different spaces never overlap.
    assert_eq!(d(vec![root(UAV, 0, 0, 0, 0), root(SRV, 0, 0, 0, 0), root(CBV, 0, 0, 0, 0)]).validate(), Ok(()));
    assert_eq!(d(vec![root(UAV, 0, 0, 0, 0), root(UAV, 0, 0, 1, 0)]).validate(), Ok(()));
    // A root CBV and root constants share b registers.
    assert_invalid(&d(vec![root(CBV, 0, 3, 0, 0), constants(0, 3, 0, 1)]), "CBV register range");
    // Ranges in one table and across tables.
    assert_invalid(
        &d(vec![table(0, vec![range(SRV, 4, 0, 0, 0, 0), range(SRV, 1, 3, 0, 0, APPEND)])]),
        "SRV register range",
    );
    assert_invalid(
        &d(vec![table(0, vec![range(SRV, 4, 10, 0, 0, 0)]), table(PS, vec![range(SRV, 10, 1, 0, 0, 0)])]),
        "overlaps another SRV",
    );
    assert_eq!(
        d(vec![table(0, vec![range(SRV, 4, 10, 0, 0, 0)]), table(PS, vec![range(SRV, 10, 0, 0, 0, 0)])]).validate(),
        Ok(())
    );
    // An unbounded range covers every higher register of its space.
    assert_invalid(
        &d(vec![table(0, vec![range(SRV, UNBOUNDED, 5, 0, 0, 0)]), root(SRV, PS, 1000, 0, 0)]),
        "SRV register range",
    );
    assert_eq!(d(vec![table(0, vec![range(SRV, UNBOUNDED, 5, 0, 0, 0)]), root(SRV, PS, 4, 0, 0)]).validate(), Ok(()));
    // A root SRV overlapping a table range of the same stage.
    assert_invalid(&d(vec![table(PS, vec![range(SRV, 2, 0, 0, 0, 0)]), root(SRV, PS, 1, 0, 0)]), "SRV register range");
    // Static samplers against each other and against sampler ranges.
    let s = |params, samplers| desc(V1_0, params, samplers, 0);
    assert_invalid(&s(vec![], vec![sampler(0, 0, 0), sampler(0, 0, PS)]), "SAMPLER register range");
    assert_eq!(s(vec![], vec![sampler(0, 0, VS), sampler(0, 0, PS)]).validate(), Ok(()));
    assert_invalid(
        &s(vec![table(PS, vec![range(SAMPLER, 4, 0, 0, 0, 0)])], vec![sampler(2, 0, 0)]),
        "static sampler [0]",
    );
    assert_eq!(s(vec![table(PS, vec![range(SAMPLER, 4, 0, 0, 0, 0)])], vec![sampler(4, 0, 0)]).validate(), Ok(()));
}

#[test]
fn overlap_detection_scales_to_many_ranges() {
    // 100 000 disjoint ranges validate quickly (sorted sweep, not pairwise).
    let ranges = (0..100_000u32).map(|i| range(SRV, 2, 2 * i, 0, 0, APPEND)).collect();
    let d = desc(Version::V1_0, vec![table(0, ranges)], vec![], 0);
    assert_eq!(d.validate(), Ok(()));
}

// ---- version conversion ----------------------------------------------------------------------

#[test]
fn converting_1_0_up_spells_out_volatile_semantics() {
    use range_flags::*;
    let d = desc(
        Version::V1_0,
        vec![
            table(0, vec![range(SRV, 1, 0, 0, 0, 0), range(UAV, 1, 0, 0, 0, 1), range(CBV, 1, 0, 0, 0, 2)]),
            table(0, vec![range(SAMPLER, 1, 0, 0, 0, 0)]),
            root(CBV, 0, 1, 0, 0),
            root(SRV, 0, 1, 0, 0),
            root(UAV, 0, 1, 0, 0),
            constants(0, 2, 0, 1),
        ],
        vec![sampler(5, 0, 0)],
        1,
    );
    for to in [Version::V1_1, Version::V1_2] {
        let c = d.convert(to).unwrap();
        assert_eq!(c.version, to);
        let ParameterKind::Table(views) = &c.parameters[0].kind else { panic!() };
        assert!(views.iter().all(|r| r.flags == DESCRIPTORS_VOLATILE | DATA_VOLATILE));
        let ParameterKind::Table(samplers) = &c.parameters[1].kind else { panic!() };
        assert_eq!(samplers[0].flags, DESCRIPTORS_VOLATILE);
        for p in &c.parameters[2..5] {
            assert_eq!(p.kind.root_descriptor().unwrap().1.flags, descriptor_flags::DATA_VOLATILE);
        }
        assert_eq!(c.static_samplers[0].flags, 0);
        assert_eq!(c.validate(), Ok(()), "the converted desc is valid");
        assert_eq!(c.convert(Version::V1_0).unwrap(), d);
    }
}

#[test]
fn converting_down_to_1_0_drops_range_and_descriptor_flags() {
    // Microsoft documents that 1.1 → 1.0 drops every range and root descriptor flag; Windows
    // converts the fxc 1.1 blobs with DATA_STATIC flags to their 1.0 descs.
    let (_, _, d11) = microsoft_cases().into_iter().find(|c| c.0 == "table flags 1.1").unwrap();
    let (_, _, d10) = microsoft_cases().into_iter().find(|c| c.0 == "table 1.0").unwrap();
    assert_eq!(d11.convert(Version::V1_0).unwrap(), d10);
    let (_, _, rd) = microsoft_cases().into_iter().find(|c| c.0 == "root descriptors 1.1").unwrap();
    let rd10 = rd.convert(Version::V1_0).unwrap();
    assert!(rd10.parameters.iter().all(|p| p.kind.root_descriptor().unwrap().1.flags == 0));
    assert_eq!(rd10.validate(), Ok(()));
}

#[test]
fn converting_1_2_down_keeps_only_expressible_sampler_flags() {
    let (d, _) = hand_1_2();
    for to in [Version::V1_0, Version::V1_1] {
        let c = d.convert(to).unwrap();
        assert_eq!(c.static_samplers[0].flags, 0, "UINT_BORDER_COLOR is dropped");
        assert_eq!(c.static_samplers[0].border_color, sys::D3D12_STATIC_BORDER_COLOR_OPAQUE_WHITE_UINT.0);
    }
    let mut nn = d.clone();
    nn.static_samplers[0].flags = sampler_flags::NON_NORMALIZED_COORDINATES;
    for to in [Version::V1_0, Version::V1_1] {
        let e = nn.convert(to).unwrap_err();
        assert_eq!(e.hr, Hr::InvalidArg);
        assert!(e.message.contains("cannot express"), "{}", e.message);
    }
    // 1.1 → 1.2 keeps the range flags and adds no sampler flags.
    let (_, _, d11) = microsoft_cases().into_iter().find(|c| c.0 == "table flags 1.1").unwrap();
    let d12 = d11.convert(Version::V1_2).unwrap();
    assert_eq!(d12.parameters, d11.parameters);
    assert_eq!(d12.convert(Version::V1_1).unwrap(), d11);
}

#[test]
fn effective_flags_follow_the_documented_defaults() {
    use range_flags::*;
    let r = |ty, flags| range(ty, 1, 0, 0, flags, 0);
    assert_eq!(r(SRV, 0).effective_flags(Version::V1_1), DATA_STATIC_WHILE_SET_AT_EXECUTE);
    assert_eq!(r(CBV, 0).effective_flags(Version::V1_2), DATA_STATIC_WHILE_SET_AT_EXECUTE);
    assert_eq!(r(UAV, 0).effective_flags(Version::V1_1), DATA_VOLATILE);
    assert_eq!(r(UAV, DESCRIPTORS_VOLATILE).effective_flags(Version::V1_1), DESCRIPTORS_VOLATILE | DATA_VOLATILE);
    assert_eq!(r(SRV, DATA_STATIC).effective_flags(Version::V1_1), DATA_STATIC);
    assert_eq!(r(SAMPLER, 0).effective_flags(Version::V1_1), 0);
    assert_eq!(r(SRV, 0).effective_flags(Version::V1_0), DESCRIPTORS_VOLATILE | DATA_VOLATILE);
    assert_eq!(r(SAMPLER, 0).effective_flags(Version::V1_0), DESCRIPTORS_VOLATILE);
}

// ---- malformed blobs -------------------------------------------------------------------------

#[test]
fn every_truncation_of_a_blob_is_rejected() {
    for (name, blob, _) in microsoft_cases() {
        let bytes = words(blob);
        for n in 0..bytes.len() {
            assert!(RootSignatureDesc::deserialize(&bytes[..n]).is_err(), "{name}: {n} bytes");
        }
        // And of the bare RTS0 payload (the header alone is complete only for empty descs).
        let payload = &bytes[44..];
        for n in 0..24 {
            assert!(RootSignatureDesc::decode_rts0(&payload[..n]).is_err(), "{name}: {n} bytes");
        }
    }
}

#[test]
fn malformed_rts0_fields_are_rejected() {
    let check = |f: &dyn Fn(&mut Vec<u32>), needle: &str| {
        let mut w = as_words(&words(microsoft::TABLE_1_0)[44..]);
        f(&mut w);
        let e = RootSignatureDesc::decode_rts0(&words(&w)).unwrap_err();
        assert_eq!(e.id.0, sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_DESERIALIZE_FAILED.0);
        assert!(e.message.contains(needle), "{:?} lacks {needle:?}", e.message);
    };
    check(&|w| w[0] = 4, "unknown version 0x4");
    check(&|w| w[0] = 0, "unknown version 0x0");
    check(&|w| w[1] = 0x4000_0000, "root parameters");
    check(&|w| w[2] = 0x1000, "root parameters");
    check(&|w| w[3] = 1, "static samplers");
    check(&|w| w[4] = u32::MAX, "static samplers");
    check(&|w| w[6] = 5, "unknown type 0x5");
    check(&|w| w[8] = 0x100, "outside the part");
    check(&|w| w[9] = 0x1000_0000, "descriptor ranges");
    check(&|w| w[10] = 0x64, "descriptor ranges");
}

#[test]
fn containers_are_checked() {
    let good = words(microsoft::CBV_1_0);
    let mut bad = good.clone();
    bad[50] ^= 1;
    let e = RootSignatureDesc::deserialize(&bad).unwrap_err();
    assert!(e.message.contains("checksum"), "{}", e.message);
    let mut bad = good.clone();
    bad[0] = b'X';
    assert!(RootSignatureDesc::deserialize(&bad).is_err());
    // No RTS0 part: BLOB_NOT_FOUND.
    let other = dxbc::build(&[(*b"SHEX", &[0u8; 16][..])]);
    let e = RootSignatureDesc::deserialize(&other).unwrap_err();
    assert_eq!(e.id.0, sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_BLOB_NOT_FOUND.0);
    assert_eq!(e.hresult(), sys::E_FAIL, "a container without RTS0 is E_FAIL, as on Windows");
    // A bare RTS0 payload without a container is not a blob.
    assert!(RootSignatureDesc::deserialize(&good[44..]).is_err());
    // RTS0 next to shader parts, anywhere in the container.
    let rts0 = &good[44..];
    for parts in [
        vec![(*b"ISG1", &[1u8; 12][..]), (*b"SHEX", &[2u8; 40][..]), (*b"RTS0", rts0)],
        vec![(*b"RTS0", rts0), (*b"DXIL", &[3u8; 7][..])],
    ] {
        let blob = dxbc::build(&parts);
        let d = RootSignatureDesc::deserialize(&blob).unwrap();
        assert_eq!(d, microsoft_cases()[3].2);
    }
}

// ---- device limits ---------------------------------------------------------------------------

const TIER1: DeviceLimits =
    DeviceLimits { max_version: Version::V1_1, binding_tier: 1, feature_level: 0xc000, raytracing: false };

#[test]
fn device_checks_versions_and_features() {
    let d = |v, flags| desc(v, vec![], vec![], flags);
    assert_eq!(d(Version::V1_1, 0).check_device(&TIER1), Ok(()));
    let e = d(Version::V1_2, 0).check_device(&TIER1).unwrap_err();
    assert_eq!(e.id.0, sys::D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE.0);
    assert!(d(Version::V1_0, flags::LOCAL_ROOT_SIGNATURE).check_device(&TIER1).is_err());
    let rt = DeviceLimits { raytracing: true, ..TIER1 };
    assert_eq!(d(Version::V1_0, flags::LOCAL_ROOT_SIGNATURE).check_device(&rt), Ok(()));
    let direct = d(Version::V1_1, flags::CBV_SRV_UAV_HEAP_DIRECTLY_INDEXED);
    assert!(direct.check_device(&TIER1).is_err());
    assert!(direct.check_device(&DeviceLimits { binding_tier: 2, ..TIER1 }).is_err());
    assert_eq!(direct.check_device(&DeviceLimits { binding_tier: 3, ..TIER1 }), Ok(()));
    let many = desc(Version::V1_0, vec![], (0..2033).map(|i| sampler(i, 0, 0)).collect(), 0);
    assert_eq!(many.validate(), Ok(()));
    assert!(many.check_device(&DeviceLimits { binding_tier: 3, ..TIER1 }).is_err());
}

#[test]
fn device_checks_binding_tier_limits() {
    let t = |vis, ranges| desc(Version::V1_0, vec![table(vis, ranges)], vec![], 0);
    let tier = |n| DeviceLimits { binding_tier: n, ..TIER1 };
    // Unbounded ranges: none on tier 1, SRV and sampler on tier 2, all on tier 3.
    for (ty, tier2) in [(SRV, true), (UAV, false), (CBV, false), (SAMPLER, true)] {
        let d = t(0, vec![range(ty, UNBOUNDED, 0, 0, 0, 0)]);
        assert!(d.check_device(&tier(1)).is_err(), "{ty}");
        assert_eq!(d.check_device(&tier(2)).is_ok(), tier2, "{ty}");
        assert_eq!(d.check_device(&tier(3)), Ok(()), "{ty}");
    }
    // Per-stage counts on tier 1: 14 CBVs, 128 SRVs, 16 samplers, 64 UAVs (8 below FL 11.1).
    for (ty, limit) in [(CBV, 14), (SRV, 128), (SAMPLER, 16), (UAV, 64)] {
        assert_eq!(t(0, vec![range(ty, limit, 0, 0, 0, 0)]).check_device(&tier(1)), Ok(()), "{ty}");
        assert!(t(0, vec![range(ty, limit + 1, 0, 0, 0, 0)]).check_device(&tier(1)).is_err(), "{ty}");
    }
    let fl11_0 = DeviceLimits { feature_level: 0xb000, ..TIER1 };
    assert_eq!(t(0, vec![range(UAV, 8, 0, 0, 0, 0)]).check_device(&fl11_0), Ok(()));
    assert!(t(0, vec![range(UAV, 9, 0, 0, 0, 0)]).check_device(&fl11_0).is_err());
    // Counts are per stage: 100 SRVs for PIXEL and 100 for VERTEX fit tier 1; 100 for ALL and
    // 100 for PIXEL do not.
    let two = |a, b| {
        desc(
            Version::V1_0,
            vec![table(a, vec![range(SRV, 100, 0, 0, 0, 0)]), table(b, vec![range(SRV, 100, 100, 0, 0, 0)])],
            vec![],
            0,
        )
    };
    assert_eq!(two(5, 1).check_device(&tier(1)), Ok(()));
    assert!(two(0, 5).check_device(&tier(1)).is_err());
    // UAVs count across all stages on tiers 1 and 2.
    let uavs = desc(
        Version::V1_0,
        vec![table(5, vec![range(UAV, 40, 0, 0, 0, 0)]), table(1, vec![range(UAV, 40, 40, 0, 0, 0)])],
        vec![],
        0,
    );
    assert!(uavs.check_device(&tier(2)).is_err());
    assert_eq!(uavs.check_device(&tier(3)), Ok(()));
    // Tier 2: SRVs unlimited, 14 CBVs, 64 UAVs.
    assert_eq!(t(0, vec![range(SRV, 1_000_000, 0, 0, 0, 0)]).check_device(&tier(2)), Ok(()));
    assert!(t(0, vec![range(CBV, 15, 0, 0, 0, 0)]).check_device(&tier(2)).is_err());
    assert_eq!(t(0, vec![range(CBV, 15, 0, 0, 0, 0)]).check_device(&tier(3)), Ok(()));
}

// ---- helpers for command lists ---------------------------------------------------------------

#[test]
fn table_offsets_resolve_append() {
    let ranges = vec![
        range(CBV, 2, 0, 0, 0, APPEND),
        range(SRV, 3, 0, 0, 0, APPEND),
        range(UAV, 1, 0, 0, 0, 10),
        range(SRV, 4, 3, 0, 0, APPEND),
        range(SRV, UNBOUNDED, 100, 0, 0, 20),
    ];
    assert_eq!(RootSignatureDesc::table_offsets(&ranges), vec![0, 2, 10, 11, 20]);
}

#[test]
fn argument_offsets_are_running_costs() {
    let d = desc(
        Version::V1_0,
        vec![table(0, vec![]), root(CBV, 0, 0, 0, 0), constants(0, 1, 0, 5), table(0, vec![]), root(UAV, 0, 0, 0, 0)],
        vec![],
        0,
    );
    assert_eq!(d.argument_offsets(), vec![0, 1, 3, 8, 9]);
    assert_eq!(d.cost(), 11);
}

#[test]
fn root_set_checks_index_type_and_constant_range() {
    let d = desc(
        Version::V1_1,
        vec![
            table(0, vec![range(SRV, 4, 0, 0, 0, 0)]),
            table(0, vec![range(SAMPLER, 2, 0, 0, 0, 0)]),
            constants(0, 0, 0, 4),
            root(CBV, 0, 1, 0, 0),
            root(SRV, 0, 0, 0, 0),
            root(UAV, 0, 0, 0, 0),
        ],
        vec![],
        0,
    );
    let s = d.slots();
    assert_eq!(
        s,
        [
            RootSlot::Table { sampler: false },
            RootSlot::Table { sampler: true },
            RootSlot::Constants(4),
            RootSlot::Cbv,
            RootSlot::Srv,
            RootSlot::Uav
        ]
    );
    let ok = |i, set| check_root_set(Some(&s), i, set).is_ok();
    assert!(ok(0, RootSet::Table) && ok(1, RootSet::Table));
    assert!(ok(3, RootSet::Cbv) && ok(4, RootSet::Srv) && ok(5, RootSet::Uav));
    assert!(!ok(3, RootSet::Srv) && !ok(0, RootSet::Cbv) && !ok(2, RootSet::Table));
    assert!(ok(2, RootSet::Constants { offset: 0, count: 4 }));
    assert!(ok(2, RootSet::Constants { offset: 3, count: 1 }));
    assert!(!ok(2, RootSet::Constants { offset: 3, count: 2 }));
    assert!(!ok(2, RootSet::Constants { offset: u32::MAX, count: 2 }));
    assert!(!ok(6, RootSet::Table));
    assert!(check_root_set(None, 0, RootSet::Table).is_err());
}
