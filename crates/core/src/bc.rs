//! Block-compressed texels: one texel of a BC1–BC5 block decoded as a shader reads it, for the
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
//! - SNORM endpoints map −128 and −127 both to −1.0.
//!
//! BC6H and BC7 are not decoded yet: [`decode_texel`] returns `None` for them.

use rd3d12_sys as sys;
use rd3d12_sys::DXGI_FORMAT;

/// Bytes of one 4×4 block of a BC1–BC5 format; `None` for other formats (BC6H and BC7
/// included, which are not decoded).
pub fn block_bytes(format: DXGI_FORMAT) -> Option<usize> {
    use sys::*;
    Some(match format {
        DXGI_FORMAT_BC1_UNORM | DXGI_FORMAT_BC1_UNORM_SRGB | DXGI_FORMAT_BC4_UNORM | DXGI_FORMAT_BC4_SNORM => 8,
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
/// precision of a BC1–BC5 format (BC4/BC5 filter at UNORM16/SNORM16 precision, the others at
/// UNORM8): what border colors, comparison references and out-of-range reads follow.
pub fn uncompressed_equivalent(format: DXGI_FORMAT) -> Option<DXGI_FORMAT> {
    use sys::*;
    Some(match format {
        DXGI_FORMAT_BC1_UNORM | DXGI_FORMAT_BC2_UNORM | DXGI_FORMAT_BC3_UNORM => DXGI_FORMAT_R8G8B8A8_UNORM,
        DXGI_FORMAT_BC1_UNORM_SRGB | DXGI_FORMAT_BC2_UNORM_SRGB | DXGI_FORMAT_BC3_UNORM_SRGB => {
            DXGI_FORMAT_R8G8B8A8_UNORM_SRGB
        }
        DXGI_FORMAT_BC4_UNORM => DXGI_FORMAT_R16_UNORM,
        DXGI_FORMAT_BC4_SNORM => DXGI_FORMAT_R16_SNORM,
        DXGI_FORMAT_BC5_UNORM => DXGI_FORMAT_R16G16_UNORM,
        DXGI_FORMAT_BC5_SNORM => DXGI_FORMAT_R16G16_SNORM,
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
        _ => return None,
    })
}

/// RGBA8 bytes read as the UNORM or sRGB 8-bit format matching `format`.
fn rgba8(format: DXGI_FORMAT, c: [u8; 4]) -> [f32; 4] {
    let srgb = matches!(
        format,
        sys::DXGI_FORMAT_BC1_UNORM_SRGB | sys::DXGI_FORMAT_BC2_UNORM_SRGB | sys::DXGI_FORMAT_BC3_UNORM_SRGB
    );
    let as8 = if srgb { sys::DXGI_FORMAT_R8G8B8A8_UNORM_SRGB } else { sys::DXGI_FORMAT_R8G8B8A8_UNORM };
    crate::pack::decode_color(as8, &c).unwrap_or([0.0; 4])
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
        let want = crate::pack::decode_color(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB, &[132, 130, 132, 255]).unwrap();
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

    #[test]
    fn uncompressed_equivalents_keep_components_and_number_type() {
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC1_UNORM_SRGB), Some(DXGI_FORMAT_R8G8B8A8_UNORM_SRGB));
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC5_SNORM), Some(DXGI_FORMAT_R16G16_SNORM));
        assert_eq!(uncompressed_equivalent(DXGI_FORMAT_BC7_UNORM), None);
    }

    #[test]
    fn bc6h_and_bc7_are_not_decoded_yet() {
        assert_eq!(block_bytes(DXGI_FORMAT_BC7_UNORM), None);
        assert_eq!(decode_texel(DXGI_FORMAT_BC6H_UF16, &[0; 16], 0, 0), None);
        assert_eq!(decode_texel(DXGI_FORMAT_BC1_UNORM, &[0; 4], 0, 0), None, "short block");
    }
}
