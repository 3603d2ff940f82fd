//! Generation of `crates/sys/src/dxcore.rs` from Microsoft's `dxcore_interface.h`.
//!
//! The DXCore header is C++ only (`enum class`, `MIDL_INTERFACE` classes, no CINTERFACE
//! section), so it goes through bindgen in C++ mode for its enums and structs, and its three
//! interfaces are read from the header's `virtual ... = 0;` declarations (in declaration order,
//! which is the vtable order of a single-inheritance class on the Itanium C++ ABI) into flat
//! `*Vtbl` structs shaped like the CINTERFACE vtables of `bindings.rs`, with IUnknown's three
//! slots first. Non-virtual template helpers in the classes are not slots and are skipped.

use std::fmt::Write as _;
use std::path::Path;

/// One `virtual RET STDMETHODCALLTYPE Name(params) = 0;` of an interface.
struct Method {
    name: String,
    ret: String,
    params: Vec<(String, String)>,
}

/// Maps a C++ parameter or return type of dxcore_interface.h to its Rust FFI type.
fn rust_type(c: &str) -> Result<String, String> {
    let t = c.replace("_In_reads_bytes_opt_", "").replace("_COM_Outptr_", "");
    let t: String = t.split_whitespace().collect::<Vec<_>>().join(" ");
    let t = t.trim();
    let base = |b: &str| -> Result<&'static str, String> {
        Ok(match b {
            "void" => "::core::ffi::c_void",
            "bool" => "bool",
            "uint32_t" => "u32",
            "size_t" => "usize",
            "HRESULT" => "HRESULT",
            "GUID" => "GUID",
            "LUID" => "LUID",
            "IUnknown" => "IUnknown",
            "DXCoreAdapterProperty" => "DXCoreAdapterProperty",
            "DXCoreAdapterState" => "DXCoreAdapterState",
            "DXCoreNotificationType" => "DXCoreNotificationType",
            "DXCoreAdapterPreference" => "DXCoreAdapterPreference",
            "PFN_DXCORE_NOTIFICATION_CALLBACK" => "PFN_DXCORE_NOTIFICATION_CALLBACK",
            other => return Err(format!("dxcore: no Rust type for {other:?} (in {c:?})")),
        })
    };
    if t == "REFGUID" || t == "REFIID" {
        return Ok("*const GUID".into());
    }
    // `const LUID &x` is passed as a pointer, like REFGUID.
    if let Some(r) = t.strip_suffix('&') {
        let r = r.trim().strip_prefix("const ").ok_or_else(|| format!("dxcore: non-const reference {c:?}"))?;
        return Ok(format!("*const {}", base(r.trim())?));
    }
    let stars = t.matches('*').count();
    let core = t.trim_end_matches(['*', ' ']);
    let (is_const, core) = match core.strip_prefix("const ") {
        Some(r) => (true, r.trim()),
        None => (false, core),
    };
    let mut out = base(core)?.to_string();
    for i in 0..stars {
        // The constness belongs to the innermost pointee.
        let q = if i == 0 && is_const { "*const " } else { "*mut " };
        out = format!("{q}{out}");
    }
    Ok(out)
}

/// Splits `type name` (the last identifier is the name).
fn split_param(p: &str) -> Result<(String, String), String> {
    let p = p.trim();
    let at = p.rfind(|c: char| !(c.is_alphanumeric() || c == '_')).ok_or_else(|| format!("dxcore: param {p:?}"))?;
    Ok((p[at + 1..].to_string(), p[..=at].to_string()))
}

/// The interfaces of the header with their virtual methods in slot order.
fn interfaces(text: &str) -> Result<Vec<(String, String, Vec<Method>)>, String> {
    let iface = regex::Regex::new(r#"MIDL_INTERFACE\("([0-9a-fA-F-]{36})"\)\s*(\w+)\s*:\s*public\s+(\w+)"#).unwrap();
    let virt = regex::Regex::new(r"(?s)virtual\s+(\w+)\s+STDMETHODCALLTYPE\s+(\w+)\s*\(([^)]*)\)\s*=\s*0\s*;").unwrap();
    let sal = regex::Regex::new(r"_(In|Out|Inout)\w*_(\([^()]*\))?").unwrap();
    let starts: Vec<_> = iface.captures_iter(text).map(|c| (c.get(0).unwrap().start(), c)).collect();
    let mut out = Vec::new();
    for (i, (start, c)) in starts.iter().enumerate() {
        let end = starts.get(i + 1).map_or(text.len(), |s| s.0);
        if &c[3] != "IUnknown" {
            return Err(format!("dxcore: {} derives from {}, expected IUnknown", &c[2], &c[3]));
        }
        // SAL annotations may carry parentheses of their own: gone before methods are matched.
        let body = text[*start..end].replace("_COM_Outptr_", "");
        let body = sal.replace_all(&body, "");
        let mut methods = Vec::new();
        for m in virt.captures_iter(&body) {
            let mut params = Vec::new();
            for p in m[3].split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let (name, ty) = split_param(p)?;
                params.push((name, rust_type(&ty)?));
            }
            methods.push(Method { name: m[2].to_string(), ret: rust_type(&m[1])?, params });
        }
        out.push((c[2].to_string(), c[1].to_string(), methods));
    }
    if out.len() != 3 {
        return Err(format!("dxcore: expected 3 interfaces, found {}", out.len()));
    }
    Ok(out)
}

