//! The user-facing tools, tested as a user runs them (steps of `cargo xtask test`):
//! - `rd3d12 run`: a C program linked against libd3d12.so without an rpath
//!   (`tests/tools/run_probe.c`) finds our library only through it, with the debug layer under
//!   `--debug` and a trace under `--trace`; the program's exit status comes back; bad input (no
//!   program, a missing one, a cache folder that cannot be written) is one line and a non-zero
//!   exit; `--gl -- eglinfo` creates its device on rd3d12 and `--gl -- glxinfo -B` under Xvfb
//!   names the rd3d12 adapter;
//! - `cargo xtask install` into a new temporary prefix (the debug build): the same C program
//!   built with `pkg-config --cflags --libs rd3d12` alone runs on the installed library, the
//!   installed `rd3d12 run` finds its libraries, and `cargo xtask uninstall` leaves the prefix
//!   as it was (gone).
//!
//! What this module may touch: the build's target folder (its `tools/` subfolder), the test
//! programs it starts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const RENDERER: &str = "OpenGL renderer string: D3D12 (rd3d12 CPU adapter)";

fn output(cmd: &mut Command) -> Result<Output, String> {
    cmd.stdin(Stdio::null()).output().map_err(|e| format!("{cmd:?}: {e}"))
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A command that succeeds.
fn success(cmd: &mut Command) -> Result<Output, String> {
    let shown = format!("{cmd:?}");
    let o = output(cmd)?;
    if o.status.success() {
        Ok(o)
    } else {
        Err(format!("{shown} failed ({}):\n{}", o.status, text(&o)))
    }
}

/// `rd3d12 run` from `exe` with a cache folder of the test's own and nothing of ours on the
/// library path.
fn rd3d12_run(exe: &Path, cache: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(exe);
    c.arg("run").args(args);
    c.env("XDG_CACHE_HOME", cache).env_remove("LD_LIBRARY_PATH");
    for v in ["RD3D12_DEBUG", "RD3D12_LOG", "RD3D12_TRACE", "RD3D12_AS_HARDWARE", "GALLIUM_DRIVER"] {
        c.env_remove(v);
    }
    c
}

/// Builds run_probe.c: with `extra` flags (pkg-config's) or linked against `libdir` without an
/// rpath.
fn build_probe(root: &Path, out: &Path, flags: &[String]) -> Result<(), String> {
    let mut c = Command::new("gcc");
    c.args(["-std=c11", "-Wall", "-Werror", "-DCINTERFACE", "-DCOBJMACROS", "-pthread"]);
    c.arg(root.join("tests/tools/run_probe.c")).arg("-o").arg(out).args(flags).arg("-ldl");
    success(&mut c).map(|_| ())
}

fn one_line_failure(cmd: &mut Command, want: &str) -> Result<(), String> {
    let o = output(cmd)?;
    let err = String::from_utf8_lossy(&o.stderr);
    if o.status.success() || err.lines().count() != 1 || !err.starts_with("rd3d12: run: ") || !err.contains(want) {
        return Err(format!(
            "{cmd:?}: expected one line \"rd3d12: run: ...{want}...\" and a failure, got {}:\n{err}",
            o.status
        ));
    }
    Ok(())
}

/// `cargo xtask tools-check`: these steps alone (after building the libraries).
pub fn run_cmd() -> Result<(), String> {
    let root = crate::root();
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let libdir = target.join("debug");
    success(crate::test::cargo().args(["build", "-p", "rd3d12-capi", "-p", "rd3d12-dxcore"]))?;
    let mut failed = Vec::new();
    run_all(
        &mut |name: &str, r: Result<(), String>| match r {
            Ok(()) => eprintln!("xtask: PASS {name}"),
            Err(e) => {
                eprintln!("xtask: FAIL {name}: {e}");
                failed.push(name.to_string());
            }
        },
        &root,
        &target,
        &libdir,
    );
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("{} step(s) failed: {failed:?}", failed.len()))
    }
}

