//! The `rd3d12 decl` checks of `cargo xtask test`: the declarations are compiled and every size
//! and offset the layout engine prints is compared with what a compiler makes of them.
//!
//! Required (always run): C with gcc against Microsoft's own headers and against the emitted C
//! (linux-x64), and with clang's MSVC targets (windows-x64, windows-x86); C++ likewise; Rust with
//! rustc; Python with ctypes; the vtable slots against the contract of tests/abi/client.c; the
//! HSP golden files against the C compiler. Optional (run when the compiler is installed, a note
//! otherwise): Go (all three ABIs through GOOS/GOARCH), Free Pascal, D (gdc), C# (mcs + mono), Nim,
//! Zig (all three ABIs through -target; `zig` or PyPI's `ziglang`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use rd3d12_decl::{Abi, Lang};

type Step<'a> = &'a mut dyn FnMut(&str, Result<(), String>);

fn out_dir() -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| crate::root().join("target"));
    let d = target.join("decl-check");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Whether `tool` is on PATH.
fn have(tool: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|p| std::env::split_paths(&p).any(|d| d.join(tool).is_file()))
}

/// Runs a command; its output is shown only when it fails.
fn run(cmd: &mut Command) -> Result<String, String> {
    let shown = format!("{cmd:?}");
    let o = cmd.output().map_err(|e| format!("{shown}: {e}"))?;
    let text = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    if o.status.success() {
        Ok(text)
    } else {
        let tail: Vec<&str> = text.lines().take(40).collect();
        Err(format!("{shown} failed ({}):\n{}", o.status, tail.join("\n")))
    }
}

fn write(name: &str, text: &str) -> Result<PathBuf, String> {
    let p = out_dir().join(name);
    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))?;
    Ok(p)
}

/// Everything decl knows, with its dependencies: one self-contained file per language and ABI.
fn everything(lang: Lang, abi: Abi) -> Result<String, String> {
    rd3d12_decl::render(&rd3d12_decl::all_names(), lang, abi, true)
}

/// Static assertions of every record's size, alignment and member offsets, and of every
/// interface's vtable slots (C only); returns the text and what they cover.
fn c_asserts(abi: Abi, cpp: bool, with_slots: bool, headers: bool) -> Result<(String, String), String> {
    let (sa, alignof) = if cpp { ("static_assert", "alignof") } else { ("_Static_assert", "_Alignof") };
    let mut s = String::new();
    let (mut n, mut records, mut slots) = (0, 0, 0);
    let facts = rd3d12_decl::record_facts(abi)?;
    for r in facts {
        records += 1;
        let t = if headers { &r.c_ref } else { &r.name };
        let _ = writeln!(s, "{sa}(sizeof({t}) == {}, \"sizeof {t}\");", r.size);
        let _ = writeln!(s, "{sa}({alignof}({t}) == {}, \"alignof {t}\");", r.align);
        n += 2;
        for (m, off) in &r.c_members {
            let _ = writeln!(s, "{sa}(offsetof({t}, {m}) == {off}, \"offsetof {t}.{m}\");");
            n += 1;
        }
    }
    if with_slots {
        for i in rd3d12_decl::interface_names() {
            for (slot, m) in rd3d12_decl::slots(i)? {
                let _ = writeln!(s, "{sa}(offsetof({i}Vtbl, {m}) / sizeof(void *) == {slot}, \"slot {i}::{m}\");");
                slots += 1;
            }
        }
    }
    let ifaces = rd3d12_decl::interface_names().len();
    let what = if with_slots {
        format!(
            "{records} records' sizes and alignments, {} member offsets, {slots} vtable slots of {ifaces} interfaces",
            n - 2 * records
        )
    } else {
        format!("{records} records' sizes and alignments, {} member offsets", n - 2 * records)
    };
    Ok((s, what))
}

