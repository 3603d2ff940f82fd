//! `rd3d12 footprint`: the memory layout of one resource desc, for asset pipelines.
//!
//! Prints what ID3D12Device::GetResourceAllocationInfo (SizeInBytes, Alignment) and
//! GetCopyableFootprints (per-subresource placed footprints, NumRows, RowSizeInBytes,
//! TotalBytes) answer for the desc, computed by `rd3d12-core` with the capabilities the
//! runtime has today ([`Caps::today`]) — no device is created.
//!
//! Exit status: 0 on success, 1 when D3D12 rejects the desc (the validator's message ID and
//! text are printed), 2 for a wrong argument.

use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

use rd3d12_core::desc::{validate_desc1, Api, DescError, Diag};
use rd3d12_core::footprint::{copyable_footprints, footprint_error};
use rd3d12_core::{allocation_info_one, decompose_subresource, format, msg, Caps, MessageId};
use rd3d12_sys as sys;
use rd3d12_sys::{D3D12_PLACED_SUBRESOURCE_FOOTPRINT, D3D12_RESOURCE_DESC1, DXGI_FORMAT, DXGI_SAMPLE_DESC};

pub const USAGE: &str = "\
usage: rd3d12 footprint [options]

Describes one resource as ID3D12Device::GetResourceAllocationInfo and
GetCopyableFootprints do on this runtime (no device is created).

options:
  --dimension D     buffer | 1d | 2d | 3d (default 2d)
  --format NAME     DXGI format name, with or without DXGI_FORMAT_, any case
                    (required for textures; buffers use UNKNOWN)
  --width N         Width: texels, or bytes for a buffer (required)
  --height N        Height (default 1)
  --depth N         depth of a 3d texture (default 1)
  --array N         array size of a 1d/2d texture (default 1)
  --mips N          MipLevels (default 1; 0 = the full mip chain)
  --samples N       SampleDesc.Count (default 1)
  --quality N       SampleDesc.Quality (default 0)
  --flags LIST      comma-separated resource flags: rt, ds, uav, deny-srv, cross-adapter,
                    simultaneous, video-decode, video-encode, raytracing, none, or
                    D3D12_RESOURCE_FLAG_* names (prefix optional)
  --layout L        unknown | row-major | 64kb-undefined | 64kb-standard
                    (default unknown; row-major for buffers)
  --alignment N     requested Alignment (default 0)
  --base-offset N   BaseOffset passed to GetCopyableFootprints (default 0)
  --json            print one JSON object instead of the table
  -h, --help        print this text

Numbers are decimal or 0x-prefixed hexadecimal; `--opt=value` works too.
Exit status: 0 success, 1 the desc is rejected by D3D12 (its message ID and text are
printed), 2 a wrong argument.";

// ---------------------------------------------------------------------------------------
// Entry point.

/// Runs `rd3d12 footprint` with the arguments after `footprint`.
pub fn main(args: &[String]) -> ExitCode {
    if args.is_empty() {
        eprintln!("rd3d12 footprint: no options given (--width and, for textures, --format are required)\n\n{USAGE}");
        return ExitCode::from(2);
    }
    let json = args.iter().any(|a| a == "--json");
    let opts = match parse(args) {
        Ok(Parsed::Help) => {
            emit(&format!("{USAGE}\n"));
            return ExitCode::SUCCESS;
        }
        Ok(Parsed::Run(o)) => o,
        Err(e) => {
            eprintln!("rd3d12 footprint: {e}\n(run `rd3d12 footprint --help` for the options)");
            if json {
                emit(&format!("{{\"error\": {{\"kind\": \"usage\", \"message\": {}}}}}\n", json_str(&e.to_string())));
            }
            return ExitCode::from(2);
        }
    };
    match compute(&opts) {
        Ok(report) => {
            if opts.json {
                emit(&render_json(&opts, &report));
            } else {
                for w in &report.warnings {
                    eprintln!("rd3d12 footprint: warning: {}", diag_text(w.id, &w.message));
                }
                emit(&render_text(&opts, &report));
            }
            ExitCode::SUCCESS
        }
        Err(f) => {
            eprintln!("rd3d12 footprint: {}", f.text());
            if opts.json {
                emit(&f.json());
            }
            ExitCode::from(1)
        }
    }
}

