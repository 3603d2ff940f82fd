use super::cache::{self, Identity};
use super::stream::{from_stream, StreamWriter};
use super::*;
use crate::shader::{element, empty_rts0, system_element, Bytecode, SemanticKind, ShaderBuilder, ShaderModel, Stage};
use std::cell::RefCell;
use sys::*;

// ---- a fake caller memory -----------------------------------------------------------------------

/// Addresses are `(index + 1) << 20`; root signatures live at `0xR5 << 40 | index`.
#[derive(Default)]
struct Mem {
    blocks: RefCell<Vec<Vec<u8>>>,
    roots: Vec<RootSignatureInfo>,
}

const RS_TAG: u64 = 0x5 << 40;

impl Mem {
    fn put(&self, b: &[u8]) -> u64 {
        let mut v = self.blocks.borrow_mut();
        v.push(b.to_vec());
        (v.len() as u64) << 20
    }
    fn cstr(&self, s: &str) -> u64 {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        self.put(&b)
    }
}

impl Resolver for Mem {
    fn bytes(&self, addr: u64, len: usize) -> Option<Vec<u8>> {
        if addr == 0 {
            return None;
        }
        let v = self.blocks.borrow();
        let b = &v[(addr >> 20) as usize - 1];
        let off = (addr & 0xFFFFF) as usize;
        Some(b[off..off + len].to_vec())
    }
    fn cstr(&self, addr: u64) -> Option<Vec<u8>> {
        if addr == 0 {
            return None;
        }
        let v = self.blocks.borrow();
        let b = &v[(addr >> 20) as usize - 1];
        Some(b.iter().take_while(|c| **c != 0).copied().collect())
    }
    fn root_signature(&self, addr: u64) -> Result<Option<RootSignatureInfo>, NotARootSignature> {
        match addr {
            0 => Ok(None),
            a if a & RS_TAG == RS_TAG => {
                self.roots.get((a & 0xFF) as usize).cloned().map(Some).ok_or(NotARootSignature)
            }
            _ => Err(NotARootSignature),
        }
    }
}

/// A resolver for which every address is unknown.
struct Null;

impl Resolver for Null {
    fn bytes(&self, _: u64, _: usize) -> Option<Vec<u8>> {
        None
    }
    fn cstr(&self, _: u64) -> Option<Vec<u8>> {
        None
    }
    fn root_signature(&self, _: u64) -> Result<Option<RootSignatureInfo>, NotARootSignature> {
        Err(NotARootSignature)
    }
}

fn rs(flags: u32) -> RootSignatureInfo {
    RootSignatureInfo::from_blob(&crate::dxbc::build(&[(*b"RTS0", &empty_rts0(1, flags))]), &limits().root_signature)
        .unwrap()
}

const IA: u32 = 1; // ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT
const SO: u32 = 0x40; // ALLOW_STREAM_OUTPUT

fn vs() -> ShaderBuilder {
    ShaderBuilder::dxbc(Stage::Vertex)
        .inputs(vec![element("POSITION", 0, 0), element("TEXCOORD", 0, 1)])
        .outputs(vec![system_element("SV_Position", 0, 0, SemanticKind::Position), element("TEXCOORD", 0, 1)])
}

fn ps() -> ShaderBuilder {
    ShaderBuilder::dxbc(Stage::Pixel)
        .inputs(vec![system_element("SV_Position", 0, 0, SemanticKind::Position), element("TEXCOORD", 0, 1)])
        .outputs(vec![system_element("SV_Target", 0, 0, SemanticKind::Target)])
}

fn ie(name: &str, index: u32, format: DXGI_FORMAT, offset: u32) -> InputElement {
    InputElement {
        semantic_name: Some(name.into()),
        semantic_index: index,
        format: format.0,
        input_slot: 0,
        aligned_byte_offset: offset,
        slot_class: 0,
        instance_step_rate: 0,
    }
}

/// A valid graphics pipeline: VS + PS, two vertex attributes, one RGBA8 target.
fn base() -> PipelineDesc {
    let mut d = PipelineDesc::new(PipelineKind::Graphics);
    d.root_signature = Some(rs(IA | SO));
    d.set_shader(Slot::Vs, Some(vs().build()));
    d.set_shader(Slot::Ps, Some(ps().build()));
    d.input_layout = vec![
        ie("POSITION", 0, DXGI_FORMAT_R32G32B32_FLOAT, 0),
        ie("TEXCOORD", 0, DXGI_FORMAT_R32G32_FLOAT, D3D12_APPEND_ALIGNED_ELEMENT),
    ];
    d.topology_type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE.0;
    d.num_render_targets = 1;
    d.rtv_formats[0] = DXGI_FORMAT_R8G8B8A8_UNORM.0;
    d
}

fn compute() -> PipelineDesc {
    let mut d = PipelineDesc::new(PipelineKind::Compute);
    d.root_signature = Some(rs(0));
    d.set_shader(Slot::Cs, Some(ShaderBuilder::dxbc(Stage::Compute).build()));
    d
}

fn limits() -> Limits {
    Limits::new(Caps::today(), ShaderModel::new(5, 1))
}

#[track_caller]
fn rejects(d: &PipelineDesc, id: D3D12_MESSAGE_ID) {
    rejects_with(d, &limits(), id)
}

#[track_caller]
fn rejects_with(d: &PipelineDesc, l: &Limits, id: D3D12_MESSAGE_ID) {
    match validate(d, l) {
        Ok(_) => panic!("accepted; expected message #{}", id.0),
        Err(e) => {
            assert_eq!(e.hr, E_INVALIDARG, "{e}");
            assert_eq!(e.id.0, id.0, "{e}");
        }
    }
}

#[track_caller]
fn accepts(d: &PipelineDesc) -> Pipeline {
    validate(d, &limits()).unwrap_or_else(|e| panic!("rejected: {e}"))
}

fn with(f: impl FnOnce(&mut PipelineDesc)) -> PipelineDesc {
    let mut d = base();
    f(&mut d);
    d
}

// ---- the baseline -------------------------------------------------------------------------------

#[test]
fn baseline_graphics_and_compute_pipelines_are_valid() {
    let p = accepts(&base());
    assert_eq!(p.shader(Slot::Vs).unwrap().stage, Stage::Vertex);
    assert_eq!(p.root_signature.flags, IA | SO);
    assert_eq!(p.desc.node_mask, 1, "NodeMask 0 means node 1");
    let c = accepts(&compute());
    assert_eq!(c.shaders.len(), 1);
}

#[test]
fn flags_and_node_mask() {
    rejects(&with(|d| d.flags = 2), D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_FLAGS);
    accepts(&with(|d| d.flags = D3D12_PIPELINE_STATE_FLAG_TOOL_DEBUG.0));
    rejects(&with(|d| d.node_mask = 2), D3D12_MESSAGE_ID_INVALID_NODE_INDEX);
    accepts(&with(|d| d.node_mask = 1));
    let mut c = compute();
    c.node_mask = 3;
    rejects(&c, D3D12_MESSAGE_ID_INVALID_NODE_INDEX);
}

// ---- shaders ------------------------------------------------------------------------------------

#[test]
fn shader_bytecode_must_parse_and_be_signed() {
    rejects(
        &with(|d| d.set_shader(Slot::Vs, Some(vec![1, 2, 3]))),
        D3D12_MESSAGE_ID_CREATEVERTEXSHADER_INVALIDSHADERBYTECODE,
    );
    let mut tampered = ps().build();
    let n = tampered.len();
    tampered[n - 1] ^= 0x40;
    rejects(
        &with(|d| d.set_shader(Slot::Ps, Some(tampered))),
        D3D12_MESSAGE_ID_CREATEPIXELSHADER_INVALIDSHADERBYTECODE,
    );
    let mut c = compute();
    c.set_shader(Slot::Cs, Some(b"DXBC but not really a container".to_vec()));
    rejects(&c, D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE);
}

#[test]
fn shaders_must_match_their_slots() {
    rejects(
        &with(|d| d.set_shader(Slot::Vs, Some(ps().build()))),
        D3D12_MESSAGE_ID_CREATEVERTEXSHADER_INVALIDSHADERTYPE,
    );
    rejects(
        &with(|d| d.set_shader(Slot::Ps, Some(vs().build()))),
        D3D12_MESSAGE_ID_CREATEPIXELSHADER_INVALIDSHADERTYPE,
    );
    let gs_in_hs = |d: &mut PipelineDesc| {
        d.set_shader(Slot::Hs, Some(ShaderBuilder::dxbc(Stage::Geometry).build()));
        d.set_shader(Slot::Ds, Some(ShaderBuilder::dxbc(Stage::Domain).build()));
    };
    rejects(&with(gs_in_hs), D3D12_MESSAGE_ID_CREATEHULLSHADER_INVALIDSHADERTYPE);
    rejects(
        &with(|d| d.set_shader(Slot::Gs, Some(ShaderBuilder::dxbc(Stage::Domain).build()))),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADER_INVALIDSHADERTYPE,
    );
    let mut c = compute();
    c.set_shader(Slot::Cs, Some(vs().build()));
    rejects(&c, D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_INVALID_SHADER);
}

