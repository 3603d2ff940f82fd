//! The dx.ops that reach outside the wave, through each lane's [`Env`] (inputs, outputs,
//! handles, constant buffers, textures, buffers, UAV atomics, system values, streams, hull
//! and domain shader state, discard), and the ones that read other lanes of a quad
//! (derivatives, implicit-LOD sampling), and the wave and quad intrinsics, which read other lanes
//! of the wave ([`super::wave`]). Calls go lane by lane in lane order; the first lane's error
//! stops the instruction.

use super::alu;
use super::control::{each, full, Wave};
use super::env::{At, GatherReq, LodReq, SampleReq, WaveEnv};
use super::program::XInst;
use super::wave::{self, WaveOp};
use super::{EvalAt, ExecError, SampleMode, R};
use crate::ir::op::{Dx, EvalKind, SampleKind};
use crate::ir::{Scalar, Type};

/// A 32-bit word an environment returned, as the bits of a result slot of type `s` (float
/// words stay their bits: an f32 lane of a ResRet or CBufRet).
#[inline(always)]
fn word(w: u32, s: Scalar) -> u64 {
    match s {
        Scalar::F16 => u64::from(alu::f32_to_half(f32::from_bits(w))),
        Scalar::F64 => f64::from(f32::from_bits(w)).to_bits(),
        s => s.mask(u64::from(w)),
    }
}

/// The most operands an [`Operands`] reads.
const MAX_OPERANDS: usize = 20;

/// Where each operand of an instruction lies in the registers, looked up once per instruction
/// rather than once per lane and operand.
struct Operands<'r> {
    regs: &'r [u64],
    /// Each operand's first register (`usize::MAX`: none) and type (SampleCmpGrad has 17).
    at: [(usize, Scalar); MAX_OPERANDS],
}

impl<'r> Operands<'r> {
    fn new(wave: &'r Wave<'_>, inst: &XInst) -> Self {
        let mut at = [(usize::MAX, Scalar::I32); MAX_OPERANDS];
        for (k, (&a, &t)) in inst.args.iter().zip(inst.arg_ty.iter()).enumerate().take(MAX_OPERANDS) {
            at[k] = (a as usize * wave.w, t);
        }
        Operands { regs: &wave.regs, at }
    }

