//! A decoded DXBC program ([`super::tokens::Program`]) lowered to the IR
//! ([`crate::ir::Function`]) and the interface the pipeline reads
//! ([`crate::dxil::DxMetadata`]): the same IR the DXIL front end produces, so the interpreter
//! and the JIT run it with no path of their own.
//!
//! * Registers: DXBC's registers are untyped 32-bit components. The temps `r#` live in one
//!   private allocation of 4 cells per register, each indexable temp `x#` in its own; every
//!   read is a load and every write a store of `i32` bits, and each operation bitcasts to the
//!   type it computes in. The immediate constant buffer is a private global with its data.
//! * Instructions: all source components are read before any destination component is
//!   written; float source modifiers flip or clear the sign bit, integer `neg` negates; `_sat`
//!   clamps float results to [0, 1] (NaN to 0). Comparisons give 0xFFFFFFFF / 0.
//! * Control flow: structured `if`/`else`/`loop`/`switch` become blocks and branches; `break`,
//!   `continue`, `ret` and their conditional forms branch out; code after them lands in a block
//!   no edge reaches.
//! * Resources ([`res`]): declarations become `dx.resources`-like ranges (shader model 5.1:
//!   range id, bounds and space as declared; before it one range per register), uses become
//!   `CreateHandle` and the same `dx.op`-like operations DXIL's lowering produces.
//!
//! * Stages: pixel, vertex, compute, geometry (`v[vertex][#]`, emit/cut with streams), hull
//!   and domain ([`tess`]: a hull shader's phases become DXIL's control-point and patch
//!   constant functions).
//!
//! * Doubles ([`double`]): pairs of components as `f64`s of the IR.
//!
//! * Subroutines ([`call`]): `call` / `callc` inline the label's body at the call site.
//!
//! What the lowering does not implement (interfaces and `fcall`) is an `Unsupported` error
//! naming it, which refuses the pipeline.

mod call;
mod double;
mod res;
mod tess;

use super::tokens::{ty, Index, Inst, Operand, Program};
use crate::ir::op::{BinOp, CastOp, CmpPred, Dx, FUnary, IUnary, MinMax, SysValue, TwoOut};
use crate::ir::{self, AddrSpace, Block, BlockId, Def, Function, Op, Scalar, Terminator, Type, Value};
use rd3d12_core::shader::{ComponentType, SignatureElement};

/// Why a program does not lower.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LowerError {
    /// Valid DXBC the lowering does not implement.
    Unsupported(String),
    /// A program that breaks the format's rules (a register past its declaration, unbalanced
    /// control flow, a missing declaration).
    Malformed(String),
}

impl core::fmt::Display for LowerError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            LowerError::Unsupported(s) => write!(f, "unsupported DXBC: {s}"),
            LowerError::Malformed(s) => write!(f, "malformed DXBC: {s}"),
        }
    }
}

type R<T> = Result<T, LowerError>;

/// Why shader model 5.0 interfaces (`dcl_function_body`, `dcl_function_table`,
/// `dcl_interface`, `fcall`) are refused: their class instances are bound through D3D11's
/// class linkage, and D3D12 has none (a pipeline takes the bytecode alone), so no instance
/// could ever be bound to their call sites.
const INTERFACES: &str = "interfaces and class instances (D3D12 has no class linkage to bind them)";

fn bad<T>(s: impl Into<String>) -> R<T> {
    Err(LowerError::Malformed(s.into()))
}

fn unsupported<T>(s: impl Into<String>) -> R<T> {
    Err(LowerError::Unsupported(s.into()))
}

/// How an instruction reads its sources: source modifiers differ.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Float,
    Int,
}

/// A structured control flow construct being lowered.
enum Frame {
    If { otherwise: BlockId, merge: BlockId, has_else: bool },
    Loop { header: BlockId, exit: BlockId },
    Switch { head: BlockId, cond: Value, cases: Vec<(u64, BlockId)>, default: Option<BlockId>, exit: BlockId },
}

/// What the lowering found in the declarations, for the interface.
#[derive(Debug)]
pub struct Facts {
    /// `dcl_thread_group`.
    pub num_threads: Option<[u32; 3]>,
    /// The resource ranges.
    pub resources: Vec<crate::dxil::metadata::Resource>,
    /// `dcl_input_ps` interpolation modes by input register.
    pub interpolation: Vec<(u32, u32)>,
    /// `dcl_globalFlags` forceEarlyDepthStencil.
    pub early_depth: bool,
    /// A geometry shader's declarations (`dcl_inputprimitive`, `dcl_outputtopology`,
    /// `dcl_maxout`, `dcl_gsinstances`).
    pub gs: crate::dxil::GsState,
    /// The streams a geometry shader emits to or cuts, one bit each.
    pub streams: u32,
    /// A hull or domain shader's declarations (the patch constant function is function 1).
    pub hs: crate::dxil::HsState,
}

/// The lowering's state.
pub(crate) struct L<'a> {
    prog: &'a Program,
    inputs: &'a [SignatureElement],
    outputs: &'a [SignatureElement],
    /// The patch constant signature (hull and domain shaders).
    patch: &'a [SignatureElement],
    /// Lowering a hull shader's fork or join phase: outputs are patch constants.
    patch_phase: bool,
    /// Where `ret` goes inside a hull shader phase (the phase's next instance).
    ret_to: Option<BlockId>,
    /// The fork / join phase's instance counter (a private cell).
    instance: Option<Value>,
    /// Lowering a join phase: `vpc` reads the patch constants written before.
    join_phase: bool,
    /// A hull shader with a join phase: the patch constants written so far, four cells a
    /// register (what `vpc` reads in a join phase).
    patch_shadow: Option<Value>,
    f: Function,
    cur: BlockId,
    prologue: Vec<ir::Inst>,
    temps: Option<(Value, u32)>,
    xs: Vec<(u32, Value, u32)>,
    icb: Option<(Value, u32)>,
    flow: Vec<Frame>,
    /// The labels of the subroutine calls being inlined, outermost first.
    calls: Vec<u32>,
    /// Instructions inlined so far.
    inlined: usize,
    facts: Facts,
    res: res::Ranges,
}