/// A shader using native 16-bit types (SFI0's D3D_SHADER_REQUIRES_NATIVE_16BIT_OPS: DXC's
/// wave_16bit, `-enable-16bit-types`, flags 0x44000 with WaveOps) needs
/// OPTIONS4.Native16BitShaderOpsSupported.
#[test]
fn native_16bit_shaders_need_the_device_feature() {
    let bytes = include_bytes!("../../../../tests/fixtures/dxil/wave/wave_16bit.cs.dxil").to_vec();
    assert_eq!(crate::shader::parse(&bytes).unwrap().requires, 0x44000);
    let mut c = compute();
    c.set_shader(Slot::Cs, Some(bytes));
    let sm62 = Limits::new(Caps::today(), ShaderModel::new(6, 2));
    rejects_with(&c, &sm62, D3D12_MESSAGE_ID_CREATESHADER_INVALIDBYTECODE);
    // With the feature the shader passes this rule and meets the next one: its u0 is not in
    // the test's empty root signature.
    let bound = |c: &PipelineDesc, l: &Limits| validate(c, l).map(|_| ()).map_err(|e| e.id.0);
    let unbound = Err(D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_CS_ROOT_SIGNATURE_MISMATCH.0);
    assert_eq!(bound(&c, &Limits { native_16bit_ops: true, ..sm62 }), unbound);
    // Without the flag (wave_active_sum_product: WaveOps only) the feature is not needed.
    let plain = include_bytes!("../../../../tests/fixtures/dxil/wave_active_sum_product.cs.dxil").to_vec();
    assert_eq!(crate::shader::parse(&plain).unwrap().requires & crate::shader::REQUIRES_NATIVE_16BIT_OPS, 0);
    c.set_shader(Slot::Cs, Some(plain));
    assert_eq!(bound(&c, &sm62), unbound);
}

#[test]
fn dxil_needs_the_shader_model_and_a_signature() {
    let dxil_cs = || {
        let mut c = compute();
        c.set_shader(Slot::Cs, Some(ShaderBuilder::dxil(Stage::Compute).build()));
        c
    };
    rejects(&dxil_cs(), D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE);
    let sm6 = Limits::new(Caps::today(), ShaderModel::new(6, 0));
    validate(&dxil_cs(), &sm6).unwrap();
    let mut unsigned = ShaderBuilder::dxil(Stage::Compute).build();
    unsigned[4..20].fill(0);
    let mut c = compute();
    c.set_shader(Slot::Cs, Some(unsigned));
    rejects_with(&c, &sm6, D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE);
    validate(&c, &Limits { allow_unsigned_dxil: true, ..sm6 }).unwrap();
    // One pipeline cannot mix FXC and DXC bytecode.
    let dxil_ps = ShaderBuilder { bytecode: Bytecode::Dxil, model: ShaderModel::new(6, 0), psv: true, ..ps() }.build();
    rejects_with(
        &with(|d| d.set_shader(Slot::Ps, Some(dxil_ps))),
        &sm6,
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_SHADER_MODEL_MISMATCH,
    );
}

#[test]
fn stage_combinations() {
    rejects(
        &with(|d| d.set_shader(Slot::Vs, None)),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_VERTEX_SHADER_NOT_SET,
    );
    let hs = ShaderBuilder::dxbc(Stage::Hull).inputs(vs().outputs).build();
    let ds = ShaderBuilder::dxbc(Stage::Domain).outputs(vs().outputs).build();
    let patch = |d: &mut PipelineDesc| d.topology_type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH.0;
    rejects(
        &with(|d| {
            d.set_shader(Slot::Hs, Some(hs.clone()));
            patch(d)
        }),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH,
    );
    rejects(
        &with(|d| d.set_shader(Slot::Ds, Some(ds.clone()))),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_XOR_DS_MISMATCH,
    );
    accepts(&with(|d| {
        d.set_shader(Slot::Hs, Some(hs.clone()));
        d.set_shader(Slot::Ds, Some(ds.clone()));
        patch(d)
    }));
    // GS and PS are optional.
    accepts(&with(|d| d.set_shader(Slot::Ps, None)));
    let gs = ShaderBuilder::dxbc(Stage::Geometry).inputs(vs().outputs).outputs(vs().outputs).build();
    accepts(&with(|d| d.set_shader(Slot::Gs, Some(gs))));
    let mut mesh = PipelineDesc::new(PipelineKind::Mesh);
    mesh.root_signature = Some(rs(0));
    mesh.set_shader(Slot::Ms, Some(ShaderBuilder::dxil(Stage::Mesh).build()));
    rejects_with(
        &mesh,
        &Limits::new(Caps::today(), ShaderModel::new(6, 5)),
        D3D12_MESSAGE_ID_CREATEMESHSHADER_INVALIDSHADERBYTECODE,
    );
}

// ---- root signatures ----------------------------------------------------------------------------

#[test]
fn a_root_signature_is_required_unless_embedded() {
    rejects(&with(|d| d.root_signature = None), D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE);
    let mut c = compute();
    c.root_signature = None;
    rejects(&c, D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_MISSING_ROOT_SIGNATURE);
    c.set_shader(Slot::Cs, Some(ShaderBuilder::dxbc(Stage::Compute).root_signature(empty_rts0(2, 0)).build()));
    let p = accepts(&c);
    assert_eq!(p.root_signature.flags, 0);
    assert!(p.desc.root_signature.is_none());
    // Embedded in VS and PS: they must agree.
    let embed = |b: ShaderBuilder, flags| b.root_signature(empty_rts0(1, flags)).build();
    let both = |vs_flags, ps_flags| {
        with(|d| {
            d.root_signature = None;
            d.set_shader(Slot::Vs, Some(embed(vs(), vs_flags)));
            d.set_shader(Slot::Ps, Some(embed(ps(), ps_flags)));
        })
    };
    assert_eq!(accepts(&both(IA, IA)).root_signature.flags, IA);
    rejects(&both(IA, IA | SO), D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_PS_ROOT_SIGNATURE_MISMATCH);
    // An explicit root signature wins over embedded ones.
    let mut d = both(IA, IA | SO);
    d.root_signature = Some(rs(IA));
    accepts(&d);
}

#[test]
fn root_signature_flags_must_allow_ia_and_stream_output() {
    rejects(
        &with(|d| d.root_signature = Some(rs(SO))),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS,
    );
    // Without vertex inputs the flag is not needed.
    accepts(&with(|d| {
        d.root_signature = Some(rs(0));
        d.input_layout.clear();
        d.set_shader(Slot::Vs, Some(vs().inputs(vec![]).build()));
    }));
    let mut d = so_base();
    d.root_signature = Some(rs(IA));
    rejects(&d, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS);
}

#[test]
fn root_signature_info_reads_parameters() {
    use crate::root_signature::{
        ParameterKind as K, RootConstants, RootDescriptor, RootParameter, RootSignatureDesc, Version,
    };
    let d = |space| RootDescriptor { shader_register: 0, register_space: space, flags: 0 };
    let mut desc = RootSignatureDesc::new(Version::V1_0);
    desc.flags = IA;
    desc.parameters = [
        K::Constants(RootConstants { shader_register: 0, register_space: 0, num_32bit_values: 4 }),
        K::Cbv(d(1)),
        K::Srv(d(0)),
        K::Uav(d(0)),
    ]
    .into_iter()
    .map(|kind| RootParameter { kind, visibility: 0 })
    .collect();
    let blob = desc.serialize().unwrap();
    let info = RootSignatureInfo::from_blob(&blob, &limits().root_signature).unwrap();
    assert_eq!(
        info.params,
        vec![RootParam::Constants { num_values: 4 }, RootParam::Cbv, RootParam::Srv, RootParam::Uav]
    );
    assert_eq!((info.flags, info.blob), (IA, blob.clone()));
    let mut bad = blob.clone();
    bad[40] ^= 1;
    assert!(RootSignatureInfo::from_blob(&bad, &limits().root_signature).is_err(), "checksum");
    // A 1.1 root signature embedded in a shader on a device limited to 1.0.
    let mut c = compute();
    c.root_signature = None;
    c.set_shader(Slot::Cs, Some(ShaderBuilder::dxbc(Stage::Compute).root_signature(empty_rts0(2, 0)).build()));
    let mut l = limits();
    l.root_signature.max_version = Version::V1_0;
    rejects_with(&c, &l, D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE);
}

