//! The walks a message may take: one layered graph per (message, length).
//!
//! A word of length `L` spelling `e` is a walk `1 = v0, v1, …, vL = e` in the
//! Cayley graph. Layer `k` of the graph for `(e, L)` holds the nodes reachable
//! from the identity in exactly `k` steps that can still reach `e` in exactly
//! `L - k` steps; edges join `v` in layer `k` to `v·s` in layer `k + 1`. For
//! `L = d(e)` this is the shortest-path DAG. Every walk through the layers is a
//! word of length `L` for `e` and every such word is a walk through the layers,
//! which is what makes the encoding complete.
//!
//! [`RouteVars`] are the formula's variables of one such graph; they live here,
//! below both the encoding that makes them and the symmetry-breaking clauses
//! that read them.

use super::cnf::Lit;
use txverify_core::group::Elem;
use txverify_core::kernel::{Instance, LinkId};

/// The layered graph of all words of one length spelling one message.
#[derive(Clone, Debug)]
pub struct Route {
    /// The message (destination relative to the sender).
    pub message: Elem,
    /// The word length.
    pub len: usize,
    /// `layers[k]`: the nodes at depth `k`, sorted; `layers[0] = [1]`, `layers[len] = [e]`.
    pub layers: Vec<Vec<Elem>>,
    /// `letters[k]`: the links labelling at least one edge from depth `k` to `k + 1`, sorted.
    pub letters: Vec<Vec<LinkId>>,
}

impl Route {
    /// Index of `v` in layer `k`, if present.
    pub fn position(&self, k: usize, v: Elem) -> Option<usize> {
        self.layers[k].binary_search(&v).ok()
    }

    /// Fewest and most letters `link` in a word through this graph.
    pub fn letter_count_range(&self, link: LinkId, instance: &Instance) -> (usize, usize) {
        let mut best: Vec<(usize, usize)> = vec![(0, 0)];
        for k in 0..self.len {
            let mut next = vec![(usize::MAX, 0usize); self.layers[k + 1].len()];
            for (i, &v) in self.layers[k].iter().enumerate() {
                if best[i].0 == usize::MAX {
                    continue;
                }
                for l in 0..instance.links().len() {
                    let l = LinkId(l as u32);
                    if let Some(j) = self.position(k + 1, instance.step(v, l)) {
                        let add = usize::from(l == link);
                        next[j].0 = next[j].0.min(best[i].0 + add);
                        next[j].1 = next[j].1.max(best[i].1 + add);
                    }
                }
            }
            best = next;
        }
        best[0]
    }
}

/// Elements reachable from `from` in exactly `k` steps, for `k = 0..=max`.
pub fn exact_step_sets(instance: &Instance, from: Elem, max: usize) -> Vec<Vec<bool>> {
    let order = instance.group().order();
    let mut sets = Vec::with_capacity(max + 1);
    let mut current = vec![false; order];
    current[from.index()] = true;
    for _ in 0..max {
        let mut next = vec![false; order];
        for (v, &here) in current.iter().enumerate() {
            if here {
                for l in 0..instance.links().len() {
                    next[instance.step(Elem(v as u32), LinkId(l as u32)).index()] = true;
                }
            }
        }
        sets.push(std::mem::replace(&mut current, next));
    }
    sets.push(current);
    sets
}

/// The layered graph of words of length `len` for `message`, or `None` when there is none.
/// `forward` must hold the exact-step sets from the identity up to at least `len`,
/// `backward` those from `message`.
pub fn route(
    instance: &Instance,
    message: Elem,
    len: usize,
    forward: &[Vec<bool>],
    backward: &[Vec<bool>],
) -> Option<Route> {
    let order = instance.group().order();
    let layers: Vec<Vec<Elem>> = (0..=len)
        .map(|k| {
            (0..order)
                .filter(|&v| forward[k][v] && backward[len - k][v])
                .map(|v| Elem(v as u32))
                .collect()
        })
        .collect();
    if layers.iter().any(Vec::is_empty) {
        return None;
    }
    let mut route = Route {
        message,
        len,
        layers,
        letters: Vec::with_capacity(len),
    };
    for k in 0..len {
        let mut letters: Vec<LinkId> = (0..instance.links().len())
            .map(|l| LinkId(l as u32))
            .filter(|&l| {
                route.layers[k]
                    .iter()
                    .any(|&v| route.position(k + 1, instance.step(v, l)).is_some())
            })
            .collect();
        letters.sort();
        route.letters.push(letters);
    }
    Some(route)
}

/// Variables of one route.
#[derive(Clone, Debug)]
pub struct RouteVars {
    /// The layered graph.
    pub route: Route,
    /// Index of the message in [`Encoding::messages`](super::Encoding::messages).
    pub message: usize,
    /// "route used".
    pub sel: Lit,
    /// Start variables, `x[t]` for `t = 0..=T-L`.
    pub x: Vec<Lit>,
    /// `nodes[k][i]` for node `route.layers[k][i]`.
    pub nodes: Vec<Vec<Lit>>,
    /// `letters[k][i]` for link `route.letters[k][i]`.
    pub letters: Vec<Vec<Lit>>,
}

impl RouteVars {
    /// The variable "letter `k` (from 0) is `link`", if the route has that letter there.
    pub fn letter(&self, k: usize, link: LinkId) -> Option<Lit> {
        self.route.letters[k]
            .binary_search(&link)
            .ok()
            .map(|i| self.letters[k][i])
    }
}
