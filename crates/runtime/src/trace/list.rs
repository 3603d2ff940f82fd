//! One executing command list's part of the trace: a slice per draw, dispatch, ExecuteIndirect,
//! copy, clear, resolve and bundle, with its counts, nested under the list's PIX events.

use super::{json_str, now_us, slice, Events};
use crate::work::commands::{Command, DrawRange};
use std::fmt::Write as _;

/// The trace of the list executing on a queue's track.
pub struct ListTrace {
    tid: u32,
    events: Events,
}

impl ListTrace {
    pub fn new(tid: u32) -> ListTrace {
        ListTrace { tid, events: Events::default() }
    }

    /// The time a command starts.
    pub fn start(&self) -> f64 {
        now_us()
    }

    /// A SetMarker / BeginEvent / EndEvent of the list, reached now.
    pub fn marker(&mut self, m: &(u8, u32, Vec<u8>)) {
        self.events.marker(self.tid, m.0, m.1, &m.2, now_us());
    }

    /// `c` ran from `t0` until now; `before` and `after` are the list's pipeline-statistics
    /// counters (D3D12_QUERY_DATA_PIPELINE_STATISTICS1's order) around it.
    pub fn command(&mut self, c: &Command, t0: f64, before: &[u64], after: &[u64]) {
        let d = |i: usize| after.get(i).unwrap_or(&0).saturating_sub(*before.get(i).unwrap_or(&0));
        let pipeline = |exe| match super::pipeline_name(exe) {
            Some(n) => format!("\"pipeline\":{},", json_str(&n)),
            None => String::new(),
        };
        let mut args = String::from("{");
        let name: String = match c {
            Command::CopyBuffer { bytes, .. } => {
                let _ = write!(args, "\"bytes\":{bytes}");
                "CopyBufferRegion".into()
            }
            Command::CopyTexture { .. } => "CopyTextureRegion".into(),
            Command::CopyTiles { tile_indices, .. } => {
                let _ = write!(args, "\"tiles\":{}", tile_indices.len());
                "CopyTiles".into()
            }
            Command::Fill { fills, .. } => {
                let _ = write!(args, "\"rects\":{}", fills.len());
                "Clear".into()
            }
            Command::ResolveTexture { .. } => "ResolveSubresource".into(),
            Command::Resolve { count, .. } => {
                let _ = write!(args, "\"queries\":{count}");
                "ResolveQueryData".into()
            }
            Command::Bundle(_) => "ExecuteBundle".into(),
            Command::Draw(w) => {
                let _ = write!(
                    args,
                    "{}\"vertices\":{},\"primitives\":{},\"vertex_invocations\":{},\"pixels_shaded\":{},\"instances\":{}",
                    pipeline(&w.pipeline),
                    d(0),
                    d(1),
                    d(2),
                    d(7),
                    w.instances
                );
                match w.range {
                    DrawRange::Vertices { .. } => "DrawInstanced".into(),
                    DrawRange::Indexed { .. } => "DrawIndexedInstanced".into(),
                }
            }
            Command::Dispatch(w) => {
                let [x, y, z] = w.groups;
                let groups = u64::from(x) * u64::from(y) * u64::from(z);
                let _ = write!(
                    args,
                    "{}\"thread_groups\":{groups},\"groups\":[{x},{y},{z}],\"threads\":{}",
                    pipeline(&w.pipeline),
                    d(10)
                );
                "Dispatch".into()
            }
            Command::Indirect(w) => {
                let _ = write!(
                    args,
                    "\"max_commands\":{},\"vertices\":{},\"pixels_shaded\":{},\"threads\":{}",
                    w.max,
                    d(0),
                    d(7),
                    d(10)
                );
                "ExecuteIndirect".into()
            }
            Command::ShaderWork { what, why } => {
                let _ = write!(args, "\"skipped\":{}", json_str(why));
                format!("{what} (skipped)")
            }
            // State, queries, barriers and markers take no time of their own.
            _ => return,
        };
        args.push('}');
        slice(self.tid, &name, "gpu", t0, now_us(), &args);
    }

    /// The list ended: events it left open end with it.
    pub fn end(&mut self) {
        self.events.close_all(self.tid, now_us());
    }
}
