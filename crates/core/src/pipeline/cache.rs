//! Serialized pipelines: the canonical encoding of a description, the blob
//! ID3D12PipelineState::GetCachedBlob returns, and the pipeline library format.
//!
//! Both blobs share one header, so that a blob from another adapter or another build of this
//! runtime is recognised before anything else is read (all integers little-endian):
//!
//! ```text
//! 0   magic, 8 bytes: "RD3DPSO\0" (cached PSO) or "RD3DPLIB" (library)
//! 8   u32 format version (FORMAT_VERSION)
//! 12  u32 0
//! 16  adapter identity, 16 bytes
//! 32  driver identity, 16 bytes
//! 48  u64 body length
//! 56  body
//! …   16 bytes: the DXBC checksum (crate::dxbc::checksum) of everything before it
//! ```
//!
//! Checks run in this order, each with the HRESULT Microsoft documents for it
//! (D3D12_CACHED_PIPELINE_STATE, CreatePipelineLibrary):
//! 1. too short or wrong magic → E_INVALIDARG ("corrupted or unrecognized");
//! 2. adapter identity differs → D3D12_ERROR_ADAPTER_NOT_FOUND;
//! 3. format version or driver identity differs → D3D12_ERROR_DRIVER_VERSION_MISMATCH;
//! 4. length or integrity checksum wrong → E_INVALIDARG;
//! 5. (cached PSO) the description differs from the one the blob was made from → E_INVALIDARG.
//!
//! A cached PSO's body is the pipeline's canonical encoding. A library's body is a u32 entry
//! count, then per entry: u32 name length in code units, the name's wchar_t code units (u32
//! each), u64 encoding length, the encoding.

use rd3d12_sys as sys;

use super::{PipelineDesc, PipelineKind, PsoError, D3D12_ERROR_ADAPTER_NOT_FOUND, D3D12_ERROR_DRIVER_VERSION_MISMATCH};

/// Magic of a cached PSO blob.
pub const PSO_MAGIC: [u8; 8] = *b"RD3DPSO\0";
/// Magic of a serialized pipeline library.
pub const LIBRARY_MAGIC: [u8; 8] = *b"RD3DPLIB";
/// Version of the encodings in this file; part of the driver identity.
pub const FORMAT_VERSION: u32 = 1;
/// Bytes before the body.
pub const HEADER_SIZE: usize = 56;
/// Bytes after the body.
pub const TRAILER_SIZE: usize = 16;

/// Which hardware and which runtime build wrote a blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// The adapter (stable across processes).
    pub adapter: [u8; 16],
    /// The runtime build.
    pub driver: [u8; 16],
}

impl Identity {
    /// An identity from the adapter's description and the runtime's version string.
    pub fn new(adapter: &str, driver: &str) -> Self {
        Identity { adapter: digest(adapter.as_bytes()), driver: digest(driver.as_bytes()) }
    }
}

fn digest(b: &[u8]) -> [u8; 16] {
    let mut data = b"rd3d12 identity ".to_vec();
    data.extend_from_slice(b);
    words_to_bytes(crate::dxbc::checksum(&data))
}

fn words_to_bytes(w: [u32; 4]) -> [u8; 16] {
    let mut out = [0u8; 16];
    for (i, v) in w.iter().enumerate() {
        out[4 * i..4 * i + 4].copy_from_slice(&v.to_le_bytes());
    }
    out
}

// ---- canonical encoding -------------------------------------------------------------------------

/// A little-endian writer.
#[derive(Default)]
struct W(Vec<u8>);

