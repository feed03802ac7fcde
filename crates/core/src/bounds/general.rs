//! Lower bounds on any connected graph, vertex-transitive or not (an edge
//! list, a mesh, a product): the figures `bounds --network` reports.
//!
//! A graph that is not vertex-transitive has no single status, so the
//! distance bound sums over all pairs: the N(N − 1) messages need
//! H = Σ_{x≠y} d(x, y) hops in all (one breadth-first search per node), and
//! in one step node x sends at most min(K, deg x) messages one hop each, so
//! no total exchange takes fewer than ⌈H / Σ_x min(K, deg x)⌉ steps (all-port:
//! ⌈H / L⌉, L the directed links). Node x receives N − 1 distinct messages, at
//! most min(K, deg x) a step: ⌈(N − 1) / min(K, δ)⌉, δ the least degree. The
//! cut bounds are [`super::cut_search`]'s, all-port and K-port. Every K-port
//! schedule is an all-port schedule too, so each all-port bound is also a
//! K-port bound. The model is the one of [`crate::bounds`].

use super::cut_search::{FoundCut, best_cut, better, cut_of};
use super::distance;
use crate::network::Graph;

/// The figures and lower bounds of one graph under K ports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphBounds {
    /// Nodes.
    pub order: u64,
    /// The least degree.
    pub degree_min: u64,
    /// The largest degree.
    pub degree_max: u64,
    /// The largest distance.
    pub diameter: u64,
    /// Σ_y d(0, y): the status of node 0.
    pub status: u64,
    /// Σ_{x,y} d(x, y) over all ordered pairs: the hops of a total exchange.
    pub total_status: u64,
    /// Directed links (L).
    pub directed_links: u64,
    /// The K of K-port (the ports asked for).
    pub ports: u64,
    /// Σ_x min(K, deg x).
    pub port_capacity: u64,
    /// The best all-port cut found.
    pub cut: Option<FoundCut>,
    /// The best K-port cut found (the all-port one when K ≥ every degree).
    pub ports_cut: Option<FoundCut>,
}

impl GraphBounds {
    /// ⌈H / L⌉: the all-port distance bound.
    pub fn link_load_bound(&self) -> u64 {
        distance::distance_bound(self.total_status, self.directed_links)
    }

    /// ⌈H / Σ_x min(K, deg x)⌉: the K-port distance bound.
    pub fn ports_distance_bound(&self) -> u64 {
        distance::distance_bound(self.total_status, self.port_capacity)
    }

    /// ⌈(N − 1) / min(K, δ)⌉ (K = `ports`; `None`: all-port).
    pub fn intake_bound(&self, ports: Option<u64>) -> u64 {
        let k = ports.map_or(self.degree_min, |k| k.min(self.degree_min));
        distance::distance_bound(self.order.saturating_sub(1), k)
    }

    /// The largest all-port bound: link load, intake and the cut.
    pub fn all_port_bound(&self) -> u64 {
        let cut = self.cut.as_ref().map_or(0, FoundCut::steps);
        self.link_load_bound().max(self.intake_bound(None)).max(cut)
    }

    /// The largest K-port bound: the K-port distance, intake and cut bounds,
    /// and every all-port bound.
    pub fn ports_bound(&self) -> u64 {
        let cut = self.ports_cut.as_ref().map_or(0, FoundCut::steps);
        self.ports_distance_bound()
            .max(self.intake_bound(Some(self.ports)))
            .max(cut)
            .max(self.all_port_bound())
    }
}

/// The most work [`graph_bounds`] is given: its breadth-first search from
/// every node visits N·(N + L) nodes and directed links (2^31 takes about five
/// seconds of one core; the cut search is bounded on its own).
pub const MAX_ALL_PAIRS_WORK: u64 = 1 << 31;

/// A network too large for the all-pairs distances of [`graph_bounds`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "the distances between all pairs of {nodes} nodes over {links} directed links take {work} steps (nodes × (nodes + links)), more than the limit of {MAX_ALL_PAIRS_WORK}"
)]
pub struct TooLargeForAllPairs {
    /// Nodes.
    pub nodes: u64,
    /// Directed links (or a bound on them, when estimated from a name).
    pub links: u64,
    /// Their work, N·(N + L).
    pub work: u64,
}

/// Whether a network of `nodes` nodes and `links` directed links is within
/// [`MAX_ALL_PAIRS_WORK`]; checked before the network is built when its name
/// gives the two.
pub fn check_all_pairs(nodes: u64, links: u64) -> Result<(), TooLargeForAllPairs> {
    let work = nodes.saturating_mul(nodes.saturating_add(links));
    if work > MAX_ALL_PAIRS_WORK {
        return Err(TooLargeForAllPairs { nodes, links, work });
    }
    Ok(())
}

/// Computes [`GraphBounds`] of a connected `graph` under `ports` ports (K ≥ 1).
pub fn graph_bounds(graph: &Graph, ports: u64) -> GraphBounds {
    let n = graph.nodes() as u32;
    let (mut total, mut status, mut diameter) = (0u64, 0u64, 0u64);
    for x in 0..n {
        let reach = distance::reach(graph, x);
        if x == 0 {
            status = reach.status;
        }
        total += reach.status;
        diameter = diameter.max(reach.eccentricity);
    }
    let degrees = (0..n).map(|x| graph.degree(x) as u64);
    let degree_min = degrees.clone().min().unwrap_or(0);
    let degree_max = degrees.max().unwrap_or(0);
    let cut = best_cut(graph, None);
    let ports_cut = if ports >= degree_max {
        cut.clone()
    } else {
        // The best all-port side is a K-port cut too, perhaps a better one.
        let all_port_side = cut
            .as_ref()
            .and_then(|c| cut_of(graph, &c.side, Some(ports), c.method));
        better(best_cut(graph, Some(ports)), all_port_side)
    };
    GraphBounds {
        order: u64::from(n),
        degree_min,
        degree_max,
        diameter,
        status,
        total_status: total,
        directed_links: graph.directed_links() as u64,
        ports,
        port_capacity: distance::port_capacity(graph, Some(ports)),
        cut,
        ports_cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    #[test]
    fn a_path_of_four() {
        // 0-1-2-3: H = 2·(1+2+3+1+2+1) = 20, L = 6, ⌈20/6⌉ = 4; the middle
        // cut is 2·2 / 1 = 4; node 0 receives 3 messages on one link: 3.
        let g = NetworkName::Linear(4).build().unwrap();
        let b = graph_bounds(&g, 1);
        assert_eq!(
            (b.order, b.degree_min, b.degree_max, b.diameter),
            (4, 1, 2, 3)
        );
        assert_eq!((b.status, b.total_status), (6, 20));
        assert_eq!(b.link_load_bound(), 4);
        assert_eq!(b.cut.as_ref().unwrap().steps(), 4);
        assert_eq!(b.all_port_bound(), 4);
        // Single-port: Σ min(1, deg) = 4, ⌈20 / 4⌉ = 5.
        assert_eq!(b.ports_distance_bound(), 5);
        assert_eq!(b.ports_bound(), 5);
    }
}
