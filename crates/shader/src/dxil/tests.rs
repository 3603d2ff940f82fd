//! End-to-end tests on the four real DXIL containers in tests/fixtures/dxil (see its
//! README for the GLSL they were compiled from).

use super::*;
use crate::dxil::ops::opcode;
use bitstream::{Block, Item, Record};
use module::{CONSTANTS_BLOCK, FUNCTION_BLOCK, METADATA_BLOCK, MODULE_BLOCK, TYPE_BLOCK_NEW, VALUE_SYMTAB_BLOCK};
use rd3d12_core::shader::{self, ComponentType, SignatureElement};

pub(crate) const FIXTURES: [(&str, &[u8]); 4] = [
    ("textured.vs", include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.vs.dxil"))),
    ("textured.ps", include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/textured.ps.dxil"))),
    ("loop.vs", include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/loop.vs.dxil"))),
    ("loop.ps", include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/loop.ps.dxil"))),
];

fn fixture(name: &str) -> &'static [u8] {
    FIXTURES.iter().find(|(n, _)| *n == name).unwrap().1
}

fn module(name: &str) -> Module {
    parse(fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}")).module
}

#[test]
fn fixtures_bitstreams_hold_one_module_block() {
    for (name, bytes) in FIXTURES {
        let bc = bitcode(bytes).unwrap();
        let blocks = bitstream::parse(bc).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(blocks.iter().map(|b| b.id).collect::<Vec<_>>(), vec![8], "{name}");
        // One function body each: `main`.
        assert_eq!(blocks[0].blocks().filter(|b| b.id == 12).count(), 1, "{name}");
    }
}

/// The record and block counts `llvm-bcanalyzer -dump` shows for the fixtures (BLOCKINFO,
/// which the reader applies and drops, not counted).
#[test]
fn fixture_trees_hold_the_records_llvm_bcanalyzer_reads() {
    fn count(b: &Block) -> (usize, usize) {
        b.items.iter().fold((0, 1), |(r, n), i| match i {
            Item::Record(_) => (r + 1, n),
            Item::Block(s) => {
                let (sr, sn) = count(s);
                (r + sr, n + sn)
            }
        })
    }
    for (name, records) in [("textured.vs", 229), ("textured.ps", 190), ("loop.vs", 147), ("loop.ps", 194)] {
        let blocks = bitstream::parse(bitcode(fixture(name)).unwrap()).unwrap();
        assert_eq!(count(&blocks[0]), (records, 8), "{name}");
    }
}

/// Truncations and bit flips of real bitcode give errors or (rarely) other modules, never
/// a panic, at every layer.
#[test]
fn damaged_fixtures_never_panic() {
    for (_, bytes) in FIXTURES {
        let bc = bitcode(bytes).unwrap();
        let read = |d: &[u8]| {
            if let Ok(blocks) = bitstream::parse(d) {
                if let Ok(m) = Module::parse(&blocks) {
                    let _ = m.dx_metadata();
                    let _ = m.to_string();
                }
            }
        };
        for len in (0..bc.len()).step_by(5) {
            read(&bc[..len]);
        }
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..400 {
            let mut d = bc.to_vec();
            for _ in 0..1 + (seed % 3) {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let bit = (seed >> 33) as usize % (d.len() * 8);
                d[bit / 8] ^= 1 << (bit % 8);
            }
            read(&d);
        }
    }
}

/// Record-level damage reaches the IR reader where bit flips mostly stop in the bitstream:
/// one operand of one record of the fixtures' block trees is replaced, a record dropped or
/// duplicated, and reading, metadata decoding and printing must return, not panic.
#[test]
fn damaged_records_never_panic() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (_, bytes) in FIXTURES {
        let tree = bitstream::parse(bitcode(bytes).unwrap()).unwrap();
        for round in 0..600 {
            let mut t = tree.clone();
            let block = &mut t[0];
            if round % 10 == 0 {
                // Drop or duplicate a whole item.
                let i = next() as usize % block.items.len();
                if next() % 2 == 0 {
                    block.items.remove(i);
                } else {
                    let dup = block.items[i].clone();
                    block.items.insert(i, dup);
                }
            } else {
                let Some(r) = nth_record(block, next() as usize) else { continue };
                let v = match next() % 4 {
                    0 => 0,
                    1 => next() % 64,
                    2 => u64::MAX - next() % 4,
                    _ => next(),
                };
                match next() % 3 {
                    0 if !r.ops.is_empty() => {
                        let i = next() as usize % r.ops.len();
                        r.ops[i] = v;
                    }
                    1 => r.ops.push(v),
                    _ => {
                        r.ops.pop();
                    }
                }
            }
            if let Ok(m) = Module::parse(&t) {
                let _ = m.dx_metadata();
                let _ = m.to_string();
            }
        }
    }
}

/// The shader fuzz target's stack overflow: a type table whose struct holds itself by value
/// (`%dx.types.i32c = { i32, i1, %dx.types.i32c }`, one operand added to a record of
/// adduint64.cs.dxil's type table) was read, and lowering `main` walked the struct's scalars forever. The
/// reader refuses it now, before anything walks it.
#[test]
fn a_struct_holding_itself_is_refused_by_the_reader() {
    let base = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/adduint64.cs.dxil"));
    let mut tree = bitstream::parse(bitcode(base).unwrap()).unwrap();
    let m = Module::parse(&tree).unwrap();
    let i32c = (0..m.types.len() as u32)
        .map(TypeId)
        .find(|&t| matches!(m.types.get(t), Some(Type::Struct { name: Some(n), .. }) if n == "dx.types.i32c"))
        .expect("UAddc's result struct");
    let Some(Item::Block(types)) =
        tree[0].items.iter_mut().find(|i| matches!(i, Item::Block(b) if b.id == TYPE_BLOCK_NEW))
    else {
        panic!("a type block")
    };
    // Type ids count the records that define a type (not NUMENTRY 1, STRUCT_NAME 19).
    let r = types
        .items
        .iter_mut()
        .filter_map(|i| match i {
            Item::Record(r) if !matches!(r.code, 1 | 19) => Some(r),
            _ => None,
        })
        .nth(i32c.0 as usize)
        .unwrap();
    assert_eq!(r.ops.len(), 3, "{{ packed, i32, i1 }}");
    r.ops.push(u64::from(i32c.0));
    assert_eq!(
        Module::parse(&tree).map(|_| ()),
        Err(DxilError::Malformed("type table", "a struct that contains itself (not through a pointer)"))
    );
}

/// The `n`th record (modulo their count) of a block tree, depth first.
fn nth_record(b: &mut Block, n: usize) -> Option<&mut Record> {
    fn count(b: &Block) -> usize {
        b.items.iter().map(|i| if let Item::Block(s) = i { count(s) } else { 1 }).sum()
    }
    fn find<'a>(b: &'a mut Block, n: &mut usize) -> Option<&'a mut Record> {
        for item in &mut b.items {
            match item {
                Item::Record(r) if *n == 0 => return Some(r),
                Item::Record(_) => *n -= 1,
                Item::Block(sub) => {
                    if let Some(r) = find(sub, n) {
                        return Some(r);
                    }
                }
            }
        }
        None
    }
    let total = count(b);
    if total == 0 {
        return None;
    }
    find(b, &mut (n % total))
}

