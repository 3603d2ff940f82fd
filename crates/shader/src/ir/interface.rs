//! The shader interface: what a program exchanges with the pipeline (signatures, resources,
//! stage state), with one typed encoding of each of DXIL's integer codes: resource classes
//! and kinds here; component types, semantic kinds and interpolation modes with the one
//! [`SignatureElement`] in `rd3d12_core::shader` (re-exported here: core's pipeline rules read
//! the same type, and core may not depend on this crate). Today it wraps the front end's
//! [`DxMetadata`].

use crate::dxil::metadata::DxMetadata;
pub use rd3d12_core::shader::{ComponentType, Interpolation, SemanticKind, SignatureElement, TessDomain};

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

    /// The entry point's input signature.
    pub fn inputs(&self) -> &'a [SignatureElement] {
        self.dx.entry_points.first().map_or(&[], |e| &e.inputs)
    }

    /// The entry point's output signature.
    pub fn outputs(&self) -> &'a [SignatureElement] {
        self.dx.entry_points.first().map_or(&[], |e| &e.outputs)
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
        assert_eq!((outs[0].semantic, outs[0].component), (SemanticKind::Target, ComponentType::F32));
        let kinds = i.resource_kinds();
        assert!(kinds.contains(&(ResourceClass::Srv, 0, Some(ResourceKind::Texture2D))), "{kinds:?}");
    }
}