fn check_c(abi: Abi, cpp: bool) -> Result<String, String> {
    let lang = if cpp { Lang::Cpp } else { Lang::C };
    let (asserts, n) = c_asserts(abi, cpp, !cpp, false)?;
    let src = format!("{}\n{asserts}", everything(lang, abi)?);
    let ext = if cpp { "cpp" } else { "c" };
    let file = write(&format!("all_{}.{ext}", abi.name()), &src)?;
    let mut compilers: Vec<Command> = Vec::new();
    let std = if cpp { "-std=c++17" } else { "-std=c11" };
    match abi {
        Abi::LinuxX64 => {
            let mut g = Command::new(if cpp { "g++" } else { "gcc" });
            g.args([std, "-fsyntax-only", "-Werror"]).arg(&file);
            compilers.push(g);
            let mut c = Command::new(if cpp { "clang++" } else { "clang" });
            c.args([std, "-fsyntax-only", "-Werror", "-Wno-microsoft-anon-tag"]).arg(&file);
            compilers.push(c);
        }
        _ => {
            let target = if abi == Abi::WindowsX64 { "x86_64-pc-windows-msvc" } else { "i686-pc-windows-msvc" };
            let mut c = Command::new(if cpp { "clang++" } else { "clang" });
            c.arg(format!("--target={target}")).args([std, "-ffreestanding", "-fsyntax-only"]).arg(&file);
            compilers.push(c);
        }
    }
    // `--deps` of the sample alone must compile as well.
    let sample = write(&format!("sample_{}.{ext}", abi.name()), &rd3d12_decl::render(&SAMPLE, lang, abi, true)?)?;
    let mut names = Vec::new();
    for mut c in compilers {
        run(&mut c)?;
        let mut again = Command::new(c.get_program());
        again.args(c.get_args().take(c.get_args().count() - 1)).arg(&sample);
        run(&mut again)?;
        names.push(c.get_program().to_string_lossy().into_owned());
    }
    Ok(format!("{n} checked by {}; `--deps {}` compiles alone", names.join(", "), SAMPLE.join(" ")))
}

/// C++ vtable slots: clang lays the emitted classes out (`-fdump-vtable-layouts`, Itanium on
/// linux-x64, Microsoft's C++ ABI on the Windows targets) and every method's index must equal
/// decl's slot. A pointer to one method of each interface makes clang compute its indices.
fn check_cpp_slots(abi: Abi) -> Result<String, String> {
    let mut src = everything(Lang::Cpp, abi)?;
    src.push_str("\nvoid rd3d12_touch() {\n");
    let mut want = std::collections::BTreeMap::new();
    // Bases first: clang dumps a class's indices when it first computes them, and computing a
    // derived class computes its bases' silently.
    let mut ifaces = rd3d12_decl::interface_names();
    ifaces.sort_by_key(|i| rd3d12_decl::slots(i).map(|s| s.len()).unwrap_or(0));
    for i in ifaces {
        let own = rd3d12_decl::own_methods(i)?;
        if let Some(first) = own.first() {
            let _ = writeln!(src, "    (void)&{i}::{first};");
        }
        let slots = rd3d12_decl::slots(i)?;
        for m in own {
            let slot = slots.iter().find(|(_, n)| *n == m).map(|(k, _)| *k).ok_or("slot")?;
            want.insert((i.to_string(), m), slot);
        }
    }
    src.push_str("}\n");
    let file = write(&format!("slots_{}.cpp", abi.name()), &src)?;
    let mut c = Command::new("clang++");
    if abi != Abi::LinuxX64 {
        let target = if abi == Abi::WindowsX64 { "x86_64-pc-windows-msvc" } else { "i686-pc-windows-msvc" };
        c.arg(format!("--target={target}")).arg("-ffreestanding");
    }
    c.args(["-std=c++17", "-c", "-o", "/dev/null", "-Xclang", "-fdump-vtable-layouts"]).arg(&file);
    let dump = run(&mut c)?;
    let head = regex::Regex::new(r"^V[Ff]?[Tt]able indices for '(\w+)'").unwrap();
    let entry = regex::Regex::new(r"^\s+(\d+) \| .*?(\w+)::(\w+)\(").unwrap();
    let mut got = std::collections::BTreeMap::new();
    let mut in_indices = false;
    for line in dump.lines() {
        if head.is_match(line) {
            in_indices = true;
        } else if line.trim().is_empty() {
            in_indices = false;
        } else if let (true, Some(e)) = (in_indices, entry.captures(line)) {
            got.insert((e[2].to_string(), e[3].to_string()), e[1].parse::<usize>().unwrap_or(usize::MAX));
        }
    }
    let mut bad = Vec::new();
    for ((i, m), slot) in &want {
        match got.get(&(i.clone(), m.clone())) {
            Some(g) if g == slot => {}
            g => bad.push(format!("{i}::{m}: clang {g:?}, decl {slot}")),
        }
    }
    if bad.is_empty() {
        Ok(format!(
            "{} methods of {} interfaces at decl's slots in clang's vtables",
            want.len(),
            rd3d12_decl::interface_names().len()
        ))
    } else {
        Err(bad.join("\n"))
    }
}

