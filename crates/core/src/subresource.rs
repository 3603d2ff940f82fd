//! Subresource numbering (resources.md §9): D3D12CalcSubresource and its inverse.
//!
//! `index = mip + array_slice × mip_levels + plane × mip_levels × array_size`; for 3D
//! textures the array size is 1 (DepthOrArraySize is the depth); buffers have exactly one
//! subresource.

use rd3d12_sys as sys;
use rd3d12_sys::D3D12_RESOURCE_DESC1;

use crate::format;

/// A decomposed subresource index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Subresource {
    /// Mip level.
    pub mip: u32,
    /// Array slice (0 for 3D textures and buffers).
    pub array_slice: u32,
    /// Plane slice.
    pub plane: u32,
}

/// D3D12CalcSubresource.
#[inline]
pub const fn calc_subresource(mip: u32, array_slice: u32, plane: u32, mip_levels: u32, array_size: u32) -> u32 {
    mip + array_slice * mip_levels + plane * mip_levels * array_size
}

/// D3D12DecomposeSubresource: the inverse of [`calc_subresource`]. `mip_levels` and
/// `array_size` must be ≥ 1.
#[inline]
pub const fn decompose_subresource(index: u32, mip_levels: u32, array_size: u32) -> Subresource {
    Subresource {
        mip: index % mip_levels,
        array_slice: (index / mip_levels) % array_size,
        plane: index / (mip_levels * array_size),
    }
}

/// Array size as used in subresource numbering: DepthOrArraySize for 1D/2D textures, 1 for
/// 3D textures and buffers.
pub fn array_size(desc: &D3D12_RESOURCE_DESC1) -> u32 {
    match desc.Dimension {
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D | sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D => {
            desc.DepthOrArraySize as u32
        }
        _ => 1,
    }
}

/// The full mip chain length for the given extents: floor(log2(max)) + 1.
pub const fn max_mip_levels(width: u64, height: u32, depth: u32) -> u32 {
    let mut m = width;
    if (height as u64) > m {
        m = height as u64;
    }
    if (depth as u64) > m {
        m = depth as u64;
    }
    if m == 0 {
        return 1;
    }
    64 - m.leading_zeros()
}

/// Mip levels after expanding 0 to the full chain (3D includes the depth; 1D uses
/// Height = 1). Buffers: 1.
pub fn mip_levels(desc: &D3D12_RESOURCE_DESC1) -> u32 {
    if desc.MipLevels != 0 {
        return desc.MipLevels as u32;
    }
    match desc.Dimension {
        sys::D3D12_RESOURCE_DIMENSION_BUFFER => 1,
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D => max_mip_levels(desc.Width, 1, 1),
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D => {
            max_mip_levels(desc.Width, desc.Height, desc.DepthOrArraySize as u32)
        }
        _ => max_mip_levels(desc.Width, desc.Height, 1),
    }
}

/// Plane count of the resource (FORMAT_INFO semantics; buffers 1; unknown formats 1).
pub fn plane_count(desc: &D3D12_RESOURCE_DESC1) -> u32 {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return 1;
    }
    format::info(desc.Format).map_or(1, |i| i.plane_count as u32)
}

/// Number of subresources: mips × array size × planes (buffers 1). Uses the expanded mip
/// count. Returned as u64 so absurd descs cannot overflow.
pub fn subresource_count(desc: &D3D12_RESOURCE_DESC1) -> u64 {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return 1;
    }
    mip_levels(desc) as u64 * array_size(desc) as u64 * plane_count(desc) as u64
}

/// Calc for a desc (uses expanded mips and the desc's array size).
pub fn subresource_index(desc: &D3D12_RESOURCE_DESC1, mip: u32, array_slice: u32, plane: u32) -> u32 {
    calc_subresource(mip, array_slice, plane, mip_levels(desc), array_size(desc))
}

/// Decompose for a desc.
pub fn decompose(desc: &D3D12_RESOURCE_DESC1, index: u32) -> Subresource {
    decompose_subresource(index, mip_levels(desc).max(1), array_size(desc).max(1))
}

