//! The device's layout-math methods: GetResourceAllocationInfo(1/2) and
//! GetCopyableFootprints(1), thin shells over rd3d12-core.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-getresourceallocationinfo>
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12device-getcopyablefootprints>

use super::{dev, Iface};
use crate::error::guard;
use rd3d12_core::{allocation, desc::desc1_from_desc, footprint, Caps};
use rd3d12_sys::*;

/// Both methods are pure functions of their inputs, and programs ask the same questions again
/// and again (every upload of a same-sized texture). Each thread remembers its last answers:
/// a repeated call costs a comparison and a copy instead of validation and layout math.
mod memo {
    use rd3d12_sys::*;
    use std::cell::RefCell;

    pub struct Footprints {
        pub key: [u64; 10],
        pub layouts: Vec<D3D12_PLACED_SUBRESOURCE_FOOTPRINT>,
        pub rows: Vec<u32>,
        pub sizes: Vec<u64>,
        pub total: u64,
    }

    thread_local! {
        pub static FOOTPRINTS: RefCell<Option<Footprints>> = const { RefCell::new(None) };
        pub static ALLOCATION: RefCell<Option<([u64; 8], u32, D3D12_RESOURCE_ALLOCATION_INFO)>> = const { RefCell::new(None) };
    }

    /// Largest subresource count kept.
    pub const MAX: u32 = 64;
}

const INVALID_INFO: D3D12_RESOURCE_ALLOCATION_INFO =
    D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: u64::MAX, Alignment: 0 };

/// A caller's array as a slice; `None` for NULL (or an empty count).
///
/// # Safety
/// `p` must be null or point at `n` readable elements.
unsafe fn slice<'a, T>(p: *const T, n: u32) -> Option<&'a [T]> {
    // SAFETY: forwarded from the caller.
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts(p, n as usize) })
}

/// # Safety
/// `p` must be null or point at `n` writable elements.
unsafe fn slice_mut<'a, T>(p: *mut T, n: u32) -> Option<&'a mut [T]> {
    // SAFETY: forwarded from the caller.
    (!p.is_null()).then(|| unsafe { std::slice::from_raw_parts_mut(p, n as usize) })
}

/// With the debug layer on, a GetResourceAllocationInfo* call that answered UINT64_MAX reports
/// why, as Windows does (#721 for an Alignment the desc cannot have, ...): the first invalid
/// desc's messages, in the words Create*Resource uses for the same desc.
#[cold]
#[inline(never)]
fn report_invalid(method: &str, mask: UINT, descs: impl Iterator<Item = D3D12_RESOURCE_DESC1>, caps: &Caps) {
    if !crate::debug::active() || mask > 1 {
        return;
    }
    for d in descs {
        if let Err((e, _)) = allocation::allocation_info_one(&d, caps) {
            let all =
                std::iter::once((e.id, e.message.as_str())).chain(e.extra.iter().map(|x| (x.id, x.message.as_str())));
            for (id, text) in all {
                crate::debug::report_parts(
                    method,
                    D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    id.0,
                    text,
                );
            }
            return;
        }
    }
}

/// [`report_invalid`] when `info` says a desc was invalid.
fn check_reported(
    method: &str,
    info: D3D12_RESOURCE_ALLOCATION_INFO,
    mask: UINT,
    descs: impl Iterator<Item = D3D12_RESOURCE_DESC1>,
    caps: &Caps,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    if info.SizeInBytes == u64::MAX {
        report_invalid(method, mask, descs, caps);
    }
    info
}

