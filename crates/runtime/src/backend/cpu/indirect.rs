//! ExecuteIndirect on the CPU: the argument buffer is read when the list executes (as the GPU
//! reads it), command by command; each command's arguments change a copy of the recorded state
//! (vertex and index buffer views, root constants, root CBV/SRV/UAV addresses) and end in a
//! draw, an indexed draw or a dispatch, run as [`super::draw`] and [`super::compute`] run
//! theirs. Buffer addresses resolve through the device's address registry at execution; one that
//! lies in no live buffer reads as no buffer.

use super::draw::Skipped;
use crate::work::commands::{Binds, DrawRange, IndirectBase, IndirectWork};
use crate::work::memory::Memory;
use crate::work::state::{RootArg, RootView};
use rd3d12_core::indirect::Argument;
use rd3d12_core::root_signature::ParameterKind;
use rd3d12_swgpu::compute::DispatchStats;
use rd3d12_swgpu::draw::DrawStats;
use rd3d12_sys::*;

/// What one executed command did.
pub enum Ran {
    Draw(DrawStats),
    Dispatch(DispatchStats),
}

fn word(b: &[u8], at: usize) -> u32 {
    b.get(at..at + 4).map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
}

fn dword(b: &[u8], at: usize) -> u64 {
    u64::from(word(b, at)) | u64::from(word(b, at + 4)) << 32
}

/// Root constants `values` written from `offset` into root parameter `index`'s values.
fn set_constants(binds: &mut Binds, index: u32, offset: u32, values: &[u32]) {
    let n = match binds.root.as_deref().and_then(|r| r.parameters.get(index as usize)).map(|p| &p.kind) {
        Some(ParameterKind::Constants(c)) => c.num_32bit_values as usize,
        _ => return,
    };
    let mut all = match binds.root_args.iter().find(|a| a.0 == index) {
        Some((_, RootArg::Constants(0, v))) => v.clone(),
        _ => vec![0; n],
    };
    all.resize(n, 0);
    for (k, v) in values.iter().enumerate() {
        if let Some(d) = all.get_mut(offset as usize + k) {
            *d = *v;
        }
    }
    binds.root_args.retain(|a| a.0 != index);
    binds.root_args.push((index, RootArg::Constants(0, all)));
}

fn set_view(binds: &mut Binds, index: u32, kind: RootView, va: u64) {
    binds.root_args.retain(|a| a.0 != index);
    binds.root_args.push((index, RootArg::View(kind, va)));
}

/// Runs an ExecuteIndirect; `each` sees what every command did. Each command must finish
/// within `timeout` (the queue's GPU timeout); the first that does not ends the run.
pub fn run(w: &IndirectWork, mut each: impl FnMut(Result<Ran, Skipped>), timeout: Option<std::time::Duration>) {
    let count = match &w.count {
        Some((m, off)) => {
            let mut b = [0u8; 4];
            m.read(*off, &mut b);
            u32::from_le_bytes(b).min(w.max)
        }
        None => w.max,
    };
    let stride = u64::from(w.layout.byte_stride);
    let size = w.layout.command_size as usize;
    let mut record = vec![0u8; size];
    for k in 0..u64::from(count) {
        let (m, base) = &w.args;
        if !m.read(base + k * stride, &mut record) {
            break;
        }
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        let r = rd3d12_shader::interp::with_deadline(deadline, || run_one(w, &record));
        let hung = matches!(r, Err(Skipped::Hung));
        each(r);
        if hung {
            break;
        }
    }
}

fn run_one(w: &IndirectWork, rec: &[u8]) -> Result<Ran, Skipped> {
    match &w.base {
        IndirectBase::Draw(base) => {
            let mut d = (**base).clone_for_indirect();
            for (arg, at) in &w.layout.arguments {
                let at = *at as usize;
                let resolve = |va: u64, size: u32| -> Option<(Memory, u64)> {
                    if va == 0 || size == 0 {
                        None
                    } else {
                        d.binds.lookup.va.resolve(va, u64::from(size))
                    }
                };
                match *arg {
                    Argument::Draw => {
                        d.range = DrawRange::Vertices { count: word(rec, at), start: word(rec, at + 8) };
                        d.instances = word(rec, at + 4);
                        d.start_instance = word(rec, at + 12);
                    }
                    Argument::DrawIndexed => {
                        d.range = DrawRange::Indexed {
                            count: word(rec, at),
                            start_index: word(rec, at + 8),
                            base_vertex: word(rec, at + 12) as i32,
                        };
                        d.instances = word(rec, at + 4);
                        d.start_instance = word(rec, at + 16);
                    }
                    Argument::VertexBuffer { slot } => {
                        let (va, size, stride) = (dword(rec, at), word(rec, at + 8), word(rec, at + 12));
                        let slot = slot as usize;
                        if d.vertex_buffers.len() <= slot {
                            d.vertex_buffers.resize(slot + 1, None);
                        }
                        d.vertex_buffers[slot] = resolve(va, size).map(|(m, o)| (m, o, size, stride));
                    }
                    Argument::IndexBuffer => {
                        let (va, size, format) = (dword(rec, at), word(rec, at + 8), word(rec, at + 12));
                        d.index_buffer = resolve(va, size).map(|(m, o)| (m, o, size, DXGI_FORMAT(format as _)));
                    }
                    Argument::Constant { root_index, dest_offset, count } => {
                        let values: Vec<u32> = (0..count as usize).map(|i| word(rec, at + 4 * i)).collect();
                        set_constants(&mut d.binds, root_index, dest_offset, &values);
                    }
                    Argument::Cbv { root_index } => set_view(&mut d.binds, root_index, RootView::Cbv, dword(rec, at)),
                    Argument::Srv { root_index } => set_view(&mut d.binds, root_index, RootView::Srv, dword(rec, at)),
                    Argument::Uav { root_index } => set_view(&mut d.binds, root_index, RootView::Uav, dword(rec, at)),
                    Argument::Dispatch => {}
                }
            }
            if d.instances == 0 {
                return Ok(Ran::Draw(DrawStats::default()));
            }
            super::draw::run(&d).map(Ran::Draw)
        }
        IndirectBase::Dispatch(base) => {
            let mut binds = base.binds.clone();
            let mut groups = [0u32; 3];
            for (arg, at) in &w.layout.arguments {
                let at = *at as usize;
                match *arg {
                    Argument::Dispatch => groups = [word(rec, at), word(rec, at + 4), word(rec, at + 8)],
                    Argument::Constant { root_index, dest_offset, count } => {
                        let values: Vec<u32> = (0..count as usize).map(|i| word(rec, at + 4 * i)).collect();
                        set_constants(&mut binds, root_index, dest_offset, &values);
                    }
                    Argument::Cbv { root_index } => set_view(&mut binds, root_index, RootView::Cbv, dword(rec, at)),
                    Argument::Srv { root_index } => set_view(&mut binds, root_index, RootView::Srv, dword(rec, at)),
                    Argument::Uav { root_index } => set_view(&mut binds, root_index, RootView::Uav, dword(rec, at)),
                    _ => {}
                }
            }
            let max = D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION;
            if groups.contains(&0) {
                return Ok(Ran::Dispatch(DispatchStats::default()));
            }
            if groups.iter().any(|g| *g > max) {
                return Err(Skipped::Unsupported("an indirect dispatch of more than 65535 groups on an axis".into()));
            }
            let work = crate::work::commands::DispatchWork { pipeline: base.pipeline.clone(), binds, groups };
            super::compute::run(&work).map(Ran::Dispatch)
        }
    }
}
