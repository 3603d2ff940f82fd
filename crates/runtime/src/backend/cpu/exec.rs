//! Executes recorded commands on the CPU, on the queue's thread, in order.
//!
//! Copies are byte moves between the resources' memory: buffers and linear texture layouts by
//! rows (memmove, so overlapping ranges behave as through a temporary), reserved resources
//! through their tile maps (unmapped tiles read zero and swallow writes).
//!
//! Copies, clears and resolves of at least [`SPLIT_BYTES`] are split into ranges of rows,
//! slices or bytes that the workers of [`rd3d12_swgpu::pool`] move at once ([`split`]): the
//! pieces write disjoint bytes, so the result is the one-thread result byte for byte. Work whose
//! source and destination may overlap (the same allocation, or a reserved resource, whose tiles
//! may alias anything) stays on the queue's thread, in order.

use super::bindings::linear_bytes;
use super::draw::Skipped;
use crate::backend::memory::SharedBytes;
use crate::backend::Hung;
use crate::trace::list::ListTrace;
use crate::work::commands::{Command, Recorded, SubState, TexSide};
use crate::work::memory::Memory;
use crate::work::queries::QueryData;
use crate::work::states::assert_state;
use crate::work::tiles::TileMap;
use rd3d12_core::copy::{CopyPlan, Surface};
use rd3d12_swgpu::pool;
use rd3d12_sys::*;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Arc;

/// Runs one list's commands. Each draw, dispatch and indirect command must finish within
/// `timeout` (the queue's GPU timeout; `None`: no limit); when one does not, the list stops
/// there and the error says which.
pub fn run(list: &Recorded, timeout: Option<std::time::Duration>) -> Result<(), Hung> {
    let mut predicate: Option<(Memory, u64, D3D12_PREDICATION_OP)> = None;
    let mut counters = Counters::default();
    // Tracing off: one relaxed atomic load per list.
    let mut trace = crate::trace::track().map(ListTrace::new);
    let r = run_commands(&list.commands, &mut predicate, &mut counters, timeout, &mut trace);
    if let Some(t) = &mut trace {
        t.end();
    }
    r
}

/// What a list's draws and dispatches did so far, for queries: samples that passed the depth
/// and stencil tests, and D3D12_QUERY_DATA_PIPELINE_STATISTICS1's fields in its order
/// (IAVertices, IAPrimitives, VSInvocations, GSInvocations, GSPrimitives, CInvocations,
/// CPrimitives, PSInvocations, HSInvocations, DSInvocations, CSInvocations, ASInvocations,
/// MSInvocations, MSPrimitives), then each stream's D3D12_QUERY_DATA_SO_STATISTICS
/// (NumPrimitivesWritten, PrimitivesStorageNeeded), streams 0 to 3. A query begins and ends in
/// one list (BeginQuery's rule), so per-list counters and the values noted at BeginQuery give
/// its result.
#[derive(Default)]
struct Counters {
    samples: u64,
    stats: [u64; COUNTERS],
    /// (query data, index) → the counters at BeginQuery.
    begun: Vec<(usize, u32, u64, [u64; COUNTERS])>,
}

/// The pipeline statistics (14), then two SO statistics for each of the 4 streams.
const COUNTERS: usize = 14 + 2 * 4;

impl Counters {
    fn draw(&mut self, s: &rd3d12_swgpu::draw::DrawStats) {
        self.samples += s.samples_passed;
        let st = &mut self.stats;
        st[0] += s.ia_vertices;
        st[1] += s.primitives;
        st[2] += s.vertices_shaded;
        st[3] += s.gs_invocations;
        st[4] += s.gs_primitives;
        st[5] += s.c_invocations;
        st[6] += s.c_primitives;
        st[7] += s.ps_invocations;
        st[8] += s.hs_invocations;
        st[9] += s.ds_invocations;
        for k in 0..4 {
            st[14 + 2 * k] += s.so_written[k];
            st[15 + 2 * k] += s.so_needed[k];
        }
    }