#[test]
fn fixtures_parse_to_one_defined_main() {
    for (name, _) in FIXTURES {
        let m = module(name);
        assert_eq!(m.triple, "dxil-ms-dx", "{name}");
        let defined: Vec<&str> = m.functions.iter().filter(|f| !f.declaration).map(|f| f.name.as_str()).collect();
        assert_eq!(defined, ["main"], "{name}");
        assert!(m.functions.iter().filter(|f| f.declaration).all(|f| f.name.starts_with("dx.op.")), "{name}");
    }
}

fn main_fn(m: &Module) -> &Function {
    m.function("main").expect("main is defined")
}

/// The `dx.op` calls of `main`, in order, with their instructions.
fn dx_calls(m: &Module) -> Vec<(DxOp<'_>, &Inst)> {
    let f = main_fn(m);
    f.blocks.iter().flat_map(|b| &b.insts).filter_map(|i| m.dx_op(f, &i.kind).map(|op| (op, i))).collect()
}

fn arg_int(m: &Module, v: &Operand) -> i64 {
    match v {
        Operand::Value(v) => m.const_int(Some(main_fn(m)), *v).expect("constant integer operand"),
        Operand::Metadata(_) => panic!("metadata operand"),
    }
}

fn arg_ty(m: &Module, v: &Operand) -> TypeId {
    match v {
        Operand::Value(v) => m.value(Some(main_fn(m)), *v).unwrap().ty,
        Operand::Metadata(_) => panic!("metadata operand"),
    }
}

