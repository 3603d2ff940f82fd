//! The DXBC front end: the assembler against hand-encoded tokens of the format's documented
//! bit layouts, the decoder's refusals, and programs run on the interpreter and the JIT with
//! results worked out by hand. This file holds the shared harness (the compute environment
//! `Cs` and `both`, the stage environments) and the first families; `double`, `multisample`,
//! `call` and `stream` hold the later ones.

use super::asm::{assemble, container};
use super::tokens::{decode, Select};
use super::*;
use crate::interp::{Env, ExecError, Val};
use crate::jit::Mode;
use std::cell::RefCell;
use std::rc::Rc;

/// The `Env` methods of a test environment whose shader reaches no resources: handle 0, zero
/// constant rows and samples, discard accepted.
macro_rules! no_resources {
    () => {
        fn create_handle(&mut self, _: u8, _: u32, _: u32) -> R<u32> {
            Ok(0)
        }
        fn cbuffer_row(&mut self, _: u32, _: u32) -> R<[u32; 4]> {
            Ok([0; 4])
        }
        fn sample(
            &mut self,
            _: u32,
            _: u32,
            _: [f32; 4],
            _: [i32; 3],
            _: crate::interp::SampleMode,
            _: Option<f32>,
        ) -> R<[f32; 4]> {
            Ok([0.0; 4])
        }
        fn discard(&mut self) -> R<()> {
            Ok(())
        }
    };
}

mod call;
mod double;
mod join;
mod multisample;
mod stream;

type R<T> = Result<T, ExecError>;

/// Compute threads over shared UAV words: handle = class * 16 + register; UAV `u` register
/// `k` is `uavs[k]` (its stride from `strides`); constant buffer rows from `cb`.
struct Cs {
    lane: u32,
    size: [u32; 3],
    group: [u32; 3],
    uavs: Rc<RefCell<Vec<Vec<u32>>>>,
    strides: Vec<u32>,
    cb: Vec<[u32; 4]>,
}

impl Cs {
    fn addr(&self, h: u32, i: u32, o: u32) -> usize {
        let s = self.strides.get((h % 16) as usize).copied().unwrap_or(0);
        (if s == 0 { i } else { i * s + o }) as usize / 4
    }
}

impl Env for Cs {
    fn load_input(&mut self, _: u32, _: u32, _: u8, _: Option<u32>) -> R<Val> {
        Err(ExecError::Malformed("no inputs".into()))
    }
    fn store_output(&mut self, _: u32, _: u32, _: u8, _: &Val) -> R<()> {
        Err(ExecError::Malformed("no outputs".into()))
    }
    fn create_handle(&mut self, class: u8, _range: u32, index: u32) -> R<u32> {
        Ok(u32::from(class) * 16 + index)
    }
    fn cbuffer_row(&mut self, _: u32, row: u32) -> R<[u32; 4]> {
        Ok(self.cb.get(row as usize).copied().unwrap_or([0; 4]))
    }
    fn sample(
        &mut self,
        _: u32,
        _: u32,
        _: [f32; 4],
        _: [i32; 3],
        _: crate::interp::SampleMode,
        _: Option<f32>,
    ) -> R<[f32; 4]> {
        Err(ExecError::Malformed("no textures".into()))
    }
    fn discard(&mut self) -> R<()> {
        Ok(())
    }
    fn buffer_load(&mut self, h: u32, i: u32, o: u32) -> R<[u32; 4]> {
        let a = self.addr(h, i, o);
        let u = self.uavs.borrow();
        let b = &u[(h % 16) as usize];
        Ok([0, 1, 2, 3].map(|k| b.get(a + k).copied().unwrap_or(0)))
    }
    fn buffer_store(&mut self, h: u32, i: u32, o: u32, v: [u32; 4], mask: u8) -> R<()> {
        let a = self.addr(h, i, o);
        let mut u = self.uavs.borrow_mut();
        let b = &mut u[(h % 16) as usize];
        for k in 0..4 {
            if mask & (1 << k) != 0 && a + k < b.len() {
                b[a + k] = v[k];
            }
        }
        Ok(())
    }
    fn atomic(&mut self, h: u32, op: u32, c: [i32; 3], v: u32) -> R<u32> {
        let a = self.addr(h, c[0] as u32, c[1] as u32);
        let mut u = self.uavs.borrow_mut();
        let cell = &mut u[(h % 16) as usize][a];
        let old = *cell;
        *cell = match op {
            0 => old.wrapping_add(v),
            1 => old & v,
            2 => old | v,
            3 => old ^ v,
            4 => (old as i32).min(v as i32) as u32,
            5 => (old as i32).max(v as i32) as u32,
            6 => old.min(v),
            7 => old.max(v),
            _ => v,
        };
        Ok(old)
    }
    fn atomic_cmpxchg(&mut self, h: u32, c: [i32; 3], cmp: u32, new: u32) -> R<u32> {
        let a = self.addr(h, c[0] as u32, c[1] as u32);
        let mut u = self.uavs.borrow_mut();
        let cell = &mut u[(h % 16) as usize][a];
        let old = *cell;
        if old == cmp {
            *cell = new;
        }
        Ok(old)
    }
    fn dimensions(&mut self, h: u32, _: u32) -> R<[u32; 4]> {
        let n = self.uavs.borrow()[(h % 16) as usize].len() as u32 * 4;
        Ok([n, 0, 0, 0])
    }
    fn system_value(&mut self, opcode: u32, c: u32) -> R<u32> {
        let c = c.min(2) as usize;
        let [sx, sy, _] = self.size;
        let t = [self.lane % sx, self.lane / sx % sy, self.lane / (sx * sy)];
        Ok(match opcode {
            93 => self.group[c] * self.size[c] + t[c],
            94 => self.group[c],
            95 => t[c],
            96 => self.lane,
            _ => 0,
        })
    }
}

