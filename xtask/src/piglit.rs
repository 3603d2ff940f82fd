//! `cargo xtask piglit [--full] [--jobs N] [--timeout S] [--only REGEX]`: Debian's OpenGL test
//! suite (`piglit`) on Mesa's llvmpipe and on Mesa's d3d12 driver over rd3d12, one after the
//! other on the same machine, with the counts of both. Not part of `cargo xtask test` (a run of
//! the fixed list takes tens of minutes on two cores).
//!
//! The fixed list is `tests/piglit/list.txt` (made by `tests/piglit/pick.py` from the `quick`
//! profile; see its header); `--full` runs the whole `quick` profile instead. Results go to
//! `target/piglit/{llvmpipe,rd3d12}`; `target/piglit/behind.txt` lists the tests llvmpipe passes
//! and rd3d12 does not, with rd3d12's status. The command fails when rd3d12 passes fewer tests
//! than llvmpipe.

use std::path::{Path, PathBuf};
use std::process::Command;

/// How a results folder is summarised: status counts, and for the comparison each test's status.
const SUMMARY_PY: &str = r#"
import bz2, json, sys
def load(d):
    return json.load(bz2.open(d + '/results.json.bz2'))['tests']
ref, ours = load(sys.argv[1]), load(sys.argv[2])
def counts(t):
    c = {}
    for v in t.values():
        c[v['result']] = c.get(v['result'], 0) + 1
    return c
for name, t in (('llvmpipe', ref), ('rd3d12', ours)):
    c = counts(t)
    print('%-9s %5d tests: %s' % (name, len(t), ', '.join('%s %d' % kv for kv in sorted(c.items(), key=lambda kv: -kv[1]))))
both = [k for k in ref if ref[k]['result'] != 'skip' and ours.get(k, {}).get('result', 'notrun') != 'skip']
p_ref = sum(ref[k]['result'] == 'pass' for k in ref)
p_ours = sum(ours[k]['result'] == 'pass' for k in ours)
pb_ref = sum(ref[k]['result'] == 'pass' for k in both)
pb_ours = sum(ours.get(k, {}).get('result') == 'pass' for k in both)
behind = sorted(k for k in ref if ref[k]['result'] == 'pass' and ours.get(k, {}).get('result') != 'pass')
ahead = sorted(k for k in ours if ours[k]['result'] == 'pass' and ref.get(k, {}).get('result') != 'pass')
with open(sys.argv[3], 'w') as f:
    for k in behind:
        f.write('%s %s\n' % (ours.get(k, {}).get('result', 'notrun'), k))
print('passed: llvmpipe %d, rd3d12 %d; of the %d tests neither skips, rd3d12 passes %d, llvmpipe %d (%.1f%%)'
      % (p_ref, p_ours, len(both), pb_ours, pb_ref, 100.0 * pb_ours / max(pb_ref, 1)))
print('rd3d12 behind llvmpipe on %d tests (listed in %s), ahead on %d' % (len(behind), sys.argv[3], len(ahead)))
sys.exit(0 if p_ours >= p_ref else 1)
"#;

struct Options {
    full: bool,
    jobs: usize,
    timeout: u32,
    only: Vec<String>,
}

fn parse(args: &[String]) -> Result<Options, String> {
    let jobs = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut o = Options { full: false, jobs, timeout: 60, only: Vec::new() };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or_else(|| format!("{a} needs {what}"));
        match a.as_str() {
            "--full" => o.full = true,
            "--jobs" => o.jobs = value("a number")?.parse().map_err(|_| "--jobs takes a number".to_string())?,
            "--timeout" => o.timeout = value("seconds")?.parse().map_err(|_| "--timeout takes seconds".to_string())?,
            "--only" => o.only.push(value("a regex")?),
            _ => {
                return Err(format!(
                    "unknown argument {a}; usage: cargo xtask piglit [--full] [--jobs N] [--timeout S] [--only REGEX]"
                ))
            }
        }
    }
    Ok(o)
}

/// piglit, and waffle's `wflinfo`: piglit asks it for the context's GL and GLSL versions, and
/// without it skips every shader_runner test ("only 0.0 is available").
fn ensure_piglit() -> Result<(), String> {
    let missing: Vec<&str> = [("piglit", "/usr/bin/piglit"), ("waffle-utils", "/usr/bin/wflinfo")]
        .into_iter()
        .filter(|(_, f)| !Path::new(f).exists())
        .map(|(p, _)| p)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    crate::test::install(&missing)
}

