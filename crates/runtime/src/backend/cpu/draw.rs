//! Draws on the CPU: a recorded [`DrawWork`] becomes a [`rd3d12_core::draw`] call. This file
//! resolves D3D12's bindings for the shaders — the root signature's parameters (root
//! constants, root descriptors, descriptor tables read from the bound heaps at execution,
//! static samplers) by register and space, filtered by shader visibility — and the views the
//! pipeline reads and writes: vertex and index buffers, SRV textures through
//! [`rd3d12_core::sample`], render targets and the depth buffer.
//!
//! Render targets are drawn into a copy of their subresource that is written back afterwards,
//! so a target the shaders also read (undefined in D3D12) is never aliased mutably.

use crate::command_list::{RootArg, RootView};
use crate::commands::{BoundView, DrawRange, DrawWork, Lookup};
use crate::pipeline_state::Executable;
use crate::resource::Memory;
use rd3d12_core::descriptor::{Descriptor, Kind};
use rd3d12_core::draw::{self, Bindings, DrawCall, Shader, Target};
use rd3d12_core::dxil::exec::SampleMode;
use rd3d12_core::input_assembler::{Topology, VertexBuffer};
use rd3d12_core::pipeline::{PipelineKind, Slot};
use rd3d12_core::raster::{Rect, Viewport};
use rd3d12_core::root_signature::{self as rs, ParameterKind, RootSignatureDesc, StaticSampler};
use rd3d12_core::sample::{self, MemoryTexels, Sampler, SubresourceBytes, View};
use rd3d12_core::{allocation, format};
use rd3d12_sys::*;
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Whether the CPU backend runs a pipeline's draws: a graphics pipeline of DXIL vertex and
/// (optional) pixel shaders it can read, and no tessellation or geometry stage.
pub fn runnable(e: &Executable) -> bool {
    let d = &e.pipeline.desc;
    d.kind == PipelineKind::Graphics
        && [Slot::Hs, Slot::Ds, Slot::Gs, Slot::As, Slot::Ms].iter().all(|s| d.shader(*s).is_none())
        && matches!(e.program(Slot::Vs), Some(Ok(_)))
        && !matches!(e.program(Slot::Ps), Some(Err(_)))
}

/// Bytes of memory for reading: borrowed from linear memory, copied from tiles.
fn bytes(m: &Memory, off: u64, len: u64) -> Option<Cow<'_, [u8]>> {
    match m {
        Memory::Linear { .. } => {
            let p = m.ptr(off, len)?;
            // SAFETY: `len` bytes at `p` lie in the allocation, which `m` keeps alive; writes by
            // other threads meanwhile are application races, as on a GPU.
            Some(Cow::Borrowed(unsafe { std::slice::from_raw_parts(p, len as usize) }))
        }
        Memory::Tiled(_) => {
            let mut v = vec![0; usize::try_from(len).ok()?];
            m.read(off, &mut v).then_some(Cow::Owned(v))
        }
    }
}

/// The register of a binding: class (DXIL's resource class), space, register.
type Key = (u8, u32, u32);
const SRV: u8 = 0;
const CBV: u8 = 2;
const SAMPLER: u8 = 3;

/// What a binding resolved to.
enum Resolved {
    /// Root constants.
    Constants(Vec<u32>),
    /// A constant buffer: memory, offset, bytes.
    Buffer(Memory, u64, u64),
    /// A texture or typed buffer for sampling and loads.
    Texture(Box<Tex>),
    Sampler(Sampler),
    Nothing,
}

/// A readable view: the memory (kept alive), the byte range, and how texels lie in it.
struct Tex {
    memory: Memory,
    data: Vec<u8>,
    borrowed: bool,
    offset: u64,
    len: u64,
    format: DXGI_FORMAT,
    size: (u32, u32, u32),
    mips: u32,
    array_size: u32,
    subresources: Vec<SubresourceBytes>,
    view: View,
    mapping: u32,
}

