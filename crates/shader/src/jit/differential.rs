//! The JIT against the interpreter (the oracle), for the tests and the `jit` fuzz target:
//! random programs of every operation the JIT compiles natively (and of the constant-buffer
//! reads it calls the environment for directly), over inputs that include the
//! awkward values (NaN, infinities, signed zeros, denormals, integer extremes), with a
//! divergent branch and phis, run in both modes at several wave widths; every output bit must
//! agree ([`compare`]), NaNs counting as one (which NaN an operation on NaNs gives is not
//! defined).

use super::{with_mode, Mode};
use crate::interp::program::Program;
use crate::interp::{Env, ExecError, PerLane, SampleMode, Val, Wave};
use crate::ir::op::{BinOp, CastOp, CmpPred, Dx, FUnary, MinMax};
use crate::ir::{Block, BlockId, Cfg, Def, Function, Inst, Op, Phi, Scalar, Terminator, Type, Value};

type R<T> = Result<T, ExecError>;

/// Inputs from a table of awkward values and hashed bits; outputs logged as bits.
struct Io {
    lane: u64,
    seed: u64,
    out: Vec<(u32, u32, u8, u64)>,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

const AWKWARD: [u32; 24] = [
    0,
    0x8000_0000, // -0.0
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x7fc0_0000, // NaN
    0xffc0_0001, // -NaN with a payload
    0x7f80_0001, // signalling NaN
    0x7f80_0000, // inf
    0xff80_0000, // -inf
    0x0000_0001, // smallest denormal
    0x807f_ffff, // largest negative denormal
    0x7fff_ffff,
    0x4f00_0000, // 2^31
    0xcf00_0001, // just below -2^31
    0x3f00_0000, // 0.5
    0x4020_0000, // 2.5
    0xc020_0000, // -2.5
    0x501502f9,  // 1e10
    1,
    2,
    31,
    33,
    0xffff_ffff,
    0x7f7f_ffff, // f32::MAX
];

impl Env for Io {
    fn load_input(&mut self, sig: u32, row: u32, col: u8, _: Option<u32>) -> R<Val> {
        let h = mix(self.seed ^ mix(self.lane * 131 + u64::from(sig) * 17 + u64::from(row) * 5 + u64::from(col)));
        let v = if h & 3 == 0 { (h >> 8) as u32 } else { AWKWARD[(h >> 8) as usize % AWKWARD.len()] };
        Ok(Val::Int(u64::from(v)))
    }
    fn store_output(&mut self, sig: u32, row: u32, col: u8, value: &Val) -> R<()> {
        let b = match value {
            Val::Int(i) => *i,
            // Which NaN comes out of an operation on NaNs is the hardware's choice (x86 keeps
            // the first operand's, and a compiler may swap a product's operands); D3D defines
            // none: every NaN is one.
            Val::F32(f) if f.is_nan() => 0x7fc0_0000,
            Val::F32(f) => u64::from(f.to_bits()),
            Val::F64(f) => f.to_bits(),
            _ => u64::MAX,
        };
        self.out.push((sig, row, col, b));
        Ok(())
    }
    /// Handles differ between lanes (every third lane shares one), so that constant-buffer
    /// reads see waves of several buffers.
    fn create_handle(&mut self, class: u8, range: u32, index: u32) -> R<u32> {
        Ok((self.lane % 3) as u32 * 100 + u32::from(class) * 1000 + range * 10 + index)
    }
    fn cbuffer_row(&mut self, handle: u32, row: u32) -> R<[u32; 4]> {
        Ok([0u64, 1, 2, 3].map(|c| mix(u64::from(handle) * 31 + u64::from(row) * 7 + c) as u32))
    }
    fn sample(&mut self, _: u32, _: u32, c: [f32; 4], _: [i32; 3], _: SampleMode, _: Option<f32>) -> R<[f32; 4]> {
        Ok(c)
    }
    fn discard(&mut self) -> R<()> {
        Ok(())
    }
}

/// A little random program builder.
struct Gen<'d> {
    rng: u64,
    /// The fuzzer's bytes, read first.
    data: &'d [u8],
    f: Function,
    /// Values by kind: Bool, I32, F32.
    pool: [Vec<Value>; 3],
    insts: Vec<Inst>,
    i8_zero: Value,
    inputs: u32,
    /// The seed, for the parts drawn apart from the main sequence ([`Gen::cbuffer_read`]).
    seed: u64,
}

const KINDS: [Scalar; 3] = [Scalar::Bool, Scalar::I32, Scalar::F32];

