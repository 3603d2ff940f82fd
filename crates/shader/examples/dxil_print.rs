//! Prints a DXIL container's module the way llvm-dis would:
//! `cargo run -p rd3d12-core --example dxil_print -- shader.dxil`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dxil_print FILE");
        std::process::exit(2);
    };
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    match rd3d12_shader::dxil::parse(&bytes) {
        Ok(p) => print!("{}", p.module),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    }
}
