//! Tests of whole draws through the software pipeline.

use super::fragment::{quad_order, NONE};
use super::merge::{alpha_coverage, depth_write, DepthKind};
use super::setup::triangle_depth_bias;
use super::*;
use crate::raster::{self, Cull, TriangleState};
use rd3d12_core::pipeline::InputElement;
use rd3d12_core::pipeline::PipelineKind;
use rd3d12_sys as sys;

pub(super) struct Vs {
    pub(super) mvp_cols: [[f32; 4]; 4],
    pub(super) flip: f32,
}
impl Bindings for Vs {
    fn cbuffer_row(&self, _space: u32, reg: u32, row: u32) -> [u32; 4] {
        match reg {
            0 => self.mvp_cols.get(row as usize).copied().unwrap_or([0.0; 4]).map(f32::to_bits),
            _ => [self.flip, 0.0, 0.0, 0.0].map(f32::to_bits),
        }
    }
}
/// The pixel stage: a tint of (1, 1, 1, 1) and a "texture" whose color is (u, v, 0.5, 1).
struct Ps;
impl Bindings for Ps {
    fn cbuffer_row(&self, _space: u32, _reg: u32, _row: u32) -> [u32; 4] {
        [1.0f32; 4].map(f32::to_bits)
    }
    fn sample(
        &self,
        t: (u32, u32),
        s: (u32, u32),
        c: [f32; 4],
        _: [i32; 3],
        _: SampleMode,
        _: Option<f32>,
    ) -> [f32; 4] {
        assert_eq!((t, s), ((0, 0), (0, 0)));
        [c[0], c[1], 0.5, 1.0]
    }
}

/// A draw of `vertices` from one buffer of 24-byte vertices on a `w`×`h` viewport at the
/// origin with the (vertex, geometry, pixel) shaders: one instance, no strip cut, scissor,
/// blend factor or stencil reference.
pub(super) fn simple_call<'a>(
    (vs, gs, ps): (
        &'a rd3d12_shader::dxil::Program,
        Option<&'a rd3d12_shader::dxil::Program>,
        Option<&'a rd3d12_shader::dxil::Program>,
    ),
    pipeline: &'a PipelineDesc,
    topology: input_assembler::Topology,
    vertices: Vec<u32>,
    vb: &'a dyn crate::bytes::ReadBytes,
    (w, h): (u32, u32),
) -> DrawCall<'a> {
    let shader = |p: &'a rd3d12_shader::dxil::Program| Shader {
        module: &p.module,
        entry: &p.dx.entry_points[0],
        resources: &p.dx.resources,
    };
    DrawCall {
        vs: shader(vs),
        tess: None,
        gs: gs.map(shader),
        ps: ps.map(shader),
        pipeline,
        topology,
        vertices,
        cut: None,
        vertex_id_base: 0,
        instances: 1,
        start_instance: 0,
        workers: Workers::process(),
        vertex_buffers: vec![Some(VertexBuffer { data: vb, stride: 24 })],
        viewports: vec![Viewport { x: 0.0, y: 0.0, width: w as f32, height: h as f32, min_depth: 0.0, max_depth: 1.0 }],
        scissors: Vec::new(),
        blend_factor: [0.0; 4],
        stencil_ref: 0,
        sample_positions: None,
    }
}

/// A single-sample, single-layer RGBA8_UNORM target of `w`x`h` over `data` (tightly packed rows).
/// A target's bytes lent to a draw as a [`Surface`] of atomics, put back when it is dropped.
pub(super) struct Lent<'a> {
    bytes: Bytes,
    back: &'a mut [u8],
}

impl<'a> Lent<'a> {
    pub(super) fn new(back: &'a mut [u8]) -> Lent<'a> {
        Lent { bytes: Bytes::new(back), back }
    }
}

impl Surface for Lent<'_> {
    fn len(&self) -> usize {
        self.bytes.len()
    }
    fn read(&self, offset: usize, dst: &mut [u8]) -> bool {
        self.bytes.read(offset, dst)
    }
    fn write(&self, offset: usize, src: &[u8]) -> bool {
        self.bytes.write(offset, src)
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        self.back.copy_from_slice(&self.bytes.to_vec());
    }
}

pub(super) fn rgba8<'a>(data: &'a dyn Surface, w: u32, h: u32) -> Target<'a> {
    Target {
        data,
        row_pitch: w as usize * 4,
        width: w,
        height: h,
        format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
        sample_stride: 0,
        layers: 1,
        layer_stride: 0,
    }
}

pub(super) fn program(bytes: &[u8]) -> rd3d12_shader::dxil::Program {
    rd3d12_shader::dxil::parse(bytes).expect("fixture parses")
}

pub(super) fn element(name: &str, index: u32, format: sys::DXGI_FORMAT, offset: u32) -> InputElement {
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

#[test]
fn mesa_textured_shaders_draw_a_triangle_into_rgba8() {
    let vs =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")));
    let ps =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
    // Which TEXCOORD indices Mesa gave the position and uv inputs.
    let ins = &vs.dx.entry_points[0].inputs;
    let (pos_idx, uv_idx) = (ins[0].semantic_indices[0], ins[1].semantic_indices[0]);
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout = vec![
        element(&ins[0].name, pos_idx, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 0),
        element(&ins[1].name, uv_idx, sys::DXGI_FORMAT_R32G32_FLOAT, 16),
    ];
    p.rasterizer.cull = 1; // none
    p.depth_stencil.depth_enable = false;
    // A right triangle over the top-left half of a 16x16 target: NDC (-1,1), (1,1), (-1,-1)
    // with uv (0,0), (1,0), (0,1).
    let verts: [[f32; 6]; 3] =
        [[-1.0, 1.0, 0.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0, 1.0, 0.0], [-1.0, -1.0, 0.0, 1.0, 0.0, 1.0]];
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let call =
        simple_call((&vs, None, Some(&ps)), &p, input_assembler::Topology::TriangleList, vec![0, 1, 2], &vb, (16, 16));
    let identity = [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];
    let mut rt = vec![0u8; 16 * 16 * 4];
    let stats = {
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(rgba8(&lent_rt, 16, 16))];
        draw(&call, &Vs { mvp_cols: identity, flip: 1.0 }, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
    };
    assert_eq!(stats.vertices_shaded, 3);
    // Pixel centers with x + y + 1 < 16 are inside: 120 pixels.
    assert_eq!(stats.pixels_written, 120);
    assert_eq!(stats.samples_passed, 120);
    for y in 0..16usize {
        for x in 0..16usize {
            let px = &rt[y * 64 + x * 4..y * 64 + x * 4 + 4];
            if x + y < 15 {
                // uv at the pixel center: ((x + 0.5) / 16, (y + 0.5) / 16).
                let want =
                    [(x as f32 + 0.5) / 16.0, (y as f32 + 0.5) / 16.0, 0.5, 1.0].map(|c| (c * 255.0).round() as u8);
                assert_eq!(px, want, "pixel ({x}, {y})");
            } else {
                assert_eq!(px, [0, 0, 0, 0], "pixel ({x}, {y}) is outside");
            }
        }
    }
}

pub(super) const IDENTITY: [[f32; 4]; 4] =
    [[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]];

/// The textured fixtures' pipeline: position (float4) and uv (float2) per vertex, culling
/// off, and the pipeline's default depth-stencil state unless `f` changes it.
pub(super) fn textured_pipeline(vs: &rd3d12_shader::dxil::Program, f: impl FnOnce(&mut PipelineDesc)) -> PipelineDesc {
    let ins = &vs.dx.entry_points[0].inputs;
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout = vec![
        element(&ins[0].name, ins[0].semantic_indices[0], sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 0),
        element(&ins[1].name, ins[1].semantic_indices[0], sys::DXGI_FORMAT_R32G32_FLOAT, 16),
    ];
    p.rasterizer.cull = 1;
    f(&mut p);
    p
}

/// Runs one draw of `verts` ((x, y, z, w) in clip space, then u, v) on a `w`×`h` viewport
/// with the textured fixtures (`with_ps` false: no pixel shader).
#[allow(clippy::too_many_arguments)]
fn run_draw(
    p: &PipelineDesc,
    topology: input_assembler::Topology,
    verts: &[[f32; 6]],
    order: Vec<u32>,
    cut: Option<u32>,
    with_ps: bool,
    (w, h): (u32, u32),
    targets: &mut [Option<Target<'_>>],
    depth: Option<&mut DepthStencilTarget<'_>>,
    stencil_ref: u8,
) -> DrawStats {
    let vs =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")));
    let ps =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let mut call = simple_call((&vs, None, with_ps.then_some(&ps)), p, topology, order, &vb, (w, h));
    call.cut = cut;
    call.stencil_ref = stencil_ref;
    draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &Ps, targets, depth, &mut []).expect("draws")
}

pub(super) fn vs_program() -> rd3d12_shader::dxil::Program {
    program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil")))
}

/// The upper-left half of a 4x4 target at depth `d` (clip z = 2d − 1: Mesa's vertex shader
/// maps GL's [-1, 1] to [0, 1]), uv (0,0), (1,0), (0,1): it covers the 6 pixels with
/// x + y < 3, (0,0) (1,0) (2,0) (0,1) (1,1) (0,2), clockwise (front-facing).
fn half(d: f32) -> [[f32; 6]; 3] {
    let z = 2.0 * d - 1.0;
    [[-1.0, 1.0, z, 1.0, 0.0, 0.0], [1.0, 1.0, z, 1.0, 1.0, 0.0], [-1.0, -1.0, z, 1.0, 0.0, 1.0]]
}

fn ds_target<'a>(
    format: sys::DXGI_FORMAT,
    depth: &'a Lent<'_>,
    stencil: Option<&'a Lent<'_>>,
) -> DepthStencilTarget<'a> {
    let bytes = depth.len() / 16;
    DepthStencilTarget {
        format,
        width: 4,
        height: 4,
        depth: Plane { data: depth, row_pitch: 4 * bytes, sample_stride: 0, layers: 1, layer_stride: 0 },
        stencil: stencil.map(|s| Plane { data: s, row_pitch: 4, sample_stride: 0, layers: 1, layer_stride: 0 }),
        read_only_depth: false,
        read_only_stencil: false,
    }
}

