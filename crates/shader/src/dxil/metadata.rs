//! Metadata (`METADATA_BLOCK`) and the DXIL facts stored in it: `dx.version`,
//! `dx.shaderModel`, `dx.resources` and `dx.entryPoints` with their signatures (DXIL.rst,
//! "Metadata").
//!
//! Metadata has its own id space: each string, value or node record takes the next id, in
//! stream order; `NAME` + `NAMED_NODE` pairs and kinds take none. Node operands are stored as
//! id + 1 (0 = null), named-node operands as plain ids.

use super::bitstream::{read_vbr6_list, Block};
use super::module::{op, Const, Module, ValueId, ValueKind};
use super::types::TypeId;
use super::DxilError;
use rd3d12_core::shader::{ComponentType, Interpolation, SemanticKind, SignatureElement, Stage};

/// One metadata item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Md {
    /// A string (`!"main"`).
    String(String),
    /// A value (`i32 4`, `void ()* @main`).
    Value {
        /// The value's type.
        ty: TypeId,
        /// The module-level value.
        value: ValueId,
    },
    /// A node (`!{...}`): operand ids, `None` for `null`.
    Node {
        /// `distinct`.
        distinct: bool,
        /// Operands.
        ops: Vec<Option<u32>>,
    },
    /// A record the reader does not interpret (debug info); kept so ids stay in step.
    Other(u32),
}

/// The module's metadata.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Metadata {
    /// Items by id.
    pub items: Vec<Md>,
    /// Named metadata (`!dx.entryPoints = !{!16}`): name and node ids.
    pub named: Vec<(String, Vec<u32>)>,
}

const W: &str = "metadata";

impl Metadata {
    /// Reads a module-level `METADATA_BLOCK`, appending to the items already read.
    ///
    /// Guarantees: every node operand and named-node operand indexes [`Metadata::items`].
    pub fn parse_block(&mut self, b: &Block) -> Result<(), DxilError> {
        const STRING_OLD: u32 = 1;
        const VALUE: u32 = 2;
        const NODE: u32 = 3;
        const NAME: u32 = 4;
        const DISTINCT_NODE: u32 = 5;
        const KIND: u32 = 6;
        const NAMED_NODE: u32 = 10;
        const ATTACHMENT: u32 = 11;
        const STRINGS: u32 = 35;
        const GLOBAL_DECL_ATTACHMENT: u32 = 36;
        const INDEX_OFFSET: u32 = 38;
        const INDEX: u32 = 39;
        let bad = |w| DxilError::Malformed(W, w);
        let mut name: Option<String> = None;
        for r in b.records() {
            let md = match r.code {
                STRING_OLD => Md::String(r.string(0).ok_or(bad("string is not text"))?),
                VALUE => Md::Value {
                    ty: TypeId(u32::try_from(op(r, 0, W)?).map_err(|_| bad("type id over 32 bits"))?),
                    value: ValueId(u32::try_from(op(r, 1, W)?).map_err(|_| bad("value id over 32 bits"))?),
                },
                NODE | DISTINCT_NODE => Md::Node {
                    distinct: r.code == DISTINCT_NODE,
                    ops: r
                        .ops
                        .iter()
                        .map(|&o| if o == 0 { Ok(None) } else { u32::try_from(o - 1).map(Some) })
                        .collect::<Result<_, _>>()
                        .map_err(|_| bad("node operand over 32 bits"))?,
                },
                NAME => {
                    name = Some(r.string(0).ok_or(bad("name is not text"))?);
                    continue;
                }
                NAMED_NODE => {
                    let n = name.take().ok_or(bad("named node without a name"))?;
                    let ops = r.ops.iter().map(|&o| u32::try_from(o)).collect::<Result<_, _>>();
                    self.named.push((n, ops.map_err(|_| bad("named node operand over 32 bits"))?));
                    continue;
                }
                STRINGS => {
                    // [count, offset to the characters, blob: VBR6 lengths, then characters]
                    let count = op(r, 0, W)? as usize;
                    let offset = op(r, 1, W)? as usize;
                    let blob = r.blob.as_deref().ok_or(bad("METADATA_STRINGS without a blob"))?;
                    let chars = blob.get(offset..).ok_or(bad("string offset past the blob"))?;
                    let lens = read_vbr6_list(blob.get(..offset).unwrap_or(&[]), count)
                        .map_err(|_| bad("string lengths unreadable"))?;
                    let mut at = 0usize;
                    for len in lens {
                        let end = at.checked_add(len as usize).filter(|&e| e <= chars.len());
                        let end = end.ok_or(bad("string past the blob"))?;
                        self.items.push(Md::String(String::from_utf8_lossy(&chars[at..end]).into_owned()));
                        at = end;
                    }
                    continue;
                }
                KIND | ATTACHMENT | GLOBAL_DECL_ATTACHMENT | INDEX_OFFSET | INDEX => continue,
                7..=9 | 12..=34 | 37 | 40 => Md::Other(r.code),
                code => return Err(DxilError::Unsupported("metadata code", code as u64)),
            };
            self.items.push(md);
        }
        let n = self.items.len() as u32;
        let node_ok = self.items.iter().all(|m| match m {
            Md::Node { ops, .. } => ops.iter().flatten().all(|&o| o < n),
            _ => true,
        });
        if !node_ok || !self.named.iter().all(|(_, ops)| ops.iter().all(|&o| o < n)) {
            return Err(bad("operand id out of range"));
        }
        Ok(())
    }

