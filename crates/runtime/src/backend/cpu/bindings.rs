//! How executing shaders reach their resources on the CPU backend: the [`Bindings`] of one
//! shader stage over a recorded [`Binds`]. A register (class, space, register) resolves, on
//! first use in a draw or dispatch, through the root signature's parameters visible to the
//! stage: root constants, root CBVs/SRVs/UAVs (buffers at a GPU virtual address), descriptor
//! tables (descriptors read from the bound shader-visible heap at execution) and static
//! samplers. Everything is read and written in place through [`SharedBytes`] (every worker of a
//! dispatch or draw reaches the memory at once: word-atomic accesses, real atomics for the
//! dx.op atomics and counters; never a `&[u8]`): buffers (typed, raw, structured), constant
//! buffers, UAV textures, and SRV textures, which [`rd3d12_swgpu::sample`] reads an element at a
//! time through [`Readable`]. Reserved resources go through their tile maps (SRV textures
//! through a copy of their bytes).
//!
//! The registers a shader declares (ranges of up to [`EAGER_REGISTERS`]) are resolved once, when
//! the work starts ([`StageBindings::with_resources`]), into a table the workers only read;
//! others (large or unbounded arrays indexed at run time) on first use, in a cache behind a lock.

use crate::backend::memory::SharedBytes;
use crate::work::commands::{Binds, Lookup};
use crate::work::memory::Memory;
use crate::work::state::{RootArg, RootView};
use rd3d12_core::descriptor::{Descriptor, Kind};
use rd3d12_core::root_signature::{self as rs, ParameterKind, RootSignatureDesc, StaticSampler};
use rd3d12_core::{allocation, format, pack};
use rd3d12_shader::interp::env::SampleReq;
use rd3d12_shader::interp::SampleMode;
use rd3d12_swgpu::bytes::ReadBytes;
use rd3d12_swgpu::draw::{Bindings, Class};
use rd3d12_swgpu::sample::{self, MemoryTexels, Sampler, SubresourceBytes, View};
use rd3d12_sys::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering::SeqCst};
use std::sync::Arc;
use std::sync::Mutex;

/// Declared ranges of at most this many registers are resolved when the work starts.
pub(super) const EAGER_REGISTERS: u32 = 64;

/// Memory that shaders read and write while other workers do: linear memory through
/// [`SharedBytes`], reserved resources through their tile maps (whose lock orders accesses).
struct Mem {
    /// Keeps the bytes alive.
    memory: Memory,
    /// The linear memory's bytes (`None`: reserved), kept mapped by `memory`.
    bytes: Option<SharedBytes<'static>>,
}

impl Mem {
    fn new(memory: Memory) -> Self {
        // SAFETY: `memory` keeps its allocation mapped, and `Mem` holds it for as long as the
        // bytes (a private field, never handed out) are used.
        let bytes = unsafe { linear_bytes(&memory) };
        Mem { memory, bytes }
    }

    fn read(&self, at: u64, dst: &mut [u8]) -> bool {
        match &self.bytes {
            Some(b) => b.read(at, dst),
            None => self.memory.read(at, dst),
        }
    }

    fn write(&self, at: u64, src: &[u8]) -> bool {
        match &self.bytes {
            Some(b) => b.write(at, src),
            None => self.memory.write(at, src),
        }
    }

    /// The aligned 32-bit word at `at` for atomics (linear memory only).
    fn word(&self, at: u64) -> Option<&AtomicU32> {
        self.bytes.as_ref()?.word(at)
    }
}

/// The bytes of `len` from `off` of memory, for the software GPU to read ([`ReadBytes`]):
/// linear memory in place through [`SharedBytes`], a reserved resource's tiles through a copy
/// (made now, under the tile map's lock). `None` when the range is not inside.
pub(super) enum Readable<'a> {
    Shared(SharedBytes<'a>),
    Copied(Vec<u8>),
}

impl Readable<'_> {
    pub(super) fn new(m: &Memory, off: u64, len: u64) -> Option<Readable<'_>> {
        match m {
            Memory::Linear { .. } => {
                let p = m.ptr(off, len)?;
                // SAFETY: `len` bytes at `p` lie in the allocation (checked by `ptr`), which `m`
                // keeps mapped for as long as the borrow the result holds.
                unsafe { SharedBytes::new(p, usize::try_from(len).ok()?) }.map(Readable::Shared)
            }
            Memory::Tiled(_) => {
                let mut v = vec![0; usize::try_from(len).ok()?];
                m.read(off, &mut v).then_some(Readable::Copied(v))
            }
        }
    }
}

impl ReadBytes for Readable<'_> {
    fn len(&self) -> usize {
        match self {
            Readable::Shared(b) => b.len(),
            Readable::Copied(v) => v.len(),
        }
    }
    #[inline]
    fn read(&self, at: usize, dst: &mut [u8]) -> bool {
        match self {
            Readable::Shared(b) => SharedBytes::read(b, at as u64, dst),
            Readable::Copied(v) => ReadBytes::read(v, at, dst),
        }
    }
}