impl W {
    fn u32(&mut self, v: u32) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn bool(&mut self, v: bool) -> &mut Self {
        self.u32(v as u32)
    }
    fn u64(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn bytes(&mut self, b: &[u8]) -> &mut Self {
        self.u64(b.len() as u64);
        self.0.extend_from_slice(b);
        self
    }
    fn opt_str(&mut self, s: &Option<String>) -> &mut Self {
        match s {
            None => self.u32(0),
            Some(s) => self.u32(1).bytes(s.as_bytes()),
        }
    }
}

/// The canonical encoding of a description (its cached blob excluded): equal for descriptions
/// that create the same pipeline, whichever API they came through.
pub fn encode(d: &PipelineDesc) -> Vec<u8> {
    let mut w = W::default();
    w.u32(match d.kind {
        PipelineKind::Graphics => 0,
        PipelineKind::Compute => 1,
        PipelineKind::Mesh => 2,
    });
    match &d.root_signature {
        None => w.u32(0),
        Some(rs) => w.u32(1).bytes(&rs.blob),
    };
    w.u32(d.shaders.len() as u32);
    for (slot, b) in &d.shaders {
        w.u32(super::Slot::ALL.iter().position(|s| s == slot).unwrap_or(0) as u32).bytes(b);
    }
    w.u32(d.node_mask.max(1)).u32(d.flags);
    if d.kind == PipelineKind::Compute {
        return w.0;
    }
    let so = &d.stream_output;
    w.u32(so.entries.len() as u32);
    for e in &so.entries {
        w.u32(e.stream).opt_str(&e.semantic_name).u32(e.semantic_index);
        w.u32(e.start_component as u32).u32(e.component_count as u32).u32(e.output_slot as u32);
    }
    w.u32(so.strides.len() as u32);
    for s in &so.strides {
        w.u32(*s);
    }
    w.u32(so.rasterized_stream);
    let bl = &d.blend;
    w.bool(bl.alpha_to_coverage).bool(bl.independent);
    for t in &bl.rt {
        w.bool(t.blend_enable).bool(t.logic_op_enable).u32(t.src).u32(t.dest).u32(t.op);
        w.u32(t.src_alpha).u32(t.dest_alpha).u32(t.op_alpha).u32(t.logic_op).u32(t.write_mask as u32);
    }
    w.u32(d.sample_mask);
    let r = &d.rasterizer;
    w.u32(r.fill).u32(r.cull).bool(r.front_ccw).u32(r.depth_bias as u32);
    w.u32(r.depth_bias_clamp.to_bits()).u32(r.slope_scaled_depth_bias.to_bits());
    w.bool(r.depth_clip).bool(r.multisample).bool(r.antialiased_line).u32(r.forced_sample_count).u32(r.conservative);
    let ds = &d.depth_stencil;
    w.bool(ds.depth_enable).u32(ds.write_mask).u32(ds.func).bool(ds.stencil_enable).bool(ds.depth_bounds);
    for f in [&ds.front, &ds.back] {
        w.u32(f.fail).u32(f.depth_fail).u32(f.pass).u32(f.func).u32(f.read_mask as u32).u32(f.write_mask as u32);
    }
    w.u32(d.input_layout.len() as u32);
    for e in &d.input_layout {
        w.opt_str(&e.semantic_name).u32(e.semantic_index).u32(e.format).u32(e.input_slot);
        w.u32(e.aligned_byte_offset).u32(e.slot_class).u32(e.instance_step_rate);
    }
    w.u32(d.ib_strip_cut).u32(d.topology_type).u32(d.num_render_targets);
    for f in &d.rtv_formats {
        w.u32(*f);
    }
    w.u32(d.dsv_format).u32(d.sample_count).u32(d.sample_quality);
    let v = &d.view_instancing;
    w.u32(v.count).u32(v.flags).u32(v.locations.len() as u32);
    for (a, b) in &v.locations {
        w.u32(*a).u32(*b);
    }
    w.0
}

// ---- the shared envelope ------------------------------------------------------------------------

fn seal(magic: &[u8; 8], body: &[u8], id: &Identity) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_SIZE + body.len() + TRAILER_SIZE);
    out.extend_from_slice(magic);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&id.adapter);
    out.extend_from_slice(&id.driver);
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(body);
    let sum = words_to_bytes(crate::dxbc::checksum(&out));
    out.extend_from_slice(&sum);
    out
}

/// Message IDs of one kind of blob.
struct Ids {
    corrupt: sys::D3D12_MESSAGE_ID,
    adapter: sys::D3D12_MESSAGE_ID,
    driver: sys::D3D12_MESSAGE_ID,
    what: &'static str,
}

const PSO_IDS: Ids = Ids {
    corrupt: sys::D3D12_MESSAGE_ID_CREATEPIPELINESTATE_INVALIDCACHEDBLOB,
    adapter: sys::D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CACHEDBLOBADAPTERMISMATCH,
    driver: sys::D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CACHEDBLOBDRIVERVERSIONMISMATCH,
    what: "the cached PSO",
};

const LIBRARY_IDS: Ids = Ids {
    corrupt: sys::D3D12_MESSAGE_ID_CREATEPIPELINELIBRARY_INVALIDLIBRARYBLOB,
    adapter: sys::D3D12_MESSAGE_ID_CREATEPIPELINELIBRARY_ADAPTERVERSIONMISMATCH,
    driver: sys::D3D12_MESSAGE_ID_CREATEPIPELINELIBRARY_DRIVERVERSIONMISMATCH,
    what: "the pipeline library blob",
};

