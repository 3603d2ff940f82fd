//! `crates/decl/src/meta.txt`: a language-neutral description of the ABI, taken from the same
//! bindgen output as `crates/sys` (so the two cannot drift), for `rd3d12 decl`.
//!
//! Format (UTF-8, one item per line, fields separated by tabs; `#` starts a comment line):
//!
//! ```text
//! typedef NAME TYPE                       a C typedef (records' aliases included)
//! struct NAME [anon] | union NAME [anon]  a record (`anon`: declared inline in its parent); its members follow, each line `\tNAME\tTYPE[\tBITS]`
//!                                         (an empty NAME is an anonymous member)
//! enum NAME PRIM                          an enum; its values follow as `\tNAME\tVALUE`
//! interface NAME BASE IID                 BASE is `-` for IUnknown; its own methods follow (slot
//!                                         order, IUnknown's included for IUnknown only) as
//!                                         `\tNAME\tRETURN[\tPARAM:TYPE]...`, `This` left out
//! ```
//!
//! TYPE is C read left to right: a base name then `const`, `*` and `[N]` suffixes, e.g.
//! `void * const *`, `IID const *`, `FLOAT [4] [3]` (an array of 3 arrays of 4). Base names are
//! typedefs, records, enums, interfaces, `fn` (a function pointer) or a primitive: `void`, `char`,
//! `i8`..`u64`, `f32`, `f64`, `usize`, `long`, `ulong`. Anonymous records are named after their
//! parent as windows-rs does (`D3D12_RESOURCE_BARRIER_0`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use syn::{Fields, GenericArgument, Item, PathArguments, Type};

/// Renames bindgen's anonymous types: `X__bindgen_ty_1__bindgen_ty_2` → `X_0_1`.
fn rename(name: &str) -> String {
    let mut parts = name.split("__bindgen_ty_");
    let mut out = parts.next().unwrap_or_default().to_string();
    for p in parts {
        let n: u32 = p.parse().unwrap_or(1);
        let _ = write!(out, "_{}", n.saturating_sub(1));
    }
    out
}

fn prim(ident: &str) -> Option<&'static str> {
    Some(match ident {
        "c_void" => "void",
        "c_char" => "char",
        "c_schar" | "i8" => "i8",
        "c_uchar" | "u8" => "u8",
        "c_short" | "i16" => "i16",
        "c_ushort" | "u16" => "u16",
        "c_int" | "i32" => "i32",
        "c_uint" | "u32" => "u32",
        "c_longlong" | "i64" => "i64",
        "c_ulonglong" | "u64" => "u64",
        "c_long" => "long",
        "c_ulong" => "ulong",
        "c_float" | "f32" => "f32",
        "c_double" | "f64" => "f64",
        "usize" => "usize",
        "isize" => "isize",
        "bool" => "bool",
        _ => return None,
    })
}

/// One bindgen type in the notation of the module doc.
fn ty(t: &Type) -> Result<String, String> {
    match t {
        Type::Path(p) => {
            let seg = p.path.segments.last().ok_or("empty path")?;
            let id = seg.ident.to_string();
            if id == "Option" {
                // Option<unsafe extern "C" fn(..)>: a nullable function pointer.
                if let PathArguments::AngleBracketed(a) = &seg.arguments {
                    if let Some(GenericArgument::Type(Type::BareFn(_))) = a.args.first() {
                        return Ok("fn".into());
                    }
                }
                return Err(format!("unexpected Option type {}", quote_of(t)));
            }
            Ok(prim(&id).map(str::to_string).unwrap_or_else(|| rename(&id)))
        }
        Type::Ptr(p) => {
            let inner = ty(&p.elem)?;
            Ok(if p.const_token.is_some() { format!("{inner} const *") } else { format!("{inner} *") })
        }
        Type::Array(a) => {
            let n = match &a.len {
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => {
                    i.base10_parse::<u64>().map_err(|e| e.to_string())?
                }
                e => return Err(format!("array length {}", quote_of(e))),
            };
            Ok(format!("{} [{n}]", ty(&a.elem)?))
        }
        Type::BareFn(_) => Ok("fn".into()),
        other => Err(format!("unsupported type {}", quote_of(other))),
    }
}