    /// The register row of operand `k` (`w` lanes) when it is an f32, for loops that read
    /// it lane after lane without looking at its type each time.
    #[inline(always)]
    fn f32_row(&self, k: usize, w: usize) -> Option<&'r [u64]> {
        match self.at.get(k) {
            Some(&(r, Scalar::F32)) if r != usize::MAX => self.regs.get(r..r + w),
            _ => None,
        }
    }

    /// Operand `k` of lane `l` (0 when the operation has fewer).
    #[inline(always)]
    fn u(&self, k: usize, l: usize) -> u64 {
        let Some(&(r, _)) = self.at.get(k) else { return 0 };
        if r == usize::MAX {
            0
        } else {
            self.regs[r + l]
        }
    }

    #[inline(always)]
    fn i(&self, k: usize, l: usize) -> i32 {
        self.u(k, l) as u32 as i32
    }

    /// Operand `k` read as an f32.
    #[inline(always)]
    fn f(&self, k: usize, l: usize) -> f32 {
        self.at.get(k).map_or(0.0, |a| alu::to_f32(a.1, self.u(k, l)))
    }

    /// Operand `k` as a 32-bit lane a resource stores (floats as their f32 bits).
    #[inline(always)]
    fn bits(&self, k: usize, l: usize) -> u32 {
        match self.at.get(k).map_or(Scalar::I32, |a| a.1) {
            Scalar::F16 => self.f(k, l).to_bits(),
            _ => self.u(k, l) as u32,
        }
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

    /// Writes the words of a ResRet / CBufRet of each lane of `mask` to the result's slots
    /// (`status`: then a 1 in slot 4: every texel was mapped), slot by slot.
    fn words(&mut self, inst: &XInst, mask: u128, out: &[[u32; 4]], status: bool) {
        let Type::Agg(sc) = &inst.dst_ty else { return };
        let (d, w) = (inst.dst as usize, self.w);
        // Both cut to the wave's width, so that the lane loops need no bounds checks.
        let out = &out[..w.min(out.len())];
        let w = out.len();
        for (k, &s) in sc.iter().enumerate().take(4) {
            let row = &mut self.regs[(d + k) * w..(d + k + 1) * w];
            match s {
                Scalar::F32 | Scalar::I32 if mask & full(w) == full(w) => {
                    row.iter_mut().zip(out).for_each(|(r, o)| *r = u64::from(o[k]))
                }
                Scalar::F32 | Scalar::I32 => each(mask, w, |l| row[l] = u64::from(out[l][k])),
                s => each(mask, w, |l| row[l] = word(out[l][k], s)),
            }
        }
        if status && sc.len() > 4 {
            let row = &mut self.regs[(d + 4) * w..(d + 5) * w];
            each(mask, w, |l| row[l] = 1);
        }
    }

    /// Runs a dx.op; `true` for a group barrier that stops the lanes.
    pub(crate) fn dx(&mut self, dx: Dx, inst: &XInst, mask: u128, env: &mut dyn WaveEnv) -> R<bool> {
        if self.dx_compute(dx, inst, mask)? {
            return Ok(false);
        }
        let mut sc = self.scratch.take().unwrap_or_default();
        sc.fit(self.w);
        let r = self.dx_env(dx, inst, mask, env, &mut sc);
        self.scratch = Some(sc);
        r
    }

    fn dx_env(&mut self, dx: Dx, inst: &XInst, mask: u128, env: &mut dyn WaveEnv, sc: &mut Scratch) -> R<bool> {
        let w = self.w;
        let mask = mask & full(w);
        let s0 = inst.dst_ty.slot(0);
        let d = inst.dst as usize * w;
        let Scratch { u64s, u64s2, u32s, u32s2, pairs, at, w4, f4, f1, sreq, greq, lreq, evals, f2 } = sc;
        match dx {
            Dx::LoadInput { .. } | Dx::AttributeAtVertex => {
                let vertex = !matches!(dx, Dx::LoadInput { vertex: false });
                if vertex {
                    each(mask, w, |l| u64s2[l] = self.arg(inst, 3, l));
                }
                self.groups(inst, mask, &[0, 1, 2], |g, k| {
                    env.load_input(g, place(k), vertex.then_some(&u64s2[..]), s0, u64s)
                })?;
                each(mask, w, |l| self.regs[d + l] = u64s[l]);
            }
            Dx::StoreOutput => {
                let ty = inst.arg_ty.get(3).copied().unwrap_or(Scalar::F32);
                each(mask, w, |l| u64s[l] = self.arg(inst, 3, l));
                self.groups(inst, mask, &[0, 1, 2], |g, k| env.store_output(g, place(k), ty, u64s))?;
            }
            Dx::CreateHandle(class) => {
                self.groups(inst, mask, &[0, 1], |g, k| {
                    env.create_handle(g, class.dxil(), k[0] as u32, k[1] as u32, u32s)
                })?;
                each(mask, w, |l| self.regs[d + l] = u64::from(u32s[l]));
            }
            Dx::CBufferLoad => {
                // The row holding the byte offset; the value at its bytes (8 bytes for a 64-bit
                // value, which an 8-aligned offset keeps within the row).
                let ops = Operands::new(self, inst);
                each(mask, w, |l| u32s[l] = ops.u(1, l) as u32);
                let bits = s0.bits();
                each(mask, w, |l| u32s2[l] = u32s[l] / 16);
                // One environment call per (handle, row) the lanes read.
                let mut left = mask & full(w);
                while left != 0 {
                    let l0 = left.trailing_zeros() as usize;
                    let (h, row) = (ops.u(0, l0), u32s2[l0]);
                    let mut g = 0u128;
                    each(left, w, |l| {
                        if ops.u(0, l) == h && u32s2[l] == row {
                            g |= 1 << l;
                        }
                    });
                    env.cbuffer_row(g, h as u32, row, w4)?;
                    left &= !g;
                }
                each(mask, w, |l| {
                    let off = u32s[l] % 16;
                    let word = |k: u32| u64::from(w4[l].get(k as usize).copied().unwrap_or(0));
                    let v = match bits {
                        64 => word(off / 4) | word(off / 4 + 1) << 32,
                        16 => (word(off / 4) >> (8 * (off % 4))) & 0xFFFF,
                        _ => word(off / 4),
                    };
                    self.regs[d + l] = s0.mask(v);
                });
            }
            Dx::CBufferLoadLegacy => {
                self.groups(inst, mask, &[0, 1], |g, k| env.cbuffer_row(g, k[0] as u32, k[1] as u32, w4))?;
                // A row is 16 bytes: four 32-bit values (CBufRet.f32 / .i32), eight 16-bit ones
                // (CBufRet.f16.8 / .i16.8, -enable-16bit-types), two 64-bit ones (CBufRet.f64 /
                // .i64), each at its own bytes of the row, lowest first. Four 16-bit values
                // (CBufRet.f16, min precision) are 32-bit values of the row, converted.
                match inst.dst_ty.slot(0).bits() {
                    16 if inst.dst_ty.slots() == 8 => each(mask, w, |l| {
                        for c in 0..inst.dst_ty.slots().min(8) {
                            let v = (w4[l][c as usize / 2] >> (16 * (c % 2))) & 0xFFFF;
                            self.regs[(d + c as usize * w) + l] = u64::from(v);
                        }
                    }),
                    64 => each(mask, w, |l| {
                        for c in 0..inst.dst_ty.slots().min(2) as usize {
                            let v = u64::from(w4[l][2 * c]) | u64::from(w4[l][2 * c + 1]) << 32;
                            self.regs[(d + c * w) + l] = v;
                        }
                    }),
                    _ => self.words(inst, mask, w4, false),
                }
            }
            Dx::Sample(_) | Dx::SampleCmpLevel | Dx::SampleCmpGrad | Dx::SampleCmpBias => {
                let ops = Operands::new(self, inst);
                // Which operands give the mode, hoisted out of the lane loop: (bias, clamp,
                // level, explicit gradients, compare) operand numbers, `NO` where absent.
                const NO: usize = usize::MAX;
                let (implicit, bias, clamp, level, grad, cmp) = match dx {
                    Dx::Sample(SampleKind::Implicit) => (true, NO, 9, NO, NO, NO),
                    Dx::Sample(SampleKind::Bias) => (true, 9, 10, NO, NO, NO),
                    Dx::Sample(SampleKind::Level) => (false, NO, NO, 9, NO, NO),
                    Dx::Sample(SampleKind::Grad) => (false, NO, 15, NO, 9, NO),
                    Dx::Sample(SampleKind::Cmp) => (true, NO, 10, NO, NO, 9),
                    Dx::SampleCmpLevel => (false, NO, NO, 10, NO, 9),
                    Dx::SampleCmpGrad => (false, NO, 16, NO, 10, 9),
                    Dx::SampleCmpBias => (true, 10, 11, NO, NO, 9),
                    // SampleCmpLevelZero.
                    _ => (false, NO, NO, NO, NO, 9),
                };
                let f = |k: usize, l: usize| if k == NO { 0.0 } else { ops.f(k, l) };
                // Coordinates operand by operand (f32 rows read straight), then the rest.
                for c in 0..4 {
                    match ops.f32_row(2 + c, w) {
                        Some(row) => each(mask, w, |l| sreq[l].coords[c] = f32::from_bits(row[l] as u32)),
                        None => each(mask, w, |l| sreq[l].coords[c] = ops.f(2 + c, l)),
                    }
                }
                // Operands that are constants (texel offsets, most biases, clamps and levels)
                // are decoded once, not per lane.
                let konst = |k: usize| inst.imm.get(k).copied().flatten();
                let ty = |k: usize| inst.arg_ty.get(k).copied().unwrap_or(Scalar::F32);
                let cf = |k: usize| if k == NO { Some(0.0) } else { konst(k).map(|v| alu::to_f32(ty(k), v)) };
                let offset = [6, 7, 8].map(|k| konst(k).map(|v| v as u32 as i32));
                let (bias_c, clamp_c, level_c) = (cf(bias), cf(clamp), cf(level));
                let fc = |c: Option<f32>, k: usize, l: usize| c.unwrap_or_else(|| f(k, l));
                each(mask, w, |l| {
                    let r = &mut sreq[l];
                    r.offset = [0, 1, 2].map(|j| offset[j].unwrap_or_else(|| ops.i(6 + j, l)));
                    r.compare = (cmp != NO).then(|| ops.f(cmp, l));
                    r.mode = if implicit || grad != NO {
                        let (ddx, ddy) = if grad != NO {
                            (
                                [f(grad, l), f(grad + 1, l), f(grad + 2, l)],
                                [f(grad + 3, l), f(grad + 4, l), f(grad + 5, l)],
                            )
                        } else {
                            // Filled in per quad below (zero for a lane whose quad is partial).
                            ([0.0; 3], [0.0; 3])
                        };
                        SampleMode::Grad { ddx, ddy, bias: fc(bias_c, bias, l), clamp: fc(clamp_c, clamp, l) }
                    } else {
                        SampleMode::Level(fc(level_c, level, l))
                    };
                });
                if implicit {
                    // The quad's coarse derivatives of u, v, w, once per full quad.
                    for q in (0..w.saturating_sub(3)).step_by(4) {
                        if (mask >> q) & 0xF != 0xF {
                            continue;
                        }
                        let c = |i: usize| sreq[q + i].coords;
                        let (c0, c1, c2) = (c(0), c(1), c(2));
                        let dx = [c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2]];
                        let dy = [c2[0] - c0[0], c2[1] - c0[1], c2[2] - c0[2]];
                        for r in &mut sreq[q..q + 4] {
                            if let SampleMode::Grad { ddx, ddy, .. } = &mut r.mode {
                                (*ddx, *ddy) = (dx, dy);
                            }
                        }
                    }
                }
                self.groups(inst, mask, &[0, 1], |g, k| env.sample(g, k[0] as u32, k[1] as u32, sreq, f4))?;
                each(mask, w, |l| w4[l] = f4[l].map(f32::to_bits));
                self.words(inst, mask, w4, true);
            }
            Dx::TextureGather | Dx::TextureGatherCmp => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| {
                    let f = |k| ops.f(k, l);
                    greq[l] = GatherReq {
                        coords: [f(2), f(3), f(4), f(5)],
                        offset: [ops.i(6, l), ops.i(7, l)],
                        channel: ops.u(8, l) as u32,
                        compare: (dx == Dx::TextureGatherCmp).then(|| f(9)),
                    };
                });
                self.groups(inst, mask, &[0, 1], |g, k| env.gather(g, k[0] as u32, k[1] as u32, greq, f4))?;
                each(mask, w, |l| {
                    // Integer results carry the values themselves.
                    for (k, x) in f4[l].iter().enumerate() {
                        let s = inst.dst_ty.slot(k as u32);
                        let v = if s.is_float() { alu::from_f32(s, *x) } else { s.mask(u64::from(*x as i64 as u32)) };
                        self.set(inst.dst + k as u32, l, v);
                    }
                    if inst.dst_ty.slots() > 4 {
                        self.set(inst.dst + 4, l, 1);
                    }
                });
            }
            Dx::CalculateLod => {
                each(mask, w, |l| {
                    let f = |k| self.argf(inst, k, l);
                    let (mut qx, mut qy) = ([0.0; 3], [0.0; 3]);
                    for j in 0..3 {
                        let d = self.derivs(inst, 2 + j, l, mask);
                        (qx[j], qy[j]) = (d[0], d[1]);
                    }
                    lreq[l] = LodReq { coords: [f(2), f(3), f(4)], ddx: qx, ddy: qy };
                });
                self.groups(inst, mask, &[0, 1, 5], |g, k| {
                    env.calculate_lod(g, k[0] as u32, k[1] as u32, lreq, k[2] & 1 != 0, f1)
                })?;
                each(mask, w, |l| self.regs[d + l] = alu::from_f32(s0, f1[l]));
            }
            Dx::TextureLoad => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| {
                    let i = |k| ops.i(k, l);
                    at[l] = [i(2).wrapping_add(i(5)), i(3).wrapping_add(i(6)), i(4).wrapping_add(i(7))];
                    u32s[l] = ops.u(1, l) as u32;
                });
                self.groups(inst, mask, &[0], |g, k| env.texture_load(g, k[0] as u32, at, u32s, w4))?;
                self.words(inst, mask, w4, true);
            }
            Dx::TextureStore => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| {
                    let b = |k| ops.bits(k, l);
                    at[l] = [ops.i(1, l), ops.i(2, l), ops.i(3, l)];
                    w4[l] = [b(4), b(5), b(6), b(7)];
                });
                self.groups(inst, mask, &[0, 8], |g, k| env.texture_store(g, k[0] as u32, at, w4, k[1] as u8))?;
            }
            Dx::RawBufferLoad16 { raw } => self.raw16_load(raw, inst, mask, env)?,
            Dx::RawBufferStore16 { raw } => self.raw16_store(raw, inst, mask, env)?,
            Dx::RawBufferLoad64 { raw } => self.raw64_load(raw, inst, mask, env)?,
            Dx::RawBufferStore64 { raw } => self.raw64_store(raw, inst, mask, env)?,
            Dx::BufferLoad | Dx::RawBufferLoad => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| at[l] = [ops.i(1, l), ops.i(2, l), 0]);
                self.groups(inst, mask, &[0], |g, k| env.buffer_load(g, k[0] as u32, at, w4))?;
                self.words(inst, mask, w4, true);
            }
            Dx::BufferStore | Dx::RawBufferStore => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| {
                    let b = |k| ops.bits(k, l);
                    at[l] = [ops.i(1, l), ops.i(2, l), 0];
                    w4[l] = [b(3), b(4), b(5), b(6)];
                });
                self.groups(inst, mask, &[0, 7], |g, k| env.buffer_store(g, k[0] as u32, at, w4, k[1] as u8))?;
            }
            Dx::BufferUpdateCounter => {
                self.groups(inst, mask, &[0, 1], |g, k| {
                    env.update_counter(g, k[0] as u32, if k[1] as u8 as i8 >= 0 { 1 } else { -1 }, u32s)
                })?;
                each(mask, w, |l| self.regs[d + l] = u64::from(u32s[l]));
            }
            Dx::GetDimensions => {
                self.groups(inst, mask, &[0, 1], |g, k| env.dimensions(g, k[0] as u32, k[1] as u32, w4))?;
                each(mask, w, |l| {
                    for (k, x) in w4[l].iter().enumerate() {
                        self.set(inst.dst + k as u32, l, u64::from(*x));
                    }
                });
            }
            Dx::Texture2DMSGetSamplePosition => {
                self.groups(inst, mask, &[0], |g, k| env.dimensions(g, k[0] as u32, 0, w4))?;
                each(mask, w, |l| {
                    let (samples, index) = (w4[l][3], self.arg(inst, 1, l) as u32 as usize);
                    let (x, y) = rd3d12_core::multisample::standard_sample_positions(samples)
                        .and_then(|p| p.get(index))
                        .map_or((0.0, 0.0), |&(x, y)| (f32::from(x) / 16.0, f32::from(y) / 16.0));
                    self.set(inst.dst, l, alu::from_f32(inst.dst_ty.slot(0), x));
                    self.set(inst.dst + 1, l, alu::from_f32(inst.dst_ty.slot(1), y));
                });
            }
            Dx::RenderTargetGetSamplePosition => {
                self.groups(inst, mask, &[0], |g, k| env.sample_position(g, k[0] as u32, f2))?;
                each(mask, w, |l| {
                    let [x, y] = f2[l];
                    self.set(inst.dst, l, alu::from_f32(inst.dst_ty.slot(0), x));
                    self.set(inst.dst + 1, l, alu::from_f32(inst.dst_ty.slot(1), y));
                });
            }
            Dx::RenderTargetGetSampleCount => {
                env.sample_count(mask & full(w), u32s)?;
                each(mask, w, |l| self.regs[d + l] = u64::from(u32s[l]));
            }
            Dx::AtomicBinOp(op) => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| {
                    at[l] = [ops.i(1, l), ops.i(2, l), ops.i(3, l)];
                    u32s2[l] = ops.u(4, l) as u32;
                });
                let code = op.dxil().unwrap_or(0);
                self.groups(inst, mask, &[0], |g, k| env.atomic(g, k[0] as u32, code, at, u32s2, u32s))?;
                each(mask, w, |l| self.regs[d + l] = s0.mask(u64::from(u32s[l])));
            }
            Dx::AtomicCompareExchange => {
                let ops = Operands::new(self, inst);
                each(mask, w, |l| {
                    at[l] = [ops.i(1, l), ops.i(2, l), ops.i(3, l)];
                    pairs[l] = [ops.u(4, l) as u32, ops.u(5, l) as u32];
                });
                self.groups(inst, mask, &[0], |g, k| env.atomic_cmpxchg(g, k[0] as u32, at, pairs, u32s))?;
                each(mask, w, |l| self.regs[d + l] = s0.mask(u64::from(u32s[l])));
            }
            Dx::Barrier { group_sync }
            | Dx::BarrierByMemoryType { group_sync }
            | Dx::BarrierByMemoryHandle { group_sync } => return Ok(group_sync && self.grouped),
            Dx::Discard => {
                let mut m = 0u128;
                each(mask, w, |l| m |= u128::from(self.arg(inst, 0, l) & 1) << l);
                if m != 0 {
                    env.discard(m)?;
                    self.helpers |= m;
                }
            }
            Dx::Deriv(kind) => {
                each(mask, w, |l| f1[l] = self.derivs(inst, 0, l, mask)[kind as usize]);
                each(mask, w, |l| self.regs[d + l] = alu::from_f32(s0, f1[l]));
            }
            Dx::Eval(kind) => {
                let four = |v: u64| ((v as i32) << 28) >> 28;
                each(mask, w, |l| {
                    evals[l] = match kind {
                        EvalKind::Snapped => EvalAt::Snapped(four(self.arg(inst, 3, l)), four(self.arg(inst, 4, l))),
                        EvalKind::SampleIndex => EvalAt::Sample(self.arg(inst, 3, l) as u32),
                        EvalKind::Centroid => EvalAt::Centroid,
                    }
                });
                self.groups(inst, mask, &[0, 1, 2], |g, k| env.eval_input(g, place(k), evals, s0, u64s))?;
                each(mask, w, |l| self.regs[d + l] = u64s[l]);
            }
            Dx::SysValue(sv) => {
                self.groups(inst, mask, &[0], |g, k| env.system_value(g, sv.opcode(), k[0] as u32, u32s))?;
                each(mask, w, |l| self.regs[d + l] = s0.mask(u64::from(u32s[l])));
            }
            Dx::EmitStream => self.groups(inst, mask, &[0], |g, k| env.emit_stream(g, k[0] as u32))?,
            Dx::CutStream => self.groups(inst, mask, &[0], |g, k| env.cut_stream(g, k[0] as u32))?,
            Dx::EmitThenCutStream => self.groups(inst, mask, &[0], |g, k| {
                env.emit_stream(g, k[0] as u32)?;
                env.cut_stream(g, k[0] as u32)
            })?,
            Dx::LoadOutputControlPoint => {
                each(mask, w, |l| u64s2[l] = self.arg(inst, 3, l));
                self.groups(inst, mask, &[0, 1, 2], |g, k| {
                    env.load_output_control_point(g, place(k), u64s2, s0, u64s)
                })?;
                each(mask, w, |l| self.regs[d + l] = u64s[l]);
            }
            Dx::LoadPatchConstant => {
                self.groups(inst, mask, &[0, 1, 2], |g, k| env.load_patch_constant(g, place(k), s0, u64s))?;
                each(mask, w, |l| self.regs[d + l] = u64s[l]);
            }
            Dx::DomainLocation => {
                self.groups(inst, mask, &[0], |g, k| env.domain_location(g, k[0] as u32, f1))?;
                each(mask, w, |l| self.regs[d + l] = alu::from_f32(s0, f1[l]));
            }
            Dx::StorePatchConstant => {
                let ty = inst.arg_ty.get(3).copied().unwrap_or(Scalar::F32);
                each(mask, w, |l| u64s[l] = self.arg(inst, 3, l));
                self.groups(inst, mask, &[0, 1, 2], |g, k| env.store_patch_constant(g, place(k), ty, u64s))?;
            }
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
        let mut args: [&[u64]; 5] = [&[]; 5];
        for (k, a) in args.iter_mut().enumerate().take(n) {
            *a = ins.get(k * wi..(k + 1) * wi).unwrap_or(&[]);
        }
        wave::eval(op, ty, &lanes, &args[..n.min(5)], out);
        let d = inst.dst as usize;
        for c in 0..results.min(inst.dst_ty.slots() as usize) {
            let s = inst.dst_ty.slot(c as u32);
            each(mask, w, |l| self.regs[(d + c) * w + l] = s.mask(out[c * wi + l]));
        }
        self.tmp = buf;
        Ok(())
    }
}

