//! The DXC wave-op fixtures of `tests/fixtures/dxil/wave` (see its README): what each writes
//! for a given dispatch, worked out by hand from its HLSL for the interpreter's default wave
//! of W = 8 lanes (the WaveSize ones at their size), threads mapped to lanes in order (lane =
//! flattened thread index % W, what every D3D driver does for 1-D groups).
//!
//! * `fixtures_decode` (runs): every wave and quad `dx.op` call of the fixtures decodes with
//!   [`WaveOp::from_dx_op`], and the WaveSize fixtures carry their sizes.
//! * `tables_follow_from_the_wave_semantics` (runs): the hand-worked tables equal the HLSL's
//!   lane arithmetic done with [`rd3d12_shader::interp::wave`]'s functions, two derivations
//!   that must agree.
//! * one test per fixture: the shader dispatched through [`rd3d12_swgpu::compute::dispatch`],
//!   its u0 compared with the table (the WaveSize ones, shader models 6.6 and 6.8, which
//!   pipeline creation refuses while the device reports 6.2, at the sizes they ask for).

use rd3d12_shader::dxil::{self, Operand, Program};
use rd3d12_shader::interp::alu::{f32_to_half, half_to_f32};
use rd3d12_shader::interp::wave::{self, Lanes, QuadDir, Reduce, WaveOp};
use rd3d12_shader::ir::types::Scalar;
use rd3d12_swgpu::compute::dispatch;
use rd3d12_swgpu::draw::{Bindings, Class};
use std::sync::Mutex;

