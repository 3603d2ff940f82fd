//! ID3D12QueryHeap: query results written by command execution and copied out by
//! ResolveQueryData.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12queryheap>

use crate::com::{Child, Class, Ptr};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::residency::Residency;
use crate::work::queries::QueryData;
use rd3d12_sys::*;
use std::sync::Arc;

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
        let data = Arc::new(QueryData::new(desc.Type, desc.Count));
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
