//! Resource-state tests: the validity table of §4.1, the transition rules of §5, split
//! barriers, in-list consistency, and the promotion / decay tables of §4.2 / §4.3.

use super::*;
use rd3d12_sys::*;

const S_VCB: u32 = 0x1;
const S_IB: u32 = 0x2;
const S_RT: u32 = 0x4;
const S_UAV: u32 = 0x8;
const S_DW: u32 = 0x10;
const S_DR: u32 = 0x20;
const S_NPSR: u32 = 0x40;
const S_PSR: u32 = 0x80;
const S_SO: u32 = 0x100;
const S_IND: u32 = 0x200;
const S_CD: u32 = 0x400;
const S_CS: u32 = 0x800;
const S_RD: u32 = 0x1000;
const S_RS: u32 = 0x2000;
const S_RTAS: u32 = 0x40_0000;
const S_SRS: u32 = 0x100_0000;
const S_GR: u32 = 0xAC3;

const BEGIN: u32 = 1;
const END: u32 = 2;

fn desc(dim: D3D12_RESOURCE_DIMENSION, flags: u32, samples: u32) -> D3D12_RESOURCE_DESC1 {
    D3D12_RESOURCE_DESC1 {
        Dimension: dim,
        Alignment: 0,
        Width: if dim == D3D12_RESOURCE_DIMENSION_BUFFER { 65536 } else { 64 },
        Height: if dim == D3D12_RESOURCE_DIMENSION_BUFFER { 1 } else { 64 },
        DepthOrArraySize: 1,
        MipLevels: 1,
        Format: if dim == D3D12_RESOURCE_DIMENSION_BUFFER { DXGI_FORMAT_UNKNOWN } else { DXGI_FORMAT_R8G8B8A8_UNORM },
        SampleDesc: DXGI_SAMPLE_DESC { Count: samples, Quality: 0 },
        Layout: if dim == D3D12_RESOURCE_DIMENSION_BUFFER {
            D3D12_TEXTURE_LAYOUT_ROW_MAJOR
        } else {
            D3D12_TEXTURE_LAYOUT_UNKNOWN
        },
        Flags: D3D12_RESOURCE_FLAGS(flags),
        SamplerFeedbackMipRegion: Default::default(),
    }
}

fn tex(flags: u32) -> D3D12_RESOURCE_DESC1 {
    desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, flags, 1)
}

fn buf() -> D3D12_RESOURCE_DESC1 {
    desc(D3D12_RESOURCE_DIMENSION_BUFFER, 0, 1)
}

const RT_FLAG: u32 = 0x1;
const DS_FLAG: u32 = 0x2;
const UAV_FLAG: u32 = 0x4;
const DENY_SRV: u32 = 0x8;

fn tr(
    d: &D3D12_RESOURCE_DESC1,
    heap: HeapKind,
    list: ListType,
    before: u32,
    after: u32,
) -> Result<Vec<Violation>, Violation> {
    validate_transition(d, heap, 1, list, 0, before, after)
}

fn err_id(r: Result<Vec<Violation>, Violation>) -> u32 {
    r.expect_err("expected an error").id.0
}

#[test]
fn validity_table() {
    // Every single bit of §4.1 is valid on its own.
    for s in [
        0, S_VCB, S_IB, S_RT, S_UAV, S_DW, S_DR, S_NPSR, S_PSR, S_SO, S_IND, S_CD, S_CS, S_RD, S_RS, 0x1_0000,
        0x2_0000, 0x4_0000, 0x8_0000, 0x20_0000, 0x80_0000, S_RTAS, S_SRS,
    ] {
        assert!(is_valid_state(s), "0x{s:x}");
    }
    // Read combinations.
    for s in [S_GR, 0xC0, S_DR | S_PSR, S_DR | S_NPSR | S_PSR, S_CS | S_RS, S_VCB | S_IB | S_IND, S_SRS | S_PSR] {
        assert!(is_valid_state(s), "0x{s:x}");
    }
    // Write + anything else, two writes, unknown bits.
    for s in [
        S_UAV | S_PSR, // native: Close E_INVALIDARG
        S_DW | S_DR,
        S_CD | S_CS,
        S_RT | S_UAV,
        S_CD | S_RD,
        S_RT | S_GR,
        S_RTAS | S_NPSR,
        0x4000,
        0x8000,
        0x200_0000,
        0x8000_0000,
        S_CS | 0x4000,
    ] {
        assert!(!is_valid_state(s), "0x{s:x}");
    }
}

