//! The IR as text, LLVM-like: `%5 = fadd float %3, %4`, constants inline (`i32 7`,
//! `float 0.5`), blocks as `bb2:` with their phis, and a comment giving each conditional
//! branch's reconvergence point once the control flow facts are known. Test failures print it.

use super::op::{Dx, Op};
use super::types::{Scalar, Type};
use super::{Block, Def, Function, Terminator, Value};
use core::fmt::{self, Write};

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "define void @{}() {{", self.name)?;
        for (i, g) in self.globals.iter().enumerate() {
            writeln!(f, "  ; global #{i} @{}: {} x {:?}", g.name, g.cells, g.space)?;
        }
        for (i, b) in self.blocks.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            writeln!(f, "bb{i}:")?;
            write_block(self, b, i, f)?;
        }
        writeln!(f, "}}")
    }
}

/// A value as an operand: `%n`, or its constant inline (`i32 3`, `float 1.5`, `undef`-free
/// aggregates as `{...}`).
pub fn operand(func: &Function, v: Value, out: &mut dyn Write) -> fmt::Result {
    let Some(info) = func.values.get(v.0 as usize) else { return write!(out, "%?{}", v.0) };
    match &info.def {
        Def::Inst => write!(out, "%{}", v.0),
        Def::Const(bits) => match &info.ty {
            Type::Scalar(s) => write!(out, "{} {}", s.name(), scalar(*s, bits.first().copied().unwrap_or(0))),
            Type::Agg(e) => {
                out.write_str("{")?;
                for (k, (s, b)) in e.iter().zip(bits.iter()).enumerate() {
                    write!(out, "{}{} {}", if k == 0 { "" } else { ", " }, s.name(), scalar(*s, *b))?;
                }
                out.write_str("}")
            }
            t => write!(out, "{t} {}", bits.first().copied().unwrap_or(0)),
        },
    }
}

/// An operand without its type when it is a scalar constant (`7`), else as [`operand`].
fn operand_bare(func: &Function, v: Value, out: &mut dyn Write) -> fmt::Result {
    match (func.const_bits(v), func.values.get(v.0 as usize).and_then(|i| i.ty.scalar())) {
        (Some(b), Some(s)) => out.write_str(&scalar(s, b.first().copied().unwrap_or(0))),
        _ => operand(func, v, out),
    }
}

/// Raw bits as the constant they are.
fn scalar(s: Scalar, bits: u64) -> String {
    match s {
        Scalar::F32 => format!("{:?}", f32::from_bits(bits as u32)),
        Scalar::F64 => format!("{:?}", f64::from_bits(bits)),
        Scalar::F16 => format!("0xH{:04X}", bits as u16),
        Scalar::Bool => (if bits & 1 != 0 { "true" } else { "false" }).into(),
        s => {
            // Signed when the sign bit is set, as LLVM prints.
            let w = s.bits();
            let v = ((bits << (64 - w)) as i64) >> (64 - w);
            v.to_string()
        }
    }
}

fn args(func: &Function, a: &[Value], out: &mut dyn Write) -> fmt::Result {
    for (i, v) in a.iter().enumerate() {
        if i > 0 {
            out.write_str(", ")?;
        }
        operand(func, *v, out)?;
    }
    Ok(())
}

/// The mnemonic of an operation (with its type where LLVM writes one).
fn mnemonic(op: &Op) -> String {
    match op {
        Op::Binary(b, s) => format!("{} {}", b.name(), s.name()),
        Op::Cast(c, from, to) => format!("{} {} to {}", c.name(), from.name(), to.name()),
        Op::Cmp(p, s) => {
            let n = crate::dxil::inst::predicate_name(p.llvm()).unwrap_or("?");
            format!("{} {n} {}", if p.is_float() { "fcmp" } else { "icmp" }, s.name())
        }
        Op::Select => "select".into(),
        Op::Copy => "copy".into(),
        Op::Extract(n) => format!("extract {n}"),
        Op::Insert(n) => format!("insert {n}"),
        Op::ExtractDyn => "extractelement".into(),
        Op::InsertDyn => "insertelement".into(),
        Op::Alloca(n) => format!("alloca {n}"),
        Op::Global(g) => format!("global #{g}"),
        Op::PtrAdd { offset, strides } => format!("ptradd {offset} {strides:?}"),
        Op::Load(n) => format!("load {n}"),
        Op::Store(n) => format!("store {n}"),
        Op::AtomicRmw(a, s) => format!("atomicrmw {} {}", a.name(), s.name()),
        Op::CmpXchg { ty, .. } => format!("cmpxchg {}", ty.name()),
        Op::Dx(d) => dx(d),
        Op::Wave { op, ty } => wave(*op, *ty),
    }
}

