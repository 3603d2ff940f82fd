//! `rd3d12 bench [LIBRARY]`: calls per second of layout-math methods through the C ABI, for
//! rd3d12 and, side by side in the same run, for another libd3d12-like library (Debian's vkd3d
//! 1.2, whose methods use the Microsoft x64 calling convention and return structs through an
//! out-pointer). `../shared/probe` measures the rest (resource creation, Map, copies, fences);
//! this command covers what it does not: GetResourceAllocationInfo of a small texture.

use rd3d12_sys::*;
use std::ffi::{c_void, CString};
use std::time::{Duration, Instant};

type CreateSysv = unsafe extern "C" fn(*mut IUnknown, D3D_FEATURE_LEVEL, *const IID, *mut *mut c_void) -> HRESULT;
type CreateWin = unsafe extern "win64" fn(*mut IUnknown, D3D_FEATURE_LEVEL, *const IID, *mut *mut c_void) -> HRESULT;
type AllocSysv =
    unsafe extern "C" fn(*mut c_void, u32, u32, *const D3D12_RESOURCE_DESC) -> D3D12_RESOURCE_ALLOCATION_INFO;
type AllocWin = unsafe extern "win64" fn(
    *mut c_void,
    *mut D3D12_RESOURCE_ALLOCATION_INFO,
    u32,
    u32,
    *const D3D12_RESOURCE_DESC,
) -> *mut D3D12_RESOURCE_ALLOCATION_INFO;
type FootSysv = unsafe extern "C" fn(
    *mut c_void,
    *const D3D12_RESOURCE_DESC,
    u32,
    u32,
    u64,
    *mut D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    *mut u32,
    *mut u64,
    *mut u64,
);
type FootWin = unsafe extern "win64" fn(
    *mut c_void,
    *const D3D12_RESOURCE_DESC,
    u32,
    u32,
    u64,
    *mut D3D12_PLACED_SUBRESOURCE_FOOTPRINT,
    *mut u32,
    *mut u64,
    *mut u64,
);

/// A device of some library, with the two calling conventions in play.
struct Lib {
    name: String,
    device: *mut c_void,
    win64: bool,
}

/// vtable slot `i` of a COM object.
///
/// # Safety
/// `obj` must be a live COM object with at least `i + 1` slots.
unsafe fn slot(obj: *mut c_void, i: usize) -> *const c_void {
    // SAFETY: forwarded.
    unsafe { *(*(obj as *const *const *const c_void)).add(i) }
}

impl Lib {
    fn ours() -> Result<Lib, String> {
        let mut dev = std::ptr::null_mut();
        // SAFETY: valid arguments.
        let hr = unsafe {
            d3d12::D3D12CreateDevice(std::ptr::null_mut(), D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, &mut dev)
        };
        if hr < 0 {
            return Err(format!("rd3d12: D3D12CreateDevice failed {:#x}", hr as u32));
        }
        Ok(Lib { name: "rd3d12".into(), device: dev, win64: false })
    }

    fn load(path: &str) -> Result<Lib, String> {
        let c = CString::new(path).map_err(|_| "bad path".to_string())?;
        // SAFETY: dlopen/dlsym with valid strings; the library is never unloaded.
        unsafe {
            let h = libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if h.is_null() {
                return Err(format!("cannot load {path}"));
            }
            let sym = libc::dlsym(h, c"D3D12CreateDevice".as_ptr());
            if sym.is_null() {
                return Err(format!("{path} does not export D3D12CreateDevice"));
            }
            // vkd3d marks its ABI with its own exports (as ../shared/probe detects it).
            let win64 = !libc::dlsym(h, c"D3D12CreateDeviceVKD3D".as_ptr()).is_null();
            let mut dev = std::ptr::null_mut();
            let hr = if win64 {
                std::mem::transmute::<*mut c_void, CreateWin>(sym)(
                    std::ptr::null_mut(),
                    D3D_FEATURE_LEVEL_11_0,
                    &IID_ID3D12Device,
                    &mut dev,
                )
            } else {
                std::mem::transmute::<*mut c_void, CreateSysv>(sym)(
                    std::ptr::null_mut(),
                    D3D_FEATURE_LEVEL_11_0,
                    &IID_ID3D12Device,
                    &mut dev,
                )
            };
            if hr < 0 || dev.is_null() {
                return Err(format!("{path}: D3D12CreateDevice failed {:#x}", hr as u32));
            }
            Ok(Lib { name: path.rsplit('/').next().unwrap_or(path).into(), device: dev, win64 })
        }
    }

