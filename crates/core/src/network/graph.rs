//! The one graph type: nodes, directed links with dense ids, ports and fast lookup.
//!
//! Every network txverify reasons about (a `network:` claim, a schedule's
//! `--network`, the Cayley graph of a group, a product) is a [`Graph`]: a
//! finite connected undirected simple graph on nodes `0 … N−1`, stored as
//! directed links in compressed form. Node `x` owns the directed links
//! `offsets[x] .. offsets[x + 1]` in *port order*, the order its builder gave
//! (the torus direction, the Cayley link index); the position of a link among
//! its tail's links is its port, the link's label. Directed link ids are dense,
//! which is what the simulator's and the replay's per-step bitsets need.
//!
//! Next to the port order every node keeps its neighbours sorted, with the id
//! of the link to each, so that [`Graph::link`] is a binary search (the replay
//! looks a link up for every send) and [`Graph::neighbours`] lists neighbours in
//! increasing order whatever the port order.
//!
//! A graph is only made by [`Graph::from_ports`] (or the builders on top of
//! it), which validates it, so holding one means the checks passed.

use rayon::prelude::*;
use std::collections::VecDeque;
use std::ops::Range;

use super::{MAX_DIRECTED_LINKS, MAX_NODES, NetworkError};

/// A graph's fabric: its links' capacities and times, its switches.
pub(super) mod fabric;

/// The distance [`Graph::distances_to`] gives a node that cannot reach the destination.
pub const UNREACHABLE: u32 = u32::MAX;

/// How a graph was built, which decides its closed-form metric and node names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topology {
    /// A torus with these sides (rings and hypercubes included): node
    /// `x = c1 + N1·(c2 + N2·(…))` has coordinates `(c1, …, ck)`.
    Torus {
        /// Side lengths, one per dimension, each ≥ 2.
        sides: Vec<usize>,
    },
    /// Any other graph; distances come from breadth-first search.
    General,
}

/// A finite connected undirected simple graph with ports (see the module notes).
///
/// Two graphs are equal when they have the same nodes and the same links,
/// whatever their port order, label or topology.
#[derive(Clone, Debug)]
pub struct Graph {
    label: String,
    topology: Topology,
    /// `offsets[x]..offsets[x + 1]` are the directed link ids leaving node `x`.
    offsets: Vec<u32>,
    /// `targets[l]` is the head of directed link `l`.
    targets: Vec<u32>,
    /// `sources[l]` is the tail of directed link `l`.
    sources: Vec<u32>,
    /// Row `x` (same offsets) holds the neighbours of `x` in increasing order.
    sorted: Vec<u32>,
    /// `by_head[i]` is the id of the link from `x` to `sorted[i]`.
    by_head: Vec<u32>,
    /// Set by the builders of Cayley graphs, tori and their products, which
    /// are vertex-transitive by construction: every node then has node 0's
    /// distances, and [`Graph::distance_sums`] searches from node 0 alone.
    vertex_transitive: bool,
    /// The node counts of the factors of a product (a torus's sides), first
    /// factor fastest; empty for a graph built as no product.
    factor_sizes: Vec<usize>,
    /// The sides of the mixed-radix numbering of a grid (torus, mesh, twisted
    /// torus), first coordinate fastest; empty for any other graph.
    radix: Vec<usize>,
    /// Capacities, switch limits, forward-only nodes and link times
    /// (`fabric.rs`); empty for the plain model of one chunk a link a step.
    pub(super) fabric: fabric::Fabric,
}

/// The sums of a graph's distances, from one function ([`Graph::distance_sums`]),
/// which every bound and report takes them from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistanceSums {
    /// Σ_{x,y} d(x, y) over all ordered pairs: the hops of a total exchange.
    pub total: u64,
    /// The status of node 0: Σ_y d(0, y).
    pub status: u64,
    /// The largest distance.
    pub diameter: u64,
}

impl PartialEq for Graph {
    fn eq(&self, other: &Graph) -> bool {
        self.offsets == other.offsets && self.sorted == other.sorted
    }
}

impl Eq for Graph {}

