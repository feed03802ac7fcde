//! The search for a strong cut on any graph, all-port or K-port: every cut of
//! a graph up to [`EXHAUSTIVE_NODES`] nodes, a heuristic search beyond.
//!
//! Why a search: the cut bound ([`crate::bounds::cut`]) holds for every set A
//! of nodes, so the bound is as strong as the best A found, and on a graph of
//! no family (an edge list) there is no dimension to halve.
//!
//! The K-port cut bound. In one step the messages crossing from A to V∖A are
//! sent by nodes of A, each on at most min(K, e(x)) links, e(x) its neighbours
//! on the other side, and received by nodes of V∖A, each on at most
//! min(K, e(y)); so at most cap_K(A) = min(Σ_{x∈A} min(K, e(x)),
//! Σ_{y∉A} min(K, e(y))) of the |A|·|V∖A| messages from A to V∖A cross a step,
//! and no total exchange takes fewer than ⌈|A|·|V∖A| / cap_K(A)⌉ steps. For K
//! at least every degree both sums are c(A), the directed links from A to V∖A:
//! the all-port cut bound. Any routing and any buffering.
//!
//! The exhaustive search visits the 2^(N−1) sets containing node 0 in Gray
//! code order, so each differs from the last by one node and the sums are
//! updated in O(degree). The heuristic search (graphs above
//! [`EXHAUSTIVE_NODES`] nodes) starts from breadth-first sweeps (the prefixes
//! of the breadth-first order from several start nodes) and refines the best
//! prefix of each by Fiduccia–Mattheyses passes (move every node once, the best
//! ratio first, keep the best prefix of the moves); it keeps the best cut any
//! step saw. Whatever it finds is a cut, so its bound holds; it may not be the
//! best.

use super::cut::{Cut, Ratio};
pub use super::cut::{CutMethod, better};
use crate::network::Graph;

/// Largest graph whose every cut is tried.
pub const EXHAUSTIVE_NODES: usize = 24;

/// Largest graph the Fiduccia–Mattheyses passes refine (each pass takes
/// O(N²)); larger graphs get the sweeps alone.
pub const REFINE_NODES: usize = 4096;

/// Breadth-first sweeps (and refinements) the heuristic search starts.
pub const STARTS: usize = 8;

/// Refinement passes at most per start.
const PASSES: usize = 8;

/// A set A of nodes with the sums the bound needs, updated one node at a time.
struct CutState<'a> {
    graph: &'a Graph,
    /// The K of K-port (`u64::MAX`: all-port).
    ports: u64,
    in_a: Vec<bool>,
    /// Neighbours on the other side, per node.
    across: Vec<u64>,
    size: u64,
    edges: u64,
    /// Σ_{x∈A} min(K, e(x)) and Σ_{y∉A} min(K, e(y)).
    send: u64,
    receive: u64,
}