fn dx(d: &Dx) -> String {
    let extra = match d {
        Dx::LoadInput { vertex: true } => " vertex".to_string(),
        Dx::CreateHandle(c) => format!(" {c:?}"),
        Dx::AtomicBinOp(a) => format!(" {}", a.name()),
        Dx::Barrier { group_sync: true }
        | Dx::BarrierByMemoryType { group_sync: true }
        | Dx::BarrierByMemoryHandle { group_sync: true } => " group".into(),
        _ => String::new(),
    };
    format!("dx.{}{extra}", d.name())
}

/// `wave.WaveActiveOp sum signed i32`: DXIL.rst's name, the decoded kinds, the value's type.
fn wave(op: super::op::WaveOp, ty: Scalar) -> String {
    use super::wave::{QuadDir, Reduce, WaveOp};
    let reduce = |r: Reduce| match r {
        Reduce::Sum => "sum",
        Reduce::Product => "product",
        Reduce::Min => "min",
        Reduce::Max => "max",
    };
    let kind = match op {
        WaveOp::Active { op, signed } | WaveOp::Prefix { op, signed } => {
            format!(" {} {}", reduce(op), if signed { "signed" } else { "unsigned" })
        }
        WaveOp::Bit(b) => format!(" {}", ["and", "or", "xor"][b as usize]),
        WaveOp::MultiPrefix { op, signed } => format!(
            " {} {}",
            ["sum", "and", "or", "xor", "product"][op as usize],
            if signed { "signed" } else { "unsigned" }
        ),
        WaveOp::Quad(d) => format!(
            " {}",
            match d {
                QuadDir::X => "x",
                QuadDir::Y => "y",
                QuadDir::Diagonal => "diagonal",
            }
        ),
        _ => String::new(),
    };
    let name = crate::dxil::ops::opcode_name(op.opcode()).unwrap_or("?");
    let ty = if op.lane_operands() == 0 { String::new() } else { format!(" {}", ty.name()) };
    format!("wave.{name}{kind}{ty}")
}

fn write_block(func: &Function, b: &Block, index: usize, out: &mut dyn Write) -> fmt::Result {
    for p in &b.phis {
        write!(out, "  %{} = phi {} ", p.dst.0, func.ty(p.dst))?;
        for (i, (from, v)) in p.incoming.iter().enumerate() {
            out.write_str(if i == 0 { "[ " } else { ", [ " })?;
            operand(func, *v, out)?;
            write!(out, ", bb{} ]", from.0)?;
        }
        writeln!(out)?;
    }
    for i in &b.insts {
        out.write_str("  ")?;
        if let Some(d) = i.dst {
            write!(out, "%{} = ", d.0)?;
        }
        if let (Op::Cast(c, from, to), [v]) = (&i.op, &i.args[..]) {
            // LLVM's order: `sitofp i32 %8 to float`.
            write!(out, "{} {} ", c.name(), from.name())?;
            operand_bare(func, *v, out)?;
            writeln!(out, " to {}", to.name())?;
            continue;
        }
        out.write_str(&mnemonic(&i.op))?;
        if !i.args.is_empty() {
            out.write_str(" ")?;
            args(func, &i.args, out)?;
        }
        if let Some(d) = i.dst {
            if !matches!(i.op, Op::Binary(..) | Op::Cast(..) | Op::Cmp(..)) {
                write!(out, " : {}", func.ty(d))?;
            }
        }
        writeln!(out)?;
    }
    out.write_str("  ")?;
    match &b.term {
        Terminator::Ret => out.write_str("ret")?,
        Terminator::Br(t) => write!(out, "br bb{}", t.0)?,
        Terminator::CondBr { cond, then, otherwise } => {
            out.write_str("br ")?;
            operand(func, *cond, out)?;
            write!(out, ", bb{}, bb{}", then.0, otherwise.0)?;
        }
        Terminator::Switch { cond, default, cases } => {
            out.write_str("switch ")?;
            operand(func, *cond, out)?;
            write!(out, ", bb{} [", default.0)?;
            for (v, t) in cases.iter() {
                write!(out, " {v}: bb{}", t.0)?;
            }
            out.write_str(" ]")?;
        }
        Terminator::Unreachable => out.write_str("unreachable")?,
    }
    if matches!(b.term, Terminator::CondBr { .. } | Terminator::Switch { .. }) {
        match func.cfg.ipdom.get(index) {
            Some(Some(r)) => write!(out, " ; reconverge bb{}", r.0)?,
            Some(None) => out.write_str(" ; reconverge at exit")?,
            None => {}
        }
    }
    writeln!(out)
}
