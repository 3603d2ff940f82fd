//! Go: structs with explicit `_ [N]byte` padding wherever Go's own alignment would not put a
//! field where the C ABI does (Go aligns 8-byte types to 4 on 386); unions as byte arrays with
//! an alignment anchor; enums as typed constants; vtables as slot-index constants.

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::layout::{self};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Go;

const KEYWORDS: &[&str] = &[
    "type",
    "func",
    "range",
    "map",
    "chan",
    "select",
    "go",
    "default",
    "var",
    "const",
    "interface",
    "struct",
    "package",
    "import",
    "break",
    "case",
    "continue",
    "defer",
    "else",
    "fallthrough",
    "for",
    "goto",
    "if",
    "return",
    "switch",
];

fn ident(n: &str) -> String {
    if KEYWORDS.contains(&n) {
        format!("{n}_")
    } else {
        n.to_string()
    }
}

impl Spell for Go {
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
            "usize" => "uintptr",
            "isize" => "uintptr",
            "long" | "ulong" if cx.abi.windows() => "int32",
            "long" | "ulong" => "int64",
            "wchar" if cx.abi.windows() => "uint16",
            _ => "int32",
        }
        .to_string()
    }
    fn ptr(&self, _cx: &Cx, _pointee: &Ty, _konst: bool) -> Result<String, String> {
        Ok("uintptr".into())
    }
    fn array(&self, elem: String, n: u64) -> String {
        format!("[{n}]{elem}")
    }
}

impl Emitter for Go {
    fn ident(&self, n: &str) -> String {
        ident(n)
    }
    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        format!("// D3D12 declarations for Go ({}), written by `rd3d12 decl`.\n\n", cx.abi.name())
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let l = layout::record(cx.meta, cx.abi, r)?.layout;
        let name = cx.meta.display(&r.name);
        let mut s = format!("// {}\ntype {name} struct {{\n", size_note(cx, r)?);
        // Go aligns 8-byte values to 4 on 386: what it does not pad, padding fields do.
        let cap = if cx.abi == crate::Abi::WindowsX86 { 4 } else { 8 };
        if r.union {
            let anchor = match l.align.min(cap) {
                8 => "uint64",
                4 => "uint32",
                2 => "uint16",
                _ => "uint8",
            };
            let _ = writeln!(s, "\t_ [0]{anchor}\n\tData [{}]byte // union of:", l.size);
            for f in fields(cx, r)? {
                let _ = writeln!(s, "\t//   {} {}", ident(&f.name), spell(cx, self, &f.ty)?);
            }
        } else {
            let mut at = 0u64;
            for (i, f) in fields(cx, r)?.into_iter().enumerate() {
                let a = layout::layout_of(cx.meta, cx.abi, &f.ty)?.align.min(cap);
                at = at.div_ceil(a) * a;
                if at < f.offset {
                    let _ = writeln!(s, "\t_ [{}]byte", f.offset - at);
                    at = f.offset;
                }
                let what = f.what();
                let _ = writeln!(s, "\t{} {} // {}: {what}", ident(&f.name), spell(cx, self, &f.ty)?, f.offset);
                at += f.size;
                let _ = i;
            }
            if at < l.size {
                let _ = writeln!(s, "\t_ [{}]byte", l.size - at);
            }
        }
        s.push_str("}\n");
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let p = self.prim(cx, &e.prim);
        let mut s = format!("type {} {p}\n\nconst (\n", cx.meta.display(&e.name));
        for (n, v) in &e.values {
            let v = if p == "int32" { (*v as i32).to_string() } else { (*v as u32).to_string() };
            let _ = writeln!(s, "\t{n} {} = {v}", cx.meta.display(&e.name));
        }
        s.push_str(")\n");
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let mut s = format!("// {} vtable slots: syscall.SyscallN(vtbl[slot], this, args...)\n", i.name);
        if let Some(iid) = &i.iid {
            let _ = writeln!(s, "const IID_{} = \"{}\"", i.name, super::guid_braced(iid));
        }
        s.push_str("const (\n");
        for (slot, _, m) in cx.meta.slots(i) {
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let args: Vec<String> = params
                .iter()
                .map(|(n, t)| Ok(format!("{n} {}", spell(cx, self, t)?)))
                .collect::<Result<_, String>>()?;
            let ret = if matches!(&ret, Ty::Name(v) if v == "void") { String::new() } else { spell(cx, self, &ret)? };
            let _ = writeln!(s, "\t{}_{} = {slot} // ({}) {ret}", i.name, m.name, args.join(", "));
        }
        s.push_str(")\n");
        Ok(s)
    }
}
