//! IR blocks → Cranelift functions (see the module doc of [`super`] for the shape).
//!
//! Within a segment every 32-bit value is a list of `I32X4` vectors, four lanes each (`i1`
//! as all-ones / zero lane masks, `float` as its bits); a value comes from the register file
//! the first time the segment reads it (two `I64X2` loads narrowed to one `I32X4`), from a
//! splat for a constant, or from the instruction that made it. A result is stored (widened
//! back to `u64` lanes, merged under the mask) only when something other than this segment's
//! own native code reads it: another block or segment, a branch condition, a phi copy, or an
//! instruction run through the interpreter.
//!
//! Native instructions compute exactly what `interp::alu` computes for the same bits (the
//! tests compare the two on every operation): integer arithmetic wraps, shifts by a constant
//! take it modulo 32, float arithmetic is IEEE binary32 in the same order of operations,
//! float-to-integer conversions saturate (NaN to 0).

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::{FloatCC, IntCC};
use cranelift_codegen::ir::{
    types, AbiParam, Block, ConstantData, Endianness, InstBuilder, MemFlagsData, Signature, Type, UserFuncName, Value,
};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};

use crate::interp::program::{Program, XInst, XTerm};
use crate::ir::op::{BinOp, CastOp, CmpPred, Dx, DxBitcast, FUnary, MinMax};
use crate::ir::{Op, Scalar};

/// A compiled segment: block, first instruction, function.
pub(crate) struct Segment {
    pub block: u32,
    pub start: u32,
    pub id: FuncId,
}

/// What [`compile`] made.
pub(crate) struct Lowered {
    pub segments: Vec<Segment>,
    pub native: usize,
    pub called: usize,
    /// The operations run through the interpreter, by name, and how many of each.
    pub called_ops: std::collections::BTreeMap<String, usize>,
}

/// The host's instruction set, optimising for speed.
pub(crate) fn isa() -> Result<OwnedTargetIsa, String> {
    let mut fb = settings::builder();
    for (k, v) in [("opt_level", "speed"), ("use_colocated_libcalls", "false"), ("is_pic", "false")] {
        fb.set(k, v).map_err(|e| format!("cranelift flag {k}: {e}"))?;
    }
    let ib = cranelift_native::builder().map_err(|e| format!("host not supported: {e}"))?;
    ib.finish(settings::Flags::new(fb)).map_err(|e| format!("cranelift: {e}"))
}

/// How a 32-bit lane holds a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum K {
    /// `i1`: all ones or zero (memory: 1 or 0).
    B,
    /// `i32`.
    I,
    /// `float`.
    F,
}

fn kind(s: Scalar) -> Option<K> {
    match s {
        Scalar::Bool => Some(K::B),
        Scalar::I32 => Some(K::I),
        Scalar::F32 => Some(K::F),
        _ => None,
    }
}

