//! Shared handles on Linux: a HANDLE is a file descriptor (DirectX-Headers' WSL convention).
//!
//! A shareable heap or committed resource lives in a memfd whose last page carries a small
//! description (what the object is, its heap desc, its resource desc), so OpenSharedHandle in
//! another process or device can rebuild the object from the descriptor alone.
//!
//! Names (CreateSharedHandle with a Name, OpenSharedHandleByName) live in a per-user directory
//! that only its owner can enter (mode 0700: `$XDG_RUNTIME_DIR/rd3d12-shared`, else
//! `/tmp/rd3d12-shared-<uid>`); a name is a symbolic link `n/<name>` to the creating process's
//! descriptor (`/proc/<pid>/fd/<fd>`) plus `i/<name>` recording the object's (device, inode).
//! A name stays valid while that handle is open, as a named Windows object lives while a handle
//! to it exists; once the handle is closed (or its number reused for another object) the name
//! resolves to nothing and is removed. Another user can neither list nor open it.

use crate::error::{Error, Result};
use rd3d12_sys::*;
use std::os::fd::RawFd;
use std::path::PathBuf;

pub const TRAILER: u64 = 4096;
const MAGIC: [u8; 8] = *b"RD3D12SH";

pub const KIND_HEAP: u32 = 1;
pub const KIND_RESOURCE: u32 = 2;

/// The description stored in the last page of a shared memfd.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Trailer {
    magic: [u8; 8],
    pub kind: u32,
    pub has_clear: u32,
    pub heap: D3D12_HEAP_DESC,
    pub resource: D3D12_RESOURCE_DESC1,
    pub clear: D3D12_CLEAR_VALUE,
}

impl Trailer {
    pub fn new(
        kind: u32,
        heap: D3D12_HEAP_DESC,
        resource: D3D12_RESOURCE_DESC1,
        clear: Option<D3D12_CLEAR_VALUE>,
    ) -> Self {
        Trailer {
            magic: MAGIC,
            kind,
            has_clear: clear.is_some() as u32,
            heap,
            resource,
            clear: clear.unwrap_or_default(),
        }
    }

    /// Writes the trailer into the last page of a mapping of `len` bytes.
    ///
    /// # Safety
    /// `base` must be a writable mapping of `len >= TRAILER` bytes.
    pub unsafe fn store(&self, base: *mut u8, len: usize) {
        // SAFETY: the last page lies inside the mapping; Trailer is plain old data.
        unsafe { std::ptr::write_unaligned(base.add(len - TRAILER as usize) as *mut Trailer, *self) }
    }

    /// Reads the trailer of a mapping, if it carries one.
    ///
    /// # Safety
    /// `base` must be a readable mapping of `len` bytes.
    pub unsafe fn load(base: *const u8, len: usize) -> Option<Trailer> {
        if len < TRAILER as usize {
            return None;
        }
        // SAFETY: as above.
        let t = unsafe { std::ptr::read_unaligned(base.add(len - TRAILER as usize) as *const Trailer) };
        (t.magic == MAGIC).then_some(t)
    }
}

/// The HANDLE for a new descriptor.
pub fn fd_to_handle(fd: RawFd) -> HANDLE {
    fd as isize as HANDLE
}

/// The descriptor a HANDLE carries, if it can be one.
pub fn handle_to_fd(h: HANDLE) -> Option<RawFd> {
    let v = h as isize;
    (0..=i32::MAX as isize).contains(&v).then_some(v as RawFd)
}

/// DXGI_ERROR_NAME_ALREADY_EXISTS, HRESULT_FROM_WIN32(ERROR_FILE_NOT_FOUND) and
/// HRESULT_FROM_WIN32(ERROR_ACCESS_DENIED).
pub const E_ALREADY_EXISTS: HRESULT = 0x887A_002C_u32 as HRESULT;
pub const E_FILE_NOT_FOUND: HRESULT = 0x8007_0002_u32 as HRESULT;
pub const E_ACCESS_DENIED: HRESULT = 0x8007_0005_u32 as HRESULT;

