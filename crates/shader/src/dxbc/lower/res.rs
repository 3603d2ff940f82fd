//! Resources: declarations to resource ranges, and the instructions that reach them
//! (constant buffers, typed, raw and structured loads and stores, atomics, sampling, queries)
//! to the `dx.op`-like operations DXIL's lowering produces, handles made by `CreateHandle`.
//! Groupshared memory (`g#`) is a group global, reached by pointer.

use super::{bad, unsupported, Kind, LowerError, L, R};
use crate::dxbc::tokens::{ty, Inst, Operand};
use crate::dxil::metadata::Resource;
use crate::dxil::types::TypeId;
use crate::ir::interface::{ResourceClass, ResourceKind};
use crate::ir::op::{AtomicOp, BinOp, Dx, SampleKind};
use crate::ir::{self, AddrSpace, Op, Scalar, Type, Value};

/// A declared range.
#[derive(Debug, Clone)]
pub(super) struct Range {
    class: ResourceClass,
    /// The range id (`CreateHandle`'s range operand).
    id: u32,
    lower: u32,
    upper: u32,
    space: u32,
    /// DXBC's `D3D10_SB_RESOURCE_DIMENSION` (11 raw, 12 structured buffer).
    dim: u32,
    stride: u32,
    /// Constant buffers: the size in 16-byte rows.
    rows: u32,
}

/// The declared ranges and groupshared memories.
#[derive(Debug, Default)]
pub(crate) struct Ranges {
    list: Vec<Range>,
    /// (g#, pointer, structure stride (0: raw), cells).
    tgsm: Vec<(u32, Value, u32, u32)>,
}

impl Ranges {
    /// The ranges as `dx.resources` lists them.
    pub(super) fn resources(&self) -> Vec<Resource> {
        self.list
            .iter()
            .map(|r| {
                let kind = match r.dim {
                    1 => ResourceKind::TypedBuffer,
                    2 => ResourceKind::Texture1D,
                    3 => ResourceKind::Texture2D,
                    4 => ResourceKind::Texture2DMS,
                    5 => ResourceKind::Texture3D,
                    6 => ResourceKind::TextureCube,
                    7 => ResourceKind::Texture1DArray,
                    8 => ResourceKind::Texture2DArray,
                    9 => ResourceKind::Texture2DMSArray,
                    10 => ResourceKind::TextureCubeArray,
                    11 => ResourceKind::RawBuffer,
                    12 => ResourceKind::StructuredBuffer,
                    _ => ResourceKind::Invalid,
                };
                let shape_or_size = match r.class {
                    ResourceClass::Cbv => 16 * r.rows,
                    ResourceClass::Sampler => r.dim,
                    _ => kind as u32,
                };
                let prefix = ["T", "U", "CB", "S"][r.class as usize];
                Resource {
                    class: r.class,
                    id: r.id,
                    ty: TypeId(0),
                    name: format!("{prefix}{}", r.id),
                    space: r.space,
                    lower_bound: r.lower,
                    range_size: if r.upper == u32::MAX { u32::MAX } else { r.upper - r.lower + 1 },
                    shape_or_size,
                    stride: r.stride,
                }
            })
            .collect()
    }
}

fn class_of(t: u32) -> Option<ResourceClass> {
    Some(match t {
        ty::RESOURCE => ResourceClass::Srv,
        ty::UAV => ResourceClass::Uav,
        ty::CONSTANT_BUFFER => ResourceClass::Cbv,
        ty::SAMPLER => ResourceClass::Sampler,
        _ => return None,
    })
}

