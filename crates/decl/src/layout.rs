//! Sizes, alignments and offsets of the metadata's types for one target ABI, computed from the
//! primitives up: windows-x64 and windows-x86 follow MSVC, linux-x64 System V (what gcc does
//! with Microsoft's headers and `wsl/winadapter.h`).

use crate::model::{Meta, Record, Ty};
use crate::Abi;

/// What a type is once typedefs are looked through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A primitive: `void`, `char`, `i8`..`u64`, `f32`, `f64`, `usize`, `isize`, `long`,
    /// `ulong`, `bool`, `wchar`.
    Prim(&'static str),
    Record(String),
    /// An enum with its underlying primitive.
    Enum(String, &'static str),
    Interface(String),
    /// Pointer to the (unresolved) pointee; `true` when it is const.
    Ptr(Ty, bool),
    Array(Ty, u64),
    Fn,
}

const PRIMS: &[&str] = &[
    "void", "char", "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "usize", "isize", "long",
    "ulong", "bool", "wchar",
];

/// Typedefs whose Windows definition is not winadapter's: pointer-sized integers and handles.
const WINDOWS_TYPEDEFS: &[(&str, &str)] =
    &[("ULONG_PTR", "usize"), ("UINT_PTR", "usize"), ("LONG_PTR", "isize"), ("INT_PTR", "isize"), ("SIZE_T", "usize")];

/// Size and alignment in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub size: u64,
    pub align: u64,
}

/// A member's place: byte offset, and for bitfields the bit offset inside the storage unit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placed {
    pub offset: u64,
    pub layout: Layout,
    pub bit: Option<(u32, u32)>,
}

#[derive(Clone, Debug)]
pub struct RecordLayout {
    pub layout: Layout,
    pub members: Vec<Placed>,
}

impl Abi {
    fn ptr(self) -> u64 {
        match self {
            Abi::WindowsX86 => 4,
            _ => 8,
        }
    }
    pub fn windows(self) -> bool {
        self != Abi::LinuxX64
    }
}

/// The primitive behind a name, if it is one (`wchar_t` is a primitive of its own).
pub fn prim(name: &str) -> Option<&'static str> {
    if name == "wchar_t" {
        return Some("wchar");
    }
    PRIMS.iter().find(|p| **p == name).copied()
}

pub fn resolve(meta: &Meta, abi: Abi, ty: &Ty) -> Result<Kind, String> {
    let mut t = ty.clone();
    for _ in 0..32 {
        match t {
            Ty::Fn => return Ok(Kind::Fn),
            Ty::Ptr(p, c) => return Ok(Kind::Ptr(*p, c)),
            Ty::Array(e, n) => return Ok(Kind::Array(*e, n)),
            Ty::Name(ref n) => {
                if let Some(p) = prim(n) {
                    return Ok(Kind::Prim(p));
                }
                if abi.windows() {
                    if let Some((_, p)) = WINDOWS_TYPEDEFS.iter().find(|(w, _)| w == n) {
                        return Ok(Kind::Prim(prim(p).expect("a primitive")));
                    }
                }
                if let Some(next) = meta.typedefs.get(n) {
                    t = next.clone();
                } else if meta.records.contains_key(n) {
                    return Ok(Kind::Record(n.clone()));
                } else if let Some(e) = meta.enums.get(n) {
                    return Ok(Kind::Enum(n.clone(), prim(&e.prim).ok_or_else(|| format!("enum {n}: {}", e.prim))?));
                } else if meta.interfaces.contains_key(n) {
                    return Ok(Kind::Interface(n.clone()));
                } else {
                    return Err(format!("unknown type {n}"));
                }
            }
        }
    }
    Err(format!("typedef loop at {ty:?}"))
}

pub fn prim_layout(abi: Abi, p: &str) -> Layout {
    let l = |size, align| Layout { size, align };
    match p {
        "void" => l(0, 1),
        "char" | "i8" | "u8" | "bool" => l(1, 1),
        "i16" | "u16" => l(2, 2),
        "i32" | "u32" | "f32" => l(4, 4),
        // MSVC aligns 8-byte members to 8 on x86 too (System V i386 would not).
        "i64" | "u64" | "f64" => l(8, 8),
        "usize" | "isize" => l(abi.ptr(), abi.ptr()),
        "long" | "ulong" if abi.windows() => l(4, 4),
        "long" | "ulong" => l(8, 8),
        "wchar" if abi.windows() => l(2, 2),
        "wchar" => l(4, 4),
        _ => unreachable!("not a primitive: {p}"),
    }
}

pub fn layout_of(meta: &Meta, abi: Abi, ty: &Ty) -> Result<Layout, String> {
    Ok(match resolve(meta, abi, ty)? {
        Kind::Prim(p) => prim_layout(abi, p),
        Kind::Enum(_, p) => prim_layout(abi, p),
        Kind::Record(r) => record(meta, abi, &meta.records[&r])?.layout,
        Kind::Interface(i) => return Err(format!("interface {i} used by value")),
        Kind::Ptr(..) | Kind::Fn => Layout { size: abi.ptr(), align: abi.ptr() },
        Kind::Array(e, n) => {
            let l = layout_of(meta, abi, &e)?;
            Layout { size: l.size * n, align: l.align }
        }
    })
}