impl<'a> L<'a> {
    fn new(
        prog: &'a Program,
        inputs: &'a [SignatureElement],
        outputs: &'a [SignatureElement],
        patch: &'a [SignatureElement],
    ) -> Self {
        let entry = Block { phis: vec![], insts: vec![], term: Terminator::Unreachable };
        L {
            prog,
            inputs,
            outputs,
            patch,
            patch_phase: false,
            ret_to: None,
            instance: None,
            join_phase: false,
            patch_shadow: None,
            f: Function {
                name: "main".into(),
                values: vec![],
                blocks: vec![entry],
                globals: vec![],
                cfg: Default::default(),
            },
            cur: BlockId(0),
            prologue: vec![],
            temps: None,
            xs: vec![],
            icb: None,
            flow: vec![],
            calls: vec![],
            inlined: 0,
            facts: Facts {
                num_threads: None,
                resources: vec![],
                interpolation: vec![],
                early_depth: false,
                gs: crate::dxil::GsState {
                    input_primitive: 0,
                    max_vertex_count: 0,
                    active_stream_mask: 0,
                    output_topology: 0,
                    instance_count: 1,
                },
                streams: 0,
                hs: crate::dxil::HsState {
                    patch_constant_function: 1,
                    input_control_points: 0,
                    output_control_points: 0,
                    domain: 0,
                    partitioning: 0,
                    output_primitive: 0,
                    max_tess_factor: 64.0,
                },
            },
            res: res::Ranges::default(),
        }
    }

    fn sm51(&self) -> bool {
        (self.prog.major, self.prog.minor) >= (5, 1)
    }

    // ---- IR building ----

    fn block(&mut self) -> BlockId {
        self.f.blocks.push(Block { phis: vec![], insts: vec![], term: Terminator::Unreachable });
        BlockId(self.f.blocks.len() as u32 - 1)
    }

    /// Ends the current block with `t` and continues in `next`.
    fn end(&mut self, t: Terminator, next: BlockId) {
        self.f.blocks[self.cur.0 as usize].term = t;
        self.cur = next;
    }

    fn emit(&mut self, op: Op, args: Vec<Value>, ty: Type) -> Value {
        let dst = self.f.add_value(ty, Def::Inst);
        self.f.blocks[self.cur.0 as usize].insts.push(ir::Inst { op, args: args.into(), dst: Some(dst) });
        dst
    }

    fn emit_void(&mut self, op: Op, args: Vec<Value>) {
        self.f.blocks[self.cur.0 as usize].insts.push(ir::Inst { op, args: args.into(), dst: None });
    }

    fn prologue(&mut self, op: Op, ty: Type) -> Value {
        let dst = self.f.add_value(ty, Def::Inst);
        self.prologue.push(ir::Inst { op, args: Box::new([]), dst: Some(dst) });
        dst
    }

    fn c(&mut self, s: Scalar, bits: u64) -> Value {
        self.f.add_value(Type::Scalar(s), Def::Const([s.mask(bits)].into()))
    }

    fn ci(&mut self, v: u32) -> Value {
        self.c(Scalar::I32, u64::from(v))
    }

    fn bin(&mut self, op: BinOp, s: Scalar, a: Value, b: Value) -> Value {
        self.emit(Op::Binary(op, s), vec![a, b], Type::Scalar(s))
    }

    fn cast(&mut self, op: CastOp, from: Scalar, to: Scalar, v: Value) -> Value {
        self.emit(Op::Cast(op, from, to), vec![v], Type::Scalar(to))
    }

    /// `i32` bits as an `f32`.
    fn as_f32(&mut self, v: Value) -> Value {
        if self.f.ty(v) == &Type::Scalar(Scalar::F32) {
            return v;
        }
        self.cast(CastOp::BitCast, Scalar::I32, Scalar::F32, v)
    }

    /// An `f32` as its `i32` bits.
    fn as_bits(&mut self, v: Value) -> Value {
        if self.f.ty(v) == &Type::Scalar(Scalar::I32) {
            return v;
        }
        self.cast(CastOp::BitCast, Scalar::F32, Scalar::I32, v)
    }

    /// An `f32` with a denormal flushed to zero of its sign (D3D11.3 "32-bit floating point
    /// rules": denorms are flushed on input and output of float math; moves keep them).
    fn ftz(&mut self, v: Value) -> Value {
        let b = self.as_bits(v);
        let (e, sign) = (self.ci(0x7F80_0000), self.ci(0x8000_0000));
        let exp = self.bin(BinOp::And, Scalar::I32, b, e);
        let z = self.ci(0);
        let denorm = self.cmp(CmpPred::IEq, Scalar::I32, exp, z);
        let signed = self.bin(BinOp::And, Scalar::I32, b, sign);
        let r = self.emit(Op::Select, vec![denorm, signed, b], Type::Scalar(Scalar::I32));
        self.as_f32(r)
    }

    fn cmp(&mut self, p: CmpPred, s: Scalar, a: Value, b: Value) -> Value {
        self.emit(Op::Cmp(p, s), vec![a, b], Type::Scalar(Scalar::Bool))
    }

    /// 0xFFFFFFFF where `b` holds, else 0.
    fn mask_of(&mut self, b: Value) -> Value {
        let (t, f) = (self.ci(u32::MAX), self.ci(0));
        self.emit(Op::Select, vec![b, t, f], Type::Scalar(Scalar::I32))
    }

    /// The `i1` a conditional instruction tests: its operand's first component against zero.
    fn test(&mut self, inst: &Inst) -> R<Value> {
        let o = inst.operands.first().ok_or_else(|| LowerError::Malformed("a condition".into()))?;
        let v = self.read(o, 1, Kind::Int)?[0];
        let z = self.ci(0);
        Ok(self.cmp(if inst.nonzero() { CmpPred::INe } else { CmpPred::IEq }, Scalar::I32, v, z))
    }

    fn dx(&mut self, d: Dx, args: Vec<Value>, ty: Type) -> Value {
        self.emit(Op::Dx(d), args, ty)
    }

    fn extract(&mut self, v: Value, k: u32, s: Scalar) -> Value {
        self.emit(Op::Extract(k), vec![v], Type::Scalar(s))
    }

    // ---- registers ----

    /// The value of an index: its immediate plus its relative register's component.
    fn index(&mut self, ix: &Index) -> R<Value> {
        let imm = u32::try_from(ix.imm).map_err(|_| LowerError::Malformed("a 64-bit index".into()))?;
        let base = self.ci(imm);
        match &ix.rel {
            None => Ok(base),
            Some(r) => {
                let v = self.read(r, 1, Kind::Int)?[0];
                Ok(if imm == 0 { v } else { self.bin(BinOp::Add, Scalar::I32, v, base) })
            }
        }
    }

    fn imm_index(o: &Operand, d: usize) -> R<u32> {
        match o.index.get(d) {
            Some(Index { imm, rel: None }) => {
                u32::try_from(*imm).map_err(|_| LowerError::Malformed("a 64-bit register index".into()))
            }
            Some(_) => unsupported(format!("relative indexing of operand type {}", o.ty)),
            None => bad(format!("operand type {} without its index", o.ty)),
        }
    }

