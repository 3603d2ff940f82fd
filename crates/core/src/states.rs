//! Resource states and ResourceBarrier validation (commands-and-sync.md §4–§5).
//!
//! * [`is_valid_state`], [`is_write_state`], [`is_read_only`] — the state classes of §4.1.
//! * [`validate_transition`] / [`validate_barrier_flags`] — the per-barrier rules of §5
//!   (errors make the command list's Close return E_INVALIDARG; a few findings are
//!   warnings only and are returned separately).
//! * [`ListStates`] — per-command-list tracking: before/after consistency inside one list
//!   (#527), split-barrier pairing (#533–#535, #957) and implicit promotion from COMMON
//!   (§4.2, debug-layer findings only).
//! * [`promote`] / [`is_promotable`] / [`decays`] — the promotion table of §4.2 and the
//!   decay rule of §4.3, for the queue-side state tracking at ExecuteCommandLists.
//!
//! States are plain `u32` values of `D3D12_RESOURCE_STATES`.

use core::fmt;
use std::collections::BTreeMap;

use rd3d12_sys as sys;
use rd3d12_sys::D3D12_RESOURCE_DESC1;

use crate::error::{msg, MessageId};

/// One finding of a command-list validator: the debug-layer message ID (d3d12sdklayers.h)
/// and a human-readable text. As an `Err` it is an error (Close returns E_INVALIDARG and
/// the command is dropped); where a function returns it as a warning it is a debug-layer
/// message only and the command stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// D3D12_MESSAGE_ID.
    pub id: MessageId,
    /// Human-readable text.
    pub message: String,
}

impl Violation {
    /// A violation with message `message`.
    pub fn new(id: MessageId, message: impl Into<String>) -> Self {
        Violation { id, message: message.into() }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.id, self.message)
    }
}

impl std::error::Error for Violation {}

// ---------------------------------------------------------------------------------------
// State bits (§4.1).

/// D3D12_RESOURCE_STATE_COMMON (= PRESENT).
pub const COMMON: u32 = sys::D3D12_RESOURCE_STATE_COMMON.0;
const VCB: u32 = sys::D3D12_RESOURCE_STATE_VERTEX_AND_CONSTANT_BUFFER.0;
const IB: u32 = sys::D3D12_RESOURCE_STATE_INDEX_BUFFER.0;
const RT: u32 = sys::D3D12_RESOURCE_STATE_RENDER_TARGET.0;
const UAV: u32 = sys::D3D12_RESOURCE_STATE_UNORDERED_ACCESS.0;
const DEPTH_WRITE: u32 = sys::D3D12_RESOURCE_STATE_DEPTH_WRITE.0;
const DEPTH_READ: u32 = sys::D3D12_RESOURCE_STATE_DEPTH_READ.0;
const NPSR: u32 = sys::D3D12_RESOURCE_STATE_NON_PIXEL_SHADER_RESOURCE.0;
const PSR: u32 = sys::D3D12_RESOURCE_STATE_PIXEL_SHADER_RESOURCE.0;
const SO: u32 = sys::D3D12_RESOURCE_STATE_STREAM_OUT.0;
const INDIRECT: u32 = sys::D3D12_RESOURCE_STATE_INDIRECT_ARGUMENT.0;
const COPY_DEST: u32 = sys::D3D12_RESOURCE_STATE_COPY_DEST.0;
const COPY_SOURCE: u32 = sys::D3D12_RESOURCE_STATE_COPY_SOURCE.0;
const RESOLVE_DEST: u32 = sys::D3D12_RESOURCE_STATE_RESOLVE_DEST.0;
const RESOLVE_SOURCE: u32 = sys::D3D12_RESOURCE_STATE_RESOLVE_SOURCE.0;
const RTAS: u32 = sys::D3D12_RESOURCE_STATE_RAYTRACING_ACCELERATION_STRUCTURE.0;
const SRS: u32 = sys::D3D12_RESOURCE_STATE_SHADING_RATE_SOURCE.0;
const VD_READ: u32 = sys::D3D12_RESOURCE_STATE_VIDEO_DECODE_READ.0;
const VD_WRITE: u32 = sys::D3D12_RESOURCE_STATE_VIDEO_DECODE_WRITE.0;
const VP_READ: u32 = sys::D3D12_RESOURCE_STATE_VIDEO_PROCESS_READ.0;
const VP_WRITE: u32 = sys::D3D12_RESOURCE_STATE_VIDEO_PROCESS_WRITE.0;
const VE_READ: u32 = sys::D3D12_RESOURCE_STATE_VIDEO_ENCODE_READ.0;
const VE_WRITE: u32 = sys::D3D12_RESOURCE_STATE_VIDEO_ENCODE_WRITE.0;
/// D3D12_RESOURCE_STATE_GENERIC_READ (0xAC3).
pub const GENERIC_READ: u32 = sys::D3D12_RESOURCE_STATE_GENERIC_READ.0;