/// A 4x4 depth plane of `format` cleared to `d`, as ClearDepthStencilView writes it.
fn cleared(format: sys::DXGI_FORMAT, d: f32) -> Vec<u8> {
    let (e, n) = rd3d12_core::pack::encode_depth(format, d).unwrap();
    e[..n].repeat(16)
}

const TRI: input_assembler::Topology = input_assembler::Topology::TriangleList;
const COVERED: [usize; 6] = [0, 1, 2, 4, 5, 8];

#[test]
fn unorm_depth_buffers_store_the_rounded_unorm_of_the_depth() {
    let vs = vs_program();
    let p = textured_pipeline(&vs, |_| {});
    // Depth 0.25 over a buffer cleared to 1.0 with LESS: the 6 covered pixels take
    // floor(0.25·(2ⁿ−1) + 0.5): D16 16383.75 → 0x4000, D24 4194303.75 → 0x400000.
    for (format, want, one) in [
        (sys::DXGI_FORMAT_D16_UNORM, vec![0x00, 0x40], vec![0xFF, 0xFF]),
        (sys::DXGI_FORMAT_D24_UNORM_S8_UINT, vec![0x00, 0x00, 0x40, 0x00], vec![0xFF, 0xFF, 0xFF, 0x00]),
        (sys::DXGI_FORMAT_D32_FLOAT, 0.25f32.to_le_bytes().to_vec(), 1.0f32.to_le_bytes().to_vec()),
    ] {
        let mut d = cleared(format, 1.0);
        let n = want.len();
        let st = {
            let lent_d = Lent::new(&mut d);
            let mut ds = ds_target(format, &lent_d, None);
            run_draw(&p, TRI, &half(0.25), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0)
        };
        assert_eq!(st.samples_passed, 6);
        for i in 0..16 {
            let px = &d[i * n..(i + 1) * n];
            assert_eq!(px, if COVERED.contains(&i) { &want[..] } else { &one[..] }, "{format:?} pixel {i}");
        }
    }
}

#[test]
fn set_sample_positions_moves_the_samples_that_are_tested() {
    // Single-sampled, D32 cleared to 1, the upper-left half at depth 0.25: the edge
    // x + y = 4 (in pixels) passes through the centers of the four pixels with x + y = 3,
    // which the standard (0, 0) sample leaves out (6 covered). Programmed to (-8, -8), the
    // pixel's top-left corner, the sample of those four lies at x + y = 3 < 4: 10 covered.
    // A pattern of another sample count than the pipeline's is ignored here (undefined).
    let vs = vs_program();
    let ps =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
    let p = textured_pipeline(&vs, |_| {});
    let vb: Vec<u8> = half(0.25).iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let format = sys::DXGI_FORMAT_D32_FLOAT;
    for (pattern, want) in [(None, 6), (Some(&[(-8i8, -8i8)][..]), 10), (Some(&[(-8, -8), (4, 4)][..]), 6)] {
        let mut d = cleared(format, 1.0);
        let mut call = simple_call((&vs, None, Some(&ps)), &p, TRI, vec![0, 1, 2], &vb, (4, 4));
        call.sample_positions = pattern;
        let st = {
            let lent_d = Lent::new(&mut d);
            let mut ds = ds_target(format, &lent_d, None);
            draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &Ps, &mut [], Some(&mut ds), &mut [])
                .expect("draws")
        };
        assert_eq!(st.samples_passed, want, "{pattern:?}");
        let written = (0..16).filter(|i| d[i * 4..i * 4 + 4] == 0.25f32.to_le_bytes()).count() as u64;
        assert_eq!(written, want, "{pattern:?}");
    }
}

#[test]
fn msaa_depth_is_written_per_covered_sample_under_the_sample_mask() {
    // 4x on a 4x4 D32 buffer (64 bytes per sample): the half triangle's hypotenuse is
    // x + y = 4 on screen; pixel (x, y)'s samples lie at x + y + 1 + (−0.5, 0.25, −0.25, 0.5)
    // on that axis, so x + y ≤ 2 covers all four, x + y = 3 samples 0 and 2, the rest none.
    // SampleMask 0b0011 keeps samples 0 and 1: sample 0 on the 10 pixels x + y ≤ 3, sample
    // 1 on the 6 with x + y ≤ 2; 16 samples pass (ALWAYS) and store depth 0.
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| {
        p.sample_count = 4;
        p.sample_mask = 0b0011;
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
    });
    let mut d = cleared(sys::DXGI_FORMAT_D32_FLOAT, 1.0).repeat(4);
    let stats = {
        let lent_d = Lent::new(&mut d);
        let mut ds = ds_target(sys::DXGI_FORMAT_D32_FLOAT, &lent_d, None);
        ds.depth.row_pitch = 16;
        ds.depth.sample_stride = 64;
        run_draw(&p, TRI, &half(0.0), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0)
    };
    assert_eq!(stats.samples_passed, 16);
    for s in 0..4 {
        for i in 0..16 {
            let (x, y) = (i % 4, i / 4);
            let hit = (s == 0 && x + y <= 3) || (s == 1 && x + y <= 2);
            let at = 64 * s + 4 * i;
            let got = f32::from_le_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]);
            assert_eq!(got, if hit { 0.0 } else { 1.0 }, "sample {s} pixel ({x}, {y})");
        }
    }
}

/// `clip.vert` (quad.vert plus gl_ClipDistance[0] = color.x, [1] = color.y,
/// gl_CullDistance[0] = color.z) over a triangle covering an 8x8 target. Distance 0 is
/// 4 − x on screen, so the pixels with centers left of x = 4 stay: 32. A cull distance
/// negative at every vertex drops the triangle; negative at two of three, it stays whole.
#[test]
fn clip_distances_cut_and_cull_distances_drop_triangles() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/clip.vs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
    let p = quad_pipeline();
    let run = |cull: [f32; 3]| {
        // Screen corners (0, 0), (16, 0), (0, 16) of an 8x8 viewport.
        let corners = [(0.0f32, 0.0f32), (16.0, 0.0), (0.0, 16.0)];
        let vb: Vec<u8> = corners
            .iter()
            .zip(cull)
            .flat_map(|(&(x, y), c)| [x / 4.0 - 1.0, 1.0 - y / 4.0, 4.0 - x, 1.0, c, 1.0])
            .flat_map(f32::to_le_bytes)
            .collect();
        let tl = input_assembler::Topology::TriangleList;
        let call = simple_call((&vs, None, Some(&ps)), &p, tl, vec![0, 1, 2], &vb, (8, 8));
        let mut rt = vec![0u8; 8 * 8 * 4];
        let st = {
            let lent_rt = Lent::new(&mut rt);
            let mut targets = [Some(rgba8(&lent_rt, 8, 8))];
            draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
        };
        let drawn: Vec<(usize, usize)> = (0..64).filter(|i| rt[4 * i + 3] != 0).map(|i| (i % 8, i / 8)).collect();
        (drawn, st)
    };
    let (drawn, st) = run([1.0, 1.0, 1.0]);
    assert_eq!(drawn.len(), 32);
    assert!(drawn.iter().all(|&(x, _)| x < 4), "{drawn:?}");
    // The cut leaves the quadrilateral (0, 0) (4, 0) (4, 12) (0, 16): two pieces.
    assert_eq!((st.c_invocations, st.c_primitives), (1, 2));
    let (drawn, st) = run([-1.0, -2.0, -0.5]);
    assert!(drawn.is_empty());
    assert_eq!((st.c_invocations, st.c_primitives, st.ps_invocations), (1, 0, 0));
    let (drawn, _) = run([-1.0, -2.0, 0.5]);
    assert_eq!(drawn.len(), 32);
}

