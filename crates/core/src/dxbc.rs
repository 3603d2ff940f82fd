//! DXBC containers: the chunked binary format of compiled shaders (DXBC and DXIL) and of
//! serialized root signatures, and the container checksum.
//!
//! Layout (spec/descriptors-and-binding.md §8.1), all integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 4 | magic `DXBC` |
//! | 4 | 16 | checksum (four u32, [`checksum`]) over bytes `[20, total)` |
//! | 20 | 4 | container version, 1 |
//! | 24 | 4 | total size in bytes |
//! | 28 | 4 | part count N |
//! | 32 | 4 N | offset of each part header from the blob start |
//!
//! A part is a four-character code, a u32 payload size, then the payload.

use std::fmt;

/// The container magic, `DXBC`.
pub const MAGIC: [u8; 4] = *b"DXBC";
/// The only container version written or accepted.
pub const VERSION: u32 = 1;
/// Bytes before the part offset table.
pub const HEADER_SIZE: usize = 32;
/// Bytes of a part header (fourcc and size).
pub const PART_HEADER_SIZE: usize = 8;
/// The checksum covers the blob from this offset (just after the checksum field) to its end.
pub const CHECKSUM_START: usize = 20;

/// Why a byte string is not a well-formed DXBC container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContainerError {
    /// Fewer bytes than a container header.
    TooSmall,
    /// The first four bytes are not `DXBC`.
    BadMagic,
    /// A container version other than 1.
    BadVersion(u32),
    /// The declared total size is below the header or above the bytes supplied.
    BadSize {
        /// The size the header declares.
        declared: u32,
        /// The bytes the caller supplied.
        available: usize,
    },
    /// The part offset table does not fit in the declared size.
    BadPartTable,
    /// Part `n`'s header or payload lies outside the declared size.
    BadPart(usize),
    /// The checksum field does not match the contents.
    ChecksumMismatch,
}

impl fmt::Display for ContainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ContainerError::TooSmall => write!(f, "the blob is smaller than a DXBC container header"),
            ContainerError::BadMagic => write!(f, "the blob does not start with the DXBC magic"),
            ContainerError::BadVersion(v) => write!(f, "unsupported DXBC container version {v:#x}"),
            ContainerError::BadSize { declared, available } => {
                write!(f, "the container declares {declared} bytes but {available} were supplied")
            }
            ContainerError::BadPartTable => write!(f, "the container's part table exceeds its size"),
            ContainerError::BadPart(n) => write!(f, "container part {n} exceeds the container's size"),
            ContainerError::ChecksumMismatch => write!(f, "the container checksum does not match its contents"),
        }
    }
}

impl std::error::Error for ContainerError {}

fn u32_at(bytes: &[u8], at: usize) -> Option<u32> {
    let end = at.checked_add(4)?;
    bytes.get(at..end).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// One part of a container.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Part<'a> {
    /// The four-character code, e.g. `RTS0`, `SHEX`, `DXIL`, `ISG1`.
    pub fourcc: [u8; 4],
    /// The payload (without the 8-byte part header).
    pub data: &'a [u8],
}

/// A parsed container borrowing the caller's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Container<'a> {
    /// The container bytes, `[0, total size)`.
    pub bytes: &'a [u8],
    /// The parts in table order.
    pub parts: Vec<Part<'a>>,
}