impl<'a> CutState<'a> {
    /// A = {0}.
    fn new(graph: &'a Graph, ports: u64) -> CutState<'a> {
        let n = graph.nodes();
        let mut s = CutState {
            graph,
            ports,
            in_a: vec![false; n],
            across: vec![0; n],
            size: 0,
            edges: 0,
            send: 0,
            receive: 0,
        };
        s.flip(0);
        s
    }

    fn share(&self, x: u32) -> u64 {
        self.ports.min(self.across[x as usize])
    }

    fn add_share(&mut self, x: u32, sign: bool) {
        let share = self.share(x);
        let sum = if self.in_a[x as usize] {
            &mut self.send
        } else {
            &mut self.receive
        };
        *sum = if sign { *sum + share } else { *sum - share };
    }

    /// Moves `v` to the other side.
    fn flip(&mut self, v: u32) {
        let graph = self.graph;
        self.add_share(v, false);
        for &u in graph.neighbours(v) {
            self.add_share(u, false);
        }
        let joining = !self.in_a[v as usize];
        for &u in graph.neighbours(v) {
            // Before the move u is across from v exactly when their sides differ.
            if self.in_a[u as usize] == self.in_a[v as usize] {
                self.across[u as usize] += 1;
                self.edges += 1;
            } else {
                self.across[u as usize] -= 1;
                self.edges -= 1;
            }
        }
        self.in_a[v as usize] = joining;
        self.across[v as usize] = graph.degree(v) as u64 - self.across[v as usize];
        if joining {
            self.size += 1;
        } else {
            self.size -= 1;
        }
        self.add_share(v, true);
        for &u in graph.neighbours(v) {
            self.add_share(u, true);
        }
    }

    /// |A|·|V∖A| / cap_K(A), or `None` when a side is empty.
    fn ratio(&self) -> Option<Ratio> {
        let n = self.graph.nodes() as u64;
        let capacity = self.send.min(self.receive);
        (self.size > 0 && self.size < n && capacity > 0).then(|| Ratio {
            numerator: self.size * (n - self.size),
            denominator: capacity,
        })
    }

    /// This cut as found by `method`, the side holding node 0.
    fn found(&self, method: CutMethod) -> Option<Cut> {
        self.ratio()?;
        let zero_side = self.in_a[0];
        let side: Vec<u32> = (0..self.graph.nodes() as u32)
            .filter(|&x| self.in_a[x as usize] == zero_side)
            .collect();
        let n = self.graph.nodes() as u64;
        let other_side = n - side.len() as u64;
        let capacity = self.send.min(self.receive);
        Cut::of_nodes(side, other_side, self.edges, capacity, method)
    }
}

/// The best cut bound of `graph` under `ports` ports (`None`: all-port):
/// exhaustive up to [`EXHAUSTIVE_NODES`] nodes, heuristic beyond; `None` for
/// a graph of one node.
pub fn best_cut(graph: &Graph, ports: Option<u64>) -> Option<Cut> {
    let ports = ports.unwrap_or(u64::MAX);
    if graph.nodes() < 2 {
        return None;
    }
    if graph.nodes() <= EXHAUSTIVE_NODES {
        exhaustive(graph, ports)
    } else {
        heuristic(graph, ports)
    }
}

/// The cut with side A = `side` under `ports` ports (`None`: all-port),
/// labelled as found by `method`; `None` when a side is empty or a node does
/// not exist.
pub fn cut_of(graph: &Graph, side: &[u32], ports: Option<u64>, method: CutMethod) -> Option<Cut> {
    let mut state = CutState::new(graph, ports.unwrap_or(u64::MAX));
    state.flip(0); // empty
    let mut seen = vec![false; graph.nodes()];
    for &x in side {
        if std::mem::replace(seen.get_mut(x as usize)?, true) {
            continue;
        }
        state.flip(x);
    }
    state.found(method)
}

/// The one enumeration of cuts: every set of nodes holding node 0 of a graph
/// of 2 to [`EXHAUSTIVE_NODES`] nodes, each once, in Gray code order so that
/// each differs from the one before by one node. Yields `(moved node, set)`,
/// the set as a bit mask over the nodes, starting from A = {0} (moved node 0);
/// the whole node set comes once too (callers skip it). `None` outside the
/// size range. Every exhaustive cut search (the bounds here, the MSCCL link
/// loads) walks it.
pub fn every_side(nodes: usize) -> Option<impl Iterator<Item = (u32, u64)>> {
    if !(2..=EXHAUSTIVE_NODES).contains(&nodes) {
        return None;
    }
    let first = std::iter::once((0u32, 1u64));
    let rest = (1..(1u64 << (nodes - 1))).scan(1u64, |set, i| {
        let moved = i.trailing_zeros() + 1;
        *set ^= 1 << moved;
        Some((moved, *set))
    });
    Some(first.chain(rest))
}

/// Every set containing node 0 ([`every_side`]); ties keep the first found.
fn exhaustive(graph: &Graph, ports: u64) -> Option<Cut> {
    let n = graph.nodes();
    let sides = every_side(n)?;
    let best_set = if ports == u64::MAX {
        all_port_gray(graph, sides)
    } else {
        let mut state = CutState::new(graph, ports);
        let mut best: Option<(Ratio, u64)> = None;
        for (moved, set) in sides {
            if moved != 0 {
                state.flip(moved);
            }
            if let Some(r) = state.ratio()
                && best.is_none_or(|(b, _)| r.exceeds(b))
            {
                best = Some((r, set));
            }
        }
        best?.1
    };
    let mut state = CutState::new(graph, ports);
    for x in 1..n as u32 {
        if best_set >> x & 1 == 1 {
            state.flip(x);
        }
    }
    state.found(CutMethod::Exhaustive)
}

/// The all-port case of [`exhaustive`] with node sets as bit masks: moving
/// v changes c(A) by 2·|N(v) on v's side| − deg v, one popcount. Returns the
/// best set (node 0 always in A).
fn all_port_gray(graph: &Graph, sides: impl Iterator<Item = (u32, u64)>) -> u64 {
    let n = graph.nodes();
    let masks: Vec<u64> = (0..n as u32)
        .map(|x| graph.neighbours(x).iter().fold(0, |m, &y| m | 1 << y))
        .collect();
    let degrees: Vec<u64> = masks.iter().map(|m| u64::from(m.count_ones())).collect();
    let full = (1u64 << n) - 1;
    let mut edges = 0u64;
    let mut before = 0u64;
    let mut best: Option<(Ratio, u64)> = None;
    for (moved, set) in sides {
        let v = moved as usize;
        // `before` is the set the move started from (empty before A = {0}).
        let same_side = if before >> v & 1 == 1 {
            before
        } else {
            full & !before
        };
        edges = edges + 2 * u64::from((masks[v] & same_side).count_ones()) - degrees[v];
        before = set;
        let size = u64::from(set.count_ones());
        if size < n as u64 {
            let r = Ratio {
                numerator: size * (n as u64 - size),
                denominator: edges,
            };
            if best.is_none_or(|(b, _)| r.exceeds(b)) {
                best = Some((r, set));
            }
        }
    }
    best.map_or(1, |(_, set)| set)
}

/// Sweeps and refinement from [`STARTS`] start nodes spread over the graph.
fn heuristic(graph: &Graph, ports: u64) -> Option<Cut> {
    let n = graph.nodes();
    let refined = n <= REFINE_NODES;
    let method = CutMethod::Heuristic {
        starts: STARTS.min(n),
        refined,
    };
    let mut best = None;
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for start in 0..STARTS.min(n) {
        let from = if start == 0 {
            0
        } else {
            // xorshift: reproducible start nodes.
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as u32
        };
        let order = bfs_order(graph, from);
        let mut state = best_prefix(graph, ports, &order);
        best = better(best, state.found(method));
        if refined {
            best = better(best, refine(&mut state, method));
        }
    }
    best
}

/// The nodes in breadth-first order from `from`.
fn bfs_order(graph: &Graph, from: u32) -> Vec<u32> {
    let dist = graph.distances_to(from);
    let mut order: Vec<u32> = (0..graph.nodes() as u32).collect();
    order.sort_by_key(|&x| dist[x as usize]);
    order
}

/// The state holding the best proper prefix of `order` as A.
fn best_prefix<'a>(graph: &'a Graph, ports: u64, order: &[u32]) -> CutState<'a> {
    let mut state = CutState::new(graph, ports);
    state.flip(0); // empty
    let mut best: Option<(Ratio, usize)> = None;
    for (i, &x) in order[..order.len() - 1].iter().enumerate() {
        state.flip(x);
        if let Some(r) = state.ratio()
            && best.is_none_or(|(b, _)| r.exceeds(b))
        {
            best = Some((r, i + 1));
        }
    }
    let len = best.map_or(1, |(_, len)| len);
    let mut state = CutState::new(graph, ports);
    state.flip(0);
    for &x in &order[..len] {
        state.flip(x);
    }
    state
}

