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
use crate::work::queries;
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
    /// SetMarker / BeginEvent / EndEvent, kept for tools: (kind, metadata, bytes).
    markers: Vec<(u8, u32, Vec<u8>)>,
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
            markers: Vec::new(),
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
    unsafe { crate::pipeline_state::PipelineState::from_iface(pso) }.map(|p| p.inner.pipeline.clone())
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

// ---- copies -----------------------------------------------------------------------------------

/// The memory of a copy destination, noted as written (so its committed memory is cleared
/// before reuse).
fn written(r: &Object<Resource>) -> crate::work::memory::Memory {
    let m = r.inner.memory();
    m.mark_dirty();
    m
}

fn side<'a>(r: &'a Object<Resource>, location: Location) -> Side<'a> {
    Side { desc: &r.inner.desc, heap: heap_kind(&r.inner), subresource_count: r.inner.subresource_count, location }
}

unsafe extern "C" fn copy_buffer_region(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    n: UINT64,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "CopyBufferRegion", |_, s| {
            let d = resource(dst, D3D12_MESSAGE_ID_COPYBUFFERREGION_NULLDST, "pDstBuffer is NULL or not a resource")?;
            let r = resource(src, D3D12_MESSAGE_ID_COPYBUFFERREGION_NULLSRC, "pSrcBuffer is NULL or not a resource")?;
            let (ds, ss) = (side(d, Location::Whole), side(r, Location::Whole));
            let plan = copy::copy_buffer_region(&ds, dst_off, &ss, src_off, n).map_err(violation)?;
            // Two ranges of one buffer are fine apart; overlapping, the result is undefined (the
            // copy runs as a memmove) and the debug layer says so.
            if let Some(w) = copy::buffer_copy_overlap(&ds, dst_off, &ss, src_off, n) {
                crate::debug::report_list_parts(
                    "CopyBufferRegion",
                    D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    w.id.0,
                    &w.message,
                );
            }
            s.use_as(d, 0, D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.use_as(r, 0, D3D12_RESOURCE_STATE_COPY_SOURCE.0);
            if let Some((dst_offset, src_offset, bytes)) = plan {
                s.commands.push(Command::CopyBuffer {
                    dst: written(d),
                    dst_offset,
                    src: r.inner.memory(),
                    src_offset,
                    bytes,
                });
            }
            Ok(())
        })
    }
}

/// A D3D12_TEXTURE_COPY_LOCATION as a resource and a location.
///
/// # Safety
/// `loc` null or a readable location whose resource is null or a live COM pointer.
unsafe fn location<'a>(loc: *const D3D12_TEXTURE_COPY_LOCATION, dst: bool) -> Result<(&'a Object<Resource>, Location)> {
    let null_id = if dst {
        D3D12_MESSAGE_ID_COPYTEXTUREREGION_INVALIDDSTRESOURCE
    } else {
        D3D12_MESSAGE_ID_COPYTEXTUREREGION_INVALIDSRCRESOURCE
    };
    // SAFETY: null or readable.
    let l = unsafe { loc.as_ref() }.ok_or_else(|| rec_err(null_id, "NULL copy location"))?;
    // SAFETY: recognised by vtable.
    let r = unsafe { resource(l.pResource, null_id, "the copy location's resource is NULL or not a resource")? };
    // SAFETY: both union members are plain data; the Type says which one is meant and the
    // validator only reads that one.
    let (sub, fp) = unsafe { (l.__bindgen_anon_1.SubresourceIndex, l.__bindgen_anon_1.PlacedFootprint) };
    Ok((r, Location::from_texture_copy_location(l.Type.0, sub, fp)))
}

unsafe extern "C" fn copy_texture_region(
    this: *mut Iface,
    dst: *const D3D12_TEXTURE_COPY_LOCATION,
    x: UINT,
    y: UINT,
    z: UINT,
    src: *const D3D12_TEXTURE_COPY_LOCATION,
    src_box: *const D3D12_BOX,
) {
    // SAFETY: pointers null or valid per the method's contract.
    unsafe {
        record(this, "CopyTextureRegion", |l, s| {
            let (d, dl) = location(dst, true)?;
            let (r, sl) = location(src, false)?;
            let plan = copy::copy_texture_region(&side(d, dl), x, y, z, &side(r, sl), src_box.as_ref(), l.caps())
                .map_err(violation)?;
            for w in plan.iter().flat_map(|p| &p.warnings) {
                crate::debug::report_list_parts(
                    "CopyTextureRegion",
                    D3D12_MESSAGE_CATEGORY_RESOURCE_MANIPULATION,
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    w.id.0,
                    &w.message,
                );
            }
            let sub_of = |loc: &Location| match loc {
                Location::Subresource(i) => *i,
                _ => 0,
            };
            s.use_as(d, sub_of(&dl), D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.use_as(r, sub_of(&sl), D3D12_RESOURCE_STATE_COPY_SOURCE.0);
            if let Some(plan) = plan {
                s.commands.push(Command::CopyTexture {
                    dst: TexSide { memory: written(d), desc: d.inner.desc },
                    src: TexSide { memory: r.inner.memory(), desc: r.inner.desc },
                    plan: Box::new(plan),
                });
            }
            Ok(())
        })
    }
}

unsafe extern "C" fn copy_resource(this: *mut Iface, dst: *mut ID3D12Resource, src: *mut ID3D12Resource) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "CopyResource", |l, s| {
            let d = resource(dst, D3D12_MESSAGE_ID_COPYRESOURCE_NULLDST, "pDstResource is NULL or not a resource")?;
            let r = resource(src, D3D12_MESSAGE_ID_COPYRESOURCE_NULLSRC, "pSrcResource is NULL or not a resource")?;
            if std::ptr::eq(d, r) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COPYRESOURCE_INVALIDSRCRESOURCE,
                    "CopyResource needs two different resources",
                ));
            }
            let (ds, rs) = (side(d, Location::Whole), side(r, Location::Whole));
            // Textures of different sizes in bytes: the debug layer's error only; Windows
            // records the call, Close succeeds, and nothing defined is copied (nothing is).
            if let Some(v) = copy::copy_resource_size_mismatch(&ds, &rs) {
                let category = rd3d12_core::info_queue::default_category(v.id.0);
                crate::debug::report_list_parts(
                    "CopyResource",
                    D3D12_MESSAGE_CATEGORY(category as _),
                    D3D12_MESSAGE_SEVERITY_ERROR,
                    v.id.0,
                    &v.message,
                );
                return Ok(());
            }
            let ops = copy::copy_resource(&ds, &rs, l.caps()).map_err(violation)?;
            let all = D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES;
            s.use_as(d, all, D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.use_as(r, all, D3D12_RESOURCE_STATE_COPY_SOURCE.0);
            for op in ops {
                match op {
                    copy::ResourceCopy::Buffer { bytes } => s.commands.push(Command::CopyBuffer {
                        dst: written(d),
                        dst_offset: 0,
                        src: r.inner.memory(),
                        src_offset: 0,
                        bytes,
                    }),
                    copy::ResourceCopy::Texture(plan) => s.commands.push(Command::CopyTexture {
                        dst: TexSide { memory: written(d), desc: d.inner.desc },
                        src: TexSide { memory: r.inner.memory(), desc: r.inner.desc },
                        plan: Box::new(plan),
                    }),
                }
            }
            Ok(())
        })
    }
}

/// CopyTiles: whole tiles between a reserved resource's region and a linear buffer.
unsafe extern "C" fn copy_tiles(
    this: *mut Iface,
    tiled: *mut ID3D12Resource,
    coord: *const D3D12_TILED_RESOURCE_COORDINATE,
    size: *const D3D12_TILE_REGION_SIZE,
    buffer: *mut ID3D12Resource,
    buffer_offset: UINT64,
    flags: D3D12_TILE_COPY_FLAGS,
) {
    // SAFETY: pointers recognised by vtable / null or readable.
    unsafe {
        record(this, "CopyTiles", |_, s| {
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER, t);
            let t = resource(tiled, D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER, "pTiledResource is NULL")?;
            let b = resource(buffer, D3D12_MESSAGE_ID_COPYTILEMAPPINGS_INVALID_PARAMETER, "pBuffer is NULL")?;
            let Backing::Reserved { tiles, .. } = &t.inner.backing else {
                return Err(bad("CopyTiles needs a reserved resource"));
            };
            let (c, sz) =
                (coord.as_ref().ok_or_else(|| bad("NULL coordinate"))?, size.as_ref().ok_or_else(|| bad("NULL size"))?);
            // Flags NONE copies tiles into the buffer, as SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER
            // does (Windows); both directions at once are refused. The linear side needs 16-byte
            // alignment, not D3D12_TEXTURE_DATA_PLACEMENT_ALIGNMENT.
            let f = flags.0;
            let to_tiles = f & D3D12_TILE_COPY_FLAG_LINEAR_BUFFER_TO_SWIZZLED_TILED_RESOURCE.0 != 0;
            let from_tiles = f & D3D12_TILE_COPY_FLAG_SWIZZLED_TILED_RESOURCE_TO_LINEAR_BUFFER.0 != 0;
            if to_tiles && from_tiles {
                return Err(bad("CopyTiles takes one direction flag, not both"));
            }
            if !b.inner.is_buffer() || !buffer_offset.is_multiple_of(16) {
                return Err(bad("CopyTiles needs a buffer and a BufferStartOffsetInBytes that is a multiple of 16"));
            }
            let idx = tiles.lock().unwrap_or_else(|e| e.into_inner()).region_tiles(c, Some(sz))?;
            let need = idx.len() as u64 * crate::work::tiles::TILE;
            if buffer_offset.checked_add(need).is_none_or(|e| e > b.inner.desc.Width) {
                return Err(bad("the tiles do not fit in the buffer"));
            }
            s.touch(t);
            s.touch(b);
            s.commands.push(Command::CopyTiles {
                tiles: t.inner.memory(),
                tile_indices: idx,
                buffer: if to_tiles { b.inner.memory() } else { written(b) },
                buffer_offset,
                to_tiles,
            });
            Ok(())
        })
    }
}

