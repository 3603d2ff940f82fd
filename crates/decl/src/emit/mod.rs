//! What the language emitters share: the dependency closure of what is asked for, the C spelling
//! of types (for comments), the per-ABI method signature, and a field view of records with
//! offsets (anonymous members named, bitfields grouped into their storage units).

mod c;
mod csharp;
mod go;
mod hsp;
mod nim;
mod pascal;
mod python;
mod rust;
mod simple;

use std::collections::BTreeSet;
use std::fmt::Write as _;

use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Meta, Record, Ty};
use crate::{Abi, Found, Lang};

pub struct Cx<'a> {
    pub meta: &'a Meta,
    pub abi: Abi,
}

/// One declaration to write out.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item<'a> {
    Typedef(&'a str, &'a Ty),
    Record(&'a Record),
    Enum(&'a Enum),
    Interface(&'a Interface),
}

impl Item<'_> {
    fn key(&self) -> String {
        match self {
            Item::Typedef(n, _) => format!("t {n}"),
            Item::Record(r) => format!("r {}", r.name),
            Item::Enum(e) => format!("e {}", e.name),
            Item::Interface(i) => format!("i {}", i.name),
        }
    }
}

/// A language's way of writing declarations.
pub(crate) trait Emitter {
    /// Imports and definitions the declarations rely on.
    fn prelude(&self, _cx: &Cx, _items: &[Item], _deps: bool) -> String {
        String::new()
    }
    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String>;
    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String>;
    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String>;
    fn typedef(&self, _cx: &Cx, _name: &str, _ty: &Ty) -> Result<String, String> {
        Ok(String::new())
    }
    fn postlude(&self, _cx: &Cx, _items: &[Item]) -> String {
        String::new()
    }
    /// C and C++ write anonymous records inside their parent; the others declare them apart.
    fn inline_anon(&self) -> bool {
        false
    }
    /// Whether pointers name their pointee (then `deps` includes pointees).
    fn typed_pointers(&self) -> bool {
        false
    }
    /// A C member name as this language must write it (keywords escaped).
    fn ident(&self, n: &str) -> String {
        n.to_string()
    }
}

/// A C member name as `lang` writes it (`type` → `r#type` in Rust, `&Type` in Pascal).
pub fn ident(lang: Lang, n: &str) -> String {
    emitter(lang).ident(n)
}

fn emitter(lang: Lang) -> Box<dyn Emitter> {
    match lang {
        Lang::C => Box::new(c::C { cpp: false }),
        Lang::Cpp => Box::new(c::C { cpp: true }),
        Lang::Rust => Box::new(rust::Rust),
        Lang::Python => Box::new(python::Python),
        Lang::CSharp => Box::new(csharp::CSharp { vb: false }),
        Lang::VbNet => Box::new(csharp::CSharp { vb: true }),
        Lang::Go => Box::new(go::Go),
        Lang::Pascal => Box::new(pascal::Pascal),
        Lang::Nim => Box::new(nim::Nim),
        Lang::Zig => Box::new(simple::Simple::zig()),
        Lang::D => Box::new(simple::Simple::d()),
        Lang::Hsp => Box::new(hsp::Hsp { iron: false }),
        Lang::IronHsp => Box::new(hsp::Hsp { iron: true }),
    }
}

pub(crate) fn render(meta: &Meta, found: &[Found], lang: Lang, abi: Abi, deps: bool) -> Result<String, String> {
    let cx = Cx { meta, abi };
    let e = emitter(lang);
    let roots: Vec<Item> = found
        .iter()
        .map(|f| match f {
            Found::Record(r) => Item::Record(r),
            Found::Enum(x) => Item::Enum(x),
            Found::Interface(i) => Item::Interface(i),
        })
        .collect();
    let items = closure(&cx, &roots, deps, e.as_ref())?;
    let mut out = e.prelude(&cx, &items, deps);
    for it in &items {
        let text = match it {
            Item::Typedef(n, t) => e.typedef(&cx, n, t)?,
            Item::Record(r) => e.record(&cx, r)?,
            Item::Enum(x) => e.enumeration(&cx, x)?,
            Item::Interface(i) => e.interface(&cx, i)?,
        };
        if !text.is_empty() {
            out.push_str(&text);
            if !text.ends_with("\n\n") {
                out.push('\n');
            }
        }
    }
    out.push_str(&e.postlude(&cx, &items));
    Ok(out)
}

/// The items to write, dependencies before their users. Without `deps`, only the roots (and,
/// for languages that declare them apart, their anonymous records). With `deps`: enums first,
/// then typedefs, records and interfaces such that everything used by value comes before.
fn closure<'a>(cx: &Cx<'a>, roots: &[Item<'a>], deps: bool, e: &dyn Emitter) -> Result<Vec<Item<'a>>, String> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for r in roots {
        visit(cx, *r, deps, e, &mut seen, &mut out)?;
    }
    // Enums have no dependencies; C needs them complete before any use.
    let (mut enums, rest): (Vec<_>, Vec<_>) = out.into_iter().partition(|i| matches!(i, Item::Enum(_)));
    enums.extend(rest);
    Ok(enums)
}

fn item_of<'a>(cx: &Cx<'a>, name: &str) -> Option<Item<'a>> {
    let m = cx.meta;
    if layout::prim(name).is_some() {
        return None;
    }
    if let Some((n, t)) = m.typedefs.get_key_value(name) {
        return Some(Item::Typedef(n, t));
    }
    m.records
        .get(name)
        .map(Item::Record)
        .or_else(|| m.enums.get(name).map(Item::Enum))
        .or_else(|| m.interfaces.get(name).map(Item::Interface))
}

