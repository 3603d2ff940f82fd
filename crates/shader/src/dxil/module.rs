//! The LLVM 3.7 module as DXIL uses it: module records, global values, constants, the value
//! symbol table, and the function bodies (`super::body`) and metadata ([`super::metadata`])
//! hung off it.
//!
//! Value numbering follows LLVM 3.7's bitcode: one id space per function, in which the
//! module-level values come first (global variables and functions in record order, then the
//! module's constants), then the function's arguments, its own constants and its instruction
//! results. [`ValueId`]s in the IR are absolute ids in that space: the relative encoding of
//! the bitcode is resolved once, while reading.

use super::bitstream::{Block, Item, Record};
use super::inst::{BinOp, CastOp, Inst};
use super::metadata::Metadata;
use super::types::{Type, TypeId, Types};
use super::DxilError;

/// An absolute value id (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);

/// What a value is.
#[derive(Debug, Clone, PartialEq)]
pub enum ValueKind {
    /// A global variable: index into [`Module::globals`].
    Global(usize),
    /// A function: index into [`Module::functions`].
    Function(usize),
    /// A constant.
    Const(Const),
    /// Argument `n` of the function.
    Arg(u32),
    /// The result of instruction `index` of basic block `block`.
    Inst {
        /// The block.
        block: u32,
        /// The instruction within the block.
        index: u32,
    },
}

/// A value: its type, what it is, and its name from the value symbol table.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueDef {
    /// The value's type.
    pub ty: TypeId,
    /// What it is.
    pub kind: ValueKind,
    /// Its name, if the symbol table gives one.
    pub name: Option<String>,
}

/// A constant. Operands are absolute [`ValueId`]s of other constants or globals.
#[derive(Debug, Clone, PartialEq)]
pub enum Const {
    /// `null` / `zeroinitializer`.
    Null,
    /// `undef`.
    Undef,
    /// An integer of up to 64 bits, sign-extended from its type's width (an `i1` true is -1),
    /// as LLVM stores it.
    Int(i64),
    /// A floating point value: its bits, in the low 16, 32 or 64 bits for half, float, double.
    Float(u64),
    /// A struct, array or vector of other constants.
    Aggregate(Vec<ValueId>),
    /// An array or vector of integers or floats, as their bits.
    Data(Vec<u64>),
    /// An `i8` array; `CSTRING` records get their terminating NUL back.
    String(Vec<u8>),
    /// A constant cast.
    Cast {
        /// The cast.
        op: CastOp,
        /// The operand.
        value: ValueId,
    },
    /// A constant binary operation.
    Binary {
        /// The operation (integer or float, after the operand type).
        op: BinOp,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// A constant comparison.
    Cmp {
        /// The predicate (LLVM numbering, see [`super::inst::predicate_name`]).
        pred: u32,
        /// Left operand.
        lhs: ValueId,
        /// Right operand.
        rhs: ValueId,
    },
    /// A constant select.
    Select {
        /// The condition.
        cond: ValueId,
        /// Value if true.
        then: ValueId,
        /// Value if false.
        otherwise: ValueId,
    },
    /// A constant `getelementptr`.
    Gep {
        /// `inbounds`.
        inbounds: bool,
        /// The type indexed (the base pointer's pointee).
        source_ty: TypeId,
        /// The base pointer then the indices.
        ops: Vec<ValueId>,
    },
}

/// A global variable.
#[derive(Debug, Clone, PartialEq)]
pub struct Global {
    /// Its name.
    pub name: String,
    /// Its value id (a pointer to [`Global::value_ty`]).
    pub value: ValueId,
    /// The type of the variable itself.
    pub value_ty: TypeId,
    /// Address space (3 for groupshared).
    pub addr_space: u32,
    /// Declared `constant`.
    pub constant: bool,
    /// Its initializer.
    pub init: Option<ValueId>,
    /// LLVM linkage code.
    pub linkage: u64,
    /// Alignment in bytes (0 = unspecified).
    pub align: u64,
}

/// A function: a declaration (the `dx.op.*` intrinsics) or a definition with a body.
#[derive(Debug, Clone, PartialEq)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its value id (a pointer to [`Function::ty`]).
    pub value: ValueId,
    /// Its function type.
    pub ty: TypeId,
    /// Declared only (no body in the module).
    pub declaration: bool,
    /// LLVM linkage code.
    pub linkage: u64,
    /// LLVM calling convention.
    pub calling_conv: u64,
    /// Index (1-based, 0 = none) into the parameter attribute table, which the reader skips.
    pub paramattr: u64,
    /// The id of the first function-local value (= the number of module-level values).
    pub first_local: u32,
    /// Function-local values from [`Function::first_local`] on: arguments, constants,
    /// instruction results.
    pub values: Vec<ValueDef>,
    /// The basic blocks; the first is the entry.
    pub blocks: Vec<BasicBlock>,
    /// Facts about the body the interpreter computes once (see [`ExecCache`]).
    pub exec_cache: ExecCache,
}

