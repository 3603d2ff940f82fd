//! ID3D12CommandQueue: each queue executes on its own thread, in submission order, so fence
//! waits are real waits and a queue can wait for a value another queue or the CPU signals later.
//!
//! Timestamps: the GPU clock of the CPU adapter is CLOCK_MONOTONIC in nanoseconds, so
//! GetTimestampFrequency is 1 000 000 000 and GetClockCalibration pairs it with the same clock
//! (the CPU value is CLOCK_MONOTONIC in nanoseconds too).
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12commandqueue>

use crate::com::{downcast, Child, Class, Object, Ptr};
use crate::command_list::CommandList;
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use crate::fence::{Fence, FenceCore, QueueWait};
use crate::heap::Heap;
use crate::resource::{Backing, Resource};
use crate::work::commands::Recorded;
use crate::work::queries::{now_ns, TIMESTAMP_FREQUENCY};
use crate::work::tiles::{Range, TileMap};
use rd3d12_sys::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Work a queue's thread performs in order.
enum Work {
    Execute(Vec<Arc<Recorded>>),
    Signal(Arc<FenceCore>, u64),
    /// Registered on the fence when Wait was called.
    Wait(QueueWait),
    /// A tile-mapping update (UpdateTileMappings / CopyTileMappings).
    Tiles(Box<dyn FnOnce() + Send>),
    /// The queue's SetMarker (0) / BeginEvent (1) / EndEvent (2), submitted while tracing.
    Marker(u8, u32, Vec<u8>),
    /// The queue's SetName name, sent before the first submission after it changed while
    /// tracing: the queue's track takes it.
    Rename(String),
}

/// The GPU timeout of a queue's draws and dispatches, Windows' TDR on the CPU: `RD3D12_TDR_DELAY`
/// seconds (fractions allowed; `0` or `off`: none), else [`DEFAULT_TDR_DELAY_SECS`]; a queue
/// created with DISABLE_GPU_TIMEOUT has none.
pub fn gpu_timeout(flags: D3D12_COMMAND_QUEUE_FLAGS, env: Option<&str>) -> Option<std::time::Duration> {
    if flags.0 & D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT.0 != 0 {
        return None;
    }
    let secs = match env.map(str::trim) {
        None | Some("") => DEFAULT_TDR_DELAY_SECS,
        Some("off") => return None,
        Some(v) => match v.parse::<f64>() {
            Ok(s) if s.is_finite() && s >= 0.0 => s,
            _ => DEFAULT_TDR_DELAY_SECS,
        },
    };
    (secs > 0.0).then(|| std::time::Duration::from_secs_f64(secs.min(1e9)))
}

/// The default GPU timeout. Windows resets a GPU that runs one piece of work for 2 s; the CPU
/// backend is 30 to 1000 times slower than a GPU, so its default only catches work that would
/// never end (an endless shader loop) and leaves slow but finite draws alone.
pub const DEFAULT_TDR_DELAY_SECS: f64 = 60.0;

/// The message of a hang: rd3d12's log (error level) and, with the debug layer, the device
/// removal message Windows' layer prints for the process at fault.
fn report_hang(h: crate::backend::Hung, timeout: Option<std::time::Duration>) {
    let secs = timeout.map_or(0.0, |t| t.as_secs_f64());
    let text = format!(
        "Device removal has been triggered for the following reason (DXGI_ERROR_DEVICE_HUNG): a {} ran longer \
         than the GPU timeout ({secs} s, RD3D12_TDR_DELAY; a queue created with \
         D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT has none). Nothing more executes on this device.",
        h.what
    );
    if crate::debug::log_enabled(crate::debug::Level::Error) {
        eprintln!("rd3d12: error: {text}");
    }
    crate::debug::report_parts(
        "ID3D12CommandQueue::ExecuteCommandLists",
        D3D12_MESSAGE_CATEGORY_EXECUTION,
        D3D12_MESSAGE_SEVERITY_ERROR,
        D3D12_MESSAGE_ID_DEVICE_REMOVAL_PROCESS_AT_FAULT.0,
        &text,
    );
}

