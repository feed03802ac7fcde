//! The cut bound, written once: for any set A of nodes, the |A|·|V∖A|
//! messages of a total exchange from A to the rest each leave A at least once,
//! over the c(A) directed links from A to V∖A, each carrying one message a
//! step; so no schedule takes fewer than ⌈|A|·|V∖A| / c(A)⌉ steps. It holds
//! under every port model (fewer ports only slow the crossing) and every
//! buffering and routing (the module note of [`crate::bounds`]).
//!
//! Links come in inverse pairs, so c(A) is also the number of edges joining A
//! to the rest. The bound is as strong as the cut tried: every cut of a small
//! graph ([`best_bisection`](super::cut_search::best_bisection), by [`super::cut_search`]'s one enumeration), the halving of one dimension of a product
//! ([`product_cut`], [`torus_cut`]), or, on larger graphs, the splits between
//! two neighbours ([`neighbour_split`]).

use crate::network::Graph;

/// A fraction `numerator / denominator` kept exact (the bounds are compared
/// with times, and whether a time *equals* a bound is what optimality means).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ratio {
    /// Numerator.
    pub numerator: u64,
    /// Denominator (≥ 1).
    pub denominator: u64,
}

impl Ratio {
    /// The smallest whole number of steps at least the ratio.
    pub fn ceil(self) -> u64 {
        self.numerator.div_ceil(self.denominator.max(1))
    }

    /// Whether `self > other`.
    pub fn exceeds(self, other: Ratio) -> bool {
        u128::from(self.numerator) * u128::from(other.denominator)
            > u128::from(other.numerator) * u128::from(self.denominator)
    }

    /// The value as a float, for reports.
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

/// One cut and its bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// |A|·|V∖A| / c(A), exact.
    pub ratio: Ratio,
    /// |A| (the side containing node 0 for [`best_bisection`](super::cut_search::best_bisection), the smaller
    /// side for a dimension's halving).
    pub side: u64,
    /// |V∖A|.
    pub other_side: u64,
    /// c(A): the directed links from A to V∖A (as many as the edges between
    /// the sides).
    pub edges: u64,
    /// The dimension (1-based) whose halving this is, or `None` for a cut of
    /// the whole graph.
    pub dimension: Option<usize>,
}

impl Cut {
    /// The cut with sides of `side` and `other_side` nodes joined by `edges`
    /// edges; `None` when a side is empty or no edge crosses.
    pub fn new(side: u64, other_side: u64, edges: u64, dimension: Option<usize>) -> Option<Cut> {
        (side > 0 && other_side > 0 && edges > 0).then_some(Cut {
            ratio: Ratio {
                numerator: side * other_side,
                denominator: edges,
            },
            side,
            other_side,
            edges,
            dimension,
        })
    }

    /// The bound in steps: ⌈|A|·|V∖A| / c(A)⌉.
    pub fn steps(&self) -> u64 {
        self.ratio.ceil()
    }
}

/// The stronger of two cuts (the first on a tie).
fn better(best: Option<Cut>, cut: Option<Cut>) -> Option<Cut> {
    match (best, cut) {
        (Some(b), Some(c)) if c.ratio.exceeds(b.ratio) => Some(c),
        (None, c) => c,
        (b, _) => b,
    }
}

/// The best cut that halves one dimension of a product of graphs, from each
/// factor's `(nodes, best cut)`: A = (the factor's side) × every other factor,
/// so each of the n / |V_i| copies of factor i adds its own cut edges and the
/// ratio is the factor's times n / |V_i| (seed 000, the proof of Theorem 5).
pub fn product_cut(factors: &[(u64, Option<Cut>)]) -> Option<Cut> {
    let n: u64 = factors.iter().map(|&(m, _)| m).product();
    let mut best = None;
    for (i, (m, cut)) in factors.iter().enumerate() {
        let Some(c) = cut else { continue };
        let copies = n / m.max(&1);
        let scaled = Cut::new(
            c.side * copies,
            c.other_side * copies,
            c.edges * copies,
            Some(i + 1),
        );
        best = better(best, scaled);
    }
    best
}

