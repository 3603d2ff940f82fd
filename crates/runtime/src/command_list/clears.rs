//! ClearRenderTargetView, ClearDepthStencilView, ClearUnorderedAccessView{Uint,Float} and
//! DiscardResource: validated views, recorded as fills of element patterns.

use super::*;

/// The rectangles of a clear (none: the whole view).
///
/// # Safety
/// `rects` null or `n` readable rects.
unsafe fn clear_rects<'a>(n: UINT, rects: *const D3D12_RECT, id: D3D12_MESSAGE_ID) -> Result<&'a [D3D12_RECT]> {
    if n == 0 {
        Ok(&[])
    } else if rects.is_null() {
        Err(rec_err(id, "pRects is NULL with NumRects > 0"))
    } else {
        // SAFETY: the caller passes n readable rects.
        Ok(unsafe { std::slice::from_raw_parts(rects, n as usize) })
    }
}

/// The live descriptor of kind `kind` at a CPU handle, or a recording error.
pub(super) fn clear_view(
    l: &CommandList,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
    kind: Kind,
    id: D3D12_MESSAGE_ID,
) -> Result<Descriptor> {
    descriptor_heap::descriptor_at(&l.device.inner, h)
        .filter(|d| d.kind == kind)
        .ok_or_else(|| rec_err(id, "the descriptor handle is not a descriptor of the right type in a live heap"))
}

/// Records a clear of `plane` of the view's resource with one encoded element.
pub(super) fn push_clear(
    l: &CommandList,
    s: &mut ListState,
    view: &Descriptor,
    plane: u32,
    (element, bytes): ([u8; 16], usize),
    rects: &[D3D12_RECT],
    id: D3D12_MESSAGE_ID,
) -> Result<()> {
    let e = descriptor_heap::resolve(&l.device.inner, view.resource).ok_or_else(|| {
        rec_err(D3D12_MESSAGE_ID_DESCRIPTOR_HANDLE_WITH_INVALID_RESOURCE, "the view's resource is destroyed")
    })?;
    let fills = if e.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER {
        clear::buffer_fills(e.desc.Width, view, bytes as u32, rects)
    } else {
        clear::texture_fills(&e.desc, view, plane, bytes as u32, rects)
    }
    .map_err(|_| rec_err(id, "the view does not fit its resource"))?;
    if !fills.is_empty() {
        e.memory.mark_dirty();
        s.commands.push(Command::Fill { memory: e.memory, fills, element, element_bytes: bytes as u32 });
    }
    Ok(())
}

pub(super) unsafe extern "C" fn clear_dsv(
    this: *mut Iface,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
    flags: D3D12_CLEAR_FLAGS,
    depth: FLOAT,
    stencil: UINT8,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEARDEPTHSTENCILVIEW_INVALID;
    // SAFETY: rects null or n readable rects.
    unsafe {
        record(this, "ClearDepthStencilView", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("ClearDepthStencilView is valid on direct command lists only"));
            }
            if flags.0 == 0 || flags.0 & !3 != 0 {
                return Err(rec_err(ID, "ClearFlags must be DEPTH, STENCIL or both"));
            }
            if !(0.0..=1.0).contains(&depth) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_CLEARDEPTHSTENCILVIEW_MISMATCHINGCLEARVALUE,
                    "Depth must be within [0, 1]",
                ));
            }
            let rects = clear_rects(n, rects, ID)?;
            let view = clear_view(l, h, Kind::DSV, D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE)?;
            if view.is_null() {
                return Ok(());
            }
            // The view's READ_ONLY_DEPTH / READ_ONLY_STENCIL flags say how OMSetRenderTargets
            // binds it; they do not limit the clear, which writes the planes ClearFlags names
            // (Windows accepts these clears).
            if flags.0 & D3D12_CLEAR_FLAG_DEPTH.0 != 0 {
                let e = pack::encode_depth(view.format, depth).ok_or_else(|| rec_err(ID, "not a depth format"))?;
                push_clear(l, s, &view, 0, e, rects, ID)?;
            }
            // STENCIL on a format without stencil clears nothing.
            if flags.0 & D3D12_CLEAR_FLAG_STENCIL.0 != 0 {
                if let Some(e) = pack::encode_stencil(view.format, stencil) {
                    push_clear(l, s, &view, 1, e, rects, ID)?;
                }
            }
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn clear_rtv(
    this: *mut Iface,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
    color: *const FLOAT,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEARRENDERTARGETVIEW_MISMATCHINGCLEARVALUE;
    // SAFETY: color null or 4 readable floats; rects null or n readable rects.
    unsafe {
        record(this, "ClearRenderTargetView", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("ClearRenderTargetView is valid on direct command lists only"));
            }
            if color.is_null() {
                return Err(rec_err(ID, "ColorRGBA is NULL"));
            }
            let rects = clear_rects(n, rects, ID)?;
            let view = clear_view(l, h, Kind::RTV, D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE)?;
            if view.is_null() {
                return Ok(());
            }
            let rgba = std::ptr::read_unaligned(color.cast::<[f32; 4]>());
            let e = pack::encode_color(view.format, rgba)
                .ok_or_else(|| rec_err(ID, "the view format cannot be cleared"))?;
            push_clear(l, s, &view, view.plane as u32, e, rects, ID)
        })
    }
}

