use super::*;
use crate::com::Ptr;
use rd3d12_core::pipeline::stream::subobject_layout;
use rd3d12_core::pipeline::{D3D12_ERROR_ADAPTER_NOT_FOUND, D3D12_ERROR_DRIVER_VERSION_MISMATCH};
use rd3d12_core::root_signature::{RootSignatureDesc, Version};
use rd3d12_core::shader::{element, system_element, SemanticKind, ShaderBuilder, Stage};
use std::mem::offset_of;

/// A subobject as d3dx12's `alignas(void*)` template lays it out.
#[repr(C, align(8))]
struct Sub<T> {
    ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE,
    inner: T,
}

#[test]
fn stream_subobject_layout_matches_the_c_layout() {
    fn check<T>(ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE) {
        let (align, size) = subobject_layout(ty.0).expect("known type");
        assert_eq!(offset_of!(Sub<T>, inner), 4usize.next_multiple_of(align), "type {}", ty.0);
        assert_eq!(size, size_of::<T>(), "type {}", ty.0);
        assert_eq!(size_of::<Sub<T>>(), (offset_of!(Sub<T>, inner) + size).next_multiple_of(8), "type {}", ty.0);
    }
    check::<*mut ID3D12RootSignature>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE);
    for t in [
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_HS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_GS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_AS,
        D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_MS,
    ] {
        check::<D3D12_SHADER_BYTECODE>(t);
    }
    check::<D3D12_STREAM_OUTPUT_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_STREAM_OUTPUT);
    check::<D3D12_BLEND_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND);
    check::<UINT>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_MASK);
    check::<D3D12_RASTERIZER_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER);
    check::<D3D12_DEPTH_STENCIL_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL);
    check::<D3D12_INPUT_LAYOUT_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT);
    check::<D3D12_INDEX_BUFFER_STRIP_CUT_VALUE>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_IB_STRIP_CUT_VALUE);
    check::<D3D12_PRIMITIVE_TOPOLOGY_TYPE>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY);
    check::<D3D12_RT_FORMAT_ARRAY>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS);
    check::<DXGI_FORMAT>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL_FORMAT);
    check::<DXGI_SAMPLE_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_SAMPLE_DESC);
    check::<D3D12_NODE_MASK>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_NODE_MASK);
    check::<D3D12_CACHED_PIPELINE_STATE>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_CACHED_PSO);
    check::<D3D12_PIPELINE_STATE_FLAGS>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_FLAGS);
    check::<D3D12_DEPTH_STENCIL_DESC1>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1);
    check::<D3D12_VIEW_INSTANCING_DESC>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VIEW_INSTANCING);
    check::<D3D12_DEPTH_STENCIL_DESC2>(D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL2);
    for unknown in [23, 27, 100] {
        assert!(subobject_layout(unknown).is_none());
    }
}

fn device() -> Ptr<Device> {
    crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap()
}

fn dev_vtbl() -> &'static ID3D12Device11Vtbl {
    crate::device::vtable()
}

#[test]
fn shader_cache_reports_single_pso_and_library() {
    let d = device();
    let mut data = D3D12_FEATURE_DATA_SHADER_CACHE::default();
    // SAFETY: the struct and its size.
    unsafe {
        d.inner
            .check_feature_support(
                D3D12_FEATURE_SHADER_CACHE,
                &mut data as *mut _ as *mut c_void,
                size_of_val(&data) as u32,
            )
            .unwrap()
    };
    assert_eq!(data.SupportFlags.0, D3D12_SHADER_CACHE_SUPPORT_SINGLE_PSO.0 | D3D12_SHADER_CACHE_SUPPORT_LIBRARY.0);
}

