//! Isomorphisms from a Cayley graph onto a physical network.
//!
//! A `network:` claim is accepted only with a witness: an explicit bijection φ
//! from group elements to physical nodes, checked edge by edge by
//! [`Embedding::new`] with no reference to how it was found. The search that
//! finds φ is therefore free to be clever; a bug in it can only cause a wrong
//! "no isomorphism", never a wrong "yes".
//!
//! The search anchors the identity at node 0 (every torus is vertex-transitive,
//! so this loses nothing), then maps the identity's neighbours — the links —
//! onto the ports of node 0 *up to the symmetries of the torus fixing node 0*:
//! the smaller link of a pair goes to the `+` port of its dimension (a sign flip
//! maps any solution to one of that form) and equal-sided dimensions take their
//! pairs in increasing order (a coordinate swap does the same). A hypercube thus
//! has one first-layer choice instead of D!. From there it extends φ in
//! breadth-first order, trying the neighbours of the parent's image and keeping
//! only candidates at the same distance from the anchor whose already-mapped
//! neighbours are exactly the images of the vertex's already-mapped neighbours
//! (so the mapped parts always induce identical subgraphs). On tori this is
//! forced after the first layer, which makes 32×32×32 a linear-time walk; a
//! step budget turns pathological inputs into an explicit "search gave up".

use crate::group::{Elem, FiniteGroup, GenLetter};

use super::{Graph, NetworkError, NetworkName};

mod isomorphism;

use isomorphism::find_isomorphism;

use super::NONE;

/// Why a Cayley graph is not (or could not be shown to be) the declared network.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkMismatch {
    /// The `network:` value itself is not a network.
    #[error("invalid network: {0}")]
    Spec(#[from] NetworkError),
    /// The link set does not define a connected undirected Cayley graph.
    #[error("invalid link set: {0}")]
    Links(String),
    /// The group and the network have different sizes.
    #[error("the group has {group} elements but {network} has {nodes} nodes")]
    NodeCount {
        /// Order of the group.
        group: usize,
        /// The network's label.
        network: String,
        /// Number of nodes of the network.
        nodes: usize,
    },
    /// Every node has `links` neighbours in the Cayley graph, not `degree`.
    #[error("the Cayley graph has degree {links} but {network} has degree {degree}")]
    Degree {
        /// Number of links.
        links: usize,
        /// The network's label.
        network: String,
        /// Degree of the network.
        degree: usize,
    },
    /// The number of nodes at some distance from a node differs.
    #[error(
        "{group} elements lie at distance {distance} from the identity, but {nodes} nodes of {network} lie at distance {distance} from a node"
    )]
    DistanceProfile {
        /// The first distance at which the counts differ.
        distance: u32,
        /// Elements of the group at that distance from the identity.
        group: usize,
        /// The network's label.
        network: String,
        /// Nodes of the network at that distance from node 0.
        nodes: usize,
    },
    /// The exhaustive search found no isomorphism.
    #[error("the Cayley graph is not isomorphic to {network}")]
    NoIsomorphism {
        /// The network's label.
        network: String,
    },
    /// The search ran out of steps before deciding.
    #[error("gave up looking for an isomorphism onto {network} after {steps} steps")]
    SearchLimit {
        /// The network's label.
        network: String,
        /// Steps taken.
        steps: u64,
    },
    /// A proposed map failed verification.
    #[error("not an isomorphism: {0}")]
    NotAnIsomorphism(String),
}

/// A verified isomorphism φ from a Cayley graph onto a physical network.
///
/// Only [`Embedding::new`] (which verifies) and the functions built on it
/// construct one, so holding an `Embedding` means the check passed.
#[derive(Clone, Debug)]
pub struct Embedding {
    network: Graph,
    spec: Option<NetworkName>,
    node_of: Vec<u32>,
    elem_of: Vec<u32>,
}