    /// The values of query `index` of `data` (of type `ty`) at its EndQuery.
    fn end(&mut self, data: &QueryData, index: u32, ty: D3D12_QUERY_TYPE) -> Vec<u64> {
        let key = data as *const QueryData as usize;
        let (samples, stats) = match self.begun.iter().position(|b| b.0 == key && b.1 == index) {
            Some(i) => {
                let b = self.begun.swap_remove(i);
                (b.2, b.3)
            }
            None => (self.samples, self.stats),
        };
        match ty {
            D3D12_QUERY_TYPE_OCCLUSION => vec![self.samples - samples],
            D3D12_QUERY_TYPE_BINARY_OCCLUSION => vec![u64::from(self.samples > samples)],
            D3D12_QUERY_TYPE_PIPELINE_STATISTICS | D3D12_QUERY_TYPE_PIPELINE_STATISTICS1 => {
                self.stats[..14].iter().zip(stats).map(|(now, then)| now - then).collect()
            }
            // NumPrimitivesWritten and PrimitivesStorageNeeded of the query's stream; the stream
            // overflowed when the second exceeds the first.
            D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0
            | D3D12_QUERY_TYPE_SO_STATISTICS_STREAM1
            | D3D12_QUERY_TYPE_SO_STATISTICS_STREAM2
            | D3D12_QUERY_TYPE_SO_STATISTICS_STREAM3 => {
                let at = 14 + 2 * (ty.0 - D3D12_QUERY_TYPE_SO_STATISTICS_STREAM0.0) as usize;
                self.stats[at..at + 2].iter().zip(&stats[at..at + 2]).map(|(n, t)| n - t).collect()
            }
            _ => Vec::new(),
        }
    }
}

fn run_commands(
    commands: &[Command],
    predicate: &mut Option<(Memory, u64, D3D12_PREDICATION_OP)>,
    counters: &mut Counters,
    timeout: Option<std::time::Duration>,
    trace: &mut Option<ListTrace>,
) -> Result<(), Hung> {
    use rd3d12_shader::interp::with_deadline;
    // Shader work runs with the deadline of the GPU timeout, counted from its start.
    let deadline = || timeout.map(|t| std::time::Instant::now() + t);
    for c in commands {
        if c.predicated() && skipped(predicate) {
            continue;
        }
        let traced = trace.as_ref().map(|t| (t.start(), counters.stats));
        match c {
            Command::CopyBuffer { dst, dst_offset, src, src_offset, bytes } => {
                copy_bytes(dst, *dst_offset, src, *src_offset, *bytes)
            }
            Command::CopyTexture { dst, src, plan } => copy_texture(dst, src, plan),
            Command::CopyTiles { tiles, tile_indices, buffer, buffer_offset, to_tiles } => {
                copy_tiles(tiles, tile_indices, buffer, *buffer_offset, *to_tiles)
            }
            Command::Transition { states, subresource, after } => {
                let mut s = states.lock().unwrap_or_else(|e| e.into_inner());
                let to = SubState { state: *after, promoted: false };
                if *subresource == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES {
                    s.iter_mut().for_each(|v| *v = to);
                } else if let Some(v) = s.get_mut(*subresource as usize) {
                    *v = to;
                }
            }
            Command::Timestamp { data, index } => data.write(*index, &[crate::work::queries::now_ns()]),
            Command::QueryBegin { data, index } => {
                let key = Arc::as_ptr(data) as usize;
                counters.begun.retain(|b| !(b.0 == key && b.1 == *index));
                counters.begun.push((key, *index, counters.samples, counters.stats));
            }
            Command::QueryEnd { data, index, ty } => {
                let v = counters.end(data, *index, *ty);
                data.write(*index, &v);
            }
            Command::Resolve { data, ty, start, count, dst, offset } => {
                dst.write(*offset, &data.resolve(*ty, *start, *count));
            }
            Command::WriteImmediate { dst, offset, value } => match dst.ptr(*offset, 4) {
                // SAFETY: 4 aligned bytes inside the buffer (checked at recording).
                Some(p) => unsafe { (*(p as *const AtomicU32)).store(*value, Ordering::SeqCst) },
                None => {
                    dst.write(*offset, &value.to_le_bytes());
                }
            },
            Command::AtomicCopy { dst, dst_offset, src, src_offset, wide } => {
                atomic_copy(dst, *dst_offset, src, *src_offset, *wide)
            }
            Command::Predication(p) => *predicate = p.clone(),
            Command::Bundle(b) => {
                let (rec, work) = &**b;
                let mut work = work.iter();
                for c in &rec.commands {
                    let c = match c {
                        Command::BundleWork(_) => match work.next() {
                            Some(w) => w,
                            None => continue,
                        },
                        c => c,
                    };
                    run_commands(std::slice::from_ref(c), predicate, counters, timeout, trace)?;
                }
            }
            Command::Fill { memory, fills, element, element_bytes } => {
                fill(memory, fills, &element[..*element_bytes as usize])
            }
            Command::ResolveTexture { dst, src, plan } => resolve(dst, src, plan),
            Command::AssertState { states, id, sub, state } => assert_state(states, *id, *sub, *state),
            Command::ShaderWork { what, why } => super::draw::report_skipped(what, why),
            Command::BundleWork(_) => {}
            Command::Marker(m) => {
                if let Some(t) = trace {
                    t.marker(m)
                }
            }
            Command::Draw(w) => {
                let r = with_deadline(deadline(), || contained(|| super::draw::run(w)));
                settle("draw", r, |s| counters.draw(&s))?
            }
            Command::Indirect(w) => {
                // Every command has the whole timeout; a hang ends the run and the list.
                let mut hung = None;
                let mut each = |r: Result<super::indirect::Ran, Skipped>| {
                    let counted = settle("indirect command", r, |ran| match ran {
                        super::indirect::Ran::Draw(s) => counters.draw(&s),
                        super::indirect::Ran::Dispatch(s) => counters.stats[10] += s.threads,
                    });
                    hung = hung.or(counted.err());
                };
                let ran = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    super::indirect::run(w, &mut each, timeout)
                }));
                if ran.is_err() {
                    super::draw::report_skipped("indirect command", "an internal error of the CPU backend (a panic)");
                }
                if let Some(h) = hung {
                    return Err(h);
                }
            }
            Command::Dispatch(w) => {
                let r = with_deadline(deadline(), || contained(|| super::compute::run(w)));
                settle("dispatch", r, |s| counters.stats[10] += s.threads)?
            }
        }
        if let (Some(t), Some((t0, before))) = (trace.as_mut(), traced) {
            t.command(c, t0, &before, &counters.stats);
        }
    }
    Ok(())
}

