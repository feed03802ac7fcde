//! The LP bound of a total exchange (the fractional multicommodity-flow
//! bound), with a certificate anyone can check: one non-negative integer
//! weight per directed link.
//!
//! The argument. Take any schedule of T steps and any weights w(e) ≥ 0 on the
//! directed links. Each link carries at most one message a step, so at most T
//! in all, and Σ_e w(e)·load(e) ≤ T·Σ_e w(e). Message (s, t) walks from s to t,
//! so the weights of the links it crosses add up to at least d_w(s, t), the
//! w-weighted distance; summed over the N(N − 1) messages,
//! Σ_e w(e)·load(e) ≥ Σ_{s≠t} d_w(s, t). Hence
//!
//! ```text
//! T ≥ ⌈ Σ_{s≠t} d_w(s, t) / Σ_e w(e) ⌉        for every w ≥ 0, Σ w > 0.
//! ```
//!
//! Any ports (fewer ports only slow a schedule), any routing (paths need not
//! be shortest: a walk is never lighter than d_w), any buffering, copies
//! allowed (a copy that reaches t still walked from s). w = 1 everywhere is
//! the all-port distance bound ⌈H / L⌉; w = 1 on the links between the two
//! sides of a cut A is the cut bound ⌈|A|·|V∖A| / c(A)⌉. The best w is the
//! dual of the least maximum link load of a fractional routing (linear
//! programming duality): that optimum is the LP bound, and no other w beats it.
//!
//! The trusted part is [`evaluate`]: given integer weights, Dijkstra from every
//! source, exact sums in u128, one division rounded up. How the weights were
//! found ([`optimise`], a Frank–Wolfe descent on the smoothed maximum load,
//! whose real weights are scaled and rounded) does not enter the proof:
//! rounding only moves w to another w, for which the argument above holds
//! as well, so a poor optimiser gives a weaker bound, never a wrong one.
//!
//! The value fits in u64: a shortest path crosses each link at most once, so
//! d_w(s, t) ≤ Σ_e w(e) and the ratio is at most N(N − 1).

mod optimise;
#[cfg(test)]
mod tests;

pub use optimise::{LpOptions, LpSolution, PER_SOURCE_ENTRIES, WeightsFound, optimise};

use crate::network::Graph;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The name of the LP bound in a [`super::BoundSet`].
pub const LP_BOUND_NAME: &str = "lp";

/// The LP bound of one weight vector, exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LpBound {
    /// ⌈weighted_distance / total_weight⌉: the bound in steps.
    pub value: u64,
    /// Σ_{s≠t} d_w(s, t).
    pub weighted_distance: u128,
    /// Σ_e w(e)·c(e), c the capacity (1 off a fabric; > 0).
    pub total_weight: u128,
}

impl LpBound {
    /// The unrounded ratio, for reports.
    pub fn ratio(&self) -> f64 {
        self.weighted_distance as f64 / self.total_weight as f64
    }

    /// Whether this bound's ratio is larger than `other`'s, exact.
    pub fn exceeds(&self, other: &LpBound) -> bool {
        fraction_greater(
            self.weighted_distance,
            self.total_weight,
            other.weighted_distance,
            other.total_weight,
        )
    }
}

/// a / b > c / d for b, d > 0, exact without products (which may overflow):
/// compare the whole parts, then the reciprocals of the remainders.
fn fraction_greater(a: u128, b: u128, c: u128, d: u128) -> bool {
    let (p, q) = (a / b, c / d);
    if p != q {
        return p > q;
    }
    match (a % b, c % d) {
        (0, _) => false,
        (_, 0) => true,
        // r/b > s/d ⟺ d/s > b/r.
        (r, s) => fraction_greater(d, s, b, r),
    }
}

/// Why a weight vector gives no bound.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LpError {
    /// Not one weight per directed link.
    #[error("{given} weights for {links} directed links")]
    Length {
        /// Weights given.
        given: usize,
        /// Directed links of the graph.
        links: usize,
    },
    /// Every weight is 0: the ratio is 0 / 0.
    #[error("every weight is 0: no bound")]
    ZeroWeight,
    /// The weights add up to more than 2^64.
    #[error("the weights add up to more than 2^64")]
    TooHeavy,
    /// A node cannot reach another (a graph that is not connected).
    #[error("node {to} cannot be reached from node {from}: no bound")]
    Unreachable {
        /// The source.
        from: u32,
        /// The node it cannot reach.
        to: u32,
    },
}

