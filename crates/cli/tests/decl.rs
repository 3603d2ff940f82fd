//! `rd3d12 decl` through the binary: every language in `--lang all`, and clear errors.

use std::process::Command;

fn decl(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_rd3d12")).arg("decl").args(args).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn architecture1_in_every_language() {
    let (ok, out, err) = decl(&["D3D12_FEATURE_DATA_ARCHITECTURE1", "--lang", "all", "--abi", "windows-x64"]);
    assert!(ok, "{err}");
    for want in [
        "typedef struct D3D12_FEATURE_DATA_ARCHITECTURE1 {",
        "[MarshalAs(UnmanagedType.Bool)] public bool TileBasedRenderer;",
        "Public Structure D3D12_FEATURE_DATA_ARCHITECTURE1",
        "class D3D12_FEATURE_DATA_ARCHITECTURE1(ctypes.Structure):",
        "(\"UMA\", wintypes.BOOL)",
        "#[repr(C)]",
        "type D3D12_FEATURE_DATA_ARCHITECTURE1 struct {",
        "D3D12_FEATURE_DATA_ARCHITECTURE1 = record",
        "pub const D3D12_FEATURE_DATA_ARCHITECTURE1 = extern struct {",
        "D3D12_FEATURE_DATA_ARCHITECTURE1* {.bycopy.} = object",
        "extern(C) struct D3D12_FEATURE_DATA_ARCHITECTURE1 {",
        "; dim st, 5",
        "#const D3D12_FEATURE_DATA_ARCHITECTURE1_IsolatedMMU 16",
        "#defstruct D3D12_FEATURE_DATA_ARCHITECTURE1",
        "20 bytes, align 4 (windows-x64)",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
}

#[test]
fn device_slots_in_hsp_and_python() {
    let (ok, out, _) = decl(&["ID3D12Device", "--lang", "hsp", "--abi", "windows-x86"]);
    assert!(ok);
    assert!(out.contains("#usecom ID3D12Device \"{189819F1-1DB6-4B57-BE54-1821339B85F7}\""));
    assert!(out.contains("#comfunc global ID3D12Device_GetNodeCount 7  ;"));
    // The hidden RetVal points at a LUID the caller holds: a `var`.
    assert!(out.contains("#comfunc global ID3D12Device_GetAdapterLuid 43 var  ; (RetVal)"), "{out}");
    // Structs by pointer are `var`, REFIID and void** are `sptr`.
    assert!(
        out.contains("#comfunc global ID3D12Device_CreateCommittedResource 27 var, int, var, int, var, sptr, sptr  ;"),
        "{out}"
    );
    let (ok, out, _) = decl(&["ID3D12Device", "--lang", "python"]);
    assert!(ok);
    // linux-x64: GetAdapterLuid returns the LUID by value.
    assert!(out.contains("GetAdapterLuid = (43, FUNCTYPE(LUID, ctypes.c_void_p))"), "{out}");
}

#[test]
fn unknown_names_languages_and_abis_fail_with_close_matches() {
    let (ok, _, err) = decl(&["D3D12_RESOURCE_DSEC", "--lang", "c"]);
    assert!(!ok);
    assert!(err.contains("did you mean D3D12_RESOURCE_DESC"), "{err}");
    let (ok, _, err) = decl(&["D3D12_RESOURCE_DESC", "--lang", "pyton"]);
    assert!(!ok && err.contains("python"), "{err}");
    let (ok, _, err) = decl(&["D3D12_RESOURCE_DESC", "--lang", "c", "--abi", "windows-x65"]);
    assert!(!ok && err.contains("windows-x64"), "{err}");
}
