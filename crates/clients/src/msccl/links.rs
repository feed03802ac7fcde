//! A program on a physical network (`check PROGRAM.xml --network NET`,
//! docs/msccl.md "On a network"): GPU i is node i (on a fabric with switches,
//! the i-th node that is not a switch), and each connection (channel, from,
//! to) is carried by the links of one shortest path.
//!
//! The route is fixed so that two runs, and a reader with a pencil, get the
//! same loads: from a node, the next hop is its *lowest-numbered* neighbour one
//! hop closer to the destination. A connection between neighbours is its link.
//! The loads are then counted chunk by chunk (a message of `cnt` chunks puts
//! `cnt` on every link of its route); how the program's messages would share
//! a link in time is not modelled, only how many chunks each link carries.
//!
//! On a fabric (capacities, switch limits: docs/msccl.md, "On a fabric") the
//! program is also played in *steps* ([`Figures::steps`]): a connection moves
//! one chunk a step along its route, its messages in order, a message leaving
//! the step after what its sender waited for arrived. The chunks each link
//! carries in each step are held against its capacity (`link-busy` on a link
//! of capacity 1, `over-capacity` above) and against every switch limit
//! (`switch-limit`: the chunks of the step on links from its sources to its
//! destinations), each violation named with its step, as the schedule replay
//! names them.

use super::bounds;
use super::collective::Shape;
use super::execute::{Departure, Figures};
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
    /// On a fabric (capacities or switch limits): the program in steps.
    pub fabric: Option<FabricSteps>,
    /// The switch nodes (forward-only): GPU i is the i-th node not listed.
    pub switches: Vec<u32>,
}

/// At most this many fabric violations are listed (all are counted).
pub const MAX_LISTED_VIOLATIONS: usize = 64;

/// The most chunk-hops (a chunk crossing one link in one step) the step
/// model counts, each a map entry at worst: above, the program is not
/// played in steps and the report says why.
pub const MAX_STEP_CHUNK_HOPS: u64 = 1 << 24;

/// A program played in steps on a fabric ([`Figures::steps`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FabricSteps {
    /// The last step a chunk moves.
    pub steps: u64,
    /// The most chunks one link carries in one step.
    pub busiest_step_load: u64,
    /// Every violation, counted.
    pub violation_count: u64,
    /// The first [`MAX_LISTED_VIOLATIONS`] in (step, kind, place) order.
    pub violations: Vec<FabricViolation>,
    /// When the program was not played in steps: its chunk-hops, more than
    /// [`MAX_STEP_CHUNK_HOPS`].
    pub not_played: Option<u64>,
    /// The violated switch limits whose sources are several nodes (a
    /// receive limit such as `node_i_in`), by name: a program orders each
    /// GPU's own sends only, so no dependency within a GPU can keep them
    /// (docs/export.md, "Switch limits").
    pub limits_across_gpus: Vec<String>,
}

/// What a step asks of a fabric beyond what it carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FabricViolation {
    /// More chunks on a link in one step than its capacity (`link-busy` on
    /// capacity 1, `over-capacity` above).
    Link {
        /// The step.
        step: u64,
        /// The directed link.
        link: (u32, u32),
        /// Chunks it carries in the step.
        chunks: u64,
        /// Its capacity.
        capacity: u32,
    },
    /// More chunks in one step from a switch limit's sources to its
    /// destinations than it allows (`switch-limit`).
    Switch {
        /// The step.
        step: u64,
        /// The limit's name.
        name: String,
        /// Chunks among its nodes in the step.
        chunks: u64,
        /// Its limit.
        sends: u32,
    },
}

impl FabricViolation {
    /// Its kind, as the schedule replay names it.
    pub fn kind(&self) -> &'static str {
        match self {
            FabricViolation::Link { capacity: 1, .. } => "link-busy",
            FabricViolation::Link { .. } => "over-capacity",
            FabricViolation::Switch { .. } => "switch-limit",
        }
    }

    /// The step it happens in.
    pub fn step(&self) -> u64 {
        match self {
            FabricViolation::Link { step, .. } | FabricViolation::Switch { step, .. } => *step,
        }
    }
}

impl std::fmt::Display for FabricViolation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FabricViolation::Link {
                step,
                link,
                chunks,
                capacity,
            } => write!(
                f,
                "{} at step {step}: link {}→{} carries {chunks} chunks, capacity {capacity}",
                self.kind(),
                link.0,
                link.1
            ),
            FabricViolation::Switch {
                step,
                name,
                chunks,
                sends,
            } => write!(
                f,
                "switch-limit at step {step}: `{name}` carries {chunks} chunks, at most {sends}"
            ),
        }
    }
}

