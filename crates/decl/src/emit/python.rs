//! Python ctypes: `ctypes.Structure`/`Union` classes (wintypes names on the Windows ABIs), enum
//! values as module constants, and per interface its IID and a prototype for every vtable slot.

use std::fmt::Write as _;

use super::{abi_sig, fields, size_note, spell, Cx, Emitter, Spell};
use crate::model::{Enum, Interface, Record, Ty};

pub(crate) struct Python;

/// Names `ctypes.wintypes` defines with the Windows meaning.
const WINTYPES: &[&str] = &[
    "BOOL", "BYTE", "WORD", "DWORD", "UINT", "INT", "LONG", "ULONG", "FLOAT", "DOUBLE", "WCHAR", "HANDLE", "LPCWSTR",
    "LPCSTR", "LPVOID", "BOOLEAN", "CHAR", "USHORT", "SHORT",
];

impl Python {
    /// A field's type: wintypes' name where the C type is one (Windows only), else ctypes'.
    fn field_ty(&self, cx: &Cx, t: &Ty) -> Result<String, String> {
        if let Ty::Name(n) = t {
            if cx.abi.windows() && WINTYPES.contains(&n.as_str()) {
                return Ok(format!("wintypes.{n}"));
            }
        }
        spell(cx, self, t)
    }
}

impl Spell for Python {
    fn prim(&self, cx: &Cx, p: &str) -> String {
        let t = match p {
            "void" => "None",
            "char" => "c_char",
            "i8" => "c_int8",
            "u8" => "c_uint8",
            "i16" => "c_int16",
            "u16" => "c_uint16",
            "i32" => "c_int32",
            "u32" => "c_uint32",
            "i64" => "c_int64",
            "u64" => "c_uint64",
            "f32" => "c_float",
            "f64" => "c_double",
            "usize" => "c_size_t",
            "isize" => "c_ssize_t",
            "long" | "ulong" if cx.abi.windows() => "c_int32",
            "long" => "c_int64",
            "ulong" => "c_uint64",
            "bool" => "c_bool",
            "wchar" if cx.abi.windows() => "c_uint16",
            _ => "c_wchar",
        };
        if t == "None" {
            t.into()
        } else {
            format!("ctypes.{t}")
        }
    }
    fn ptr(&self, _cx: &Cx, _pointee: &Ty, _konst: bool) -> Result<String, String> {
        Ok("ctypes.c_void_p".into())
    }
    fn array(&self, elem: String, n: u64) -> String {
        format!("({elem} * {n})")
    }
}

impl Emitter for Python {
    fn prelude(&self, cx: &Cx, _items: &[super::Item], _deps: bool) -> String {
        let mut s = format!(
            "# D3D12 declarations for Python ctypes ({}), written by `rd3d12 decl`.\nimport ctypes\n",
            cx.abi.name()
        );
        if cx.abi.windows() {
            s.push_str("from ctypes import wintypes\n");
        }
        let f = if cx.abi == crate::Abi::WindowsX86 { "ctypes.WINFUNCTYPE" } else { "ctypes.CFUNCTYPE" };
        let _ = writeln!(
            s,
            "FUNCTYPE = {f}\n\n\ndef com_method(obj, slot, proto):\n    \"\"\"The method at vtable `slot` of COM object pointer `obj` (an int), callable as f(obj, ...).\"\"\"\n    vtbl = ctypes.cast(obj, ctypes.POINTER(ctypes.POINTER(ctypes.c_void_p)))[0]\n    return proto(vtbl[slot])\n\n"
        );
        s
    }

    fn record(&self, cx: &Cx, r: &Record) -> Result<String, String> {
        let base = if r.union { "Union" } else { "Structure" };
        let name = cx.meta.display(&r.name);
        let mut s = format!("class {name}(ctypes.{base}):\n    \"\"\"{}\"\"\"\n", size_note(cx, r)?);
        let fs = fields(cx, r)?;
        let anon: Vec<String> =
            fs.iter().filter(|f| f.name.starts_with("Anonymous")).map(|f| format!("{:?}, ", f.name)).collect();
        if !anon.is_empty() {
            let _ = writeln!(s, "    _anonymous_ = ({})", anon.concat().trim_end());
        }
        s.push_str("    _fields_ = [\n");
        for f in &fs {
            if f.bits.is_empty() {
                let _ = writeln!(s, "        ({:?}, {}),  # {}: {}", f.name, self.field_ty(cx, &f.ty)?, f.offset, f.c);
            } else {
                for (n, b, w) in &f.bits {
                    let _ = writeln!(
                        s,
                        "        ({n:?}, {}, {w}),  # {}: bits {b}..{}",
                        self.field_ty(cx, &f.ty)?,
                        f.offset,
                        b + w - 1
                    );
                }
            }
        }
        s.push_str("    ]\n");
        Ok(s)
    }

    fn enumeration(&self, cx: &Cx, e: &Enum) -> Result<String, String> {
        let mut s = format!("{} = {}\n", cx.meta.display(&e.name), self.prim(cx, &e.prim));
        for (n, v) in &e.values {
            let _ = writeln!(s, "{n} = {v}");
        }
        Ok(s)
    }

    fn interface(&self, cx: &Cx, i: &Interface) -> Result<String, String> {
        let mut s = format!("class {}:\n", i.name);
        let _ = writeln!(
            s,
            "    \"\"\"Vtable slots of {}: (index, prototype); call com_method(obj, *{}.Method)(obj, ...).\"\"\"",
            i.name, i.name
        );
        if let Some(iid) = &i.iid {
            let _ = writeln!(s, "    IID = {:?}", super::guid_braced(iid));
        }
        for (slot, _, m) in cx.meta.slots(i) {
            let (ret, params) = abi_sig(cx, &m.ret, &m.params)?;
            let mut args = vec!["ctypes.c_void_p".to_string()];
            for (_, t) in &params {
                args.push(self.field_ty(cx, t)?);
            }
            let ret = self.field_ty(cx, &ret)?;
            let names: Vec<&str> = ["This"].into_iter().chain(params.iter().map(|(n, _)| n.as_str())).collect();
            let _ =
                writeln!(s, "    {} = ({slot}, FUNCTYPE({ret}, {}))  # {}", m.name, args.join(", "), names.join(", "));
        }
        if i.methods.is_empty() && cx.meta.slots(i).is_empty() {
            s.push_str("    pass\n");
        }
        Ok(s)
    }
}
