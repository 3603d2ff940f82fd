//! Shader work: DrawInstanced, DrawIndexedInstanced, Dispatch, ExecuteIndirect and ExecuteBundle
//! capture the bound state as recorded work (descriptor tables are read at execution); a
//! pipeline the backend does not run is recorded as a skip with its reason.

use super::*;

pub(super) const DIRECT: &[D3D12_COMMAND_LIST_TYPE] = &[D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_BUNDLE];
pub(super) const COMPUTE: &[D3D12_COMMAND_LIST_TYPE] =
    &[D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_BUNDLE, D3D12_COMMAND_LIST_TYPE_COMPUTE];
pub(super) unsafe extern "C" fn draw_instanced(
    this: *mut Iface,
    count: UINT,
    instances: UINT,
    start: UINT,
    start_instance: UINT,
) {
    // SAFETY: forwarded.
    unsafe {
        record_draw(this, "DrawInstanced", DrawRange::Vertices { count, start }, instances, start_instance);
    }
}
pub(super) unsafe extern "C" fn draw_indexed_instanced(
    this: *mut Iface,
    count: UINT,
    instances: UINT,
    start_index: UINT,
    base_vertex: INT,
    start_instance: UINT,
) {
    // SAFETY: forwarded.
    unsafe {
        let range = DrawRange::Indexed { count, start_index, base_vertex };
        record_draw(this, "DrawIndexedInstanced", range, instances, start_instance);
    }
}

/// The root signature and arguments of one pipeline type, for executing shaders.
pub(super) fn binds(dev: &Device, g: &GraphicsState, compute: bool) -> Binds {
    Binds {
        root: g.root_descs[usize::from(!compute)].clone(),
        root_args: g.root_args.iter().filter(|a| a.0 == compute).map(|a| (a.1, a.2.clone())).collect(),
        lookup: Lookup { heaps: dev.descriptor_heaps.clone(), resources: dev.resources.clone(), va: dev.va().clone() },
    }
}

/// A bundle's draw, dispatch or ExecuteIndirect, as the executing list records it with the
/// merged state.
fn materialize(l: &CommandList, s: &mut ListState, g: &GraphicsState, work: &BundleWork) {
    let dev = &l.device.inner;
    match work {
        BundleWork::Draw { range, instances, start_instance } => {
            let indexed = match *range {
                DrawRange::Indexed { count, start_index, .. } => Some((count, start_index)),
                DrawRange::Vertices { .. } => None,
            };
            check_work_state(dev, g, "ExecuteBundle", false, indexed);
            match g.executable.as_ref().filter(|e| e.runs(false)) {
                Some(exe) => {
                    let w = draw_work(dev, g, exe, *range, *instances, *start_instance);
                    s.commands.push(Command::Draw(Box::new(w)));
                }
                None => {
                    l.warn_shader_work("ExecuteBundle");
                    s.commands.push(shader_work(g, "draw", false));
                }
            }
        }
        BundleWork::Dispatch(groups) => {
            check_work_state(dev, g, "ExecuteBundle", true, None);
            match g.executable.as_ref().filter(|e| e.runs(true)) {
                Some(exe) => {
                    let w = DispatchWork { pipeline: exe.clone(), binds: binds(dev, g, true), groups: *groups };
                    s.commands.push(Command::Dispatch(Box::new(w)));
                }
                None => {
                    l.warn_shader_work("ExecuteBundle");
                    s.commands.push(shader_work(g, "dispatch", true));
                }
            }
        }
        BundleWork::Indirect { layout, max, args, count } => {
            use rd3d12_core::indirect::SignatureKind;
            let compute = layout.kind == SignatureKind::Compute;
            check_work_state(dev, g, "ExecuteBundle", compute, None);
            let Some(base) = indirect_base(dev, g, compute) else {
                l.warn_shader_work("ExecuteBundle");
                s.commands.push(shader_work(g, "set of indirect commands", compute));
                return;
            };
            s.commands.push(Command::Indirect(Box::new(IndirectWork {
                layout: layout.clone(),
                max: *max,
                args: args.clone(),
                count: count.clone(),
                base,
            })));
        }
    }
}

/// What a draw, dispatch or ExecuteIndirect (`what`) records when the CPU backend does not
/// execute the bound pipeline: the reason, reported as a skip (stderr at RD3D12_LOG=warn, once
/// per reason, and a debug-layer message) each time the list executes it.
fn shader_work(g: &GraphicsState, what: &'static str, compute: bool) -> Command {
    let why = match g.executable.as_ref() {
        None => Some("no pipeline state is set".to_string()),
        Some(e) => e.skip_reason(compute).map(str::to_owned),
    };
    Command::ShaderWork { what, why: why.unwrap_or_else(|| "its pipeline cannot run".into()) }
}

