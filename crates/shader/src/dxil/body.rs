//! Reading function bodies (`FUNCTION_BLOCK`): LLVM 3.7's relative operand encoding
//! resolved to absolute [`ValueId`]s, each result's type computed, and every operand's type
//! checked against its instruction.

use super::bitstream::{Block, Item, Record};
use super::inst::{atomic_rmw_name, predicate_name, BinOp, CastOp, Inst, InstKind, Operand};
use super::module::{
    check_acyclic, const_operands, decode_signed, op, parse_constants, BasicBlock, Const, Function, Module, ValueDef,
    ValueId, ValueKind, CONSTANTS_BLOCK, METADATA_ATTACHMENT_BLOCK, METADATA_BLOCK, USELIST_BLOCK, VALUE_SYMTAB_BLOCK,
};
use super::types::{Type, TypeId};
use super::DxilError;

// FUNC_CODE_* of LLVM 3.7.
const DECLAREBLOCKS: u32 = 1;
const INST_BINOP: u32 = 2;
const INST_CAST: u32 = 3;
const INST_SELECT: u32 = 5;
const INST_EXTRACTELT: u32 = 6;
const INST_INSERTELT: u32 = 7;
const INST_SHUFFLEVEC: u32 = 8;
const INST_CMP: u32 = 9;
const INST_RET: u32 = 10;
const INST_BR: u32 = 11;
const INST_SWITCH: u32 = 12;
const INST_UNREACHABLE: u32 = 15;
const INST_PHI: u32 = 16;
const INST_ALLOCA: u32 = 19;
const INST_LOAD: u32 = 20;
const INST_EXTRACTVAL: u32 = 26;
const INST_INSERTVAL: u32 = 27;
const INST_CMP2: u32 = 28;
const INST_VSELECT: u32 = 29;
const DEBUG_LOC_AGAIN: u32 = 33;
const INST_CALL: u32 = 34;
const DEBUG_LOC: u32 = 35;
const INST_FENCE: u32 = 36;
const INST_ATOMICRMW: u32 = 38;
const INST_GEP: u32 = 43;
const INST_STORE: u32 = 44;
const INST_CMPXCHG: u32 = 46;
/// LLVM 3.5's `cmpxchg` record: the compare operand has no type of its own and the result is
/// the loaded value.
const INST_CMPXCHG_OLD: u32 = 37;

/// The call record's flag bits in its calling-convention operand.
const CALL_EXPLICIT_TYPE: u64 = 1 << 15;
const CALL_FMF: u64 = 1 << 17;

/// Reading state for one function body.
struct Body<'m> {
    m: &'m mut Module,
    /// Values of the function, from `first_local`.
    values: Vec<ValueDef>,
    first_local: u32,
    void: TypeId,
}

/// A cursor over one instruction record's operands.
struct Ops<'r> {
    r: &'r Record,
    at: usize,
}

const W: &str = "function body";

fn bad(what: &'static str) -> DxilError {
    DxilError::Malformed(W, what)
}

impl Ops<'_> {
    fn next(&mut self) -> Result<u64, DxilError> {
        let v = op(self.r, self.at, W)?;
        self.at += 1;
        Ok(v)
    }
    fn left(&self) -> usize {
        self.r.ops.len().saturating_sub(self.at)
    }
    fn u32(&mut self) -> Result<u32, DxilError> {
        u32::try_from(self.next()?).map_err(|_| bad("operand over 32 bits"))
    }
}

fn align(code: u64) -> u64 {
    let log = code & 31;
    if log == 0 {
        0
    } else {
        1u64 << (log - 1).min(62)
    }
}