/// The bytes of linear memory (`None` for a reserved resource's tiles) for several threads at
/// once.
///
/// # Safety
/// `m` (or a clone, which shares the allocation) must be kept for `'a`.
pub(super) unsafe fn linear_bytes<'a>(m: &Memory) -> Option<SharedBytes<'a>> {
    let len = m.len();
    let p = m.ptr(0, len)?;
    // SAFETY: `len` bytes at `p` are the memory's, kept mapped as the caller promises.
    unsafe { SharedBytes::new(p, usize::try_from(len).ok()?) }
}

/// The register of a binding: class (DXIL's resource class), space, register.
type Key = (u8, u32, u32);

/// Maps keyed by [`Key`], hashed with [`KeyHasher`].
type KeyMap<V> = HashMap<Key, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// A multiply-rotate hash for the few small integers of a [`Key`]: the table is looked up
/// for every resource access of every wave, and SipHash (the default, which resists
/// adversarial keys these are not) took 8% of a textured draw's time.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        bytes.iter().for_each(|&b| self.write_u64(u64::from(b)));
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
const SRV: u8 = 0;
const UAV: u8 = 1;
const CBV: u8 = 2;
const SAMPLER: u8 = 3;

fn class_code(c: Class) -> u8 {
    match c {
        Class::Srv => SRV,
        Class::Uav => UAV,
        Class::Cbv => CBV,
        Class::Sampler => SAMPLER,
    }
}

/// What a binding resolved to.
enum Resolved {
    /// Root constants.
    Constants(Vec<u32>),
    /// A constant buffer: memory, offset, bytes.
    Buffer(Mem, u64, u64),
    /// A texture or typed buffer for sampling and loads.
    Texture(Box<Tex>),
    Sampler(Sampler),
    /// A buffer SRV or UAV, or a root SRV/UAV.
    Buf(BufView),
    /// A UAV texture.
    UavTexture(Box<UavTex>),
    Nothing,
}

/// How a buffer's elements are addressed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BufKind {
    /// Typed: element `index`, of the format.
    Typed(DXGI_FORMAT),
    /// Raw: words at byte `index`.
    Raw,
    /// Structured: element `index` of `stride` bytes, byte `offset` in it.
    Structured(u32),
}

/// A buffer view: `len` bytes of `memory` from byte `base`, holding `elements` elements.
struct BufView {
    memory: Mem,
    base: u64,
    len: u64,
    kind: BufKind,
    elements: u32,
    /// A UAV's counter: the counter resource's memory and the counter's byte offset.
    counter: Option<(Mem, u64)>,
}

impl BufView {
    /// The byte address and size of an access, if inside the view.
    fn place(&self, index: u32, offset: u32, bytes: u64) -> Option<u64> {
        let at = match self.kind {
            BufKind::Typed(_) => u64::from(index) * bytes,
            BufKind::Raw => u64::from(index),
            BufKind::Structured(stride) => u64::from(index) * u64::from(stride) + u64::from(offset),
        };
        (at.checked_add(bytes)? <= self.len).then_some(self.base + at)
    }

    fn element_bytes(&self) -> u64 {
        match self.kind {
            BufKind::Typed(f) => format::info(f).map_or(0, |i| u64::from(i.bytes_per_element())),
            _ => 4,
        }
    }

    fn load(&self, index: u32, offset: u32) -> [u32; 4] {
        match self.kind {
            BufKind::Typed(f) => {
                let n = self.element_bytes();
                let mut b = [0u8; 16];
                match self.place(index, 0, n) {
                    Some(at) if n > 0 && n <= 16 && self.memory.read(at, &mut b[..n as usize]) => {
                        pack::decode_lanes(f, &b[..n as usize]).unwrap_or([0; 4])
                    }
                    _ => pack::out_of_range_lanes(f),
                }
            }
            _ => std::array::from_fn(|k| {
                let mut w = [0u8; 4];
                // Raw: word k after byte `index`; structured: word k after byte `offset` of
                // element `index`.
                let place = match self.kind {
                    BufKind::Raw => self.place(index.wrapping_add(4 * k as u32), 0, 4),
                    _ => self.place(index, offset + 4 * k as u32, 4),
                };
                match place {
                    Some(at) if self.memory.read(at, &mut w) => u32::from_le_bytes(w),
                    _ => 0,
                }
            }),
        }
    }

    fn store(&self, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        match self.kind {
            BufKind::Typed(f) => {
                let n = self.element_bytes();
                if let (Some(at), Some((b, size))) = (self.place(index, 0, n), pack::encode_lanes(f, value)) {
                    self.memory.write(at, &b[..size]);
                }
            }
            _ => {
                for (k, v) in value.iter().enumerate() {
                    if mask & (1 << k) == 0 {
                        continue;
                    }
                    let place = match self.kind {
                        BufKind::Raw => self.place(index.wrapping_add(4 * k as u32), 0, 4),
                        _ => self.place(index, offset + 4 * k as u32, 4),
                    };
                    if let Some(at) = place {
                        self.memory.write(at, &v.to_le_bytes());
                    }
                }
            }
        }
    }