/// The exact LP bound of integer `weights`, one per directed link of `graph`
/// (indexed by link id): ⌈Σ_{s≠t} d_w(s, t) / Σ_e w(e)⌉, by Dijkstra from
/// every source (in parallel; the sum is the same in any order). On a fabric
/// the pairs are of GPUs only (nodes that are not forward-only: a switch has
/// no message) and a link of capacity c carries c messages a step, so the
/// divisor is Σ_e w(e)·c(e) (`total_weight`): the same on a plain network.
pub fn evaluate(graph: &Graph, weights: &[u64]) -> Result<LpBound, LpError> {
    let links = graph.directed_links();
    if weights.len() != links {
        return Err(LpError::Length {
            given: weights.len(),
            links,
        });
    }
    let total_weight: u128 = weights.iter().map(|&w| u128::from(w)).sum();
    if total_weight == 0 {
        return Err(LpError::ZeroWeight);
    }
    if total_weight > u128::from(u64::MAX) {
        return Err(LpError::TooHeavy);
    }
    // Each distance is at most Σw < 2^64 and there are fewer than 2^48 pairs,
    // so the sum stays under 2^112.
    let total_weight: u128 = weights
        .iter()
        .enumerate()
        .map(|(l, &w)| u128::from(w) * u128::from(graph.capacity(l as u32)))
        .sum();
    let gpu = |x: u32| !graph.is_forward_only(x);
    let weighted_distance = (0..graph.nodes() as u32)
        .into_par_iter()
        .filter(|&s| gpu(s))
        .map(|s| {
            let dist = weighted_distances(graph, weights, s);
            dist.iter()
                .enumerate()
                .filter(|&(t, _)| gpu(t as u32))
                .try_fold(0u128, |sum, (t, d)| match d {
                    Some(d) => Ok(sum + d),
                    None => Err(LpError::Unreachable {
                        from: s,
                        to: t as u32,
                    }),
                })
        })
        .try_reduce(|| 0, |a, b| Ok(a + b))?;
    Ok(LpBound {
        value: u64::try_from(weighted_distance.div_ceil(total_weight)).unwrap_or(u64::MAX),
        weighted_distance,
        total_weight,
    })
}

/// d_w(source, t) for every t (`None`: unreachable), by Dijkstra.
pub fn weighted_distances(graph: &Graph, weights: &[u64], source: u32) -> Vec<Option<u128>> {
    let n = graph.nodes();
    let mut dist: Vec<Option<u128>> = vec![None; n];
    let mut done = vec![false; n];
    let mut heap = BinaryHeap::new();
    dist[source as usize] = Some(0);
    heap.push(Reverse((0u128, source)));
    while let Some(Reverse((d, x))) = heap.pop() {
        if std::mem::replace(&mut done[x as usize], true) {
            continue;
        }
        for link in graph.links_of(x) {
            let (_, y) = graph.endpoints(link);
            let through = d + u128::from(weights[link as usize]);
            if dist[y as usize].is_none_or(|old| through < old) {
                dist[y as usize] = Some(through);
                heap.push(Reverse((through, y)));
            }
        }
    }
    dist
}

/// The weights of a cut: 1 on every link between `side` and the rest, either
/// way, 0 elsewhere; their LP bound is the cut bound ⌈|A|·|V∖A| / c(A)⌉.
pub fn cut_weights(graph: &Graph, side: &[u32]) -> Vec<u64> {
    let mut in_side = vec![false; graph.nodes()];
    for &x in side {
        if let Some(a) = in_side.get_mut(x as usize) {
            *a = true;
        }
    }
    (0..graph.directed_links() as u32)
        .map(|l| {
            let (x, y) = graph.endpoints(l);
            u64::from(in_side[x as usize] != in_side[y as usize])
        })
        .collect()
}
