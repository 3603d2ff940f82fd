//! LLVM types as DXIL uses them: the `TYPE_BLOCK_ID_NEW` block.

use super::bitstream::Block;
use super::DxilError;

/// An index into [`Types`]; the bitcode's own type numbering, extended by any types the
/// reader had to create for instruction results (such as `{ i32, i1 }` for `cmpxchg`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// An LLVM type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Type {
    /// `void`.
    Void,
    /// `half`.
    Half,
    /// `float`.
    Float,
    /// `double`.
    Double,
    /// `label` (basic blocks).
    Label,
    /// `metadata`.
    Metadata,
    /// `iN`.
    Int(u32),
    /// `T addrspace(n)*`.
    Pointer {
        /// The type pointed to.
        pointee: TypeId,
        /// The address space (DXIL: 0 local, 1 device memory, 2 cbuffer, 3 groupshared).
        addr_space: u32,
    },
    /// `ret (params...)`.
    Function {
        /// Takes variable arguments.
        vararg: bool,
        /// Return type.
        ret: TypeId,
        /// Parameter types.
        params: Vec<TypeId>,
    },
    /// A literal (`name == None`) or identified struct.
    Struct {
        /// The identified struct's name.
        name: Option<String>,
        /// Packed layout.
        packed: bool,
        /// Element types (empty for an opaque struct).
        elems: Vec<TypeId>,
        /// Declared without a body.
        opaque: bool,
    },
    /// `[len x elem]`.
    Array {
        /// Element count.
        len: u64,
        /// Element type.
        elem: TypeId,
    },
    /// `<len x elem>`.
    Vector {
        /// Element count.
        len: u32,
        /// Element type.
        elem: TypeId,
    },
}

/// The module's type table.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Types {
    list: Vec<Type>,
}

// TYPE_CODE_* of LLVM 3.7.
const NUMENTRY: u32 = 1;
const VOID: u32 = 2;
const FLOAT: u32 = 3;
const DOUBLE: u32 = 4;
const LABEL: u32 = 5;
const OPAQUE: u32 = 6;
const INTEGER: u32 = 7;
const POINTER: u32 = 8;
const HALF: u32 = 10;
const ARRAY: u32 = 11;
const VECTOR: u32 = 12;
const METADATA: u32 = 16;
const STRUCT_ANON: u32 = 18;
const STRUCT_NAME: u32 = 19;
const STRUCT_NAMED: u32 = 20;
const FUNCTION: u32 = 21;

impl Types {
    /// Reads a `TYPE_BLOCK_ID_NEW` block.
    ///
    /// Guarantees: every [`TypeId`] inside a returned type indexes the table (forward
    /// references, which identified structs allow, are checked once the block is read).
    pub fn parse(block: &Block) -> Result<Types, DxilError> {
        let bad = |w: &'static str| DxilError::Malformed("type table", w);
        let mut list = Vec::new();
        let mut pending_name: Option<String> = None;
        for r in block.records() {
            let op = |i: usize| r.ops.get(i).copied().ok_or(bad("record too short"));
            let id = |i: usize| -> Result<TypeId, DxilError> {
                u32::try_from(op(i)?).map(TypeId).map_err(|_| bad("type id over 32 bits"))
            };
            let ty = match r.code {
                NUMENTRY => continue,
                STRUCT_NAME => {
                    pending_name = Some(r.string(0).ok_or(bad("struct name is not text"))?);
                    continue;
                }
                VOID => Type::Void,
                HALF => Type::Half,
                FLOAT => Type::Float,
                DOUBLE => Type::Double,
                LABEL => Type::Label,
                METADATA => Type::Metadata,
                INTEGER => {
                    // LLVM allows widths up to 2^23; DXIL's primitive types are i1, i8, i16,
                    // i32 and i64 (DXIL.rst, "Primitive Types"), which the interpreter relies on.
                    let w = op(0)?;
                    if ![1, 8, 16, 32, 64].contains(&w) {
                        return Err(bad("integer width other than DXIL's 1, 8, 16, 32 and 64"));
                    }
                    Type::Int(w as u32)
                }
                POINTER => Type::Pointer {
                    pointee: id(0)?,
                    addr_space: u32::try_from(r.ops.get(1).copied().unwrap_or(0))
                        .map_err(|_| bad("address space over 32 bits"))?,
                },
                FUNCTION => Type::Function {
                    vararg: op(0)? != 0,
                    ret: id(1)?,
                    params: (2..r.ops.len()).map(id).collect::<Result<_, _>>()?,
                },
                ARRAY => Type::Array { len: op(0)?, elem: id(1)? },
                VECTOR => Type::Vector {
                    len: u32::try_from(op(0)?).map_err(|_| bad("vector length over 32 bits"))?,
                    elem: id(1)?,
                },
                STRUCT_ANON | STRUCT_NAMED => Type::Struct {
                    name: if r.code == STRUCT_NAMED { pending_name.take() } else { None },
                    packed: op(0)? != 0,
                    elems: (1..r.ops.len()).map(id).collect::<Result<_, _>>()?,
                    opaque: false,
                },
                OPAQUE => Type::Struct { name: pending_name.take(), packed: false, elems: vec![], opaque: true },
                _ => return Err(DxilError::Unsupported("type code", r.code as u64)),
            };
            list.push(ty);
        }
        let types = Types { list };
        for (i, t) in types.list.iter().enumerate() {
            for c in types.children(t) {
                let Some(child) = types.list.get(c.0 as usize) else { return Err(bad("type id out of range")) };
                // As in LLVM, only identified structs may be referred to before they are
                // defined; so every cycle passes through a named struct, which prints and
                // compares by name, and no walk over the types can recurse forever.
                if c.0 as usize >= i && !matches!(child, Type::Struct { name: Some(_), .. }) {
                    return Err(bad("forward reference to a type that is not an identified struct"));
                }
            }
        }
        // LLVM refuses a struct that holds itself by value (its size would be infinite);
        // walks over a type's storage (sizes, flattening, lowering) stop only at pointers.
        if types.holds_itself() {
            return Err(bad("a struct that contains itself (not through a pointer)"));
        }
        Ok(types)
    }

