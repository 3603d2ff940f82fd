//! DXC's buffer and constant-buffer shaders of the corpus's `resources/` group (copies in
//! `tests/fixtures/dxil/dxc`): raw loads and stores of 1 to 4 words and of templated types,
//! structured buffers of structs and of float3, cbuffer packing and dynamic indexing, the
//! Interlocked* family on a raw buffer; each dispatched through
//! [`rd3d12_swgpu::compute::dispatch`] with the buffers its HLSL header describes, its output
//! compared with the header's formulas evaluated here.

mod common;

use common::{floats, run, Mem};
use rd3d12_swgpu::draw::Class;

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// Load / Load2 / Load3 / Load4 plus i, stored with Store / Store2 / Store3 / Store4: the
/// shader model 6.0 build (BufferLoad / BufferStore) and the 6.2 one (RawBufferLoad / Store).
#[test]
fn bab_load_store() {
    for name in ["bab_load_store", "bab_load_store_sm62"] {
        let mut mem = Mem::default().with(Class::Srv, 0, (0..128).map(|k| 0x1000 + k).collect()).with(
            Class::Uav,
            0,
            vec![0xDEAD; 160],
        );
        run(name, [1, 1, 1], &mem);
        let out = mem.take(Class::Uav, 0);
        for i in 0..16u32 {
            let mut want = vec![0x1000 + 2 * i];
            for n in 2..=4 {
                want.extend((0..n).map(|k| 0x1000 + n * i + k + i));
            }
            assert_eq!(out[10 * i as usize..][..10], want[..], "{name}, thread {i}");
        }
        assert_eq!(out[10..20], [0x1002, 0x1003, 0x1004, 0x1004, 0x1005, 0x1006, 0x1005, 0x1006, 0x1007, 0x1008]);
    }
}

/// Load<T> / Store<T> of float, float3, a 16-byte struct and uint2 at 4-byte aligned offsets
/// of In[k] = float(k); bytes 40..63 of each thread's 64 untouched.
#[test]
fn bab_templated() {
    let mut mem = Mem::default().with(Class::Srv, 0, floats(256, |k| k as f32)).with(Class::Uav, 0, vec![0xDEAD; 256]);
    run("bab_templated", [1, 1, 1], &mem);
    let out = mem.take(Class::Uav, 0);
    for i in 0..16u32 {
        let x = i as f32;
        // float @0, float3 @4, Rec @16, uint2 @32, bytes 40..63 untouched.
        let mut want = vec![f(2.0 * x), f(x + 1.5), f(x + 2.5), f(x + 3.5)];
        want.extend([f(-4.0 * x), f(-(4.0 * x + 1.0)), !f(4.0 * x + 2.0), f(4.0 * x + 4.0)]);
        want.extend([f(2.0 * x), f(2.0 * x + 1.0)]);
        want.extend([0xDEAD; 6]);
        assert_eq!(out[16 * i as usize..][..16], want[..], "thread {i}");
    }
}

/// StructuredBuffer<Particle> (stride 32: pos, mass, ids, vel) updated with dt = 2.
#[test]
fn structured_struct() {
    let input: Vec<u32> = (0..32u32)
        .flat_map(|k| {
            let x = k as f32;
            [f(x), f(2.0 * x), f(3.0 * x), f(1.0 + x), k, 1000 + k, f(0.5), f(-1.0)]
        })
        .collect();
    let mut mem = Mem::default().with(Class::Srv, 0, input).with(Class::Uav, 0, vec![0xDEAD; 256]);
    run("structured_struct", [1, 1, 1], &mem);
    let out = mem.take(Class::Uav, 0);
    for i in 0..32u32 {
        let x = i as f32;
        let want = [f(x + 1.0), f(2.0 * x - 2.0), f(3.0 * x + 1.0), f(2.0 + 2.0 * x), 1000 + i, i, f(0.5), f(-1.0)];
        assert_eq!(out[8 * i as usize..][..8], want, "Out[{i}]");
    }
}

/// float3 structured buffers (stride 12) with a one-field store after the whole element, and
/// a uint buffer (stride 4).
#[test]
fn structured_scalar_stride() {
    let input: Vec<u32> = (0..64u32).flat_map(|k| [f(k as f32), f(k as f32 + 0.5), f(-(k as f32))]).collect();
    let mut mem = Mem::default().with(Class::Srv, 0, input).with(Class::Uav, 0, vec![0xDEAD; 192]).with(
        Class::Uav,
        1,
        vec![0xDEAD; 64],
    );
    run("structured_scalar_stride", [1, 1, 1], &mem);
    let (out, bits) = (mem.take(Class::Uav, 0), mem.take(Class::Uav, 1));
    for i in 0..64u32 {
        let x = i as f32;
        assert_eq!(out[3 * i as usize..][..3], [f(-x * x), f(7.0), f(x * x)], "Out[{i}]");
        assert_eq!(bits[i as usize], f(63.5 - x), "Bits[{i}]");
    }
}