#[test]
fn entry_point_and_stage_agree_with_the_container() {
    for (name, bytes) in FIXTURES {
        let sh = shader::parse(bytes).unwrap();
        let m = module(name);
        let dx = m.dx_metadata().unwrap();
        assert_eq!(dx.stage, sh.stage, "{name}");
        assert_eq!(dx.stage.profile(), &name[name.len() - 2..], "{name}");
        assert_eq!((dx.model.0 as u8, dx.model.1 as u8), (sh.model.major, sh.model.minor), "{name}");
        assert_eq!(dx.model, (6, 1), "{name}");
        assert_eq!(dx.dxil_version, (1, 1), "{name}");
        assert_eq!(dx.entry_points.len(), 1, "{name}");
        let ep = &dx.entry_points[0];
        assert_eq!(ep.name, "main");
        assert_eq!(m.functions[ep.function].name, "main");
        // The metadata signatures describe the same elements as the ISG1 / OSG1 parts: one
        // container element per row, with the same name, index, kind, component type (in the
        // container's numbering), register and columns.
        let key = |e: &SignatureElement, r: usize, i: u32| {
            let (row, mask) = (e.start_row + r as i32, e.mask);
            (e.name.to_ascii_uppercase(), i, e.semantic.dxil(), e.component.d3d(), row, e.start_col, e.cols, mask)
        };
        for (md, part) in [(&ep.inputs, &sh.inputs), (&ep.outputs, &sh.outputs)] {
            let rows = |e: &'_ SignatureElement| {
                e.semantic_indices.iter().enumerate().map(|(r, &i)| key(e, r, i)).collect::<Vec<_>>()
            };
            let mut a: Vec<_> = md.iter().flat_map(rows).collect();
            let mut b: Vec<_> = part.iter().flat_map(rows).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "{name}");
        }
        assert!(ep.patch_constants.is_empty());
    }
}

#[test]
fn a_shader_model_disagreeing_with_the_program_header_is_an_error() {
    // Patch the program header's shader kind (bits 16-31 of its first word) and the PSV0
    // stage (byte 24 of its runtime info) from vertex (1) to pixel (0), leaving the module's
    // "vs"; the container checksum is zero (unsigned), so nothing else needs fixing.
    let mut bytes = fixture("textured.vs").to_vec();
    let c = rd3d12_core::dxbc::Container::parse_unverified(&bytes).unwrap();
    let offset = |cc: [u8; 4]| c.part(cc).unwrap().as_ptr() as usize - c.bytes.as_ptr() as usize;
    let (program, psv) = (offset(*b"DXIL"), offset(*b"PSV0"));
    assert_eq!((bytes[program + 2], bytes[psv + 4 + 24]), (1, 1));
    bytes[program + 2] = 0;
    bytes[psv + 4 + 24] = 0;
    assert_eq!(shader::parse(&bytes).unwrap().stage, shader::Stage::Pixel);
    assert_eq!(
        parse(&bytes).map(|p| p.dx.stage),
        Err(DxilError::Malformed("metadata", "dx.shaderModel differs from the program header"))
    );
}

#[test]
fn instruction_and_block_counts_match_llvm_dis() {
    // Counted in `llvm-dis` output of the same bitcode.
    for (name, insts, blocks) in
        [("textured.vs", 89, 1), ("textured.ps", 28, 1), ("loop.vs", 20, 1), ("loop.ps", 53, 6)]
    {
        let m = module(name);
        let f = main_fn(&m);
        assert_eq!(f.blocks.len(), blocks, "{name}");
        assert_eq!(f.blocks.iter().map(|b| b.insts.len()).sum::<usize>(), insts, "{name}");
        assert!(f.blocks.iter().all(|b| b.insts.last().unwrap().kind.is_terminator()), "{name}");
        assert!(matches!(f.blocks.last().unwrap().insts.last().unwrap().kind, InstKind::Ret { value: None }));
    }
}

#[test]
fn every_dx_op_call_has_a_known_opcode_of_its_function_class() {
    let class_of = |op: u32| match op {
        opcode::LOAD_INPUT => "loadInput",
        opcode::STORE_OUTPUT => "storeOutput",
        opcode::COS | opcode::SIN => "unary",
        opcode::CREATE_HANDLE => "createHandle",
        opcode::CBUFFER_LOAD_LEGACY => "cbufferLoadLegacy",
        opcode::SAMPLE => "sample",
        opcode::DISCARD => "discard",
        _ => panic!("opcode {op} not expected in the fixtures"),
    };
    // (createHandle, loadInput, cbufferLoadLegacy, storeOutput, sample, discard, unary)
    let expected = [
        ("textured.vs", [2, 6, 5, 6, 0, 0, 0]),
        ("textured.ps", [3, 2, 1, 4, 1, 0, 0]),
        ("loop.vs", [1, 4, 1, 4, 0, 0, 0]),
        ("loop.ps", [1, 1, 1, 4, 0, 1, 2]),
    ];
    for (name, counts) in expected {
        let m = module(name);
        let calls = dx_calls(&m);
        let f = main_fn(&m);
        let all_calls = f.blocks.iter().flat_map(|b| &b.insts).filter(|i| matches!(i.kind, InstKind::Call { .. }));
        assert_eq!(all_calls.count(), calls.len(), "{name}: every call is a dx.op call");
        for (op, _) in &calls {
            assert!(op.name.is_some(), "{name}: opcode {}", op.opcode);
            assert!(op.function.starts_with(&format!("dx.op.{}", class_of(op.opcode))), "{name}: {}", op.function);
        }
        let n = |o: u32| calls.iter().filter(|(op, _)| op.opcode == o).count();
        let got = [
            n(opcode::CREATE_HANDLE),
            n(opcode::LOAD_INPUT),
            n(opcode::CBUFFER_LOAD_LEGACY),
            n(opcode::STORE_OUTPUT),
            n(opcode::SAMPLE),
            n(opcode::DISCARD),
            n(opcode::COS) + n(opcode::SIN),
        ];
        assert_eq!(got, counts, "{name}");
    }
}

