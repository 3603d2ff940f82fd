//! The one place where Rust errors become HRESULTs, and the panic guard of every exported call.

use rd3d12_sys::*;
use std::borrow::Cow;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// An error on its way to the C caller: the HRESULT it becomes and, where Microsoft's debug
/// layer would print one, the message (ID, category, severity, text) the debug layer reports.
#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub hr: HRESULT,
    pub message: Option<Message>,
}

/// A debug-layer message as Microsoft's runtime would emit it.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub id: D3D12_MESSAGE_ID,
    pub category: D3D12_MESSAGE_CATEGORY,
    pub severity: D3D12_MESSAGE_SEVERITY,
    pub text: Cow<'static, str>,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub const fn hr(hr: HRESULT) -> Self {
        Error { hr, message: None }
    }
    pub const INVALID_ARG: Error = Error::hr(E_INVALIDARG);
    pub const POINTER: Error = Error::hr(E_POINTER);
    pub const NO_INTERFACE: Error = Error::hr(E_NOINTERFACE);
    pub const OUT_OF_MEMORY: Error = Error::hr(E_OUTOFMEMORY);
    pub const FAIL: Error = Error::hr(E_FAIL);

    /// An E_INVALIDARG that the debug layer reports as an error of `category`.
    pub fn invalid_arg(
        id: D3D12_MESSAGE_ID,
        category: D3D12_MESSAGE_CATEGORY,
        text: impl Into<Cow<'static, str>>,
    ) -> Self {
        Error {
            hr: E_INVALIDARG,
            message: Some(Message { id, category, severity: D3D12_MESSAGE_SEVERITY_ERROR, text: text.into() }),
        }
    }
}

/// Turns a result into the HRESULT of a method that returns one.
pub fn to_hresult(r: Result<HRESULT>) -> HRESULT {
    match r {
        Ok(hr) => hr,
        Err(e) => e.hr,
    }
}

/// Runs the body of an exported call so that a Rust panic never unwinds into C: the panic is
/// reported on stderr and the call returns `on_panic` (E_FAIL for HRESULT methods).
#[inline(always)]
pub fn guard<R>(name: &str, on_panic: R, f: impl FnOnce() -> R) -> R {
    if crate::debug::tracing() {
        trace_call(name);
    }
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            if crate::debug::log_enabled(crate::debug::Level::Error) {
                eprintln!("rd3d12: internal error in {name}: {what}; the call fails");
            }
            on_panic
        }
    }
}

#[cold]
#[inline(never)]
fn trace_call(name: &str) {
    eprintln!("rd3d12: {name}");
}

/// `guard` for HRESULT-returning calls whose body returns `Result<HRESULT>`.
/// An error carrying a message is reported to the debug layer (when a device has it on) under
/// `name`.
pub fn guard_hr(name: &str, f: impl FnOnce() -> Result<HRESULT>) -> HRESULT {
    guard(name, E_FAIL, || match f() {
        Ok(hr) => hr,
        Err(e) => {
            if let Some(m) = &e.message {
                crate::debug::report(name, m);
            }
            if crate::debug::log_enabled(crate::debug::Level::Info) {
                match &e.message {
                    // The reason too, without the debug layer.
                    Some(m) => eprintln!("rd3d12: {name} returns {:#010x}: {}", e.hr as u32, m.text),
                    None => eprintln!("rd3d12: {name} returns {:#010x}", e.hr as u32),
                }
            }
            e.hr
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panics_become_e_fail_and_do_not_unwind() {
        let hr = guard_hr("test", || panic!("boom"));
        assert_eq!(hr, E_FAIL);
    }

    #[test]
    fn errors_become_their_hresult() {
        assert_eq!(guard_hr("t", || Err(Error::INVALID_ARG)), E_INVALIDARG);
        assert_eq!(guard_hr("t", || Ok(S_FALSE)), S_FALSE);
    }
}
