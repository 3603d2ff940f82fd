//! The JIT against the interpreter: the random programs of [`super::differential`] (the `jit`
//! fuzz target's), every width.

use super::differential::{compare, program, run};
use super::Mode;
use crate::interp::program::Program;

#[test]
fn random_programs_give_the_interpreters_bits() {
    let (mut native, mut outputs) = (0, 0);
    for seed in 0..120u64 {
        let data = seed.to_le_bytes();
        outputs += compare(&data).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let p = Program::new(program(&data)).unwrap();
        let code = p.jit.get(&p, 32).expect("compiles");
        native += code.native;
        assert!(code.called_ops.keys().all(|k| k == "Barrier"), "{:?}", code.called_ops);
        // Inputs, outputs and the constant-buffer reads call the environment directly.
        let direct: Vec<&str> = code.direct_ops.keys().map(String::as_str).collect();
        assert_eq!(direct, ["CBufferLoadLegacy", "CreateHandle", "LoadInput", "StoreOutput"], "seed {seed}");
    }
    assert!(native > 120 * 30 && outputs > 100_000, "{native} native instructions, {outputs} outputs");
}

/// Every width compiles and a program with many values keeps them apart.
#[test]
fn every_width_compiles_and_runs() {
    let p = Program::new(program(&[7])).unwrap();
    for n in [1, 5, 9, 17, 33, 65, 128] {
        assert_eq!(run(&p, n, 7, Mode::Jit), run(&p, n, 7, Mode::Interp), "{n} lanes");
        let w = super::width_for(n);
        assert_eq!(p.jit.get(&p, w).map(|c| c.width), Some(w));
    }
    assert!(p.jit.get(&p, 12).is_none(), "not a compiled width");
}

/// Inputs the `jit` fuzz target found: a signalling NaN through two operations of NaNs (the
/// NaN an operation gives is not defined: counted as one); RoundNe of -0.5, which the
/// interpreter made +0 (it keeps the sign now, as IEEE and the JIT's ROUNDPS do).
#[test]
fn what_the_fuzzer_found() {
    for data in [&b"*"[..], &[10, 170, 49][..]] {
        compare(data).unwrap();
    }
}