/// A signature place (element, row, column) from the operands' values.
#[inline(always)]
fn place(k: [u64; 3]) -> (u32, u32, u8) {
    (k[0] as u32, k[1] as u32, k[2] as u8)
}

/// Per-lane operand and result arrays of the environment calls, kept with the wave.
#[derive(Default)]
pub(crate) struct Scratch {
    u64s: Vec<u64>,
    u64s2: Vec<u64>,
    u32s: Vec<u32>,
    u32s2: Vec<u32>,
    pairs: Vec<[u32; 2]>,
    at: Vec<At>,
    w4: Vec<[u32; 4]>,
    f4: Vec<[f32; 4]>,
    f1: Vec<f32>,
    f2: Vec<[f32; 2]>,
    sreq: Vec<SampleReq>,
    greq: Vec<GatherReq>,
    lreq: Vec<LodReq>,
    evals: Vec<EvalAt>,
}

impl Scratch {
    /// `w` rows of four words and `w` words, for the JIT's direct environment calls.
    pub(crate) fn words(&mut self, w: usize) -> (&mut [[u32; 4]], &mut [u32]) {
        self.fit(w);
        (&mut self.w4[..w], &mut self.u32s[..w])
    }

    /// Every array at least `w` long.
    fn fit(&mut self, w: usize) {
        if self.u64s.len() >= w {
            return;
        }
        self.u64s.resize(w, 0);
        self.u64s2.resize(w, 0);
        self.u32s.resize(w, 0);
        self.u32s2.resize(w, 0);
        self.pairs.resize(w, [0; 2]);
        self.at.resize(w, [0; 3]);
        self.w4.resize(w, [0; 4]);
        self.f4.resize(w, [0.0; 4]);
        self.f1.resize(w, 0.0);
        self.f2.resize(w, [0.0; 2]);
        self.sreq.resize(w, SampleReq::default());
        self.greq.resize(w, GatherReq::default());
        self.lreq.resize(w, LodReq::default());
        self.evals.resize(w, EvalAt::Centroid);
    }
}

