//! A timeline of what the GPU did: `RD3D12_TRACE=FILE` writes a Chrome / Perfetto trace-event
//! JSON file (the JSON Array Format of Google's "Trace Event Format" document, which Perfetto's
//! UI and chrome://tracing load). One track (`tid`) per command queue, one slice ("ph":"X") per
//! ExecuteCommandLists, and inside it one slice per draw, dispatch, ExecuteIndirect, copy,
//! clear, resolve and bundle, nested under the program's PIX-style events
//! (BeginEvent / EndEvent of the command list and of the queue; SetMarker as instant events),
//! whose metadata [`pix`] decodes. Draws and dispatches carry their pipeline state's name
//! (SetName) and counts as arguments.
//!
//! The file is written as the work executes (flushed after each ExecuteCommandLists) and closed
//! with `]` when the process exits (atexit) or [`finish`] is called; the format allows the
//! closing bracket to be missing, so a trace of a program that crashed still loads. A file that
//! cannot be created or written is reported once on stderr and tracing turns off.
//!
//! Cost with tracing off: [`on`] is one relaxed atomic load, made once per executed list, per
//! SetPipelineState (and Reset / ClearState with a pipeline) and per queue marker, never per
//! draw, primitive or pixel; a queue decides once, when its thread starts.
//!
//! What this module may touch: the environment, the trace file and `crate::work` (recorded
//! commands, the GPU clock `work::queries::now_ns`); never the objects, so that a backend may
//! call it. The queues (`crate::command_queue`), the command lists (`crate::command_list`, which
//! hand it pipeline names) and the backends' execution do.

pub mod list;
pub mod pix;

use std::cell::Cell;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Weak};

/// 0: not looked at yet; 1: off; 2: on.
static STATE: AtomicU8 = AtomicU8::new(0);
static SINK: Mutex<Option<Sink>> = Mutex::new(None);
static NEXT_TRACK: AtomicU32 = AtomicU32::new(1);
static AT_EXIT: AtomicBool = AtomicBool::new(false);
/// The GPU clock (ns) when the trace started: timestamps are microseconds from it.
static START_NS: AtomicU64 = AtomicU64::new(0);

struct Sink {
    out: std::io::BufWriter<std::fs::File>,
    path: String,
    pid: u32,
}

/// Whether tracing is on. The first call reads `RD3D12_TRACE` and opens the file.
#[inline]
pub fn on() -> bool {
    match STATE.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => init(),
    }
}

#[cold]
fn init() -> bool {
    let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
    // Another thread may have decided meanwhile.
    match STATE.load(Ordering::Relaxed) {
        2 => return true,
        1 => return false,
        _ => {}
    }
    let path = std::env::var("RD3D12_TRACE").ok().filter(|p| !p.trim().is_empty());
    let Some(path) = path else {
        STATE.store(1, Ordering::Relaxed);
        return false;
    };
    match start(&path) {
        Ok(s) => {
            *sink = Some(s);
            if !AT_EXIT.swap(true, Ordering::Relaxed) {
                // SAFETY: registering a plain extern "C" function.
                unsafe { libc::atexit(close_at_exit) };
            }
            STATE.store(2, Ordering::Relaxed);
            true
        }
        Err(e) => {
            eprintln!("rd3d12: RD3D12_TRACE: cannot write {path}: {e}; tracing is off");
            STATE.store(1, Ordering::Relaxed);
            false
        }
    }
}

fn start(path: &str) -> std::io::Result<Sink> {
    let file = std::fs::File::create(path)?;
    START_NS.store(crate::work::queries::now_ns(), Ordering::Relaxed);
    let mut s = Sink { out: std::io::BufWriter::new(file), path: path.to_string(), pid: std::process::id() };
    let name = std::env::args().next().unwrap_or_else(|| "process".into());
    write!(
        s.out,
        "[\n{{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":{},\"tid\":0,\"args\":{{\"name\":{}}}}}",
        s.pid,
        json_str(&format!("{name} (rd3d12)"))
    )?;
    s.out.flush()?;
    Ok(s)
}

extern "C" fn close_at_exit() {
    finish();
}

/// Closes the trace file (`]`) and turns tracing off; later work is not traced. Called at exit;
/// tests call it to read the file back.
pub fn finish() {
    let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(mut s) = sink.take() {
        let r = s.out.write_all(b"\n]\n").and_then(|_| s.out.flush());
        if let Err(e) = r {
            eprintln!("rd3d12: RD3D12_TRACE: cannot write {}: {e}", s.path);
        }
    }
    STATE.store(1, Ordering::Relaxed);
}

/// Writes one event (the JSON object's text without braces); a write error is reported once and
/// turns tracing off.
fn emit(body: std::fmt::Arguments<'_>) {
    let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(s) = sink.as_mut() else { return };
    let pid = s.pid;
    let r = write!(s.out, ",\n{{\"pid\":{pid},{body}}}");
    if let Err(e) = r {
        eprintln!("rd3d12: RD3D12_TRACE: cannot write {}: {e}; tracing is off", s.path);
        *sink = None;
        STATE.store(1, Ordering::Relaxed);
    }
}