/// What a draw, dispatch or indirect command did: counted, reported as skipped, or the hang that
/// ends the list.
fn settle<T>(what: &'static str, r: Result<T, Skipped>, count: impl FnOnce(T)) -> Result<(), Hung> {
    match r {
        Ok(v) => {
            count(v);
            Ok(())
        }
        Err(Skipped::Unsupported(why)) => {
            super::draw::report_skipped(what, &why);
            Ok(())
        }
        Err(Skipped::Hung) => Err(Hung { what }),
    }
}

/// Runs shader work so that a defect of the interpreter (a panic) costs that draw or dispatch,
/// not the queue's thread: the work is reported as skipped.
fn contained<T>(f: impl FnOnce() -> Result<T, Skipped>) -> Result<T, Skipped> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f))
        .unwrap_or_else(|_| Err(Skipped::Unsupported("an internal error of the CPU backend (a panic)".into())))
}

/// Whether the current predicate skips predicated work: EQUAL_ZERO skips when the 64-bit value
/// is zero, NOT_EQUAL_ZERO when it is not.
fn skipped(p: &Option<(Memory, u64, D3D12_PREDICATION_OP)>) -> bool {
    let Some((mem, off, op)) = p else { return false };
    let mut v = [0u8; 8];
    mem.read(*off, &mut v);
    let zero = u64::from_le_bytes(v) == 0;
    if *op == D3D12_PREDICATION_OP_EQUAL_ZERO {
        zero
    } else {
        !zero
    }
}

/// Copies, clears and resolves of at least this many bytes are split over the workers.
pub const SPLIT_BYTES: u64 = 1 << 19;

/// Bytes per piece of a split byte range.
const PIECE: u64 = 1 << 16;

