//! C# and VB.NET: sequential structs (explicit layout for unions), `[MarshalAs(UnmanagedType.Bool)]`
//! for BOOL, fixed-size arrays as `ByValArray`; interfaces as `[ComImport]` with methods in slot
//! order, and for C# also `[GeneratedComInterface]` (the source-generated COM of .NET 8).

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct CSharp {
    pub vb: bool,
}

impl Spell for CSharp {
    fn prim(&self, cx: &Cx, p: &str) -> String {
        let (cs, vb) = match p {
            "void" => ("void", "Void"),
            "char" | "i8" => ("sbyte", "SByte"),
            "u8" => ("byte", "Byte"),
            "i16" => ("short", "Short"),
            "u16" => ("ushort", "UShort"),
            "i32" => ("int", "Integer"),
            "u32" => ("uint", "UInteger"),
            "i64" => ("long", "Long"),
            "u64" => ("ulong", "ULong"),
            "f32" => ("float", "Single"),
            "f64" => ("double", "Double"),
            "usize" => ("UIntPtr", "UIntPtr"),
            "isize" => ("IntPtr", "IntPtr"),
            "long" if cx.abi.windows() => ("int", "Integer"),
            "ulong" if cx.abi.windows() => ("uint", "UInteger"),
            "long" => ("long", "Long"),
            "ulong" => ("ulong", "ULong"),
            "bool" => ("byte", "Byte"),
            "wchar" if cx.abi.windows() => ("char", "Char"),
            _ => ("int", "Integer"),
        };
        (if self.vb { vb } else { cs }).to_string()
    }
    fn ptr(&self, _cx: &Cx, _pointee: &Ty, _konst: bool) -> Result<String, String> {
        Ok("IntPtr".into())
    }
    fn array(&self, elem: String, _n: u64) -> String {
        if self.vb {
            format!("{elem}()")
        } else {
            format!("{elem}[]")
        }
    }
}

/// Total element count and element type of a (nested) array.
fn flat_array(t: &Ty) -> Option<(u64, &Ty)> {
    match t {
        Ty::Array(e, n) => Some(match flat_array(e) {
            Some((m, x)) => (n * m, x),
            None => (*n, e),
        }),
        _ => None,
    }
}

impl CSharp {
    fn is_bool(t: &Ty) -> bool {
        matches!(t, Ty::Name(n) if n == "BOOL")
    }

    /// C#'s element type for a `fixed` buffer, if the array's elements allow one (integers and
    /// floats; enums and BOOL by their integer).
    fn fixed_elem(&self, cx: &Cx, e: &Ty) -> Result<Option<String>, String> {
        Ok(match layout::resolve(cx.meta, cx.abi, e)? {
            Kind::Prim("usize" | "isize" | "void") => None,
            Kind::Prim(p) | Kind::Enum(_, p) => Some(self.prim(cx, p)),
            _ => None,
        })
    }

    /// One field; arrays become `fixed` buffers (C#, primitive elements: blittable, and legal
    /// where a union overlaps them), `ByValArray` (VB.NET outside unions), or one field per
    /// element `Name_0`.. (arrays of structs or pointers, and VB.NET inside unions: .NET refuses
    /// an array reference overlapping other fields).
    fn member(&self, cx: &Cx, union: bool, name: &str, t: &Ty, offset: u64, c: &str) -> Result<String, String> {
        let mut attrs = Vec::new();
        if union {
            attrs.push(format!("FieldOffset({offset})"));
        }
        let line = |attrs: &[String], ty: &str, decl: &str| {
            if self.vb {
                let a = if attrs.is_empty() { String::new() } else { format!("<{}> ", attrs.join(", ")) };
                format!("    {a}Public {decl} As {ty} ' {offset}: {c}\n")
            } else {
                let a = if attrs.is_empty() { String::new() } else { format!("[{}] ", attrs.join(", ")) };
                format!("    {a}public {ty} {decl}; // {offset}: {c}\n")
            }
        };
        if let Some((n, e)) = flat_array(t) {
            if let (false, Some(et)) = (self.vb, self.fixed_elem(cx, e)?) {
                return Ok(line(&attrs, &format!("fixed {et}"), &format!("{name}[{n}]")));
            }
            if !self.vb || union {
                let step = layout::layout_of(cx.meta, cx.abi, e)?.size;
                let mut out = String::new();
                for k in 0..n {
                    let at = offset + k * step;
                    out.push_str(&self.member(cx, union, &format!("{name}_{k}"), e, at, c)?);
                }
                return Ok(out);
            }
            attrs.push(format!("MarshalAs(UnmanagedType.ByValArray, SizeConst = {n})"));
            return Ok(line(&attrs, &self.array(spell(cx, self, e)?, n), name));
        }
        let ty = if Self::is_bool(t) {
            attrs.push("MarshalAs(UnmanagedType.Bool)".into());
            if self.vb { "Boolean" } else { "bool" }.to_string()
        } else {
            spell(cx, self, t)?
        };
        Ok(line(&attrs, &ty, name))
    }