/// Stream output of `quad.vert` (outputs v_color = the vertex color, SV_Position =
/// (pos, 0, 1)) over a 4-vertex triangle strip, assembled as (0, 1, 2) and (1, 3, 2).
/// Slot 0 takes SV_Position.xyzw (stride 16) and has room for one triangle after its
/// BufferFilledSize of 4; slot 1 takes TEXCOORD0.yz, a one-component gap, TEXCOORD0.x
/// (stride 20, the last 4 bytes of each vertex untouched). The second triangle fits slot 1
/// but not slot 0, so it is written nowhere: 1 written, 2 needed. With RasterizedStream
/// NO_RASTERIZED_STREAM the target stays as it was.
#[test]
fn stream_output_appends_whole_primitives_at_the_filled_size_of_every_slot() {
    use rd3d12_core::pipeline::{SoEntry, StreamOutput};
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
    let mut p = quad_pipeline();
    let entry = |name: Option<&str>, start: u8, count: u8, slot: u8| SoEntry {
        stream: 0,
        semantic_name: name.map(str::to_string),
        semantic_index: 0,
        start_component: start,
        component_count: count,
        output_slot: slot,
    };
    p.stream_output = StreamOutput {
        entries: vec![
            entry(Some("SV_Position"), 0, 4, 0),
            entry(Some("TEXCOORD"), 1, 2, 1),
            entry(None, 0, 1, 1),
            entry(Some("texcoord"), 0, 1, 1),
        ],
        strides: vec![16, 20],
        rasterized_stream: sys::D3D12_SO_NO_RASTERIZED_STREAM,
    };
    let verts: Vec<[f32; 6]> =
        (0..4).map(|k| k as f32).map(|k| [k * 0.25 - 0.5, 0.5 - k * 0.25, k, 10.0 + k, 20.0 + k, 30.0 + k]).collect();
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let strip = input_assembler::Topology::TriangleStrip;
    let call = simple_call((&vs, None, Some(&ps)), &p, strip, vec![0, 1, 2, 3], &vb, (8, 8));
    let (mut slot0, mut slot1) = (vec![0xAAu8; 4 + 48 + 4], vec![0xBBu8; 200]);
    let mut rt = vec![7u8; 8 * 8 * 4];
    let stats = {
        let mut so = [Some(SoBuffer { data: &mut slot0, filled: 4 }), Some(SoBuffer { data: &mut slot1, filled: 0 })];
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(rgba8(&lent_rt, 8, 8))];
        let st = draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut so).expect("draws");
        assert_eq!(so[0].as_ref().map(|b| b.filled), Some(52));
        assert_eq!(so[1].as_ref().map(|b| b.filled), Some(60));
        st
    };
    assert_eq!((stats.so_written, stats.so_needed), ([1, 0, 0, 0], [2, 0, 0, 0]));
    assert_eq!((stats.c_invocations, stats.ps_invocations), (0, 0));
    assert!(rt.iter().all(|&b| b == 7), "nothing is rasterized");
    let f32s = |b: &[u8]| b.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect::<Vec<_>>();
    assert_eq!(&slot0[..4], &[0xAA; 4]);
    assert_eq!(&slot0[52..], &[0xAA; 4]);
    let pos = |k: usize| [verts[k][0], verts[k][1], 0.0, 1.0];
    assert_eq!(f32s(&slot0[4..52]), [pos(0), pos(1), pos(2)].concat());
    for (v, &k) in [0usize, 1, 2].iter().enumerate() {
        let at = 20 * v;
        assert_eq!(f32s(&slot1[at..at + 8]), [verts[k][3], verts[k][4]], "vertex {v}");
        assert_eq!(&slot1[at + 8..at + 12], &[0xBB; 4], "the gap of vertex {v}");
        assert_eq!(f32s(&slot1[at + 12..at + 16]), [verts[k][2]], "vertex {v}");
        assert_eq!(&slot1[at + 16..at + 20], &[0xBB; 4], "past the declaration, vertex {v}");
    }
    assert!(slot1[60..].iter().all(|&b| b == 0xBB));
}

/// Draws `tris` (screen-space corners) on a 2x2, 4x RGBA32F target with `vs` (position
/// float2 at TEXCOORD0, color float4 at TEXCOORD1: the corner's screen x and y) and `ps`;
/// returns each sample's color, indexed [sample][pixel], and the statistics.
fn msaa_float_draw(vs: &[u8], ps: &[u8], tris: &[[f32; 2]]) -> (Vec<Vec<[f32; 4]>>, DrawStats) {
    msaa_float_draw_with(vs, ps, tris, |_| {})
}

/// [`msaa_float_draw`] with the pipeline changed by `edit`.
fn msaa_float_draw_with(
    vs: &[u8],
    ps: &[u8],
    tris: &[[f32; 2]],
    edit: impl Fn(&mut PipelineDesc),
) -> (Vec<Vec<[f32; 4]>>, DrawStats) {
    let (vs, ps) = (program(vs), program(ps));
    let mut p = quad_pipeline();
    p.sample_count = 4;
    p.rtv_formats[0] = sys::DXGI_FORMAT_R32G32B32A32_FLOAT.0;
    edit(&mut p);
    let vb: Vec<u8> =
        tris.iter().flat_map(|&[x, y]| [x - 1.0, 1.0 - y, x, y, 0.0, 1.0]).flat_map(|f: f32| f.to_le_bytes()).collect();
    let tl = input_assembler::Topology::TriangleList;
    let call = simple_call((&vs, None, Some(&ps)), &p, tl, (0..tris.len() as u32).collect(), &vb, (2, 2));
    let mut rt = vec![0u8; 4 * 64];
    let stats = {
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(Target {
            data: &lent_rt,
            row_pitch: 32,
            width: 2,
            height: 2,
            format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
            sample_stride: 64,
            layers: 1,
            layer_stride: 0,
        })];
        draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
    };
    let f = |at: usize| f32::from_le_bytes([rt[at], rt[at + 1], rt[at + 2], rt[at + 3]]);
    let colors =
        (0..4).map(|s| (0..4).map(|i| std::array::from_fn(|c| f(64 * s + 16 * i + 4 * c))).collect()).collect();
    (colors, stats)
}

fn close(a: [f32; 4], b: [f32; 4]) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-4)
}

/// `persample.frag` (a `sample in` color, gl_SampleID): the shader runs once per covered
/// sample, sees its index and gets the color interpolated at the sample; a triangle over
/// the whole 2x2 target makes 16 invocations, each sample its own value.
#[test]
fn a_shader_with_sample_inputs_runs_once_per_sample_at_the_samples_position() {
    let (got, stats) = msaa_float_draw(
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")),
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/persample.ps.dxil")),
        &[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]],
    );
    assert_eq!(stats.ps_invocations, 16);
    let pattern = rd3d12_core::multisample::standard_sample_positions(4).unwrap();
    for (s, &(dx, dy)) in pattern.iter().enumerate() {
        for (i, &px) in got[s].iter().enumerate() {
            let (x, y) = ((i % 2) as f32, (i / 2) as f32);
            let want = [x + 0.5 + f32::from(dx) / 16.0, y + 0.5 + f32::from(dy) / 16.0, s as f32 * 0.25, 1.0];
            assert!(close(px, want), "sample {s} pixel {i}: {px:?}, expected {want:?}");
        }
    }
}

/// `eval.frag` with `pass2.vert`: interpolateAtOffset(0.25, -0.125) is EvalSnapped (4, -2)
/// sixteenths, interpolateAtSample(1) sample 1 at (6, -2)/16, interpolateAtCentroid and a
/// `centroid in` the centroid. Pixel (0, 0) is cut by the edge x = 0.45: samples 0 and 2
/// (x 0.375 and 0.125) are in, 1 and 3 (0.875, 0.625) and the center out, so the centroid
/// is sample 0; a pixel the triangle covers whole has its centroid at the center.
#[test]
fn eval_operations_and_centroid_inputs_interpolate_where_the_docs_say() {
    let (got, stats) = msaa_float_draw(
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/pass2.vs.dxil")),
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/eval.ps.dxil")),
        &[[-4.0, -4.0], [0.45, -4.0], [0.45, 10.0]],
    );
    assert_eq!(stats.ps_invocations, 2, "pixels (0, 0) and (0, 1), once each");
    let want = [0.5 + 0.25, 0.5 + 6.0 / 16.0, 0.5 - 2.0 / 16.0, 0.5 - 2.0 / 16.0];
    for s in [0, 2] {
        assert!(close(got[s][0], want), "sample {s}: {:?}, expected {want:?}", got[s][0]);
    }
    assert_eq!(got[1][0], [0.0; 4], "sample 1 is not covered");
    let (whole, _) = msaa_float_draw(
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/pass2.vs.dxil")),
        include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/eval.ps.dxil")),
        &[[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]],
    );
    // Pixel (1, 0): x 1.5 at the center.
    assert!(close(whole[3][1], [1.75, 1.5 + 6.0 / 16.0, 1.5, 1.5]), "{:?}", whole[3][1]);
}

