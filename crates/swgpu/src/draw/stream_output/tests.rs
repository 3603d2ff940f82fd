//! Stream output from stages that write no SV_Position (`nopos.vs`, `nopos.gs`): valid D3D12 when
//! the rasterizer is disabled, and the stages run and stream out all the same.

use super::super::tests::{element, program, simple_call};
use super::super::{draw, Bindings, DrawError, SoBuffer};
use crate::input_assembler::Topology;
use rd3d12_core::pipeline::{PipelineDesc, PipelineKind, SoEntry, StreamOutput};
use rd3d12_sys as sys;

/// Bindings where nothing is bound (the fixtures read none).
struct Unbound;
impl Bindings for Unbound {}

/// No pixel shader, depth and stencil tests off: the rasterizer is disabled. TEXCOORD0.xyzw
/// streams out to slot 0 (stride 16) with RasterizedStream 0.
fn pipeline() -> PipelineDesc {
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout = vec![
        element("TEXCOORD", 0, sys::DXGI_FORMAT_R32G32_FLOAT, 0),
        element("TEXCOORD", 1, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 8),
    ];
    p.depth_stencil.depth_enable = false;
    let entry = SoEntry {
        stream: 0,
        semantic_name: Some("TEXCOORD".into()),
        semantic_index: 0,
        start_component: 0,
        component_count: 4,
        output_slot: 0,
    };
    p.stream_output = StreamOutput { entries: vec![entry], strides: vec![16], rasterized_stream: 0 };
    p
}

/// Three points: position (k, -k), color (k + 1, 10, 0, 1).
fn vertices() -> Vec<u8> {
    (0..3).map(|k| k as f32).flat_map(|k| [k, -k, k + 1.0, 10.0, 0.0, 1.0]).flat_map(f32::to_le_bytes).collect()
}

fn floats(b: &[u8]) -> Vec<f32> {
    b.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// `nopos.vert`: v = (2 pos, color.x + color.y, gl_VertexIndex), and no gl_Position. Each point
/// streams out; nothing reaches the (disabled) rasterizer.
#[test]
fn a_vertex_shader_without_sv_position_streams_out() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/nopos.vs.dxil")));
    assert!(vs.dx.entry_points[0]
        .outputs
        .iter()
        .all(|e| e.semantic != rd3d12_shader::ir::interface::SemanticKind::Position));
    let p = pipeline();
    let vb = vertices();
    let call = simple_call((&vs, None, None), &p, Topology::PointList, vec![0, 1, 2], &vb, (8, 8));
    let mut out = vec![0xCCu8; 64];
    let st = {
        let mut so = [Some(SoBuffer { data: &mut out, filled: 0 })];
        let st = draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut so).expect("draws");
        assert_eq!(so[0].as_ref().map(|b| b.filled), Some(48));
        st
    };
    assert_eq!((st.vertices_shaded, st.so_written[0], st.so_needed[0]), (3, 3, 3));
    assert_eq!((st.c_invocations, st.c_primitives, st.ps_invocations), (0, 0, 0));
    let want: Vec<f32> = (0..3).map(|k| k as f32).flat_map(|k| [2.0 * k, -2.0 * k, k + 11.0, k]).collect();
    assert_eq!(floats(&out[..48]), want);
    assert_eq!(&out[48..], &[0xCC; 16]);

    // A rasterizer that runs (here: the depth test on) has no position to work with: the draw
    // says so instead of skipping silently (CreateGraphicsPipelineState refuses this pipeline).
    let mut on = pipeline();
    on.depth_stencil.depth_enable = true;
    let call = simple_call((&vs, None, None), &on, Topology::PointList, vec![0, 1, 2], &vb, (8, 8));
    let r = draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut []);
    assert!(matches!(r, Err(DrawError::Unsupported(_))), "{r:?}");
}

/// `nopos.geom` after `quad.vert`: two points per input point, v = color + (10 k,
/// gl_PrimitiveIDIn, 0, 0), no gl_Position; they stream out in emission order.
#[test]
fn a_geometry_shader_without_sv_position_streams_out() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let gs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/nopos.gs.dxil")));
    let p = pipeline();
    let vb = vertices();
    let call = simple_call((&vs, Some(&gs), None), &p, Topology::PointList, vec![0, 1], &vb, (8, 8));
    let mut out = vec![0u8; 64];
    let st = {
        let mut so = [Some(SoBuffer { data: &mut out, filled: 0 })];
        draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut so).expect("draws")
    };
    assert_eq!((st.gs_invocations, st.so_written[0], st.so_needed[0]), (2, 4, 4));
    assert_eq!(st.c_invocations, 0);
    let want: Vec<f32> = [(0.0, 0.0), (0.0, 1.0), (1.0, 0.0), (1.0, 1.0)]
        .iter()
        .flat_map(|&(prim, k)| [prim + 1.0 + 10.0 * k, 10.0 + prim, 0.0, 1.0])
        .collect();
    assert_eq!(floats(&out), want);
}