/// Whether the JIT computes `i` itself (else it calls the interpreter for it).
pub(crate) fn native(i: &XInst) -> bool {
    let a = |j: usize| i.arg_ty.get(j).copied().and_then(kind);
    let d = i.dst_ty.scalar().and_then(kind);
    let all = |n: usize, k: K| (0..n).all(|j| a(j) == Some(k) && i.arg_slots.get(j) == Some(&1));
    match &i.op {
        Op::Binary(op, s) => {
            use BinOp::*;
            let s = kind(*s);
            d == s
                && all(2, s.unwrap_or(K::I))
                && match (op, s) {
                    (Add | Sub | Mul, Some(K::I)) => true,
                    (And | Or | Xor, Some(K::I | K::B)) => true,
                    (Shl | LShr | AShr, Some(K::I)) => i.imm.get(1).is_some_and(Option::is_some),
                    (FAdd | FSub | FMul | FDiv, Some(K::F)) => true,
                    _ => false,
                }
        }
        Op::Cmp(p, s) => {
            let s = kind(*s);
            d == Some(K::B)
                && all(2, s.unwrap_or(K::I))
                && match s {
                    Some(K::I) => !p.is_float(),
                    Some(K::B) => matches!(p, CmpPred::IEq | CmpPred::INe),
                    Some(K::F) => p.is_float(),
                    None => false,
                }
        }
        Op::Select => {
            let n = i.dst_ty.slots();
            a(0) == Some(K::B)
                && n > 0
                && i.arg_slots.get(1) == Some(&n)
                && i.arg_slots.get(2) == Some(&n)
                && (0..n).all(|k| kind(i.dst_ty.slot(k)).is_some())
        }
        Op::Cast(op, from, to) => matches!(
            (op, kind(*from), kind(*to)),
            (CastOp::ZExt | CastOp::SExt, Some(K::B), Some(K::I))
                | (CastOp::Trunc, Some(K::I), Some(K::B))
                | (CastOp::FPToSI | CastOp::FPToUI, Some(K::F), Some(K::I))
                | (CastOp::SIToFP | CastOp::UIToFP, Some(K::I | K::B), Some(K::F))
        ),
        Op::Insert(_) => {
            let n = i.dst_ty.slots();
            n > 0
                && i.arg_slots.len() >= 2
                && (0..n).all(|k| kind(i.dst_ty.slot(k)).is_some())
                && i.arg_ty.iter().take(2).all(|s| kind(*s).is_some())
        }
        Op::Dx(dx) => match dx {
            Dx::FUnary(op) => {
                use FUnary::*;
                matches!(op, FAbs | Saturate | Sqrt | RoundNe | RoundNi | RoundPi | RoundZ)
                    && d == Some(K::F)
                    && all(1, K::F)
            }
            Dx::FMad => d == Some(K::F) && all(3, K::F),
            Dx::Dot(n) => d == Some(K::F) && (2..=4).contains(n) && all(2 * *n as usize, K::F),
            Dx::MinMax(MinMax::FMax | MinMax::FMin) => d == Some(K::F) && all(2, K::F),
            Dx::MinMax(_) => d == Some(K::I) && all(2, K::I),
            Dx::IMad | Dx::UMad => d == Some(K::I) && all(3, K::I),
            Dx::Bitcast(DxBitcast::I32ToF32) => d == Some(K::F) && all(1, K::I),
            Dx::Bitcast(DxBitcast::F32ToI32) => d == Some(K::I) && all(1, K::F),
            _ => false,
        },
        _ => false,
    }
}

/// The slots `i` reads (each operand's slots).
fn reads(i: &XInst) -> impl Iterator<Item = u32> + '_ {
    i.args.iter().zip(i.arg_slots.iter()).flat_map(|(&a, &n)| a..a.saturating_add(n))
}

/// Where a program's blocks split: after every group barrier.
fn segment_starts(insts: &[XInst]) -> Vec<u32> {
    let mut s = vec![0];
    for (k, i) in insts.iter().enumerate() {
        if matches!(i.op, Op::Dx(Dx::Barrier { .. })) {
            s.push(k as u32 + 1);
        }
    }
    s
}

/// For each slot: whether something other than native code of its own segment reads it.
fn external(p: &Program) -> Vec<bool> {
    let n = p.slots as usize;
    let mut seg_of = vec![u64::MAX; n];
    let key = |b: usize, k: usize, starts: &[u32]| -> u64 {
        let s = starts.iter().rposition(|&s| s as usize <= k).unwrap_or(0);
        ((b as u64) << 32) | s as u64
    };
    for (b, blk) in p.blocks.iter().enumerate() {
        let starts = segment_starts(&blk.insts);
        for (k, i) in blk.insts.iter().enumerate() {
            if native(i) {
                for s in i.dst..i.dst.saturating_add(i.dst_ty.slots()) {
                    if let Some(x) = seg_of.get_mut(s as usize) {
                        *x = key(b, k, &starts);
                    }
                }
            }
        }
    }
    let mut ext = vec![false; n];
    fn mark(ext: &mut [bool], s: u32) {
        if let Some(x) = ext.get_mut(s as usize) {
            *x = true;
        }
    }
    for (b, blk) in p.blocks.iter().enumerate() {
        let starts = segment_starts(&blk.insts);
        for (k, i) in blk.insts.iter().enumerate() {
            let here = key(b, k, &starts);
            let nat = native(i);
            for s in reads(i) {
                if !nat || seg_of.get(s as usize) != Some(&here) {
                    mark(&mut ext, s);
                }
            }
        }
        let mut edges: Vec<&crate::interp::program::Edge> = Vec::new();
        match &blk.term {
            XTerm::Br(e) => edges.push(e),
            XTerm::CondBr { cond, then, otherwise } => {
                mark(&mut ext, *cond);
                edges.extend([then, otherwise]);
            }
            XTerm::Switch { cond, default, cases } => {
                mark(&mut ext, *cond);
                edges.push(default);
                edges.extend(cases.iter().map(|(_, e)| e));
            }
            XTerm::Ret | XTerm::Unreachable => {}
        }
        for e in edges {
            for &(_, src) in e.copies.iter() {
                mark(&mut ext, src);
            }
        }
    }
    ext
}

