//! Block-compressed texels: one texel of a BC1–BC7 block decoded as a shader reads it, for the
//! CPU backend's sampler ([`crate::sample::MemoryTexels`]).
//!
//! The rules are the D3D11.3 functional spec's §19.5 "Block Compression Formats", which D3D12
//! keeps:
//! - a block covers 4×4 texels; texel (x, y) of a block is index `4y + x` in its index fields,
//!   which are little-endian bit strings (2 bits per texel for colors, 3 for BC4-style values,
//!   4 for BC2 alpha);
//! - BC1–BC3 colors are two RGB 5:6:5 endpoints promoted to UNORM8 by MSB replication (§19.5.3)
//!   and two derived colors at thirds; BC1 alone switches to a 3-color block with transparent
//!   black when `color_0 <= color_1` (compared as 16-bit integers); BC2 and BC3 always use four
//!   colors;
//! - derived colors are rounded to UNORM8 (the spec allows round-to-nearest division within its
//!   error bound of 1/255), then read as R8G8B8A8_UNORM or _SRGB, so sRGB variants linearize
//!   exactly like uncompressed UNORM8 texels;
//! - BC2 alpha is 4 bits per texel, `a / 15`;
//! - BC4 (and BC3 alpha, BC5 red and green) values are two 8-bit endpoints with six derived
//!   values at sevenths when `red_0 > red_1` (unsigned for UNORM, signed for SNORM), else four
//!   at fifths plus 0.0 and 1.0 (−1.0 and 1.0 for SNORM); they are computed in float, finer
//!   than the UNORM16 precision the spec asks for;
//! - SNORM endpoints map −128 and −127 both to −1.0;
//! - BC7 (§19.5.14, bit-exact as required) follows ARB_texture_compression_bptc's description,
//!   whose text carries the partition and anchor tables: the mode is the lowest set bit of byte
//!   0 (none: an all-zero texel), fields follow LSB-first, endpoints take their P-bit below the
//!   color bits and replicate their top bits, anchors have one index bit fewer, interpolation
//!   is `((64 − w)·e0 + w·e1 + 32) >> 6` with the 2/3/4-bit weight tables, then the rotation
//!   swaps alpha with a color channel; the RGBA8 result reads as UNORM or sRGB;
//! - BC6H (§19.5.13, bit-exact) follows the same text: the mode is 2 or 5 low bits, fields as
//!   its Table.F layouts (kept verbatim below), transformed endpoints are deltas from endpoint
//!   0 wrapped to the endpoint bits, endpoints are unquantized to 16 bits (unsigned) or 15 bits
//!   and sign (signed), interpolated with the BC7 weights, scaled by 31/64 (31/32 signed) into
//!   half-float bits; reserved modes give (0, 0, 0, 1).

use rd3d12_sys as sys;
use rd3d12_sys::DXGI_FORMAT;

/// Bytes of one 4×4 block of a BC1–BC7 format; `None` for other formats.
pub fn block_bytes(format: DXGI_FORMAT) -> Option<usize> {
    use sys::*;
    Some(match format {
        DXGI_FORMAT_BC1_UNORM | DXGI_FORMAT_BC1_UNORM_SRGB | DXGI_FORMAT_BC4_UNORM | DXGI_FORMAT_BC4_SNORM => 8,
        DXGI_FORMAT_BC7_UNORM | DXGI_FORMAT_BC7_UNORM_SRGB | DXGI_FORMAT_BC6H_UF16 | DXGI_FORMAT_BC6H_SF16 => 16,
        DXGI_FORMAT_BC2_UNORM
        | DXGI_FORMAT_BC2_UNORM_SRGB
        | DXGI_FORMAT_BC3_UNORM
        | DXGI_FORMAT_BC3_UNORM_SRGB
        | DXGI_FORMAT_BC5_UNORM
        | DXGI_FORMAT_BC5_SNORM => 16,
        _ => return None,
    })
}

/// An uncompressed format with the same components, number type and at least the filtering
/// precision of a BC1–BC7 format (BC6H: RGBA16 float, whose alpha BC6H lacks) (BC4/BC5 filter at UNORM16/SNORM16 precision, the others at
/// UNORM8): what border colors, comparison references and out-of-range reads follow.
pub fn uncompressed_equivalent(format: DXGI_FORMAT) -> Option<DXGI_FORMAT> {
    use sys::*;
    Some(match format {
        DXGI_FORMAT_BC1_UNORM | DXGI_FORMAT_BC2_UNORM | DXGI_FORMAT_BC3_UNORM | DXGI_FORMAT_BC7_UNORM => {
            DXGI_FORMAT_R8G8B8A8_UNORM
        }
        DXGI_FORMAT_BC1_UNORM_SRGB
        | DXGI_FORMAT_BC2_UNORM_SRGB
        | DXGI_FORMAT_BC3_UNORM_SRGB
        | DXGI_FORMAT_BC7_UNORM_SRGB => DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,
        DXGI_FORMAT_BC4_UNORM => DXGI_FORMAT_R16_UNORM,
        DXGI_FORMAT_BC4_SNORM => DXGI_FORMAT_R16_SNORM,
        DXGI_FORMAT_BC5_UNORM => DXGI_FORMAT_R16G16_UNORM,
        DXGI_FORMAT_BC5_SNORM => DXGI_FORMAT_R16G16_SNORM,
        DXGI_FORMAT_BC6H_UF16 | DXGI_FORMAT_BC6H_SF16 => DXGI_FORMAT_R16G16B16A16_FLOAT,
        _ => return None,
    })
}

/// Texel (`x`, `y`) (each 0..4) of `block`, decoded as a shader reads it: normalized floats,
/// sRGB linearized, missing components (0, 0, 0, 1). `None` for formats [`block_bytes`] does
/// not know or a block too short.
pub fn decode_texel(format: DXGI_FORMAT, block: &[u8], x: u32, y: u32) -> Option<[f32; 4]> {
    use sys::*;
    let block = block.get(..block_bytes(format)?)?;
    let i = ((y & 3) * 4 + (x & 3)) as usize;
    Some(match format {
        DXGI_FORMAT_BC1_UNORM | DXGI_FORMAT_BC1_UNORM_SRGB => rgba8(format, color(block, i, true)),
        DXGI_FORMAT_BC2_UNORM | DXGI_FORMAT_BC2_UNORM_SRGB => {
            let alpha = u64::from_le_bytes(block[..8].try_into().ok()?);
            let a = ((alpha >> (4 * i)) & 0xf) as f32 / 15.0;
            let mut c = rgba8(format, color(&block[8..], i, false));
            c[3] = a;
            c
        }
        DXGI_FORMAT_BC3_UNORM | DXGI_FORMAT_BC3_UNORM_SRGB => {
            let mut c = rgba8(format, color(&block[8..], i, false));
            c[3] = value(&block[..8], i, false);
            c
        }
        DXGI_FORMAT_BC4_UNORM => [value(block, i, false), 0.0, 0.0, 1.0],
        DXGI_FORMAT_BC4_SNORM => [value(block, i, true), 0.0, 0.0, 1.0],
        DXGI_FORMAT_BC5_UNORM => [value(&block[..8], i, false), value(&block[8..], i, false), 0.0, 1.0],
        DXGI_FORMAT_BC5_SNORM => [value(&block[..8], i, true), value(&block[8..], i, true), 0.0, 1.0],
        DXGI_FORMAT_BC7_UNORM | DXGI_FORMAT_BC7_UNORM_SRGB => rgba8(format, bc7_texel(block, i)),
        DXGI_FORMAT_BC6H_UF16 | DXGI_FORMAT_BC6H_SF16 => {
            let [r, g, b] = bc6h_texel(block, i, format == DXGI_FORMAT_BC6H_SF16);
            [r, g, b, 1.0]
        }
        _ => return None,
    })
}