fn program(name: &str) -> Program {
    let path = format!("{}/../../tests/fixtures/dxil/wave/{name}.cs.dxil", env!("CARGO_MANIFEST_DIR"));
    dxil::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// u0 (raw or structured) and an optional t0, as 32-bit words.
struct Buffers {
    u0: Mutex<Vec<u32>>,
    t0: Vec<u32>,
}

fn byte(stride: u32, index: u32, offset: u32) -> usize {
    if stride == 0 {
        index as usize
    } else {
        (index * stride + offset) as usize
    }
}

impl Bindings for Buffers {
    fn buffer_load(&self, class: Class, _b: (u32, u32), stride: u32, index: u32, offset: u32) -> [u32; 4] {
        let at = byte(stride, index, offset) / 4;
        let u0 = self.u0.lock().unwrap();
        let src: &[u32] = if class == Class::Srv { &self.t0 } else { &u0 };
        std::array::from_fn(|k| src.get(at + k).copied().unwrap_or(0))
    }
    fn buffer_store(&self, _b: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        let at = byte(stride, index, offset) / 4;
        let mut u0 = self.u0.lock().unwrap();
        for (k, v) in value.iter().enumerate() {
            if mask & (1 << k) != 0 {
                if let Some(w) = u0.get_mut(at + k) {
                    *w = *v;
                }
            }
        }
    }
    fn atomic(&self, _b: (u32, u32), op: u32, c: [i32; 3], value: u32) -> u32 {
        assert_eq!(op, 0, "only InterlockedAdd");
        let mut u0 = self.u0.lock().unwrap();
        let cell = &mut u0[c[0] as usize / 4];
        let old = *cell;
        *cell = old.wrapping_add(value);
        old
    }
}

/// Runs fixture `name` over `groups` groups with u0 of `words` words (filled with `fill`) and
/// t0; returns u0.
fn run(name: &str, groups: u32, u0: Vec<u32>, t0: Vec<u32>) -> Vec<u32> {
    let p = program(name);
    let b = Buffers { u0: Mutex::new(u0), t0 };
    dispatch(&p, &p.dx.entry_points[0], [groups, 1, 1], &b).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    b.u0.into_inner().unwrap()
}

/// Expands a per-lane table (`lanes[L]` = the words thread i writes, L = i % lanes.len()) over
/// `threads` threads.
fn expand<const N: usize>(lanes: &[[u32; N]], threads: usize) -> Vec<u32> {
    (0..threads).flat_map(|i| lanes[i % lanes.len()]).collect()
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

// The tables, W = 8, by hand from each HLSL's comment and code.

/// w = (W, L, L is the first lane).
fn lane_basics() -> Vec<[u32; 3]> {
    (0..8).map(|l| [8, l, u32::from(l == 0)]).collect()
}

/// AnyTrue(L == 3), AnyTrue(L >= W), AllTrue(L < W), AllTrue(L != 1), Ballot(L & 1).
const VOTE: [[u32; 8]; 1] = [[1, 0, 1, 0, 0xAA, 0, 0, 0]];

/// ReadLaneAt(v, 2), ReadLaneAt(v, (L + 1) % 8), ReadLaneFirst(v), ReadLaneAt(L / 2, 7) = 3.5.
const READ_LANE: [[u32; 4]; 8] = [
    [1002, 1001, 1000, 0x4060_0000],
    [1002, 1002, 1000, 0x4060_0000],
    [1002, 1003, 1000, 0x4060_0000],
    [1002, 1004, 1000, 0x4060_0000],
    [1002, 1005, 1000, 0x4060_0000],
    [1002, 1006, 1000, 0x4060_0000],
    [1002, 1007, 1000, 0x4060_0000],
    [1002, 1000, 1000, 0x4060_0000],
];

/// Sum(L) = 28, Sum(L - 8) = -36, Sum(L / 4) = 7.0, Product = 24, product of +-1 = 1 (four -1
/// lanes), Product(0.5, 1, ...) = 0.5.
const SUM_PRODUCT: [[u32; 6]; 1] = [[28, 0xFFFF_FFDC, 0x40E0_0000, 24, 1, 0x3F00_0000]];

/// Min(L + 5) = 5, Max(L + 5) = 12, signed Min(L - 2) = -2, unsigned Min = 2 (lane 0's
/// 0x80000000 is the largest), unsigned Max(L - 2) = lane 1's 0xFFFFFFFF, Min(1 - L / 2) = -2.5.
const MINMAX: [[u32; 6]; 1] = [[5, 12, 0xFFFF_FFFE, 2, 0xFFFF_FFFF, 0xC020_0000]];

/// And(~(1 << L)) = ~0xFF, Or(1 << L) = 0xFF, Xor(0..8) = 0.
const BITS: [[u32; 3]; 1] = [[0xFFFF_FF00, 0xFF, 0]];

/// CountBits(L % 3 == 0) = 3 (lanes 0, 3, 6), AllEqual(L / W = 0) = 1, AllEqual(L & 1) = 0,
/// all(AllEqual(7, L)) = 0.
const COUNTBITS_ALLEQUAL: [[u32; 4]; 1] = [[3, 1, 0, 0]];

/// PrefixSum(L) = L(L-1)/2, PrefixSum((L & 1) * -3) = -3 floor(L / 2), PrefixSum(1.5) = 1.5 L,
/// PrefixProduct(L < 6 ? 2 : 1) = 2^min(L, 6), PrefixCountBits(L & 3 == 1) = floor((L + 2) / 4).
const PREFIX: [[u32; 5]; 8] = [
    [0, 0, 0, 1, 0],
    [0, 0, 0x3FC0_0000, 2, 0],
    [1, 0xFFFF_FFFD, 0x4040_0000, 4, 1],
    [3, 0xFFFF_FFFD, 0x4090_0000, 8, 1],
    [6, 0xFFFF_FFFA, 0x40C0_0000, 16, 1],
    [10, 0xFFFF_FFFA, 0x40F0_0000, 32, 1],
    [15, 0xFFFF_FFF7, 0x4110_0000, 64, 2],
    [21, 0xFFFF_FFF7, 0x4128_0000, 64, 2],
];

/// v = 100 + L: across X (L ^ 1), Y (L ^ 2), diagonal (L ^ 3), quad lane 2, and quad lane 1's
/// L / 2 (0.5 in quad 0, 2.5 in quad 1).
const QUAD: [[u32; 5]; 8] = [
    [101, 102, 103, 102, 0x3F00_0000],
    [100, 103, 102, 102, 0x3F00_0000],
    [103, 100, 101, 102, 0x3F00_0000],
    [102, 101, 100, 102, 0x3F00_0000],
    [105, 106, 107, 106, 0x4020_0000],
    [104, 107, 106, 106, 0x4020_0000],
    [107, 104, 105, 106, 0x4020_0000],
    [106, 105, 104, 106, 0x4020_0000],
];

/// Odd lanes {1, 3, 5, 7}: CountBits 4, Sum 16, ReadLaneFirst 1, IsFirstLane (lane 1),
/// PrefixCountBits (L - 1) / 2. Even lanes {0, 2, 4, 6}: Sum 12, ReadLaneFirst 0, PrefixSum(1)
/// L / 2, Max 6, Ballot.x 0x55. After the if: CountBits 8.
const DIVERGENT_IF: [[u32; 6]; 8] = [
    [12, 0, 0, 6, 0x55, 8],
    [4, 16, 1, 1, 0, 8],
    [12, 0, 1, 6, 0x55, 8],
    [4, 16, 1, 0, 1, 8],
    [12, 0, 2, 6, 0x55, 8],
    [4, 16, 1, 0, 2, 8],
    [12, 0, 3, 6, 0x55, 8],
    [4, 16, 1, 0, 3, 8],
];

/// Iteration k runs the lanes with L % 4 >= k: 8, 6, 4, 2 of them. acc = 8, 14, 18, 20 for
/// L % 4 = 0..3; last = L % 4; iterations L % 4 + 1; after the loop Sum(1) = 8.
const DIVERGENT_LOOP: [[u32; 4]; 4] = [[8, 0, 1, 8], [14, 1, 2, 8], [18, 2, 3, 8], [20, 3, 4, 8]];

/// Sum(1, L, -L, 0.5) = (8, 28, -28, 4.0); Max(L, 8 - L, L²) = (7, 8, 49); PrefixSum(1, -L) =
/// (L, -L(L-1)/2).
fn vector() -> Vec<[u32; 9]> {
    let y = [0, 0, -1, -3, -6, -10, -15, -21];
    (0..8).map(|l| [0x4100_0000, 0x41E0_0000, 0xC1E0_0000, 0x4080_0000, 7, 8, 49, l, y[l as usize] as u32]).collect()
}

/// Sum(uint16_t(L)) = 28, float(Sum(half 0.5)) = 4.0, int(Min(int16_t(L) - 100)) = -100,
/// float(ReadLaneAt(half(L) * 0.25, 3)) = 0.75.
const WAVE_16BIT: [[u32; 4]; 1] = [[28, 0x4080_0000, 0xFFFF_FF9C, 0x3F40_0000]];

/// In[k] = k % 7 + 1; Out[k] = the inclusive sum: 28 per full cycle of 7, plus 1 + ... + r.
fn prefix_scan_out(k: u32) -> u32 {
    let (cycles, r) = ((k + 1) / 7, (k + 1) % 7);
    28 * cycles + r * (r + 1) / 2
}

/// The hand tables equal what [`wave`]'s functions give for the HLSL of each fixture at W = 8.
#[test]
fn tables_follow_from_the_wave_semantics() {
    let all = Lanes::full(8).unwrap();
    let ids: Vec<u64> = (0..8).collect();
    let lane = |f: &dyn Fn(u64) -> u64| -> Vec<u64> { (0..8).map(f).collect() };
    let f32s = |f: &dyn Fn(f32) -> f32| -> Vec<u64> { (0..8).map(|l| u64::from(f(l as f32).to_bits())).collect() };
    let op = |op: WaveOp, ty: Scalar, l: &Lanes, args: &[&[u64]]| -> Vec<u32> {
        let mut out = vec![0u64; 8 * op.results()];
        wave::eval(op, ty, l, args, &mut out);
        out.into_iter().map(|x| x as u32).collect()
    };
    let red = |r: Reduce, signed: bool, ty: Scalar, v: &[u64]| wave::reduce(r, signed, ty, &all, v) as u32;

    let idx = op(WaveOp::GetLaneIndex, Scalar::I32, &all, &[]);
    let first = op(WaveOp::IsFirstLane, Scalar::Bool, &all, &[]);
    let basics: Vec<[u32; 3]> = (0..8).map(|l| [8, idx[l], first[l]]).collect();
    assert_eq!(basics, lane_basics());

    let b = wave::ballot(&all, &lane(&|l| l & 1));
    let vote = [
        u32::from(wave::any_true(&all, &lane(&|l| u64::from(l == 3)))),
        u32::from(wave::any_true(&all, &lane(&|l| u64::from(l >= 8)))),
        u32::from(wave::all_true(&all, &lane(&|l| u64::from(l < 8)))),
        u32::from(wave::all_true(&all, &lane(&|l| u64::from(l != 1)))),
        b[0],
        b[1],
        b[2],
        b[3],
    ];
    assert_eq!(vote, VOTE[0]);

    let v = lane(&|l| 1000 + l);
    let at2 = op(WaveOp::ReadLaneAt, Scalar::I32, &all, &[&v, &[2; 8]]);
    let rot = op(WaveOp::ReadLaneAt, Scalar::I32, &all, &[&v, &lane(&|l| (l + 1) % 8)]);
    let half = op(WaveOp::ReadLaneAt, Scalar::F32, &all, &[&f32s(&|l| l * 0.5), &[7; 8]]);
    let read: Vec<[u32; 4]> =
        (0..8).map(|l| [at2[l], rot[l], wave::read_lane_first(&all, &v) as u32, half[l]]).collect();
    assert_eq!(read, READ_LANE);

    let sp = [
        red(Reduce::Sum, false, Scalar::I32, &ids),
        red(Reduce::Sum, true, Scalar::I32, &lane(&|l| u64::from((l as i32 - 8) as u32))),
        red(Reduce::Sum, true, Scalar::F32, &f32s(&|l| l * 0.25)),
        red(Reduce::Product, false, Scalar::I32, &lane(&|l| if l < 4 { l + 1 } else { 1 })),
        red(Reduce::Product, true, Scalar::I32, &lane(&|l| if l & 1 == 1 { 0xFFFF_FFFF } else { 1 })),
        red(Reduce::Product, true, Scalar::F32, &f32s(&|l| if l == 0.0 { 0.5 } else { 1.0 })),
    ];
    assert_eq!(sp, SUM_PRODUCT[0]);

    let mm = [
        red(Reduce::Min, false, Scalar::I32, &lane(&|l| l + 5)),
        red(Reduce::Max, false, Scalar::I32, &lane(&|l| l + 5)),
        red(Reduce::Min, true, Scalar::I32, &lane(&|l| u64::from((l as i32 - 2) as u32))),
        red(Reduce::Min, false, Scalar::I32, &lane(&|l| if l == 0 { 0x8000_0000 } else { l + 1 })),
        red(Reduce::Max, false, Scalar::I32, &lane(&|l| u64::from((l as i32 - 2) as u32))),
        red(Reduce::Min, true, Scalar::F32, &f32s(&|l| 1.0 - l * 0.5)),
    ];
    assert_eq!(mm, MINMAX[0]);

    let bits = [
        wave::bit_reduce(wave::BitOp::And, Scalar::I32, &all, &lane(&|l| u64::from(!(1u32 << l)))) as u32,
        wave::bit_reduce(wave::BitOp::Or, Scalar::I32, &all, &lane(&|l| 1 << l)) as u32,
        wave::bit_reduce(wave::BitOp::Xor, Scalar::I32, &all, &ids) as u32,
    ];
    assert_eq!(bits, BITS[0]);

    let cb = [
        wave::count_bits(&all, &lane(&|l| u64::from(l % 3 == 0))),
        u32::from(wave::all_equal(Scalar::I32, &all, &lane(&|l| l / 8))),
        u32::from(wave::all_equal(Scalar::F32, &all, &f32s(&|l| (l as u32 & 1) as f32))),
        u32::from(wave::all_equal(Scalar::I32, &all, &[7; 8]) && wave::all_equal(Scalar::I32, &all, &ids)),
    ];
    assert_eq!(cb, COUNTBITS_ALLEQUAL[0]);

    let sum = WaveOp::Prefix { op: Reduce::Sum, signed: false };
    let p0 = op(sum, Scalar::I32, &all, &[&ids]);
    let p1 = op(sum, Scalar::I32, &all, &[&lane(&|l| u64::from(((l & 1) as i32 * -3) as u32))]);
    let p2 = op(sum, Scalar::F32, &all, &[&f32s(&|_| 1.5)]);
    let p3 = op(
        WaveOp::Prefix { op: Reduce::Product, signed: false },
        Scalar::I32,
        &all,
        &[&lane(&|l| if l < 6 { 2 } else { 1 })],
    );
    let p4 = op(WaveOp::PrefixCountBits, Scalar::Bool, &all, &[&lane(&|l| u64::from(l & 3 == 1))]);
    let prefix: Vec<[u32; 5]> = (0..8).map(|l| [p0[l], p1[l], p2[l], p3[l], p4[l]]).collect();
    assert_eq!(prefix, PREFIX);

    let v = lane(&|l| 100 + l);
    let q = |d| op(WaveOp::Quad(d), Scalar::I32, &all, &[&v]);
    let (x, y, d) = (q(QuadDir::X), q(QuadDir::Y), q(QuadDir::Diagonal));
    let at2 = op(WaveOp::QuadReadLaneAt, Scalar::I32, &all, &[&v, &[2; 8]]);
    let at1 = op(WaveOp::QuadReadLaneAt, Scalar::F32, &all, &[&f32s(&|l| l * 0.5), &[1; 8]]);
    let quad: Vec<[u32; 5]> = (0..8).map(|l| [x[l], y[l], d[l], at2[l], at1[l]]).collect();
    assert_eq!(quad, QUAD);

    let odd = Lanes::new(8, 0xAA, 0).unwrap();
    let even = Lanes::new(8, 0x55, 0).unwrap();
    let ones = [1u64; 8];
    let of = op(WaveOp::IsFirstLane, Scalar::Bool, &odd, &[]);
    let opc = op(WaveOp::PrefixCountBits, Scalar::Bool, &odd, &[&ones]);
    let eps = op(sum, Scalar::I32, &even, &[&ones]);
    let div: Vec<[u32; 6]> = (0..8)
        .map(|l| {
            let tail = wave::count_bits(&all, &ones);
            if l & 1 == 1 {
                let s = wave::reduce(Reduce::Sum, false, Scalar::I32, &odd, &ids) as u32;
                [wave::count_bits(&odd, &ones), s, wave::read_lane_first(&odd, &ids) as u32, of[l], opc[l], tail]
            } else {
                let s = wave::reduce(Reduce::Sum, false, Scalar::I32, &even, &ids) as u32;
                let m = wave::reduce(Reduce::Max, false, Scalar::I32, &even, &ids) as u32;
                [s, wave::read_lane_first(&even, &ids) as u32, eps[l], m, wave::ballot(&even, &ones)[0], tail]
            }
        })
        .collect();
    assert_eq!(div, DIVERGENT_IF);

    // The loop: iteration k runs the lanes with L % 4 >= k.
    let mut acc = [0u32; 8];
    let mut last = [0u32; 8];
    let mut iters = [0u32; 8];
    for k in 0..4u64 {
        let mask = (0..8).filter(|l| l % 4 >= k).fold(0u128, |m, l| m | 1 << l);
        let active = Lanes::new(8, mask, 0).unwrap();
        let n = wave::count_bits(&active, &ones);
        let m = wave::reduce(Reduce::Min, false, Scalar::I32, &active, &lane(&|l| l % 4)) as u32;
        for l in (0..8).filter(|l| mask >> l & 1 == 1) {
            acc[l] += n;
            last[l] = m;
            iters[l] += 1;
        }
    }
    let lp: Vec<[u32; 4]> = (0..8).map(|l| [acc[l], last[l], iters[l], wave::count_bits(&all, &ones)]).collect();
    assert_eq!(lp[..4], DIVERGENT_LOOP);
    assert_eq!(lp[4..], DIVERGENT_LOOP);

    let fsum = |g: &dyn Fn(f32) -> f32| red(Reduce::Sum, true, Scalar::F32, &f32s(g));
    let umax = |g: &dyn Fn(u64) -> u64| red(Reduce::Max, false, Scalar::I32, &lane(g));
    let py = op(sum, Scalar::I32, &all, &[&lane(&|l| u64::from((-(l as i32)) as u32))]);
    let px = op(sum, Scalar::I32, &all, &[&ones]);
    let vec: Vec<[u32; 9]> = (0..8)
        .map(|l| {
            [
                fsum(&|_| 1.0),
                fsum(&|x| x),
                fsum(&|x| -x),
                fsum(&|_| 0.5),
                umax(&|x| x),
                umax(&|x| 8 - x),
                umax(&|x| x * x),
                px[l],
                py[l],
            ]
        })
        .collect();
    assert_eq!(vec, vector());

    // 16-bit lanes: uint16_t(L); half(0.5) is 0x3800; int16_t(L) - 100 wraps in 16 bits;
    // half(L) * half(0.25) = L / 4 exactly.
    let hv: Vec<u64> = (0..8).map(|l| u64::from(f32_to_half(l as f32 * 0.25))).collect();
    let r = op(WaveOp::ReadLaneAt, Scalar::F16, &all, &[&hv, &[3; 8]]);
    let m = wave::reduce(Reduce::Min, true, Scalar::I16, &all, &lane(&|l| l.wrapping_sub(100) & 0xFFFF));
    let h = [
        wave::reduce(Reduce::Sum, false, Scalar::I16, &all, &ids) as u32,
        f(half_to_f32(wave::reduce(Reduce::Sum, true, Scalar::F16, &all, &[0x3800; 8]) as u16)),
        m as u16 as i16 as i32 as u32,
        f(half_to_f32(r[0] as u16)),
    ];
    assert_eq!(h, WAVE_16BIT[0]);
}

/// The operands after the opcode of every dx.op call, `Some` for integer constants.
fn wave_calls(p: &Program) -> Vec<(u32, Result<Option<WaveOp>, wave::BadWaveOp>)> {
    let m = &p.module;
    let mut out = Vec::new();
    for func in m.functions.iter().filter(|f| !f.declaration) {
        for inst in func.blocks.iter().flat_map(|b| &b.insts) {
            let Some(op) = m.dx_op(func, &inst.kind) else { continue };
            if !(110..=123).contains(&op.opcode) && !(135..=136).contains(&op.opcode) {
                continue;
            }
            let consts: Vec<Option<u64>> = op
                .args
                .iter()
                .map(|a| match a {
                    Operand::Value(id) => m.const_int(Some(func), *id).map(|v| v as u64),
                    Operand::Metadata(_) => None,
                })
                .collect();
            out.push((op.opcode, WaveOp::from_dx_op(op.opcode, &consts)));
        }
    }
    out
}

#[test]
fn fixtures_decode() {
    use WaveOp as O;
    let active = |op, signed| O::Active { op, signed };
    let fixtures: &[(&str, &[WaveOp])] = &[
        ("wave_lane_basics", &[O::GetLaneCount, O::GetLaneIndex, O::IsFirstLane]),
        ("wave_vote", &[O::AnyTrue, O::AllTrue, O::Ballot]),
        ("wave_read_lane", &[O::ReadLaneAt, O::ReadLaneFirst]),
        (
            "wave_active_sum_product",
            &[active(Reduce::Sum, false), active(Reduce::Sum, true), active(Reduce::Product, true)],
        ),
        ("wave_active_minmax", &[active(Reduce::Min, false), active(Reduce::Min, true), active(Reduce::Max, false)]),
        ("wave_active_bits", &[O::Bit(wave::BitOp::And), O::Bit(wave::BitOp::Or), O::Bit(wave::BitOp::Xor)]),
        ("wave_countbits_allequal", &[O::CountBits, O::AllEqual]),
        (
            "wave_prefix",
            &[
                O::Prefix { op: Reduce::Sum, signed: false },
                O::Prefix { op: Reduce::Product, signed: false },
                O::PrefixCountBits,
            ],
        ),
        ("quad_read", &[O::Quad(QuadDir::X), O::Quad(QuadDir::Y), O::Quad(QuadDir::Diagonal), O::QuadReadLaneAt]),
        ("wave_divergent_if", &[O::CountBits, O::ReadLaneFirst, O::IsFirstLane, O::PrefixCountBits, O::Ballot]),
        ("wave_divergent_loop", &[O::CountBits, active(Reduce::Min, false), active(Reduce::Sum, false)]),
        (
            "wave_vector",
            &[active(Reduce::Sum, true), active(Reduce::Max, false), O::Prefix { op: Reduce::Sum, signed: true }],
        ),
        ("wave_compaction", &[O::CountBits, O::PrefixCountBits, O::IsFirstLane, O::ReadLaneFirst]),
        ("wave_16bit", &[active(Reduce::Sum, false), active(Reduce::Min, true), O::ReadLaneAt]),
        ("wavesize_4", &[O::GetLaneCount, active(Reduce::Sum, false)]),
        ("wavesize_16", &[O::GetLaneCount]),
        ("wavesize_32", &[O::GetLaneCount]),
        ("wavesize_64", &[O::GetLaneCount]),
        ("wavesize_range_16_64_32", &[O::GetLaneCount, O::PrefixCountBits]),
        ("wavesize_range_4_128", &[O::GetLaneCount, O::Ballot]),
        ("prefix_scan_wave", &[O::GetLaneCount, O::GetLaneIndex, O::Prefix { op: Reduce::Sum, signed: false }]),
        ("softmax_wave", &[active(Reduce::Max, true), active(Reduce::Sum, true), O::IsFirstLane]),
    ];
    for (name, want) in fixtures {
        let p = program(name);
        let calls = wave_calls(&p);
        assert!(!calls.is_empty(), "{name}: no wave operation");
        let mut got = Vec::new();
        for (code, r) in calls {
            let op = r.unwrap_or_else(|e| panic!("{name}: {e}")).unwrap_or_else(|| panic!("{name}: {code} undecoded"));
            assert_eq!(op.opcode(), code);
            got.push(op);
        }
        for w in *want {
            assert!(got.contains(w), "{name}: {w:?} not among {got:?}");
        }
    }
    let sizes = [("wavesize_4", 4), ("wavesize_16", 16), ("wavesize_32", 32), ("wavesize_64", 64)];
    for (name, n) in sizes {
        let ws = program(name).dx.entry_points[0].wave_size.unwrap();
        assert_eq!((ws.min, ws.max, ws.pick(wave::DEFAULT_LANES)), (n, n, n), "{name}");
    }
    let ws = program("wavesize_range_16_64_32").dx.entry_points[0].wave_size.unwrap();
    assert_eq!(ws.pick(wave::DEFAULT_LANES), 32);
    let ws = program("wavesize_range_4_128").dx.entry_points[0].wave_size.unwrap();
    assert_eq!(ws.pick(wave::DEFAULT_LANES), 8);
    assert_eq!(program("wave_lane_basics").dx.entry_points[0].wave_size, None);
}

// The dispatches. Each u0 starts as 0xDEAD words so that a missed store shows.

fn dead(words: usize) -> Vec<u32> {
    vec![0xDEAD; words]
}

#[test]
fn wave_lane_basics() {
    assert_eq!(run("wave_lane_basics", 1, dead(192), vec![]), expand(&lane_basics(), 64));
}

#[test]
fn wave_vote() {
    assert_eq!(run("wave_vote", 1, dead(512), vec![]), expand(&VOTE, 64));
}

#[test]
fn wave_read_lane() {
    assert_eq!(run("wave_read_lane", 1, dead(256), vec![]), expand(&READ_LANE, 64));
}

#[test]
fn wave_active_sum_product() {
    assert_eq!(run("wave_active_sum_product", 1, dead(384), vec![]), expand(&SUM_PRODUCT, 64));
}

#[test]
fn wave_active_minmax() {
    assert_eq!(run("wave_active_minmax", 1, dead(384), vec![]), expand(&MINMAX, 64));
}

#[test]
fn wave_active_bits() {
    assert_eq!(run("wave_active_bits", 1, dead(192), vec![]), expand(&BITS, 64));
}

#[test]
fn wave_countbits_allequal() {
    assert_eq!(run("wave_countbits_allequal", 1, dead(256), vec![]), expand(&COUNTBITS_ALLEQUAL, 64));
}

#[test]
fn wave_prefix() {
    assert_eq!(run("wave_prefix", 1, dead(320), vec![]), expand(&PREFIX, 64));
}

#[test]
fn quad_read() {
    assert_eq!(run("quad_read", 1, dead(320), vec![]), expand(&QUAD, 64));
}

#[test]
fn wave_divergent_if() {
    assert_eq!(run("wave_divergent_if", 1, dead(384), vec![]), expand(&DIVERGENT_IF, 64));
}

#[test]
fn wave_divergent_loop() {
    assert_eq!(run("wave_divergent_loop", 1, dead(256), vec![]), expand(&DIVERGENT_LOOP, 64));
}

#[test]
fn wave_vector() {
    assert_eq!(run("wave_vector", 1, dead(576), vec![]), expand(&vector(), 64));
}

#[test]
fn wave_compaction() {
    // 4 groups of 64: thread t keeps t when t % 3 == 0, 86 values; word 0 counts them, one
    // InterlockedAdd per wave. The order of the waves' blocks is not defined: compare as a set.
    let mut u0 = dead(257);
    u0[0] = 0;
    let out = run("wave_compaction", 4, u0, vec![]);
    assert_eq!(out[0], 86);
    let mut kept = out[1..87].to_vec();
    kept.sort_unstable();
    assert_eq!(kept, (0..256).step_by(3).collect::<Vec<u32>>());
    assert_eq!(out[87..], [0xDEAD; 170], "nothing past the 86 values");
}

#[test]
fn wave_16bit() {
    assert_eq!(run("wave_16bit", 1, dead(256), vec![]), expand(&WAVE_16BIT, 64));
}

#[test]
fn wavesize_4_16_32_64() {
    // [WaveSize(N)]: WaveGetLaneCount() = N and WaveActiveSum(1) = N in every thread.
    for n in [4u32, 16, 32, 64] {
        assert_eq!(run(&format!("wavesize_{n}"), 1, dead(128), vec![]), vec![n; 128], "WaveSize({n})");
    }
}

#[test]
fn wavesize_ranges() {
    // [WaveSize(16, 64, 32)]: the preferred 32; thread i is lane i % 32.
    let want: Vec<u32> = (0..64).flat_map(|i| [32, 32, i % 32]).collect();
    assert_eq!(run("wavesize_range_16_64_32", 1, dead(192), vec![]), want);
    // [WaveSize(4, 128)] allows the default 8: W = 8, and the ballot of all lanes has 8 bits.
    assert_eq!(run("wavesize_range_4_128", 1, dead(256), vec![]), vec![8; 256]);
}

#[test]
fn prefix_scan_wave() {
    let t0: Vec<u32> = (0..256).map(|k| k % 7 + 1).collect();
    let out = run("prefix_scan_wave", 1, dead(256), t0);
    // By hand: 1, 1 + 2, 1 + ... + 7 = 28, 28 + 1, and 36 cycles of 28 + (1 + 2 + 3 + 4) = 1018.
    assert_eq!([out[0], out[1], out[6], out[7], out[255]], [1, 3, 28, 29, 1018]);
    assert_eq!(out, (0..256).map(prefix_scan_out).collect::<Vec<u32>>());
}

#[test]
fn softmax_wave() {
    // X[r][c] = (c % 8) * 0.5 - r * 0.25; every row: Y[c] = e^(0.5 (c % 8)) / (8 sum_k<8 e^(0.5 k)).
    let t0: Vec<u32> = (0..512).map(|i| f((i % 64 % 8) as f32 * 0.5 - (i / 64) as f32 * 0.25)).collect();
    let out = run("softmax_wave", 8, dead(512), t0);
    let denom: f64 = 8.0 * (0..8).map(|k| (0.5 * f64::from(k)).exp()).sum::<f64>();
    assert!((denom - 660.96985).abs() < 1e-4, "{denom}");
    for (i, w) in out.iter().enumerate() {
        let want = (0.5 * (i % 8) as f64).exp() / denom;
        let got = f64::from(f32::from_bits(*w));
        assert!(((got - want) / want).abs() < 1e-5, "Y[{}][{}] = {got}, want {want}", i / 64, i % 64);
    }
}
