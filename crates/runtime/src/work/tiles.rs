//! Tile mappings of reserved resources: which heap tile backs each 64 KB tile of a reserved
//! resource, the semantics of UpdateTileMappings and CopyTileMappings (the queue executes them
//! in its order), and byte access through the mapping: unmapped tiles read as zero and swallow
//! writes (tiled resources tier 2 and up).
//!
//! Tile numbering is GetResourceTiling's: per array slice, the standard tiles of each mip in
//! order (x fastest, then y, then z within a mip), then the slice's packed tiles. Inside a
//! standard tile, texels (blocks for BC formats) are stored row by row: a tile of the standard
//! shape W×H×D holds D slices of H rows of W elements. Packed mips are stored in the tight
//! layout one after another across the packed tiles.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12commandqueue-updatetilemappings>

use crate::error::{Error, Result};
use crate::work::memory::Allocation;
use rd3d12_core::{format, tiling, Caps};
use rd3d12_sys::*;
use std::sync::Arc;

pub const TILE: u64 = D3D12_TILED_RESOURCE_TILE_SIZE_IN_BYTES as u64;

/// A heap tile backing a resource tile.
#[derive(Clone)]
pub struct TileRef {
    pub heap: Arc<Allocation>,
    /// Offset in the heap, in 64 KB tiles.
    pub tile: u32,
}

impl TileRef {
    fn ptr(&self) -> *mut u8 {
        // SAFETY: mappings are only created for tiles inside the heap (checked in `update`).
        unsafe { self.heap.base().add(self.tile as usize * TILE as usize) }
    }
}

/// One range of UpdateTileMappings: flags, heap start tile, tile count.
#[derive(Clone, Copy, Debug)]
pub struct Range {
    pub flags: D3D12_TILE_RANGE_FLAGS,
    pub heap_start: u32,
    pub count: u32,
}

/// The tile mapping of one reserved resource.
pub struct TileMap {
    desc: D3D12_RESOURCE_DESC1,
    shape: D3D12_TILE_SHAPE,
    packed: D3D12_PACKED_MIP_INFO,
    subresources: Vec<D3D12_SUBRESOURCE_TILING>,
    mips: u32,
    per_slice: u32,
    tiles: Vec<Option<TileRef>>,
}

fn invalid() -> Error {
    Error::invalid_arg(
        D3D12_MESSAGE_ID_UPDATETILEMAPPINGS_INVALID_PARAMETER,
        D3D12_MESSAGE_CATEGORY_EXECUTION,
        "invalid UpdateTileMappings parameters",
    )
}

impl TileMap {
    /// An all-unmapped map for a validated reserved resource desc.
    pub fn new(desc: &D3D12_RESOURCE_DESC1, caps: &Caps) -> TileMap {
        let mips = if desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER { 1 } else { desc.MipLevels.max(1) as u32 };
        let slices = match desc.Dimension {
            D3D12_RESOURCE_DIMENSION_TEXTURE1D | D3D12_RESOURCE_DIMENSION_TEXTURE2D => {
                desc.DepthOrArraySize.max(1) as u32
            }
            _ => 1,
        };
        let mut n = mips * slices;
        let mut subresources = vec![D3D12_SUBRESOURCE_TILING::default(); n as usize];
        let t = tiling::resource_tiling(desc, caps, Some(&mut n), 0, Some(&mut subresources));
        subresources.truncate(n as usize);
        let per_slice = t.num_tiles.checked_div(slices).unwrap_or(t.num_tiles);
        TileMap {
            desc: *desc,
            shape: t.tile_shape,
            packed: t.packed_mip_info,
            subresources,
            mips,
            per_slice,
            tiles: vec![None; t.num_tiles as usize],
        }
    }

    pub fn num_tiles(&self) -> u32 {
        self.tiles.len() as u32
    }

    pub fn mapping(&self, tile: u32) -> Option<&TileRef> {
        self.tiles.get(tile as usize).and_then(Option::as_ref)
    }

    fn is_packed(&self, sub: u32) -> bool {
        self.packed.NumPackedMips > 0 && sub % self.mips >= self.packed.NumStandardMips as u32
    }