/// ResolveSubresource and ResolveSubresourceRegion: validated and planned by
/// [`rd3d12_core::resolve::plan`], executed on the queue as [`Command::ResolveTexture`].
/// The source is used in RESOLVE_SOURCE and the destination in RESOLVE_DEST (an in-place
/// DECOMPRESS of one subresource only in RESOLVE_DEST, REC).
///
/// # Safety
/// `dst` and `src` null or live COM pointers.
#[allow(clippy::too_many_arguments)]
unsafe fn record_resolve(
    this: *mut Iface,
    method: &'static str,
    dst: *mut ID3D12Resource,
    ds: UINT,
    dst_xy: (u32, u32),
    src: *mut ID3D12Resource,
    ss: UINT,
    rect: Option<D3D12_RECT>,
    f: DXGI_FORMAT,
    mode: D3D12_RESOLVE_MODE,
    region: bool,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, method, |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_COPY {
                return Err(wrong_list_type("ResolveSubresource(Region) is not valid on copy lists"));
            }
            let d = resource(dst, D3D12_MESSAGE_ID_RESOLVESUBRESOURCE_NULLDST, "pDstResource is NULL")?;
            let r = resource(src, D3D12_MESSAGE_ID_RESOLVESUBRESOURCE_NULLSRC, "pSrcResource is NULL")?;
            let mode = resolve::mode(mode.0).ok_or_else(|| {
                rec_err(
                    D3D12_MESSAGE_ID_RESOLVESUBRESOURCE_INVALID_FORMAT,
                    format!("ResolveMode {} is not supported (sampler feedback is not)", mode.0),
                )
            })?;
            let dside = resolve::Side { desc: &d.inner.desc, heap: heap_kind(&d.inner), subresource: ds };
            let sside = resolve::Side { desc: &r.inner.desc, heap: heap_kind(&r.inner), subresource: ss };
            let plan = resolve::plan(&dside, dst_xy, &sside, rect.as_ref(), f, mode, region).map_err(violation)?;
            // A render pass resolves from its render target, which stays in RENDER_TARGET.
            let src_state = if method == "EndRenderPass" {
                D3D12_RESOURCE_STATE_RENDER_TARGET.0
            } else {
                D3D12_RESOURCE_STATE_RESOLVE_SOURCE.0
            };
            if std::ptr::eq(d, r) && ds == ss {
                s.use_as(d, ds, D3D12_RESOURCE_STATE_RESOLVE_DEST.0);
            } else {
                s.use_as(d, ds, D3D12_RESOURCE_STATE_RESOLVE_DEST.0);
                s.use_as(r, ss, src_state);
            }
            if let Some(plan) = plan {
                s.commands.push(Command::ResolveTexture {
                    dst: written(d),
                    src: r.inner.memory(),
                    plan: Box::new(plan),
                });
            }
            Ok(())
        })
    }
}

/// [ResolveSubresource](https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12graphicscommandlist-resolvesubresource):
/// an AVERAGE resolve of whole subresources.
unsafe extern "C" fn resolve_subresource(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    ds: UINT,
    src: *mut ID3D12Resource,
    ss: UINT,
    f: DXGI_FORMAT,
) {
    // SAFETY: forwarded.
    unsafe {
        record_resolve(this, "ResolveSubresource", dst, ds, (0, 0), src, ss, None, f, D3D12_RESOLVE_MODE_AVERAGE, false)
    }
}

/// [ResolveSubresourceRegion](https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12graphicscommandlist1-resolvesubresourceregion).
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn resolve_subresource_region(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    ds: UINT,
    x: UINT,
    y: UINT,
    src: *mut ID3D12Resource,
    ss: UINT,
    rect: *mut D3D12_RECT,
    f: DXGI_FORMAT,
    mode: D3D12_RESOLVE_MODE,
) {
    // SAFETY: `rect` null or readable per the method's contract; the rest forwarded.
    unsafe {
        let rect = rect.as_ref().copied();
        record_resolve(this, "ResolveSubresourceRegion", dst, ds, (x, y), src, ss, rect, f, mode, true)
    }
}

// ---- barriers ---------------------------------------------------------------------------------

unsafe extern "C" fn resource_barrier(this: *mut Iface, n: UINT, barriers: *const D3D12_RESOURCE_BARRIER) {
    // SAFETY: the caller passes `n` barriers; resources recognised by vtable.
    unsafe {
        record(this, "ResourceBarrier", |l, s| {
            if n > 0 && barriers.is_null() {
                return Err(rec_err(D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER, "pBarriers is NULL"));
            }
            let lt = list_type(l.ty);
            for i in 0..n as usize {
                let b = &*barriers.add(i);
                states::validate_barrier_flags(b.Type.0, b.Flags.0).map_err(violation)?;
                match b.Type {
                    D3D12_RESOURCE_BARRIER_TYPE_TRANSITION => {
                        let t = b.__bindgen_anon_1.Transition;
                        let r = resource(
                            t.pResource,
                            D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                            "transition of a NULL resource",
                        )?;
                        let (before, after) = (t.StateBefore.0, t.StateAfter.0);
                        states::validate_transition(
                            &r.inner.desc,
                            heap_kind(&r.inner),
                            r.inner.subresource_count,
                            lt,
                            t.Subresource,
                            before,
                            after,
                        )
                        .map_err(violation)?;
                        let id = r as *const _ as u64;
                        s.tracker
                            .transition(id, r.inner.subresource_count, t.Subresource, before, after, b.Flags.0)
                            .map_err(violation)?;
                        s.touch(r);
                        if b.Flags.0 & D3D12_RESOURCE_BARRIER_FLAG_BEGIN_ONLY.0 == 0 {
                            s.commands.push(Command::Transition {
                                states: r.inner.states().clone(),
                                subresource: t.Subresource,
                                after,
                            });
                        }
                    }
                    D3D12_RESOURCE_BARRIER_TYPE_ALIASING => {
                        // Work executes in order on one thread, so aliasing needs no flush; the
                        // resources, when given, must be ours.
                        let a = b.__bindgen_anon_1.Aliasing;
                        for p in [a.pResourceBefore, a.pResourceAfter] {
                            if !p.is_null() {
                                resource(
                                    p,
                                    D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                                    "aliasing barrier on a foreign object",
                                )?;
                            }
                        }
                    }
                    _ => {
                        // UAV barrier: NULL means every UAV access; execution is already ordered.
                        let u = b.__bindgen_anon_1.UAV;
                        if !u.pResource.is_null() {
                            resource(
                                u.pResource,
                                D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                                "UAV barrier on a foreign object",
                            )?;
                        }
                    }
                }
            }
            Ok(())
        })
    }
}

/// Enhanced barriers (ID3D12GraphicsCommandList7::Barrier) are reported unsupported.
unsafe extern "C" fn barrier(this: *mut Iface, _n: UINT32, _groups: *const D3D12_BARRIER_GROUP) {
    // SAFETY: forwarded.
    unsafe {
        record(this, "Barrier", |_, _| {
            Err(rec_err(
                D3D12_MESSAGE_ID_RESOURCE_BARRIER_NULL_POINTER,
                "enhanced barriers are not supported by this adapter",
            ))
        })
    }
}

// ---- queries ----------------------------------------------------------------------------------

/// # Safety
/// `p` null or a live COM pointer.
unsafe fn query_heap<'a>(p: *mut ID3D12QueryHeap) -> Result<&'a Object<QueryHeap>> {
    // SAFETY: recognised by vtable.
    unsafe { downcast::<QueryHeap, _>(p) }.ok_or_else(|| {
        rec_err(D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS, "pQueryHeap is NULL or not a query heap")
    })
}

fn query_allowed(list: D3D12_COMMAND_LIST_TYPE, heap: D3D12_QUERY_HEAP_TYPE) -> bool {
    match heap {
        D3D12_QUERY_HEAP_TYPE_TIMESTAMP => {
            list == D3D12_COMMAND_LIST_TYPE_DIRECT || list == D3D12_COMMAND_LIST_TYPE_COMPUTE
        }
        D3D12_QUERY_HEAP_TYPE_COPY_QUEUE_TIMESTAMP => list == D3D12_COMMAND_LIST_TYPE_COPY,
        D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS | D3D12_QUERY_HEAP_TYPE_PIPELINE_STATISTICS1 => {
            list == D3D12_COMMAND_LIST_TYPE_DIRECT || list == D3D12_COMMAND_LIST_TYPE_COMPUTE
        }
        _ => list == D3D12_COMMAND_LIST_TYPE_DIRECT,
    }
}

fn check_query(l: &CommandList, h: &QueryHeap, ty: D3D12_QUERY_TYPE, index: u32) -> Result<()> {
    let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS, t);
    if !query_heap::type_matches_heap(ty, h.desc.Type) {
        return Err(bad("the query type does not match the query heap"));
    }
    if index >= h.desc.Count {
        return Err(bad("query index beyond the heap"));
    }
    if !query_allowed(l.ty, h.desc.Type) {
        return Err(bad("this query heap cannot be used on this command list type"));
    }
    Ok(())
}

unsafe extern "C" fn begin_query(this: *mut Iface, heap: *mut ID3D12QueryHeap, ty: D3D12_QUERY_TYPE, index: UINT) {
    // SAFETY: heap recognised by vtable.
    unsafe {
        record(this, "BeginQuery", |l, s| {
            let h = query_heap(heap)?;
            check_query(l, &h.inner, ty, index)?;
            if ty == D3D12_QUERY_TYPE_TIMESTAMP {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS,
                    "timestamps take EndQuery only",
                ));
            }
            if !s.open_queries.insert((h as *const _ as usize, index)) {
                return Err(rec_err(D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS, "the query is already begun"));
            }
            s.commands.push(Command::QueryBegin { data: h.inner.data.clone(), index });
            Ok(())
        })
    }
}

unsafe extern "C" fn end_query(this: *mut Iface, heap: *mut ID3D12QueryHeap, ty: D3D12_QUERY_TYPE, index: UINT) {
    // SAFETY: heap recognised by vtable.
    unsafe {
        record(this, "EndQuery", |l, s| {
            let h = query_heap(heap)?;
            check_query(l, &h.inner, ty, index)?;
            let data = h.inner.data.clone();
            if ty == D3D12_QUERY_TYPE_TIMESTAMP {
                s.commands.push(Command::Timestamp { data, index });
            } else {
                if !s.open_queries.remove(&(h as *const _ as usize, index)) {
                    return Err(rec_err(
                        D3D12_MESSAGE_ID_BEGIN_END_QUERY_INVALID_PARAMETERS,
                        "EndQuery without BeginQuery",
                    ));
                }
                s.commands.push(Command::QueryEnd { data, index, ty });
            }
            Ok(())
        })
    }
}

unsafe extern "C" fn resolve_query_data(
    this: *mut Iface,
    heap: *mut ID3D12QueryHeap,
    ty: D3D12_QUERY_TYPE,
    start: UINT,
    n: UINT,
    dst: *mut ID3D12Resource,
    offset: UINT64,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "ResolveQueryData", |l, s| {
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_RESOLVE_QUERY_DATA_INVALID_PARAMETERS, t);
            let h = query_heap(heap)?;
            let d =
                resource(dst, D3D12_MESSAGE_ID_RESOLVE_QUERY_DATA_INVALID_PARAMETERS, "pDestinationBuffer is NULL")?;
            if !query_heap::type_matches_heap(ty, h.inner.desc.Type) || !query_allowed(l.ty, h.inner.desc.Type) {
                return Err(bad("the query type does not match the heap or list type"));
            }
            if start.checked_add(n).is_none_or(|e| e > h.inner.desc.Count) {
                return Err(bad("StartIndex + NumQueries exceeds the heap"));
            }
            let size = queries::result_size(ty).ok_or_else(|| bad("unknown query type"))?;
            if !d.inner.is_buffer() || !offset.is_multiple_of(8) || heap_kind(&d.inner) == HeapKind::Upload {
                return Err(bad("the destination must be a non-UPLOAD buffer and the offset a multiple of 8"));
            }
            if offset.checked_add(size * n as u64).is_none_or(|e| e > d.inner.desc.Width) {
                return Err(bad("the results do not fit in the destination buffer"));
            }
            s.use_as(d, 0, D3D12_RESOURCE_STATE_COPY_DEST.0);
            s.commands.push(Command::Resolve {
                data: h.inner.data.clone(),
                ty,
                start,
                count: n,
                dst: written(d),
                offset,
            });
            Ok(())
        })
    }
}

