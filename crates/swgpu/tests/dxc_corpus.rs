//! DXC's shaders of `tests/fixtures/dxil/dxc` (copies from the project's corpus, see its
//! README): each dispatched through [`rd3d12_swgpu::compute::dispatch`] with the bindings its
//! HLSL header describes, its output compared word by word with values worked out by hand from
//! the HLSL (the header's formulas, evaluated here; its examples checked as spot values).
//! Outputs start as 0xDEAD words so that a missed store shows.

mod common;

use rd3d12_shader::dxil::{self, Program};
use rd3d12_shader::interp::alu::{f32_to_half, half_to_f32};
use rd3d12_shader::interp::{self, Env, ExecError, SampleMode, Val};
use rd3d12_swgpu::compute::dispatch;
use rd3d12_swgpu::draw::{Bindings, Class};
use rd3d12_swgpu::sample::{Dim, Lod, MemoryTexels, Sampler, SubresourceBytes, View};
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
    /// t0, a raw buffer of words (empty when the shader reads none).
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
        let at = byte(stride, index, offset);
        // Words at 4-byte multiples only: the 16-bit loads ask for the word holding a value.
        assert_eq!(at % 4, 0, "a load at byte {at}");
        let u0 = self.u0.lock().unwrap();
        let src: &[u32] = if class == Class::Srv { &self.t0 } else { &u0 };
        std::array::from_fn(|k| src.get(at / 4 + k).copied().unwrap_or(0))
    }
    fn buffer_store(&self, _b: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        let at = byte(stride, index, offset);
        assert_eq!(at % 4, 0, "a store at byte {at}");
        let at = at / 4;
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
        assert_eq!(c[0] % 4, 0, "an atomic at byte {}", c[0]);
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
    run_t0(file, groups, words, Vec::new())
}

/// [`run`] with t0.
fn run_t0(file: &str, groups: u32, words: usize, t0: Vec<u32>) -> Vec<u32> {
    let p = program(file);
    let b = Buffers { u0: Mutex::new(vec![0xDEAD; words]), t0 };
    dispatch(&p, &p.dx.entry_points[0], [groups, 1, 1], &b).unwrap_or_else(|e| panic!("{file}: {e:?}"));
    b.u0.into_inner().unwrap()
}

/// One thread of a one-group dispatch run straight on the interpreter (for waves wider than
/// the dispatch path's 8 lanes): thread `id` of a 1-D group, u0 a raw buffer of words.
struct Thread<'a> {
    id: u32,
    u0: &'a Mutex<Vec<u32>>,
}

impl Env for Thread<'_> {
    fn load_input(&mut self, _: u32, _: u32, _: u8, _: Option<u32>) -> Result<Val, ExecError> {
        Err(ExecError::Unsupported("inputs".into()))
    }
    fn store_output(&mut self, _: u32, _: u32, _: u8, _: &Val) -> Result<(), ExecError> {
        Err(ExecError::Unsupported("outputs".into()))
    }
    fn create_handle(&mut self, _: u8, _: u32, _: u32) -> Result<u32, ExecError> {
        Ok(0)
    }
    fn cbuffer_row(&mut self, _: u32, _: u32) -> Result<[u32; 4], ExecError> {
        Err(ExecError::Unsupported("cbuffers".into()))
    }
    fn sample(
        &mut self,
        _: u32,
        _: u32,
        _: [f32; 4],
        _: [i32; 3],
        _: SampleMode,
        _: Option<f32>,
    ) -> Result<[f32; 4], ExecError> {
        Err(ExecError::Unsupported("samples".into()))
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        Err(ExecError::Unsupported("discard".into()))
    }
    fn buffer_store(&mut self, _: u32, index: u32, _: u32, value: [u32; 4], mask: u8) -> Result<(), ExecError> {
        let mut u0 = self.u0.lock().unwrap();
        for (k, v) in value.iter().enumerate() {
            if mask & (1 << k) != 0 {
                u0[index as usize / 4 + k] = *v;
            }
        }
        Ok(())
    }
    fn system_value(&mut self, opcode: u32, component: u32) -> Result<u32, ExecError> {
        // ThreadId, ThreadIdInGroup and FlattenedThreadIdInGroup of one 1-D group.
        match (opcode, component) {
            (93 | 95 | 96, 0) => Ok(self.id),
            (93 | 95, _) => Ok(0),
            _ => Err(ExecError::Unsupported(format!("system value {opcode}"))),
        }
    }
}

