//! DXC's integer, float, conversion and control-flow shaders of the corpus's `alu/` group
//! (copies in `tests/fixtures/dxil/dxc`, see its README), each dispatched once through
//! [`rd3d12_swgpu::compute::dispatch`] with its one binding, u0 a RWByteAddressBuffer, and its
//! output compared word by word with what its HLSL computes, worked out here from the formulas
//! of each header (the header's examples checked as spot values). u0 starts as 0xDEAD words.

use rd3d12_shader::dxil;
use rd3d12_swgpu::compute::dispatch;
use rd3d12_swgpu::draw::{Bindings, Class};
use std::sync::Mutex;

/// u0, a raw buffer of words addressed by byte.
struct Out(Mutex<Vec<u32>>);

impl Bindings for Out {
    fn buffer_load(&self, _class: Class, _b: (u32, u32), _stride: u32, index: u32, _offset: u32) -> [u32; 4] {
        let u = self.0.lock().unwrap();
        std::array::from_fn(|k| u.get(index as usize / 4 + k).copied().unwrap_or(0))
    }
    fn buffer_store(&self, _b: (u32, u32), _stride: u32, index: u32, _offset: u32, value: [u32; 4], mask: u8) {
        let mut u = self.0.lock().unwrap();
        for (k, v) in value.iter().enumerate() {
            if mask & (1 << k) != 0 {
                if let Some(w) = u.get_mut(index as usize / 4 + k) {
                    *w = *v;
                }
            }
        }
    }
}

/// Runs `name.cs.dxil` over `groups` with u0 of `words` words; returns u0.
fn run(name: &str, groups: [u32; 3], words: usize) -> Vec<u32> {
    let path = format!("{}/../../tests/fixtures/dxil/dxc/{name}.cs.dxil", env!("CARGO_MANIFEST_DIR"));
    let p = dxil::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
    dxil::support::check(&p.module).unwrap_or_else(|e| panic!("{name}: {e}"));
    let out = Out(Mutex::new(vec![0xDEAD; words]));
    dispatch(&p, &p.dx.entry_points[0], groups, &out).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    out.0.into_inner().unwrap()
}