/// Runs one thread group of `text` (a compute shader) over `uavs`, as waves of the
/// interpreter or the JIT; the UAVs afterwards.
fn run_cs(text: &str, uavs: Vec<Vec<u32>>, strides: Vec<u32>, cb: Vec<[u32; 4]>, mode: Mode) -> Vec<Vec<u32>> {
    let bytes = container(text, &[], &[], None).unwrap_or_else(|e| panic!("{e}"));
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let size = p.dx.entry_points[0].num_threads.expect("dcl_thread_group");
    let uavs = Rc::new(RefCell::new(uavs));
    let n = size.iter().product::<u32>();
    let mut envs: Vec<Cs> = (0..n)
        .map(|lane| Cs { lane, size, group: [0; 3], uavs: uavs.clone(), strides: strides.clone(), cb: cb.clone() })
        .collect();
    let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
    let f = &p.module.functions[0];
    crate::jit::with_mode(mode, || crate::interp::run_group(&p.module, f, &mut refs)).unwrap_or_else(|e| panic!("{e}"));
    drop(refs);
    drop(envs);
    Rc::try_unwrap(uavs).unwrap_or_else(|_| panic!("one owner")).into_inner()
}

/// Runs on both executors and requires the same words from each.
fn both(text: &str, uavs: Vec<Vec<u32>>, strides: Vec<u32>, cb: Vec<[u32; 4]>) -> Vec<Vec<u32>> {
    let a = run_cs(text, uavs.clone(), strides.clone(), cb.clone(), Mode::Interp);
    let b = run_cs(text, uavs, strides, cb, Mode::Jit);
    assert_eq!(a, b, "the interpreter and the JIT differ");
    a
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

// ---- the assembler against the format's encodings ----

/// Tokens worked out by hand from the header's bit layouts (opcode `[10:0]`, length
/// `[30:24]`; operand components `[1:0]`, selection mode `[3:2]`, mask / swizzle `[11:4]`,
/// type `[19:12]`, index dimension `[21:20]`, representations from `[22]`; extended operand
/// type `[5:0]`, modifier `[13:6]`), several of them the well-known words of fxc's output
/// (`dcl_globalFlags refactoringAllowed` 0x0100086a, `dcl_thread_group` 0x0400009b, `ret`
/// 0x0100003e, `o0.xyzw` 0x001020f2, `v0.xyzw` 0x00101e46, `cb0[0].xyzw` 0x00208e46, the
/// 4-component immediate 0x00004002, the neg modifier 0x00000041).
#[test]
fn the_assembler_writes_the_documented_encodings() {
    let t = assemble(
        "vs_5_0
         dcl_globalFlags refactoringAllowed
         mov o0.xyzw, l(1.0, 0, 0, 1.0)
         dp4 o0.x, v0.xyzw, cb0[0].xyzw
         mov r1.yw, -|r2.zzzx|
         ishl r0.x, r1.x, l(2)
         mov r0.x, x3[r1.w + 2].y
         ret",
    )
    .unwrap();
    let want: Vec<u32> = vec![
        0x0001_0050,
        0, // length, patched below
        0x0100_086a,
        0x0800_0036,
        0x0010_20f2,
        0,
        0x0000_4002,
        f(1.0),
        0,
        0,
        f(1.0),
        // dp4: 1 + 2 + 2 + 3 DWORDs; o0.x is mask x (0x12).
        0x0800_0011,
        0x0010_2012,
        0,
        0x0010_1e46,
        0,
        0x0020_8e46,
        0,
        0,
        // mov r1.yw (mask 0xA: 0xA2), -|r2.zzzx| (swizzle z,z,z,x = 2|2<<2|2<<4|0<<6 = 0x2A,
        // so 0x2A6 | extended bit), absneg modifier 3 << 6 | type 1.
        0x0600_0036,
        0x0010_00a2,
        1,
        0x8010_02a6,
        0x0000_00c1,
        2,
        // ishl r0.x, r1.x (swizzle xxxx: 0x06), l(2) (one component: 0x00004001): 7 DWORDs.
        0x0700_0029,
        0x0010_0012,
        0,
        0x0010_0006,
        1,
        0x0000_4001,
        2,
        // mov r0.x, x3[r1.w + 2].y (8 DWORDs): indexable temp (type 3), two dimensions, index 1 as
        // immediate + relative (representation 3 at [27:25]), swizzle yyyy (0x55 << 4 | 6).
        0x0800_0036,
        0x0010_0012,
        0,
        0x0620_3556,
        3,
        2,
        0x0010_0ff6, // r1.w: swizzle wwww (0xFF << 4 | 6)
        1,
        0x0100_003e,
    ];
    let mut want = want;
    want[1] = want.len() as u32;
    assert_eq!(t.len(), want.len(), "{t:08x?}");
    for (k, (a, b)) in t.iter().zip(&want).enumerate() {
        assert_eq!(a, b, "DWORD {k}: {a:#010x} != {b:#010x}");
    }
    // The decoder reads them back.
    let p = decode(&asm::bytes(&t)).unwrap();
    assert_eq!((p.kind, p.major, p.minor, p.insts.len()), (1, 5, 0, 7));
    let mov = &p.insts[3].operands[1];
    assert!(mov.modifier.neg && mov.modifier.abs);
    assert_eq!(mov.select, Select::Swizzle([2, 2, 2, 0]));
    let x = &p.insts[5].operands[1];
    assert_eq!(
        (x.ty, x.index[1].imm, x.index[1].rel.as_ref().map(|r| r.select)),
        (3, 2, Some(Select::Swizzle([3; 4])))
    );
}

#[test]
fn the_decoder_reads_select_one_and_sample_offsets() {
    // sample_l(1,-2,0) r0.xyzw, v0.xyxx, t0.xyzw, s0, r1.x as select-1 (mode 2, component x):
    // hand encoded; the extended opcode's offsets are 4-bit two's complement at [12:9],
    // [16:13], [20:17].
    let ext = 1 | 1 << 9 | (0xE << 13);
    let words = [
        0x0000_0050u32,
        12,
        0x8B00_0048, // sample_l, 11 DWORDs, extended
        ext,
        0x0010_00f2,
        0,
        0x0010_1046,
        0,
        0x0010_7e46,
        0,
        0x0010_6000,
        0,
        // r1.x select-1: components 2, mode 2 (8), component 0.
    ];
    let mut w = words.to_vec();
    w.extend([0x0010_000a, 1]);
    w[1] = w.len() as u32;
    w[2] = 0x8000_0048 | ((w.len() as u32 - 2) << 24);
    let p = decode(&asm::bytes(&w)).unwrap();
    let i = &p.insts[0];
    assert_eq!(i.offsets, [1, -2, 0]);
    assert_eq!(i.operands[4].select, Select::One(0));
    assert_eq!(i.operands[3].comps, 0, "a sampler without components");
}

#[test]
fn malformed_token_streams_are_refused() {
    let ok = assemble("cs_5_0\ndcl_thread_group 1, 1, 1\nret").unwrap();
    assert!(decode(&asm::bytes(&ok)).is_ok());
    let refuse = |w: Vec<u32>, what: &str| {
        let e = decode(&asm::bytes(&w)).unwrap_err();
        assert!(e.what.contains(what), "{e} (wanted {what})");
    };
    let mut w = ok.clone();
    w[1] = 99;
    refuse(w, "length exceeds");
    let mut w = ok.clone();
    w[6] = 0x0100_07ff;
    refuse(w, "unknown opcode");
    let mut w = ok.clone();
    w[6] = 0x0000_003e;
    refuse(w, "length 0");
    let mut w = ok.clone();
    w[2] = 0x0900_009b;
    refuse(w, "length 9");
    // An operand type past the table, a bad index representation, a bad modifier.
    let prog = |ops: &[u32]| {
        let mut w = vec![0x0005_0050, 0, 0x0000_0036 | ((ops.len() as u32 + 1) << 24)];
        w.extend(ops);
        w[1] = w.len() as u32;
        w
    };
    refuse(prog(&[0x0010_0012, 0, 0x0007_f006]), "unknown operand type");
    refuse(prog(&[0x0010_0012, 0, 0x01d0_0006, 0]), "index representation 7");
    refuse(prog(&[0x0010_0012, 0, 0x8010_0006, 0x0000_3fc1, 0]), "operand modifier");
    refuse(prog(&[0x0010_0012, 0]), "operands");
    refuse(prog(&[0x0010_0012]), "ends before");
    // Relative indices nested without end.
    let mut deep = vec![0x0010_0012, 0];
    deep.extend([0x0090_3006; 6]);
    deep.push(0x0010_0006);
    deep.push(0);
    refuse(prog(&deep), "");
}

/// Every mutation of valid programs (one word changed, truncations) decodes to a program or
/// an error, never a panic, and lowering what decodes is an error or a program too.
#[test]
fn mutated_programs_never_panic() {
    let texts = [ALU, CONTROL, GROUPSHARED, double::DOUBLES, call::CALLS];
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut rnd = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut n = 0;
    for t in texts {
        let w = assemble(t).unwrap();
        for _ in 0..3000 {
            let mut m = w.clone();
            let k = (rnd() as usize) % m.len();
            m[k] = match rnd() % 4 {
                0 => rnd() as u32,
                1 => m[k] ^ (1 << (rnd() % 32)),
                2 => m[k].wrapping_add(1),
                _ => 0,
            };
            if rnd() % 8 == 0 {
                m.truncate((rnd() as usize) % m.len());
            }
            let bytes = container_words(&m);
            let _ = parse(&bytes);
            n += 1;
        }
    }
    assert_eq!(n, 15000);
}

/// A compute container around raw tokens.
fn container_words(w: &[u32]) -> Vec<u8> {
    let prog = asm::bytes(w);
    let empty = rd3d12_core::shader::signature_part(&[], rd3d12_core::shader::SignatureLayout::V0, None);
    rd3d12_core::dxbc::build(&[(*b"ISGN", &empty), (*b"OSGN", &empty), (*b"SHEX", &prog)])
}

// ---- programs ----

/// Arithmetic, bit and conversion instructions; each thread writes 16 words.
const ALU: &str = "cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_input vThreadIDInGroupFlattened
dcl_temps 4
dcl_thread_group 4, 1, 1
utof r0.x, vThreadIDInGroupFlattened
add r0.y, r0.x, l(0.5)
mul r0.z, r0.y, l(-2.0)
mad r0.w, r0.y, r0.y, l(1.0)
ishl r1.x, vThreadIDInGroupFlattened, l(6)
store_raw u0.xyzw, r1.x, r0.xyzw
ftoi r2.x, r0.z
ftou r2.y, r0.z
iadd r2.z, -r2.x, l(100)
ushr r2.w, l(0x80000000), vThreadIDInGroupFlattened
iadd r3.x, r1.x, l(16)
store_raw u0.xyzw, r3.x, r2.xyzw
dp3 r2.x, r0.xyzx, r0.xyzx
max r2.y, -r0.z, l(1.25)
movc r2.z, vThreadIDInGroupFlattened, l(7), l(9)
lt r2.w, r0.x, l(1.5)
iadd r3.x, r1.x, l(32)
store_raw u0.xyzw, r3.x, r2.xyzw
imul null, r2.x, vThreadIDInGroupFlattened, l(-3)
udiv r2.y, r2.z, l(17), vThreadIDInGroupFlattened
bfi r2.w, l(4), l(8), vThreadIDInGroupFlattened, l(0xffffffff)
firstbit_hi r2.z, l(0x00010000)
iadd r3.x, r1.x, l(48)
store_raw u0.xyzw, r3.x, r2.xyzw
ret";

fn alu_expected(t: u32) -> [u32; 16] {
    let x = t as f32;
    let y = x + 0.5;
    let z = y * -2.0;
    let w = y * y + 1.0;
    let i = z as i32;
    let q = 17u32.checked_div(t).unwrap_or(u32::MAX);
    [
        f(x),
        f(y),
        f(z),
        f(w),
        i as u32,
        0, // ftou of a negative float saturates to 0
        (100 - i) as u32,
        0x8000_0000 >> t,
        f(x * x + y * y + z * z),
        f((-z).max(1.25)),
        if t != 0 { 7 } else { 9 },
        if x < 1.5 { u32::MAX } else { 0 },
        (t as i32 * -3) as u32,
        q,                            // udiv by 0 gives 0xFFFFFFFF
        15,                           // firstbit_hi counts from the most significant bit
        0xFFFF_F0FF | (t & 0xF) << 8, // bfi: 4 bits of t at bit 8
    ]
}

#[test]
fn arithmetic_bits_and_conversions_match_hand_worked_values() {
    let out = both(ALU, vec![vec![0; 64]], vec![0], vec![]);
    for t in 0..4u32 {
        let want = alu_expected(t);
        assert_eq!(&out[0][16 * t as usize..16 * t as usize + 16], &want, "thread {t}");
    }
}

/// Loops with break and continue, a switch with fallthrough and default, if/else.
const CONTROL: &str = "cs_5_0
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 3
dcl_thread_group 8, 1, 1
mov r0.x, l(0)
mov r0.y, l(0)
loop
  uge r0.z, r0.y, l(10)
  breakc_nz r0.z
  iadd r0.y, r0.y, l(1)
  and r0.w, r0.y, l(1)
  continuec_nz r0.w
  iadd r0.x, r0.x, r0.y
endloop
switch vThreadID.x
  case l(0)
    mov r1.x, l(100)
    break
  case l(1)
  case l(2)
    mov r1.x, l(200)
    break
  case l(3)
    mov r1.x, l(300)
  case l(4)
    mov r1.x, l(400)
    break
  default
    mov r1.x, l(999)
    break
endswitch
ult r2.x, vThreadID.x, l(5)
if_nz r2.x
  iadd r1.y, r1.x, l(1)
else
  iadd r1.y, r1.x, l(2)
endif
ishl r2.y, vThreadID.x, l(3)
store_raw u0.xy, r2.y, r0.x
iadd r2.y, r2.y, l(4)
store_raw u0.x, r2.y, r1.y
retc_nz r2.x
store_raw u0.x, l(128), l(1)
ret";

#[test]
fn structured_control_flow_runs_per_lane() {
    let out = both(CONTROL, vec![vec![0; 33]], vec![0], vec![]);
    // Sum of the even numbers 2..=10.
    let sum = 2 + 4 + 6 + 8 + 10;
    for t in 0..8usize {
        let r1 = match t {
            0 => 100,
            1 | 2 => 200,
            3 | 4 => 400,
            _ => 999,
        };
        let r1y = if t < 5 { r1 + 1 } else { r1 + 2 };
        assert_eq!(out[0][2 * t], sum, "thread {t}");
        assert_eq!(out[0][2 * t + 1], r1y, "thread {t}");
    }
    // Threads 5..7 pass the retc.
    assert_eq!(out[0][32], 1);
}

/// Groupshared memory, a group barrier, UAV atomics and an immediate constant buffer.
const GROUPSHARED: &str = "cs_5_0
dcl_immediateConstantBuffer { { 1, 2, 3, 4 }, { 10, 20, 30, 40 } }
dcl_uav_raw u0
dcl_uav_structured u1, 8
dcl_constantbuffer cb0[1], immediateIndexed
dcl_tgsm_raw g0, 64
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_thread_group 16, 1, 1
ishl r0.x, vThreadIDInGroupFlattened, l(2)
imul null, r0.y, vThreadIDInGroupFlattened, vThreadIDInGroupFlattened
store_raw g0.x, r0.x, r0.y
sync_g_t
xor r0.z, vThreadIDInGroupFlattened, l(15)
ishl r0.z, r0.z, l(2)
ld_raw r1.x, r0.z, g0.xxxx
and r0.w, vThreadIDInGroupFlattened, l(1)
iadd r1.y, r1.x, icb[r0.w + 0].y
iadd r1.y, r1.y, cb0[0].z
store_structured u1.xy, vThreadIDInGroupFlattened, l(0), r1.xyxx
atomic_iadd u0, l(0), vThreadIDInGroupFlattened
imm_atomic_umax r2.x, u0, l(4), vThreadIDInGroupFlattened
atomic_or u0, l(8), r0.y
ret";

#[test]
fn groupshared_memory_atomics_and_constant_buffers() {
    let out = both(GROUPSHARED, vec![vec![0; 3], vec![0; 32]], vec![0, 8], vec![[0, 0, 1000, 0]]);
    assert_eq!(out[0][0], (0..16).sum::<u32>());
    assert_eq!(out[0][1], 15);
    assert_eq!(out[0][2], (0..16u32).fold(0, |a, t| a | (t * t)));
    for t in 0..16u32 {
        let other = t ^ 15;
        let icb = if t & 1 == 0 { 2 } else { 20 };
        assert_eq!(out[1][2 * t as usize], other * other, "thread {t}");
        assert_eq!(out[1][2 * t as usize + 1], other * other + icb + 1000, "thread {t}");
    }
}

#[test]
fn instructions_of_a_later_model_and_unbalanced_flow_are_refused() {
    let sm4 = container("cs_4_0\ndcl_thread_group 1, 1, 1\ncountbits r0.x, l(3)\nret", &[], &[], None).unwrap();
    assert_eq!(parse(&sm4).unwrap_err(), DxbcError::Model("dcl_thread_group", 50, 40));
    let unbalanced = container("cs_5_0\ndcl_thread_group 1, 1, 1\nloop\nret", &[], &[], None).unwrap();
    assert!(matches!(parse(&unbalanced), Err(DxbcError::Lower(lower::LowerError::Malformed(_)))));
    let past = container("cs_5_0\ndcl_temps 1\ndcl_thread_group 1, 1, 1\nmov r3.x, l(1)\nret", &[], &[], None).unwrap();
    let e = parse(&past).unwrap_err().to_string();
    assert!(e.contains("r3 past dcl_temps 1"), "{e}");
    let undeclared =
        container("cs_5_0\ndcl_thread_group 1, 1, 1\nstore_raw u2.x, l(0), l(1)\nret", &[], &[], None).unwrap();
    assert!(parse(&undeclared).unwrap_err().to_string().contains("not declared"));
}

/// The assembled fixtures of `tests/fixtures/dxbc` (used by the C ABI tests) are what their
/// sources assemble to; `RD3D12_WRITE_DXBC_FIXTURES=1` writes them anew. Each one that is
/// not meant to be refused parses and lowers.
#[test]
fn the_dxbc_fixtures_are_their_sources_assembled() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc");
    let write = std::env::var_os("RD3D12_WRITE_DXBC_FIXTURES").is_some();
    let mut n = 0;
    for e in std::fs::read_dir(dir).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "asm") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let bytes = asm::source(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let blob = path.with_extension("dxbc");
        if write {
            std::fs::write(&blob, &bytes).unwrap();
        }
        assert_eq!(std::fs::read(&blob).ok().as_deref(), Some(&bytes[..]), "{} is stale", blob.display());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(parse(&bytes).is_ok(), !name.starts_with("bad_"), "{name}: {:?}", parse(&bytes).err());
        n += 1;
    }
    assert!(n >= 4, "{n} fixtures");
}

