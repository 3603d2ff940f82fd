//! DXC's pixel shaders of the corpus's `graphics/` group (copies in `tests/fixtures/dxil/dxc`)
//! drawn through [`rd3d12_swgpu::draw::draw`]: Mesa's `quad.vs.dxil` passes a full-viewport
//! triangle to the DXC pixel shader over 8x8 targets, and every pixel of every target is
//! compared with what the HLSL header works out for it.

mod common;

use common::Mem;
use rd3d12_core::pipeline::{InputElement, PipelineDesc, PipelineKind};
use rd3d12_shader::dxil;
use rd3d12_swgpu::draw::{draw, Bindings, Bytes, Class, DrawCall, Shader, Target, Workers};
use rd3d12_swgpu::input_assembler::{Topology, VertexBuffer};
use rd3d12_swgpu::raster::Viewport;
use rd3d12_sys as sys;

struct Nothing;
impl Bindings for Nothing {}

fn program(path: &str) -> dxil::Program {
    let path = format!("{}/../../tests/fixtures/dxil/{path}", env!("CARGO_MANIFEST_DIR"));
    let p = dxil::parse(&std::fs::read(path).unwrap()).unwrap();
    dxil::support::check(&p.module).unwrap();
    p
}

/// Draws the triangle (-1, -1), (3, -1), (-1, 3), which covers the 8x8 viewport, with DXC's
/// pixel shader `ps` into targets of `formats` (bytes per pixel), each first filled with `fill`;
/// returns each target's pixels as 32-bit words.
fn draw_full(ps: &str, formats: &[(sys::DXGI_FORMAT, usize)], fill: u8, ps_bindings: &dyn Bindings) -> Vec<Vec<u32>> {
    let vs = program("quad.vs.dxil");
    let ps = program(&format!("dxc/{ps}"));
    let ins = &vs.dx.entry_points[0].inputs;
    let element = |i: usize, format: sys::DXGI_FORMAT, offset: u32| InputElement {
        semantic_name: Some(ins[i].name.clone()),
        semantic_index: ins[i].semantic_indices[0],
        format: format.0,
        input_slot: 0,
        aligned_byte_offset: offset,
        slot_class: 0,
        instance_step_rate: 0,
    };
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout =
        vec![element(0, sys::DXGI_FORMAT_R32G32_FLOAT, 0), element(1, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 8)];
    p.rasterizer.cull = 1;
    p.depth_stencil.depth_enable = false;
    p.num_render_targets = formats.len() as u32;
    let tri = [[-1.0f32, -1.0], [3.0, -1.0], [-1.0, 3.0]];
    let vb: Vec<u8> =
        tri.iter().flat_map(|v| [v[0], v[1], 1.0, 1.0, 1.0, 1.0]).flat_map(|f: f32| f.to_le_bytes()).collect();
    let call = DrawCall {
        vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0] },
        tess: None,
        gs: None,
        ps: Some(Shader { module: &ps.module, entry: &ps.dx.entry_points[0] }),
        pipeline: &p,
        topology: Topology::TriangleList,
        vertices: vec![0, 1, 2],
        cut: None,
        vertex_id_base: 0,
        instances: 1,
        start_instance: 0,
        vertex_buffers: vec![Some(VertexBuffer { data: &vb, stride: 24 })],
        viewports: vec![Viewport { x: 0.0, y: 0.0, width: 8.0, height: 8.0, min_depth: 0.0, max_depth: 1.0 }],
        scissors: Vec::new(),
        blend_factor: [0.0; 4],
        stencil_ref: 0,
        sample_positions: None,
        workers: Workers::serial(),
    };
    let memory: Vec<Vec<u8>> = formats.iter().map(|(_, n)| vec![fill; 64 * n]).collect();
    let bytes: Vec<Bytes> = memory.iter().map(|m| Bytes::new(m)).collect();
    let mut targets: Vec<Option<Target<'_>>> = formats
        .iter()
        .zip(&bytes)
        .map(|((format, n), b)| {
            Some(Target {
                data: b,
                row_pitch: 8 * n,
                width: 8,
                height: 8,
                format: *format,
                sample_stride: 0,
                layers: 1,
                layer_stride: 0,
            })
        })
        .collect();
    draw(&call, &Nothing, &Nothing, ps_bindings, &mut targets, None, &mut []).expect("draws");
    bytes.iter().map(|b| b.to_vec().chunks(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect()).collect()
}

/// Four render targets of four component types: RT0 (px / 8, py / 8, 0.25, 1) float, RT1 (px,
/// py, px py, 0xFFFFFFFF) uint, RT2 (px - 4, 4 - py) sint, RT3 px + 8 py float.
#[test]
fn ps_mrt() {
    let formats = [
        (sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 16),
        (sys::DXGI_FORMAT_R32G32B32A32_UINT, 16),
        (sys::DXGI_FORMAT_R32G32_SINT, 8),
        (sys::DXGI_FORMAT_R32_FLOAT, 4),
    ];
    let rts = draw_full("ps_mrt.ps.dxil", &formats, 0xEE, &Nothing);
    for (px, py) in (0..8u32).flat_map(|y| (0..8).map(move |x| (x, y))) {
        let i = (8 * py + px) as usize;
        let f = |x: f32| x.to_bits();
        assert_eq!(
            rts[0][4 * i..4 * i + 4],
            [f(px as f32 / 8.0), f(py as f32 / 8.0), f(0.25), f(1.0)],
            "RT0 {px},{py}"
        );
        assert_eq!(rts[1][4 * i..4 * i + 4], [px, py, px * py, u32::MAX], "RT1 {px},{py}");
        assert_eq!(rts[2][2 * i..2 * i + 2], [px.wrapping_sub(4), 4u32.wrapping_sub(py)], "RT2 {px},{py}");
        assert_eq!(rts[3][i], f((px + 8 * py) as f32), "RT3 {px},{py}");
    }
}

/// discard on a checkerboard and clip() of px <= 5: the 8 survivors ((6, even py) and (7, odd
/// py)) write px + 8 py and count themselves into u1; the others leave the target as it was.
#[test]
fn ps_discard() {
    let mut cnt = Mem::default().with(Class::Uav, 1, vec![0]);
    let rt = draw_full("ps_discard.ps.dxil", &[(sys::DXGI_FORMAT_R32_UINT, 4)], 0xFF, &cnt).remove(0);
    let want: Vec<u32> = (0..64u32)
        .map(|i| {
            let (px, py) = (i % 8, i / 8);
            if (px + py) % 2 == 0 && px >= 6 {
                px + 8 * py
            } else {
                u32::MAX
            }
        })
        .collect();
    assert_eq!(rt, want);
    assert_eq!(cnt.take(Class::Uav, 1), [8]);
}
