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

use super::{NetworkKind, NetworkSpecError, PhysicalNetwork};

const NONE: u32 = u32::MAX;

/// Why a Cayley graph is not (or could not be shown to be) the declared network.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NetworkMismatch {
    /// The `network:` value itself is not a network.
    #[error("invalid network: {0}")]
    Spec(#[from] NetworkSpecError),
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
    network: PhysicalNetwork,
    spec: Option<NetworkKind>,
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
        network: PhysicalNetwork,
        spec: Option<NetworkKind>,
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
            let nb = network.neighbours(x);
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
        let network = PhysicalNetwork::cayley(group, links);
        Embedding::new(
            group,
            links,
            network,
            None,
            (0..group.order() as u32).collect(),
        )
    }

    /// The physical network.
    pub fn network(&self) -> &PhysicalNetwork {
        &self.network
    }

    /// The `network:` value this embedding realises (`None` for the Cayley graph).
    pub fn spec(&self) -> Option<&NetworkKind> {
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
    spec: &NetworkKind,
) -> Result<Embedding, NetworkMismatch> {
    let sides = spec.torus_sides()?;
    let network = PhysicalNetwork::from_kind(spec)?;
    let mut budget = 100 * group.order() as u64 + 1_000_000;
    let node_of = find_isomorphism(group, links, &network, &sides, &mut budget)?;
    Embedding::new(group, links, network, Some(spec.clone()), node_of)
}

/// When the Cayley graph is a ring, a hypercube or a torus, names it and returns
/// the verified embedding. Candidates are tried in this order: ring, hypercube,
/// then tori with fewer dimensions first (sides ascending, none of them a
/// hypercube), among those consistent with the node count and the degree.
pub fn infer(group: &FiniteGroup, links: &[GenLetter]) -> Option<(NetworkKind, Embedding)> {
    validate_links(group, links).ok()?;
    let (n, d) = (group.order(), links.len());
    let mut candidates = Vec::new();
    if d == 2 && n >= 3 {
        candidates.push(NetworkKind::Ring { nodes: n });
    }
    if d < usize::BITS as usize && n == 1 << d {
        candidates.push(NetworkKind::Hypercube { dimension: d });
    }
    let mut tori = Vec::new();
    factorisations(n, 2, d, &mut Vec::new(), &mut tori);
    tori.retain(|s: &Vec<usize>| s.len() >= 2 && s.iter().any(|&x| x != 2));
    tori.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
    candidates.extend(tori.into_iter().map(|sides| NetworkKind::Torus { sides }));
    // Every candidate is vertex-transitive, so one distance profile from the
    // identity decides most of them without building the network.
    let profile = cayley_profile(group, links);
    candidates
        .into_iter()
        .filter(|spec| {
            spec.torus_sides()
                .is_ok_and(|sides| torus_profile(&sides) == profile)
        })
        .find_map(|spec| embed(group, links, &spec).ok().map(|e| (spec, e)))
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

struct Search<'a> {
    net: &'a PhysicalNetwork,
    /// Number of links.
    k: usize,
    /// `cay[g * k + i]` is `g · links[i]`.
    cay: Vec<u32>,
    /// Breadth-first order of the elements from the identity.
    order: Vec<u32>,
    parent: Vec<u32>,
    dist: Vec<u32>,
    dist0: Vec<u32>,
    node_of: Vec<u32>,
    elem_of: Vec<u32>,
    /// Common-neighbour counts between pairs of links, `k × k`.
    link_common: Vec<usize>,
    budget: u64,
    steps: u64,
}

enum Outcome {
    Found,
    Exhausted,
    OutOfBudget,
}

