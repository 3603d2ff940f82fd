//! DXC's pixel shaders of the corpus's `graphics/` group (copies in `tests/fixtures/dxil/dxc`)
//! drawn through [`rd3d12_swgpu::draw::draw`]: Mesa's `quad.vs.dxil` passes a full-viewport
//! triangle to the DXC pixel shader over 8x8 targets, and every pixel of every target is
//! compared with what the HLSL header works out for it.

mod common;

use common::Mem;
use rd3d12_core::pipeline::{InputElement, PipelineDesc, PipelineKind};
use rd3d12_shader::dxil;
use rd3d12_swgpu::draw::{draw, Bindings, Bytes, Class, DepthStencilTarget, DrawCall, Plane, Shader, Target, Workers};
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
    draw_full_depth(ps, formats, fill, ps_bindings, None)
}

/// [`draw_full`] with an optional 8x8 D32_FLOAT depth buffer (depth test LESS, writes on).
fn draw_full_depth(
    ps: &str,
    formats: &[(sys::DXGI_FORMAT, usize)],
    fill: u8,
    ps_bindings: &dyn Bindings,
    depth: Option<&Bytes>,
) -> Vec<Vec<u32>> {
    let vs = program("quad.vs.dxil");
    let ps = program(&format!("dxc/{ps}"));
    let mut p = common::quad::pipeline(&vs, formats.len() as u32);
    p.depth_stencil.depth_enable = depth.is_some();
    let vb = common::quad::vertices(&[[-1.0f32, -1.0], [3.0, -1.0], [-1.0, 3.0]]);
    let call = common::quad::call(&vs, &ps, &p, &vb, 8.0, Workers::serial());
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
    let mut ds = depth.map(|d| DepthStencilTarget {
        format: sys::DXGI_FORMAT_D32_FLOAT,
        width: 8,
        height: 8,
        depth: Plane { data: d, row_pitch: 32, sample_stride: 0, layers: 1, layer_stride: 0 },
        stencil: None,
        read_only_depth: false,
        read_only_stencil: false,
    });
    draw(&call, &Nothing, &Nothing, ps_bindings, &mut targets, ds.as_mut(), &mut []).expect("draws");
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

/// Draws `vertices` (no vertex buffer: the vertex shader makes positions from SV_VertexID) of
/// `topology`, `instances` times, with DXC's `vs`, optional `gs` and `ps`, into one target of
/// `format` (16 bytes per pixel) with `layers` array slices of 8x8, first all 0xEE bytes;
/// returns its words.
fn draw_ids(
    (vs, gs, ps): (&str, Option<&str>, &str),
    topology: Topology,
    vertices: u32,
    instances: u32,
    format: sys::DXGI_FORMAT,
    layers: u32,
) -> Vec<u32> {
    let vs = program(&format!("dxc/{vs}"));
    let gs = gs.map(|g| program(&format!("dxc/{g}")));
    let ps = program(&format!("dxc/{ps}"));
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.rasterizer.cull = 1;
    p.depth_stencil.depth_enable = false;
    p.num_render_targets = 1;
    let call = DrawCall {
        vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0], resources: &vs.dx.resources },
        tess: None,
        gs: gs.as_ref().map(|g| Shader { module: &g.module, entry: &g.dx.entry_points[0], resources: &g.dx.resources }),
        ps: Some(Shader { module: &ps.module, entry: &ps.dx.entry_points[0], resources: &ps.dx.resources }),
        pipeline: &p,
        topology,
        vertices: (0..vertices).collect(),
        cut: None,
        vertex_id_base: 0,
        instances,
        start_instance: 0,
        vertex_buffers: Vec::new(),
        viewports: vec![Viewport { x: 0.0, y: 0.0, width: 8.0, height: 8.0, min_depth: 0.0, max_depth: 1.0 }],
        scissors: Vec::new(),
        blend_factor: [0.0; 4],
        stencil_ref: 0,
        sample_positions: None,
        workers: Workers::serial(),
    };
    let memory = vec![0xEEu8; 8 * 8 * 16 * layers as usize];
    let bytes = Bytes::new(&memory);
    let mut targets = [Some(Target {
        data: &bytes,
        row_pitch: 8 * 16,
        width: 8,
        height: 8,
        format,
        sample_stride: 0,
        layers,
        layer_stride: 8 * 8 * 16,
    })];
    draw(&call, &Nothing, &Nothing, &Nothing, &mut targets, None, &mut []).expect("draws");
    bytes.to_vec().chunks(4).map(|w| u32::from_le_bytes(w.try_into().unwrap())).collect()
}

