fn main() {
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("dxcore.map");
    println!("cargo:rerun-if-changed={}", map.display());
    // Only the cdylib gets the version script: DXCoreCreateAdapterFactory is the one export.
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", map.display());
}