impl Graph {
    /// Builds a graph from one neighbour list per node, in port order, checking
    /// that every neighbour exists, no node is its own neighbour or lists one
    /// twice, every link is listed from both ends, and every node can be
    /// reached from node 0.
    pub fn from_ports(
        label: impl Into<String>,
        topology: Topology,
        lists: Vec<Vec<u32>>,
    ) -> Result<Graph, NetworkError> {
        let n = lists.len();
        if n == 0 {
            return Err(NetworkError::NoNodes);
        }
        if n > MAX_NODES {
            return Err(NetworkError::TooLarge);
        }
        let total: usize = lists.iter().map(Vec::len).sum();
        if total > MAX_DIRECTED_LINKS {
            return Err(NetworkError::TooLarge);
        }
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(total);
        for (x, list) in lists.into_iter().enumerate() {
            offsets.push(targets.len() as u32);
            for y in list {
                if y as usize >= n {
                    return Err(NetworkError::NoSuchNode {
                        node: x as u32,
                        neighbour: y,
                        nodes: n,
                    });
                }
                if y as usize == x {
                    return Err(NetworkError::SelfLoop(y));
                }
                targets.push(y);
            }
        }
        offsets.push(targets.len() as u32);
        let (sorted, by_head, sources) = sorted_rows(&offsets, &targets)?;
        let factor_sizes = match &topology {
            Topology::Torus { sides } => sides.clone(),
            Topology::General => Vec::new(),
        };
        let graph = Graph {
            label: label.into(),
            radix: factor_sizes.clone(),
            vertex_transitive: matches!(topology, Topology::Torus { .. }),
            factor_sizes,
            topology,
            offsets,
            targets,
            sources,
            sorted,
            by_head,
            fabric: Default::default(),
        };
        graph.check_undirected_and_connected()?;
        Ok(graph)
    }

    /// [`Graph::from_ports`] for a graph of no family, labelled `graph`.
    pub fn from_adjacency(lists: Vec<Vec<u32>>) -> Result<Graph, NetworkError> {
        Graph::from_ports("graph", Topology::General, lists)
    }

    fn check_undirected_and_connected(&self) -> Result<(), NetworkError> {
        for x in 0..self.nodes() as u32 {
            for &y in self.ports(x) {
                if self.link(y, x).is_none() {
                    return Err(NetworkError::NotSymmetric { from: x, to: y });
                }
            }
        }
        let dist = self.distances_to(0);
        if let Some(x) = dist.iter().position(|&d| d == UNREACHABLE) {
            return Err(NetworkError::NotConnected(x as u32));
        }
        Ok(())
    }

    /// The same graph under another label (`ring 6`, `cayley graph`).
    pub fn with_label(mut self, label: impl Into<String>) -> Graph {
        self.label = label.into();
        self
    }

    /// The same graph, known to be vertex-transitive (a Cayley graph, a
    /// product of vertex-transitive graphs): only the builders that prove it say so.
    pub(crate) fn vertex_transitive(mut self) -> Graph {
        self.vertex_transitive = true;
        self
    }

    /// The same graph as a product of factors of these node counts (first
    /// factor fastest); ignored unless they multiply to the node count.
    pub(crate) fn with_factor_sizes(mut self, sizes: Vec<usize>) -> Graph {
        if sizes.iter().product::<usize>() == self.nodes() {
            self.factor_sizes = sizes;
        }
        self
    }

    /// The same graph, its nodes numbered in mixed radix with these sides
    /// (first coordinate fastest); ignored unless they multiply to the node count.
    pub(crate) fn with_radix(mut self, sides: Vec<usize>) -> Graph {
        if sides.iter().product::<usize>() == self.nodes() {
            self.radix = sides;
        }
        self
    }

    /// The sides of the mixed-radix numbering of a grid (torus, mesh,
    /// twisted torus), first coordinate fastest; empty for any other graph.
    pub fn radix(&self) -> &[usize] {
        &self.radix
    }

    /// Whether a builder proved the graph vertex-transitive.
    pub fn is_vertex_transitive(&self) -> bool {
        self.vertex_transitive
    }

    /// The node counts of the factors of a product, first factor fastest
    /// (a torus's sides); empty for a graph built as no product.
    pub fn factor_sizes(&self) -> &[usize] {
        &self.factor_sizes
    }

