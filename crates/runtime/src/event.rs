//! Event HANDLEs on Linux follow Microsoft's WSL runtime: an event is an eventfd file descriptor
//! cast to HANDLE, and signalling it means writing an 8-byte increment.
//!
//! A registration that fires later (SetEventOnCompletion, SetEventOnMultipleFenceCompletion)
//! keeps its own duplicate of the descriptor, taken when the call is made: the application may
//! close its descriptor before the fence completes (Mesa's d3d12 driver does), and the number
//! may by then belong to another file. Writing to the duplicate reaches the same eventfd, or
//! nobody at all.

use rd3d12_sys::HANDLE;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// Signals an event HANDLE (an eventfd) now. Returns false if the write failed (not an eventfd,
/// closed descriptor).
pub fn signal(event: HANDLE) -> bool {
    match fd_of(event) {
        Some(fd) => write_one(fd),
        None => false,
    }
}

fn fd_of(event: HANDLE) -> Option<i32> {
    let fd = event as usize;
    (!event.is_null() && fd <= i32::MAX as usize).then_some(fd as i32)
}

fn write_one(fd: i32) -> bool {
    let one: u64 = 1;
    // SAFETY: writing 8 bytes from a local to a descriptor; a bad descriptor makes write fail
    // with EBADF, it cannot corrupt memory.
    let n = unsafe { libc::write(fd, &one as *const u64 as *const libc::c_void, 8) };
    n == 8
}

/// The runtime's own reference to an event, for a signal that comes later.
#[derive(Debug)]
pub struct Event(OwnedFd);

impl Event {
    /// Duplicates the caller's descriptor (close-on-exec). `None` when `event` is no open
    /// descriptor.
    pub fn dup(event: HANDLE) -> Option<Event> {
        let fd = fd_of(event)?;
        // SAFETY: F_DUPFD_CLOEXEC on a caller's descriptor; a bad one gives -1 and nothing else.
        let d = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
        // SAFETY: `d` is a new descriptor owned here.
        (d >= 0).then(|| Event(unsafe { OwnedFd::from_raw_fd(d) }))
    }

    pub fn signal(&self) -> bool {
        write_one(self.0.as_raw_fd())
    }
}
