//! The benchmark's GetCopyableFootprints case (13-mip 4096² RGBA8), checked against the total
//! worked out by hand. Its speed is measured by `rd3d12 bench` and d3d12probe, not here.

use rd3d12_core::{copyable_footprints, Caps};
use rd3d12_sys::*;

#[test]
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
    // Hand-worked: mips 4096..64 are whole pitch-aligned slabs (67108864 + 16777216 + 4194304
    // + 1048576 + 262144 + 65536 + 16384 = 89473024); 32² adds 8064 → 89481088; 16² at
    // 89481216 (+3904); 8² at 89485312 (+1824); 4² at 89487360 (+784); 2² at 89488384
    // (+264); 1² at 89488896 (+4) → 89488900.
    assert_eq!(copyable_footprints(&desc, 0, 13, 0, &caps, Some(&mut l), Some(&mut r), Some(&mut s)), 89488900);
    assert_eq!(l[7].Offset, 89473024);
    assert_eq!((l[7].Footprint.Width, l[7].Footprint.RowPitch, r[7], s[7]), (32, 256, 32, 128));
    assert_eq!(l[12].Offset, 89488896);
    assert_eq!((l[12].Footprint.Width, l[12].Footprint.RowPitch, r[12], s[12]), (1, 256, 1, 4));
}