/// What the interpreter computes once per function and keeps: the function lowered to the IR
/// and laid out for the wave interpreter. Not part of the function's identity: every cache
/// compares equal.
#[derive(Debug, Clone, Default)]
pub struct ExecCache(pub(crate) std::sync::OnceLock<Result<crate::interp::program::Program, crate::interp::ExecError>>);

impl PartialEq for ExecCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Function {
    /// The instruction that defines value `id`, if `id` is an instruction result.
    pub fn inst_of(&self, id: ValueId) -> Option<&Inst> {
        let i = id.0.checked_sub(self.first_local)?;
        match self.values.get(i as usize)?.kind {
            ValueKind::Inst { block, index } => self.blocks.get(block as usize)?.insts.get(index as usize),
            _ => None,
        }
    }
}

/// A basic block.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct BasicBlock {
    /// Its name, if the symbol table gives one.
    pub name: Option<String>,
    /// Its instructions; the last is the terminator.
    pub insts: Vec<Inst>,
}

/// A DXIL module.
#[derive(Debug, Clone, PartialEq)]
pub struct Module {
    /// The `MODULE_CODE_VERSION` (1 = relative value ids, which the reader requires).
    pub version: u64,
    /// The target triple ("dxil-ms-dx").
    pub triple: String,
    /// The data layout string.
    pub datalayout: String,
    /// The type table.
    pub types: Types,
    /// Module-level values, by id.
    pub values: Vec<ValueDef>,
    /// Global variables.
    pub globals: Vec<Global>,
    /// Functions.
    pub functions: Vec<Function>,
    /// Module metadata.
    pub metadata: Metadata,
}

// Block ids.
pub(crate) const MODULE_BLOCK: u32 = 8;
pub(crate) const PARAMATTR_BLOCK: u32 = 9;
pub(crate) const PARAMATTR_GROUP_BLOCK: u32 = 10;
pub(crate) const CONSTANTS_BLOCK: u32 = 11;
pub(crate) const FUNCTION_BLOCK: u32 = 12;
pub(crate) const IDENTIFICATION_BLOCK: u32 = 13;
pub(crate) const VALUE_SYMTAB_BLOCK: u32 = 14;
pub(crate) const METADATA_BLOCK: u32 = 15;
pub(crate) const METADATA_ATTACHMENT_BLOCK: u32 = 16;
pub(crate) const TYPE_BLOCK_NEW: u32 = 17;
pub(crate) const USELIST_BLOCK: u32 = 18;
pub(crate) const METADATA_KIND_BLOCK: u32 = 22;

/// Reads operand `i` of a record as a u64.
pub(crate) fn op(r: &Record, i: usize, what: &'static str) -> Result<u64, DxilError> {
    r.ops.get(i).copied().ok_or(DxilError::Malformed(what, "record too short"))
}

