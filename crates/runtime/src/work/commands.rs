//! Recorded commands: what a closed command list hands to a queue. Every resource is reached
//! through [`Memory`] (shared ownership of its bytes, no COM reference), so executing work stays
//! memory-safe whatever the application does with its objects meanwhile.

use crate::work::memory::Memory;
use crate::work::queries::QueryData;
use rd3d12_core::copy::CopyPlan;
use rd3d12_sys::*;
use std::sync::{Arc, Mutex};

/// A subresource's state as executed work leaves it, and whether it got there by implicit
/// promotion (decay rule 4 of commands-and-sync.md §4.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SubState {
    pub state: u32,
    pub promoted: bool,
}

/// Per-subresource states of a resource, shared with executing work.
pub type States = Arc<Mutex<Box<[SubState]>>>;

/// A texture side of a copy: the memory and, for reserved textures, which subresource the plan's
/// surface is (tiled textures are addressed through their tile map).
#[derive(Clone)]
pub struct TexSide {
    pub memory: Memory,
    pub desc: D3D12_RESOURCE_DESC1,
}

pub enum Command {
    /// CopyBufferRegion (and CopyResource of buffers).
    CopyBuffer { dst: Memory, dst_offset: u64, src: Memory, src_offset: u64, bytes: u64 },
    /// CopyTextureRegion / CopyResource of textures: row copies described by the plan.
    CopyTexture { dst: TexSide, src: TexSide, plan: Box<CopyPlan> },
    /// CopyTiles: whole 64 KB tiles between a reserved resource and a linear buffer.
    CopyTiles { tiles: Memory, tile_indices: Vec<u32>, buffer: Memory, buffer_offset: u64, to_tiles: bool },
    /// A transition barrier: the subresource's (or every subresource's) state afterwards.
    Transition { states: States, subresource: u32, after: u32 },
    /// EndQuery on a timestamp heap: the clock at execution.
    Timestamp { data: Arc<QueryData>, index: u32 },
    /// End of another query: occlusion and statistics count nothing while nothing is drawn.
    QueryEnd { data: Arc<QueryData>, index: u32, ty: D3D12_QUERY_TYPE },
    /// BeginQuery of an occlusion, pipeline-statistics or stream-output query: the counters
    /// are noted so EndQuery reports what happened in between.
    QueryBegin { data: Arc<QueryData>, index: u32 },
    /// ResolveQueryData.
    Resolve { data: Arc<QueryData>, ty: D3D12_QUERY_TYPE, start: u32, count: u32, dst: Memory, offset: u64 },
    /// WriteBufferImmediate: one 32-bit value.
    WriteImmediate { dst: Memory, offset: u64, value: u32 },
    /// AtomicCopyBufferUINT / UINT64: an atomic read of the source and write of the destination.
    AtomicCopy { dst: Memory, dst_offset: u64, src: Memory, src_offset: u64, wide: bool },
    /// SetPredication (None clears it).
    Predication(Option<(Memory, u64, D3D12_PREDICATION_OP)>),
    /// ExecuteBundle: the bundle's commands, executed in place in their recorded order; each
    /// of its draws and dispatches (`BundleWork`) runs as the next of the commands made of it
    /// with the executing list's state (the second field, one per `BundleWork`).
    Bundle(Box<(Arc<Recorded>, Vec<Command>)>),
    /// A clear (ClearRenderTargetView / ClearDepthStencilView / ClearUnorderedAccessView*):
    /// one element pattern written over rectangles of the resource.
    Fill { memory: Memory, fills: Vec<rd3d12_core::clear::Fill>, element: [u8; 16], element_bytes: u32 },
    /// ResolveSubresource / ResolveSubresourceRegion: the samples of `src` combined into
    /// `dst` (or copied, for DECOMPRESS) as the plan says.
    ResolveTexture { dst: Memory, src: Memory, plan: Box<rd3d12_core::resolve::ResolvePlan> },
    /// ID3D12DebugCommandList::AssertResourceState deferred to execution: the subresource's
    /// state when the list runs must be `state` (a debug-layer message otherwise).
    AssertState { states: States, id: u64, sub: u32, state: u32 },
    /// A draw with everything it reads resolved as far as recording can (see [`DrawWork`]).
    Draw(Box<DrawWork>),
    /// A dispatch (see [`DispatchWork`]).
    Dispatch(Box<DispatchWork>),
    /// ExecuteIndirect (see [`IndirectWork`]).
    Indirect(Box<IndirectWork>),
    /// In a bundle: a draw, dispatch or ExecuteIndirect with the bundle's state when it was
    /// recorded; ExecuteBundle turns it into Draw / Dispatch / Indirect with the executing
    /// list's state merged in. Nothing when the bundle's own commands run.
    BundleWork(Box<(crate::work::state::GraphicsState, BundleWork)>),
    /// A draw, dispatch or ExecuteIndirect (`what`) that the CPU backend does not execute, and
    /// why: recorded and validated, reported as skipped when it executes.
    /// A PIX-style marker of the list: kind 0 SetMarker, 1 BeginEvent, 2 EndEvent, with the
    /// metadata and bytes the program passed. Nothing executes; the trace shows it.
    Marker(Box<(u8, u32, Vec<u8>)>),
    ShaderWork {
        /// "draw", "dispatch" or "set of indirect commands" (an ExecuteIndirect).
        what: &'static str,
        /// The reason (the pipeline's kind, its shaders' bytecode, an unreadable program).
        why: String,
    },
}