    /// The node ids of named metadata `name`.
    pub fn named(&self, name: &str) -> Option<&[u32]> {
        self.named.iter().find(|(n, _)| n == name).map(|(_, ops)| ops.as_slice())
    }

    /// The operands of node `id`.
    pub fn node(&self, id: u32) -> Option<&[Option<u32>]> {
        match self.items.get(id as usize)? {
            Md::Node { ops, .. } => Some(ops),
            _ => None,
        }
    }

    /// The string `id` holds.
    pub fn string(&self, id: u32) -> Option<&str> {
        match self.items.get(id as usize)? {
            Md::String(s) => Some(s),
            _ => None,
        }
    }
}

/// Resource classes: the IR's one encoding ([`crate::ir::interface::ResourceClass`]).
pub use crate::ir::interface::ResourceClass;

/// One resource range of `dx.resources`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resource {
    /// The class.
    pub class: ResourceClass,
    /// The range id that `createHandle` takes (its third operand) with the class (second).
    pub id: u32,
    /// The type of the resource variable (a pointer to the HLSL type).
    pub ty: TypeId,
    /// Name.
    pub name: String,
    /// Register space.
    pub space: u32,
    /// First register.
    pub lower_bound: u32,
    /// Register count (u32::MAX for unbounded).
    pub range_size: u32,
    /// Field 6: the shape for SRVs and UAVs (2 = Texture2D, ...), the size in bytes for
    /// constant buffers, the sampler kind for samplers.
    pub shape_or_size: u32,
    /// The element stride of a structured buffer (the StructuredBufferElementStride tag, 1, of
    /// an SRV's or UAV's extra properties); 0 otherwise.
    pub stride: u32,
}

/// An entry point of `dx.entryPoints`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// Index into [`Module::functions`].
    pub function: usize,
    /// Its name.
    pub name: String,
    /// Input signature.
    pub inputs: Vec<SignatureElement>,
    /// Output signature.
    pub outputs: Vec<SignatureElement>,
    /// Patch constant signature.
    pub patch_constants: Vec<SignatureElement>,
    /// `[numthreads(x, y, z)]` of a compute shader (the NumThreads tag, 4, of the entry's
    /// properties).
    pub num_threads: Option<[u32; 3]>,
    /// A geometry shader's state (the GSState tag, 1, of the entry's properties).
    pub gs: Option<GsState>,
    /// A hull shader's state (the HSState tag, 3).
    pub hs: Option<HsState>,
    /// A domain shader's state (the DSState tag, 2).
    pub ds: Option<DsState>,
    /// `[WaveSize(...)]` (the WaveSize tag, 11, of shader model 6.6, or the RangedWaveSize
    /// tag, 23, of 6.8); `None` when the shader runs with any wave size.
    pub wave_size: Option<WaveSize>,
    /// The ShaderFlags tag, 0, of the entry's properties (DXIL.rst's shader flags, e.g.
    /// [`FORCE_EARLY_DEPTH_STENCIL`]); 0 without it.
    pub shader_flags: u64,
}

