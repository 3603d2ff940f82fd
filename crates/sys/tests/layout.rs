//! Every struct and union of the generated bindings has the size, alignment and field offsets
//! gcc computes from the same headers (crates/sys/tests/layout/layout.c, generated with them).

#[rustfmt::skip]
#[allow(clippy::type_complexity)]
#[path = "layout/table.rs"]
mod table;

use std::collections::BTreeMap;
use std::process::Command;

fn gcc_layout() -> BTreeMap<String, usize> {
    let dir = std::env::temp_dir().join(format!("rd3d12-layout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let exe = dir.join("layout");
    let src = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/layout/layout.c");
    let inc = std::env::var("DXHEADERS_INCLUDE").unwrap_or_else(|_| "/usr/include".into());
    let cc = std::env::var("CC").unwrap_or_else(|_| "gcc".into());
    let status = Command::new(&cc)
        .args(["-std=gnu11", "-w", "-o"])
        .arg(&exe)
        .arg(src)
        .arg(format!("-I{inc}"))
        .arg(format!("-I{inc}/wsl/stubs"))
        .arg(format!("-I{inc}/wsl"))
        .arg(format!("-I{inc}/directx"))
        .status()
        .unwrap_or_else(|e| panic!("running {cc}: {e} (the test command installs gcc and directx-headers-dev)"));
    assert!(status.success(), "{cc} failed on layout.c: are directx-headers-dev's headers installed?");
    let out = Command::new(&exe).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success());
    let mut map = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let (key, value) = line.split_once('\t').unwrap();
        map.insert(key.to_string(), value.parse().unwrap());
    }
    map
}

#[test]
fn every_struct_matches_gcc_size_alignment_and_offsets() {
    let c = gcc_layout();
    let mut rust = BTreeMap::new();
    for (name, size, align, fields) in table::table() {
        rust.insert(format!("{name} size"), size);
        rust.insert(format!("{name} align"), align);
        for (f, off) in fields {
            rust.insert(format!("{name}.{f}"), off);
        }
    }
    assert!(rust.len() > 3000, "layout table unexpectedly small: {}", rust.len());
    let mut diffs = Vec::new();
    for (k, v) in &rust {
        match c.get(k) {
            Some(cv) if cv == v => {}
            other => diffs.push(format!("{k}: rust {v}, gcc {other:?}")),
        }
    }
    assert!(diffs.is_empty(), "{} layout differences:\n{}", diffs.len(), diffs.join("\n"));
    assert_eq!(c.len(), rust.len(), "gcc printed entries the Rust table lacks");
}

#[test]
fn spec_digest_sizes_hold() {
    use core::mem::size_of;
    use rd3d12_sys::*;
    assert_eq!(size_of::<D3D12_RESOURCE_DESC>(), 56);
    assert_eq!(size_of::<D3D12_RESOURCE_DESC1>(), 64);
    assert_eq!(size_of::<D3D12_HEAP_DESC>(), 48);
    assert_eq!(size_of::<D3D12_HEAP_PROPERTIES>(), 20);
    assert_eq!(size_of::<D3D12_CLEAR_VALUE>(), 20);
    assert_eq!(size_of::<D3D12_FEATURE_DATA_D3D12_OPTIONS>(), 60);
    assert_eq!(size_of::<D3D12_FEATURE_DATA_ARCHITECTURE1>(), 20);
    assert_eq!(size_of::<WCHAR>(), 4);
    assert_eq!(size_of::<ULONG>(), 4);
    assert_eq!(size_of::<LUID>(), 8);
}