unsafe extern "C" fn set_predication(
    this: *mut Iface,
    buffer: *mut ID3D12Resource,
    offset: UINT64,
    op: D3D12_PREDICATION_OP,
) {
    // SAFETY: pointers recognised by vtable.
    unsafe {
        record(this, "SetPredication", |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_COPY || l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(wrong_list_type("SetPredication is not valid on copy lists or bundles"));
            }
            if buffer.is_null() {
                s.commands.push(Command::Predication(None));
                return Ok(());
            }
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_SET_PREDICATION_INVALID_PARAMETERS, t);
            let b =
                resource(buffer, D3D12_MESSAGE_ID_RESOLVE_QUERY_DATA_INVALID_PARAMETERS, "pBuffer is not a resource")?;
            if !b.inner.is_buffer()
                || !offset.is_multiple_of(8)
                || offset.checked_add(8).is_none_or(|e| e > b.inner.desc.Width)
            {
                return Err(bad("predication needs 8 aligned bytes inside a buffer"));
            }
            if op != D3D12_PREDICATION_OP_EQUAL_ZERO && op != D3D12_PREDICATION_OP_NOT_EQUAL_ZERO {
                return Err(bad("unknown D3D12_PREDICATION_OP"));
            }
            s.touch(b);
            s.commands.push(Command::Predication(Some((b.inner.memory(), offset, op))));
            Ok(())
        })
    }
}

// ---- buffer writes ----------------------------------------------------------------------------

unsafe extern "C" fn write_buffer_immediate(
    this: *mut Iface,
    count: UINT,
    params: *const D3D12_WRITEBUFFERIMMEDIATE_PARAMETER,
    modes: *const D3D12_WRITEBUFFERIMMEDIATE_MODE,
) {
    // SAFETY: the caller passes `count` parameters (and modes when non-null).
    unsafe {
        record(this, "WriteBufferImmediate", |l, s| {
            let bad = |t: &'static str| rec_err(D3D12_MESSAGE_ID_WRITEBUFFERIMMEDIATE_INVALID_ALIGNMENT, t);
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(wrong_list_type("WriteBufferImmediate is not valid on bundles"));
            }
            if count > 0 && params.is_null() {
                return Err(bad("pParams is NULL"));
            }
            let mut cmds = Vec::with_capacity(count as usize);
            for i in 0..count as usize {
                let p = *params.add(i);
                let mode = if modes.is_null() { D3D12_WRITEBUFFERIMMEDIATE_MODE_DEFAULT } else { *modes.add(i) };
                if mode.0 > D3D12_WRITEBUFFERIMMEDIATE_MODE_MARKER_OUT.0 {
                    return Err(rec_err(
                        D3D12_MESSAGE_ID_WRITEBUFFERIMMEDIATE_INVALID_MODE,
                        "unknown D3D12_WRITEBUFFERIMMEDIATE_MODE",
                    ));
                }
                if p.Dest % 4 != 0 {
                    return Err(bad("Dest must be 4-byte aligned"));
                }
                let (mem, off) = l.device.inner.va().resolve(p.Dest, 4).ok_or_else(|| {
                    rec_err(D3D12_MESSAGE_ID_WRITEBUFFERIMMEDIATE_INVALID_DEST, "Dest is not inside a buffer")
                })?;
                mem.mark_dirty();
                cmds.push(Command::WriteImmediate { dst: mem, offset: off, value: p.Value });
            }
            s.commands.extend(cmds);
            Ok(())
        })
    }
}

#[allow(clippy::too_many_arguments)]
unsafe fn atomic_copy(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    deps: UINT,
    dep_res: *const *mut ID3D12Resource,
    dep_ranges: *const D3D12_SUBRESOURCE_RANGE_UINT64,
    wide: bool,
) {
    // SAFETY: pointers recognised by vtable; dependency arrays hold `deps` entries.
    unsafe {
        record(this, "AtomicCopyBuffer", |_, s| {
            let id = D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_OFFSET_ALIGNMENT;
            let d = resource(dst, id, "pDstBuffer is NULL")?;
            let r = resource(src, id, "pSrcBuffer is NULL")?;
            let size = if wide { 8 } else { 4 };
            let fits = |res: &Object<Resource>, off: u64| {
                res.inner.is_buffer() && off.checked_add(size).is_some_and(|e| e <= res.inner.desc.Width)
            };
            if !dst_off.is_multiple_of(size) || !src_off.is_multiple_of(size) {
                return Err(rec_err(id, "atomic copy offsets must be aligned to the value size"));
            }
            if !fits(d, dst_off) || !fits(r, src_off) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_ARCHITECTURE,
                    "atomic copy outside a buffer",
                ));
            }
            if deps > 0 && (dep_res.is_null() || dep_ranges.is_null()) {
                return Err(rec_err(D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_ARCHITECTURE, "NULL dependency arrays"));
            }
            for i in 0..deps as usize {
                resource(
                    *dep_res.add(i),
                    D3D12_MESSAGE_ID_ATOMICCOPYBUFFER_INVALID_ARCHITECTURE,
                    "NULL dependent resource",
                )?;
            }
            s.touch(d);
            s.touch(r);
            s.commands.push(Command::AtomicCopy {
                dst: written(d),
                dst_offset: dst_off,
                src: r.inner.memory(),
                src_offset: src_off,
                wide,
            });
            Ok(())
        })
    }
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn atomic_copy_u32(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    deps: UINT,
    dep_res: *const *mut ID3D12Resource,
    dep_ranges: *const D3D12_SUBRESOURCE_RANGE_UINT64,
) {
    // SAFETY: forwarded.
    unsafe { atomic_copy(this, dst, dst_off, src, src_off, deps, dep_res, dep_ranges, false) }
}

#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn atomic_copy_u64(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_off: UINT64,
    src: *mut ID3D12Resource,
    src_off: UINT64,
    deps: UINT,
    dep_res: *const *mut ID3D12Resource,
    dep_ranges: *const D3D12_SUBRESOURCE_RANGE_UINT64,
) {
    // SAFETY: forwarded.
    unsafe { atomic_copy(this, dst, dst_off, src, src_off, deps, dep_res, dep_ranges, true) }
}

// ---- markers ----------------------------------------------------------------------------------

unsafe fn marker(this: *mut Iface, kind: u8, meta: UINT, data: *const c_void, size: UINT) {
    // SAFETY: `data` holds `size` bytes when non-null.
    unsafe {
        record(this, "SetMarker/BeginEvent", |_, s| {
            let bytes = if data.is_null() || size == 0 {
                Vec::new()
            } else {
                std::slice::from_raw_parts(data as *const u8, size as usize).to_vec()
            };
            if kind == 1 {
                s.event_depth += 1;
            }
            s.markers.push((kind, meta, bytes));
            Ok(())
        })
    }
}

unsafe extern "C" fn set_marker(this: *mut Iface, meta: UINT, data: *const c_void, size: UINT) {
    // SAFETY: forwarded.
    unsafe { marker(this, 0, meta, data, size) }
}
unsafe extern "C" fn begin_event(this: *mut Iface, meta: UINT, data: *const c_void, size: UINT) {
    // SAFETY: forwarded.
    unsafe { marker(this, 1, meta, data, size) }
}
unsafe extern "C" fn end_event(this: *mut Iface) {
    // SAFETY: forwarded.
    unsafe {
        record(this, "EndEvent", |_, s| {
            s.event_depth = s.event_depth.saturating_sub(1);
            s.markers.push((2, 0, Vec::new()));
            Ok(())
        })
    }
}

// ---- shader work: validated and recorded ------------------------------------------------------

const DIRECT: &[D3D12_COMMAND_LIST_TYPE] = &[D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_BUNDLE];
const COMPUTE: &[D3D12_COMMAND_LIST_TYPE] =
    &[D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_BUNDLE, D3D12_COMMAND_LIST_TYPE_COMPUTE];
unsafe extern "C" fn draw_instanced(this: *mut Iface, count: UINT, instances: UINT, start: UINT, start_instance: UINT) {
    // SAFETY: forwarded.
    unsafe {
        record_draw(this, "DrawInstanced", DrawRange::Vertices { count, start }, instances, start_instance);
    }
}
unsafe extern "C" fn draw_indexed_instanced(
    this: *mut Iface,
    count: UINT,
    instances: UINT,
    start_index: UINT,
    base_vertex: INT,
    start_instance: UINT,
) {
    // SAFETY: forwarded.
    unsafe {
        let range = DrawRange::Indexed { count, start_index, base_vertex };
        record_draw(this, "DrawIndexedInstanced", range, instances, start_instance);
    }
}