/// Runs `threads` threads of `file` as one group of waves of `width` lanes on the
/// interpreter, u0 of `words` 0xDEAD words; returns u0.
fn run_waves_of(file: &str, threads: u32, width: usize, words: usize) -> Vec<u32> {
    let p = program(file);
    let f = p.module.functions.iter().find(|f| !f.declaration).unwrap();
    let u0 = Mutex::new(vec![0xDEAD; words]);
    let mut threads: Vec<Thread<'_>> = (0..threads).map(|id| Thread { id, u0: &u0 }).collect();
    let mut envs: Vec<&mut dyn Env> = threads.iter_mut().map(|t| t as &mut dyn Env).collect();
    interp::run_group_waves(&p.module, f, &mut envs, width).unwrap_or_else(|e| panic!("{file}: {e}"));
    drop(envs);
    drop(threads);
    u0.into_inner().unwrap()
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

/// WaveMultiPrefix* over the partitions WaveMatch(L & 1) makes (even lanes, odd lanes), in
/// the dispatch path's waves of W = 8 lanes (L = i % 8) and in waves of 64 (L = i): lane L's
/// partition below it is the k = L / 2 lanes L - 2, L - 4, ..., L & 1.
#[test]
fn wave_multiprefix() {
    let file = "wave_multiprefix.cs.dxil";
    for (w, out) in [(8, run(file, 1, 64 * 6)), (64, run_waves_of(file, 64, 64, 64 * 6))] {
        for i in 0..64u32 {
            let l = i % w;
            let below: Vec<u32> = (0..l).filter(|j| j % 2 == l % 2).collect();
            let k = below.len() as u32;
            assert_eq!(k, l / 2);
            let want = [
                // sum of j: k (L & 1) + k (k - 1)
                k * (l & 1) + k * k.saturating_sub(1),
                2u32.wrapping_pow(k),
                below.iter().filter(|j| *j % 3 == 0).count() as u32,
                below.iter().fold(u32::MAX, |a, j| a & (0xFF ^ (1 << (j & 7)))),
                below.iter().fold(0, |a, j| a | 1 << (j & 31)),
                below.iter().fold(0, |a, j| a ^ j),
            ];
            assert_eq!(out[6 * i as usize..][..6], want, "W = {w}, thread {i}");
        }
        // The header's example: L = 5 sums lanes 1 and 3.
        assert_eq!(out[6 * 5], 4);
    }
}

/// WaveMatch(L % 3) and WaveMatch(float(L / 8)) (the fixture is `wave/`'s): in waves of 64,
/// the header's masks (word 0 by class 0x49249249 / 0x92492492 / 0x24924924, word 1
/// 0x92492492 / 0x24924924 / 0x49249249), ceil((64 - L % 3) / 3) lanes in L's class, and m2[L /
/// 32] = 0xFF << (8 ((L / 8) % 4)); in the dispatch path's waves of 8, word 0's low byte alone
/// and the float key the same in all 8 lanes.
#[test]
fn wave_match() {
    let file = "../wave/wave_match.cs.dxil";
    let out = run_waves_of(file, 64, 64, 64 * 6);
    for l in 0..64u32 {
        let c = (l % 3) as usize;
        let m = [[0x4924_9249u32, 0x9249_2492, 0x2492_4924][c], [0x9249_2492, 0x2492_4924, 0x4924_9249][c], 0, 0];
        let n = (64 - l % 3).div_ceil(3);
        let m2 = 0xFFu32 << (8 * ((l / 8) % 4));
        assert_eq!(out[6 * l as usize..][..6], [m[0], m[1], 0, 0, n, m2], "lane {l}");
    }
    let out = run(file, 1, 64 * 6);
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

/// QuadAny(L % 5 == 0) and QuadAll(L < 40) over quads of 4 consecutive lanes: in waves of 64
/// (the header's values) QuadAny is 0 exactly for the quads q = L / 4 with q % 5 == 4 (lanes
/// 16..19, 36..39, 56..59) and QuadAll is L < 40; in the dispatch path's waves of 8 (L = i % 8,
/// quads 0..3 and 4..7 hold lanes 0 and 5) both are 1 everywhere.
#[test]
fn quad_any_all() {
    let out = run_waves_of("quad_any_all.cs.dxil", 64, 64, 128);
    for l in 0..64u32 {
        let want = [u32::from((l / 4) % 5 != 4), u32::from(l < 40)];
        assert_eq!(out[2 * l as usize..][..2], want, "lane {l}");
    }
    assert_eq!(out[2 * 16], 0);
    assert_eq!(run("quad_any_all.cs.dxil", 1, 128), vec![1; 128]);
}

/// IsHelperLane in a pixel shader, drawn with Mesa's `quad.vs.dxil` (position, color): a
/// triangle inside pixel (0, 0) of an 8x8 R32_UINT target covers that pixel's centre alone, so
/// its quad runs one real lane and three helpers. The real lane writes 1 to the target and
/// counts its three helper neighbours into Quad word 0; the helpers' target writes and their
/// Quad word 1 store are discarded.
#[test]
fn is_helper_lane() {
    use rd3d12_swgpu::draw::{draw, Bytes, Target, Workers};
    use rd3d12_sys as sys;
    struct Nothing;
    impl Bindings for Nothing {}
    let vs = common::quad::vs();
    let ps = program("is_helper_lane.ps.dxil");
    let p = common::quad::pipeline(&vs, 1);
    // Pixel coordinates (0.2, 0.2), (0.9, 0.2), (0.2, 0.9): x + y <= 1.1 holds (0.5, 0.5) only.
    let clip = |x: f32, y: f32| [x / 4.0 - 1.0, 1.0 - y / 4.0];
    let vb = common::quad::vertices(&[clip(0.2, 0.2), clip(0.9, 0.2), clip(0.2, 0.9)]);
    let call = common::quad::call(&vs, &ps, &p, &vb, 8.0, Workers::serial());
    let rt = Bytes::new(&[0xEE; 8 * 8 * 4]);
    let mut targets = [Some(Target {
        data: &rt,
        row_pitch: 32,
        width: 8,
        height: 8,
        format: sys::DXGI_FORMAT_R32_UINT,
        sample_stride: 0,
        layers: 1,
        layer_stride: 0,
    })];
    let quad = Buffers { u0: Mutex::new(vec![0xDEAD; 4]), t0: Vec::new() };
    draw(&call, &Nothing, &Nothing, &quad, &mut targets, None, &mut []).expect("draws");
    let px: Vec<u32> = rt.to_vec().chunks(4).map(|b| u32::from_le_bytes(b.try_into().unwrap())).collect();
    let mut want = vec![0xEEEE_EEEE; 64];
    want[0] = 1;
    assert_eq!(px, want);
    assert_eq!(quad.u0.into_inner().unwrap(), [3, 0xDEAD, 0xDEAD, 0xDEAD]);
}

/// Two 16-bit values as the word holding them, `lo` at the lower address.
fn halves(lo: u32, hi: u32) -> u32 {
    (lo & 0xFFFF) | (hi & 0xFFFF) << 16
}

/// 16-bit ByteAddressBuffer loads and stores at 2-byte granularity. In as 16-bit values H[k] =
/// 0x3C00 + k (k < 16, half 1 + k/1024) and H[16 + k] = 0xFFF0 + k; thread i's 8 words at 32 i:
/// Store<half4>(x * (1, 2, -1, 0.5)) with x = H[i] (exact: 0x3C00 + i, 0x4000 + i, 0xBC00 + i,
/// 0x3800 + i), H[2 (i & 7) + 1], the sign-extended H[16 + i] = i - 16, two 2-byte stores
/// (i * 4097, H[i] ^ 0xFFFF) into word 4, and words 5..7 untouched.
#[test]
fn bab_16bit_loadstore() {
    let h = |k: u32| if k < 16 { 0x3C00 + k } else { 0xFFF0 + k - 16 };
    let t0: Vec<u32> = (0..16).map(|w| halves(h(2 * w), h(2 * w + 1))).collect();
    let out = run_t0("bab_16bit_loadstore.cs.dxil", 1, 16 * 8, t0);
    for i in 0..16u32 {
        let want = [
            halves(0x3C00 + i, 0x4000 + i),
            halves(0xBC00 + i, 0x3800 + i),
            0x3C00 + 2 * (i & 7) + 1,
            (i as i32 - 16) as u32,
            halves(i * 4097, h(i) ^ 0xFFFF),
            0xDEAD,
            0xDEAD,
            0xDEAD,
        ];
        assert_eq!(out[8 * i as usize..][..8], want, "thread {i}");
    }
    assert_eq!(out[4] >> 16, 0xC3FF);
}

/// f16 intrinsics stored as single halves (Store<half> at 2-byte steps, 20 bytes per thread):
/// h = i/4 - 4. abs, floor, min, max, saturate, frac, exp2 of an integer and dot = 3h + 1 are
/// exact in half precision; sqrt and rsqrt are within 1 ulp of the f64 values rounded to half.
#[test]
fn half_math() {
    let out = run("half_math.cs.dxil", 1, 64 * 5);
    let half = |k: usize| (out[k / 2] >> (16 * (k % 2))) & 0xFFFF;
    for i in 0..64u32 {
        let h = i as f32 * 0.25 - 4.0;
        let exact = [
            (2, h.abs()),
            (3, h.floor()),
            (4, h.min(1.5)),
            (5, h.max(-1.0)),
            (6, h.clamp(0.0, 1.0)),
            (7, h - h.floor()),
            (8, (1u32 << (i & 7)) as f32),
            (9, 3.0 * h + 1.0),
        ];
        for (k, v) in exact {
            let got = half(10 * i as usize + k);
            assert_eq!(got, u32::from(f32_to_half(v)), "thread {i}, half {k}: {}", half_to_f32(got as u16));
        }
        for (k, v) in [(0, f64::from(h.abs()).sqrt()), (1, 1.0 / f64::from(i + 1).sqrt())] {
            let got = half(10 * i as usize + k) as i32;
            let want = i32::from(f32_to_half(v as f32));
            assert!((got - want).abs() <= 1, "thread {i}, half {k}: {got:#x} vs {want:#x}");
        }
    }
    // The header's exact cases: i = 16 (h = 0) and i = 20 (h = 1).
    assert_eq!([half(160), half(163), half(166), half(167), half(169)], [0, 0, 0, 0, 0x3C00]);
    assert_eq!([half(200), half(208), half(209)], [0x3C00, 0x4C00, 0x4400]);
}

/// Shader model 6.6's pack/unpack on 16-bit types (6 words per thread): pack_u8 truncates,
/// pack_clamp_s8 clamps, unpack_u8u16 / unpack_s8s16 of 0x80FF7F01 + i give four 16-bit values
/// each, stored with Store<uint16_t4> / Store<int16_t4> as two words.
#[test]
fn pack_unpack_16bit() {
    let out = run("pack_unpack_16bit.cs.dxil", 1, 64 * 6);
    for i in 0..64i32 {
        let p = (0x80FF7F01u32).wrapping_add(i as u32);
        let b = |k: u32| (p >> (8 * k)) & 0xFF;
        let s = |k: u32| b(k) as u8 as i8 as i32 as u32;
        let want = [
            bytes([i, 0xFF, i, 7]),
            bytes([(3 * i - 100).clamp(-128, 127), 127, -128, -i]),
            halves(b(0), b(1)),
            halves(b(2), b(3)),
            halves(s(0), s(1)),
            halves(s(2), s(3)),
        ];
        assert_eq!(out[6 * i as usize..][..6], want, "thread {i}");
    }
    assert_eq!(out[2..6], [halves(1, 127), halves(255, 128), halves(1, 127), halves(0xFFFF, 0xFF80)]);
}

/// An R32_FLOAT texture of `size` x `size` with `mips` levels, every texel of mip m holding
/// `value(m)`, and a comparison sampler (MIN_MAG_MIP_POINT, CLAMP) with `func`.
struct DepthTexture {
    bytes: Vec<u8>,
    subs: Vec<SubresourceBytes>,
    size: u32,
    mips: u32,
    format: rd3d12_sys::DXGI_FORMAT,
    sampler: Sampler,
}

impl DepthTexture {
    fn new(size: u32, mips: u32, value: impl Fn(u32) -> f32, func: u32) -> DepthTexture {
        // D3D12_FILTER_COMPARISON_MIN_MAG_MIP_POINT.
        DepthTexture::with(size, mips, rd3d12_sys::DXGI_FORMAT_R32_FLOAT, |m, _, _| vec![value(m)], (0x80, 3), func)
    }

    /// An R32G32B32A32_FLOAT texture, mip m all `value(m)`, and a MIN_MAG_MIP_POINT CLAMP sampler.
    fn rgba(size: u32, mips: u32, value: impl Fn(u32) -> [f32; 4]) -> DepthTexture {
        DepthTexture::with(
            size,
            mips,
            rd3d12_sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
            |m, _, _| value(m).to_vec(),
            (0, 3),
            0,
        )
    }

    /// A `size` x `size` texture of `mips` levels, texel (x, y) of mip m `value(m, x, y)` (one
    /// f32 per channel of `format`), and a sampler of (D3D12_FILTER, address mode) with
    /// comparison `func`.
    fn with(
        size: u32,
        mips: u32,
        format: rd3d12_sys::DXGI_FORMAT,
        value: impl Fn(u32, u32, u32) -> Vec<f32>,
        (filter, address): (u32, u32),
        func: u32,
    ) -> DepthTexture {
        let (mut bytes, mut subs) = (Vec::new(), Vec::new());
        for m in 0..mips {
            let w = (size >> m).max(1);
            let n = 4 * value(m, 0, 0).len();
            subs.push(SubresourceBytes {
                offset: bytes.len(),
                row_pitch: n * w as usize,
                depth_pitch: n * (w * w) as usize,
            });
            for (x, y) in (0..w).flat_map(|y| (0..w).map(move |x| (x, y))) {
                bytes.extend(value(m, x, y).iter().flat_map(|c| c.to_le_bytes()));
            }
        }
        let sampler = Sampler::from_desc(&rd3d12_core::descriptor::SamplerDesc {
            filter,
            address: [address; 3],
            mip_lod_bias: 0.0,
            max_anisotropy: 1,
            comparison_func: func,
            border: [0; 4],
            min_lod: 0.0,
            max_lod: f32::MAX,
            flags: 0,
        });
        DepthTexture { bytes, subs, size, mips, format, sampler }
    }

    fn texels(&self) -> MemoryTexels<'_> {
        MemoryTexels {
            bytes: &self.bytes[..],
            format: self.format,
            size: (self.size, self.size, 1),
            mips: self.mips,
            array_size: 1,
            subresources: &self.subs,
        }
    }

    fn sample(&self, coords: [f32; 4], offset: [i32; 3], mode: SampleMode, compare: Option<f32>) -> [f32; 4] {
        let t = self.texels();
        let view = View::whole(Dim::Tex2D, &t);
        let lod = match mode {
            SampleMode::Grad { ddx, ddy, bias, clamp } => Lod::Derivatives { ddx, ddy, bias, clamp },
            SampleMode::Level(l) => Lod::Level(l),
        };
        rd3d12_swgpu::sample::sample(&t, &view, &self.sampler, coords, offset, lod, compare)
    }
}

/// u0 of [`Buffers`] and t0/s0 a [`DepthTexture`].
struct Sampled {
    out: Buffers,
    depth: DepthTexture,
}

impl Bindings for Sampled {
    fn load(&self, texture: (u32, u32), mip: u32, coords: [i32; 3]) -> [u32; 4] {
        assert_eq!(texture, (0, 0));
        let t = self.depth.texels();
        let view = View::whole(Dim::Tex2D, &t);
        rd3d12_swgpu::sample::load(&t, &view, coords, mip, [0; 3])
    }
    fn gather(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 4],
        offset: [i32; 2],
        channel: u32,
        compare: Option<f32>,
    ) -> [f32; 4] {
        assert_eq!((texture, sampler), ((0, 0), (0, 0)));
        let t = self.depth.texels();
        let view = View::whole(Dim::Tex2D, &t);
        let offset = [offset[0], offset[1], 0];
        rd3d12_swgpu::sample::gather(&t, &view, &self.depth.sampler, coords, offset, channel as usize, compare)
    }
    fn buffer_store(&self, b: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        self.out.buffer_store(b, stride, index, offset, value, mask)
    }
    fn sample(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 4],
        offset: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> [f32; 4] {
        assert_eq!((texture, sampler), ((0, 0), (0, 0)));
        self.depth.sample(coords, offset, mode, compare)
    }
    fn calculate_lod(
        &self,
        _texture: (u32, u32),
        _sampler: (u32, u32),
        coords: [f32; 3],
        ddx: [f32; 3],
        ddy: [f32; 3],
        clamped: bool,
    ) -> f32 {
        let t = self.depth.texels();
        let view = View::whole(Dim::Tex2D, &t);
        let c = [coords[0], coords[1], coords[2], 0.0];
        let (lod, unclamped) = rd3d12_swgpu::sample::calculate_lod(&t, &view, &self.depth.sampler, c, ddx, ddy);
        if clamped {
            lod
        } else {
            unclamped
        }
    }
}

