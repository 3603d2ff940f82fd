//! A wave's control flow: which lanes run next, branches and their phi copies, returns, the
//! step budget and the deadline, group barriers.
//!
//! Each lane is waiting at a (block, instruction) place, parked at a group barrier, or done.
//! The scheduler runs the waiting lanes whose place comes first (blocks in the structured
//! order, reverse post-order with each loop's blocks together, then instruction index) together under one mask: in structured code that is
//! every side of a divergent branch in turn, then the reconvergence point with all of them.

use super::env::WaveEnv;
use super::program::{Edge, Program, XBlock, XTerm};
use super::resources::Scratch;
use super::{deadline_passed, DEADLINE_EVERY, STEP_BUDGET};
use super::{ExecError, R};

/// Where a lane is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Pc {
    /// Waiting to run block `.0` from instruction `.1`.
    At(u32, u32),
    /// Stopped at a group barrier; resumes at the place.
    Parked(u32, u32),
    /// Returned.
    Done,
}

/// A wave: its lanes' registers, private memory and places.
pub struct Wave<'p> {
    pub(crate) p: &'p Program,
    /// Lanes.
    pub(crate) w: usize,
    /// The wave's size as wave operations see it (WaveGetLaneCount): a power of two from 4 to
    /// 128, at least `w` (a group's last wave, a lone vertex, may fill only some of its lanes).
    pub(crate) lanes: u32,
    /// Slot `s` of lane `l` at `s * w + l`.
    pub(crate) regs: Vec<u64>,
    /// Lane `l`'s private memory at `l * private_cells ..`.
    pub(crate) mem: Vec<u64>,
    pub(crate) pc: Vec<Pc>,
    /// Steps the wave has taken (each block run: its instructions and terminator, once for all
    /// the lanes running it; the budget is the wave's), and when the deadline was last looked
    /// at.
    wave_steps: u64,
    checked: u64,
    /// Helper lanes: those the environment said are, and those that discarded.
    pub(crate) helpers: u128,
    /// The wave belongs to a compute thread group: group barriers stop it.
    pub(crate) grouped: bool,
    /// Scratch for parallel copies.
    pub(crate) tmp: Vec<u64>,
    /// The per-lane arrays of environment calls (taken while a call runs).
    pub(crate) scratch: Option<Box<Scratch>>,
    /// The program's native code for this wave's width (`w`), when the JIT runs it.
    jit: Option<&'p crate::jit::Code>,
}

/// The buffers of a finished wave, for the next: a draw runs many small waves, and
/// allocating each one's showed in profiles.
struct Buffers {
    regs: Vec<u64>,
    mem: Vec<u64>,
    pc: Vec<Pc>,
    tmp: Vec<u64>,
    scratch: Option<Box<Scratch>>,
}

thread_local! {
    static POOL: std::cell::RefCell<Vec<Buffers>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Drop for Wave<'_> {
    fn drop(&mut self) {
        let b = Buffers {
            regs: std::mem::take(&mut self.regs),
            mem: std::mem::take(&mut self.mem),
            pc: std::mem::take(&mut self.pc),
            tmp: std::mem::take(&mut self.tmp),
            scratch: self.scratch.take(),
        };
        // try_with: a shader may run from a thread-local destructor, after the pool is gone.
        let _ = POOL.try_with(|p| {
            let mut p = p.borrow_mut();
            if p.len() < 16 {
                p.push(b);
            }
        });
    }
}

/// The wave size of a wave of `w` lanes: the power of two at or above it, 4 to 128.
fn lane_count(w: usize) -> u32 {
    use super::wave::{MAX_LANES, MIN_LANES};
    (w.min(MAX_LANES as usize) as u32).next_power_of_two().clamp(MIN_LANES, MAX_LANES)
}

/// The mask of lanes `0..w`.
#[inline(always)]
pub(crate) fn full(w: usize) -> u128 {
    if w >= 128 {
        u128::MAX
    } else {
        (1u128 << w) - 1
    }
}

/// Calls `f` for each lane of `mask` (below `w`), in lane order. One call site, so that the
/// lane body is inlined into the loop.
#[inline(always)]
pub(crate) fn each(mask: u128, w: usize, mut f: impl FnMut(usize)) {
    let mut m = mask & full(w);
    if m == full(w) {
        // Every lane (the common case): a plain loop.
        for l in 0..w {
            f(l);
        }
        return;
    }
    while m != 0 {
        f(m.trailing_zeros() as usize);
        m &= m - 1;
    }
}

