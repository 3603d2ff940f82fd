//! Waves against invocations run alone: every compute and vertex fixture run as waves of one
//! lane (no divergence, no masks: each invocation by itself, the semantics the wave machinery
//! must keep) and as waves of 3 to 64 lanes with the same inputs, every call each invocation
//! makes of its environment compared bit for bit; pixel fixtures quad by quad and as one wave;
//! and hand-made IR programs for what fixtures do not show (divergence inside a wave, loops
//! whose lanes leave one by one, barriers).

use super::*;
use crate::ir::op::{BinOp, CmpPred, Dx, SysValue};
use crate::ir::{Block, BlockId, Cfg, Def, Inst, Op, Phi, Terminator, Type, Value};

/// An environment that answers from a hash of what it is asked, and records every call with
/// the raw bits of its values.
struct Rec {
    /// Flattened thread id (compute) or vertex number.
    lane: u32,
    /// The environment says the lane is a helper.
    helper: bool,
    size: [u32; 3],
    log: Vec<String>,
}

fn hash(xs: &[u64]) -> u64 {
    xs.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, x| (h ^ x).wrapping_mul(0x100_0000_01b3))
}

fn bits(v: &Val) -> u64 {
    match v {
        Val::Int(i) => *i,
        Val::F32(f) => u64::from(f.to_bits()),
        Val::F64(f) => f.to_bits(),
        Val::Handle(h) => u64::from(*h),
        _ => 0,
    }
}

impl Rec {
    fn new(lane: u32, size: [u32; 3]) -> Rec {
        Rec { lane, helper: false, size, log: Vec::new() }
    }
    /// A small float: loops bounded by inputs stay short.
    fn small(&self, xs: &[u64]) -> f32 {
        (hash(&[&[u64::from(self.lane)], xs].concat()) % 32) as f32 * 0.25 - 2.0
    }
    fn words(&self, xs: &[u64]) -> [u32; 4] {
        [0, 1, 2, 3].map(|k| (hash(&[&[u64::from(self.lane), k], xs].concat()) % 16) as u32)
    }
}

impl Env for Rec {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, vertex: Option<u32>) -> R<Val> {
        self.log.push(format!("in {sig} {row} {col} {vertex:?}"));
        Ok(Val::F32(self.small(&[u64::from(sig), u64::from(row), u64::from(col)])))
    }
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> R<()> {
        self.log.push(format!("out {sig} {row} {col} {:#x}", bits(value)));
        Ok(())
    }
    fn create_handle(&mut self, class: u8, range: u32, index: u32) -> R<u32> {
        Ok((u32::from(class) * 100).wrapping_add(range).wrapping_add(index.wrapping_mul(1000)))
    }
    fn cbuffer_row(&mut self, handle: u32, row: u32) -> R<[u32; 4]> {
        Ok([0, 1, 2, 3].map(|k| self.small(&[u64::from(handle), u64::from(row), k]).to_bits()))
    }
    fn sample(&mut self, t: u32, s: u32, c: [f32; 4], o: [i32; 3], mode: SampleMode, cmp: Option<f32>) -> R<[f32; 4]> {
        self.log.push(format!("sample {t} {s} {:?} {o:?} {mode:?} {cmp:?}", c.map(f32::to_bits)));
        Ok([c[0], c[1], c[0] + c[1], 1.0])
    }
    fn discard(&mut self) -> R<()> {
        self.log.push("discard".into());
        Ok(())
    }
    fn gather(&mut self, t: u32, s: u32, c: [f32; 4], o: [i32; 2], ch: u32, cmp: Option<f32>) -> R<[f32; 4]> {
        self.log.push(format!("gather {t} {s} {:?} {o:?} {ch} {cmp:?}", c.map(f32::to_bits)));
        Ok([1.0, 2.0, 3.0, 4.0])
    }
    fn texture_load(&mut self, t: u32, m: u32, c: [i32; 3], o: [i32; 3]) -> R<[u32; 4]> {
        self.log.push(format!("tload {t} {m} {c:?} {o:?}"));
        Ok(self.words(&[u64::from(t), c[0] as u64, c[1] as u64]))
    }
    fn texture_store(&mut self, t: u32, c: [i32; 3], v: [u32; 4], mask: u8) -> R<()> {
        self.log.push(format!("tstore {t} {c:?} {v:?} {mask}"));
        Ok(())
    }
    fn buffer_load(&mut self, b: u32, i: u32, o: u32) -> R<[u32; 4]> {
        self.log.push(format!("bload {b} {i} {o}"));
        Ok(self.words(&[u64::from(b), u64::from(i), u64::from(o)]))
    }
    fn buffer_store(&mut self, b: u32, i: u32, o: u32, v: [u32; 4], mask: u8) -> R<()> {
        self.log.push(format!("bstore {b} {i} {o} {v:?} {mask}"));
        Ok(())
    }
    fn dimensions(&mut self, r: u32, mip: u32) -> R<[u32; 4]> {
        self.log.push(format!("dims {r} {mip}"));
        Ok([16, 8, 2, 4])
    }
    fn atomic(&mut self, r: u32, op: u32, c: [i32; 3], v: u32) -> R<u32> {
        self.log.push(format!("atomic {r} {op} {c:?} {v}"));
        Ok(self.words(&[u64::from(r), u64::from(v)])[0])
    }
    fn atomic_cmpxchg(&mut self, r: u32, c: [i32; 3], cmp: u32, new: u32) -> R<u32> {
        self.log.push(format!("cmpxchg {r} {c:?} {cmp} {new}"));
        Ok(cmp)
    }
    fn update_counter(&mut self, uav: u32, delta: i32) -> R<u32> {
        self.log.push(format!("counter {uav} {delta}"));
        Ok(self.lane)
    }
    fn system_value(&mut self, opcode: u32, c: u32) -> R<u32> {
        let c = c.min(2) as usize;
        let [sx, sy, _] = self.size;
        let t = [self.lane % sx, self.lane / sx % sy, self.lane / (sx * sy)];
        let g = [1, 2, 3];
        Ok(match opcode {
            93 => g[c] * self.size[c] + t[c],
            94 => g[c],
            95 => t[c],
            96 => self.lane,
            _ => 7,
        })
    }
    fn sample_count(&mut self) -> R<u32> {
        Ok(4)
    }
    fn sample_position(&mut self, i: u32) -> R<[f32; 2]> {
        Ok([i as f32 * 0.125, -0.25])
    }
    fn emit_stream(&mut self, s: u32) -> R<()> {
        self.log.push(format!("emit {s}"));
        Ok(())
    }
    fn cut_stream(&mut self, s: u32) -> R<()> {
        self.log.push(format!("cut {s}"));
        Ok(())
    }
    fn is_helper(&self) -> bool {
        self.helper
    }
}