/// The fixtures the C ABI test dispatches, run here on one group with the same inputs.
#[test]
fn the_fixture_programs_compute_what_the_abi_test_expects() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxbc");
    let text = |n: &str| {
        let s = std::fs::read_to_string(format!("{dir}/{n}")).unwrap();
        s.lines().filter(|l| !l.trim_start().starts_with('.')).collect::<Vec<_>>().join("\n")
    };
    let src: Vec<u32> = (0..64).map(|i| 1000 + 7 * i).collect();
    let out = both(&text("copy.cs.asm"), vec![src.clone(), vec![0; 64]], vec![0, 0], vec![]);
    assert!((0..64).all(|i| out[1][i] == src[i] * 3 + i as u32));
    let sq: Vec<u32> = (0..64).map(|i| i * i).collect();
    let out = both(&text("reduce.cs.asm"), vec![sq, vec![0; 1]], vec![0, 0], vec![]);
    assert_eq!(out[1][0], 85344);
    let out = both(&text("doubles.cs.asm"), vec![src.clone(), vec![0; 128]], vec![0, 0], vec![]);
    for i in 0..64 {
        let d = f64::from_bits(u64::from(out[1][2 * i]) | u64::from(out[1][2 * i + 1]) << 32);
        assert_eq!(d, f64::from(src[i]) * 1.5 + 0.25, "thread {i}");
    }
    assert_eq!((out[1][0], out[1][1]), (0, 0x4097_7100), "1500.25");
    let out = both(&text("append.cs.asm"), vec![vec![0; 33]], vec![0], vec![]);
    assert_eq!(out[0][0], 32);
    let mut got = out[0][1..].to_vec();
    got.sort();
    assert_eq!(got, (100..132).collect::<Vec<u32>>());
}