/// RGBA8 bytes read as the UNORM or sRGB 8-bit format matching `format`.
fn rgba8(format: DXGI_FORMAT, c: [u8; 4]) -> [f32; 4] {
    let srgb = matches!(
        format,
        sys::DXGI_FORMAT_BC1_UNORM_SRGB
            | sys::DXGI_FORMAT_BC2_UNORM_SRGB
            | sys::DXGI_FORMAT_BC3_UNORM_SRGB
            | sys::DXGI_FORMAT_BC7_UNORM_SRGB
    );
    let as8 = if srgb { sys::DXGI_FORMAT_R8G8B8A8_UNORM_SRGB } else { sys::DXGI_FORMAT_R8G8B8A8_UNORM };
    rd3d12_core::pack::decode_color(as8, &c).unwrap_or([0.0; 4])
}

/// UNORM promotion by MSB replication (§19.5.3) of a `bits`-wide value to 8 bits.
fn promote(v: u16, bits: u32) -> u16 {
    let mut out = v << (8 - bits);
    let mut shift = bits;
    while shift < 8 {
        out |= out >> shift;
        shift *= 2;
    }
    out & 0xff
}

/// Texel `i` of a BC1-style color block (8 bytes): RGBA8. `three_color` allows BC1's
/// 3-color-plus-transparent-black mode.
fn color(block: &[u8], i: usize, three_color: bool) -> [u8; 4] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let bits = u32::from_le_bytes([block[4], block[5], block[6], block[7]]);
    let rgb = |c: u16| [promote(c >> 11, 5), promote((c >> 5) & 0x3f, 6), promote(c & 0x1f, 5)];
    let (p0, p1) = (rgb(c0), rgb(c1));
    let mix = |w0: u16, w1: u16| -> [u8; 4] {
        let n = w0 + w1;
        let m = |k: usize| ((w0 * p0[k] + w1 * p1[k] + n / 2) / n) as u8;
        [m(0), m(1), m(2), 255]
    };
    let four = !three_color || c0 > c1;
    match (bits >> (2 * i)) & 3 {
        0 => mix(1, 0),
        1 => mix(0, 1),
        2 if four => mix(2, 1),
        2 => mix(1, 1),
        _ if four => mix(1, 2),
        _ => [0, 0, 0, 0],
    }
}

/// Texel `i` of a BC4-style block (8 bytes: two endpoints, 16 3-bit codes), UNORM or SNORM.
fn value(block: &[u8], i: usize, snorm: bool) -> f32 {
    let mut idx = [0u8; 8];
    idx[..6].copy_from_slice(&block[2..8]);
    let code = ((u64::from_le_bytes(idx) >> (3 * i)) & 7) as u32;
    let (r0, r1, eight) = if snorm {
        let (a, b) = (block[0] as i8, block[1] as i8);
        let f = |v: i8| (v as f32 / 127.0).max(-1.0);
        (f(a), f(b), a > b)
    } else {
        let (a, b) = (block[0], block[1]);
        (a as f32 / 255.0, b as f32 / 255.0, a > b)
    };
    match (code, eight) {
        (0, _) => r0,
        (1, _) => r1,
        (c, true) => ((8 - c) as f32 * r0 + (c - 1) as f32 * r1) / 7.0,
        (6, false) => {
            if snorm {
                -1.0
            } else {
                0.0
            }
        }
        (7, false) => 1.0,
        (c, false) => ((6 - c) as f32 * r0 + (c - 1) as f32 * r1) / 5.0,
    }
}

// ---- BC7 (BPTC UNORM) ---------------------------------------------------------------------------
//
// D3D11.3 §19.5.14 and ARB_texture_compression_bptc, whose text gives the partition and anchor
// tables below (the D3D spec prints them as images). Decoding is bit-exact, as both require.

/// Reads a block's bits from the least significant bit of byte 0 upward.
struct Bits<'a> {
    block: &'a [u8],
    at: usize,
}

impl Bits<'_> {
    fn read(&mut self, n: u32) -> u32 {
        let mut v = 0;
        for k in 0..n {
            let i = self.at + k as usize;
            let bit = self.block.get(i / 8).map_or(0, |b| (b >> (i % 8)) & 1);
            v |= u32::from(bit) << k;
        }
        self.at += n as usize;
        v
    }
}

/// A BC7 mode (Table.M): subsets, partition / rotation / index-selection bits, color and alpha
/// bits, per-endpoint and shared P-bits, primary and secondary index bits.
struct Bc7Mode {
    ns: usize,
    pb: u32,
    rb: u32,
    isb: u32,
    cb: u32,
    ab: u32,
    epb: bool,
    spb: bool,
    ib: u32,
    ib2: u32,
}

const BC7_MODES: [Bc7Mode; 8] = [
    Bc7Mode { ns: 3, pb: 4, rb: 0, isb: 0, cb: 4, ab: 0, epb: true, spb: false, ib: 3, ib2: 0 },
    Bc7Mode { ns: 2, pb: 6, rb: 0, isb: 0, cb: 6, ab: 0, epb: false, spb: true, ib: 3, ib2: 0 },
    Bc7Mode { ns: 3, pb: 6, rb: 0, isb: 0, cb: 5, ab: 0, epb: false, spb: false, ib: 2, ib2: 0 },
    Bc7Mode { ns: 2, pb: 6, rb: 0, isb: 0, cb: 7, ab: 0, epb: true, spb: false, ib: 2, ib2: 0 },
    Bc7Mode { ns: 1, pb: 0, rb: 2, isb: 1, cb: 5, ab: 6, epb: false, spb: false, ib: 2, ib2: 3 },
    Bc7Mode { ns: 1, pb: 0, rb: 2, isb: 0, cb: 7, ab: 8, epb: false, spb: false, ib: 2, ib2: 2 },
    Bc7Mode { ns: 1, pb: 0, rb: 0, isb: 0, cb: 7, ab: 7, epb: true, spb: false, ib: 4, ib2: 0 },
    Bc7Mode { ns: 2, pb: 6, rb: 0, isb: 0, cb: 5, ab: 5, epb: true, spb: false, ib: 2, ib2: 0 },
];

