//! The search for an isomorphism from a Cayley graph onto a torus (rings and
//! hypercubes included), used by [`super::embed`].
//!
//! Whatever it returns is verified edge by edge by [`super::Embedding::new`], so
//! this code may be clever: a bug here can only cause a wrong "no isomorphism".
//! How it searches is described in the notes of [`super`].

use crate::group::{BfsTree, FiniteGroup, GenLetter};

use super::super::Graph;
use super::{NONE, NetworkMismatch, validate_links};

struct Search<'a> {
    net: &'a Graph,
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

pub(super) fn find_isomorphism(
    group: &FiniteGroup,
    links: &[GenLetter],
    net: &Graph,
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
    // Breadth-first search from the identity: order, parents, distances (the
    // links generate the group, as validated above, so every element is reached).
    let tree = BfsTree::new(group, links);
    let dist = tree.distances().to_vec();
    let order: Vec<u32> = tree.visit_order().iter().map(|e| e.0).collect();
    let parent: Vec<u32> = group
        .elements()
        .map(|e| tree.parent(e).map_or(NONE, |(p, _)| p.0))
        .collect();
    let dist0 = net.distances_to(0);
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
    let ports: Vec<u32> = net.ports(0).to_vec();
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
            .ports(c)
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
        let nc = self.net.ports(c);
        placed.iter().all(|&(j, y)| {
            let ny = self.net.ports(y);
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
            let nb = self.net.ports(base);
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
