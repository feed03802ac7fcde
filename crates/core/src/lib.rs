//! txverify-core: the trusted part of txverify — networks, groups, the `.tbl`
//! format and its loader, the checking kernel, the schedule model and its replay,
//! lower bounds and verdicts.
//!
//! The crate depends on nothing of the search, the constructions, the reports or
//! the command line, so that what decides a verdict is small, separate and can be
//! read on its own: [`kernel`] is the table checker; [`format`](mod@format) and
//! [`group`] feed it; [`schedule`] replays a schedule step by step; [`bounds`] is
//! the only maker of a lower bound and [`verdict`] the only maker of a verdict.
//! Everything that *produces* tables or schedules lives in other crates and hands
//! its output back to this one before anything is printed.
#![deny(missing_docs)]

pub mod bounds;
pub mod compress;
pub mod families;
pub mod format;
pub mod group;
pub mod kernel;
pub mod load;
pub mod network;
pub mod schedule;
pub mod verdict;
