//! DXC's texture loads and UAV texture loads and stores of the corpus's `resources/` group
//! (copies in `tests/fixtures/dxil/dxc`): mips, immediate offsets, operator[], 2-D, 3-D and
//! array UAVs, each dispatched through [`rd3d12_swgpu::compute::dispatch`] over textures of
//! 32-bit lanes (the formats' conversions are the runtime's, not the shaders'), the outputs
//! compared with the HLSL headers' formulas.

use rd3d12_shader::dxil;
use rd3d12_swgpu::compute::dispatch;
use rd3d12_swgpu::draw::{Bindings, Class};
use std::collections::HashMap;
use std::sync::Mutex;

/// A texture of four 32-bit lanes per texel: mip m is (w >> m) x (h >> m) x d (d: depth or
/// slices, not halved for arrays), texel (x, y, z) of mip m at `texels[m][(z * h + y) * w + x]`.
struct Tex {
    size: [u32; 3],
    array: bool,
    texels: Vec<Vec<[u32; 4]>>,
}

impl Tex {
    fn new(size: [u32; 3], mips: u32, array: bool, f: impl Fn(u32, [u32; 3]) -> [u32; 4]) -> Tex {
        let mut texels = Vec::new();
        for m in 0..mips {
            let [w, h, d] = Tex::dims(size, array, m);
            texels.push((0..w * h * d).map(|i| f(m, [i % w, (i / w) % h, i / (w * h)])).collect());
        }
        Tex { size, array, texels }
    }

    fn dims(size: [u32; 3], array: bool, m: u32) -> [u32; 3] {
        let d = if array { size[2] } else { (size[2] >> m).max(1) };
        [(size[0] >> m).max(1), (size[1] >> m).max(1), d]
    }

    /// The texel at `c` of mip `m`; `None` out of range.
    fn at(&self, m: u32, c: [i32; 3]) -> Option<usize> {
        let [w, h, d] = Tex::dims(self.size, self.array, m);
        let inside = |v: i32, n: u32| v >= 0 && (v as u32) < n;
        (inside(c[0], w) && inside(c[1], h) && inside(c[2], d) && (m as usize) < self.texels.len())
            .then(|| ((c[2] as u32 * h + c[1] as u32) * w + c[0] as u32) as usize)
    }
}

/// Textures by (class, register), and u0 as a structured buffer of words when it is one.
#[derive(Default)]
struct Textures {
    tex: HashMap<(Class, u32), Mutex<Tex>>,
    out: Mutex<Vec<u32>>,
}

impl Bindings for Textures {
    fn texture_load(&self, class: Class, t: (u32, u32), mip: u32, c: [i32; 3]) -> [u32; 4] {
        let tex = self.tex[&(class, t.1)].lock().unwrap();
        tex.at(mip, c).map_or([0; 4], |i| tex.texels[mip as usize][i])
    }
    fn texture_store(&self, u: (u32, u32), c: [i32; 3], value: [u32; 4], mask: u8) {
        let mut tex = self.tex[&(Class::Uav, u.1)].lock().unwrap();
        if let Some(i) = tex.at(0, c) {
            for (k, v) in value.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    tex.texels[0][i][k] = *v;
                }
            }
        }
    }
    fn buffer_store(&self, _u: (u32, u32), stride: u32, index: u32, offset: u32, value: [u32; 4], mask: u8) {
        let at = (index * stride + offset) as usize / 4;
        let mut out = self.out.lock().unwrap();
        for (k, v) in value.iter().enumerate() {
            if mask & (1 << k) != 0 {
                out[at + k] = *v;
            }
        }
    }
}

