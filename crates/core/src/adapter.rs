//! The CPU adapter as DXCore describes it: its identity (LUID, hardware IDs), the encoding of
//! every `DXCoreAdapterProperty` value, the `AdapterMemoryBudget` state, and the accounting of
//! the memory the runtime holds (read from the process's memory map).
//!
//! Property types and sizes follow Microsoft's DXCoreAdapterProperty reference: LUID (8 bytes),
//! uint64_t versions and sizes, a NUL-terminated UTF-8 description, DXCoreHardwareID (16),
//! DXCoreHardwareIDParts (20), D3DKMT_DRIVERVERSION (4), uint16_t preemption granularities and
//! one-byte bools.

/// Microsoft's PCI vendor ID, which software adapters (WARP) report.
pub const VENDOR_MICROSOFT: u32 = 0x1414;
/// Our device ID under that vendor: not WARP's 0x8c, so that code keyed on WARP's identity does
/// not take this adapter for WARP.
pub const DEVICE_ID: u32 = 0x0d12;
/// D3DKMT_DRIVERVERSION of WDDM 2.7, the driver model whose features (GPU virtual addresses,
/// residency, per-process budgets) the runtime implements.
pub const KMD_WDDM_2_7: u32 = 2700;
/// D3DKMDT_COMPUTE_PREEMPTION_SHADER_BOUNDARY and D3DKMDT_GRAPHICS_PREEMPTION_SHADER_BOUNDARY
/// (both 500), the finest granularity: each queue runs on an OS thread that the kernel can
/// preempt at any instruction.
pub const PREEMPTION_SHADER_BOUNDARY: u16 = 500;
/// The name under which the runtime's heaps are created (memfd_create), so that their sizes can
/// be found in /proc/self/maps.
pub const HEAP_MEMFD_NAME: &str = "rd3d12-heap";

/// Everything an adapter property can report: one field per DXCoreAdapterProperty of that name.
#[allow(missing_docs)]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AdapterFacts {
    pub luid: (u32, i32),
    /// LARGE_INTEGER of four WORDs: product.version.sub-version.build.
    pub driver_version: u64,
    pub description: String,
    pub vendor_id: u32,
    pub device_id: u32,
    pub subsys_id: u32,
    pub sub_vendor_id: u32,
    pub revision: u32,
    pub kmd_model_version: u32,
    pub compute_preemption: u16,
    pub graphics_preemption: u16,
    pub dedicated_adapter_memory: u64,
    pub dedicated_system_memory: u64,
    pub shared_system_memory: u64,
    pub acg_compatible: bool,
    pub is_hardware: bool,
    pub is_integrated: bool,
    pub is_detachable: bool,
}

/// Why a property or state query fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QueryError {
    /// The value is not one the headers define (DXGI_ERROR_INVALID_CALL).
    Unknown,
    /// Known, but not offered by this adapter (DXGI_ERROR_UNSUPPORTED).
    Unsupported,
    /// A buffer smaller than the value (E_INVALIDARG).
    BufferTooSmall,
    /// Input details that name no node / segment group of this adapter (E_INVALIDARG).
    BadInput,
}

/// DXCoreAdapterProperty values of the headers: 0 (InstanceLuid) to 14 (HardwareIDParts).
pub const PROPERTY_COUNT: u32 = 15;

/// Packs a dotted version into DriverVersion's four 16-bit words.
pub fn driver_version(words: [u16; 4]) -> u64 {
    words.iter().fold(0u64, |acc, w| (acc << 16) | u64::from(*w))
}

/// A LUID derived from `seed` (the boot ID): the same in every process of one boot, as an
/// adapter LUID on Windows, and different after a reboot. Never zero.
pub fn luid_from_seed(seed: &[u8]) -> (u32, i32) {
    // FNV-1a, 64-bit.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.iter().chain(b"rd3d12 CPU adapter") {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    ((h as u32) | 1, ((h >> 32) as i32) & 0x7fff_ffff)
}

