//! The one DXIL fixture that no compiler at hand produces: `twoouts.cs.dxil`, a compute shader
//! calling `dx.op.binaryWithTwoOuts.i32` with IMul (41), UMul (42) and UDiv (43), as
//! Microsoft's DXBC-to-DXIL converter writes for DXBC's imul, umul and udiv (DXC never emits
//! them for HLSL: `*` and `/` become LLVM `mul` and `udiv`).
//!
//! It is DXC's `adduint64.cs.dxil` (the corpus' `alu/adduint64`, whose `UAddc` has the same
//! class shape) edited: the result struct `%dx.types.i32c = { i32, i1 }` becomes
//! `%dx.types.twoi32 = { i32, i32 }`, the declaration is renamed
//! `dx.op.binaryWithTwoOuts.i32`, and `main` gets a new body (see [`body`]). Signatures,
//! PSV0, resources and metadata stay DXC's. The container is unsigned (digest zero, no HASH
//! part): no validator has seen the edit. [`generated_fixture_is_committed`] keeps the
//! committed file equal to what this code writes; set `RD3D12_WRITE_FIXTURES=1` to rewrite it.

use super::bitstream::tests::{write_tree, Writer};
use super::bitstream::{self, Block, Item, Record};
use super::module::{CONSTANTS_BLOCK, FUNCTION_BLOCK, TYPE_BLOCK_NEW, VALUE_SYMTAB_BLOCK};
use super::{Module, Type, TypeId};
use rd3d12_core::dxbc::{self, Container};

const BASE: &[u8] = include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/adduint64.cs.dxil"));
const PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/dxil/twoouts.cs.dxil");

/// The multiplier of the first operand: `a = i * A` (wrapping), `b = i - 3`.
pub(crate) const A: u32 = 0x9E37_79B1;

fn rec(code: u32, ops: &[u64]) -> Item {
    Item::Record(Record { code, ops: ops.to_vec(), blob: None })
}

fn chars(s: &str) -> impl Iterator<Item = u64> + '_ {
    s.bytes().map(u64::from)
}

/// `main`'s new body. Thread `i` (SV_DispatchThreadID.x) computes `a = i * A`, `b = i - 3`
/// and stores six words at byte `24 i` of `u0`: IMul(a, b) elements 0 and 1, UMul(a, b)
/// elements 0 and 1 (one bufferStore, mask 0xF), then UDiv(a, b) elements 0 and 1 (a second,
/// mask 0x3, at `24 i + 16`).
fn body(m: &Module) -> Vec<Item> {
    let ty = |t: Type| m.types.find(&t).unwrap_or_else(|| panic!("{t:?} in the type table")).0 as u64;
    let (i32t, i8t, i1t) = (ty(Type::Int(32)), ty(Type::Int(8)), ty(Type::Int(1)));
    let func = |name: &str| m.function(name).unwrap_or_else(|| panic!("{name}"));
    let (create, tid, two, store) = (
        func("dx.op.createHandle"),
        func("dx.op.threadId.i32"),
        func("dx.op.binaryWithCarryOrBorrow.i32"),
        func("dx.op.bufferStore.i32"),
    );
    // Function-local constants, after the module's values (main has no arguments).
    let first = m.values.len() as u64;
    let i32s: [i64; 10] = [57, 0, 93, 41, 42, 43, 69, 24, 16, A as i32 as i64];
    let k = |v: i64| first + i32s.iter().position(|c| *c == v).unwrap() as u64;
    let signed = |v: i64| if v < 0 { ((-v as u64) << 1) | 1 } else { (v as u64) << 1 };
    let three = first + 10;
    let undef = first + 11;
    let (i8_1, i8_15, i8_3, i1_false) = (first + 12, first + 13, first + 14, first + 15);
    let mut consts = vec![rec(1, &[i32t])];
    consts.extend(i32s.iter().map(|&v| rec(4, &[signed(v)])));
    consts.extend([rec(4, &[signed(3)]), rec(3, &[])]);
    consts.extend([rec(1, &[i8t]), rec(4, &[2]), rec(4, &[30]), rec(4, &[6]), rec(1, &[i1t]), rec(2, &[])]);
    // Instructions: `next` is the id the next value-producing one gets; operands are relative.
    let mut next = first + 16;
    let mut items = vec![rec(1, &[1]), Item::Block(Block { id: CONSTANTS_BLOCK, items: consts })];
    let call = |items: &mut Vec<Item>, next: &mut u64, f: &super::Function, args: &[u64], value: bool| {
        let mut ops = vec![0, 1 << 15, f.ty.0 as u64, *next - f.value.0 as u64];
        ops.extend(args.iter().map(|a| *next - a));
        items.push(rec(34, &ops));
        if value {
            *next += 1;
        }
        *next - 1
    };
    let h = call(&mut items, &mut next, create, &[k(57), i8_1, k(0), k(0), i1_false], true);
    let i = call(&mut items, &mut next, tid, &[k(93), k(0)], true);
    let binop = |items: &mut Vec<Item>, next: &mut u64, a: u64, b: u64, op: u64| {
        items.push(rec(2, &[*next - a, *next - b, op]));
        *next += 1;
        *next - 1
    };
    let a = binop(&mut items, &mut next, i, k(A as i32 as i64), 2);
    let b = binop(&mut items, &mut next, i, three, 1);
    let mut words = Vec::new();
    for op in [41, 42, 43] {
        let r = call(&mut items, &mut next, two, &[k(op), a, b], true);
        for e in 0..2 {
            items.push(rec(26, &[next - r, e]));
            next += 1;
            words.push(next - 1);
        }
    }
    let at = binop(&mut items, &mut next, i, k(24), 2);
    let [w0, w1, w2, w3, w4, w5] = words[..] else { unreachable!() };
    call(&mut items, &mut next, store, &[k(69), h, at, undef, w0, w1, w2, w3, i8_15], false);
    let at2 = binop(&mut items, &mut next, at, k(16), 0);
    call(&mut items, &mut next, store, &[k(69), h, at2, undef, w4, w5, undef, undef, i8_3], false);
    items.push(rec(10, &[]));
    items
}