/// D3D11.3's 32-bit float rules: denorms are flushed to zero of their sign on input and
/// output of float math (comparisons too), and moves keep them.
#[test]
fn float_math_flushes_denormals_and_moves_keep_them() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_temps 2
dcl_thread_group 1, 1, 1
add r0.x, l(0x00000001), l(0)
mul r0.y, l(1e-30), l(-1e-10)
mov r0.z, l(0x00000001)
lt r0.w, l(0), l(0x00000001)
store_raw u0.xyzw, l(0), r0.xyzw
max r1.x, l(0x80000003), l(0)
min r1.y, l(nan), l(2.0)
ne r1.z, l(nan), l(nan)
eq r1.w, l(-0.0), l(0.0)
store_raw u0.xyzw, l(16), r1.xyzw
ret";
    let out = both(text, vec![vec![7; 8]], vec![0], vec![]);
    assert_eq!(&out[0][..4], &[0, 0x8000_0000, 1, 0]);
    // max(-denorm, 0): both zeros after the flush; min(NaN, 2) is 2; NaN != NaN; -0 == +0.
    assert_eq!(out[0][4] & 0x7FFF_FFFF, 0);
    assert_eq!(&out[0][5..], &[f(2.0), u32::MAX, u32::MAX]);
}

/// The bit, rounding, transcendental, conversion and two-result instructions the first ALU
/// program leaves out, one thread, each result worked out by hand.
#[test]
fn more_arithmetic_matches_hand_worked_values() {
    let text = "cs_5_0
dcl_uav_raw u0
dcl_temps 4
dcl_thread_group 1, 1, 1
ubfe r0.x, l(8), l(4), l(0xABCDEF12)
ibfe r0.y, l(8), l(4), l(0xABCDEF82)
countbits r0.z, l(0xF0F0000F)
bfrev r0.w, l(0x00000001)
store_raw u0.xyzw, l(0), r0.xyzw
firstbit_lo r0.x, l(0x00000100)
firstbit_shi r0.y, l(0xFFFFFF00)
firstbit_hi r0.z, l(0)
f32tof16 r0.w, l(1.5)
store_raw u0.xyzw, l(16), r0.xyzw
f16tof32 r0.x, l(0x00003c00)
round_ne r0.y, l(2.5)
round_ni r0.z, l(-1.25)
round_pi r0.w, l(-1.75)
store_raw u0.xyzw, l(32), r0.xyzw
round_z r0.x, l(-1.75)
frc r0.y, l(-1.25)
exp r0.z, l(3.0)
log r0.w, l(0.25)
store_raw u0.xyzw, l(48), r0.xyzw
sqrt r0.x, l(16.0)
rsq r0.y, l(4.0)
rcp r0.z, l(8.0)
sincos r1.x, r1.y, l(0.0)
mov r0.w, r1.y
store_raw u0.xyzw, l(64), r0.xyzw
uaddc r0.x, r0.y, l(0xFFFFFFFF), l(2)
usubb r0.z, r0.w, l(1), l(2)
store_raw u0.xyzw, l(80), r0.xyzw
umul r0.x, r0.y, l(0x80000000), l(4)
imin r0.z, l(-5), l(3)
umin r0.w, l(-5), l(3)
store_raw u0.xyzw, l(96), r0.xyzw
swapc r0.xy, r1.xy, l(0, 0xFFFFFFFF, 0, 0), l(1, 2, 0, 0), l(3, 4, 0, 0)
mov r0.zw, r1.xxxy
store_raw u0.xyzw, l(112), r0.xyzw
ftoi r0.x, l(3e9)
ftoi r0.y, l(nan)
ftou r0.z, l(5e9)
mov_sat r0.w, l(1.5)
store_raw u0.xyzw, l(128), r0.xyzw
mul_sat r0.x, l(nan), l(1.0)
imax r0.y, l(-5), l(3)
umax r0.z, l(-5), l(3)
ineg r0.w, l(7)
store_raw u0.xyzw, l(144), r0.xyzw
ret";
    let out = both(text, vec![vec![0; 40]], vec![0], vec![]);
    let w = &out[0];
    assert_eq!(&w[0..4], &[0xF1, 0xFFFF_FFF8, 12, 0x8000_0000], "ubfe ibfe countbits bfrev");
    // firstbit_shi of 0xFFFFFF00: the first bit (from the top) unlike the sign is bit 7: 31 - 7.
    assert_eq!(&w[4..8], &[8, 24, u32::MAX, 0x3E00], "firstbit_lo firstbit_shi firstbit_hi(0) f32tof16");
    assert_eq!(&w[8..12], &[f(1.0), f(2.0), f(-2.0), f(-1.0)], "f16tof32 round_ne round_ni round_pi");
    assert_eq!(&w[12..16], &[f(-1.0), f(0.75), f(8.0), f(-2.0)], "round_z frc exp log");
    assert_eq!(&w[16..20], &[f(4.0), f(0.5), f(0.125), f(1.0)], "sqrt rsq rcp cos(0)");
    assert_eq!(&w[20..24], &[1, 1, u32::MAX, 1], "uaddc usubb");
    assert_eq!(&w[24..28], &[2, 0, (-5i32) as u32, 3], "umul imin umin");
    assert_eq!(&w[28..32], &[1, 4, 3, 2], "swapc");
    assert_eq!(&w[32..36], &[i32::MAX as u32, 0, u32::MAX, f(1.0)], "ftoi/ftou saturate, NaN to 0; mov_sat");
    assert_eq!(&w[36..40], &[0, 3, (-5i32) as u32, (-7i32) as u32], "mul_sat(NaN) imax umax ineg");
}

