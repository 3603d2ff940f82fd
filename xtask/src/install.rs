//! `cargo xtask install [--prefix DIR] [--debug]` and `cargo xtask uninstall [--prefix DIR]`.
//!
//! Install builds the release (or, with `--debug`, the debug) `rd3d12` tool and libraries and
//! writes, under PREFIX (default `~/.local`):
//! - `bin/rd3d12`;
//! - `lib/rd3d12/libd3d12.so`, `libdxcore.so` and the link `libd3d12core.so` -> `libd3d12.so`:
//!   a private folder, never a default library path (Mesa would take rd3d12 for all of its
//!   software GL there; `rd3d12 run` finds the folder from `bin/rd3d12`);
//! - `lib/pkgconfig/rd3d12.pc`: `pkg-config --cflags --libs rd3d12` gives DirectX-Headers' flags
//!   (`Requires: DirectX-Headers`) and `-L`, `-rpath` and `-ld3d12` for the private folder;
//! - `lib/rd3d12/install-manifest.txt`: every file written and every folder made, which
//!   uninstall removes, and nothing else.
//!
//! What this module may touch: cargo (to build) and PREFIX.

use std::path::{Path, PathBuf};
use std::process::Command;

const MANIFEST: &str = "lib/rd3d12/install-manifest.txt";

struct Args {
    prefix: PathBuf,
    debug: bool,
}

fn parse(args: &[String], install: bool) -> Result<Args, String> {
    let mut prefix = None;
    let mut debug = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--prefix" => prefix = Some(PathBuf::from(it.next().ok_or("--prefix needs a folder")?)),
            "--debug" if install => debug = true,
            other => {
                return Err(format!(
                    "unknown argument {other:?}: usage: cargo xtask install [--prefix DIR] [--debug] | cargo xtask uninstall [--prefix DIR]"
                ))
            }
        }
    }
    let prefix = match prefix {
        Some(p) => p,
        None => PathBuf::from(std::env::var_os("HOME").ok_or("HOME is not set: give --prefix")?).join(".local"),
    };
    // Relative prefixes would end up in the pkg-config file and the rpath as given.
    let prefix = std::path::absolute(&prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    Ok(Args { prefix, debug })
}

/// The pkg-config file for a prefix.
pub fn pc_file(prefix: &Path) -> String {
    format!(
        "# rd3d12: Direct3D 12 for Linux. Installed by `cargo xtask install`; its libraries live in a\n\
         # private folder (not a default library path), which the rpath below names.\n\
         prefix={}\n\
         libdir=${{prefix}}/lib/rd3d12\n\
         \n\
         Name: rd3d12\n\
         Description: Direct3D 12 for Linux (rd3d12's libd3d12.so), on the CPU\n\
         Version: {}\n\
         Requires: DirectX-Headers\n\
         Libs: -L${{libdir}} -Wl,-rpath,${{libdir}} -ld3d12\n\
         Cflags:\n",
        prefix.display(),
        env!("CARGO_PKG_VERSION")
    )
}

/// The manifest's entries: ("file" | "dir", path).
fn read_manifest(prefix: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let path = prefix.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .filter(|l| !l.is_empty())
        .map(|l| match l.split_once(' ') {
            Some((k @ ("file" | "dir"), p)) => Ok((k.to_string(), PathBuf::from(p))),
            _ => Err(format!("{}: unexpected line {l:?}", path.display())),
        })
        .collect()
}

/// Copies `src` to `dst` through a temporary file renamed over it (programs running on the old
/// file keep it).
fn put(src: &Path, dst: &Path) -> Result<(), String> {
    let tmp = dst.with_extension(format!("tmp{}", std::process::id()));
    std::fs::copy(src, &tmp).map_err(|e| format!("{} -> {}: {e}", src.display(), tmp.display()))?;
    std::fs::rename(&tmp, dst).map_err(|e| format!("{}: {e}", dst.display()))
}

