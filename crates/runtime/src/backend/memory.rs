//! Host memory: memfd-backed so it can be shared by file descriptor (CreateSharedHandle /
//! OpenSharedHandle), zero-filled, and really committed up front so that an allocation the
//! system cannot honour fails with E_OUTOFMEMORY instead of a SIGBUS later. It is the CPU
//! backend's device memory (heaps and committed resources) and the page a shared fence lives
//! in whatever the backend; [`AddressRange`] gives reserved resources their addresses.

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::ptr::NonNull;

/// Why an allocation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryError {
    /// The system refused the memory (E_OUTOFMEMORY).
    OutOfMemory,
    /// A file descriptor that cannot be mapped (bad fd, wrong size) (E_INVALIDARG).
    BadHandle,
}

/// A mapping of a memfd: the bytes of one heap or committed resource.
pub struct Memory {
    ptr: NonNull<u8>,
    len: usize,
    fd: OwnedFd,
    /// Whether the bytes may no longer be all zero (mapped, written, shared). Clean memory can
    /// be handed to a new committed resource without clearing it.
    dirty: std::sync::atomic::AtomicBool,
}

// SAFETY: the mapping is plain shared memory; synchronisation of its contents is the
// application's business, as in D3D12.
unsafe impl Send for Memory {}
// SAFETY: as above.
unsafe impl Sync for Memory {}