    /// A pointer to component `c` of the temp or indexable temp `o` names.
    fn reg_ptr(&mut self, o: &Operand, c: usize) -> R<Value> {
        match o.ty {
            ty::TEMP => {
                let r = Self::imm_index(o, 0)?;
                let Some((base, n)) = self.temps else { return bad("r# without dcl_temps") };
                if r >= n {
                    return bad(format!("r{r} past dcl_temps {n}"));
                }
                Ok(self.emit(
                    Op::PtrAdd { offset: i64::from(4 * r) + c as i64, strides: Box::new([]) },
                    vec![base],
                    Type::Ptr(AddrSpace::Private),
                ))
            }
            ty::INDEXABLE_TEMP => {
                let x = Self::imm_index(o, 0)?;
                let Some(&(_, base, n)) = self.xs.iter().find(|e| e.0 == x) else {
                    return bad(format!("x{x} without dcl_indexableTemp"));
                };
                let ix = o.index.get(1).ok_or_else(|| LowerError::Malformed("x# without an element".into()))?;
                if ix.rel.is_none() {
                    if ix.imm >= u64::from(n) {
                        return bad(format!("x{x}[{}] past its {n} registers", ix.imm));
                    }
                    return Ok(self.emit(
                        Op::PtrAdd { offset: 4 * ix.imm as i64 + c as i64, strides: Box::new([]) },
                        vec![base],
                        Type::Ptr(AddrSpace::Private),
                    ));
                }
                let i = self.index(ix)?;
                Ok(self.emit(
                    Op::PtrAdd { offset: c as i64, strides: Box::new([4]) },
                    vec![base, i],
                    Type::Ptr(AddrSpace::Private),
                ))
            }
            t => bad(format!("operand type {t} is not a register")),
        }
    }

    /// The signature element holding register `reg` component `c`, with its row and column.
    fn element(sig: &[SignatureElement], reg: u32, c: usize) -> Option<(&SignatureElement, u32, u32)> {
        sig.iter().find_map(|e| {
            let (r0, c0) = (e.start_row, e.start_col);
            let row = i64::from(reg) - i64::from(r0);
            let col = c as i64 - i64::from(c0);
            (r0 >= 0 && row >= 0 && row < i64::from(e.rows) && col >= 0 && col < i64::from(e.cols.max(1)))
                .then_some((e, row as u32, col as u32))
        })
    }

    fn scalar_of(c: ComponentType) -> Scalar {
        match c {
            ComponentType::I32 | ComponentType::U32 | ComponentType::I1 => Scalar::I32,
            _ => Scalar::F32,
        }
    }

    /// Source component `c` of `o`, as `i32` bits, without modifiers.
    fn fetch(&mut self, o: &Operand, c: usize, cache: &mut Option<Value>) -> R<Value> {
        match o.ty {
            ty::TEMP | ty::INDEXABLE_TEMP => {
                let p = self.reg_ptr(o, c)?;
                Ok(self.emit(Op::Load(1), vec![p], Type::Scalar(Scalar::I32)))
            }
            ty::IMMEDIATE32 => {
                let k = if o.comps == 1 { 0 } else { c };
                let v = *o.imm.get(k).ok_or_else(|| LowerError::Malformed("an immediate too short".into()))?;
                Ok(self.ci(v))
            }
            ty::IMMEDIATE64 => {
                // `d(...)`: each 64-bit value two words, the low first; component c is word c
                // (the first double's two words, then the second's).
                let v = *o.imm.get(c).ok_or_else(|| LowerError::Malformed("an immediate too short".into()))?;
                Ok(self.ci(v))
            }
            ty::IMMEDIATE_CONSTANT_BUFFER => {
                let Some((base, rows)) = self.icb else { return bad("icb without dcl_immediateConstantBuffer") };
                let ix = o.index.first().ok_or_else(|| LowerError::Malformed("icb without an index".into()))?;
                if ix.rel.is_none() && ix.imm >= u64::from(rows) {
                    return bad(format!("icb[{}] past its {rows} rows", ix.imm));
                }
                let i = self.index(ix)?;
                let p = self.emit(
                    Op::PtrAdd { offset: c as i64, strides: Box::new([4]) },
                    vec![base, i],
                    Type::Ptr(AddrSpace::Private),
                );
                Ok(self.emit(Op::Load(1), vec![p], Type::Scalar(Scalar::I32)))
            }
            ty::CONSTANT_BUFFER => {
                let row = match cache {
                    Some(v) => *v,
                    None => {
                        let v = res::cbuffer_row(self, o)?;
                        *cache = Some(v);
                        v
                    }
                };
                Ok(self.extract(row, c as u32, Scalar::I32))
            }
            ty::INPUT => {
                // v# of a vertex or pixel shader; a geometry shader's v[vertex][#].
                let (reg, vertex) = match (o.index.len(), self.prog.kind) {
                    (1, 0 | 1 | 5) => (Self::imm_index(o, 0)?, None),
                    (2, 2) => (Self::imm_index(o, 1)?, Some(self.index(&o.index[0])?)),
                    _ => return unsupported(format!("{}-dimensional inputs of this stage", o.index.len())),
                };
                let inputs = self.inputs;
                let Some((e, row, col)) = Self::element(inputs, reg, c) else {
                    return bad(format!("v{reg}.{} is in no input signature element", b"xyzw"[c & 3] as char));
                };
                let s = Self::scalar_of(e.component);
                let (id, row, col) = (self.ci(e.id), self.ci(row), self.ci(col));
                let v = match vertex {
                    Some(k) => self.dx(Dx::LoadInput { vertex: true }, vec![id, row, col, k], Type::Scalar(s)),
                    None => {
                        let zero = self.ci(0);
                        self.dx(Dx::LoadInput { vertex: false }, vec![id, row, col, zero], Type::Scalar(s))
                    }
                };
                Ok(self.as_bits(v))
            }
            ty::THREAD_ID | ty::THREAD_GROUP_ID | ty::THREAD_ID_IN_GROUP | ty::THREAD_ID_IN_GROUP_FLATTENED => {
                let sv = match o.ty {
                    ty::THREAD_ID => SysValue::ThreadId,
                    ty::THREAD_GROUP_ID => SysValue::GroupId,
                    ty::THREAD_ID_IN_GROUP => SysValue::ThreadIdInGroup,
                    _ => SysValue::FlattenedThreadIdInGroup,
                };
                let k = if sv == SysValue::FlattenedThreadIdInGroup { 0 } else { c.min(2) as u32 };
                let k = self.ci(k);
                Ok(self.dx(Dx::SysValue(sv), vec![k], Type::Scalar(Scalar::I32)))
            }
            22..=28 => tess::fetch(self, o, c),
            ty::INPUT_PRIMITIVEID => {
                let k = self.ci(0);
                Ok(self.dx(Dx::SysValue(SysValue::PrimitiveId), vec![k], Type::Scalar(Scalar::I32)))
            }
            ty::COVERAGE_MASK => {
                let k = self.ci(0);
                Ok(self.dx(Dx::SysValue(SysValue::Coverage), vec![k], Type::Scalar(Scalar::I32)))
            }
            ty::GS_INSTANCE_ID => {
                let k = self.ci(0);
                Ok(self.dx(Dx::SysValue(SysValue::GsInstanceId), vec![k], Type::Scalar(Scalar::I32)))
            }
            t => unsupported(format!("reading operand type {t}")),
        }
    }

