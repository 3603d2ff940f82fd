//! The device's descriptor methods: CreateDescriptorHeap, GetDescriptorHandleIncrementSize,
//! the view and sampler creators, and CopyDescriptors(Simple).
//!
//! View creation returns void: an invalid desc writes the null descriptor of the view's kind,
//! and a handle that is not a descriptor of a live heap of the right type writes nothing. The
//! rule an invalid call broke ([`Rule`]) is where the debug layer will pick it up
//! ([`report`]).
//!
//! <https://learn.microsoft.com/windows/win32/direct3d12/descriptors-overview>

use super::{null_out, Iface};
use crate::com::{downcast, hand_out, Object, Ptr};
use crate::descriptor_heap::{self, DescriptorHeap};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error};
use crate::resource::Resource;
use crate::work::descriptors::INC;
use rd3d12_core::descriptor::{self as desc, Descriptor, Kind, Rule, SamplerDesc, ViewDesc, ViewResource};
use rd3d12_sys::*;
use std::ffi::c_void;

/// # Safety
/// `this` null or our live device pointer.
#[inline]
unsafe fn device<'a>(this: *mut Iface) -> Option<&'a Object<Device>> {
    // SAFETY: forwarded.
    unsafe { Object::<Device>::from_this(this) }
}

/// Hands the rule an invalid call broke to the debug layer (view creation: STATE_CREATION;
/// descriptor copies: STATE_SETTING). Without the layer the call's outcome (a null
/// descriptor, nothing copied) is all there is.
#[cold]
fn report(method: &'static str, rule: Rule) {
    let category = if method.starts_with("Copy") {
        D3D12_MESSAGE_CATEGORY_STATE_SETTING
    } else {
        D3D12_MESSAGE_CATEGORY_STATE_CREATION
    };
    let severity = if rule.warning { D3D12_MESSAGE_SEVERITY_WARNING } else { D3D12_MESSAGE_SEVERITY_ERROR };
    crate::debug::report_parts(method, category, severity, rule.id.0, rule.text);
}

/// The Create*View method that makes descriptors of `kind`.
fn creator(kind: Kind) -> &'static str {
    match kind {
        Kind::CBV => "CreateConstantBufferView",
        Kind::SRV => "CreateShaderResourceView",
        Kind::UAV => "CreateUnorderedAccessView",
        Kind::RTV => "CreateRenderTargetView",
        Kind::DSV => "CreateDepthStencilView",
        _ => "CreateSampler",
    }
}

/// ID3D12Device::CreateDescriptorHeap (slot 14).
pub unsafe extern "C" fn create_descriptor_heap(
    this: *mut Iface,
    desc: *const D3D12_DESCRIPTOR_HEAP_DESC,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("CreateDescriptorHeap", || {
        null_out(ppv);
        // SAFETY: COM This pointer; `desc` null or a desc.
        let d = unsafe { device(this) }.ok_or(Error::POINTER)?;
        d.inner.check_alive()?;
        let desc = unsafe { desc.as_ref() }.ok_or(Error::INVALID_ARG)?;
        let heap = DescriptorHeap::create(Ptr::from_ref(d), desc)?;
        // SAFETY: `riid` null or a GUID, `ppv` null or writable.
        Ok(unsafe { hand_out(heap, riid, ppv) })
    })
}

/// ID3D12Device::GetDescriptorHandleIncrementSize (slot 15): 64 for every heap type, 0 for an
/// unknown type.
pub unsafe extern "C" fn get_descriptor_handle_increment_size(
    _this: *mut Iface,
    ty: D3D12_DESCRIPTOR_HEAP_TYPE,
) -> UINT {
    desc::handle_increment(ty.0)
}

/// Writes the outcome of a view creation: the descriptor, or the kind's null descriptor and
/// the broken rule.
#[inline]
fn store(
    d: &Device,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
    ty: D3D12_DESCRIPTOR_HEAP_TYPE,
    kind: Kind,
    r: std::result::Result<Descriptor, Rule>,
) {
    let rec = match r {
        Ok(rec) => rec,
        Err(rule) => {
            report(creator(kind), rule);
            Descriptor::null(kind)
        }
    };
    if !descriptor_heap::write(d, h, ty, &rec) {
        report(creator(kind), desc::rules::HANDLE_INVALID);
    }
}