/// SampleCmpLevel (shader model 6.7) on an 8x8 depth texture of 3 mips, mip m all 0.25 (m + 1),
/// LESS (passes when ref < texel) with ref = 0.4: levels 0, 1, 2 give 0, 1, 1 and level 0 with
/// an offset 0 again, for each of the 4x4 threads (a structured float4 each).
#[test]
fn samplecmplevel() {
    let p = program("samplecmplevel.cs.dxil");
    // D3D12_COMPARISON_FUNC_LESS.
    let depth = DepthTexture::new(8, 3, |m| 0.25 * (m + 1) as f32, 2);
    let b = Sampled { out: Buffers { u0: Mutex::new(vec![0xDEAD; 64]), t0: Vec::new() }, depth };
    dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).unwrap();
    let one = 1f32.to_bits();
    assert_eq!(b.out.u0.into_inner().unwrap(), [0, one, one, 0].repeat(16));
}

/// One pixel of a pixel shader run on the interpreter: its inputs (SV_Position, TEXCOORD0)
/// and SV_Target0, sampling a [`DepthTexture`].
struct Pixel<'a> {
    pos: [f32; 2],
    uv: [f32; 2],
    target: [f32; 4],
    depth: &'a DepthTexture,
}

impl Env for Pixel<'_> {
    fn load_input(&mut self, sig: u32, _: u32, col: u8, _: Option<u32>) -> Result<Val, ExecError> {
        Ok(Val::F32(match (sig, col) {
            (0, 0 | 1) => self.pos[col as usize],
            (1, 0 | 1) => self.uv[col as usize],
            _ => 0.0,
        }))
    }
    fn store_output(&mut self, sig: u32, _: u32, col: u8, value: &Val) -> Result<(), ExecError> {
        match (sig, value) {
            (0, Val::F32(x)) => self.target[col as usize & 3] = *x,
            _ => return Err(ExecError::Unsupported(format!("output {sig} {value:?}"))),
        }
        Ok(())
    }
    fn create_handle(&mut self, _: u8, _: u32, _: u32) -> Result<u32, ExecError> {
        Ok(0)
    }
    fn cbuffer_row(&mut self, _: u32, _: u32) -> Result<[u32; 4], ExecError> {
        Err(ExecError::Unsupported("cbuffers".into()))
    }
    fn sample(
        &mut self,
        _: u32,
        _: u32,
        coords: [f32; 4],
        offset: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> Result<[f32; 4], ExecError> {
        Ok(self.depth.sample(coords, offset, mode, compare))
    }
    fn discard(&mut self) -> Result<(), ExecError> {
        Err(ExecError::Unsupported("discard".into()))
    }
}