// ---- topology and input layout ------------------------------------------------------------------

#[test]
fn topology_rules() {
    use D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_PRIMITIVETOPOLOGY as TOPO;
    rejects(&with(|d| d.topology_type = 0), TOPO);
    rejects(&with(|d| d.topology_type = 5), TOPO);
    rejects(
        &with(|d| d.topology_type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH.0),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HULL_SHADER_INPUT_TOPOLOGY_MISMATCH,
    );
    let hs = ShaderBuilder::dxbc(Stage::Hull).build();
    let ds = ShaderBuilder::dxbc(Stage::Domain).outputs(vs().outputs).build();
    rejects(
        &with(|d| {
            d.set_shader(Slot::Hs, Some(hs));
            d.set_shader(Slot::Ds, Some(ds));
        }),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HULL_SHADER_INPUT_TOPOLOGY_MISMATCH,
    );
    for t in [D3D12_PRIMITIVE_TOPOLOGY_TYPE_POINT, D3D12_PRIMITIVE_TOPOLOGY_TYPE_LINE] {
        accepts(&with(|d| d.topology_type = t.0));
    }
}

#[test]
fn input_layout_rules() {
    let el = |f: &dyn Fn(&mut InputElement)| {
        with(|d| {
            f(&mut d.input_layout[1]);
        })
    };
    rejects(&el(&|e| e.semantic_name = None), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_NULLSEMANTIC);
    rejects(&el(&|e| e.semantic_name = Some(String::new())), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_NULLSEMANTIC);
    rejects(
        &el(&|e| e.semantic_name = Some("TEXCOORD1".into())),
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC,
    );
    for bad in [DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_UNKNOWN, DXGI_FORMAT(9999)] {
        rejects(&el(&|e| e.format = bad.0), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDFORMAT);
    }
    rejects(&el(&|e| e.input_slot = 32), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDSLOT);
    accepts(&el(&|e| e.input_slot = 31));
    rejects(&el(&|e| e.slot_class = 2), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS);
    rejects(&el(&|e| e.instance_step_rate = 1), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH);
    rejects(&el(&|e| e.slot_class = 1), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE);
    accepts(&el(&|e| {
        e.slot_class = 1;
        e.instance_step_rate = 1;
        e.input_slot = 1;
    }));
    let mut d = with(|d| {
        for e in &mut d.input_layout {
            e.slot_class = 1;
        }
        d.input_layout[0].instance_step_rate = 1;
        d.input_layout[1].instance_step_rate = 2;
    });
    rejects(&d, D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE);
    d.input_layout[1].instance_step_rate = 1;
    accepts(&d);
    rejects(&el(&|e| e.aligned_byte_offset = 14), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDALIGNMENT);
    accepts(&el(&|e| e.aligned_byte_offset = 16));
    accepts(&el(&|e| {
        e.format = DXGI_FORMAT_R16G16_FLOAT.0;
        e.aligned_byte_offset = 14;
    }));
    accepts(&el(&|e| {
        e.format = DXGI_FORMAT_R8G8B8A8_UNORM.0;
        e.aligned_byte_offset = 13;
    }));
    rejects(&el(&|e| e.semantic_name = Some("position".into())), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_DUPLICATESEMANTIC);
    // The vertex shader reads TEXCOORD0; a layout without it misses an element.
    rejects(&el(&|e| e.semantic_index = 5), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_MISSINGELEMENT);
    rejects(&with(|d| d.input_layout.clear()), D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_MISSINGELEMENT);
    // System values need no element; extra elements are fine.
    accepts(&with(|d| {
        let mut v = vs();
        v.inputs.push(system_element("SV_VertexID", 0, 2, SemanticKind::VertexId));
        d.set_shader(Slot::Vs, Some(v.build()));
        d.input_layout.push(ie("COLOR", 0, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_APPEND_ALIGNED_ELEMENT));
    }));
}

#[test]
fn stages_must_link_by_semantic() {
    let mut p = ps();
    p.inputs.push(element("TEXCOORD", 1, 2));
    rejects(
        &with(|d| d.set_shader(Slot::Ps, Some(p.build()))),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND,
    );
    // Case does not matter.
    let mut p = ps();
    p.inputs[1].name = "texcoord".into();
    accepts(&with(|d| d.set_shader(Slot::Ps, Some(p.build()))));
}

// ---- SV_Position and a disabled rasterizer ------------------------------------------------------

#[test]
fn a_rasterizer_that_runs_needs_sv_position() {
    use D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT as NOPOS;
    // A vertex shader that writes TEXCOORD0 only, streamed out to slot 0.
    let unpositioned = || {
        with(|d| {
            d.set_shader(Slot::Vs, Some(vs().outputs(vec![element("TEXCOORD", 0, 0)]).build()));
            d.set_shader(Slot::Ps, None);
            d.stream_output =
                StreamOutput { entries: vec![so_entry(Some("TEXCOORD"), 0)], strides: vec![16], rasterized_stream: 0 };
        })
    };
    // The default depth-stencil state tests depth: the rasterizer runs, and has no position.
    rejects(&unpositioned(), NOPOS);
    let mut d = unpositioned();
    d.depth_stencil.depth_enable = false;
    accepts(&d);
    d.depth_stencil.stencil_enable = true;
    rejects(&d, NOPOS);
    d.depth_stencil.stencil_enable = false;
    d.set_shader(
        Slot::Ps,
        Some(
            ShaderBuilder::dxbc(Stage::Pixel)
                .outputs(vec![system_element("SV_Target", 0, 0, SemanticKind::Target)])
                .build(),
        ),
    );
    rejects(&d, NOPOS);
    // RasterizedStream D3D12_SO_NO_RASTERIZED_STREAM: nothing is rasterized, whatever the rest.
    d.depth_stencil.depth_enable = true;
    d.stream_output.rasterized_stream = D3D12_SO_NO_RASTERIZED_STREAM;
    accepts(&d);
    assert!(!d.rasterizes(true));
    assert!(base().rasterizes(true));
    let mut off = base();
    off.depth_stencil.depth_enable = false;
    assert!(!off.rasterizes(false) && off.rasterizes(true));
    // A geometry shader's stream 1 to 3 is rasterized as stream 0 is.
    let mut one = base();
    one.stream_output.rasterized_stream = 3;
    assert!(one.rasterizes(true));
}

// ---- stream output ------------------------------------------------------------------------------

fn so_entry(name: Option<&str>, slot: u8) -> SoEntry {
    SoEntry {
        stream: 0,
        semantic_name: name.map(str::to_owned),
        semantic_index: 0,
        start_component: 0,
        component_count: 4,
        output_slot: slot,
    }
}

fn so_base() -> PipelineDesc {
    with(|d| {
        d.stream_output = StreamOutput {
            entries: vec![so_entry(Some("SV_Position"), 0), so_entry(None, 0), so_entry(Some("TEXCOORD"), 1)],
            strides: vec![32, 16],
            rasterized_stream: 0,
        }
    })
}

#[test]
fn stream_output_rules() {
    accepts(&so_base());
    let so = |f: &dyn Fn(&mut StreamOutput)| {
        let mut d = so_base();
        f(&mut d.stream_output);
        d
    };
    use D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSLOT as SLOT;
    rejects(
        &so(&|s| s.strides[0] = 30),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSTREAMSTRIDE,
    );
    rejects(
        &so(&|s| s.strides[0] = 2052),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSTREAMSTRIDE,
    );
    rejects(
        &so(&|s| s.rasterized_stream = 4),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAMTORASTERIZER,
    );
    accepts(&so(&|s| s.rasterized_stream = D3D12_SO_NO_RASTERIZED_STREAM));
    rejects(&so(&|s| s.entries[2].stream = 1), D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAM);
    rejects(&so(&|s| s.entries[2].stream = 4), D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAM);
    rejects(&so(&|s| s.entries[2].output_slot = 2), SLOT);
    rejects(&so(&|s| s.entries[2].output_slot = 4), SLOT);
    rejects(
        &so(&|s| s.entries[0].component_count = 0),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTARTCOMPONENTANDCOMPONENTCOUNT,
    );
    rejects(
        &so(&|s| s.entries[0].start_component = 1),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTARTCOMPONENTANDCOMPONENTCOUNT,
    );
    // A gap may be wider than 4 components (Mesa's gl_SkipComponents gaps are); a named entry not.
    accepts(&so(&|s| {
        s.entries[1].component_count = 10;
        s.strides[0] = 56;
    }));
    rejects(
        &so(&|s| s.entries[2].component_count = 5),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTARTCOMPONENTANDCOMPONENTCOUNT,
    );
    rejects(
        &so(&|s| {
            s.entries[1].start_component = 1;
            s.entries[1].component_count = 2;
        }),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDGAPDEFINITION,
    );
    rejects(
        &so(&|s| s.entries[2].semantic_name = Some("TEXCOORD0".into())),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_TRAILING_DIGIT_IN_SEMANTIC,
    );
    rejects(
        &so(&|s| s.entries[2].semantic_name = Some("COLOR".into())),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_MISSINGSEMANTIC,
    );
    rejects(
        &so(&|s| s.entries.retain(|e| e.semantic_name.is_none())),
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_CANTHAVEONLYGAPS,
    );
    // A geometry shader may feed stream 1, each buffer from one stream only.
    let mut gs = ShaderBuilder::dxbc(Stage::Geometry).inputs(vs().outputs).outputs(vs().outputs);
    gs.outputs[1].stream = 1;
    let mut d = so(&|s| s.entries[2].stream = 1);
    d.set_shader(Slot::Gs, Some(gs.build()));
    accepts(&d);
    d.stream_output.entries[2].output_slot = 0;
    rejects(&d, SLOT);
    // RasterizedStream 1 rasterizes stream 1, which writes no SV_Position here (the pixel
    // shader and the default depth test run the rasterizer).
    d.stream_output.entries[2].output_slot = 1;
    d.stream_output.rasterized_stream = 1;
    rejects(&d, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT);
}

