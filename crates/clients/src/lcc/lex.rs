//! `lcc map`'s default objective: the worst weighted contention first, then
//! the sum of the communications' weighted contentions, then the sum over
//! dimensions and communications of w_r · T_i — minimised lexicographically,
//! exactly.
//!
//! One programme over (set, last bit) pairs that keeps the least triple of a
//! prefix is not exact: a prefix with a larger maximum and a smaller sum can
//! win once a later position raises the maximum anyway. So the criteria are
//! taken one at a time, each as a cap on positions: an order has every
//! communication's weighted contention at most c_r exactly when each of its
//! positions has w_r · T_i,r ≤ c_r, a condition on (set, last bit) alone, under
//! which the programme of Theorem 5 stays exact (docs/lcc.md).

use super::Lcc;
use super::contention::{at_position, by_rank, degree};
use super::gf2::low_mask;
use super::map::{self, MAX_MAP_DIM, MapError, Objective};

pub use super::map::{Lexicographic, MAX_CAP_VECTORS};

/// The value of an order, from the reordered matrices and Theorem 1 only.
pub fn evaluate(lccs: &[Lcc], weights: &[u64], order: &[usize]) -> Lexicographic {
    let per: Vec<Vec<u64>> = lccs.iter().map(|l| by_rank(&l.reordered(order))).collect();
    let weighted = |f: &dyn Fn(&[u64]) -> u64| -> Vec<u64> {
        per.iter()
            .zip(weights)
            .map(|(t, &w)| w.saturating_mul(f(t)))
            .collect()
    };
    let worst = weighted(&|t| degree(t));
    Lexicographic {
        worst: worst.iter().copied().max().unwrap_or(0),
        contentions: worst.iter().fold(0, |a: u64, &x| a.saturating_add(x)),
        total: map::evaluate(lccs, weights, Objective::Sum, order),
    }
}

/// T_i,r of every (set, last bit) pair, as 0 (no message) or k + 1 for 2^k:
/// computed once, read by every capped programme.
struct Costs {
    n: usize,
    m: usize,
    codes: Vec<u8>,
}

impl Costs {
    fn new(lccs: &[Lcc]) -> Costs {
        let (n, m) = (lccs[0].n(), lccs.len());
        let mut codes = vec![0u8; (1usize << n) * n * m];
        for set in 1u64..1 << n {
            for j in (0..n).filter(|j| set >> j & 1 == 1) {
                for (r, l) in lccs.iter().enumerate() {
                    let t = at_position(l, set, j);
                    codes[(set as usize * n + j) * m + r] = if t == 0 {
                        0
                    } else {
                        t.trailing_zeros() as u8 + 1
                    };
                }
            }
        }
        Costs { n, m, codes }
    }

    /// w_r · T_i,r of communication r at (set, last bit j).
    fn weighted<'a>(
        &'a self,
        weights: &'a [u64],
        set: usize,
        j: usize,
    ) -> impl Iterator<Item = u64> + 'a {
        let at = (set * self.n + j) * self.m;
        let codes = &self.codes[at..at + self.m];
        codes.iter().zip(weights).map(|(&c, &w)| {
            let t = if c == 0 { 0 } else { 1u64 << (c - 1) };
            w.saturating_mul(t)
        })
    }
}

/// The order of least Σ_i Σ_r w_r · T_i,r among those whose every position
/// has w_r · T_i,r ≤ caps[r], and that sum; `None` when no order qualifies.
/// Ties go to the smallest last bit, as in [`map::optimise`].
fn capped(costs: &Costs, weights: &[u64], caps: &[u64]) -> Option<(Vec<usize>, u64)> {
    let n = costs.n;
    let mut best = vec![u64::MAX; 1 << n];
    let mut last = vec![0u8; 1 << n];
    best[0] = 0;
    for set in 1usize..1 << n {
        for j in (0..n).filter(|j| set >> j & 1 == 1) {
            let earlier = best[set ^ 1 << j];
            if earlier == u64::MAX {
                continue;
            }
            let mut within = true;
            let mut here = 0u64;
            for (x, &cap) in costs.weighted(weights, set, j).zip(caps) {
                within &= x <= cap;
                here = here.saturating_add(x);
            }
            let total = earlier.saturating_add(here);
            if within && total < best[set] {
                (best[set], last[set]) = (total, j as u8);
            }
        }
    }
    let full = low_mask(n) as usize;
    if best[full] == u64::MAX {
        return None;
    }
    let mut order = vec![0; n];
    let mut set = full;
    for slot in order.iter_mut().rev() {
        *slot = usize::from(last[set]);
        set ^= 1 << *slot;
    }
    Some((order, best[full]))
}

