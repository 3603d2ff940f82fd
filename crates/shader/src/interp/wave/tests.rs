//! Each wave operation on values worked out by hand: full waves of 4 to 128 lanes, partial
//! masks, helper lanes, 16- and 64-bit types.

use super::*;

const WIDTHS: [u32; 6] = [4, 8, 16, 32, 64, 128];

fn full(w: u32) -> Lanes {
    Lanes::full(w).unwrap()
}

/// `f(L)` for each lane of a 128-lane array.
fn per_lane(f: impl Fn(u64) -> u64) -> Vec<u64> {
    (0..128).map(f).collect()
}

fn f32s(v: &[f32]) -> Vec<u64> {
    v.iter().map(|x| u64::from(x.to_bits())).collect()
}

/// Runs `op` and returns lane results; lanes not written keep the sentinel 0xDEAD.
fn run(op: WaveOp, ty: Scalar, lanes: &Lanes, args: &[&[u64]]) -> Vec<u64> {
    let mut out = vec![0xDEAD; lanes.width() as usize * op.results()];
    eval(op, ty, lanes, args, &mut out);
    out
}

const SUM_U: WaveOp = WaveOp::Active { op: Reduce::Sum, signed: false };

#[test]
fn lanes_are_the_wave_sizes_d3d_allows() {
    for w in WIDTHS {
        let l = full(w);
        assert_eq!((l.width(), l.active(), l.participants()), (w, lanes_below(w), lanes_below(w)));
    }
    for w in [0, 2, 3, 12, 48, 256] {
        assert_eq!(Lanes::new(w, Mask::MAX, 0), None, "{w}");
    }
    // Bits at or above W are dropped; a helper lane must be active.
    let l = Lanes::new(8, 0x1_0F, 0x3_03).unwrap();
    assert_eq!((l.active(), l.helper(), l.participants()), (0x0F, 0x03, 0x0C));
    assert_eq!((lanes_below(0), lanes_below(5), lanes_below(128), lanes_below(200)), (0, 31, Mask::MAX, Mask::MAX));
}

#[test]
fn from_dx_op_decodes_the_opcodes_and_kind_operands_of_dxil_rst() {
    let d = |op: u32, c: &[Option<u64>]| WaveOp::from_dx_op(op, c);
    let simple = [
        (110, WaveOp::IsFirstLane),
        (111, WaveOp::GetLaneIndex),
        (112, WaveOp::GetLaneCount),
        (113, WaveOp::AnyTrue),
        (114, WaveOp::AllTrue),
        (115, WaveOp::AllEqual),
        (116, WaveOp::Ballot),
        (117, WaveOp::ReadLaneAt),
        (118, WaveOp::ReadLaneFirst),
        (122, WaveOp::QuadReadLaneAt),
        (135, WaveOp::CountBits),
        (136, WaveOp::PrefixCountBits),
    ];
    for (code, op) in simple {
        assert_eq!(d(code, &[None, None]), Ok(Some(op)));
        assert_eq!(op.opcode(), code);
    }
    // WaveActiveOp(value, op, sop): DXC writes WaveActiveMin of a uint as (i8 2, i8 1).
    assert_eq!(d(119, &[None, Some(2), Some(1)]), Ok(Some(WaveOp::Active { op: Reduce::Min, signed: false })));
    assert_eq!(d(119, &[None, Some(3), Some(0)]), Ok(Some(WaveOp::Active { op: Reduce::Max, signed: true })));
    assert_eq!(d(119, &[None, Some(1), Some(0)]), Ok(Some(WaveOp::Active { op: Reduce::Product, signed: true })));
    assert_eq!(d(121, &[None, Some(0), Some(1)]), Ok(Some(WaveOp::Prefix { op: Reduce::Sum, signed: false })));
    assert_eq!(d(120, &[None, Some(0)]), Ok(Some(WaveOp::Bit(BitOp::And))));
    assert_eq!(d(120, &[None, Some(2)]), Ok(Some(WaveOp::Bit(BitOp::Xor))));
    assert_eq!(d(123, &[None, Some(1)]), Ok(Some(WaveOp::Quad(QuadDir::Y))));
    assert_eq!(d(123, &[None, Some(2)]), Ok(Some(WaveOp::Quad(QuadDir::Diagonal))));
    assert_eq!(WaveOp::Quad(QuadDir::X).opcode(), 123);
    // Kinds out of range or not constants; WavePrefixOp has no Min or Max.
    for (code, c) in [
        (119, vec![None, Some(4), Some(0)]),
        (119, vec![None, Some(0), Some(2)]),
        (119, vec![None, None, Some(0)]),
        (119, vec![None, Some(0)]),
        (120, vec![None, Some(3)]),
        (121, vec![None, Some(2), Some(0)]),
        (123, vec![None, Some(3)]),
        (123, vec![]),
    ] {
        assert_eq!(d(code, &c).map_err(|e| e.opcode), Err(code), "{code} {c:?}");
    }
    assert_eq!(d(57, &[]), Ok(None));
    assert_eq!(d(124, &[]), Ok(None));
    assert_eq!(WaveOp::Ballot.results(), 4);
    assert_eq!(WaveOp::Ballot.result(Scalar::Bool), Scalar::I32);
    assert_eq!(WaveOp::AllEqual.result(Scalar::F64), Scalar::Bool);
    assert_eq!(WaveOp::Active { op: Reduce::Sum, signed: true }.result(Scalar::F16), Scalar::F16);
    assert_eq!(WaveOp::Quad(QuadDir::X).result(Scalar::I64), Scalar::I64);
    let operands =
        [WaveOp::GetLaneCount, WaveOp::AnyTrue, WaveOp::ReadLaneAt, WaveOp::QuadReadLaneAt, WaveOp::CountBits];
    assert_eq!(operands.map(WaveOp::lane_operands), [0, 1, 2, 2, 1]);
    assert!(WaveOp::QuadReadLaneAt.is_quad() && !WaveOp::ReadLaneAt.is_quad());
}