#[test]
fn limits_follow_what_the_device_reports() {
    let d = device();
    let l = limits(&d.inner);
    assert!(l.logic_op && !l.depth_bounds && !l.mesh_shaders && !l.independent_stencil_masks);
    assert_eq!((l.conservative_raster_tier, l.view_instancing_tier, l.node_count), (0, 0, 1));
    assert_eq!(l.max_shader_model, ShaderModel::new(6, 2));
    assert_eq!(l.root_signature.max_version, Version::from_raw(features::MAX_ROOT_SIGNATURE.0).unwrap());
}

/// A root signature object allowing the input assembler.
fn root_signature(d: &Ptr<Device>, flags: u32) -> *mut ID3D12RootSignature {
    let mut desc = RootSignatureDesc::new(Version::V1_0);
    desc.flags = flags;
    let blob = desc.serialize().unwrap();
    let mut out = std::ptr::null_mut();
    // SAFETY: our device; the blob and out-pointer are valid.
    let hr = unsafe {
        dev_vtbl().CreateRootSignature.unwrap()(
            d.as_iface(),
            0,
            blob.as_ptr().cast(),
            blob.len(),
            &IID_ID3D12RootSignature,
            &mut out,
        )
    };
    assert_eq!(hr, S_OK);
    out as *mut ID3D12RootSignature
}

fn release<T>(p: *mut T) -> u32 {
    let u = p as *mut IUnknown;
    // SAFETY: a live COM pointer we own a reference on.
    unsafe { (*(*u).lpVtbl).Release.unwrap()(u) }
}

fn shaders() -> (Vec<u8>, Vec<u8>) {
    let vs = ShaderBuilder::dxbc(Stage::Vertex)
        .inputs(vec![element("POSITION", 0, 0)])
        .outputs(vec![system_element("SV_Position", 0, 0, SemanticKind::Position)])
        .build();
    let ps = ShaderBuilder::dxbc(Stage::Pixel)
        .inputs(vec![system_element("SV_Position", 0, 0, SemanticKind::Position)])
        .outputs(vec![system_element("SV_Target", 0, 0, SemanticKind::Target)])
        .build();
    (vs, ps)
}

struct Graphics {
    desc: D3D12_GRAPHICS_PIPELINE_STATE_DESC,
    _keep: (Vec<u8>, Vec<u8>, Box<[D3D12_INPUT_ELEMENT_DESC; 1]>),
}

fn graphics_desc(rs: *mut ID3D12RootSignature) -> Graphics {
    let (vs, ps) = shaders();
    let layout = Box::new([D3D12_INPUT_ELEMENT_DESC {
        SemanticName: c"POSITION".as_ptr(),
        Format: DXGI_FORMAT_R32G32B32_FLOAT,
        ..Default::default()
    }]);
    let mut d = D3D12_GRAPHICS_PIPELINE_STATE_DESC {
        pRootSignature: rs,
        VS: D3D12_SHADER_BYTECODE { pShaderBytecode: vs.as_ptr().cast(), BytecodeLength: vs.len() },
        PS: D3D12_SHADER_BYTECODE { pShaderBytecode: ps.as_ptr().cast(), BytecodeLength: ps.len() },
        SampleMask: u32::MAX,
        InputLayout: D3D12_INPUT_LAYOUT_DESC { pInputElementDescs: layout.as_ptr(), NumElements: 1 },
        PrimitiveTopologyType: D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
        NumRenderTargets: 1,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        ..Default::default()
    };
    d.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    d.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
    d.RasterizerState.CullMode = D3D12_CULL_MODE_BACK;
    d.BlendState.RenderTarget[0].RenderTargetWriteMask = 0xF;
    Graphics { desc: d, _keep: (vs, ps, layout) }
}

fn create_graphics(d: &Ptr<Device>, desc: &D3D12_GRAPHICS_PIPELINE_STATE_DESC) -> (HRESULT, *mut ID3D12PipelineState) {
    let mut out = std::ptr::null_mut();
    // SAFETY: our device; the description's pointers are alive.
    let hr = unsafe {
        dev_vtbl().CreateGraphicsPipelineState.unwrap()(d.as_iface(), desc, &IID_ID3D12PipelineState, &mut out)
    };
    (hr, out as *mut ID3D12PipelineState)
}