/// The state an ExecuteIndirect's commands start from, if the bound pipeline runs on the CPU
/// backend.
fn indirect_base(dev: &Device, g: &GraphicsState, compute: bool) -> Option<IndirectBase> {
    let e = g.executable.as_ref()?;
    if compute && e.runs(true) {
        let w = DispatchWork { pipeline: e.clone(), binds: binds(dev, g, true), groups: [0; 3] };
        Some(IndirectBase::Dispatch(Box::new(w)))
    } else if !compute && e.runs(false) {
        let range = DrawRange::Indexed { count: 0, start_index: 0, base_vertex: 0 };
        Some(IndirectBase::Draw(Box::new(draw_work(dev, g, e, range, 0, 0))))
    } else {
        None
    }
}

/// A draw's work from the list's state (the index buffer only for indexed draws).
fn draw_work(
    dev: &Device,
    g: &GraphicsState,
    exe: &Arc<crate::work::pipeline::Executable>,
    range: DrawRange,
    instances: u32,
    start_instance: u32,
) -> DrawWork {
    let resolve_va = |va: u64, size: u32| {
        if va == 0 || size == 0 {
            return None;
        }
        dev.va().resolve(va, u64::from(size))
    };
    let mut vertex_buffers = Vec::new();
    for (slot, v) in &g.vertex_buffers {
        let slot = *slot as usize;
        if vertex_buffers.len() <= slot {
            vertex_buffers.resize(slot + 1, None);
        }
        vertex_buffers[slot] =
            resolve_va(v.BufferLocation, v.SizeInBytes).map(|(m, o)| (m, o, v.SizeInBytes, v.StrideInBytes));
    }
    let index_buffer = match range {
        DrawRange::Indexed { .. } => g
            .index_buffer
            .and_then(|v| resolve_va(v.BufferLocation, v.SizeInBytes).map(|(m, o)| (m, o, v.SizeInBytes, v.Format))),
        DrawRange::Vertices { .. } => None,
    };
    DrawWork {
        pipeline: exe.clone(),
        binds: binds(dev, g, false),
        topology: g.topology as u32,
        viewports: g.viewports.clone(),
        scissors: g.scissors.clone(),
        blend_factor: g.blend_factor,
        stencil_ref: g.stencil_ref,
        sample_positions: g.sample_positions.clone(),
        vertex_buffers,
        index_buffer,
        range,
        instances,
        start_instance,
        render_targets: g.render_targets.iter().map(|&h| bound_view(dev, h)).collect(),
        depth_stencil: g.depth_stencil.and_then(|h| bound_view(dev, h)),
        stream_output: so_targets(dev, g, exe),
    }
}

/// The bound stream-output buffers by slot, for a pipeline that declares stream output. A
/// view whose buffer or filled-size location does not resolve is no buffer: its writes are
/// dropped (as with BufferLocation 0).
pub(super) fn so_targets(
    dev: &Device,
    g: &GraphicsState,
    exe: &crate::work::pipeline::Executable,
) -> Vec<Option<crate::work::commands::SoTarget>> {
    if exe.pipeline.desc.stream_output.entries.is_empty() {
        return Vec::new();
    }
    let mut out = vec![None; D3D12_SO_BUFFER_SLOT_COUNT as usize];
    for (slot, v) in &g.so_targets {
        let target = (|| {
            if v.BufferLocation == 0 || v.SizeInBytes == 0 {
                return None;
            }
            let (memory, offset) = dev.va().resolve(v.BufferLocation, v.SizeInBytes)?;
            let filled = dev.va().resolve(v.BufferFilledSizeLocation, 4)?;
            memory.mark_dirty();
            filled.0.mark_dirty();
            Some(crate::work::commands::SoTarget { memory, offset, size: v.SizeInBytes, filled })
        })();
        if let Some(s) = out.get_mut(*slot as usize) {
            *s = target;
        }
    }
    out
}

/// A view bound with OMSetRenderTargets, read now (the GPU uses the descriptor contents of
/// record time); its memory is noted as written.
fn bound_view(dev: &Device, h: D3D12_CPU_DESCRIPTOR_HANDLE) -> Option<BoundView> {
    let view = descriptor_heap::descriptor_at(dev, h)?;
    let resource = descriptor_heap::resolve(dev, view.resource)?;
    resource.memory.mark_dirty();
    Some(BoundView { view, resource })
}