impl<'a> Container<'a> {
    /// Parses a container and verifies its checksum. `bytes` may be longer than the container
    /// (only the declared total size is used), never shorter.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, ContainerError> {
        let c = Self::parse_unverified(bytes)?;
        if c.stored_checksum() != checksum(&c.bytes[CHECKSUM_START..]) {
            return Err(ContainerError::ChecksumMismatch);
        }
        Ok(c)
    }

    /// Parses a container without looking at its checksum (for callers that accept unsigned
    /// containers, e.g. DXIL compiled without validation).
    pub fn parse_unverified(bytes: &'a [u8]) -> Result<Self, ContainerError> {
        if bytes.len() < HEADER_SIZE {
            return Err(ContainerError::TooSmall);
        }
        if bytes[0..4] != MAGIC {
            return Err(ContainerError::BadMagic);
        }
        let version = u32_at(bytes, 20).unwrap_or(0);
        if version != VERSION {
            return Err(ContainerError::BadVersion(version));
        }
        let declared = u32_at(bytes, 24).unwrap_or(0);
        if (declared as usize) < HEADER_SIZE || declared as usize > bytes.len() {
            return Err(ContainerError::BadSize { declared, available: bytes.len() });
        }
        let bytes = &bytes[..declared as usize];
        let count = u32_at(bytes, 28).unwrap_or(0) as usize;
        let table_end = count.checked_mul(4).and_then(|n| n.checked_add(HEADER_SIZE));
        if table_end.is_none_or(|end| end > bytes.len()) {
            return Err(ContainerError::BadPartTable);
        }
        let mut parts = Vec::with_capacity(count);
        for n in 0..count {
            let part = (|| {
                let at = u32_at(bytes, HEADER_SIZE + 4 * n)? as usize;
                let fourcc: [u8; 4] = bytes.get(at..at.checked_add(4)?)?.try_into().ok()?;
                let size = u32_at(bytes, at + 4)? as usize;
                let start = at.checked_add(PART_HEADER_SIZE)?;
                let data = bytes.get(start..start.checked_add(size)?)?;
                Some(Part { fourcc, data })
            })();
            parts.push(part.ok_or(ContainerError::BadPart(n))?);
        }
        Ok(Container { bytes, parts })
    }

    /// The first part with `fourcc`, if any.
    pub fn part(&self, fourcc: [u8; 4]) -> Option<&'a [u8]> {
        self.parts.iter().find(|p| p.fourcc == fourcc).map(|p| p.data)
    }

    /// The checksum stored in the header.
    pub fn stored_checksum(&self) -> [u32; 4] {
        std::array::from_fn(|i| u32_at(self.bytes, 4 + 4 * i).unwrap_or(0))
    }
}

/// Builds a container holding `parts` in order, with its checksum. Each part payload is padded
/// with zeros to a multiple of 4 bytes so that every part header stays 4-byte aligned; the size
/// field records the unpadded payload size.
pub fn build(parts: &[([u8; 4], &[u8])]) -> Vec<u8> {
    let table = HEADER_SIZE + 4 * parts.len();
    let mut offsets = Vec::with_capacity(parts.len());
    let mut at = table;
    for (_, data) in parts {
        offsets.push(at as u32);
        at += PART_HEADER_SIZE + data.len().next_multiple_of(4);
    }
    let mut out = Vec::with_capacity(at);
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&[0; 16]);
    for v in [VERSION, at as u32, parts.len() as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    for (fourcc, data) in parts {
        out.extend_from_slice(fourcc);
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    seal(&mut out);
    out
}

/// Writes the checksum of a complete container into its header.
pub fn seal(container: &mut [u8]) {
    let sum = checksum(&container[CHECKSUM_START..]);
    for (i, w) in sum.iter().enumerate() {
        container[4 + 4 * i..8 + 4 * i].copy_from_slice(&w.to_le_bytes());
    }
}

// ---- the checksum ----------------------------------------------------------------------------

const SHIFTS: [u32; 16] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/// floor(|sin(i + 1)| × 2^32), the MD5 additive constants (RFC 1321 §3.4).
const K: [u32; 64] = [
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8,
    0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340,
    0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6, 0xf4d50d87,
    0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
    0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039,
    0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92,
    0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb,
    0xeb86d391,
];

const INITIAL: [u32; 4] = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476];

/// The MD5 block transform (RFC 1321 §3.4) on one 64-byte block.
fn transform(state: &mut [u32; 4], block: &[u8; 64]) {
    let m: [u32; 16] = std::array::from_fn(|i| u32::from_le_bytes(block[4 * i..4 * i + 4].try_into().unwrap()));
    let [mut a, mut b, mut c, mut d] = *state;
    for i in 0..64 {
        let (f, g) = match i / 16 {
            0 => ((b & c) | (!b & d), i),
            1 => ((d & b) | (!d & c), (5 * i + 1) % 16),
            2 => (b ^ c ^ d, (3 * i + 5) % 16),
            _ => (c ^ (b | !d), (7 * i) % 16),
        };
        let rotated = a.wrapping_add(f).wrapping_add(K[i]).wrapping_add(m[g]).rotate_left(SHIFTS[(i / 16) * 4 + i % 4]);
        (a, d, c, b) = (d, c, b, b.wrapping_add(rotated));
    }
    for (s, v) in state.iter_mut().zip([a, b, c, d]) {
        *s = s.wrapping_add(v);
    }
}

