//! The shader interface: what a program exchanges with the pipeline (signatures, resources,
//! stage state), with one typed encoding of each of DXIL's integer codes: resource classes
//! and kinds, component types, semantic kinds, interpolation modes. Today it wraps the
//! front end's [`DxMetadata`]; the typed views are what the back ends read.

use crate::dxil::metadata::{DxMetadata, SignatureElement};

/// Resource classes, in the order `dx.resources` lists them (and `CreateHandle`'s operand
/// numbers them): the one encoding of a resource class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResourceClass {
    /// Shader resource views.
    Srv,
    /// Unordered access views.
    Uav,
    /// Constant buffers.
    Cbv,
    /// Samplers.
    Sampler,
}

impl ResourceClass {
    /// From DXIL's number (0 SRV, 1 UAV, 2 CBV, 3 sampler).
    pub fn from_dxil(v: u32) -> Option<ResourceClass> {
        [ResourceClass::Srv, ResourceClass::Uav, ResourceClass::Cbv, ResourceClass::Sampler].get(v as usize).copied()
    }

    /// DXIL's number.
    pub fn dxil(self) -> u8 {
        self as u8
    }
}

/// The shape of an SRV or UAV (DXIL's `DXIL::ResourceKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ResourceKind {
    Invalid,
    Texture1D,
    Texture2D,
    Texture2DMS,
    Texture3D,
    TextureCube,
    Texture1DArray,
    Texture2DArray,
    Texture2DMSArray,
    TextureCubeArray,
    TypedBuffer,
    RawBuffer,
    StructuredBuffer,
    CBuffer,
    Sampler,
    TBuffer,
    RTAccelerationStructure,
    FeedbackTexture2D,
    FeedbackTexture2DArray,
}

impl ResourceKind {
    /// From DXIL's number; `None` past the table.
    pub fn from_dxil(v: u32) -> Option<ResourceKind> {
        use ResourceKind::*;
        [
            Invalid,
            Texture1D,
            Texture2D,
            Texture2DMS,
            Texture3D,
            TextureCube,
            Texture1DArray,
            Texture2DArray,
            Texture2DMSArray,
            TextureCubeArray,
            TypedBuffer,
            RawBuffer,
            StructuredBuffer,
            CBuffer,
            Sampler,
            TBuffer,
            RTAccelerationStructure,
            FeedbackTexture2D,
            FeedbackTexture2DArray,
        ]
        .get(v as usize)
        .copied()
    }
}

/// A signature element's component type (DXIL's `DXIL::ComponentType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum ComponentType {
    Invalid,
    I1,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
    SNormF16,
    UNormF16,
    SNormF32,
    UNormF32,
    SNormF64,
    UNormF64,
}

impl ComponentType {
    /// From DXIL's number.
    pub fn from_dxil(v: u32) -> Option<ComponentType> {
        use ComponentType::*;
        [
            Invalid, I1, I16, U16, I32, U32, I64, U64, F16, F32, F64, SNormF16, UNormF16, SNormF32, UNormF32, SNormF64,
            UNormF64,
        ]
        .get(v as usize)
        .copied()
    }

    /// Whether values of this type are floating point.
    pub fn is_float(self) -> bool {
        use ComponentType::*;
        matches!(self, F16 | F32 | F64 | SNormF16 | UNormF16 | SNormF32 | UNormF32 | SNormF64 | UNormF64)
    }
}

/// How a pixel shader input is interpolated (DXIL's `DXIL::InterpolationMode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Interpolation {
    Undefined,
    Constant,
    Linear,
    LinearCentroid,
    LinearNoperspective,
    LinearNoperspectiveCentroid,
    LinearSample,
    LinearNoperspectiveSample,
}

impl Interpolation {
    /// From DXIL's number.
    pub fn from_dxil(v: u32) -> Option<Interpolation> {
        use Interpolation::*;
        [
            Undefined,
            Constant,
            Linear,
            LinearCentroid,
            LinearNoperspective,
            LinearNoperspectiveCentroid,
            LinearSample,
            LinearNoperspectiveSample,
        ]
        .get(v as usize)
        .copied()
    }
}

/// A signature element's semantic kind (DXIL's `DXIL::SemanticKind`): arbitrary or a system
/// value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum SemanticKind {
    Arbitrary,
    VertexId,
    InstanceId,
    Position,
    RenderTargetArrayIndex,
    ViewportArrayIndex,
    ClipDistance,
    CullDistance,
    OutputControlPointId,
    DomainLocation,
    PrimitiveId,
    GsInstanceId,
    SampleIndex,
    IsFrontFace,
    Coverage,
    InnerCoverage,
    Target,
    Depth,
    DepthLessEqual,
    DepthGreaterEqual,
    StencilRef,
    DispatchThreadId,
    GroupId,
    GroupIndex,
    GroupThreadId,
    TessFactor,
    InsideTessFactor,
    ViewId,
    Barycentrics,
    ShadingRate,
    CullPrimitive,
}

