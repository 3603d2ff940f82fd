//! The input assembler of D3D12's graphics pipeline: indices from the index buffer, primitives
//! from a topology (strip cuts included), and vertex attributes fetched from vertex buffers by
//! the pipeline's input layout. Pure logic over byte slices; the CPU backend hands it the bound
//! buffers' bytes.
//!
//! Rules (D3D11.3 functional spec "Input Assembler", kept by D3D12, and the Primitive
//! Topologies page): a triangle strip's odd triangles take their vertices as (k, k+2, k+1), so
//! every triangle keeps the strip's winding and starts at its leading vertex; adjacency
//! topologies without a geometry shader draw their non-adjacent vertices; an index equal to the
//! strip cut value (0xFFFF / 0xFFFFFFFF, IBStripCutValue) restarts strips; reads beyond the end
//! of an index or vertex buffer, or from a slot with no buffer, give 0; per-instance elements
//! advance once every InstanceDataStepRate instances (0: never).

use rd3d12_core::pipeline::InputElement;
use rd3d12_sys as sys;

/// A D3D_PRIMITIVE_TOPOLOGY the input assembler draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topology {
    /// POINTLIST.
    PointList,
    /// LINELIST.
    LineList,
    /// LINESTRIP.
    LineStrip,
    /// TRIANGLELIST.
    TriangleList,
    /// TRIANGLESTRIP.
    TriangleStrip,
    /// LINELIST_ADJ.
    LineListAdj,
    /// LINESTRIP_ADJ.
    LineStripAdj,
    /// TRIANGLELIST_ADJ.
    TriangleListAdj,
    /// TRIANGLESTRIP_ADJ.
    TriangleStripAdj,
    /// N_CONTROL_POINT_PATCHLIST (N from 1 to 32): patches of N control points, for the
    /// tessellation stages (see [`patches`]).
    PatchList(u8),
}

impl Topology {
    /// From a D3D_PRIMITIVE_TOPOLOGY value (`None` for UNDEFINED and unknown values).
    pub fn from_d3d(v: u32) -> Option<Topology> {
        Some(match v {
            1 => Topology::PointList,
            2 => Topology::LineList,
            3 => Topology::LineStrip,
            4 => Topology::TriangleList,
            5 => Topology::TriangleStrip,
            10 => Topology::LineListAdj,
            11 => Topology::LineStripAdj,
            12 => Topology::TriangleListAdj,
            13 => Topology::TriangleStripAdj,
            33..=64 => Topology::PatchList((v - 32) as u8),
            _ => return None,
        })
    }
}

/// One assembled primitive: vertex numbers in the order the rasterizer takes them, the leading
/// (provoking) vertex first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Primitive {
    /// A point.
    Point(u32),
    /// A line.
    Line([u32; 2]),
    /// A triangle.
    Triangle([u32; 3]),
}

/// Splits `verts` (vertex numbers in draw order) into the pieces between strip cuts.
fn runs(verts: &[u32], cut: Option<u32>) -> Vec<&[u32]> {
    match cut {
        Some(c) => verts.split(|v| *v == c).collect(),
        None => vec![verts],
    }
}