#[test]
fn state_classes() {
    assert!(is_write_state(S_RT) && is_write_state(S_UAV) && is_write_state(S_CD) && is_write_state(S_RTAS));
    assert!(!is_write_state(S_GR) && !is_write_state(0) && !is_write_state(S_DR));
    assert!(is_read_only(S_GR) && is_read_only(S_DR | S_PSR) && is_read_only(S_CS));
    assert!(!is_read_only(0), "COMMON is not read-only");
    assert!(!is_read_only(S_UAV) && !is_read_only(S_CD) && !is_read_only(0x4000));
    assert_eq!(GENERIC_READ, S_VCB | S_IB | S_NPSR | S_PSR | S_IND | S_CS);
    assert_eq!(KNOWN_STATES & 0x4000, 0);
}

#[test]
fn list_type_mapping() {
    for (raw, t) in [
        (0, ListType::Direct),
        (1, ListType::Bundle),
        (2, ListType::Compute),
        (3, ListType::Copy),
        (4, ListType::VideoDecode),
        (5, ListType::VideoProcess),
        (6, ListType::VideoEncode),
    ] {
        assert_eq!(ListType::from_raw(D3D12_COMMAND_LIST_TYPE(raw)), Some(t));
        assert_eq!(t.raw().0, raw);
    }
    assert_eq!(ListType::from_raw(D3D12_COMMAND_LIST_TYPE(-1)), None);
    assert_eq!(ListType::from_raw(D3D12_COMMAND_LIST_TYPE(7)), None);
    assert_eq!(HeapKind::from_heap_type(D3D12_HEAP_TYPE_UPLOAD), Some(HeapKind::Upload));
    assert_eq!(HeapKind::from_heap_type(D3D12_HEAP_TYPE_READBACK), Some(HeapKind::Readback));
    assert_eq!(HeapKind::from_heap_type(D3D12_HEAP_TYPE_DEFAULT), Some(HeapKind::Default));
    assert_eq!(HeapKind::from_heap_type(D3D12_HEAP_TYPE_CUSTOM), Some(HeapKind::Custom));
    assert_eq!(HeapKind::from_heap_type(D3D12_HEAP_TYPE(9)), None);
}

#[test]
fn transition_subresource_range() {
    let d = tex(0);
    assert!(validate_transition(&d, HeapKind::Default, 3, ListType::Direct, 2, 0, S_CD).is_ok());
    assert!(validate_transition(&d, HeapKind::Default, 3, ListType::Direct, ALL_SUBRESOURCES, 0, S_CD).is_ok());
    let e = validate_transition(&d, HeapKind::Default, 3, ListType::Direct, 3, 0, S_CD).unwrap_err();
    assert_eq!(e.id.0, 521);
}

#[test]
fn transition_invalid_states() {
    let d = tex(UAV_FLAG);
    // native: UAV|PIXEL_SHADER_RESOURCE after-state → Close E_INVALIDARG
    assert_eq!(err_id(tr(&d, HeapKind::Default, ListType::Direct, 0, S_UAV | S_PSR)), 526);
    assert_eq!(err_id(tr(&d, HeapKind::Default, ListType::Direct, 0x4000, S_CD)), 526);
    // acceleration structures are never transitioned
    assert_eq!(err_id(tr(&buf(), HeapKind::Default, ListType::Direct, S_RTAS, S_CS)), 526);
}

#[test]
fn transition_matching_states_is_a_warning() {
    let w = tr(&tex(0), HeapKind::Default, ListType::Direct, S_CD, S_CD).unwrap();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].id.0, 525);
    assert!(tr(&tex(0), HeapKind::Default, ListType::Direct, S_CD, S_CS).unwrap().is_empty());
    // errors take precedence over the warning
    assert_eq!(err_id(tr(&tex(0), HeapKind::Default, ListType::Direct, S_RT, S_RT)), 523);
}

