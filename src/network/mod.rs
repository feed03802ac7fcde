//! Physical networks: rings, hypercubes and tori as graphs of their own.
//!
//! A table is written over a Cayley graph, but the machine it runs on is a
//! physical network with its own node numbering and its own ports. Keeping the
//! two apart is what lets [`embed`] *prove* that a `network:` claim holds (by an
//! explicit bijection checked edge by edge) and lets the simulator play a table
//! out on the real wiring instead of trusting the group structure.
//!
//! Every network is stored the same way, as a compressed adjacency list (CSR):
//! node `x` owns the directed links `offsets[x]..offsets[x + 1]`, one per port,
//! and `targets[l]` is the node at the far end of directed link `l`. Directed
//! link ids are therefore dense, which is what the simulator's per-step
//! occupancy bitsets need.
//!
//! Conventions (all three kinds are built by one torus generator):
//!
//! - `torus N1 N2 … Nk`: node `x = c1 + N1·(c2 + N2·(…))` has coordinates
//!   `(c1, …, ck)`; for each dimension in order its ports are `+1` then `-1`.
//!   A dimension of size 2 has a single port (the two nodes are joined by one
//!   link, not two), so every torus is a simple graph. Sizes must be ≥ 2 and at
//!   least one dimension is required.
//! - `ring N` is `torus N`. `ring 2` is accepted and means two nodes joined by
//!   one link (the same graph as `torus 2` and `hypercube 1`), by the size-2
//!   rule above; `ring 0` and `ring 1` are rejected.
//! - `hypercube D` is `torus 2 2 … 2` (D times): node bits are coordinates and
//!   port `i` flips bit `i`. `hypercube 0` is the single node with no links.
//!
//! [`PhysicalNetwork::cayley`] builds the Cayley graph itself as a network (node
//! = element index, port = link index), for simulating when no physical network
//! is declared or inferred.

mod embed;
mod kind;

pub use embed::{Embedding, NetworkMismatch, embed, infer, validate_links};
pub use kind::{NetworkKind, NetworkSpecError};

use std::collections::VecDeque;
use std::ops::Range;

use crate::group::{FiniteGroup, GenLetter};

/// The largest number of nodes a network may have.
///
/// Node and directed-link ids are `u32`; this bound keeps both far from overflow
/// and keeps per-node tables of the simulator within memory.
pub const MAX_NODES: usize = 1 << 24;

/// How a physical network was built, which decides its closed-form metric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Topology {
    /// A torus with these sides (rings and hypercubes included).
    Torus {
        /// Side lengths, one per dimension, each ≥ 2.
        sides: Vec<usize>,
    },
    /// The Cayley graph of a group on a link set; distances come from BFS.
    Cayley,
}

/// A network as an undirected simple graph stored as directed links in CSR form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PhysicalNetwork {
    label: String,
    topology: Topology,
    /// `offsets[x]..offsets[x + 1]` are the directed link ids leaving node `x`.
    offsets: Vec<u32>,
    /// `targets[l]` is the head of directed link `l`.
    targets: Vec<u32>,
    /// `sources[l]` is the tail of directed link `l`.
    sources: Vec<u32>,
}

impl PhysicalNetwork {
    /// Builds the network of this kind.
    pub fn from_kind(kind: &NetworkKind) -> Result<PhysicalNetwork, NetworkSpecError> {
        let sides = kind.torus_sides()?;
        Ok(PhysicalNetwork::torus_graph(kind.to_string(), sides))
    }

