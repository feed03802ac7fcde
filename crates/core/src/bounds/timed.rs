//! Lower bounds on the completion time of a *timed* replay: the α-β model of
//! docs/collectives.md ("Timed replay (α, β)"), where a message of `s` chunks
//! takes `α_e + s·β_e` on the directed link `e` it crosses, store-and-forward,
//! one message at a time on each link.
//!
//! These bounds are not new counting arguments: each turns a bound of this
//! module's step model into time, so that the step bounds stay the one source
//! of what must be moved, and the timed figures are compared with something
//! every schedule or program must meet.
//!
//! - [`steps_in_time`] (schedules, one chunk a send): a timed run whose every
//!   send lasts at least τ = min_e(α_e + β_e) is, cut into windows of length τ,
//!   a step schedule of the same sends in the K-port model with copies,
//!   buffering and combining (each link and port starts at most one message,
//!   resp. K, per window; a packet received in one window is sent in a later
//!   one); so it lasts at least T·τ, for every step bound T of
//!   [`super::collective()`].
//! - [`chains_and_loads`] (messages of several chunks, e.g. MSCCL programs): a
//!   chain of D hops is D messages one after the other, each at least
//!   min_e(α_e + β_e); a link that must carry L chunks in messages of at most
//!   M chunks is busy at least ⌈L / M⌉·α_e + L·β_e.
//!
//! Floating-point figures: the bounds are computed with the same additions and
//! multiplications as the replay's times, on finite non-negative α and β.

use serde::Serialize;

/// A lower bound on a timed completion, with the parts it is made of.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TimedBound {
    /// No run in the α-β model finishes sooner.
    pub value: f64,
    /// The argument, in words (e.g. `6 steps × 3, the fastest α + β`).
    pub argument: String,
}

/// The fastest one-chunk send of a link table: min over the links of α + β
/// (0 for no link).
pub fn fastest_send(links: &[(f64, f64)]) -> f64 {
    links
        .iter()
        .map(|&(a, b)| a + b)
        .reduce(f64::min)
        .unwrap_or(0.0)
}

/// The time bound of a schedule whose sends carry one chunk each, from a
/// step bound `steps` (of [`super::collective()`] under the schedule's
/// collective, network and ports) and the directed links' `(α, β)`.
pub fn steps_in_time(steps: u64, links: &[(f64, f64)]) -> TimedBound {
    let tau = fastest_send(links);
    TimedBound {
        value: steps as f64 * tau,
        argument: format!("{steps} steps × {tau}, the fastest α + β"),
    }
}

/// The time bound of a program whose messages carry at most `max_chunks`
/// chunks (≥ 1), from a latency bound of `hops` hops (a chain of messages
/// every run contains) and a load bound of `load` chunks (what some directed
/// link must carry), on the directed links' `(α, β)`.
pub fn chains_and_loads(hops: u64, load: u64, max_chunks: u64, links: &[(f64, f64)]) -> TimedBound {
    let chain = hops as f64 * fastest_send(links);
    let messages = load.div_ceil(max_chunks.max(1));
    let busy = if load == 0 {
        0.0
    } else {
        links
            .iter()
            .map(|&(a, b)| messages as f64 * a + load as f64 * b)
            .reduce(f64::min)
            .unwrap_or(0.0)
    };
    let argument = if chain >= busy {
        format!(
            "a chain of {hops} hops × {}, the fastest α + β",
            fastest_send(links)
        )
    } else {
        format!("a link carrying {load} chunks in at least {messages} messages")
    };
    TimedBound {
        value: chain.max(busy),
        argument,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_become_time_at_the_fastest_send() {
        let b = steps_in_time(4, &[(2.0, 1.0), (1.0, 0.5)]);
        assert_eq!(b.value, 6.0);
        assert_eq!(steps_in_time(0, &[]).value, 0.0);
    }

    #[test]
    fn a_heavy_link_or_a_long_chain() {
        // 3 hops of α + β = 3: 9; 10 chunks in messages of at most 4: at
        // least 3 messages, 3·2 + 10·1 = 16.
        let b = chains_and_loads(3, 10, 4, &[(2.0, 1.0)]);
        assert_eq!(b.value, 16.0);
        let b = chains_and_loads(8, 10, 4, &[(2.0, 1.0)]);
        assert_eq!(b.value, 24.0);
        assert_eq!(chains_and_loads(0, 0, 1, &[(2.0, 1.0)]).value, 0.0);
    }
}