/// The engine's linux-x64 numbers against gcc compiling Microsoft's own headers.
fn check_c_headers() -> Result<String, String> {
    let (asserts, n) = c_asserts(Abi::LinuxX64, false, true, true)?;
    let src = format!("{}\n{asserts}", crate::gen::wrapper_source());
    let file = write("headers_linux-x64.c", &src)?;
    let inc = std::env::var("DXHEADERS_INCLUDE").unwrap_or_else(|_| "/usr/include".into());
    let mut g = Command::new("gcc");
    g.args(["-std=c11", "-fsyntax-only"]).args(crate::gen::clang_args(Path::new(&inc)).iter().skip(2)).arg(&file);
    run(&mut g)?;
    Ok(format!("{n} equal gcc's with Microsoft's headers"))
}

fn check_rust() -> Result<String, String> {
    let abi = Abi::LinuxX64;
    let mut s = everything(Lang::Rust, abi)?;
    let mut n = 0;
    s.push_str("\nuse core::mem::{align_of, offset_of, size_of};\n");
    for r in rd3d12_decl::record_facts(abi)? {
        let t = &r.name;
        let _ =
            writeln!(s, "const _: () = assert!(size_of::<{t}>() == {} && align_of::<{t}>() == {});", r.size, r.align);
        n += 2;
        for (f, off) in &r.fields {
            let f = rd3d12_decl::emit::ident(Lang::Rust, f);
            let _ = writeln!(s, "const _: () = assert!(offset_of!({t}, {f}) == {off});");
            n += 1;
        }
    }
    let out = out_dir().join("rust-out");
    let _ = std::fs::create_dir_all(&out);
    let sample = rd3d12_decl::render(&SAMPLE, Lang::Rust, abi, true)?;
    for (name, text) in [("all_linux-x64.rs", &s), ("sample_linux-x64.rs", &sample)] {
        run(Command::new("rustc")
            .args(["--edition", "2021", "--crate-type", "lib", "--emit", "metadata", "--out-dir"])
            .arg(&out)
            .arg(write(name, text)?))?;
    }
    Ok(format!("{n} sizes/alignments/offsets checked by rustc; `--deps {}` compiles alone", SAMPLE.join(" ")))
}

fn check_python() -> Result<String, String> {
    let abi = Abi::LinuxX64;
    let mut s = everything(Lang::Python, abi)?;
    s.push_str("\n\nbad = []\nn = 0\n\ndef check(what, got, want):\n    global n\n    n += 1\n    if got != want:\n        bad.append(f\"{what}: ctypes {got}, decl {want}\")\n\n");
    for r in rd3d12_decl::record_facts(abi)? {
        let t = &r.name;
        let _ = writeln!(s, "check('sizeof {t}', ctypes.sizeof({t}), {})", r.size);
        let _ = writeln!(s, "check('alignment {t}', ctypes.alignment({t}), {})", r.align);
        for (f, off) in r.fields.iter().filter(|(f, _)| !f.starts_with("Bitfield")).chain(&r.bitfields) {
            let _ = writeln!(s, "check('{t}.{f}', {t}.{f}.offset, {off})");
        }
    }
    s.push_str(
        "for b in bad:\n    print(b)\nprint(f\"{n} checked, {len(bad)} wrong\")\nraise SystemExit(1 if bad else 0)\n",
    );
    let file = write("all_linux-x64.py", &s)?;
    let out = run(Command::new("python3").arg(&file))?;
    // `--deps` alone must be complete: classes used by value (LUID, D3D12_RESOURCE_DESC) first.
    let single = rd3d12_decl::render(&SAMPLE, Lang::Python, abi, true)?;
    run(Command::new("python3").arg(write("sample_linux-x64.py", &single)?))?;
    // The windows-x64 output uses ctypes.wintypes: it must at least run (every name resolves);
    // its sizes are not comparable here, as Linux's wintypes.BOOL is a C long of 8 bytes.
    run(Command::new("python3").arg(write("all_windows-x64.py", &everything(Lang::Python, Abi::WindowsX64)?)?))?;
    Ok(format!("{} by ctypes; `--deps {}` runs on its own; the windows-x64 output runs", out.trim(), SAMPLE.join(" ")))
}