pub struct CommandQueue {
    device: Ptr<Device>,
    pub desc: D3D12_COMMAND_QUEUE_DESC,
    tx: Mutex<Option<Sender<Work>>>,
    worker: Mutex<Option<JoinHandle<()>>>,
    abort: Arc<AtomicBool>,
    /// The ID3D12DebugCommandQueue facet (debug layer on; made on first QueryInterface).
    debug_facet: std::sync::OnceLock<Ptr<crate::debug_objects::DebugCommandQueue>>,
    /// The SetName name last given to the trace's track of this queue (tracing only).
    traced_name: Mutex<Option<String>>,
}

impl CommandQueue {
    /// CreateCommandQueue: DIRECT, COMPUTE or COPY; priority NORMAL or HIGH (GLOBAL_REALTIME
    /// needs privileges this adapter does not grant); flags NONE or DISABLE_GPU_TIMEOUT; node
    /// mask 0 or 1 (reported as 1).
    pub fn create(device: Ptr<Device>, desc: &D3D12_COMMAND_QUEUE_DESC) -> Result<Ptr<CommandQueue>> {
        let types = [D3D12_COMMAND_LIST_TYPE_DIRECT, D3D12_COMMAND_LIST_TYPE_COMPUTE, D3D12_COMMAND_LIST_TYPE_COPY];
        let prio_ok = desc.Priority == D3D12_COMMAND_QUEUE_PRIORITY_NORMAL.0 as i32
            || desc.Priority == D3D12_COMMAND_QUEUE_PRIORITY_HIGH.0 as i32;
        let flags_ok = desc.Flags.0 & !D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT.0 == 0;
        if !types.contains(&desc.Type) || !prio_ok || !flags_ok || desc.NodeMask > 1 {
            return Err(Error::INVALID_ARG);
        }
        let desc = D3D12_COMMAND_QUEUE_DESC { NodeMask: 1, ..*desc };
        let (tx, rx) = channel::<Work>();
        let abort = Arc::new(AtomicBool::new(false));
        // The worker holds no device reference: a queue counts once on its device (native).
        let abort_w = abort.clone();
        let copy_queue = desc.Type == D3D12_COMMAND_LIST_TYPE_COPY;
        let timeout = gpu_timeout(desc.Flags, std::env::var("RD3D12_TDR_DELAY").ok().as_deref());
        let removal = device.inner.removal().clone();
        let backend = device.inner.backend().clone();
        let track_name = match desc.Type {
            D3D12_COMMAND_LIST_TYPE_COMPUTE => "COMPUTE queue",
            D3D12_COMMAND_LIST_TYPE_COPY => "COPY queue",
            _ => "DIRECT queue",
        };
        let worker = std::thread::Builder::new()
            .name("rd3d12-queue".into())
            .spawn(move || {
                // RD3D12_TRACE: this queue's track, and its PIX events.
                let track = crate::trace::on().then(|| crate::trace::start_track(track_name));
                let mut events = crate::trace::Events::default();
                // Spin briefly before sleeping: submissions often come in quick succession, and
                // waking a sleeping thread costs tens of microseconds.
                let next = || {
                    let start = std::time::Instant::now();
                    loop {
                        match rx.try_recv() {
                            Ok(w) => return Some(w),
                            Err(std::sync::mpsc::TryRecvError::Disconnected) => return None,
                            Err(std::sync::mpsc::TryRecvError::Empty)
                                if start.elapsed() < std::time::Duration::from_micros(crate::fence::SPIN_MICROS) =>
                            {
                                std::hint::spin_loop()
                            }
                            Err(std::sync::mpsc::TryRecvError::Empty) => return rx.recv().ok(),
                        }
                    }
                };
                while let Some(w) = next() {
                    match w {
                        Work::Execute(lists) => {
                            let traced = track.map(|tid| (tid, crate::trace::now_us()));
                            let mut hung = None;
                            for l in &lists {
                                // A removed device executes nothing more (its GPU was reset).
                                if removal.reason() != S_OK {
                                    break;
                                }
                                let entry = crate::work::states::entry_states(l);
                                if let Err(h) = backend.execute(l, timeout) {
                                    hung = Some(h);
                                    break;
                                }
                                crate::work::states::apply_ends(l, &entry);
                            }
                            crate::work::states::end_of_submission(&lists, copy_queue);
                            crate::com::live::end_use(lists.iter().flat_map(|l| l.touched.iter().map(|t| t.id)));
                            // After the bookkeeping: removal wakes the fences' waiters.
                            if let Some(h) = hung {
                                report_hang(h, timeout);
                                removal.remove_with(DXGI_ERROR_DEVICE_HUNG);
                            }
                            if let Some((tid, t0)) = traced {
                                let args = format!("{{\"lists\":{}}}", lists.len());
                                crate::trace::slice(
                                    tid,
                                    "ExecuteCommandLists",
                                    "queue",
                                    t0,
                                    crate::trace::now_us(),
                                    &args,
                                );
                                crate::trace::flush();
                            }
                        }
                        Work::Signal(f, v) => f.signal(v),
                        Work::Wait(w) => w.wait_or_abort(&abort_w),
                        Work::Tiles(f) => f(),
                        Work::Rename(name) => {
                            if let Some(tid) = track {
                                crate::trace::name_track(tid, &format!("{name} ({track_name})"));
                            }
                        }
                        Work::Marker(kind, meta, data) => {
                            if let Some(tid) = track {
                                events.marker(tid, kind, meta, &data, crate::trace::now_us());
                                crate::trace::flush();
                            }
                        }
                    }
                }
                if let Some(tid) = track {
                    events.close_all(tid, crate::trace::now_us());
                    crate::trace::flush();
                }
            })
            .map_err(|_| Error::OUT_OF_MEMORY)?;
        Ok(Ptr::new(CommandQueue {
            device,
            desc,
            tx: Mutex::new(Some(tx)),
            worker: Mutex::new(Some(worker)),
            abort,
            debug_facet: std::sync::OnceLock::new(),
            traced_name: Mutex::new(None),
        }))
    }

