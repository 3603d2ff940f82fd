//! HSP 3.x and IronHSP. HSP has no structs: a struct is an `int` array (`dim st, N`), and each
//! field is reached as `st.N` (an aligned 4-byte int) or with peek/wpeek/lpeek and
//! poke/wpoke/lpoke at its byte offset; every field gets a `#const` with its offset. Interfaces
//! become `#usecom` with the IID and one `#comfunc global` per method (usable from every module)
//! with its vtable index and parameter kinds. IronHSP declares records with `#defstruct` /
//! `#field`.

use std::fmt::Write as _;

use super::{abi_sig, size_note, Cx, Emitter};
use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Hsp {
    pub iron: bool,
}

/// A leaf field: dotted name, byte offset, size, C type, bitfield (first bit, width), is float.
pub(crate) struct Leaf {
    pub name: String,
    pub offset: u64,
    pub size: u64,
    pub c: String,
    pub bits: Option<(u32, u32)>,
    pub float: Option<&'static str>,
}

/// Every primitive leaf of a record (nested records and arrays opened, array elements as
/// `Name[i]`), with offsets from the record's start.
pub(crate) fn leaves(cx: &Cx, r: &Record, prefix: &str, base: u64, out: &mut Vec<Leaf>) -> Result<(), String> {
    let rl = layout::record(cx.meta, cx.abi, r)?;
    for (m, p) in r.members.iter().zip(&rl.members) {
        let name = match (prefix.is_empty(), m.name.is_empty()) {
            (_, true) => prefix.to_string(),
            (true, false) => m.name.clone(),
            (false, false) => format!("{prefix}.{}", m.name),
        };
        leaf(cx, &m.ty, &name, base + p.offset, p.bit, out)?;
    }
    Ok(())
}

fn leaf(cx: &Cx, t: &Ty, name: &str, at: u64, bits: Option<(u32, u32)>, out: &mut Vec<Leaf>) -> Result<(), String> {
    match layout::resolve(cx.meta, cx.abi, t)? {
        Kind::Record(inner) => leaves(cx, &cx.meta.records[&inner], name, at, out),
        Kind::Array(e, n) => {
            let step = layout::layout_of(cx.meta, cx.abi, &e)?.size;
            // Long character and byte arrays stay one entry: a string buffer.
            let flat =
                matches!(layout::resolve(cx.meta, cx.abi, &e)?, Kind::Prim("wchar" | "char" | "u8" | "i8")) && n > 4;
            if flat {
                out.push(Leaf {
                    name: name.into(),
                    offset: at,
                    size: step * n,
                    c: super::c_decl(t, ""),
                    bits: None,
                    float: None,
                });
                return Ok(());
            }
            for i in 0..n {
                leaf(cx, &e, &format!("{name}[{i}]"), at + i * step, None, out)?;
            }
            Ok(())
        }
        k => {
            let size = layout::layout_of(cx.meta, cx.abi, t)?.size;
            let float = match k {
                Kind::Prim("f32") => Some("float"),
                Kind::Prim("f64") => Some("double"),
                _ => None,
            };
            out.push(Leaf { name: name.into(), offset: at, size, c: super::c_decl(t, ""), bits, float });
            Ok(())
        }
    }
}

/// How HSP reads and writes a leaf of `dim st, N`.
fn access(l: &Leaf) -> String {
    let i = l.offset / 4;
    let aligned = l.offset.is_multiple_of(4);
    let what = match (l.size, aligned) {
        _ if l.bits.is_some() => {
            let (b, w) = l.bits.unwrap_or_default();
            format!("st.{i} bits {b}..{}: (st.{i} >> {b}) & 0x{:x}", b + w - 1, (1u64 << w) - 1)
        }
        (4, true) => format!("st.{i}"),
        (8, true) => format!("st.{i} (low), st.{} (high)", i + 1),
        (4, false) => format!("lpeek(st, {0}) / lpoke st, {0}, v", l.offset),
        (2, _) => format!("wpeek(st, {0}) / wpoke st, {0}, v", l.offset),
        (1, _) => format!("peek(st, {0}) / poke st, {0}, v", l.offset),
        (n, _) => format!("bytes {}..{} (varptr(st) + {})", l.offset, l.offset + n - 1, l.offset),
    };
    match l.float {
        Some(f) => format!("{what}; {f} bits"),
        None => what,
    }
}