    /// The resource tiles of one region, in the order UpdateTileMappings walks them.
    pub fn region_tiles(
        &self,
        c: &D3D12_TILED_RESOURCE_COORDINATE,
        size: Option<&D3D12_TILE_REGION_SIZE>,
    ) -> Result<Vec<u32>> {
        let count = size.map_or(1, |s| s.NumTiles);
        let use_box = size.is_some_and(|s| s.UseBox != 0);
        let sub = c.Subresource;
        if sub as usize >= self.subresources.len().max(1) {
            return Err(invalid());
        }
        if self.is_packed(sub) {
            // Packed mips: X indexes the slice's packed tiles; no boxes.
            let slice = sub / self.mips;
            let start = slice * self.per_slice + self.packed.StartTileIndexInOverallResource;
            let n = self.packed.NumTilesForPackedMips;
            if use_box || c.Y != 0 || c.Z != 0 || c.X.checked_add(count).is_none_or(|e| e > n) {
                return Err(invalid());
            }
            return Ok((c.X..c.X + count).map(|x| start + x).collect());
        }
        let st = self.subresources.get(sub as usize).copied().unwrap_or(D3D12_SUBRESOURCE_TILING {
            WidthInTiles: self.num_tiles(),
            HeightInTiles: 1,
            DepthInTiles: 1,
            StartTileIndexInOverallResource: 0,
        });
        let (w, h, d) = (st.WidthInTiles, st.HeightInTiles as u32, st.DepthInTiles as u32);
        if c.X >= w || c.Y >= h || c.Z >= d {
            return Err(invalid());
        }
        let index = |x: u32, y: u32, z: u32| st.StartTileIndexInOverallResource + x + y * w + z * w * h;
        if use_box {
            let s = size.unwrap();
            let (bw, bh, bd) = (s.Width, s.Height as u32, s.Depth as u32);
            // A box's depth runs through z tiles of a 3D subresource; in an array it runs
            // through the next array slices at the same mip, which are `mips` subresources
            // apart (D3D12_TILE_REGION_SIZE).
            let array = self.desc.Dimension != D3D12_RESOURCE_DIMENSION_TEXTURE3D;
            let slices = (self.subresources.len() as u32).max(1) / self.mips;
            let fits_depth = if array { c.Z == 0 && sub / self.mips + bd <= slices } else { c.Z + bd <= d };
            let (bw64, bh64, bd64) = (bw as u64, bh as u64, bd as u64);
            if bw == 0
                || bh == 0
                || bd == 0
                || bw64 * bh64 * bd64 != s.NumTiles as u64
                || c.X as u64 + bw64 > w as u64
                || c.Y as u64 + bh64 > h as u64
                || !fits_depth
            {
                return Err(invalid());
            }
            let mut v = Vec::with_capacity(s.NumTiles as usize);
            for k in 0..bd {
                let (start, z) = if array {
                    let t = self.subresources.get((sub + k * self.mips) as usize).unwrap_or(&st);
                    (t.StartTileIndexInOverallResource, 0)
                } else {
                    (st.StartTileIndexInOverallResource, c.Z + k)
                };
                for y in c.Y..c.Y + bh {
                    for x in c.X..c.X + bw {
                        v.push(start + x + y * w + z * w * h);
                    }
                }
            }
            return Ok(v);
        }
        // Without a box, tiles run linearly from the coordinate, across mips and slices.
        let first = index(c.X, c.Y, c.Z);
        if first.checked_add(count).is_none_or(|e| e > self.num_tiles()) {
            return Err(invalid());
        }
        Ok((first..first + count).collect())
    }

