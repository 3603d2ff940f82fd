//! The debug layer's checks of the state a draw or dispatch runs with (messages only, as on
//! Windows: the list still closes).

use super::*;

/// The debug layer's checks of the state a draw or dispatch runs with (messages only, as on
/// Windows: the list still closes): a pipeline and a root signature bound, the root signature
/// the pipeline's, and for draws the topology, vertex and index buffers the pipeline reads.
pub(super) fn check_work_state(
    dev: &Device,
    g: &GraphicsState,
    name: &str,
    compute: bool,
    indexed: Option<(u32, u32)>,
) {
    if !crate::debug::active() {
        return;
    }
    let report = |id: D3D12_MESSAGE_ID, text: &str| {
        crate::debug::report_list_parts(
            name,
            D3D12_MESSAGE_CATEGORY_EXECUTION,
            D3D12_MESSAGE_SEVERITY_ERROR,
            id.0,
            text,
        )
    };
    let Some(exe) = &g.executable else {
        report(D3D12_MESSAGE_ID_COMMAND_LIST_PIPELINE_STATE_NOT_SET, "no pipeline state is set");
        return;
    };
    let kind = exe.pipeline.desc.kind;
    if compute != (kind == rd3d12_core::pipeline::PipelineKind::Compute) {
        report(
            D3D12_MESSAGE_ID_COMMAND_LIST_PIPELINE_STATE_NOT_SET,
            if compute {
                "the pipeline state set is not a compute pipeline"
            } else {
                "the pipeline state set is a compute pipeline"
            },
        );
        return;
    }
    let (not_set, mismatch) = if compute {
        (
            D3D12_MESSAGE_ID_COMMAND_LIST_DISPATCH_ROOT_SIGNATURE_NOT_SET,
            D3D12_MESSAGE_ID_COMMAND_LIST_DISPATCH_ROOT_SIGNATURE_MISMATCH,
        )
    } else {
        (
            D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_ROOT_SIGNATURE_NOT_SET,
            D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_ROOT_SIGNATURE_MISMATCH,
        )
    };
    match &g.root_canonical[usize::from(!compute)] {
        None => report(not_set, "no root signature is set"),
        Some(b) if **b != exe.pipeline.root_signature.blob[..] => {
            report(mismatch, "the root signature set is not the pipeline state's root signature")
        }
        Some(_) => check_arguments(g, exe, compute, &report),
    }
    if compute {
        return;
    }
    let d = &exe.pipeline.desc;
    // D3D_PRIMITIVE_TOPOLOGY → D3D12_PRIMITIVE_TOPOLOGY_TYPE.
    let ty = match g.topology {
        1 => 1,
        2 | 3 | 10 | 11 => 2,
        4 | 5 | 12 | 13 => 3,
        33..=64 => 4,
        _ => 0,
    };
    if ty == 0 {
        report(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INVALID_PRIMITIVETOPOLOGY, "the primitive topology is undefined");
    } else if d.topology_type != 0 && ty != d.topology_type {
        report(
            D3D12_MESSAGE_ID_PRIMITIVE_TOPOLOGY_MISMATCH_PIPELINE_STATE,
            "the primitive topology set is not of the pipeline state's PrimitiveTopologyType",
        );
    } else if ty == 4 {
        // A patch list's patches are the hull shader's input patches: as many control points.
        let hs = exe.pipeline.shader(rd3d12_core::pipeline::Slot::Hs);
        let points = (g.topology - 32) as u32;
        if let Some(p) =
            hs.and_then(|s| s.psv.as_ref()).filter(|p| p.runtime_info_size >= 24 && p.stage_info[0] != points)
        {
            report(
                D3D12_MESSAGE_ID_PRIMITIVE_TOPOLOGY_MISMATCH_PIPELINE_STATE,
                &format!(
                    "the primitive topology is a patch list of {points} control points, the hull shader takes {}",
                    p.stage_info[0]
                ),
            );
        }
    }
    // The bound views against the pipeline's formats and sample count.
    for (i, h) in g.render_targets.iter().enumerate() {
        let Some(v) = descriptor_heap::descriptor_at(dev, *h).filter(|v| !v.is_null()) else { continue };
        let want = if (i as u32) < d.num_render_targets { d.rtv_formats[i] } else { 0 };
        if v.format.0 != want {
            report(
                D3D12_MESSAGE_ID_RENDER_TARGET_FORMAT_MISMATCH_PIPELINE_STATE,
                &format!("render target {i} has format {}, the pipeline state {want}", v.format.0),
            );
        }
        let samples = descriptor_heap::resolve(dev, v.resource).map_or(1, |e| e.desc.SampleDesc.Count);
        if samples != d.sample_count.max(1) {
            report(
                D3D12_MESSAGE_ID_RENDER_TARGET_SAMPLE_DESC_MISMATCH_PIPELINE_STATE,
                &format!("render target {i} has {samples} samples, the pipeline state {}", d.sample_count.max(1)),
            );
        }
    }
    if let Some(v) = g.depth_stencil.and_then(|h| descriptor_heap::descriptor_at(dev, h)).filter(|v| !v.is_null()) {
        if v.format.0 != d.dsv_format {
            report(
                D3D12_MESSAGE_ID_DEPTH_STENCIL_FORMAT_MISMATCH_PIPELINE_STATE,
                &format!("the depth-stencil view has format {}, the pipeline state {}", v.format.0, d.dsv_format),
            );
        }
        let samples = descriptor_heap::resolve(dev, v.resource).map_or(1, |e| e.desc.SampleDesc.Count);
        if samples != d.sample_count.max(1) {
            report(
                D3D12_MESSAGE_ID_DEPTH_STENCIL_SAMPLE_DESC_MISMATCH_PIPELINE_STATE,
                &format!("the depth-stencil view has {samples} samples, the pipeline state {}", d.sample_count.max(1)),
            );
        }
    }
    for e in &d.input_layout {
        let vb = g.vertex_buffers.iter().find(|(s, _)| *s == e.input_slot).map(|v| v.1);
        if vb.is_none_or(|v| v.BufferLocation == 0) {
            report(
                D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_VERTEX_BUFFER_NOT_SET,
                &format!("the input layout reads slot {} but no vertex buffer is set there", e.input_slot),
            );
            break;
        }
    }
    if let Some((count, start)) = indexed {
        match &g.index_buffer {
            None => report(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_BUFFER_NOT_SET, "no index buffer is set"),
            Some(ib) if ib.BufferLocation == 0 => {
                report(D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_BUFFER_NOT_SET, "no index buffer is set")
            }
            Some(ib) => {
                let size = match ib.Format {
                    DXGI_FORMAT_R16_UINT => 2u64,
                    DXGI_FORMAT_R32_UINT => 4,
                    _ => {
                        report(
                            D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_BUFFER_FORMAT_INVALID,
                            "the index buffer format is neither R16_UINT nor R32_UINT",
                        );
                        return;
                    }
                };
                if ib.BufferLocation % size != 0 {
                    report(
                        D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_OFFSET_UNALIGNED,
                        "the index buffer address is not aligned to its index size",
                    );
                }
                if (u64::from(start) + u64::from(count)) * size > u64::from(ib.SizeInBytes) {
                    report(
                        D3D12_MESSAGE_ID_COMMAND_LIST_DRAW_INDEX_BUFFER_TOO_SMALL,
                        &format!(
                            "indices {start}..{} need {} bytes; the index buffer view has {}",
                            u64::from(start) + u64::from(count),
                            (u64::from(start) + u64::from(count)) * size,
                            ib.SizeInBytes
                        ),
                    );
                }
            }
        }
    }
}