#[test]
fn transition_bind_flags() {
    let l = ListType::Direct;
    let h = HeapKind::Default;
    assert_eq!(err_id(tr(&tex(0), h, l, 0, S_RT)), 523);
    assert_eq!(err_id(tr(&tex(0), h, l, S_RT, 0)), 523, "the before-state is checked too");
    assert!(tr(&tex(RT_FLAG), h, l, 0, S_RT).is_ok());
    assert_eq!(err_id(tr(&tex(0), h, l, 0, S_DW)), 523);
    assert_eq!(err_id(tr(&tex(0), h, l, 0, S_DR)), 523);
    assert!(tr(&tex(DS_FLAG), h, l, S_DW, S_DR | S_PSR).is_ok());
    assert_eq!(err_id(tr(&tex(0), h, l, 0, S_UAV)), 523);
    assert_eq!(err_id(tr(&buf(), h, l, 0, S_UAV)), 523);
    assert!(tr(&tex(UAV_FLAG), h, l, 0, S_UAV).is_ok());
    // DENY_SHADER_RESOURCE forbids (NON_)PIXEL_SHADER_RESOURCE but not DEPTH_READ
    assert_eq!(err_id(tr(&tex(DS_FLAG | DENY_SRV), h, l, S_DW, S_PSR)), 523);
    assert_eq!(err_id(tr(&tex(DS_FLAG | DENY_SRV), h, l, S_DW, S_NPSR)), 523);
    assert_eq!(err_id(tr(&tex(DS_FLAG | DENY_SRV), h, l, S_DW, S_GR)), 523);
    assert!(tr(&tex(DS_FLAG | DENY_SRV), h, l, S_DW, S_DR).is_ok());
    // reads and copies need no flag
    assert!(tr(&buf(), h, l, 0, S_GR).is_ok());
    assert!(tr(&buf(), h, l, S_CD, S_VCB | S_IB).is_ok());
}

#[test]
fn transition_sample_count() {
    let h = HeapKind::Default;
    let l = ListType::Direct;
    let ms = desc(D3D12_RESOURCE_DIMENSION_TEXTURE2D, RT_FLAG, 4);
    assert!(tr(&ms, h, l, S_RT, S_RS).is_ok());
    // MSAA -> MSAA resolves (DECOMPRESS in place) put a multisampled texture in RESOLVE_DEST
    assert!(tr(&ms, h, l, 0, S_RD).is_ok());
    assert!(tr(&ms, h, l, S_RT, S_RD).is_ok());
    assert_eq!(err_id(tr(&tex(RT_FLAG), h, l, S_RT, S_RS)), 529);
    assert!(tr(&tex(0), h, l, 0, S_RD).is_ok());
}

#[test]
fn transition_upload_and_readback_heaps() {
    let l = ListType::Direct;
    // native: UPLOAD buffer away from GENERIC_READ's reads / READBACK buffer away from COPY_DEST → E_INVALIDARG
    assert_eq!(err_id(tr(&buf(), HeapKind::Upload, l, S_GR, S_CD)), 741);
    assert_eq!(err_id(tr(&buf(), HeapKind::Upload, l, S_GR, 0)), 741);
    assert_eq!(err_id(tr(&buf(), HeapKind::Upload, l, 0, S_GR)), 741);
    assert_eq!(err_id(tr(&buf(), HeapKind::Upload, l, S_IND, S_CS | S_SRS)), 741);
    assert_eq!(err_id(tr(&buf(), HeapKind::Readback, l, S_CD, 0)), 741);
    assert_eq!(err_id(tr(&buf(), HeapKind::Readback, l, S_CD, S_CS)), 741);
    // read states that GENERIC_READ combines stay legal on UPLOAD (Windows accepts them)
    assert!(tr(&buf(), HeapKind::Upload, l, S_IND, S_CS).is_ok());
    assert!(tr(&buf(), HeapKind::Upload, l, S_CS, S_IND).is_ok());
    assert!(tr(&buf(), HeapKind::Upload, l, S_GR, S_VCB | S_IB).is_ok());
    assert!(tr(&buf(), HeapKind::Upload, l, S_NPSR | S_PSR, S_GR).is_ok());
    // READBACK: COPY_DEST <-> RESOLVE_DEST
    assert!(tr(&buf(), HeapKind::Readback, l, S_CD, S_RD).is_ok());
    assert!(tr(&buf(), HeapKind::Readback, l, S_RD, S_CD).is_ok());
    let w = tr(&buf(), HeapKind::Upload, l, S_GR, S_GR).unwrap();
    assert_eq!(w[0].id.0, 525);
    // custom and reserved resources transition freely
    assert!(tr(&buf(), HeapKind::Custom, l, S_CD, S_GR).is_ok());
    assert!(tr(&tex(0), HeapKind::Reserved, l, 0, S_CD).is_ok());
}