/// Compiles every segment of `p` for waves of `width` lanes into `module`.
pub(crate) fn compile(module: &mut JITModule, p: &Program, width: usize) -> Result<Lowered, String> {
    if !(4..=128).contains(&width) || !width.is_power_of_two() {
        return Err(format!("width {width}"));
    }
    if (p.slots as u64) * (width as u64) * 8 >= i32::MAX as u64 {
        return Err("register file too large".into());
    }
    let ext = external(p);
    let consts: HashMap<u32, u64> = p.consts.iter().copied().collect();
    let ptr = module.target_config().pointer_type();
    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(ptr), AbiParam::new(ptr), AbiParam::new(types::I64), AbiParam::new(types::I64)]);
    sig.returns.push(AbiParam::new(types::I32));
    let mut exec_sig = Signature::new(CallConv::triple_default(module.isa().triple()));
    exec_sig.params.extend([AbiParam::new(ptr), AbiParam::new(types::I32)]);
    exec_sig.returns.push(AbiParam::new(types::I32));
    let mut ctx = module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    let mut out = Lowered { segments: Vec::new(), native: 0, called: 0, called_ops: Default::default() };
    for (b, blk) in p.blocks.iter().enumerate() {
        let starts = segment_starts(&blk.insts);
        for (si, &start) in starts.iter().enumerate() {
            let end = starts.get(si + 1).map_or(blk.insts.len(), |&e| e as usize);
            let id = module.declare_anonymous_function(&sig).map_err(|e| format!("cranelift: {e}"))?;
            ctx.func.signature = sig.clone();
            ctx.func.name = UserFuncName::user(0, id.as_u32());
            {
                let fb = FunctionBuilder::new(&mut ctx.func, &mut fbc);
                let mut s = Seg::new(fb, width, &consts, &ext, p.slots, exec_sig.clone());
                for k in start as usize..end {
                    let i = &blk.insts[k];
                    if native(i) {
                        s.native(i)?;
                        out.native += 1;
                    } else {
                        s.call(k as u32);
                        out.called += 1;
                        *out.called_ops.entry(op_name(&i.op)).or_default() += 1;
                    }
                }
                s.finish(module);
            }
            module.define_function(id, &mut ctx).map_err(|e| format!("cranelift: {e:?}"))?;
            module.clear_context(&mut ctx);
            out.segments.push(Segment { block: b as u32, start, id });
        }
    }
    Ok(out)
}

/// One segment being built.
struct Seg<'a, 'c> {
    b: FunctionBuilder<'a>,
    w: usize,
    consts: &'c HashMap<u32, u64>,
    ext: &'c [bool],
    slots: u32,
    ctx: Value,
    regs: Value,
    mask: [Value; 2],
    exec: Value,
    exec_sig: cranelift_codegen::ir::SigRef,
    ret: Block,
    /// Values of slots this segment has: their lane kind and vectors.
    cache: HashMap<u32, (K, Vec<Value>)>,
    /// Per pair of lanes (2p, 2p + 1): their `I64X2` store mask.
    pair_masks: Vec<Option<Value>>,
    err: Option<String>,
}

const V: Type = types::I32X4;

fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

