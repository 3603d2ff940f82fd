//! ID3D12GraphicsCommandList (up to ID3D12GraphicsCommandList8, the newest in the headers).
//!
//! Recording methods return void: an invalid call is dropped and its error remembered; Close
//! then returns it (E_INVALIDARG for invalid arguments, E_FAIL for a method illegal on the
//! list's type), and a list whose Close failed can never be reset (the error is sticky).
//! Copies, barriers, queries, predication, WriteBufferImmediate and atomic copies execute on the
//! queue; pipeline state is recorded for the shader issue; work that needs shaders (draws,
//! dispatches, clears) is validated and recorded, does nothing until shaders execute, and
//! prints one warning per device the first time.
//!
//! This file holds the list object, its lifecycle (creation, Close, Reset, ClearState) and the
//! vtable; the recording methods live by concern in the submodules: `copies`, `barriers`,
//! `queries`, `writes`, `markers`, `clears`, `render_passes`, `state` (fixed-function and
//! pipeline state), `binding` (descriptor heaps, root signatures, root arguments), `draws`
//! (draws, dispatches, ExecuteIndirect, bundles) with the debug layer's checks of their state
//! in `validation`, and `unsupported` (features the adapter reports absent). What a list
//! records is plain data of [`crate::work`]; recording never executes anything.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12graphicscommandlist>

use crate::com::{downcast, Child, Class, Object, Ptr};
use crate::command_allocator::{AllocatorState, CommandAllocator};
use crate::descriptor_heap;
use crate::descriptor_heap::DescriptorHeap;
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Message, Result};
use crate::query_heap::{self, QueryHeap};
use crate::resource::{Backing, Resource};
use crate::root_signature::RootSignature;
use crate::work::commands::{
    Binds, BoundView, BundleWork, Command, DispatchWork, DrawRange, DrawWork, IndirectBase, IndirectWork, Lookup,
    Recorded, TexSide, Touched,
};
use crate::work::state::{GraphicsState, RootArg, RootView};
use rd3d12_core::clear;
use rd3d12_core::copy::{self, Location, Side};
use rd3d12_core::descriptor::{Descriptor, Kind};
use rd3d12_core::pack;
use rd3d12_core::resolve;
use rd3d12_core::root_signature::{check_root_set, RootSet, RootSlot};
use rd3d12_core::states::{self, HeapKind, ListStates, ListType};
use rd3d12_core::Caps;
use rd3d12_sys::*;
use std::collections::HashSet;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

mod barriers;
mod binding;
mod clears;
mod copies;
mod draws;
mod markers;
mod queries;
mod render_passes;
mod state;
mod unsupported;
mod validation;
mod writes;

use barriers::*;
use binding::*;
use clears::*;
use copies::*;
use draws::*;
use markers::*;
use queries::*;
use render_passes::*;
use state::*;
use unsupported::*;
use validation::*;
use writes::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    Recording,
    Closed,
    /// Close failed with this HRESULT: Reset returns it forever.
    Failed(HRESULT),
}

struct ListState {
    phase: Phase,
    /// The recording method being run (for debug-layer messages raised inside it).
    method: &'static str,
    allocator: Option<Arc<AllocatorState>>,
    generation: u64,
    commands: Vec<Command>,
    touched: Vec<Touched>,
    touched_ids: HashSet<usize>,
    error: Option<Error>,
    tracker: ListStates,
    open_queries: HashSet<(usize, u32)>,
    in_render_pass: bool,
    /// The RESOLVE ending accesses of the open render pass, performed at EndRenderPass.
    pass_resolves: Vec<PassResolve>,
    gfx: GraphicsState,
    event_depth: u32,
    recorded: Option<Arc<Recorded>>,
}

impl ListState {
    fn new(phase: Phase) -> Self {
        ListState {
            phase,
            method: "",
            allocator: None,
            generation: 0,
            commands: Vec::new(),
            touched: Vec::new(),
            touched_ids: HashSet::new(),
            error: None,
            tracker: ListStates::default(),
            open_queries: HashSet::new(),
            in_render_pass: false,
            pass_resolves: Vec::new(),
            gfx: GraphicsState::default(),
            event_depth: 0,
            recorded: None,
        }
    }