/// The debug layer's checks of the state a draw or dispatch runs with (messages only, as on
/// Windows: the list still closes): a pipeline and a root signature bound, the root signature
/// the pipeline's, and for draws the topology, vertex and index buffers the pipeline reads.
fn check_work_state(dev: &Device, g: &GraphicsState, name: &str, compute: bool, indexed: Option<(u32, u32)>) {
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

/// The root signature and arguments of one pipeline type, for executing shaders.
fn binds(dev: &Device, g: &GraphicsState, compute: bool) -> Binds {
    Binds {
        root: g.root_descs[usize::from(!compute)].clone(),
        root_args: g.root_args.iter().filter(|a| a.0 == compute).map(|a| (a.1, a.2.clone())).collect(),
        lookup: Lookup { heaps: dev.descriptor_heaps.clone(), resources: dev.resources.clone(), va: dev.va().clone() },
    }
}

/// A bundle's draw, dispatch or ExecuteIndirect, as the executing list records it with the
/// merged state.
fn materialize(l: &CommandList, s: &mut ListState, g: &GraphicsState, work: &BundleWork) {
    let dev = &l.device.inner;
    match work {
        BundleWork::Draw { range, instances, start_instance } => {
            let indexed = match *range {
                DrawRange::Indexed { count, start_index, .. } => Some((count, start_index)),
                DrawRange::Vertices { .. } => None,
            };
            check_work_state(dev, g, "ExecuteBundle", false, indexed);
            match g.executable.as_ref().filter(|e| crate::backend::cpu::draw::runnable(e)) {
                Some(exe) => {
                    let w = draw_work(dev, g, exe, *range, *instances, *start_instance);
                    s.commands.push(Command::Draw(Box::new(w)));
                }
                None => {
                    l.warn_shader_work("ExecuteBundle");
                    s.commands.push(shader_work(g, "draw", false));
                }
            }
        }
        BundleWork::Dispatch(groups) => {
            check_work_state(dev, g, "ExecuteBundle", true, None);
            match g.executable.as_ref().filter(|e| crate::backend::cpu::compute::runnable(e)) {
                Some(exe) => {
                    let w = DispatchWork { pipeline: exe.clone(), binds: binds(dev, g, true), groups: *groups };
                    s.commands.push(Command::Dispatch(Box::new(w)));
                }
                None => {
                    l.warn_shader_work("ExecuteBundle");
                    s.commands.push(shader_work(g, "dispatch", true));
                }
            }
        }
        BundleWork::Indirect { layout, max, args, count } => {
            use rd3d12_core::indirect::SignatureKind;
            let compute = layout.kind == SignatureKind::Compute;
            check_work_state(dev, g, "ExecuteBundle", compute, None);
            let Some(base) = indirect_base(dev, g, compute) else {
                l.warn_shader_work("ExecuteBundle");
                s.commands.push(shader_work(g, "set of indirect commands", compute));
                return;
            };
            s.commands.push(Command::Indirect(Box::new(IndirectWork {
                layout: layout.clone(),
                max: *max,
                args: args.clone(),
                count: count.clone(),
                base,
            })));
        }
    }
}

/// What a draw, dispatch or ExecuteIndirect (`what`) records when the CPU backend does not
/// execute the bound pipeline: the reason, reported as a skip (stderr at RD3D12_LOG=warn, once
/// per reason, and a debug-layer message) each time the list executes it.
fn shader_work(g: &GraphicsState, what: &'static str, compute: bool) -> Command {
    let why = match g.executable.as_ref() {
        None => Some("no pipeline state is set".to_string()),
        Some(e) if compute => crate::backend::cpu::compute::not_runnable(e),
        Some(e) => crate::backend::cpu::draw::not_runnable(e),
    };
    Command::ShaderWork { what, why: why.unwrap_or_else(|| "its pipeline cannot run".into()) }
}

/// The state an ExecuteIndirect's commands start from, if the bound pipeline runs on the CPU
/// backend.
fn indirect_base(dev: &Device, g: &GraphicsState, compute: bool) -> Option<IndirectBase> {
    let e = g.executable.as_ref()?;
    if compute && crate::backend::cpu::compute::runnable(e) {
        let w = DispatchWork { pipeline: e.clone(), binds: binds(dev, g, true), groups: [0; 3] };
        Some(IndirectBase::Dispatch(Box::new(w)))
    } else if !compute && crate::backend::cpu::draw::runnable(e) {
        let range = DrawRange::Indexed { count: 0, start_index: 0, base_vertex: 0 };
        Some(IndirectBase::Draw(Box::new(draw_work(dev, g, e, range, 0, 0))))
    } else {
        None
    }
}

/// A draw's work from the list's state (the index buffer only for indexed draws).
fn draw_work(
    dev: &Device,
    g: &GraphicsState,
    exe: &Arc<crate::work::pipeline::Executable>,
    range: DrawRange,
    instances: u32,
    start_instance: u32,
) -> DrawWork {
    let resolve_va = |va: u64, size: u32| {
        if va == 0 || size == 0 {
            return None;
        }
        dev.va().resolve(va, u64::from(size))
    };
    let mut vertex_buffers = Vec::new();
    for (slot, v) in &g.vertex_buffers {
        let slot = *slot as usize;
        if vertex_buffers.len() <= slot {
            vertex_buffers.resize(slot + 1, None);
        }
        vertex_buffers[slot] =
            resolve_va(v.BufferLocation, v.SizeInBytes).map(|(m, o)| (m, o, v.SizeInBytes, v.StrideInBytes));
    }
    let index_buffer = match range {
        DrawRange::Indexed { .. } => g
            .index_buffer
            .and_then(|v| resolve_va(v.BufferLocation, v.SizeInBytes).map(|(m, o)| (m, o, v.SizeInBytes, v.Format))),
        DrawRange::Vertices { .. } => None,
    };
    DrawWork {
        pipeline: exe.clone(),
        binds: binds(dev, g, false),
        topology: g.topology as u32,
        viewports: g.viewports.clone(),
        scissors: g.scissors.clone(),
        blend_factor: g.blend_factor,
        stencil_ref: g.stencil_ref,
        sample_positions: g.sample_positions.clone(),
        vertex_buffers,
        index_buffer,
        range,
        instances,
        start_instance,
        render_targets: g.render_targets.iter().map(|&h| bound_view(dev, h)).collect(),
        depth_stencil: g.depth_stencil.and_then(|h| bound_view(dev, h)),
        stream_output: so_targets(dev, g, exe),
    }
}

/// The bound stream-output buffers by slot, for a pipeline that declares stream output. A
/// view whose buffer or filled-size location does not resolve is no buffer: its writes are
/// dropped (as with BufferLocation 0).
fn so_targets(
    dev: &Device,
    g: &GraphicsState,
    exe: &crate::work::pipeline::Executable,
) -> Vec<Option<crate::work::commands::SoTarget>> {
    if exe.pipeline.desc.stream_output.entries.is_empty() {
        return Vec::new();
    }
    let mut out = vec![None; D3D12_SO_BUFFER_SLOT_COUNT as usize];
    for (slot, v) in &g.so_targets {
        let target = (|| {
            if v.BufferLocation == 0 || v.SizeInBytes == 0 {
                return None;
            }
            let (memory, offset) = dev.va().resolve(v.BufferLocation, v.SizeInBytes)?;
            let filled = dev.va().resolve(v.BufferFilledSizeLocation, 4)?;
            memory.mark_dirty();
            filled.0.mark_dirty();
            Some(crate::work::commands::SoTarget { memory, offset, size: v.SizeInBytes, filled })
        })();
        if let Some(s) = out.get_mut(*slot as usize) {
            *s = target;
        }
    }
    out
}

/// A view bound with OMSetRenderTargets, read now (the GPU uses the descriptor contents of
/// record time); its memory is noted as written.
fn bound_view(dev: &Device, h: D3D12_CPU_DESCRIPTOR_HANDLE) -> Option<BoundView> {
    let view = descriptor_heap::descriptor_at(dev, h)?;
    let resource = descriptor_heap::resolve(dev, view.resource)?;
    resource.memory.mark_dirty();
    Some(BoundView { view, resource })
}

/// Records a draw: the bound state is captured; descriptor tables are read at execution. A
/// pipeline the CPU backend cannot run (DXBC, stages besides VS and PS) is recorded as
/// shader work that produces nothing, with the one-time warning.
///
/// # Safety
/// `this` null or one of our live list pointers.
unsafe fn record_draw(this: *mut Iface, name: &'static str, range: DrawRange, instances: u32, start_instance: u32) {
    // SAFETY: forwarded.
    unsafe {
        record(this, name, |l, s| {
            if !DIRECT.contains(&l.ty) {
                return Err(wrong_list_type("this command is not valid on this command list type"));
            }
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                // Completed with the executing list's state at ExecuteBundle.
                let work = BundleWork::Draw { range, instances, start_instance };
                s.commands.push(Command::BundleWork(Box::new((s.gfx.clone(), work))));
                return Ok(());
            }
            let g = &s.gfx;
            let indexed = match range {
                DrawRange::Indexed { count, start_index, .. } => Some((count, start_index)),
                DrawRange::Vertices { .. } => None,
            };
            check_work_state(&l.device.inner, g, name, false, indexed);
            let runnable = g.executable.as_ref().filter(|e| crate::backend::cpu::draw::runnable(e));
            let Some(exe) = runnable else {
                l.warn_shader_work(name);
                s.commands.push(shader_work(g, "draw", false));
                return Ok(());
            };
            let work = draw_work(&l.device.inner, g, exe, range, instances, start_instance);
            s.commands.push(Command::Draw(Box::new(work)));
            Ok(())
        })
    }
}
unsafe extern "C" fn dispatch(this: *mut Iface, x: UINT, y: UINT, z: UINT) {
    let max = D3D12_CS_DISPATCH_MAX_THREAD_GROUPS_PER_DIMENSION;
    // SAFETY: forwarded.
    unsafe {
        record(this, "Dispatch", |l, s| {
            if !COMPUTE.contains(&l.ty) {
                return Err(wrong_list_type("this command is not valid on this command list type"));
            }
            if x > max || y > max || z > max {
                return Err(rec_err(D3D12_MESSAGE_ID_OVERSIZED_DISPATCH, "thread group count above 65535"));
            }
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
                if x == 0 || y == 0 || z == 0 {
                    return Ok(());
                }
                s.commands.push(Command::BundleWork(Box::new((s.gfx.clone(), BundleWork::Dispatch([x, y, z])))));
                return Ok(());
            }
            let g = &s.gfx;
            check_work_state(&l.device.inner, g, "Dispatch", true, None);
            let runnable = g.executable.as_ref().filter(|e| crate::backend::cpu::compute::runnable(e));
            let Some(exe) = runnable else {
                l.warn_shader_work("Dispatch");
                s.commands.push(shader_work(g, "dispatch", true));
                return Ok(());
            };
            if x == 0 || y == 0 || z == 0 {
                return Ok(());
            }
            let work =
                DispatchWork { pipeline: exe.clone(), binds: binds(&l.device.inner, g, true), groups: [x, y, z] };
            s.commands.push(Command::Dispatch(Box::new(work)));
            Ok(())
        })
    }
}

unsafe extern "C" fn dispatch_mesh(this: *mut Iface, _x: UINT, _y: UINT, _z: UINT) {
    // SAFETY: forwarded. Mesh shaders are reported unsupported (OPTIONS7 tier 0).
    unsafe {
        record(this, "DispatchMesh", |_, _| {
            Err(rec_err(
                D3D12_MESSAGE_ID_COMMAND_LIST_DISPATCH_ROOT_SIGNATURE_NOT_SET,
                "mesh shaders are not supported",
            ))
        })
    }
}

/// ExecuteIndirect: validated against the command signature (IndirectDrawing.md, "Drawing" and
/// "Bundles"): offsets 4-byte aligned, the MaxCommandCount records inside the argument buffer
/// (ArgumentBufferOffset + ByteStride × (MaxCommandCount − 1) + the record's argument bytes), the
/// count inside the count buffer, buffers only; drawing signatures on direct lists and bundles,
/// and in bundles no count buffer and a signature of one argument.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn execute_indirect(
    this: *mut Iface,
    sig: *mut ID3D12CommandSignature,
    max: UINT,
    args: *mut ID3D12Resource,
    args_off: UINT64,
    count: *mut ID3D12Resource,
    count_off: UINT64,
) {
    use rd3d12_core::indirect::{self, IndirectError, ListKind};
    const INVALID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_EXECUTE_INDIRECT_INVALID_PARAMETERS;
    // SAFETY: forwarded; the signature and buffers are recognised by their vtables.
    unsafe {
        let kind = match list(this).map(|l| l.ty) {
            Some(D3D12_COMMAND_LIST_TYPE_DIRECT) => ListKind::Direct,
            Some(D3D12_COMMAND_LIST_TYPE_BUNDLE) => ListKind::Bundle,
            Some(D3D12_COMMAND_LIST_TYPE_COMPUTE) => ListKind::Compute,
            _ => ListKind::Other,
        };
        let check = || {
            let sig = crate::command_signature::CommandSignature::from_iface(sig)
                .ok_or_else(|| rec_err(INVALID, "pCommandSignature is NULL or not a command signature"))?;
            let buffer = |r: &Object<Resource>, what: &'static str| {
                if r.inner.is_buffer() {
                    Ok(r.inner.desc.Width)
                } else {
                    Err(rec_err(INVALID, what))
                }
            };
            let a = resource(args, INVALID, "pArgumentBuffer is NULL or not a resource")?;
            let a = (buffer(a, "pArgumentBuffer is not a buffer")?, args_off);
            let c = if count.is_null() {
                None
            } else {
                let c = resource(count, INVALID, "pCountBuffer is not a resource")?;
                Some((buffer(c, "pCountBuffer is not a buffer")?, count_off))
            };
            indirect::execute_indirect(&sig.inner.layout, kind, max, a, c).map_err(|e| match e {
                IndirectError::ListType(_) => {
                    wrong_list_type("this command signature cannot execute on this command list type")
                }
                IndirectError::Invalid(m) => rec_err(INVALID, m),
            })?;
            Ok(Some(sig.inner.layout.clone()))
        };
        record(this, "ExecuteIndirect", |l, s| {
            if !COMPUTE.contains(&l.ty) {
                return Err(wrong_list_type("this command is not valid on this command list type"));
            }
            let Some(layout) = check()? else { return Ok(()) };
            // Validated above: both are buffers when present.
            let a = resource(args, INVALID, "pArgumentBuffer is NULL")?;
            let c = if count.is_null() { None } else { Some((resource(count, INVALID, "pCountBuffer")?, count_off)) };
            record_indirect(l, s, layout, max, (a, args_off), c);
            Ok(())
        })
    }
}