/// [`each`] for a lane function that may fail: stops at the first lane's error.
#[inline(always)]
pub(crate) fn try_each(mask: u128, w: usize, mut f: impl FnMut(usize) -> R<()>) -> R<()> {
    let mut m = mask & full(w);
    while m != 0 {
        f(m.trailing_zeros() as usize)?;
        m &= m - 1;
    }
    Ok(())
}

impl<'p> Wave<'p> {
    /// A wave of `w` lanes about to run `p` from its entry.
    pub fn new(p: &'p Program, w: usize, grouped: bool) -> Wave<'p> {
        // Under the JIT the register file has the compiled width's lanes: those past `w` are
        // done from the start and never in a mask.
        let (live, jit) = (
            w,
            match crate::jit::mode() {
                crate::jit::Mode::Jit => p.jit.get(p, crate::jit::width_for(w)),
                crate::jit::Mode::Interp => None,
            },
        );
        let w = jit.map_or(w, |c| c.width);
        let b = POOL.try_with(|p| p.borrow_mut().pop()).ok().flatten();
        let Buffers { mut regs, mut mem, mut pc, tmp, scratch } = b.unwrap_or_else(|| Buffers {
            regs: Vec::new(),
            mem: Vec::new(),
            pc: Vec::new(),
            tmp: Vec::new(),
            scratch: None,
        });
        regs.clear();
        regs.resize(p.slots as usize * w, 0);
        for &(s, b) in p.consts.iter() {
            regs[s as usize * w..(s as usize + 1) * w].fill(b);
        }
        mem.clear();
        for _ in 0..w {
            mem.extend_from_slice(&p.private_init);
        }
        pc.clear();
        pc.resize(w, Pc::Done);
        pc[..live].fill(Pc::At(0, 0));
        Wave {
            p,
            w,
            lanes: lane_count(live),
            regs,
            mem,
            pc,
            wave_steps: 0,
            checked: 0,
            helpers: 0,
            grouped,
            tmp,
            scratch,
            jit,
        }
    }

    /// The same wave as one of `width` lanes of which only the first `w` run (the last wave of
    /// a group, a partial batch): what WaveGetLaneCount says and ballots span.
    pub fn with_lanes(mut self, width: usize) -> Wave<'p> {
        self.lanes = lane_count(width.max(self.w));
        self
    }

    /// The wave's steps and the count at which the deadline is looked at next (the JIT's
    /// share of the accounting).
    pub(crate) fn steps_state(&self) -> (u64, u64) {
        (self.wave_steps, self.checked + DEADLINE_EVERY)
    }

    /// Sets what [`Wave::steps_state`] reads.
    pub(crate) fn set_steps_state(&mut self, steps: u64, next_check: u64) {
        self.wave_steps = steps;
        self.checked = next_check.saturating_sub(DEADLINE_EVERY);
    }

    /// The helper lanes (bit `l` for lane `l`): what wave operations leave out.
    pub fn helpers(&self) -> u128 {
        self.helpers
    }

    /// Runs until every lane has returned (`true`) or the lanes not done are all parked at
    /// a group barrier (`false`; they resume at the next call).
    pub fn run(&mut self, env: &mut dyn WaveEnv, group: &mut [u64]) -> R<bool> {
        if self.wave_steps == 0 {
            self.helpers |= env.helpers() & full(self.w);
        }
        if let Some(code) = self.jit {
            return crate::jit::run(code, self, env, group);
        }
        for pc in self.pc.iter_mut() {
            if let Pc::Parked(b, i) = *pc {
                *pc = Pc::At(b, i);
            }
        }
        loop {
            let mut best = (u32::MAX, u32::MAX);
            let mut at = (0, 0);
            let mut mask = 0u128;
            for (l, pc) in self.pc.iter().enumerate() {
                if let Pc::At(b, i) = *pc {
                    let key = (self.p.order.get(b as usize).copied().unwrap_or(u32::MAX), i);
                    if key < best || mask == 0 {
                        best = key;
                        at = (b, i);
                        mask = 1 << l;
                    } else if key == best {
                        mask |= 1 << l;
                    }
                }
            }
            if mask == 0 {
                return Ok(!self.pc.iter().any(|p| matches!(p, Pc::Parked(..))));
            }
            // While the running lanes are all the waiting ones and branch together, the next
            // block is theirs: no scan.
            let alone = self.pc.iter().enumerate().all(|(l, p)| mask >> l & 1 != 0 || !matches!(p, Pc::At(..)));
            let mut next = self.run_block(at.0, at.1, mask, env, group)?;
            while let (true, Some(t)) = (alone, next) {
                next = self.run_block(t, 0, mask, env, group)?;
            }
        }
    }

