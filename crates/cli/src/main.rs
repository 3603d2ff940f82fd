//! `rd3d12`: the command-line tool. With no arguments (`cargo run --release`) it reports the
//! adapter: description, LUID, architecture and feature support, all read through the exported
//! C ABI exactly as a C program would.

mod bench;
mod decl;
mod footprint;
mod info;

use std::process::ExitCode;

const USAGE: &str = "usage: rd3d12 [info | footprint [options] | bench [LIBRARY...] | decl NAME... --lang LANG]\n\
  info       adapter, LUID, architecture flags and feature support (the default)\n\
  footprint  allocation size and copyable footprints of a resource desc (rd3d12 footprint --help)\n\
  bench      layout-math calls per second through the C ABI, beside other libd3d12-like libraries\n\
  decl       D3D12 struct/enum/interface declarations for C, C++, C#, VB.NET, Python, Rust, Go, Pascal,\n\
             Zig, Nim, D, HSP and IronHSP, with offsets per ABI (rd3d12 decl --help)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None | Some("info") => info::run(),
        Some("footprint") => return footprint::main(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("decl") => decl::run(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command {other:?}\n{USAGE}")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rd3d12: {e}");
            ExitCode::FAILURE
        }
    }
}