/// The DXBC checksum of `data` (the container bytes from offset 20 to its end): MD5's block
/// transform over the full 64-byte blocks, then Microsoft's own final block(s) instead of MD5's
/// length padding (spec §8.4). The bit length and `(bits >> 2) | 1` frame the remaining bytes.
pub fn checksum(data: &[u8]) -> [u32; 4] {
    let bits = (data.len() as u32).wrapping_mul(8);
    let bits2 = (bits >> 2) | 1;
    let mut state = INITIAL;
    let mut blocks = data.chunks_exact(64);
    for block in &mut blocks {
        transform(&mut state, block.try_into().unwrap());
    }
    let rest = blocks.remainder();
    let mut last = [0u8; 64];
    if rest.len() >= 56 {
        last[..rest.len()].copy_from_slice(rest);
        last[rest.len()] = 0x80;
        transform(&mut state, &last);
        last = [0; 64];
        last[0..4].copy_from_slice(&bits.to_le_bytes());
    } else {
        last[0..4].copy_from_slice(&bits.to_le_bytes());
        last[4..4 + rest.len()].copy_from_slice(rest);
        last[4 + rest.len()] = 0x80;
    }
    last[60..64].copy_from_slice(&bits2.to_le_bytes());
    transform(&mut state, &last);
    state
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Standard MD5 built from the same transform, to check the transform against RFC 1321's
    /// test suite (§A.5).
    fn md5(data: &[u8]) -> [u8; 16] {
        let mut state = INITIAL;
        let mut msg = data.to_vec();
        msg.push(0x80);
        while msg.len() % 64 != 56 {
            msg.push(0);
        }
        msg.extend_from_slice(&((data.len() as u64) * 8).to_le_bytes());
        for block in msg.chunks_exact(64) {
            transform(&mut state, block.try_into().unwrap());
        }
        let mut out = [0; 16];
        for (i, w) in state.iter().enumerate() {
            out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        out
    }

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    #[test]
    fn md5_transform_matches_rfc1321_suite() {
        let suite: [(&str, &str); 7] = [
            ("", "d41d8cd98f00b204e9800998ecf8427e"),
            ("a", "0cc175b9c0f1b6a831c399e269772661"),
            ("abc", "900150983cd24fb0d6963f7d28e17f72"),
            ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
            ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
            ("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", "d174ab98d277d9f5a5611c2c9f419d9f"),
            (
                "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
                "57edf4a22be3c955ac49da2e2107b67a",
            ),
        ];
        for (input, want) in suite {
            assert_eq!(hex(&md5(input.as_bytes())), want, "{input:?}");
        }
    }

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|x| x.to_le_bytes()).collect()
    }

    /// Root signatures compiled by Microsoft's fxc (`/T rootsig_1_0` and `/T rootsig_1_1`), as
    /// recorded in public conformance tests run on Windows. They cover the three tails of the
    /// final block: 48 bytes left (< 56), 0 left (a whole number of blocks) and 56 left (≥ 56).
    pub(crate) const FXC_EMPTY_1_0: [u32; 17] = [
        0x43425844, 0xd64afc1d, 0x5dc27735, 0x9edacb4a, 0x6bd8a7fa, 0x00000001, 0x00000044, 0x00000001, 0x00000024,
        0x30535452, 0x00000018, 0x00000001, 0x00000000, 0x00000018, 0x00000000, 0x00000018, 0x00000000,
    ];
    const FXC_TABLE_1_0: [u32; 37] = [
        0x43425844, 0x0f92e563, 0x4766993f, 0x2304e283, 0x14f0d8dc, 0x00000001, 0x00000094, 0x00000001, 0x00000024,
        0x30535452, 0x00000068, 0x00000001, 0x00000001, 0x00000018, 0x00000000, 0x00000068, 0x00000000, 0x00000000,
        0x00000000, 0x00000024, 0x00000003, 0x0000002c, 0x00000002, 0x00000001, 0x00000001, 0x00000007, 0xffffffff,
        0x00000000, 0x00000008, 0x00000010, 0x00000000, 0xffffffff, 0x00000001, 0xffffffff, 0x00000003, 0x00000000,
        0x0000002c,
    ];
    const FXC_ROOT_DESCRIPTORS_1_1: [u32; 35] = [
        0x43425844, 0x8ddedbbe, 0xbcfea259, 0x6b35bfbb, 0x23e1de24, 0x00000001, 0x0000008c, 0x00000001, 0x00000024,
        0x30535452, 0x00000060, 0x00000002, 0x00000003, 0x00000018, 0x00000000, 0x00000060, 0x00000000, 0x00000002,
        0x00000001, 0x0000003c, 0x00000003, 0x00000000, 0x00000048, 0x00000004, 0x00000000, 0x00000054, 0x00000004,
        0x00000001, 0x00000000, 0x0000000d, 0x00000000, 0x00000008, 0x00000006, 0x00000000, 0x00000004,
    ];

    #[test]
    fn checksum_matches_microsoft_blobs_for_every_tail_length() {
        for blob in [&FXC_EMPTY_1_0[..], &FXC_TABLE_1_0[..], &FXC_ROOT_DESCRIPTORS_1_1[..]] {
            let bytes = words(blob);
            assert_eq!(checksum(&bytes[CHECKSUM_START..]), [blob[1], blob[2], blob[3], blob[4]]);
            assert!(Container::parse(&bytes).is_ok());
        }
        let tails: Vec<usize> = [&FXC_EMPTY_1_0[..], &FXC_TABLE_1_0[..], &FXC_ROOT_DESCRIPTORS_1_1[..]]
            .iter()
            .map(|b| (b.len() * 4 - CHECKSUM_START) % 64)
            .collect();
        assert_eq!(tails, [48, 0, 56]);
    }

    #[test]
    fn checksum_tail_boundaries_change_the_hash() {
        // 55, 56 and 63 remaining bytes take different paths; all must be deterministic and
        // distinct from each other.
        let sums: Vec<_> = [55usize, 56, 63, 64, 119, 120].iter().map(|&n| checksum(&vec![0xab; n])).collect();
        for (i, a) in sums.iter().enumerate() {
            for b in &sums[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }

    #[test]
    fn build_then_parse_round_trips_parts() {
        let a = [1u8, 2, 3, 4, 5, 6, 7, 8];
        let b = [9u8, 10, 11];
        let blob = build(&[(*b"SHEX", &a), (*b"RTS0", &b)]);
        let c = Container::parse(&blob).unwrap();
        assert_eq!(c.parts.len(), 2);
        assert_eq!(c.part(*b"SHEX"), Some(&a[..]));
        assert_eq!(c.part(*b"RTS0"), Some(&b[..]));
        assert_eq!(c.part(*b"ISG1"), None);
        // Header fields as §8.1 lays them out.
        assert_eq!(&blob[0..4], b"DXBC");
        assert_eq!(u32_at(&blob, 20), Some(1));
        assert_eq!(u32_at(&blob, 24), Some(blob.len() as u32));
        assert_eq!(u32_at(&blob, 28), Some(2));
        assert_eq!(u32_at(&blob, 32), Some(40));
        assert_eq!(u32_at(&blob, 36), Some(40 + 8 + 8));
    }

    #[test]
    fn malformed_containers_are_rejected() {
        let good = words(&FXC_EMPTY_1_0);
        assert_eq!(Container::parse(&good[..31]), Err(ContainerError::TooSmall));
        let mut bad = good.clone();
        bad[0] = b'X';
        assert_eq!(Container::parse(&bad), Err(ContainerError::BadMagic));
        let mut bad = good.clone();
        bad[20] = 2;
        assert_eq!(Container::parse_unverified(&bad), Err(ContainerError::BadVersion(2)));
        let mut bad = good.clone();
        bad[24] = 0x45;
        assert_eq!(Container::parse(&bad), Err(ContainerError::BadSize { declared: 0x45, available: 68 }));
        let mut bad = good.clone();
        bad[28] = 0xff;
        assert_eq!(Container::parse_unverified(&bad), Err(ContainerError::BadPartTable));
        let mut bad = good.clone();
        bad[32] = 0x40;
        assert_eq!(Container::parse_unverified(&bad), Err(ContainerError::BadPart(0)));
        let mut bad = good.clone();
        bad[40] = 0x19;
        assert_eq!(Container::parse_unverified(&bad), Err(ContainerError::BadPart(0)));
        let mut bad = good.clone();
        bad[64] = 1;
        assert_eq!(Container::parse(&bad), Err(ContainerError::ChecksumMismatch));
        assert!(Container::parse_unverified(&bad).is_ok());
        // Trailing bytes beyond the declared size are ignored.
        let mut long = good.clone();
        long.extend_from_slice(&[0xee; 12]);
        assert_eq!(Container::parse(&long).unwrap().bytes.len(), 68);
    }
}