#[test]
fn stream_output_conversion_rejects_bad_counts() {
    let m = Mem::default();
    let mut so = D3D12_STREAM_OUTPUT_DESC { NumEntries: 513, ..Default::default() };
    assert_eq!(
        stream_output(&so, &m).unwrap_err().id.0,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDNUMENTRIES.0
    );
    so.NumEntries = 1;
    assert_eq!(
        stream_output(&so, &m).unwrap_err().id.0,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDNUMENTRIES.0
    );
    so.NumStrides = 5;
    assert_eq!(
        stream_output(&so, &m).unwrap_err().id.0,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDNUMSTRIDES.0
    );
}

// ---- blend, rasterizer, depth-stencil -----------------------------------------------------------

#[test]
fn blend_rules() {
    let rt = |i: usize, f: &dyn Fn(&mut RtBlend)| {
        with(|d| {
            d.blend.rt[i].blend_enable = true;
            f(&mut d.blend.rt[i]);
        })
    };
    accepts(&rt(0, &|_| ()));
    rejects(&rt(0, &|t| t.write_mask = 0x10), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDRENDERTARGETWRITEMASK);
    rejects(&rt(0, &|t| t.src = 0), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDSRCBLEND);
    rejects(&rt(0, &|t| t.src = 12), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDSRCBLEND);
    rejects(&rt(0, &|t| t.dest = 22), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDDESTBLEND);
    rejects(&rt(0, &|t| t.op = 6), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDBLENDOP);
    rejects(&rt(0, &|t| t.src_alpha = D3D12_BLEND_SRC_COLOR.0), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDSRCBLENDALPHA);
    rejects(
        &rt(0, &|t| t.dest_alpha = D3D12_BLEND_INV_DEST_COLOR.0),
        D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDDESTBLENDALPHA,
    );
    rejects(&rt(0, &|t| t.op_alpha = 0), D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDBLENDOPALPHA);
    // Logic ops need OPTIONS.OutputMergerLogicOp, FALSE on this device.
    rejects(
        &with(|d| {
            d.blend.rt[0].logic_op_enable = true;
            d.blend.rt[0].logic_op = D3D12_LOGIC_OP_XOR.0;
        }),
        D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDLOGICOPS,
    );
    let lo = Limits { logic_op: true, ..limits() };
    rejects_with(&rt(0, &|t| t.logic_op_enable = true), &lo, D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDLOGICOPS);
    // Disabled blending ignores the factors; without IndependentBlendEnable only RT 0 counts.
    accepts(&with(|d| d.blend.rt[0].src = 0));
    accepts(&rt(1, &|t| t.src = 0));
    rejects(
        &rt(1, &|t| {
            t.src = 0;
        })
        .tap(|d| d.blend.independent = true),
        D3D12_MESSAGE_ID_CREATEBLENDSTATE_INVALIDSRCBLEND,
    );
    rejects(
        &rt(0, &|_| ()).tap(|d| d.rtv_formats[0] = DXGI_FORMAT_R32_UINT.0),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_OM_RENDER_TARGET_DOES_NOT_SUPPORT_BLENDING,
    );
    accepts(&with(|d| d.rtv_formats[0] = DXGI_FORMAT_R32_UINT.0));
    let dual = rt(0, &|t| t.dest = D3D12_BLEND_INV_SRC1_COLOR.0);
    accepts(&dual);
    use D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_OM_DUAL_SOURCE_BLENDING_CAN_ONLY_HAVE_RENDER_TARGET_0 as DUAL;
    rejects(
        &dual.clone().tap(|d| {
            d.num_render_targets = 2;
            d.rtv_formats[1] = DXGI_FORMAT_R8G8B8A8_UNORM.0;
        }),
        DUAL,
    );
    // A second target without a format is no second target.
    accepts(&dual.clone().tap(|d| d.num_render_targets = 2));
    // With IndependentBlendEnable no other target may blend, formats or not.
    let independent = dual.clone().tap(|d| {
        d.blend.independent = true;
        d.blend.rt[1] = d.blend.rt[0];
        d.blend.rt[1].dest = D3D12_BLEND_ZERO.0;
    });
    rejects(&independent.clone().tap(|d| d.num_render_targets = 2), DUAL);
    rejects(
        &independent.clone().tap(|d| d.blend.rt[5] = d.blend.rt[1]).tap(|d| d.blend.rt[1].blend_enable = false),
        DUAL,
    );
    accepts(&independent.tap(|d| d.blend.rt[1].blend_enable = false));
}

#[test]
fn colour_dsv_format_is_accepted_and_turns_depth_off() {
    let d = with(|d| {
        d.dsv_format = DXGI_FORMAT_R8G8B8A8_UNORM.0;
        d.depth_stencil.depth_enable = true;
        d.depth_stencil.stencil_enable = true;
    });
    let p = accepts(&d);
    assert!(!p.desc.depth_stencil.depth_enable && !p.desc.depth_stencil.stencil_enable);
    assert_eq!(p.desc.dsv_format, DXGI_FORMAT_R8G8B8A8_UNORM.0);
    // A real depth format keeps its state.
    let p = accepts(&d.clone().tap(|d| d.dsv_format = DXGI_FORMAT_D32_FLOAT.0));
    assert!(p.desc.depth_stencil.depth_enable && p.desc.depth_stencil.stencil_enable);
}

trait Tap: Sized {
    fn tap(self, f: impl FnOnce(&mut Self)) -> Self;
}
impl Tap for PipelineDesc {
    fn tap(mut self, f: impl FnOnce(&mut Self)) -> Self {
        f(&mut self);
        self
    }
}

