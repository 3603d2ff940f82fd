//! The rules of a graphics pipeline's fixed-function state and of the links between its
//! stages. Shaders, flags, node mask and the root signature are checked by
//! [`super::validate`] before this runs.

use rd3d12_sys as sys;

use super::{gp, Limits, PipelineDesc, RootSignatureInfo, RtBlend, Slot, StencilFace, R};
use super::{
    BLENDOP, BLENDOPALPHA, DESTBLEND, DESTBLENDALPHA, LOGICOPS, SAMPLE_DESC, SRCBLEND, SRCBLENDALPHA, WRITEMASK,
};
use crate::format::{self, s1};
use crate::shader::{SemanticKind, Shader, SignatureElement};

type Shaders<'a> = &'a [(Slot, Shader)];

fn find<'a>(shaders: Shaders<'a>, slot: Slot) -> Option<&'a Shader> {
    shaders.iter().find(|(s, _)| *s == slot).map(|(_, sh)| sh)
}

pub(super) fn validate(d: &PipelineDesc, shaders: Shaders, rs: &RootSignatureInfo, l: &Limits) -> R<()> {
    topology(d, shaders)?;
    root_signature_flags(d, rs)?;
    input_layout(d, shaders)?;
    linkage(shaders)?;
    stream_output(d, shaders)?;
    position(d, shaders)?;
    blend(d, l)?;
    rasterizer(d, l)?;
    depth_stencil(d, l)?;
    targets(d)?;
    blend_vs_targets(d)?;
    sample_desc(d, l)?;
    if d.ib_strip_cut > sys::D3D12_INDEX_BUFFER_STRIP_CUT_VALUE_0xFFFFFFFF.0 {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_INDEX_BUFFER_PROPERTIES,
            format!("IBStripCutValue {} is not a D3D12_INDEX_BUFFER_STRIP_CUT_VALUE", d.ib_strip_cut),
        ));
    }
    view_instancing(d, l)
}

fn topology(d: &PipelineDesc, shaders: Shaders) -> R<()> {
    use sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_PRIMITIVETOPOLOGY as TOPO;
    let t = d.topology_type;
    if t > sys::D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH.0 {
        return Err(gp(TOPO, format!("PrimitiveTopologyType {t} is not a D3D12_PRIMITIVE_TOPOLOGY_TYPE")));
    }
    if t == sys::D3D12_PRIMITIVE_TOPOLOGY_TYPE_UNDEFINED.0 {
        return Err(gp(TOPO, "PrimitiveTopologyType is UNDEFINED"));
    }
    let patch = t == sys::D3D12_PRIMITIVE_TOPOLOGY_TYPE_PATCH.0;
    if patch != find(shaders, Slot::Hs).is_some() {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HULL_SHADER_INPUT_TOPOLOGY_MISMATCH,
            if patch { "PATCH topology needs a hull shader" } else { "a hull shader needs PATCH topology" },
        ));
    }
    // The domain shader reads what the hull shader writes: as many control points, in the same
    // domain (the PSV0 facts of DXIL shaders).
    let psv = |slot| find(shaders, slot).and_then(|s| s.psv.as_ref()).filter(|p| p.runtime_info_size >= 24);
    // The geometry shader's input primitive (D3D_PRIMITIVE: 1 point, 2 line, 3 triangle, 6 line
    // and 7 triangle with adjacency) is what reaches it: the tessellator's output primitive
    // (1 point, 2 line, 3 and 4 triangles), or primitives of the pipeline's topology type.
    if let Some(gs) = psv(Slot::Gs) {
        let input = gs.stage_info[0];
        let fits = match psv(Slot::Hs) {
            Some(hs) => matches!((hs.stage_info[3], input), (1, 1) | (2, 2) | (3 | 4, 3)),
            None => match t {
                1 => input == 1,
                2 => matches!(input, 2 | 6),
                3 => matches!(input, 3 | 7),
                _ => true,
            },
        };
        if !fits {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_GS_INPUT_PRIMITIVE_MISMATCH,
                format!("the geometry shader's input primitive {input} is not what the stages before it produce"),
            ));
        }
    }
    if let (Some(hs), Some(ds)) = (psv(Slot::Hs), psv(Slot::Ds)) {
        if hs.stage_info[1] != ds.stage_info[0] {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_DS_CONTROL_POINT_COUNT_MISMATCH,
                format!(
                    "the hull shader outputs {} control points, the domain shader reads {}",
                    hs.stage_info[1], ds.stage_info[0]
                ),
            ));
        }
        if hs.stage_info[2] != ds.stage_info[2] {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_HS_DS_TESSELLATOR_DOMAIN_MISMATCH,
                format!(
                    "the hull shader's tessellator domain is {}, the domain shader's {}",
                    hs.stage_info[2], ds.stage_info[2]
                ),
            ));
        }
    }
    Ok(())
}

