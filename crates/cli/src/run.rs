//! `rd3d12 run [options] -- PROGRAM ARGS...`: runs any program with rd3d12 as its D3D12.
//!
//! rd3d12's libraries (`libd3d12.so`, `libdxcore.so`) are found beside this executable (a cargo
//! build: `target/release/`) or in `../lib/rd3d12/` (an install by `cargo xtask install`) and
//! copied into a private folder, `$XDG_CACHE_HOME/rd3d12/lib` (`~/.cache/rd3d12/lib`), refreshed
//! whenever the build's files change; `libd3d12core.so` there is a link to `libd3d12.so`, for
//! programs that load that name (WSL's and Microsoft's libraries may), so both names load the
//! one library. Copies rather than links to the build, so that a program keeps running on the
//! library it loaded while the build is replaced. The folder goes first on `LD_LIBRARY_PATH`
//! and the program replaces this process (exec), so its exit status is the command's. Never a
//! default library path: Mesa would take rd3d12 for all of its software GL (see the README).
//!
//! What this module may touch: the environment of the program it starts, the cache folder,
//! and the files it reads to find the libraries and Mesa's driver.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

const USAGE: &str =
    "usage: rd3d12 run [--gl] [--debug] [--as-hardware] [--shader-model M] [--threads N] [--trace FILE] [--] PROGRAM [ARGS...]\n\
  runs PROGRAM with rd3d12 as its D3D12 (libd3d12.so, libdxcore.so and libd3d12core.so first on\n\
  LD_LIBRARY_PATH, from a private folder under ~/.cache/rd3d12) and returns its exit status\n\
  --gl           OpenGL through Mesa's d3d12 Gallium driver on rd3d12 (GALLIUM_DRIVER=d3d12)\n\
  --debug        the debug layer on (RD3D12_DEBUG=1)\n\
  --as-hardware  the CPU adapter presents itself as a hardware adapter (RD3D12_AS_HARDWARE=1;\n\
                 DirectML and torch-directml skip software adapters)\n\
  --shader-model M  the highest shader model the device reports and accepts: 5.1, or 6.0 up to\n\
                 the highest rd3d12 executes (RD3D12_SHADER_MODEL=M; below 6.0 DXIL pipelines\n\
                 are refused, as on a shader model 5.1 driver)\n\
  --threads N    N worker threads for draws, dispatches and large copies (RD3D12_THREADS=N)\n\
  --trace FILE   a Chrome/Perfetto timeline of the GPU's work (RD3D12_TRACE=FILE; open it in\n\
                 https://ui.perfetto.dev)";

/// What `rd3d12 run` was asked to do.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub gl: bool,
    pub debug: bool,
    pub as_hardware: bool,
    pub shader_model: Option<String>,
    pub threads: Option<u32>,
    pub trace: Option<PathBuf>,
    pub program: OsString,
    pub args: Vec<OsString>,
}

/// Parses `rd3d12 run`'s arguments; `Ok(None)` for --help.
pub fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        i += 1;
        match a {
            "-h" | "--help" => return Ok(None),
            "--gl" => o.gl = true,
            "--debug" => o.debug = true,
            "--as-hardware" => o.as_hardware = true,
            "--threads" => {
                let n = args.get(i).ok_or("--threads needs a number")?;
                i += 1;
                o.threads = Some(
                    n.parse::<u32>()
                        .ok()
                        .filter(|&n| n > 0)
                        .ok_or_else(|| format!("--threads {n:?}: expected a number of threads of at least 1"))?,
                );
            }
            "--shader-model" => {
                let m = args.get(i).ok_or("--shader-model needs a shader model")?;
                i += 1;
                if rd3d12::features::parse_shader_model(m).is_none() {
                    let max = rd3d12::features::MAX_SHADER_MODEL.0;
                    return Err(format!(
                        "--shader-model {m:?}: expected 5.1 or 6.0 to {}.{} (the models rd3d12 executes)",
                        max >> 4,
                        max & 0xf
                    ));
                }
                o.shader_model = Some(m.trim().to_string());
            }
            "--trace" => {
                let f = args.get(i).ok_or("--trace needs a file name")?;
                i += 1;
                o.trace = Some(PathBuf::from(f));
            }
            "--" => break,
            s if s.starts_with('-') => return Err(format!("unknown option {s:?} (rd3d12 run --help)")),
            _ => {
                i -= 1;
                break;
            }
        }
    }
    let program = args.get(i).ok_or("no program to run (rd3d12 run [options] -- PROGRAM ARGS...)")?;
    o.program = program.into();
    o.args = args[i + 1..].iter().map(OsString::from).collect();
    Ok(Some(o))
}