/// Runs `f` over the pieces `0..n` of work that moves `bytes` bytes in all, the pieces
/// independent (disjoint destination bytes): on the queue's thread when it is small, else in
/// ranges of pieces spread over the workers (up to four ranges a worker, each at least half of
/// [`SPLIT_BYTES`]).
fn split(n: usize, bytes: u64, f: impl Fn(std::ops::Range<usize>) + Sync) {
    split_with(pool::threads(), n, bytes, f)
}

/// [`split`] on up to `threads` workers.
fn split_with(threads: usize, n: usize, bytes: u64, f: impl Fn(std::ops::Range<usize>) + Sync) {
    let ranges = if threads <= 1 || bytes < SPLIT_BYTES {
        1
    } else {
        (bytes / (SPLIT_BYTES / 2)).min(4 * threads as u64).min(n as u64).max(1) as usize
    };
    pool::for_each_with(threads, ranges, |r| f(r * n / ranges..(r + 1) * n / ranges));
}

/// Whether two memories' bytes may be the same: the same allocation with intersecting
/// ranges, or a reserved resource (whose tiles may be any heap's).
fn may_overlap(a: &Memory, b: &Memory) -> bool {
    match (a, b) {
        (Memory::Linear { alloc: x, offset: xo, size: xs }, Memory::Linear { alloc: y, offset: yo, size: ys }) => {
            Arc::ptr_eq(x, y) && *xo < yo + ys && *yo < xo + xs
        }
        _ => true,
    }
}

/// Copies `n` bytes between two byte ranges that do not overlap: when large, in ranges the
/// workers claim ([`split`]; one range on one thread), copied with stores that bypass the
/// caches ([`SharedBytes::stream`]: faster than memmove here even on one core); else one memmove.
fn copy_split(dst: &SharedBytes<'_>, src: &SharedBytes<'_>, n: u64) {
    if n < SPLIT_BYTES {
        dst.copy(0, src, 0, n as usize);
        return;
    }
    split(n.div_ceil(PIECE) as usize, n, |r| {
        let (a, b) = (r.start as u64 * PIECE, (r.end as u64 * PIECE).min(n));
        dst.stream(a, src, a, (b - a) as usize);
    });
}

fn copy_bytes(dst: &Memory, dst_off: u64, src: &Memory, src_off: u64, bytes: u64) {
    match (dst.ptr(dst_off, bytes), src.ptr(src_off, bytes)) {
        (Some(d), Some(s)) if bytes >= SPLIT_BYTES && !ranges_overlap(d, s, bytes) => {
            // SAFETY: both ranges lie inside their memory, which the command holds while it runs.
            let (Some(db), Some(sb)) =
                (unsafe { SharedBytes::new(d, bytes as usize) }, unsafe { SharedBytes::new(s, bytes as usize) })
            else {
                return;
            };
            copy_split(&db, &sb, bytes)
        }
        // SAFETY: both ranges lie inside their memory; memmove semantics for overlap.
        (Some(d), Some(s)) => unsafe { std::ptr::copy(s, d, bytes as usize) },
        _ => {
            // A reserved buffer on either side: go through a bounce buffer in 64 KB pieces.
            let mut buf = vec![0u8; bytes.min(1 << 16) as usize];
            let mut done = 0;
            while done < bytes {
                let n = (bytes - done).min(buf.len() as u64) as usize;
                src.read(src_off + done, &mut buf[..n]);
                dst.write(dst_off + done, &buf[..n]);
                done += n as u64;
            }
        }
    }
}

/// Whether `n` bytes at `a` and at `b` share a byte.
fn ranges_overlap(a: *const u8, b: *const u8, n: u64) -> bool {
    let (a, b) = (a as u64, b as u64);
    a < b + n && b < a + n
}

fn atomic_copy(dst: &Memory, dst_off: u64, src: &Memory, src_off: u64, wide: bool) {
    let n = if wide { 8 } else { 4 };
    match (dst.ptr(dst_off, n), src.ptr(src_off, n)) {
        // SAFETY: aligned (checked at recording) and inside the buffers.
        (Some(d), Some(s)) => unsafe {
            if wide {
                let v = (*(s as *const AtomicU64)).load(Ordering::SeqCst);
                (*(d as *const AtomicU64)).store(v, Ordering::SeqCst);
            } else {
                let v = (*(s as *const AtomicU32)).load(Ordering::SeqCst);
                (*(d as *const AtomicU32)).store(v, Ordering::SeqCst);
            }
        },
        _ => copy_bytes(dst, dst_off, src, src_off, n),
    }
}