/// Records an ExecuteIndirect whose arguments were validated: the state its draws or
/// dispatches start from, the argument buffer and the count buffer, read at execution.
///
/// # Safety
/// `this` null or one of our live lists; the buffers live COM pointers (validated).
unsafe fn record_indirect(
    l: &CommandList,
    s: &mut ListState,
    layout: rd3d12_core::indirect::CommandSignature,
    max: u32,
    args: (&Object<Resource>, u64),
    count: Option<(&Object<Resource>, u64)>,
) {
    use rd3d12_core::indirect::SignatureKind;
    if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE {
        let work = BundleWork::Indirect {
            layout,
            max,
            args: (args.0.inner.memory(), args.1),
            count: count.map(|(c, off)| (c.inner.memory(), off)),
        };
        s.commands.push(Command::BundleWork(Box::new((s.gfx.clone(), work))));
        return;
    }
    let g = &s.gfx;
    let dev = &l.device.inner;
    let compute = layout.kind == SignatureKind::Compute;
    check_work_state(dev, g, "ExecuteIndirect", compute, None);
    let Some(base) = indirect_base(dev, g, compute) else {
        l.warn_shader_work("ExecuteIndirect");
        s.commands.push(shader_work(g, "set of indirect commands", compute));
        return;
    };
    s.commands.push(Command::Indirect(Box::new(IndirectWork {
        layout,
        max,
        args: (args.0.inner.memory(), args.1),
        count: count.map(|(c, off)| (c.inner.memory(), off)),
        base,
    })));
}

// ---- clears -----------------------------------------------------------------------------------

/// The rectangles of a clear (none: the whole view).
///
/// # Safety
/// `rects` null or `n` readable rects.
unsafe fn clear_rects<'a>(n: UINT, rects: *const D3D12_RECT, id: D3D12_MESSAGE_ID) -> Result<&'a [D3D12_RECT]> {
    if n == 0 {
        Ok(&[])
    } else if rects.is_null() {
        Err(rec_err(id, "pRects is NULL with NumRects > 0"))
    } else {
        // SAFETY: the caller passes n readable rects.
        Ok(unsafe { std::slice::from_raw_parts(rects, n as usize) })
    }
}

/// The live descriptor of kind `kind` at a CPU handle, or a recording error.
fn clear_view(l: &CommandList, h: D3D12_CPU_DESCRIPTOR_HANDLE, kind: Kind, id: D3D12_MESSAGE_ID) -> Result<Descriptor> {
    descriptor_heap::descriptor_at(&l.device.inner, h)
        .filter(|d| d.kind == kind)
        .ok_or_else(|| rec_err(id, "the descriptor handle is not a descriptor of the right type in a live heap"))
}

/// Records a clear of `plane` of the view's resource with one encoded element.
fn push_clear(
    l: &CommandList,
    s: &mut ListState,
    view: &Descriptor,
    plane: u32,
    (element, bytes): ([u8; 16], usize),
    rects: &[D3D12_RECT],
    id: D3D12_MESSAGE_ID,
) -> Result<()> {
    let e = descriptor_heap::resolve(&l.device.inner, view.resource).ok_or_else(|| {
        rec_err(D3D12_MESSAGE_ID_DESCRIPTOR_HANDLE_WITH_INVALID_RESOURCE, "the view's resource is destroyed")
    })?;
    let fills = if e.desc.Dimension == D3D12_RESOURCE_DIMENSION_BUFFER {
        clear::buffer_fills(e.desc.Width, view, bytes as u32, rects)
    } else {
        clear::texture_fills(&e.desc, view, plane, bytes as u32, rects)
    }
    .map_err(|_| rec_err(id, "the view does not fit its resource"))?;
    if !fills.is_empty() {
        e.memory.mark_dirty();
        s.commands.push(Command::Fill { memory: e.memory, fills, element, element_bytes: bytes as u32 });
    }
    Ok(())
}

unsafe extern "C" fn clear_dsv(
    this: *mut Iface,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
    flags: D3D12_CLEAR_FLAGS,
    depth: FLOAT,
    stencil: UINT8,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEARDEPTHSTENCILVIEW_INVALID;
    // SAFETY: rects null or n readable rects.
    unsafe {
        record(this, "ClearDepthStencilView", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("ClearDepthStencilView is valid on direct command lists only"));
            }
            if flags.0 == 0 || flags.0 & !3 != 0 {
                return Err(rec_err(ID, "ClearFlags must be DEPTH, STENCIL or both"));
            }
            if !(0.0..=1.0).contains(&depth) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_CLEARDEPTHSTENCILVIEW_MISMATCHINGCLEARVALUE,
                    "Depth must be within [0, 1]",
                ));
            }
            let rects = clear_rects(n, rects, ID)?;
            let view = clear_view(l, h, Kind::DSV, D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE)?;
            if view.is_null() {
                return Ok(());
            }
            // The view's READ_ONLY_DEPTH / READ_ONLY_STENCIL flags say how OMSetRenderTargets
            // binds it; they do not limit the clear, which writes the planes ClearFlags names
            // (Windows accepts these clears).
            if flags.0 & D3D12_CLEAR_FLAG_DEPTH.0 != 0 {
                let e = pack::encode_depth(view.format, depth).ok_or_else(|| rec_err(ID, "not a depth format"))?;
                push_clear(l, s, &view, 0, e, rects, ID)?;
            }
            // STENCIL on a format without stencil clears nothing.
            if flags.0 & D3D12_CLEAR_FLAG_STENCIL.0 != 0 {
                if let Some(e) = pack::encode_stencil(view.format, stencil) {
                    push_clear(l, s, &view, 1, e, rects, ID)?;
                }
            }
            Ok(())
        })
    }
}

unsafe extern "C" fn clear_rtv(
    this: *mut Iface,
    h: D3D12_CPU_DESCRIPTOR_HANDLE,
    color: *const FLOAT,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEARRENDERTARGETVIEW_MISMATCHINGCLEARVALUE;
    // SAFETY: color null or 4 readable floats; rects null or n readable rects.
    unsafe {
        record(this, "ClearRenderTargetView", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("ClearRenderTargetView is valid on direct command lists only"));
            }
            if color.is_null() {
                return Err(rec_err(ID, "ColorRGBA is NULL"));
            }
            let rects = clear_rects(n, rects, ID)?;
            let view = clear_view(l, h, Kind::RTV, D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE)?;
            if view.is_null() {
                return Ok(());
            }
            let rgba = std::ptr::read_unaligned(color.cast::<[f32; 4]>());
            let e = pack::encode_color(view.format, rgba)
                .ok_or_else(|| rec_err(ID, "the view format cannot be cleared"))?;
            push_clear(l, s, &view, view.plane as u32, e, rects, ID)
        })
    }
}

/// ClearUnorderedAccessViewUint / Float: the GPU handle must address the view in a
/// shader-visible heap, the CPU handle the same view in a heap that is not, and pResource
/// must be the view's resource.
#[allow(clippy::too_many_arguments)]
unsafe fn clear_uav(
    this: *mut Iface,
    name: &'static str,
    gpu: D3D12_GPU_DESCRIPTOR_HANDLE,
    cpu: D3D12_CPU_DESCRIPTOR_HANDLE,
    res: *mut ID3D12Resource,
    values: *const c_void,
    float: bool,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    const HANDLE: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEAR_UNORDERED_ACCESS_VIEW_INVALID_DESCRIPTOR_HANDLE;
    const PTR: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_CLEARUNORDEREDACCESSVIEW_INVALID_RESOURCE_PTR;
    // SAFETY: values null or 4 readable 32-bit values; rects null or n readable rects.
    unsafe {
        record(this, name, |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT && l.ty != D3D12_COMMAND_LIST_TYPE_COMPUTE {
                return Err(wrong_list_type("UAV clears are valid on direct and compute command lists only"));
            }
            if values.is_null() {
                return Err(rec_err(HANDLE, "Values is NULL"));
            }
            let rects = clear_rects(n, rects, HANDLE)?;
            let dev = &l.device.inner;
            let visible = |p: usize| dev.descriptor_heaps.span(p).map(|s| s.visible);
            if visible(cpu.ptr) != Some(false) {
                return Err(rec_err(HANDLE, "ViewCPUHandle must be in a heap that is not shader-visible"));
            }
            let view = clear_view(l, cpu, Kind::UAV, HANDLE)?;
            let gview = descriptor_heap::descriptor_at_gpu(dev, gpu)
                .filter(|g| g.kind == Kind::UAV)
                .ok_or_else(|| rec_err(HANDLE, "ViewGPUHandleInCurrentHeap is not a UAV in a shader-visible heap"))?;
            // A NULL UAV (created with pResource NULL) views nothing: the clear writes nothing,
            // whatever pResource is, and Windows closes the list.
            if view.is_null() {
                return Ok(());
            }
            let r = resource(res, PTR, "pResource is NULL or not a resource")?;
            if view.resource != r.inner.id || gview.resource != view.resource {
                return Err(rec_err(PTR, "pResource is not the resource of the views"));
            }
            s.use_as(r, D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES, D3D12_RESOURCE_STATE_UNORDERED_ACCESS.0);
            let e = if float {
                // FLOAT, UNORM, SNORM and integer views (integers take the values as
                // integral floats); raw and structured views are refused.
                pack::encode_uav_float(view.format, std::ptr::read_unaligned(values.cast::<[f32; 4]>()))
            } else {
                pack::encode_uint(view.format, std::ptr::read_unaligned(values.cast::<[u32; 4]>()))
            };
            let e = e.ok_or_else(|| {
                rec_err(
                    D3D12_MESSAGE_ID_CLEARUNORDEREDACCESSVIEW_INCOMPATIBLE_WITH_STRUCTURED_BUFFERS,
                    "this clear is not valid for the view's format",
                )
            })?;
            push_clear(l, s, &view, view.plane as u32, e, rects, HANDLE)
        })
    }
}

unsafe extern "C" fn clear_uav_uint(
    this: *mut Iface,
    g: D3D12_GPU_DESCRIPTOR_HANDLE,
    c: D3D12_CPU_DESCRIPTOR_HANDLE,
    r: *mut ID3D12Resource,
    v: *const UINT,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    // SAFETY: forwarded.
    unsafe { clear_uav(this, "ClearUnorderedAccessViewUint", g, c, r, v.cast(), false, n, rects) }
}
unsafe extern "C" fn clear_uav_float(
    this: *mut Iface,
    g: D3D12_GPU_DESCRIPTOR_HANDLE,
    c: D3D12_CPU_DESCRIPTOR_HANDLE,
    r: *mut ID3D12Resource,
    v: *const FLOAT,
    n: UINT,
    rects: *const D3D12_RECT,
) {
    // SAFETY: forwarded.
    unsafe { clear_uav(this, "ClearUnorderedAccessViewFloat", g, c, r, v.cast(), true, n, rects) }
}