/// Structured and typed buffers, an indexable temp indexed by a register, a constant buffer
/// indexed dynamically, compare-exchange on a UAV and on groupshared memory, bufinfo.
#[test]
fn memory_families_match_hand_worked_values() {
    let text = "cs_5_0
dcl_uav_structured u0, 8
dcl_uav_raw u1
dcl_constantbuffer cb0[4], dynamicIndexed
dcl_tgsm_structured g0, 4, 4
dcl_input vThreadIDInGroupFlattened
dcl_temps 3
dcl_indexableTemp x0[4], 4
dcl_thread_group 4, 1, 1
mov x0[0].x, l(10)
mov x0[1].x, l(11)
mov x0[2].x, l(12)
mov x0[3].x, l(13)
xor r0.x, vThreadIDInGroupFlattened, l(3)
mov r0.y, x0[r0.x + 0].x
iadd r0.z, cb0[r0.x + 0].y, r0.y
store_structured u0.xy, vThreadIDInGroupFlattened, l(0), r0.yzyy
ld_structured r1.xy, r0.x, l(4), u0.xxxx
store_structured g0.x, vThreadIDInGroupFlattened, l(0), l(5)
sync_g_t
imm_atomic_cmp_exch r2.x, g0, l(0, 0, 0, 0), l(5), vThreadIDInGroupFlattened
atomic_cmp_store u1, l(0), l(0), l(77)
bufinfo r2.y, u1
ieq r2.z, vThreadIDInGroupFlattened, l(0)
if_nz r2.z
  ld_structured r2.w, l(0), l(0), g0.xxxx
  store_raw u1.xyz, l(4), r2.xyw
endif
ret";
    // cb0[k].y = 100 * k.
    let cb = (0..4).map(|k| [0, 100 * k, 0, 0]).collect();
    let out = both(text, vec![vec![0; 8], vec![0; 4]], vec![8, 0], cb);
    for t in 0..4usize {
        let other = t ^ 3;
        assert_eq!(out[0][2 * t], 10 + other as u32, "thread {t}");
        assert_eq!(out[0][2 * t + 1], 10 + other as u32 + 100 * other as u32, "thread {t}");
    }
    assert_eq!(out[1][0], 77, "atomic_cmp_store on 0");
    // Thread 0 wrote: its cmp-exch result (5: some thread swapped first, or it did and saw
    // 5), bufinfo (16 bytes), the cell's final value (the id of the thread that swapped).
    assert_eq!(out[1][1], 5);
    assert_eq!(out[1][2], 16);
    assert!(out[1][3] < 4);
}

