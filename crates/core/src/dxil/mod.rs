//! DXIL: the LLVM 3.7 bitcode inside a shader model 6.x container's `DXIL` part.
//!
//! * [`bitstream`] — the LLVM bitstream container: blocks, records, abbreviations.
//!
//! The layers stack: bytes → [`bitstream::parse`] (a tree of blocks and records) → the
//! module reader (typed IR with absolute value ids) → the `dx.op` helpers an interpreter
//! dispatches on. Each layer reports malformed input as an error value and never panics.

pub mod bitstream;

use crate::dxbc::Container;
use crate::shader::ShaderError;

/// The LLVM bitcode of a container's `DXIL` part (from its "BC" 0xC0DE magic to the size
/// the bitcode header gives).
///
/// Guarantees: the slice lies inside the part and starts with the bitcode magic; a container
/// without a `DXIL` part or with a malformed program header is an error.
pub fn bitcode(container: &[u8]) -> Result<&[u8], ShaderError> {
    let c = Container::parse_unverified(container)?;
    let part = c.part(*b"DXIL").ok_or(ShaderError::NoProgram)?;
    crate::shader::dxil_bitcode(part)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) const FIXTURES: [(&str, &[u8]); 4] = [
        ("textured.vs", include_bytes!("../../tests/fixtures/dxil/textured.vs.dxil")),
        ("textured.ps", include_bytes!("../../tests/fixtures/dxil/textured.ps.dxil")),
        ("loop.vs", include_bytes!("../../tests/fixtures/dxil/loop.vs.dxil")),
        ("loop.ps", include_bytes!("../../tests/fixtures/dxil/loop.ps.dxil")),
    ];

    #[test]
    fn fixtures_bitstreams_hold_one_module_block() {
        for (name, bytes) in FIXTURES {
            let bc = bitcode(bytes).unwrap();
            let blocks = bitstream::parse(bc).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(blocks.iter().map(|b| b.id).collect::<Vec<_>>(), vec![8], "{name}");
            // One function body each: `main`.
            assert_eq!(blocks[0].blocks().filter(|b| b.id == 12).count(), 1, "{name}");
        }
    }

    /// Truncations and bit flips of real bitcode give errors or (rarely) other trees, never
    /// a panic.
    #[test]
    fn damaged_fixtures_never_panic() {
        for (_, bytes) in FIXTURES {
            let bc = bitcode(bytes).unwrap();
            for len in (0..bc.len()).step_by(7) {
                let _ = bitstream::parse(&bc[..len]);
            }
            let mut seed = 0x9E37_79B9_7F4A_7C15u64;
            for _ in 0..300 {
                let mut d = bc.to_vec();
                for _ in 0..1 + (seed % 3) {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    let bit = (seed >> 33) as usize % (d.len() * 8);
                    d[bit / 8] ^= 1 << (bit % 8);
                }
                let _ = bitstream::parse(&d);
            }
        }
    }
}