impl Gen<'_> {
    fn new(data: &[u8]) -> Gen<'_> {
        let seed = data.iter().fold(0u64, |h, &b| mix(h ^ u64::from(b)));
        let mut f =
            Function { name: "rand".into(), values: vec![], blocks: vec![], globals: vec![], cfg: Cfg::default() };
        let i8_zero = f.add_value(Type::Scalar(Scalar::I8), Def::Const([0].into()));
        Gen { rng: seed, data, f, pool: Default::default(), insts: vec![], i8_zero, inputs: 0, seed }
    }
    fn next(&mut self) -> u64 {
        if let Some((&b, rest)) = self.data.split_first() {
            self.data = rest;
            return u64::from(b) | (mix(self.rng ^ u64::from(b)) << 8);
        }
        self.rng = mix(self.rng.wrapping_add(0x9e37_79b9_7f4a_7c15));
        self.rng
    }
    fn pick(&mut self, k: usize) -> Value {
        if self.pool[k].is_empty() || self.next().is_multiple_of(8) {
            // A constant, or a new input.
            let s = KINDS[k];
            if self.next().is_multiple_of(2) {
                let bits = match s {
                    Scalar::Bool => self.next() & 1,
                    _ => u64::from(AWKWARD[self.next() as usize % AWKWARD.len()]),
                };
                return self.f.add_value(Type::Scalar(s), Def::Const([bits].into()));
            }
            let v = self.f.add_value(Type::Scalar(s), Def::Inst);
            let c = |g: &mut Gen, x: u64| g.f.add_value(Type::Scalar(Scalar::I32), Def::Const([x].into()));
            let (sig, row) = (c(self, 0), c(self, u64::from(self.inputs)));
            self.inputs += 1;
            let col = self.i8_zero;
            let op = if s == Scalar::Bool { Scalar::I32 } else { s };
            if s == Scalar::Bool {
                let raw = self.f.add_value(Type::Scalar(op), Def::Inst);
                self.insts.push(Inst {
                    op: Op::Dx(Dx::LoadInput { vertex: false }),
                    args: [sig, row, col].into(),
                    dst: Some(raw),
                });
                self.insts.push(Inst {
                    op: Op::Cast(CastOp::Trunc, Scalar::I32, Scalar::Bool),
                    args: [raw].into(),
                    dst: Some(v),
                });
            } else {
                self.insts.push(Inst {
                    op: Op::Dx(Dx::LoadInput { vertex: false }),
                    args: [sig, row, col].into(),
                    dst: Some(v),
                });
            }
            self.pool[k].push(v);
            return v;
        }
        let n = self.pool[k].len();
        let i = n - 1 - (self.next() as usize % n.min(6));
        self.pool[k][i]
    }
    fn emit(&mut self, op: Op, args: Vec<Value>, k: usize) -> Value {
        let d = self.f.add_value(Type::Scalar(KINDS[k]), Def::Inst);
        self.insts.push(Inst { op, args: args.into(), dst: Some(d) });
        self.pool[k].push(d);
        d
    }
    /// One random native operation.
    fn op(&mut self) {
        use BinOp::*;
        use CmpPred::*;
        let r = self.next() % 14;
        match r {
            0 => {
                let ops = [Add, Sub, Mul, And, Or, Xor];
                let op = ops[self.next() as usize % ops.len()];
                let (a, b) = (self.pick(1), self.pick(1));
                self.emit(Op::Binary(op, Scalar::I32), vec![a, b], 1);
            }
            1 => {
                let ops = [Shl, LShr, AShr, UDiv, SDiv, URem, SRem];
                let op = ops[self.next() as usize % ops.len()];
                let a = self.pick(1);
                let b = if self.next().is_multiple_of(2) {
                    let sh = self.next() % 40;
                    self.f.add_value(Type::Scalar(Scalar::I32), Def::Const([sh].into()))
                } else {
                    self.pick(1)
                };
                self.emit(Op::Binary(op, Scalar::I32), vec![a, b], 1);
            }
            2 => {
                let ops = [FAdd, FSub, FMul, FDiv];
                let op = ops[self.next() as usize % 4];
                let (a, b) = (self.pick(2), self.pick(2));
                self.emit(Op::Binary(op, Scalar::F32), vec![a, b], 2);
            }
            3 => {
                let ops = [And, Or, Xor];
                let op = ops[self.next() as usize % 3];
                let (a, b) = (self.pick(0), self.pick(0));
                self.emit(Op::Binary(op, Scalar::Bool), vec![a, b], 0);
            }
            4 => {
                let ps = [IEq, INe, IUgt, IUge, IUlt, IUle, ISgt, ISge, ISlt, ISle];
                let p = ps[self.next() as usize % ps.len()];
                let (a, b) = (self.pick(1), self.pick(1));
                self.emit(Op::Cmp(p, Scalar::I32), vec![a, b], 0);
            }
            5 => {
                let ps =
                    [FFalse, FOeq, FOgt, FOge, FOlt, FOle, FOne, FOrd, FUno, FUeq, FUgt, FUge, FUlt, FUle, FUne, FTrue];
                let p = ps[self.next() as usize % ps.len()];
                let (a, b) = (self.pick(2), self.pick(2));
                self.emit(Op::Cmp(p, Scalar::F32), vec![a, b], 0);
            }
            6 => {
                let k = 1 + self.next() as usize % 2;
                let (c, a, b) = (self.pick(0), self.pick(k), self.pick(k));
                self.emit(Op::Select, vec![c, a, b], k);
            }
            7 => {
                let casts = [
                    (CastOp::ZExt, 0, 1),
                    (CastOp::SExt, 0, 1),
                    (CastOp::Trunc, 1, 0),
                    (CastOp::FPToSI, 2, 1),
                    (CastOp::FPToUI, 2, 1),
                    (CastOp::SIToFP, 1, 2),
                    (CastOp::UIToFP, 1, 2),
                    (CastOp::SIToFP, 0, 2),
                    (CastOp::UIToFP, 0, 2),
                ];
                let (op, from, to) = casts[self.next() as usize % casts.len()];
                let a = self.pick(from);
                self.emit(Op::Cast(op, KINDS[from], KINDS[to]), vec![a], to);
            }
            8 => {
                use FUnary::*;
                let ops = [FAbs, Saturate, Sqrt, Rsqrt, Frc, RoundNe, RoundNi, RoundPi, RoundZ];
                let op = ops[self.next() as usize % ops.len()];
                let a = self.pick(2);
                self.emit(Op::Dx(Dx::FUnary(op)), vec![a], 2);
            }
            9 => {
                let (a, b, c) = (self.pick(2), self.pick(2), self.pick(2));
                self.emit(Op::Dx(Dx::FMad), vec![a, b, c], 2);
            }
            10 => {
                let n = 2 + self.next() as usize % 3;
                let args: Vec<Value> = (0..2 * n).map(|_| self.pick(2)).collect();
                self.emit(Op::Dx(Dx::Dot(n as u8)), args, 2);
            }
            11 => {
                let ops = [MinMax::FMax, MinMax::FMin];
                let op = ops[self.next() as usize % 2];
                let (a, b) = (self.pick(2), self.pick(2));
                self.emit(Op::Dx(Dx::MinMax(op)), vec![a, b], 2);
            }
            12 => {
                let ops = [MinMax::IMax, MinMax::IMin, MinMax::UMax, MinMax::UMin];
                let op = ops[self.next() as usize % 4];
                let (a, b) = (self.pick(1), self.pick(1));
                self.emit(Op::Dx(Dx::MinMax(op)), vec![a, b], 1);
            }
            _ => {
                let (a, b, c) = (self.pick(1), self.pick(1), self.pick(1));
                let op = if self.next().is_multiple_of(2) { Dx::IMad } else { Dx::UMad };
                self.emit(Op::Dx(op), vec![a, b, c], 1);
            }
        }
    }
    fn store(&mut self, v: Value, row: u64) {
        let c = |g: &mut Gen, x: u64| g.f.add_value(Type::Scalar(Scalar::I32), Def::Const([x].into()));
        let (sig, row) = (c(self, 0), c(self, row));
        let col = self.i8_zero;
        self.insts.push(Inst { op: Op::Dx(Dx::StoreOutput), args: [sig, row, col, v].into(), dst: None });
    }
    /// A constant-buffer read (a CreateHandle of constant range and index, a CBufferLoadLegacy
    /// of a constant row) whose four words are stored at rows `out_row..`, drawn from its own
    /// numbers (`salt`) so that the rest of the program stays what the same bytes made before.
    fn cbuffer_read(&mut self, salt: u64, out_row: u64) {
        let r = mix(self.seed ^ salt);
        let c = |g: &mut Gen, x: u64| g.f.add_value(Type::Scalar(Scalar::I32), Def::Const([x].into()));
        let (range, index, row) = (c(self, r % 3), c(self, (r >> 8) % 2), c(self, (r >> 16) % 4));
        let nonuniform = self.f.add_value(Type::Scalar(Scalar::Bool), Def::Const([0].into()));
        let h = self.f.add_value(Type::Handle, Def::Inst);
        let class = crate::ir::interface::ResourceClass::Cbv;
        self.insts.push(Inst {
            op: Op::Dx(Dx::CreateHandle(class)),
            args: [range, index, nonuniform].into(),
            dst: Some(h),
        });
        let s = if (r >> 24) & 1 == 0 { Scalar::F32 } else { Scalar::I32 };
        let ret = self.f.add_value(Type::Agg([s; 4].into()), Def::Inst);
        self.insts.push(Inst { op: Op::Dx(Dx::CBufferLoadLegacy), args: [h, row].into(), dst: Some(ret) });
        for k in 0..4 {
            let v = self.f.add_value(Type::Scalar(s), Def::Inst);
            self.insts.push(Inst { op: Op::Extract(k), args: [ret].into(), dst: Some(v) });
            self.store(v, out_row + u64::from(k));
        }
    }
    fn block(&mut self, term: Terminator, phis: Vec<Phi>) {
        let insts = std::mem::take(&mut self.insts);
        self.f.blocks.push(Block { phis, insts, term });
    }
}

