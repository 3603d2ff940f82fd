//! ID3D12RootSignature, ID3D12RootSignatureDeserializer and
//! ID3D12VersionedRootSignatureDeserializer, and the serializer entry points behind
//! D3D12SerializeRootSignature / D3D12SerializeVersionedRootSignature.
//!
//! The rules and the blob format live in [`rd3d12_core::root_signature`]; this file moves descs
//! between the C structs and the core model. Descs handed to the caller are built in memory the
//! deserializer owns, so the pointers stay valid for the deserializer's lifetime.
//!
//! Root signature 1.2 is implemented end to end, but the C entry points accept versions up to
//! [`features::MAX_ROOT_SIGNATURE`] only: DirectX-Headers 1.606, whose ABI this runtime
//! implements, define neither D3D_ROOT_SIGNATURE_VERSION_1_2 nor D3D12_ROOT_SIGNATURE_DESC2, so
//! a 606 runtime treats 1.2 as an unknown version. Raising that constant enables 1.2.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12rootsignature>

use crate::blob::Blob;
use crate::com::{downcast, hand_out, Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use crate::features;
use rd3d12_core::root_signature::{
    parameter_type, DescriptorRange, DeviceLimits, ParameterKind, RootConstants, RootDescriptor, RootParameter,
    RootSignatureDesc, RootSignatureError, RootSlot, StaticSampler, Version,
};
use rd3d12_sys::*;
use std::ffi::c_void;
use std::sync::OnceLock;

// ---- the 1.2 structs (DirectX-Headers after 1.606) --------------------------------------------

/// D3D12_STATIC_SAMPLER_DESC1: D3D12_STATIC_SAMPLER_DESC plus D3D12_SAMPLER_FLAGS.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_snake_case, non_camel_case_types)]
pub struct D3D12_STATIC_SAMPLER_DESC1 {
    pub Filter: D3D12_FILTER,
    pub AddressU: D3D12_TEXTURE_ADDRESS_MODE,
    pub AddressV: D3D12_TEXTURE_ADDRESS_MODE,
    pub AddressW: D3D12_TEXTURE_ADDRESS_MODE,
    pub MipLODBias: FLOAT,
    pub MaxAnisotropy: UINT,
    pub ComparisonFunc: D3D12_COMPARISON_FUNC,
    pub BorderColor: D3D12_STATIC_BORDER_COLOR,
    pub MinLOD: FLOAT,
    pub MaxLOD: FLOAT,
    pub ShaderRegister: UINT,
    pub RegisterSpace: UINT,
    pub ShaderVisibility: D3D12_SHADER_VISIBILITY,
    pub Flags: D3D12_SAMPLER_FLAGS,
}

/// D3D12_ROOT_SIGNATURE_DESC2: D3D12_ROOT_SIGNATURE_DESC1 with 1.2 static samplers.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
#[allow(non_snake_case, non_camel_case_types)]
pub struct D3D12_ROOT_SIGNATURE_DESC2 {
    pub NumParameters: UINT,
    pub pParameters: *const D3D12_ROOT_PARAMETER1,
    pub NumStaticSamplers: UINT,
    pub pStaticSamplers: *const D3D12_STATIC_SAMPLER_DESC1,
    pub Flags: D3D12_ROOT_SIGNATURE_FLAGS,
}

/// D3D12_VERSIONED_ROOT_SIGNATURE_DESC with the Desc_1_2 member of later headers. The union is
/// as large as before (DESC2 and DESC1 have the same size), so the two layouts agree.
#[repr(C)]
#[derive(Clone, Copy)]
#[allow(non_snake_case)]
pub struct VersionedDesc {
    pub Version: D3D_ROOT_SIGNATURE_VERSION,
    pub u: VersionedUnion,
}

#[repr(C)]
#[derive(Clone, Copy)]
#[allow(non_snake_case)]
pub union VersionedUnion {
    pub Desc_1_0: D3D12_ROOT_SIGNATURE_DESC,
    pub Desc_1_1: D3D12_ROOT_SIGNATURE_DESC1,
    pub Desc_1_2: D3D12_ROOT_SIGNATURE_DESC2,
}

const _: () = {
    assert!(size_of::<D3D12_STATIC_SAMPLER_DESC1>() == 56);
    assert!(size_of::<D3D12_ROOT_SIGNATURE_DESC2>() == size_of::<D3D12_ROOT_SIGNATURE_DESC1>());
    assert!(size_of::<VersionedDesc>() == size_of::<D3D12_VERSIONED_ROOT_SIGNATURE_DESC>());
    assert!(align_of::<VersionedDesc>() == align_of::<D3D12_VERSIONED_ROOT_SIGNATURE_DESC>());
    assert!(
        std::mem::offset_of!(VersionedDesc, u)
            == std::mem::offset_of!(D3D12_VERSIONED_ROOT_SIGNATURE_DESC, __bindgen_anon_1)
    );
};

/// The highest version the C entry points accept.
fn max_version() -> Version {
    Version::from_raw(features::MAX_ROOT_SIGNATURE.0).unwrap_or(Version::V1_0)
}

/// A core error as the Error the COM edge reports, with its HRESULT (E_FAIL for a container
/// without a root signature, E_INVALIDARG otherwise).
pub fn to_error(e: RootSignatureError) -> Error {
    let hr = e.hresult();
    Error { hr, ..Error::invalid_arg(D3D12_MESSAGE_ID(e.id.0), D3D12_MESSAGE_CATEGORY_STATE_CREATION, e.message) }
}

// ---- C structs → model ------------------------------------------------------------------------

/// The caller's array of `n` elements (`p` may be NULL only when `n` is 0).
///
/// # Safety
/// A non-null `p` must point at `n` readable elements.
unsafe fn array<'a, T>(
    p: *const T,
    n: u32,
    what: impl FnOnce() -> String,
) -> std::result::Result<&'a [T], RootSignatureError> {
    if n == 0 {
        return Ok(&[]);
    }
    if p.is_null() {
        return Err(RootSignatureError::invalid(format!("{} is NULL with a count of {n}", what())));
    }
    // SAFETY: non-null, and the caller guarantees `n` elements.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) })
}