/// Decodes LLVM's sign-rotated VBR value: the sign in bit 0, the magnitude above.
pub fn decode_signed(v: u64) -> i64 {
    if v & 1 == 0 {
        (v >> 1) as i64
    } else if v == 1 {
        // "-0" is how LLVM writes i64::MIN, whose magnitude does not fit.
        i64::MIN
    } else {
        -((v >> 1) as i64)
    }
}

impl Module {
    /// Reads a module from its bitcode's top-level blocks.
    ///
    /// Guarantees: every [`TypeId`] and [`ValueId`] in the result indexes its table (a
    /// function's values for ids from its `first_local` on); every instruction's result type
    /// is known; blocks and records the reader does not need (attributes, use lists,
    /// metadata kinds, debug locations, identification) are skipped.
    pub fn parse(blocks: &[Block]) -> Result<Module, DxilError> {
        let module =
            blocks.iter().find(|b| b.id == MODULE_BLOCK).ok_or(DxilError::Malformed("bitcode", "no MODULE block"))?;
        let mut m = Module {
            version: 0,
            triple: String::new(),
            datalayout: String::new(),
            types: Types::default(),
            values: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            metadata: Metadata::default(),
        };
        let mut bodies = 0usize;
        let mut symtab = None;
        for item in &module.items {
            match item {
                Item::Record(r) => m.module_record(r)?,
                Item::Block(b) => match b.id {
                    TYPE_BLOCK_NEW => m.types = Types::parse(b)?,
                    CONSTANTS_BLOCK => {
                        let mut values = core::mem::take(&mut m.values);
                        parse_constants(b, &mut m.types, &mut values)?;
                        m.values = values;
                    }
                    METADATA_BLOCK => m.metadata.parse_block(b)?,
                    VALUE_SYMTAB_BLOCK => symtab = Some(b),
                    FUNCTION_BLOCK => {
                        // Bodies come in the order of the function records that have one.
                        let index = m
                            .functions
                            .iter()
                            .enumerate()
                            .filter(|(_, f)| !f.declaration)
                            .nth(bodies)
                            .map(|(i, _)| i)
                            .ok_or(DxilError::Malformed("module", "more function bodies than defined functions"))?;
                        bodies += 1;
                        super::body::parse_body(&mut m, index, b)?;
                    }
                    // Attributes are optimisation hints, use lists only keep an order, kinds
                    // name metadata attachments the reader ignores.
                    PARAMATTR_BLOCK
                    | PARAMATTR_GROUP_BLOCK
                    | USELIST_BLOCK
                    | METADATA_KIND_BLOCK
                    | IDENTIFICATION_BLOCK => {}
                    id => return Err(DxilError::Unsupported("module-level block", id as u64)),
                },
            }
        }
        if m.functions.iter().filter(|f| !f.declaration).count() != bodies {
            return Err(DxilError::Malformed("module", "a defined function has no body"));
        }
        if let Some(b) = symtab {
            for r in b.records() {
                // VST_ENTRY [id, name...], VST_FNENTRY [id, offset, name...] (LLVM 3.8+).
                let name_at = match r.code {
                    1 => 1,
                    3 => 2,
                    _ => continue,
                };
                let id = op(r, 0, "value symbol table")? as usize;
                let name = r.string(name_at).ok_or(DxilError::Malformed("value symbol table", "name is not text"))?;
                let v =
                    m.values.get_mut(id).ok_or(DxilError::Malformed("value symbol table", "value id out of range"))?;
                match v.kind {
                    ValueKind::Function(i) => m.functions[i].name = name.clone(),
                    ValueKind::Global(i) => m.globals[i].name = name.clone(),
                    _ => {}
                }
                v.name = Some(name);
            }
        }
        m.check_module_values()?;
        Ok(m)
    }