fn round_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)) * a.max(1)
}

/// Lays out a struct or union: members in order, each at its alignment; bitfields share a
/// storage unit of their type while they fit (the same result under MSVC and System V for the
/// D3D12 headers, whose bitfields are all UINT and fill whole units).
pub fn record(meta: &Meta, abi: Abi, r: &Record) -> Result<RecordLayout, String> {
    let mut off = 0u64;
    let mut align = 1u64;
    let mut size = 0u64;
    let mut members = Vec::new();
    // (unit offset, unit size in bytes, bits used)
    let mut unit: Option<(u64, u64, u32)> = None;
    for m in &r.members {
        let l = layout_of(meta, abi, &m.ty).map_err(|e| format!("{}.{}: {e}", r.name, m.name))?;
        align = align.max(l.align);
        if r.union {
            members.push(Placed { offset: 0, layout: l, bit: m.bits.map(|b| (0, b)) });
            size = size.max(l.size);
            continue;
        }
        if let Some(bits) = m.bits {
            match unit {
                Some((u, us, used)) if us == l.size && used + bits <= (us * 8) as u32 => {
                    members.push(Placed { offset: u, layout: l, bit: Some((used, bits)) });
                    unit = Some((u, us, used + bits));
                }
                _ => {
                    let u = round_up(off, l.align);
                    members.push(Placed { offset: u, layout: l, bit: Some((0, bits)) });
                    unit = Some((u, l.size, bits));
                    off = u + l.size;
                }
            }
            continue;
        }
        unit = None;
        let o = round_up(off, l.align);
        members.push(Placed { offset: o, layout: l, bit: None });
        off = o + l.size;
    }
    if !r.union {
        size = off;
    }
    Ok(RecordLayout { layout: Layout { size: round_up(size, align), align }, members })
}

/// Every named member reachable from a record with its offset, anonymous members' members
/// included under their own names (as C lets one name them): `(name, offset, layout, bitfield)`.
pub fn flat_members(meta: &Meta, abi: Abi, r: &Record) -> Result<Vec<(String, Placed)>, String> {
    let rl = record(meta, abi, r)?;
    let mut out = Vec::new();
    for (m, p) in r.members.iter().zip(rl.members) {
        if m.name.is_empty() {
            if let Kind::Record(inner) = resolve(meta, abi, &m.ty)? {
                for (n, q) in flat_members(meta, abi, &meta.records[&inner])? {
                    out.push((n, Placed { offset: p.offset + q.offset, ..q }));
                }
            }
        } else {
            out.push((m.name.clone(), p));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta;

    fn size(abi: Abi, name: &str) -> (u64, u64) {
        let m = meta();
        let l = record(m, abi, &m.records[name]).unwrap().layout;
        (l.size, l.align)
    }

    #[test]
    fn architecture1_is_20_bytes_everywhere() {
        for abi in Abi::ALL {
            assert_eq!(size(abi, "D3D12_FEATURE_DATA_ARCHITECTURE1"), (20, 4));
        }
    }

    #[test]
    fn pointers_shrink_on_x86() {
        // { D3D12_RESOURCE_BARRIER_TYPE, FLAGS, union { Transition: {ptr, UINT, 2 enums} } }
        assert_eq!(size(Abi::WindowsX64, "D3D12_RESOURCE_BARRIER"), (32, 8));
        assert_eq!(size(Abi::LinuxX64, "D3D12_RESOURCE_BARRIER"), (32, 8));
        assert_eq!(size(Abi::WindowsX86, "D3D12_RESOURCE_BARRIER"), (24, 4));
    }

    #[test]
    fn msvc_x86_aligns_uint64_to_8() {
        // D3D12_RESOURCE_DESC: Dimension(4) then Alignment(UINT64) at 8.
        let m = meta();
        let flat = flat_members(m, Abi::WindowsX86, &m.records["D3D12_RESOURCE_DESC"]).unwrap();
        assert_eq!(flat[1].0, "Alignment");
        assert_eq!(flat[1].1.offset, 8);
    }

    #[test]
    fn wchar_is_2_bytes_on_windows_and_4_on_linux() {
        let m = meta();
        let w = Ty::Name("WCHAR".into());
        assert_eq!(layout_of(m, Abi::WindowsX64, &w).unwrap().size, 2);
        assert_eq!(layout_of(m, Abi::LinuxX64, &w).unwrap().size, 4);
    }

    #[test]
    fn bitfields_share_units() {
        let m = meta();
        let r = &m.records["D3D12_RAYTRACING_INSTANCE_DESC"];
        let flat = flat_members(m, Abi::WindowsX64, r).unwrap();
        let bit = |n: &str| flat.iter().find(|(x, _)| x == n).map(|(_, p)| (p.offset, p.bit)).unwrap();
        assert_eq!(bit("InstanceID"), (48, Some((0, 24))));
        assert_eq!(bit("InstanceMask"), (48, Some((24, 8))));
        assert_eq!(bit("Flags"), (52, Some((24, 8))));
        assert_eq!(size(Abi::WindowsX64, "D3D12_RAYTRACING_INSTANCE_DESC"), (64, 8));
    }
}