/// Checks thread i's `n` words against `want(i)` for i in 0..threads.
fn per_thread<const N: usize>(out: &[u32], threads: u32, want: impl Fn(u32) -> [u32; N]) {
    for i in 0..threads {
        assert_eq!(out[N * i as usize..][..N], want(i), "thread {i}");
    }
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn int_mul() {
    let out = run("int_mul", [1, 1, 1], 128);
    per_thread(&out, 64, |i| [i.wrapping_mul(2_654_435_761), ((i as i32 - 32) * -7) as u32]);
    assert_eq!(out[..8], [0, 224, 0x9E37_79B1, 217, 0x3C6E_F362, 210, 0xDAA6_6D13, 203]);
}

#[test]
fn int_udiv_urem() {
    let out = run("int_udiv_urem", [1, 1, 1], 128);
    per_thread(&out, 64, |i| {
        let (n, d) = (u32::MAX - 1_234_567 * i, 2 * i + 3);
        [n / d, n % d]
    });
    assert_eq!(out[126..128], [32_691_392, 6]);
}

#[test]
fn int_sdiv_srem() {
    let out = run("int_sdiv_srem", [1, 1, 1], 128);
    per_thread(&out, 64, |i| {
        let a = 1000 * i as i32 - 31500;
        let k = (i & 7) as i32;
        let d = if k < 4 { k - 4 } else { k - 3 };
        [(a / d) as u32, (a % d) as u32]
    });
    assert_eq!((out[0], out[2] as i32, out[3] as i32), (7875, 10166, -2));
}

#[test]
fn int_mad() {
    let out = run("int_mad", [1, 1, 1], 192);
    per_thread(&out, 64, |i| {
        [
            ((i as i32 - 20) * -3 + 7) as u32,
            i.wrapping_mul(16_777_619).wrapping_add(2_166_136_261),
            f(i as f32 * 0.5 + 0.25),
        ]
    });
    assert_eq!(out[3..6], [64, 0x821C_9F58, 0x3F40_0000]);
}

#[test]
fn vector_dot() {
    let out = run("vector_dot", [1, 1, 1], 320);
    per_thread(&out, 64, |i| {
        let (x, s) = (i as f32, i as i32 - 32);
        [(5 * s - 5) as u32, 10 * i + 20, f(1.5 * x), f(4.0 - x), f(x * x + 6.0)]
    });
}

#[test]
fn int_shifts() {
    let out = run("int_shifts", [1, 1, 1], 192);
    per_thread(&out, 64, |i| [1 << (i & 31), 0x8000_0000 >> (i & 31), (i32::MIN >> (i & 31)) as u32]);
    assert_eq!(out[3 * 36 + 2], 0xF800_0000);
}

#[test]
fn bits_countbits() {
    let out = run("bits_countbits", [1, 1, 1], 128);
    per_thread(&out, 64, |i| [32 - (i & 31), i.wrapping_mul(0x1111_1111).count_ones()]);
    assert_eq!(out[33], 7);
}

#[test]
fn bits_reversebits() {
    let out = run("bits_reversebits", [1, 1, 1], 128);
    per_thread(&out, 64, |i| [i.reverse_bits(), (0xFFFF_0000 | i).reverse_bits()]);
    assert_eq!(out[126..128], [0xFC00_0000, 0xFC00_FFFF]);
}

#[test]
fn minmax_int() {
    let out = run("minmax_int", [1, 1, 1], 384);
    per_thread(&out, 64, |i| {
        let (s, u) = (i as i32 - 32, i.wrapping_mul(0x0800_0000));
        [
            s.min(-5) as u32,
            s.max(-5) as u32,
            u.min(0x9000_0000),
            u.max(0x7000_0000),
            s.clamp(-10, 10) as u32,
            u.clamp(0x1000_0000, 0xA000_0000),
        ]
    });
}

/// f32tof16 and f16tof32 (the legacy conversions, no 16-bit types): the values are exact in
/// half, so the bits follow from IEEE half's layout (sign, 5 exponent bits biased by 15, 10
/// mantissa bits).
#[test]
fn f16_legacy_convert() {
    let out = run("f16_legacy_convert", [1, 1, 1], 128);
    // i/4 - 4 as half bits: a multiple of 1/4 in -4..11.75.
    let half = |x: f32| -> u32 {
        if x == 0.0 {
            return 0;
        }
        let (sign, a) = (u32::from(x < 0.0) << 15, x.abs());
        let e = a.log2().floor() as i32;
        let m = ((a / 2f32.powi(e) - 1.0) * 1024.0) as u32;
        sign | ((e + 15) as u32) << 10 | m
    };
    per_thread(&out, 64, |i| [half(i as f32 * 0.25 - 4.0), f(1.0 + i as f32 / 1024.0)]);
    assert_eq!([out[0], out[16], out[34], out[40]], [0xC400, 0xC000, 0x3400, 0x3C00]);
    assert_eq!([out[1], out[3], out[127]], [0x3F80_0000, 0x3F80_2000, 0x3F87_E000]);
}

#[test]
fn bitcast() {
    let out = run("bitcast", [1, 1, 1], 192);
    per_thread(&out, 64, |i| [f(i as f32 * 1.5), f(f32::from_bits(0x3F80_0000 + (i << 20)) * 2.0), f(-(i as f32))]);
    assert_eq!(out[..6], [0, 0x4000_0000, 0x8000_0000, 0x3FC0_0000, 0x4010_0000, 0xBF80_0000]);
}

#[test]
fn switch_case() {
    let out = run("switch_case", [1, 1, 1], 64);
    per_thread(&out, 64, |i| [[10, 111, 100, 1003, 1004, i * 3, 0xDEAD, 0xDEAD][(i % 8) as usize]]);
    assert_eq!(out[13], 39);
}

#[test]
fn loop_break_continue() {
    let out = run("loop_break_continue", [1, 1, 1], 192);
    per_thread(&out, 64, |i| {
        let n = i + 1;
        let (mut x, mut steps) = (n, 0);
        while x != 1 && steps < 1000 {
            x = if x % 2 == 0 { x / 2 } else { 3 * x + 1 };
            steps += 1;
        }
        let odd: u32 = (0..n.min(41)).filter(|j| j % 2 == 1).sum();
        let pair = (1..=n).find_map(|a| (1..=n).find(|b| a * b == n + 13).map(|b| a * 256 + b)).unwrap_or(0);
        [steps, odd, pair]
    });
    assert_eq!([out[3 * 26], out[3 * 40 + 1], out[3 * 63 + 2]], [111, 400, 1803]);
}

#[test]
fn local_array_dynamic() {
    let out = run("local_array_dynamic", [1, 1, 1], 192);
    per_thread(&out, 64, |i| {
        let mut arr: Vec<u32> = (0..16).map(|k| k * k + i).collect();
        arr[((i * 5) & 15) as usize] += 1000;
        let v = |k: u32| [k as f32, (k + i) as f32, (k * 2) as f32, 1.0];
        [arr[(i & 15) as usize], arr[(15 - (i & 15)) as usize], f(v(i & 3)[((i >> 2) & 3) as usize])]
    });
    assert_eq!(out[3 * 63..3 * 64], [288, 63, f(1.0)]);
}

#[test]
fn groupshared_struct_array() {
    let out = run("groupshared_struct_array", [1, 1, 1], 256);
    per_thread(&out, 64, |i| {
        let j = 63 - i;
        [f(j as f32 * 0.5), f(j as f32), f(-(j as f32) * 0.5), 7 * j + 1 + u32::from(i == 5)]
    });
    assert_eq!(out[4 * 5 + 3], 408);
}

#[test]
fn static_const_table() {
    const PRIMES: [u32; 16] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53];
    const PAIRS: [(u32, f32); 4] = [(0x11, 1.5), (0x22, -2.0), (0x33, 0.25), (0x44, 100.0)];
    let out = run("static_const_table", [1, 1, 1], 256);
    per_thread(&out, 64, |i| {
        let (r, c) = (i & 3, (i >> 2) & 3);
        let primes = PRIMES[(i & 15) as usize] + PRIMES[((i * 7) & 15) as usize] + if i == 63 { 13 } else { 0 };
        let (tag, scale) = PAIRS[(i & 3) as usize];
        [primes, f((4 * r + c + 1) as f32 / 2.0), tag, f(scale * i as f32)]
    });
    assert_eq!([out[0], out[4], out[8], out[4 * 63]], [4, 22, 52, 95]);
}

