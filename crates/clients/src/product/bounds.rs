//! The figures of a product network that its lower bounds are made of (seed
//! 000, section 3): the statuses — two ways that must agree, a breadth-first
//! search of the product graph itself and Theorem 1 / Corollary 2 from the
//! factors alone — and each factor's best cut. The bounds themselves, with the
//! model each assumes, are [`txverify_core::bounds`]'s: the distance bound (eq. 3 is
//! its single-port case, ⌈AS(G)⌉) and the cut bound (eq. 4).

use super::factor::Factor;
use txverify_core::bounds::cut_search::{EXHAUSTIVE_NODES, best_cut};
use txverify_core::bounds::{Cut, CutMethod, cut, distance};
use txverify_core::network::Graph;

/// Sum over all nodes of their status, S_G = Σ_v s(v), and the status of
/// node 0, by search ([`Graph::distance_sums`], the one sum of distances).
pub fn total_status_by_search(graph: &Graph) -> (u64, u64) {
    let sums = graph.distance_sums();
    (sums.total, sums.status)
}

/// S_{G_i} = Σ_v s_i(v) for one factor, by breadth-first search of the factor.
pub fn factor_total_status(factor: &Factor) -> Option<u64> {
    let graph = factor.network().build().ok()?;
    Some(total_status_by_search(&graph).0)
}

/// S_G from the factors by Corollary 2: AS(G) = n Σ AS(G_i)/|V_i|, so
/// S_G = n·AS(G) = Σ_i (n / |V_i|)² · S_{G_i}.
pub fn total_status_by_theorem(factors: &[Factor]) -> Option<u64> {
    let n: u64 = factors.iter().map(|f| u64::from(f.nodes())).product();
    factors.iter().try_fold(0u64, |acc, f| {
        let scale = n / u64::from(f.nodes());
        Some(acc + scale * scale * factor_total_status(f)?)
    })
}

/// The status of node 0 by Theorem 1: s(v) = n Σ_i s_i(v_i)/|V_i|.
pub fn node_status_by_theorem(factors: &[Factor]) -> Option<u64> {
    let n: u64 = factors.iter().map(|f| u64::from(f.nodes())).product();
    factors.iter().try_fold(0u64, |acc, f| {
        let graph = f.network().build().ok()?;
        let s = distance::reach(&graph, 0).status;
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

/// The best cut found of one factor: the one cut search of the core
/// ([`txverify_core::bounds::cut_search::best_cut`]: every cut of a small
/// factor, a heuristic beyond), and for a larger ring, path or complete graph
/// its known best cut (two arcs, two segments, any halving).
pub fn factor_cut(factor: &Factor) -> Option<Cut> {
    let m = factor.nodes();
    if m < 2 {
        return None;
    }
    let graph = factor.network().build().ok()?;
    let searched = best_cut(&graph, None);
    if m as usize <= EXHAUSTIVE_NODES {
        return searched;
    }
    let (half, rest) = (u64::from(m / 2), u64::from(m - m / 2));
    let known = match factor {
        Factor::Ring(_) => cut::ring_cut(u64::from(m)),
        Factor::Linear(_) => Cut::of_sizes(half, rest, 1, CutMethod::Family),
        Factor::Complete(_) => Cut::of_sizes(half, rest, half * rest, CutMethod::Family),
        Factor::Cayley { .. } | Factor::Edges { .. } => None,
    };
    match (known, searched) {
        (Some(k), Some(s)) if s.ratio.exceeds(k.ratio) => Some(s),
        (Some(k), _) => Some(k),
        (None, s) => s,
    }
}

/// The best cut that splits one dimension: [`cut::product_cut`] of the
/// factors' cuts.
pub fn dimension_cut(factors: &[Factor]) -> Option<Cut> {
    let cuts: Vec<(u64, Option<Cut>)> = factors
        .iter()
        .map(|f| (u64::from(f.nodes()), factor_cut(f)))
        .collect();
    cut::product_cut(&cuts)
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
    pub average_status: txverify_core::bounds::Ratio,
    /// Σ_v s(v) / (n (n − 1)): the average distance over all pairs.
    pub average_distance: f64,
    /// The closed form of section 3.1, for generalised hypercubes.
    pub average_distance_closed_form: Option<f64>,
    /// Directed links.
    pub directed_links: u64,
    /// Σ_v min(K, deg v): the most hops a step under K ports
    /// ([`distance::port_capacity`]).
    pub port_capacity: u64,
    /// The best cut splitting one dimension.
    pub dimension_cut: Option<Cut>,
    /// The best cut over every bisection (small graphs).
    pub exhaustive_cut: Option<Cut>,
}

/// Computes [`NetworkBounds`] for a named product network, K-port with K =
/// `ports`.
pub fn network_bounds(
    network: &txverify_core::network::NetworkName,
    ports: u64,
) -> Result<NetworkBounds, super::ProductError> {
    let factors = super::factors_of(network)?;
    let graph = network.build().map_err(super::ProductError::Network)?;
    let n = graph.nodes() as u64;
    let sums = graph.distance_sums();
    let (total, status, diameter) = (sums.total, sums.status, sums.diameter as u32);
    let degree = (0..n as u32)
        .map(|v| graph.neighbours(v).len() as u64)
        .max()
        .unwrap_or(0);
    let closed_form = match network {
        txverify_core::network::NetworkName::GenHypercube(sides) => {
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
        average_status: txverify_core::bounds::Ratio {
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
        port_capacity: distance::port_capacity(&graph, Some(ports)),
        dimension_cut: dimension_cut(&factors),
        exhaustive_cut: txverify_core::bounds::cut_search::best_bisection(&graph),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

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
        let cut = factor_cut(&Factor::Linear(6)).unwrap();
        assert_eq!((cut.side, cut.other_side, cut.edges), (3, 3, 1));
        let odd = factor_cut(&Factor::Linear(5)).unwrap();
        assert_eq!(odd.steps(), 6);
    }
}