/// A declaration of a resource range or groupshared memory.
pub(super) fn declare(l: &mut L<'_>, inst: &Inst) -> R<()> {
    let o = inst.operands.first().ok_or_else(|| LowerError::Malformed("a declaration without its register".into()))?;
    if matches!(inst.opcode, 159 | 160) {
        let g = L::imm_index(o, 0)?;
        let (stride, bytes) = match (inst.opcode, &inst.extra[..]) {
            (159, [n, ..]) => (0, u64::from(*n)),
            (160, [s, n, ..]) => (*s, u64::from(*s) * u64::from(*n)),
            _ => return bad("dcl_tgsm: sizes missing"),
        };
        if bytes % 4 != 0 || bytes > 32768 || l.res.tgsm.iter().any(|t| t.0 == g) {
            return bad(format!("dcl_tgsm g{g} of {bytes} bytes (at most 32768, a multiple of 4, once)"));
        }
        let cells = (bytes / 4) as u32;
        l.f.globals.push(ir::Global {
            name: format!("g{g}"),
            space: AddrSpace::Group,
            cells: cells.max(1),
            init: None,
        });
        let n = l.f.globals.len() as u32 - 1;
        let p = l.prologue(Op::Global(n), Type::Ptr(AddrSpace::Group));
        l.res.tgsm.push((g, p, stride, cells));
        return Ok(());
    }
    let class = class_of(o.ty).ok_or_else(|| LowerError::Malformed(format!("declaring operand type {}", o.ty)))?;
    let sm51 = l.sm51();
    let (id, lower, upper) = if sm51 {
        (L::imm_index(o, 0)?, L::imm_index(o, 1)?, L::imm_index(o, 2)?)
    } else {
        let r = L::imm_index(o, 0)?;
        let id = l.res.list.iter().filter(|x| x.class == class).count() as u32;
        (id, r, r)
    };
    if upper < lower {
        return bad(format!("a range [{lower}:{upper}]"));
    }
    if !sm51 && lower >= 128 {
        return bad(format!("register {lower} past the 128 of a class"));
    }
    let extra = &inst.extra;
    let word =
        |k: usize| extra.get(k).copied().ok_or_else(|| LowerError::Malformed(format!("{}: DWORD {k}", inst.name())));
    let space_at = |k: usize| if sm51 { word(k) } else { Ok(0) };
    let (dim, stride, rows, space) = match inst.opcode {
        88 | 156 => (inst.controls() & 0x1F, 0, 0, space_at(1)?),
        89 => {
            if sm51 {
                (0, 0, word(0)?, word(1)?)
            } else {
                (0, 0, L::imm_index(o, 1)?, 0)
            }
        }
        90 => (inst.controls() & 0xF, 0, 0, space_at(0)?),
        157 | 161 => (11, 0, 0, space_at(0)?),
        158 | 162 => (12, word(0)?, 0, space_at(1)?),
        _ => return bad("not a resource declaration"),
    };
    if rows > 4096 {
        return bad(format!("a constant buffer of {rows} rows (at most 4096)"));
    }
    if matches!(inst.opcode, 88 | 156) && !(1..=10).contains(&dim) {
        return bad(format!("resource dimension {dim}"));
    }
    if l.res.list.iter().any(|x| x.class == class && (x.id == id || (!sm51 && x.lower == lower))) {
        return bad(format!("{} declared twice", inst.name()));
    }
    l.res.list.push(Range { class, id, lower, upper, space, dim, stride, rows });
    Ok(())
}

/// The range an operand names and the handle for it.
fn handle(l: &mut L<'_>, o: &Operand) -> R<(Value, Range)> {
    let class = class_of(o.ty).ok_or_else(|| LowerError::Malformed(format!("operand type {} is no resource", o.ty)))?;
    let (range, index) = if l.sm51() {
        let id = L::imm_index(o, 0)?;
        let r = l.res.list.iter().find(|x| x.class == class && x.id == id).cloned();
        let r = r.ok_or_else(|| LowerError::Malformed(format!("{class:?} range {id} is not declared")))?;
        let ix = o.index.get(1).ok_or_else(|| LowerError::Malformed("a 5.1 resource without its register".into()))?;
        if ix.rel.is_none() && !(u64::from(r.lower)..=u64::from(r.upper)).contains(&ix.imm) {
            return bad(format!("register {} outside range {id} [{}:{}]", ix.imm, r.lower, r.upper));
        }
        let i = l.index(ix)?;
        (r, i)
    } else {
        let reg = L::imm_index(o, 0)?;
        let r = l.res.list.iter().find(|x| x.class == class && x.lower == reg).cloned();
        let r = r.ok_or_else(|| LowerError::Malformed(format!("{class:?} register {reg} is not declared")))?;
        (r, l.ci(reg))
    };
    let id = l.ci(range.id);
    let nu = l.c(Scalar::Bool, u64::from(o.non_uniform));
    let h = l.dx(Dx::CreateHandle(class), vec![id, index, nu], Type::Handle);
    Ok((h, range))
}