impl<'a, 'c> Seg<'a, 'c> {
    fn new(
        mut b: FunctionBuilder<'a>,
        w: usize,
        consts: &'c HashMap<u32, u64>,
        ext: &'c [bool],
        slots: u32,
        exec_sig: Signature,
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let ret = b.create_block();
        b.append_block_param(ret, types::I32);
        let exec = b.ins().load(types::I64, mem(), p[0], 0);
        let exec_sig = b.import_signature(exec_sig);
        Seg {
            b,
            w,
            consts,
            ext,
            slots,
            ctx: p[0],
            regs: p[1],
            mask: [p[2], p[3]],
            exec,
            exec_sig,
            ret,
            cache: HashMap::new(),
            pair_masks: vec![None; w / 2],
            err: None,
        }
    }

    fn nv(&self) -> usize {
        self.w / 4
    }

    fn finish(mut self, module: &JITModule) {
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().jump(self.ret, &[zero.into()]);
        self.b.switch_to_block(self.ret);
        let r = self.b.block_params(self.ret)[0];
        self.b.ins().return_(&[r]);
        self.b.seal_all_blocks();
        self.b.finalize(module.target_config());
    }

    /// Instruction `k` through the interpreter; leaves the function when it parks or fails.
    fn call(&mut self, k: u32) {
        let kv = self.b.ins().iconst(types::I32, i64::from(k));
        let c = self.b.ins().call_indirect(self.exec_sig, self.exec, &[self.ctx, kv]);
        let r = self.b.inst_results(c)[0];
        let parked = self.b.ins().iconst(types::I32, i64::from(k) + 1);
        let failed = self.b.ins().iconst(types::I32, -1);
        let one = self.b.ins().icmp_imm_u(IntCC::Equal, r, 1);
        let code = self.b.ins().select(one, parked, failed);
        let cont = self.b.create_block();
        self.b.ins().brif(r, self.ret, &[code.into()], cont, &[]);
        self.b.switch_to_block(cont);
    }

    fn splat(&mut self, bits: u32) -> Value {
        let x = self.b.ins().iconst(types::I32, i64::from(bits as i32));
        self.b.ins().splat(V, x)
    }

    fn check(&mut self, s: u32) -> bool {
        if s >= self.slots {
            self.err.get_or_insert_with(|| format!("slot {s} past the register file"));
            return false;
        }
        true
    }

    /// The byte offset of lanes `4j..` of slot `s`.
    fn off(&self, s: u32, j: usize) -> i32 {
        ((s as usize * self.w + 4 * j) * 8) as i32
    }

    /// Slot `s` as kind `k`.
    fn get(&mut self, s: u32, k: K) -> Vec<Value> {
        if let Some((k0, v)) = self.cache.get(&s).cloned() {
            return self.convert(v, k0, k);
        }
        let nv = self.nv();
        let v: Vec<Value> = if let Some(&bits) = self.consts.get(&s) {
            let bits = if k == K::B {
                if bits & 1 != 0 {
                    u32::MAX
                } else {
                    0
                }
            } else {
                bits as u32
            };
            let x = self.splat(bits);
            vec![x; nv]
        } else if !self.check(s) {
            vec![self.splat(0); nv]
        } else {
            let mut v = Vec::with_capacity(nv);
            let mut narrow = [0u8; 16];
            for (i, n) in narrow.iter_mut().enumerate() {
                *n = ((i / 4) * 8 + i % 4) as u8;
            }
            let m = self.b.func.dfg.immediates.push(ConstantData::from(&narrow[..]));
            for j in 0..nv {
                let o = self.off(s, j);
                let lo = self.b.ins().load(types::I64X2, mem(), self.regs, o);
                let hi = self.b.ins().load(types::I64X2, mem(), self.regs, o + 16);
                let lo = self.b.ins().bitcast(types::I8X16, le(), lo);
                let hi = self.b.ins().bitcast(types::I8X16, le(), hi);
                let x = self.b.ins().shuffle(lo, hi, m);
                let mut x = self.b.ins().bitcast(V, le(), x);
                if k == K::B {
                    x = self.b.ins().ineg(x);
                }
                v.push(x);
            }
            v
        };
        self.cache.insert(s, (k, v.clone()));
        v
    }