    /// The components of `o` that destination components `mask` read (swizzled; 0 for the
    /// others), as `i32` bits with `kind`'s source modifiers applied.
    fn read(&mut self, o: &Operand, mask: u8, kind: Kind) -> R<[Value; 4]> {
        let zero = self.ci(0);
        let mut out = [zero; 4];
        let mut got: [Option<Value>; 4] = [None; 4];
        let mut cache = None;
        for (k, slot) in out.iter_mut().enumerate() {
            if mask & (1 << k) == 0 {
                continue;
            }
            let c = match (o.comps, o.ty) {
                (4, _) => o.select.comp(k),
                // One double: both of its words.
                (_, ty::IMMEDIATE64) => k & 1,
                _ => 0,
            };
            let v = match got[c] {
                Some(v) => v,
                None => {
                    let v = self.fetch(o, c, &mut cache)?;
                    got[c] = Some(v);
                    v
                }
            };
            *slot = self.modify(v, o, kind);
        }
        Ok(out)
    }

    fn modify(&mut self, v: Value, o: &Operand, kind: Kind) -> Value {
        let m = o.modifier;
        match kind {
            Kind::Float => {
                let mut v = v;
                if m.abs {
                    let k = self.ci(0x7FFF_FFFF);
                    v = self.bin(BinOp::And, Scalar::I32, v, k);
                }
                if m.neg {
                    let k = self.ci(0x8000_0000);
                    v = self.bin(BinOp::Xor, Scalar::I32, v, k);
                }
                v
            }
            Kind::Int => {
                if m.neg {
                    let z = self.ci(0);
                    self.bin(BinOp::Sub, Scalar::I32, z, v)
                } else {
                    v
                }
            }
        }
    }

    /// Writes `v` (`i32` bits, or an `f32`) to component `k` of destination `o`.
    fn write(&mut self, o: &Operand, k: usize, v: Value) -> R<()> {
        match o.ty {
            ty::NULL => Ok(()),
            ty::TEMP | ty::INDEXABLE_TEMP => {
                let v = self.as_bits(v);
                let p = self.reg_ptr(o, k)?;
                self.emit_void(Op::Store(1), vec![p, v]);
                Ok(())
            }
            ty::OUTPUT if self.patch_phase => tess::write_patch(self, o, k, v),
            ty::OUTPUT | ty::OUTPUT_DEPTH | ty::OUTPUT_DEPTH_GE | ty::OUTPUT_DEPTH_LE | ty::OUTPUT_COVERAGE_MASK => {
                let outputs = self.outputs;
                if o.ty == ty::OUTPUT {
                    // A geometry shader's streams share the output registers: each stream's
                    // element at the register (OSG5 / OSG1) takes the value, and emit_stream
                    // sends that stream's.
                    let reg = Self::imm_index(o, 0)?;
                    let found: Vec<_> = outputs
                        .iter()
                        .filter_map(|e| Self::element(std::slice::from_ref(e), reg, k))
                        .map(|(e, row, col)| (e.id, e.component, row, col))
                        .collect();
                    if found.is_empty() {
                        return bad(format!("o{reg} component {k} is in no output element"));
                    }
                    for (id, component, row, col) in found {
                        let v =
                            if Self::scalar_of(component) == Scalar::F32 { self.as_f32(v) } else { self.as_bits(v) };
                        let (id, row, col) = (self.ci(id), self.ci(row), self.ci(col));
                        self.emit_void(Op::Dx(Dx::StoreOutput), vec![id, row, col, v]);
                    }
                    return Ok(());
                }
                let found = {
                    use rd3d12_core::shader::SemanticKind as S;
                    let want = match o.ty {
                        ty::OUTPUT_DEPTH => S::Depth,
                        ty::OUTPUT_DEPTH_GE => S::DepthGreaterEqual,
                        ty::OUTPUT_DEPTH_LE => S::DepthLessEqual,
                        _ => S::Coverage,
                    };
                    outputs.iter().find(|e| e.semantic == want).map(|e| (e, 0, 0))
                };
                let Some((e, row, col)) = found else {
                    return bad(format!("output operand type {} component {k} is in no output element", o.ty));
                };
                let v = if Self::scalar_of(e.component) == Scalar::F32 { self.as_f32(v) } else { self.as_bits(v) };
                let (id, row, col) = (self.ci(e.id), self.ci(row), self.ci(col));
                self.emit_void(Op::Dx(Dx::StoreOutput), vec![id, row, col, v]);
                Ok(())
            }
            t => unsupported(format!("writing operand type {t}")),
        }
    }

    fn dst_mask(o: &Operand) -> u8 {
        match (o.ty, o.comps) {
            (ty::NULL, _) => 0,
            (_, 4) => o.select.mask(),
            _ => 1,
        }
    }

    // ---- instructions ----