impl Embedding {
    /// Checks that `node_of` (element index ↦ node) is an isomorphism from the
    /// Cayley graph of `group` on `links` onto `network`, and wraps it.
    ///
    /// The check: the links are valid (see [`validate_links`]); `node_of` is a
    /// bijection; every link `g → g·s` maps to a physical edge; and every node
    /// has as many ports as there are links. A bijection that maps edges to
    /// edges between simple graphs with equally many edges is an isomorphism.
    pub fn new(
        group: &FiniteGroup,
        links: &[GenLetter],
        network: Graph,
        spec: Option<NetworkName>,
        node_of: Vec<u32>,
    ) -> Result<Embedding, NetworkMismatch> {
        validate_links(group, links)?;
        let n = group.order();
        if network.nodes() != n || node_of.len() != n {
            return Err(NetworkMismatch::NodeCount {
                group: n,
                network: network.label().to_string(),
                nodes: network.nodes(),
            });
        }
        let mut elem_of = vec![NONE; n];
        for (e, &x) in node_of.iter().enumerate() {
            if x as usize >= n || elem_of[x as usize] != NONE {
                return Err(NetworkMismatch::NotAnIsomorphism(format!(
                    "node {x} is the image of two elements or out of range"
                )));
            }
            elem_of[x as usize] = e as u32;
        }
        for x in 0..n as u32 {
            let nb = network.ports(x);
            if nb.len() != links.len() {
                return Err(NetworkMismatch::Degree {
                    links: links.len(),
                    network: network.label().to_string(),
                    degree: nb.len(),
                });
            }
            if nb
                .iter()
                .enumerate()
                .any(|(i, &y)| y == x || nb[..i].contains(&y))
            {
                return Err(NetworkMismatch::NotAnIsomorphism(format!(
                    "the network is not simple at node {x}"
                )));
            }
        }
        for g in group.elements() {
            for &s in links {
                let (x, y) = (node_of[g.index()], node_of[group.apply(g, s).index()]);
                if !network.adjacent(x, y) {
                    return Err(NetworkMismatch::NotAnIsomorphism(format!(
                        "the link from element {} by {} maps to nodes {} and {}, which are not adjacent",
                        g.0,
                        group.format_word(&[s]),
                        network.node_name(x),
                        network.node_name(y)
                    )));
                }
            }
        }
        Ok(Embedding {
            network,
            spec,
            node_of,
            elem_of,
        })
    }

    /// The Cayley graph itself, as a network with the identity map.
    pub fn cayley(group: &FiniteGroup, links: &[GenLetter]) -> Result<Embedding, NetworkMismatch> {
        validate_links(group, links)?;
        let network =
            Graph::cayley(group, links).map_err(|e| NetworkMismatch::Links(e.to_string()))?;
        Embedding::new(
            group,
            links,
            network,
            None,
            (0..group.order() as u32).collect(),
        )
    }

    /// The physical network.
    pub fn network(&self) -> &Graph {
        &self.network
    }

    /// The `network:` value this embedding realises (`None` for the Cayley graph).
    pub fn spec(&self) -> Option<&NetworkName> {
        self.spec.as_ref()
    }

    /// φ(e): the node element `e` is mapped to.
    pub fn node(&self, e: Elem) -> u32 {
        self.node_of[e.index()]
    }

    /// φ⁻¹(x): the element mapped to node `x`.
    pub fn elem(&self, x: u32) -> Elem {
        Elem(self.elem_of[x as usize])
    }

    /// The whole map, element index ↦ node.
    pub fn node_map(&self) -> &[u32] {
        &self.node_of
    }
}

/// Checks that `links` define a connected undirected simple Cayley graph: no
/// link is the identity, no element is listed twice, the set is closed under
/// inverses, and it generates the group. Returns the link elements.
pub fn validate_links(
    group: &FiniteGroup,
    links: &[GenLetter],
) -> Result<Vec<Elem>, NetworkMismatch> {
    let elems: Vec<Elem> = links.iter().map(|&l| group.letter_element(l)).collect();
    for (i, &e) in elems.iter().enumerate() {
        let name = group.format_word(&[links[i]]);
        if e == Elem::IDENTITY {
            return Err(NetworkMismatch::Links(format!(
                "link {name} is the identity"
            )));
        }
        if let Some(j) = elems[..i].iter().position(|&f| f == e) {
            return Err(NetworkMismatch::Links(format!(
                "links {} and {name} are the same element",
                group.format_word(&[links[j]])
            )));
        }
        let inverse = group.letter_element(links[i].inverted());
        if !elems.contains(&inverse) {
            return Err(NetworkMismatch::Links(format!(
                "the inverse of link {name} is not a link"
            )));
        }
    }
    let mut seen = vec![false; group.order()];
    seen[0] = true;
    let mut stack = vec![Elem::IDENTITY];
    let mut count = 1;
    while let Some(g) = stack.pop() {
        for &s in links {
            let h = group.apply(g, s);
            if !seen[h.index()] {
                seen[h.index()] = true;
                count += 1;
                stack.push(h);
            }
        }
    }
    if count != group.order() {
        return Err(NetworkMismatch::Links(format!(
            "the links generate a subgroup of {count} of the {} elements",
            group.order()
        )));
    }
    Ok(elems)
}