/// The libraries a private folder holds, by the name in the build.
const LIBS: [&str; 2] = ["libd3d12.so", "libdxcore.so"];

/// The folder holding both built libraries: beside `exe` (cargo's target folder), or
/// `../lib/rd3d12` from it (an installed prefix).
pub fn find_libs(exe: &Path) -> Result<PathBuf, String> {
    let dir = exe.parent().unwrap_or(Path::new("."));
    let candidates = [dir.to_path_buf(), dir.join("../lib/rd3d12")];
    for c in &candidates {
        if LIBS.iter().all(|l| c.join(l).is_file()) {
            return Ok(std::fs::canonicalize(c).unwrap_or_else(|_| c.clone()));
        }
    }
    Err(format!(
        "libd3d12.so and libdxcore.so are not beside {} nor in {}: build them with `cargo build --release -p rd3d12-capi -p rd3d12-dxcore` (or install with `cargo xtask install`)",
        dir.display(),
        candidates[1].display()
    ))
}

/// `$XDG_CACHE_HOME/rd3d12/lib`, else `$HOME/.cache/rd3d12/lib`.
pub fn cache_dir(xdg_cache: Option<OsString>, home: Option<OsString>) -> Result<PathBuf, String> {
    let base = match (xdg_cache.filter(|v| !v.is_empty()), home.filter(|v| !v.is_empty())) {
        (Some(x), _) => PathBuf::from(x),
        (None, Some(h)) => PathBuf::from(h).join(".cache"),
        (None, None) => return Err("neither XDG_CACHE_HOME nor HOME is set: no cache folder for the libraries".into()),
    };
    Ok(base.join("rd3d12").join("lib"))
}

/// What identifies the build's libraries: path, size and modification time of each.
fn stamp(src: &Path) -> Result<String, String> {
    use std::os::unix::fs::MetadataExt;
    let mut s = String::new();
    for l in LIBS {
        let p = src.join(l);
        let m = std::fs::metadata(&p).map_err(|e| format!("{}: {e}", p.display()))?;
        s.push_str(&format!("{} {} {}.{:09}\n", p.display(), m.len(), m.mtime(), m.mtime_nsec()));
    }
    Ok(s)
}

/// Fills `dir` with copies of the libraries of `src` (when they changed since the last time)
/// and the `libd3d12core.so` link.
pub fn refresh(src: &Path, dir: &Path) -> Result<(), String> {
    let cannot = |e: std::io::Error| format!("cannot write the cache folder {}: {e}", dir.display());
    let want = stamp(src)?;
    let stamp_file = dir.join("build.stamp");
    let core = dir.join("libd3d12core.so");
    let fresh = std::fs::read_to_string(&stamp_file).is_ok_and(|s| s == want)
        && LIBS.iter().all(|l| dir.join(l).is_file())
        && core.exists();
    if fresh {
        return Ok(());
    }
    std::fs::create_dir_all(dir).map_err(cannot)?;
    let pid = std::process::id();
    for l in LIBS {
        // A new file renamed over the old one: a program still running keeps the old library.
        let tmp = dir.join(format!(".{l}.{pid}"));
        std::fs::copy(src.join(l), &tmp).map_err(cannot)?;
        std::fs::rename(&tmp, dir.join(l)).map_err(cannot)?;
    }
    let tmp = dir.join(format!(".libd3d12core.so.{pid}"));
    let _ = std::fs::remove_file(&tmp);
    std::os::unix::fs::symlink("libd3d12.so", &tmp).map_err(cannot)?;
    std::fs::rename(&tmp, &core).map_err(cannot)?;
    std::fs::write(&stamp_file, want).map_err(cannot)?;
    Ok(())
}

/// Where Mesa keeps its DRI drivers on this machine: LIBGL_DRIVERS_PATH, then the usual places.
fn dri_dirs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> =
        std::env::var_os("LIBGL_DRIVERS_PATH").map(|p| std::env::split_paths(&p).collect()).unwrap_or_default();
    let arch = std::env::consts::ARCH;
    for d in [
        format!("/usr/lib/{arch}-linux-gnu/dri"),
        "/usr/lib64/dri".into(),
        "/usr/lib/dri".into(),
        "/usr/local/lib/dri".into(),
    ] {
        v.push(PathBuf::from(d));
    }
    v
}

