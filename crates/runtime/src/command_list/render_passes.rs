//! BeginRenderPass and EndRenderPass (render passes tier 0: emulated with OMSetRenderTargets,
//! clears and resolves).

use super::*;

/// A RESOLVE ending access of a render pass, copied out of the BeginRenderPass desc (whose
/// memory the application may reuse before EndRenderPass).
#[derive(Clone, Copy)]
pub(super) struct PassResolve {
    src: *mut ID3D12Resource,
    dst: *mut ID3D12Resource,
    sub: D3D12_RENDER_PASS_ENDING_ACCESS_RESOLVE_SUBRESOURCE_PARAMETERS,
    format: DXGI_FORMAT,
    mode: D3D12_RESOLVE_MODE,
}

// SAFETY: the pointers are only compared and passed back to `record_resolve`, which recognises
// them by vtable, on the thread recording the list (lists are not free-threaded).
unsafe impl Send for PassResolve {}

/// The RESOLVE ending accesses of an ending-access desc.
///
/// # Safety
/// The desc's pSubresourceParameters holds SubresourceCount readable entries when non-null.
pub(super) unsafe fn pass_resolves(e: &D3D12_RENDER_PASS_ENDING_ACCESS, out: &mut Vec<PassResolve>) -> Result<()> {
    if e.Type != D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_RESOLVE {
        return Ok(());
    }
    // SAFETY: the union holds the resolve parameters for a RESOLVE access.
    let r = unsafe { e.__bindgen_anon_1.Resolve };
    // SAFETY: forwarded.
    for sub in unsafe { array(r.pSubresourceParameters, r.SubresourceCount)? } {
        out.push(PassResolve { src: r.pSrcResource, dst: r.pDstResource, sub, format: r.Format, mode: r.ResolveMode });
    }
    Ok(())
}

/// BeginRenderPass (render passes tier 0: the runtime emulates them): binds the render targets
/// and the depth-stencil view as OMSetRenderTargets does, and performs each CLEAR beginning
/// access as ClearRenderTargetView / ClearDepthStencilView would (PRESERVE, DISCARD and
/// NO_ACCESS need nothing on this backend). Render passes do not nest.
pub(super) unsafe extern "C" fn begin_render_pass(
    this: *mut Iface,
    n: UINT,
    rts: *const D3D12_RENDER_PASS_RENDER_TARGET_DESC,
    ds: *const D3D12_RENDER_PASS_DEPTH_STENCIL_DESC,
    _flags: D3D12_RENDER_PASS_FLAGS,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE;
    // SAFETY: rts null or n readable descs; ds null or readable.
    unsafe {
        record(this, "BeginRenderPass", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("render passes need a direct command list"));
            }
            if s.in_render_pass {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_RENDER_PASS_CANNOT_NEST_RENDER_PASSES,
                    "render passes do not nest",
                ));
            }
            if n > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COMMAND_LIST_SETRENDERTARGETS_INVALIDNUMRENDERTARGETS,
                    "more than 8 render targets",
                ));
            }
            let rts = array(rts, n)?;
            let ds = ds.as_ref().copied();
            let dev = &l.device.inner;
            let is = |h: D3D12_CPU_DESCRIPTOR_HANDLE, ty: D3D12_DESCRIPTOR_HEAP_TYPE| {
                dev.descriptor_heaps.run(h.ptr, 1, ty.0).is_some()
            };
            if !rts.iter().all(|r| is(r.cpuDescriptor, D3D12_DESCRIPTOR_HEAP_TYPE_RTV)) {
                return Err(rec_err(ID, "a render target's cpuDescriptor is not a descriptor of a live RTV heap"));
            }
            let ds_handle = ds.map(|d| d.cpuDescriptor).filter(|h| h.ptr != 0);
            if ds_handle.is_some_and(|h| !is(h, D3D12_DESCRIPTOR_HEAP_TYPE_DSV)) {
                return Err(rec_err(ID, "the depth-stencil cpuDescriptor is not a descriptor of a live DSV heap"));
            }
            for r in &rts {
                if r.BeginningAccess.Type != D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR {
                    continue;
                }
                let view = clear_view(l, r.cpuDescriptor, Kind::RTV, ID)?;
                if view.is_null() {
                    continue;
                }
                let rgba = r.BeginningAccess.__bindgen_anon_1.Clear.ClearValue.__bindgen_anon_1.Color;
                let e = pack::encode_color(view.format, rgba)
                    .ok_or_else(|| rec_err(ID, "the view format cannot be cleared"))?;
                push_clear(l, s, &view, view.plane as u32, e, &[], ID)?;
            }
            if let (Some(d), Some(h)) = (ds, ds_handle) {
                let depth = d.DepthBeginningAccess.Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
                let stencil = d.StencilBeginningAccess.Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
                if depth || stencil {
                    let view = clear_view(l, h, Kind::DSV, ID)?;
                    if !view.is_null() {
                        if depth {
                            let v =
                                d.DepthBeginningAccess.__bindgen_anon_1.Clear.ClearValue.__bindgen_anon_1.DepthStencil;
                            let e = pack::encode_depth(view.format, v.Depth)
                                .ok_or_else(|| rec_err(ID, "not a depth format"))?;
                            push_clear(l, s, &view, 0, e, &[], ID)?;
                        }
                        if stencil {
                            let v = d
                                .StencilBeginningAccess
                                .__bindgen_anon_1
                                .Clear
                                .ClearValue
                                .__bindgen_anon_1
                                .DepthStencil;
                            if let Some(e) = pack::encode_stencil(view.format, v.Stencil) {
                                push_clear(l, s, &view, 1, e, &[], ID)?;
                            }
                        }
                    }
                }
            }
            let mut resolves = Vec::new();
            for r in &rts {
                pass_resolves(&r.EndingAccess, &mut resolves)?;
            }
            if let Some(d) = &ds {
                pass_resolves(&d.DepthEndingAccess, &mut resolves)?;
                pass_resolves(&d.StencilEndingAccess, &mut resolves)?;
            }
            s.pass_resolves = resolves;
            s.gfx.render_targets = rts.iter().map(|r| r.cpuDescriptor).collect();
            s.gfx.depth_stencil = ds_handle;
            s.in_render_pass = true;
            Ok(())
        })
    }
}

/// EndRenderPass: performs the pass's RESOLVE ending accesses as ResolveSubresourceRegion
/// (each subresource's SrcRect to (DstX, DstY)).
pub(super) unsafe extern "C" fn end_render_pass(this: *mut Iface) {
    // SAFETY: forwarded.
    unsafe {
        let mut resolves = Vec::new();
        record(this, "EndRenderPass", |_, s| {
            if !std::mem::replace(&mut s.in_render_pass, false) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_RENDER_PASS_CANNOT_END_WITHOUT_BEGIN,
                    "EndRenderPass without BeginRenderPass",
                ));
            }
            resolves = std::mem::take(&mut s.pass_resolves);
            Ok(())
        });
        for r in resolves {
            let p = r.sub;
            let rect = (p.SrcRect.right > p.SrcRect.left && p.SrcRect.bottom > p.SrcRect.top).then_some(p.SrcRect);
            record_resolve(
                this,
                "EndRenderPass",
                r.dst,
                p.DstSubresource,
                (p.DstX, p.DstY),
                r.src,
                p.SrcSubresource,
                rect,
                r.format,
                r.mode,
                true,
            );
        }
    }
}
