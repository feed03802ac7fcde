//! txverify: verify, simulate and search for communication schedules on
//! interconnection networks, after Coolsaet, Fack and De Meyer's tabular method.
//!
//! The library is split so that what decides a verdict is small and separate:
//! [`kernel`] is the trusted checker; [`format`](mod@format) and [`group`] feed it; everything
//! that *produces* tables (constructions, search) hands its output back to the
//! kernel before anything is printed.
#![deny(missing_docs)]

pub mod bounds;
pub mod catalogue;
pub mod construct;
pub mod export;
pub mod families;
pub mod fifo;
pub mod format;
pub mod group;
pub mod hypercube;
pub mod infer;
pub mod kernel;
pub mod lcc;
pub mod load;
pub mod metrics;
pub mod msccl;
pub mod network;
pub mod product;
pub mod render;
pub mod report;
pub mod schedule;
pub mod search;
pub mod simulate;
pub mod verdict;
pub mod verify;