/// Writes to stdout; a closed pipe (`| head`) is not an error worth a panic.
fn emit(s: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes()).and_then(|()| out.flush());
}

// ---------------------------------------------------------------------------------------
// Arguments.

#[derive(Debug, Clone)]
pub struct Options {
    pub desc: D3D12_RESOURCE_DESC1,
    pub base_offset: u64,
    pub json: bool,
}

enum Parsed {
    Help,
    Run(Options),
}

/// A wrong argument (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

fn usage_err<T>(msg: impl Into<String>) -> Result<T, UsageError> {
    Err(UsageError(msg.into()))
}

const OPTIONS_WITH_VALUE: &[&str] = &[
    "--dimension",
    "--format",
    "--width",
    "--height",
    "--depth",
    "--array",
    "--mips",
    "--samples",
    "--quality",
    "--flags",
    "--layout",
    "--alignment",
    "--base-offset",
];

fn parse(args: &[String]) -> Result<Parsed, UsageError> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        return Ok(Parsed::Help);
    }
    // Collect (option, value) pairs first; each option may be given once.
    let mut given: Vec<(&'static str, String)> = Vec::new();
    let mut json = false;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        if arg == "--json" {
            json = true;
            continue;
        }
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg, None),
        };
        let Some(&opt) = OPTIONS_WITH_VALUE.iter().find(|o| **o == name) else {
            if arg.starts_with('-') {
                return usage_err(format!("unknown option {arg:?}"));
            }
            return usage_err(format!("unexpected argument {arg:?} (options start with --)"));
        };
        let value = match inline {
            Some(v) => v,
            None => match args.get(i) {
                Some(v) if !v.starts_with("--") => {
                    i += 1;
                    v.clone()
                }
                _ => return usage_err(format!("missing value for {opt}")),
            },
        };
        if value.is_empty() {
            return usage_err(format!("missing value for {opt}"));
        }
        if given.iter().any(|(o, _)| *o == opt) {
            return usage_err(format!("{opt} is given more than once"));
        }
        given.push((opt, value));
    }
    let get = |opt: &str| given.iter().find(|(o, _)| *o == opt).map(|(_, v)| v.as_str());

    let dimension = match get("--dimension") {
        None => sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Some(v) => parse_dimension(v)?,
    };
    let is_buffer = dimension == sys::D3D12_RESOURCE_DIMENSION_BUFFER;
    let is_3d = dimension == sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D;

    let format = match get("--format") {
        Some(v) => parse_format(v)?,
        None if is_buffer => sys::DXGI_FORMAT_UNKNOWN,
        None => return usage_err("missing --format: textures need a DXGI format name (e.g. --format R8G8B8A8_UNORM)"),
    };
    let width = match get("--width") {
        Some(v) => number(v, "--width", u64::MAX)?,
        None => return usage_err("missing --width (required)"),
    };
    let height = opt_number(get("--height"), "--height", u32::MAX as u64, 1)? as u32;
    let depth_or_array = match (get("--depth"), get("--array")) {
        (Some(_), Some(_)) => return usage_err("--depth and --array cannot both be given"),
        (Some(_), None) if !is_3d => {
            return usage_err("--depth applies to 3d textures only (use --array for 1d/2d arrays)")
        }
        (None, Some(_)) if is_3d => return usage_err("--array applies to 1d/2d textures only (use --depth for 3d)"),
        (None, Some(_)) if is_buffer => return usage_err("--array does not apply to buffers"),
        (Some(v), None) => number(v, "--depth", u16::MAX as u64)?,
        (None, Some(v)) => number(v, "--array", u16::MAX as u64)?,
        (None, None) => 1,
    } as u16;
    let mips = opt_number(get("--mips"), "--mips", u16::MAX as u64, 1)? as u16;
    let samples = opt_number(get("--samples"), "--samples", u32::MAX as u64, 1)? as u32;
    let quality = opt_number(get("--quality"), "--quality", u32::MAX as u64, 0)? as u32;
    let flags = match get("--flags") {
        Some(v) => parse_flags(v)?,
        None => sys::D3D12_RESOURCE_FLAG_NONE,
    };
    let layout = match get("--layout") {
        Some(v) => parse_layout(v)?,
        None if is_buffer => sys::D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
        None => sys::D3D12_TEXTURE_LAYOUT_UNKNOWN,
    };
    let alignment = opt_number(get("--alignment"), "--alignment", u64::MAX, 0)?;
    let base_offset = opt_number(get("--base-offset"), "--base-offset", u64::MAX, 0)?;

    let desc = D3D12_RESOURCE_DESC1 {
        Dimension: dimension,
        Alignment: alignment,
        Width: width,
        Height: height,
        DepthOrArraySize: depth_or_array,
        MipLevels: mips,
        Format: format,
        SampleDesc: DXGI_SAMPLE_DESC { Count: samples, Quality: quality },
        Layout: layout,
        Flags: flags,
        ..Default::default()
    };
    Ok(Parsed::Run(Options { desc, base_offset, json }))
}

