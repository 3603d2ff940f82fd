//! The CPU adapter's identity and memory figures, read from the system. Both libraries built
//! from this crate (libd3d12.so and libdxcore.so) compute the same values independently, so an
//! IDXCoreAdapter from one is recognised by the other through its LUID alone.

use rd3d12_core::adapter::{self as facts, AdapterFacts};
use rd3d12_sys::LUID;
use std::sync::OnceLock;

/// What the adapter calls itself (DXCore's DriverDescription; Mesa's GL_RENDERER shows it).
pub const DESCRIPTION: &str = "rd3d12 CPU adapter";

/// The adapter LUID: derived from the kernel's boot ID, so every process of one boot sees the
/// same LUID (as with a Windows adapter) and a reboot gives a new one.
pub fn luid() -> LUID {
    static L: OnceLock<LUID> = OnceLock::new();
    *L.get_or_init(|| {
        let seed = std::fs::read("/proc/sys/kernel/random/boot_id")
            .or_else(|_| std::fs::read("/etc/machine-id"))
            .unwrap_or_else(|_| b"no boot id".to_vec());
        let (low, high) = facts::luid_from_seed(seed.trim_ascii());
        LUID { LowPart: low, HighPart: high }
    })
}

/// Physical memory of the machine, in bytes.
pub fn total_memory() -> u64 {
    // SAFETY: sysinfo fills a zeroed struct.
    let mut si: libc::sysinfo = unsafe { std::mem::zeroed() };
    if unsafe { libc::sysinfo(&mut si) } != 0 {
        return 0;
    }
    (si.totalram as u64).saturating_mul(u64::from(si.mem_unit.max(1)))
}

/// Bytes of memory the system can still give (MemAvailable).
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| facts::mem_available_from_meminfo(&m)).unwrap_or(0)
}

/// Bytes held by the runtime's heaps in this process (whichever library created them).
pub fn heap_usage() -> u64 {
    crate::backend::heap_usage::bytes()
}

/// `RD3D12_AS_HARDWARE=1` (or true / on / yes): the CPU adapter presents itself as a hardware
/// adapter (DXCore's IsHardware property TRUE), the opt-in that libraries which skip software
/// adapters (DirectML, torch-directml) need to use it. Only that report changes: the adapter's
/// identity, attributes and D3D12_FEATURE_ARCHITECTURE stay the CPU adapter's. Read each time
/// an adapter object is made, so a program may set it before its first DXCore call.
pub fn as_hardware() -> bool {
    std::env::var("RD3D12_AS_HARDWARE")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "on" | "yes"))
}

fn version_word(s: &str) -> u16 {
    s.parse().unwrap_or(0)
}

/// Every property of the adapter.
pub fn adapter_facts() -> AdapterFacts {
    let l = luid();
    AdapterFacts {
        luid: (l.LowPart, l.HighPart),
        driver_version: facts::driver_version([
            version_word(env!("CARGO_PKG_VERSION_MAJOR")),
            version_word(env!("CARGO_PKG_VERSION_MINOR")),
            version_word(env!("CARGO_PKG_VERSION_PATCH")),
            0,
        ]),
        description: DESCRIPTION.into(),
        vendor_id: facts::VENDOR_MICROSOFT,
        device_id: facts::DEVICE_ID,
        subsys_id: 0,
        sub_vendor_id: 0,
        revision: 0,
        kmd_model_version: facts::KMD_WDDM_2_7,
        compute_preemption: facts::PREEMPTION_SHADER_BOUNDARY,
        graphics_preemption: facts::PREEMPTION_SHADER_BOUNDARY,
        dedicated_adapter_memory: 0,
        dedicated_system_memory: 0,
        shared_system_memory: total_memory(),
        // No code is generated at run time, so Arbitrary Code Guard does not get in the way.
        acg_compatible: true,
        // A software adapter, unless the user opted in (see `as_hardware`).
        is_hardware: as_hardware(),
        // UMA: the adapter's memory is the CPU's.
        is_integrated: true,
        is_detachable: false,
    }
}