    /// A 32-bit word for atomics, by (index, byte offset) as the shader addresses it.
    fn word(&self, index: u32, offset: u32) -> Option<&AtomicU32> {
        let at = match self.kind {
            BufKind::Typed(_) => self.place(index, 0, self.element_bytes())?,
            _ => self.place(index, offset, 4)?,
        };
        self.memory.word(at)
    }
}

/// A UAV texture's mip slice: each array slice's (or the 3D mip's) bytes.
struct UavTex {
    memory: Mem,
    format: DXGI_FORMAT,
    /// Width, height and depth (array size or 3D W-slices) the view covers.
    size: (u32, u32, u32),
    /// Byte offset of texel (0, 0) of each slice (for 3D: slice 0 and a depth pitch).
    slices: Vec<u64>,
    row_pitch: u64,
    depth_pitch: u64,
    three_d: bool,
    /// RWTexture1D/1DArray: the shader's second coordinate is the array slice (a 1D array's
    /// slices are stored as `size.2`, with a height of 1).
    one_d_array: Option<bool>,
    element: u64,
}

impl UavTex {
    fn at(&self, c: [i32; 3]) -> Option<u64> {
        let c = match self.one_d_array {
            Some(true) => [c[0], 0, c[1]],
            Some(false) => [c[0], 0, 0],
            None => c,
        };
        let [x, y, z] = c.map(|v| u32::try_from(v).ok());
        let (x, y, z) = (x?, y?, z?);
        if x >= self.size.0 || y >= self.size.1 || z >= self.size.2 {
            return None;
        }
        let base =
            if self.three_d { self.slices[0] + u64::from(z) * self.depth_pitch } else { self.slices[z as usize] };
        Some(base + u64::from(y) * self.row_pitch + u64::from(x) * self.element)
    }
}

/// A readable view: the memory (kept alive), the byte range, and how texels lie in it.
struct Tex {
    memory: Mem,
    offset: u64,
    len: u64,
    format: DXGI_FORMAT,
    size: (u32, u32, u32),
    mips: u32,
    array_size: u32,
    subresources: Vec<SubresourceBytes>,
    view: View,
    mapping: u32,
    /// A multisampled texture's (bytes from one sample's copy to the next, sample count).
    ms: Option<(u64, u32)>,
}

impl Tex {
    fn with<R>(&self, f: impl FnOnce(&MemoryTexels<'_, Readable<'_>>) -> R) -> R {
        self.with_sample(0, f)
    }

    /// As [`Tex::with`], over sample `s`'s copy of a multisampled texture.
    fn with_sample<R>(&self, s: u32, f: impl FnOnce(&MemoryTexels<'_, Readable<'_>>) -> R) -> R {
        let skip = self.ms.map_or(0, |(stride, _)| u64::from(s) * stride);
        let (at, len) = (self.offset.saturating_add(skip), self.len.saturating_sub(skip));
        let bytes = match &self.memory.bytes {
            Some(b) => usize::try_from(len).ok().and_then(|n| b.sub(at, n)).map(Readable::Shared),
            None => Readable::new(&self.memory.memory, at, len),
        };
        let bytes = bytes.unwrap_or(Readable::Copied(Vec::new()));
        f(&MemoryTexels {
            bytes: &bytes,
            format: self.format,
            size: self.size,
            mips: self.mips,
            array_size: self.array_size,
            subresources: &self.subresources,
        })
    }
}

/// A resolved binding: from the table made when the work started, or from the cache.
enum Got<'a> {
    Table(&'a Resolved),
    Cached(Arc<Resolved>),
}

impl std::ops::Deref for Got<'_> {
    type Target = Resolved;
    fn deref(&self) -> &Resolved {
        match self {
            Got::Table(r) => r,
            Got::Cached(r) => r,
        }
    }
}

/// One stage's view of the bindings.
pub(super) struct StageBindings<'a> {
    binds: &'a Binds,
    /// D3D12_SHADER_VISIBILITY of the stage.
    visibility: u32,
    /// The registers resolved when the work started ([`StageBindings::with_resources`]), read
    /// by every worker without a lock.
    table: KeyMap<Resolved>,
    /// Registers resolved on first use.
    cache: Mutex<KeyMap<Arc<Resolved>>>,
}

impl<'a> StageBindings<'a> {
    /// The bindings of the stage of visibility `visibility` (D3D12_SHADER_VISIBILITY), each
    /// register resolved on first use.
    pub(super) fn new(binds: &'a Binds, visibility: D3D12_SHADER_VISIBILITY) -> Self {
        StageBindings { binds, visibility: visibility.0, table: KeyMap::default(), cache: Default::default() }
    }

