//! Channel contention of an LCC under e-cube routing, twice: by the rank formula
//! of Theorem 1 and by walking every e-cube path and counting per channel.

use super::gf2::low_mask;
use super::{Class, Direction, Lcc};
use thiserror::Error;

/// The largest n for which every path is enumerated (n · 2^n channel counters).
pub const MAX_ENUMERATION_DIM: usize = 20;

/// Why a contention cannot be computed.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum ContentionError {
    /// The enumeration would need too many counters.
    #[error("enumerating every path needs n ≤ {MAX_ENUMERATION_DIM} (n = {0})")]
    TooLarge(usize),
    /// The rank formula and the enumeration disagree: a bug of one of them.
    #[error(
        "the rank formula gives {by_rank:?} but counting the e-cube paths gives {by_enumeration:?}"
    )]
    Disagreement {
        /// T_i by Theorem 1.
        by_rank: Vec<u64>,
        /// T_i by counting.
        by_enumeration: Vec<u64>,
    },
}

/// A per-dimension contention computed by the formula and, when n is small
/// enough, confirmed by the enumeration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// T_i, dimension 0 first.
    pub per_dimension: Vec<u64>,
    /// T(A, b).
    pub contention: u64,
    /// Whether every path was enumerated and agreed (n ≤ 20).
    pub enumerated: bool,
}

/// T_i by the rank formula, compared with the enumeration when n ≤ 20.
pub fn checked(lcc: &Lcc) -> Result<Checked, ContentionError> {
    let per_dimension = by_rank(lcc);
    let enumerated = match by_enumeration(lcc) {
        Ok(e) => {
            let counted = e.per_dimension();
            if counted != per_dimension {
                return Err(ContentionError::Disagreement {
                    by_rank: per_dimension,
                    by_enumeration: counted,
                });
            }
            true
        }
        Err(ContentionError::TooLarge(_)) => false,
        Err(e) => return Err(e),
    };
    Ok(Checked {
        contention: degree(&per_dimension),
        per_dimension,
        enumerated,
    })
}

/// T_i for every dimension by Theorem 1: 0 when no message crosses dimension i,
/// else 2^(i − rank A_{L_{i+1}, L_i}), L_k = {0, …, k−1}.
///
/// For a scatter x = Ay ⊕ b the unknowns of a channel at dimension i are the
/// destination bits above i, not the source bits below it, so the index sets are
/// mirrored: 2^((n−1−i) − rank A_{{i…n−1}, {i+1…n−1}}).
pub fn by_rank(lcc: &Lcc) -> Vec<u64> {
    let n = lcc.n();
    (0..n)
        .map(|i| {
            if lcc.fixed(i) {
                return 0;
            }
            let exponent = match lcc.direction {
                Direction::Forward => i - lcc.a.sub_rank(low_mask(i + 1), low_mask(i)),
                Direction::Scatter => {
                    let rows = low_mask(n) & !low_mask(i);
                    let cols = low_mask(n) & !low_mask(i + 1);
                    (n - 1 - i) - lcc.a.sub_rank(rows, cols)
                }
            };
            1u64 << exponent
        })
        .collect()
}

/// The contention at the position of address bit `last` when the bits of
/// `prefix` (which holds `last`) are the first ones of the order, `last` the
/// latest of them: the cost the dynamic programme of section 5 adds.
///
/// With the identity order, position i (prefix L_{i+1}, last i) gives
/// [`by_rank`]'s T_i; the rank of a submatrix does not depend on the order of
/// its rows and columns, which is what makes the programme work (Theorem 5).
pub fn at_position(lcc: &Lcc, prefix: u64, last: usize) -> u64 {
    if lcc.fixed(last) {
        return 0;
    }
    let n = lcc.n();
    let earlier = prefix & !(1 << last);
    let exponent = match lcc.direction {
        Direction::Forward => earlier.count_ones() as usize - lcc.a.sub_rank(prefix, earlier),
        Direction::Scatter => {
            let full = low_mask(n);
            (n - prefix.count_ones() as usize) - lcc.a.sub_rank(full & !earlier, full & !prefix)
        }
    };
    1u64 << exponent
}

/// The largest entry: T(A, b) (Definition 6).
pub fn degree(per_dimension: &[u64]) -> u64 {
    per_dimension.iter().copied().max().unwrap_or(0)
}

/// The least contention any reordering can reach (Corollaries 1 and 2): 0 when
/// no message crosses any dimension, 1 for a permutation, 2^((n−1) − rank A)
/// for a gather or a scatter.
pub fn minimum(lcc: &Lcc) -> u64 {
    let n = lcc.n();
    if (0..n).all(|i| lcc.fixed(i)) {
        return 0;
    }
    match lcc.class() {
        Class::Lcp => 1,
        Class::Lcg | Class::Lcs => 1u64 << (n - 1 - lcc.a.rank()),
    }
}

/// Every e-cube path of every message, counted per channel.
#[derive(Clone, Debug)]
pub struct Enumeration {
    n: usize,
    /// counts[d · 2^n + u]: paths over the channel from node u across dimension d.
    counts: Vec<u32>,
    /// Messages whose source is not their destination.
    pub paths: u64,
}

impl Enumeration {
    /// Paths using the channel from node `u` across dimension `d`.
    pub fn count(&self, u: u64, d: usize) -> u32 {
        self.counts[(d << self.n) + u as usize]
    }

    /// The largest count of each dimension, dimension 0 first.
    pub fn per_dimension(&self) -> Vec<u64> {
        self.counts
            .chunks(1 << self.n)
            .map(|c| u64::from(c.iter().copied().max().unwrap_or(0)))
            .collect()
    }

    /// A channel of dimension d with the largest count (its source node).
    pub fn busiest(&self, d: usize) -> u64 {
        let chunk = &self.counts[d << self.n..(d + 1) << self.n];
        let best = chunk.iter().copied().max().unwrap_or(0);
        chunk.iter().position(|&c| c == best).unwrap_or(0) as u64
    }
}

/// Walks the e-cube path of every message hop by hop (dimension 0 first) and
/// counts the paths on every channel.
pub fn by_enumeration(lcc: &Lcc) -> Result<Enumeration, ContentionError> {
    let n = lcc.n();
    if n > MAX_ENUMERATION_DIM {
        return Err(ContentionError::TooLarge(n));
    }
    let nodes = 1u64 << n;
    let mut counts = vec![0u32; n << n];
    let mut paths = 0;
    for v in 0..nodes {
        let (source, destination) = lcc.message(v);
        if source == destination {
            continue;
        }
        paths += 1;
        let mut at = source;
        for d in 0..n {
            if (at ^ destination) >> d & 1 == 1 {
                counts[(d << n) + at as usize] += 1;
                at ^= 1 << d;
            }
        }
        debug_assert_eq!(at, destination);
    }
    Ok(Enumeration { n, counts, paths })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lcc::Matrix;

    #[test]
    fn at_position_with_the_identity_order_is_theorem_1() {
        let a = Matrix::from_rows(vec![0b0110, 0b0001, 0b1000, 0b0101]);
        for direction in [Direction::Forward, Direction::Scatter] {
            let lcc = Lcc {
                a: a.clone(),
                b: 0b0100,
                direction,
            };
            let by_position: Vec<u64> = (0..4)
                .map(|i| at_position(&lcc, low_mask(i + 1), i))
                .collect();
            assert_eq!(by_position, by_rank(&lcc));
            assert_eq!(by_rank(&lcc), by_enumeration(&lcc).unwrap().per_dimension());
        }
    }
}