/// The primitives `topology` makes of `verts`. `cut` is the strip cut value for indexed draws
/// (None for non-indexed draws); incomplete trailing primitives are dropped.
pub fn primitives(topology: Topology, verts: &[u32], cut: Option<u32>) -> Vec<Primitive> {
    let mut out = Vec::new();
    for run in runs(verts, cut) {
        match topology {
            Topology::PointList => out.extend(run.iter().map(|&v| Primitive::Point(v))),
            Topology::LineList => out.extend(run.chunks_exact(2).map(|c| Primitive::Line([c[0], c[1]]))),
            Topology::LineStrip => out.extend(run.windows(2).map(|c| Primitive::Line([c[0], c[1]]))),
            Topology::TriangleList => out.extend(run.chunks_exact(3).map(|c| Primitive::Triangle([c[0], c[1], c[2]]))),
            Topology::TriangleStrip => {
                out.extend(run.windows(3).enumerate().map(|(k, c)| {
                    Primitive::Triangle(if k % 2 == 0 { [c[0], c[1], c[2]] } else { [c[0], c[2], c[1]] })
                }))
            }
            // Adjacency: (0 1 2 3) per line, the line is 1-2; strips 0 1 2 3 ... with lines i+1, i+2.
            // Patches are no primitives until tessellated; see [`patches`].
            Topology::PatchList(_) => {}
            Topology::LineListAdj => out.extend(run.chunks_exact(4).map(|c| Primitive::Line([c[1], c[2]]))),
            Topology::LineStripAdj => out.extend(run.windows(4).map(|c| Primitive::Line([c[1], c[2]]))),
            // 0 1 2 3 4 5 per triangle, the triangle is 0-2-4.
            Topology::TriangleListAdj => {
                out.extend(run.chunks_exact(6).map(|c| Primitive::Triangle([c[0], c[2], c[4]])))
            }
            // The strip of the even vertices 0 2 4 6 ..., with the strip's winding rule: n
            // triangles from 2n + 4 vertices, so an odd last vertex makes no triangle (its
            // triangle's last adjacent vertex is missing), as in [`gs_inputs`].
            Topology::TriangleStripAdj => {
                let even: Vec<u32> = run[..run.len() & !1].iter().step_by(2).copied().collect();
                if run.len() >= 6 {
                    out.extend(even.windows(3).enumerate().map(|(k, c)| {
                        Primitive::Triangle(if k % 2 == 0 { [c[0], c[1], c[2]] } else { [c[0], c[2], c[1]] })
                    }));
                }
            }
        }
    }
    out
}

/// The patches of a patch list: `n` control points each, in draw order; a strip cut value
/// restarts the list and an incomplete trailing patch is dropped, as with other lists.
pub fn patches(n: u8, verts: &[u32], cut: Option<u32>) -> Vec<&[u32]> {
    let n = usize::from(n.max(1));
    runs(verts, cut).into_iter().flat_map(|run| run.chunks_exact(n)).collect()
}

/// What a geometry shader receives for each primitive of [`primitives`] (same order, one
/// each): the primitive's vertices, and for the adjacency topologies all of them in D3D's
/// order, the primitive's vertices at 1 and 2 of a line's four and at 0, 2 and 4 of a
/// triangle's six (each followed by the vertex across its edge to the next).
///
/// Triangle strips with adjacency (n triangles from 2n + 4 vertices, numbered from 0): the
/// triangles are the strip of the even vertices, and their adjacent vertices follow the
/// table of the Vulkan specification ("Triangle Strips With Adjacency"; the D3D order, whose
/// odd triangles lead with their lowest vertex as [`primitives`] does; OpenGL's table rotates
/// them), relative to 2i for triangle i: even triangles 0, −2 (1 for the first), 2, 6 (5 for
/// the last), 4, 3; odd triangles 0, 3, 4, 6 (5 for the last), 2, −2.
pub fn gs_inputs(topology: Topology, verts: &[u32], cut: Option<u32>) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for run in runs(verts, cut) {
        match topology {
            Topology::LineListAdj => out.extend(run.chunks_exact(4).map(<[u32]>::to_vec)),
            Topology::LineStripAdj => out.extend(run.windows(4).map(<[u32]>::to_vec)),
            Topology::TriangleListAdj => out.extend(run.chunks_exact(6).map(<[u32]>::to_vec)),
            Topology::TriangleStripAdj if run.len() >= 6 => {
                let n = (run.len() - 4) / 2;
                for i in 0..n {
                    let (first, last, even) = (i == 0, i == n - 1, i % 2 == 0);
                    // Each edge's vertex across: the previous triangle's (first: the odd vertex
                    // before), the next one's (last: the odd vertex after), the odd vertex
                    // beside the strip's outer edge.
                    let before = if first { 1 } else { -2 };
                    let after = if last { 5 } else { 6 };
                    let offsets: [i64; 6] = if even { [0, before, 2, after, 4, 3] } else { [0, 3, 4, after, 2, -2] };
                    out.push(offsets.iter().map(|&o| run[(2 * i as i64 + o) as usize]).collect());
                }
            }
            _ => out.extend(primitives(topology, run, None).iter().map(|p| match p {
                Primitive::Point(v) => vec![*v],
                Primitive::Line(l) => l.to_vec(),
                Primitive::Triangle(t) => t.to_vec(),
            })),
        }
    }
    out
}