/// Every member of a cbuffer laid out by HLSL's packing rules copied bit for bit (cbuffer word
/// k = 0x1000 + k): which words each member occupies.
#[test]
fn cbuffer_packing() {
    let mut mem = Mem::default().cb((0..44).map(|k| 0x1000 + k).collect()).with(Class::Uav, 0, vec![0xDEAD; 32]);
    run("cbuffer_packing", [1, 1, 1], &mem);
    let words = [0, 1, 2, 3, 4, 8, 12, 13, 14, 15, 17, 21, 25, 29, 30, 32, 33, 34, 36, 37, 38, 39, 40];
    let mut want: Vec<u32> = words.iter().map(|w| 0x1000 + w).collect();
    want.resize(32, 0xDEAD);
    assert_eq!(mem.take(Class::Uav, 0), want);
}

/// Dynamically indexed cbuffer arrays: rows[k] = (k, 10k, 100k, 1000k), scale[k] = k + 1 (one
/// register each), Extra = { (3, 5), 0.5 } in b1; Out[i] = rows[k] * (8 - k) * 0.5 + 5 with
/// k = (3i + 3) & 7.
#[test]
fn cbuffer_dynamic_index() {
    let mut table: Vec<u32> = (0..8u32).flat_map(|k| [k, 10 * k, 100 * k, 1000 * k].map(|x| f(x as f32))).collect();
    table.extend((0..8u32).flat_map(|k| [k + 1, 0, 0, 0]));
    let mut mem = Mem::default().cb(table).cb_at(1, vec![3, 5, f(0.5), 0]).with(Class::Uav, 0, vec![0xDEAD; 128]);
    run("cbuffer_dynamic_index", [1, 1, 1], &mem);
    let out = mem.take(Class::Uav, 0);
    for i in 0..32u32 {
        let k = (i * 3 + 3) & 7;
        let want = [1, 10, 100, 1000].map(|m| f((m * k) as f32 * (8 - k) as f32 * 0.5 + 5.0));
        assert_eq!(out[4 * i as usize..][..4], want, "Out[{i}]");
    }
    assert_eq!(out[..4], [12.5f32, 80.0, 755.0, 7505.0].map(f));
}

/// Every Interlocked* on a raw buffer by 64 threads (v = i + 1): the order-independent finals,
/// and the ranges and sums of the order-dependent ones.
#[test]
fn interlocked_bab() {
    let mut init = vec![0u32; 16];
    init[1] = u32::MAX;
    init[3] = u32::MAX;
    init[11] = 1000;
    let mut mem = Mem::default().with(Class::Uav, 0, init);
    run("interlocked_bab", [1, 1, 1], &mem);
    let w = mem.take(Class::Uav, 0);
    assert_eq!(w[..6], [2080, 1, 64, 0, u32::MAX, 0]);
    assert!((1..=64).contains(&w[6]), "w6 = {}", w[6]);
    assert_eq!(w[7], 1);
    assert!((1..=64).contains(&w[8]), "w8 = {}", w[8]);
    assert_eq!(w[9] + w[8], 2080);
    assert_eq!(w[10..13], [77, (-63i32) as u32, 0]);
}

/// Every barrier intrinsic around groupshared and UAV traffic: Out[i] = 3 ((i + 1) % 64) +
/// 3 ((i + 3) % 64), through sh[] and the scratch UAV Tmp.
#[test]
fn barriers() {
    let mut mem = Mem::default().with(Class::Uav, 0, vec![0xDEAD; 64]).with(Class::Uav, 1, vec![0xDEAD; 64]);
    run("barriers", [1, 1, 1], &mem);
    let want: Vec<u32> = (0..64).map(|i| 3 * ((i + 1) % 64) + 3 * ((i + 3) % 64)).collect();
    let out = mem.take(Class::Uav, 0);
    assert_eq!(out, want);
    assert_eq!((out[0], out[62], out[63]), (12, 192, 6));
    assert_eq!(mem.take(Class::Uav, 1), (0..64).map(|i| 3 * ((i + 1) % 64)).collect::<Vec<u32>>());
}

