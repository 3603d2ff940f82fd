//! Command signatures (D3D12_COMMAND_SIGNATURE_DESC) and the ExecuteIndirect argument rules.
//!
//! The rules are those of the indirect-drawing spec (microsoft/DirectX-Specs,
//! d3d/IndirectDrawing.md, "Validation" and "Drawing"):
//! * exactly one draw/dispatch argument, and it comes last;
//! * an index-buffer argument only with DRAW_INDEXED, at most once; no vertex or index buffer
//!   argument in a dispatch signature; each vertex-buffer slot (below 32) at most once;
//! * ByteStride a multiple of 4 and large enough for all arguments (tightly packed, in order);
//! * a root signature if and only if some argument changes a root argument; root-argument
//!   entries sorted by root parameter index, each index used once except that constants may
//!   split one root-constant parameter into sorted, non-overlapping pieces; each argument
//!   matches its parameter's type and (constants) fits its size; Num32BitValuesToSet > 0;
//! * ExecuteIndirect: offsets 4-byte aligned, the MaxCommandCount commands inside the
//!   argument buffer and the count inside the count buffer; graphics signatures on direct
//!   lists only; in bundles no count buffer and a signature of a single argument.
//!
//! Argument sizes: draw 16, indexed draw 20, dispatch 12 (the D3D12_*_ARGUMENTS structs),
//! vertex- and index-buffer views 16, root constants 4 per value, root CBV/SRV/UAV 8 (a
//! D3D12_GPU_VIRTUAL_ADDRESS).

use rd3d12_sys as sys;

use crate::pipeline::{PsoError, RootParam, RootSignatureInfo};

/// One D3D12_INDIRECT_ARGUMENT_DESC: the type and the three words of its union.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgumentDesc {
    /// D3D12_INDIRECT_ARGUMENT_TYPE.
    pub ty: u32,
    /// The union's words (Slot / RootParameterIndex, DestOffsetIn32BitValues, Num32BitValuesToSet).
    pub words: [u32; 3],
}

/// A validated argument.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Argument {
    /// DrawInstanced.
    Draw,
    /// DrawIndexedInstanced.
    DrawIndexed,
    /// Dispatch.
    Dispatch,
    /// A vertex buffer view for a slot.
    VertexBuffer {
        /// The slot.
        slot: u32,
    },
    /// The index buffer view.
    IndexBuffer,
    /// Root constants.
    Constant {
        /// Root parameter index.
        root_index: u32,
        /// First 32-bit value written.
        dest_offset: u32,
        /// Values written.
        count: u32,
    },
    /// A root CBV.
    Cbv {
        /// Root parameter index.
        root_index: u32,
    },
    /// A root SRV.
    Srv {
        /// Root parameter index.
        root_index: u32,
    },
    /// A root UAV.
    Uav {
        /// Root parameter index.
        root_index: u32,
    },
}

impl Argument {
    /// Bytes the argument occupies in a command record.
    pub fn size(&self) -> u32 {
        match self {
            Argument::Draw => 16,
            Argument::DrawIndexed => 20,
            Argument::Dispatch => 12,
            Argument::VertexBuffer { .. } | Argument::IndexBuffer => 16,
            Argument::Constant { count, .. } => 4 * count,
            Argument::Cbv { .. } | Argument::Srv { .. } | Argument::Uav { .. } => 8,
        }
    }

    fn root_index(&self) -> Option<u32> {
        match *self {
            Argument::Constant { root_index, .. }
            | Argument::Cbv { root_index }
            | Argument::Srv { root_index }
            | Argument::Uav { root_index } => Some(root_index),
            _ => None,
        }
    }
}

/// Whether a signature draws or dispatches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SignatureKind {
    /// Ends in DRAW or DRAW_INDEXED: affects graphics state.
    Graphics,
    /// Ends in DISPATCH: affects compute state.
    Compute,
}