impl Body<'_> {
    /// The id the next value will get: the base of relative operand ids.
    fn next_id(&self) -> u32 {
        self.first_local + self.values.len() as u32
    }

    fn ty_of(&self, id: ValueId) -> Option<TypeId> {
        if id.0 >= self.first_local {
            self.values.get((id.0 - self.first_local) as usize).map(|v| v.ty)
        } else {
            self.m.values.get(id.0 as usize).map(|v| v.ty)
        }
    }

    /// A relative operand whose type the instruction implies.
    fn value(&self, o: &mut Ops) -> Result<ValueId, DxilError> {
        // LLVM 3.7 writes `InstNum - ValueId` in 32-bit arithmetic, so forward references wrap.
        Ok(ValueId(self.next_id().wrapping_sub(o.next()? as u32)))
    }

    /// A relative operand followed, when it is a forward reference, by its type.
    fn value_ty(&mut self, o: &mut Ops) -> Result<(ValueId, TypeId), DxilError> {
        let v = self.value(o)?;
        if v.0 < self.next_id() {
            Ok((v, self.ty_of(v).ok_or(bad("operand id out of range"))?))
        } else {
            Ok((v, self.m.types.check(o.next()?)?))
        }
    }

    fn ty(&self, o: &mut Ops) -> Result<TypeId, DxilError> {
        self.m.types.check(o.next()?)
    }

    fn i1_like(&mut self, operand: TypeId) -> TypeId {
        let i1 = self.m.types.intern(Type::Int(1));
        match self.m.types.at(operand) {
            Type::Vector { len, .. } => {
                let len = *len;
                self.m.types.intern(Type::Vector { len, elem: i1 })
            }
            _ => i1,
        }
    }

    /// Decodes one instruction record into its kind and result type.
    fn inst(&mut self, r: &Record) -> Result<(InstKind, TypeId), DxilError> {
        let mut o = Ops { r, at: 0 };
        let o = &mut o;
        let void = self.void;
        Ok(match r.code {
            INST_BINOP => {
                let (lhs, ty) = self.value_ty(o)?;
                let rhs = self.value(o)?;
                let code = o.next()?;
                let op = BinOp::decode(code, self.m.types.is_float(ty)).ok_or(bad("unknown binary opcode"))?;
                let flags = if o.left() > 0 { o.next()? } else { 0 };
                (InstKind::Binary { op, lhs, rhs, flags }, ty)
            }
            INST_CAST => {
                let (value, _) = self.value_ty(o)?;
                let ty = self.ty(o)?;
                let op = CastOp::decode(o.next()?).ok_or(bad("unknown cast opcode"))?;
                (InstKind::Cast { op, value }, ty)
            }
            INST_CMP | INST_CMP2 => {
                let (lhs, ty) = self.value_ty(o)?;
                let rhs = self.value(o)?;
                let pred = o.u32()?;
                predicate_name(pred).ok_or(bad("unknown comparison predicate"))?;
                (InstKind::Cmp { pred, lhs, rhs }, self.i1_like(ty))
            }
            INST_SELECT | INST_VSELECT => {
                let (then, ty) = self.value_ty(o)?;
                let otherwise = self.value(o)?;
                let cond = if r.code == INST_VSELECT { self.value_ty(o)?.0 } else { self.value(o)? };
                (InstKind::Select { cond, then, otherwise }, ty)
            }
            INST_EXTRACTVAL | INST_INSERTVAL => {
                let (agg, agg_ty) = self.value_ty(o)?;
                let value = if r.code == INST_INSERTVAL { Some(self.value_ty(o)?.0) } else { None };
                let mut indices = Vec::new();
                let mut ty = agg_ty;
                while o.left() > 0 {
                    let i = o.u32()?;
                    ty = match self.m.types.at(ty) {
                        Type::Struct { .. } | Type::Array { .. } => {
                            self.m.types.element(ty, i as u64).ok_or(bad("aggregate index out of range"))?
                        }
                        _ => return Err(bad("aggregate index into a non-aggregate")),
                    };
                    indices.push(i);
                }
                if indices.is_empty() {
                    return Err(bad("aggregate access without indices"));
                }
                match value {
                    Some(value) => (InstKind::InsertValue { agg, value, indices }, agg_ty),
                    None => (InstKind::ExtractValue { agg, indices }, ty),
                }
            }
            INST_EXTRACTELT => {
                let (vector, ty) = self.value_ty(o)?;
                let (index, _) = self.value_ty(o)?;
                let elem = match self.m.types.at(ty) {
                    Type::Vector { elem, .. } => *elem,
                    _ => return Err(bad("extractelement from a non-vector")),
                };
                (InstKind::ExtractElement { vector, index }, elem)
            }
            INST_INSERTELT => {
                let (vector, ty) = self.value_ty(o)?;
                let value = self.value(o)?;
                let (index, _) = self.value_ty(o)?;
                (InstKind::InsertElement { vector, value, index }, ty)
            }
            INST_SHUFFLEVEC => {
                let (a, ty) = self.value_ty(o)?;
                let b = self.value(o)?;
                let (mask, mask_ty) = self.value_ty(o)?;
                let (Type::Vector { elem, .. }, Type::Vector { len, .. }) =
                    (self.m.types.at(ty).clone(), self.m.types.at(mask_ty).clone())
                else {
                    return Err(bad("shufflevector of non-vectors"));
                };
                (InstKind::ShuffleVector { a, b, mask }, self.m.types.intern(Type::Vector { len, elem }))
            }
            INST_GEP => {
                let inbounds = o.next()? != 0;
                let source_ty = self.ty(o)?;
                let (base, base_ty) = self.value_ty(o)?;
                let mut indices = Vec::new();
                while o.left() > 0 {
                    indices.push(self.value_ty(o)?.0);
                }
                let (_, space) = self.m.types.pointee(base_ty).ok_or(bad("GEP base is not a pointer"))?;
                // The first index steps over whole objects; the rest walk into the type.
                let mut ty = source_ty;
                for &i in indices.iter().skip(1) {
                    let index = match self.m.types.at(ty) {
                        Type::Struct { .. } => self.const_index(i).ok_or(bad("struct GEP index is not a constant"))?,
                        _ => 0,
                    };
                    ty = self.m.types.element(ty, index).ok_or(bad("GEP index into a non-aggregate"))?;
                }
                let ptr = self.m.types.intern(Type::Pointer { pointee: ty, addr_space: space });
                (InstKind::Gep { inbounds, source_ty, base, indices }, ptr)
            }
            INST_ALLOCA => {
                // [allocated type, count type, count (absolute id), align | inalloca << 5 |
                //  explicit type << 6]
                let ty = self.ty(o)?;
                let _count_ty = self.ty(o)?;
                let count = ValueId(o.u32()?);
                let a = o.next()?;
                let allocated = if a & (1 << 6) != 0 {
                    ty
                } else {
                    self.m.types.pointee(ty).ok_or(bad("alloca type is not a pointer"))?.0
                };
                let ptr = self.m.types.intern(Type::Pointer { pointee: allocated, addr_space: 0 });
                (InstKind::Alloca { allocated, count, align: align(a) }, ptr)
            }
            INST_LOAD => {
                let (ptr, ptr_ty) = self.value_ty(o)?;
                let ty = if o.left() == 3 {
                    self.ty(o)?
                } else {
                    self.m.types.pointee(ptr_ty).ok_or(bad("load from a non-pointer"))?.0
                };
                let a = o.next()?;
                let volatile = o.next()? != 0;
                (InstKind::Load { ptr, align: align(a), volatile }, ty)
            }
            INST_STORE => {
                let (ptr, _) = self.value_ty(o)?;
                let (value, _) = self.value_ty(o)?;
                let a = o.next()?;
                let volatile = o.next()? != 0;
                (InstKind::Store { ptr, value, align: align(a), volatile }, void)
            }
            INST_ATOMICRMW => {
                let (ptr, ptr_ty) = self.value_ty(o)?;
                let ty = self.m.types.pointee(ptr_ty).ok_or(bad("atomicrmw on a non-pointer"))?.0;
                let value = self.value(o)?;
                let op = o.u32()?;
                atomic_rmw_name(op).ok_or(bad("unknown atomicrmw operation"))?;
                let volatile = o.next()? != 0;
                let ordering = o.next()?;
                (InstKind::AtomicRmw { op, ptr, value, volatile, ordering }, ty)
            }
            INST_CMPXCHG => {
                let (ptr, _) = self.value_ty(o)?;
                let (cmp, ty) = self.value_ty(o)?;
                let new = self.value(o)?;
                let volatile = o.next()? != 0;
                let ordering = o.next()?;
                let i1 = self.m.types.intern(Type::Int(1));
                let pair =
                    self.m.types.intern(Type::Struct { name: None, packed: false, elems: vec![ty, i1], opaque: false });
                (InstKind::CmpXchg { ptr, cmp, new, volatile, ordering, pair: true }, pair)
            }
            INST_CMPXCHG_OLD => {
                let (ptr, ptr_ty) = self.value_ty(o)?;
                let ty = self.m.types.pointee(ptr_ty).ok_or(bad("cmpxchg on a non-pointer"))?.0;
                let cmp = self.value(o)?;
                let new = self.value(o)?;
                let volatile = o.next()? != 0;
                let ordering = o.next()?;
                (InstKind::CmpXchg { ptr, cmp, new, volatile, ordering, pair: false }, ty)
            }
            INST_CALL => {
                let _paramattr = o.next()?;
                let cc = o.next()?;
                let flags = if cc & CALL_FMF != 0 { o.next()? } else { 0 };
                let explicit = if cc & CALL_EXPLICIT_TYPE != 0 { Some(self.ty(o)?) } else { None };
                let (callee, callee_ty) = self.value_ty(o)?;
                let fn_ty = match explicit {
                    Some(t) => t,
                    None => self.m.types.pointee(callee_ty).ok_or(bad("callee is not a pointer"))?.0,
                };
                let Type::Function { vararg, ret, params } = self.m.types.at(fn_ty).clone() else {
                    return Err(bad("call through a non-function type"));
                };
                let mut args = Vec::with_capacity(params.len());
                for p in params {
                    args.push(match self.m.types.at(p) {
                        // Metadata arguments name metadata ids, relative like values.
                        Type::Metadata => Operand::Metadata(self.value(o)?.0),
                        Type::Label => return Err(DxilError::Unsupported("label call argument", 0)),
                        _ => Operand::Value(self.value(o)?),
                    });
                }
                if vararg {
                    while o.left() > 0 {
                        args.push(Operand::Value(self.value_ty(o)?.0));
                    }
                }
                (InstKind::Call { callee, fn_ty, args, flags }, ret)
            }
            INST_PHI => {
                let ty = self.ty(o)?;
                if !o.left().is_multiple_of(2) {
                    return Err(bad("phi with an odd operand count"));
                }
                let mut incoming = Vec::with_capacity(o.left() / 2);
                while o.left() > 0 {
                    // Phi operands are signed: they may point forward without a type.
                    let rel = decode_signed(o.next()?);
                    let v = (self.next_id() as i64).checked_sub(rel).ok_or(bad("phi operand id out of range"))?;
                    let v = u32::try_from(v).map_err(|_| bad("phi operand id out of range"))?;
                    incoming.push((ValueId(v), o.u32()?));
                }
                (InstKind::Phi { incoming }, ty)
            }
            INST_RET => {
                if o.left() == 0 {
                    (InstKind::Ret { value: None }, void)
                } else {
                    let (v, _) = self.value_ty(o)?;
                    (InstKind::Ret { value: Some(v) }, void)
                }
            }
            INST_BR => {
                let target = o.u32()?;
                if o.left() == 0 {
                    (InstKind::Br { target }, void)
                } else {
                    let otherwise = o.u32()?;
                    let cond = self.value(o)?;
                    (InstKind::CondBr { cond, then: target, otherwise }, void)
                }
            }
            INST_SWITCH => {
                let raw = o.next()?;
                if raw >> 16 == 0x4B5 {
                    // LLVM 3.3's case-range form, which DXIL writers never use.
                    return Err(DxilError::Unsupported("switch record form", raw));
                }
                let ty = self.m.types.check(raw)?;
                if !matches!(self.m.types.at(ty), Type::Int(_)) {
                    return Err(bad("switch on a non-integer"));
                }
                let cond = self.value(o)?;
                let default = o.u32()?;
                let mut cases = Vec::new();
                while o.left() >= 2 {
                    cases.push((ValueId(o.u32()?), o.u32()?));
                }
                (InstKind::Switch { cond, default, cases }, void)
            }
            INST_UNREACHABLE => (InstKind::Unreachable, void),
            INST_FENCE => (InstKind::Fence { ordering: o.next()?, scope: o.next()? }, void),
            code => return Err(DxilError::Unsupported("instruction code", code as u64)),
        })
    }

    fn const_index(&self, id: ValueId) -> Option<u64> {
        let def = if id.0 >= self.first_local {
            self.values.get((id.0 - self.first_local) as usize)?
        } else {
            self.m.values.get(id.0 as usize)?
        };
        match def.kind {
            ValueKind::Const(Const::Int(v)) => u64::try_from(v).ok(),
            // LLVM writes a zero of an integer type as a null constant (CST_CODE_NULL).
            ValueKind::Const(Const::Null) if matches!(self.m.types.get(def.ty), Some(Type::Int(_))) => Some(0),
            _ => None,
        }
    }
}