/// DiscardResource: contents become undefined; keeping them is a valid outcome on a CPU backend.
unsafe extern "C" fn discard_resource(this: *mut Iface, res: *mut ID3D12Resource, region: *const D3D12_DISCARD_REGION) {
    // SAFETY: resource recognised by vtable; region null or readable.
    unsafe {
        record(this, "DiscardResource", |l, s| {
            if l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE || l.ty == D3D12_COMMAND_LIST_TYPE_COPY {
                return Err(wrong_list_type("DiscardResource is not valid on bundles or copy lists"));
            }
            let r = resource(res, D3D12_MESSAGE_ID_DISCARD_INVALID_SUBRESOURCE_RANGE, "pResource is NULL")?;
            if let Some(reg) = region.as_ref() {
                if reg.FirstSubresource.checked_add(reg.NumSubresources).is_none_or(|e| e > r.inner.subresource_count) {
                    return Err(rec_err(
                        D3D12_MESSAGE_ID_DISCARD_INVALID_SUBRESOURCE_RANGE,
                        "discard region beyond the resource",
                    ));
                }
                if reg.NumRects > 0 && reg.pRects.is_null() {
                    return Err(rec_err(D3D12_MESSAGE_ID_DISCARD_INVALID_SUBRESOURCE_RANGE, "NULL rects"));
                }
            }
            s.touch(r);
            Ok(())
        })
    }
}

/// A RESOLVE ending access of a render pass, copied out of the BeginRenderPass desc (whose
/// memory the application may reuse before EndRenderPass).
#[derive(Clone, Copy)]
struct PassResolve {
    src: *mut ID3D12Resource,
    dst: *mut ID3D12Resource,
    sub: D3D12_RENDER_PASS_ENDING_ACCESS_RESOLVE_SUBRESOURCE_PARAMETERS,
    format: DXGI_FORMAT,
    mode: D3D12_RESOLVE_MODE,
}

// SAFETY: the pointers are only compared and passed back to `record_resolve`, which recognises
// them by vtable, on the thread recording the list (lists are not free-threaded).
unsafe impl Send for PassResolve {}

/// The RESOLVE ending accesses of an ending-access desc.
///
/// # Safety
/// The desc's pSubresourceParameters holds SubresourceCount readable entries when non-null.
unsafe fn pass_resolves(e: &D3D12_RENDER_PASS_ENDING_ACCESS, out: &mut Vec<PassResolve>) -> Result<()> {
    if e.Type != D3D12_RENDER_PASS_ENDING_ACCESS_TYPE_RESOLVE {
        return Ok(());
    }
    // SAFETY: the union holds the resolve parameters for a RESOLVE access.
    let r = unsafe { e.__bindgen_anon_1.Resolve };
    // SAFETY: forwarded.
    for sub in unsafe { array(r.pSubresourceParameters, r.SubresourceCount)? } {
        out.push(PassResolve { src: r.pSrcResource, dst: r.pDstResource, sub, format: r.Format, mode: r.ResolveMode });
    }
    Ok(())
}

/// BeginRenderPass (render passes tier 0: the runtime emulates them): binds the render targets
/// and the depth-stencil view as OMSetRenderTargets does, and performs each CLEAR beginning
/// access as ClearRenderTargetView / ClearDepthStencilView would (PRESERVE, DISCARD and
/// NO_ACCESS need nothing on this backend). Render passes do not nest.
unsafe extern "C" fn begin_render_pass(
    this: *mut Iface,
    n: UINT,
    rts: *const D3D12_RENDER_PASS_RENDER_TARGET_DESC,
    ds: *const D3D12_RENDER_PASS_DEPTH_STENCIL_DESC,
    _flags: D3D12_RENDER_PASS_FLAGS,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_INVALID_DESCRIPTOR_HANDLE;
    // SAFETY: rts null or n readable descs; ds null or readable.
    unsafe {
        record(this, "BeginRenderPass", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("render passes need a direct command list"));
            }
            if s.in_render_pass {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_RENDER_PASS_CANNOT_NEST_RENDER_PASSES,
                    "render passes do not nest",
                ));
            }
            if n > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COMMAND_LIST_SETRENDERTARGETS_INVALIDNUMRENDERTARGETS,
                    "more than 8 render targets",
                ));
            }
            let rts = array(rts, n)?;
            let ds = ds.as_ref().copied();
            let dev = &l.device.inner;
            let is = |h: D3D12_CPU_DESCRIPTOR_HANDLE, ty: D3D12_DESCRIPTOR_HEAP_TYPE| {
                dev.descriptor_heaps.run(h.ptr, 1, ty.0).is_some()
            };
            if !rts.iter().all(|r| is(r.cpuDescriptor, D3D12_DESCRIPTOR_HEAP_TYPE_RTV)) {
                return Err(rec_err(ID, "a render target's cpuDescriptor is not a descriptor of a live RTV heap"));
            }
            let ds_handle = ds.map(|d| d.cpuDescriptor).filter(|h| h.ptr != 0);
            if ds_handle.is_some_and(|h| !is(h, D3D12_DESCRIPTOR_HEAP_TYPE_DSV)) {
                return Err(rec_err(ID, "the depth-stencil cpuDescriptor is not a descriptor of a live DSV heap"));
            }
            for r in &rts {
                if r.BeginningAccess.Type != D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR {
                    continue;
                }
                let view = clear_view(l, r.cpuDescriptor, Kind::RTV, ID)?;
                if view.is_null() {
                    continue;
                }
                let rgba = r.BeginningAccess.__bindgen_anon_1.Clear.ClearValue.__bindgen_anon_1.Color;
                let e = pack::encode_color(view.format, rgba)
                    .ok_or_else(|| rec_err(ID, "the view format cannot be cleared"))?;
                push_clear(l, s, &view, view.plane as u32, e, &[], ID)?;
            }
            if let (Some(d), Some(h)) = (ds, ds_handle) {
                let depth = d.DepthBeginningAccess.Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
                let stencil = d.StencilBeginningAccess.Type == D3D12_RENDER_PASS_BEGINNING_ACCESS_TYPE_CLEAR;
                if depth || stencil {
                    let view = clear_view(l, h, Kind::DSV, ID)?;
                    if !view.is_null() {
                        if depth {
                            let v =
                                d.DepthBeginningAccess.__bindgen_anon_1.Clear.ClearValue.__bindgen_anon_1.DepthStencil;
                            let e = pack::encode_depth(view.format, v.Depth)
                                .ok_or_else(|| rec_err(ID, "not a depth format"))?;
                            push_clear(l, s, &view, 0, e, &[], ID)?;
                        }
                        if stencil {
                            let v = d
                                .StencilBeginningAccess
                                .__bindgen_anon_1
                                .Clear
                                .ClearValue
                                .__bindgen_anon_1
                                .DepthStencil;
                            if let Some(e) = pack::encode_stencil(view.format, v.Stencil) {
                                push_clear(l, s, &view, 1, e, &[], ID)?;
                            }
                        }
                    }
                }
            }
            let mut resolves = Vec::new();
            for r in &rts {
                pass_resolves(&r.EndingAccess, &mut resolves)?;
            }
            if let Some(d) = &ds {
                pass_resolves(&d.DepthEndingAccess, &mut resolves)?;
                pass_resolves(&d.StencilEndingAccess, &mut resolves)?;
            }
            s.pass_resolves = resolves;
            s.gfx.render_targets = rts.iter().map(|r| r.cpuDescriptor).collect();
            s.gfx.depth_stencil = ds_handle;
            s.in_render_pass = true;
            Ok(())
        })
    }
}

/// EndRenderPass: performs the pass's RESOLVE ending accesses as ResolveSubresourceRegion
/// (each subresource's SrcRect to (DstX, DstY)).
unsafe extern "C" fn end_render_pass(this: *mut Iface) {
    // SAFETY: forwarded.
    unsafe {
        let mut resolves = Vec::new();
        record(this, "EndRenderPass", |_, s| {
            if !std::mem::replace(&mut s.in_render_pass, false) {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_RENDER_PASS_CANNOT_END_WITHOUT_BEGIN,
                    "EndRenderPass without BeginRenderPass",
                ));
            }
            resolves = std::mem::take(&mut s.pass_resolves);
            Ok(())
        });
        for r in resolves {
            let p = r.sub;
            let rect = (p.SrcRect.right > p.SrcRect.left && p.SrcRect.bottom > p.SrcRect.top).then_some(p.SrcRect);
            record_resolve(
                this,
                "EndRenderPass",
                r.dst,
                p.DstSubresource,
                (p.DstX, p.DstY),
                r.src,
                p.SrcSubresource,
                rect,
                r.format,
                r.mode,
                true,
            );
        }
    }
}

/// Features the adapter reports absent: calling them is an invalid call that fails Close.
macro_rules! unsupported {
    ($($name:ident($($a:ident : $t:ty),*) => $what:literal;)*) => {$(
        unsafe extern "C" fn $name(this: *mut Iface, $($a: $t),*) {
            $(let _ = $a;)*
            // SAFETY: forwarded.
            unsafe {
                record(this, stringify!($name), |_, _| Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, $what)))
            }
        }
    )*};
}

unsupported! {
    initialize_meta_command(_m: *mut ID3D12MetaCommand, _d: *const c_void, _s: SIZE_T) => "no meta commands exist on this adapter";
    execute_meta_command(_m: *mut ID3D12MetaCommand, _d: *const c_void, _s: SIZE_T) => "no meta commands exist on this adapter";
    build_raytracing_as(_d: *const D3D12_BUILD_RAYTRACING_ACCELERATION_STRUCTURE_DESC, _n: UINT, _p: *const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC) => "raytracing is not supported";
    emit_raytracing_postbuild(_d: *const D3D12_RAYTRACING_ACCELERATION_STRUCTURE_POSTBUILD_INFO_DESC, _n: UINT, _p: *const D3D12_GPU_VIRTUAL_ADDRESS) => "raytracing is not supported";
    copy_raytracing_as(_d: D3D12_GPU_VIRTUAL_ADDRESS, _s: D3D12_GPU_VIRTUAL_ADDRESS, _m: D3D12_RAYTRACING_ACCELERATION_STRUCTURE_COPY_MODE) => "raytracing is not supported";
    set_pipeline_state1(_s: *mut ID3D12StateObject) => "state objects (raytracing) are not supported";
    dispatch_rays(_d: *const D3D12_DISPATCH_RAYS_DESC) => "raytracing is not supported";
    rs_set_shading_rate(_r: D3D12_SHADING_RATE, _c: *const D3D12_SHADING_RATE_COMBINER) => "variable-rate shading is not supported";
    rs_set_shading_rate_image(_r: *mut ID3D12Resource) => "variable-rate shading is not supported";
    om_set_depth_bounds(_min: FLOAT, _max: FLOAT) => "depth bounds tests are not supported";
    om_set_front_and_back_stencil_ref(_f: UINT, _b: UINT) => "independent front and back stencil references are not supported";
}

unsafe extern "C" fn set_protected_resource_session(this: *mut Iface, session: *mut ID3D12ProtectedResourceSession) {
    // SAFETY: forwarded.
    unsafe {
        record(this, "SetProtectedResourceSession", |_, _| {
            if session.is_null() {
                Ok(())
            } else {
                Err(rec_err(
                    D3D12_MESSAGE_ID_PROTECTED_RESOURCE_SESSION_UNSUPPORTED,
                    "protected resource sessions are not supported",
                ))
            }
        })
    }
}

// ---- recorded pipeline state ------------------------------------------------------------------