#[test]
fn load_input_and_store_output_match_the_signatures() {
    // Components written per output semantic, worked out from the GLSL: gl_Position is a
    // vec4, v_uv a vec2, the fragment colour a vec4.
    let stores = [
        ("textured.vs", vec![("SV_Position", 4), ("TEXCOORD", 2)]),
        ("textured.ps", vec![("SV_Target", 4)]),
        ("loop.vs", vec![("SV_Position", 4)]),
        ("loop.ps", vec![("SV_Target", 4)]),
    ];
    for (name, expected) in stores {
        let m = module(name);
        let ep = m.dx_metadata().unwrap().entry_points.remove(0);
        let mut written: Vec<(String, u32, i64)> = Vec::new();
        for (op, inst) in dx_calls(&m) {
            let (sig, value_ty) = match op.opcode {
                opcode::LOAD_INPUT => (&ep.inputs, inst.ty),
                opcode::STORE_OUTPUT => (&ep.outputs, arg_ty(&m, &op.args[3])),
                _ => continue,
            };
            let id = arg_int(&m, &op.args[0]) as u32;
            let e = sig.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{name}: no element {id}"));
            let row = arg_int(&m, &op.args[1]);
            let col = arg_int(&m, &op.args[2]);
            assert!(row < e.rows as i64 && col < e.cols as i64, "{name}: {} row {row} col {col}", e.name);
            assert_eq!(e.component, ComponentType::F32, "{name}");
            assert_eq!(m.types.get(value_ty), Some(&Type::Float), "{name}");
            if op.opcode == opcode::STORE_OUTPUT {
                written.push((e.name.clone(), e.semantic_indices[0], col));
            }
        }
        written.sort();
        written.dedup();
        let mut per: Vec<(&str, usize)> = Vec::new();
        for (n, _, _) in &written {
            match per.iter_mut().find(|(p, _)| p == n) {
                Some(p) => p.1 += 1,
                None => per.push((n.as_str(), 1)),
            }
        }
        per.sort();
        let mut expected = expected.clone();
        expected.sort();
        assert_eq!(per, expected, "{name}");
    }
}

#[test]
fn textured_vs_reads_the_four_mvp_columns_of_its_uniform_buffer() {
    let m = module("textured.vs");
    let dx = m.dx_metadata().unwrap();
    let cbvs: Vec<&str> = dx.resources.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(cbvs, ["__ubo_uniforms", "__ubo_state_vars"]);
    assert!(dx.resources.iter().all(|r| r.class == metadata::ResourceClass::Cbv && r.shape_or_size == 65536));
    let calls = dx_calls(&m);
    // The handle of the `__ubo_uniforms` range (class 2 = CBV, range id 0).
    let (_, h) = calls
        .iter()
        .find(|(op, _)| {
            op.opcode == opcode::CREATE_HANDLE && arg_int(&m, &op.args[0]) == 2 && arg_int(&m, &op.args[1]) == 0
        })
        .unwrap();
    let mut rows: Vec<i64> = calls
        .iter()
        .filter(|(op, _)| op.opcode == opcode::CBUFFER_LOAD_LEGACY && op.args[0] == Operand::Value(h.result.unwrap()))
        .map(|(op, _)| arg_int(&m, &op.args[1]))
        .collect();
    rows.sort();
    assert_eq!(rows, [0, 1, 2, 3]);
}

