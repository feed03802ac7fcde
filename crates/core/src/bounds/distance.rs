//! Distance bounds: every message moves one hop a step, so the hops the
//! messages need in all, divided by the hops the network makes a step, bound
//! the time (the model and its derivation are in the module note of
//! [`crate::bounds`]).
//!
//! The status of a node — the sum of its distances to every other — is the
//! count these bounds start from; it is computed here from a list of
//! distances, whatever searched them (the group's breadth-first search for a
//! Cayley graph, [`Graph::distances_to`] for a named network).

use crate::network::Graph;

/// The sum of `distances`, or `None` when one of them is unreachable
/// (`u32::MAX`): the status of the node they were searched from.
pub fn status(distances: &[u32]) -> Option<u64> {
    distances
        .iter()
        .try_fold(0u64, |sum, &d| (d != u32::MAX).then(|| sum + u64::from(d)))
}

/// A node's distances in brief: the largest (its eccentricity) and their sum
/// (its status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// The largest distance from the node.
    pub eccentricity: u64,
    /// The sum of the distances from the node.
    pub status: u64,
}

/// The reach of node `from` of a (connected) graph.
pub fn reach(graph: &Graph, from: u32) -> Reach {
    let dist = graph.distances_to(from);
    Reach {
        eccentricity: dist.iter().copied().max().map_or(0, u64::from),
        status: dist.iter().map(|&d| u64::from(d)).sum(),
    }
}

/// Σ_x min(K, deg x): the most hops the nodes of `graph` make in one step when
/// each sends on at most `ports` of its links (`None`: all of them, which makes
/// the sum the directed links).
pub fn port_capacity(graph: &Graph, ports: Option<u64>) -> u64 {
    (0..graph.nodes() as u32)
        .map(|x| {
            let degree = graph.neighbours(x).len() as u64;
            ports.map_or(degree, |k| k.min(degree))
        })
        .sum()
}

/// The hops a set of packets needs on `graph`, and the longest of them: packet
/// `(s, d)` for every `d` in `destinations[s]` travels at least the distance
/// from `s` to `d`. Returns `(Σ dist(s, d), max dist(s, d))`; the first over
/// [`port_capacity`] is the distance bound ([`distance_bound`]), the second is
/// a bound by itself (a packet moves one hop a step).
pub fn packet_hops(graph: &Graph, destinations: &[Vec<u32>]) -> (u64, u64) {
    let (mut hops, mut farthest) = (0u64, 0u64);
    for (s, ds) in destinations.iter().enumerate() {
        if ds.is_empty() {
            continue;
        }
        let dist = graph.distances_to(s as u32);
        for &d in ds {
            let hop = u64::from(dist.get(d as usize).copied().unwrap_or(0));
            hops = hops.saturating_add(hop);
            farthest = farthest.max(hop);
        }
    }
    (hops, farthest)
}

/// ⌈hops / capacity⌉: the distance bound, for `hops` the sum of the distances
/// the messages must travel and `capacity` the hops a step
/// ([`port_capacity`]); 0 when nothing can move (a graph of one node).
pub fn distance_bound(hops: u64, capacity: u64) -> u64 {
    if capacity == 0 {
        0
    } else {
        hops.div_ceil(capacity)
    }
}

/// ⌈status / min(K, degree)⌉: the distance bound on a vertex-transitive graph
/// (every node of a Cayley graph has the same status and degree), K-port with
/// K = `ports` capped at the degree; 0 for a graph without links.
pub fn vertex_transitive_bound(status: u64, ports: u64, degree: u64) -> u64 {
    distance_bound(status, ports.min(degree))
}

/// ⌈(N − 1) / degree⌉: a node receives N − 1 distinct messages (a total
/// exchange, a gather's root) or sends them (a scatter's root), one per link a
/// step, all-port.
pub fn intake_bound(nodes: u64, degree: u64) -> u64 {
    distance_bound(nodes.saturating_sub(1), degree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    /// Σ over every pair of the distance, one search per node.
    fn total_distance(g: &Graph) -> u64 {
        (0..g.nodes() as u32).map(|x| reach(g, x).status).sum()
    }

    #[test]
    fn the_vertex_transitive_form_is_the_general_one_on_cayley_graphs() {
        for name in ["ring 8", "hypercube 4", "torus 3 5", "ring 5"] {
            let g = graph(name);
            let n = g.nodes() as u64;
            let degree = g.neighbours(0).len() as u64;
            let s = reach(&g, 0).status;
            for k in 1..=6 {
                assert_eq!(
                    vertex_transitive_bound(s, k, degree),
                    distance_bound(total_distance(&g), port_capacity(&g, Some(k))),
                    "{name}, {k} ports"
                );
            }
            assert_eq!(port_capacity(&g, None), g.directed_links() as u64);
            assert_eq!(port_capacity(&g, Some(1)), n);
        }
    }

    #[test]
    fn ports_above_the_degree_are_all_ports() {
        // Ring 8: status 16, degree 2: single-port 16, two or more ports 8.
        let g = graph("ring 8");
        let s = reach(&g, 0).status;
        assert_eq!(s, 16);
        assert_eq!(vertex_transitive_bound(s, 1, 2), 16);
        for k in 2..=9 {
            assert_eq!(vertex_transitive_bound(s, k, 2), 8);
        }
        let all_port = distance_bound(total_distance(&g), port_capacity(&g, None));
        assert_eq!(all_port, 8);
    }

    #[test]
    fn status_refuses_an_unreachable_node() {
        assert_eq!(status(&[0, 1, 2, 1]), Some(4));
        assert_eq!(status(&[0, u32::MAX]), None);
        assert_eq!(intake_bound(8, 3), 3);
        assert_eq!(intake_bound(1, 0), 0);
    }

    #[test]
    fn the_distance_bound_is_met_by_known_optimal_exchanges() {
        // Optimal all-port total exchanges: the ring of N nodes in ⌈N²/8⌉
        // steps for even N (tables/ring8: 8 steps), the d-cube in 2^(d−1).
        let ring = graph("ring 8");
        assert_eq!(
            distance_bound(total_distance(&ring), port_capacity(&ring, None)),
            8
        );
        let cube = graph("hypercube 4");
        assert_eq!(
            distance_bound(total_distance(&cube), port_capacity(&cube, None)),
            8
        );
    }
}