/// The vertex numbers of an indexed draw: `count` indices from `start` in an index buffer of
/// 16- or 32-bit indices (`index_bytes` 2 or 4), each plus `base_vertex`; indices past the end of
/// the buffer read as 0. The strip cut value is kept as it is (before `base_vertex`) so that
/// [`primitives`] can cut on it; the returned value says which cut value applies.
pub fn indices(
    ib: &[u8],
    index_bytes: usize,
    start: u32,
    count: u32,
    base_vertex: i32,
    strip_cut: bool,
) -> (Vec<u32>, Option<u32>) {
    let cut_value = if index_bytes == 2 { 0xFFFF } else { 0xFFFF_FFFF };
    let cut = strip_cut.then_some(cut_value);
    let read = |i: u64| -> u32 {
        let off = i * index_bytes as u64;
        let Ok(off) = usize::try_from(off) else { return 0 };
        match ib.get(off..off + index_bytes) {
            Some(b) if index_bytes == 2 => u32::from(u16::from_le_bytes([b[0], b[1]])),
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
            None => 0,
        }
    };
    let v = (0..u64::from(count))
        .map(|k| {
            let raw = read(u64::from(start) + k);
            if Some(raw) == cut {
                raw
            } else {
                raw.wrapping_add(base_vertex as u32)
            }
        })
        .collect();
    (v, cut)
}

/// One bound vertex buffer view: its bytes and stride.
#[derive(Clone, Copy)]
pub struct VertexBuffer<'a> {
    /// The bytes the view covers (SizeInBytes from BufferLocation), read an element at a time
    /// (other threads may write them meanwhile).
    pub data: &'a dyn crate::bytes::ReadBytes,
    /// StrideInBytes.
    pub stride: u32,
}

/// The byte offset of every element in its slot, D3D12_APPEND_ALIGNED_ELEMENT resolved: right
/// after the slot's previous element.
pub fn element_offsets(elements: &[InputElement]) -> Vec<u32> {
    let mut next = [0u32; 32];
    elements
        .iter()
        .map(|e| {
            let slot = (e.input_slot as usize).min(31);
            let off = if e.aligned_byte_offset == sys::D3D12_APPEND_ALIGNED_ELEMENT {
                next[slot]
            } else {
                e.aligned_byte_offset
            };
            let size = rd3d12_core::format::info(sys::DXGI_FORMAT(e.format)).map_or(0, |i| i.bytes_per_element());
            next[slot] = off.saturating_add(size);
            off
        })
        .collect()
}