fn find_isomorphism(
    group: &FiniteGroup,
    links: &[GenLetter],
    net: &PhysicalNetwork,
    sides: &[usize],
    budget: &mut u64,
) -> Result<Vec<u32>, NetworkMismatch> {
    validate_links(group, links)?;
    let n = group.order();
    let k = links.len();
    let label = net.label().to_string();
    if n != net.nodes() {
        return Err(NetworkMismatch::NodeCount {
            group: n,
            network: label,
            nodes: net.nodes(),
        });
    }
    let degree = net.degree(0);
    if degree != k {
        return Err(NetworkMismatch::Degree {
            links: k,
            network: label,
            degree,
        });
    }
    let mut cay = Vec::with_capacity(n * k);
    for g in group.elements() {
        cay.extend(links.iter().map(|&s| group.apply(g, s).0));
    }
    // Breadth-first search from the identity: order, parents, distances.
    let mut dist = vec![NONE; n];
    let mut parent = vec![NONE; n];
    let mut order = Vec::with_capacity(n);
    dist[0] = 0;
    order.push(0u32);
    let mut head = 0;
    while head < order.len() {
        let g = order[head] as usize;
        head += 1;
        for &h in &cay[g * k..(g + 1) * k] {
            if dist[h as usize] == NONE {
                dist[h as usize] = dist[g] + 1;
                parent[h as usize] = g as u32;
                order.push(h);
            }
        }
    }
    let dist0 = net.distances_from(0);
    let profile = |d: &[u32]| {
        let max = d.iter().copied().max().unwrap_or(0) as usize;
        let mut h = vec![0usize; max + 1];
        for &x in d {
            h[x as usize] += 1;
        }
        h
    };
    let (pg, pn) = (profile(&dist), profile(&dist0));
    if pg != pn {
        let d = (0..pg.len().max(pn.len()))
            .find(|&i| pg.get(i) != pn.get(i))
            .unwrap_or(0);
        return Err(NetworkMismatch::DistanceProfile {
            distance: d as u32,
            group: pg.get(d).copied().unwrap_or(0),
            network: label,
            nodes: pn.get(d).copied().unwrap_or(0),
        });
    }
    let mut link_common = vec![0; k * k];
    for i in 0..k {
        for j in 0..k {
            let a = &cay[order[1 + i] as usize * k..][..k];
            let b = &cay[order[1 + j] as usize * k..][..k];
            link_common[i * k + j] = a.iter().filter(|x| b.contains(x)).count();
        }
    }
    let mut search = Search {
        net,
        k,
        cay,
        order,
        parent,
        dist,
        dist0,
        node_of: vec![NONE; n],
        elem_of: vec![NONE; n],
        link_common,
        budget: *budget,
        steps: 0,
    };
    search.assign(0, 0);
    let ports: Vec<u32> = net.neighbours(0).to_vec();
    let mut used = vec![false; k];
    let outcome = search.first_layer(sides, 0, 0, 0, &ports, &mut used, &mut Vec::new());
    *budget = budget.saturating_sub(search.steps);
    match outcome {
        Outcome::Found => Ok(search.node_of),
        Outcome::Exhausted => Err(NetworkMismatch::NoIsomorphism { network: label }),
        Outcome::OutOfBudget => Err(NetworkMismatch::SearchLimit {
            network: label,
            steps: search.steps,
        }),
    }
}