#[test]
fn select_ternary() {
    let out = run("select_ternary", [1, 1, 1], 512);
    per_thread(&out, 64, |i| {
        let v = [i, i + 1, i * 2, 63 - i];
        let s = v.map(|x| if x > 31 { x } else { 7 });
        [
            if i & 1 == 1 { 100 + i } else { 200 - i },
            s[0],
            s[1],
            s[2],
            s[3],
            u32::from(v.contains(&32)),
            u32::from(v.iter().all(|x| (10..=60).contains(x))),
            u32::from(v.iter().any(|&x| x == 5 || x == 58)),
        ]
    });
}

/// min16float / min16int / min16uint: the values are exact at 16 bits and at 32, so either
/// precision gives them.
#[test]
fn min16_types() {
    let out = run("min16_types", [1, 1, 1], 256);
    per_thread(&out, 64, |i| {
        let h = i as f32 * 0.5 + 0.25;
        [f(h * 2.0), (3 * i as i32 - 97) as u32, 100 * i / 7, f(h.max(10.0) - (i & 3) as f32)]
    });
}

/// SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID and SV_GroupIndex in 2x3 groups of 4x2x2:
/// record r = (gy * 2 + gx) * 16 + flat.
#[test]
fn cs_system_values() {
    let out = run("cs_system_values", [2, 3, 1], 96 * 8);
    per_thread(&out, 96, |r| {
        let (g, flat) = (r / 16, r % 16);
        let (gx, gy) = (g % 2, g / 2);
        let (tx, ty, tz) = (flat % 4, (flat / 4) % 2, flat / 8);
        [gx * 4 + tx, gy * 2 + ty, tz, gx, gy, tx + 10 * ty + 100 * tz, flat, r]
    });
    assert_eq!(out[8 * 31..8 * 32], [7, 1, 1, 1, 0, 113, 15, 31]);
}