/// Table.P2: the subset of each texel of the 64 two-subset partitions, one hex digit per texel
/// (texel 0 first).
const PARTITIONS_2: [&str; 64] = [
    "0011001100110011",
    "0001000100010001",
    "0111011101110111",
    "0001001100110111",
    "0000000100010011",
    "0011011101111111",
    "0001001101111111",
    "0000000100110111",
    "0000000000010011",
    "0011011111111111",
    "0000000101111111",
    "0000000000010111",
    "0001011111111111",
    "0000000011111111",
    "0000111111111111",
    "0000000000001111",
    "0000100011101111",
    "0111000100000000",
    "0000000010001110",
    "0111001100010000",
    "0011000100000000",
    "0000100011001110",
    "0000000010001100",
    "0111001100110001",
    "0011000100010000",
    "0000100010001100",
    "0110011001100110",
    "0011011001101100",
    "0001011111101000",
    "0000111111110000",
    "0111000110001110",
    "0011100110011100",
    "0101010101010101",
    "0000111100001111",
    "0101101001011010",
    "0011001111001100",
    "0011110000111100",
    "0101010110101010",
    "0110100101101001",
    "0101101010100101",
    "0111001111001110",
    "0001001111001000",
    "0011001001001100",
    "0011101111011100",
    "0110100110010110",
    "0011110011000011",
    "0110011010011001",
    "0000011001100000",
    "0100111001000000",
    "0010011100100000",
    "0000001001110010",
    "0000010011100100",
    "0110110010010011",
    "0011011011001001",
    "0110001110011100",
    "0011100111000110",
    "0110110011001001",
    "0110001100111001",
    "0111111010000001",
    "0001100011100111",
    "0000111100110011",
    "0011001111110000",
    "0010001011101110",
    "0100010001110111",
];

/// Table.P3: the subset of each texel of the 64 three-subset partitions.
const PARTITIONS_3: [&str; 64] = [
    "0011001102212222",
    "0001001122112221",
    "0000200122112211",
    "0222002200110111",
    "0000000011221122",
    "0011001100220022",
    "0022002211111111",
    "0011001122112211",
    "0000000011112222",
    "0000111111112222",
    "0000111122222222",
    "0012001200120012",
    "0112011201120112",
    "0122012201220122",
    "0011011211221222",
    "0011200122002220",
    "0001001101121122",
    "0111001120012200",
    "0000112211221122",
    "0022002200221111",
    "0111011102220222",
    "0001000122212221",
    "0000001101220122",
    "0000110022102210",
    "0122012200110000",
    "0012001211222222",
    "0110122112210110",
    "0000011012211221",
    "0022110211020022",
    "0110011020022222",
    "0011012201220011",
    "0000200022112221",
    "0000000211221222",
    "0222002200120011",
    "0011001200220222",
    "0120012001200120",
    "0000111122220000",
    "0120120120120120",
    "0120201212010120",
    "0011220011220011",
    "0011112222000011",
    "0101010122222222",
    "0000000021212121",
    "0022112200221122",
    "0022001100220011",
    "0220122102201221",
    "0101222222220101",
    "0000212121212121",
    "0101010101012222",
    "0222011102220111",
    "0002111200021112",
    "0000211221122112",
    "0222011101110222",
    "0002111211120002",
    "0110011001102222",
    "0000000021122112",
    "0110011022222222",
    "0022001100110022",
    "0022112211220022",
    "0000000000002112",
    "0002000100020001",
    "0222122202221222",
    "0101222222222222",
    "0111201122012220",
];

/// Table.A2: the anchor texel of subset 1 of each two-subset partition.
const ANCHOR_2: [u8; 64] = [
    15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, //
    15, 2, 8, 2, 2, 8, 8, 15, 2, 8, 2, 2, 8, 8, 2, 2, //
    15, 15, 6, 8, 2, 8, 15, 15, 2, 8, 2, 2, 2, 15, 15, 6, //
    6, 2, 6, 8, 15, 15, 2, 2, 15, 15, 15, 15, 15, 2, 2, 15,
];

/// Table.A3a: the anchor texel of subset 1 of each three-subset partition.
const ANCHOR_3A: [u8; 64] = [
    3, 3, 15, 15, 8, 3, 15, 15, 8, 8, 6, 6, 6, 5, 3, 3, //
    3, 3, 8, 15, 3, 3, 6, 10, 5, 8, 8, 6, 8, 5, 15, 15, //
    8, 15, 3, 5, 6, 10, 8, 15, 15, 3, 15, 5, 15, 15, 15, 15, //
    3, 15, 5, 5, 5, 8, 5, 10, 5, 10, 8, 13, 15, 12, 3, 3,
];

/// Table.A3b: the anchor texel of subset 2 of each three-subset partition.
const ANCHOR_3B: [u8; 64] = [
    15, 8, 8, 3, 15, 15, 3, 8, 15, 15, 15, 15, 15, 15, 15, 8, //
    15, 8, 15, 3, 15, 8, 15, 8, 3, 15, 6, 10, 15, 15, 10, 8, //
    15, 3, 15, 10, 10, 8, 9, 10, 6, 15, 8, 15, 3, 6, 6, 8, //
    15, 3, 15, 15, 15, 15, 15, 15, 15, 15, 15, 15, 3, 15, 15, 8,
];

/// The 6-bit interpolation weights of 2-, 3- and 4-bit indices.
fn weight(bits: u32, index: u32) -> u32 {
    const W2: [u32; 4] = [0, 21, 43, 64];
    const W3: [u32; 8] = [0, 9, 18, 27, 37, 46, 55, 64];
    const W4: [u32; 16] = [0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64];
    match bits {
        2 => W2[index as usize & 3],
        3 => W3[index as usize & 7],
        _ => W4[index as usize & 15],
    }
}

/// `(64 − w)·e0 + w·e1`, rounded, over 64 (the BPTC interpolation).
fn interpolate(e0: u32, e1: u32, w: u32) -> u32 {
    ((64 - w) * e0 + w * e1 + 32) >> 6
}

/// The subset texel `i` belongs to, and whether it is its subset's anchor (one index bit fewer).
fn subset_of(ns: usize, partition: usize, i: usize) -> (usize, bool) {
    let subset = match ns {
        2 => (PARTITIONS_2[partition].as_bytes()[i] - b'0') as usize,
        3 => (PARTITIONS_3[partition].as_bytes()[i] - b'0') as usize,
        _ => 0,
    };
    let anchor = match (ns, subset) {
        (_, 0) => 0,
        (2, _) => ANCHOR_2[partition],
        (_, 1) => ANCHOR_3A[partition],
        _ => ANCHOR_3B[partition],
    };
    (subset, i == anchor as usize)
}