fn fixture(name: &str) -> crate::dxil::Program {
    let path = format!("{}/../../tests/fixtures/dxil/{name}", env!("CARGO_MANIFEST_DIR"));
    crate::dxil::parse(&std::fs::read(&path).unwrap()).unwrap()
}

/// Both interpreters' results: Ok, or the kind of error (a timeout for the shaders that never
/// end), with each invocation's calls.
fn outcome(r: R<()>, envs: Vec<Rec>) -> (Result<(), String>, Vec<Vec<String>>) {
    let r = r.map_err(|e| match e {
        ExecError::Timeout | ExecError::StepBudget => "endless".to_string(),
        e => e.to_string(),
    });
    // The calls made before a timeout depend on the speed; only the fact counts.
    let logs = if r.is_ok() { envs.into_iter().map(|e| e.log).collect() } else { Vec::new() };
    (r, logs)
}

fn deadline() -> Option<std::time::Instant> {
    Some(std::time::Instant::now() + std::time::Duration::from_millis(300))
}

/// Whether the entry point of `p` calls a wave or quad operation (which only the wave
/// interpreter runs: the differential tests leave those fixtures out).
fn uses_waves(p: &crate::dxil::Program) -> bool {
    let f = &p.module.functions[p.dx.entry_points[0].function];
    super::program(&p.module, f)
        .is_ok_and(|x| x.ir.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.op, Op::Wave { .. })))
}

/// Every compute fixture (one thread group, the whole group; waves of 8, 3, 32 and 64 lanes) and
/// every vertex fixture (12 vertices as one wave of 8 and one of 4) make the same calls with
/// the same bits as each invocation alone (waves of one lane).
#[test]
fn waves_equal_invocations_alone_on_every_compute_and_vertex_fixture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cs.dxil") || n.ends_with(".vs.dxil"))
        .collect();
    names.sort();
    let (mut n, mut calls) = (0, 0);
    for name in &names {
        let p = fixture(name);
        let e = &p.dx.entry_points[0];
        let f = &p.module.functions[e.function];
        if super::program(&p.module, f).is_err() {
            assert!(crate::dxil::support::check(&p.module).is_err(), "{name}");
            continue;
        }
        if uses_waves(&p) {
            // Wave operations: their results depend on the wave (tests of their own below).
            continue;
        }
        let compute = name.ends_with(".cs.dxil");
        let size = e.num_threads.unwrap_or([12, 1, 1]);
        let count = (size[0] * size[1] * size[2]).min(256);
        let make = || (0..count).map(|i| Rec::new(i, size)).collect::<Vec<Rec>>();
        let mut old = make();
        let r = with_deadline(deadline(), || {
            if compute {
                let mut refs: Vec<&mut dyn Env> = old.iter_mut().map(|e| e as &mut dyn Env).collect();
                run_group_waves(&p.module, f, &mut refs, 1)
            } else {
                old.iter_mut().try_for_each(|e| run(&p.module, f, e))
            }
        });
        let want = outcome(r, old);
        calls += want.1.iter().map(Vec::len).sum::<usize>();
        for width in [8, 3, 32, 64] {
            let mut new = make();
            let r = with_deadline(deadline(), || {
                let mut refs: Vec<&mut dyn Env> = new.iter_mut().map(|e| e as &mut dyn Env).collect();
                run_group_waves(&p.module, f, &mut refs, width)
            });
            let got = outcome(r, new);
            assert_eq!(got.0, want.0, "{name}, waves of {width}\n{}", super::program(&p.module, f).unwrap().ir);
            for (i, (g, w)) in got.1.iter().zip(&want.1).enumerate() {
                assert_eq!(
                    g,
                    w,
                    "{name}, waves of {width}, invocation {i}\n{}",
                    super::program(&p.module, f).unwrap().ir
                );
            }
        }
        n += 1;
    }
    assert!(n >= 20 && calls > 2000, "{n} fixtures compared, {calls} calls");
    eprintln!("{n} fixtures compared, {calls} calls");
}

/// Every pixel-shader fixture, 16 pixels as four quads: quad by quad (waves of four lanes), and
/// as one wave of 16 lanes; each pixel's calls (its samples' derivatives included) are the
/// same.
#[test]
fn a_wave_of_quads_equals_its_quads_alone_on_every_pixel_fixture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".ps.dxil"))
        .collect();
    names.sort();
    let (mut n, mut calls) = (0, 0);
    for name in &names {
        let p = fixture(name);
        let f = &p.module.functions[p.dx.entry_points[0].function];
        if super::program(&p.module, f).is_err() || uses_waves(&p) {
            continue;
        }
        let make = || (0..16).map(|i| Rec::new(i, [4, 4, 1])).collect::<Vec<Rec>>();
        let mut old = make();
        let r = with_deadline(deadline(), || {
            old.chunks_mut(4).try_for_each(|q| {
                let [a, b, c, d] = q else { unreachable!() };
                run_quad(&p.module, f, [a, b, c, d])
            })
        });
        let want = outcome(r, old);
        calls += want.1.iter().map(Vec::len).sum::<usize>();
        let mut new = make();
        let r = with_deadline(deadline(), || {
            let mut refs: Vec<&mut dyn Env> = new.iter_mut().map(|e| e as &mut dyn Env).collect();
            run_quads(&p.module, f, &mut refs)
        });
        let got = outcome(r, new);
        let ir = &super::program(&p.module, f).unwrap().ir;
        assert_eq!(got.0, want.0, "{name}\n{ir}");
        for (i, (g, w)) in got.1.iter().zip(&want.1).enumerate() {
            assert_eq!(g, w, "{name}, pixel {i}\n{ir}");
        }
        n += 1;
    }
    assert!(n >= 12 && calls > 500, "{n} fixtures compared, {calls} calls");
}

// Hand-made programs.