/// GetResourceAllocationInfo(1) over D3D12_RESOURCE_DESC: one desc converts on the stack.
///
/// # Safety
/// `descs` null or `n` descs; `info1` null or `n` writable entries.
unsafe fn allocation_info_desc(
    this: *mut Iface,
    method: &str,
    mask: UINT,
    n: UINT,
    descs: *const D3D12_RESOURCE_DESC,
    info1: *mut D3D12_RESOURCE_ALLOCATION_INFO1,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    // SAFETY: COM This pointer and the caller's arrays.
    let Ok(d) = (unsafe { dev(this) }) else { return INVALID_INFO };
    if n == 0 {
        return D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: 0, Alignment: 1 };
    }
    // SAFETY: as documented.
    let (Some(descs), info1) = (unsafe { slice(descs, n) }, unsafe { slice_mut(info1, n) }) else {
        return INVALID_INFO;
    };
    let caps = d.caps();
    let info = if let ([one], None) = (descs, &info1) {
        let d1 = desc1_from_desc(one);
        let key = super::desc_key(&d1);
        // try_with: the memo may be gone (a call from a thread-local destructor).
        let hit = memo::ALLOCATION
            .try_with(|m| m.borrow().as_ref().and_then(|(k, mk, v)| (*k == key && *mk == mask).then_some(*v)));
        if let Ok(Some(hit)) = hit {
            hit
        } else {
            let v = allocation::resource_allocation_info2(mask, &[d1], caps, None);
            let _ = memo::ALLOCATION.try_with(|m| *m.borrow_mut() = Some((key, mask, v)));
            v
        }
    } else if let [one] = descs {
        allocation::resource_allocation_info2(mask, &[desc1_from_desc(one)], caps, info1)
    } else {
        allocation::resource_allocation_info(mask, descs, caps, info1)
    };
    check_reported(method, info, mask, descs.iter().map(desc1_from_desc), caps)
}

pub unsafe extern "C" fn get_resource_allocation_info(
    this: *mut Iface,
    mask: UINT,
    n: UINT,
    descs: *const D3D12_RESOURCE_DESC,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    // SAFETY: forwarded from the caller.
    guard("GetResourceAllocationInfo", INVALID_INFO, || unsafe {
        allocation_info_desc(this, "GetResourceAllocationInfo", mask, n, descs, std::ptr::null_mut())
    })
}

pub unsafe extern "C" fn get_resource_allocation_info1(
    this: *mut Iface,
    mask: UINT,
    n: UINT,
    descs: *const D3D12_RESOURCE_DESC,
    info1: *mut D3D12_RESOURCE_ALLOCATION_INFO1,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    // SAFETY: forwarded from the caller.
    guard("GetResourceAllocationInfo1", INVALID_INFO, || unsafe {
        allocation_info_desc(this, "GetResourceAllocationInfo1", mask, n, descs, info1)
    })
}

pub unsafe extern "C" fn get_resource_allocation_info2(
    this: *mut Iface,
    mask: UINT,
    n: UINT,
    descs: *const D3D12_RESOURCE_DESC1,
    info1: *mut D3D12_RESOURCE_ALLOCATION_INFO1,
) -> D3D12_RESOURCE_ALLOCATION_INFO {
    guard("GetResourceAllocationInfo2", INVALID_INFO, || {
        // SAFETY: COM This pointer and the caller's arrays.
        let Ok(d) = (unsafe { dev(this) }) else { return INVALID_INFO };
        if n == 0 {
            return D3D12_RESOURCE_ALLOCATION_INFO { SizeInBytes: 0, Alignment: 1 };
        }
        // SAFETY: as documented.
        match (unsafe { slice(descs, n) }, unsafe { slice_mut(info1, n) }) {
            (Some(descs), info1) => {
                let info = allocation::resource_allocation_info2(mask, descs, d.caps(), info1);
                check_reported("GetResourceAllocationInfo2", info, mask, descs.iter().copied(), d.caps())
            }
            (None, _) => INVALID_INFO,
        }
    })
}

