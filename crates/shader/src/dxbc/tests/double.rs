//! Double-precision instructions on the interpreter and the JIT, values worked out by hand
//! from the instructions' reference pages (pairs .xy / .zw, low word first; 32-bit results to
//! the mask's first and second components).

use super::*;

pub(super) const DOUBLES: &str = "cs_5_0
dcl_globalFlags enableDoublePrecisionFloatOps
dcl_uav_raw u0
dcl_temps 4
dcl_thread_group 1, 1, 1
dmov r0.xyzw, d(1.5, -2.25)
dadd r1.xyzw, r0.xyzw, d(0.25, 0.5)
store_raw u0.xyzw, l(0), r1.xyzw
dmul r1.xy, r0.zwzw, d(4.0)
ddiv r1.zw, r0.xyxy, d(0.0, 3.0)
store_raw u0.xyzw, l(16), r1.xyzw
dmax r1.xy, -r0.zwzw, r0.xyxy
dmin r1.zw, |r0.zwzw|, d(0.0, 1.0)
store_raw u0.xyzw, l(32), r1.xyzw
dfma r1.xyzw, r0.xyzw, d(2.0, 2.0), d(0.5, 0.5)
store_raw u0.xyzw, l(48), r1.xyzw
drcp r1.xy, d(0.125)
dmov_sat r1.zw, d(0.0, 7.5)
store_raw u0.xyzw, l(64), r1.xyzw
deq r2.x, r0.xyzw, d(1.5, 0.0)
dlt r2.yz, r0.xyzw, d(2.0, -3.0)
dge r2.w, r0.zwxy, d(-2.25, 0.0)
store_raw u0.xyzw, l(80), r2.xyzw
dne r3.x, d(0x7FF8000000000000), d(0x7FF8000000000000)
deq r3.y, d(0x7FF8000000000000), d(0x7FF8000000000000)
dtof r3.zw, r0.xyzw
store_raw u0.xyzw, l(96), r3.xyzw
dtoi r3.x, d(-7.9)
dtou r3.y, d(1e10)
dtoi r3.z, d(0x7FF8000000000000)
dtoi r3.w, d(-1e20)
store_raw u0.xyzw, l(112), r3.xyzw
ftod r1.xyzw, l(0.5, -3.0, 0, 0)
store_raw u0.xyzw, l(128), r1.xyzw
itod r1.xy, l(-5)
utod r1.zw, l(0xFFFFFFFF, 0xFFFFFFFE, 0, 0)
store_raw u0.xyzw, l(144), r1.xyzw
dmovc r1.xyzw, l(0, 1, 0, 0), r0.xyzw, d(9.0, 10.0)
store_raw u0.xyzw, l(160), r1.xyzw
dadd r1.xy, -r0.zwzw, -|r0.xyxy|
store_raw u0.xy, l(176), r1.xyxx
ret";

/// The two words of `x`, low first.
fn d(x: f64) -> [u32; 2] {
    let b = x.to_bits();
    [b as u32, (b >> 32) as u32]
}

fn dd(a: f64, b: f64) -> [u32; 4] {
    let (a, b) = (d(a), d(b));
    [a[0], a[1], b[0], b[1]]
}

#[test]
fn double_precision_instructions_match_hand_worked_values() {
    let out = both(DOUBLES, vec![vec![0; 46]], vec![0], vec![]);
    let u = &out[0];
    let row = |i: usize| -> [u32; 4] { [u[4 * i], u[4 * i + 1], u[4 * i + 2], u[4 * i + 3]] };
    // 1.5 + 0.25, -2.25 + 0.5.
    assert_eq!(row(0), dd(1.75, -1.75));
    // -2.25 * 4 (the one-double immediate gives both words); .zw: the second doubles, 1.5 / 3.
    assert_eq!(row(1), dd(-9.0, 0.5));
    // max(2.25, 1.5); min(|-2.25|, 1.0).
    assert_eq!(row(2), dd(2.25, 1.0));
    // 1.5 * 2 + 0.5, -2.25 * 2 + 0.5.
    assert_eq!(row(3), dd(3.5, -4.0));
    // 1 / 0.125; 7.5 saturated.
    assert_eq!(row(4), dd(8.0, 1.0));
    // 1.5 == 1.5; 1.5 < 2 and not -2.25 < -3; -2.25 >= -2.25.
    assert_eq!(row(5), [u32::MAX, u32::MAX, 0, u32::MAX]);
    // NaN != NaN holds, NaN == NaN does not; dtof of both doubles.
    assert_eq!(row(6), [u32::MAX, 0, f(1.5), f(-2.25)]);
    // Toward zero; 1e10 clamps to u32::MAX; NaN gives 0; -1e20 clamps to i32::MIN.
    assert_eq!(row(7), [-7i32 as u32, u32::MAX, 0, 0x8000_0000]);
    // x and y converted to the first and second double.
    assert_eq!(row(8), dd(0.5, -3.0));
    // -5 signed; .zw takes the second conversion, of y = 0xFFFFFFFE unsigned.
    assert_eq!(row(9), dd(-5.0, 4294967294.0));
    // Condition x = 0 picks the false double 9.0; y = 1 the true one, r0's second.
    assert_eq!(row(10), dd(9.0, -2.25));
    // -(-2.25) + -|1.5|.
    assert_eq!([u[44], u[45]], d(0.75));
}

#[test]
fn double_masks_and_swizzles_that_split_a_double_are_refused() {
    for text in [
        "dadd r0.x, r0.xyzw, r0.xyzw",
        "ftod r0.xyz, l(1.0, 2.0, 0, 0)",
        "deq r0.xyz, r0.xyzw, r0.xyzw",
        // Swizzles that split a double.
        "dadd r0.xy, r0.yxzw, r0.xyzw",
        "dmul r0.zw, r0.xyxz, r0.xyzw",
        "dmov r0.xy, r0.x",
    ] {
        let src = format!("cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\n{text}\nret");
        let bytes = container(&src, &[], &[], None).unwrap();
        let e = parse(&bytes).unwrap_err();
        assert!(matches!(e, DxbcError::Lower(lower::LowerError::Malformed(_))), "{text}: {e}");
    }
}

#[test]
fn the_assembler_encodes_double_immediates_low_word_first() {
    let t = assemble("cs_5_0\ndmov r0.xyzw, d(1.0, 0x123456789ABCDEF0)\ndmov r0.xy, d(2.0)\nret").unwrap();
    let one = 1f64.to_bits();
    let two = 2f64.to_bits();
    // dmov (199): 1 + 2 + 1 + 8 DWORDs (opcode, r0 and its index, the immediate); the 4-component 64-bit immediate token 0x00005002.
    assert_eq!(t[2], 199 | 12 << 24);
    assert_eq!(t[5], 0x0000_5002);
    assert_eq!(&t[6..14], &[one as u32, (one >> 32) as u32, 0x9ABC_DEF0, 0x1234_5678, 0, 0, 0, 0]);
    // The one-component form 0x00005001 and its two words.
    assert_eq!(t[14], 199 | 6 << 24);
    assert_eq!(&t[17..20], &[0x0000_5001, two as u32, (two >> 32) as u32]);
}
