//! Tile shapes and ID3D12Device::GetResourceTiling.
//!
//! * 64 KB standard tile shapes (resources.md §6.4, heaps-and-memory.md §8.2): 2D shapes
//!   are chosen by bits per element with "≤" thresholds (8/16/32/64/128, so 96-bit
//!   formats use the 128 row), 3D shapes by an exact switch on 8/16/32/64/128 bits, BC
//!   formats by block size (64- or 128-bit blocks). MSAA 2D shapes divide the 1× shape by
//!   (2,1) for 2×, (2,2) for 4×, (4,2) for 8×, (4,4) for 16×.
//! * 4 KB shapes (the "small resource" test, resources.md §6.2): "≤" thresholds
//!   everywhere, same MSAA divisors.
//! * Packed mips (heaps-and-memory.md §8.3 REC, deterministic NVIDIA-like): from tier 2 on,
//!   the first mip that is smaller than a tile in any dimension starts the packed tail; at
//!   tier 1 the first mip that is not a whole multiple of the tile shape does. The tail of
//!   one array slice occupies max(1, ceil(tail bytes / 64 KB)) tiles. Tiles are numbered per
//!   slice: standard mips of slice 0, its packed tiles, then slice 1, …

use rd3d12_sys as sys;
use rd3d12_sys::{
    D3D12_PACKED_MIP_INFO, D3D12_RESOURCE_DESC1, D3D12_RESOURCE_DIMENSION, D3D12_SUBRESOURCE_TILING, D3D12_TILE_SHAPE,
    DXGI_FORMAT,
};

use crate::caps::Caps;
use crate::format::{self, FormatInfo};
use crate::subresource::{array_size, mip_extent, mip_levels};

/// Size of one standard tile in bytes.
pub const TILE_SIZE: u64 = sys::D3D12_TILED_RESOURCE_TILE_SIZE_IN_BYTES as u64;

const fn shape(w: u32, h: u32, d: u32) -> D3D12_TILE_SHAPE {
    D3D12_TILE_SHAPE { WidthInTexels: w, HeightInTexels: h, DepthInTexels: d }
}

/// Bits-per-element bucket with "≤" thresholds; None above 128.
const fn bucket(bits: u32) -> Option<u32> {
    match bits {
        0 => None,
        1..=8 => Some(8),
        9..=16 => Some(16),
        17..=32 => Some(32),
        33..=64 => Some(64),
        65..=128 => Some(128),
        _ => None,
    }
}

const fn msaa_divisor(samples: u32) -> Option<(u32, u32)> {
    match samples {
        0 | 1 => Some((1, 1)),
        2 => Some((2, 1)),
        4 => Some((2, 2)),
        8 => Some((4, 2)),
        16 => Some((4, 4)),
        _ => None,
    }
}

