//! LLVM-like text of a module (`Display for Module`), close to what `llvm-dis` prints for
//! the same bitcode: unnamed values and blocks are numbered in LLVM's order (arguments,
//! then per block its label and its results), so printed lines can be compared with
//! `llvm-dis` output by eye and in tests. Float constants print as LLVM's exact hex form.

use core::cell::Cell;
use core::fmt::{self, Write};

use super::inst::{atomic_rmw_name, predicate_name, InstKind, Operand};
use super::metadata::Md;
use super::module::{Const, Function, Module, ValueId, ValueKind};
use super::types::{write_name, Type, TypeId};

/// Slot names of one function's unnamed values and blocks.
struct Slots {
    /// Per function-local value (from `first_local`), its printed name without the sigil.
    values: Vec<String>,
    /// Per block, its printed label.
    blocks: Vec<String>,
}

impl Slots {
    fn new(f: &Function) -> Slots {
        let mut next = 0u32;
        let mut number = |name: &Option<String>| match name {
            Some(n) => n.clone(),
            None => {
                next += 1;
                (next - 1).to_string()
            }
        };
        let mut values = vec![String::new(); f.values.len()];
        for (i, v) in f.values.iter().enumerate() {
            if matches!(v.kind, ValueKind::Arg(_)) {
                values[i] = number(&v.name);
            }
        }
        let mut blocks = Vec::new();
        for b in &f.blocks {
            blocks.push(number(&b.name));
            for inst in &b.insts {
                if let Some(r) = inst.result {
                    let i = (r.0 - f.first_local) as usize;
                    values[i] = number(&f.values[i].name);
                }
            }
        }
        Slots { values, blocks }
    }
}

struct Printer<'a> {
    m: &'a Module,
    f: Option<&'a Function>,
    slots: Option<Slots>,
    /// Constants left to expand inline. Constants may share operands, so a short module can
    /// describe an exponentially large expression; past the budget they print as `<...>`.
    budget: Cell<u32>,
}

/// Constants one printer expands at most.
const CONSTANT_BUDGET: u32 = 100_000;

/// How deep constants nest when printed; a chain of constant casts may be long.
const MAX_CONSTANT_DEPTH: u32 = 16;