/// The interfaces and structs the issue names, rendered alone with `--deps`: that output must
/// compile by itself too.
const SAMPLE: [&str; 4] = ["ID3D12Device", "ID3D12Resource", "ID3D12Fence", "D3D12_FEATURE_DATA_ARCHITECTURE1"];

/// The foundation contract: `SLOT(vtbl, method, index)` in tests/abi/client.c, where
/// `DEVICE_SLOTS(V)` applies to ID3D12DeviceVtbl and ID3D12Device11Vtbl.
fn check_slots() -> Result<String, String> {
    let path = crate::root().join("tests/abi/client.c");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let re = regex::Regex::new(r"SLOT\((\w+),\s*(\w+),\s*(\d+)\)").unwrap();
    let mut n = 0;
    let mut bad = Vec::new();
    // Printed indices: HSP's `#comfunc global IFace_Method N` and Python's `Method = (N, ...`.
    let printed = |i: &str, lang: Lang| rd3d12_decl::render(&[i], lang, Abi::LinuxX64, false);
    for c in re.captures_iter(&text) {
        let ifaces: Vec<&str> = match &c[1] {
            "vtbl" => continue, // the macro's own definition
            "V" => vec!["ID3D12Device", "ID3D12Device11"],
            v => vec![v.trim_end_matches("Vtbl")],
        };
        let want: usize = c[3].parse().map_err(|e| format!("{e}"))?;
        for i in ifaces {
            let got = rd3d12_decl::slots(i)?.into_iter().find(|(_, m)| *m == c[2]).map(|(k, _)| k);
            let hsp = printed(i, Lang::Hsp)?;
            let py = printed(i, Lang::Python)?;
            let in_hsp = hsp.lines().any(|l| l.starts_with(&format!("#comfunc global {i}_{} {want} ", &c[2])));
            let in_py = py.lines().any(|l| l.trim_start().starts_with(&format!("{} = ({want}, ", &c[2])));
            n += 1;
            if got != Some(want) || !in_hsp || !in_py {
                bad.push(format!(
                    "{i}::{}: decl {got:?} (HSP printed: {in_hsp}, Python: {in_py}), contract {want}",
                    &c[2]
                ));
            }
        }
    }
    if n < 40 {
        return Err(format!("only {n} SLOT(...) lines found in {}", path.display()));
    }
    if bad.is_empty() {
        Ok(format!("{n} slots of the contract equal decl's (model, HSP and Python output)"))
    } else {
        Err(bad.join("\n"))
    }
}

