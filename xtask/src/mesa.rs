//! Mesa's OpenGL on rd3d12: Debian's Gallium d3d12 driver (the driver behind WSLg) loads
//! `libd3d12.so` and `libdxcore.so` by name; with `GALLIUM_DRIVER=d3d12` and
//! `LD_LIBRARY_PATH` naming a folder that holds only our two libraries, GL runs on rd3d12.
//! Every test runs once more with llvmpipe as the control, so a failure of the machine's Mesa
//! setup shows up as a failing control rather than as a failure of ours.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The renderer string Mesa builds from our DXCore adapter's DriverDescription.
const RENDERER: &str = "D3D12 (rd3d12 CPU adapter)";

fn output(cmd: &mut Command) -> Result<(String, String), String> {
    let shown = format!("{cmd:?}");
    let out = cmd.output().map_err(|e| format!("{shown}: {e}"))?;
    let (so, se) =
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned());
    if out.status.success() {
        Ok((so, se))
    } else {
        Err(format!("{shown} failed ({}):\n{so}{se}", out.status))
    }
}

/// A command with Mesa on the d3d12 driver over our libraries, or on llvmpipe.
fn gl(program: &Path, libs: Option<&Path>) -> Command {
    let mut c = Command::new(program);
    c.env_remove("LD_LIBRARY_PATH").env_remove("RD3D12_LOG").env_remove("RD3D12_DEBUG");
    match libs {
        Some(dir) => c.env("GALLIUM_DRIVER", "d3d12").env("LD_LIBRARY_PATH", dir),
        None => c.env("GALLIUM_DRIVER", "llvmpipe"),
    };
    c
}

/// A folder holding only our two libraries (symlinks to the build), as users install them.
fn private_libs(target: &Path, libdir: &Path) -> Result<PathBuf, String> {
    let dir = target.join("mesa-libs");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for lib in ["libd3d12.so", "libdxcore.so"] {
        std::os::unix::fs::symlink(libdir.join(lib), dir.join(lib)).map_err(|e| format!("{lib}: {e}"))?;
    }
    Ok(dir)
}

/// (a) An EGL surfaceless GLES program given the renderer it must run on: egl_clear (a cleared
/// FBO read back, a triangle drawn with a GLSL program and read back) and gl_scene (texture
/// upload and sampling, depth test on a D24S8 renderbuffer, blending) and gl_compute (a GLES
/// 3.1 compute shader over a storage buffer).
fn egl_program(exe: &Path, libs: Option<&Path>) -> Result<(), String> {
    let mut c = gl(exe, libs);
    match libs {
        Some(_) => c.arg(RENDERER),
        None => c.arg("llvmpipe"),
    };
    let (out, _) = output(&mut c)?;
    eprint!("{out}");
    Ok(())
}

/// (a') The scene hashes a scene program (gl_diff: OpenGL ES, 52 lines: pixel scenes, and the
/// atomic counter, integer target, float targets, storage buffer, image atomics and transform
/// feedback capture printed as numbers; gl_desktop: desktop OpenGL 4.2 core, 66 lines) prints on
/// llvmpipe and on d3d12 over rd3d12 must be equal, and there must be at least `lines` of them.
/// `shader`: the RD3D12_SHADER rd3d12 runs under (`None`: the default, the JIT).
fn scenes_equal(exe: &Path, libs: &Path, lines: usize, shader: Option<&str>) -> Result<(), String> {
    let name = exe.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let hashes = |libs: Option<&Path>| -> Result<Vec<(String, String)>, String> {
        let mut c = gl(exe, libs);
        if let (Some(_), Some(s)) = (libs, shader) {
            c.env("RD3D12_SHADER", s);
        }
        let (out, _) = output(&mut c)?;
        Ok(out
            .lines()
            .filter_map(|l| {
                let mut w = l.split_whitespace();
                Some((w.next()?.to_string(), w.next()?.to_string()))
            })
            .collect())
    };
    let (reference, ours) = (hashes(None)?, hashes(Some(libs))?);
    if reference.len() < lines || reference != ours {
        return Err(format!("{name}: llvmpipe {reference:?}\nrd3d12 {ours:?}"));
    }
    eprintln!("xtask: {name}: {} scenes equal", ours.len());
    Ok(())
}

/// (b) eglinfo: the surfaceless platform and the device platform come up on the driver, with
/// configurations, and (for d3d12) our library created the device they run on.
fn eglinfo(libs: Option<&Path>) -> Result<(), String> {
    let mut c = gl(Path::new("eglinfo"), libs);
    if libs.is_some() {
        c.env("RD3D12_LOG", "trace");
    }
    // eglinfo exits non-zero when any platform fails (no Wayland or X server here): what
    // counts is what it lists.
    c.stdin(Stdio::null());
    let o = c.output().map_err(|e| format!("eglinfo: {e}"))?;
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    let section = |name: &str| -> Option<&str> {
        let start = out.find(name)?;
        let rest = &out[start + name.len()..];
        Some(rest.find("platform:").map_or(rest, |e| &rest[..e]))
    };
    for platform in ["Surfaceless platform:", "Device platform:"] {
        let s = section(platform).ok_or_else(|| format!("eglinfo lists no {platform}\n{out}"))?;
        if !s.contains("EGL driver name: swrast") || !s.contains("Configurations:") || !s.contains(" 8  8  8  8 ") {
            return Err(format!("eglinfo: {platform} has no RGBA8 configurations on the driver:\n{s}"));
        }
    }
    // Mesa creates its device through an ID3D12DeviceFactory when D3D12GetInterface offers one.
    let created =
        err.contains("rd3d12: ID3D12DeviceFactory::CreateDevice") || err.contains("rd3d12: D3D12CreateDevice");
    if libs.is_some() && !(err.contains("rd3d12: DXCoreCreateAdapterFactory") && created) {
        return Err(format!("eglinfo did not create its device through rd3d12:\n{err}"));
    }
    Ok(())
}