/// Names a type uses: `(name, by value)`.
fn uses(t: &Ty, out: &mut Vec<(String, bool)>) {
    fn go(t: &Ty, by_value: bool, out: &mut Vec<(String, bool)>) {
        match t {
            Ty::Name(n) => out.push((n.clone(), by_value)),
            Ty::Ptr(p, _) => go(p, false, out),
            Ty::Array(e, _) => go(e, by_value, out),
            Ty::Fn => {}
        }
    }
    go(t, true, out)
}

fn visit<'a>(
    cx: &Cx<'a>,
    it: Item<'a>,
    deps: bool,
    e: &dyn Emitter,
    seen: &mut BTreeSet<String>,
    out: &mut Vec<Item<'a>>,
) -> Result<(), String> {
    if !seen.insert(it.key()) {
        return Ok(());
    }
    // C and C++ write anonymous records inside their parent, and only they keep typedef names:
    // such items are not written, but what they use is.
    let inline = match it {
        Item::Record(r) => r.anon && e.inline_anon(),
        Item::Typedef(..) => !e.inline_anon(),
        _ => false,
    };
    let mut used = Vec::new();
    match it {
        Item::Typedef(_, t) => uses(t, &mut used),
        Item::Record(r) => r.members.iter().for_each(|m| uses(&m.ty, &mut used)),
        Item::Enum(_) => {}
        Item::Interface(i) => {
            if let Some(b) = &i.base {
                used.push((b.clone(), true));
            }
            for m in &i.methods {
                uses(&m.ret, &mut used);
                m.params.iter().for_each(|(_, t)| uses(t, &mut used));
            }
            // Records passed or returned by value (LUID, D3D12_RESOURCE_DESC) must be declared
            // first for Python and Pascal; C forward-declares everything anyway.
        }
    }
    // By-value uses first (they must precede), then pointees (in the closure only).
    used.sort_by_key(|u| !u.1);
    for (name, by_value) in used {
        let Some(dep) = item_of(cx, &name) else { continue };
        let anon = matches!(dep, Item::Record(r) if r.anon);
        let wanted = anon
            || (deps && (by_value || e.typed_pointers() || matches!(dep, Item::Enum(_))))
            || (deps && matches!(dep, Item::Typedef(..)));
        if wanted {
            visit(cx, dep, deps, e, seen, out)?;
        }
    }
    if !inline {
        out.push(it);
    }
    Ok(())
}

