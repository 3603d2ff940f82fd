//! A hull shader's join phase reading, through `vpc`, the patch constants its fork phases (and
//! an earlier join phase) wrote (D3D11.3 functional spec, "Hull Shader Join Phase": its inputs
//! are the fork phases' patch constant outputs), on the interpreter and the JIT.

use super::*;
use rd3d12_core::shader::{element, SemanticKind, SignatureElement, TessDomain};

/// A triangle domain's patch constants: SV_TessFactor in registers 0..2 (one element of three
/// rows once merged), SV_InsideTessFactor in 3, and a user float4 "K" in 4.
fn patch() -> Vec<SignatureElement> {
    let f = |semantic, name: &str, i: u32, reg: u32| SignatureElement {
        semantic,
        mask: 1,
        rw_mask: 1,
        cols: 1,
        ..element(name, i, reg)
    };
    let mut p: Vec<_> = (0..3).map(|i| f(SemanticKind::TessFactor, "SV_TessFactor", i, i)).collect();
    p.push(f(SemanticKind::InsideTessFactor, "SV_InsideTessFactor", 0, 3));
    p.push(element("K", 0, 4));
    p
}

/// The patch constant function's stores, in order.
fn patch_stores(text: &str) -> Vec<Vec<String>> {
    let pos = element("P", 0, 0);
    let bytes = asm::container_with(
        text,
        std::slice::from_ref(&pos),
        std::slice::from_ref(&pos),
        &patch(),
        Some(TessDomain::Tri),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    [Mode::Interp, Mode::Jit]
        .into_iter()
        .map(|mode| {
            let mut env = Hs { cp: 0, log: vec![] };
            crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[1], &mut env))
                .unwrap_or_else(|e| panic!("{mode:?}: {e:?}"));
            env.log
        })
        .collect()
}

const HEAD: &str = "hs_5_0
hs_decls
dcl_input_control_point_count 3
dcl_output_control_point_count 3
dcl_tessellator_domain domain_tri
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
";

/// The first fork phase (3 instances) writes edge factor i = 2 + i (instance i stores every
/// edge at or above i: the last store of edge i is instance i's), the second K.xy =
/// (vocp[2][0].x, 0.5) = (2000, 0.5) (vocp[2][0].x reads 1000 * 2 + 10 * 0 + 0); the join phase
/// reads them back through vpc: the inside factor is the mean of the three edges, (2 + 3 + 4) / 3
/// = 3, and K.z = vpc4.x * 2 + vpc4.y = 4000.5. A second join phase sees the first one's output
/// too: K.w = vpc3.x + vpc4.z = 4003.5.
#[test]
fn a_join_phase_reads_the_fork_phases_patch_constants_through_vpc() {
    let text = format!(
        "{HEAD}hs_fork_phase
dcl_hs_fork_phase_instance_count 3
dcl_input vForkInstanceID
dcl_temps 2
utof r0.x, vForkInstanceID
add r0.x, r0.x, l(2.0)
mov o2.x, r0.x
ige r1.x, vForkInstanceID, l(2)
retc_nz r1.x
mov o1.x, r0.x
ige r1.x, vForkInstanceID, l(1)
retc_nz r1.x
mov o0.x, r0.x
ret
hs_fork_phase
mov o4.xy, vocp[2][0].x
mov o4.y, l(0.5)
ret
hs_join_phase
dcl_temps 1
add r0.x, vpc0.x, vpc1.x
add r0.x, r0.x, vpc2.x
div o3.x, r0.x, l(3.0)
mad o4.z, vpc4.x, l(2.0), vpc4.y
ret
hs_join_phase
add o4.w, vpc3.x, vpc4.z
ret"
    );
    let want = vec![
        // Fork phase 1, instances 0, 1, 2.
        "pc 0 2 0 F32(2.0)",
        "pc 0 1 0 F32(2.0)",
        "pc 0 0 0 F32(2.0)",
        "pc 0 2 0 F32(3.0)",
        "pc 0 1 0 F32(3.0)",
        "pc 0 2 0 F32(4.0)",
        // Fork phase 2.
        "pc 2 0 0 F32(2000.0)",
        "pc 2 0 1 F32(2000.0)",
        "pc 2 0 1 F32(0.5)",
        // The join phases.
        "pc 1 0 0 F32(3.0)",
        "pc 2 0 2 F32(4000.5)",
        "pc 2 0 3 F32(4003.5)",
    ];
    for (mode, log) in ["interp", "jit"].iter().zip(patch_stores(&text)) {
        assert_eq!(log, want, "{mode}");
    }
}

/// vpc with a relative index in a join phase of 2 instances (vpc[40 * vJoinInstanceID + 1]:
/// vpc1, then vpc41, past the 32 registers, which reads 0), and a patch constant no phase
/// wrote, which reads 0 too (K.y, as integer bits plus 5).
#[test]
fn a_join_phase_indexes_vpc_and_reads_zero_where_nothing_was_written() {
    let text = format!(
        "{HEAD}hs_fork_phase
mov o1.x, l(7.0)
mov o2.x, l(9.0)
ret
hs_join_phase
dcl_hs_join_phase_instance_count 2
dcl_input vJoinInstanceID
dcl_temps 1
imad r0.x, vJoinInstanceID, l(40), l(1)
mov o3.x, vpc[r0.x + 0].x
ret
hs_join_phase
iadd o4.x, vpc4.y, l(5)
ret"
    );
    let want = vec![
        "pc 0 1 0 F32(7.0)",
        "pc 0 2 0 F32(9.0)",
        "pc 1 0 0 F32(7.0)",
        "pc 1 0 0 F32(0.0)",
        // 5 as bits, in a float element.
        "pc 2 0 0 F32(7e-45)",
    ];
    for (mode, log) in ["interp", "jit"].iter().zip(patch_stores(&text)) {
        assert_eq!(log, want, "{mode}");
    }
}

/// vpc is a join phase's: a fork phase reading it is malformed.
#[test]
fn vpc_in_a_fork_phase_is_refused() {
    let text = format!("{HEAD}hs_fork_phase\nmov o3.x, vpc0.x\nret");
    let pos = element("P", 0, 0);
    let bytes = asm::container_with(
        &text,
        std::slice::from_ref(&pos),
        std::slice::from_ref(&pos),
        &patch(),
        Some(TessDomain::Tri),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let e = parse(&bytes).unwrap_err().to_string();
    assert!(e.contains("vpc outside a hull shader's join phase"), "{e}");
}
