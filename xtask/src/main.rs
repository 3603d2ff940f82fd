//! Repository commands: `cargo xtask gen [--check]` regenerates the raw ABI crate from Debian's
//! directx-headers-dev; `cargo xtask test` installs what the tests need and runs every test;
//! `cargo xtask install` / `uninstall` put the tool, the libraries and a pkg-config file under a
//! prefix and take them away again.

mod decl_check;
mod gen;
mod gen_dxcore;
mod install;
mod mesa;
mod meta;
mod piglit;
mod speed;
mod test;
mod tools;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => gen::run(args.iter().any(|a| a == "--check")),
        Some("test") => test::run_cmd(&args[1..]),
        Some("decl-check") => decl_check::run_cmd(),
        Some("piglit") => piglit::run_cmd(&args[1..]),
        Some("speed") => speed::run_cmd(&args[1..]),
        Some("tools-check") => tools::run_cmd(),
        Some("install") => install::install_cmd(&args[1..]),
        Some("uninstall") => install::uninstall_cmd(&args[1..]),
        _ => Err("usage: cargo xtask gen [--check] | cargo xtask test [--quick] | cargo xtask decl-check | cargo xtask piglit [--full] [--jobs N] [--timeout S] [--only REGEX] | cargo xtask speed [--base REV] [--rounds N] | cargo xtask tools-check | cargo xtask install [--prefix DIR] [--debug] | cargo xtask uninstall [--prefix DIR]".to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Workspace root (the parent of the xtask folder).
pub fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask sits in the workspace").to_path_buf()
}
