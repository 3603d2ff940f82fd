//! The draw's render targets and depth-stencil planes: where each pixel's bytes lie, in a
//! [`Surface`] the backend provides. A draw's workers share the targets read-only and write
//! through the surface, each to the pixels of its own screen tiles, so no two touch the same
//! bytes; nothing here holds a slice over memory that another thread writes.

use rd3d12_sys as sys;
use std::sync::atomic::{AtomicU8, Ordering};

/// The memory of a render target or depth-stencil plane: byte ranges read and written by
/// offset from the subresource's first byte. Implementations are shared by the draw's workers
/// (`Sync`); the draw never has two workers touch the same bytes at once.
pub trait Surface: Sync {
    /// The bytes the surface holds.
    fn len(&self) -> usize;
    /// Whether it holds none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Copies `dst.len()` bytes from `offset` into `dst`; `false` (and `dst` untouched) when
    /// they are not all inside.
    fn read(&self, offset: usize, dst: &mut [u8]) -> bool;
    /// Copies `src` to `offset`; `false` (and nothing written) when it is not all inside.
    fn write(&self, offset: usize, src: &[u8]) -> bool;
}

/// Bytes in host memory as atomics: a [`Surface`] without `unsafe` (tests, benchmarks, and the
/// backend's path for memory it cannot address directly).
pub struct Bytes(Vec<AtomicU8>);

impl Bytes {
    /// A surface holding a copy of `bytes`.
    pub fn new(bytes: &[u8]) -> Bytes {
        Bytes(bytes.iter().map(|&b| AtomicU8::new(b)).collect())
    }

    /// The bytes it holds now.
    pub fn to_vec(&self) -> Vec<u8> {
        self.0.iter().map(|b| b.load(Ordering::Relaxed)).collect()
    }
}

impl Surface for Bytes {
    fn len(&self) -> usize {
        self.0.len()
    }
    fn read(&self, offset: usize, dst: &mut [u8]) -> bool {
        let Some(src) = offset.checked_add(dst.len()).and_then(|end| self.0.get(offset..end)) else { return false };
        for (d, s) in dst.iter_mut().zip(src) {
            *d = s.load(Ordering::Relaxed);
        }
        true
    }
    fn write(&self, offset: usize, src: &[u8]) -> bool {
        let Some(dst) = offset.checked_add(src.len()).and_then(|end| self.0.get(offset..end)) else { return false };
        for (d, s) in dst.iter().zip(src) {
            d.store(*s, Ordering::Relaxed);
        }
        true
    }
}

/// A render target: the bytes of one subresource.
pub struct Target<'a> {
    /// The subresource's bytes from its first row.
    pub data: &'a dyn Surface,
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The view's format.
    pub format: sys::DXGI_FORMAT,
    /// Bytes from one sample's copy of the subresource to the next (multisampled resources:
    /// [`rd3d12_core::allocation::msaa_sample_stride`]; 0 when single-sampled). `data` holds every
    /// sample the pipeline's SampleDesc.Count names.
    pub sample_stride: usize,
    /// Array slices (or 3D W slices) of the view that `data` holds, for primitives that pick
    /// one with SV_RenderTargetArrayIndex (1: only the first).
    pub layers: u32,
    /// Bytes from one slice of the view to the next (0 with one slice).
    pub layer_stride: usize,
}

/// The slice a primitive's SV_RenderTargetArrayIndex picks: slice 0 of the view when the
/// index is past its slices.
fn layer_offset(layer: u32, layers: u32, stride: usize) -> usize {
    if layer < layers {
        layer as usize * stride
    } else {
        0
    }
}

impl Target<'_> {
    /// Where the `size`-byte element of pixel (x, y), sample and slice starts.
    pub(super) fn offset(&self, (x, y, sample, layer): (i32, i32, u32, u32), size: usize) -> Option<usize> {
        Some(
            layer_offset(layer, self.layers, self.layer_stride)
                + sample as usize * self.sample_stride
                + usize::try_from(y).ok()? * self.row_pitch
                + usize::try_from(x).ok()? * size,
        )
    }
}

/// One plane of a depth-stencil view: the bytes of its subresource.
pub struct Plane<'a> {
    /// The subresource's bytes from its first row.
    pub data: &'a dyn Surface,
    /// Bytes from one row to the next.
    pub row_pitch: usize,
    /// Bytes from one sample's copy to the next (0 when single-sampled), as [`Target`].
    pub sample_stride: usize,
    /// Array slices the view's `data` holds, as [`Target`].
    pub layers: u32,
    /// Bytes from one slice to the next, as [`Target`].
    pub layer_stride: usize,
}

impl Plane<'_> {
    /// Where the `size`-byte element of pixel (x, y), sample and slice starts.
    pub(super) fn offset(&self, (x, y, sample, layer): (i32, i32, u32, u32), size: usize) -> Option<usize> {
        Some(
            layer_offset(layer, self.layers, self.layer_stride)
                + sample as usize * self.sample_stride
                + usize::try_from(y).ok()? * self.row_pitch
                + usize::try_from(x).ok()? * size,
        )
    }
}

/// A depth-stencil view. Depth-stencil formats are planar in the runtime's layout: plane 0
/// holds depth (D16_UNORM: 2 bytes; D24_UNORM_S8_UINT: a 32-bit element with the 24-bit UNORM
/// in bits 0–23; D32_FLOAT and D32_FLOAT_S8X24_UINT: the f32), plane 1 one stencil byte per
/// pixel (D24_UNORM_S8_UINT and D32_FLOAT_S8X24_UINT only).
pub struct DepthStencilTarget<'a> {
    /// The view's format: D16_UNORM, D24_UNORM_S8_UINT, D32_FLOAT or D32_FLOAT_S8X24_UINT
    /// (other formats pass every pixel untested).
    pub format: sys::DXGI_FORMAT,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Plane 0: depth.
    pub depth: Plane<'a>,
    /// Plane 1: stencil (None: the format has none, and the stencil test passes).
    pub stencil: Option<Plane<'a>>,
    /// D3D12_DSV_FLAG_READ_ONLY_DEPTH: depth is tested but never written.
    pub read_only_depth: bool,
    /// D3D12_DSV_FLAG_READ_ONLY_STENCIL: stencil is tested but never written.
    pub read_only_stencil: bool,
}
