//! Linear-complement communication (LCC) on wormhole-routed hypercubes, after
//! Hou, Wang, Ku and Hsu, *Optimal processor mapping for linear-complement
//! communication on hypercubes* (IEEE TPDS).
//!
//! Node x of the n-cube has address bits x_0 … x_{n−1} (x = Σ x_i 2^i); e-cube
//! routing corrects dimension 0 first. A communication y = Ax ⊕ b sends one
//! message from every node x to y (a permutation when A is nonsingular, a
//! gather otherwise); a scatter x = Ay ⊕ b delivers one message to every node y
//! from x. The channel contention of a dimension is the largest number of e-cube
//! paths that use one channel of that dimension.
//!
//! What is claimed is computed twice, independently: the rank formula of
//! Theorem 1 ([`contention::by_rank`]) and the count over every e-cube path
//! ([`contention::by_enumeration`]). A reordering of address bits (a permutation
//! matrix Q, giving QAQ⁻¹ and Qb) is found by `LCP_Optimizer` or the
//! construction of Theorem 4 ([`reorder`]), for several communications by the
//! dynamic programme of section 5 ([`map`]), and its effect on latency is
//! measured by a flit-level simulation ([`wormhole`]).

pub mod contention;
pub mod gf2;
pub mod lex;
pub mod map;
pub mod plot;
pub mod reorder;
pub mod report;
pub mod saturation;
pub mod spec;
pub mod wormhole;

pub use gf2::Matrix;

/// Which way the messages of a communication go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// y = Ax ⊕ b: every node x sends one message, to y (LCP or LCG).
    Forward,
    /// x = Ay ⊕ b: every node y receives one message, from x (LCS, Definition 4).
    Scatter,
}

/// The class of a communication (Definitions 2–4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A nonsingular: a permutation of the nodes.
    Lcp,
    /// A singular, y = Ax ⊕ b: several sources per destination.
    Lcg,
    /// A singular, x = Ay ⊕ b: several destinations per source.
    Lcs,
}

impl Class {
    /// The paper's abbreviation.
    pub fn name(self) -> &'static str {
        match self {
            Class::Lcp => "LCP",
            Class::Lcg => "LCG",
            Class::Lcs => "LCS",
        }
    }
}

/// One linear-complement communication on the n-cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lcc {
    /// The binary matrix A (row i gives bit i of the image).
    pub a: Matrix,
    /// The complement vector b, bit i = b_i.
    pub b: u64,
    /// Forward (y = Ax ⊕ b) or scatter (x = Ay ⊕ b).
    pub direction: Direction,
}

impl Lcc {
    /// The dimension n.
    pub fn n(&self) -> usize {
        self.a.n()
    }

    /// LCP, LCG or LCS.
    pub fn class(&self) -> Class {
        if self.a.rank() == self.n() {
            Class::Lcp
        } else if self.direction == Direction::Scatter {
            Class::Lcs
        } else {
            Class::Lcg
        }
    }

    /// Ax ⊕ b.
    pub fn image(&self, v: u64) -> u64 {
        self.a.apply(v) ^ self.b
    }

    /// The (source, destination) pair of the message of node `v`: v is the
    /// source of a forward communication and the destination of a scatter.
    pub fn message(&self, v: u64) -> (u64, u64) {
        match self.direction {
            Direction::Forward => (v, self.image(v)),
            Direction::Scatter => (self.image(v), v),
        }
    }

    /// Whether no message crosses dimension i: row i of A is the unit row e_i
    /// and b_i = 0, so that the i-th bit never changes.
    pub fn fixed(&self, i: usize) -> bool {
        self.a.row(i) == 1 << i && self.b >> i & 1 == 0
    }

    /// The communication after the reordering with address-bit order R
    /// (Theorem 2): QAQ⁻¹ and Qb, with `Q[i][R[i]] = 1`.
    pub fn reordered(&self, order: &[usize]) -> Lcc {
        Lcc {
            a: self.a.reordered(order),
            b: gf2::permute_bits(self.b, order),
            direction: self.direction,
        }
    }
}

/// Whether `order` is a permutation of 0 … n−1.
pub fn is_permutation(order: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    order.len() == n
        && order
            .iter()
            .all(|&r| r < n && !std::mem::replace(&mut seen[r], true))
}