    fn allocation_info(&self, desc: &D3D12_RESOURCE_DESC) -> D3D12_RESOURCE_ALLOCATION_INFO {
        // SAFETY: slot 25 is GetResourceAllocationInfo in both ABIs' vtables.
        unsafe {
            let f = slot(self.device, 25);
            if self.win64 {
                let mut out = D3D12_RESOURCE_ALLOCATION_INFO::default();
                std::mem::transmute::<*const c_void, AllocWin>(f)(self.device, &mut out, 0, 1, desc);
                out
            } else {
                std::mem::transmute::<*const c_void, AllocSysv>(f)(self.device, 0, 1, desc)
            }
        }
    }

    fn footprints(&self, desc: &D3D12_RESOURCE_DESC, n: u32, out: &mut Footprints) -> u64 {
        let mut total = 0;
        // SAFETY: slot 38 is GetCopyableFootprints; the arrays hold `n` entries.
        unsafe {
            let f = slot(self.device, 38);
            let args = (out.layouts.as_mut_ptr(), out.rows.as_mut_ptr(), out.sizes.as_mut_ptr());
            if self.win64 {
                std::mem::transmute::<*const c_void, FootWin>(f)(
                    self.device,
                    desc,
                    0,
                    n,
                    0,
                    args.0,
                    args.1,
                    args.2,
                    &mut total,
                );
            } else {
                std::mem::transmute::<*const c_void, FootSysv>(f)(
                    self.device,
                    desc,
                    0,
                    n,
                    0,
                    args.0,
                    args.1,
                    args.2,
                    &mut total,
                );
            }
        }
        total
    }
}

struct Footprints {
    layouts: Vec<D3D12_PLACED_SUBRESOURCE_FOOTPRINT>,
    rows: Vec<u32>,
    sizes: Vec<u64>,
}

/// Median calls per second of `f` over `reps` repetitions of at least `rep` each.
fn rate(reps: usize, rep: Duration, mut f: impl FnMut() -> u64) -> f64 {
    let mut sink = 0u64;
    let mut rates: Vec<f64> = (0..reps)
        .map(|_| {
            let start = Instant::now();
            let mut n = 0u64;
            while start.elapsed() < rep {
                for _ in 0..1000 {
                    sink = sink.wrapping_add(f());
                }
                n += 1000;
            }
            n as f64 / start.elapsed().as_secs_f64()
        })
        .collect();
    std::hint::black_box(sink);
    rates.sort_by(f64::total_cmp);
    rates[rates.len() / 2]
}

fn tex(w: u64, h: u32, mips: u16, alignment: u64) -> D3D12_RESOURCE_DESC {
    D3D12_RESOURCE_DESC {
        Dimension: D3D12_RESOURCE_DIMENSION_TEXTURE2D,
        Alignment: alignment,
        Width: w,
        Height: h,
        DepthOrArraySize: 1,
        MipLevels: mips,
        Format: DXGI_FORMAT_R8G8B8A8_UNORM,
        SampleDesc: DXGI_SAMPLE_DESC { Count: 1, Quality: 0 },
        Layout: D3D12_TEXTURE_LAYOUT_UNKNOWN,
        Flags: D3D12_RESOURCE_FLAG_NONE,
    }
}

const USAGE: &str = "usage: rd3d12 bench [LIBRARY...]\n\
  layout-math calls per second (GetCopyableFootprints, GetResourceAllocationInfo)\n\
  through the C ABI: rd3d12's own, then each libd3d12-like LIBRARY named, side by side";

pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return Ok(());
    }
    let mut libs = vec![Lib::ours()?];
    for a in args {
        libs.push(Lib::load(a)?);
    }
    let reps = 7;
    let rep = Duration::from_millis(150);
    let small = tex(32, 32, 1, 4096);
    let big = tex(4096, 4096, 13, 0);
    let mut out = Footprints { layouts: vec![Default::default(); 13], rows: vec![0; 13], sizes: vec![0; 13] };
    println!("{:<44} {:>16} {:>16}", "benchmark (median of 7)", "library", "calls/s");
    let mut results = Vec::new();
    for l in &libs {
        let info = l.allocation_info(&small);
        if info.SizeInBytes == u64::MAX {
            return Err(format!("{}: allocation info of a 32x32 texture failed", l.name));
        }
        let a = rate(reps, rep, || l.allocation_info(&small).SizeInBytes);
        println!("{:<44} {:>16} {:>16.0}", "GetResourceAllocationInfo 32x32 RGBA8 4K", l.name, a);
        let total = l.footprints(&big, 13, &mut out);
        let f = rate(reps, rep, || l.footprints(&big, 13, &mut out));
        println!(
            "{:<44} {:>16} {:>16.0}   (TotalBytes {total})",
            "GetCopyableFootprints 4096² RGBA8 13 mips", l.name, f
        );
        results.push((a, f));
    }
    for (i, l) in libs.iter().enumerate().skip(1) {
        println!(
            "ratio rd3d12 / {}: allocation info {:.2}x, footprints {:.2}x",
            l.name,
            results[0].0 / results[i].0,
            results[0].1 / results[i].1
        );
    }
    Ok(())
}