/// C's spelling of a declaration of `name` with type `t` (`FLOAT Transform[3][4]`).
pub fn c_decl(t: &Ty, name: &str) -> String {
    fn go(t: &Ty, inner: String) -> String {
        match t {
            Ty::Name(n) => {
                let n = c_prim(n).unwrap_or(n);
                if inner.is_empty() {
                    n.to_string()
                } else {
                    format!("{n} {inner}")
                }
            }
            Ty::Ptr(p, konst) => {
                let star = if *konst { format!("const *{inner}") } else { format!("*{inner}") };
                match **p {
                    Ty::Array(..) => go(p, format!("({star})")),
                    _ => go(p, star),
                }
            }
            Ty::Array(e, n) => go(e, format!("{inner}[{n}]")),
            Ty::Fn => format!("void (*{inner})(void)"),
        }
    }
    go(t, name.to_string()).trim_end().to_string()
}

/// C names of the metadata's primitives.
pub(crate) fn c_prim(p: &str) -> Option<&'static str> {
    Some(match layout::prim(p)? {
        "void" => "void",
        "char" => "char",
        "i8" => "int8_t",
        "u8" => "uint8_t",
        "i16" => "int16_t",
        "u16" => "uint16_t",
        "i32" => "int32_t",
        "u32" => "uint32_t",
        "i64" => "int64_t",
        "u64" => "uint64_t",
        "f32" => "float",
        "f64" => "double",
        "usize" => "size_t",
        "isize" => "ptrdiff_t",
        "long" => "long",
        "ulong" => "unsigned long",
        "bool" => "_Bool",
        _ => "wchar_t",
    })
}

/// The method as called through the vtable on this ABI: on Windows, a struct return becomes a
/// hidden `RetVal` out-pointer that is also returned (what d3d12.h declares for `_WIN32` C
/// code); on Linux structs are returned by value (System V).
pub(crate) fn abi_sig(cx: &Cx, ret: &Ty, params: &[(String, Ty)]) -> Result<(Ty, Vec<(String, Ty)>), String> {
    let mut params = params.to_vec();
    let by_struct = matches!(layout::resolve(cx.meta, cx.abi, ret)?, Kind::Record(_));
    if by_struct && cx.abi.windows() {
        let p = Ty::Ptr(Box::new(ret.clone()), false);
        params.push(("RetVal".into(), p.clone()));
        return Ok((p, params));
    }
    Ok((ret.clone(), params))
}

/// One field of a record as non-C languages declare it.
pub struct Field {
    /// The member's name; `Anonymous`/`AnonymousN` for anonymous members, `BitfieldN` for a
    /// storage unit of bitfields.
    pub name: String,
    pub ty: Ty,
    /// C's spelling of the member, for comments.
    pub c: String,
    pub offset: u64,
    pub size: u64,
    /// For a bitfield unit: `(member, first bit, width)`.
    pub bits: Vec<(String, u32, u32)>,
}

impl Field {
    /// What a comment says about the field: its C declaration, or for a bitfield unit the bits
    /// of each member (`InstanceID: bits 0..23, InstanceMask: bits 24..31`).
    pub fn what(&self) -> String {
        if self.bits.is_empty() {
            return self.c.clone();
        }
        let bits: Vec<String> = self.bits.iter().map(|(n, b, w)| format!("{n}: bits {b}..{}", b + w - 1)).collect();
        bits.join(", ")
    }
}

