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

/// How a cut was found (or known).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutMethod {
    /// Every set of nodes was tried: the best cut bound there is.
    Exhaustive,
    /// Breadth-first sweeps from this many start nodes, refined by
    /// Fiduccia–Mattheyses passes (`refined`) or not.
    Heuristic {
        /// Start nodes.
        starts: usize,
        /// Whether the passes ran (at most
        /// [`REFINE_NODES`](super::cut_search::REFINE_NODES) nodes).
        refined: bool,
    },
    /// A cut of one factor of a product (or one side of a torus), found by
    /// the search there or known by its family, times every other factor:
    /// A = A_i × the rest.
    Dimension {
        /// The factor, 1-based.
        dimension: usize,
        /// Whether the factor's cut was found by trying every cut of it.
        factor_exhaustive: bool,
    },
    /// The halving of one coordinate of a grid numbered in mixed radix.
    Halving {
        /// The coordinate, 1-based.
        dimension: usize,
    },
    /// A family's best cut by its formula (a ring's two arcs, a path's two
    /// segments, a complete graph's halving).
    Family,
    /// The nodes at least as near one end of a link as the other
    /// ([`neighbour_split`]).
    NeighbourSplit,
    /// One node against the rest.
    OneNode,
}

impl CutMethod {
    /// The factor or coordinate (1-based) the cut splits, if one.
    pub fn dimension(self) -> Option<usize> {
        match self {
            CutMethod::Dimension { dimension, .. } | CutMethod::Halving { dimension } => {
                Some(dimension)
            }
            _ => None,
        }
    }
}

impl std::fmt::Display for CutMethod {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CutMethod::Exhaustive => write!(f, "exhaustive"),
            CutMethod::Heuristic {
                starts,
                refined: true,
            } => write!(f, "heuristic (BFS sweeps + FM, {starts} starts)"),
            CutMethod::Heuristic { starts, .. } => {
                write!(f, "heuristic (BFS sweeps, {starts} starts)")
            }
            CutMethod::Dimension {
                dimension,
                factor_exhaustive,
            } => {
                let how = if *factor_exhaustive {
                    "exhaustive"
                } else {
                    "heuristic"
                };
                write!(f, "dimension {dimension} ({how} cut of the factor)")
            }
            CutMethod::Halving { dimension } => write!(f, "halving of coordinate {dimension}"),
            CutMethod::Family => write!(f, "the family's best cut"),
            CutMethod::NeighbourSplit => write!(f, "split between neighbours"),
            CutMethod::OneNode => write!(f, "one node"),
        }
    }
}

/// A cut (A, V∖A) and its bound: txverify's one cut type, for a total
/// exchange (|A|·|V∖A| messages each way), for a collective of chunks
/// ([`super::chunks`]: the chunks that must cross), all-port or K-port.
/// Reports that print a cut in another shape make a view of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// The larger demand over the capacity, exact: |A|·|V∖A| / cap_K(A) for
    /// a total exchange.
    pub ratio: Ratio,
    /// |A| (the side holding node 0 for a cut searched on a graph, the
    /// smaller side for a dimension's halving).
    pub side: u64,
    /// The nodes of A, increasing, when the cut was made on the graph node
    /// by node; empty for a cut known by its sizes alone (a family's formula,
    /// a product's dimension scaled from its factor).
    pub nodes: Vec<u32>,
    /// |V∖A|.
    pub other_side: u64,
    /// c(A): the directed links from A to V∖A (as many as the edges between
    /// the sides).
    pub edges: u64,
    /// The crossings a step: cap_K(A) under K ports, c(A) all-port.
    pub capacity: u64,
    /// What must cross from A to V∖A and from V∖A to A.
    pub demand: (u64, u64),
    /// How it was found.
    pub method: CutMethod,
}

impl Cut {
    /// The all-port cut of a total exchange with sides of `side` and
    /// `other_side` nodes joined by `edges` edges, known by its sizes;
    /// `None` when a side is empty or no edge crosses.
    pub fn of_sizes(side: u64, other_side: u64, edges: u64, method: CutMethod) -> Option<Cut> {
        (side > 0 && other_side > 0 && edges > 0).then(|| Cut {
            ratio: Ratio {
                numerator: side * other_side,
                denominator: edges,
            },
            side,
            nodes: Vec::new(),
            other_side,
            edges,
            capacity: edges,
            demand: (side * other_side, side * other_side),
            method,
        })
    }

    /// The cut of a total exchange with A = `nodes` (increasing), of
    /// `other_side` nodes on the other side, `edges` links crossing and
    /// `capacity` crossings a step; `None` when a side is empty or nothing
    /// can cross.
    pub fn of_nodes(
        nodes: Vec<u32>,
        other_side: u64,
        edges: u64,
        capacity: u64,
        method: CutMethod,
    ) -> Option<Cut> {
        let side = nodes.len() as u64;
        let demand = side * other_side;
        Cut::with_demand(nodes, other_side, edges, capacity, (demand, demand), method)
    }

    /// The cut with A = `nodes` (increasing) across which `demand` must
    /// cross each way, over `capacity` crossings a step; `None` when a side
    /// is empty or nothing can cross.
    pub fn with_demand(
        nodes: Vec<u32>,
        other_side: u64,
        edges: u64,
        capacity: u64,
        demand: (u64, u64),
        method: CutMethod,
    ) -> Option<Cut> {
        let side = nodes.len() as u64;
        (side > 0 && other_side > 0 && capacity > 0).then(|| Cut {
            ratio: Ratio {
                numerator: demand.0.max(demand.1),
                denominator: capacity,
            },
            side,
            nodes,
            other_side,
            edges,
            capacity,
            demand,
            method,
        })
    }

    /// The bound in steps: ⌈the larger demand / capacity⌉ (for a total
    /// exchange ⌈|A|·|V∖A| / cap_K(A)⌉).
    pub fn steps(&self) -> u64 {
        self.ratio.ceil()
    }
}

/// The stronger of two cuts (the first on a tie).
pub fn better(best: Option<Cut>, cut: Option<Cut>) -> Option<Cut> {
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
        let method = CutMethod::Dimension {
            dimension: i + 1,
            factor_exhaustive: c.method == CutMethod::Exhaustive,
        };
        let scaled = Cut::of_sizes(
            c.side * copies,
            c.other_side * copies,
            c.edges * copies,
            method,
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
    Cut::of_sizes(m / 2, m - m / 2, edges, CutMethod::Family)
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
        let method = CutMethod::Halving { dimension: i + 1 };
        best = better(best, Cut::of_sizes(size, n as u64 - size, crossing, method));
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
            let nodes = (0..n as u32).filter(|&z| near_x[z as usize]).collect();
            let split = Cut::of_nodes(
                nodes,
                n as u64 - side,
                crossing,
                crossing,
                CutMethod::NeighbourSplit,
            );
            best = better(best, split);
        }
    }
    best
}

#[cfg(test)]
mod tests;