/// The two C root parameter layouts (1.0 and 1.1/1.2).
trait CParameter {
    fn ty(&self) -> u32;
    fn visibility(&self) -> u32;
    /// # Safety
    /// Only for DESCRIPTOR_TABLE parameters, whose range pointer the caller made valid.
    unsafe fn ranges(&self, i: usize) -> std::result::Result<Vec<DescriptorRange>, RootSignatureError>;
    /// # Safety
    /// Only for 32BIT_CONSTANTS parameters.
    unsafe fn constants(&self) -> RootConstants;
    /// # Safety
    /// Only for CBV/SRV/UAV parameters.
    unsafe fn descriptor(&self) -> RootDescriptor;
}

/// Implements [`CParameter`] for a C parameter struct; `$range_flags` / `$descriptor_flags` read
/// the flags of a range / root descriptor (constant 0 in 1.0, which has none).
macro_rules! c_parameter {
    ($param:ty, |$r:ident| $range_flags:expr, |$d:ident| $descriptor_flags:expr) => {
        impl CParameter for $param {
            fn ty(&self) -> u32 {
                self.ParameterType.0
            }
            fn visibility(&self) -> u32 {
                self.ShaderVisibility.0
            }
            unsafe fn ranges(&self, i: usize) -> std::result::Result<Vec<DescriptorRange>, RootSignatureError> {
                // SAFETY: the parameter is a table, so the union holds DescriptorTable.
                let t = unsafe { self.__bindgen_anon_1.DescriptorTable };
                let what = || format!("root parameter [{i}] pDescriptorRanges");
                // SAFETY: forwarded from the caller.
                let ranges = unsafe { array(t.pDescriptorRanges, t.NumDescriptorRanges, what) }?;
                Ok(ranges
                    .iter()
                    .map(|$r| DescriptorRange {
                        range_type: $r.RangeType.0,
                        num_descriptors: $r.NumDescriptors,
                        base_shader_register: $r.BaseShaderRegister,
                        register_space: $r.RegisterSpace,
                        flags: $range_flags,
                        offset_in_descriptors_from_table_start: $r.OffsetInDescriptorsFromTableStart,
                    })
                    .collect())
            }
            unsafe fn constants(&self) -> RootConstants {
                // SAFETY: the parameter holds constants.
                let c = unsafe { self.__bindgen_anon_1.Constants };
                RootConstants {
                    shader_register: c.ShaderRegister,
                    register_space: c.RegisterSpace,
                    num_32bit_values: c.Num32BitValues,
                }
            }
            unsafe fn descriptor(&self) -> RootDescriptor {
                // SAFETY: the parameter holds a root descriptor.
                let $d = unsafe { self.__bindgen_anon_1.Descriptor };
                RootDescriptor {
                    shader_register: $d.ShaderRegister,
                    register_space: $d.RegisterSpace,
                    flags: $descriptor_flags,
                }
            }
        }
    };
}

c_parameter!(D3D12_ROOT_PARAMETER, |r| 0, |d| 0);
c_parameter!(D3D12_ROOT_PARAMETER1, |r| r.Flags.0, |d| d.Flags.0);

/// # Safety
/// Every pointer inside `params` must be valid for the counts beside it.
unsafe fn read_parameters<P: CParameter>(params: &[P]) -> std::result::Result<Vec<RootParameter>, RootSignatureError> {
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            // SAFETY: each union member is read only for its parameter type.
            let kind = unsafe {
                match p.ty() {
                    parameter_type::DESCRIPTOR_TABLE => ParameterKind::Table(p.ranges(i)?),
                    parameter_type::CONSTANTS => ParameterKind::Constants(p.constants()),
                    parameter_type::CBV => ParameterKind::Cbv(p.descriptor()),
                    parameter_type::SRV => ParameterKind::Srv(p.descriptor()),
                    parameter_type::UAV => ParameterKind::Uav(p.descriptor()),
                    other => {
                        return Err(RootSignatureError::invalid(format!(
                            "root parameter [{i}]: unknown ParameterType {other}"
                        )))
                    }
                }
            };
            Ok(RootParameter { kind, visibility: p.visibility() })
        })
        .collect()
}

macro_rules! sampler_to_model {
    ($s:expr, $flags:expr) => {
        StaticSampler {
            filter: $s.Filter.0,
            address_u: $s.AddressU.0,
            address_v: $s.AddressV.0,
            address_w: $s.AddressW.0,
            mip_lod_bias: $s.MipLODBias,
            max_anisotropy: $s.MaxAnisotropy,
            comparison_func: $s.ComparisonFunc.0,
            border_color: $s.BorderColor.0,
            min_lod: $s.MinLOD,
            max_lod: $s.MaxLOD,
            shader_register: $s.ShaderRegister,
            register_space: $s.RegisterSpace,
            visibility: $s.ShaderVisibility.0,
            flags: $flags,
        }
    };
}

