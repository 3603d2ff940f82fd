//! The vtable index contract, checked against OUR Rust vtables (rd3d12-sys) and the device's real
//! vtable. C, C++, Python (ctypes) and HSP (`#comfunc`) callers reach a method by its slot
//! index alone, so every index below is ABI: it must match Microsoft's d3d12.h (the C clients in
//! tests/abi check the same numbers against the C headers).

use core::mem::{offset_of, size_of};
use rd3d12_sys::*;

const PTR: usize = size_of::<usize>();

/// Slot index of a field of a vtable struct.
macro_rules! slot {
    ($vtbl:ty, $field:ident) => {
        offset_of!($vtbl, $field) / PTR
    };
}

/// Asserts `field => index` for every pair in `$vtbl`.
macro_rules! assert_slots {
    ($vtbl:ty { $($field:ident => $index:expr),* $(,)? }) => {
        $(
            assert_eq!(
                slot!($vtbl, $field),
                $index,
                "{}::{} is at slot {}, expected {}",
                stringify!($vtbl),
                stringify!($field),
                slot!($vtbl, $field),
                $index
            );
        )*
    };
}

/// Every ID3D12Device method (IUnknown and ID3D12Object included) with its slot.
macro_rules! device_slots {
    ($m:ident, $vtbl:ty) => {
        $m!($vtbl {
            QueryInterface => 0,
            AddRef => 1,
            Release => 2,
            GetPrivateData => 3,
            SetPrivateData => 4,
            SetPrivateDataInterface => 5,
            SetName => 6,
            GetNodeCount => 7,
            CreateCommandQueue => 8,
            CreateCommandAllocator => 9,
            CreateGraphicsPipelineState => 10,
            CreateComputePipelineState => 11,
            CreateCommandList => 12,
            CheckFeatureSupport => 13,
            CreateDescriptorHeap => 14,
            GetDescriptorHandleIncrementSize => 15,
            CreateRootSignature => 16,
            CreateConstantBufferView => 17,
            CreateShaderResourceView => 18,
            CreateUnorderedAccessView => 19,
            CreateRenderTargetView => 20,
            CreateDepthStencilView => 21,
            CreateSampler => 22,
            CopyDescriptors => 23,
            CopyDescriptorsSimple => 24,
            GetResourceAllocationInfo => 25,
            GetCustomHeapProperties => 26,
            CreateCommittedResource => 27,
            CreateHeap => 28,
            CreatePlacedResource => 29,
            CreateReservedResource => 30,
            CreateSharedHandle => 31,
            OpenSharedHandle => 32,
            OpenSharedHandleByName => 33,
            MakeResident => 34,
            Evict => 35,
            CreateFence => 36,
            GetDeviceRemovedReason => 37,
            GetCopyableFootprints => 38,
            CreateQueryHeap => 39,
            SetStablePowerState => 40,
            CreateCommandSignature => 41,
            GetResourceTiling => 42,
            GetAdapterLuid => 43,
        })
    };
}

#[test]
fn device_slots_match_d3d12_h() {
    device_slots!(assert_slots, ID3D12DeviceVtbl);
    assert_eq!(size_of::<ID3D12DeviceVtbl>() / PTR, 44);
    assert_eq!(size_of::<ID3D12DeviceVtbl>() % PTR, 0);
}

#[test]
fn device11_vtable_has_the_device_prefix() {
    // Same indices in the newest vtable: the one the runtime actually hands out.
    device_slots!(assert_slots, ID3D12Device11Vtbl);
    // And field by field, every ID3D12DeviceVtbl offset is the ID3D12Device11Vtbl offset.
    macro_rules! same_offset {
        ($vtbl:ty { $($field:ident => $index:expr),* $(,)? }) => {
            $(
                assert_eq!(
                    offset_of!(ID3D12DeviceVtbl, $field),
                    offset_of!(ID3D12Device11Vtbl, $field),
                    "{} differs between ID3D12DeviceVtbl and ID3D12Device11Vtbl",
                    stringify!($field)
                );
            )*
        };
    }
    device_slots!(same_offset, ID3D12DeviceVtbl);
}

#[test]
fn every_device_version_is_a_prefix_of_device11() {
    // (vtable size in slots per version, and the first method each version adds), from d3d12.h.
    let sizes = [
        (size_of::<ID3D12Device1Vtbl>(), 47),
        (size_of::<ID3D12Device2Vtbl>(), 48),
        (size_of::<ID3D12Device3Vtbl>(), 51),
        (size_of::<ID3D12Device4Vtbl>(), 57),
        (size_of::<ID3D12Device5Vtbl>(), 65),
        (size_of::<ID3D12Device6Vtbl>(), 66),
        (size_of::<ID3D12Device7Vtbl>(), 68),
        (size_of::<ID3D12Device8Vtbl>(), 73),
        (size_of::<ID3D12Device9Vtbl>(), 76),
        (size_of::<ID3D12Device10Vtbl>(), 79),
        (size_of::<ID3D12Device11Vtbl>(), 80),
    ];
    for (i, (bytes, slots)) in sizes.iter().enumerate() {
        assert_eq!(bytes / PTR, *slots, "ID3D12Device{}Vtbl has {} slots", i + 1, bytes / PTR);
    }
    assert_slots!(ID3D12Device1Vtbl { CreatePipelineLibrary => 44, SetEventOnMultipleFenceCompletion => 45, SetResidencyPriority => 46 });
    assert_slots!(ID3D12Device11Vtbl {
        CreatePipelineLibrary => 44,
        SetResidencyPriority => 46,
        CreatePipelineState => 47,
        OpenExistingHeapFromAddress => 48,
        CreateCommandList1 => 51,
        CreateLifetimeTracker => 57,
        RemoveDevice => 58,
        SetBackgroundProcessingMode => 65,
        AddToStateObject => 66,
        GetResourceAllocationInfo2 => 68,
        CreateShaderCacheSession => 73,
        CreateCommittedResource3 => 76,
        CreateSampler2 => 79,
    });
    assert_slots!(ID3D12Device5Vtbl { RemoveDevice => 58, CheckDriverMatchingIdentifier => 64 });
    assert_slots!(ID3D12Device10Vtbl { CreateReservedResource2 => 78 });
}