/// A gap wider than 4 components (allowed without a SemanticName) skips its bytes: TEXCOORD0.xy,
/// a 6-component gap, TEXCOORD0.zw in a 40-byte vertex.
#[test]
fn a_gap_may_span_more_than_four_components() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/nopos.vs.dxil")));
    let mut p = pipeline();
    let named = p.stream_output.entries[0].clone();
    let gap = SoEntry { semantic_name: None, start_component: 0, component_count: 6, ..named.clone() };
    p.stream_output.entries = vec![
        SoEntry { component_count: 2, ..named.clone() },
        gap,
        SoEntry { start_component: 2, component_count: 2, ..named },
    ];
    p.stream_output.strides = vec![40];
    let vb = vertices();
    let call = simple_call((&vs, None, None), &p, Topology::PointList, vec![2], &vb, (8, 8));
    let mut out = vec![0xCCu8; 40];
    let mut so = [Some(SoBuffer { data: &mut out, filled: 0 })];
    draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut so).expect("draws");
    assert_eq!(so[0].as_ref().map(|b| b.filled), Some(40));
    // Vertex 2: v = (4, -4, 13, 2).
    assert_eq!(floats(&out[..8]), [4.0, -4.0]);
    assert_eq!(&out[8..32], &[0xCC; 24]);
    assert_eq!(floats(&out[32..]), [13.0, 2.0]);
}

/// `so.gs.dxbc` (DXBC, OSG5) after `points.vs.dxbc` over vertices 0, 1, 2 at (k - 0.5, 0.5, 0.5,
/// 1): per input point, stream 0 gets two points, (x, 0.5, 0.5, 1) with TEXCOORD (0, x) and
/// (x, -0.5, 0.5, 1) with (1, x); stream 1 gets one, EXTRA (1, 2, 3, 4). Stream 0's
/// {SV_Position.xyzw, TEXCOORD.xy} go to slot 0 (stride 24, room for all 6), stream 1's
/// {EXTRA.xyzw} to slot 1 (stride 16, 32 bytes: room for 2 of its 3): stream 1 overflows on its
/// own, stream 0 is written whole.
#[test]
fn each_stream_writes_its_own_buffers_and_overflows_alone() {
    let dxbc = |b: &[u8]| rd3d12_shader::dxbc::parse(b).expect("fixture parses");
    let vs = dxbc(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc/points.vs.dxbc")));
    let gs = dxbc(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc/so.gs.dxbc")));
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.depth_stencil.depth_enable = false;
    let entry = |stream, name: &str, count, slot| SoEntry {
        stream,
        semantic_name: Some(name.into()),
        semantic_index: 0,
        start_component: 0,
        component_count: count,
        output_slot: slot,
    };
    p.stream_output = StreamOutput {
        entries: vec![entry(0, "SV_Position", 4, 0), entry(0, "TEXCOORD", 2, 0), entry(1, "EXTRA", 4, 1)],
        strides: vec![24, 16],
        rasterized_stream: sys::D3D12_SO_NO_RASTERIZED_STREAM,
    };
    let vb = vertices();
    let call = simple_call((&vs, Some(&gs), None), &p, Topology::PointList, vec![0, 1, 2], &vb, (8, 8));
    let (mut b0, mut b1) = (vec![0xCCu8; 160], vec![0xCCu8; 32]);
    let st = {
        let mut so = [Some(SoBuffer { data: &mut b0[..144], filled: 0 }), Some(SoBuffer { data: &mut b1, filled: 0 })];
        let st = draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut so).expect("draws");
        assert_eq!(so.each_ref().map(|b| b.as_ref().map(|b| b.filled)), [Some(144), Some(32)]);
        st
    };
    assert_eq!((st.so_written, st.so_needed), ([6, 2, 0, 0], [6, 3, 0, 0]));
    assert_eq!((st.gs_invocations, st.gs_primitives, st.c_invocations), (3, 9, 0));
    let want0: Vec<f32> =
        [-0.5f32, 0.5, 1.5].iter().flat_map(|&x| [x, 0.5, 0.5, 1.0, 0.0, x, x, -0.5, 0.5, 1.0, 1.0, x]).collect();
    assert_eq!(floats(&b0[..144]), want0);
    assert_eq!(&b0[144..], &[0xCC; 16]);
    assert_eq!(floats(&b1), [1.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]);

    // A second draw continues at the filled sizes: stream 0 has no room left, stream 1 none
    // either; both count what they needed.
    let st = {
        let mut so =
            [Some(SoBuffer { data: &mut b0[..144], filled: 144 }), Some(SoBuffer { data: &mut b1, filled: 32 })];
        draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut so).expect("draws")
    };
    assert_eq!((st.so_written, st.so_needed), ([0; 4], [6, 3, 0, 0]));

    // Stream 1 alone, rasterized with the depth test on: it has no SV_Position, which the draw
    // reports (CreateGraphicsPipelineState refuses it); rasterizing stream 0 instead draws.
    p.depth_stencil.depth_enable = true;
    p.stream_output.rasterized_stream = 1;
    let call = simple_call((&vs, Some(&gs), None), &p, Topology::PointList, vec![0], &vb, (8, 8));
    let r = draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut []);
    assert!(matches!(r, Err(DrawError::Unsupported(_))), "{r:?}");
    p.stream_output.rasterized_stream = 0;
    let call = simple_call((&vs, Some(&gs), None), &p, Topology::PointList, vec![0], &vb, (8, 8));
    let st = draw(&call, &Unbound, &Unbound, &Unbound, &mut [], None, &mut []).expect("draws");
    // Stream 0's two points reach the rasterizer; stream 1's point does not.
    assert_eq!((st.gs_primitives, st.c_invocations), (3, 2));
}

