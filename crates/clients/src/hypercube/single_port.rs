//! The single-port baselines of the seed paper's comparison: each node sends
//! at most one packet and receives at most one per step (the paper's SLA
//! assumption, whose optimal algorithms it leaves to its references). Each is
//! built as a schedule with `ports: 1` and replayed under that limit, like the
//! all-port constructions; bit i of a node is its coordinate i + 1.
//!
//! - broadcast: the binomial tree of [`super::broadcast`] already sends and
//!   receives at most once per node and step: d steps;
//! - scatter: recursive halving, bit d − 1 first: every node holding packets
//!   sends across bit k the 2^k packets for the other half of its subcube, one
//!   a step, so the phases take 2^(d−1) + … + 1 = 2^d − 1 steps;
//! - mnb: dimension exchange, bit 0 first: across bit k every node forwards
//!   the 2^k packets it holds, one a step: 1 + 2 + … + 2^(d−1) = 2^d − 1 steps;
//! - exchange: dimension order, bit 0 first: across bit k every node sends the
//!   2^(d−1) packets it holds whose destination differs from it in bit k, one
//!   a step: d·2^(d−1) steps, every packet along a shortest path.

use super::Problem;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{BROADCAST, Collective, Ports, Schedule, TimedSend};

/// The time of the single-port construction of `problem` on the d-cube (its
/// phases' lengths, as the module documentation sums them).
pub fn time(problem: Problem, d: u32) -> u64 {
    let n = 1u64 << d;
    match problem {
        Problem::Broadcast | Problem::Accumulate => u64::from(d),
        Problem::Scatter | Problem::Gather | Problem::Mnb => n - 1,
        Problem::Exchange => u64::from(d) * n / 2,
    }
}

/// The single-port schedule of `problem` on the d-cube from `root` (0 for
/// mnb and exchange), in step order, with `ports: 1`.
pub fn build(problem: Problem, d: u32, root: u32) -> Schedule {
    let sends = match problem {
        Problem::Broadcast | Problem::Accumulate => super::broadcast::build(d, root).sends,
        Problem::Scatter | Problem::Gather => scatter(d, root),
        Problem::Mnb => mnb(d),
        Problem::Exchange => exchange(d),
    };
    let schedule = Schedule {
        network: Some(NetworkName::Hypercube(d)),
        ports: Some(Ports::Limit(1)),
        collective: match problem {
            Problem::Accumulate => Collective::broadcast(root),
            Problem::Gather => Collective::Scatter(root),
            _ => problem.collective(root),
        },
        sends,
    };
    match problem {
        Problem::Accumulate | Problem::Gather => {
            super::reversed(&schedule, problem.collective(root))
        }
        _ => schedule,
    }
}

/// Recursive halving from `root`: in the phase of bit k (k = d − 1 … 0), the
/// holders `root ⊕ h·2^(k+1)` send to `holder ⊕ 2^k` the packets for
/// `holder ⊕ 2^k ⊕ i`, i < 2^k, at step `2^d − 2^(k+1) + 1 + i`.
fn scatter(d: u32, root: u32) -> Vec<TimedSend> {
    let mut sends = Vec::with_capacity((d as usize) << d.saturating_sub(1));
    for k in (0..d).rev() {
        let start = (1u32 << d) - (1u32 << (k + 1)) + 1;
        for i in 0..1u32 << k {
            for h in 0..1u32 << (d - 1 - k) {
                let holder = root ^ h << (k + 1);
                sends.push(TimedSend {
                    step: start + i,
                    from: holder,
                    to: holder ^ 1 << k,
                    source: root,
                    destination: holder ^ 1 << k ^ i,
                });
            }
        }
    }
    sends
}

/// Dimension exchange: in the phase of bit k (k = 0 … d − 1), node x sends to
/// `x ⊕ 2^k` the packet of source `x ⊕ y`, y < 2^k, at step `2^k + y`.
fn mnb(d: u32) -> Vec<TimedSend> {
    let n = 1u32 << d;
    let mut sends = Vec::with_capacity(n as usize * (n as usize - 1));
    for k in 0..d {
        for y in 0..1u32 << k {
            sends.extend((0..n).map(|x| TimedSend {
                step: (1 << k) + y,
                from: x,
                to: x ^ 1 << k,
                source: x ^ y,
                destination: BROADCAST,
            }));
        }
    }
    sends
}

/// Dimension order: in the phase of bit k (k = 0 … d − 1), node x holds the
/// packets (s, t) with s = x on bits ≥ k and t = x on bits < k; it sends to
/// `x ⊕ 2^k` those with t ≠ x on bit k: s = x ⊕ a (a < 2^k), t = x ⊕ 2^k ⊕
/// b·2^(k+1) (b < 2^(d−1−k)), at step `k·2^(d−1) + 1 + a·2^(d−1−k) + b`.
fn exchange(d: u32) -> Vec<TimedSend> {
    let n = 1u32 << d;
    let half = n / 2;
    let mut sends = Vec::with_capacity((d as usize) * (n as usize) * (half as usize));
    for k in 0..d {
        let high = 1u32 << (d - 1 - k);
        for a in 0..1u32 << k {
            for b in 0..high {
                sends.extend((0..n).map(|x| TimedSend {
                    step: k * half + 1 + a * high + b,
                    from: x,
                    to: x ^ 1 << k,
                    source: x ^ a,
                    destination: x ^ 1 << k ^ b << (k + 1),
                }));
            }
        }
    }
    sends
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sends_are_in_step_order_and_end_at_the_stated_time() {
        for d in 1..=6 {
            for problem in Problem::ALL {
                let s = build(problem, d, (1 << d) - 1);
                assert!(s.sends.windows(2).all(|w| w[0].step <= w[1].step));
                let last = s.sends.iter().map(|s| s.step).max().unwrap();
                assert_eq!(u64::from(last), time(problem, d), "{problem} {d}");
            }
        }
    }
}
