//! CopyBufferRegion, CopyTextureRegion, CopyResource, CopyTiles, ResolveSubresource(Region):
//! validated against their rules and recorded as row copies, tile copies and resolve plans.

use super::*;

/// The memory of a copy destination, noted as written (so its committed memory is cleared
/// before reuse).
pub(super) fn written(r: &Object<Resource>) -> crate::work::memory::Memory {
    let m = r.inner.memory();
    m.mark_dirty();
    m
}

fn side<'a>(r: &'a Object<Resource>, location: Location) -> Side<'a> {
    Side { desc: &r.inner.desc, heap: heap_kind(&r.inner), subresource_count: r.inner.subresource_count, location }
}

pub(super) unsafe extern "C" fn copy_buffer_region(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    n: UINT64,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "CopyBufferRegion", |_, s| {
            let d = resource(dst, D3D12_MESSAGE_ID_COPYBUFFERREGION_NULLDST, "pDstBuffer is NULL or not a resource")?;
            let r = resource(src, D3D12_MESSAGE_ID_COPYBUFFERREGION_NULLSRC, "pSrcBuffer is NULL or not a resource")?;
            let (ds, ss) = (side(d, Location::Whole), side(r, Location::Whole));
            let plan = copy::copy_buffer_region(&ds, dst_off, &ss, src_off, n).map_err(violation)?;
            // Two ranges of one buffer are fine apart; overlapping, the result is undefined (the
            // copy runs as a memmove) and the debug layer says so.
            if let Some(w) = copy::buffer_copy_overlap(&ds, dst_off, &ss, src_off, n) {
                crate::debug::report_list_parts(
                    "CopyBufferRegion",
                    D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    w.id.0,
                    &w.message,
                );
            }
            s.use_as(d, 0, D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.use_as(r, 0, D3D12_RESOURCE_STATE_COPY_SOURCE.0);
            if let Some((dst_offset, src_offset, bytes)) = plan {
                s.commands.push(Command::CopyBuffer {
                    dst: written(d),
                    dst_offset,
                    src: r.inner.memory(),
                    src_offset,
                    bytes,
                });
            }
            Ok(())
        })
    }
}

/// A D3D12_TEXTURE_COPY_LOCATION as a resource and a location.
///
/// # Safety
/// `loc` null or a readable location whose resource is null or a live COM pointer.
pub(super) unsafe fn location<'a>(
    loc: *const D3D12_TEXTURE_COPY_LOCATION,
    dst: bool,
) -> Result<(&'a Object<Resource>, Location)> {
    let null_id = if dst {
        D3D12_MESSAGE_ID_COPYTEXTUREREGION_INVALIDDSTRESOURCE
    } else {
        D3D12_MESSAGE_ID_COPYTEXTUREREGION_INVALIDSRCRESOURCE
    };
    // SAFETY: null or readable.
    let l = unsafe { loc.as_ref() }.ok_or_else(|| rec_err(null_id, "NULL copy location"))?;
    // SAFETY: recognised by vtable.
    let r = unsafe { resource(l.pResource, null_id, "the copy location's resource is NULL or not a resource")? };
    // SAFETY: both union members are plain data; the Type says which one is meant and the
    // validator only reads that one.
    let (sub, fp) = unsafe { (l.__bindgen_anon_1.SubresourceIndex, l.__bindgen_anon_1.PlacedFootprint) };
    Ok((r, Location::from_texture_copy_location(l.Type.0, sub, fp)))
}