/// A full-screen triangle from SV_VertexID alone, drawn twice (SV_InstanceID 0 and 1): every
/// pixel gets (px, py, SV_PrimitiveID * 10 + instance, SV_IsFrontFace) = (px, py, 1, 0), the
/// second instance drawing last, its primitive 0 again, and the triangle counter-clockwise, a
/// back face.
#[test]
fn system_values() {
    let out = draw_ids(
        ("system_values.VSMain.vs.dxil", None, "system_values.PSMain.ps.dxil"),
        Topology::TriangleList,
        3,
        2,
        sys::DXGI_FORMAT_R32G32B32A32_UINT,
        1,
    );
    let want: Vec<u32> = (0..64).flat_map(|i| [i % 8, i / 8, 1, 0]).collect();
    assert_eq!(out, want);
}

/// Four points expanded by a geometry shader of two instances into quads over the four 4x4
/// quadrants, instance n writing slice n of a 2-slice array: slice n pixel (px, py) =
/// (v, n, 0, 1) with v = (px >= 4) + 2 (py >= 4).
#[test]
fn gs_point_to_quad() {
    let out = draw_ids(
        ("gs_point_to_quad.VSMain.vs.dxil", Some("gs_point_to_quad.GSMain.gs.dxil"), "gs_point_to_quad.PSMain.ps.dxil"),
        Topology::PointList,
        4,
        1,
        sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        2,
    );
    let f = |x: f32| x.to_bits();
    let want: Vec<u32> = (0..2u32)
        .flat_map(|n| {
            (0..64u32).flat_map(move |i| {
                let v = u32::from(i % 8 >= 4) + 2 * u32::from(i / 8 >= 4);
                [f(v as f32), f(n as f32), f(0.0), f(1.0)]
            })
        })
        .collect();
    assert_eq!(out, want);
}

/// A triangle patch through DXC's hull shader (tess factors edge 4 and inside 3 from its
/// cbuffer, control points and the patch-constant CENTER passed on) and domain shader (the
/// position and COLOR = (u, v, w, CENTER.x + CENTER.z) from SV_DomainLocation): the patch
/// (-1, -1), (-1, 1), (1, -1) covers the pixels below the diagonal, each coloured with its
/// centre's barycentric coordinates (interpolated across the tessellated triangles, whose
/// vertices the rasterizer snaps to 1/256 pixel: within 1e-4), .w = -1/3 + (0 + 2 - 2).
#[test]
fn tess_tri() {
    use rd3d12_swgpu::draw::Tess;
    let (vs, hs, ds, ps) = (
        program("dxc/tess_tri.VSMain.vs.dxil"),
        program("dxc/tess_tri.HSMain.hs.dxil"),
        program("dxc/tess_tri.DSMain.ds.dxil"),
        program("dxc/tess_tri.PSMain.ps.dxil"),
    );
    let ins = &vs.dx.entry_points[0].inputs;
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout = vec![InputElement {
        semantic_name: Some(ins[0].name.clone()),
        semantic_index: ins[0].semantic_indices[0],
        format: sys::DXGI_FORMAT_R32G32B32_FLOAT.0,
        input_slot: 0,
        aligned_byte_offset: 0,
        slot_class: 0,
        instance_step_rate: 0,
    }];
    p.rasterizer.cull = 1;
    p.depth_stencil.depth_enable = false;
    p.num_render_targets = 1;
    let vb: Vec<u8> = [[-1.0f32, -1.0, 0.0], [-1.0, 1.0, 0.0], [1.0, -1.0, 0.0]]
        .iter()
        .flatten()
        .flat_map(|f| f.to_le_bytes())
        .collect();
    let tess = Mem::default().cb(vec![4f32.to_bits(), 3f32.to_bits(), 0, 0]);
    let call = DrawCall {
        vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0], resources: &vs.dx.resources },
        tess: Some(Tess {
            hs: Shader { module: &hs.module, entry: &hs.dx.entry_points[0], resources: &hs.dx.resources },
            ds: Shader { module: &ds.module, entry: &ds.dx.entry_points[0], resources: &ds.dx.resources },
            hs_bindings: &tess,
            ds_bindings: &Nothing,
        }),
        gs: None,
        ps: Some(Shader { module: &ps.module, entry: &ps.dx.entry_points[0], resources: &ps.dx.resources }),
        pipeline: &p,
        topology: Topology::PatchList(3),
        vertices: vec![0, 1, 2],
        cut: None,
        vertex_id_base: 0,
        instances: 1,
        start_instance: 0,
        vertex_buffers: vec![Some(VertexBuffer { data: &vb, stride: 12 })],
        viewports: vec![Viewport { x: 0.0, y: 0.0, width: 8.0, height: 8.0, min_depth: 0.0, max_depth: 1.0 }],
        scissors: Vec::new(),
        blend_factor: [0.0; 4],
        stencil_ref: 0,
        sample_positions: None,
        workers: Workers::serial(),
    };
    let nan: Vec<u8> = (0..64 * 4).flat_map(|_| f32::NAN.to_le_bytes()).collect();
    let rt = Bytes::new(&nan);
    let mut targets = [Some(Target {
        data: &rt,
        row_pitch: 128,
        width: 8,
        height: 8,
        format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        sample_stride: 0,
        layers: 1,
        layer_stride: 0,
    })];
    draw(&call, &Nothing, &Nothing, &Nothing, &mut targets, None, &mut []).expect("draws");
    let px: Vec<f32> = rt.to_vec().chunks(4).map(|w| f32::from_le_bytes(w.try_into().unwrap())).collect();
    for (x, y) in (0..8).flat_map(|y| (0..8).map(move |x| (x, y))) {
        let got = &px[4 * (8 * y + x)..][..4];
        // The pixel centre in clip space and its barycentric coordinates of the patch.
        let (cx, cy) = ((x as f32 + 0.5) / 4.0 - 1.0, 1.0 - (y as f32 + 0.5) / 4.0);
        let (v, w) = ((cy + 1.0) / 2.0, (cx + 1.0) / 2.0);
        if x < y {
            let want = [1.0 - v - w, v, w, -1.0 / 3.0];
            assert!(got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-4), "pixel ({x}, {y}): {got:?} vs {want:?}");
        } else if x > y {
            assert!(got.iter().all(|g| g.is_nan()), "pixel ({x}, {y}) outside the patch: {got:?}");
        }
    }
}

