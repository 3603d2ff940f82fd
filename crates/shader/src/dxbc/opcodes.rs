//! The opcodes of the tokenized program format (`D3D10_SB_OPCODE_TYPE` and its D3D11
//! additions in Microsoft's `D3D12TokenizedProgramFormat.hpp`), with what the reader, the
//! assembler and the lowering need of each: its mnemonic, how many destination and source
//! operands an executable instruction has, and the lowest shader model that has it.

/// One opcode: (number, mnemonic, destinations, sources, lowest shader model as
/// `major * 10 + minor`). Declarations, whose layouts differ, have 0/0.
pub type OpInfo = (u32, &'static str, u8, u8, u8);

/// `D3D10_SB_OPCODE_CUSTOMDATA`.
pub const CUSTOMDATA: u32 = 53;

/// Every opcode the format defines up to shader model 5.1, in number order. The numbers the
/// header reserves as each version's count (107 `D3D10_SB_OPCODE_RESERVED0`, 112
/// `D3D10_1_SB_OPCODE_RESERVED1`, 207 and 210 after the 11.0 and 11.1 opcodes) are none.
pub const TABLE: &[OpInfo] = &[
    (0, "add", 1, 2, 40),
    (1, "and", 1, 2, 40),
    (2, "break", 0, 0, 40),
    (3, "breakc", 0, 1, 40),
    (4, "call", 0, 1, 40),
    (5, "callc", 0, 2, 40),
    (6, "case", 0, 1, 40),
    (7, "continue", 0, 0, 40),
    (8, "continuec", 0, 1, 40),
    (9, "cut", 0, 0, 40),
    (10, "default", 0, 0, 40),
    (11, "deriv_rtx", 1, 1, 40),
    (12, "deriv_rty", 1, 1, 40),
    (13, "discard", 0, 1, 40),
    (14, "div", 1, 2, 40),
    (15, "dp2", 1, 2, 40),
    (16, "dp3", 1, 2, 40),
    (17, "dp4", 1, 2, 40),
    (18, "else", 0, 0, 40),
    (19, "emit", 0, 0, 40),
    (20, "emitthencut", 0, 0, 40),
    (21, "endif", 0, 0, 40),
    (22, "endloop", 0, 0, 40),
    (23, "endswitch", 0, 0, 40),
    (24, "eq", 1, 2, 40),
    (25, "exp", 1, 1, 40),
    (26, "frc", 1, 1, 40),
    (27, "ftoi", 1, 1, 40),
    (28, "ftou", 1, 1, 40),
    (29, "ge", 1, 2, 40),
    (30, "iadd", 1, 2, 40),
    (31, "if", 0, 1, 40),
    (32, "ieq", 1, 2, 40),
    (33, "ige", 1, 2, 40),
    (34, "ilt", 1, 2, 40),
    (35, "imad", 1, 3, 40),
    (36, "imax", 1, 2, 40),
    (37, "imin", 1, 2, 40),
    (38, "imul", 2, 2, 40),
    (39, "ine", 1, 2, 40),
    (40, "ineg", 1, 1, 40),
    (41, "ishl", 1, 2, 40),
    (42, "ishr", 1, 2, 40),
    (43, "itof", 1, 1, 40),
    (44, "label", 0, 1, 40),
    (45, "ld", 1, 2, 40),
    (46, "ld_ms", 1, 3, 40),
    (47, "log", 1, 1, 40),
    (48, "loop", 0, 0, 40),
    (49, "lt", 1, 2, 40),
    (50, "mad", 1, 3, 40),
    (51, "min", 1, 2, 40),
    (52, "max", 1, 2, 40),
    (53, "customdata", 0, 0, 40),
    (54, "mov", 1, 1, 40),
    (55, "movc", 1, 3, 40),
    (56, "mul", 1, 2, 40),
    (57, "ne", 1, 2, 40),
    (58, "nop", 0, 0, 40),
    (59, "not", 1, 1, 40),
    (60, "or", 1, 2, 40),
    (61, "resinfo", 1, 2, 40),
    (62, "ret", 0, 0, 40),
    (63, "retc", 0, 1, 40),
    (64, "round_ne", 1, 1, 40),
    (65, "round_ni", 1, 1, 40),
    (66, "round_pi", 1, 1, 40),
    (67, "round_z", 1, 1, 40),
    (68, "rsq", 1, 1, 40),
    (69, "sample", 1, 3, 40),
    (70, "sample_c", 1, 4, 40),
    (71, "sample_c_lz", 1, 4, 40),
    (72, "sample_l", 1, 4, 40),
    (73, "sample_d", 1, 5, 40),
    (74, "sample_b", 1, 4, 40),
    (75, "sqrt", 1, 1, 40),
    (76, "switch", 0, 1, 40),
    (77, "sincos", 2, 1, 40),
    (78, "udiv", 2, 2, 40),
    (79, "ult", 1, 2, 40),
    (80, "uge", 1, 2, 40),
    (81, "umul", 2, 2, 40),
    (82, "umad", 1, 3, 40),
    (83, "umax", 1, 2, 40),
    (84, "umin", 1, 2, 40),
    (85, "ushr", 1, 2, 40),
    (86, "utof", 1, 1, 40),
    (87, "xor", 1, 2, 40),
    (88, "dcl_resource", 0, 0, 40),
    (89, "dcl_constantbuffer", 0, 0, 40),
    (90, "dcl_sampler", 0, 0, 40),
    (91, "dcl_indexrange", 0, 0, 40),
    (92, "dcl_outputtopology", 0, 0, 40),
    (93, "dcl_inputprimitive", 0, 0, 40),
    (94, "dcl_maxout", 0, 0, 40),
    (95, "dcl_input", 0, 0, 40),
    (96, "dcl_input_sgv", 0, 0, 40),
    (97, "dcl_input_siv", 0, 0, 40),
    (98, "dcl_input_ps", 0, 0, 40),
    (99, "dcl_input_ps_sgv", 0, 0, 40),
    (100, "dcl_input_ps_siv", 0, 0, 40),
    (101, "dcl_output", 0, 0, 40),
    (102, "dcl_output_sgv", 0, 0, 40),
    (103, "dcl_output_siv", 0, 0, 40),
    (104, "dcl_temps", 0, 0, 40),
    (105, "dcl_indexableTemp", 0, 0, 40),
    (106, "dcl_globalFlags", 0, 0, 40),
    (108, "lod", 1, 3, 41),
    (109, "gather4", 1, 3, 41),
    (110, "samplepos", 1, 2, 41),
    (111, "sampleinfo", 1, 1, 41),
    (113, "hs_decls", 0, 0, 50),
    (114, "hs_control_point_phase", 0, 0, 50),
    (115, "hs_fork_phase", 0, 0, 50),
    (116, "hs_join_phase", 0, 0, 50),
    (117, "emit_stream", 0, 1, 50),
    (118, "cut_stream", 0, 1, 50),
    (119, "emitthencut_stream", 0, 1, 50),
    (120, "fcall", 0, 1, 50),
    (121, "bufinfo", 1, 1, 50),
    (122, "deriv_rtx_coarse", 1, 1, 50),
    (123, "deriv_rtx_fine", 1, 1, 50),
    (124, "deriv_rty_coarse", 1, 1, 50),
    (125, "deriv_rty_fine", 1, 1, 50),
    (126, "gather4_c", 1, 4, 50),
    (127, "gather4_po", 1, 4, 50),
    (128, "gather4_po_c", 1, 5, 50),
    (129, "rcp", 1, 1, 50),
    (130, "f32tof16", 1, 1, 50),
    (131, "f16tof32", 1, 1, 50),
    (132, "uaddc", 2, 2, 50),
    (133, "usubb", 2, 2, 50),
    (134, "countbits", 1, 1, 50),
    (135, "firstbit_hi", 1, 1, 50),
    (136, "firstbit_lo", 1, 1, 50),
    (137, "firstbit_shi", 1, 1, 50),
    (138, "ubfe", 1, 3, 50),
    (139, "ibfe", 1, 3, 50),
    (140, "bfi", 1, 4, 50),
    (141, "bfrev", 1, 1, 50),
    (142, "swapc", 2, 3, 50),
    (143, "dcl_stream", 0, 0, 50),
    (144, "dcl_function_body", 0, 0, 50),
    (145, "dcl_function_table", 0, 0, 50),
    (146, "dcl_interface", 0, 0, 50),
    (147, "dcl_input_control_point_count", 0, 0, 50),
    (148, "dcl_output_control_point_count", 0, 0, 50),
    (149, "dcl_tessellator_domain", 0, 0, 50),
    (150, "dcl_tessellator_partitioning", 0, 0, 50),
    (151, "dcl_tessellator_output_primitive", 0, 0, 50),
    (152, "dcl_hs_max_tessfactor", 0, 0, 50),
    (153, "dcl_hs_fork_phase_instance_count", 0, 0, 50),
    (154, "dcl_hs_join_phase_instance_count", 0, 0, 50),
    (155, "dcl_thread_group", 0, 0, 50),
    (156, "dcl_uav_typed", 0, 0, 50),
    (157, "dcl_uav_raw", 0, 0, 50),
    (158, "dcl_uav_structured", 0, 0, 50),
    (159, "dcl_tgsm_raw", 0, 0, 50),
    (160, "dcl_tgsm_structured", 0, 0, 50),
    (161, "dcl_resource_raw", 0, 0, 50),
    (162, "dcl_resource_structured", 0, 0, 50),
    (163, "ld_uav_typed", 1, 2, 50),
    (164, "store_uav_typed", 1, 2, 50),
    (165, "ld_raw", 1, 2, 50),
    (166, "store_raw", 1, 2, 50),
    (167, "ld_structured", 1, 3, 50),
    (168, "store_structured", 1, 3, 50),
    (169, "atomic_and", 1, 2, 50),
    (170, "atomic_or", 1, 2, 50),
    (171, "atomic_xor", 1, 2, 50),
    (172, "atomic_cmp_store", 1, 3, 50),
    (173, "atomic_iadd", 1, 2, 50),
    (174, "atomic_imax", 1, 2, 50),
    (175, "atomic_imin", 1, 2, 50),
    (176, "atomic_umax", 1, 2, 50),
    (177, "atomic_umin", 1, 2, 50),
    (178, "imm_atomic_alloc", 1, 1, 50),
    (179, "imm_atomic_consume", 1, 1, 50),
    (180, "imm_atomic_iadd", 1, 3, 50),
    (181, "imm_atomic_and", 1, 3, 50),
    (182, "imm_atomic_or", 1, 3, 50),
    (183, "imm_atomic_xor", 1, 3, 50),
    (184, "imm_atomic_exch", 1, 3, 50),
    (185, "imm_atomic_cmp_exch", 1, 4, 50),
    (186, "imm_atomic_imax", 1, 3, 50),
    (187, "imm_atomic_imin", 1, 3, 50),
    (188, "imm_atomic_umax", 1, 3, 50),
    (189, "imm_atomic_umin", 1, 3, 50),
    (190, "sync", 0, 0, 50),
    (191, "dadd", 1, 2, 50),
    (192, "dmax", 1, 2, 50),
    (193, "dmin", 1, 2, 50),
    (194, "dmul", 1, 2, 50),
    (195, "deq", 1, 2, 50),
    (196, "dge", 1, 2, 50),
    (197, "dlt", 1, 2, 50),
    (198, "dne", 1, 2, 50),
    (199, "dmov", 1, 1, 50),
    (200, "dmovc", 1, 3, 50),
    (201, "dtof", 1, 1, 50),
    (202, "ftod", 1, 1, 50),
    (203, "eval_snapped", 1, 2, 50),
    (204, "eval_sample_index", 1, 2, 50),
    (205, "eval_centroid", 1, 1, 50),
    (206, "dcl_gsinstances", 0, 0, 50),
    (208, "abort", 0, 0, 50),
    (209, "debug_break", 0, 0, 50),
    (211, "ddiv", 1, 2, 50),
    (212, "dfma", 1, 3, 50),
    (213, "drcp", 1, 1, 50),
    (214, "msad", 1, 3, 50),
    (215, "dtoi", 1, 1, 50),
    (216, "dtou", 1, 1, 50),
    (217, "itod", 1, 1, 50),
    (218, "utod", 1, 1, 50),
];

/// The entry of opcode `op`, if the format defines it.
pub fn info(op: u32) -> Option<&'static OpInfo> {
    TABLE.binary_search_by_key(&op, |e| e.0).ok().map(|i| &TABLE[i])
}