/// ForcedSampleCount 1 on a 4x target: the rasterizer samples the pixel center only and a
/// covered pixel gets every sample. An edge at x = 0.55 covers the centers of column 0
/// (0.5) and, at 4x, only samples 0 and 2 (x 0.375 and 0.125; 0.875 and 0.625 are out); an
/// edge at x = 0.45 covers samples 0 and 2 but no center.
#[test]
fn forced_sample_count_one_rasterizes_the_center_and_writes_every_sample() {
    let vs = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil"));
    let ps = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil"));
    let forced = |p: &mut PipelineDesc| p.rasterizer.forced_sample_count = 1;
    let edge = |x: f32| [[-4.0, -4.0], [x, -4.0], [x, 10.0]];
    // The color is the corner's (x, y, 0, 1), interpolated at the center (0.5, y + 0.5).
    let (got, stats) = msaa_float_draw_with(vs, ps, &edge(0.55), forced);
    assert_eq!(stats.ps_invocations, 2, "pixels (0, 0) and (0, 1)");
    for (s, sample) in got.iter().enumerate().take(4) {
        for (i, px) in sample.iter().enumerate() {
            let covered = i % 2 == 0;
            assert_eq!(px[3], if covered { 1.0 } else { 0.0 }, "sample {s} pixel {i}");
        }
    }
    let (normal, _) = msaa_float_draw(vs, ps, &edge(0.55));
    let covered: Vec<usize> = (0..4).filter(|&s| normal[s][0][3] == 1.0).collect();
    assert_eq!(covered, [0, 2], "without ForcedSampleCount only samples 0 and 2");
    let (none, stats) = msaa_float_draw_with(vs, ps, &edge(0.45), forced);
    assert_eq!(stats.ps_invocations, 0);
    assert!(none.iter().flatten().all(|px| *px == [0.0; 4]));
}

/// UAV-only rendering with ForcedSampleCount 4: the pixel shader runs wherever one of the 4
/// samples is covered. The half triangle covers the 6 centers with x + y < 3 and, at 4x,
/// samples 0 and 2 of the 4 pixels with x + y = 3 as well.
#[test]
fn uav_only_forced_sample_count_rasterizes_with_that_many_samples() {
    let vs = vs_program();
    let invocations = |forced: u32| {
        let p = textured_pipeline(&vs, |p| {
            p.num_render_targets = 0;
            p.rtv_formats = [0; 8];
            p.dsv_format = 0;
            p.depth_stencil.depth_enable = false;
            p.rasterizer.forced_sample_count = forced;
        });
        run_draw(&p, TRI, &half(0.0), vec![0, 1, 2], None, true, (4, 4), &mut [], None, 0).ps_invocations
    };
    assert_eq!(invocations(0), 6);
    assert_eq!(invocations(1), 6);
    assert_eq!(invocations(4), 10);
}

/// Target-independent rasterization with a single-sampled target bound: ForcedSampleCount 4
/// rasterizes with the 4x pattern and a pixel any of whose samples is covered is written to
/// the target's only sample. The edge x = 0.45 covers samples 0 and 2 (x 0.375, 0.125) of
/// column 0 but not its centers, so only ForcedSampleCount 4 shades pixels (0, 0) and (0, 1).
#[test]
fn forced_sample_count_four_on_a_single_sampled_target_writes_pixels_any_sample_covers() {
    let vs = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil"));
    let ps = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil"));
    let edge = [[-4.0, -4.0], [0.45, -4.0], [0.45, 10.0]];
    let single = |forced: u32| {
        move |p: &mut PipelineDesc| {
            p.sample_count = 1;
            p.rasterizer.forced_sample_count = forced;
        }
    };
    let (got, stats) = msaa_float_draw_with(vs, ps, &edge, single(4));
    assert_eq!(stats.ps_invocations, 2, "pixels (0, 0) and (0, 1)");
    let alpha: Vec<f32> = got[0].iter().map(|px| px[3]).collect();
    assert_eq!(alpha, [1.0, 0.0, 1.0, 0.0], "the single sample of column 0");
    assert!(got[1..].iter().flatten().all(|px| *px == [0.0; 4]), "no sample past the target's one: {got:?}");
    let (none, stats) = msaa_float_draw_with(vs, ps, &edge, single(0));
    assert_eq!(stats.ps_invocations, 0, "one sample at the center: nothing covered");
    assert!(none.iter().flatten().all(|px| *px == [0.0; 4]));
}

#[test]
fn alpha_to_coverage_keeps_the_first_round_alpha_n_samples() {
    assert_eq!(alpha_coverage(0.0, 4), 0);
    assert_eq!(alpha_coverage(0.3, 4), 0b0001);
    assert_eq!(alpha_coverage(0.5, 4), 0b0011);
    assert_eq!(alpha_coverage(1.0, 4), 0b1111);
    assert_eq!(alpha_coverage(f32::NAN, 8), 0);
    assert_eq!(alpha_coverage(0.5, 1), 1);
    assert_eq!(alpha_coverage(2.0, 16), 0xFFFF);
}

#[test]
fn a_triangle_with_a_vertex_behind_the_eye_gets_the_bias_of_its_clipped_part() {
    // raster's a_triangle_behind_the_eye_has_the_depth_plane_of_its_clipped_part: slope
    // 1/64 per pixel, largest clipped z 1. On D32_FLOAT, DepthBias 1 is 2^(0 - 23) and
    // SlopeScaledDepthBias 2 adds 2/64 (it was no bias at all, as if w <= 0 had no plane).
    let mut rt = textured_pipeline(&vs_program(), |_| {}).rasterizer;
    rt.depth_bias = 1;
    rt.slope_scaled_depth_bias = 2.0;
    rt.depth_bias_clamp = 0.0;
    let st = TriangleState {
        cull: Cull::None,
        front_ccw: false,
        depth_clip: true,
        viewport: Viewport { x: 0.0, y: 0.0, width: 16.0, height: 16.0, min_depth: 0.0, max_depth: 1.0 },
        bounds: Rect { left: 0, top: 0, right: 16, bottom: 16 },
        samples: rd3d12_core::multisample::standard_sample_positions(1).unwrap(),
    };
    let tri = [[-1.0, 1.0, 0.25, 1.0], [1.0, 1.0, 0.5, 1.0], [0.0, -3.0, -0.375, -1.0]];
    let b = triangle_depth_bias(&tri, &[], &st, &rt, Some(sys::DXGI_FORMAT_D32_FLOAT));
    assert_eq!(b, (2.0f32).powi(-23) + 2.0 / 64.0);
}

#[test]
fn depth_bias_moves_the_tested_depth() {
    let vs = vs_program();
    // Constant bias on D16: 10 · 2⁻¹⁶ added to depth 0, stored floor(10·65535/65536 + 0.5)
    // = floor(10.4998) = 10 on the covered pixels (0 without bias), with ALWAYS so every
    // covered pixel writes.
    let p = textured_pipeline(&vs, |p| {
        p.rasterizer.depth_bias = 10;
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
    });
    let mut d = cleared(sys::DXGI_FORMAT_D16_UNORM, 1.0);
    {
        let lent_d = Lent::new(&mut d);
        let mut ds = ds_target(sys::DXGI_FORMAT_D16_UNORM, &lent_d, None);
        run_draw(&p, TRI, &half(0.0), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0);
    }
    for i in 0..16 {
        let want: u16 = if COVERED.contains(&i) { 10 } else { 0xFFFF };
        assert_eq!(u16::from_le_bytes([d[2 * i], d[2 * i + 1]]), want, "pixel {i}");
    }
    // Slope-scaled bias 1.0 on D32: a full-viewport triangle pair whose depth runs from 0 at
    // the left edge to 0.125 at the right edge of the 4-pixel viewport has slope 1/32 per
    // pixel; pixel x stores its center's depth (x + 0.5)/32 plus 1/32, exactly (x + 1.5)/32.
    let p = textured_pipeline(&vs, |p| {
        p.rasterizer.slope_scaled_depth_bias = 1.0;
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
    });
    // Clip z = 2d − 1 with d = 0 at x = −1 and d = 0.125 at x = 1.
    let (z0, z1) = (-1.0, 2.0 * 0.125 - 1.0);
    let quad = [
        [-1.0, 1.0, z0, 1.0, 0.0, 0.0],
        [1.0, 1.0, z1, 1.0, 1.0, 0.0],
        [-1.0, -1.0, z0, 1.0, 0.0, 1.0],
        [1.0, -1.0, z1, 1.0, 1.0, 1.0],
    ];
    let mut d = cleared(sys::DXGI_FORMAT_D32_FLOAT, 1.0);
    {
        let lent_d = Lent::new(&mut d);
        let mut ds = ds_target(sys::DXGI_FORMAT_D32_FLOAT, &lent_d, None);
        run_draw(&p, TRI, &quad, vec![0, 1, 2, 2, 1, 3], None, false, (4, 4), &mut [], Some(&mut ds), 0);
    }
    for i in 0..16 {
        let x = (i % 4) as f32;
        let got = f32::from_le_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
        assert_eq!(got, (x + 1.5) / 32.0, "pixel {i}");
    }
}

/// The pixel stage of `lod.ps`: CalculateLOD on a 4x4 texture of 3 mips, point sampler.
struct LodPs;
impl Bindings for LodPs {
    fn calculate_lod(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 3],
        ddx: [f32; 3],
        ddy: [f32; 3],
        clamped: bool,
    ) -> f32 {
        assert_eq!((texture, sampler), ((0, 0), (0, 0)));
        let bytes = vec![0u8; 4 * (16 + 4 + 1)];
        let subs = [
            crate::sample::SubresourceBytes { offset: 0, row_pitch: 16, depth_pitch: 64 },
            crate::sample::SubresourceBytes { offset: 64, row_pitch: 8, depth_pitch: 16 },
            crate::sample::SubresourceBytes { offset: 80, row_pitch: 4, depth_pitch: 4 },
        ];
        let t = crate::sample::MemoryTexels {
            bytes: &bytes,
            format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
            size: (4, 4, 1),
            mips: 3,
            array_size: 1,
            subresources: &subs,
        };
        let view = crate::sample::View::whole(crate::sample::Dim::Tex2D, &t);
        let s = crate::sample::Sampler::from_desc(&rd3d12_core::descriptor::SamplerDesc {
            filter: 0,
            address: [1, 1, 1],
            mip_lod_bias: 0.0,
            max_anisotropy: 1,
            comparison_func: 0,
            border: [0; 4],
            min_lod: 0.0,
            max_lod: f32::MAX,
            flags: 0,
        });
        let c = [coords[0], coords[1], coords[2], 0.0];
        let (lod, unclamped) = crate::sample::calculate_lod(&t, &view, &s, c, ddx, ddy);
        if clamped {
            lod
        } else {
            unclamped
        }
    }
}

