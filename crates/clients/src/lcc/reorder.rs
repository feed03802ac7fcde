//! The optimal reordering of one communication: `LCP_Optimizer` (Fig. 3,
//! Theorem 3) for a permutation, the construction of the proof of Theorem 4 for a
//! gather, and either of them mirrored for a scatter.

use super::contention::{self, Checked, ContentionError};
use super::gf2::{Matrix, low_mask};
use super::{Class, Direction, Lcc};
use thiserror::Error;

/// How the order was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `LCP_Optimizer` of Fig. 3 (A nonsingular).
    LcpOptimizer,
    /// The construction in the proof of Theorem 4 (A singular).
    Theorem4,
}

impl Method {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Method::LcpOptimizer => "lcp_optimizer",
            Method::Theorem4 => "theorem4",
        }
    }
}

/// Why no verified reordering can be given: every variant is a bug.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ReorderError {
    /// `LCP_Optimizer` found no pivot although A is nonsingular.
    #[error("LCP_Optimizer found no independent row at step {0}")]
    NoPivot(usize),
    /// The Theorem 4 construction found no dependent column where the proof says one exists.
    #[error("the Theorem 4 construction found no dependent column for dimension {0}")]
    NoDependentColumn(usize),
    /// The rank formula and the enumeration disagree on the reordered communication.
    #[error("{0}")]
    Contention(#[from] ContentionError),
    /// The reordered communication does not reach the minimum of Corollary 1 or 2.
    #[error("the reordering gives contention {reached}, above the minimum {minimum}")]
    NotMinimal {
        /// What the mapping reaches.
        reached: u64,
        /// What the corollaries promise.
        minimum: u64,
    },
}

/// An optimal reordering of one communication, checked.
#[derive(Clone, Debug)]
pub struct Reordering {
    /// How it was found.
    pub method: Method,
    /// The address-bit order R (`Q[i][R[i]] = 1`).
    pub order: Vec<usize>,
    /// The communication after the mapping: QAQ⁻¹, Qb.
    pub after: Lcc,
    /// Its contention, by the formula (and the enumeration when n ≤ 20).
    pub checked: Checked,
    /// The least contention any reordering reaches (Corollaries 1 and 2).
    pub minimum: u64,
}

/// Finds the order, applies it and checks that the result reaches the minimum.
pub fn reorder(lcc: &Lcc) -> Result<Reordering, ReorderError> {
    let (method, mut order) = match lcc.class() {
        Class::Lcp => (Method::LcpOptimizer, lcp_optimizer(&lcc.a)?),
        Class::Lcg | Class::Lcs => (Method::Theorem4, theorem4(&lcc.a)?),
    };
    // A scatter's contention vector under R is the forward one of the same A
    // under R reversed, read backwards (see `contention::by_rank`).
    if lcc.direction == Direction::Scatter {
        order.reverse();
    }
    let after = lcc.reordered(&order);
    let checked = contention::checked(&after)?;
    let minimum = contention::minimum(lcc);
    if checked.contention != minimum {
        return Err(ReorderError::NotMinimal {
            reached: checked.contention,
            minimum,
        });
    }
    Ok(Reordering {
        method,
        order,
        after,
        checked,
        minimum,
    })
}

/// `LCP_Optimizer` (Fig. 3): D starts as A, V as a copy reduced like Gaussian
/// elimination, marks R as 0. At step i a row j not yet marked with `V[j][i] = 1`
/// is independent of the marked rows in columns 0…i; when it lies below row
/// i + 1 it is exchanged with i + 1 (rows and columns, in D, V and the marks,
/// and the rows of Q); column i of V is then cleared outside row j, which is
/// marked. Afterwards rank D_{L_{i+1}, L_i} = i for every i (Theorem 3).
///
/// Returns the order R with `Q[i][R[i]] = 1`: Q starts as I and only its rows are
/// exchanged.
pub fn lcp_optimizer(a: &Matrix) -> Result<Vec<usize>, ReorderError> {
    let n = a.n();
    let mut d = a.clone();
    let mut v = a.clone();
    let mut marked = vec![false; n];
    let mut order: Vec<usize> = (0..n).collect();
    for i in 0..n.saturating_sub(1) {
        let mut j = (0..n)
            .find(|&j| v.get(j, i) && !marked[j])
            .ok_or(ReorderError::NoPivot(i))?;
        if j > i + 1 {
            d.swap_rows(i + 1, j);
            d.swap_cols(i + 1, j);
            v.swap_rows(i + 1, j);
            v.swap_cols(i + 1, j);
            marked.swap(i + 1, j);
            order.swap(i + 1, j);
            j = i + 1;
        }
        for k in 0..n {
            if k != j && v.get(k, i) {
                v.add_row(k, j);
            }
        }
        marked[j] = true;
    }
    debug_assert_eq!(d, a.reordered(&order));
    Ok(order)
}

/// The construction in the proof of Theorem 4, for singular A, rank r: first a
/// column that depends on the others is moved to the last position, so that
/// (n − 1) − rank B_{L_n, L_{n−1}} = (n − 1) − r; then for k = n − 1 down to 1,
/// when (k − 1) − rank B_{L_k, L_{k−1}} exceeds (n − 1) − r, a column j ≤ k − 2
/// that depends on the other columns of B_{L_k, L_k} is exchanged with column
/// k − 1 (the printed proof says k + 1; see docs/published-errata.md). Each
/// exchange leaves the dimensions k and above as they were.
pub fn theorem4(a: &Matrix) -> Result<Vec<usize>, ReorderError> {
    let n = a.n();
    let rank = a.rank();
    debug_assert!(rank < n, "Theorem 4 is for singular matrices");
    let bound = (n - 1).saturating_sub(rank);
    let full = low_mask(n);
    let mut m = a.clone();
    let mut order: Vec<usize> = (0..n).collect();
    let exchange = |m: &mut Matrix, order: &mut Vec<usize>, i: usize, j: usize| {
        m.swap_rows(i, j);
        m.swap_cols(i, j);
        order.swap(i, j);
    };
    let dependent = (0..n)
        .find(|&j| m.sub_rank(full, full & !(1 << j)) == rank)
        .ok_or(ReorderError::NoDependentColumn(n - 1))?;
    exchange(&mut m, &mut order, dependent, n - 1);
    for k in (1..n).rev() {
        let excess = (k - 1) - m.sub_rank(low_mask(k), low_mask(k - 1));
        if excess <= bound {
            continue;
        }
        let square = m.sub_rank(low_mask(k), low_mask(k));
        let j = (0..k - 1)
            .find(|&j| m.sub_rank(low_mask(k), low_mask(k) & !(1 << j)) == square)
            .ok_or(ReorderError::NoDependentColumn(k - 1))?;
        exchange(&mut m, &mut order, j, k - 1);
    }
    Ok(order)
}
