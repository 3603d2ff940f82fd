//! WriteBufferImmediate and AtomicCopyBufferUINT / UINT64: small buffer writes the queue performs.

use super::*;

pub(super) unsafe extern "C" fn write_buffer_immediate(
    this: *mut Iface,
    count: UINT,
    params: *const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER,
    modes: *const D3D12_WRITEBUFFERIMMEDIATE_MODE,
) {
    // SAFETY: the caller passes `count` parameters (and modes when non-null).
    unsafe {
        record(this, "WriteBufferImmediate", |l, s| {
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_WRITEBUFFERIMMEDIATE_INVALID_ALIGNMENT, t);
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(wrong_list_type("WriteBufferImmediate is not valid on bundles"));
            }
            if count > 0 && params.is_null() {
                return Err(bad("pParams is NULL"));
            }
            let mut cmds = Vec::with_capacity(count as usize);
            for i in 0..count as usize {
                let p = *params.add(i);
                let mode = if modes.is_null() { D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT } else { *modes.add(i) };
                if mode.0 > D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT.0 {
                    return Err(rec_err(
                        D3D12_MESSAGE_ID_WRITEBUFFERIMMEDIATE_INVALID_MODE,
                        "unknown D3D12_WRITEBUFFERIMMEDIATE_MODE",
                    ));
                }
                if p.Dest % 4 != 0 {
                    return Err(bad("Dest must be 4-byte aligned"));
                }
                let (mem, off) = l.device.inner.va().resolve(p.Dest, 4).ok_or_else(|| {
                    rec_err(D3D12_MESSAGE_ID_WRITEBUFFERIMMEDIATE_INVALID_DEST, "Dest is not inside a buffer")
                })?;
                mem.mark_dirty();
                cmds.push(Command::WriteImmediate { dst: mem, offset: off, value: p.Value });
            }
            s.commands.extend(cmds);
            Ok(())
        })
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn atomic_copy(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    deps: UINT,
    dep_res: *const *mut ID3D12Resource,
    dep_ranges: *const D3D12_SUBRESOURCE_RANGE_UINT64,
    wide: bool,
) {
    // SAFETY: pointers recognised by vtable; dependency arrays hold `deps` entries.
    unsafe {
        record(this, "AtomicCopyBuffer", |_, s| {
            let id = D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_OFFSET_ALIGNMENT;
            let d = resource(dst, id, "pDstBuffer is NULL")?;
            let r = resource(src, id, "pSrcBuffer is NULL")?;
            let size = if wide { 8 } else { 4 };
            let fits = |res: &Object<Resource>, off: u64| {
                res.inner.is_buffer() && off.checked_add(size).is_some_and(|e| e <= res.inner.desc.Width)
            };
            if !dst_off.is_multiple_of(size) || !src_off.is_multiple_of(size) {
                return Err(rec_err(id, "atomic copy offsets must be aligned to the value size"));
            }
            if !fits(d, dst_off) || !fits(r, src_off) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_ARCHITECTURE,
                    "atomic copy outside a buffer",
                ));
            }
            if deps > 0 && (dep_res.is_null() || dep_ranges.is_null()) {
                return Err(rec_err(D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_ARCHITECTURE, "NULL dependency arrays"));
            }
            for i in 0..deps as usize {
                resource(
                    *dep_res.add(i),
                    D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_ARCHITECTURE,
                    "NULL dependent resource",
                )?;
            }
            s.touch(d);
            s.touch(r);
            s.commands.push(Command::AtomicCopy {
                dst: written(d),
                dst_offset: dst_off,
                src: r.inner.memory(),
                src_offset: src_off,
                wide,
            });
            Ok(())
        })
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn atomic_copy_u32(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    deps: UINT,
    dep_res: *const *mut ID3D12Resource,
    dep_ranges: *const D3D12_SUBRESOURCE_RANGE_UINT64,
) {
    // SAFETY: forwarded.
    unsafe { atomic_copy(this, dst, dst_off, src, src_off, deps, dep_res, dep_ranges, false) }
}

#[allow(clippy::too_many_arguments)]
pub(super) unsafe extern "C" fn atomic_copy_u64(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    deps: UINT,
    dep_res: *const *mut ID3D12Resource,
    dep_ranges: *const D3D12_SUBRESOURCE_RANGE_UINT64,
) {
    // SAFETY: forwarded.
    unsafe { atomic_copy(this, dst, dst_off, src, src_off, deps, dep_res, dep_ranges, true) }
}