/// Texel `t` of a BC7 block as RGBA8; a block whose first byte is 0 (no mode) is all zero.
fn bc7_texel(block: &[u8], t: usize) -> [u8; 4] {
    let Some(mode) = (0..8).find(|m| block[0] & (1 << m) != 0) else { return [0; 4] };
    let m = &BC7_MODES[mode];
    let mut bits = Bits { block, at: mode + 1 };
    let partition = bits.read(m.pb) as usize;
    let rotation = bits.read(m.rb);
    let selector = bits.read(m.isb);
    // Endpoints as [subset][endpoint][channel], color bits first, then alpha, then P-bits.
    let mut ep = [[[0u32; 4]; 2]; 3];
    for c in 0..3 {
        for e in ep.iter_mut().take(m.ns) {
            for end in e.iter_mut() {
                end[c] = bits.read(m.cb);
            }
        }
    }
    for e in ep.iter_mut().take(m.ns) {
        for end in e.iter_mut() {
            end[3] = if m.ab > 0 { bits.read(m.ab) } else { 255 };
        }
    }
    let mut pbits = [[0u32; 2]; 3];
    if m.epb {
        for p in pbits.iter_mut().take(m.ns) {
            p[0] = bits.read(1);
            p[1] = bits.read(1);
        }
    } else if m.spb {
        for p in pbits.iter_mut().take(m.ns) {
            let b = bits.read(1);
            *p = [b, b];
        }
    }
    // Each channel's bits (plus a P-bit) become the top bits of a byte, replicated downward.
    let has_p = m.epb || m.spb;
    for (s, e) in ep.iter_mut().enumerate().take(m.ns) {
        for (k, end) in e.iter_mut().enumerate() {
            for (c, v) in end.iter_mut().enumerate() {
                let n = if c < 3 { m.cb } else { m.ab };
                if n == 0 {
                    continue;
                }
                let (value, n) = if has_p { (*v << 1 | pbits[s][k], n + 1) } else { (*v, n) };
                *v = u32::from(promote(value as u16, n));
            }
        }
    }
    // Primary indices for all 16 texels, then the secondary ones.
    let read_indices = |bits: &mut Bits<'_>, ib: u32, partitioned: bool| -> [u32; 16] {
        std::array::from_fn(|i| {
            let anchor = if partitioned { subset_of(m.ns, partition, i).1 } else { i == 0 };
            bits.read(if anchor { ib - 1 } else { ib })
        })
    };
    let primary = read_indices(&mut bits, m.ib, true);
    let secondary = if m.ib2 > 0 { read_indices(&mut bits, m.ib2, false) } else { [0; 16] };
    let (subset, _) = subset_of(m.ns, partition, t);
    let e = ep[subset];
    let (color, alpha) = match (m.ib2 > 0, selector) {
        (false, _) => ((primary[t], m.ib), (primary[t], m.ib)),
        (true, 0) => ((primary[t], m.ib), (secondary[t], m.ib2)),
        (true, _) => ((secondary[t], m.ib2), (primary[t], m.ib)),
    };
    let mut out = [0u8; 4];
    for (c, o) in out.iter_mut().enumerate() {
        let (index, ib) = if c < 3 { color } else { alpha };
        *o = interpolate(e[0][c], e[1][c], weight(ib, index)) as u8;
    }
    match rotation {
        1 => out.swap(3, 0),
        2 => out.swap(3, 1),
        3 => out.swap(3, 2),
        _ => {}
    }
    out
}

// ---- BC6H (BPTC float) ------------------------------------------------------------------------
//
// D3D11.3 §19.5.13 and ARB_texture_compression_bptc's Table.MF / Table.F, whose field layouts are
// kept below as the spec writes them and read by `bc6h_fields`.

/// A BC6H mode (Table.MF): mode number, transformed endpoints, partition bits, endpoint bits,
/// delta bits per channel, and the block layout (Table.F).
struct Bc6Mode {
    number: u32,
    transformed: bool,
    pb: u32,
    epb: u32,
    delta: [u32; 3],
    layout: &'static str,
}

const BC6_MODES: [Bc6Mode; 14] = [
    Bc6Mode {
        number: 0,
        transformed: true,
        pb: 5,
        epb: 10,
        delta: [5, 5, 5],
        layout: "m[1:0],g2[4],b2[4],b3[4],r0[9:0],g0[9:0],b0[9:0],r1[4:0],g3[4],g2[3:0],\
                 g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]",
    },
    Bc6Mode {
        number: 1,
        transformed: true,
        pb: 5,
        epb: 7,
        delta: [6, 6, 6],
        layout: "m[1:0],g2[5],g3[4],g3[5],r0[6:0],b3[0],b3[1],b2[4],g0[6:0],b2[5],b3[2],\
                 g2[4],b0[6:0],b3[3],b3[5],b3[4],r1[5:0],g2[3:0],g1[5:0],g3[3:0],b1[5:0],\
                 b2[3:0],r2[5:0],r3[5:0]",
    },
    Bc6Mode {
        number: 2,
        transformed: true,
        pb: 5,
        epb: 11,
        delta: [5, 4, 4],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[4:0],r0[10],g2[3:0],g1[3:0],g0[10],\
                 b3[0],g3[3:0],b1[3:0],b0[10],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]",
    },
    Bc6Mode {
        number: 6,
        transformed: true,
        pb: 5,
        epb: 11,
        delta: [4, 5, 4],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],g3[4],g2[3:0],g1[4:0],\
                 g0[10],g3[3:0],b1[3:0],b0[10],b3[1],b2[3:0],r2[3:0],b3[0],b3[2],r3[3:0],\
                 g2[4],b3[3]",
    },
    Bc6Mode {
        number: 10,
        transformed: true,
        pb: 5,
        epb: 11,
        delta: [4, 4, 5],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10],b2[4],g2[3:0],g1[3:0],\
                 g0[10],b3[0],g3[3:0],b1[4:0],b0[10],b2[3:0],r2[3:0],b3[1],b3[2],r3[3:0],\
                 b3[4],b3[3]",
    },
    Bc6Mode {
        number: 14,
        transformed: true,
        pb: 5,
        epb: 9,
        delta: [5, 5, 5],
        layout: "m[4:0],r0[8:0],b2[4],g0[8:0],g2[4],b0[8:0],b3[4],r1[4:0],g3[4],g2[3:0],\
                 g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],b3[2],r3[4:0],b3[3]",
    },
    Bc6Mode {
        number: 18,
        transformed: true,
        pb: 5,
        epb: 8,
        delta: [6, 5, 5],
        layout: "m[4:0],r0[7:0],g3[4],b2[4],g0[7:0],b3[2],g2[4],b0[7:0],b3[3],b3[4],\
                 r1[5:0],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[5:0],\
                 r3[5:0]",
    },
    Bc6Mode {
        number: 22,
        transformed: true,
        pb: 5,
        epb: 8,
        delta: [5, 6, 5],
        layout: "m[4:0],r0[7:0],b3[0],b2[4],g0[7:0],g2[5],g2[4],b0[7:0],g3[5],b3[4],\
                 r1[4:0],g3[4],g2[3:0],g1[5:0],g3[3:0],b1[4:0],b3[1],b2[3:0],r2[4:0],\
                 b3[2],r3[4:0],b3[3]",
    },
    Bc6Mode {
        number: 26,
        transformed: true,
        pb: 5,
        epb: 8,
        delta: [5, 5, 6],
        layout: "m[4:0],r0[7:0],b3[1],b2[4],g0[7:0],b2[5],g2[4],b0[7:0],b3[5],b3[4],\
                 r1[4:0],g3[4],g2[3:0],g1[4:0],b3[0],g3[3:0],b1[5:0],b2[3:0],r2[4:0],\
                 b3[2],r3[4:0],b3[3]",
    },
    Bc6Mode {
        number: 30,
        transformed: false,
        pb: 5,
        epb: 6,
        delta: [6, 6, 6],
        layout: "m[4:0],r0[5:0],g3[4],b3[0],b3[1],b2[4],g0[5:0],g2[5],b2[5],b3[2],\
                 g2[4],b0[5:0],g3[5],b3[3],b3[5],b3[4],r1[5:0],g2[3:0],g1[5:0],g3[3:0],\
                 b1[5:0],b2[3:0],r2[5:0],r3[5:0]",
    },
    Bc6Mode {
        number: 3,
        transformed: false,
        pb: 0,
        epb: 10,
        delta: [10, 10, 10],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[9:0],g1[9:0],b1[9:0]",
    },
    Bc6Mode {
        number: 7,
        transformed: true,
        pb: 0,
        epb: 11,
        delta: [9, 9, 9],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[8:0],r0[10],g1[8:0],g0[10],b1[8:0],\
                 b0[10]",
    },
    Bc6Mode {
        number: 11,
        transformed: true,
        pb: 0,
        epb: 12,
        delta: [8, 8, 8],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[7:0],r0[10:11],g1[7:0],g0[10:11],\
                 b1[7:0],b0[10:11]",
    },
    Bc6Mode {
        number: 15,
        transformed: true,
        pb: 0,
        epb: 16,
        delta: [4, 4, 4],
        layout: "m[4:0],r0[9:0],g0[9:0],b0[9:0],r1[3:0],r0[10:15],g1[3:0],g0[10:15],\
                 b1[3:0],b0[10:15]",
    },
];

