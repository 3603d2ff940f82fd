//! Draws on the CPU: a recorded [`DrawWork`] becomes a [`rd3d12_swgpu::draw`] call. This file
//! resolves D3D12's bindings for the shaders — the root signature's parameters (root
//! constants, root descriptors, descriptor tables read from the bound heaps at execution,
//! static samplers) by register and space, filtered by shader visibility — and the views the
//! pipeline reads and writes: vertex and index buffers, SRV textures through
//! [`rd3d12_swgpu::sample`], render targets and the depth-stencil view's depth and stencil planes.
//!
//! Render targets and depth-stencil planes are written in place through [`super::surface`]
//! (reserved resources through a copy that is written back), so the draw's workers write
//! straight into the heap and no slice is ever made over memory that others may write; vertex
//! and index buffers are read through [`Readable`] (word-atomic loads in place, reserved
//! resources' tiles through a copy), as textures are.

use super::bindings::{Readable, StageBindings};
use super::surface::TargetMemory;
use crate::work::commands::{BoundView, DrawRange, DrawWork};
use crate::work::memory::Memory;
use crate::work::pipeline::Executable;
use rd3d12_core::allocation;
use rd3d12_core::pipeline::{PipelineKind, Slot};
use rd3d12_core::shader::SemanticKind;
use rd3d12_swgpu::bytes::ReadBytes;
use rd3d12_swgpu::draw::{self, DepthStencilTarget, DrawCall, Plane, Shader, SoBuffer, Target, Tess, Workers};
use rd3d12_swgpu::input_assembler::{Topology, VertexBuffer};
use rd3d12_swgpu::raster::{Rect, Viewport};
use rd3d12_sys::*;

/// Why the CPU backend does not run a pipeline's draws (`None`: it does, a graphics pipeline of
/// a DXIL vertex shader and (optional) hull and domain, geometry and pixel shaders it read; no
/// mesh shaders).
pub fn not_runnable(e: &Executable) -> Option<String> {
    let d = &e.pipeline.desc;
    if d.kind != PipelineKind::Graphics {
        return Some("the pipeline state is not a graphics pipeline".into());
    }
    if [Slot::As, Slot::Ms].iter().any(|s| d.shader(*s).is_some()) {
        return Some("mesh and amplification shaders are not executed".into());
    }
    if e.program(Slot::Vs).is_none() {
        return Some("the pipeline has no vertex shader".into());
    }
    [Slot::Vs, Slot::Hs, Slot::Ds, Slot::Gs, Slot::Ps].iter().find_map(|s| match e.program(*s) {
        Some(Err(why)) => Some(format!("{}: {why}", s.name())),
        _ => None,
    })
}

/// Whether the CPU backend runs a pipeline's draws ([`not_runnable`] gives no reason).
pub fn runnable(e: &Executable) -> bool {
    not_runnable(e).is_none()
}

/// A render target or depth view's subresource: where it lies and its shape.
struct TargetPlace {
    memory: Memory,
    offset: u64,
    row_pitch: usize,
    width: u32,
    height: u32,
    /// Bytes from the first byte of sample 0 to the end of the last sample's subresource.
    len: usize,
    format: DXGI_FORMAT,
    /// Bytes between the samples of a multisampled resource (0 single-sampled).
    sample_stride: usize,
    /// The view's slices `len` covers (1 unless the draw picks slices), and the bytes from one
    /// to the next.
    layers: u32,
    layer_stride: usize,
}

/// The subresource of the view's plane (`d.plane` for render targets; depth-stencil views name
/// plane 0 and reach their stencil in plane 1); with `layered`, every array (or 3D W) slice of
/// the view, for a pipeline whose primitives pick one with SV_RenderTargetArrayIndex.
fn target_place(b: &BoundView, layered: bool) -> Option<TargetPlace> {
    plane_place(b, u32::from(b.view.plane), layered)
}

