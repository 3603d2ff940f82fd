//! The reference executor over the IR, split by op family.
pub mod wave;