#[test]
fn resource_slots_match_d3d12_h() {
    assert_slots!(ID3D12ResourceVtbl {
        QueryInterface => 0,
        AddRef => 1,
        Release => 2,
        GetPrivateData => 3,
        SetPrivateData => 4,
        SetPrivateDataInterface => 5,
        SetName => 6,
        GetDevice => 7,
        Map => 8,
        Unmap => 9,
        GetDesc => 10,
        GetGPUVirtualAddress => 11,
        WriteToSubresource => 12,
        ReadFromSubresource => 13,
        GetHeapProperties => 14,
    });
    assert_eq!(size_of::<ID3D12ResourceVtbl>() / PTR, 15);
}

const DEVICE11_SLOTS: usize = size_of::<ID3D12Device11Vtbl>() / PTR;

/// The device vtable as raw slot values.
fn device_vtable_slots() -> &'static [usize; DEVICE11_SLOTS] {
    let vt: &'static ID3D12Device11Vtbl = rd3d12::device::vtable();
    // SAFETY: ID3D12Device11Vtbl is a #[repr(C)] struct of DEVICE11_SLOTS
    // `Option<unsafe extern "C" fn>` fields, each one pointer-sized with None as 0, so it has the
    // size and alignment of `[usize; DEVICE11_SLOTS]` and every bit pattern of it is a valid usize.
    unsafe { &*(vt as *const ID3D12Device11Vtbl as *const [usize; DEVICE11_SLOTS]) }
}

#[test]
fn device_vtable_has_no_empty_slot() {
    assert_eq!(DEVICE11_SLOTS, 80);
    assert_eq!(size_of::<ID3D12Device11Vtbl>(), 80 * PTR);
    let slots = device_vtable_slots();
    assert_eq!(slots.len(), 80);
    let empty: Vec<usize> = (0..slots.len()).filter(|&i| slots[i] == 0).collect();
    assert!(empty.is_empty(), "device vtable slots left NULL: {empty:?}");
}

#[test]
fn named_fields_are_the_indexed_slots() {
    let vt = rd3d12::device::vtable();
    let slots = device_vtable_slots();
    let addr = |f: Option<usize>| f.unwrap_or(0);
    assert_eq!(slots[7], addr(vt.GetNodeCount.map(|f| f as usize)));
    assert_eq!(slots[13], addr(vt.CheckFeatureSupport.map(|f| f as usize)));
    assert_eq!(slots[37], addr(vt.GetDeviceRemovedReason.map(|f| f as usize)));
    assert_eq!(slots[43], addr(vt.GetAdapterLuid.map(|f| f as usize)));
    assert_eq!(slots[58], addr(vt.RemoveDevice.map(|f| f as usize)));
    assert_eq!(slots[79], addr(vt.CreateSampler2.map(|f| f as usize)));
}

#[test]
fn a_live_device_answers_by_slot_index() {
    let dev = rd3d12::create_device(D3D_FEATURE_LEVEL_11_0).expect("create_device(11_0)");
    let this: *mut ID3D12Device = dev.as_iface();
    // SAFETY: `this` is a live device interface pointer (the Ptr holds a reference); its first
    // field is the vtable pointer, and slots 7, 37 and 43 have the signatures of d3d12.h
    // (GetNodeCount, GetDeviceRemovedReason, GetAdapterLuid returning LUID by value on Linux).
    unsafe {
        let lp_vtbl = *(this as *const *const usize);
        assert_eq!(lp_vtbl as usize, rd3d12::device::vtable() as *const ID3D12Device11Vtbl as usize);
        let slot = |i: usize| *lp_vtbl.add(i);
        let node_count: unsafe extern "C" fn(*mut ID3D12Device) -> UINT = std::mem::transmute(slot(7));
        let removed: unsafe extern "C" fn(*mut ID3D12Device) -> HRESULT = std::mem::transmute(slot(37));
        let luid: unsafe extern "C" fn(*mut ID3D12Device) -> LUID = std::mem::transmute(slot(43));
        assert_eq!(node_count(this), 1);
        assert_eq!(removed(this), S_OK);
        let a = luid(this);
        let b = dev.inner.luid();
        assert_eq!((a.LowPart, a.HighPart), (b.LowPart, b.HighPart));
        assert!(a.LowPart != 0 || a.HighPart != 0);
    }
}
