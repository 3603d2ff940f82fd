//! Reports, for every DXIL container under a folder (the DXC corpus, `/work/shared/dxil-corpus`),
//! how far rd3d12's shader compiler gets: whether it parses, whether every defined function
//! lowers to the IR, whether `dxil::support::check` passes, and the first construct that
//! stops it. Prints a markdown table (`crates/shader/DXC_CORPUS.md` is its output):
//!
//! ```sh
//! cargo run -p rd3d12-shader --example dxil_corpus -- /work/shared/dxil-corpus > crates/shader/DXC_CORPUS.md
//! ```
//!
//! The last section counts how many shaders each first refusal blocks, most first.
//!
//! With `--ops` instead of a folder it prints the dx.op table (`crates/shader/DXIL_OPS.md`):
//! every opcode of shader models 6.0 to 6.8, its name, the shader model that introduced it and
//! whether the interpreter executes it (the support check's own answer, not a list kept by
//! hand):
//!
//! ```sh
//! cargo run -p rd3d12-shader --example dxil_corpus -- --ops > crates/shader/DXIL_OPS.md
//! ```

use rd3d12_shader::dxil;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn containers(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            containers(&p, out);
        } else if p.extension().is_some_and(|e| e == "dxil") {
            out.push(p);
        }
    }
}

/// (status, reason): how far the shader gets.
fn status(bytes: &[u8]) -> (&'static str, String) {
    let p = match dxil::parse(bytes) {
        Ok(p) => p,
        Err(e) => return ("does not parse", e.to_string()),
    };
    for f in p.module.functions.iter().filter(|f| !f.declaration) {
        if let Err(e) = dxil::lower::lower(&p.module, f) {
            return ("does not lower", format!("{e} (in {})", f.name));
        }
    }
    match dxil::support::check(&p.module) {
        Ok(()) => ("executes", String::new()),
        Err(e) => ("refused", e.to_string()),
    }
}

/// The blocking construct without its function, operands and numbers that vary per shader:
/// what the summary counts.
fn key(reason: &str) -> String {
    let r = reason.strip_prefix("unsupported: ").unwrap_or(reason);
    let r = r.split(" is not supported (in ").next().unwrap_or(r);
    let r = r.split(" (in ").next().unwrap_or(r);
    r.to_string()
}

/// The shader model that introduced dx.op `opcode` (DXIL.rst's operation table), `None` for the
/// reserved 226..=237 and past 257.
fn introduced(opcode: u32) -> Option<&'static str> {
    Some(match opcode {
        0..=136 => "6.0",
        137 | 138 => "6.1",
        139 | 140 => "6.2",
        141..=161 => "6.3",
        162..=164 => "6.4",
        165..=215 => "6.5",
        216..=221 => "6.6",
        222..=225 => "6.7",
        238..=257 => "6.8",
        _ => return None,
    })
}

/// Whether the interpreter executes dx.op `opcode` (given constant kind operands in range):
/// what `dxil::support::check` accepts.
fn executes(opcode: u32) -> bool {
    use rd3d12_shader::interp::wave::WaveOp;
    rd3d12_shader::ir::op::Dx::from_opcode(opcode).is_some()
        || matches!(WaveOp::from_dx_op(opcode, &[Some(0); 8]), Ok(Some(_)))
        || matches!(opcode, 216 | 217)
}

