//! Physical networks of schedules: named graph families and explicit adjacency lists.
//!
//! A schedule is replayed on a finite connected undirected graph with nodes
//! `0 … N−1`. This module names the families a schedule header may give
//! (`ring`, `linear`, `torus`, `mesh`, `hypercube`, `complete`), fixes how each
//! numbers its nodes, and builds the graph in compressed form so that a directed
//! link has a dense id (the replay keeps one bit per directed link per step).
//! A graph that is not in a family (for instance the Cayley graph of a `.tbl`
//! header) comes in through [`Graph::from_adjacency`], which validates it.
//!
//! Numbering: the grid families use mixed radix with the first coordinate
//! fastest, node `x = c1 + N1·(c2 + N2·(…))`; a hypercube is `torus 2 2 … 2`, so
//! node bits are coordinates. Two nodes of a grid are joined when they differ
//! by one in exactly one coordinate (modulo the side for `ring` and `torus`,
//! not for `linear` and `mesh`). `complete N` joins every pair.

use std::collections::VecDeque;
use std::fmt;
use std::str::FromStr;

/// The largest number of nodes a schedule's network may have.
pub const MAX_NODES: usize = 1 << 24;

/// The largest number of directed links a schedule's network may have.
pub const MAX_DIRECTED_LINKS: usize = 1 << 30;

/// A network family and its sizes, as written after `network:`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum NetworkName {
    /// `ring N`: a cycle on N ≥ 2 nodes (`ring 2` is one link).
    Ring(u32),
    /// `linear N`: a path on N ≥ 1 nodes.
    Linear(u32),
    /// `torus N1 N2 …`: the product of rings, each side ≥ 2.
    Torus(Vec<u32>),
    /// `mesh N1 N2 …`: the product of paths (no wrap-around), each side ≥ 1.
    Mesh(Vec<u32>),
    /// `hypercube D`: `torus 2 … 2` with D sides.
    Hypercube(u32),
    /// `complete N`: every pair of N ≥ 1 nodes joined.
    Complete(u32),
    /// `genhypercube M1 M2 …`: the product of complete graphs K_M1 × K_M2 × …
    /// (two nodes joined when they differ in exactly one coordinate).
    GenHypercube(Vec<u32>),
    /// `star N`, `pancake N`, `ccc D`, `butterfly D`: the Cayley graph of the
    /// header `txverify net` writes for the family, its nodes numbered as the
    /// elements of the computed group (the identity is node 0).
    Cayley {
        /// The family, as `txverify net` names it.
        family: String,
        /// Its size.
        size: u32,
    },
    /// `NET1 x NET2 x …`: the cartesian product of two or more networks (none
    /// itself a product), numbered mixed radix with the first factor fastest.
    Product(Vec<NetworkName>),
}

