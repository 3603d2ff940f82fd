//! The fixed-function and pipeline state setters (IA, RS, OM, SO, SetPipelineState,
//! SetSamplePositions, SetViewInstanceMask): checked, then recorded into the list's
//! [`GraphicsState`].

use super::*;

/// A state-setting method: legal on `allowed` list types, then `f` updates the recorded state.
///
/// # Safety
/// `this` null or one of our live list pointers.
pub(super) unsafe fn set_state(
    this: *mut Iface,
    name: &'static str,
    allowed: &[D3D12_COMMAND_LIST_TYPE],
    f: impl FnOnce(&mut GraphicsState) -> Result<()>,
) {
    // SAFETY: forwarded.
    unsafe {
        record(this, name, |l, s| {
            if !allowed.contains(&l.ty) {
                return Err(wrong_list_type("this state cannot be set on this command list type"));
            }
            s.gfx.bundle = l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE;
            f(&mut s.gfx)
        })
    }
}

/// # Safety
/// `p` null or `n` readable elements.
pub(super) unsafe fn array<T: Copy>(p: *const T, n: u32) -> Result<Vec<T>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "NULL array with a non-zero count"));
    }
    // SAFETY: forwarded.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) }.to_vec())
}

pub(super) unsafe extern "C" fn ia_set_primitive_topology(this: *mut Iface, t: D3D12_PRIMITIVE_TOPOLOGY) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "IASetPrimitiveTopology", DIRECT, |g| {
            g.topology = t.0 as i32;
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn rs_set_viewports(this: *mut Iface, n: UINT, v: *const D3D12_VIEWPORT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "RSSetViewports", DIRECT, |g| {
            if n > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "more than 16 viewports"));
            }
            g.viewports = array(v, n)?;
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn rs_set_scissor_rects(this: *mut Iface, n: UINT, r: *const D3D12_RECT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "RSSetScissorRects", DIRECT, |g| {
            if n > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "more than 16 scissor rects"));
            }
            g.scissors = array(r, n)?;
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn om_set_blend_factor(this: *mut Iface, f: *const FLOAT) {
    // SAFETY: forwarded; `f` null or 4 floats.
    unsafe {
        set_state(this, "OMSetBlendFactor", DIRECT, |g| {
            g.blend_factor = if f.is_null() { [1.0; 4] } else { *(f as *const [f32; 4]) };
            g.bundle_set.blend_factor = true;
            Ok(())
        })
    }
}
/// [SetSamplePositions](https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12graphicscommandlist1-setsamplepositions)
/// at tier 1: one pattern for every pixel, used by later draws whose pipeline has that many
/// samples. (0, 0, NULL) restores the standard pattern; a sample count other than 1, 2, 4, 8
/// or 16, a pixel count other than 1 (4 needs tier 2), more than 16 positions or a position
/// outside [-8, 7] drops the call (Programmable Sample Positions spec). Not in bundles, which
/// inherit the pattern of the list that executes them.
pub(super) unsafe extern "C" fn set_sample_positions(
    this: *mut Iface,
    n: UINT,
    pixels: UINT,
    p: *mut D3D12_SAMPLE_POSITION,
) {
    // SAFETY: forwarded; `p` holds n × pixels positions per the method's contract.
    unsafe {
        record(this, "SetSamplePositions", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("SetSamplePositions is for direct command lists only"));
            }
            if n == 0 && pixels == 0 {
                s.gfx.sample_positions.clear();
                return Ok(());
            }
            let tier = l.caps().programmable_sample_positions_tier;
            let counts_ok = matches!(n, 1 | 2 | 4 | 8 | 16) && (pixels == 1 || (pixels == 4 && tier >= 2));
            if !counts_ok || n * pixels > 16 || p.is_null() {
                return Ok(());
            }
            let all = array(p.cast_const(), n * pixels)?;
            if all.iter().any(|q| !(-8..=7).contains(&q.X) || !(-8..=7).contains(&q.Y)) {
                return Ok(());
            }
            s.gfx.sample_positions = all.iter().map(|q| (q.X, q.Y)).collect();
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn om_set_stencil_ref(this: *mut Iface, r: UINT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "OMSetStencilRef", DIRECT, |g| {
            g.stencil_ref = r;
            g.bundle_set.stencil_ref = true;
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn set_pipeline_state(this: *mut Iface, p: *mut ID3D12PipelineState) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "SetPipelineState", COMPUTE, |g| {
            let Some(pso) = crate::pipeline_state::PipelineState::from_iface(p) else {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COMMAND_LIST_PIPELINE_STATE_NOT_SET,
                    "pPipelineState is NULL or not a pipeline state",
                ));
            };
            g.pipeline = p as usize;
            g.executable = Some(pso.inner.pipeline.clone());
            if crate::trace::on() {
                crate::trace::name_pipeline(&pso.inner.pipeline, crate::com::live::name_of(&pso.private));
            }
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn ia_set_index_buffer(this: *mut Iface, v: *const D3D12_INDEX_BUFFER_VIEW) {
    // SAFETY: forwarded; view null or readable.
    unsafe {
        set_state(this, "IASetIndexBuffer", DIRECT, |g| {
            g.index_buffer = v.as_ref().copied();
            g.bundle_set.index_buffer = true;
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn ia_set_vertex_buffers(
    this: *mut Iface,
    start: UINT,
    n: UINT,
    v: *const D3D12_VERTEX_BUFFER_VIEW,
) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "IASetVertexBuffers", DIRECT, |g| {
            if start.checked_add(n).is_none_or(|e| e > D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT) {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "vertex buffer slots beyond 32"));
            }
            let views = if v.is_null() { vec![D3D12_VERTEX_BUFFER_VIEW::default(); n as usize] } else { array(v, n)? };
            for (k, view) in views.into_iter().enumerate() {
                let slot = start + k as u32;
                g.vertex_buffers.retain(|(s, _)| *s != slot);
                g.vertex_buffers.push((slot, view));
            }
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn so_set_targets(
    this: *mut Iface,
    start: UINT,
    n: UINT,
    v: *const D3D12_STREAM_OUTPUT_BUFFER_VIEW,
) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "SOSetTargets", DIRECT, |g| {
            if start.checked_add(n).is_none_or(|e| e > D3D12_SO_BUFFER_SLOT_COUNT) {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "stream-output slots beyond 4"));
            }
            let views =
                if v.is_null() { vec![D3D12_STREAM_OUTPUT_BUFFER_VIEW::default(); n as usize] } else { array(v, n)? };
            for (k, view) in views.into_iter().enumerate() {
                let slot = start + k as u32;
                g.so_targets.retain(|(s, _)| *s != slot);
                g.so_targets.push((slot, view));
            }
            Ok(())
        })
    }
}
/// OMSetRenderTargets: up to 8 RTVs (an array, or one handle starting a contiguous range of
/// the RTV heap) and an optional DSV, each a descriptor of its type in a live heap.
pub(super) unsafe extern "C" fn om_set_render_targets(
    this: *mut Iface,
    n: UINT,
    rts: *const D3D12_CPU_DESCRIPTOR_HANDLE,
    single_range: BOOL,
    ds: *const D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_SET_RENDER_TARGETS_INVALID;
    // SAFETY: rts null or n (or, for a single range, 1) readable handles; ds null or readable.
    unsafe {
        record(this, "OMSetRenderTargets", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("OMSetRenderTargets is valid on direct command lists only"));
            }
            if n > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COMMAND_LIST_SETRENDERTARGETS_INVALIDNUMRENDERTARGETS,
                    "more than 8 render targets",
                ));
            }
            let handles: Vec<D3D12_CPU_DESCRIPTOR_HANDLE> = if single_range != 0 && n > 0 {
                let first = array(rts, 1)?[0];
                let step = rd3d12_core::descriptor::DESCRIPTOR_SIZE as usize;
                (0..n as usize).map(|i| D3D12_CPU_DESCRIPTOR_HANDLE { ptr: first.ptr + i * step }).collect()
            } else {
                array(rts, n)?
            };
            let dev = &l.device.inner;
            let is = |h: D3D12_CPU_DESCRIPTOR_HANDLE, ty: D3D12_DESCRIPTOR_HEAP_TYPE| {
                dev.descriptor_heaps.run(h.ptr, 1, ty.0).is_some()
            };
            if !handles.iter().all(|&h| is(h, D3D12_DESCRIPTOR_HEAP_TYPE_RTV)) {
                return Err(rec_err(ID, "a render-target handle is not a descriptor of a live RTV heap"));
            }
            let ds = ds.as_ref().copied();
            if ds.is_some_and(|h| !is(h, D3D12_DESCRIPTOR_HEAP_TYPE_DSV)) {
                return Err(rec_err(ID, "pDepthStencilDescriptor is not a descriptor of a live DSV heap"));
            }
            s.gfx.render_targets = handles;
            s.gfx.depth_stencil = ds;
            Ok(())
        })
    }
}
pub(super) unsafe extern "C" fn set_view_instance_mask(this: *mut Iface, mask: UINT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "SetViewInstanceMask", DIRECT, |g| {
            // View instancing is reported unsupported (OPTIONS3 tier 0): only view 0 exists.
            if mask > 1 {
                return Err(rec_err(D3D12_MESSAGE_ID_VIEW_INSTANCING_UNSUPPORTED, "view instancing is not supported"));
            }
            g.view_instance_mask = mask;
            Ok(())
        })
    }
}