/// A state-setting method: legal on `allowed` list types, then `f` updates the recorded state.
///
/// # Safety
/// `this` null or one of our live list pointers.
unsafe fn set_state(
    this: *mut Iface,
    name: &'static str,
    allowed: &[D3D12_COMMAND_LIST_TYPE],
    f: impl FnOnce(&mut GraphicsState) -> Result<()>,
) {
    // SAFETY: forwarded.
    unsafe {
        record(this, name, |l, s| {
            if !allowed.contains(&l.ty) {
                return Err(wrong_list_type("this state cannot be set on this command list type"));
            }
            s.gfx.bundle = l.ty == D3D12_COMMAND_LIST_TYPE_BUNDLE;
            f(&mut s.gfx)
        })
    }
}

/// # Safety
/// `p` null or `n` readable elements.
unsafe fn array<T: Copy>(p: *const T, n: u32) -> Result<Vec<T>> {
    if n == 0 {
        return Ok(Vec::new());
    }
    if p.is_null() {
        return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "NULL array with a non-zero count"));
    }
    // SAFETY: forwarded.
    Ok(unsafe { std::slice::from_raw_parts(p, n as usize) }.to_vec())
}

unsafe extern "C" fn ia_set_primitive_topology(this: *mut Iface, t: D3D12_PRIMITIVE_TOPOLOGY) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "IASetPrimitiveTopology", DIRECT, |g| {
            g.topology = t.0 as i32;
            Ok(())
        })
    }
}
unsafe extern "C" fn rs_set_viewports(this: *mut Iface, n: UINT, v: *const D3D12_VIEWPORT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "RSSetViewports", DIRECT, |g| {
            if n > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "more than 16 viewports"));
            }
            g.viewports = array(v, n)?;
            Ok(())
        })
    }
}
unsafe extern "C" fn rs_set_scissor_rects(this: *mut Iface, n: UINT, r: *const D3D12_RECT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "RSSetScissorRects", DIRECT, |g| {
            if n > D3D12_VIEWPORT_AND_SCISSORRECT_OBJECT_COUNT_PER_PIPELINE {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "more than 16 scissor rects"));
            }
            g.scissors = array(r, n)?;
            Ok(())
        })
    }
}
unsafe extern "C" fn om_set_blend_factor(this: *mut Iface, f: *const FLOAT) {
    // SAFETY: forwarded; `f` null or 4 floats.
    unsafe {
        set_state(this, "OMSetBlendFactor", DIRECT, |g| {
            g.blend_factor = if f.is_null() { [1.0; 4] } else { *(f as *const [f32; 4]) };
            g.bundle_set.blend_factor = true;
            Ok(())
        })
    }
}
/// [SetSamplePositions](https://learn.microsoft.com/windows/win32/api/d3d12/nf-d3d12-id3d12graphicscommandlist1-setsamplepositions)
/// at tier 1: one pattern for every pixel, used by later draws whose pipeline has that many
/// samples. (0, 0, NULL) restores the standard pattern; a sample count other than 1, 2, 4, 8
/// or 16, a pixel count other than 1 (4 needs tier 2), more than 16 positions or a position
/// outside [-8, 7] drops the call (Programmable Sample Positions spec). Not in bundles, which
/// inherit the pattern of the list that executes them.
unsafe extern "C" fn set_sample_positions(this: *mut Iface, n: UINT, pixels: UINT, p: *mut D3D12_SAMPLE_POSITION) {
    // SAFETY: forwarded; `p` holds n × pixels positions per the method's contract.
    unsafe {
        record(this, "SetSamplePositions", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("SetSamplePositions is for direct command lists only"));
            }
            if n == 0 && pixels == 0 {
                s.gfx.sample_positions.clear();
                return Ok(());
            }
            let tier = l.caps().programmable_sample_positions_tier;
            let counts_ok = matches!(n, 1 | 2 | 4 | 8 | 16) && (pixels == 1 || (pixels == 4 && tier >= 2));
            if !counts_ok || n * pixels > 16 || p.is_null() {
                return Ok(());
            }
            let all = array(p.cast_const(), n * pixels)?;
            if all.iter().any(|q| !(-8..=7).contains(&q.X) || !(-8..=7).contains(&q.Y)) {
                return Ok(());
            }
            s.gfx.sample_positions = all.iter().map(|q| (q.X, q.Y)).collect();
            Ok(())
        })
    }
}
unsafe extern "C" fn om_set_stencil_ref(this: *mut Iface, r: UINT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "OMSetStencilRef", DIRECT, |g| {
            g.stencil_ref = r;
            g.bundle_set.stencil_ref = true;
            Ok(())
        })
    }
}
unsafe extern "C" fn set_pipeline_state(this: *mut Iface, p: *mut ID3D12PipelineState) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "SetPipelineState", COMPUTE, |g| {
            let Some(pso) = crate::pipeline_state::PipelineState::from_iface(p) else {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COMMAND_LIST_PIPELINE_STATE_NOT_SET,
                    "pPipelineState is NULL or not a pipeline state",
                ));
            };
            g.pipeline = p as usize;
            g.executable = Some(pso.inner.pipeline.clone());
            Ok(())
        })
    }
}
unsafe extern "C" fn execute_bundle(this: *mut Iface, bundle: *mut ID3D12GraphicsCommandList) {
    // SAFETY: the bundle recognised by vtable.
    unsafe {
        record(this, "ExecuteBundle", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("bundles execute on direct command lists only"));
            }
            let b = downcast::<CommandList, _>(bundle).ok_or_else(|| {
                rec_err(D3D12_MESSAGE_ID_EXECUTE_BUNDLE_TYPE, "pCommandList is NULL or not a command list")
            })?;
            if b.inner.ty != D3D12_COMMAND_LIST_TYPE_BUNDLE {
                return Err(rec_err(D3D12_MESSAGE_ID_EXECUTE_BUNDLE_TYPE, "ExecuteBundle needs a bundle"));
            }
            let rec = {
                let bs = b.inner.lock();
                match (bs.phase, &bs.recorded) {
                    (Phase::Closed, Some(r)) => r.clone(),
                    _ => return Err(rec_err(D3D12_MESSAGE_ID_EXECUTE_BUNDLE_OPEN_BUNDLE, "the bundle is not closed")),
                }
            };
            // The bundle's draws and dispatches run with this list's state plus what the bundle
            // set before them; the rest of the bundle (markers) runs as recorded.
            for c in &rec.commands {
                let Command::BundleWork(w) = c else { continue };
                let (bg, work) = &**w;
                let merged = s.gfx.with_bundle(bg);
                materialize(l, s, &merged, work);
            }
            s.commands.push(Command::Bundle(rec.clone()));
            // What the bundle set stays set in this list.
            if let Some(end) = &rec.bundle_state {
                s.gfx = s.gfx.with_bundle(end);
            }
            Ok(())
        })
    }
}
/// SetDescriptorHeaps: shader-visible heaps, at most one CBV/SRV/UAV heap and one sampler heap.
unsafe extern "C" fn set_descriptor_heaps(this: *mut Iface, n: UINT, heaps: *const *mut ID3D12DescriptorHeap) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_SET_DESCRIPTOR_HEAP_INVALID;
    // SAFETY: forwarded; the heaps recognised by vtable.
    unsafe {
        set_state(this, "SetDescriptorHeaps", COMPUTE, |g| {
            if n > 2 {
                return Err(rec_err(ID, "at most one CBV/SRV/UAV and one sampler heap"));
            }
            let mut bound = Vec::with_capacity(n as usize);
            for p in array(heaps, n)? {
                let h = downcast::<DescriptorHeap, _>(p)
                    .ok_or_else(|| rec_err(ID, "ppDescriptorHeaps holds NULL or a non-heap"))?;
                let d = &h.inner.desc;
                if d.Flags.0 & D3D12_DESCRIPTOR_HEAP_FLAG_SHADER_VISIBLE.0 == 0 {
                    return Err(rec_err(ID, "the heap is not shader-visible"));
                }
                let ty = d.Type.0;
                if ty != D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV.0 && ty != D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER.0 {
                    return Err(rec_err(ID, "only CBV/SRV/UAV and sampler heaps can be set"));
                }
                if bound.iter().any(|(_, t)| *t == ty) {
                    return Err(rec_err(ID, "two heaps of one type"));
                }
                let start = h.inner.gpu_start().ptr;
                let end = start + d.NumDescriptors as u64 * rd3d12_core::descriptor::DESCRIPTOR_SIZE as u64;
                bound.push((start..end, ty));
            }
            g.descriptor_heaps = bound;
            g.bundle_set.descriptor_heaps = true;
            Ok(())
        })
    }
}

/// Set{Compute,Graphics}RootSignature: the root signature (NULL unbinds), whose change
/// drops the root arguments set for that pipeline type.
///
/// # Safety
/// `this` null or one of our live lists; `r` null or a live COM pointer.
unsafe fn set_root_signature(
    this: *mut Iface,
    name: &'static str,
    allowed: &[D3D12_COMMAND_LIST_TYPE],
    compute: bool,
    r: *mut ID3D12RootSignature,
) {
    // SAFETY: forwarded; the root signature recognised by vtable.
    unsafe {
        set_state(this, name, allowed, |g| {
            let (slots, desc) = if r.is_null() {
                (None, None)
            } else {
                let rs = RootSignature::from_iface(r).ok_or_else(|| {
                    rec_err(D3D12_MESSAGE_ID_CREATE_ROOT_SIGNATURE_NOT_SUPPORTED_ON_DEVICE, "not a root signature")
                })?;
                (Some(rs.inner.slots().clone()), Some(rs.inner.shared_desc().clone()))
            };
            g.root_canonical[usize::from(!compute)] =
                RootSignature::from_iface(r).map(|rs| rs.inner.canonical().clone());
            g.root_descs[usize::from(!compute)] = desc;
            g.bundle_set.root_signature[usize::from(!compute)] = true;
            let slot = &mut g.root_slots[usize::from(!compute)];
            let same = (
                slot.as_ref().map(|s| Arc::as_ptr(s) as *const u8),
                slots.as_ref().map(|s| Arc::as_ptr(s) as *const u8),
            );
            if same.0 != same.1 {
                g.root_args.retain(|a| a.0 != compute);
            }
            *slot = slots;
            if compute {
                g.compute_root_signature = r as usize;
            } else {
                g.graphics_root_signature = r as usize;
            }
            Ok(())
        })
    }
}

unsafe extern "C" fn set_compute_root_signature(this: *mut Iface, r: *mut ID3D12RootSignature) {
    // SAFETY: forwarded.
    unsafe { set_root_signature(this, "SetComputeRootSignature", COMPUTE, true, r) }
}
unsafe extern "C" fn set_graphics_root_signature(this: *mut Iface, r: *mut ID3D12RootSignature) {
    // SAFETY: forwarded.
    unsafe { set_root_signature(this, "SetGraphicsRootSignature", DIRECT, false, r) }
}

