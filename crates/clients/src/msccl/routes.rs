//! The distances of a physical network and the one shortest route of each
//! connection (docs/msccl.md "On a network"): from a node, the next hop is its
//! *lowest-numbered* neighbour one hop closer to the destination, so that two
//! runs, and a reader with a pencil, get the same route. Both the link loads
//! (links.rs) and the bounds (bounds.rs) read them.

use txverify_core::network::{Graph, UNREACHABLE};

/// All-pairs distances above this many bytes are not computed (8192 nodes).
pub const MAX_DISTANCE_BYTES: usize = 1 << 28;

/// The distances of a network, and its shortest routes.
pub struct Routes<'g> {
    graph: &'g Graph,
    /// `dist[x·N + y]`.
    dist: Vec<u32>,
}

impl<'g> Routes<'g> {
    /// The routes of `graph`, or why there are none (too large, not connected).
    pub fn new(graph: &'g Graph) -> Result<Routes<'g>, String> {
        let dist = graph.all_distances(MAX_DISTANCE_BYTES).ok_or_else(|| {
            format!(
                "the network has {} nodes: more than txverify routes programs on",
                graph.nodes()
            )
        })?;
        if dist.contains(&UNREACHABLE) {
            return Err("the network is not connected".into());
        }
        Ok(Routes { graph, dist })
    }

    /// The graph.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// All pairs' distances, row-major (`[x·N + y]`).
    pub fn distances(&self) -> &[u32] {
        &self.dist
    }

    /// Nodes.
    pub fn nodes(&self) -> usize {
        self.graph.nodes()
    }

    /// The hops from `x` to `y` (0 for a node outside the network).
    pub fn hops(&self, x: u32, y: u32) -> u64 {
        let n = self.nodes();
        if x as usize >= n || y as usize >= n {
            return 0;
        }
        u64::from(self.dist[x as usize * n + y as usize])
    }

    /// The largest distance from `x`.
    pub fn eccentricity(&self, x: u32) -> u64 {
        let n = self.nodes();
        let row = &self.dist[x as usize * n..(x as usize + 1) * n];
        row.iter().copied().max().map_or(0, u64::from)
    }

    /// The largest distance.
    pub fn diameter(&self) -> u64 {
        self.dist.iter().copied().max().map_or(0, u64::from)
    }

    /// Σ d(x, y) over all ordered pairs.
    pub fn total_distance(&self) -> u64 {
        self.dist.iter().map(|&d| u64::from(d)).sum()
    }

    /// The route from `x` to `y` as its directed links `(from, to)`: at each
    /// node the lowest-numbered neighbour one hop closer to `y`.
    pub fn route(&self, x: u32, y: u32) -> Vec<(u32, u32)> {
        let mut links = Vec::new();
        let mut at = x;
        while self.hops(at, y) > 0 {
            let left = self.hops(at, y) - 1;
            let Some(&next) = self
                .graph
                .neighbours(at)
                .iter()
                .find(|&&w| self.hops(w, y) == left)
            else {
                break; // cannot happen on a connected graph
            };
            links.push((at, next));
            at = next;
        }
        links
    }
}