/// Checks the envelope and returns the body.
fn open<'a>(blob: &'a [u8], magic: &[u8; 8], id: &Identity, ids: &Ids) -> Result<&'a [u8], PsoError> {
    let corrupt =
        |why: &str| PsoError::invalid(ids.corrupt, format!("{} is corrupted or unrecognized: {why}", ids.what));
    if blob.len() < HEADER_SIZE + TRAILER_SIZE || &blob[..8] != magic {
        return Err(corrupt("no rd3d12 header"));
    }
    if blob[16..32] != id.adapter {
        return Err(PsoError::with_hr(
            D3D12_ERROR_ADAPTER_NOT_FOUND,
            ids.adapter,
            format!("{} was made on a different adapter", ids.what),
        ));
    }
    let version = u32::from_le_bytes([blob[8], blob[9], blob[10], blob[11]]);
    if version != FORMAT_VERSION || blob[32..48] != id.driver {
        return Err(PsoError::with_hr(
            D3D12_ERROR_DRIVER_VERSION_MISMATCH,
            ids.driver,
            format!("{} was made by a different driver version", ids.what),
        ));
    }
    let len = u64::from_le_bytes(blob[48..56].try_into().unwrap_or([0; 8]));
    if len != (blob.len() - HEADER_SIZE - TRAILER_SIZE) as u64 {
        return Err(corrupt("length mismatch"));
    }
    let end = blob.len() - TRAILER_SIZE;
    if words_to_bytes(crate::dxbc::checksum(&blob[..end])) != blob[end..] {
        return Err(corrupt("integrity check failed"));
    }
    Ok(&blob[HEADER_SIZE..end])
}

// ---- cached PSOs --------------------------------------------------------------------------------

/// The blob GetCachedBlob returns for a pipeline whose canonical encoding is `canonical`.
pub fn cached_blob(canonical: &[u8], id: &Identity) -> Vec<u8> {
    seal(&PSO_MAGIC, canonical, id)
}

/// Checks a CachedPSO against the description's canonical encoding.
pub fn check_cached_blob(blob: &[u8], canonical: &[u8], id: &Identity) -> Result<(), PsoError> {
    let body = open(blob, &PSO_MAGIC, id, &PSO_IDS)?;
    if body != canonical {
        return Err(PsoError::invalid(
            sys::D3D12_MESSAGE_ID_CREATEPIPELINESTATE_CACHEDBLOBDESCMISMATCH,
            "the cached PSO was made from a different pipeline description",
        ));
    }
    Ok(())
}

// ---- libraries ----------------------------------------------------------------------------------

/// One named pipeline of a library: the name's wchar_t code units and the canonical encoding.
pub type LibraryEntry = (Vec<u32>, Vec<u8>);

/// Serializes library entries.
pub fn serialize_library(entries: &[LibraryEntry], id: &Identity) -> Vec<u8> {
    let mut w = W::default();
    w.u32(entries.len() as u32);
    for (name, enc) in entries {
        w.u32(name.len() as u32);
        for c in name {
            w.u32(*c);
        }
        w.bytes(enc);
    }
    seal(&LIBRARY_MAGIC, &w.0, id)
}

/// The size [`serialize_library`] produces, without building it.
pub fn serialized_library_size(entries: &[LibraryEntry]) -> usize {
    HEADER_SIZE + TRAILER_SIZE + 4 + entries.iter().map(|(n, e)| 4 + 4 * n.len() + 8 + e.len()).sum::<usize>()
}

/// Parses a serialized library. An empty blob is an empty library.
pub fn parse_library(blob: &[u8], id: &Identity) -> Result<Vec<LibraryEntry>, PsoError> {
    if blob.is_empty() {
        return Ok(Vec::new());
    }
    let body = open(blob, &LIBRARY_MAGIC, id, &LIBRARY_IDS)?;
    let corrupt =
        |why: &str| PsoError::invalid(LIBRARY_IDS.corrupt, format!("the pipeline library blob is corrupted: {why}"));
    let mut at = 0usize;
    let mut take = |n: usize| -> Result<&[u8], PsoError> {
        let s = body
            .get(at..at.checked_add(n).ok_or_else(|| corrupt("size overflow"))?)
            .ok_or_else(|| corrupt("truncated"))?;
        at += n;
        Ok(s)
    };
    let u32_of = |s: &[u8]| u32::from_le_bytes([s[0], s[1], s[2], s[3]]);
    let count = u32_of(take(4)?);
    let mut out: Vec<LibraryEntry> = Vec::new();
    for _ in 0..count {
        let n = u32_of(take(4)?) as usize;
        let name: Vec<u32> =
            take(n.checked_mul(4).ok_or_else(|| corrupt("size overflow"))?)?.chunks_exact(4).map(u32_of).collect();
        let len = u64::from_le_bytes(take(8)?.try_into().unwrap_or([0; 8]));
        let enc = take(usize::try_from(len).map_err(|_| corrupt("size overflow"))?)?.to_vec();
        if out.iter().any(|(m, _)| *m == name) {
            return Err(corrupt("a name appears twice"));
        }
        out.push((name, enc));
    }
    if at != body.len() {
        return Err(corrupt("trailing bytes"));
    }
    Ok(out)
}
