//! `cargo xtask test`: installs what the tests need (when root; otherwise prints the command and
//! fails), then runs every test: the regeneration check, the workspace's Rust tests, the export
//! table of libd3d12.so, the C / C++ / Python ABI clients (the C one also under valgrind), Mesa's
//! GL on rd3d12, the user-facing tools (`rd3d12 run`, `cargo xtask install`: `tools.rs`) and the
//! CLI's main job.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian packages the tests need, with a file that shows each is present.
const NEEDS: &[(&str, &str)] = &[
    ("directx-headers-dev", "/usr/include/directx/d3d12.h"),
    ("g++", "/usr/bin/g++"),
    ("gcc", "/usr/bin/gcc"),
    ("python3", "/usr/bin/python3"),
    ("valgrind", "/usr/bin/valgrind"),
    ("libclang-dev", "/usr/lib/llvm-14/lib/libclang.so"),
    ("clang", "/usr/bin/clang++"),
    ("binutils", "/usr/bin/nm"),
    // cargo xtask install's pkg-config file, built against by tools.rs.
    ("pkg-config", "/usr/bin/pkg-config"),
    // Mesa's GL on rd3d12 (tests/mesa): the Gallium d3d12 driver, EGL/GLES, eglinfo/glxinfo, Xvfb.
    ("libgl1-mesa-dri", "/usr/lib/x86_64-linux-gnu/dri/d3d12_dri.so"),
    ("libegl1", "/usr/lib/x86_64-linux-gnu/libEGL.so.1"),
    ("libegl-mesa0", "/usr/lib/x86_64-linux-gnu/libEGL_mesa.so.0"),
    ("libgles2", "/usr/lib/x86_64-linux-gnu/libGLESv2.so.2"),
    ("libegl-dev", "/usr/include/EGL/egl.h"),
    ("libgles-dev", "/usr/include/GLES3/gl3.h"),
    ("libgl-dev", "/usr/include/GL/glcorearb.h"),
    ("mesa-utils", "/usr/bin/glxinfo"),
    ("xvfb", "/usr/bin/Xvfb"),
];

fn have(path: &str) -> bool {
    if Path::new(path).exists() {
        return true;
    }
    // libclang may be another LLVM version than 14.
    path.contains("libclang")
        && std::fs::read_dir("/usr/lib")
            .map(|d| {
                d.flatten().any(|e| {
                    e.file_name().to_string_lossy().starts_with("llvm-") && e.path().join("lib/libclang.so").exists()
                })
            })
            .unwrap_or(false)
}

fn ensure_packages() -> Result<(), String> {
    let missing: Vec<&str> = NEEDS.iter().filter(|(_, f)| !have(f)).map(|(p, _)| *p).collect();
    if missing.is_empty() {
        return Ok(());
    }
    install(&missing)?;
    match NEEDS.iter().find(|(_, f)| !have(f)) {
        Some((p, f)) => Err(format!("{p} installed but {f} is still missing")),
        None => Ok(()),
    }
}

/// Installs Debian packages with apt-get when root; otherwise fails with the command to run.
pub fn install(missing: &[&str]) -> Result<(), String> {
    let cmd = format!("apt-get update && apt-get install -y --no-install-recommends {}", missing.join(" "));
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { geteuid() } == 0;
    if !root {
        return Err(format!("missing packages {missing:?}; install them with:\n  sudo {cmd}"));
    }
    eprintln!("xtask: installing {missing:?}");
    run(Command::new("sh").arg("-c").arg(&cmd).env("DEBIAN_FRONTEND", "noninteractive"))
}

extern "C" {
    fn geteuid() -> u32;
}

fn run(cmd: &mut Command) -> Result<(), String> {
    let shown = format!("{cmd:?}");
    let st = cmd.status().map_err(|e| format!("{shown}: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("{shown} failed ({st})"))
    }
}

pub(crate) fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(crate::root());
    c
}