#[test]
fn lane_index_count_and_first_lane() {
    for w in WIDTHS {
        let l = full(w);
        let want: Vec<u64> = (0..u64::from(w)).collect();
        assert_eq!(run(WaveOp::GetLaneIndex, Scalar::I32, &l, &[]), want);
        assert_eq!(run(WaveOp::GetLaneCount, Scalar::I32, &l, &[]), vec![u64::from(w); w as usize]);
        let first = run(WaveOp::IsFirstLane, Scalar::Bool, &l, &[]);
        assert_eq!(first.iter().sum::<u64>(), 1, "one first lane");
        assert_eq!(first[0], 1);
    }
    // Lanes 2, 5, 7 of 8 active: lane 2 is first; inactive lanes are not written.
    let l = Lanes::new(8, 0b1010_0100, 0).unwrap();
    assert_eq!(run(WaveOp::IsFirstLane, Scalar::Bool, &l, &[]), [0xDEAD, 0xDEAD, 1, 0xDEAD, 0xDEAD, 0, 0xDEAD, 0]);
    // A helper lane is never first: lanes 0..4 active, 0 a helper, so lane 1 is.
    let l = Lanes::new(4, 0xF, 0x1).unwrap();
    assert_eq!(run(WaveOp::IsFirstLane, Scalar::Bool, &l, &[]), [0, 1, 0, 0]);
    // Index and count do not depend on the mask.
    let l = Lanes::new(16, 0x8001, 0).unwrap();
    let got = run(WaveOp::GetLaneIndex, Scalar::I32, &l, &[]);
    assert_eq!((got[0], got[15], got[1]), (0, 15, 0xDEAD));
    assert_eq!(run(WaveOp::GetLaneCount, Scalar::I32, &l, &[])[15], 16);
}

#[test]
fn votes_and_ballot_see_only_participating_lanes() {
    let odd = per_lane(|l| l & 1);
    for w in WIDTHS {
        let l = full(w);
        let w64 = u64::from(w);
        assert!(any_true(&l, &per_lane(|x| u64::from(x == 3))));
        assert!(!any_true(&l, &per_lane(|x| u64::from(x >= w64))));
        assert!(all_true(&l, &per_lane(|x| u64::from(x < w64))));
        assert!(!all_true(&l, &per_lane(|x| u64::from(x != 1))));
    }
    // Ballot(L & 1): bit n = lane n.
    assert_eq!(ballot(&full(4), &odd), [0xA, 0, 0, 0]);
    assert_eq!(ballot(&full(8), &odd), [0xAA, 0, 0, 0]);
    assert_eq!(ballot(&full(16), &odd), [0xAAAA, 0, 0, 0]);
    assert_eq!(ballot(&full(32), &odd), [0xAAAA_AAAA, 0, 0, 0]);
    assert_eq!(ballot(&full(64), &odd), [0xAAAA_AAAA, 0xAAAA_AAAA, 0, 0]);
    assert_eq!(ballot(&full(128), &odd), [0xAAAA_AAAA; 4]);
    // Lanes 0, 2, 3, 5, 6 of 8 active (0x6D), cond true everywhere: inactive bits stay 0,
    // and so do the bits from W up whatever cond holds there.
    let l = Lanes::new(8, 0b0110_1101, 0).unwrap();
    assert_eq!(ballot(&l, &[1; 128]), [0x6D, 0, 0, 0]);
    assert!(all_true(&l, &per_lane(|x| u64::from(x != 1 && x != 4))), "inactive lanes 1 and 4 do not vote");
    assert!(!any_true(&l, &per_lane(|x| u64::from(x == 1 || x == 4))));
    // Helper lane 3 of a quad votes in no wave op.
    let l = Lanes::new(4, 0xF, 0x8).unwrap();
    assert_eq!(ballot(&l, &[1; 4]), [0x7, 0, 0, 0]);
    assert!(all_true(&l, &[1, 1, 1, 0]) && !any_true(&l, &[0, 0, 0, 1]));
    // No participant: AllTrue holds vacuously, AnyTrue not.
    let l = Lanes::new(4, 0x3, 0x3).unwrap();
    assert!(all_true(&l, &[0; 4]) && !any_true(&l, &[1; 4]));
    assert_eq!(run(WaveOp::AllTrue, Scalar::Bool, &l, &[&[0; 4]]), [1, 1, 0xDEAD, 0xDEAD]);
}

#[test]
fn ballot_results_are_laid_out_component_major() {
    // W = 8, cond = L & 1: x = 0xAA in every lane, y = z = w = 0.
    let out = run(WaveOp::Ballot, Scalar::Bool, &full(8), &[&per_lane(|l| l & 1)]);
    assert_eq!(out.len(), 32);
    assert_eq!(out[..8], [0xAA; 8]);
    assert_eq!(out[8..], [0; 24]);
    // W = 64, all lanes true: x = y = 0xFFFFFFFF, z = w = 0, each for all 64 lanes.
    let out = run(WaveOp::Ballot, Scalar::Bool, &full(64), &[&[1; 64]]);
    assert_eq!(
        (out[0], out[63], out[64], out[127], out[128], out[255]),
        (0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0, 0)
    );
}

