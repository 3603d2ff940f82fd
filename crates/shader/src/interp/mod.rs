//! The reference executor over the IR: a wave of lanes per instruction.
//!
//! * [`alu`] — arithmetic on raw lane bits.

pub mod alu;
