//! BeginQuery, EndQuery, ResolveQueryData and SetPredication.

use super::*;

/// # Safety
/// `p` null or a live COM pointer.
pub(super) unsafe fn query_heap<'a>(p: *mut ID3D12QueryHeap) -> Result<&'a Object<QueryHeap>> {
    // SAFETY: recognised by vtable.
    unsafe { downcast::<QueryHeap, _>(p) }.ok_or_else(|| {
        rec_err(D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS, "pQueryHeap is NULL or not a query heap")
    })
}

fn query_allowed(list: D3D12_COMMAND_LIST_TYPE, heap: D3D12_QUERY_HEAP_TYPE) -> bool {
    match heap {
        D3D12_QUERY_HEAP_TYPE_TIMESTAMP => {
            list == D3D12_COMMAND_LIST_TYPE_DIRECT || list == D3D12_COMMAND_LIST_TYPE_COMPUTE
        }
        D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP => list == D3D12_COMMAND_LIST_TYPE_COPY,
        D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS | D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1 => {
            list == D3D12_COMMAND_LIST_TYPE_DIRECT || list == D3D12_COMMAND_LIST_TYPE_COMPUTE
        }
        _ => list == D3D12_COMMAND_LIST_TYPE_DIRECT,
    }
}

fn check_query(l: &CommandList, h: &QueryHeap, ty: D3D12_QUERY_TYPE, index: u32) -> Result<()> {
    let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS, t);
    if !query_heap::type_matches_heap(ty, h.desc.Type) {
        return Err(bad("the query type does not match the query heap"));
    }
    if index >= h.desc.Count {
        return Err(bad("query index beyond the heap"));
    }
    if !query_allowed(l.ty, h.desc.Type) {
        return Err(bad("this query heap cannot be used on this command list type"));
    }
    Ok(())
}

pub(super) unsafe extern "C" fn begin_query(
    this: *mut Iface,
    heap: *mut ID3D12QueryHeap,
    ty: D3D12_QUERY_TYPE,
    index: UINT,
) {
    // SAFETY: heap recognised by vtable.
    unsafe {
        record(this, "BeginQuery", |l, s| {
            let h = query_heap(heap)?;
            check_query(l, &h.inner, ty, index)?;
            if ty == D3D12_QUERY_TYPE_TIMESTAMP {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS,
                    "timestamps take EndQuery only",
                ));
            }
            if !s.open_queries.insert((h as *const _ as usize, index)) {
                return Err(rec_err(D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS, "the query is already begun"));
            }
            s.commands.push(Command::QueryBegin { data: h.inner.data.clone(), index });
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn end_query(
    this: *mut Iface,
    heap: *mut ID3D12QueryHeap,
    ty: D3D12_QUERY_TYPE,
    index: UINT,
) {
    // SAFETY: heap recognised by vtable.
    unsafe {
        record(this, "EndQuery", |l, s| {
            let h = query_heap(heap)?;
            check_query(l, &h.inner, ty, index)?;
            let data = h.inner.data.clone();
            if ty == D3D12_QUERY_TYPE_TIMESTAMP {
                s.commands.push(Command::Timestamp { data, index });
            } else {
                if !s.open_queries.remove(&(h as *const _ as usize, index)) {
                    return Err(rec_err(
                        D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS,
                        "EndQuery without BeginQuery",
                    ));
                }
                s.commands.push(Command::QueryEnd { data, index, ty });
            }
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn resolve_query_data(
    this: *mut Iface,
    heap: *mut ID3D12QueryHeap,
    ty: D3D12_QUERY_TYPE,
    start: UINT,
    n: UINT,
    dst: *mut ID3D12Resource,
    offset: UINT64,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "ResolveQueryData", |l, s| {
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_RESOLVE_QUERY_DATA_INVALID_PARAMETERS, t);
            let h = query_heap(heap)?;
            let d =
                resource(dst, D3D12_MESSAGE_ID_RESOLVE_QUERY_DATA_INVALID_PARAMETERS, "pDestinationBuffer is NULL")?;
            if !query_heap::type_matches_heap(ty, h.inner.desc.Type) || !query_allowed(l.ty, h.inner.desc.Type) {
                return Err(bad("the query type does not match the heap or list type"));
            }
            if start.checked_add(n).is_none_or(|e| e > h.inner.desc.Count) {
                return Err(bad("StartIndex + NumQueries exceeds the heap"));
            }
            let size = crate::work::queries::result_size(ty).ok_or_else(|| bad("unknown query type"))?;
            if !d.inner.is_buffer() || !offset.is_multiple_of(8) || heap_kind(&d.inner) == HeapKind::Upload {
                return Err(bad("the destination must be a non-UPLOAD buffer and the offset a multiple of 8"));
            }
            if offset.checked_add(size * n as u64).is_none_or(|e| e > d.inner.desc.Width) {
                return Err(bad("the results do not fit in the destination buffer"));
            }
            s.use_as(d, 0, D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.commands.push(Command::Resolve {
                data: h.inner.data.clone(),
                ty,
                start,
                count: n,
                dst: written(d),
                offset,
            });
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn set_predication(
    this: *mut Iface,
    buffer: *mut ID3D12Resource,
    offset: UINT64,
    op: D3D12_PREDICATION_OP,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "SetPredication", |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_COPY || l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(wrong_list_type("SetPredication is not valid on copy lists or bundles"));
            }
            if buffer.is_null() {
                s.commands.push(Command::Predication(None));
                return Ok(());
            }
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_SET_PREDICATION_INVALID_PARAMETERS, t);
            let b =
                resource(buffer, D3D12_MESSAGE_ID_RESOLVE_QUERY_DATA_INVALID_PARAMETERS, "pBuffer is not a resource")?;
            if !b.inner.is_buffer()
                || !offset.is_multiple_of(8)
                || offset.checked_add(8).is_none_or(|e| e > b.inner.desc.Width)
            {
                return Err(bad("predication needs 8 aligned bytes inside a buffer"));
            }
            if op != D3D12_PREDICATION_OP_EQUAL_ZERO && op != D3D12_PREDICATION_OP_NOT_EQUAL_ZERO {
                return Err(bad("unknown D3D12_PREDICATION_OP"));
            }
            s.touch(b);
            s.commands.push(Command::Predication(Some((b.inner.memory(), offset, op))));
            Ok(())
        })
    }
}
