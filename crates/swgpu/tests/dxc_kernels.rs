//! DXC's compute kernels of the corpus's `kernels/` group (GEMM in fp32 and fp16, convolution,
//! transpose, scans, sorts, histogram, reduction: the shapes DirectML-style work takes), copies
//! in `tests/fixtures/dxil/dxc`, dispatched through [`rd3d12_swgpu::compute::dispatch`] with
//! the buffers each HLSL header describes, their outputs compared with the header's formulas
//! evaluated here (all exact: small integers in floats, or integers).

mod common;

use common::{floats, run, Mem};
use rd3d12_swgpu::draw::Class;

/// A[r][k] = (r + k) % 7 - 3, B[k][c] = (2k + c) % 5 - 2: C = A B, 64x64x64.
fn gemm_want() -> Vec<u32> {
    let a = |r: usize, k: usize| ((r + k) % 7) as f32 - 3.0;
    let b = |k: usize, c: usize| ((2 * k + c) % 5) as f32 - 2.0;
    floats(4096, |i| (0..64).map(|k| a(i / 64, k) * b(k, i % 64)).sum())
}

#[test]
fn gemm_tiled_f32() {
    let mut mem = Mem::default()
        .with(Class::Srv, 0, floats(4096, |i| ((i / 64 + i % 64) % 7) as f32 - 3.0))
        .with(Class::Srv, 1, floats(4096, |i| ((2 * (i / 64) + i % 64) % 5) as f32 - 2.0))
        .with(Class::Uav, 0, vec![0xDEAD; 4096])
        .cb(vec![64, 64, 64, 0]);
    run("gemm_tiled_f32", [4, 4, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), gemm_want());
}

/// The same product with the operands as halves in raw buffers (two per word) and fp32
/// accumulation.
#[test]
fn gemm_tiled_f16() {
    // Half bits of the small integers -3..=2.
    let half = |x: i32| -> u32 {
        match x {
            0 => 0,
            _ => {
                let a = x.unsigned_abs();
                let e = 31 - a.leading_zeros();
                u32::from(x < 0) << 15 | (e + 15) << 10 | ((a << (10 - e)) & 0x3FF)
            }
        }
    };
    let pack = |f: &dyn Fn(usize) -> i32| -> Vec<u32> {
        (0..2048).map(|w| half(f(2 * w)) | half(f(2 * w + 1)) << 16).collect()
    };
    let mut mem = Mem::default()
        .with(Class::Srv, 0, pack(&|i| ((i / 64 + i % 64) % 7) as i32 - 3))
        .with(Class::Srv, 1, pack(&|i| ((2 * (i / 64) + i % 64) % 5) as i32 - 2))
        .with(Class::Uav, 0, vec![0xDEAD; 4096])
        .cb(vec![64, 64, 64, 0]);
    assert_eq!(half(-3), 0xC200);
    run("gemm_tiled_f16", [4, 4, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), gemm_want());
}

#[test]
fn conv2d_3x3() {
    let x = |c: i32, y: i32, xx: i32| {
        if (0..16).contains(&y) && (0..16).contains(&xx) {
            ((xx + 2 * y + 3 * c) % 5) as f32 - 1.0
        } else {
            0.0
        }
    };
    let w = |o: usize, c: usize, ky: usize, kx: usize| (((o + 1) * (c + 2) + ky * 3 + kx) % 3) as f32 - 1.0;
    let mut mem = Mem::default()
        .with(Class::Srv, 0, floats(512, |i| x((i / 256) as i32, ((i / 16) % 16) as i32, (i % 16) as i32)))
        .with(Class::Srv, 1, floats(36, |i| w(i / 18, (i / 9) % 2, (i / 3) % 3, i % 3)))
        .with(Class::Srv, 2, floats(2, |o| [0.5, -4.0][o]))
        .with(Class::Uav, 0, vec![0xDEAD; 512]);
    run("conv2d_3x3", [2, 2, 2], &mem);
    let want = floats(512, |i| {
        let (o, y, xx) = (i / 256, ((i / 16) % 16) as i32, (i % 16) as i32);
        let mut s = [0.5, -4.0][o];
        for c in 0..2 {
            for ky in 0..3 {
                for kx in 0..3 {
                    s += w(o, c, ky, kx) * x(c as i32, y + ky as i32 - 1, xx + kx as i32 - 1);
                }
            }
        }
        s.max(0.0)
    });
    assert_eq!(mem.take(Class::Uav, 0), want);
}