/// Write and read/write state bits (at most one may be set, and then nothing else).
/// RAYTRACING_ACCELERATION_STRUCTURE counts as read/write.
pub const WRITE_STATES: u32 =
    RT | UAV | DEPTH_WRITE | SO | COPY_DEST | RESOLVE_DEST | VD_WRITE | VP_WRITE | VE_WRITE | RTAS;
/// Read-only state bits (any combination is valid).
pub const READ_STATES: u32 =
    VCB | IB | DEPTH_READ | NPSR | PSR | INDIRECT | COPY_SOURCE | RESOLVE_SOURCE | VD_READ | VP_READ | VE_READ | SRS;
/// Every known state bit.
pub const KNOWN_STATES: u32 = WRITE_STATES | READ_STATES;
/// D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES.
pub const ALL_SUBRESOURCES: u32 = sys::D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;

/// States COMMON may implicitly promote to for every resource (§4.2).
pub const PROMOTABLE_ANY: u32 = NPSR | PSR | COPY_DEST | COPY_SOURCE;
/// States COMMON may implicitly promote to for buffers and simultaneous-access textures.
pub const PROMOTABLE_SIMULTANEOUS: u32 =
    PROMOTABLE_ANY | VCB | IB | RT | UAV | SO | INDIRECT | RESOLVE_DEST | RESOLVE_SOURCE;

/// States a COMPUTE list may transition into or out of (§4.4).
pub const COMPUTE_STATES: u32 = VCB | NPSR | UAV | COPY_DEST | COPY_SOURCE | INDIRECT;
/// States a COPY list may transition into or out of (§4.4).
pub const COPY_STATES: u32 = COPY_DEST | COPY_SOURCE;

/// A valid `D3D12_RESOURCE_STATES` value: only known bits; at most one write (or
/// read/write) bit and, if one is set, nothing else; read bits combine freely. COMMON
/// (0) is valid.
pub const fn is_valid_state(s: u32) -> bool {
    if s & !KNOWN_STATES != 0 {
        return false;
    }
    let w = s & WRITE_STATES;
    w == 0 || (w.is_power_of_two() && s == w)
}

/// The state contains a write (or read/write) bit.
pub const fn is_write_state(s: u32) -> bool {
    s & WRITE_STATES != 0
}

/// The state is a non-empty combination of read-only bits (COMMON is not read-only).
pub const fn is_read_only(s: u32) -> bool {
    s != 0 && s & !READ_STATES == 0
}

/// Whether COMMON may be implicitly promoted to `s` (every bit of a non-empty `s` in the
/// promotable set of §4.2). Depth states never promote.
pub const fn is_promotable(s: u32, is_buffer_or_simultaneous: bool) -> bool {
    let set = if is_buffer_or_simultaneous { PROMOTABLE_SIMULTANEOUS } else { PROMOTABLE_ANY };
    s != 0 && s & !set == 0
}

/// Implicit promotion (§4.2): the state after using a subresource in `current` (with
/// `promoted` = reached by implicit promotion) as `use_state`, and whether the result is
/// a promoted state; `None` when the use needs an explicit barrier.
///
/// * `current` already contains every bit of the use → unchanged (e.g. COPY_DEST promoted
///   then used as COPY_DEST again; GENERIC_READ used as COPY_SOURCE);
/// * `current` is COMMON and the use is promotable → promoted to the use;
/// * `current` is a promoted read-only state and the use is a promotable read → reads
///   accumulate (PSR then NON_PSR → PSR|NON_PSR);
/// * a use as COMMON (e.g. present) needs COMMON.
pub const fn promote(
    current: u32,
    promoted: bool,
    is_buffer_or_simultaneous: bool,
    use_state: u32,
) -> Option<(u32, bool)> {
    if use_state == COMMON {
        return if current == COMMON { Some((current, promoted)) } else { None };
    }
    if !is_valid_state(use_state) {
        return None;
    }
    if current != COMMON && current & use_state == use_state {
        return Some((current, promoted));
    }
    if current == COMMON && is_promotable(use_state, is_buffer_or_simultaneous) {
        return Some((use_state, true));
    }
    if promoted
        && is_read_only(current)
        && is_read_only(use_state)
        && is_promotable(use_state, is_buffer_or_simultaneous)
    {
        return Some((current | use_state, true));
    }
    None
}