/// HSP golden files (crates/decl/tests/golden/NAME.ABI.hsp, and `.ironhsp` for IronHSP): the
/// emitter must reproduce them, and every `#const NAME_SIZE N` and `#const NAME_FIELD OFFSET  ;
/// path: ...` must equal the C compiler's sizeof / offsetof for that path (gcc with Microsoft's
/// headers for linux-x64; clang's MSVC targets on the emitted C for the Windows ABIs), so the
/// offsets do not rest on the emitter's own arithmetic.
fn check_hsp_goldens() -> Result<String, String> {
    let dir = crate::root().join("crates/decl/tests/golden");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "hsp" || x == "ironhsp"))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(format!("no golden files in {}", dir.display()));
    }
    let konst = regex::Regex::new(r"^#const \w+ (\d+)  ; ([^:]+): ").unwrap();
    let size = regex::Regex::new(r"^#const \w+_SIZE (\d+)$").unwrap();
    let mut n = 0;
    let mut per_abi: Vec<(Abi, String)> = Vec::new();
    for f in &files {
        let stem = f.file_stem().unwrap_or_default().to_string_lossy().into_owned();
        let (name, abi) = stem.rsplit_once('.').ok_or_else(|| format!("{stem}: want NAME.ABI.hsp"))?;
        let abi = Abi::parse(abi)?;
        let lang = if f.extension().is_some_and(|x| x == "ironhsp") { Lang::IronHsp } else { Lang::Hsp };
        let text = std::fs::read_to_string(f).map_err(|e| e.to_string())?;
        if rd3d12_decl::render(&[name], lang, abi, false)? != text {
            return Err(format!(
                "{} differs from `rd3d12 decl {name} --lang {} --abi {}`",
                f.display(),
                lang.name(),
                abi.name()
            ));
        }
        let Some(rec) = rd3d12_decl::record_facts(abi)?.into_iter().find(|r| r.name == name) else {
            continue; // an interface: its slots are checked against the contract
        };
        let t = if abi == Abi::LinuxX64 { rec.c_ref } else { rec.name };
        let mut asserts = String::new();
        for line in text.lines() {
            if let Some(c) = size.captures(line) {
                let _ = writeln!(asserts, "_Static_assert(sizeof({t}) == {}, \"{}\");", &c[1], stem);
                n += 1;
            } else if let Some(c) = konst.captures(line) {
                if line.contains(" bits ") {
                    continue; // offsetof cannot name bitfields: tests/golden/README.md works them by hand
                }
                let _ =
                    writeln!(asserts, "_Static_assert(offsetof({t}, {}) == {}, \"{stem} {}\");", &c[2], &c[1], &c[2]);
                n += 1;
            }
        }
        per_abi.push((abi, asserts));
    }
    for abi in Abi::ALL {
        let asserts: String = per_abi.iter().filter(|(a, _)| *a == abi).map(|(_, s)| s.as_str()).collect();
        if asserts.is_empty() {
            continue;
        }
        if abi == Abi::LinuxX64 {
            let file = write("hsp_golden_linux-x64.c", &format!("{}\n{asserts}", crate::gen::wrapper_source()))?;
            let inc = std::env::var("DXHEADERS_INCLUDE").unwrap_or_else(|_| "/usr/include".into());
            run(Command::new("gcc")
                .args(["-std=c11", "-fsyntax-only"])
                .args(crate::gen::clang_args(Path::new(&inc)).iter().skip(2))
                .arg(&file))?;
        } else {
            let target = if abi == Abi::WindowsX64 { "x86_64-pc-windows-msvc" } else { "i686-pc-windows-msvc" };
            let src = format!("{}\n{asserts}", everything(Lang::C, abi)?);
            let file = write(&format!("hsp_golden_{}.c", abi.name()), &src)?;
            run(Command::new("clang")
                .arg(format!("--target={target}"))
                .args(["-std=c11", "-ffreestanding", "-fsyntax-only"])
                .arg(&file))?;
        }
    }
    Ok(format!("{} golden files reproduced, {n} sizes/offsets in them equal the C compiler's", files.len()))
}

/// Go: sizes and offsets as compile-time constant indexes (`[1]int{}[unsafe.Sizeof(x) - N]` only
/// compiles when they are equal: larger is out of range, smaller overflows uintptr), built for windows/amd64, windows/386 and linux/amd64.
fn check_go() -> Result<String, String> {
    let mut done = Vec::new();
    let mut n = 0;
    for (abi, goos, goarch) in
        [(Abi::LinuxX64, "linux", "amd64"), (Abi::WindowsX64, "windows", "amd64"), (Abi::WindowsX86, "windows", "386")]
    {
        let mut s = format!("package d3d12\n\nimport \"unsafe\"\n\n{}", everything(Lang::Go, abi)?);
        for r in rd3d12_decl::record_facts(abi)? {
            let t = &r.name;
            let _ = writeln!(s, "var _ = [1]int{{}}[unsafe.Sizeof({t}{{}})-{}]", r.size);
            n += 1;
            // Go has no unions: the emitter gives them one byte array.
            for (f, off) in r.fields.iter().filter(|_| !r.union) {
                let f = rd3d12_decl::emit::ident(Lang::Go, f);
                let _ = writeln!(s, "var _ = [1]int{{}}[unsafe.Offsetof({t}{{}}.{f})-{off}]");
                n += 1;
            }
        }
        let d = out_dir().join(format!("go-{}", abi.name()));
        let _ = std::fs::create_dir_all(&d);
        std::fs::write(d.join("d3d12.go"), s).map_err(|e| e.to_string())?;
        run(Command::new("go")
            .args(["vet", "./d3d12.go"])
            .current_dir(&d)
            .env("GOOS", goos)
            .env("GOARCH", goarch)
            .env("GO111MODULE", "off")
            .env("GOCACHE", out_dir().join("gocache"))
            .env("GOPATH", out_dir().join("gopath")))?;
        done.push(abi.name());
    }
    Ok(format!("{n} sizes/offsets checked by go vet for {}", done.join(", ")))
}

