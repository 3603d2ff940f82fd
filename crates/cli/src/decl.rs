//! `rd3d12 decl NAME... --lang LANG [--abi ABI] [--deps]`: declarations of D3D12 types for
//! other languages (see crates/decl).

use rd3d12_decl::{Abi, Lang};

pub const HELP: &str = "usage: rd3d12 decl NAME... --lang LANG [--abi ABI] [--deps]\n\
  NAME   a D3D12 struct, union, enum or interface (typedef names such as GUID work too)\n\
  LANG   c, cpp, csharp, vbnet, python, rust, go, pascal, zig, nim, d, hsp, ironhsp, or all\n\
  ABI    windows-x64, windows-x86 or linux-x64 (the default: rd3d12's own)\n\
  --deps also print every type the declarations use, so the output compiles on its own\n\
  --list print every name decl knows";

pub fn run(args: &[String]) -> Result<(), String> {
    let mut names = Vec::new();
    let mut lang = None;
    let mut abi = Abi::LinuxX64;
    let mut deps = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().cloned().ok_or_else(|| format!("{a} needs a {what}\n{HELP}"));
        match a.as_str() {
            "--lang" | "-l" => lang = Some(value("language")?),
            "--abi" => abi = Abi::parse(&value("ABI")?)?,
            "--deps" => deps = true,
            "--list" => {
                println!("{}", rd3d12_decl::all_names().join("\n"));
                return Ok(());
            }
            "-h" | "--help" => {
                println!("{HELP}");
                return Ok(());
            }
            s if s.starts_with('-') => return Err(format!("unknown option {s}\n{HELP}")),
            s => names.push(s.to_string()),
        }
    }
    if names.is_empty() {
        return Err(format!("decl needs a NAME\n{HELP}"));
    }
    let lang = lang.ok_or_else(|| format!("decl needs --lang\n{HELP}"))?;
    let langs = if lang == "all" { Lang::ALL.to_vec() } else { vec![Lang::parse(&lang)?] };
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut out = String::new();
    for l in &langs {
        if langs.len() > 1 {
            out.push_str(&format!("{} ==== {} ====\n", l.comment(), l.title()));
        }
        out.push_str(&rd3d12_decl::render(&names, *l, abi, deps)?);
        if langs.len() > 1 {
            out.push('\n');
        }
    }
    print!("{out}");
    Ok(())
}
