//! The debug layer's message queue (ID3D12InfoQueue), without the COM shell: storage with its
//! count limit and counters, the storage and retrieval filter stacks, break-on settings, and
//! the text line Microsoft's layer prints (debug-layer.md §2 and §4).
//!
//! Filter matching (debug-layer.md §4.3, our recommendation where the docs are open): a message
//! is denied when it matches any non-empty deny list (category, severity or ID); when the allow
//! list has entries, each of its non-empty lists must contain the message's value. Only the
//! filter on top of a stack is evaluated.

use std::collections::VecDeque;

/// D3D12_INFO_QUEUE_DEFAULT_MESSAGE_COUNT_LIMIT.
pub const DEFAULT_MESSAGE_COUNT_LIMIT: u64 = 1024;

/// One message: D3D12_MESSAGE without the pointer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Msg {
    /// D3D12_MESSAGE_CATEGORY.
    pub category: u32,
    /// D3D12_MESSAGE_SEVERITY.
    pub severity: u32,
    /// D3D12_MESSAGE_ID.
    pub id: u32,
    /// The description (the full printed line for runtime messages).
    pub text: String,
}

/// D3D12_INFO_QUEUE_FILTER_DESC: lists of categories, severities and IDs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FilterList {
    /// D3D12_MESSAGE_CATEGORY values.
    pub categories: Vec<u32>,
    /// D3D12_MESSAGE_SEVERITY values.
    pub severities: Vec<u32>,
    /// D3D12_MESSAGE_ID values.
    pub ids: Vec<u32>,
}

impl FilterList {
    fn is_empty(&self) -> bool {
        self.categories.is_empty() && self.severities.is_empty() && self.ids.is_empty()
    }

    fn append(&mut self, other: &FilterList) {
        self.categories.extend_from_slice(&other.categories);
        self.severities.extend_from_slice(&other.severities);
        self.ids.extend_from_slice(&other.ids);
    }
}

/// D3D12_INFO_QUEUE_FILTER.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// AllowList.
    pub allow: FilterList,
    /// DenyList.
    pub deny: FilterList,
}

impl Filter {
    /// Whether `(category, severity, id)` passes the filter.
    pub fn passes(&self, category: u32, severity: u32, id: u32) -> bool {
        let d = &self.deny;
        if d.categories.contains(&category) || d.severities.contains(&severity) || d.ids.contains(&id) {
            return false;
        }
        let a = &self.allow;
        a.is_empty()
            || ((a.categories.is_empty() || a.categories.contains(&category))
                && (a.severities.is_empty() || a.severities.contains(&severity))
                && (a.ids.is_empty() || a.ids.contains(&id)))
    }

    /// AddStorageFilterEntries / AddRetrievalFilterEntries: `other`'s lists appended.
    pub fn append(&mut self, other: &Filter) {
        self.allow.append(&other.allow);
        self.deny.append(&other.deny);
    }

    /// Bytes GetStorageFilter / GetRetrievalFilter need: the 96-byte D3D12_INFO_QUEUE_FILTER,
    /// then the six arrays of 4-byte values.
    pub fn byte_length(&self) -> usize {
        let n = |l: &FilterList| l.categories.len() + l.severities.len() + l.ids.len();
        96 + 4 * (n(&self.allow) + n(&self.deny))
    }
}

/// A filter stack: never empty (the bottom entry starts empty and cannot be popped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterStack(Vec<Filter>);

impl Default for FilterStack {
    fn default() -> Self {
        FilterStack(vec![Filter::default()])
    }
}

impl FilterStack {
    /// The filter in effect.
    pub fn top(&self) -> &Filter {
        self.0.last().expect("a filter stack is never empty")
    }

    /// The filter in effect, for Add*FilterEntries and Clear*Filter.
    pub fn top_mut(&mut self) -> &mut Filter {
        self.0.last_mut().expect("a filter stack is never empty")
    }

    /// Push*Filter.
    pub fn push(&mut self, f: Filter) {
        self.0.push(f);
    }

    /// Pop*Filter: the bottom entry stays.
    pub fn pop(&mut self) {
        if self.0.len() > 1 {
            self.0.pop();
        }
    }

    /// Get*FilterStackSize.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true: a stack always holds its bottom entry.
    pub fn is_empty(&self) -> bool {
        false
    }
}

/// What became of a message given to [`InfoQueue::add`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// It passed the storage filter (and is stored).
    pub stored: bool,
    /// It should be printed (stored and output not muted).
    pub print: bool,
    /// A break-on setting matches it.
    pub brk: bool,
}