    /// As [`StageBindings::new`], with the registers of `resources` (a shader's declarations;
    /// ranges of up to [`EAGER_REGISTERS`]) resolved now, once for all the workers.
    pub(super) fn with_resources(
        binds: &'a Binds,
        visibility: D3D12_SHADER_VISIBILITY,
        resources: &[rd3d12_shader::dxil::metadata::Resource],
    ) -> Self {
        use rd3d12_shader::dxil::metadata::ResourceClass as R;
        let mut b = Self::new(binds, visibility);
        let mut table = KeyMap::default();
        for r in resources.iter().filter(|r| r.range_size <= EAGER_REGISTERS) {
            let class = match r.class {
                R::Srv => SRV,
                R::Uav => UAV,
                R::Cbv => CBV,
                R::Sampler => SAMPLER,
            };
            for reg in (0..r.range_size).filter_map(|k| r.lower_bound.checked_add(k)) {
                let key = (class, r.space, reg);
                table.entry(key).or_insert_with(|| b.find(key, r.stride).unwrap_or(Resolved::Nothing));
            }
        }
        b.table = table;
        b
    }
}

/// A buffer SRV or UAV's view.
fn buffer_view(lookup: &Lookup, d: &Descriptor) -> Option<BufView> {
    let e = lookup.resources.get(d.resource)?;
    let b = d.buffer();
    let kind = if d.format == DXGI_FORMAT_UNKNOWN {
        BufKind::Structured(b.stride)
    } else if d.format == DXGI_FORMAT_R32_TYPELESS {
        BufKind::Raw
    } else {
        BufKind::Typed(d.format)
    };
    let base = b.first_element.checked_mul(u64::from(b.stride))?;
    let len = u64::from(b.num_elements) * u64::from(b.stride);
    if base.checked_add(len)? > e.memory.len() {
        return None;
    }
    let counter = d.counter().and_then(|(id, off)| Some((Mem::new(lookup.resources.get(id)?.memory), off)));
    Some(BufView { memory: Mem::new(e.memory.clone()), base, len, kind, elements: b.num_elements, counter })
}

/// A UAV descriptor's buffer or texture.
fn uav(lookup: &Lookup, d: &Descriptor) -> Option<Resolved> {
    if d.is_null() {
        return None;
    }
    if d.is_buffer_view() {
        return buffer_view(lookup, d).map(Resolved::Buf);
    }
    let e = lookup.resources.get(d.resource)?;
    let r = &e.desc;
    let t = d.texture();
    let info = format::info(d.format)?;
    let mips = u32::from(r.MipLevels.max(1));
    let three_d = r.Dimension == D3D12_RESOURCE_DIMENSION_TEXTURE3D;
    let array = if three_d { 1 } else { u32::from(r.DepthOrArraySize) };
    let plane = u32::from(d.plane);
    let mut slices = Vec::new();
    let (mut row_pitch, mut depth_pitch, mut w, mut h, mut depth) = (0, 0, 0, 0, 1);
    let count = if three_d { 1 } else { t.array_size.max(1) };
    for k in 0..count {
        let slice = if three_d { 0 } else { t.first_slice + k };
        let sub = t.first_mip + slice * mips + plane * mips * array;
        let (off, fp) = allocation::subresource_layout(r, sub)?;
        row_pitch = u64::from(fp.RowPitch);
        depth_pitch = row_pitch * u64::from(fp.Height);
        (w, h) = (fp.Width, fp.Height);
        if three_d {
            depth = t.array_size.min(fp.Depth.saturating_sub(t.first_slice));
            slices.push(off + u64::from(t.first_slice) * depth_pitch);
        } else {
            slices.push(off);
        }
    }
    if !three_d {
        depth = count;
    }
    Some(Resolved::UavTexture(Box::new(UavTex {
        memory: Mem::new(e.memory.clone()),
        format: d.format,
        size: (w, h, depth),
        slices,
        row_pitch,
        depth_pitch,
        three_d,
        one_d_array: match D3D12_UAV_DIMENSION(d.dimension.into()) {
            D3D12_UAV_DIMENSION_TEXTURE1D => Some(false),
            D3D12_UAV_DIMENSION_TEXTURE1DARRAY => Some(true),
            _ => None,
        },
        element: u64::from(info.bytes_per_element()),
    })))
}

/// The descriptor at a GPU handle of a live shader-visible heap.
fn descriptor_at(lookup: &Lookup, addr: u64) -> Option<Descriptor> {
    let addr = usize::try_from(addr).ok()?;
    let s = lookup.heaps.span(addr)?;
    (s.visible && s.holds(addr, 1)).then(|| {
        // SAFETY: the address is a whole record inside a live heap's memory; any bytes are a
        // valid Descriptor (integers only).
        unsafe { std::ptr::read(addr as *const Descriptor) }
    })
}