#[test]
fn transition_list_types() {
    let h = HeapKind::Default;
    let all = tex(RT_FLAG | UAV_FLAG);
    let ds = tex(DS_FLAG);
    // compute: allowed
    for (b, a) in [(0, S_VCB), (S_NPSR, S_UAV), (S_CD, S_CS), (S_IND, 0), (S_NPSR | S_CS, S_CD)] {
        assert!(tr(&all, h, ListType::Compute, b, a).is_ok(), "0x{b:x} -> 0x{a:x}");
    }
    // compute: graphics-only states
    for (b, a) in [(0, S_RT), (S_PSR, 0), (0, S_IB), (S_GR, S_CD), (0, S_SO), (0, S_SRS)] {
        assert_eq!(err_id(tr(&all, h, ListType::Compute, b, a)), 537, "0x{b:x} -> 0x{a:x}");
    }
    assert_eq!(err_id(tr(&ds, h, ListType::Compute, S_DW, 0)), 537);
    // copy: COMMON / COPY_* only
    assert!(tr(&all, h, ListType::Copy, 0, S_CD).is_ok());
    assert!(tr(&all, h, ListType::Copy, S_CD, S_CS).is_ok());
    assert_eq!(err_id(tr(&all, h, ListType::Copy, S_CD, S_NPSR)), 537);
    assert_eq!(err_id(tr(&all, h, ListType::Copy, 0, S_UAV)), 537);
    // bundles can't record barriers
    assert_eq!(err_id(tr(&all, h, ListType::Bundle, 0, S_CD)), 537);
    // direct: everything
    assert!(tr(&all, h, ListType::Direct, S_RT, S_GR).is_ok());
}

#[test]
fn barrier_type_and_flags() {
    assert!(validate_barrier_flags(0, 0).is_ok());
    assert!(validate_barrier_flags(0, BEGIN).is_ok());
    assert!(validate_barrier_flags(0, END).is_ok());
    assert!(validate_barrier_flags(1, 0).is_ok());
    assert!(validate_barrier_flags(2, 0).is_ok());
    assert_eq!(validate_barrier_flags(3, 0).unwrap_err().id.0, 519);
    assert_eq!(validate_barrier_flags(0, 4).unwrap_err().id.0, 530);
    assert_eq!(validate_barrier_flags(0, BEGIN | END).unwrap_err().id.0, 531);
}

#[test]
fn in_list_before_after_consistency() {
    let mut l = ListStates::new();
    l.transition(1, 1, 0, 0, S_CD, 0).unwrap();
    l.transition(1, 1, 0, S_CD, S_CS, 0).unwrap();
    let e = l.transition(1, 1, 0, S_CD, S_PSR, 0).unwrap_err();
    assert_eq!(e.id.0, 527);
    // the failed barrier changed nothing
    assert_eq!(l.state_of(1, 0), Some(S_CS));
    l.transition(1, 1, 0, S_CS, S_PSR, 0).unwrap();
    // The first barrier of a list is not checked against the queue state (native: a texture
    // created in NON_PIXEL_SHADER_RESOURCE transitioned from UNORDERED_ACCESS closes S_OK).
    let mut l = ListStates::new();
    l.transition(2, 1, 0, S_UAV, S_NPSR, 0).unwrap();
    assert!(l.take_warnings().is_empty());
    let end = l.end_states();
    assert_eq!(end[0].entry_before, Some(S_UAV));
    let a = end[0].apply(S_NPSR, false, false);
    assert_eq!(a.state, S_NPSR);
    assert_eq!(a.warnings.len(), 1);
    assert_eq!(a.warnings[0].id.0, 538);
}