/// The body of the `read_desc_*` functions: the arrays of `$d` read into a desc of `$version`;
/// `$sampler_flags` reads a static sampler's flags (0 before 1.2).
macro_rules! read_desc {
    ($d:expr, $version:expr, |$s:ident| $sampler_flags:expr) => {{
        let d = $d;
        // SAFETY: the caller of the enclosing function guarantees the pointers and counts.
        let params = unsafe { array(d.pParameters, d.NumParameters, || "pParameters".into()) }?;
        // SAFETY: as above.
        let samplers = unsafe { array(d.pStaticSamplers, d.NumStaticSamplers, || "pStaticSamplers".into()) }?;
        Ok(RootSignatureDesc {
            version: $version,
            // SAFETY: as above.
            parameters: unsafe { read_parameters(params) }?,
            static_samplers: samplers.iter().map(|$s| sampler_to_model!($s, $sampler_flags)).collect(),
            flags: d.Flags.0,
        })
    }};
}

/// Reads a D3D12_ROOT_SIGNATURE_DESC (1.0) into the model.
///
/// # Safety
/// Every pointer in `d` must be valid for the count beside it.
pub unsafe fn read_desc_1_0(
    d: &D3D12_ROOT_SIGNATURE_DESC,
) -> std::result::Result<RootSignatureDesc, RootSignatureError> {
    read_desc!(d, Version::V1_0, |s| 0)
}

/// Reads a D3D12_ROOT_SIGNATURE_DESC1 (1.1) into the model.
///
/// # Safety
/// Every pointer in `d` must be valid for the count beside it.
pub unsafe fn read_desc_1_1(
    d: &D3D12_ROOT_SIGNATURE_DESC1,
) -> std::result::Result<RootSignatureDesc, RootSignatureError> {
    read_desc!(d, Version::V1_1, |s| 0)
}

/// Reads a D3D12_ROOT_SIGNATURE_DESC2 (1.2) into the model.
///
/// # Safety
/// Every pointer in `d` must be valid for the count beside it.
pub unsafe fn read_desc_1_2(
    d: &D3D12_ROOT_SIGNATURE_DESC2,
) -> std::result::Result<RootSignatureDesc, RootSignatureError> {
    read_desc!(d, Version::V1_2, |s| s.Flags.0)
}

/// Reads a D3D12_VERSIONED_ROOT_SIGNATURE_DESC of a version up to `max`.
///
/// # Safety
/// `d` must point at a versioned desc whose member for `d.Version` is valid, with valid
/// pointers inside.
pub unsafe fn read_versioned(
    d: &D3D12_VERSIONED_ROOT_SIGNATURE_DESC,
    max: Version,
) -> std::result::Result<RootSignatureDesc, RootSignatureError> {
    let version = Version::from_raw(d.Version.0)
        .filter(|v| *v <= max)
        .ok_or_else(|| RootSignatureError::invalid(format!("unsupported root signature version {:#x}", d.Version.0)))?;
    let v = d as *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC as *const VersionedDesc;
    // SAFETY: the layouts agree (asserted above), and the member read is the one Version names.
    unsafe {
        match version {
            Version::V1_0 => read_desc_1_0(&(*v).u.Desc_1_0),
            Version::V1_1 => read_desc_1_1(&(*v).u.Desc_1_1),
            Version::V1_2 => read_desc_1_2(&(*v).u.Desc_1_2),
        }
    }
}

// ---- model → C structs --------------------------------------------------------------------------

/// A desc laid out as the C structs of its version, in memory this value owns. The heap arrays
/// never move, so the pointers inside `desc` stay valid as long as the `CDesc` lives.
pub struct CDesc {
    _ranges_1_0: Vec<Box<[D3D12_DESCRIPTOR_RANGE]>>,
    _ranges_1_1: Vec<Box<[D3D12_DESCRIPTOR_RANGE1]>>,
    _params_1_0: Box<[D3D12_ROOT_PARAMETER]>,
    _params_1_1: Box<[D3D12_ROOT_PARAMETER1]>,
    _samplers_1_0: Box<[D3D12_STATIC_SAMPLER_DESC]>,
    _samplers_1_2: Box<[D3D12_STATIC_SAMPLER_DESC1]>,
    desc: VersionedDesc,
}

// SAFETY: a CDesc is immutable after construction and its raw pointers only point into its own
// heap arrays, so sharing or sending it is as safe as sharing those arrays.
unsafe impl Send for CDesc {}
// SAFETY: as above.
unsafe impl Sync for CDesc {}

/// The array's pointer, NULL when empty (native deserializers return NULL pointers for empty
/// arrays).
fn ptr_or_null<T>(a: &[T]) -> *const T {
    if a.is_empty() {
        std::ptr::null()
    } else {
        a.as_ptr()
    }
}