/// Resource arrays in register spaces: StructuredBuffer<uint> Bufs[4] at t0..t3 of space 1
/// (Bufs[n][k] = 100 n + k) indexed non-uniformly, a cbuffer in space 2 (sel = 2) choosing one
/// uniformly, RWByteAddressBuffer Outs[2] at u0..u1 of space 3 indexed non-uniformly.
#[test]
fn resource_arrays_spaces() {
    let mut mem = Mem::default().cb_in(2, 0, vec![2, 0, 0, 0]);
    for n in 0..4 {
        mem = mem.with_in(Class::Srv, 1, n, (0..16).map(|k| 100 * n + k).collect());
    }
    mem = mem.with_in(Class::Uav, 3, 0, vec![0xDEAD; 32]).with_in(Class::Uav, 3, 1, vec![0xDEAD; 32]);
    run("resource_arrays_spaces", [1, 1, 1], &mem);
    let outs = [mem.take_in(Class::Uav, 3, 0), mem.take_in(Class::Uav, 3, 1)];
    for i in 0..16u32 {
        let o = &outs[(i & 1) as usize];
        let at = ((i >> 1) * 2) as usize;
        assert_eq!(o[at..at + 2], [100 * (i & 3) + i, 200 + 15 - i], "thread {i}");
    }
}

/// IncrementCounter compacts the even i into List (each at the slot its increment returned)
/// and DecrementCounter hands every thread a distinct slot of Down.
#[test]
fn structured_counter() {
    let mut mem = Mem::default()
        .with(Class::Uav, 0, vec![0xDEAD; 128])
        .with(Class::Uav, 1, vec![0xDEAD; 64])
        .counter(0, 0, 0)
        .counter(0, 1, 64);
    run("structured_counter", [1, 1, 1], &mem);
    assert_eq!((mem.counter_now(0, 0), mem.counter_now(0, 1)), (32, 0));
    let list = mem.take(Class::Uav, 0);
    let mut evens: Vec<u32> = (0..32).map(|s| list[2 * s]).collect();
    assert!((0..32).all(|s| list[2 * s + 1] == s as u32), "{list:?}");
    evens.sort_unstable();
    assert_eq!(evens, (0..64).step_by(2).collect::<Vec<u32>>());
    assert_eq!(list[64..], [0xDEAD; 64]);
    let mut down = mem.take(Class::Uav, 1);
    down.sort_unstable();
    assert_eq!(down, (1000..1064).collect::<Vec<u32>>());
}

/// Consume from a full ConsumeStructuredBuffer (Src[k] = k, counter 64), Append (v, v * v) for
/// the odd v: the counters end at 0 and 32, Dst holding the 32 odd pairs in some order.
#[test]
fn append_consume() {
    let mut mem = Mem::default()
        .with(Class::Uav, 0, (0..64).collect())
        .with(Class::Uav, 1, vec![0xDEAD; 128])
        .counter(0, 0, 64)
        .counter(0, 1, 0);
    run("append_consume", [1, 1, 1], &mem);
    assert_eq!((mem.counter_now(0, 0), mem.counter_now(0, 1)), (0, 32));
    let dst = mem.take(Class::Uav, 1);
    let mut pairs: Vec<(u32, u32)> = (0..32).map(|s| (dst[2 * s], dst[2 * s + 1])).collect();
    pairs.sort_unstable();
    assert_eq!(pairs, (1..64).step_by(2).map(|v| (v, v * v)).collect::<Vec<_>>());
    assert_eq!(dst[64..], [0xDEAD; 64]);
}

/// Shader model 6.6's bitwise float atomics on a structured buffer, a raw buffer and groupshared
/// memory: +0.0 matches +0.0 but not -0.0, a NaN matches its own bits; InterlockedExchange of a
/// float; one of 64 compare-stores on the raw word wins.
#[test]
fn atomic_float_bitwise() {
    let f = |x: f32| x.to_bits();
    let mut mem = Mem::default()
        .with(Class::Uav, 0, vec![0, 0x8000_0000, 0x7FC0_0000, f(1.0)])
        .structured(0, 0, 4)
        .with(Class::Uav, 1, vec![f(2.0), 0, 0, 0])
        .with(Class::Uav, 2, vec![0xDEAD; 4]);
    run("atomic_float_bitwise", [1, 1, 1], &mem);
    assert_eq!(mem.take(Class::Uav, 0), [f(5.0), 0x8000_0000, f(7.0), f(8.0)]);
    let raw = f32::from_bits(mem.take(Class::Uav, 1)[0]);
    assert!((3.0..=66.0).contains(&raw) && raw.fract() == 0.0, "Raw word 0 = {raw}");
    assert_eq!(mem.take(Class::Uav, 2), [0x7FC0_0000, f(1.0), f(-1.5), f(1.5)]);
}