impl Printer<'_> {
    fn ty(&self, out: &mut dyn Write, t: TypeId) -> fmt::Result {
        self.m.types.write(out, t)
    }

    fn type_of(&self, v: ValueId) -> Option<TypeId> {
        self.m.value(self.f, v).map(|d| d.ty)
    }

    /// Writes a value without its type.
    fn value(&self, out: &mut dyn Write, v: ValueId) -> fmt::Result {
        self.value_depth(out, v, 0)
    }

    fn value_depth(&self, out: &mut dyn Write, v: ValueId, depth: u32) -> fmt::Result {
        let Some(def) = self.m.value(self.f, v) else { return write!(out, "<bad {}>", v.0) };
        match &def.kind {
            ValueKind::Function(i) => write_name(out, '@', &self.m.functions[*i].name),
            ValueKind::Global(i) => write_name(out, '@', &self.m.globals[*i].name),
            ValueKind::Arg(_) | ValueKind::Inst { .. } => {
                let (Some(f), Some(s)) = (self.f, &self.slots) else { return write!(out, "<local {}>", v.0) };
                write_name(out, '%', &s.values[(v.0 - f.first_local) as usize])
            }
            ValueKind::Const(_) if depth > MAX_CONSTANT_DEPTH || self.budget.get() == 0 => out.write_str("<...>"),
            ValueKind::Const(c) => {
                self.budget.set(self.budget.get() - 1);
                self.constant(out, c, def.ty, depth + 1)
            }
        }
    }

    fn typed_depth(&self, out: &mut dyn Write, v: ValueId, depth: u32) -> fmt::Result {
        match self.type_of(v) {
            Some(t) => self.ty(out, t)?,
            None => out.write_str("<?>")?,
        }
        out.write_char(' ')?;
        self.value_depth(out, v, depth)
    }

    /// Writes `type value`.
    fn typed(&self, out: &mut dyn Write, v: ValueId) -> fmt::Result {
        self.typed_depth(out, v, 0)
    }

    fn list(&self, out: &mut dyn Write, vs: &[ValueId], depth: u32) -> fmt::Result {
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            self.typed_depth(out, *v, depth)?;
        }
        Ok(())
    }

    fn constant(&self, out: &mut dyn Write, c: &Const, ty: TypeId, depth: u32) -> fmt::Result {
        let t = self.m.types.get(ty);
        match c {
            Const::Null => match t {
                Some(Type::Pointer { .. }) => out.write_str("null"),
                Some(Type::Int(_)) => out.write_str(if matches!(t, Some(Type::Int(1))) { "false" } else { "0" }),
                Some(Type::Half | Type::Float | Type::Double) => out.write_str("0.000000e+00"),
                _ => out.write_str("zeroinitializer"),
            },
            Const::Undef => out.write_str("undef"),
            Const::Int(v) => match t {
                Some(Type::Int(1)) => out.write_str(if *v != 0 { "true" } else { "false" }),
                _ => write!(out, "{v}"),
            },
            Const::Float(bits) => match t {
                Some(Type::Half) => write!(out, "0xH{:04X}", bits & 0xFFFF),
                // LLVM prints float constants as the double they widen to.
                Some(Type::Float) => write!(out, "0x{:016X}", (f32::from_bits(*bits as u32) as f64).to_bits()),
                _ => write!(out, "0x{bits:016X}"),
            },
            Const::Aggregate(vs) => {
                let (open, close) = match t {
                    Some(Type::Array { .. }) => ("[", "]"),
                    Some(Type::Vector { .. }) => ("<", ">"),
                    _ => ("{ ", " }"),
                };
                out.write_str(open)?;
                self.list(out, vs, depth)?;
                out.write_str(close)
            }
            Const::Data(vs) => {
                let elem = match t {
                    Some(Type::Array { elem, .. } | Type::Vector { elem, .. }) => *elem,
                    _ => ty,
                };
                out.write_str(if matches!(t, Some(Type::Vector { .. })) { "<" } else { "[" })?;
                for (i, v) in vs.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    self.ty(out, elem)?;
                    write!(out, " {v}")?;
                }
                out.write_str(if matches!(t, Some(Type::Vector { .. })) { ">" } else { "]" })
            }
            Const::String(s) => write!(out, "c\"{}\"", s.escape_ascii()),
            Const::Cast { op, value } => {
                write!(out, "{} (", op.name())?;
                self.typed_depth(out, *value, depth)?;
                out.write_str(" to ")?;
                self.ty(out, ty)?;
                out.write_str(")")
            }
            Const::Binary { op, lhs, rhs } => {
                write!(out, "{} (", op.name())?;
                self.list(out, &[*lhs, *rhs], depth)?;
                out.write_str(")")
            }
            Const::Cmp { pred, lhs, rhs } => {
                let kind = if *pred < 32 { "fcmp" } else { "icmp" };
                write!(out, "{kind} {} (", predicate_name(*pred).unwrap_or("?"))?;
                self.list(out, &[*lhs, *rhs], depth)?;
                out.write_str(")")
            }
            Const::Select { cond, then, otherwise } => {
                out.write_str("select (")?;
                self.list(out, &[*cond, *then, *otherwise], depth)?;
                out.write_str(")")
            }
            Const::Gep { inbounds, source_ty, ops } => {
                out.write_str(if *inbounds { "getelementptr inbounds (" } else { "getelementptr (" })?;
                self.ty(out, *source_ty)?;
                out.write_str(", ")?;
                self.list(out, ops, depth)?;
                out.write_str(")")
            }
        }
    }

    fn label(&self, out: &mut dyn Write, b: u32) -> fmt::Result {
        out.write_str("label ")?;
        match self.slots.as_ref().and_then(|s| s.blocks.get(b as usize)) {
            Some(l) => write_name(out, '%', l),
            None => write!(out, "<block {b}>"),
        }
    }

    fn inst(&self, out: &mut dyn Write, kind: &InstKind, ty: TypeId) -> fmt::Result {
        use InstKind::*;
        match kind {
            Binary { op, lhs, rhs, flags } => {
                out.write_str(op.name())?;
                let names: &[&str] = if op.is_float() {
                    &[" fast", " nnan", " ninf", " nsz", " arcp"]
                } else if matches!(op.name(), "add" | "sub" | "mul" | "shl") {
                    &[" nuw", " nsw"]
                } else {
                    &[" exact"]
                };
                if op.is_float() && flags & 1 != 0 {
                    out.write_str(" fast")?;
                } else {
                    for (i, n) in names.iter().enumerate() {
                        if flags & (1 << i) != 0 {
                            out.write_str(n)?;
                        }
                    }
                }
                out.write_char(' ')?;
                self.typed(out, *lhs)?;
                out.write_str(", ")?;
                self.value(out, *rhs)
            }
            Cast { op, value } => {
                write!(out, "{} ", op.name())?;
                self.typed(out, *value)?;
                out.write_str(" to ")?;
                self.ty(out, ty)
            }
            Cmp { pred, lhs, rhs } => {
                let kind = if *pred < 32 { "fcmp" } else { "icmp" };
                write!(out, "{kind} {} ", predicate_name(*pred).unwrap_or("?"))?;
                self.typed(out, *lhs)?;
                out.write_str(", ")?;
                self.value(out, *rhs)
            }
            Select { cond, then, otherwise } => {
                out.write_str("select ")?;
                self.list(out, &[*cond, *then, *otherwise], 0)
            }
            ExtractValue { agg, indices } => {
                out.write_str("extractvalue ")?;
                self.typed(out, *agg)?;
                indices.iter().try_for_each(|i| write!(out, ", {i}"))
            }
            InsertValue { agg, value, indices } => {
                out.write_str("insertvalue ")?;
                self.list(out, &[*agg, *value], 0)?;
                indices.iter().try_for_each(|i| write!(out, ", {i}"))
            }
            ExtractElement { vector, index } => {
                out.write_str("extractelement ")?;
                self.list(out, &[*vector, *index], 0)
            }
            InsertElement { vector, value, index } => {
                out.write_str("insertelement ")?;
                self.list(out, &[*vector, *value, *index], 0)
            }
            ShuffleVector { a, b, mask } => {
                out.write_str("shufflevector ")?;
                self.list(out, &[*a, *b, *mask], 0)
            }
            Gep { inbounds, source_ty, base, indices } => {
                out.write_str(if *inbounds { "getelementptr inbounds " } else { "getelementptr " })?;
                self.ty(out, *source_ty)?;
                out.write_str(", ")?;
                self.typed(out, *base)?;
                indices.iter().try_for_each(|i| {
                    out.write_str(", ")?;
                    self.typed(out, *i)
                })
            }
            Alloca { allocated, count, align } => {
                out.write_str("alloca ")?;
                self.ty(out, *allocated)?;
                out.write_str(", ")?;
                self.typed(out, *count)?;
                write!(out, ", align {align}")
            }
            Load { ptr, align, volatile } => {
                out.write_str(if *volatile { "load volatile " } else { "load " })?;
                self.ty(out, ty)?;
                out.write_str(", ")?;
                self.typed(out, *ptr)?;
                write!(out, ", align {align}")
            }
            Store { ptr, value, align, volatile } => {
                out.write_str(if *volatile { "store volatile " } else { "store " })?;
                self.list(out, &[*value, *ptr], 0)?;
                write!(out, ", align {align}")
            }
            AtomicRmw { op, ptr, value, ordering, .. } => {
                write!(out, "atomicrmw {} ", atomic_rmw_name(*op).unwrap_or("?"))?;
                self.list(out, &[*ptr, *value], 0)?;
                write!(out, " ordering({ordering})")
            }
            CmpXchg { ptr, cmp, new, ordering, .. } => {
                out.write_str("cmpxchg ")?;
                self.list(out, &[*ptr, *cmp, *new], 0)?;
                write!(out, " ordering({ordering})")
            }
            Call { callee, fn_ty, args, flags } => {
                out.write_str(if *flags & 1 != 0 { "call fast " } else { "call " })?;
                let ret = match self.m.types.get(*fn_ty) {
                    Some(Type::Function { ret, .. }) => *ret,
                    _ => ty,
                };
                self.ty(out, ret)?;
                out.write_char(' ')?;
                self.value(out, *callee)?;
                out.write_char('(')?;
                for (i, a) in args.iter().enumerate() {
                    if i > 0 {
                        out.write_str(", ")?;
                    }
                    match a {
                        Operand::Value(v) => self.typed(out, *v)?,
                        Operand::Metadata(id) => write!(out, "metadata !{id}")?,
                    }
                }
                out.write_char(')')
            }
            Phi { incoming } => {
                out.write_str("phi ")?;
                self.ty(out, ty)?;
                for (i, (v, b)) in incoming.iter().enumerate() {
                    out.write_str(if i > 0 { ", [ " } else { " [ " })?;
                    self.value(out, *v)?;
                    out.write_str(", ")?;
                    let mut l = String::new();
                    self.label(&mut l, *b)?;
                    out.write_str(l.trim_start_matches("label "))?;
                    out.write_str(" ]")?;
                }
                Ok(())
            }
            Ret { value: None } => out.write_str("ret void"),
            Ret { value: Some(v) } => {
                out.write_str("ret ")?;
                self.typed(out, *v)
            }
            Br { target } => {
                out.write_str("br ")?;
                self.label(out, *target)
            }
            CondBr { cond, then, otherwise } => {
                out.write_str("br ")?;
                self.typed(out, *cond)?;
                out.write_str(", ")?;
                self.label(out, *then)?;
                out.write_str(", ")?;
                self.label(out, *otherwise)
            }
            Switch { cond, default, cases } => {
                out.write_str("switch ")?;
                self.typed(out, *cond)?;
                out.write_str(", ")?;
                self.label(out, *default)?;
                out.write_str(" [")?;
                for (v, b) in cases {
                    out.write_str(" ")?;
                    self.typed(out, *v)?;
                    out.write_str(", ")?;
                    self.label(out, *b)?;
                }
                out.write_str(" ]")
            }
            Unreachable => out.write_str("unreachable"),
            Fence { ordering, .. } => write!(out, "fence ordering({ordering})"),
        }
    }

    fn function(&self, out: &mut dyn Write, f: &Function) -> fmt::Result {
        let Some(Type::Function { ret, params, vararg }) = self.m.types.get(f.ty) else { return Ok(()) };
        out.write_str(if f.declaration { "declare " } else { "define " })?;
        self.ty(out, *ret)?;
        out.write_char(' ')?;
        write_name(out, '@', &f.name)?;
        out.write_char('(')?;
        for (i, p) in params.iter().enumerate() {
            if i > 0 {
                out.write_str(", ")?;
            }
            self.ty(out, *p)?;
            if let (false, Some(s)) = (f.declaration, &self.slots) {
                out.write_char(' ')?;
                write_name(out, '%', &s.values[i])?;
            }
        }
        if *vararg {
            out.write_str(if params.is_empty() { "..." } else { ", ..." })?;
        }
        out.write_char(')')?;
        if f.declaration {
            return out.write_char('\n');
        }
        out.write_str(" {\n")?;
        for (bi, b) in f.blocks.iter().enumerate() {
            if bi > 0 {
                let label = &self.slots.as_ref().map(|s| s.blocks[bi].clone()).unwrap_or_default();
                write!(out, "\n{label}:\n")?;
            }
            for inst in &b.insts {
                out.write_str("  ")?;
                if let Some(r) = inst.result {
                    self.value(out, r)?;
                    out.write_str(" = ")?;
                }
                self.inst(out, &inst.kind, inst.ty)?;
                out.write_char('\n')?;
            }
        }
        out.write_str("}\n")
    }
}