impl Command {
    /// Whether SetPredication can skip the command (docs: draws, dispatches, clears, copies and
    /// ResolveSubresource; not queries, resolves of query data or barriers).
    pub fn predicated(&self) -> bool {
        matches!(
            self,
            Command::CopyBuffer { .. }
                | Command::CopyTexture { .. }
                | Command::CopyTiles { .. }
                | Command::Fill { .. }
                | Command::ResolveTexture { .. }
                | Command::Draw(_)
                | Command::Dispatch(_)
                | Command::Indirect(_)
                | Command::ShaderWork { .. }
        )
    }
}

/// Where executing shaders find descriptors, viewed resources and buffer addresses: the
/// device's registries, shared (no COM reference on the device).
#[derive(Clone)]
pub struct Lookup {
    pub heaps: Arc<crate::work::descriptors::HeapRegistry>,
    pub resources: Arc<crate::work::descriptors::ResourceRegistry>,
    pub va: Arc<crate::work::va::VaRegistry>,
}

/// A view read when the draw was recorded (RTVs and DSVs: OMSetRenderTargets captures the
/// descriptors, D3D12 semantics) with its resource.
#[derive(Clone)]
pub struct BoundView {
    pub view: rd3d12_core::descriptor::Descriptor,
    pub resource: crate::work::descriptors::ResourceEntry,
}

/// Which vertices a draw reads.
#[derive(Clone, Copy, Debug)]
pub enum DrawRange {
    /// DrawInstanced.
    Vertices { count: u32, start: u32 },
    /// DrawIndexedInstanced.
    Indexed { count: u32, start_index: u32, base_vertex: i32 },
}

/// What shaders read through the root signature: the bound root signature, its arguments
/// (descriptor tables are read at execution, as the GPU reads them) and where descriptors,
/// resources and addresses are found.
#[derive(Clone)]
pub struct Binds {
    pub root: Option<Arc<rd3d12_core::root_signature::RootSignatureDesc>>,
    /// (parameter index, argument).
    pub root_args: Vec<(u32, crate::work::state::RootArg)>,
    pub lookup: Lookup,
}

impl DrawWork {
    /// A copy for one command of an ExecuteIndirect to change.
    pub fn clone_for_indirect(&self) -> DrawWork {
        DrawWork {
            pipeline: self.pipeline.clone(),
            binds: self.binds.clone(),
            topology: self.topology,
            viewports: self.viewports.clone(),
            scissors: self.scissors.clone(),
            blend_factor: self.blend_factor,
            stencil_ref: self.stencil_ref,
            sample_positions: self.sample_positions.clone(),
            vertex_buffers: self.vertex_buffers.clone(),
            index_buffer: self.index_buffer.clone(),
            range: self.range,
            instances: self.instances,
            start_instance: self.start_instance,
            render_targets: self.render_targets.clone(),
            depth_stencil: self.depth_stencil.clone(),
            stream_output: self.stream_output.clone(),
        }
    }
}

