//! C and C++: Microsoft's own shapes (`typedef struct`, CINTERFACE vtables for C, abstract
//! classes for C++), each member commented with its offset for the ABI.

use std::fmt::Write as _;

use super::{abi_sig, c_decl, size_note, Cx, Emitter, Item};
use crate::layout::{self, Kind};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct C {
    pub cpp: bool,
}

impl C {
    fn body(&self, cx: &Cx, r: &Record, indent: usize, out: &mut String, base: u64) -> Result<(), String> {
        let rl = layout::record(cx.meta, cx.abi, r)?;
        let pad = "    ".repeat(indent);
        for (m, p) in r.members.iter().zip(&rl.members) {
            let at = base + p.offset;
            let note = match p.bit {
                Some((b, w)) => format!("/* {at}, bits {b}..{} */", b + w - 1),
                None => format!("/* {at} */"),
            };
            match layout::resolve(cx.meta, cx.abi, &m.ty)? {
                Kind::Record(inner) if cx.meta.records[&inner].anon => {
                    let ir = &cx.meta.records[&inner];
                    let _ = writeln!(out, "{pad}{} {{ {note}", if ir.union { "union" } else { "struct" });
                    self.body(cx, ir, indent + 1, out, at)?;
                    let _ = writeln!(out, "{pad}}}{}{};", if m.name.is_empty() { "" } else { " " }, m.name);
                }
                _ => {
                    let bits = m.bits.map(|b| format!(" : {b}")).unwrap_or_default();
                    let _ = writeln!(out, "{pad}{}{bits}; {note}", c_decl(&m.ty, &m.name));
                }
            }
        }
        Ok(())
    }

    fn method_line(&self, i: &Interface, slot: usize, ret: &Ty, name: &str, params: &[(String, Ty)]) -> String {
        let args: Vec<String> = params.iter().map(|(n, t)| c_decl(t, n)).collect();
        if self.cpp {
            format!(
                "    virtual {} STDMETHODCALLTYPE {name}({}) = 0; /* slot {slot} */\n",
                c_decl(ret, ""),
                args.join(", ")
            )
        } else {
            let mut all = vec![format!("{} *This", i.name)];
            all.extend(args);
            format!(
                "    {} /* slot {slot} */;\n",
                c_decl(ret, &format!("(STDMETHODCALLTYPE *{name})({})", all.join(", ")))
            )
        }
    }
}

impl Emitter for C {
    fn inline_anon(&self) -> bool {
        true
    }
    fn typed_pointers(&self) -> bool {
        true
    }

    fn prelude(&self, cx: &Cx, items: &[Item], deps: bool) -> String {
        let mut s = format!(
            "/* D3D12 declarations for {} ({}), written by `rd3d12 decl` from rd3d12's ABI metadata\n   (generated from Microsoft's DirectX-Headers). */\n",
            if self.cpp { "C++" } else { "C" },
            cx.abi.name()
        );
        if !deps {
            return s;
        }
        s.push_str("#include <stddef.h>\n#include <stdint.h>\n");
        let call = if cx.abi == crate::Abi::WindowsX86 { "__stdcall" } else { "" };
        let _ = writeln!(s, "#ifndef STDMETHODCALLTYPE\n#define STDMETHODCALLTYPE {call}\n#endif");
        // Forward declarations, so that pointers may name any record or interface.
        for it in items {
            match it {
                Item::Record(r) if !r.anon => {
                    let kw = if r.union { "union" } else { "struct" };
                    let _ = writeln!(s, "typedef {kw} {0} {0};", r.name);
                }
                Item::Interface(i) => {
                    let _ = writeln!(s, "typedef struct {0} {0};", i.name);
                }
                _ => {}
            }
        }
        s.push('\n');
        s
    }

    fn typedef(&self, cx: &Cx, name: &str, ty: &Ty) -> Result<String, String> {
        // Pointer-sized and wchar_t typedefs are spelled for the ABI; the rest as declared.
        let t = match layout::resolve(cx.meta, cx.abi, &Ty::Name(name.into()))? {
            Kind::Prim(p) => Ty::Name(p.into()),
            _ => ty.clone(),
        };
        Ok(format!("typedef {};\n", c_decl(&t, name)))
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let kw = if r.union { "union" } else { "struct" };
        let mut s = format!("/* {} */\n", size_note(cx, r)?);
        let _ = writeln!(s, "typedef {kw} {} {{", r.name);
        self.body(cx, r, 1, &mut s, 0)?;
        let _ = writeln!(s, "}} {};", cx.meta.display(&r.name));
        Ok(s)
    }

    fn enumeration(&self, _cx: &Cx, e: &Enum) -> Result<String, String> {
        let mut s = format!("typedef enum {} {{\n", e.name);
        for (n, v) in &e.values {
            let v = if *v > i32::MAX as i64 { format!("(int)0x{v:x}") } else { v.to_string() };
            let _ = writeln!(s, "    {n} = {v},");
        }
        let _ = writeln!(s, "}} {};", e.name);
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let mut s = String::new();
        if let Some(iid) = &i.iid {
            let (a, b, c, d) = super::guid_parts(iid);
            let d: Vec<String> = d.iter().map(|x| format!("0x{x:02x}")).collect();
            let _ = writeln!(s, "/* {} */", super::guid_braced(iid));
            let _ = writeln!(
                s,
                "static const GUID IID_{} = {{0x{a:08x}, 0x{b:04x}, 0x{c:04x}, {{{}}}}};",
                i.name,
                d.join(", ")
            );
        }
        if self.cpp {
            let base = i.base.as_ref().map(|b| format!(" : public {b}")).unwrap_or_default();
            let _ = writeln!(s, "struct {}{base} {{", i.name);
            let first = cx.meta.slots(i).iter().take_while(|(_, owner, _)| owner.name != i.name).count();
            for (k, m) in i.methods.iter().enumerate() {
                // C++ keeps the by-value return on every ABI: MSVC's member-call convention
                // passes the hidden pointer itself.
                s.push_str(&self.method_line(i, first + k, &m.ret, &m.name, &m.params));
            }
            s.push_str("};\n");
        } else {
            let _ = writeln!(s, "typedef struct {0}Vtbl {{", i.name);
            for (slot, _, m) in cx.meta.slots(i) {
                let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
                s.push_str(&self.method_line(i, slot, &ret, &m.name, &params));
            }
            let _ = writeln!(s, "}} {0}Vtbl;\nstruct {0} {{\n    const struct {0}Vtbl *lpVtbl;\n}};", i.name);
        }
        Ok(s)
    }
}
