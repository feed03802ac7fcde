//! Routing that follows the LP's flow: each source's fractional flow
//! (`LpSolution::per_source` of the core's LP bound, N − 1 units out of the
//! source and one into every other node) is decomposed into paths, each
//! message (s, t) gets the paths into t with the share of t's unit they carry,
//! and every message then takes one of its paths: the one with the largest
//! share first, then, pass after pass, the one whose links are least crowded
//! under a length that grows steeply with the load (as in `flow.rs`), the
//! others' paths as they stand. The LP's flow has the least busiest load of
//! any fractional routing, so its paths are the right ones to choose among;
//! rounding to one path a message costs a little, which the passes win back.
//!
//! Nothing here is trusted: a flow that does not decompose (rounding errors)
//! leaves the message on a shortest path, and the schedule made from these
//! routes is replayed and judged by the caller like any other.

use super::routes::{Block, Routes};
use std::collections::VecDeque;
use txverify_core::network::Graph;

/// Shares below this are rounding noise of the descent's sums.
const NOISE: f64 = 1e-6;

/// The most paths kept for one message (the largest shares).
const MOST_PATHS: usize = 8;

/// Passes of re-choosing every message's path.
const PASSES: usize = 6;

/// The steepness of a link's length in its load (see `flow.rs`).
const POWER: i32 = 20;

/// The candidate paths of every message from one source: `links[starts[i]..starts[i + 1]]`
/// is path `i`, for the message to `to[i]` (paths to one node are adjacent,
/// in decreasing share).
#[derive(Default)]
struct SourcePaths {
    starts: Vec<u32>,
    links: Vec<u32>,
    to: Vec<u32>,
    share: Vec<f64>,
}