fn func(values: Vec<(Type, Def)>, blocks: Vec<Block>) -> crate::ir::Function {
    let mut f = crate::ir::Function { name: "t".into(), values: vec![], blocks, globals: vec![], cfg: Cfg::default() };
    for (t, d) in values {
        f.add_value(t, d);
    }
    crate::passes::cfg::analyse(&mut f);
    f
}

fn int(v: u64) -> (Type, Def) {
    (Type::Scalar(Scalar::I32), Def::Const([v].into()))
}

fn inst(op: Op, args: &[u32], dst: Option<u32>) -> Inst {
    Inst { op, args: args.iter().map(|a| Value(*a)).collect(), dst: dst.map(Value) }
}

fn reg(s: Scalar) -> (Type, Def) {
    (Type::Scalar(s), Def::Inst)
}

/// Runs `f` as one wave of `n` lanes (`Rec` lane i has flattened thread id i).
fn run_wave(f: crate::ir::Function, n: u32, grouped: bool) -> (R<()>, Vec<Rec>) {
    let p = Program::new(f).unwrap();
    let mut envs: Vec<Rec> = (0..n).map(|i| Rec::new(i, [n, 1, 1])).collect();
    let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
    let mut group = vec![0u64; p.group_cells as usize];
    let r = Wave::new(&p, n as usize, grouped).run(&mut PerLane(&mut refs), &mut group).map(|_| ());
    drop(refs);
    (r, envs)
}

#[test]
fn divergent_lanes_run_both_sides_and_reconverge() {
    // %0 = tid; %1 = tid & 1; %2 = (%1 == 0); br %2, bb1, bb2
    // bb1: %3 = tid * 10 -> bb3;  bb2: %4 = tid + 100 -> bb3
    // bb3: %5 = phi [%3, bb1], [%4, bb2]; store %5 -> output 0 (col 0); the join runs once.
    let f = func(
        vec![
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::Bool),
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::I32),
            int(1),
            int(0),
            int(10),
            int(100),
            (Type::Scalar(Scalar::I8), Def::Const([0].into())),
        ],
        vec![
            Block {
                phis: vec![],
                insts: vec![
                    inst(Op::Dx(Dx::SysValue(SysValue::FlattenedThreadIdInGroup)), &[], Some(0)),
                    inst(Op::Binary(BinOp::And, Scalar::I32), &[0, 6], Some(1)),
                    inst(Op::Cmp(CmpPred::IEq, Scalar::I32), &[1, 7], Some(2)),
                ],
                term: Terminator::CondBr { cond: Value(2), then: BlockId(1), otherwise: BlockId(2) },
            },
            Block {
                phis: vec![],
                insts: vec![inst(Op::Binary(BinOp::Mul, Scalar::I32), &[0, 8], Some(3))],
                term: Terminator::Br(BlockId(3)),
            },
            Block {
                phis: vec![],
                insts: vec![inst(Op::Binary(BinOp::Add, Scalar::I32), &[0, 9], Some(4))],
                term: Terminator::Br(BlockId(3)),
            },
            Block {
                phis: vec![Phi { dst: Value(5), incoming: [(BlockId(1), Value(3)), (BlockId(2), Value(4))].into() }],
                insts: vec![inst(Op::Dx(Dx::StoreOutput), &[7, 7, 10, 5], None)],
                term: Terminator::Ret,
            },
        ],
    );
    assert_eq!(f.cfg.ipdom[0], Some(BlockId(3)), "{f}");
    let text = f.to_string();
    let (r, envs) = run_wave(f, 8, false);
    r.unwrap();
    for (i, e) in envs.iter().enumerate() {
        let want = if i % 2 == 0 { i * 10 } else { i + 100 };
        assert_eq!(e.log, [format!("out 0 0 0 {want:#x}")], "lane {i}\n{text}");
    }
}

#[test]
fn loop_lanes_leave_one_by_one() {
    // bb0: tid -> bb1; bb1: %1 = phi [0, bb0], [%2, bb1]; %3 = phi [0, bb0], [%4, bb1];
    //   %2 = %1 + 1; %4 = %3 + %1; %5 = %2 > tid; br %5, bb2, bb1
    // bb2: out %4 (= 0 + 1 + ... + tid).
    let f = func(
        vec![
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::Bool),
            int(0),
            int(1),
            (Type::Scalar(Scalar::I8), Def::Const([0].into())),
        ],
        vec![
            Block {
                phis: vec![],
                insts: vec![inst(Op::Dx(Dx::SysValue(SysValue::FlattenedThreadIdInGroup)), &[], Some(0))],
                term: Terminator::Br(BlockId(1)),
            },
            Block {
                phis: vec![
                    Phi { dst: Value(1), incoming: [(BlockId(0), Value(6)), (BlockId(1), Value(2))].into() },
                    Phi { dst: Value(3), incoming: [(BlockId(0), Value(6)), (BlockId(1), Value(4))].into() },
                ],
                insts: vec![
                    inst(Op::Binary(BinOp::Add, Scalar::I32), &[1, 7], Some(2)),
                    inst(Op::Binary(BinOp::Add, Scalar::I32), &[3, 1], Some(4)),
                    inst(Op::Cmp(CmpPred::IUgt, Scalar::I32), &[2, 0], Some(5)),
                ],
                term: Terminator::CondBr { cond: Value(5), then: BlockId(2), otherwise: BlockId(1) },
            },
            Block {
                phis: vec![],
                insts: vec![inst(Op::Dx(Dx::StoreOutput), &[6, 6, 8, 4], None)],
                term: Terminator::Ret,
            },
        ],
    );
    assert_eq!(f.cfg.loops.len(), 1);
    let (r, envs) = run_wave(f, 16, false);
    r.unwrap();
    for (i, e) in envs.iter().enumerate() {
        let want = i * (i + 1) / 2;
        assert_eq!(e.log, [format!("out 0 0 0 {want:#x}")], "lane {i}");
    }
}

