//! Nim: `{.bycopy.}` objects (`{.union.}` for unions), enums as distinct-free typed constants,
//! and per interface its IID and slot constants.

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Nim;

const KEYWORDS: &[&str] = &[
    "addr",
    "and",
    "as",
    "asm",
    "bind",
    "block",
    "break",
    "case",
    "cast",
    "concept",
    "const",
    "continue",
    "converter",
    "defer",
    "discard",
    "distinct",
    "div",
    "do",
    "elif",
    "else",
    "end",
    "enum",
    "except",
    "export",
    "finally",
    "for",
    "from",
    "func",
    "if",
    "import",
    "in",
    "include",
    "interface",
    "is",
    "isnot",
    "iterator",
    "let",
    "macro",
    "method",
    "mixin",
    "mod",
    "nil",
    "not",
    "notin",
    "object",
    "of",
    "or",
    "out",
    "proc",
    "ptr",
    "raise",
    "ref",
    "return",
    "shl",
    "shr",
    "static",
    "template",
    "try",
    "tuple",
    "type",
    "using",
    "var",
    "when",
    "while",
    "xor",
    "yield",
];

fn ident(n: &str) -> String {
    if KEYWORDS.contains(&n) {
        format!("`{n}`")
    } else {
        n.to_string()
    }
}

impl Spell for Nim {
    fn prim(&self, cx: &Cx, p: &str) -> String {
        match p {
            "void" => "byte",
            "char" | "i8" => "int8",
            "u8" | "bool" => "uint8",
            "i16" => "int16",
            "u16" => "uint16",
            "i32" => "int32",
            "u32" => "uint32",
            "i64" => "int64",
            "u64" => "uint64",
            "f32" => "float32",
            "f64" => "float64",
            "usize" => "uint",
            "isize" => "int",
            "long" | "ulong" if cx.abi.windows() => "int32",
            "long" | "ulong" => "int64",
            "wchar" if cx.abi.windows() => "uint16",
            _ => "int32",
        }
        .to_string()
    }
    fn ptr(&self, _cx: &Cx, _pointee: &Ty, _konst: bool) -> Result<String, String> {
        Ok("pointer".into())
    }
    fn array(&self, elem: String, n: u64) -> String {
        format!("array[{n}, {elem}]")
    }
}

impl Emitter for Nim {
    fn ident(&self, n: &str) -> String {
        ident(n)
    }
    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        format!("# D3D12 declarations for Nim ({}), written by `rd3d12 decl`.\n\n", cx.abi.name())
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let pragma = if r.union { "{.union, bycopy.}" } else { "{.bycopy.}" };
        let mut s = format!("type {}* {pragma} = object  ## {}\n", cx.meta.display(&r.name), size_note(cx, r)?);
        for f in fields(cx, r)? {
            let what = f.what();
            let _ = writeln!(s, "  {}*: {}  ## {}: {what}", ident(&f.name), spell(cx, self, &f.ty)?, f.offset);
        }
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let p = self.prim(cx, &e.prim);
        let mut s = format!("type {}* = {p}\nconst\n", cx.meta.display(&e.name));
        for (n, v) in &e.values {
            let v = if p == "int32" { (*v as i32).to_string() } else { (*v as u32).to_string() };
            let _ = writeln!(s, "  {n}* = {}({v})", cx.meta.display(&e.name));
        }
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let mut s = format!("# {}: vtable slots\nconst\n", i.name);
        if let Some(iid) = &i.iid {
            let _ = writeln!(s, "  IID_{}* = \"{}\"", i.name, super::guid_braced(iid));
        }
        for (slot, _, m) in cx.meta.slots(i) {
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let args: Vec<String> = params
                .iter()
                .map(|(n, t)| Ok(format!("{n}: {}", spell(cx, self, t)?)))
                .collect::<Result<_, String>>()?;
            let ret = match ret {
                Ty::Name(ref v) if v == "void" => "void".to_string(),
                _ => spell(cx, self, &ret)?,
            };
            let _ = writeln!(s, "  {}_{}* = {slot}  ## ({}): {ret}", i.name, m.name, args.join(", "));
        }
        Ok(s)
    }
}
