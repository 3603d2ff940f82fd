//! The main job and its frame, run as a user runs them: `rd3d12` with no arguments prints the
//! adapter report, renders the frame, writes `rd3d12-frame.png` (checked here by decoding it)
//! and checks its pixels itself (the expected image, worked out by hand in `frame.rs`, whose
//! unit tests pin it); under `RD3D12_TRACE` the same frame leaves a trace whose slices, nesting
//! and arguments are checked against the frame's scripted command list.

use serde_json::Value;
use std::process::{Command, Output};

fn rd3d12(args: &[&str], dir: &std::path::Path, env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_rd3d12"));
    c.args(args).current_dir(dir).env_remove("RD3D12_TRACE").env_remove("RD3D12_DEBUG");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("failed to run rd3d12")
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("rd3d12-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn the_main_job_reports_the_adapter_and_renders_the_frame() {
    let dir = tempdir("main-job");
    let o = rd3d12(&[], &dir, &[]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}\n{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.contains("adapter:            rd3d12 CPU adapter"), "{out}");
    assert!(out.contains("equal to the expected image"), "{out}");
    for pass in ["compute pass:", "draw pass:", "copy:", "Mpixels/s"] {
        assert!(out.contains(pass), "{pass}: {out}");
    }
    // 3 quads: A and B 128x128 pixels each, C 128x64, every pixel shaded once.
    assert!(out.contains("40960 pixels shaded"), "{out}");
    let decoder =
        png::Decoder::new(std::io::BufReader::new(std::fs::File::open(dir.join("rd3d12-frame.png")).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height, info.color_type), (256, 256, png::ColorType::Rgba));
    // Pixel (100, 100): quad A's texel (34, 34) in front of B; (0, 0) the clear colour.
    let px = |x: usize, y: usize| &buf[(y * 256 + x) * 4..(y * 256 + x) * 4 + 4];
    assert_eq!(px(100, 100), [34, 34, 128, 255]);
    assert_eq!(px(0, 0), [32, 32, 64, 255]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn every_command_has_help_and_errors_are_one_line() {
    let dir = std::env::temp_dir();
    for cmd in ["info", "frame", "run", "footprint", "bench", "decl"] {
        let o = rd3d12(&[cmd, "--help"], &dir, &[]);
        assert!(o.status.success(), "{cmd} --help");
        assert!(String::from_utf8_lossy(&o.stdout).starts_with(&format!("usage: rd3d12 {cmd}")), "{cmd}");
    }
    for args in
        [&["nonsense"][..], &["frame", "--bogus"], &["info", "extra"], &["run"], &["run", "--", "/no/such/program"]]
    {
        let o = rd3d12(args, &dir, &[]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!o.status.success(), "{args:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("rd3d12: "), "{args:?}: {err}");
    }
}

/// The slices of the trace on `tid` named `name`.
fn slices<'a>(events: &'a [Value], name: &str) -> Vec<&'a Value> {
    events.iter().filter(|e| e["ph"] == "X" && e["name"] == name).collect()
}

/// Whether slice `inner` lies within slice `outer` on the same track.
fn within(inner: &Value, outer: &Value) -> bool {
    let (ts, dur) = (inner["ts"].as_f64().unwrap(), inner["dur"].as_f64().unwrap());
    let (ots, odur) = (outer["ts"].as_f64().unwrap(), outer["dur"].as_f64().unwrap());
    inner["tid"] == outer["tid"] && ts >= ots && ts + dur <= ots + odur + 1e-3
}

#[test]
fn the_trace_of_the_frame() {
    let dir = tempdir("trace");
    let trace = dir.join("trace.json");
    let o = rd3d12(&["frame", "--out", "f.png"], &dir, &[("RD3D12_TRACE", trace.to_str().unwrap())]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).expect("the trace is JSON");
    let events = v.as_array().expect("the JSON Array Format");
    // One queue, one track, named.
    let names: Vec<&Value> = events.iter().filter(|e| e["name"] == "thread_name").collect();
    assert_eq!(names.len(), 1);
    assert!(names[0]["args"]["name"].as_str().unwrap().starts_with("DIRECT queue"));
    let tid = &names[0]["tid"];
    assert!(events.iter().filter(|e| e["ph"] == "X").all(|e| &e["tid"] == tid && e["pid"].is_u64()));

    // The queue's BeginEvent (ANSI) around the one ExecuteCommandLists.
    let (queue_event, ecl) = (slices(events, "rd3d12 frame"), slices(events, "ExecuteCommandLists"));
    assert_eq!((queue_event.len(), ecl.len()), (1, 1));
    assert!(within(ecl[0], queue_event[0]));
    assert_eq!(ecl[0]["args"]["lists"], 1);
    // The list's events: "frame" (a PIX3BLOB) around "compute: ..." (ANSI) and "draw: ..."
    // (a 4-byte wchar_t string), each around its work.
    let frame = slices(events, "frame");
    assert_eq!(frame.len(), 1);
    assert!(within(frame[0], ecl[0]));
    let compute = slices(events, "compute: generate the texture");
    let draw = slices(events, "draw: textured, depth-tested, blended quads");
    assert_eq!((compute.len(), draw.len()), (1, 1));
    assert!(within(compute[0], frame[0]) && within(draw[0], frame[0]));

    let dispatch = slices(events, "Dispatch");
    assert_eq!(dispatch.len(), 1);
    assert!(within(dispatch[0], compute[0]));
    let a = &dispatch[0]["args"];
    assert_eq!(a["pipeline"], "generate texture (image.cs)");
    assert_eq!((a["thread_groups"].as_u64(), a["threads"].as_u64()), (Some(64), Some(4096)));
    assert_eq!(a["groups"], serde_json::json!([8, 8, 1]));

    let clears = slices(events, "Clear");
    assert_eq!(clears.len(), 2);
    let draws = slices(events, "DrawIndexedInstanced");
    assert_eq!(draws.len(), 3);
    for s in clears.iter().chain(&draws) {
        assert!(within(s, draw[0]));
    }
    let shaded: Vec<u64> = draws.iter().map(|d| d["args"]["pixels_shaded"].as_u64().unwrap()).collect();
    assert_eq!(shaded, [16384, 16384, 8192]);
    for d in &draws {
        assert_eq!(d["args"]["pipeline"], "textured quads (textured.vs/ps)");
        assert_eq!((d["args"]["vertices"].as_u64(), d["args"]["primitives"].as_u64()), (Some(6), Some(2)));
    }
    // SetMarker: an instant event; then the copy and the query resolves, inside "frame".
    let marker: Vec<&Value> = events.iter().filter(|e| e["ph"] == "i").collect();
    assert_eq!(marker.len(), 1);
    assert_eq!(marker[0]["name"], "copy: the target to a readback buffer");
    let copy = slices(events, "CopyTextureRegion");
    assert_eq!(copy.len(), 1);
    assert!(within(copy[0], frame[0]) && !within(copy[0], draw[0]));
    assert_eq!(slices(events, "ResolveQueryData").len(), 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_trace_file_that_cannot_be_written_is_reported_once_and_tracing_turns_off() {
    let dir = tempdir("trace-bad");
    let o = rd3d12(&["frame", "--out", "f.png"], &dir, &[("RD3D12_TRACE", "/dev/null/trace.json")]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("RD3D12_TRACE: cannot write /dev/null/trace.json") && err.contains("tracing is off"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