/// The D3D12 bindings' include paths, in C++ mode (the DXCore header has no C section).
fn cxx_args(inc: &Path) -> Vec<String> {
    let mut a = crate::gen::clang_args(inc);
    let lang = a.iter().position(|x| x == "c").expect("clang_args names the language");
    a[lang] = "c++".into();
    a.push("-std=c++14".into());
    a
}

fn types_rs(inc: &Path) -> Result<String, String> {
    let b = bindgen::Builder::default()
        .header_contents(
            "rd3d12_dxcore.hpp",
            "#include <stddef.h>\n#include <wsl/winadapter.h>\n#include <directx/dxcore.h>\n",
        )
        .clang_args(cxx_args(inc))
        .allowlist_type("DXCore.*|PFN_DXCORE.*")
        .blocklist_type("IUnknown|_GUID|GUID|IID|_LUID|LUID|ULONG|LONG|HRESULT")
        .default_enum_style(bindgen::EnumVariation::NewType { is_bitfield: false, is_global: true })
        .layout_tests(false)
        .generate_comments(false)
        .derive_default(true)
        .derive_debug(true)
        .use_core()
        .formatter(bindgen::Formatter::Prettyplease);
    Ok(b.generate().map_err(|e| format!("bindgen (dxcore): {e}"))?.to_string())
}

/// The whole of `dxcore.rs`.
pub fn dxcore_rs(inc: &Path) -> Result<String, String> {
    let header = inc.join("directx/dxcore_interface.h");
    let text = std::fs::read_to_string(&header).map_err(|e| format!("{}: {e}", header.display()))?;
    let mut s = String::from(
        "// @generated by `cargo xtask gen` from Debian's directx-headers-dev (dxcore_interface.h). Do not edit.\n\
         #![allow(non_camel_case_types, non_snake_case, non_upper_case_globals, dead_code)]\n\
         #![allow(clippy::all)]\nuse crate::*;\n\n",
    );
    let types = types_rs(inc)?;
    s.push_str(
        types.lines().filter(|l| !l.starts_with("/* automatically generated")).collect::<Vec<_>>().join("\n").trim(),
    );
    s.push_str("\n\n");
    for (name, uuid, methods) in interfaces(&text)? {
        let _ = writeln!(
            s,
            "/// `{name}` ({uuid}): IUnknown's three slots, then {} methods in declaration order.",
            methods.len()
        );
        let _ = writeln!(s, "#[repr(C)]\n#[derive(Debug, Default, Copy, Clone)]\npub struct {name}Vtbl {{");
        let _ = writeln!(
            s,
            "    pub QueryInterface: ::core::option::Option<unsafe extern \"C\" fn(This: *mut {name}, riid: *const IID, ppvObject: *mut *mut ::core::ffi::c_void) -> HRESULT>,"
        );
        let _ =
            writeln!(s, "    pub AddRef: ::core::option::Option<unsafe extern \"C\" fn(This: *mut {name}) -> ULONG>,");
        let _ =
            writeln!(s, "    pub Release: ::core::option::Option<unsafe extern \"C\" fn(This: *mut {name}) -> ULONG>,");
        for m in &methods {
            let mut params = format!("This: *mut {name}");
            for (pn, pt) in &m.params {
                let _ = write!(params, ", {pn}: {pt}");
            }
            let ret = if m.ret == "::core::ffi::c_void" { String::new() } else { format!(" -> {}", m.ret) };
            let _ = writeln!(s, "    pub {}: ::core::option::Option<unsafe extern \"C\" fn({params}){ret}>,", m.name);
        }
        s.push_str("}\n");
        let _ = writeln!(
            s,
            "#[repr(C)]\n#[derive(Debug, Copy, Clone)]\npub struct {name} {{\n    pub lpVtbl: *mut {name}Vtbl,\n}}\n"
        );
    }
    Ok(s)
}