    fn touch(&mut self, r: &Object<Resource>) {
        let id = r as *const _ as usize;
        if self.touched_ids.insert(id) {
            let flags = r.inner.desc.Flags.0;
            self.touched.push(Touched {
                id: id as u64,
                states: r.inner.states().clone(),
                is_buffer: r.inner.is_buffer(),
                simultaneous: flags & D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS.0 != 0,
            });
        }
    }

    /// A use of `sub` (or every subresource) in `state` by a copy or query resolve: the list's
    /// tracker promotes COMMON implicitly or checks the state; mismatches are debug-layer
    /// findings, kept for it.
    fn use_as(&mut self, r: &Object<Resource>, sub: u32, state: u32) {
        self.touch(r);
        let flags = r.inner.desc.Flags.0;
        let loose = r.inner.is_buffer() || flags & D3D12_RESOURCE_FLAG_ALLOW_SIMULTANEOUS_ACCESS.0 != 0;
        let id = r as *const _ as u64;
        if let Some(v) = self.tracker.use_as(id, r.inner.subresource_count, loose, sub, state) {
            crate::debug::report_list_parts(
                self.method,
                D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR,
                v.id.0,
                &v.message,
            );
        }
    }
}

pub struct CommandList {
    device: Ptr<Device>,
    pub ty: D3D12_COMMAND_LIST_TYPE,
    state: Mutex<ListState>,
    /// The ID3D12DebugCommandList2 facet (debug layer on; made on first QueryInterface).
    debug_facet: std::sync::OnceLock<Ptr<crate::debug_objects::DebugCommandList>>,
}

fn list_type(t: D3D12_COMMAND_LIST_TYPE) -> ListType {
    match t {
        D3D12_COMMAND_LIST_TYPE_BUNDLE => ListType::Bundle,
        D3D12_COMMAND_LIST_TYPE_COMPUTE => ListType::Compute,
        D3D12_COMMAND_LIST_TYPE_COPY => ListType::Copy,
        _ => ListType::Direct,
    }
}

fn heap_kind(r: &Resource) -> HeapKind {
    if matches!(r.backing, Backing::Reserved { .. }) {
        return HeapKind::Reserved;
    }
    match r.heap_props.Type {
        D3D12_HEAP_TYPE_UPLOAD => HeapKind::Upload,
        D3D12_HEAP_TYPE_READBACK => HeapKind::Readback,
        D3D12_HEAP_TYPE_CUSTOM => HeapKind::Custom,
        _ => HeapKind::Default,
    }
}

/// A recording error with its debug-layer message.
/// A recording error: E_INVALIDARG at Close, and the debug layer's message in the category
/// Microsoft files the ID under.
fn rec_err(id: D3D12_MESSAGE_ID, text: impl Into<std::borrow::Cow<'static, str>>) -> Error {
    let category = rd3d12_core::info_queue::default_category(id.0);
    Error::invalid_arg(id, D3D12_MESSAGE_CATEGORY(category as _), text)
}

fn violation(v: states::Violation) -> Error {
    rec_err(D3D12_MESSAGE_ID(v.id.0), v.message)
}

/// A method that is illegal on the list's type: Close returns E_FAIL.
fn wrong_list_type(what: &'static str) -> Error {
    Error {
        hr: E_FAIL,
        message: Some(Message {
            id: D3D12_MESSAGE_ID_CREATE_COMMAND_LIST_INVALID_COMMAND_LIST_TYPE,
            category: D3D12_MESSAGE_CATEGORY_EXECUTION,
            severity: D3D12_MESSAGE_SEVERITY_ERROR,
            text: what.into(),
        }),
    }
}