/// Why a network name or an adjacency list does not give a usable graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkError {
    /// The name is empty.
    #[error("no network named (expected e.g. `ring 8`, `mesh 4 4`, `hypercube 3`)")]
    Empty,
    /// The family is not one txverify builds.
    #[error(
        "unknown network family `{0}` (known: ring, linear, torus, mesh, hypercube, complete, kary, genhypercube, star, pancake, ccc, butterfly)"
    )]
    UnknownFamily(String),
    /// A Cayley family's header did not give a group and links.
    #[error("the Cayley graph of `{0}` could not be built from its header")]
    CayleyHeader(String),
    /// A size is not a number.
    #[error("`{0}` is not a size")]
    BadSize(String),
    /// The family takes a different number of sizes.
    #[error("`{family}` takes {expected}, not {given} numbers")]
    WrongArity {
        /// The family.
        family: &'static str,
        /// What it takes, in words.
        expected: &'static str,
        /// How many were given.
        given: usize,
    },
    /// A size is below the family's minimum.
    #[error("`{family}` needs sizes of at least {minimum}, not {size}")]
    TooSmall {
        /// The family.
        family: &'static str,
        /// The smallest size allowed.
        minimum: u32,
        /// The size given.
        size: u32,
    },
    /// More nodes or links than [`MAX_NODES`] / [`MAX_DIRECTED_LINKS`].
    #[error(
        "the network is too large (at most {MAX_NODES} nodes and {MAX_DIRECTED_LINKS} directed links)"
    )]
    TooLarge,
    /// An adjacency list names a node that does not exist.
    #[error("node {node} lists neighbour {neighbour}, but there are only {nodes} nodes")]
    NoSuchNode {
        /// The node whose list is wrong.
        node: u32,
        /// The neighbour named.
        neighbour: u32,
        /// Number of nodes.
        nodes: usize,
    },
    /// An adjacency list joins a node to itself.
    #[error("node {0} is its own neighbour")]
    SelfLoop(u32),
    /// An adjacency list names the same neighbour twice.
    #[error("node {node} lists neighbour {neighbour} twice")]
    RepeatedLink {
        /// The node whose list is wrong.
        node: u32,
        /// The repeated neighbour.
        neighbour: u32,
    },
    /// `a` lists `b` but `b` does not list `a`.
    #[error("node {from} lists {to} but node {to} does not list {from}")]
    NotSymmetric {
        /// The node that lists the link.
        from: u32,
        /// The node that does not list it back.
        to: u32,
    },
    /// Some node cannot be reached from node 0.
    #[error("the network is not connected: node {0} cannot be reached from node 0")]
    NotConnected(u32),
    /// No nodes at all.
    #[error("the network has no nodes")]
    NoNodes,
}

impl fmt::Display for NetworkName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |f: &mut fmt::Formatter<'_>, family: &str, sides: &[u32]| {
            write!(f, "{family}")?;
            for s in sides {
                write!(f, " {s}")?;
            }
            Ok(())
        };
        match self {
            NetworkName::Ring(n) => write!(f, "ring {n}"),
            NetworkName::Linear(n) => write!(f, "linear {n}"),
            NetworkName::Torus(s) => list(f, "torus", s),
            NetworkName::Mesh(s) => list(f, "mesh", s),
            NetworkName::Hypercube(d) => write!(f, "hypercube {d}"),
            NetworkName::Complete(n) => write!(f, "complete {n}"),
            NetworkName::GenHypercube(s) => list(f, "genhypercube", s),
            NetworkName::Cayley { family, size } => write!(f, "{family} {size}"),
            NetworkName::Product(parts) => {
                for (i, part) in parts.iter().enumerate() {
                    if i > 0 {
                        write!(f, " x ")?;
                    }
                    write!(f, "{part}")?;
                }
                Ok(())
            }
        }
    }
}

impl FromStr for NetworkName {
    type Err = NetworkError;

