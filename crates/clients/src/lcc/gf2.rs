//! Square binary matrices over GF(2), one `u64` per row (bit j of row i is
//! a_{i,j}), so that row operations are single XORs and a rank is a short
//! elimination. Address bits, and therefore dimensions, are at most 64.

use std::fmt;

/// The largest dimension a matrix (and a hypercube address) can have.
pub const MAX_DIM: usize = 64;

/// An n × n matrix over GF(2), n ≤ 64.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Matrix {
    n: usize,
    rows: Vec<u64>,
}

/// The mask of the columns (or bits) 0 … k−1.
pub fn low_mask(k: usize) -> u64 {
    if k >= 64 { u64::MAX } else { (1u64 << k) - 1 }
}

/// The rank over GF(2) of the rows given, each restricted to `cols`.
///
/// Gaussian elimination on at most 64 words: each pivot is the lowest set bit of
/// a remaining row, which is cleared from every later row.
pub fn rank_of(rows: impl IntoIterator<Item = u64>, cols: u64) -> usize {
    let mut basis: [u64; 64] = [0; 64];
    let mut rank = 0;
    for row in rows {
        let mut r = row & cols;
        // Reduce by the basis kept in echelon form (distinct lowest bits).
        for &b in &basis[..rank] {
            if r & (b & b.wrapping_neg()) != 0 {
                r ^= b;
            }
        }
        if r != 0 {
            basis[rank] = r;
            rank += 1;
            if rank == 64 {
                break;
            }
        }
    }
    rank
}

impl Matrix {
    /// The zero matrix of size n (n ≤ 64).
    pub fn zero(n: usize) -> Matrix {
        assert!(n <= MAX_DIM, "matrix size {n} > {MAX_DIM}");
        Matrix {
            n,
            rows: vec![0; n],
        }
    }

    /// The identity matrix of size n.
    pub fn identity(n: usize) -> Matrix {
        let mut m = Matrix::zero(n);
        for i in 0..n {
            m.rows[i] = 1 << i;
        }
        m
    }

    /// A matrix from its rows (bit j of `rows[i]` is a_{i,j}); bits at or above
    /// n are cleared.
    pub fn from_rows(rows: Vec<u64>) -> Matrix {
        let n = rows.len();
        assert!(n <= MAX_DIM, "matrix size {n} > {MAX_DIM}");
        let mask = low_mask(n);
        Matrix {
            n,
            rows: rows.into_iter().map(|r| r & mask).collect(),
        }
    }

    /// The permutation matrix Q of an address-bit order R: `Q[i][R[i]] = 1`, so
    /// that x' = Qx has `x'_i = x_{R[i]}` (the convention of section 5).
    pub fn permutation(order: &[usize]) -> Matrix {
        Matrix::from_rows(order.iter().map(|&r| 1u64 << r).collect())
    }

    /// The size n.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Row i as a bit set of columns.
    pub fn row(&self, i: usize) -> u64 {
        self.rows[i]
    }

    /// The rows.
    pub fn rows(&self) -> &[u64] {
        &self.rows
    }

    /// Entry a_{i,j}.
    pub fn get(&self, i: usize, j: usize) -> bool {
        self.rows[i] >> j & 1 == 1
    }

    /// Sets entry a_{i,j}.
    pub fn set(&mut self, i: usize, j: usize, value: bool) {
        if value {
            self.rows[i] |= 1 << j;
        } else {
            self.rows[i] &= !(1 << j);
        }
    }

    /// The rank over GF(2).
    pub fn rank(&self) -> usize {
        rank_of(self.rows.iter().copied(), low_mask(self.n))
    }

    /// The rank of the submatrix A_{R,C}: rows in the bit set `rows`, columns in
    /// the bit set `cols` (Definition 5).
    pub fn sub_rank(&self, rows: u64, cols: u64) -> usize {
        rank_of(
            (0..self.n)
                .filter(|&i| rows >> i & 1 == 1)
                .map(|i| self.rows[i]),
            cols,
        )
    }

    /// Ax over GF(2), x and the result packed as bit sets.
    pub fn apply(&self, x: u64) -> u64 {
        let mut y = 0;
        for (i, &r) in self.rows.iter().enumerate() {
            y |= u64::from((r & x).count_ones() & 1) << i;
        }
        y
    }

