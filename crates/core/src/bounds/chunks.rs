//! Lower bounds for a collective of equal chunks on a network, in the chunk
//! model of MSCCL programs (docs/msccl.md, "On a network", proves each):
//!
//! - chunks are of equal size; a directed link carries one chunk a step; a
//!   chunk crosses one link a step; nodes copy and reduce chunks, links and
//!   switches only carry them (no reduction in the network);
//! - a slot holds a set of contributions, a reduction is a union, so a chunk
//!   that ends in a right output holds only contributions of that output.
//!
//! The *load* bounds limit the chunks the busiest directed link carries,
//! whatever the program: the total crossings any program needs over the L
//! links (`traffic`), and, for a cut (A, B), the chunks that must cross it
//! each way over the c(A) links that do (a [`Cut`] whose demand is those
//! chunks). The *latency* bound limits the longest chain of messages in hops.
//! A program's time in steps is at least its largest link load and at least
//! its depth, so each figure sits beside its bound. For all-to-all these are
//! the bounds of a total exchange ([`super::distance`], [`super::cut`]),
//! scaled by the chunks per pair. What a program's XML says (its chunk counts,
//! its collective) is read by the MSCCL importer, which hands the sizes here.

use super::cut::{Cut, CutMethod};
use super::cut_search::{best_cut, every_side};
use super::distance::distance_bound;
use crate::network::Graph;

/// The collectives of the chunk model. Apart from
/// [`crate::schedule::Collective`], which names one root and one chunk count:
/// a program is right for every root of a set, and its chunk counts are the
/// two of [`ChunkDemand`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChunkCollective {
    /// Every node ends with the reduction of all C chunks of every node.
    AllReduce,
    /// Every node ends with the k chunks of every node.
    AllGather,
    /// Every node ends with the reduction of its part (k chunks) of every node.
    ReduceScatter,
    /// Every node sends k chunks to every node.
    AllToAll,
    /// The root's C chunks reach every node.
    Broadcast,
    /// The reduction of every node's C chunks reaches the root.
    Reduce,
}

impl ChunkCollective {
    /// Every chunk collective, in the order of [`ChunkCollective::name`]'s table.
    pub const ALL: [ChunkCollective; 6] = [
        ChunkCollective::AllReduce,
        ChunkCollective::AllGather,
        ChunkCollective::ReduceScatter,
        ChunkCollective::AllToAll,
        ChunkCollective::Broadcast,
        ChunkCollective::Reduce,
    ];

    /// The collective's name as an MSCCL program spells it (`coll="…"`).
    pub fn name(self) -> &'static str {
        match self {
            ChunkCollective::AllReduce => "allreduce",
            ChunkCollective::AllGather => "allgather",
            ChunkCollective::ReduceScatter => "reducescatter",
            ChunkCollective::AllToAll => "alltoall",
            ChunkCollective::Broadcast => "broadcast",
            ChunkCollective::Reduce => "reduce",
        }
    }

    /// The collective `name` spells ([`ChunkCollective::name`]), if any.
    pub fn from_name(name: &str) -> Option<ChunkCollective> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether a root names the node that sends or receives everything.
    pub fn rooted(self) -> bool {
        matches!(self, ChunkCollective::Broadcast | ChunkCollective::Reduce)
    }
}

/// What one collective moves: its kind, its nodes and its chunk counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkDemand {
    /// The collective.
    pub collective: ChunkCollective,
    /// Nodes (GPUs) N.
    pub nodes: u32,
    /// C: the chunks of one node's whole buffer.
    pub chunks: u64,
    /// k: the chunks of one node's part (per node and destination, or per
    /// node and part of the output).
    pub part: u64,
}

/// What the latency bound is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LatencyOf {
    /// One node, or no chunk: nothing crosses.
    NothingToMove,
    /// A rooted collective with no root to be right for.
    NoRoot,
    /// The largest distance.
    Diameter,
    /// The largest distance from this root (the worst of the roots).
    Eccentricity(u32),
}

impl std::fmt::Display for LatencyOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LatencyOf::NothingToMove => write!(f, "nothing to move"),
            LatencyOf::NoRoot => write!(f, "no root"),
            LatencyOf::Diameter => write!(f, "diameter"),
            LatencyOf::Eccentricity(r) => write!(f, "eccentricity of root {r}"),
        }
    }
}

/// The bounds of one collective on one network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChunkBounds {
    /// Link crossings every program needs in all.
    pub traffic: u64,
    /// Directed links (L).
    pub directed_links: u64,
    /// The best cut found, if any crosses; its demand is in chunks.
    pub cut: Option<Cut>,
    /// The latency bound in hops.
    pub latency: u64,
    /// What the latency bound is.
    pub latency_of: LatencyOf,
}

