//! Lower bounds on time and on transmissions of the hypercube collectives,
//! from the network alone: which of [`txverify_core::bounds`]'s bounds (distances,
//! degrees; the model of each is stated there) applies to which problem.
//!
//! Each bound is a counting argument over the graph the schedule is replayed
//! on (breadth-first distances and degrees), not a formula of the paper and
//! not a property of any construction; all assume all ports:
//!
//! - a packet moves one hop per step, so a node at distance k is served no
//!   earlier than step k (the eccentricity of the root, or the diameter);
//! - a node receives at most one packet per link per step, so a node that must
//!   receive N − 1 distinct packets over deg links needs ⌈(N − 1)/deg⌉ steps
//!   (the root of a scatter sends them; a gather's root receives them);
//! - each directed link carries one packet per step, so a total exchange needs
//!   ⌈Σ distances / directed links⌉ steps;
//! - every copy of a broadcast is one send (N − 1 for a broadcast, N(N − 1)
//!   for a multinode broadcast), and a personalised packet needs at least its
//!   distance in sends.
//!
//! Multinode broadcast and total exchange need the distances from every node;
//! they are taken from one breadth-first search after checking that the
//! translations x ↦ x ⊕ 2^j map links to links (so every node sees the same
//! distances), and from a search per node otherwise.

use super::Problem;
use txverify_core::bounds::distance::{self, Reach, reach};
use txverify_core::network::Graph;
use txverify_core::schedule::xor_translations_preserve_links;

/// A lower bound on the time and one on the number of sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// No schedule of the problem finishes in fewer steps.
    pub time: u64,
    /// No schedule of the problem makes fewer sends.
    pub transmissions: u64,
}

/// Every node's reach, or the one node 0's when all nodes see the same.
fn all_reach(graph: &Graph) -> Vec<Reach> {
    if xor_translations_preserve_links(graph) {
        vec![reach(graph, 0)]
    } else {
        (0..graph.nodes() as u32).map(|x| reach(graph, x)).collect()
    }
}

/// The lower bounds for `problem` from `root` (ignored by mnb and exchange) on
/// `graph`, which must be connected with at least one link per node.
pub fn lower_bounds(problem: Problem, graph: &Graph, root: u32) -> Bounds {
    let n = graph.nodes() as u64;
    let degree = |x: u32| (graph.neighbours(x).len() as u64).max(1);
    let min_degree = (0..n as u32).map(degree).min().unwrap_or(1);
    match problem {
        Problem::Broadcast | Problem::Accumulate => Bounds {
            time: reach(graph, root).eccentricity,
            transmissions: n - 1,
        },
        Problem::Scatter | Problem::Gather => {
            let r = reach(graph, root);
            Bounds {
                time: r.eccentricity.max(distance::intake_bound(n, degree(root))),
                transmissions: r.status,
            }
        }
        Problem::Mnb => {
            let diameter = all_reach(graph).iter().map(|r| r.eccentricity).max();
            Bounds {
                time: diameter
                    .unwrap_or(0)
                    .max(distance::intake_bound(n, min_degree)),
                transmissions: n * (n - 1),
            }
        }
        Problem::Exchange => {
            let reaches = all_reach(graph);
            let diameter = reaches.iter().map(|r| r.eccentricity).max().unwrap_or(0);
            let per_node: u64 = reaches.iter().map(|r| r.status).sum();
            let total = if reaches.len() == 1 {
                per_node * n
            } else {
                per_node
            };
            let links = graph.directed_links() as u64;
            Bounds {
                time: diameter
                    .max(distance::intake_bound(n, min_degree))
                    .max(distance::distance_bound(total, links)),
                transmissions: total,
            }
        }
    }
}