    /// Runs block `b` from instruction `start` for the lanes of `mask`.
    /// `Some(t)` when every lane of `mask` went on to block `t` (a branch they took together).
    fn run_block(
        &mut self,
        b: u32,
        start: u32,
        mask: u128,
        env: &mut dyn WaveEnv,
        group: &mut [u64],
    ) -> R<Option<u32>> {
        let p = self.p;
        let block: &XBlock = p.blocks.get(b as usize).ok_or_else(|| ExecError::Malformed(format!("block {b}")))?;
        let n = (block.insts.len() as u64).saturating_sub(u64::from(start)) + 1;
        self.wave_steps += n;
        if self.wave_steps > STEP_BUDGET {
            return Err(ExecError::StepBudget);
        }
        if self.wave_steps - self.checked >= DEADLINE_EVERY {
            self.checked = self.wave_steps;
            if deadline_passed() {
                return Err(ExecError::Timeout);
            }
        }
        for (k, inst) in block.insts.iter().enumerate().skip(start as usize) {
            if self.exec(inst, mask, env, group)? {
                // A group barrier: these lanes wait for the rest of the group.
                each(mask, self.w, |l| self.pc[l] = Pc::Parked(b, k as u32 + 1));
                return Ok(None);
            }
        }
        match &block.term {
            XTerm::Ret => each(mask, self.w, |l| self.pc[l] = Pc::Done),
            XTerm::Br(e) => {
                self.take(e, mask)?;
                return Ok(Some(e.to));
            }
            XTerm::CondBr { cond, then, otherwise } => {
                let mut t = 0u128;
                let c = *cond as usize * self.w;
                each(mask, self.w, |l| {
                    if self.regs[c + l] & 1 != 0 {
                        t |= 1 << l;
                    }
                });
                if t != 0 {
                    self.take(then, t)?;
                }
                if mask & !t != 0 {
                    self.take(otherwise, mask & !t)?;
                }
                if t == mask {
                    return Ok(Some(then.to));
                }
                if t == 0 {
                    return Ok(Some(otherwise.to));
                }
            }
            XTerm::Switch { cond, default, cases } => {
                let c = *cond as usize * self.w;
                let mut left = mask;
                for (v, e) in cases.iter() {
                    let mut m = 0u128;
                    each(left, self.w, |l| {
                        if self.regs[c + l] == *v {
                            m |= 1 << l;
                        }
                    });
                    if m != 0 {
                        self.take(e, m)?;
                        left &= !m;
                    }
                }
                if left != 0 {
                    self.take(default, left)?;
                }
            }
            XTerm::Unreachable => return Err(ExecError::Malformed("reached `unreachable`".into())),
        }
        Ok(None)
    }

    /// The lanes of `mask` take edge `e`: its phi copies, read all before any is written.
    fn take(&mut self, e: &Edge, mask: u128) -> R<()> {
        if e.missing {
            return Err(ExecError::Malformed("phi without the predecessor".into()));
        }
        let w = self.w;
        if !e.copies.is_empty() && !e.overlap {
            // No copy reads what another writes: straight copies.
            for &(dst, src) in e.copies.iter() {
                let (d, s) = (dst as usize * w, src as usize * w);
                if mask == full(w) {
                    self.regs.copy_within(s..s + w, d);
                } else {
                    each(mask, w, |l| self.regs[d + l] = self.regs[s + l]);
                }
            }
        } else if !e.copies.is_empty() {
            let mut tmp = std::mem::take(&mut self.tmp);
            tmp.clear();
            for &(_, src) in e.copies.iter() {
                let s = src as usize * w;
                tmp.extend_from_slice(&self.regs[s..s + w]);
            }
            for (k, &(dst, _)) in e.copies.iter().enumerate() {
                let d = dst as usize * w;
                each(mask, w, |l| self.regs[d + l] = tmp[k * w + l]);
            }
            self.tmp = tmp;
        }
        each(mask, w, |l| self.pc[l] = Pc::At(e.to, 0));
        Ok(())
    }
}