/// D: `static assert`s on `.sizeof`, `.alignof` and `.offsetof`, compiled by gdc (linux-x64).
fn check_d() -> Result<String, String> {
    let abi = Abi::LinuxX64;
    let mut s = everything(Lang::D, abi)?;
    let mut n = 0;
    for r in rd3d12_decl::record_facts(abi)? {
        let t = &r.name;
        let _ = writeln!(s, "static assert({t}.sizeof == {} && {t}.alignof == {});", r.size, r.align);
        n += 2;
        for (f, off) in &r.fields {
            let _ = writeln!(s, "static assert({t}.{}.offsetof == {off});", rd3d12_decl::emit::ident(Lang::D, f));
            n += 1;
        }
    }
    let file = write("d3d12_all.d", &s)?;
    run(Command::new("gdc").args(["-fsyntax-only"]).arg(&file))?;
    Ok(format!("{n} sizes/alignments/offsets checked by gdc"))
}

/// Free Pascal: a program comparing SizeOf and field addresses (linux-x64).
fn check_pascal() -> Result<String, String> {
    let abi = Abi::LinuxX64;
    let body = everything(Lang::Pascal, abi)?;
    let (head, decls) = body.split_once("{$MINENUMSIZE 4}\n").ok_or("no prelude")?;
    let mut s = format!("program d3d12check;\n{head}{{$MINENUMSIZE 4}}\n{decls}\nvar bad, n: Integer;\n\nprocedure check(const what: string; got, want: PtrUInt);\nbegin\n  Inc(n);\n  if got <> want then begin\n    WriteLn(what, ': fpc ', got, ', decl ', want);\n    Inc(bad);\n  end;\nend;\n\nbegin\n  bad := 0; n := 0;\n");
    for r in rd3d12_decl::record_facts(abi)? {
        let t = &r.name;
        let _ = writeln!(s, "  check('sizeof {t}', SizeOf({t}), {});", r.size);
        for (f, off) in &r.fields {
            let _ = writeln!(
                s,
                "  check('{t}.{f}', PtrUInt(@{t}(nil^).{}), {off});",
                rd3d12_decl::emit::ident(Lang::Pascal, f)
            );
        }
    }
    s.push_str("  WriteLn(n, ' checked, ', bad, ' wrong');\n  if bad > 0 then Halt(1);\nend.\n");
    let d = out_dir().join("fpc");
    let _ = std::fs::create_dir_all(&d);
    std::fs::write(d.join("d3d12check.pas"), s).map_err(|e| e.to_string())?;
    run(Command::new("fpc").args(["-v0", "-Sh-", "d3d12check.pas"]).current_dir(&d))?;
    let out = run(&mut Command::new(d.join("d3d12check")))?;
    Ok(format!("{} by Free Pascal", out.trim()))
}

