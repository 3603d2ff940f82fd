//! `rd3d12 frame`: one frame of a small built-in scene rendered through the public D3D12 API
//! (the C entry points and vtables, as a C program calls them), written to a PNG and checked
//! against the image worked out by hand below.
//!
//! The scene, on a 256x256 RGBA8 target with a D32_FLOAT depth buffer:
//! 1. **compute**: `image.cs` (Mesa's spirv2dxil, 8x8 threads) writes a 64x64 RGBA8 texture
//!    through a UAV, texel (x, y) = (x, y, 128, 255) (x / 255 and 0.5 stored as UNORM8);
//! 2. **draw**: Mesa's `textured.vs` / `textured.ps` draw three indexed quads sampling that
//!    texture (point filter) times a tint: A (pixels 32..160 square, depth 0.5, opaque), B
//!    (96..224, depth 0.7, blue halved; behind A where they overlap, so the depth test keeps A
//!    there) and C (x 64..192, y 136..200, depth 0.2, alpha 0.5: blended over both);
//! 3. **copy** of the target into a readback buffer.
//!
//! Timestamps (EndQuery on a TIMESTAMP heap) around the passes give each pass's time; a
//! PIPELINE_STATISTICS query counts the pixels shaded. The work is wrapped in PIX events (an
//! ANSI string, a PIX3BLOB and a wide string, as WinPixEventRuntime and plain callers pass
//! them) and the pipelines are named, so that `RD3D12_TRACE` shows a readable timeline.

use d3d12::{D3D12CreateDevice, D3D12EnableExperimentalFeatures, D3D12SerializeVersionedRootSignature};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::ptr::{null, null_mut};

const W: u32 = 256;
const H: u32 = 256;
const TEX: u32 = 64;
const CLEAR: [u8; 4] = [32, 32, 64, 255];

const IMAGE_CS: &[u8] = include_bytes!("../shaders/image.cs.dxil");
const TEXTURED_VS: &[u8] = include_bytes!("../shaders/textured.vs.dxil");
const TEXTURED_PS: &[u8] = include_bytes!("../shaders/textured.ps.dxil");

/// One quad of the scene: pixel rectangle [x0, x1) x [y0, y1), depth, tint, and the part of
/// the texture it maps (v from 0 to `v1`).
struct Quad {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    depth: f32,
    tint: [f32; 4],
    v1: f32,
}

const QUADS: [Quad; 3] = [
    Quad { x0: 32, y0: 32, x1: 160, y1: 160, depth: 0.5, tint: [1.0, 1.0, 1.0, 1.0], v1: 1.0 },
    Quad { x0: 96, y0: 96, x1: 224, y1: 224, depth: 0.7, tint: [1.0, 1.0, 0.5, 1.0], v1: 1.0 },
    Quad { x0: 64, y0: 136, x1: 192, y1: 200, depth: 0.2, tint: [1.0, 1.0, 1.0, 0.5], v1: 0.5 },
];

/// Calls a COM method through the object's vtable.
macro_rules! call {
    ($obj:expr, $m:ident $(, $a:expr)* $(,)?) => {{
        let o = $obj;
        ((*(*o).lpVtbl).$m.expect(stringify!($m)))(o $(, $a)*)
    }};
}

/// An interface pointer released on drop.
struct Com(*mut c_void);

impl Com {
    fn p<T>(&self) -> *mut T {
        self.0.cast()
    }
}

impl Drop for Com {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: every interface starts with IUnknown's three slots.
            unsafe { call!(self.0 as *mut IUnknown, Release) };
        }
    }
}

fn check(hr: HRESULT, what: &str) -> Result<(), String> {
    if hr < 0 {
        Err(format!("{what} failed: {:#010x}", hr as u32))
    } else {
        Ok(())
    }
}

/// Creates an object through `f(riid-filled out-pointer)`.
fn make(what: &str, f: impl FnOnce(*mut *mut c_void) -> HRESULT) -> Result<Com, String> {
    let mut p: *mut c_void = null_mut();
    check(f(&mut p), what)?;
    if p.is_null() {
        return Err(format!("{what} returned no object"));
    }
    Ok(Com(p))
}

fn wide(s: &str) -> Vec<wchar_t> {
    s.chars().map(|c| c as wchar_t).chain([0]).collect()
}

fn bytecode(b: &[u8]) -> D3D12_SHADER_BYTECODE {
    D3D12_SHADER_BYTECODE { pShaderBytecode: b.as_ptr().cast(), BytecodeLength: b.len() }
}

fn buffer_desc(bytes: u64) -> D3D12_RESOURCE_DESC {
    D3D12_RESOURCE_DESC {
        Dimension: D3D12_RESOURCE_DIMENSION_BUFFER,
        Width: bytes,
        Height: 1,
        DepthOrArraySize: 1,
        MipLevels: 1,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Layout: D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
        ..Default::default()
    }
}