#[test]
fn transpose() {
    let mut mem =
        Mem::default().with(Class::Srv, 0, floats(4096, |i| i as f32)).with(Class::Uav, 0, vec![0xDEAD; 4096]);
    run("transpose", [4, 4, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), floats(4096, |i| ((i % 64) * 64 + i / 64) as f32));
}

#[test]
fn prefix_scan_groupshared() {
    let input: Vec<u32> = (0..256).map(|k| k % 7 + 1).collect();
    let mut mem = Mem::default().with(Class::Srv, 0, input.clone()).with(Class::Uav, 0, vec![0xDEAD; 256]);
    run("prefix_scan_groupshared", [1, 1, 1], &mem);
    let want: Vec<u32> = input
        .iter()
        .scan(0, |s, x| {
            *s += x;
            Some(*s)
        })
        .collect();
    let out = mem.take(Class::Uav, 0);
    assert_eq!(out, want);
    assert_eq!((out[6], out[7], out[255]), (28, 29, 1018));
}

#[test]
fn bitonic_sort_local() {
    let mut mem = Mem::default().with(Class::Srv, 0, (0..256).map(|k| (k * 97 + 13) % 256).collect()).with(
        Class::Uav,
        0,
        vec![0xDEAD; 256],
    );
    run("bitonic_sort_local", [1, 1, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), (0..256).collect::<Vec<u32>>());
}

/// One merge step (j, k) = (1, 2) on 1023 - i, then the whole host loop of steps, which sorts.
#[test]
fn bitonic_sort_step() {
    let data: Vec<u32> = (0..1024).rev().collect();
    let mut mem = Mem::default().with(Class::Uav, 0, data).cb(vec![1, 2, 0, 0]);
    run("bitonic_sort_step", [4, 1, 1], &mem);
    let once = mem.take(Class::Uav, 0);
    assert_eq!(once[..4], [1022, 1023, 1021, 1020]);
    let mut data: Vec<u32> = (0..1024).map(|i| (i * 389 + 7) % 1024).collect();
    let mut k = 2;
    while k <= 1024 {
        let mut j = k / 2;
        while j > 0 {
            let mut mem = Mem::default().with(Class::Uav, 0, data).cb(vec![j, k, 0, 0]);
            run("bitonic_sort_step", [4, 1, 1], &mem);
            data = mem.take(Class::Uav, 0);
            j /= 2;
        }
        k *= 2;
    }
    assert_eq!(data, (0..1024).collect::<Vec<u32>>());
}

/// Bytes (7 n) & 255 over 16 KiB: every bin of the histogram ends at 64.
#[test]
fn histogram_atomics() {
    let data: Vec<u32> =
        (0..4096u32).map(|w| (0..4).fold(0, |acc, b| acc | ((7 * (4 * w + b)) & 255) << (8 * b))).collect();
    let mut mem = Mem::default().with(Class::Srv, 0, data).with(Class::Uav, 0, vec![0; 256]);
    run("histogram_atomics", [16, 1, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), vec![64; 256]);
}

/// The sum of n & 1023 over 65536 values: 64 * 1023 * 1024 / 2.
#[test]
fn reduction_sum() {
    let mut mem =
        Mem::default().with(Class::Srv, 0, (0..65536).map(|n| n & 1023).collect()).with(Class::Uav, 0, vec![0]);
    run("reduction_sum", [64, 1, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), [33_521_664]);
}
