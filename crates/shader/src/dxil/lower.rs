//! DXIL → IR: one function of a [`Module`] lowered to an [`ir::Function`].
//!
//! What changes on the way: LLVM types become [`Type`]s (structs, arrays and vectors
//! flattened to their scalars, `%dx.types.Handle` a handle); constants become constant
//! values (constant expressions folded with the interpreter's own arithmetic, those that name
//! a global become instructions at the top of the entry block); `getelementptr` becomes a
//! pointer plus a scalar offset and strides; `dx.op` calls become [`Dx`] operations, the
//! operands that DXIL passes as integer codes (resource class, atomic operation, barrier
//! flags) typed fields, wave and quad intrinsics [`Op::Wave`]s with their kinds decoded; leading
//! phis become the block's phis; `fence` disappears.
//! Constructs the interpreter does not execute give [`LowerError::Unsupported`] with the
//! message today's interpreter gives; malformed IR gives [`LowerError::Malformed`].

use super::inst::{self as dinst, InstKind, Operand};
use super::module::{Const, Function, Module, ValueId, ValueKind};
use super::types::{Type as LType, TypeId};
use crate::interp::alu;
use crate::ir::interface::ResourceClass;
use crate::ir::op::{AtomicOp, BinOp, CastOp, CmpPred, Dx, PackMode, WaveOp};
use crate::ir::{self, AddrSpace, Block, BlockId, Def, Inst, Op, Phi, Scalar, Terminator, Type, Value};
use std::collections::HashMap;

/// Why a function could not be lowered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LowerError {
    /// A construct the IR (and the interpreter) does not have.
    Unsupported(String),
    /// IR that makes no sense (a missing value, a type mismatch).
    Malformed(String),
}

impl core::fmt::Display for LowerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LowerError::Unsupported(s) => write!(f, "unsupported: {s}"),
            LowerError::Malformed(s) => write!(f, "malformed: {s}"),
        }
    }
}

type R<T> = Result<T, LowerError>;

fn bad<T>(what: impl Into<String>) -> R<T> {
    Err(LowerError::Malformed(what.into()))
}

fn unsupported<T>(what: impl Into<String>) -> R<T> {
    Err(LowerError::Unsupported(what.into()))
}

/// The most scalars one allocation may hold (as today's interpreter allows).
const MAX_CELLS: u64 = 1 << 24;

/// Lowers `func` of `module` (a definition) and computes its control flow facts.
pub fn lower(module: &Module, func: &Function) -> R<ir::Function> {
    if func.declaration || func.blocks.is_empty() {
        return bad(format!("{} has no body", func.name));
    }
    let mut l = Lower {
        m: module,
        f: func,
        out: ir::Function {
            name: func.name.clone(),
            values: Vec::new(),
            blocks: Vec::new(),
            globals: Vec::new(),
            cfg: ir::Cfg::default(),
        },
        map: HashMap::new(),
        globals: HashMap::new(),
        prologue: Vec::new(),
    };
    l.run()?;
    let mut f = l.out;
    crate::passes::cfg::analyse(&mut f);
    Ok(f)
}

struct Lower<'m> {
    m: &'m Module,
    f: &'m Function,
    out: ir::Function,
    /// DXIL value → IR value.
    map: HashMap<u32, Value>,
    /// DXIL global index → IR global index.
    globals: HashMap<usize, u32>,
    /// Instructions the entry block runs first: addresses of globals and the constant
    /// expressions over them.
    prologue: Vec<Inst>,
}

/// The scalar of an LLVM scalar type.
fn scalar_of(t: &LType) -> Option<Scalar> {
    Some(match t {
        LType::Int(1) => Scalar::Bool,
        LType::Int(8) => Scalar::I8,
        LType::Int(16) => Scalar::I16,
        LType::Int(32) => Scalar::I32,
        LType::Int(64) => Scalar::I64,
        LType::Half => Scalar::F16,
        LType::Float => Scalar::F32,
        LType::Double => Scalar::F64,
        _ => return None,
    })
}