fn static_sampler(s: &StaticSampler) -> Sampler {
    let (border, flags) = match s.border_color {
        0 => ([0.0f32, 0.0, 0.0, 0.0].map(f32::to_bits), 0),
        1 => ([0.0f32, 0.0, 0.0, 1.0].map(f32::to_bits), 0),
        2 => ([1.0f32; 4].map(f32::to_bits), 0),
        3 => ([0, 0, 0, 1], D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0),
        _ => ([1, 1, 1, 1], D3D12_SAMPLER_FLAG_UINT_BORDER_COLOR.0),
    };
    Sampler::from_desc(&rd3d12_core::descriptor::SamplerDesc {
        filter: s.filter,
        address: [s.address_u, s.address_v, s.address_w],
        mip_lod_bias: s.mip_lod_bias,
        max_anisotropy: s.max_anisotropy,
        comparison_func: s.comparison_func,
        border,
        min_lod: s.min_lod,
        max_lod: s.max_lod,
        flags: flags | s.flags,
    })
}

/// A texture or typed-buffer SRV as something to sample and load from.
fn texture(lookup: &Lookup, d: &Descriptor) -> Option<Tex> {
    if d.kind != Kind::SRV || d.is_null() {
        return None;
    }
    let e = lookup.resources.get(d.resource)?;
    let info = format::info(d.format)?;
    let elem = u64::from(info.bytes_per_element());
    if d.is_buffer_view() {
        let b = d.buffer();
        let stride = if d.format == DXGI_FORMAT_UNKNOWN { u64::from(b.stride) } else { elem };
        let n = b.num_elements;
        let offset = b.first_element * stride;
        let len = u64::from(n) * stride;
        return Some(Tex {
            memory: Mem::new(e.memory.clone()),
            offset,
            len,
            format: d.format,
            size: (n, 1, 1),
            mips: 1,
            array_size: 1,
            subresources: vec![SubresourceBytes { offset: 0, row_pitch: len as usize, depth_pitch: len as usize }],
            view: View::from_srv(
                D3D12_SRV_DIMENSION_TEXTURE1D.0,
                &rd3d12_core::descriptor::TextureRange {
                    first_mip: 0,
                    mip_levels: 1,
                    first_slice: 0,
                    array_size: 1,
                    min_lod: 0.0,
                },
            )?,
            mapping: d.component_mapping(),
            ms: None,
        });
    }
    let r = &e.desc;
    let (size, mips, array_size) = sample::backend_size(r);
    let subresources = sample::backend_layouts(r, u32::from(d.plane))?;
    Some(Tex {
        len: e.memory.len(),
        memory: Mem::new(e.memory.clone()),
        offset: 0,
        format: d.format,
        size,
        mips,
        array_size,
        subresources,
        view: View::from_srv(u32::from(d.dimension), &d.texture())?,
        mapping: d.component_mapping(),
        ms: ms(d, r),
    })
}

/// The sample stride and count of a Texture2DMS / Texture2DMSArray view's resource.
fn ms(d: &Descriptor, r: &D3D12_RESOURCE_DESC1) -> Option<(u64, u32)> {
    let dim = u32::from(d.dimension);
    let ms_view = dim == D3D12_SRV_DIMENSION_TEXTURE2DMS.0 || dim == D3D12_SRV_DIMENSION_TEXTURE2DMSARRAY.0;
    (ms_view && r.SampleDesc.Count > 1).then(|| (allocation::msaa_sample_stride(r).unwrap_or(0), r.SampleDesc.Count))
}