    /// UpdateTileMappings on this resource. `regions` pairs a start coordinate with an optional
    /// size (NULL sizes mean one tile each; a single region with neither means the whole
    /// resource). Invalid parameters leave the mapping unchanged (the method returns void; the
    /// debug layer reports #493).
    pub fn update(
        &mut self,
        regions: &[(D3D12_TILED_RESOURCE_COORDINATE, Option<D3D12_TILE_REGION_SIZE>)],
        whole_resource: bool,
        heap: Option<&Arc<Allocation>>,
        ranges: &[Range],
    ) -> Result<()> {
        let tiles: Vec<u32> = if whole_resource {
            (0..self.num_tiles()).collect()
        } else {
            let mut v = Vec::new();
            for (c, s) in regions {
                v.extend(self.region_tiles(c, s.as_ref())?);
            }
            v
        };
        let total: u64 = ranges.iter().map(|r| r.count as u64).sum();
        if total != tiles.len() as u64 {
            return Err(invalid());
        }
        let heap_tiles = heap.map_or(0, |h| (h.desc.SizeInBytes / TILE) as u32);
        let mut updates: Vec<(u32, Option<Option<TileRef>>)> = Vec::with_capacity(tiles.len());
        let mut it = tiles.into_iter();
        for r in ranges {
            let f = r.flags.0;
            for k in 0..r.count {
                let t = it.next().ok_or_else(invalid)?;
                let change = if f & D3D12_TILE_RANGE_FLAG_SKIP.0 != 0 {
                    None
                } else if f & D3D12_TILE_RANGE_FLAG_NULL.0 != 0 {
                    Some(None)
                } else {
                    let h = heap.ok_or_else(invalid)?;
                    let ht = if f & D3D12_TILE_RANGE_FLAG_REUSE_SINGLE_TILE.0 != 0 {
                        r.heap_start
                    } else {
                        r.heap_start + k
                    };
                    if ht >= heap_tiles {
                        return Err(invalid());
                    }
                    Some(Some(TileRef { heap: h.clone(), tile: ht }))
                };
                updates.push((t, change));
            }
        }
        for (t, change) in updates {
            if let Some(m) = change {
                self.tiles[t as usize] = m;
            }
        }
        Ok(())
    }

    /// CopyTileMappings: the mappings of a source region become those of a destination region
    /// (the source is read before anything is written, so overlapping copies on one resource
    /// behave as if through a temporary).
    pub fn copy_mappings(
        dst: &mut TileMap,
        dst_coord: &D3D12_TILED_RESOURCE_COORDINATE,
        src: Option<&TileMap>,
        src_coord: &D3D12_TILED_RESOURCE_COORDINATE,
        size: &D3D12_TILE_REGION_SIZE,
    ) -> Result<()> {
        let src_map = src.unwrap_or(dst);
        let from = src_map.region_tiles(src_coord, Some(size))?;
        let values: Vec<Option<TileRef>> = from.iter().map(|&t| src_map.tiles[t as usize].clone()).collect();
        let to = dst.region_tiles(dst_coord, Some(size))?;
        for (t, v) in to.into_iter().zip(values) {
            dst.tiles[t as usize] = v;
        }
        Ok(())
    }

    /// Reads `dst.len()` bytes starting at byte `offset` of resource tile `tile`; unmapped tiles
    /// read as zero.
    pub fn read(&self, tile: u32, offset: u64, dst: &mut [u8]) {
        debug_assert!(offset + dst.len() as u64 <= TILE);
        match self.mapping(tile) {
            // SAFETY: the mapped heap tile holds TILE bytes and the range lies inside it.
            Some(m) => unsafe { std::ptr::copy(m.ptr().add(offset as usize), dst.as_mut_ptr(), dst.len()) },
            None => dst.fill(0),
        }
    }

    /// Writes into resource tile `tile` at `offset`; writes to unmapped tiles are dropped.
    pub fn write(&self, tile: u32, offset: u64, src: &[u8]) {
        debug_assert!(offset + src.len() as u64 <= TILE);
        if let Some(m) = self.mapping(tile) {
            // SAFETY: as in `read`.
            unsafe { std::ptr::copy(src.as_ptr(), m.ptr().add(offset as usize), src.len()) }
        }
    }

    /// Byte range `[offset, offset + len)` of a reserved buffer as (tile, offset in tile, length)
    /// pieces.
    pub fn buffer_pieces(offset: u64, len: u64) -> impl Iterator<Item = (u32, u64, usize)> {
        let mut pos = offset;
        let end = offset + len;
        std::iter::from_fn(move || {
            if pos >= end {
                return None;
            }
            let tile = pos / TILE;
            let off = pos % TILE;
            let n = (TILE - off).min(end - pos);
            pos += n;
            Some((tile as u32, off, n as usize))
        })
    }

