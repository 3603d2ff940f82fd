//! Zig and D: both lay `extern struct` / `struct` out as C does, so one emitter with a table of
//! spellings serves them: records, enums as typed constants, vtables as structs of function
//! pointers with the slot beside each.

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Simple {
    zig: bool,
}

impl Simple {
    pub fn zig() -> Simple {
        Simple { zig: true }
    }
    pub fn d() -> Simple {
        Simple { zig: false }
    }
    fn escape(&self, n: &str) -> String {
        const ZIG: &[&str] = &[
            "type",
            "fn",
            "const",
            "var",
            "error",
            "struct",
            "union",
            "enum",
            "align",
            "and",
            "or",
            "test",
            "export",
            "extern",
            "inline",
            "opaque",
            "packed",
            "pub",
            "resume",
            "return",
            "suspend",
            "switch",
            "try",
            "while",
            "async",
            "await",
            "break",
            "catch",
            "comptime",
            "continue",
            "defer",
            "else",
            "if",
            "for",
            "orelse",
            "unreachable",
            "usingnamespace",
            "volatile",
        ];
        const D: &[&str] = &[
            "ref",
            "in",
            "out",
            "body",
            "function",
            "delegate",
            "version",
            "module",
            "alias",
            "align",
            "debug",
            "default",
            "final",
            "import",
            "interface",
            "invariant",
            "lazy",
            "mixin",
            "override",
            "package",
            "pragma",
            "scope",
            "shared",
            "static",
            "super",
            "this",
            "typeof",
            "unittest",
            "with",
        ];
        if self.zig && ZIG.contains(&n) {
            format!("@\"{n}\"")
        } else if !self.zig && D.contains(&n) {
            format!("{n}_")
        } else {
            n.to_string()
        }
    }
    fn comment(&self) -> &'static str {
        "//"
    }
}

impl Spell for Simple {
    fn prim(&self, cx: &Cx, p: &str) -> String {
        let (z, d) = match p {
            "void" => ("anyopaque", "void"),
            "char" | "i8" => ("i8", "byte"),
            "u8" | "bool" => ("u8", "ubyte"),
            "i16" => ("i16", "short"),
            "u16" => ("u16", "ushort"),
            "i32" => ("i32", "int"),
            "u32" => ("u32", "uint"),
            "i64" => ("i64", "long"),
            "u64" => ("u64", "ulong"),
            "f32" => ("f32", "float"),
            "f64" => ("f64", "double"),
            "usize" => ("usize", "size_t"),
            "isize" => ("isize", "ptrdiff_t"),
            "long" | "ulong" if cx.abi.windows() => ("i32", "int"),
            "long" | "ulong" => ("i64", "long"),
            "wchar" if cx.abi.windows() => ("u16", "wchar"),
            _ => ("i32", "dchar"),
        };
        (if self.zig { z } else { d }).to_string()
    }
    fn ptr(&self, cx: &Cx, pointee: &Ty, konst: bool) -> Result<String, String> {
        let inner = match layout::resolve(cx.meta, cx.abi, pointee)? {
            Kind::Interface(i) => i,
            Kind::Prim("void") if self.zig => "anyopaque".into(),
            Kind::Prim("void") => "void".into(),
            _ => spell(cx, self, pointee)?,
        };
        Ok(if self.zig {
            format!("?*{}{inner}", if konst { "const " } else { "" })
        } else if konst {
            format!("const({inner})*")
        } else {
            format!("{inner}*")
        })
    }
    fn array(&self, elem: String, n: u64) -> String {
        if self.zig {
            format!("[{n}]{elem}")
        } else {
            format!("{elem}[{n}]")
        }
    }
    fn fnptr(&self, _cx: &Cx) -> Result<String, String> {
        Ok(if self.zig { "?*const anyopaque".into() } else { "void*".into() })
    }
}

