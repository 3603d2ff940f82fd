//! Resource states as executed work leaves them: implicit promotion from COMMON by copies and
//! decay back to COMMON at the end of an ExecuteCommandLists (commands-and-sync.md §4.2–§4.3).
//! These states are what the debug layer validates.

use rd3d12::com::Object;
use rd3d12::resource::Resource;
use rd3d12_sys::*;
use std::ffi::c_void;
use std::ptr::null_mut;

unsafe fn vt<T>(p: *mut T) -> &'static T::Vtbl
where
    T: HasVtbl,
{
    unsafe { &*(*(p as *mut *const T::Vtbl)) }
}

trait HasVtbl {
    type Vtbl: 'static;
}
impl HasVtbl for ID3D12Device11 {
    type Vtbl = ID3D12Device11Vtbl;
}
impl HasVtbl for ID3D12GraphicsCommandList {
    type Vtbl = ID3D12GraphicsCommandListVtbl;
}
impl HasVtbl for ID3D12CommandQueue {
    type Vtbl = ID3D12CommandQueueVtbl;
}

fn states_of(r: *mut c_void) -> Vec<u32> {
    // SAFETY: `r` is one of our live resources.
    let obj = unsafe { Object::<Resource>::from_this(r) }.unwrap();
    obj.inner.states().lock().unwrap().iter().map(|s| s.state).collect()
}

#[test]
fn copies_promote_and_submission_ends_decay() {
    let dev_ptr = rd3d12::create_device(D3D_FEATURE_LEVEL_11_0).unwrap().into_raw() as *mut ID3D12Device11;
    unsafe {
        let d = vt(dev_ptr);
        let heap = |t| D3D12_HEAP_PROPERTIES { Type: t, ..Default::default() };
        let buf = D3D12_RESOURCE_DESC {
            Dimension: D3D12_RESOURCE_DIMENSION_BUFFER,
            Width: 4096,
            Height: 1,
            DepthOrArraySize: 1,
            MipLevels: 1,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            Layout: D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
            ..Default::default()
        };
        let tex = D3D12_RESOURCE_DESC {
            Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
            Width: 16,
            Height: 16,
            DepthOrArraySize: 1,
            MipLevels: 1,
            Format: DXGI_FORMAT_R8G8B8A8_UNORM,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            ..Default::default()
        };
        let create = |h: D3D12_HEAP_TYPE, desc: &D3D12_RESOURCE_DESC, state: D3D12_RESOURCE_STATES| {
            let mut r = null_mut();
            let hp = heap(h);
            let hr = d.CreateCommittedResource.unwrap()(
                dev_ptr,
                &hp,
                D3D12_HEAP_FLAG_NONE,
                desc,
                state,
                std::ptr::null(),
                &IID_ID3D12Resource,
                &mut r,
            );
            assert_eq!(hr, S_OK);
            r
        };
        let upload = create(D3D12_HEAP_TYPE_UPLOAD, &buf, D3D12_RESOURCE_STATE_GENERIC_READ);
        let target = create(D3D12_HEAP_TYPE_DEFAULT, &buf, D3D12_RESOURCE_STATE_COMMON);
        let texa = create(D3D12_HEAP_TYPE_DEFAULT, &tex, D3D12_RESOURCE_STATE_COMMON);
        let texb = create(D3D12_HEAP_TYPE_DEFAULT, &tex, D3D12_RESOURCE_STATE_COMMON);

        let qd = D3D12_COMMAND_QUEUE_DESC { Type: D3D12_COMMAND_LIST_TYPE_DIRECT, ..Default::default() };
        let (mut q, mut a, mut l, mut f) = (null_mut(), null_mut(), null_mut(), null_mut());
        assert_eq!(d.CreateCommandQueue.unwrap()(dev_ptr, &qd, &IID_ID3D12CommandQueue, &mut q), S_OK);
        assert_eq!(
            d.CreateCommandAllocator.unwrap()(
                dev_ptr,
                D3D12_COMMAND_LIST_TYPE_DIRECT,
                &IID_ID3D12CommandAllocator,
                &mut a
            ),
            S_OK
        );
        assert_eq!(
            d.CreateCommandList.unwrap()(
                dev_ptr,
                0,
                D3D12_COMMAND_LIST_TYPE_DIRECT,
                a.cast(),
                null_mut(),
                &IID_ID3D12GraphicsCommandList,
                &mut l
            ),
            S_OK
        );
        assert_eq!(d.CreateFence.unwrap()(dev_ptr, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, &mut f), S_OK);
        let (q, l) = (q as *mut ID3D12CommandQueue, l as *mut ID3D12GraphicsCommandList);
        let lv = vt(l);
        // Buffer: COMMON promoted to COPY_DEST. Textures: texb promoted to COPY_DEST (a write:
        // stays), texa promoted to COPY_SOURCE (read-only: decays).
        lv.CopyBufferRegion.unwrap()(l, target.cast(), 0, upload.cast(), 0, 256);
        lv.CopyResource.unwrap()(l, texb.cast(), texa.cast());
        assert_eq!(lv.Close.unwrap()(l), S_OK);
        let lists = [l as *mut ID3D12CommandList];
        let qv = vt(q);
        qv.ExecuteCommandLists.unwrap()(q, 1, lists.as_ptr());
        assert_eq!(qv.Signal.unwrap()(q, f.cast(), 1), S_OK);
        let fv = &*(*(f as *mut *const ID3D12FenceVtbl));
        assert_eq!(fv.SetEventOnCompletion.unwrap()(f.cast(), 1, null_mut()), S_OK);

        assert_eq!(states_of(target), vec![0], "buffers decay to COMMON after the submission");
        assert_eq!(states_of(texa), vec![0], "a texture promoted to a read state decays");
        assert_eq!(
            states_of(texb),
            vec![D3D12_RESOURCE_STATE_COPY_DEST.0],
            "a texture promoted to a write state keeps it"
        );

        for p in [upload, target, texa, texb, a, f] {
            let u = p as *mut IUnknown;
            (*(*u).lpVtbl).Release.unwrap()(u);
        }
        for u in [l as *mut IUnknown, q as *mut IUnknown] {
            (*(*u).lpVtbl).Release.unwrap()(u);
        }
        (*(*(dev_ptr as *mut IUnknown)).lpVtbl).Release.unwrap()(dev_ptr as *mut IUnknown);
    }
}