#[test]
fn textured_ps_samples_one_texture_and_reads_a_cbuffer() {
    let m = module("textured.ps");
    let f = main_fn(&m);
    let dx = m.dx_metadata().unwrap();
    use metadata::ResourceClass::*;
    let res: Vec<_> = dx.resources.iter().map(|r| (r.class, r.name.as_str(), r.shape_or_size)).collect();
    // Shape 2 is Texture2D; the CBV's size is in bytes.
    assert_eq!(res, [(Srv, "tex", 2), (Cbv, "__ubo_uniforms", 65536), (Sampler, "tex", 0)]);
    let calls = dx_calls(&m);
    let handle_class = |v: &Operand| {
        let Operand::Value(v) = v else { panic!() };
        let op = m.dx_op(f, &f.inst_of(*v).unwrap().kind).unwrap();
        assert_eq!(op.opcode, opcode::CREATE_HANDLE);
        arg_int(&m, &op.args[0])
    };
    let samples: Vec<_> = calls.iter().filter(|(op, _)| op.opcode == opcode::SAMPLE).collect();
    assert_eq!(samples.len(), 1);
    let (sample, inst) = samples[0];
    assert_eq!((handle_class(&sample.args[0]), handle_class(&sample.args[1])), (0, 3));
    assert_eq!(m.types.name(inst.ty), "%dx.types.ResRet.f32");
    let cb: Vec<_> = calls.iter().filter(|(op, _)| op.opcode == opcode::CBUFFER_LOAD_LEGACY).collect();
    assert_eq!(cb.len(), 1);
    assert_eq!(handle_class(&cb[0].0.args[0]), 2);
    // texture(...) * tint: four float multiplies.
    let fmuls =
        f.blocks[0].insts.iter().filter(|i| matches!(i.kind, InstKind::Binary { op: inst::BinOp::FMul, .. })).count();
    assert_eq!(fmuls, 4);
}

#[test]
fn loop_ps_has_a_loop_with_phis_and_a_discard() {
    let m = module("loop.ps");
    let f = main_fn(&m);
    // int(x) % 7
    assert!(f.blocks[0].insts.iter().any(|i| matches!(i.kind,
        InstKind::Binary { op: inst::BinOp::URem, rhs, .. } if m.const_int(Some(f), rhs) == Some(7))));
    // The loop header: c.xyzw and k as five phis, from the entry and from the latch.
    let header = &f.blocks[1];
    let phis: Vec<_> = header
        .insts
        .iter()
        .filter_map(|i| match &i.kind {
            InstKind::Phi { incoming } => Some(incoming),
            _ => None,
        })
        .collect();
    assert_eq!(phis.len(), 5);
    assert!(phis.iter().all(|inc| inc.iter().map(|(_, b)| *b).collect::<Vec<_>>() == [0, 4]));
    // The first incoming values are the constant 0 (vec4(0.0) and k = 0, as i32 bits).
    assert!(phis.iter().all(|inc| m.const_int(Some(f), inc[0].0) == Some(0)));
    // The latch branches back to the header.
    assert_eq!(f.blocks[4].insts.last().unwrap().kind.successors(), [1]);
    // discard(c.x > 0.5), written as 0.5 < c.x.
    let discard = dx_calls(&m).into_iter().find(|(op, _)| op.opcode == opcode::DISCARD).unwrap().0;
    let Operand::Value(cond) = discard.args[0] else { panic!() };
    assert!(matches!(f.inst_of(cond).unwrap().kind, InstKind::Cmp { pred: 4, .. }));
}

/// The relative value numbering is decoded right if every operand has the type its
/// instruction needs.
#[test]
fn operand_types_agree_with_instruction_types() {
    for (name, _) in FIXTURES {
        let m = module(name);
        let f = main_fn(&m);
        let ty = |v: ValueId| m.value(Some(f), v).unwrap().ty;
        let mut checked = 0;
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            match &inst.kind {
                InstKind::Binary { lhs, rhs, .. } => {
                    assert_eq!((ty(*lhs), ty(*rhs)), (inst.ty, inst.ty), "{name}");
                }
                InstKind::Cmp { lhs, rhs, .. } => {
                    assert_eq!(ty(*lhs), ty(*rhs), "{name}");
                    assert_eq!(m.types.get(inst.ty), Some(&Type::Int(1)));
                }
                InstKind::Phi { incoming } => assert!(incoming.iter().all(|(v, _)| ty(*v) == inst.ty), "{name}"),
                InstKind::Call { callee, fn_ty, args, .. } => {
                    let Some(Type::Function { params, ret, .. }) = m.types.get(*fn_ty) else { panic!() };
                    assert_eq!(*ret, inst.ty);
                    assert_eq!(m.types.pointee(ty(*callee)).unwrap().0, *fn_ty, "{name}");
                    let arg_tys: Vec<TypeId> = args.iter().map(|a| arg_ty(&m, a)).collect();
                    assert_eq!(&arg_tys, params, "{name}");
                }
                InstKind::ExtractValue { agg, indices } => {
                    assert_eq!(m.types.element(ty(*agg), indices[0] as u64), Some(inst.ty), "{name}");
                }
                InstKind::CondBr { cond, .. } => assert_eq!(m.types.get(ty(*cond)), Some(&Type::Int(1))),
                _ => continue,
            }
            checked += 1;
        }
        assert!(checked > 10, "{name}");
    }
}