/// Extent of mip `mip` of a dimension: max(1, size >> mip).
#[inline]
pub const fn mip_extent(size: u64, mip: u32) -> u64 {
    let v = if mip >= 64 { 0 } else { size >> mip };
    if v == 0 {
        1
    } else {
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rd3d12_sys::*;

    fn tex2d(w: u64, h: u32, arr: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
        D3D12_RESOURCE_DESC1 {
            Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
            Width: w,
            Height: h,
            DepthOrArraySize: arr,
            MipLevels: mips,
            Format: fmt,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            ..Default::default()
        }
    }

    #[test]
    fn calc_examples() {
        // 3 mips, 4 slices, 2 planes
        assert_eq!(calc_subresource(0, 0, 0, 3, 4), 0);
        assert_eq!(calc_subresource(2, 0, 0, 3, 4), 2);
        assert_eq!(calc_subresource(0, 1, 0, 3, 4), 3);
        assert_eq!(calc_subresource(1, 3, 0, 3, 4), 10);
        assert_eq!(calc_subresource(0, 0, 1, 3, 4), 12);
        assert_eq!(calc_subresource(2, 3, 1, 3, 4), 23);
        assert_eq!(decompose_subresource(23, 3, 4), Subresource { mip: 2, array_slice: 3, plane: 1 });
        assert_eq!(decompose_subresource(10, 3, 4), Subresource { mip: 1, array_slice: 3, plane: 0 });
    }

    #[test]
    fn mip_expansion() {
        // native: 32×32 with MipLevels 0 reports 6
        assert_eq!(mip_levels(&tex2d(32, 32, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM)), 6);
        assert_eq!(mip_levels(&tex2d(4096, 4096, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM)), 13);
        assert_eq!(mip_levels(&tex2d(1, 1, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM)), 1);
        assert_eq!(mip_levels(&tex2d(5, 3, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM)), 3);
        assert_eq!(mip_levels(&tex2d(16384, 1, 1, 0, DXGI_FORMAT_R8G8B8A8_UNORM)), 15);
        let mut d3 = tex2d(4, 4, 64, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
        d3.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
        assert_eq!(mip_levels(&d3), 7);
        // 2D arrays don't count the array size
        let a = tex2d(4, 4, 64, 0, DXGI_FORMAT_R8G8B8A8_UNORM);
        assert_eq!(mip_levels(&a), 3);
    }

    #[test]
    fn counts() {
        assert_eq!(subresource_count(&tex2d(32, 32, 2, 2, DXGI_FORMAT_R8G8B8A8_UNORM)), 4);
        assert_eq!(subresource_count(&tex2d(64, 64, 1, 1, DXGI_FORMAT_NV12)), 2);
        assert_eq!(subresource_count(&tex2d(64, 64, 3, 2, DXGI_FORMAT_D24_UNORM_S8_UINT)), 12);
        assert_eq!(subresource_count(&tex2d(64, 64, 1, 1, DXGI_FORMAT_V208)), 3);
        let mut d3 = tex2d(16, 8, 4, 3, DXGI_FORMAT_R16G16B16A16_FLOAT);
        d3.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE3D;
        assert_eq!(subresource_count(&d3), 3);
        let mut b = tex2d(100, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
        b.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER;
        assert_eq!(subresource_count(&b), 1);
    }

    #[test]
    fn mip_extents() {
        assert_eq!(mip_extent(32, 0), 32);
        assert_eq!(mip_extent(32, 5), 1);
        assert_eq!(mip_extent(32, 9), 1);
        assert_eq!(mip_extent(60, 1), 30);
        assert_eq!(mip_extent(5, 2), 1);
        assert_eq!(mip_extent(u64::MAX, 70), 1);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn calc_round_trips(mips in 1u32..16, arr in 1u32..2049, planes in 1u32..4, seed in any::<u64>()) {
            let mip = (seed % mips as u64) as u32;
            let slice = ((seed >> 8) % arr as u64) as u32;
            let plane = ((seed >> 24) % planes as u64) as u32;
            let idx = calc_subresource(mip, slice, plane, mips, arr);
            prop_assert!(idx < mips * arr * planes);
            prop_assert_eq!(decompose_subresource(idx, mips, arr), Subresource { mip, array_slice: slice, plane });
        }

        #[test]
        fn decompose_round_trips(mips in 1u32..16, arr in 1u32..2049, idx in 0u32..100_000) {
            let s = decompose_subresource(idx, mips, arr);
            prop_assert!(s.mip < mips && s.array_slice < arr);
            prop_assert_eq!(calc_subresource(s.mip, s.array_slice, s.plane, mips, arr), idx);
        }
    }
}