/// A validated command signature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSignature {
    /// ByteStride.
    pub byte_stride: u32,
    /// The arguments with their byte offsets in a record.
    pub arguments: Vec<(Argument, u32)>,
    /// Bytes of all arguments of one command (the last one's end).
    pub command_size: u32,
    /// Draw or dispatch.
    pub kind: SignatureKind,
    /// NodeMask (0 normalised to 1).
    pub node_mask: u32,
}

fn invalid(m: impl Into<String>) -> PsoError {
    PsoError::invalid(sys::D3D12_MESSAGE_ID_CREATECOMMANDSIGNATURE_INVALID, m)
}

/// Validates a D3D12_COMMAND_SIGNATURE_DESC against its root signature.
pub fn command_signature(
    byte_stride: u32,
    descs: &[ArgumentDesc],
    node_mask: u32,
    node_count: u32,
    root: Option<&RootSignatureInfo>,
) -> Result<CommandSignature, PsoError> {
    use sys::*;
    let nodes = if node_count >= 32 { u32::MAX } else { (1u32 << node_count) - 1 };
    if node_mask & !nodes != 0 {
        return Err(invalid(format!("NodeMask {node_mask:#x} names a node the device does not have")));
    }
    if descs.is_empty() {
        return Err(invalid("NumArgumentDescs is 0: a signature needs a draw or dispatch argument"));
    }
    let mut args = Vec::with_capacity(descs.len());
    for (i, d) in descs.iter().enumerate() {
        let [a, b, c] = d.words;
        let arg = match D3D12_INDIRECT_ARGUMENT_TYPE(d.ty) {
            D3D12_INDIRECT_ARGUMENT_TYPE_DRAW => Argument::Draw,
            D3D12_INDIRECT_ARGUMENT_TYPE_DRAW_INDEXED => Argument::DrawIndexed,
            D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH => Argument::Dispatch,
            D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW => Argument::VertexBuffer { slot: a },
            D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW => Argument::IndexBuffer,
            D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT => Argument::Constant { root_index: a, dest_offset: b, count: c },
            D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW => Argument::Cbv { root_index: a },
            D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW => Argument::Srv { root_index: a },
            D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW => Argument::Uav { root_index: a },
            D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS => {
                return Err(invalid(format!(
                    "argument {i}: DISPATCH_RAYS needs raytracing, which this device does not support"
                )))
            }
            D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH => {
                return Err(invalid(format!(
                    "argument {i}: DISPATCH_MESH needs mesh shaders, which this device does not support"
                )))
            }
            _ => return Err(invalid(format!("argument {i}: unknown D3D12_INDIRECT_ARGUMENT_TYPE {}", d.ty))),
        };
        args.push(arg);
    }
    let is_op = |a: &Argument| matches!(a, Argument::Draw | Argument::DrawIndexed | Argument::Dispatch);
    let ops = args.iter().filter(|a| is_op(a)).count();
    if ops != 1 {
        return Err(invalid(format!("a signature needs exactly one draw or dispatch argument, not {ops}")));
    }
    let last = *args.last().unwrap_or(&Argument::Draw);
    if !is_op(&last) {
        return Err(invalid("the draw or dispatch argument must come last"));
    }
    let kind = if last == Argument::Dispatch { SignatureKind::Compute } else { SignatureKind::Graphics };
    let mut vb_slots: Vec<u32> = Vec::new();
    let mut ib = 0;
    for a in &args {
        match *a {
            Argument::VertexBuffer { slot } => {
                if kind == SignatureKind::Compute {
                    return Err(invalid("a dispatch signature cannot change vertex buffers"));
                }
                if slot >= D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT {
                    return Err(invalid(format!("vertex buffer slot {slot} is not below 32")));
                }
                if vb_slots.contains(&slot) {
                    return Err(invalid(format!("vertex buffer slot {slot} is changed twice")));
                }
                vb_slots.push(slot);
            }
            Argument::IndexBuffer => {
                if last != Argument::DrawIndexed {
                    return Err(invalid("an index buffer argument needs a DRAW_INDEXED argument"));
                }
                ib += 1;
                if ib > 1 {
                    return Err(invalid("the index buffer is changed twice"));
                }
            }
            _ => {}
        }
    }
    root_arguments(&args, root)?;
    let mut offset = 0u32;
    let mut arguments = Vec::with_capacity(args.len());
    for a in args {
        arguments.push((a, offset));
        offset = offset.checked_add(a.size()).ok_or_else(|| invalid("arguments too large"))?;
    }
    if !byte_stride.is_multiple_of(4) {
        return Err(invalid(format!("ByteStride {byte_stride} is not a multiple of 4")));
    }
    if byte_stride < offset {
        return Err(invalid(format!(
            "ByteStride {byte_stride} is smaller than the {offset} bytes of one command's arguments"
        )));
    }
    Ok(CommandSignature { byte_stride, arguments, command_size: offset, kind, node_mask: node_mask.max(1) })
}

