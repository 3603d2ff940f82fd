//! `RawBufferLoad` / `RawBufferStore` of 64-bit values (`Load<uint64_t>`, `Store<double2>`):
//! each value is two words, low first, the write mask naming values; `Load4<uint64_t>` spans
//! 32 bytes, two of the environment's four-word accesses.
//!
//! `RawBufferLoad` / `RawBufferStore` of 16-bit values (DXC's `-enable-16bit-types`:
//! `Load<half>`, `Store<uint16_t4>`, structured buffers of halves): each value is two bytes
//! of the buffer, where the 32-bit forms move whole words. The environment moves 32-bit words,
//! so a value is found within the word that holds it: at byte address `a` (a ByteAddressBuffer's
//! index, or a structured element's offset, whose elements start at multiples of 4: the
//! lowering refuses other strides), the word at `a & !3`, its high half when `a & 2`.
//!
//! Loads read the words and take their halves. Stores write the words whose two halves are
//! both written as words; a half alone is written by two atomic operations on its word, an AND
//! that clears its 16 bits and an OR that sets them, which leave the other half as it is even
//! while another thread writes it: no value but the stored ones changes, as D3D requires of
//! a 16-bit store.

use super::control::{each, Wave};
use super::env::{At, WaveEnv};
use super::program::XInst;
use super::R;
use crate::ir::Type;

/// DXIL's AtomicBinOp codes of the environment's `atomic`.
const AND: u32 = 1;
const OR: u32 = 2;

impl Wave<'_> {
    /// The word-aligned place of the first value of lane `l`'s access and the half it starts
    /// at (0 or 1): (index, offset) as the environment takes them.
    fn place16(&self, inst: &XInst, raw: bool, l: usize) -> (At, usize) {
        let (index, offset) = (self.arg(inst, 1, l) as u32, self.arg(inst, 2, l) as u32);
        let a = if raw { index } else { offset };
        let aligned = a & !3;
        let at = if raw { [aligned as i32, 0, 0] } else { [index as i32, aligned as i32, 0] };
        (at, ((a >> 1) & 1) as usize)
    }

    /// `RawBufferLoad16`: the values of each lane of `mask`, then the status slot (1).
    pub(crate) fn raw16_load(&mut self, raw: bool, inst: &XInst, mask: u128, env: &mut dyn WaveEnv) -> R<()> {
        let w = self.w;
        let (mut at, mut out) = (vec![[0i32; 3]; w], vec![[0u32; 4]; w]);
        let mut first = vec![0usize; w];
        let mut lanes = Vec::new();
        each(mask, w, |l| lanes.push(l));
        for &l in &lanes {
            let (place, half) = self.place16(inst, raw, l);
            at[l] = place;
            first[l] = half;
            env.buffer_load(1 << l, self.arg(inst, 0, l) as u32, &at, &mut out)?;
        }
        let Type::Agg(sc) = &inst.dst_ty else { return Ok(()) };
        let n = sc.len().min(4) as u32;
        for &l in &lanes {
            for c in 0..n {
                let j = first[l] + c as usize;
                let v = (out[l][j / 2] >> (16 * (j % 2))) & 0xFFFF;
                self.set(inst.dst + c, l, u64::from(v));
            }
            if sc.len() > 4 {
                self.set(inst.dst + 4, l, 1);
            }
        }
        Ok(())
    }

    /// `RawBufferStore16` of the values the write mask (operand 7) names, lane by lane in lane
    /// order.
    pub(crate) fn raw16_store(&mut self, raw: bool, inst: &XInst, mask: u128, env: &mut dyn WaveEnv) -> R<()> {
        let w = self.w;
        let write = inst.imm.get(7).copied().flatten().unwrap_or(0) as u8;
        let (mut at, mut words) = (vec![[0i32; 3]; w], vec![[0u32; 4]; w]);
        let (mut values, mut old) = (vec![0u32; w], vec![0u32; w]);
        let mut lanes = Vec::new();
        each(mask, w, |l| lanes.push(l));
        for &l in &lanes {
            let handle = self.arg(inst, 0, l) as u32;
            let (place, first) = self.place16(inst, raw, l);
            // The halves of (up to) three words from `place`: (written, bits) per half.
            let mut halves = [(false, 0u32); 6];
            for c in 0..4 {
                if write & (1 << c) != 0 {
                    halves[first + c] = (true, (self.arg(inst, 3 + c, l) & 0xFFFF) as u32);
                }
            }
            let mut whole = 0u8;
            words[l] = [0; 4];
            for m in 0..3 {
                let (lo, hi) = (halves[2 * m], halves[2 * m + 1]);
                if lo.0 && hi.0 {
                    whole |= 1 << m;
                    words[l][m] = lo.1 | hi.1 << 16;
                    continue;
                }
                for (part, (written, bits)) in [lo, hi].into_iter().enumerate() {
                    if !written {
                        continue;
                    }
                    let shift = 16 * part as u32;
                    at[l] = place;
                    at[l][if raw { 0 } else { 1 }] += 4 * m as i32;
                    values[l] = !(0xFFFF << shift);
                    env.atomic(1 << l, handle, AND, &at, &values, &mut old)?;
                    values[l] = bits << shift;
                    env.atomic(1 << l, handle, OR, &at, &values, &mut old)?;
                }
            }
            if whole != 0 {
                at[l] = place;
                env.buffer_store(1 << l, handle, &at, &words, whole)?;
            }
        }
        Ok(())
    }
}