    fn module_record(&mut self, r: &Record) -> Result<(), DxilError> {
        const VERSION: u32 = 1;
        const TRIPLE: u32 = 2;
        const DATALAYOUT: u32 = 3;
        const GLOBALVAR: u32 = 7;
        const FUNCTION: u32 = 8;
        let text = |r: &Record| r.string(0).ok_or(DxilError::Malformed("module", "string record is not text"));
        match r.code {
            VERSION => {
                self.version = op(r, 0, "module")?;
                if self.version != 1 {
                    // Version 0 uses absolute value ids and 2 a string table: not LLVM 3.7 DXIL.
                    return Err(DxilError::Unsupported("module version", self.version));
                }
            }
            TRIPLE => self.triple = text(r)?,
            DATALAYOUT => self.datalayout = text(r)?,
            GLOBALVAR => {
                // [type, flags (bit 0 constant, bit 1 explicit type, addrspace above), initid+1,
                //  linkage, alignment (log2 + 1), section, ...]
                let flags = op(r, 1, "global variable")?;
                let ty = self.types.check(op(r, 0, "global variable")?)?;
                let (value_ty, addr_space) = if flags & 2 != 0 {
                    let space = u32::try_from(flags >> 2)
                        .map_err(|_| DxilError::Malformed("global variable", "address space over 32 bits"))?;
                    (ty, space)
                } else {
                    self.types.pointee(ty).ok_or(DxilError::Malformed("global variable", "type is not a pointer"))?
                };
                let init = op(r, 2, "global variable")?;
                let align = r.ops.get(4).copied().unwrap_or(0);
                let ptr = self.types.intern(Type::Pointer { pointee: value_ty, addr_space });
                let value = ValueId(self.values.len() as u32);
                self.globals.push(Global {
                    name: String::new(),
                    value,
                    value_ty,
                    addr_space,
                    constant: flags & 1 != 0,
                    init: match init {
                        0 => None,
                        i => Some(ValueId(
                            u32::try_from(i - 1)
                                .map_err(|_| DxilError::Malformed("global variable", "initializer id over 32 bits"))?,
                        )),
                    },
                    linkage: op(r, 3, "global variable")?,
                    align: if align == 0 || align > 64 { 0 } else { 1 << (align - 1) },
                });
                self.values.push(ValueDef { ty: ptr, kind: ValueKind::Global(self.globals.len() - 1), name: None });
            }
            FUNCTION => {
                // [type, callingconv, isproto, linkage, paramattr, alignment, section, ...]
                let mut ty = self.types.check(op(r, 0, "function")?)?;
                if let Some((pointee, _)) = self.types.pointee(ty) {
                    ty = pointee; // before explicit types, the record held the pointer type
                }
                if !matches!(self.types.at(ty), Type::Function { .. }) {
                    return Err(DxilError::Malformed("function", "type is not a function type"));
                }
                let ptr = self.types.intern(Type::Pointer { pointee: ty, addr_space: 0 });
                let value = ValueId(self.values.len() as u32);
                self.functions.push(Function {
                    name: String::new(),
                    value,
                    ty,
                    declaration: op(r, 2, "function")? != 0,
                    linkage: op(r, 3, "function")?,
                    calling_conv: op(r, 1, "function")?,
                    paramattr: r.ops.get(4).copied().unwrap_or(0),
                    first_local: 0,
                    values: Vec::new(),
                    blocks: Vec::new(),
                    exec_cache: ExecCache::default(),
                });
                self.values.push(ValueDef { ty: ptr, kind: ValueKind::Function(self.functions.len() - 1), name: None });
            }
            // SECTIONNAME, GCNAME, COMDAT, ALIAS, VSTOFFSET, SOURCE_FILENAME, ...: not needed.
            _ => {}
        }
        Ok(())
    }

    fn check_module_values(&self) -> Result<(), DxilError> {
        let n = self.values.len();
        let ok = |v: &ValueId| (v.0 as usize) < n;
        for v in &self.values {
            if let ValueKind::Const(c) = &v.kind {
                if !const_operands(c).all(|v| ok(&v)) {
                    return Err(DxilError::Malformed("constants", "operand id out of range"));
                }
            }
        }
        check_acyclic(&self.values, 0)?;
        for md in &self.metadata.items {
            if let super::metadata::Md::Value { ty, value } = md {
                if ty.0 as usize >= self.types.len() || !ok(value) {
                    return Err(DxilError::Malformed("metadata", "value or type id out of range"));
                }
            }
        }
        if !self.globals.iter().filter_map(|g| g.init.as_ref()).all(ok) {
            return Err(DxilError::Malformed("global variable", "initializer id out of range"));
        }
        Ok(())
    }

