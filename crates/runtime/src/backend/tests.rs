//! The seam's contract as the objects use it: everything through `&dyn Backend`, and the
//! layering itself (who may name whom).

use super::*;
use rd3d12_core::pipeline::{PipelineDesc, PipelineKind, RootSignatureInfo, Slot};
use rd3d12_core::shader::{ShaderBuilder, Stage};
use rd3d12_sys::*;
use std::os::fd::AsRawFd;

fn compute_pipeline(bytes: Vec<u8>) -> Pipeline {
    let s = rd3d12_core::shader::parse(&bytes).unwrap();
    let mut desc = PipelineDesc::new(PipelineKind::Compute);
    desc.set_shader(Slot::Cs, Some(bytes));
    Pipeline {
        desc,
        shaders: vec![(Slot::Cs, s)],
        root_signature: RootSignatureInfo { blob: Vec::new(), flags: 0, params: Vec::new() },
        canonical: Vec::new(),
    }
}

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/../../tests/fixtures/dxil/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn allocations_are_zeroed_whole_pages_that_share_by_descriptor() {
    let b = default_backend();
    let a = b.allocate(10).unwrap();
    assert_eq!(a.len(), 4096);
    // SAFETY: the mapping holds len bytes, which no other thread can write (just allocated,
    // not shared yet).
    assert!(unsafe { std::slice::from_raw_parts(a.as_ptr(), a.len()) }.iter().all(|&x| x == 0));
    assert!(!a.is_dirty());
    let fd = a.share().unwrap();
    assert!(a.is_dirty(), "shared memory may be written by another process");
    let other = b.import(fd.as_raw_fd()).unwrap();
    assert_eq!(other.len(), 4096);
    // SAFETY: both mappings hold 4096 bytes.
    unsafe {
        *a.as_ptr().add(4095) = 0xa5;
        assert_eq!(*other.as_ptr().add(4095), 0xa5);
    }
    a.clear();
    // SAFETY: as above.
    assert_eq!(unsafe { *other.as_ptr().add(4095) }, 0);
    assert!(!a.is_dirty());
    assert_eq!(b.allocate(u64::MAX).err(), Some(MemoryError::OutOfMemory));
    assert_eq!(b.import(-1).err(), Some(MemoryError::BadHandle));
}

#[test]
fn reserved_ranges_are_distinct_addresses() {
    let b = default_backend();
    let (r1, r2) = (b.reserve(1 << 20).unwrap(), b.reserve(1 << 20).unwrap());
    let (p1, p2) = (r1.base() as usize, r2.base() as usize);
    assert!(p1 != 0 && p2 != 0);
    assert!(p1 + (1 << 20) <= p2 || p2 + (1 << 20) <= p1, "ranges overlap: {p1:#x} {p2:#x}");
}

#[test]
fn compiling_notes_which_work_the_backend_runs() {
    let b = default_backend();
    // A DXIL compute shader the interpreter executes: dispatches run, draws do not.
    let e = b.compile(compute_pipeline(fixture("twoouts.cs.dxil"))).unwrap();
    assert!(e.runs(true));
    assert!(matches!(e.program(Slot::Cs), Some(Ok(_))));
    assert_eq!(e.skip_reason(false), Some("the pipeline state is not a graphics pipeline"));
    // DXBC is lowered to the same IR: its dispatches run too.
    let e = b.compile(compute_pipeline(ShaderBuilder::dxbc(Stage::Compute).build())).unwrap();
    assert_eq!(e.skip_reason(true), None);
    assert!(matches!(e.program(Slot::Cs), Some(Ok(_))));
    // DXBC that does not decode (an unknown opcode in place of `ret`) refuses the pipeline.
    let mut bad = ShaderBuilder::dxbc(Stage::Compute).build();
    let n = bad.len();
    bad[n - 4..].copy_from_slice(&0x0100_07ffu32.to_le_bytes());
    rd3d12_core::dxbc::seal(&mut bad);
    let err = b.compile(compute_pipeline(bad)).err().unwrap();
    assert_eq!((err.hr, err.id.0), (E_INVALIDARG, D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE.0));
    assert!(err.message.contains("unknown opcode 2047"), "{}", err.message);
    // An operation nothing executes (AllocateRayQuery, shader model 6.5) refuses the pipeline
    // with the stage's bytecode message.
    let err = b.compile(compute_pipeline(fixture("dxc/rayquery_inline.cs.dxil"))).err().unwrap();
    assert_eq!(err.hr, E_INVALIDARG);
    assert_eq!(err.id.0, D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE.0);
}

/// The modules a backend may reach: the seam, recorded work, errors and the message sink.
const BELOW_THE_OBJECTS: &[&str] = &["backend", "work", "error", "debug", "trace"];

fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let p = e.path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The first segment of every path from the crate root in a source file.
fn crate_paths(text: &str) -> Vec<&str> {
    text.match_indices("crate::")
        .map(|(i, m)| {
            let rest = &text[i + m.len()..];
            &rest[..rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len())]
        })
        .filter(|name| !name.is_empty())
        .collect()
}

#[test]
fn objects_never_name_a_backend_and_backends_never_reach_the_objects() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    assert!(files.len() > 50, "the runtime's sources were not found under {}", src.display());
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        let text = std::fs::read_to_string(f).unwrap();
        if rel.starts_with("backend") {
            for name in crate_paths(&text) {
                assert!(BELOW_THE_OBJECTS.contains(&name), "{} reaches crate::{name} above the seam", rel.display());
            }
        } else {
            assert!(
                !text.contains("backend::cpu") && !text.contains("CpuBackend"),
                "{} names the CPU backend instead of going through the Backend trait",
                rel.display()
            );
        }
    }
}
