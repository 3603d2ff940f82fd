//! What queries leave for ResolveQueryData: each query heap's results, written by executing
//! work, and the clock timestamps read.

use rd3d12_sys::*;
use std::sync::Mutex;

/// Nanoseconds of CLOCK_MONOTONIC: the adapter's timestamp clock.
pub fn now_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime fills the struct.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

pub const TIMESTAMP_FREQUENCY: u64 = 1_000_000_000;

/// Bytes of one resolved query of a type (ResolveQueryData's element size).
pub fn result_size(ty: D3D12_QUERY_TYPE) -> Option<u64> {
    Some(match ty {
        D3D12_QUERY_TYPE_OCCLUSION | D3D12_QUERY_TYPE_BINARY_OCCLUSION | D3D12_QUERY_TYPE_TIMESTAMP => 8,
        D3D12_QUERY_TYPE_PIPELINE_STATISTICS => size_of::<D3D12_QUERY_DATA_PIPELINE_STATISTICS>() as u64,
        D3D12_QUERY_TYPE_PIPELINE_STATISTICS1 => size_of::<D3D12_QUERY_DATA_PIPELINE_STATISTICS1>() as u64,
        D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0
        | D3D12_QUERY_TYPE_SO_STATISTICS_STREAM1
        | D3D12_QUERY_TYPE_SO_STATISTICS_STREAM2
        | D3D12_QUERY_TYPE_SO_STATISTICS_STREAM3 => size_of::<D3D12_QUERY_DATA_SO_STATISTICS>() as u64,
        _ => return None,
    })
}

/// The results of a query heap, shared with executing work. Each slot is large enough for the
/// largest result (PIPELINE_STATISTICS1).
pub struct QueryData {
    pub ty: D3D12_QUERY_HEAP_TYPE,
    pub count: u32,
    slots: Mutex<Vec<[u64; 14]>>,
}

impl QueryData {
    /// `count` queries of a heap of type `ty`, all zero.
    pub fn new(ty: D3D12_QUERY_HEAP_TYPE, count: u32) -> QueryData {
        QueryData { ty, count, slots: Mutex::new(vec![[0; 14]; count as usize]) }
    }

    pub fn write(&self, index: u32, values: &[u64]) {
        if let Some(s) = self.slots.lock().unwrap_or_else(|e| e.into_inner()).get_mut(index as usize) {
            *s = [0; 14];
            s[..values.len().min(14)].copy_from_slice(&values[..values.len().min(14)]);
        }
    }

    /// The bytes ResolveQueryData writes for queries `start..start + n` of type `ty`.
    pub fn resolve(&self, ty: D3D12_QUERY_TYPE, start: u32, n: u32) -> Vec<u8> {
        let size = result_size(ty).unwrap_or(8) as usize;
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        let mut out = Vec::with_capacity(size * n as usize);
        for i in start..start + n {
            let s = slots.get(i as usize).copied().unwrap_or([0; 14]);
            let bytes: Vec<u8> = s.iter().flat_map(|v| v.to_le_bytes()).collect();
            out.extend_from_slice(&bytes[..size]);
        }
        out
    }
}