/// The resource argument of a view creator: ours (registered so its descriptors resolve), or
/// `Err` for a pointer that is not one of our resources.
///
/// # Safety
/// `p` null or a live COM pointer.
#[inline]
unsafe fn view_resource<'a>(d: &Device, p: *mut ID3D12Resource) -> std::result::Result<Option<&'a Resource>, ()> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: recognised by vtable.
    match unsafe { downcast::<Resource, _>(p) } {
        Some(r) => {
            d.resources.register(r.inner.id, &r.inner.registered, || r.inner.view_entry());
            Ok(Some(&r.inner))
        }
        None => Err(()),
    }
}

fn as_view(r: Option<&Resource>) -> Option<ViewResource<'_>> {
    r.map(|r| ViewResource { desc: &r.desc, id: r.id })
}

const VIEWS: D3D12_DESCRIPTOR_HEAP_TYPE = D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV;

/// Not one of our resources: the view cannot name it.
const FOREIGN: &str = "pResource is not a resource of this runtime";

/// ID3D12Device::CreateConstantBufferView (slot 17).
pub unsafe extern "C" fn create_constant_buffer_view(
    this: *mut Iface,
    desc: *const D3D12_CONSTANT_BUFFER_VIEW_DESC,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateConstantBufferView", (), || {
        // SAFETY: COM This pointer; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let v = unsafe { desc.as_ref() }.map(|c| (c.BufferLocation, c.SizeInBytes));
        store(&d.inner, h, VIEWS, Kind::CBV, desc::cbv(v));
    })
}

/// The SRV desc's union member for its dimension.
fn decode_srv(d: &D3D12_SHADER_RESOURCE_VIEW_DESC) -> ViewDesc {
    let mut v = ViewDesc {
        format: d.Format.0,
        dimension: d.ViewDimension.0,
        mapping: d.Shader4ComponentMapping,
        ..ViewDesc::default()
    };
    let u = &d.__bindgen_anon_1;
    // SAFETY: each arm reads the member the dimension selects; members are integers and floats,
    // valid for any bits.
    unsafe {
        match d.ViewDimension {
            D3D12_SRV_DIMENSION_BUFFER => {
                let b = u.Buffer;
                (v.first_element, v.num_elements, v.stride, v.flags) =
                    (b.FirstElement, b.NumElements, b.StructureByteStride, b.Flags.0);
            }
            D3D12_SRV_DIMENSION_TEXTURE1D => {
                let t = u.Texture1D;
                (v.mip, v.mip_levels, v.min_lod) = (t.MostDetailedMip, t.MipLevels, t.ResourceMinLODClamp);
            }
            D3D12_SRV_DIMENSION_TEXTURE1DARRAY => {
                let t = u.Texture1DArray;
                (v.mip, v.mip_levels, v.first_slice, v.array_size, v.min_lod) =
                    (t.MostDetailedMip, t.MipLevels, t.FirstArraySlice, t.ArraySize, t.ResourceMinLODClamp);
            }
            D3D12_SRV_DIMENSION_TEXTURE2D => {
                let t = u.Texture2D;
                (v.mip, v.mip_levels, v.plane, v.min_lod) =
                    (t.MostDetailedMip, t.MipLevels, t.PlaneSlice, t.ResourceMinLODClamp);
            }
            D3D12_SRV_DIMENSION_TEXTURE2DARRAY => {
                let t = u.Texture2DArray;
                (v.mip, v.mip_levels, v.first_slice, v.array_size, v.plane, v.min_lod) = (
                    t.MostDetailedMip,
                    t.MipLevels,
                    t.FirstArraySlice,
                    t.ArraySize,
                    t.PlaneSlice,
                    t.ResourceMinLODClamp,
                );
            }
            D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY => {
                let t = u.Texture2DMSArray;
                (v.first_slice, v.array_size) = (t.FirstArraySlice, t.ArraySize);
            }
            D3D12_SRV_DIMENSION_TEXTURE3D => {
                let t = u.Texture3D;
                (v.mip, v.mip_levels, v.min_lod) = (t.MostDetailedMip, t.MipLevels, t.ResourceMinLODClamp);
            }
            D3D12_SRV_DIMENSION_TEXTURECUBE => {
                let t = u.TextureCube;
                (v.mip, v.mip_levels, v.min_lod) = (t.MostDetailedMip, t.MipLevels, t.ResourceMinLODClamp);
            }
            D3D12_SRV_DIMENSION_TEXTURECUBEARRAY => {
                let t = u.TextureCubeArray;
                (v.mip, v.mip_levels, v.first_slice, v.array_size, v.min_lod) =
                    (t.MostDetailedMip, t.MipLevels, t.First2DArrayFace, t.NumCubes, t.ResourceMinLODClamp);
            }
            _ => {}
        }
    }
    v
}

