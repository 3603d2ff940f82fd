//! The names of PIX events and markers (BeginEvent / SetMarker's Metadata, pData and Size), as
//! Microsoft's WinPixEventRuntime headers (pix3.h, PIXEventsCommon.h, PIXEventsLegacy.h,
//! PIXEvents.h of microsoft/PixEvents) define them:
//!
//! - Metadata 0, WINPIX_EVENT_UNICODE_VERSION: a wide string (pix.h of the Windows SDK).
//!   `wchar_t` is 4 bytes on Linux and 2 on Windows: UTF-32 when the bytes read as such, else
//!   UTF-16.
//! - Metadata 1, WINPIX_EVENT_ANSI_VERSION: a `char` string.
//! - Metadata 2, WINPIX_EVENT_PIX3BLOB_VERSION (D3D12_EVENT_METADATA, what PIXBeginEvent on a
//!   command list or queue passes): UINT64 words; word 0 the event info (type in bits 10..19:
//!   0x001/0x002 BeginEvent with / without arguments, 0x007/0x008 SetMarker, 0x01x the same "on
//!   context", which carry one more word, the context, on Xbox), word 1 the colour, then the
//!   format string: a string-info word (bit 54 ANSI, bits 55..59 the copy chunk size) and the
//!   characters packed 8 (ANSI) or 4 (UTF-16) to a word, NUL-terminated; then one word per
//!   argument (strings as another string-info word and characters).
//! - Metadata 6345127, WINPIX_EVENT_PIX3BLOB_V2: word 0 the V2 event info (size in bits 0..6,
//!   type in 7..11, metadata in 12..19: 0x1 on context, 0x2 ANSI string, 0xF0 a colour word
//!   follows), the colour word, the context word when on context (not on Xbox), then the format
//!   string's characters without a string-info word, then the arguments.
//!
//! Format strings with arguments are formatted for the printf conversions `d i u x X o c s f
//! F e E g G p %` (flags, width and precision kept); anything that does not decode as above is
//! shown as its raw bytes in hex (`raw:0102...`), never trusted further than its size.

const UNICODE: u32 = 0;
const ANSI: u32 = 1;
const PIX3BLOB: u32 = 2;
const PIX3BLOB_V2: u32 = 6_345_127;

/// The text to show for an event or marker.
pub fn decode(metadata: u32, data: &[u8]) -> String {
    let text = match metadata {
        ANSI => Some(ansi(data)),
        UNICODE => wide(data),
        PIX3BLOB => blob_v1(data),
        PIX3BLOB_V2 => blob_v2(data),
        _ => None,
    };
    text.unwrap_or_else(|| raw(data))
}

/// `raw:` and the bytes in hex (the first 256).
pub fn raw(data: &[u8]) -> String {
    let mut s = String::from("raw:");
    for b in data.iter().take(256) {
        s.push_str(&format!("{b:02x}"));
    }
    if data.len() > 256 {
        s.push_str(&format!("...({} bytes)", data.len()));
    }
    s
}

/// A `char` string: up to the first NUL (or the size), bytes as Latin-1 where not UTF-8.
fn ansi(data: &[u8]) -> String {
    let end = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    match std::str::from_utf8(&data[..end]) {
        Ok(s) => s.to_string(),
        Err(_) => data[..end].iter().map(|&b| b as char).collect(),
    }
}

/// A wide string: UTF-32 (Linux `wchar_t`) when every 4-byte unit up to the NUL is a character
/// and the data holds whole units, else UTF-16 (Windows `wchar_t`); None when neither decodes.
fn wide(data: &[u8]) -> Option<String> {
    if data.len().is_multiple_of(4) {
        let units: Vec<u32> = data
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .take_while(|&u| u != 0)
            .collect();
        if let Some(s) = units.iter().map(|&u| char::from_u32(u)).collect::<Option<String>>() {
            return Some(s);
        }
    }
    if !data.len().is_multiple_of(2) {
        return None;
    }
    let units: Vec<u16> =
        data.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).take_while(|&u| u != 0).collect();
    String::from_utf16(&units).ok()
}