fn root_arguments(args: &[Argument], root: Option<&RootSignatureInfo>) -> Result<(), PsoError> {
    let uses_root = args.iter().any(|a| a.root_index().is_some());
    let root = match (uses_root, root) {
        (false, None) => return Ok(()),
        (false, Some(_)) => {
            return Err(invalid("pRootSignature must be NULL when no argument changes a root argument"));
        }
        (true, None) => return Err(invalid("arguments change root arguments but pRootSignature is NULL")),
        (true, Some(r)) => r,
    };
    // (root index, end of the constants written so far at that index)
    let mut prev: Option<(u32, u32)> = None;
    for (i, a) in args.iter().enumerate() {
        let Some(index) = a.root_index() else { continue };
        let param = root.params.get(index as usize).ok_or_else(|| {
            invalid(format!(
                "argument {i}: root parameter {index} is beyond the root signature's {}",
                root.params.len()
            ))
        })?;
        match (a, param) {
            (Argument::Constant { dest_offset, count, .. }, RootParam::Constants { num_values }) => {
                if *count == 0 {
                    return Err(invalid(format!("argument {i}: Num32BitValuesToSet is 0")));
                }
                if dest_offset.checked_add(*count).is_none_or(|end| end > *num_values) {
                    return Err(invalid(format!(
                        "argument {i}: constants {dest_offset}..+{count} exceed the {num_values} values of root parameter {index}"
                    )));
                }
            }
            (Argument::Cbv { .. }, RootParam::Cbv)
            | (Argument::Srv { .. }, RootParam::Srv)
            | (Argument::Uav { .. }, RootParam::Uav) => {}
            _ => {
                return Err(invalid(format!(
                    "argument {i}: root parameter {index} is a {param:?}, not what the argument sets"
                )))
            }
        }
        let start = match a {
            Argument::Constant { dest_offset, .. } => *dest_offset,
            _ => 0,
        };
        if let Some((p, end)) = prev {
            let same_constants = p == index && matches!(a, Argument::Constant { .. });
            if index < p || (index == p && !same_constants) {
                return Err(invalid(format!("argument {i}: root parameter {index} is out of order or set twice")));
            }
            if same_constants && start < end {
                return Err(invalid(format!(
                    "argument {i}: root constants overlap or are not sorted by DestOffsetIn32BitValues"
                )));
            }
        }
        let end = match a {
            Argument::Constant { dest_offset, count, .. } => dest_offset + count,
            _ => u32::MAX,
        };
        prev = Some((index, end));
    }
    Ok(())
}

/// The command list type ExecuteIndirect is recorded on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListKind {
    /// DIRECT.
    Direct,
    /// BUNDLE.
    Bundle,
    /// COMPUTE.
    Compute,
    /// COPY or video.
    Other,
}

/// Why an ExecuteIndirect call is invalid (E_INVALIDARG at Close, or E_FAIL for the list type).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum IndirectError {
    /// The list type cannot execute this signature.
    ListType(String),
    /// The arguments are invalid.
    Invalid(String),
}