/// The edited bitcode's module block.
fn edit(module: &mut Block, m: &Module) {
    let two = m.function("dx.op.binaryWithCarryOrBorrow.i32").expect("UAddc's declaration");
    let Some(Type::Function { ret, .. }) = m.types.get(two.ty) else { panic!("function type") };
    let (ret, i32t) = (*ret, m.types.find(&Type::Int(32)).expect("i32"));
    for item in module.items.iter_mut() {
        let Item::Block(b) = item else { continue };
        match b.id {
            TYPE_BLOCK_NEW => {
                // Type ids count the records that define a type (not NUMENTRY, STRUCT_NAME).
                let mut id = 0u32;
                for k in 0..b.items.len() {
                    let Item::Record(r) = &b.items[k] else { continue };
                    if matches!(r.code, 1 | 19) {
                        continue;
                    }
                    if TypeId(id) == ret {
                        let Item::Record(name) = &mut b.items[k - 1] else { panic!("struct name") };
                        name.ops = chars("dx.types.twoi32").collect();
                        let Item::Record(r) = &mut b.items[k] else { unreachable!() };
                        r.ops = vec![0, u64::from(i32t.0), u64::from(i32t.0)];
                    }
                    id += 1;
                }
            }
            VALUE_SYMTAB_BLOCK => {
                for r in b.items.iter_mut().filter_map(|i| if let Item::Record(r) = i { Some(r) } else { None }) {
                    if r.ops.first() == Some(&u64::from(two.value.0)) {
                        let keep = if r.code == 3 { 2 } else { 1 };
                        r.ops.truncate(keep);
                        r.ops.extend(chars("dx.op.binaryWithTwoOuts.i32"));
                    }
                }
            }
            FUNCTION_BLOCK => b.items = body(m),
            _ => {}
        }
    }
}

/// The fixture's bytes.
pub(crate) fn two_outs_container() -> Vec<u8> {
    let bc = super::bitcode(BASE).expect("base bitcode");
    let mut tree = bitstream::parse(bc).expect("base bitstream");
    let m = Module::parse(&tree).expect("base module");
    edit(&mut tree[0], &m);
    let mut w = Writer::bitcode();
    for b in &tree {
        write_tree(&mut w, 2, b);
    }
    let c = Container::parse_unverified(BASE).expect("base container");
    let part = c.part(*b"DXIL").expect("DXIL part");
    // The program header: version, size in words, "DXIL", DXIL version, bitcode offset, size.
    let mut program = part[..24].to_vec();
    program[4..8].copy_from_slice(&(((24 + w.bytes.len()) / 4) as u32).to_le_bytes());
    program[20..24].copy_from_slice(&(w.bytes.len() as u32).to_le_bytes());
    program.extend_from_slice(&w.bytes);
    let parts: Vec<([u8; 4], &[u8])> = c
        .parts
        .iter()
        .filter(|p| &p.fourcc != b"HASH")
        .map(|p| (p.fourcc, if &p.fourcc == b"DXIL" { &program[..] } else { p.data }))
        .collect();
    let mut out = dxbc::build(&parts);
    out[4..20].fill(0);
    out
}

#[test]
fn generated_fixture_is_committed() {
    let bytes = two_outs_container();
    if std::env::var_os("RD3D12_WRITE_FIXTURES").is_some() {
        std::fs::write(PATH, &bytes).expect("write the fixture");
    }
    let committed = std::fs::read(PATH).expect("twoouts.cs.dxil is committed");
    assert!(committed == bytes, "twoouts.cs.dxil differs from what fixture_gen writes");
    // It reads, and its text is the intended program.
    let p = super::parse(&bytes).expect("parses");
    let text = p.module.function_text(p.module.function("main").unwrap());
    let mut want = String::from(
        "define void @main() {
  %1 = call %dx.types.Handle @dx.op.createHandle(i32 57, i8 1, i32 0, i32 0, i1 false)
  %2 = call i32 @dx.op.threadId.i32(i32 93, i32 0)
  %3 = mul i32 %2, -1640531535
  %4 = sub i32 %2, 3
",
    );
    for (k, op) in [41, 42, 43].into_iter().enumerate() {
        let r = 5 + 3 * k;
        want += &format!(
            "  %{r} = call %dx.types.twoi32 @dx.op.binaryWithTwoOuts.i32(i32 {op}, i32 %3, i32 %4)
  %{} = extractvalue %dx.types.twoi32 %{r}, 0
  %{} = extractvalue %dx.types.twoi32 %{r}, 1
",
            r + 1,
            r + 2
        );
    }
    want += "  %14 = mul i32 %2, 24
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %14, i32 undef, i32 %6, i32 %7, i32 %9, i32 %10, i8 15)
  %15 = add i32 %14, 16
  call void @dx.op.bufferStore.i32(i32 69, %dx.types.Handle %1, i32 %15, i32 undef, i32 %12, i32 %13, i32 undef, i32 undef, i8 3)
  ret void
}
";
    assert_eq!(text, want);
    assert_eq!(rd3d12_core::shader::parse(&bytes).unwrap().checksum, rd3d12_core::shader::Checksum::Unsigned);
}