impl CDesc {
    /// Lays `d` out as the C structs of `d.version`.
    pub fn new(d: &RootSignatureDesc) -> Box<CDesc> {
        let v1_0 = d.version == Version::V1_0;
        let mut ranges_1_0 = Vec::new();
        let mut ranges_1_1 = Vec::new();
        let mut params_1_0 = Vec::new();
        let mut params_1_1 = Vec::new();
        for p in &d.parameters {
            let ty = D3D12_ROOT_PARAMETER_TYPE(p.kind.raw_type());
            let vis = D3D12_SHADER_VISIBILITY(p.visibility);
            let mut u0 = D3D12_ROOT_PARAMETER__bindgen_ty_1::default();
            let mut u1 = D3D12_ROOT_PARAMETER1__bindgen_ty_1::default();
            match &p.kind {
                ParameterKind::Table(ranges) => {
                    if v1_0 {
                        let rs: Box<[D3D12_DESCRIPTOR_RANGE]> = ranges
                            .iter()
                            .map(|r| D3D12_DESCRIPTOR_RANGE {
                                RangeType: D3D12_DESCRIPTOR_RANGE_TYPE(r.range_type),
                                NumDescriptors: r.num_descriptors,
                                BaseShaderRegister: r.base_shader_register,
                                RegisterSpace: r.register_space,
                                OffsetInDescriptorsFromTableStart: r.offset_in_descriptors_from_table_start,
                            })
                            .collect();
                        u0.DescriptorTable = D3D12_ROOT_DESCRIPTOR_TABLE {
                            NumDescriptorRanges: rs.len() as u32,
                            pDescriptorRanges: ptr_or_null(&rs),
                        };
                        ranges_1_0.push(rs);
                    } else {
                        let rs: Box<[D3D12_DESCRIPTOR_RANGE1]> = ranges
                            .iter()
                            .map(|r| D3D12_DESCRIPTOR_RANGE1 {
                                RangeType: D3D12_DESCRIPTOR_RANGE_TYPE(r.range_type),
                                NumDescriptors: r.num_descriptors,
                                BaseShaderRegister: r.base_shader_register,
                                RegisterSpace: r.register_space,
                                Flags: D3D12_DESCRIPTOR_RANGE_FLAGS(r.flags),
                                OffsetInDescriptorsFromTableStart: r.offset_in_descriptors_from_table_start,
                            })
                            .collect();
                        u1.DescriptorTable = D3D12_ROOT_DESCRIPTOR_TABLE1 {
                            NumDescriptorRanges: rs.len() as u32,
                            pDescriptorRanges: ptr_or_null(&rs),
                        };
                        ranges_1_1.push(rs);
                    }
                }
                ParameterKind::Constants(c) => {
                    let c = D3D12_ROOT_CONSTANTS {
                        ShaderRegister: c.shader_register,
                        RegisterSpace: c.register_space,
                        Num32BitValues: c.num_32bit_values,
                    };
                    u0.Constants = c;
                    u1.Constants = c;
                }
                ParameterKind::Cbv(r) | ParameterKind::Srv(r) | ParameterKind::Uav(r) => {
                    u0.Descriptor =
                        D3D12_ROOT_DESCRIPTOR { ShaderRegister: r.shader_register, RegisterSpace: r.register_space };
                    u1.Descriptor = D3D12_ROOT_DESCRIPTOR1 {
                        ShaderRegister: r.shader_register,
                        RegisterSpace: r.register_space,
                        Flags: D3D12_ROOT_DESCRIPTOR_FLAGS(r.flags),
                    };
                }
            }
            if v1_0 {
                params_1_0.push(D3D12_ROOT_PARAMETER {
                    ParameterType: ty,
                    __bindgen_anon_1: u0,
                    ShaderVisibility: vis,
                });
            } else {
                params_1_1.push(D3D12_ROOT_PARAMETER1 {
                    ParameterType: ty,
                    __bindgen_anon_1: u1,
                    ShaderVisibility: vis,
                });
            }
        }
        let sampler = |s: &StaticSampler| D3D12_STATIC_SAMPLER_DESC1 {
            Filter: D3D12_FILTER(s.filter),
            AddressU: D3D12_TEXTURE_ADDRESS_MODE(s.address_u),
            AddressV: D3D12_TEXTURE_ADDRESS_MODE(s.address_v),
            AddressW: D3D12_TEXTURE_ADDRESS_MODE(s.address_w),
            MipLODBias: s.mip_lod_bias,
            MaxAnisotropy: s.max_anisotropy,
            ComparisonFunc: D3D12_COMPARISON_FUNC(s.comparison_func),
            BorderColor: D3D12_STATIC_BORDER_COLOR(s.border_color),
            MinLOD: s.min_lod,
            MaxLOD: s.max_lod,
            ShaderRegister: s.shader_register,
            RegisterSpace: s.register_space,
            ShaderVisibility: D3D12_SHADER_VISIBILITY(s.visibility),
            Flags: D3D12_SAMPLER_FLAGS(s.flags),
        };
        let samplers_1_2: Box<[D3D12_STATIC_SAMPLER_DESC1]> = d.static_samplers.iter().map(sampler).collect();
        let samplers_1_0: Box<[D3D12_STATIC_SAMPLER_DESC]> = samplers_1_2
            .iter()
            .map(|s| D3D12_STATIC_SAMPLER_DESC {
                Filter: s.Filter,
                AddressU: s.AddressU,
                AddressV: s.AddressV,
                AddressW: s.AddressW,
                MipLODBias: s.MipLODBias,
                MaxAnisotropy: s.MaxAnisotropy,
                ComparisonFunc: s.ComparisonFunc,
                BorderColor: s.BorderColor,
                MinLOD: s.MinLOD,
                MaxLOD: s.MaxLOD,
                ShaderRegister: s.ShaderRegister,
                RegisterSpace: s.RegisterSpace,
                ShaderVisibility: s.ShaderVisibility,
            })
            .collect();
        let params_1_0 = params_1_0.into_boxed_slice();
        let params_1_1 = params_1_1.into_boxed_slice();
        let flags = D3D12_ROOT_SIGNATURE_FLAGS(d.flags);
        let (num_params, num_samplers) = (d.parameters.len() as u32, d.static_samplers.len() as u32);
        // One member of the union, pointing at this desc's arrays.
        macro_rules! member {
            ($field:ident: $ty:ident($params:expr, $samplers:expr)) => {
                VersionedUnion {
                    $field: $ty {
                        NumParameters: num_params,
                        pParameters: ptr_or_null(&$params),
                        NumStaticSamplers: num_samplers,
                        pStaticSamplers: ptr_or_null(&$samplers),
                        Flags: flags,
                    },
                }
            };
        }
        let u = match d.version {
            Version::V1_0 => member!(Desc_1_0: D3D12_ROOT_SIGNATURE_DESC(params_1_0, samplers_1_0)),
            Version::V1_1 => member!(Desc_1_1: D3D12_ROOT_SIGNATURE_DESC1(params_1_1, samplers_1_0)),
            Version::V1_2 => member!(Desc_1_2: D3D12_ROOT_SIGNATURE_DESC2(params_1_1, samplers_1_2)),
        };
        Box::new(CDesc {
            _ranges_1_0: ranges_1_0,
            _ranges_1_1: ranges_1_1,
            _params_1_0: params_1_0,
            _params_1_1: params_1_1,
            _samplers_1_0: samplers_1_0,
            _samplers_1_2: samplers_1_2,
            desc: VersionedDesc { Version: D3D_ROOT_SIGNATURE_VERSION(d.version.raw()), u },
        })
    }

