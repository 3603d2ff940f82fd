//! Texel encodings for the CPU backend's clears: ClearRenderTargetView,
//! ClearUnorderedAccessViewFloat / Uint and ClearDepthStencilView.
//!
//! Each encoder returns the bytes of one element of the view's format (little-endian, the
//! layout the tight CPU layout stores, [`crate::allocation`]) and its size; the executor
//! replicates it over the cleared region.
//!
//! Conversion rules (D3D11.3 functional spec §3.2 "Data Conversion", §3.1.5/§3.1.6,
//! §19.1.3, §19.3; the D3D12 Clear* reference pages):
//!
//! * Float inputs first go through the runtime's validation: "for floating-point inputs,
//!   the runtime will set denormalized values to 0 (while preserving NaNs)" (sign kept).
//! * FLOAT → UNORM (§3.2.3.6): NaN → 0, clamp to [0, 1], `c × (2ⁿ−1)`, `+ 0.5`, drop the
//!   fraction. This is round-half-*up*, not round-half-even (0.5 → 128 for 8 bits). The
//!   arithmetic is done in f64, i.e. exactly (the spec allows 0.6 ULP; some hardware
//!   stores 127 for 0.5, which is within that tolerance).
//! * FLOAT → SNORM (§3.2.3.4): NaN → 0, clamp to [−1, 1], `c × (2ⁿ⁻¹−1)`, `± 0.5`, drop
//!   the fraction. −1.0 maps to `−(2ⁿ⁻¹−1)` (0x81 for 8 bits), never to the most negative
//!   code.
//! * FLOAT → SRGB (§3.2.3.8): NaN → 0, clamp, then `12.92·c` below 0.0031308, else
//!   `1.055·c^(1/2.4) − 0.055`, then the UNORM rounding. Only R, G and B; alpha is stored
//!   linear (§19.1.3.2).
//! * FLOAT → 16/11/10-bit float (§3.2.2): **round toward zero**; finite values beyond the
//!   range give the largest finite value (65520.0 → 0x7BFF in float16, not +INF); INF →
//!   INF; NaN → NaN (float16 keeps the sign and the top payload bits, quiet bit set;
//!   float11/10 store an all-ones mantissa); values below the normal range become
//!   denormals (truncated). float11/float10 have no sign: negative values and −INF → 0
//!   (§3.1.6).
//! * FLOAT → R9G9B9E5_SHAREDEXP (§19.3.2.2, a software encoder: the format is neither a
//!   render target nor a UAV): NaN and negatives → 0, saturate to 65408, the shared
//!   exponent is the largest channel's, mantissas rounded to nearest even.
//! * FLOAT → UINT / SINT (ClearRenderTargetView on an integer view; also used for
//!   ClearUnorderedAccessViewFloat on an integer view, which the D3D11 docs call invalid
//!   and D3D12 records): truncate toward zero (like `ftou`/`ftoi`), then clamp to the
//!   component's range (§3.2.3.13); NaN → 0. Hardware-checked values (vkd3d-proton's
//!   crosstests, run against native D3D12): (0.1, 0.5, 0.3, 0.75) → 0 on R8G8B8A8_UINT,
//!   (1, −1, −0.5, −2) → 0xFE00FF01 on R8G8B8A8_SINT.
//! * ClearUnorderedAccessViewUint: "copies the lower nᵢ bits from each array element i to
//!   the corresponding channel … with no format conversion", for every format (UNORM and
//!   FLOAT views included: 1 on R32_FLOAT stores the bits 0x00000001); 0x12345 on a 16-bit
//!   channel stores 0x2345 (truncation, not clamping). Raw (R32_TYPELESS) and structured
//!   (UNKNOWN) buffer views use the first value only.
//! * Depth (ClearDepthStencilView): the value "will be clamped between 0 and 1" (NaN → 0),
//!   then FLOAT → UNORM for D16 / D24, or stored as is for D32.
//!
//! Channels map by name: `rgba[0]` is R wherever the format stores it (B8G8R8A8 stores B
//! first), A8_UNORM stores `rgba[3]`. X channels (B8G8R8X8) receive the alpha conversion
//! (their contents are undefined to readers).
//!
//! Depth-stencil formats are planar in the CPU layout ([`crate::format`]: plane 0 is
//! R32_TYPELESS, plane 1 R8_TYPELESS for D24_UNORM_S8_UINT and D32_FLOAT_S8X24_UINT), so
//! [`encode_depth`] gives the depth plane's element (D24: the 24-bit UNORM in the low bits
//! of a 32-bit element, top byte 0) and [`encode_stencil`] the stencil plane's byte.

use rd3d12_sys as sys;
use rd3d12_sys::DXGI_FORMAT;

use crate::format::DXGI_FORMAT_A4B4G4R4_UNORM;

/// Numeric interpretation of a format's channels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Num {
    Unorm,
    Snorm,
    /// UNORM with the sRGB curve on R, G, B.
    Srgb,
    Uint,
    Sint,
    /// 32-bit float, float16, or the unsigned float11/float10 (by channel width).
    Float,
}

/// One channel: which of R, G, B, A (0..4) it stores, at which bit offset of the element
/// and how wide.
#[derive(Debug, Clone, Copy)]
struct Chan {
    comp: u8,
    shift: u8,
    bits: u8,
}

const fn ch(comp: u8, shift: u8, bits: u8) -> Chan {
    Chan { comp, shift, bits }
}

#[derive(Debug, Clone, Copy)]
enum Layout {
    Channels {
        bytes: u8,
        num: Num,
        chans: &'static [Chan],
    },
    /// R9G9B9E5_SHAREDEXP.
    SharedExp,
}

const RGBA32: [Chan; 4] = [ch(0, 0, 32), ch(1, 32, 32), ch(2, 64, 32), ch(3, 96, 32)];
const RGB32: [Chan; 3] = [ch(0, 0, 32), ch(1, 32, 32), ch(2, 64, 32)];
const RG32: [Chan; 2] = [ch(0, 0, 32), ch(1, 32, 32)];
const R32: [Chan; 1] = [ch(0, 0, 32)];
const RGBA16: [Chan; 4] = [ch(0, 0, 16), ch(1, 16, 16), ch(2, 32, 16), ch(3, 48, 16)];
const RG16: [Chan; 2] = [ch(0, 0, 16), ch(1, 16, 16)];
const R16: [Chan; 1] = [ch(0, 0, 16)];
const RGBA8: [Chan; 4] = [ch(0, 0, 8), ch(1, 8, 8), ch(2, 16, 8), ch(3, 24, 8)];
const RG8: [Chan; 2] = [ch(0, 0, 8), ch(1, 8, 8)];
const R8: [Chan; 1] = [ch(0, 0, 8)];
const A8: [Chan; 1] = [ch(3, 0, 8)];
const RGB10A2: [Chan; 4] = [ch(0, 0, 10), ch(1, 10, 10), ch(2, 20, 10), ch(3, 30, 2)];
const RG11B10: [Chan; 3] = [ch(0, 0, 11), ch(1, 11, 11), ch(2, 22, 10)];
const BGRA8: [Chan; 4] = [ch(2, 0, 8), ch(1, 8, 8), ch(0, 16, 8), ch(3, 24, 8)];
const B5G6R5: [Chan; 3] = [ch(2, 0, 5), ch(1, 5, 6), ch(0, 11, 5)];
const B5G5R5A1: [Chan; 4] = [ch(2, 0, 5), ch(1, 5, 5), ch(0, 10, 5), ch(3, 15, 1)];
const B4G4R4A4: [Chan; 4] = [ch(2, 0, 4), ch(1, 4, 4), ch(0, 8, 4), ch(3, 12, 4)];
const A4B4G4R4: [Chan; 4] = [ch(3, 0, 4), ch(2, 4, 4), ch(1, 8, 4), ch(0, 12, 4)];