#[test]
fn printer_renders_lines_as_llvm_dis_does() {
    // Lines copied from `llvm-dis` output of the same bitcode.
    let cases: [(&str, &[&str]); 3] = [
        (
            "textured.ps",
            &[
                "  %6 = call %dx.types.ResRet.f32 @dx.op.sample.f32(i32 60, %dx.types.Handle %3, %dx.types.Handle %2, \
                 float %4, float %5, float undef, float undef, i32 undef, i32 undef, i32 undef, float undef)",
                "  call void @dx.op.storeOutput.f32(i32 5, i32 0, i32 0, i8 0, float %17)",
                "  %17 = fmul fast float %7, %16",
                "%\"class.Texture2D<vector<float, 4> >\" = type { <4 x float> }",
                "declare float @dx.op.loadInput.f32(i32, i32, i32, i8, i32)",
            ],
        ),
        (
            "loop.ps",
            &[
                "  %4 = urem i32 %3, 7",
                "  %6 = phi i32 [ 0, %0 ], [ %27, %14 ]",
                "  br i1 %11, label %12, label %13",
                "  %23 = call float @dx.op.unary.f32(i32 13, float %22)",
                "  %32 = bitcast i32 1056964608 to float",
                "  %43 = fcmp olt float %41, %42",
                "  call void @dx.op.discard(i32 82, i1 %43)",
                "40:",
            ],
        ),
        ("textured.vs", &["  %2 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 2, i32 1, i32 1, i1 false)"]),
    ];
    for (name, lines) in cases {
        let text = module(name).to_string();
        for l in lines {
            assert!(text.lines().any(|t| t == *l), "{name}: missing line {l:?} in\n{text}");
        }
    }
}

// ---- hand-built modules -------------------------------------------------------------------

fn rec(code: u32, ops: &[u64]) -> Item {
    Item::Record(Record { code, ops: ops.to_vec(), blob: None })
}

fn blk(id: u32, items: Vec<Item>) -> Item {
    Item::Block(Block { id, items })
}

fn chars(s: &str) -> impl Iterator<Item = u64> + '_ {
    s.bytes().map(u64::from)
}

fn named(code: u32, first: &[u64], name: &str) -> Item {
    let ops: Vec<u64> = first.iter().copied().chain(chars(name)).collect();
    rec(code, &ops)
}

/// A module exercising forward references (with their explicit type, and signed in a phi),
/// constant expressions, an aggregate constant referring forward, groupshared memory,
/// every memory instruction, select, aggregates, switch and both symbol tables. Value ids:
/// 0 @g, 1 @main, 2 @helper, 3–9 module constants, 10 %a, then the instruction results.
fn hand_built_body() -> Vec<Item> {
    vec![
        rec(1, &[3]), // DECLAREBLOCKS
        // block 0
        rec(19, &[0, 0, 4, 3 | 1 << 6]),  // %11 = alloca i32, i32 5, align 4
        rec(2, &[2, 8, 0, 2]),            // %12 = add nsw %a, 5
        rec(34, &[0, 1 << 15, 9, 11, 1]), // %13 = call i32 @helper(%12)
        rec(2, &[(14u32.wrapping_sub(17)) as u64, 0, 1, 2, 0]), // %14 = mul %17 (forward, i32), %13
        rec(28, &[1, 5, 40]),             // %15 = icmp slt %14, %a
        rec(11, &[1, 2, 1]),              // br %15, 1, 2
        // block 1
        rec(16, &[0, 8, 0, 3, 1]),   // %16 = phi i32 [%12, 0], [%17, 1]
        rec(29, &[1, 7, 2]),         // %17 = select %15, %16, %a
        rec(44, &[11, 1, 3, 0]),     // store %17 -> constant GEP (7)
        rec(43, &[1, 5, 18, 15, 1]), // %18 = gep inbounds [4 x i32], @g, 0, %17
        rec(20, &[1, 0, 3, 0]),      // %19 = load i32, %18
        rec(44, &[9, 6, 3, 0]),      // store %14 -> %11
        rec(11, &[2]),               // br 2
        // block 2
        rec(27, &[12, 1, 2]),      // %20 = insertvalue C8, %19, 2
        rec(26, &[1, 2]),          // %21 = extractvalue %20, 2
        rec(12, &[0, 1, 2, 4, 1]), // switch %21, default 2, [5 -> 1]
        blk(VALUE_SYMTAB_BLOCK, vec![named(1, &[10], "a"), named(2, &[0], "entry")]),
    ]
}

