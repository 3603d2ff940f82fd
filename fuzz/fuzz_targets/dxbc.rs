//! DXBC shader bytecode as CreateComputePipelineState and the graphics creators receive it:
//! the container (`shader::parse`), the `SHEX` / `SHDR` token stream (`dxbc::tokens::decode`),
//! the shader-model check, the lowering to the IR and the interpreter's layout
//! (`dxbc::parse`). The first byte picks how the rest is read: a whole container, or a token
//! stream sealed into a container with empty signatures (so mutations reach the decoder and
//! the lowering rather than the container's checksum).
//! Malformed input must be an error value, never a panic, a hang or an unbounded allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    if mode & 1 == 0 {
        let _ = rd3d12_shader::dxbc::tokens::decode(rest);
        let _ = rd3d12_shader::dxbc::parse(rest);
        return;
    }
    // A program part: the first DWORD's program type follows the mode byte's bits 1..3 (0..5)
    // so that every stage's lowering is reached.
    let mut prog = rest.to_vec();
    if prog.len() >= 4 {
        prog[2] = (mode >> 1) % 6;
        prog[3] = 0;
    }
    let empty = rd3d12_core::shader::signature_part(&[], rd3d12_core::shader::SignatureLayout::V0, None);
    let fourcc = if mode & 0x80 != 0 { *b"SHDR" } else { *b"SHEX" };
    let c = rd3d12_core::dxbc::build(&[(*b"ISGN", &empty), (*b"OSGN", &empty), (fourcc, &prog)]);
    let _ = rd3d12_shader::dxbc::parse(&c);
});