    /// Reads `family size…` (whitespace between words), checking the sizes'
    /// minimums and the number of nodes.
    fn from_str(text: &str) -> Result<NetworkName, NetworkError> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let inner_x = words.len() > 2 && words[1..words.len() - 1].contains(&"x");
        if inner_x && words.first() != Some(&"x") && words.last() != Some(&"x") {
            let parts = words
                .split(|&w| w == "x")
                .map(|words| words.join(" ").parse::<NetworkName>())
                .collect::<Result<Vec<_>, _>>()?;
            let name = NetworkName::Product(parts);
            name.check_size()?;
            return Ok(name);
        }
        let mut words = text.split_whitespace();
        let family = words.next().ok_or(NetworkError::Empty)?;
        let sizes = words
            .map(|w| {
                w.parse::<u32>()
                    .map_err(|_| NetworkError::BadSize(w.to_string()))
            })
            .collect::<Result<Vec<u32>, _>>()?;
        let one = |family: &'static str, minimum: u32| -> Result<u32, NetworkError> {
            match sizes[..] {
                [n] if n >= minimum => Ok(n),
                [n] => Err(NetworkError::TooSmall {
                    family,
                    minimum,
                    size: n,
                }),
                _ => Err(NetworkError::WrongArity {
                    family,
                    expected: "one",
                    given: sizes.len(),
                }),
            }
        };
        let many = |family: &'static str, minimum: u32| -> Result<Vec<u32>, NetworkError> {
            if sizes.is_empty() {
                return Err(NetworkError::WrongArity {
                    family,
                    expected: "one or more",
                    given: 0,
                });
            }
            if let Some(&size) = sizes.iter().find(|&&s| s < minimum) {
                return Err(NetworkError::TooSmall {
                    family,
                    minimum,
                    size,
                });
            }
            Ok(sizes.clone())
        };
        let name = match family {
            "ring" => NetworkName::Ring(one("ring", 2)?),
            "linear" => NetworkName::Linear(one("linear", 1)?),
            "torus" => NetworkName::Torus(many("torus", 2)?),
            "mesh" => NetworkName::Mesh(many("mesh", 1)?),
            "hypercube" => NetworkName::Hypercube(one("hypercube", 0)?),
            "complete" => NetworkName::Complete(one("complete", 1)?),
            "genhypercube" => NetworkName::GenHypercube(many("genhypercube", 1)?),
            "kary" => match sizes[..] {
                [k, n] if k >= 2 && (1..=64).contains(&n) => {
                    NetworkName::Torus(vec![k; n as usize])
                }
                [_, _] => {
                    return Err(NetworkError::TooSmall {
                        family: "kary",
                        minimum: 2,
                        size: sizes[0].min(sizes[1]),
                    });
                }
                _ => {
                    return Err(NetworkError::WrongArity {
                        family: "kary",
                        expected: "two",
                        given: sizes.len(),
                    });
                }
            },
            "star" | "pancake" => NetworkName::Cayley {
                family: family.to_string(),
                size: one("star or pancake", 2)?,
            },
            "ccc" | "butterfly" => NetworkName::Cayley {
                family: family.to_string(),
                size: one("ccc or butterfly", 3)?,
            },
            other => return Err(NetworkError::UnknownFamily(other.to_string())),
        };
        name.check_size()?;
        Ok(name)
    }
}

impl NetworkName {
    /// Number of nodes, or [`NetworkError::TooLarge`].
    pub fn nodes(&self) -> Result<usize, NetworkError> {
        let product = |sides: &[u32]| {
            sides
                .iter()
                .try_fold(1usize, |acc, &s| acc.checked_mul(s as usize))
                .filter(|&n| n <= MAX_NODES)
                .ok_or(NetworkError::TooLarge)
        };
        match self {
            NetworkName::Ring(n) | NetworkName::Linear(n) | NetworkName::Complete(n) => {
                product(&[*n])
            }
            NetworkName::Torus(s) | NetworkName::Mesh(s) | NetworkName::GenHypercube(s) => {
                product(s)
            }
            NetworkName::Cayley { family, size } => {
                let order = crate::families::Family::new(family, &[u64::from(*size)])
                    .map_err(|_| NetworkError::TooLarge)?
                    .order();
                usize::try_from(order)
                    .ok()
                    .filter(|&n| n <= MAX_NODES)
                    .ok_or(NetworkError::TooLarge)
            }
            NetworkName::Product(parts) => parts
                .iter()
                .try_fold(1usize, |acc, part| acc.checked_mul(part.nodes().ok()?))
                .filter(|&n| n <= MAX_NODES)
                .ok_or(NetworkError::TooLarge),
            NetworkName::Hypercube(d) => {
                if (*d as usize) < usize::BITS as usize && (1usize << d) <= MAX_NODES {
                    Ok(1 << d)
                } else {
                    Err(NetworkError::TooLarge)
                }
            }
        }
    }