fn texture_desc(w: u32, h: u32, format: DXGI_FORMAT, flags: D3D12_RESOURCE_FLAGS) -> D3D12_RESOURCE_DESC {
    D3D12_RESOURCE_DESC {
        Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Width: u64::from(w),
        Height: h,
        DepthOrArraySize: 1,
        MipLevels: 1,
        Format: format,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Flags: flags,
        ..Default::default()
    }
}

fn transition(
    r: *mut ID3D12Resource,
    before: D3D12_RESOURCE_STATES,
    after: D3D12_RESOURCE_STATES,
) -> D3D12_RESOURCE_BARRIER {
    let mut b = D3D12_RESOURCE_BARRIER { Type: D3D12_RESOURCE_BARRIER_TYPE_TRANSITION, ..Default::default() };
    b.__bindgen_anon_1.Transition = D3D12_RESOURCE_TRANSITION_BARRIER {
        pResource: r,
        Subresource: D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES,
        StateBefore: before,
        StateAfter: after,
    };
    b
}

/// The PIX3BLOB WinPixEventRuntime's PIXBeginEvent(list, color, "text") passes (metadata 2):
/// the event info (BeginEvent without arguments), the colour, the string info (ANSI, 8-byte
/// chunks) and the characters, 8 to a word, NUL-terminated.
fn pix3blob(text: &str, color: u64) -> Vec<u64> {
    let mut w = vec![0x002 << 10, color, (8u64 << 55) | (1 << 54)];
    let mut b = text.as_bytes().to_vec();
    b.push(0);
    b.resize(b.len().div_ceil(8) * 8, 0);
    w.extend(b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))));
    w.push(0);
    w
}

/// What the frame measured.
pub struct Frame {
    pub pixels: Vec<u8>,
    /// Seconds of the compute pass, the draw pass and the copy.
    pub passes: [f64; 3],
    pub pixels_shaded: u64,
}

/// Renders the frame.
pub fn render() -> Result<Frame, String> {
    // SAFETY: every call below is a D3D12 entry point or method called as d3d12.h declares it,
    // on objects this function created and holds, with pointers to live locals.
    unsafe { render_inner() }
}