/// Shader flag 0x8 of an entry point: `[earlydepthstencil]`, the depth-stencil test runs before
/// the pixel shader, which pixels failing it never run.
pub const FORCE_EARLY_DEPTH_STENCIL: u64 = 0x8;

/// The wave sizes an entry point may run with: `[WaveSize(n)]` (shader model 6.6: min = max =
/// n) or `[WaveSize(min, max[, preferred])]` (6.8). Metadata: `!{i32 11, !{i32 n}}` or
/// `!{i32 23, !{i32 min, i32 max, i32 preferred}}` (preferred 0 for none) among the entry's
/// properties (DirectX-Specs "HLSL SM 6.6 WaveSize", hlsl-specs 0013 "Wave Size Range").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WaveSize {
    /// The fewest lanes.
    pub min: u32,
    /// The most lanes.
    pub max: u32,
    /// The size the shader prefers, within `min..=max`.
    pub preferred: Option<u32>,
}

impl WaveSize {
    /// A wave size range as the specs allow it: powers of two in 4..=128 ("The allowed wave
    /// sizes that an HLSL shader may specify are the powers of 2 between 4 and 128,
    /// inclusive"), `min <= max`, a preferred size inside the range.
    pub fn new(min: u32, max: u32, preferred: Option<u32>) -> Option<WaveSize> {
        let ok = |n: u32| n.is_power_of_two() && (4..=128).contains(&n);
        let pref_ok = preferred.is_none_or(|p| ok(p) && (min..=max).contains(&p));
        (ok(min) && ok(max) && min <= max && pref_ok).then_some(WaveSize { min, max, preferred })
    }

    /// Whether a wave of `lanes` lanes may run the shader.
    pub fn allows(&self, lanes: u32) -> bool {
        (self.min..=self.max).contains(&lanes) && lanes.is_power_of_two()
    }

    /// The wave size to run with, for an implementation whose own choice is `default`: the
    /// preferred size, else `default` when allowed, else the allowed size nearest to it.
    pub fn pick(&self, default: u32) -> u32 {
        match self.preferred {
            Some(p) => p,
            None if self.allows(default) => default,
            None => default.clamp(self.min, self.max),
        }
    }
}

/// A hull shader's declared state (DXIL.rst "Hull shader state").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HsState {
    /// Index into [`Module::functions`] of the patch constant function.
    pub patch_constant_function: usize,
    /// Control points of an input patch.
    pub input_control_points: u32,
    /// `[outputcontrolpoints(n)]`: control-point phase invocations per patch.
    pub output_control_points: u32,
    /// Tessellator domain (1 isoline, 2 tri, 3 quad).
    pub domain: u32,
    /// Partitioning (1 integer, 2 pow2, 3 fractional_odd, 4 fractional_even).
    pub partitioning: u32,
    /// Output primitive (1 point, 2 line, 3 triangle_cw, 4 triangle_ccw).
    pub output_primitive: u32,
    /// `[maxtessfactor(f)]`.
    pub max_tess_factor: f32,
}

impl Eq for HsState {}

/// A domain shader's declared state (DXIL.rst "Domain shader state").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DsState {
    /// Tessellator domain (1 isoline, 2 tri, 3 quad).
    pub domain: u32,
    /// Control points of the patch it reads.
    pub input_control_points: u32,
}