impl CommandList {
    fn new(device: Ptr<Device>, ty: D3D12_COMMAND_LIST_TYPE, phase: Phase) -> Ptr<CommandList> {
        Ptr::new(CommandList {
            device,
            ty,
            state: Mutex::new(ListState::new(phase)),
            debug_facet: std::sync::OnceLock::new(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, ListState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// What ExecuteCommandLists submits, or None when the list may not be executed on a queue
    /// of `queue_type` (still recording, failed Close, wrong type, bundle, allocator reset since
    /// recording).
    /// What ExecuteCommandLists on a queue of `queue_type` runs, or why the list cannot be
    /// submitted (the debug layer's ID and text).
    pub fn submission(
        &self,
        queue_type: D3D12_COMMAND_LIST_TYPE,
    ) -> std::result::Result<Arc<Recorded>, (D3D12_MESSAGE_ID, &'static str)> {
        if self.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
            return Err((
                D3D12_MESSAGE_ID_EXECUTECOMMANDLISTS_BUNDLENOTSUPPORTED,
                "bundles cannot be submitted to a queue",
            ));
        }
        if self.ty != queue_type {
            return Err((
                D3D12_MESSAGE_ID_EXECUTECOMMANDLISTS_COMMANDLISTMISMATCH,
                "the command list type does not match the queue type",
            ));
        }
        let s = self.lock();
        match s.phase {
            Phase::Recording => {
                return Err((D3D12_MESSAGE_ID_EXECUTECOMMANDLISTS_OPENCOMMANDLIST, "the command list is not closed"))
            }
            Phase::Failed(_) => {
                return Err((
                    D3D12_MESSAGE_ID_EXECUTECOMMANDLISTS_FAILEDCOMMANDLIST,
                    "the command list failed to close (an invalid call was recorded)",
                ))
            }
            Phase::Closed => {}
        }
        if let Some(a) = &s.allocator {
            if a.generation() != s.generation {
                return Err((
                    D3D12_MESSAGE_ID_COMMAND_ALLOCATOR_SYNC,
                    "the command list's allocator was reset after the list was recorded",
                ));
            }
        }
        s.recorded
            .clone()
            .ok_or((D3D12_MESSAGE_ID_EXECUTECOMMANDLISTS_OPENCOMMANDLIST, "the command list has no recorded work"))
    }

    /// ID3D12DebugCommandList::AssertResourceState: where the list knows the subresource's state
    /// (a barrier or promotion earlier in the list), the answer now; otherwise the check is
    /// recorded and made when the list executes, against the state the queue leaves the
    /// resource in (TRUE now, the debug layer's message then if it fails).
    pub(crate) fn assert_state(&self, r: &Object<Resource>, sub: u32, state: u32) -> bool {
        let mut s = self.lock();
        let id = r as *const Object<Resource> as u64;
        let subs: Vec<u32> = if sub == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES {
            (0..r.inner.subresource_count).collect()
        } else if sub < r.inner.subresource_count {
            vec![sub]
        } else {
            return false;
        };
        let mut ok = true;
        for &k in &subs {
            match s.tracker.state_of(id, k) {
                Some(cur) if cur != state => {
                    ok = false;
                    crate::debug::report_list_parts(
                        "AssertResourceState",
                        D3D12_MESSAGE_CATEGORY_EXECUTION,
                        D3D12_MESSAGE_SEVERITY_ERROR,
                        D3D12_MESSAGE_ID_INVALID_SUBRESOURCE_STATE.0,
                        &format!(
                            "Resource 0x{id:016X} subresource {k} is in state 0x{cur:x}, not the asserted 0x{state:x}."
                        ),
                    );
                }
                Some(_) => {}
                None => {
                    if s.phase == Phase::Recording {
                        s.commands.push(Command::AssertState { states: r.inner.states().clone(), id, sub: k, state });
                    }
                }
            }
        }
        ok
    }

    fn caps(&self) -> &Caps {
        self.device.inner.caps()
    }

    fn warn_shader_work(&self, what: &str) {
        use std::sync::atomic::Ordering;
        if crate::debug::log_enabled(crate::debug::Level::Warn)
            && !self.device.inner.warned_shader_work.swap(true, Ordering::Relaxed)
        {
            eprintln!(
                "rd3d12: warning: {what} uses shaders the CPU backend does not execute yet (DXBC \
                 bytecode, mesh or amplification shaders, or DXIL it cannot read); such draws and \
                 dispatches are validated and recorded but produce no output"
            );
        }
    }
}

impl Drop for CommandList {
    fn drop(&mut self) {
        let id = self as *const CommandList as usize;
        let s = self.state.get_mut().unwrap_or_else(|e| e.into_inner());
        if s.phase == Phase::Recording {
            if let Some(a) = &s.allocator {
                a.end(id);
            }
        }
    }
}

/// CreateCommandList: the list records into `allocator` from the start.
pub fn create(
    device: &Object<Device>,
    node_mask: u32,
    ty: D3D12_COMMAND_LIST_TYPE,
    allocator: Option<&Object<CommandAllocator>>,
    initial: *mut ID3D12PipelineState,
) -> Result<Ptr<CommandList>> {
    device.inner.check_alive()?;
    if node_mask > 1 {
        return Err(Error::INVALID_ARG);
    }
    let alloc = allocator.ok_or_else(|| {
        rec_err(D3D12_MESSAGE_ID_CREATECOMMANDLIST_NULL_COMMANDALLOCATOR, "pCommandAllocator is NULL")
    })?;
    let valid = [
        D3D12_COMMAND_LIST_TYPE_DIRECT,
        D3D12_COMMAND_LIST_TYPE_BUNDLE,
        D3D12_COMMAND_LIST_TYPE_COMPUTE,
        D3D12_COMMAND_LIST_TYPE_COPY,
    ];
    if !valid.contains(&ty) || alloc.inner.ty != ty {
        return Err(rec_err(
            D3D12_MESSAGE_ID_CREATE_COMMAND_LIST_INVALID_COMMAND_LIST_TYPE,
            "the allocator's type differs from the list's",
        ));
    }
    let list = CommandList::new(Ptr::from_ref(device), ty, Phase::Closed);
    let id = &list.inner as *const CommandList as usize;
    let generation = alloc.inner.state.begin(id)?;
    {
        let mut s = list.inner.lock();
        s.phase = Phase::Recording;
        s.allocator = Some(alloc.inner.state.clone());
        s.generation = generation;
        // pInitialState: the pipeline state the list starts with (as Reset's).
        s.gfx.pipeline = initial as usize;
        s.gfx.executable = executable(initial);
    }
    Ok(list)
}

/// ID3D12Device4::CreateCommandList1: a closed list with no allocator; flags must be NONE.
pub fn create1(
    device: &Object<Device>,
    node_mask: u32,
    ty: D3D12_COMMAND_LIST_TYPE,
    flags: u32,
) -> Result<Ptr<CommandList>> {
    device.inner.check_alive()?;
    let valid = [
        D3D12_COMMAND_LIST_TYPE_DIRECT,
        D3D12_COMMAND_LIST_TYPE_BUNDLE,
        D3D12_COMMAND_LIST_TYPE_COMPUTE,
        D3D12_COMMAND_LIST_TYPE_COPY,
    ];
    if flags != 0 || node_mask > 1 || !valid.contains(&ty) {
        return Err(Error::INVALID_ARG);
    }
    Ok(CommandList::new(Ptr::from_ref(device), ty, Phase::Closed))
}

type Iface = ID3D12GraphicsCommandList8;

// SAFETY: LIST_VTBL's slots all take an Object<CommandList>.
unsafe impl Class for CommandList {
    type Vtbl = ID3D12GraphicsCommandList8Vtbl;
    /// ID3D12DebugCommandList / 2 when the device has the debug layer.
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut c_void> {
        crate::debug_objects::DebugCommandList::query(obj, &obj.inner.device, &obj.inner.debug_facet, riid)
    }
    const VTBL: &'static ID3D12GraphicsCommandList8Vtbl = &LIST_VTBL;
    const IIDS: &'static [GUID] = &[
        IID_IUnknown,
        IID_ID3D12Object,
        IID_ID3D12DeviceChild,
        IID_ID3D12CommandList,
        IID_ID3D12GraphicsCommandList,
        IID_ID3D12GraphicsCommandList1,
        IID_ID3D12GraphicsCommandList2,
        IID_ID3D12GraphicsCommandList3,
        IID_ID3D12GraphicsCommandList4,
        IID_ID3D12GraphicsCommandList5,
        IID_ID3D12GraphicsCommandList6,
        IID_ID3D12GraphicsCommandList7,
        IID_ID3D12GraphicsCommandList8,
    ];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12GraphicsCommandList", D3D12_MESSAGE_ID_LIVE_COMMANDLIST12));
}

impl Child for CommandList {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live list pointers.
unsafe fn list<'a>(this: *mut Iface) -> Option<&'a CommandList> {
    // SAFETY: forwarded.
    unsafe { Object::<CommandList>::from_this(this) }.map(|o| &o.inner)
}

/// Runs a recording method: ignored unless the list is recording; an error is remembered (the
/// first one) and makes Close fail.
///
/// # Safety
/// `this` null or one of our live list pointers.
unsafe fn record(this: *mut Iface, name: &'static str, f: impl FnOnce(&CommandList, &mut ListState) -> Result<()>) {
    guard(name, (), || {
        // SAFETY: forwarded.
        let Some(l) = (unsafe { list(this) }) else { return };
        let mut s = l.lock();
        if s.phase != Phase::Recording {
            return;
        }
        s.method = name;
        if let Err(e) = f(l, &mut s) {
            if let Some(m) = &e.message {
                crate::debug::report_list(name, m);
            }
            // As guard_hr does for methods that return an HRESULT: the call that makes Close
            // fail is named, with its reason, even without the debug layer.
            if crate::debug::log_enabled(crate::debug::Level::Info) {
                match &e.message {
                    Some(m) => eprintln!("rd3d12: {name} fails with {:#010x}: {}", e.hr as u32, m.text),
                    None => eprintln!("rd3d12: {name} fails with {:#010x}", e.hr as u32),
                }
            }
            if s.error.is_none() {
                s.error = Some(e);
            }
        }
    })
}

/// Our resource behind a pointer, or a recording error.
///
/// # Safety
/// `p` null or a live COM pointer.
unsafe fn resource<'a>(
    p: *mut ID3D12Resource,
    id: D3D12_MESSAGE_ID,
    what: &'static str,
) -> Result<&'a Object<Resource>> {
    // SAFETY: recognised by vtable.
    unsafe { downcast::<Resource, _>(p) }.ok_or_else(|| rec_err(id, what))
}

// ---- lifecycle --------------------------------------------------------------------------------

unsafe extern "C" fn get_type(this: *mut Iface) -> D3D12_COMMAND_LIST_TYPE {
    // SAFETY: COM This pointer.
    guard("GetType", D3D12_COMMAND_LIST_TYPE_DIRECT, || {
        unsafe { list(this) }.map_or(D3D12_COMMAND_LIST_TYPE_DIRECT, |l| l.ty)
    })
}

/// Close: E_FAIL when not recording; the first recording error otherwise (sticky).
unsafe extern "C" fn close(this: *mut Iface) -> HRESULT {
    guard_hr("Close", || {
        // SAFETY: COM This pointer.
        let l = unsafe { list(this) }.ok_or(Error::POINTER)?;
        let id = l as *const CommandList as usize;
        let mut s = l.lock();
        if s.phase != Phase::Recording {
            return Err(Error {
                hr: E_FAIL,
                message: Some(Message {
                    id: D3D12_MESSAGE_ID_COMMAND_LIST_CLOSED,
                    category: D3D12_MESSAGE_CATEGORY_EXECUTION,
                    severity: D3D12_MESSAGE_SEVERITY_ERROR,
                    text: "Close on a command list that is not recording".into(),
                }),
            });
        }
        if let Some(a) = &s.allocator {
            a.end(id);
        }
        // A recording error was reported when its call was made: Close returns its HRESULT
        // without reporting it again.
        let mut err = s.error.take().map(|e| Error::hr(e.hr));
        if err.is_none() {
            if let Err(v) = s.tracker.finish() {
                err = Some(violation(v));
            } else if !s.open_queries.is_empty() {
                err = Some(rec_err(
                    D3D12_MESSAGE_ID_CLOSE_COMMAND_LIST_OPEN_QUERY,
                    "a query begun in this list was not ended",
                ));
            } else if s.in_render_pass {
                err = Some(rec_err(
                    D3D12_MESSAGE_ID_RENDER_PASS_CANNOT_CLOSE_COMMAND_LIST,
                    "a render pass begun in this list was not ended",
                ));
            }
        }
        if let Some(e) = err {
            s.phase = Phase::Failed(e.hr);
            s.commands.clear();
            return Err(e);
        }
        let commands = std::mem::take(&mut s.commands);
        let touched = std::mem::take(&mut s.touched);
        let ends = s.tracker.end_states();
        s.touched_ids.clear();
        let bundle_state = (l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE).then(|| Box::new(s.gfx.clone()));
        s.recorded = Some(Arc::new(Recorded { commands, touched, ends, bundle_state }));
        s.phase = Phase::Closed;
        Ok(S_OK)
    })
}

/// Reset: only a closed list; a list whose Close failed returns that error forever; the
/// allocator must have the list's type and not be recorded into by another list.
unsafe extern "C" fn reset(
    this: *mut Iface,
    allocator: *mut ID3D12CommandAllocator,
    pso: *mut ID3D12PipelineState,
) -> HRESULT {
    guard_hr("Reset", || {
        // SAFETY: COM This pointer; the allocator recognised by vtable.
        let l = unsafe { list(this) }.ok_or(Error::POINTER)?;
        let id = l as *const CommandList as usize;
        let alloc = unsafe { downcast::<CommandAllocator, _>(allocator) };
        let mut s = l.lock();
        match s.phase {
            Phase::Recording => return Err(Error::FAIL),
            Phase::Failed(hr) => return Err(Error::hr(hr)),
            Phase::Closed => {}
        }
        let alloc = alloc
            .ok_or_else(|| rec_err(D3D12_MESSAGE_ID_CREATECOMMANDLIST_NULL_COMMANDALLOCATOR, "pAllocator is NULL"))?;
        if alloc.inner.ty != l.ty {
            return Err(rec_err(
                D3D12_MESSAGE_ID_CREATE_COMMAND_LIST_INVALID_COMMAND_LIST_TYPE,
                "allocator of another type",
            ));
        }
        let generation = alloc.inner.state.begin(id)?;
        let phase_before = s.phase;
        *s = ListState::new(Phase::Recording);
        debug_assert_eq!(phase_before, Phase::Closed);
        s.allocator = Some(alloc.inner.state.clone());
        s.generation = generation;
        s.gfx.pipeline = pso as usize;
        s.gfx.executable = executable(pso);
        Ok(S_OK)
    })
}

/// The pipeline behind a PSO pointer (Reset's and ClearState's pInitialState), if it is one.
fn executable(pso: *mut ID3D12PipelineState) -> Option<Arc<crate::work::pipeline::Executable>> {
    // SAFETY: null or a live COM pointer the caller passed, recognised by vtable.
    let p = unsafe { crate::pipeline_state::PipelineState::from_iface(pso) }?;
    // RD3D12_TRACE names draws and dispatches by their pipeline state.
    if crate::trace::on() {
        crate::trace::name_pipeline(&p.inner.pipeline, crate::com::live::name_of(&p.private));
    }
    Some(p.inner.pipeline.clone())
}

unsafe extern "C" fn clear_state(this: *mut Iface, pso: *mut ID3D12PipelineState) {
    // SAFETY: forwarded.
    unsafe {
        record(this, "ClearState", |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(wrong_list_type("ClearState is not valid on bundles"));
            }
            s.gfx = GraphicsState { pipeline: pso as usize, executable: executable(pso), ..Default::default() };
            Ok(())
        })
    }
}