unsafe fn render_inner() -> Result<Frame, String> {
    unsafe {
        // Mesa's DXIL is unsigned: allowed with experimental shader models, as Mesa does.
        check(
            D3D12EnableExperimentalFeatures(1, &D3D12ExperimentalShaderModels, null_mut(), null_mut()),
            "D3D12EnableExperimentalFeatures",
        )?;
        let dev =
            make("D3D12CreateDevice", |p| D3D12CreateDevice(null_mut(), D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, p))?;
        let d: *mut ID3D12Device = dev.p();
        let qd = D3D12_COMMAND_QUEUE_DESC { Type: D3D12_COMMAND_LIST_TYPE_DIRECT, ..Default::default() };
        let queue = make("CreateCommandQueue", |p| call!(d, CreateCommandQueue, &qd, &IID_ID3D12CommandQueue, p))?;
        let q: *mut ID3D12CommandQueue = queue.p();
        let alloc = make("CreateCommandAllocator", |p| {
            call!(d, CreateCommandAllocator, D3D12_COMMAND_LIST_TYPE_DIRECT, &IID_ID3D12CommandAllocator, p)
        })?;
        let list = make("CreateCommandList", |p| {
            call!(
                d,
                CreateCommandList,
                0,
                D3D12_COMMAND_LIST_TYPE_DIRECT,
                alloc.p(),
                null_mut(),
                &IID_ID3D12GraphicsCommandList,
                p
            )
        })?;
        let l: *mut ID3D12GraphicsCommandList = list.p();
        let fence = make("CreateFence", |p| call!(d, CreateFence, 0, D3D12_FENCE_FLAG_NONE, &IID_ID3D12Fence, p))?;

        // Root signatures: compute u0 through a table; graphics as Mesa's shaders want it (VS
        // b0 root CBV and b1 constants, PS b0 constants, t0 through a table, s0 static).
        let serialize = |desc: &D3D12_VERSIONED_ROOT_SIGNATURE_DESC, what: &str| -> Result<Com, String> {
            let mut blob: *mut ID3DBlob = null_mut();
            let mut err: *mut ID3DBlob = null_mut();
            let hr = D3D12SerializeVersionedRootSignature(desc, &mut blob, &mut err);
            let (blob, _err) = (Com(blob.cast()), Com(err.cast()));
            check(hr, what)?;
            let b: *mut ID3DBlob = blob.p();
            make("CreateRootSignature", |p| {
                call!(
                    d,
                    CreateRootSignature,
                    0,
                    call!(b, GetBufferPointer),
                    call!(b, GetBufferSize),
                    &IID_ID3D12RootSignature,
                    p
                )
            })
        };
        let range = |ty, reg| D3D12_DESCRIPTOR_RANGE1 {
            RangeType: ty,
            NumDescriptors: 1,
            BaseShaderRegister: reg,
            ..Default::default()
        };
        let table = |r: &D3D12_DESCRIPTOR_RANGE1, vis| {
            let mut p = D3D12_ROOT_PARAMETER1 {
                ParameterType: D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE,
                ShaderVisibility: vis,
                ..Default::default()
            };
            p.__bindgen_anon_1.DescriptorTable =
                D3D12_ROOT_DESCRIPTOR_TABLE1 { NumDescriptorRanges: 1, pDescriptorRanges: r };
            p
        };
        let uav_range = range(D3D12_DESCRIPTOR_RANGE_TYPE_UAV, 0);
        let cparams = [table(&uav_range, D3D12_SHADER_VISIBILITY_ALL)];
        let mut rd =
            D3D12_VERSIONED_ROOT_SIGNATURE_DESC { Version: D3D_ROOT_SIGNATURE_VERSION_1_1, ..Default::default() };
        rd.__bindgen_anon_1.Desc_1_1 =
            D3D12_ROOT_SIGNATURE_DESC1 { NumParameters: 1, pParameters: cparams.as_ptr(), ..Default::default() };
        let crs = serialize(&rd, "D3D12SerializeVersionedRootSignature (compute)")?;

        let srv_range = range(D3D12_DESCRIPTOR_RANGE_TYPE_SRV, 0);
        let mut gparams = [D3D12_ROOT_PARAMETER1::default(); 4];
        gparams[0].ParameterType = D3D12_ROOT_PARAMETER_TYPE_CBV;
        gparams[0].__bindgen_anon_1.Descriptor = D3D12_ROOT_DESCRIPTOR1 { ShaderRegister: 0, ..Default::default() };
        gparams[0].ShaderVisibility = D3D12_SHADER_VISIBILITY_VERTEX;
        for (i, (reg, vis)) in
            [(1, D3D12_SHADER_VISIBILITY_VERTEX), (0, D3D12_SHADER_VISIBILITY_PIXEL)].into_iter().enumerate()
        {
            gparams[1 + i].ParameterType = D3D12_ROOT_PARAMETER_TYPE_32BIT_CONSTANTS;
            gparams[1 + i].__bindgen_anon_1.Constants =
                D3D12_ROOT_CONSTANTS { ShaderRegister: reg, RegisterSpace: 0, Num32BitValues: 4 };
            gparams[1 + i].ShaderVisibility = vis;
        }
        gparams[3] = table(&srv_range, D3D12_SHADER_VISIBILITY_PIXEL);
        let sampler = D3D12_STATIC_SAMPLER_DESC {
            Filter: D3D12_FILTER_MIN_MAG_MIP_POINT,
            AddressU: D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
            AddressV: D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
            AddressW: D3D12_TEXTURE_ADDRESS_MODE_CLAMP,
            MaxLOD: f32::MAX, // D3D12_FLOAT32_MAX
            ShaderVisibility: D3D12_SHADER_VISIBILITY_PIXEL,
            ..Default::default()
        };
        rd.__bindgen_anon_1.Desc_1_1 = D3D12_ROOT_SIGNATURE_DESC1 {
            NumParameters: 4,
            pParameters: gparams.as_ptr(),
            NumStaticSamplers: 1,
            pStaticSamplers: &sampler,
            Flags: D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT,
        };
        let grs = serialize(&rd, "D3D12SerializeVersionedRootSignature (graphics)")?;

        // Pipelines, named for the trace.
        let cdesc =
            D3D12_COMPUTE_PIPELINE_STATE_DESC { pRootSignature: crs.p(), CS: bytecode(IMAGE_CS), ..Default::default() };
        let cpso = make("CreateComputePipelineState", |p| {
            call!(d, CreateComputePipelineState, &cdesc, &IID_ID3D12PipelineState, p)
        })?;
        let name = wide("generate texture (image.cs)");
        check(call!(cpso.p::<ID3D12PipelineState>(), SetName, name.as_ptr()), "SetName")?;

        let layout = [
            D3D12_INPUT_ELEMENT_DESC {
                SemanticName: c"TEXCOORD".as_ptr(),
                SemanticIndex: 0,
                Format: DXGI_FORMAT_R32G32B32A32_FLOAT,
                InputSlot: 0,
                AlignedByteOffset: 0,
                InputSlotClass: D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA,
                InstanceDataStepRate: 0,
            },
            D3D12_INPUT_ELEMENT_DESC {
                SemanticName: c"TEXCOORD".as_ptr(),
                SemanticIndex: 1,
                Format: DXGI_FORMAT_R32G32_FLOAT,
                InputSlot: 0,
                AlignedByteOffset: 16,
                InputSlotClass: D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA,
                InstanceDataStepRate: 0,
            },
        ];
        let mut gdesc = D3D12_GRAPHICS_PIPELINE_STATE_DESC {
            pRootSignature: grs.p(),
            VS: bytecode(TEXTURED_VS),
            PS: bytecode(TEXTURED_PS),
            SampleMask: u32::MAX,
            InputLayout: D3D12_INPUT_LAYOUT_DESC { pInputElementDescs: layout.as_ptr(), NumElements: 2 },
            PrimitiveTopologyType: D3D12_PRIMITIVE_TOPOLOGY_TYPE_TRIANGLE,
            NumRenderTargets: 1,
            DSVFormat: DXGI_FORMAT_D32_FLOAT,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            ..Default::default()
        };
        gdesc.RTVFormats[0] = DXGI_FORMAT_R8G8B8A8_UNORM;
        gdesc.RasterizerState.FillMode = D3D12_FILL_MODE_SOLID;
        gdesc.RasterizerState.CullMode = D3D12_CULL_MODE_NONE;
        gdesc.RasterizerState.DepthClipEnable = 1;
        gdesc.DepthStencilState.DepthEnable = 1;
        gdesc.DepthStencilState.DepthWriteMask = D3D12_DEPTH_WRITE_MASK_ALL;
        gdesc.DepthStencilState.DepthFunc = D3D12_COMPARISON_FUNC_LESS;
        // Colour: source alpha over; the target's alpha is kept.
        gdesc.BlendState.RenderTarget[0] = D3D12_RENDER_TARGET_BLEND_DESC {
            BlendEnable: 1,
            LogicOpEnable: 0,
            SrcBlend: D3D12_BLEND_SRC_ALPHA,
            DestBlend: D3D12_BLEND_INV_SRC_ALPHA,
            BlendOp: D3D12_BLEND_OP_ADD,
            SrcBlendAlpha: D3D12_BLEND_ZERO,
            DestBlendAlpha: D3D12_BLEND_ONE,
            BlendOpAlpha: D3D12_BLEND_OP_ADD,
            LogicOp: D3D12_LOGIC_OP_NOOP,
            RenderTargetWriteMask: D3D12_COLOR_WRITE_ENABLE_ALL.0 as u8,
        };
        let gpso = make("CreateGraphicsPipelineState", |p| {
            call!(d, CreateGraphicsPipelineState, &gdesc, &IID_ID3D12PipelineState, p)
        })?;
        let name = wide("textured quads (textured.vs/ps)");
        check(call!(gpso.p::<ID3D12PipelineState>(), SetName, name.as_ptr()), "SetName")?;

        // Resources.
        let committed = |ty: D3D12_HEAP_TYPE, desc: &D3D12_RESOURCE_DESC, state: D3D12_RESOURCE_STATES, what: &str| {
            let hp = D3D12_HEAP_PROPERTIES { Type: ty, ..Default::default() };
            make(what, |p| {
                call!(
                    d,
                    CreateCommittedResource,
                    &hp,
                    D3D12_HEAP_FLAG_NONE,
                    desc,
                    state,
                    null(),
                    &IID_ID3D12Resource,
                    p
                )
            })
        };
        let tex = committed(
            D3D12_HEAP_TYPE_DEFAULT,
            &texture_desc(TEX, TEX, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS),
            D3D12_RESOURCE_STATE_UNORDERED_ACCESS,
            "CreateCommittedResource (texture)",
        )?;
        let rt = committed(
            D3D12_HEAP_TYPE_DEFAULT,
            &texture_desc(W, H, DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET),
            D3D12_RESOURCE_STATE_RENDER_TARGET,
            "CreateCommittedResource (render target)",
        )?;
        let ds = committed(
            D3D12_HEAP_TYPE_DEFAULT,
            &texture_desc(W, H, DXGI_FORMAT_D32_FLOAT, D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL),
            D3D12_RESOURCE_STATE_DEPTH_WRITE,
            "CreateCommittedResource (depth)",
        )?;
        let upload = |bytes: &[u8], what: &str| -> Result<Com, String> {
            let r = committed(
                D3D12_HEAP_TYPE_UPLOAD,
                &buffer_desc(bytes.len().max(256) as u64),
                D3D12_RESOURCE_STATE_GENERIC_READ,
                what,
            )?;
            let mut p: *mut c_void = null_mut();
            check(call!(r.p::<ID3D12Resource>(), Map, 0, null(), &mut p), "Map")?;
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), p.cast::<u8>(), bytes.len());
            call!(r.p::<ID3D12Resource>(), Unmap, 0, null());
            Ok(r)
        };
        let floats = |f: &[f32]| f.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        // The identity matrix; Mesa's shaders take GL clip space, which the viewport maps.
        let identity: Vec<f32> = (0..16).map(|i| if i % 5 == 0 { 1.0 } else { 0.0 }).collect();
        let cb = upload(&floats(&identity), "CreateCommittedResource (constants)")?;
        let mut verts = Vec::new();
        for quad in &QUADS {
            let x = |px: u32| px as f32 / (W as f32 / 2.0) - 1.0;
            let y = |py: u32| 1.0 - py as f32 / (H as f32 / 2.0);
            // GL clip z that the pipeline's depth range maps to `depth`: z_d = (z + 1) / 2.
            let z = quad.depth * 2.0 - 1.0;
            for (px, py, u, v) in [
                (quad.x0, quad.y0, 0.0, 0.0),
                (quad.x1, quad.y0, 1.0, 0.0),
                (quad.x0, quad.y1, 0.0, quad.v1),
                (quad.x1, quad.y1, 1.0, quad.v1),
            ] {
                verts.extend_from_slice(&[x(px), y(py), z, 1.0, u, v]);
            }
        }
        let vb = upload(&floats(&verts), "CreateCommittedResource (vertices)")?;
        let indices: Vec<u8> = [0u16, 1, 2, 2, 1, 3].iter().flat_map(|i| i.to_le_bytes()).collect();
        let ib = upload(&indices, "CreateCommittedResource (indices)")?;
        let row_pitch = W * 4; // 1024: already a multiple of D3D12_TEXTURE_DATA_PITCH_ALIGNMENT
        let readback = committed(
            D3D12_HEAP_TYPE_READBACK,
            &buffer_desc(u64::from(row_pitch * H)),
            D3D12_RESOURCE_STATE_COPY_DEST,
            "CreateCommittedResource (readback)",
        )?;
        let qresults = committed(
            D3D12_HEAP_TYPE_READBACK,
            &buffer_desc(256),
            D3D12_RESOURCE_STATE_COPY_DEST,
            "CreateCommittedResource (query results)",
        )?;
        let qh = |ty, count| D3D12_QUERY_HEAP_DESC { Type: ty, Count: count, NodeMask: 0 };
        let (tsd, psd) = (qh(D3D12_QUERY_HEAP_TYPE_TIMESTAMP, 4), qh(D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS, 1));
        let timestamps =
            make("CreateQueryHeap (timestamps)", |p| call!(d, CreateQueryHeap, &tsd, &IID_ID3D12QueryHeap, p))?;
        let stats = make("CreateQueryHeap (statistics)", |p| call!(d, CreateQueryHeap, &psd, &IID_ID3D12QueryHeap, p))?;

        // Views.
        let heap = |ty, n, flags| D3D12_DESCRIPTOR_HEAP_DESC { Type: ty, NumDescriptors: n, Flags: flags, NodeMask: 0 };
        let (hv, hr, hd) = (
            heap(D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV, 2, D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE),
            heap(D3D12_DESCRIPTOR_HEAP_TYPE_RTV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE),
            heap(D3D12_DESCRIPTOR_HEAP_TYPE_DSV, 1, D3D12_DESCRIPTOR_HEAP_FLAG_NONE),
        );
        let views =
            make("CreateDescriptorHeap", |p| call!(d, CreateDescriptorHeap, &hv, &IID_ID3D12DescriptorHeap, p))?;
        let rtvs = make("CreateDescriptorHeap", |p| call!(d, CreateDescriptorHeap, &hr, &IID_ID3D12DescriptorHeap, p))?;
        let dsvs = make("CreateDescriptorHeap", |p| call!(d, CreateDescriptorHeap, &hd, &IID_ID3D12DescriptorHeap, p))?;
        let vh: *mut ID3D12DescriptorHeap = views.p();
        let inc = u64::from(call!(d, GetDescriptorHandleIncrementSize, D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV));
        let cpu0 = call!(vh, GetCPUDescriptorHandleForHeapStart);
        let gpu0 = call!(vh, GetGPUDescriptorHandleForHeapStart);
        call!(d, CreateUnorderedAccessView, tex.p(), null_mut(), null(), cpu0);
        let cpu1 = D3D12_CPU_DESCRIPTOR_HANDLE { ptr: cpu0.ptr + inc as usize };
        let gpu1 = D3D12_GPU_DESCRIPTOR_HANDLE { ptr: gpu0.ptr + inc };
        call!(d, CreateShaderResourceView, tex.p(), null(), cpu1);
        let rtv = call!(rtvs.p::<ID3D12DescriptorHeap>(), GetCPUDescriptorHandleForHeapStart);
        call!(d, CreateRenderTargetView, rt.p(), null(), rtv);
        let dsv = call!(dsvs.p::<ID3D12DescriptorHeap>(), GetCPUDescriptorHandleForHeapStart);
        call!(d, CreateDepthStencilView, ds.p(), null(), dsv);

        // The frame's commands, inside PIX events.
        let qv: *mut ID3D12CommandQueue = q;
        let frame_name = c"rd3d12 frame";
        call!(qv, BeginEvent, 1, frame_name.as_ptr().cast(), frame_name.to_bytes().len() as u32);
        let blob = pix3blob("frame", 0xff00_80ff);
        call!(l, BeginEvent, 2, blob.as_ptr().cast(), (blob.len() * 8) as u32);
        let ts: *mut ID3D12QueryHeap = timestamps.p();
        call!(l, EndQuery, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0);

        let compute_name = c"compute: generate the texture";
        call!(l, BeginEvent, 1, compute_name.as_ptr().cast(), compute_name.to_bytes().len() as u32 + 1);
        let heaps = [vh];
        call!(l, SetDescriptorHeaps, 1, heaps.as_ptr());
        call!(l, SetComputeRootSignature, crs.p());
        call!(l, SetPipelineState, cpso.p());
        call!(l, SetComputeRootDescriptorTable, 0, gpu0);
        call!(l, Dispatch, TEX / 8, TEX / 8, 1);
        let b = transition(tex.p(), D3D12_RESOURCE_STATE_UNORDERED_ACCESS, D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE);
        call!(l, ResourceBarrier, 1, &b);
        call!(l, EndEvent);
        call!(l, EndQuery, ts, D3D12_QUERY_TYPE_TIMESTAMP, 1);

        // A wide-string event (metadata 0, WINPIX_EVENT_UNICODE_VERSION; wchar_t is 4 bytes).
        let draw_name = wide("draw: textured, depth-tested, blended quads");
        call!(l, BeginEvent, 0, draw_name.as_ptr().cast(), (draw_name.len() * size_of::<wchar_t>()) as u32);
        let clear: [f32; 4] = CLEAR.map(|c| f32::from(c) / 255.0);
        call!(l, ClearRenderTargetView, rtv, clear.as_ptr(), 0, null());
        call!(l, ClearDepthStencilView, dsv, D3D12_CLEAR_FLAG_DEPTH, 1.0, 0, 0, null());
        let sq: *mut ID3D12QueryHeap = stats.p();
        call!(l, BeginQuery, sq, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
        call!(l, OMSetRenderTargets, 1, &rtv, 0, &dsv);
        call!(l, SetGraphicsRootSignature, grs.p());
        call!(l, SetPipelineState, gpso.p());
        call!(l, SetGraphicsRootConstantBufferView, 0, call!(cb.p::<ID3D12Resource>(), GetGPUVirtualAddress));
        let state_vars = [1.0f32, 0.0, 0.0, 0.0];
        call!(l, SetGraphicsRoot32BitConstants, 1, 4, state_vars.as_ptr().cast(), 0);
        call!(l, SetGraphicsRootDescriptorTable, 3, gpu1);
        let vbv = D3D12_VERTEX_BUFFER_VIEW {
            BufferLocation: call!(vb.p::<ID3D12Resource>(), GetGPUVirtualAddress),
            SizeInBytes: (verts.len() * 4) as u32,
            StrideInBytes: 24,
        };
        call!(l, IASetVertexBuffers, 0, 1, &vbv);
        let ibv = D3D12_INDEX_BUFFER_VIEW {
            BufferLocation: call!(ib.p::<ID3D12Resource>(), GetGPUVirtualAddress),
            SizeInBytes: indices.len() as u32,
            Format: DXGI_FORMAT_R16_UINT,
        };
        call!(l, IASetIndexBuffer, &ibv);
        call!(l, IASetPrimitiveTopology, D3D_PRIMITIVE_TOPOLOGY_TRIANGLELIST);
        let vp = D3D12_VIEWPORT {
            TopLeftX: 0.0,
            TopLeftY: 0.0,
            Width: W as f32,
            Height: H as f32,
            MinDepth: 0.0,
            MaxDepth: 1.0,
        };
        call!(l, RSSetViewports, 1, &vp);
        let sc = D3D12_RECT { left: 0, top: 0, right: W as i32, bottom: H as i32 };
        call!(l, RSSetScissorRects, 1, &sc);
        for (k, quad) in QUADS.iter().enumerate() {
            call!(l, SetGraphicsRoot32BitConstants, 2, 4, quad.tint.as_ptr().cast(), 0);
            call!(l, DrawIndexedInstanced, 6, 1, 0, 4 * k as i32, 0);
        }
        call!(l, EndQuery, sq, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0);
        call!(l, EndEvent);
        call!(l, EndQuery, ts, D3D12_QUERY_TYPE_TIMESTAMP, 2);

        let copy_name = c"copy: the target to a readback buffer";
        call!(l, SetMarker, 1, copy_name.as_ptr().cast(), copy_name.to_bytes().len() as u32);
        let b = transition(rt.p(), D3D12_RESOURCE_STATE_RENDER_TARGET, D3D12_RESOURCE_STATE_COPY_SOURCE);
        call!(l, ResourceBarrier, 1, &b);
        let mut dst = D3D12_TEXTURE_COPY_LOCATION {
            pResource: readback.p(),
            Type: D3D12_TEXTURE_COPY_TYPE_PLACED_FOOTPRINT,
            ..Default::default()
        };
        dst.__bindgen_anon_1.PlacedFootprint = D3D12_PLACED_SUBRESOURCE_FOOTPRINT {
            Offset: 0,
            Footprint: D3D12_SUBRESOURCE_FOOTPRINT {
                Format: DXGI_FORMAT_R8G8B8A8_UNORM,
                Width: W,
                Height: H,
                Depth: 1,
                RowPitch: row_pitch,
            },
        };
        let mut src = D3D12_TEXTURE_COPY_LOCATION {
            pResource: rt.p(),
            Type: D3D12_TEXTURE_COPY_TYPE_SUBRESOURCE_INDEX,
            ..Default::default()
        };
        src.__bindgen_anon_1.SubresourceIndex = 0;
        call!(l, CopyTextureRegion, &dst, 0, 0, 0, &src, null());
        call!(l, EndQuery, ts, D3D12_QUERY_TYPE_TIMESTAMP, 3);
        call!(l, ResolveQueryData, ts, D3D12_QUERY_TYPE_TIMESTAMP, 0, 4, qresults.p(), 0);
        call!(l, ResolveQueryData, sq, D3D12_QUERY_TYPE_PIPELINE_STATISTICS, 0, 1, qresults.p(), 64);
        call!(l, EndEvent);
        check(call!(l, Close), "ID3D12GraphicsCommandList::Close")?;

        let lists = [l as *mut ID3D12CommandList];
        call!(q, ExecuteCommandLists, 1, lists.as_ptr());
        call!(q, EndEvent);
        let f: *mut ID3D12Fence = fence.p();
        check(call!(q, Signal, f, 1), "ID3D12CommandQueue::Signal")?;
        // A NULL event: SetEventOnCompletion returns once the fence has the value.
        check(call!(f, SetEventOnCompletion, 1, null_mut()), "SetEventOnCompletion")?;
        check(call!(d, GetDeviceRemovedReason), "the device was removed")?;

        let mut freq = 0u64;
        check(call!(q, GetTimestampFrequency, &mut freq), "GetTimestampFrequency")?;
        let read = |r: &Com, len: usize| -> Result<Vec<u8>, String> {
            let mut p: *mut c_void = null_mut();
            check(call!(r.p::<ID3D12Resource>(), Map, 0, null(), &mut p), "Map")?;
            let v = std::slice::from_raw_parts(p.cast::<u8>(), len).to_vec();
            call!(r.p::<ID3D12Resource>(), Unmap, 0, null());
            Ok(v)
        };
        let q = read(&qresults, 64 + size_of::<D3D12_QUERY_DATA_PIPELINE_STATISTICS>())?;
        let word = |i: usize| u64::from_le_bytes(q[8 * i..8 * i + 8].try_into().unwrap_or([0; 8]));
        let secs = |a: usize, b: usize| word(b).saturating_sub(word(a)) as f64 / freq.max(1) as f64;
        // PSInvocations is the 8th field of D3D12_QUERY_DATA_PIPELINE_STATISTICS.
        let pixels_shaded = word(8 + 7);
        let pixels = read(&readback, (row_pitch * H) as usize)?;
        Ok(Frame { pixels, passes: [secs(0, 1), secs(1, 2), secs(2, 3)], pixels_shaded })
    }
}

