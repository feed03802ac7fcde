//! Total exchange with buffering (seed paper, section 4): the recursive
//! three-phase algorithm that takes 2^(d−1) steps and d·2^(2d−1) sends.
//!
//! The (k+1)-cube is two k-cubes joined along bit k. Phase 1 is a total
//! exchange inside each half (steps 1 … T_k, T_k = 2^(k−1)); phase 2 sends, over
//! bit k, each node's 2^k packets for the other half, one per step (steps
//! 1 … 2^k), in the order in which the node across will forward them in phase 3,
//! the packet for the node across last; phase 3 (steps T_k + 1 … 2T_k) is a
//! total exchange inside each half of the packets phase 2 brought.
//!
//! The algorithm is the same at every node up to XOR translation, so it is
//! fixed by one number per offset δ ≠ 0: P(δ), the step at which a node sends
//! its own packet for `node ⊕ δ`, over the highest bit k of δ. P(2^k) = 2^k
//! (last); the other offsets of that bit are ranked by the step at which the
//! node across first forwards them inside its half, P(δ ⊕ 2^k), ties by offset.
//! This reproduces the tables of the paper's Figure 6. A packet for offset δ
//! with bits k_1 > k_2 > … > k_r crosses k_1 at step P(δ), then k_2 at step
//! T_(k_1) + P(δ ⊕ 2^(k_1)), then k_3 at T_(k_1) + T_(k_2) + P(…), and so on:
//! each crossing after the first happens in the phase 3 of the level above.

use super::HypercubeError;
use rayon::prelude::*;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{Collective, Ports, Schedule, TimedSend};

/// P(δ) for every δ in 1 … 2^d − 1 (`p[0]` unused).
pub fn own_send_steps(d: u32) -> Vec<u32> {
    let mut p = vec![0u32; 1 << d];
    for k in 0..d {
        let base = 1u32 << k;
        let mut others: Vec<u32> = (1..base).collect();
        others.sort_by_key(|&e| (p[e as usize], e));
        for (rank, &e) in others.iter().enumerate() {
            p[(base | e) as usize] = rank as u32 + 1;
        }
        p[base as usize] = base;
    }
    p
}

/// One hop of the packet for offset δ, relative to its source: at `step` it
/// leaves `source ⊕ before` across bit `bit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelativeHop {
    /// The step.
    pub step: u32,
    /// The bits already crossed.
    pub before: u32,
    /// The bit crossed now (0-based).
    pub bit: u32,
    /// The packet's offset δ (destination ⊕ source).
    pub offset: u32,
}

/// Every hop of every offset, grouped by step (index 0 is step 1).
pub fn relative_hops(d: u32, p: &[u32]) -> Result<Vec<Vec<RelativeHop>>, HypercubeError> {
    let time = 1u32 << d.saturating_sub(1);
    let mut by_step = vec![Vec::new(); time as usize];
    for delta in 1..1u32 << d {
        let (mut rest, mut before, mut shift, mut previous) = (delta, 0u32, 0u32, 0u32);
        while rest != 0 {
            let bit = 31 - rest.leading_zeros();
            let step = shift + p[rest as usize];
            if step <= previous || step > time {
                return Err(HypercubeError::Construction {
                    problem: "exchange",
                    message: format!(
                        "offset {delta:#b} crosses bit {} at step {step}, after step {previous} and within 1 … {time}",
                        bit + 1
                    ),
                });
            }
            by_step[step as usize - 1].push(RelativeHop {
                step,
                before,
                bit,
                offset: delta,
            });
            previous = step;
            before |= 1 << bit;
            rest &= !(1 << bit);
            shift += (1 << bit) >> 1; // T_bit = 2^(bit − 1); the lower bits run in phase 3
        }
    }
    Ok(by_step)
}