/// `#comfunc` parameter kinds of a C type on this ABI. A pointer to data the caller holds in a
/// variable (a struct, which HSP keeps in an `int` array, an array, or a value) is `var`, so
/// that the variable itself is passed; `sptr` is for the other pointers, whose value the caller
/// has as a number: `void*`, pointers to pointers (`void**` out parameters) and IIDs/GUIDs
/// (REFIID, REFGUID), which HSP programs hold as addresses.
fn kinds(cx: &Cx, t: &Ty) -> Result<Vec<&'static str>, String> {
    match t {
        Ty::Name(n) if n == "LPCWSTR" => return Ok(vec!["wstr"]),
        Ty::Name(n) if n == "LPCSTR" => return Ok(vec!["str"]),
        _ => {}
    }
    Ok(match layout::resolve(cx.meta, cx.abi, t)? {
        Kind::Ptr(p, _) => match layout::resolve(cx.meta, cx.abi, &p)? {
            Kind::Interface(_) => vec!["comobj"],
            Kind::Record(r) if r == "_GUID" => vec!["sptr"],
            Kind::Record(_) | Kind::Array(..) | Kind::Enum(..) => vec!["var"],
            Kind::Prim(prim) if prim != "void" => vec!["var"],
            _ => vec!["sptr"],
        },
        Kind::Fn => vec!["sptr"],
        Kind::Prim("f32") => vec!["float"],
        Kind::Prim("f64") => vec!["double"],
        k => {
            let size = match k {
                Kind::Prim(p) | Kind::Enum(_, p) => layout::prim_layout(cx.abi, p).size,
                _ => layout::layout_of(cx.meta, cx.abi, t)?.size,
            };
            // A value wider than a machine word is pushed as that many ints (stdcall on x86).
            let words = if cx.abi == crate::Abi::WindowsX86 { size.div_ceil(4) } else { size.div_ceil(8) };
            vec!["int"; words.max(1) as usize]
        }
    })
}

impl Hsp {
    /// IronHSP's `#field` type of a member.
    fn iron_ty(cx: &Cx, t: &Ty) -> Result<String, String> {
        Ok(match layout::resolve(cx.meta, cx.abi, t)? {
            Kind::Record(r) => cx.meta.display(&r).to_string(),
            Kind::Array(e, n) => format!("{}[{n}]", Self::iron_ty(cx, &e)?),
            Kind::Prim("f32") => "float".into(),
            Kind::Prim("f64") => "double".into(),
            _ => match layout::layout_of(cx.meta, cx.abi, t)?.size {
                1 => "byte",
                2 => "short",
                8 => "int64",
                _ => "int",
            }
            .into(),
        })
    }
}

impl Emitter for Hsp {
    /// HSP flattens nested records into one list of offsets; IronHSP declares them apart.
    fn inline_anon(&self) -> bool {
        !self.iron
    }

    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        let which = if self.iron { "IronHSP" } else { "HSP 3.x" };
        format!("; D3D12 declarations for {which} ({}), written by `rd3d12 decl`.\n\n", cx.abi.name())
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let name = cx.meta.display(&r.name);
        let l = layout::record(cx.meta, cx.abi, r)?.layout;
        let mut s = format!("; {}\n", size_note(cx, r)?);
        let mut ls = Vec::new();
        leaves(cx, r, "", 0, &mut ls)?;
        if self.iron {
            let _ = writeln!(s, "#defstruct {name}");
            for f in super::fields(cx, r)? {
                let t = if f.bits.is_empty() { Self::iron_ty(cx, &f.ty)? } else { "int".into() };
                let what = f.what();
                let _ = writeln!(s, "#field {t} {}  ; {}: {what}", f.name, f.offset);
            }
            s.push_str("#endstruct\n");
            return Ok(s);
        }
        let _ = writeln!(s, "#const {name}_SIZE {}\n; dim st, {}", l.size, l.size.div_ceil(4));
        for f in &ls {
            let c = f.name.replace(['.', '[', ']'], "_").replace("__", "_");
            let c = c.trim_end_matches('_');
            let _ = writeln!(s, "#const {name}_{c} {}  ; {}: {}, {}", f.offset, f.name, f.c, access(f));
        }
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let mut s = format!("; enum {}\n", cx.meta.display(&e.name));
        for (n, v) in &e.values {
            let v = if e.prim == "u32" { (*v as u32 as i32).to_string() } else { (*v as i32).to_string() };
            let _ = writeln!(s, "#const {n} {v}");
        }
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        // newcom mode -1 makes a COM object variable of a pointer the program already holds.
        let mut s =
            format!("; {0}: newcom obj, {0}, -1, pointer  (wraps a pointer from D3D12CreateDevice etc.)\n", i.name);
        if let Some(iid) = &i.iid {
            let _ = writeln!(s, "#usecom {} \"{}\"", i.name, super::guid_braced(iid));
        }
        for (slot, _, m) in cx.meta.slots(i) {
            let (_, params) = abi_sig(cx, &m.ret, &m.params)?;
            let mut ks = Vec::new();
            for (_, t) in &params {
                ks.extend(kinds(cx, t)?);
            }
            let names: Vec<&str> = params.iter().map(|(n, _)| n.as_str()).collect();
            let sp = if ks.is_empty() { "" } else { " " };
            let _ = writeln!(
                s,
                "#comfunc global {}_{} {slot}{sp}{}  ; ({})",
                i.name,
                m.name,
                ks.join(", "),
                names.join(", ")
            );
        }
        Ok(s)
    }
}