/// Installs from `build` (the folder holding rd3d12, libd3d12.so and libdxcore.so) into `prefix`.
pub fn install_from(build: &Path, prefix: &Path) -> Result<Vec<PathBuf>, String> {
    // Folders made now (and those an earlier install made), so that uninstall removes them.
    let mut dirs: Vec<PathBuf> = read_manifest(prefix)
        .map(|m| m.into_iter().filter(|(k, _)| k == "dir").map(|(_, p)| p).collect())
        .unwrap_or_default();
    for d in ["", "bin", "lib", "lib/rd3d12", "lib/pkgconfig"] {
        let p = if d.is_empty() { prefix.to_path_buf() } else { prefix.join(d) };
        if !p.exists() {
            std::fs::create_dir(&p).map_err(|e| format!("{}: {e}", p.display()))?;
            dirs.push(p);
        }
    }
    let mut files = Vec::new();
    let lib = prefix.join("lib/rd3d12");
    for (src, dst) in [
        (build.join("rd3d12"), prefix.join("bin/rd3d12")),
        (build.join("libd3d12.so"), lib.join("libd3d12.so")),
        (build.join("libdxcore.so"), lib.join("libdxcore.so")),
    ] {
        put(&src, &dst)?;
        files.push(dst);
    }
    let core = lib.join("libd3d12core.so");
    let _ = std::fs::remove_file(&core);
    std::os::unix::fs::symlink("libd3d12.so", &core).map_err(|e| format!("{}: {e}", core.display()))?;
    files.push(core);
    let pc = prefix.join("lib/pkgconfig/rd3d12.pc");
    std::fs::write(&pc, pc_file(prefix)).map_err(|e| format!("{}: {e}", pc.display()))?;
    files.push(pc);
    let manifest = prefix.join(MANIFEST);
    files.push(manifest.clone());
    let mut text = String::new();
    for f in &files {
        text.push_str(&format!("file {}\n", f.display()));
    }
    for d in &dirs {
        text.push_str(&format!("dir {}\n", d.display()));
    }
    std::fs::write(&manifest, text).map_err(|e| format!("{}: {e}", manifest.display()))?;
    Ok(files)
}

/// Removes what the manifest lists: its files, then its folders if they are empty.
pub fn uninstall_from(prefix: &Path) -> Result<usize, String> {
    let entries =
        read_manifest(prefix).map_err(|e| format!("nothing installed by xtask in {}? {e}", prefix.display()))?;
    let mut removed = 0;
    for (_, f) in entries.iter().filter(|(k, _)| k == "file") {
        match std::fs::remove_file(f) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(format!("{}: {e}", f.display())),
        }
    }
    // Deepest first; a folder something else was put in stays.
    let mut dirs: Vec<&PathBuf> = entries.iter().filter(|(k, _)| k == "dir").map(|(_, p)| p).collect();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in dirs {
        let _ = std::fs::remove_dir(d);
    }
    Ok(removed)
}

fn build(debug: bool) -> Result<PathBuf, String> {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(crate::root()).args(["build", "-p", "rd3d12-cli", "-p", "rd3d12-capi", "-p", "rd3d12-dxcore"]);
    if !debug {
        c.arg("--release");
    }
    let st = c.status().map_err(|e| format!("cargo build: {e}"))?;
    if !st.success() {
        return Err(format!("cargo build failed ({st})"));
    }
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| crate::root().join("target"));
    Ok(target.join(if debug { "debug" } else { "release" }))
}

pub fn install_cmd(args: &[String]) -> Result<(), String> {
    let a = parse(args, true)?;
    let dir = build(a.debug)?;
    let files = install_from(&dir, &a.prefix)?;
    for f in &files {
        eprintln!("xtask: installed {}", f.display());
    }
    let pkgconfig = a.prefix.join("lib/pkgconfig");
    println!(
        "xtask: rd3d12 installed in {}\n  run a program on it:  {}/bin/rd3d12 run -- PROGRAM\n  build against it:     PKG_CONFIG_PATH={} cc app.c $(pkg-config --cflags --libs rd3d12)",
        a.prefix.display(),
        a.prefix.display(),
        pkgconfig.display()
    );
    Ok(())
}

pub fn uninstall_cmd(args: &[String]) -> Result<(), String> {
    let a = parse(args, false)?;
    let n = uninstall_from(&a.prefix)?;
    println!("xtask: removed {n} files installed in {}", a.prefix.display());
    Ok(())
}
