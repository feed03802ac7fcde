//! A program on a physical network (`check PROGRAM.xml --network NET`,
//! docs/msccl.md "On a network"): GPU i is node i, and each connection
//! (channel, from, to) is carried by the links of one shortest path.
//!
//! The route is fixed so that two runs, and a reader with a pencil, get the
//! same loads: from a node, the next hop is its *lowest-numbered* neighbour one
//! hop closer to the destination. A connection between neighbours is its link.
//! The loads are then counted chunk by chunk (a message of `cnt` chunks puts
//! `cnt` on every link of its route); how the program's messages would share
//! a link in time is not modelled, only how many chunks each link carries.

use super::bounds;
use super::collective::Shape;
use super::execute::Figures;
pub use super::routes::{MAX_DISTANCE_BYTES, Routes};
use std::collections::BTreeMap;
use txverify_core::bounds::chunks::ChunkBounds;

/// What a program does to a network, next to the bounds of its collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnNetwork {
    /// The network as named.
    pub network: String,
    /// Nodes.
    pub nodes: usize,
    /// Directed links.
    pub directed_links: usize,
    /// Chunks carried by each directed link of the network, in link order
    /// (zero for an unused link).
    pub loads: BTreeMap<(u32, u32), u64>,
    /// The largest load.
    pub max_load: u64,
    /// The program's connections (channel, from, to) that sent something.
    pub connections: usize,
    /// Those of them between GPUs that are not neighbours (routed on more
    /// than one link).
    pub routed: usize,
    /// Chunks sent on routed connections.
    pub routed_chunks: u64,
    /// The most links one connection's route takes.
    pub longest_route: u64,
    /// [`Figures::depth`] with each message weighed by its route's hops.
    pub depth: u64,
    /// The lower bounds of the collective on this network.
    pub bounds: ChunkBounds,
    /// The capacity of each directed link that carries more than one chunk a
    /// step (a fabric's; empty on a plain network).
    pub capacities: BTreeMap<(u32, u32), u32>,
    /// On a fabric with capacities: the link whose load over its capacity is
    /// the largest, its load, its capacity and the steps ⌈load / capacity⌉.
    pub busiest_per_capacity: Option<LoadOnCapacity>,
}

/// A link's load against its capacity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoadOnCapacity {
    /// The link.
    pub link: (u32, u32),
    /// Chunks it carries.
    pub chunks: u64,
    /// Chunks a step it carries.
    pub capacity: u32,
    /// ⌈chunks / capacity⌉: the steps it is busy at the least.
    pub steps: u64,
}

impl OnNetwork {
    /// The program's largest link load over the bound (`None` for a zero bound).
    pub fn load_ratio(&self) -> Option<f64> {
        ratio(self.max_load, self.bounds.load())
    }

    /// The program's depth over the latency bound (`None` for a zero bound).
    pub fn depth_ratio(&self) -> Option<f64> {
        ratio(self.depth, self.bounds.latency)
    }
}

fn ratio(figure: u64, bound: u64) -> Option<f64> {
    (bound > 0).then(|| figure as f64 / bound as f64)
}

/// The loads of a run's `figures` on `routes`, and the bounds of `shape`'s
/// collective; `figures.depth` must come from a run weighed by these routes.
pub fn measure(routes: &Routes, figures: &Figures, shape: &Shape) -> OnNetwork {
    let graph = routes.graph();
    let mut loads: BTreeMap<(u32, u32), u64> = (0..graph.directed_links() as u32)
        .map(|l| (graph.endpoints(l), 0))
        .collect();
    let (mut routed, mut routed_chunks, mut longest_route) = (0, 0u64, 0u64);
    let mut connections = 0;
    for (&(_, from, to), &chunks) in &figures.connections {
        if chunks == 0 {
            continue;
        }
        connections += 1;
        let route = routes.route(from, to);
        longest_route = longest_route.max(route.len() as u64);
        if route.len() > 1 {
            routed += 1;
            routed_chunks += chunks;
        }
        for link in route {
            *loads.entry(link).or_default() += chunks;
        }
    }
    let capacities: BTreeMap<(u32, u32), u32> = (0..graph.directed_links() as u32)
        .filter(|&l| graph.capacity(l) > 1)
        .map(|l| (graph.endpoints(l), graph.capacity(l)))
        .collect();
    let busiest_per_capacity = (!capacities.is_empty())
        .then(|| {
            loads
                .iter()
                .map(|(&link, &chunks)| {
                    let capacity = capacities.get(&link).copied().unwrap_or(1);
                    LoadOnCapacity {
                        link,
                        chunks,
                        capacity,
                        steps: chunks.div_ceil(u64::from(capacity)),
                    }
                })
                .fold(None::<LoadOnCapacity>, |best, x| match best {
                    Some(b) if b.steps >= x.steps => Some(b),
                    _ => Some(x),
                })
        })
        .flatten();
    OnNetwork {
        capacities,
        busiest_per_capacity,
        network: graph.label().to_string(),
        nodes: graph.nodes(),
        directed_links: graph.directed_links(),
        max_load: loads.values().copied().max().unwrap_or(0),
        loads,
        connections,
        routed,
        routed_chunks,
        longest_route,
        depth: figures.depth,
        bounds: bounds::bounds(routes, shape, &figures.roots),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    #[test]
    fn routes_take_the_lowest_numbered_closer_neighbour() {
        // Ring 6: from 0 to 3 both ways are shortest; 1 < 5, so 0 → 1 → 2 → 3.
        let g = NetworkName::Ring(6).build().unwrap();
        let r = Routes::new(&g).unwrap();
        assert_eq!(r.route(0, 3), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(r.route(3, 0), [(3, 2), (2, 1), (1, 0)]);
        assert_eq!(r.route(0, 5), [(0, 5)]);
        assert_eq!((r.diameter(), r.eccentricity(2)), (3, 3));
        // Mesh 2 × 2 (0 1 / 2 3): from 0 to 3 via 1, not 2.
        let g = NetworkName::Mesh(vec![2, 2]).build().unwrap();
        let r = Routes::new(&g).unwrap();
        assert_eq!(r.route(0, 3), [(0, 1), (1, 3)]);
        assert_eq!(r.total_distance(), 16);
    }
}
