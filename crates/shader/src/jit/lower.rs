//! A program → one Cranelift function that runs a wave until every lane has returned or
//! waits at a group barrier (see the module doc of [`super`] for the whole shape).
//!
//! Control: the program's segments (blocks, split after group barriers) each have a pending
//! mask of the lanes waiting to run it (`Variable`s). A dispatcher runs the segment that comes
//! first in the structured order (`Program::order`, then the first instruction) among those
//! with pending lanes, as the interpreter's scheduler does, so that lanes meet at the same
//! places and wave operations see the same lanes. A segment takes its pending lanes as its
//! mask, runs its instructions, and its block's terminator adds each edge's lanes to the
//! target's pending mask after that edge's phi copies (merged under the edge's lanes). The
//! wave's step count grows by each segment's length and the deadline and step budget are
//! looked at through the call table every [`crate::interp::DEADLINE_EVERY`] steps; a lane
//! that reaches a group barrier is set aside for the segment after it and left there (the
//! state array) when the function returns.
//!
//! Values: within a segment every 32-bit value is a list of `I32X4` vectors, four lanes each
//! (`i1` as all-ones / zero lane masks, `float` as its bits); a value comes from the register
//! file the first time the segment reads it (two `I64X2` loads narrowed to one `I32X4`), from
//! a splat for a constant, or from the instruction that made it. A result is stored (widened
//! back to `u64` lanes, merged under the mask) only when something other than this segment's
//! own native code reads it: another segment, a branch condition, a phi copy, or an
//! instruction run through the interpreter.

use std::collections::HashMap;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::{
    types, AbiParam, Block, ConstantData, Endianness, InstBuilder, MemFlagsData, SigRef, Signature, Type, UserFuncName,
    Value,
};
use cranelift_codegen::isa::{CallConv, OwnedTargetIsa};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext, Variable};
use cranelift_jit::JITModule;
use cranelift_module::{FuncId, Module};

use super::ops::{native, K};
use crate::interp::program::{Edge, Program, XInst, XTerm};
use crate::ir::op::Dx;
use crate::ir::Op;

/// What [`compile`] made.
pub(crate) struct Lowered {
    /// The program's function.
    pub id: FuncId,
    /// The segments (block, first instruction) in the order the function schedules them: the
    /// index of a segment here is its place in the state array.
    pub segments: Vec<(u32, u32)>,
    pub native: usize,
    pub called: usize,
    /// The operations run through the interpreter, by name, and how many of each.
    pub called_ops: std::collections::BTreeMap<String, usize>,
    /// The operations that call the environment directly (`abi::io_one`), by name.
    pub direct_ops: std::collections::BTreeMap<String, usize>,
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
fn reads(i: &XInst) -> impl Iterator<Item = u32> + '_ {
    i.args.iter().zip(i.arg_slots.iter()).flat_map(|(&a, &n)| a..a.saturating_add(n))
}