    /// The definition of value `id` as seen from inside `func` (module-level values for
    /// `func == None`).
    pub fn value<'a>(&'a self, func: Option<&'a Function>, id: ValueId) -> Option<&'a ValueDef> {
        let i = id.0 as usize;
        match func {
            Some(f) if id.0 >= f.first_local => f.values.get(i - f.first_local as usize),
            _ => self.values.get(i),
        }
    }

    /// The function called `name`.
    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    /// The constant integer value `id` holds, sign-extended from its width (LLVM stores an
    /// integer zero as `null`).
    pub fn const_int(&self, func: Option<&Function>, id: ValueId) -> Option<i64> {
        let v = self.value(func, id)?;
        match v.kind {
            ValueKind::Const(Const::Int(i)) => Some(i),
            ValueKind::Const(Const::Null) if matches!(self.types.get(v.ty), Some(Type::Int(_))) => Some(0),
            _ => None,
        }
    }
}

/// The value operands of a constant.
pub(crate) fn const_operands(c: &Const) -> Box<dyn Iterator<Item = ValueId> + '_> {
    match c {
        Const::Aggregate(v) | Const::Gep { ops: v, .. } => Box::new(v.iter().copied()),
        Const::Cast { value, .. } => Box::new(core::iter::once(*value)),
        Const::Binary { lhs, rhs, .. } | Const::Cmp { lhs, rhs, .. } => Box::new([*lhs, *rhs].into_iter()),
        Const::Select { cond, then, otherwise } => Box::new([*cond, *then, *otherwise].into_iter()),
        _ => Box::new(core::iter::empty()),
    }
}