    /// ID3D12DebugCommandQueue::AssertResourceState: checked when the queue reaches this point
    /// (after the work submitted before); TRUE now, the debug layer's message then on failure.
    pub(crate) fn assert_state(&self, r: &Object<Resource>, sub: u32, state: u32) -> bool {
        let n = r.inner.subresource_count;
        if sub != D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES && sub >= n {
            return false;
        }
        let states = r.inner.states().clone();
        let id = r as *const Object<Resource> as u64;
        self.submit(Work::Tiles(Box::new(move || {
            let subs = if sub == D3D12_RESOURCE_BARRIER_ALL_SUBRESOURCES { 0..n } else { sub..sub + 1 };
            for k in subs {
                crate::work::states::assert_state(&states, id, k, state);
            }
        })));
        true
    }

    fn submit(&self, w: Work) {
        if let Some(tx) = self.tx.lock().unwrap_or_else(|e| e.into_inner()).as_ref() {
            let _ = tx.send(w);
        }
    }
}

impl Drop for CommandQueue {
    fn drop(&mut self) {
        // Finish what was submitted; a wait that can never be satisfied is abandoned.
        drop(self.tx.lock().unwrap_or_else(|e| e.into_inner()).take());
        self.abort.store(true, Ordering::Release);
        if let Some(w) = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = w.join();
        }
    }
}

type Iface = ID3D12CommandQueue;

