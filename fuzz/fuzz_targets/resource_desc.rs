//! Resource descriptions as CreateCommittedResource, GetResourceAllocationInfo,
//! GetCopyableFootprints and GetResourceTiling receive them: any description must give an
//! error or numbers that keep D3D12's invariants, never a panic or an overflow (build with
//! `-a` for overflow checks). GetResourceTiling only sees descriptions that creation accepts.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rd3d12_core::caps::Caps;
use rd3d12_core::desc::{validate_desc1, Api};
use rd3d12_core::{allocation, footprint, tiling};
use rd3d12_sys::*;

/// Reads the input as a stream of choices, biased towards small and edge values.
struct Cur<'a>(&'a [u8]);
impl Cur<'_> {
    fn byte(&mut self) -> u8 {
        let (b, rest) = self.0.split_first().map(|(b, r)| (*b, r)).unwrap_or((0, &[]));
        self.0 = rest;
        b
    }
    fn raw(&mut self, n: usize) -> u64 {
        (0..n).fold(0u64, |v, i| v | (u64::from(self.byte()) << (8 * i)))
    }
    fn num(&mut self, bytes: usize) -> u64 {
        let max = if bytes == 8 { u64::MAX } else { (1u64 << (8 * bytes)) - 1 };
        match self.byte() % 8 {
            0..=3 => u64::from(self.byte() % 20),
            4 => 1u64 << (self.byte() % (8 * bytes as u8)),
            5 => max - u64::from(self.byte() % 4),
            6 => u64::from(self.byte()) * 64 + 1,
            _ => self.raw(bytes),
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut c = Cur(data);
    let caps = Caps::today();
    let desc = D3D12_RESOURCE_DESC1 {
        Dimension: D3D12_RESOURCE_DIMENSION(u32::from(c.byte() % 6)),
        Alignment: [0, 4096, 65536, 4 << 20, 1, 512][usize::from(c.byte() % 6)],
        Width: c.num(8),
        Height: c.num(4) as u32,
        DepthOrArraySize: c.num(2) as u16,
        MipLevels: c.num(2) as u16,
        Format: DXGI_FORMAT(u32::from(c.byte()) % 200),
        SampleDesc: DXGI_SAMPLE_DESC {
            Count: [1, 2, 4, 8, 16, 0, 3, 32][usize::from(c.byte() % 8)],
            Quality: c.num(4) as u32,
        },
        Layout: D3D12_TEXTURE_LAYOUT(u32::from(c.byte() % 5)),
        Flags: D3D12_RESOURCE_FLAGS(u32::from(c.byte()) | (u32::from(c.byte() % 4) << 8)),
        SamplerFeedbackMipRegion: D3D12_MIP_REGION { Width: c.num(1) as u32, Height: c.num(1) as u32, Depth: 0 },
    };
    let mut created = false;
    for api in [Api::Committed, Api::Placed, Api::Reserved, Api::AllocationInfo, Api::Footprints] {
        let ok = validate_desc1(&desc, api, &caps, None).is_ok();
        created |= ok && matches!(api, Api::Committed | Api::Placed | Api::Reserved);
    }
    if let Ok(info) = allocation::allocation_info_one(&desc, &caps) {
        assert!(info.Alignment.is_power_of_two(), "{info:?}");
        assert_eq!(info.SizeInBytes % info.Alignment, 0, "{info:?}");
    }
    let first = c.num(4) as u32;
    let num = (c.num(2) as u32).min(4096);
    let base = c.num(8);
    let n = num as usize;
    let (mut layouts, mut rows, mut sizes) =
        (vec![D3D12_PLACED_SUBRESOURCE_FOOTPRINT::default(); n], vec![0u32; n], vec![0u64; n]);
    let total = footprint::copyable_footprints(
        &desc,
        first,
        num,
        base,
        &caps,
        Some(&mut layouts),
        Some(&mut rows),
        Some(&mut sizes),
    );
    if total != u64::MAX && desc.Dimension != D3D12_RESOURCE_DIMENSION_BUFFER {
        for (i, l) in layouts.iter().enumerate() {
            let f = l.Footprint;
            assert_eq!(l.Offset.wrapping_sub(base) % 512, 0, "subresource {i}: {l:?}");
            assert_eq!(f.RowPitch % 256, 0, "subresource {i}: {l:?}");
            assert!(u64::from(f.RowPitch) >= sizes[i], "subresource {i}: {l:?} row {}", sizes[i]);
            if i > 0 {
                assert!(
                    l.Offset.wrapping_sub(base) > layouts[i - 1].Offset.wrapping_sub(base),
                    "offsets increase: {i}"
                );
            }
        }
    }
    // GetResourceTiling takes a created resource: its description passed creation.
    if !created {
        return;
    }
    let mut count = c.num(2) as u32;
    let mut tilings = vec![D3D12_SUBRESOURCE_TILING::default(); count.min(4096) as usize];
    count = count.min(4096);
    let _ = tiling::resource_tiling(&desc, &caps, Some(&mut count), c.num(4) as u32, Some(&mut tilings));
});