    /// The sums of the distances: Σ over all ordered pairs, node 0's status and
    /// the diameter. One breadth-first search on a vertex-transitive graph
    /// (every node's status and eccentricity are node 0's), one per node otherwise.
    pub fn distance_sums(&self) -> DistanceSums {
        use rayon::prelude::*;
        let n = self.nodes() as u32;
        let reach = |x: u32| {
            let dist = self.distances_to(x);
            let status: u64 = dist.iter().map(|&d| u64::from(d)).sum();
            let eccentricity = dist.iter().copied().max().map_or(0, u64::from);
            (status, eccentricity)
        };
        let (status, eccentricity) = reach(0);
        if self.vertex_transitive {
            return DistanceSums {
                total: status * u64::from(n),
                status,
                diameter: eccentricity,
            };
        }
        let (total, diameter) = (1..n)
            .into_par_iter()
            .map(reach)
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1.max(b.1)));
        DistanceSums {
            total: total + status,
            status,
            diameter: diameter.max(eccentricity),
        }
    }

    /// A short name: `ring 6`, `torus 4 4`, `star 4`, `cayley graph`.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// How the graph was built.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of directed links (twice the number of edges).
    pub fn directed_links(&self) -> usize {
        self.targets.len()
    }

    /// The directed link ids leaving `x`, in port order (empty for a node
    /// that does not exist).
    pub fn links_of(&self, x: u32) -> Range<u32> {
        match (
            self.offsets.get(x as usize),
            self.offsets.get(x as usize + 1),
        ) {
            (Some(&a), Some(&b)) => a..b,
            _ => 0..0,
        }
    }

    /// The neighbours of `x` in port order.
    pub fn ports(&self, x: u32) -> &[u32] {
        let r = self.links_of(x);
        &self.targets[r.start as usize..r.end as usize]
    }

    /// The neighbours of `x` in increasing order (empty for a node that does not exist).
    pub fn neighbours(&self, x: u32) -> &[u32] {
        let r = self.links_of(x);
        &self.sorted[r.start as usize..r.end as usize]
    }

    /// Number of ports of `x`.
    pub fn degree(&self, x: u32) -> usize {
        self.links_of(x).len()
    }

    /// `Some(d)` when every node has degree `d`.
    pub fn regular_degree(&self) -> Option<usize> {
        let d = self.degree(0);
        (0..self.nodes() as u32)
            .all(|x| self.degree(x) == d)
            .then_some(d)
    }

    /// `(tail, head)` of a directed link.
    pub fn endpoints(&self, link: u32) -> (u32, u32) {
        (self.sources[link as usize], self.targets[link as usize])
    }

    /// The port of a directed link at its tail: its label (the torus
    /// direction, the Cayley link index).
    pub fn port(&self, link: u32) -> u32 {
        link - self.offsets[self.sources[link as usize] as usize]
    }

    /// The id (in `0 .. directed_links()`) of the directed link `from → to`, if
    /// there is one: a binary search among the neighbours of `from`.
    pub fn link(&self, from: u32, to: u32) -> Option<u32> {
        let r = self.links_of(from);
        let row = &self.sorted[r.start as usize..r.end as usize];
        let i = row.binary_search(&to).ok()?;
        Some(self.by_head[r.start as usize + i])
    }

    /// `true` when `x` and `y` are joined by a link.
    pub fn adjacent(&self, x: u32, y: u32) -> bool {
        self.link(x, y).is_some()
    }

    /// Hop distances of every node to `destination` (breadth-first search,
    /// memory one `u32` per node); [`UNREACHABLE`] for every node when
    /// `destination` does not exist. Links are undirected, so these are also
    /// the distances from `destination`.
    pub fn distances_to(&self, destination: u32) -> Vec<u32> {
        let n = self.nodes();
        let mut dist = vec![UNREACHABLE; n];
        if destination as usize >= n {
            return dist;
        }
        let mut queue = VecDeque::new();
        dist[destination as usize] = 0;
        queue.push_back(destination);
        while let Some(x) = queue.pop_front() {
            let d = dist[x as usize] + 1;
            for &y in self.ports(x) {
                if dist[y as usize] == UNREACHABLE {
                    dist[y as usize] = d;
                    queue.push_back(y);
                }
            }
        }
        dist
    }

    /// Hop distances of every node from `source`: the closed form on a torus
    /// (coordinates walked as an odometer, O(1) a node), breadth-first search
    /// otherwise. The same numbers as [`Graph::distances_to`].
    pub fn distances_from(&self, source: u32) -> Vec<u32> {
        match &self.topology {
            Topology::Torus { sides } if (source as usize) < self.nodes() => {
                torus_distances_from(sides, source as usize)
            }
            _ => self.distances_to(source),
        }
    }

    /// All pairs' distances, one row per node, or [`NetworkError::TooLarge`]
    /// when the network has more than `max_nodes` nodes (the table takes
    /// 4·N² bytes: callers say how much they can afford). Rows are computed
    /// in parallel, each by [`Graph::distances_from`].
    pub fn distance_table(&self, max_nodes: usize) -> Result<DistanceTable, NetworkError> {
        let n = self.nodes();
        if n > max_nodes || n.checked_mul(n).is_none() {
            return Err(NetworkError::TooLarge);
        }
        let rows: Vec<Vec<u32>> = (0..n as u32)
            .into_par_iter()
            .map(|x| self.distances_from(x))
            .collect();
        Ok(DistanceTable {
            nodes: n,
            table: rows.into_iter().flatten().collect(),
        })
    }

    /// All pairs' distances as a row-major `N × N` table (`table[x·N + y]`), or
    /// `None` when that would take more than `max_bytes` (four bytes per pair).
    pub fn all_distances(&self, max_bytes: usize) -> Option<Vec<u32>> {
        let n = self.nodes();
        let bytes = n.checked_mul(n)?.checked_mul(4)?;
        if bytes > max_bytes {
            return None;
        }
        self.distance_table(n).ok().map(DistanceTable::into_vec)
    }

    /// Distance between two nodes: closed form on a torus (sum over dimensions
    /// of the shorter way round), breadth-first search otherwise.
    pub fn distance(&self, x: u32, y: u32) -> u32 {
        match &self.topology {
            Topology::Torus { sides } => torus_distance(sides, x as usize, y as usize),
            Topology::General => self.distances_to(x)[y as usize],
        }
    }

    /// The coordinates of a torus node (dimension 1 first); `None` off a torus.
    pub fn coordinates(&self, x: u32) -> Option<Vec<usize>> {
        let Topology::Torus { sides } = &self.topology else {
            return None;
        };
        let mut rest = x as usize;
        Some(
            sides
                .iter()
                .map(|&s| {
                    let c = rest % s;
                    rest /= s;
                    c
                })
                .collect(),
        )
    }

    /// A readable node name: coordinates `(1,0,3)` on a torus, the index otherwise.
    pub fn node_name(&self, x: u32) -> String {
        match self.coordinates(x) {
            Some(c) if c.len() > 1 => {
                let parts: Vec<String> = c.iter().map(|v| v.to_string()).collect();
                format!("({})", parts.join(","))
            }
            _ => x.to_string(),
        }
    }
}