pub fn run_all(step: &mut impl FnMut(&str, Result<(), String>), root: &Path, target: &Path, libdir: &Path) {
    let built = success(crate::test::cargo().args(["build", "-p", "rd3d12-cli"])).map(|_| ());
    let ok = built.is_ok();
    step("tools: build rd3d12", built);
    if !ok {
        return;
    }
    let exe = libdir.join("rd3d12");
    let work = target.join("tools");
    let _ = std::fs::remove_dir_all(&work);
    if let Err(e) = std::fs::create_dir_all(&work) {
        return step("tools: work folder", Err(format!("{}: {e}", work.display())));
    }
    let cache = work.join("cache");
    let private = cache.join("rd3d12/lib");
    let probe = work.join("run_probe");
    let mut flags: Vec<String> = crate::test::dx_cflags();
    flags.push(format!("-L{}", libdir.display()));
    flags.push("-ld3d12".into());
    match crate::test::guids_lib() {
        Ok(g) => flags.push(g.display().to_string()),
        Err(e) => return step("tools: libDirectX-Guids.a", Err(e)),
    }
    let built = build_probe(root, &probe, &flags);
    let ok = built.is_ok();
    step("tools: build run_probe (no rpath)", built);
    if ok {
        let p = probe.to_str().unwrap_or_default();
        let d = private.to_str().unwrap_or_default();
        // Without rd3d12 run the probe cannot even start: the library is not on its path.
        step(
            "tools: run_probe alone does not find libd3d12.so",
            match output(Command::new(&probe).arg(d).env_remove("LD_LIBRARY_PATH")) {
                Ok(o) if !o.status.success() && text(&o).contains("libd3d12.so") => Ok(()),
                Ok(o) => Err(format!("run_probe ran without rd3d12 run:\n{}", text(&o))),
                Err(e) => Err(e),
            },
        );
        step(
            "tools: rd3d12 run -- run_probe loads rd3d12 from the private folder",
            success(&mut rd3d12_run(&exe, &cache, &["--", p, d])).map(|_| ()),
        );
        let trace = work.join("probe-trace.json");
        let t = trace.to_str().unwrap_or_default();
        step(
            "tools: rd3d12 run --debug --trace FILE -- run_probe debug",
            success(&mut rd3d12_run(&exe, &cache, &["--debug", "--trace", t, "--", p, d, "debug"])).and_then(|_| {
                let j = std::fs::read_to_string(&trace).map_err(|e| format!("{t}: {e}"))?;
                let closed = j.starts_with("[\n") && j.ends_with("\n]\n");
                let named = ["\"name\":\"ExecuteCommandLists\"", "\"name\":\"run_probe\"", "\"name\":\"probe queue\""];
                // The malformed marker: its bytes, as an instant event.
                if closed && named.iter().all(|n| j.contains(n)) && j.contains("\"name\":\"raw:010203\"") {
                    Ok(())
                } else {
                    Err(format!("{t} lacks the probe's ExecuteCommandLists, event and marker slices:\n{j}"))
                }
            }),
        );
    }
    step(
        "tools: rd3d12 run returns the program's exit status",
        match output(&mut rd3d12_run(&exe, &cache, &["sh", "-c", "exit 7"])) {
            Ok(o) if o.status.code() == Some(7) => Ok(()),
            Ok(o) => Err(format!("sh -c 'exit 7' through rd3d12 run ended with {}", o.status)),
            Err(e) => Err(e),
        },
    );
    step(
        "tools: rd3d12 run without a program",
        one_line_failure(&mut rd3d12_run(&exe, &cache, &["--gl"]), "no program"),
    );
    step(
        "tools: rd3d12 run with a missing program",
        one_line_failure(&mut rd3d12_run(&exe, &cache, &["--", "no-such-program-rd3d12"]), "not found"),
    );
    step(
        "tools: rd3d12 run with a cache folder it cannot write",
        one_line_failure(
            rd3d12_run(&exe, &cache, &["--", "true"]).env("XDG_CACHE_HOME", "/dev/null"),
            "cannot write the cache folder",
        ),
    );
    step("tools: rd3d12 info | true ends quietly", closed_pipe(&exe));
    // Mesa's GL on rd3d12 through rd3d12 run.
    step("tools: rd3d12 run --gl -- eglinfo", eglinfo(&exe, &cache));
    match crate::mesa::Xvfb::start() {
        Ok(x) => step(
            "tools: rd3d12 run --gl -- glxinfo -B under Xvfb",
            success(rd3d12_run(&exe, &cache, &["--gl", "--", "glxinfo", "-B"]).env("DISPLAY", &x.display)).and_then(
                |o| {
                    let out = String::from_utf8_lossy(&o.stdout).into_owned();
                    match out.lines().find(|l| l.starts_with("OpenGL renderer string:")) {
                        Some(l) if l.starts_with(RENDERER) => Ok(()),
                        other => Err(format!("glxinfo -B: expected {RENDERER:?}, got {other:?}")),
                    }
                },
            ),
        ),
        Err(e) => step("tools: start Xvfb", Err(e)),
    }
    if ok {
        step(
            "tools: cargo xtask install, a pkg-config client, uninstall",
            install_round_trip(root, &work, libdir, &probe),
        );
    }
}

