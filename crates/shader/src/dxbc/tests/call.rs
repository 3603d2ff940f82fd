//! Subroutines inlined at their call sites (interpreter and JIT), the refusals of recursion
//! and of malformed calls, and of interfaces.

use super::*;

pub(super) const CALLS: &str = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 3
dcl_thread_group 4, 1, 1
mov r0.xy, l(0, 0, 0, 0)
call l0
ult r1.x, vThreadID.x, l(2)
callc_nz r1.x, l1
callc_z r1.x, l3
loop
  uge r1.y, r0.y, l(3)
  breakc_nz r1.y
  call l2
  iadd r0.y, r0.y, l(1)
endloop
ishl r2.x, vThreadID.x, l(2)
store_raw u0.x, r2.x, r0.x
ret
label l0
iadd r0.x, r0.x, l(10)
call l1
ret
label l1
iadd r0.x, r0.x, l(100)
ret
label l2
ieq r1.z, vThreadID.x, l(3)
retc_nz r1.z
iadd r0.x, r0.x, l(1000)
ret
label l3
iadd r0.x, r0.x, l(7)
";

#[test]
fn calls_inline_their_label_and_ret_returns_to_the_caller() {
    let out = both(CALLS, vec![vec![0; 4]], vec![0], vec![]);
    // l0 adds 10 and calls l1 (100); threads 0 and 1 call l1 again (callc_nz), 2 and 3 call
    // l3 (callc_z, 7, its body ending at the program's end); the loop calls l2 three times,
    // which returns at once for thread 3 and adds 1000 for the others.
    assert_eq!(out[0], vec![3210, 3210, 3117, 117]);
}

fn refusal(body: &str) -> DxbcError {
    let src = format!("cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n{body}");
    parse(&container(&src, &[], &[], None).unwrap()).unwrap_err()
}

#[test]
fn recursion_and_malformed_calls_are_refused() {
    let malformed = |body: &str, what: &str| {
        let e = refusal(body);
        assert!(matches!(e, DxbcError::Lower(lower::LowerError::Malformed(_))), "{body}: {e}");
        assert!(e.to_string().contains(what), "{body}: {e}");
    };
    malformed("call l0\nret\nlabel l0\ncall l0\nret", "recursion");
    malformed("call l0\nret\nlabel l0\ncall l1\nret\nlabel l1\ncall l0\nret", "recursion");
    malformed("call l4\nret", "no label declares");
    malformed("call l0\nret\nlabel l0\nret\nlabel l0\nret", "twice");
    malformed("loop\ncall l0\nendloop\nret\nlabel l0\nbreak\nret", "break outside loop");
    malformed("call l0\nret\nlabel l0\nloop\nret", "not closed at the end of l0");
    // 33 nested calls.
    let mut chain = String::from("call l0\nret\n");
    for k in 0..33 {
        chain.push_str(&format!("label l{k}\ncall l{}\nret\n", k + 1));
    }
    chain.push_str("label l33\nret");
    malformed(&chain, "deeper than 32");
}

#[test]
fn inlining_that_would_explode_is_refused() {
    // Each label calls the next twice: 2^20 inlined bodies.
    let mut text = String::from("call l0\nret\n");
    for k in 0..20 {
        text.push_str(&format!("label l{k}\ncall l{0}\ncall l{0}\nret\n", k + 1));
    }
    text.push_str("label l20\nmov r0.x, l(1)\nret");
    assert!(matches!(refusal(&text), DxbcError::Lower(lower::LowerError::Unsupported(_))));
}

/// `dcl_function_body fb0` (opcode 144, one DWORD) and `fcall fp0[0][0]` (120: the call
/// site's DWORD, then an interface operand, type 19) are refused: D3D12 has no class linkage.
#[test]
fn interfaces_are_refused() {
    let base = assemble("cs_5_0\ndcl_thread_group 1, 1, 1\nret").unwrap();
    let interface_op = 19 << 12 | 2 << 20;
    for extra in [vec![144 | 2 << 24, 0], vec![120 | 5 << 24, 0, interface_op, 0, 0]] {
        let mut w = base.clone();
        let at = w.len() - 1;
        w.splice(at..at, extra.iter().copied());
        w[1] = w.len() as u32;
        let e = parse(&container_words(&w)).unwrap_err();
        assert!(matches!(e, DxbcError::Lower(lower::LowerError::Unsupported(_))), "{e}");
        assert!(e.to_string().contains("class linkage"), "{e}");
    }
}

/// A call inside a hull shader's fork phase: the subroutine (after the last phase) sees the
/// phase's registers and vForkInstanceID, and its `retc` returns to the phase, which goes on
/// (a `ret` of the phase itself would end the instance).
#[test]
fn a_fork_phase_calls_a_subroutine_and_continues_after_its_ret() {
    use rd3d12_core::shader::{element, SemanticKind, SignatureElement, TessDomain};
    let f = |semantic, name: &str, i: u32, reg: u32| SignatureElement {
        semantic,
        mask: 1,
        rw_mask: 1,
        cols: 1,
        ..element(name, i, reg)
    };
    let mut patch: Vec<_> = (0..4).map(|i| f(SemanticKind::TessFactor, "SV_TessFactor", i, i)).collect();
    patch.extend((0..2).map(|i| f(SemanticKind::InsideTessFactor, "SV_InsideTessFactor", i, 4 + i)));
    let text = "hs_5_0
hs_decls
dcl_input_control_point_count 1
dcl_output_control_point_count 1
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
hs_fork_phase
dcl_hs_fork_phase_instance_count 2
dcl_input vForkInstanceID
dcl_temps 1
utof r0.x, vForkInstanceID
call l0
add o0.x, r0.x, l(1.0)
ret
hs_join_phase
mov o4.x, l(3.0)
ret
label l0
ieq r0.y, vForkInstanceID, l(1)
retc_nz r0.y
add r0.x, r0.x, l(10.0)
ret";
    let pos = element("P", 0, 0);
    let bytes = asm::container_with(
        text,
        std::slice::from_ref(&pos),
        std::slice::from_ref(&pos),
        &patch,
        Some(TessDomain::Quad),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    for mode in [Mode::Interp, Mode::Jit] {
        let mut env = Hs { cp: 0, log: vec![] };
        crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[1], &mut env)).unwrap();
        // Instance 0: 0 + 10 + 1; instance 1 returns from l0 at once: 1 + 1; then the join.
        assert_eq!(env.log, vec!["pc 0 0 0 F32(11.0)", "pc 0 0 0 F32(2.0)", "pc 1 0 0 F32(3.0)"], "{mode:?}");
    }
}
