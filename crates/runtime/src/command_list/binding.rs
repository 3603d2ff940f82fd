//! SetDescriptorHeaps, Set{Compute,Graphics}RootSignature and the root argument setters
//! (descriptor tables, 32-bit constants, root CBVs, SRVs and UAVs).

use super::*;

/// SetDescriptorHeaps: shader-visible heaps, at most one CBV/SRV/UAV heap and one sampler heap.
pub(super) unsafe extern "C" fn set_descriptor_heaps(
    this: *mut Iface,
    n: UINT,
    heaps: *const *mut ID3D12DescriptorHeap,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_SET_DESCRIPTOR_HEAP_INVALID;
    // SAFETY: forwarded; the heaps recognised by vtable.
    unsafe {
        set_state(this, "SetDescriptorHeaps", COMPUTE, |g| {
            if n > 2 {
                return Err(rec_err(ID, "at most one CBV/SRV/UAV and one sampler heap"));
            }
            let mut bound = Vec::with_capacity(n as usize);
            for p in array(heaps, n)? {
                let h = downcast::<DescriptorHeap, _>(p)
                    .ok_or_else(|| rec_err(ID, "ppDescriptorHeaps holds NULL or a non-heap"))?;
                let d = &h.inner.desc;
                if d.Flags.0 & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE.0 == 0 {
                    return Err(rec_err(ID, "the heap is not shader-visible"));
                }
                let ty = d.Type.0;
                if ty != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV.0 && ty != D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER.0 {
                    return Err(rec_err(ID, "only CBV/SRV/UAV and sampler heaps can be set"));
                }
                if bound.iter().any(|(_, t)| *t == ty) {
                    return Err(rec_err(ID, "two heaps of one type"));
                }
                let start = h.inner.gpu_start().ptr;
                let end = start + d.NumDescriptors as u64 * rd3d12_core::descriptor::DESCRIPTOR_SIZE as u64;
                bound.push((start..end, ty));
            }
            g.descriptor_heaps = bound;
            g.bundle_set.descriptor_heaps = true;
            Ok(())
        })
    }
}