/// Row `o` of a constant buffer operand (`cb#[row]`; 5.1: `CB#[reg][row]`) as four `i32`s.
pub(super) fn cbuffer_row(l: &mut L<'_>, o: &Operand) -> R<Value> {
    let (h, r) = handle(l, o)?;
    let ix =
        o.index.get(if l.sm51() { 2 } else { 1 }).ok_or_else(|| LowerError::Malformed("cb without a row".into()))?;
    if ix.rel.is_none() && ix.imm >= u64::from(r.rows) {
        return bad(format!("cb row {} past its {} rows", ix.imm, r.rows));
    }
    let row = l.index(ix)?;
    Ok(l.dx(Dx::CBufferLoadLegacy, vec![h, row], Type::Agg([Scalar::I32; 4].into())))
}

/// The coordinates a resource of dimension `dim` takes.
fn coords(dim: u32) -> usize {
    match dim {
        1 | 2 | 11 | 12 => 1,
        3 | 4 | 7 => 2,
        10 => 4,
        _ => 3,
    }
}

fn res_ret() -> Type {
    Type::Agg([Scalar::I32, Scalar::I32, Scalar::I32, Scalar::I32, Scalar::I32].into())
}

fn fres_ret() -> Type {
    Type::Agg([Scalar::F32, Scalar::F32, Scalar::F32, Scalar::F32, Scalar::I32].into())
}

/// Writes the components of a 4-vector result, swizzled by the resource operand.
fn write_swizzled(l: &mut L<'_>, d: &Operand, res: &Operand, v: Value, s: Scalar) -> R<()> {
    let mask = L::dst_mask(d);
    let mut outs = Vec::new();
    for k in (0..4).filter(|k| mask & (1 << k) != 0) {
        let c = if res.comps == 4 { res.select.comp(k) } else { 0 };
        let x = l.extract(v, c as u32, s);
        outs.push((k, x));
    }
    for (k, x) in outs {
        l.write(d, k, x)?;
    }
    Ok(())
}

/// The word index into groupshared memory `g#` of a raw byte address or a structured
/// (index, byte offset) pair, and its pointer base and size.
fn tgsm_word(l: &mut L<'_>, g: &Operand, addr: &[Value; 4]) -> R<(Value, Value, u32)> {
    let n = L::imm_index(g, 0)?;
    let Some(&(_, base, stride, cells)) = l.res.tgsm.iter().find(|t| t.0 == n) else {
        return bad(format!("g{n} is not declared"));
    };
    let bytes = if stride == 0 {
        addr[0]
    } else {
        let s = l.ci(stride);
        let m = l.bin(BinOp::Mul, Scalar::I32, addr[0], s);
        l.bin(BinOp::Add, Scalar::I32, m, addr[1])
    };
    let two = l.ci(2);
    let w = l.bin(BinOp::LShr, Scalar::I32, bytes, two);
    Ok((w, base, cells))
}

fn tgsm_ptr(l: &mut L<'_>, base: Value, w: Value, k: usize) -> Value {
    l.emit(Op::PtrAdd { offset: k as i64, strides: Box::new([1]) }, vec![base, w], Type::Ptr(AddrSpace::Group))
}

fn atomic_op(opcode: u32) -> Option<AtomicOp> {
    Some(match opcode {
        169 | 181 => AtomicOp::And,
        170 | 182 => AtomicOp::Or,
        171 | 183 => AtomicOp::Xor,
        173 | 180 => AtomicOp::Add,
        174 | 186 => AtomicOp::Max,
        175 | 187 => AtomicOp::Min,
        176 | 188 => AtomicOp::UMax,
        177 | 189 => AtomicOp::UMin,
        184 => AtomicOp::Xchg,
        _ => return None,
    })
}

/// The coordinates of a UAV access: a raw byte address, a structured (index, offset), typed
/// coordinates; zeros past them.
fn uav_coords(l: &mut L<'_>, r: &Range, a: &[Value; 4]) -> [Value; 3] {
    let z = l.ci(0);
    let n = if r.dim == 12 { 2 } else { coords(r.dim).min(3) };
    [0, 1, 2].map(|k| if k < n { a[k] } else { z })
}