impl Tex {
    fn with<R>(&self, f: impl FnOnce(&MemoryTexels<'_>) -> R) -> R {
        let owned;
        let bytes: &[u8] = if self.borrowed {
            owned = bytes(&self.memory, self.offset, self.len);
            owned.as_deref().unwrap_or(&[])
        } else {
            &self.data
        };
        f(&MemoryTexels {
            bytes,
            format: self.format,
            size: self.size,
            mips: self.mips,
            array_size: self.array_size,
            subresources: &self.subresources,
        })
    }
}

/// One stage's view of the bindings.
struct StageBindings<'a> {
    work: &'a DrawWork,
    /// D3D12_SHADER_VISIBILITY of the stage.
    visibility: u32,
    cache: RefCell<HashMap<Key, Rc<Resolved>>>,
}

/// The descriptor at a GPU handle of a live shader-visible heap.
fn descriptor_at(lookup: &Lookup, addr: u64) -> Option<Descriptor> {
    let addr = usize::try_from(addr).ok()?;
    let s = lookup.heaps.span(addr)?;
    (s.visible && s.holds(addr, 1)).then(|| {
        // SAFETY: the address is a whole record inside a live heap's memory; any bytes are a
        // valid Descriptor (integers only).
        unsafe { std::ptr::read(addr as *const Descriptor) }
    })
}

fn static_sampler(s: &StaticSampler) -> Sampler {
    let (border, flags) = match s.border_color {
        0 => ([0.0f32, 0.0, 0.0, 0.0].map(f32::to_bits), 0),
        1 => ([0.0f32, 0.0, 0.0, 1.0].map(f32::to_bits), 0),
        2 => ([1.0f32; 4].map(f32::to_bits), 0),
        3 => ([0, 0, 0, 1], D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0),
        _ => ([1, 1, 1, 1], D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0),
    };
    Sampler::from_desc(&rd3d12_core::descriptor::SamplerDesc {
        filter: s.filter,
        address: [s.address_u, s.address_v, s.address_w],
        mip_lod_bias: s.mip_lod_bias,
        max_anisotropy: s.max_anisotropy,
        comparison_func: s.comparison_func,
        border,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        flags: flags | s.flags,
    })
}

/// A texture or typed-buffer SRV as something to sample and load from.
fn texture(lookup: &Lookup, d: &Descriptor) -> Option<Tex> {
    if d.kind != Kind::SRV || d.is_null() {
        return None;
    }
    let e = lookup.resources.get(d.resource)?;
    let info = format::info(d.format)?;
    let elem = u64::from(info.bytes_per_element());
    if d.is_buffer_view() {
        let b = d.buffer();
        let stride = if d.format == DXGI_FORMAT_UNKNOWN { u64::from(b.stride) } else { elem };
        let n = b.num_elements;
        let offset = b.first_element * stride;
        let len = u64::from(n) * stride;
        return Some(Tex {
            memory: e.memory.clone(),
            data: Vec::new(),
            borrowed: true,
            offset,
            len,
            format: d.format,
            size: (n, 1, 1),
            mips: 1,
            array_size: 1,
            subresources: vec![SubresourceBytes { offset: 0, row_pitch: len as usize, depth_pitch: len as usize }],
            view: View::from_srv(
                D3D12_SRV_DIMENSION_TEXTURE1D.0 as u32,
                &rd3d12_core::descriptor::TextureRange {
                    first_mip: 0,
                    mip_levels: 1,
                    first_slice: 0,
                    array_size: 1,
                    min_lod: 0.0,
                },
            )?,
            mapping: d.component_mapping(),
        });
    }
    let r = &e.desc;
    let mips = u32::from(r.MipLevels.max(1));
    let (size, array_size) = if r.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D {
        ((r.Width as u32, r.Height, u32::from(r.DepthOrArraySize)), 1)
    } else {
        ((r.Width as u32, r.Height, 1), u32::from(r.DepthOrArraySize))
    };
    let plane = u32::from(d.plane);
    let mut subresources = Vec::with_capacity((mips * array_size) as usize);
    for slice in 0..array_size {
        for mip in 0..mips {
            let sub = mip + slice * mips + plane * mips * array_size;
            let (off, fp) = allocation::subresource_layout(r, sub)?;
            let rows = fp.Height.div_ceil(u32::from(info.block_height.max(1)));
            subresources.push(SubresourceBytes {
                offset: off as usize,
                row_pitch: fp.RowPitch as usize,
                depth_pitch: fp.RowPitch as usize * rows as usize,
            });
        }
    }
    Some(Tex {
        len: e.memory.len(),
        memory: e.memory.clone(),
        data: Vec::new(),
        borrowed: true,
        offset: 0,
        format: d.format,
        size,
        mips,
        array_size,
        subresources,
        view: View::from_srv(u32::from(d.dimension), &d.texture())?,
        mapping: d.component_mapping(),
    })
}

