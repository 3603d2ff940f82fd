//! DXC's shaders of `tests/fixtures/dxil/dxc` (copies from the project's corpus, see its
//! README): each dispatched through [`rd3d12_swgpu::compute::dispatch`] with the bindings its
//! HLSL header describes, its output compared word by word with values worked out by hand from
//! the HLSL (the header's formulas, evaluated here; its examples checked as spot values).
//! Outputs start as 0xDEAD words so that a missed store shows.

use rd3d12_shader::dxil::{self, Program};
use rd3d12_swgpu::compute::dispatch;
use rd3d12_swgpu::draw::{Bindings, Class};
use std::sync::Mutex;

fn program(file: &str) -> Program {
    let path = format!("{}/../../tests/fixtures/dxil/dxc/{file}", env!("CARGO_MANIFEST_DIR"));
    let p = dxil::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{file}: {e}"));
    // What pipeline creation checks: every operation is one the interpreter executes.
    dxil::support::check(&p.module).unwrap_or_else(|e| panic!("{file}: {e}"));
    p
}

/// u0, a raw or structured UAV of 32-bit words (byte addresses: raw index, or
/// index * stride + offset).
struct Buffers {
    u0: Mutex<Vec<u32>>,
}

fn byte(stride: u32, index: u32, offset: u32) -> usize {
    if stride == 0 {
        index as usize
    } else {
        (index * stride + offset) as usize
    }
}

impl Bindings for Buffers {
    fn buffer_load(&self, _class: Class, _b: (u32, u32), stride: u32, index: u32, offset: u32) -> [u32; 4] {
        let at = byte(stride, index, offset) / 4;
        let u0 = self.u0.lock().unwrap();
        std::array::from_fn(|k| u0.get(at + k).copied().unwrap_or(0))
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
        let mut u0 = self.u0.lock().unwrap();
        let cell = &mut u0[c[0] as usize / 4];
        let old = *cell;
        // DXIL's AtomicBinOp numbering: 0 add, 1 and, 2 or, 3 xor, 8 exchange.
        *cell = match op {
            0 => old.wrapping_add(value),
            1 => old & value,
            2 => old | value,
            3 => old ^ value,
            8 => value,
            _ => panic!("atomic op {op}"),
        };
        old
    }
}

/// Runs `file` over `groups` groups (x) with u0 of `words` 0xDEAD words; returns u0.
fn run(file: &str, groups: u32, words: usize) -> Vec<u32> {
    let p = program(file);
    let b = Buffers { u0: Mutex::new(vec![0xDEAD; words]) };
    dispatch(&p, &p.dx.entry_points[0], [groups, 1, 1], &b).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    b.u0.into_inner().unwrap()
}

/// dot2add(half2(i, 0.5), half2(0.25, -i), 1000.0) = 1000 + 0.25 i - 0.5 i = 1000 - 0.25 i
/// (exact in f32; i = 4 gives 999).
#[test]
fn dot2add() {
    let out = run("dot2add.cs.dxil", 1, 64);
    let want: Vec<u32> = (0..64).map(|i| (1000.0 - 0.25 * i as f32).to_bits()).collect();
    assert_eq!(out, want);
    assert_eq!(f32::from_bits(out[4]), 999.0);
}

/// dot4add_i8packed(a = bytes (1, 127, -1, -128), b = bytes (i, -i, 2, 3), acc = -i)
/// = -i + i - 127 i - 2 - 384 = -127 i - 386.
#[test]
fn dot4add_i8packed() {
    let out = run("dot4add_i8packed.cs.dxil", 1, 64);
    let want: Vec<u32> = (0..64).map(|i: i32| (-127 * i - 386) as u32).collect();
    assert_eq!(out, want);
    assert_eq!((out[0] as i32, out[1] as i32), (-386, -513));
}

/// dot4add_u8packed(a = bytes (1, 127, 255, 128), b = bytes (i, 255 - i, 2, 3), acc = 1000 i)
/// = 1000 i + i + 127 (255 - i) + 510 + 384 = 874 i + 33279.
#[test]
fn dot4add_u8packed() {
    let out = run("dot4add_u8packed.cs.dxil", 1, 64);
    let want: Vec<u32> = (0..64).map(|i| 874 * i + 33279).collect();
    assert_eq!(out, want);
}

/// The bytes of a packed word, lowest first.
fn bytes(b: [i32; 4]) -> u32 {
    b.iter().enumerate().fold(0, |w, (k, &x)| w | ((x as u32) & 0xFF) << (8 * k))
}