/// The UINT64 words of a blob; None when the size is not a whole number of words.
fn words(data: &[u8]) -> Option<Vec<u64>> {
    if data.is_empty() || !data.len().is_multiple_of(8) {
        return None;
    }
    Some(data.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect())
}

/// A string packed into words from `w[*i]`: ANSI 8 characters a word, else UTF-16 4 a word,
/// up to the NUL (which must be there).
fn packed_string(w: &[u64], i: &mut usize, ansi_chars: bool) -> Option<String> {
    let mut bytes = Vec::new();
    let mut units = Vec::new();
    loop {
        let word = *w.get(*i)?;
        *i += 1;
        if ansi_chars {
            for b in word.to_le_bytes() {
                if b == 0 {
                    return Some(ansi(&bytes));
                }
                bytes.push(b);
            }
        } else {
            for k in 0..4 {
                let u = (word >> (16 * k)) as u16;
                if u == 0 {
                    return String::from_utf16(&units).ok();
                }
                units.push(u);
            }
        }
    }
}

/// A string argument of the legacy format: the string-info word, then the packed characters.
fn info_string(w: &[u64], i: &mut usize) -> Option<String> {
    let info = *w.get(*i)?;
    *i += 1;
    // A NULL string is one zero word.
    if info == 0 {
        return Some("(null)".into());
    }
    let is_ansi = info & (1 << 54) != 0;
    let chunk = (info >> 55) & 0x1f;
    // The runtime copies 8 or 16 bytes at a time; nothing else is defined.
    if chunk != 8 && chunk != 16 {
        return None;
    }
    packed_string(w, i, is_ansi)
}

/// Metadata 2: the legacy PIX3BLOB.
fn blob_v1(data: &[u8]) -> Option<String> {
    let w = words(data)?;
    let ty = (w[0] >> 10) & 0x3ff;
    let (with_args, context) = match ty {
        0x001 | 0x007 => (true, false),
        0x002 | 0x008 => (false, false),
        0x011 | 0x017 => (true, true),
        0x012 | 0x018 => (false, true),
        _ => return None,
    };
    // Word 1: the colour; then the context on Xbox.
    let mut i = if context { 3 } else { 2 };
    let format = info_string(&w, &mut i)?;
    if !with_args {
        return Some(format);
    }
    format_args(&format, &w, &mut i, info_string)
}

/// Metadata 6345127: PIX3BLOB V2.
fn blob_v2(data: &[u8]) -> Option<String> {
    let w = words(data)?;
    let ty = (w[0] >> 7) & 0x1f;
    let meta = (w[0] >> 12) & 0xff;
    if ty != 1 && ty != 2 {
        return None;
    }
    let mut i = 1;
    if meta & 0xf0 == 0xf0 {
        i += 1; // the colour word
    }
    if meta & 0x1 != 0 {
        i += 1; // the context
    }
    let is_ansi = meta & 0x2 != 0;
    let format = packed_string(&w, &mut i, is_ansi)?;
    if i >= w.len() || w[i..].iter().all(|&x| x == 0) {
        return Some(format);
    }
    format_args(&format, &w, &mut i, move |w, i| packed_string(w, i, is_ansi))
}