/// SampleCmpBias and SampleCmpGrad (shader model 6.8) in a pixel shader over an 8x8 target
/// whose uv steps 1/8 per pixel across a 32x32 depth texture of 6 mips (mip m all 0.1 m),
/// GREATER with ref 0.25: the implicit LOD is 2 (0.25 > 0.2: 1), bias 1 makes it 3 (0.25 > 0.3:
/// 0), gradients of 1/32 select mip 0 (1) and of 8/32 mip 3 (0). Run as quads of the 8x8
/// pixels on the interpreter, uv at each pixel's centre.
#[test]
fn samplecmp_bias_grad() {
    let p = program("samplecmp_bias_grad.ps.dxil");
    let f = p.module.functions.iter().find(|f| !f.declaration).unwrap();
    // D3D12_COMPARISON_FUNC_GREATER.
    let depth = DepthTexture::new(32, 6, |m| 0.1 * m as f32, 5);
    let mut pixels = Vec::new();
    // Quads in order, each (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1).
    for (qx, qy) in (0..4).flat_map(|y| (0..4).map(move |x| (2 * x, 2 * y))) {
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let (x, y) = ((qx + dx) as f32 + 0.5, (qy + dy) as f32 + 0.5);
            pixels.push(Pixel { pos: [x, y], uv: [x / 8.0, y / 8.0], target: [f32::NAN; 4], depth: &depth });
        }
    }
    let mut envs: Vec<&mut dyn Env> = pixels.iter_mut().map(|p| p as &mut dyn Env).collect();
    interp::run_quads(&p.module, f, &mut envs).unwrap();
    drop(envs);
    for px in &pixels {
        assert_eq!(px.target, [1.0, 0.0, 1.0, 0.0], "pixel {:?}", px.pos);
    }
}

