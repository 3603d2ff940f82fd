//! ID3D12Fence (up to ID3D12Fence1).
//!
//! A fence is a 64-bit value with waiters. CPU Signal and queue Signal set it (values may go
//! down as well as up); every registration whose value is reached fires once, at the signal
//! that reaches it: an event HANDLE (an eventfd on Linux) gets an 8-byte increment written to
//! it, a blocked thread wakes, a queue's Wait is satisfied. Because a registration is checked at
//! each signal, a value that is reached and left again at once (a CPU Signal rewinding the
//! fence) still satisfies what was waiting for it: nothing polls the value later and misses it.
//! A queue's Wait registers when it is called, so a signal that comes while the queue is still
//! busy with earlier work is not lost either. After device removal the completed value reads
//! UINT64_MAX and every waiter is released; so is every waiter of a fence whose last reference
//! is released (the queue that waited on it goes on).
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12fence>

use crate::com::{Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{guard, guard_hr, Error, Result};
use rd3d12_sys::*;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// How long a waiter spins for a value about to be reached before it sleeps.
pub const SPIN_MICROS: u64 = 20;

/// A one-shot flag a thread can block on: set once by the signal that reaches a registration.
#[derive(Default)]
pub struct Latch {
    set: Mutex<bool>,
    cond: Condvar,
}

impl Latch {
    fn set(&self) {
        *self.set.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.cond.notify_all();
    }

    fn wait(&self) {
        let mut set = self.set.lock().unwrap_or_else(|e| e.into_inner());
        while !*set {
            set = self.cond.wait(set).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// [`Latch::wait`] that also returns once `abort` is set (checked every 50 ms). Whether the
    /// latch was set.
    fn wait_or_abort(&self, abort: &AtomicBool) -> bool {
        let mut set = self.set.lock().unwrap_or_else(|e| e.into_inner());
        while !*set && !abort.load(Ordering::Acquire) {
            set =
                self.cond.wait_timeout(set, std::time::Duration::from_millis(50)).unwrap_or_else(|e| e.into_inner()).0;
        }
        *set
    }
}

/// A queue's Wait(fence, value): registered on the fence when Wait is called, waited for by the
/// queue's thread when it gets there.
pub struct QueueWait {
    fence: Arc<FenceCore>,
    latch: Arc<Latch>,
}

impl QueueWait {
    /// Blocks the queue's thread until the value has been reached (at any time since the Wait
    /// call), the device is removed or the fence destroyed, or `abort` is set (the queue is
    /// being destroyed with a wait that can never be satisfied: the registration is dropped).
    pub fn wait_or_abort(&self, abort: &AtomicBool) {
        if !self.latch.wait_or_abort(abort) {
            let mut s = self.fence.state.lock().unwrap_or_else(|e| e.into_inner());
            s.waiters.retain(|(_, w)| !matches!(w, Waiter::Blocked(l) if Arc::ptr_eq(l, &self.latch)));
        }
    }
}

/// A wait on several fences (SetEventOnMultipleFenceCompletion).
pub struct MultiWait {
    /// Fences still to reach their value (ALL) / 1 (ANY).
    remaining: AtomicU32,
    fired: AtomicBool,
    event: Option<crate::event::Event>,
    done: Latch,
}

impl MultiWait {
    fn reached(&self) {
        if self.remaining.fetch_sub(1, Ordering::AcqRel) == 1 && !self.fired.swap(true, Ordering::AcqRel) {
            self.fire();
        }
    }

    fn fire(&self) {
        if let Some(e) = &self.event {
            e.signal();
        }
        self.done.set();
    }
}

enum Waiter {
    /// The runtime's duplicate of an eventfd.
    Event(crate::event::Event),
    /// A thread blocked in SetEventOnCompletion(value, NULL), or a queue's Wait.
    Blocked(Arc<Latch>),
    Multi(Arc<MultiWait>),
}

impl Waiter {
    fn fire(self) {
        match self {
            Waiter::Event(e) => {
                e.signal();
            }
            Waiter::Blocked(l) => l.set(),
            Waiter::Multi(m) => m.reached(),
        }
    }
}

struct State {
    value: u64,
    waiters: Vec<(u64, Waiter)>,
}

/// The shared part of a fence: queues hold it to signal and wait without holding the COM object.
pub struct FenceCore {
    /// The current value, readable without the lock (GetCompletedValue, spinning waits).
    value: std::sync::atomic::AtomicU64,
    state: Mutex<State>,
    removed: AtomicBool,
    /// For a shared fence: the memory page other processes signal through.
    shared: Option<SharedPage>,
}

/// The page a shared fence lives in (a memfd, so it can be a shared HANDLE): the value, a
/// sequence number bumped on every signal (a futex other processes wait on) and a magic that
/// tells OpenSharedHandle what the descriptor is.
pub struct SharedPage {
    pub memory: crate::backend::memory::Memory,
}

const FENCE_MAGIC: u64 = u64::from_le_bytes(*b"RD3D12FN");
const PAGE: u64 = 4096;

impl SharedPage {
    fn value(&self) -> &std::sync::atomic::AtomicU64 {
        // SAFETY: offset 0 of a page-sized, page-aligned shared mapping, only ever accessed
        // atomically.
        unsafe { &*(self.memory.as_ptr() as *const std::sync::atomic::AtomicU64) }
    }
    fn seq(&self) -> &AtomicU32 {
        // SAFETY: offset 8 of the same mapping, 4-byte aligned, accessed atomically.
        unsafe { &*(self.memory.as_ptr().add(8) as *const AtomicU32) }
    }
    fn magic(&self) -> &std::sync::atomic::AtomicU64 {
        // SAFETY: offset 16 of the same mapping.
        unsafe { &*(self.memory.as_ptr().add(16) as *const std::sync::atomic::AtomicU64) }
    }

    fn wake_all(&self) {
        // SAFETY: futex wake on a 4-byte aligned word of a shared mapping (no private flag, so
        // waiters in other processes wake too).
        unsafe { libc::syscall(libc::SYS_futex, self.seq().as_ptr(), libc::FUTEX_WAKE, i32::MAX, 0, 0, 0) };
    }

    /// Blocks until the sequence number moves from `seen` (or 50 ms pass).
    fn wait_change(&self, seen: u32) {
        let ts = libc::timespec { tv_sec: 0, tv_nsec: 50_000_000 };
        // SAFETY: futex wait on the shared word with a timeout; returns at once if it changed.
        unsafe {
            libc::syscall(
                libc::SYS_futex,
                self.seq().as_ptr(),
                libc::FUTEX_WAIT,
                seen,
                &ts as *const libc::timespec,
                0,
                0,
            )
        };
    }
}

impl FenceCore {
    pub fn new(initial: u64) -> Arc<FenceCore> {
        Self::with_page(initial, None)
    }

    fn with_page(initial: u64, shared: Option<SharedPage>) -> Arc<FenceCore> {
        Arc::new(FenceCore {
            value: std::sync::atomic::AtomicU64::new(initial),
            state: Mutex::new(State { value: initial, waiters: Vec::new() }),
            removed: AtomicBool::new(false),
            shared,
        })
    }

    /// A fence in a new shared page (D3D12_FENCE_FLAG_SHARED).
    pub fn new_shared(initial: u64) -> Result<Arc<FenceCore>> {
        let memory = crate::backend::memory::Memory::new(PAGE).map_err(|_| Error::OUT_OF_MEMORY)?;
        let page = SharedPage { memory };
        page.value().store(initial, Ordering::Release);
        page.magic().store(FENCE_MAGIC, Ordering::Release);
        let core = Self::with_page(initial, Some(page));
        watch(&core);
        Ok(core)
    }

    /// A fence opened from another process's shared handle, if `fd` is one.
    pub fn open_shared(fd: i32) -> Option<Arc<FenceCore>> {
        let memory = crate::backend::memory::Memory::import(fd).ok()?;
        if memory.len() as u64 != PAGE {
            return None;
        }
        let page = SharedPage { memory };
        if page.magic().load(Ordering::Acquire) != FENCE_MAGIC {
            return None;
        }
        let core = Self::with_page(page.value().load(Ordering::Acquire), Some(page));
        watch(&core);
        Some(core)
    }

    pub fn shared_page(&self) -> Option<&SharedPage> {
        self.shared.as_ref()
    }

    /// GetCompletedValue: UINT64_MAX once the device is removed.
    pub fn completed(&self) -> u64 {
        if self.removed.load(Ordering::Acquire) {
            return u64::MAX;
        }
        match &self.shared {
            Some(p) => p.value().load(Ordering::Acquire),
            None => self.value.load(Ordering::Acquire),
        }
    }

    /// The value now: for a shared fence the page is the only source of truth (other processes
    /// and other objects of the same fence write it); otherwise the local state. Called with
    /// the state lock held.
    fn current(&self, s: &State) -> u64 {
        match &self.shared {
            Some(p) => p.value().load(Ordering::Acquire),
            None => s.value,
        }
    }

    /// Sets the value and fires the registrations it reaches; a shared fence also publishes the
    /// value to the other processes that opened it.
    pub fn signal(&self, value: u64) {
        let fired = {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(p) = &self.shared {
                // The page is the fence: publish it to the other processes (their watcher
                // threads fire their registrations). This process's registrations fire here,
                // with the value signalled, so that a later signal cannot hide it from them.
                p.value().store(value, Ordering::Release);
                p.seq().fetch_add(1, Ordering::AcqRel);
            }
            s.value = value;
            self.value.store(value, Ordering::Release);
            Self::due(&mut s, value)
        };
        if let Some(p) = &self.shared {
            p.wake_all();
        }
        fired.into_iter().for_each(Waiter::fire);
    }

    /// The registrations the value `now` reaches, removed from the state.
    fn due(s: &mut State, now: u64) -> Vec<Waiter> {
        let (due, keep): (Vec<_>, Vec<_>) = std::mem::take(&mut s.waiters).into_iter().partition(|(v, _)| *v <= now);
        s.waiters = keep;
        due.into_iter().map(|(_, w)| w).collect()
    }

    /// A shared fence's signal (made here, in another process or through another object of the
    /// same fence), run by the watcher thread: fire what the page's value reaches and wake
    /// waiting queues.
    fn signal_local(&self) {
        let fired = {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            let now = self.current(&s);
            s.value = now;
            self.value.store(now, Ordering::Release);
            Self::due(&mut s, now)
        };
        fired.into_iter().for_each(Waiter::fire);
    }

    /// Device removal: every waiter is released and the value reads UINT64_MAX.
    pub fn remove(&self) {
        self.mark_removed();
        self.release_waiters();
    }

    /// The first half of [`FenceCore::remove`]: the value reads UINT64_MAX from now on. A device
    /// marks all its fences before it releases any waiter, so that a woken waiter sees every
    /// fence of the removed device complete.
    pub fn mark_removed(&self) {
        self.removed.store(true, Ordering::Release);
    }

    /// The second half of [`FenceCore::remove`]: every waiter is released.
    pub fn release_waiters(&self) {
        let all = std::mem::take(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()).waiters);
        all.into_iter().for_each(|(_, w)| w.fire());
    }

    fn register(&self, value: u64, w: Waiter) {
        let now = {
            let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
            if !self.removed.load(Ordering::Acquire) && value > self.current(&s) {
                s.waiters.push((value, w));
                return;
            }
            w
        };
        now.fire();
    }

    /// SetEventOnCompletion: fires at once when the value is already reached. Work that is
    /// about to complete (a queue finishing a short submission) is waited for briefly first, so
    /// the event is written before the caller sleeps on it rather than after.
    pub fn set_event(&self, value: u64, event: HANDLE) {
        let start = std::time::Instant::now();
        while self.completed() < value
            && !self.removed.load(Ordering::Acquire)
            && start.elapsed() < std::time::Duration::from_micros(SPIN_MICROS)
        {
            std::hint::spin_loop();
        }
        if event.is_null() {
            let latch = Arc::new(Latch::default());
            self.register(value, Waiter::Blocked(latch.clone()));
            latch.wait();
        } else if self.completed() >= value {
            // Already reached: the caller's descriptor is still open during this call.
            crate::event::signal(event);
        } else if let Some(e) = crate::event::Event::dup(event) {
            self.register(value, Waiter::Event(e));
        }
    }

    /// ID3D12CommandQueue::Wait: registers now (satisfied at once when the value is reached
    /// already), for the queue's thread to wait on when it gets to it.
    pub fn queue_wait(self: &Arc<Self>, value: u64) -> QueueWait {
        let latch = Arc::new(Latch::default());
        self.register(value, Waiter::Blocked(latch.clone()));
        QueueWait { fence: self.clone(), latch }
    }
}

/// For a shared fence, a thread that turns signals from other processes into local ones (fires
/// this process's events, wakes its queues). It ends when the fence is gone.
fn watch(core: &Arc<FenceCore>) {
    let weak = Arc::downgrade(core);
    let _ = std::thread::Builder::new().name("rd3d12-fence".into()).spawn(move || loop {
        let Some(core) = weak.upgrade() else { return };
        let Some(page) = &core.shared else { return };
        let seen = page.seq().load(Ordering::Acquire);
        core.signal_local();
        // Wait without holding the fence alive, so its last release can end the thread.
        let page_ptr = page as *const SharedPage;
        let keep = core.clone();
        drop(core);
        // SAFETY: `keep` holds the fence (and so the page) alive during the wait.
        unsafe { (*page_ptr).wait_change(seen) };
        if Arc::strong_count(&keep) == 1 {
            return;
        }
    });
}

/// ID3D12Device1::SetEventOnMultipleFenceCompletion over fence cores (at least one).
pub fn wait_multiple(fences: &[(Arc<FenceCore>, u64)], any: bool, event: HANDLE) {
    let m = Arc::new(MultiWait {
        remaining: AtomicU32::new(if any { 1 } else { fences.len() as u32 }),
        fired: AtomicBool::new(false),
        event: crate::event::Event::dup(event),
        done: Latch::default(),
    });
    for (f, v) in fences {
        f.register(*v, Waiter::Multi(m.clone()));
    }
    if event.is_null() {
        m.done.wait();
    }
}

pub struct Fence {
    device: Ptr<Device>,
    pub core: Arc<FenceCore>,
    pub flags: D3D12_FENCE_FLAGS,
}

impl Fence {
    /// OpenSharedHandle of a shared fence's descriptor.
    pub fn open(device: Ptr<Device>, fd: i32) -> Option<Ptr<Fence>> {
        let core = FenceCore::open_shared(fd)?;
        device.inner.register_fence(&core);
        Some(Ptr::new(Fence { device, core, flags: D3D12_FENCE_FLAG_SHARED }))
    }

    /// CreateFence: flags NONE, SHARED, SHARED|SHARED_CROSS_ADAPTER, NON_MONITORED.
    pub fn create(device: Ptr<Device>, initial: u64, flags: D3D12_FENCE_FLAGS) -> Result<Ptr<Fence>> {
        let f = flags.0;
        let known =
            D3D12_FENCE_FLAG_SHARED.0 | D3D12_FENCE_FLAG_SHARED_CROSS_ADAPTER.0 | D3D12_FENCE_FLAG_NON_MONITORED.0;
        let cross_without_shared =
            f & D3D12_FENCE_FLAG_SHARED_CROSS_ADAPTER.0 != 0 && f & D3D12_FENCE_FLAG_SHARED.0 == 0;
        if f & !known != 0 || cross_without_shared {
            return Err(Error::invalid_arg(
                D3D12_MESSAGE_ID_CREATE_FENCE_INVALID_FLAGS,
                D3D12_MESSAGE_CATEGORY_STATE_CREATION,
                "invalid fence flags",
            ));
        }
        let core =
            if f & D3D12_FENCE_FLAG_SHARED.0 != 0 { FenceCore::new_shared(initial)? } else { FenceCore::new(initial) };
        device.inner.register_fence(&core);
        if device.inner.removed_reason() != S_OK {
            core.remove();
        }
        Ok(Ptr::new(Fence { device, core, flags }))
    }
}

impl Drop for Fence {
    /// The last reference is released: whatever still waits on the fence (a queue's Wait, an
    /// event, even one registered for UINT64_MAX) is released, as the waiters of a removed
    /// device are, so that no queue waits forever on a fence nobody can signal any more. The
    /// device is not affected.
    fn drop(&mut self) {
        self.core.remove();
    }
}

type Iface = ID3D12Fence1;

// SAFETY: FENCE_VTBL's slots all take an Object<Fence>.
unsafe impl Class for Fence {
    type Vtbl = ID3D12Fence1Vtbl;
    const VTBL: &'static ID3D12Fence1Vtbl = &FENCE_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12Fence, IID_ID3D12Fence1];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> = Some(("ID3D12Fence", D3D12_MESSAGE_ID_LIVE_MONITOREDFENCE));
}

impl Child for Fence {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

/// # Safety
/// `this` null or one of our live fence pointers.
unsafe fn fence<'a>(this: *mut Iface) -> Result<&'a Fence> {
    // SAFETY: forwarded.
    unsafe { Object::<Fence>::from_this(this) }.map(|o| &o.inner).ok_or(Error::POINTER)
}

unsafe extern "C" fn get_completed_value(this: *mut Iface) -> UINT64 {
    // SAFETY: COM This pointer.
    guard("ID3D12Fence::GetCompletedValue", u64::MAX, || {
        unsafe { fence(this) }.map_or(u64::MAX, |f| f.core.completed())
    })
}

/// SetEventOnCompletion: the eventfd gets written once the value is reached (at once if it is);
/// a NULL event blocks until then.
unsafe extern "C" fn set_event_on_completion(this: *mut Iface, value: UINT64, event: HANDLE) -> HRESULT {
    guard_hr("ID3D12Fence::SetEventOnCompletion", || {
        // SAFETY: COM This pointer.
        unsafe { fence(this)? }.core.set_event(value, event);
        Ok(S_OK)
    })
}

unsafe extern "C" fn signal(this: *mut Iface, value: UINT64) -> HRESULT {
    guard_hr("ID3D12Fence::Signal", || {
        // SAFETY: COM This pointer.
        let f = unsafe { fence(this)? };
        if f.device.inner.removed_reason() != S_OK {
            return Err(Error::hr(DXGI_ERROR_DEVICE_REMOVED));
        }
        f.core.signal(value);
        Ok(S_OK)
    })
}

unsafe extern "C" fn get_creation_flags(this: *mut Iface) -> D3D12_FENCE_FLAGS {
    // SAFETY: COM This pointer.
    guard("ID3D12Fence1::GetCreationFlags", D3D12_FENCE_FLAGS(0), || {
        unsafe { fence(this) }.map_or(D3D12_FENCE_FLAGS(0), |f| f.flags)
    })
}

static FENCE_VTBL: ID3D12Fence1Vtbl = crate::child_vtbl!(
    ID3D12Fence1Vtbl,
    Fence,
    Iface {
        GetCompletedValue: get_completed_value,
        SetEventOnCompletion: set_event_on_completion,
        Signal: signal,
        GetCreationFlags: get_creation_flags,
    }
);

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(f: &FenceCore) -> usize {
        f.state.lock().unwrap().waiters.len()
    }

    #[test]
    fn a_queue_wait_keeps_a_signal_that_is_rewound_before_the_queue_gets_there() {
        let f = FenceCore::new(0);
        let waits: Vec<_> = (5..=8).map(|v| f.queue_wait(v)).collect();
        f.signal(8);
        f.signal(0);
        let never = AtomicBool::new(false);
        // Each returns at once: the latch was set by the signal to 8.
        waits.iter().for_each(|w| w.wait_or_abort(&never));
        assert_eq!((f.completed(), pending(&f)), (0, 0));
        // A value reached at registration satisfies at once; one not reached stays pending.
        f.queue_wait(0).wait_or_abort(&never);
        let later = f.queue_wait(1);
        assert_eq!(pending(&f), 1);
        // An aborted wait (its queue destroyed) leaves no registration behind.
        later.wait_or_abort(&AtomicBool::new(true));
        assert_eq!(pending(&f), 0);
    }

    #[test]
    fn removing_a_fence_releases_its_queue_waits_and_events() {
        let f = FenceCore::new(0);
        let w = f.queue_wait(u64::MAX);
        // SAFETY: creates a descriptor owned by this test.
        let ev = unsafe { libc::eventfd(0, libc::EFD_CLOEXEC | libc::EFD_NONBLOCK) };
        assert!(ev >= 0);
        f.set_event(u64::MAX, ev as usize as HANDLE);
        f.remove();
        w.wait_or_abort(&AtomicBool::new(false));
        let mut count = 0u64;
        // SAFETY: reads 8 bytes into a local from the test's own eventfd, then closes it.
        let n = unsafe { libc::read(ev, (&mut count as *mut u64).cast(), 8) };
        assert_eq!((n, count), (8, 1));
        // SAFETY: as above.
        unsafe { libc::close(ev) };
        // Registrations after the removal fire at once.
        f.queue_wait(u64::MAX).wait_or_abort(&AtomicBool::new(false));
        assert_eq!(pending(&f), 0);
    }
}