/// SV_ViewID without view instancing (which rd3d12 does not support: ViewInstancingTier 0) is
/// view 0 in the vertex and pixel shaders: the full-screen triangle at z = 0.25 gives every
/// pixel (view, SV_ViewID, z, 1) = (0, 0, 0.25, 1).
#[test]
fn vs_viewid() {
    let out = draw_ids(
        ("vs_viewid.VSMain.vs.dxil", None, "vs_viewid.PSMain.ps.dxil"),
        Topology::TriangleList,
        3,
        1,
        sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        1,
    );
    let want: Vec<u32> = (0..64).flat_map(|_| [0.0f32, 0.0, 0.25, 1.0].map(f32::to_bits)).collect();
    assert_eq!(out, want);
}

/// SV_Depth, SV_DepthGreaterEqual and SV_DepthLessEqual over a depth buffer cleared to 1.0
/// (test LESS, writes on) with Mesa's quad.vs putting the triangle at z = 0: the depth buffer
/// ends as (px + 8 py) / 128, z + 0.25 = 0.25 and z * 0.5 = 0, every pixel passing, and the
/// colour target as each entry returns (px, 1, 2).
#[test]
fn ps_depth() {
    for (entry, depth_of, colour) in [
        (
            "PSDepth",
            (|i: u32| (i % 8 + 8 * (i / 8)) as f32 / 128.0) as fn(u32) -> f32,
            (|i: u32| (i % 8) as f32) as fn(u32) -> f32,
        ),
        ("PSDepthGE", |_| 0.25, |_| 1.0),
        ("PSDepthLE", |_| 0.0, |_| 2.0),
    ] {
        let cleared: Vec<u8> = (0..64).flat_map(|_| 1f32.to_le_bytes()).collect();
        let depth = Bytes::new(&cleared);
        let rt = draw_full_depth(
            &format!("ps_depth.{entry}.ps.dxil"),
            &[(sys::DXGI_FORMAT_R32_FLOAT, 4)],
            0xEE,
            &Nothing,
            Some(&depth),
        )
        .remove(0);
        let d: Vec<f32> = depth.to_vec().chunks(4).map(|w| f32::from_le_bytes(w.try_into().unwrap())).collect();
        assert_eq!(d, (0..64).map(depth_of).collect::<Vec<f32>>(), "{entry} depth");
        assert_eq!(rt, (0..64).map(|i| colour(i).to_bits()).collect::<Vec<u32>>(), "{entry} colour");
    }
}

/// [earlydepthstencil]: pixels failing the depth test never run, so their UAV writes never
/// happen. Mesa's quad.vs draws at z = 0 over a depth buffer of 0.0 in the left half (LESS
/// fails) and 1.0 in the right: the 32 right-half pixels count themselves, mark their word and
/// write 7; the left half keeps its colour and words.
#[test]
fn ps_earlydepth_uav() {
    let cleared: Vec<u8> = (0..64u32).flat_map(|i| if i % 8 < 4 { 0f32 } else { 1.0 }.to_le_bytes()).collect();
    let depth = Bytes::new(&cleared);
    let mut cnt = Mem::default().with(Class::Uav, 1, vec![0; 65]);
    let rt = draw_full_depth("ps_earlydepth_uav.ps.dxil", &[(sys::DXGI_FORMAT_R32_UINT, 4)], 0xEE, &cnt, Some(&depth))
        .remove(0);
    let right = |i: u32| i % 8 >= 4;
    assert_eq!(rt, (0..64).map(|i| if right(i) { 7 } else { 0xEEEE_EEEE }).collect::<Vec<u32>>());
    let words = cnt.take(Class::Uav, 1);
    assert_eq!(words[0], 32);
    assert_eq!(words[1..], (0..64).map(|i| u32::from(right(i))).collect::<Vec<u32>>()[..]);
}