/// eglinfo's surfaceless platform comes up on Mesa's driver with configurations, and its
/// device was made by rd3d12 (rd3d12's own log names the calls).
/// `rd3d12 info | true`: the tool's output pipe is closed (almost always before it writes).
/// Like any Unix filter it ends by SIGPIPE (or normally, when it wrote first), with no panic.
fn closed_pipe(exe: &Path) -> Result<(), String> {
    let cmd = format!("'{}' info 2>/dev/stderr | true; exit ${{PIPESTATUS[0]}}", exe.display());
    let o = output(Command::new("bash").args(["-c", &cmd]))?;
    let t = text(&o);
    if t.contains("panicked") || !t.is_empty() {
        return Err(format!("rd3d12 info | true printed {t:?}"));
    }
    match o.status.code() {
        Some(141 | 0) => Ok(()),
        c => Err(format!("rd3d12 info into a closed pipe ended with {c:?}, not SIGPIPE's 141")),
    }
}

fn eglinfo(exe: &Path, cache: &Path) -> Result<(), String> {
    let o = output(rd3d12_run(exe, cache, &["--gl", "--", "eglinfo"]).env("RD3D12_LOG", "trace"))?;
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    let surfaceless = out.split("Surfaceless platform:").nth(1).map(|s| s.split(" platform:").next().unwrap_or(s));
    let Some(s) = surfaceless else { return Err(format!("eglinfo lists no surfaceless platform:\n{out}")) };
    if !s.contains("EGL driver name: swrast") || !s.contains("Configurations:") {
        return Err(format!("eglinfo's surfaceless platform has no configurations:\n{s}"));
    }
    let created =
        err.contains("rd3d12: ID3D12DeviceFactory::CreateDevice") || err.contains("rd3d12: D3D12CreateDevice");
    if !(err.contains("rd3d12: DXCoreCreateAdapterFactory") && created) {
        return Err("eglinfo did not create its device through rd3d12 (no DXCoreCreateAdapterFactory / CreateDevice in rd3d12's log)".into());
    }
    Ok(())
}

/// Installs the debug build into a new prefix, builds run_probe with pkg-config's flags only
/// and runs it there, runs the installed `rd3d12 run`, and uninstalls.
fn install_round_trip(root: &Path, work: &Path, libdir: &Path, no_rpath_probe: &Path) -> Result<(), String> {
    let prefix = work.join("prefix");
    let files = crate::install::install_from(libdir, &prefix)?;
    let want: Vec<PathBuf> = [
        "bin/rd3d12",
        "lib/rd3d12/libd3d12.so",
        "lib/rd3d12/libdxcore.so",
        "lib/rd3d12/libd3d12core.so",
        "lib/pkgconfig/rd3d12.pc",
        "lib/rd3d12/install-manifest.txt",
    ]
    .iter()
    .map(|f| prefix.join(f))
    .collect();
    if files != want {
        return Err(format!("installed {files:?}, expected {want:?}"));
    }
    let pkgdir = prefix.join("lib/pkgconfig");
    let pc =
        success(Command::new("pkg-config").args(["--cflags", "--libs", "rd3d12"]).env("PKG_CONFIG_PATH", &pkgdir))?;
    let flags: Vec<String> = String::from_utf8_lossy(&pc.stdout).split_whitespace().map(str::to_string).collect();
    let libs = prefix.join("lib/rd3d12");
    if !flags.contains(&format!("-Wl,-rpath,{}", libs.display())) || !flags.iter().any(|f| f == "-lDirectX-Guids") {
        return Err(format!("pkg-config --cflags --libs rd3d12 gave {flags:?}"));
    }
    let client = work.join("pkgconfig_client");
    build_probe(root, &client, &flags)?;
    let l = libs.to_str().unwrap_or_default();
    success(Command::new(&client).arg(l).env_remove("LD_LIBRARY_PATH"))?;
    // The installed tool finds PREFIX/lib/rd3d12 from PREFIX/bin.
    let cache = work.join("prefix-cache");
    let private = cache.join("rd3d12/lib");
    success(&mut rd3d12_run(
        &prefix.join("bin/rd3d12"),
        &cache,
        &["--", no_rpath_probe.to_str().unwrap_or_default(), private.to_str().unwrap_or_default()],
    ))?;
    let stamp = std::fs::read_to_string(private.join("build.stamp")).unwrap_or_default();
    if !stamp.contains(l) {
        return Err(format!("the installed rd3d12 run copied its libraries from elsewhere:\n{stamp}"));
    }
    let removed = crate::install::uninstall_from(&prefix)?;
    if removed != want.len() || prefix.exists() {
        return Err(format!("uninstall removed {removed} files and left {} behind", prefix.display()));
    }
    Ok(())
}