/// A SetRoot* call: checked against the bound root signature, then recorded. A descriptor
/// table outside the bound heap of its ranges' type is reported by the debug layer only.
fn set_root(g: &mut GraphicsState, name: &str, compute: bool, index: u32, arg: RootArg) -> Result<()> {
    let (set, id) = match &arg {
        RootArg::Table(_) => (RootSet::Table, D3D12_MESSAGE_ID_SET_DESCRIPTOR_TABLE_INVALID),
        RootArg::Constants(off, v) => {
            (RootSet::Constants { offset: *off, count: v.len() as u32 }, D3D12_MESSAGE_ID_SET_ROOT_CONSTANT_INVALID)
        }
        RootArg::View(RootView::Cbv, _) => (RootSet::Cbv, D3D12_MESSAGE_ID_SET_ROOT_CONSTANT_BUFFER_VIEW_INVALID),
        RootArg::View(RootView::Srv, _) => (RootSet::Srv, D3D12_MESSAGE_ID_SET_ROOT_SHADER_RESOURCE_VIEW_INVALID),
        RootArg::View(RootView::Uav, _) => (RootSet::Uav, D3D12_MESSAGE_ID_SET_ROOT_UNORDERED_ACCESS_VIEW_INVALID),
    };
    let slots = g.root_slots[usize::from(!compute)].as_deref();
    // A bundle without its own root signature sets arguments of the executing list's, which
    // only ExecuteBundle knows.
    let inherited = g.bundle && slots.is_none();
    if !inherited {
        check_root_set(slots, index, set).map_err(|m| rec_err(id, m))?;
    }
    // A table outside the bound heap of its type (none bound, another heap, the wrong type)
    // is the debug layer's finding only: Windows' runtime records the handle and Close
    // succeeds. At execution the table reads whatever descriptors its addresses hold in live
    // heaps, and nothing (zeros, dropped writes) elsewhere.
    let heaps_known = !g.bundle || g.bundle_set.descriptor_heaps;
    if let (RootArg::Table(h), Some(RootSlot::Table { sampler }), true) =
        (&arg, slots.and_then(|s| s.get(index as usize)), heaps_known)
    {
        let ty = if *sampler { D3D12_DESCRIPTOR_HEAP_TYPE_SAMPLER } else { D3D12_DESCRIPTOR_HEAP_TYPE_CBV_SRV_UAV };
        if !g.descriptor_heaps.iter().any(|(r, t)| *t == ty.0 && r.contains(h)) {
            let (kind, other) = if *sampler { ("SAMPLER", "CBV_SRV_UAV") } else { ("CBV_SRV_UAV", "SAMPLER") };
            let why = if g.descriptor_heaps.iter().any(|(r, t)| *t != ty.0 && r.contains(h)) {
                format!("is from a different descriptor heap type: D3D12_DESCRIPTOR_HEAP_TYPE_{other}")
            } else if g.descriptor_heaps.iter().any(|(_, t)| *t == ty.0) {
                "is not inside the descriptor heap of that type set on the command list".into()
            } else {
                "cannot be used: no descriptor heap of that type is set on the command list (SetDescriptorHeaps)".into()
            };
            crate::debug::report_list_parts(
                name,
                D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR,
                id.0,
                &format!(
                    "The currently set root signature declares parameter [{index}] as a descriptor table in a \
                     descriptor heap of type D3D12_DESCRIPTOR_HEAP_TYPE_{kind}, but the specified BaseDescriptor \
                     0x{h:x} {why}."
                ),
            );
        }
    }
    // Root constants accumulate: each call sets its values at its offset, keeping the others.
    let arg = match (arg, slots.and_then(|s| s.get(index as usize))) {
        (RootArg::Constants(off, v), Some(RootSlot::Constants(n))) => {
            let mut all = match g.root_args.iter().find(|a| a.0 == compute && a.1 == index) {
                Some((_, _, RootArg::Constants(0, old))) => old.clone(),
                _ => vec![0; *n as usize],
            };
            all.resize(*n as usize, 0);
            for (k, x) in v.into_iter().enumerate() {
                if let Some(d) = all.get_mut(off as usize + k) {
                    *d = x;
                }
            }
            RootArg::Constants(0, all)
        }
        (arg, _) => arg,
    };
    g.root_args.retain(|a| !(a.0 == compute && a.1 == index));
    g.root_args.push((compute, index, arg));
    Ok(())
}

macro_rules! root_setters {
    ($($name:ident $api:literal ($($a:ident : $t:ty),*) => $compute:expr, $allowed:expr, |$i:ident| $arg:expr;)*) => {$(
        unsafe extern "C" fn $name(this: *mut Iface, $i: UINT, $($a: $t),*) {
            // SAFETY: forwarded; arrays hold the counts given.
            unsafe { set_state(this, $api, $allowed, |g| { let arg = $arg?; set_root(g, $api, $compute, $i, arg) }) }
        }
    )*};
}

root_setters! {
    set_compute_root_table "SetComputeRootDescriptorTable" (h: D3D12_GPU_DESCRIPTOR_HANDLE) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::Table(h.ptr));
    set_graphics_root_table "SetGraphicsRootDescriptorTable" (h: D3D12_GPU_DESCRIPTOR_HANDLE) => false, DIRECT, |i| Ok::<_, Error>(RootArg::Table(h.ptr));
    set_compute_root_constant "SetComputeRoot32BitConstant" (v: UINT, off: UINT) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::Constants(off, vec![v]));
    set_graphics_root_constant "SetGraphicsRoot32BitConstant" (v: UINT, off: UINT) => false, DIRECT, |i| Ok::<_, Error>(RootArg::Constants(off, vec![v]));
    set_compute_root_constants "SetComputeRoot32BitConstants" (n: UINT, p: *const c_void, off: UINT) => true, COMPUTE, |i| array(p as *const u32, n).map(|v| RootArg::Constants(off, v));
    set_graphics_root_constants "SetGraphicsRoot32BitConstants" (n: UINT, p: *const c_void, off: UINT) => false, DIRECT, |i| array(p as *const u32, n).map(|v| RootArg::Constants(off, v));
    set_compute_root_cbv "SetComputeRootConstantBufferView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::View(RootView::Cbv, va));
    set_graphics_root_cbv "SetGraphicsRootConstantBufferView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => false, DIRECT, |i| Ok::<_, Error>(RootArg::View(RootView::Cbv, va));
    set_compute_root_srv "SetComputeRootShaderResourceView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::View(RootView::Srv, va));
    set_graphics_root_srv "SetGraphicsRootShaderResourceView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => false, DIRECT, |i| Ok::<_, Error>(RootArg::View(RootView::Srv, va));
    set_compute_root_uav "SetComputeRootUnorderedAccessView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => true, COMPUTE, |i| Ok::<_, Error>(RootArg::View(RootView::Uav, va));
    set_graphics_root_uav "SetGraphicsRootUnorderedAccessView" (va: D3D12_GPU_VIRTUAL_ADDRESS) => false, DIRECT, |i| Ok::<_, Error>(RootArg::View(RootView::Uav, va));
}

unsafe extern "C" fn ia_set_index_buffer(this: *mut Iface, v: *const D3D12_INDEX_BUFFER_VIEW) {
    // SAFETY: forwarded; view null or readable.
    unsafe {
        set_state(this, "IASetIndexBuffer", DIRECT, |g| {
            g.index_buffer = v.as_ref().copied();
            g.bundle_set.index_buffer = true;
            Ok(())
        })
    }
}
unsafe extern "C" fn ia_set_vertex_buffers(this: *mut Iface, start: UINT, n: UINT, v: *const D3D12_VERTEX_BUFFER_VIEW) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "IASetVertexBuffers", DIRECT, |g| {
            if start.checked_add(n).is_none_or(|e| e > D3D12_IA_VERTEX_INPUT_RESOURCE_SLOT_COUNT) {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "vertex buffer slots beyond 32"));
            }
            let views = if v.is_null() { vec![D3D12_VERTEX_BUFFER_VIEW::default(); n as usize] } else { array(v, n)? };
            for (k, view) in views.into_iter().enumerate() {
                let slot = start + k as u32;
                g.vertex_buffers.retain(|(s, _)| *s != slot);
                g.vertex_buffers.push((slot, view));
            }
            Ok(())
        })
    }
}
unsafe extern "C" fn so_set_targets(this: *mut Iface, start: UINT, n: UINT, v: *const D3D12_STREAM_OUTPUT_BUFFER_VIEW) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "SOSetTargets", DIRECT, |g| {
            if start.checked_add(n).is_none_or(|e| e > D3D12_SO_BUFFER_SLOT_COUNT) {
                return Err(rec_err(D3D12_MESSAGE_ID_COMMAND_LIST_OPEN, "stream-output slots beyond 4"));
            }
            let views =
                if v.is_null() { vec![D3D12_STREAM_OUTPUT_BUFFER_VIEW::default(); n as usize] } else { array(v, n)? };
            for (k, view) in views.into_iter().enumerate() {
                let slot = start + k as u32;
                g.so_targets.retain(|(s, _)| *s != slot);
                g.so_targets.push((slot, view));
            }
            Ok(())
        })
    }
}
/// OMSetRenderTargets: up to 8 RTVs (an array, or one handle starting a contiguous range of
/// the RTV heap) and an optional DSV, each a descriptor of its type in a live heap.
unsafe extern "C" fn om_set_render_targets(
    this: *mut Iface,
    n: UINT,
    rts: *const D3D12_CPU_DESCRIPTOR_HANDLE,
    single_range: BOOL,
    ds: *const D3D12_CPU_DESCRIPTOR_HANDLE,
) {
    const ID: D3D12_MESSAGE_ID = D3D12_MESSAGE_ID_SET_RENDER_TARGETS_INVALID;
    // SAFETY: rts null or n (or, for a single range, 1) readable handles; ds null or readable.
    unsafe {
        record(this, "OMSetRenderTargets", |l, s| {
            if l.ty != D3D12_COMMAND_LIST_TYPE_DIRECT {
                return Err(wrong_list_type("OMSetRenderTargets is valid on direct command lists only"));
            }
            if n > D3D12_SIMULTANEOUS_RENDER_TARGET_COUNT {
                return Err(rec_err(
                    D3D12_MESSAGE_ID_COMMAND_LIST_SETRENDERTARGETS_INVALIDNUMRENDERTARGETS,
                    "more than 8 render targets",
                ));
            }
            let handles: Vec<D3D12_CPU_DESCRIPTOR_HANDLE> = if single_range != 0 && n > 0 {
                let first = array(rts, 1)?[0];
                let step = rd3d12_core::descriptor::DESCRIPTOR_SIZE as usize;
                (0..n as usize).map(|i| D3D12_CPU_DESCRIPTOR_HANDLE { ptr: first.ptr + i * step }).collect()
            } else {
                array(rts, n)?
            };
            let dev = &l.device.inner;
            let is = |h: D3D12_CPU_DESCRIPTOR_HANDLE, ty: D3D12_DESCRIPTOR_HEAP_TYPE| {
                dev.descriptor_heaps.run(h.ptr, 1, ty.0).is_some()
            };
            if !handles.iter().all(|&h| is(h, D3D12_DESCRIPTOR_HEAP_TYPE_RTV)) {
                return Err(rec_err(ID, "a render-target handle is not a descriptor of a live RTV heap"));
            }
            let ds = ds.as_ref().copied();
            if ds.is_some_and(|h| !is(h, D3D12_DESCRIPTOR_HEAP_TYPE_DSV)) {
                return Err(rec_err(ID, "pDepthStencilDescriptor is not a descriptor of a live DSV heap"));
            }
            s.gfx.render_targets = handles;
            s.gfx.depth_stencil = ds;
            Ok(())
        })
    }
}
unsafe extern "C" fn set_view_instance_mask(this: *mut Iface, mask: UINT) {
    // SAFETY: forwarded.
    unsafe {
        set_state(this, "SetViewInstanceMask", DIRECT, |g| {
            // View instancing is reported unsupported (OPTIONS3 tier 0): only view 0 exists.
            if mask > 1 {
                return Err(rec_err(D3D12_MESSAGE_ID_VIEW_INSTANCING_UNSUPPORTED, "view instancing is not supported"));
            }
            g.view_instance_mask = mask;
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
