//! Rust: `#[repr(C)]` structs and unions, newtype enums (any value is valid, as in rd3d12-sys),
//! vtables of `unsafe extern "system" fn` (stdcall on windows-x86, C elsewhere).

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Rust;

/// A Rust identifier for a C name (`type` → `r#type`).
fn ident(n: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "type", "ref", "fn", "mod", "self", "struct", "enum", "match", "move", "box", "impl", "in", "loop", "use",
        "where", "trait", "crate", "super", "dyn", "async", "await", "macro", "priv", "final", "override", "virtual",
        "yield", "try", "abstract", "become", "do", "typeof", "unsized",
    ];
    if KEYWORDS.contains(&n) {
        format!("r#{n}")
    } else {
        n.to_string()
    }
}

impl Spell for Rust {
    fn prim(&self, cx: &Cx, p: &str) -> String {
        match p {
            "void" => "c_void",
            "char" => "i8",
            "long" if cx.abi.windows() => "i32",
            "ulong" if cx.abi.windows() => "u32",
            "long" => "i64",
            "ulong" => "u64",
            "wchar" if cx.abi.windows() => "u16",
            "wchar" => "i32",
            p => p,
        }
        .to_string()
    }
    fn ptr(&self, cx: &Cx, pointee: &Ty, konst: bool) -> Result<String, String> {
        let inner = match layout::resolve(cx.meta, cx.abi, pointee)? {
            Kind::Interface(i) => i,
            _ => spell(cx, self, pointee)?,
        };
        Ok(format!("*{} {inner}", if konst { "const" } else { "mut" }))
    }
    fn array(&self, elem: String, n: u64) -> String {
        format!("[{elem}; {n}]")
    }
    fn enum_ty(&self, cx: &Cx, name: &str, _prim: &str) -> String {
        cx.meta.display(name).to_string()
    }
    fn fnptr(&self, _cx: &Cx) -> Result<String, String> {
        Ok("Option<unsafe extern \"system\" fn()>".into())
    }
}

impl Emitter for Rust {
    fn ident(&self, n: &str) -> String {
        ident(n)
    }
    fn typed_pointers(&self) -> bool {
        true
    }

    fn prelude(&self, cx: &Cx, _items: &[super::Item], deps: bool) -> String {
        let mut s = format!("// D3D12 declarations for Rust ({}), written by `rd3d12 decl`.\n", cx.abi.name());
        if deps {
            s.push_str("#![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]\nuse core::ffi::c_void;\n\n");
        }
        s
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let mut s = format!("/// {}\n#[repr(C)]\n#[derive(Clone, Copy)]\n", size_note(cx, r)?);
        let _ = writeln!(s, "pub {} {} {{", if r.union { "union" } else { "struct" }, cx.meta.display(&r.name));
        for f in fields(cx, r)? {
            let _ =
                writeln!(s, "    pub {}: {}, // {}: {}", ident(&f.name), spell(cx, self, &f.ty)?, f.offset, f.what());
        }
        s.push_str("}\n");
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let p = self.prim(cx, &e.prim);
        let mut s = format!(
            "#[repr(transparent)]\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub struct {}(pub {p});\n",
            cx.meta.display(&e.name)
        );
        for (n, v) in &e.values {
            let v = if p == "i32" { (*v as i32).to_string() } else { (*v as u32).to_string() };
            let _ = writeln!(s, "pub const {n}: {0} = {0}({v});", cx.meta.display(&e.name));
        }
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let mut s = String::new();
        if let Some(iid) = &i.iid {
            let (a, b, c, d) = super::guid_parts(iid);
            let d: Vec<String> = d.iter().map(|x| format!("0x{x:02x}")).collect();
            let _ = writeln!(
                s,
                "pub const IID_{}: GUID = GUID {{ Data1: 0x{a:08x}, Data2: 0x{b:04x}, Data3: 0x{c:04x}, Data4: [{}] }};",
                i.name,
                d.join(", ")
            );
        }
        let _ = writeln!(s, "#[repr(C)]\npub struct {0} {{\n    pub lpVtbl: *const {0}Vtbl,\n}}", i.name);
        let _ = writeln!(s, "#[repr(C)]\npub struct {}Vtbl {{", i.name);
        for (slot, _, m) in cx.meta.slots(i) {
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let mut args = vec![format!("This: *mut {}", i.name)];
            for (n, t) in &params {
                args.push(format!("{}: {}", ident(n), spell(cx, self, t)?));
            }
            let ret = match ret {
                Ty::Name(ref v) if v == "void" => String::new(),
                _ => format!(" -> {}", spell(cx, self, &ret)?),
            };
            let _ = writeln!(
                s,
                "    pub {}: unsafe extern \"system\" fn({}){ret}, // slot {slot}",
                m.name,
                args.join(", ")
            );
        }
        s.push_str("}\n");
        Ok(s)
    }
}