#[test]
fn read_lane_at_and_first() {
    let v = per_lane(|l| 1000 + l);
    for w in WIDTHS {
        let l = full(w);
        let w64 = u64::from(w);
        assert_eq!(run(WaveOp::ReadLaneAt, Scalar::I32, &l, &[&v, &[2; 128]]), vec![1002; w as usize]);
        // A per-lane index: a rotate.
        let rot = run(WaveOp::ReadLaneAt, Scalar::I32, &l, &[&v, &per_lane(|x| (x + 1) % w64)]);
        assert_eq!(rot, (0..w64).map(|x| 1000 + (x + 1) % w64).collect::<Vec<_>>());
        assert_eq!(read_lane_first(&l, &v), 1000);
        // float(L) * 0.5 read at lane W - 1.
        let f = f32s(&(0..128).map(|x| x as f32 * 0.5).collect::<Vec<_>>());
        let got = run(WaveOp::ReadLaneAt, Scalar::F32, &l, &[&f, &[w64 - 1; 128]]);
        assert_eq!(got[0], u64::from(((w - 1) as f32 * 0.5).to_bits()));
    }
    // Undefined in D3D, defined here: an index past W, an inactive or helper source give 0.
    // The index is an i32: lane 6's bits above 32 are not part of it, so it reads lane 0.
    let l = Lanes::new(8, 0b1111_0111, 0b0100_0000).unwrap();
    let got = run(WaveOp::ReadLaneAt, Scalar::I32, &l, &[&v, &[8, 3, 6, 0, 200, 5, 1 << 40, 7]]);
    assert_eq!(got, [0, 0, 0, 0xDEAD, 0, 1005, 1000, 1007]);
    // ReadLaneFirst with lanes 0..2 inactive and lane 3 a helper: lane 4's value.
    let l = Lanes::new(8, 0xF8, 0x08).unwrap();
    assert_eq!(read_lane_first(&l, &v), 1004);
    assert_eq!(read_lane_first(&Lanes::new(4, 1, 1).unwrap(), &v), 0, "no participant");
    // 64-bit values travel whole.
    assert_eq!(read_lane_first(&full(4), &[0x1234_5678_9ABC_DEF0; 4]), 0x1234_5678_9ABC_DEF0);
}

#[test]
fn sums_wrap_and_run_in_lane_order() {
    let lane_ids = per_lane(|l| l);
    for (w, sum) in [(4, 6), (8, 28), (16, 120), (32, 496), (64, 2016), (128, 8128)] {
        let l = full(w);
        assert_eq!(reduce(Reduce::Sum, false, Scalar::I32, &l, &lane_ids), sum, "W={w}");
        // int(L) - 8: W(W-1)/2 - 8W, as 32-bit two's complement.
        let v = per_lane(|x| u64::from((x as i32 - 8) as u32));
        let want = (sum as i32 - 8 * w as i32) as u32;
        assert_eq!(reduce(Reduce::Sum, true, Scalar::I32, &l, &v), u64::from(want), "W={w}");
        // float(L) * 0.25: W(W-1)/8, exact in f32.
        let f = f32s(&(0..128).map(|x| x as f32 * 0.25).collect::<Vec<_>>());
        assert_eq!(reduce(Reduce::Sum, false, Scalar::F32, &l, &f), u64::from((sum as f32 / 4.0).to_bits()));
    }
    // W = 4: 0 + 1 + 2 + 3 - 32 = -26.
    let v = per_lane(|x| u64::from((x as i32 - 8) as u32));
    assert_eq!(reduce(Reduce::Sum, true, Scalar::I32, &full(4), &v), 0xFFFF_FFE6);
    // 32-bit wrap: 4 lanes of 0x8000_0000 sum to 0x2_0000_0000, which is 0.
    assert_eq!(reduce(Reduce::Sum, false, Scalar::I32, &full(4), &[0x8000_0000; 4]), 0);
    // 64-bit: 4 lanes of 0xFFFF_FFFF carry into the high word: 0x3_FFFF_FFFC.
    assert_eq!(reduce(Reduce::Sum, false, Scalar::I64, &full(4), &[0xFFFF_FFFF; 4]), 0x3_FFFF_FFFC);
    // 16-bit: 0x8000 + 0x8000 + 0x0003 wraps to 3; bits above 16 in a lane are ignored.
    assert_eq!(reduce(Reduce::Sum, false, Scalar::I16, &full(4), &[0x8000, 0x8000, 0x1_0003, 0]), 3);
    // f32 in lane order: (1 + 1e8) rounds to 1e8, minus 1e8 is 0 (the other order would be 1).
    let l = Lanes::new(4, 0b0111, 0).unwrap();
    assert_eq!(reduce(Reduce::Sum, false, Scalar::F32, &l, &f32s(&[1.0, 1e8, -1e8, 5.0])), 0);
    // f16, rounded to half each step: 2048 + 1 = 2049 rounds to even 2048, + 1 again 2048
    // (0x6800); 8 lanes of 1.0 give 8.0 (0x4800).
    let l = Lanes::new(4, 0b0111, 0).unwrap();
    assert_eq!(reduce(Reduce::Sum, false, Scalar::F16, &l, &[0x6800, 0x3C00, 0x3C00, 0x3C00]), 0x6800);
    assert_eq!(reduce(Reduce::Sum, false, Scalar::F16, &full(8), &[0x3C00; 8]), 0x4800);
    // f64: 0.1 * 3 lanes in order is 0.30000000000000004.
    let d = [0.1f64.to_bits(); 4];
    assert_eq!(
        reduce(Reduce::Sum, false, Scalar::F64, &Lanes::new(4, 0b0111, 0).unwrap(), &d),
        (0.1 + 0.1 + 0.1f64).to_bits()
    );
    // Partial mask and helpers: lanes 1, 3 active of 8 plus helper lane 5: 1 + 3.
    let l = Lanes::new(8, 0b0010_1010, 0b0010_0000).unwrap();
    assert_eq!(run(SUM_U, Scalar::I32, &l, &[&lane_ids]), [0xDEAD, 4, 0xDEAD, 4, 0xDEAD, 4, 0xDEAD, 0xDEAD]);
    // No participant: the identity.
    assert_eq!(reduce(Reduce::Sum, false, Scalar::F32, &Lanes::new(4, 0, 0).unwrap(), &[]), 0);
}