fn cached_blob(p: *mut ID3D12PipelineState) -> Vec<u8> {
    let mut blob: *mut ID3DBlob = std::ptr::null_mut();
    // SAFETY: our PSO; the blob is read then released.
    unsafe {
        assert_eq!(((*(*p).lpVtbl).GetCachedBlob.unwrap())(p, &mut blob), S_OK);
        let vt = &*(*blob).lpVtbl;
        let bytes = std::slice::from_raw_parts(
            vt.GetBufferPointer.unwrap()(blob) as *const u8,
            vt.GetBufferSize.unwrap()(blob),
        )
        .to_vec();
        release(blob);
        bytes
    }
}

#[test]
fn graphics_pso_cached_blob_round_trip() {
    let d = device();
    let rs = root_signature(&d, 1);
    let g = graphics_desc(rs);
    let (hr, pso) = create_graphics(&d, &g.desc);
    assert_eq!(hr, S_OK);
    let blob = cached_blob(pso);
    let with = |b: &[u8]| {
        let mut desc = g.desc;
        desc.CachedPSO = D3D12_CACHED_PIPELINE_STATE { pCachedBlob: b.as_ptr().cast(), CachedBlobSizeInBytes: b.len() };
        let (hr, p) = create_graphics(&d, &desc);
        if !p.is_null() {
            release(p);
        }
        hr
    };
    assert_eq!(with(&blob), S_OK);
    let flip = |at: usize| {
        let mut b = blob.clone();
        b[at] ^= 0x80;
        b
    };
    assert_eq!(with(&flip(16)), D3D12_ERROR_ADAPTER_NOT_FOUND);
    assert_eq!(with(&flip(32)), D3D12_ERROR_DRIVER_VERSION_MISMATCH);
    assert_eq!(with(&flip(blob.len() - 1)), E_INVALIDARG);
    let (hr, other) = create_graphics(&d, &{
        let mut x = g.desc;
        x.SampleMask = 1;
        x
    });
    assert_eq!(hr, S_OK);
    assert_eq!(with(&cached_blob(other)), E_INVALIDARG, "a blob of another description");
    // The cached blob of the same description, made by another PSO object, is identical.
    let (_, again) = create_graphics(&d, &g.desc);
    assert_eq!(cached_blob(again), blob);
    for p in [pso, other, again] {
        assert_eq!(release(p), 0);
    }
    assert_eq!(release(rs), 0, "a PSO holds no reference on its root signature");
}

#[test]
fn stream_struct_creates_the_same_pipeline() {
    #[repr(C)]
    struct Stream {
        rs: Sub<*mut ID3D12RootSignature>,
        vs: Sub<D3D12_SHADER_BYTECODE>,
        ps: Sub<D3D12_SHADER_BYTECODE>,
        il: Sub<D3D12_INPUT_LAYOUT_DESC>,
        topo: Sub<D3D12_PRIMITIVE_TOPOLOGY_TYPE>,
        rt: Sub<D3D12_RT_FORMAT_ARRAY>,
        rast: Sub<D3D12_RASTERIZER_DESC>,
        ds: Sub<D3D12_DEPTH_STENCIL_DESC1>,
        blend: Sub<D3D12_BLEND_DESC>,
    }
    let d = device();
    let rs = root_signature(&d, 1);
    let g = graphics_desc(rs);
    let x = &g.desc;
    let mut rt = D3D12_RT_FORMAT_ARRAY { NumRenderTargets: 1, ..Default::default() };
    rt.RTFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
    let ds = D3D12_DEPTH_STENCIL_DESC1 {
        DepthEnable: x.DepthStencilState.DepthEnable,
        DepthFunc: x.DepthStencilState.DepthFunc,
        ..Default::default()
    };
    let s = Stream {
        rs: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_ROOT_SIGNATURE, inner: rs },
        vs: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_VS, inner: x.VS },
        ps: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PS, inner: x.PS },
        il: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_INPUT_LAYOUT, inner: x.InputLayout },
        topo: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_PRIMITIVE_TOPOLOGY, inner: x.PrimitiveTopologyType },
        rt: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RENDER_TARGET_FORMATS, inner: rt },
        rast: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_RASTERIZER, inner: x.RasterizerState },
        ds: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_DEPTH_STENCIL1, inner: ds },
        blend: Sub { ty: D3D12_PIPELINE_STATE_SUBOBJECT_TYPE_BLEND, inner: x.BlendState },
    };
    let sd = D3D12_PIPELINE_STATE_STREAM_DESC {
        SizeInBytes: size_of::<Stream>(),
        pPipelineStateSubobjectStream: &s as *const Stream as *mut c_void,
    };
    let mut out = std::ptr::null_mut();
    // SAFETY: our device; the stream lives on the stack for the call.
    let hr = unsafe { dev_vtbl().CreatePipelineState.unwrap()(d.as_iface(), &sd, &IID_ID3D12PipelineState, &mut out) };
    assert_eq!(hr, S_OK);
    let from_stream = out as *mut ID3D12PipelineState;
    let (hr, from_desc) = create_graphics(&d, x);
    assert_eq!(hr, S_OK);
    assert_eq!(cached_blob(from_stream), cached_blob(from_desc));
    release(from_stream);
    release(from_desc);
    release(rs);
}

