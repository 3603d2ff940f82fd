//! The bindings of the DXC fixture tests that use several buffers: buffers by register as
//! 32-bit words, constant buffers, raw-buffer atomics; and the dispatch of a fixture of
//! `tests/fixtures/dxil/dxc` after the support check pipeline creation runs.
#![allow(dead_code)]

use rd3d12_shader::dxil;
use rd3d12_swgpu::compute::dispatch;
use rd3d12_swgpu::draw::{Bindings, Class};
use std::collections::HashMap;
use std::sync::Mutex;

/// Buffers by (class, register) in space 0, as 32-bit words addressed by byte (a raw
/// buffer's index, or index * stride + offset), and constant buffers by register.
#[derive(Default)]
pub struct Mem {
    /// By (class, space, register).
    buffers: HashMap<(Class, u32, u32), Mutex<Vec<u32>>>,
    /// By (space, register).
    cbuffers: HashMap<(u32, u32), Vec<u32>>,
    /// UAV counters by (space, register).
    counters: Mutex<HashMap<(u32, u32), u32>>,
    /// The element stride of the structured UAVs atomics address, by (space, register).
    strides: HashMap<(u32, u32), u32>,
}

impl Mem {
    pub fn with(self, class: Class, register: u32, words: Vec<u32>) -> Mem {
        self.with_in(class, 0, register, words)
    }

    /// A buffer at (class, space, register).
    pub fn with_in(mut self, class: Class, space: u32, register: u32, words: Vec<u32>) -> Mem {
        self.buffers.insert((class, space, register), Mutex::new(words));
        self
    }

    /// The hidden counter of the UAV at (space, register).
    pub fn counter(self, space: u32, register: u32, value: u32) -> Mem {
        self.counters.lock().unwrap().insert((space, register), value);
        self
    }

    /// The UAV at (space, register) is a structured buffer of `stride`-byte elements for its
    /// atomics (which address (element, byte offset)).
    pub fn structured(mut self, space: u32, register: u32, stride: u32) -> Mem {
        self.strides.insert((space, register), stride);
        self
    }

    /// The counter's value now.
    pub fn counter_now(&self, space: u32, register: u32) -> u32 {
        self.counters.lock().unwrap()[&(space, register)]
    }

    /// b0's words.
    pub fn cb(self, words: Vec<u32>) -> Mem {
        self.cb_at(0, words)
    }

    /// The words of the constant buffer at b`register`.
    pub fn cb_at(self, register: u32, words: Vec<u32>) -> Mem {
        self.cb_in(0, register, words)
    }

    /// The words of the constant buffer at (space, register).
    pub fn cb_in(mut self, space: u32, register: u32, words: Vec<u32>) -> Mem {
        self.cbuffers.insert((space, register), words);
        self
    }

    pub fn take(&mut self, class: Class, register: u32) -> Vec<u32> {
        self.take_in(class, 0, register)
    }

    pub fn take_in(&mut self, class: Class, space: u32, register: u32) -> Vec<u32> {
        self.buffers.remove(&(class, space, register)).unwrap().into_inner().unwrap()
    }
}

impl Mem {
    fn atomic_at(&self, b: (u32, u32), c: [i32; 3]) -> usize {
        match self.strides.get(&b) {
            Some(&s) => (c[0] as u32 * s + c[1] as u32) as usize,
            None => c[0] as usize,
        }
    }
}

fn byte(stride: u32, index: u32, offset: u32) -> usize {
    if stride == 0 {
        index as usize
    } else {
        (index * stride + offset) as usize
    }
}

