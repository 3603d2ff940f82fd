//! What executing a list does to its resources' states, the same whatever backend executes
//! it: the list's recorded ends (implicit promotion of first uses, explicit barriers) applied
//! after its commands, with the debug layer's checks of its first uses; decay after each
//! submission; and deferred AssertResourceState (commands-and-sync.md §4).

use crate::work::commands::{Recorded, States, SubState};
use rd3d12_sys::*;
use std::sync::Arc;

/// The states a list's ends start from, taken before its commands run (only with the debug
/// layer on, whose checks of the list's first uses and StateBefore values are against the
/// states the list started from; empty otherwise). Barrier commands move states while the
/// list runs; the resulting states do not depend on this: a subresource the list transitions
/// ends in the list's state, one it only uses was not moved by a barrier.
pub fn entry_states(list: &Recorded) -> Vec<Option<SubState>> {
    let state_of = |end: &rd3d12_core::states::SubresourceEnd| {
        let t = list.touched.iter().find(|t| t.id == end.resource_id)?;
        let s = t.states.lock().unwrap_or_else(|e| e.into_inner());
        s.get(end.subresource as usize).copied()
    };
    if crate::debug::active() {
        list.ends.iter().map(state_of).collect()
    } else {
        Vec::new()
    }
}

/// After a list's commands ran: applies what the list did to its subresources' states
/// (`entry`: [`entry_states`] before it ran), reporting the debug layer's warnings.
pub fn apply_ends(list: &Recorded, entry: &[Option<SubState>]) {
    for (i, end) in list.ends.iter().enumerate() {
        let Some(t) = list.touched.iter().find(|t| t.id == end.resource_id) else { continue };
        let mut s = t.states.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(cur) = s.get_mut(end.subresource as usize) {
            let start = entry.get(i).copied().flatten().unwrap_or(*cur);
            let a = end.apply(start.state, start.promoted, t.is_buffer || t.simultaneous);
            for w in &a.warnings {
                crate::debug::report_parts(
                    "ID3D12CommandQueue::ExecuteCommandLists",
                    D3D12_MESSAGE_CATEGORY_EXECUTION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    w.id.0,
                    &w.message,
                );
            }
            *cur = SubState { state: a.state, promoted: a.promoted };
        }
    }
}

/// After an ExecuteCommandLists: states decay to COMMON for buffers, simultaneous-access
/// textures, anything used on a copy queue, and subresources implicitly promoted to read-only
/// states (commands-and-sync.md §4.3).
pub fn end_of_submission(lists: &[Arc<Recorded>], copy_queue: bool) {
    for l in lists {
        for t in &l.touched {
            let mut s = t.states.lock().unwrap_or_else(|e| e.into_inner());
            for v in s.iter_mut() {
                let promoted_read = v.promoted && rd3d12_core::states::is_read_only(v.state);
                if rd3d12_core::states::decays(t.is_buffer, t.simultaneous, copy_queue, promoted_read) {
                    *v = SubState::default();
                }
            }
        }
    }
}

/// A deferred AssertResourceState: the subresource's state as the queue left it.
pub fn assert_state(states: &States, id: u64, sub: u32, state: u32) {
    let cur = states.lock().unwrap_or_else(|e| e.into_inner()).get(sub as usize).map(|s| s.state);
    if let Some(cur) = cur.filter(|&c| c != state) {
        crate::debug::report_parts(
            "ID3D12CommandQueue::ExecuteCommandLists",
            D3D12_MESSAGE_CATEGORY_EXECUTION,
            D3D12_MESSAGE_SEVERITY_ERROR,
            D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE.0,
            &format!(
                "AssertResourceState: resource 0x{id:016X} subresource {sub} is in state 0x{cur:x}, not the asserted 0x{state:x}."
            ),
        );
    }
}