/// The text of `crates/shader/DXIL_OPS.md` (a test keeps the committed file equal to it).
pub fn ops_table() -> String {
    use std::fmt::Write;
    let mut o = String::new();
    o.push_str("# dx.op operations of shader models 6.0 to 6.8 and whether rd3d12 executes them\n\n");
    o.push_str("Generated from the interpreter's own tables (`Dx::from_opcode`, `WaveOp::from_dx_op` and the\n");
    o.push_str("shader model 6.6 handles the lowering resolves) by\n");
    o.push_str("`cargo run -p rd3d12-shader --example dxil_corpus -- --ops > crates/shader/DXIL_OPS.md`\n");
    o.push_str("(`cargo test -p rd3d12-shader --test ops_table` fails when this file differs).\n");
    o.push_str("\"refused\": pipeline creation fails with E_INVALIDARG and the stage's INVALIDSHADERBYTECODE\n");
    o.push_str("message naming the operation. Opcodes 226 to 237 are reserved. \"executes\" is per opcode: an\n");
    o.push_str("overload the environment cannot carry is refused by name too (64-bit resource atomics, 64-bit\n");
    o.push_str("typed loads and stores). The device reports a shader model (today 6.2) independently: a shader\n");
    o.push_str("of a higher model is refused whatever it uses.\n\n");
    let mut per_model: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let mut rows = String::new();
    for op in 0..=257u32 {
        let Some(sm) = introduced(op) else { continue };
        let name = rd3d12_shader::dxil::ops::opcode_name(op).unwrap_or("?");
        let ex = executes(op);
        let e = per_model.entry(sm).or_default();
        e.0 += 1;
        e.1 += u32::from(ex);
        let _ = writeln!(rows, "| {op} | {name} | {sm} | {} |", if ex { "executes" } else { "refused" });
    }
    o.push_str("| shader model | operations | execute |\n| --- | --- | --- |\n");
    for (sm, (n, ex)) in &per_model {
        let _ = writeln!(o, "| {sm} | {n} | {ex} |");
    }
    o.push_str("\n| opcode | operation | shader model | |\n| --- | --- | --- | --- |\n");
    o.push_str(&rows);
    o
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: dxil_corpus DIR | --ops");
        std::process::exit(2);
    };
    if dir == "--ops" {
        print!("{}", ops_table());
        return;
    }
    let root = PathBuf::from(&dir);
    let mut files = Vec::new();
    containers(&root, &mut files);
    // The repository's copies (byte for byte) of corpus shaders, which its tests dispatch.
    let fixtures_dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil"));
    let mut fixtures = Vec::new();
    containers(&fixtures_dir, &mut fixtures);
    let fixtures: Vec<(String, Vec<u8>)> = fixtures
        .iter()
        .filter_map(|f| {
            let name = f.strip_prefix(&fixtures_dir).ok()?.display().to_string();
            Some((name, std::fs::read(f).ok()?))
        })
        .collect();
    let mut rows = Vec::new();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut blockers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for path in &files {
        let name = path.strip_prefix(&root).unwrap_or(path).with_extension("").display().to_string();
        let bytes = std::fs::read(path);
        let (st, reason) = match &bytes {
            Ok(b) => status(b),
            Err(e) => ("unreadable", e.to_string()),
        };
        let fixture = bytes
            .ok()
            .and_then(|b| fixtures.iter().find(|(_, f)| *f == b))
            .map_or(String::new(), |(n, _)| format!("`{n}`"));
        *counts.entry(st).or_default() += 1;
        if st != "executes" {
            blockers.entry(format!("{st}: {}", key(&reason))).or_default().push(name.clone());
        }
        rows.push((name, st, reason, fixture));
    }
    println!("# DXC's corpus through rd3d12's shader compiler\n");
    println!("Every container of the DXC-compiled corpus (`/work/shared/dxil-corpus`, see its README), read by");
    println!("`dxil::parse`, each defined function lowered by `dxil::lower::lower`, then `dxil::support::check`");
    println!("(what pipeline creation runs). Regenerate with:\n");
    println!("```sh\ncargo run -p rd3d12-shader --example dxil_corpus -- /work/shared/dxil-corpus > crates/shader/DXC_CORPUS.md\n```\n");
    println!("\"executes\" means pipeline creation accepts it: every operation is one the interpreter runs");
    println!("(whether the runtime has the stage, e.g. mesh shaders or libraries, is a separate question; the");
    println!("runtime also refuses shader models above the one the device reports). \"fixture\" names the");
    println!("repository's byte-identical copy under `tests/fixtures/dxil/`, whose tests check what it computes");
    println!("against values worked out from its HLSL, or that it is refused naming its operation");
    println!("(`crates/swgpu/tests/dxc_*.rs` for `dxc/`, `wave.rs` for");
    println!("`wave/`, the tests naming the others); a shader that executes without one passes the check, but");
    println!("no test of the repository verifies its results.\n");
    let summary: Vec<String> = counts.iter().map(|(s, n)| format!("{s}: {n}")).collect();
    println!("{} shaders; {}.\n", files.len(), summary.join(", "));
    let tested = rows.iter().filter(|r| !r.3.is_empty()).count();
    println!("{tested} of them have a fixture.\n");
    println!("| shader | status | reason | fixture |\n| --- | --- | --- | --- |");
    for (name, st, reason, fixture) in &rows {
        println!("| `{name}` | {st} | {} | {fixture} |", reason.replace('|', "\\|"));
    }
    println!("\n## First refusals, by how many shaders each blocks\n");
    println!("| blocks | construct | shaders |\n| --- | --- | --- |");
    let mut by_count: Vec<(&String, &Vec<String>)> = blockers.iter().collect();
    by_count.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    for (what, names) in by_count {
        let list: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
        println!("| {} | {} | {} |", names.len(), what.replace('|', "\\|"), list.join(", "));
    }
}