impl ChunkBounds {
    /// ⌈traffic / L⌉.
    pub fn traffic_bound(&self) -> u64 {
        distance_bound(self.traffic, self.directed_links)
    }

    /// The load bound: the larger of the traffic and the cut bound.
    pub fn load(&self) -> u64 {
        let cut = self.cut.as_ref().map_or(0, Cut::steps);
        self.traffic_bound().max(cut)
    }
}

/// The all-pairs distances of a graph, read from its row-major table
/// ([`Graph::all_distances`]); a table of the wrong size reads as 0.
struct Distances<'a> {
    nodes: usize,
    table: &'a [u32],
}

impl Distances<'_> {
    fn row(&self, x: u32) -> &[u32] {
        let start = x as usize * self.nodes;
        self.table.get(start..start + self.nodes).unwrap_or(&[])
    }

    fn eccentricity(&self, x: u32) -> u64 {
        self.row(x).iter().copied().max().map_or(0, u64::from)
    }

    fn diameter(&self) -> u64 {
        self.table.iter().copied().max().map_or(0, u64::from)
    }

    fn total(&self) -> u64 {
        self.table.iter().map(|&d| u64::from(d)).sum()
    }
}

/// The chunks that must cross from A (`size_a` nodes, `in_a`) to the rest and
/// back, for a program right for every root of `roots`.
fn demand(d: &ChunkDemand, roots: &[u32], in_a: &[bool], size_a: u64) -> (u64, u64) {
    let n = u64::from(d.nodes);
    let size_b = n - size_a;
    let (c, k) = (d.chunks, d.part);
    let root_in = |side_a: bool| {
        roots
            .iter()
            .any(|&r| in_a.get(r as usize).copied() == Some(side_a))
    };
    match d.collective {
        ChunkCollective::AllReduce => (c, c),
        ChunkCollective::AllGather => (size_a * k, size_b * k),
        ChunkCollective::ReduceScatter => (size_b * k, size_a * k),
        ChunkCollective::AllToAll => (size_a * size_b * k, size_a * size_b * k),
        ChunkCollective::Broadcast => (c * u64::from(root_in(true)), c * u64::from(root_in(false))),
        ChunkCollective::Reduce => (c * u64::from(root_in(false)), c * u64::from(root_in(true))),
    }
}

/// Link crossings every program needs in all.
fn traffic(distances: &Distances<'_>, d: &ChunkDemand) -> u64 {
    let n = u64::from(d.nodes);
    match d.collective {
        ChunkCollective::AllReduce => 2 * (n - 1) * d.chunks,
        ChunkCollective::AllToAll => d.part * distances.total(),
        _ => (n - 1) * d.chunks,
    }
}

/// The bounds of `demand`'s collective on `graph` (of `demand.nodes` nodes;
/// `distances` its all-pairs table, [`Graph::all_distances`]), for a program
/// right for the roots `roots` (rooted collectives).
pub fn bounds(
    graph: &Graph,
    distances: &[u32],
    demand: &ChunkDemand,
    roots: &[u32],
) -> ChunkBounds {
    let n = demand.nodes as usize;
    let distances = Distances {
        nodes: graph.nodes(),
        table: distances,
    };
    let (latency, latency_of) = if n < 2 || demand.chunks == 0 {
        (0, LatencyOf::NothingToMove)
    } else if demand.collective.rooted() {
        let worst = roots
            .iter()
            .max_by_key(|&&r| (distances.eccentricity(r), r));
        match worst {
            Some(&r) => (distances.eccentricity(r), LatencyOf::Eccentricity(r)),
            None => (0, LatencyOf::NoRoot),
        }
    } else {
        (distances.diameter(), LatencyOf::Diameter)
    };
    ChunkBounds {
        traffic: if n < 2 {
            0
        } else {
            traffic(&distances, demand)
        },
        directed_links: graph.directed_links() as u64,
        cut: best_demand_cut(graph, demand, roots),
        latency,
        latency_of,
    }
}

/// The cut (A, B) with A given by `in_a`, or `None` when a side is empty or
/// no link crosses.
fn cut(
    graph: &Graph,
    d: &ChunkDemand,
    roots: &[u32],
    in_a: &[bool],
    method: CutMethod,
) -> Option<Cut> {
    let side: Vec<u32> = (0..in_a.len() as u32)
        .filter(|&x| in_a[x as usize])
        .collect();
    let links = side
        .iter()
        .map(|&x| {
            let out = graph.neighbours(x).iter();
            out.filter(|&&y| !in_a[y as usize]).count() as u64
        })
        .sum();
    let size_a = side.len() as u64;
    let other_side = in_a.len() as u64 - size_a;
    let demand = demand(d, roots, in_a, size_a);
    Cut::with_demand(side, other_side, links, links, demand, method)
}

