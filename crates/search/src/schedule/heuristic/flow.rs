//! Min-congestion rerouting: paths that follow the flow, not only the
//! shortest ones.
//!
//! Each pass takes the messages of one destination `d` at a time off their
//! paths, gives every directed link a length that grows steeply with its load
//! (`BASE + ((load + 1) / Λ)^POWER`, Λ the busiest link's load when the pass
//! began: the marginal cost of a convex penalty on the load), computes the
//! cheapest length from every node to `d` (Dijkstra over the links reversed),
//! and routes each message downhill: from its node it takes, among the links
//! to a node strictly nearer `d` in that length, the one whose length with
//! the loads as they now stand (the messages to `d` routed before it
//! included) plus the length onward is least. Lengths are positive, so a path
//! never repeats a node. This is the multiplicative-weights scheme of
//! min-congestion multicommodity flow, one destination's messages at a time;
//! a path may be longer than the distance when the shortest ones are crowded.

use super::routes::Routes;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use txverify_core::network::Graph;

/// The length of a link with no load relative to the busiest: keeps paths
/// from wandering through idle links.
const BASE: f64 = 0.2;

/// The steepness of the length in the load.
const POWER: i32 = 30;

/// The length of a link carrying `load` when the busiest carried `scale`.
fn length(load: u32, scale: f64) -> f64 {
    BASE + ((f64::from(load) + 1.0) / scale).powi(POWER)
}

/// The links into each node (Dijkstra runs from the destination backwards).
struct Incoming {
    starts: Vec<u32>,
    links: Vec<u32>,
}

impl Incoming {
    fn new(graph: &Graph) -> Incoming {
        let n = graph.nodes();
        let mut starts = vec![0u32; n + 1];
        for l in 0..graph.directed_links() as u32 {
            starts[graph.endpoints(l).1 as usize + 1] += 1;
        }
        for v in 0..n {
            starts[v + 1] += starts[v];
        }
        let mut fill = starts.clone();
        let mut links = vec![0u32; graph.directed_links()];
        for l in 0..graph.directed_links() as u32 {
            let v = graph.endpoints(l).1 as usize;
            links[fill[v] as usize] = l;
            fill[v] += 1;
        }
        Incoming { starts, links }
    }

    fn of(&self, v: u32) -> &[u32] {
        &self.links[self.starts[v as usize] as usize..self.starts[v as usize + 1] as usize]
    }
}

/// `passes` passes of min-congestion rerouting over every destination; the
/// messages to one destination are routed in `groups` groups (every
/// `groups`-th source), the lengths computed again before each group. Ends
/// early, every path whole, when `stop()` says so (asked before each
/// destination).
pub(super) fn reroute(
    graph: &Graph,
    routes: &mut Routes,
    passes: usize,
    groups: usize,
    stop: &dyn Fn() -> bool,
) {
    let n = graph.nodes();
    if n < 2 {
        return;
    }
    let groups = groups.clamp(1, n - 1);
    let into = Incoming::new(graph);
    let mut load = routes.loads(graph);
    let mut dist = vec![f64::INFINITY; n];
    let mut heap: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
    let mut paths: Vec<Vec<u32>> = vec![Vec::new(); n - 1];
    for _ in 0..passes {
        let scale = f64::from(load.iter().copied().max().unwrap_or(1).max(1));
        let mut lengths = Lengths {
            load: &mut load,
            scale,
            of: Vec::new(),
        };
        lengths.of = lengths.load.iter().map(|&x| length(x, scale)).collect();
        for d in 0..n as u32 {
            if stop() {
                return;
            }
            let block = &mut routes.blocks[d as usize];
            block.links.iter().for_each(|&l| lengths.add(l, -1));
            for g in 0..groups {
                lengths_to(graph, &into, d, &lengths.of, &mut dist, &mut heap);
                for j in (g..n - 1).step_by(groups) {
                    let path = &mut paths[j];
                    path.clear();
                    downhill(
                        graph,
                        Routes::source(d, j as u32),
                        d,
                        &dist,
                        &mut lengths,
                        path,
                    );
                }
            }
            block.links.clear();
            block.starts.clear();
            block.starts.push(0);
            for path in &paths {
                block.links.extend_from_slice(path);
                block.starts.push(block.links.len() as u32);
            }
        }
    }
}

/// The cheapest length from every node to `d` under the lengths of the loads.
fn lengths_to(
    graph: &Graph,
    into: &Incoming,
    d: u32,
    lengths: &[f64],
    dist: &mut [f64],
    heap: &mut BinaryHeap<Reverse<(u64, u32)>>,
) {
    dist.fill(f64::INFINITY);
    dist[d as usize] = 0.0;
    heap.push(Reverse((0f64.to_bits(), d)));
    while let Some(Reverse((bits, u))) = heap.pop() {
        let du = f64::from_bits(bits);
        if du > dist[u as usize] {
            continue;
        }
        for &l in into.of(u) {
            let v = graph.endpoints(l).0 as usize;
            let nd = du + lengths[l as usize];
            if nd < dist[v] {
                dist[v] = nd;
                heap.push(Reverse((nd.to_bits(), v as u32)));
            }
        }
    }
}

/// The loads and the lengths they give, kept together.
struct Lengths<'a> {
    load: &'a mut [u32],
    scale: f64,
    of: Vec<f64>,
}

impl Lengths<'_> {
    fn add(&mut self, l: u32, by: i32) {
        let x = &mut self.load[l as usize];
        *x = x.wrapping_add_signed(by);
        self.of[l as usize] = length(*x, self.scale);
    }
}

/// Routes from `s` to `d` downhill in `dist`, each hop over the link whose
/// length with the loads as they now stand plus the length onward is least,
/// adding to the loads.
fn downhill(
    graph: &Graph,
    s: u32,
    d: u32,
    dist: &[f64],
    lengths: &mut Lengths,
    path: &mut Vec<u32>,
) {
    let mut u = s;
    while u != d {
        let here = dist[u as usize];
        let mut best = None;
        let mut best_cost = f64::INFINITY;
        for l in graph.links_of(u) {
            let w = graph.endpoints(l).1 as usize;
            if dist[w] < here {
                let c = lengths.of[l as usize] + dist[w];
                if c < best_cost {
                    best_cost = c;
                    best = Some(l);
                }
            }
        }
        // The graph is connected: the link Dijkstra came by is downhill.
        let Some(l) = best else { break };
        lengths.add(l, 1);
        path.push(l);
        u = graph.endpoints(l).1;
    }
}
