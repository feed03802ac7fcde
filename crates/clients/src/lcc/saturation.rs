//! The saturation throughput of a communication as a rate the network
//! sustains: the largest offered load whose latency stays bounded, found by
//! bisection over the offered load.
//!
//! The most a curve delivers at any load is not that rate: an overloaded run
//! delivers about as much while its queues, and so its latency, grow without
//! bound. Here a load is sustained when its run ([`wormhole::run`]) is not
//! `saturated`: every measured message arrives within the drain, at least 90 %
//! of the offered flits are delivered while measuring, and the backlog does
//! not grow between the two halves of the measuring window ([`wormhole::grew`]).
//! The bisection assumes that a load above one that is not sustained is not
//! sustained either, and reports the bracket it ends with.

use super::Lcc;
use super::wormhole::{self, Point, SimConfig};

/// How close the bisection brackets the sustainable rate, in flits per cycle
/// per stream.
pub const RESOLUTION: f64 = 0.005;

/// The outcome of the bisection.
#[derive(Clone, Debug, PartialEq)]
pub struct Sustainable {
    /// The largest offered load found sustained (0 when none was).
    pub rate: f64,
    /// Its run, if a load was sustained.
    pub at_rate: Option<Point>,
    /// The smallest offered load found not sustained, within [`RESOLUTION`]
    /// above `rate`; `None` when even 1 flit per cycle per stream was sustained.
    pub above: Option<Point>,
    /// Runs simulated.
    pub runs: usize,
}

/// Bisects the offered load in (0, 1] for the largest sustained one.
pub fn sustainable(lcc: &Lcc, config: &SimConfig) -> Sustainable {
    let top = wormhole::run(lcc, 1.0, config);
    if !top.saturated {
        return Sustainable {
            rate: 1.0,
            at_rate: Some(top),
            above: None,
            runs: 1,
        };
    }
    let (mut low, mut at_rate) = (0.0, None);
    let (mut high, mut above) = (1.0, top);
    let mut runs = 1;
    while high - low > RESOLUTION {
        let middle = (low + high) / 2.0;
        let p = wormhole::run(lcc, middle, config);
        runs += 1;
        if p.saturated {
            (high, above) = (middle, p);
        } else {
            (low, at_rate) = (middle, Some(p));
        }
    }
    Sustainable {
        rate: low,
        at_rate,
        above: Some(above),
        runs,
    }
}