static LIST_VTBL: ID3D12GraphicsCommandList8Vtbl = crate::child_vtbl!(
    ID3D12GraphicsCommandList8Vtbl,
    CommandList,
    Iface {
        GetType: get_type,
        Close: close,
        Reset: reset,
        ClearState: clear_state,
        DrawInstanced: draw_instanced,
        DrawIndexedInstanced: draw_indexed_instanced,
        Dispatch: dispatch,
        CopyBufferRegion: copy_buffer_region,
        CopyTextureRegion: copy_texture_region,
        CopyResource: copy_resource,
        CopyTiles: copy_tiles,
        ResolveSubresource: resolve_subresource,
        IASetPrimitiveTopology: ia_set_primitive_topology,
        RSSetViewports: rs_set_viewports,
        RSSetScissorRects: rs_set_scissor_rects,
        OMSetBlendFactor: om_set_blend_factor,
        OMSetStencilRef: om_set_stencil_ref,
        SetPipelineState: set_pipeline_state,
        ResourceBarrier: resource_barrier,
        ExecuteBundle: execute_bundle,
        SetDescriptorHeaps: set_descriptor_heaps,
        SetComputeRootSignature: set_compute_root_signature,
        SetGraphicsRootSignature: set_graphics_root_signature,
        SetComputeRootDescriptorTable: set_compute_root_table,
        SetGraphicsRootDescriptorTable: set_graphics_root_table,
        SetComputeRoot32BitConstant: set_compute_root_constant,
        SetGraphicsRoot32BitConstant: set_graphics_root_constant,
        SetComputeRoot32BitConstants: set_compute_root_constants,
        SetGraphicsRoot32BitConstants: set_graphics_root_constants,
        SetComputeRootConstantBufferView: set_compute_root_cbv,
        SetGraphicsRootConstantBufferView: set_graphics_root_cbv,
        SetComputeRootShaderResourceView: set_compute_root_srv,
        SetGraphicsRootShaderResourceView: set_graphics_root_srv,
        SetComputeRootUnorderedAccessView: set_compute_root_uav,
        SetGraphicsRootUnorderedAccessView: set_graphics_root_uav,
        IASetIndexBuffer: ia_set_index_buffer,
        IASetVertexBuffers: ia_set_vertex_buffers,
        SOSetTargets: so_set_targets,
        OMSetRenderTargets: om_set_render_targets,
        ClearDepthStencilView: clear_dsv,
        ClearRenderTargetView: clear_rtv,
        ClearUnorderedAccessViewUint: clear_uav_uint,
        ClearUnorderedAccessViewFloat: clear_uav_float,
        DiscardResource: discard_resource,
        BeginQuery: begin_query,
        EndQuery: end_query,
        ResolveQueryData: resolve_query_data,
        SetPredication: set_predication,
        SetMarker: set_marker,
        BeginEvent: begin_event,
        EndEvent: end_event,
        ExecuteIndirect: execute_indirect,
        AtomicCopyBufferUINT: atomic_copy_u32,
        AtomicCopyBufferUINT64: atomic_copy_u64,
        OMSetDepthBounds: om_set_depth_bounds,
        SetSamplePositions: set_sample_positions,
        ResolveSubresourceRegion: resolve_subresource_region,
        SetViewInstanceMask: set_view_instance_mask,
        WriteBufferImmediate: write_buffer_immediate,
        SetProtectedResourceSession: set_protected_resource_session,
        BeginRenderPass: begin_render_pass,
        EndRenderPass: end_render_pass,
        InitializeMetaCommand: initialize_meta_command,
        ExecuteMetaCommand: execute_meta_command,
        BuildRaytracingAccelerationStructure: build_raytracing_as,
        EmitRaytracingAccelerationStructurePostbuildInfo: emit_raytracing_postbuild,
        CopyRaytracingAccelerationStructure: copy_raytracing_as,
        SetPipelineState1: set_pipeline_state1,
        DispatchRays: dispatch_rays,
        RSSetShadingRate: rs_set_shading_rate,
        RSSetShadingRateImage: rs_set_shading_rate_image,
        DispatchMesh: dispatch_mesh,
        Barrier: barrier,
        OMSetFrontAndBackStencilRef: om_set_front_and_back_stencil_ref,
    }
);