// SAFETY: QUEUE_VTBL's slots all take an Object<CommandQueue>.
unsafe impl Class for CommandQueue {
    type Vtbl = ID3D12CommandQueueVtbl;
    const VTBL: &'static ID3D12CommandQueueVtbl = &QUEUE_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12CommandQueue];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12CommandQueue", D3D12_MESSAGE_ID_LIVE_COMMANDQUEUE));
    /// ID3D12DebugCommandQueue when the device has the debug layer.
    fn query_extra(obj: &Object<Self>, riid: &GUID) -> Option<*mut std::ffi::c_void> {
        crate::debug_objects::DebugCommandQueue::query(obj, &obj.inner.device, &obj.inner.debug_facet, riid)
    }
}

impl Child for CommandQueue {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live queue pointers.
unsafe fn queue<'a>(this: *mut Iface) -> Result<&'a CommandQueue> {
    // SAFETY: forwarded.
    unsafe { Object::<CommandQueue>::from_this(this) }.map(|o| &o.inner).ok_or(Error::POINTER)
}

/// ExecuteCommandLists: lists run in array order after everything submitted before. An invalid
/// submission (a list still recording, of another type, whose Close failed, or whose allocator
/// was reset since it was recorded; a bundle) removes the device with DXGI_ERROR_INVALID_CALL,
/// as native Windows 10+ does, and nothing is executed.
unsafe extern "C" fn execute_command_lists(this: *mut Iface, n: UINT, lists: *const *mut ID3D12CommandList) {
    guard("ExecuteCommandLists", (), || {
        // SAFETY: COM This pointer.
        let Ok(q) = (unsafe { queue(this) }) else { return };
        if n == 0 {
            return;
        }
        // An invalid submission removes the device (DXGI_ERROR_INVALID_CALL), with the debug
        // layer's message.
        let invalid = |id: D3D12_MESSAGE_ID, text: &str| {
            crate::debug::report_parts(
                "ID3D12CommandQueue::ExecuteCommandLists",
                D3D12_MESSAGE_CATEGORY_EXECUTION,
                D3D12_MESSAGE_SEVERITY_ERROR,
                id.0,
                text,
            );
            q.device.inner.remove_with(DXGI_ERROR_INVALID_CALL);
        };
        if lists.is_null() {
            return invalid(D3D12_MESSAGE_ID_CORRUPTED_PARAMETER2, "ppCommandLists is NULL with NumCommandLists > 0");
        }
        // SAFETY: the caller passes `n` list pointers.
        let ptrs = unsafe { std::slice::from_raw_parts(lists, n as usize) };
        let mut batch = Vec::with_capacity(ptrs.len());
        for &p in ptrs {
            // SAFETY: recognised by vtable.
            let Some(l) = (unsafe { downcast::<CommandList, _>(p) }) else {
                return invalid(D3D12_MESSAGE_ID_CORRUPTED_PARAMETER2, "ppCommandLists holds NULL or a foreign object");
            };
            match l.inner.submission(q.desc.Type) {
                Ok(r) => batch.push(r),
                Err((id, text)) => return invalid(id, text),
            }
        }
        if q.device.inner.removed_reason() == S_OK {
            // Debug layer: count the referenced objects as in use until the work finishes.
            for (id, severity, text) in
                crate::com::live::begin_use(batch.iter().flat_map(|l| l.touched.iter().map(|t| t.id)))
            {
                crate::debug::report_parts(
                    "ID3D12CommandQueue::ExecuteCommandLists",
                    D3D12_MESSAGE_CATEGORY_EXECUTION,
                    severity,
                    id.0,
                    &text,
                );
            }
            if crate::trace::on() {
                // SAFETY: COM This pointer, checked by `queue` above.
                if let Some(o) = unsafe { Object::<CommandQueue>::from_this(this) } {
                    let name = crate::com::live::name_of(&o.private);
                    let mut last = q.traced_name.lock().unwrap_or_else(|e| e.into_inner());
                    if name.is_some() && *last != name {
                        last.clone_from(&name);
                        q.submit(Work::Rename(name.unwrap_or_default()));
                    }
                }
            }
            q.submit(Work::Execute(batch));
        }
    })
}

/// Signal: the fence takes the value once everything submitted before has executed.
unsafe extern "C" fn signal(this: *mut Iface, fence: *mut ID3D12Fence, value: UINT64) -> HRESULT {
    guard_hr("ID3D12CommandQueue::Signal", || {
        // SAFETY: COM This pointer; the fence is recognised by vtable.
        let q = unsafe { queue(this)? };
        let f = unsafe { downcast::<Fence, _>(fence) }.ok_or(Error::INVALID_ARG)?;
        q.device.inner.check_alive()?;
        q.submit(Work::Signal(f.inner.core.clone(), value));
        Ok(S_OK)
    })
}

/// Wait: later work on this queue starts once the fence has reached the value (no timeout). The
/// wait registers on the fence now, so every signal from now on counts: one that reaches the
/// value satisfies it even if the fence is set lower again before the queue gets there.
unsafe extern "C" fn wait(this: *mut Iface, fence: *mut ID3D12Fence, value: UINT64) -> HRESULT {
    guard_hr("ID3D12CommandQueue::Wait", || {
        // SAFETY: COM This pointer; the fence is recognised by vtable.
        let q = unsafe { queue(this)? };
        let f = unsafe { downcast::<Fence, _>(fence) }.ok_or(Error::INVALID_ARG)?;
        q.device.inner.check_alive()?;
        q.submit(Work::Wait(f.inner.core.queue_wait(value)));
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_timestamp_frequency(this: *mut Iface, freq: *mut UINT64) -> HRESULT {
    guard_hr("GetTimestampFrequency", || {
        // SAFETY: COM This pointer; `freq` null or writable.
        unsafe { queue(this)? };
        let f = unsafe { freq.as_mut() }.ok_or(Error::INVALID_ARG)?;
        *f = TIMESTAMP_FREQUENCY;
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_clock_calibration(this: *mut Iface, gpu: *mut UINT64, cpu: *mut UINT64) -> HRESULT {
    guard_hr("GetClockCalibration", || {
        // SAFETY: COM This pointer; outputs null or writable.
        unsafe { queue(this)? };
        let (Some(g), Some(c)) = (unsafe { gpu.as_mut() }, unsafe { cpu.as_mut() }) else {
            return Err(Error::INVALID_ARG);
        };
        let t = now_ns();
        *g = t;
        *c = t;
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_desc(this: *mut Iface) -> D3D12_COMMAND_QUEUE_DESC {
    guard("ID3D12CommandQueue::GetDesc", D3D12_COMMAND_QUEUE_DESC::default(), || {
        // SAFETY: COM This pointer.
        unsafe { queue(this) }.map(|q| q.desc).unwrap_or_default()
    })
}

/// PIX-style markers and events on the queue: nothing executes; while tracing they reach the
/// queue's thread in order with its work, and the trace shows them (`crate::trace`).
unsafe fn queue_marker(this: *mut Iface, kind: u8, meta: UINT, data: *const std::ffi::c_void, size: UINT) {
    guard("ID3D12CommandQueue::SetMarker/BeginEvent/EndEvent", (), || {
        if !crate::trace::on() {
            return;
        }
        // SAFETY: COM This pointer; `data` holds `size` bytes when non-null.
        let Ok(q) = (unsafe { queue(this) }) else { return };
        let bytes = if data.is_null() || size == 0 {
            Vec::new()
        } else {
            unsafe { std::slice::from_raw_parts(data as *const u8, size as usize) }.to_vec()
        };
        q.submit(Work::Marker(kind, meta, bytes));
    })
}
unsafe extern "C" fn set_marker(this: *mut Iface, meta: UINT, data: *const std::ffi::c_void, size: UINT) {
    // SAFETY: forwarded.
    unsafe { queue_marker(this, 0, meta, data, size) }
}
unsafe extern "C" fn begin_event(this: *mut Iface, meta: UINT, data: *const std::ffi::c_void, size: UINT) {
    // SAFETY: forwarded.
    unsafe { queue_marker(this, 1, meta, data, size) }
}
unsafe extern "C" fn end_event(this: *mut Iface) {
    // SAFETY: forwarded.
    unsafe { queue_marker(this, 2, 0, std::ptr::null(), 0) }
}

/// The tile map of a reserved resource.
fn tiles_of(r: &Resource) -> Option<Arc<Mutex<TileMap>>> {
    match &r.backing {
        Backing::Reserved { tiles, .. } => Some(tiles.clone()),
        _ => None,
    }
}

/// UpdateTileMappings: validated now, applied in queue order. Invalid calls are dropped (the
/// method returns void; the debug layer reports #493).
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn update_tile_mappings(
    this: *mut Iface,
    resource: *mut ID3D12Resource,
    n_regions: UINT,
    coords: *const D3D12_TILED_RESOURCE_COORDINATE,
    sizes: *const D3D12_TILE_REGION_SIZE,
    heap: *mut ID3D12Heap,
    n_ranges: UINT,
    range_flags: *const D3D12_TILE_RANGE_FLAGS,
    heap_starts: *const UINT,
    range_counts: *const UINT,
    _flags: D3D12_TILE_MAPPING_FLAGS,
) {
    guard("UpdateTileMappings", (), || {
        // SAFETY: COM pointers recognised by vtable; arrays sized by the counts, per the contract.
        let (Ok(q), Some(r)) = (unsafe { queue(this) }, unsafe { downcast::<Resource, _>(resource) }) else { return };
        let Some(tiles) = tiles_of(&r.inner) else { return };
        let heap = unsafe { downcast::<Heap, _>(heap) }.map(|h| h.inner.alloc.clone());
        let read = |p: *const UINT, i: u32| if p.is_null() { None } else { Some(unsafe { *p.add(i as usize) }) };
        // Defaults (docs): one region with no coordinate/size is the whole resource; sizes NULL
        // means one tile per region.
        let whole = n_regions == 1 && coords.is_null() && sizes.is_null();
        let mut regions = Vec::new();
        if !whole {
            if coords.is_null() && n_regions > 0 {
                return;
            }
            for i in 0..n_regions as usize {
                let c = unsafe { *coords.add(i) };
                let s = if sizes.is_null() { None } else { Some(unsafe { *sizes.add(i) }) };
                regions.push((c, s));
            }
        }
        let region_tiles: u64 = if whole {
            tiles.lock().unwrap_or_else(|e| e.into_inner()).num_tiles() as u64
        } else {
            regions.iter().map(|(_, s)| s.map_or(1, |s| s.NumTiles as u64)).sum()
        };
        let mut ranges = Vec::new();
        for i in 0..n_ranges {
            let flags = if range_flags.is_null() {
                D3D12_TILE_RANGE_FLAG_NONE
            } else {
                unsafe { *range_flags.add(i as usize) }
            };
            let count = match read(range_counts, i) {
                Some(c) => c,
                None if n_ranges == 1 => region_tiles as u32,
                None => 1,
            };
            ranges.push(Range { flags, heap_start: read(heap_starts, i).unwrap_or(0), count });
        }
        q.submit(Work::Tiles(Box::new(move || {
            let _ = tiles.lock().unwrap_or_else(|e| e.into_inner()).update(&regions, whole, heap.as_ref(), &ranges);
        })));
    })
}

/// CopyTileMappings, in queue order.
unsafe extern "C" fn copy_tile_mappings(
    this: *mut Iface,
    dst: *mut ID3D12Resource,
    dst_coord: *const D3D12_TILED_RESOURCE_COORDINATE,
    src: *mut ID3D12Resource,
    src_coord: *const D3D12_TILED_RESOURCE_COORDINATE,
    size: *const D3D12_TILE_REGION_SIZE,
    _flags: D3D12_TILE_MAPPING_FLAGS,
) {
    guard("CopyTileMappings", (), || {
        // SAFETY: COM pointers recognised by vtable; structs null or readable.
        let (Ok(q), Some(d), Some(s)) =
            (unsafe { queue(this) }, unsafe { downcast::<Resource, _>(dst) }, unsafe { downcast::<Resource, _>(src) })
        else {
            return;
        };
        let (Some(dt), Some(st)) = (tiles_of(&d.inner), tiles_of(&s.inner)) else { return };
        let (Some(dc), Some(sc), Some(sz)) =
            (unsafe { dst_coord.as_ref() }, unsafe { src_coord.as_ref() }, unsafe { size.as_ref() })
        else {
            return;
        };
        let (dc, sc, sz) = (*dc, *sc, *sz);
        q.submit(Work::Tiles(Box::new(move || {
            if Arc::ptr_eq(&dt, &st) {
                let mut m = dt.lock().unwrap_or_else(|e| e.into_inner());
                let _ = TileMap::copy_mappings(&mut m, &dc, None, &sc, &sz);
            } else {
                // Two maps are locked in address order, so that copies between the same two
                // resources in opposite directions on two queues cannot deadlock.
                fn lock(m: &Mutex<TileMap>) -> std::sync::MutexGuard<'_, TileMap> {
                    m.lock().unwrap_or_else(|e| e.into_inner())
                }
                let (src_map, mut dst_map) = if Arc::as_ptr(&st) < Arc::as_ptr(&dt) {
                    let s = lock(&st);
                    (s, lock(&dt))
                } else {
                    let d = lock(&dt);
                    (lock(&st), d)
                };
                let _ = TileMap::copy_mappings(&mut dst_map, &dc, Some(&src_map), &sc, &sz);
            }
        })));
    })
}

static QUEUE_VTBL: ID3D12CommandQueueVtbl = crate::child_vtbl!(
    ID3D12CommandQueueVtbl,
    CommandQueue,
    Iface {
        UpdateTileMappings: update_tile_mappings,
        CopyTileMappings: copy_tile_mappings,
        ExecuteCommandLists: execute_command_lists,
        SetMarker: set_marker,
        BeginEvent: begin_event,
        EndEvent: end_event,
        Signal: signal,
        Wait: wait,
        GetTimestampFrequency: get_timestamp_frequency,
        GetClockCalibration: get_clock_calibration,
        GetDesc: get_desc,
    }
);

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn gpu_timeout_from_flags_and_environment() {
        let none = D3D12_COMMAND_QUEUE_FLAG_NONE;
        let off = D3D12_COMMAND_QUEUE_FLAG_DISABLE_GPU_TIMEOUT;
        assert_eq!(gpu_timeout(none, None), Some(Duration::from_secs(60)));
        assert_eq!(gpu_timeout(none, Some("")), Some(Duration::from_secs(60)));
        assert_eq!(gpu_timeout(none, Some("2")), Some(Duration::from_secs(2)));
        assert_eq!(gpu_timeout(none, Some(" 0.25 ")), Some(Duration::from_millis(250)));
        assert_eq!(gpu_timeout(none, Some("0")), None);
        assert_eq!(gpu_timeout(none, Some("off")), None);
        // Nonsense falls back to the default rather than to no timeout.
        for bad in ["-1", "NaN", "inf", "soon"] {
            assert_eq!(gpu_timeout(none, Some(bad)), Some(Duration::from_secs(60)), "{bad}");
        }
        // The queue flag wins over everything.
        for env in [None, Some("2"), Some("0.25")] {
            assert_eq!(gpu_timeout(off, env), None);
        }
    }
}
