//! How fast textures are sampled through the CPU backend's reader of device memory
//! ([`SharedBytes`]: word-atomic loads, what a shader's SRV reads go through) against a plain
//! slice of the same bytes (what the sampler read before issue #20 item 3), in the same run:
//! bilinear (and point) samples of a 256x256 RGBA8 texture in wrap mode, both readers by turns
//! `repeats` times; prints the medians in ns per sample and their ratio, and checks that both
//! readers give the same values.
//!
//! `cargo run --release -p rd3d12 --example texel_speed [samples] [repeats]`

use rd3d12::backend::memory::{Memory, SharedBytes};
use rd3d12_core::descriptor::SamplerDesc;
use rd3d12_swgpu::bytes::ReadBytes;
use rd3d12_swgpu::sample::{self, Dim, Lod, MemoryTexels, Sampler, SubresourceBytes, View};
use rd3d12_sys as sys;
use std::time::Instant;

/// `n` samples over the texture along a diagonal-ish walk; returns the sum (kept, so the work
/// is not optimised away) and the nanoseconds per sample.
fn run<B: ?Sized + ReadBytes>(t: &MemoryTexels<'_, B>, s: &Sampler, n: u32) -> (f64, f64) {
    let v = View::whole(Dim::Tex2D, t);
    let start = Instant::now();
    let mut sum = 0.0f64;
    for i in 0..n {
        let (u, w) = (i as f32 * 0.000_731, i as f32 * 0.000_413 + 0.25);
        let c = sample::sample(t, &v, s, [u, w, 0.0, 0.0], [0; 3], Lod::Level(0.0), None);
        sum += f64::from(c[0] + c[1] + c[2] + c[3]);
    }
    (sum, start.elapsed().as_nanos() as f64 / f64::from(n))
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2_000_000);
    let repeats: usize = std::env::args().nth(2).and_then(|a| a.parse().ok()).unwrap_or(7);
    const SIDE: u32 = 256;
    let len = (SIDE * SIDE * 4) as usize;
    let memory = Memory::new(len as u64).expect("memory");
    let shared = SharedBytes::of(&memory);
    let plain: Vec<u8> = (0..len).map(|i| (i * 7 + i / 1021) as u8).collect();
    assert!(shared.put(0, &plain));
    let subs = [SubresourceBytes { offset: 0, row_pitch: (SIDE * 4) as usize, depth_pitch: len }];
    let texels = |format| MemoryTexels {
        bytes: &plain[..],
        format,
        size: (SIDE, SIDE, 1),
        mips: 1,
        array_size: 1,
        subresources: &subs,
    };
    for (name, filter, format) in [
        ("bilinear RGBA8", 0x15, sys::DXGI_FORMAT_R8G8B8A8_UNORM),
        ("point RGBA8", 0x00, sys::DXGI_FORMAT_R8G8B8A8_UNORM),
        ("bilinear RGBA16F", 0x15, sys::DXGI_FORMAT_R16G16B16A16_FLOAT),
    ] {
        let s = Sampler::from_desc(&SamplerDesc {
            filter,
            address: [1, 1, 1],
            mip_lod_bias: 0.0,
            max_anisotropy: 1,
            comparison_func: 0,
            border: [0; 4],
            min_lod: 0.0,
            max_lod: f32::MAX,
            flags: 0,
        });
        // RGBA16F reads the same bytes as a 128x256 texture of 8-byte texels.
        let slice = MemoryTexels {
            size: if format.0 == sys::DXGI_FORMAT_R8G8B8A8_UNORM.0 { (SIDE, SIDE, 1) } else { (SIDE / 2, SIDE, 1) },
            ..texels(format)
        };
        let device = MemoryTexels {
            bytes: &shared,
            format: slice.format,
            size: slice.size,
            mips: 1,
            array_size: 1,
            subresources: &subs,
        };
        let (mut a, mut b) = (Vec::new(), Vec::new());
        for _ in 0..repeats {
            let (sa, ta) = run(&slice, &s, n);
            let (sb, tb) = run(&device, &s, n);
            assert_eq!(sa.to_bits(), sb.to_bits(), "both readers see the same texels");
            a.push(ta);
            b.push(tb);
        }
        let (a, b) = (median(a), median(b));
        println!("{name}: slice {a:.1} ns/sample, device memory {b:.1} ns/sample, ratio {:.3}", b / a);
    }
}