/// Set{Compute,Graphics}RootSignature: the root signature (NULL unbinds), whose change
/// drops the root arguments set for that pipeline type.
///
/// # Safety
/// `this` null or one of our live lists; `r` null or a live COM pointer.
unsafe fn set_root_signature(
    this: *mut Iface,
    name: &'static str,
    allowed: &[D3D12_COMMAND_LIST_TYPE],
    compute: bool,
    r: *mut ID3D12RootSignature,
) {
    // SAFETY: forwarded; the root signature recognised by vtable.
    unsafe {
        set_state(this, name, allowed, |g| {
            let (slots, desc) = if r.is_null() {
                (None, None)
            } else {
                let rs = RootSignature::from_iface(r).ok_or_else(|| {
                    rec_err(D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE, "not a root signature")
                })?;
                (Some(rs.inner.slots().clone()), Some(rs.inner.shared_desc().clone()))
            };
            g.root_canonical[usize::from(!compute)] =
                RootSignature::from_iface(r).map(|rs| rs.inner.canonical().clone());
            g.root_descs[usize::from(!compute)] = desc;
            g.bundle_set.root_signature[usize::from(!compute)] = true;
            let slot = &mut g.root_slots[usize::from(!compute)];
            let same = (
                slot.as_ref().map(|s| Arc::as_ptr(s) as *const u8),
                slots.as_ref().map(|s| Arc::as_ptr(s) as *const u8),
            );
            if same.0 != same.1 {
                g.root_args.retain(|a| a.0 != compute);
            }
            *slot = slots;
            if compute {
                g.compute_root_signature = r as usize;
            } else {
                g.graphics_root_signature = r as usize;
            }
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn set_compute_root_signature(this: *mut Iface, r: *mut ID3D12RootSignature) {
    // SAFETY: forwarded.
    unsafe { set_root_signature(this, "SetComputeRootSignature", COMPUTE, true, r) }
}
pub(super) unsafe extern "C" fn set_graphics_root_signature(this: *mut Iface, r: *mut ID3D12RootSignature) {
    // SAFETY: forwarded.
    unsafe { set_root_signature(this, "SetGraphicsRootSignature", DIRECT, false, r) }
}

/// A SetRoot* call: checked against the bound root signature, then recorded. A descriptor
/// table outside the bound heap of its ranges' type is reported by the debug layer only.
fn set_root(g: &mut GraphicsState, name: &str, compute: bool, index: u32, arg: RootArg) -> Result<()> {
    let (set, id) = match &arg {
        RootArg::Table(_) => (RootSet::Table, D3D12_MESSAGE_ID_SET_DESCRIPTOR_TABLE_INVALID),
        RootArg::Constants(off, v) => {
            (RootSet::Constants { offset: *off, count: v.len() as u32 }, D3D12_MESSAGE_ID_SET_ROOT_CONSTANT_INVALID)
        }
        RootArg::View(RootView::Cbv, _) => (RootSet::Cbv, D3D12_MESSAGE_ID_SET_ROOT_CONSTANT_BUFFER_VIEW_INVALID),
        RootArg::View(RootView::Srv, _) => (RootSet::Srv, D3D12_MESSAGE_ID_SET_ROOT_SHADER_RESOURCE_VIEW_INVALID),
        RootArg::View(RootView::Uav, _) => (RootSet::Uav, D3D12_MESSAGE_ID_SET_ROOT_UNORDERED_ACCESS_VIEW_INVALID),
    };
    let slots = g.root_slots[usize::from(!compute)].as_deref();
    // A bundle without its own root signature sets arguments of the executing list's, which
    // only ExecuteBundle knows.
    let inherited = g.bundle && slots.is_none();
    if !inherited {
        check_root_set(slots, index, set).map_err(|m| rec_err(id, m))?;
    }
    // A table outside the bound heap of its type (none bound, another heap, the wrong type)
    // is the debug layer's finding only: Windows' runtime records the handle and Close
    // succeeds. At execution the table reads whatever descriptors its addresses hold in live
    // heaps, and nothing (zeros, dropped writes) elsewhere.
    let heaps_known = !g.bundle || g.bundle_set.descriptor_heaps;
    if let (RootArg::Table(h), Some(RootSlot::Table { sampler }), true) =
        (&arg, slots.and_then(|s| s.get(index as usize)), heaps_known)
    {
        let ty = if *sampler { D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER } else { D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV };
        if !g.descriptor_heaps.iter().any(|(r, t)| *t == ty.0 && r.contains(h)) {
            let (kind, other) = if *sampler { ("SAMPLER", "CBV_SRV_UAV") } else { ("CBV_SRV_UAV", "SAMPLER") };
            let why = if g.descriptor_heaps.iter().any(|(r, t)| *t != ty.0 && r.contains(h)) {
                format!("is from a different descriptor heap type: D3D12_DESCRIPTOR_HEAP_TYPE_{other}")
            } else if g.descriptor_heaps.iter().any(|(_, t)| *t == ty.0) {
                "is not inside the descriptor heap of that type set on the command list".into()
            } else {
                "cannot be used: no descriptor heap of that type is set on the command list (SetDescriptorHeaps)".into()
            };
            crate::debug::report_list_parts(
                name,
                D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR,
                id.0,
                &format!(
                    "The currently set root signature declares parameter [{index}] as a descriptor table in a \
                     descriptor heap of type D3D12_DESCRIPTOR_HEAP_TYPE_{kind}, but the specified BaseDescriptor \
                     0x{h:x} {why}."
                ),
            );
        }
    }
    // Root constants accumulate: each call sets its values at its offset, keeping the others.
    let arg = match (arg, slots.and_then(|s| s.get(index as usize))) {
        (RootArg::Constants(off, v), Some(RootSlot::Constants(n))) => {
            let mut all = match g.root_args.iter().find(|a| a.0 == compute && a.1 == index) {
                Some((_, _, RootArg::Constants(0, old))) => old.clone(),
                _ => vec![0; *n as usize],
            };
            all.resize(*n as usize, 0);
            for (k, x) in v.into_iter().enumerate() {
                if let Some(d) = all.get_mut(off as usize + k) {
                    *d = x;
                }
            }
            RootArg::Constants(0, all)
        }
        (arg, _) => arg,
    };
    g.root_args.retain(|a| !(a.0 == compute && a.1 == index));
    g.root_args.push((compute, index, arg));
    Ok(())
}

macro_rules! root_setters {
    ($($name:ident $api:literal ($($a:ident : $t:ty),*) => $compute:expr, $allowed:expr, |$i:ident| $arg:expr;)*) => {$(
        pub(super) unsafe extern "C" fn $name(this: *mut Iface, $i: UINT, $($a: $t),*) {
            // SAFETY: forwarded; arrays hold the counts given.
            unsafe { set_state(this, $api, $allowed, |g| { let arg = $arg?; set_root(g, $api, $compute, $i, arg) }) }
        }
    )*};
}

root_setters! {
    set_compute_root_table "SetComputeRootDescriptorTable" (h: D3D12_GPU_DESCRIPTOR_HANDLE) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::Table(h.ptr));
    set_graphics_root_table "SetGraphicsRootDescriptorTable" (h: D3D12_GPU_DESCRIPTOR_HANDLE) => false, DIRECT, |i| Ok::<_, Error>(RootArg::Table(h.ptr));
    set_compute_root_constant "SetComputeRoot32BitConstant" (v: UINT, off: UINT) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::Constants(off, vec![v]));
    set_graphics_root_constant "SetGraphicsRoot32BitConstant" (v: UINT, off: UINT) => false, DIRECT, |i| Ok::<_, Error>(RootArg::Constants(off, vec![v]));
    set_compute_root_constants "SetComputeRoot32BitConstants" (n: UINT, p: *const c_void, off: UINT) => true, COMPUTE, |i| array(p as *const u32, n).map(|v| RootArg::Constants(off, v));
    set_graphics_root_constants "SetGraphicsRoot32BitConstants" (n: UINT, p: *const c_void, off: UINT) => false, DIRECT, |i| array(p as *const u32, n).map(|v| RootArg::Constants(off, v));
    set_compute_root_cbv "SetComputeRootConstantBufferView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::View(RootView::Cbv, va));
    set_graphics_root_cbv "SetGraphicsRootConstantBufferView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => false, DIRECT, |i| Ok::<_, Error>(RootArg::View(RootView::Cbv, va));
    set_compute_root_srv "SetComputeRootShaderResourceView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::View(RootView::Srv, va));
    set_graphics_root_srv "SetGraphicsRootShaderResourceView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => false, DIRECT, |i| Ok::<_, Error>(RootArg::View(RootView::Srv, va));
    set_compute_root_uav "SetComputeRootUnorderedAccessView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::View(RootView::Uav, va));
    set_graphics_root_uav "SetGraphicsRootUnorderedAccessView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => false, DIRECT, |i| Ok::<_, Error>(RootArg::View(RootView::Uav, va));
}