fn copy_tiles(tiles: &Memory, indices: &[u32], buffer: &Memory, offset: u64, to_tiles: bool) {
    let Memory::Tiled(map) = tiles else { return };
    let map = map.lock().unwrap_or_else(|e| e.into_inner());
    let mut buf = vec![0u8; crate::work::tiles::TILE as usize];
    for (k, &t) in indices.iter().enumerate() {
        let b = offset + k as u64 * crate::work::tiles::TILE;
        if to_tiles {
            buffer.read(b, &mut buf);
            map.write(t, 0, &buf);
        } else {
            map.read(t, 0, &mut buf);
            buffer.write(b, &buf);
        }
    }
}

/// Byte offset of element row (y, z) of a linear surface.
fn row_offset(s: &Surface, elem: u64, y: u32, z: u32) -> u64 {
    s.offset
        + (s.origin.2 + z) as u64 * s.slice_pitch
        + (s.origin.1 + y) as u64 * s.row_pitch
        + s.origin.0 as u64 * elem
}

/// Reads one row of a surface into `buf` (tiled or linear memory).
fn read_row(memory: &Memory, s: &Surface, elem: u64, y: u32, z: u32, buf: &mut [u8]) {
    match memory {
        Memory::Tiled(map) => {
            let map = map.lock().unwrap_or_else(|e| e.into_inner());
            tiled_row(&map, s, elem, y, z, buf.len(), |tile, off, range| map.read(tile, off, &mut buf[range]));
        }
        m => {
            m.read(row_offset(s, elem, y, z), buf);
        }
    }
}

fn write_row(memory: &Memory, s: &Surface, elem: u64, y: u32, z: u32, buf: &[u8]) {
    match memory {
        Memory::Tiled(map) => {
            let map = map.lock().unwrap_or_else(|e| e.into_inner());
            tiled_row(&map, s, elem, y, z, buf.len(), |tile, off, range| map.write(tile, off, &buf[range]));
        }
        m => {
            m.write(row_offset(s, elem, y, z), buf);
        }
    }
}

/// Walks a row of a reserved texture's subresource in pieces that stay inside one tile.
fn tiled_row(
    map: &TileMap,
    s: &Surface,
    elem: u64,
    y: u32,
    z: u32,
    len: usize,
    mut f: impl FnMut(u32, u64, std::ops::Range<usize>),
) {
    let Some(sub) = s.subresource else { return };
    let (x0, yy, zz) = (s.origin.0, s.origin.1 + y, s.origin.2 + z);
    let count = (len as u64 / elem) as u32;
    let tw = map.tile_row_elements();
    let mut x = 0;
    while x < count {
        let n = (tw - (x0 + x) % tw).min(count - x);
        let range = (x as u64 * elem) as usize..((x + n) as u64 * elem) as usize;
        if let Some((tile, off)) = map.locate(sub, x0 + x, yy, zz) {
            f(tile, off, range);
        } else {
            // Packed mips: tight layout inside the packed tiles, piece by piece across tiles.
            let row_start = (zz as u64 * s.slice_pitch) + yy as u64 * s.row_pitch + (x0 + x) as u64 * elem;
            let mut pos = 0u64;
            let total = n as u64 * elem;
            while pos < total {
                let Some((tile, off)) = map.packed_address(sub, row_start + pos) else { break };
                let piece = (crate::work::tiles::TILE - off).min(total - pos);
                let start = range.start + pos as usize;
                f(tile, off, start..start + piece as usize);
                pos += piece;
            }
        }
        x += n;
    }
}

