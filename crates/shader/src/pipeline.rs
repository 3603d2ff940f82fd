//! Which programs of a pipeline state the CPU backend holds, read and checked at creation
//! ([`programs`]): DXIL through [`crate::dxil`], DXBC through [`crate::dxbc`], both to the same
//! [`crate::dxil::Program`] (a module of IR-lowered functions and its interface).

use rd3d12_core::pipeline::{Pipeline, PsoError, Slot};
use rd3d12_core::shader::Bytecode;

/// A pipeline shader's program as the CPU backend holds it: the program (shared by every
/// pipeline made from the same bytes: [`shared`]), or why it could not be read.
pub type DxilProgram = Result<Arc<crate::dxil::Program>, crate::dxil::DxilError>;

use std::sync::{Arc, Mutex, Weak};

/// The programs read so far, by their bytes, while some pipeline holds them.
type Shared = std::collections::HashMap<u64, Vec<(Arc<[u8]>, Weak<crate::dxil::Program>)>>;
static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

/// The program of `bytes`: the one another pipeline already holds for the same bytes, else
/// read now. A program is lowered and compiled once, on first use, and keeps that with itself
/// (`interp::program`, `jit::Cache`): pipelines that repeat a shader (Mesa makes one per
/// state variant) share the work. Entries go with the last pipeline holding them.
pub fn shared(bytes: &[u8]) -> Result<Arc<crate::dxil::Program>, crate::dxil::DxilError> {
    shared_by(bytes, crate::dxil::parse)
}

/// [`shared`] for DXBC bytes ([`crate::dxbc::parse`]).
pub fn shared_dxbc(bytes: &[u8]) -> Result<Arc<crate::dxil::Program>, crate::dxbc::DxbcError> {
    shared_by(bytes, crate::dxbc::parse)
}

fn shared_by<E>(
    bytes: &[u8],
    read: fn(&[u8]) -> Result<crate::dxil::Program, E>,
) -> Result<Arc<crate::dxil::Program>, E> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    let key = h.finish();
    let found = |m: &mut Shared| m.get(&key)?.iter().find(|(b, _)| &b[..] == bytes).and_then(|(_, w)| w.upgrade());
    if let Some(p) = found(SHARED.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(Default::default)) {
        return Ok(p);
    }
    let p = Arc::new(read(bytes)?);
    let mut g = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    let m = g.get_or_insert_with(Default::default);
    if let Some(other) = found(m) {
        // Another thread read the same bytes meanwhile: one program for both.
        return Ok(other);
    }
    let list = m.entry(key).or_default();
    list.retain(|(_, w)| w.strong_count() > 0);
    list.push((bytes.into(), Arc::downgrade(&p)));
    if m.len() > 64 && m.len().is_power_of_two() {
        m.retain(|_, l| {
            l.retain(|(_, w)| w.strong_count() > 0);
            !l.is_empty()
        });
    }
    Ok(p)
}