/// Reads the body of function `index` from its `FUNCTION_BLOCK`.
///
/// Guarantees: every block ends in exactly one terminator; every value operand and branch
/// target is in range (forward references are checked once the body is read); every
/// non-void instruction has a result id, in order.
pub(crate) fn parse_body(m: &mut Module, index: usize, b: &Block) -> Result<(), DxilError> {
    let void = m.types.intern(Type::Void);
    let first_local = m.values.len() as u32;
    let fn_ty = m.functions[index].ty;
    let Type::Function { params, .. } = m.types.at(fn_ty).clone() else {
        return Err(bad("function type is not a function type"));
    };
    let mut body = Body { m, values: Vec::new(), first_local, void };
    for (i, p) in params.iter().enumerate() {
        body.values.push(ValueDef { ty: *p, kind: ValueKind::Arg(i as u32), name: None });
    }
    let mut blocks: Vec<BasicBlock> = Vec::new();
    let mut current = 0usize;
    let mut symtab = None;
    for item in &b.items {
        let r = match item {
            Item::Block(sub) => {
                match sub.id {
                    CONSTANTS_BLOCK => parse_constants(sub, &mut body.m.types, &mut body.values)?,
                    VALUE_SYMTAB_BLOCK => symtab = Some(sub),
                    // Function-local metadata, attachments (!dx.precise, ...) and use lists
                    // carry nothing an interpreter needs.
                    METADATA_BLOCK | METADATA_ATTACHMENT_BLOCK | USELIST_BLOCK => {}
                    id => return Err(DxilError::Unsupported("function-level block", id as u64)),
                }
                continue;
            }
            Item::Record(r) => r,
        };
        match r.code {
            DECLAREBLOCKS => {
                let n = op(r, 0, W)?;
                if !blocks.is_empty() || n == 0 || n > b.items.len() as u64 {
                    return Err(bad("DECLAREBLOCKS repeated, zero or larger than the body"));
                }
                blocks = vec![BasicBlock::default(); n as usize];
                continue;
            }
            DEBUG_LOC | DEBUG_LOC_AGAIN => continue,
            _ => {}
        }
        if current >= blocks.len() {
            return Err(bad("instruction after the last declared block"));
        }
        let (kind, ty) = body.inst(r)?;
        let result = if ty != void {
            let id = ValueId(body.next_id());
            let at = ValueKind::Inst { block: current as u32, index: blocks[current].insts.len() as u32 };
            body.values.push(ValueDef { ty, kind: at, name: None });
            Some(id)
        } else {
            None
        };
        let ends = kind.is_terminator();
        blocks[current].insts.push(Inst { kind, ty, result });
        if ends {
            current += 1;
        }
    }
    if current != blocks.len() {
        return Err(bad("a block does not end in a terminator"));
    }
    let total = body.next_id();
    for inst in blocks.iter().flat_map(|b| &b.insts) {
        if inst.kind.operands().iter().any(|v| v.0 >= total) {
            return Err(bad("operand id out of range"));
        }
        let targets = match &inst.kind {
            InstKind::Phi { incoming } => incoming.iter().map(|(_, b)| *b).collect(),
            k => k.successors(),
        };
        if targets.iter().any(|&t| t as usize >= blocks.len()) {
            return Err(bad("branch target out of range"));
        }
    }
    for v in &body.values {
        if let ValueKind::Const(c) = &v.kind {
            if const_operands(c).any(|v| v.0 >= total) {
                return Err(bad("constant operand id out of range"));
            }
        }
    }
    check_acyclic(&body.values, first_local)?;
    if let Some(st) = symtab {
        for r in st.records() {
            let id = op(r, 0, W)? as usize;
            let name = r.string(1).ok_or(bad("symbol name is not text"))?;
            match r.code {
                // VST_ENTRY [value id, name]
                1 => {
                    let local = id.checked_sub(first_local as usize).and_then(|i| body.values.get_mut(i));
                    local.ok_or(bad("symbol for a value out of range"))?.name = Some(name);
                }
                // VST_BBENTRY [block, name]
                2 => blocks.get_mut(id).ok_or(bad("symbol for a block out of range"))?.name = Some(name),
                _ => {}
            }
        }
    }
    let values = body.values;
    let f = &mut m.functions[index];
    f.first_local = first_local;
    f.values = values;
    f.blocks = blocks;
    check_types(m, &m.functions[index])
}

