//! Lower bounds for total exchange on a product network (seed 000, section 3):
//! the average status AS(G) (eq. 3, single-port), the cut bound
//! |V1||V2| / C(V1, V2) (eq. 4), and the link-load bound of the all-port model.
//!
//! Status comes two ways that must agree: a breadth-first search of the product
//! graph itself, and Theorem 1 / Corollary 2 from the factors alone.

use super::factor::Factor;
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
        self.numerator.div_ceil(self.denominator)
    }

    /// Whether `self > other`.
    fn exceeds(self, other: Ratio) -> bool {
        u128::from(self.numerator) * u128::from(other.denominator)
            > u128::from(other.numerator) * u128::from(self.denominator)
    }

    /// The value as a float, for reports.
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

/// The best cut found: the two sides and the edges joining them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cut {
    /// |V1|·|V2| / C, exact.
    pub ratio: Ratio,
    /// |V1| (the side containing node 0 for exhaustive cuts).
    pub side: u64,
    /// |V2|.
    pub other_side: u64,
    /// Edges between the sides.
    pub edges: u64,
    /// The dimension (1-based) whose cut this is, or `None` for a cut found by
    /// trying every bisection of the whole graph.
    pub dimension: Option<usize>,
}

/// Sum over all nodes of their status, S_G = Σ_v s(v), by breadth-first search
/// from every node, and the status of node 0.
pub fn total_status_by_search(graph: &Graph) -> (u64, u64) {
    let n = graph.nodes() as u32;
    let mut total = 0;
    let mut first = 0;
    for v in 0..n {
        let s: u64 = graph.distances_to(v).iter().map(|&d| u64::from(d)).sum();
        if v == 0 {
            first = s;
        }
        total += s;
    }
    (total, first)
}

/// S_{G_i} = Σ_v s_i(v) for one factor, by breadth-first search of the factor.
pub fn factor_total_status(factor: Factor) -> Option<u64> {
    let graph = factor.network().build().ok()?;
    Some(total_status_by_search(&graph).0)
}

/// S_G from the factors by Corollary 2: AS(G) = n Σ AS(G_i)/|V_i|, so
/// S_G = n·AS(G) = Σ_i (n / |V_i|)² · S_{G_i}.
pub fn total_status_by_theorem(factors: &[Factor]) -> Option<u64> {
    let n: u64 = factors.iter().map(|f| u64::from(f.nodes())).product();
    factors.iter().try_fold(0u64, |acc, &f| {
        let scale = n / u64::from(f.nodes());
        Some(acc + scale * scale * factor_total_status(f)?)
    })
}

/// The status of node 0 by Theorem 1: s(v) = n Σ_i s_i(v_i)/|V_i|.
pub fn node_status_by_theorem(factors: &[Factor]) -> Option<u64> {
    let n: u64 = factors.iter().map(|f| u64::from(f.nodes())).product();
    factors.iter().try_fold(0u64, |acc, &f| {
        let graph = f.network().build().ok()?;
        let s: u64 = graph.distances_to(0).iter().map(|&d| u64::from(d)).sum();
        Some(acc + n / u64::from(f.nodes()) * s)
    })
}

/// Average distance of the generalised hypercube K_m1 × … × K_mk in closed
/// form (seed 000, section 3.1): n/(n−1) · (k − Σ 1/m_i).
pub fn genhypercube_average_distance(sides: &[u32]) -> f64 {
    let n: f64 = sides.iter().map(|&m| f64::from(m)).product();
    if n <= 1.0 {
        return 0.0;
    }
    let k = sides.len() as f64;
    let inverse: f64 = sides.iter().map(|&m| 1.0 / f64::from(m)).sum();
    n / (n - 1.0) * (k - inverse)
}

/// Largest factor for which every subset of nodes is tried as a side.
pub const EXHAUSTIVE_FACTOR_NODES: u32 = 20;

/// Largest whole graph for which every bisection is tried.
pub const EXHAUSTIVE_GRAPH_NODES: usize = 22;