    fn check_size(&self) -> Result<(), NetworkError> {
        let n = self.nodes()?;
        if let NetworkName::Complete(_) = self
            && n.saturating_mul(n.saturating_sub(1)) > MAX_DIRECTED_LINKS
        {
            return Err(NetworkError::TooLarge);
        }
        Ok(())
    }

    /// Builds the graph with the numbering of the module documentation.
    pub fn build(&self) -> Result<Graph, NetworkError> {
        self.check_size()?;
        let grid = |sides: &[u32], wrap: bool| {
            let n: usize = sides.iter().map(|&s| s as usize).product();
            let mut lists = vec![Vec::new(); n];
            for (x, list) in lists.iter_mut().enumerate() {
                let mut stride = 1usize;
                for &side in sides {
                    let side = side as usize;
                    let c = (x / stride) % side;
                    let base = x - c * stride;
                    let mut add = |c2: usize| {
                        let y = (base + c2 * stride) as u32;
                        if y as usize != x && !list.contains(&y) {
                            list.push(y);
                        }
                    };
                    if c + 1 < side {
                        add(c + 1);
                    } else if wrap {
                        add(0);
                    }
                    if c > 0 {
                        add(c - 1);
                    } else if wrap {
                        add(side - 1);
                    }
                    stride *= side;
                }
            }
            lists
        };
        let lists = match self {
            NetworkName::Ring(n) => grid(&[*n], true),
            NetworkName::Linear(n) => grid(&[*n], false),
            NetworkName::Torus(s) => grid(s, true),
            NetworkName::Mesh(s) => grid(s, false),
            NetworkName::Hypercube(d) => grid(&vec![2; *d as usize], true),
            NetworkName::Complete(n) => {
                let n = *n;
                (0..n)
                    .map(|x| (0..n).filter(|&y| y != x).collect())
                    .collect()
            }
            NetworkName::GenHypercube(sides) => complete_product(sides),
            NetworkName::Cayley { family, size } => return cayley(family, *size),
            NetworkName::Product(parts) => {
                let graphs = parts
                    .iter()
                    .map(NetworkName::build)
                    .collect::<Result<Vec<_>, _>>()?;
                product_of(&graphs)
            }
        };
        Graph::from_adjacency(lists)
    }
}

/// A finite connected undirected simple graph on nodes `0 … N−1`, stored as
/// directed links in compressed form: node `x` owns the directed links
/// `offsets[x] .. offsets[x + 1]`, sorted by head.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Graph {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Graph {
    /// Builds a graph from one neighbour list per node, checking that every
    /// neighbour exists, no node is its own neighbour or lists one twice, every
    /// link is listed from both ends, and every node can be reached from node 0.
    pub fn from_adjacency(lists: Vec<Vec<u32>>) -> Result<Graph, NetworkError> {
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
            let start = targets.len();
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
            let row = &mut targets[start..];
            row.sort_unstable();
            if let Some(w) = row.windows(2).find(|w| w[0] == w[1]) {
                return Err(NetworkError::RepeatedLink {
                    node: x as u32,
                    neighbour: w[0],
                });
            }
        }
        offsets.push(targets.len() as u32);
        let graph = Graph { offsets, targets };
        for x in 0..n as u32 {
            for &y in graph.neighbours(x) {
                if graph.link(y, x).is_none() {
                    return Err(NetworkError::NotSymmetric { from: x, to: y });
                }
            }
        }
        let dist = graph.distances_to(0);
        if let Some(x) = dist.iter().position(|&d| d == UNREACHABLE) {
            return Err(NetworkError::NotConnected(x as u32));
        }
        Ok(graph)
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of directed links (twice the number of edges).
    pub fn directed_links(&self) -> usize {
        self.targets.len()
    }

    /// The neighbours of `x` in increasing order (empty for a node that does not exist).
    pub fn neighbours(&self, x: u32) -> &[u32] {
        match (
            self.offsets.get(x as usize),
            self.offsets.get(x as usize + 1),
        ) {
            (Some(&a), Some(&b)) => &self.targets[a as usize..b as usize],
            _ => &[],
        }
    }

    /// The id (in `0 .. directed_links()`) of the directed link `from → to`, if
    /// there is one.
    pub fn link(&self, from: u32, to: u32) -> Option<u32> {
        let start = *self.offsets.get(from as usize)?;
        let row = self.neighbours(from);
        row.binary_search(&to).ok().map(|i| start + i as u32)
    }

    /// Hop distances of every node to `destination` (breadth-first search,
    /// memory one `u32` per node); [`UNREACHABLE`] for nodes that cannot reach
    /// it (never, in a validated graph) and for all nodes when `destination`
    /// does not exist.
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
            for &y in self.neighbours(x) {
                if dist[y as usize] == UNREACHABLE {
                    dist[y as usize] = d;
                    queue.push_back(y);
                }
            }
        }
        dist
    }

    /// All pairs' distances as a row-major `N × N` table (`table[x·N + y]`), or
    /// `None` when that would take more than `max_bytes` (four bytes per pair).
    pub fn all_distances(&self, max_bytes: usize) -> Option<Vec<u32>> {
        let n = self.nodes();
        let bytes = n.checked_mul(n)?.checked_mul(4)?;
        if bytes > max_bytes {
            return None;
        }
        let mut table = Vec::with_capacity(n * n);
        for x in 0..n as u32 {
            table.extend(self.distances_to(x));
        }
        Some(table)
    }
}