fn names_dir() -> Result<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let dir = match std::env::var_os("XDG_RUNTIME_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d).join("rd3d12-shared"),
        _ => PathBuf::from(format!("/tmp/rd3d12-shared-{uid}")),
    };
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
    let md = std::fs::symlink_metadata(&dir).map_err(|_| Error::hr(E_ACCESS_DENIED))?;
    // Refuse a directory someone else owns or can enter: names must stay private to the user.
    if !md.is_dir() || md.uid() != uid || md.permissions().mode() & 0o077 != 0 {
        return Err(Error::hr(E_ACCESS_DENIED));
    }
    Ok(dir)
}

/// A name as a file name: UTF-8 of the wide string, no path separators, 1..=200 characters.
///
/// # Safety
/// `name` must be a NUL-terminated wide string.
pub unsafe fn name_from_wide(name: LPCWSTR) -> Result<String> {
    let mut s = String::new();
    let mut i = 0;
    loop {
        // SAFETY: NUL-terminated per the contract.
        let c = unsafe { *name.add(i) };
        if c == 0 {
            break;
        }
        let ch = char::from_u32(c as u32).ok_or(Error::INVALID_ARG)?;
        if ch == '/' || ch == '\0' || i >= 200 {
            return Err(Error::INVALID_ARG);
        }
        s.push(ch);
        i += 1;
    }
    if s.is_empty() || s == "." || s == ".." {
        return Err(Error::INVALID_ARG);
    }
    Ok(s)
}

/// The identity of the file behind a descriptor: (device, inode).
fn identity(fd: RawFd) -> Option<(u64, u64)> {
    // SAFETY: fstat fills a zeroed struct; a bad descriptor is an error, nothing else.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    (unsafe { libc::fstat(fd, &mut st) } == 0).then_some((st.st_dev, st.st_ino))
}

/// The object a name still designates: its link opens, and what it opens is the object that was
/// published (the descriptor number may have been closed and reused for something else). A
/// name whose object is gone is removed.
fn live(dir: &std::path::Path, name: &str) -> Option<std::fs::File> {
    use std::os::fd::AsRawFd;
    let (link, id) = (dir.join("n").join(name), dir.join("i").join(name));
    let want = std::fs::read_link(&id).ok()?.to_string_lossy().into_owned();
    let opened = std::fs::OpenOptions::new().read(true).write(true).open(&link).ok();
    match opened {
        Some(f) if identity(f.as_raw_fd()).map(|(d, i)| format!("{d}:{i}")) == Some(want) => Some(f),
        _ => {
            let _ = std::fs::remove_file(&link);
            let _ = std::fs::remove_file(&id);
            None
        }
    }
}

/// Publishes `fd` (owned by the caller's HANDLE) under `name`: a link to the descriptor plus a
/// record of the object's identity, so a reused descriptor number never opens another object.
pub fn publish(name: &str, fd: RawFd) -> Result<()> {
    let dir = names_dir()?;
    if live(&dir, name).is_some() {
        return Err(Error::hr(E_ALREADY_EXISTS));
    }
    let (dev, ino) = identity(fd).ok_or(Error::INVALID_ARG)?;
    let target = format!("/proc/{}/fd/{}", std::process::id(), fd);
    let (link, id) = (dir.join("n").join(name), dir.join("i").join(name));
    for sub in ["n", "i"] {
        let _ = std::fs::create_dir(dir.join(sub));
    }
    let _ = std::fs::remove_file(&link);
    let _ = std::fs::remove_file(&id);
    std::os::unix::fs::symlink(format!("{dev}:{ino}"), &id).map_err(|_| Error::hr(E_ACCESS_DENIED))?;
    std::os::unix::fs::symlink(&target, &link).map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Error::hr(E_ALREADY_EXISTS),
        _ => Error::hr(E_ACCESS_DENIED),
    })
}

/// Opens the object published under `name`: a new descriptor for it.
pub fn open_by_name(name: &str) -> Result<RawFd> {
    use std::os::fd::IntoRawFd;
    let dir = names_dir()?;
    live(&dir, name).map(|f| f.into_raw_fd()).ok_or_else(|| Error::hr(E_FILE_NOT_FOUND))
}
