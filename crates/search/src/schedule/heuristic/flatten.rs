//! Flattening the busiest links: while some directed link carries the most
//! messages, each message over such a link is taken off its path and given
//! the fewest-hop path whose every link would still carry fewer than that
//! most; when every busiest link is emptied so, the most has come down by one
//! and it starts again. It stops when a busiest link keeps its load, or when
//! its work (hops scanned, links looked at by the searches) reaches a budget,
//! or when its stop says so (every path stays whole).

use super::routes::Routes;
use std::collections::VecDeque;
use txverify_core::network::Graph;

/// How many messages are moved between two questions to the stop.
const STOP_EVERY: usize = 1024;

/// Flattens `routes` (see the module notes); at most `rounds` decreases and
/// about `budget` hops and links looked at; ends early when `stop()` says so
/// (asked before each round and every [`STOP_EVERY`] messages moved).
pub(super) fn flatten(
    graph: &Graph,
    routes: &mut Routes,
    rounds: usize,
    budget: u64,
    stop: &dyn Fn() -> bool,
) {
    let n = graph.nodes();
    if n < 2 {
        return;
    }
    let per = n - 1;
    let mut load = routes.loads(graph);
    let mut via = vec![u32::MAX; n];
    let mut seen = vec![false; n];
    let mut queue = VecDeque::new();
    let mut path = Vec::new();
    let mut work = 0u64;
    for _ in 0..rounds {
        if stop() {
            return;
        }
        work += routes.total_hops();
        let most = load.iter().copied().max().unwrap_or(0);
        if most <= 1 {
            return;
        }
        let hot: Vec<bool> = load.iter().map(|&x| x == most).collect();
        let candidates: Vec<usize> = (0..routes.messages())
            .filter(|&m| routes.hops(m).iter().any(|&l| hot[l as usize]))
            .collect();
        for (i, m) in candidates.into_iter().enumerate() {
            if work > budget || (i % STOP_EVERY == STOP_EVERY - 1 && stop()) {
                return;
            }
            if !routes.hops(m).iter().any(|&l| load[l as usize] == most) {
                continue;
            }
            let (s, d) = routes.message(m);
            routes.hops(m).iter().for_each(|&l| load[l as usize] -= 1);
            // Fewest hops over links that stay below `most` with one more.
            seen.fill(false);
            queue.clear();
            seen[s as usize] = true;
            queue.push_back(s);
            while let Some(u) = queue.pop_front() {
                if u == d {
                    break;
                }
                for l in graph.links_of(u) {
                    work += 1;
                    let w = graph.endpoints(l).1 as usize;
                    if !seen[w] && load[l as usize] + 2 <= most {
                        seen[w] = true;
                        via[w] = l;
                        queue.push_back(w as u32);
                    }
                }
            }
            if seen[d as usize] {
                path.clear();
                let mut v = d;
                while v != s {
                    let l = via[v as usize];
                    path.push(l);
                    v = graph.endpoints(l).0;
                }
                path.reverse();
                let block = &mut routes.blocks[m / per];
                let j = m % per;
                let (a, z) = (block.starts[j] as usize, block.starts[j + 1] as usize);
                let grown = path.len() as i64 - (z - a) as i64;
                block.links.splice(a..z, path.iter().copied());
                for start in &mut block.starts[j + 1..] {
                    *start = (i64::from(*start) + grown) as u32;
                }
            }
            routes.hops(m).iter().for_each(|&l| load[l as usize] += 1);
        }
        if load.contains(&most) {
            return;
        }
    }
}