/// ClearUnorderedAccessViewUint / Float: the GPU handle must address the view in a
/// shader-visible heap, the CPU handle the same view in a heap that is not, and pResource
/// must be the view's resource.
#[allow(clippy::too_many_arguments)]
unsafe fn clear_uav(
    this: *mut Iface,
    name: &'static str,
    gpu: D3D12_GPU_DESCRIPTOR_HANDLE,
    cpu: D3D12_CPU_DESCRIPTOR_HANDLE,
    res: *mut ID3D12Resource,
    values: *const c_void,
    float: bool,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    const HANDLE: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEAR_UNORDERED_ACCESS_VIEW_INVALID_DESCRIPTOR_HANDLE;
    const PTR: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEARUNORDEREDACCESSVIEW_INVALID_RESOURCE_PTR;
    // SAFETY: values null or 4 readable 32-bit values; rects null or n readable rects.
    unsafe {
        record(this, name, |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT && l.ty != D3D12_COMMAND_LIST_TYPE_COMPUTE {
                return Err(wrong_list_type("UAV clears are valid on direct and compute command lists only"));
            }
            if values.is_null() {
                return Err(rec_err(HANDLE, "Values is NULL"));
            }
            let rects = clear_rects(n, rects, HANDLE)?;
            let dev = &l.device.inner;
            let visible = |p: usize| dev.descriptor_heaps.span(p).map(|s| s.visible);
            if visible(cpu.ptr) != Some(false) {
                return Err(rec_err(HANDLE, "ViewCPUHandle must be in a heap that is not shader-visible"));
            }
            let view = clear_view(l, cpu, Kind::UAV, HANDLE)?;
            let gview = descriptor_heap::descriptor_at_gpu(dev, gpu)
                .filter(|g| g.kind == Kind::UAV)
                .ok_or_else(|| rec_err(HANDLE, "ViewGPUHandleInCurrentHeap is not a UAV in a shader-visible heap"))?;
            // A NULL UAV (created with pResource NULL) views nothing: the clear writes nothing,
            // whatever pResource is, and Windows closes the list.
            if view.is_null() {
                return Ok(());
            }
            let r = resource(res, PTR, "pResource is NULL or not a resource")?;
            if view.resource != r.inner.id || gview.resource != view.resource {
                return Err(rec_err(PTR, "pResource is not the resource of the views"));
            }
            s.use_as(r, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_UNORDERED_ACCESS.0);
            let e = if float {
                // FLOAT, UNORM, SNORM and integer views (integers take the values as
                // integral floats); raw and structured views are refused.
                pack::encode_uav_float(view.format, std::ptr::read_unaligned(values.cast::<[f32; 4]>()))
            } else {
                pack::encode_uint(view.format, std::ptr::read_unaligned(values.cast::<[u32; 4]>()))
            };
            let e = e.ok_or_else(|| {
                rec_err(
                    D3D12_MESSAGE_ID_CLEARUNORDEREDACCESSVIEW_INCOMPATIBLE_WITH_STRUCTURED_BUFFERS,
                    "this clear is not valid for the view's format",
                )
            })?;
            push_clear(l, s, &view, view.plane as u32, e, rects, HANDLE)
        })
    }
}

pub(super) unsafe extern "C" fn clear_uav_uint(
    this: *mut Iface,
    g: D3D12_GPU_DESCRIPTOR_HANDLE,
    c: D3D12_CPU_DESCRIPTOR_HANDLE,
    r: *mut ID3D12Resource,
    v: *const UINT,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    // SAFETY: forwarded.
    unsafe { clear_uav(this, "ClearUnorderedAccessViewUint", g, c, r, v.cast(), false, n, rects) }
}
pub(super) unsafe extern "C" fn clear_uav_float(
    this: *mut Iface,
    g: D3D12_GPU_DESCRIPTOR_HANDLE,
    c: D3D12_CPU_DESCRIPTOR_HANDLE,
    r: *mut ID3D12Resource,
    v: *const FLOAT,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    // SAFETY: forwarded.
    unsafe { clear_uav(this, "ClearUnorderedAccessViewFloat", g, c, r, v.cast(), true, n, rects) }
}

/// DiscardResource: contents become undefined; keeping them is a valid outcome on a CPU backend.
pub(super) unsafe extern "C" fn discard_resource(
    this: *mut Iface,
    res: *mut ID3D12Resource,
    region: *const D3D12_DISCARD_REGION,
) {
    // SAFETY: resource recognised by vtable; region null or readable.
    unsafe {
        record(this, "DiscardResource", |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE || l.ty == D3D12_COMMAND_LIST_TYPE_COPY {
                return Err(wrong_list_type("DiscardResource is not valid on bundles or copy lists"));
            }
            let r = resource(res, D3D12_MESSAGE_ID_DISCARD_INVALID_SUBRESOURCE_RANGE, "pResource is NULL")?;
            if let Some(reg) = region.as_ref() {
                if reg.FirstSubresource.checked_add(reg.NumSubresources).is_none_or(|e| e > r.inner.subresource_count) {
                    return Err(rec_err(
                        D3D12_MESSAGE_ID_DISCARD_INVALID_SUBRESOURCE_RANGE,
                        "discard region beyond the resource",
                    ));
                }
                if reg.NumRects > 0 && reg.pRects.is_null() {
                    return Err(rec_err(D3D12_MESSAGE_ID_DISCARD_INVALID_SUBRESOURCE_RANGE, "NULL rects"));
                }
            }
            s.touch(r);
            Ok(())
        })
    }
}