/// The attributes of one vertex: for each element of the layout, its four 32-bit lanes
/// ([`rd3d12_core::pack::decode_lanes`]). `vertex` is the vertex number (index buffer value plus base
/// vertex, or StartVertexLocation plus the vertex's position), `instance` the instance's number
/// within the draw, `start_instance` StartInstanceLocation.
pub fn fetch(
    elements: &[InputElement],
    offsets: &[u32],
    buffers: &[Option<VertexBuffer<'_>>],
    vertex: u32,
    instance: u32,
    start_instance: u32,
) -> Vec<[u32; 4]> {
    (0..elements.len())
        .map(|i| fetch_element(elements, offsets, buffers, i, vertex, instance, start_instance))
        .collect()
}

/// Element `i` of [`fetch`]'s result alone (zero lanes for an index past the layout).
pub fn fetch_element(
    elements: &[InputElement],
    offsets: &[u32],
    buffers: &[Option<VertexBuffer<'_>>],
    i: usize,
    vertex: u32,
    instance: u32,
    start_instance: u32,
) -> [u32; 4] {
    let (Some(e), Some(&off)) = (elements.get(i), offsets.get(i)) else { return [0; 4] };
    let per_instance = e.slot_class == sys::D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA.0;
    let index = if per_instance {
        // A step rate of 0 keeps every instance on element 0.
        let step = e.instance_step_rate;
        start_instance.wrapping_add(instance.checked_div(step).unwrap_or(0))
    } else {
        vertex
    };
    let Some(Some(vb)) = buffers.get(e.input_slot as usize) else { return zero_lanes(e.format) };
    let at = u64::from(index) * u64::from(vb.stride) + u64::from(off);
    let format = sys::DXGI_FORMAT(e.format);
    let n = rd3d12_core::format::info(format).map_or(0, |i| i.bytes_per_element() as usize);
    let mut b = [0u8; 16];
    let read = usize::try_from(at).is_ok_and(|at| n <= b.len() && vb.data.read(at, &mut b[..n]));
    read.then(|| rd3d12_core::pack::decode_lanes(format, &b[..n])).flatten().unwrap_or_else(|| zero_lanes(e.format))
}

/// What an out-of-bounds read gives: zero in every component present in the format, and the
/// usual defaults (0, 0, 0, 1) for the missing ones.
fn zero_lanes(format: u32) -> [u32; 4] {
    let f = sys::DXGI_FORMAT(format);
    let zero = [0u8; 16];
    rd3d12_core::pack::decode_lanes(f, &zero).unwrap_or([0; 4])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tris(p: &[Primitive]) -> Vec<[u32; 3]> {
        p.iter()
            .map(|p| match p {
                Primitive::Triangle(t) => *t,
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn strips_keep_their_winding_and_leading_vertex() {
        let p = primitives(Topology::TriangleStrip, &[0, 1, 2, 3, 4, 5], None);
        assert_eq!(tris(&p), [[0, 1, 2], [1, 3, 2], [2, 3, 4], [3, 5, 4]]);
        let p = primitives(Topology::TriangleList, &[0, 1, 2, 3, 4, 5, 6, 7], None);
        assert_eq!(tris(&p), [[0, 1, 2], [3, 4, 5]], "the incomplete triangle is dropped");
    }

    #[test]
    fn cut_values_restart_strips() {
        let (v, cut) = indices(&[0, 0, 1, 0, 2, 0, 0xFF, 0xFF, 3, 0, 4, 0, 5, 0], 2, 0, 7, 10, true);
        assert_eq!(cut, Some(0xFFFF));
        assert_eq!(v, [10, 11, 12, 0xFFFF, 13, 14, 15]);
        let p = primitives(Topology::TriangleStrip, &v, cut);
        assert_eq!(tris(&p), [[10, 11, 12], [13, 14, 15]]);
        // Without a cut value, 0xFFFF is an ordinary index (plus the base vertex).
        let (v, cut) = indices(&[0xFF, 0xFF], 2, 0, 1, 1, false);
        assert_eq!((v, cut), (vec![0x1_0000], None));
    }

    #[test]
    fn indices_past_the_buffer_read_zero() {
        let ib: Vec<u8> = [7u32, 8, 9].iter().flat_map(|i| i.to_le_bytes()).collect();
        let (v, _) = indices(&ib, 4, 1, 4, 0, false);
        assert_eq!(v, [8, 9, 0, 0]);
        let (v, _) = indices(&ib, 4, u32::MAX, 2, -1, false);
        assert_eq!(v, [u32::MAX, u32::MAX], "0 plus base vertex -1 wraps");
    }

    #[test]
    fn lines_points_and_adjacency() {
        assert_eq!(primitives(Topology::PointList, &[4, 5], None), [Primitive::Point(4), Primitive::Point(5)]);
        assert_eq!(
            primitives(Topology::LineStrip, &[1, 2, 3], None),
            [Primitive::Line([1, 2]), Primitive::Line([2, 3])]
        );
        assert_eq!(primitives(Topology::LineListAdj, &[0, 1, 2, 3], None), [Primitive::Line([1, 2])]);
        assert_eq!(tris(&primitives(Topology::TriangleListAdj, &[0, 1, 2, 3, 4, 5], None)), [[0, 2, 4]]);
        assert_eq!(
            tris(&primitives(Topology::TriangleStripAdj, &[0, 1, 2, 3, 4, 5, 6, 7], None)),
            [[0, 2, 4], [2, 6, 4]]
        );
        assert_eq!(Topology::from_d3d(33), Some(Topology::PatchList(1)));
        assert_eq!(Topology::from_d3d(64), Some(Topology::PatchList(32)));
        assert_eq!(Topology::from_d3d(65), None);
        assert_eq!(Topology::from_d3d(0), None, "UNDEFINED");
        assert!(primitives(Topology::PatchList(3), &[0, 1, 2], None).is_empty(), "patches are no primitives");
    }

    #[test]
    fn patch_lists_split_into_whole_patches() {
        let p: Vec<Vec<u32>> = patches(3, &[0, 1, 2, 3, 4, 5, 6, 7], None).iter().map(|p| p.to_vec()).collect();
        assert_eq!(p, [vec![0, 1, 2], vec![3, 4, 5]], "the incomplete last patch is dropped");
        let cut: Vec<Vec<u32>> =
            patches(2, &[0, 1, 2, u32::MAX, 3, 4], Some(u32::MAX)).iter().map(|p| p.to_vec()).collect();
        assert_eq!(cut, [vec![0, 1], vec![3, 4]], "a cut restarts the list");
        assert_eq!(patches(1, &[7, 8], None).len(), 2);
    }

    #[test]
    fn geometry_shaders_get_every_vertex_of_adjacency_primitives() {
        assert_eq!(gs_inputs(Topology::TriangleStrip, &[0, 1, 2, 3], None), [[0, 1, 2], [1, 3, 2]]);
        assert_eq!(gs_inputs(Topology::LineStripAdj, &[0, 1, 2, 3, 4], None), [[0, 1, 2, 3], [1, 2, 3, 4]]);
        assert_eq!(gs_inputs(Topology::TriangleListAdj, &[0, 1, 2, 3, 4, 5, 6], None), [[0, 1, 2, 3, 4, 5]]);
        // An only triangle: its edges 0-2, 2-4, 4-0 have 1, 5 and 3 across.
        assert_eq!(gs_inputs(Topology::TriangleStripAdj, &[0, 1, 2, 3, 4, 5], None), [[0, 1, 2, 5, 4, 3]]);
        // Three triangles 0-2-4, 2-6-4, 4-6-8: shared edges have the other triangle's far
        // vertex across, outer edges the odd vertex beside them.
        assert_eq!(
            gs_inputs(Topology::TriangleStripAdj, &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], None),
            [[0, 1, 2, 6, 4, 3], [2, 5, 6, 8, 4, 0], [4, 2, 6, 9, 8, 7]]
        );
        // An odd count: the last vertex completes no triangle (7 vertices make one, 2n + 4).
        assert_eq!(tris(&primitives(Topology::TriangleStripAdj, &[0, 1, 2, 3, 4, 5, 6], None)), [[0, 2, 4]]);
        assert_eq!(gs_inputs(Topology::TriangleStripAdj, &[0, 1, 2, 3, 4, 5, 6], None), [[0, 1, 2, 5, 4, 3]]);
        let v = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
        for n in 0..=v.len() {
            for t in [Topology::TriangleStripAdj, Topology::TriangleListAdj, Topology::LineStripAdj] {
                assert_eq!(primitives(t, &v[..n], None).len(), gs_inputs(t, &v[..n], None).len(), "{t:?} of {n}");
            }
        }
        for t in [Topology::TriangleStripAdj, Topology::TriangleListAdj, Topology::LineStripAdj] {
            let (p, g) = (primitives(t, &v, None), gs_inputs(t, &v, None));
            assert_eq!(p.len(), g.len());
            for (p, g) in p.iter().zip(&g) {
                match p {
                    Primitive::Line(l) => assert_eq!(l[..], g[1..3]),
                    Primitive::Triangle(t) => assert_eq!(*t, [g[0], g[2], g[4]]),
                    Primitive::Point(_) => unreachable!(),
                }
            }
        }
    }

    fn el(format: u32, slot: u32, offset: u32, per_instance: bool, step: u32) -> InputElement {
        InputElement {
            semantic_name: Some("A".into()),
            semantic_index: 0,
            format,
            input_slot: slot,
            aligned_byte_offset: offset,
            slot_class: u32::from(per_instance),
            instance_step_rate: step,
        }
    }

    #[test]
    fn append_aligned_offsets_follow_each_slot() {
        let append = sys::D3D12_APPEND_ALIGNED_ELEMENT;
        let layout = [
            el(sys::DXGI_FORMAT_R32G32B32_FLOAT.0, 0, 0, false, 0),
            el(sys::DXGI_FORMAT_R8G8B8A8_UNORM.0, 0, append, false, 0),
            el(sys::DXGI_FORMAT_R32_UINT.0, 1, append, true, 1),
            el(sys::DXGI_FORMAT_R16G16_FLOAT.0, 0, append, false, 0),
        ];
        assert_eq!(element_offsets(&layout), [0, 12, 0, 16]);
    }

    #[test]
    fn fetch_reads_per_vertex_and_per_instance_data() {
        // Slot 0: float3 position + ubyte4 color, stride 16; slot 1: one uint per instance, step 2.
        let mut vb0 = Vec::new();
        for v in 0..3u32 {
            for c in [v as f32, 10.0 + v as f32, 0.5] {
                vb0.extend(c.to_le_bytes());
            }
            vb0.extend([255, 0, (v * 100) as u8, 255]);
        }
        let vb1: Vec<u8> = [100u32, 200, 300].iter().flat_map(|i| i.to_le_bytes()).collect();
        let layout = [
            el(sys::DXGI_FORMAT_R32G32B32_FLOAT.0, 0, 0, false, 0),
            el(sys::DXGI_FORMAT_R8G8B8A8_UNORM.0, 0, 12, false, 0),
            el(sys::DXGI_FORMAT_R32_UINT.0, 1, 0, true, 2),
        ];
        let offs = element_offsets(&layout);
        let bufs = [Some(VertexBuffer { data: &vb0, stride: 16 }), Some(VertexBuffer { data: &vb1, stride: 4 })];
        let a = fetch(&layout, &offs, &bufs, 2, 3, 1);
        assert_eq!(a[0], [2.0f32.to_bits(), 12.0f32.to_bits(), 0.5f32.to_bits(), 1.0f32.to_bits()]);
        assert_eq!(a[1], [1.0f32.to_bits(), 0, (200.0f32 / 255.0).to_bits(), 1.0f32.to_bits()]);
        // Instance 3 with step rate 2 from start instance 1: element 1 + 3/2 = 2.
        assert_eq!(a[2], [300, 0, 0, 1]);
        // Vertex 3 is past the buffer: zeros with the default w.
        let b = fetch(&layout, &offs, &bufs, 3, 0, 0);
        assert_eq!(b[0], [0, 0, 0, 1.0f32.to_bits()]);
        assert_eq!(b[2], [100, 0, 0, 1]);
        // No buffer in slot 1: zeros.
        let c = fetch(&layout, &offs, &bufs[..1], 0, 0, 0);
        assert_eq!(c[2], [0, 0, 0, 1]);
    }
}