/// A CopyTextureRegion / CopyResource plan: every sample of a multisampled copy (each one
/// `sample_stride` further on both sides), row by row.
fn copy_texture(dst: &TexSide, src: &TexSide, plan: &CopyPlan) {
    for k in 0..plan.samples.max(1) as u64 {
        let at_sample = |s: &Surface| Surface { offset: s.offset + k * s.sample_stride, ..*s };
        copy_surface(dst, &at_sample(&plan.dst), src, &at_sample(&plan.src), plan);
    }
}

/// One sample of a copy plan, between the surfaces `ds` and `ss`.
fn copy_surface(dst: &TexSide, ds: &Surface, src: &TexSide, ss: &Surface, plan: &CopyPlan) {
    let elem = plan.element_bytes as u64;
    let (_, rows, depth) = plan.extent;
    let row_bytes = plan.row_bytes;
    let linear = |m: &Memory| matches!(m, Memory::Linear { .. });
    if linear(&dst.memory) && linear(&src.memory) && !plan.zero_x8 {
        // Fast path: one bounds check for the whole region, then memmove per row (one memmove
        // when both sides are contiguous).
        let last = |s: &Surface| row_offset(s, elem, rows.saturating_sub(1), depth.saturating_sub(1)) + row_bytes;
        let first = |s: &Surface| row_offset(s, elem, 0, 0);
        let (dspan, sspan) = (last(ds) - first(ds), last(ss) - first(ss));
        let (Some(d0), Some(s0)) = (dst.memory.ptr(first(ds), dspan), src.memory.ptr(first(ss), sspan)) else {
            return;
        };
        // SAFETY: both spans were bounds-checked just above, and the command holds the memory
        // while it runs.
        let spans = unsafe { SharedBytes::new(d0, dspan as usize).zip(SharedBytes::new(s0, sspan as usize)) };
        let Some((db, sb)) = spans else { return };
        let total = row_bytes * rows as u64 * depth as u64;
        // Overlapping spans (one allocation) are copied in order, as memmove per row.
        let apart = !may_overlap(&dst.memory, &src.memory);
        let contiguous = |s: &Surface| s.row_pitch == row_bytes && s.slice_pitch == row_bytes * rows as u64;
        if contiguous(ds) && contiguous(ss) {
            if apart {
                copy_split(&db, &sb, total);
            } else {
                db.copy(0, &sb, 0, total as usize);
            }
            return;
        }
        // Large copies between apart memories stream their rows past the caches, as
        // contiguous ones do (copy_split).
        let stream = apart && total >= SPLIT_BYTES;
        let copy_rows = |r: std::ops::Range<usize>| {
            for i in r {
                let (y, z) = ((i % rows as usize) as u32, (i / rows as usize) as u32);
                let d = row_offset(ds, elem, y, z) - first(ds);
                let s = row_offset(ss, elem, y, z) - first(ss);
                if stream {
                    db.stream(d, &sb, s, row_bytes as usize);
                } else {
                    db.copy(d, &sb, s, row_bytes as usize);
                }
            }
        };
        let n = rows as usize * depth as usize;
        if apart {
            split(n, total, copy_rows);
        } else {
            copy_rows(0..n);
        }
        return;
    }
    let copy_rows = |r: std::ops::Range<usize>| {
        let mut buf = vec![0u8; row_bytes as usize];
        for i in r {
            let (y, z) = ((i % rows as usize) as u32, (i / rows as usize) as u32);
            read_row(&src.memory, ss, elem, y, z, &mut buf);
            if plan.zero_x8 {
                // D24's depth plane: bits 24–31 of each 4-byte element are zero.
                buf.chunks_exact_mut(4).for_each(|e| e[3] = 0);
            }
            write_row(&dst.memory, ds, elem, y, z, &buf);
        }
    };
    let n = rows as usize * depth as usize;
    if may_overlap(&dst.memory, &src.memory) {
        copy_rows(0..n);
    } else {
        split(n, row_bytes * n as u64, copy_rows);
    }
}