#[test]
fn calculate_lod_takes_the_quads_derivatives() {
    // uv runs from 0 to 1 over the 16 pixels of each axis: 1/16 per pixel, a quarter texel
    // of the 4x4 texture, so the unclamped LOD is log2(1/4) = -2 and the clamped LOD 0.
    // lod.ps writes (clamped, unclamped, 0, 1) to an RGBA32F target.
    let vs = vs_program();
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/lod.ps.dxil")));
    let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
    let quad: [[f32; 6]; 4] = [
        [-1.0, 1.0, 0.0, 1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0, 1.0, 1.0, 0.0],
        [-1.0, -1.0, 0.0, 1.0, 0.0, 1.0],
        [1.0, -1.0, 0.0, 1.0, 1.0, 1.0],
    ];
    let vb: Vec<u8> = quad.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let call = simple_call((&vs, None, Some(&ps)), &p, TRI, vec![0, 1, 2, 2, 1, 3], &vb, (16, 16));
    let mut rt = vec![0u8; 16 * 16 * 16];
    let stats = {
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(Target {
            data: &lent_rt,
            row_pitch: 256,
            width: 16,
            height: 16,
            format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
            sample_stride: 0,
            layers: 1,
            layer_stride: 0,
        })];
        draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &LodPs, &mut targets, None, &mut []).expect("draws")
    };
    assert_eq!(stats.pixels_written, 256);
    for (i, px) in rt.chunks(16).enumerate() {
        let v: Vec<f32> = px.chunks(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert_eq!((v[0], v[2], v[3]), (0.0, 0.0, 1.0), "pixel {i}");
        assert!((v[1] + 2.0).abs() < 1e-4, "pixel {i}: unclamped LOD {}", v[1]);
    }
}

/// count.ps's bindings: an atomic add on u1 counted here.
struct Counting(std::sync::atomic::AtomicU32);
impl Bindings for Counting {
    fn atomic(&self, uav: (u32, u32), op: u32, _: [i32; 3], value: u32) -> u32 {
        assert_eq!((uav, op), ((0, 1), 0));
        self.0.fetch_add(value, std::sync::atomic::Ordering::Relaxed)
    }
}

#[test]
fn helper_lanes_write_no_uav() {
    // The half triangle covers 6 pixels of the 4x4 target in three quads: (0,0) with its 4
    // pixels, (2,0) with 1 and (0,2) with 1, so 6 helper lanes run beside them. count.ps adds
    // 1 to u1 per invocation: only the 6 covered pixels count.
    let vs = vs_program();
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/count.ps.dxil")));
    let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
    let verts = half(0.5);
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let call = simple_call((&vs, None, Some(&ps)), &p, TRI, vec![0, 1, 2], &vb, (4, 4));
    let counting = Counting(std::sync::atomic::AtomicU32::new(0));
    let stats =
        draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &counting, &mut [], None, &mut []).expect("draws");
    assert_eq!(stats.ps_invocations, 6);
    assert_eq!(counting.0.load(std::sync::atomic::Ordering::Relaxed), 6);
}

#[test]
fn unorm_depth_compares_in_the_buffers_precision() {
    // Stored 0.25; incoming 0.250001. EQUAL passes on D16 (both 16384: 0.250001·65535 =
    // 16383.82 rounds to 16384) but not on D32_FLOAT, which keeps the difference.
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_EQUAL.0);
    for (format, passed) in [(sys::DXGI_FORMAT_D16_UNORM, 6), (sys::DXGI_FORMAT_D32_FLOAT, 0)] {
        let mut d = cleared(format, 0.25);
        let lent_d = Lent::new(&mut d);
        let mut ds = ds_target(format, &lent_d, None);
        let st = run_draw(&p, TRI, &half(0.250001), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 0);
        assert_eq!(st.samples_passed, passed, "{format:?}");
    }
}

#[test]
fn stencil_ops_follow_the_stencil_and_depth_results_with_the_write_mask() {
    // D24S8; stencil: row 0 holds 5, the rest 3; depth 1.0 except pixel (1,0) at 0.0.
    // Front face: EQUAL to ref 5, pass INCR_SAT, depth-fail DECR, fail INVERT, write mask
    // 0x0F. Drawn at depth 0.5 with LESS:
    //   (0,0), (2,0): 5 == 5, 0.5 < 1 → 6, depth 0.5 (0x800000);
    //   (1,0): 5 == 5, 0.5 < 0 fails → 4, depth stays 0;
    //   (0,1), (1,1), (0,2): 3 != 5 → (3 & 0xF0) | (!3 & 0x0F) = 0x0C, depth stays 1.0.
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| {
        p.depth_stencil.stencil_enable = true;
        p.depth_stencil.front = rd3d12_core::pipeline::StencilFace {
            fail: sys::D3D12_STENCIL_OP_INVERT.0,
            depth_fail: sys::D3D12_STENCIL_OP_DECR.0,
            pass: sys::D3D12_STENCIL_OP_INCR_SAT.0,
            func: sys::D3D12_COMPARISON_FUNC_EQUAL.0,
            read_mask: 0xFF,
            write_mask: 0x0F,
        };
        // The back face would zero everything: the triangle is front-facing.
        p.depth_stencil.back.func = sys::D3D12_COMPARISON_FUNC_NEVER.0;
        p.depth_stencil.back.fail = sys::D3D12_STENCIL_OP_ZERO.0;
    });
    let format = sys::DXGI_FORMAT_D24_UNORM_S8_UINT;
    let mut d = cleared(format, 1.0);
    d[4..8].copy_from_slice(&[0, 0, 0, 0]);
    let mut s: Vec<u8> = (0..16).map(|i| if i < 4 { 5 } else { 3 }).collect();
    let st = {
        let lent_d = Lent::new(&mut d);
        let lent_s = Lent::new(&mut s);
        let mut ds = ds_target(format, &lent_d, Some(&lent_s));
        run_draw(&p, TRI, &half(0.5), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 5)
    };
    assert_eq!(st.samples_passed, 2);
    assert_eq!(s, [6, 4, 6, 5, 0x0C, 0x0C, 3, 3, 0x0C, 3, 3, 3, 3, 3, 3, 3]);
    let depth: Vec<u32> = d.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let one = 0x00FF_FFFF;
    assert_eq!(depth[..4], [0x80_0000, 0, 0x80_0000, one]);
    assert!(depth[4..].iter().all(|&v| v == one));
    // Wound the other way the triangle is back-facing: NEVER, fail ZERO on all 6 pixels.
    let order = vec![0, 2, 1];
    let lent_d = Lent::new(&mut d);
    let lent_s = Lent::new(&mut s);
    let mut ds = ds_target(format, &lent_d, Some(&lent_s));
    let st = run_draw(&p, TRI, &half(0.5), order, None, false, (4, 4), &mut [], Some(&mut ds), 5);
    drop((lent_d, lent_s));
    assert_eq!(st.samples_passed, 0);
    assert_eq!(s, [0, 0, 0, 5, 0, 0, 3, 3, 0, 3, 3, 3, 3, 3, 3, 3]);
}

#[test]
fn read_only_planes_are_tested_but_not_written() {
    // D32S8, depth cleared to 1.0 and stencil to 7; ALWAYS / REPLACE with ref 9 and depth
    // LESS at 0.5: writable planes take 0.5 and 9 on the 6 covered pixels; read-only ones
    // keep their bytes while the pixels still pass (and a stencil test still applies).
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| {
        p.depth_stencil.stencil_enable = true;
        p.depth_stencil.front.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
    });
    let format = sys::DXGI_FORMAT_D32_FLOAT_S8X24_UINT;
    for (ro_depth, ro_stencil) in [(false, false), (true, false), (false, true), (true, true)] {
        let mut d = cleared(format, 1.0);
        let mut s = vec![7u8; 16];
        let st = {
            let lent_d = Lent::new(&mut d);
            let lent_s = Lent::new(&mut s);
            let mut ds = ds_target(format, &lent_d, Some(&lent_s));
            ds.read_only_depth = ro_depth;
            ds.read_only_stencil = ro_stencil;
            run_draw(&p, TRI, &half(0.5), vec![0, 1, 2], None, false, (4, 4), &mut [], Some(&mut ds), 9)
        };
        assert_eq!(st.samples_passed, 6);
        for i in 0..16 {
            let z = f32::from_le_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
            let hit = COVERED.contains(&i);
            assert_eq!(z, if hit && !ro_depth { 0.5 } else { 1.0 }, "{ro_depth} {ro_stencil} {i}");
            assert_eq!(s[i], if hit && !ro_stencil { 9 } else { 7 }, "{ro_depth} {ro_stencil} {i}");
        }
    }
}