    /// Where element (x, y, z) (in blocks for block-compressed formats) of a standard-mip
    /// subresource lives: (resource tile, byte offset in the tile). `None` for packed mips and
    /// coordinates outside the subresource.
    pub fn locate(&self, sub: u32, x: u32, y: u32, z: u32) -> Option<(u32, u64)> {
        if self.is_packed(sub) {
            return None;
        }
        let st = self.subresources.get(sub as usize)?;
        let info = format::info(self.desc.Format)?;
        let (bw, bh) = (info.block_width.max(1) as u32, info.block_height.max(1) as u32);
        let bpe = (info.bits_per_element as u64).div_ceil(8);
        // Tile shape in elements (blocks).
        let (tw, th, td) = (self.shape.WidthInTexels / bw, self.shape.HeightInTexels / bh, self.shape.DepthInTexels);
        if tw == 0 || th == 0 || td == 0 {
            return None;
        }
        let (txi, tyi, tzi) = (x / tw, y / th, z / td);
        if txi >= st.WidthInTiles || tyi >= st.HeightInTiles as u32 || tzi >= st.DepthInTiles as u32 {
            return None;
        }
        let tile = st.StartTileIndexInOverallResource
            + txi
            + tyi * st.WidthInTiles
            + tzi * st.WidthInTiles * st.HeightInTiles as u32;
        let off = (((z % td) as u64 * th as u64 + (y % th) as u64) * tw as u64 + (x % tw) as u64) * bpe;
        Some((tile, off))
    }

    /// Elements (blocks for block-compressed formats) per row of a standard tile.
    pub fn tile_row_elements(&self) -> u32 {
        let bw = format::info(self.desc.Format).map_or(1, |i| i.block_width.max(1) as u32);
        (self.shape.WidthInTexels / bw).max(1)
    }

    /// Where byte `byte` of a packed-mip subresource lives: packed mips are stored in the tight
    /// layout one after another across the slice's packed tiles.
    pub fn packed_address(&self, sub: u32, byte: u64) -> Option<(u32, u64)> {
        if !self.is_packed(sub) {
            return None;
        }
        let slice = sub / self.mips;
        let first_packed = slice * self.mips + self.packed.NumStandardMips as u32;
        let (base, _) = rd3d12_core::allocation::subresource_layout(&self.desc, first_packed)?;
        let (off, _) = rd3d12_core::allocation::subresource_layout(&self.desc, sub)?;
        let pos = off - base + byte;
        let (start, count) = self.packed_tiles(slice);
        let tile = (pos / TILE) as u32;
        (tile < count).then_some((start + tile, pos % TILE))
    }

