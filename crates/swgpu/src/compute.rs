//! One Dispatch in software: every thread group of the grid runs the compute shader's threads
//! through [`rd3d12_shader::interp::run_group_wave_envs`] (groupshared memory, barriers; waves
//! of the shader's `[WaveSize]` or the interpreter's default, each over one [`WaveEnv`]), with
//! the system
//! values of each thread (SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID,
//! SV_GroupIndex) and its resources reached through the same [`Bindings`] as the graphics
//! stages. Pure logic: the runtime resolves the root signature and descriptors.
//!
//! Thread groups are independent in D3D (nothing orders one group after another but UAV
//! atomics), so they are spread over the workers of [`crate::pool`]: each worker claims the
//! next group in the grid's order (x fastest, then y, then z) and runs it with thread
//! environments it keeps for all its groups. Results that do not depend on races between
//! groups are those of one thread, bit for bit; a failure is the one of the lowest group that
//! fails, as in the one-thread order; the GPU timeout of the calling thread
//! ([`interp::with_deadline`]) holds on every worker.

use crate::draw::{wave_resource_ops, Bindings, Class, DrawError, Handles};
use crate::pool;
use rd3d12_shader::dxil::metadata::{EntryPoint, Resource};
use rd3d12_shader::dxil::Program;
use rd3d12_shader::interp::env::{lanes, At, GatherReq, LodReq, SampleReq};
use rd3d12_shader::interp::ExecError;
use rd3d12_shader::interp::{self, Mask, WaveEnv};
use rd3d12_shader::ir::Scalar;
use std::cell::Cell;

/// The most threads a group may have (D3D12_CS_THREAD_GROUP_MAX_THREADS_PER_GROUP).
pub const MAX_THREADS_PER_GROUP: u32 = 1024;

/// What a dispatch did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DispatchStats {
    /// Thread groups run.
    pub groups: u64,
    /// Threads run (CSInvocations).
    pub threads: u64,
}

/// One wave's view: lanes `base..base + n` of the group's lane order ([`CsWave::thread_of`]:
/// flattened-id order, or 2x2 quads of thread IDs for groups of even X and Y). A worker keeps
/// one per wave of a group for all the groups it runs: only `group` changes (through the
/// worker's cell), and the handle table stays valid, since a handle names a register whatever
/// group creates it.
struct CsWave<'b> {
    group: &'b Cell<[u32; 3]>,
    /// Lane 0's place in the group's lane order.
    base: u32,
    size: [u32; 3],
    handles: Handles,
    resources: &'b [Resource],
    bindings: &'b dyn Bindings,
}

impl CsWave<'_> {
    /// Every lane of a compute wave has its side effects.
    fn writes(&self, m: Mask) -> Mask {
        m
    }

    /// The flattened thread id (SV_GroupIndex) of lane `l`: lane order is thread order, but
    /// for a 2-D or 3-D group whose X and Y are even, lanes 4k..4k + 3 are a 2x2 block of
    /// thread IDs (x, y), (x + 1, y), (x, y + 1), (x + 1, y + 1), blocks in row-major order
    /// within each z slice: the quads of shader model 6.6's compute derivatives (DirectX-Specs,
    /// "HLSL SM 6.6 Derivatives": with X and Y multiples of 2, a quad is a 2x2 block of the
    /// group; 1-D groups keep consecutive threads as quads).
    fn thread_of(&self, l: usize) -> u32 {
        let i = self.base + l as u32;
        let [x, y, _] = self.size;
        if y < 2 || x % 2 != 0 || y % 2 != 0 {
            return i;
        }
        let (quad, lane) = (i / 4, i % 4);
        let (bx, by) = (x / 2, y / 2);
        let (qx, qy, qz) = (quad % bx, quad / bx % by, quad / (bx * by));
        let (tx, ty) = (2 * qx + (lane & 1), 2 * qy + (lane >> 1));
        tx + x * (ty + y * qz)
    }
}

impl WaveEnv for CsWave<'_> {
    fn load_input(&mut self, _: Mask, _: (u32, u32, u8), _: Option<&[u64]>, _: Scalar, _: &mut [u64]) -> R<()> {
        Err(ExecError::Malformed("a compute shader has no input signature".into()))
    }
    fn store_output(&mut self, _: Mask, _: (u32, u32, u8), _: Scalar, _: &[u64]) -> R<()> {
        Err(ExecError::Malformed("a compute shader has no output signature".into()))
    }
    fn system_value(&mut self, m: Mask, opcode: u32, component: u32, out: &mut [u32]) -> R<()> {
        let c = component.min(2) as usize;
        let (group, size) = (self.group.get(), self.size);
        let thread = |l: usize| {
            let i = self.thread_of(l);
            [i % size[0], i / size[0] % size[1], i / (size[0] * size[1])]
        };
        match opcode {
            // ThreadId: SV_DispatchThreadID.
            93 => {
                let g = group[c].wrapping_mul(size[c]);
                lanes(m).for_each(|l| out[l] = g.wrapping_add(thread(l)[c]));
            }
            94 => lanes(m).for_each(|l| out[l] = group[c]),
            95 => lanes(m).for_each(|l| out[l] = thread(l)[c]),
            // FlattenedThreadIdInGroup: SV_GroupIndex.
            96 => lanes(m).for_each(|l| out[l] = self.thread_of(l)),
            _ => return Err(ExecError::Unsupported(format!("system value {opcode} in a compute shader"))),
        }
        Ok(())
    }
    wave_resource_ops!();
}