/// A resource instruction.
pub(super) fn lower(l: &mut L<'_>, inst: &Inst) -> R<()> {
    let ops = &inst.operands;
    let i32_ = Scalar::I32;
    match inst.opcode {
        // ld_raw / ld_structured: dest, address (index, offset), resource or g#.
        165 | 167 => {
            let (d, res) = (&ops[0], ops.last().ok_or_else(|| LowerError::Malformed("a resource".into()))?);
            let a = l.read(&ops[1], 1, Kind::Int)?[0];
            let off = if inst.opcode == 167 { l.read(&ops[2], 1, Kind::Int)?[0] } else { l.ci(0) };
            if res.ty == ty::TGSM {
                let (w, base, _) = tgsm_word(l, res, &[a, off, a, a])?;
                let mask = L::dst_mask(d);
                let mut outs = Vec::new();
                for k in (0..4).filter(|k| mask & (1 << k) != 0) {
                    let c = if res.comps == 4 { res.select.comp(k) } else { 0 };
                    let p = tgsm_ptr(l, base, w, c);
                    outs.push((k, l.emit(Op::Load(1), vec![p], Type::Scalar(i32_))));
                }
                for (k, v) in outs {
                    l.write(d, k, v)?;
                }
                return Ok(());
            }
            let (h, _) = handle(l, res)?;
            let v = l.dx(Dx::BufferLoad, vec![h, a, off], res_ret());
            write_swizzled(l, d, res, v, i32_)
        }
        // store_raw / store_structured: dest (resource or g#, its mask the components),
        // address (index, offset), value.
        166 | 168 => {
            let d = &ops[0];
            let mask = L::dst_mask(d);
            if mask == 0 || (mask & (mask + 1)) != 0 {
                return bad(format!("{}: the mask must be .x, .xy, .xyz or .xyzw", inst.name()));
            }
            let a = l.read(&ops[1], 1, Kind::Int)?[0];
            let (off, value) =
                if inst.opcode == 168 { (l.read(&ops[2], 1, Kind::Int)?[0], &ops[3]) } else { (l.ci(0), &ops[2]) };
            let v = l.read(value, mask, Kind::Int)?;
            if d.ty == ty::TGSM {
                let (w, base, _) = tgsm_word(l, d, &[a, off, a, a])?;
                for (k, x) in v.iter().enumerate().filter(|(k, _)| mask & (1 << k) != 0) {
                    let p = tgsm_ptr(l, base, w, k);
                    l.emit_void(Op::Store(1), vec![p, *x]);
                }
                return Ok(());
            }
            let (h, _) = handle(l, d)?;
            let m = l.ci(u32::from(mask));
            l.emit_void(Op::Dx(Dx::BufferStore), vec![h, a, off, v[0], v[1], v[2], v[3], m]);
            Ok(())
        }
        // ld_uav_typed dest, address, u#; ld dest, address, t# (mip in .w); ld_ms + sample.
        163 | 45 | 46 => {
            let (d, res) = (&ops[0], &ops[2]);
            let (h, r) = handle(l, res)?;
            let a = l.read(&ops[1], 0xF, Kind::Int)?;
            let z = l.ci(0);
            let v = if r.dim == 1 || r.dim == 11 || r.dim == 12 {
                l.dx(Dx::BufferLoad, vec![h, a[0], z], res_ret())
            } else {
                let n = coords(r.dim).min(3);
                let c: Vec<Value> = (0..3).map(|k| if k < n { a[k] } else { z }).collect();
                let mip = match inst.opcode {
                    45 => a[3],
                    46 => l.read(&ops[3], 1, Kind::Int)?[0],
                    _ => z,
                };
                let o: Vec<Value> = inst.offsets.iter().map(|&x| l.ci(x as i32 as u32)).collect();
                l.dx(Dx::TextureLoad, vec![h, mip, c[0], c[1], c[2], o[0], o[1], o[2]], res_ret())
            };
            write_swizzled(l, d, res, v, i32_)
        }
        // store_uav_typed u#, address, value: all four components.
        164 => {
            let (d, a, v) = (&ops[0], &ops[1], &ops[2]);
            let (h, r) = handle(l, d)?;
            let a = l.read(a, 0xF, Kind::Int)?;
            let v = l.read(v, 0xF, Kind::Int)?;
            let (z, m) = (l.ci(0), l.ci(0xF));
            if r.dim == 1 {
                l.emit_void(Op::Dx(Dx::BufferStore), vec![h, a[0], z, v[0], v[1], v[2], v[3], m]);
            } else {
                let n = coords(r.dim).min(3);
                let c: Vec<Value> = (0..3).map(|k| if k < n { a[k] } else { z }).collect();
                l.emit_void(Op::Dx(Dx::TextureStore), vec![h, c[0], c[1], c[2], v[0], v[1], v[2], v[3], m]);
            }
            Ok(())
        }
        // atomic_* dest(u# or g#), address, value (cmp_store: compare, value).
        169..=177 => {
            let d = &ops[0];
            let a = l.read(&ops[1], 0xF, Kind::Int)?;
            let cmp = inst.opcode == 172;
            let v = l.read(&ops[2], 1, Kind::Int)?[0];
            let v2 = if cmp { Some(l.read(&ops[3], 1, Kind::Int)?[0]) } else { None };
            atomic(l, inst, d, &a, v, v2).map(|_| ())
        }
        // imm_atomic_* dest, u# or g#, address, value (cmp_exch: compare, value).
        180..=189 => {
            let (d, res) = (&ops[0], &ops[1]);
            let a = l.read(&ops[2], 0xF, Kind::Int)?;
            let v = l.read(&ops[3], 1, Kind::Int)?[0];
            let v2 = if inst.opcode == 185 { Some(l.read(&ops[4], 1, Kind::Int)?[0]) } else { None };
            let old = atomic(l, inst, res, &a, v, v2)?;
            for k in (0..4).filter(|k| L::dst_mask(d) & (1 << k) != 0) {
                l.write(d, k, old)?;
            }
            Ok(())
        }
        178 | 179 => {
            let (d, res) = (&ops[0], &ops[1]);
            let (h, _) = handle(l, res)?;
            let delta = l.c(Scalar::I8, if inst.opcode == 178 { 1 } else { 0xFF });
            let old = l.dx(Dx::BufferUpdateCounter, vec![h, delta], Type::Scalar(i32_));
            // consume returns the count after the decrement: the slot it frees.
            for k in (0..4).filter(|k| L::dst_mask(d) & (1 << k) != 0) {
                l.write(d, k, old)?;
            }
            Ok(())
        }
        // bufinfo dest, resource: the element count (raw: bytes) in every component.
        121 => {
            let (d, res) = (&ops[0], &ops[1]);
            let (h, _) = handle(l, res)?;
            let z = l.ci(0);
            let dims = l.dx(Dx::GetDimensions, vec![h, z], Type::Agg([i32_; 4].into()));
            let n = l.extract(dims, 0, i32_);
            for k in (0..4).filter(|k| L::dst_mask(d) & (1 << k) != 0) {
                l.write(d, k, n)?;
            }
            Ok(())
        }
        // resinfo dest, mip, t#/u#: width, height, depth or array size, levels; as floats
        // (default), reciprocal floats (rcpFloat: not the levels) or uints.
        61 => {
            let (d, res) = (&ops[0], &ops[2]);
            let mip = l.read(&ops[1], 1, Kind::Int)?[0];
            let (h, r) = handle(l, res)?;
            let dims = l.dx(Dx::GetDimensions, vec![h, mip], Type::Agg([i32_; 4].into()));
            let mode = inst.controls() & 3;
            let n = coords(r.dim).min(3);
            let mut comps = Vec::new();
            for k in 0..4u32 {
                let mut v = l.extract(dims, k, i32_);
                if (k as usize) >= n && k < 3 {
                    v = l.ci(0);
                }
                let v = match mode {
                    2 => v,
                    m => {
                        let f = l.cast(crate::ir::op::CastOp::UIToFP, i32_, Scalar::F32, v);
                        let f = if m == 1 && k < 3 && (k as usize) < n {
                            let one = l.c(Scalar::F32, u64::from(1f32.to_bits()));
                            l.bin(BinOp::FDiv, Scalar::F32, one, f)
                        } else {
                            f
                        };
                        l.as_bits(f)
                    }
                };
                comps.push(v);
            }
            let mask = L::dst_mask(d);
            for k in (0..4).filter(|k| mask & (1 << k) != 0) {
                let c = if res.comps == 4 { res.select.comp(k) } else { 0 };
                l.write(d, k, comps[c])?;
            }
            Ok(())
        }
        // sample* dest, address, t#, s#, ...
        69..=74 => sample(l, inst),
        109 | 126..=128 => gather(l, inst),
        108 => {
            // lod dest, address, t#, s#: x clamped, y unclamped.
            let (d, a, t, s) = (&ops[0], &ops[1], &ops[2], &ops[3]);
            let (th, _) = handle(l, t)?;
            let (sh, _) = handle(l, s)?;
            let a = l.read(a, 0x7, Kind::Float)?;
            let c: Vec<Value> = a.iter().take(3).map(|v| l.as_f32(*v)).collect();
            let mut vals = Vec::new();
            for clamped in [true, false] {
                let b = l.c(Scalar::Bool, u64::from(clamped));
                vals.push(l.dx(Dx::CalculateLod, vec![th, sh, c[0], c[1], c[2], b], Type::Scalar(Scalar::F32)));
            }
            let z = l.c(Scalar::F32, 0);
            let v = [vals[0], vals[1], z, z];
            for k in (0..4).filter(|k| L::dst_mask(d) & (1 << k) != 0) {
                let c = if t.comps == 4 { t.select.comp(k) } else { 0 };
                l.write(d, k, v[c])?;
            }
            Ok(())
        }
        110 | 111 => multisample(l, inst),
        _ => unsupported(inst.name()),
    }
}