/// SV_StartVertexLocation and SV_StartInstanceLocation (shader model 6.8) in a vertex shader:
/// each invocation (vertex ID v, instance n) logs (start_vertex << 16) | (start_instance << 8)
/// | (v << 4) | n at word (v - start_vertex) + 3 n. The HLSL header expects SV_VertexID to
/// include StartVertexLocation (v in 5..=7 for a start of 5); rd3d12's SV_VertexID counts from
/// 0 (HLSL's shader model 6.8 proposal: "SV_VertexID doesn't include the StartVertexLocation"),
/// so DrawInstanced(3, 2, 5, 7) lands one log word in the buffer (v = 2, n = 1: word 0) and
/// the others past its end, while DrawInstanced(3, 2, 0, 7) lands all six.
#[test]
fn vs_start_location() {
    use rd3d12_core::pipeline::{PipelineDesc, PipelineKind};
    use rd3d12_swgpu::draw::{draw, DrawCall, Shader, Workers};
    use rd3d12_swgpu::input_assembler::Topology;
    use rd3d12_swgpu::raster::Viewport;
    struct Nothing;
    impl Bindings for Nothing {}
    let vs = program("vs_start_location.vs.dxil");
    let mut p = PipelineDesc::new(PipelineKind::Graphics);
    p.rasterizer.cull = 1;
    p.depth_stencil.depth_enable = false;
    let run = |start_vertex: u32| {
        let call = DrawCall {
            vs: Shader { module: &vs.module, entry: &vs.dx.entry_points[0], resources: &vs.dx.resources },
            tess: None,
            gs: None,
            ps: None,
            pipeline: &p,
            topology: Topology::TriangleList,
            vertices: (start_vertex..start_vertex + 3).collect(),
            cut: None,
            vertex_id_base: start_vertex,
            instances: 2,
            start_instance: 7,
            vertex_buffers: Vec::new(),
            viewports: vec![Viewport { x: 0.0, y: 0.0, width: 8.0, height: 8.0, min_depth: 0.0, max_depth: 1.0 }],
            scissors: Vec::new(),
            blend_factor: [0.0; 4],
            stencil_ref: 0,
            sample_positions: None,
            workers: Workers::serial(),
        };
        let log = Buffers { u0: Mutex::new(vec![0xDEAD; 16]), t0: Vec::new() };
        draw(&call, &log, &Nothing, &Nothing, &mut [], None, &mut []).expect("draws");
        log.u0.into_inner().unwrap()
    };
    let mut want = vec![0xDEAD; 16];
    want[0] = (5 << 16) | (7 << 8) | (2 << 4) | 1;
    assert_eq!(run(5), want);
    for n in 0..2u32 {
        for v in 0..3u32 {
            want[(v + 3 * n) as usize] = (7 << 8) | (v << 4) | n;
        }
    }
    assert_eq!(run(0), want);
}

/// A double from its (lo, hi) words.
fn double(w: &[u32]) -> f64 {
    f64::from_bits(u64::from(w[0]) | u64::from(w[1]) << 32)
}

/// fp64 add, sub, mul, fma, min and max of a = 0.1 i and b = i - 31.5 exactly as IEEE double
/// arithmetic gives them (min and max at double precision: 0.1 stays 0x3FB999999999999A), and
/// b / 3 within 1 ulp (DXC's fast math makes it b * 0x3FD5555555555555, which is what runs).
#[test]
fn double_arith() {
    let out = run("double_arith.cs.dxil", 1, 64 * 14);
    for i in 0..64 {
        let (a, b) = (f64::from(i) * 0.1, f64::from(i) - 31.5);
        let got: Vec<f64> = (0..7).map(|k| double(&out[14 * i as usize + 2 * k..])).collect();
        let exact = [a + b, a - b, a * b, f64::NAN, a.mul_add(b, 1.0), a.min(b), a.max(b)];
        for k in [0, 1, 2, 4, 5, 6] {
            // -0.0 (i = 0: 0 * -31.5) and +0.0 compare equal; fast math leaves the sign open.
            assert_eq!(got[k], exact[k], "thread {i}, d[{k}]");
        }
        let q = b / 3.0;
        assert!((got[3] - q).abs() <= f64::EPSILON * q.abs(), "thread {i}: {} vs {q}", got[3]);
        assert_eq!(got[3], b * f64::from_bits(0x3FD5_5555_5555_5555), "thread {i}");
    }
    // The header's examples: i = 1 gives a + b = 0xC03E666666666666 and max = 0.1.
    assert_eq!(out[14..16], [0x6666_6666, 0xC03E_6666]);
    assert_eq!(out[14 + 12..14 + 14], [0x9999_999A, 0x3FB9_9999]);
}

/// fp64 conversions: d = 1 + n/16 (n = i & 15) from MakeDouble, to float, to int (d * -10),
/// to uint (d * 2.2e9, above INT_MAX), from int (i - 40) and uint (0xFFFFFFF0 + i, wrapping),
/// and a compare.
#[test]
fn double_convert() {
    let out = run("double_convert.cs.dxil", 1, 64 * 8);
    for i in 0..64u32 {
        let d = 1.0 + f64::from(i & 15) / 16.0;
        let sd = f64::from(i as i32 - 40).to_bits();
        let ud = f64::from(0xFFFF_FFF0u32.wrapping_add(i)).to_bits();
        let want = [
            (d as f32).to_bits(),
            (d * -10.0) as i32 as u32,
            (d * 2.2e9) as u32,
            sd as u32,
            (sd >> 32) as u32,
            ud as u32,
            (ud >> 32) as u32,
            u32::from(d > 1.5),
        ];
        assert_eq!(out[8 * i as usize..][..8], want, "thread {i}");
    }
    assert_eq!(out[2], 2_200_000_000);
    assert_eq!(out[8 * 15 + 2], 4_262_500_000);
}

/// uint64_t / int64_t arithmetic on x = i * 0x100000001 + 0xFFFFFFFF (carries between the
/// words): add, sub, mul, udiv, urem, shl (amount & 63), ashr of s = i - 32, a compare.
#[test]
fn int64_arith() {
    let out = run("int64_arith.cs.dxil", 1, 64 * 16);
    for i in 0..64u64 {
        let x = i.wrapping_mul(0x1_0000_0001).wrapping_add(0xFFFF_FFFF);
        let s = i as i64 - 32;
        let want = [
            x.wrapping_add(0x8000_0001),
            x.wrapping_sub(0x1_0000_0000),
            x.wrapping_mul(0x10001),
            x / (i + 7),
            x % (i + 7),
            x << (i & 63),
            (s >> 1) as u64,
            u64::from(x > 0x20_0000_0000),
        ];
        let got: Vec<u64> = (0..8)
            .map(|k| u64::from(out[16 * i as usize + 2 * k]) | u64::from(out[16 * i as usize + 2 * k + 1]) << 32)
            .collect();
        assert_eq!(got, want, "thread {i}");
    }
    assert_eq!(out[..2], [0x8000_0000, 1]);
}