/// Finds and verifies an isomorphism from the Cayley graph of `group` on
/// `links` onto the network `spec` names.
pub fn embed(
    group: &FiniteGroup,
    links: &[GenLetter],
    spec: &NetworkName,
) -> Result<Embedding, NetworkMismatch> {
    if let NetworkName::Twisted(_) = spec {
        validate_links(group, links)?;
        let network = spec.build()?;
        let node_of = super::twisted::find_translation_map(group, links, &network)?;
        return Embedding::new(group, links, network, Some(spec.clone()), node_of);
    }
    let sides = spec.torus_sides()?;
    let network = spec.build()?;
    let mut budget = 100 * group.order() as u64 + 1_000_000;
    let node_of = find_isomorphism(group, links, &network, &sides, &mut budget)?;
    Embedding::new(group, links, network, Some(spec.clone()), node_of)
}

/// When the Cayley graph is a ring, a hypercube, a torus or a twisted torus,
/// names it and returns the verified embedding. Candidates are tried in this
/// order: ring, hypercube, then tori with fewer dimensions first (sides
/// ascending, none of them a hypercube), among those consistent with the node
/// count and the degree, then the twisted shapes of that count and degree.
pub fn infer(group: &FiniteGroup, links: &[GenLetter]) -> Option<(NetworkName, Embedding)> {
    validate_links(group, links).ok()?;
    let (n, d) = (group.order(), links.len());
    let mut candidates = Vec::new();
    if d == 2 && n >= 3 {
        candidates.push(NetworkName::Ring(n as u32));
    }
    if d < usize::BITS as usize && n == 1 << d {
        candidates.push(NetworkName::Hypercube(d as u32));
    }
    let mut tori = Vec::new();
    factorisations(n, 2, d, &mut Vec::new(), &mut tori);
    tori.retain(|s: &Vec<usize>| s.len() >= 2 && s.iter().any(|&x| x != 2));
    tori.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    candidates.extend(
        tori.into_iter()
            .map(|sides| NetworkName::Torus(sides.iter().map(|&s| s as u32).collect())),
    );
    // Every candidate is vertex-transitive, so one distance profile from the
    // identity decides most of them without building the network.
    let profile = cayley_profile(group, links);
    let torus = candidates
        .into_iter()
        .filter(|spec| {
            spec.torus_sides()
                .is_ok_and(|sides| torus_profile(&sides) == profile)
        })
        .find_map(|spec| embed(group, links, &spec).ok().map(|e| (spec, e)));
    // Twisted tori last: no plain torus is one (their distance profiles differ).
    torus.or_else(|| {
        super::twisted::candidates(n, d)
            .into_iter()
            .map(NetworkName::Twisted)
            .find_map(|spec| embed(group, links, &spec).ok().map(|e| (spec, e)))
    })
}

/// How many elements lie at each distance from the identity in the Cayley graph.
fn cayley_profile(group: &FiniteGroup, links: &[GenLetter]) -> Vec<u64> {
    let mut profile = vec![0u64];
    for d in group.distances_from_identity(links) {
        if d == u32::MAX {
            continue;
        }
        if profile.len() <= d as usize {
            profile.resize(d as usize + 1, 0);
        }
        profile[d as usize] += 1;
    }
    profile
}

/// How many nodes lie at each distance from a node of the torus with these sides
/// (the convolution of the rings' profiles; a side of 2 is one link).
fn torus_profile(sides: &[usize]) -> Vec<u64> {
    let mut profile = vec![1u64];
    for &m in sides {
        let mut ring = vec![0u64; m / 2 + 1];
        for k in 0..m {
            ring[k.min(m - k)] += 1;
        }
        let mut next = vec![0u64; profile.len() + ring.len() - 1];
        for (i, &a) in profile.iter().enumerate() {
            for (j, &b) in ring.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        profile = next;
    }
    profile
}

/// All non-decreasing factor lists of `n` (factors ≥ `min`) whose torus degree is `degree`.
fn factorisations(
    n: usize,
    min: usize,
    degree: usize,
    prefix: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
) {
    if n == 1 {
        if degree == 0 && !prefix.is_empty() {
            out.push(prefix.clone());
        }
        return;
    }
    for f in min..=n {
        if !n.is_multiple_of(f) {
            continue;
        }
        let cost = if f == 2 { 1 } else { 2 };
        if cost > degree {
            continue;
        }
        prefix.push(f);
        factorisations(n / f, f, degree - cost, prefix, out);
        prefix.pop();
    }
}

#[cfg(test)]
mod tests;