/// The standard 64 KB tile shape for a format / dimension / sample count.
/// Buffers: 65536 × 1 × 1. `None` where no standard shape exists (96-bit 3D, unknown
/// formats, unsupported sample counts, 3D MSAA).
pub fn tile_shape_64k(f: DXGI_FORMAT, dimension: D3D12_RESOURCE_DIMENSION, samples: u32) -> Option<D3D12_TILE_SHAPE> {
    if dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return Some(shape(65536, 1, 1));
    }
    let i = format::info(f)?;
    let bits = i.bits_per_element as u32;
    let bc = i.is_block_compressed();
    match dimension {
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D => {
            if bc || samples > 1 {
                return None;
            }
            Some(shape(65536 * 8 / bucket(bits)?, 1, 1))
        }
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D => {
            let (dw, dh) = msaa_divisor(samples)?;
            let (w, h) = if bc {
                match bits {
                    64 => (512, 256),
                    128 => (256, 256),
                    _ => return None,
                }
            } else {
                match bucket(bits)? {
                    8 => (256, 256),
                    16 => (256, 128),
                    32 => (128, 128),
                    64 => (128, 64),
                    _ => (64, 64),
                }
            };
            Some(shape(w / dw, h / dh, 1))
        }
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D => {
            if samples > 1 {
                return None;
            }
            if bc {
                return match bits {
                    64 => Some(shape(128, 64, 16)),
                    128 => Some(shape(64, 64, 16)),
                    _ => None,
                };
            }
            if f == sys::DXGI_FORMAT_R8G8_B8G8_UNORM || f == sys::DXGI_FORMAT_G8R8_G8B8_UNORM {
                return Some(shape(64, 32, 16));
            }
            match bits {
                8 => Some(shape(64, 32, 32)),
                16 => Some(shape(32, 32, 32)),
                32 => Some(shape(32, 32, 16)),
                64 => Some(shape(32, 16, 16)),
                128 => Some(shape(16, 16, 16)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The 4 KB tile shape (d3dx12 Get4KTileShape) used by the small-resource alignment test.
pub fn tile_shape_4k(f: DXGI_FORMAT, dimension: D3D12_RESOURCE_DIMENSION, samples: u32) -> Option<D3D12_TILE_SHAPE> {
    let i = format::info(f)?;
    let bits = i.bits_per_element as u32;
    let bc = i.is_block_compressed();
    match dimension {
        sys::D3D12_RESOURCE_DIMENSION_BUFFER => Some(shape(4096, 1, 1)),
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D => {
            if bc {
                return None;
            }
            Some(shape(4096 * 8 / bucket(bits)?, 1, 1))
        }
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D => {
            let (dw, dh) = msaa_divisor(samples)?;
            let (w, h) = if bc {
                match bits {
                    64 => (128, 64),
                    128 => (64, 64),
                    _ => return None,
                }
            } else {
                match bucket(bits)? {
                    8 => (64, 64),
                    16 => (64, 32),
                    32 => (32, 32),
                    64 => (32, 16),
                    _ => (16, 16),
                }
            };
            Some(shape(w / dw, h / dh, 1))
        }
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D => {
            if bc {
                return match bits {
                    64 => Some(shape(32, 32, 8)),
                    128 => Some(shape(32, 32, 4)),
                    _ => None,
                };
            }
            match bucket(bits)? {
                8 => Some(shape(16, 16, 16)),
                16 => Some(shape(16, 16, 8)),
                32 => Some(shape(16, 8, 8)),
                64 => Some(shape(8, 8, 8)),
                _ => Some(shape(8, 8, 4)),
            }
        }
        _ => None,
    }
}

/// Number of tiles of `s` covering a w × h × d box (ceil in every dimension).
pub fn tiles_for_extent(s: &D3D12_TILE_SHAPE, w: u64, h: u64, d: u64) -> u64 {
    if s.WidthInTexels == 0 || s.HeightInTexels == 0 || s.DepthInTexels == 0 {
        return 0;
    }
    w.div_ceil(s.WidthInTexels as u64) * h.div_ceil(s.HeightInTexels as u64) * d.div_ceil(s.DepthInTexels as u64)
}

/// Number of tiles of `s` the most detailed mip of one array slice needs (depth counted
/// only for 3D textures).
pub fn mip0_tile_count(desc: &D3D12_RESOURCE_DESC1, s: &D3D12_TILE_SHAPE) -> u64 {
    let d = if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D { desc.DepthOrArraySize as u64 } else { 1 };
    let h = if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D { 1 } else { desc.Height as u64 };
    tiles_for_extent(s, desc.Width, h, d)
}

/// Results of GetResourceTiling (the scalar outputs).
#[derive(Clone, Copy)]
pub struct ResourceTiling {
    /// pNumTilesForEntireResource.
    pub num_tiles: u32,
    /// pPackedMipDesc.
    pub packed_mip_info: D3D12_PACKED_MIP_INFO,
    /// pStandardTileShapeForNonPackedMips.
    pub tile_shape: D3D12_TILE_SHAPE,
}

impl core::fmt::Debug for ResourceTiling {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ResourceTiling")
            .field("num_tiles", &self.num_tiles)
            .field("num_standard_mips", &self.packed_mip_info.NumStandardMips)
            .field("num_packed_mips", &self.packed_mip_info.NumPackedMips)
            .field("num_tiles_for_packed_mips", &self.packed_mip_info.NumTilesForPackedMips)
            .field("packed_start", &self.packed_mip_info.StartTileIndexInOverallResource)
            .field(
                "shape",
                &(self.tile_shape.WidthInTexels, self.tile_shape.HeightInTexels, self.tile_shape.DepthInTexels),
            )
            .finish()
    }
}

/// Per-slice facts of a texture's tiling.
struct Plan {
    shape: D3D12_TILE_SHAPE,
    mips: u32,
    standard: u32,
    standard_tiles_per_slice: u64,
    packed_tiles_per_slice: u64,
    array: u32,
}

fn extents(desc: &D3D12_RESOURCE_DESC1, mip: u32) -> (u64, u64, u64) {
    let w = mip_extent(desc.Width, mip);
    let h =
        if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D { 1 } else { mip_extent(desc.Height as u64, mip) };
    let d = if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D {
        mip_extent(desc.DepthOrArraySize as u64, mip)
    } else {
        1
    };
    (w, h, d)
}

fn mip_bytes(i: &FormatInfo, w: u64, h: u64, d: u64, samples: u64) -> u64 {
    let rows = h.div_ceil(i.block_height.max(1) as u64);
    i.min_row_bytes(w) * rows * d * samples.max(1)
}

fn plan(desc: &D3D12_RESOURCE_DESC1, caps: &Caps) -> Option<Plan> {
    let i = format::info(desc.Format)?;
    let samples = desc.SampleDesc.Count.max(1);
    let shape = tile_shape_64k(desc.Format, desc.Dimension, samples)?;
    let mips = mip_levels(desc).max(1);
    let array = array_size(desc).max(1);
    let (tw, th, td) = (shape.WidthInTexels as u64, shape.HeightInTexels as u64, shape.DepthInTexels as u64);
    let mut standard = mips;
    for m in 0..mips {
        let (w, h, d) = extents(desc, m);
        let packed = if caps.tiled_resources_tier == 1 {
            w % tw != 0 || h % th != 0 || d % td != 0
        } else {
            w < tw || h < th || d < td
        };
        if packed {
            standard = m;
            break;
        }
    }
    let mut standard_tiles = 0u64;
    for m in 0..standard {
        let (w, h, d) = extents(desc, m);
        standard_tiles += tiles_for_extent(&shape, w, h, d);
    }
    let mut tail = 0u64;
    for m in standard..mips {
        let (w, h, d) = extents(desc, m);
        tail += mip_bytes(i, w, h, d, samples as u64);
    }
    let packed_tiles = if standard < mips { tail.div_ceil(TILE_SIZE).max(1) } else { 0 };
    Some(Plan {
        shape,
        mips,
        standard,
        standard_tiles_per_slice: standard_tiles,
        packed_tiles_per_slice: packed_tiles,
        array,
    })
}

/// Total number of 64 KB tiles of a resource (buffers: ceil(Width / 64 KB)).
pub fn num_tiles(desc: &D3D12_RESOURCE_DESC1, caps: &Caps) -> u64 {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        return desc.Width.div_ceil(TILE_SIZE);
    }
    match plan(desc, caps) {
        Some(p) => (p.standard_tiles_per_slice + p.packed_tiles_per_slice) * p.array as u64,
        None => 0,
    }
}

fn sat_u32(v: u64) -> u32 {
    v.min(u32::MAX as u64) as u32
}

/// ID3D12Device::GetResourceTiling for a (valid, created) resource.
///
/// `num_subresource_tilings` is the in/out count: on input the capacity of `tilings`, on
/// output the number written = min(capacity, subresourceCount − first), or 0 when
/// `first ≥ subresourceCount`. With `num_subresource_tilings == None` the tilings array is
/// ignored. Subresource tilings are indexed mip + slice × mips (planes are not tiled).
pub fn resource_tiling(
    desc: &D3D12_RESOURCE_DESC1,
    caps: &Caps,
    num_subresource_tilings: Option<&mut u32>,
    first_subresource_tiling: u32,
    tilings: Option<&mut [D3D12_SUBRESOURCE_TILING]>,
) -> ResourceTiling {
    if desc.Dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER {
        let tiles = sat_u32(desc.Width.div_ceil(TILE_SIZE));
        if let Some(n) = num_subresource_tilings {
            let cap = *n;
            let mut written = 0;
            if first_subresource_tiling == 0 && cap > 0 {
                if let Some(t) = tilings.and_then(|t| t.first_mut()) {
                    *t = D3D12_SUBRESOURCE_TILING {
                        WidthInTiles: tiles,
                        HeightInTiles: 1,
                        DepthInTiles: 1,
                        StartTileIndexInOverallResource: 0,
                    };
                }
                written = 1;
            }
            *n = written;
        }
        return ResourceTiling {
            num_tiles: tiles,
            packed_mip_info: D3D12_PACKED_MIP_INFO::default(),
            tile_shape: shape(65536, 1, 1),
        };
    }

    let Some(p) = plan(desc, caps) else {
        // No standard shape for this format/dimension: nothing is tiled.
        if let Some(n) = num_subresource_tilings {
            *n = 0;
        }
        return ResourceTiling {
            num_tiles: 0,
            packed_mip_info: D3D12_PACKED_MIP_INFO::default(),
            tile_shape: shape(0, 0, 0),
        };
    };
    let per_slice = p.standard_tiles_per_slice + p.packed_tiles_per_slice;
    let packed_mips = p.mips - p.standard;
    let packed_mip_info = D3D12_PACKED_MIP_INFO {
        NumStandardMips: p.standard.min(255) as u8,
        NumPackedMips: packed_mips.min(255) as u8,
        NumTilesForPackedMips: sat_u32(p.packed_tiles_per_slice),
        StartTileIndexInOverallResource: if packed_mips > 0 { sat_u32(p.standard_tiles_per_slice) } else { 0 },
    };

    if let Some(n) = num_subresource_tilings {
        let count = p.mips * p.array;
        let cap = *n;
        let written = if first_subresource_tiling >= count { 0 } else { cap.min(count - first_subresource_tiling) };
        if let Some(out) = tilings {
            // Per-mip start offsets within a slice.
            let mut mip_start = [0u64; 16];
            let mut acc = 0u64;
            for m in 0..p.standard.min(16) {
                mip_start[m as usize] = acc;
                let (w, h, d) = extents(desc, m);
                acc += tiles_for_extent(&p.shape, w, h, d);
            }
            for k in 0..written {
                let s = first_subresource_tiling + k;
                let mip = s % p.mips;
                let slice = s / p.mips;
                let Some(t) = out.get_mut(k as usize) else { break };
                *t = if mip < p.standard {
                    let (w, h, d) = extents(desc, mip);
                    D3D12_SUBRESOURCE_TILING {
                        WidthInTiles: sat_u32(w.div_ceil(p.shape.WidthInTexels as u64)),
                        HeightInTiles: h.div_ceil(p.shape.HeightInTexels as u64).min(u16::MAX as u64) as u16,
                        DepthInTiles: d.div_ceil(p.shape.DepthInTexels as u64).min(u16::MAX as u64) as u16,
                        StartTileIndexInOverallResource: sat_u32(slice as u64 * per_slice + mip_start[mip as usize]),
                    }
                } else {
                    D3D12_SUBRESOURCE_TILING {
                        WidthInTiles: 0,
                        HeightInTiles: 0,
                        DepthInTiles: 0,
                        StartTileIndexInOverallResource: sys::D3D12_PACKED_TILE,
                    }
                };
            }
        }
        *n = written;
    }

    ResourceTiling { num_tiles: sat_u32(per_slice * p.array as u64), packed_mip_info, tile_shape: p.shape }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_sys::*;

    fn tex(dim: D3D12_RESOURCE_DIMENSION, w: u64, h: u32, d: u16, mips: u16, fmt: DXGI_FORMAT) -> D3D12_RESOURCE_DESC1 {
        D3D12_RESOURCE_DESC1 {
            Dimension: dim,
            Width: w,
            Height: h,
            DepthOrArraySize: d,
            MipLevels: mips,
            Format: fmt,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            Layout: D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE,
            ..Default::default()
        }
    }

    fn s3(s: D3D12_TILE_SHAPE) -> (u32, u32, u32) {
        (s.WidthInTexels, s.HeightInTexels, s.DepthInTexels)
    }

    const D2: D3D12_RESOURCE_DIMENSION = D3D12_RESOURCE_DIMENSION_TEXTURE2D;
    const D3: D3D12_RESOURCE_DIMENSION = D3D12_RESOURCE_DIMENSION_TEXTURE3D;

    #[test]
    fn standard_2d_shapes_native() {
        // heaps-and-memory.md §8.2 native list
        let cases = [
            (DXGI_FORMAT_R8_UNORM, (256, 256, 1)),
            (DXGI_FORMAT_R8G8_UNORM, (256, 128, 1)),
            (DXGI_FORMAT_R8G8B8A8_UNORM, (128, 128, 1)),
            (DXGI_FORMAT_R16G16B16A16_FLOAT, (128, 64, 1)),
            (DXGI_FORMAT_R32G32B32A32_FLOAT, (64, 64, 1)),
            (DXGI_FORMAT_D16_UNORM, (256, 128, 1)),
            (DXGI_FORMAT_D32_FLOAT, (128, 128, 1)),
            (DXGI_FORMAT_BC1_UNORM, (512, 256, 1)),
            (DXGI_FORMAT_BC4_UNORM, (512, 256, 1)),
            (DXGI_FORMAT_BC2_UNORM, (256, 256, 1)),
            (DXGI_FORMAT_BC3_UNORM, (256, 256, 1)),
            (DXGI_FORMAT_BC5_UNORM, (256, 256, 1)),
            (DXGI_FORMAT_BC6H_UF16, (256, 256, 1)),
            (DXGI_FORMAT_BC7_UNORM, (256, 256, 1)),
            // 96-bit uses the 128 row in 2D
            (DXGI_FORMAT_R32G32B32_FLOAT, (64, 64, 1)),
        ];
        for (f, s) in cases {
            assert_eq!(s3(tile_shape_64k(f, D2, 1).unwrap()), s, "{:?}", format::name(f));
        }
    }

    #[test]
    fn standard_3d_shapes_native() {
        let cases = [
            (DXGI_FORMAT_R8_UNORM, (64, 32, 32)),
            (DXGI_FORMAT_R8G8_UNORM, (32, 32, 32)),
            (DXGI_FORMAT_R8G8B8A8_UNORM, (32, 32, 16)),
            (DXGI_FORMAT_R16G16B16A16_FLOAT, (32, 16, 16)),
            (DXGI_FORMAT_R32G32B32A32_FLOAT, (16, 16, 16)),
            (DXGI_FORMAT_BC1_UNORM, (128, 64, 16)),
            (DXGI_FORMAT_BC7_UNORM, (64, 64, 16)),
            (DXGI_FORMAT_R8G8_B8G8_UNORM, (64, 32, 16)),
        ];
        for (f, s) in cases {
            assert_eq!(s3(tile_shape_64k(f, D3, 1).unwrap()), s, "{:?}", format::name(f));
        }
        assert!(tile_shape_64k(DXGI_FORMAT_R32G32B32_FLOAT, D3, 1).is_none());
    }

    #[test]
    fn shapes_are_64k() {
        for i in format::all() {
            for dim in [D3D12_RESOURCE_DIMENSION_TEXTURE1D, D2, D3] {
                if let Some(s) = tile_shape_64k(i.format, dim, 1) {
                    if i.bits_per_element % 8 != 0 || i.bits_per_element == 96 {
                        continue;
                    }
                    let texels = s.WidthInTexels as u64 * s.HeightInTexels as u64 * s.DepthInTexels as u64;
                    let bytes = if i.is_block_compressed() {
                        texels / 16 * i.bytes_per_element() as u64
                    } else {
                        texels * i.bits_per_element as u64 / 8
                    };
                    assert_eq!(bytes, 65536, "{} {:?}", i.name, dim);
                }
                if let Some(s) = tile_shape_4k(i.format, dim, 1) {
                    if i.bits_per_element % 8 != 0 || i.bits_per_element == 96 {
                        continue;
                    }
                    let texels = s.WidthInTexels as u64 * s.HeightInTexels as u64 * s.DepthInTexels as u64;
                    let bytes = if i.is_block_compressed() {
                        texels / 16 * i.bytes_per_element() as u64
                    } else {
                        texels * i.bits_per_element as u64 / 8
                    };
                    assert_eq!(bytes, 4096, "{} {:?}", i.name, dim);
                }
            }
        }
    }

    #[test]
    fn msaa_shapes() {
        let f = DXGI_FORMAT_R8G8B8A8_UNORM;
        assert_eq!(s3(tile_shape_64k(f, D2, 2).unwrap()), (64, 128, 1));
        assert_eq!(s3(tile_shape_64k(f, D2, 4).unwrap()), (64, 64, 1));
        assert_eq!(s3(tile_shape_64k(f, D2, 8).unwrap()), (32, 64, 1));
        assert_eq!(s3(tile_shape_64k(f, D2, 16).unwrap()), (32, 32, 1));
        assert!(tile_shape_64k(f, D2, 3).is_none());
    }

    #[test]
    fn four_k_shapes() {
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_R8G8B8A8_UNORM, D2, 1).unwrap()), (32, 32, 1));
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_BC1_UNORM, D2, 1).unwrap()), (128, 64, 1));
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_BC7_UNORM, D2, 1).unwrap()), (64, 64, 1));
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_R32G32B32_FLOAT, D2, 1).unwrap()), (16, 16, 1));
        assert_eq!(
            s3(tile_shape_4k(DXGI_FORMAT_R8G8B8A8_UNORM, D3D12_RESOURCE_DIMENSION_TEXTURE1D, 1).unwrap()),
            (1024, 1, 1)
        );
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_R8_UNORM, D3, 1).unwrap()), (16, 16, 16));
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_R32G32B32A32_FLOAT, D3, 1).unwrap()), (8, 8, 4));
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_BC1_UNORM, D3, 1).unwrap()), (32, 32, 8));
        assert_eq!(s3(tile_shape_4k(DXGI_FORMAT_BC3_UNORM, D3, 1).unwrap()), (32, 32, 4));
    }

    #[test]
    fn rgba8_512_10_mips_native() {
        let d = tex(D2, 512, 512, 1, 10, DXGI_FORMAT_R8G8B8A8_UNORM);
        let c = Caps::fl11_1_reference();
        let mut n = 64u32;
        let mut t = [D3D12_SUBRESOURCE_TILING::default(); 64];
        let r = resource_tiling(&d, &c, Some(&mut n), 0, Some(&mut t));
        // mips 512 (4×4), 256 (2×2), 128 (1×1) standard; 64.. packed
        assert_eq!(r.packed_mip_info.NumStandardMips, 3);
        assert_eq!(r.packed_mip_info.NumPackedMips, 7);
        // tail = 64²·4 + 32²·4 + 16²·4 + 8²·4 + 4²·4 + 2²·4 + 1·4 = 21844 bytes → 1 tile
        assert_eq!(r.packed_mip_info.NumTilesForPackedMips, 1);
        assert_eq!(r.packed_mip_info.StartTileIndexInOverallResource, 21);
        assert_eq!(r.num_tiles, 22);
        assert_eq!(s3(r.tile_shape), (128, 128, 1));
        assert_eq!(n, 10);
        assert_eq!(
            (t[0].WidthInTiles, t[0].HeightInTiles, t[0].DepthInTiles, t[0].StartTileIndexInOverallResource),
            (4, 4, 1, 0)
        );
        assert_eq!((t[1].WidthInTiles, t[1].HeightInTiles, t[1].StartTileIndexInOverallResource), (2, 2, 16));
        assert_eq!((t[2].WidthInTiles, t[2].HeightInTiles, t[2].StartTileIndexInOverallResource), (1, 1, 20));
        for p in &t[3..10] {
            assert_eq!((p.WidthInTiles, p.HeightInTiles, p.DepthInTiles), (0, 0, 0));
            assert_eq!(p.StartTileIndexInOverallResource, 0xFFFF_FFFF);
        }
    }

    #[test]
    fn rgba8_512_3_mips_array4_native() {
        let d = tex(D2, 512, 512, 4, 3, DXGI_FORMAT_R8G8B8A8_UNORM);
        let c = Caps::fl11_1_reference();
        let mut n = 64u32;
        let mut t = [D3D12_SUBRESOURCE_TILING::default(); 64];
        let r = resource_tiling(&d, &c, Some(&mut n), 0, Some(&mut t));
        assert_eq!(r.num_tiles, 84);
        assert_eq!(n, 12);
        assert_eq!(r.packed_mip_info.NumPackedMips, 0);
        assert_eq!(r.packed_mip_info.NumTilesForPackedMips, 0);
        assert_eq!(r.packed_mip_info.StartTileIndexInOverallResource, 0);
        // slice 1 mip 0 starts after slice 0's 21 tiles
        assert_eq!(t[3].StartTileIndexInOverallResource, 21);
        assert_eq!(t[5].StartTileIndexInOverallResource, 21 + 20);
        assert_eq!(t[11].StartTileIndexInOverallResource, 63 + 20);
        // First 2, capacity 64 → 10 written; capacity 1 → exactly one written
        let mut n = 64;
        resource_tiling(&d, &c, Some(&mut n), 2, Some(&mut t));
        assert_eq!(n, 10);
        let mut n = 1;
        let mut t2 = [D3D12_SUBRESOURCE_TILING {
            WidthInTiles: 77,
            HeightInTiles: 77,
            DepthInTiles: 77,
            StartTileIndexInOverallResource: 77,
        }; 3];
        resource_tiling(&d, &c, Some(&mut n), 4, Some(&mut t2));
        assert_eq!(n, 1);
        assert_eq!(t2[0].StartTileIndexInOverallResource, 21 + 16);
        assert_eq!(t2[1].WidthInTiles, 77);
        // First ≥ count → 0 written
        let mut n = 8;
        resource_tiling(&d, &c, Some(&mut n), 12, Some(&mut t2));
        assert_eq!(n, 0);
    }

    #[test]
    fn fully_packed_64x64() {
        let d = tex(D2, 64, 64, 1, 1, DXGI_FORMAT_R8G8B8A8_UNORM);
        let r = resource_tiling(&d, &Caps::fl11_1_reference(), None, 0, None);
        assert_eq!(r.num_tiles, 1);
        assert_eq!(r.packed_mip_info.NumStandardMips, 0);
        assert_eq!(r.packed_mip_info.NumPackedMips, 1);
        assert_eq!(r.packed_mip_info.NumTilesForPackedMips, 1);
        assert_eq!(r.packed_mip_info.StartTileIndexInOverallResource, 0);
        // the normal shape is still reported
        assert_eq!(s3(r.tile_shape), (128, 128, 1));
    }

    #[test]
    fn rgba32f_3d_64_cubed_3_mips_native() {
        let d = tex(D3, 64, 64, 64, 3, DXGI_FORMAT_R32G32B32A32_FLOAT);
        let r = resource_tiling(&d, &Caps::fl11_1_reference(), None, 0, None);
        // 4×4×4 + 2×2×2 + 1 = 73
        assert_eq!(r.num_tiles, 73);
        assert_eq!(r.packed_mip_info.NumPackedMips, 0);
        let mut n = 3;
        let mut t = [D3D12_SUBRESOURCE_TILING::default(); 3];
        resource_tiling(&d, &Caps::fl11_1_reference(), Some(&mut n), 0, Some(&mut t));
        assert_eq!(
            (t[1].WidthInTiles, t[1].HeightInTiles, t[1].DepthInTiles, t[1].StartTileIndexInOverallResource),
            (2, 2, 2, 64)
        );
        assert_eq!(t[2].StartTileIndexInOverallResource, 72);
    }

    #[test]
    fn buffers_native() {
        let mut b = tex(D3D12_RESOURCE_DIMENSION_BUFFER, 1024, 1, 1, 1, DXGI_FORMAT_UNKNOWN);
        b.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        let mut n = 4;
        let mut t = [D3D12_SUBRESOURCE_TILING::default(); 4];
        let r = resource_tiling(&b, &Caps::fl11_1_reference(), Some(&mut n), 0, Some(&mut t));
        assert_eq!(r.num_tiles, 1);
        assert_eq!(s3(r.tile_shape), (65536, 1, 1));
        assert_eq!((r.packed_mip_info.NumStandardMips, r.packed_mip_info.NumPackedMips), (0, 0));
        assert_eq!(n, 1);
        assert_eq!(
            (t[0].WidthInTiles, t[0].HeightInTiles, t[0].DepthInTiles, t[0].StartTileIndexInOverallResource),
            (1, 1, 1, 0)
        );
        b.Width = 16 * 65536;
        assert_eq!(resource_tiling(&b, &Caps::fl11_1_reference(), None, 0, None).num_tiles, 16);
        b.Width = 16 * 65536 + 1;
        assert_eq!(num_tiles(&b, &Caps::today()), 17);
    }

    #[test]
    fn tier1_packs_non_multiples() {
        // 384×384 RGBA8: tiers ≥ 2 keep mip 1 (192×192 ≥ 128) standard; tier 1 packs it
        // because 192 is not a multiple of 128.
        let d = tex(D2, 384, 384, 1, 3, DXGI_FORMAT_R8G8B8A8_UNORM);
        let mut c = Caps::fl11_1_reference();
        c.tiled_resources_tier = 2;
        let r2 = resource_tiling(&d, &c, None, 0, None);
        assert_eq!(r2.packed_mip_info.NumStandardMips, 2);
        c.tiled_resources_tier = 1;
        let r1 = resource_tiling(&d, &c, None, 0, None);
        assert_eq!(r1.packed_mip_info.NumStandardMips, 1);
        // 192²·4 + 96²·4 = 147456 + 36864 = 184320 bytes → 3 tiles; mip0 3×3 = 9
        assert_eq!(r1.packed_mip_info.NumTilesForPackedMips, 3);
        assert_eq!(r1.num_tiles, 12);
    }
}