pub fn fields(cx: &Cx, r: &Record) -> Result<Vec<Field>, String> {
    let rl = layout::record(cx.meta, cx.abi, r)?;
    let n_anon = r.members.iter().filter(|m| m.name.is_empty()).count();
    let mut out: Vec<Field> = Vec::new();
    let mut anon = 0;
    let mut units = 0;
    for (m, p) in r.members.iter().zip(&rl.members) {
        if let Some((bit, width)) = p.bit {
            let same = out.last().is_some_and(|f| !f.bits.is_empty() && f.offset == p.offset && bit > 0);
            if !same {
                out.push(Field {
                    name: format!("Bitfield{units}"),
                    ty: m.ty.clone(),
                    c: c_decl(&m.ty, ""),
                    offset: p.offset,
                    size: p.layout.size,
                    bits: Vec::new(),
                });
                units += 1;
            }
            let f = out.last_mut().expect("just pushed");
            f.bits.push((m.name.clone(), bit, width));
            continue;
        }
        let name = if m.name.is_empty() {
            anon += 1;
            if n_anon == 1 {
                "Anonymous".to_string()
            } else {
                format!("Anonymous{anon}")
            }
        } else {
            m.name.clone()
        };
        out.push(Field {
            c: c_decl(&m.ty, &m.name),
            name,
            ty: m.ty.clone(),
            offset: p.offset,
            size: p.layout.size,
            bits: Vec::new(),
        });
    }
    Ok(out)
}

/// How a non-C language spells types.
pub(crate) trait Spell {
    /// A primitive of the metadata (`u32`, `wchar`, ...) after the ABI resolved typedefs.
    fn prim(&self, cx: &Cx, p: &str) -> String;
    /// A pointer; the default is the language's untyped pointer.
    fn ptr(&self, cx: &Cx, pointee: &Ty, konst: bool) -> Result<String, String>;
    fn array(&self, elem: String, n: u64) -> String;
    fn record(&self, cx: &Cx, name: &str) -> String {
        cx.meta.display(name).to_string()
    }
    fn enum_ty(&self, cx: &Cx, _name: &str, prim: &str) -> String {
        self.prim(cx, prim)
    }
    fn fnptr(&self, cx: &Cx) -> Result<String, String> {
        self.ptr(cx, &Ty::Name("void".into()), false)
    }
}

pub(crate) fn spell(cx: &Cx, s: &dyn Spell, t: &Ty) -> Result<String, String> {
    Ok(match layout::resolve(cx.meta, cx.abi, t)? {
        Kind::Prim(p) => s.prim(cx, p),
        Kind::Enum(n, p) => s.enum_ty(cx, &n, p),
        Kind::Record(r) => s.record(cx, &r),
        Kind::Interface(i) => return Err(format!("interface {i} by value")),
        Kind::Ptr(p, k) => s.ptr(cx, &p, k)?,
        Kind::Array(e, n) => s.array(spell(cx, s, &e)?, n),
        Kind::Fn => s.fnptr(cx)?,
    })
}

/// `{xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx}` in upper case, as Windows prints GUIDs.
pub(crate) fn guid_braced(iid: &str) -> String {
    format!("{{{}}}", iid.to_ascii_uppercase())
}

/// The fields of a GUID string: (Data1, Data2, Data3, Data4).
pub(crate) fn guid_parts(iid: &str) -> (u32, u16, u16, [u8; 8]) {
    let h: String = iid.chars().filter(|c| *c != '-').collect();
    let n = |a: usize, b: usize| u64::from_str_radix(h.get(a..b).unwrap_or("0"), 16).unwrap_or(0);
    let mut d4 = [0u8; 8];
    for (i, b) in d4.iter_mut().enumerate() {
        *b = n(16 + 2 * i, 18 + 2 * i) as u8;
    }
    (n(0, 8) as u32, n(8, 12) as u16, n(12, 16) as u16, d4)
}

/// A header line naming the ABI and a record's size, shared by all emitters' comments.
pub(crate) fn size_note(cx: &Cx, r: &Record) -> Result<String, String> {
    let l = layout::record(cx.meta, cx.abi, r)?.layout;
    let mut s = String::new();
    let _ = write!(s, "{}: {} bytes, align {} ({})", cx.meta.display(&r.name), l.size, l.align, cx.abi.name());
    Ok(s)
}
