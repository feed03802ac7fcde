//! Abelianisation by Smith normal form: an independent check on coset enumeration.
//!
//! The abelianisation `G/[G,G]` of `<X | R>` is `Z^X` modulo the rows of the
//! relation matrix (one row per relator, one column per generator, entries the
//! exponent sums). Its Smith normal form gives the invariant factors and the
//! free rank. This shares no code with the enumerator, which is why it is worth
//! having: a free rank above zero proves the group infinite before any work is
//! done, and the order of the abelianisation must divide the enumerated order
//! (and equal it when the group is abelian).
//!
//! Arithmetic is in `i128` with every operation checked; if an entry would
//! overflow the computation gives up and reports `None` (check skipped), rather
//! than produce a wrong answer.

use super::Presentation;

/// The abelianisation `Z^free_rank × Z_{d1} × ... × Z_{dk}` of a presentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abelianisation {
    /// Invariant factors greater than 1, each dividing the next.
    pub invariants: Vec<u128>,
    /// Rank of the free abelian part; above zero means the group is infinite.
    pub free_rank: usize,
}

impl Abelianisation {
    /// The order of the abelianisation: `None` when it is infinite or does not
    /// fit in a `u128`.
    pub fn order(&self) -> Option<u128> {
        if self.free_rank > 0 {
            return None;
        }
        self.invariants
            .iter()
            .try_fold(1u128, |acc, &d| acc.checked_mul(d))
    }
}

/// The relation matrix of a presentation: `m[r][g]` is the exponent sum of
/// generator `g` in relator `r`.
///
/// # Panics
/// If a relator names a generator the presentation does not have (see
/// [`Presentation::check_letters`]).
pub fn relation_matrix(p: &Presentation) -> Vec<Vec<i128>> {
    p.relators
        .iter()
        .map(|r| {
            let mut row = vec![0i128; p.generators.len()];
            for l in r {
                row[l.generator as usize] += if l.inverse { -1 } else { 1 };
            }
            row
        })
        .collect()
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// `row_dst -= q · row_src`, checked.
fn sub_row(m: &mut [Vec<i128>], dst: usize, src: usize, q: i128) -> Option<()> {
    for j in 0..m[src].len() {
        let v = m[src][j].checked_mul(q)?;
        m[dst][j] = m[dst][j].checked_sub(v)?;
    }
    Some(())
}

/// `col_dst -= q · col_src`, checked.
fn sub_col(m: &mut [Vec<i128>], dst: usize, src: usize, q: i128) -> Option<()> {
    for row in m.iter_mut() {
        let v = row[src].checked_mul(q)?;
        row[dst] = row[dst].checked_sub(v)?;
    }
    Some(())
}

/// The non-zero diagonal of a Smith normal form of `m` (`cols` columns), as
/// invariant factors (each dividing the next, 1s included; zeros, which count
/// towards the free rank, left out), or `None` on overflow.
pub fn smith_diagonal(mut m: Vec<Vec<i128>>, cols: usize) -> Option<Vec<u128>> {
    let rows = m.len();
    let mut diag: Vec<u128> = Vec::new();
    let mut t = 0;
    while t < rows.min(cols) {
        // Pivot: the non-zero entry of least absolute value in the lower-right block.
        let mut best: Option<(usize, usize)> = None;
        for (i, row) in m.iter().enumerate().skip(t) {
            for (j, &v) in row.iter().enumerate().skip(t) {
                if v != 0 && best.is_none_or(|(bi, bj)| v.unsigned_abs() < m[bi][bj].unsigned_abs())
                {
                    best = Some((i, j));
                }
            }
        }
        let Some((pi, pj)) = best else { break };
        m.swap(t, pi);
        for row in m.iter_mut() {
            row.swap(t, pj);
        }
        loop {
            let p = m[t][t];
            for i in t + 1..rows {
                let q = m[i][t] / p;
                if q != 0 {
                    sub_row(&mut m, i, t, q)?;
                }
            }
            for j in t + 1..cols {
                let q = m[t][j] / p;
                if q != 0 {
                    sub_col(&mut m, j, t, q)?;
                }
            }
            // Remainders left in the pivot's row or column become the new pivot.
            let in_col = (t + 1..rows).find(|&i| m[i][t] != 0);
            let in_row = (t + 1..cols).find(|&j| m[t][j] != 0);
            match (in_col, in_row) {
                (Some(i), _) => m.swap(t, i),
                (None, Some(j)) => {
                    for row in m.iter_mut() {
                        row.swap(t, j);
                    }
                }
                (None, None) => break,
            }
        }
        diag.push(m[t][t].unsigned_abs());
        t += 1;
    }
    // A diagonal form becomes the Smith form by replacing pairs (a, b) with
    // (gcd, lcm): the quotient group is the same.
    for i in 0..diag.len() {
        for j in i + 1..diag.len() {
            let g = gcd(diag[i], diag[j]);
            let l = (diag[i] / g).checked_mul(diag[j])?;
            diag[i] = g;
            diag[j] = l;
        }
    }
    Some(diag)
}

/// The abelianisation of `p`, or `None` when the integer arithmetic would
/// overflow (the check is then skipped, never guessed) or a relator names an
/// unknown generator.
pub fn abelianise(p: &Presentation) -> Option<Abelianisation> {
    p.check_letters().ok()?;
    let cols = p.generators.len();
    let diag = smith_diagonal(relation_matrix(p), cols)?;
    let rank = diag.len();
    Some(Abelianisation {
        invariants: diag.into_iter().filter(|&d| d > 1).collect(),
        free_rank: cols - rank,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snf(rows: &[&[i128]]) -> Vec<u128> {
        let cols = rows.first().map_or(0, |r| r.len());
        smith_diagonal(rows.iter().map(|r| r.to_vec()).collect(), cols).unwrap()
    }

    #[test]
    fn smith_normal_form_of_small_matrices() {
        assert_eq!(snf(&[&[2, 0], &[0, 3]]), vec![1, 6]);
        assert_eq!(snf(&[&[4, 0], &[0, 6]]), vec![2, 12]);
        assert_eq!(
            snf(&[&[2, 4, 4], &[-6, 6, 12], &[10, -4, -16]]),
            vec![2, 6, 12]
        );
        assert_eq!(snf(&[&[0, 0], &[0, 0]]), Vec::<u128>::new());
        assert_eq!(snf(&[&[6, 4]]), vec![2]);
        assert_eq!(snf(&[&[5]]), vec![5]);
    }

    #[test]
    fn overflow_is_reported_not_wrapped() {
        let big = i128::MAX / 2 + 7;
        let r = smith_diagonal(vec![vec![big, big - 1], vec![big - 3, big]], 2);
        // Either a correct answer or None; a wrapped result would differ.
        if let Some(d) = r {
            assert_eq!(d.len(), 2);
        }
    }
}
