//! `cargo xtask speed [--base REV] [--rounds N]`: the shader speed of this checkout against an
//! older revision's, in one run (issue #20's per-core targets). Builds the `draw_speed` and
//! `exec_speed` examples of both (the base in a git worktree under `target/speed/`), then runs
//! them by turns, `rounds` times, on one thread, and prints the fastest round of each and their
//! ratios.
//!
//! The base defaults to 635ba63, the last revision that kept the interpreter of before issue
//! #20 (one invocation at a time over `Val`s, run there with `RD3D12_INTERP=legacy`, inside the
//! same tiled pipeline): its `draw_speed` ns/pixel and `exec_speed` "legacy run_quad" ns per
//! invocation against this checkout's `draw_speed` and `exec_speed` "wave of 8/32, WaveEnv".

use std::path::Path;
use std::process::Command;

const BASE: &str = "635ba63";

pub fn run_cmd(args: &[String]) -> Result<(), String> {
    let mut base = BASE.to_string();
    let mut rounds = 5usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--base" => base = it.next().ok_or("--base needs a revision")?.clone(),
            "--rounds" => rounds = it.next().and_then(|n| n.parse().ok()).ok_or("--rounds needs a number")?,
            other => return Err(format!("speed: unknown argument {other}")),
        }
    }
    let root = crate::root();
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(std::path::PathBuf::from).unwrap_or_else(|| root.join("target"));
    let dir = target.join("speed");
    let tree = dir.join(format!("base-{base}"));
    if !tree.exists() {
        let st = Command::new("git")
            .current_dir(&root)
            .args(["worktree", "add", "--detach"])
            .arg(&tree)
            .arg(&base)
            .status()
            .map_err(|e| format!("git: {e}"))?;
        if !st.success() {
            return Err(format!("git worktree add {base} failed"));
        }
    }
    let base_target = dir.join("target");
    build(&tree, Some(&base_target))?;
    build(&root, None)?;
    let bin = |t: &Path, name: &str| t.join("release/examples").join(name);
    let (old_draw, old_exec) = (bin(&base_target, "draw_speed"), bin(&base_target, "exec_speed"));
    let (new_draw, new_exec) = (bin(&target, "draw_speed"), bin(&target, "exec_speed"));
    let mut t = [Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new()];
    for r in 0..rounds {
        eprintln!("round {}/{rounds}", r + 1);
        t[0].push(number(&output(&old_draw, &["10", "1", "3"], true)?, "ns/pixel")?);
        t[1].push(number(&output(&new_draw, &["10", "1", "3"], false)?, "ns/pixel")?);
        let old = output(&old_exec, &[], true)?;
        t[2].push(number(&old, "legacy run_quad:")?);
        let new = output(&new_exec, &[], false)?;
        t[3].push(number(&new, "wave of  8, WaveEnv:")?);
        t[4].push(number(&new, "wave of 32, WaveEnv:")?);
    }
    // The machine may be shared: the fastest round of each counts (as exec_speed's own rounds).
    let m: Vec<f64> = t.iter().map(|v| v.iter().copied().fold(f64::MAX, f64::min)).collect();
    println!("best of {rounds} rounds, one thread, base {base} (RD3D12_INTERP=legacy) vs this checkout:");
    println!("  draw_speed ns/pixel:        base {:8.1}   now {:8.1}   {:.2}x", m[0], m[1], m[0] / m[1]);
    println!("  exec_speed ns/invocation:   base {:8.1} (legacy run_quad)", m[2]);
    println!("    wave of  8, WaveEnv:                 now {:8.1}   {:.2}x", m[3], m[2] / m[3]);
    println!("    wave of 32, WaveEnv:                 now {:8.1}   {:.2}x", m[4], m[2] / m[4]);
    Ok(())
}

/// `cargo build --release` of the two examples in `tree` (into `target` if given).
fn build(tree: &Path, target: Option<&Path>) -> Result<(), String> {
    let mut cmd = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    cmd.current_dir(tree).args([
        "build",
        "--release",
        "-p",
        "rd3d12-swgpu",
        "--example",
        "draw_speed",
        "-p",
        "rd3d12-shader",
        "--example",
        "exec_speed",
    ]);
    if let Some(t) = target {
        cmd.env("CARGO_TARGET_DIR", t);
    }
    let st = cmd.status().map_err(|e| format!("cargo: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err(format!("building the examples in {} failed", tree.display()))
    }
}

/// The standard output of `bin args` (`legacy`: with `RD3D12_INTERP=legacy`, one thread).
fn output(bin: &Path, args: &[&str], legacy: bool) -> Result<String, String> {
    let mut cmd = Command::new(bin);
    cmd.args(args).env("RD3D12_THREADS", "1");
    if legacy {
        cmd.env("RD3D12_INTERP", "legacy");
    }
    let out = cmd.output().map_err(|e| format!("{}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!("{} failed: {}", bin.display(), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The first number after `label` on a line of `out`.
fn number(out: &str, label: &str) -> Result<f64, String> {
    out.lines()
        .find_map(|l| l.trim_start().strip_prefix(label.trim_start()))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("no \"{label}\" in:\n{out}"))
}