impl StageBindings<'_> {
    fn visible(&self, v: u32) -> bool {
        v == rs::visibility::ALL || v == self.visibility
    }

    fn arg(&self, index: usize) -> Option<&RootArg> {
        self.binds.root_args.iter().find(|a| a.0 as usize == index).map(|a| &a.1)
    }

    fn resolve(&self, key: Key) -> Got<'_> {
        self.resolve_with(key, 0)
    }

    /// As [`Self::resolve`], with the structured stride the shader declares (root views).
    fn resolve_with(&self, key: Key, stride: u32) -> Got<'_> {
        if let Some(r) = self.table.get(&key) {
            // A borrow, not a clone: workers that shared one reference count would contend on it.
            return Got::Table(r);
        }
        // A poisoned cache only means another worker panicked mid-insert; its entries are whole.
        let cached = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(&key).cloned();
        if let Some(r) = cached {
            return Got::Cached(r);
        }
        let r = Arc::new(self.find(key, stride).unwrap_or(Resolved::Nothing));
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(key, r.clone());
        Got::Cached(r)
    }

    fn of_descriptor(&self, class: u8, d: &Descriptor) -> Option<Resolved> {
        let lookup = &self.binds.lookup;
        match class {
            CBV if d.kind == Kind::CBV => {
                let (va, size) = d.cbv();
                let (m, off) = lookup.va.resolve(va, u64::from(size).max(1))?;
                Some(Resolved::Buffer(Mem::new(m), off, u64::from(size)))
            }
            SRV if d.kind == Kind::SRV && d.is_buffer_view() => buffer_view(lookup, d).map(Resolved::Buf),
            SRV => texture(lookup, d).map(|t| Resolved::Texture(Box::new(t))),
            SAMPLER if d.kind == Kind::SAMPLER => d.sampler().map(|s| Resolved::Sampler(Sampler::new(&s))),
            UAV if d.kind == Kind::UAV => uav(lookup, d),
            _ => None,
        }
    }

    fn find(&self, (class, space, reg): Key, stride: u32) -> Option<Resolved> {
        let root: &RootSignatureDesc = self.binds.root.as_deref()?;
        let range_type = match class {
            SRV => rs::range_type::SRV,
            1 => rs::range_type::UAV,
            CBV => rs::range_type::CBV,
            _ => rs::range_type::SAMPLER,
        };
        if class == SAMPLER {
            if let Some(s) = root
                .static_samplers
                .iter()
                .find(|s| s.shader_register == reg && s.register_space == space && self.visible(s.visibility))
            {
                return Some(Resolved::Sampler(static_sampler(s)));
            }
        }
        for (index, p) in root.parameters.iter().enumerate() {
            if !self.visible(p.visibility) {
                continue;
            }
            match &p.kind {
                ParameterKind::Constants(c)
                    if class == CBV && c.shader_register == reg && c.register_space == space =>
                {
                    return match self.arg(index) {
                        Some(RootArg::Constants(_, v)) => Some(Resolved::Constants(v.clone())),
                        _ => Some(Resolved::Constants(Vec::new())),
                    };
                }
                ParameterKind::Cbv(d) | ParameterKind::Srv(d) | ParameterKind::Uav(d)
                    if p.kind.root_descriptor().map(|(t, _)| t) == Some(range_type)
                        && d.shader_register == reg
                        && d.register_space == space =>
                {
                    let Some(RootArg::View(kind, va)) = self.arg(index) else { return None };
                    let (m, off) = self.binds.lookup.va.resolve(*va, 1)?;
                    let len = m.len().saturating_sub(off);
                    return match kind {
                        RootView::Cbv => Some(Resolved::Buffer(Mem::new(m), off, len)),
                        // Root SRVs and UAVs are raw or structured buffers to the end of their
                        // memory (no view: no bounds but the memory's).
                        RootView::Srv | RootView::Uav => {
                            let kind = if stride == 0 { BufKind::Raw } else { BufKind::Structured(stride) };
                            let elements =
                                if stride == 0 { (len / 4) as u32 } else { (len / u64::from(stride)) as u32 };
                            Some(Resolved::Buf(BufView {
                                memory: Mem::new(m),
                                base: off,
                                len,
                                kind,
                                elements,
                                counter: None,
                            }))
                        }
                    };
                }
                ParameterKind::Table(ranges) => {
                    let mut next = 0u32;
                    for r in ranges {
                        let start = if r.offset_in_descriptors_from_table_start == rs::OFFSET_APPEND {
                            next
                        } else {
                            r.offset_in_descriptors_from_table_start
                        };
                        next = start.saturating_add(r.num_descriptors);
                        let inside = reg >= r.base_shader_register
                            && (r.num_descriptors == rs::UNBOUNDED || reg - r.base_shader_register < r.num_descriptors);
                        if r.range_type != range_type || r.register_space != space || !inside {
                            continue;
                        }
                        let Some(RootArg::Table(base)) = self.arg(index) else { return None };
                        let n = u64::from(start) + u64::from(reg - r.base_shader_register);
                        let d = descriptor_at(
                            &self.binds.lookup,
                            base + n * rd3d12_core::descriptor::DESCRIPTOR_SIZE as u64,
                        )?;
                        return self.of_descriptor(class, &d);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// An atomic operation on a 32-bit word of memory (DXIL AtomicBinOp codes).
fn atomic_op(a: &AtomicU32, op: u32, v: u32) -> u32 {
    match op {
        0 => a.fetch_add(v, SeqCst),
        1 => a.fetch_and(v, SeqCst),
        2 => a.fetch_or(v, SeqCst),
        3 => a.fetch_xor(v, SeqCst),
        4 => a.fetch_update(SeqCst, SeqCst, |x| Some((x as i32).min(v as i32) as u32)).unwrap_or(0),
        5 => a.fetch_update(SeqCst, SeqCst, |x| Some((x as i32).max(v as i32) as u32)).unwrap_or(0),
        6 => a.fetch_min(v, SeqCst),
        7 => a.fetch_max(v, SeqCst),
        _ => a.swap(v, SeqCst),
    }
}

impl StageBindings<'_> {
    /// The word an atomic on a UAV addresses: (index, offset) for buffers, texel coordinates
    /// for textures (32-bit formats only).
    fn atomic_word<R>(&self, uav: (u32, u32), c: [i32; 3], f: impl FnOnce(&AtomicU32) -> R) -> Option<R> {
        let r = self.resolve((UAV, uav.0, uav.1));
        let word = match &*r {
            Resolved::Buf(b) => b.word(c[0] as u32, c[1] as u32),
            Resolved::UavTexture(t) if t.element == 4 => t.memory.word(t.at(c)?),
            _ => None,
        };
        word.map(f)
    }
}

impl Bindings for StageBindings<'_> {
    fn texture_load(&self, class: Class, texture: (u32, u32), mip: u32, coords: [i32; 3]) -> [u32; 4] {
        match class {
            Class::Srv => self.load(texture, mip, coords),
            Class::Uav => match &*self.resolve((UAV, texture.0, texture.1)) {
                Resolved::UavTexture(t) => {
                    let mut b = [0u8; 16];
                    let n = t.element as usize;
                    match t.at(coords) {
                        Some(at) if n <= 16 && t.memory.read(at, &mut b[..n]) => {
                            pack::decode_lanes(t.format, &b[..n]).unwrap_or([0; 4])
                        }
                        _ => pack::out_of_range_lanes(t.format),
                    }
                }
                Resolved::Buf(b) => b.load(coords[0] as u32, 0),
                _ => [0; 4],
            },
            _ => [0; 4],
        }
    }

    fn texture_store(&self, uav: (u32, u32), coords: [i32; 3], value: [u32; 4], _mask: u8) {
        match &*self.resolve((UAV, uav.0, uav.1)) {
            Resolved::UavTexture(t) => {
                if let (Some(at), Some((b, n))) = (t.at(coords), pack::encode_lanes(t.format, value)) {
                    t.memory.write(at, &b[..n]);
                }
            }
            Resolved::Buf(b) => b.store(coords[0] as u32, 0, value, 0xF),
            _ => {}
        }
    }

    fn buffer_load(&self, class: Class, buffer: (u32, u32), stride: u32, index: u32, offset: u32) -> [u32; 4] {
        match &*self.resolve_with((class_code(class), buffer.0, buffer.1), stride) {
            Resolved::Buf(b) => b.load(index, offset),
            _ => [0; 4],
        }
    }

    fn buffer_store(&self, uav: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        if let Resolved::Buf(b) = &*self.resolve_with((UAV, uav.0, uav.1), stride) {
            b.store(index, offset, value, mask);
        }
    }

    fn dimensions(&self, class: Class, resource: (u32, u32), mip: u32) -> [u32; 4] {
        match &*self.resolve((class_code(class), resource.0, resource.1)) {
            // A raw buffer's width is in bytes (ByteAddressBuffer::GetDimensions), a structured
            // or typed buffer's in elements.
            Resolved::Buf(b) => match b.kind {
                BufKind::Raw => [b.elements.saturating_mul(4), 0, 0, 0],
                _ => [b.elements, 0, 0, 0],
            },
            // As DXIL's getDimensions returns them: a 1D array's slice count is the second
            // component, a 2D array's the third (RWTexture*::GetDimensions).
            Resolved::UavTexture(t) => match t.one_d_array {
                Some(true) => [t.size.0, t.size.2, 0, 1],
                Some(false) => [t.size.0, 0, 0, 1],
                None => [t.size.0, t.size.1, t.size.2, 1],
            },
            Resolved::Texture(t) => t.with(|texels| {
                let v = &t.view;
                let levels = v.mip_levels.min(texels.mips.saturating_sub(v.first_mip));
                let (w, h, d) = sample::Texels::dims(texels, v.first_mip + mip);
                // Multisampled views give their sample count where others give mip levels.
                let last = t.ms.map_or(levels, |(_, n)| n);
                // Texture*::GetDimensions: 1D arrays give their slice count second, 2D arrays
                // third, cube arrays the number of cubes third, 3D textures their depth.
                match v.dim {
                    sample::Dim::Tex1D => [w, 0, 0, last],
                    sample::Dim::Tex1DArray => [w, v.array_size, 0, last],
                    sample::Dim::Tex2D | sample::Dim::Cube => [w, h, 0, last],
                    sample::Dim::Tex2DArray => [w, h, v.array_size, last],
                    sample::Dim::CubeArray => [w, h, v.array_size / 6, last],
                    sample::Dim::Tex3D => [w, h, d, last],
                }
            }),
            _ => [0; 4],
        }
    }

    fn atomic(&self, uav: (u32, u32), op: u32, coords: [i32; 3], value: u32) -> u32 {
        self.atomic_word(uav, coords, |a| atomic_op(a, op, value)).unwrap_or(0)
    }

    fn gather(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 4],
        offset: [i32; 2],
        channel: u32,
        compare: Option<f32>,
    ) -> [f32; 4] {
        let t = self.resolve((SRV, texture.0, texture.1));
        let s = self.resolve((SAMPLER, sampler.0, sampler.1));
        let (Resolved::Texture(t), Resolved::Sampler(s)) = (&*t, &*s) else { return [0.0; 4] };
        // The component mapping picks which stored component the channel reads.
        let source = sample::mapping_source(t.mapping, channel as usize & 3);
        let offset = [offset[0], offset[1], 0];
        match source {
            0..=3 => t.with(|texels| sample::gather(texels, &t.view, s, coords, offset, source as usize, compare)),
            5 => [1.0; 4],
            _ => [0.0; 4],
        }
    }

    fn calculate_lod(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 3],
        ddx: [f32; 3],
        ddy: [f32; 3],
        clamped: bool,
    ) -> f32 {
        let t = self.resolve((SRV, texture.0, texture.1));
        let s = self.resolve((SAMPLER, sampler.0, sampler.1));
        let (Resolved::Texture(t), Resolved::Sampler(s)) = (&*t, &*s) else { return 0.0 };
        let c = [coords[0], coords[1], coords[2], 0.0];
        let (lod, unclamped) = t.with(|texels| sample::calculate_lod(texels, &t.view, s, c, ddx, ddy));
        if clamped {
            lod
        } else {
            unclamped
        }
    }

    fn update_counter(&self, uav: (u32, u32), delta: i32) -> u32 {
        let Resolved::Buf(BufView { counter: Some((m, off)), .. }) = &*self.resolve((UAV, uav.0, uav.1)) else {
            return 0;
        };
        match m.word(*off) {
            Some(a) if delta >= 0 => atomic_op(a, 0, 1),
            Some(a) => atomic_op(a, 0, u32::MAX).wrapping_sub(1),
            None => 0,
        }
    }

    fn atomic_cmpxchg(&self, uav: (u32, u32), coords: [i32; 3], cmp: u32, new: u32) -> u32 {
        self.atomic_word(uav, coords, |a| a.compare_exchange(cmp, new, SeqCst, SeqCst).unwrap_or_else(|old| old))
            .unwrap_or(0)
    }

    fn cbuffer_row(&self, space: u32, register: u32, row: u32) -> [u32; 4] {
        match &*self.resolve((CBV, space, register)) {
            Resolved::Constants(v) => std::array::from_fn(|c| v.get(row as usize * 4 + c).copied().unwrap_or(0)),
            Resolved::Buffer(m, off, len) => {
                let at = u64::from(row) * 16;
                let mut b = [0u8; 16];
                if at + 16 <= *len {
                    m.read(off + at, &mut b);
                }
                std::array::from_fn(|c| u32::from_le_bytes([b[4 * c], b[4 * c + 1], b[4 * c + 2], b[4 * c + 3]]))
            }
            _ => [0; 4],
        }
    }

    fn sample(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        coords: [f32; 4],
        offset: [i32; 3],
        mode: SampleMode,
        compare: Option<f32>,
    ) -> [f32; 4] {
        let mut out = [[0.0; 4]];
        self.sample_lanes(texture, sampler, 1, &[SampleReq { coords, offset, mode, compare }], &mut out);
        out[0]
    }

    fn sample_lanes(
        &self,
        texture: (u32, u32),
        sampler: (u32, u32),
        m: rd3d12_shader::interp::Mask,
        reqs: &[SampleReq],
        out: &mut [[f32; 4]],
    ) {
        let t = self.resolve((SRV, texture.0, texture.1));
        let s = self.resolve((SAMPLER, sampler.0, sampler.1));
        let lanes = rd3d12_shader::interp::env::lanes(m);
        let (Resolved::Texture(t), Resolved::Sampler(s)) = (&*t, &*s) else {
            return lanes.for_each(|l| out[l] = [0.0; 4]);
        };
        t.with(|texels| {
            for l in lanes {
                let q = &reqs[l];
                let lod = match q.mode {
                    SampleMode::Grad { ddx, ddy, bias, clamp } => sample::Lod::Derivatives { ddx, ddy, bias, clamp },
                    SampleMode::Level(l) => sample::Lod::Level(l),
                };
                let v = sample::sample(texels, &t.view, s, q.coords, q.offset, lod, q.compare);
                out[l] = sample::apply_mapping(t.mapping, v, 0.0, 1.0);
            }
        })
    }

    fn load(&self, texture: (u32, u32), mip: u32, coords: [i32; 3]) -> [u32; 4] {
        let t = self.resolve((SRV, texture.0, texture.1));
        let Resolved::Texture(t) = &*t else { return [0; 4] };
        // A multisampled view's Load takes a sample index where others take a mip.
        let v = match t.ms {
            Some((_, count)) if mip >= count => t.with(|texels| sample::Texels::zero_lanes(texels)),
            Some(_) => t.with_sample(mip, |texels| sample::load(texels, &t.view, coords, 0, [0; 3])),
            None => t.with(|texels| sample::load(texels, &t.view, coords, mip, [0; 3])),
        };
        let integer = format::info(t.format).is_some_and(|i| i.name.contains("INT"));
        sample::apply_mapping(t.mapping, v, 0, if integer { 1 } else { 1.0f32.to_bits() })
    }
}
