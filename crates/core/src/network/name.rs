//! Network names: every spelling a `network:` line or a `--network` flag takes.
//!
//! A [`NetworkName`] is a family and its sizes (`ring 8`, `mesh 4 4`,
//! `star 5`, `ring 4 x complete 3`). It parses from and prints to the same
//! text, knows its number of nodes before anything is built, and builds its
//! [`Graph`] with [`NetworkName::build`] (`build.rs` documents the
//! numbering and port order of each family).

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// The named fabrics (`dgx1`, `nvswitch N`, …): their words and builds.
pub(super) mod fabrics;

use super::cayley::CayleyFamily;
use super::edges::{EdgesError, peek_edges, read_edges};
use super::{Graph, MAX_DIRECTED_LINKS, MAX_NODES};

/// A network family and its sizes, as written after `network:`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum NetworkName {
    /// `ring N`: a cycle on N ≥ 2 nodes (`ring 2` is one link).
    Ring(u32),
    /// `linear N`: a path on N ≥ 1 nodes.
    Linear(u32),
    /// `torus N1 N2 …`: the product of rings, each side ≥ 2 (`kary K N` is
    /// `torus K … K`, N times).
    Torus(Vec<u32>),
    /// `mesh N1 N2 …`: the product of paths (no wrap-around), each side ≥ 1.
    Mesh(Vec<u32>),
    /// `hypercube D`: `torus 2 … 2` with D sides.
    Hypercube(u32),
    /// `complete N`: every pair of N ≥ 1 nodes joined. `nvlink N` (a node of
    /// N GPUs joined all to all, as NVLink switches join them) is read as
    /// the same network and printed as `complete N`.
    Complete(u32),
    /// `genhypercube M1 M2 …`: the product of complete graphs K_M1 × K_M2 × …
    /// (two nodes joined when they differ in exactly one coordinate).
    GenHypercube(Vec<u32>),
    /// `star N`, `pancake N`, `ccc D`, `butterfly D`: the Cayley graph of the
    /// family's group, its nodes numbered as the elements of the computed
    /// group (the identity is node 0), as `txverify net` writes it.
    Cayley {
        /// The family.
        family: CayleyFamily,
        /// Its size.
        size: u32,
    },
    /// `twisted N1 N2 [N3]`: a twisted torus of shape `2k k`, `k k 2k` or
    /// `k 2k 2k` (`twisted.rs` defines the wrap-around shifts).
    Twisted(Vec<u32>),
    /// `NET1 x NET2 x …`: the cartesian product of two or more networks (none
    /// itself a product), numbered mixed radix with the first factor fastest.
    Product(Vec<NetworkName>),
    /// `edges FILE`: the graph of an edge list (`edges.rs`), read when the
    /// network is built (and, as a factor of a product, when the product's
    /// size is checked).
    Edges(PathBuf),
    /// A named fabric (`fabrics.rs`): `dgx1`, `hub-and-spoke N`, `nvswitch N`,
    /// `cluster K B MACHINE`, built with its link capacities and switches.
    Fabric(fabrics::FabricName),
}

/// Why a network name or an adjacency list does not give a usable graph.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkError {
    /// A fabric (capacities, switches) as a factor of a product, which
    /// would lose them.
    #[error(
        "`{0}` is a fabric: a product of fabrics is not built (it would lose their capacities and switches)"
    )]
    FabricInProduct(String),
    /// The name is empty.
    #[error("no network named (expected e.g. `ring 8`, `mesh 4 4`, `hypercube 3`)")]
    Empty,
    /// The family is not one txverify builds.
    #[error(
        "unknown network family `{}` (known: ring, linear, torus, mesh, hypercube, complete, nvlink, kary, genhypercube, twisted, star, pancake, ccc, butterfly, dgx1, hub-and-spoke, nvswitch, cluster, edges FILE)",
        crate::format::echoed(.0)
    )]
    UnknownFamily(String),
    /// A Cayley family's group could not be computed.
    #[error(
        "the Cayley graph of `{}` could not be built: {reason}",
        crate::format::echoed(name)
    )]
    CayleyGroup {
        /// The network.
        name: String,
        /// What failed.
        reason: String,
    },
    /// A size is not a number.
    #[error("`{}` is not a size", crate::format::echoed(.0))]
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
    /// An edge list does not give a network (with its file, line and column).
    #[error("{0}")]
    Edges(EdgesError),
    /// `edges FILE` without a file.
    #[error("`edges` takes one file name")]
    EdgesName,
    /// A table's network must be a ring, a hypercube or a torus.
    #[error("`{}` is not a ring, a hypercube or a torus", crate::format::echoed(.0))]
    NotATorus(String),
    /// Sizes that are not a twisted-torus shape.
    #[error("`{}` is not a twisted-torus shape (valid: {shapes})", crate::format::echoed(.0), shapes = super::twisted::SHAPES)]
    TwistedShape(String),
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
            NetworkName::Twisted(s) => list(f, "twisted", s),
            NetworkName::Cayley { family, size } => write!(f, "{} {size}", family.name()),
            NetworkName::Edges(path) => write!(f, "edges {}", path.display()),
            NetworkName::Fabric(fabric) => write!(f, "{fabric}"),
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