/// ID3D12Device::CreateShaderResourceView (slot 18).
pub unsafe extern "C" fn create_shader_resource_view(
    this: *mut Iface,
    res: *mut ID3D12Resource,
    desc: *const D3D12_SHADER_RESOURCE_VIEW_DESC,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateShaderResourceView", (), || {
        // SAFETY: COM This pointer; `res` null or a live resource; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let d = &d.inner;
        let out = match unsafe { view_resource(d, res) } {
            Ok(r) => {
                let v = unsafe { desc.as_ref() }.map(decode_srv);
                desc::srv(v.as_ref(), as_view(r))
            }
            Err(()) => Err(Rule {
                id: D3D12_MESSAGE_ID_CREATESHADERRESOURCEVIEW_INVALIDRESOURCE.into(),
                warning: false,
                text: FOREIGN,
            }),
        };
        store(d, h, VIEWS, Kind::SRV, out);
    })
}

fn decode_uav(d: &D3D12_UNORDERED_ACCESS_VIEW_DESC) -> ViewDesc {
    let mut v = ViewDesc { format: d.Format.0, dimension: d.ViewDimension.0, ..ViewDesc::default() };
    let u = &d.__bindgen_anon_1;
    // SAFETY: as in decode_srv.
    unsafe {
        match d.ViewDimension {
            D3D12_UAV_DIMENSION_BUFFER => {
                let b = u.Buffer;
                (v.first_element, v.num_elements, v.stride, v.counter_offset, v.flags) =
                    (b.FirstElement, b.NumElements, b.StructureByteStride, b.CounterOffsetInBytes, b.Flags.0);
            }
            D3D12_UAV_DIMENSION_TEXTURE1D => v.mip = u.Texture1D.MipSlice,
            D3D12_UAV_DIMENSION_TEXTURE1DARRAY => {
                let t = u.Texture1DArray;
                (v.mip, v.first_slice, v.array_size) = (t.MipSlice, t.FirstArraySlice, t.ArraySize);
            }
            D3D12_UAV_DIMENSION_TEXTURE2D => {
                let t = u.Texture2D;
                (v.mip, v.plane) = (t.MipSlice, t.PlaneSlice);
            }
            D3D12_UAV_DIMENSION_TEXTURE2DARRAY => {
                let t = u.Texture2DArray;
                (v.mip, v.first_slice, v.array_size, v.plane) =
                    (t.MipSlice, t.FirstArraySlice, t.ArraySize, t.PlaneSlice);
            }
            D3D12_UAV_DIMENSION_TEXTURE2DMSARRAY => {
                let t = u.Texture2DMSArray;
                (v.first_slice, v.array_size) = (t.FirstArraySlice, t.ArraySize);
            }
            D3D12_UAV_DIMENSION_TEXTURE3D => {
                let t = u.Texture3D;
                (v.mip, v.first_slice, v.array_size) = (t.MipSlice, t.FirstWSlice, t.WSize);
            }
            _ => {}
        }
    }
    v
}

/// ID3D12Device::CreateUnorderedAccessView (slot 19), with an optional counter resource.
pub unsafe extern "C" fn create_unordered_access_view(
    this: *mut Iface,
    res: *mut ID3D12Resource,
    counter: *mut ID3D12Resource,
    desc: *const D3D12_UNORDERED_ACCESS_VIEW_DESC,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateUnorderedAccessView", (), || {
        // SAFETY: COM This pointer; resources null or live; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let d = &d.inner;
        let foreign = Rule {
            id: D3D12_MESSAGE_ID_CREATEUNORDEREDACCESSVIEW_INVALIDRESOURCE.into(),
            warning: false,
            text: FOREIGN,
        };
        let out = match unsafe { (view_resource(d, res), view_resource(d, counter)) } {
            (Ok(r), Ok(c)) => {
                let v = unsafe { desc.as_ref() }.map(decode_uav);
                let out = desc::uav(v.as_ref(), as_view(r), as_view(c));
                if let Some(w) = desc::uav_warning(v.as_ref(), c.is_some()).filter(|_| out.is_ok()) {
                    report("CreateUnorderedAccessView", w);
                }
                out
            }
            _ => Err(foreign),
        };
        store(d, h, VIEWS, Kind::UAV, out);
    })
}