/// printf-style formatting of `format` with the argument words from `w[*i]` (`string` reads a
/// string argument). None when an argument is missing.
fn format_args(
    format: &str,
    w: &[u64],
    i: &mut usize,
    string: impl Fn(&[u64], &mut usize) -> Option<String>,
) -> Option<String> {
    let mut out = String::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // %[flags][width][.precision][length]conversion
        let mut flags = String::new();
        while let Some(&f) = chars.peek() {
            if "-+ #0".contains(f) {
                flags.push(f);
                chars.next();
            } else {
                break;
            }
        }
        let mut width = String::new();
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            width.push(d);
            chars.next();
        }
        let mut precision: Option<usize> = None;
        if chars.peek() == Some(&'.') {
            chars.next();
            let mut p = String::new();
            while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                p.push(d);
                chars.next();
            }
            precision = Some(p.parse().unwrap_or(0));
        }
        while let Some(&l) = chars.peek() {
            if "hlLqjztI0123456789".contains(l) && l != '%' {
                chars.next();
            } else {
                break;
            }
        }
        let Some(conv) = chars.next() else {
            out.push('%');
            break;
        };
        let mut next = || -> Option<u64> {
            let v = *w.get(*i)?;
            *i += 1;
            Some(v)
        };
        let body = match conv {
            '%' => "%".to_string(),
            'd' | 'i' => (next()? as i64).to_string(),
            'u' => next()?.to_string(),
            'x' => format!("{:x}", next()?),
            'X' => format!("{:X}", next()?),
            'o' => format!("{:o}", next()?),
            'p' => format!("0x{:016x}", next()?),
            'c' => char::from_u32(next()? as u32).map(String::from).unwrap_or_default(),
            'f' | 'F' => format!("{:.*}", precision.unwrap_or(6), f64::from_bits(next()?)),
            'e' | 'E' => {
                let s = format!("{:.*e}", precision.unwrap_or(6), f64::from_bits(next()?));
                if conv == 'E' {
                    s.to_uppercase()
                } else {
                    s
                }
            }
            'g' | 'G' => format!("{}", f64::from_bits(next()?)),
            's' | 'S' => {
                let s = string(w, i)?;
                match precision {
                    Some(p) => s.chars().take(p).collect(),
                    None => s,
                }
            }
            other => format!("%{other}"),
        };
        let width: usize = width.parse().unwrap_or(0);
        let pad = width.saturating_sub(body.chars().count());
        if flags.contains('-') {
            out.push_str(&body);
            out.extend(std::iter::repeat_n(' ', pad));
        } else if flags.contains('0') && !matches!(conv, 's' | 'S' | 'c') {
            let (sign, digits) = if body.starts_with('-') { body.split_at(1) } else { ("", body.as_str()) };
            out.push_str(sign);
            out.extend(std::iter::repeat_n('0', pad));
            out.push_str(digits);
        } else {
            out.extend(std::iter::repeat_n(' ', pad));
            out.push_str(&body);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Words as the bytes a program passes.
    fn bytes(w: &[u64]) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// "Frame" packed 8 ANSI characters to a word, NUL included.
    fn packed(s: &str) -> Vec<u64> {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        while !b.len().is_multiple_of(8) {
            b.push(0);
        }
        b.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect()
    }

    const ANSI_INFO: u64 = (8 << 55) | (1 << 54);

    #[test]
    fn plain_strings() {
        assert_eq!(decode(1, b"shadow pass\0garbage"), "shadow pass");
        assert_eq!(decode(1, b"no terminator"), "no terminator");
        let utf32: Vec<u8> = "Düsseldorf\0".chars().flat_map(|c| (c as u32).to_le_bytes()).collect();
        assert_eq!(decode(0, &utf32), "Düsseldorf");
        let utf16: Vec<u8> = "Ünï\0".encode_utf16().flat_map(|u| u.to_le_bytes()).collect();
        // 8 bytes: also whole UTF-32 units, but 0x006e00dc is no character, so UTF-16.
        assert_eq!(decode(0, &utf16), "Ünï");
    }

    #[test]
    fn legacy_blob_without_arguments() {
        // PixEventsLegacy::EncodeBeginEventForContext(buffer, color, "Frame"): type 0x002.
        let mut w = vec![0x002 << 10, 0xff00ff00, ANSI_INFO];
        w.extend(packed("Frame"));
        w.push(0);
        assert_eq!(decode(2, &bytes(&w)), "Frame");
        // SetMarker without arguments (0x008), a 16-byte chunk size.
        let mut w = vec![0x008 << 10, 0, (16 << 55) | (1 << 54)];
        w.extend(packed("a marker of more than 16 characters"));
        assert_eq!(decode(2, &bytes(&w)), "a marker of more than 16 characters");
        // A UTF-16 string (string info without the ANSI bit): 4 characters a word.
        let units: Vec<u16> = "Pass 2\0\0".encode_utf16().collect();
        let mut w = vec![0x002 << 10, 0, 8 << 55];
        w.extend(units.chunks_exact(4).map(|c| c.iter().rev().fold(0u64, |a, &u| (a << 16) | u as u64)));
        assert_eq!(decode(2, &bytes(&w)), "Pass 2");
    }

    #[test]
    fn legacy_blob_with_arguments() {
        // PIXBeginEvent(list, color, "draw %d of %s: %5.2f", 7, "scene", 1.5): type 0x001.
        let mut w = vec![0x001 << 10, 0, ANSI_INFO];
        w.extend(packed("draw %d of %s: %5.2f|%-4u|%04x"));
        w.push((-7i64) as u64);
        w.push(ANSI_INFO);
        w.extend(packed("scene"));
        w.push(1.5f64.to_bits());
        w.push(42);
        w.push(0xab);
        assert_eq!(decode(2, &bytes(&w)), "draw -7 of scene:  1.50|42  |00ab");
        // An argument missing: shown raw.
        let mut w = vec![0x001 << 10, 0, ANSI_INFO];
        w.extend(packed("%d"));
        assert!(decode(2, &bytes(&w)).starts_with("raw:"));
    }

    #[test]
    fn v2_blob() {
        // PIXEncodeEventInfo(0, PIXEvent_BeginEvent, size, ON_CONTEXT | ANSI | HAS_COLOR), colour,
        // context, then the string without a string-info word.
        let meta = 0x1 | 0x2 | 0xf0u64;
        let mut w = vec![(meta << 12) | (1 << 7) | 6, 0xff112233, 0x1234_5678];
        w.extend(packed("Lighting"));
        w.push(0);
        assert_eq!(decode(6_345_127, &bytes(&w)), "Lighting");
        // An index colour, no context, a UTF-16 string.
        let units: Vec<u16> = "GI\0\0".encode_utf16().collect();
        let word = units.iter().rev().fold(0u64, |a, &u| (a << 16) | u as u64);
        let w = vec![(0x30 << 12) | (2 << 7) | 2, word];
        assert_eq!(decode(6_345_127, &bytes(&w)), "GI");
    }

    #[test]
    fn malformed_data_is_shown_raw_and_never_panics() {
        assert_eq!(decode(2, &[1, 2, 3]), "raw:010203");
        assert_eq!(decode(77, b"xy"), "raw:7879");
        // An unknown event type, a bad chunk size, a string without its NUL.
        assert!(decode(2, &bytes(&[0x3ff << 10, 0, ANSI_INFO])).starts_with("raw:"));
        assert!(decode(2, &bytes(&[0x002 << 10, 0, (3 << 55) | (1 << 54), 0x4141])).starts_with("raw:"));
        assert!(decode(2, &bytes(&[0x002 << 10, 0, ANSI_INFO, u64::from_le_bytes(*b"ABCDEFGH")])).starts_with("raw:"));
        assert!(decode(6_345_127, &bytes(&[5 << 7])).starts_with("raw:"));
        assert_eq!(decode(0, &[0xff, 0xd8]), "raw:ffd8"); // a lone UTF-16 surrogate
        assert_eq!(raw(&[0u8; 300]).len(), 4 + 512 + "...(300 bytes)".len());
        // Every prefix of a blob with arguments (which runs out of arguments) under every
        // metadata: shown raw unless it decodes as that format.
        let mut w = vec![0x001 << 10, 0, ANSI_INFO];
        w.extend(packed("%s %d %f %c %p %%"));
        let b = bytes(&w);
        for n in 0..=b.len() {
            assert!(decode(2, &b[..n]).starts_with("raw:"), "{n}");
            for m in [0, 1, 6_345_127, 9] {
                let _ = decode(m, &b[..n]);
            }
        }
    }
}