impl AdapterFacts {
    /// The bytes of `property`, exactly GetPropertySize bytes long.
    pub fn property(&self, property: u32) -> Result<Vec<u8>, QueryError> {
        let b = |v: bool| vec![u8::from(v)];
        let words = |w: &[u32]| w.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        Ok(match property {
            0 => [self.luid.0.to_le_bytes(), self.luid.1.to_le_bytes()].concat(),
            1 => self.driver_version.to_le_bytes().to_vec(),
            2 => {
                let mut v = self.description.as_bytes().to_vec();
                v.push(0);
                v
            }
            3 => words(&[self.vendor_id, self.device_id, self.subsys_id, self.revision]),
            4 => self.kmd_model_version.to_le_bytes().to_vec(),
            5 => self.compute_preemption.to_le_bytes().to_vec(),
            6 => self.graphics_preemption.to_le_bytes().to_vec(),
            7 => self.dedicated_adapter_memory.to_le_bytes().to_vec(),
            8 => self.dedicated_system_memory.to_le_bytes().to_vec(),
            9 => self.shared_system_memory.to_le_bytes().to_vec(),
            10 => b(self.acg_compatible),
            11 => b(self.is_hardware),
            12 => b(self.is_integrated),
            13 => b(self.is_detachable),
            14 => words(&[self.vendor_id, self.device_id, self.subsys_id, self.sub_vendor_id, self.revision]),
            _ => return Err(QueryError::Unknown),
        })
    }

    /// GetProperty into a caller buffer of `len` bytes: the whole buffer is zeroed first (as the
    /// docs say), then the value written at its start; a larger buffer is accepted.
    pub fn fill_property(&self, property: u32, out: &mut [u8]) -> Result<(), QueryError> {
        let v = self.property(property)?;
        if out.len() < v.len() {
            return Err(QueryError::BufferTooSmall);
        }
        out.fill(0);
        out[..v.len()].copy_from_slice(&v);
        Ok(())
    }
}

/// DXCoreAdapterState values of the headers: IsDriverUpdateInProgress (0), AdapterMemoryBudget (1).
pub const STATE_COUNT: u32 = 2;

/// DXCoreAdapterMemoryBudget's four fields.
#[allow(missing_docs)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MemoryBudget {
    pub budget: u64,
    pub current_usage: u64,
    pub available_for_reservation: u64,
    pub current_reservation: u64,
}

/// The memory budget of one segment group of node 0 of a UMA adapter: the local group is the
/// system memory the runtime allocates from: its budget what the process holds plus what the
/// system still has available (never more than all of it); the non-local group is empty on a
/// UMA adapter. Half of the budget may be reserved (the share DXGI documents for
/// SetVideoMemoryReservation); the runtime reserves nothing itself.
pub fn memory_budget(
    node: u32,
    segment_group: u32,
    usage: u64,
    available: u64,
    total: u64,
) -> Result<MemoryBudget, QueryError> {
    if node != 0 {
        return Err(QueryError::BadInput);
    }
    match segment_group {
        0 => {
            let budget = usage.saturating_add(available).min(total).max(usage);
            Ok(MemoryBudget {
                budget,
                current_usage: usage,
                available_for_reservation: budget / 2,
                current_reservation: 0,
            })
        }
        1 => Ok(MemoryBudget::default()),
        _ => Err(QueryError::BadInput),
    }
}

/// The bytes the runtime's heaps occupy, from the text of /proc/self/maps: every mapping of a
/// memfd named [`HEAP_MEMFD_NAME`], each memfd (inode) counted once at the furthest extent
/// mapped (a heap is mapped whole; tile mappings map parts of it again).
pub fn heap_usage_from_maps(maps: &str) -> u64 {
    let mut by_inode: std::collections::HashMap<u64, u64> = std::collections::HashMap::new();
    let tag = format!("/memfd:{HEAP_MEMFD_NAME}");
    for line in maps.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        // address perms offset dev inode path...
        if f.len() < 6 || !f[5].starts_with(&tag) {
            continue;
        }
        let Some((a, b)) = f[0].split_once('-') else { continue };
        let (Ok(a), Ok(b), Ok(off), Ok(inode)) = (
            u64::from_str_radix(a, 16),
            u64::from_str_radix(b, 16),
            u64::from_str_radix(f[2], 16),
            f[4].parse::<u64>(),
        ) else {
            continue;
        };
        let end = off.saturating_add(b.saturating_sub(a));
        let e = by_inode.entry(inode).or_insert(0);
        *e = (*e).max(end);
    }
    by_inode.values().sum()
}