/// The sizes after a family's name, with the family's arity checks.
struct Sizes<'a>(&'a [u32]);

impl Sizes<'_> {
    fn one(&self, family: &'static str, minimum: u32) -> Result<u32, NetworkError> {
        match self.0 {
            [n] if *n >= minimum => Ok(*n),
            [n] => Err(NetworkError::TooSmall {
                family,
                minimum,
                size: *n,
            }),
            _ => Err(NetworkError::WrongArity {
                family,
                expected: "one",
                given: self.0.len(),
            }),
        }
    }

    fn many(&self, family: &'static str, minimum: u32) -> Result<Vec<u32>, NetworkError> {
        if self.0.is_empty() {
            return Err(NetworkError::WrongArity {
                family,
                expected: "one or more",
                given: 0,
            });
        }
        if let Some(&size) = self.0.iter().find(|&&s| s < minimum) {
            return Err(NetworkError::TooSmall {
                family,
                minimum,
                size,
            });
        }
        Ok(self.0.to_vec())
    }

    fn kary(&self) -> Result<Vec<u32>, NetworkError> {
        match *self.0 {
            [k, n] if k >= 2 && (1..=64).contains(&n) => Ok(vec![k; n as usize]),
            [k, n] => Err(NetworkError::TooSmall {
                family: "kary",
                minimum: 2,
                size: k.min(n),
            }),
            _ => Err(NetworkError::WrongArity {
                family: "kary",
                expected: "two",
                given: self.0.len(),
            }),
        }
    }
}

/// A network name that does not parse, with the byte range (in the text
/// given to [`NetworkName::parse_spanned`]) of the word at fault.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{error} (at column {})", .span.start + 1)]
pub struct NameError {
    /// The bytes of the word at fault (the whole name for a size limit).
    pub span: Range<usize>,
    /// What is wrong.
    pub error: NetworkError,
}

impl FromStr for NetworkName {
    type Err = NetworkError;

    /// [`NetworkName::parse_spanned`] without the position.
    fn from_str(text: &str) -> Result<NetworkName, NetworkError> {
        NetworkName::parse_spanned(text).map_err(|e| e.error)
    }
}

/// The words of a name with their byte offsets.
fn words_of(text: &str) -> Vec<(usize, &str)> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                words.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        words.push((s, &text[s..]));
    }
    words
}