#[test]
fn products_wrap() {
    // L < 4 ? L + 1 : 1 = 24 for every W; (L & 1) ? -1 : 1 = 1 (W/2 odd lanes, W/2 even).
    for w in WIDTHS {
        let l = full(w);
        assert_eq!(reduce(Reduce::Product, false, Scalar::I32, &l, &per_lane(|x| if x < 4 { x + 1 } else { 1 })), 24);
        let pm = per_lane(|x| if x & 1 == 1 { 0xFFFF_FFFF } else { 1 });
        assert_eq!(reduce(Reduce::Product, true, Scalar::I32, &l, &pm), 1, "W={w}");
        let half = f32s(&(0..128).map(|x| if x == 0 { 0.5 } else { 1.0 }).collect::<Vec<_>>());
        assert_eq!(reduce(Reduce::Product, false, Scalar::F32, &l, &half), u64::from(0.5f32.to_bits()));
    }
    // 0x10000 * 0x10000 wraps to 0 in 32 bits, and is 2^32 in 64.
    assert_eq!(reduce(Reduce::Product, false, Scalar::I32, &Lanes::new(4, 3, 0).unwrap(), &[0x10000; 4]), 0);
    assert_eq!(reduce(Reduce::Product, false, Scalar::I64, &Lanes::new(4, 3, 0).unwrap(), &[0x10000; 4]), 1 << 32);
    // Three lanes of -1 as i16: -1 (0xFFFF).
    assert_eq!(reduce(Reduce::Product, true, Scalar::I16, &Lanes::new(4, 7, 0).unwrap(), &[0xFFFF; 4]), 0xFFFF);
    // f16: 1.5 * 1.5 * 1.5 = 3.375 (0x42C0), exact.
    assert_eq!(reduce(Reduce::Product, false, Scalar::F16, &Lanes::new(4, 7, 0).unwrap(), &[0x3E00; 4]), 0x42C0);
    assert_eq!(reduce(Reduce::Product, false, Scalar::F64, &Lanes::new(4, 0, 0).unwrap(), &[]), 1f64.to_bits());
}

#[test]
fn min_and_max_compare_as_the_signed_flag_and_d3d_nan_rules_say() {
    for w in WIDTHS {
        let l = full(w);
        let w64 = u64::from(w);
        let v = per_lane(|x| x + 5);
        assert_eq!(
            (reduce(Reduce::Min, false, Scalar::I32, &l, &v), reduce(Reduce::Max, false, Scalar::I32, &l, &v)),
            (5, w64 + 4)
        );
        let s = per_lane(|x| u64::from((x as i32 - 2) as u32));
        assert_eq!(reduce(Reduce::Min, true, Scalar::I32, &l, &s), 0xFFFF_FFFE, "signed min of L - 2");
        assert_eq!(reduce(Reduce::Max, false, Scalar::I32, &l, &s), 0xFFFF_FFFF, "unsigned max: lane 1's -1");
        assert_eq!(reduce(Reduce::Max, true, Scalar::I32, &l, &s), w64 - 3, "signed max: W - 1 - 2");
        let top = per_lane(|x| if x == 0 { 0x8000_0000 } else { x + 1 });
        assert_eq!(reduce(Reduce::Min, false, Scalar::I32, &l, &top), 2);
        assert_eq!(reduce(Reduce::Min, true, Scalar::I32, &l, &top), 0x8000_0000);
        // 1 - L/2: the last lane's 1 - (W - 1)/2.
        let f = f32s(&(0..128).map(|x| 1.0 - x as f32 * 0.5).collect::<Vec<_>>());
        let want = 1.0 - (w - 1) as f32 * 0.5;
        assert_eq!(reduce(Reduce::Min, false, Scalar::F32, &l, &f), u64::from(want.to_bits()), "W={w}");
    }
    // NaN lanes give way; only NaN everywhere gives NaN.
    let nan = f32::NAN;
    let f = f32s(&[nan, 3.0, nan, -1.0]);
    assert_eq!(reduce(Reduce::Min, false, Scalar::F32, &full(4), &f), u64::from((-1f32).to_bits()));
    assert_eq!(reduce(Reduce::Max, false, Scalar::F32, &full(4), &f), u64::from(3f32.to_bits()));
    assert!(f32::from_bits(reduce(Reduce::Max, false, Scalar::F32, &full(4), &f32s(&[nan; 4])) as u32).is_nan());
    // 64-bit: -5, 7, i64::MIN, 0.
    let q = [(-5i64) as u64, 7, i64::MIN as u64, 0];
    assert_eq!(reduce(Reduce::Min, true, Scalar::I64, &full(4), &q), i64::MIN as u64);
    assert_eq!(reduce(Reduce::Max, true, Scalar::I64, &full(4), &q), 7);
    assert_eq!(reduce(Reduce::Max, false, Scalar::I64, &full(4), &q), 0xFFFF_FFFF_FFFF_FFFB);
    assert_eq!(reduce(Reduce::Min, false, Scalar::I64, &full(4), &q), 0);
    let d = [2.5f64, -0.75, f64::NAN, 1e300].map(f64::to_bits);
    assert_eq!(reduce(Reduce::Min, false, Scalar::F64, &full(4), &d), (-0.75f64).to_bits());
    assert_eq!(reduce(Reduce::Max, false, Scalar::F64, &full(4), &d), 1e300f64.to_bits());
    // 16-bit: -1, 1, -32768, 32767.
    let h = [0xFFFF, 0x0001, 0x8000, 0x7FFF];
    assert_eq!(reduce(Reduce::Min, true, Scalar::I16, &full(4), &h), 0x8000);
    assert_eq!(reduce(Reduce::Max, true, Scalar::I16, &full(4), &h), 0x7FFF);
    assert_eq!(reduce(Reduce::Max, false, Scalar::I16, &full(4), &h), 0xFFFF);
    // f16: 1.0, -2.0, NaN, 3.0.
    let h = [0x3C00, 0xC000, 0x7E00, 0x4200];
    assert_eq!(reduce(Reduce::Min, false, Scalar::F16, &full(4), &h), 0xC000);
    assert_eq!(reduce(Reduce::Max, false, Scalar::F16, &full(4), &h), 0x4200);
    // Partial mask: lanes 4..8 of 8 hold 9..12 (L + 5), so the min is 9.
    let l = Lanes::new(8, 0xF0, 0).unwrap();
    assert_eq!(reduce(Reduce::Min, false, Scalar::I32, &l, &per_lane(|x| x + 5)), 9);
    // No participant: the identities.
    let none = Lanes::new(4, 0, 0).unwrap();
    assert_eq!(reduce(Reduce::Min, false, Scalar::I32, &none, &[]), 0xFFFF_FFFF);
    assert_eq!(reduce(Reduce::Min, true, Scalar::I32, &none, &[]), 0x7FFF_FFFF);
    assert_eq!(reduce(Reduce::Max, true, Scalar::I16, &none, &[]), 0x8000);
    assert_eq!(reduce(Reduce::Max, false, Scalar::F32, &none, &[]), u64::from(f32::NEG_INFINITY.to_bits()));
}