/// Parses a decimal or `0x` hexadecimal number no larger than `max`.
fn number(v: &str, opt: &str, max: u64) -> Result<u64, UsageError> {
    let t = v.trim();
    let parsed = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => u64::from_str_radix(hex, 16),
        Some(_) => return usage_err(format!("invalid number {v:?} for {opt}: expected a non-negative integer")),
        None if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) => t.parse::<u64>(),
        None => return usage_err(format!("invalid number {v:?} for {opt}: expected a non-negative integer")),
    };
    match parsed {
        Ok(n) if n <= max => Ok(n),
        _ => usage_err(format!("number {v} for {opt} is out of range (at most {max})")),
    }
}

fn opt_number(v: Option<&str>, opt: &str, max: u64, default: u64) -> Result<u64, UsageError> {
    v.map_or(Ok(default), |v| number(v, opt, max))
}

fn parse_dimension(v: &str) -> Result<sys::D3D12_RESOURCE_DIMENSION, UsageError> {
    let u = v.trim().to_ascii_uppercase();
    let u = u.strip_prefix("D3D12_RESOURCE_DIMENSION_").unwrap_or(&u);
    Ok(match u {
        "BUFFER" => sys::D3D12_RESOURCE_DIMENSION_BUFFER,
        "1D" | "TEXTURE1D" => sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D,
        "2D" | "TEXTURE2D" => sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        "3D" | "TEXTURE3D" => sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D,
        _ => return usage_err(format!("unknown --dimension {v:?} (expected buffer, 1d, 2d or 3d)")),
    })
}

fn parse_layout(v: &str) -> Result<sys::D3D12_TEXTURE_LAYOUT, UsageError> {
    let u = v.trim().to_ascii_uppercase().replace('-', "_");
    let u = u.strip_prefix("D3D12_TEXTURE_LAYOUT_").unwrap_or(&u);
    Ok(match u {
        "UNKNOWN" => sys::D3D12_TEXTURE_LAYOUT_UNKNOWN,
        "ROW_MAJOR" => sys::D3D12_TEXTURE_LAYOUT_ROW_MAJOR,
        "64KB_UNDEFINED" | "64KB_UNDEFINED_SWIZZLE" => sys::D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE,
        "64KB_STANDARD" | "64KB_STANDARD_SWIZZLE" => sys::D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE,
        _ => {
            return usage_err(format!(
                "unknown --layout {v:?} (expected unknown, row-major, 64kb-undefined or 64kb-standard)"
            ))
        }
    })
}

/// Resource flags: (short name, D3D12_RESOURCE_FLAG_ suffix, value).
const FLAGS: &[(&str, &str, sys::D3D12_RESOURCE_FLAGS)] = &[
    ("rt", "ALLOW_RENDER_TARGET", sys::D3D12_RESOURCE_FLAG_ALLOW_RENDER_TARGET),
    ("ds", "ALLOW_DEPTH_STENCIL", sys::D3D12_RESOURCE_FLAG_ALLOW_DEPTH_STENCIL),
    ("uav", "ALLOW_UNORDERED_ACCESS", sys::D3D12_RESOURCE_FLAG_ALLOW_UNORDERED_ACCESS),
    ("deny-srv", "DENY_SHADER_RESOURCE", sys::D3D12_RESOURCE_FLAG_DENY_SHADER_RESOURCE),
    ("cross-adapter", "ALLOW_CROSS_ADAPTER", sys::D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER),
    ("simultaneous", "ALLOW_SIMULTANEOUS_ACCESS", sys::D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS),
    ("video-decode", "VIDEO_DECODE_REFERENCE_ONLY", sys::D3D12_RESOURCE_FLAG_VIDEO_DECODE_REFERENCE_ONLY),
    ("video-encode", "VIDEO_ENCODE_REFERENCE_ONLY", sys::D3D12_RESOURCE_FLAG_VIDEO_ENCODE_REFERENCE_ONLY),
    ("raytracing", "RAYTRACING_ACCELERATION_STRUCTURE", sys::D3D12_RESOURCE_FLAG_RAYTRACING_ACCELERATION_STRUCTURE),
];