/// The element layout of a clearable (render-target / UAV) color format. `None` for
/// typeless, depth-stencil, block-compressed, video, packed 4:2:2, R1 and XR_BIAS formats.
fn layout(format: DXGI_FORMAT) -> Option<Layout> {
    use Num::*;
    let l = |bytes: u8, num: Num, chans: &'static [Chan]| Some(Layout::Channels { bytes, num, chans });
    match format {
        sys::DXGI_FORMAT_R32G32B32A32_FLOAT => l(16, Float, &RGBA32),
        sys::DXGI_FORMAT_R32G32B32A32_UINT => l(16, Uint, &RGBA32),
        sys::DXGI_FORMAT_R32G32B32A32_SINT => l(16, Sint, &RGBA32),
        sys::DXGI_FORMAT_R32G32B32_FLOAT => l(12, Float, &RGB32),
        sys::DXGI_FORMAT_R32G32B32_UINT => l(12, Uint, &RGB32),
        sys::DXGI_FORMAT_R32G32B32_SINT => l(12, Sint, &RGB32),
        sys::DXGI_FORMAT_R16G16B16A16_FLOAT => l(8, Float, &RGBA16),
        sys::DXGI_FORMAT_R16G16B16A16_UNORM => l(8, Unorm, &RGBA16),
        sys::DXGI_FORMAT_R16G16B16A16_UINT => l(8, Uint, &RGBA16),
        sys::DXGI_FORMAT_R16G16B16A16_SNORM => l(8, Snorm, &RGBA16),
        sys::DXGI_FORMAT_R16G16B16A16_SINT => l(8, Sint, &RGBA16),
        sys::DXGI_FORMAT_R32G32_FLOAT => l(8, Float, &RG32),
        sys::DXGI_FORMAT_R32G32_UINT => l(8, Uint, &RG32),
        sys::DXGI_FORMAT_R32G32_SINT => l(8, Sint, &RG32),
        sys::DXGI_FORMAT_R10G10B10A2_UNORM => l(4, Unorm, &RGB10A2),
        sys::DXGI_FORMAT_R10G10B10A2_UINT => l(4, Uint, &RGB10A2),
        sys::DXGI_FORMAT_R11G11B10_FLOAT => l(4, Float, &RG11B10),
        sys::DXGI_FORMAT_R8G8B8A8_UNORM => l(4, Unorm, &RGBA8),
        sys::DXGI_FORMAT_R8G8B8A8_UNORM_SRGB => l(4, Srgb, &RGBA8),
        sys::DXGI_FORMAT_R8G8B8A8_UINT => l(4, Uint, &RGBA8),
        sys::DXGI_FORMAT_R8G8B8A8_SNORM => l(4, Snorm, &RGBA8),
        sys::DXGI_FORMAT_R8G8B8A8_SINT => l(4, Sint, &RGBA8),
        sys::DXGI_FORMAT_R16G16_FLOAT => l(4, Float, &RG16),
        sys::DXGI_FORMAT_R16G16_UNORM => l(4, Unorm, &RG16),
        sys::DXGI_FORMAT_R16G16_UINT => l(4, Uint, &RG16),
        sys::DXGI_FORMAT_R16G16_SNORM => l(4, Snorm, &RG16),
        sys::DXGI_FORMAT_R16G16_SINT => l(4, Sint, &RG16),
        sys::DXGI_FORMAT_R32_FLOAT => l(4, Float, &R32),
        sys::DXGI_FORMAT_R32_UINT => l(4, Uint, &R32),
        sys::DXGI_FORMAT_R32_SINT => l(4, Sint, &R32),
        sys::DXGI_FORMAT_R8G8_UNORM => l(2, Unorm, &RG8),
        sys::DXGI_FORMAT_R8G8_UINT => l(2, Uint, &RG8),
        sys::DXGI_FORMAT_R8G8_SNORM => l(2, Snorm, &RG8),
        sys::DXGI_FORMAT_R8G8_SINT => l(2, Sint, &RG8),
        sys::DXGI_FORMAT_R16_FLOAT => l(2, Float, &R16),
        sys::DXGI_FORMAT_R16_UNORM => l(2, Unorm, &R16),
        sys::DXGI_FORMAT_R16_UINT => l(2, Uint, &R16),
        sys::DXGI_FORMAT_R16_SNORM => l(2, Snorm, &R16),
        sys::DXGI_FORMAT_R16_SINT => l(2, Sint, &R16),
        sys::DXGI_FORMAT_R8_UNORM => l(1, Unorm, &R8),
        sys::DXGI_FORMAT_R8_UINT => l(1, Uint, &R8),
        sys::DXGI_FORMAT_R8_SNORM => l(1, Snorm, &R8),
        sys::DXGI_FORMAT_R8_SINT => l(1, Sint, &R8),
        sys::DXGI_FORMAT_A8_UNORM => l(1, Unorm, &A8),
        sys::DXGI_FORMAT_R9G9B9E5_SHAREDEXP => Some(Layout::SharedExp),
        sys::DXGI_FORMAT_B5G6R5_UNORM => l(2, Unorm, &B5G6R5),
        sys::DXGI_FORMAT_B5G5R5A1_UNORM => l(2, Unorm, &B5G5R5A1),
        sys::DXGI_FORMAT_B8G8R8A8_UNORM | sys::DXGI_FORMAT_B8G8R8X8_UNORM => l(4, Unorm, &BGRA8),
        sys::DXGI_FORMAT_B8G8R8A8_UNORM_SRGB | sys::DXGI_FORMAT_B8G8R8X8_UNORM_SRGB => l(4, Srgb, &BGRA8),
        sys::DXGI_FORMAT_B4G4R4A4_UNORM => l(2, Unorm, &B4G4R4A4),
        DXGI_FORMAT_A4B4G4R4_UNORM => l(2, Unorm, &A4B4G4R4),
        _ => None,
    }
}

/// The first `bytes` bytes of `v`, little-endian, in a 16-byte buffer.
fn element(bytes: usize, v: u128) -> ([u8; 16], usize) {
    (v.to_le_bytes(), bytes)
}

const fn mask(bits: u8) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// The runtime's clear-value validation: f32 denormals become a zero of the same sign;
/// NaN, INF and normal values are kept.
fn flush_denorm(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// FLOAT → n-bit UNORM (§3.2.3.6), exactly: NaN → 0, clamp, `floor(c·(2ⁿ−1) + 0.5)`.
fn to_unorm(c: f64, bits: u8) -> u128 {
    if c.is_nan() {
        return 0;
    }
    if bits < 64 {
        // The same arithmetic in 64 bits: exact for these widths, and without the 128-bit
        // float conversions, which are library calls; the value is not negative, so the
        // conversion's truncation is the floor (also a library call).
        let max = ((1u64 << bits) - 1) as f64;
        return u128::from((c.clamp(0.0, 1.0) * max + 0.5) as u64);
    }
    let max = mask(bits) as f64;
    (c.clamp(0.0, 1.0) * max + 0.5).floor() as u128
}

/// FLOAT → n-bit SNORM (§3.2.3.4), two's complement in the low `bits` bits.
fn to_snorm(c: f32, bits: u8) -> u128 {
    if c.is_nan() {
        return 0;
    }
    let s = f64::from(c.clamp(-1.0, 1.0)) * ((1u64 << (bits - 1)) - 1) as f64;
    let i = (if s >= 0.0 { (s + 0.5).trunc() } else { (s - 0.5).trunc() }) as i64;
    (i as u128) & mask(bits)
}

/// Linear → sRGB curve (§3.2.3.8) after NaN → 0 and clamping, before the UNORM step.
fn linear_to_srgb(c: f32) -> f64 {
    if c.is_nan() {
        return 0.0;
    }
    let c = f64::from(c.clamp(0.0, 1.0));
    if c <= 0.0031308 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// sRGB → linear curve (§3.2.3.7).
fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// FLOAT → n-bit UINT: truncate toward zero, clamp to [0, 2ⁿ−1], NaN → 0.
fn to_uint(c: f32, bits: u8) -> u128 {
    if c.is_nan() {
        return 0;
    }
    f64::from(c).trunc().clamp(0.0, mask(bits) as f64) as u128
}

/// FLOAT → n-bit SINT: truncate toward zero, clamp to [−2ⁿ⁻¹, 2ⁿ⁻¹−1], NaN → 0.
fn to_sint(c: f32, bits: u8) -> u128 {
    if c.is_nan() {
        return 0;
    }
    let half = (1u64 << (bits - 1)) as f64;
    let i = f64::from(c).trunc().clamp(-half, half - 1.0) as i64;
    (i as u128) & mask(bits)
}

/// Round-toward-zero magnitude of a finite f32 (biased exponent `exp`, mantissa `mant`)
/// in a float with 5 exponent bits (bias 15) and `m` mantissa bits; overflow gives the
/// largest finite value, underflow a (truncated) denormal.
fn small_float_magnitude(exp: u32, mant: u32, m: u32) -> u32 {
    if exp == 0 {
        return 0; // zero (f32 denormals were flushed)
    }
    let e = exp as i32 - 127;
    if e > 15 {
        return (30 << m) | ((1 << m) - 1);
    }
    if e >= -14 {
        return (((e + 15) as u32) << m) | (mant >> (23 - m));
    }
    // value = 1.mant · 2^e = denormal · 2^(−14−m)
    let shift = (9 - m as i32 - e) as u32;
    (mant | 0x80_0000).checked_shr(shift).unwrap_or(0)
}

/// f32 → float16 (§3.1.5), round toward zero (§3.2.2).
fn f32_to_f16(x: f32) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 16) & 0x8000) as u16;
    let exp = (b >> 23) & 0xff;
    let mant = b & 0x7f_ffff;
    if exp == 0xff {
        return if mant == 0 { sign | 0x7c00 } else { sign | 0x7e00 | (mant >> 13) as u16 };
    }
    sign | small_float_magnitude(exp, mant, 10) as u16
}