    /// The versioned desc (its `Version` says which member is set).
    pub fn versioned(&self) -> *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC {
        &self.desc as *const VersionedDesc as *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC
    }

    /// The 1.0 member (meaningful when the desc is 1.0).
    pub fn desc_1_0(&self) -> *const D3D12_ROOT_SIGNATURE_DESC {
        // Only the member's address is taken, which needs no unsafe.
        std::ptr::addr_of!(self.desc.u.Desc_1_0)
    }
}

// ---- ID3D12RootSignature ----------------------------------------------------------------------

/// A root signature: the parsed desc and the blob it was created from.
pub struct RootSignature {
    device: Ptr<Device>,
    /// The desc, shared with the draws and dispatches that execute with it.
    desc: std::sync::Arc<RootSignatureDesc>,
    blob: Box<[u8]>,
    /// The parameters' shapes, shared with the command lists it is set on.
    slots: std::sync::Arc<[RootSlot]>,
    /// The canonical encoding pipelines keep of their root signature
    /// (`RootSignatureInfo::blob`), to tell at a draw whether the bound one is the pipeline's.
    canonical: std::sync::Arc<[u8]>,
}

impl RootSignature {
    /// CreateRootSignature: parses `bytes` (a serialized root signature, or shader bytecode
    /// holding an RTS0 part), checks it against the rules and the device, and makes the object.
    pub fn create(device: Ptr<Device>, bytes: &[u8]) -> Result<Ptr<RootSignature>> {
        let desc = RootSignatureDesc::deserialize(bytes).map_err(to_error)?;
        desc.validate().map_err(to_error)?;
        desc.check_device(&device_limits(&device.inner)).map_err(to_error)?;
        let total = u32::from_le_bytes([bytes[24], bytes[25], bytes[26], bytes[27]]) as usize;
        let slots = desc.slots().into();
        let canonical = rd3d12_core::pipeline::RootSignatureInfo::new(&desc).blob.into();
        Ok(Ptr::new(RootSignature { device, desc: desc.into(), blob: bytes[..total].into(), slots, canonical }))
    }

    /// The desc, at the version it was serialized with.
    pub fn desc(&self) -> &RootSignatureDesc {
        &self.desc
    }

    /// The canonical encoding (as pipelines hold it), shared.
    pub fn canonical(&self) -> &std::sync::Arc<[u8]> {
        &self.canonical
    }

    /// The desc, shared.
    pub fn shared_desc(&self) -> &std::sync::Arc<RootSignatureDesc> {
        &self.desc
    }

    /// The parameters' shapes (for the binding checks of command lists).
    pub fn slots(&self) -> &std::sync::Arc<[RootSlot]> {
        &self.slots
    }

    /// The container the root signature was created from.
    pub fn blob(&self) -> &[u8] {
        &self.blob
    }

    /// The root signature behind an interface pointer the caller passed, if it is one of ours.
    ///
    /// # Safety
    /// `p` must be null or a live COM interface pointer.
    pub unsafe fn from_iface<'a>(p: *mut ID3D12RootSignature) -> Option<&'a Object<RootSignature>> {
        // SAFETY: forwarded.
        unsafe { downcast::<RootSignature, _>(p) }
    }
}

/// What the device supports, as CheckFeatureSupport reports it.
pub(crate) fn device_limits(device: &Device) -> DeviceLimits {
    let mut o = D3D12_FEATURE_DATA_D3D12_OPTIONS::default();
    let mut o5 = D3D12_FEATURE_DATA_D3D12_OPTIONS5::default();
    // SAFETY: both point at their feature's struct, with its size.
    unsafe {
        let _ = device.check_feature_support(
            D3D12_FEATURE_D3D12_OPTIONS,
            &mut o as *mut _ as *mut c_void,
            size_of_val(&o) as u32,
        );
        let _ = device.check_feature_support(
            D3D12_FEATURE_D3D12_OPTIONS5,
            &mut o5 as *mut _ as *mut c_void,
            size_of_val(&o5) as u32,
        );
    }
    DeviceLimits {
        max_version: max_version(),
        binding_tier: o.ResourceBindingTier.0,
        feature_level: features::MAX_FEATURE_LEVEL.0,
        raytracing: o5.RaytracingTier != D3D12_RAYTRACING_TIER_NOT_SUPPORTED,
    }
}

// SAFETY: ROOT_SIGNATURE_VTBL's slots all take an Object<RootSignature>.
unsafe impl Class for RootSignature {
    type Vtbl = ID3D12RootSignatureVtbl;
    const VTBL: &'static ID3D12RootSignatureVtbl = &ROOT_SIGNATURE_VTBL;
    /// Not ID3D12Pageable (native).
    const IIDS: &'static [GUID] = &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12RootSignature];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12RootSignature", D3D12_MESSAGE_ID_LIVE_ROOTSIGNATURE));
}