/// A geometry shader's declared state (DXIL.rst "Geometry shader state").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GsState {
    /// Input primitive (D3D_PRIMITIVE: 1 point, 2 line, 3 triangle, 6 line with adjacency,
    /// 7 triangle with adjacency).
    pub input_primitive: u32,
    /// `[maxvertexcount(n)]`.
    pub max_vertex_count: u32,
    /// The streams the shader emits to, one bit each.
    pub active_stream_mask: u32,
    /// Output topology (D3D_PRIMITIVE_TOPOLOGY: 1 point list, 3 line strip, 5 triangle strip).
    pub output_topology: u32,
    /// `[instance(n)]`: invocations per input primitive (1 without the attribute).
    pub instance_count: u32,
}

/// The DXIL facts of the metadata.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DxMetadata {
    /// `dx.version` (major, minor).
    pub dxil_version: (u32, u32),
    /// `dx.shaderModel`: stage and (major, minor).
    pub stage: Stage,
    /// Shader model (major, minor).
    pub model: (u32, u32),
    /// Entry points (one for a non-library shader).
    pub entry_points: Vec<EntryPoint>,
    /// Resource ranges of all classes.
    pub resources: Vec<Resource>,
}

impl Module {
    /// The integer a `Md::Value` metadata item holds.
    pub fn md_int(&self, id: Option<u32>) -> Option<i64> {
        match self.metadata.items.get(id? as usize)? {
            Md::Value { value, .. } => self.const_int(None, *value),
            _ => None,
        }
    }

    /// What the value a `Md::Value` metadata item names is.
    fn md_value_kind(&self, id: Option<u32>) -> Option<&ValueKind> {
        match self.metadata.items.get(id? as usize)? {
            Md::Value { value, .. } => self.values.get(value.0 as usize).map(|v| &v.kind),
            _ => None,
        }
    }

    /// The function (index into [`Module::functions`]) a `Md::Value` metadata item names.
    fn md_function(&self, id: Option<u32>) -> Option<usize> {
        match self.md_value_kind(id)? {
            ValueKind::Function(i) => Some(*i),
            _ => None,
        }
    }

    fn md_u32(&self, id: Option<u32>) -> Result<u32, DxilError> {
        self.md_int(id).and_then(|v| u32::try_from(v).ok()).ok_or(DxilError::Malformed(W, "expected an integer"))
    }

    fn md_list(&self, id: Option<u32>) -> Result<Vec<Option<u32>>, DxilError> {
        match id {
            None => Ok(vec![]),
            Some(i) => self.metadata.node(i).map(<[_]>::to_vec).ok_or(DxilError::Malformed(W, "expected a node")),
        }
    }

    fn md_str(&self, id: Option<u32>) -> Result<String, DxilError> {
        id.and_then(|i| self.metadata.string(i)).map(str::to_owned).ok_or(DxilError::Malformed(W, "expected a string"))
    }