/// A clear: `element` repeated over every row of every fill (reserved textures through their
/// tile maps; reserved buffers by byte offset).
fn fill(memory: &Memory, fills: &[rd3d12_core::clear::Fill], element: &[u8]) {
    let elem = element.len() as u32;
    // SAFETY: the command holds the memory while it runs.
    let linear = unsafe { linear_bytes(memory) };
    for f in fills {
        let row = element.repeat(f.extent.0 as usize);
        match (&linear, f.surface.subresource) {
            (Some(bytes), _) => {
                // Rows of linear memory, split over the workers when large: distinct rows.
                let rows: Vec<u64> = f.rows(elem).map(|(off, _, _)| off).collect();
                split(rows.len(), rows.len() as u64 * row.len() as u64, |r| {
                    for &off in &rows[r] {
                        bytes.put(off, &row);
                    }
                });
            }
            (None, Some(_)) => {
                for (_, y, z) in f.rows(elem) {
                    write_row(memory, &f.surface, elem as u64, y, z, &row);
                }
            }
            (None, None) => {
                for (off, _, _) in f.rows(elem) {
                    memory.write(off, &row);
                }
            }
        }
    }
}

/// ResolveSubresource(Region): per row, every sample's row of the source, combined by
/// [`rd3d12_core::resolve::resolve_row`] into the destination row (DECOMPRESS: each sample's
/// row copied to the same sample of the destination). Multisampled resources are never
/// reserved, so their rows are plain offsets; a single-sampled destination may be reserved.
fn resolve(dst: &Memory, src: &Memory, plan: &rd3d12_core::resolve::ResolvePlan) {
    use rd3d12_core::resolve::{resolve_row, Mode};
    let (eb, n) = (plan.element_bytes, plan.row_bytes());
    let resolve_rows = |r: std::ops::Range<usize>| {
        let mut rows = vec![vec![0u8; n]; plan.samples as usize];
        let mut out = vec![0u8; n];
        for y in r.map(|y| y as u32) {
            for (row, off) in rows.iter_mut().zip(plan.src_rows(y)) {
                src.read(off, row);
            }
            if plan.mode == Mode::Decompress {
                for (s, row) in rows.iter().enumerate() {
                    dst.write(plan.dst.row_offset(eb, s as u32, y, 0), row);
                }
                continue;
            }
            read_row(dst, &plan.dst, eb as u64, y, 0, &mut out);
            let refs: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
            resolve_row(plan.format, plan.mode, eb, &refs, &mut out);
            write_row(dst, &plan.dst, eb as u64, y, 0, &out);
        }
    };
    // Rows are independent: split them over the workers unless source and destination may
    // share bytes.
    let h = plan.extent.1 as usize;
    if may_overlap(dst, src) {
        resolve_rows(0..h);
    } else {
        split(h, (n as u64) * u64::from(plan.samples.max(1)) * h as u64, resolve_rows);
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The ranges `split_with` hands out for `n` pieces of `bytes` bytes.
    fn ranges(threads: usize, n: usize, bytes: u64) -> Vec<std::ops::Range<usize>> {
        let seen = Mutex::new(Vec::new());
        split_with(threads, n, bytes, |r| seen.lock().unwrap().push(r));
        let mut v = seen.into_inner().unwrap();
        v.sort_by_key(|r| r.start);
        v
    }

    #[test]
    fn small_work_stays_whole_and_large_work_covers_every_piece_once() {
        // Under SPLIT_BYTES, or on one thread: one range, all pieces.
        assert_eq!(ranges(4, 100, SPLIT_BYTES - 1), vec![0..100]);
        assert_eq!(ranges(1, 100, 1 << 30), vec![0..100]);
        // 64 MiB in 1024 rows on 2 workers: 8 ranges (4 a worker) of 128 rows, in order.
        let r = ranges(2, 1024, 64 << 20);
        assert_eq!(r, (0..8).map(|k| 128 * k..128 * (k + 1)).collect::<Vec<_>>());
        // Each range is at least half of SPLIT_BYTES; never more ranges than pieces.
        assert_eq!(ranges(8, 1000, SPLIT_BYTES).len(), 2);
        assert_eq!(ranges(8, 3, 1 << 30), vec![0..1, 1..2, 2..3]);
        // Uneven counts: consecutive ranges that end at n.
        let r = ranges(3, 1001, 1 << 30);
        assert_eq!(r.len(), 12);
        assert!(r.windows(2).all(|w| w[0].end == w[1].start) && r[0].start == 0 && r[11].end == 1001);
    }
}