fn run(name: &str, groups: [u32; 3], b: &Textures) {
    let path = format!("{}/../../tests/fixtures/dxil/dxc/{name}.cs.dxil", env!("CARGO_MANIFEST_DIR"));
    let p = dxil::parse(&std::fs::read(&path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"));
    dxil::support::check(&p.module).unwrap_or_else(|e| panic!("{name}: {e}"));
    dispatch(&p, &p.dx.entry_points[0], groups, b).unwrap_or_else(|e| panic!("{name}: {e:?}"));
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn fv(v: [f32; 4]) -> [u32; 4] {
    v.map(f)
}

/// Texture2D.Load from mips 0 and 1, with an immediate offset (1, -1) (out of range reads 0),
/// and operator[]; mip 0 texel (x, y) = (x, y, 0, 1), mip 1's = (x + 100, y + 100, 1, 1).
#[test]
fn texture2d_load() {
    let tex = Tex::new([8, 8, 1], 2, false, |m, [x, y, _]| match m {
        0 => fv([x as f32, y as f32, 0.0, 1.0]),
        _ => fv([x as f32 + 100.0, y as f32 + 100.0, 1.0, 1.0]),
    });
    let b = Textures { tex: [((Class::Srv, 0), Mutex::new(tex))].into(), out: Mutex::new(vec![0xDEAD; 1024]) };
    run("texture2d_load", [1, 1, 1], &b);
    let out = b.out.into_inner().unwrap();
    for (x, y) in (0..8).flat_map(|y| (0..8).map(move |x| (x, y))) {
        let k = (y * 8 + x) as usize;
        let (xf, yf) = (x as f32, y as f32);
        let offset = if x == 7 || y == 0 { [0.0; 4] } else { [xf + 1.0, yf - 1.0, 0.0, 1.0] };
        let want = [
            fv([xf, yf, 0.0, 1.0]),
            fv([(x / 2) as f32 + 100.0, (y / 2) as f32 + 100.0, 1.0, 1.0]),
            fv(offset),
            fv([7.0 - xf, yf, 0.0, 1.0]),
        ]
        .concat();
        assert_eq!(out[16 * k..][..16], want[..], "thread ({x}, {y})");
    }
}

/// RWTexture2D<uint> read-modify-write (Img = 2 old + x, old = 16y + x) and RWTexture2D<float4>
/// stores of (x / 16, y / 16, old, 1) over 2x2 groups of 8x8.
#[test]
fn rwtexture2d() {
    let img = Tex::new([16, 16, 1], 1, false, |_, [x, y, _]| [16 * y + x; 4]);
    let col = Tex::new([16, 16, 1], 1, false, |_, _| [0xDEAD; 4]);
    let b = Textures {
        tex: [((Class::Uav, 0), Mutex::new(img)), ((Class::Uav, 1), Mutex::new(col))].into(),
        out: Mutex::new(Vec::new()),
    };
    run("rwtexture2d", [2, 2, 1], &b);
    let img = b.tex[&(Class::Uav, 0)].lock().unwrap();
    let col = b.tex[&(Class::Uav, 1)].lock().unwrap();
    for (x, y) in (0..16u32).flat_map(|y| (0..16).map(move |x| (x, y))) {
        let i = (16 * y + x) as usize;
        assert_eq!(img.texels[0][i], [32 * y + 3 * x; 4], "Img[{x}, {y}]");
        assert_eq!(col.texels[0][i], fv([x as f32 / 16.0, y as f32 / 16.0, (16 * y + x) as f32, 1.0]), "Col[{x}, {y}]");
    }
}

/// RWTexture3D stores, and a mirror-texel read of RWTexture3D<uint2> before a group barrier:
/// Cnt[x, y, z] = (8, (3 - x) + 4y + 16z) from (x + 4y + 16z, 7).
#[test]
fn rwtexture3d() {
    let vol = Tex::new([4, 4, 4], 1, false, |_, _| [0xDEAD; 4]);
    let cnt = Tex::new([4, 4, 4], 1, false, |_, [x, y, z]| [x + 4 * y + 16 * z, 7, 0, 0]);
    let b = Textures {
        tex: [((Class::Uav, 0), Mutex::new(vol)), ((Class::Uav, 1), Mutex::new(cnt))].into(),
        out: Mutex::new(Vec::new()),
    };
    run("rwtexture3d", [1, 1, 1], &b);
    let vol = b.tex[&(Class::Uav, 0)].lock().unwrap();
    let cnt = b.tex[&(Class::Uav, 1)].lock().unwrap();
    for i in 0..64u32 {
        let (x, y, z) = (i % 4, (i / 4) % 4, i / 16);
        assert_eq!(vol.texels[0][i as usize], fv([x as f32, y as f32, z as f32, (x + y + z) as f32]), "Vol {i}");
        assert_eq!(cnt.texels[0][i as usize][..2], [8, (3 - x) + 4 * y + 16 * z], "Cnt {i}");
    }
}

/// Texture2DArray<uint4>.Load of the mirrored texel and slice into RWTexture2DArray<uint4>:
/// Dst[x, y, s] = (3 - x, y, 2 - s, 0xABCD0000 + (2 - s) + 16 s).
#[test]
fn rwtexture2darray() {
    let src = Tex::new([4, 4, 3], 1, true, |_, [x, y, s]| [x, y, s, 0xABCD_0000 + s]);
    let dst = Tex::new([4, 4, 3], 1, true, |_, _| [0xDEAD; 4]);
    let b = Textures {
        tex: [((Class::Srv, 0), Mutex::new(src)), ((Class::Uav, 0), Mutex::new(dst))].into(),
        out: Mutex::new(Vec::new()),
    };
    run("rwtexture2darray", [1, 1, 1], &b);
    let dst = b.tex[&(Class::Uav, 0)].lock().unwrap();
    for i in 0..48u32 {
        let (x, y, s) = (i % 4, (i / 4) % 4, i / 16);
        assert_eq!(dst.texels[0][i as usize], [3 - x, y, 2 - s, 0xABCD_0000 + (2 - s) + 16 * s], "Dst {i}");
    }
}

/// A horizontal 5-tap (1 4 6 4 1) / 16 blur of a 64x8 image through a groupshared row with a
/// clamped 2-texel apron, one group per row: texel (x, y) = (x, y, x & 1, 1).
#[test]
fn image_blur() {
    let src = Tex::new([64, 8, 1], 1, false, |_, [x, y, _]| fv([x as f32, y as f32, (x & 1) as f32, 1.0]));
    let dst = Tex::new([64, 8, 1], 1, false, |_, _| [0xDEAD; 4]);
    let b = Textures {
        tex: [((Class::Srv, 0), Mutex::new(src)), ((Class::Uav, 0), Mutex::new(dst))].into(),
        out: Mutex::new(Vec::new()),
    };
    run("image_blur", [1, 8, 1], &b);
    let dst = b.tex[&(Class::Uav, 0)].lock().unwrap();
    let weights = [1.0, 4.0, 6.0, 4.0, 1.0].map(|w: f32| w / 16.0);
    for (x, y) in (0..8i32).flat_map(|y| (0..64).map(move |x| (x, y))) {
        let texel = |d: i32| {
            let sx = (x + d).clamp(0, 63);
            [sx as f32, y as f32, (sx & 1) as f32, 1.0]
        };
        let want: [f32; 4] = std::array::from_fn(|c| (0..5).map(|k| weights[k] * texel(k as i32 - 2)[c]).sum());
        assert_eq!(dst.texels[0][(64 * y + x) as usize], fv(want), "Dst[{x}, {y}]");
    }
    assert_eq!(dst.texels[0][0][0], f(0.375));
    assert_eq!(dst.texels[0][63][2], f(0.75));
}