/// Fiduccia–Mattheyses passes on `state`, each move chosen by the all-port
/// ratio it leaves; returns the best cut (under the state's ports) any move
/// reached, and leaves `state` at the best end of a pass.
fn refine(state: &mut CutState<'_>, method: CutMethod) -> Option<Cut> {
    let n = state.graph.nodes();
    let mut best = state.found(method);
    for _ in 0..PASSES {
        let start = state.ratio();
        let mut locked = vec![false; n];
        let mut moves = Vec::new();
        let mut best_len: Option<(Ratio, usize)> = start.map(|r| (r, 0));
        while let Some(v) = best_move(state, &locked) {
            locked[v as usize] = true;
            state.flip(v);
            moves.push(v);
            if let Some(r) = state.ratio() {
                if best_len.is_none_or(|(b, _)| r.exceeds(b)) {
                    best_len = Some((r, moves.len()));
                }
                if best.as_ref().is_none_or(|b| r.exceeds(b.ratio)) {
                    best = state.found(method);
                }
            }
        }
        let keep = best_len.map_or(0, |(_, len)| len);
        for &v in moves[keep..].iter().rev() {
            state.flip(v);
        }
        if keep == 0 {
            break;
        }
    }
    best
}

/// The unlocked node whose move leaves the largest all-port ratio
/// |A|·|V∖A| / c(A), never emptying a side.
fn best_move(state: &CutState<'_>, locked: &[bool]) -> Option<u32> {
    let n = state.graph.nodes() as u64;
    let mut best: Option<(Ratio, u32)> = None;
    for v in 0..n as u32 {
        if locked[v as usize] {
            continue;
        }
        let inside = state.in_a[v as usize];
        let size = if inside {
            state.size - 1
        } else {
            state.size + 1
        };
        let degree = state.graph.degree(v) as u64;
        let edges = state.edges + degree - 2 * state.across[v as usize];
        if size == 0 || size == n || edges == 0 {
            continue;
        }
        let r = Ratio {
            numerator: size * (n - size),
            denominator: edges,
        };
        if best.is_none_or(|(b, _)| r.exceeds(b)) {
            best = Some((r, v));
        }
    }
    best.map(|(_, v)| v)
}

#[cfg(test)]
mod tests;

/// The best cut over every partition of the nodes into two non-empty sets,
/// by the one enumeration of cuts ([`every_side`], graphs
/// up to [`EXHAUSTIVE_NODES`] nodes; `None` beyond).
pub fn best_bisection(graph: &Graph) -> Option<Cut> {
    if graph.nodes() > EXHAUSTIVE_NODES {
        return None;
    }
    best_cut(graph, None)
}