/// int64 conversions: zext and sext to 64 bits, truncation of a 64-bit product, i64 -> f64,
/// f64 -> i64, u64 -> f32 (rounded to nearest) and a signed 64-bit min.
#[test]
fn int64_convert() {
    let out = run("int64_convert.cs.dxil", 1, 64 * 12);
    let lo_hi = |v: u64| [v as u32, (v >> 32) as u32];
    for i in 0..64i64 {
        let (s, u) = (i - 32, 0xFFFF_FFC0u32.wrapping_add(i as u32));
        let mut want = Vec::new();
        want.extend(lo_hi(u64::from(u)));
        want.extend(lo_hi(s as u64));
        want.push(s.wrapping_mul(0x1_0000_0003) as u32);
        want.extend(lo_hi(((s << 40) as f64).to_bits()));
        want.extend(lo_hi(((s as f64) * 1e12) as i64 as u64));
        want.push(((u64::from(u) << 20) as f32).to_bits());
        want.extend(lo_hi(s.min(-5) as u64));
        assert_eq!(out[12 * i as usize..][..12], want[..], "thread {i}");
    }
    assert_eq!(out[9], 0x5980_0000);
    assert_eq!(out[12 + 7..12 + 9], [0x4003_1000, 0xFFFF_E3CE]);
}

/// u0 and t0 structured buffers of 12-byte elements, and b0 one constant-buffer row.
struct Structured {
    u0: Mutex<Vec<u32>>,
    t0: Vec<u32>,
    b0: [u32; 4],
}

impl Bindings for Structured {
    fn cbuffer_row(&self, _space: u32, _register: u32, row: u32) -> [u32; 4] {
        if row == 0 {
            self.b0
        } else {
            [0; 4]
        }
    }
    fn buffer_load(&self, class: Class, _b: (u32, u32), stride: u32, index: u32, offset: u32) -> [u32; 4] {
        assert_eq!((stride, offset % 4), (12, 0));
        let at = (index * stride + offset) as usize / 4;
        let u0 = self.u0.lock().unwrap();
        let src: &[u32] = if class == Class::Srv { &self.t0 } else { &u0 };
        std::array::from_fn(|k| src.get(at + k).copied().unwrap_or(0))
    }
    fn buffer_store(&self, _b: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        assert_eq!((stride, offset % 4), (12, 0));
        let at = (index * stride + offset) as usize / 4;
        let mut u0 = self.u0.lock().unwrap();
        for (k, v) in value.iter().enumerate() {
            if mask & (1 << k) != 0 {
                u0[at + k] = *v;
            }
        }
    }
    fn atomic(&self, _b: (u32, u32), op: u32, c: [i32; 3], value: u32) -> u32 {
        // A structured UAV's atomics address (element, byte offset).
        assert_eq!(c[1] % 4, 0);
        let mut u0 = self.u0.lock().unwrap();
        let cell = &mut u0[(c[0] * 12 + c[1]) as usize / 4];
        let old = *cell;
        *cell = match op {
            1 => old & value,
            2 => old | value,
            _ => panic!("atomic op {op}"),
        };
        old
    }
}

/// Structured buffers of { half2 uv; uint16_t id; int16_t delta; float w; } (stride 12) and a
/// cbuffer of 16-bit members { half scale = 2; uint16_t mask = 0xFF; half2 offs = (0.5, -0.5) }:
/// In[k] = ((k/8, -k/8), 1000 + k, -k, 2k) gives Out[i] = ((i/4 + 0.5, -i/4 - 0.5),
/// (1000 + i) & 0xFF, -3i, 2i + 2); id and delta share a word, each stored alone.
#[test]
fn structured_16bit() {
    let h = |x: f32| u32::from(f32_to_half(x));
    let t0: Vec<u32> = (0..32)
        .flat_map(|k| {
            let k16 = k as f32 / 8.0;
            [halves(h(k16), h(-k16)), halves(1000 + k, (-(k as i32)) as u32), (2.0 * k as f32).to_bits()]
        })
        .collect();
    let p = program("structured_16bit.cs.dxil");
    let b = Structured {
        u0: Mutex::new(vec![0xDEAD; 32 * 3]),
        t0,
        b0: [halves(h(2.0), 0xFF), halves(h(0.5), h(-0.5)), 0, 0],
    };
    dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).unwrap();
    let out = b.u0.into_inner().unwrap();
    for i in 0..32u32 {
        let q = i as f32 / 4.0;
        let want = [halves(h(q + 0.5), h(-q - 0.5)), halves((1000 + i) & 0xFF, (-3 * i as i32) as u32)];
        assert_eq!(out[3 * i as usize..][..2], want, "Out[{i}]");
        assert_eq!(f32::from_bits(out[3 * i as usize + 2]), (2 * i + 2) as f32, "Out[{i}].w");
    }
    assert_eq!(out[3 * 23 + 1] & 0xFFFF, 0xE8 + 23);
}

/// firstbithigh / firstbitlow of x = (1 << i) | (1 << (i >> 1)) (i < 32) or i - 32, and
/// firstbithigh of s = i - 32 (signed: the highest bit differing from the sign bit); -1 when
/// none.
#[test]
fn bits_firstbit() {
    let out = run("bits_firstbit.cs.dxil", 1, 192);
    let none = u32::MAX;
    for i in 0..64u32 {
        let x = if i < 32 { (1 << i) | (1 << (i >> 1)) } else { i - 32 };
        let s = i as i32 - 32;
        let hi = if x == 0 { none } else { 31 - x.leading_zeros() };
        let lo = if x == 0 { none } else { x.trailing_zeros() };
        let shi = match s {
            0 | -1 => none,
            s if s < 0 => 31 - (!s as u32).leading_zeros(),
            s => 31 - (s as u32).leading_zeros(),
        };
        assert_eq!(out[3 * i as usize..][..3], [hi, lo, shi], "thread {i}");
    }
    // The header's examples.
    assert_eq!((out[3 * 40], out[3 * 5 + 1], out[3 * 32]), (3, 2, none));
    assert_eq!((out[2], out[3 * 30 + 2], out[3 * 63 + 2]), (4, 0, 4));
}