/// An environment for one geometry-shader invocation: input vertex `v` component `c` of
/// element `sig` reads `100 * v + 10 * sig + c`; outputs and emits and cuts are logged.
struct Gs {
    log: Vec<String>,
    out: Vec<(u32, u32)>,
}

impl Env for Gs {
    fn load_input(&mut self, sig: u32, _row: u32, col: u8, vertex: Option<u32>) -> R<Val> {
        Ok(Val::F32((100 * vertex.unwrap_or(99) + 10 * sig + u32::from(col)) as f32))
    }
    fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> R<()> {
        let Val::F32(f) = value else { return Err(ExecError::Malformed(format!("{value:?}"))) };
        self.out.push((sig * 4 + u32::from(col), *f as u32));
        Ok(())
    }
    no_resources!();
    fn emit_stream(&mut self, s: u32) -> R<()> {
        let o = std::mem::take(&mut self.out);
        self.log.push(format!("emit {s} {o:?}"));
        Ok(())
    }
    fn cut_stream(&mut self, s: u32) -> R<()> {
        self.log.push(format!("cut {s}"));
        Ok(())
    }
}

/// A geometry shader: its declarations become the entry's GsState, `v[vertex][reg]` reads
/// the vertex's input, emit and cut reach the environment in program order.
#[test]
fn a_geometry_shader_reads_vertices_and_emits() {
    use rd3d12_core::shader::element;
    let text = "gs_5_0
dcl_inputprimitive triangle
dcl_outputtopology trianglestrip
dcl_maxout 4
dcl_input v[3][0].xyzw
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, l(0)
loop
  uge r0.y, r0.x, l(3)
  breakc_nz r0.y
  mov o0.xyzw, v[r0.x + 0][0].xyzw
  emit
  iadd r0.x, r0.x, l(1)
endloop
cut
ret";
    let bytes = container(text, &[element("A", 0, 0)], &[element("B", 0, 0)], None).unwrap();
    let p = parse(&bytes).unwrap();
    let gs = p.dx.entry_points[0].gs.expect("a GsState");
    assert_eq!(
        (gs.input_primitive, gs.output_topology, gs.max_vertex_count, gs.instance_count, gs.active_stream_mask),
        (3, 5, 4, 1, 1)
    );
    for mode in [Mode::Interp, Mode::Jit] {
        let mut env = Gs { log: vec![], out: vec![] };
        crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[0], &mut env)).unwrap();
        let want: Vec<String> = (0..3)
            .map(|v| format!("emit 0 {:?}", (0..4).map(|c| (c, 100 * v + c)).collect::<Vec<_>>()))
            .chain(["cut 0".to_string()])
            .collect();
        assert_eq!(env.log, want, "{mode:?}");
    }
}