/// The entry named `name`.
pub fn by_name(name: &str) -> Option<&'static OpInfo> {
    TABLE.iter().find(|e| e.1 == name)
}

/// Whether `op` is a declaration (its operands follow a layout of its own).
pub fn is_declaration(op: u32) -> bool {
    matches!(op, 88..=106 | 143..=162 | 206) || matches!(op, 113..=116)
}

/// The operands (as operand tokens) a declaration has before its plain DWORDs; the rest of
/// the instruction are DWORDs (counts, strides, return types, register spaces).
pub fn declaration_operands(op: u32) -> usize {
    match op {
        88..=91 | 95..=103 | 143 | 156..=162 => 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_named_once() {
        assert!(TABLE.windows(2).all(|w| w[0].0 < w[1].0));
        for e in TABLE {
            assert_eq!(by_name(e.1).map(|x| x.0), Some(e.0), "{}", e.1);
        }
        // Spot checks against the header's enumeration, and the word fxc writes for
        // dcl_thread_group (0x0400009b, as rd3d12-core's ShaderBuilder does).
        assert_eq!(by_name("dcl_thread_group").unwrap().0, 0x9b);
        assert_eq!(by_name("ret").unwrap().0, 0x3e);
        assert_eq!(by_name("dcl_globalFlags").unwrap().0, 0x6a);
        assert_eq!(by_name("hs_decls").unwrap().0, 113);
        assert_eq!(by_name("imm_atomic_cmp_exch").unwrap().0, 185);
        assert_eq!(by_name("msad").unwrap().0, 214);
        assert_eq!([107, 112, 207, 210].map(info), [None; 4]);
    }
}
