//! Signatures: what a shader stage exchanges with the stages around it, in one
//! [`SignatureElement`] type with typed codes, produced by both front ends — the container's
//! signature parts (`ISGN` / `OSGN` / `PCSG`, `OSG5`, `ISG1` / `OSG1` / `PSG1`, read and
//! written here) and DXIL's `dx.entryPoints` metadata (read by rd3d12-shader) — and read by the
//! pipeline rules, the shader crate and the software GPU.
//!
//! Each concept has one enum ([`SemanticKind`], [`ComponentType`], [`Interpolation`]) with
//! conversions from and to the numbers each encoding uses: DXIL's (`DXIL::SemanticKind`,
//! `DXIL::ComponentType`, `DXIL::InterpolationMode`, DXIL.rst "Metadata") and the container's
//! (`D3D_NAME`, `D3D_REGISTER_COMPONENT_TYPE` / DXC's `DxilProgramSigCompType`). A number
//! outside a table is refused (`None`), never mapped to a default.
//!
//! Pure data and bounds-checked parsing: no I/O, no shader execution.

use super::{read_u32, FourCC, ShaderError};

/// Expands to an enum whose variants are numbered by their position (DXIL's tables are dense
/// from 0), with `from_dxil` / `dxil` over those numbers.
macro_rules! dxil_table {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident),* $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
        pub enum $name {
            #[default]
            $($(#[$vm])* $v),*
        }

        impl $name {
            /// Every value, in DXIL's order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];

            /// From DXIL's number; `None` past the table.
            pub fn from_dxil(v: u32) -> Option<$name> {
                Self::ALL.get(v as usize).copied()
            }

            /// DXIL's number.
            pub fn dxil(self) -> u32 {
                self as u32
            }
        }
    };
}

dxil_table! {
    /// A signature element's semantic: arbitrary (a user name such as `TEXCOORD`) or a system
    /// value (DXIL's `DXIL::SemanticKind`; the container's `D3D_NAME` through
    /// [`SemanticKind::from_d3d_name`] / [`SemanticKind::d3d_name`]).
    SemanticKind {
        /// A user semantic (0; `D3D_NAME_UNDEFINED`).
        Arbitrary,
        /// SV_VertexID.
        VertexId,
        /// SV_InstanceID.
        InstanceId,
        /// SV_Position.
        Position,
        /// SV_RenderTargetArrayIndex.
        RenderTargetArrayIndex,
        /// SV_ViewportArrayIndex.
        ViewportArrayIndex,
        /// SV_ClipDistance.
        ClipDistance,
        /// SV_CullDistance.
        CullDistance,
        /// SV_OutputControlPointID.
        OutputControlPointId,
        /// SV_DomainLocation.
        DomainLocation,
        /// SV_PrimitiveID.
        PrimitiveId,
        /// SV_GSInstanceID.
        GsInstanceId,
        /// SV_SampleIndex.
        SampleIndex,
        /// SV_IsFrontFace.
        IsFrontFace,
        /// SV_Coverage.
        Coverage,
        /// SV_InnerCoverage.
        InnerCoverage,
        /// SV_Target.
        Target,
        /// SV_Depth.
        Depth,
        /// SV_DepthLessEqual.
        DepthLessEqual,
        /// SV_DepthGreaterEqual.
        DepthGreaterEqual,
        /// SV_StencilRef.
        StencilRef,
        /// SV_DispatchThreadID.
        DispatchThreadId,
        /// SV_GroupID.
        GroupId,
        /// SV_GroupIndex.
        GroupIndex,
        /// SV_GroupThreadID.
        GroupThreadId,
        /// SV_TessFactor.
        TessFactor,
        /// SV_InsideTessFactor.
        InsideTessFactor,
        /// SV_ViewID.
        ViewId,
        /// SV_Barycentrics.
        Barycentrics,
        /// SV_ShadingRate.
        ShadingRate,
        /// SV_CullPrimitive.
        CullPrimitive,
        /// SV_StartVertexLocation (shader model 6.8).
        StartVertexLocation,
        /// SV_StartInstanceLocation (shader model 6.8).
        StartInstanceLocation,
    }
}