/// f32 → unsigned float11 (`m` = 6) / float10 (`m` = 5) (§3.1.6), round toward zero.
fn f32_to_ufloat(x: f32, m: u32) -> u32 {
    if x.is_nan() {
        return (31 << m) | ((1 << m) - 1);
    }
    if x <= 0.0 {
        return 0; // no sign bit: negatives, −INF and −0 clamp to 0
    }
    if x.is_infinite() {
        return 31 << m;
    }
    let b = x.to_bits();
    small_float_magnitude((b >> 23) & 0xff, b & 0x7f_ffff, m)
}

/// A float with 5 exponent bits (bias 15) and `m` mantissa bits, the sign bit (if any)
/// at bit `m + 5`, as f32.
fn small_float_to_f32(v: u32, m: u32, signed: bool) -> f32 {
    let negative = signed && (v >> (m + 5)) & 1 != 0;
    let e = (v >> m) & 31;
    let f = v & ((1 << m) - 1);
    let mag = match e {
        31 if f == 0 => f32::INFINITY,
        31 => f32::NAN,
        0 => f as f32 * 2f32.powi(-14 - m as i32),
        _ => (1.0 + f as f32 / (1 << m) as f32) * 2f32.powi(e as i32 - 15),
    };
    if negative {
        -mag
    } else {
        mag
    }
}

/// FLOAT → a float channel of `bits` bits (32, 16, 11 or 10).
fn to_float(c: f32, bits: u8) -> u128 {
    match bits {
        32 => c.to_bits() as u128,
        16 => f32_to_f16(c) as u128,
        11 => f32_to_ufloat(c, 6) as u128,
        _ => f32_to_ufloat(c, 5) as u128,
    }
}

/// FLOAT → R9G9B9E5_SHAREDEXP (§19.3.2.2).
fn encode_rgb9e5(rgba: [f32; 4]) -> u32 {
    const MAX: f32 = 65408.0; // 0.111111111b · 2^16
    let sat = |x: f32| if x.is_nan() { 0.0 } else { x.clamp(0.0, MAX) };
    let (r, g, b) = (sat(rgba[0]), sat(rgba[1]), sat(rgba[2]));
    let maxc = r.max(g).max(b);
    // floor(log2(maxc)) from the f32 exponent, at least −16 (zero and tiny values).
    let floor_log2 = if maxc >= f32::MIN_POSITIVE { ((maxc.to_bits() >> 23) & 0xff) as i32 - 127 } else { -16 };
    let mut exp = floor_log2.max(-16) + 1 + 15;
    let mut scale = 2f64.powi(9 + 15 - exp); // 1 / 2^(exp − 15 − 9)
    if (f64::from(maxc) * scale).round_ties_even() >= 512.0 {
        exp += 1;
        scale /= 2.0;
    }
    let q = |v: f32| ((f64::from(v) * scale).round_ties_even() as u32).min(511);
    q(r) | (q(g) << 9) | (q(b) << 18) | ((exp as u32) << 27)
}

fn decode_rgb9e5(v: u32) -> [f32; 4] {
    let scale = 2f32.powi(((v >> 27) & 31) as i32 - 15 - 9);
    let m = |shift: u32| ((v >> shift) & 511) as f32 * scale;
    [m(0), m(9), m(18), 1.0]
}

/// The bytes of one element of `format` holding the color `rgba` (R, G, B, A), and the
/// element's size: ClearRenderTargetView, and ClearUnorderedAccessViewFloat. `None` for
/// formats that are not cleared this way (typeless, depth-stencil, block-compressed,
/// video and packed 4:2:2 formats, R1_UNORM, R10G10B10_XR_BIAS_A2_UNORM).
pub fn encode_color(format: DXGI_FORMAT, rgba: [f32; 4]) -> Option<([u8; 16], usize)> {
    let rgba = rgba.map(flush_denorm);
    match layout(format)? {
        Layout::SharedExp => Some(element(4, encode_rgb9e5(rgba) as u128)),
        Layout::Channels { bytes, num, chans } => {
            let mut v = 0u128;
            for c in chans {
                let x = rgba[c.comp as usize];
                let bits = match num {
                    Num::Srgb if c.comp < 3 => to_unorm(linear_to_srgb(x), c.bits),
                    Num::Unorm | Num::Srgb => to_unorm(f64::from(x), c.bits),
                    Num::Snorm => to_snorm(x, c.bits),
                    Num::Uint => to_uint(x, c.bits),
                    Num::Sint => to_sint(x, c.bits),
                    Num::Float => to_float(x, c.bits),
                };
                v |= (bits & mask(c.bits)) << c.shift;
            }
            Some(element(bytes as usize, v))
        }
    }
}

/// ClearUnorderedAccessViewFloat's element: [`encode_color`] for FLOAT, UNORM, SNORM, UINT
/// and SINT formats. Integer channels take each value as an integral float, as
/// ID3D11DeviceContext1::ClearView documents (and Windows' D3D12 runtime accepts these
/// views): rounded toward zero, clamped to the channel's range (INF too), NaN → 0, so 3.7
/// → 3, −1.5 → 0 as UINT and −1 as SINT. `None` for every other format (sRGB,
/// shared-exponent, raw and structured views), where the clear is invalid.
pub fn encode_uav_float(format: DXGI_FORMAT, rgba: [f32; 4]) -> Option<([u8; 16], usize)> {
    match layout(format)? {
        Layout::Channels { num: Num::Float | Num::Unorm | Num::Snorm | Num::Uint | Num::Sint, .. } => {
            encode_color(format, rgba)
        }
        _ => None,
    }
}

/// The bytes of one element of `format` for ClearUnorderedAccessViewUint, and its size:
/// the low nᵢ bits of `values[i]` go to channel i (R, G, B, A by name) whatever the
/// channel's type, no conversion. R32_TYPELESS (raw buffer views) and UNKNOWN
/// (structured buffer views) take the first value's 32 bits. `None` where
/// [`encode_color`] is `None`, and for R9G9B9E5_SHAREDEXP (never a UAV).
pub fn encode_uint(format: DXGI_FORMAT, values: [u32; 4]) -> Option<([u8; 16], usize)> {
    if format == sys::DXGI_FORMAT_R32_TYPELESS || format == sys::DXGI_FORMAT_UNKNOWN {
        return Some(element(4, values[0] as u128));
    }
    match layout(format)? {
        Layout::SharedExp => None,
        Layout::Channels { bytes, chans, .. } => {
            let v = chans.iter().fold(0u128, |v, c| v | ((values[c.comp as usize] as u128 & mask(c.bits)) << c.shift));
            Some(element(bytes as usize, v))
        }
    }
}

/// The bytes of one element of the depth plane of `format` holding `depth`
/// (ClearDepthStencilView: clamped to [0, 1], NaN → 0), and its size: 2 for D16_UNORM,
/// 4 for D32_FLOAT, and 4 for the R32_TYPELESS plane 0 of D24_UNORM_S8_UINT (24-bit
/// UNORM in bits 0–23, bits 24–31 zero) and of D32_FLOAT_S8X24_UINT (the f32). `None`
/// for other formats.
pub fn encode_depth(format: DXGI_FORMAT, depth: f32) -> Option<([u8; 16], usize)> {
    let d = flush_denorm(depth);
    let d = if d.is_nan() { 0.0 } else { d.clamp(0.0, 1.0) };
    match format {
        sys::DXGI_FORMAT_D16_UNORM => Some(element(2, to_unorm(f64::from(d), 16))),
        sys::DXGI_FORMAT_D24_UNORM_S8_UINT => Some(element(4, to_unorm(f64::from(d), 24))),
        // `+ 0.0` turns −0.0 into +0.0 (the clamp's lower bound).
        sys::DXGI_FORMAT_D32_FLOAT | sys::DXGI_FORMAT_D32_FLOAT_S8X24_UINT => {
            Some(element(4, (d + 0.0).to_bits() as u128))
        }
        _ => None,
    }
}

/// The byte of the stencil plane (plane 1, R8_TYPELESS) of D24_UNORM_S8_UINT and
/// D32_FLOAT_S8X24_UINT holding `stencil`, and its size (1). `None` for formats without
/// stencil.
pub fn encode_stencil(format: DXGI_FORMAT, stencil: u8) -> Option<([u8; 16], usize)> {
    match format {
        sys::DXGI_FORMAT_D24_UNORM_S8_UINT | sys::DXGI_FORMAT_D32_FLOAT_S8X24_UINT => Some(element(1, stencil as u128)),
        _ => None,
    }
}