/// A random program made from `data`: a straight part, a divergent branch whose two sides
/// compute values that a phi joins, and a join that stores everything.
pub fn program(data: &[u8]) -> Function {
    let mut g = Gen::new(data);
    for k in 0..12 {
        g.op();
        if k % 5 == 4 {
            // A barrier: the program's blocks split there, the lanes go on (a wave of no
            // group never waits at one).
            let group_sync = g.next().is_multiple_of(2);
            g.insts.push(Inst { op: Op::Dx(Dx::Barrier { group_sync }), args: [].into(), dst: None });
        }
    }
    let cond = g.pick(0);
    let before: [Vec<Value>; 3] = g.pool.clone();
    g.block(Terminator::CondBr { cond, then: BlockId(1), otherwise: BlockId(2) }, vec![]);
    let mut sides = Vec::new();
    for _ in 0..2 {
        g.pool = before.clone();
        for _ in 0..8 {
            g.op();
        }
        let v = (g.pick(1), g.pick(2));
        sides.push(v);
        // Under the divergent branch: each side's lanes read a buffer.
        g.cbuffer_read(sides.len() as u64, 1000 + 10 * sides.len() as u64);
        g.block(Terminator::Br(BlockId(3)), vec![]);
    }
    g.pool = before;
    let pi = g.f.add_value(Type::Scalar(Scalar::I32), Def::Inst);
    let pf = g.f.add_value(Type::Scalar(Scalar::F32), Def::Inst);
    let phis = vec![
        Phi { dst: pi, incoming: [(BlockId(1), sides[0].0), (BlockId(2), sides[1].0)].into() },
        Phi { dst: pf, incoming: [(BlockId(1), sides[0].1), (BlockId(2), sides[1].1)].into() },
    ];
    g.pool[1].push(pi);
    g.pool[2].push(pf);
    for _ in 0..6 {
        g.op();
    }
    // Every lane reads one.
    g.cbuffer_read(0, 1000);
    let mut row = 0;
    for k in 0..3 {
        let vs = g.pool[k].clone();
        for v in vs {
            g.store(v, row);
            row += 1;
        }
    }
    g.block(Terminator::Ret, phis);
    crate::passes::cfg::analyse(&mut g.f);
    g.f
}