/// A stream-output buffer view (SOSetTargets) resolved when the draw was recorded: the view's
/// SizeInBytes bytes from BufferLocation, and where its 32-bit BufferFilledSize lies.
#[derive(Clone)]
pub struct SoTarget {
    pub memory: Memory,
    pub offset: u64,
    pub size: u64,
    pub filled: (Memory, u64),
}

/// A bundle's shader work, completed at ExecuteBundle.
pub enum BundleWork {
    Draw {
        range: DrawRange,
        instances: u32,
        start_instance: u32,
    },
    Dispatch([u32; 3]),
    Indirect {
        layout: rd3d12_core::indirect::CommandSignature,
        max: u32,
        args: (Memory, u64),
        count: Option<(Memory, u64)>,
    },
}

/// ExecuteIndirect: the command signature, at most `max` commands read at execution from the
/// argument buffer (`count` bounds them by the count buffer's value), each changing the
/// state `base` starts from as its arguments say, then drawing or dispatching.
pub struct IndirectWork {
    pub layout: rd3d12_core::indirect::CommandSignature,
    pub max: u32,
    pub args: (Memory, u64),
    pub count: Option<(Memory, u64)>,
    pub base: IndirectBase,
}

/// The state an ExecuteIndirect's commands start from.
pub enum IndirectBase {
    Draw(Box<DrawWork>),
    Dispatch(Box<DispatchWork>),
}

/// One Dispatch: the compute pipeline, its bindings and the thread-group counts.
pub struct DispatchWork {
    pub pipeline: Arc<crate::work::pipeline::Executable>,
    pub binds: Binds,
    pub groups: [u32; 3],
}

/// One DrawInstanced / DrawIndexedInstanced: the pipeline, its bindings, the input
/// assembler's buffers, the rasterizer and output-merger state, and the bound targets.
pub struct DrawWork {
    pub pipeline: Arc<crate::work::pipeline::Executable>,
    pub binds: Binds,
    pub topology: u32,
    /// RSSetViewports and RSSetScissorRects: a primitive picks one with SV_ViewportArrayIndex.
    pub viewports: Vec<D3D12_VIEWPORT>,
    pub scissors: Vec<D3D12_RECT>,
    pub blend_factor: [f32; 4],
    pub stencil_ref: u32,
    /// SetSamplePositions: one pixel's pattern (empty: the standard pattern).
    pub sample_positions: Vec<(i8, i8)>,
    /// By slot: (memory, offset, SizeInBytes, StrideInBytes).
    pub vertex_buffers: Vec<Option<(Memory, u64, u32, u32)>>,
    /// (memory, offset, SizeInBytes, Format).
    pub index_buffer: Option<(Memory, u64, u32, DXGI_FORMAT)>,
    pub range: DrawRange,
    pub instances: u32,
    pub start_instance: u32,
    pub render_targets: Vec<Option<BoundView>>,
    pub depth_stencil: Option<BoundView>,
    /// By slot, when the pipeline declares stream output.
    pub stream_output: Vec<Option<SoTarget>>,
}

/// Per-resource facts for state promotion and decay at execution.
pub struct Touched {
    /// The identity the list's state tracker knows the resource by.
    pub id: u64,
    pub states: States,
    pub is_buffer: bool,
    pub simultaneous: bool,
}

/// A closed command list's work.
pub struct Recorded {
    pub commands: Vec<Command>,
    pub touched: Vec<Touched>,
    /// What the list does to each subresource's state (implicit promotion, barriers), applied
    /// in queue order after the list's commands.
    pub ends: Vec<rd3d12_core::states::SubresourceEnd>,
    /// A bundle's state at Close: what it leaves set in the list that executes it.
    pub bundle_state: Option<Box<crate::work::state::GraphicsState>>,
}