    /// The product self · other.
    pub fn mul(&self, other: &Matrix) -> Matrix {
        assert_eq!(self.n, other.n);
        let mut out = Matrix::zero(self.n);
        for i in 0..self.n {
            let mut acc = 0;
            for k in 0..self.n {
                if self.get(i, k) {
                    acc ^= other.rows[k];
                }
            }
            out.rows[i] = acc;
        }
        out
    }

    /// The transpose (the inverse of a permutation matrix).
    pub fn transpose(&self) -> Matrix {
        let mut t = Matrix::zero(self.n);
        for i in 0..self.n {
            for j in 0..self.n {
                if self.get(i, j) {
                    t.rows[j] |= 1 << i;
                }
            }
        }
        t
    }

    /// D = QAQ⁻¹ for the reordering with address-bit order R: `D[i][j] =
    /// A[R[i]][R[j]]` (Theorem 2 with `Q[i][R[i]] = 1`; checked against the
    /// product in the tests).
    pub fn reordered(&self, order: &[usize]) -> Matrix {
        assert_eq!(order.len(), self.n);
        Matrix {
            n: self.n,
            rows: order
                .iter()
                .map(|&r| permute_bits(self.rows[r], order))
                .collect(),
        }
    }

    /// Exchanges rows i and j.
    pub fn swap_rows(&mut self, i: usize, j: usize) {
        self.rows.swap(i, j);
    }

    /// Exchanges columns i and j.
    pub fn swap_cols(&mut self, i: usize, j: usize) {
        for r in &mut self.rows {
            let (bi, bj) = (*r >> i & 1, *r >> j & 1);
            if bi != bj {
                *r ^= (1 << i) | (1 << j);
            }
        }
    }

    /// Row i ← row i + row j.
    pub fn add_row(&mut self, i: usize, j: usize) {
        self.rows[i] ^= self.rows[j];
    }

    /// The rows as lists of 0/1 entries, for reports.
    pub fn to_lists(&self) -> Vec<Vec<u8>> {
        (0..self.n)
            .map(|i| (0..self.n).map(|j| u8::from(self.get(i, j))).collect())
            .collect()
    }
}

/// Permutes the bits of a vector: `v'_i = v_{R[i]}` (that is, Qv).
pub fn permute_bits(v: u64, order: &[usize]) -> u64 {
    order
        .iter()
        .enumerate()
        .fold(0, |acc, (i, &r)| acc | (v >> r & 1) << i)
}

impl fmt::Debug for Matrix {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for i in 0..self.n {
            let line: String = (0..self.n)
                .map(|j| if self.get(i, j) { '1' } else { '0' })
                .collect();
            writeln!(f, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rank by plain elimination on a dense 0/1 array, for comparison.
    fn dense_rank(rows: &[Vec<u8>]) -> usize {
        let mut m: Vec<Vec<u8>> = rows.to_vec();
        let cols = m.first().map_or(0, Vec::len);
        let mut rank = 0;
        for c in 0..cols {
            let Some(p) = (rank..m.len()).find(|&r| m[r][c] == 1) else {
                continue;
            };
            m.swap(rank, p);
            for r in 0..m.len() {
                if r != rank && m[r][c] == 1 {
                    let pivot = m[rank].clone();
                    for (x, y) in m[r].iter_mut().zip(pivot) {
                        *x ^= y;
                    }
                }
            }
            rank += 1;
        }
        rank
    }

    #[test]
    fn rank_agrees_with_dense_elimination() {
        let mut state = 0x1234_5678_u64;
        for n in 1..=12 {
            for _ in 0..50 {
                let rows: Vec<u64> = (0..n)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        state >> 20
                    })
                    .collect();
                let m = Matrix::from_rows(rows);
                assert_eq!(m.rank(), dense_rank(&m.to_lists()), "{m:?}");
            }
        }
    }

    #[test]
    fn reordering_is_q_a_q_inverse() {
        let a = Matrix::from_rows(vec![0b0110, 0b1001, 0b0011, 0b1100]);
        let order = [2, 0, 3, 1];
        let q = Matrix::permutation(&order);
        let direct = q.mul(&a).mul(&q.transpose());
        assert_eq!(a.reordered(&order), direct);
        assert_eq!(q.mul(&q.transpose()), Matrix::identity(4));
        let v = 0b0101;
        assert_eq!(permute_bits(v, &order), q.apply(v));
    }
}
