//! ResourceBarrier: transitions, aliasing and UAV barriers checked against the list's state
//! tracker (implicit promotion and decay); enhanced barriers are reported unsupported.

use super::*;

pub(super) unsafe extern "C" fn resource_barrier(this: *mut Iface, n: UINT, barriers: *const D3D12_RESOURCE_BARRIER) {
    // SAFETY: the caller passes `n` barriers; resources recognised by vtable.
    unsafe {
        record(this, "ResourceBarrier", |l, s| {
            if n > 0 && barriers.is_null() {
                return Err(rec_err(D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER, "pBarriers is NULL"));
            }
            let lt = list_type(l.ty);
            for i in 0..n as usize {
                let b = &*barriers.add(i);
                states::validate_barrier_flags(b.Type.0, b.Flags.0).map_err(violation)?;
                match b.Type {
                    D3D12_RESOURCE_BARRIER_TYPE_TRANSITION => {
                        let t = b.__bindgen_anon_1.Transition;
                        let r = resource(
                            t.pResource,
                            D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                            "transition of a NULL resource",
                        )?;
                        let (before, after) = (t.StateBefore.0, t.StateAfter.0);
                        states::validate_transition(
                            &r.inner.desc,
                            heap_kind(&r.inner),
                            r.inner.subresource_count,
                            lt,
                            t.Subresource,
                            before,
                            after,
                        )
                        .map_err(violation)?;
                        let id = r as *const _ as u64;
                        s.tracker
                            .transition(id, r.inner.subresource_count, t.Subresource, before, after, b.Flags.0)
                            .map_err(violation)?;
                        s.touch(r);
                        if b.Flags.0 & D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY.0 == 0 {
                            s.commands.push(Command::Transition {
                                states: r.inner.states().clone(),
                                subresource: t.Subresource,
                                after,
                            });
                        }
                    }
                    D3D12_RESOURCE_BARRIER_TYPE_ALIASING => {
                        // Work executes in order on one thread, so aliasing needs no flush; the
                        // resources, when given, must be ours.
                        let a = b.__bindgen_anon_1.Aliasing;
                        for p in [a.pResourceBefore, a.pResourceAfter] {
                            if !p.is_null() {
                                resource(
                                    p,
                                    D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                                    "aliasing barrier on a foreign object",
                                )?;
                            }
                        }
                    }
                    _ => {
                        // UAV barrier: NULL means every UAV access; execution is already ordered.
                        let u = b.__bindgen_anon_1.UAV;
                        if !u.pResource.is_null() {
                            resource(
                                u.pResource,
                                D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                                "UAV barrier on a foreign object",
                            )?;
                        }
                    }
                }
            }
            Ok(())
        })
    }
}

/// Enhanced barriers (ID3D12GraphicsCommandList7::Barrier) are reported unsupported.
pub(super) unsafe extern "C" fn barrier(this: *mut Iface, _n: UINT32, _groups: *const D3D12_BARRIER_GROUP) {
    // SAFETY: forwarded.
    unsafe {
        record(this, "Barrier", |_, _| {
            Err(rec_err(
                D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                "enhanced barriers are not supported by this adapter",
            ))
        })
    }
}