impl Wave<'_> {
    /// The place 16 bytes past lane `l`'s (index, offset): the second four words of a 64-bit
    /// access.
    fn place64(&self, inst: &XInst, raw: bool, l: usize, second: bool) -> At {
        let (index, offset) = (self.arg(inst, 1, l) as u32, self.arg(inst, 2, l) as u32);
        let step = if second { 16 } else { 0 };
        if raw {
            [index.wrapping_add(step) as i32, 0, 0]
        } else {
            [index as i32, offset.wrapping_add(step) as i32, 0]
        }
    }

    /// `RawBufferLoad64`: values 0 and 1 from the first four words, 2 and 3 (when the load's
    /// mask, operand 3, asks for them) from the next four; then the status slot (1).
    pub(crate) fn raw64_load(&mut self, raw: bool, inst: &XInst, mask: u128, env: &mut dyn WaveEnv) -> R<()> {
        let w = self.w;
        let wants = inst.imm.get(3).copied().flatten().unwrap_or(0xF) as u8;
        let (mut at, mut out) = (vec![[0i32; 3]; w], vec![[[0u32; 4]; 2]; w]);
        let mut words = vec![[0u32; 4]; w];
        let mut lanes = Vec::new();
        each(mask, w, |l| lanes.push(l));
        for second in [false, true] {
            if second && wants & 0xC == 0 {
                break;
            }
            for &l in &lanes {
                at[l] = self.place64(inst, raw, l, second);
                env.buffer_load(1 << l, self.arg(inst, 0, l) as u32, &at, &mut words)?;
                out[l][usize::from(second)] = words[l];
            }
        }
        let Type::Agg(sc) = &inst.dst_ty else { return Ok(()) };
        let n = sc.len().min(4) as u32;
        for &l in &lanes {
            for c in 0..n {
                let w4 = out[l][c as usize / 2];
                let k = 2 * (c as usize % 2);
                self.set(inst.dst + c, l, u64::from(w4[k]) | u64::from(w4[k + 1]) << 32);
            }
            if sc.len() > 4 {
                self.set(inst.dst + 4, l, 1);
            }
        }
        Ok(())
    }

    /// `RawBufferStore64` of the values the write mask (operand 7) names: two words each.
    pub(crate) fn raw64_store(&mut self, raw: bool, inst: &XInst, mask: u128, env: &mut dyn WaveEnv) -> R<()> {
        let w = self.w;
        let write = inst.imm.get(7).copied().flatten().unwrap_or(0) as u8;
        let (mut at, mut words) = (vec![[0i32; 3]; w], vec![[0u32; 4]; w]);
        let mut lanes = Vec::new();
        each(mask, w, |l| lanes.push(l));
        for &l in &lanes {
            let handle = self.arg(inst, 0, l) as u32;
            for half in 0..2 {
                let mut m = 0u8;
                words[l] = [0; 4];
                for c in 0..2 {
                    let v = 2 * half + c;
                    if write & (1 << v) != 0 {
                        let x = self.arg(inst, 3 + v, l);
                        words[l][2 * c] = x as u32;
                        words[l][2 * c + 1] = (x >> 32) as u32;
                        m |= 0b11 << (2 * c);
                    }
                }
                if m != 0 {
                    at[l] = self.place64(inst, raw, l, half == 1);
                    env.buffer_store(1 << l, handle, &at, &words, m)?;
                }
            }
        }
        Ok(())
    }
}
