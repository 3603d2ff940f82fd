//! Passes over the IR, one file each, each unit-tested beside its code. They read and
//! annotate [`crate::ir::Function`]s and know nothing of a front end or back end.
//!
//! * [`dom`] — (post-)dominator trees: Cooper, Harvey and Kennedy's iterative algorithm.
//! * [`cfg`](mod@cfg) — predecessors, reverse post-order, reconvergence points (immediate
//!   post-dominators) and natural loops: [`crate::ir::Cfg`].
//! * [`copies`] — values that repeat another's bits share its slots.
//! * [`slots`] — where each value lives in a lane's flat slot array.

pub mod cfg;
pub mod copies;
pub mod dom;
pub mod slots;