dxil_table! {
    /// A signature element's component type (DXIL's `DXIL::ComponentType`; the container's
    /// `D3D_REGISTER_COMPONENT_TYPE` through [`ComponentType::from_d3d`] / [`ComponentType::d3d`]).
    ComponentType {
        /// No type (0; `D3D_REGISTER_COMPONENT_UNKNOWN`).
        Invalid,
        /// bool.
        I1,
        /// int16_t.
        I16,
        /// uint16_t.
        U16,
        /// int.
        I32,
        /// uint.
        U32,
        /// int64_t.
        I64,
        /// uint64_t.
        U64,
        /// half.
        F16,
        /// float.
        F32,
        /// double.
        F64,
        /// snorm half.
        SNormF16,
        /// unorm half.
        UNormF16,
        /// snorm float.
        SNormF32,
        /// unorm float.
        UNormF32,
        /// snorm double.
        SNormF64,
        /// unorm double.
        UNormF64,
    }
}

dxil_table! {
    /// How a pixel shader input is interpolated (DXIL's `DXIL::InterpolationMode`; the
    /// container's signature parts do not record it).
    Interpolation {
        /// Not a pixel shader input, or not said (0).
        Undefined,
        /// `nointerpolation`: the leading vertex's value.
        Constant,
        /// Perspective-correct, at the pixel centre.
        Linear,
        /// Perspective-correct, at the centroid.
        LinearCentroid,
        /// Screen-linear (`noperspective`).
        LinearNoperspective,
        /// Screen-linear at the centroid.
        LinearNoperspectiveCentroid,
        /// Perspective-correct, per sample.
        LinearSample,
        /// Screen-linear, per sample.
        LinearNoperspectiveSample,
    }
}

/// A tessellator domain, which D3D_NAME's tess-factor names depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TessDomain {
    /// Isolines (DXIL's TessellatorDomain 1).
    Isoline,
    /// Triangles (2).
    Tri,
    /// Quads (3).
    Quad,
}

impl TessDomain {
    /// From DXIL's `TessellatorDomain` number (1 isoline, 2 tri, 3 quad).
    pub fn from_dxil(v: u32) -> Option<TessDomain> {
        [TessDomain::Isoline, TessDomain::Tri, TessDomain::Quad].get((v as usize).checked_sub(1)?).copied()
    }
}

/// `D3D_NAME` (d3dcommon.h): (number, kind, the tessellator domain a tess-factor name implies).
const D3D_NAMES: &[(u32, SemanticKind, Option<TessDomain>)] = {
    use SemanticKind::*;
    use TessDomain::*;
    &[
        (0, Arbitrary, None),
        (1, Position, None),
        (2, ClipDistance, None),
        (3, CullDistance, None),
        (4, RenderTargetArrayIndex, None),
        (5, ViewportArrayIndex, None),
        (6, VertexId, None),
        (7, PrimitiveId, None),
        (8, InstanceId, None),
        (9, IsFrontFace, None),
        (10, SampleIndex, None),
        (11, TessFactor, Some(Quad)),
        (12, InsideTessFactor, Some(Quad)),
        (13, TessFactor, Some(Tri)),
        (14, InsideTessFactor, Some(Tri)),
        // Isolines: row 1 of SV_TessFactor (the line detail) is 15, row 0 (the density) 16.
        (15, TessFactor, Some(Isoline)),
        (16, TessFactor, Some(Isoline)),
        (23, Barycentrics, None),
        (24, ShadingRate, None),
        (25, CullPrimitive, None),
        (64, Target, None),
        (65, Depth, None),
        (66, Coverage, None),
        (67, DepthGreaterEqual, None),
        (68, DepthLessEqual, None),
        (69, StencilRef, None),
        (70, InnerCoverage, None),
    ]
};

impl SemanticKind {
    /// From a container element's `D3D_NAME`; `None` for a number d3dcommon.h does not define.
    /// The six tess-factor names (11–16: quad, tri and isoline edge and inside factors) are
    /// [`SemanticKind::TessFactor`] or [`SemanticKind::InsideTessFactor`], as in DXIL.
    pub fn from_d3d_name(v: u32) -> Option<SemanticKind> {
        D3D_NAMES.iter().find(|(n, ..)| *n == v).map(|(_, k, _)| *k)
    }

    /// The `D3D_NAME` a container writes for row `row` of an element of this kind (DXC's
    /// rule): tess factors take the name of the patch's `domain` (isolines: density for row 0,
    /// detail for row 1). `None` for kinds that are never signature elements of a container
    /// (compute and control-point ids, SV_DomainLocation, SV_GSInstanceID, SV_ViewID, the 6.8
    /// start locations) and for a tess factor without a domain.
    pub fn d3d_name(self, domain: Option<TessDomain>, row: u32) -> Option<u32> {
        let tess = matches!(self, SemanticKind::TessFactor | SemanticKind::InsideTessFactor);
        let mut found = D3D_NAMES.iter().filter(|(_, k, d)| *k == self && (!tess || *d == domain)).map(|(n, ..)| *n);
        match (self, domain) {
            // The two isoline names: 16 (density) then 15 (detail).
            (SemanticKind::TessFactor, Some(TessDomain::Isoline)) => Some(if row == 0 { 16 } else { 15 }),
            _ => found.next(),
        }
    }
}