impl Emitter for Simple {
    fn ident(&self, n: &str) -> String {
        self.escape(n)
    }
    fn typed_pointers(&self) -> bool {
        true
    }

    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        if self.zig {
            format!(
                "// D3D12 declarations for Zig ({}), written by `rd3d12 decl`.\nconst std = @import(\"std\");\n\n",
                cx.abi.name()
            )
        } else {
            format!(
                "// D3D12 declarations for D ({}), written by `rd3d12 decl`.\nimport core.stdc.stddef;\n\n",
                cx.abi.name()
            )
        }
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let name = cx.meta.display(&r.name);
        let c = self.comment();
        let mut s = format!("{c} {}\n", size_note(cx, r)?);
        if self.zig {
            let _ = writeln!(s, "pub const {name} = extern {} {{", if r.union { "union" } else { "struct" });
        } else {
            let _ = writeln!(s, "extern(C) {} {name} {{", if r.union { "union" } else { "struct" });
        }
        for f in fields(cx, r)? {
            let what = f.what();
            let t = spell(cx, self, &f.ty)?;
            if self.zig {
                let _ = writeln!(s, "    {}: {t}, {c} {}: {what}", self.escape(&f.name), f.offset);
            } else {
                let _ = writeln!(s, "    {t} {}; {c} {}: {what}", self.escape(&f.name), f.offset);
            }
        }
        s.push_str(if self.zig { "};\n" } else { "}\n" });
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let p = self.prim(cx, &e.prim);
        let signed = e.prim == "i32";
        let mut s = if self.zig {
            format!("pub const {} = {p};\n", cx.meta.display(&e.name))
        } else {
            format!("alias {} = {p};\n", cx.meta.display(&e.name))
        };
        for (n, v) in &e.values {
            let v = if signed { (*v as i32).to_string() } else { (*v as u32).to_string() };
            if self.zig {
                let _ = writeln!(s, "pub const {n}: {} = {v};", cx.meta.display(&e.name));
            } else {
                let _ = writeln!(s, "enum {} {n} = {v};", cx.meta.display(&e.name));
            }
        }
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let mut s = String::new();
        let c = self.comment();
        if let Some(iid) = &i.iid {
            let _ = writeln!(s, "{c} IID_{} = {}", i.name, super::guid_braced(iid));
        }
        let conv = match (self.zig, cx.abi == crate::Abi::WindowsX86) {
            (true, true) => "callconv(.winapi) ",
            (true, false) => "callconv(.c) ",
            (false, true) => "extern(Windows) ",
            (false, false) => "extern(C) ",
        };
        if self.zig {
            let _ = writeln!(
                s,
                "pub const {0} = extern struct {{ lpVtbl: *const {0}Vtbl }};\npub const {0}Vtbl = extern struct {{",
                i.name
            );
        } else {
            let _ =
                writeln!(s, "extern(C) struct {0} {{ const({0}Vtbl)* lpVtbl; }}\nextern(C) struct {0}Vtbl {{", i.name);
        }
        for (slot, _, m) in cx.meta.slots(i) {
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let mut args = vec![if self.zig { format!("*{}", i.name) } else { format!("{}*", i.name) }];
            for (_, t) in &params {
                args.push(spell(cx, self, t)?);
            }
            let r = match layout::resolve(cx.meta, cx.abi, &ret)? {
                Kind::Prim("void") => "void".to_string(),
                _ => spell(cx, self, &ret)?,
            };
            if self.zig {
                let _ = writeln!(
                    s,
                    "    {}: *const fn ({}) {conv}{r}, {c} slot {slot}",
                    self.escape(&m.name),
                    args.join(", ")
                );
            } else {
                let _ = writeln!(
                    s,
                    "    {conv}{r} function({}) {}; {c} slot {slot}",
                    args.join(", "),
                    self.escape(&m.name)
                );
            }
        }
        s.push_str(if self.zig { "};\n" } else { "}\n" });
        Ok(s)
    }
}