/// The lower bound on time when every node sends at most one packet and
/// receives at most one per step (the seed paper's SLA assumption), by
/// counting: the holders of a broadcast packet at most double a step
/// (⌈log2 N⌉); a scatter's root sends N − 1 packets, a gather's root and every
/// node of a multinode broadcast receive N − 1, one a step; a total exchange's
/// Σ distances hops are made at most N a step (one per sender); and no packet
/// arrives before its distance.
pub fn single_port_time(problem: Problem, graph: &Graph, root: u32) -> u64 {
    let n = graph.nodes() as u64;
    match problem {
        Problem::Broadcast | Problem::Accumulate => {
            let doublings = u64::from(n.next_power_of_two().trailing_zeros());
            reach(graph, root).eccentricity.max(doublings)
        }
        Problem::Scatter | Problem::Gather => reach(graph, root).eccentricity.max(n - 1),
        Problem::Mnb => diameter(graph).max(n - 1),
        Problem::Exchange => {
            let hops = total_distance(graph);
            diameter(graph)
                .max(n - 1)
                .max(distance::distance_bound(hops, n))
        }
    }
}

/// The lower bound on time when every node uses all its links but a link
/// carries one packet a step in one direction only (half duplex), by
/// counting: the all-port bounds of the root's links still hold, and a
/// multinode broadcast's N(N − 1) copies and a total exchange's Σ distances
/// hops are made at most one per undirected link a step.
pub fn half_duplex_time(problem: Problem, graph: &Graph, root: u32) -> u64 {
    let all_port = lower_bounds(problem, graph, root).time;
    let links = (graph.directed_links() as u64 / 2).max(1);
    let n = graph.nodes() as u64;
    match problem {
        Problem::Broadcast | Problem::Accumulate | Problem::Scatter | Problem::Gather => all_port,
        Problem::Mnb => all_port.max(distance::distance_bound(n * (n - 1), links)),
        Problem::Exchange => all_port.max(distance::distance_bound(total_distance(graph), links)),
    }
}

fn diameter(graph: &Graph) -> u64 {
    all_reach(graph)
        .iter()
        .map(|r| r.eccentricity)
        .max()
        .unwrap_or(0)
}

/// Σ over all ordered pairs of their distance.
fn total_distance(graph: &Graph) -> u64 {
    let reaches = all_reach(graph);
    let sum: u64 = reaches.iter().map(|r| r.status).sum();
    if reaches.len() == 1 {
        sum * graph.nodes() as u64
    } else {
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn hypercube_translations_preserve_links_and_a_mesh_s_do_not() {
        assert!(xor_translations_preserve_links(&graph("hypercube 5")));
        assert!(!xor_translations_preserve_links(&graph("mesh 2 4")));
        assert!(!xor_translations_preserve_links(&graph("ring 6")));
    }

    #[test]
    fn bounds_on_a_graph_that_is_not_translation_invariant_use_every_node() {
        // mesh 2 4: node c1 + 2·c2; distance |Δc1| + |Δc2|.
        let g = graph("mesh 2 4");
        let coords = |x: u32| ((x % 2) as i64, (x / 2) as i64);
        let dist = |x: u32, y: u32| {
            let ((a, b), (c, e)) = (coords(x), coords(y));
            ((a - c).abs() + (b - e).abs()) as u64
        };
        let total: u64 = (0..8).flat_map(|x| (0..8).map(move |y| dist(x, y))).sum();
        let b = lower_bounds(Problem::Exchange, &g, 0);
        assert_eq!(b.transmissions, total);
        // Corner nodes have degree 2: 7 packets need 4 steps; Σ/links = 96/20 → 5.
        assert_eq!(b.time, total.div_ceil(20).max(4).max(4));
        let m = lower_bounds(Problem::Mnb, &g, 0);
        assert_eq!((m.time, m.transmissions), (4, 56));
        let s = lower_bounds(Problem::Scatter, &g, 3);
        let from_3: u64 = (0..8).map(|y| dist(3, y)).sum();
        assert_eq!((s.time, s.transmissions), (3, from_3));
        // Single port: 8 nodes, Σ distances (112) at 8 hops a step; half
        // duplex: 10 undirected links, 56 copies and 112 hops.
        assert_eq!(total, 112);
        assert_eq!(
            single_port_time(Problem::Exchange, &g, 0),
            total.div_ceil(8)
        );
        assert_eq!(single_port_time(Problem::Mnb, &g, 0), 7);
        assert_eq!(single_port_time(Problem::Broadcast, &g, 0), 4);
        assert_eq!(half_duplex_time(Problem::Mnb, &g, 0), 6);
        assert_eq!(
            half_duplex_time(Problem::Exchange, &g, 0),
            total.div_ceil(10)
        );
    }
}