impl Child for RootSignature {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

static ROOT_SIGNATURE_VTBL: ID3D12RootSignatureVtbl =
    crate::child_vtbl!(ID3D12RootSignatureVtbl, RootSignature, ID3D12RootSignature {});

// ---- deserializers ----------------------------------------------------------------------------

/// ID3D12RootSignatureDeserializer: the blob's desc converted to 1.0.
pub struct RootSignatureDeserializer {
    c: Box<CDesc>,
}

/// ID3D12VersionedRootSignatureDeserializer: the blob's desc, and each version it was asked
/// for, built once and kept until the deserializer dies (GetRootSignatureDescAtVersion remarks).
pub struct VersionedRootSignatureDeserializer {
    desc: RootSignatureDesc,
    /// Indexed by version; `None` when the conversion failed.
    converted: [OnceLock<Option<Box<CDesc>>>; 3],
}

impl VersionedRootSignatureDeserializer {
    fn new(desc: RootSignatureDesc) -> Self {
        let d = VersionedRootSignatureDeserializer { converted: Default::default(), desc };
        let _ = d.at(d.desc.version);
        d
    }

    /// The desc at `v`, converting on first use.
    fn at(&self, v: Version) -> Option<&CDesc> {
        let slot = &self.converted[v.raw() as usize - 1];
        slot.get_or_init(|| self.desc.convert(v).ok().map(|d| CDesc::new(&d))).as_deref()
    }
}

/// Parses a deserializer's source blob: a container with an RTS0 part of a version the
/// runtime accepts. Only the structure is checked, not the rules (CreateRootSignature does).
///
/// # Safety
/// `data` must be null or point at `size` readable bytes.
unsafe fn parse_source(data: *const c_void, size: SIZE_T) -> Result<RootSignatureDesc> {
    if data.is_null() || size == 0 {
        return Err(Error::INVALID_ARG);
    }
    // SAFETY: the caller passes `size` readable bytes.
    let bytes = unsafe { std::slice::from_raw_parts(data as *const u8, size) };
    let desc = RootSignatureDesc::deserialize(bytes).map_err(to_error)?;
    if desc.version > max_version() {
        return Err(to_error(RootSignatureError::unsupported(format!(
            "root signature {} is not supported",
            desc.version
        ))));
    }
    Ok(desc)
}

/// D3D12CreateRootSignatureDeserializer. The object answers only
/// IID_ID3D12RootSignatureDeserializer (native: not even IUnknown).
///
/// # Safety
/// `data` null or `size` readable bytes; `riid` null or a GUID; `ppv` null or writable.
pub unsafe fn create_root_signature_deserializer(
    data: *const c_void,
    size: SIZE_T,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("D3D12CreateRootSignatureDeserializer", || {
        crate::device::null_out(ppv);
        // SAFETY: forwarded.
        let desc = unsafe { parse_source(data, size) }?;
        let d10 = desc.convert(Version::V1_0).map_err(to_error)?;
        let obj = Ptr::new(RootSignatureDeserializer { c: CDesc::new(&d10) });
        // SAFETY: forwarded.
        Ok(unsafe { hand_out(obj, riid, ppv) })
    })
}

/// D3D12CreateVersionedRootSignatureDeserializer. The object answers only
/// IID_ID3D12VersionedRootSignatureDeserializer.
///
/// # Safety
/// As [`create_root_signature_deserializer`].
pub unsafe fn create_versioned_root_signature_deserializer(
    data: *const c_void,
    size: SIZE_T,
    riid: *const IID,
    ppv: *mut *mut c_void,
) -> HRESULT {
    guard_hr("D3D12CreateVersionedRootSignatureDeserializer", || {
        crate::device::null_out(ppv);
        // SAFETY: forwarded.
        let desc = unsafe { parse_source(data, size) }?;
        let obj = Ptr::new(VersionedRootSignatureDeserializer::new(desc));
        // SAFETY: forwarded.
        Ok(unsafe { hand_out(obj, riid, ppv) })
    })
}

// SAFETY: DESERIALIZER_VTBL's slots all take an Object<RootSignatureDeserializer>.
unsafe impl Class for RootSignatureDeserializer {
    type Vtbl = ID3D12RootSignatureDeserializerVtbl;
    const VTBL: &'static ID3D12RootSignatureDeserializerVtbl = &DESERIALIZER_VTBL;
    const IIDS: &'static [GUID] = &[IID_ID3D12RootSignatureDeserializer];
}

// SAFETY: VERSIONED_DESERIALIZER_VTBL's slots all take an Object<VersionedRootSignatureDeserializer>.
unsafe impl Class for VersionedRootSignatureDeserializer {
    type Vtbl = ID3D12VersionedRootSignatureDeserializerVtbl;
    const VTBL: &'static ID3D12VersionedRootSignatureDeserializerVtbl = &VERSIONED_DESERIALIZER_VTBL;
    const IIDS: &'static [GUID] = &[IID_ID3D12VersionedRootSignatureDeserializer];
}

/// ID3D12RootSignatureDeserializer::GetRootSignatureDesc: the 1.0 desc, valid while the
/// deserializer lives.
unsafe extern "C" fn get_root_signature_desc(
    this: *mut ID3D12RootSignatureDeserializer,
) -> *const D3D12_ROOT_SIGNATURE_DESC {
    guard("ID3D12RootSignatureDeserializer::GetRootSignatureDesc", std::ptr::null(), || {
        // SAFETY: COM This pointer.
        unsafe { Object::<RootSignatureDeserializer>::from_this(this) }
            .map_or(std::ptr::null(), |o| o.inner.c.desc_1_0())
    })
}

/// ID3D12VersionedRootSignatureDeserializer::GetRootSignatureDescAtVersion: the desc converted
/// to `version` (the unconverted desc itself for its own version). An unknown or unsupported
/// version, or a conversion that cannot be expressed, is E_INVALIDARG with `*ppDesc` NULL.
unsafe extern "C" fn get_root_signature_desc_at_version(
    this: *mut ID3D12VersionedRootSignatureDeserializer,
    version: D3D_ROOT_SIGNATURE_VERSION,
    pp_desc: *mut *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC,
) -> HRESULT {
    guard_hr("ID3D12VersionedRootSignatureDeserializer::GetRootSignatureDescAtVersion", || {
        // SAFETY: COM This pointer.
        let obj = unsafe { Object::<VersionedRootSignatureDeserializer>::from_this(this) }.ok_or(Error::POINTER)?;
        // SAFETY: a non-null out-pointer from the caller is writable.
        let out = unsafe { pp_desc.as_mut() }.ok_or(Error::INVALID_ARG)?;
        *out = std::ptr::null();
        let v = Version::from_raw(version.0).filter(|v| *v <= max_version()).ok_or(Error::INVALID_ARG)?;
        let c = obj.inner.at(v).ok_or(Error::INVALID_ARG)?;
        *out = c.versioned();
        Ok(S_OK)
    })
}

/// ID3D12VersionedRootSignatureDeserializer::GetUnconvertedRootSignatureDesc: the desc at the
/// blob's own version.
unsafe extern "C" fn get_unconverted_root_signature_desc(
    this: *mut ID3D12VersionedRootSignatureDeserializer,
) -> *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC {
    guard("ID3D12VersionedRootSignatureDeserializer::GetUnconvertedRootSignatureDesc", std::ptr::null(), || {
        // SAFETY: COM This pointer.
        unsafe { Object::<VersionedRootSignatureDeserializer>::from_this(this) }
            .and_then(|o| o.inner.at(o.inner.desc.version))
            .map_or(std::ptr::null(), |c| c.versioned())
    })
}

static DESERIALIZER_VTBL: ID3D12RootSignatureDeserializerVtbl = ID3D12RootSignatureDeserializerVtbl {
    QueryInterface: Some(
        crate::com::thunks::query_interface::<RootSignatureDeserializer, ID3D12RootSignatureDeserializer>,
    ),
    AddRef: Some(crate::com::thunks::add_ref::<RootSignatureDeserializer, ID3D12RootSignatureDeserializer>),
    Release: Some(crate::com::thunks::release::<RootSignatureDeserializer, ID3D12RootSignatureDeserializer>),
    GetRootSignatureDesc: Some(get_root_signature_desc),
};

type VIface = ID3D12VersionedRootSignatureDeserializer;

static VERSIONED_DESERIALIZER_VTBL: ID3D12VersionedRootSignatureDeserializerVtbl =
    ID3D12VersionedRootSignatureDeserializerVtbl {
        QueryInterface: Some(crate::com::thunks::query_interface::<VersionedRootSignatureDeserializer, VIface>),
        AddRef: Some(crate::com::thunks::add_ref::<VersionedRootSignatureDeserializer, VIface>),
        Release: Some(crate::com::thunks::release::<VersionedRootSignatureDeserializer, VIface>),
        GetRootSignatureDescAtVersion: Some(get_root_signature_desc_at_version),
        GetUnconvertedRootSignatureDesc: Some(get_unconverted_root_signature_desc),
    };

// ---- serializers ------------------------------------------------------------------------------

/// Runs a serializer: on success `*ppBlob` gets the blob and `*ppErrorBlob` NULL; on failure
/// `*ppErrorBlob` gets the message as text and `*ppBlob` is left as it was (native: a bad
/// Version leaves it untouched).
///
/// # Safety
/// `blob` and `error` null or writable.
unsafe fn serialize_with(
    name: &str,
    blob: *mut *mut ID3DBlob,
    error: *mut *mut ID3DBlob,
    f: impl FnOnce() -> std::result::Result<RootSignatureDesc, RootSignatureError>,
) -> HRESULT {
    guard_hr(name, || {
        if !error.is_null() {
            // SAFETY: non-null out-pointer from the caller.
            unsafe { *error = std::ptr::null_mut() };
        }
        let result = if blob.is_null() {
            Err(RootSignatureError::invalid("ppBlob is NULL"))
        } else {
            f().and_then(|d| d.serialize())
        };
        match result {
            Ok(bytes) => {
                // SAFETY: checked non-null above.
                unsafe { *blob = Blob::into_raw(Blob::new(&bytes)) };
                Ok(S_OK)
            }
            Err(e) => {
                if !error.is_null() {
                    // SAFETY: non-null out-pointer from the caller.
                    unsafe { *error = Blob::into_raw(Blob::text(&format!("{name}: {}", e.message))) };
                }
                Err(Error::hr(e.hresult()))
            }
        }
    })
}

/// D3D12SerializeRootSignature: only D3D_ROOT_SIGNATURE_VERSION_1_0 (the desc is a 1.0 struct).
///
/// # Safety
/// `desc` null or a valid desc; `blob`, `error` null or writable.
pub unsafe fn serialize_root_signature(
    desc: *const D3D12_ROOT_SIGNATURE_DESC,
    version: D3D_ROOT_SIGNATURE_VERSION,
    blob: *mut *mut ID3DBlob,
    error: *mut *mut ID3DBlob,
) -> HRESULT {
    // SAFETY: forwarded.
    unsafe {
        serialize_with("D3D12SerializeRootSignature", blob, error, || {
            if version != D3D_ROOT_SIGNATURE_VERSION_1_0 {
                return Err(RootSignatureError::invalid(format!(
                    "Version {:#x} is not D3D_ROOT_SIGNATURE_VERSION_1_0 (use D3D12SerializeVersionedRootSignature)",
                    version.0
                )));
            }
            let d = desc.as_ref().ok_or_else(|| RootSignatureError::invalid("pRootSignature is NULL"))?;
            read_desc_1_0(d)
        })
    }
}

/// D3D12SerializeVersionedRootSignature: the desc at its own version.
///
/// # Safety
/// `desc` null or a valid versioned desc; `blob`, `error` null or writable.
pub unsafe fn serialize_versioned_root_signature(
    desc: *const D3D12_VERSIONED_ROOT_SIGNATURE_DESC,
    blob: *mut *mut ID3DBlob,
    error: *mut *mut ID3DBlob,
) -> HRESULT {
    // SAFETY: forwarded.
    unsafe {
        serialize_with("D3D12SerializeVersionedRootSignature", blob, error, || {
            let d = desc.as_ref().ok_or_else(|| RootSignatureError::invalid("pRootSignature is NULL"))?;
            read_versioned(d, max_version())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_core::root_signature::{range_type, sampler_flags};

    fn sample(version: Version) -> RootSignatureDesc {
        let f = |x: u32| if version == Version::V1_0 { 0 } else { x };
        RootSignatureDesc {
            version,
            parameters: vec![
                RootParameter {
                    kind: ParameterKind::Table(vec![DescriptorRange {
                        range_type: range_type::SRV,
                        num_descriptors: 3,
                        base_shader_register: 1,
                        register_space: 2,
                        flags: f(8),
                        offset_in_descriptors_from_table_start: 7,
                    }]),
                    visibility: 5,
                },
                RootParameter { kind: ParameterKind::Table(vec![]), visibility: 0 },
                RootParameter {
                    kind: ParameterKind::Constants(RootConstants {
                        shader_register: 4,
                        register_space: 0,
                        num_32bit_values: 6,
                    }),
                    visibility: 1,
                },
                RootParameter {
                    kind: ParameterKind::Uav(RootDescriptor { shader_register: 9, register_space: 1, flags: f(2) }),
                    visibility: 0,
                },
            ],
            static_samplers: vec![StaticSampler {
                flags: if version == Version::V1_2 { sampler_flags::UINT_BORDER_COLOR } else { 0 },
                ..StaticSampler::default()
            }],
            flags: 0x21,
        }
    }

    #[test]
    fn c_layout_round_trips_at_every_version() {
        for v in Version::ALL {
            let d = sample(v);
            let c = CDesc::new(&d);
            // SAFETY: the CDesc's pointers are valid while `c` lives.
            let back = unsafe { read_versioned(&*c.versioned(), Version::V1_2) }.unwrap();
            assert_eq!(back, d, "{v}");
            // SAFETY: as above.
            let vd = unsafe { &*c.versioned() };
            assert_eq!(vd.Version.0, v.raw());
        }
    }

    #[test]
    fn empty_arrays_are_null_pointers() {
        let c = CDesc::new(&RootSignatureDesc::new(Version::V1_0));
        // SAFETY: valid while `c` lives.
        let d = unsafe { &*c.desc_1_0() };
        assert!(d.pParameters.is_null() && d.pStaticSamplers.is_null());
        let c = CDesc::new(&sample(Version::V1_1));
        // SAFETY: as above.
        let d = unsafe { (*c.versioned()).__bindgen_anon_1.Desc_1_1 };
        // SAFETY: parameter 1 is an empty table.
        let t = unsafe { (*d.pParameters.add(1)).__bindgen_anon_1.DescriptorTable };
        assert_eq!(t.NumDescriptorRanges, 0);
        assert!(t.pDescriptorRanges.is_null());
    }

    #[test]
    fn null_arrays_with_counts_are_invalid() {
        let d = D3D12_ROOT_SIGNATURE_DESC { NumParameters: 1, ..Default::default() };
        // SAFETY: the only pointer is NULL, which is checked.
        let e = unsafe { read_desc_1_0(&d) }.unwrap_err();
        assert!(e.message.contains("pParameters is NULL"), "{}", e.message);
        let mut p = D3D12_ROOT_PARAMETER1 { ParameterType: D3D12_ROOT_PARAMETER_TYPE(7), ..Default::default() };
        let d = D3D12_ROOT_SIGNATURE_DESC1 { NumParameters: 1, pParameters: &p, ..Default::default() };
        // SAFETY: `p` is valid.
        let e = unsafe { read_desc_1_1(&d) }.unwrap_err();
        assert!(e.message.contains("unknown ParameterType 7"), "{}", e.message);
        p.ParameterType = D3D12_ROOT_PARAMETER_TYPE_DESCRIPTOR_TABLE;
        p.__bindgen_anon_1.DescriptorTable.NumDescriptorRanges = 2;
        let d = D3D12_ROOT_SIGNATURE_DESC1 { NumParameters: 1, pParameters: &p, ..Default::default() };
        // SAFETY: `p` is valid; its range pointer is NULL, which is checked.
        let e = unsafe { read_desc_1_1(&d) }.unwrap_err();
        assert!(e.message.contains("root parameter [0] pDescriptorRanges is NULL"), "{}", e.message);
    }

    #[test]
    fn versioned_deserializer_keeps_each_conversion() {
        let d = VersionedRootSignatureDeserializer::new(sample(Version::V1_2));
        let a = d.at(Version::V1_0).unwrap() as *const CDesc;
        let b = d.at(Version::V1_0).unwrap() as *const CDesc;
        assert_eq!(a, b, "a version is converted once");
        assert!(d.at(Version::V1_1).is_some());
        let mut nn = sample(Version::V1_2);
        nn.static_samplers[0].flags = sampler_flags::NON_NORMALIZED_COORDINATES;
        let d = VersionedRootSignatureDeserializer::new(nn);
        assert!(d.at(Version::V1_1).is_none(), "the sampler flag cannot be expressed in 1.1");
        assert!(d.at(Version::V1_2).is_some());
    }
}