impl<'m> Lower<'m> {
    fn lty(&self, id: TypeId) -> R<&'m LType> {
        self.m.types.get(id).map_or_else(|| bad(format!("type {}", id.0)), Ok)
    }

    /// The scalars of a type, flattened (structs, arrays and vectors in element order).
    fn flat(&self, id: TypeId, out: &mut Vec<Scalar>) -> R<()> {
        let t = self.lty(id)?;
        if let Some(s) = scalar_of(t) {
            out.push(s);
            return Ok(());
        }
        match t {
            LType::Struct { elems, .. } => {
                for e in elems {
                    self.flat(*e, out)?;
                }
            }
            LType::Array { elem, .. } | LType::Vector { elem, .. } if self.cells(id)? <= MAX_CELLS => {
                let n = match t {
                    LType::Vector { len, .. } => u64::from(*len),
                    LType::Array { len, .. } => *len,
                    _ => 0,
                };
                let mut one = Vec::new();
                self.flat(*elem, &mut one)?;
                for _ in 0..n {
                    out.extend_from_slice(&one);
                }
            }
            LType::Array { .. } | LType::Vector { .. } => return unsupported("an aggregate above 16M scalars"),
            _ => return unsupported(format!("a value of type {}", self.m.types.name(id))),
        }
        Ok(())
    }

    /// The number of scalars a type takes in memory (pointers and other types: 1).
    fn cells(&self, id: TypeId) -> R<u64> {
        Ok(match self.lty(id)? {
            LType::Struct { elems, .. } => {
                let mut n = 0u64;
                for e in elems {
                    n = n.saturating_add(self.cells(*e)?);
                }
                n
            }
            LType::Array { len, elem } => len.saturating_mul(self.cells(*elem)?),
            LType::Vector { len, elem } => u64::from(*len).saturating_mul(self.cells(*elem)?),
            _ => 1,
        })
    }

    /// The IR type of an LLVM type.
    fn ty(&self, id: TypeId) -> R<Type> {
        let t = self.lty(id)?;
        if let Some(s) = scalar_of(t) {
            return Ok(Type::Scalar(s));
        }
        Ok(match t {
            LType::Void => Type::Void,
            LType::Pointer { addr_space: 3, .. } => Type::Ptr(AddrSpace::Group),
            LType::Pointer { .. } => Type::Ptr(AddrSpace::Private),
            LType::Struct { name: Some(n), .. } if n == "dx.types.Handle" => Type::Handle,
            LType::Struct { .. } | LType::Array { .. } | LType::Vector { .. } => {
                let mut s = Vec::new();
                self.flat(id, &mut s)?;
                Type::Agg(s.into())
            }
            _ => return unsupported(format!("a value of type {}", self.m.types.name(id))),
        })
    }

    fn value_def(&self, id: ValueId) -> R<&'m super::module::ValueDef> {
        self.m.value(Some(self.f), id).map_or_else(|| bad(format!("value {}", id.0)), Ok)
    }

    /// The bits of a constant, one per slot of its type.
    fn const_bits(&self, c: &Const, ty: TypeId, depth: u32) -> R<Vec<u64>> {
        if depth > 64 {
            return unsupported("a constant nested too deeply");
        }
        let t = self.ty(ty)?;
        let one = |v: u64| Ok(vec![v]);
        match c {
            Const::Undef | Const::Null => Ok(vec![0; t.slots() as usize]),
            Const::Int(i) => one(t.slot(0).mask(*i as u64)),
            Const::Float(bits) => one(t.slot(0).mask(*bits)),
            Const::Aggregate(ids) => {
                let mut out = Vec::new();
                for id in ids {
                    let d = self.value_def(*id)?;
                    match &d.kind {
                        ValueKind::Const(c) => out.extend(self.const_bits(c, d.ty, depth + 1)?),
                        _ => return unsupported("an aggregate constant holding a global"),
                    }
                }
                Ok(out)
            }
            Const::Data(words) => {
                let Type::Agg(s) = &t else { return bad("data constant of a scalar type") };
                Ok(words.iter().zip(s.iter()).map(|(w, s)| s.mask(*w)).collect())
            }
            Const::String(b) => Ok(b.iter().map(|c| u64::from(*c)).collect()),
            Const::Cast { op, value } => {
                let d = self.value_def(*value)?;
                let ValueKind::Const(inner) = &d.kind else { return unsupported("a constant cast of a global") };
                let v = self.const_bits(inner, d.ty, depth + 1)?;
                let (from, to) = (self.ty(d.ty)?, t);
                match (cast_op(*op)?, from.scalar(), to.scalar()) {
                    (Some(op), Some(f), Some(s)) => one(alu::cast(op, f, s, v[0])),
                    _ => Ok(v),
                }
            }
            Const::Binary { op, lhs, rhs } => {
                let (a, b) = (self.scalar_const(*lhs, depth)?, self.scalar_const(*rhs, depth)?);
                let s = t.scalar().ok_or_else(|| LowerError::Unsupported("a vector constant expression".into()))?;
                one(alu::binary(bin_op(*op), s, a, b))
            }
            Const::Cmp { pred, lhs, rhs } => {
                let (a, b) = (self.scalar_const(*lhs, depth)?, self.scalar_const(*rhs, depth)?);
                let s = self.ty(self.value_def(*lhs)?.ty)?.slot(0);
                let p = CmpPred::from_llvm(*pred).ok_or_else(|| LowerError::Malformed(format!("predicate {pred}")))?;
                one(u64::from(alu::compare(p, s, a, b)))
            }
            Const::Select { cond, then, otherwise } => {
                let c = self.scalar_const(*cond, depth)? & 1 != 0;
                let pick = if c { *then } else { *otherwise };
                let d = self.value_def(pick)?;
                match &d.kind {
                    ValueKind::Const(c) => self.const_bits(c, d.ty, depth + 1),
                    _ => unsupported("a constant select of a global"),
                }
            }
            Const::Gep { .. } => unsupported("a constant getelementptr outside an instruction"),
        }
    }

    fn scalar_const(&self, id: ValueId, depth: u32) -> R<u64> {
        let d = self.value_def(id)?;
        match &d.kind {
            ValueKind::Const(c) => Ok(self.const_bits(c, d.ty, depth + 1)?.first().copied().unwrap_or(0)),
            _ => unsupported("a constant expression over a global"),
        }
    }

    /// Whether a constant (through its operands) names a global: it then needs instructions.
    fn names_global(&self, id: ValueId, depth: u32) -> bool {
        let Ok(d) = self.value_def(id) else { return false };
        match &d.kind {
            ValueKind::Global(_) => true,
            ValueKind::Const(c) if depth < 64 => {
                super::module::const_operands(c).any(|v| self.names_global(v, depth + 1))
            }
            _ => false,
        }
    }

    fn push_prologue(&mut self, op: Op, args: Vec<Value>, ty: Type) -> Value {
        let dst = self.out.add_value(ty, Def::Inst);
        self.prologue.push(Inst { op, args: args.into(), dst: Some(dst) });
        dst
    }

    /// The IR value of a DXIL operand.
    fn operand(&mut self, id: ValueId) -> R<Value> {
        if let Some(v) = self.map.get(&id.0) {
            return Ok(*v);
        }
        let d = self.value_def(id)?;
        let v = match &d.kind {
            ValueKind::Inst { .. } => return bad(format!("%{} has no definition", id.0)),
            ValueKind::Arg(_) => return unsupported("a function with arguments"),
            ValueKind::Function(_) => return unsupported("a function used as a value"),
            ValueKind::Global(g) => {
                let g = self.global(*g)?;
                let ty = self.ty(d.ty)?;
                self.push_prologue(Op::Global(g), vec![], ty)
            }
            ValueKind::Const(c) if self.names_global(id, 0) => match c {
                Const::Gep { source_ty, ops, .. } => {
                    let (base, rest) = ops.split_first().ok_or_else(|| LowerError::Malformed("GEP".into()))?;
                    let base = self.operand(*base)?;
                    let (op, args) = self.gep(*source_ty, base, rest)?;
                    let ty = self.ty(d.ty)?;
                    self.push_prologue(op, args, ty)
                }
                Const::Cast { value, .. } => {
                    let inner = self.operand(*value)?;
                    let ty = self.ty(d.ty)?;
                    self.push_prologue(Op::Copy, vec![inner], ty)
                }
                _ => return unsupported("a constant expression over a global"),
            },
            ValueKind::Const(c) => {
                let bits = self.const_bits(c, d.ty, 0)?;
                let ty = self.ty(d.ty)?;
                self.out.add_value(ty, Def::Const(bits.into()))
            }
        };
        self.map.insert(id.0, v);
        Ok(v)
    }

    /// A constant of type `s`.
    fn constant(&mut self, s: Scalar, bits: u64) -> Value {
        self.out.add_value(Type::Scalar(s), Def::Const([s.mask(bits)].into()))
    }

    /// The IR global for DXIL global `g`, made on first use.
    fn global(&mut self, g: usize) -> R<u32> {
        if let Some(i) = self.globals.get(&g) {
            return Ok(*i);
        }
        let gl = self.m.globals.get(g).ok_or_else(|| LowerError::Malformed("global".into()))?;
        let cells = self.cells(gl.value_ty)?;
        if cells > MAX_CELLS {
            return unsupported(if gl.addr_space == 3 {
                "groupshared above 16M scalars"
            } else {
                "a global above 16M scalars"
            });
        }
        let space = if gl.addr_space == 3 { AddrSpace::Group } else { AddrSpace::Private };
        let init = match (space, gl.init) {
            (AddrSpace::Private, Some(init)) => {
                let d = self.value_def(init)?;
                match &d.kind {
                    ValueKind::Const(c) => Some(self.const_bits(c, d.ty, 0)?.into_boxed_slice()),
                    _ => return unsupported("a global initialised from another"),
                }
            }
            _ => None,
        };
        self.out.globals.push(ir::Global { name: gl.name.clone(), space, cells: cells as u32, init });
        let i = self.out.globals.len() as u32 - 1;
        self.globals.insert(g, i);
        Ok(i)
    }

    /// `getelementptr` from `base` (a pointer to `source_ty`) by `indices`.
    fn gep(&mut self, source_ty: TypeId, base: Value, indices: &[ValueId]) -> R<(Op, Vec<Value>)> {
        let mut offset = 0i64;
        let mut strides = Vec::new();
        let mut args = vec![base];
        let mut t = source_ty;
        for (k, &i) in indices.iter().enumerate() {
            let konst = self.m.const_int(Some(self.f), i);
            let (stride, next) = if k == 0 {
                (self.cells(t)?, t)
            } else {
                match self.lty(t)? {
                    LType::Struct { elems, .. } => {
                        let Some(i) = konst.filter(|i| (*i as usize) < elems.len()) else {
                            return bad("struct index");
                        };
                        for e in elems.iter().take(i as usize) {
                            offset += self.cells(*e)? as i64;
                        }
                        t = elems[i as usize];
                        continue;
                    }
                    LType::Array { elem, .. } | LType::Vector { elem, .. } => (self.cells(*elem)?, *elem),
                    _ => return bad("getelementptr into a scalar"),
                }
            };
            t = next;
            match konst {
                // Indices are read zero-extended from their width, as today's interpreter does.
                Some(c) => {
                    let w = self.ty(self.value_def(i)?.ty)?.slot(0);
                    offset = offset.wrapping_add((w.mask(c as u64) as i64).wrapping_mul(stride as i64));
                }
                None => {
                    args.push(self.operand(i)?);
                    strides.push(stride as u32);
                }
            }
        }
        Ok((Op::PtrAdd { offset, strides: strides.into() }, args))
    }

    /// The slot offset of an `extractvalue`/`insertvalue` index path into an aggregate type.
    fn slot_path(&self, mut t: TypeId, indices: &[u32]) -> R<u32> {
        let mut at = 0u32;
        for &i in indices {
            match self.lty(t)? {
                LType::Struct { elems, .. } => {
                    let Some(&e) = elems.get(i as usize) else { return bad("extractvalue out of range") };
                    for e in elems.iter().take(i as usize) {
                        at += self.ty(*e)?.slots();
                    }
                    t = e;
                }
                LType::Array { len, elem } if u64::from(i) < *len => {
                    at += i * self.ty(*elem)?.slots();
                    t = *elem;
                }
                LType::Vector { len, elem } if i < *len => {
                    at += i * self.ty(*elem)?.slots();
                    t = *elem;
                }
                _ => return bad("extractvalue out of range"),
            }
        }
        Ok(at)
    }

    fn run(&mut self) -> R<()> {
        let f = self.f;
        // Every instruction result first, so that phis may name later ones.
        for b in &f.blocks {
            for inst in &b.insts {
                if let Some(r) = inst.result {
                    let ty = self.ty(inst.ty)?;
                    let v = self.out.add_value(ty, Def::Inst);
                    self.map.insert(r.0, v);
                }
            }
        }
        let nblocks = f.blocks.len() as u32;
        let block = |b: u32| if b < nblocks { Ok(BlockId(b)) } else { bad(format!("block {b}")) };
        for b in &f.blocks {
            let mut out = Block { phis: Vec::new(), insts: Vec::new(), term: Terminator::Unreachable };
            let mut leading = true;
            let mut ended = false;
            for inst in &b.insts {
                if ended {
                    return bad("an instruction after the terminator");
                }
                let dst = inst.result.and_then(|r| self.map.get(&r.0).copied());
                if let InstKind::Phi { incoming } = &inst.kind {
                    if !leading {
                        return unsupported("a phi after the block's first instructions");
                    }
                    let Some(dst) = dst else { return bad("phi without a result") };
                    let mut inc = Vec::with_capacity(incoming.len());
                    for (v, from) in incoming {
                        inc.push((block(*from)?, self.operand(*v)?));
                    }
                    out.phis.push(Phi { dst, incoming: inc.into() });
                    continue;
                }
                leading = false;
                let term = match &inst.kind {
                    InstKind::Ret { .. } => Some(Terminator::Ret),
                    InstKind::Br { target } => Some(Terminator::Br(block(*target)?)),
                    InstKind::CondBr { cond, then, otherwise } => Some(Terminator::CondBr {
                        cond: self.operand(*cond)?,
                        then: block(*then)?,
                        otherwise: block(*otherwise)?,
                    }),
                    InstKind::Switch { cond, default, cases } => {
                        let c = self.operand(*cond)?;
                        let s = self.out.ty(c).slot(0);
                        let mut list = Vec::with_capacity(cases.len());
                        for (v, t) in cases {
                            let Some(k) = self.m.const_int(Some(f), *v) else { return bad("a switch case") };
                            list.push((s.mask(k as u64), block(*t)?));
                        }
                        Some(Terminator::Switch { cond: c, default: block(*default)?, cases: list.into() })
                    }
                    InstKind::Unreachable => Some(Terminator::Unreachable),
                    _ => None,
                };
                if let Some(t) = term {
                    out.term = t;
                    ended = true;
                    continue;
                }
                if let Some(i) = self.inst(inst, dst)? {
                    out.insts.push(i);
                }
            }
            if !ended {
                return bad("block without a terminator");
            }
            self.out.blocks.push(out);
        }
        let pro = std::mem::take(&mut self.prologue);
        self.out.blocks[0].insts.splice(0..0, pro);
        Ok(())
    }

    fn scalar_ty(&self, v: Value) -> R<Scalar> {
        self.out.ty(v).scalar().map_or_else(|| unsupported(format!("a vector operation ({})", self.out.ty(v))), Ok)
    }

    /// One instruction that is not a phi or a terminator (`None`: it does nothing).
    fn inst(&mut self, inst: &dinst::Inst, dst: Option<Value>) -> R<Option<Inst>> {
        let mk = |op: Op, args: Vec<Value>| Ok(Some(Inst { op, args: args.into(), dst }));
        match &inst.kind {
            InstKind::Binary { op, lhs, rhs, .. } => {
                let (a, b) = (self.operand(*lhs)?, self.operand(*rhs)?);
                let s = self.scalar_ty(a)?;
                mk(Op::Binary(bin_op(*op), s), vec![a, b])
            }
            InstKind::Cast { op, value } => {
                let v = self.operand(*value)?;
                let to = self.ty(inst.ty)?;
                match (cast_op(*op)?, self.out.ty(v).scalar(), to.scalar()) {
                    (Some(c), Some(f), Some(t)) => mk(Op::Cast(c, f, t), vec![v]),
                    (Some(CastOp::BitCast) | None, _, _) if self.out.ty(v).slots() == to.slots() => {
                        mk(Op::Copy, vec![v])
                    }
                    _ => unsupported(format!("cast {} of a vector", op.name())),
                }
            }
            InstKind::Cmp { pred, lhs, rhs } => {
                let (a, b) = (self.operand(*lhs)?, self.operand(*rhs)?);
                let s = self.scalar_ty(a)?;
                let p = CmpPred::from_llvm(*pred).ok_or_else(|| LowerError::Malformed(format!("predicate {pred}")))?;
                mk(Op::Cmp(p, s), vec![a, b])
            }
            InstKind::Select { cond, then, otherwise } => {
                let c = self.operand(*cond)?;
                self.scalar_ty(c)?;
                let (t, e) = (self.operand(*then)?, self.operand(*otherwise)?);
                if self.out.ty(t) != self.out.ty(e) || dst.is_some_and(|d| self.out.ty(d) != self.out.ty(t)) {
                    return bad("select of values of other types");
                }
                mk(Op::Select, vec![c, t, e])
            }
            InstKind::ExtractValue { agg, indices } => {
                let aty = self.value_def(*agg)?.ty;
                let at = self.slot_path(aty, indices)?;
                let a = self.operand(*agg)?;
                mk(Op::Extract(at), vec![a])
            }
            InstKind::InsertValue { agg, value, indices } => {
                let aty = self.value_def(*agg)?.ty;
                let at = self.slot_path(aty, indices)?;
                let (a, v) = (self.operand(*agg)?, self.operand(*value)?);
                mk(Op::Insert(at), vec![a, v])
            }
            InstKind::ExtractElement { vector, index } => {
                let (v, i) = (self.operand(*vector)?, self.operand(*index)?);
                match self.out.const_bits(i).map(|b| b[0]) {
                    Some(k) if k < u64::from(self.out.ty(v).slots()) => mk(Op::Extract(k as u32), vec![v]),
                    _ => mk(Op::ExtractDyn, vec![v, i]),
                }
            }
            InstKind::InsertElement { vector, value, index } => {
                let (v, x, i) = (self.operand(*vector)?, self.operand(*value)?, self.operand(*index)?);
                mk(Op::InsertDyn, vec![v, x, i])
            }
            InstKind::ShuffleVector { .. } => unsupported("ShuffleVector"),
            InstKind::Gep { source_ty, base, indices, .. } => {
                let b = self.operand(*base)?;
                let (op, args) = self.gep(*source_ty, b, indices)?;
                mk(op, args)
            }
            InstKind::Alloca { allocated, count, .. } => {
                let n = self.m.const_int(Some(self.f), *count).map_or(1, |c| (c as u64).max(1));
                let cells = self.cells(*allocated)?.saturating_mul(n);
                if cells > MAX_CELLS {
                    return unsupported("alloca above 16M scalars");
                }
                mk(Op::Alloca(cells as u32), vec![])
            }
            InstKind::Load { ptr, .. } => {
                let p = self.operand(*ptr)?;
                mk(Op::Load(self.ty(inst.ty)?.slots()), vec![p])
            }
            InstKind::Store { ptr, value, .. } => {
                let (p, v) = (self.operand(*ptr)?, self.operand(*value)?);
                mk(Op::Store(self.out.ty(v).slots()), vec![p, v])
            }
            InstKind::AtomicRmw { op, ptr, value, .. } => {
                let a = AtomicOp::from_llvm(*op)
                    .ok_or_else(|| LowerError::Unsupported(format!("atomicrmw operation {op}")))?;
                let (p, v) = (self.operand(*ptr)?, self.operand(*value)?);
                let s = self.scalar_ty(v)?;
                mk(Op::AtomicRmw(a, s), vec![p, v])
            }
            InstKind::CmpXchg { ptr, cmp, new, pair, .. } => {
                let (p, c, n) = (self.operand(*ptr)?, self.operand(*cmp)?, self.operand(*new)?);
                let s = self.scalar_ty(c)?;
                mk(Op::CmpXchg { pair: *pair, ty: s }, vec![p, c, n])
            }
            InstKind::Fence { .. } => Ok(None),
            kind @ InstKind::Call { .. } => match self.m.dx_op(self.f, kind) {
                Some(op) => self.dx(op.opcode, op.args, dst),
                None => unsupported("a call that is not a dx.op"),
            },
            other => unsupported(format!("{other:?}")),
        }
    }

    /// A dx.op call.
    fn dx(&mut self, opcode: u32, ops: &[Operand], dst: Option<Value>) -> R<Option<Inst>> {
        if let Some(i) = self.wave(opcode, ops, dst)? {
            return Ok(Some(i));
        }
        if let Some(i) = self.binding(opcode, ops, dst)? {
            return Ok(Some(i));
        }
        let Some(mut d) = Dx::from_opcode(opcode) else {
            return unsupported(format!("dx.op {opcode} ({})", super::ops::opcode_name(opcode).unwrap_or("unknown")));
        };
        let mut args = Vec::with_capacity(ops.len());
        for o in ops {
            args.push(match o {
                Operand::Value(v) => self.operand(*v)?,
                Operand::Metadata(_) => self.constant(Scalar::I32, 0),
            });
        }
        let imm = |k: usize, what: &str| -> R<u64> {
            match ops.get(k) {
                Some(Operand::Value(v)) => self
                    .m
                    .const_int(Some(self.f), *v)
                    .map(|c| c as u64)
                    .ok_or_else(|| LowerError::Unsupported(format!("{what} that is not a constant"))),
                _ => bad(format!("{what} missing")),
            }
        };
        // The environment moves 32-bit values: 64-bit typed loads and stores and shader model
        // 6.6's 64-bit resource atomics would run on half their bits.
        let bits = |v: Option<&Value>| v.map_or(0, |v| self.out.ty(*v).slot(0).bits());
        let wide = match d {
            Dx::AtomicBinOp(_) | Dx::AtomicCompareExchange | Dx::BufferLoad | Dx::TextureLoad => bits(dst.as_ref()),
            Dx::BufferStore => bits(args.get(3)),
            Dx::TextureStore => bits(args.get(4)),
            _ => 0,
        } == 64;
        if wide {
            return unsupported(format!("dx.op {opcode} ({}) of 64-bit values", d.name()));
        }
        match &mut d {
            Dx::LoadInput { vertex } => {
                *vertex = match ops.get(3) {
                    Some(Operand::Value(v)) => !matches!(self.value_def(*v)?.kind, ValueKind::Const(Const::Undef)),
                    _ => false,
                };
            }
            Dx::CreateHandle(class) => {
                let c = imm(0, "a resource class")?;
                *class = ResourceClass::from_dxil(c as u32)
                    .ok_or_else(|| LowerError::Malformed(format!("resource class {c}")))?;
                args.remove(0);
            }
            Dx::AtomicBinOp(a) => {
                let op = imm(1, "an atomic operation")?;
                *a = AtomicOp::from_dxil(op as u32)
                    .ok_or_else(|| LowerError::Malformed(format!("atomic operation {op}")))?;
                args.remove(1);
            }
            Dx::Barrier { group_sync } => {
                *group_sync = imm(0, "barrier flags")? & 1 != 0;
                args.remove(0);
            }
            Dx::RawBufferLoad | Dx::RawBufferStore => {
                let load = matches!(d, Dx::RawBufferLoad);
                let value = if load { dst } else { args.get(3).copied() };
                let bits = value.map_or(32, |v| self.out.ty(v).slot(0).bits());
                // DXC writes `undef` as the element offset of a ByteAddressBuffer.
                let raw = match ops.get(2) {
                    Some(Operand::Value(v)) => matches!(self.value_def(*v)?.kind, ValueKind::Const(Const::Undef)),
                    _ => true,
                };
                if bits == 64 {
                    d = if load { Dx::RawBufferLoad64 { raw } } else { Dx::RawBufferStore64 { raw } };
                } else if bits == 16 {
                    if !raw {
                        // A structured element's 16-bit values are found within its 32-bit words
                        // by their offset: exact when every element starts at a multiple of 4.
                        let dx = self.m.dx_metadata().map_err(|e| LowerError::Malformed(e.to_string()))?;
                        if let Some(r) = dx.resources.iter().find(|r| r.stride % 4 != 0) {
                            return unsupported(format!(
                                "16-bit structured buffer access with a structured buffer of stride {} declared",
                                r.stride
                            ));
                        }
                    }
                    d = if load { Dx::RawBufferLoad16 { raw } } else { Dx::RawBufferStore16 { raw } };
                }
            }
            Dx::BarrierByMemoryType { group_sync } => {
                // (memory types, semantics): GroupSync is semantics bit 0 (DXIL.rst
                // BarrierSemanticFlag: GroupSync 1, GroupScope 2, DeviceScope 4).
                *group_sync = imm(1, "barrier semantics")? & 1 != 0;
                args.clear();
            }
            Dx::BarrierByMemoryHandle { group_sync } => {
                *group_sync = imm(1, "barrier semantics")? & 1 != 0;
                args.truncate(1);
            }
            Dx::Unpack4x8 { signed } => {
                *signed = match imm(0, "an unpack mode")? {
                    0 => false,
                    1 => true,
                    m => return bad(format!("unpack mode {m}")),
                };
                args.remove(0);
            }
            Dx::Pack4x8(mode) => {
                *mode = match imm(0, "a pack mode")? {
                    0 => PackMode::Trunc,
                    1 => PackMode::UClamp,
                    2 => PackMode::SClamp,
                    m => return bad(format!("pack mode {m}")),
                };
                args.remove(0);
            }
            _ => {}
        }
        Ok(Some(Inst { op: Op::Dx(d), args: args.into(), dst }))
    }
}