#[test]
fn all_subresources_and_per_subresource() {
    let mut l = ListStates::new();
    l.transition(7, 4, ALL_SUBRESOURCES, 0, S_CD, 0).unwrap();
    l.transition(7, 4, 2, S_CD, S_CS, 0).unwrap();
    // ALL from COPY_DEST now mismatches subresource 2
    assert_eq!(l.transition(7, 4, ALL_SUBRESOURCES, S_CD, S_PSR, 0).unwrap_err().id.0, 527);
    l.transition(7, 4, 2, S_CS, S_CD, 0).unwrap();
    l.transition(7, 4, ALL_SUBRESOURCES, S_CD, S_PSR, 0).unwrap();
    assert!((0..4).all(|s| l.state_of(7, s) == Some(S_PSR)));
    assert_eq!(l.transition(7, 4, 4, S_PSR, 0, 0).unwrap_err().id.0, 521);
    assert_eq!(l.end_states().len(), 4);
}

#[test]
fn leaving_common_may_name_a_promotable_state() {
    let mut l = ListStates::new();
    l.transition(3, 1, 0, S_CD, 0, 0).unwrap();
    // promoted to COPY_SOURCE by a copy, then an explicit barrier from COPY_SOURCE
    assert!(l.use_as(3, 1, false, 0, S_CS).is_none());
    l.transition(3, 1, 0, S_CS, S_CD, 0).unwrap();
    // a barrier out of COMMON naming a promotable state without a prior use (docs)
    l.transition(3, 1, 0, S_CD, 0, 0).unwrap();
    l.transition(3, 1, 0, S_PSR, S_CD, 0).unwrap();
    // DEPTH_WRITE is never promotable: mismatch
    l.transition(3, 1, 0, S_CD, 0, 0).unwrap();
    assert_eq!(l.transition(3, 1, 0, S_DW, S_DR, 0).unwrap_err().id.0, 527);
}

#[test]
fn split_barriers() {
    let mut l = ListStates::new();
    l.transition(1, 2, 0, S_RT, S_PSR, BEGIN).unwrap();
    // the pending subresource can't be used or transitioned otherwise
    assert_eq!(l.use_as(1, 2, false, 0, S_PSR).unwrap().id.0, 538);
    assert_eq!(l.transition(1, 2, 0, S_RT, S_PSR, 0).unwrap_err().id.0, 533);
    assert_eq!(l.transition(1, 2, 0, S_RT, S_PSR, BEGIN).unwrap_err().id.0, 533);
    assert_eq!(l.transition(1, 2, ALL_SUBRESOURCES, S_RT, S_PSR, 0).unwrap_err().id.0, 533);
    // END with other states
    assert_eq!(l.transition(1, 2, 0, S_RT, S_NPSR, END).unwrap_err().id.0, 957);
    // Close with a pending BEGIN
    assert_eq!(l.finish().unwrap_err().id.0, 535);
    assert!(l.end_states()[0].pending);
    // the other subresource is unaffected
    l.transition(1, 2, 1, S_RT, S_CD, 0).unwrap();
    // matching END completes it
    l.transition(1, 2, 0, S_RT, S_PSR, END).unwrap();
    assert!(l.finish().is_ok());
    assert_eq!(l.state_of(1, 0), Some(S_PSR));
    assert!(l.use_as(1, 2, false, 0, S_PSR).is_none());
    // END without BEGIN
    assert_eq!(l.transition(1, 2, 0, S_PSR, S_RT, END).unwrap_err().id.0, 534);
    assert_eq!(l.transition(9, 1, 0, 0, S_CD, END).unwrap_err().id.0, 534);
    // invalid flags
    assert_eq!(l.transition(1, 2, 0, S_PSR, S_RT, BEGIN | END).unwrap_err().id.0, 531);
    // BEGIN with a wrong before-state is a mismatch too
    assert_eq!(l.transition(1, 2, 1, S_RT, S_CS, BEGIN).unwrap_err().id.0, 527);
    l.reset();
    assert!(l.finish().is_ok() && l.end_states().is_empty());
}

/// The promotion table of §4.2: (state, buffers & simultaneous-access textures, other textures).
const PROMOTION_TABLE: &[(u32, bool, bool)] = &[
    (S_VCB, true, false),
    (S_IB, true, false),
    (S_RT, true, false),
    (S_UAV, true, false),
    (S_SO, true, false),
    (S_IND, true, false),
    (S_RD, true, false),
    (S_RS, true, false),
    (S_NPSR, true, true),
    (S_PSR, true, true),
    (S_CD, true, true),
    (S_CS, true, true),
    (S_DW, false, false),
    (S_DR, false, false),
];

