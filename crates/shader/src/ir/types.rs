//! The types of IR values. Integers are signless, as in LLVM and DXIL: an operation says
//! whether it treats its operands as signed.

/// A scalar type. In the interpreter a lane holds a scalar as raw bits in a `u64`: integers
/// zero-extended from their width, floats as their IEEE bits (`f16` in the low 16 bits),
/// `Bool` as 0 or 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scalar {
    /// i1.
    Bool,
    /// i8.
    I8,
    /// i16 (min16int/min16uint when native 16-bit types are on).
    I16,
    /// i32.
    I32,
    /// i64.
    I64,
    /// half.
    F16,
    /// float.
    F32,
    /// double.
    F64,
}

impl Scalar {
    /// The width in bits (1 for `Bool`).
    pub fn bits(self) -> u32 {
        match self {
            Scalar::Bool => 1,
            Scalar::I8 => 8,
            Scalar::I16 | Scalar::F16 => 16,
            Scalar::I32 | Scalar::F32 => 32,
            Scalar::I64 | Scalar::F64 => 64,
        }
    }

    /// Whether this is a floating-point type.
    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }
}

impl Scalar {
    /// Whether this is an integer type (`Bool` included).
    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    /// The LLVM spelling (`i32`, `float`, ...), as the printer writes it.
    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "i1",
            Scalar::I8 => "i8",
            Scalar::I16 => "i16",
            Scalar::I32 => "i32",
            Scalar::I64 => "i64",
            Scalar::F16 => "half",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }

    /// `bits` cut to this type's width (integers zero-extended, an `f16` in the low 16 bits).
    #[inline(always)]
    pub fn mask(self, bits: u64) -> u64 {
        match self.bits() {
            64 => bits,
            w => bits & ((1u64 << w) - 1),
        }
    }
}

/// The address space a pointer points into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    /// The invocation's own memory (`alloca`, `static` globals): DXIL address space 0.
    Private,
    /// Groupshared memory, common to a compute thread group: DXIL address space 3.
    Group,
}

/// The type of an IR value. A lane holds every value as raw bits in `u64` slots: a scalar,
/// pointer or handle in one slot, an aggregate in one slot per scalar of its flattened
/// elements (struct fields, array and vector elements in order).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    /// No value (`void` results).
    Void,
    /// A scalar.
    Scalar(Scalar),
    /// A struct, array or vector flattened to its scalars.
    Agg(Box<[Scalar]>),
    /// A pointer: an allocation of its address space and a scalar index into it.
    Ptr(AddrSpace),
    /// A resource handle: the number the environment gave it.
    Handle,
}

impl Type {
    /// The number of `u64` slots a value of this type takes in a lane.
    pub fn slots(&self) -> u32 {
        match self {
            Type::Void => 0,
            Type::Agg(e) => e.len() as u32,
            _ => 1,
        }
    }

    /// The scalar type of slot `k` (pointers and handles read as `I64` / `I32`).
    pub fn slot(&self, k: u32) -> Scalar {
        match self {
            Type::Scalar(s) => *s,
            Type::Agg(e) => e.get(k as usize).copied().unwrap_or(Scalar::I32),
            Type::Ptr(_) => Scalar::I64,
            Type::Handle | Type::Void => Scalar::I32,
        }
    }

    /// The scalar, if this is one.
    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }
}

impl core::fmt::Display for Type {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Type::Void => f.write_str("void"),
            Type::Scalar(s) => f.write_str(s.name()),
            Type::Agg(e) => {
                f.write_str("{")?;
                for (i, s) in e.iter().enumerate() {
                    write!(f, "{}{}", if i == 0 { "" } else { ", " }, s.name())?;
                }
                f.write_str("}")
            }
            Type::Ptr(AddrSpace::Private) => f.write_str("ptr"),
            Type::Ptr(AddrSpace::Group) => f.write_str("ptr addrspace(3)"),
            Type::Handle => f.write_str("handle"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn widths_follow_the_llvm_types() {
        assert_eq!(
            [Scalar::Bool, Scalar::I8, Scalar::F16, Scalar::F32, Scalar::I64].map(Scalar::bits),
            [1, 8, 16, 32, 64]
        );
        assert!(Scalar::F64.is_float() && !Scalar::I32.is_float());
    }

    #[test]
    fn aggregates_take_one_slot_per_scalar() {
        let t = Type::Agg([Scalar::F32, Scalar::F32, Scalar::I32].into());
        assert_eq!((t.slots(), t.slot(2), t.to_string()), (3, Scalar::I32, "{float, float, i32}".to_string()));
        assert_eq!(Type::Void.slots(), 0);
        assert_eq!(Scalar::I8.mask(0x1ff), 0xff);
        assert_eq!(Scalar::Bool.mask(3), 1);
    }
}