impl Lower<'_> {
    /// A wave or quad dx.op ([`WaveOp::from_dx_op`]) as an [`Op::Wave`]: its kind operands
    /// decoded, its lane operands kept (`None`: not a wave operation).
    fn wave(&mut self, opcode: u32, ops: &[Operand], dst: Option<Value>) -> R<Option<Inst>> {
        let consts: Vec<Option<u64>> = ops
            .iter()
            .map(|o| match o {
                Operand::Value(v) => self.m.const_int(Some(self.f), *v).map(|c| c as u64),
                Operand::Metadata(_) => None,
            })
            .collect();
        let op = match WaveOp::from_dx_op(opcode, &consts) {
            Ok(Some(op)) => op,
            Ok(None) => return Ok(None),
            Err(e) => return unsupported(e.to_string()),
        };
        let mut args = Vec::with_capacity(op.lane_operands());
        for k in 0..op.lane_operands() {
            match ops.get(k) {
                Some(Operand::Value(v)) => args.push(self.operand(*v)?),
                _ => return bad(format!("dx.op {opcode}: operand {k} missing")),
            }
        }
        let ty = match args.first() {
            Some(&v) => self.scalar_ty(v)?,
            None => Scalar::I32,
        };
        Ok(Some(Inst { op: Op::Wave { op, ty }, args: args.into(), dst }))
    }
}