impl ComponentType {
    /// From a container element's `D3D_REGISTER_COMPONENT_TYPE` (DXC's
    /// `DxilProgramSigCompType`: 0 unknown, 1 uint32, 2 sint32, 3 float32, 4 uint16, 5 sint16,
    /// 6 float16, 7 uint64, 8 sint64, 9 float64); `None` past 9.
    pub fn from_d3d(v: u32) -> Option<ComponentType> {
        use ComponentType::*;
        [Invalid, U32, I32, F32, U16, I16, F16, U64, I64, F64].get(v as usize).copied()
    }

    /// The `D3D_REGISTER_COMPONENT_TYPE` a container writes for this type (DXC's rule: bool is
    /// uint32); `None` for the normalized types, which only typed resources have.
    pub fn d3d(self) -> Option<u32> {
        use ComponentType::*;
        Some(match self {
            Invalid => 0,
            I1 | U32 => 1,
            I32 => 2,
            F32 => 3,
            U16 => 4,
            I16 => 5,
            F16 => 6,
            U64 => 7,
            I64 => 8,
            F64 => 9,
            SNormF16 | UNormF16 | SNormF32 | UNormF32 | SNormF64 | UNormF64 => return None,
        })
    }

    /// Whether values of this type are floating point.
    pub fn is_float(self) -> bool {
        use ComponentType::*;
        matches!(self, F16 | F32 | F64 | SNormF16 | UNormF16 | SNormF32 | UNormF32 | SNormF64 | UNormF64)
    }
}

/// One element of an input, output or patch-constant signature, as either front end reads it.
///
/// A container part lists one element per register row (one semantic index each, `rows` 1,
/// `start_row` the register, `start_col` and `cols` the span of `mask`, no interpolation);
/// DXIL metadata lists one element per declared variable (one semantic index per row, no
/// stream, `mask` the columns `start_col..start_col + cols`, `rw_mask` 0).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SignatureElement {
    /// DXIL: the element id that `loadInput` / `storeOutput` take as their first operand; a
    /// container part: the element's position in the part.
    pub id: u32,
    /// Semantic name as written in HLSL (compare case-insensitively).
    pub name: String,
    /// Semantic indices, one per row.
    pub semantic_indices: Vec<u32>,
    /// The semantic: arbitrary or a system value.
    pub semantic: SemanticKind,
    /// The component type.
    pub component: ComponentType,
    /// How a pixel shader input is interpolated.
    pub interpolation: Interpolation,
    /// Rows.
    pub rows: u32,
    /// Columns (components).
    pub cols: u32,
    /// First row in the packed signature, the register (-1 when unallocated).
    pub start_row: i32,
    /// First column.
    pub start_col: i32,
    /// Components present.
    pub mask: u8,
    /// Components read (inputs) or never written (outputs).
    pub rw_mask: u8,
    /// Geometry-shader output stream (0 where the source has no stream field).
    pub stream: u32,
    /// D3D_MIN_PRECISION (0 where the part has none).
    pub min_precision: u32,
}

impl SignatureElement {
    /// Whether the element carries semantic `name` (case-insensitive) with `index`.
    pub fn is(&self, name: &str, index: u32) -> bool {
        self.name.eq_ignore_ascii_case(name) && self.semantic_indices.contains(&index)
    }
}

/// The signature part layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureLayout {
    /// ISGN / OSGN / PCSG: 24-byte elements.
    V0,
    /// OSG5: 28-byte elements with a stream.
    V5,
    /// ISG1 / OSG1 / PSG1: 32-byte elements with a stream and min precision.
    V1,
}

impl SignatureLayout {
    fn element_size(self) -> usize {
        match self {
            SignatureLayout::V0 => 24,
            SignatureLayout::V5 => 28,
            SignatureLayout::V1 => 32,
        }
    }
}