fn parse_flags(v: &str) -> Result<sys::D3D12_RESOURCE_FLAGS, UsageError> {
    let mut bits = 0u32;
    for item in v.split(',') {
        let t = item.trim();
        if t.is_empty() {
            return usage_err(format!("empty flag name in --flags {v:?}"));
        }
        let upper = t.to_ascii_uppercase();
        let full = upper.strip_prefix("D3D12_RESOURCE_FLAG_").unwrap_or(&upper);
        if full == "NONE" {
            continue;
        }
        match FLAGS.iter().find(|(short, long, _)| short.eq_ignore_ascii_case(t) || *long == full) {
            Some((_, _, f)) => bits |= f.0,
            None => {
                return usage_err(format!(
                    "unknown flag {t:?} in --flags (expected rt, ds, uav, deny-srv, cross-adapter, simultaneous, \
                     video-decode, video-encode, raytracing, none or a D3D12_RESOURCE_FLAG_* name)"
                ))
            }
        }
    }
    Ok(sys::D3D12_RESOURCE_FLAGS(bits))
}

fn parse_format(v: &str) -> Result<DXGI_FORMAT, UsageError> {
    if let Some(f) = format::from_name(v) {
        return Ok(f);
    }
    let hint = match suggest_format(v) {
        Some(s) => format!("did you mean {s}?"),
        None => "expected a DXGI_FORMAT name such as R8G8B8A8_UNORM, BC1_UNORM or NV12".to_string(),
    };
    usage_err(format!("unknown format name {v:?} for --format ({hint})"))
}

/// The closest format name (edit distance), if it is close enough to be a typo.
fn suggest_format(v: &str) -> Option<&'static str> {
    let t = v.trim().to_ascii_uppercase();
    let t = t.strip_prefix("DXGI_FORMAT_").unwrap_or(&t);
    if t.is_empty() {
        return None;
    }
    let (dist, name) = format::all().iter().map(|i| (edit_distance(t, i.name), i.name)).min_by_key(|(d, _)| *d)?;
    if dist <= (t.len() / 3).max(2) {
        return Some(name);
    }
    // A unique name that starts with what was typed (e.g. "BC7" → not unique, "R11G11" → unique).
    let mut starts = format::all().iter().filter(|i| i.name.starts_with(t));
    match (starts.next(), starts.next()) {
        (Some(only), None) => Some(only.name),
        _ => None,
    }
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<u8> = b.bytes().map(|c| c.to_ascii_uppercase()).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.bytes().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

// ---------------------------------------------------------------------------------------
// Computation.

/// One row of the footprint table.
#[derive(Debug, Clone, Copy)]
pub struct Row {
    pub index: u32,
    pub mip: u32,
    pub array_slice: u32,
    pub plane: u32,
    pub layout: D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    pub num_rows: u32,
    pub row_size: u64,
}

/// Everything the command prints on success.
#[derive(Debug, Clone)]
pub struct Report {
    /// Expanded MipLevels.
    pub mip_levels: u32,
    pub size: u64,
    pub alignment: u64,
    pub rows: Vec<Row>,
    pub total_bytes: u64,
    pub warnings: Vec<Diag>,
}

/// The desc is rejected (exit status 1).
#[derive(Debug, Clone)]
pub enum Failure {
    /// Rejected by the validator (GetResourceAllocationInfo or GetCopyableFootprints).
    Desc(DescError),
    /// Valid, but the footprints do not fit 64 bits.
    Overflow(String),
}

