//! `rd3d12`: the command-line tool. With no arguments (`cargo run --release`) it reports the
//! adapter (description, LUID, architecture and feature support, all read through the exported
//! C ABI exactly as a C program would), then renders one frame of a built-in scene through the
//! D3D12 API (`rd3d12 frame`). `rd3d12 run -- PROGRAM` runs any program on rd3d12.

mod bench;
mod decl;
mod footprint;
mod frame;
mod info;
mod run;

use std::process::ExitCode;

const USAGE: &str = "usage: rd3d12 [COMMAND] [--help]\n\
  (none)     the main job: the adapter report, then one frame of the built-in scene\n\
  info       adapter, LUID, architecture flags and feature support\n\
  frame      one frame (compute pass, textured depth-tested blended draws) to rd3d12-frame.png,\n\
             checked against the expected image, with each pass's time (rd3d12 frame --help)\n\
  run        run any program with rd3d12 as its D3D12 (rd3d12 run --help)\n\
  footprint  allocation size and copyable footprints of a resource desc (rd3d12 footprint --help)\n\
  bench      layout-math calls per second through the C ABI, beside other libd3d12-like libraries\n\
  decl       D3D12 struct/enum/interface declarations for C, C++, C#, VB.NET, Python, Rust, Go, Pascal,\n\
             Zig, Nim, D, HSP and IronHSP, with offsets per ABI (rd3d12 decl --help)";

const INFO_USAGE: &str =
    "usage: rd3d12 info\n  the adapter's description, LUID, architecture and feature support, read through the C ABI";

fn help_asked(args: &[String]) -> bool {
    args.iter().any(|a| a == "-h" || a == "--help")
}

fn main() -> ExitCode {
    // Like every Unix filter: a closed pipe (`rd3d12 info | head`) ends the tool quietly with
    // SIGPIPE instead of a panic in println!. Rust's runtime ignores SIGPIPE; restore the default.
    // SAFETY: signal() with SIG_DFL for SIGPIPE, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        None => info::run().and_then(|()| {
            println!();
            frame::run(&[])
        }),
        Some("info") if help_asked(&args[1..]) => {
            println!("{INFO_USAGE}");
            Ok(())
        }
        Some("info") => match args.get(1) {
            None => info::run(),
            Some(a) => Err(format!("info: unknown argument {a:?} (rd3d12 info --help)")),
        },
        Some("frame") => frame::run(&args[1..]),
        Some("run") => run::run(&args[1..]),
        Some("footprint") => return footprint::main(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("decl") => decl::run(&args[1..]),
        Some("-h" | "--help" | "help") => {
            println!("{USAGE}");
            Ok(())
        }
        Some(other) => Err(format!("unknown command {other:?} (rd3d12 --help lists them)")),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rd3d12: {e}");
            ExitCode::FAILURE
        }
    }
}
