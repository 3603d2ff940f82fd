//! The parsed form of `meta.txt` (written by `cargo xtask gen`, see xtask/src/meta.rs for the
//! format): every typedef, record, enum and interface of the generated ABI.

use std::collections::BTreeMap;

/// A C type: a base name with pointers and arrays around it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    /// A primitive (`u32`, `void`, ...), typedef, record, enum or interface name.
    Name(String),
    /// Pointer; `true` when the pointee is const.
    Ptr(Box<Ty>, bool),
    /// `elem[n]`.
    Array(Box<Ty>, u64),
    /// A function pointer.
    Fn,
}

impl Ty {
    /// Parses the notation of meta.txt: `void * const *`, `FLOAT [4] [3]`.
    pub fn parse(s: &str) -> Result<Ty, String> {
        let mut toks = s.split_whitespace();
        let base = toks.next().ok_or_else(|| format!("empty type {s:?}"))?;
        let mut t = if base == "fn" { Ty::Fn } else { Ty::Name(base.to_string()) };
        let mut konst = false;
        for tok in toks {
            match tok {
                "const" => konst = true,
                "*" => {
                    t = Ty::Ptr(Box::new(t), konst);
                    konst = false;
                }
                _ => {
                    let n = tok
                        .strip_prefix('[')
                        .and_then(|x| x.strip_suffix(']'))
                        .and_then(|x| x.parse().ok())
                        .ok_or_else(|| format!("bad type token {tok:?} in {s:?}"))?;
                    t = Ty::Array(Box::new(t), n);
                }
            }
        }
        Ok(t)
    }