fn quote_of<T: quote::ToTokens>(t: &T) -> String {
    t.to_token_stream().to_string()
}

/// bindgen appends `_` to C names that are Rust keywords (`type_`): the C name is the stem
/// when the stem cannot be a Rust identifier.
fn c_field_name(f: &str) -> String {
    match f.strip_suffix('_') {
        Some(k) if syn::parse_str::<syn::Ident>(k).is_err() => k.to_string(),
        _ => f.to_string(),
    }
}

/// A flattened vtable slot: (method, return type, parameters).
type VtblSlot = (String, String, Vec<(String, String)>);

struct Member {
    name: String,
    ty: String,
    bits: Option<u32>,
}

struct Interface {
    base: Option<String>,
    iid: String,
}

/// `MIDL_INTERFACE("uuid") IName : public IBase` of every header: IIDs and base interfaces.
fn interfaces_of_headers(inc: &Path) -> Result<BTreeMap<String, Interface>, String> {
    let re = regex::Regex::new(r#"MIDL_INTERFACE\("([0-9a-fA-F-]{36})"\)\s*(\w+)\s*(?::\s*public\s+(\w+))?"#).unwrap();
    // The headers gen.rs parses are the `#include <...>` lines of its wrapper.
    let include = regex::Regex::new(r"#include <((?:directx|dxcore)/[^>]+)>").unwrap();
    let wrapper = crate::gen::wrapper_source();
    let mut files: Vec<_> = include.captures_iter(&wrapper).map(|c| inc.join(&c[1])).collect();
    files.push(inc.join("wsl/stubs/unknwnbase.h"));
    let mut out = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("{}: {e}", f.display()))?;
        for c in re.captures_iter(&text) {
            let base = c.get(3).map(|m| m.as_str().to_string());
            out.insert(c[2].to_string(), Interface { base, iid: c[1].to_lowercase() });
        }
    }
    Ok(out)
}

/// Bitfield members of `impl X` blocks: (record, unit field) → [(offset, width, name, type)].
type Bitfields = BTreeMap<(String, String), Vec<(u32, u32, String, String)>>;

fn bitfields(file: &syn::File) -> Result<Bitfields, String> {
    let get = regex::Regex::new(r"(_bitfield_\d+)\s*\.\s*get\s*\(\s*(\d+)usize\s*,\s*(\d+)u8\s*\)").unwrap();
    let mut out: Bitfields = BTreeMap::new();
    for item in &file.items {
        let Item::Impl(imp) = item else { continue };
        let Type::Path(p) = &*imp.self_ty else { continue };
        let rec = quote_of(&p.path);
        for it in &imp.items {
            let syn::ImplItem::Fn(f) = it else { continue };
            let name = f.sig.ident.to_string();
            let syn::ReturnType::Type(_, ret) = &f.sig.output else { continue };
            // Getters take `&self` only; setters, raw accessors and constructors are skipped.
            let getter = f.sig.inputs.len() == 1 && matches!(f.sig.inputs.first(), Some(syn::FnArg::Receiver(_)));
            if !getter || name.ends_with("_raw") {
                continue;
            }
            let body = quote_of(&f.block);
            if let Some(c) = get.captures(&body) {
                let off: u32 = c[2].parse().map_err(|e| format!("{e}"))?;
                let width: u32 = c[3].parse().map_err(|e| format!("{e}"))?;
                out.entry((rec.clone(), c[1].to_string())).or_default().push((off, width, name, ty(ret)?));
            }
        }
    }
    for v in out.values_mut() {
        v.sort();
    }
    Ok(out)
}