/// min, max, clamp and saturate of x = i/4 - 4 (NaN for i = 5, which min and max ignore and
/// saturate makes 0).
#[test]
fn minmax_float() {
    let out = run("minmax_float.cs.dxil", 1, 256);
    for i in 0..64u32 {
        let want: [f32; 4] = if i == 5 {
            [1.5, -1.0, -2.0, 0.0]
        } else {
            let x = i as f32 * 0.25 - 4.0;
            [x.min(1.5), x.max(-1.0), x.clamp(-2.0, 2.0), x.clamp(0.0, 1.0)]
        };
        assert_eq!(out[4 * i as usize..][..4], want.map(f32::to_bits), "thread {i}");
    }
}

/// isnan, isinf, isfinite, the precise self-compares, ordered compares and isnormal of +0, -0,
/// 1, the smallest denormal, +inf, -inf, a quiet and a signalling NaN (the denormal compares
/// unequal to 0: it is not flushed here, which the header allows).
#[test]
fn float_classify() {
    let out = run("float_classify.cs.dxil", 1, 72);
    let want: [[u32; 9]; 8] = [
        [0, 0, 1, 1, 0, 1, 0, 1, 0],
        [0, 0, 1, 1, 0, 1, 0, 1, 0],
        [0, 0, 1, 1, 0, 0, 1, 0, 1],
        [0, 0, 1, 1, 0, 1, 0, 0, 0],
        [0, 1, 0, 1, 0, 0, 1, 0, 0],
        [0, 1, 0, 1, 0, 1, 0, 0, 0],
        [1, 0, 0, 0, 1, 0, 0, 0, 0],
        [1, 0, 0, 0, 1, 0, 0, 0, 0],
    ];
    assert_eq!(out, want.concat());
}

/// float <-> int conversions: int(f) and uint(|f|) of f = 1.75 (i - 32) truncate, float(s) and
/// float(u) of u = 0xFFFFFF40 + 2i round to nearest even (a tie at i = 32), signed and unsigned
/// compares.
#[test]
fn float_int_convert() {
    let out = run("float_int_convert.cs.dxil", 1, 384);
    for i in 0..64u32 {
        let s = i as i32 - 32;
        let u = 0xFFFF_FF40u32.wrapping_add(2 * i);
        let f = s as f32 * 1.75;
        let want = [
            f as i32 as u32,
            f.abs() as u32,
            (s as f32).to_bits(),
            (u as f32).to_bits(),
            u32::from(s < 5),
            u32::from(u < 0xFFFF_FF80),
        ];
        assert_eq!(out[6 * i as usize..][..6], want, "thread {i}");
        assert_eq!(want[3], if i < 32 { 0x4F7F_FFFF } else { 0x4F80_0000 });
    }
}

/// A value rounded to half precision (as f32).
fn half(x: f32) -> f32 {
    half_to_f32(f32_to_half(x))
}

/// Native fp16 add, mul, div and mad, each rounded to half: h = i/8 - 2 and g = i + 1000
/// (g + 0.25 is a tie below 1024 or rounds to 1 above: 1000 + i, not 1000.25 + i).
#[test]
fn half_arith() {
    let out = run("half_arith.cs.dxil", 1, 320);
    for i in 0..64u32 {
        let h = half(half(i as f32 * 0.125) - 2.0);
        let g = half(i as f32 + 1000.0);
        let want = [half(h + 0.5), half(h * h), half(g + 0.25), half(1.0 / (i + 3) as f32), half(half(h * 2.0) + 0.5)];
        assert_eq!(out[5 * i as usize..][..5], want.map(f32::to_bits), "thread {i}");
        assert_eq!(f32::from_bits(out[5 * i as usize + 2]), (1000 + i) as f32);
    }
    assert_eq!(out[3], half_to_f32(0x3555).to_bits());
}

/// int16_t / uint16_t arithmetic wrapping at 16 bits: u = 1111 i, u + 60000, s * 1000
/// sign-extended, 1 << (i & 15), s >> 2 (arithmetic), u / 7.
#[test]
fn int16_arith() {
    let out = run("int16_arith.cs.dxil", 1, 384);
    for i in 0..64u32 {
        let u = (i * 1111) as u16;
        let s = i as i16 - 32;
        let want = [
            u32::from(u),
            u32::from(u.wrapping_add(60000)),
            i32::from(s.wrapping_mul(1000)) as u32,
            u32::from(1u16 << (i & 15)),
            i32::from(s >> 2) as u32,
            u32::from(u / 7),
        ];
        assert_eq!(out[6 * i as usize..][..6], want, "thread {i}");
    }
    assert_eq!((out[6 * 59], out[6 * 63 + 5]), (13, 636));
}

/// Conversions among half, float, int16_t, uint16_t and double: f = 1.001 i - 31 to half
/// (bits and back), to int16 (truncation), half(i) * 100 to uint16, int16 to float, double
/// i / 3 to half.
#[test]
fn convert_16bit() {
    let out = run("convert_16bit.cs.dxil", 1, 384);
    for i in 0..64u32 {
        let f = i as f32 * 1.001 - 31.0;
        let want = [
            u32::from(f32_to_half(f)),
            half(f).to_bits(),
            f as i16 as i32 as u32,
            half(half(i as f32) * 100.0) as u16 as u32,
            f32::from((i as i32 * 1000 - 32000) as i16).to_bits(),
            half((f64::from(i) / 3.0) as f32).to_bits(),
        ];
        assert_eq!(out[6 * i as usize..][..6], want, "thread {i}");
    }
    assert_eq!((out[2] as i32, out[6 * 63 + 3]), (-31, 6300));
}

/// Shader model 6.6's 64-bit atomics on groupshared memory (LLVM atomicrmw / cmpxchg of i64),
/// copied out with 64-bit RawBufferStores (two words each, low first): v = ((i + 1) << 32) |
/// 0xFFFFFFFF summed, min, max, OR of 1 << i, one CompareExchange winner, a signed min.
#[test]
fn atomic64_groupshared() {
    let out = run("atomic64_groupshared.cs.dxil", 1, 16);
    let q = |k: usize| u64::from(out[2 * k]) | u64::from(out[2 * k + 1]) << 32;
    let v = |i: u64| (i + 1) << 32 | 0xFFFF_FFFF;
    assert_eq!(q(0), (0..64).map(v).fold(0u64, u64::wrapping_add));
    assert_eq!(q(0), 0x0000_085F_FFFF_FFC0);
    assert_eq!([q(1), q(2), q(3)], [v(0), v(63), u64::MAX]);
    assert!((0..64).map(v).any(|x| x == q(4)), "g4 = {:#x}", q(4));
    assert_eq!([q(5), q(6), q(7)], [1, (-40i64) as u64, 1]);
}

