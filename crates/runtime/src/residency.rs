//! Residency of pageable objects (heaps, committed resources; descriptor and query heaps later).
//!
//! CPU memory is always resident, but the counting is exactly D3D12's: an object is created with
//! a residency count of 1 (0 with D3D12_HEAP_FLAG_CREATE_NOT_RESIDENT), MakeResident adds one,
//! Evict takes one, and the object is evicted only at 0. The device keeps the resident and
//! evicted byte totals so a budget can be reported.
//!
//! <https://learn.microsoft.com/windows/win32/direct3d12/residency>

use crate::device::Device;
use rd3d12_sys::*;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Resident and evicted bytes of one device.
#[derive(Default)]
pub struct Budget {
    resident: AtomicI64,
    evicted: AtomicI64,
}

impl Budget {
    pub fn resident_bytes(&self) -> u64 {
        self.resident.load(Ordering::Relaxed).max(0) as u64
    }
    pub fn evicted_bytes(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed).max(0) as u64
    }
    fn account(&self, bytes: u64, to_resident: bool) {
        let b = bytes as i64;
        if to_resident {
            self.resident.fetch_add(b, Ordering::Relaxed);
            self.evicted.fetch_sub(b, Ordering::Relaxed);
        } else {
            self.resident.fetch_sub(b, Ordering::Relaxed);
            self.evicted.fetch_add(b, Ordering::Relaxed);
        }
    }
}

/// The residency state of one pageable object.
pub struct Residency {
    count: AtomicU32,
    bytes: u64,
    budget: Arc<Budget>,
    priority: Mutex<D3D12_RESIDENCY_PRIORITY>,
}

impl Residency {
    pub fn new(device: &Device, bytes: u64, resident: bool) -> Residency {
        let budget = device.budget().clone();
        let b = bytes as i64;
        if resident {
            budget.resident.fetch_add(b, Ordering::Relaxed);
        } else {
            budget.evicted.fetch_add(b, Ordering::Relaxed);
        }
        Residency {
            count: AtomicU32::new(resident as u32),
            bytes,
            budget,
            priority: Mutex::new(D3D12_RESIDENCY_PRIORITY_NORMAL),
        }
    }

    pub fn make_resident(&self) {
        if self.count.fetch_add(1, Ordering::AcqRel) == 0 {
            self.budget.account(self.bytes, true);
        }
    }

    /// Evict: false on underflow (the object was already evicted: debug #1136, no effect).
    pub fn evict(&self) -> bool {
        match self.count.fetch_update(Ordering::AcqRel, Ordering::Acquire, |c| c.checked_sub(1)) {
            Ok(1) => {
                self.budget.account(self.bytes, false);
                true
            }
            Ok(_) => true,
            Err(_) => false,
        }
    }

    pub fn is_resident(&self) -> bool {
        self.count.load(Ordering::Acquire) > 0
    }

    pub fn count(&self) -> u32 {
        self.count.load(Ordering::Acquire)
    }

    pub fn set_priority(&self, p: D3D12_RESIDENCY_PRIORITY) {
        *self.priority.lock().unwrap_or_else(|e| e.into_inner()) = p;
    }

    pub fn priority(&self) -> D3D12_RESIDENCY_PRIORITY {
        *self.priority.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Residency {
    fn drop(&mut self) {
        let b = self.bytes as i64;
        if self.is_resident() {
            self.budget.resident.fetch_sub(b, Ordering::Relaxed);
        } else {
            self.budget.evicted.fetch_sub(b, Ordering::Relaxed);
        }
    }
}