#[test]
fn shader_depth_is_clamped_to_the_viewport_depth_range() {
    // SV_Depth 0.9 through a viewport of depths [0.2, 0.6] on D16 stores 0.6:
    // floor(0.6·65535 + 0.5) = 39321 = 0x9999; -3.0 stores 0.2: 13107 = 0x3333.
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
    let vp = Viewport { x: 0.0, y: 0.0, width: 4.0, height: 4.0, min_depth: 0.2, max_depth: 0.6 };
    let mut d = cleared(sys::DXGI_FORMAT_D16_UNORM, 1.0);
    let lent_d = Lent::new(&mut d);
    let ds = ds_target(sys::DXGI_FORMAT_D16_UNORM, &lent_d, None);
    let kind = DepthKind::of(ds.format);
    assert!(depth_write((&ds, kind), &p, &vp, (1, 0, 0, 0), 0.9, true, 0));
    assert!(depth_write((&ds, kind), &p, &vp, (2, 0, 0, 0), -3.0, true, 0));
    drop(lent_d);
    assert_eq!(d[..8], [0xFF, 0xFF, 0x99, 0x99, 0x33, 0x33, 0xFF, 0xFF]);
}

/// Clip-space (x, y, 0, 1) of render-target point (x, y) on an 8x8 viewport, with uv.
fn px(x: f32, y: f32, u: f32, v: f32) -> [f32; 6] {
    [x / 4.0 - 1.0, 1.0 - y / 4.0, 0.0, 1.0, u, v]
}

fn unorm8(c: f32) -> u8 {
    (c * 255.0).round() as u8
}

#[test]
fn a_cut_line_strip_draws_each_segment_half_open_with_uv_along_it() {
    // Strip 0-1-2, cut, 3-4 on an 8x8 RGBA8 target; the pixel shader writes (u, v, 0.5, 1).
    //   0→1: centers of (0,0) to (4,0): pixels (k,0), k = 0..3, at t = k/4: u = k/4, v = 0;
    //   1→2: centers of (4,0) to (4,4): pixels (4,k), k = 0..3: u = 1, v = k/4 (the shared
    //        vertex's pixel (4,0) is drawn once, by the segment it starts);
    //   3→4: centers of (0,6) to (3,6): pixels (k,6), k = 0..2: u = k/3, v = 0;
    // and nothing from 2 to 3 (the cut). 11 pixels.
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
    let verts = [
        px(0.5, 0.5, 0.0, 0.0),
        px(4.5, 0.5, 1.0, 0.0),
        px(4.5, 4.5, 1.0, 1.0),
        px(0.5, 6.5, 0.0, 0.0),
        px(3.5, 6.5, 1.0, 0.0),
    ];
    let cut = 0xFFFF_FFFF;
    let mut rt = vec![0u8; 8 * 8 * 4];
    let stats = {
        let lent_rt = Lent::new(&mut rt);
        let mut t = [Some(rgba8(&lent_rt, 8, 8))];
        let order = vec![0, 1, 2, cut, 3, 4];
        run_draw(&p, input_assembler::Topology::LineStrip, &verts, order, Some(cut), true, (8, 8), &mut t, None, 0)
    };
    assert_eq!((stats.primitives, stats.pixels_shaded, stats.pixels_written), (3, 11, 11));
    let mut want = vec![0u8; 8 * 8 * 4];
    let mut put = |x: usize, y: usize, u: f32, v: f32| {
        want[y * 32 + x * 4..y * 32 + x * 4 + 4].copy_from_slice(&[unorm8(u), unorm8(v), 128, 255])
    };
    for k in 0..4 {
        put(k, 0, k as f32 / 4.0, 0.0);
        put(4, k, 1.0, k as f32 / 4.0);
    }
    for k in 0..3 {
        put(k, 6, k as f32 / 3.0, 0.0);
    }
    assert_eq!(rt, want);
}

#[test]
fn a_point_list_shades_one_pixel_per_point_with_its_vertex_values() {
    // (1.5, 2.5) → pixel (1,2); (6.0, 3.0) → square [5.5, 6.5) x [2.5, 3.5) → (5,2);
    // (7.9, 7.9) → (7,7). Each point's uv reaches its pixel unchanged.
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
    let verts = [px(1.5, 2.5, 0.2, 0.6), px(6.0, 3.0, 1.0, 0.0), px(7.9, 7.9, 0.0, 1.0)];
    let mut rt = vec![0u8; 8 * 8 * 4];
    let stats = {
        let lent_rt = Lent::new(&mut rt);
        let mut t = [Some(rgba8(&lent_rt, 8, 8))];
        run_draw(&p, input_assembler::Topology::PointList, &verts, vec![0, 1, 2], None, true, (8, 8), &mut t, None, 0)
    };
    assert_eq!((stats.primitives, stats.pixels_shaded, stats.pixels_written), (3, 3, 3));
    let mut want = vec![0u8; 8 * 8 * 4];
    for (x, y, c) in [(1, 2, [51, 153, 128, 255]), (5, 2, [255, 0, 128, 255]), (7, 7, [0, 255, 128, 255])] {
        want[y * 32 + x * 4..y * 32 + x * 4 + 4].copy_from_slice(&c);
    }
    assert_eq!(rt, want);
}

#[test]
fn lines_use_the_front_face_stencil_state_and_write_depth() {
    // A line list of two lines at depth 0.5 through a D24S8 view: front face ALWAYS /
    // REPLACE with ref 3, back face NEVER (lines are always front-facing). Line 0 runs
    // along row 1 from the center of (0,1) to the center of (3,1): (0,1) (1,1) (2,1);
    // line 1 down column 3 from (3,0)'s center to (3,3)'s: (3,0) (3,1) (3,2). The 6
    // samples pass; stencil 3 and depth 0x800000 there, the clear elsewhere.
    let vs = vs_program();
    let p = textured_pipeline(&vs, |p| {
        p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_LESS_EQUAL.0;
        p.depth_stencil.stencil_enable = true;
        p.depth_stencil.front.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
        p.depth_stencil.back.func = sys::D3D12_COMPARISON_FUNC_NEVER.0;
    });
    let at = |x: f32, y: f32| [x / 2.0 - 1.0, 1.0 - y / 2.0, 0.0, 1.0, 0.0, 0.0];
    let verts = [at(0.5, 1.5), at(3.5, 1.5), at(3.5, 0.5), at(3.5, 3.5)];
    let format = sys::DXGI_FORMAT_D24_UNORM_S8_UINT;
    let mut d = cleared(format, 1.0);
    let mut s = vec![0u8; 16];
    let st = {
        let lent_d = Lent::new(&mut d);
        let lent_s = Lent::new(&mut s);
        let mut ds = ds_target(format, &lent_d, Some(&lent_s));
        let topo = input_assembler::Topology::LineList;
        run_draw(&p, topo, &verts, vec![0, 1, 2, 3], None, false, (4, 4), &mut [], Some(&mut ds), 3)
    };
    assert_eq!(st.samples_passed, 6);
    let hit = [3, 4, 5, 6, 7, 11];
    for i in 0..16 {
        let z = u32::from_le_bytes([d[4 * i], d[4 * i + 1], d[4 * i + 2], d[4 * i + 3]]);
        let h = hit.contains(&i);
        assert_eq!((s[i], z), if h { (3, 0x80_0000) } else { (0, 0xFF_FFFF) }, "pixel {i}");
    }
}

#[test]
fn pipeline_statistics_count_what_each_stage_did() {
    // An indexed triangle strip 0 1 2 3 | cut | 4 5 0 over a 4x4 target, two instances.
    // Per instance: the IA reads 7 vertices (the cut is none) and assembles 3 triangles;
    // vertex 0 comes twice but is shaded once: 6 VS invocations; all 3 reach the
    // rasterizer; the quad's two triangles are rendered but 4-5-0 (three copies of one
    // position) is degenerate: 2; the quad covers all 16 pixels: 16 PS invocations.
    let vs = vs_program();
    let ps =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil")));
    let p = textured_pipeline(&vs, |p| p.depth_stencil.depth_enable = false);
    let corner = |x: f32, y: f32| [x, y, 0.0, 1.0, 0.0, 0.0];
    let verts = [
        corner(-1.0, 1.0),
        corner(1.0, 1.0),
        corner(-1.0, -1.0),
        corner(1.0, -1.0),
        corner(-1.0, 1.0),
        corner(-1.0, 1.0),
    ];
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let cut = 0xFFFF_FFFF;
    let mut call = simple_call(
        (&vs, None, Some(&ps)),
        &p,
        input_assembler::Topology::TriangleStrip,
        vec![0, 1, 2, 3, cut, 4, 5, 0],
        &vb,
        (4, 4),
    );
    call.cut = Some(cut);
    call.instances = 2;
    let mut rt = vec![0u8; 4 * 4 * 4];
    let lent_rt = Lent::new(&mut rt);
    let mut targets = [Some(rgba8(&lent_rt, 4, 4))];
    let st = draw(&call, &Vs { mvp_cols: IDENTITY, flip: 1.0 }, &Ps, &Ps, &mut targets, None, &mut []).expect("draws");
    assert_eq!(
        st,
        DrawStats {
            ia_vertices: 14,
            vertices_shaded: 12,
            primitives: 6,
            hs_invocations: 0,
            ds_invocations: 0,
            gs_invocations: 0,
            gs_primitives: 0,
            c_invocations: 6,
            c_primitives: 4,
            ps_invocations: 32,
            pixels_shaded: 32,
            pixels_written: 32,
            samples_passed: 32,
            so_written: [0; 4],
            so_needed: [0; 4],
        }
    );
}