/// One lane's outputs: (signature element, row, column, bits).
pub type Outputs = Vec<(u32, u32, u8, u64)>;

/// Runs `p` as one wave of `n` lanes in `mode`, the inputs made from `seed`.
pub fn run(p: &Program, n: usize, seed: u64, mode: Mode) -> Vec<Outputs> {
    let mut io: Vec<Io> = (0..n).map(|l| Io { lane: l as u64, seed, out: vec![] }).collect();
    let mut refs: Vec<&mut dyn Env> = io.iter_mut().map(|e| e as &mut dyn Env).collect();
    let mut group = vec![0u64; p.group_cells as usize];
    let r = with_mode(mode, || Wave::new(p, n, false).run(&mut PerLane(&mut refs), &mut group));
    if let Err(e) = r {
        // Both modes run the same instructions: an error is one too.
        return vec![vec![(u32::MAX, 0, 0, e.to_string().len() as u64)]];
    }
    drop(refs);
    io.into_iter().map(|e| e.out).collect()
}

/// Runs the program of `data` under the interpreter and the JIT in waves of 1, 3, 8, 13 and
/// 32 lanes; the first difference, with the program printed, is the error.
pub fn compare(data: &[u8]) -> Result<usize, String> {
    let f = program(data);
    let text = f.to_string();
    let p = Program::new(f).map_err(|e| e.to_string())?;
    let seed = data.iter().fold(7u64, |h, &b| mix(h ^ u64::from(b)));
    let mut outputs = 0;
    for n in [1, 3, 8, 13, 32] {
        let want = run(&p, n, seed, Mode::Interp);
        let got = run(&p, n, seed, Mode::Jit);
        for (l, (g, w)) in got.iter().zip(&want).enumerate() {
            if g != w {
                let bad = g.iter().zip(w).find(|(a, b)| a != b);
                return Err(format!("{n} lanes, lane {l}: first difference (jit, interp) {bad:x?}\n{text}"));
            }
        }
        outputs += want.iter().map(Vec::len).sum::<usize>();
    }
    Ok(outputs)
}