#[test]
fn bit_reductions() {
    let not_bit = per_lane(|x| u64::from(!(1u32 << (x & 31))));
    let bit = per_lane(|x| 1 << (x & 31));
    let ids = per_lane(|x| x);
    for (w, and, or) in [
        (4, 0xFFFF_FFF0, 0xF),
        (8, 0xFFFF_FF00, 0xFF),
        (16, 0xFFFF_0000, 0xFFFF),
        (32, 0, 0xFFFF_FFFF),
        (64, 0, 0xFFFF_FFFF),
        (128, 0, 0xFFFF_FFFF),
    ] {
        let l = full(w);
        assert_eq!(bit_reduce(BitOp::And, Scalar::I32, &l, &not_bit), and, "W={w}");
        assert_eq!(bit_reduce(BitOp::Or, Scalar::I32, &l, &bit), or, "W={w}");
        // XOR of 0..W-1 is 0 for W a multiple of 4.
        assert_eq!(bit_reduce(BitOp::Xor, Scalar::I32, &l, &ids), 0, "W={w}");
    }
    // Lanes 1, 2, 4 of 8: 1 ^ 2 ^ 4 = 7, OR 7, AND 0.
    let l = Lanes::new(8, 0b1_0110, 0).unwrap();
    assert_eq!([BitOp::Xor, BitOp::Or, BitOp::And].map(|op| bit_reduce(op, Scalar::I32, &l, &ids)), [7, 7, 0]);
    // 64-bit: the high word takes part.
    let q = [0xF000_0000_0000_000F, 0x0F00_0000_0000_00F0, 0, 0];
    assert_eq!(bit_reduce(BitOp::Or, Scalar::I64, &Lanes::new(4, 3, 0).unwrap(), &q), 0xFF00_0000_0000_00FF);
    // AND of no lane is all ones of the width.
    assert_eq!(bit_reduce(BitOp::And, Scalar::I16, &Lanes::new(4, 0, 0).unwrap(), &[]), 0xFFFF);
}

#[test]
fn count_bits_and_all_equal() {
    let third = per_lane(|x| u64::from(x % 3 == 0));
    for (w, n) in [(4, 2), (8, 3), (16, 6), (32, 11), (64, 22), (128, 43)] {
        let l = full(w);
        assert_eq!(count_bits(&l, &third), n, "ceil(W / 3), W={w}");
        assert!(all_equal(Scalar::I32, &l, &[0; 128]));
        assert!(!all_equal(Scalar::F32, &l, &f32s(&(0..128).map(|x| (x & 1) as f32).collect::<Vec<_>>())));
        assert!(all_equal(Scalar::I32, &l, &[7; 128]) && !all_equal(Scalar::I32, &l, &per_lane(|x| x)));
    }
    // Floats as floats: -0 equals +0, NaN equals nothing.
    assert!(all_equal(Scalar::F32, &full(4), &f32s(&[0.0, -0.0, 0.0, -0.0])));
    assert!(!all_equal(Scalar::F32, &full(4), &f32s(&[f32::NAN; 4])));
    assert!(all_equal(Scalar::F16, &full(4), &[0x8000, 0, 0, 0]));
    assert!(!all_equal(Scalar::F64, &full(4), &[f64::NAN.to_bits(); 4]));
    // Integers by the bits of their width: 0x1_0005 and 5 are equal i16 values.
    assert!(all_equal(Scalar::I16, &full(4), &[5, 0x1_0005, 5, 5]));
    assert!(!all_equal(Scalar::I64, &full(4), &[5, 0x1_0000_0005, 5, 5]));
    // Only the participating lanes count: lanes 0, 2 hold 9, lanes 1, 3 (off, helper) differ.
    let l = Lanes::new(4, 0b1101, 0b1000).unwrap();
    assert!(all_equal(Scalar::I32, &l, &[9, 1, 9, 2]));
    assert_eq!(count_bits(&l, &[1; 4]), 2);
}