impl SemanticKind {
    /// From DXIL's number.
    pub fn from_dxil(v: u32) -> Option<SemanticKind> {
        use SemanticKind::*;
        [
            Arbitrary,
            VertexId,
            InstanceId,
            Position,
            RenderTargetArrayIndex,
            ViewportArrayIndex,
            ClipDistance,
            CullDistance,
            OutputControlPointId,
            DomainLocation,
            PrimitiveId,
            GsInstanceId,
            SampleIndex,
            IsFrontFace,
            Coverage,
            InnerCoverage,
            Target,
            Depth,
            DepthLessEqual,
            DepthGreaterEqual,
            StencilRef,
            DispatchThreadId,
            GroupId,
            GroupIndex,
            GroupThreadId,
            TessFactor,
            InsideTessFactor,
            ViewId,
            Barycentrics,
            ShadingRate,
            CullPrimitive,
        ]
        .get(v as usize)
        .copied()
    }
}

/// A signature element with its codes typed (`None` for a code past DXIL's tables).
#[derive(Debug, Clone, PartialEq)]
pub struct Element<'a> {
    /// The element as the front end read it.
    pub raw: &'a SignatureElement,
    /// Its component type.
    pub component: Option<ComponentType>,
    /// Its semantic kind.
    pub semantic: Option<SemanticKind>,
    /// Its interpolation mode.
    pub interpolation: Option<Interpolation>,
}

impl<'a> Element<'a> {
    /// The typed view of `raw`.
    pub fn of(raw: &'a SignatureElement) -> Element<'a> {
        Element {
            raw,
            component: ComponentType::from_dxil(raw.component_type),
            semantic: SemanticKind::from_dxil(raw.semantic_kind),
            interpolation: Interpolation::from_dxil(raw.interpolation),
        }
    }
}

/// A shader's interface: the metadata of its one entry point (signatures, resources, stage
/// state), read through typed views.
#[derive(Debug, Clone, Copy)]
pub struct Interface<'a> {
    /// The front end's metadata.
    pub dx: &'a DxMetadata,
}

impl<'a> Interface<'a> {
    /// The interface of a program's metadata.
    pub fn new(dx: &'a DxMetadata) -> Interface<'a> {
        Interface { dx }
    }

    /// The entry point's input signature, typed.
    pub fn inputs(&self) -> Vec<Element<'a>> {
        self.dx.entry_points.first().map_or_else(Vec::new, |e| e.inputs.iter().map(Element::of).collect())
    }

    /// The entry point's output signature, typed.
    pub fn outputs(&self) -> Vec<Element<'a>> {
        self.dx.entry_points.first().map_or_else(Vec::new, |e| e.outputs.iter().map(Element::of).collect())
    }

    /// The kind of each SRV and UAV range (`None` for CBVs and samplers, whose field 6 is a
    /// size or sampler mode).
    pub fn resource_kinds(&self) -> Vec<(ResourceClass, u32, Option<ResourceKind>)> {
        self.dx
            .resources
            .iter()
            .map(|r| {
                let kind = matches!(r.class, ResourceClass::Srv | ResourceClass::Uav)
                    .then(|| ResourceKind::from_dxil(r.shape_or_size))
                    .flatten();
                (r.class, r.id, kind)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dxil_codes_map_to_their_names() {
        assert_eq!(ResourceClass::from_dxil(2), Some(ResourceClass::Cbv));
        assert_eq!(ResourceClass::from_dxil(4), None);
        assert_eq!(ResourceKind::from_dxil(12), Some(ResourceKind::StructuredBuffer));
        assert_eq!(ComponentType::from_dxil(9), Some(ComponentType::F32));
        assert!(ComponentType::F32.is_float() && !ComponentType::U32.is_float());
        assert_eq!(SemanticKind::from_dxil(3), Some(SemanticKind::Position));
        assert_eq!(SemanticKind::from_dxil(16), Some(SemanticKind::Target));
        assert_eq!(Interpolation::from_dxil(4), Some(Interpolation::LinearNoperspective));
    }

    #[test]
    fn the_interface_of_a_pixel_shader_types_its_signatures() {
        let p = crate::dxil::parse(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/dxil/textured.ps.dxil"
        )))
        .unwrap();
        let i = Interface::new(&p.dx);
        let outs = i.outputs();
        assert_eq!(outs.len(), 1);
        assert_eq!((outs[0].semantic, outs[0].component), (Some(SemanticKind::Target), Some(ComponentType::F32)));
        let kinds = i.resource_kinds();
        assert!(kinds.contains(&(ResourceClass::Srv, 0, Some(ResourceKind::Texture2D))), "{kinds:?}");
    }
}