/// 64-bit atomics on a resource are refused by name: the environment's atomics are 32-bit.
#[test]
fn atomic64_bab_is_refused() {
    let path = format!("{}/../../tests/fixtures/dxil/dxc/atomic64_bab.cs.dxil", env!("CARGO_MANIFEST_DIR"));
    let p = dxil::parse(&std::fs::read(path).unwrap()).unwrap();
    let e = dxil::support::check(&p.module).unwrap_err();
    assert_eq!(e.to_string(), "dx.op 78 (AtomicBinOp) of 64-bit values is not supported (in main)");
}

/// Shader model 6.6's derivatives in a compute shader of 8x8 threads, whose 2x2 blocks of thread
/// IDs are quads: f = 3x + y^2 gives ddx = 3 and ddy (coarse and fine) = 4 (y / 2) + 1; uv =
/// (x, y) / 8 steps 1/8 per thread over a 32x32 texture (mip m all (m, 0, 0, 1)), LOD 2: the
/// implicit-LOD Sample reads mip 2 and CalculateLevelOfDetail gives 2.
#[test]
fn cs_derivatives() {
    let p = program("cs_derivatives.cs.dxil");
    let depth = DepthTexture::rgba(32, 6, |m| [m as f32, 0.0, 0.0, 1.0]);
    let b = Sampled { out: Buffers { u0: Mutex::new(vec![0xDEAD; 512]), t0: Vec::new() }, depth };
    dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).unwrap();
    let out = b.out.u0.into_inner().unwrap();
    for k in 0..64u32 {
        let y = k / 8;
        let dy = (4 * (y / 2) + 1) as f32;
        let want = [[3.0, dy, dy, 3.0], [2.0, 2.0, 0.0, 1.0]].concat();
        let got: Vec<f32> = out[8 * k as usize..][..8].iter().map(|w| f32::from_bits(*w)).collect();
        assert_eq!(got, want, "thread {k}");
    }
}

/// Runs `file` with t0/s0 `depth` and u0 of `words` words; returns u0 as floats.
fn run_sampled(file: &str, depth: DepthTexture, words: usize) -> Vec<f32> {
    let p = program(file);
    let b = Sampled { out: Buffers { u0: Mutex::new(vec![0xDEAD; words]), t0: Vec::new() }, depth };
    dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).unwrap();
    b.out.u0.into_inner().unwrap().into_iter().map(f32::from_bits).collect()
}

/// SampleGrad with gradients of 1, 2 and 4 texels of a 16x16 texture selects mips 0, 1 and 2
/// (texels of mip m (m, 10 + m, 0, 1); point filtering, WRAP).
#[test]
fn texture2d_samplegrad() {
    let t = DepthTexture::with(
        16,
        3,
        rd3d12_sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        |m, _, _| vec![m as f32, 10.0 + m as f32, 0.0, 1.0],
        (0, 1),
        0,
    );
    let out = run_sampled("texture2d_samplegrad.cs.dxil", t, 192);
    let want: Vec<f32> = (0..16).flat_map(|_| (0..3).flat_map(|m| [m as f32, 10.0 + m as f32, 0.0, 1.0])).collect();
    assert_eq!(out, want);
}

/// Gather, GatherRed/Green/Blue/Alpha and a Gather with offset (-1, 0) at the corner shared by
/// texels (2x..2x+1, 2y..2y+1) of an 8x8 texture, texel (x, y) = (x + 8y) + (0, 100, 200, 300):
/// D3D's order (i0, j1), (i1, j1), (i1, j0), (i0, j0); CLAMP at the left edge.
#[test]
fn texture2d_gather() {
    let t = DepthTexture::with(
        8,
        1,
        rd3d12_sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        |_, x, y| [0.0, 100.0, 200.0, 300.0].map(|c| c + (x + 8 * y) as f32).to_vec(),
        (0, 3),
        0,
    );
    let out = run_sampled("texture2d_gather.cs.dxil", t, 384);
    for k in 0..16usize {
        let (x, y) = ((k % 4) as i32, (k / 4) as i32);
        let texel = |i: i32, j: i32| (i.clamp(0, 7) + 8 * j) as f32;
        let red = |dx: i32| {
            [
                texel(2 * x + dx, 2 * y + 1),
                texel(2 * x + 1 + dx, 2 * y + 1),
                texel(2 * x + 1 + dx, 2 * y),
                texel(2 * x + dx, 2 * y),
            ]
        };
        let mut want = Vec::new();
        for c in [0.0, 0.0, 100.0, 200.0, 300.0] {
            want.extend(red(0).map(|r| r + c));
        }
        want.extend(red(-1));
        assert_eq!(out[24 * k..][..24], want[..], "thread {k}");
    }
}

/// SampleCmpLevelZero and GatherCmp (LESS_EQUAL: ref <= texel) on an 8x8 depth texture of
/// texels x / 8 with ref = y / 8: x >= y, and the footprint's comparisons at the corner (x + 1,
/// y + 1) / 8, texels clamped at the edge.
#[test]
fn texture2d_samplecmp() {
    let t = DepthTexture::with(8, 1, rd3d12_sys::DXGI_FORMAT_R32_FLOAT, |_, x, _| vec![x as f32 / 8.0], (0x80, 3), 4);
    let out = run_sampled("texture2d_samplecmp.cs.dxil", t, 512);
    for k in 0..64usize {
        let (x, y) = ((k % 8) as i32, (k / 8) as i32);
        let ge = |i: i32| if i.clamp(0, 7) >= y { 1.0 } else { 0.0 };
        let want = [ge(x), 0.0, 0.0, 0.0, ge(x), ge(x + 1), ge(x + 1), ge(x)];
        assert_eq!(out[8 * k..][..8], want, "thread ({x}, {y})");
    }
}

/// Shader model 6.7's non-immediate offsets (x & 3) - 2, (y & 3) - 2 on Load and SampleLevel
/// around texel (x + 4, y + 4) of a 16x16 texture whose texel (x, y) is (x, y, 0, 1).
#[test]
fn nonimmediate_offsets() {
    let t = DepthTexture::with(
        16,
        1,
        rd3d12_sys::DXGI_FORMAT_R32G32B32A32_FLOAT,
        |_, x, y| vec![x as f32, y as f32, 0.0, 1.0],
        (0, 3),
        0,
    );
    let out = run_sampled("nonimmediate_offsets.cs.dxil", t, 512);
    for k in 0..64u32 {
        let (x, y) = (k % 8, k / 8);
        let (ox, oy) = ((x & 3) as f32 - 2.0, (y & 3) as f32 - 2.0);
        let texel = [x as f32 + 4.0 + ox, y as f32 + 4.0 + oy, 0.0, 1.0];
        assert_eq!(out[8 * k as usize..][..8], [texel, texel].concat()[..], "thread ({x}, {y})");
    }
}