    /// The first tile of a slice's packed tail and how many there are.
    pub fn packed_tiles(&self, slice: u32) -> (u32, u32) {
        (slice * self.per_slice + self.packed.StartTileIndexInOverallResource, self.packed.NumTilesForPackedMips)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(width: u64) -> D3D12_RESOURCE_DESC1 {
        D3D12_RESOURCE_DESC1 {
            Dimension: D3D12_RESOURCE_DIMENSION_BUFFER,
            Width: width,
            Height: 1,
            DepthOrArraySize: 1,
            MipLevels: 1,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            Layout: D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
            ..Default::default()
        }
    }

    fn tex(w: u64, h: u32, mips: u16, array: u16) -> D3D12_RESOURCE_DESC1 {
        D3D12_RESOURCE_DESC1 {
            Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
            Width: w,
            Height: h,
            DepthOrArraySize: array,
            MipLevels: mips,
            Format: DXGI_FORMAT_R8G8B8A8_UNORM,
            SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
            Layout: D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE,
            ..Default::default()
        }
    }

    fn caps() -> Caps {
        Caps::fl11_1_reference()
    }

    fn coord(x: u32, y: u32, z: u32, sub: u32) -> D3D12_TILED_RESOURCE_COORDINATE {
        D3D12_TILED_RESOURCE_COORDINATE { X: x, Y: y, Z: z, Subresource: sub }
    }

    fn none() -> Range {
        Range { flags: D3D12_TILE_RANGE_FLAG_NONE, heap_start: 0, count: 0 }
    }

    #[test]
    fn tile_numbering_matches_get_resource_tiling() {
        // 512×512 RGBA8 with 10 mips: standard mips 512², 256², 128² = 16 + 4 + 1 tiles, packed
        // tail from index 21 (heaps-and-memory.md §8.3).
        let m = TileMap::new(&tex(512, 512, 10, 1), &caps());
        assert_eq!(m.packed.NumStandardMips, 3);
        assert_eq!(m.packed_tiles(0).0, 21);
        assert_eq!(m.region_tiles(&coord(0, 0, 0, 1), None).unwrap(), vec![16]);
        assert_eq!(m.region_tiles(&coord(1, 1, 0, 0), None).unwrap(), vec![5]);
        let boxed = D3D12_TILE_REGION_SIZE { NumTiles: 4, UseBox: 1, Width: 2, Height: 2, Depth: 1 };
        assert_eq!(m.region_tiles(&coord(2, 2, 0, 0), Some(&boxed)).unwrap(), vec![10, 11, 14, 15]);
        // Without a box, tiles run on into the next mip.
        let lin = D3D12_TILE_REGION_SIZE { NumTiles: 3, UseBox: 0, Width: 0, Height: 0, Depth: 0 };
        assert_eq!(m.region_tiles(&coord(3, 3, 0, 0), Some(&lin)).unwrap(), vec![15, 16, 17]);
        assert!(m.region_tiles(&coord(4, 0, 0, 0), None).is_err(), "X beyond the mip's 4 tiles");
    }

    #[test]
    fn box_depth_walks_array_slices_and_linear_regions_spill_into_the_next_subresource() {
        // 256×256 RGBA8, 2 mips, 3 slices: per slice mip 0 = 2×2 tiles, mip 1 = 1 tile →
        // slice s holds tiles 5s..5s+4 (D3D12_TILE_REGION_SIZE: a box's Depth in an array goes
        // to the next slice at the same mip, `mips` subresources further).
        let m = TileMap::new(&tex(256, 256, 2, 3), &caps());
        assert_eq!((m.num_tiles(), m.packed.NumPackedMips), (15, 0));
        let boxed = |w, h: u16, d: u16| D3D12_TILE_REGION_SIZE {
            NumTiles: w * h as u32 * d as u32,
            UseBox: 1,
            Width: w,
            Height: h,
            Depth: d,
        };
        // subresource 2 = slice 1, mip 0: x, y, then the slices
        assert_eq!(m.region_tiles(&coord(1, 0, 0, 2), Some(&boxed(1, 2, 2))).unwrap(), vec![6, 8, 11, 13]);
        // mip 1 of slices 0..3 (subresources 1, 3, 5)
        assert_eq!(m.region_tiles(&coord(0, 0, 0, 1), Some(&boxed(1, 1, 3))).unwrap(), vec![4, 9, 14]);
        // past the last slice, or a Z in an array
        assert!(m.region_tiles(&coord(0, 0, 0, 3), Some(&boxed(1, 1, 3))).is_err());
        assert!(m.region_tiles(&coord(0, 0, 1, 0), Some(&boxed(1, 1, 1))).is_err());
        // NumTiles must be Width × Height × Depth
        let wrong = D3D12_TILE_REGION_SIZE { NumTiles: 3, ..boxed(1, 1, 2) };
        assert!(m.region_tiles(&coord(0, 0, 0, 0), Some(&wrong)).is_err());
        // no box: x, then y, then on into mip 1 and slice 1 (subresource order)
        let lin = D3D12_TILE_REGION_SIZE { NumTiles: 4, UseBox: 0, Width: 0, Height: 0, Depth: 0 };
        assert_eq!(m.region_tiles(&coord(1, 1, 0, 0), Some(&lin)).unwrap(), vec![3, 4, 5, 6]);
        assert!(m.region_tiles(&coord(0, 0, 0, 5), Some(&lin)).is_err(), "past the resource's 15 tiles");
    }

    #[test]
    fn unmapped_tiles_read_zero_and_swallow_writes() {
        let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
        let heap_desc = D3D12_HEAP_DESC { SizeInBytes: 4 * TILE, ..Default::default() };
        let heap = Allocation::new(&dev.inner, heap_desc, None).unwrap();
        let mut m = TileMap::new(&buffer(3 * TILE), &caps());
        assert_eq!(m.num_tiles(), 3);
        // Map resource tile 1 to heap tile 2.
        m.update(&[(coord(1, 0, 0, 0), None)], false, Some(&heap), &[Range { heap_start: 2, count: 1, ..none() }])
            .unwrap();
        m.write(1, 10, b"abc");
        m.write(0, 10, b"xyz");
        let mut out = [9u8; 3];
        m.read(1, 10, &mut out);
        assert_eq!(&out, b"abc");
        m.read(0, 10, &mut out);
        assert_eq!(out, [0, 0, 0], "unmapped tile reads zero after a dropped write");
        // The heap's bytes changed at tile 2.
        // SAFETY: the heap holds 4 tiles.
        assert_eq!(unsafe { *heap.base().add(2 * TILE as usize + 11) }, b'b');
        // NULL range unmaps.
        m.update(
            &[(coord(1, 0, 0, 0), None)],
            false,
            None,
            &[Range { flags: D3D12_TILE_RANGE_FLAG_NULL, ..none() }].map(|r| Range { count: 1, ..r }),
        )
        .unwrap();
        m.read(1, 10, &mut out);
        assert_eq!(out, [0, 0, 0]);
    }

    #[test]
    fn update_semantics_skip_reuse_and_counts() {
        let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
        let heap =
            Allocation::new(&dev.inner, D3D12_HEAP_DESC { SizeInBytes: 8 * TILE, ..Default::default() }, None).unwrap();
        let mut m = TileMap::new(&buffer(6 * TILE), &caps());
        // Whole resource: tiles 0..6 ← heap tiles 1..7.
        m.update(&[], true, Some(&heap), &[Range { heap_start: 1, count: 6, ..none() }]).unwrap();
        assert_eq!((0..6).map(|t| m.mapping(t).unwrap().tile).collect::<Vec<_>>(), vec![1, 2, 3, 4, 5, 6]);
        // Skip 2, reuse heap tile 0 for 2, NULL for 2.
        let size = D3D12_TILE_REGION_SIZE { NumTiles: 6, ..Default::default() };
        let ranges = [
            Range { flags: D3D12_TILE_RANGE_FLAG_SKIP, heap_start: 0, count: 2 },
            Range { flags: D3D12_TILE_RANGE_FLAG_REUSE_SINGLE_TILE, heap_start: 0, count: 2 },
            Range { flags: D3D12_TILE_RANGE_FLAG_NULL, heap_start: 0, count: 2 },
        ];
        m.update(&[(coord(0, 0, 0, 0), Some(size))], false, Some(&heap), &ranges).unwrap();
        let got: Vec<Option<u32>> = (0..6).map(|t| m.mapping(t).map(|r| r.tile)).collect();
        assert_eq!(got, vec![Some(1), Some(2), Some(0), Some(0), None, None]);
        // Range total must equal the region total; a failed update changes nothing.
        assert!(m
            .update(&[(coord(0, 0, 0, 0), Some(size))], false, Some(&heap), &[Range { count: 5, ..none() }])
            .is_err());
        assert_eq!(m.mapping(0).unwrap().tile, 1);
        // Heap tiles beyond the heap are invalid.
        assert!(m
            .update(&[(coord(0, 0, 0, 0), None)], false, Some(&heap), &[Range { heap_start: 8, count: 1, ..none() }])
            .is_err());
    }

    #[test]
    fn copy_mappings_and_texel_location() {
        let dev = crate::create_device(D3D_FEATURE_LEVEL_11_0).unwrap();
        let heap =
            Allocation::new(&dev.inner, D3D12_HEAP_DESC { SizeInBytes: 4 * TILE, ..Default::default() }, None).unwrap();
        let mut a = TileMap::new(&tex(256, 256, 1, 1), &caps());
        assert_eq!(a.num_tiles(), 4, "256² RGBA8 = 2×2 tiles of 128×128");
        a.update(&[], true, Some(&heap), &[Range { heap_start: 0, count: 4, ..none() }]).unwrap();
        let mut b = TileMap::new(&tex(256, 256, 1, 1), &caps());
        let one = D3D12_TILE_REGION_SIZE { NumTiles: 1, ..Default::default() };
        TileMap::copy_mappings(&mut b, &coord(0, 0, 0, 0), Some(&a), &coord(1, 1, 0, 0), &one).unwrap();
        assert_eq!(b.mapping(0).unwrap().tile, 3);
        assert!(b.mapping(1).is_none());
        // Texel (130, 5) is in tile (1, 0) = index 1, row 5, column 2: (5 × 128 + 2) × 4 bytes.
        assert_eq!(a.locate(0, 130, 5, 0), Some((1, (5 * 128 + 2) * 4)));
        assert_eq!(a.locate(0, 256, 0, 0), None);
    }
}