/// Checks that libd3d12.so exports exactly the D3D12 entry points, each versioned VER_1.
fn check_exports(lib: &Path) -> Result<(), String> {
    let out = Command::new("nm").args(["-D", "--defined-only"]).arg(lib).output().map_err(|e| format!("nm: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let mut got: Vec<String> = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .filter(|s| !s.starts_with("VER_1"))
        .collect();
    got.sort();
    let want = [
        "D3D12CreateDevice@@VER_1",
        "D3D12CreateRootSignatureDeserializer@@VER_1",
        "D3D12CreateVersionedRootSignatureDeserializer@@VER_1",
        "D3D12EnableExperimentalFeatures@@VER_1",
        "D3D12GetDebugInterface@@VER_1",
        "D3D12GetInterface@@VER_1",
        "D3D12SerializeRootSignature@@VER_1",
        "D3D12SerializeVersionedRootSignature@@VER_1",
    ];
    if got == want {
        eprintln!("xtask: exports ok: {}", want.join(" "));
        Ok(())
    } else {
        Err(format!("libd3d12.so exports {got:?}, expected exactly {want:?}"))
    }
}

/// Checks that libdxcore.so exports DXCoreCreateAdapterFactory and nothing else (Mesa looks up
/// nothing else; the runtime inside stays hidden).
fn check_dxcore_exports(lib: &Path) -> Result<(), String> {
    let out = Command::new("nm").args(["-D", "--defined-only"]).arg(lib).output().map_err(|e| format!("nm: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let got: Vec<&str> = text.lines().filter_map(|l| l.split_whitespace().nth(2)).collect();
    if got == ["DXCoreCreateAdapterFactory"] {
        Ok(())
    } else {
        Err(format!("libdxcore.so exports {got:?}, expected exactly [\"DXCoreCreateAdapterFactory\"]"))
    }
}

pub(crate) fn dx_cflags() -> Vec<String> {
    ["-I/usr/include/directx", "-I/usr/include/wsl/stubs", "-I/usr/include/wsl", "-I/usr/include"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

pub(crate) fn guids_lib() -> Result<PathBuf, String> {
    ["/usr/lib/x86_64-linux-gnu/libDirectX-Guids.a", "/usr/lib/libDirectX-Guids.a"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.exists())
        .ok_or_else(|| "libDirectX-Guids.a not found (directx-headers-dev)".into())
}

/// Compiles one ABI client against Microsoft's headers and links it to our libd3d12.so.
fn build_client(
    compiler: &str,
    std: &str,
    src: &Path,
    out: &Path,
    libdir: &Path,
    extra: &[&str],
    libs: &[&str],
) -> Result<(), String> {
    let mut c = Command::new(compiler);
    c.arg(format!("-std={std}")).args(["-Wall", "-Werror", "-g"]).args(extra).args(dx_cflags()).arg(src);
    c.arg("-o").arg(out).arg(format!("-L{}", libdir.display())).arg("-ld3d12").args(libs);
    c.arg(format!("-Wl,-rpath,{}", libdir.display())).arg(guids_lib()?);
    run(&mut c)
}

pub fn run_all(quick: bool) -> Result<(), String> {
    let root = crate::root();
    let mut steps: Vec<(String, Result<(), String>)> = Vec::new();
    let mut step = |name: &str, r: Result<(), String>| {
        match &r {
            Ok(()) => eprintln!("xtask: PASS {name}"),
            Err(e) => eprintln!("xtask: FAIL {name}: {e}"),
        }
        steps.push((name.to_string(), r));
    };

    step("regenerated bindings equal the committed ones", crate::gen::run(true));
    step("cargo test --workspace", run(cargo().args(["test", "--workspace"])));
    // Shaders run under the JIT by default; the software GPU's and the runtime's tests again
    // under the interpreter alone, the JIT's oracle (rd3d12-shader's tests compare the two).
    step(
        "cargo test -p rd3d12-swgpu -p rd3d12 under RD3D12_SHADER=interp",
        run(cargo().args(["test", "-p", "rd3d12-swgpu", "-p", "rd3d12"]).env("RD3D12_SHADER", "interp")),
    );
    step(
        "cargo build -p rd3d12-capi -p rd3d12-dxcore",
        run(cargo().args(["build", "-p", "rd3d12-capi", "-p", "rd3d12-dxcore"])),
    );
    // Where cargo puts its output: CARGO_TARGET_DIR when set, else the workspace's target/.
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let libdir = target.join("debug");
    step("libd3d12.so exports", check_exports(&libdir.join("libd3d12.so")));
    step("libdxcore.so exports", check_dxcore_exports(&libdir.join("libdxcore.so")));

    let out = target.join("abi");
    let _ = std::fs::create_dir_all(&out);
    let abi = root.join("tests/abi");
    let mut sources: Vec<PathBuf> =
        std::fs::read_dir(&abi).map(|d| d.flatten().map(|e| e.path()).collect()).unwrap_or_default();
    sources.sort();
    let ext = |p: &Path, e: &str| p.extension().is_some_and(|x| x == e);
    let stem = |p: &Path| p.file_stem().unwrap().to_string_lossy().into_owned();
    // Every C file is one client, built with gcc in C mode and also run under valgrind.
    for src in sources.iter().filter(|p| ext(p, "c")) {
        let exe = out.join(format!("{}_c", stem(src)));
        let libs: &[&str] = if stem(src).starts_with("dxcore") { &["-ldxcore"] } else { &[] };
        let built = build_client("gcc", "c11", src, &exe, &libdir, &["-DCINTERFACE", "-DCOBJMACROS", "-pthread"], libs);
        let ok = built.is_ok();
        step(&format!("build {} (gcc)", stem(src)), built);
        if ok {
            step(&format!("{}.c", stem(src)), run(&mut Command::new(&exe)));
            if !quick {
                let mut v = Command::new("valgrind");
                v.args(["--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite,indirect", "-q"])
                    .arg(&exe)
                    .env("RD3D12_UNDER_VALGRIND", "1");
                step(&format!("{}.c under valgrind", stem(src)), run(&mut v));
            }
        }
    }
    // Every C++ file with g++, and with clang++ when present.
    for src in sources.iter().filter(|p| ext(p, "cpp")) {
        for cxx in ["g++", "clang++"] {
            if Command::new(cxx).arg("--version").output().is_err() {
                eprintln!("xtask: {cxx} not present, skipping its C++ build");
                continue;
            }
            let exe = out.join(format!("{}_cpp_{}", stem(src), cxx.trim_end_matches("++")));
            // A client of DXCore links libdxcore.so as well.
            let libs: &[&str] = if stem(src).starts_with("dxcore") { &["-ldxcore"] } else { &[] };
            let built = build_client(cxx, "c++17", src, &exe, &libdir, &["-pthread"], libs);
            let ok = built.is_ok();
            step(&format!("build {} ({cxx})", stem(src)), built);
            if ok {
                step(&format!("{}.cpp ({cxx})", stem(src)), run(&mut Command::new(&exe)));
            }
        }
    }
    // Every Python file, given the library's path.
    for src in sources.iter().filter(|p| ext(p, "py")) {
        step(&format!("{}.py", stem(src)), run(Command::new("python3").arg(src).arg(libdir.join("libd3d12.so"))));
    }
    crate::mesa::run_all(&mut step, &root, &target, &libdir);
    // rd3d12 run, the trace through it, and cargo xtask install / uninstall.
    crate::tools::run_all(&mut step, &root, &target, &libdir);
    crate::decl_check::steps(&mut step);
    // The main job as the README runs it (the built binary, in the target folder, where it
    // writes rd3d12-frame.png).
    step(
        "rd3d12 (the main job: adapter report and frame)",
        run(Command::new(libdir.join("rd3d12")).current_dir(&target)),
    );

    let failed: Vec<&String> = steps.iter().filter(|(_, r)| r.is_err()).map(|(n, _)| n).collect();
    eprintln!();
    for f in &failed {
        eprintln!("xtask: failed: {f}");
    }
    println!("xtask: {} passed, {} failed", steps.len() - failed.len(), failed.len());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("{} step(s) failed", failed.len()))
    }
}

pub fn run_cmd(args: &[String]) -> Result<(), String> {
    ensure_packages()?;
    run_all(args.iter().any(|a| a == "--quick"))
}