/// fp32 add, sub, mul and div of x = i - 32 and y = i/4 + 1 (IEEE round to nearest), and frem
/// (the sign of x; a zero's sign is open under DXC's fast math, so zeros compare as numbers).
#[test]
fn float_arith() {
    let out = run("float_arith", [1, 1, 1], 320);
    for i in 0..64u32 {
        let (x, y) = (i as f32 - 32.0, i as f32 * 0.25 + 1.0);
        let got: Vec<f32> = out[5 * i as usize..][..5].iter().map(|w| f32::from_bits(*w)).collect();
        assert_eq!(got[..4], [x + y, x - y, x * y, x / y], "thread {i}");
        assert_eq!(got[4], x % y, "thread {i}: frem");
    }
    assert_eq!(f32::from_bits(out[5 * 6 + 4]), -1.0);
}

/// floor, ceil, round (half to even), trunc, frac and abs of x = 0.375 (i - 32), exact.
#[test]
fn float_rounding() {
    let out = run("float_rounding", [1, 1, 1], 384);
    per_thread(&out, 64, |i| {
        let x = (i as f32 - 32.0) * 0.375;
        [x.floor(), x.ceil(), x.round_ties_even(), x.trunc(), x - x.floor(), x.abs()].map(f)
    });
    assert_eq!(f32::from_bits(out[6 * 20 + 2]), -4.0);
    assert_eq!(out[6 * 31 + 3], 0x8000_0000);
}

/// msad4 (DXC's Bfi byte shuffles and four Msad): acc.c plus |ref byte - src byte k + c| over
/// the reference's non-zero bytes, src's bytes (0x3F, 0x2F, 0x1F, 0x0F, 0x33, 0x22, 0x11, ...).
#[test]
fn msad4() {
    let out = run("msad4", [1, 1, 1], 256);
    per_thread(&out, 64, |i| {
        let reference = 0x1020_3040u32 + i;
        let src = 0x0011_2233_0F1F_2F3Fu64;
        let acc = [i, 0, 0, 1000];
        std::array::from_fn::<u32, 4, _>(|c| {
            (0..4).fold(acc[c], |a, k| {
                let r = (reference >> (8 * k)) & 0xFF;
                let s = ((src >> (8 * (k + c))) & 0xFF) as u32;
                if r == 0 {
                    a
                } else {
                    a + r.abs_diff(s)
                }
            })
        })
    });
    assert_eq!(out[..4], [4, 86, 103, 1055]);
}

/// length, normalize, distance, cross, reflect and dot of a = (3, 4, 0) (i + 1) and b = (0,
/// 1, i): the exact ones exactly, normalize within 2 ulps of (0.6, 0.8, 0) and length and
/// distance within 1e-6 relative (DXC writes them as sqrt / rsqrt of a dot).
#[test]
fn float_vector_math() {
    let out = run("float_vector_math", [1, 1, 1], 640);
    for i in 0..64u32 {
        let n = (i + 1) as f32;
        let got: Vec<f32> = out[10 * i as usize..][..10].iter().map(|w| f32::from_bits(*w)).collect();
        let close = |g: f32, w: f32, tol: f32| (g - w).abs() <= tol * w.abs().max(1.0);
        assert!(close(got[0], 5.0 * n, 1e-6), "thread {i}: length {}", got[0]);
        assert!(
            close(got[1], 0.6, 2.0 * f32::EPSILON) && close(got[2], 0.8, 2.0 * f32::EPSILON),
            "thread {i}: {got:?}"
        );
        assert_eq!(got[3], 0.0, "thread {i}");
        let d = ((3.0 * n).powi(2) + (4.0 * n - 1.0).powi(2) + (i as f32).powi(2)).sqrt();
        assert!(close(got[4], d, 1e-6), "thread {i}: distance {} vs {d}", got[4]);
        let ii = i as f32;
        assert_eq!(got[5..], [n * 4.0 * ii, -n * 3.0 * ii, n * 3.0, ii - 1.0, 4.0 * n], "thread {i}");
    }
}