impl Search<'_> {
    fn assign(&mut self, v: u32, c: u32) {
        self.node_of[v as usize] = c;
        self.elem_of[c as usize] = v;
        self.steps += 1;
    }

    fn unassign(&mut self, v: u32) {
        let c = self.node_of[v as usize];
        self.node_of[v as usize] = NONE;
        self.elem_of[c as usize] = NONE;
    }

    /// Whether `v ↦ c` keeps the mapped parts of both graphs identical.
    fn consistent(&self, v: u32, c: u32) -> bool {
        if self.elem_of[c as usize] != NONE || self.dist0[c as usize] != self.dist[v as usize] {
            return false;
        }
        let mut mapped = 0;
        for &u in &self.cay[v as usize * self.k..][..self.k] {
            let x = self.node_of[u as usize];
            if x != NONE {
                mapped += 1;
                if !self.net.adjacent(x, c) {
                    return false;
                }
            }
        }
        let mapped_c = self
            .net
            .neighbours(c)
            .iter()
            .filter(|&&y| self.elem_of[y as usize] != NONE)
            .count();
        mapped == mapped_c
    }

    /// Whether link `i` may go to port node `c`, given the links already placed
    /// (`placed` holds `(link, node)` pairs): consistency plus equal numbers of
    /// common neighbours with every placed link.
    fn layer_ok(&self, i: usize, c: u32, placed: &[(usize, u32)]) -> bool {
        if !self.consistent(self.order[1 + i], c) {
            return false;
        }
        let nc = self.net.neighbours(c);
        placed.iter().all(|&(j, y)| {
            let ny = self.net.neighbours(y);
            nc.iter().filter(|x| ny.contains(x)).count() == self.link_common[i * self.k + j]
        })
    }

    /// Places the links on the ports of node 0, dimension by dimension, up to the
    /// torus symmetries fixing node 0, and extends each complete placement.
    ///
    /// `prev_first` is the smallest link placed in dimension `dim - 1`.
    #[allow(clippy::too_many_arguments)]
    fn first_layer(
        &mut self,
        sides: &[usize],
        dim: usize,
        port: usize,
        prev_first: usize,
        ports: &[u32],
        used: &mut [bool],
        placed: &mut Vec<(usize, u32)>,
    ) -> Outcome {
        if self.steps > self.budget {
            return Outcome::OutOfBudget;
        }
        if dim == sides.len() {
            return self.extend();
        }
        let side = sides[dim];
        // Equal-sided dimensions take their links in increasing order of smallest link.
        let lower = if dim > 0 && sides[dim - 1] == side {
            prev_first + 1
        } else {
            0
        };
        for a in lower..self.k {
            if used[a] || !self.layer_ok(a, ports[port], placed) {
                continue;
            }
            used[a] = true;
            self.assign(self.order[1 + a], ports[port]);
            placed.push((a, ports[port]));
            let outcome = if side == 2 {
                self.first_layer(sides, dim + 1, port + 1, a, ports, used, placed)
            } else {
                self.second_of_pair(sides, dim, port, a, ports, used, placed)
            };
            placed.pop();
            used[a] = false;
            match outcome {
                Outcome::Exhausted => self.unassign(self.order[1 + a]),
                done => return done,
            }
        }
        Outcome::Exhausted
    }

    /// With link `a` on the `+` port of dimension `dim`, places a larger link on
    /// its `-` port (a sign flip of the dimension makes the smaller link `+`).
    #[allow(clippy::too_many_arguments)]
    fn second_of_pair(
        &mut self,
        sides: &[usize],
        dim: usize,
        port: usize,
        a: usize,
        ports: &[u32],
        used: &mut [bool],
        placed: &mut Vec<(usize, u32)>,
    ) -> Outcome {
        for b in a + 1..self.k {
            if used[b] || !self.layer_ok(b, ports[port + 1], placed) {
                continue;
            }
            used[b] = true;
            self.assign(self.order[1 + b], ports[port + 1]);
            placed.push((b, ports[port + 1]));
            let outcome = self.first_layer(sides, dim + 1, port + 2, a, ports, used, placed);
            placed.pop();
            used[b] = false;
            match outcome {
                Outcome::Exhausted => self.unassign(self.order[1 + b]),
                done => return done,
            }
        }
        Outcome::Exhausted
    }

    /// Extends the first layer to the whole graph in breadth-first order, with
    /// chronological backtracking.
    fn extend(&mut self) -> Outcome {
        let n = self.order.len();
        let start = 1 + self.k;
        if start >= n {
            return Outcome::Found;
        }
        // next_port[p]: the next port of the parent's image to try at position p.
        let mut next_port = vec![0usize; n];
        let mut p = start;
        loop {
            if self.steps > self.budget {
                // Leave no partial assignment behind for the caller to unwind.
                for q in start..p {
                    self.unassign(self.order[q]);
                }
                return Outcome::OutOfBudget;
            }
            let v = self.order[p];
            let base = self.node_of[self.parent[v as usize] as usize];
            let nb = self.net.neighbours(base);
            let mut placed = false;
            while next_port[p] < nb.len() {
                let c = nb[next_port[p]];
                next_port[p] += 1;
                if self.consistent(v, c) {
                    self.assign(v, c);
                    placed = true;
                    break;
                }
            }
            if placed {
                p += 1;
                if p == n {
                    return Outcome::Found;
                }
                next_port[p] = 0;
            } else {
                if p == start {
                    return Outcome::Exhausted;
                }
                p -= 1;
                self.unassign(self.order[p]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::testing::linked::{
        GroupWithLinks, cyclic, dihedral, elementary_abelian, product,
    };

    fn ring(nodes: usize) -> NetworkKind {
        NetworkKind::Ring { nodes }
    }
    fn cube(dimension: usize) -> NetworkKind {
        NetworkKind::Hypercube { dimension }
    }
    fn torus(sides: &[usize]) -> NetworkKind {
        NetworkKind::Torus {
            sides: sides.to_vec(),
        }
    }

    fn accepts(g: &GroupWithLinks, spec: NetworkKind) {
        let e = embed(&g.group, &g.links, &spec).unwrap_or_else(|e| panic!("{spec:?}: {e}"));
        // Independent re-check of the returned map.
        let net = PhysicalNetwork::from_kind(&spec).unwrap();
        Embedding::new(&g.group, &g.links, net, None, e.node_map().to_vec()).unwrap();
        assert_eq!(e.node(Elem::IDENTITY), 0);
        for x in 0..g.group.order() as u32 {
            assert_eq!(e.node(e.elem(x)), x);
        }
    }

    #[test]
    fn cyclic_six_is_ring_six() {
        accepts(&cyclic(6), ring(6));
    }

    #[test]
    fn dihedral_six_is_ring_six() {
        accepts(&dihedral(6), ring(6));
    }

    #[test]
    fn small_coincidences() {
        accepts(&cyclic(2), ring(2));
        accepts(&cyclic(2), cube(1));
        accepts(&cyclic(2), torus(&[2]));
        accepts(&cyclic(3), ring(3));
        accepts(&cyclic(4), ring(4));
        accepts(&cyclic(4), cube(2));
        accepts(&cyclic(4), torus(&[2, 2]));
        accepts(&elementary_abelian(2), ring(4));
        accepts(&elementary_abelian(2), torus(&[4]));
        accepts(&dihedral(4), cube(2));
    }

    #[test]
    fn c2_to_the_fourth_is_hypercube_and_torus_four_four() {
        let g = elementary_abelian(4);
        accepts(&g, cube(4));
        accepts(&g, torus(&[4, 4]));
        accepts(&g, torus(&[2, 2, 4]));
        accepts(&g, torus(&[2, 2, 2, 2]));
        accepts(&product(&[cyclic(4), cyclic(4)]), cube(4));
    }

    #[test]
    fn torus_two_two_is_the_square() {
        accepts(&elementary_abelian(2), torus(&[2, 2]));
        accepts(&elementary_abelian(3), torus(&[2, 2, 2]));
    }

    #[test]
    fn products_are_tori() {
        accepts(&product(&[cyclic(5), cyclic(5)]), torus(&[5, 5]));
        accepts(&product(&[dihedral(6), dihedral(6)]), torus(&[6, 6]));
        accepts(&product(&[cyclic(3), cyclic(4)]), torus(&[3, 4]));
        accepts(&product(&[cyclic(3), cyclic(4)]), torus(&[4, 3]));
        accepts(
            &product(&[cyclic(3), cyclic(3), cyclic(3)]),
            torus(&[3, 3, 3]),
        );
        accepts(&product(&[cyclic(2), cyclic(6)]), torus(&[2, 6]));
        accepts(
            &product(&[dihedral(8), cyclic(5), cyclic(2)]),
            torus(&[5, 2, 8]),
        );
    }

    #[test]
    fn large_tori_embed() {
        accepts(
            &product(&[cyclic(16), cyclic(16), cyclic(16)]),
            torus(&[16, 16, 16]),
        );
        accepts(&elementary_abelian(12), cube(12));
        accepts(&elementary_abelian(12), torus(&[4, 4, 4, 4, 4, 4]));
    }

    #[test]
    fn rejects_wrong_node_count() {
        let err = embed(&dihedral(6).group, &dihedral(6).links, &ring(8)).unwrap_err();
        assert!(
            matches!(
                err,
                NetworkMismatch::NodeCount {
                    group: 6,
                    nodes: 8,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn rejects_nine_ring_as_three_by_three_torus() {
        let g = cyclic(9);
        let err = embed(&g.group, &g.links, &torus(&[3, 3])).unwrap_err();
        assert!(
            matches!(
                err,
                NetworkMismatch::Degree {
                    links: 2,
                    degree: 4,
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn rejects_eight_ring_as_cube() {
        let g = cyclic(8);
        let err = embed(&g.group, &g.links, &cube(3)).unwrap_err();
        assert!(
            matches!(
                err,
                NetworkMismatch::Degree {
                    links: 2,
                    degree: 3,
                    ..
                }
            ),
            "{err}"
        );
    }

    /// The cyclic group `Z_n` with one generator per step (`x ↦ x + step`); its
    /// Cayley graph on all generators and inverses is the circulant `C_n(steps)`.
    fn circulant(n: usize, steps: &[usize]) -> GroupWithLinks {
        let names = (0..steps.len()).map(|i| format!("c{i}")).collect();
        let mut action = Vec::new();
        for e in 0..n {
            for &s in steps {
                let s = s % n;
                action.extend([((e + s) % n) as u32, ((e + n - s) % n) as u32]);
            }
        }
        let group = FiniteGroup::from_action(names, action).unwrap();
        let links = (0..steps.len() as u32)
            .flat_map(|g| {
                [false, true].map(|inverse| GenLetter {
                    generator: g,
                    inverse,
                })
            })
            .collect();
        GroupWithLinks { group, links }
    }

    #[test]
    fn rejects_same_counts_different_graph() {
        // C_16(1, 3): 16 nodes, degree 4 and the 4-cube's distance profile
        // 1, 4, 6, 4, 1, so only the search can tell them apart.
        let g = circulant(16, &[1, 3]);
        let err = embed(&g.group, &g.links, &cube(4)).unwrap_err();
        assert!(
            matches!(err, NetworkMismatch::NoIsomorphism { .. }),
            "{err}"
        );
        // C_25(1, 7) against the 5 x 5 torus: same counts, different graph.
        let g = circulant(25, &[1, 7]);
        let err = embed(&g.group, &g.links, &torus(&[5, 5])).unwrap_err();
        assert!(
            matches!(
                err,
                NetworkMismatch::DistanceProfile { .. } | NetworkMismatch::NoIsomorphism { .. }
            ),
            "{err}"
        );
        // C_25(1, 5) looks like a torus locally, but five steps of 1 reach a
        // neighbour of the start.
        let g = circulant(25, &[1, 5]);
        let err = embed(&g.group, &g.links, &torus(&[5, 5])).unwrap_err();
        assert!(
            matches!(
                err,
                NetworkMismatch::DistanceProfile { .. } | NetworkMismatch::NoIsomorphism { .. }
            ),
            "{err}"
        );
        // Whereas C_20(4, 5) is C5 x C4 in disguise: the 5 x 4 torus.
        accepts(&circulant(20, &[4, 5]), torus(&[5, 4]));
    }

    #[test]
    fn rejects_invalid_links() {
        let g = cyclic(6);
        let only_a = [g.links[0]];
        assert!(matches!(
            embed(&g.group, &only_a, &ring(6)),
            Err(NetworkMismatch::Links(_))
        ));
        let twice = [g.links[0], g.links[0], g.links[1]];
        assert!(matches!(
            embed(&g.group, &twice, &ring(6)),
            Err(NetworkMismatch::Links(_))
        ));
        let c = product(&[cyclic(3), cyclic(3)]);
        assert!(matches!(
            embed(&c.group, &c.links[..2], &ring(9)),
            Err(NetworkMismatch::Links(_))
        ));
    }

    #[test]
    fn rejects_invalid_spec() {
        let g = cyclic(6);
        assert!(matches!(
            embed(&g.group, &g.links, &ring(1)),
            Err(NetworkMismatch::Spec(_))
        ));
    }

    #[test]
    fn verification_rejects_a_bad_map() {
        let g = cyclic(6);
        let net = PhysicalNetwork::from_kind(&ring(6)).unwrap();
        let bad = vec![0, 2, 4, 1, 3, 5];
        assert!(matches!(
            Embedding::new(&g.group, &g.links, net.clone(), None, bad),
            Err(NetworkMismatch::NotAnIsomorphism(_))
        ));
        let not_bijective = vec![0, 1, 2, 3, 4, 4];
        assert!(Embedding::new(&g.group, &g.links, net, None, not_bijective).is_err());
    }

    #[test]
    fn infers_the_network() {
        let cases: Vec<(GroupWithLinks, NetworkKind)> = vec![
            (dihedral(6), ring(6)),
            (cyclic(7), ring(7)),
            (cyclic(4), ring(4)),
            (cyclic(2), cube(1)),
            (elementary_abelian(4), cube(4)),
            (product(&[cyclic(3), cyclic(4)]), torus(&[3, 4])),
            (product(&[cyclic(5), cyclic(5)]), torus(&[5, 5])),
            (product(&[cyclic(2), cyclic(3)]), torus(&[2, 3])),
            (
                product(&[cyclic(3), cyclic(3), cyclic(3)]),
                torus(&[3, 3, 3]),
            ),
        ];
        for (g, spec) in cases {
            let (found, e) = infer(&g.group, &g.links).expect("inferred");
            assert_eq!(found, spec);
            assert_eq!(e.spec(), Some(&spec));
        }
    }

    #[test]
    fn infers_nothing_for_other_graphs() {
        assert!(infer(&circulant(16, &[1, 3]).group, &circulant(16, &[1, 3]).links).is_none());
        assert!(infer(&circulant(25, &[1, 7]).group, &circulant(25, &[1, 7]).links).is_none());
        // 8 nodes of degree 4: no ring, hypercube or torus has that.
        assert!(infer(&circulant(8, &[1, 2]).group, &circulant(8, &[1, 2]).links).is_none());
        // But C2 x C8 on {a, b, b'} is the 2 x 8 torus (a prism).
        let g = product(&[cyclic(2), cyclic(8)]);
        assert_eq!(infer(&g.group, &g.links).unwrap().0, torus(&[2, 8]));
    }

    #[test]
    fn cayley_embedding_is_the_identity() {
        let g = dihedral(8);
        let e = Embedding::cayley(&g.group, &g.links).unwrap();
        assert_eq!(e.network().nodes(), 8);
        assert_eq!(e.node(Elem(5)), 5);
    }

    /// Every torus spec (sides ≥ 2, non-decreasing) with `n` nodes, plus rings and hypercubes.
    fn all_specs(n: usize) -> Vec<NetworkKind> {
        let mut out = vec![ring(n)];
        if n.is_power_of_two() {
            out.push(cube(n.trailing_zeros() as usize));
        }
        for d in 0..=2 * n {
            let mut f = Vec::new();
            factorisations(n, 2, d, &mut Vec::new(), &mut f);
            out.extend(f.into_iter().map(|s| torus(&s)));
        }
        out
    }

    /// Plain backtracking over all bijections fixing 0 ↦ 0 (elements in index
    /// order, every unused node tried, only edge checks): slow but with none of
    /// the search's symmetry reduction or distance pruning.
    fn brute_force_isomorphic(g: &GroupWithLinks, net: &PhysicalNetwork) -> bool {
        let n = g.group.order();
        if net.nodes() != n || net.regular_degree() != Some(g.links.len()) {
            return false;
        }
        let adj: Vec<Vec<usize>> = g
            .group
            .elements()
            .map(|e| {
                g.links
                    .iter()
                    .map(|&s| g.group.apply(e, s).index())
                    .collect()
            })
            .collect();
        fn go(
            v: usize,
            adj: &[Vec<usize>],
            net: &PhysicalNetwork,
            map: &mut Vec<u32>,
            used: &mut [bool],
        ) -> bool {
            if v == adj.len() {
                return true;
            }
            for c in 0..adj.len() as u32 {
                if used[c as usize] {
                    continue;
                }
                // Edges to earlier elements must map to edges, and non-edges to non-edges.
                let ok = (0..v).all(|u| adj[v].contains(&u) == net.adjacent(map[u], c));
                if ok {
                    used[c as usize] = true;
                    map.push(c);
                    if go(v + 1, adj, net, map, used) {
                        return true;
                    }
                    map.pop();
                    used[c as usize] = false;
                }
            }
            false
        }
        let mut used = vec![false; n];
        used[0] = true;
        go(1, &adj, net, &mut vec![0], &mut used)
    }

    fn small_group() -> impl proptest::strategy::Strategy<Value = GroupWithLinks> {
        use proptest::prelude::*;
        prop_oneof![
            1 => (2usize..9).prop_map(cyclic),
            1 => (2usize..5).prop_map(|k| dihedral(2 * k)),
            1 => (1usize..4).prop_map(elementary_abelian),
            1 => (2usize..5, 2usize..3).prop_map(|(a, b)| product(&[cyclic(a), cyclic(b)])),
            3 => (5usize..17, 1usize..8, 2usize..8).prop_map(|(n, a, b)| circulant(n, &[a, b])),
        ]
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(40))]

        /// The search never misses an isomorphism that brute force finds.
        #[test]
        fn search_agrees_with_brute_force(g in small_group()) {
            proptest::prop_assume!(validate_links(&g.group, &g.links).is_ok());
            for spec in all_specs(g.group.order()) {
                let net = PhysicalNetwork::from_kind(&spec).unwrap();
                let brute = brute_force_isomorphic(&g, &net);
                let found = embed(&g.group, &g.links, &spec);
                proptest::prop_assert_eq!(brute, found.is_ok(), "{:?}: {:?}", spec, found.err());
            }
        }

        /// A product of rings (cyclic or dihedral) and single links is the torus
        /// of their sizes, whatever order the sides are listed in.
        #[test]
        fn products_of_rings_embed_in_their_torus(
            factors in proptest::collection::vec((2usize..7, proptest::prelude::any::<bool>()), 1..4),
            rotate in 0usize..3,
        ) {
            let groups: Vec<GroupWithLinks> = factors
                .iter()
                .map(|&(n, di)| if di && n >= 2 { dihedral(2 * n) } else { cyclic(n) })
                .collect();
            let mut sides: Vec<usize> = groups.iter().map(|g| g.group.order()).collect();
            let g = product(&groups);
            let len = sides.len();
            sides.rotate_left(rotate % len);
            let e = embed(&g.group, &g.links, &torus(&sides));
            proptest::prop_assert!(e.is_ok(), "{:?}: {:?}", sides, e.err());
            proptest::prop_assert!(infer(&g.group, &g.links).is_some());
        }
    }
}