/// Checks an ExecuteIndirect call: `args` is (buffer width, ArgumentBufferOffset) and `count`
/// the same for the count buffer, if any.
pub fn execute_indirect(
    sig: &CommandSignature,
    list: ListKind,
    max_count: u32,
    args: (u64, u64),
    count: Option<(u64, u64)>,
) -> Result<(), IndirectError> {
    let bad = |m: String| Err(IndirectError::Invalid(m));
    match (list, sig.kind) {
        (ListKind::Direct, _) | (ListKind::Bundle, _) | (ListKind::Compute, SignatureKind::Compute) => {}
        (ListKind::Compute, SignatureKind::Graphics) => {
            return Err(IndirectError::ListType("a drawing command signature needs a direct command list".into()))
        }
        (ListKind::Other, _) => {
            return Err(IndirectError::ListType("ExecuteIndirect needs a direct or compute command list".into()))
        }
    }
    if list == ListKind::Bundle {
        if count.is_some() {
            return bad("in a bundle, ExecuteIndirect cannot use a count buffer".into());
        }
        if sig.arguments.len() != 1 {
            return bad("in a bundle, the command signature must hold only the draw or dispatch argument".into());
        }
    }
    let (width, offset) = args;
    if !offset.is_multiple_of(4) {
        return bad(format!("ArgumentBufferOffset {offset} is not a multiple of 4"));
    }
    if max_count > 0 {
        let end = offset as u128 + sig.byte_stride as u128 * (max_count as u128 - 1) + sig.command_size as u128;
        if end > width as u128 {
            return bad(format!(
                "{max_count} commands of stride {} from offset {offset} need {end} bytes; the argument buffer has {width}",
                sig.byte_stride
            ));
        }
    }
    if let Some((width, offset)) = count {
        if !offset.is_multiple_of(4) {
            return bad(format!("CountBufferOffset {offset} is not a multiple of 4"));
        }
        if offset as u128 + 4 > width as u128 {
            return bad(format!(
                "CountBufferOffset {offset} leaves no 4-byte count inside the {width}-byte count buffer"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use sys::*;

    fn a(ty: D3D12_INDIRECT_ARGUMENT_TYPE, w: [u32; 3]) -> ArgumentDesc {
        ArgumentDesc { ty: ty.0, words: w }
    }
    const DRAW: ArgumentDesc = ArgumentDesc { ty: 0, words: [0; 3] };
    const DRAW_INDEXED: ArgumentDesc = ArgumentDesc { ty: 1, words: [0; 3] };
    const DISPATCH: ArgumentDesc = ArgumentDesc { ty: 2, words: [0; 3] };

    fn root() -> RootSignatureInfo {
        RootSignatureInfo {
            blob: Vec::new(),
            flags: 0,
            params: vec![
                RootParam::Table,
                RootParam::Constants { num_values: 4 },
                RootParam::Cbv,
                RootParam::Srv,
                RootParam::Uav,
                RootParam::Constants { num_values: 1 },
            ],
        }
    }

    fn sig(stride: u32, d: &[ArgumentDesc], r: Option<&RootSignatureInfo>) -> Result<CommandSignature, PsoError> {
        command_signature(stride, d, 0, 1, r)
    }

    #[track_caller]
    fn bad(stride: u32, d: &[ArgumentDesc], r: Option<&RootSignatureInfo>) {
        let e = sig(stride, d, r).unwrap_err();
        assert_eq!((e.hr, e.id.0), (E_INVALIDARG, D3D12_MESSAGE_ID_CREATECOMMANDSIGNATURE_INVALID.0), "{e}");
    }

    #[test]
    fn plain_signatures_and_their_sizes() {
        for (d, size, kind) in [
            (DRAW, 16, SignatureKind::Graphics),
            (DRAW_INDEXED, 20, SignatureKind::Graphics),
            (DISPATCH, 12, SignatureKind::Compute),
        ] {
            let s = sig(size, &[d], None).unwrap();
            assert_eq!((s.command_size, s.kind, s.node_mask), (size, kind, 1));
            bad(size - 4, &[d], None);
            bad(size + 2, &[d], None);
            assert!(sig(size + 100, &[d], None).is_ok(), "any larger multiple of 4");
        }
    }

    #[test]
    fn spec_example_root_constants_and_vertex_buffer() {
        // IndirectDrawing.md "Root Constants + Vertex Buffers": 4 + 4 + 16 + 16 = 40 bytes.
        let mut r = root();
        r.params = vec![RootParam::Table; 7];
        r.params[2] = RootParam::Constants { num_values: 1 };
        r.params[6] = RootParam::Constants { num_values: 1 };
        let d = [
            a(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, [2, 0, 1]),
            a(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, [6, 0, 1]),
            a(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, [3, 0, 0]),
            DRAW,
        ];
        let s = sig(40, &d, Some(&r)).unwrap();
        let offsets: Vec<u32> = s.arguments.iter().map(|x| x.1).collect();
        assert_eq!(offsets, [0, 4, 8, 24]);
        assert_eq!(s.command_size, 40);
        bad(36, &d, Some(&r));
    }

    #[test]
    fn exactly_one_operation_and_it_is_last() {
        bad(16, &[], None);
        bad(32, &[DRAW, DRAW], None);
        bad(32, &[DISPATCH, DRAW], None);
        bad(32, &[a(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, [0; 3])], None);
        bad(32, &[DRAW, a(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, [0; 3])], None);
        for unsupported in [
            D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_RAYS,
            D3D12_INDIRECT_ARGUMENT_TYPE_DISPATCH_MESH,
            D3D12_INDIRECT_ARGUMENT_TYPE(11),
            D3D12_INDIRECT_ARGUMENT_TYPE(u32::MAX),
        ] {
            bad(256, &[a(unsupported, [0; 3])], None);
        }
    }

    #[test]
    fn buffer_view_arguments() {
        let vb = |slot| a(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, [slot, 0, 0]);
        let ibv = a(D3D12_INDIRECT_ARGUMENT_TYPE_INDEX_BUFFER_VIEW, [0; 3]);
        assert!(sig(52, &[vb(0), vb(31), DRAW_INDEXED], None).is_ok());
        bad(52, &[vb(32), DRAW], None);
        bad(52, &[vb(1), vb(1), DRAW], None);
        bad(28, &[vb(0), DISPATCH], None);
        assert_eq!(sig(36, &[ibv, DRAW_INDEXED], None).unwrap().command_size, 36);
        bad(36, &[ibv, DRAW], None);
        bad(36, &[ibv, DISPATCH], None);
        bad(52, &[ibv, ibv, DRAW_INDEXED], None);
    }

    #[test]
    fn root_signature_if_and_only_if_root_arguments() {
        let c = a(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, [1, 0, 2]);
        bad(24, &[c, DRAW], None);
        assert!(sig(24, &[c, DRAW], Some(&root())).is_ok());
        bad(16, &[DRAW], Some(&root()));
    }

    #[test]
    fn root_arguments_match_the_root_signature() {
        let r = root();
        let k = |i, off, n| a(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT, [i, off, n]);
        let cbv = |i| a(D3D12_INDIRECT_ARGUMENT_TYPE_CONSTANT_BUFFER_VIEW, [i, 0, 0]);
        let srv = |i| a(D3D12_INDIRECT_ARGUMENT_TYPE_SHADER_RESOURCE_VIEW, [i, 0, 0]);
        let uav = |i| a(D3D12_INDIRECT_ARGUMENT_TYPE_UNORDERED_ACCESS_VIEW, [i, 0, 0]);
        let ok = |d: &[ArgumentDesc]| sig(256, d, Some(&r)).unwrap();
        let s = ok(&[k(1, 0, 4), cbv(2), srv(3), uav(4), k(5, 0, 1), DISPATCH]);
        assert_eq!(s.command_size, 16 + 8 + 8 + 8 + 4 + 12);
        // Split constants, sorted and disjoint.
        ok(&[k(1, 0, 1), k(1, 2, 2), DRAW]);
        bad(256, &[k(1, 2, 2), k(1, 0, 1), DRAW], Some(&r));
        bad(256, &[k(1, 0, 2), k(1, 1, 2), DRAW], Some(&r));
        // Wrong parameter kinds, beyond the signature, out of range constants, zero values.
        bad(256, &[k(0, 0, 1), DRAW], Some(&r));
        bad(256, &[cbv(3), DRAW], Some(&r));
        bad(256, &[srv(4), DRAW], Some(&r));
        bad(256, &[uav(2), DRAW], Some(&r));
        bad(256, &[cbv(6), DRAW], Some(&r));
        bad(256, &[k(1, 3, 2), DRAW], Some(&r));
        bad(256, &[k(1, u32::MAX, 2), DRAW], Some(&r));
        bad(256, &[k(1, 0, 0), DRAW], Some(&r));
        // Sorted by root index, each view index once.
        bad(256, &[srv(3), cbv(2), DRAW], Some(&r));
        bad(256, &[cbv(2), cbv(2), DRAW], Some(&r));
    }

    #[test]
    fn node_masks() {
        assert_eq!(command_signature(16, &[DRAW], 1, 1, None).unwrap().node_mask, 1);
        assert!(command_signature(16, &[DRAW], 2, 1, None).is_err());
    }

    #[test]
    fn execute_indirect_ranges() {
        let s = sig(32, &[DRAW_INDEXED], None).unwrap(); // 20 bytes of arguments, stride 32
        let ok = |max, args, count| execute_indirect(&s, ListKind::Direct, max, args, count);
        // 3 commands from offset 4: 4 + 32 * 2 + 20 = 88.
        assert!(ok(3, (88, 4), None).is_ok());
        assert!(ok(3, (87, 4), None).is_err());
        assert!(ok(0, (0, 0), None).is_ok(), "no command reads nothing");
        assert!(ok(1, (20, 0), None).is_ok());
        assert!(ok(1, (64, 2), None).is_err(), "unaligned offset");
        assert!(ok(u32::MAX, (u64::MAX, 0), None).is_ok());
        assert!(ok(2, (u64::MAX, u64::MAX - 3), None).is_err(), "no overflow");
        assert!(ok(1, (64, 0), Some((4, 0))).is_ok());
        assert!(ok(1, (64, 0), Some((4, 4))).is_err());
        assert!(ok(1, (64, 0), Some((16, 6))).is_err());
    }

    #[test]
    fn execute_indirect_list_types_and_bundles() {
        let draw = sig(16, &[DRAW], None).unwrap();
        let dispatch = sig(12, &[DISPATCH], None).unwrap();
        let args = (64, 0);
        assert!(execute_indirect(&dispatch, ListKind::Compute, 1, args, None).is_ok());
        assert!(matches!(execute_indirect(&draw, ListKind::Compute, 1, args, None), Err(IndirectError::ListType(_))));
        assert!(matches!(execute_indirect(&dispatch, ListKind::Other, 1, args, None), Err(IndirectError::ListType(_))));
        assert!(execute_indirect(&draw, ListKind::Bundle, 1, args, None).is_ok());
        assert!(execute_indirect(&draw, ListKind::Bundle, 1, args, Some((4, 0))).is_err());
        let vb = a(D3D12_INDIRECT_ARGUMENT_TYPE_VERTEX_BUFFER_VIEW, [0; 3]);
        let two = sig(32, &[vb, DRAW], None).unwrap();
        assert!(execute_indirect(&two, ListKind::Bundle, 1, args, None).is_err());
        assert!(execute_indirect(&two, ListKind::Direct, 1, args, None).is_ok());
    }
}