fn root_signature_flags(d: &PipelineDesc, rs: &RootSignatureInfo) -> R<()> {
    use sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_MISSING_ROOT_SIGNATURE_FLAGS as FLAGS;
    if !d.input_layout.is_empty() && rs.flags & sys::D3D12_ROOT_SIGNATURE_FLAG_ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT.0 == 0
    {
        return Err(gp(
            FLAGS,
            "the input layout has elements but the root signature lacks ALLOW_INPUT_ASSEMBLER_INPUT_LAYOUT",
        ));
    }
    if !d.stream_output.entries.is_empty() && rs.flags & sys::D3D12_ROOT_SIGNATURE_FLAG_ALLOW_STREAM_OUTPUT.0 == 0 {
        return Err(gp(FLAGS, "stream output is declared but the root signature lacks ALLOW_STREAM_OUTPUT"));
    }
    Ok(())
}

fn same_semantic(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b)
}

fn trailing_digit(s: &str) -> bool {
    s.as_bytes().last().is_some_and(u8::is_ascii_digit)
}

/// The alignment an input element's AlignedByteOffset needs: the size of one component of its
/// format, capped at 4 (whole 32-bit packed formats count as one 4-byte component).
fn component_alignment(f: &format::FormatInfo) -> u32 {
    let bytes = f.bits_per_element as u32 / 8;
    let n = f.name;
    if n.starts_with("R32") {
        4
    } else if n.starts_with("R16") {
        2
    } else if n.starts_with("R8") || n.starts_with("B8") || n.starts_with("A8") {
        1
    } else {
        bytes.clamp(1, 4)
    }
}