    /// A signature of `dx.entryPoints` (DXIL.rst "Signature Element": id, name, component type,
    /// semantic kind, semantic indices, interpolation, rows, columns, start row, start column).
    fn signature(&self, id: Option<u32>) -> Result<Vec<SignatureElement>, DxilError> {
        let mut out = Vec::new();
        for e in self.md_list(id)? {
            let f = self.md_list(e)?;
            let field = |i: usize| f.get(i).copied().flatten();
            let int = |i: usize| self.md_int(field(i)).ok_or(DxilError::Malformed(W, "signature field not an integer"));
            let indices =
                self.md_list(field(4))?.into_iter().map(|i| self.md_u32(i)).collect::<Result<Vec<u32>, _>>()?;
            let code = |i: usize, what| self.md_u32(field(i)).map(|v| (v, DxilError::Unsupported(what, u64::from(v))));
            let (v, unknown) = code(2, "signature component type")?;
            let component = ComponentType::from_dxil(v).ok_or(unknown)?;
            let (v, unknown) = code(3, "signature semantic kind")?;
            let semantic = SemanticKind::from_dxil(v).ok_or(unknown)?;
            let (v, unknown) = code(5, "signature interpolation mode")?;
            let interpolation = Interpolation::from_dxil(v).ok_or(unknown)?;
            let (rows, cols) = (self.md_u32(field(6))?, self.md_u32(field(7))?);
            let (start_row, start_col) = (int(8)? as i32, int(9)? as i32);
            // The columns start_col..start_col + cols (none for an unallocated element).
            let span = 1u32.checked_shl(cols).map_or(u32::MAX, |b| b - 1);
            let mask = u32::try_from(start_col).ok().and_then(|c| span.checked_shl(c)).unwrap_or(0) as u8;
            out.push(SignatureElement {
                id: self.md_u32(field(0))?,
                name: self.md_str(field(1))?,
                semantic_indices: indices,
                semantic,
                component,
                interpolation,
                rows,
                cols,
                start_row,
                start_col,
                mask,
                rw_mask: 0,
                stream: 0,
                min_precision: 0,
            });
        }
        Ok(out)
    }

    /// Reads `dx.version`, `dx.shaderModel`, `dx.entryPoints` and `dx.resources`.
    ///
    /// Guarantees: each entry point names a function of the module; errors when a DXIL
    /// named node is missing or has the wrong shape.
    pub fn dx_metadata(&self) -> Result<DxMetadata, DxilError> {
        let bad = |w| DxilError::Malformed(W, w);
        let first = |name: &'static str| -> Result<Vec<Option<u32>>, DxilError> {
            let ops = self.metadata.named(name).ok_or(DxilError::Malformed(W, name))?;
            self.md_list(ops.first().copied())
        };
        let v = first("dx.version")?;
        let dxil_version = (self.md_u32(v.first().copied().flatten())?, self.md_u32(v.get(1).copied().flatten())?);
        let sm = first("dx.shaderModel")?;
        let profile = self.md_str(sm.first().copied().flatten())?;
        let stage = [
            Stage::Pixel,
            Stage::Vertex,
            Stage::Geometry,
            Stage::Hull,
            Stage::Domain,
            Stage::Compute,
            Stage::Library,
            Stage::Mesh,
            Stage::Amplification,
        ]
        .into_iter()
        .find(|s| s.profile() == profile)
        .ok_or(bad("unknown shader model profile"))?;
        let model = (self.md_u32(sm.get(1).copied().flatten())?, self.md_u32(sm.get(2).copied().flatten())?);

        let mut resources = Vec::new();
        if let Some(&[res]) = self.metadata.named("dx.resources") {
            let classes = [ResourceClass::Srv, ResourceClass::Uav, ResourceClass::Cbv, ResourceClass::Sampler];
            for (class, list) in classes.into_iter().zip(self.md_list(Some(res))?) {
                for r in self.md_list(list)? {
                    let f = self.md_list(r)?;
                    let field = |i: usize| f.get(i).copied().flatten();
                    let ty = match field(1).and_then(|i| self.metadata.items.get(i as usize)) {
                        Some(Md::Value { ty, .. }) => *ty,
                        _ => return Err(bad("resource variable is not a value")),
                    };
                    // Extra properties: field 8 of an SRV, field 10 of a UAV; (tag, value) pairs.
                    let extra = match class {
                        ResourceClass::Srv => field(8),
                        ResourceClass::Uav => field(10),
                        _ => None,
                    };
                    let mut stride = 0;
                    if extra.is_some() {
                        for pair in self.md_list(extra)?.chunks(2) {
                            if let [tag, value] = pair {
                                if self.md_int(*tag) == Some(1) {
                                    stride = self.md_int(*value).unwrap_or(0) as u32;
                                }
                            }
                        }
                    }
                    resources.push(Resource {
                        stride,
                        class,
                        id: self.md_u32(field(0))?,
                        ty,
                        name: self.md_str(field(2))?,
                        space: self.md_u32(field(3))?,
                        lower_bound: self.md_u32(field(4))?,
                        range_size: self.md_int(field(5)).ok_or(bad("resource range size"))? as u32,
                        shape_or_size: self.md_u32(field(6))?,
                    });
                }
            }
        }