/// The color one element of `format` holds, as a shader would read it (UNORM / SNORM /
/// SRGB → normalized floats, FLOAT → f32, UINT / SINT → the integer as f32), missing
/// components defaulting to (0, 0, 0, 1). `bytes` must hold at least one element.
/// `None` for formats [`encode_color`] does not handle, or too few bytes.
pub fn decode_color(format: DXGI_FORMAT, bytes: &[u8]) -> Option<[f32; 4]> {
    // The formats most textures and targets use, read through a table of the general path's
    // own values (`raw / 255` in f64, rounded to f32) instead of a layout walk per texel.
    match (format, bytes.get(..4)) {
        (sys::DXGI_FORMAT_R8G8B8A8_UNORM, Some(b)) => return Some([0, 1, 2, 3].map(|i| UNORM8[b[i] as usize])),
        (sys::DXGI_FORMAT_B8G8R8A8_UNORM, Some(b)) => return Some([2, 1, 0, 3].map(|i| UNORM8[b[i] as usize])),
        _ => {}
    }
    decode_color_by_layout(format, bytes)
}

/// `n / 255` for every byte `n`, as the general path of [`decode_color`] computes it.
const UNORM8: [f32; 256] = {
    let mut t = [0.0f32; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as f64 / 255.0) as f32;
        i += 1;
    }
    t
};

/// [`decode_color`] through the format's channel layout.
fn decode_color_by_layout(format: DXGI_FORMAT, bytes: &[u8]) -> Option<[f32; 4]> {
    let layout = layout(format)?;
    let size = match layout {
        Layout::SharedExp => 4,
        Layout::Channels { bytes, .. } => bytes as usize,
    };
    let mut buf = [0u8; 16];
    buf[..size].copy_from_slice(bytes.get(..size)?);
    let v = u128::from_le_bytes(buf);
    match layout {
        Layout::SharedExp => Some(decode_rgb9e5(v as u32)),
        Layout::Channels { num, chans, .. } => {
            let mut out = [0.0, 0.0, 0.0, 1.0];
            for c in chans {
                // Channels are at most 32 bits wide, so they convert through 64-bit integers
                // (exactly as through 128-bit ones, which cost a software conversion each).
                debug_assert!(c.bits <= 64);
                let raw = ((v >> c.shift) & mask(c.bits)) as u64;
                let signed = || ((raw << (64 - c.bits)) as i64 >> (64 - c.bits)) as f64;
                let max = mask(c.bits) as u64 as f64;
                out[c.comp as usize] = match num {
                    Num::Unorm => (raw as f64 / max) as f32,
                    Num::Srgb if c.comp < 3 => srgb_to_linear(raw as f64 / max) as f32,
                    Num::Srgb => (raw as f64 / max) as f32,
                    Num::Snorm => (signed() / mask(c.bits - 1) as u64 as f64).max(-1.0) as f32,
                    Num::Uint => raw as f32,
                    Num::Sint => signed() as f32,
                    Num::Float => match c.bits {
                        32 => f32::from_bits(raw as u32),
                        16 => small_float_to_f32(raw as u32, 10, true),
                        11 => small_float_to_f32(raw as u32, 6, false),
                        _ => small_float_to_f32(raw as u32, 5, false),
                    },
                };
            }
            Some(out)
        }
    }
}

/// The bytes of one element of `format` from four 32-bit lanes as a shader register holds them
/// (typed UAV stores, the inverse of [`decode_lanes`]): integers for UINT / SINT formats (the
/// low bits of each lane), the bits of f32 values converted as [`encode_color`] otherwise.
pub fn encode_lanes(format: DXGI_FORMAT, lanes: [u32; 4]) -> Option<([u8; 16], usize)> {
    match layout(format)? {
        Layout::Channels { num: Num::Uint | Num::Sint, .. } => encode_uint(format, lanes),
        _ => encode_color(format, lanes.map(f32::from_bits)),
    }
}

/// One element of `format` as a shader register holds it: four 32-bit lanes, the bits of an f32
/// for UNORM / SNORM / SRGB / FLOAT formats and the integer itself (sign-extended for SINT) for
/// UINT / SINT ones. Missing components default to (0, 0, 0, 1), the 1 being integer 1 in
/// integer formats and 1.0 otherwise (vertex fetch and typed loads). `None` as [`decode_color`].
pub fn decode_lanes(format: DXGI_FORMAT, bytes: &[u8]) -> Option<[u32; 4]> {
    if let Some(Layout::Channels { bytes: size, num: num @ (Num::Uint | Num::Sint), chans }) = layout(format) {
        let size = size as usize;
        let mut buf = [0u8; 16];
        buf[..size].copy_from_slice(bytes.get(..size)?);
        let v = u128::from_le_bytes(buf);
        let mut out = [0, 0, 0, 1];
        for c in chans {
            let raw = (v >> c.shift) & mask(c.bits);
            out[c.comp as usize] = match num {
                Num::Sint => ((raw << (128 - c.bits)) as i128 >> (128 - c.bits)) as i32 as u32,
                _ => raw as u32,
            };
        }
        return Some(out);
    }
    decode_color(format, bytes).map(|c| c.map(f32::to_bits))
}