/// The texel (x, y) of the compute pass: (x / 255, y / 255, 0.5, 1) stored as UNORM8.
fn texel(x: u32, y: u32) -> [f32; 4] {
    [x as f32, y as f32, 128.0, 255.0]
}

/// The expected colour of pixel (x, y) and whether it was blended (then each channel may be 1
/// off: D3D converts float to UNORM by rounding to nearest, and a blend of two UNORM8 values
/// can land on a half).
pub fn expected(x: u32, y: u32) -> ([u8; 4], bool) {
    let inside = |q: &Quad| x >= q.x0 && x < q.x1 && y >= q.y0 && y < q.y1;
    // The quad's texel at the pixel center: u = (i + 0.5) / 128 across 128 pixels, so the
    // texel is i / 2 (point sampling, never on a texel edge); v alike.
    let shade = |q: &Quad| {
        let (i, j) = (x - q.x0, y - q.y0);
        let t = texel(i * TEX / (q.x1 - q.x0), (j as f32 * TEX as f32 * q.v1 / (q.y1 - q.y0) as f32) as u32);
        let mut c = [0f32; 4];
        for k in 0..4 {
            c[k] = t[k] / 255.0 * q.tint[k];
        }
        c
    };
    let unorm = |v: f32| (v.clamp(0.0, 1.0) * 255.0 + 0.5).floor() as u8;
    // Opaque A in front of B (depth LESS: B fails where A is), both over the clear.
    let base: [f32; 4] = if inside(&QUADS[0]) {
        shade(&QUADS[0])
    } else if inside(&QUADS[1]) {
        shade(&QUADS[1])
    } else {
        CLEAR.map(|c| f32::from(c) / 255.0)
    };
    let base = base.map(unorm).map(|c| f32::from(c) / 255.0);
    if !inside(&QUADS[2]) {
        return (base.map(unorm), false);
    }
    // C in front of everything: source alpha over the target, the target's alpha kept.
    let s = shade(&QUADS[2]);
    let a = s[3];
    let c = [s[0] * a + base[0] * (1.0 - a), s[1] * a + base[1] * (1.0 - a), s[2] * a + base[2] * (1.0 - a), base[3]];
    (c.map(unorm), true)
}