#[test]
fn prefixes_exclude_the_current_lane() {
    for w in WIDTHS {
        let l = full(w);
        let n = w as usize;
        let sum = run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I32, &l, &[&per_lane(|x| x)]);
        assert_eq!(sum, (0..w as u64).map(|x| x * x.saturating_sub(1) / 2).collect::<Vec<_>>());
        // int(L & 1) * -3: -3 * floor(L / 2).
        let v = per_lane(|x| u64::from(((x & 1) as i32 * -3) as u32));
        let got = run(WaveOp::Prefix { op: Reduce::Sum, signed: true }, Scalar::I32, &l, &[&v]);
        assert_eq!(got, (0..w as i32).map(|x| u64::from((-3 * (x / 2)) as u32)).collect::<Vec<_>>());
        let f = run(WaveOp::Prefix { op: Reduce::Sum, signed: true }, Scalar::F32, &l, &[&f32s(&[1.5; 128])]);
        assert_eq!(f, (0..n).map(|x| u64::from((1.5 * x as f32).to_bits())).collect::<Vec<_>>());
        let p = per_lane(|x| if x < 6 { 2 } else { 1 });
        let got = run(WaveOp::Prefix { op: Reduce::Product, signed: false }, Scalar::I32, &l, &[&p]);
        assert_eq!(got, (0..n).map(|x| 1u64 << x.min(6)).collect::<Vec<_>>());
        let b = per_lane(|x| u64::from(x & 3 == 1));
        let got = run(WaveOp::PrefixCountBits, Scalar::Bool, &l, &[&b]);
        assert_eq!(got, (0..w as u64).map(|x| (x + 2) / 4).collect::<Vec<_>>());
    }
    // By hand at W = 8, lane 7: sum of 0..6 = 21; -3 * 3 = -9; lane 6's product 2^6 = 64.
    let l = full(8);
    assert_eq!(run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I32, &l, &[&per_lane(|x| x)])[7], 21);
    // Partial: lanes 0, 2, 3, 6 of 8, v = L + 1: 0, 1, 1 + 3, 1 + 3 + 4; others untouched.
    let l = Lanes::new(8, 0b0100_1101, 0).unwrap();
    let got = run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I32, &l, &[&per_lane(|x| x + 1)]);
    assert_eq!(got, [0, 0xDEAD, 1, 4, 0xDEAD, 0xDEAD, 8, 0xDEAD]);
    let got = run(WaveOp::PrefixCountBits, Scalar::Bool, &l, &[&[1; 8]]);
    assert_eq!(got, [0, 0xDEAD, 1, 2, 0xDEAD, 0xDEAD, 3, 0xDEAD]);
    // A helper lane (1) gets the prefix of the others but adds nothing: 0, 1, 1, 1 + 3.
    let l = Lanes::new(4, 0xF, 0x2).unwrap();
    let got = run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I32, &l, &[&per_lane(|x| x + 1)]);
    assert_eq!(got, [0, 1, 1, 4]);
    // 64-bit prefix sums carry; f16 prefix product of 2.0 (0x4000): 1, 2, 4, 8.
    let got = run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I64, &full(4), &[&[0xFFFF_FFFF; 4]]);
    assert_eq!(got, [0, 0xFFFF_FFFF, 0x1_FFFF_FFFE, 0x2_FFFF_FFFD]);
    let got = run(WaveOp::Prefix { op: Reduce::Product, signed: false }, Scalar::F16, &full(4), &[&[0x4000; 4]]);
    assert_eq!(got, [0x3C00, 0x4000, 0x4400, 0x4800]);
}

#[test]
fn quad_reads_include_helper_lanes() {
    let v = per_lane(|x| 100 + x);
    for w in WIDTHS {
        let l = full(w);
        let ids = 0..u64::from(w);
        let across = |dir| run(WaveOp::Quad(dir), Scalar::I32, &l, &[&v]);
        assert_eq!(across(QuadDir::X), ids.clone().map(|x| 100 + (x ^ 1)).collect::<Vec<_>>());
        assert_eq!(across(QuadDir::Y), ids.clone().map(|x| 100 + (x ^ 2)).collect::<Vec<_>>());
        assert_eq!(across(QuadDir::Diagonal), ids.clone().map(|x| 100 + (x ^ 3)).collect::<Vec<_>>());
        let at2 = run(WaveOp::QuadReadLaneAt, Scalar::I32, &l, &[&v, &[2; 128]]);
        assert_eq!(at2, ids.map(|x| 100 + (x & !3) + 2).collect::<Vec<_>>());
    }
    // By hand, W = 8, lane 5 (quad 1, quad lane 1): X 104, Y 107, diagonal 106.
    let l = full(8);
    assert_eq!(
        [QuadDir::X, QuadDir::Y, QuadDir::Diagonal].map(|d| run(WaveOp::Quad(d), Scalar::I32, &l, &[&v])[5]),
        [104, 107, 106]
    );
    // Helper lanes 1 and 2 are read; they read too.
    let l = Lanes::new(4, 0xF, 0x6).unwrap();
    assert_eq!(run(WaveOp::Quad(QuadDir::X), Scalar::I32, &l, &[&v]), [101, 100, 103, 102]);
    // An inactive source lane (3) or a quad lane past 3 read 0; lane 3 itself is not written.
    let l = Lanes::new(4, 0x7, 0).unwrap();
    assert_eq!(run(WaveOp::Quad(QuadDir::Diagonal), Scalar::I32, &l, &[&v]), [0, 102, 101, 0xDEAD]);
    assert_eq!(run(WaveOp::QuadReadLaneAt, Scalar::I32, &l, &[&v, &[3, 4, 1, 0]]), [0, 0, 101, 0xDEAD]);
    // 64-bit and f16 values move unchanged.
    let q = [1u64 << 63, 2, 3, 4];
    assert_eq!(run(WaveOp::QuadReadLaneAt, Scalar::I64, &full(4), &[&q, &[0; 4]]), [1 << 63; 4]);
    assert_eq!(
        run(WaveOp::Quad(QuadDir::Y), Scalar::F16, &full(4), &[&[0x3C00, 0x4000, 0x4200, 0x4400]]),
        [0x4200, 0x4400, 0x3C00, 0x4000]
    );
}