/// What a typed load outside its view returns, as lanes: 0 in the format's components and the
/// (0, 0, 0, 1) defaults in the others (the `ld` rule, which `ld_uav_typed` shares: "Out of
/// bounds addressing is identical to the ld instruction"). All zeros for formats without a
/// decoder.
pub fn out_of_range_lanes(format: DXGI_FORMAT) -> [u32; 4] {
    // An element of zero bytes decodes to exactly that.
    decode_lanes(format, &[0; 16]).unwrap_or([0; 4])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rgba8_fast_path_of_decode_color_equals_the_layout_walk() {
        for f in [sys::DXGI_FORMAT_R8G8B8A8_UNORM, sys::DXGI_FORMAT_B8G8R8A8_UNORM] {
            for n in 0..=255u8 {
                let texel = [n, n.wrapping_mul(7), n.wrapping_add(91), 255 - n];
                let (fast, slow) = (decode_color(f, &texel).unwrap(), decode_color_by_layout(f, &texel).unwrap());
                assert_eq!(fast.map(f32::to_bits), slow.map(f32::to_bits), "{f:?} {texel:?}");
            }
            assert_eq!(decode_color(f, &[1, 2, 3]), None, "too few bytes");
        }
    }

    #[test]
    fn every_channel_fits_the_64_bit_conversions_of_decode_color() {
        for f in 0..=190 {
            if let Some(Layout::Channels { chans, .. }) = layout(sys::DXGI_FORMAT(f)) {
                assert!(chans.iter().all(|c| c.bits <= 32), "format {f}");
            }
        }
    }
    use crate::format;
    use sys::*;

    /// The element as a little-endian integer, checking the size.
    fn color(f: DXGI_FORMAT, rgba: [f32; 4], size: usize) -> u128 {
        let (b, n) = encode_color(f, rgba).unwrap_or_else(|| panic!("{f:?} not encodable"));
        assert_eq!(n, size, "{f:?}");
        u128::from_le_bytes(b) & mask(8 * size as u8)
    }
    fn uint(f: DXGI_FORMAT, v: [u32; 4], size: usize) -> u128 {
        let (b, n) = encode_uint(f, v).unwrap();
        assert_eq!(n, size, "{f:?}");
        u128::from_le_bytes(b) & mask(8 * size as u8)
    }
    fn h(x: f32) -> u128 {
        color(DXGI_FORMAT_R16_FLOAT, [x, 0.0, 0.0, 0.0], 2)
    }

    #[test]
    fn uav_float_clears_integer_views_with_truncated_saturated_values() {
        let one = |f: DXGI_FORMAT, x: f32, size: usize| {
            let (b, n) = encode_uav_float(f, [x, 0.0, 0.0, 0.0]).unwrap_or_else(|| panic!("{f:?} refused"));
            assert_eq!(n, size, "{f:?}");
            u128::from_le_bytes(b) & mask(8 * size as u8)
        };
        // Toward zero; negatives clamp to 0 as UINT, keep their integer part as SINT.
        assert_eq!(one(DXGI_FORMAT_R32_UINT, 3.7, 4), 3);
        assert_eq!(one(DXGI_FORMAT_R32_UINT, -1.5, 4), 0);
        assert_eq!(one(DXGI_FORMAT_R32_SINT, -1.5, 4), 0xFFFF_FFFF);
        assert_eq!(one(DXGI_FORMAT_R32_SINT, -7.9, 4), (-7i32) as u32 as u128);
        assert_eq!(one(DXGI_FORMAT_R32_SINT, 2.5, 4), 2);
        // Out of range and INF clamp; NaN is 0.
        assert_eq!(one(DXGI_FORMAT_R32_UINT, 5e9, 4), 0xFFFF_FFFF);
        assert_eq!(one(DXGI_FORMAT_R32_UINT, f32::INFINITY, 4), 0xFFFF_FFFF);
        assert_eq!(one(DXGI_FORMAT_R32_SINT, -3e9, 4), 0x8000_0000);
        assert_eq!(one(DXGI_FORMAT_R32_SINT, 3e9, 4), 0x7FFF_FFFF);
        assert_eq!(one(DXGI_FORMAT_R32_SINT, f32::NAN, 4), 0);
        assert_eq!(one(DXGI_FORMAT_R16_UINT, 70000.0, 2), 0xFFFF);
        assert_eq!(one(DXGI_FORMAT_R8_SINT, -200.0, 1), 0x80);
        // Four channels of RGBA8_UINT: 1.9 → 1, 255.5 → 255, 300 → 255, −3 → 0.
        let (b, n) = encode_uav_float(DXGI_FORMAT_R8G8B8A8_UINT, [1.9, 255.5, 300.0, -3.0]).unwrap();
        assert_eq!(&b[..n], &[1, 255, 255, 0]);
        // Still refused: raw and structured views, shared exponent.
        assert_eq!(encode_uav_float(DXGI_FORMAT_R32_TYPELESS, [1.0; 4]), None);
        assert_eq!(encode_uav_float(DXGI_FORMAT_UNKNOWN, [1.0; 4]), None);
        assert_eq!(encode_uav_float(DXGI_FORMAT_R9G9B9E5_SHAREDEXP, [1.0; 4]), None);
    }

    #[test]
    fn lanes_keep_integers_exact_and_floats_as_bits() {
        let u = 0xFFFF_FFFEu32.to_le_bytes();
        assert_eq!(decode_lanes(DXGI_FORMAT_R32_UINT, &u), Some([0xFFFF_FFFE, 0, 0, 1]));
        assert_eq!(decode_lanes(DXGI_FORMAT_R8G8_SINT, &[0x80, 0x7F]), Some([(-128i32) as u32, 127, 0, 1]));
        assert_eq!(
            decode_lanes(DXGI_FORMAT_R8G8B8A8_UNORM, &[255, 0, 0, 255]),
            Some([1.0f32.to_bits(), 0, 0, 1.0f32.to_bits()])
        );
        assert_eq!(decode_lanes(DXGI_FORMAT_R32G32_FLOAT, &[0; 8]), Some([0, 0, 0, 1.0f32.to_bits()]));
        assert_eq!(decode_lanes(DXGI_FORMAT_R32_UINT, &[1, 2]), None, "too few bytes");
    }

    #[test]
    fn out_of_range_lanes_are_zero_in_the_formats_components_and_defaults_elsewhere() {
        let one = 1.0f32.to_bits();
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_R32_FLOAT), [0, 0, 0, one]);
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_R32G32_UINT), [0, 0, 0, 1]);
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_R16_SNORM), [0, 0, 0, one]);
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_R11G11B10_FLOAT), [0, 0, 0, one]);
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_R8G8B8A8_UINT), [0; 4]);
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_R32G32B32A32_FLOAT), [0; 4]);
        assert_eq!(out_of_range_lanes(DXGI_FORMAT_UNKNOWN), [0; 4]);
    }

    #[test]
    fn pack_sizes_match_format_table() {
        for v in 0..200u32 {
            let f = DXGI_FORMAT(v);
            if let Some((_, n)) = encode_color(f, [0.0; 4]) {
                let info = format::info(f).unwrap();
                assert_eq!(n as u32, info.bytes_per_element(), "{}", info.name);
                assert!(!info.is_typeless() && !info.is_depth_stencil() && !info.is_video(), "{}", info.name);
                assert!(encode_uint(f, [0; 4]).is_some() || f == DXGI_FORMAT_R9G9B9E5_SHAREDEXP);
                assert!(decode_color(f, &[0; 16]).is_some());
            }
        }
        let (_, n) = encode_color(DXGI_FORMAT_A4B4G4R4_UNORM, [0.0; 4]).unwrap();
        assert_eq!(n, 2);
    }

    #[test]
    fn pack_unencodable_formats() {
        for f in [
            DXGI_FORMAT_UNKNOWN,
            DXGI_FORMAT_R8G8B8A8_TYPELESS,
            DXGI_FORMAT_R32_TYPELESS,
            DXGI_FORMAT_BC1_UNORM,
            DXGI_FORMAT_BC7_UNORM_SRGB,
            DXGI_FORMAT_NV12,
            DXGI_FORMAT_YUY2,
            DXGI_FORMAT_D24_UNORM_S8_UINT,
            DXGI_FORMAT_D32_FLOAT,
            DXGI_FORMAT_D16_UNORM,
            DXGI_FORMAT_R24_UNORM_X8_TYPELESS,
            DXGI_FORMAT_R1_UNORM,
            DXGI_FORMAT_R8G8_B8G8_UNORM,
            DXGI_FORMAT_R10G10B10_XR_BIAS_A2_UNORM,
        ] {
            assert!(encode_color(f, [1.0; 4]).is_none(), "{f:?}");
            assert!(decode_color(f, &[0; 16]).is_none(), "{f:?}");
        }
        assert!(encode_uint(DXGI_FORMAT_BC1_UNORM, [1; 4]).is_none());
        assert!(encode_uint(DXGI_FORMAT_D32_FLOAT, [1; 4]).is_none());
        assert!(encode_uint(DXGI_FORMAT_R9G9B9E5_SHAREDEXP, [1; 4]).is_none());
    }

    #[test]
    fn pack_unorm8() {
        let f = DXGI_FORMAT_R8G8B8A8_UNORM;
        // 0.5·255 = 127.5, + 0.5 → 128 (round half up); 0.25·255 = 63.75 → 64.
        assert_eq!(color(f, [0.5, 0.0, 1.0, 0.25], 4), 0x40ff_0080);
        // Clamp, NaN → 0, INF → 1.
        assert_eq!(color(f, [-1.0, 2.0, f32::NAN, f32::INFINITY], 4), 0xff00_ff00);
        // 0.1 → 25.5000004 → 26; 0.3 → 76.5000030 → 77; 0.75 → 191.25 → 191.
        assert_eq!(color(f, [0.1, 0.5, 0.3, 0.75], 4), 0xbf4d_801a);
        // UAV float clear, vkd3d-proton crosstest: (0.5 + ε, 1, 0, 0) → 0x0000ff80.
        assert_eq!(color(f, [f32::from_bits(0x3f00_0080), 1.0, 0.0, 0.0], 4), 0x0000_ff80);
        assert_eq!(color(DXGI_FORMAT_R8_UNORM, [1.0 / 255.0, 0.0, 0.0, 0.0], 1), 1);
        assert_eq!(color(DXGI_FORMAT_R8G8_UNORM, [0.0, 1.0, 0.0, 0.0], 2), 0xff00);
        assert_eq!(color(DXGI_FORMAT_A8_UNORM, [1.0, 1.0, 1.0, 0.5], 1), 0x80);
    }

    #[test]
    fn pack_unorm16_and_packed() {
        // vkd3d-proton: R16G16_UNORM (0.50000763, 1.0) → 0xffff8000; (2, 0) → 0x0000ffff.
        assert_eq!(color(DXGI_FORMAT_R16G16_UNORM, [f32::from_bits(0x3f00_0080), 1.0, 0.0, 0.0], 4), 0xffff_8000);
        assert_eq!(color(DXGI_FORMAT_R16G16_UNORM, [2.0, 0.0, 0.0, 0.0], 4), 0x0000_ffff);
        assert_eq!(color(DXGI_FORMAT_R16G16_UNORM, [-1.0, 0.0, 0.5, 0.5], 4), 0);
        assert_eq!(color(DXGI_FORMAT_R16_UNORM, [0.5, 0.0, 0.0, 0.0], 2), 0x8000);
        assert_eq!(color(DXGI_FORMAT_R16G16B16A16_UNORM, [0.0, 1.0, 0.0, 1.0], 8), 0xffff_0000_ffff_0000);
        // R10G10B10A2: 0.50048876·1023 = 512 → R 0x200, G 0x3ff, A 3.
        assert_eq!(color(DXGI_FORMAT_R10G10B10A2_UNORM, [f32::from_bits(0x3f00_2008), 1.0, 0.0, 1.0], 4), 0xc00f_fe00);
        assert_eq!(color(DXGI_FORMAT_R10G10B10A2_UNORM, [0.0, 0.0, 1.0, 0.5], 4), 0xbff0_0000);
        // B5G6R5: B bits 0–4, G 5–10, R 11–15.
        assert_eq!(color(DXGI_FORMAT_B5G6R5_UNORM, [1.0, 0.0, 0.0, 0.0], 2), 0xf800);
        assert_eq!(color(DXGI_FORMAT_B5G6R5_UNORM, [0.0, 1.0, 0.0, 0.0], 2), 0x07e0);
        assert_eq!(color(DXGI_FORMAT_B5G6R5_UNORM, [0.0, 0.0, 1.0, 0.0], 2), 0x001f);
        // B5G5R5A1: A bit 15 (0.5 → round half up → 1).
        assert_eq!(color(DXGI_FORMAT_B5G5R5A1_UNORM, [1.0, 0.0, 0.0, 0.5], 2), 0xfc00);
        assert_eq!(color(DXGI_FORMAT_B5G5R5A1_UNORM, [0.0, 0.0, 1.0, 0.4], 2), 0x001f);
        // B4G4R4A4: B 0–3, G 4–7, R 8–11, A 12–15; A4B4G4R4: A 0–3 … R 12–15.
        assert_eq!(color(DXGI_FORMAT_B4G4R4A4_UNORM, [1.0, 0.0, 0.2, 0.0], 2), 0x0f03);
        assert_eq!(color(DXGI_FORMAT_B4G4R4A4_UNORM, [0.0, 1.0, 0.0, 1.0], 2), 0xf0f0);
        assert_eq!(color(DXGI_FORMAT_A4B4G4R4_UNORM, [1.0, 0.0, 0.2, 0.0], 2), 0xf030);
        assert_eq!(color(DXGI_FORMAT_A4B4G4R4_UNORM, [0.0, 1.0, 0.0, 1.0], 2), 0x0f0f);
    }

    #[test]
    fn pack_bgra_order() {
        let (b, n) = encode_color(DXGI_FORMAT_B8G8R8A8_UNORM, [1.0, 0.5, 0.0, 0.25]).unwrap();
        assert_eq!(&b[..n], &[0x00, 0x80, 0xff, 0x40]);
        // vkd3d-proton: (0, 0, 0.5 + ε, 1) → 0xff000080.
        assert_eq!(color(DXGI_FORMAT_B8G8R8A8_UNORM, [0.0, 0.0, f32::from_bits(0x3f00_0080), 1.0], 4), 0xff00_0080);
        // X8 holds the alpha conversion.
        assert_eq!(color(DXGI_FORMAT_B8G8R8X8_UNORM, [1.0, 0.0, 0.0, 1.0], 4), 0xffff_0000);
        let (b, _) = encode_color(DXGI_FORMAT_B8G8R8A8_UNORM_SRGB, [0.5, 0.0, 0.0, 0.5]).unwrap();
        assert_eq!(&b[..4], &[0, 0, 188, 128]);
    }

    #[test]
    fn pack_snorm() {
        let f = DXGI_FORMAT_R8G8B8A8_SNORM;
        // −1 → −127 (0x81, not 0x80); −0.5·127 = −63.5 → −64 (0xc0); 0.5 → 64; 1 → 127.
        assert_eq!(color(f, [-1.0, -0.5, 0.5, 1.0], 4), 0x7f40_c081);
        assert_eq!(color(f, [-2.0, f32::NAN, f32::NEG_INFINITY, 0.0], 4), 0x0081_0081);
        assert_eq!(color(f, [-0.0, 0.25, -0.25, 0.0], 4), 0x00e0_2000);
        // R16G16_SNORM: −1 → 0x8001, 0.5·32767 = 16383.5 → 16384.
        assert_eq!(color(DXGI_FORMAT_R16G16_SNORM, [-1.0, 0.5, 0.0, 0.0], 4), 0x4000_8001);
        assert_eq!(color(DXGI_FORMAT_R16_SNORM, [1.0, 0.0, 0.0, 0.0], 2), 0x7fff);
        assert_eq!(color(DXGI_FORMAT_R8_SNORM, [-1.0 / 127.0, 0.0, 0.0, 0.0], 1), 0xff);
    }

    #[test]
    fn pack_srgb() {
        let f = DXGI_FORMAT_R8G8B8A8_UNORM_SRGB;
        // Linear 0.5 → 0.735357·255 = 187.52 → 188; alpha stays linear (0.5 → 128).
        assert_eq!(color(f, [0.5, 0.0, 1.0, 0.5], 4), 0x80ff_00bc);
        // vkd3d-proton ClearRenderTargetView: (0.1, 0.5, 0.3, 0.75) → 0xbf95bc59.
        assert_eq!(color(f, [0.1, 0.5, 0.3, 0.75], 4), 0xbf95_bc59);
        // Linear segment: 0.001·12.92·255 = 3.29 → 3.
        assert_eq!(color(f, [0.001, f32::NAN, -1.0, 2.0], 4), 0xff00_0003);
        assert_eq!(color(DXGI_FORMAT_B8G8R8X8_UNORM_SRGB, [0.5, 0.5, 0.5, 1.0], 4), 0xffbc_bcbc);
    }

    #[test]
    fn pack_float16() {
        assert_eq!(h(1.0), 0x3c00);
        assert_eq!(h(-2.0), 0xc000);
        assert_eq!(h(0.5), 0x3800);
        assert_eq!(h(65504.0), 0x7bff);
        // Round toward zero (§3.2.2): 65520 and anything finite beyond → max finite, not INF.
        assert_eq!(h(65520.0), 0x7bff);
        assert_eq!(h(1.0e9), 0x7bff);
        assert_eq!(h(-1.0e9), 0xfbff);
        assert_eq!(h(f32::INFINITY), 0x7c00);
        assert_eq!(h(f32::NEG_INFINITY), 0xfc00);
        // 0.1 = 0x2e66.66… → truncated to 0x2e66; 1 + 2^-11 + 2^-12 truncates to 1.0.
        assert_eq!(h(0.1), 0x2e66);
        assert_eq!(h(1.0 + 2f32.powi(-11) + 2f32.powi(-12)), 0x3c00);
        // Denormals: 2^-24 is the smallest; 1e-7 = 1.68·2^-24 → 0x0001; 2^-15 → 0x0200.
        assert_eq!(h(2f32.powi(-24)), 0x0001);
        assert_eq!(h(1.0e-7), 0x0001);
        assert_eq!(h(2f32.powi(-15)), 0x0200);
        assert_eq!(h(2f32.powi(-14)), 0x0400);
        assert_eq!(h(-2f32.powi(-16)), 0x8100);
        assert_eq!(h(1.0e-8), 0x0000);
        assert_eq!(h(-1.0e-8), 0x8000);
        assert_eq!(h(-0.0), 0x8000);
        // f32 denormal inputs are flushed by the runtime (sign kept).
        assert_eq!(h(1.0e-40), 0x0000);
        assert_eq!(h(-1.0e-40), 0x8000);
        // NaN stays NaN (sign kept).
        let n = h(f32::NAN) as u16;
        assert!(n & 0x7c00 == 0x7c00 && n & 0x3ff != 0, "{n:#x}");
        let n = h(-f32::NAN) as u16;
        assert!(n & 0xfc00 == 0xfc00 && n & 0x3ff != 0, "{n:#x}");
        let n = h(f32::from_bits(0x7f80_0001)) as u16; // signalling NaN with a low payload
        assert!(n & 0x7c00 == 0x7c00 && n & 0x3ff != 0, "{n:#x}");
        // vkd3d-proton: R16G16_FLOAT (0.5, 1.0) → 0x3c003800.
        assert_eq!(color(DXGI_FORMAT_R16G16_FLOAT, [0.5, 1.0, 0.0, 0.0], 4), 0x3c00_3800);
        assert_eq!(color(DXGI_FORMAT_R16G16B16A16_FLOAT, [1.0, -1.0, 0.0, 65504.0], 8), 0x7bff_0000_bc00_3c00);
    }

    #[test]
    fn pack_float16_roundtrips_every_half() {
        for v in 0..=0xffffu32 {
            let x = small_float_to_f32(v, 10, true);
            let back = f32_to_f16(x) as u32;
            if x.is_nan() {
                assert!(back & 0x7c00 == 0x7c00 && back & 0x3ff != 0 && back & 0x8000 == v & 0x8000);
            } else {
                assert_eq!(back, v, "{v:#x} {x}");
            }
        }
    }

    #[test]
    fn pack_float32() {
        assert_eq!(color(DXGI_FORMAT_R32_FLOAT, [1.5, 0.0, 0.0, 0.0], 4), 0x3fc0_0000);
        assert_eq!(color(DXGI_FORMAT_R32_FLOAT, [-0.0, 0.0, 0.0, 0.0], 4), 0x8000_0000);
        assert_eq!(color(DXGI_FORMAT_R32_FLOAT, [1.0e-40, 0.0, 0.0, 0.0], 4), 0);
        assert_eq!(color(DXGI_FORMAT_R32_FLOAT, [f32::INFINITY, 0.0, 0.0, 0.0], 4), 0x7f80_0000);
        assert_eq!(color(DXGI_FORMAT_R32_FLOAT, [f32::from_bits(0x7fc1_2345), 0.0, 0.0, 0.0], 4), 0x7fc1_2345);
        let v = color(DXGI_FORMAT_R32G32B32A32_FLOAT, [1.0, 2.0, -3.0, 0.25], 16);
        assert_eq!(v, 0x3e80_0000_c040_0000_4000_0000_3f80_0000);
        let v = color(DXGI_FORMAT_R32G32B32_FLOAT, [1.0, 2.0, -3.0, 0.25], 12);
        assert_eq!(v, 0xc040_0000_4000_0000_3f80_0000);
        assert_eq!(color(DXGI_FORMAT_R32G32_FLOAT, [1.0, 2.0, 9.0, 9.0], 8), 0x4000_0000_3f80_0000);
    }

    #[test]
    fn pack_r11g11b10() {
        let f = DXGI_FORMAT_R11G11B10_FLOAT;
        // vkd3d-proton: (0.5, 1, 2) → 0x801e0380; (0.5, 0, −1) → 0x00000380.
        assert_eq!(color(f, [0.5, 1.0, 2.0, 0.0], 4), 0x801e_0380);
        assert_eq!(color(f, [0.5, 0.0, -1.0, 1.0], 4), 0x0000_0380);
        // Max finite: f11 0x7bf = 65024, f10 0x3df = 64512; RTZ saturates to them.
        assert_eq!(color(f, [65024.0, 1.0e9, 64512.0, 0.0], 4), (0x3df << 22) | (0x7bf << 11) | 0x7bf);
        assert_eq!(color(f, [f32::INFINITY, f32::NEG_INFINITY, f32::INFINITY, 0.0], 4), (0x3e0 << 22) | 0x7c0);
        assert_eq!(color(f, [f32::NAN, 0.0, f32::NAN, 0.0], 4), (0x3ff << 22) | 0x7ff);
        // Truncation: 1 + 2^-7 → 1.0 in float11 (6 mantissa bits) …
        assert_eq!(color(f, [1.0 + 2f32.powi(-7), 0.0, 0.0, 0.0], 4), 0x3c0);
        // … denormals: 2^-20 is the smallest float11, 2^-19 the smallest float10.
        assert_eq!(color(f, [2f32.powi(-20), 0.0, 2f32.powi(-19), 0.0], 4), (1 << 22) | 1);
        assert_eq!(color(f, [2f32.powi(-21), 0.0, 2f32.powi(-20), 0.0], 4), 0);
        for v in 0..0x800u32 {
            let x = small_float_to_f32(v, 6, false);
            if !x.is_nan() {
                assert_eq!(f32_to_ufloat(x, 6), v, "f11 {v:#x}");
            }
            if v < 0x400 && !small_float_to_f32(v, 5, false).is_nan() {
                assert_eq!(f32_to_ufloat(small_float_to_f32(v, 5, false), 5), v, "f10 {v:#x}");
            }
        }
    }

    #[test]
    fn pack_rgb9e5() {
        let f = DXGI_FORMAT_R9G9B9E5_SHAREDEXP;
        // 1.0 = 0.100000000b · 2^(16−15): mantissa 256, exponent 16.
        assert_eq!(color(f, [1.0, 0.0, 0.0, 0.0], 4), 0x8000_0100);
        // The spec's example: 0x999320c8 ↔ (6.25, 12.5, 3.125).
        assert_eq!(color(f, [6.25, 12.5, 3.125, 0.0], 4), 0x9993_20c8);
        assert_eq!(decode_color(f, &0x9993_20c8u32.to_le_bytes()), Some([6.25, 12.5, 3.125, 1.0]));
        // Saturation to 65408 (mantissa 511, exponent 31); negatives and NaN → 0.
        assert_eq!(color(f, [1.0e9, -1.0, f32::NAN, 0.0], 4), 0xf800_01ff);
        assert_eq!(color(f, [f32::INFINITY, 0.0, 0.0, 0.0], 4), 0xf800_01ff);
        assert_eq!(color(f, [0.0, 0.0, 0.0, 0.0], 4), 0);
        // Mantissa rounding overflow bumps the exponent: 1.999 → 512/512·2^1 → 256 at exp 17.
        assert_eq!(color(f, [1.9995, 0.0, 0.0, 0.0], 4), (17 << 27) | 256);
    }

    #[test]
    fn pack_integers_from_float() {
        // vkd3d-proton ClearRenderTargetView crosstests (native D3D12 results).
        let u8x4 = DXGI_FORMAT_R8G8B8A8_UINT;
        assert_eq!(color(u8x4, [0.0, 1.0, 0.0, 1.0], 4), 0x0100_0100);
        assert_eq!(color(u8x4, [0.1, 0.5, 0.3, 0.75], 4), 0);
        assert_eq!(color(u8x4, [1.0, -1.0, -0.5, -2.0], 4), 0x0000_0001);
        let s8x4 = DXGI_FORMAT_R8G8B8A8_SINT;
        assert_eq!(color(s8x4, [0.0, 1.0, 0.0, 1.0], 4), 0x0100_0100);
        assert_eq!(color(s8x4, [0.1, 0.5, 0.3, 0.75], 4), 0);
        assert_eq!(color(s8x4, [1.0, -1.0, -0.5, -2.0], 4), 0xfe00_ff01);
        assert_eq!(color(DXGI_FORMAT_R16G16B16A16_UINT, [1.0, -1.0, -0.5, -2.0], 8), 1);
        assert_eq!(color(DXGI_FORMAT_R16G16B16A16_SINT, [1.0, -1.0, -0.5, -2.0], 8), 0xfffe_0000_ffff_0001);
        // Clamping to the channel range.
        assert_eq!(color(DXGI_FORMAT_R8_UINT, [300.7, 0.0, 0.0, 0.0], 1), 255);
        assert_eq!(color(DXGI_FORMAT_R8_SINT, [300.0, 0.0, 0.0, 0.0], 1), 0x7f);
        assert_eq!(color(DXGI_FORMAT_R8_SINT, [-300.0, 0.0, 0.0, 0.0], 1), 0x80);
        assert_eq!(color(DXGI_FORMAT_R8G8_SINT, [f32::NAN, f32::NEG_INFINITY, 0.0, 0.0], 2), 0x8000);
        assert_eq!(color(DXGI_FORMAT_R16_UINT, [65535.9, 0.0, 0.0, 0.0], 2), 0xffff);
        assert_eq!(color(DXGI_FORMAT_R32_UINT, [5.0e9, 0.0, 0.0, 0.0], 4), 0xffff_ffff);
        assert_eq!(color(DXGI_FORMAT_R32_UINT, [16777216.0, 0.0, 0.0, 0.0], 4), 16777216);
        assert_eq!(color(DXGI_FORMAT_R32_SINT, [-3.0e9, 0.0, 0.0, 0.0], 4), 0x8000_0000);
        assert_eq!(color(DXGI_FORMAT_R32_SINT, [-7.9, 0.0, 0.0, 0.0], 4), (-7i32) as u32 as u128);
        assert_eq!(color(DXGI_FORMAT_R32G32_SINT, [f32::INFINITY, -1.0, 0.0, 0.0], 8), 0xffff_ffff_7fff_ffff);
        assert_eq!(color(DXGI_FORMAT_R10G10B10A2_UINT, [1023.0, 2000.0, 1.0, 3.0], 4), 0xc01f_ffff);
        assert_eq!(color(DXGI_FORMAT_R32G32B32A32_UINT, [1.0, 2.0, 3.0, 4.0], 16), 0x4_0000_0003_0000_0002_0000_0001);
    }

    #[test]
    fn pack_uint_clears_copy_low_bits() {
        // vkd3d-proton ClearUnorderedAccessViewUint crosstests.
        assert_eq!(uint(DXGI_FORMAT_R32_UINT, [5, 9, 9, 9], 4), 5);
        assert_eq!(uint(DXGI_FORMAT_R32_FLOAT, [1, 0, 0, 0], 4), 1);
        assert_eq!(uint(DXGI_FORMAT_R32_FLOAT, [0x3f80_0000, 0, 0, 0], 4), 0x3f80_0000);
        assert_eq!(uint(DXGI_FORMAT_R16G16_UINT, [0x1234, 0xabcd, 0, 0], 4), 0xabcd_1234);
        assert_eq!(uint(DXGI_FORMAT_R16G16_UINT, [0x10000, 0, 0, 0], 4), 0);
        assert_eq!(uint(DXGI_FORMAT_R16G16_UINT, [0x12345, 0, 0, 0], 4), 0x2345);
        assert_eq!(uint(DXGI_FORMAT_R16G16_UNORM, [0x1234, 0xabcd, 0, 0], 4), 0xabcd_1234);
        assert_eq!(uint(DXGI_FORMAT_R16G16_FLOAT, [1, 2, 3, 4], 4), 0x0002_0001);
        assert_eq!(uint(DXGI_FORMAT_R8G8B8A8_UINT, [0x11, 0x22, 0x33, 0x44], 4), 0x4433_2211);
        assert_eq!(uint(DXGI_FORMAT_R8G8B8A8_UINT, [0x123, 0, 0, 0], 4), 0x23);
        assert_eq!(uint(DXGI_FORMAT_R8G8B8A8_UNORM, [1, 2, 3, 4], 4), 0x0403_0201);
        assert_eq!(uint(DXGI_FORMAT_B8G8R8A8_UNORM, [1, 2, 3, 4], 4), 0x0401_0203);
        assert_eq!(uint(DXGI_FORMAT_R11G11B10_FLOAT, [0x7ff, 0x7ff, 0x3ff, 0], 4), 0xffff_ffff);
        assert_eq!(uint(DXGI_FORMAT_R11G11B10_FLOAT, [0x7ff, 0, 0x3ff, 0], 4), 0xffc0_07ff);
        assert_eq!(uint(DXGI_FORMAT_R11G11B10_FLOAT, [1, 2, 3, 4], 4), 0x00c0_1001);
        assert_eq!(
            uint(DXGI_FORMAT_R10G10B10A2_UINT, [0x1010, 0x1020, 0x1030, 0x41], 4),
            (0x30 << 20) | (0x20 << 10) | 0x10 | (1 << 30)
        );
        assert_eq!(
            uint(DXGI_FORMAT_R10G10B10A2_UNORM, [0x1010, 0x1020, 0x1030, 0x41], 4),
            (0x30 << 20) | (0x20 << 10) | 0x10 | (1 << 30)
        );
        assert_eq!(uint(DXGI_FORMAT_R8_SINT, [0xffff_ffff, 0, 0, 0], 1), 0xff);
        assert_eq!(uint(DXGI_FORMAT_A8_UNORM, [1, 2, 3, 4], 1), 4);
        assert_eq!(uint(DXGI_FORMAT_B5G6R5_UNORM, [0x1f, 0, 0, 0], 2), 0xf800);
        assert_eq!(
            uint(DXGI_FORMAT_R32G32B32A32_SINT, [1, 2, 3, u32::MAX], 16),
            0xffff_ffff_0000_0003_0000_0002_0000_0001
        );
        // Raw and structured buffer views: the first value's 32 bits.
        assert_eq!(uint(DXGI_FORMAT_R32_TYPELESS, [!0, 1, 1, 1], 4), 0xffff_ffff);
        assert_eq!(uint(DXGI_FORMAT_R32_TYPELESS, [9, 1, 1, 1], 4), 9);
        assert_eq!(uint(DXGI_FORMAT_UNKNOWN, [0xdead_beef, 1, 1, 1], 4), 0xdead_beef);
    }

    #[test]
    fn pack_depth() {
        let d = |f: DXGI_FORMAT, v: f32, size: usize| {
            let (b, n) = encode_depth(f, v).unwrap();
            assert_eq!(n, size);
            u128::from_le_bytes(b) & mask(8 * size as u8)
        };
        // 0.5·65535 = 32767.5, + 0.5 → 32768.
        assert_eq!(d(DXGI_FORMAT_D16_UNORM, 0.5, 2), 0x8000);
        assert_eq!(d(DXGI_FORMAT_D16_UNORM, 1.0, 2), 0xffff);
        assert_eq!(d(DXGI_FORMAT_D16_UNORM, 2.0, 2), 0xffff);
        assert_eq!(d(DXGI_FORMAT_D16_UNORM, -1.0, 2), 0);
        assert_eq!(d(DXGI_FORMAT_D16_UNORM, f32::NAN, 2), 0);
        // D24 in the 32-bit R32_TYPELESS plane-0 element, top byte 0.
        assert_eq!(d(DXGI_FORMAT_D24_UNORM_S8_UINT, 1.0, 4), 0x00ff_ffff);
        assert_eq!(d(DXGI_FORMAT_D24_UNORM_S8_UINT, 0.5, 4), 0x0080_0000);
        assert_eq!(d(DXGI_FORMAT_D24_UNORM_S8_UINT, 0.0, 4), 0);
        assert_eq!(d(DXGI_FORMAT_D32_FLOAT, 0.75, 4), 0x3f40_0000);
        assert_eq!(d(DXGI_FORMAT_D32_FLOAT, 1.5, 4), 0x3f80_0000);
        assert_eq!(d(DXGI_FORMAT_D32_FLOAT, -0.0, 4), 0);
        assert_eq!(d(DXGI_FORMAT_D32_FLOAT, -1.0e-40, 4), 0);
        assert_eq!(d(DXGI_FORMAT_D32_FLOAT, f32::NAN, 4), 0);
        assert_eq!(d(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 0.1, 4), 0.1f32.to_bits() as u128);
        for f in [DXGI_FORMAT_R24G8_TYPELESS, DXGI_FORMAT_R32_FLOAT, DXGI_FORMAT_R24_UNORM_X8_TYPELESS] {
            assert!(encode_depth(f, 0.5).is_none());
            assert!(encode_stencil(f, 1).is_none());
        }
        assert_eq!(encode_stencil(DXGI_FORMAT_D24_UNORM_S8_UINT, 0xa5).map(|(b, n)| (b[0], n)), Some((0xa5, 1)));
        assert_eq!(encode_stencil(DXGI_FORMAT_D32_FLOAT_S8X24_UINT, 7).map(|(b, n)| (b[0], n)), Some((7, 1)));
        assert!(encode_stencil(DXGI_FORMAT_D16_UNORM, 1).is_none());
        assert!(encode_stencil(DXGI_FORMAT_D32_FLOAT, 1).is_none());
    }

    #[test]
    fn pack_depth_sizes_match_planes() {
        for f in [
            DXGI_FORMAT_D16_UNORM,
            DXGI_FORMAT_D32_FLOAT,
            DXGI_FORMAT_D24_UNORM_S8_UINT,
            DXGI_FORMAT_D32_FLOAT_S8X24_UINT,
        ] {
            let info = format::info(f).unwrap();
            let plane_bytes =
                |p: u32| format::info(info.plane(p).unwrap().format).unwrap().bytes_per_element() as usize;
            assert_eq!(encode_depth(f, 0.0).unwrap().1, plane_bytes(0), "{}", info.name);
            if let Some((_, n)) = encode_stencil(f, 0) {
                assert_eq!(n, plane_bytes(1), "{}", info.name);
            } else {
                assert_eq!(info.plane_count, 1);
            }
        }
    }

    #[test]
    fn pack_decode_roundtrips() {
        // Data invertibility (§19.1.2): every code of these formats survives decode → encode.
        for f in [
            DXGI_FORMAT_R8_UNORM,
            DXGI_FORMAT_R8_SNORM,
            DXGI_FORMAT_R8_UINT,
            DXGI_FORMAT_R8_SINT,
            DXGI_FORMAT_A8_UNORM,
            DXGI_FORMAT_R8G8B8A8_UNORM_SRGB,
            DXGI_FORMAT_R16_UNORM,
            DXGI_FORMAT_R16_SNORM,
            DXGI_FORMAT_R16_SINT,
            DXGI_FORMAT_B5G6R5_UNORM,
            DXGI_FORMAT_B4G4R4A4_UNORM,
        ] {
            let (_, n) = encode_color(f, [0.0; 4]).unwrap();
            let codes: u32 = if n == 1 { 0x100 } else { 0x1_0000 };
            for v in 0..codes {
                // The most negative SNORM code is the second −1.0 encoding.
                if (f == DXGI_FORMAT_R8_SNORM && v == 0x80) || (f == DXGI_FORMAT_R16_SNORM && v == 0x8000) {
                    continue;
                }
                let bytes = v.to_le_bytes();
                let c = decode_color(f, &bytes).unwrap();
                let (back, _) = encode_color(f, c).unwrap();
                // Only the bytes that carry channels (R8G8B8A8_SRGB: check R through the first byte).
                assert_eq!(&back[..n.min(2)], &bytes[..n.min(2)], "{f:?} {v:#x} {c:?}");
            }
        }
        assert_eq!(decode_color(DXGI_FORMAT_R8_SNORM, &[0x80]), Some([-1.0, 0.0, 0.0, 1.0]));
        assert_eq!(decode_color(DXGI_FORMAT_R8_SNORM, &[0x81]), Some([-1.0, 0.0, 0.0, 1.0]));
        assert_eq!(decode_color(DXGI_FORMAT_R8G8_UINT, &[7, 9]), Some([7.0, 9.0, 0.0, 1.0]));
        assert_eq!(decode_color(DXGI_FORMAT_B8G8R8A8_UNORM, &[0, 0, 255, 255]), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(decode_color(DXGI_FORMAT_R16_FLOAT, &[0x00, 0x3c]), Some([1.0, 0.0, 0.0, 1.0]));
        assert_eq!(
            decode_color(DXGI_FORMAT_R11G11B10_FLOAT, &0x801e_0380u32.to_le_bytes()),
            Some([0.5, 1.0, 2.0, 1.0])
        );
        assert!(decode_color(DXGI_FORMAT_R32G32_FLOAT, &[0; 7]).is_none());
    }
}