/// GetCopyableFootprints(1): every output optional; invalid input fills every given output with
/// all-ones (TotalBytes included).
///
/// # Safety
/// Output pointers null or holding `num` elements (TotalBytes one).
#[allow(clippy::too_many_arguments)]
unsafe fn footprints(
    this: *mut Iface,
    method: &str,
    desc: Option<D3D12_RESOURCE_DESC1>,
    first: UINT,
    num: UINT,
    base: UINT64,
    layouts: *mut D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    rows: *mut UINT,
    row_sizes: *mut UINT64,
    total: *mut UINT64,
) {
    // SAFETY: COM This pointer; the caller's arrays hold `num` elements.
    let (mut layouts, mut rows, mut row_sizes) =
        unsafe { (slice_mut(layouts, num), slice_mut(rows, num), slice_mut(row_sizes, num)) };
    let caps = match unsafe { dev(this) } {
        Ok(d) => d.caps(),
        Err(_) => return,
    };
    let t = match desc {
        Some(desc) if num <= memo::MAX => {
            let mut key = [0u64; 10];
            key[..8].copy_from_slice(&super::desc_key(&desc));
            key[8] = first as u64 | (num as u64) << 32;
            key[9] = base;
            // A D3D12 call may come from a thread-local destructor, after this thread's memo
            // is gone: then the footprints are computed without it.
            let memoized = memo::FOOTPRINTS.try_with(|m| {
                let mut m = m.borrow_mut();
                let hit = m.as_ref().is_some_and(|c| c.key == key && c.layouts.len() == num as usize);
                if !hit {
                    let n = num as usize;
                    let mut c = m.take().unwrap_or(memo::Footprints {
                        key: [0; 10],
                        layouts: Vec::new(),
                        rows: Vec::new(),
                        sizes: Vec::new(),
                        total: 0,
                    });
                    c.layouts.resize(n, Default::default());
                    c.rows.resize(n, 0);
                    c.sizes.resize(n, 0);
                    c.total = footprint::copyable_footprints(
                        &desc,
                        first,
                        num,
                        base,
                        caps,
                        Some(&mut c.layouts),
                        Some(&mut c.rows),
                        Some(&mut c.sizes),
                    );
                    c.key = key;
                    *m = Some(c);
                }
                let c = m.as_ref().expect("just filled");
                if let Some(l) = layouts.as_deref_mut() {
                    l.copy_from_slice(&c.layouts);
                }
                if let Some(r) = rows.as_deref_mut() {
                    r.copy_from_slice(&c.rows);
                }
                if let Some(r) = row_sizes.as_deref_mut() {
                    r.copy_from_slice(&c.sizes);
                }
                c.total
            });
            match memoized {
                Ok(total) => total,
                Err(_) => footprint::copyable_footprints(&desc, first, num, base, caps, layouts, rows, row_sizes),
            }
        }
        Some(desc) => footprint::copyable_footprints(&desc, first, num, base, caps, layouts, rows, row_sizes),
        None => {
            // No desc: nothing to describe; every given output reads as invalid.
            for l in layouts.into_iter().flatten() {
                // SAFETY: plain old data; all-ones is what an invalid call writes.
                *l = unsafe { std::mem::transmute::<[u8; 32], D3D12_PLACED_SUBRESOURCE_FOOTPRINT>([0xff; 32]) };
            }
            rows.into_iter().flatten().for_each(|r| *r = u32::MAX);
            row_sizes.into_iter().flatten().for_each(|r| *r = u64::MAX);
            u64::MAX
        }
    };
    if let (u64::MAX, Some(desc)) = (t, desc) {
        report_invalid_footprints(method, &desc, first, num, caps);
    }
    // SAFETY: `total` is null or one writable UINT64.
    if let Some(total) = unsafe { total.as_mut() } {
        *total = t;
    }
}

/// With the debug layer on, why GetCopyableFootprints answered ~0 (an invalid desc or
/// subresource range), as Windows reports it.
#[cold]
#[inline(never)]
fn report_invalid_footprints(method: &str, desc: &D3D12_RESOURCE_DESC1, first: UINT, num: UINT, caps: &Caps) {
    if !crate::debug::active() {
        return;
    }
    if let Some(d) = footprint::footprint_error(desc, first, num, caps) {
        crate::debug::report_parts(
            method,
            D3D12_MESSAGE_CATEGORY_STATE_CREATION,
            D3D12_MESSAGE_SEVERITY_ERROR,
            d.id.0,
            &d.message,
        );
    }
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn get_copyable_footprints(
    this: *mut Iface,
    desc: *const D3D12_RESOURCE_DESC,
    first: UINT,
    num: UINT,
    base: UINT64,
    layouts: *mut D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    rows: *mut UINT,
    row_sizes: *mut UINT64,
    total: *mut UINT64,
) {
    guard("GetCopyableFootprints", (), || {
        // SAFETY: `desc` is null or a desc; outputs as documented.
        let desc = unsafe { desc.as_ref() }.map(desc1_from_desc);
        unsafe { footprints(this, "GetCopyableFootprints", desc, first, num, base, layouts, rows, row_sizes, total) }
    })
}

#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn get_copyable_footprints1(
    this: *mut Iface,
    desc: *const D3D12_RESOURCE_DESC1,
    first: UINT,
    num: UINT,
    base: UINT64,
    layouts: *mut D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    rows: *mut UINT,
    row_sizes: *mut UINT64,
    total: *mut UINT64,
) {
    guard("GetCopyableFootprints1", (), || {
        // SAFETY: `desc` is null or a desc; outputs as documented.
        let desc = unsafe { desc.as_ref() }.copied();
        unsafe { footprints(this, "GetCopyableFootprints1", desc, first, num, base, layouts, rows, row_sizes, total) }
    })
}