/// The best cut of one factor over every subset of its nodes containing node
/// 0 (factors up to [`EXHAUSTIVE_FACTOR_NODES`]), or over the cuts into two
/// arcs (rings) or two segments (paths) beyond; a complete graph's every cut
/// gives 1.
fn factor_cut(factor: Factor) -> Option<(u64, u64, u64)> {
    let m = factor.nodes();
    if m < 2 {
        return None;
    }
    if m <= EXHAUSTIVE_FACTOR_NODES {
        let graph = factor.network().build().ok()?;
        return best_bisection(&graph).map(|c| (c.side, c.other_side, c.edges));
    }
    let (half, rest) = (u64::from(m / 2), u64::from(m - m / 2));
    Some(match factor {
        Factor::Ring(_) => (half, rest, 2),
        Factor::Linear(_) => (half, rest, 1),
        Factor::Complete(_) => (half, rest, half * rest),
        Factor::Cayley { .. } => return None,
    })
}

/// The best cut that splits one dimension: V1 = (side of dimension i) × the
/// rest. Each of the n/|V_i| copies of G_i contributes its own cut edges, so
/// the ratio is the factor's ratio times n/|V_i| (the proof of Theorem 5).
pub fn dimension_cut(factors: &[Factor]) -> Option<Cut> {
    let n: u64 = factors.iter().map(|f| u64::from(f.nodes())).product();
    let mut best: Option<Cut> = None;
    for (i, &f) in factors.iter().enumerate() {
        let Some((a, b, c)) = factor_cut(f) else {
            continue;
        };
        let copies = n / u64::from(f.nodes());
        let (side, other_side, edges) = (a * copies, b * copies, c * copies);
        let cut = Cut {
            ratio: Ratio {
                numerator: side * other_side,
                denominator: edges,
            },
            side,
            other_side,
            edges,
            dimension: Some(i + 1),
        };
        if best.as_ref().is_none_or(|b| cut.ratio.exceeds(b.ratio)) {
            best = Some(cut);
        }
    }
    best
}

/// The best cut over every partition of the nodes into two non-empty sets
/// (graphs up to [`EXHAUSTIVE_GRAPH_NODES`] nodes; `None` beyond): each
/// partition is tried once, as the set containing node 0.
pub fn best_bisection(graph: &Graph) -> Option<Cut> {
    let n = graph.nodes();
    if !(2..=EXHAUSTIVE_GRAPH_NODES).contains(&n) {
        return None;
    }
    let edges: Vec<(u32, u32)> = (0..n as u32)
        .flat_map(|x| {
            graph
                .neighbours(x)
                .iter()
                .filter(move |&&y| x < y)
                .map(move |&y| (x, y))
        })
        .collect();
    let mut best: Option<Cut> = None;
    // Sets containing node 0: bit 0 always set, the others free; the full set excluded.
    for rest in 0..(1u64 << (n - 1)) - 1 {
        let set = rest << 1 | 1;
        let side = u64::from(set.count_ones());
        let crossing = edges
            .iter()
            .filter(|&&(x, y)| (set >> x & 1) != (set >> y & 1))
            .count() as u64;
        let ratio = Ratio {
            numerator: side * (n as u64 - side),
            denominator: crossing,
        };
        if best.as_ref().is_none_or(|b| ratio.exceeds(b.ratio)) {
            best = Some(Cut {
                ratio,
                side,
                other_side: n as u64 - side,
                edges: crossing,
                dimension: None,
            });
        }
    }
    best
}