/// One field of a layout: variable (channel r/g/b = 0/1/2 and endpoint 0–3, or the mode as
/// channel 3), and the bit range `v[a:b]`: bits go to `b` first, then step toward `a` (so
/// `a < b` stores them reversed, as Table.F says).
fn bc6h_fields(layout: &str) -> impl Iterator<Item = (usize, usize, u32, u32)> + '_ {
    layout.split(',').filter_map(|f| {
        let f = f.trim();
        let (name, range) = f.split_once('[')?;
        let range = range.strip_suffix(']')?;
        let (a, b) = match range.split_once(':') {
            Some((a, b)) => (a.parse().ok()?, b.parse().ok()?),
            None => {
                let v = range.parse().ok()?;
                (v, v)
            }
        };
        let mut chars = name.chars();
        let channel = match chars.next()? {
            'r' => 0,
            'g' => 1,
            'b' => 2,
            _ => 3,
        };
        let endpoint = chars.next().and_then(|c| c.to_digit(10)).unwrap_or(0) as usize;
        Some((channel, endpoint, a, b))
    })
}

fn sign_extend(v: i32, bits: u32) -> i32 {
    let shift = 32 - bits.min(32);
    (v << shift) >> shift
}

/// Endpoint unquantization (ARB_texture_compression_bptc): the endpoint's `epb` bits spread
/// over the 16-bit (unsigned) or 15-bit-plus-sign (signed) interpolation range.
fn bc6h_unquantize(x: i32, epb: u32, signed: bool) -> i32 {
    if !signed {
        return if epb >= 15 {
            x
        } else if x == 0 {
            0
        } else if x == (1 << epb) - 1 {
            0xFFFF
        } else {
            ((x << 15) + 0x4000) >> (epb - 1)
        };
    }
    if epb >= 16 {
        return x;
    }
    let (negative, m) = (x < 0, x.abs());
    let unq = if m == 0 {
        0
    } else if m >= (1 << (epb - 1)) - 1 {
        0x7FFF
    } else {
        ((m << 15) + 0x4000) >> (epb - 1)
    };
    if negative {
        -unq
    } else {
        unq
    }
}

/// An IEEE half's bits as f32 (BC6H never produces INF or NaN, but the conversion is exact for
/// every half).
fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let mant = f32::from(h & 0x3ff);
    sign * match exp {
        0 => mant * 2f32.powi(-24),
        31 if mant == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + mant / 1024.0) * 2f32.powi(e - 15),
    }
}