    /// Whether some type holds itself by value: a cycle of struct elements and array or
    /// vector elements (depth-first, without recursion: a long chain is no stack overflow).
    fn holds_itself(&self) -> bool {
        fn by_value(t: &Type) -> &[TypeId] {
            match t {
                Type::Struct { elems, .. } => elems,
                Type::Array { elem, .. } | Type::Vector { elem, .. } => std::slice::from_ref(elem),
                _ => &[],
            }
        }
        // 0: not seen, 1: on the walk's path, 2: done (no cycle through it).
        let mut state = vec![0u8; self.list.len()];
        for root in 0..self.list.len() {
            if state[root] != 0 {
                continue;
            }
            state[root] = 1;
            let mut path = vec![(root, 0usize)];
            while let Some((t, next)) = path.last_mut() {
                let Some(c) = by_value(&self.list[*t]).get(*next).map(|c| c.0 as usize) else {
                    state[*t] = 2;
                    path.pop();
                    continue;
                };
                *next += 1;
                match state.get(c) {
                    Some(1) => return true,
                    Some(0) => {
                        state[c] = 1;
                        path.push((c, 0));
                    }
                    _ => {}
                }
            }
        }
        false
    }

    /// The types a type is built from.
    fn children<'a>(&self, t: &'a Type) -> Box<dyn Iterator<Item = TypeId> + 'a> {
        match t {
            Type::Pointer { pointee, .. } => Box::new(core::iter::once(*pointee)),
            Type::Function { ret, params, .. } => Box::new(core::iter::once(*ret).chain(params.iter().copied())),
            Type::Struct { elems, .. } => Box::new(elems.iter().copied()),
            Type::Array { elem, .. } | Type::Vector { elem, .. } => Box::new(core::iter::once(*elem)),
            _ => Box::new(core::iter::empty()),
        }
    }

    /// The type of an id, or `None` if out of range.
    pub fn get(&self, id: TypeId) -> Option<&Type> {
        self.list.get(id.0 as usize)
    }

    /// The type of an id that the reader checked.
    pub(crate) fn at(&self, id: TypeId) -> &Type {
        &self.list[id.0 as usize]
    }

    /// `id` if it is in range, else an error.
    pub fn check(&self, id: u64) -> Result<TypeId, DxilError> {
        match u32::try_from(id) {
            Ok(i) if (i as usize) < self.list.len() => Ok(TypeId(i)),
            _ => Err(DxilError::Malformed("module", "type id out of range")),
        }
    }

    /// Number of types.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether there are no types.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The id of `ty`, if the table holds it.
    pub fn find(&self, ty: &Type) -> Option<TypeId> {
        self.list.iter().position(|t| t == ty).map(|i| TypeId(i as u32))
    }

    /// The id of `ty`, appending it if the table does not hold it yet (only ever for
    /// literal types; identified structs are never created).
    pub fn intern(&mut self, ty: Type) -> TypeId {
        self.find(&ty).unwrap_or_else(|| {
            self.list.push(ty);
            TypeId(self.list.len() as u32 - 1)
        })
    }

    /// The pointee of a pointer type.
    pub fn pointee(&self, id: TypeId) -> Option<(TypeId, u32)> {
        match self.get(id)? {
            Type::Pointer { pointee, addr_space } => Some((*pointee, *addr_space)),
            _ => None,
        }
    }

    /// The type of element `index` of a struct, array or vector type.
    pub fn element(&self, id: TypeId, index: u64) -> Option<TypeId> {
        match self.get(id)? {
            Type::Struct { elems, .. } => elems.get(usize::try_from(index).ok()?).copied(),
            Type::Array { len, elem } if index < *len => Some(*elem),
            Type::Vector { len, elem } if index < *len as u64 => Some(*elem),
            _ => None,
        }
    }

    /// Whether a type is floating point (or a vector of it).
    pub fn is_float(&self, id: TypeId) -> bool {
        match self.get(id) {
            Some(Type::Half | Type::Float | Type::Double) => true,
            Some(Type::Vector { elem, .. }) => self.is_float(*elem),
            _ => false,
        }
    }

    /// Bit width of an integer or floating point type (`None` for other types).
    pub fn scalar_bits(&self, id: TypeId) -> Option<u32> {
        match self.get(id)? {
            Type::Int(w) => Some(*w),
            Type::Half => Some(16),
            Type::Float => Some(32),
            Type::Double => Some(64),
            _ => None,
        }
    }

    /// Writes a type as LLVM's textual IR does (`%dx.types.Handle`, `[4 x float]`, `i8*`).
    pub fn write(&self, f: &mut dyn core::fmt::Write, id: TypeId) -> core::fmt::Result {
        let Some(t) = self.get(id) else { return write!(f, "<type {}>", id.0) };
        match t {
            Type::Void => f.write_str("void"),
            Type::Half => f.write_str("half"),
            Type::Float => f.write_str("float"),
            Type::Double => f.write_str("double"),
            Type::Label => f.write_str("label"),
            Type::Metadata => f.write_str("metadata"),
            Type::Int(w) => write!(f, "i{w}"),
            Type::Pointer { pointee, addr_space } => {
                self.write(f, *pointee)?;
                if *addr_space != 0 {
                    write!(f, " addrspace({addr_space})")?;
                }
                f.write_str("*")
            }
            Type::Function { vararg, ret, params } => {
                self.write(f, *ret)?;
                f.write_str(" (")?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.write(f, *p)?;
                }
                if *vararg {
                    f.write_str(if params.is_empty() { "..." } else { ", ..." })?;
                }
                f.write_str(")")
            }
            Type::Struct { name: Some(n), .. } => write_name(f, '%', n),
            Type::Struct { name: None, packed, elems, .. } => {
                f.write_str(if *packed { "<{ " } else { "{ " })?;
                for (i, e) in elems.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    self.write(f, *e)?;
                }
                f.write_str(if *packed { " }>" } else { " }" })
            }
            Type::Array { len, elem } => {
                write!(f, "[{len} x ")?;
                self.write(f, *elem)?;
                f.write_str("]")
            }
            Type::Vector { len, elem } => {
                write!(f, "<{len} x ")?;
                self.write(f, *elem)?;
                f.write_str(">")
            }
        }
    }

    /// A type as text.
    pub fn name(&self, id: TypeId) -> String {
        let mut s = String::new();
        let _ = self.write(&mut s, id);
        s
    }
}

