//! Rough cost of GetCopyableFootprints on the benchmark's case (13-mip 4096² RGBA8).
//! Run with `cargo test -p rd3d12-core --release --test perf -- --ignored --nocapture`.

use rd3d12_core::{copyable_footprints, Caps};
use rd3d12_sys::*;

#[test]
#[ignore]
fn footprints_13_mips_4096() {
    let desc = D3D12_RESOURCE_DESC1 {
        Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Width: 4096,
        Height: 4096,
        DepthOrArraySize: 1,
        MipLevels: 13,
        Format: DXGI_FORMAT_R8G8B8A8_UNORM,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        ..Default::default()
    };
    let caps = Caps::today();
    let mut l = [D3D12_PLACED_SUBRESOURCE_FOOTPRINT::default(); 13];
    let mut r = [0u32; 13];
    let mut s = [0u64; 13];
    let n = 2_000_000u32;
    let t = std::time::Instant::now();
    let mut acc = 0u64;
    for i in 0..n {
        acc = acc.wrapping_add(copyable_footprints(
            std::hint::black_box(&desc),
            0,
            13,
            std::hint::black_box(i as u64 & 0xFF),
            &caps,
            Some(&mut l),
            Some(&mut r),
            Some(&mut s),
        ));
    }
    let per = t.elapsed().as_nanos() as f64 / n as f64;
    println!("{per:.1} ns per call (acc {acc})");
    // Hand-worked: mips 4096..64 are whole pitch-aligned slabs (67108864 + 16777216 + 4194304
    // + 1048576 + 262144 + 65536 + 16384 = 89473024); 32² adds 8064 → 89481088; 16² at
    // 89481216 (+3904); 8² at 89485312 (+1824); 4² at 89487360 (+784); 2² at 89488384
    // (+264); 1² at 89488896 (+4) → 89488900.
    assert_eq!(copyable_footprints(&desc, 0, 13, 0, &caps, None, None, None), 89488900);
}