#[test]
fn rasterizer_rules() {
    let r = |f: &dyn Fn(&mut Rasterizer)| with(|d| f(&mut d.rasterizer));
    rejects(&r(&|r| r.fill = 1), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFILLMODE);
    rejects(&r(&|r| r.cull = 0), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDCULLMODE);
    rejects(&r(&|r| r.cull = 4), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDCULLMODE);
    rejects(&r(&|r| r.depth_bias_clamp = f32::NAN), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDDEPTHBIASCLAMP);
    rejects(
        &r(&|r| r.slope_scaled_depth_bias = f32::NAN),
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDSLOPESCALEDDEPTHBIAS,
    );
    rejects(&r(&|r| r.conservative = 1), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALID_CONSERVATIVERASTERMODE);
    rejects(&r(&|r| r.conservative = 2), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALID_CONSERVATIVERASTERMODE);
    let fl110 = Limits::new(Caps { feature_level: D3D_FEATURE_LEVEL_11_0.0, ..Caps::today() }, ShaderModel::new(5, 1));
    rejects_with(
        &r(&|r| r.forced_sample_count = 4),
        &fl110,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT,
    );
    // ForcedSampleCount 1 at 11_0, multisampled targets included ("MRT with ForcedSampleCount
    // 1"), without depth-stencil; 4 (target-independent rasterization) needs 11_1.
    let one = r(&|r| r.forced_sample_count = 1).tap(|d| {
        d.depth_stencil.depth_enable = false;
        d.sample_count = 4;
    });
    accepts(&one);
    rejects(
        &one.clone().tap(|d| d.depth_stencil.depth_enable = true),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT,
    );
    rejects_with(
        &r(&|r| r.forced_sample_count = 4).tap(|d| d.depth_stencil.depth_enable = false),
        &fl110,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT,
    );
    // UAV-only rendering: up to 8 at 11_0, sample count 0 or 1.
    let uav_only = |n: u32| {
        r(&move |r| r.forced_sample_count = n).tap(|d| {
            d.depth_stencil.depth_enable = false;
            d.num_render_targets = 0;
            d.rtv_formats = [0; 8];
            d.sample_count = 0;
        })
    };
    validate(&uav_only(8), &fl110).unwrap();
    rejects_with(&uav_only(16), &fl110, D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT);
    // The device (feature level 12_0): 16 for UAV-only rendering, target-independent
    // rasterization on single-sampled targets only (D3D12_RASTERIZER_DESC: "ensure that every
    // render target has only a single sample"), never with a depth-stencil format.
    assert_eq!(Caps::today().feature_level, D3D_FEATURE_LEVEL_12_0.0);
    accepts(&uav_only(16));
    accepts(&r(&|r| r.forced_sample_count = 8).tap(|d| d.depth_stencil.depth_enable = false));
    rejects(
        &r(&|r| r.forced_sample_count = 8).tap(|d| {
            d.depth_stencil.depth_enable = false;
            d.sample_count = 4;
        }),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT,
    );
    rejects(
        &uav_only(4).tap(|d| d.dsv_format = DXGI_FORMAT_D32_FLOAT.0),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT,
    );
    rejects(&uav_only(32), D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT);
    let fl111 = Limits::new(Caps::fl11_1_reference(), ShaderModel::new(5, 1));
    let forced = r(&|r| r.forced_sample_count = 4).tap(|d| d.depth_stencil.depth_enable = false);
    validate(&forced, &fl111).unwrap();
    rejects_with(
        &r(&|r| r.forced_sample_count = 3),
        &fl111,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT,
    );
    rejects_with(
        &r(&|r| r.forced_sample_count = 4),
        &fl111,
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT,
    );
    accepts(&r(&|r| {
        r.fill = D3D12_FILL_MODE_WIREFRAME.0;
        r.cull = D3D12_CULL_MODE_NONE.0;
        r.depth_bias = -5;
        r.depth_bias_clamp = f32::INFINITY;
    }));
}

#[test]
fn depth_stencil_rules() {
    let ds = |f: &dyn Fn(&mut DepthStencil)| with(|d| f(&mut d.depth_stencil));
    rejects(&ds(&|s| s.write_mask = 2), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDDEPTHWRITEMASK);
    rejects(&ds(&|s| s.func = 0), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDDEPTHFUNC);
    rejects(&ds(&|s| s.func = 9), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDDEPTHFUNC);
    // A zeroed state with depth and stencil off is valid (samples memset the desc).
    accepts(&ds(&|s| {
        *s = DepthStencil {
            depth_enable: false,
            write_mask: 0,
            func: 0,
            stencil_enable: false,
            front: StencilFace { fail: 0, depth_fail: 0, pass: 0, func: 0, read_mask: 0, write_mask: 0 },
            back: StencilFace { fail: 0, depth_fail: 0, pass: 0, func: 0, read_mask: 0, write_mask: 0 },
            depth_bounds: false,
        }
    }));
    type FaceCase = (fn(&mut StencilFace), D3D12_MESSAGE_ID, D3D12_MESSAGE_ID);
    let face_cases: [FaceCase; 4] = [
        (
            |f| f.fail = 0,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILFAILOP,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILFAILOP,
        ),
        (
            |f| f.depth_fail = 9,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILZFAILOP,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILZFAILOP,
        ),
        (
            |f| f.pass = 0,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILPASSOP,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILPASSOP,
        ),
        (
            |f| f.func = 0,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILFUNC,
            D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILFUNC,
        ),
    ];
    for (f, front, back) in face_cases {
        rejects(
            &ds(&|s| {
                s.stencil_enable = true;
                f(&mut s.front)
            }),
            front,
        );
        rejects(
            &ds(&|s| {
                s.stencil_enable = true;
                f(&mut s.back)
            }),
            back,
        );
        accepts(&ds(&|s| f(&mut s.front)));
    }
    rejects(&ds(&|s| s.depth_bounds = true), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_DEPTHBOUNDSTEST_UNSUPPORTED);
    rejects(
        &ds(&|s| {
            s.stencil_enable = true;
            s.back.write_mask = 0x0F;
        }),
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INDEPENDENT_MASKS_UNSUPPORTED,
    );
    accepts(&ds(&|s| s.back.write_mask = 0x0F));
}

// ---- targets, samples, the rest -----------------------------------------------------------------

#[test]
fn render_target_and_depth_formats() {
    rejects(
        &with(|d| d.num_render_targets = 9),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_RENDER_TARGET_COUNT,
    );
    rejects(
        &with(|d| d.rtv_formats[1] = DXGI_FORMAT_R8G8B8A8_UNORM.0),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_RTV_FORMAT_NOT_UNKNOWN,
    );
    rejects(
        &with(|d| d.rtv_formats[7] = DXGI_FORMAT_R8G8B8A8_UNORM.0),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_RTV_FORMAT_NOT_UNKNOWN,
    );
    for bad in [DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_R8G8B8A8_TYPELESS, DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT(9999)] {
        rejects(&with(|d| d.rtv_formats[0] = bad.0), D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDFORMAT);
    }
    // Holes within NumRenderTargets are allowed.
    accepts(&with(|d| {
        d.num_render_targets = 3;
        d.rtv_formats[0] = 0;
        d.rtv_formats[2] = DXGI_FORMAT_R16G16B16A16_FLOAT.0;
    }));
    accepts(&with(|d| d.num_render_targets = 0).tap(|d| d.rtv_formats[0] = 0));
    for bad in [DXGI_FORMAT_R24G8_TYPELESS, DXGI_FORMAT(200)] {
        rejects(&with(|d| d.dsv_format = bad.0), D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFORMAT);
    }
    for good in
        [DXGI_FORMAT_D24_UNORM_S8_UINT, DXGI_FORMAT_D32_FLOAT, DXGI_FORMAT_D16_UNORM, DXGI_FORMAT_D32_FLOAT_S8X24_UINT]
    {
        accepts(&with(|d| d.dsv_format = good.0));
    }
}

#[test]
fn sample_desc_follows_msaa_support() {
    use D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_SAMPLE_DESC as SAMPLE;
    rejects(&with(|d| d.sample_count = 0), SAMPLE);
    rejects(&with(|d| d.sample_count = 3), SAMPLE);
    rejects(&with(|d| d.sample_quality = 1), SAMPLE);
    rejects(
        &with(|d| d.num_render_targets = 0).tap(|d| {
            d.rtv_formats[0] = 0;
            d.sample_count = 3;
        }),
        SAMPLE,
    );
    // No target at all (UAV-only rendering): a zeroed SampleDesc is taken, as Mesa's d3d12
    // driver sends it for GL framebuffers without attachments; a zero count with a quality,
    // or with a target, is not.
    let bare = |d: &mut PipelineDesc| {
        d.num_render_targets = 0;
        d.rtv_formats[0] = 0;
        d.dsv_format = 0;
        d.sample_count = 0;
    };
    accepts(&with(bare));
    rejects(&with(bare).tap(|d| d.sample_quality = 1), SAMPLE);
    rejects(&with(bare).tap(|d| d.dsv_format = DXGI_FORMAT_D32_FLOAT.0), SAMPLE);
    let msaa = Limits::new(Caps::fl11_1_reference(), ShaderModel::new(5, 1));
    validate(&with(|d| d.sample_count = 4), &msaa).unwrap();
    rejects_with(&with(|d| d.sample_count = 3), &msaa, SAMPLE);
}

#[test]
fn strip_cut_and_view_instancing() {
    rejects(
        &with(|d| d.ib_strip_cut = 3),
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_INDEX_BUFFER_PROPERTIES,
    );
    for v in 0..=2 {
        accepts(&with(|d| d.ib_strip_cut = v));
    }
    let vi = |count, flags| {
        with(|d| d.view_instancing = ViewInstancing { count, locations: vec![(0, 0); count.min(4) as usize], flags })
    };
    rejects(&vi(2, 0), D3D12_MESSAGE_ID_VIEW_INSTANCING_UNSUPPORTED);
    let tier1 = Limits { view_instancing_tier: 1, ..limits() };
    validate(&vi(4, 1), &tier1).unwrap();
    rejects_with(&vi(5, 0), &tier1, D3D12_MESSAGE_ID_VIEW_INSTANCING_INVALIDARGS);
    rejects_with(&vi(2, 2), &tier1, D3D12_MESSAGE_ID_VIEW_INSTANCING_INVALIDARGS);
}

