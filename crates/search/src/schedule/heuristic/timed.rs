//! Routing and scheduling at once: each message in turn takes the path that
//! arrives earliest given the steps the messages before it reserved
//! (prioritised planning in the network unrolled in time), among the paths at
//! most `slack` hops longer than the distance.

use super::list::{FreeSteps, Timed};
use super::routes::{Block, Routes, tie};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use txverify_core::network::{DistanceTable, Graph};

/// How many messages are routed between two questions to `stop`.
const STOP_EVERY: usize = 1024;

/// Earliest-arrival routing of every message, `order` giving the messages
/// in the order they reserve (see [`Routes::message`] for the numbering);
/// `None` when `stop()` said so first (it is asked every [`STOP_EVERY`]
/// messages: a partial routing is of no use).
pub(super) fn earliest_arrival(
    graph: &Graph,
    table: &DistanceTable,
    order: &[u32],
    slack: u32,
    stop: &dyn Fn() -> bool,
) -> Option<Timed> {
    let n = graph.nodes();
    let per = n - 1;
    let mut free: Vec<FreeSteps> = (0..graph.directed_links())
        .map(|_| FreeSteps::default())
        .collect();
    // Per message: its links and their steps.
    let mut found: Vec<(Vec<u32>, Vec<u32>)> = vec![(Vec::new(), Vec::new()); n * per];
    let mut arrival = vec![u32::MAX; n];
    let mut hops = vec![u32::MAX; n];
    let mut via = vec![u32::MAX; n];
    let mut touched: Vec<u32> = Vec::new();
    let mut heap: BinaryHeap<Reverse<(u32, u32, u32)>> = BinaryHeap::new();
    let mut time = 0;
    for (k, &m) in order.iter().enumerate() {
        if k % STOP_EVERY == 0 && stop() {
            return None;
        }
        let (d, j) = (m as usize / per, m as usize % per);
        let s = Routes::source(d as u32, j as u32);
        let (from_s, to_d) = (table.row(s), table.row(d as u32));
        let budget = from_s[d] + slack;
        for &v in &touched {
            arrival[v as usize] = u32::MAX;
            hops[v as usize] = u32::MAX;
        }
        touched.clear();
        heap.clear();
        arrival[s as usize] = 0;
        hops[s as usize] = 0;
        touched.push(s);
        heap.push(Reverse((0, 0, s)));
        while let Some(Reverse((t, h, u))) = heap.pop() {
            if (t, h) != (arrival[u as usize], hops[u as usize]) {
                continue;
            }
            if u as usize == d {
                break;
            }
            for l in graph.links_of(u) {
                let w = graph.endpoints(l).1 as usize;
                if h + 1 + to_d[w] > budget {
                    continue;
                }
                let at = free[l as usize].peek(t + 1);
                if (at, h + 1) < (arrival[w], hops[w]) {
                    if arrival[w] == u32::MAX {
                        touched.push(w as u32);
                    }
                    arrival[w] = at;
                    hops[w] = h + 1;
                    via[w] = l;
                    heap.push(Reverse((at, h + 1, w as u32)));
                }
            }
        }
        let (links, steps) = &mut found[m as usize];
        let mut v = d as u32;
        while v != s {
            let l = via[v as usize];
            links.push(l);
            v = graph.endpoints(l).0;
        }
        links.reverse();
        let mut at = 0;
        for &l in links.iter() {
            at = free[l as usize].take_from(at + 1);
            steps.push(at);
        }
        time = time.max(at);
    }
    let mut routes = Routes {
        n: n as u32,
        blocks: Vec::with_capacity(n),
    };
    let mut all_steps = Vec::with_capacity(n);
    // A block per node, `per` messages each (none on a one-node network).
    for chunk in (0..n).map(|d| &found[d * per..(d + 1) * per]) {
        let mut block = Block::default();
        let mut steps = Vec::new();
        block.starts.push(0);
        for (links, s) in chunk {
            block.links.extend_from_slice(links);
            steps.extend_from_slice(s);
            block.starts.push(block.links.len() as u32);
        }
        routes.blocks.push(block);
        all_steps.push(steps);
    }
    Some(Timed {
        routes,
        steps: all_steps,
        time,
    })
}

/// The messages longest distance first, ties by `seed`.
pub(super) fn longest_first(graph: &Graph, table: &DistanceTable, seed: u64) -> Vec<u32> {
    let n = graph.nodes();
    let per = n - 1;
    let mut order: Vec<u32> = (0..(n * per) as u32).collect();
    order.sort_by_key(|&m| {
        let (d, j) = (m as usize / per, m as usize % per);
        let s = Routes::source(d as u32, j as u32);
        (Reverse(table.get(s, d as u32)), tie(seed, u64::from(m)))
    });
    order
}