fn errno() -> i32 {
    std::io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// RAM plus swap: no single allocation can be larger. (Committing more than this with fallocate
/// would first exhaust the machine.)
fn system_memory() -> u64 {
    // SAFETY: sysinfo fills a zeroed struct.
    let mut si: libc::sysinfo = unsafe { std::mem::zeroed() };
    if unsafe { libc::sysinfo(&mut si) } != 0 {
        return u64::MAX;
    }
    (si.totalram as u64).saturating_add(si.totalswap as u64).saturating_mul(si.mem_unit.max(1) as u64)
}

impl Memory {
    /// Allocates `len` zeroed bytes (rounded up to whole pages) in a new memfd.
    pub fn new(len: u64) -> Result<Self, MemoryError> {
        let page = 4096u64;
        let len = len.max(1).checked_add(page - 1).ok_or(MemoryError::OutOfMemory)? / page * page;
        let len_i = i64::try_from(len).map_err(|_| MemoryError::OutOfMemory)?;
        if len > system_memory() {
            return Err(MemoryError::OutOfMemory);
        }
        // SAFETY: plain syscall with a static NUL-terminated name.
        let fd = unsafe { libc::memfd_create(c"rd3d12-heap".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(MemoryError::OutOfMemory);
        }
        // SAFETY: `fd` was just created and is owned here.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        // fallocate commits the pages now: a refusal is an error here, not a crash at first touch.
        // SAFETY: plain syscall on our descriptor.
        if unsafe { libc::fallocate(fd.as_raw_fd(), 0, 0, len_i) } != 0 {
            let e = errno();
            // Filesystems without fallocate still get the size; anything else is out of memory.
            // SAFETY: plain syscall on our descriptor.
            if e != libc::EOPNOTSUPP || unsafe { libc::ftruncate(fd.as_raw_fd(), len_i) } != 0 {
                return Err(MemoryError::OutOfMemory);
            }
        }
        Self::map(fd, len as usize).map_err(|_| MemoryError::OutOfMemory)
    }

    /// Maps memory shared by another device or process (OpenSharedHandle). Takes a duplicate of
    /// `fd`, so the caller keeps its own descriptor.
    pub fn import(fd: RawFd) -> Result<Self, MemoryError> {
        // SAFETY: fstat into a zeroed struct; a bad fd gives an error, nothing else.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if fd < 0 || unsafe { libc::fstat(fd, &mut st) } != 0 || st.st_size <= 0 {
            return Err(MemoryError::BadHandle);
        }
        // SAFETY: plain syscall; the duplicate is owned below.
        let dup = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
        if dup < 0 {
            return Err(MemoryError::BadHandle);
        }
        // SAFETY: `dup` is a fresh descriptor we own.
        let fd = unsafe { OwnedFd::from_raw_fd(dup) };
        Self::map(fd, st.st_size as usize)
    }

    fn map(fd: OwnedFd, len: usize) -> Result<Self, MemoryError> {
        // SAFETY: a new shared mapping of our own descriptor; no existing memory is affected.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                fd.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(MemoryError::BadHandle);
        }
        Ok(Memory {
            ptr: NonNull::new(p as *mut u8).ok_or(MemoryError::BadHandle)?,
            len,
            fd,
            dirty: std::sync::atomic::AtomicBool::new(false),
        })
    }

    pub fn as_ptr(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A new descriptor for the memory (a shared HANDLE), owned by the caller. Shared memory
    /// is dirty for good: another process may write it.
    pub fn share(&self) -> Option<OwnedFd> {
        self.mark_dirty();
        self.fd.try_clone().ok()
    }

    pub fn mark_dirty(&self) {
        self.dirty.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn is_dirty(&self) -> bool {
        self.dirty.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Makes the memory zero again (for reuse of dirty memory).
    pub fn clear(&self) {
        // SAFETY: the mapping holds `len` writable bytes and nobody else uses it (it is being
        // recycled).
        unsafe { std::ptr::write_bytes(self.ptr.as_ptr(), 0, self.len) };
        self.dirty.store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

impl super::DeviceMemory for Memory {
    fn as_ptr(&self) -> *mut u8 {
        Memory::as_ptr(self)
    }
    fn len(&self) -> usize {
        Memory::len(self)
    }
    fn share(&self) -> Option<OwnedFd> {
        Memory::share(self)
    }
    fn mark_dirty(&self) {
        Memory::mark_dirty(self)
    }
    fn is_dirty(&self) -> bool {
        Memory::is_dirty(self)
    }
    fn clear(&self) {
        Memory::clear(self)
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly the mapping we created; nothing refers to it any more (its
        // owner, a heap or committed resource, is being destroyed).
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

/// A reserved range of address space with no memory behind it: the stable, unique GPU virtual
/// address of a reserved buffer, whose tiles are mapped from heaps by the tile map.
pub struct AddressRange {
    ptr: NonNull<u8>,
    len: usize,
}

// SAFETY: the range is never dereferenced; it only provides unique addresses.
unsafe impl Send for AddressRange {}
// SAFETY: as above.
unsafe impl Sync for AddressRange {}

impl AddressRange {
    /// Reserves `len` bytes (at least one page) of inaccessible address space.
    pub fn reserve(len: u64) -> Result<Self, MemoryError> {
        let len = usize::try_from(len.max(1)).map_err(|_| MemoryError::OutOfMemory)?;
        // SAFETY: a new inaccessible private mapping; no existing memory is affected.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_NONE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(MemoryError::OutOfMemory);
        }
        Ok(AddressRange { ptr: NonNull::new(p as *mut u8).ok_or(MemoryError::OutOfMemory)?, len })
    }

    pub fn base(&self) -> *mut u8 {
        self.ptr.as_ptr()
    }
}

impl Drop for AddressRange {
    fn drop(&mut self) {
        // SAFETY: unmapping exactly our reservation.
        unsafe { libc::munmap(self.ptr.as_ptr().cast(), self.len) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_memory_is_zeroed_and_page_rounded() {
        let m = Memory::new(10).unwrap();
        assert_eq!(m.len(), 4096);
        // SAFETY: the mapping holds len bytes.
        let s = unsafe { std::slice::from_raw_parts(m.as_ptr(), m.len()) };
        assert!(s.iter().all(|&b| b == 0));
    }

    #[test]
    fn imported_memory_sees_the_same_bytes() {
        let a = Memory::new(65536).unwrap();
        let fd = a.share().unwrap();
        let b = Memory::import(fd.as_raw_fd()).unwrap();
        assert_eq!(b.len(), 65536);
        // SAFETY: both mappings hold 65536 bytes.
        unsafe {
            *a.as_ptr().add(1000) = 0x5a;
            assert_eq!(*b.as_ptr().add(1000), 0x5a);
        }
    }

    #[test]
    fn impossible_sizes_are_out_of_memory() {
        assert_eq!(Memory::new(u64::MAX).err(), Some(MemoryError::OutOfMemory));
        assert_eq!(Memory::new(1 << 50).err(), Some(MemoryError::OutOfMemory));
        assert_eq!(Memory::import(-1).err(), Some(MemoryError::BadHandle));
    }
}