/// `samplepos dest, t#|rasterizer, index`: the vector (x, y, 0, 0) of sample `index`'s
/// position (offsets from the pixel center, in pixels; the standard patterns of the resource's
/// or the render targets' sample count; (0, 0) for an index past the count) and
/// `sampleinfo[_uint] dest, t#|rasterizer`: (count, 0, 0, 0) as floats, or uints with
/// `_uint`; each swizzled by the resource operand (D3D11.3 22.4.12, 22.4.13).
fn multisample(l: &mut L<'_>, inst: &Inst) -> R<()> {
    let (i32_, f32_) = (Scalar::I32, Scalar::F32);
    let (d, res) = (&inst.operands[0], &inst.operands[1]);
    let raster = res.ty == ty::RASTERIZER;
    let h = if raster {
        None
    } else {
        let (h, r) = handle(l, res)?;
        // Only resources ld2dms loads (the reference pages): Texture2DMS and its array.
        if res.ty != ty::RESOURCE || !matches!(r.dim, 4 | 9) {
            return bad(format!("{} of a resource that is not a multisampled texture", inst.name()));
        }
        Some(h)
    };
    let v: [Value; 4] = if inst.opcode == 110 {
        let i = l.read(&inst.operands[2], 1, Kind::Int)?[0];
        let pair = Type::Agg([f32_, f32_].into());
        let p = match h {
            None => l.dx(Dx::RenderTargetGetSamplePosition, vec![i], pair),
            Some(h) => l.dx(Dx::Texture2DMSGetSamplePosition, vec![h, i], pair),
        };
        let (x, y) = (l.extract(p, 0, f32_), l.extract(p, 1, f32_));
        let z = l.c(f32_, 0);
        [x, y, z, z].map(|v| l.as_bits(v))
    } else {
        let n = match h {
            None => l.dx(Dx::RenderTargetGetSampleCount, vec![], Type::Scalar(i32_)),
            Some(h) => {
                let z = l.ci(0);
                let dims = l.dx(Dx::GetDimensions, vec![h, z], Type::Agg([i32_; 4].into()));
                l.extract(dims, 3, i32_)
            }
        };
        let n = if inst.controls() & 3 == 1 {
            n
        } else {
            let f = l.cast(crate::ir::op::CastOp::UIToFP, i32_, f32_, n);
            l.as_bits(f)
        };
        let z = l.ci(0);
        [n, z, z, z]
    };
    for k in (0..4).filter(|k| L::dst_mask(d) & (1 << k) != 0) {
        let c = if res.comps == 4 { res.select.comp(k) } else { 0 };
        l.write(d, k, v[c])?;
    }
    Ok(())
}

