//! Methods of features the adapter reports absent (meta commands, raytracing, variable-rate
//! shading, depth bounds, ...): calling them is an invalid call that fails Close.

use super::*;

/// Features the adapter reports absent: calling them is an invalid call that fails Close.
macro_rules! unsupported {
    ($($name:ident($($a:ident : $t:ty),*) => $what:literal;)*) => {$(
        pub(super) unsafe extern "C" fn $name(this: *mut Iface, $($a: $t),*) {
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

pub(super) unsafe extern "C" fn set_protected_resource_session(
    this: *mut Iface,
    session: *mut ID3D12ProtectedResourceSession,
) {
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