/// An Xvfb server, started without our libraries on its path, stopped on drop.
pub struct Xvfb {
    child: std::process::Child,
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb on a display it picks itself (`-displayfd`: it writes the number once it
    /// accepts connections), so that neither a display in use nor the lock and socket a killed
    /// server left behind can get in the way.
    pub fn start() -> Result<Xvfb, String> {
        use std::io::BufRead as _;
        let mut child = Command::new("Xvfb")
            .args(["-displayfd", "1", "-screen", "0", "640x480x24", "-nolisten", "tcp"])
            .env_remove("LD_LIBRARY_PATH")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("Xvfb: {e}"))?;
        let out = child.stdout.take().ok_or("Xvfb: no stdout")?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = std::io::BufReader::new(out).read_line(&mut line);
            let _ = tx.send(line);
        });
        let mut x = Xvfb { child, display: String::new() };
        match rx.recv_timeout(std::time::Duration::from_secs(10)) {
            Ok(line) if line.trim().parse::<u32>().is_ok() => {
                x.display = format!(":{}", line.trim());
                Ok(x)
            }
            Ok(_) => Err(format!("Xvfb exited ({:?})", x.child.try_wait())),
            Err(_) => Err("Xvfb did not come up in 10 s".into()),
        }
    }
}

impl Drop for Xvfb {
    /// SIGTERM, so that the server removes its lock file and socket (SIGKILL leaves them).
    fn drop(&mut self) {
        let stopped = Command::new("kill").args(["-TERM", &self.child.id().to_string()]).status();
        if !stopped.is_ok_and(|s| s.success()) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// (c) glxinfo -B under Xvfb names the renderer.
fn glxinfo(x: &Xvfb, libs: Option<&Path>) -> Result<(), String> {
    let mut c = gl(Path::new("glxinfo"), libs);
    c.arg("-B").env("DISPLAY", &x.display);
    let (out, _) = output(&mut c)?;
    let want = match libs {
        Some(_) => format!("OpenGL renderer string: {RENDERER}"),
        None => "OpenGL renderer string: llvmpipe".to_string(),
    };
    match out.lines().find(|l| l.starts_with("OpenGL renderer string:")) {
        Some(l) if l.starts_with(&want) => {
            eprintln!("xtask: glxinfo -B: {l}");
            Ok(())
        }
        other => Err(format!("glxinfo -B: expected {want:?}, got {other:?}\n{out}")),
    }
}

pub fn run_all(step: &mut impl FnMut(&str, Result<(), String>), root: &Path, target: &Path, libdir: &Path) {
    let libs = match private_libs(target, libdir) {
        Ok(d) => d,
        Err(e) => return step("mesa: private library folder", Err(e)),
    };
    // (a) egl_clear, gl_scene and gl_compute: EGL surfaceless programs checking their pixels
    // or buffer words.
    for name in ["egl_clear", "gl_scene", "gl_compute"] {
        let exe = target.join("abi").join(name);
        let mut cc = Command::new("gcc");
        cc.args(["-std=c11", "-Wall", "-Werror"]).arg(root.join(format!("tests/mesa/{name}.c"))).arg("-o").arg(&exe);
        cc.args(["-lEGL", "-lGLESv2"]);
        let built = output(&mut cc).map(|_| ());
        let ok = built.is_ok();
        step(&format!("mesa: build {name}"), built);
        if ok {
            step(&format!("mesa: {name} on llvmpipe (control)"), egl_program(&exe, None));
            step(&format!("mesa: {name} on d3d12 over rd3d12"), egl_program(&exe, Some(&libs)));
        }
    }
    // (a') gl_diff (OpenGL ES) and gl_desktop (OpenGL 4.2 core): the same scenes on both drivers
    // must give the same pixels.
    for (name, gl_lib, lines) in [("gl_diff", "-lGLESv2", 52), ("gl_desktop", "-lGL", 66)] {
        let exe = target.join("abi").join(name);
        let mut cc = Command::new("gcc");
        cc.args(["-std=c11", "-Wall", "-Werror"]).arg(root.join(format!("tests/mesa/{name}.c"))).arg("-o").arg(&exe);
        cc.args(["-lEGL", gl_lib, "-lm"]);
        let built = output(&mut cc).map(|_| ());
        let ok = built.is_ok();
        step(&format!("mesa: build {name}"), built);
        if ok {
            step(
                &format!("mesa: {name} scenes on d3d12 over rd3d12 equal llvmpipe's pixels"),
                scenes_equal(&exe, &libs, lines, None),
            );
            // The interpreter, the JIT's oracle, on the same scenes.
            step(
                &format!("mesa: {name} scenes on d3d12 over rd3d12 (RD3D12_SHADER=interp) equal llvmpipe's pixels"),
                scenes_equal(&exe, &libs, lines, Some("interp")),
            );
        }
    }
    step("mesa: eglinfo on llvmpipe (control)", eglinfo(None));
    step("mesa: eglinfo on d3d12 over rd3d12", eglinfo(Some(&libs)));
    match Xvfb::start() {
        Ok(x) => {
            step("mesa: glxinfo -B under Xvfb on llvmpipe (control)", glxinfo(&x, None));
            step("mesa: glxinfo -B under Xvfb on d3d12 over rd3d12", glxinfo(&x, Some(&libs)));
        }
        Err(e) => step("mesa: start Xvfb", Err(e)),
    }
}