fn decode_rtv(d: &D3D12_RENDER_TARGET_VIEW_DESC) -> ViewDesc {
    let mut v = ViewDesc { format: d.Format.0, dimension: d.ViewDimension.0, ..ViewDesc::default() };
    let u = &d.__bindgen_anon_1;
    // SAFETY: as in decode_srv.
    unsafe {
        match d.ViewDimension {
            D3D12_RTV_DIMENSION_BUFFER => {
                let b = u.Buffer;
                (v.first_element, v.num_elements) = (b.FirstElement, b.NumElements);
            }
            D3D12_RTV_DIMENSION_TEXTURE1D => v.mip = u.Texture1D.MipSlice,
            D3D12_RTV_DIMENSION_TEXTURE1DARRAY => {
                let t = u.Texture1DArray;
                (v.mip, v.first_slice, v.array_size) = (t.MipSlice, t.FirstArraySlice, t.ArraySize);
            }
            D3D12_RTV_DIMENSION_TEXTURE2D => {
                let t = u.Texture2D;
                (v.mip, v.plane) = (t.MipSlice, t.PlaneSlice);
            }
            D3D12_RTV_DIMENSION_TEXTURE2DARRAY => {
                let t = u.Texture2DArray;
                (v.mip, v.first_slice, v.array_size, v.plane) =
                    (t.MipSlice, t.FirstArraySlice, t.ArraySize, t.PlaneSlice);
            }
            D3D12_RTV_DIMENSION_TEXTURE2DMSARRAY => {
                let t = u.Texture2DMSArray;
                (v.first_slice, v.array_size) = (t.FirstArraySlice, t.ArraySize);
            }
            D3D12_RTV_DIMENSION_TEXTURE3D => {
                let t = u.Texture3D;
                (v.mip, v.first_slice, v.array_size) = (t.MipSlice, t.FirstWSlice, t.WSize);
            }
            _ => {}
        }
    }
    v
}

/// ID3D12Device::CreateRenderTargetView (slot 20).
pub unsafe extern "C" fn create_render_target_view(
    this: *mut Iface,
    res: *mut ID3D12Resource,
    desc: *const D3D12_RENDER_TARGET_VIEW_DESC,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateRenderTargetView", (), || {
        // SAFETY: COM This pointer; `res` null or a live resource; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let d = &d.inner;
        let out = match unsafe { view_resource(d, res) } {
            Ok(r) => desc::rtv(unsafe { desc.as_ref() }.map(decode_rtv).as_ref(), as_view(r)),
            Err(()) => Err(Rule {
                id: D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDRESOURCE.into(),
                warning: false,
                text: FOREIGN,
            }),
        };
        store(d, h, D3D12_DESCRIPTOR_HEAP_TYPE_RTV, Kind::RTV, out);
    })
}

fn decode_dsv(d: &D3D12_DEPTH_STENCIL_VIEW_DESC) -> ViewDesc {
    let mut v = ViewDesc { format: d.Format.0, dimension: d.ViewDimension.0, flags: d.Flags.0, ..ViewDesc::default() };
    let u = &d.__bindgen_anon_1;
    // SAFETY: as in decode_srv.
    unsafe {
        match d.ViewDimension {
            D3D12_DSV_DIMENSION_TEXTURE1D => v.mip = u.Texture1D.MipSlice,
            D3D12_DSV_DIMENSION_TEXTURE1DARRAY => {
                let t = u.Texture1DArray;
                (v.mip, v.first_slice, v.array_size) = (t.MipSlice, t.FirstArraySlice, t.ArraySize);
            }
            D3D12_DSV_DIMENSION_TEXTURE2D => v.mip = u.Texture2D.MipSlice,
            D3D12_DSV_DIMENSION_TEXTURE2DARRAY => {
                let t = u.Texture2DArray;
                (v.mip, v.first_slice, v.array_size) = (t.MipSlice, t.FirstArraySlice, t.ArraySize);
            }
            D3D12_DSV_DIMENSION_TEXTURE2DMSARRAY => {
                let t = u.Texture2DMSArray;
                (v.first_slice, v.array_size) = (t.FirstArraySlice, t.ArraySize);
            }
            _ => {}
        }
    }
    v
}