impl Lower<'_> {
    /// Shader model 6.6's handles: `CreateHandleFromBinding` (217: a `%dx.types.ResBind`
    /// constant {lower bound, upper bound, space, class}, the register index, non-uniform)
    /// becomes the [`Dx::CreateHandle`] of the resource range declared with that class, space
    /// and lower bound (its range id, the same index); `AnnotateHandle` (216: handle, resource
    /// properties) a copy of its handle. `None`: another opcode.
    fn binding(&mut self, opcode: u32, ops: &[Operand], dst: Option<Value>) -> R<Option<Inst>> {
        let value = |k: usize| match ops.get(k) {
            Some(Operand::Value(v)) => Ok(*v),
            _ => bad(format!("dx.op {opcode}: operand {k} missing")),
        };
        match opcode {
            216 => {
                let h = self.operand(value(0)?)?;
                Ok(Some(Inst { op: Op::Copy, args: [h].into(), dst }))
            }
            217 => {
                let bind = self.operand(value(0)?)?;
                let Some(&[lower, _, space, class]) = self.out.const_bits(bind) else {
                    return unsupported("createHandleFromBinding of a binding that is not a constant");
                };
                let class = ResourceClass::from_dxil(class as u32)
                    .ok_or_else(|| LowerError::Malformed(format!("resource class {class}")))?;
                let dx = self.m.dx_metadata().map_err(|e| LowerError::Malformed(e.to_string()))?;
                let r = dx
                    .resources
                    .iter()
                    .find(|r| r.class == class && u64::from(r.space) == space && u64::from(r.lower_bound) == lower)
                    .ok_or_else(|| {
                        LowerError::Malformed(format!("no {class:?} range at register {lower}, space {space}"))
                    })?;
                let range = self.constant(Scalar::I32, u64::from(r.id));
                let (index, non_uniform) = (self.operand(value(1)?)?, self.operand(value(2)?)?);
                Ok(Some(Inst { op: Op::Dx(Dx::CreateHandle(class)), args: [range, index, non_uniform].into(), dst }))
            }
            _ => Ok(None),
        }
    }
}