#[test]
fn compute_pipelines_ignore_graphics_state() {
    let a = accepts(&compute());
    let mut c = compute();
    c.blend.rt[0].src = 0;
    c.topology_type = 99;
    c.node_mask = 1;
    let b = accepts(&c);
    assert_eq!(a.canonical, b.canonical);
    let mut c = compute();
    c.set_shader(Slot::Cs, None);
    rejects(&c, D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_INVALID_SHADER);
}

// ---- conversions from the API structs -----------------------------------------------------------

struct Built {
    mem: Mem,
    desc: D3D12_GRAPHICS_PIPELINE_STATE_DESC,
}

fn ptr<T>(a: u64) -> *const T {
    a as usize as *const T
}

/// The API struct for [`base`], its pointers into a fake memory.
fn api_desc() -> Built {
    let mut mem = Mem { roots: vec![rs(IA | SO)], ..Default::default() };
    mem.roots.push(rs(IA | SO));
    let (v, p) = (vs().build(), ps().build());
    let (va, pa) = (mem.put(&v), mem.put(&p));
    let names = [mem.cstr("POSITION"), mem.cstr("TEXCOORD")];
    let mut elems = Vec::new();
    for (i, (fmt, off)) in
        [(DXGI_FORMAT_R32G32B32_FLOAT, 0), (DXGI_FORMAT_R32G32_FLOAT, D3D12_APPEND_ALIGNED_ELEMENT)].iter().enumerate()
    {
        elems.extend_from_slice(&names[i].to_le_bytes());
        for w in [0, fmt.0, 0, *off, 0, 0] {
            elems.extend_from_slice(&w.to_le_bytes());
        }
    }
    let ea = mem.put(&elems);
    let mut d = D3D12_GRAPHICS_PIPELINE_STATE_DESC {
        pRootSignature: ptr::<ID3D12RootSignature>(RS_TAG) as *mut _,
        VS: D3D12_SHADER_BYTECODE { pShaderBytecode: ptr(va), BytecodeLength: v.len() },
        PS: D3D12_SHADER_BYTECODE { pShaderBytecode: ptr(pa), BytecodeLength: p.len() },
        SampleMask: u32::MAX,
        InputLayout: D3D12_INPUT_LAYOUT_DESC { pInputElementDescs: ptr(ea), NumElements: 2 },
        PrimitiveTopologyType: D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
        NumRenderTargets: 1,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        ..Default::default()
    };
    d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    // CD3DX12 defaults for the states.
    d.BlendState.RenderTarget = [D3D12_RENDER_TARGET_BLEND_DESC {
        SrcBlend: D3D12_BLEND_ONE,
        DestBlend: D3D12_BLEND_ZERO,
        BlendOp: D3D12_BLEND_OP_ADD,
        SrcBlendAlpha: D3D12_BLEND_ONE,
        DestBlendAlpha: D3D12_BLEND_ZERO,
        BlendOpAlpha: D3D12_BLEND_OP_ADD,
        LogicOp: D3D12_LOGIC_OP_NOOP,
        RenderTargetWriteMask: 0xF,
        ..Default::default()
    }; 8];
    d.RasterizerState = D3D12_RASTERIZER_DESC {
        FillMode: D3D12_FILL_MODE_SOLID,
        CullMode: D3D12_CULL_MODE_BACK,
        DepthClipEnable: 1,
        ..Default::default()
    };
    let keep = D3D12_DEPTH_STENCILOP_DESC {
        StencilFailOp: D3D12_STENCIL_OP_KEEP,
        StencilDepthFailOp: D3D12_STENCIL_OP_KEEP,
        StencilPassOp: D3D12_STENCIL_OP_KEEP,
        StencilFunc: D3D12_COMPARISON_FUNC_ALWAYS,
    };
    d.DepthStencilState = D3D12_DEPTH_STENCIL_DESC {
        DepthEnable: 1,
        DepthWriteMask: D3D12_DEPTH_WRITE_MASK_ALL,
        DepthFunc: D3D12_COMPARISON_FUNC_LESS,
        StencilReadMask: 0xFF,
        StencilWriteMask: 0xFF,
        FrontFace: keep,
        BackFace: keep,
        ..Default::default()
    };
    Built { mem, desc: d }
}

#[test]
fn graphics_desc_converts_to_the_model() {
    let b = api_desc();
    let d = from_graphics_desc(&b.desc, &b.mem).unwrap();
    assert_eq!(d, base());
    assert_eq!(accepts(&d).canonical, accepts(&base()).canonical);
}

#[test]
fn graphics_desc_pointer_errors() {
    let b = api_desc();
    let mut d = b.desc;
    d.VS.pShaderBytecode = std::ptr::null();
    assert_eq!(
        from_graphics_desc(&d, &b.mem).unwrap_err().id.0,
        D3D12_MESSAGE_ID_CREATEVERTEXSHADER_INVALIDSHADERBYTECODE.0
    );
    let mut d = b.desc;
    d.PS.BytecodeLength = 0; // length 0 means no shader
    assert!(from_graphics_desc(&d, &b.mem).unwrap().shader(Slot::Ps).is_none());
    let mut d = b.desc;
    d.InputLayout.NumElements = 33;
    assert_eq!(from_graphics_desc(&d, &b.mem).unwrap_err().id.0, D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_TOOMANYELEMENTS.0);
    let mut d = b.desc;
    d.InputLayout.pInputElementDescs = std::ptr::null();
    assert_eq!(
        from_graphics_desc(&d, &b.mem).unwrap_err().id.0,
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INPUTLAYOUT_NOT_SET.0
    );
    let mut d = b.desc;
    d.pRootSignature = ptr::<ID3D12RootSignature>(0x1234) as *mut _;
    assert_eq!(from_graphics_desc(&d, &b.mem).unwrap_err().hr, E_INVALIDARG);
    let mut d = b.desc;
    d.CachedPSO.CachedBlobSizeInBytes = 10;
    assert_eq!(
        from_graphics_desc(&d, &b.mem).unwrap_err().id.0,
        D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALIDCACHEDBLOB.0
    );
    // A NULL semantic name reaches validation as a missing name.
    let mem = Mem::default();
    let mut e = vec![0u8; 32];
    e[12..16].copy_from_slice(&DXGI_FORMAT_R32_FLOAT.0.to_le_bytes());
    let a = mem.put(&e);
    let el = input_layout(a, 1, &mem).unwrap();
    assert_eq!(el[0].semantic_name, None);
}

#[test]
fn compute_desc_converts_to_the_model() {
    let mem = Mem { roots: vec![rs(0)], ..Default::default() };
    let cs = ShaderBuilder::dxbc(Stage::Compute).build();
    let a = mem.put(&cs);
    let d = D3D12_COMPUTE_PIPELINE_STATE_DESC {
        pRootSignature: ptr::<ID3D12RootSignature>(RS_TAG) as *mut _,
        CS: D3D12_SHADER_BYTECODE { pShaderBytecode: ptr(a), BytecodeLength: cs.len() },
        ..Default::default()
    };
    assert_eq!(from_compute_desc(&d, &mem).unwrap(), compute());
}

// ---- streams ------------------------------------------------------------------------------------

fn t(ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE) -> u32 {
    ty.0
}

/// A stream for [`base`]: only the subobjects that differ from the defaults, plus depth off.
fn base_stream(mem: &Mem) -> StreamWriter {
    let b = api_desc();
    let d = &b.desc;
    // Move the bytes into the caller's memory.
    let v = vs().build();
    let p = ps().build();
    let (va, pa) = (mem.put(&v), mem.put(&p));
    let elems = b.mem.bytes(d.InputLayout.pInputElementDescs as u64, 64).unwrap();
    let mut fixed = Vec::new();
    for (i, name) in ["POSITION", "TEXCOORD"].iter().enumerate() {
        let mut e = elems[32 * i..32 * i + 32].to_vec();
        e[..8].copy_from_slice(&mem.cstr(name).to_le_bytes());
        fixed.extend_from_slice(&e);
    }
    let ea = mem.put(&fixed);
    let mut rt = vec![DXGI_FORMAT_R8G8B8A8_UNORM.0, 0, 0, 0, 0, 0, 0, 0, 1];
    rt.truncate(9);
    StreamWriter::new()
        .raw(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE), &RS_TAG.to_le_bytes())
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS), va, v.len() as u64)
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS), pa, p.len() as u64)
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT), ea, 2)
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY), &[D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE.0])
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS), &rt)
}

fn stream_mem() -> Mem {
    Mem { roots: vec![rs(IA | SO)], ..Default::default() }
}

#[track_caller]
fn stream_rejects(bytes: &[u8], mem: &Mem, id: D3D12_MESSAGE_ID) {
    let e = from_stream(bytes, mem).and_then(|d| validate(&d, &limits()).map(|_| ())).unwrap_err();
    assert_eq!((e.hr, e.id.0), (E_INVALIDARG, id.0), "{e}");
}