/// A pixel-shader invocation whose input `sig` component `c` reads `10 * sig + c`, and at
/// an `Eval*` point `1000 + 100 * (x + 8) + (y + 8)` (snapped), `2000 + n` (sample n) or
/// `3000` (centroid); outputs logged.
struct Ps {
    out: Vec<(u32, u8, u32)>,
}

impl Env for Ps {
    fn load_input(&mut self, sig: u32, _: u32, col: u8, _: Option<u32>) -> R<Val> {
        Ok(Val::F32((10 * sig + u32::from(col)) as f32))
    }
    fn eval_input(&mut self, sig: u32, _: u32, col: u8, at: crate::interp::EvalAt) -> R<Val> {
        use crate::interp::EvalAt as E;
        let base = match at {
            E::Snapped(x, y) => 1000 + 100 * (x + 8) + (y + 8),
            E::Sample(n) => 2000 + n as i32,
            E::Centroid => 3000,
        };
        Ok(Val::F32((base + 10 * sig as i32 + i32::from(col)) as f32))
    }
    fn store_output(&mut self, sig: u32, _: u32, col: u8, value: &Val) -> R<()> {
        let Val::F32(f) = value else { return Err(ExecError::Malformed(format!("{value:?}"))) };
        self.out.push((sig, col, *f as u32));
        Ok(())
    }
    no_resources!();
}

/// eval_snapped / eval_sample_index / eval_centroid read the input through the environment's
/// Eval* with their offsets and index; a plain read of the same input is a LoadInput.
#[test]
fn pull_model_interpolation_reaches_the_environment() {
    use rd3d12_core::shader::{element, system_element, SemanticKind};
    let text = "ps_5_0
dcl_input_ps linear v1.xy
dcl_output o0.xyzw
dcl_temps 1
eval_snapped r0.x, v1.y, l(-1, 3, 0, 0)
eval_sample_index r0.y, v1.x, l(2)
eval_centroid r0.z, v1.y
mov r0.w, v1.x
mov o0.xyzw, r0.xyzw
ret";
    let ins = [element("A", 0, 0), element("B", 0, 1)];
    let outs = [system_element("SV_Target", 0, 0, SemanticKind::Target)];
    let p = parse(&container(text, &ins, &outs, None).unwrap()).unwrap();
    let mut env = Ps { out: vec![] };
    crate::interp::run(&p.module, &p.module.functions[0], &mut env).unwrap();
    // Input B is element 1: 10 * 1 + component.
    assert_eq!(env.out, vec![(0, 0, 1000 + 700 + 11 + 11), (0, 1, 2002 + 10), (0, 2, 3011), (0, 3, 10)]);
    assert_eq!(p.dx.entry_points[0].inputs[1].interpolation, rd3d12_core::shader::Interpolation::Linear);
}

/// Shader model 5.1: a UAV range indexed by a register (`U0[r0.x + 1]`), the handle made for
/// the register the index names.
#[test]
fn a_range_indexed_by_a_register_reaches_each_register() {
    let text = "cs_5_1
dcl_uav_raw U0[0:3], space=0
dcl_input vThreadIDInGroupFlattened
dcl_temps 1
dcl_thread_group 3, 1, 1
iadd r0.x, vThreadIDInGroupFlattened, l(5)
store_raw U0[vThreadIDInGroupFlattened + 1].x, l(0), r0.x
ret";
    let out = both(text, vec![vec![0; 1]; 4], vec![0; 4], vec![]);
    assert_eq!(out, vec![vec![0], vec![5], vec![6], vec![7]]);
}

/// A hull-shader invocation: input control point `v` element `sig` component `c` reads
/// `100 * v + 10 * sig + c`; outputs, patch constants and output control point reads logged.
pub(super) struct Hs {
    cp: u32,
    log: Vec<String>,
}