impl Failure {
    fn text(&self) -> String {
        match self {
            Failure::Desc(e) => {
                let mut s = format!("invalid resource desc: {}", diag_text(e.id, &e.message));
                for d in &e.extra {
                    let _ = write!(s, "\n  also: {}", diag_text(d.id, &d.message));
                }
                s
            }
            Failure::Overflow(m) => format!("invalid resource desc: {m}"),
        }
    }

    fn json(&self) -> String {
        match self {
            Failure::Desc(e) => {
                let extra: Vec<String> = e.extra.iter().map(|d| diag_json(d.id, &d.message)).collect();
                format!(
                    "{{\"error\": {{\"kind\": \"invalid_desc\", \"id\": {}, \"name\": {}, \"message\": {}, \
                     \"hresult\": \"{:#010x}\", \"extra\": [{}]}}}}\n",
                    e.id.0,
                    json_str(message_name(e.id).unwrap_or("")),
                    json_str(&e.message),
                    e.hresult() as u32,
                    extra.join(", ")
                )
            }
            Failure::Overflow(m) => {
                format!("{{\"error\": {{\"kind\": \"overflow\", \"message\": {}}}}}\n", json_str(m))
            }
        }
    }
}

/// Runs GetResourceAllocationInfo and GetCopyableFootprints (all subresources) on the desc.
pub fn compute(opts: &Options) -> Result<Report, Failure> {
    let caps = Caps::today();
    let desc = &opts.desc;
    // GetResourceAllocationInfo validates the whole desc (alignment included).
    let v = validate_desc1(desc, Api::AllocationInfo, &caps, None).map_err(Failure::Desc)?;
    let alloc = allocation_info_one(desc, &caps).map_err(|(e, _)| Failure::Desc(e))?;

    let count = v.subresource_count;
    if let Some(d) = footprint_error(desc, 0, count, &caps) {
        return Err(Failure::Desc(DescError {
            hr: rd3d12_core::Hr::InvalidArg,
            id: d.id,
            message: d.message,
            extra: Vec::new(),
        }));
    }
    let n = count as usize;
    let mut layouts = vec![D3D12_PLACED_SUBRESOURCE_FOOTPRINT::default(); n];
    let mut num_rows = vec![0u32; n];
    let mut row_sizes = vec![0u64; n];
    let total = copyable_footprints(
        desc,
        0,
        count,
        opts.base_offset,
        &caps,
        Some(&mut layouts),
        Some(&mut num_rows),
        Some(&mut row_sizes),
    );
    if total == u64::MAX {
        return Err(Failure::Overflow("the copyable footprints exceed 64 bits (TotalBytes is UINT64_MAX)".into()));
    }
    let rows = (0..count)
        .map(|i| {
            let s = decompose_subresource(i, v.mip_levels.max(1), v.array_size.max(1));
            let k = i as usize;
            Row {
                index: i,
                mip: s.mip,
                array_slice: s.array_slice,
                plane: s.plane,
                layout: layouts[k],
                num_rows: num_rows[k],
                row_size: row_sizes[k],
            }
        })
        .collect();
    Ok(Report {
        mip_levels: v.mip_levels,
        size: alloc.SizeInBytes,
        alignment: alloc.Alignment,
        rows,
        total_bytes: total,
        warnings: v.warnings,
    })
}

// ---------------------------------------------------------------------------------------
// Names.

