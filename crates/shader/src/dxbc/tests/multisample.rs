//! `samplepos` and `sampleinfo` of a multisampled texture and of the rasterizer, with the
//! D3D11.3 standard sample patterns (spec §19.2.4; positions in 1/16 pixel from the center).

use super::*;
use rd3d12_core::shader::{system_element, SemanticKind};

/// A pixel: `t#` is an 8x8 texture of 8 samples, the render targets have 4 (the standard
/// pattern's positions answered from the table); outputs logged as bits.
struct Ms {
    out: Vec<(u32, u8, u32)>,
}

impl Env for Ms {
    fn load_input(&mut self, _: u32, _: u32, _: u8, _: Option<u32>) -> R<Val> {
        Err(ExecError::Malformed("no inputs".into()))
    }
    fn store_output(&mut self, sig: u32, _: u32, col: u8, value: &Val) -> R<()> {
        let Val::F32(f) = value else { return Err(ExecError::Malformed(format!("{value:?}"))) };
        self.out.push((sig, col, f.to_bits()));
        Ok(())
    }
    no_resources!();
    fn dimensions(&mut self, _: u32, _: u32) -> R<[u32; 4]> {
        Ok([8, 8, 1, 8])
    }
    fn sample_count(&mut self) -> R<u32> {
        Ok(4)
    }
    fn sample_position(&mut self, index: u32) -> R<[f32; 2]> {
        let p = rd3d12_core::multisample::standard_sample_positions(4).unwrap();
        Ok(p.get(index as usize).map_or([0.0; 2], |&(x, y)| [f32::from(x) / 16.0, f32::from(y) / 16.0]))
    }
}

const MS: &str = "ps_4_1
dcl_resource_texture2dms (float,float,float,float) t0
dcl_output o0.xyzw
dcl_output o1.xyzw
dcl_output o2.xyzw
dcl_temps 1
samplepos r0.xy, t0.xyxx, l(3)
samplepos r0.zw, t0.xxxy, l(9)
mov o0.xyzw, r0.xyzw
sampleinfo_uint r0.x, t0.x
sampleinfo r0.y, rasterizer.x
sampleinfo r0.z, rasterizer.y
samplepos r0.w, rasterizer.y, l(1)
mov o1.xyzw, r0.xyzw
samplepos o2.xyzw, rasterizer.yxzw, l(2)
ret";

#[test]
fn sample_positions_and_counts_of_a_texture_and_the_rasterizer() {
    let outs: Vec<_> = (0..3).map(|k| system_element("SV_Target", k, k, SemanticKind::Target)).collect();
    let p = parse(&container(MS, &[], &outs, None).unwrap()).unwrap_or_else(|e| panic!("{e}"));
    for mode in [Mode::Interp, Mode::Jit] {
        let mut env = Ms { out: vec![] };
        let mut refs: Vec<&mut dyn Env> = vec![&mut env];
        crate::jit::with_mode(mode, || crate::interp::run_group(&p.module, &p.module.functions[0], &mut refs))
            .unwrap_or_else(|e| panic!("{e}"));
        drop(refs);
        let by = |sig: u32| -> Vec<u32> { env.out.iter().filter(|o| o.0 == sig).map(|o| o.2).collect() };
        // 8 samples, sample 3: (-3, -5) / 16; index 9 is past the count: (0, 0).
        assert_eq!(by(0), vec![f(-0.1875), f(-0.3125), 0, 0], "{mode:?}");
        // The texture's count as a uint; the rasterizer's (4) as a float, y of (4, 0, 0, 0)
        // 0; sample 1 of 4 at (6, -2) / 16, its y.
        assert_eq!(by(1), vec![8, f(4.0), 0, f(-0.125)], "{mode:?}");
        // Sample 2 of 4 at (-6, 2) / 16, swizzled .yxzw.
        assert_eq!(by(2), vec![f(0.125), f(-0.375), 0, 0], "{mode:?}");
    }
}

/// Only multisampled textures (what ld2dms loads) and the rasterizer answer the queries.
#[test]
fn multisample_queries_of_a_single_sampled_texture_are_refused() {
    for q in ["sampleinfo r0.x, t0.x", "samplepos r0.xy, t0.xyxx, l(0)"] {
        let text = format!("ps_4_1\ndcl_resource_texture2d (float,float,float,float) t0\ndcl_temps 1\n{q}\nret");
        let e = parse(&container(&text, &[], &[], None).unwrap()).unwrap_err();
        assert!(matches!(e, DxbcError::Lower(lower::LowerError::Malformed(_))), "{q}: {e}");
        assert!(e.to_string().contains("not a multisampled texture"), "{e}");
    }
}
