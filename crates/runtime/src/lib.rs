//! rd3d12: the Direct3D 12 runtime objects. The exported C entry points live in the capi crate;
//! this crate holds the COM layer, one file per D3D12 interface, the recorded work they hand
//! down ([`work`]) and the backends behind one trait ([`backend`]): the objects never name a
//! backend, and a backend never reaches the objects.

pub mod adapter;
pub mod backend;
pub mod blob;
pub mod com;
pub mod command_allocator;
pub mod command_list;
pub mod command_queue;
pub mod command_signature;
pub mod debug;
pub mod debug_device;
pub mod debug_objects;
pub mod descriptor_heap;
pub mod device;
pub mod device_factory;
pub mod dxcore;
pub mod error;
pub mod event;
pub mod features;
pub mod fence;
pub mod heap;
pub mod info_queue;
pub mod pipeline_library;
pub mod pipeline_state;
pub mod query_heap;
pub mod residency;
pub mod resource;
pub mod root_signature;
pub mod share;
pub mod trace;
pub mod work;

pub use device::{create_device, Device};
pub use error::{Error, Result};
