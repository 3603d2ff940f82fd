//! SetMarker, BeginEvent and EndEvent (PIX markers): nothing executes; they are kept for tools
//! in the command stream (`Command::Marker`), where the trace (`crate::trace`) shows them.

use super::*;

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
            s.commands.push(Command::Marker(Box::new((kind, meta, bytes))));
            Ok(())
        })
    }
}

pub(super) unsafe extern "C" fn set_marker(this: *mut Iface, meta: UINT, data: *const c_void, size: UINT) {
    // SAFETY: forwarded.
    unsafe { marker(this, 0, meta, data, size) }
}
pub(super) unsafe extern "C" fn begin_event(this: *mut Iface, meta: UINT, data: *const c_void, size: UINT) {
    // SAFETY: forwarded.
    unsafe { marker(this, 1, meta, data, size) }
}
pub(super) unsafe extern "C" fn end_event(this: *mut Iface) {
    // SAFETY: forwarded.
    unsafe {
        record(this, "EndEvent", |_, s| {
            s.event_depth = s.event_depth.saturating_sub(1);
            s.commands.push(Command::Marker(Box::new((2, 0, Vec::new()))));
            Ok(())
        })
    }
}