#[test]
fn stream_equals_the_desc_path() {
    let mem = stream_mem();
    let s = base_stream(&mem);
    let d = from_stream(&s.bytes, &mem).unwrap();
    assert_eq!(d.kind, PipelineKind::Graphics);
    assert_eq!(d, base(), "omitted subobjects take the d3dx12 defaults");
    assert_eq!(accepts(&d).canonical, accepts(&base()).canonical);
    // The last subobject's trailing padding may be missing.
    let s = s.words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC), &[1, 0]);
    let cut = s.bytes.len() - 4;
    assert_eq!(from_stream(&s.bytes[..cut], &mem).unwrap(), d);
}

#[test]
fn every_subobject_type_parses() {
    let mem = stream_mem();
    let mut w = base_stream(&mem);
    let ty = t;
    let blend: Vec<u32> = {
        let mut v = vec![0, 0];
        for _ in 0..8 {
            v.extend_from_slice(&[0, 0, 2, 1, 1, 2, 1, 1, 4, 0xF]);
        }
        v
    };
    let keep = [1, 1, 1, 8];
    let mut ds1 = vec![0, 1, 2, 0, 0xFFFF];
    ds1.extend_from_slice(&keep);
    ds1.extend_from_slice(&keep);
    ds1.push(0);
    w = w
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND), &blend)
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK), &[0xF])
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER), &[3, 1, 1, (-2i32) as u32, 0, 0, 1, 0, 0, 0, 0])
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1), &ds1)
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE), &[1])
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT), &[DXGI_FORMAT_D32_FLOAT.0])
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC), &[1, 0])
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK), &[1])
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO), 0, 0)
        .words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS), &[0])
        .raw(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING), &[0u8; 24])
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS), 0, 0)
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS), 0, 0)
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS), 0, 0)
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS), 0, 0)
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS), 0, 0)
        .addr_len(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS), 0, 0)
        .raw(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT), &[0u8; 32]);
    let d = from_stream(&w.bytes, &mem).unwrap();
    assert_eq!(d.kind, PipelineKind::Graphics, "empty CS/AS/MS subobjects are no shaders");
    assert_eq!(d.sample_mask, 0xF);
    assert_eq!((d.rasterizer.cull, d.rasterizer.front_ccw, d.rasterizer.depth_bias), (1, true, -2));
    assert!(!d.depth_stencil.depth_enable && d.depth_stencil.front.write_mask == 0xFF);
    assert_eq!((d.ib_strip_cut, d.dsv_format, d.node_mask), (1, DXGI_FORMAT_D32_FLOAT.0, 1));
    accepts(&d);
    // DEPTH_STENCIL2 carries per-face masks.
    let mut ds2 = vec![1, 1, 2, 1];
    ds2.extend_from_slice(&[1, 1, 1, 8, 0x0F0F]);
    ds2.extend_from_slice(&[1, 1, 1, 8, 0x0F0F]);
    ds2.push(0);
    let w = base_stream(&mem).words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2), &ds2);
    let d = from_stream(&w.bytes, &mem).unwrap();
    assert_eq!((d.depth_stencil.front.read_mask, d.depth_stencil.back.write_mask), (0x0F, 0x0F));
    accepts(&d);
    // DEPTH_STENCIL (the first version) too.
    let mut ds0 = vec![0, 1, 2, 0, 0xFFFF];
    ds0.extend_from_slice(&keep);
    ds0.extend_from_slice(&keep);
    let w = base_stream(&mem).words(ty(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL), &ds0);
    assert!(!from_stream(&w.bytes, &mem).unwrap().depth_stencil.depth_enable);
}

#[test]
fn stream_structure_errors() {
    let mem = stream_mem();
    stream_rejects(&[], &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_ZERO_SIZE_STREAM);
    for unknown in [23u32, 27, 28, 0xFFFF, u32::MAX] {
        let w = base_stream(&mem).words(unknown, &[0, 0]);
        stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_UNKNOWN_SUBOBJECT);
    }
    let w = base_stream(&mem).addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS), 0, 0);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_DUPLICATE_SUBOBJECT);
    let w = base_stream(&mem).words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY), &[3]);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_DUPLICATE_SUBOBJECT);
    let ds = [0u32; 15];
    let w = base_stream(&mem)
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL), &ds[..13])
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1), &ds[..14]);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_DUPLICATE_SUBOBJECT);
    // Cut inside the last subobject's struct, and inside a type field.
    let s = base_stream(&mem).bytes;
    stream_rejects(&s[..s.len() - 12], &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM);
    let w = base_stream(&mem);
    let mut b = w.bytes.clone();
    b.extend_from_slice(&[0, 0]);
    stream_rejects(&b, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM);
    // Deducing the type.
    let w = StreamWriter::new().words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK), &[1]);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CANNOT_DEDUCE_TYPE);
    let cs = ShaderBuilder::dxbc(Stage::Compute).build();
    let ca = mem.put(&cs);
    let w = base_stream(&mem).addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS), ca, cs.len() as u64);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM);
    // VS and MS: two pipeline types.
    let ms = ShaderBuilder::dxbc(Stage::Mesh).build();
    let w = base_stream(&mem).addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS), mem.put(&ms), ms.len() as u64);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALID_STREAM);
    // A zero-length CS (d3dx12's helpers write every slot) is no CS.
    let w = base_stream(&mem).addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS), 0, 0);
    assert_eq!(from_stream(&w.bytes, &mem).unwrap().kind, PipelineKind::Graphics);
}

#[test]
fn stream_topology_defaults_to_triangle() {
    let mem = stream_mem();
    let v = vs().build();
    let w = StreamWriter::new()
        .raw(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE), &RS_TAG.to_le_bytes())
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS), mem.put(&v), v.len() as u64);
    let mut d = from_stream(&w.bytes, &mem).unwrap();
    assert_eq!(d.topology_type, D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE.0);
    d.input_layout = base().input_layout;
    accepts(&d);
    // An explicit UNDEFINED is still refused.
    let w = w.words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY), &[0]);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_PRIMITIVETOPOLOGY);
}

#[test]
fn stream_with_cs_and_graphics_shaders_is_a_compute_pipeline() {
    let mem = Mem { roots: vec![rs(0)], ..Default::default() };
    let cs = ShaderBuilder::dxbc(Stage::Compute).build();
    let p = ps().build();
    let w = StreamWriter::new()
        .raw(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE), &RS_TAG.to_le_bytes())
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS), mem.put(&p), p.len() as u64)
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS), mem.put(&cs), cs.len() as u64)
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT), &[DXGI_FORMAT_D32_FLOAT.0]);
    let d = from_stream(&w.bytes, &mem).unwrap();
    assert_eq!(d.kind, PipelineKind::Compute);
    assert_eq!(d.shader(Slot::Ps), None);
    assert_eq!(accepts(&d).canonical, accepts(&compute()).canonical);
}

#[test]
fn compute_stream_ignores_graphics_subobjects() {
    let mem = Mem { roots: vec![rs(0)], ..Default::default() };
    let cs = ShaderBuilder::dxbc(Stage::Compute).build();
    let a = mem.put(&cs);
    let w = StreamWriter::new()
        .addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS), a, cs.len() as u64)
        .raw(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE), &RS_TAG.to_le_bytes())
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK), &[1])
        .words(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY), &[77]);
    let d = from_stream(&w.bytes, &mem).unwrap();
    assert_eq!(d.kind, PipelineKind::Compute);
    assert_eq!(accepts(&d).canonical, accepts(&compute()).canonical);
    let w = StreamWriter::new().addr_len(t(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS), a, cs.len() as u64);
    stream_rejects(&w.bytes, &mem, D3D12_MESSAGE_ID_CREATECOMPUTEPIPELINESTATE_MISSING_ROOT_SIGNATURE);
}

#[test]
fn stream_parsing_never_panics() {
    let mem = stream_mem();
    let s = base_stream(&mem).bytes;
    for n in 0..s.len() {
        let _ = from_stream(&s[..n], &mem);
    }
    // Type fields rewritten to every value near the defined range.
    for at in (0..s.len()).step_by(8) {
        for v in [0u32, 5, 12, 22, 23, 26, 27, 1000] {
            let mut b = s.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            // Pointers in such streams are garbage: a resolver that knows no address.
            let _ = from_stream(&b, &Null);
        }
    }
}

// ---- cached blobs and libraries -----------------------------------------------------------------

fn id() -> Identity {
    Identity::new("rd3d12 CPU adapter", "rd3d12 0.1.0")
}