/// Mesa's d3d12 Gallium driver, or the one-line reason there is none.
pub fn mesa_d3d12(dirs: &[PathBuf]) -> Result<PathBuf, String> {
    dirs.iter().map(|d| d.join("d3d12_dri.so")).find(|p| p.exists()).ok_or_else(|| {
        let shown: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
        format!(
            "--gl: the installed Mesa has no d3d12 Gallium driver (no d3d12_dri.so in {}); Debian and Ubuntu ship it in libgl1-mesa-dri",
            shown.join(", ")
        )
    })
}

/// The program as exec will find it: a path as given, else the first match on PATH.
pub fn resolve(program: &std::ffi::OsStr, path: Option<OsString>) -> Result<PathBuf, String> {
    use std::os::unix::fs::PermissionsExt;
    let runnable = |p: &Path| std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    let p = Path::new(program);
    if program.as_encoded_bytes().contains(&b'/') {
        return if runnable(p) {
            Ok(p.to_path_buf())
        } else {
            Err(format!("program {} not found (or not executable)", p.display()))
        };
    }
    let path = path.unwrap_or_default();
    std::env::split_paths(&path)
        .map(|d| d.join(p))
        .find(|c| runnable(c))
        .ok_or_else(|| format!("program {:?} not found on PATH", program))
}