/// An atomic on a UAV or groupshared memory; the old value.
fn atomic(l: &mut L<'_>, inst: &Inst, res: &Operand, a: &[Value; 4], v: Value, v2: Option<Value>) -> R<Value> {
    let i32_ = Scalar::I32;
    let op = atomic_op(inst.opcode);
    if res.ty == ty::TGSM {
        let (w, base, _) = tgsm_word(l, res, a)?;
        let p = tgsm_ptr(l, base, w, 0);
        return Ok(match (op, v2) {
            (_, Some(new)) => l.emit(Op::CmpXchg { pair: false, ty: i32_ }, vec![p, v, new], Type::Scalar(i32_)),
            (Some(op), None) => l.emit(Op::AtomicRmw(op, i32_), vec![p, v], Type::Scalar(i32_)),
            (None, None) => return bad("not an atomic"),
        });
    }
    let (h, r) = handle(l, res)?;
    let c = uav_coords(l, &r, a);
    Ok(match (op, v2) {
        (_, Some(new)) => l.dx(Dx::AtomicCompareExchange, vec![h, c[0], c[1], c[2], v, new], Type::Scalar(i32_)),
        (Some(op), None) => l.dx(Dx::AtomicBinOp(op), vec![h, c[0], c[1], c[2], v], Type::Scalar(i32_)),
        (None, None) => return bad("not an atomic"),
    })
}