/// Per row: the neighbours sorted, the link id of each, and every link's tail;
/// a neighbour listed twice is an error.
type Rows = (Vec<u32>, Vec<u32>, Vec<u32>);

fn sorted_rows(offsets: &[u32], targets: &[u32]) -> Result<Rows, NetworkError> {
    let mut sorted = Vec::with_capacity(targets.len());
    let mut by_head = Vec::with_capacity(targets.len());
    let mut sources = Vec::with_capacity(targets.len());
    let mut row: Vec<(u32, u32)> = Vec::new();
    for (x, w) in offsets.windows(2).enumerate() {
        row.clear();
        row.extend((w[0]..w[1]).map(|l| (targets[l as usize], l)));
        row.sort_unstable();
        if let Some(p) = row.windows(2).find(|p| p[0].0 == p[1].0) {
            return Err(NetworkError::RepeatedLink {
                node: x as u32,
                neighbour: p[0].0,
            });
        }
        sorted.extend(row.iter().map(|&(y, _)| y));
        by_head.extend(row.iter().map(|&(_, l)| l));
        sources.extend(std::iter::repeat_n(x as u32, row.len()));
    }
    Ok((sorted, by_head, sources))
}

/// All pairs' hop distances of a graph ([`Graph::distance_table`]): row `x`
/// holds the distances from `x` (links are undirected, so also to `x`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DistanceTable {
    nodes: usize,
    /// `table[x·N + y]`.
    table: Vec<u32>,
}

impl DistanceTable {
    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// The distances from `x` to every node.
    pub fn row(&self, x: u32) -> &[u32] {
        &self.table[x as usize * self.nodes..][..self.nodes]
    }

    /// The distance between `x` and `y`.
    pub fn get(&self, x: u32, y: u32) -> u32 {
        self.table[x as usize * self.nodes + y as usize]
    }

    /// The largest distance.
    pub fn diameter(&self) -> u32 {
        self.table.iter().copied().max().unwrap_or(0)
    }

    /// The row-major table, `table[x·N + y]`.
    pub fn into_vec(self) -> Vec<u32> {
        self.table
    }
}