impl Bindings for Mem {
    fn cbuffer_row(&self, space: u32, register: u32, row: u32) -> [u32; 4] {
        let cb = &self.cbuffers[&(space, register)];
        std::array::from_fn(|k| cb.get(4 * row as usize + k).copied().unwrap_or(0))
    }
    fn buffer_load(&self, class: Class, b: (u32, u32), stride: u32, index: u32, offset: u32) -> [u32; 4] {
        let at = byte(stride, index, offset);
        assert_eq!(at % 4, 0);
        let buf = self.buffers[&(class, b.0, b.1)].lock().unwrap();
        std::array::from_fn(|k| buf.get(at / 4 + k).copied().unwrap_or(0))
    }
    fn buffer_store(&self, b: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        let at = byte(stride, index, offset);
        assert_eq!(at % 4, 0);
        let mut buf = self.buffers[&(Class::Uav, b.0, b.1)].lock().unwrap();
        for (k, v) in value.iter().enumerate() {
            if mask & (1 << k) != 0 {
                if let Some(w) = buf.get_mut(at / 4 + k) {
                    *w = *v;
                }
            }
        }
    }
    fn atomic(&self, b: (u32, u32), op: u32, c: [i32; 3], value: u32) -> u32 {
        // DXIL's AtomicBinOp codes; a raw buffer's byte address, a structured one's (element,
        // offset).
        let at = self.atomic_at(b, c);
        let mut buf = self.buffers[&(Class::Uav, b.0, b.1)].lock().unwrap();
        let cell = &mut buf[at / 4];
        let old = *cell;
        *cell = match op {
            0 => old.wrapping_add(value),
            1 => old & value,
            2 => old | value,
            3 => old ^ value,
            4 => (old as i32).min(value as i32) as u32,
            5 => (old as i32).max(value as i32) as u32,
            6 => old.min(value),
            7 => old.max(value),
            8 => value,
            _ => panic!("atomic op {op}"),
        };
        old
    }
    fn update_counter(&self, uav: (u32, u32), delta: i32) -> u32 {
        let mut c = self.counters.lock().unwrap();
        let n = c.get_mut(&uav).expect("a counter");
        let old = *n;
        *n = old.wrapping_add(delta as u32);
        // IncrementCounter returns the value before, DecrementCounter the value after.
        if delta > 0 {
            old
        } else {
            *n
        }
    }
    fn atomic_cmpxchg(&self, b: (u32, u32), c: [i32; 3], cmp: u32, new: u32) -> u32 {
        let at = self.atomic_at(b, c);
        let mut buf = self.buffers[&(Class::Uav, b.0, b.1)].lock().unwrap();
        let cell = &mut buf[at / 4];
        let old = *cell;
        if old == cmp {
            *cell = new;
        }
        old
    }
}

pub fn run(name: &str, groups: [u32; 3], mem: &Mem) {
    let path = format!("{}/../../tests/fixtures/dxil/dxc/{name}.cs.dxil", env!("CARGO_MANIFEST_DIR"));
    let p = dxil::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
    dxil::support::check(&p.module).unwrap_or_else(|e| panic!("{name}: {e}"));
    dispatch(&p, &p.dx.entry_points[0], groups, mem).unwrap_or_else(|e| panic!("{name}: {e:?}"));
}

pub fn floats(n: usize, f: impl Fn(usize) -> f32) -> Vec<u32> {
    (0..n).map(|i| f(i).to_bits()).collect()
}

/// Mesa's quad.vs (float2 position, float4 colour) as the vertex stage of a draw test.
pub mod quad {
    use rd3d12_core::pipeline::{InputElement, PipelineDesc, PipelineKind};
    use rd3d12_shader::dxil::Program;
    use rd3d12_swgpu::draw::{DrawCall, Shader, Workers};
    use rd3d12_swgpu::input_assembler::{Topology, VertexBuffer};
    use rd3d12_swgpu::raster::Viewport;
    use rd3d12_sys as sys;

    /// quad.vs itself.
    pub fn vs() -> Program {
        let path = format!("{}/../../tests/fixtures/dxil/quad.vs.dxil", env!("CARGO_MANIFEST_DIR"));
        rd3d12_shader::dxil::parse(&std::fs::read(path).unwrap()).unwrap()
    }

    /// A graphics pipeline for quad.vs: its input layout (position at 0, colour at 8 of a
    /// 24-byte vertex), no culling, no depth, `targets` render targets.
    pub fn pipeline(vs: &Program, targets: u32) -> PipelineDesc {
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
        p.num_render_targets = targets;
        p
    }

    /// The vertex buffer of triangle `tri` (clip-space x, y; colour white).
    pub fn vertices(tri: &[[f32; 2]; 3]) -> Vec<u8> {
        tri.iter().flat_map(|v| [v[0], v[1], 1.0, 1.0, 1.0, 1.0]).flat_map(|f: f32| f.to_le_bytes()).collect()
    }

    /// One triangle of `vb` through quad.vs and `ps` over a `size` x `size` viewport.
    pub fn call<'a>(
        vs: &'a Program,
        ps: &'a Program,
        p: &'a PipelineDesc,
        vb: &'a dyn rd3d12_swgpu::bytes::ReadBytes,
        size: f32,
        workers: Workers<'a>,
    ) -> DrawCall<'a> {
        DrawCall {
            vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0], resources: &vs.dx.resources },
            tess: None,
            gs: None,
            ps: Some(Shader { module: &ps.module, entry: &ps.dx.entry_points[0], resources: &ps.dx.resources }),
            pipeline: p,
            topology: Topology::TriangleList,
            vertices: vec![0, 1, 2],
            cut: None,
            vertex_id_base: 0,
            instances: 1,
            start_instance: 0,
            vertex_buffers: vec![Some(VertexBuffer { data: vb, stride: 24 })],
            viewports: vec![Viewport { x: 0.0, y: 0.0, width: size, height: size, min_depth: 0.0, max_depth: 1.0 }],
            scissors: Vec::new(),
            blend_factor: [0.0; 4],
            stencil_ref: 0,
            sample_positions: None,
            workers,
        }
    }
}