fn input_layout(d: &PipelineDesc, shaders: Shaders) -> R<()> {
    use sys::{
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_DUPLICATESEMANTIC as DUP,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDALIGNMENT as ALIGN,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDFORMAT as FORMAT,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDINPUTSLOTCLASS as CLASS,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDSLOT as SLOT,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDSLOTCLASSCHANGE as CLASSCHANGE,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_INVALIDSTEPRATECHANGE as RATECHANGE,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_MISSINGELEMENT as MISSING,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_NULLSEMANTIC as NULLSEM,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_STEPRATESLOTCLASSMISMATCH as RATECLASS,
        D3D12_MESSAGE_ID_CREATEINPUTLAYOUT_TRAILING_DIGIT_IN_SEMANTIC as DIGIT,
    };
    const PER_VERTEX: u32 = sys::D3D12_INPUT_CLASSIFICATION_PER_VERTEX_DATA.0;
    const PER_INSTANCE: u32 = sys::D3D12_INPUT_CLASSIFICATION_PER_INSTANCE_DATA.0;
    // (class, step rate, next append offset) per slot.
    let mut slots: [Option<(u32, u32, u32)>; 32] = [None; 32];
    let mut seen: Vec<(&str, u32)> = Vec::new();
    for (i, e) in d.input_layout.iter().enumerate() {
        let name = match e.semantic_name.as_deref() {
            None | Some("") => return Err(gp(NULLSEM, format!("InputLayout element {i} has no SemanticName"))),
            Some(n) => n,
        };
        if trailing_digit(name) {
            return Err(gp(DIGIT, format!("InputLayout element {i}: SemanticName '{name}' ends in a digit")));
        }
        let info = format::info(sys::DXGI_FORMAT(e.format))
            .filter(|f| f.format.0 != 0 && f.class_support1 & s1::IA_VERTEX_BUFFER != 0)
            .ok_or_else(|| {
                gp(FORMAT, format!("InputLayout element {i} ('{name}'): format {} is not a vertex format", e.format))
            })?;
        if e.input_slot >= sys::D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT {
            return Err(gp(SLOT, format!("InputLayout element {i}: InputSlot {} is not below 32", e.input_slot)));
        }
        if e.slot_class != PER_VERTEX && e.slot_class != PER_INSTANCE {
            return Err(gp(CLASS, format!("InputLayout element {i}: InputSlotClass {} is invalid", e.slot_class)));
        }
        if e.slot_class == PER_VERTEX && e.instance_step_rate != 0 {
            return Err(gp(
                RATECLASS,
                format!("InputLayout element {i}: per-vertex data with InstanceDataStepRate {}", e.instance_step_rate),
            ));
        }
        let align = component_alignment(info);
        let size = (info.bits_per_element as u32).div_ceil(8);
        let slot = &mut slots[e.input_slot as usize];
        let next = match *slot {
            None => 0,
            Some((class, rate, next)) => {
                if class != e.slot_class {
                    return Err(gp(
                        CLASSCHANGE,
                        format!(
                            "InputLayout element {i}: slot {} mixes per-vertex and per-instance data",
                            e.input_slot
                        ),
                    ));
                }
                if rate != e.instance_step_rate {
                    return Err(gp(
                        RATECHANGE,
                        format!("InputLayout element {i}: slot {} mixes step rates", e.input_slot),
                    ));
                }
                next
            }
        };
        let offset = if e.aligned_byte_offset == sys::D3D12_APPEND_ALIGNED_ELEMENT {
            next.next_multiple_of(align)
        } else {
            if !e.aligned_byte_offset.is_multiple_of(align) {
                return Err(gp(
                    ALIGN,
                    format!(
                        "InputLayout element {i}: AlignedByteOffset {} is not a multiple of {align}",
                        e.aligned_byte_offset
                    ),
                ));
            }
            e.aligned_byte_offset
        };
        *slot = Some((e.slot_class, e.instance_step_rate, offset.saturating_add(size)));
        if seen.iter().any(|(n, idx)| same_semantic(n, name) && *idx == e.semantic_index) {
            return Err(gp(DUP, format!("InputLayout declares {name}{} twice", e.semantic_index)));
        }
        seen.push((name, e.semantic_index));
    }
    if let Some(vs) = find(shaders, Slot::Vs) {
        for input in vs.inputs.iter().filter(|x| x.semantic == SemanticKind::Arbitrary) {
            for &index in &input.semantic_indices {
                if !seen.iter().any(|(n, idx)| same_semantic(n, &input.name) && *idx == index) {
                    return Err(gp(
                        MISSING,
                        format!(
                            "the vertex shader reads {}{index} but the input layout does not provide it",
                            input.name
                        ),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The first semantic index of `e` that no element of `outputs` carries.
fn unprovided(outputs: &[SignatureElement], e: &SignatureElement) -> Option<u32> {
    let provided = |&i: &u32| outputs.iter().any(|o| o.is(&e.name, i));
    e.semantic_indices.iter().copied().find(|i| !provided(i))
}

/// Every user-semantic input of a stage must be written by the stage before it.
fn linkage(shaders: Shaders) -> R<()> {
    let order = [Slot::Vs, Slot::Hs, Slot::Ds, Slot::Gs, Slot::Ps];
    let present: Vec<(Slot, &Shader)> = order.iter().filter_map(|s| find(shaders, *s).map(|sh| (*s, sh))).collect();
    for pair in present.windows(2) {
        let ((ps, prev), (ns, next)) = (pair[0], pair[1]);
        let user = next.inputs.iter().filter(|e| e.semantic == SemanticKind::Arbitrary);
        if let Some((e, index)) = user.filter_map(|e| Some((e, unprovided(&prev.outputs, e)?))).next() {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_SHADER_LINKAGE_SEMANTICNAME_NOT_FOUND,
                format!("{} reads {}{index} which {} does not write", ns.name(), e.name, ps.name()),
            ));
        }
    }
    Ok(())
}

fn stream_output(d: &PipelineDesc, shaders: Shaders) -> R<()> {
    use sys::{
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_CANTHAVEONLYGAPS as ONLYGAPS,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDGAPDEFINITION as GAP,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSLOT as OUTSLOT,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDOUTPUTSTREAMSTRIDE as STRIDE,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTARTCOMPONENTANDCOMPONENTCOUNT as COMPONENTS,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAM as STREAM,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_INVALIDSTREAMTORASTERIZER as RAST,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_MISSINGSEMANTIC as MISSINGSEM,
        D3D12_MESSAGE_ID_CREATEGEOMETRYSHADERWITHSTREAMOUTPUT_TRAILING_DIGIT_IN_SEMANTIC as DIGIT,
    };
    let so = &d.stream_output;
    if so.entries.is_empty() {
        return Ok(());
    }
    for (i, s) in so.strides.iter().enumerate() {
        if *s > sys::D3D12_SO_BUFFER_MAX_STRIDE_IN_BYTES || !s.is_multiple_of(4) {
            return Err(gp(STRIDE, format!("StreamOutput stride {i} ({s}) must be a multiple of 4 up to 2048")));
        }
    }
    let rs = so.rasterized_stream;
    if rs >= sys::D3D12_SO_STREAM_COUNT && rs != sys::D3D12_SO_NO_RASTERIZED_STREAM {
        return Err(gp(RAST, format!("RasterizedStream {rs} is neither a stream nor D3D12_SO_NO_RASTERIZED_STREAM")));
    }
    let gs = find(shaders, Slot::Gs);
    let last = gs.or_else(|| find(shaders, Slot::Ds)).or_else(|| find(shaders, Slot::Vs));
    let mut slot_stream = [None::<u32>; 4];
    let mut any_named = false;
    for (i, e) in so.entries.iter().enumerate() {
        if e.stream >= sys::D3D12_SO_STREAM_COUNT || (e.stream > 0 && gs.is_none()) {
            return Err(gp(
                STREAM,
                format!("StreamOutput entry {i}: stream {} (streams above 0 need a geometry shader)", e.stream),
            ));
        }
        if e.output_slot as u32 >= sys::D3D12_SO_BUFFER_SLOT_COUNT || e.output_slot as usize >= so.strides.len() {
            return Err(gp(
                OUTSLOT,
                format!("StreamOutput entry {i}: OutputSlot {} has no buffer stride", e.output_slot),
            ));
        }
        match slot_stream[e.output_slot as usize] {
            Some(s) if s != e.stream => {
                return Err(gp(
                    OUTSLOT,
                    format!("StreamOutput entry {i}: OutputSlot {} is fed by two streams", e.output_slot),
                ))
            }
            _ => slot_stream[e.output_slot as usize] = Some(e.stream),
        }
        // A gap (no SemanticName) may span more than 4 components (D3D12_SO_DECLARATION_ENTRY:
        // "if SemanticName is NULL then ComponentCount can be greater than 4"); it must start at 0.
        let gap = e.semantic_name.is_none();
        if e.component_count == 0 || (!gap && e.start_component as u32 + e.component_count as u32 > 4) {
            return Err(gp(
                COMPONENTS,
                format!(
                    "StreamOutput entry {i}: components {}..+{} outside 0..4",
                    e.start_component, e.component_count
                ),
            ));
        }
        match &e.semantic_name {
            None => {
                if e.start_component != 0 {
                    return Err(gp(GAP, format!("StreamOutput entry {i}: a gap must start at component 0")));
                }
            }
            Some(n) => {
                any_named = true;
                if trailing_digit(n) {
                    return Err(gp(DIGIT, format!("StreamOutput entry {i}: SemanticName '{n}' ends in a digit")));
                }
                let written =
                    last.is_some_and(|sh| sh.outputs.iter().any(|o| o.is(n, e.semantic_index) && o.stream == e.stream));
                if !written {
                    return Err(gp(
                        MISSINGSEM,
                        format!(
                            "StreamOutput entry {i}: {n}{} is not an output of the last geometry stage",
                            e.semantic_index
                        ),
                    ));
                }
            }
        }
    }
    if !any_named {
        return Err(gp(ONLYGAPS, "the stream output declaration has only gaps"));
    }
    Ok(())
}

/// A rasterizer that runs ([`PipelineDesc::rasterizes`]) needs SV_Position from the last
/// geometry stage; without one the stages may only feed stream output or a disabled rasterizer
/// (Windows refuses the pipeline with CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT).
fn position(d: &PipelineDesc, shaders: Shaders) -> R<()> {
    let last = find(shaders, Slot::Gs).or_else(|| find(shaders, Slot::Ds)).or_else(|| find(shaders, Slot::Vs));
    let Some(last) = last else { return Ok(()) };
    let stream = d.stream_output.rasterized_stream;
    let positioned = last.outputs.iter().any(|o| o.semantic == SemanticKind::Position && o.stream == stream);
    if d.rasterizes(find(shaders, Slot::Ps).is_some()) && !positioned {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_POSITION_NOT_PRESENT,
            format!(
                "the last geometry stage writes no SV_Position to stream {stream}, but the rasterizer is enabled (a \
                 pixel shader, DepthEnable or StencilEnable, with RasterizedStream {stream})"
            ),
        ));
    }
    Ok(())
}

fn valid_blend(v: u32) -> bool {
    (1..=11).contains(&v) || (14..=21).contains(&v)
}

fn color_factor(v: u32) -> bool {
    matches!(v, 3 | 4 | 9 | 10 | 16 | 17)
}

fn dual_source(v: u32) -> bool {
    (16..=19).contains(&v)
}

fn valid_op(v: u32) -> bool {
    (1..=5).contains(&v)
}

/// The blend description in effect for render target `i`.
fn rt_blend(d: &PipelineDesc, i: usize) -> &RtBlend {
    if d.blend.independent {
        &d.blend.rt[i]
    } else {
        &d.blend.rt[0]
    }
}

fn blend(d: &PipelineDesc, l: &Limits) -> R<()> {
    let count = if d.blend.independent { 8 } else { 1 };
    for (i, t) in d.blend.rt.iter().take(count).enumerate() {
        let at = |what: &str, v: u32| format!("BlendState.RenderTarget[{i}].{what} {v} is invalid");
        if t.write_mask > 0xF {
            return Err(gp(WRITEMASK, at("RenderTargetWriteMask", t.write_mask as u32)));
        }
        if t.logic_op_enable {
            if !l.logic_op {
                return Err(gp(LOGICOPS, format!("BlendState.RenderTarget[{i}]: logic ops need OPTIONS.OutputMergerLogicOp, which this device does not support")));
            }
            if t.blend_enable {
                return Err(gp(
                    LOGICOPS,
                    format!("BlendState.RenderTarget[{i}]: blending and a logic op cannot both be enabled"),
                ));
            }
            if d.blend.independent {
                return Err(gp(LOGICOPS, "logic ops need IndependentBlendEnable FALSE"));
            }
            if t.logic_op > sys::D3D12_LOGIC_OP_OR_INVERTED.0 {
                return Err(gp(LOGICOPS, at("LogicOp", t.logic_op)));
            }
        }
        if t.blend_enable {
            let checks = [
                (valid_blend(t.src), SRCBLEND, "SrcBlend", t.src),
                (valid_blend(t.dest), DESTBLEND, "DestBlend", t.dest),
                (valid_op(t.op), BLENDOP, "BlendOp", t.op),
                (valid_blend(t.src_alpha) && !color_factor(t.src_alpha), SRCBLENDALPHA, "SrcBlendAlpha", t.src_alpha),
                (
                    valid_blend(t.dest_alpha) && !color_factor(t.dest_alpha),
                    DESTBLENDALPHA,
                    "DestBlendAlpha",
                    t.dest_alpha,
                ),
                (valid_op(t.op_alpha), BLENDOPALPHA, "BlendOpAlpha", t.op_alpha),
            ];
            if let Some((_, id, what, v)) = checks.iter().find(|c| !c.0) {
                return Err(gp(*id, at(what, *v)));
            }
        }
    }
    Ok(())
}

fn rasterizer(d: &PipelineDesc, l: &Limits) -> R<()> {
    use sys::{
        D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_USE_OF_FORCED_SAMPLE_COUNT as FORCED_USE,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDCULLMODE as CULL,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDDEPTHBIASCLAMP as CLAMP,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFILLMODE as FILL,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDFORCEDSAMPLECOUNT as FORCED,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALIDSLOPESCALEDDEPTHBIAS as SLOPE,
        D3D12_MESSAGE_ID_CREATERASTERIZERSTATE_INVALID_CONSERVATIVERASTERMODE as CONSERVATIVE,
    };
    let r = &d.rasterizer;
    if r.fill != sys::D3D12_FILL_MODE_WIREFRAME.0 && r.fill != sys::D3D12_FILL_MODE_SOLID.0 {
        return Err(gp(FILL, format!("RasterizerState.FillMode {} is invalid", r.fill)));
    }
    if !(sys::D3D12_CULL_MODE_NONE.0..=sys::D3D12_CULL_MODE_BACK.0).contains(&r.cull) {
        return Err(gp(CULL, format!("RasterizerState.CullMode {} is invalid", r.cull)));
    }
    if r.depth_bias_clamp.is_nan() {
        return Err(gp(CLAMP, "RasterizerState.DepthBiasClamp is NaN"));
    }
    if r.slope_scaled_depth_bias.is_nan() {
        return Err(gp(SLOPE, "RasterizerState.SlopeScaledDepthBias is NaN"));
    }
    if r.conservative > 1 || (r.conservative == 1 && l.conservative_raster_tier == 0) {
        return Err(gp(
            CONSERVATIVE,
            "conservative rasterization is not supported (OPTIONS.ConservativeRasterizationTier is NOT_SUPPORTED)",
        ));
    }
    if r.forced_sample_count != 0 {
        // Feature level 11_0 has "MRT with ForcedSampleCount 1" (optional there, done by the CPU
        // backend: draw::draw rasterizes at the pixel center and writes every sample); larger
        // counts with render targets bound are target-independent rasterization, an 11_1
        // feature (hardware-feature-levels, "Target-independent rasterization").
        // UAV-only rendering (no render target, no depth-stencil format) forces up to 8 samples
        // at 11_0 ("Max forced sample count for UAV-only rendering": 8 at 11_0, 16 at 11_1).
        let uav_only = d.num_render_targets == 0 && d.dsv_format == 0;
        let max_at_11_0 = if uav_only { 8 } else { 1 };
        if r.forced_sample_count > max_at_11_0 && l.caps.feature_level < sys::D3D_FEATURE_LEVEL_11_1.0 {
            return Err(gp(FORCED, "ForcedSampleCount (target-independent rasterization) needs feature level 11_1"));
        }
        if !matches!(r.forced_sample_count, 1 | 2 | 4 | 8 | 16) {
            return Err(gp(FORCED, format!("ForcedSampleCount {} is not 0, 1, 2, 4, 8 or 16", r.forced_sample_count)));
        }
        // D3D12_RASTERIZER_DESC: with ForcedSampleCount >= 1 no depth-stencil view is bound and
        // depth testing is off; only a count above 1 needs single-sampled render targets.
        let ds = &d.depth_stencil;
        if d.dsv_format != 0 || ds.depth_enable || ds.stencil_enable {
            return Err(gp(FORCED_USE, "ForcedSampleCount needs no depth-stencil target and depth and stencil off"));
        }
        if r.forced_sample_count > 1 && d.sample_count > 1 {
            return Err(gp(FORCED_USE, "ForcedSampleCount above 1 needs a sample count of 1"));
        }
    }
    Ok(())
}

fn depth_stencil(d: &PipelineDesc, l: &Limits) -> R<()> {
    use sys::{
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_DEPTHBOUNDSTEST_UNSUPPORTED as BOUNDS,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INDEPENDENT_MASKS_UNSUPPORTED as MASKS,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILFAILOP as BFAIL,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILFUNC as BFUNC,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILPASSOP as BPASS,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDBACKFACESTENCILZFAILOP as BZFAIL,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDDEPTHFUNC as DFUNC,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDDEPTHWRITEMASK as DWRITE,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILFAILOP as FFAIL,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILFUNC as FFUNC,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILPASSOP as FPASS,
        D3D12_MESSAGE_ID_CREATEDEPTHSTENCILSTATE_INVALIDFRONTFACESTENCILZFAILOP as FZFAIL,
    };
    let ds = &d.depth_stencil;
    let func_ok = |f: u32| (sys::D3D12_COMPARISON_FUNC_NEVER.0..=sys::D3D12_COMPARISON_FUNC_ALWAYS.0).contains(&f);
    let op_ok = |o: u32| (sys::D3D12_STENCIL_OP_KEEP.0..=sys::D3D12_STENCIL_OP_DECR.0).contains(&o);
    if ds.write_mask > sys::D3D12_DEPTH_WRITE_MASK_ALL.0 {
        return Err(gp(DWRITE, format!("DepthStencilState.DepthWriteMask {} is invalid", ds.write_mask)));
    }
    if ds.depth_enable && !func_ok(ds.func) {
        return Err(gp(DFUNC, format!("DepthStencilState.DepthFunc {} is invalid", ds.func)));
    }
    if ds.stencil_enable {
        let faces: [(&StencilFace, &str, [sys::D3D12_MESSAGE_ID; 4]); 2] = [
            (&ds.front, "FrontFace", [FFAIL, FZFAIL, FPASS, FFUNC]),
            (&ds.back, "BackFace", [BFAIL, BZFAIL, BPASS, BFUNC]),
        ];
        for (f, name, ids) in faces {
            let checks = [
                (op_ok(f.fail), ids[0], "StencilFailOp", f.fail),
                (op_ok(f.depth_fail), ids[1], "StencilDepthFailOp", f.depth_fail),
                (op_ok(f.pass), ids[2], "StencilPassOp", f.pass),
                (func_ok(f.func), ids[3], "StencilFunc", f.func),
            ];
            if let Some((_, id, what, v)) = checks.iter().find(|c| !c.0) {
                return Err(gp(*id, format!("DepthStencilState.{name}.{what} {v} is invalid")));
            }
        }
        if (ds.front.read_mask, ds.front.write_mask) != (ds.back.read_mask, ds.back.write_mask)
            && !l.independent_stencil_masks
        {
            return Err(gp(MASKS, "separate front and back stencil masks are not supported (OPTIONS14)"));
        }
    }
    if ds.depth_bounds && !l.depth_bounds {
        return Err(gp(BOUNDS, "the depth-bounds test is not supported (OPTIONS2.DepthBoundsTestSupported is FALSE)"));
    }
    Ok(())
}

fn targets(d: &PipelineDesc) -> R<()> {
    let n = d.num_render_targets;
    if n > sys::D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_INVALID_RENDER_TARGET_COUNT,
            format!("NumRenderTargets {n} exceeds 8"),
        ));
    }
    for (i, f) in d.rtv_formats.iter().enumerate() {
        if i as u32 >= n {
            if *f != 0 {
                return Err(gp(
                    sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_RTV_FORMAT_NOT_UNKNOWN,
                    format!("RTVFormats[{i}] must be UNKNOWN beyond NumRenderTargets ({n})"),
                ));
            }
        } else if *f != 0 {
            let ok = format::info(sys::DXGI_FORMAT(*f))
                .is_some_and(|x| !x.is_typeless() && x.class_support1 & s1::RENDER_TARGET != 0);
            if !ok {
                return Err(gp(
                    sys::D3D12_MESSAGE_ID_CREATERENDERTARGETVIEW_INVALIDFORMAT,
                    format!("RTVFormats[{i}] ({f}) is not a render-target format"),
                ));
            }
        }
    }
    // A DSVFormat without depth or stencil (a colour format) is accepted, as on Windows: no
    // depth-stencil view can have it, so the depth-stencil state has nothing to act on
    // ([`super::validate`] turns it off). Typeless formats and values that name no format stay
    // refused.
    if d.dsv_format != 0 {
        let ok = format::info(sys::DXGI_FORMAT(d.dsv_format)).is_some_and(|x| !x.is_typeless());
        if !ok {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEDEPTHSTENCILVIEW_INVALIDFORMAT,
                format!("DSVFormat ({}) is not a format a depth-stencil view can have", d.dsv_format),
            ));
        }
    }
    Ok(())
}

