//! The dx.ops that reach outside the wave, through each lane's [`Env`] (inputs, outputs,
//! handles, constant buffers, textures, buffers, UAV atomics, system values, streams, hull
//! and domain shader state, discard), and the ones that read other lanes of a quad
//! (derivatives, implicit-LOD sampling), and the wave and quad intrinsics, which read other lanes
//! of the wave ([`super::wave`]). Calls go lane by lane in lane order; the first lane's error
//! stops the instruction.

use super::alu;
use super::control::{each, full, try_each, Wave};
use super::program::XInst;
use super::wave::{self, WaveOp};
use super::{bits_of, val_of, Env, EvalAt, ExecError, SampleMode, R};
use crate::ir::op::{Dx, EvalKind, SampleKind};
use crate::ir::{Scalar, Type};

/// The bits of a value an environment returned, read where it lies (moving it out of the
/// `Result` first copies it whole, a load that stalls on the callee's separate stores).
#[inline(always)]
fn got(r: R<super::Val>, s: Scalar) -> R<u64> {
    match r {
        Ok(ref v) => Ok(bits_of(v, s)),
        Err(e) => Err(e),
    }
}

/// A 32-bit word an environment returned, as the bits of a result slot of type `s` (float
/// words stay their bits: an f32 lane of a ResRet or CBufRet).
#[inline(always)]
fn word(w: u32, s: Scalar) -> u64 {
    match s {
        Scalar::F16 => u64::from(crate::dxil::exec::f32_to_half(f32::from_bits(w))),
        Scalar::F64 => f64::from(f32::from_bits(w)).to_bits(),
        s => s.mask(u64::from(w)),
    }
}

