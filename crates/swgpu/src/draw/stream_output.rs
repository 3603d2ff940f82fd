//! The stream-output stage: the primitives of each stream (0 without a geometry shader, up to
//! four with one) are appended, as lists of their vertices, to the bound stream-output buffers
//! that the stream's declaration entries name (D3D12_STREAM_OUTPUT_DESC,
//! D3D12_STREAM_OUTPUT_BUFFER_VIEW), whether or not the stream is the rasterized one.
//!
//! The rules, from the D3D11.3 functional specification's stream-output chapter, which D3D12
//! keeps:
//! - each buffer slot the declaration names receives, per vertex, its entries in declaration
//!   order, packed from the vertex's start; a vertex takes the slot's stride (gaps, entries
//!   without a semantic name, skip their components and leave the bytes alone);
//! - strips arrive as the lists the pipeline assembled (points 1, lines 2, triangles 3
//!   vertices, adjacency dropped);
//! - each buffer is fed by one stream at most (pipeline creation refuses the rest);
//! - a primitive is written only if every bound buffer its stream's declaration names has room
//!   for all its vertices; otherwise nothing of it is written. PrimitivesStorageNeeded counts
//!   every primitive of the stream, NumPrimitivesWritten only those written, per stream
//!   (D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0..3): a stream that overflows its buffers leaves
//!   the others' writes alone;
//! - BufferFilledSize (32 bits at BufferFilledSizeLocation) is the byte offset from
//!   BufferLocation where the next vertex goes, and advances by what is written.
//!   A slot with no buffer (BufferLocation 0) drops its writes and never overflows.

use super::{bits_of, ShadedVertex};
use rd3d12_core::pipeline::StreamOutput;
use rd3d12_shader::ir::interface::SignatureElement;

#[cfg(test)]
mod tests;

/// One bound stream-output buffer.
#[derive(Debug)]
pub struct SoBuffer<'a> {
    /// The view's bytes: SizeInBytes of them from BufferLocation.
    pub data: &'a mut [u8],
    /// BufferFilledSize: bytes written so far, where the next vertex goes. The draw advances it.
    pub filled: u32,
}

/// One declaration entry resolved against the last stage's output signature.
struct Field {
    slot: usize,
    /// Byte offset inside the slot's vertex.
    offset: usize,
    /// (signature id, row) of the output; `None` for a gap.
    output: Option<(u32, u32)>,
    start: usize,
    count: usize,
}

/// A pipeline's stream-output declaration for one stream, ready to write vertices.
pub(super) struct Writer {
    fields: Vec<Field>,
    strides: [usize; 4],
    /// Slots the declaration writes.
    used: [bool; 4],
}

impl Writer {
    /// The entries of `stream` in `so` against that stream's outputs of the last stage before
    /// the rasterizer; `None` without any.
    pub(super) fn new(so: &StreamOutput, outputs: &[SignatureElement], stream: u32) -> Option<Writer> {
        let mut fields = Vec::new();
        let mut next = [0usize; 4];
        let mut used = [false; 4];
        for e in so.entries.iter().filter(|e| e.stream == stream) {
            let slot = usize::from(e.output_slot).min(3);
            let output = e.semantic_name.as_ref().and_then(|name| {
                outputs.iter().filter(|o| o.stream == stream).find_map(|o| {
                    let row = o.semantic_indices.iter().position(|&i| i == e.semantic_index)?;
                    o.name.eq_ignore_ascii_case(name).then_some((o.id, row as u32))
                })
            });
            let count = usize::from(e.component_count);
            fields.push(Field { slot, offset: next[slot], output, start: usize::from(e.start_component), count });
            next[slot] += 4 * count;
            used[slot] = true;
        }
        if fields.is_empty() {
            return None;
        }
        let strides = std::array::from_fn(|k| so.strides.get(k).copied().unwrap_or(0) as usize);
        Some(Writer { fields, strides, used })
    }

    /// Appends one primitive's vertices; `true` if it was written (it fit every bound buffer).
    pub(super) fn write(&self, vertices: &[&ShadedVertex], buffers: &mut [Option<SoBuffer<'_>>]) -> bool {
        let n = vertices.len();
        let fits = (0..4).all(|k| {
            !self.used[k]
                || buffers.get(k).and_then(Option::as_ref).is_none_or(|b| {
                    (b.filled as usize).checked_add(n * self.strides[k]).is_some_and(|end| end <= b.data.len())
                })
        });
        if !fits {
            return false;
        }
        for (v, vertex) in vertices.iter().enumerate() {
            for f in &self.fields {
                let (Some(b), Some(out)) = (buffers.get_mut(f.slot).and_then(Option::as_mut), f.output) else {
                    continue;
                };
                let base = b.filled as usize + v * self.strides[f.slot] + f.offset;
                let values = vertex.outputs.get(&out);
                for c in 0..f.count {
                    let bits = values.and_then(|vals| vals.get(f.start + c)).map_or(0, bits_of);
                    if let Some(dst) = b.data.get_mut(base + 4 * c..base + 4 * c + 4) {
                        dst.copy_from_slice(&bits.to_le_bytes());
                    }
                }
            }
        }
        for k in 0..4 {
            if let (true, Some(Some(b))) = (self.used[k], buffers.get_mut(k)) {
                b.filled += (n * self.strides[k]) as u32;
            }
        }
        true
    }
}