/// C#: mcs compiles, mono compares Marshal.SizeOf / Marshal.OffsetOf (linux-x64 and windows-x64,
/// which share pointer size; WCHAR is `char` on Windows).
fn check_csharp() -> Result<String, String> {
    let mut msgs = Vec::new();
    for abi in [Abi::LinuxX64, Abi::WindowsX64] {
        let body = everything(Lang::CSharp, abi)?;
        let (usings, decls) = body.split_once("using System.Runtime.InteropServices;\n").ok_or("no prelude")?;
        let mut s = format!("{usings}using System.Runtime.InteropServices;\nnamespace D3D12 {{\n{decls}\n");
        // An array of structs or pointers is one field per element, `Name_0` first.
        s.push_str("static class Check {\n    static int bad, n;\n    static void Eq(string what, long got, long want) { n++; if (got != want) { bad++; System.Console.WriteLine(what + \": mono \" + got + \", decl \" + want); } }\n    static long Off(System.Type t, string f) { return (long)Marshal.OffsetOf(t, t.GetField(f) != null ? f : f + \"_0\"); }\n    static int Main() {\n");
        for r in rd3d12_decl::record_facts(abi)? {
            let t = &r.name;
            let _ = writeln!(s, "        Eq(\"sizeof {t}\", Marshal.SizeOf(typeof({t})), {});", r.size);
            for (f, off) in &r.fields {
                let _ = writeln!(s, "        Eq(\"{t}.{f}\", Off(typeof({t}), \"{f}\"), {off});");
            }
        }
        s.push_str("        System.Console.WriteLine(n + \" checked, \" + bad + \" wrong\");\n        return bad == 0 ? 0 : 1;\n    }\n}\n}\n");
        let file = write(&format!("d3d12_{}.cs", abi.name()), &s)?;
        let exe = out_dir().join(format!("d3d12_{}.exe", abi.name()));
        run(Command::new("mcs")
            .args(["-nologo", "-warn:0", "-unsafe"])
            .arg(format!("-out:{}", exe.display()))
            .arg(&file))?;
        let out = run(Command::new("mono").arg(&exe))?;
        msgs.push(format!("{} ({})", out.trim(), abi.name()));
    }
    Ok(format!("{} by mono", msgs.join("; ")))
}

/// Nim: `static: doAssert` on sizeof / alignof / offsetOf, checked by `nim check` (linux-x64).
fn check_nim() -> Result<String, String> {
    let abi = Abi::LinuxX64;
    let mut s = everything(Lang::Nim, abi)?;
    let mut n = 0;
    s.push_str("\nstatic:\n");
    for r in rd3d12_decl::record_facts(abi)? {
        let t = &r.name;
        let _ = writeln!(s, "  doAssert sizeof({t}) == {} and alignof({t}) == {}, \"{t}\"", r.size, r.align);
        n += 2;
        for (f, off) in &r.fields {
            let _ = writeln!(
                s,
                "  doAssert offsetOf({t}, {}) == {off}, \"{t}.{f}\"",
                rd3d12_decl::emit::ident(Lang::Nim, f)
            );
            n += 1;
        }
    }
    let d = out_dir().join("nim");
    let _ = std::fs::create_dir_all(&d);
    std::fs::write(d.join("d3d12.nim"), s).map_err(|e| e.to_string())?;
    run(Command::new("nim").args(["check", "--hints:off", "d3d12.nim"]).current_dir(&d).env("HOME", &d))?;
    Ok(format!("{n} sizes/alignments/offsets checked by nim check"))
}

/// Zig: the compiler run as `zig`, or as `python3 -m ziglang` (PyPI's `ziglang` wheel), when
/// either is installed.
fn zig_command() -> Option<Command> {
    if have("zig") {
        return Some(Command::new("zig"));
    }
    let py = Command::new("python3").args(["-c", "import ziglang"]).output().ok()?;
    py.status.success().then(|| {
        let mut c = Command::new("python3");
        c.args(["-m", "ziglang"]);
        c
    })
}