/// Checks that every operand has the type its instruction needs: forward references carry
/// a type the reader could only trust until the value was read, and an interpreter should
/// not have to re-check what the bitcode promised.
fn check_types(m: &Module, f: &Function) -> Result<(), DxilError> {
    let t = &m.types;
    let ty = |v: ValueId| m.value(Some(f), v).map(|d| d.ty).ok_or(bad("operand id out of range"));
    let is_int = |id: TypeId| match t.at(id) {
        Type::Int(_) => true,
        Type::Vector { elem, .. } => matches!(t.at(*elem), Type::Int(_)),
        _ => false,
    };
    let is_i1 = |id: TypeId| match t.at(id) {
        Type::Int(1) => true,
        Type::Vector { elem, .. } => *t.at(*elem) == Type::Int(1),
        _ => false,
    };
    let need = |ok: bool, what: &'static str| if ok { Ok(()) } else { Err(bad(what)) };
    let Type::Function { ret, .. } = t.at(f.ty) else { return Err(bad("function type is not a function type")) };
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        match &inst.kind {
            InstKind::Binary { op, lhs, rhs, .. } => {
                need(ty(*lhs)? == inst.ty && ty(*rhs)? == inst.ty, "binary operand types differ")?;
                need(if op.is_float() { t.is_float(inst.ty) } else { is_int(inst.ty) }, "binary operand type")?;
            }
            InstKind::Cmp { pred, lhs, rhs } => {
                need(ty(*lhs)? == ty(*rhs)?, "compared types differ")?;
                let float = t.is_float(ty(*lhs)?);
                need(float == (*pred < 32), "comparison predicate does not fit its operands")?;
            }
            InstKind::Select { cond, then, otherwise } => {
                need(is_i1(ty(*cond)?), "select condition is not i1")?;
                need(ty(*then)? == inst.ty && ty(*otherwise)? == inst.ty, "select operand types differ")?;
            }
            InstKind::InsertValue { agg, value, indices } => {
                let mut at = ty(*agg)?;
                for &i in indices {
                    at = t.element(at, i as u64).ok_or(bad("aggregate index out of range"))?;
                }
                need(ty(*value)? == at && ty(*agg)? == inst.ty, "inserted value type")?;
            }
            InstKind::ExtractElement { vector, index } | InstKind::InsertElement { vector, index, .. } => {
                need(matches!(t.at(ty(*vector)?), Type::Vector { .. }), "element access on a non-vector")?;
                need(is_int(ty(*index)?), "element index is not an integer")?;
                if let InstKind::InsertElement { value, .. } = &inst.kind {
                    need(t.element(ty(*vector)?, 0) == Some(ty(*value)?), "inserted element type")?;
                }
            }
            InstKind::ShuffleVector { a, b, .. } => need(ty(*a)? == ty(*b)?, "shuffled vector types differ")?,
            InstKind::Gep { source_ty, base, indices, .. } => {
                need(t.pointee(ty(*base)?).map(|p| p.0) == Some(*source_ty), "GEP base type")?;
                for i in indices {
                    need(is_int(ty(*i)?), "GEP index is not an integer")?;
                }
            }
            InstKind::Alloca { count, .. } => need(is_int(ty(*count)?), "alloca count is not an integer")?,
            InstKind::Load { ptr, .. } => {
                need(t.pointee(ty(*ptr)?).map(|p| p.0) == Some(inst.ty), "loaded type differs from the pointee")?
            }
            InstKind::Store { ptr, value, .. } | InstKind::AtomicRmw { ptr, value, .. } => {
                need(t.pointee(ty(*ptr)?).map(|p| p.0) == Some(ty(*value)?), "stored type differs from the pointee")?
            }
            InstKind::CmpXchg { ptr, cmp, new, .. } => {
                let v = ty(*cmp)?;
                need(t.pointee(ty(*ptr)?).map(|p| p.0) == Some(v) && ty(*new)? == v, "cmpxchg operand types")?
            }
            InstKind::Call { callee, fn_ty, args, .. } => {
                need(t.pointee(ty(*callee)?).map(|p| p.0) == Some(*fn_ty), "callee type differs from the call's")?;
                let Type::Function { params, .. } = t.at(*fn_ty) else { return Err(bad("call type")) };
                for (a, p) in args.iter().zip(params) {
                    if let Operand::Value(v) = a {
                        need(ty(*v)? == *p, "argument type differs from the parameter")?;
                    }
                }
            }
            InstKind::Phi { incoming } => {
                for (v, _) in incoming {
                    need(ty(*v)? == inst.ty, "phi operand type differs from the phi")?;
                }
            }
            InstKind::Ret { value } => {
                let ok = match value {
                    Some(v) => ty(*v)? == *ret,
                    None => *t.at(*ret) == Type::Void,
                };
                need(ok, "returned type differs from the function's")?;
            }
            InstKind::CondBr { cond, .. } => need(*t.at(ty(*cond)?) == Type::Int(1), "branch condition is not i1")?,
            InstKind::Switch { cond, cases, .. } => {
                let c = ty(*cond)?;
                need(matches!(t.at(c), Type::Int(_)), "switch on a non-integer")?;
                for (v, _) in cases {
                    need(ty(*v)? == c && m.const_int(Some(f), *v).is_some(), "switch case is not a constant")?;
                }
            }
            InstKind::Cast { .. }
            | InstKind::ExtractValue { .. }
            | InstKind::Br { .. }
            | InstKind::Unreachable
            | InstKind::Fence { .. } => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_codes_are_log2_plus_one() {
        assert_eq!(align(0), 0);
        assert_eq!(align(1), 1);
        assert_eq!(align(3), 4);
        assert_eq!(align(3 | 1 << 6), 4);
    }
}