/// `streams.gs.dxbc` (two streams with SV_Position and COLOR each, the registers shared) after
/// `points.vs.dxbc`, `color.ps.dxbc` into a 4x4 RGBA8 target: per input point stream 0 has a red
/// point at pixel (0, 0), stream 1 a green one at (3, 3) and a blue one at (2, 3). RasterizedStream
/// picks which are drawn, with that stream's COLOR; stream 0's COLOR streams out meanwhile.
#[test]
fn rasterized_stream_picks_the_stream_drawn_with_its_own_outputs() {
    let dxbc = |b: &[u8]| rd3d12_shader::dxbc::parse(b).expect("fixture parses");
    let vs = dxbc(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc/points.vs.dxbc")));
    let gs = dxbc(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc/streams.gs.dxbc")));
    let ps = dxbc(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc/color.ps.dxbc")));
    let run = |rasterized_stream: u32| {
        let mut p = PipelineDesc::new(PipelineKind::Graphics);
        p.depth_stencil.depth_enable = false;
        let entry = SoEntry {
            stream: 0,
            semantic_name: Some("COLOR".into()),
            semantic_index: 0,
            start_component: 0,
            component_count: 4,
            output_slot: 0,
        };
        p.stream_output = StreamOutput { entries: vec![entry], strides: vec![16], rasterized_stream };
        let vb = vertices();
        let call = simple_call((&vs, Some(&gs), Some(&ps)), &p, Topology::PointList, vec![0], &vb, (4, 4));
        let mut rt = vec![0u8; 4 * 4 * 4];
        let mut out = vec![0u8; 16];
        let st = {
            let lent = super::super::tests::Lent::new(&mut rt);
            let mut targets = [Some(super::super::tests::rgba8(&lent, 4, 4))];
            let mut so = [Some(SoBuffer { data: &mut out, filled: 0 })];
            draw(&call, &Unbound, &Unbound, &Unbound, &mut targets, None, &mut so).expect("draws")
        };
        assert_eq!(floats(&out), [1.0, 0.0, 0.0, 1.0], "stream 0's COLOR streams out");
        assert_eq!((st.so_written, st.so_needed), ([1, 0, 0, 0], [1, 0, 0, 0]));
        assert_eq!(st.gs_primitives, 3);
        let px = |x: usize, y: usize| -> [u8; 4] { std::array::from_fn(|c| rt[4 * (4 * y + x) + c]) };
        let lit: Vec<(usize, usize, [u8; 4])> =
            (0..16).map(|i| (i % 4, i / 4, px(i % 4, i / 4))).filter(|&(_, _, c)| c != [0; 4]).collect();
        (st.c_invocations, lit)
    };
    assert_eq!(run(0), (1, vec![(0, 0, [255, 0, 0, 255])]));
    assert_eq!(run(1), (2, vec![(2, 3, [0, 0, 255, 255]), (3, 3, [0, 255, 0, 255])]));
    // (RasterizedStream 2, a stream without SV_Position, is refused at pipeline creation and
    // the draw reports it, as in `each_stream_writes_its_own_buffers_and_overflows_alone`.)
    assert_eq!(run(sys::D3D12_SO_NO_RASTERIZED_STREAM), (0, vec![]));
}
