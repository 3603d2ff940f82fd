//! ID3D12QueryHeap: query results written by command execution and copied out by
//! ResolveQueryData.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12queryheap>

use crate::com::{Child, Class, Ptr};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::residency::Residency;
use rd3d12_sys::*;
use std::sync::{Arc, Mutex};

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

/// Whether a query type belongs in a heap type.
pub fn type_matches_heap(ty: D3D12_QUERY_TYPE, heap: D3D12_QUERY_HEAP_TYPE) -> bool {
    match heap {
        D3D12_QUERY_HEAP_TYPE_OCCLUSION => ty == D3D12_QUERY_TYPE_OCCLUSION || ty == D3D12_QUERY_TYPE_BINARY_OCCLUSION,
        D3D12_QUERY_HEAP_TYPE_TIMESTAMP | D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP => {
            ty == D3D12_QUERY_TYPE_TIMESTAMP
        }
        D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS => ty == D3D12_QUERY_TYPE_PIPELINE_STATISTICS,
        D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1 => ty == D3D12_QUERY_TYPE_PIPELINE_STATISTICS1,
        D3D12_QUERY_HEAP_TYPE_SO_STATISTICS => {
            (D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0.0..=D3D12_QUERY_TYPE_SO_STATISTICS_STREAM3.0).contains(&ty.0)
        }
        _ => false,
    }
}

/// The results of a query heap, shared with executing work. Each slot is large enough for the
/// largest result (PIPELINE_STATISTICS1).
pub struct QueryData {
    pub ty: D3D12_QUERY_HEAP_TYPE,
    pub count: u32,
    slots: Mutex<Vec<[u64; 14]>>,
}

impl QueryData {
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

pub struct QueryHeap {
    device: Ptr<Device>,
    pub desc: D3D12_QUERY_HEAP_DESC,
    pub data: Arc<QueryData>,
    pub residency: Residency,
}

impl QueryHeap {
    /// CreateQueryHeap: Count ≥ 1, a type this adapter supports (no video statistics; copy-queue
    /// timestamps as OPTIONS3 reports), node mask 0 or 1.
    pub fn create(device: Ptr<Device>, desc: &D3D12_QUERY_HEAP_DESC) -> Result<Ptr<QueryHeap>> {
        let copy_ts = device.inner.copy_queue_timestamps();
        let ok_type = match desc.Type {
            D3D12_QUERY_HEAP_TYPE_OCCLUSION
            | D3D12_QUERY_HEAP_TYPE_TIMESTAMP
            | D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS
            | D3D12_QUERY_HEAP_TYPE_SO_STATISTICS
            | D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1 => true,
            D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP => copy_ts,
            _ => false,
        };
        if desc.Count == 0 || !ok_type || desc.NodeMask > 1 {
            return Err(Error::invalid_arg(
                D3D12_MESSAGE_ID_CREATEQUERY_HEAP_INVALID_PARAMETERS,
                D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                "invalid query heap description",
            ));
        }
        let data = Arc::new(QueryData {
            ty: desc.Type,
            count: desc.Count,
            slots: Mutex::new(vec![[0; 14]; desc.Count as usize]),
        });
        let residency = Residency::new(&device.inner, desc.Count as u64 * 112, true);
        Ok(Ptr::new(QueryHeap {
            device,
            desc: D3D12_QUERY_HEAP_DESC { NodeMask: desc.NodeMask.max(1), ..*desc },
            data,
            residency,
        }))
    }
}

// SAFETY: QUERY_HEAP_VTBL's slots all take an Object<QueryHeap>.
unsafe impl Class for QueryHeap {
    type Vtbl = ID3D12QueryHeapVtbl;
    const VTBL: &'static ID3D12QueryHeapVtbl = &QUERY_HEAP_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12QueryHeap];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> = Some(("ID3D12QueryHeap", D3D12_MESSAGE_ID_LIVE_QUERYHEAP));
}

impl Child for QueryHeap {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

static QUERY_HEAP_VTBL: ID3D12QueryHeapVtbl = crate::child_vtbl!(ID3D12QueryHeapVtbl, QueryHeap, ID3D12QueryHeap {});