    /// The base name under pointers and arrays (`None` for function pointers).
    pub fn base(&self) -> Option<&str> {
        match self {
            Ty::Name(n) => Some(n),
            Ty::Ptr(t, _) | Ty::Array(t, _) => t.base(),
            Ty::Fn => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Member {
    /// Empty for an anonymous struct or union member.
    pub name: String,
    pub ty: Ty,
    pub bits: Option<u32>,
}

#[derive(Clone, Debug)]
pub struct Record {
    pub name: String,
    pub union: bool,
    /// Declared inline in its parent (C's anonymous struct/union types).
    pub anon: bool,
    pub members: Vec<Member>,
}

#[derive(Clone, Debug)]
pub struct Enum {
    pub name: String,
    /// The underlying primitive (`i32` or `u32`).
    pub prim: String,
    pub values: Vec<(String, i64)>,
}

#[derive(Clone, Debug)]
pub struct Method {
    pub name: String,
    pub ret: Ty,
    pub params: Vec<(String, Ty)>,
}

#[derive(Clone, Debug)]
pub struct Interface {
    pub name: String,
    pub base: Option<String>,
    /// Lower-case `xxxxxxxx-xxxx-...`; `None` for ID3DInclude (not COM).
    pub iid: Option<String>,
    /// Its own methods, in slot order after the base's.
    pub methods: Vec<Method>,
}

/// Everything meta.txt describes.
#[derive(Debug, Default)]
pub struct Meta {
    pub typedefs: BTreeMap<String, Ty>,
    pub records: BTreeMap<String, Record>,
    pub enums: BTreeMap<String, Enum>,
    pub interfaces: BTreeMap<String, Interface>,
    /// Record or enum name → the name C code uses for it (`_GUID` → `GUID`).
    pub display: BTreeMap<String, String>,
}

enum Open {
    None,
    Record(Record),
    Enum(Enum),
    Interface(Interface),
}

impl Meta {
    pub fn parse(text: &str) -> Result<Meta, String> {
        let mut m = Meta::default();
        let mut open = Open::None;
        for (i, line) in text.lines().enumerate() {
            let err = |e: String| format!("meta.txt:{}: {e}", i + 1);
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            if let Some(rest) = cols.first().filter(|c| c.is_empty()).map(|_| &cols[1..]) {
                match &mut open {
                    Open::Record(r) => {
                        let [name, ty, more @ ..] = rest else { return Err(err("short member".into())) };
                        let bits = more.first().map(|b| b.parse().map_err(|_| err(format!("bits {b}")))).transpose()?;
                        r.members.push(Member { name: name.to_string(), ty: Ty::parse(ty).map_err(err)?, bits });
                    }
                    Open::Enum(e) => {
                        let [name, v] = rest else { return Err(err("bad enum value".into())) };
                        e.values.push((name.to_string(), v.parse().map_err(|_| err(format!("value {v}")))?));
                    }
                    Open::Interface(it) => {
                        let [name, ret, params @ ..] = rest else { return Err(err("short method".into())) };
                        let params = params
                            .iter()
                            .map(|p| {
                                let (n, t) = p.split_once(':').ok_or_else(|| err(format!("param {p}")))?;
                                Ok((n.to_string(), Ty::parse(t).map_err(err)?))
                            })
                            .collect::<Result<_, String>>()?;
                        it.methods.push(Method { name: name.to_string(), ret: Ty::parse(ret).map_err(err)?, params });
                    }
                    Open::None => return Err(err("member outside an item".into())),
                }
                continue;
            }
            m.close(std::mem::replace(&mut open, Open::None));
            match cols.as_slice() {
                ["typedef", name, ty] => {
                    m.typedefs.insert(name.to_string(), Ty::parse(ty).map_err(err)?);
                }
                [kind @ ("struct" | "union"), name, flags @ ..] => {
                    open = Open::Record(Record {
                        name: name.to_string(),
                        union: *kind == "union",
                        anon: flags.contains(&"anon"),
                        members: Vec::new(),
                    })
                }
                ["enum", name, prim] => {
                    open = Open::Enum(Enum { name: name.to_string(), prim: prim.to_string(), values: Vec::new() })
                }
                ["interface", name, base, iid] => {
                    open = Open::Interface(Interface {
                        name: name.to_string(),
                        base: (*base != "-").then(|| base.to_string()),
                        iid: (*iid != "-").then(|| iid.to_string()),
                        methods: Vec::new(),
                    })
                }
                _ => return Err(err(format!("unknown line {line:?}"))),
            }
        }
        m.close(open);
        // `typedef struct _GUID {..} GUID;`: C code says GUID. The first alias wins.
        for (alias, t) in &m.typedefs {
            if let Ty::Name(n) = t {
                let known = m.records.contains_key(n) || m.enums.contains_key(n);
                if known && !m.display.contains_key(n) && (n.starts_with('_') || n.starts_with("tag")) {
                    m.display.insert(n.clone(), alias.clone());
                }
            }
        }
        // Anonymous records follow their parent: `_LARGE_INTEGER_0` → `LARGE_INTEGER_0`.
        let renamed: Vec<(String, String)> = m
            .records
            .values()
            .filter(|r| r.anon)
            .filter_map(|r| {
                m.display.iter().find_map(|(tag, d)| {
                    let rest = r.name.strip_prefix(tag.as_str())?.strip_prefix('_')?;
                    Some((r.name.clone(), format!("{d}_{rest}")))
                })
            })
            .collect();
        m.display.extend(renamed);
        Ok(m)
    }

    fn close(&mut self, open: Open) {
        match open {
            Open::None => {}
            Open::Record(r) => {
                self.records.insert(r.name.clone(), r);
            }
            Open::Enum(e) => {
                self.enums.insert(e.name.clone(), e);
            }
            Open::Interface(i) => {
                self.interfaces.insert(i.name.clone(), i);
            }
        }
    }

    /// The name C code uses for a record or enum.
    pub fn display<'a>(&'a self, record: &'a str) -> &'a str {
        self.display.get(record).map(String::as_str).unwrap_or(record)
    }

    /// The interface and its bases, IUnknown first.
    pub fn chain<'a>(&'a self, iface: &'a Interface) -> Vec<&'a Interface> {
        let mut v = vec![iface];
        let mut cur = iface;
        while let Some(b) = cur.base.as_ref().and_then(|b| self.interfaces.get(b)) {
            if v.len() > 64 {
                break;
            }
            v.push(b);
            cur = b;
        }
        v.reverse();
        v
    }

    /// Every method of an interface with its vtable slot, IUnknown's 0..2 included.
    pub fn slots<'a>(&'a self, iface: &'a Interface) -> Vec<(usize, &'a Interface, &'a Method)> {
        let mut out = Vec::new();
        for i in self.chain(iface) {
            for m in &i.methods {
                out.push((out.len(), i, m));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn type_notation_reads_left_to_right() {
        let t = Ty::parse("void * const *").unwrap();
        assert_eq!(t, Ty::Ptr(Box::new(Ty::Ptr(Box::new(Ty::Name("void".into())), false)), true));
        let a = Ty::parse("FLOAT [4] [3]").unwrap();
        assert_eq!(a, Ty::Array(Box::new(Ty::Array(Box::new(Ty::Name("FLOAT".into())), 4)), 3));
        assert!(Ty::parse("UINT [x]").is_err());
    }
}
