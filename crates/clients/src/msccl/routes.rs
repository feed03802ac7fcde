//! The distances of a physical network and the one shortest route of each
//! connection (docs/msccl.md "On a network"): from a node, the next hop is its
//! *lowest-numbered* neighbour one hop closer to the destination, so that two
//! runs, and a reader with a pencil, get the same route. Both the link loads
//! (links.rs) and the bounds (bounds.rs) read them.
//!
//! GPU i is the i-th node that is not a switch (forward-only, docs/networks.md
//! "Fabrics"); on a network without switches, node i. A send between two GPUs
//! on a switch crosses it (one link in, one out). When the shortest routes of
//! two GPUs pass through different switches, which one a send crosses is not
//! known, and the network is refused ([`Routes::new`]).

use txverify_core::network::{Graph, UNREACHABLE};

/// All-pairs distances above this many bytes are not computed (8192 nodes).
pub const MAX_DISTANCE_BYTES: usize = 1 << 28;

/// The distances of a network, and its shortest routes.
pub struct Routes<'g> {
    graph: &'g Graph,
    /// `dist[x·N + y]`, by node.
    dist: Vec<u32>,
    /// The node of each GPU.
    gpus: Vec<u32>,
}

impl<'g> Routes<'g> {
    /// The routes of `graph`, or why there are none (too large, not
    /// connected, two GPUs joined through several switches).
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
        let gpus = (0..graph.nodes() as u32)
            .filter(|&x| !graph.is_forward_only(x))
            .collect();
        let routes = Routes { graph, dist, gpus };
        if graph.fabric().has_forward_only() {
            routes.one_switch_a_pair()?;
        }
        Ok(routes)
    }

    /// Refuses a network on which the shortest routes between two GPUs pass
    /// through two different switches. From each GPU, in order of distance,
    /// every node keeps the switches (at most two) on its shortest routes.
    fn one_switch_a_pair(&self) -> Result<(), String> {
        let n = self.graph.nodes();
        let switch = |x: u32| self.graph.is_forward_only(x);
        let mut order: Vec<u32> = Vec::with_capacity(n);
        let mut via: Vec<Vec<u32>> = vec![Vec::new(); n];
        for &x in &self.gpus {
            let row = &self.dist[x as usize * n..(x as usize + 1) * n];
            order.clear();
            order.extend(0..n as u32);
            order.sort_by_key(|&y| row[y as usize]);
            for &y in &order {
                let d = row[y as usize];
                let mut found: Vec<u32> = Vec::new();
                for &u in self.graph.neighbours(y) {
                    if d == 0 || row[u as usize] + 1 != d {
                        continue;
                    }
                    let more = via[u as usize]
                        .iter()
                        .copied()
                        .chain(switch(u).then_some(u));
                    for w in more {
                        if !found.contains(&w) && found.len() < 2 {
                            found.push(w);
                        }
                    }
                }
                if found.len() > 1 && !switch(y) {
                    let (a, b) = (found[0].min(found[1]), found[0].max(found[1]));
                    return Err(format!(
                        "nodes {x} and {y} are joined through switches {a} and {b} alike: which one a send between them crosses is not known"
                    ));
                }
                via[y as usize] = found;
            }
        }
        Ok(())
    }

    /// The graph.
    pub fn graph(&self) -> &'g Graph {
        self.graph
    }

    /// All pairs' distances by node, row-major (`[x·N + y]`).
    pub fn distances(&self) -> &[u32] {
        &self.dist
    }

    /// Nodes.
    pub fn nodes(&self) -> usize {
        self.graph.nodes()
    }

    /// The GPUs: the nodes that are not switches.
    pub fn gpus(&self) -> usize {
        self.gpus.len()
    }

    /// The node of GPU `x`, if there is one.
    pub fn node_of(&self, x: u32) -> Option<u32> {
        self.gpus.get(x as usize).copied()
    }

    /// The hops from node `x` to node `y` (0 for a node outside the network).
    fn node_hops(&self, x: u32, y: u32) -> u64 {
        let n = self.nodes();
        if x as usize >= n || y as usize >= n {
            return 0;
        }
        u64::from(self.dist[x as usize * n + y as usize])
    }

    /// The hops from GPU `x` to GPU `y` (0 for a GPU outside the network).
    pub fn hops(&self, x: u32, y: u32) -> u64 {
        match (self.node_of(x), self.node_of(y)) {
            (Some(a), Some(b)) => self.node_hops(a, b),
            _ => 0,
        }
    }

    /// The largest distance from GPU `x` to a GPU.
    pub fn eccentricity(&self, x: u32) -> u64 {
        let Some(a) = self.node_of(x) else { return 0 };
        self.gpus
            .iter()
            .map(|&b| self.node_hops(a, b))
            .max()
            .unwrap_or(0)
    }

    /// The largest distance between two GPUs.
    pub fn diameter(&self) -> u64 {
        (0..self.gpus.len() as u32)
            .map(|x| self.eccentricity(x))
            .max()
            .unwrap_or(0)
    }

    /// Σ d(x, y) over all ordered pairs of GPUs.
    pub fn total_distance(&self) -> u64 {
        let gpus = &self.gpus;
        gpus.iter()
            .flat_map(|&a| gpus.iter().map(move |&b| (a, b)))
            .map(|(a, b)| self.node_hops(a, b))
            .sum()
    }

    /// The route from GPU `x` to GPU `y` as its directed links `(from, to)`
    /// between nodes: at each node the lowest-numbered neighbour one hop
    /// closer to `y`, a switch before any GPU (GPUs on a switch reach each
    /// other through it, not through a third GPU).
    pub fn route(&self, x: u32, y: u32) -> Vec<(u32, u32)> {
        let (Some(mut at), Some(y)) = (self.node_of(x), self.node_of(y)) else {
            return Vec::new();
        };
        let mut links = Vec::new();
        while self.node_hops(at, y) > 0 {
            let left = self.node_hops(at, y) - 1;
            let closer = |w: &&u32| self.node_hops(**w, y) == left;
            let neighbours = self.graph.neighbours(at);
            let switch = neighbours
                .iter()
                .filter(closer)
                .find(|&&w| self.graph.is_forward_only(w));
            let Some(&next) = switch.or_else(|| neighbours.iter().find(closer)) else {
                break; // cannot happen on a connected graph
            };
            links.push((at, next));
            at = next;
        }
        links
    }
}