impl Wave<'_> {
    /// Calls `f` once for each set of lanes of `mask` whose operands `ks` (up to three) hold the
    /// same values, with those values (in the order of the sets' lowest lanes): the wave
    /// environment takes one resource, one signature place per call. Operands that are
    /// constants are compared once, not per lane.
    #[inline(always)]
    fn groups(&self, inst: &XInst, mask: u128, ks: &[usize], mut f: impl FnMut(u128, [u64; 3]) -> R<()>) -> R<()> {
        let w = self.w;
        let mut key = [0u64; 3];
        // The register row of each operand that is not a constant.
        let mut rows = [usize::MAX; 3];
        for (j, &k) in ks.iter().enumerate().take(3) {
            match inst.imm.get(k).copied().flatten() {
                Some(v) => key[j] = v,
                None => rows[j] = inst.args.get(k).map_or(usize::MAX, |&a| a as usize * w),
            }
        }
        if mask == 0 {
            return Ok(());
        }
        // The common case: every lane holds the same values (a handle created once, a
        // constant row): one pass over each operand's registers, no sets.
        let l0 = mask.trailing_zeros() as usize;
        let everyone = mask == full(w);
        let mut uniform = true;
        for j in 0..3 {
            if rows[j] == usize::MAX {
                continue;
            }
            let row = &self.regs[rows[j]..rows[j] + w];
            let v = row[l0];
            key[j] = v;
            uniform &=
                if everyone { row.iter().all(|&x| x == v) } else { super::env::lanes(mask).all(|l| row[l] == v) };
        }
        if uniform {
            return f(mask, key);
        }
        let mut left = mask;
        while left != 0 {
            let l0 = left.trailing_zeros() as usize;
            for j in 0..3 {
                if rows[j] != usize::MAX {
                    key[j] = self.regs[rows[j] + l0];
                }
            }
            let mut g = 0u128;
            let mut m = left;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                if (0..3).all(|j| rows[j] == usize::MAX || self.regs[rows[j] + l] == key[j]) {
                    g |= 1 << l;
                }
                m &= m - 1;
            }
            f(g, key)?;
            left &= !g;
        }
        Ok(())
    }
}
