fn main() {
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("d3d12.map");
    println!("cargo:rerun-if-changed={}", map.display());
    // Only the cdylib gets the version script: every export is versioned VER_1, the rest local.
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", map.display());
}