/// The best of the cuts tried: every cut up to
/// [`EXHAUSTIVE_NODES`](super::cut_search::EXHAUSTIVE_NODES) nodes; above,
/// every single node and the best cut of a total exchange
/// ([`best_cut`]). Ties keep the first found, compared by their bound in
/// steps.
fn best_demand_cut(graph: &Graph, d: &ChunkDemand, roots: &[u32]) -> Option<Cut> {
    let n = d.nodes as usize;
    if n < 2 || graph.nodes() != n {
        return None;
    }
    let mut best: Option<Cut> = None;
    let mut keep = |found: Option<Cut>| {
        if let Some(f) = found
            && best.as_ref().is_none_or(|b| f.steps() > b.steps())
        {
            best = Some(f);
        }
    };
    if let Some(sides) = every_side(n) {
        // Every A holding node 0 (B holds it otherwise: the same cut), by the
        // one enumeration of cuts.
        for (_, set) in sides {
            let in_a: Vec<bool> = (0..n).map(|x| set >> x & 1 == 1).collect();
            keep(cut(graph, d, roots, &in_a, CutMethod::Exhaustive));
        }
        return best;
    }
    for x in 0..n {
        let mut in_a = vec![false; n];
        in_a[x] = true;
        keep(cut(graph, d, roots, &in_a, CutMethod::OneNode));
    }
    if let Some(found) = best_cut(graph, None) {
        let mut in_a = vec![false; n];
        found.nodes.iter().for_each(|&x| in_a[x as usize] = true);
        keep(cut(graph, d, roots, &in_a, found.method));
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    /// On linear 4 (0 - 1 - 2 - 3, six directed links), C = 8 chunks.
    fn on_path(collective: ChunkCollective, part: u64, roots: &[u32]) -> ChunkBounds {
        let g = NetworkName::Linear(4).build().unwrap();
        let table = g.all_distances(1 << 20).unwrap();
        let demand = ChunkDemand {
            collective,
            nodes: 4,
            chunks: 8,
            part,
        };
        bounds(&g, &table, &demand, roots)
    }

    #[test]
    fn a_root_at_the_end_of_a_path_sends_everything_on_one_link() {
        for coll in [ChunkCollective::Broadcast, ChunkCollective::Reduce] {
            let b = on_path(coll, 8, &[0]);
            // 3 · 8 crossings over 6 links: 4; but every chunk crosses 0 - 1.
            assert_eq!((b.traffic, b.traffic_bound()), (24, 4));
            assert_eq!(b.load(), 8);
            assert_eq!(
                (b.latency, b.latency_of.to_string()),
                (3, "eccentricity of root 0".to_string())
            );
            // A root inside: its eccentricity is 2, and one link still
            // carries all 8 chunks (to the side that has no root).
            let b = on_path(coll, 8, &[1]);
            assert_eq!((b.load(), b.latency), (8, 2));
        }
    }

    #[test]
    fn the_collectives_of_a_path_of_four() {
        // allgather, k = 2: the middle cut needs 2·2 = 4 chunks each way on
        // one link; node 0 takes 3·2 = 6 on its one link.
        let b = on_path(ChunkCollective::AllGather, 2, &[]);
        assert_eq!((b.traffic, b.load(), b.latency), (24, 6, 3));
        // allreduce: 2·3·8 = 48 crossings over 6 links, 8 each way across
        // any cut: 8.
        let b = on_path(ChunkCollective::AllReduce, 8, &[]);
        assert_eq!((b.traffic, b.traffic_bound(), b.load()), (48, 8, 8));
        // alltoall, k = 2: Σ d = 20, 40 crossings over 6 links: 7; the middle
        // cut: 2·2·2 = 8 on one link.
        let b = on_path(ChunkCollective::AllToAll, 2, &[]);
        assert_eq!((b.traffic, b.traffic_bound(), b.load()), (40, 7, 8));
        let cut = b.cut.unwrap();
        assert_eq!((cut.nodes, cut.demand, cut.edges), (vec![0, 1], (8, 8), 1));
    }

    #[test]
    fn a_distance_table_of_the_wrong_size_gives_weaker_bounds_not_a_panic() {
        let g = NetworkName::Linear(4).build().unwrap();
        let demand = ChunkDemand {
            collective: ChunkCollective::Broadcast,
            nodes: 4,
            chunks: 8,
            part: 8,
        };
        let b = bounds(&g, &[1, 2], &demand, &[3, 9]);
        assert_eq!(b.latency, 0);
        assert_eq!(b.load(), 8);
    }
}