impl StageBindings<'_> {
    fn visible(&self, v: u32) -> bool {
        v == rs::visibility::ALL || v == self.visibility
    }

    fn arg(&self, index: usize) -> Option<&RootArg> {
        self.work.root_args.iter().find(|a| a.0 as usize == index).map(|a| &a.1)
    }

    fn resolve(&self, key: Key) -> Rc<Resolved> {
        if let Some(r) = self.cache.borrow().get(&key) {
            return r.clone();
        }
        let r = Rc::new(self.find(key).unwrap_or(Resolved::Nothing));
        self.cache.borrow_mut().insert(key, r.clone());
        r
    }

    fn from_descriptor(&self, class: u8, d: &Descriptor) -> Option<Resolved> {
        let lookup = &self.work.lookup;
        match class {
            CBV if d.kind == Kind::CBV => {
                let (va, size) = d.cbv();
                let (m, off) = lookup.va.resolve(va, u64::from(size).max(1))?;
                Some(Resolved::Buffer(m, off, u64::from(size)))
            }
            SRV => texture(lookup, d).map(|t| Resolved::Texture(Box::new(t))),
            SAMPLER if d.kind == Kind::SAMPLER => d.sampler().map(|s| Resolved::Sampler(Sampler::new(&s))),
            _ => None,
        }
    }

    fn find(&self, (class, space, reg): Key) -> Option<Resolved> {
        let root: &RootSignatureDesc = self.work.root.as_deref()?;
        let range_type = match class {
            SRV => rs::range_type::SRV,
            1 => rs::range_type::UAV,
            CBV => rs::range_type::CBV,
            _ => rs::range_type::SAMPLER,
        };
        if class == SAMPLER {
            if let Some(s) = root
                .static_samplers
                .iter()
                .find(|s| s.shader_register == reg && s.register_space == space && self.visible(s.visibility))
            {
                return Some(Resolved::Sampler(static_sampler(s)));
            }
        }
        for (index, p) in root.parameters.iter().enumerate() {
            if !self.visible(p.visibility) {
                continue;
            }
            match &p.kind {
                ParameterKind::Constants(c) if class == CBV && c.shader_register == reg && c.register_space == space => {
                    return match self.arg(index) {
                        Some(RootArg::Constants(_, v)) => Some(Resolved::Constants(v.clone())),
                        _ => Some(Resolved::Constants(Vec::new())),
                    };
                }
                ParameterKind::Cbv(d) | ParameterKind::Srv(d) | ParameterKind::Uav(d)
                    if p.kind.root_descriptor().map(|(t, _)| t) == Some(range_type)
                        && d.shader_register == reg
                        && d.register_space == space =>
                {
                    let Some(RootArg::View(kind, va)) = self.arg(index) else { return None };
                    let (m, off) = self.work.lookup.va.resolve(*va, 1)?;
                    let len = m.len().saturating_sub(off);
                    return match kind {
                        RootView::Cbv => Some(Resolved::Buffer(m, off, len)),
                        // Root SRVs and UAVs are raw or structured buffers, read through loads.
                        RootView::Srv | RootView::Uav => None,
                    };
                }
                ParameterKind::Table(ranges) => {
                    let mut next = 0u32;
                    for r in ranges {
                        let start = if r.offset_in_descriptors_from_table_start == rs::OFFSET_APPEND {
                            next
                        } else {
                            r.offset_in_descriptors_from_table_start
                        };
                        next = start.saturating_add(r.num_descriptors);
                        let inside = reg >= r.base_shader_register
                            && (r.num_descriptors == rs::UNBOUNDED || reg - r.base_shader_register < r.num_descriptors);
                        if r.range_type != range_type || r.register_space != space || !inside {
                            continue;
                        }
                        let Some(RootArg::Table(base)) = self.arg(index) else { return None };
                        let n = u64::from(start) + u64::from(reg - r.base_shader_register);
                        let d = descriptor_at(&self.work.lookup, base + n * rd3d12_core::descriptor::DESCRIPTOR_SIZE as u64)?;
                        return self.from_descriptor(class, &d);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

impl Bindings for StageBindings<'_> {
    fn cbuffer_row(&self, space: u32, register: u32, row: u32) -> [u32; 4] {
        match &*self.resolve((CBV, space, register)) {
            Resolved::Constants(v) => {
                std::array::from_fn(|c| v.get(row as usize * 4 + c).copied().unwrap_or(0))
            }
            Resolved::Buffer(m, off, len) => {
                let at = u64::from(row) * 16;
                let mut b = [0u8; 16];
                if at + 16 <= *len {
                    m.read(off + at, &mut b);
                }
                std::array::from_fn(|c| u32::from_le_bytes([b[4 * c], b[4 * c + 1], b[4 * c + 2], b[4 * c + 3]]))
            }
            _ => [0; 4],
        }
    }

    fn sample(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 4],
        offset: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> [f32; 4] {
        let t = self.resolve((SRV, texture.0, texture.1));
        let s = self.resolve((SAMPLER, sampler.0, sampler.1));
        let (Resolved::Texture(t), Resolved::Sampler(s)) = (&*t, &*s) else { return [0.0; 4] };
        let lod = match mode {
            SampleMode::Grad { ddx, ddy, bias, clamp } => sample::Lod::Derivatives { ddx, ddy, bias, clamp },
            SampleMode::Level(l) => sample::Lod::Level(l),
        };
        let v = t.with(|texels| sample::sample(texels, &t.view, s, coords, offset, lod, compare));
        sample::apply_mapping(t.mapping, v, 0.0, 1.0)
    }

    fn load(&self, texture: (u32, u32), mip: u32, coords: [i32; 3]) -> [u32; 4] {
        let t = self.resolve((SRV, texture.0, texture.1));
        let Resolved::Texture(t) = &*t else { return [0; 4] };
        let v = t.with(|texels| sample::load(texels, &t.view, coords, mip, [0; 3]));
        let integer = format::info(t.format).is_some_and(|i| i.name.contains("INT"));
        sample::apply_mapping(t.mapping, v, 0, if integer { 1 } else { 1.0f32.to_bits() })
    }
}

/// A render target or depth view's subresource: where it lies and its shape.
struct TargetPlace {
    memory: Memory,
    offset: u64,
    row_pitch: usize,
    width: u32,
    height: u32,
    len: usize,
    format: DXGI_FORMAT,
}

fn target_place(b: &BoundView) -> Option<TargetPlace> {
    let d = &b.view;
    let r = &b.resource.desc;
    if r.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER || d.is_null() {
        return None;
    }
    let t = d.texture();
    let mips = u32::from(r.MipLevels.max(1));
    let three_d = r.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    let array = if three_d { 1 } else { u32::from(r.DepthOrArraySize) };
    let slice = if three_d { 0 } else { t.first_slice };
    let sub = t.first_mip + slice * mips + u32::from(d.plane) * mips * array;
    let (mut offset, fp) = allocation::subresource_layout(r, sub)?;
    if three_d {
        offset += u64::from(t.first_slice) * u64::from(fp.RowPitch) * u64::from(fp.Height);
    }
    Some(TargetPlace {
        memory: b.resource.memory.clone(),
        offset,
        row_pitch: fp.RowPitch as usize,
        width: fp.Width as u32,
        height: fp.Height,
        len: fp.RowPitch as usize * fp.Height as usize,
        format: d.format,
    })
}

/// Why a draw produced nothing.
pub enum Skipped {
    /// The draw reads or writes something the CPU backend does not do yet.
    Unsupported(String),
}

/// Reports a draw the CPU backend skipped: a warning on stderr (once per process and
/// reason) and, with the debug layer, a message.
pub fn report_skipped(why: &str) {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let first = {
        let mut s = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        let new = !s.iter().any(|w| w == why);
        if new && s.len() < 64 {
            s.push(why.to_string());
        }
        new
    };
    let text = format!("the CPU backend skipped a draw: {why}");
    if first && crate::debug::log_enabled(crate::debug::Level::Warn) {
        eprintln!("rd3d12: warning: {text}");
    }
    crate::debug::report_parts(
        "ID3D12CommandQueue::ExecuteCommandLists",
        D3D12_MESSAGE_CATEGORY_EXECUTION,
        D3D12_MESSAGE_SEVERITY_WARNING,
        D3D12_MESSAGE_ID_UNKNOWN.0,
        &text,
    );
}

/// Executes one draw.
pub fn run(w: &DrawWork) -> Result<draw::DrawStats, Skipped> {
    let unsupported = |m: String| Skipped::Unsupported(m);
    let vs = match w.pipeline.program(Slot::Vs) {
        Some(Ok(p)) => p,
        _ => return Err(unsupported("the vertex shader cannot run".into())),
    };
    let ps = match w.pipeline.program(Slot::Ps) {
        Some(Ok(p)) => Some(p),
        None => None,
        Some(Err(e)) => return Err(unsupported(e.to_string())),
    };
    let entry = |p: &'_ rd3d12_core::dxil::Program| p.dx.entry_points.first().cloned();
    let (Some(vs_entry), ps_entry) = (entry(vs), ps.map(entry)) else {
        return Err(unsupported("a shader without an entry point".into()));
    };
    let ps_entry = match ps_entry {
        Some(Some(e)) => Some(e),
        Some(None) => return Err(unsupported("a shader without an entry point".into())),
        None => None,
    };
    let Some(topology) = Topology::from_d3d(w.topology) else {
        return Err(unsupported("no primitive topology set".into()));
    };
    let Some(vp) = w.viewport else { return Err(unsupported("no viewport set".into())) };
    // Vertex numbers.
    let vertices: Vec<u32> = match w.range {
        DrawRange::Vertices { count, start } => (0..count).map(|k| start.wrapping_add(k)).collect(),
        DrawRange::Indexed { count, start_index, base_vertex } => {
            let Some((m, off, size, fmt)) = &w.index_buffer else {
                return Err(unsupported("an indexed draw without an index buffer".into()));
            };
            let wide = *fmt == DXGI_FORMAT_R32_UINT;
            let stride = if wide { 4u64 } else { 2 };
            let Some(all) = bytes(m, *off, u64::from(*size)) else { return Err(unsupported("index buffer".into())) };
            (0..count)
                .map(|k| {
                    let at = (u64::from(start_index) + u64::from(k)) * stride;
                    let i = match all.get(at as usize..(at + stride) as usize) {
                        Some(b) if wide => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                        Some(b) => u32::from(u16::from_le_bytes([b[0], b[1]])),
                        // Out of range: index 0 (D3D12's out-of-bounds index buffer reads).
                        None => 0,
                    };
                    i.wrapping_add(base_vertex as u32)
                })
                .collect()
        }
    };
    let cut = match w.pipeline.desc.ib_strip_cut {
        1 => Some(0xFFFF),
        2 => Some(0xFFFF_FFFF),
        _ => None,
    };
    let vb_bytes: Vec<Option<(Cow<'_, [u8]>, u32)>> = w
        .vertex_buffers
        .iter()
        .map(|v| v.as_ref().and_then(|(m, off, size, stride)| bytes(m, *off, u64::from(*size)).map(|b| (b, *stride))))
        .collect();
    let call = DrawCall {
        vs: Shader { module: &vs.module, entry: &vs_entry },
        ps: ps.zip(ps_entry.as_ref()).map(|(p, e)| Shader { module: &p.module, entry: e }),
        pipeline: &w.pipeline.pipeline.desc,
        topology,
        vertices,
        cut,
        instances: w.instances,
        start_instance: w.start_instance,
        vertex_buffers: vb_bytes
            .iter()
            .map(|v| v.as_ref().map(|(b, stride)| VertexBuffer { data: b, stride: *stride }))
            .collect(),
        viewport: Viewport {
            x: vp.TopLeftX,
            y: vp.TopLeftY,
            width: vp.Width,
            height: vp.Height,
            min_depth: vp.MinDepth,
            max_depth: vp.MaxDepth,
        },
        scissor: w.scissor.map(|r| Rect { left: r.left, top: r.top, right: r.right, bottom: r.bottom }),
        blend_factor: w.blend_factor,
        stencil_ref: w.stencil_ref as u8,
    };
    // Targets: copies of the subresources, written back afterwards.
    let places: Vec<Option<TargetPlace>> = w.render_targets.iter().map(|b| b.as_ref().and_then(target_place)).collect();
    let depth_place = w.depth_stencil.as_ref().and_then(target_place);
    let read = |p: &TargetPlace| {
        let mut v = vec![0u8; p.len];
        p.memory.read(p.offset, &mut v);
        v
    };
    let mut rt_data: Vec<Option<Vec<u8>>> = places.iter().map(|p| p.as_ref().map(read)).collect();
    let mut depth_data = depth_place.as_ref().map(read);
    let mut targets: Vec<Option<Target<'_>>> = places
        .iter()
        .zip(rt_data.iter_mut())
        .map(|(p, d)| {
            let (p, d) = (p.as_ref()?, d.as_mut()?);
            Some(Target { data: d, row_pitch: p.row_pitch, width: p.width, height: p.height, format: p.format })
        })
        .collect();
    let mut depth = depth_place.as_ref().zip(depth_data.as_mut()).map(|(p, d)| Target {
        data: d,
        row_pitch: p.row_pitch,
        width: p.width,
        height: p.height,
        format: p.format,
    });
    let vsb = StageBindings { work: w, visibility: D3D12_SHADER_VISIBILITY_VERTEX.0 as u32, cache: Default::default() };
    let psb = StageBindings { work: w, visibility: D3D12_SHADER_VISIBILITY_PIXEL.0 as u32, cache: Default::default() };
    let result = draw::draw(&call, &vsb, &psb, &mut targets, depth.as_mut());
    drop(targets);
    // Whatever was drawn before an error stays drawn, as the pixels a GPU wrote would.
    for (p, d) in places.iter().zip(&rt_data) {
        if let (Some(p), Some(d)) = (p, d) {
            p.memory.write(p.offset, d);
        }
    }
    if let (Some(p), Some(d)) = (&depth_place, &depth_data) {
        p.memory.write(p.offset, d);
    }
    result.map_err(|e| unsupported(format!("{e:?}")))
}