    /// A component-wise float operation: `f` computes an `f32` from the sources' `f32`s.
    fn fop(&mut self, inst: &Inst, f: impl Fn(&mut Self, &[Value]) -> Value) -> R<()> {
        let (d, srcs) = inst.operands.split_first().ok_or_else(|| LowerError::Malformed("no operands".into()))?;
        let mask = Self::dst_mask(d);
        let vals = srcs.iter().map(|s| self.read(s, mask, Kind::Float)).collect::<R<Vec<_>>>()?;
        let mut outs = Vec::new();
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let args: Vec<Value> = vals.iter().map(|v| v[k]).collect();
            let args: Vec<Value> = args.into_iter().map(|a| self.ftz(a)).collect();
            let mut r = f(self, &args);
            r = self.ftz(r);
            if inst.saturate() {
                r = self.dx(Dx::FUnary(FUnary::Saturate), vec![r], Type::Scalar(Scalar::F32));
            }
            outs.push((k, r));
        }
        for (k, r) in outs {
            self.write(d, k, r)?;
        }
        Ok(())
    }

    /// A component-wise integer (or bit, or conversion) operation on `i32` bits; `kind` says
    /// how source modifiers apply; `f` returns `i32` bits or an `f32`.
    fn iop(&mut self, inst: &Inst, kind: Kind, f: impl Fn(&mut Self, &[Value]) -> Value) -> R<()> {
        let (d, srcs) = inst.operands.split_first().ok_or_else(|| LowerError::Malformed("no operands".into()))?;
        let mask = Self::dst_mask(d);
        let vals = srcs.iter().map(|s| self.read(s, mask, kind)).collect::<R<Vec<_>>>()?;
        let mut outs = Vec::new();
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let args: Vec<Value> = vals.iter().map(|v| v[k]).collect();
            let mut r = f(self, &args);
            if inst.saturate() && self.f.ty(r) == &Type::Scalar(Scalar::F32) {
                r = self.dx(Dx::FUnary(FUnary::Saturate), vec![r], Type::Scalar(Scalar::F32));
            }
            outs.push((k, r));
        }
        for (k, r) in outs {
            self.write(d, k, r)?;
        }
        Ok(())
    }

    /// Operations with two destinations: `f` gives both results of one component.
    fn two(&mut self, inst: &Inst, kind: Kind, f: impl Fn(&mut Self, &[Value]) -> (Value, Value)) -> R<()> {
        let [d0, d1, srcs @ ..] = &inst.operands[..] else { return bad("two destinations") };
        let mask = Self::dst_mask(d0) | Self::dst_mask(d1);
        let vals = srcs.iter().map(|s| self.read(s, mask, kind)).collect::<R<Vec<_>>>()?;
        let mut outs = Vec::new();
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let args: Vec<Value> = vals.iter().map(|v| v[k]).collect();
            let args: Vec<Value> =
                if kind == Kind::Float { args.into_iter().map(|a| self.ftz(a)).collect() } else { args };
            let (mut a, mut b) = f(self, &args);
            if kind == Kind::Float {
                (a, b) = (self.ftz(a), self.ftz(b));
            }
            if inst.saturate() && kind == Kind::Float {
                a = self.dx(Dx::FUnary(FUnary::Saturate), vec![a], Type::Scalar(Scalar::F32));
                b = self.dx(Dx::FUnary(FUnary::Saturate), vec![b], Type::Scalar(Scalar::F32));
            }
            outs.push((k, a, b));
        }
        for (k, a, b) in outs {
            if Self::dst_mask(d0) & (1 << k) != 0 {
                self.write(d0, k, a)?;
            }
            if Self::dst_mask(d1) & (1 << k) != 0 {
                self.write(d1, k, b)?;
            }
        }
        Ok(())
    }

    fn dot(&mut self, inst: &Inst, n: u8) -> R<()> {
        let [d, a, b] = &inst.operands[..] else { return bad("dp: three operands") };
        let m = (1u8 << n) - 1;
        let (va, vb) = (self.read(a, m, Kind::Float)?, self.read(b, m, Kind::Float)?);
        let mut args = Vec::new();
        for v in va.iter().take(n as usize).chain(vb.iter().take(n as usize)) {
            let x = self.ftz(*v);
            args.push(x);
        }
        let mut r = self.dx(Dx::Dot(n), args, Type::Scalar(Scalar::F32));
        r = self.ftz(r);
        if inst.saturate() {
            r = self.dx(Dx::FUnary(FUnary::Saturate), vec![r], Type::Scalar(Scalar::F32));
        }
        for k in (0..4).filter(|k| Self::dst_mask(d) & (1 << k) != 0) {
            self.write(d, k, r)?;
        }
        Ok(())
    }

    fn fun(&mut self, u: FUnary, a: Value) -> Value {
        self.dx(Dx::FUnary(u), vec![a], Type::Scalar(Scalar::F32))
    }

    fn lower_inst(&mut self, inst: &Inst) -> R<()> {
        use BinOp as B;
        let f32_ = Scalar::F32;
        let i32_ = Scalar::I32;
        match inst.opcode {
            // Float arithmetic.
            0 => self.fop(inst, |s, a| s.bin(B::FAdd, f32_, a[0], a[1])),
            14 => self.fop(inst, |s, a| s.bin(B::FDiv, f32_, a[0], a[1])),
            56 => self.fop(inst, |s, a| s.bin(B::FMul, f32_, a[0], a[1])),
            50 => self.fop(inst, |s, a| s.dx(Dx::FMad, a.to_vec(), Type::Scalar(f32_))),
            54 => {
                // mov: float modifiers (fxc writes |x| and -x on moves of floats); _sat clamps.
                if inst.saturate() {
                    self.fop(inst, |_, a| a[0])
                } else {
                    self.iop(inst, Kind::Float, |_, a| a[0])
                }
            }
            51 => self.fop(inst, |s, a| s.dx(Dx::MinMax(MinMax::FMin), a.to_vec(), Type::Scalar(f32_))),
            52 => self.fop(inst, |s, a| s.dx(Dx::MinMax(MinMax::FMax), a.to_vec(), Type::Scalar(f32_))),
            15..=17 => self.dot(inst, (inst.opcode - 13) as u8),
            25 => self.fop(inst, |s, a| s.fun(FUnary::Exp, a[0])),
            47 => self.fop(inst, |s, a| s.fun(FUnary::Log, a[0])),
            26 => self.fop(inst, |s, a| s.fun(FUnary::Frc, a[0])),
            68 => self.fop(inst, |s, a| s.fun(FUnary::Rsqrt, a[0])),
            75 => self.fop(inst, |s, a| s.fun(FUnary::Sqrt, a[0])),
            64 => self.fop(inst, |s, a| s.fun(FUnary::RoundNe, a[0])),
            65 => self.fop(inst, |s, a| s.fun(FUnary::RoundNi, a[0])),
            66 => self.fop(inst, |s, a| s.fun(FUnary::RoundPi, a[0])),
            67 => self.fop(inst, |s, a| s.fun(FUnary::RoundZ, a[0])),
            129 => self.fop(inst, |s, a| {
                let one = s.c(f32_, u64::from(1f32.to_bits()));
                s.bin(B::FDiv, f32_, one, a[0])
            }),
            77 => self.two(inst, Kind::Float, |s, a| (s.fun(FUnary::Sin, a[0]), s.fun(FUnary::Cos, a[0]))),
            11 | 122 => {
                self.fop(inst, |s, a| s.dx(Dx::Deriv(crate::ir::op::Deriv::CoarseX), vec![a[0]], Type::Scalar(f32_)))
            }
            12 | 124 => {
                self.fop(inst, |s, a| s.dx(Dx::Deriv(crate::ir::op::Deriv::CoarseY), vec![a[0]], Type::Scalar(f32_)))
            }
            123 => self.fop(inst, |s, a| s.dx(Dx::Deriv(crate::ir::op::Deriv::FineX), vec![a[0]], Type::Scalar(f32_))),
            125 => self.fop(inst, |s, a| s.dx(Dx::Deriv(crate::ir::op::Deriv::FineY), vec![a[0]], Type::Scalar(f32_))),
            // Float comparisons: ordered, but ne is unordered (true for NaN).
            24 | 29 | 49 | 57 => {
                let p = match inst.opcode {
                    24 => CmpPred::FOeq,
                    29 => CmpPred::FOge,
                    49 => CmpPred::FOlt,
                    _ => CmpPred::FUne,
                };
                self.iop(inst, Kind::Float, |s, a| {
                    let (x, y) = (s.ftz(a[0]), s.ftz(a[1]));
                    let b = s.cmp(p, f32_, x, y);
                    s.mask_of(b)
                })
            }
            // Conversions.
            27 | 28 => {
                let op = if inst.opcode == 27 { CastOp::FPToSI } else { CastOp::FPToUI };
                self.iop(inst, Kind::Float, |s, a| {
                    let x = s.as_f32(a[0]);
                    s.cast(op, f32_, i32_, x)
                })
            }
            43 => self.iop(inst, Kind::Int, |s, a| s.cast(CastOp::SIToFP, i32_, f32_, a[0])),
            86 => self.iop(inst, Kind::Int, |s, a| s.cast(CastOp::UIToFP, i32_, f32_, a[0])),
            130 => self.iop(inst, Kind::Float, |s, a| {
                let x = s.as_f32(a[0]);
                s.dx(Dx::Legacy(crate::ir::op::LegacyConv::F32ToF16), vec![x], Type::Scalar(i32_))
            }),
            131 => self.iop(inst, Kind::Int, |s, a| {
                s.dx(Dx::Legacy(crate::ir::op::LegacyConv::F16ToF32), vec![a[0]], Type::Scalar(f32_))
            }),
            // Integer arithmetic and bits.
            30 => self.iop(inst, Kind::Int, |s, a| s.bin(B::Add, i32_, a[0], a[1])),
            40 => self.iop(inst, Kind::Int, |s, a| {
                let z = s.ci(0);
                s.bin(B::Sub, i32_, z, a[0])
            }),
            35 => self.iop(inst, Kind::Int, |s, a| s.dx(Dx::IMad, a.to_vec(), Type::Scalar(i32_))),
            82 => self.iop(inst, Kind::Int, |s, a| s.dx(Dx::UMad, a.to_vec(), Type::Scalar(i32_))),
            36 | 37 | 83 | 84 => {
                let m = [MinMax::IMax, MinMax::IMin, MinMax::UMax, MinMax::UMin]
                    [[36, 37, 83, 84].iter().position(|&o| o == inst.opcode).unwrap_or(0)];
                self.iop(inst, Kind::Int, |s, a| s.dx(Dx::MinMax(m), a.to_vec(), Type::Scalar(i32_)))
            }
            38 | 81 | 78 | 132 | 133 => {
                let t = match inst.opcode {
                    38 => TwoOut::IMul,
                    81 => TwoOut::UMul,
                    78 => TwoOut::UDiv,
                    132 => TwoOut::UAddc,
                    _ => TwoOut::USubb,
                };
                self.two(inst, Kind::Int, |s, a| {
                    let r = s.dx(Dx::TwoOut(t), a.to_vec(), Type::Agg([i32_, i32_].into()));
                    (s.extract(r, 0, i32_), s.extract(r, 1, i32_))
                })
            }
            41 | 42 | 85 => {
                let op = match inst.opcode {
                    41 => B::Shl,
                    42 => B::AShr,
                    _ => B::LShr,
                };
                self.iop(inst, Kind::Int, |s, a| {
                    let k = s.ci(31);
                    let n = s.bin(B::And, i32_, a[1], k);
                    s.bin(op, i32_, a[0], n)
                })
            }
            1 | 60 | 87 => {
                let op = match inst.opcode {
                    1 => B::And,
                    60 => B::Or,
                    _ => B::Xor,
                };
                self.iop(inst, Kind::Int, |s, a| s.bin(op, i32_, a[0], a[1]))
            }
            59 => self.iop(inst, Kind::Int, |s, a| {
                let k = s.ci(u32::MAX);
                s.bin(B::Xor, i32_, a[0], k)
            }),
            32 | 33 | 34 | 39 | 79 | 80 => {
                let p = match inst.opcode {
                    32 => CmpPred::IEq,
                    33 => CmpPred::ISge,
                    34 => CmpPred::ISlt,
                    39 => CmpPred::INe,
                    79 => CmpPred::IUlt,
                    _ => CmpPred::IUge,
                };
                self.iop(inst, Kind::Int, |s, a| {
                    let b = s.cmp(p, i32_, a[0], a[1]);
                    s.mask_of(b)
                })
            }
            55 => self.iop(inst, Kind::Int, |s, a| {
                let z = s.ci(0);
                let b = s.cmp(CmpPred::INe, i32_, a[0], z);
                s.emit(Op::Select, vec![b, a[1], a[2]], Type::Scalar(i32_))
            }),
            142 => self.two(inst, Kind::Int, |s, a| {
                let z = s.ci(0);
                let b = s.cmp(CmpPred::INe, i32_, a[0], z);
                let x = s.emit(Op::Select, vec![b, a[2], a[1]], Type::Scalar(i32_));
                let y = s.emit(Op::Select, vec![b, a[1], a[2]], Type::Scalar(i32_));
                (x, y)
            }),
            138 | 139 => {
                let d = if inst.opcode == 138 { Dx::Ubfe } else { Dx::Ibfe };
                self.iop(inst, Kind::Int, |s, a| s.dx(d, a.to_vec(), Type::Scalar(i32_)))
            }
            140 => self.iop(inst, Kind::Int, |s, a| s.dx(Dx::Bfi, a.to_vec(), Type::Scalar(i32_))),
            134..=137 | 141 => {
                let u = match inst.opcode {
                    134 => IUnary::Countbits,
                    135 => IUnary::FirstbitHi,
                    136 => IUnary::FirstbitLo,
                    137 => IUnary::FirstbitSHi,
                    _ => IUnary::Bfrev,
                };
                self.iop(inst, Kind::Int, |s, a| s.dx(Dx::IUnary(u), vec![a[0]], Type::Scalar(i32_)))
            }
            214 => self.iop(inst, Kind::Int, |s, a| s.dx(Dx::Msad, a.to_vec(), Type::Scalar(i32_))),
            58 => Ok(()),
            // Control flow.
            31 => {
                let c = self.test(inst)?;
                let (then, otherwise, merge) = (self.block(), self.block(), self.block());
                self.end(Terminator::CondBr { cond: c, then, otherwise }, then);
                self.flow.push(Frame::If { otherwise, merge, has_else: false });
                Ok(())
            }
            18 => match self.flow.last_mut() {
                Some(Frame::If { otherwise, merge, has_else: h @ false }) => {
                    *h = true;
                    let (o, m) = (*otherwise, *merge);
                    self.end(Terminator::Br(m), o);
                    Ok(())
                }
                _ => bad("else outside if"),
            },
            21 => match self.flow.pop() {
                Some(Frame::If { otherwise, merge, has_else }) => {
                    self.end(Terminator::Br(merge), merge);
                    if !has_else {
                        self.f.blocks[otherwise.0 as usize].term = Terminator::Br(merge);
                    }
                    Ok(())
                }
                _ => bad("endif without if"),
            },
            48 => {
                let (header, exit) = (self.block(), self.block());
                self.end(Terminator::Br(header), header);
                self.flow.push(Frame::Loop { header, exit });
                Ok(())
            }
            22 => match self.flow.pop() {
                Some(Frame::Loop { header, exit }) => {
                    self.end(Terminator::Br(header), exit);
                    Ok(())
                }
                _ => bad("endloop without loop"),
            },
            2 | 3 => {
                let exit = self
                    .flow
                    .iter()
                    .rev()
                    .find_map(|f| match f {
                        Frame::Loop { exit, .. } | Frame::Switch { exit, .. } => Some(*exit),
                        Frame::If { .. } => None,
                    })
                    .ok_or_else(|| LowerError::Malformed("break outside loop or switch".into()))?;
                self.branch_out(inst, exit)
            }
            7 | 8 => {
                let header = self
                    .flow
                    .iter()
                    .rev()
                    .find_map(|f| match f {
                        Frame::Loop { header, .. } => Some(*header),
                        _ => None,
                    })
                    .ok_or_else(|| LowerError::Malformed("continue outside loop".into()))?;
                self.branch_out(inst, header)
            }
            62 | 63 if self.ret_to.is_some() => {
                let to = self.ret_to.unwrap_or(BlockId(0));
                self.branch_out(inst, to)
            }
            62 | 63 => {
                let ret = self.block();
                self.f.blocks[ret.0 as usize].term = Terminator::Ret;
                self.branch_out(inst, ret)
            }
            76 => {
                let [o] = &inst.operands[..] else { return bad("switch: one operand") };
                let cond = self.read(o, 1, Kind::Int)?[0];
                let (head, exit) = (self.cur, self.block());
                // The head's terminator is written at endswitch; code before the first case
                // lands in a block no edge reaches.
                let dead = self.block();
                self.cur = dead;
                self.flow.push(Frame::Switch { head, cond, cases: vec![], default: None, exit });
                Ok(())
            }
            6 | 10 => {
                let value = match (inst.opcode, inst.operands.first()) {
                    (6, Some(o)) if o.ty == ty::IMMEDIATE32 && !o.imm.is_empty() => Some(u64::from(o.imm[0])),
                    (6, _) => return bad("case takes an immediate"),
                    _ => None,
                };
                let b = self.block();
                let cur = self.cur;
                match self.flow.last_mut() {
                    Some(Frame::Switch { cases, default, .. }) => {
                        match value {
                            Some(v) if cases.iter().any(|c| c.0 == v) => return bad(format!("case {v} twice")),
                            Some(v) => cases.push((v, b)),
                            None if default.is_some() => return bad("default twice"),
                            None => *default = Some(b),
                        }
                        // Falling through from the previous case (or from the dead block).
                        self.f.blocks[cur.0 as usize].term = Terminator::Br(b);
                        self.cur = b;
                        Ok(())
                    }
                    _ => bad("case outside switch"),
                }
            }
            23 => match self.flow.pop() {
                Some(Frame::Switch { head, cond, cases, default, exit }) => {
                    self.end(Terminator::Br(exit), exit);
                    self.f.blocks[head.0 as usize].term =
                        Terminator::Switch { cond, default: default.unwrap_or(exit), cases: cases.into() };
                    Ok(())
                }
                _ => bad("endswitch without switch"),
            },
            13 => {
                let c = self.test(inst)?;
                self.emit_void(Op::Dx(Dx::Discard), vec![c]);
                Ok(())
            }
            190 => {
                let group_sync = inst.controls() & 1 != 0;
                self.emit_void(Op::Dx(Dx::Barrier { group_sync }), vec![]);
                Ok(())
            }
            4 | 5 => self.call(inst),
            44 => bad("label reached outside a subroutine body"),
            120 => unsupported(format!("fcall: {INTERFACES}")),
            191..=202 | 211..=213 | 215..=218 => double::lower(self, inst),
            9 | 19 | 20 | 117..=119 => {
                if self.prog.kind != 2 {
                    return bad(format!("{} outside a geometry shader", inst.name()));
                }
                let stream = match inst.opcode {
                    117..=119 => {
                        let o = inst.operands.first().ok_or_else(|| LowerError::Malformed("a stream".into()))?;
                        Self::imm_index(o, 0)?
                    }
                    _ => 0,
                };
                if stream > 3 {
                    return bad(format!("stream {stream}"));
                }
                self.facts.streams |= 1 << stream;
                let d = match inst.opcode {
                    19 | 117 => Dx::EmitStream,
                    9 | 118 => Dx::CutStream,
                    _ => Dx::EmitThenCutStream,
                };
                let s = self.ci(stream);
                self.emit_void(Op::Dx(d), vec![s]);
                Ok(())
            }
            203..=205 => self.eval(inst),
            208 | 209 => unsupported(inst.name()),
            _ => res::lower(self, inst),
        }
    }

    /// `eval_snapped dest, v#, offset.xy`, `eval_sample_index dest, v#, index`,
    /// `eval_centroid dest, v#`: the pixel shader input interpolated elsewhere in the pixel.
    fn eval(&mut self, inst: &Inst) -> R<()> {
        use crate::ir::op::EvalKind;
        if self.prog.kind != 0 {
            return bad(format!("{} outside a pixel shader", inst.name()));
        }
        let (d, v) = (&inst.operands[0], &inst.operands[1]);
        if v.ty != ty::INPUT || v.index.len() != 1 {
            return bad(format!("{} of operand type {}", inst.name(), v.ty));
        }
        let reg = Self::imm_index(v, 0)?;
        let extra = match inst.opcode {
            203 => {
                let o = self.read(&inst.operands[2], 0x3, Kind::Int)?;
                vec![o[0], o[1]]
            }
            204 => vec![self.read(&inst.operands[2], 1, Kind::Int)?[0]],
            _ => vec![],
        };
        let kind = match inst.opcode {
            203 => EvalKind::Snapped,
            204 => EvalKind::SampleIndex,
            _ => EvalKind::Centroid,
        };
        let mask = Self::dst_mask(d);
        let mut outs = Vec::new();
        for k in (0..4).filter(|k| mask & (1 << k) != 0) {
            let c = if v.comps == 4 { v.select.comp(k) } else { 0 };
            let inputs = self.inputs;
            let Some((e, row, col)) = Self::element(inputs, reg, c) else {
                return bad(format!("v{reg} component {c} is in no input signature element"));
            };
            let (id, row, col) = (self.ci(e.id), self.ci(row), self.ci(col));
            let mut args = vec![id, row, col];
            args.extend(&extra);
            let x = self.dx(Dx::Eval(kind), args, Type::Scalar(Scalar::F32));
            let x = self.as_bits(x);
            let mut r = self.modify(x, v, Kind::Float);
            if inst.saturate() {
                let f = self.as_f32(r);
                r = self.dx(Dx::FUnary(FUnary::Saturate), vec![f], Type::Scalar(Scalar::F32));
            }
            outs.push((k, r));
        }
        for (k, r) in outs {
            self.write(d, k, r)?;
        }
        Ok(())
    }

    /// `break`, `continue`, `ret` to `target` (the conditional forms test their operand); what
    /// follows lands in a fresh block.
    fn branch_out(&mut self, inst: &Inst, target: BlockId) -> R<()> {
        let next = self.block();
        if matches!(inst.opcode, 3 | 8 | 63) {
            let c = self.test(inst)?;
            self.end(Terminator::CondBr { cond: c, then: target, otherwise: next }, next);
        } else {
            self.end(Terminator::Br(target), next);
        }
        Ok(())
    }

    fn declare(&mut self, inst: &Inst) -> R<()> {
        match inst.opcode {
            104 => {
                let n = *inst.extra.first().ok_or_else(|| LowerError::Malformed("dcl_temps without a count".into()))?;
                if n > 4096 {
                    return bad(format!("dcl_temps {n}"));
                }
                if self.temps.is_some() {
                    return bad("dcl_temps twice");
                }
                let p = self.prologue(Op::Alloca(4 * n.max(1)), Type::Ptr(AddrSpace::Private));
                self.temps = Some((p, n));
            }
            105 => {
                let [x, n, _comps] = inst.extra[..] else { return bad("dcl_indexableTemp: three DWORDs") };
                if n == 0 || n > 4096 || self.xs.iter().any(|e| e.0 == x) {
                    return bad(format!("dcl_indexableTemp x{x}[{n}]"));
                }
                let p = self.prologue(Op::Alloca(4 * n), Type::Ptr(AddrSpace::Private));
                self.xs.push((x, p, n));
            }
            155 => {
                let [x, y, z] = inst.extra[..] else { return bad("dcl_thread_group: three DWORDs") };
                self.facts.num_threads = Some([x, y, z]);
            }
            106 => self.facts.early_depth = inst.controls() & 4 != 0,
            98..=100 => {
                if let Some(o) = inst.operands.first() {
                    if let Ok(r) = Self::imm_index(o, 0) {
                        self.facts.interpolation.push((r, inst.controls() & 0xF));
                    }
                }
            }
            95..=97 | 101..=103 | 91 => {}
            opcodes_customdata if opcodes_customdata == super::opcodes::CUSTOMDATA && inst.controls() == 3 => {
                if self.icb.is_some() {
                    return bad("two immediate constant buffers");
                }
                if !inst.extra.len().is_multiple_of(4) {
                    return bad("an immediate constant buffer of partial rows");
                }
                let rows = (inst.extra.len() / 4) as u32;
                self.f.globals.push(ir::Global {
                    name: "icb".into(),
                    space: AddrSpace::Private,
                    cells: 4 * rows.max(1),
                    init: Some(inst.extra.iter().map(|&w| u64::from(w)).collect()),
                });
                let g = self.f.globals.len() as u32 - 1;
                let p = self.prologue(Op::Global(g), Type::Ptr(AddrSpace::Private));
                self.icb = Some((p, rows));
            }
            88..=90 | 156..=162 => res::declare(self, inst)?,
            92 => self.facts.gs.output_topology = inst.controls() & 0x7F,
            93 => self.facts.gs.input_primitive = inst.controls() & 0x3F,
            94 => self.facts.gs.max_vertex_count = inst.extra.first().copied().unwrap_or(0),
            206 => self.facts.gs.instance_count = inst.extra.first().copied().unwrap_or(1),
            143 => {}
            147 => self.facts.hs.input_control_points = inst.controls() & 0x3F,
            148 => self.facts.hs.output_control_points = inst.controls() & 0x3F,
            149 => self.facts.hs.domain = inst.controls() & 0x3,
            150 => self.facts.hs.partitioning = inst.controls() & 0x7,
            151 => self.facts.hs.output_primitive = inst.controls() & 0x7,
            152 => self.facts.hs.max_tess_factor = f32::from_bits(inst.extra.first().copied().unwrap_or(0)),
            153 | 154 => {}
            113..=116 if self.prog.kind == 3 => {}
            113..=116 => return bad(format!("{} outside a hull shader", inst.name())),
            144..=146 => return unsupported(format!("{}: {INTERFACES}", inst.name())),
            _ => {}
        }
        Ok(())
    }
}

