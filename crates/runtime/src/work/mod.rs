//! Recorded work: what a closed command list hands to a queue and a backend executes. The
//! commands ([`commands`]), the state recording leaves set ([`state`]), the pipelines they run
//! ([`pipeline`]), what executing them does to resource states ([`states`]), and the memory
//! they reach ([`memory`], [`tiles`], [`va`], [`descriptors`],
//! [`queries`]). Everything here is plain data shared by `Arc`, never a COM object: recording
//! (`crate::command_list`) fills it, `crate::backend` executes it, and neither the objects'
//! lifetimes nor their validation reach below this line.

pub mod commands;
pub mod descriptors;
pub mod memory;
pub mod pipeline;
pub mod queries;
pub mod state;
pub mod states;
pub mod tiles;
pub mod va;