/// The pipeline of the spirv2dxil quad shaders: TEXCOORD0 position (float2), TEXCOORD1
/// color (float4) in 24-byte vertices, no culling, no depth test.
fn quad_pipeline() -> PipelineDesc {
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout = vec![
        element("TEXCOORD", 0, sys::DXGI_FORMAT_R32G32_FLOAT, 0),
        element("TEXCOORD", 1, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 8),
    ];
    p.rasterizer.cull = 1;
    p.depth_stencil.depth_enable = false;
    p
}

/// Draws `points` ((x, y) in clip space, then an RGBA color) as `topology` on an 8x8 RGBA8
/// target through quad.vs.dxil, the geometry shader `gs` and the pixel shader `ps`.
fn gs_draw(
    gs: &rd3d12_shader::dxil::Program,
    ps: &rd3d12_shader::dxil::Program,
    topology: input_assembler::Topology,
    points: &[[f32; 6]],
) -> (Vec<u8>, DrawStats) {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let p = quad_pipeline();
    let vb: Vec<u8> = points.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let call = simple_call((&vs, Some(gs), Some(ps)), &p, topology, (0..points.len() as u32).collect(), &vb, (8, 8));
    let mut rt = vec![0u8; 8 * 8 * 4];
    let st = {
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(rgba8(&lent_rt, 8, 8))];
        draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws")
    };
    (rt, st)
}

/// stencil.frag writes `int(color.r * 255 + 0.5)` to SV_StencilRef: with REPLACE, the
/// covered pixels of a 4x4 D24S8 target get 51 for a red of 0.2, not OMSetStencilRef's 9.
#[test]
fn a_pixel_shaders_stencil_ref_replaces_the_pipelines() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/stencil.ps.dxil")));
    let mut p = quad_pipeline();
    p.depth_stencil.stencil_enable = true;
    p.depth_stencil.front.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
    p.depth_stencil.back.pass = sys::D3D12_STENCIL_OP_REPLACE.0;
    // The upper-left half of the target: pixels with x + y < 3.
    let verts: [[f32; 6]; 3] =
        [[-1.0, 1.0, 0.2, 0.4, 0.6, 1.0], [1.0, 1.0, 0.2, 0.4, 0.6, 1.0], [-1.0, -1.0, 0.2, 0.4, 0.6, 1.0]];
    let vb: Vec<u8> = verts.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let mut call =
        simple_call((&vs, None, Some(&ps)), &p, input_assembler::Topology::TriangleList, vec![0, 1, 2], &vb, (4, 4));
    call.stencil_ref = 9;
    let format = sys::DXGI_FORMAT_D24_UNORM_S8_UINT;
    let mut d = cleared(format, 1.0);
    let mut st = vec![3u8; 16];
    {
        let lent_d = Lent::new(&mut d);
        let lent_st = Lent::new(&mut st);
        let mut ds = ds_target(format, &lent_d, Some(&lent_st));
        draw(&call, &Ps, &Ps, &Ps, &mut [], Some(&mut ds), &mut []).expect("draws");
    }
    for (i, &v) in st.iter().enumerate() {
        let (x, y) = (i % 4, i / 4);
        assert_eq!(v, if x + y < 3 { 51 } else { 3 }, "pixel ({x}, {y})");
    }
}

#[test]
fn quad_order_equals_a_stable_sort_by_quad() {
    let frag = |x: i32, y: i32| raster::Fragment {
        x,
        y,
        depth: 0.0,
        coverage: 1,
        sample_depth: [0.0; raster::MAX_SAMPLES],
        persp: [0.0; 3],
        linear: [0.0; 3],
        front_facing: true,
    };
    // Pseudo-random pixel sets: rows with gaps, quads with only a bottom row, odd widths,
    // in raster order and shuffled (as clipped polygons and lines give them).
    let mut seed = 7u32;
    let mut next = || {
        seed = seed.wrapping_mul(1103515245).wrapping_add(12345);
        seed >> 16
    };
    for case in 0..200 {
        let mut pixels: Vec<(i32, i32)> =
            (0..40).map(|_| ((next() % 13) as i32 - 2, (next() % 9) as i32 - 3)).collect();
        pixels.sort_unstable_by_key(|&(x, y)| (y, x));
        pixels.dedup();
        if case % 2 == 1 {
            pixels.reverse();
            let mid = pixels.len() / 2;
            pixels.swap(0, mid);
        }
        let mut frags: Vec<raster::Fragment> = pixels.iter().map(|&(x, y)| frag(x, y)).collect();
        let mut want = frags.clone();
        want.sort_by_key(|f| (f.y, f.x));
        want.sort_by_key(|f| (f.y & !1, f.x & !1));
        let mut quads = Vec::new();
        quad_order(&mut frags, &mut quads);
        // Each quad's pixels at their places, read in place order: the stable sort's order.
        for q in &quads {
            let first = q.iter().find(|&&k| k != NONE).map(|&k| &frags[k as usize]).expect("a pixel");
            for (place, &k) in q.iter().enumerate() {
                if let Some(f) = frags.get(k as usize) {
                    assert_eq!(((f.x & 1) | (f.y & 1) << 1) as usize, place, "case {case}");
                    assert_eq!((f.x & !1, f.y & !1), (first.x & !1, first.y & !1), "case {case}");
                }
            }
        }
        let order: Vec<(i32, i32)> =
            quads.iter().flatten().filter_map(|&k| frags.get(k as usize)).map(|f| (f.x, f.y)).collect();
        let want: Vec<(i32, i32)> = want.iter().map(|f| (f.x, f.y)).collect();
        assert_eq!(order, want, "case {case}");
    }
}

#[test]
fn geometry_shaders_of_more_than_32_instances_are_refused_not_run() {
    // D3D's [instance(n)] is at most 32; a malformed state asking for more is refused
    // rather than run four billion times.
    let mut gs =
        program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.gs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
    if let Some(s) = gs.dx.entry_points[0].gs.as_mut() {
        s.instance_count = u32::MAX;
    }
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let p = PipelineDesc::new(PipelineKind::Graphics);
    let vb = [0u8; 24];
    let call = simple_call((&vs, Some(&gs), Some(&ps)), &p, input_assembler::Topology::PointList, vec![0], &vb, (8, 8));
    let r = draw(&call, &Ps, &Ps, &Ps, &mut [], None, &mut []);
    assert!(matches!(r, Err(DrawError::Unsupported(_))));
}

/// `dual.frag` writes the color to SV_Target0 and (0.5, 0.25, 1.0, 0.75) to SV_Target1:
/// with SRC1_COLOR / INV_SRC1_ALPHA (color) and ONE / SRC1_ALPHA (alpha) over a float
/// target holding (0.5, 0.25, 1.0, 0.5), a (0.25, 0.5, 0.75, 1.0) triangle stores
/// rgb = src·src1 + dst·(1 − 0.75) = (0.25, 0.1875, 1.0) and a = 1 + 0.5·0.75 = 1.375.
#[test]
fn dual_source_blending_reads_the_second_output() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/dual.ps.dxil")));
    let mut p = quad_pipeline();
    p.rtv_formats[0] = sys::DXGI_FORMAT_R32G32B32A32_FLOAT.0;
    let rt0 = &mut p.blend.rt[0];
    rt0.blend_enable = true;
    (rt0.src, rt0.dest, rt0.op) = (sys::D3D12_BLEND_SRC1_COLOR.0, sys::D3D12_BLEND_INV_SRC1_ALPHA.0, 1);
    (rt0.src_alpha, rt0.dest_alpha, rt0.op_alpha) = (sys::D3D12_BLEND_ONE.0, sys::D3D12_BLEND_SRC1_ALPHA.0, 1);
    let c = [0.25f32, 0.5, 0.75, 1.0];
    let tri: Vec<[f32; 6]> =
        [[-1.0, -1.0], [3.0, -1.0], [-1.0, 3.0]].iter().map(|&[x, y]| [x, y, c[0], c[1], c[2], c[3]]).collect();
    let vb: Vec<u8> = tri.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let tl = input_assembler::Topology::TriangleList;
    let call = simple_call((&vs, None, Some(&ps)), &p, tl, vec![0, 1, 2], &vb, (2, 2));
    let mut rt: Vec<u8> = [0.5f32, 0.25, 1.0, 0.5].repeat(4).iter().flat_map(|f| f.to_le_bytes()).collect();
    {
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(Target {
            data: &lent_rt,
            row_pitch: 32,
            width: 2,
            height: 2,
            format: sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
            sample_stride: 0,
            layers: 1,
            layer_stride: 0,
        })];
        draw(&call, &Ps, &Ps, &Ps, &mut targets, None, &mut []).expect("draws");
    }
    let got: Vec<f32> = rt.chunks(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    assert_eq!(got, [0.25, 0.1875, 1.0, 1.375].repeat(4));
}