/// One piglit run of the chosen tests on one driver (`libs`: our library folder, or llvmpipe).
fn run_driver(
    o: &Options,
    x: &crate::mesa::Xvfb,
    list: &Path,
    results: &Path,
    libs: Option<&Path>,
) -> Result<(), String> {
    let mut c = Command::new("piglit");
    c.args(["run", "quick", "-p", "glx", "-o", "-l", "dummy"]);
    c.arg("-j").arg(o.jobs.to_string()).arg("--timeout").arg(o.timeout.to_string());
    if !o.full {
        c.arg("--test-list").arg(list);
    } else {
        for r in &o.only {
            c.arg("-t").arg(r);
        }
    }
    c.arg(results);
    c.env_remove("LD_LIBRARY_PATH").env_remove("RD3D12_LOG").env_remove("RD3D12_DEBUG");
    c.env("PIGLIT_PLATFORM", "glx").env("DISPLAY", &x.display);
    match libs {
        Some(dir) => c.env("GALLIUM_DRIVER", "d3d12").env("LD_LIBRARY_PATH", dir),
        None => c.env("GALLIUM_DRIVER", "llvmpipe"),
    };
    let started = std::time::Instant::now();
    let name = if libs.is_some() { "rd3d12" } else { "llvmpipe" };
    eprintln!("xtask piglit: running on {name}");
    let st = c.status().map_err(|e| format!("piglit: {e}"))?;
    eprintln!("xtask piglit: {name} took {:.0} s", started.elapsed().as_secs_f64());
    if st.success() {
        Ok(())
    } else {
        Err(format!("piglit run on {name} failed ({st})"))
    }
}

pub fn run_cmd(args: &[String]) -> Result<(), String> {
    let o = parse(args)?;
    ensure_piglit()?;
    let root = crate::root();
    let st = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args(["build", "--release", "-p", "rd3d12-capi", "-p", "rd3d12-dxcore"])
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !st.success() {
        return Err("cargo build --release failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| root.join("target"));
    let out = target.join("piglit");
    // Copies, not links: a rebuild during the run must not change the library under the tests.
    let libs = out.join("lib");
    std::fs::create_dir_all(&libs).map_err(|e| format!("{}: {e}", libs.display()))?;
    for lib in ["libd3d12.so", "libdxcore.so"] {
        std::fs::copy(target.join("release").join(lib), libs.join(lib)).map_err(|e| format!("{lib}: {e}"))?;
    }
    let mut list = root.join("tests/piglit/list.txt");
    if !o.only.is_empty() && !o.full {
        // piglit's -t filters the profile before its --test-list is looked up in it (and then
        // fails on the names filtered out), so the list itself is filtered, with Python's re.search as -t would.
        let filtered = out.join("list.txt");
        let st = Command::new("python3")
            .arg("-c")
            .arg("import re,sys\nrs=sys.argv[3:]\nopen(sys.argv[2],'w').write(''.join(l for l in open(sys.argv[1]) if not l.startswith('#') and any(re.search(r,l.strip()) for r in rs)))")
            .arg(&list)
            .arg(&filtered)
            .args(&o.only)
            .status()
            .map_err(|e| format!("python3: {e}"))?;
        if !st.success() {
            return Err("filtering the list failed".into());
        }
        list = filtered;
    }
    let (ref_dir, our_dir) = (out.join("llvmpipe"), out.join("rd3d12"));
    // Under Xvfb with GLX: piglit runs the tests that need a window (those it does not run
    // concurrently) without -fbo, and those fail on a surfaceless platform.
    let x = crate::mesa::Xvfb::start()?;
    run_driver(&o, &x, &list, &ref_dir, None)?;
    run_driver(&o, &x, &list, &our_dir, Some(&libs))?;
    let st = Command::new("python3")
        .arg("-c")
        .arg(SUMMARY_PY)
        .arg(&ref_dir)
        .arg(&our_dir)
        .arg(out.join("behind.txt"))
        .status()
        .map_err(|e| format!("python3: {e}"))?;
    if st.success() {
        Ok(())
    } else {
        Err("rd3d12 passes fewer piglit tests than llvmpipe".into())
    }
}