/// Whether a subresource decays to COMMON when an ExecuteCommandLists operation completes
/// (§4.3): it was accessed on a COPY queue, or it is a buffer, or a simultaneous-access
/// (or cross-adapter) texture, or it was implicitly promoted to a read-only state (and not
/// explicitly transitioned afterwards). There is no decay between the lists of one call.
pub const fn decays(is_buffer: bool, simultaneous: bool, on_copy_queue: bool, promoted_read_only: bool) -> bool {
    is_buffer || simultaneous || on_copy_queue || promoted_read_only
}

// ---------------------------------------------------------------------------------------
// Heaps and list types.

/// Where a resource lives, as far as the barrier and copy rules care.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum HeapKind {
    /// D3D12_HEAP_TYPE_DEFAULT (committed or placed).
    Default,
    /// D3D12_HEAP_TYPE_UPLOAD: stays in GENERIC_READ.
    Upload,
    /// D3D12_HEAP_TYPE_READBACK: stays in COPY_DEST.
    Readback,
    /// D3D12_HEAP_TYPE_CUSTOM.
    Custom,
    /// A reserved (tiled) resource: no heap of its own.
    Reserved,
}

impl HeapKind {
    /// The kind of a committed/placed resource on a heap of type `t`; `None` for values
    /// outside the enum.
    pub fn from_heap_type(t: sys::D3D12_HEAP_TYPE) -> Option<Self> {
        match t {
            sys::D3D12_HEAP_TYPE_DEFAULT => Some(HeapKind::Default),
            sys::D3D12_HEAP_TYPE_UPLOAD => Some(HeapKind::Upload),
            sys::D3D12_HEAP_TYPE_READBACK => Some(HeapKind::Readback),
            sys::D3D12_HEAP_TYPE_CUSTOM => Some(HeapKind::Custom),
            _ => None,
        }
    }
}

/// D3D12_COMMAND_LIST_TYPE.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ListType {
    /// DIRECT (0).
    Direct,
    /// BUNDLE (1).
    Bundle,
    /// COMPUTE (2).
    Compute,
    /// COPY (3).
    Copy,
    /// VIDEO_DECODE (4).
    VideoDecode,
    /// VIDEO_PROCESS (5).
    VideoProcess,
    /// VIDEO_ENCODE (6).
    VideoEncode,
}

impl ListType {
    /// From the raw enum; `None` for NONE (−1) and unknown values.
    pub fn from_raw(t: sys::D3D12_COMMAND_LIST_TYPE) -> Option<Self> {
        match t {
            sys::D3D12_COMMAND_LIST_TYPE_DIRECT => Some(ListType::Direct),
            sys::D3D12_COMMAND_LIST_TYPE_BUNDLE => Some(ListType::Bundle),
            sys::D3D12_COMMAND_LIST_TYPE_COMPUTE => Some(ListType::Compute),
            sys::D3D12_COMMAND_LIST_TYPE_COPY => Some(ListType::Copy),
            sys::D3D12_COMMAND_LIST_TYPE_VIDEO_DECODE => Some(ListType::VideoDecode),
            sys::D3D12_COMMAND_LIST_TYPE_VIDEO_PROCESS => Some(ListType::VideoProcess),
            sys::D3D12_COMMAND_LIST_TYPE_VIDEO_ENCODE => Some(ListType::VideoEncode),
            _ => None,
        }
    }

    /// The raw enum value.
    pub fn raw(self) -> sys::D3D12_COMMAND_LIST_TYPE {
        match self {
            ListType::Direct => sys::D3D12_COMMAND_LIST_TYPE_DIRECT,
            ListType::Bundle => sys::D3D12_COMMAND_LIST_TYPE_BUNDLE,
            ListType::Compute => sys::D3D12_COMMAND_LIST_TYPE_COMPUTE,
            ListType::Copy => sys::D3D12_COMMAND_LIST_TYPE_COPY,
            ListType::VideoDecode => sys::D3D12_COMMAND_LIST_TYPE_VIDEO_DECODE,
            ListType::VideoProcess => sys::D3D12_COMMAND_LIST_TYPE_VIDEO_PROCESS,
            ListType::VideoEncode => sys::D3D12_COMMAND_LIST_TYPE_VIDEO_ENCODE,
        }
    }

    /// State bits a transition on a list of this type may name (COMMON is always
    /// allowed). DIRECT: every bit. BUNDLE: none (ResourceBarrier is not a bundle command).
    /// Video lists: their own read/write pair (REC; the sources read do not list them).
    pub const fn allowed_states(self) -> u32 {
        match self {
            ListType::Direct => KNOWN_STATES,
            ListType::Bundle => 0,
            ListType::Compute => COMPUTE_STATES,
            ListType::Copy => COPY_STATES,
            ListType::VideoDecode => VD_READ | VD_WRITE,
            ListType::VideoProcess => VP_READ | VP_WRITE,
            ListType::VideoEncode => VE_READ | VE_WRITE,
        }
    }
}