/// Debug-layer message names for the IDs the validators report.
const MESSAGE_NAMES: &[(MessageId, &str)] = &[
    (msg::CREATERESOURCE_INVALIDDIMENSIONS, "CREATERESOURCE_INVALIDDIMENSIONS"),
    (msg::CREATERESOURCE_INVALIDMISCFLAGS, "CREATERESOURCE_INVALIDMISCFLAGS"),
    (msg::CREATERESOURCE_INVALIDARG_RETURN, "CREATERESOURCE_INVALIDARG_RETURN"),
    (msg::CREATERESOURCE_OUTOFMEMORY_RETURN, "CREATERESOURCE_OUTOFMEMORY_RETURN"),
    (msg::CREATERESOURCE_INVALIDDESC, "CREATERESOURCE_INVALIDDESC"),
    (msg::GETRESOURCEALLOCATIONINFO_INVALIDRDESCS, "GETRESOURCEALLOCATIONINFO_INVALIDRDESCS"),
    (msg::CREATERESOURCE_UNRECOGNIZEDDIMENSIONALITY, "CREATERESOURCE_UNRECOGNIZEDDIMENSIONALITY"),
    (msg::CREATERESOURCE_UNRECOGNIZEDLAYOUT, "CREATERESOURCE_UNRECOGNIZEDLAYOUT"),
    (msg::CREATERESOURCE_INVALIDDIMENSIONALITY, "CREATERESOURCE_INVALIDDIMENSIONALITY"),
    (msg::CREATERESOURCE_INVALIDALIGNMENT, "CREATERESOURCE_INVALIDALIGNMENT"),
    (msg::CREATERESOURCE_INVALIDMIPLEVELS, "CREATERESOURCE_INVALIDMIPLEVELS"),
    (msg::CREATERESOURCE_INVALIDSAMPLEDESC, "CREATERESOURCE_INVALIDSAMPLEDESC"),
    (msg::CREATERESOURCE_INVALIDLAYOUT, "CREATERESOURCE_INVALIDLAYOUT"),
    (msg::CREATERESOURCE_UNRECOGNIZEDFORMAT, "CREATERESOURCE_UNRECOGNIZEDFORMAT"),
    (msg::CREATERESOURCE_INVALIDFORMAT, "CREATERESOURCE_INVALIDFORMAT"),
    (msg::GETCOPYABLEFOOTPRINTS_INVALIDSUBRESOURCERANGE, "GETCOPYABLEFOOTPRINTS_INVALIDSUBRESOURCERANGE"),
    (msg::GETCOPYABLEFOOTPRINTS_INVALIDBASEOFFSET, "GETCOPYABLEFOOTPRINTS_INVALIDBASEOFFSET"),
    (msg::GETCOPYABLEFOOTPRINTS_UNSUPPORTED_BUFFER_WIDTH, "GETCOPYABLEFOOTPRINTS_UNSUPPORTED_BUFFER_WIDTH"),
    (msg::CREATERESOURCE_INVALIDCLEARVALUE, "CREATERESOURCE_INVALIDCLEARVALUE"),
    (msg::CREATERESOURCE_UNRECOGNIZEDCLEARVALUEFORMAT, "CREATERESOURCE_UNRECOGNIZEDCLEARVALUEFORMAT"),
    (msg::CREATERESOURCE_INVALIDCLEARVALUEFORMAT, "CREATERESOURCE_INVALIDCLEARVALUEFORMAT"),
    (msg::CREATERESOURCE_CLEARVALUEDENORMFLUSH, "CREATERESOURCE_CLEARVALUEDENORMFLUSH"),
    (msg::CREATERESOURCE_STATE_IGNORED, "CREATERESOURCE_STATE_IGNORED"),
];

fn message_name(id: MessageId) -> Option<&'static str> {
    MESSAGE_NAMES.iter().find(|(m, _)| *m == id).map(|(_, n)| *n)
}

/// `#721 CREATERESOURCE_INVALIDALIGNMENT: text`.
fn diag_text(id: MessageId, message: &str) -> String {
    match message_name(id) {
        Some(n) => format!("{id} {n}: {message}"),
        None => format!("{id}: {message}"),
    }
}

fn diag_json(id: MessageId, message: &str) -> String {
    format!(
        "{{\"id\": {}, \"name\": {}, \"message\": {}}}",
        id.0,
        json_str(message_name(id).unwrap_or("")),
        json_str(message)
    )
}

fn dimension_name(d: sys::D3D12_RESOURCE_DIMENSION) -> &'static str {
    match d {
        sys::D3D12_RESOURCE_DIMENSION_BUFFER => "BUFFER",
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE1D => "TEXTURE1D",
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D => "TEXTURE2D",
        sys::D3D12_RESOURCE_DIMENSION_TEXTURE3D => "TEXTURE3D",
        _ => "UNKNOWN",
    }
}