/// The state of one ID3D12InfoQueue.
#[derive(Debug, Clone)]
pub struct InfoQueue {
    messages: VecDeque<Msg>,
    limit: u64,
    allowed: u64,
    denied: u64,
    discarded: u64,
    /// The storage filter stack.
    pub storage: FilterStack,
    /// The retrieval filter stack.
    pub retrieval: FilterStack,
    break_categories: u64,
    break_severities: u64,
    break_ids: Vec<u32>,
    /// SetMuteDebugOutput.
    pub mute: bool,
}

impl Default for InfoQueue {
    fn default() -> Self {
        InfoQueue {
            messages: VecDeque::new(),
            limit: DEFAULT_MESSAGE_COUNT_LIMIT,
            allowed: 0,
            denied: 0,
            discarded: 0,
            storage: FilterStack::default(),
            retrieval: FilterStack::default(),
            break_categories: 0,
            break_severities: 0,
            break_ids: Vec::new(),
            mute: false,
        }
    }
}

fn bit(v: u32) -> u64 {
    if v < 64 {
        1 << v
    } else {
        0
    }
}

impl InfoQueue {
    /// A message generated by the runtime or the application: filtered, stored (the oldest
    /// pushed out beyond the limit), and whether to print it and break on it.
    pub fn add(&mut self, m: Msg) -> Outcome {
        if !self.storage.top().passes(m.category, m.severity, m.id) {
            self.denied += 1;
            return Outcome { stored: false, print: false, brk: false };
        }
        self.allowed += 1;
        let brk = self.break_categories & bit(m.category) != 0
            || self.break_severities & bit(m.severity) != 0
            || self.break_ids.contains(&m.id);
        if self.limit == 0 {
            self.discarded += 1;
        } else {
            while self.messages.len() as u64 >= self.limit {
                self.messages.pop_front();
                self.discarded += 1;
            }
            self.messages.push_back(m);
        }
        Outcome { stored: true, print: !self.mute, brk }
    }

    /// SetMessageCountLimit (u64::MAX: unlimited): stored messages beyond it are dropped, the
    /// oldest first.
    pub fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
        while self.messages.len() as u64 > self.limit {
            self.messages.pop_front();
            self.discarded += 1;
        }
    }

    /// GetMessageCountLimit.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// ClearStoredMessages (the counters stay).
    pub fn clear(&mut self) {
        self.messages.clear();
    }

    /// The `index`th stored message that passes the retrieval filter (0 = oldest).
    pub fn get(&self, index: u64) -> Option<&Msg> {
        let f = self.retrieval.top();
        self.messages.iter().filter(|m| f.passes(m.category, m.severity, m.id)).nth(usize::try_from(index).ok()?)
    }

    /// GetNumStoredMessagesAllowedByRetrievalFilter.
    pub fn visible(&self) -> u64 {
        let f = self.retrieval.top();
        self.messages.iter().filter(|m| f.passes(m.category, m.severity, m.id)).count() as u64
    }

    /// GetNumStoredMessages.
    pub fn stored(&self) -> u64 {
        self.messages.len() as u64
    }

    /// GetNumMessagesAllowedByStorageFilter.
    pub fn allowed(&self) -> u64 {
        self.allowed
    }

    /// GetNumMessagesDeniedByStorageFilter.
    pub fn denied(&self) -> u64 {
        self.denied
    }

    /// GetNumMessagesDiscardedByMessageCountLimit.
    pub fn discarded(&self) -> u64 {
        self.discarded
    }

    /// SetBreakOnCategory.
    pub fn set_break_category(&mut self, category: u32, on: bool) {
        set_bit(&mut self.break_categories, category, on);
    }

    /// SetBreakOnSeverity.
    pub fn set_break_severity(&mut self, severity: u32, on: bool) {
        set_bit(&mut self.break_severities, severity, on);
    }

    /// SetBreakOnID.
    pub fn set_break_id(&mut self, id: u32, on: bool) {
        self.break_ids.retain(|&i| i != id);
        if on {
            self.break_ids.push(id);
        }
    }

    /// GetBreakOnCategory.
    pub fn break_category(&self, category: u32) -> bool {
        self.break_categories & bit(category) != 0
    }

    /// GetBreakOnSeverity.
    pub fn break_severity(&self, severity: u32) -> bool {
        self.break_severities & bit(severity) != 0
    }

    /// GetBreakOnID.
    pub fn break_id(&self, id: u32) -> bool {
        self.break_ids.contains(&id)
    }
}