// ---------------------------------------------------------------------------------------
// Per-barrier validation (§5).

/// Validates one TRANSITION barrier on a resource (`pResource != NULL` is the caller's
/// check, #520). Returns the warnings (debug-layer messages that do not drop the barrier)
/// or the first error. Checks, in order:
///
/// 1. `subresource` < `subresource_count` or ALL_SUBRESOURCES (#521);
/// 2. both states valid (§4.1) and not RAYTRACING_ACCELERATION_STRUCTURE, which is never
///    transitioned (#526);
/// 3. the list type allows both states (#537): COMPUTE only COMMON, VERTEX_AND_CONSTANT_BUFFER,
///    NON_PIXEL_SHADER_RESOURCE, UNORDERED_ACCESS, COPY_*, INDIRECT_ARGUMENT; COPY only
///    COMMON and COPY_*; BUNDLE nothing (ResourceBarrier is not legal in a bundle);
/// 4. resource flags (#523): RENDER_TARGET needs ALLOW_RENDER_TARGET, DEPTH_* needs
///    ALLOW_DEPTH_STENCIL, UNORDERED_ACCESS needs ALLOW_UNORDERED_ACCESS, (NON_)PIXEL_SHADER_RESOURCE
///    is forbidden with DENY_SHADER_RESOURCE;
/// 5. RESOLVE_SOURCE needs SampleDesc.Count > 1 (#529); RESOLVE_DEST takes any sample count
///    (ResolveSubresourceRegion's DECOMPRESS mode resolves an MSAA subresource in place, so
///    MSAA textures go to RESOLVE_DEST too);
/// 6. UPLOAD resources stay in read states of GENERIC_READ (any non-empty combination of its
///    bits, or RESOLVE_SOURCE), READBACK ones in COPY_DEST or RESOLVE_DEST (#741; the states
///    Windows' debug layer names in that message);
/// 7. `before == after` → warning #525 (REC: accepted as a no-op).
pub fn validate_transition(
    desc: &D3D12_RESOURCE_DESC1,
    heap: HeapKind,
    subresource_count: u32,
    list: ListType,
    subresource: u32,
    before: u32,
    after: u32,
) -> Result<Vec<Violation>, Violation> {
    if subresource != ALL_SUBRESOURCES && subresource >= subresource_count {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_SUBRESOURCE,
            format!(
                "ResourceBarrier: Subresource {subresource} is out of range (the resource has {subresource_count} \
                 subresources; use D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES for all)."
            ),
        ));
    }
    for (which, s) in [("StateBefore", before), ("StateAfter", after)] {
        if !is_valid_state(s) {
            return Err(Violation::new(
                msg::RESOURCE_BARRIER_INVALID_COMBINATION,
                format!(
                    "ResourceBarrier: {which} 0x{s:x} is not a valid combination of D3D12_RESOURCE_STATES (unknown \
                     bits, or a write state combined with other states)."
                ),
            ));
        }
        if s & RTAS != 0 {
            return Err(Violation::new(
                msg::RESOURCE_BARRIER_INVALID_COMBINATION,
                format!(
                    "ResourceBarrier: {which} D3D12_RESOURCE_STATE_RAYTRACING_ACCELERATION_STRUCTURE: acceleration \
                     structures are never transitioned."
                ),
            ));
        }
    }
    let both = before | after;
    if list == ListType::Bundle {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_COMMAND_LIST_TYPE,
            "ResourceBarrier: transition barriers cannot be recorded in a bundle.",
        ));
    }
    if both & !list.allowed_states() != 0 {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_COMMAND_LIST_TYPE,
            format!(
                "ResourceBarrier: states 0x{before:x} -> 0x{after:x} are not supported on a {list:?} command list \
                 (allowed: COMMON and 0x{:x}).",
                list.allowed_states()
            ),
        ));
    }
    let flags = desc.Flags.0;
    let need = |state_bits: u32, flag: sys::D3D12_RESOURCE_FLAGS, what: &str| -> Result<(), Violation> {
        if both & state_bits != 0 && flags & flag.0 == 0 {
            return Err(Violation::new(
                msg::RESOURCE_BARRIER_MISSING_BIND_FLAGS,
                format!("ResourceBarrier: the {what} state requires the resource to be created with {flag:?}."),
            ));
        }
        Ok(())
    };
    need(RT, sys::D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET, "RENDER_TARGET")?;
    need(DEPTH_WRITE | DEPTH_READ, sys::D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL, "DEPTH_WRITE/DEPTH_READ")?;
    need(UAV, sys::D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS, "UNORDERED_ACCESS")?;
    if both & (PSR | NPSR) != 0 && flags & sys::D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE.0 != 0 {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_MISSING_BIND_FLAGS,
            "ResourceBarrier: shader-resource states are invalid for a resource created with \
             D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE.",
        ));
    }
    let samples = desc.SampleDesc.Count;
    if both & RESOLVE_SOURCE != 0 && samples <= 1 {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_SAMPLE_COUNT,
            format!("ResourceBarrier: RESOLVE_SOURCE requires a multisampled resource (SampleDesc.Count {samples})."),
        ));
    }
    if !heap_allows(heap, before) || !heap_allows(heap, after) {
        let (heap_name, states) = if heap == HeapKind::Upload {
            (
                "UPLOAD",
                "D3D12_RESOURCE_STATE_GENERIC_READ (or read states it combines) or D3D12_RESOURCE_STATE_RESOLVE_SOURCE",
            )
        } else {
            ("READBACK", "D3D12_RESOURCE_STATE_COPY_DEST or D3D12_RESOURCE_STATE_RESOLVE_DEST")
        };
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_HEAP,
            format!(
                "ResourceBarrier: Certain resources are restricted to certain D3D12_RESOURCE_STATES states, and \
                 cannot be changed. Resources on D3D12_HEAP_TYPE_{heap_name} heaps requires {states} \
                 (0x{before:x} -> 0x{after:x})."
            ),
        ));
    }
    let mut warnings = Vec::new();
    if before == after {
        warnings.push(Violation::new(
            msg::RESOURCE_BARRIER_MATCHING_STATES,
            format!("ResourceBarrier: StateBefore and StateAfter are both 0x{before:x}; the barrier is a no-op."),
        ));
    }
    Ok(warnings)
}