fn layout_name(l: sys::D3D12_TEXTURE_LAYOUT) -> &'static str {
    match l {
        sys::D3D12_TEXTURE_LAYOUT_UNKNOWN => "UNKNOWN",
        sys::D3D12_TEXTURE_LAYOUT_ROW_MAJOR => "ROW_MAJOR",
        sys::D3D12_TEXTURE_LAYOUT_64KB_UNDEFINED_SWIZZLE => "64KB_UNDEFINED_SWIZZLE",
        sys::D3D12_TEXTURE_LAYOUT_64KB_STANDARD_SWIZZLE => "64KB_STANDARD_SWIZZLE",
        _ => "?",
    }
}

fn flag_names(f: sys::D3D12_RESOURCE_FLAGS) -> Vec<&'static str> {
    FLAGS.iter().filter(|(_, _, v)| f.0 & v.0 != 0).map(|(_, n, _)| *n).collect()
}

fn format_name(f: DXGI_FORMAT) -> String {
    format::name(f).map_or_else(|| f.0.to_string(), str::to_string)
}

// ---------------------------------------------------------------------------------------
// Output.

fn render_text(opts: &Options, r: &Report) -> String {
    let d = &opts.desc;
    let flags = flag_names(d.Flags);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "resource:    {} {}, Width {}, Height {}, DepthOrArraySize {}, MipLevels {}, SampleDesc {{{}, {}}}, \
         Layout {}, Flags {}, Alignment {}",
        dimension_name(d.Dimension),
        format_name(d.Format),
        d.Width,
        d.Height,
        d.DepthOrArraySize,
        r.mip_levels,
        d.SampleDesc.Count,
        d.SampleDesc.Quality,
        layout_name(d.Layout),
        if flags.is_empty() { "NONE".to_string() } else { flags.join("|") },
        d.Alignment
    );
    let _ = writeln!(s, "allocation:  SizeInBytes {}, Alignment {}", r.size, r.alignment);
    let _ = writeln!(
        s,
        "footprints:  {} subresource{}, BaseOffset {}",
        r.rows.len(),
        if r.rows.len() == 1 { "" } else { "s" },
        opts.base_offset
    );
    s.push('\n');

    const HEADERS: [&str; 12] = [
        "Index",
        "Mip",
        "Slice",
        "Plane",
        "Offset",
        "Format",
        "Width",
        "Height",
        "Depth",
        "RowPitch",
        "NumRows",
        "RowSizeInBytes",
    ];
    const FORMAT_COLUMN: usize = 5;
    let cells: Vec<[String; 12]> = r
        .rows
        .iter()
        .map(|row| {
            let fp = &row.layout.Footprint;
            [
                row.index.to_string(),
                row.mip.to_string(),
                row.array_slice.to_string(),
                row.plane.to_string(),
                row.layout.Offset.to_string(),
                format_name(fp.Format),
                fp.Width.to_string(),
                fp.Height.to_string(),
                fp.Depth.to_string(),
                fp.RowPitch.to_string(),
                row.num_rows.to_string(),
                row.row_size.to_string(),
            ]
        })
        .collect();
    let mut widths = HEADERS.map(str::len);
    for c in &cells {
        for (w, v) in widths.iter_mut().zip(c.iter()) {
            *w = (*w).max(v.len());
        }
    }
    let mut line = |values: &[&str]| {
        let mut l = String::new();
        for (k, v) in values.iter().enumerate() {
            if k > 0 {
                l.push_str("  ");
            }
            if k == FORMAT_COLUMN {
                let _ = write!(l, "{v:<w$}", w = widths[k]);
            } else {
                let _ = write!(l, "{v:>w$}", w = widths[k]);
            }
        }
        s.push_str(l.trim_end());
        s.push('\n');
    };
    line(&HEADERS);
    for c in &cells {
        let refs: Vec<&str> = c.iter().map(String::as_str).collect();
        line(&refs);
    }
    s.push('\n');
    let _ = writeln!(s, "TotalBytes:  {}", r.total_bytes);
    s
}

