//! ID3D12CommandAllocator.
//!
//! Recorded commands live in the command lists themselves and executing work holds its own
//! reference to them, so resetting an allocator can never corrupt work in flight on this
//! backend. The allocator enforces D3D12's lifecycle: one recording list at a time, Reset fails
//! while a list records into it, and a list whose allocator was reset after it was recorded may
//! not be executed (its generation no longer matches).
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12commandallocator>

use crate::com::{Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{guard_hr, Error, Result};
use rd3d12_sys::*;
use std::sync::{Arc, Mutex};

/// The state command lists share with their allocator (no COM reference: native lists leave the
/// allocator's count alone).
#[derive(Default)]
pub struct AllocatorState {
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// The list recording into the allocator (its identity), if any.
    recording: Option<usize>,
    /// Bumped by every Reset.
    generation: u64,
}

impl AllocatorState {
    /// A list starts recording: E_INVALIDARG if another list records into the allocator
    /// (#540 COMMAND_ALLOCATOR_CONTENTION). Returns the generation the list records in.
    pub fn begin(&self, list: usize) -> Result<u64> {
        let mut s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        match s.recording {
            Some(other) if other != list => Err(Error::invalid_arg(
                D3D12_MESSAGE_ID_COMMAND_ALLOCATOR_CONTENTION,
                D3D12_MESSAGE_CATEGORY_EXECUTION,
                "the allocator is in use by another command list that is recording",
            )),
            _ => {
                s.recording = Some(list);
                Ok(s.generation)
            }
        }
    }

    /// The list stopped recording (Close, or its destruction).
    pub fn end(&self, list: usize) {
        let mut s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if s.recording == Some(list) {
            s.recording = None;
        }
    }

    pub fn generation(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).generation
    }

    fn reset(&self) -> Result<()> {
        let mut s = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if s.recording.is_some() {
            return Err(Error {
                hr: E_FAIL,
                message: Some(crate::error::Message {
                    id: D3D12_MESSAGE_ID_COMMAND_ALLOCATOR_CANNOT_RESET,
                    category: D3D12_MESSAGE_CATEGORY_EXECUTION,
                    severity: D3D12_MESSAGE_SEVERITY_ERROR,
                    text: "a command list is still recording into this allocator".into(),
                }),
            });
        }
        s.generation += 1;
        Ok(())
    }
}

pub struct CommandAllocator {
    device: Ptr<Device>,
    pub ty: D3D12_COMMAND_LIST_TYPE,
    pub state: Arc<AllocatorState>,
}

impl CommandAllocator {
    /// CreateCommandAllocator: DIRECT, BUNDLE, COMPUTE and COPY (video types need video support).
    pub fn create(device: Ptr<Device>, ty: D3D12_COMMAND_LIST_TYPE) -> Result<Ptr<CommandAllocator>> {
        let ok = [
            D3D12_COMMAND_LIST_TYPE_DIRECT,
            D3D12_COMMAND_LIST_TYPE_BUNDLE,
            D3D12_COMMAND_LIST_TYPE_COMPUTE,
            D3D12_COMMAND_LIST_TYPE_COPY,
        ];
        if !ok.contains(&ty) {
            return Err(Error::INVALID_ARG);
        }
        Ok(Ptr::new(CommandAllocator { device, ty, state: Arc::default() }))
    }
}

type Iface = ID3D12CommandAllocator;

// SAFETY: ALLOCATOR_VTBL's slots all take an Object<CommandAllocator>.
unsafe impl Class for CommandAllocator {
    type Vtbl = ID3D12CommandAllocatorVtbl;
    const VTBL: &'static ID3D12CommandAllocatorVtbl = &ALLOCATOR_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12CommandAllocator];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12CommandAllocator", D3D12_MESSAGE_ID_LIVE_COMMANDALLOCATOR));
}

impl Child for CommandAllocator {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// ID3D12CommandAllocator::Reset: E_FAIL while a list records into it (#543).
unsafe extern "C" fn reset(this: *mut Iface) -> HRESULT {
    guard_hr("ID3D12CommandAllocator::Reset", || {
        // SAFETY: COM This pointer.
        let a = unsafe { Object::<CommandAllocator>::from_this(this) }.ok_or(Error::POINTER)?;
        a.inner.state.reset().map(|()| S_OK)
    })
}

static ALLOCATOR_VTBL: ID3D12CommandAllocatorVtbl =
    crate::child_vtbl!(ID3D12CommandAllocatorVtbl, CommandAllocator, Iface { Reset: reset });