#[test]
fn divergent_halves_of_a_wave_are_separate_sets() {
    // wave_divergent_if's branches at W = 8: odd lanes (0xAA), then even lanes (0x55).
    let ids = per_lane(|x| x);
    let odd = Lanes::new(8, 0xAA, 0).unwrap();
    assert_eq!(run(WaveOp::CountBits, Scalar::Bool, &odd, &[&[1; 8]])[1], 4);
    assert_eq!(reduce(Reduce::Sum, false, Scalar::I32, &odd, &ids), 1 + 3 + 5 + 7);
    assert_eq!(read_lane_first(&odd, &ids), 1);
    assert_eq!(run(WaveOp::IsFirstLane, Scalar::Bool, &odd, &[]), [0xDEAD, 1, 0xDEAD, 0, 0xDEAD, 0, 0xDEAD, 0]);
    assert_eq!(run(WaveOp::PrefixCountBits, Scalar::Bool, &odd, &[&[1; 8]])[7], 3);
    let even = Lanes::new(8, 0x55, 0).unwrap();
    assert_eq!(reduce(Reduce::Sum, false, Scalar::I32, &even, &ids), 2 + 4 + 6);
    assert_eq!(run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I32, &even, &[&[1; 8]])[6], 3);
    assert_eq!(reduce(Reduce::Max, false, Scalar::I32, &even, &ids), 6);
    assert_eq!(ballot(&even, &[1; 8]), [0x55, 0, 0, 0]);
}

#[test]
fn short_operands_and_outputs_never_panic() {
    let l = full(128);
    for op in [
        WaveOp::IsFirstLane,
        WaveOp::GetLaneIndex,
        WaveOp::Ballot,
        WaveOp::ReadLaneAt,
        WaveOp::AllEqual,
        WaveOp::Active { op: Reduce::Min, signed: true },
        WaveOp::Prefix { op: Reduce::Product, signed: false },
        WaveOp::Bit(BitOp::Xor),
        WaveOp::Quad(QuadDir::Diagonal),
        WaveOp::QuadReadLaneAt,
        WaveOp::PrefixCountBits,
    ] {
        for ty in [Scalar::Bool, Scalar::I8, Scalar::I16, Scalar::I64, Scalar::F16, Scalar::F64] {
            let mut out = [7u64; 5];
            eval(op, ty, &l, &[&[3, 1]], &mut out);
            eval(op, ty, &l, &[], &mut []);
        }
    }
    // Short operands read as 0: lanes 2.. hold 0, so the sum of [3, 1] is 4 everywhere.
    let mut out = [0u64; 3];
    eval(SUM_U, Scalar::I32, &l, &[&[3, 1]], &mut out);
    assert_eq!(out, [4; 3]);
}

#[test]
fn reductions_prefixes_and_ballots_agree_on_random_masks() {
    // A fixed xorshift sequence of masks and values over every width: the prefix before the
    // last participating lane plus that lane's value is the reduction, a prefix count is the
    // ballot's bits below the lane, and a broadcast reads what the first participant holds.
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    for round in 0..600 {
        let w = WIDTHS[round % WIDTHS.len()];
        let active = (u128::from(next()) << 64 | u128::from(next())) & lanes_below(w);
        let helper = if round % 3 == 0 { u128::from(next()) & active } else { 0 };
        let l = Lanes::new(w, active, helper).unwrap();
        let v: Vec<u64> = (0..w).map(|_| next() & 0xFFFF_FFFF).collect();
        let cond: Vec<u64> = (0..w).map(|_| next() & 1).collect();
        let part = l.participants();
        let sum = reduce(Reduce::Sum, false, Scalar::I32, &l, &v);
        let want = (0..w as usize).filter(|&i| part >> i & 1 == 1).fold(0u32, |a, i| a.wrapping_add(v[i] as u32));
        assert_eq!(sum, u64::from(want), "round {round}");
        let pre = run(WaveOp::Prefix { op: Reduce::Sum, signed: false }, Scalar::I32, &l, &[&v]);
        if part != 0 {
            let last = 127 - part.leading_zeros() as usize;
            assert_eq!((pre[last] + v[last]) & 0xFFFF_FFFF, sum, "round {round}");
            let first = part.trailing_zeros() as usize;
            assert_eq!(read_lane_first(&l, &v), v[first]);
            let isfirst = run(WaveOp::IsFirstLane, Scalar::Bool, &l, &[]);
            assert_eq!(isfirst.iter().filter(|&&x| x == 1).count(), 1);
            assert_eq!(isfirst[first], 1);
        }
        let b = ballot(&l, &cond);
        let m = u128::from(b[0]) | u128::from(b[1]) << 32 | u128::from(b[2]) << 64 | u128::from(b[3]) << 96;
        assert_eq!(m & !part, 0, "only participants vote");
        assert_eq!(m.count_ones(), count_bits(&l, &cond));
        assert_eq!(any_true(&l, &cond), m != 0);
        assert_eq!(all_true(&l, &cond), m == part);
        let pc = run(WaveOp::PrefixCountBits, Scalar::Bool, &l, &[&cond]);
        for i in 0..w as usize {
            if active >> i & 1 == 1 {
                assert_eq!(pc[i], u64::from((m & lanes_below(i as u32)).count_ones()), "round {round} lane {i}");
            } else {
                assert_eq!((pc[i], pre[i]), (0xDEAD, 0xDEAD), "inactive lanes are not written");
            }
        }
    }
}

