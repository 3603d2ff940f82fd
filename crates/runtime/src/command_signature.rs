//! ID3D12CommandSignature: the layout of ExecuteIndirect's argument records
//! ([`rd3d12_core::indirect`] holds the rules). The signature keeps a reference on its root
//! signature, as the indirect-drawing spec's runtime tests require.
//!
//! <https://learn.microsoft.com/windows/win32/api/d3d12/nn-d3d12-id3d12commandsignature>

use crate::com::{Child, Class, Object, Ptr};
use crate::device::Device;
use crate::error::{Error, Result};
use crate::pipeline_state::{root_signature_info, to_error};
use crate::root_signature::RootSignature;
use rd3d12_core::indirect::{self, ArgumentDesc};
use rd3d12_core::pipeline::PsoError;
use rd3d12_sys::*;

pub struct CommandSignature {
    device: Ptr<Device>,
    /// The validated layout.
    pub layout: indirect::CommandSignature,
    /// pRootSignature, held for the signature's lifetime.
    pub root_signature: Option<Ptr<RootSignature>>,
}

fn invalid(text: &str) -> Error {
    to_error(PsoError::invalid(D3D12_MESSAGE_ID_CREATECOMMANDSIGNATURE_INVALID, text))
}

impl CommandSignature {
    /// CreateCommandSignature.
    ///
    /// # Safety
    /// `desc.pArgumentDescs` null or `NumArgumentDescs` descs; `root` null or a live interface.
    pub unsafe fn create(
        device: Ptr<Device>,
        desc: &D3D12_COMMAND_SIGNATURE_DESC,
        root: *mut ID3D12RootSignature,
    ) -> Result<Ptr<CommandSignature>> {
        device.inner.check_alive()?;
        let n = desc.NumArgumentDescs as usize;
        if n > 0 && desc.pArgumentDescs.is_null() {
            return Err(invalid("pArgumentDescs is NULL with NumArgumentDescs > 0"));
        }
        let raw = if n == 0 {
            &[][..]
        } else {
            // SAFETY: the caller passes NumArgumentDescs descs.
            unsafe { std::slice::from_raw_parts(desc.pArgumentDescs, n) }
        };
        let args: Vec<ArgumentDesc> = raw
            .iter()
            .map(|a| {
                // SAFETY: every member of the union is three (or fewer) UINTs; reading the
                // largest, Constant, sees all of them whatever the type.
                let c = unsafe { a.__bindgen_anon_1.Constant };
                ArgumentDesc {
                    ty: a.Type.0,
                    words: [c.RootParameterIndex, c.DestOffsetIn32BitValues, c.Num32BitValuesToSet],
                }
            })
            .collect();
        let root_signature = if root.is_null() {
            None
        } else {
            // SAFETY: a live interface pointer from the caller, recognised by its vtable.
            let rs = unsafe { RootSignature::from_iface(root) }
                .ok_or_else(|| invalid("pRootSignature is not a root signature"))?;
            Some(Ptr::from_ref(rs))
        };
        let info = root_signature.as_ref().map(|r| root_signature_info(&r.inner));
        let layout = indirect::command_signature(
            desc.ByteStride,
            &args,
            desc.NodeMask,
            crate::features::NODE_COUNT,
            info.as_ref(),
        )
        .map_err(to_error)?;
        Ok(Ptr::new(CommandSignature { device, layout, root_signature }))
    }

    /// The signature behind an interface pointer the caller passed, if it is one of ours.
    ///
    /// # Safety
    /// `p` must be null or a live COM interface pointer.
    pub unsafe fn from_iface<'a>(p: *mut ID3D12CommandSignature) -> Option<&'a Object<CommandSignature>> {
        // SAFETY: forwarded.
        unsafe { crate::com::downcast::<CommandSignature, _>(p) }
    }
}

// SAFETY: COMMAND_SIGNATURE_VTBL's slots all take an Object<CommandSignature>.
unsafe impl Class for CommandSignature {
    type Vtbl = ID3D12CommandSignatureVtbl;
    const VTBL: &'static ID3D12CommandSignatureVtbl = &COMMAND_SIGNATURE_VTBL;
    const IIDS: &'static [GUID] =
        &[IID_IUnknown, IID_ID3D12Object, IID_ID3D12DeviceChild, IID_ID3D12Pageable, IID_ID3D12CommandSignature];
    const LIVE: Option<(&'static str, D3D12_MESSAGE_ID)> =
        Some(("ID3D12CommandSignature", D3D12_MESSAGE_ID_LIVE_COMMANDSIGNATURE));
}

impl Child for CommandSignature {
    fn device(&self) -> &Ptr<Device> {
        &self.device
    }
}

static COMMAND_SIGNATURE_VTBL: ID3D12CommandSignatureVtbl =
    crate::child_vtbl!(ID3D12CommandSignatureVtbl, CommandSignature, ID3D12CommandSignature {});