impl Wave<'_> {
    /// The four values of operand `k` in the quad of lane `l` (as f32), when the quad's four
    /// lanes all run this instruction; `None` otherwise (derivatives are then 0).
    fn quad(&self, inst: &XInst, k: usize, l: usize, mask: u128) -> Option<[f32; 4]> {
        let q = l & !3;
        if q + 3 >= self.w || (mask >> q) & 0xF != 0xF {
            return None;
        }
        Some([self.argf(inst, k, q), self.argf(inst, k, q + 1), self.argf(inst, k, q + 2), self.argf(inst, k, q + 3)])
    }

    /// (coarse d/dx, coarse d/dy, fine d/dx, fine d/dy) of operand `k` at lane `l`.
    fn derivs(&self, inst: &XInst, k: usize, l: usize, mask: u128) -> [f32; 4] {
        let Some(v) = self.quad(inst, k, l, mask) else { return [0.0; 4] };
        let i = l & 3;
        let fx = if i < 2 { v[1] - v[0] } else { v[3] - v[2] };
        let fy = if i & 1 == 0 { v[2] - v[0] } else { v[3] - v[1] };
        [v[1] - v[0], v[2] - v[0], fx, fy]
    }

    /// The coarse d/dx, d/dy of operands 2, 3, 4 (a sample's u, v, w) for each lane of a full
    /// quad of `mask`, into `out[l * 6 ..]` as (dx, dy) pairs; zeros elsewhere.
    fn coarse(&self, inst: &XInst, mask: u128, out: &mut [f32]) {
        for q in (0..self.w.saturating_sub(3)).step_by(4) {
            if (mask >> q) & 0xF != 0xF {
                continue;
            }
            for j in 0..3 {
                let a = |i| self.argf(inst, 2 + j, q + i);
                let v = [a(0), a(1), a(2), a(3)];
                let (dx, dy) = (v[1] - v[0], v[2] - v[0]);
                for i in 0..4 {
                    out[(q + i) * 6 + 2 * j] = dx;
                    out[(q + i) * 6 + 2 * j + 1] = dy;
                }
            }
        }
    }

    /// Operand `k` as a 32-bit lane a resource stores (floats as their f32 bits).
    fn lane_bits(&self, inst: &XInst, k: usize, l: usize) -> u32 {
        match inst.arg_ty.get(k) {
            Some(Scalar::F16) => self.argf(inst, k, l).to_bits(),
            _ => self.arg(inst, k, l) as u32,
        }
    }

    /// Operand `k` as the [`super::Val`] an environment takes.
    fn arg_val(&self, inst: &XInst, k: usize, l: usize) -> super::Val {
        match inst.arg_ty.get(k) {
            Some(&s) => val_of(self.arg(inst, k, l), s),
            None => super::Val::Undef,
        }
    }

    /// Writes the words of a ResRet / CBufRet to the result's slots (`status`: then a 1 in
    /// slot 4: every texel was mapped).
    fn words(&mut self, inst: &XInst, l: usize, w: &[u32; 4], status: bool) {
        let Type::Agg(sc) = &inst.dst_ty else { return };
        let (d, wd) = (inst.dst as usize, self.w);
        for (k, (&x, &s)) in w.iter().zip(sc.iter()).enumerate() {
            self.regs[(d + k) * wd + l] = match s {
                Scalar::F32 | Scalar::I32 => u64::from(x),
                s => word(x, s),
            };
        }
        if status && sc.len() > 4 {
            self.regs[(d + 4) * wd + l] = 1;
        }
    }

    /// Runs a dx.op; `true` for a group barrier that stops the lanes.
    pub(crate) fn dx(&mut self, dx: Dx, inst: &XInst, mask: u128, envs: &mut [&mut dyn Env]) -> R<bool> {
        if self.dx_compute(dx, inst, mask)? {
            return Ok(false);
        }
        let w = self.w;
        let u = |me: &Self, k: usize, l: usize| me.arg(inst, k, l);
        let i32_ = |me: &Self, k: usize, l: usize| me.arg(inst, k, l) as u32 as i32;
        let s0 = inst.dst_ty.slot(0);
        match dx {
            Dx::LoadInput { .. } | Dx::AttributeAtVertex => {
                // Signature element, row and column are constants but in rare shaders.
                let (sig, row, col) = (inst.imm[0], inst.imm[1], inst.imm[2]);
                try_each(mask, w, |l| {
                    let vertex = match dx {
                        Dx::LoadInput { vertex: false } => None,
                        _ => Some(u(self, 3, l) as u32),
                    };
                    let (sig, row, col) = (
                        sig.unwrap_or_else(|| u(self, 0, l)) as u32,
                        row.unwrap_or_else(|| u(self, 1, l)) as u32,
                        col.unwrap_or_else(|| u(self, 2, l)) as u8,
                    );
                    let v = got(envs[l].load_input(sig, row, col, vertex), s0)?;
                    self.set(inst.dst, l, v);
                    Ok(())
                })?
            }
            Dx::StoreOutput => {
                let (sig, row, col) = (inst.imm[0], inst.imm[1], inst.imm[2]);
                let ty = inst.arg_ty[3];
                try_each(mask, w, |l| {
                    let v = val_of(self.arg(inst, 3, l), ty);
                    let (sig, row, col) = (
                        sig.unwrap_or_else(|| u(self, 0, l)) as u32,
                        row.unwrap_or_else(|| u(self, 1, l)) as u32,
                        col.unwrap_or_else(|| u(self, 2, l)) as u8,
                    );
                    envs[l].store_output(sig, row, col, &v)
                })?
            }
            Dx::CreateHandle(class) => {
                let (range, index) = (inst.imm[0], inst.imm[1]);
                try_each(mask, w, |l| {
                    let (range, index) =
                        (range.unwrap_or_else(|| u(self, 0, l)) as u32, index.unwrap_or_else(|| u(self, 1, l)) as u32);
                    let h = envs[l].create_handle(class.dxil(), range, index)?;
                    self.set(inst.dst, l, u64::from(h));
                    Ok(())
                })?
            }
            Dx::CBufferLoadLegacy => try_each(mask, w, |l| {
                match envs[l].cbuffer_row(u(self, 0, l) as u32, u(self, 1, l) as u32) {
                    Ok(ref row) => self.words(inst, l, row, false),
                    Err(e) => return Err(e),
                }
                Ok(())
            })?,
            Dx::Sample(kind) => {
                // The quad's coarse derivatives of u, v, w, once per quad.
                let implicit = matches!(kind, SampleKind::Implicit | SampleKind::Bias | SampleKind::Cmp);
                let mut dd = std::mem::take(&mut self.tmpf);
                dd.clear();
                dd.resize(w * 6, 0.0);
                if implicit {
                    self.coarse(inst, mask, &mut dd);
                }
                let r = try_each(mask, w, |l| {
                    let f = |k| self.argf(inst, k, l);
                    let d = &dd[l * 6..l * 6 + 6];
                    let (qx, qy) = ([d[0], d[2], d[4]], [d[1], d[3], d[5]]);
                    let (mode, compare) = match kind {
                        SampleKind::Implicit => (SampleMode::Grad { ddx: qx, ddy: qy, bias: 0.0, clamp: f(9) }, None),
                        SampleKind::Bias => (SampleMode::Grad { ddx: qx, ddy: qy, bias: f(9), clamp: f(10) }, None),
                        SampleKind::Level => (SampleMode::Level(f(9)), None),
                        SampleKind::Grad => (
                            SampleMode::Grad {
                                ddx: [f(9), f(10), f(11)],
                                ddy: [f(12), f(13), f(14)],
                                bias: 0.0,
                                clamp: f(15),
                            },
                            None,
                        ),
                        SampleKind::Cmp => (SampleMode::Grad { ddx: qx, ddy: qy, bias: 0.0, clamp: f(10) }, Some(f(9))),
                        SampleKind::CmpLevelZero => (SampleMode::Level(0.0), Some(f(9))),
                    };
                    let coords = [f(2), f(3), f(4), f(5)];
                    let offset = [i32_(self, 6, l), i32_(self, 7, l), i32_(self, 8, l)];
                    match envs[l].sample(u(self, 0, l) as u32, u(self, 1, l) as u32, coords, offset, mode, compare) {
                        Ok(ref c) => {
                            self.words(inst, l, &[c[0].to_bits(), c[1].to_bits(), c[2].to_bits(), c[3].to_bits()], true)
                        }
                        Err(e) => return Err(e),
                    }
                    Ok(())
                });
                self.tmpf = dd;
                r?
            }
            Dx::TextureGather | Dx::TextureGatherCmp => try_each(mask, w, |l| {
                let f = |k| self.argf(inst, k, l);
                let compare = (dx == Dx::TextureGatherCmp).then(|| f(9));
                let c = envs[l].gather(
                    u(self, 0, l) as u32,
                    u(self, 1, l) as u32,
                    [f(2), f(3), f(4), f(5)],
                    [i32_(self, 6, l), i32_(self, 7, l)],
                    u(self, 8, l) as u32,
                    compare,
                )?;
                // Integer results carry the values themselves.
                for (k, x) in c.iter().enumerate() {
                    let s = inst.dst_ty.slot(k as u32);
                    let v = if s.is_float() { alu::from_f32(s, *x) } else { s.mask(u64::from(*x as i64 as u32)) };
                    self.set(inst.dst + k as u32, l, v);
                }
                if inst.dst_ty.slots() > 4 {
                    self.set(inst.dst + 4, l, 1);
                }
                Ok(())
            })?,
            Dx::CalculateLod => try_each(mask, w, |l| {
                let f = |k| self.argf(inst, k, l);
                let (mut qx, mut qy) = ([0.0; 3], [0.0; 3]);
                for j in 0..3 {
                    let d = self.derivs(inst, 2 + j, l, mask);
                    (qx[j], qy[j]) = (d[0], d[1]);
                }
                let lod = envs[l].calculate_lod(
                    u(self, 0, l) as u32,
                    u(self, 1, l) as u32,
                    [f(2), f(3), f(4)],
                    qx,
                    qy,
                    u(self, 5, l) & 1 != 0,
                )?;
                self.set(inst.dst, l, alu::from_f32(s0, lod));
                Ok(())
            })?,
            Dx::TextureLoad => try_each(mask, w, |l| {
                let i = |k| i32_(self, k, l);
                let r = envs[l].texture_load(
                    u(self, 0, l) as u32,
                    u(self, 1, l) as u32,
                    [i(2), i(3), i(4)],
                    [i(5), i(6), i(7)],
                )?;
                self.words(inst, l, &r, true);
                Ok(())
            })?,
            Dx::TextureStore => try_each(mask, w, |l| {
                let i = |k| i32_(self, k, l);
                let b = |k| self.lane_bits(inst, k, l);
                let v = [b(4), b(5), b(6), b(7)];
                envs[l].texture_store(u(self, 0, l) as u32, [i(1), i(2), i(3)], v, u(self, 8, l) as u8)
            })?,
            Dx::BufferLoad | Dx::RawBufferLoad => try_each(mask, w, |l| {
                let r = envs[l].buffer_load(u(self, 0, l) as u32, u(self, 1, l) as u32, u(self, 2, l) as u32)?;
                self.words(inst, l, &r, true);
                Ok(())
            })?,
            Dx::BufferStore | Dx::RawBufferStore => try_each(mask, w, |l| {
                let b = |k| self.lane_bits(inst, k, l);
                let v = [b(3), b(4), b(5), b(6)];
                envs[l].buffer_store(
                    u(self, 0, l) as u32,
                    u(self, 1, l) as u32,
                    u(self, 2, l) as u32,
                    v,
                    u(self, 7, l) as u8,
                )
            })?,
            Dx::BufferUpdateCounter => try_each(mask, w, |l| {
                let delta = if u(self, 1, l) as u8 as i8 >= 0 { 1 } else { -1 };
                let v = envs[l].update_counter(u(self, 0, l) as u32, delta)?;
                self.set(inst.dst, l, u64::from(v));
                Ok(())
            })?,
            Dx::GetDimensions => try_each(mask, w, |l| {
                let d = envs[l].dimensions(u(self, 0, l) as u32, u(self, 1, l) as u32)?;
                for (k, x) in d.iter().enumerate() {
                    self.set(inst.dst + k as u32, l, u64::from(*x));
                }
                Ok(())
            })?,
            Dx::Texture2DMSGetSamplePosition => try_each(mask, w, |l| {
                let samples = envs[l].dimensions(u(self, 0, l) as u32, 0)?[3];
                let index = u(self, 1, l) as u32 as usize;
                let (x, y) = rd3d12_core::multisample::standard_sample_positions(samples)
                    .and_then(|p| p.get(index))
                    .map_or((0.0, 0.0), |&(x, y)| (f32::from(x) / 16.0, f32::from(y) / 16.0));
                self.set(inst.dst, l, alu::from_f32(inst.dst_ty.slot(0), x));
                self.set(inst.dst + 1, l, alu::from_f32(inst.dst_ty.slot(1), y));
                Ok(())
            })?,
            Dx::RenderTargetGetSamplePosition => try_each(mask, w, |l| {
                let [x, y] = envs[l].sample_position(u(self, 0, l) as u32)?;
                self.set(inst.dst, l, alu::from_f32(inst.dst_ty.slot(0), x));
                self.set(inst.dst + 1, l, alu::from_f32(inst.dst_ty.slot(1), y));
                Ok(())
            })?,
            Dx::RenderTargetGetSampleCount => try_each(mask, w, |l| {
                let n = envs[l].sample_count()?;
                self.set(inst.dst, l, u64::from(n));
                Ok(())
            })?,
            Dx::AtomicBinOp(op) => try_each(mask, w, |l| {
                let i = |k| i32_(self, k, l);
                let code = op.dxil().unwrap_or(0);
                let v = envs[l].atomic(u(self, 0, l) as u32, code, [i(1), i(2), i(3)], u(self, 4, l) as u32)?;
                self.set(inst.dst, l, s0.mask(u64::from(v)));
                Ok(())
            })?,
            Dx::AtomicCompareExchange => try_each(mask, w, |l| {
                let i = |k| i32_(self, k, l);
                let v = envs[l].atomic_cmpxchg(
                    u(self, 0, l) as u32,
                    [i(1), i(2), i(3)],
                    u(self, 4, l) as u32,
                    u(self, 5, l) as u32,
                )?;
                self.set(inst.dst, l, s0.mask(u64::from(v)));
                Ok(())
            })?,
            Dx::Barrier { group_sync } => return Ok(group_sync && self.grouped),
            Dx::Discard => try_each(mask, w, |l| {
                if u(self, 0, l) & 1 != 0 {
                    envs[l].discard()?;
                    self.helpers |= 1 << l;
                }
                Ok(())
            })?,
            Dx::Deriv(kind) => {
                let d = inst.dst;
                let mut vals = [0f32; super::MAX_WAVE];
                each(mask, w, |l| vals[l] = self.derivs(inst, 0, l, mask)[kind as usize]);
                each(mask, w, |l| self.set(d, l, alu::from_f32(s0, vals[l])));
            }
            Dx::Eval(kind) => try_each(mask, w, |l| {
                let four = |v: u64| ((v as i32) << 28) >> 28;
                let at = match kind {
                    EvalKind::Snapped => EvalAt::Snapped(four(u(self, 3, l)), four(u(self, 4, l))),
                    EvalKind::SampleIndex => EvalAt::Sample(u(self, 3, l) as u32),
                    EvalKind::Centroid => EvalAt::Centroid,
                };
                let v = envs[l].eval_input(u(self, 0, l) as u32, u(self, 1, l) as u32, u(self, 2, l) as u8, at);
                self.set(inst.dst, l, got(v, s0)?);
                Ok(())
            })?,
            Dx::SysValue(sv) => try_each(mask, w, |l| {
                let v = envs[l].system_value(sv.opcode(), u(self, 0, l) as u32)?;
                self.set(inst.dst, l, s0.mask(u64::from(v)));
                Ok(())
            })?,
            Dx::EmitStream => try_each(mask, w, |l| envs[l].emit_stream(u(self, 0, l) as u32))?,
            Dx::CutStream => try_each(mask, w, |l| envs[l].cut_stream(u(self, 0, l) as u32))?,
            Dx::EmitThenCutStream => try_each(mask, w, |l| {
                envs[l].emit_stream(u(self, 0, l) as u32)?;
                envs[l].cut_stream(u(self, 0, l) as u32)
            })?,
            Dx::LoadOutputControlPoint => try_each(mask, w, |l| {
                let v = envs[l].load_output_control_point(
                    u(self, 0, l) as u32,
                    u(self, 1, l) as u32,
                    u(self, 2, l) as u8,
                    u(self, 3, l) as u32,
                )?;
                self.set(inst.dst, l, bits_of(&v, s0));
                Ok(())
            })?,
            Dx::LoadPatchConstant => try_each(mask, w, |l| {
                let v = envs[l].load_patch_constant(u(self, 0, l) as u32, u(self, 1, l) as u32, u(self, 2, l) as u8);
                self.set(inst.dst, l, got(v, s0)?);
                Ok(())
            })?,
            Dx::DomainLocation => try_each(mask, w, |l| {
                let v = envs[l].domain_location(u(self, 0, l) as u32)?;
                self.set(inst.dst, l, alu::from_f32(s0, v));
                Ok(())
            })?,
            Dx::StorePatchConstant => try_each(mask, w, |l| {
                let v = self.arg_val(inst, 3, l);
                envs[l].store_patch_constant(u(self, 0, l) as u32, u(self, 1, l) as u32, u(self, 2, l) as u8, &v)
            })?,
            // Every operation the IR has runs above or in `dx_compute`.
            other => return Err(ExecError::Unsupported(format!("dx.op {} ({})", other.opcode(), other.name()))),
        }
        Ok(false)
    }

    /// A wave or quad intrinsic for the lanes of `mask` ([`wave::eval`]): the lanes running
    /// it are the active ones, the wave's helper lanes get results but take no part (quad
    /// reads read them), lanes from `w` to [`Wave::lanes`] are inactive.
    pub(crate) fn wave_op(&mut self, op: WaveOp, ty: Scalar, inst: &XInst, mask: u128) -> R<()> {
        let (w, wi) = (self.w, self.lanes as usize);
        let lanes = wave::Lanes::new(self.lanes, mask & full(w), self.helpers)
            .ok_or_else(|| ExecError::Malformed(format!("a wave of {} lanes", self.lanes)))?;
        let (n, results) = (op.lane_operands().min(inst.args.len()), op.results());
        let mut buf = std::mem::take(&mut self.tmp);
        buf.clear();
        buf.resize(wi * (n + results), 0);
        // A wave has at most 128 lanes (`w <= wi`); `min` keeps a larger one from indexing past.
        let held = w.min(wi);
        for k in 0..n {
            let s = inst.args[k] as usize * w;
            buf[k * wi..k * wi + held].copy_from_slice(&self.regs[s..s + held]);
        }
        let (ins, out) = buf.split_at_mut(n * wi);
        let args = [ins.get(..wi).unwrap_or(&[]), ins.get(wi..).unwrap_or(&[])];
        wave::eval(op, ty, &lanes, &args[..n], out);
        let d = inst.dst as usize;
        for c in 0..results.min(inst.dst_ty.slots() as usize) {
            let s = inst.dst_ty.slot(c as u32);
            each(mask, w, |l| self.regs[(d + c) * w + l] = s.mask(out[c * wi + l]));
        }
        self.tmp = buf;
        Ok(())
    }
}