pub(super) unsafe extern "C" fn copy_texture_region(
    this: *mut Iface,
    dst: *const D3D12_TEXTURE_COPY_LOCATION,
    x: UINT,
    y: UINT,
    z: UINT,
    src: *const D3D12_TEXTURE_COPY_LOCATION,
    src_box: *const D3D12_BOX,
) {
    // SAFETY: pointers null or valid per the method's contract.
    unsafe {
        record(this, "CopyTextureRegion", |l, s| {
            let (d, dl) = location(dst, true)?;
            let (r, sl) = location(src, false)?;
            let plan = copy::copy_texture_region(&side(d, dl), x, y, z, &side(r, sl), src_box.as_ref(), l.caps())
                .map_err(violation)?;
            for w in plan.iter().flat_map(|p| &p.warnings) {
                crate::debug::report_list_parts(
                    "CopyTextureRegion",
                    D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    w.id.0,
                    &w.message,
                );
            }
            let sub_of = |loc: &Location| match loc {
                Location::Subresource(i) => *i,
                _ => 0,
            };
            s.use_as(d, sub_of(&dl), D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.use_as(r, sub_of(&sl), D3D12_RESOURCE_STATE_COPY_SOURCE.0);
            if let Some(plan) = plan {
                s.commands.push(Command::CopyTexture {
                    dst: TexSide { memory: written(d), desc: d.inner.desc },
                    src: TexSide { memory: r.inner.memory(), desc: r.inner.desc },
                    plan: Box::new(plan),
                });
            }
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn copy_resource(this: *mut Iface, dst: *mut ID3D12Resource, src: *mut ID3D12Resource) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "CopyResource", |l, s| {
            let d = resource(dst, D3D12_MESSAGE_ID_COPYRESOURCE_NULLDST, "pDstResource is NULL or not a resource")?;
            let r = resource(src, D3D12_MESSAGE_ID_COPYRESOURCE_NULLSRC, "pSrcResource is NULL or not a resource")?;
            if std::ptr::eq(d, r) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COPYRESOURCE_INVALIDSRCRESOURCE,
                    "CopyResource needs two different resources",
                ));
            }
            let (ds, rs) = (side(d, Location::Whole), side(r, Location::Whole));
            // Textures of different sizes in bytes: the debug layer's error only; Windows
            // records the call, Close succeeds, and nothing defined is copied (nothing is).
            if let Some(v) = copy::copy_resource_size_mismatch(&ds, &rs) {
                let category = rd3d12_core::info_queue::default_category(v.id.0);
                crate::debug::report_list_parts(
                    "CopyResource",
                    D3D12_MESSAGE_CATEGORY(category as _),
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    v.id.0,
                    &v.message,
                );
                return Ok(());
            }
            let ops = copy::copy_resource(&ds, &rs, l.caps()).map_err(violation)?;
            let all = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
            s.use_as(d, all, D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.use_as(r, all, D3D12_RESOURCE_STATE_COPY_SOURCE.0);
            for op in ops {
                match op {
                    copy::ResourceCopy::Buffer { bytes } => s.commands.push(Command::CopyBuffer {
                        dst: written(d),
                        dst_offset: 0,
                        src: r.inner.memory(),
                        src_offset: 0,
                        bytes,
                    }),
                    copy::ResourceCopy::Texture(plan) => s.commands.push(Command::CopyTexture {
                        dst: TexSide { memory: written(d), desc: d.inner.desc },
                        src: TexSide { memory: r.inner.memory(), desc: r.inner.desc },
                        plan: Box::new(plan),
                    }),
                }
            }
            Ok(())
        })
    }
}

/// CopyTiles: whole tiles between a reserved resource's region and a linear buffer.
pub(super) unsafe extern "C" fn copy_tiles(
    this: *mut Iface,
    tiled: *mut ID3D12Resource,
    coord: *const D3D12_TILED_RESOURCE_COORDINATE,
    size: *const D3D12_TILE_REGION_SIZE,
    buffer: *mut ID3D12Resource,
    buffer_offset: UINT64,
    flags: D3D12_TILE_COPY_FLAGS,
) {
    // SAFETY: pointers recognised by vtable / null or readable.
    unsafe {
        record(this, "CopyTiles", |_, s| {
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER, t);
            let t = resource(tiled, D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER, "pTiledResource is NULL")?;
            let b = resource(buffer, D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER, "pBuffer is NULL")?;
            let Backing::Reserved { tiles, .. } = &t.inner.backing else {
                return Err(bad("CopyTiles needs a reserved resource"));
            };
            let (c, sz) =
                (coord.as_ref().ok_or_else(|| bad("NULL coordinate"))?, size.as_ref().ok_or_else(|| bad("NULL size"))?);
            // Flags NONE copies tiles into the buffer, as SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER
            // does (Windows); both directions at once are refused. The linear side needs 16-byte
            // alignment, not D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT.
            let f = flags.0;
            let to_tiles = f & D3D12_TILE_COPY_FLAG_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE.0 != 0;
            let from_tiles = f & D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER.0 != 0;
            if to_tiles && from_tiles {
                return Err(bad("CopyTiles takes one direction flag, not both"));
            }
            if !b.inner.is_buffer() || !buffer_offset.is_multiple_of(16) {
                return Err(bad("CopyTiles needs a buffer and a BufferStartOffsetInBytes that is a multiple of 16"));
            }
            let idx = tiles.lock().unwrap_or_else(|e| e.into_inner()).region_tiles(c, Some(sz))?;
            let need = idx.len() as u64 * crate::work::tiles::TILE;
            if buffer_offset.checked_add(need).is_none_or(|e| e > b.inner.desc.Width) {
                return Err(bad("the tiles do not fit in the buffer"));
            }
            s.touch(t);
            s.touch(b);
            s.commands.push(Command::CopyTiles {
                tiles: t.inner.memory(),
                tile_indices: idx,
                buffer: if to_tiles { b.inner.memory() } else { written(b) },
                buffer_offset,
                to_tiles,
            });
            Ok(())
        })
    }
}