/// The distances on a torus with `sides` from node `x` to every node, walking
/// the coordinates as an odometer so each node costs O(1).
pub fn torus_distances_from(sides: &[usize], x: usize) -> Vec<u32> {
    let mut rest = x;
    let tables: Vec<Vec<u32>> = sides
        .iter()
        .map(|&s| {
            let c = rest % s;
            rest /= s;
            (0..s)
                .map(|v| {
                    let d = c.abs_diff(v);
                    d.min(s - d) as u32
                })
                .collect()
        })
        .collect();
    let n: usize = sides.iter().product();
    let mut out = Vec::with_capacity(n);
    let mut coords = vec![0usize; sides.len()];
    let mut sum: u32 = tables.iter().map(|t| t[0]).sum();
    for _ in 0..n {
        out.push(sum);
        for (i, t) in tables.iter().enumerate() {
            sum -= t[coords[i]];
            coords[i] += 1;
            if coords[i] == sides[i] {
                coords[i] = 0;
                sum += t[0];
            } else {
                sum += t[coords[i]];
                break;
            }
        }
    }
    out
}

/// The distance between nodes `x` and `y` of a torus with `sides`: the sum
/// over dimensions of the shorter way round.
pub fn torus_distance(sides: &[usize], mut x: usize, mut y: usize) -> u32 {
    let mut d = 0;
    for &s in sides {
        let (a, b) = (x % s, y % s);
        x /= s;
        y /= s;
        let diff = a.abs_diff(b);
        d += diff.min(s - diff);
    }
    d as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_lists_are_validated() {
        let g = |l: Vec<Vec<u32>>| Graph::from_adjacency(l);
        assert_eq!(g(vec![]), Err(NetworkError::NoNodes));
        assert_eq!(g(vec![vec![0]]), Err(NetworkError::SelfLoop(0)));
        assert!(matches!(
            g(vec![vec![2], vec![0]]),
            Err(NetworkError::NoSuchNode { .. })
        ));
        assert_eq!(
            g(vec![vec![1], vec![]]),
            Err(NetworkError::NotSymmetric { from: 0, to: 1 })
        );
        assert!(matches!(
            g(vec![vec![1, 1], vec![0]]),
            Err(NetworkError::RepeatedLink { .. })
        ));
        assert_eq!(
            g(vec![vec![1], vec![0], vec![]]),
            Err(NetworkError::NotConnected(2))
        );
        let ok = g(vec![vec![2, 1], vec![0], vec![0]]).unwrap();
        assert_eq!(ok.neighbours(0), &[1, 2]);
        assert_eq!(ok.ports(0), &[2, 1]);
        assert_eq!(ok.link(0, 2), Some(0));
        assert_eq!(ok.link(0, 1), Some(1));
        assert_eq!(ok.port(1), 1);
        assert_eq!(ok.link(1, 2), None);
        assert_eq!(ok.link(7, 2), None);
        assert!(ok.neighbours(7).is_empty());
    }

    #[test]
    fn distance_tables_agree_with_searches_and_refuse_large_networks() {
        for name in ["torus 3 4", "ring 5", "mesh 3 2", "star 4", "hypercube 3"] {
            let g: Graph = name
                .parse::<super::super::NetworkName>()
                .unwrap()
                .build()
                .unwrap();
            let table = g.distance_table(1 << 10).unwrap();
            for x in 0..g.nodes() as u32 {
                assert_eq!(
                    table.row(x),
                    g.distances_to(x).as_slice(),
                    "{name} from {x}"
                );
                assert_eq!(g.distances_from(x), g.distances_to(x), "{name} from {x}");
            }
            assert_eq!(table.get(0, 0), 0);
            assert_eq!(g.distance_table(g.nodes() - 1), Err(NetworkError::TooLarge));
        }
        let torus: Graph = "torus 4 5"
            .parse::<super::super::NetworkName>()
            .unwrap()
            .build()
            .unwrap();
        assert_eq!(torus.distance_table(64).unwrap().diameter(), 4);
        assert_eq!(torus_distance(&[4, 5], 0, 19), 2);
    }

    #[test]
    fn link_ids_are_dense_and_consistent() {
        let g = Graph::from_adjacency(vec![vec![1, 3], vec![2, 0], vec![3, 1], vec![0, 2]]);
        let g = g.unwrap();
        for l in 0..g.directed_links() as u32 {
            let (x, y) = g.endpoints(l);
            assert!(g.links_of(x).contains(&l));
            assert_eq!(g.link(x, y), Some(l));
            assert_eq!(g.ports(x)[g.port(l) as usize], y);
        }
        assert_eq!(g.link(0, 2), None);
    }
}