#[test]
fn lanes_leaving_a_loop_at_different_iterations_meet_at_its_exit() {
    // bb0: tid, f = float(tid) -> bb1
    // bb1: i = phi [0, bb0], [i + 1, bb6]; br (i & 1) == 0, bb2, bb3
    // bb2 -> bb6;  bb3: br i >= tid, bb4 (exit), bb5;  bb5 -> bb6;  bb6: i + 1 -> bb1
    // bb4: out DerivCoarseX(f)
    // Lanes 0, 1 leave at i = 1, lanes 2, 3 at i = 3. Reverse post-order puts bb4 before bb2
    // and bb6; had lanes 0 and 1 run it alone, the quad would be incomplete and the
    // derivative 0. Waiting for the others there, the quad is whole: d(tid)/dx = 1.
    use crate::ir::op::{CastOp, Deriv};
    let f = func(
        vec![
            reg(Scalar::I32),                                   // 0 tid
            reg(Scalar::F32),                                   // 1 f
            reg(Scalar::I32),                                   // 2 i
            reg(Scalar::I32),                                   // 3 i + 1
            reg(Scalar::I32),                                   // 4 i & 1
            reg(Scalar::Bool),                                  // 5 even
            reg(Scalar::Bool),                                  // 6 i >= tid
            reg(Scalar::F32),                                   // 7 derivative
            int(0),                                             // 8
            int(1),                                             // 9
            (Type::Scalar(Scalar::I8), Def::Const([0].into())), // 10
        ],
        vec![
            Block {
                phis: vec![],
                insts: vec![
                    inst(Op::Dx(Dx::SysValue(SysValue::FlattenedThreadIdInGroup)), &[], Some(0)),
                    inst(Op::Cast(CastOp::UIToFP, Scalar::I32, Scalar::F32), &[0], Some(1)),
                ],
                term: Terminator::Br(BlockId(1)),
            },
            Block {
                phis: vec![Phi { dst: Value(2), incoming: [(BlockId(0), Value(8)), (BlockId(6), Value(3))].into() }],
                insts: vec![
                    inst(Op::Binary(BinOp::And, Scalar::I32), &[2, 9], Some(4)),
                    inst(Op::Cmp(CmpPred::IEq, Scalar::I32), &[4, 8], Some(5)),
                ],
                term: Terminator::CondBr { cond: Value(5), then: BlockId(2), otherwise: BlockId(3) },
            },
            Block { phis: vec![], insts: vec![], term: Terminator::Br(BlockId(6)) },
            Block {
                phis: vec![],
                insts: vec![inst(Op::Cmp(CmpPred::IUge, Scalar::I32), &[2, 0], Some(6))],
                term: Terminator::CondBr { cond: Value(6), then: BlockId(4), otherwise: BlockId(5) },
            },
            Block {
                phis: vec![],
                insts: vec![
                    inst(Op::Dx(Dx::Deriv(Deriv::CoarseX)), &[1], Some(7)),
                    inst(Op::Dx(Dx::StoreOutput), &[8, 8, 10, 7], None),
                ],
                term: Terminator::Ret,
            },
            Block { phis: vec![], insts: vec![], term: Terminator::Br(BlockId(6)) },
            Block {
                phis: vec![],
                insts: vec![inst(Op::Binary(BinOp::Add, Scalar::I32), &[2, 9], Some(3))],
                term: Terminator::Br(BlockId(1)),
            },
        ],
    );
    let r = &f.cfg.rpo_index;
    assert!(r[4] < r[2] && r[4] < r[6], "{r:?}\n{f}");
    let (res, envs) = run_wave(f, 4, false);
    res.unwrap();
    for (i, e) in envs.iter().enumerate() {
        assert_eq!(e.log, [format!("out 0 0 0 {:#x}", 1.0f32.to_bits())], "lane {i}");
    }
}

#[test]
fn a_group_barrier_stops_a_wave_until_it_resumes() {
    // bb0: out 0; barrier; out 1; ret — the first run stops every lane at the barrier.
    let f = func(
        vec![int(0), int(1), (Type::Scalar(Scalar::I8), Def::Const([0].into()))],
        vec![Block {
            phis: vec![],
            insts: vec![
                inst(Op::Dx(Dx::StoreOutput), &[0, 0, 2, 0], None),
                inst(Op::Dx(Dx::Barrier { group_sync: true }), &[], None),
                inst(Op::Dx(Dx::StoreOutput), &[0, 0, 2, 1], None),
            ],
            term: Terminator::Ret,
        }],
    );
    let p = Program::new(f).unwrap();
    let mut envs: Vec<Rec> = (0..4).map(|i| Rec::new(i, [4, 1, 1])).collect();
    let mut wave = Wave::new(&p, 4, true);
    let mut group = Vec::new();
    {
        let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
        assert!(!wave.run(&mut PerLane(&mut refs), &mut group).unwrap(), "stopped at the barrier");
    }
    assert!(envs.iter().all(|e| e.log == ["out 0 0 0 0x0"]));
    {
        let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
        assert!(wave.run(&mut PerLane(&mut refs), &mut group).unwrap(), "done");
    }
    assert!(envs.iter().all(|e| e.log == ["out 0 0 0 0x0", "out 0 0 0 0x1"]));
}

#[test]
fn malformed_dx_calls_read_zeros_and_never_panic() {
    // dx.op calls with no operands, with results DXIL would not declare (a void LoadInput, a
    // scalar GetDimensions that writes four), then a ResRet read: operands read 0, stray
    // results go to scratch slots.
    let f = func(
        vec![reg(Scalar::I32), (Type::Agg([Scalar::F32; 5].into()), Def::Inst)],
        vec![Block {
            phis: vec![],
            insts: vec![
                inst(Op::Dx(Dx::StoreOutput), &[], None),
                inst(Op::Dx(Dx::LoadInput { vertex: true }), &[], None),
                inst(Op::Dx(Dx::GetDimensions), &[], Some(0)),
                inst(Op::Dx(Dx::TwoOut(crate::ir::op::TwoOut::UDiv)), &[], None),
                inst(Op::Dx(Dx::Sample(crate::ir::op::SampleKind::Grad)), &[], Some(1)),
                inst(Op::Dx(Dx::FUnary(crate::ir::op::FUnary::Sqrt)), &[], None),
            ],
            term: Terminator::Ret,
        }],
    );
    let (r, envs) = run_wave(f, 4, false);
    r.unwrap();
    assert_eq!(envs[0].log[0], "out 0 0 0 0x0");
    assert_eq!(envs[0].log[1], "in 0 0 0 Some(0)");
    assert_eq!(envs[0].log[2], "dims 0 0");
}