/// `layer.geom` runs twice per triangle; instance i writes gl_Layer = gl_ViewportIndex = i
/// and halves the color for i = 1. A triangle over an 8x8, 2-slice target: slice 0 is
/// covered through viewport 0 (the whole target), slice 1 only inside viewport 1 (x 4..8,
/// y 0..4) with the halved color; the depth buffer's slices follow.
#[test]
fn a_geometry_shader_picks_slice_and_viewport_per_primitive() {
    let vs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.vs.dxil")));
    let gs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/layer.gs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
    let mut p = quad_pipeline();
    let tri: [[f32; 6]; 3] =
        [[-1.0, -1.0, 1.0, 0.5, 0.25, 1.0], [3.0, -1.0, 1.0, 0.5, 0.25, 1.0], [-1.0, 3.0, 1.0, 0.5, 0.25, 1.0]];
    let vb: Vec<u8> = tri.iter().flatten().flat_map(|f| f.to_le_bytes()).collect();
    let tl = input_assembler::Topology::TriangleList;
    let viewport1 = Viewport { x: 4.0, y: 0.0, width: 4.0, height: 4.0, min_depth: 0.0, max_depth: 1.0 };
    p.depth_stencil.depth_enable = true;
    p.depth_stencil.func = sys::D3D12_COMPARISON_FUNC_ALWAYS.0;
    let call = simple_call((&vs, Some(&gs), Some(&ps)), &p, tl, vec![0, 1, 2], &vb, (8, 8));
    let call = DrawCall { viewports: [call.viewports.clone(), vec![viewport1]].concat(), ..call };
    let mut rt = vec![0u8; 2 * 8 * 8 * 4];
    // A 2-slice D32_FLOAT buffer cleared to 1.0: the triangle (z = 0) writes 0.0 where it
    // is drawn, in the slice it is drawn into.
    let mut depth = 1.0f32.to_le_bytes().repeat(2 * 64);
    let st = {
        let lent_rt = Lent::new(&mut rt);
        let mut targets = [Some(Target {
            data: &lent_rt,
            row_pitch: 32,
            width: 8,
            height: 8,
            format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
            sample_stride: 0,
            layers: 2,
            layer_stride: 256,
        })];
        let lent_depth = Lent::new(&mut depth);
        let mut ds = DepthStencilTarget {
            format: sys::DXGI_FORMAT_D32_FLOAT,
            width: 8,
            height: 8,
            depth: Plane { data: &lent_depth, row_pitch: 32, sample_stride: 0, layers: 2, layer_stride: 256 },
            stencil: None,
            read_only_depth: false,
            read_only_stencil: false,
        };
        draw(&call, &Ps, &Ps, &Ps, &mut targets, Some(&mut ds), &mut []).expect("draws")
    };
    assert_eq!(st.gs_invocations, 2);
    for i in 0..64 {
        let z = |at: usize| f32::from_le_bytes([depth[at], depth[at + 1], depth[at + 2], depth[at + 3]]);
        let (x, y) = (i % 8, i / 8);
        assert_eq!(z(4 * i), 0.0, "slice 0 depth ({x}, {y})");
        assert_eq!(z(256 + 4 * i), if x >= 4 && y < 4 { 0.0 } else { 1.0 }, "slice 1 depth ({x}, {y})");
    }
    for i in 0..64 {
        let (x, y) = (i % 8, i / 8);
        assert_eq!(rt[4 * i..4 * i + 4], [255, 128, 64, 255], "slice 0 pixel ({x}, {y})");
        let want = if x >= 4 && y < 4 { [128, 64, 32, 128] } else { [0; 4] };
        assert_eq!(rt[256 + 4 * i..256 + 4 * i + 4], want, "slice 1 pixel ({x}, {y})");
    }
}

/// Mesa's quad fixtures (quad.vert, quad.geom, quad.frag): each point becomes a
/// 0.5 × 0.5 clip-space square around it, a 4-vertex triangle strip with the point's color.
#[test]
fn a_geometry_shader_turns_each_point_into_a_two_by_two_pixel_quad() {
    let gs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.gs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
    // layout(points) in; layout(triangle_strip, max_vertices = 4) out; no invocations.
    let state = rd3d12_shader::dxil::GsState {
        input_primitive: 1,
        max_vertex_count: 4,
        active_stream_mask: 1,
        output_topology: 5,
        instance_count: 1,
    };
    assert_eq!(gs.dx.entry_points[0].gs, Some(state));
    // On an 8x8 viewport one pixel is 0.25 in clip space: (-0.5, 0.5) lands on the pixel
    // corner (2, 2) and its quad covers pixels x 1..=2, y 1..=2; (0.5, -0.25) lands on
    // (6, 5), covering x 5..=6, y 4..=5.
    let (rt, st) = gs_draw(
        &gs,
        &ps,
        input_assembler::Topology::PointList,
        &[[-0.5, 0.5, 1.0, 0.0, 0.0, 1.0], [0.5, -0.25, 0.0, 0.25, 1.0, 1.0]],
    );
    assert_eq!((st.vertices_shaded, st.primitives), (2, 2));
    assert_eq!((st.gs_invocations, st.gs_primitives), (2, 4));
    // Two triangles per quad reach the rasterizer; their shared diagonal runs through pixel
    // centers, and the top-left rule gives each such pixel to one triangle only.
    assert_eq!((st.c_invocations, st.c_primitives), (4, 4));
    assert_eq!(st.pixels_written, 8);
    for y in 0..8usize {
        for x in 0..8usize {
            let want = match (x, y) {
                (1..=2, 1..=2) => [255, 0, 0, 255],
                (5..=6, 4..=5) => [0, 64, 255, 255],
                _ => [0; 4],
            };
            assert_eq!(rt[y * 32 + x * 4..y * 32 + x * 4 + 4], want, "pixel ({x}, {y})");
        }
    }
}

/// split.geom with primid.frag: two GS instances per point, each emitting two one-pixel
/// points in separate strips, with SV_PrimitiveID = 2 × input primitive + instance, which
/// the pixel shader reads back as red / 16.
#[test]
fn geometry_shader_instances_cuts_and_written_primitive_ids_reach_the_pixels() {
    let gs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/split.gs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/primid.ps.dxil")));
    assert_eq!(gs.dx.entry_points[0].gs.map(|s| (s.instance_count, s.output_topology)), Some((2, 1)));
    // Pixel centers (1, 1) and (4, 5).
    let (rt, st) = gs_draw(
        &gs,
        &ps,
        input_assembler::Topology::PointList,
        &[[-0.625, 0.625, 0.0, 0.0, 0.0, 1.0], [0.125, -0.375, 0.0, 0.0, 0.0, 1.0]],
    );
    assert_eq!((st.gs_invocations, st.gs_primitives, st.c_invocations), (4, 8, 8));
    assert_eq!(st.pixels_written, 8);
    for y in 0..8usize {
        for x in 0..8usize {
            // Primitive id 2p + i at pixel (x0 + i, y0 + k): red round(255 · id / 16).
            let id = match (x, y) {
                (1..=2, 1..=2) => Some(x - 1),
                (4..=5, 5..=6) => Some(2 + x - 4),
                _ => None,
            };
            let want = id.map_or([0; 4], |id| [[0, 16, 32, 48][id], 0, 0, 255]);
            assert_eq!(rt[y * 32 + x * 4..y * 32 + x * 4 + 4], want, "pixel ({x}, {y})");
        }
    }
}

/// adj.geom: a line list with adjacency gives the geometry shader all four vertices; it
/// emits points at the two adjacent ones only.
#[test]
fn a_geometry_shader_reads_the_adjacent_vertices_of_a_line() {
    let gs = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/adj.gs.dxil")));
    let ps = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/quad.ps.dxil")));
    assert_eq!(gs.dx.entry_points[0].gs.map(|s| s.input_primitive), Some(6));
    // Pixel centers (0, 0), (2, 2), (4, 4), (6, 6), in red, green, blue, white.
    let at = |k: f32| -1.0 + (2.0 * k + 0.5) / 4.0;
    let (a, b) = (at(0.0), at(1.0));
    let points = [
        [a, -a, 1.0, 0.0, 0.0, 1.0],
        [b, -b, 0.0, 1.0, 0.0, 1.0],
        [at(2.0), -at(2.0), 0.0, 0.0, 1.0, 1.0],
        [at(3.0), -at(3.0), 1.0, 1.0, 1.0, 1.0],
    ];
    let (rt, st) = gs_draw(&gs, &ps, input_assembler::Topology::LineListAdj, &points);
    assert_eq!((st.vertices_shaded, st.gs_invocations, st.gs_primitives), (4, 1, 2));
    for y in 0..8usize {
        for x in 0..8usize {
            let want = match (x, y) {
                (0, 0) => [255, 0, 0, 255],
                (6, 6) => [255, 255, 255, 255],
                _ => [0; 4],
            };
            assert_eq!(rt[y * 32 + x * 4..y * 32 + x * 4 + 4], want, "pixel ({x}, {y})");
        }
    }
}
