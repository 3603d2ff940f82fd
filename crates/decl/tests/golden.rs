//! The HSP golden files (tests/golden) are what `rd3d12 decl` prints today; cargo xtask test
//! also checks their offsets against the C compiler (see tests/golden/README.md).

use rd3d12_decl::{render, Abi, Lang};

#[test]
fn hsp_golden_files_are_reproduced() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let mut n = 0;
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let p = e.path();
        let lang = match p.extension().and_then(|x| x.to_str()) {
            Some("hsp") => Lang::Hsp,
            Some("ironhsp") => Lang::IronHsp,
            _ => continue,
        };
        let stem = p.file_stem().unwrap().to_str().unwrap();
        let (name, abi) = stem.rsplit_once('.').unwrap();
        let want = std::fs::read_to_string(&p).unwrap();
        let got = render(&[name], lang, Abi::parse(abi).unwrap(), false).unwrap();
        assert_eq!(got, want, "{}", p.display());
        n += 1;
    }
    assert!(n >= 10, "only {n} golden files");
}
