//! `crates/shader/DXIL_OPS.md` says for every dx.op whether the interpreter executes it; it is
//! generated from the interpreter's own tables by the `dxil_corpus` example (`--ops`), and this
//! test fails when the committed file differs from what those tables say now.

#[allow(dead_code)]
#[path = "../examples/dxil_corpus.rs"]
mod dxil_corpus;

#[test]
fn dxil_ops_md_says_what_the_interpreter_executes() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/DXIL_OPS.md");
    let committed = std::fs::read_to_string(path).unwrap();
    assert!(
        committed == dxil_corpus::ops_table(),
        "DXIL_OPS.md is stale: cargo run -p rd3d12-shader --example dxil_corpus -- --ops > crates/shader/DXIL_OPS.md"
    );
}