fn set_bit(mask: &mut u64, v: u32, on: bool) {
    if on {
        *mask |= bit(v);
    } else {
        *mask &= !bit(v);
    }
}

/// D3D12_MESSAGE_CATEGORY names as printed (APPLICATION_DEFINED … SHADER).
pub fn category_name(c: u32) -> &'static str {
    const NAMES: [&str; 11] = [
        "APPLICATION_DEFINED",
        "MISCELLANEOUS",
        "INITIALIZATION",
        "CLEANUP",
        "COMPILATION",
        "STATE_CREATION",
        "STATE_SETTING",
        "STATE_GETTING",
        "RESOURCE_MANIPULATION",
        "EXECUTION",
        "SHADER",
    ];
    NAMES.get(c as usize).copied().unwrap_or("UNKNOWN_CATEGORY")
}

/// D3D12_MESSAGE_SEVERITY words as printed (CORRUPTION … MESSAGE).
pub fn severity_name(s: u32) -> &'static str {
    const NAMES: [&str; 5] = ["CORRUPTION", "ERROR", "WARNING", "INFO", "MESSAGE"];
    NAMES.get(s as usize).copied().unwrap_or("UNKNOWN_SEVERITY")
}

/// The line Microsoft's layer prints:
/// `D3D12 ERROR: ID3D12Device::CreateCommittedResource: <text> [ STATE_CREATION ERROR #721: CREATERESOURCE_INVALIDALIGNMENT]`.
/// `method` is `Interface::Method` (empty: no method part).
pub fn format_line(method: &str, category: u32, severity: u32, id: u32, id_name: &str, text: &str) -> String {
    let sev = severity_name(severity);
    let cat = category_name(category);
    if method.is_empty() {
        format!("D3D12 {sev}: {text} [ {cat} {sev} #{id}: {id_name}]")
    } else {
        format!("D3D12 {sev}: {method}: {text} [ {cat} {sev} #{id}: {id_name}]")
    }
}

/// The line printed after a message that breaks (severity before category, as Microsoft's).
pub fn break_line(category: u32, severity: u32, id: u32, id_name: &str) -> String {
    format!(
        "D3D12: **BREAK** enabled for the previous message, which was: [ {} {} #{id}: {id_name} ]",
        severity_name(severity),
        category_name(category)
    )
}

#[cfg(test)]
mod tests;

/// The category Microsoft's layer files a message ID under, from the ID's name
/// (debug-layer.md §3): copies, barriers, clears, discards, maps and tile mappings are
/// RESOURCE_MANIPULATION; object creation STATE_CREATION; Set* binding and descriptor copies
/// STATE_SETTING; Get* queries STATE_GETTING; everything else EXECUTION.
pub fn default_category(id: u32) -> u32 {
    const RESOURCE_MANIPULATION: u32 = 8;
    const STATE_CREATION: u32 = 5;
    const STATE_SETTING: u32 = 6;
    const STATE_GETTING: u32 = 7;
    const EXECUTION: u32 = 9;
    let Some(name) = rd3d12_sys::message_id_name(rd3d12_sys::D3D12_MESSAGE_ID(id as _)) else { return EXECUTION };
    // Named SET_ but filed under EXECUTION by Windows' layer, as its printed lines show
    // ("[ EXECUTION ERROR #708: SET_DESCRIPTOR_TABLE_INVALID]", gfx-rs/wgpu#1798).
    if name == "SET_DESCRIPTOR_TABLE_INVALID" {
        return EXECUTION;
    }
    let starts = |p: &[&str]| p.iter().any(|p| name.starts_with(p));
    if starts(&["COPY_DESCRIPTORS", "SET_", "COMMAND_LIST_SETRENDERTARGETS"]) {
        STATE_SETTING
    } else if starts(&[
        "COPY",
        "RESOURCE_BARRIER",
        "CLEAR",
        "DISCARD",
        "MAP_",
        "UNMAP_",
        "RESOURCE_UNMAP",
        "WRITETOSUBRESOURCE",
        "READFROMSUBRESOURCE",
        "UPDATETILEMAPPINGS",
        "COPYTILEMAPPINGS",
        "ATOMICCOPYBUFFER",
    ]) {
        RESOURCE_MANIPULATION
    } else if starts(&["CREATE", "LIVE_", "DESTROY_"]) {
        STATE_CREATION
    } else if starts(&["GET"]) {
        STATE_GETTING
    } else {
        EXECUTION
    }
}
