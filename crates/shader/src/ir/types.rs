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
}