/// ID3D12Device::CreateDepthStencilView (slot 21).
pub unsafe extern "C" fn create_depth_stencil_view(
    this: *mut Iface,
    res: *mut ID3D12Resource,
    desc: *const D3D12_DEPTH_STENCIL_VIEW_DESC,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateDepthStencilView", (), || {
        // SAFETY: COM This pointer; `res` null or a live resource; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let d = &d.inner;
        let out = match unsafe { view_resource(d, res) } {
            Ok(r) => desc::dsv(unsafe { desc.as_ref() }.map(decode_dsv).as_ref(), as_view(r)),
            Err(()) => Err(Rule {
                id: D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDRESOURCE.into(),
                warning: false,
                text: FOREIGN,
            }),
        };
        store(d, h, D3D12_DESCRIPTOR_HEAP_TYPE_DSV, Kind::DSV, out);
    })
}

fn sampler(d: &Device, s: Option<SamplerDesc>, h: D3D12_CPU_DESCRIPTOR_HANDLE) {
    let out = match s {
        Some(s) => {
            if let Some(w) = desc::sampler_warning(&s) {
                report("CreateSampler", w);
            }
            desc::sampler(&s)
        }
        None => Err(desc::rules::SAMPLER),
    };
    store(d, h, D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER, Kind::SAMPLER, out);
}

/// ID3D12Device::CreateSampler (slot 22).
pub unsafe extern "C" fn create_sampler(
    this: *mut Iface,
    desc: *const D3D12_SAMPLER_DESC,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateSampler", (), || {
        // SAFETY: COM This pointer; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let s = unsafe { desc.as_ref() }.map(|s| SamplerDesc {
            filter: s.Filter.0,
            address: [s.AddressU.0, s.AddressV.0, s.AddressW.0],
            mip_lod_bias: s.MipLODBias,
            max_anisotropy: s.MaxAnisotropy,
            comparison_func: s.ComparisonFunc.0,
            border: s.BorderColor.map(f32::to_bits),
            min_lod: s.MinLOD,
            max_lod: s.MaxLOD,
            flags: 0,
        });
        sampler(&d.inner, s, h);
    })
}

/// ID3D12Device11::CreateSampler2 (slot 79): D3D12_SAMPLER_DESC2 adds integer border colours.
pub unsafe extern "C" fn create_sampler2(
    this: *mut Iface,
    desc: *const D3D12_SAMPLER_DESC2,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateSampler2", (), || {
        // SAFETY: COM This pointer; `desc` null or a desc.
        let Some(d) = (unsafe { device(this) }) else { return };
        let s = unsafe { desc.as_ref() }.map(|s| SamplerDesc {
            filter: s.Filter.0,
            address: [s.AddressU.0, s.AddressV.0, s.AddressW.0],
            mip_lod_bias: s.MipLODBias,
            max_anisotropy: s.MaxAnisotropy,
            comparison_func: s.ComparisonFunc.0,
            // SAFETY: both union members are four 32-bit values, valid for any bits.
            border: unsafe { s.__bindgen_anon_1.UintBorderColor },
            min_lod: s.MinLOD,
            max_lod: s.MaxLOD,
            flags: s.Flags.0,
        });
        sampler(&d.inner, s, h);
    })
}

/// ID3D12Device8::CreateSamplerFeedbackUnorderedAccessView (slot 71): sampler feedback is not
/// supported (OPTIONS7.SamplerFeedbackTier 0), so the descriptor is a null UAV.
pub unsafe extern "C" fn create_sampler_feedback_uav(
    this: *mut Iface,
    _target: *mut ID3D12Resource,
    _feedback: *mut ID3D12Resource,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    guard("CreateSamplerFeedbackUnorderedAccessView", (), || {
        // SAFETY: COM This pointer.
        let Some(d) = (unsafe { device(this) }) else { return };
        store(&d.inner, h, VIEWS, Kind::UAV, Err(desc::rules::SAMPLER_FEEDBACK));
    })
}