/// The figures `txverify bounds --network NET` reports for a product network:
/// each status both by search on the product graph and by the seed's formulas
/// from the factors.
#[derive(Clone, Debug, PartialEq)]
pub struct NetworkBounds {
    /// Nodes.
    pub order: u64,
    /// The largest number of links at a node.
    pub degree: u64,
    /// The largest distance.
    pub diameter: u32,
    /// s(v) of node 0 (all coordinates 0), by search.
    pub status: u64,
    /// s(v) of node 0 by Theorem 1.
    pub status_by_theorem: Option<u64>,
    /// Σ_v s(v) by search.
    pub total_status: u64,
    /// Σ_v s(v) by Corollary 2.
    pub total_status_by_theorem: Option<u64>,
    /// AS(G) = Σ_v s(v) / n, exact (eq. 3: the single-port bound).
    pub average_status: Ratio,
    /// Σ_v s(v) / (n (n − 1)): the average distance over all pairs.
    pub average_distance: f64,
    /// The closed form of section 3.1, for generalised hypercubes.
    pub average_distance_closed_form: Option<f64>,
    /// Directed links.
    pub directed_links: u64,
    /// The best cut splitting one dimension.
    pub dimension_cut: Option<Cut>,
    /// The best cut over every bisection (small graphs).
    pub exhaustive_cut: Option<Cut>,
}

/// Computes [`NetworkBounds`] for a named product network.
pub fn network_bounds(
    network: &crate::network::NetworkName,
) -> Result<NetworkBounds, super::ProductError> {
    let factors = super::factors_of(network)?;
    let graph = network.build().map_err(super::ProductError::Network)?;
    let n = graph.nodes() as u64;
    let mut total = 0u64;
    let mut status = 0u64;
    let mut diameter = 0u32;
    for v in 0..n as u32 {
        let dist = graph.distances_to(v);
        let s: u64 = dist.iter().map(|&d| u64::from(d)).sum();
        if v == 0 {
            status = s;
        }
        total += s;
        diameter = diameter.max(dist.iter().copied().max().unwrap_or(0));
    }
    let degree = (0..n as u32)
        .map(|v| graph.neighbours(v).len() as u64)
        .max()
        .unwrap_or(0);
    let closed_form = match network {
        crate::network::NetworkName::GenHypercube(sides) => {
            Some(genhypercube_average_distance(sides))
        }
        _ => None,
    };
    Ok(NetworkBounds {
        order: n,
        degree,
        diameter,
        status,
        status_by_theorem: node_status_by_theorem(&factors),
        total_status: total,
        total_status_by_theorem: total_status_by_theorem(&factors),
        average_status: Ratio {
            numerator: total,
            denominator: n.max(1),
        },
        average_distance: if n > 1 {
            total as f64 / (n * (n - 1)) as f64
        } else {
            0.0
        },
        average_distance_closed_form: closed_form,
        directed_links: graph.directed_links() as u64,
        dimension_cut: dimension_cut(&factors),
        exhaustive_cut: best_bisection(&graph),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    #[test]
    fn theorem_one_agrees_with_search_on_products() {
        for (factors, name) in [
            (vec![Factor::Ring(4), Factor::Ring(3)], "torus 4 3"),
            (vec![Factor::Linear(3), Factor::Linear(5)], "mesh 3 5"),
            (
                vec![Factor::Complete(3), Factor::Complete(4)],
                "genhypercube 3 4",
            ),
        ] {
            let graph = name.parse::<NetworkName>().unwrap().build().unwrap();
            let (total, first) = total_status_by_search(&graph);
            assert_eq!(total_status_by_theorem(&factors), Some(total), "{name}");
            assert_eq!(node_status_by_theorem(&factors), Some(first), "{name}");
        }
    }

    #[test]
    fn genhypercube_average_distance_matches_search() {
        let sides = [3, 4, 2];
        let graph = NetworkName::GenHypercube(sides.to_vec()).build().unwrap();
        let (total, _) = total_status_by_search(&graph);
        let n = graph.nodes() as f64;
        let searched = total as f64 / (n * (n - 1.0));
        assert!((genhypercube_average_distance(&sides) - searched).abs() < 1e-12);
    }

    #[test]
    fn the_linear_array_cut_is_its_middle_link() {
        let cut = factor_cut(Factor::Linear(6)).unwrap();
        assert_eq!(cut, (3, 3, 1));
        let odd = factor_cut(Factor::Linear(5)).unwrap();
        assert_eq!(odd.0 * odd.1 / odd.2, 6);
    }
}
