//! Delphi / Free Pascal: C-aligned records (`{$PACKRECORDS C}` for FPC, `{$ALIGN 8}` for
//! Delphi), variant records for unions, LongBool for BOOL, enums as typed constants, and COM
//! interfaces with their GUID and methods in slot order.

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Pascal;

const RESERVED: &[&str] = &[
    "and",
    "array",
    "as",
    "asm",
    "begin",
    "case",
    "class",
    "const",
    "constructor",
    "destructor",
    "div",
    "do",
    "downto",
    "else",
    "end",
    "except",
    "exports",
    "file",
    "finalization",
    "finally",
    "for",
    "function",
    "goto",
    "if",
    "implementation",
    "in",
    "inherited",
    "initialization",
    "inline",
    "interface",
    "is",
    "label",
    "library",
    "mod",
    "nil",
    "not",
    "object",
    "of",
    "on",
    "operator",
    "or",
    "out",
    "packed",
    "procedure",
    "program",
    "property",
    "raise",
    "record",
    "repeat",
    "resourcestring",
    "set",
    "shl",
    "shr",
    "string",
    "then",
    "threadvar",
    "to",
    "try",
    "type",
    "unit",
    "until",
    "uses",
    "var",
    "while",
    "with",
    "xor",
    "self",
    "result",
];

fn ident(n: &str) -> String {
    if RESERVED.contains(&n.to_ascii_lowercase().as_str()) {
        format!("&{n}")
    } else {
        n.to_string()
    }
}

impl Spell for Pascal {
    fn prim(&self, cx: &Cx, p: &str) -> String {
        match p {
            "void" => "Byte",
            "char" | "i8" => "ShortInt",
            "u8" | "bool" => "Byte",
            "i16" => "SmallInt",
            "u16" => "Word",
            "i32" => "Int32",
            "u32" => "UInt32",
            "i64" => "Int64",
            "u64" => "UInt64",
            "f32" => "Single",
            "f64" => "Double",
            "usize" => "NativeUInt",
            "isize" => "NativeInt",
            "long" | "ulong" if cx.abi.windows() => "Int32",
            "long" | "ulong" => "Int64",
            "wchar" if cx.abi.windows() => "WideChar",
            _ => "Int32",
        }
        .to_string()
    }
    fn ptr(&self, _cx: &Cx, _pointee: &Ty, _konst: bool) -> Result<String, String> {
        Ok("Pointer".into())
    }
    fn array(&self, elem: String, n: u64) -> String {
        format!("array[0..{}] of {elem}", n - 1)
    }
}

impl Pascal {
    fn field_ty(&self, cx: &Cx, t: &Ty) -> Result<String, String> {
        if matches!(t, Ty::Name(n) if n == "BOOL") {
            return Ok("LongBool".into());
        }
        spell(cx, self, t)
    }
    fn args(&self, cx: &Cx, params: &[(String, Ty)]) -> Result<String, String> {
        let a: Vec<String> = params
            .iter()
            .map(|(n, t)| Ok(format!("{}: {}", ident(n), spell(cx, self, t)?)))
            .collect::<Result<_, String>>()?;
        Ok(if a.is_empty() { String::new() } else { format!("({})", a.join("; ")) })
    }
}

impl Emitter for Pascal {
    fn ident(&self, n: &str) -> String {
        ident(n)
    }
    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        format!(
            "{{ D3D12 declarations for Delphi / Free Pascal ({}), written by `rd3d12 decl`. }}\n{{$IFDEF FPC}}{{$MODE DELPHI}}{{$PACKRECORDS C}}{{$ELSE}}{{$ALIGN 8}}{{$ENDIF}}\n{{$MINENUMSIZE 4}}\n\n",
            cx.abi.name()
        )
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let name = cx.meta.display(&r.name);
        let mut s = format!("{{ {} }}\ntype\n  {name} = record\n", size_note(cx, r)?);
        if r.union {
            s.push_str("    case Integer of\n");
        }
        for (k, f) in fields(cx, r)?.into_iter().enumerate() {
            let what = f.what().replace(['{', '}'], "");
            let decl = format!("{}: {}", ident(&f.name), self.field_ty(cx, &f.ty)?);
            if r.union {
                let _ = writeln!(s, "      {k}: ({decl}); {{ {}: {what} }}", f.offset);
            } else {
                let _ = writeln!(s, "    {decl}; {{ {}: {what} }}", f.offset);
            }
        }
        s.push_str("  end;\n");
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let p = self.prim(cx, &e.prim);
        let mut s = format!("type\n  {} = {p};\nconst\n", cx.meta.display(&e.name));
        for (n, v) in &e.values {
            let v = if p == "Int32" { (*v as i32).to_string() } else { (*v as u32).to_string() };
            let _ = writeln!(s, "  {n} = {}({v});", cx.meta.display(&e.name));
        }
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        if i.name == "IUnknown" {
            return Ok("{ IUnknown: the language's own (slots 0..2). }\n".into());
        }
        let base = i.base.as_deref().map(|b| format!("({b})")).unwrap_or_default();
        let mut s = format!("type\n  {} = interface{base}\n", i.name);
        if let Some(iid) = &i.iid {
            let _ = writeln!(s, "    ['{}']", super::guid_braced(iid));
        }
        let conv = if cx.abi.windows() { "stdcall" } else { "cdecl" };
        let first = cx.meta.slots(i).len() - i.methods.len();
        for (k, m) in i.methods.iter().enumerate() {
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let args = self.args(cx, &params)?;
            let void = matches!(layout::resolve(cx.meta, cx.abi, &ret)?, Kind::Prim("void"));
            let slot = first + k;
            if void {
                let _ = writeln!(s, "    procedure {}{args}; {conv}; {{ slot {slot} }}", ident(&m.name));
            } else {
                let _ = writeln!(
                    s,
                    "    function {}{args}: {}; {conv}; {{ slot {slot} }}",
                    ident(&m.name),
                    spell(cx, self, &ret)?
                );
            }
        }
        s.push_str("  end;\n");
        Ok(s)
    }
}