impl Module {
    /// The text of one function (its `define` or `declare`).
    pub fn function_text(&self, f: &Function) -> String {
        let p = Printer { m: self, f: Some(f), slots: Some(Slots::new(f)), budget: Cell::new(CONSTANT_BUDGET) };
        let mut s = String::new();
        let _ = p.function(&mut s, f);
        s
    }
}

impl fmt::Display for Module {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = Printer { m: self, f: None, slots: None, budget: Cell::new(CONSTANT_BUDGET) };
        writeln!(out, "target datalayout = \"{}\"", self.datalayout.escape_default())?;
        writeln!(out, "target triple = \"{}\"\n", self.triple.escape_default())?;
        for i in 0..self.types.len() as u32 {
            if let Some(Type::Struct { name: Some(n), elems, packed, opaque }) = self.types.get(TypeId(i)) {
                write_name(out, '%', n)?;
                if *opaque {
                    writeln!(out, " = type opaque")?;
                    continue;
                }
                out.write_str(if *packed { " = type <{ " } else { " = type { " })?;
                for (k, e) in elems.iter().enumerate() {
                    if k > 0 {
                        out.write_str(", ")?;
                    }
                    p.ty(out, *e)?;
                }
                writeln!(out, "{}", if *packed { " }>" } else { " }" })?;
            }
        }
        for g in &self.globals {
            out.write_char('\n')?;
            write_name(out, '@', &g.name)?;
            if g.addr_space != 0 {
                write!(out, " = addrspace({}) ", g.addr_space)?;
            } else {
                out.write_str(" = ")?;
            }
            out.write_str(if g.constant { "constant " } else { "global " })?;
            p.ty(out, g.value_ty)?;
            if let Some(init) = g.init {
                out.write_char(' ')?;
                p.value(out, init)?;
            }
            out.write_char('\n')?;
        }
        for f in &self.functions {
            out.write_char('\n')?;
            out.write_str(&self.function_text(f))?;
        }
        out.write_char('\n')?;
        for (name, ops) in &self.metadata.named {
            write!(out, "!{name} = !{{")?;
            for (i, o) in ops.iter().enumerate() {
                write!(out, "{}!{o}", if i > 0 { ", " } else { "" })?;
            }
            out.write_str("}\n")?;
        }
        for (i, md) in self.metadata.items.iter().enumerate() {
            match md {
                Md::String(_) | Md::Value { .. } => continue, // printed inline in nodes
                Md::Node { distinct, ops } => {
                    write!(out, "!{i} = {}!{{", if *distinct { "distinct " } else { "" })?;
                    for (k, o) in ops.iter().enumerate() {
                        if k > 0 {
                            out.write_str(", ")?;
                        }
                        match o.map(|o| (o, self.metadata.items.get(o as usize))) {
                            None => out.write_str("null")?,
                            Some((_, Some(Md::String(s)))) => write!(out, "!\"{}\"", s.escape_default())?,
                            Some((_, Some(Md::Value { value, .. }))) => p.typed(out, *value)?,
                            Some((o, _)) => write!(out, "!{o}")?,
                        }
                    }
                    out.write_str("}\n")?;
                }
                Md::Other(code) => writeln!(out, "!{i} = <metadata record {code}>")?,
            }
        }
        Ok(())
    }
}