/// Records a draw: the bound state is captured; descriptor tables are read at execution. A
/// pipeline the CPU backend cannot run (DXBC, stages besides VS and PS) is recorded as
/// shader work that produces nothing, with the one-time warning.
///
/// # Safety
/// `this` null or one of our live list pointers.
unsafe fn record_draw(this: *mut Iface, name: &'static str, range: DrawRange, instances: u32, start_instance: u32) {
    // SAFETY: forwarded.
    unsafe {
        record(this, name, |l, s| {
            if !DIRECT.contains(&l.ty) {
                return Err(wrong_list_type("this command is not valid on this command list type"));
            }
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                // Completed with the executing list's state at ExecuteBundle.
                let work = BundleWork::Draw { range, instances, start_instance };
                s.commands.push(Command::BundleWork(Box::new((s.gfx.clone(), work))));
                return Ok(());
            }
            let g = &s.gfx;
            let indexed = match range {
                DrawRange::Indexed { count, start_index, .. } => Some((count, start_index)),
                DrawRange::Vertices { .. } => None,
            };
            check_work_state(&l.device.inner, g, name, false, indexed);
            let runnable = g.executable.as_ref().filter(|e| e.runs(false));
            let Some(exe) = runnable else {
                l.warn_shader_work(name);
                s.commands.push(shader_work(g, "draw", false));
                return Ok(());
            };
            let work = draw_work(&l.device.inner, g, exe, range, instances, start_instance);
            s.commands.push(Command::Draw(Box::new(work)));
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn dispatch(this: *mut Iface, x: UINT, y: UINT, z: UINT) {
    let max = D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION;
    // SAFETY: forwarded.
    unsafe {
        record(this, "Dispatch", |l, s| {
            if !COMPUTE.contains(&l.ty) {
                return Err(wrong_list_type("this command is not valid on this command list type"));
            }
            if x > max || y > max || z > max {
                return Err(rec_err(D3D12_MESSAGE_ID_OVERSIZED_DISPATCH, "thread group count above 65535"));
            }
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                if x == 0 || y == 0 || z == 0 {
                    return Ok(());
                }
                s.commands.push(Command::BundleWork(Box::new((s.gfx.clone(), BundleWork::Dispatch([x, y, z])))));
                return Ok(());
            }
            let g = &s.gfx;
            check_work_state(&l.device.inner, g, "Dispatch", true, None);
            let runnable = g.executable.as_ref().filter(|e| e.runs(true));
            let Some(exe) = runnable else {
                l.warn_shader_work("Dispatch");
                s.commands.push(shader_work(g, "dispatch", true));
                return Ok(());
            };
            if x == 0 || y == 0 || z == 0 {
                return Ok(());
            }
            let work =
                DispatchWork { pipeline: exe.clone(), binds: binds(&l.device.inner, g, true), groups: [x, y, z] };
            s.commands.push(Command::Dispatch(Box::new(work)));
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn dispatch_mesh(this: *mut Iface, _x: UINT, _y: UINT, _z: UINT) {
    // SAFETY: forwarded. Mesh shaders are reported unsupported (OPTIONS7 tier 0).
    unsafe {
        record(this, "DispatchMesh", |_, _| {
            Err(rec_err(
                D3D12_MESSAGE_ID_COMMAND_LIST_DISPATCH_ROOT_SIGNATURE_NOT_SET,
                "mesh shaders are not supported",
            ))
        })
    }
}

/// ExecuteIndirect: validated against the command signature (IndirectDrawing.md, "Drawing" and
/// "Bundles"): offsets 4-byte aligned, the MaxCommandCount records inside the argument buffer
/// (ArgumentBufferOffset + ByteStride × (MaxCommandCount − 1) + the record's argument bytes), the
/// count inside the count buffer, buffers only; drawing signatures on direct lists and bundles,
/// and in bundles no count buffer and a signature of one argument.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn execute_indirect(
    this: *mut Iface,
    sig: *mut ID3D12CommandSignature,
    max: UINT,
    args: *mut ID3D12Resource,
    args_off: UINT64,
    count: *mut ID3D12Resource,
    count_off: UINT64,
) {
    use rd3d12_core::indirect::{self, IndirectError, ListKind};
    const INVALID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_EXECUTE_INDIRECT_INVALID_PARAMETERS;
    // SAFETY: forwarded; the signature and buffers are recognised by their vtables.
    unsafe {
        let kind = match list(this).map(|l| l.ty) {
            Some(D3D12_COMMAND_LIST_TYPE_DIRECT) => ListKind::Direct,
            Some(D3D12_COMMAND_LIST_TYPE_BUNDLE) => ListKind::Bundle,
            Some(D3D12_COMMAND_LIST_TYPE_COMPUTE) => ListKind::Compute,
            _ => ListKind::Other,
        };
        let check = || {
            let sig = crate::command_signature::CommandSignature::from_iface(sig)
                .ok_or_else(|| rec_err(INVALID, "pCommandSignature is NULL or not a command signature"))?;
            let buffer = |r: &Object<Resource>, what: &'static str| {
                if r.inner.is_buffer() {
                    Ok(r.inner.desc.Width)
                } else {
                    Err(rec_err(INVALID, what))
                }
            };
            let a = resource(args, INVALID, "pArgumentBuffer is NULL or not a resource")?;
            let a = (buffer(a, "pArgumentBuffer is not a buffer")?, args_off);
            let c = if count.is_null() {
                None
            } else {
                let c = resource(count, INVALID, "pCountBuffer is not a resource")?;
                Some((buffer(c, "pCountBuffer is not a buffer")?, count_off))
            };
            indirect::execute_indirect(&sig.inner.layout, kind, max, a, c).map_err(|e| match e {
                IndirectError::ListType(_) => {
                    wrong_list_type("this command signature cannot execute on this command list type")
                }
                IndirectError::Invalid(m) => rec_err(INVALID, m),
            })?;
            Ok(Some(sig.inner.layout.clone()))
        };
        record(this, "ExecuteIndirect", |l, s| {
            if !COMPUTE.contains(&l.ty) {
                return Err(wrong_list_type("this command is not valid on this command list type"));
            }
            let Some(layout) = check()? else { return Ok(()) };
            // Validated above: both are buffers when present.
            let a = resource(args, INVALID, "pArgumentBuffer is NULL")?;
            let c = if count.is_null() { None } else { Some((resource(count, INVALID, "pCountBuffer")?, count_off)) };
            record_indirect(l, s, layout, max, (a, args_off), c);
            Ok(())
        })
    }
}

/// Records an ExecuteIndirect whose arguments were validated: the state its draws or
/// dispatches start from, the argument buffer and the count buffer, read at execution.
///
/// # Safety
/// `this` null or one of our live lists; the buffers live COM pointers (validated).
unsafe fn record_indirect(
    l: &CommandList,
    s: &mut ListState,
    layout: rd3d12_core::indirect::CommandSignature,
    max: u32,
    args: (&Object<Resource>, u64),
    count: Option<(&Object<Resource>, u64)>,
) {
    use rd3d12_core::indirect::SignatureKind;
    if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
        let work = BundleWork::Indirect {
            layout,
            max,
            args: (args.0.inner.memory(), args.1),
            count: count.map(|(c, off)| (c.inner.memory(), off)),
        };
        s.commands.push(Command::BundleWork(Box::new((s.gfx.clone(), work))));
        return;
    }
    let g = &s.gfx;
    let dev = &l.device.inner;
    let compute = layout.kind == SignatureKind::Compute;
    check_work_state(dev, g, "ExecuteIndirect", compute, None);
    let Some(base) = indirect_base(dev, g, compute) else {
        l.warn_shader_work("ExecuteIndirect");
        s.commands.push(shader_work(g, "set of indirect commands", compute));
        return;
    };
    s.commands.push(Command::Indirect(Box::new(IndirectWork {
        layout,
        max,
        args: (args.0.inner.memory(), args.1),
        count: count.map(|(c, off)| (c.inner.memory(), off)),
        base,
    })));
}

pub(super) unsafe extern "C" fn execute_bundle(this: *mut Iface, bundle: *mut ID3D12GraphicsCommandList) {
    // SAFETY: the bundle recognised by vtable.
    unsafe {
        record(this, "ExecuteBundle", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("bundles execute on direct command lists only"));
            }
            let b = downcast::<CommandList, _>(bundle).ok_or_else(|| {
                rec_err(D3D12_MESSAGE_ID_EXECUTE_BUNDLE_TYPE, "pCommandList is NULL or not a command list")
            })?;
            if b.inner.ty != D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(rec_err(D3D12_MESSAGE_ID_EXECUTE_BUNDLE_TYPE, "ExecuteBundle needs a bundle"));
            }
            let rec = {
                let bs = b.inner.lock();
                match (bs.phase, &bs.recorded) {
                    (Phase::Closed, Some(r)) => r.clone(),
                    _ => return Err(rec_err(D3D12_MESSAGE_ID_EXECUTE_BUNDLE_OPEN_BUNDLE, "the bundle is not closed")),
                }
            };
            // The bundle's draws and dispatches run with this list's state plus what the bundle
            // set before them, in the bundle's order among the rest of it (markers).
            let outer = std::mem::take(&mut s.commands);
            for c in &rec.commands {
                let Command::BundleWork(w) = c else { continue };
                let (bg, work) = &**w;
                let merged = s.gfx.with_bundle(bg);
                let before = s.commands.len();
                materialize(l, s, &merged, work);
                debug_assert_eq!(s.commands.len(), before + 1, "one command per bundle draw or dispatch");
            }
            let work = std::mem::replace(&mut s.commands, outer);
            s.commands.push(Command::Bundle(Box::new((rec.clone(), work))));
            // What the bundle set stays set in this list.
            if let Some(end) = &rec.bundle_state {
                s.gfx = s.gfx.with_bundle(end);
            }
            Ok(())
        })
    }
}