#[test]
fn helper_lanes_are_those_the_environment_names_and_those_that_discard() {
    // Lane 3 of a quad is outside the primitive; lanes 0 and 2 (even tid) discard.
    let f = func(
        vec![reg(Scalar::I32), reg(Scalar::I32), reg(Scalar::Bool), int(1), int(0)],
        vec![Block {
            phis: vec![],
            insts: vec![
                inst(Op::Dx(Dx::SysValue(SysValue::FlattenedThreadIdInGroup)), &[], Some(0)),
                inst(Op::Binary(BinOp::And, Scalar::I32), &[0, 3], Some(1)),
                inst(Op::Cmp(CmpPred::IEq, Scalar::I32), &[1, 4], Some(2)),
                inst(Op::Dx(Dx::Discard), &[2], None),
            ],
            term: Terminator::Ret,
        }],
    );
    let p = Program::new(f).unwrap();
    let mut envs: Vec<Rec> = (0..4).map(|i| Rec::new(i, [4, 1, 1])).collect();
    envs[3].helper = true;
    let mut wave = Wave::new(&p, 4, false);
    let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
    assert!(wave.run(&mut PerLane(&mut refs), &mut []).unwrap());
    assert_eq!(wave.helpers(), 0b1101);
}

/// The values of [`wave_program`]: registers 0..=6, then constants.
const W_TID: u32 = 0;
const W_ONE: u32 = 7;
const W_ZERO: u32 = 8;
const W_TRUE: u32 = 11;

/// bb0: %0 = tid; %1 = tid & 1; %2 = %1 == 0; br %2, bb1, bb2
/// bb1: %3 = `then_op`(tid) -> bb3;  bb2: %4 = `then_op`(tid) -> bb3
/// bb3: %5 = phi [%3, bb1], [%4, bb2]; %6 = `join_op`; out col 0 = %5, col 1 = %6.
fn wave_program(side: Inst, other: Inst, join: Inst) -> crate::ir::Function {
    func(
        vec![
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::Bool),
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::I32),
            reg(Scalar::I32),
            int(1),
            int(0),
            (Type::Scalar(Scalar::I8), Def::Const([0].into())),
            (Type::Scalar(Scalar::I8), Def::Const([1].into())),
            (Type::Scalar(Scalar::Bool), Def::Const([1].into())),
        ],
        vec![
            Block {
                phis: vec![],
                insts: vec![
                    inst(Op::Dx(Dx::SysValue(SysValue::FlattenedThreadIdInGroup)), &[], Some(W_TID)),
                    inst(Op::Binary(BinOp::And, Scalar::I32), &[W_TID, W_ONE], Some(1)),
                    inst(Op::Cmp(CmpPred::IEq, Scalar::I32), &[1, W_ZERO], Some(2)),
                ],
                term: Terminator::CondBr { cond: Value(2), then: BlockId(1), otherwise: BlockId(2) },
            },
            Block { phis: vec![], insts: vec![side], term: Terminator::Br(BlockId(3)) },
            Block { phis: vec![], insts: vec![other], term: Terminator::Br(BlockId(3)) },
            Block {
                phis: vec![Phi { dst: Value(5), incoming: [(BlockId(1), Value(3)), (BlockId(2), Value(4))].into() }],
                insts: vec![
                    join,
                    inst(Op::Dx(Dx::StoreOutput), &[W_ZERO, W_ZERO, 9, 5], None),
                    inst(Op::Dx(Dx::StoreOutput), &[W_ZERO, W_ZERO, 10, 6], None),
                ],
                term: Terminator::Ret,
            },
        ],
    )
}

fn wave_inst(op: wave::WaveOp, ty: Scalar, args: &[u32], dst: u32) -> Inst {
    inst(Op::Wave { op, ty }, args, Some(dst))
}

fn sum() -> wave::WaveOp {
    wave::WaveOp::Active { op: wave::Reduce::Sum, signed: false }
}

/// WaveActiveSum inside each side of a divergent branch sums only that side's lanes; after
/// the branch the lanes are one wave again (WaveActiveCountBits(true) counts all eight).
#[test]
fn a_wave_reduction_in_a_divergent_branch_sees_its_side_only() {
    let f = wave_program(
        wave_inst(sum(), Scalar::I32, &[W_TID], 3),
        wave_inst(sum(), Scalar::I32, &[W_TID], 4),
        wave_inst(wave::WaveOp::CountBits, Scalar::Bool, &[W_TRUE], 6),
    );
    let text = f.to_string();
    assert!(text.contains("= wave.WaveActiveOp sum unsigned i32 %0"), "{text}");
    let (r, envs) = run_wave(f, 8, false);
    r.unwrap();
    for (i, e) in envs.iter().enumerate() {
        // Even lanes: 0 + 2 + 4 + 6; odd lanes: 1 + 3 + 5 + 7.
        let want = if i % 2 == 0 { 12 } else { 16 };
        assert_eq!(e.log, [format!("out 0 0 0 {want:#x}"), "out 0 0 1 0x8".into()], "lane {i}\n{text}");
    }
}

/// A pixel quad whose lane 3 is a helper: QuadReadAcrossX reads it (lane 2 gets 3), while
/// WaveActiveCountBits and WaveActiveSum leave it out (3 lanes; 0 + 1 + 2). The helper lane still
/// gets the results.
#[test]
fn quad_reads_see_helper_lanes_and_wave_reductions_do_not() {
    let x = wave::WaveOp::Quad(wave::QuadDir::X);
    // Each side sums its lanes; the join, all four lanes again, reads across X.
    let f = wave_program(
        wave_inst(sum(), Scalar::I32, &[W_TID], 3),
        wave_inst(sum(), Scalar::I32, &[W_TID], 4),
        wave_inst(x, Scalar::I32, &[W_TID], 6),
    );
    let p = Program::new(f).unwrap();
    let mut envs: Vec<Rec> = (0..4).map(|i| Rec::new(i, [2, 2, 1])).collect();
    envs[3].helper = true;
    let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
    let mut group = vec![0u64; p.group_cells as usize];
    let mut w = Wave::new(&p, 4, false);
    w.run(&mut PerLane(&mut refs), &mut group).unwrap();
    assert_eq!(w.helpers(), 0b1000);
    drop(refs);
    // Sums: even side lanes 0 and 2 (0 + 2); odd side lane 1 alone (lane 3 is a helper).
    let want = [(2, 1), (1, 0), (2, 3), (1, 2)];
    for (i, e) in envs.iter().enumerate() {
        let (s, across) = want[i];
        assert_eq!(e.log, [format!("out 0 0 0 {s:#x}"), format!("out 0 0 1 {across:#x}")], "lane {i}\n{}", p.ir);
    }
    // Uniform flow: CountBits(true) counts the three non-helper lanes.
    let f = wave_program(
        wave_inst(wave::WaveOp::CountBits, Scalar::Bool, &[W_TRUE], 3),
        wave_inst(wave::WaveOp::CountBits, Scalar::Bool, &[W_TRUE], 4),
        wave_inst(wave::WaveOp::CountBits, Scalar::Bool, &[W_TRUE], 6),
    );
    let p = Program::new(f).unwrap();
    let mut envs: Vec<Rec> = (0..4).map(|i| Rec::new(i, [2, 2, 1])).collect();
    envs[3].helper = true;
    let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
    Wave::new(&p, 4, false).run(&mut PerLane(&mut refs), &mut group).unwrap();
    drop(refs);
    // Each side: even lanes 0, 2 (2); odd lanes 1 (1, lane 3 a helper); joined: 3.
    for (i, e) in envs.iter().enumerate() {
        let side = if i % 2 == 0 { 2 } else { 1 };
        assert_eq!(e.log, [format!("out 0 0 0 {side:#x}"), "out 0 0 1 0x3".into()], "lane {i}");
    }
}