fn plane_place(b: &BoundView, plane: u32, layered: bool) -> Option<TargetPlace> {
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
    let sub = t.first_mip + slice * mips + plane * mips * array;
    let (mut offset, fp) = allocation::subresource_layout(r, sub)?;
    let depth_pitch = u64::from(fp.RowPitch) * u64::from(fp.Height);
    if three_d {
        offset += u64::from(t.first_slice) * depth_pitch;
    }
    // The slices of the view: array slices (each a whole mip chain apart) or 3D W slices.
    let available = if three_d { (fp.Depth).saturating_sub(t.first_slice) } else { array.saturating_sub(slice) };
    let layers = if layered { t.array_size.min(available).max(1) } else { 1 };
    let layer_stride = match (layers, three_d) {
        (1, _) => 0,
        (_, true) => depth_pitch,
        (_, false) => allocation::subresource_layout(r, sub + mips)?.0 - (offset),
    } as usize;
    // Sample s of a multisampled subresource lies s × the sample stride on.
    let samples = r.SampleDesc.Count.max(1) as usize;
    let sample_stride = if samples > 1 { allocation::msaa_sample_stride(r)? as usize } else { 0 };
    let one = fp.RowPitch as usize * fp.Height as usize;
    Some(TargetPlace {
        memory: b.resource.memory.clone(),
        offset,
        row_pitch: fp.RowPitch as usize,
        width: fp.Width,
        height: fp.Height,
        len: sample_stride * (samples - 1) + layer_stride * (layers as usize - 1) + one,
        format: d.format,
        sample_stride,
        layers,
        layer_stride,
    })
}

/// Why a draw produced nothing.
pub enum Skipped {
    /// The draw reads or writes something the CPU backend does not do yet.
    Unsupported(String),
    /// A shader ran past the queue's GPU timeout: Windows would reset the GPU (TDR) and remove
    /// the device with DXGI_ERROR_DEVICE_HUNG.
    Hung,
}

impl From<draw::DrawError> for Skipped {
    fn from(e: draw::DrawError) -> Self {
        match e {
            draw::DrawError::Shader(rd3d12_shader::interp::ExecError::Timeout) => Skipped::Hung,
            e => Skipped::Unsupported(format!("{e:?}")),
        }
    }
}