/// Rejects cycles among the constants of `values` (ids from `first` on), whose operands the
/// caller has range-checked. Valid IR has none (constants refer to globals by address, never
/// to themselves); rejecting them lets evaluation and printing recurse without a guard.
pub(crate) fn check_acyclic(values: &[ValueDef], first: u32) -> Result<(), DxilError> {
    const DONE: u8 = 2;
    const OPEN: u8 = 1;
    let mut state = vec![0u8; values.len()];
    let local = |id: ValueId| id.0.checked_sub(first).map(|i| i as usize).filter(|&i| i < values.len());
    for root in 0..values.len() {
        if state[root] != 0 {
            continue;
        }
        // Depth-first, with an explicit stack: (value, operands left to visit).
        let mut stack: Vec<(usize, Vec<ValueId>)> = Vec::new();
        let operands = |i: usize| match &values[i].kind {
            ValueKind::Const(c) => const_operands(c).collect(),
            _ => Vec::new(),
        };
        state[root] = OPEN;
        stack.push((root, operands(root)));
        while let Some((node, rest)) = stack.last_mut() {
            let node = *node;
            match rest.pop() {
                Some(next) => {
                    let Some(i) = local(next) else { continue };
                    match state[i] {
                        OPEN => return Err(DxilError::Malformed("constants", "a constant refers to itself")),
                        DONE => {}
                        _ => {
                            state[i] = OPEN;
                            stack.push((i, operands(i)));
                        }
                    }
                }
                None => {
                    state[node] = DONE;
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}

/// Reads a `CONSTANTS_BLOCK`, appending one value per constant to `values` (whose length is
/// the id of the first). Operand ids may point forward (aggregates list their elements
/// after themselves); the caller checks them once all values are known.
pub(crate) fn parse_constants(b: &Block, types: &mut Types, values: &mut Vec<ValueDef>) -> Result<(), DxilError> {
    const SETTYPE: u32 = 1;
    const NULL: u32 = 2;
    const UNDEF: u32 = 3;
    const INTEGER: u32 = 4;
    const FLOAT: u32 = 6;
    const AGGREGATE: u32 = 7;
    const STRING: u32 = 8;
    const CSTRING: u32 = 9;
    const CE_BINOP: u32 = 10;
    const CE_CAST: u32 = 11;
    const CE_GEP: u32 = 12;
    const CE_SELECT: u32 = 13;
    const CE_CMP: u32 = 17;
    const CE_INBOUNDS_GEP: u32 = 20;
    const DATA: u32 = 22;
    let w = "constants";
    let id = |r: &Record, i: usize| -> Result<ValueId, DxilError> {
        u32::try_from(op(r, i, w)?).map(ValueId).map_err(|_| DxilError::Malformed(w, "value id over 32 bits"))
    };
    let mut ty: Option<TypeId> = None;
    for r in b.records() {
        if r.code == SETTYPE {
            ty = Some(types.check(op(r, 0, w)?)?);
            continue;
        }
        let cur = ty.ok_or(DxilError::Malformed(w, "constant before SETTYPE"))?;
        let c = match r.code {
            NULL => Const::Null,
            UNDEF => Const::Undef,
            INTEGER => Const::Int(decode_signed(op(r, 0, w)?)),
            FLOAT => Const::Float(op(r, 0, w)?),
            AGGREGATE => Const::Aggregate((0..r.ops.len()).map(|i| id(r, i)).collect::<Result<_, _>>()?),
            STRING | CSTRING => {
                let mut s: Vec<u8> = r.ops.iter().map(|&c| c as u8).collect();
                if r.code == CSTRING {
                    s.push(0);
                }
                Const::String(s)
            }
            DATA => Const::Data(r.ops.clone()),
            CE_BINOP => {
                let float = types.is_float(cur);
                Const::Binary {
                    op: BinOp::decode(op(r, 0, w)?, float).ok_or(DxilError::Malformed(w, "unknown binary opcode"))?,
                    lhs: id(r, 1)?,
                    rhs: id(r, 2)?,
                }
            }
            CE_CAST => Const::Cast {
                op: CastOp::decode(op(r, 0, w)?).ok_or(DxilError::Malformed(w, "unknown cast opcode"))?,
                value: id(r, 2)?,
            },
            CE_SELECT => Const::Select { cond: id(r, 0)?, then: id(r, 1)?, otherwise: id(r, 2)? },
            CE_CMP => Const::Cmp { lhs: id(r, 1)?, rhs: id(r, 2)?, pred: op(r, 3, w)? as u32 },
            CE_GEP | CE_INBOUNDS_GEP => {
                // [pointee type]? then (type, value) pairs; the explicit pointee type makes
                // the count odd.
                let explicit = r.ops.len() % 2 == 1;
                let start = explicit as usize;
                let ops: Vec<ValueId> =
                    (start..r.ops.len()).step_by(2).map(|i| id(r, i + 1)).collect::<Result<_, _>>()?;
                let source_ty = if explicit {
                    types.check(op(r, 0, w)?)?
                } else {
                    let base_ty = types.check(op(r, 0, w)?)?;
                    types.pointee(base_ty).ok_or(DxilError::Malformed(w, "GEP base is not a pointer"))?.0
                };
                if ops.is_empty() {
                    return Err(DxilError::Malformed(w, "GEP without a base"));
                }
                Const::Gep { inbounds: r.code == CE_INBOUNDS_GEP, source_ty, ops }
            }
            code => return Err(DxilError::Unsupported("constant code", code as u64)),
        };
        values.push(ValueDef { ty: cur, kind: ValueKind::Const(c), name: None });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_vbr_values_decode() {
        assert_eq!(decode_signed(0), 0);
        assert_eq!(decode_signed(2), 1);
        assert_eq!(decode_signed(3), -1);
        assert_eq!(decode_signed(14), 7);
        assert_eq!(decode_signed(1), i64::MIN);
        assert_eq!(decode_signed(u64::MAX), -(i64::MAX));
    }
}