#[test]
fn command_signature_holds_its_root_signature() {
    let d = device();
    let mut desc = RootSignatureDesc::new(Version::V1_0);
    desc.parameters.push(rd3d12_core::root_signature::RootParameter {
        kind: rd3d12_core::root_signature::ParameterKind::Constants(rd3d12_core::root_signature::RootConstants {
            shader_register: 0,
            register_space: 0,
            num_32bit_values: 2,
        }),
        visibility: 0,
    });
    let blob = desc.serialize().unwrap();
    let mut rs = std::ptr::null_mut();
    // SAFETY: our device and valid pointers.
    unsafe {
        assert_eq!(
            dev_vtbl().CreateRootSignature.unwrap()(
                d.as_iface(),
                0,
                blob.as_ptr().cast(),
                blob.len(),
                &IID_ID3D12RootSignature,
                &mut rs
            ),
            S_OK
        );
    }
    let rs = rs as *mut ID3D12RootSignature;
    let mut args = [D3D12_INDIRECT_ARGUMENT_DESC::default(); 2];
    args[0].Type = D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT;
    args[0].__bindgen_anon_1.Constant = D3D12_INDIRECT_ARGUMENT_DESC__bindgen_ty_1__bindgen_ty_2 {
        RootParameterIndex: 0,
        DestOffsetIn32BitValues: 0,
        Num32BitValuesToSet: 2,
    };
    args[1].Type = D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH;
    let cs = D3D12_COMMAND_SIGNATURE_DESC {
        ByteStride: 20,
        NumArgumentDescs: 2,
        pArgumentDescs: args.as_ptr(),
        NodeMask: 0,
    };
    let mut sig = std::ptr::null_mut();
    // SAFETY: as above.
    let hr = unsafe {
        dev_vtbl().CreateCommandSignature.unwrap()(d.as_iface(), &cs, rs, &IID_ID3D12CommandSignature, &mut sig)
    };
    assert_eq!(hr, S_OK);
    assert_eq!(release(rs), 1, "the signature keeps the root signature alive");
    assert_eq!(release(sig), 0);
    // Without the root signature the same desc is invalid.
    let mut sig = std::ptr::null_mut();
    // SAFETY: as above.
    let hr = unsafe {
        dev_vtbl().CreateCommandSignature.unwrap()(
            d.as_iface(),
            &cs,
            std::ptr::null_mut(),
            &IID_ID3D12CommandSignature,
            &mut sig,
        )
    };
    assert_eq!((hr, sig), (E_INVALIDARG, std::ptr::null_mut()));
}