        let mut entry_points = Vec::new();
        for &ep in self.metadata.named("dx.entryPoints").ok_or(bad("dx.entryPoints"))? {
            let f = self.md_list(Some(ep))?;
            let field = |i: usize| f.get(i).copied().flatten();
            let function = self.md_function(field(0)).ok_or(bad("entry point is not a function"))?;
            let sigs = self.md_list(field(2))?;
            let sig = |i: usize| self.signature(sigs.get(i).copied().flatten());
            let mut num_threads = None;
            let mut gs = None;
            let mut hs = None;
            let mut ds = None;
            let mut wave_size = None;
            let mut shader_flags = 0;
            let props = if field(4).is_some() { self.md_list(field(4))? } else { Vec::new() };
            for pair in props.chunks(2) {
                if let [tag, value] = pair {
                    if self.md_int(*tag) == Some(4) {
                        let t = self.md_list(*value)?;
                        let n = |i: usize| self.md_u32(t.get(i).copied().flatten());
                        num_threads = Some([n(0)?, n(1)?, n(2)?]);
                    }
                    if self.md_int(*tag) == Some(0) {
                        shader_flags = self.md_int(*value).map_or(0, |f| f as u64);
                    }
                    if self.md_int(*tag) == Some(1) {
                        let t = self.md_list(*value)?;
                        let n = |i: usize| self.md_u32(t.get(i).copied().flatten());
                        gs = Some(GsState {
                            input_primitive: n(0)?,
                            max_vertex_count: n(1)?,
                            active_stream_mask: n(2)?,
                            output_topology: n(3)?,
                            instance_count: n(4)?.max(1),
                        });
                    }
                    if self.md_int(*tag) == Some(2) {
                        let t = self.md_list(*value)?;
                        let n = |i: usize| self.md_u32(t.get(i).copied().flatten());
                        ds = Some(DsState { domain: n(0)?, input_control_points: n(1)? });
                    }
                    if let tag @ Some(11 | 23) = self.md_int(*tag) {
                        // 11: a node of one lane count (or, as some writers emit it, the
                        // integer itself); 23: (min, max, preferred or 0).
                        let t = match self.md_int(*value) {
                            Some(_) => vec![*value],
                            None => self.md_list(*value)?,
                        };
                        let n = |i: usize| self.md_u32(t.get(i).copied().flatten());
                        let (min, max, p) = if tag == Some(11) { (n(0)?, n(0)?, 0) } else { (n(0)?, n(1)?, n(2)?) };
                        // A size the device does not run (WaveLaneCountMin..Max is every size the
                        // specs allow): unsupported, which pipeline creation refuses.
                        let w = WaveSize::new(min, max, (p != 0).then_some(p))
                            .ok_or(DxilError::Unsupported("wave size", u64::from(if min > max { min } else { max })))?;
                        wave_size = Some(w);
                    }
                    if self.md_int(*tag) == Some(3) {
                        let t = self.md_list(*value)?;
                        let n = |i: usize| self.md_u32(t.get(i).copied().flatten());
                        let patch_constant_function = self
                            .md_function(t.first().copied().flatten())
                            .ok_or(bad("patch constant function is not a function"))?;
                        let max_tess_factor = match self.md_value_kind(t.get(6).copied().flatten()) {
                            Some(ValueKind::Const(Const::Float(bits))) => f32::from_bits(*bits as u32),
                            _ => 64.0,
                        };
                        hs = Some(HsState {
                            patch_constant_function,
                            input_control_points: n(1)?,
                            output_control_points: n(2)?,
                            domain: n(3)?,
                            partitioning: n(4)?,
                            output_primitive: n(5)?,
                            max_tess_factor,
                        });
                    }
                }
            }
            entry_points.push(EntryPoint {
                function,
                name: self.md_str(field(1))?,
                inputs: sig(0)?,
                outputs: sig(1)?,
                patch_constants: sig(2)?,
                num_threads,
                gs,
                hs,
                ds,
                wave_size,
                shader_flags,
            });
        }
        Ok(DxMetadata { dxil_version, stage, model, entry_points, resources })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str) -> EntryPoint {
        let path = format!("{}/../../tests/fixtures/dxil/wave/{name}.cs.dxil", env!("CARGO_MANIFEST_DIR"));
        let p = super::super::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
        p.dx.entry_points.into_iter().next().unwrap()
    }

    #[test]
    fn wave_size_is_read_from_dxc_entry_point_properties() {
        // [WaveSize(n)] of shader model 6.6: tag 11, !{i32 n}.
        for n in [4, 16, 32, 64] {
            let e = entry(&format!("wavesize_{n}"));
            assert_eq!(e.wave_size, Some(WaveSize { min: n, max: n, preferred: None }), "wavesize_{n}");
            assert_eq!(e.num_threads, Some([64, 1, 1]));
            assert_eq!(e.wave_size.unwrap().pick(8), n);
        }
        // [WaveSize(16, 64, 32)] and [WaveSize(4, 128)] of 6.8: tag 23, !{min, max, preferred or 0}.
        let e = entry("wavesize_range_16_64_32");
        assert_eq!(e.wave_size, Some(WaveSize { min: 16, max: 64, preferred: Some(32) }));
        assert_eq!(e.wave_size.unwrap().pick(8), 32);
        let e = entry("wavesize_range_4_128");
        assert_eq!(e.wave_size, Some(WaveSize { min: 4, max: 128, preferred: None }));
        assert_eq!((e.wave_size.unwrap().pick(8), e.num_threads), (8, Some([128, 1, 1])));
        // Without the attribute: none.
        assert_eq!(entry("wave_lane_basics").wave_size, None);
    }

    /// A [WaveSize] outside 4..=128 (DXC's wavesize_64 with its `i32 64` constants, the size and
    /// numthreads' x, made 256) is unsupported: pipeline creation refuses it.
    #[test]
    fn a_wave_size_the_device_does_not_run_is_unsupported() {
        let path = format!("{}/../../tests/fixtures/dxil/wave/wavesize_64.cs.dxil", env!("CARGO_MANIFEST_DIR"));
        let mut p = super::super::parse(&std::fs::read(&path).unwrap()).unwrap();
        let i32_ty = p.module.values.iter().find(|v| matches!(v.kind, ValueKind::Const(Const::Int(64)))).unwrap().ty;
        for v in p.module.values.iter_mut().filter(|v| v.ty == i32_ty) {
            if let ValueKind::Const(Const::Int(64)) = v.kind {
                v.kind = ValueKind::Const(Const::Int(256));
            }
        }
        assert_eq!(p.module.dx_metadata().unwrap_err(), DxilError::Unsupported("wave size", 256));
    }

    #[test]
    fn wave_sizes_are_powers_of_two_from_4_to_128() {
        assert_eq!(WaveSize::new(8, 8, None), Some(WaveSize { min: 8, max: 8, preferred: None }));
        for (min, max, pref) in
            [(2, 8, None), (4, 256, None), (12, 16, None), (32, 16, None), (16, 64, Some(8)), (4, 8, Some(6))]
        {
            assert_eq!(WaveSize::new(min, max, pref), None, "({min}, {max}, {pref:?})");
        }
        // pick: the preferred size, else the default when allowed, else the nearest bound.
        let r = WaveSize::new(16, 64, None).unwrap();
        assert_eq!((r.pick(8), r.pick(32), r.pick(128)), (16, 32, 64));
        assert!(r.allows(16) && r.allows(64) && !r.allows(8) && !r.allows(48) && !r.allows(128));
    }
}
