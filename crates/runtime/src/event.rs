//! Event HANDLEs on Linux follow Microsoft's WSL runtime: an event is an eventfd file descriptor
//! cast to HANDLE, and signalling it means writing an 8-byte increment.

use rd3d12_sys::HANDLE;

/// Signals an event HANDLE (an eventfd). Returns false if the write failed (not an eventfd,
/// closed descriptor).
pub fn signal(event: HANDLE) -> bool {
    let fd = event as usize;
    if event.is_null() || fd > i32::MAX as usize {
        return false;
    }
    let one: u64 = 1;
    // SAFETY: writing 8 bytes from a local to a descriptor the caller gave us; a bad descriptor
    // makes write fail with EBADF, it cannot corrupt memory.
    let n = unsafe { libc_write(fd as i32, &one as *const u64 as *const core::ffi::c_void, 8) };
    n == 8
}

extern "C" {
    #[link_name = "write"]
    fn libc_write(fd: i32, buf: *const core::ffi::c_void, count: usize) -> isize;
}
