//! The fragment work of a batch of set-up primitives, split by screen tiles: each primitive is
//! binned into the tiles its pixel box touches, and every tile with work runs its primitives in
//! submission order on one worker ([`super::Workers`]). A pixel belongs to one tile, so its depth
//! tests and blends happen in the order of the single-threaded draw, whatever the interleaving
//! of tiles; pixel shader UAV writes land in any order, which D3D allows (no rasterizer-ordered
//! views). Statistics are summed over the tiles; every worker runs under the deadline of the
//! thread that started the draw ([`interp::with_deadline`]).

use super::fragment::{self, FragmentStats, Scratch};
use super::setup::{DrawState, SetupPrimitive};
use super::target::{DepthStencilTarget, Target};
use super::{DrawError, DrawStats, Handles};
use crate::raster::Rect;
use rayon::prelude::*;
use rd3d12_shader::interp;

#[cfg(test)]
mod tests;

/// The most tiles of one grid; larger areas get larger tiles.
const MAX_TILES: i64 = 1 << 16;

/// A grid of square tiles over a pixel rectangle, tile edges at multiples of `size` (even, so
/// that 2x2 quads never straddle tiles).
struct Grid {
    x0: i64,
    y0: i64,
    columns: i64,
    rows: i64,
    size: i64,
}

impl Grid {
    fn over(area: Rect, size: u32) -> Grid {
        let mut size = i64::from(size.max(2) & !1);
        loop {
            let x0 = i64::from(area.left).div_euclid(size);
            let y0 = i64::from(area.top).div_euclid(size);
            let columns = (i64::from(area.right) - 1).div_euclid(size) - x0 + 1;
            let rows = (i64::from(area.bottom) - 1).div_euclid(size) - y0 + 1;
            if columns * rows <= MAX_TILES {
                return Grid { x0, y0, columns, rows, size };
            }
            size *= 2;
        }
    }

    /// The tiles (column, row ranges) a pixel rectangle touches.
    fn span(&self, r: &Rect) -> (std::ops::Range<i64>, std::ops::Range<i64>) {
        let c = |v: i32, o: i64, n: i64| (i64::from(v).div_euclid(self.size) - o).clamp(0, n);
        let cols = c(r.left, self.x0, self.columns)..c(r.right - 1, self.x0, self.columns - 1) + 1;
        let rows = c(r.top, self.y0, self.rows)..c(r.bottom - 1, self.y0, self.rows - 1) + 1;
        (cols, rows)
    }

    fn rect(&self, index: usize) -> Rect {
        let (col, row) = (index as i64 % self.columns, index as i64 / self.columns);
        let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
        let (x, y) = ((self.x0 + col) * self.size, (self.y0 + row) * self.size);
        Rect { left: clamp(x), top: clamp(y), right: clamp(x + self.size), bottom: clamp(y + self.size) }
    }
}

/// One tile's outcome: its counts, and the first error it met with the index of the primitive.
type TileResult = (FragmentStats, Option<(usize, DrawError)>);

/// Runs the fragment stage of `prims` (in submission order) over every tile, adds the counts to
/// `stats`, and returns the error of the earliest primitive that failed in any tile.
pub(super) fn run(
    st: &DrawState<'_>,
    prims: &[SetupPrimitive],
    handles: &Handles,
    targets: &[Option<Target<'_>>],
    depth: Option<&DepthStencilTarget<'_>>,
    stats: &mut DrawStats,
) -> Result<(), DrawError> {
    if prims.is_empty() {
        return Ok(());
    }
    let area = prims.iter().map(|p| p.bounds).reduce(|a, b| Rect {
        left: a.left.min(b.left),
        top: a.top.min(b.top),
        right: a.right.max(b.right),
        bottom: a.bottom.max(b.bottom),
    });
    let Some(area) = area else { return Ok(()) };
    let grid = Grid::over(area, st.call.workers.tile);
    let mut bins: Vec<Vec<u32>> = vec![Vec::new(); (grid.columns * grid.rows) as usize];
    for (i, p) in prims.iter().enumerate() {
        let (cols, rows) = grid.span(&p.bounds);
        for row in rows {
            for col in cols.clone() {
                bins[(row * grid.columns + col) as usize].push(i as u32);
            }
        }
    }
    let work: Vec<(usize, &[u32])> =
        bins.iter().enumerate().filter(|(_, b)| !b.is_empty()).map(|(t, b)| (t, &b[..])).collect();
    let deadline = interp::current_deadline();
    let tile = |&(t, ids): &(usize, &[u32]), scratch: &mut Scratch| -> TileResult {
        interp::with_deadline(deadline, || {
            let mut counts = FragmentStats::default();
            let rect = grid.rect(t);
            for &i in ids {
                let prim = &prims[i as usize];
                if let Err(e) = fragment::shade(st, prim, rect, handles, targets, depth, scratch, &mut counts) {
                    return (counts, Some((i as usize, e)));
                }
            }
            (counts, None)
        })
    };
    let results: Vec<TileResult> = match st.call.workers.pool {
        Some(pool) if work.len() > 1 => {
            pool.install(|| work.par_iter().map_init(Scratch::default, |s, w| tile(w, s)).collect())
        }
        _ => {
            let mut scratch = Scratch::default();
            work.iter().map(|w| tile(w, &mut scratch)).collect()
        }
    };
    let mut first: Option<(usize, DrawError)> = None;
    for (counts, error) in results {
        stats.ps_invocations += counts.ps_invocations;
        stats.pixels_shaded += counts.pixels_shaded;
        stats.pixels_written += counts.pixels_written;
        stats.samples_passed += counts.samples_passed;
        if let Some((i, e)) = error {
            if first.as_ref().is_none_or(|(j, _)| i < *j) {
                first = Some((i, e));
            }
        }
    }
    first.map_or(Ok(()), |(_, e)| Err(e))
}
