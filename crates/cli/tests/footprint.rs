//! `rd3d12 footprint`: runs the built binary and checks numbers worked out by hand from the
//! D3D12 footprint rules (RowPitch = row bytes aligned to 256, 512 for planar formats; every
//! subresource 512-aligned from BaseOffset; size = (NumRows × Depth − 1) × RowPitch +
//! RowSizeInBytes; TotalBytes = end of the last subresource, BaseOffset excluded).

use std::io::Write;
use std::process::{Command, Output, Stdio};

use rd3d12_sys as sys;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rd3d12")).args(args).output().expect("failed to run rd3d12")
}

fn footprint(args: &[&str]) -> Output {
    let mut all = vec!["footprint"];
    all.extend_from_slice(args);
    run(&all)
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// Runs and expects exit status 0; returns stdout.
fn ok(args: &[&str]) -> String {
    let o = footprint(args);
    assert_eq!(o.status.code(), Some(0), "args {args:?}\nstdout:\n{}\nstderr:\n{}", stdout(&o), stderr(&o));
    stdout(&o)
}

// ---------------------------------------------------------------------------------------
// Text table parsing.

/// One table row: Index Mip Slice Plane Offset Format Width Height Depth RowPitch NumRows
/// RowSizeInBytes.
#[derive(Debug, PartialEq, Eq)]
struct TextRow {
    index: u64,
    mip: u64,
    slice: u64,
    plane: u64,
    offset: u64,
    format: String,
    width: u64,
    height: u64,
    depth: u64,
    row_pitch: u64,
    num_rows: u64,
    row_size: u64,
}

struct Table {
    allocation: (u64, u64),
    rows: Vec<TextRow>,
    total: u64,
}

fn parse_table(out: &str) -> Table {
    let mut allocation = None;
    let mut total = None;
    let mut rows = Vec::new();
    let mut in_table = false;
    for line in out.lines() {
        if let Some(rest) = line.strip_prefix("allocation:") {
            // "allocation:  SizeInBytes 65536, Alignment 65536"
            let w: Vec<&str> = rest.split(|c: char| c == ',' || c.is_whitespace()).filter(|s| !s.is_empty()).collect();
            assert_eq!((w[0], w[2]), ("SizeInBytes", "Alignment"), "{line}");
            allocation = Some((w[1].parse().unwrap(), w[3].parse().unwrap()));
        } else if let Some(rest) = line.strip_prefix("TotalBytes:") {
            total = Some(rest.trim().parse().unwrap());
        } else if line.trim_start().starts_with("Index") {
            let h: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(
                h,
                [
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
                    "RowSizeInBytes"
                ]
            );
            in_table = true;
        } else if in_table && line.trim().is_empty() {
            in_table = false;
        } else if in_table {
            let c: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(c.len(), 12, "{line}");
            let n = |i: usize| c[i].parse::<u64>().unwrap_or_else(|_| panic!("column {i} of {line:?}"));
            rows.push(TextRow {
                index: n(0),
                mip: n(1),
                slice: n(2),
                plane: n(3),
                offset: n(4),
                format: c[5].to_string(),
                width: n(6),
                height: n(7),
                depth: n(8),
                row_pitch: n(9),
                num_rows: n(10),
                row_size: n(11),
            });
        }
    }
    Table { allocation: allocation.expect("allocation line"), rows, total: total.expect("TotalBytes line") }
}

#[allow(clippy::too_many_arguments)]
fn row(
    index: u64,
    mip: u64,
    slice: u64,
    plane: u64,
    offset: u64,
    format: &str,
    (width, height, depth): (u64, u64, u64),
    row_pitch: u64,
    num_rows: u64,
    row_size: u64,
) -> TextRow {
    TextRow {
        index,
        mip,
        slice,
        plane,
        offset,
        format: format.to_string(),
        width,
        height,
        depth,
        row_pitch,
        num_rows,
        row_size,
    }
}

// ---------------------------------------------------------------------------------------
// A small strict JSON parser (RFC 8259), enough to validate and query the output.

#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(String),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> &Json {
        match self {
            Json::Obj(m) => {
                m.iter().find(|(k, _)| k == key).map(|(_, v)| v).unwrap_or_else(|| panic!("no key {key:?}"))
            }
            _ => panic!("not an object: {self:?}"),
        }
    }
    fn keys(&self) -> Vec<&str> {
        match self {
            Json::Obj(m) => m.iter().map(|(k, _)| k.as_str()).collect(),
            _ => panic!("not an object"),
        }
    }
    fn u64(&self) -> u64 {
        match self {
            Json::Num(n) => n.parse().unwrap_or_else(|_| panic!("not a u64: {n}")),
            _ => panic!("not a number: {self:?}"),
        }
    }
    fn str(&self) -> &str {
        match self {
            Json::Str(s) => s,
            _ => panic!("not a string: {self:?}"),
        }
    }
    fn arr(&self) -> &[Json] {
        match self {
            Json::Arr(a) => a,
            _ => panic!("not an array: {self:?}"),
        }
    }
    fn at(&self, path: &str) -> &Json {
        path.split('.').fold(self, |v, k| v.get(k))
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn parse_document(text: &str) -> Result<Json, String> {
        let mut p = Parser { s: text.as_bytes(), i: 0 };
        let v = p.value()?;
        p.ws();
        if p.i != p.s.len() {
            return Err(format!("trailing data at byte {}", p.i));
        }
        Ok(v)
    }
    fn ws(&mut self) {
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }
    fn expect(&mut self, b: u8) -> Result<(), String> {
        if self.peek() == Some(b) {
            self.i += 1;
            Ok(())
        } else {
            Err(format!("expected {:?} at byte {}", b as char, self.i))
        }
    }
    fn lit(&mut self, word: &str, v: Json) -> Result<Json, String> {
        if self.s[self.i..].starts_with(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(format!("bad literal at byte {}", self.i))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.peek().ok_or("unexpected end")? {
            b'{' => {
                self.i += 1;
                let mut m: Vec<(String, Json)> = Vec::new();
                self.ws();
                if self.peek() == Some(b'}') {
                    self.i += 1;
                    return Ok(Json::Obj(m));
                }
                loop {
                    self.ws();
                    let k = self.string()?;
                    if m.iter().any(|(e, _)| *e == k) {
                        return Err(format!("duplicate key {k:?}"));
                    }
                    self.ws();
                    self.expect(b':')?;
                    let v = self.value()?;
                    m.push((k, v));
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b'}') => {
                            self.i += 1;
                            return Ok(Json::Obj(m));
                        }
                        _ => return Err(format!("expected , or }} at byte {}", self.i)),
                    }
                }
            }
            b'[' => {
                self.i += 1;
                let mut a = Vec::new();
                self.ws();
                if self.peek() == Some(b']') {
                    self.i += 1;
                    return Ok(Json::Arr(a));
                }
                loop {
                    a.push(self.value()?);
                    self.ws();
                    match self.peek() {
                        Some(b',') => self.i += 1,
                        Some(b']') => {
                            self.i += 1;
                            return Ok(Json::Arr(a));
                        }
                        _ => return Err(format!("expected , or ] at byte {}", self.i)),
                    }
                }
            }
            b'"' => Ok(Json::Str(self.string()?)),
            b't' => self.lit("true", Json::Bool(true)),
            b'f' => self.lit("false", Json::Bool(false)),
            b'n' => self.lit("null", Json::Null),
            b'-' | b'0'..=b'9' => {
                let start = self.i;
                if self.peek() == Some(b'-') {
                    self.i += 1;
                }
                let digits = self.i;
                while matches!(self.peek(), Some(b'0'..=b'9')) {
                    self.i += 1;
                }
                if self.i == digits || (self.s[digits] == b'0' && self.i - digits > 1) {
                    return Err(format!("bad number at byte {start}"));
                }
                if self.peek() == Some(b'.') {
                    self.i += 1;
                    let f = self.i;
                    while matches!(self.peek(), Some(b'0'..=b'9')) {
                        self.i += 1;
                    }
                    if self.i == f {
                        return Err(format!("bad fraction at byte {start}"));
                    }
                }
                if matches!(self.peek(), Some(b'e' | b'E')) {
                    self.i += 1;
                    if matches!(self.peek(), Some(b'+' | b'-')) {
                        self.i += 1;
                    }
                    let e = self.i;
                    while matches!(self.peek(), Some(b'0'..=b'9')) {
                        self.i += 1;
                    }
                    if self.i == e {
                        return Err(format!("bad exponent at byte {start}"));
                    }
                }
                Ok(Json::Num(String::from_utf8(self.s[start..self.i].to_vec()).unwrap()))
            }
            c => Err(format!("unexpected {:?} at byte {}", c as char, self.i)),
        }
    }
    fn string(&mut self) -> Result<String, String> {
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            let c = self.peek().ok_or("unterminated string")?;
            self.i += 1;
            match c {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = self.peek().ok_or("unterminated escape")?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => {
                            let hex = std::str::from_utf8(self.s.get(self.i..self.i + 4).ok_or("short \\u")?)
                                .map_err(|e| e.to_string())?;
                            self.i += 4;
                            let cp = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                            char::from_u32(cp).ok_or("surrogate escapes are not produced by rd3d12")?
                        }
                        _ => return Err(format!("bad escape at byte {}", self.i)),
                    };
                    out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
                }
                c if c < 0x20 => return Err(format!("raw control character in string at byte {}", self.i)),
                c => out.push(c),
            }
        }
    }
}