/// Where a program's blocks split: after every group barrier.
fn segment_starts(insts: &[XInst]) -> Vec<u32> {
    let mut s = vec![0];
    for (k, i) in insts.iter().enumerate() {
        if matches!(i.op, Op::Dx(d) if d.is_barrier()) {
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

/// Compiles `p` for waves of `width` lanes into `module`: one function.
pub(crate) fn compile(module: &mut JITModule, p: &Program, width: usize) -> Result<Lowered, String> {
    if !(4..=128).contains(&width) || !width.is_power_of_two() {
        return Err(format!("width {width}"));
    }
    if (p.slots as u64) * (width as u64) * 8 >= i32::MAX as u64 {
        return Err("register file too large".into());
    }
    for blk in p.blocks.iter() {
        let edges: Vec<&Edge> = match &blk.term {
            XTerm::Br(e) => vec![e],
            XTerm::CondBr { then, otherwise, .. } => vec![then, otherwise],
            XTerm::Switch { default, cases, .. } => {
                std::iter::once(default).chain(cases.iter().map(|(_, e)| e)).collect()
            }
            XTerm::Ret | XTerm::Unreachable => vec![],
        };
        if edges.iter().any(|e| e.missing || e.to as usize >= p.blocks.len()) {
            // Malformed: the interpreter reports it when lanes take the edge.
            return Err("an edge without its phis' values".into());
        }
    }
    // The segments in scheduling order.
    let mut segs: Vec<(u32, u32, u32)> = Vec::new();
    for (b, blk) in p.blocks.iter().enumerate() {
        let starts = segment_starts(&blk.insts);
        for (si, &start) in starts.iter().enumerate() {
            let end = starts.get(si + 1).map_or(blk.insts.len() as u32, |&e| e);
            segs.push((b as u32, start, end));
        }
    }
    let order = |b: u32| p.order.get(b as usize).copied().unwrap_or(u32::MAX);
    segs.sort_by_key(|&(b, start, _)| (order(b), start, b));
    let index: HashMap<(u32, u32), usize> = segs.iter().enumerate().map(|(i, &(b, s, _))| ((b, s), i)).collect();

    let ext = external(p);
    let consts: HashMap<u32, u64> = p.consts.iter().copied().collect();
    let ptr = module.target_config().pointer_type();
    let call_conv = CallConv::triple_default(module.isa().triple());
    let mut sig = module.make_signature();
    sig.params.extend([AbiParam::new(ptr), AbiParam::new(ptr)]);
    sig.returns.push(AbiParam::new(types::I32));
    let mut exec_sig = Signature::new(call_conv);
    exec_sig.params.extend([ptr, types::I32, types::I32, types::I64, types::I64].map(AbiParam::new));
    exec_sig.returns.push(AbiParam::new(types::I32));
    let mut check_sig = Signature::new(call_conv);
    check_sig.params.extend([ptr, types::I64].map(AbiParam::new));
    check_sig.returns.push(AbiParam::new(types::I32));

    let id = module.declare_anonymous_function(&sig).map_err(|e| format!("cranelift: {e}"))?;
    let mut ctx = module.make_context();
    let mut fbc = FunctionBuilderContext::new();
    ctx.func.signature = sig;
    ctx.func.name = UserFuncName::user(0, id.as_u32());
    let mut out = Lowered {
        id,
        segments: segs.iter().map(|&(b, s, _)| (b, s)).collect(),
        native: 0,
        called: 0,
        called_ops: Default::default(),
        direct_ops: Default::default(),
    };
    {
        let fb = FunctionBuilder::new(&mut ctx.func, &mut fbc);
        let mut f = Seg::new(fb, width, &consts, &ext, p.slots, segs.len(), exec_sig, check_sig);
        let seg_blocks: Vec<Block> = segs.iter().map(|_| f.b.create_block()).collect();
        // The dispatcher: the first segment with pending lanes, in scheduling order.
        let dispatch = f.b.create_block();
        f.b.ins().jump(dispatch, &[]);
        f.b.switch_to_block(dispatch);
        for (i, &blk) in seg_blocks.iter().enumerate() {
            let m = f.pending_any(i);
            let next = f.b.create_block();
            f.b.ins().brif(m, blk, &[], next, &[]);
            f.b.switch_to_block(next);
        }
        f.leave();
        for (i, &(b, start, end)) in segs.iter().enumerate() {
            f.b.switch_to_block(seg_blocks[i]);
            f.begin(i, u64::from(end - start) + 1);
            let blk = &p.blocks[b as usize];
            for k in start..end {
                let inst = &blk.insts[k as usize];
                if native(inst) {
                    f.native(inst)?;
                    out.native += 1;
                } else if f.io(inst) {
                    *out.direct_ops.entry(op_name(&inst.op)).or_default() += 1;
                } else {
                    let resume = index.get(&(b, k + 1)).copied();
                    f.call(b, k, resume, dispatch);
                    out.called += 1;
                    *out.called_ops.entry(op_name(&inst.op)).or_default() += 1;
                }
            }
            let last = end as usize == blk.insts.len();
            if last {
                let target = |e: &Edge| index[&(e.to, 0)];
                f.terminator(&blk.term, &target)?;
            } else {
                // The segment ends with a barrier that did not stop the lanes (no group sync,
                // or a wave of no group): they go on with the rest of the block.
                let next = index[&(b, end)];
                f.add(f.pend[next], f.mask);
            }
            f.b.ins().jump(dispatch, &[]);
        }
        f.b.seal_all_blocks();
        f.b.finalize(module.target_config());
    }
    module.define_function(id, &mut ctx).map_err(|e| format!("cranelift: {e:?}"))?;
    module.clear_context(&mut ctx);
    Ok(out)
}

/// The function being built, and the segment being built in it.
pub(crate) struct Seg<'a, 'c> {
    pub(crate) b: FunctionBuilder<'a>,
    w: usize,
    consts: &'c HashMap<u32, u64>,
    ext: &'c [bool],
    slots: u32,
    ctx: Value,
    regs: Value,
    exec: Value,
    check_fn: Value,
    exec_sig: SigRef,
    check_sig: SigRef,
    io: Value,
    io_sig: SigRef,
    /// Pending lanes of each segment (lanes 0..63, 64..127; the second only past 64 lanes).
    pend: Vec<(Variable, Option<Variable>)>,
    /// Lanes that stopped at a group barrier, by the segment they resume at.
    parked: Vec<(Variable, Option<Variable>)>,
    /// The wave's steps, and the count at which the deadline is looked at next.
    steps: Variable,
    next_check: Variable,
    /// The current segment's lanes.
    mask: [Value; 2],
    /// Values of slots this segment has: their lane kind and vectors.
    cache: HashMap<u32, (K, Vec<Value>)>,
    /// Per pair of lanes (2p, 2p + 1): their `I64X2` store mask under the segment's lanes.
    pair_masks: Vec<Option<Value>>,
    pub(crate) err: Option<String>,
}

pub(crate) const V: Type = types::I32X4;

pub(crate) fn le() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

fn mem() -> MemFlagsData {
    MemFlagsData::new().with_notrap()
}

/// Offsets in `abi::Ctx`.
const CTX_EXEC: i32 = 0;
const CTX_CHECK: i32 = 8;
const CTX_STATE: i32 = 16;
const CTX_STEPS: i32 = 24;
const CTX_NEXT_CHECK: i32 = 32;
const CTX_IO: i32 = 40;

impl<'a, 'c> Seg<'a, 'c> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        mut b: FunctionBuilder<'a>,
        w: usize,
        consts: &'c HashMap<u32, u64>,
        ext: &'c [bool],
        slots: u32,
        nseg: usize,
        exec_sig: Signature,
        check_sig: Signature,
    ) -> Self {
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (ctx, regs) = (p[0], p[1]);
        let exec = b.ins().load(types::I64, mem(), ctx, CTX_EXEC);
        let check_fn = b.ins().load(types::I64, mem(), ctx, CTX_CHECK);
        let io = b.ins().load(types::I64, mem(), ctx, CTX_IO);
        let mut io_sig = Signature::new(exec_sig.call_conv);
        io_sig.params.extend(
            [types::I64, types::I32, types::I64, types::I64, types::I64, types::I32, types::I32].map(AbiParam::new),
        );
        io_sig.returns.push(AbiParam::new(types::I32));
        let io_sig = b.import_signature(io_sig);
        let state = b.ins().load(types::I64, mem(), ctx, CTX_STATE);
        let exec_sig = b.import_signature(exec_sig);
        let check_sig = b.import_signature(check_sig);
        let wide = w > 64;
        let var = |b: &mut FunctionBuilder<'a>, init: Value| {
            let v = b.declare_var(types::I64);
            b.def_var(v, init);
            v
        };
        let zero = b.ins().iconst(types::I64, 0);
        let mut pend = Vec::with_capacity(nseg);
        let mut parked = Vec::with_capacity(nseg);
        for s in 0..nseg {
            let o = (16 * s) as i32;
            let lo = b.ins().load(types::I64, mem(), state, o);
            let lo = var(&mut b, lo);
            let hi = wide.then(|| {
                let x = b.ins().load(types::I64, mem(), state, o + 8);
                var(&mut b, x)
            });
            pend.push((lo, hi));
            let plo = var(&mut b, zero);
            let phi = wide.then(|| var(&mut b, zero));
            parked.push((plo, phi));
        }
        let s0 = b.ins().load(types::I64, mem(), ctx, CTX_STEPS);
        let steps = var(&mut b, s0);
        let n0 = b.ins().load(types::I64, mem(), ctx, CTX_NEXT_CHECK);
        let next_check = var(&mut b, n0);
        Seg {
            b,
            w,
            consts,
            ext,
            slots,
            ctx,
            regs,
            exec,
            check_fn,
            exec_sig,
            check_sig,
            io,
            io_sig,
            pend,
            parked,
            steps,
            next_check,
            mask: [zero, zero],
            cache: HashMap::new(),
            pair_masks: vec![None; w / 2],
            err: None,
        }
    }

    pub(crate) fn nv(&self) -> usize {
        self.w / 4
    }

    fn read(&mut self, v: (Variable, Option<Variable>)) -> [Value; 2] {
        let lo = self.b.use_var(v.0);
        let hi = match v.1 {
            Some(h) => self.b.use_var(h),
            None => self.b.ins().iconst(types::I64, 0),
        };
        [lo, hi]
    }

    fn write(&mut self, v: (Variable, Option<Variable>), m: [Value; 2]) {
        self.b.def_var(v.0, m[0]);
        if let Some(h) = v.1 {
            self.b.def_var(h, m[1]);
        }
    }

    /// Adds `m` to the lanes of `v`.
    fn add(&mut self, v: (Variable, Option<Variable>), m: [Value; 2]) {
        let old = self.read(v);
        let new = [self.b.ins().bor(old[0], m[0]), self.b.ins().bor(old[1], m[1])];
        self.write(v, new);
    }

    /// Whether segment `i` has pending lanes (an i64, non-zero when it has).
    fn pending_any(&mut self, i: usize) -> Value {
        let [lo, hi] = self.read(self.pend[i]);
        if self.w > 64 {
            self.b.ins().bor(lo, hi)
        } else {
            lo
        }
    }

    /// No segment has lanes left: the parked ones go to the state array, the steps back.
    fn leave(&mut self) {
        let state = self.b.ins().load(types::I64, mem(), self.ctx, CTX_STATE);
        for s in 0..self.parked.len() {
            let [lo, hi] = self.read(self.parked[s]);
            self.b.ins().store(mem(), lo, state, (16 * s) as i32);
            self.b.ins().store(mem(), hi, state, (16 * s + 8) as i32);
        }
        self.save_steps();
        let zero = self.b.ins().iconst(types::I32, 0);
        self.b.ins().return_(&[zero]);
    }

    fn save_steps(&mut self) {
        let s = self.b.use_var(self.steps);
        self.b.ins().store(mem(), s, self.ctx, CTX_STEPS);
        let n = self.b.use_var(self.next_check);
        self.b.ins().store(mem(), n, self.ctx, CTX_NEXT_CHECK);
    }

    /// Returns `code` from the function (an error: the steps are saved for the message).
    fn fail(&mut self, code: u32) {
        self.save_steps();
        let c = self.b.ins().iconst(types::I32, i64::from(code as i32));
        self.b.ins().return_(&[c]);
    }

    /// Starts segment `i` (of `n` steps): its pending lanes become the mask; the steps grow
    /// and every so often the deadline and budget are looked at.
    fn begin(&mut self, i: usize, n: u64) {
        self.cache.clear();
        self.pair_masks.iter_mut().for_each(|m| *m = None);
        self.mask = self.read(self.pend[i]);
        let zero = self.b.ins().iconst(types::I64, 0);
        self.write(self.pend[i], [zero, zero]);
        let s = self.b.use_var(self.steps);
        let s = self.b.ins().iadd_imm_u(s, n as i64);
        self.b.def_var(self.steps, s);
        let due = self.b.use_var(self.next_check);
        let late = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, s, due);
        let (check, go) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(late, check, &[], go, &[]);
        self.b.switch_to_block(check);
        let c = self.b.ins().call_indirect(self.check_sig, self.check_fn, &[self.ctx, s]);
        let r = self.b.inst_results(c)[0];
        let next = self.b.ins().iadd_imm_u(s, crate::interp::DEADLINE_EVERY as i64);
        self.b.def_var(self.next_check, next);
        let (bad, ok) = (self.b.create_block(), go);
        self.b.ins().brif(r, bad, &[], ok, &[]);
        self.b.switch_to_block(bad);
        self.fail(u32::MAX);
        self.b.switch_to_block(go);
    }

    /// Instruction `k` of block `b` through the interpreter. A group barrier parks the lanes
    /// for segment `resume` and goes back to the dispatcher; an error leaves the function.
    fn call(&mut self, b: u32, k: u32, resume: Option<usize>, dispatch: Block) {
        let bv = self.b.ins().iconst(types::I32, i64::from(b));
        let kv = self.b.ins().iconst(types::I32, i64::from(k));
        let c = self.b.ins().call_indirect(self.exec_sig, self.exec, &[self.ctx, bv, kv, self.mask[0], self.mask[1]]);
        let r = self.b.inst_results(c)[0];
        let (other, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(r, other, &[], cont, &[]);
        self.b.switch_to_block(other);
        let one = self.b.ins().icmp_imm_u(IntCC::Equal, r, 1);
        let (park, bad) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(one, park, &[], bad, &[]);
        self.b.switch_to_block(park);
        match resume {
            Some(s) => {
                self.add(self.parked[s], self.mask);
                self.b.ins().jump(dispatch, &[]);
            }
            None => self.fail(u32::MAX - 3),
        }
        self.b.switch_to_block(bad);
        self.fail(u32::MAX);
        self.b.switch_to_block(cont);
    }

    /// A `LoadInput` / `StoreOutput` whose place is constant, a `CreateHandle` whose range and
    /// index are, or a `CBufferLoadLegacy` of a constant row into four 32-bit slots, straight between the environment and the register row (`abi::io_one`);
    /// an error leaves the function. `false` when `i` is not one.
    fn io(&mut self, i: &XInst) -> bool {
        let imm = |k: usize| i.imm.get(k).copied().flatten();
        let (store, at, ty, slot) = match i.op {
            Op::Dx(Dx::LoadInput { vertex: false }) | Op::Dx(Dx::StoreOutput) => {
                let (Some(sig), Some(row), Some(col)) = (imm(0), imm(1), imm(2)) else { return false };
                if row > 0xFF_FFFF {
                    return false;
                }
                let at = (sig as u32 as u64) | ((row & 0xFF_FFFF) << 32) | ((col & 0xFF) << 56);
                if matches!(i.op, Op::Dx(Dx::StoreOutput)) {
                    (1, at, i.arg_ty.get(3).copied(), i.args.get(3).copied())
                } else {
                    (0, at, i.dst_ty.scalar(), Some(i.dst))
                }
            }
            Op::Dx(Dx::CreateHandle(class)) => {
                let (Some(range), Some(index)) = (imm(0), imm(1)) else { return false };
                if range > u64::from(u32::MAX) || index > 0xFF_FFFF {
                    return false;
                }
                let at = range | (index << 32) | (u64::from(class.dxil()) << 56);
                (2, at, Some(crate::ir::Scalar::I32), Some(i.dst))
            }
            Op::Dx(Dx::CBufferLoadLegacy) => {
                // A constant row of four 32-bit words into the result's four slots, the handle
                // read from its slot (`at`: row, handle slot << 32).
                let (Some(row), Some(&h)) = (imm(1), i.args.first()) else { return false };
                let crate::ir::Type::Agg(sc) = &i.dst_ty else { return false };
                let words =
                    sc.len() == 4 && sc.iter().all(|s| matches!(s, crate::ir::Scalar::F32 | crate::ir::Scalar::I32));
                if !words || row > u64::from(u32::MAX) || !self.check(h) || !self.check(i.dst + 3) {
                    self.err = None;
                    return false;
                }
                (3, row | (u64::from(h) << 32), Some(crate::ir::Scalar::I32), Some(i.dst))
            }
            _ => return false,
        };
        let (Some(ty), Some(slot)) = (ty, slot) else { return false };
        let Some(t) = super::abi::SCALARS.iter().position(|&s| s == ty) else { return false };
        if !self.check(slot) {
            self.err = None;
            return false;
        }
        let args = [
            self.ctx,
            self.b.ins().iconst(types::I32, store),
            self.mask[0],
            self.mask[1],
            self.b.ins().iconst(types::I64, at as i64),
            self.b.ins().iconst(types::I32, t as i64),
            self.b.ins().iconst(types::I32, i64::from(slot)),
        ];
        let c = self.b.ins().call_indirect(self.io_sig, self.io, &args);
        let r = self.b.inst_results(c)[0];
        let (bad, cont) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(r, bad, &[], cont, &[]);
        self.b.switch_to_block(bad);
        self.fail(u32::MAX);
        self.b.switch_to_block(cont);
        true
    }

    /// The lanes (of the segment's mask) whose `i1` slot `s` is true.
    fn true_lanes(&mut self, s: u32) -> [Value; 2] {
        let v = self.get(s, K::B);
        self.lane_bits(&v)
    }

    /// A scalar bit mask (lanes 0..63, 64..127) of `I32X4` lane masks, cut to the segment's.
    fn lane_bits(&mut self, v: &[Value]) -> [Value; 2] {
        let mut out = [self.b.ins().iconst(types::I64, 0), self.b.ins().iconst(types::I64, 0)];
        for (j, &x) in v.iter().enumerate() {
            let bits = self.b.ins().vhigh_bits(types::I64, x);
            let bits =
                if !(4 * j).is_multiple_of(64) { self.b.ins().ishl_imm_u(bits, ((4 * j) % 64) as i64) } else { bits };
            out[4 * j / 64] = self.b.ins().bor(out[4 * j / 64], bits);
        }
        [self.b.ins().band(out[0], self.mask[0]), self.b.ins().band(out[1], self.mask[1])]
    }

    /// The lanes of the segment's mask whose raw bits in slot `s` equal `v`.
    fn equal_lanes(&mut self, s: u32, v: u64) -> [Value; 2] {
        let mut out = [self.b.ins().iconst(types::I64, 0), self.b.ins().iconst(types::I64, 0)];
        let c = self.b.ins().iconst(types::I64, v as i64);
        let c = self.b.ins().splat(types::I64X2, c);
        for q in 0..self.w / 2 {
            let o = self.off(s, 0) + (16 * q) as i32;
            let x = self.b.ins().load(types::I64X2, mem(), self.regs, o);
            let e = self.b.ins().icmp(IntCC::Equal, x, c);
            let bits = self.b.ins().vhigh_bits(types::I64, e);
            let bits =
                if !(2 * q).is_multiple_of(64) { self.b.ins().ishl_imm_u(bits, ((2 * q) % 64) as i64) } else { bits };
            out[2 * q / 64] = self.b.ins().bor(out[2 * q / 64], bits);
        }
        [self.b.ins().band(out[0], self.mask[0]), self.b.ins().band(out[1], self.mask[1])]
    }

    /// The `I64X2` mask of lanes 2q, 2q + 1 in `m`.
    fn pair_mask_of(&mut self, m: [Value; 2], q: usize) -> Value {
        let word = m[q / 32];
        let sh = if !(2 * q).is_multiple_of(64) { self.b.ins().ushr_imm_u(word, ((2 * q) % 64) as i64) } else { word };
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
        self.b.ins().icmp(IntCC::NotEqual, x, z)
    }

    /// An edge's phi copies for the lanes of `m` (all read before any is written when they
    /// overlap), then those lanes wait at its target.
    fn take(&mut self, e: &Edge, m: [Value; 2], target: usize) {
        if !e.copies.is_empty() {
            let pms: Vec<Value> = (0..self.w / 2).map(|q| self.pair_mask_of(m, q)).collect();
            let mut srcs: Vec<Vec<Value>> = Vec::new();
            for (n, &(dst, src)) in e.copies.iter().enumerate() {
                if !self.check(dst) || !self.check(src) {
                    continue;
                }
                let base = self.off(src, 0);
                let v: Vec<Value> = (0..self.w / 2)
                    .map(|q| self.b.ins().load(types::I64X2, mem(), self.regs, base + (16 * q) as i32))
                    .collect();
                if e.overlap {
                    srcs.push(v);
                    continue;
                }
                let _ = n;
                self.put_raw(dst, &v, &pms);
            }
            if e.overlap {
                for (&(dst, _), v) in e.copies.iter().zip(srcs) {
                    self.put_raw(dst, &v, &pms);
                }
            }
        }
        self.add(self.pend[target], m);
    }

    /// Raw `u64` lanes into slot `dst` under the pair masks.
    fn put_raw(&mut self, dst: u32, v: &[Value], pms: &[Value]) {
        for (q, (&x, &pm)) in v.iter().zip(pms).enumerate() {
            let o = self.off(dst, 0) + (16 * q) as i32;
            let old = self.b.ins().load(types::I64X2, mem(), self.regs, o);
            let new = self.b.ins().bitselect(pm, x, old);
            self.b.ins().store(mem(), new, self.regs, o);
        }
    }

    /// A block's terminator for the segment's lanes.
    fn terminator(&mut self, t: &XTerm, target: &dyn Fn(&Edge) -> usize) -> Result<(), String> {
        match t {
            XTerm::Ret => {}
            XTerm::Unreachable => {
                let (bad, ok) = (self.b.create_block(), self.b.create_block());
                let any = self.b.ins().bor(self.mask[0], self.mask[1]);
                self.b.ins().brif(any, bad, &[], ok, &[]);
                self.b.switch_to_block(bad);
                self.fail(u32::MAX - 1);
                self.b.switch_to_block(ok);
            }
            XTerm::Br(e) => self.take(e, self.mask, target(e)),
            XTerm::CondBr { cond, then, otherwise } => {
                if !self.check(*cond) {
                    return Err(self.err.take().unwrap_or_default());
                }
                let t = self.true_lanes(*cond);
                let f = [self.b.ins().band_not(self.mask[0], t[0]), self.b.ins().band_not(self.mask[1], t[1])];
                self.take(then, t, target(then));
                self.take(otherwise, f, target(otherwise));
            }
            XTerm::Switch { cond, default, cases } => {
                if !self.check(*cond) {
                    return Err(self.err.take().unwrap_or_default());
                }
                let mut left = self.mask;
                for (v, e) in cases.iter() {
                    let m = self.equal_lanes(*cond, *v);
                    let m = [self.b.ins().band(m[0], left[0]), self.b.ins().band(m[1], left[1])];
                    self.take(e, m, target(e));
                    left = [self.b.ins().band_not(left[0], m[0]), self.b.ins().band_not(left[1], m[1])];
                }
                self.take(default, left, target(default));
            }
        }
        Ok(())
    }

    pub(crate) fn splat(&mut self, bits: u32) -> Value {
        let x = self.b.ins().iconst(types::I32, i64::from(bits as i32));
        self.b.ins().splat(V, x)
    }

    pub(crate) fn check(&mut self, s: u32) -> bool {
        if s >= self.slots {
            self.err.get_or_insert_with(|| format!("slot {s} past the register file"));
            return false;
        }
        true
    }

    /// The byte offset of lanes `4j..` of slot `s`.
    pub(crate) fn off(&self, s: u32, j: usize) -> i32 {
        ((s as usize * self.w + 4 * j) * 8) as i32
    }

    /// Slot `s` as kind `k`.
    pub(crate) fn get(&mut self, s: u32, k: K) -> Vec<Value> {
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

    pub(crate) fn convert(&mut self, v: Vec<Value>, from: K, to: K) -> Vec<Value> {
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

    /// The `I64X2` store mask of lanes 2q, 2q + 1 of the segment.
    fn pair_mask(&mut self, q: usize) -> Value {
        if let Some(m) = self.pair_masks[q] {
            return m;
        }
        let m = self.pair_mask_of(self.mask, q);
        self.pair_masks[q] = Some(m);
        m
    }

    /// Defines slot `s` as `v` (of kind `k`), stored when read elsewhere.
    pub(crate) fn def(&mut self, s: u32, k: K, v: Vec<Value>) {
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