/// Flushes what was written (after each ExecuteCommandLists).
pub fn flush() {
    let mut sink = SINK.lock().unwrap_or_else(|e| e.into_inner());
    let Some(s) = sink.as_mut() else { return };
    if let Err(e) = s.out.flush() {
        eprintln!("rd3d12: RD3D12_TRACE: cannot write {}: {e}; tracing is off", s.path);
        *sink = None;
        STATE.store(1, Ordering::Relaxed);
    }
}

/// Microseconds since the trace started, on the GPU clock.
pub fn now_us() -> f64 {
    crate::work::queries::now_ns().saturating_sub(START_NS.load(Ordering::Relaxed)) as f64 / 1000.0
}

thread_local! {
    /// The track of the queue this thread executes for.
    static TRACK: Cell<Option<u32>> = const { Cell::new(None) };
}

/// A new track named `name` (one per queue); the calling thread's slices go on it from now on.
pub fn start_track(name: &str) -> u32 {
    let tid = NEXT_TRACK.fetch_add(1, Ordering::Relaxed);
    name_track(tid, &format!("{name} #{tid}"));
    TRACK.with(|t| t.set(Some(tid)));
    tid
}

/// Renames track `tid` (a queue's SetName): trace viewers take the last thread_name given.
pub fn name_track(tid: u32, name: &str) {
    emit(format_args!("\"name\":\"thread_name\",\"ph\":\"M\",\"tid\":{tid},\"args\":{{\"name\":{}}}", json_str(name)));
}

/// The calling thread's track when tracing is on.
#[inline]
pub fn track() -> Option<u32> {
    if !on() {
        return None;
    }
    TRACK.with(|t| t.get())
}

/// A slice ("ph":"X") on `tid` from `ts` to `end` (µs); `args` is a JSON object's text.
pub fn slice(tid: u32, name: &str, cat: &str, ts: f64, end: f64, args: &str) {
    let dur = (end - ts).max(0.0);
    emit(format_args!(
        "\"tid\":{tid},\"ph\":\"X\",\"cat\":\"{cat}\",\"name\":{},\"ts\":{ts:.3},\"dur\":{dur:.3},\"args\":{args}",
        json_str(name)
    ));
}

/// An instant event ("ph":"i", thread scope) on `tid` at `ts`.
pub fn instant(tid: u32, name: &str, cat: &str, ts: f64, args: &str) {
    emit(format_args!(
        "\"tid\":{tid},\"ph\":\"i\",\"s\":\"t\",\"cat\":\"{cat}\",\"name\":{},\"ts\":{ts:.3},\"args\":{args}",
        json_str(name)
    ));
}

/// A JSON string literal of `s`.
pub fn json_str(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The PIX events open on one track: BeginEvent's decoded name and time, closed by EndEvent.
#[derive(Default)]
pub struct Events {
    open: Vec<(String, f64)>,
}

impl Events {
    /// A marker of kind 0 (SetMarker), 1 (BeginEvent) or 2 (EndEvent) reached at `ts`.
    pub fn marker(&mut self, tid: u32, kind: u8, metadata: u32, data: &[u8], ts: f64) {
        match kind {
            0 => instant(tid, &pix::decode(metadata, data), "marker", ts, "{}"),
            1 => self.open.push((pix::decode(metadata, data), ts)),
            _ => {
                // An EndEvent without its BeginEvent (the debug layer's error) ends nothing.
                if let Some((name, start)) = self.open.pop() {
                    slice(tid, &name, "event", start, ts, "{}");
                }
            }
        }
    }

    /// Ends the events still open at `ts` (a list or queue that never ended them).
    pub fn close_all(&mut self, tid: u32, ts: f64) {
        while let Some((name, start)) = self.open.pop() {
            slice(tid, &name, "event", start, ts, "{\"unterminated\":true}");
        }
    }
}

/// Pipeline states' names by their executable, noted when a list sets one while tracing (the
/// executable is what recorded draws and dispatches hold). A dead entry whose address a new
/// executable reuses is told apart by its weak reference.
type Names = Vec<(usize, Weak<crate::work::pipeline::Executable>, String)>;
static PIPELINE_NAMES: Mutex<Names> = Mutex::new(Vec::new());

/// Notes the SetName name of the pipeline state whose executable is `exe`.
pub fn name_pipeline(exe: &Arc<crate::work::pipeline::Executable>, name: Option<String>) {
    let key = Arc::as_ptr(exe) as usize;
    let mut names = PIPELINE_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    names.retain(|(k, w, _)| *k != key && w.strong_count() > 0);
    if let Some(n) = name {
        names.push((key, Arc::downgrade(exe), n));
    }
}

/// The name noted for `exe`, if any.
pub fn pipeline_name(exe: &Arc<crate::work::pipeline::Executable>) -> Option<String> {
    let key = Arc::as_ptr(exe) as usize;
    let names = PIPELINE_NAMES.lock().unwrap_or_else(|e| e.into_inner());
    names.iter().find(|(k, w, _)| *k == key && w.strong_count() > 0).map(|(_, _, n)| n.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_escaped() {
        assert_eq!(json_str("a\"b\\c\nd\u{1}"), "\"a\\\"b\\\\c\\nd\\u0001\"");
        assert_eq!(json_str("Draw — ü"), "\"Draw — ü\"");
    }
}