/// WaveMatch on a partial wave of 8 (lanes 0..=5 active, lane 5 a helper): values 7, 7, 9, 7,
/// 9, 7 give {0, 1, 3} for the 7s and {2, 4} for the 9s; the helper lane gets a mask without
/// itself, lanes 6 and 7 nothing. Floats compare by bits: -0 does not match +0.
#[test]
fn wave_match_masks_the_lanes_of_equal_value() {
    let lanes = Lanes::new(8, 0b11_1111, 0b10_0000).unwrap();
    let v = [7u64, 7, 9, 7, 9, 7, 7, 7];
    let out = run(WaveOp::Match, Scalar::I32, &lanes, &[&v]);
    assert_eq!(out[..8], [0b1011, 0b1011, 0b10100, 0b1011, 0b10100, 0b1011, 0xDEAD, 0xDEAD]);
    // Words 1..3 are 0 for a wave of 8.
    assert!(out[8..8 + 6].iter().all(|&x| x == 0));
    let z = f32s(&[0.0, -0.0, 0.0, -0.0]);
    let out = run(WaveOp::Match, Scalar::F32, &full(4), &[&z]);
    assert_eq!(out[..4], [0b0101, 0b1010, 0b0101, 0b1010]);
}

/// WaveMultiPrefixSum / BitAnd / CountBits over two partitions of a wave of 8, {0, 2, 3, 5}
/// and {1, 4, 6, 7}, lane 3 inactive: each lane's prefix runs over the active lanes of its own
/// partition below it.
#[test]
fn multi_prefix_runs_within_each_lanes_partition() {
    let lanes = Lanes::new(8, 0b1111_0111, 0).unwrap();
    let (a, b) = (0b0010_1101u64, 0b1101_0010u64);
    let m: Vec<u64> = (0..8).map(|l| if a >> l & 1 == 1 { a } else { b }).collect();
    let zero = vec![0u64; 8];
    let v: Vec<u64> = (0..8).map(|l| 10 + l).collect();
    let sum = WaveOp::MultiPrefix { op: MultiPrefix::Sum, signed: false };
    let out = run(sum, Scalar::I32, &lanes, &[&v, &m, &zero, &zero, &zero]);
    // Lane 5: lanes 0 and 2 (3 is inactive): 10 + 12; lane 7: 1, 4, 6: 11 + 14 + 16.
    assert_eq!(out, [0, 0, 10, 0xDEAD, 11, 22, 25, 41]);
    let and = WaveOp::MultiPrefix { op: MultiPrefix::And, signed: false };
    let out = run(and, Scalar::I32, &lanes, &[&v, &m, &zero, &zero, &zero]);
    assert_eq!(out[..3], [0xFFFF_FFFF, 0xFFFF_FFFF, 10]);
    assert_eq!(out[7], 11 & 14 & 16);
    let bits: Vec<u64> = (0..8).map(|l| u64::from(l % 2 == 0)).collect();
    let out = run(WaveOp::MultiPrefixCountBits, Scalar::Bool, &lanes, &[&bits, &m, &zero, &zero, &zero]);
    assert_eq!(out, [0, 0, 1, 0xDEAD, 0, 2, 1, 2]);
}

/// QuadAny / QuadAll over two quads of a wave of 8, lane 6 inactive and lane 1 a helper: the
/// helper's value counts (quad operations read helper lanes), the inactive lane's does not.
/// IsHelperLane is true in the helper lane only.
#[test]
fn quad_votes_and_is_helper_lane() {
    let lanes = Lanes::new(8, 0b1011_1111, 0b10).unwrap();
    // Quad 0: only the helper (lane 1) true; quad 1: true but in the inactive lane 6.
    let cond = [0u64, 1, 0, 0, 1, 1, 0, 1];
    let any = run(WaveOp::QuadVote { all: false }, Scalar::Bool, &lanes, &[&cond]);
    assert_eq!(any, [1, 1, 1, 1, 1, 1, 0xDEAD, 1]);
    let all = run(WaveOp::QuadVote { all: true }, Scalar::Bool, &lanes, &[&cond]);
    assert_eq!(all, [0, 0, 0, 0, 1, 1, 0xDEAD, 1]);
    let none = [0u64; 8];
    assert_eq!(run(WaveOp::QuadVote { all: false }, Scalar::Bool, &lanes, &[&none])[..4], [0; 4]);
    let h = run(WaveOp::IsHelperLane, Scalar::I32, &lanes, &[]);
    assert_eq!(h, [0, 1, 0, 0, 0, 0, 0xDEAD, 0]);
}