#[test]
fn cached_blob_round_trip_and_errors() {
    let p = accepts(&base());
    let blob = cache::cached_blob(&p.canonical, &id());
    cache::check_cached_blob(&blob, &p.canonical, &id()).unwrap();
    let check = |b: &[u8]| cache::check_cached_blob(b, &p.canonical, &id()).unwrap_err();
    let flip = |at: usize| {
        let mut b = blob.clone();
        b[at] ^= 1;
        b
    };
    let e = check(&flip(0));
    assert_eq!((e.hr, e.id.0), (E_INVALIDARG, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALIDCACHEDBLOB.0));
    let e = check(&flip(16));
    assert_eq!(
        (e.hr, e.id.0),
        (D3D12_ERROR_ADAPTER_NOT_FOUND, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CACHEDBLOBADAPTERMISMATCH.0)
    );
    for at in [8, 32, 47] {
        let e = check(&flip(at));
        assert_eq!(
            (e.hr, e.id.0),
            (
                D3D12_ERROR_DRIVER_VERSION_MISMATCH,
                D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CACHEDBLOBDRIVERVERSIONMISMATCH.0
            )
        );
    }
    for at in [48, 60, blob.len() - 20, blob.len() - 1] {
        assert_eq!(check(&flip(at)).hr, E_INVALIDARG, "byte {at}");
    }
    for n in [0, 10, 71, blob.len() - 1] {
        assert_eq!(check(&blob[..n]).hr, E_INVALIDARG, "{n} bytes");
    }
    let other = accepts(&with(|d| d.sample_mask = 1));
    let e = cache::check_cached_blob(&blob, &other.canonical, &id()).unwrap_err();
    assert_eq!((e.hr, e.id.0), (E_INVALIDARG, D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CACHEDBLOBDESCMISMATCH.0));
    // The cached blob itself is not part of the description.
    let with_blob = with(|d| d.cached_blob = Some(blob.clone()));
    assert_eq!(accepts(&with_blob).canonical, p.canonical);
}

#[test]
fn library_round_trip_and_errors() {
    let name = |s: &str| s.chars().map(|c| c as u32).collect::<Vec<_>>();
    let entries = vec![(name("first"), accepts(&base()).canonical), (name("second"), accepts(&compute()).canonical)];
    let blob = cache::serialize_library(&entries, &id());
    assert_eq!(blob.len(), cache::serialized_library_size(&entries));
    assert_eq!(cache::parse_library(&blob, &id()).unwrap(), entries);
    assert!(cache::parse_library(&[], &id()).unwrap().is_empty());
    let empty = cache::serialize_library(&[], &id());
    assert!(cache::parse_library(&empty, &id()).unwrap().is_empty());
    let err = |b: &[u8]| cache::parse_library(b, &id()).unwrap_err();
    let mut b = blob.clone();
    b[20] ^= 1;
    assert_eq!(err(&b).hr, D3D12_ERROR_ADAPTER_NOT_FOUND);
    let mut b = blob.clone();
    b[40] ^= 1;
    assert_eq!(err(&b).hr, D3D12_ERROR_DRIVER_VERSION_MISMATCH);
    let mut b = blob.clone();
    b[70] ^= 1;
    assert_eq!((err(&b).hr, err(&b).id.0), (E_INVALIDARG, D3D12_MESSAGE_ID_CREATEPIPELINELIBRARY_INVALIDLIBRARYBLOB.0));
    assert_eq!(err(&blob[..blob.len() - 1]).hr, E_INVALIDARG);
    assert_eq!(
        err(b"not a library at all, just some bytes that are long enough to pass the size test..").hr,
        E_INVALIDARG
    );
    // A cached PSO blob is not a library.
    assert_eq!(err(&cache::cached_blob(&entries[0].1, &id())).hr, E_INVALIDARG);
    let dup = cache::serialize_library(&[entries[0].clone(), entries[0].clone()], &id());
    assert_eq!(err(&dup).hr, E_INVALIDARG);
}

// ---- root signature against the shaders' resource bindings ----------------------------------------

/// A root signature of version 1.1 with `params` and `samplers`, as pipelines see it.
fn info_of(
    params: Vec<crate::root_signature::RootParameter>,
    samplers: Vec<crate::root_signature::StaticSampler>,
) -> RootSignatureInfo {
    RootSignatureInfo::new(&RootSignatureDesc {
        version: crate::root_signature::Version::V1_1,
        parameters: params,
        static_samplers: samplers,
        flags: IA,
    })
}

#[test]
fn shader_resources_must_be_bound_by_the_root_signature() {
    use crate::root_signature::{DescriptorRange, RootConstants, RootParameter, StaticSampler};
    // Mesa's textured shaders: the VS reads cbuffers b0 and b1, the PS b0, t0 and s0 (PSV0).
    let vs =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")).to_vec();
    let ps =
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")).to_vec();
    let l = Limits { allow_unsigned_dxil: true, ..Limits::new(Caps::today(), ShaderModel::new(6, 2)) };
    let consts = |reg: u32, vis: u32| RootParameter {
        kind: ParameterKind::Constants(RootConstants { shader_register: reg, register_space: 0, num_32bit_values: 16 }),
        visibility: vis,
    };
    let srv_table = |vis: u32| RootParameter {
        kind: ParameterKind::Table(vec![DescriptorRange {
            range_type: crate::root_signature::range_type::SRV,
            num_descriptors: 1,
            base_shader_register: 0,
            register_space: 0,
            flags: 0,
            offset_in_descriptors_from_table_start: 0,
        }]),
        visibility: vis,
    };
    let sampler = StaticSampler { shader_register: 0, visibility: 5, ..Default::default() };
    let desc = |params, samplers| {
        let mut d = PipelineDesc::new(PipelineKind::Graphics);
        d.root_signature = Some(info_of(params, samplers));
        d.set_shader(Slot::Vs, Some(vs.clone()));
        d.set_shader(Slot::Ps, Some(ps.clone()));
        d.num_render_targets = 1;
        d.rtv_formats[0] = DXGI_FORMAT_R8G8B8A8_UNORM.0;
        d.topology_type = D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE.0;
        let el = |index: u32, format: DXGI_FORMAT, offset: u32| InputElement {
            semantic_name: Some("TEXCOORD".into()),
            semantic_index: index,
            format: format.0,
            input_slot: 0,
            aligned_byte_offset: offset,
            slot_class: 0,
            instance_step_rate: 0,
        };
        d.input_layout = vec![el(0, DXGI_FORMAT_R32G32B32A32_FLOAT, 0), el(1, DXGI_FORMAT_R32G32_FLOAT, 16)];
        d
    };
    // Everything bound: b0, b1 for the VS (visibility VERTEX), b0 and t0 for the PS, s0 static.
    let full = || vec![consts(0, 1), consts(1, 1), consts(0, 5), srv_table(5)];
    validate(&desc(full(), vec![sampler]), &l).unwrap_or_else(|e| panic!("rejected: {e}"));
    // Visibility ALL binds for both stages at once (one b0 for both).
    validate(&desc(vec![consts(0, 0), consts(1, 1), srv_table(0)], vec![sampler]), &l).expect("ALL");
    // No t0 for the PS.
    let e = validate(&desc(vec![consts(0, 1), consts(1, 1), consts(0, 5)], vec![sampler]), &l).unwrap_err();
    assert_eq!(e.id.0, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_PS_ROOT_SIGNATURE_MISMATCH.0, "{e}");
    assert!(
        e.message.contains("SRV descriptor range (BaseShaderRegister=0, NumDescriptors=1, RegisterSpace=0)"),
        "{e}"
    );
    // t0 visible to the vertex shader only.
    let e =
        validate(&desc(vec![consts(0, 1), consts(1, 1), consts(0, 5), srv_table(1)], vec![sampler]), &l).unwrap_err();
    assert_eq!(e.id.0, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_PS_ROOT_SIGNATURE_MISMATCH.0);
    // No s0.
    let e = validate(&desc(full(), vec![]), &l).unwrap_err();
    assert!(e.message.contains("Shader sampler descriptor range"), "{e}");
    // No b1 for the VS.
    let e = validate(&desc(vec![consts(0, 1), consts(0, 5), srv_table(5)], vec![sampler]), &l).unwrap_err();
    assert_eq!(e.id.0, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_VS_ROOT_SIGNATURE_MISMATCH.0, "{e}");
    // A texture cannot be bound by a root SRV.
    let root_srv = RootParameter {
        kind: ParameterKind::Srv(crate::root_signature::RootDescriptor {
            shader_register: 0,
            register_space: 0,
            flags: 0,
        }),
        visibility: 5,
    };
    let e = validate(&desc(vec![consts(0, 1), consts(1, 1), consts(0, 5), root_srv], vec![sampler]), &l).unwrap_err();
    assert_eq!(e.id.0, D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_PS_ROOT_SIGNATURE_MISMATCH.0);
}