/// A group of 64 threads in waves of 4, 16, 32 and 64 lanes (what `[WaveSize]` picks), and of
/// 8 with a last wave of 6 threads: WaveGetLaneCount is the wave's size, each wave sums its own
/// threads, and a partial wave's missing lanes are inactive (CountBits(true) = 6).
#[test]
fn waves_of_a_group_have_the_size_asked_for() {
    let count = wave_inst(wave::WaveOp::GetLaneCount, Scalar::I32, &[], 6);
    let f = wave_program(
        wave_inst(wave::WaveOp::CountBits, Scalar::Bool, &[W_TRUE], 3),
        wave_inst(wave::WaveOp::CountBits, Scalar::Bool, &[W_TRUE], 4),
        count.clone(),
    );
    let p = Program::new(f).unwrap();
    for (threads, width) in [(64u32, 4usize), (64, 16), (64, 32), (64, 64), (14, 8)] {
        let mut envs: Vec<Rec> = (0..threads).map(|i| Rec::new(i, [threads, 1, 1])).collect();
        let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
        let mut group = vec![0u64; p.group_cells as usize];
        for c in refs.chunks_mut(width) {
            Wave::new(&p, c.len(), true).with_lanes(width).run(&mut PerLane(c), &mut group).unwrap();
        }
        drop(refs);
        for (i, e) in envs.iter().enumerate() {
            // Each side of the branch holds half of the wave's threads.
            let in_wave = (threads as usize - i / width * width).min(width);
            let side = (in_wave + usize::from(i % 2 == 0)) / 2;
            let want = [format!("out 0 0 0 {side:#x}"), format!("out 0 0 1 {width:#x}")];
            assert_eq!(e.log, want, "thread {i}, waves of {width}");
        }
    }
}

/// A pixel of DXC's ps_derivatives: SV_Position in, the two targets' components recorded.
struct Pixel {
    x: u32,
    y: u32,
    helper: bool,
    out: [[f32; 4]; 2],
}

impl Env for Pixel {
    fn load_input(&mut self, _sig: u32, _row: u32, col: u8, _vertex: Option<u32>) -> R<Val> {
        Ok(Val::F32([self.x as f32 + 0.5, self.y as f32 + 0.5, 0.5, 1.0][col.min(3) as usize]))
    }
    fn store_output(&mut self, sig: u32, _row: u32, col: u8, value: &Val) -> R<()> {
        if let (Some(t), Val::F32(v)) = (self.out.get_mut(sig as usize), value) {
            t[col.min(3) as usize] = *v;
        }
        Ok(())
    }
    fn create_handle(&mut self, _class: u8, _range: u32, _index: u32) -> R<u32> {
        Ok(0)
    }
    fn cbuffer_row(&mut self, _handle: u32, _row: u32) -> R<[u32; 4]> {
        Ok([0; 4])
    }
    fn sample(&mut self, _: u32, _: u32, _: [f32; 4], _: [i32; 3], _: SampleMode, _: Option<f32>) -> R<[f32; 4]> {
        Ok([0.0; 4])
    }
    fn discard(&mut self) -> R<()> {
        Ok(())
    }
    fn is_helper(&self) -> bool {
        self.helper
    }
}

/// DXC's ps_derivatives (QuadReadAcrossX/Y/Diagonal beside ddx/ddy) over a 4x4 block as four
/// quads of one wave, the top-left quad's bottom-right pixel a helper lane: every pixel gets what
/// its HLSL comment works out, f = px^2 + 3 py: RT0 = (4 (px / 2) + 1, 3, 4 (px / 2) + 1, 3),
/// RT1 = (4 (px / 2) + 4, px ^ 1, py ^ 1, (px ^ 1) + 8 (py ^ 1)); the quad reads of the helper's
/// neighbours read the helper's values.
#[test]
fn pixel_quads_read_across_their_lanes_helpers_included() {
    let p = fixture("ps_derivatives.ps.dxil");
    let f = &p.module.functions[p.dx.entry_points[0].function];
    let mut px: Vec<Pixel> = Vec::new();
    for (qx, qy) in [(0, 0), (2, 0), (0, 2), (2, 2)] {
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            px.push(Pixel { x: qx + dx, y: qy + dy, helper: false, out: [[f32::NAN; 4]; 2] });
        }
    }
    px[3].helper = true;
    let mut refs: Vec<&mut dyn Env> = px.iter_mut().map(|e| e as &mut dyn Env).collect();
    run_quads(&p.module, f, &mut refs).unwrap();
    drop(refs);
    for e in &px {
        let (x, y) = (e.x, e.y);
        let d = (4 * (x / 2) + 1) as f32;
        let rt0 = [d, 3.0, d, 3.0];
        let rt1 = [d + 3.0, (x ^ 1) as f32, (y ^ 1) as f32, ((x ^ 1) + 8 * (y ^ 1)) as f32];
        assert_eq!(e.out, [rt0, rt1], "pixel ({x}, {y})");
    }
}