/// Writes `%name` / `@name`, quoted as LLVM does when the name has characters outside
/// `[-a-zA-Z$._0-9]`.
pub(crate) fn write_name(f: &mut dyn core::fmt::Write, sigil: char, name: &str) -> core::fmt::Result {
    let plain = !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"-$._".contains(&b));
    if plain {
        write!(f, "{sigil}{name}")
    } else {
        write!(f, "{sigil}\"{}\"", name.escape_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dxil::bitstream::{Item, Record};

    fn block(records: &[(u32, &[u64])]) -> Block {
        Block {
            id: 17,
            items: records
                .iter()
                .map(|(c, o)| Item::Record(Record { code: *c, ops: o.to_vec(), blob: None }))
                .collect(),
        }
    }

    #[test]
    fn types_decode_and_print_like_llvm() {
        let name: Vec<u64> = b"dx.types.Handle".iter().map(|&b| b as u64).collect();
        let t = Types::parse(&block(&[
            (NUMENTRY, &[9]),
            (INTEGER, &[8]),
            (POINTER, &[0, 0]),
            (STRUCT_NAME, &name),
            (STRUCT_NAMED, &[0, 1]),
            (FLOAT, &[]),
            (VECTOR, &[4, 3]),
            (ARRAY, &[16, 3]),
            (FUNCTION, &[0, 2, 0, 3]),
            (POINTER, &[4, 3]),
            (STRUCT_ANON, &[0, 0, 3]),
        ]))
        .unwrap();
        let names: Vec<String> = (0..t.len() as u32).map(|i| t.name(TypeId(i))).collect();
        assert_eq!(
            names,
            [
                "i8",
                "i8*",
                "%dx.types.Handle",
                "float",
                "<4 x float>",
                "[16 x float]",
                "%dx.types.Handle (i8, float)",
                "<4 x float> addrspace(3)*",
                "{ i8, float }"
            ]
        );
        assert_eq!(t.element(TypeId(2), 0), Some(TypeId(1)));
        assert_eq!(t.element(TypeId(5), 16), None);
        assert!(t.is_float(TypeId(4)));
    }

    #[test]
    fn recursion_only_through_identified_structs() {
        let name: Vec<u64> = b"node".iter().map(|&b| b as u64).collect();
        // %node = type { %node* }: the pointer refers forward to the struct.
        let t = Types::parse(&block(&[(POINTER, &[1, 0]), (STRUCT_NAME, &name), (STRUCT_NAMED, &[0, 0])])).unwrap();
        assert_eq!(t.name(TypeId(0)), "%node*");
        // [4 x itself] and a pointer to a later array have no name to stop at.
        assert!(Types::parse(&block(&[(ARRAY, &[4, 0])])).is_err());
        assert!(Types::parse(&block(&[(POINTER, &[1, 0]), (ARRAY, &[4, 0])])).is_err());
        assert!(Types::parse(&block(&[(STRUCT_ANON, &[0, 0])])).is_err());
    }

    #[test]
    fn a_struct_never_holds_itself_by_value() {
        // A fuzzed module's `%node = type { %node }` sent the lowering's walk over the
        // struct's scalars into endless recursion (a stack overflow, no error value).
        let name: Vec<u64> = b"node".iter().map(|&b| b as u64).collect();
        let refused = Err(DxilError::Malformed("type table", "a struct that contains itself (not through a pointer)"));
        assert_eq!(Types::parse(&block(&[(STRUCT_NAME, &name), (STRUCT_NAMED, &[0, 0])])).map(|_| ()), refused);
        // Through an array, a vector and a second struct: [2 x %node] in %node, and
        // %a = { i8, %b }, %b = { <2 x %a> } (vectors of structs are malformed anyway).
        assert_eq!(
            Types::parse(&block(&[(ARRAY, &[2, 1]), (STRUCT_NAME, &name), (STRUCT_NAMED, &[0, 0])])).map(|_| ()),
            refused
        );
        let cycle = [
            (INTEGER, &[8][..]),
            (STRUCT_NAME, &name),
            (STRUCT_NAMED, &[0, 0, 3]),
            (VECTOR, &[2, 1]),
            (STRUCT_NAME, &name),
            (STRUCT_NAMED, &[0, 2]),
        ];
        assert_eq!(Types::parse(&block(&cycle)).map(|_| ()), refused);
        // Through a pointer is fine, and so is the same struct twice side by side.
        let ok = Types::parse(&block(&[
            (POINTER, &[1, 0]),
            (STRUCT_NAME, &name),
            (STRUCT_NAMED, &[0, 0, 0]),
            (STRUCT_ANON, &[0, 1, 1]),
        ]))
        .unwrap();
        assert_eq!(ok.name(TypeId(2)), "{ %node, %node }");
    }

    #[test]
    fn forward_reference_past_the_table_is_an_error() {
        assert!(Types::parse(&block(&[(POINTER, &[5, 0])])).is_err());
        assert!(Types::parse(&block(&[(INTEGER, &[0])])).is_err());
        assert!(Types::parse(&block(&[(99, &[])])).is_err());
    }

    #[test]
    fn only_dxil_integer_widths() {
        for w in [1, 8, 16, 32, 64] {
            assert!(Types::parse(&block(&[(INTEGER, &[w])])).is_ok(), "i{w}");
        }
        // i544 came from a fuzzed container; the interpreter's shifts and masks assume <= 64.
        for w in [2, 7, 24, 65, 128, 544, 1 << 23] {
            assert!(Types::parse(&block(&[(INTEGER, &[w])])).is_err(), "i{w}");
        }
    }

    #[test]
    fn quoted_names() {
        let mut s = String::new();
        write_name(&mut s, '%', "class.Texture2D<vector<float, 4> >").unwrap();
        assert_eq!(s, "%\"class.Texture2D<vector<float, 4> >\"");
    }
}
