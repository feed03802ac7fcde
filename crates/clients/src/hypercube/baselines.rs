//! The single-port and half-duplex baselines the all-port algorithms are
//! compared with (the seed paper's SLA assumption, and the unidirectional
//! links of its reference 15 (Johnsson and Ho), under which it says multinode broadcast and
//! total exchange take twice as long).
//!
//! Single port: the lower bound of [`bounds::single_port_time`] and the
//! schedule of [`single_port`], replayed with `ports: 1` and judged by
//! [`verdict::judge`] when it has at most [`REPLAY_MAX_SENDS`] sends.
//!
//! Half duplex: the lower bound of [`bounds::half_duplex_time`], and the time
//! of the all-port schedule with every step split in two, the sends from the
//! lower-numbered end of their link first: each half uses a link in one
//! direction, and a packet received in a half is sent on no earlier than the
//! next step, so the split schedule is valid and takes 2T. Broadcast, scatter
//! and their duals need no split (every send leaves, or for the duals
//! approaches, the root along a tree link, so no link is used both ways in one
//! step) and take T. The replay has no half-duplex model: these times are
//! derived, not replayed.

use super::{Problem, bounds, single_port};
use txverify_core::network::Graph;
use txverify_core::schedule::{ReplayError, ReplayOptions, replay};
use txverify_core::verdict::{self, ScheduleVerdict};

/// The largest single-port schedule replayed (335 MiB of sends): mnb up to
/// d = 12, exchange up to d = 10, every other problem up to d = 16.
pub const REPLAY_MAX_SENDS: u128 = 1 << 24;

/// The single-port baseline.
#[derive(Clone, Debug)]
pub struct SinglePort {
    /// No single-port schedule is faster.
    pub time_bound: u64,
    /// The time of the construction of [`single_port`].
    pub time: u64,
    /// The verdict on its replay with `ports: 1` against the bound, when it
    /// was replayed.
    pub checked: Option<ScheduleVerdict>,
}

/// The half-duplex baseline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HalfDuplex {
    /// No half-duplex schedule is faster.
    pub time_bound: u64,
    /// The time of the all-port schedule split by direction (derived).
    pub time: u64,
}

/// Both baselines of `problem` on the d-cube `graph` from `root`, beside an
/// all-port schedule of `all_port_time` steps.
pub fn baselines(
    problem: Problem,
    d: u32,
    root: u32,
    graph: &Graph,
    all_port_time: u64,
) -> Result<(SinglePort, HalfDuplex), ReplayError> {
    let single = bounds::single_port(problem, graph, root);
    let time_bound = single.time.value();
    let checked = if problem.sends(d) <= REPLAY_MAX_SENDS {
        let schedule = single_port::build(problem, d, root);
        let report = replay(&schedule, graph, &ReplayOptions { max_listed: 0 })?;
        let bound = single.time.best().clone();
        Some(verdict::judge(&report, Some(bound), None))
    } else {
        None
    };
    let split = match problem {
        Problem::Mnb | Problem::Exchange => 2 * all_port_time,
        _ => all_port_time,
    };
    Ok((
        SinglePort {
            time_bound,
            time: single_port::time(problem, d),
            checked,
        },
        HalfDuplex {
            time_bound: bounds::half_duplex_time(problem, graph, root),
            time: split,
        },
    ))
}