/// Compares the frame with [`expected`]: the first wrong pixel, if any.
pub fn verify(pixels: &[u8]) -> Result<(), String> {
    for y in 0..H {
        for x in 0..W {
            let o = ((y * W + x) * 4) as usize;
            let got = &pixels[o..o + 4];
            let (want, blended) = expected(x, y);
            let tol = if blended { 1 } else { 0 };
            if got.iter().zip(want).any(|(&g, w)| g.abs_diff(w) > tol) {
                return Err(format!(
                    "pixel ({x}, {y}) is {got:?}, expected {want:?}{}",
                    if blended { " ± 1" } else { "" }
                ));
            }
        }
    }
    Ok(())
}

/// Writes RGBA8 pixels as a PNG.
pub fn write_png(path: &std::path::Path, pixels: &[u8]) -> Result<(), String> {
    let file = std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut enc = png::Encoder::new(std::io::BufWriter::new(file), W, H);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut w = enc.write_header().map_err(|e| format!("{}: {e}", path.display()))?;
    w.write_image_data(pixels).map_err(|e| format!("{}: {e}", path.display()))?;
    w.finish().map_err(|e| format!("{}: {e}", path.display()))
}

const USAGE: &str = "usage: rd3d12 frame [--out FILE]\n\
  renders one frame of the built-in scene (a compute pass generating a texture, then textured,\n\
  depth-tested, blended quads) through the D3D12 API, writes it as a PNG (default\n\
  rd3d12-frame.png), checks it against the expected image and prints each pass's time";