/// `rd3d12 run`: on success this process becomes the program and never returns.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some(o) = parse(args).map_err(|e| format!("run: {e}"))? else {
        println!("{USAGE}");
        return Ok(());
    };
    let fail = |e: String| format!("run: {e}");
    let exe = std::env::current_exe().map_err(|e| fail(format!("cannot find this executable: {e}")))?;
    let src = find_libs(&exe).map_err(fail)?;
    let dir = cache_dir(std::env::var_os("XDG_CACHE_HOME"), std::env::var_os("HOME")).map_err(fail)?;
    refresh(&src, &dir).map_err(fail)?;
    let program = resolve(&o.program, std::env::var_os("PATH")).map_err(fail)?;

    let mut cmd = std::process::Command::new(&program);
    cmd.args(&o.args);
    // argv[0] as the user typed it, as a shell would pass it.
    std::os::unix::process::CommandExt::arg0(&mut cmd, &o.program);
    let mut ld = OsString::from(dir.as_os_str());
    if let Some(old) = std::env::var_os("LD_LIBRARY_PATH").filter(|v| !v.is_empty()) {
        ld.push(":");
        ld.push(old);
    }
    cmd.env("LD_LIBRARY_PATH", ld);
    if o.gl {
        mesa_d3d12(&dri_dirs()).map_err(fail)?;
        cmd.env("GALLIUM_DRIVER", "d3d12");
    }
    if o.debug {
        cmd.env("RD3D12_DEBUG", "1");
    }
    if o.as_hardware {
        cmd.env("RD3D12_AS_HARDWARE", "1");
    }
    if let Some(m) = &o.shader_model {
        cmd.env(rd3d12::features::SHADER_MODEL_ENV, m);
    }
    if let Some(n) = o.threads {
        cmd.env("RD3D12_THREADS", n.to_string());
    }
    if let Some(t) = &o.trace {
        cmd.env("RD3D12_TRACE", t);
    }
    let e = std::os::unix::process::CommandExt::exec(&mut cmd);
    Err(fail(format!("cannot run {}: {e}", program.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn options_then_the_program_and_its_arguments() {
        let o = parse(&args(&["--gl", "--threads", "3", "--trace", "t.json", "--", "glxinfo", "-B"])).unwrap().unwrap();
        assert!(o.gl && !o.debug && !o.as_hardware);
        assert_eq!(o.threads, Some(3));
        assert_eq!(o.trace, Some(PathBuf::from("t.json")));
        assert_eq!(o.program, "glxinfo");
        assert_eq!(o.args, vec![OsString::from("-B")]);
        // Without `--` the first non-option is the program; its own options stay its own.
        let o = parse(&args(&["--debug", "--as-hardware", "python3", "--gl", "-c", "1"])).unwrap().unwrap();
        assert!(o.debug && o.as_hardware && !o.gl);
        assert_eq!(o.shader_model, None);
        assert_eq!(o.program, "python3");
        assert_eq!(o.args, args(&["--gl", "-c", "1"]).iter().map(OsString::from).collect::<Vec<_>>());
        let o = parse(&args(&["--shader-model", "5.1", "--", "python3"])).unwrap().unwrap();
        assert_eq!((o.shader_model.as_deref(), o.program.to_str()), (Some("5.1"), Some("python3")));
        // `--` lets a program's name start with a dash.
        assert_eq!(parse(&args(&["--", "-x"])).unwrap().unwrap().program, "-x");
        assert_eq!(parse(&args(&["--help"])).unwrap(), None);
    }

    #[test]
    fn bad_command_lines_are_one_line_errors() {
        for (a, want) in [
            (&[][..], "no program to run"),
            (&["--gl"][..], "no program to run"),
            (&["--gl", "--"][..], "no program to run"),
            (&["--threads"][..], "--threads needs a number"),
            (&["--threads", "0", "x"][..], "at least 1"),
            (&["--threads", "many", "x"][..], "at least 1"),
            (&["--trace"][..], "--trace needs a file name"),
            (&["--shader-model"][..], "--shader-model needs a shader model"),
            (&["--shader-model", "5.0", "x"][..], "expected 5.1 or 6.0 to 6.2"),
            (&["--shader-model", "6.6", "x"][..], "expected 5.1 or 6.0 to 6.2"),
            (&["--frobnicate", "x"][..], "unknown option"),
        ] {
            let e = parse(&args(a)).unwrap_err();
            assert!(e.contains(want) && !e.contains('\n'), "{a:?}: {e}");
        }
    }

    #[test]
    fn the_cache_folder() {
        assert_eq!(cache_dir(Some("/c".into()), Some("/h".into())).unwrap(), PathBuf::from("/c/rd3d12/lib"));
        assert_eq!(cache_dir(Some("".into()), Some("/h".into())).unwrap(), PathBuf::from("/h/.cache/rd3d12/lib"));
        assert!(cache_dir(None, None).is_err());
    }

    #[test]
    fn the_private_folder_is_refreshed_when_the_build_changes() {
        let t = std::env::temp_dir().join(format!("rd3d12-run-test-{}", std::process::id()));
        let (src, dir) = (t.join("build"), t.join("cache/rd3d12/lib"));
        std::fs::create_dir_all(&src).unwrap();
        assert!(find_libs(&src.join("rd3d12")).unwrap_err().contains("cargo build --release -p rd3d12-capi"));
        std::fs::write(src.join("libd3d12.so"), b"one").unwrap();
        std::fs::write(src.join("libdxcore.so"), b"dx").unwrap();
        assert_eq!(find_libs(&src.join("rd3d12")).unwrap(), std::fs::canonicalize(&src).unwrap());
        refresh(&src, &dir).unwrap();
        assert_eq!(std::fs::read(dir.join("libd3d12.so")).unwrap(), b"one");
        assert_eq!(std::fs::read(dir.join("libd3d12core.so")).unwrap(), b"one");
        assert_eq!(std::fs::read_link(dir.join("libd3d12core.so")).unwrap(), PathBuf::from("libd3d12.so"));
        // A rebuild (another size) is copied again; the folder holds nothing else.
        std::fs::write(src.join("libd3d12.so"), b"second").unwrap();
        refresh(&src, &dir).unwrap();
        assert_eq!(std::fs::read(dir.join("libd3d12.so")).unwrap(), b"second");
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["build.stamp", "libd3d12.so", "libd3d12core.so", "libdxcore.so"]);
        // A folder that cannot be made: one line saying so.
        let e = refresh(&src, Path::new("/dev/null/rd3d12/lib")).unwrap_err();
        assert!(e.starts_with("cannot write the cache folder /dev/null/rd3d12/lib") && !e.contains('\n'), "{e}");
        std::fs::remove_dir_all(&t).unwrap();
    }

    #[test]
    fn programs_are_found_as_exec_finds_them() {
        assert_eq!(
            resolve("sh".as_ref(), Some("/nonexistent:/bin:/usr/bin".into())).unwrap(),
            PathBuf::from("/bin/sh")
        );
        assert!(resolve("sh".as_ref(), Some("/nonexistent".into())).unwrap_err().contains("not found on PATH"));
        assert!(resolve("/no/such/program".as_ref(), None).unwrap_err().contains("not found"));
        // A file that is not executable is not a program.
        assert!(resolve("/etc/passwd".as_ref(), None).is_err());
        assert!(mesa_d3d12(&[PathBuf::from("/nonexistent")]).unwrap_err().contains("no d3d12 Gallium driver"));
    }
}