/// `sample`, `sample_b`, `sample_l`, `sample_d`, `sample_c`, `sample_c_lz`.
fn sample(l: &mut L<'_>, inst: &Inst) -> R<()> {
    let ops = &inst.operands;
    let (d, a, t, s) = (&ops[0], &ops[1], &ops[2], &ops[3]);
    let (th, r) = handle(l, t)?;
    let (sh, _) = handle(l, s)?;
    let a = l.read(a, 0xF, Kind::Float)?;
    let n = coords(r.dim);
    let zf = l.c(Scalar::F32, 0);
    let mut args = vec![th, sh];
    for (k, &x) in a.iter().enumerate() {
        let v = if k < n { l.as_f32(x) } else { zf };
        args.push(v);
    }
    for &o in &inst.offsets {
        args.push(l.ci(o as i32 as u32));
    }
    let scalar = |l: &mut L<'_>, k: usize| -> R<Value> {
        let v = l.read(&ops[k], 1, Kind::Float)?[0];
        Ok(l.as_f32(v))
    };
    let kind = match inst.opcode {
        69 => {
            args.push(zf);
            SampleKind::Implicit
        }
        74 => {
            let b = scalar(l, 4)?;
            args.extend([b, zf]);
            SampleKind::Bias
        }
        72 => {
            let lod = scalar(l, 4)?;
            args.push(lod);
            SampleKind::Level
        }
        73 => {
            let (dx, dy) = (l.read(&ops[4], 0x7, Kind::Float)?, l.read(&ops[5], 0x7, Kind::Float)?);
            for v in dx.iter().take(3).chain(dy.iter().take(3)) {
                let f = l.as_f32(*v);
                args.push(f);
            }
            args.push(zf);
            SampleKind::Grad
        }
        70 => {
            let c = scalar(l, 4)?;
            args.extend([c, zf]);
            SampleKind::Cmp
        }
        _ => {
            let c = scalar(l, 4)?;
            args.push(c);
            SampleKind::CmpLevelZero
        }
    };
    let v = l.dx(Dx::Sample(kind), args, fres_ret());
    write_swizzled(l, d, t, v, Scalar::F32)
}

/// `gather4`, `gather4_c`, `gather4_po`, `gather4_po_c`: the sampler operand's selected
/// component is the channel.
fn gather(l: &mut L<'_>, inst: &Inst) -> R<()> {
    let ops = &inst.operands;
    let po = matches!(inst.opcode, 127 | 128);
    let (d, a, t) = (&ops[0], &ops[1], if po { &ops[3] } else { &ops[2] });
    let s = if po { &ops[4] } else { &ops[3] };
    let (th, r) = handle(l, t)?;
    let (sh, _) = handle(l, s)?;
    let a = l.read(a, 0xF, Kind::Float)?;
    let n = coords(r.dim);
    let zf = l.c(Scalar::F32, 0);
    let mut args = vec![th, sh];
    for (k, &x) in a.iter().enumerate() {
        let v = if k < n { l.as_f32(x) } else { zf };
        args.push(v);
    }
    if po {
        let o = l.read(&ops[2], 0x3, Kind::Int)?;
        args.extend([o[0], o[1]]);
    } else {
        let (u, v) = (l.ci(inst.offsets[0] as i32 as u32), l.ci(inst.offsets[1] as i32 as u32));
        args.extend([u, v]);
    }
    let channel = l.ci(s.select.comp(0) as u32);
    args.push(channel);
    let cmp = matches!(inst.opcode, 126 | 128);
    if cmp {
        let c = l.read(&ops[if po { 5 } else { 4 }], 1, Kind::Float)?[0];
        let c = l.as_f32(c);
        args.push(c);
    }
    let op = if cmp { Dx::TextureGatherCmp } else { Dx::TextureGather };
    let v = l.dx(op, args, fres_ret());
    write_swizzled(l, d, t, v, Scalar::F32)
}