/// Reports a draw the CPU backend skipped: a warning on stderr (once per process and
/// reason) and, with the debug layer, a message.
pub fn report_skipped(what: &str, why: &str) {
    static SEEN: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let first = {
        let mut s = SEEN.lock().unwrap_or_else(|e| e.into_inner());
        let new = !s.iter().any(|w| w == why);
        if new && s.len() < 64 {
            s.push(why.to_string());
        }
        new
    };
    let text = format!("the CPU backend skipped a {what}: {why}");
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
    // Each stage's program and entry point (None: the pipeline has no such shader).
    type Stage<'p> = Option<(&'p rd3d12_shader::dxil::Program, rd3d12_shader::dxil::EntryPoint)>;
    let stage = |slot: Slot| -> Result<Stage<'_>, Skipped> {
        match w.pipeline.program(slot) {
            None => Ok(None),
            Some(Err(e)) => Err(unsupported(e.to_string())),
            Some(Ok(p)) => match p.dx.entry_points.first() {
                Some(e) => Ok(Some((p, e.clone()))),
                None => Err(unsupported("a shader without an entry point".into())),
            },
        }
    };
    let Some((vs, vs_entry)) = stage(Slot::Vs)? else {
        return Err(unsupported("the vertex shader cannot run".into()));
    };
    let (hs, ds, gs, ps) = (stage(Slot::Hs)?, stage(Slot::Ds)?, stage(Slot::Gs)?, stage(Slot::Ps)?);
    fn shader<'s>(s: &'s Stage<'_>) -> Option<Shader<'s>> {
        s.as_ref().map(|(p, e)| Shader { module: &p.module, entry: e, resources: &p.dx.resources })
    }
    // Each stage's declared registers resolved once, for every worker to read without a lock.
    let bindings = |s: &Stage<'_>, visibility| {
        StageBindings::with_resources(&w.binds, visibility, s.as_ref().map_or(&[][..], |(p, _)| &p.dx.resources))
    };
    let vsb = StageBindings::with_resources(&w.binds, D3D12_SHADER_VISIBILITY_VERTEX, &vs.dx.resources);
    let hsb = bindings(&hs, D3D12_SHADER_VISIBILITY_HULL);
    let dsb = bindings(&ds, D3D12_SHADER_VISIBILITY_DOMAIN);
    let gsb = bindings(&gs, D3D12_SHADER_VISIBILITY_GEOMETRY);
    let psb = bindings(&ps, D3D12_SHADER_VISIBILITY_PIXEL);
    let tess = match (shader(&hs), shader(&ds)) {
        (Some(hs), Some(ds)) => Some(Tess { hs, ds, hs_bindings: &hsb, ds_bindings: &dsb }),
        (None, None) => None,
        _ => return Err(unsupported("a hull shader without a domain shader, or the reverse".into())),
    };
    let Some(topology) = Topology::from_d3d(w.topology) else {
        return Err(unsupported("no primitive topology set".into()));
    };
    if w.viewports.is_empty() {
        return Err(unsupported("no viewport set".into()));
    }
    // Vertex numbers.
    let vertices: Vec<u32> = match w.range {
        DrawRange::Vertices { count, start } => (0..count).map(|k| start.wrapping_add(k)).collect(),
        DrawRange::Indexed { count, start_index, base_vertex } => {
            let Some((m, off, size, fmt)) = &w.index_buffer else {
                return Err(unsupported("an indexed draw without an index buffer".into()));
            };
            let wide = *fmt == DXGI_FORMAT_R32_UINT;
            let stride = if wide { 4u64 } else { 2 };
            let Some(all) = Readable::new(m, *off, u64::from(*size)) else {
                return Err(unsupported("index buffer".into()));
            };
            (0..count)
                .map(|k| {
                    let at = (u64::from(start_index) + u64::from(k)) * stride;
                    let mut b = [0u8; 4];
                    let read = usize::try_from(at).is_ok_and(|at| all.read(at, &mut b[..stride as usize]));
                    // Out of range: index 0 (D3D12's out-of-bounds index buffer reads).
                    let i = if read { u32::from_le_bytes(b) } else { 0 };
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
    let vb_bytes: Vec<Option<(Readable<'_>, u32)>> = w
        .vertex_buffers
        .iter()
        .map(|v| {
            v.as_ref().and_then(|(m, off, size, stride)| Readable::new(m, *off, u64::from(*size)).map(|b| (b, *stride)))
        })
        .collect();
    let call = DrawCall {
        vs: Shader { module: &vs.module, entry: &vs_entry, resources: &vs.dx.resources },
        tess,
        gs: shader(&gs),
        ps: shader(&ps),
        pipeline: &w.pipeline.pipeline.desc,
        topology,
        vertices,
        cut,
        vertex_id_base: match w.range {
            DrawRange::Vertices { start, .. } => start,
            DrawRange::Indexed { base_vertex, .. } => base_vertex as u32,
        },
        instances: w.instances,
        start_instance: w.start_instance,
        vertex_buffers: vb_bytes
            .iter()
            .map(|v| v.as_ref().map(|(b, stride)| VertexBuffer { data: b, stride: *stride }))
            .collect(),
        viewports: w
            .viewports
            .iter()
            .map(|vp| Viewport {
                x: vp.TopLeftX,
                y: vp.TopLeftY,
                width: vp.Width,
                height: vp.Height,
                min_depth: vp.MinDepth,
                max_depth: vp.MaxDepth,
            })
            .collect(),
        scissors: w
            .scissors
            .iter()
            .map(|r| Some(Rect { left: r.left, top: r.top, right: r.right, bottom: r.bottom }))
            .collect(),
        blend_factor: w.blend_factor,
        stencil_ref: w.stencil_ref as u8,
        sample_positions: (!w.sample_positions.is_empty()).then_some(&w.sample_positions[..]),
        workers: Workers::process(),
    };
    // Targets, in place; every slice of the views
    // when the last stage before the rasterizer writes SV_RenderTargetArrayIndex.
    let last = [&gs, &ds].into_iter().flatten().map(|(_, e)| e).next().unwrap_or(&vs_entry);
    let layered = last.outputs.iter().any(|e| e.semantic == SemanticKind::RenderTargetArrayIndex);
    let places: Vec<Option<TargetPlace>> =
        w.render_targets.iter().map(|b| b.as_ref().and_then(|b| target_place(b, layered))).collect();
    // A DSV names plane 0 (depth); formats with stencil keep it in plane 1.
    let depth_place = w.depth_stencil.as_ref().and_then(|b| plane_place(b, 0, layered));
    let stencil_place = w
        .depth_stencil
        .as_ref()
        .filter(|b| matches!(b.view.format, DXGI_FORMAT_D24_UNORM_S8_UINT | DXGI_FORMAT_D32_FLOAT_S8X24_UINT))
        .and_then(|b| plane_place(b, 1, layered));
    let ds_flags = w.depth_stencil.as_ref().map_or(0, |b| u32::from(b.view.flags));
    fn memory(p: &TargetPlace) -> TargetMemory<'_> {
        TargetMemory::new(&p.memory, p.offset, p.len)
    }
    let rt_memory: Vec<Option<TargetMemory<'_>>> = places.iter().map(|p| p.as_ref().map(memory)).collect();
    let depth_memory = depth_place.as_ref().map(memory);
    let stencil_memory = stencil_place.as_ref().map(memory);
    let mut targets: Vec<Option<Target<'_>>> = places
        .iter()
        .zip(&rt_memory)
        .map(|(p, m)| {
            let (p, m) = (p.as_ref()?, m.as_ref()?);
            Some(Target {
                data: m.surface(),
                row_pitch: p.row_pitch,
                width: p.width,
                height: p.height,
                format: p.format,
                sample_stride: p.sample_stride,
                layers: p.layers,
                layer_stride: p.layer_stride,
            })
        })
        .collect();
    let stencil = stencil_place.as_ref().zip(stencil_memory.as_ref()).map(|(p, m)| Plane {
        data: m.surface(),
        row_pitch: p.row_pitch,
        sample_stride: p.sample_stride,
        layers: p.layers,
        layer_stride: p.layer_stride,
    });
    let mut depth = depth_place.as_ref().zip(depth_memory.as_ref()).map(|(p, m)| DepthStencilTarget {
        format: p.format,
        width: p.width,
        height: p.height,
        depth: Plane {
            data: m.surface(),
            row_pitch: p.row_pitch,
            sample_stride: p.sample_stride,
            layers: p.layers,
            layer_stride: p.layer_stride,
        },
        stencil,
        read_only_depth: ds_flags & D3D12_DSV_FLAG_READ_ONLY_DEPTH.0 != 0,
        read_only_stencil: ds_flags & D3D12_DSV_FLAG_READ_ONLY_STENCIL.0 != 0,
    });
    // Stream output: each bound buffer from its BufferFilledSize on, and the filled size.
    let mut so_data: Vec<Option<(Vec<u8>, u32)>> = w
        .stream_output
        .iter()
        .map(|t| {
            let t = t.as_ref()?;
            let mut filled = [0u8; 4];
            t.filled.0.read(t.filled.1, &mut filled);
            let filled = u32::from_le_bytes(filled);
            let mut tail = vec![0u8; t.size.saturating_sub(u64::from(filled)) as usize];
            t.memory.read(t.offset + u64::from(filled), &mut tail);
            Some((tail, filled))
        })
        .collect();
    let mut so: Vec<Option<SoBuffer<'_>>> =
        so_data.iter_mut().map(|d| d.as_mut().map(|(tail, _)| SoBuffer { data: tail, filled: 0 })).collect();
    let result = draw::draw(&call, &vsb, &gsb, &psb, &mut targets, depth.as_mut(), &mut so);
    drop(targets);
    let written: Vec<u32> = so.iter().map(|b| b.as_ref().map_or(0, |b| b.filled)).collect();
    drop(so);
    // What was appended, and the filled sizes past it.
    for ((t, d), n) in w.stream_output.iter().zip(&so_data).zip(written) {
        if let (Some(t), Some((tail, filled))) = (t, d) {
            t.memory.write(t.offset + u64::from(*filled), &tail[..n as usize]);
            t.filled.0.write(t.filled.1, &(filled + n).to_le_bytes());
        }
    }
    // Whatever was drawn before an error stays drawn, as the pixels a GPU wrote would
    // (targets reached through a copy get it back).
    for m in rt_memory.iter().chain([&depth_memory, &stencil_memory]).flatten() {
        m.finish();
    }
    result.map_err(Skipped::from)
}