/// ResolveSubresource and ResolveSubresourceRegion: validated and planned by
/// [`rd3d12_core::resolve::plan`], executed on the queue as [`Command::ResolveTexture`].
/// The source is used in RESOLVE_SOURCE and the destination in RESOLVE_DEST (an in-place
/// DECOMPRESS of one subresource only in RESOLVE_DEST, REC).
///
/// # Safety
/// `dst` and `src` null or live COM pointers.
#[allow(clippy::too_many_arguments)]
pub(super) unsafe fn record_resolve(
    this: *mut Iface,
    method: &'static str,
    dst: *mut ID3D12Resource,
    ds: UINT,
    dst_xy: (u32, u32),
    src: *mut ID3D12Resource,
    ss: UINT,
    rect: Option<D3D12_RECT>,
    f: DXGI_FORMAT,
    mode: D3D12_RESOLVE_MODE,
    region: bool,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, method, |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_COPY {
                return Err(wrong_list_type("ResolveSubresource(Region) is not valid on copy lists"));
            }
            let d = resource(dst, D3D12_MESSAGE_ID_RESOLVESUBRESOURCE_NULLDST, "pDstResource is NULL")?;
            let r = resource(src, D3D12_MESSAGE_ID_RESOLVESUBRESOURCE_NULLSRC, "pSrcResource is NULL")?;
            let mode = resolve::mode(mode.0).ok_or_else(|| {
                rec_err(
                    D3D12_MESSAGE_ID_RESOLVESUBRESOURCE_INVALID_FORMAT,
                    format!("ResolveMode {} is not supported (sampler feedback is not)", mode.0),
                )
            })?;
            let dside = resolve::Side { desc: &d.inner.desc, heap: heap_kind(&d.inner), subresource: ds };
            let sside = resolve::Side { desc: &r.inner.desc, heap: heap_kind(&r.inner), subresource: ss };
            let plan = resolve::plan(&dside, dst_xy, &sside, rect.as_ref(), f, mode, region).map_err(violation)?;
            // A render pass resolves from its render target, which stays in RENDER_TARGET.
            let src_state = if method == "EndRenderPass" {
                D3D12_RESOURCE_STATE_RENDER_TARGET.0
            } else {
                D3D12_RESOURCE_STATE_RESOLVE_SOURCE.0
            };
            if std::ptr::eq(d, r) && ds == ss {
                s.use_as(d, ds, D3D12_RESOURCE_STATE_RESOLVE_DEST.0);
            } else {
                s.use_as(d, ds, D3D12_RESOURCE_STATE_RESOLVE_DEST.0);
                s.use_as(r, ss, src_state);
            }
            if let Some(plan) = plan {
                s.commands.push(Command::ResolveTexture {
                    dst: written(d),
                    src: r.inner.memory(),
                    plan: Box::new(plan),
                });
            }
            Ok(())
        })
    }
}

/// [ResolveSubresource](https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12graphicscommandlist-resolvesubresource):
/// an AVERAGE resolve of whole subresources.
pub(super) unsafe extern "C" fn resolve_subresource(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    ds: UINT,
    src: *mut ID3D12Resource,
    ss: UINT,
    f: DXGI_FORMAT,
) {
    // SAFETY: forwarded.
    unsafe {
        record_resolve(this, "ResolveSubresource", dst, ds, (0, 0), src, ss, None, f, D3D12_RESOLVE_MODE_AVERAGE, false)
    }
}

/// [ResolveSubresourceRegion](https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12graphicscommandlist1-resolvesubresourceregion).
#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn resolve_subresource_region(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    ds: UINT,
    x: UINT,
    y: UINT,
    src: *mut ID3D12Resource,
    ss: UINT,
    rect: *mut D3D12_RECT,
    f: DXGI_FORMAT,
    mode: D3D12_RESOLVE_MODE,
) {
    // SAFETY: `rect` null or readable per the method's contract; the rest forwarded.
    unsafe {
        let rect = rect.as_ref().copied();
        record_resolve(this, "ResolveSubresourceRegion", dst, ds, (x, y), src, ss, rect, f, mode, true)
    }
}