#[test]
fn promotion_table() {
    for &(s, simul, tex) in PROMOTION_TABLE {
        assert_eq!(is_promotable(s, true), simul, "0x{s:x} buffer");
        assert_eq!(is_promotable(s, false), tex, "0x{s:x} texture");
        assert_eq!(promote(COMMON, false, true, s), simul.then_some((s, true)), "0x{s:x} buffer");
        assert_eq!(promote(COMMON, false, false, s), tex.then_some((s, true)), "0x{s:x} texture");
    }
    assert!(!is_promotable(0, true));
    assert!(!is_promotable(0x1_0000, true), "video states are not promotable");
}

#[test]
fn promotion_rules() {
    // reads accumulate
    assert_eq!(promote(S_PSR, true, false, S_NPSR), Some((S_PSR | S_NPSR, true)));
    assert_eq!(promote(S_PSR | S_NPSR, true, false, S_CS), Some((S_PSR | S_NPSR | S_CS, true)));
    // but not from an explicit read state
    assert_eq!(promote(S_PSR, false, false, S_NPSR), None);
    // a use contained in the current state is fine
    assert_eq!(promote(S_GR, false, true, S_CS), Some((S_GR, false)));
    assert_eq!(promote(S_CD, true, false, S_CD), Some((S_CD, true)));
    // write after read promotion needs a barrier
    assert_eq!(promote(S_PSR, true, false, S_CD), None);
    // after promotion to a write state, any different use needs a barrier
    assert_eq!(promote(S_CD, true, false, S_CS), None);
    assert_eq!(promote(S_UAV, true, true, S_CD), None);
    // a read accumulation is only for promotable reads (buffer set vs texture set)
    assert_eq!(promote(S_PSR, true, false, S_VCB), None);
    assert_eq!(promote(S_PSR, true, true, S_VCB), Some((S_PSR | S_VCB, true)));
    // present / COMMON use
    assert_eq!(promote(COMMON, false, false, COMMON), Some((COMMON, false)));
    assert_eq!(promote(S_RT, false, false, COMMON), None);
    // invalid use
    assert_eq!(promote(COMMON, false, true, S_UAV | S_PSR), None);
}

#[test]
fn list_promotion_tracking() {
    let mut l = ListStates::new();
    // seeded COMMON texture: read promotion accumulates, then a write needs a barrier
    l.seed(5, 1, 0, COMMON);
    assert!(l.use_as(5, 1, false, 0, S_PSR).is_none());
    assert!(l.use_as(5, 1, false, 0, S_NPSR).is_none());
    assert_eq!(l.state_of(5, 0), Some(S_PSR | S_NPSR));
    let w = l.use_as(5, 1, false, 0, S_CD).unwrap();
    assert_eq!(w.id.0, 538);
    assert_eq!(l.state_of(5, 0), Some(S_PSR | S_NPSR), "illegal uses don't change the state");
    // an explicit barrier from the accumulated read set is the right thing
    l.transition(5, 1, 0, S_PSR | S_NPSR, S_CD, 0).unwrap();
    assert!(l.take_warnings().is_empty());
    assert!(l.use_as(5, 1, false, 0, S_CD).is_none());
    let e = l.end_states();
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].state, Some(S_CD));
    assert!(!e[0].promoted && !e[0].promoted_read_only());

    // textures can't promote to VERTEX_AND_CONSTANT_BUFFER, buffers can
    let mut l = ListStates::new();
    l.seed(1, 1, 0, COMMON);
    l.seed(2, 1, 0, COMMON);
    assert_eq!(l.use_as(1, 1, false, 0, S_VCB).unwrap().id.0, 538);
    assert!(l.use_as(2, 1, true, 0, S_VCB).is_none());
    // depth never promotes
    l.seed(3, 1, 0, COMMON);
    assert_eq!(l.use_as(3, 1, false, 0, S_DW).unwrap().id.0, 538);
    // a seeded explicit state contradicting a barrier's before-state is a warning only
    l.seed(4, 1, 0, S_NPSR);
    l.transition(4, 1, 0, S_UAV, S_CD, 0).unwrap();
    let w = l.take_warnings();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].id.0, 538);
    // promoted read-only end state → decays
    let e = l.end_states();
    let b = e.iter().find(|e| e.resource_id == 2).unwrap();
    assert_eq!(b.state, Some(S_VCB));
    assert!(b.promoted_read_only());
}