fn hand_built(body: Vec<Item>) -> Vec<Block> {
    let types = vec![
        rec(1, &[10]),       // NUMENTRY
        rec(7, &[32]),       // 0 i32
        rec(3, &[]),         // 1 float
        rec(2, &[]),         // 2 void
        rec(21, &[0, 2, 0]), // 3 void (i32)
        rec(7, &[1]),        // 4 i1
        rec(11, &[4, 0]),    // 5 [4 x i32]
        rec(8, &[5, 3]),     // 6 [4 x i32] addrspace(3)*
        rec(8, &[0, 3]),     // 7 i32 addrspace(3)*
        rec(8, &[0, 0]),     // 8 i32*
        rec(21, &[0, 0, 0]), // 9 i32 (i32)
    ];
    let constants = vec![
        rec(1, &[0]),
        rec(4, &[0]),  // 3: i32 0
        rec(4, &[10]), // 4: i32 5
        rec(4, &[3]),  // 5: i32 -1
        rec(1, &[1]),
        rec(6, &[0x3F80_0000]), // 6: float 1.0
        rec(1, &[7]),
        rec(20, &[5, 6, 0, 0, 3, 0, 4]), // 7: gep inbounds ([4 x i32], @g, i32 0, i32 5)
        rec(1, &[5]),
        rec(7, &[3, 4, 5, 9]), // 8: [0, 5, -1, 7], the 7 defined after it
        rec(1, &[0]),
        rec(4, &[14]), // 9: i32 7
    ];
    // METADATA_STRINGS: two strings, lengths 2 and 4 as VBR6 in the first two bytes.
    let strings = Item::Record(Record { code: 35, ops: vec![2, 2], blob: Some(b"\x02\x01dxmain".to_vec()) });
    let metadata = vec![
        strings,
        rec(2, &[0, 4]),    // !2 = i32 5
        rec(3, &[1, 3, 0]), // !3 = !{!"dx", i32 5, null}
        named(4, &[], "n"),
        rec(10, &[3]),
    ];
    let module = Block {
        id: MODULE_BLOCK,
        items: vec![
            rec(1, &[1]),
            blk(TYPE_BLOCK_NEW, types),
            named(2, &[], "dxil-ms-dx"),
            rec(7, &[5, 2 | 3 << 2, 0, 0, 3]), // @g = addrspace(3) global [4 x i32]
            rec(8, &[3, 0, 0, 0, 0]),          // @main
            rec(8, &[9, 0, 1, 0, 0]),          // declare @helper
            blk(CONSTANTS_BLOCK, constants),
            blk(METADATA_BLOCK, metadata),
            blk(VALUE_SYMTAB_BLOCK, vec![named(1, &[0], "g"), named(1, &[1], "main"), named(1, &[2], "helper")]),
            blk(FUNCTION_BLOCK, body),
        ],
    };
    vec![module]
}

#[test]
fn hand_built_module_resolves_relative_and_forward_operands() {
    let m = Module::parse(&hand_built(hand_built_body())).unwrap();
    let f = m.function("main").unwrap();
    assert_eq!(f.first_local, 10);
    let expected = "\
define void @main(i32 %a) {
  %0 = alloca i32, i32 5, align 4
  %1 = add nsw i32 %a, 5
  %2 = call i32 @helper(i32 %1)
  %3 = mul i32 %7, %2
  %4 = icmp slt i32 %3, %a
  br i1 %4, label %5, label %10

5:
  %6 = phi i32 [ %1, %entry ], [ %7, %5 ]
  %7 = select i1 %4, i32 %6, i32 %a
  store i32 %7, i32 addrspace(3)* getelementptr inbounds ([4 x i32], [4 x i32] addrspace(3)* @g, i32 0, i32 5), align 4
  %8 = getelementptr inbounds [4 x i32], [4 x i32] addrspace(3)* @g, i32 0, i32 %7
  %9 = load i32, i32 addrspace(3)* %8, align 4
  store i32 %3, i32* %0, align 4
  br label %10

10:
  %11 = insertvalue [4 x i32] [i32 0, i32 5, i32 -1, i32 7], i32 %9, 2
  %12 = extractvalue [4 x i32] %11, 2
  switch i32 %12, label %10 [ i32 5, label %5 ]
}
";
    assert_eq!(m.function_text(f), expected);
    let text = m.to_string();
    assert!(text.contains("@g = addrspace(3) global [4 x i32]\n"), "{text}");
    assert!(text.contains("declare i32 @helper(i32)\n"), "{text}");
    assert!(text.contains("!n = !{!3}\n!3 = !{!\"dx\", i32 5, null}\n"), "{text}");
    assert_eq!(m.globals[0].addr_space, 3);
    assert_eq!(m.globals[0].align, 4);
    assert_eq!(m.types.name(m.values[0].ty), "[4 x i32] addrspace(3)*");
    assert_eq!(m.metadata.string(1), Some("main"));
    // The float constant keeps its bits.
    assert_eq!(m.values[6].kind, ValueKind::Const(Const::Float(0x3F80_0000)));
}