/// Malformed wave operations give defined results, never a panic: a Ballot whose operand is
/// missing (it reads the zero slot: no lane votes) into a one-slot result, a ReadLaneAt of a
/// lane past the wave, in a wave of one invocation (WaveGetLaneCount 4, three lanes inactive).
#[test]
fn malformed_wave_operations_are_defined() {
    let ballot = inst(Op::Wave { op: wave::WaveOp::Ballot, ty: Scalar::Bool }, &[], Some(3));
    let read = wave_inst(wave::WaveOp::ReadLaneAt, Scalar::I32, &[W_TID, W_ONE], 4);
    let count = wave_inst(wave::WaveOp::GetLaneCount, Scalar::I32, &[], 6);
    let f = wave_program(ballot, read, count);
    for n in [1u32, 8] {
        let (r, envs) = run_wave(f.clone(), n, false);
        r.unwrap();
        for (i, e) in envs.iter().enumerate() {
            // Even lanes: the empty ballot; odd lanes: lane 1 of their side (the odd lanes).
            let side = if i % 2 == 0 { 0 } else { 1 };
            let lanes = if n == 1 { 4 } else { n };
            assert_eq!(e.log, [format!("out 0 0 0 {side:#x}"), format!("out 0 0 1 {lanes:#x}")], "lane {i} of {n}");
        }
    }
}

/// The JIT against the interpreter on every fixture: compute groups as waves of 8 and 32,
/// vertices as waves of 8, pixels as one wave of four quads; every call of every invocation
/// the same, bit for bit (`crate::jit`'s tests do the same with random programs).
#[test]
fn the_jit_makes_the_interpreters_calls_on_every_fixture() {
    use crate::jit::{with_mode, Mode};
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
    // Mesa's fixtures, the wave-op ones and DXC's (`fixture` takes paths under dxil/).
    let mut names: Vec<String> = ["", "wave/", "dxc/"]
        .iter()
        .flat_map(|sub| {
            std::fs::read_dir(format!("{dir}/{sub}"))
                .into_iter()
                .flatten()
                .map(move |e| format!("{sub}{}", e.unwrap().file_name().to_string_lossy()))
        })
        .filter(|n| n.ends_with(".cs.dxil") || n.ends_with(".vs.dxil") || n.ends_with(".ps.dxil"))
        .collect();
    names.sort();
    let (mut n, mut calls, mut native) = (0, 0, 0);
    for name in &names {
        let p = fixture(name);
        let e = &p.dx.entry_points[0];
        let f = &p.module.functions[e.function];
        let Ok(prog) = super::program(&p.module, f) else { continue };
        let pixel = name.ends_with(".ps.dxil");
        let size = if pixel { [4, 4, 1] } else { e.num_threads.unwrap_or([12, 1, 1]) };
        let count = (size[0] * size[1] * size[2]).min(256);
        for width in if pixel { vec![16] } else { vec![8, 32] } {
            let go = |mode| {
                let mut envs: Vec<Rec> = (0..count).map(|i| Rec::new(i, size)).collect();
                let r = with_mode(mode, || {
                    with_deadline(deadline(), || {
                        let mut refs: Vec<&mut dyn Env> = envs.iter_mut().map(|e| e as &mut dyn Env).collect();
                        if pixel {
                            run_quads(&p.module, f, &mut refs)
                        } else if name.ends_with(".cs.dxil") {
                            run_group_waves(&p.module, f, &mut refs, width)
                        } else {
                            run_waves(&p.module, f, &mut refs, width)
                        }
                    })
                });
                outcome(r, envs)
            };
            let (want, got) = (go(Mode::Interp), go(Mode::Jit));
            assert_eq!(got.0, want.0, "{name}, waves of {width}\n{}", prog.ir);
            for (i, (g, w)) in got.1.iter().zip(&want.1).enumerate() {
                assert_eq!(g, w, "{name}, waves of {width}, invocation {i}\n{}", prog.ir);
            }
            calls += want.1.iter().map(Vec::len).sum::<usize>();
        }
        native += prog.jit.get(prog, if pixel { 16 } else { 8 }).map_or(0, |c| c.native);
        n += 1;
    }
    assert!(n >= 100 && calls > 5000 && native > 300, "{n} fixtures, {calls} calls, {native} native instructions");
    eprintln!("{n} fixtures, {calls} calls, {native} native instructions");
}

/// CBufferLoadLegacy's row by the result's element width: `CBufRet.f64` takes two doubles, each
/// from two of the row's words (lo, hi), `CBufRet.f16.8` eight halves, two per word, lowest
/// first. `Rec` answers row r of handle h with the f32 bits of small values; the stored values
/// are worked out from those words.
#[test]
fn cbuffer_rows_of_64_and_16_bit_values() {
    use crate::ir::interface::ResourceClass;
    for (ty, n) in [(Scalar::F64, 2u32), (Scalar::I64, 2), (Scalar::F16, 8), (Scalar::I16, 8)] {
        // %0 = handle (CBV range 0, index 0); %1 = row 0 of it; %2.. = its elements; out each.
        let mut values = vec![(Type::Handle, Def::Inst), (Type::Agg(vec![ty; n as usize].into()), Def::Inst)];
        values.extend((0..n).map(|_| reg(ty)));
        values.extend([int(0), (Type::Scalar(Scalar::Bool), Def::Const([0].into()))]);
        values.extend((0..8).map(|k| (Type::Scalar(Scalar::I8), Def::Const([k].into()))));
        let (zero, fals, col) = (2 + n, 3 + n, 4 + n);
        let mut insts = vec![
            inst(Op::Dx(Dx::CreateHandle(ResourceClass::Cbv)), &[zero, zero, fals], Some(0)),
            inst(Op::Dx(Dx::CBufferLoadLegacy), &[0, zero], Some(1)),
        ];
        for c in 0..n {
            insts.push(inst(Op::Extract(c), &[1], Some(2 + c)));
            insts.push(inst(Op::Dx(Dx::StoreOutput), &[zero, zero, col + c, 2 + c], None));
        }
        let f = func(values, vec![Block { phis: vec![], insts, term: Terminator::Ret }]);
        let (r, envs) = run_wave(f, 1, false);
        r.unwrap();
        let mut rec = Rec::new(0, [1, 1, 1]);
        let row = rec.cbuffer_row(200, 0).unwrap();
        let want: Vec<String> = (0..n)
            .map(|c| {
                let v = match ty.bits() {
                    64 => u64::from(row[2 * c as usize]) | u64::from(row[2 * c as usize + 1]) << 32,
                    _ => u64::from((row[c as usize / 2] >> (16 * (c % 2))) & 0xFFFF),
                };
                // Outputs are logged as the Val the interpreter hands over: doubles as f64
                // bits, halves as the f32 of the half.
                let logged = match ty {
                    Scalar::F16 => u64::from(alu::half_to_f32(v as u16).to_bits()),
                    _ => v,
                };
                format!("out 0 0 {c} {logged:#x}")
            })
            .collect();
        assert_eq!(envs[0].log, want, "{ty:?}");
    }
}

