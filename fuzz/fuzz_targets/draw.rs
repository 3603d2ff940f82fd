//! Whole draws through the software pipeline with Mesa's quad shaders (quad.vs.dxil: float2
//! position and float4 color; quad.ps.dxil: the color) and whatever the input says for the
//! rest: topology, vertex positions (NaN, infinities and huge values included), indices and
//! strip cuts, instances, viewport and scissor, fill and cull modes, depth bias, sample count.
//! A draw must return, never panic (build with `-a` for overflow checks), and its counts must
//! stay consistent.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rd3d12_swgpu::draw::{self, Bindings, DrawCall, Shader, Target, Workers};
use rd3d12_swgpu::input_assembler::{Topology, VertexBuffer};
use rd3d12_core::pipeline::{InputElement, PipelineDesc, PipelineKind};
use rd3d12_swgpu::raster::{Rect, Viewport};
use rd3d12_sys as sys;
use std::sync::OnceLock;

struct Unbound;
impl Bindings for Unbound {}

/// The input as a stream of choices.
struct Cur<'a>(&'a [u8]);
impl Cur<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map(|(b, r)| (*b, r)).unwrap_or((0, &[]));
        self.0 = rest;
        b
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
    /// A float, mostly small, sometimes an edge value or raw bits.
    fn f32(&mut self) -> f32 {
        match self.byte() % 8 {
            0..=3 => (self.byte() as i8) as f32 / 32.0,
            4 => [0.0, -0.0, 1.0, -1.0, f32::NAN, f32::INFINITY, f32::NEG_INFINITY, f32::MAX][self.byte() as usize % 8],
            5 => [1e-30, -1e30, 1e30, 65536.0, -65537.5, 8.5, 0.5, f32::MIN_POSITIVE][self.byte() as usize % 8],
            6 => (self.byte() as i8) as f32 * 4.0,
            _ => f32::from_bits(self.u32()),
        }
    }
}

fn programs() -> &'static (rd3d12_shader::dxil::Program, rd3d12_shader::dxil::Program) {
    static P: OnceLock<(rd3d12_shader::dxil::Program, rd3d12_shader::dxil::Program)> = OnceLock::new();
    P.get_or_init(|| {
        let vs = rd3d12_shader::dxil::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/dxil/quad.vs.dxil")));
        let ps = rd3d12_shader::dxil::parse(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/dxil/quad.ps.dxil")));
        (vs.expect("quad.vs.dxil"), ps.expect("quad.ps.dxil"))
    })
}

fn element(index: u32, format: sys::DXGI_FORMAT, offset: u32) -> InputElement {
    InputElement {
        semantic_name: Some("TEXCOORD".into()),
        semantic_index: index,
        format: format.0,
        input_slot: 0,
        aligned_byte_offset: offset,
        slot_class: 0,
        instance_step_rate: 0,
    }
}

fuzz_target!(|data: &[u8]| {
    let (vs, ps) = programs();
    let mut c = Cur(data);
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.input_layout = vec![
        element(0, sys::DXGI_FORMAT_R32G32_FLOAT, 0),
        element(1, sys::DXGI_FORMAT_R32G32B32A32_FLOAT, 8),
    ];
    p.rasterizer.fill = 2 + u32::from(c.byte() % 2);
    p.rasterizer.cull = 1 + u32::from(c.byte() % 3);
    p.rasterizer.front_ccw = c.byte() % 2 == 1;
    p.rasterizer.depth_bias = c.u32() as i32;
    p.rasterizer.depth_bias_clamp = c.f32();
    p.rasterizer.slope_scaled_depth_bias = c.f32();
    p.rasterizer.depth_clip = c.byte() % 2 == 1;
    p.depth_stencil.depth_enable = false;
    let samples = [1u32, 2, 4, 8][usize::from(c.byte() % 4)];
    p.sample_count = samples;
    p.sample_mask = c.u32();
    let Some(topology) = Topology::from_d3d(u32::from(c.byte() % 48)) else { return };
    let n = usize::from(c.byte() % 48);
    let vb: Vec<u8> = (0..n * 6).flat_map(|_| c.f32().to_le_bytes()).collect();
    let count = usize::from(c.byte() % 64);
    let vertices: Vec<u32> = (0..count)
        .map(|_| match c.byte() {
            255 => u32::MAX,
            250..=254 => c.u32(),
            b => u32::from(b) % (n as u32).max(1),
        })
        .collect();
    let viewport = Viewport {
        x: c.f32(),
        y: c.f32(),
        width: c.f32(),
        height: c.f32(),
        min_depth: c.f32(),
        max_depth: c.f32(),
    };
    let scissors = match c.byte() % 3 {
        0 => Vec::new(),
        1 => vec![None],
        _ => vec![Some(Rect { left: c.u32() as i32, top: c.u32() as i32, right: c.u32() as i32, bottom: c.u32() as i32 })],
    };
    let shader = |p: &'static rd3d12_shader::dxil::Program| Shader { module: &p.module, entry: &p.dx.entry_points[0] };
    let call = DrawCall {
        vs: shader(vs),
        tess: None,
        gs: None,
        ps: Some(shader(ps)),
        pipeline: &p,
        topology,
        vertices,
        cut: (c.byte() % 2 == 1).then_some(u32::MAX),
        vertex_id_base: 0,
        instances: u32::from(c.byte() % 4),
        start_instance: c.u32(),
        vertex_buffers: vec![Some(VertexBuffer { data: &vb, stride: 24 })],
        viewports: vec![viewport],
        scissors,
        blend_factor: [0.0; 4],
        stencil_ref: 0,
        sample_positions: None,
        workers: Workers::process(),
    };
    let (w, h) = (8u32, 8u32);
    let plane = (w * h * 4) as usize;
    let rt = draw::Bytes::new(&vec![0u8; plane * samples as usize]);
    let mut targets = [Some(Target {
        data: &rt,
        row_pitch: (w * 4) as usize,
        width: w,
        height: h,
        format: sys::DXGI_FORMAT_R8G8B8A8_UNORM,
        sample_stride: if samples > 1 { plane } else { 0 },
        layers: 1,
        layer_stride: 0,
    })];
    if let Ok(st) = draw::draw(&call, &Unbound, &Unbound, &Unbound, &mut targets, None, &mut []) {
        assert!(st.pixels_shaded <= st.ps_invocations, "{st:?}");
        assert!(st.pixels_written <= u64::from(w * h) * st.c_primitives.max(1) * 8, "{st:?}");
        assert!(st.c_primitives <= st.c_invocations * 16, "{st:?}");
    }
});
