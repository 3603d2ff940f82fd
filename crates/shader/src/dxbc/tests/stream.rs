//! A shader model 5 geometry shader with two streams: the assembler writes OSG5, the decoder
//! reads each output element's stream, and the streams share the output registers.

use super::*;
use rd3d12_core::shader::{element, SignatureElement};

const STREAMS: &str = "gs_5_0
dcl_inputprimitive point
dcl_outputtopology pointlist
dcl_maxout 2
dcl_input v[1][0].xyzw
dcl_stream m0
dcl_output o0.xyzw
dcl_stream m1
dcl_output o0.xy
mov o0.xyzw, v[0][0].xyzw
emit_stream m0
mov o0.xy, l(7.0, 8.0, 0, 0)
emit_stream m1
ret";

#[test]
fn a_geometry_shaders_streams_share_its_output_registers() {
    let a = element("A", 0, 0);
    let b = SignatureElement { stream: 1, cols: 2, mask: 3, rw_mask: 3, ..element("B", 0, 0) };
    let bytes = container(STREAMS, &[element("P", 0, 0)], &[a, b], None).unwrap();
    let c = rd3d12_core::dxbc::Container::parse_unverified(&bytes).unwrap();
    assert!(c.part(*b"OSG5").is_some() && c.part(*b"OSGN").is_none(), "gs_5_0 outputs are OSG5");
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let outs = &p.dx.entry_points[0].outputs;
    assert_eq!(outs.iter().map(|e| (e.name.as_str(), e.stream)).collect::<Vec<_>>(), vec![("A", 0), ("B", 1)]);
    assert_eq!(p.dx.entry_points[0].gs.unwrap().active_stream_mask, 3);
    for mode in [Mode::Interp, Mode::Jit] {
        let mut env = Gs { log: vec![], out: vec![] };
        crate::jit::with_mode(mode, || crate::interp::run(&p.module, &p.module.functions[0], &mut env)).unwrap();
        // Input vertex 0 of element 0 reads 0 + c. Writing o0 stores A (id 0) and, for x and
        // y, B (id 1, logged 4 + c) too.
        assert_eq!(
            env.log,
            vec!["emit 0 [(0, 0), (4, 0), (1, 1), (5, 1), (2, 2), (3, 3)]", "emit 1 [(0, 7), (4, 7), (1, 8), (5, 8)]"],
            "{mode:?}"
        );
    }
}

/// The same program in a container whose outputs are OSG1 (32-byte elements with stream and
/// min precision, as shader model 5.1 may write them): the streams are read the same.
#[test]
fn osg1_output_signatures_give_their_streams() {
    use rd3d12_core::shader::{signature_part, SignatureLayout};
    let a = element("A", 0, 0);
    let b = SignatureElement { stream: 1, cols: 2, mask: 3, rw_mask: 3, ..element("B", 0, 0) };
    let prog = asm::bytes(&assemble(STREAMS).unwrap());
    let i = signature_part(&[element("P", 0, 0)], SignatureLayout::V0, None);
    let o = signature_part(&[a, b], SignatureLayout::V1, None);
    let bytes = rd3d12_core::dxbc::build(&[(*b"ISGN", &i), (*b"OSG1", &o), (*b"SHEX", &prog)]);
    let p = parse(&bytes).unwrap_or_else(|e| panic!("{e}"));
    let outs = &p.dx.entry_points[0].outputs;
    assert_eq!(outs.iter().map(|e| (e.name.as_str(), e.stream)).collect::<Vec<_>>(), vec![("A", 0), ("B", 1)]);
}