    fn convert(&mut self, v: Vec<Value>, from: K, to: K) -> Vec<Value> {
        match (from, to) {
            (K::B, K::I | K::F) => {
                let one = self.splat(1);
                v.into_iter().map(|x| self.b.ins().band(x, one)).collect()
            }
            (K::I | K::F, K::B) => {
                let one = self.splat(1);
                let zero = self.splat(0);
                v.into_iter()
                    .map(|x| {
                        let x = self.b.ins().band(x, one);
                        self.b.ins().icmp(IntCC::NotEqual, x, zero)
                    })
                    .collect()
            }
            _ => v,
        }
    }

    /// The `I64X2` store mask of lanes 2q, 2q + 1.
    fn pair_mask(&mut self, q: usize) -> Value {
        if let Some(m) = self.pair_masks[q] {
            return m;
        }
        let word = self.mask[q / 32];
        let sh = self.b.ins().ushr_imm_u(word, ((2 * q) % 64) as i64);
        let v = self.b.ins().splat(types::I64X2, sh);
        let bits = self
            .b
            .func
            .dfg
            .constants
            .insert(ConstantData::from(&[1u64.to_le_bytes(), 2u64.to_le_bytes()].concat()[..]));
        let bits = self.b.ins().vconst(types::I64X2, bits);
        let x = self.b.ins().band(v, bits);
        let z = self.b.ins().iconst(types::I64, 0);
        let z = self.b.ins().splat(types::I64X2, z);
        let m = self.b.ins().icmp(IntCC::NotEqual, x, z);
        self.pair_masks[q] = Some(m);
        m
    }

    /// Defines slot `s` as `v` (of kind `k`), stored when read elsewhere.
    fn def(&mut self, s: u32, k: K, v: Vec<Value>) {
        if !self.check(s) {
            return;
        }
        if self.ext.get(s as usize).copied().unwrap_or(true) {
            let mem_v = self.convert(v.clone(), k, K::I);
            for (j, x) in mem_v.into_iter().enumerate() {
                let o = self.off(s, j);
                for (h, half) in [(0, false), (16, true)] {
                    let wide = if half { self.b.ins().uwiden_high(x) } else { self.b.ins().uwiden_low(x) };
                    let old = self.b.ins().load(types::I64X2, mem(), self.regs, o + h);
                    let m = self.pair_mask(2 * j + h as usize / 16);
                    let new = self.b.ins().bitselect(m, wide, old);
                    self.b.ins().store(mem(), new, self.regs, o + h);
                }
            }
        }
        self.cache.insert(s, (k, v));
    }

    fn arg(&mut self, i: &XInst, j: usize, k: K) -> Vec<Value> {
        self.get(i.args[j], k)
    }

    fn f(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(types::F32X4, le(), x)
    }

    fn i(&mut self, x: Value) -> Value {
        self.b.ins().bitcast(V, le(), x)
    }