type R<T> = Result<T, ExecError>;

/// Below this much estimated work, a dispatch's groups all run on the calling thread: waking a
/// worker, and waiting for one that another process keeps off its core, would cost more.
pub const SPREAD_MIN: std::time::Duration = std::time::Duration::from_micros(500);

/// Runs `groups` thread groups (x, y, z) of the compute shader `entry` of `program` on the
/// process's workers ([`pool::threads`]). Group 0 runs first, here; the others are spread over
/// the workers when group 0's time says that they hold at least [`SPREAD_MIN`] of work, else
/// they run here too.
pub fn dispatch(
    program: &Program,
    entry: &EntryPoint,
    groups: [u32; 3],
    bindings: &dyn Bindings,
) -> Result<DispatchStats, DrawError> {
    run(pool::threads(), true, program, entry, groups, bindings)
}

/// [`dispatch`] on up to `threads` workers whatever the work (1: every group on the calling
/// thread, in order), for tests and benchmarks.
pub fn dispatch_on(
    threads: usize,
    program: &Program,
    entry: &EntryPoint,
    groups: [u32; 3],
    bindings: &dyn Bindings,
) -> Result<DispatchStats, DrawError> {
    run(threads, false, program, entry, groups, bindings)
}

/// [`dispatch`] (`measure`: group 0 first, and the rest spread only when worth it) and
/// [`dispatch_on`].
fn run(
    threads: usize,
    measure: bool,
    program: &Program,
    entry: &EntryPoint,
    groups: [u32; 3],
    bindings: &dyn Bindings,
) -> Result<DispatchStats, DrawError> {
    let module = &program.module;
    let func = module
        .functions
        .get(entry.function)
        .ok_or(DrawError::Shader(ExecError::Malformed("entry point function".into())))?;
    let size = entry.num_threads.ok_or(DrawError::Unsupported("a compute shader without numthreads"))?;
    let per_group = size.iter().map(|n| u64::from(*n)).product::<u64>();
    if per_group == 0 || per_group > u64::from(MAX_THREADS_PER_GROUP) {
        return Err(DrawError::Shader(ExecError::Malformed(format!("numthreads {size:?}"))));
    }
    // The group's waves: the shader's [WaveSize] or the interpreter's own size.
    let default = rd3d12_shader::interp::wave::DEFAULT_LANES;
    let lanes = entry.wave_size.map_or(default, |w| w.pick(default)) as usize;
    let resources = &program.dx.resources[..];
    let [nx, ny, nz] = groups.map(|n| n as usize);
    // At most 65535 per axis (the runtime's limit) fits in a usize on 64-bit hosts; a grid
    // that does not is refused rather than truncated.
    let total = nx
        .checked_mul(ny)
        .and_then(|n| n.checked_mul(nz))
        .ok_or(DrawError::Unsupported("a dispatch of more thread groups than the host can count"))?;
    let deadline = interp::current_deadline();
    let lowest = pool::Lowest::default();
    // One worker's loop over the groups `next` hands it, in increasing order, with thread
    // environments kept for all of them.
    let work = |next: &mut dyn FnMut() -> Option<usize>| {
        interp::with_deadline(deadline, || {
            let group = Cell::new([0u32; 3]);
            let mut waves: Vec<CsWave<'_>> = (0..per_group as u32)
                .step_by(lanes)
                .map(|base| CsWave { group: &group, base, size, handles: Handles::default(), resources, bindings })
                .collect();
            let counts: Vec<usize> = waves.iter().map(|w| (per_group as usize - w.base as usize).min(lanes)).collect();
            let mut refs: Vec<(&mut dyn WaveEnv, usize)> =
                waves.iter_mut().zip(counts).map(|(w, n)| (w as &mut dyn WaveEnv, n)).collect();
            while let Some(i) = next() {
                if lowest.passed(i) {
                    break;
                }
                group.set([(i % nx) as u32, (i / nx % ny) as u32, (i / (nx * ny)) as u32]);
                if let Err(e) = interp::run_group_wave_envs(module, func, &mut refs, lanes) {
                    lowest.fail(i, DrawError::from(e));
                }
            }
        })
    };
    // Group 0 alone first (when measuring): its time estimates the rest. Groups still start
    // in increasing order, so the lowest failure is still the one-thread order's.
    let first = usize::from(measure && threads > 1 && total > 1);
    let mut spread = threads > 1;
    if first == 1 {
        let start = std::time::Instant::now();
        let mut zero = Some(0);
        work(&mut || zero.take());
        let rest = u32::try_from(total - 1).unwrap_or(u32::MAX);
        spread = start.elapsed().saturating_mul(rest) >= SPREAD_MIN;
    }
    if spread {
        pool::workers(threads, total - first, |claim| work(&mut || claim.next().map(|i| i + first)));
    } else {
        let mut i = first;
        work(&mut || {
            i += 1;
            (i <= total).then_some(i - 1)
        });
    }
    lowest.into_result()?;
    Ok(DispatchStats { groups: total as u64, threads: total as u64 * per_group })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::Class;
    /// A Shared-like cell for test bindings, which must be Sync (workers share them).
    pub(crate) struct Shared<T>(std::sync::Mutex<T>);
    impl<T> Shared<T> {
        pub(crate) fn new(v: T) -> Self {
            Shared(std::sync::Mutex::new(v))
        }
        pub(crate) fn borrow(&self) -> std::sync::MutexGuard<'_, T> {
            self.0.lock().unwrap()
        }
        pub(crate) fn borrow_mut(&self) -> std::sync::MutexGuard<'_, T> {
            self.0.lock().unwrap()
        }
    }

    /// Raw buffers of 32-bit words by UAV register (space 0), and a constant buffer.
    struct Buffers {
        uavs: Shared<Vec<Vec<u32>>>,
        cb: [u32; 4],
        textures: Shared<Vec<[u32; 4]>>,
        width: u32,
    }

    impl Buffers {
        fn word(&self, reg: u32, byte: u32) -> u32 {
            self.uavs.borrow().get(reg as usize).and_then(|b| b.get((byte / 4) as usize)).copied().unwrap_or(0)
        }
    }

    impl Bindings for Buffers {
        fn cbuffer_row(&self, _space: u32, _register: u32, row: u32) -> [u32; 4] {
            if row == 0 {
                self.cb
            } else {
                [0; 4]
            }
        }
        fn buffer_load(&self, class: Class, b: (u32, u32), _stride: u32, index: u32, _offset: u32) -> [u32; 4] {
            assert_eq!(class, Class::Uav);
            std::array::from_fn(|k| self.word(b.1, index + 4 * k as u32))
        }
        fn buffer_store(&self, b: (u32, u32), _stride: u32, index: u32, _offset: u32, value: [u32; 4], mask: u8) {
            let mut u = self.uavs.borrow_mut();
            let buf = &mut u[b.1 as usize];
            for (k, v) in value.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    let at = (index / 4) as usize + k;
                    if at < buf.len() {
                        buf[at] = *v;
                    }
                }
            }
        }
        fn texture_store(&self, _uav: (u32, u32), c: [i32; 3], value: [u32; 4], mask: u8) {
            assert_eq!(mask, 0xF);
            self.textures.borrow_mut()[(c[1] as u32 * self.width + c[0] as u32) as usize] = value;
        }
        fn atomic(&self, b: (u32, u32), op: u32, c: [i32; 3], value: u32) -> u32 {
            assert_eq!(op, 0, "add");
            let mut u = self.uavs.borrow_mut();
            let cell = &mut u[b.1 as usize][(c[0] / 4) as usize];
            let old = *cell;
            *cell = old.wrapping_add(value);
            old
        }
    }

    fn program(bytes: &[u8]) -> rd3d12_shader::dxil::Program {
        rd3d12_shader::dxil::parse(bytes).expect("fixture parses")
    }

    fn buffers(uavs: Vec<Vec<u32>>) -> Buffers {
        Buffers { uavs: Shared::new(uavs), cb: [0; 4], textures: Shared::new(Vec::new()), width: 0 }
    }

    #[test]
    fn a_deadline_stops_an_endless_loop_and_spares_finite_work() {
        use rd3d12_shader::interp::{with_deadline, ExecError};
        use std::time::{Duration, Instant};
        // hang: loops while u0[0] == 0 (4 threads); over zeroed memory it never ends.
        let hang =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/hang.cs.dxil")));
        let b = buffers(vec![vec![0; 8]]);
        let start = Instant::now();
        let r = with_deadline(Some(start + Duration::from_millis(50)), || {
            dispatch(&hang, &hang.dx.entry_points[0], [1, 1, 1], &b)
        });
        assert_eq!(r, Err(DrawError::Shader(ExecError::Timeout)));
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
        // With u0[0] set the loop ends at once, and the deadline (far away) changes nothing.
        let b = buffers(vec![vec![1, 0xDEAD, 0xDEAD, 0xDEAD, 0xDEAD, 7, 7, 7]]);
        let r = with_deadline(Some(Instant::now() + Duration::from_secs(3600)), || {
            dispatch(&hang, &hang.dx.entry_points[0], [1, 1, 1], &b)
        });
        assert_eq!(r, Ok(DispatchStats { groups: 1, threads: 4 }));
        assert_eq!(&b.uavs.borrow()[0][1..6], &[0, 0, 0, 0, 7], "each thread stores its count of 0 iterations");
        // spin: acc += k ^ (acc >> 3) for k < u0[0], stored to u0[1]; 100 000 iterations take
        // about 900 000 steps, past many deadline checks, with no deadline set.
        let spin =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/spin.cs.dxil")));
        let b = buffers(vec![vec![100_000, 0]]);
        dispatch(&spin, &spin.dx.entry_points[0], [1, 1, 1], &b).expect("runs");
        let want = (0..100_000u32).fold(0u32, |acc, k| acc.wrapping_add(k ^ (acc >> 3)));
        assert_eq!(b.uavs.borrow()[0][1], want);
    }

    #[test]
    fn copy_multiplies_and_adds_the_thread_id() {
        // dst[i] = src[i] * 3 + i over 2 groups of 64; src at u0, dst at u1.
        let p = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/copy.cs.dxil")));
        let e = &p.dx.entry_points[0];
        assert_eq!(e.num_threads, Some([64, 1, 1]));
        let src: Vec<u32> = (0..128).map(|i| 1000 + 7 * i).collect();
        let b = buffers(vec![src.clone(), vec![0xDEAD; 130]]);
        let stats = dispatch(&p, e, [2, 1, 1], &b).expect("runs");
        assert_eq!(stats, DispatchStats { groups: 2, threads: 128 });
        let dst = &b.uavs.borrow()[1];
        for i in 0..128 {
            assert_eq!(dst[i], src[i] * 3 + i as u32, "dst[{i}]");
        }
        // Past the dispatched threads nothing is written.
        assert_eq!(&dst[128..], &[0xDEAD, 0xDEAD]);
    }

    #[test]
    fn reduce_sums_each_group_through_groupshared_memory_and_barriers() {
        // Each group of 64 sums its 64 inputs with a tree of barriers; thread 0 writes the sum.
        let p =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/reduce.cs.dxil")));
        let e = &p.dx.entry_points[0];
        let src: Vec<u32> = (0..192).map(|i| i * i).collect();
        let b = buffers(vec![src.clone(), vec![0; 3]]);
        dispatch(&p, e, [3, 1, 1], &b).expect("runs");
        let want: Vec<u32> = (0..3).map(|g| src[g * 64..(g + 1) * 64].iter().sum()).collect();
        // By hand for group 0: sum of i^2 for i < 64 = 63 * 64 * 127 / 6 = 85344.
        assert_eq!(want[0], 85344);
        assert_eq!(b.uavs.borrow()[1], want);
    }

    #[test]
    fn image_stores_the_thread_ids_as_colors() {
        let p =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/image.cs.dxil")));
        let e = &p.dx.entry_points[0];
        assert_eq!(e.num_threads, Some([8, 8, 1]));
        let b =
            Buffers { uavs: Shared::new(vec![]), cb: [0; 4], textures: Shared::new(vec![[0; 4]; 16 * 8]), width: 16 };
        dispatch(&p, e, [2, 1, 1], &b).expect("runs");
        let t = b.textures.borrow();
        for y in 0..8u32 {
            for x in 0..16u32 {
                let want = [x as f32 / 255.0, y as f32 / 255.0, 0.5, 1.0].map(f32::to_bits);
                assert_eq!(t[(y * 16 + x) as usize], want, "({x},{y})");
            }
        }
    }

    #[test]
    fn atomic_appends_every_thread_once() {
        // counter at byte 0, values from byte 4; value = thread id + cb.add.
        let p =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/atomic.cs.dxil")));
        let e = &p.dx.entry_points[0];
        let mut b = buffers(vec![vec![0; 1 + 64]]);
        b.cb = [100, 0, 0, 0];
        let stats = dispatch(&p, e, [2, 1, 1], &b).expect("runs");
        assert_eq!(stats.threads, 64);
        let u = &b.uavs.borrow()[0];
        assert_eq!(u[0], 64);
        let mut got: Vec<u32> = u[1..].to_vec();
        got.sort_unstable();
        assert_eq!(got, (100..164).collect::<Vec<u32>>());
    }

    #[test]
    fn groupshared_atomics_end_as_their_order_cannot_change() {
        // shared_atomics.comp: per group of 64 threads, sums, maxima, ORs, one winning
        // compare-and-swap per cell (Mesa writes cmpxchg as LLVM's old record form) and
        // exchanges summed with what is left; thread 0..7 write the cells, 32 words per group.
        let p = program(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/dxil/shared_atomics.cs.dxil"
        )));
        let e = &p.dx.entry_points[0];
        let b = buffers(vec![vec![0; 64]]);
        dispatch(&p, e, [2, 1, 1], &b).expect("runs");
        let v = &b.uavs.borrow()[0];
        for g in 0..2 {
            let o = 32 * g;
            for k in 0..8u32 {
                // sum of i + 1 over i = k, k + 8, ..., k + 56: 8 (k + 1) + 8 * 28.
                assert_eq!(v[o + k as usize], 232 + 8 * k, "add[{k}]");
                // 3i = k (mod 8) means i = 3k (mod 8); the largest such i below 64 is 56 + 3k % 8.
                let i = 56 + (3 * k) % 8;
                assert_eq!(v[o + 8 + k as usize], i * i, "max[{k}]");
            }
            for k in 0..5u32 {
                let want = (0..64u32).filter(|i| i % 5 == k).fold(0u32, |a, i| a | 1 << (i % 31));
                assert_eq!(v[o + 16 + k as usize], want, "or[{k}]");
            }
            assert_eq!(v[o + 24..o + 28], [1, 1, 1, 1], "one compare-and-swap wins per cell");
            // Every value exchanged in (1..=64) is either handed back to one thread or left.
            assert_eq!(v[o + 28], 64 * 65 / 2);
        }
    }

    /// A 2x2 RGBA8 texture (red, green / blue, white by rows) gathered through swgpu::sample.
    struct Gathering {
        out: Shared<Vec<u32>>,
    }

    impl Bindings for Gathering {
        fn buffer_store(&self, b: (u32, u32), _stride: u32, index: u32, _offset: u32, value: [u32; 4], mask: u8) {
            assert_eq!(b, (0, 1), "Out is u1");
            let mut o = self.out.borrow_mut();
            for (k, v) in value.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    o[(index / 4) as usize + k] = *v;
                }
            }
        }
        fn gather(
            &self,
            texture: (u32, u32),
            sampler: (u32, u32),
            coords: [f32; 4],
            offset: [i32; 2],
            channel: u32,
            compare: Option<f32>,
        ) -> [f32; 4] {
            assert_eq!((texture, sampler), ((0, 0), (0, 0)));
            let bytes = [255u8, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255];
            let subs = [crate::sample::SubresourceBytes { offset: 0, row_pitch: 8, depth_pitch: 16 }];
            let t = crate::sample::MemoryTexels {
                bytes: &bytes,
                format: rd3d12_sys::DXGI_FORMAT_R8G8B8A8_UNORM,
                size: (2, 2, 1),
                mips: 1,
                array_size: 1,
                subresources: &subs,
            };
            let view = crate::sample::View::whole(crate::sample::Dim::Tex2D, &t);
            let s = crate::sample::Sampler::from_desc(&rd3d12_core::descriptor::SamplerDesc {
                filter: 0,
                address: [3, 3, 3],
                mip_lod_bias: 0.0,
                max_anisotropy: 1,
                comparison_func: 0,
                border: [0; 4],
                min_lod: 0.0,
                max_lod: f32::MAX,
                flags: 0,
            });
            crate::sample::gather(&t, &view, &s, coords, [offset[0], offset[1], 0], channel as usize, compare)
        }
    }

    #[test]
    fn gather_returns_each_channel_of_the_footprint_in_d3d_order() {
        // At the center of the 2x2 texture the footprint is all four texels, returned as
        // (-u,+v) (+u,+v) (+u,-v) (-u,-v) = (0,1) blue, (1,1) white, (1,0) green, (0,0) red.
        // Thread i gathers channel i: red [0,1,0,1], green [0,1,1,0], blue [1,1,0,0], alpha 1s.
        let p =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/gather.cs.dxil")));
        let e = &p.dx.entry_points[0];
        let b = Gathering { out: Shared::new(vec![0; 16]) };
        dispatch(&p, e, [1, 1, 1], &b).expect("runs");
        let want: [[f32; 4]; 4] =
            [[0.0, 1.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0], [1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]];
        let got: Vec<f32> = b.out.borrow().iter().map(|w| f32::from_bits(*w)).collect();
        assert_eq!(got, want.iter().flatten().copied().collect::<Vec<f32>>());
    }

    /// A raw UAV over bytes (u0).
    struct Bytes(Shared<Vec<u8>>);
    impl Bindings for Bytes {
        fn buffer_load(&self, _: Class, _: (u32, u32), _: u32, index: u32, _: u32) -> [u32; 4] {
            let b = self.0.borrow();
            std::array::from_fn(|k| {
                let at = index as usize + 4 * k;
                b.get(at..at + 4).map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
            })
        }
        fn buffer_store(&self, _: (u32, u32), _: u32, index: u32, _: u32, value: [u32; 4], mask: u8) {
            let mut b = self.0.borrow_mut();
            for (k, v) in value.iter().enumerate() {
                let at = index as usize + 4 * k;
                if mask & (1 << k) != 0 && at + 4 <= b.len() {
                    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
                }
            }
        }
    }

    #[test]
    fn doubles_and_64_bit_integers() {
        // wide.comp with a = 1.5, b = -0.25, x = 0x1_0000_0003, y = 7 (std430: a@0 b@8 x@16
        // y@24 d[6]@32 q[5]@80). By hand: a+b 1.25, a*b -0.375, a/b -6, fma(a,b,a) 1.125,
        // min -0.25, double(float(a)) 1.5; x+y 0x1_0000_000A, x*y 0x7_0000_0015, x>>3
        // 0x2000_0000, x/y 613566757 (7 × 613566757 = 4294967299 = x), uint64(a) 1.
        let p = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/wide.cs.dxil")));
        let e = &p.dx.entry_points[0];
        let mut io = vec![0u8; 120];
        io[0..8].copy_from_slice(&1.5f64.to_le_bytes());
        io[8..16].copy_from_slice(&(-0.25f64).to_le_bytes());
        io[16..24].copy_from_slice(&0x1_0000_0003u64.to_le_bytes());
        io[24..32].copy_from_slice(&7u64.to_le_bytes());
        let b = Bytes(Shared::new(io));
        dispatch(&p, e, [1, 1, 1], &b).expect("runs");
        let io = b.0.borrow();
        let d = |i: usize| f64::from_le_bytes(io[32 + 8 * i..40 + 8 * i].try_into().unwrap());
        let q = |i: usize| u64::from_le_bytes(io[80 + 8 * i..88 + 8 * i].try_into().unwrap());
        assert_eq!([d(0), d(1), d(2), d(3), d(4), d(5)], [1.25, -0.375, -6.0, 1.125, -0.25, 1.5]);
        assert_eq!([q(0), q(1), q(2), q(3), q(4)], [0x1_0000_000A, 0x7_0000_0015, 0x2000_0000, 613_566_757, 1]);
    }

    /// A Texture2DMS of 4x4 and `samples` samples at t0, and a structured float4 UAV at u0.
    struct Multisampled {
        samples: u32,
        out: Shared<Vec<u32>>,
    }
    impl Bindings for Multisampled {
        fn dimensions(&self, class: Class, resource: (u32, u32), _mip: u32) -> [u32; 4] {
            assert_eq!((class, resource), (Class::Srv, (0, 0)));
            [4, 4, 0, self.samples]
        }
        fn buffer_store(&self, b: (u32, u32), _: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
            assert_eq!(b, (0, 0), "Out is u0");
            let mut o = self.out.borrow_mut();
            for (k, v) in value.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    o[(4 * index + offset / 4) as usize + k] = *v;
                }
            }
        }
    }

    #[test]
    fn texture2dms_sample_count_and_sample_positions() {
        // texture2dms_load.hlsl (DXC): thread k (of 16) stores (w, h, samples, 0) from
        // GetDimensions at float4 6k + 4 and (GetSamplePosition(k & 3), 0, 0) at 6k + 5.
        // Positions are D3D's standard pattern in 1/16 pixel; past the count they are (0, 0).
        let p = program(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/dxil/texture2dms_load.cs.dxil"
        )));
        let e = &p.dx.entry_points[0];
        let four = [(-2.0, -6.0), (6.0, -2.0), (-6.0, 2.0), (2.0, 6.0)];
        let two = [(4.0, 4.0), (-4.0, -4.0), (0.0, 0.0), (0.0, 0.0)];
        for (samples, pattern) in [(4u32, four), (2, two)] {
            let b = Multisampled { samples, out: Shared::new(vec![0; 96 * 4]) };
            dispatch(&p, e, [1, 1, 1], &b).expect("runs");
            let o: Vec<f32> = b.out.borrow().iter().map(|w| f32::from_bits(*w)).collect();
            for k in 0..16 {
                assert_eq!(o[4 * (6 * k + 4)..][..4], [4.0, 4.0, samples as f32, 0.0], "thread {k}");
                let (x, y) = pattern[k & 3];
                assert_eq!(o[4 * (6 * k + 5)..][..4], [x / 16.0, y / 16.0, 0.0, 0.0], "thread {k}, {samples}x");
            }
        }
    }

    #[test]
    fn imul_umul_and_udiv_give_both_words_in_dxbc_order() {
        // twoouts.cs.dxil (64 threads): a = i * 0x9E3779B1, b = i - 3; per thread six words:
        // IMul(a, b) {hi, lo}, UMul(a, b) {hi, lo}, UDiv(a, b) {quotient, remainder}.
        let p =
            program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/twoouts.cs.dxil")));
        let b = buffers(vec![vec![0xDEAD; 6 * 64]]);
        dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).expect("runs");
        let u = &b.uavs.borrow()[0];
        let got = |i: usize| -> [u32; 6] { u[6 * i..6 * i + 6].try_into().unwrap() };
        // By hand. i = 1: a = 0x9E3779B1 (-1640531535), b = 0xFFFFFFFE (-2): the signed product
        // 3281063070 = 0x00000000_C3910C9E; unsigned 0x9E3779B1 * (2^32 - 2) =
        // 0x9E3779AF_C3910C9E; a < b unsigned: quotient 0, remainder a.
        assert_eq!(got(1), [0, 0xC391_0C9E, 0x9E37_79AF, 0xC391_0C9E, 0, 0x9E37_79B1]);
        // i = 2: a = 0x3C6EF362, b = -1: -a = 0xFFFFFFFF_C3910C9E signed; unsigned
        // a * (2^32 - 1) = 0x3C6EF361_C3910C9E.
        assert_eq!(got(2), [0xFFFF_FFFF, 0xC391_0C9E, 0x3C6E_F361, 0xC391_0C9E, 0, 0x3C6E_F362]);
        // i = 3: b = 0; products 0, and UDiv by zero gives all bits set in both (udiv's page).
        assert_eq!(got(3), [0, 0, 0, 0, u32::MAX, u32::MAX]);
        // i = 63: a = 0xEFA6F28F (-274271601), b = 60: signed -16456296060 = 0xFFFFFFFC_2B20D984,
        // unsigned 0x38_2B20D984; 4020695695 = 60 * 67011594 + 55.
        assert_eq!(got(63), [0xFFFF_FFFC, 0x2B20_D984, 0x38, 0x2B20_D984, 67_011_594, 55]);
        for i in 0..64u32 {
            let (a, d) = (i.wrapping_mul(0x9E37_79B1), i.wrapping_sub(3));
            let s = (i64::from(a as i32) * i64::from(d as i32)) as u64;
            let p = u64::from(a) * u64::from(d);
            let (q, r) = (a.checked_div(d).unwrap_or(u32::MAX), a.checked_rem(d).unwrap_or(u32::MAX));
            let want = [(s >> 32) as u32, s as u32, (p >> 32) as u32, p as u32, q, r];
            assert_eq!(got(i as usize), want, "thread {i}");
        }
    }

    #[test]
    fn constant_expression_geps_address_private_and_groupshared_globals() {
        // static_global_array.cs.dxil (DXC, 64 threads): loads and stores through
        // getelementptr constant expressions into a private `static` array and groupshared
        // memory. Per thread, n = i & 7: w[4i] = n (n + 1) / 2; w[4i+1] = (n + 1) i, plus 5
        // when n == 3; w[4i+2] = 4i + 5; w[4i+3] = 0xC0FFEE (thread 0's groupshared store).
        let p = program(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/dxil/static_global_array.cs.dxil"
        )));
        let b = buffers(vec![vec![0; 4 * 64]]);
        dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).expect("runs");
        let u = &b.uavs.borrow()[0];
        // By hand, i = 3: n = 3, 1 + 2 + 3 = 6; scratch[3] = T[3] * 3 + 5 = 17 both times.
        assert_eq!(u[12..16], [6, 17, 17, 0xC0FFEE]);
        for i in 0..64u32 {
            let n = i & 7;
            let want = [n * (n + 1) / 2, (n + 1) * i + if n == 3 { 5 } else { 0 }, 4 * i + 5, 0xC0FFEE];
            assert_eq!(u[4 * i as usize..4 * i as usize + 4], want, "thread {i}");
        }
    }

    #[test]
    fn atomics_on_constant_expression_geps_into_groupshared_memory() {
        // interlocked_groupshared.cs.dxil (DXC): every atomicrmw and cmpxchg addresses g[k]
        // through a getelementptr constant expression; thread 0 copies g[0..10] to u0.
        let p = program(include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/fixtures/dxil/interlocked_groupshared.cs.dxil"
        )));
        let b = buffers(vec![vec![0xDEAD; 10]]);
        dispatch(&p, &p.dx.entry_points[0], [1, 1, 1], &b).expect("runs");
        let g = b.uavs.borrow()[0].clone();
        // v = i + 1 over 64 threads: sum 2080, min 1, max 64, AND of cleared bits 0, OR of
        // every bit, each of 8 bits toggled 8 times; one compare-exchange wins (g7 = 1) and
        // stores its v; what the exchanges hand back plus what is left sum to 2080.
        assert_eq!(g[..6], [2080, 1, 64, 0, 0xFFFF_FFFF, 0]);
        assert!((1..=64).contains(&g[6]), "{}", g[6]);
        assert_eq!((g[7], g[8].wrapping_add(g[9])), (1, 2080));
    }

    #[test]
    fn numthreads_above_the_limit_is_refused() {
        let p = program(include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/copy.cs.dxil")));
        let mut e = p.dx.entry_points[0].clone();
        e.num_threads = Some([32, 32, 2]);
        let b = buffers(vec![vec![0; 4], vec![0; 4]]);
        assert!(matches!(dispatch(&p, &e, [1, 1, 1], &b), Err(DrawError::Shader(ExecError::Malformed(_)))));
        e.num_threads = None;
        assert_eq!(dispatch(&p, &e, [1, 1, 1], &b), Err(DrawError::Unsupported("a compute shader without numthreads")));
    }

    /// The fixture `name` of tests/fixtures/dxil.
    fn fixture(name: &str) -> rd3d12_shader::dxil::Program {
        let path = format!("{}/../../tests/fixtures/dxil/{name}", env!("CARGO_MANIFEST_DIR"));
        program(&std::fs::read(path).expect("fixture"))
    }

    #[test]
    fn parallel_groups_give_the_results_of_one_thread() {
        // 64 groups of copy.cs and reduce.cs, and a 2x3 grid of image.cs, on 1, 2 and 4
        // workers: the same words, worked out by hand as in the tests above.
        let copy = fixture("copy.cs.dxil");
        let reduce = fixture("reduce.cs.dxil");
        let image = fixture("image.cs.dxil");
        let src: Vec<u32> = (0..64 * 64).map(|i| 1000 + 7 * i).collect();
        // The copy, the sums and the texels of one worker, which the others must equal.
        type Results = (Vec<u32>, Vec<u32>, Vec<[u32; 4]>);
        let mut first: Option<Results> = None;
        for threads in [1, 2, 4] {
            let b = buffers(vec![src.clone(), vec![0xDEAD; 64 * 64 + 1]]);
            let stats = dispatch_on(threads, &copy, &copy.dx.entry_points[0], [64, 1, 1], &b).expect("runs");
            assert_eq!(stats, DispatchStats { groups: 64, threads: 4096 });
            let copied = b.uavs.borrow()[1].clone();
            for (i, w) in copied[..4096].iter().enumerate() {
                assert_eq!(*w, src[i] * 3 + i as u32, "dst[{i}], {threads} threads");
            }
            assert_eq!(copied[4096], 0xDEAD);

            let b = buffers(vec![src.clone(), vec![0; 64]]);
            dispatch_on(threads, &reduce, &reduce.dx.entry_points[0], [64, 1, 1], &b).expect("runs");
            let sums = b.uavs.borrow()[1].clone();
            let want: Vec<u32> = (0..64).map(|g| src[g * 64..(g + 1) * 64].iter().sum()).collect();
            assert_eq!(sums, want, "{threads} threads");

            let b = Buffers {
                uavs: Shared::new(vec![]),
                cb: [0; 4],
                textures: Shared::new(vec![[0; 4]; 16 * 24]),
                width: 16,
            };
            let stats = dispatch_on(threads, &image, &image.dx.entry_points[0], [2, 3, 1], &b).expect("runs");
            assert_eq!(stats, DispatchStats { groups: 6, threads: 384 });
            let texels = b.textures.borrow().clone();
            for (i, t) in texels.iter().enumerate() {
                let (x, y) = (i as u32 % 16, i as u32 / 16);
                assert_eq!(*t, [x as f32 / 255.0, y as f32 / 255.0, 0.5, 1.0].map(f32::to_bits), "({x},{y})");
            }
            match &first {
                None => first = Some((copied, sums, texels)),
                Some(f) => assert!(*f == (copied, sums, texels), "{threads} threads differ from one"),
            }
        }
    }

    #[test]
    fn atomics_from_every_worker_count_every_thread() {
        // 64 groups of 32 threads append through one counter: 2048 increments, each value
        // (thread id + 100) stored once at the slot its increment returned.
        let p = fixture("atomic.cs.dxil");
        for threads in [1, 4] {
            let mut b = buffers(vec![vec![0; 1 + 2048]]);
            b.cb = [100, 0, 0, 0];
            dispatch_on(threads, &p, &p.dx.entry_points[0], [64, 1, 1], &b).expect("runs");
            let u = &b.uavs.borrow()[0];
            assert_eq!(u[0], 2048, "{threads} threads");
            let mut got = u[1..].to_vec();
            got.sort_unstable();
            assert_eq!(got, (100..2148).collect::<Vec<u32>>(), "{threads} threads");
        }
    }

    /// hang.cs's u0: word 0 reads 1 (the loop ends at once) on the thread that made the
    /// bindings, after `wait` there, and 0 (it never ends) on any other; stores note the
    /// threads they came from.
    struct EndsOnlyHere {
        here: std::thread::ThreadId,
        wait: std::time::Duration,
        storers: Shared<std::collections::HashSet<std::thread::ThreadId>>,
    }
    impl EndsOnlyHere {
        fn new(wait: std::time::Duration) -> Self {
            EndsOnlyHere { here: std::thread::current().id(), wait, storers: Shared::new(Default::default()) }
        }
    }
    impl Bindings for EndsOnlyHere {
        fn buffer_load(&self, _: Class, _: (u32, u32), _: u32, _: u32, _: u32) -> [u32; 4] {
            let here = std::thread::current().id() == self.here;
            if here {
                std::thread::sleep(self.wait);
            }
            [u32::from(here), 0, 0, 0]
        }
        fn buffer_store(&self, _: (u32, u32), _: u32, _: u32, _: u32, _: [u32; 4], _: u8) {
            self.storers.borrow_mut().insert(std::thread::current().id());
        }
    }

    #[test]
    fn the_deadline_ends_an_endless_dispatch_on_every_worker() {
        use rd3d12_shader::interp::with_deadline;
        use std::time::{Duration, Instant};
        // 64 groups on 4 workers whose groups never end but on the calling thread (slowly, so
        // that the others claim groups too): only the deadline, which the workers must have
        // too, ends the dispatch.
        let hang = fixture("hang.cs.dxil");
        let b = EndsOnlyHere::new(Duration::from_millis(2));
        let start = Instant::now();
        let r = with_deadline(Some(start + Duration::from_millis(50)), || {
            dispatch_on(4, &hang, &hang.dx.entry_points[0], [64, 1, 1], &b)
        });
        assert_eq!(r, Err(DrawError::Shader(ExecError::Timeout)));
        assert!(start.elapsed() < Duration::from_secs(10), "{:?}", start.elapsed());
    }

    #[test]
    fn a_small_dispatch_stays_on_the_calling_thread() {
        // Two groups of hang.cs that end at once: group 0 says the rest is far below
        // SPREAD_MIN, so no worker is woken (one would never end its group).
        let hang = fixture("hang.cs.dxil");
        let b = EndsOnlyHere::new(std::time::Duration::ZERO);
        let stats = dispatch(&hang, &hang.dx.entry_points[0], [2, 1, 1], &b).expect("runs");
        assert_eq!(stats, DispatchStats { groups: 2, threads: 8 });
        assert_eq!(*b.storers.borrow(), [b.here].into_iter().collect());
    }
}