impl NetworkName {
    /// The one grammar of network names, for every reader (`network:` lines,
    /// `--network`, `net`, `compare`, `compose`): `family size…` with the
    /// family's name in any case, a product `A x B x …`, or `edges FILE`.
    /// Sizes are checked against the family's minimums and the number of
    /// nodes against [`MAX_NODES`] while parsing; an error carries the byte
    /// range of the word at fault.
    pub fn parse_spanned(text: &str) -> Result<NetworkName, NameError> {
        let words = words_of(text);
        let whole = |error| NameError {
            span: 0..text.len(),
            error,
        };
        let is_x = |w: &str| w == "x" || w == "X" || w == "×";
        let inner_x = words.len() > 2 && words[1..words.len() - 1].iter().any(|(_, w)| is_x(w));
        if inner_x {
            let mut parts = Vec::new();
            let mut from = 0;
            for (i, &(at, w)) in words.iter().enumerate() {
                let last = i + 1 == words.len();
                if is_x(w) || last {
                    let end = if last && !is_x(w) { text.len() } else { at };
                    let part = &text[from..end];
                    if part.trim().is_empty() || (last && is_x(w)) {
                        return Err(NameError {
                            span: at..at + w.len(),
                            error: NetworkError::Empty,
                        });
                    }
                    let name = NetworkName::parse_spanned(part).map_err(|e| NameError {
                        span: e.span.start + from..e.span.end + from,
                        error: e.error,
                    })?;
                    parts.push(name);
                    from = at + w.len();
                }
            }
            let name = NetworkName::Product(parts);
            name.check_size().map_err(whole)?;
            return Ok(name);
        }
        let Some(&(at, family)) = words.first() else {
            return Err(whole(NetworkError::Empty));
        };
        let family_span = at..at + family.len();
        let family = family.to_ascii_lowercase();
        if family == "edges" {
            // The path is the rest of the text, inner spaces kept.
            let path = text[family_span.end..].trim();
            return match path {
                "" => Err(NameError {
                    span: family_span,
                    error: NetworkError::EdgesName,
                }),
                path => Ok(NetworkName::Edges(PathBuf::from(path))),
            };
        }
        if fabrics::is_fabric_family(&family) {
            let all: Vec<&str> = words.iter().map(|&(_, w)| w).collect();
            return fabrics::FabricName::parse(&all)
                .map(NetworkName::Fabric)
                .map_err(whole);
        }
        let size_words = &words[1..];
        let mut sizes = Vec::with_capacity(size_words.len());
        for &(at, w) in size_words {
            let size = w.parse::<u32>().map_err(|_| NameError {
                span: at..at + w.len(),
                error: NetworkError::BadSize(w.to_string()),
            })?;
            sizes.push(size);
        }
        let at_fault = |error: NetworkError| {
            let span = match &error {
                NetworkError::UnknownFamily(_) => family_span.clone(),
                NetworkError::TooSmall { size, .. } => sizes
                    .iter()
                    .position(|s| s == size)
                    .map(|i| size_words[i].0..size_words[i].0 + size_words[i].1.len())
                    .unwrap_or(0..text.len()),
                NetworkError::WrongArity { .. } => match (size_words.first(), size_words.last()) {
                    (Some(first), Some(last)) => first.0..last.0 + last.1.len(),
                    _ => text.len()..text.len(),
                },
                _ => 0..text.len(),
            };
            NameError { span, error }
        };
        NetworkName::of_family(&family, &sizes).map_err(at_fault)
    }

    /// The network of family `family` (lower case) with `sizes`, checked
    /// against the family's minimums and the node limit.
    pub(crate) fn of_family(family: &str, sizes: &[u32]) -> Result<NetworkName, NetworkError> {
        let sizes = Sizes(sizes);
        let name = match family {
            "ring" => NetworkName::Ring(sizes.one("ring", 2)?),
            "linear" => NetworkName::Linear(sizes.one("linear", 1)?),
            "torus" => NetworkName::Torus(sizes.many("torus", 2)?),
            "mesh" => NetworkName::Mesh(sizes.many("mesh", 1)?),
            "hypercube" => NetworkName::Hypercube(sizes.one("hypercube", 0)?),
            "complete" => NetworkName::Complete(sizes.one("complete", 1)?),
            "nvlink" => NetworkName::Complete(sizes.one("nvlink", 1)?),
            "genhypercube" => NetworkName::GenHypercube(sizes.many("genhypercube", 1)?),
            "kary" => NetworkName::Torus(sizes.kary()?),
            "twisted" => NetworkName::twisted(sizes.0.to_vec())?,
            other => match CayleyFamily::from_name(other) {
                Some(family) => NetworkName::Cayley {
                    family,
                    size: sizes.one(family.arity_name(), family.minimum())?,
                },
                None => return Err(NetworkError::UnknownFamily(other.to_string())),
            },
        };
        name.check_size()?;
        Ok(name)
    }