    fn ret_and_args(&self, cx: &Cx, ret: &Ty, params: &[(String, Ty)]) -> Result<(String, Vec<String>), String> {
        let mut args = Vec::new();
        for (n, t) in params {
            let ty = spell(cx, self, t)?;
            let n = if KEYWORDS.contains(&n.as_str()) { format!("@{n}") } else { n.clone() };
            args.push(if self.vb { format!("{} As {ty}", n.trim_start_matches('@')) } else { format!("{ty} {n}") });
        }
        let r = match layout::resolve(cx.meta, cx.abi, ret)? {
            Kind::Prim("void") => "void".to_string(),
            _ => spell(cx, self, ret)?,
        };
        Ok((r, args))
    }
}

const KEYWORDS: &[&str] =
    &["object", "string", "event", "params", "base", "ref", "out", "in", "fixed", "checked", "lock", "operator"];

impl Emitter for CSharp {
    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        if self.vb {
            format!("' D3D12 declarations for VB.NET ({}), written by `rd3d12 decl`.\nImports System\nImports System.Runtime.InteropServices\n\n", cx.abi.name())
        } else {
            format!("// D3D12 declarations for C# ({}), written by `rd3d12 decl`.\nusing System;\nusing System.Runtime.InteropServices;\n\n", cx.abi.name())
        }
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let kind = if r.union { "Explicit" } else { "Sequential" };
        let name = cx.meta.display(&r.name);
        let mut body = String::new();
        for f in fields(cx, r)? {
            let c = f.what();
            body.push_str(&self.member(cx, r.union, &f.name, &f.ty, f.offset, &c)?);
        }
        let note = size_note(cx, r)?;
        Ok(if self.vb {
            format!("' {note}\n<StructLayout(LayoutKind.{kind}, CharSet:=CharSet.Unicode)>\nPublic Structure {name}\n{body}End Structure\n")
        } else {
            // `fixed` buffers need an unsafe struct (and AllowUnsafeBlocks / mcs -unsafe).
            let unsafe_ = if body.contains("public fixed ") { "unsafe " } else { "" };
            format!("// {note}\n[StructLayout(LayoutKind.{kind}, CharSet = CharSet.Unicode)]\npublic {unsafe_}struct {name}\n{{\n{body}}}\n")
        })
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let p = self.prim(cx, &e.prim);
        let mut s = if self.vb {
            format!("Public Enum {} As {p}\n", cx.meta.display(&e.name))
        } else {
            format!("public enum {} : {p}\n{{\n", cx.meta.display(&e.name))
        };
        for (n, v) in &e.values {
            let v = if e.prim == "u32" { (*v as u32).to_string() } else { (*v as i32).to_string() };
            if self.vb {
                let _ = writeln!(s, "    {n} = {v}");
            } else {
                let _ = writeln!(s, "    {n} = {v},");
            }
        }
        s.push_str(if self.vb { "End Enum\n" } else { "}\n" });
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let Some(iid) = i.iid.clone() else {
            let c = if self.vb { "'" } else { "//" };
            return Ok(format!("{c} {} has no IID: not a COM interface (see the C declaration).\n", i.name));
        };
        let mut s = String::new();
        // Windows COM interop of .NET declares IUnknown's methods itself: list the rest, by slot.
        let slots: Vec<_> = cx.meta.slots(i).into_iter().filter(|(k, _, _)| *k >= 3).collect();
        if self.vb {
            let _ = writeln!(s, "<ComImport, Guid(\"{iid}\"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)>\nPublic Interface {}", i.name);
        } else {
            let _ = writeln!(
                s,
                "// [GeneratedComInterface] (.NET 8) takes the same body with `partial interface`.\n[ComImport, Guid(\"{iid}\"), InterfaceType(ComInterfaceType.InterfaceIsIUnknown)]\npublic interface {}\n{{",
                i.name
            );
        }
        for (slot, _, m) in slots {
            // [PreserveSig] methods are raw vtable calls: on Windows a struct return is the
            // hidden RetVal pointer of d3d12.h's C declaration.
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let (r, args) = self.ret_and_args(cx, &ret, &params)?;
            if self.vb {
                let kw = if r == "void" { "Sub" } else { "Function" };
                let tail = if r == "void" { String::new() } else { format!(" As {r}") };
                let _ = writeln!(s, "    <PreserveSig> {kw} {}({}){tail} ' slot {slot}", m.name, args.join(", "));
            } else {
                let _ = writeln!(s, "    [PreserveSig] {r} {}({}); // slot {slot}", m.name, args.join(", "));
            }
        }
        s.push_str(if self.vb { "End Interface\n" } else { "}\n" });
        Ok(s)
    }
}