/// Reads the program of each shader of `p`: DXIL, checked that the CPU interpreter executes
/// all of it ([`crate::dxil::support::check`]), and DXBC, read, checked and lowered by
/// [`crate::dxbc::parse`].
///
/// Guarantees for DXBC: a program that does not read, holds an instruction of a later shader
/// model than its version, breaks the format's rules or uses what the lowering does not
/// implement is an E_INVALIDARG error with the stage's INVALIDSHADERBYTECODE message naming
/// why; a DXBC shader never reaches the backend unexecutable.
///
/// Guarantees: a program that reads but calls an operation (or holds an instruction or a
/// constant expression) the interpreter does not implement, or that uses a construct the
/// reader does not implement ([`crate::dxil::DxilError::Unsupported`]), is an E_INVALIDARG
/// error with the stage's INVALIDSHADERBYTECODE message naming it: its draws and dispatches
/// would be skipped, and a refusal is better than wrong results. Bitcode that does not read
/// at all is returned as its error, for the backend to skip with a warning as before.
pub fn programs(p: &Pipeline) -> Result<Vec<(Slot, DxilProgram)>, PsoError> {
    let mut out = Vec::new();
    for (slot, s) in &p.shaders {
        let Some(bytes) = p.desc.shader(*slot) else { continue };
        let refuse = |why: String| PsoError::invalid(slot.bad_bytecode(), format!("{}: {why}", slot.name()));
        if s.bytecode != Bytecode::Dxil {
            out.push((*slot, Ok(shared_dxbc(bytes).map_err(|e| refuse(e.to_string()))?)));
            continue;
        }
        let program = shared(bytes);
        match &program {
            // A [WaveSize] the device does not run is DxilError::Unsupported: refused below.
            Ok(prog) => crate::dxil::support::check(&prog.module).map_err(|e| refuse(e.to_string()))?,
            Err(e @ crate::dxil::DxilError::Unsupported(..)) => return Err(refuse(e.to_string())),
            Err(_) => {}
        }
        out.push((*slot, program));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rd3d12_core::pipeline::{PipelineDesc, PipelineKind, RootSignatureInfo};
    use rd3d12_core::shader::{ShaderBuilder, Stage};
    use rd3d12_core::MessageId;
    use rd3d12_sys::*;

    /// Pipelines made from the same bytes share one program (lowered and compiled once);
    /// other bytes, or bytes read again after the last holder went, are read anew.
    #[test]
    fn the_same_bytes_share_one_program() {
        let bytes = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/copy.cs.dxil"));
        let a = shared(bytes).unwrap();
        let copy = bytes.to_vec();
        let b = shared(&copy).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        let f = &a.module.functions[a.dx.entry_points[0].function];
        let lowered = crate::interp::program(&a.module, f).unwrap() as *const _;
        let g = &b.module.functions[b.dx.entry_points[0].function];
        assert_eq!(crate::interp::program(&b.module, g).unwrap() as *const _, lowered, "lowered once");
        let other = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/wide.cs.dxil"));
        assert!(!Arc::ptr_eq(&a, &shared(other).unwrap()));
        let weak = Arc::downgrade(&a);
        drop((a, b));
        assert!(weak.upgrade().is_none(), "the cache holds no program alive");
        assert!(shared(bytes).is_ok());
        assert!(shared(&bytes[..100]).is_err());
    }

    #[test]
    fn dxil_the_cpu_interpreter_does_not_execute_is_refused() {
        let pipeline = |bytes: Vec<u8>| {
            let s = rd3d12_core::shader::parse(&bytes).unwrap();
            let mut desc = PipelineDesc::new(PipelineKind::Compute);
            desc.set_shader(Slot::Cs, Some(bytes));
            Pipeline {
                desc,
                shaders: vec![(Slot::Cs, s)],
                root_signature: RootSignatureInfo { blob: Vec::new(), flags: 0, params: Vec::new() },
                canonical: Vec::new(),
            }
        };
        // DXC's rayquery_inline (shader model 6.5): AllocateRayQuery (178) is an operation the
        // interpreter does not execute.
        let wave = pipeline(
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/dxil/dxc/rayquery_inline.cs.dxil"
            ))
            .to_vec(),
        );
        let e = programs(&wave).unwrap_err();
        assert_eq!(
            (e.hr, e.id),
            (E_INVALIDARG, MessageId(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE.0))
        );
        assert_eq!(e.message, "CS: dx.op.allocateRayQuery (178, AllocateRayQuery) is not supported (in main)");
        // The wave operations of shader model 6.0 execute.
        let sum = pipeline(
            include_bytes!(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/dxil/wave_active_sum_product.cs.dxil"
            ))
            .to_vec(),
        );
        assert!(matches!(&programs(&sum).unwrap()[..], [(Slot::Cs, Ok(_))]));
        // IMul, UMul and UDiv execute: the program is read once, here.
        let ok = pipeline(
            include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/twoouts.cs.dxil")).to_vec(),
        );
        assert!(matches!(&programs(&ok).unwrap()[..], [(Slot::Cs, Ok(_))]));
        // Bitcode that does not read (the builder's token stream) is handed on as its error.
        let fake = pipeline(ShaderBuilder::dxil(Stage::Compute).build());
        assert!(matches!(&programs(&fake).unwrap()[..], [(Slot::Cs, Err(_))]));
    }

    /// DXBC programs are read and lowered at creation; malformed or unexecutable ones are
    /// refused with E_INVALIDARG and the stage's INVALIDSHADERBYTECODE message.
    #[test]
    fn dxbc_programs_are_lowered_or_refused_at_creation() {
        let pipeline = |bytes: Vec<u8>| {
            let s = rd3d12_core::shader::parse(&bytes).unwrap();
            let mut desc = PipelineDesc::new(PipelineKind::Compute);
            desc.set_shader(Slot::Cs, Some(bytes));
            Pipeline {
                desc,
                shaders: vec![(Slot::Cs, s)],
                root_signature: RootSignatureInfo { blob: Vec::new(), flags: 0, params: Vec::new() },
                canonical: Vec::new(),
            }
        };
        let ok = programs(&pipeline(ShaderBuilder::dxbc(Stage::Compute).build())).unwrap();
        let [(Slot::Cs, Ok(p))] = &ok[..] else { panic!("one program") };
        assert_eq!(p.dx.entry_points[0].num_threads, Some([1, 1, 1]));
        let asm = |t: &str| crate::dxbc::asm::container(t, &[], &[], None).unwrap();
        let refused = [
            (
                asm("cs_4_0\ndcl_thread_group 1, 1, 1\nret"),
                "CS: dcl_thread_group needs shader model 5.0, the program is 4.0",
            ),
            (
                asm("cs_5_0\ndcl_thread_group 1, 1, 1\nif_nz l(1)\nret"),
                "CS: malformed DXBC: a block is not closed at the end of the program",
            ),
            (
                asm("cs_5_0\ndcl_thread_group 1, 1, 1\ncall l0\nret\nlabel l0\ncall l0\nret"),
                "CS: malformed DXBC: call (DWORD 6): call (DWORD 13): l0 is called again from inside itself (a call cycle: recursion is not allowed)",
            ),
        ];
        for (bytes, want) in refused {
            let e = programs(&pipeline(bytes)).unwrap_err();
            assert_eq!(
                (e.hr, e.id, e.message.as_str()),
                (E_INVALIDARG, MessageId(D3D12_MESSAGE_ID_CREATECOMPUTESHADER_INVALIDSHADERBYTECODE.0), want)
            );
        }
    }
}