/// The best cut of a ring (a cycle) of `m` nodes, or the single link of two
/// nodes: two arcs of ⌊m/2⌋ and ⌈m/2⌉ nodes joined by 2 edges (1 for m = 2).
/// No cut of a cycle does better: every cut has at least two edges, and
/// |A|·|V∖A| ≤ ⌊m/2⌋·⌈m/2⌉.
pub fn ring_cut(m: u64) -> Option<Cut> {
    let edges = if m == 2 { 1 } else { 2 };
    Cut::new(m / 2, m - m / 2, edges, None)
}

/// The best one-dimension halving of the torus with these sides (a hypercube
/// is the torus of sides 2): [`product_cut`] of rings.
pub fn torus_cut(sides: &[usize]) -> Option<Cut> {
    let factors: Vec<(u64, Option<Cut>)> = sides
        .iter()
        .map(|&m| (m as u64, ring_cut(m as u64)))
        .collect();
    product_cut(&factors)
}

/// The best cut that halves one coordinate of a graph numbered in mixed
/// radix with these sides (first coordinate fastest, as tori and twisted tori
/// are): for each dimension i, A = {x : c_i(x) < ⌊N_i / 2⌋}, its crossing
/// edges counted one by one over the graph's links. Any A is a cut, so the
/// bound holds whatever the links are; on a twisted torus the wrap-around
/// links of a twisted dimension also cross the halvings of the dimensions
/// they shift (docs/networks.md counts them). `None` when no dimension splits.
pub fn coordinate_halvings(graph: &Graph, sides: &[usize]) -> Option<Cut> {
    let n = graph.nodes();
    if sides.iter().product::<usize>() != n {
        return None;
    }
    let edges = edges(graph);
    let mut best = None;
    let mut stride = 1usize;
    for (i, &side) in sides.iter().enumerate() {
        let in_a = |x: u32| (x as usize / stride) % side < side / 2;
        let size = (0..n as u32).filter(|&x| in_a(x)).count() as u64;
        let crossing = edges.iter().filter(|&&(x, y)| in_a(x) != in_a(y)).count() as u64;
        best = better(best, Cut::new(size, n as u64 - size, crossing, Some(i + 1)));
        stride *= side;
    }
    best
}

/// The edges of `graph`, each once (`x < y`).
fn edges(graph: &Graph) -> Vec<(u32, u32)> {
    (0..graph.nodes() as u32)
        .flat_map(|x| {
            graph
                .neighbours(x)
                .iter()
                .filter(move |&&y| x < y)
                .map(move |&y| (x, y))
        })
        .collect()
}

/// Largest graph for which [`neighbour_split`] tries the links from every
/// node (one breadth-first search per node); beyond, the links from node 0
/// alone, which is the same on a vertex-transitive graph.
pub const NEIGHBOUR_SPLIT_ALL_NODES: usize = 256;

/// The best of the cuts A = {z : d(z, x) ≤ d(z, y)} over links x → y: the
/// nodes at least as near x as y. On a hypercube, a torus of even sides or a
/// cube-connected cycles network these include the halvings of a dimension;
/// any such A is a cut, so the bound holds whatever it finds. `None` for a
/// graph of one node.
pub fn neighbour_split(graph: &Graph) -> Option<Cut> {
    let n = graph.nodes();
    let sources = if n <= NEIGHBOUR_SPLIT_ALL_NODES { n } else { 1 };
    let edges = edges(graph);
    let mut searched: Vec<Option<Vec<u32>>> = vec![None; n];
    let mut distances = |x: u32| -> Vec<u32> {
        searched[x as usize]
            .get_or_insert_with(|| graph.distances_to(x))
            .clone()
    };
    let mut best = None;
    for x in 0..sources as u32 {
        let from_x = distances(x);
        for &y in graph.neighbours(x) {
            let from_y = distances(y);
            let near_x: Vec<bool> = (0..n).map(|z| from_x[z] <= from_y[z]).collect();
            let side = near_x.iter().filter(|&&a| a).count() as u64;
            let crossing = edges
                .iter()
                .filter(|&&(a, b)| near_x[a as usize] != near_x[b as usize])
                .count() as u64;
            best = better(best, Cut::new(side, n as u64 - side, crossing, None));
        }
    }
    best
}

#[cfg(test)]
mod tests;