/// Parses one signature part.
pub fn parse_signature(
    fourcc: FourCC,
    data: &[u8],
    layout: SignatureLayout,
) -> Result<Vec<SignatureElement>, ShaderError> {
    let bad = |w| ShaderError::BadSignature(fourcc, w);
    let count = read_u32(data, 0).ok_or(bad("shorter than its header"))? as u64;
    let first = read_u32(data, 4).ok_or(bad("shorter than its header"))? as u64;
    let size = layout.element_size() as u64;
    if count > 0 && (first < 8 || first + count * size > data.len() as u64) {
        return Err(bad("elements lie outside the part"));
    }
    let mut out = Vec::with_capacity(count as usize);
    for i in 0..count {
        let e = (first + i * size) as usize;
        let w = |k: usize| read_u32(data, e + 4 * k).unwrap_or(0);
        let (stream, base) = match layout {
            SignatureLayout::V0 => (0, 0),
            SignatureLayout::V5 | SignatureLayout::V1 => (w(0), 1),
        };
        let name_off = w(base) as usize;
        let mask_word = w(base + 5);
        if name_off < 8 {
            return Err(bad("semantic name overlaps the header"));
        }
        let name = data
            .get(name_off..)
            .and_then(|s| s.iter().position(|&b| b == 0).map(|n| &s[..n]))
            .ok_or(bad("semantic name outside the part or unterminated"))?;
        let name = core::str::from_utf8(name).map_err(|_| bad("semantic name is not text"))?;
        let mask = mask_word as u8;
        let start_col = if mask == 0 { 0 } else { mask.trailing_zeros() };
        out.push(SignatureElement {
            id: i as u32,
            name: name.to_owned(),
            semantic_indices: vec![w(base + 1)],
            semantic: SemanticKind::from_d3d_name(w(base + 2)).ok_or(bad("unknown system value"))?,
            component: ComponentType::from_d3d(w(base + 3)).ok_or(bad("unknown component type"))?,
            interpolation: Interpolation::Undefined,
            rows: 1,
            cols: 8 - mask.leading_zeros() - start_col,
            start_row: w(base + 4) as i32,
            start_col: start_col as i32,
            mask,
            rw_mask: (mask_word >> 8) as u8,
            stream,
            min_precision: if layout == SignatureLayout::V1 { w(base + 6) } else { 0 },
        });
    }
    Ok(out)
}

/// Encodes a signature part: one entry per row of each element, tess factors named for
/// `domain`.
///
/// # Panics
///
/// On an element a container cannot hold (a kind or component type with no container number,
/// a tess factor without `domain`): this writer builds test shaders.
pub fn signature_part(elements: &[SignatureElement], layout: SignatureLayout, domain: Option<TessDomain>) -> Vec<u8> {
    let size = layout.element_size();
    let rows: Vec<(&SignatureElement, u32, u32)> = elements
        .iter()
        .flat_map(|e| e.semantic_indices.iter().enumerate().map(move |(r, &index)| (e, r as u32, index)))
        .collect();
    let names_at = 8 + size * rows.len();
    let mut names = Vec::new();
    let mut out = Vec::new();
    out.extend_from_slice(&(rows.len() as u32).to_le_bytes());
    out.extend_from_slice(&8u32.to_le_bytes());
    for (e, row, index) in rows {
        let name_off = (names_at + names.len()) as u32;
        names.extend_from_slice(e.name.as_bytes());
        names.push(0);
        let mut words = Vec::new();
        if layout != SignatureLayout::V0 {
            words.push(e.stream);
        }
        let name = e.semantic.d3d_name(domain, row);
        let ty = e.component.d3d();
        words.extend_from_slice(&[
            name_off,
            index,
            name.unwrap_or_else(|| panic!("{:?} has no D3D_NAME (domain {domain:?})", e.semantic)),
            ty.unwrap_or_else(|| panic!("{:?} has no D3D_REGISTER_COMPONENT_TYPE", e.component)),
            (e.start_row as u32).wrapping_add(row),
            e.mask as u32 | (e.rw_mask as u32) << 8,
        ]);
        if layout == SignatureLayout::V1 {
            words.push(e.min_precision);
        }
        for w in words {
            out.extend_from_slice(&w.to_le_bytes());
        }
    }
    out.extend_from_slice(&names);
    out.resize(out.len().div_ceil(4) * 4, 0xAB);
    out
}

/// A signature element for tests: a float4 user semantic in `register`.
pub fn element(name: &str, index: u32, register: u32) -> SignatureElement {
    SignatureElement {
        name: name.to_owned(),
        semantic_indices: vec![index],
        component: ComponentType::F32,
        rows: 1,
        cols: 4,
        start_row: register as i32,
        mask: 0xF,
        rw_mask: 0xF,
        ..Default::default()
    }
}

/// A system-value signature element for tests (e.g. SV_Position, SV_Target).
pub fn system_element(name: &str, index: u32, register: u32, semantic: SemanticKind) -> SignatureElement {
    SignatureElement { semantic, ..element(name, index, register) }
}

#[cfg(test)]
mod tests;