impl L<'_> {
    /// Declares and lowers `insts` into the current function, up to the first `label` (the
    /// subroutine bodies after it are reached by calls).
    fn run(&mut self, insts: &[Inst]) -> R<()> {
        self.run_insts(insts)?;
        if !self.flow.is_empty() {
            return bad("a block is not closed at the end of the program");
        }
        Ok(())
    }

    fn run_insts(&mut self, insts: &[Inst]) -> R<()> {
        for inst in insts {
            if inst.opcode == 44 {
                break;
            }
            if super::opcodes::is_declaration(inst.opcode) || inst.opcode == super::opcodes::CUSTOMDATA {
                self.declare(inst)?;
            } else {
                self.lower_inst(inst).map_err(|e| match e {
                    LowerError::Malformed(s) => {
                        LowerError::Malformed(format!("{} (DWORD {}): {s}", inst.name(), inst.at))
                    }
                    LowerError::Unsupported(s) => LowerError::Unsupported(s),
                })?;
            }
        }
        Ok(())
    }

    /// Ends the function (its last block returns), places the allocations first and computes
    /// the control flow facts.
    fn finish(mut self) -> (Function, Facts) {
        self.end(Terminator::Ret, BlockId(0));
        let mut pro = std::mem::take(&mut self.prologue);
        let entry = &mut self.f.blocks[0].insts;
        pro.append(entry);
        *entry = pro;
        let mut f = self.f;
        crate::passes::cfg::analyse(&mut f);
        let mut facts = self.facts;
        facts.resources = self.res.resources();
        (f, facts)
    }
}

/// Lowers `prog` with the container's signatures (`patch`: the patch constant signature);
/// the IR functions (control flow facts computed: one, or a hull shader's control-point and
/// patch constant functions) and what the declarations say.
pub fn lower(
    prog: &Program,
    inputs: &[SignatureElement],
    outputs: &[SignatureElement],
    patch: &[SignatureElement],
) -> R<(Vec<Function>, Facts)> {
    if prog.kind == 3 {
        return tess::lower_hs(prog, inputs, outputs, patch);
    }
    let mut l = L::new(prog, inputs, outputs, patch);
    l.run(&prog.insts)?;
    let (f, facts) = l.finish();
    Ok((vec![f], facts))
}