/// The debug layer's check that every root parameter binding a resource the pipeline's shaders
/// declare (their PSV0 ranges) has an argument: a descriptor table, root CBV, SRV or UAV never
/// set since the root signature was is reported (root constants read zeros, no message).
fn check_arguments(
    g: &GraphicsState,
    exe: &crate::work::pipeline::Executable,
    compute: bool,
    report: &dyn Fn(D3D12_MESSAGE_ID, &str),
) {
    use rd3d12_core::pipeline::{binders, Binder};
    use rd3d12_core::root_signature::ParameterKind;
    let Some(desc) = g.root_descs[usize::from(!compute)].as_deref() else { return };
    let mut reported = Vec::new();
    for (slot, shader) in &exe.pipeline.shaders {
        let Some(psv) = &shader.psv else { continue };
        for b in &psv.bindings {
            for binder in binders(desc, *slot, b).unwrap_or_default() {
                let Binder::Parameter(i) = binder else { continue };
                if reported.contains(&i) || g.root_args.iter().any(|a| a.0 == compute && a.1 as usize == i) {
                    continue;
                }
                let (id, what) = match desc.parameters[i].kind {
                    ParameterKind::Table(_) => {
                        (D3D12_MESSAGE_ID_COMMAND_LIST_DESCRIPTOR_TABLE_NOT_SET, "descriptor table")
                    }
                    ParameterKind::Cbv(_) => {
                        (D3D12_MESSAGE_ID_COMMAND_LIST_ROOT_CONSTANT_BUFFER_VIEW_NOT_SET, "root CBV")
                    }
                    ParameterKind::Srv(_) => {
                        (D3D12_MESSAGE_ID_COMMAND_LIST_ROOT_SHADER_RESOURCE_VIEW_NOT_SET, "root SRV")
                    }
                    ParameterKind::Uav(_) => {
                        (D3D12_MESSAGE_ID_COMMAND_LIST_ROOT_UNORDERED_ACCESS_VIEW_NOT_SET, "root UAV")
                    }
                    ParameterKind::Constants(_) => continue,
                };
                reported.push(i);
                report(
                    id,
                    &format!("root parameter {i} ({what}) binds a resource {} reads but was not set", slot.name()),
                );
            }
        }
    }
}