/// Texel `t` of a BC6H block as RGB floats; reserved modes give (0, 0, 0).
fn bc6h_texel(block: &[u8], t: usize, signed: bool) -> [f32; 3] {
    let low2 = u32::from(block[0] & 3);
    let number = if low2 < 2 { low2 } else { u32::from(block[0] & 0x1f) };
    let Some(m) = BC6_MODES.iter().find(|m| m.number == number) else { return [0.0; 3] };
    let mut bits = Bits { block, at: 0 };
    let mut e = [[0i32; 4]; 3];
    for (channel, endpoint, a, b) in bc6h_fields(m.layout) {
        let count = a.abs_diff(b) + 1;
        let value = bits.read(count);
        if channel == 3 {
            continue;
        }
        for k in 0..count {
            let bit = if a >= b { b + k } else { b - k };
            e[channel][endpoint] |= (((value >> k) & 1) << bit) as i32;
        }
    }
    let partition = bits.read(m.pb) as usize;
    let two = m.pb > 0;
    let ib = if two { 3 } else { 4 };
    let indices: [u32; 16] = std::array::from_fn(|i| {
        let anchor = i == 0 || (two && i == ANCHOR_2[partition] as usize);
        bits.read(if anchor { ib - 1 } else { ib })
    });
    let endpoints = if two { 4 } else { 2 };
    let mask = (1i32 << m.epb) - 1;
    for (c, ch) in e.iter_mut().enumerate() {
        if signed {
            ch[0] = sign_extend(ch[0], m.epb);
        }
        for v in ch.iter_mut().take(endpoints).skip(1) {
            if signed || m.transformed {
                *v = sign_extend(*v, m.delta[c]);
            }
        }
        if m.transformed {
            let base = ch[0];
            for v in ch.iter_mut().take(endpoints).skip(1) {
                *v = (base + *v) & mask;
                if signed {
                    *v = sign_extend(*v, m.epb);
                }
            }
        }
    }
    let subset = if two { subset_of(2, partition, t).0 } else { 0 };
    let w = weight(ib, indices[t]) as i32;
    std::array::from_fn(|c| {
        let a = bc6h_unquantize(e[c][2 * subset], m.epb, signed);
        let b = bc6h_unquantize(e[c][2 * subset + 1], m.epb, signed);
        let x = ((64 - w) * a + w * b + 32) >> 6;
        let h = if !signed {
            ((x * 31) >> 6) as u16
        } else if x < 0 {
            ((((-x) * 31) >> 5) as u16) | 0x8000
        } else {
            ((x * 31) >> 5) as u16
        };
        half_to_f32(h)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use sys::*;

    /// A BC1-style color block from endpoints and 16 2-bit codes (texel 0 first).
    fn color_block(c0: u16, c1: u16, codes: [u32; 16]) -> [u8; 8] {
        let bits = codes.iter().enumerate().fold(0u32, |acc, (i, c)| acc | c << (2 * i));
        let mut b = [0u8; 8];
        b[..2].copy_from_slice(&c0.to_le_bytes());
        b[2..4].copy_from_slice(&c1.to_le_bytes());
        b[4..].copy_from_slice(&bits.to_le_bytes());
        b
    }

    /// A BC4 block from endpoints and 16 3-bit codes.
    fn value_block(r0: u8, r1: u8, codes: [u64; 16]) -> [u8; 8] {
        let bits = codes.iter().enumerate().fold(0u64, |acc, (i, c)| acc | c << (3 * i));
        let mut b = [0u8; 8];
        b[0] = r0;
        b[1] = r1;
        b[2..].copy_from_slice(&bits.to_le_bytes()[..6]);
        b
    }

    fn codes<const N: usize>(first: [u64; N]) -> [u64; 16] {
        std::array::from_fn(|i| if i < N { first[i] } else { 0 })
    }

    #[test]
    fn endpoints_promote_to_unorm8_by_msb_replication() {
        assert_eq!(promote(31, 5), 255);
        assert_eq!(promote(16, 5), 132);
        assert_eq!(promote(1, 5), 8);
        assert_eq!(promote(63, 6), 255);
        assert_eq!(promote(32, 6), 130);
        assert_eq!(promote(0, 6), 0);
    }

    #[test]
    fn bc1_four_color_block_interpolates_at_thirds() {
        // Red (0xF800) > blue (0x001F): four colors.
        let b = color_block(0xF800, 0x001F, std::array::from_fn(|i| i as u32 % 4));
        let t = |x| decode_texel(DXGI_FORMAT_BC1_UNORM, &b, x, 0).unwrap();
        assert_eq!(t(0), [1.0, 0.0, 0.0, 1.0]);
        assert_eq!(t(1), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(t(2), [170.0 / 255.0, 0.0, 85.0 / 255.0, 1.0]);
        assert_eq!(t(3), [85.0 / 255.0, 0.0, 170.0 / 255.0, 1.0]);
    }

    #[test]
    fn bc1_three_color_block_has_a_midpoint_and_transparent_black() {
        let b = color_block(0x001F, 0xF800, std::array::from_fn(|i| i as u32 % 4));
        let t = |x| decode_texel(DXGI_FORMAT_BC1_UNORM, &b, x, 0).unwrap();
        assert_eq!(t(2), [128.0 / 255.0, 0.0, 128.0 / 255.0, 1.0]);
        assert_eq!(t(3), [0.0; 4]);
        // Equal endpoints are a 3-color block too.
        let e = color_block(0xFFFF, 0xFFFF, [3; 16]);
        assert_eq!(decode_texel(DXGI_FORMAT_BC1_UNORM, &e, 2, 2), Some([0.0; 4]));
    }

    #[test]
    fn texels_index_row_major_within_the_block() {
        let mut c = [0u32; 16];
        c[4 * 3 + 2] = 1; // texel (2, 3)
        let b = color_block(0xF800, 0x001F, c);
        assert_eq!(decode_texel(DXGI_FORMAT_BC1_UNORM, &b, 2, 3).unwrap()[2], 1.0);
        assert_eq!(decode_texel(DXGI_FORMAT_BC1_UNORM, &b, 3, 2).unwrap()[0], 1.0);
    }

    #[test]
    fn bc1_srgb_linearizes_like_uncompressed_srgb() {
        let b = color_block(0x8410, 0x8410, [0; 16]); // (132, 130, 132)
        let got = decode_texel(DXGI_FORMAT_BC1_UNORM_SRGB, &b, 0, 0).unwrap();
        let want = rd3d12_core::pack::decode_color(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, &[132, 130, 132, 255]).unwrap();
        assert_eq!(got, want);
    }

    #[test]
    fn bc2_has_explicit_4_bit_alpha_and_always_four_colors() {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&0x3Fu64.to_le_bytes()); // texel 0: 15, texel 1: 3
        b[8..].copy_from_slice(&color_block(0x001F, 0xF800, [3; 16]));
        let t = |x| decode_texel(DXGI_FORMAT_BC2_UNORM, &b, x, 0).unwrap();
        // c0 < c1 would be BC1's 3-color mode; BC2 still interpolates at thirds.
        assert_eq!(t(0), [170.0 / 255.0, 0.0, 85.0 / 255.0, 1.0]);
        assert_eq!(t(1)[3], 0.2);
        assert_eq!(t(2)[3], 0.0);
    }

    #[test]
    fn bc3_alpha_decodes_as_bc4() {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&value_block(255, 0, codes([0, 1, 2, 7])));
        b[8..].copy_from_slice(&color_block(0x07E0, 0x07E0, [0; 16]));
        let a = |x| decode_texel(DXGI_FORMAT_BC3_UNORM, &b, x, 0).unwrap()[3];
        assert_eq!([a(0), a(1), a(2), a(3)], [1.0, 0.0, 6.0 / 7.0, 1.0 / 7.0]);
        assert_eq!(decode_texel(DXGI_FORMAT_BC3_UNORM, &b, 0, 0).unwrap()[1], 1.0);
    }

    #[test]
    fn bc4_unorm_eight_and_six_value_blocks() {
        let b = value_block(255, 0, codes([2, 3, 4, 5, 6, 7]));
        // Texel i is (i % 4, i / 4).
        let r = |b: &[u8], i: u32| decode_texel(DXGI_FORMAT_BC4_UNORM, b, i % 4, i / 4).unwrap()[0];
        assert_eq!([0, 1, 2, 5].map(|i| r(&b, i)), [6.0 / 7.0, 5.0 / 7.0, 4.0 / 7.0, 1.0 / 7.0]);
        let s = value_block(0, 255, codes([2, 3, 4, 5, 6, 7]));
        assert_eq!([0, 1, 2, 3, 4, 5].map(|x| r(&s, x)), [0.2, 0.4, 0.6, 0.8, 0.0, 1.0]);
        assert_eq!(decode_texel(DXGI_FORMAT_BC4_UNORM, &s, 0, 0).unwrap()[1..], [0.0, 0.0, 1.0]);
    }

    #[test]
    fn bc4_snorm_compares_signed_and_maps_minus_128_to_minus_1() {
        let b = value_block(127, 0x80, codes([0, 1, 2]));
        let r = |b: &[u8], x| decode_texel(DXGI_FORMAT_BC4_SNORM, b, x, 0).unwrap()[0];
        assert_eq!([0, 1, 2].map(|x| r(&b, x)), [1.0, -1.0, 5.0 / 7.0]);
        // -1 < 1 as signed: six values, code 6 is -1.0.
        let s = value_block(0xFF, 1, codes([6, 7]));
        assert_eq!([0, 1].map(|x| r(&s, x)), [-1.0, 1.0]);
    }

    #[test]
    fn bc5_decodes_red_and_green_independently() {
        let mut b = [0u8; 16];
        b[..8].copy_from_slice(&value_block(255, 0, [1; 16]));
        b[8..].copy_from_slice(&value_block(255, 0, [0; 16]));
        assert_eq!(decode_texel(DXGI_FORMAT_BC5_UNORM, &b, 1, 1), Some([0.0, 1.0, 0.0, 1.0]));
    }

    /// Writes fields LSB-first into a 16-byte block, as BPTC reads them.
    #[derive(Default)]
    struct Writer {
        block: [u8; 16],
        at: usize,
    }

    impl Writer {
        fn put(&mut self, v: u32, n: u32) -> &mut Self {
            for k in 0..n as usize {
                if v >> k & 1 == 1 {
                    self.block[(self.at + k) / 8] |= 1 << ((self.at + k) % 8);
                }
            }
            self.at += n as usize;
            self
        }
    }

    fn bc7(b: &[u8; 16], i: u32) -> [u8; 4] {
        bc7_texel(b, i as usize)
    }

    #[test]
    fn bc7_partition_tables_put_texel_0_and_each_anchor_in_their_subsets() {
        for p in 0..64 {
            assert_eq!(subset_of(2, p, 0), (0, true));
            assert_eq!(subset_of(2, p, ANCHOR_2[p] as usize), (1, true), "P2 {p}");
            assert_eq!(subset_of(3, p, 0), (0, true));
            assert_eq!(subset_of(3, p, ANCHOR_3A[p] as usize), (1, true), "P3 {p}");
            assert_eq!(subset_of(3, p, ANCHOR_3B[p] as usize), (2, true), "P3 {p}");
        }
    }

    #[test]
    fn bc7_mode_6_interpolates_rgba_with_p_bits_and_4_bit_indices() {
        // Mode 6: bit 6 set; R0 R1 G0 G1 B0 B1 A0 A1 (7 bits each), P0 P1, then indices (texel
        // 0 has 3 bits).
        let mut w = Writer::default();
        w.put(1 << 6, 7);
        for (e0, e1) in [(127, 0), (0, 127), (64, 64), (127, 127)] {
            w.put(e0, 7).put(e1, 7);
        }
        w.put(1, 1).put(0, 1); // endpoint 0: P = 1, endpoint 1: P = 0
        w.put(0, 3).put(15, 4).put(8, 4);
        let b = w.block;
        // Endpoint 0 = (255, 1, 129, 255) after the P-bit; endpoint 1 = (0, 254, 128, 254).
        assert_eq!(bc7(&b, 0), [255, 1, 129, 255]);
        assert_eq!(bc7(&b, 1), [0, 254, 128, 254]);
        // Index 8 weighs 34/64: (30·255 + 34·0 + 32) >> 6 = 120.
        assert_eq!(bc7(&b, 2), [120, 135, 128, 254]);
    }

    #[test]
    fn bc7_mode_4_uses_separate_alpha_indices_selector_and_rotation() {
        // Mode 4: bit 4; rotation (2 bits), index selector (1), RGB 5 bits ×2 each, A 6 bits ×2,
        // 2-bit indices (texel 0: 1 bit), then 3-bit indices (texel 0: 2 bits).
        let block = |rotation: u32, selector: u32| {
            let mut w = Writer::default();
            w.put(1 << 4, 5).put(rotation, 2).put(selector, 1);
            for (e0, e1) in [(31, 0), (0, 0), (0, 0)] {
                w.put(e0, 5).put(e1, 5);
            }
            w.put(0, 6).put(63, 6);
            w.put(0, 1);
            for _ in 1..16 {
                w.put(1, 2); // primary index 1 of 0..3
            }
            w.put(0, 2);
            for _ in 1..16 {
                w.put(7, 3); // secondary index 7 of 0..7
            }
            w.block
        };
        // Selector 0: color from the 2-bit index (21/64), alpha from the 3-bit one (64/64).
        let r = ((64 - 21) * 255 + 32) >> 6;
        assert_eq!(bc7(&block(0, 0), 5), [r as u8, 0, 0, 255]);
        // Selector 1: color from the 3-bit index (all the way to R1 = 0), alpha from the 2-bit.
        let a = (21 * 255 + 32) >> 6;
        assert_eq!(bc7(&block(0, 1), 5), [0, 0, 0, a as u8]);
        // Rotation 1 swaps alpha and red after decoding.
        assert_eq!(bc7(&block(1, 0), 5), [255, 0, 0, r as u8]);
        assert_eq!(bc7(&block(0, 0), 0), [255, 0, 0, 0], "texel 0: both indices 0");
    }

    #[test]
    fn bc7_mode_1_reads_the_second_subsets_endpoints_and_anchor() {
        // Mode 1: bit 1; partition (6 bits) 13 = rows 0-1 subset 0, rows 2-3 subset 1 (anchor
        // 15); RGB 6 bits per endpoint (subset 0 e0, e1, subset 1 e0, e1), shared P per subset,
        // 3-bit indices with 2 bits at texels 0 and 15.
        let mut w = Writer::default();
        w.put(1 << 1, 2).put(13, 6);
        for (a, b, c, d) in [(63, 0, 0, 0), (0, 0, 63, 0), (0, 0, 0, 63)] {
            w.put(a, 6).put(b, 6).put(c, 6).put(d, 6);
        }
        w.put(1, 1).put(1, 1);
        for i in 0..16 {
            let index = match i {
                0 => 0,
                15 => 3,
                _ => 7,
            };
            w.put(index, if i == 0 || i == 15 { 2 } else { 3 });
        }
        let b = w.block;
        assert_eq!(subset_of(2, 13, 7), (0, false));
        assert_eq!(subset_of(2, 13, 8), (1, false));
        // With the shared P-bit 1, a 6-bit 0 is 7-bit 1, which replicates to 8-bit 2.
        // Subset 0 runs from (255, 2, 2) to (2, 2, 2); index 7 is endpoint 1.
        assert_eq!(bc7(&b, 5), [2, 2, 2, 255]);
        // Subset 1 runs from (2, 255, 2) to (2, 2, 255).
        assert_eq!(bc7(&b, 9), [2, 2, 255, 255]);
        // Its anchor (texel 15) has index 3 of 0..7: weight 27.
        let mix = |a: u32, b: u32| ((64 - 27) * a + 27 * b + 32) >> 6;
        assert_eq!(bc7(&b, 15), [mix(2, 2) as u8, mix(255, 2) as u8, mix(2, 255) as u8, 255]);
        assert_eq!(bc7(&b, 15), [2, 148, 109, 255]);
        assert_eq!(bc7(&b, 0), [255, 2, 2, 255], "texel 0: index 0 of subset 0");
    }

    #[test]
    fn bc7_block_without_a_mode_is_all_zero_and_srgb_linearizes() {
        assert_eq!(decode_texel(DXGI_FORMAT_BC7_UNORM, &[0; 16], 1, 1), Some([0.0; 4]));
        let mut w = Writer::default();
        w.put(1 << 6, 7);
        for e in [64, 64, 32, 32, 16, 16, 127, 127] {
            w.put(e, 7);
        }
        let b = w.block;
        let got = decode_texel(DXGI_FORMAT_BC7_UNORM_SRGB, &b, 0, 0).unwrap();
        let want = rd3d12_core::pack::decode_color(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, &bc7(&b, 0)).unwrap();
        assert_eq!(got, want);
        assert_eq!(bc7(&b, 0), [128, 64, 32, 254]);
    }

    /// A BC6H block of mode `number` written through the spec's layout: endpoint values
    /// `e[channel][endpoint]` (their low bits as the layout stores them), the partition and the
    /// texel indices (anchors one bit shorter).
    fn bc6h_block(number: u32, e: [[i32; 4]; 3], partition: u32, indices: [u32; 16]) -> [u8; 16] {
        let m = BC6_MODES.iter().find(|m| m.number == number).unwrap();
        let mut w = Writer::default();
        for (channel, endpoint, a, b) in bc6h_fields(m.layout) {
            let count = a.abs_diff(b) + 1;
            let mut v = 0;
            for k in 0..count {
                let bit = if a >= b { b + k } else { b - k };
                let source = if channel == 3 { number as i32 } else { e[channel][endpoint] };
                v |= ((source >> bit) as u32 & 1) << k;
            }
            w.put(v, count);
        }
        w.put(partition, m.pb);
        let two = m.pb > 0;
        let ib = if two { 3 } else { 4 };
        for (i, &index) in indices.iter().enumerate() {
            let anchor = i == 0 || (two && i == ANCHOR_2[partition as usize] as usize);
            w.put(index, if anchor { ib - 1 } else { ib });
        }
        w.block
    }

    #[test]
    fn bc6h_layouts_are_128_bits_with_partition_and_indices() {
        for m in &BC6_MODES {
            let fields: u32 = bc6h_fields(m.layout).map(|(_, _, a, b)| a.abs_diff(b) + 1).sum();
            let indices = if m.pb > 0 { 16 * 3 - 2 } else { 16 * 4 - 1 };
            assert_eq!(fields + m.pb + indices, 128, "mode {}", m.number);
        }
    }

    #[test]
    fn bc6h_unsigned_endpoints_unquantize_and_finish_as_halves() {
        // Mode 3: untransformed 10-bit endpoints, one subset. R0 = 512 unquantizes to
        // ((512 << 15) + 0x4000) >> 9 = 32800, finishes as 32800 · 31 >> 6 = 0x3E0F:
        // 1 + 527/1024. R1 = 1023 is the maximum: 0xFFFF, finishing as 0x7BFF = 65504.
        let e = [[512, 1023, 0, 0], [0, 0, 0, 0], [1023, 0, 0, 0]];
        let mut idx = [0; 16];
        idx[1] = 15;
        idx[2] = 8;
        let b = bc6h_block(3, e, 0, idx);
        let t = |i: u32| decode_texel(DXGI_FORMAT_BC6H_UF16, &b, i % 4, i / 4).unwrap();
        assert_eq!(t(0), [1.0 + 527.0 / 1024.0, 0.0, 65504.0, 1.0]);
        assert_eq!(t(1), [65504.0, 0.0, 0.0, 1.0]);
        // Index 8 weighs 34/64 toward R1: ((30 · 32800 + 34 · 65535 + 32) >> 6) · 31 >> 6.
        let x = (30 * 32800 + 34 * 65535 + 32) >> 6;
        assert_eq!(t(2)[0], half_to_f32(((x * 31) >> 6) as u16));
    }

    #[test]
    fn bc6h_signed_endpoints_keep_their_sign() {
        // R0 = -256 in 10 bits: |x| unquantizes to 16416, finishing as (16416 · 31 >> 5) | sign
        // = 0xBE1F = -(1 + 543/1024).
        let e = [[-256 & 0x3ff, 0, 0, 0], [0; 4], [0; 4]];
        let b = bc6h_block(3, e, 0, [0; 16]);
        assert_eq!(decode_texel(DXGI_FORMAT_BC6H_SF16, &b, 0, 0), Some([-(1.0 + 543.0 / 1024.0), 0.0, 0.0, 1.0]));
        // The same bits read unsigned are 768: ((768 << 15) + 0x4000) >> 9 = 49184.
        let u = decode_texel(DXGI_FORMAT_BC6H_UF16, &b, 0, 0).unwrap()[0];
        assert_eq!(u, half_to_f32(((49184 * 31) >> 6) as u16));
    }

    #[test]
    fn bc6h_transformed_endpoints_are_deltas_from_endpoint_0() {
        // Mode 0 (two subsets, 10-bit base, 5-bit deltas): R1 = 0b11111 is -1, so R1 = 99 when
        // R0 = 100; subset 1's R2 = +3 → 103. Partition 13: rows 2-3 are subset 1.
        let e = [[100, 0b11111, 3, 0], [0; 4], [0; 4]];
        let mut idx = [7; 16];
        idx[0] = 3; // anchors hold 2 bits: 3 is the largest
        idx[15] = 0;
        let b = bc6h_block(0, e, 13, idx);
        let unq = |x: i32| ((x << 15) + 0x4000) >> 9;
        let fin = |x: i32| half_to_f32(((x * 31) >> 6) as u16);
        let t = |i: u32| decode_texel(DXGI_FORMAT_BC6H_UF16, &b, i % 4, i / 4).unwrap()[0];
        assert_eq!(t(5), fin(unq(99)), "subset 0, index 7: endpoint 1");
        assert_eq!(t(15), fin(unq(103)), "subset 1, anchor index 0: endpoint 0 of subset 1");
        assert_eq!(t(9), fin(unq(100)), "subset 1, index 7: R3 = 100 + 0");
    }

    #[test]
    fn bc6h_reserved_modes_decode_to_zero() {
        let mut b = [0u8; 16];
        b[0] = 19;
        assert_eq!(decode_texel(DXGI_FORMAT_BC6H_UF16, &b, 0, 0), Some([0.0, 0.0, 0.0, 1.0]));
    }

    #[test]
    fn halves_convert_exactly() {
        assert_eq!(half_to_f32(0x3C00), 1.0);
        assert_eq!(half_to_f32(0xC000), -2.0);
        assert_eq!(half_to_f32(0x0001), 2f32.powi(-24));
        assert_eq!(half_to_f32(0x7BFF), 65504.0);
        assert_eq!(half_to_f32(0x7C00), f32::INFINITY);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

        /// Texture memory can hold anything: every block decodes, to finite values in the
        /// format's range (BC6H never produces INF or NaN).
        #[test]
        fn any_block_decodes_to_finite_values_in_range(block in proptest::prelude::any::<[u8; 16]>()) {
            for format in [
                DXGI_FORMAT_BC1_UNORM, DXGI_FORMAT_BC1_UNORM_SRGB, DXGI_FORMAT_BC2_UNORM, DXGI_FORMAT_BC3_UNORM,
                DXGI_FORMAT_BC4_UNORM, DXGI_FORMAT_BC4_SNORM, DXGI_FORMAT_BC5_UNORM, DXGI_FORMAT_BC5_SNORM,
                DXGI_FORMAT_BC6H_UF16, DXGI_FORMAT_BC6H_SF16, DXGI_FORMAT_BC7_UNORM, DXGI_FORMAT_BC7_UNORM_SRGB,
            ] {
                let (lo, hi) = match format {
                    DXGI_FORMAT_BC4_SNORM | DXGI_FORMAT_BC5_SNORM => (-1.0, 1.0),
                    DXGI_FORMAT_BC6H_UF16 => (0.0, 65504.0),
                    DXGI_FORMAT_BC6H_SF16 => (-65504.0, 65504.0),
                    _ => (0.0, 1.0),
                };
                for i in 0..16 {
                    let c = decode_texel(format, &block, i % 4, i / 4).unwrap();
                    proptest::prop_assert!(c.iter().all(|v| (lo..=hi).contains(v)), "{:?} {:?}", format, c);
                }
            }
        }
    }

    #[test]
    fn uncompressed_equivalents_keep_components_and_number_type() {
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC1_UNORM_SRGB), Some(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB));
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC5_SNORM), Some(DXGI_FORMAT_R16G16_SNORM));
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC7_UNORM), Some(DXGI_FORMAT_R8G8B8A8_UNORM));
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC6H_SF16), Some(DXGI_FORMAT_R16G16B16A16_FLOAT));
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_R8_UNORM), None);
    }

    #[test]
    fn short_blocks_and_unknown_formats_decode_to_nothing() {
        assert_eq!(block_bytes(DXGI_FORMAT_R8_UNORM), None);
        assert_eq!(decode_texel(DXGI_FORMAT_BC6H_UF16, &[0; 8], 0, 0), None);
        assert_eq!(decode_texel(DXGI_FORMAT_BC1_UNORM, &[0; 4], 0, 0), None, "short block");
    }
}