/// Parses with the strict parser above and, when python3 is installed, with Python's json.
fn parse_json(text: &str) -> Json {
    let v = Parser::parse_document(text).unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{text}"));
    if let Ok(mut child) = Command::new("python3")
        .args(["-c", "import json,sys; json.load(sys.stdin)"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
    {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        let o = child.wait_with_output().unwrap();
        assert!(
            o.status.success(),
            "python3 json.load rejects the output: {}\n{text}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    v
}

fn sub(v: &Json, i: usize) -> &Json {
    &v.get("subresources").arr()[i]
}

/// (offset, format, width, height, depth, row_pitch, num_rows, row_size_in_bytes)
fn json_sub(s: &Json) -> (u64, &str, u64, u64, u64, u64, u64, u64) {
    (
        s.get("offset").u64(),
        s.get("format").str(),
        s.get("width").u64(),
        s.get("height").u64(),
        s.get("depth").u64(),
        s.get("row_pitch").u64(),
        s.get("num_rows").u64(),
        s.get("row_size_in_bytes").u64(),
    )
}

/// GetResourceAllocationInfo as rd3d12-core computes it (for the allocation of layouts whose
/// backend memory layout is a core design decision rather than a D3D12 rule).
fn core_allocation(desc: &sys::D3D12_RESOURCE_DESC1) -> (u64, u64) {
    let a = rd3d12_core::allocation_info_one(desc, &rd3d12_core::Caps::today()).expect("valid desc");
    (a.SizeInBytes, a.Alignment)
}

// ---------------------------------------------------------------------------------------
// 32x32 R8G8B8A8_UNORM: row 32 × 4 = 128 bytes, pitch 256, 32 rows,
// TotalBytes = 31 × 256 + 128 = 8064; allocation 64 KB.

#[test]
fn rgba8_32x32_text() {
    let out = ok(&["--format", "R8G8B8A8_UNORM", "--width", "32", "--height", "32"]);
    let t = parse_table(&out);
    assert_eq!(t.allocation, (65536, 65536));
    assert_eq!(t.rows, [row(0, 0, 0, 0, 0, "R8G8B8A8_UNORM", (32, 32, 1), 256, 32, 128)]);
    assert_eq!(t.total, 8064);
    assert!(
        out.starts_with("resource:    TEXTURE2D R8G8B8A8_UNORM, Width 32, Height 32, DepthOrArraySize 1, MipLevels 1,")
    );
    assert!(out.contains("footprints:  1 subresource, BaseOffset 0\n"));
}

#[test]
fn rgba8_32x32_json() {
    // Prefix and case of the format name do not matter.
    let out = ok(&["--format", "dxgi_format_r8g8b8a8_unorm", "--width", "32", "--height=32", "--json"]);
    let v = parse_json(&out);
    assert_eq!(v.keys(), ["desc", "allocation", "base_offset", "subresources", "total_bytes", "warnings"]);
    let d = v.get("desc");
    assert_eq!(d.get("dimension").str(), "TEXTURE2D");
    assert_eq!(d.get("format").str(), "R8G8B8A8_UNORM");
    assert_eq!(
        [d.get("width"), d.get("height"), d.get("depth_or_array_size"), d.get("mip_levels")].map(Json::u64),
        [32, 32, 1, 1]
    );
    assert_eq!((d.get("sample_count").u64(), d.get("sample_quality").u64()), (1, 0));
    assert_eq!(d.get("layout").str(), "UNKNOWN");
    assert_eq!(d.get("flags").arr(), []);
    assert_eq!(d.get("alignment").u64(), 0);
    assert_eq!((v.at("allocation.size").u64(), v.at("allocation.alignment").u64()), (65536, 65536));
    assert_eq!(v.get("subresources").arr().len(), 1);
    let s = sub(&v, 0);
    assert_eq!([s.get("index"), s.get("mip"), s.get("array_slice"), s.get("plane")].map(Json::u64), [0, 0, 0, 0]);
    assert_eq!(json_sub(s), (0, "R8G8B8A8_UNORM", 32, 32, 1, 256, 32, 128));
    assert_eq!(v.get("total_bytes").u64(), 8064);
    assert_eq!(v.get("warnings").arr(), []);
}

// ---------------------------------------------------------------------------------------
// Buffer of 1000 bytes: allocation rounds up to 64 KB; one footprint of Width × 1 × 1 with
// RowPitch = align256(1000) = 1024, RowSizeInBytes 1000, TotalBytes = Width.

#[test]
fn buffer_1000() {
    let t = parse_table(&ok(&["--dimension", "buffer", "--width", "1000"]));
    assert_eq!(t.allocation, (65536, 65536));
    assert_eq!(t.rows, [row(0, 0, 0, 0, 0, "UNKNOWN", (1000, 1, 1), 1024, 1, 1000)]);
    assert_eq!(t.total, 1000);

    let v = parse_json(&ok(&["--dimension", "buffer", "--width", "1000", "--format", "UNKNOWN", "--json"]));
    assert_eq!(v.at("desc.dimension").str(), "BUFFER");
    assert_eq!(v.at("desc.layout").str(), "ROW_MAJOR");
    assert_eq!((v.at("allocation.size").u64(), v.at("allocation.alignment").u64()), (65536, 65536));
    assert_eq!(json_sub(sub(&v, 0)), (0, "UNKNOWN", 1000, 1, 1, 1024, 1, 1000));
    assert_eq!(v.get("total_bytes").u64(), 1000);

    // 65537 bytes need two 64 KB pages.
    let t = parse_table(&ok(&["--dimension", "buffer", "--width", "65537"]));
    assert_eq!(t.allocation, (131072, 65536));
    assert_eq!(t.rows[0].row_pitch, 65792);
}

// ---------------------------------------------------------------------------------------
// BC1 64x64, MipLevels 0 → 7 mips (64..1). 8 bytes per 4×4 block; mips below 4×4 still
// occupy one block (footprint Width/Height 4).
//   mip  blocks  row  rows  size                 offset (512-aligned)  end
//   0    16×16   128  16    15×256+128 = 3968     0                     3968
//   1    8×8      64   8     7×256+64  = 1856     4096                  5952
//   2    4×4      32   4     3×256+32  = 800      6144                  6944
//   3    2×2      16   2     1×256+16  = 272      7168                  7440
//   4    1×1       8   1     8                    7680                  7688
//   5    1×1       8   1     8                    8192                  8200
//   6    1×1       8   1     8                    8704                  8712

#[test]
fn bc1_64x64_full_chain() {
    let args = ["--format", "BC1_UNORM", "--width", "64", "--height", "64", "--mips", "0"];
    let t = parse_table(&ok(&args));
    assert_eq!(t.allocation, (65536, 65536));
    let expected = [
        (0, 64, 16, 128),
        (4096, 32, 8, 64),
        (6144, 16, 4, 32),
        (7168, 8, 2, 16),
        (7680, 4, 1, 8),
        (8192, 4, 1, 8),
        (8704, 4, 1, 8),
    ];
    assert_eq!(t.rows.len(), 7);
    for (m, (r, &(offset, extent, rows, row_size))) in t.rows.iter().zip(expected.iter()).enumerate() {
        let m = m as u64;
        assert_eq!(*r, row(m, m, 0, 0, offset, "BC1_UNORM", (extent, extent, 1), 256, rows, row_size));
    }
    assert_eq!(t.total, 8712);

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v = parse_json(&ok(&json_args));
    assert_eq!(v.at("desc.mip_levels").u64(), 7, "MipLevels 0 is echoed expanded");
    assert_eq!(v.get("total_bytes").u64(), 8712);
    assert_eq!(json_sub(sub(&v, 6)), (8704, "BC1_UNORM", 4, 4, 1, 256, 1, 8));
}

// ---------------------------------------------------------------------------------------
// NV12 1920x1080: two planes, RowPitch aligned to 512 (planar).
//   plane 0 (Y):  R8 1920×1080, row 1920, pitch 2048, 1080 rows,
//                 size 1079×2048+1920 = 2211712, offset 0
//   plane 1 (UV): R8G8 960×540, row 960×2 = 1920, pitch 2048, 540 rows,
//                 size 539×2048+1920 = 1105792, offset align512(2211712) = 2211840
//   TotalBytes = 2211840 + 1105792 = 3317632

#[test]
fn nv12_planes() {
    let args = ["--format", "NV12", "--width", "1920", "--height", "1080"];
    let t = parse_table(&ok(&args));
    assert_eq!(
        t.rows,
        [
            row(0, 0, 0, 0, 0, "R8_TYPELESS", (1920, 1080, 1), 2048, 1080, 1920),
            row(1, 0, 0, 1, 2211840, "R8G8_TYPELESS", (960, 540, 1), 2048, 540, 1920),
        ]
    );
    assert_eq!(t.total, 3317632);
    // The allocation size is the CPU backend's memory layout (a core decision, not a D3D12
    // rule): whatever rd3d12-core says, 64 KB aligned.
    let desc = sys::D3D12_RESOURCE_DESC1 {
        Dimension: sys::D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Width: 1920,
        Height: 1080,
        DepthOrArraySize: 1,
        MipLevels: 1,
        Format: sys::DXGI_FORMAT_NV12,
        SampleDesc: sys::DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        ..Default::default()
    };
    assert_eq!(t.allocation, core_allocation(&desc));
    // Today's layout stores the planes tightly (rows back to back, 16-byte aligned):
    // 1920 × 1080 + 1920 × 540 = 3110400 bytes → 48 × 64 KB.
    assert_eq!(t.allocation, (3145728, 65536));
}

// ---------------------------------------------------------------------------------------
// 3D R16G16B16A16_FLOAT 16×8×4, 3 mips (8 bytes per texel):
//   mip 0: 16×8×4, row 128, 8 rows, size (8×4−1)×256+128 = 8064, offset 0
//   mip 1:  8×4×2, row 64, 4 rows,  size (4×2−1)×256+64  = 1856, offset 8192 → end 10048
//   mip 2:  4×2×1, row 32, 2 rows,  size (2×1−1)×256+32  = 288,  offset 10240 → end 10528

#[test]
fn texture3d() {
    let t = parse_table(&ok(&[
        "--dimension",
        "3d",
        "--format",
        "R16G16B16A16_FLOAT",
        "--width",
        "16",
        "--height",
        "8",
        "--depth",
        "4",
        "--mips",
        "3",
    ]));
    assert_eq!(t.allocation, (65536, 65536));
    assert_eq!(
        t.rows,
        [
            row(0, 0, 0, 0, 0, "R16G16B16A16_FLOAT", (16, 8, 4), 256, 8, 128),
            row(1, 1, 0, 0, 8192, "R16G16B16A16_FLOAT", (8, 4, 2), 256, 4, 64),
            row(2, 2, 0, 0, 10240, "R16G16B16A16_FLOAT", (4, 2, 1), 256, 2, 32),
        ]
    );
    assert_eq!(t.total, 10528);
}

// 3D 4×4×16 RGBA8 with MipLevels 0: the depth counts for the chain → 5 mips.
//   mip 0: 4×4×16, row 16, 4 rows, size (4×16−1)×256+16 = 16144, offset 0
//   mip 1: 2×2×8,  row 8,  2 rows, size (2×8−1)×256+8   = 3848,  offset 16384 → 20232
//   mip 2: 1×1×4,  row 4,  1 row,  size 3×256+4 = 772,            offset 20480 → 21252
//   mip 3: 1×1×2,                  size 256+4 = 260,              offset 21504 → 21764
//   mip 4: 1×1×1,                  size 4,                        offset 22016 → 22020
#[test]
fn texture3d_full_chain_json() {
    let v = parse_json(&ok(&[
        "--dimension=3d",
        "--format=R8G8B8A8_UNORM",
        "--width=4",
        "--height=4",
        "--depth=16",
        "--mips=0",
        "--json",
    ]));
    assert_eq!(v.at("desc.dimension").str(), "TEXTURE3D");
    assert_eq!(v.at("desc.depth_or_array_size").u64(), 16);
    assert_eq!(v.at("desc.mip_levels").u64(), 5);
    let expected = [
        (0, 4, 4, 16, 4, 16),
        (16384, 2, 2, 8, 2, 8),
        (20480, 1, 1, 4, 1, 4),
        (21504, 1, 1, 2, 1, 4),
        (22016, 1, 1, 1, 1, 4),
    ];
    for (i, &(offset, w, h, d, rows, row_size)) in expected.iter().enumerate() {
        assert_eq!(json_sub(sub(&v, i)), (offset, "R8G8B8A8_UNORM", w, h, d, 256, rows, row_size), "mip {i}");
        assert_eq!(sub(&v, i).get("array_slice").u64(), 0);
    }
    assert_eq!(v.get("total_bytes").u64(), 22020);
}

// ---------------------------------------------------------------------------------------
// 2D array: RGBA8 16×16, 3 slices, 2 mips, BaseOffset 512. Subresource order is mip
// fastest, then slice:
//   mip 0: row 64, 16 rows, size 15×256+64 = 3904;  mip 1: row 32, 8 rows, size 7×256+32 = 1824
//   relative offsets: 0 (→3904), 4096 (→5920), 6144 (→10048), 10240 (→12064),
//                     12288 (→16192), 16384 (→18208)
//   reported offsets = relative + 512; TotalBytes = 18208 (BaseOffset excluded)

#[test]
fn array_with_mips_and_base_offset() {
    let args = [
        "--format",
        "R8G8B8A8_UNORM",
        "--width",
        "16",
        "--height",
        "16",
        "--array",
        "3",
        "--mips",
        "2",
        "--base-offset",
        "512",
    ];
    let t = parse_table(&ok(&args));
    assert_eq!(t.allocation, (65536, 65536));
    let f = "R8G8B8A8_UNORM";
    assert_eq!(
        t.rows,
        [
            row(0, 0, 0, 0, 512, f, (16, 16, 1), 256, 16, 64),
            row(1, 1, 0, 0, 4608, f, (8, 8, 1), 256, 8, 32),
            row(2, 0, 1, 0, 6656, f, (16, 16, 1), 256, 16, 64),
            row(3, 1, 1, 0, 10752, f, (8, 8, 1), 256, 8, 32),
            row(4, 0, 2, 0, 12800, f, (16, 16, 1), 256, 16, 64),
            row(5, 1, 2, 0, 16896, f, (8, 8, 1), 256, 8, 32),
        ]
    );
    assert_eq!(t.total, 18208);

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let v = parse_json(&ok(&json_args));
    assert_eq!(v.get("base_offset").u64(), 512);
    assert_eq!(v.at("desc.depth_or_array_size").u64(), 3);
    assert_eq!(v.get("subresources").arr().len(), 6);
    let s3 = sub(&v, 3);
    assert_eq!([s3.get("index"), s3.get("mip"), s3.get("array_slice"), s3.get("plane")].map(Json::u64), [3, 1, 1, 0]);
    assert_eq!(s3.get("offset").u64(), 10752);
    assert_eq!(v.get("total_bytes").u64(), 18208);
}

// ---------------------------------------------------------------------------------------
// Flags, layout, alignment.

#[test]
fn flags_are_echoed() {
    let v = parse_json(&ok(&[
        "--format",
        "R8G8B8A8_UNORM",
        "--width",
        "8",
        "--flags",
        "rt,D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS",
        "--json",
    ]));
    let flags: Vec<&str> = v.at("desc.flags").arr().iter().map(Json::str).collect();
    assert_eq!(flags, ["ALLOW_RENDER_TARGET", "ALLOW_SIMULTANEOUS_ACCESS"]);
    let out = ok(&["--format", "D32_FLOAT", "--width", "8", "--height", "8", "--flags", "ds,deny-srv"]);
    assert!(out.contains("Flags ALLOW_DEPTH_STENCIL|DENY_SHADER_RESOURCE,"), "{out}");
    // D3D12: DENY_SHADER_RESOURCE needs ALLOW_DEPTH_STENCIL.
    let o = footprint(&["--format", "R8G8B8A8_UNORM", "--width", "8", "--flags", "uav,deny-srv"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("#599 CREATERESOURCE_INVALIDMISCFLAGS: "), "{}", stderr(&o));
}

#[test]
fn small_alignment_accepted() {
    // 16×16 RGBA8 fits one 4 KB tile (32×32 texels): the 4096 request is honoured.
    let t = parse_table(&ok(&["--format", "R8G8B8A8_UNORM", "--width", "16", "--height", "16", "--alignment", "4096"]));
    assert_eq!(t.allocation, (4096, 4096));
    assert_eq!(t.total, 3904);
    // 32×32 RGBA8 also fits one tile; the backend stores it in 32 × 128 = 4096 bytes even though
    // its copyable footprint (TotalBytes 8064) is larger.
    let t = parse_table(&ok(&["--format", "R8G8B8A8_UNORM", "--width", "32", "--height", "32", "--alignment", "4096"]));
    assert_eq!(t.allocation, (4096, 4096));
    assert_eq!(t.total, 8064);
}

// ---------------------------------------------------------------------------------------
// Rejected descs: exit status 1 with the validator's message ID.

#[test]
fn invalid_alignment_is_721() {
    let args = ["--format", "R8G8B8A8_UNORM", "--width", "256", "--height", "256", "--alignment", "4096"];
    let o = footprint(&args);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("invalid resource desc: #721 CREATERESOURCE_INVALIDALIGNMENT: "), "{err}");
    // 256×256 needs 8×8 = 64 tiles of 32×32 texels; 4 KB alignment allows 16 (Microsoft's words).
    assert!(err.contains("the number of tiles needed is 64, while 16 tiles is the maximum."), "{err}");

    let mut json_args = args.to_vec();
    json_args.push("--json");
    let o = footprint(&json_args);
    assert_eq!(o.status.code(), Some(1));
    let v = parse_json(&stdout(&o));
    assert_eq!(v.keys(), ["error"]);
    assert_eq!(v.at("error.kind").str(), "invalid_desc");
    assert_eq!(v.at("error.id").u64(), 721);
    assert_eq!(v.at("error.name").str(), "CREATERESOURCE_INVALIDALIGNMENT");
    assert_eq!(v.at("error.hresult").str(), "0x80070057");
    assert!(v.at("error.message").str().starts_with("D3D12_RESOURCE_DESC::Alignment cannot be 4KB"));
}

#[test]
fn other_rejected_descs() {
    let cases: [(&[&str], &str); 4] = [
        (&["--dimension", "buffer", "--width", "100", "--format", "R8_UNORM"], "#738 CREATERESOURCE_INVALIDFORMAT"),
        (&["--format", "R8G8B8A8_UNORM", "--width", "8", "--flags", "ds"], "#599 CREATERESOURCE_INVALIDMISCFLAGS"),
        (&["--format", "R8G8B8A8_UNORM", "--width", "0"], "#597 CREATERESOURCE_INVALIDDIMENSIONS"),
        // Buffers over 4 GiB have no copyable footprint (RowPitch is 32-bit).
        (&["--dimension", "buffer", "--width", "0x100000000"], "#1322 GETCOPYABLEFOOTPRINTS_UNSUPPORTED_BUFFER_WIDTH"),
    ];
    for (args, id) in cases {
        let o = footprint(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(&format!("invalid resource desc: {id}: ")), "{args:?}: {err}");
    }
}

// ---------------------------------------------------------------------------------------
// Wrong arguments: exit status 2, the argument named.

fn usage_error(args: &[&str]) -> String {
    let o = footprint(args);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
    assert_eq!(stdout(&o), "", "{args:?}");
    stderr(&o)
}

#[test]
fn unknown_format_with_hint() {
    let err = usage_error(&["--format", "R8G8B8A8_UNROM", "--width", "4"]);
    assert!(err.contains("unknown format name \"R8G8B8A8_UNROM\""), "{err}");
    assert!(err.contains("did you mean R8G8B8A8_UNORM?"), "{err}");
    let err = usage_error(&["--format", "NOT_A_FORMAT_AT_ALL", "--width", "4"]);
    assert!(err.contains("unknown format name") && err.contains("R8G8B8A8_UNORM"), "{err}");

    // With --json the error is also a JSON object on stdout.
    let o = footprint(&["--format", "FOO", "--width", "4", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let v = parse_json(&stdout(&o));
    assert_eq!(v.at("error.kind").str(), "usage");
    assert!(v.at("error.message").str().contains("\"FOO\""));
}

#[test]
fn bad_numbers() {
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "12x"]);
    assert!(err.contains("invalid number \"12x\" for --width"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--height", "-1"]);
    assert!(err.contains("--height"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--array", "65536"]);
    assert!(err.contains("--array") && err.contains("out of range"), "{err}");
    // Hexadecimal is accepted.
    let t = parse_table(&ok(&["--format", "R8G8B8A8_UNORM", "--width", "0x20", "--height", "0x20"]));
    assert_eq!(t.total, 8064);
}

#[test]
fn other_usage_errors() {
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--bogus"]);
    assert!(err.contains("unknown option \"--bogus\""), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width"]);
    assert!(err.contains("missing value for --width"), "{err}");
    let err = usage_error(&["--format", "--width", "4"]);
    assert!(err.contains("missing value for --format"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--flags", "rt,sparkly"]);
    assert!(err.contains("unknown flag \"sparkly\""), "{err}");
    let err = usage_error(&["--width", "4"]);
    assert!(err.contains("missing --format"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM"]);
    assert!(err.contains("missing --width"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--dimension", "4d"]);
    assert!(err.contains("unknown --dimension \"4d\""), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--layout", "swizzled"]);
    assert!(err.contains("unknown --layout \"swizzled\""), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--depth", "2"]);
    assert!(err.contains("--depth applies to 3d textures"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "--width", "8"]);
    assert!(err.contains("--width is given more than once"), "{err}");
    let err = usage_error(&["--format", "R8G8B8A8_UNORM", "--width", "4", "stray"]);
    assert!(err.contains("unexpected argument \"stray\""), "{err}");
    let err = usage_error(&[]);
    assert!(err.contains("usage: rd3d12 footprint"), "{err}");
}

#[test]
fn help() {
    let out = ok(&["--help"]);
    assert!(out.starts_with("usage: rd3d12 footprint [options]"), "{out}");
    for opt in [
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
        "--json",
    ] {
        assert!(out.contains(opt), "usage lacks {opt}");
    }
    let o = run(&["help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("footprint"), "{}", stdout(&o));
}