    /// Lane-wise `g` over float operands, giving floats.
    fn fmap(&mut self, ops: &[Vec<Value>], g: impl Fn(&mut FunctionBuilder<'a>, &[Value]) -> Value) -> Vec<Value> {
        (0..self.nv())
            .map(|j| {
                let xs: Vec<Value> = ops.iter().map(|o| o[j]).collect::<Vec<_>>();
                let xs: Vec<Value> = xs.into_iter().map(|x| self.f(x)).collect();
                let r = g(&mut self.b, &xs);
                self.i(r)
            })
            .collect()
    }

    /// Lane-wise `g` over integer-lane operands (masks, ints, float bits as they are).
    fn imap(&mut self, ops: &[Vec<Value>], g: impl Fn(&mut FunctionBuilder<'a>, &[Value]) -> Value) -> Vec<Value> {
        (0..self.nv())
            .map(|j| {
                let xs: Vec<Value> = ops.iter().map(|o| o[j]).collect();
                g(&mut self.b, &xs)
            })
            .collect()
    }

    /// A float compare's lane mask.
    fn fcmp(b: &mut FunctionBuilder<'_>, p: CmpPred, x: Value, y: Value) -> Value {
        use CmpPred::*;
        let cc = match p {
            FOeq => FloatCC::Equal,
            FOgt => FloatCC::GreaterThan,
            FOge => FloatCC::GreaterThanOrEqual,
            FOlt => FloatCC::LessThan,
            FOle => FloatCC::LessThanOrEqual,
            FOrd => FloatCC::Ordered,
            FUno => FloatCC::Unordered,
            FUgt => FloatCC::UnorderedOrGreaterThan,
            FUge => FloatCC::UnorderedOrGreaterThanOrEqual,
            FUlt => FloatCC::UnorderedOrLessThan,
            FUle => FloatCC::UnorderedOrLessThanOrEqual,
            FUne => FloatCC::NotEqual,
            FOne => {
                let o = b.ins().fcmp(FloatCC::Ordered, x, y);
                let n = b.ins().fcmp(FloatCC::NotEqual, x, y);
                return b.ins().band(o, n);
            }
            FUeq => {
                let u = b.ins().fcmp(FloatCC::Unordered, x, y);
                let e = b.ins().fcmp(FloatCC::Equal, x, y);
                return b.ins().bor(u, e);
            }
            FFalse | FTrue => {
                // Every lane equal to itself or not: all ones; FFalse its complement.
                let e = b.ins().fcmp(FloatCC::Equal, x, x);
                let n = b.ins().fcmp(FloatCC::NotEqual, x, x);
                let all = b.ins().bor(e, n);
                return if p == FTrue { all } else { b.ins().bnot(all) };
            }
            _ => FloatCC::Equal,
        };
        b.ins().fcmp(cc, x, y)
    }

    fn icc(p: CmpPred) -> IntCC {
        use CmpPred::*;
        match p {
            IEq => IntCC::Equal,
            INe => IntCC::NotEqual,
            IUgt => IntCC::UnsignedGreaterThan,
            IUge => IntCC::UnsignedGreaterThanOrEqual,
            IUlt => IntCC::UnsignedLessThan,
            IUle => IntCC::UnsignedLessThanOrEqual,
            ISgt => IntCC::SignedGreaterThan,
            ISge => IntCC::SignedGreaterThanOrEqual,
            ISlt => IntCC::SignedLessThan,
            _ => IntCC::SignedLessThanOrEqual,
        }
    }

    /// A natively compiled instruction.
    fn native(&mut self, i: &XInst) -> Result<(), String> {
        let d = i.dst;
        match &i.op {
            Op::Binary(op, s) => {
                let k = kind(*s).ok_or("binary type")?;
                let (x, y) = (self.arg(i, 0, k), self.arg(i, 1, k));
                use BinOp::*;
                let r = match op {
                    FAdd | FSub | FMul | FDiv => self.fmap(&[x, y], |b, v| match op {
                        FAdd => b.ins().fadd(v[0], v[1]),
                        FSub => b.ins().fsub(v[0], v[1]),
                        FMul => b.ins().fmul(v[0], v[1]),
                        _ => b.ins().fdiv(v[0], v[1]),
                    }),
                    Shl | LShr | AShr => {
                        let sh = (i.imm[1].unwrap_or(0) % 32) as i64;
                        self.imap(&[x], |b, v| match op {
                            Shl => b.ins().ishl_imm_u(v[0], sh),
                            LShr => b.ins().ushr_imm_u(v[0], sh),
                            _ => b.ins().sshr_imm_u(v[0], sh),
                        })
                    }
                    _ => self.imap(&[x, y], |b, v| match op {
                        Add => b.ins().iadd(v[0], v[1]),
                        Sub => b.ins().isub(v[0], v[1]),
                        Mul => b.ins().imul(v[0], v[1]),
                        And => b.ins().band(v[0], v[1]),
                        Or => b.ins().bor(v[0], v[1]),
                        _ => b.ins().bxor(v[0], v[1]),
                    }),
                };
                self.def(d, k, r);
            }
            Op::Cmp(p, s) => {
                let k = kind(*s).ok_or("compare type")?;
                let (x, y) = (self.arg(i, 0, k), self.arg(i, 1, k));
                let p = *p;
                let r = if k == K::F {
                    let nv = self.nv();
                    (0..nv)
                        .map(|j| {
                            let (a, c) = (self.f(x[j]), self.f(y[j]));
                            Self::fcmp(&mut self.b, p, a, c)
                        })
                        .collect()
                } else {
                    self.imap(&[x, y], |b, v| b.ins().icmp(Self::icc(p), v[0], v[1]))
                };
                self.def(d, K::B, r);
            }
            Op::Select => {
                let c = self.arg(i, 0, K::B);
                for k in 0..i.dst_ty.slots() {
                    let kk = kind(i.dst_ty.slot(k)).ok_or("select type")?;
                    let t = self.get(i.args[1] + k, kk);
                    let e = self.get(i.args[2] + k, kk);
                    let r = self.imap(&[c.clone(), t, e], |b, v| b.ins().bitselect(v[0], v[1], v[2]));
                    self.def(d + k, kk, r);
                }
            }
            Op::Cast(op, from, _) => {
                let kf = kind(*from).ok_or("cast type")?;
                let x = self.arg(i, 0, kf);
                let (k, r) = match op {
                    CastOp::ZExt => (K::I, self.convert(x, K::B, K::I)),
                    CastOp::SExt => (K::I, x),
                    CastOp::Trunc => (K::B, self.convert(x, K::I, K::B)),
                    CastOp::FPToSI | CastOp::FPToUI => {
                        let signed = *op == CastOp::FPToSI;
                        (
                            K::I,
                            self.imap(&[x], |b, v| {
                                let f = b.ins().bitcast(types::F32X4, le(), v[0]);
                                if signed {
                                    b.ins().fcvt_to_sint_sat(V, f)
                                } else {
                                    b.ins().fcvt_to_uint_sat(V, f)
                                }
                            }),
                        )
                    }
                    _ => {
                        let signed = *op == CastOp::SIToFP;
                        // An i1 reads as 0 / 1 (unsigned) or 0 / -1 (signed): its mask.
                        let x = if kf == K::B && !signed { self.convert(x, K::B, K::I) } else { x };
                        (
                            K::F,
                            self.imap(&[x], |b, v| {
                                let f = if signed {
                                    b.ins().fcvt_from_sint(types::F32X4, v[0])
                                } else {
                                    b.ins().fcvt_from_uint(types::F32X4, v[0])
                                };
                                b.ins().bitcast(V, le(), f)
                            }),
                        )
                    }
                };
                self.def(d, k, r);
            }
            Op::Insert(at) => {
                let n = i.dst_ty.slots().min(i.arg_slots[0]);
                let vn = i.arg_slots[1].min(n.saturating_sub(*at));
                for k in 0..n {
                    let kk = kind(i.dst_ty.slot(k)).ok_or("insert type")?;
                    let src = if k >= *at && k < at + vn { i.args[1] + (k - at) } else { i.args[0] + k };
                    let v = self.get(src, kk);
                    self.def(d + k, kk, v);
                }
            }
            Op::Dx(dx) => self.dx(*dx, i)?,
            _ => return Err(format!("{:?} is not native", i.op)),
        }
        match self.err.take() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn dx(&mut self, dx: Dx, i: &XInst) -> Result<(), String> {
        let d = i.dst;
        match dx {
            Dx::FUnary(op) => {
                let x = self.arg(i, 0, K::F);
                let r = match op {
                    FUnary::FAbs => {
                        let m = self.splat(0x7FFF_FFFF);
                        self.imap(&[x], |b, v| b.ins().band(v[0], m))
                    }
                    FUnary::Saturate => {
                        let (zero, one) = (self.splat(0), self.splat(1.0f32.to_bits()));
                        self.imap(&[x], |b, v| {
                            // x < 0 → +0; then > 1 → 1; NaN → +0 (as alu's clamp; -0 stays).
                            let f = b.ins().bitcast(types::F32X4, le(), v[0]);
                            let (fz, fo) =
                                (b.ins().bitcast(types::F32X4, le(), zero), b.ins().bitcast(types::F32X4, le(), one));
                            let lt = b.ins().fcmp(FloatCC::LessThan, f, fz);
                            let t = b.ins().bitselect(lt, zero, v[0]);
                            let tf = b.ins().bitcast(types::F32X4, le(), t);
                            let gt = b.ins().fcmp(FloatCC::GreaterThan, tf, fo);
                            let t = b.ins().bitselect(gt, one, t);
                            let nan = b.ins().fcmp(FloatCC::Unordered, f, f);
                            b.ins().bitselect(nan, zero, t)
                        })
                    }
                    _ => self.fmap(&[x], |b, v| match op {
                        FUnary::Sqrt => b.ins().sqrt(v[0]),
                        FUnary::RoundNe => b.ins().nearest(v[0]),
                        FUnary::RoundNi => b.ins().floor(v[0]),
                        FUnary::RoundPi => b.ins().ceil(v[0]),
                        _ => b.ins().trunc(v[0]),
                    }),
                };
                self.def(d, K::F, r);
            }
            Dx::FMad => {
                let ops = [self.arg(i, 0, K::F), self.arg(i, 1, K::F), self.arg(i, 2, K::F)];
                let r = self.fmap(&ops, |b, v| {
                    let m = b.ins().fmul(v[0], v[1]);
                    b.ins().fadd(m, v[2])
                });
                self.def(d, K::F, r);
            }
            Dx::Dot(n) => {
                let n = n as usize;
                let ops: Vec<Vec<Value>> = (0..2 * n).map(|j| self.arg(i, j, K::F)).collect();
                let r = self.fmap(&ops, |b, v| {
                    let mut acc = b.ins().fmul(v[0], v[n]);
                    for k in 1..n {
                        let m = b.ins().fmul(v[k], v[n + k]);
                        acc = b.ins().fadd(acc, m);
                    }
                    acc
                });
                self.def(d, K::F, r);
            }
            Dx::MinMax(op) => {
                let k = if matches!(op, MinMax::FMax | MinMax::FMin) { K::F } else { K::I };
                let (x, y) = (self.arg(i, 0, k), self.arg(i, 1, k));
                let r = self.imap(&[x, y], |b, v| match op {
                    MinMax::FMax | MinMax::FMin => {
                        // alu::minmax: b when it is greater (less) or a is NaN, else a.
                        let (fa, fb) =
                            (b.ins().bitcast(types::F32X4, le(), v[0]), b.ins().bitcast(types::F32X4, le(), v[1]));
                        let cc = if op == MinMax::FMax { FloatCC::GreaterThan } else { FloatCC::LessThan };
                        let better = b.ins().fcmp(cc, fb, fa);
                        let nan = b.ins().fcmp(FloatCC::Unordered, fa, fa);
                        let take = b.ins().bor(better, nan);
                        b.ins().bitselect(take, v[1], v[0])
                    }
                    MinMax::IMax => b.ins().smax(v[0], v[1]),
                    MinMax::IMin => b.ins().smin(v[0], v[1]),
                    MinMax::UMax => b.ins().umax(v[0], v[1]),
                    MinMax::UMin => b.ins().umin(v[0], v[1]),
                });
                self.def(d, k, r);
            }
            Dx::IMad | Dx::UMad => {
                let ops = [self.arg(i, 0, K::I), self.arg(i, 1, K::I), self.arg(i, 2, K::I)];
                let r = self.imap(&ops, |b, v| {
                    let m = b.ins().imul(v[0], v[1]);
                    b.ins().iadd(m, v[2])
                });
                self.def(d, K::I, r);
            }
            Dx::Bitcast(c) => {
                let (from, to) = if c == DxBitcast::I32ToF32 { (K::I, K::F) } else { (K::F, K::I) };
                let x = self.arg(i, 0, from);
                self.def(d, to, x);
            }
            _ => return Err(format!("{dx:?} is not native")),
        }
        Ok(())
    }
}

/// An operation's name for the JIT's log: the dx.op name, else the variant's.
fn op_name(op: &Op) -> String {
    match op {
        Op::Dx(d) => d.name().to_string(),
        Op::Binary(b, s) => format!("{} {}", b.name(), s.name()),
        Op::Cast(c, a, b) => format!("{} {}->{}", c.name(), a.name(), b.name()),
        Op::Cmp(p, s) => format!("cmp {p:?} {}", s.name()),
        other => {
            let d = format!("{other:?}");
            d.split(['(', ' ', '{']).next().unwrap_or("?").to_string()
        }
    }
}
