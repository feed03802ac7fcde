//! One reordering for several communications: the dynamic programme of section
//! 5 over the subsets of address bits (Theorem 5), and a brute force over all
//! n! orders to check it on small n.
//!
//! The contention at position k of an order depends only on the set of the
//! first k + 1 bits and on which of them comes last ([`at_position`]). So the
//! best order of a set S ends with some j ∈ S after a best order of S − {j},
//! and n · 2^(n−1) (set, last bit) pairs are enough.

use super::contention::{at_position, by_rank};
use super::gf2::low_mask;
use super::{Lcc, is_permutation};
use thiserror::Error;

/// The largest n the programme takes (a table of 2^n values).
pub const MAX_MAP_DIM: usize = 20;

/// What a mapping minimises, with per-communication weights w_r (1 by default).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Objective {
    /// max_r w_r · T(A_r, b_r): communications run at different times (the
    /// paper's main objective).
    Max,
    /// Σ_i Σ_r w_r · T_i(A_r, b_r): the total over dimensions and communications.
    Sum,
    /// max_i Σ_r w_r · T_i(A_r, b_r): communications run at the same time.
    Simultaneous,
}

impl Objective {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Objective::Max => "max",
            Objective::Sum => "sum",
            Objective::Simultaneous => "simultaneous",
        }
    }

    /// The cost of one position from the communications' contentions there.
    fn position(self, weights: &[u64], t: impl Iterator<Item = u64>) -> u64 {
        let weighted = t.zip(weights).map(|(t, &w)| t.saturating_mul(w));
        match self {
            Objective::Max => weighted.max().unwrap_or(0),
            Objective::Sum | Objective::Simultaneous => {
                weighted.fold(0, |acc: u64, x| acc.saturating_add(x))
            }
        }
    }

    /// Adds the cost of one more position to the cost of the earlier ones.
    fn extend(self, earlier: u64, here: u64) -> u64 {
        match self {
            Objective::Max | Objective::Simultaneous => earlier.max(here),
            Objective::Sum => earlier.saturating_add(here),
        }
    }
}

/// Why no mapping is computed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum MapError {
    /// No communication.
    #[error("no communication given")]
    Empty,
    /// Communications on hypercubes of different dimensions.
    #[error("communication {index} has n = {found}, the first has n = {expected}")]
    Dimensions {
        /// Its position in the list (0-based).
        index: usize,
        /// n of the first.
        expected: usize,
        /// Its n.
        found: usize,
    },
    /// n above [`MAX_MAP_DIM`].
    #[error("the dynamic programme takes n ≤ {MAX_MAP_DIM} (n = {0})")]
    TooLarge(usize),
    /// Not one weight per communication.
    #[error("{weights} weights for {communications} communications")]
    Weights {
        /// Weights given.
        weights: usize,
        /// Communications given.
        communications: usize,
    },
    /// The order found does not give the value the programme computed: a bug.
    #[error("the order found gives {evaluated}, the programme computed {computed}")]
    Inconsistent {
        /// The programme's value.
        computed: u64,
        /// The value of its order, evaluated from the reordered matrices.
        evaluated: u64,
    },
    /// `lex` would try more vectors of per-communication caps than it takes.
    #[error(
        "objective lex: {0} combinations of per-communication contentions to try \
         (at most {max}); use --objective max or sum",
        max = MAX_CAP_VECTORS
    )]
    TooManyCaps(usize),
    /// The lexicographic programmes' value differs from their order's: a bug.
    #[error("the order found gives {evaluated:?}, the programmes computed {computed:?}")]
    InconsistentLex {
        /// The programmes' value.
        computed: Lexicographic,
        /// The value of their order, evaluated from the reordered matrices.
        evaluated: Lexicographic,
    },
}

/// The most vectors of per-communication caps `lex` tries.
pub const MAX_CAP_VECTORS: usize = 4096;