/// The distance [`Graph::distances_to`] gives a node that cannot reach the destination.
pub const UNREACHABLE: u32 = u32::MAX;

/// G1 × G2 × …: nodes mixed radix with the first factor fastest, joined when
/// they differ in one coordinate and are joined there.
fn product_of(graphs: &[Graph]) -> Vec<Vec<u32>> {
    let n: usize = graphs.iter().map(Graph::nodes).product();
    (0..n)
        .map(|x| {
            let mut list = Vec::new();
            let mut stride = 1usize;
            for graph in graphs {
                let side = graph.nodes();
                let c = (x / stride) % side;
                let base = x - c * stride;
                list.extend(
                    graph
                        .neighbours(c as u32)
                        .iter()
                        .map(|&c2| (base + c2 as usize * stride) as u32),
                );
                stride *= side;
            }
            list.sort_unstable();
            list
        })
        .collect()
}

/// K_M1 × K_M2 × …, mixed radix, first coordinate fastest.
fn complete_product(sides: &[u32]) -> Vec<Vec<u32>> {
    let n: usize = sides.iter().map(|&s| s as usize).product();
    (0..n)
        .map(|x| {
            let mut list = Vec::new();
            let mut stride = 1usize;
            for &side in sides {
                let side = side as usize;
                let c = (x / stride) % side;
                let base = x - c * stride;
                list.extend(
                    (0..side)
                        .filter(|&c2| c2 != c)
                        .map(|c2| (base + c2 * stride) as u32),
                );
                stride *= side;
            }
            list
        })
        .collect()
}