/// Whether a resource on `heap` may be in state `s` (any state on other heaps). UPLOAD: a
/// non-empty combination of GENERIC_READ's read bits (so INDIRECT_ARGUMENT <-> COPY_SOURCE
/// transitions are fine), or RESOLVE_SOURCE; READBACK: COPY_DEST or RESOLVE_DEST. COMMON is
/// neither.
fn heap_allows(heap: HeapKind, s: u32) -> bool {
    match heap {
        HeapKind::Upload => s == RESOLVE_SOURCE || (s != COMMON && s & !GENERIC_READ == 0),
        HeapKind::Readback => s == COPY_DEST || s == RESOLVE_DEST,
        _ => true,
    }
}

/// Validates a barrier's Type (TRANSITION 0, ALIASING 1, UAV 2; #519) and Flags (only
/// BEGIN_ONLY / END_ONLY, #530; not both, #531). Split flags on ALIASING/UAV barriers are
/// accepted (the sources read do not restrict them; they have no effect there).
pub fn validate_barrier_flags(ty: u32, flags: u32) -> Result<(), Violation> {
    if ty > sys::D3D12_RESOURCE_BARRIER_TYPE_UAV.0 {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_TYPE,
            format!("ResourceBarrier: D3D12_RESOURCE_BARRIER_TYPE {ty} is not recognized."),
        ));
    }
    let begin = sys::D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY.0;
    let end = sys::D3D12_RESOURCE_BARRIER_FLAG_END_ONLY.0;
    if flags & !(begin | end) != 0 {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_FLAGS,
            format!("ResourceBarrier: Flags 0x{flags:x} contain unknown bits."),
        ));
    }
    if flags == begin | end {
        return Err(Violation::new(
            msg::RESOURCE_BARRIER_INVALID_COMBINED_FLAGS,
            "ResourceBarrier: BEGIN_ONLY and END_ONLY cannot be combined.",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Per-list tracking.

const FLAG_BEGIN: u32 = sys::D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY.0;
const FLAG_END: u32 = sys::D3D12_RESOURCE_BARRIER_FLAG_END_ONLY.0;

#[derive(Clone, Copy, Debug, Default)]
struct Track {
    /// Current state as known inside the list (`None`: not known — no seed, no barrier).
    state: Option<u32>,
    /// `state` was reached by implicit promotion (no explicit barrier since).
    promoted: bool,
    /// After-state of the last completed barrier of this list (#527).
    last_after: Option<u32>,
    /// Pending split barrier (before, after).
    pending: Option<(u32, u32)>,
    /// Uses while the state was unknown.
    entry_uses: u32,
    /// StateBefore of the first barrier, when the state was unknown at that point.
    entry_before: Option<u32>,
    /// Touched by a barrier or a use in this list.
    touched: bool,
}

/// The state of one subresource at the end of a command list ([`ListStates::end_states`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubresourceEnd {
    /// The caller's resource identity.
    pub resource_id: u64,
    /// Subresource index.
    pub subresource: u32,
    /// Accumulated state bits of the uses made before the list knew the state (before its
    /// first barrier on the subresource, without a seed). At submission the queue's state
    /// must contain them or be COMMON and promotable to them ([`SubresourceEnd::apply`]).
    pub entry_uses: u32,
    /// StateBefore of the list's first barrier on the subresource when the state was not
    /// known then; at submission it should match the queue's state (debug-only, #538).
    pub entry_before: Option<u32>,
    /// State at the end of the list; `None` when the list only used the subresource (the
    /// state is then the queue's state, promoted by `entry_uses`).
    pub state: Option<u32>,
    /// `state` was reached by implicit promotion (no explicit barrier afterwards).
    pub promoted: bool,
    /// A split barrier is still pending (the list can't be closed: [`ListStates::finish`]).
    pub pending: bool,
}

/// Result of [`SubresourceEnd::apply`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The subresource's state after the list.
    pub state: u32,
    /// The state was reached by implicit promotion.
    pub promoted: bool,
    /// Debug-layer findings (#538): the list's first use or barrier did not match the state
    /// the queue had.
    pub warnings: Vec<Violation>,
}

impl SubresourceEnd {
    /// Applies the list's effect to the queue's state of the subresource at submission:
    /// `queue_state` (with `queue_promoted` = it was implicitly promoted by an earlier list
    /// of the same ExecuteCommandLists call). Mismatches are warnings (the core runtime
    /// does not check cross-list states; §5).
    pub fn apply(&self, queue_state: u32, queue_promoted: bool, is_buffer_or_simultaneous: bool) -> Applied {
        let (mut cur, mut promoted) = (queue_state, queue_promoted);
        let mut warnings = Vec::new();
        if self.entry_uses != 0 {
            match promote(cur, promoted, is_buffer_or_simultaneous, self.entry_uses) {
                Some((s, p)) => (cur, promoted) = (s, p),
                None => warnings.push(state_mismatch(self.resource_id, self.subresource, cur, self.entry_uses)),
            }
        }
        if let Some(b) = self.entry_before {
            if !before_matches(cur, b) {
                warnings.push(Violation::new(
                    msg::INVALID_SUBRESOURCE_STATE,
                    format!(
                        "ResourceBarrier: StateBefore 0x{b:x} of resource 0x{:016X} subresource {} does not match its current \
                         state 0x{cur:x}.",
                        self.resource_id, self.subresource
                    ),
                ));
            }
        }
        if let Some(s) = self.state {
            cur = s;
            promoted = self.promoted;
        }
        Applied { state: cur, promoted, warnings }
    }

    /// The end state is an implicitly promoted read-only state (decay rule 4 of §4.3).
    pub fn promoted_read_only(&self) -> bool {
        self.promoted && self.state.is_some_and(is_read_only)
    }
}

/// A StateBefore naming `before` is consistent with a subresource in `cur` (possibly an
/// implicitly promoted, accumulated state): equal, or `cur` is COMMON and `before` a
/// promotable state (docs; the widest, buffer set is accepted).
fn before_matches(cur: u32, before: u32) -> bool {
    before == cur || (cur == COMMON && is_promotable(before, true))
}

fn state_mismatch(resource_id: u64, sub: u32, cur: u32, use_state: u32) -> Violation {
    Violation::new(
        msg::INVALID_SUBRESOURCE_STATE,
        format!(
            "Resource 0x{resource_id:016X} subresource {sub} is used as 0x{use_state:x} but is in state 0x{cur:x}, which \
             neither contains it nor can be implicitly promoted to it; an explicit barrier is required."
        ),
    )
}

/// Resource-state tracking of one command list: before/after consistency of the list's
/// own barriers (#527), split-barrier pairing (#533, #534, #535, #957) and implicit
/// promotion of the list's uses (§4.2).
///
/// Subresources start *unknown* (the list does not know the queue's state at submission):
/// the first barrier's StateBefore and the uses before it are recorded and checked at
/// submission by [`SubresourceEnd::apply`]. [`ListStates::seed`] makes a state known
/// (e.g. when the tracker is replayed at execution time with the queue's states).
#[derive(Debug, Default, Clone)]
pub struct ListStates {
    res: BTreeMap<u64, Vec<Track>>,
    warnings: Vec<Violation>,
}

impl ListStates {
    /// An empty tracker.
    pub fn new() -> Self {
        Self::default()
    }

    /// Forgets everything (command-list Reset).
    pub fn reset(&mut self) {
        self.res.clear();
        self.warnings.clear();
    }

    fn tracks(&mut self, resource_id: u64, subresource_count: u32) -> &mut Vec<Track> {
        let v = self.res.entry(resource_id).or_default();
        if v.len() < subresource_count as usize {
            v.resize(subresource_count as usize, Track::default());
        }
        v
    }

    fn range(subresource_count: u32, sub: u32) -> Result<core::ops::Range<usize>, Violation> {
        if sub == ALL_SUBRESOURCES {
            Ok(0..subresource_count as usize)
        } else if sub < subresource_count {
            Ok(sub as usize..sub as usize + 1)
        } else {
            Err(Violation::new(
                msg::RESOURCE_BARRIER_INVALID_SUBRESOURCE,
                format!("Subresource {sub} is out of range (the resource has {subresource_count} subresources)."),
            ))
        }
    }

    /// Declares the state of `sub` (or all subresources) as known, e.g. the queue's state
    /// at submission. Not an access: seeded subresources that the list never touches are
    /// not reported by [`ListStates::end_states`].
    pub fn seed(&mut self, resource_id: u64, subresource_count: u32, sub: u32, state: u32) {
        let Ok(r) = Self::range(subresource_count, sub) else { return };
        for t in &mut self.tracks(resource_id, subresource_count)[r] {
            t.state = Some(state);
            t.promoted = false;
        }
    }

    /// Records a TRANSITION barrier (already checked with [`validate_transition`] and
    /// [`validate_barrier_flags`]). Errors (the barrier is dropped, nothing changes):
    /// * a subresource has a pending split barrier: only the END_ONLY barrier with the
    ///   same states may follow (#957 for an END with other states, #533 otherwise);
    /// * END_ONLY without a pending BEGIN_ONLY in this list (#534);
    /// * StateBefore differs from the StateAfter of this list's previous barrier on the
    ///   subresource (#527; COMMON may also be left by naming a promotable state or the
    ///   state it was implicitly promoted to).
    ///
    /// A StateBefore that contradicts a seeded state or the list's earlier uses is only a
    /// debug-layer finding (#538, see [`ListStates::take_warnings`]).
    pub fn transition(
        &mut self,
        resource_id: u64,
        subresource_count: u32,
        sub: u32,
        before: u32,
        after: u32,
        flags: u32,
    ) -> Result<(), Violation> {
        validate_barrier_flags(sys::D3D12_RESOURCE_BARRIER_TYPE_TRANSITION.0, flags)?;
        let r = Self::range(subresource_count, sub)?;
        let tracks = self.tracks(resource_id, subresource_count);
        let mut warnings = Vec::new();
        for (i, t) in tracks[r.clone()].iter().enumerate() {
            let s = r.start + i;
            if let Some((b, a)) = t.pending {
                if flags == FLAG_END && b == before && a == after {
                    continue;
                }
                if flags == FLAG_END {
                    return Err(Violation::new(
                        msg::RESOURCE_BARRIER_MISMATCHING_BEGIN_END,
                        format!(
                            "ResourceBarrier: END_ONLY 0x{before:x} -> 0x{after:x} does not match the pending \
                             BEGIN_ONLY 0x{b:x} -> 0x{a:x} of resource 0x{resource_id:016X} subresource {s}."
                        ),
                    ));
                }
                return Err(Violation::new(
                    msg::RESOURCE_BARRIER_INVALID_SPLIT_BARRIER,
                    format!(
                        "ResourceBarrier: resource 0x{resource_id:016X} subresource {s} has a pending split barrier \
                         (0x{b:x} -> 0x{a:x}); only the matching END_ONLY barrier is allowed."
                    ),
                ));
            }
            if flags == FLAG_END {
                return Err(Violation::new(
                    msg::RESOURCE_BARRIER_UNMATCHED_END,
                    format!(
                        "ResourceBarrier: END_ONLY barrier on resource 0x{resource_id:016X} subresource {s} without a \
                         preceding BEGIN_ONLY barrier."
                    ),
                ));
            }
            if let Some(la) = t.last_after {
                // Leaving COMMON may name a promotable state, in particular the one the
                // subresource was implicitly promoted to since that barrier.
                if before != la && !(la == COMMON && is_promotable(before, true)) {
                    return Err(Violation::new(
                        msg::RESOURCE_BARRIER_BEFORE_AFTER_MISMATCH,
                        format!(
                            "ResourceBarrier: StateBefore 0x{before:x} of resource 0x{resource_id:016X} subresource {s} does \
                             not match the StateAfter 0x{la:x} of the previous barrier on it in this command list."
                        ),
                    ));
                }
            } else if let Some(cur) = t.state {
                if !before_matches(cur, before) {
                    warnings.push(Violation::new(
                        msg::INVALID_SUBRESOURCE_STATE,
                        format!(
                            "ResourceBarrier: StateBefore 0x{before:x} of resource 0x{resource_id:016X} subresource {s} does \
                             not match its current state 0x{cur:x}."
                        ),
                    ));
                }
            } else if t.entry_uses != 0 && before & t.entry_uses != t.entry_uses {
                warnings.push(Violation::new(
                    msg::INVALID_SUBRESOURCE_STATE,
                    format!(
                        "ResourceBarrier: StateBefore 0x{before:x} of resource 0x{resource_id:016X} subresource {s} does not \
                         contain the states 0x{:x} it was used in earlier in this command list.",
                        t.entry_uses
                    ),
                ));
            }
        }
        for t in &mut tracks[r] {
            t.touched = true;
            if t.state.is_none() && t.last_after.is_none() && t.entry_before.is_none() {
                t.entry_before = Some(before);
            }
            if flags == FLAG_BEGIN {
                t.pending = Some((before, after));
            } else {
                t.pending = None;
                t.state = Some(after);
                t.last_after = Some(after);
                t.promoted = false;
            }
        }
        self.warnings.extend(warnings);
        Ok(())
    }

    /// Records a GPU use of `sub` (or every subresource) in state `state` (e.g. COPY_DEST
    /// for a copy destination) and applies implicit promotion (§4.2). Returns the
    /// debug-layer finding (#538) when the use is illegal — a pending split barrier, or a
    /// state that neither contains the use nor promotes to it; illegal uses do not change
    /// the tracked state. Uses of a subresource whose state is not known yet are recorded
    /// for the submission-time check ([`SubresourceEnd::entry_uses`]).
    pub fn use_as(
        &mut self,
        resource_id: u64,
        subresource_count: u32,
        is_buffer_or_simultaneous: bool,
        sub: u32,
        state: u32,
    ) -> Option<Violation> {
        let r = match Self::range(subresource_count, sub) {
            Ok(r) => r,
            Err(v) => return Some(v),
        };
        let mut first = None;
        for (i, t) in self.tracks(resource_id, subresource_count)[r.clone()].iter_mut().enumerate() {
            let s = (r.start + i) as u32;
            t.touched = true;
            if let Some((b, a)) = t.pending {
                first.get_or_insert_with(|| {
                    Violation::new(
                        msg::INVALID_SUBRESOURCE_STATE,
                        format!(
                            "Resource 0x{resource_id:016X} subresource {s} is accessed while its split barrier \
                             (0x{b:x} -> 0x{a:x}) is pending."
                        ),
                    )
                });
                continue;
            }
            match t.state {
                None => {
                    let all = t.entry_uses | state;
                    if is_valid_state(all) {
                        t.entry_uses = all;
                    } else {
                        first.get_or_insert_with(|| state_mismatch(resource_id, s, t.entry_uses, state));
                    }
                }
                Some(cur) => match promote(cur, t.promoted, is_buffer_or_simultaneous, state) {
                    Some((ns, p)) => {
                        t.state = Some(ns);
                        t.promoted = p;
                    }
                    None => {
                        first.get_or_insert_with(|| state_mismatch(resource_id, s, cur, state));
                    }
                },
            }
        }
        first
    }

    /// Close-time check: a BEGIN_ONLY barrier without its END_ONLY (#535).
    pub fn finish(&self) -> Result<(), Violation> {
        for (id, v) in &self.res {
            if let Some((s, t)) = v.iter().enumerate().find(|(_, t)| t.pending.is_some()) {
                let (b, a) = t.pending.unwrap_or_default();
                return Err(Violation::new(
                    msg::RESOURCE_BARRIER_UNMATCHED_BEGIN,
                    format!(
                        "Close: the split barrier 0x{b:x} -> 0x{a:x} begun on resource {id} subresource {s} has no \
                         END_ONLY barrier."
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Every subresource the list touched, in (resource, subresource) order.
    pub fn end_states(&self) -> Vec<SubresourceEnd> {
        let mut out = Vec::new();
        for (&id, v) in &self.res {
            for (s, t) in v.iter().enumerate() {
                if !t.touched {
                    continue;
                }
                out.push(SubresourceEnd {
                    resource_id: id,
                    subresource: s as u32,
                    entry_uses: t.entry_uses,
                    entry_before: t.entry_before,
                    state: t.state,
                    promoted: t.promoted,
                    pending: t.pending.is_some(),
                });
            }
        }
        out
    }

    /// The current known state of a subresource (`None`: unknown or untracked).
    pub fn state_of(&self, resource_id: u64, sub: u32) -> Option<u32> {
        self.res.get(&resource_id)?.get(sub as usize)?.state
    }

    /// Takes the debug-layer findings collected by [`ListStates::transition`].
    pub fn take_warnings(&mut self) -> Vec<Violation> {
        core::mem::take(&mut self.warnings)
    }
}

#[cfg(test)]
mod tests;