/// Every vector of caps c_r ∈ {0} ∪ {w_r · 2^k ≤ worst, k < n}, with c_r at
/// least w_r times the least contention of communication r, sorted by Σ c_r.
/// Vectors of equal sum come with the smallest cap for the last communication
/// first, then for the one before it, and so on: among orders equal on all
/// three criteria, the communications listed last get the smaller contention
/// (the paper's Example 6 and M-G assignments; docs/lcc.md).
fn cap_vectors(lccs: &[Lcc], weights: &[u64], worst: u64) -> Result<Vec<Vec<u64>>, MapError> {
    let mut vectors: Vec<Vec<u64>> = vec![Vec::new()];
    for (l, &w) in lccs.iter().zip(weights) {
        let least = w.saturating_mul(super::contention::minimum(l));
        // No T_i exceeds 2^(n−1): one message per source crosses a channel.
        let most = worst.min(w.saturating_mul(1 << l.n().saturating_sub(1)));
        let mut values: Vec<u64> = std::iter::once(0)
            .chain((0..l.n()).map(|k| w.saturating_mul(1 << k)))
            .filter(|&c| c >= least && c <= most)
            .collect();
        values.dedup();
        let count = vectors.len().saturating_mul(values.len());
        if count > MAX_CAP_VECTORS {
            return Err(MapError::TooManyCaps(count));
        }
        vectors = vectors
            .iter()
            .flat_map(|v| values.iter().map(move |&c| [v.as_slice(), &[c]].concat()))
            .collect();
    }
    let sum = |v: &Vec<u64>| v.iter().fold(0u64, |a, &c| a.saturating_add(c));
    vectors.sort_by_key(|v| (sum(v), v.iter().rev().copied().collect::<Vec<u64>>()));
    Ok(vectors)
}

/// The order that minimises [`Lexicographic`] (worst, then contentions, then
/// total), and its value, checked against [`evaluate`].
pub fn optimise(lccs: &[Lcc], weights: &[u64]) -> Result<(Vec<usize>, Lexicographic), MapError> {
    let n = map::common_dimension(lccs, weights)?;
    if n > MAX_MAP_DIM {
        return Err(MapError::TooLarge(n));
    }
    let (_, worst) = map::optimise(lccs, weights, Objective::Max)?;
    let vectors = cap_vectors(lccs, weights, worst)?;
    let costs = Costs::new(lccs);
    let mut found: Option<(Vec<usize>, Lexicographic)> = None;
    for caps in &vectors {
        let contentions = caps.iter().fold(0u64, |a, &c| a.saturating_add(c));
        if found
            .as_ref()
            .is_some_and(|(_, v)| v.contentions < contentions)
        {
            break;
        }
        if let Some((order, total)) = capped(&costs, weights, caps) {
            let value = Lexicographic {
                worst,
                contentions,
                total,
            };
            if found.as_ref().is_none_or(|(_, v)| value < *v) {
                found = Some((order, value));
            }
        }
    }
    // Caps of c_r = worst for every r admit the optimum of `max`.
    let (order, computed) = found.ok_or(MapError::Inconsistent {
        computed: worst,
        evaluated: u64::MAX,
    })?;
    let evaluated = evaluate(lccs, weights, &order);
    if computed != evaluated {
        return Err(MapError::InconsistentLex {
            computed,
            evaluated,
        });
    }
    Ok((order, computed))
}