/// The Cayley graph of the family's `txverify net` header.
fn cayley(family: &str, size: u32) -> Result<Graph, NetworkError> {
    let fail = || NetworkError::CayleyHeader(format!("{family} {size}"));
    let header = crate::families::Family::new(family, &[u64::from(size)])
        .map_err(|_| fail())?
        .header();
    let loaded = crate::load::load(&header, &Default::default()).map_err(|_| fail())?;
    super::cayley::cayley_graph(loaded.instance.group(), loaded.instance.links())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn products_written_with_x_are_the_cartesian_product() {
        // torus 4 3 written as a product of rings is the same graph.
        let product: NetworkName = "ring 4 x ring 3".parse().unwrap();
        assert_eq!(product.to_string(), "ring 4 x ring 3");
        assert_eq!(product.build().unwrap(), build("torus 4 3"));
        assert_eq!(
            "linear 3 x mesh 2 2"
                .parse::<NetworkName>()
                .unwrap()
                .build()
                .unwrap(),
            build("mesh 3 2 2")
        );
        let mixed: NetworkName = "star 3 x linear 2".parse().unwrap();
        assert_eq!(mixed.nodes().unwrap(), 12);
        assert!("ring 4 x".parse::<NetworkName>().is_err());
        assert!("x ring 4".parse::<NetworkName>().is_err());
    }

    #[test]
    fn families_have_the_documented_links() {
        let ring = build("ring 5");
        assert_eq!(ring.neighbours(0), &[1, 4]);
        assert_eq!(ring.directed_links(), 10);
        let two = build("ring 2");
        assert_eq!(two.neighbours(0), &[1]);
        let line = build("linear 3");
        assert_eq!(line.neighbours(0), &[1]);
        assert_eq!(line.neighbours(1), &[0, 2]);
        // mesh 3 2: node x = c1 + 3·c2.
        let mesh = build("mesh 3 2");
        assert_eq!(mesh.neighbours(0), &[1, 3]);
        assert_eq!(mesh.neighbours(4), &[1, 3, 5]);
        let torus = build("torus 3 3");
        assert_eq!(torus.neighbours(0), &[1, 2, 3, 6]);
        let cube = build("hypercube 3");
        assert_eq!(cube.neighbours(5), &[1, 4, 7]);
        assert_eq!(build("hypercube 0").nodes(), 1);
        let k4 = build("complete 4");
        assert_eq!(k4.neighbours(2), &[0, 1, 3]);
        assert_eq!(build("linear 1").directed_links(), 0);
    }

    #[test]
    fn names_print_as_they_parse() {
        for text in [
            "ring 4",
            "linear 7",
            "torus 4 5",
            "mesh 2 3 4",
            "hypercube 3",
            "complete 6",
        ] {
            assert_eq!(text.parse::<NetworkName>().unwrap().to_string(), text);
        }
        assert_eq!(
            "  mesh  2   2 ".parse::<NetworkName>().unwrap().to_string(),
            "mesh 2 2"
        );
    }

    #[test]
    fn bad_names_are_typed_errors() {
        let err = |s: &str| s.parse::<NetworkName>().unwrap_err();
        assert_eq!(err(""), NetworkError::Empty);
        assert!(matches!(err("moebius 4"), NetworkError::UnknownFamily(_)));
        assert!(matches!(err("ring x"), NetworkError::BadSize(_)));
        assert!(matches!(err("ring 1"), NetworkError::TooSmall { .. }));
        assert!(matches!(err("ring 3 3"), NetworkError::WrongArity { .. }));
        assert!(matches!(err("torus"), NetworkError::WrongArity { .. }));
        assert!(matches!(err("hypercube 40"), NetworkError::TooLarge));
        assert!(matches!(err("mesh 65536 65536"), NetworkError::TooLarge));
        assert!(matches!(err("complete 100000"), NetworkError::TooLarge));
    }

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
        assert_eq!(ok.link(0, 2), Some(1));
        assert_eq!(ok.link(1, 2), None);
        assert_eq!(ok.link(7, 2), None);
    }

    #[test]
    fn distances_agree_with_the_closed_forms() {
        let ring = build("ring 7");
        let table = ring.all_distances(1 << 20).unwrap();
        for x in 0..7usize {
            for y in 0..7usize {
                let d = (x + 7 - y) % 7;
                assert_eq!(table[x * 7 + y] as usize, d.min(7 - d));
            }
        }
        let mesh = build("mesh 3 4");
        let to = mesh.distances_to(11);
        for (x, &d) in to.iter().enumerate() {
            assert_eq!(d as usize, (2 - x % 3) + (3 - x / 3));
        }
        assert!(ring.all_distances(10).is_none());
    }
}