/// MemAvailable of /proc/meminfo, in bytes.
pub fn mem_available_from_meminfo(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> AdapterFacts {
        AdapterFacts {
            luid: (0x1234_5679, 0x42),
            driver_version: driver_version([0, 1, 0, 0]),
            description: "rd3d12 CPU adapter".into(),
            vendor_id: VENDOR_MICROSOFT,
            device_id: DEVICE_ID,
            subsys_id: 0,
            sub_vendor_id: 0,
            revision: 0,
            kmd_model_version: KMD_WDDM_2_7,
            compute_preemption: PREEMPTION_SHADER_BOUNDARY,
            graphics_preemption: PREEMPTION_SHADER_BOUNDARY,
            dedicated_adapter_memory: 0,
            dedicated_system_memory: 0,
            shared_system_memory: 8 << 30,
            acg_compatible: true,
            is_hardware: false,
            is_integrated: true,
            is_detachable: false,
        }
    }

    #[test]
    fn property_sizes_match_the_documented_types() {
        let f = facts();
        let sizes = [8, 8, 19, 16, 4, 2, 2, 8, 8, 8, 1, 1, 1, 1, 20];
        for (p, want) in sizes.iter().enumerate() {
            assert_eq!(f.property(p as u32).unwrap().len(), *want, "property {p}");
        }
        assert_eq!(f.property(15), Err(QueryError::Unknown));
        assert_eq!(f.property(u32::MAX), Err(QueryError::Unknown));
    }

    #[test]
    fn luid_is_low_then_high_part() {
        assert_eq!(facts().property(0).unwrap(), [0x79, 0x56, 0x34, 0x12, 0x42, 0, 0, 0]);
    }

    #[test]
    fn hardware_id_parts_put_subvendor_before_revision() {
        let mut f = facts();
        f.sub_vendor_id = 7;
        f.revision = 9;
        let v = f.property(14).unwrap();
        let w: Vec<u32> = v.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(w, [0x1414, 0x0d12, 0, 7, 9]);
        let v = f.property(3).unwrap();
        let w: Vec<u32> = v.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
        assert_eq!(w, [0x1414, 0x0d12, 0, 9]);
    }

    #[test]
    fn larger_buffers_are_zeroed_past_the_value_and_smaller_ones_refused() {
        let f = facts();
        let mut buf = [0xffu8; 64];
        f.fill_property(2, &mut buf).unwrap();
        assert_eq!(&buf[..19], b"rd3d12 CPU adapter\0");
        assert!(buf[19..].iter().all(|b| *b == 0));
        let mut small = [0xffu8; 18];
        assert_eq!(f.fill_property(2, &mut small), Err(QueryError::BufferTooSmall));
        assert_eq!(small, [0xff; 18], "nothing written on failure");
    }

    #[test]
    fn driver_version_packs_four_words() {
        assert_eq!(driver_version([1, 2, 3, 4]), 0x0001_0002_0003_0004);
    }

    #[test]
    fn luid_depends_on_the_seed_and_is_never_zero() {
        let a = luid_from_seed(b"5b7d1f1e-0000-4000-8000-000000000001");
        let b = luid_from_seed(b"5b7d1f1e-0000-4000-8000-000000000002");
        assert_ne!(a, b);
        assert_eq!(a, luid_from_seed(b"5b7d1f1e-0000-4000-8000-000000000001"));
        assert_ne!(a.0, 0);
        assert!(a.1 >= 0);
    }

    #[test]
    fn budget_of_the_local_group_is_usage_plus_available_capped_by_total() {
        let b = memory_budget(0, 0, 100, 1000, 10_000).unwrap();
        assert_eq!(
            b,
            MemoryBudget { budget: 1100, current_usage: 100, available_for_reservation: 550, current_reservation: 0 }
        );
        let b = memory_budget(0, 0, 100, 1 << 40, 10_000).unwrap();
        assert_eq!(b.budget, 10_000);
        assert_eq!(memory_budget(0, 1, 100, 1000, 10_000).unwrap(), MemoryBudget::default());
        assert_eq!(memory_budget(1, 0, 0, 0, 0), Err(QueryError::BadInput));
        assert_eq!(memory_budget(0, 2, 0, 0, 0), Err(QueryError::BadInput));
    }

    #[test]
    fn heap_usage_counts_each_memfd_once_at_its_furthest_extent() {
        let maps = "\
7f0000000000-7f0000010000 rw-s 00000000 00:01 1001                       /memfd:rd3d12-heap (deleted)
7f0000100000-7f0000101000 rw-s 00008000 00:01 1001                       /memfd:rd3d12-heap (deleted)
7f0000200000-7f0000202000 rw-s 00000000 00:01 1002                       /memfd:rd3d12-heap (deleted)
7f0000300000-7f0000400000 rw-s 00000000 00:01 1003                       /memfd:other (deleted)
7f0000400000-7f0000401000 r--p 00000000 08:01 55                         /usr/lib/libc.so.6
";
        assert_eq!(heap_usage_from_maps(maps), 0x10000 + 0x2000);
    }

    #[test]
    fn mem_available_is_read_in_bytes() {
        let m = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   12345 kB\n";
        assert_eq!(mem_available_from_meminfo(m), Some(12345 * 1024));
        assert_eq!(mem_available_from_meminfo("MemTotal: 1 kB\n"), None);
    }
}