#[test]
fn hand_built_module_survives_the_bitstream_round_trip() {
    let tree = hand_built(hand_built_body());
    let mut w = bitstream::tests::Writer::bitcode();
    bitstream::tests::write_tree(&mut w, 2, &tree[0]);
    // The metadata strings' blob comes back through the abbreviation written for it.
    let back = bitstream::parse(&w.bytes).unwrap();
    assert_eq!(back[0], tree[0]);
}

#[test]
fn malformed_bodies_are_errors() {
    let with = |edit: &dyn Fn(&mut Vec<Item>)| {
        let mut body = hand_built_body();
        edit(&mut body);
        Module::parse(&hand_built(body))
    };
    assert!(with(&|_| {}).is_ok());
    // The last block loses its terminator.
    assert_eq!(
        with(&|b| {
            b.remove(16);
        }),
        Err(DxilError::Malformed("function body", "a block does not end in a terminator"))
    );
    // A forward reference past the last value.
    assert_eq!(
        with(&|b| b[4] = rec(2, &[(14u32.wrapping_sub(40)) as u64, 0, 1, 2, 0])),
        Err(DxilError::Malformed("function body", "operand id out of range"))
    );
    // A branch to a block that was not declared.
    assert_eq!(
        with(&|b| b[13] = rec(11, &[7])),
        Err(DxilError::Malformed("function body", "branch target out of range"))
    );
    // invoke (13) has no place in DXIL.
    assert_eq!(with(&|b| b[13] = rec(13, &[0])), Err(DxilError::Unsupported("instruction code", 13)));
    // A forward reference whose declared type (float) is not the value's (i32).
    assert_eq!(
        with(&|b| b[4] = rec(2, &[(14u32.wrapping_sub(17)) as u64, 1, 1, 2, 0])),
        Err(DxilError::Malformed("function body", "binary operand types differ"))
    );
    // select i1 %15, i32 %16, i1 %15
    assert_eq!(
        with(&|b| b[8] = rec(29, &[1, 2, 2])),
        Err(DxilError::Malformed("function body", "select operand types differ"))
    );
    // A call passing the alloca's i32* %11 for the i32 parameter.
    assert_eq!(
        with(&|b| b[3] = rec(34, &[0, 1 << 15, 9, 11, 2])),
        Err(DxilError::Malformed("function body", "argument type differs from the parameter"))
    );
    // An operand before any value exists.
    assert!(with(&|b| b[2] = rec(2, &[40, 8, 0, 2])).is_err());
}

#[test]
fn constant_cycles_are_errors() {
    // A body of only function-local constants (ids 11 and 12, after %a) and `ret void`.
    let body = |second: &[u64]| {
        vec![
            rec(1, &[1]),
            blk(CONSTANTS_BLOCK, vec![rec(1, &[5]), rec(7, &[3, 12, 4, 5]), rec(7, second)]),
            rec(10, &[]),
        ]
    };
    // 11 = [0, %12, 5, -1] and 12 = [%11, ...]: a cycle, which valid IR cannot have.
    assert_eq!(
        Module::parse(&hand_built(body(&[11, 3, 3, 3]))),
        Err(DxilError::Malformed("constants", "a constant refers to itself"))
    );
    // Without the back edge the same constants are fine.
    let m = Module::parse(&hand_built(body(&[3, 3, 3, 3]))).unwrap();
    let f = m.function("main").unwrap();
    assert_eq!(f.values.len(), 3);
    assert_eq!(m.function_text(f), "define void @main(i32 %0) {\n  ret void\n}\n");
}

/// The `i32 0` of a struct field index may be a null constant (CST_CODE_NULL), as in DXC's
/// mesh shader of the corpus, whose payload GEPs
/// (`getelementptr %struct.Payload.0, %struct.Payload.0* %3, i32 0, i32 0, i32 %1, i32 0`)
/// read, each GEP's result the pointer to the field the indices name.
#[test]
fn a_null_struct_index_is_field_zero() {
    let bytes = include_bytes!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/dxil/dxc/mesh_pipeline.MSMain.ms.dxil"
    ));
    let m = parse(bytes).unwrap().module;
    let f = m.functions.iter().find(|f| !f.declaration).unwrap();
    let mut float_ptrs = 0;
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        if let InstKind::Gep { indices, .. } = &inst.kind {
            let null = indices
                .iter()
                .any(|&i| matches!(m.value(Some(f), i).map(|v| &v.kind), Some(ValueKind::Const(Const::Null))));
            let ty = m.types.pointee(inst.ty).map(|(t, _)| m.types.at(t).clone());
            if null {
                // Every GEP through the payload ends at one of its floats.
                assert_eq!(ty, Some(Type::Float), "{:?}", inst.kind);
                float_ptrs += 1;
            }
        }
    }
    // color[i].x, .y and .z (field 0 of the payload) at least.
    assert!(float_ptrs >= 3, "{float_ptrs}");
}