fn bin_op(op: dinst::BinOp) -> BinOp {
    use dinst::BinOp as D;
    match op {
        D::Add => BinOp::Add,
        D::FAdd => BinOp::FAdd,
        D::Sub => BinOp::Sub,
        D::FSub => BinOp::FSub,
        D::Mul => BinOp::Mul,
        D::FMul => BinOp::FMul,
        D::UDiv => BinOp::UDiv,
        D::SDiv => BinOp::SDiv,
        D::FDiv => BinOp::FDiv,
        D::URem => BinOp::URem,
        D::SRem => BinOp::SRem,
        D::FRem => BinOp::FRem,
        D::Shl => BinOp::Shl,
        D::LShr => BinOp::LShr,
        D::AShr => BinOp::AShr,
        D::And => BinOp::And,
        D::Or => BinOp::Or,
        D::Xor => BinOp::Xor,
    }
}

/// The IR cast of an LLVM cast (`None`: pointer casts, which copy).
fn cast_op(op: dinst::CastOp) -> R<Option<CastOp>> {
    use dinst::CastOp as D;
    Ok(Some(match op {
        D::Trunc => CastOp::Trunc,
        D::ZExt => CastOp::ZExt,
        D::SExt => CastOp::SExt,
        D::FPToUI => CastOp::FPToUI,
        D::FPToSI => CastOp::FPToSI,
        D::UIToFP => CastOp::UIToFP,
        D::SIToFP => CastOp::SIToFP,
        D::FPTrunc => CastOp::FPTrunc,
        D::FPExt => CastOp::FPExt,
        D::BitCast => CastOp::BitCast,
        D::AddrSpaceCast => return Ok(None),
        D::PtrToInt | D::IntToPtr => return unsupported(format!("cast {}", op.name())),
    }))
}

#[cfg(test)]
mod tests;