/// Plays `timeline` in steps on `routes`' fabric: each link's chunks per
/// step against its capacity, and each switch limit's.
pub fn fabric_steps(routes: &Routes, timeline: &[Departure], steps: u64) -> FabricSteps {
    let graph = routes.graph();
    let chunk_hops = timeline.iter().fold(0u64, |sum, d| {
        sum.saturating_add(
            d.chunks
                .saturating_mul(routes.hops(d.connection.1, d.connection.2)),
        )
    });
    if chunk_hops > MAX_STEP_CHUNK_HOPS {
        return FabricSteps {
            steps,
            not_played: Some(chunk_hops),
            ..FabricSteps::default()
        };
    }
    let mut per_step: BTreeMap<(u64, (u32, u32)), u64> = BTreeMap::new();
    for d in timeline {
        let (_, from, to) = d.connection;
        for (i, link) in routes.route(from, to).into_iter().enumerate() {
            for k in 0..d.chunks {
                let step = d.first_step.saturating_add(k).saturating_add(i as u64);
                *per_step.entry((step, link)).or_default() += 1;
            }
        }
    }
    let limits = graph.fabric().limits();
    let mut limits_from: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (i, limit) in limits.iter().enumerate() {
        for &x in &limit.sources {
            limits_from.entry(x).or_default().push(i);
        }
    }
    let mut out = FabricSteps {
        steps,
        ..FabricSteps::default()
    };
    let mut found = Vec::new();
    let mut on_limits: BTreeMap<(u64, usize), u64> = BTreeMap::new();
    for (&(step, (from, to)), &chunks) in &per_step {
        out.busiest_step_load = out.busiest_step_load.max(chunks);
        let capacity = graph.link(from, to).map_or(1, |l| graph.capacity(l));
        if chunks > u64::from(capacity) {
            found.push(FabricViolation::Link {
                step,
                link: (from, to),
                chunks,
                capacity,
            });
        }
        for &i in limits_from.get(&from).into_iter().flatten() {
            if limits[i].destinations.binary_search(&to).is_ok() {
                *on_limits.entry((step, i)).or_default() += chunks;
            }
        }
    }
    let mut across = std::collections::BTreeSet::new();
    for ((step, i), chunks) in on_limits {
        if chunks > u64::from(limits[i].sends) {
            if limits[i].sources.len() > 1 {
                across.insert(limits[i].name.clone());
            }
            found.push(FabricViolation::Switch {
                step,
                name: limits[i].name.clone(),
                chunks,
                sends: limits[i].sends,
            });
        }
    }
    out.limits_across_gpus = across.into_iter().collect();
    found.sort_by_key(|v| (v.step(), v.kind()));
    out.violation_count = found.len() as u64;
    found.truncate(MAX_LISTED_VIOLATIONS);
    out.violations = found;
    out
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
    let fabric = graph.fabric();
    let fabric_model =
        fabric.has_capacities() || !fabric.limits().is_empty() || fabric.has_forward_only();
    OnNetwork {
        fabric: fabric_model.then(|| fabric_steps(routes, &figures.timeline, figures.steps)),
        switches: (0..graph.nodes() as u32)
            .filter(|&x| graph.is_forward_only(x))
            .collect(),
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

    #[test]
    fn a_program_of_too_many_chunk_hops_is_not_played_in_steps() {
        let g = NetworkName::Ring(4).build().unwrap();
        let r = Routes::new(&g).unwrap();
        let departure = |chunks| Departure {
            connection: (0, 0, 2),
            first_step: 1,
            chunks,
        };
        // 0 → 2 is 2 hops, 0 → 1 → 2: 3 chunks are 6 chunk-hops, played.
        let played = fabric_steps(&r, &[departure(3)], 9);
        assert_eq!((played.not_played, played.busiest_step_load), (None, 1));
        // One chunk more than 2^23 is over the limit: refused before any work.
        let over = fabric_steps(&r, &[departure(MAX_STEP_CHUNK_HOPS / 2 + 1)], 9);
        assert_eq!(over.not_played, Some(MAX_STEP_CHUNK_HOPS + 2));
        assert_eq!((over.steps, over.violation_count), (9, 0));
    }
}