/// CBufferLoad (58): the value of the result's type at a byte offset, from the row holding
/// it: a 32-bit value at byte 20 (row 1, word 1), a 64-bit one at byte 40 (row 2, words 2 and
/// 3), a 16-bit one at byte 18 (row 1, the high half of word 0).
#[test]
fn cbuffer_load_reads_a_value_at_a_byte_offset() {
    use crate::ir::interface::ResourceClass;
    for (ty, offset) in [(Scalar::I32, 20u64), (Scalar::I64, 40), (Scalar::I16, 18)] {
        let values = vec![
            (Type::Handle, Def::Inst),
            reg(ty),
            int(0),
            (Type::Scalar(Scalar::Bool), Def::Const([0].into())),
            int(offset),
            int(4),
            (Type::Scalar(Scalar::I8), Def::Const([0].into())),
        ];
        let insts = vec![
            inst(Op::Dx(Dx::CreateHandle(ResourceClass::Cbv)), &[2, 2, 3], Some(0)),
            inst(Op::Dx(Dx::CBufferLoad), &[0, 4, 5], Some(1)),
            inst(Op::Dx(Dx::StoreOutput), &[2, 2, 6, 1], None),
        ];
        let f = func(values, vec![Block { phis: vec![], insts, term: Terminator::Ret }]);
        let (r, envs) = run_wave(f, 1, false);
        r.unwrap();
        let mut rec = Rec::new(0, [1, 1, 1]);
        let row = rec.cbuffer_row(200, (offset / 16) as u32).unwrap();
        let want = match ty {
            Scalar::I32 => u64::from(row[1]),
            Scalar::I64 => u64::from(row[2]) | u64::from(row[3]) << 32,
            _ => u64::from(row[0] >> 16),
        };
        assert_eq!(envs[0].log, [format!("out 0 0 0 {want:#x}")], "{ty:?}");
    }
}

/// FirstbitHi, FirstbitSHi, FirstbitLo and Countbits of an i64 operand give an i32 counted over
/// the operand's 64 bits (DXIL's `unaryBits.i64`): x = 0x0000_0100_0000_0000 (bit 40) has its
/// highest bit 23 places below the MSB, its lowest at 40, one bit set; -x's highest bit
/// differing from the sign is bit 39 (24 below the MSB).
#[test]
fn bit_operations_of_64_bit_operands_count_64_bits() {
    use crate::ir::op::IUnary;
    let x: u64 = 1 << 40;
    for (op, v, want) in [
        (IUnary::FirstbitHi, x, 23u64),
        (IUnary::FirstbitLo, x, 40),
        (IUnary::Countbits, x | 1, 2),
        (IUnary::FirstbitSHi, x.wrapping_neg(), 24),
        (IUnary::FirstbitHi, 0, 0xFFFF_FFFF),
    ] {
        let values = vec![
            reg(Scalar::I32),
            (Type::Scalar(Scalar::I64), Def::Const([v].into())),
            int(0),
            (Type::Scalar(Scalar::I8), Def::Const([0].into())),
        ];
        let insts =
            vec![inst(Op::Dx(Dx::IUnary(op)), &[1], Some(0)), inst(Op::Dx(Dx::StoreOutput), &[2, 2, 3, 0], None)];
        let f = func(values, vec![Block { phis: vec![], insts, term: Terminator::Ret }]);
        let (r, envs) = run_wave(f, 1, false);
        r.unwrap();
        assert_eq!(envs[0].log, [format!("out 0 0 0 {want:#x}")], "{op:?} of {v:#x}");
    }
}

/// RawBufferLoad64 of four values reads the four words at the index and the four 16 bytes on
/// (each value two words, low first); RawBufferStore64 of values 0, 1 and 3 writes words 0..3
/// at the index and words 2, 3 (value 3) 16 bytes on, nothing of value 2.
#[test]
fn raw_buffer_accesses_of_64_bit_values_move_two_words_each() {
    use crate::ir::interface::ResourceClass;
    let agg = Type::Agg(vec![Scalar::I64, Scalar::I64, Scalar::I64, Scalar::I64, Scalar::I32].into());
    let mut values = vec![(Type::Handle, Def::Inst), (agg, Def::Inst)];
    values.extend((0..4).map(|_| reg(Scalar::I64)));
    values.extend([
        int(0),
        (Type::Scalar(Scalar::Bool), Def::Const([0].into())),
        int(8),
        (Type::Scalar(Scalar::I8), Def::Const([0xF].into())),
        int(4),
        int(100),
        (Type::Scalar(Scalar::I8), Def::Const([0b1011].into())),
    ]);
    let (zero, fals, eight, all, four, hundred, some) = (6, 7, 8, 9, 10, 11, 12);
    let mut insts = vec![
        inst(Op::Dx(Dx::CreateHandle(ResourceClass::Uav)), &[zero, zero, fals], Some(0)),
        inst(Op::Dx(Dx::RawBufferLoad64 { raw: true }), &[0, eight, zero, all, four], Some(1)),
    ];
    insts.extend((0..4).map(|c| inst(Op::Extract(c), &[1], Some(2 + c))));
    insts.push(inst(Op::Dx(Dx::RawBufferStore64 { raw: true }), &[0, hundred, zero, 2, 3, 4, 5, some, four], None));
    let f = func(values, vec![Block { phis: vec![], insts, term: Terminator::Ret }]);
    let (r, envs) = run_wave(f, 1, false);
    r.unwrap();
    let rec = Rec::new(0, [1, 1, 1]);
    let h = 100; // Rec's handle of (UAV, range 0, index 0)
    let (a, b) = (rec.words(&[h, 8, 0]), rec.words(&[h, 24, 0]));
    assert_eq!(
        envs[0].log,
        [
            format!("bload {h} 8 0"),
            format!("bload {h} 24 0"),
            format!("bstore {h} 100 0 {:?} 15", a),
            format!("bstore {h} 116 0 {:?} 12", [0, 0, b[2], b[3]]),
        ]
    );
}
