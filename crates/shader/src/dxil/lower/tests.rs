use super::*;

fn program(name: &str) -> crate::dxil::Program {
    let path = format!("{}/../../tests/fixtures/dxil/{name}", env!("CARGO_MANIFEST_DIR"));
    crate::dxil::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn lower_main(name: &str) -> ir::Function {
    let p = program(name);
    let f = p.module.function("main").unwrap();
    lower(&p.module, f).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every function of every fixture (the top level's, `wave/`'s and `dxc/`'s) lowers, but
/// those listed, which use an operation the IR does not have (the same refusal
/// `support::check` gives).
#[test]
fn every_fixture_lowers() {
    const REFUSED: [(&str, &str); 3] = [
        ("dxc/atomic64_bab.cs.dxil", "unsupported: dx.op 78 (AtomicBinOp) of 64-bit values"),
        ("dxc/mesh_pipeline.MSMain.ms.dxil", "unsupported: dx.op 170 (GetMeshPayload)"),
        ("dxc/rayquery_inline.cs.dxil", "unsupported: dx.op 178 (AllocateRayQuery)"),
    ];
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil");
    let mut n = 0;
    let listing = |sub: &str| {
        let d = std::fs::read_dir(format!("{dir}/{sub}")).unwrap();
        let sub = sub.to_string();
        d.map(move |e| format!("{sub}{}", e.unwrap().file_name().to_string_lossy()))
    };
    for name in listing("").chain(listing("wave/")).chain(listing("dxc/")) {
        if !name.ends_with(".dxil") {
            continue;
        }
        let p = program(&name);
        let want = REFUSED.iter().find(|(n, _)| *n == name).map(|(_, w)| w.to_string());
        let mut got = None;
        for f in p.module.functions.iter().filter(|f| !f.declaration) {
            match lower(&p.module, f) {
                Ok(ir) => {
                    // The facts cover every block; every conditional branch of a reachable block
                    // has its reconvergence point computed.
                    assert_eq!(ir.cfg.ipdom.len(), ir.blocks.len(), "{name}\n{ir}");
                    assert_eq!(ir.cfg.rpo.first(), Some(&BlockId(0)), "{name}");
                }
                Err(e) => got = Some(e.to_string()),
            }
        }
        assert_eq!(got, want, "{name}");
        n += 1;
    }
    assert!(n >= 60, "{n} fixtures");
}

#[test]
fn a_loop_lowers_to_phis_a_header_and_a_reconvergence_point() {
    let f = lower_main("loop.ps.dxil");
    let text = f.to_string();
    // bb1 is the loop header: five phis, the exit test, reconverging after the loop.
    assert_eq!(f.blocks[1].phis.len(), 5, "{text}");
    assert_eq!(f.cfg.loops.len(), 1, "{text}");
    assert_eq!(f.cfg.loops[0].header, BlockId(1), "{text}");
    assert_eq!(f.cfg.loops[0].exits, [BlockId(2)], "{text}");
    assert_eq!(f.cfg.ipdom[1], Some(BlockId(2)), "{text}");
    for line in [
        "  %0 = dx.CreateHandle Cbv i32 0, i32 0, i1 false : handle",
        "  %1 = dx.LoadInput i32 0, i32 0, i8 0, i32 0 : float",
        "  %2 = fptosi float %1 to i32",
        "  %3 = urem i32 %2, i32 7",
        "  %4 = phi i32 [ i32 0, bb0 ], [ %22, bb4 ]",
        "  %9 = icmp sge i32 %8, %3",
        "  br %9, bb2, bb3 ; reconverge bb2",
        "  %10 = dx.CBufferLoadLegacy %0, i32 0 : {i32, i32, i32, i32}",
        "  %11 = extract 0 %10 : i32",
        "  %15 = sitofp i32 %8 to float",
        "  %18 = dx.Sin %17 : float",
        "  %27 = bitcast i32 1056964608 to float",
        "  dx.Discard %37",
        "  dx.StoreOutput i32 0, i32 0, i8 3, %41",
    ] {
        assert!(text.contains(line), "missing {line:?} in\n{text}");
    }
}

#[test]
fn typed_fields_replace_integer_operands() {
    // Atomics name their operation; groupshared barriers say they synchronise the group.
    let f = lower_main("shared_atomics.cs.dxil");
    let ops: Vec<&Op> = f.blocks.iter().flat_map(|b| &b.insts).map(|i| &i.op).collect();
    assert!(ops.iter().any(|o| matches!(o, Op::Dx(Dx::Barrier { group_sync: true }))), "{f}");
    assert!(ops.iter().any(|o| matches!(o, Op::AtomicRmw(..))), "{f}");
    assert!(f.globals.iter().any(|g| g.space == AddrSpace::Group), "{f}");
    let f = lower_main("atomic.cs.dxil");
    let atomics: Vec<&Op> = f.blocks.iter().flat_map(|b| &b.insts).map(|i| &i.op).collect();
    assert!(atomics.iter().any(|o| matches!(o, Op::Dx(Dx::AtomicBinOp(_)))), "{f}");
}

#[test]
fn a_static_array_becomes_an_initialised_global_indexed_by_strides() {
    let f = lower_main("static_global_array.cs.dxil");
    let g = f.globals.first().unwrap_or_else(|| panic!("{f}"));
    assert_eq!(g.space, AddrSpace::Private);
    assert!(g.init.is_some(), "{f}");
    let geps: Vec<&Op> =
        f.blocks.iter().flat_map(|b| &b.insts).map(|i| &i.op).filter(|o| matches!(o, Op::PtrAdd { .. })).collect();
    assert!(!geps.is_empty(), "{f}");
}

/// Wave operations lower to typed [`Op::Wave`]s (kinds decoded, the kind operands gone), and
/// shader model 6.6's createHandleFromBinding / annotateHandle to the createHandle of the range
/// declared at that register (DXC's wavesize_4: u0 is range 0; annotateHandle a copy).
#[test]
fn wave_operations_and_handles_from_bindings_lower() {
    use crate::interp::wave::{Reduce, WaveOp};
    let p = program("wave/wavesize_4.cs.dxil");
    let f = lower(&p.module, p.module.function("main").unwrap()).unwrap();
    let text = f.to_string();
    let ops: Vec<&Op> = f.blocks.iter().flat_map(|b| &b.insts).map(|i| &i.op).collect();
    assert!(ops.contains(&&Op::Wave { op: WaveOp::GetLaneCount, ty: Scalar::I32 }), "{text}");
    let sum = Op::Wave { op: WaveOp::Active { op: Reduce::Sum, signed: false }, ty: Scalar::I32 };
    let i = f.blocks.iter().flat_map(|b| &b.insts).find(|i| i.op == sum).unwrap_or_else(|| panic!("{text}"));
    assert_eq!(i.args.len(), 1, "the value only\n{text}");
    assert!(text.contains("= wave.WaveActiveOp sum unsigned i32 "), "{text}");
    assert!(text.contains("= dx.CreateHandle Uav i32 0, i32 0, i1 false"), "{text}");
    assert!(!ops.iter().any(|o| matches!(o, Op::Dx(d) if d.opcode() >= 216)), "{text}");
}