    /// The Cayley graph of `group` on `links` as a network: node `e` is element
    /// `e`, and port `i` of every node is link `links[i]` (to `e · links[i]`).
    ///
    /// No check is made here that the links are distinct or closed under
    /// inverses; [`Embedding::cayley`] does that.
    pub fn cayley(group: &FiniteGroup, links: &[GenLetter]) -> PhysicalNetwork {
        let n = group.order();
        let k = links.len();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n * k);
        let mut sources = Vec::with_capacity(n * k);
        for e in group.elements() {
            offsets.push(targets.len() as u32);
            for &s in links {
                targets.push(group.apply(e, s).0);
                sources.push(e.0);
            }
        }
        offsets.push(targets.len() as u32);
        PhysicalNetwork {
            label: "cayley graph".to_string(),
            topology: Topology::Cayley,
            offsets,
            targets,
            sources,
        }
    }

    fn torus_graph(label: String, sides: Vec<usize>) -> PhysicalNetwork {
        let n: usize = sides.iter().product();
        let degree: usize = sides.iter().map(|&s| if s == 2 { 1 } else { 2 }).sum();
        let mut offsets = Vec::with_capacity(n + 1);
        let mut targets = Vec::with_capacity(n * degree);
        let mut sources = Vec::with_capacity(n * degree);
        for x in 0..n {
            offsets.push(targets.len() as u32);
            let mut stride = 1;
            for &side in &sides {
                let c = (x / stride) % side;
                let base = x - c * stride;
                targets.push((base + ((c + 1) % side) * stride) as u32);
                sources.push(x as u32);
                if side > 2 {
                    targets.push((base + ((c + side - 1) % side) * stride) as u32);
                    sources.push(x as u32);
                }
                stride *= side;
            }
        }
        offsets.push(targets.len() as u32);
        PhysicalNetwork {
            label,
            topology: Topology::Torus { sides },
            offsets,
            targets,
            sources,
        }
    }

    /// A short name: `ring 6`, `torus 4 4`, `hypercube 3`, `cayley graph`.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// How the network was built.
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

    /// The directed link ids leaving `x`, in port order.
    pub fn links_of(&self, x: u32) -> Range<u32> {
        self.offsets[x as usize]..self.offsets[x as usize + 1]
    }

    /// The neighbours of `x`, in port order.
    pub fn neighbours(&self, x: u32) -> &[u32] {
        let r = self.links_of(x);
        &self.targets[r.start as usize..r.end as usize]
    }

    /// Number of ports of `x`.
    pub fn degree(&self, x: u32) -> usize {
        self.neighbours(x).len()
    }

    /// `(tail, head)` of a directed link.
    pub fn endpoints(&self, link: u32) -> (u32, u32) {
        (self.sources[link as usize], self.targets[link as usize])
    }

    /// The directed link from `x` to `y`, if they are adjacent.
    pub fn link_between(&self, x: u32, y: u32) -> Option<u32> {
        let r = self.links_of(x);
        r.clone()
            .zip(self.neighbours(x))
            .find(|&(_, &t)| t == y)
            .map(|(l, _)| l)
    }

    /// `true` when `x` and `y` are joined by a link.
    pub fn adjacent(&self, x: u32, y: u32) -> bool {
        self.neighbours(x).contains(&y)
    }

    /// Breadth-first distances from `x` (`u32::MAX` for unreachable nodes).
    pub fn distances_from(&self, x: u32) -> Vec<u32> {
        let mut dist = vec![u32::MAX; self.nodes()];
        dist[x as usize] = 0;
        let mut queue = VecDeque::from([x]);
        while let Some(y) = queue.pop_front() {
            let d = dist[y as usize] + 1;
            for &z in self.neighbours(y) {
                if dist[z as usize] == u32::MAX {
                    dist[z as usize] = d;
                    queue.push_back(z);
                }
            }
        }
        dist
    }

    /// Distance between two nodes: closed form on a torus (sum over dimensions
    /// of the shorter way round), breadth-first search otherwise.
    pub fn distance(&self, x: u32, y: u32) -> u32 {
        match &self.topology {
            Topology::Torus { sides } => torus_distance(sides, x as usize, y as usize),
            Topology::Cayley => self.distances_from(x)[y as usize],
        }
    }

    /// The coordinates of a torus node (dimension 1 first); `None` off a torus.
    pub fn coordinates(&self, x: u32) -> Option<Vec<usize>> {
        match &self.topology {
            Topology::Torus { sides } => {
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
            Topology::Cayley => None,
        }
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

    /// `Some(d)` when every node has degree `d`.
    pub fn regular_degree(&self) -> Option<usize> {
        let d = self.degree(0);
        (0..self.nodes() as u32)
            .all(|x| self.degree(x) == d)
            .then_some(d)
    }
}

fn torus_distance(sides: &[usize], mut x: usize, mut y: usize) -> u32 {
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

    fn net(spec: NetworkKind) -> PhysicalNetwork {
        PhysicalNetwork::from_kind(&spec).unwrap()
    }

    fn edges(n: &PhysicalNetwork) -> usize {
        n.directed_links() / 2
    }

    fn is_simple_undirected(n: &PhysicalNetwork) -> bool {
        (0..n.nodes() as u32).all(|x| {
            let nb = n.neighbours(x);
            nb.iter().all(|&y| y != x && n.adjacent(y, x))
                && nb.iter().enumerate().all(|(i, y)| !nb[..i].contains(y))
        })
    }

    #[test]
    fn ring_six_is_a_cycle() {
        let r = net(NetworkKind::Ring { nodes: 6 });
        assert_eq!(r.nodes(), 6);
        assert_eq!(edges(&r), 6);
        assert_eq!(r.neighbours(0), &[1, 5]);
        assert_eq!(r.neighbours(5), &[0, 4]);
        assert!(is_simple_undirected(&r));
        assert_eq!(r.distance(0, 3), 3);
        assert_eq!(r.distance(1, 5), 2);
    }

    #[test]
    fn ring_two_is_one_link() {
        let r = net(NetworkKind::Ring { nodes: 2 });
        assert_eq!(r.nodes(), 2);
        assert_eq!(edges(&r), 1);
        assert_eq!(r, {
            let mut t = net(NetworkKind::Torus { sides: vec![2] });
            t.label = "ring 2".into();
            t
        });
    }

    #[test]
    fn invalid_specs_are_rejected() {
        for spec in [
            NetworkKind::Ring { nodes: 0 },
            NetworkKind::Ring { nodes: 1 },
            NetworkKind::Torus { sides: vec![] },
            NetworkKind::Torus { sides: vec![4, 1] },
            NetworkKind::Hypercube { dimension: 64 },
            NetworkKind::Torus {
                sides: vec![1 << 13, 1 << 13],
            },
        ] {
            assert!(PhysicalNetwork::from_kind(&spec).is_err(), "{spec:?}");
        }
    }

    #[test]
    fn hypercube_flips_bits() {
        let h = net(NetworkKind::Hypercube { dimension: 4 });
        assert_eq!(h.nodes(), 16);
        assert_eq!(edges(&h), 32);
        for x in 0..16u32 {
            let expect: Vec<u32> = (0..4).map(|i| x ^ (1 << i)).collect();
            assert_eq!(h.neighbours(x), expect.as_slice());
        }
        assert_eq!(h.distance(0b0101, 0b1010), 4);
        assert!(is_simple_undirected(&h));
        let zero = net(NetworkKind::Hypercube { dimension: 0 });
        assert_eq!((zero.nodes(), zero.directed_links()), (1, 0));
    }

    #[test]
    fn torus_counts_and_size_two_dimensions() {
        let t = net(NetworkKind::Torus {
            sides: vec![3, 2, 5],
        });
        assert_eq!(t.nodes(), 30);
        assert_eq!(t.regular_degree(), Some(5));
        assert_eq!(edges(&t), 30 * 5 / 2);
        assert!(is_simple_undirected(&t));
        assert_eq!(t.coordinates(1 + 3 + 6 * 4), Some(vec![1, 1, 4]));
        assert_eq!(t.node_name(1 + 3 + 6 * 4), "(1,1,4)");
    }

    #[test]
    fn closed_form_distance_matches_bfs() {
        for sides in [vec![5, 4], vec![2, 3, 4], vec![7], vec![2, 2, 2, 2]] {
            let t = net(NetworkKind::Torus { sides });
            for x in 0..t.nodes() as u32 {
                let bfs = t.distances_from(x);
                for y in 0..t.nodes() as u32 {
                    assert_eq!(t.distance(x, y), bfs[y as usize]);
                }
            }
        }
    }

    #[test]
    fn link_ids_are_dense_and_consistent() {
        let t = net(NetworkKind::Torus { sides: vec![4, 3] });
        for l in 0..t.directed_links() as u32 {
            let (x, y) = t.endpoints(l);
            assert!(t.links_of(x).contains(&l));
            assert_eq!(t.link_between(x, y), Some(l));
        }
        assert_eq!(t.link_between(0, 5), None);
    }
}