impl Env for Hs {
    fn load_input(&mut self, sig: u32, _: u32, col: u8, vertex: Option<u32>) -> R<Val> {
        Ok(Val::F32((100 * vertex.unwrap_or(99) + 10 * sig + u32::from(col)) as f32))
    }
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> R<()> {
        self.log.push(format!("out {sig} {row} {col} {value:?}"));
        Ok(())
    }
    fn store_patch_constant(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> R<()> {
        self.log.push(format!("pc {sig} {row} {col} {value:?}"));
        Ok(())
    }
    fn load_output_control_point(&mut self, sig: u32, _: u32, col: u8, index: u32) -> R<Val> {
        Ok(Val::F32((1000 * index + 10 * sig + u32::from(col)) as f32))
    }
    fn system_value(&mut self, opcode: u32, _: u32) -> R<u32> {
        Ok(if opcode == 107 { self.cp } else { 0 })
    }
    no_resources!();
}

/// A hull shader without a control-point phase: its control-point function passes the input
/// control point of its index through; the patch constant function runs the fork phase once
/// per instance (vForkInstanceID), its `ret` ending the instance, then the join phase; the
/// container's four SV_TessFactor elements become one element of four rows.
#[test]
fn a_hull_shader_lowers_to_its_two_functions() {
    use rd3d12_core::shader::{element, SemanticKind, TessDomain};
    let pos = element("P", 0, 0);
    let tf = |i: u32| rd3d12_core::shader::SignatureElement {
        semantic: SemanticKind::TessFactor,
        mask: 1,
        rw_mask: 1,
        cols: 1,
        ..element("SV_TessFactor", i, i)
    };
    let inside = |i: u32| rd3d12_core::shader::SignatureElement {
        semantic: SemanticKind::InsideTessFactor,
        mask: 1,
        rw_mask: 1,
        cols: 1,
        ..element("SV_InsideTessFactor", i, 4 + i)
    };
    let patch = [tf(0), tf(1), tf(2), tf(3), inside(0), inside(1)];
    let text = "hs_5_0
hs_decls
dcl_input_control_point_count 4
dcl_output_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_tessellator_partitioning partitioning_integer
dcl_tessellator_output_primitive output_triangle_cw
dcl_hs_max_tessfactor l(64.0)
hs_fork_phase
dcl_hs_fork_phase_instance_count 4
dcl_input vForkInstanceID
dcl_temps 1
ieq r0.x, vForkInstanceID, l(2)
retc_nz r0.x
utof r0.y, vForkInstanceID
add o0.x, r0.y, vocp[1][0].y
ret
hs_join_phase
mov o4.x, l(3.0)
mov o5.x, l(5.0)
ret";
    let bytes = asm::container_with(
        text,
        std::slice::from_ref(&pos),
        std::slice::from_ref(&pos),
        &patch,
        Some(TessDomain::Quad),
        None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // The fork phase writes o0 only: instances 0, 1, 3 (instance 2 returns first) reach row
    // 0 of the merged element; the other rows stay unwritten here.
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let e = &p.dx.entry_points[0];
    let hs = e.hs.expect("an HsState");
    assert_eq!(
        (hs.patch_constant_function, hs.input_control_points, hs.output_control_points, hs.domain),
        (1, 4, 4, 3)
    );
    assert_eq!((hs.partitioning, hs.output_primitive, hs.max_tess_factor), (1, 3, 64.0));
    assert_eq!(e.patch_constants.len(), 2, "{:?}", e.patch_constants);
    assert_eq!((e.patch_constants[0].rows, e.patch_constants[1].rows), (4, 2));
    for mode in [Mode::Interp, Mode::Jit] {
        let mut env = Hs { cp: 2, log: vec![] };
        crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[0], &mut env)).unwrap();
        assert_eq!(
            env.log,
            (0..4).map(|c| format!("out 0 0 {c} F32({}.0)", 200 + c)).collect::<Vec<_>>(),
            "pass-through ({mode:?})"
        );
        let mut env = Hs { cp: 3, log: vec![] };
        crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[1], &mut env)).unwrap();
        // vocp[1][0].y = 1000 + 1; instance i adds i.
        let want = vec![
            "pc 0 0 0 F32(1001.0)".to_string(),
            "pc 0 0 0 F32(1002.0)".into(),
            "pc 0 0 0 F32(1004.0)".into(),
            "pc 1 0 0 F32(3.0)".into(),
            "pc 1 1 0 F32(5.0)".into(),
        ];
        assert_eq!(env.log, want, "{mode:?}");
    }
}

/// A domain-shader invocation at domain location (0.25, 0.5, 0): control point `v` element
/// `sig` component `c` reads `100 * v + 10 * sig + c`, patch constant `sig` row `r` reads
/// `7 + r`.
struct Ds {
    log: Vec<String>,
}

impl Env for Ds {
    fn load_input(&mut self, sig: u32, _: u32, col: u8, vertex: Option<u32>) -> R<Val> {
        Ok(Val::F32((100 * vertex.unwrap_or(99) + 10 * sig + u32::from(col)) as f32))
    }
    fn load_patch_constant(&mut self, _: u32, row: u32, _: u8) -> R<Val> {
        Ok(Val::F32(7.0 + row as f32))
    }
    fn domain_location(&mut self, c: u32) -> R<f32> {
        Ok([0.25, 0.5, 0.0][c.min(2) as usize])
    }
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> R<()> {
        self.log.push(format!("out {sig} {row} {col} {value:?}"));
        Ok(())
    }
    no_resources!();
}

/// A domain shader: vDomain through DomainLocation, vicp[cp][#] through the control points,
/// vpc# through the patch constants (the merged tess factor rows), its DsState declared.
#[test]
fn a_domain_shader_reads_its_domain_point_control_points_and_patch_constants() {
    use rd3d12_core::shader::{element, SemanticKind, TessDomain};
    let tf = |i: u32| rd3d12_core::shader::SignatureElement {
        semantic: SemanticKind::TessFactor,
        mask: 1,
        rw_mask: 1,
        cols: 1,
        ..element("SV_TessFactor", i, i)
    };
    let text = "ds_5_0
dcl_input_control_point_count 4
dcl_tessellator_domain domain_quad
dcl_output o0.xyzw
dcl_temps 1
mul r0.x, vDomain.y, vicp[3][0].z
add o0.x, r0.x, vDomain.x
mov o0.y, vpc2.x
mov o0.zw, vicp[1][0].xxxy
ret";
    let bytes = asm::container_with(
        text,
        &[element("P", 0, 0)],
        &[element("Q", 0, 0)],
        &[tf(0), tf(1), tf(2), tf(3)],
        Some(TessDomain::Quad),
        None,
    )
    .unwrap();
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let ds = p.dx.entry_points[0].ds.expect("a DsState");
    assert_eq!((ds.domain, ds.input_control_points), (3, 4));
    for mode in [Mode::Interp, Mode::Jit] {
        let mut env = Ds { log: vec![] };
        crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[0], &mut env)).unwrap();
        // 0.5 * 302 + 0.25; row 2 of the tess factors; control point 1's x and y.
        let want: Vec<String> =
            [151.25f32, 9.0, 100.0, 101.0].iter().enumerate().map(|(c, v)| format!("out 0 0 {c} F32({v:?})")).collect();
        assert_eq!(env.log, want, "{mode:?}");
    }
}