/// Whether `dsv_format` is a depth-stencil format, the only kind whose views a draw can test
/// against: the pipeline's depth-stencil state means nothing with any other.
pub(super) fn has_depth_stencil(dsv_format: u32) -> bool {
    format::info(sys::DXGI_FORMAT(dsv_format)).is_some_and(|x| x.class_support1 & s1::DEPTH_STENCIL != 0)
}

fn blend_vs_targets(d: &PipelineDesc) -> R<()> {
    for i in 0..d.num_render_targets.min(8) as usize {
        let f = d.rtv_formats[i];
        let t = rt_blend(d, i);
        let Some(info) = format::info(sys::DXGI_FORMAT(f)).filter(|_| f != 0) else { continue };
        if t.blend_enable && info.class_support1 & s1::BLENDABLE == 0 {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_OM_RENDER_TARGET_DOES_NOT_SUPPORT_BLENDING,
                format!("render target {i}'s format {} cannot be blended", info.name),
            ));
        }
        if t.logic_op_enable && info.class_support2 & format::s2::OUTPUT_MERGER_LOGIC_OP == 0 {
            return Err(gp(
                sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_OM_RENDER_TARGET_DOES_NOT_SUPPORT_LOGIC_OPS,
                format!("render target {i}'s format {} does not support logic ops", info.name),
            ));
        }
    }
    // Dual-source blending (SRC1 factors on render target 0) writes render target 0 only: no
    // other target may have a format, and with IndependentBlendEnable no other target may
    // blend. NumRenderTargets above 1 with the other formats UNKNOWN is accepted, as on Windows.
    let t0 = rt_blend(d, 0);
    let dual = t0.blend_enable && [t0.src, t0.dest, t0.src_alpha, t0.dest_alpha].into_iter().any(dual_source);
    if dual {
        use sys::D3D12_MESSAGE_ID_CREATEGRAPHICSPIPELINESTATE_OM_DUAL_SOURCE_BLENDING_CAN_ONLY_HAVE_RENDER_TARGET_0 as DUAL;
        let n = d.num_render_targets.min(8) as usize;
        if let Some(i) = (1..n).find(|&i| d.rtv_formats[i] != 0) {
            return Err(gp(DUAL, format!("dual-source blending writes render target 0 only, RTVFormats[{i}] is set")));
        }
        if let Some(i) = (1..8).find(|&i| d.blend.independent && d.blend.rt[i].blend_enable) {
            return Err(gp(
                DUAL,
                format!("dual-source blending on render target 0 leaves no blending to RenderTarget[{i}]"),
            ));
        }
    }
    Ok(())
}