/// The metadata text for `bindings` (the bindgen output of `gen.rs`) and the headers under `inc`.
pub fn generate(inc: &Path, bindings: &str) -> Result<String, String> {
    let file = syn::parse_file(bindings).map_err(|e| format!("parsing bindings: {e}"))?;
    let heads = interfaces_of_headers(inc)?;
    let bits = bitfields(&file)?;
    let mut s = String::from(
        "# @generated by `cargo xtask gen` (xtask/src/meta.rs) from the bindgen output of crates/sys. Do not edit.\n",
    );
    let mut enums: BTreeMap<String, (String, Vec<(String, i64)>)> = BTreeMap::new();
    let mut enum_order = Vec::new();
    // Vtables, flattened by C: name → [(method, return, params)].
    let mut vtbls: BTreeMap<String, Vec<VtblSlot>> = BTreeMap::new();
    // bindgen writes an enum's constants before its newtype: collect the newtypes first.
    for item in &file.items {
        if let Item::Struct(st) = item {
            if let (Fields::Unnamed(_), Some(f)) = (&st.fields, st.fields.iter().next()) {
                enum_order.push(st.ident.to_string());
                enums.insert(st.ident.to_string(), (ty(&f.ty)?, Vec::new()));
            }
        }
    }
    let mut body = String::new();
    for item in &file.items {
        match item {
            Item::Type(t) => {
                let _ = writeln!(body, "typedef\t{}\t{}", t.ident, ty(&t.ty)?);
            }
            Item::Struct(st) if matches!(st.fields, Fields::Unnamed(_)) => {}
            // `pub use self::_D3D_CBUFFER_TYPE as D3D_CBUFFER_TYPE;`: bindgen's enum typedefs.
            Item::Use(u) => {
                if let syn::UseTree::Path(p) = &u.tree {
                    if let syn::UseTree::Rename(r) = &*p.tree {
                        let _ = writeln!(body, "typedef\t{}\t{}", r.rename, rename(&r.ident.to_string()));
                    }
                }
            }
            Item::Struct(st) if st.ident.to_string().ends_with("Vtbl") => {
                let mut methods = Vec::new();
                for f in &st.fields {
                    let name = f.ident.as_ref().ok_or("unnamed vtable slot")?.to_string();
                    let bare = find_bare_fn(&f.ty).ok_or_else(|| format!("{}::{name} is no function", st.ident))?;
                    let ret = match &bare.output {
                        syn::ReturnType::Default => "void".to_string(),
                        syn::ReturnType::Type(_, t) => ty(t)?,
                    };
                    let mut params = Vec::new();
                    for (i, a) in bare.inputs.iter().enumerate() {
                        let pname = a.name.as_ref().map(|(n, _)| n.to_string()).unwrap_or_else(|| format!("arg{i}"));
                        if i == 0 && pname == "This" {
                            continue;
                        }
                        params.push((c_field_name(&pname), ty(&a.ty)?));
                    }
                    methods.push((name, ret, params));
                }
                let iface = st.ident.to_string().trim_end_matches("Vtbl").to_string();
                vtbls.insert(iface, methods);
            }
            Item::Struct(st) => {
                let name = st.ident.to_string();
                let is_iface =
                    st.fields.len() == 1 && st.fields.iter().any(|f| matches!(&f.ident, Some(i) if i == "lpVtbl"));
                let opaque = st.fields.iter().any(|f| matches!(&f.ident, Some(i) if i == "_unused"));
                // bindgen's own helpers (`__BindgenBitfieldUnit<Storage>`) are no C types.
                if is_iface || opaque || !st.generics.params.is_empty() || name.starts_with("__") {
                    continue;
                }
                let mut members = Vec::new();
                for f in &st.fields {
                    let fname = f.ident.as_ref().ok_or("unnamed field")?.to_string();
                    if fname.starts_with("_bitfield_align_") {
                        continue;
                    }
                    if fname.starts_with("_bitfield_") {
                        let list = bits
                            .get(&(name.clone(), fname.clone()))
                            .ok_or_else(|| format!("{name}.{fname}: no accessors"))?;
                        for (_, w, n, t) in list {
                            members.push(Member { name: n.clone(), ty: t.clone(), bits: Some(*w) });
                        }
                        continue;
                    }
                    if fname.starts_with("__bindgen_padding") {
                        return Err(format!("{name}: bindgen padding is not described"));
                    }
                    let mname = if fname.starts_with("__bindgen_anon_") { String::new() } else { c_field_name(&fname) };
                    members.push(Member { name: mname, ty: ty(&f.ty)?, bits: None });
                }
                write_record(&mut body, "struct", &name, &members);
            }
            Item::Union(u) => {
                let name = u.ident.to_string();
                let mut members = Vec::new();
                for f in &u.fields.named {
                    let fname = f.ident.as_ref().ok_or("unnamed field")?.to_string();
                    let mname = if fname.starts_with("__bindgen_anon_") { String::new() } else { c_field_name(&fname) };
                    members.push(Member { name: mname, ty: ty(&f.ty)?, bits: None });
                }
                write_record(&mut body, "union", &name, &members);
            }
            Item::Const(c) => {
                // `pub const X: E = E(v);` where E is a newtype enum.
                let Type::Path(p) = &*c.ty else { continue };
                let ename = quote_of(&p.path);
                if let (Some(e), syn::Expr::Call(call)) = (enums.get_mut(&ename), &*c.expr) {
                    let v = int_of(call.args.first().ok_or("empty enum value")?)
                        .ok_or_else(|| format!("{}: value is no integer", c.ident))?;
                    e.1.push((c.ident.to_string(), v));
                }
            }
            _ => {}
        }
    }
    s.push_str(&body);
    for name in &enum_order {
        let (prim, values) = &enums[name];
        let _ = writeln!(s, "enum\t{name}\t{prim}");
        for (n, v) in values {
            let _ = writeln!(s, "\t{n}\t{v}");
        }
    }
    for (name, methods) in &vtbls {
        // ID3DInclude is the one interface without MIDL_INTERFACE: not COM, no IID, no base.
        let none = Interface { base: None, iid: "-".into() };
        let head = heads.get(name).unwrap_or(&none);
        // Slots of the base chain come first: check that, and keep only this interface's own.
        let inherited = match &head.base {
            None => 0,
            Some(b) => {
                let base = vtbls.get(b).ok_or_else(|| format!("{name}: base {b} has no vtable"))?;
                let same = base.iter().zip(methods).all(|(a, b)| a == b);
                if !same || base.len() > methods.len() {
                    return Err(format!("{name}: its vtable does not start with {b}'s"));
                }
                base.len()
            }
        };
        let _ = writeln!(s, "interface\t{name}\t{}\t{}", head.base.as_deref().unwrap_or("-"), head.iid);
        for (m, ret, params) in &methods[inherited..] {
            let _ = write!(s, "\t{m}\t{ret}");
            for (p, t) in params {
                let _ = write!(s, "\t{p}:{t}");
            }
            s.push('\n');
        }
    }
    Ok(s)
}

fn find_bare_fn(t: &Type) -> Option<&syn::TypeBareFn> {
    match t {
        Type::BareFn(b) => Some(b),
        Type::Path(p) => match &p.path.segments.last()?.arguments {
            PathArguments::AngleBracketed(a) => match a.args.first()? {
                GenericArgument::Type(t) => find_bare_fn(t),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn int_of(e: &syn::Expr) -> Option<i64> {
    match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(i), .. }) => i.base10_parse().ok(),
        syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => int_of(&u.expr).map(|v| -v),
        _ => None,
    }
}

fn write_record(s: &mut String, kind: &str, name: &str, members: &[Member]) {
    let anon = if name.contains("__bindgen_ty_") { "\tanon" } else { "" };
    let _ = writeln!(s, "{kind}\t{}{anon}", rename(name));
    for m in members {
        match m.bits {
            Some(b) => writeln!(s, "\t{}\t{}\t{b}", m.name, m.ty),
            None => writeln!(s, "\t{}\t{}", m.name, m.ty),
        }
        .expect("writing to a String");
    }
}