#[test]
fn unknown_entry_states_resolve_at_submission() {
    let mut l = ListStates::new();
    // uses before any barrier: the queue state decides
    assert!(l.use_as(1, 1, false, 0, S_CS).is_none());
    assert!(l.use_as(1, 1, false, 0, S_PSR).is_none());
    // a write on top of reads can't be satisfied by any start state
    assert_eq!(l.use_as(1, 1, false, 0, S_CD).unwrap().id.0, 538);
    // a use-only subresource
    assert!(l.use_as(2, 1, true, 0, S_CD).is_none());
    let ends = l.end_states();
    assert_eq!(ends.len(), 2);
    let e1 = ends[0];
    assert_eq!((e1.entry_uses, e1.state, e1.entry_before), (S_CS | S_PSR, None, None));
    // queue state COMMON: promoted to the reads, decays later (rule 4)
    let a = e1.apply(COMMON, false, false);
    assert_eq!((a.state, a.promoted), (S_CS | S_PSR, true));
    assert!(a.warnings.is_empty());
    assert!(decays(false, false, false, a.promoted && is_read_only(a.state)));
    // queue state GENERIC_READ contains them: unchanged, no promotion
    let a = e1.apply(S_GR, false, true);
    assert_eq!((a.state, a.promoted), (S_GR, false));
    // queue state RENDER_TARGET: illegal (debug message only)
    let a = e1.apply(S_RT, false, false);
    assert_eq!(a.state, S_RT);
    assert_eq!(a.warnings[0].id.0, 538);
    // the COPY_DEST buffer use: promoted from COMMON to a write state
    let a = ends[1].apply(COMMON, false, true);
    assert_eq!((a.state, a.promoted), (S_CD, true));
    // a promoted read state from an earlier list of the same submission keeps accumulating
    let mut l = ListStates::new();
    assert!(l.use_as(3, 1, false, 0, S_NPSR).is_none());
    let a = l.end_states()[0].apply(S_PSR, true, false);
    assert_eq!((a.state, a.promoted), (S_PSR | S_NPSR, true));
    // uses, then a barrier whose before-state doesn't contain them: warning at record time
    let mut l = ListStates::new();
    assert!(l.use_as(4, 1, false, 0, S_CS).is_none());
    l.transition(4, 1, 0, S_PSR, S_CD, 0).unwrap();
    assert_eq!(l.take_warnings()[0].id.0, 538);
    let e = l.end_states()[0];
    assert_eq!((e.entry_uses, e.entry_before, e.state), (S_CS, Some(S_PSR), Some(S_CD)));
    // at submission in COPY_SOURCE: the use is fine, the barrier's before-state is not
    let a = e.apply(S_CS, false, false);
    assert_eq!(a.state, S_CD);
    assert_eq!(a.warnings.len(), 1);
}

#[test]
fn decay_table() {
    // (buffer, simultaneous, copy queue, promoted read-only) → decays (§4.3)
    let cases = [
        ((false, false, false, false), false), // explicitly transitioned texture keeps its state
        ((true, false, false, false), true),   // buffers always
        ((false, true, false, false), true),   // simultaneous-access textures always
        ((false, false, true, false), true),   // anything touched on a copy queue
        ((false, false, false, true), true),   // implicitly promoted to a read-only state
        ((true, true, true, true), true),
    ];
    for ((b, s, c, p), want) in cases {
        assert_eq!(decays(b, s, c, p), want, "{b} {s} {c} {p}");
    }
    // a texture promoted to COPY_DEST (a write) does not decay
    let mut l = ListStates::new();
    l.seed(1, 1, 0, COMMON);
    assert!(l.use_as(1, 1, false, 0, S_CD).is_none());
    let e = l.end_states()[0];
    assert!(e.promoted && !e.promoted_read_only());
    assert!(!decays(false, false, false, e.promoted_read_only()));
}

#[test]
fn violation_display() {
    let v = Violation::new(crate::error::msg::RESOURCE_BARRIER_MATCHING_STATES, "x");
    assert_eq!(v.to_string(), "#525 x");
}