/// pack_u8 / pack_s8 truncate, pack_clamp_u8 / pack_clamp_s8 clamp; unpack_u8u32 and
/// unpack_s8s32 of 0x80FF7F01 + i zero- and sign-extend its bytes (12 words per thread).
#[test]
fn pack_unpack_8bit() {
    let out = run("pack_unpack_8bit.cs.dxil", 1, 64 * 12);
    for i in 0..64i32 {
        let u = [i, i + 200, 255 - i, 0x1234];
        let s = [i - 32, i * 4 - 128, -i * 5, 300];
        let p = (0x80FF7F01u32).wrapping_add(i as u32);
        let mut want =
            vec![bytes(u), bytes(s), bytes(s.map(|x| x.clamp(0, 255))), bytes(s.map(|x| x.clamp(-128, 127)))];
        want.extend((0..4).map(|k| (p >> (8 * k)) & 0xFF));
        want.extend((0..4).map(|k| (p >> (8 * k)) as u8 as i8 as i32 as u32));
        assert_eq!(out[12 * i as usize..][..12], want[..], "thread {i}");
    }
    // The header's examples for thread 0.
    assert_eq!(out[..4], [0x34FFC800, 0x2C0080E0, 0xFF000000, 0x7F0080E0]);
    assert_eq!(out[4..12], [1, 127, 255, 128, 1, 127, (-1i32) as u32, (-128i32) as u32]);
}

/// WaveMultiPrefix* over the partitions WaveMatch(L & 1) makes (even lanes, odd lanes), for
/// the interpreter's waves of W = 8 lanes (L = i % 8): lane L's partition below it is the k =
/// L / 2 lanes L - 2, L - 4, ..., L & 1.
#[test]
fn wave_multiprefix() {
    let out = run("wave_multiprefix.cs.dxil", 1, 64 * 6);
    for i in 0..64u32 {
        let l = i % 8;
        let below: Vec<u32> = (0..l).filter(|j| j % 2 == l % 2).collect();
        let k = below.len() as u32;
        assert_eq!(k, l / 2);
        let want = [
            // sum of j: k (L & 1) + k (k - 1)
            k * (l & 1) + k * k.saturating_sub(1),
            1 << k,
            below.iter().filter(|j| *j % 3 == 0).count() as u32,
            below.iter().fold(u32::MAX, |a, j| a & (0xFF ^ (1 << (j & 7)))),
            below.iter().fold(0, |a, j| a | 1 << (j & 31)),
            below.iter().fold(0, |a, j| a ^ j),
        ];
        assert_eq!(out[6 * i as usize..][..6], want, "thread {i}");
    }
    // The header's example: L = 5 sums lanes 1 and 3.
    assert_eq!(out[6 * 5], 4);
}

/// WaveMatch(L % 3) and WaveMatch(float(L / 8)) for waves of W = 8 lanes: word 0 of the first
/// is the W = 8 part of the header's 0x49249249 / 0x92492492 / 0x24924924, the other words 0;
/// the float key is the same (L / 8 = 0) in every lane of a wave, so m2[0] = 0xFF.
#[test]
fn wave_match() {
    let p = {
        let path = format!("{}/../../tests/fixtures/dxil/wave/wave_match.cs.dxil", env!("CARGO_MANIFEST_DIR"));
        dxil::parse(&std::fs::read(path).unwrap()).unwrap()
    };
    let b = Buffers { u0: Mutex::new(vec![0xDEAD; 64 * 6]) };
    dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).unwrap();
    let out = b.u0.into_inner().unwrap();
    for i in 0..64u32 {
        let l = i % 8;
        let class = [0x4924_9249u32, 0x9249_2492, 0x2492_4924][(l % 3) as usize] & 0xFF;
        let n = (0..8).filter(|j| j % 3 == l % 3).count() as u32;
        assert_eq!(out[6 * i as usize..][..6], [class, 0, 0, 0, n, 0xFF], "thread {i}");
    }
    // Lanes 0, 3, 6; 1, 4, 7; 2, 5.
    assert_eq!((out[0], out[6], out[12]), (0x49, 0x92, 0x24));
}

/// Shader model 6.8's Barrier(memory types, semantics) and Barrier(resource, semantics) with
/// GROUP_SYNC order the group's groupshared and UAV writes before the reads of other threads'
/// words: words 0..63 = gs[63 - i] = 126 - 2i, words 64 + i = w + v with w = word (i + 1) % 64.
#[test]
fn barrier_memory_type() {
    let out = run("barrier_memory_type.cs.dxil", 1, 128);
    let v = |i: u32| 126 - 2 * i;
    let want: Vec<u32> = (0..64).map(v).chain((0..64).map(|i| v((i + 1) % 64) + v(i))).collect();
    assert_eq!(out, want);
    assert_eq!((out[64], out[64 + 62], out[64 + 63]), (250, 2, 126));
}