    /// The family's name as the grammar spells it (`product` and `edges`
    /// for the two that are not families of sizes).
    pub fn family(&self) -> &'static str {
        match self {
            NetworkName::Ring(_) => "ring",
            NetworkName::Linear(_) => "linear",
            NetworkName::Torus(_) => "torus",
            NetworkName::Mesh(_) => "mesh",
            NetworkName::Hypercube(_) => "hypercube",
            NetworkName::Complete(_) => "complete",
            NetworkName::GenHypercube(_) => "genhypercube",
            NetworkName::Cayley { family, .. } => family.name(),
            NetworkName::Twisted(_) => "twisted",
            NetworkName::Product(_) => "product",
            NetworkName::Edges(_) => "edges",
            NetworkName::Fabric(_) => "fabric",
        }
    }
}

impl NetworkName {
    /// Number of nodes, or [`NetworkError::TooLarge`] (for `edges FILE`: the
    /// file is read and checked).
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
            NetworkName::Torus(s)
            | NetworkName::Mesh(s)
            | NetworkName::GenHypercube(s)
            | NetworkName::Twisted(s) => product(s),
            NetworkName::Cayley { family, size } => family.nodes(*size),
            NetworkName::Edges(path) => peek_edges(path)
                .map(|g| g.nodes())
                .map_err(NetworkError::Edges),
            NetworkName::Fabric(fabric) => fabric.nodes(),
            NetworkName::Product(parts) => {
                let mut n = 1usize;
                for part in parts {
                    // A factor's own error (an edge list's line and column) is kept.
                    n = n.checked_mul(part.nodes()?).ok_or(NetworkError::TooLarge)?;
                }
                (n <= MAX_NODES).then_some(n).ok_or(NetworkError::TooLarge)
            }
            NetworkName::Hypercube(d) => {
                if (*d as usize) < usize::BITS as usize && (1usize << d) <= MAX_NODES {
                    Ok(1 << d)
                } else {
                    Err(NetworkError::TooLarge)
                }
            }
        }
    }

    /// `twisted N1 N2 [N3]`, or why these sides are not a twisted-torus shape
    /// or make too large a network (the one check of both, for every reader).
    pub fn twisted(sides: Vec<u32>) -> Result<NetworkName, NetworkError> {
        super::twisted::shifts(&sides)?;
        let name = NetworkName::Twisted(sides);
        name.check_size()?;
        Ok(name)
    }

    pub(super) fn check_size(&self) -> Result<(), NetworkError> {
        let edges = |n: &NetworkName| matches!(n, NetworkName::Edges(_));
        match self {
            // Read when built, where its size is checked (a schedule's edge list
            // is found relative to the schedule only after the name is parsed).
            NetworkName::Edges(_) => return Ok(()),
            NetworkName::Product(parts) if parts.iter().any(edges) => return Ok(()),
            _ => {}
        }
        self.nodes()?;
        if self.directed_links_bound()? > MAX_DIRECTED_LINKS as u64 {
            return Err(NetworkError::TooLarge);
        }
        Ok(())
    }

    /// At least as many directed links as the network has, from its name
    /// alone (for `edges FILE`: the file is read): the node count times the
    /// largest degree of the family, so that the cost of what is built can be
    /// refused before it is built.
    pub fn directed_links_bound(&self) -> Result<u64, NetworkError> {
        let n = self.nodes()? as u64;
        let clique_degrees =
            |sides: &[u32]| sides.iter().map(|&m| u64::from(m.max(1) - 1)).sum::<u64>();
        Ok(match self {
            NetworkName::Complete(m) => n * clique_degrees(&[*m]),
            NetworkName::GenHypercube(sides) => n * clique_degrees(sides),
            NetworkName::Edges(path) => peek_edges(path)
                .map(|g| g.directed_links() as u64)
                .map_err(NetworkError::Edges)?,
            // At most every pair linked.
            NetworkName::Fabric(_) => n * n.saturating_sub(1),
            NetworkName::Product(parts) => {
                // Each factor's links, once per node of the other factors.
                let mut links = 0u64;
                for part in parts {
                    let per_copy = part.directed_links_bound()?;
                    let copies = n / (part.nodes()? as u64).max(1);
                    links = links.saturating_add(per_copy.saturating_mul(copies));
                }
                links
            }
            NetworkName::Hypercube(d) => n * u64::from(*d),
            // A side of 2 is one link per node and direction pair; a longer
            // side two (a mesh's ends have fewer).
            NetworkName::Ring(m) => n * ring_degree(*m),
            NetworkName::Linear(_) => 2 * n,
            NetworkName::Torus(sides) | NetworkName::Mesh(sides) | NetworkName::Twisted(sides) => {
                n * sides.iter().map(|&m| ring_degree(m)).sum::<u64>()
            }
            // Degrees: star and pancake n − 1, ccc 3, butterfly 4.
            NetworkName::Cayley { size, .. } => n * u64::from((*size).max(4)),
        })
    }

    /// The torus sides of a ring, a hypercube or a torus (`ring N` is
    /// `torus N`, `hypercube D` is `torus 2 … 2`), checked against the sizes'
    /// minimums and [`MAX_NODES`]; [`NetworkError::NotATorus`] for other
    /// families. These are the networks a table's `network:` may name: the
    /// ones the embedding search and the table simulator handle.
    pub fn torus_sides(&self) -> Result<Vec<usize>, NetworkError> {
        let sides = match self {
            NetworkName::Ring(n) => vec![Sizes(&[*n]).one("ring", 2)?],
            NetworkName::Hypercube(d) => vec![2; *d as usize],
            NetworkName::Torus(sides) => Sizes(sides).many("torus", 2)?,
            _ => return Err(NetworkError::NotATorus(self.to_string())),
        };
        self.nodes()?;
        Ok(sides.into_iter().map(|s| s as usize).collect())
    }

    /// Builds the graph, labelled with this name (`build.rs` documents each
    /// family's numbering and port order).
    pub fn build(&self) -> Result<Graph, NetworkError> {
        self.check_size()?;
        let graph = match self {
            NetworkName::Ring(n) => super::build::torus(&[*n as usize]),
            NetworkName::Linear(n) => super::build::mesh(&[*n as usize]),
            NetworkName::Torus(s) => super::build::torus(&widen(s)),
            NetworkName::Mesh(s) => super::build::mesh(&widen(s)),
            NetworkName::Hypercube(d) => super::build::torus(&vec![2; *d as usize]),
            NetworkName::Complete(n) => super::build::gen_hypercube(&[*n as usize]),
            NetworkName::GenHypercube(s) => super::build::gen_hypercube(&widen(s)),
            NetworkName::Cayley { family, size } => family.graph(*size),
            NetworkName::Edges(path) => read_edges(path).map_err(NetworkError::Edges),
            NetworkName::Fabric(fabric) => fabric.build(),
            NetworkName::Twisted(s) => super::twisted::build(s),
            NetworkName::Product(parts) => {
                let graphs = parts
                    .iter()
                    .map(NetworkName::build)
                    .collect::<Result<Vec<_>, _>>()?;
                if let Some(i) = graphs.iter().position(|g| !g.fabric().is_plain()) {
                    return Err(NetworkError::FabricInProduct(parts[i].to_string()));
                }
                super::build::product(&graphs)
            }
        }?;
        Ok(graph.with_label(self.to_string()))
    }
}

impl NetworkName {
    /// The same network with an `edges` file's relative path taken relative to
    /// `dir` (a schedule names its edge list relative to itself).
    pub fn relative_to(&self, dir: &Path) -> NetworkName {
        match self {
            NetworkName::Edges(path) if path.is_relative() => NetworkName::Edges(dir.join(path)),
            NetworkName::Product(parts) => {
                NetworkName::Product(parts.iter().map(|p| p.relative_to(dir)).collect())
            }
            other => other.clone(),
        }
    }
}

/// The degree of a ring of `m` nodes (a ring of 2 is one link).
fn ring_degree(m: u32) -> u64 {
    if m <= 2 {
        u64::from(m.saturating_sub(1))
    } else {
        2
    }
}

fn widen(sides: &[u32]) -> Vec<usize> {
    sides.iter().map(|&s| s as usize).collect()
}