/// `rd3d12 frame [--out FILE]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut out = std::path::PathBuf::from("rd3d12-frame.png");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            "--out" => out = it.next().ok_or("--out needs a file name")?.into(),
            other => return Err(format!("frame: unknown argument {other:?} (rd3d12 frame --help)")),
        }
    }
    let start = std::time::Instant::now();
    let f = render()?;
    let wall = start.elapsed().as_secs_f64();
    write_png(&out, &f.pixels)?;
    verify(&f.pixels)
        .map_err(|e| format!("the frame differs from the expected image: {e} (written to {})", out.display()))?;
    let ms = |s: f64| s * 1e3;
    let mpix = |n: f64, s: f64| if s > 0.0 { n / s / 1e6 } else { 0.0 };
    let gpu: f64 = f.passes.iter().sum();
    println!("frame:              {W}x{H}, written to {}, equal to the expected image", out.display());
    println!(
        "  compute pass:     {:8.3} ms  {}x{} texels, {:.1} Mtexels/s",
        ms(f.passes[0]),
        TEX,
        TEX,
        mpix(f64::from(TEX * TEX), f.passes[0])
    );
    println!(
        "  draw pass:        {:8.3} ms  3 quads, {} pixels shaded, {:.1} Mpixels/s",
        ms(f.passes[1]),
        f.pixels_shaded,
        mpix(f.pixels_shaded as f64, f.passes[1])
    );
    println!("  copy:             {:8.3} ms  {} bytes", ms(f.passes[2]), W * H * 4);
    println!(
        "  whole frame:      {:8.3} ms on the queue ({:.1} Mpixels/s of target), {:.1} ms with setup",
        ms(gpu),
        mpix(f64::from(W * H), gpu),
        ms(wall)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expected_image_by_hand() {
        // Outside every quad: the clear colour.
        assert_eq!(expected(0, 0), (CLEAR, false));
        assert_eq!(expected(255, 255), (CLEAR, false));
        // A's first pixel samples texel (0, 0); pixel (33, 35) texel (0, 1); opaque, tint 1.
        assert_eq!(expected(32, 32), ([0, 0, 128, 255], false));
        assert_eq!(expected(33, 35), ([0, 1, 128, 255], false));
        assert_eq!(expected(159, 100), ([63, 34, 128, 255], false));
        // A in front of B where they overlap (depth 0.5 < 0.7).
        assert_eq!(expected(100, 100), ([34, 34, 128, 255], false));
        // B alone: blue halved (128 * 0.5 = 64).
        assert_eq!(expected(200, 120), ([52, 12, 64, 255], false));
        // C over the clear at (72, 192): texel (4, 28) at alpha 0.5: (4+32)/2, (28+32)/2,
        // (128+64)/2.
        let (c, blended) = expected(72, 192);
        assert!(blended);
        assert_eq!(c, [18, 30, 96, 255]);
        // C over A at (64, 136): texel (0, 0) half over A's texel (16, 52).
        assert_eq!(expected(64, 136).0, [8, 26, 128, 255]);
    }

    #[test]
    fn the_pix3blob_is_what_winpixeventruntime_writes() {
        let w = pix3blob("frame", 7);
        assert_eq!(w[0], 0x800); // PIXEvent_BeginEvent_NoArgs << 10, timestamp 0
        assert_eq!(w[1], 7);
        assert_eq!(w[2], 0x0440_0000_0000_0000); // 8-byte chunks, ANSI
        assert_eq!(w[3], u64::from_le_bytes(*b"frame\0\0\0"));
        assert_eq!(w.len(), 5);
    }
}
