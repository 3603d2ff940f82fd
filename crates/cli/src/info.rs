//! The adapter report, read through the exported C entry points and the device's vtable.

use d3d12::D3D12CreateDevice;
use rd3d12_sys::*;
use std::ffi::c_void;

/// A device obtained through D3D12CreateDevice, released on drop.
pub struct Device(*mut ID3D12Device);

impl Device {
    pub fn create() -> Result<Self, String> {
        let mut dev: *mut c_void = std::ptr::null_mut();
        // SAFETY: valid IID and out-pointer.
        let hr =
            unsafe { D3D12CreateDevice(std::ptr::null_mut(), D3D_FEATURE_LEVEL_11_0, &IID_ID3D12Device, &mut dev) };
        if hr < 0 || dev.is_null() {
            return Err(format!("D3D12CreateDevice failed: {:#010x}", hr as u32));
        }
        Ok(Device(dev.cast()))
    }

    pub fn vtbl(&self) -> &ID3D12DeviceVtbl {
        // SAFETY: a live device's first field is its vtable pointer.
        unsafe { &*(*self.0).lpVtbl }
    }

    pub fn raw(&self) -> *mut ID3D12Device {
        self.0
    }

    /// CheckFeatureSupport into a default-initialised `T` (input fields set by `init`).
    pub fn feature<T: Default>(&self, feature: D3D12_FEATURE, init: impl FnOnce(&mut T)) -> Result<T, HRESULT> {
        let mut data = T::default();
        init(&mut data);
        // SAFETY: `data` is a T of exactly the size passed.
        let hr = unsafe {
            self.vtbl().CheckFeatureSupport.unwrap()(
                self.0,
                feature,
                &mut data as *mut T as *mut c_void,
                size_of::<T>() as u32,
            )
        };
        if hr < 0 {
            Err(hr)
        } else {
            Ok(data)
        }
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: we own one reference.
        unsafe { self.vtbl().Release.unwrap()(self.0) };
    }
}

fn yes(b: BOOL) -> &'static str {
    if b != 0 {
        "yes"
    } else {
        "no"
    }
}

fn level_name(l: D3D_FEATURE_LEVEL) -> String {
    format!("{}_{}", l.0 >> 12, (l.0 >> 8) & 0xf)
}

pub fn run() -> Result<(), String> {
    let dev = Device::create()?;
    let v = dev.vtbl();
    // SAFETY: methods of a live device, called as the headers declare them.
    let (nodes, luid, removed) = unsafe {
        (
            v.GetNodeCount.unwrap()(dev.raw()),
            v.GetAdapterLuid.unwrap()(dev.raw()),
            v.GetDeviceRemovedReason.unwrap()(dev.raw()),
        )
    };
    println!("rd3d12 {} — Direct3D 12 for Linux", env!("CARGO_PKG_VERSION"));
    // RD3D12_AS_HARDWARE (rd3d12 run --as-hardware) changes what DXCore reports, not what it is.
    let as_hw = std::env::var("RD3D12_AS_HARDWARE")
        .is_ok_and(|v| matches!(v.trim().to_ascii_lowercase().as_str(), "1" | "true" | "on" | "yes"));
    let kind = if as_hw { "software, presented as hardware: RD3D12_AS_HARDWARE" } else { "software" };
    println!("adapter:            rd3d12 CPU adapter ({kind})");
    println!("LUID:               {:08x}-{:08x}", luid.HighPart as u32, luid.LowPart);
    println!("nodes:              {nodes}");
    println!(
        "device removed:     {}",
        if removed == S_OK { "no".to_string() } else { format!("{:#010x}", removed as u32) }
    );

    let a = dev
        .feature::<D3D12_FEATURE_DATA_ARCHITECTURE1>(D3D12_FEATURE_ARCHITECTURE1, |_| {})
        .map_err(|hr| format!("ARCHITECTURE1 failed: {:#010x}", hr as u32))?;
    println!(
        "architecture:       UMA {}, CacheCoherentUMA {}, TileBasedRenderer {}, IsolatedMMU {}",
        yes(a.UMA),
        yes(a.CacheCoherentUMA),
        yes(a.TileBasedRenderer),
        yes(a.IsolatedMMU)
    );

    let levels = [
        D3D_FEATURE_LEVEL_12_2,
        D3D_FEATURE_LEVEL_12_1,
        D3D_FEATURE_LEVEL_12_0,
        D3D_FEATURE_LEVEL_11_1,
        D3D_FEATURE_LEVEL_11_0,
    ];
    let fl = dev
        .feature::<D3D12_FEATURE_DATA_FEATURE_LEVELS>(D3D12_FEATURE_FEATURE_LEVELS, |d| {
            d.NumFeatureLevels = levels.len() as u32;
            d.pFeatureLevelsRequested = levels.as_ptr();
        })
        .map_err(|hr| format!("FEATURE_LEVELS failed: {:#010x}", hr as u32))?;
    println!("max feature level:  {}", level_name(fl.MaxSupportedFeatureLevel));

    let sm = dev
        .feature::<D3D12_FEATURE_DATA_SHADER_MODEL>(D3D12_FEATURE_SHADER_MODEL, |d| {
            d.HighestShaderModel = D3D_HIGHEST_SHADER_MODEL
        })
        .map_err(|hr| format!("SHADER_MODEL failed: {:#010x}", hr as u32))?;
    println!("shader model:       {}.{}", sm.HighestShaderModel.0 >> 4, sm.HighestShaderModel.0 & 0xf);

    let rs = dev
        .feature::<D3D12_FEATURE_DATA_ROOT_SIGNATURE>(D3D12_FEATURE_ROOT_SIGNATURE, |d| {
            d.HighestVersion = D3D_ROOT_SIGNATURE_VERSION_1_1
        })
        .map_err(|hr| format!("ROOT_SIGNATURE failed: {:#010x}", hr as u32))?;
    println!("root signature:     1.{}", rs.HighestVersion.0 - 1);

    let o = dev
        .feature::<D3D12_FEATURE_DATA_D3D12_OPTIONS>(D3D12_FEATURE_D3D12_OPTIONS, |_| {})
        .map_err(|hr| format!("OPTIONS failed: {:#010x}", hr as u32))?;
    println!("resource binding:   tier {}", o.ResourceBindingTier.0);
    println!("resource heap:      tier {}", o.ResourceHeapTier.0);
    println!("tiled resources:    tier {}", o.TiledResourcesTier.0);
    println!("GPU VA bits:        {} per resource", o.MaxGPUVirtualAddressBitsPerResource);
    let va = dev
        .feature::<D3D12_FEATURE_DATA_GPU_VIRTUAL_ADDRESS_SUPPORT>(D3D12_FEATURE_GPU_VIRTUAL_ADDRESS_SUPPORT, |_| {})
        .map_err(|hr| format!("GPU_VIRTUAL_ADDRESS_SUPPORT failed: {:#010x}", hr as u32))?;
    println!("GPU VA bits:        {} per process", va.MaxGPUVirtualAddressBitsPerProcess);
    let o5 = dev
        .feature::<D3D12_FEATURE_DATA_D3D12_OPTIONS5>(D3D12_FEATURE_D3D12_OPTIONS5, |_| {})
        .map_err(|hr| format!("OPTIONS5 failed: {:#010x}", hr as u32))?;
    println!("raytracing:         tier {}", o5.RaytracingTier.0);
    println!("render passes:      tier {}", o5.RenderPassesTier.0);
    Ok(())
}