fn sample_desc(d: &PipelineDesc, l: &Limits) -> R<()> {
    let (count, quality) = (d.sample_count, d.sample_quality);
    let formats: Vec<u32> = d.rtv_formats[..d.num_render_targets.min(8) as usize]
        .iter()
        .copied()
        .chain(std::iter::once(d.dsv_format))
        .filter(|f| *f != 0)
        .collect();
    // The sample description is checked against the targets' formats; without any (UAV-only
    // rendering) a zeroed one is taken, as Windows does: Mesa's d3d12 driver, written against
    // it, leaves SampleDesc zero for GL framebuffers without attachments.
    if count == 0 && formats.is_empty() && quality == 0 {
        return Ok(());
    }
    if count == 0 {
        return Err(gp(SAMPLE_DESC, "SampleDesc.Count is 0"));
    }
    let levels = if formats.is_empty() {
        // No attachment: only the sample counts the device supports at all.
        if count == 1 || (l.caps.msaa && matches!(count, 2 | 4 | 8 | 16)) {
            1
        } else {
            0
        }
    } else {
        formats
            .iter()
            .map(|f| format::msaa_quality_levels(sys::DXGI_FORMAT(*f), count, 0, &l.caps).unwrap_or(0))
            .min()
            .unwrap_or(0)
    };
    if levels == 0 {
        return Err(gp(SAMPLE_DESC, format!("SampleDesc.Count {count} is not supported by the target formats")));
    }
    if quality >= levels {
        return Err(gp(SAMPLE_DESC, format!("SampleDesc.Quality {quality} is not below the {levels} quality levels")));
    }
    Ok(())
}

fn view_instancing(d: &PipelineDesc, l: &Limits) -> R<()> {
    let v = &d.view_instancing;
    if v.count == 0 {
        return Ok(());
    }
    if l.view_instancing_tier == 0 {
        return Err(gp(
            sys::D3D12_MESSAGE_ID_VIEW_INSTANCING_UNSUPPORTED,
            "view instancing is not supported (OPTIONS3.ViewInstancingTier is NOT_SUPPORTED)",
        ));
    }
    if v.count > sys::D3D12_MAX_VIEW_INSTANCE_COUNT
        || v.flags & !sys::D3D12_VIEW_INSTANCING_FLAG_ENABLE_VIEW_INSTANCE_MASKING.0 != 0
    {
        return Err(gp(sys::D3D12_MESSAGE_ID_VIEW_INSTANCING_INVALIDARGS, "invalid view instancing description"));
    }
    Ok(())
}