fn render_json(opts: &Options, r: &Report) -> String {
    let d = &opts.desc;
    let flags: Vec<String> = flag_names(d.Flags).into_iter().map(json_str).collect();
    let mut s = String::from("{\n");
    let _ = writeln!(
        s,
        "  \"desc\": {{\"dimension\": {}, \"format\": {}, \"width\": {}, \"height\": {}, \"depth_or_array_size\": {}, \
         \"mip_levels\": {}, \"sample_count\": {}, \"sample_quality\": {}, \"layout\": {}, \"flags\": [{}], \
         \"alignment\": {}}},",
        json_str(dimension_name(d.Dimension)),
        json_str(&format_name(d.Format)),
        d.Width,
        d.Height,
        d.DepthOrArraySize,
        r.mip_levels,
        d.SampleDesc.Count,
        d.SampleDesc.Quality,
        json_str(layout_name(d.Layout)),
        flags.join(", "),
        d.Alignment
    );
    let _ = writeln!(s, "  \"allocation\": {{\"size\": {}, \"alignment\": {}}},", r.size, r.alignment);
    let _ = writeln!(s, "  \"base_offset\": {},", opts.base_offset);
    s.push_str("  \"subresources\": [");
    for (k, row) in r.rows.iter().enumerate() {
        let fp = &row.layout.Footprint;
        let _ = write!(
            s,
            "{}\n    {{\"index\": {}, \"mip\": {}, \"array_slice\": {}, \"plane\": {}, \"offset\": {}, \"format\": {}, \
             \"width\": {}, \"height\": {}, \"depth\": {}, \"row_pitch\": {}, \"num_rows\": {}, \
             \"row_size_in_bytes\": {}}}",
            if k == 0 { "" } else { "," },
            row.index,
            row.mip,
            row.array_slice,
            row.plane,
            row.layout.Offset,
            json_str(&format_name(fp.Format)),
            fp.Width,
            fp.Height,
            fp.Depth,
            fp.RowPitch,
            row.num_rows,
            row.row_size
        );
    }
    s.push_str(if r.rows.is_empty() { "],\n" } else { "\n  ],\n" });
    let _ = writeln!(s, "  \"total_bytes\": {},", r.total_bytes);
    let warnings: Vec<String> = r.warnings.iter().map(|w| diag_json(w.id, &w.message)).collect();
    let _ = writeln!(s, "  \"warnings\": [{}]", warnings.join(", "));
    s.push_str("}\n");
    s
}

/// A JSON string literal (RFC 8259 escaping).
pub fn json_str(v: &str) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    s.push('"');
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' => s.push_str("\\n"),
            '\r' => s.push_str("\\r"),
            '\t' => s.push_str("\\t"),
            '\u{8}' => s.push_str("\\b"),
            '\u{c}' => s.push_str("\\f"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(s, "\\u{:04x}", c as u32);
            }
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escaping() {
        assert_eq!(json_str("plain"), "\"plain\"");
        assert_eq!(json_str("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(json_str("l1\nl2\t\r"), "\"l1\\nl2\\t\\r\"");
        assert_eq!(json_str("\u{1}\u{1f}\u{7f}"), "\"\\u0001\\u001f\\u007f\"");
        assert_eq!(json_str("µ×"), "\"µ×\"");
    }

    #[test]
    fn numbers() {
        assert_eq!(number("0x10", "--width", u64::MAX), Ok(16));
        assert_eq!(number("65535", "--array", 65535), Ok(65535));
        assert!(number("65536", "--array", 65535).is_err());
        assert!(number("-1", "--width", u64::MAX).is_err());
        assert!(number("1e3", "--width", u64::MAX).is_err());
        assert!(number("0x", "--width", u64::MAX).is_err());
        assert!(number("18446744073709551616", "--width", u64::MAX).is_err());
    }

    #[test]
    fn format_suggestions() {
        assert_eq!(suggest_format("R8G8B8A8_UNROM"), Some("R8G8B8A8_UNORM"));
        assert_eq!(suggest_format("dxgi_format_bc1_unrm"), Some("BC1_UNORM"));
        assert_eq!(suggest_format("completely-wrong-thing"), None);
    }

    #[test]
    fn flags() {
        assert_eq!(parse_flags("rt,uav").unwrap().0, 5);
        assert_eq!(parse_flags("D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS, deny-srv").unwrap().0, 0x28);
        assert_eq!(parse_flags("none").unwrap().0, 0);
        assert!(parse_flags("rt,bogus").is_err());
    }
}