/// Zig: `@sizeOf` / `@alignOf` / `@offsetOf` compared at compile time (`@compileError` on a
/// difference), built for x86_64-linux, x86_64-windows and x86-windows (stdcall vtables).
fn check_zig() -> Result<String, String> {
    let mut done = Vec::new();
    let mut n = 0;
    for (abi, target) in [
        (Abi::LinuxX64, "x86_64-linux-gnu"),
        (Abi::WindowsX64, "x86_64-windows-msvc"),
        (Abi::WindowsX86, "x86-windows-msvc"),
    ] {
        let d = out_dir().join(format!("zig-{}", abi.name()));
        let _ = std::fs::create_dir_all(&d);
        std::fs::write(d.join("d3d12.zig"), everything(Lang::Zig, abi)?).map_err(|e| e.to_string())?;
        let mut s =
            String::from("const d = @import(\"d3d12.zig\");\n\ncomptime {\n    @setEvalBranchQuota(10000000);\n");
        for r in rd3d12_decl::record_facts(abi)? {
            let t = &r.name;
            let _ = writeln!(
                s,
                "    if (@sizeOf(d.{t}) != {0} or @alignOf(d.{t}) != {1}) @compileError(\"{t}: {0} bytes, align {1}\");",
                r.size, r.align
            );
            n += 2;
            // @offsetOf takes structs only; a union's members are all at 0 by definition.
            for (f, off) in r.fields.iter().filter(|_| !r.union) {
                let id = rd3d12_decl::emit::ident(Lang::Zig, f);
                let id = id.strip_prefix("@\"").and_then(|x| x.strip_suffix('"')).unwrap_or(&id);
                let _ = writeln!(s, "    if (@offsetOf(d.{t}, \"{id}\") != {off}) @compileError(\"{t}.{f}: {off}\");");
                n += 1;
            }
        }
        // Every interface's vtable is analysed too (slot order is the C emitter's, checked above).
        for i in rd3d12_decl::interface_names() {
            let _ = writeln!(s, "    _ = @sizeOf(d.{i}Vtbl);");
        }
        s.push_str("}\n\npub fn main() void {}\n");
        std::fs::write(d.join("check.zig"), s).map_err(|e| e.to_string())?;
        let mut zig = zig_command().ok_or("zig went away")?;
        run(zig
            .args(["build-obj", "-fno-emit-bin", "-target", target, "check.zig"])
            .current_dir(&d)
            .env("ZIG_GLOBAL_CACHE_DIR", out_dir().join("zig-cache"))
            .env("ZIG_LOCAL_CACHE_DIR", out_dir().join("zig-cache")))?;
        done.push(abi.name());
    }
    Ok(format!("{n} sizes/alignments/offsets checked by zig for {}", done.join(", ")))
}

/// Adds the decl steps to `cargo xtask test`.
pub fn steps(step: Step) {
    let mut show = |name: &str, r: Result<String, String>| {
        step(
            name,
            r.map(|msg| {
                eprintln!("xtask: {name}: {msg}");
            }),
        )
    };
    show("decl: linux-x64 numbers vs gcc with Microsoft's headers", check_c_headers());
    for abi in Abi::ALL {
        show(&format!("decl: C output ({})", abi.name()), check_c(abi, false));
        show(&format!("decl: C++ output ({})", abi.name()), check_c(abi, true));
        show(&format!("decl: C++ vtable slots ({})", abi.name()), check_cpp_slots(abi));
    }
    show("decl: Rust output (linux-x64)", check_rust());
    show("decl: Python ctypes output (linux-x64)", check_python());
    show("decl: vtable slots equal tests/abi/client.c", check_slots());
    show("decl: HSP golden files", check_hsp_goldens());
    type Check = fn() -> Result<String, String>;
    let optional: [(&str, &str, Check); 5] = [
        ("Go", "go", check_go),
        ("Free Pascal", "fpc", check_pascal),
        ("D", "gdc", check_d),
        ("C#", "mcs", check_csharp),
        ("Nim", "nim", check_nim),
    ];
    for (lang, tool, f) in optional {
        if have(tool) && (tool != "mcs" || have("mono")) {
            show(&format!("decl: {lang} output"), f());
        } else {
            eprintln!("xtask: {tool} not installed, skipping the {lang} decl check (README: Declarations for other languages)");
        }
    }
    if zig_command().is_some() {
        show("decl: Zig output", check_zig());
    } else {
        eprintln!("xtask: zig not installed, skipping the Zig decl check (README: Declarations for other languages)");
    }
}

/// `cargo xtask decl-check`: the decl steps alone.
pub fn run_cmd() -> Result<(), String> {
    let mut failed = Vec::new();
    let mut n = 0;
    steps(&mut |name: &str, r: Result<(), String>| {
        n += 1;
        match r {
            Ok(()) => eprintln!("xtask: PASS {name}"),
            Err(e) => {
                eprintln!("xtask: FAIL {name}: {e}");
                failed.push(name.to_string());
            }
        }
    });
    println!("xtask: decl-check: {} passed, {} failed", n - failed.len(), failed.len());
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!("failed: {failed:?}"))
    }
}
