//! Info-queue storage, limits, filters and the printed line (debug-layer.md §2, §4).

use super::*;

const STATE_CREATION: u32 = 5;
const EXECUTION: u32 = 9;
const ERROR: u32 = 1;
const WARNING: u32 = 2;
const INFO: u32 = 3;

fn msg(category: u32, severity: u32, id: u32) -> Msg {
    Msg { category, severity, id, text: format!("m{id}") }
}

#[test]
fn storage_limit_pushes_out_the_oldest() {
    let mut q = InfoQueue::default();
    assert_eq!(q.limit(), 1024);
    q.set_limit(3);
    for id in 0..5 {
        let o = q.add(msg(EXECUTION, ERROR, 100 + id));
        assert_eq!(o, Outcome { stored: true, print: true, brk: false });
    }
    assert_eq!((q.stored(), q.allowed(), q.denied(), q.discarded()), (3, 5, 0, 2));
    assert_eq!(q.get(0).unwrap().id, 102);
    assert_eq!(q.get(2).unwrap().id, 104);
    assert!(q.get(3).is_none());
    q.set_limit(1);
    assert_eq!((q.stored(), q.discarded()), (1, 4));
    assert_eq!(q.get(0).unwrap().id, 104);
    q.set_limit(u64::MAX);
    q.clear();
    assert_eq!((q.stored(), q.allowed(), q.discarded()), (0, 5, 4));
    // Limit 0: nothing is kept, every allowed message is discarded.
    q.set_limit(0);
    q.add(msg(EXECUTION, ERROR, 1));
    assert_eq!((q.stored(), q.discarded()), (0, 5));
}

#[test]
fn deny_any_list_allow_every_nonempty_list() {
    // The sample pattern: deny severity INFO and a list of IDs.
    let f = Filter {
        deny: FilterList { severities: vec![INFO], ids: vec![1328], ..Default::default() },
        ..Default::default()
    };
    assert!(f.passes(STATE_CREATION, ERROR, 721));
    assert!(!f.passes(STATE_CREATION, INFO, 721));
    assert!(!f.passes(STATE_CREATION, WARNING, 1328));
    // Allow: category must match AND severity must match (each non-empty list).
    let a = Filter {
        allow: FilterList { categories: vec![EXECUTION], severities: vec![ERROR, WARNING], ids: vec![] },
        ..Default::default()
    };
    assert!(a.passes(EXECUTION, ERROR, 5));
    assert!(!a.passes(STATE_CREATION, ERROR, 5));
    assert!(!a.passes(EXECUTION, INFO, 5));
    // Deny wins over allow.
    let mut both = a.clone();
    both.deny.ids.push(5);
    assert!(!both.passes(EXECUTION, ERROR, 5));
    assert!(both.passes(EXECUTION, ERROR, 6));
    assert!(Filter::default().passes(0, 0, 0));
    // 96-byte struct + 4 bytes per listed value.
    assert_eq!(Filter::default().byte_length(), 96);
    assert_eq!(both.byte_length(), 96 + 4 * 4);
}

#[test]
fn stacks_and_retrieval() {
    let mut q = InfoQueue::default();
    assert_eq!(q.storage.len(), 1);
    q.storage.push(Filter { deny: FilterList { severities: vec![INFO], ..Default::default() }, ..Default::default() });
    assert_eq!(q.storage.len(), 2);
    assert!(!q.add(msg(EXECUTION, INFO, 1)).stored);
    assert!(q.add(msg(EXECUTION, WARNING, 2)).stored);
    q.storage.pop();
    q.storage.pop(); // the bottom entry stays
    assert_eq!(q.storage.len(), 1);
    assert!(q.add(msg(EXECUTION, INFO, 3)).stored);
    assert_eq!((q.allowed(), q.denied(), q.stored()), (2, 1, 2));
    // The retrieval filter hides without deleting.
    q.retrieval.top_mut().deny.ids.push(2);
    assert_eq!(q.visible(), 1);
    assert_eq!(q.get(0).unwrap().id, 3);
    *q.retrieval.top_mut() = Filter::default();
    assert_eq!(q.visible(), 2);
    // Appending entries to the top filter.
    let mut f = Filter::default();
    f.append(&Filter { allow: FilterList { ids: vec![7], ..Default::default() }, ..Default::default() });
    assert_eq!(f.allow.ids, [7]);
}

#[test]
fn break_and_mute() {
    let mut q = InfoQueue::default();
    q.set_break_severity(ERROR, true);
    q.set_break_id(869, true);
    assert!(q.break_severity(ERROR) && !q.break_severity(WARNING) && q.break_id(869));
    assert!(q.add(msg(EXECUTION, ERROR, 1)).brk);
    assert!(q.add(msg(EXECUTION, WARNING, 869)).brk);
    assert!(!q.add(msg(EXECUTION, WARNING, 1)).brk);
    q.set_break_category(EXECUTION, true);
    assert!(q.break_category(EXECUTION) && q.add(msg(EXECUTION, INFO, 2)).brk);
    q.set_break_id(869, false);
    q.set_break_severity(ERROR, false);
    q.set_break_category(EXECUTION, false);
    assert!(!q.add(msg(EXECUTION, ERROR, 869)).brk);
    q.mute = true;
    assert_eq!(q.add(msg(EXECUTION, ERROR, 1)), Outcome { stored: true, print: false, brk: false });
    // A denied message neither prints nor breaks.
    q.mute = false;
    q.set_break_severity(ERROR, true);
    q.storage.top_mut().deny.ids.push(9);
    assert_eq!(q.add(msg(EXECUTION, ERROR, 9)), Outcome { stored: false, print: false, brk: false });
}

#[test]
fn printed_line_is_microsofts_format() {
    assert_eq!(
        format_line(
            "ID3D12CommandList::CopyTextureRegion",
            8,
            ERROR,
            869,
            "COPYTEXTUREREGION_INVALIDSRCPLACEMENT",
            "the footprint does not fit"
        ),
        "D3D12 ERROR: ID3D12CommandList::CopyTextureRegion: the footprint does not fit \
         [ RESOURCE_MANIPULATION ERROR #869: COPYTEXTUREREGION_INVALIDSRCPLACEMENT]"
    );
    assert_eq!(
        break_line(9, ERROR, 538, "INVALID_SUBRESOURCE_STATE"),
        "D3D12: **BREAK** enabled for the previous message, which was: [ ERROR EXECUTION #538: INVALID_SUBRESOURCE_STATE ]"
    );
    assert_eq!(category_name(11), "UNKNOWN_CATEGORY");
    assert_eq!(severity_name(4), "MESSAGE");
}

#[test]
fn default_categories_follow_windows_printed_lines() {
    // "[ EXECUTION ERROR #708: SET_DESCRIPTOR_TABLE_INVALID]" (gfx-rs/wgpu#1798), though named SET_.
    assert_eq!(default_category(708), EXECUTION);
    // SET_DESCRIPTOR_HEAP_INVALID stays STATE_SETTING; barriers RESOURCE_MANIPULATION (#741 in
    // rive-app/rive-runtime#57 and NVIDIA-RTX/NRI#44).
    assert_eq!(default_category(554), 6);
    assert_eq!(default_category(741), 8);
}