/// ID3D12Device::CopyDescriptorsSimple (slot 24): `n` descriptors, memmove. Both runs must lie
/// in live heaps of `ty`, else nothing is copied.
pub unsafe extern "C" fn copy_descriptors_simple(
    this: *mut Iface,
    n: UINT,
    dst: D3D12_CPU_DESCRIPTOR_HANDLE,
    src: D3D12_CPU_DESCRIPTOR_HANDLE,
    ty: D3D12_DESCRIPTOR_HEAP_TYPE,
) {
    guard("CopyDescriptorsSimple", (), || {
        // SAFETY: COM This pointer.
        let Some(d) = (unsafe { device(this) }) else { return };
        let heaps = &d.inner.descriptor_heaps;
        let n = n as usize;
        if n == 0 {
            return;
        }
        let (Some(_), Some(s)) = (heaps.run(dst.ptr, n, ty.0), heaps.run(src.ptr, n, ty.0)) else {
            return report("CopyDescriptorsSimple", desc::rules::COPY_RANGES);
        };
        if s.visible {
            report("CopyDescriptorsSimple", desc::rules::COPY_SOURCE_VISIBLE);
        }
        // SAFETY: both runs were checked for n descriptors.
        unsafe { descriptor_heap::copy_run(dst.ptr, src.ptr, n) };
    })
}

/// Reads a range array: handles and sizes (NULL sizes: every range holds one descriptor).
///
/// # Safety
/// `starts` null or `n` handles; `sizes` null or `n` sizes.
unsafe fn ranges(n: u32, starts: *const D3D12_CPU_DESCRIPTOR_HANDLE, sizes: *const UINT) -> Option<Vec<(usize, u32)>> {
    if n == 0 {
        return Some(Vec::new());
    }
    if starts.is_null() {
        return None;
    }
    // SAFETY: the caller passes n entries.
    let starts = unsafe { std::slice::from_raw_parts(starts, n as usize) };
    let sizes = (!sizes.is_null()).then(|| unsafe { std::slice::from_raw_parts(sizes, n as usize) });
    Some(starts.iter().enumerate().map(|(i, h)| (h.ptr, sizes.map_or(1, |s| s[i]))).collect())
}

/// ID3D12Device::CopyDescriptors (slot 23): the destination and source range lists must hold
/// the same number of descriptors, every non-empty range inside a live heap of `ty`; then the
/// runs where both sides are contiguous are memmoved in order. Any broken rule copies nothing.
pub unsafe extern "C" fn copy_descriptors(
    this: *mut Iface,
    n_dst: UINT,
    dst_starts: *const D3D12_CPU_DESCRIPTOR_HANDLE,
    dst_sizes: *const UINT,
    n_src: UINT,
    src_starts: *const D3D12_CPU_DESCRIPTOR_HANDLE,
    src_sizes: *const UINT,
    ty: D3D12_DESCRIPTOR_HEAP_TYPE,
) {
    guard("CopyDescriptors", (), || {
        // SAFETY: COM This pointer; arrays as the method's contract says.
        let Some(d) = (unsafe { device(this) }) else { return };
        let heaps = &d.inner.descriptor_heaps;
        let (Some(dst), Some(src)) =
            (unsafe { ranges(n_dst, dst_starts, dst_sizes) }, unsafe { ranges(n_src, src_starts, src_sizes) })
        else {
            return report("CopyDescriptors", desc::rules::COPY_RANGES);
        };
        let mut visible_source = false;
        let inside = |r: &[(usize, u32)], src: bool, visible: &mut bool| {
            r.iter().all(|&(a, n)| {
                n == 0
                    || heaps.run(a, n as usize, ty.0).is_some_and(|s| {
                        *visible |= src && s.visible;
                        true
                    })
            })
        };
        if !inside(&dst, false, &mut visible_source) || !inside(&src, true, &mut visible_source) {
            return report("CopyDescriptors", desc::rules::COPY_RANGES);
        }
        if visible_source {
            report("CopyDescriptors", desc::rules::COPY_SOURCE_VISIBLE);
        }
        let done = desc::copy_runs(&dst, &src, INC, |to, from, n| {
            // SAFETY: every descriptor of both range lists was checked to lie in a live heap; a
            // run lies inside one checked range on each side.
            unsafe { descriptor_heap::copy_run(to, from, n as usize) };
        });
        if let Err(rule) = done {
            report("CopyDescriptors", rule);
        }
    })
}