impl SourcePaths {
    fn path(&self, i: usize) -> &[u32] {
        &self.links[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The links into each node.
fn incoming(graph: &Graph) -> Vec<Vec<u32>> {
    let mut into = vec![Vec::new(); graph.nodes()];
    for l in 0..graph.directed_links() as u32 {
        into[graph.endpoints(l).1 as usize].push(l);
    }
    into
}

/// Decomposes the flow `flow` out of `s` into paths, one unit into every other
/// node; a node the flow does not reach (noise) gets a fewest-hop path.
fn decompose(graph: &Graph, into: &[Vec<u32>], s: u32, flow: &[f64]) -> SourcePaths {
    let n = graph.nodes();
    let mut f = flow.to_vec();
    let mut out = SourcePaths::default();
    out.starts.push(0);
    let mut walk: Vec<u32> = Vec::new();
    let mut on_walk = vec![u32::MAX; n];
    let mut found: Vec<(f64, Vec<u32>)> = Vec::new();
    for t in 0..n as u32 {
        if t == s {
            continue;
        }
        found.clear();
        let mut demand = 1.0f64;
        // Each round takes one path off the flow, or cancels one cycle.
        let mut rounds = 0;
        while demand > NOISE && rounds < 4 * graph.directed_links() + n {
            rounds += 1;
            walk.clear();
            let mut v = t;
            on_walk[t as usize] = 0;
            let mut stuck = false;
            while v != s {
                let best = into[v as usize]
                    .iter()
                    .copied()
                    .filter(|&l| f[l as usize] > NOISE)
                    .max_by(|&a, &b| f[a as usize].total_cmp(&f[b as usize]));
                let Some(l) = best else {
                    stuck = true;
                    break;
                };
                let u = graph.endpoints(l).0;
                walk.push(l);
                if on_walk[u as usize] != u32::MAX {
                    // A cycle: u … v → u. Cancel it and walk on from u.
                    let from = on_walk[u as usize] as usize;
                    let cycle = &walk[from..];
                    let least = cycle
                        .iter()
                        .map(|&c| f[c as usize])
                        .fold(f64::INFINITY, f64::min);
                    for &c in cycle {
                        f[c as usize] -= least;
                    }
                    for &c in &walk[from..] {
                        let head = graph.endpoints(c).1;
                        if head != u {
                            on_walk[head as usize] = u32::MAX;
                        }
                    }
                    walk.truncate(from);
                } else {
                    on_walk[u as usize] = walk.len() as u32;
                }
                v = u;
            }
            for &l in &walk {
                on_walk[graph.endpoints(l).1 as usize] = u32::MAX;
            }
            on_walk[s as usize] = u32::MAX;
            on_walk[t as usize] = u32::MAX;
            if stuck {
                break;
            }
            let amount = walk.iter().map(|&l| f[l as usize]).fold(demand, f64::min);
            for &l in &walk {
                f[l as usize] -= amount;
            }
            demand -= amount;
            let mut path = walk.clone();
            path.reverse();
            found.push((amount, path));
        }
        if found.is_empty() {
            found.push((1.0, fewest_hops(graph, s, t)));
        }
        found.sort_by(|a, b| b.0.total_cmp(&a.0));
        found.truncate(MOST_PATHS);
        for (share, path) in found.drain(..) {
            out.links.extend_from_slice(&path);
            out.starts.push(out.links.len() as u32);
            out.to.push(t);
            out.share.push(share);
        }
    }
    out
}

/// A fewest-hop path from `s` to `t` (the graph is connected).
fn fewest_hops(graph: &Graph, s: u32, t: u32) -> Vec<u32> {
    let mut via = vec![u32::MAX; graph.nodes()];
    let mut queue = VecDeque::from([s]);
    let mut seen = vec![false; graph.nodes()];
    seen[s as usize] = true;
    while let Some(u) = queue.pop_front() {
        if u == t {
            break;
        }
        for l in graph.links_of(u) {
            let w = graph.endpoints(l).1 as usize;
            if !seen[w] {
                seen[w] = true;
                via[w] = l;
                queue.push_back(w as u32);
            }
        }
    }
    let mut path = Vec::new();
    let mut v = t;
    while v != s && via[v as usize] != u32::MAX {
        let l = via[v as usize];
        path.push(l);
        v = graph.endpoints(l).0;
    }
    path.reverse();
    path
}

/// The routes that follow `per_source` (`per_source[s][link]`, see the module
/// notes): every message on one of its flow's paths.
pub(super) fn follow(graph: &Graph, per_source: &[Vec<f64>]) -> Routes {
    let n = graph.nodes();
    let into = incoming(graph);
    let paths: Vec<SourcePaths> = (0..n as u32)
        .map(|s| decompose(graph, &into, s, &per_source[s as usize]))
        .collect();
    // chosen[s][k]: the path of the k-th message from s (to the k-th other node).
    let mut chosen: Vec<Vec<u32>> = paths
        .iter()
        .map(|p| {
            let mut first = Vec::with_capacity(n.saturating_sub(1));
            for i in 0..p.to.len() {
                if i == 0 || p.to[i] != p.to[i - 1] {
                    first.push(i as u32);
                }
            }
            first
        })
        .collect();
    let mut load = vec![0u32; graph.directed_links()];
    for (p, c) in paths.iter().zip(&chosen) {
        for &i in c {
            p.path(i as usize)
                .iter()
                .for_each(|&l| load[l as usize] += 1);
        }
    }
    for _ in 0..PASSES {
        let scale = f64::from(load.iter().copied().max().unwrap_or(1).max(1));
        let cost = |x: u32| ((f64::from(x) + 1.0) / scale).powi(POWER);
        let mut moved = false;
        for (p, c) in paths.iter().zip(chosen.iter_mut()) {
            let mut i = 0;
            for slot in c.iter_mut() {
                let first = i;
                while i < p.to.len() && p.to[i] == p.to[first] {
                    i += 1;
                }
                if i - first < 2 {
                    continue;
                }
                let now = *slot as usize;
                p.path(now).iter().for_each(|&l| load[l as usize] -= 1);
                let best = (first..i)
                    .min_by(|&a, &b| {
                        let ca: f64 = p.path(a).iter().map(|&l| cost(load[l as usize])).sum();
                        let cb: f64 = p.path(b).iter().map(|&l| cost(load[l as usize])).sum();
                        ca.total_cmp(&cb)
                    })
                    .unwrap_or(now);
                moved |= best != now;
                *slot = best as u32;
                p.path(best).iter().for_each(|&l| load[l as usize] += 1);
            }
        }
        if !moved {
            break;
        }
    }
    // One block per destination, sources in increasing order.
    let mut blocks: Vec<Block> = (0..n)
        .map(|_| Block {
            starts: vec![0],
            links: Vec::new(),
        })
        .collect();
    for s in 0..n {
        for (k, &i) in chosen[s].iter().enumerate() {
            let t = if k < s { k } else { k + 1 };
            let b = &mut blocks[t];
            b.links.extend_from_slice(paths[s].path(i as usize));
            b.starts.push(b.links.len() as u32);
        }
    }
    Routes {
        n: n as u32,
        blocks,
    }
}
