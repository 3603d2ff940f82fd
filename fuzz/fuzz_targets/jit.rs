//! The JIT against the interpreter: the bytes make a random program of the operations the JIT
//! compiles (`rd3d12_shader::jit::differential`), run under both in waves of 1 to 32 lanes;
//! any difference in any output bit, or a crash of either, is a failure.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = rd3d12_shader::jit::differential::compare(data) {
        panic!("{e}");
    }
});