/// Checks the inductive hypothesis (6) of section 4: a node has sent at most
/// 2^(d−1) + n − 1 of its own packets by step n, for n = 1 … 2^(d−1).
pub fn check_hypothesis(d: u32, p: &[u32]) -> Result<(), HypercubeError> {
    let time = 1usize << d.saturating_sub(1);
    let mut sent_at = vec![0u64; time + 1];
    for &step in &p[1..] {
        sent_at[step as usize] += 1;
    }
    let mut sent = 0u64;
    for (n, &count) in sent_at.iter().enumerate().skip(1) {
        sent += count;
        if sent > (time + n - 1) as u64 {
            return Err(HypercubeError::Construction {
                problem: "exchange",
                message: format!(
                    "{sent} own packets sent by step {n}, more than 2^(d-1) + n - 1 = {}",
                    time + n - 1
                ),
            });
        }
    }
    Ok(())
}

/// The sends of the relative hops of one step, for every source node, in the
/// order of `hops` and then of the source: d·2^d sends for a step of section 4.
/// Appended to `out`, both cores filling it: no object per send.
pub fn step_sends(d: u32, hops: &[RelativeHop], out: &mut Vec<TimedSend>) {
    let nodes = 1usize << d;
    out.par_extend((0..hops.len() * nodes).into_par_iter().map(|k| {
        let hop = hops[k >> d];
        let i = (k & (nodes - 1)) as u32;
        TimedSend {
            step: hop.step,
            from: i ^ hop.before,
            to: i ^ hop.before ^ 1 << hop.bit,
            source: i,
            destination: i ^ hop.offset,
        }
    }));
}

/// The sends of the whole algorithm, in step order: for every step, every hop
/// of that step, every source node. Exactly d·2^(2d−1) sends, 20 bytes each.
pub fn from_hops(d: u32, by_step: &[Vec<RelativeHop>]) -> Schedule {
    let total: usize = by_step.iter().map(Vec::len).sum::<usize>() << d;
    let mut sends = Vec::with_capacity(total);
    for hops in by_step {
        step_sends(d, hops, &mut sends);
    }
    Schedule {
        network: Some(NetworkName::Hypercube(d)),
        ports: Some(Ports::All),
        collective: Collective::TotalExchange,
        sends,
    }
}

/// Section 4's relative hops grouped by step, after the checks [`build`]
/// makes: what [`step_sends`] turns into one step's sends at a time, so that a
/// caller can replay the exchange without holding all d·2^(2d−1) sends.
pub fn hops_by_step(d: u32) -> Result<Vec<Vec<RelativeHop>>, HypercubeError> {
    let p = own_send_steps(d);
    check_hypothesis(d, &p)?;
    relative_hops(d, &p)
}

/// Section 4's total exchange on the d-cube, after checking the inductive
/// hypothesis and that every packet's hops are in increasing steps within
/// 1 … 2^(d−1).
pub fn build(d: u32) -> Result<Schedule, HypercubeError> {
    Ok(from_hops(d, &hops_by_step(d)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figure_6_is_reproduced_for_d_4() {
        // Fig. 6, d = 4: the destinations node 0 sends through links 1 … 4, in time order.
        let columns: [&[u32]; 4] = [
            &[0b0001],
            &[0b0011, 0b0010],
            &[0b0101, 0b0111, 0b0110, 0b0100],
            &[
                0b1001, 0b1011, 0b1101, 0b1010, 0b1111, 0b1110, 0b1100, 0b1000,
            ],
        ];
        let p = own_send_steps(4);
        for column in columns {
            for (time, &delta) in column.iter().enumerate() {
                assert_eq!(p[delta as usize], time as u32 + 1, "offset {delta:#06b}");
            }
        }
    }

    #[test]
    fn hops_fill_every_step_with_d_times_two_to_the_d_minus_1_relative_hops() {
        for d in 1..=10u32 {
            let p = own_send_steps(d);
            check_hypothesis(d, &p).unwrap();
            let by_step = relative_hops(d, &p).unwrap();
            // Every directed link busy at every step: d·2^d sends per step, i.e. d
            // relative hops per step, one per bit.
            for hops in &by_step {
                let mut bits: Vec<u32> = hops.iter().map(|h| h.bit).collect();
                bits.sort_unstable();
                assert_eq!(bits, (0..d).collect::<Vec<_>>(), "d {d}");
            }
        }
    }
}