/// The value of the lexicographic objective; `Ord` compares the fields in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lexicographic {
    /// max_r w_r · T(A_r, b_r): the value of [`Objective::Max`].
    pub worst: u64,
    /// Σ_r w_r · T(A_r, b_r): the communications' weighted contentions added.
    pub contentions: u64,
    /// Σ_i Σ_r w_r · T_i(A_r, b_r): the value of [`Objective::Sum`].
    pub total: u64,
}

/// The dimension shared by all the communications.
pub(super) fn common_dimension(lccs: &[Lcc], weights: &[u64]) -> Result<usize, MapError> {
    let first = lccs.first().ok_or(MapError::Empty)?;
    if weights.len() != lccs.len() {
        return Err(MapError::Weights {
            weights: weights.len(),
            communications: lccs.len(),
        });
    }
    for (index, l) in lccs.iter().enumerate() {
        if l.n() != first.n() {
            return Err(MapError::Dimensions {
                index,
                expected: first.n(),
                found: l.n(),
            });
        }
    }
    Ok(first.n())
}

/// The value of the objective for an order, from the reordered matrices
/// (QA_rQ⁻¹, Qb_r) and Theorem 1: nothing of the programme is used.
pub fn evaluate(lccs: &[Lcc], weights: &[u64], objective: Objective, order: &[usize]) -> u64 {
    debug_assert!(lccs.iter().all(|l| is_permutation(order, l.n())));
    let vectors: Vec<Vec<u64>> = lccs.iter().map(|l| by_rank(&l.reordered(order))).collect();
    let n = order.len();
    (0..n).fold(0, |acc, i| {
        let here = objective.position(weights, vectors.iter().map(|v| v[i]));
        objective.extend(acc, here)
    })
}

/// The best order and its value, by the dynamic programme; ties go to the
/// smallest last bit. The value is checked against [`evaluate`].
pub fn optimise(
    lccs: &[Lcc],
    weights: &[u64],
    objective: Objective,
) -> Result<(Vec<usize>, u64), MapError> {
    let n = common_dimension(lccs, weights)?;
    if n > MAX_MAP_DIM {
        return Err(MapError::TooLarge(n));
    }
    let mut best = vec![u64::MAX; 1 << n];
    let mut last = vec![0u8; 1 << n];
    best[0] = 0;
    // A set's subsets are smaller numbers, so increasing order is a valid order.
    for set in 1u64..1 << n {
        let (mut value, mut choice) = (u64::MAX, 0);
        let mut rest = set;
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let here = objective.position(weights, lccs.iter().map(|l| at_position(l, set, j)));
            let total = objective.extend(best[(set ^ 1 << j) as usize], here);
            if total < value {
                (value, choice) = (total, j);
            }
        }
        best[set as usize] = value;
        last[set as usize] = choice as u8;
    }
    let mut order = vec![0; n];
    let mut set = low_mask(n);
    for slot in order.iter_mut().rev() {
        let j = usize::from(last[set as usize]);
        *slot = j;
        set ^= 1 << j;
    }
    let computed = best[low_mask(n) as usize];
    let evaluated = evaluate(lccs, weights, objective, &order);
    if computed != evaluated {
        return Err(MapError::Inconsistent {
            computed,
            evaluated,
        });
    }
    Ok((order, computed))
}

/// The best value over all n! orders (Heap's algorithm), with a first order
/// reaching it. For tests: n ≤ 8 takes 40 320 evaluations.
pub fn brute_force(
    lccs: &[Lcc],
    weights: &[u64],
    objective: Objective,
) -> Result<(Vec<usize>, u64), MapError> {
    let n = common_dimension(lccs, weights)?;
    let mut order: Vec<usize> = (0..n).collect();
    let mut best = (order.clone(), evaluate(lccs, weights, objective, &order));
    let mut counters = vec![0; n];
    let mut i = 1;
    while i < n {
        if counters[i] < i {
            let k = if i % 2 == 0 { 0 } else { counters[i] };
            order.swap(k, i);
            let value = evaluate(lccs, weights, objective, &order);
            if value < best.1 {
                best = (order.clone(), value);
            }
            counters[i] += 1;
            i = 1;
        } else {
            counters[i] = 0;
            i += 1;
        }
    }
    Ok(best)
}
