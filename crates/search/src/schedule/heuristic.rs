//! A fast total-exchange schedule for networks SAT cannot reach: balanced
//! shortest paths and list scheduling.
//!
//! Routing: for each destination, one breadth-first search; each message then
//! walks from its source toward the destination, at every node taking, among
//! the links that bring it one hop closer, the one fewest messages were routed
//! over so far (ties: the lowest link id), and then each message is routed
//! again the same way, knowing all the others' loads. Scheduling: the
//! messages are taken longest path first (ties by destination, then source),
//! and each crosses its
//! links in order, each at the earliest step after it arrived at which that
//! directed link is still free (buffering allowed: it may wait). The earliest
//! free step of a link is found with a union-find over its steps, so the whole
//! run is about linear in the number of hops. Small networks get more
//! attempts, with ties broken by a seeded hash, and keep the fastest.
//!
//! Nothing here is trusted: the caller replays the sends and judges them.

use txverify_core::network::Graph;
use txverify_core::schedule::TimedSend;

/// The restarts together take at most this many hops (a small network gets
/// many, a large one only the first).
const RESTART_HOPS: usize = 5_000_000;

/// The most hops (sends) a schedule of [`list_schedule`] may have: it routes on
/// shortest paths, so a network's total status Σ d(x, y) is its count, known
/// before it runs; the sends take 20 bytes each and more again to route.
pub const MAX_SENDS: u64 = 1 << 25;

/// The most attempts.
const MAX_ATTEMPTS: usize = 256;

/// The sends of a total exchange on `graph`, in step order: the fastest of
/// a few attempts, the first with the rules of the module notes and the others
/// with ties among equally loaded links and equally long paths broken by a
/// seeded hash instead (the same attempts on every run).
pub fn list_schedule(graph: &Graph) -> Vec<TimedSend> {
    let time = |sends: &[TimedSend]| sends.iter().map(|s| s.step).max().unwrap_or(0);
    let mut best = attempt(graph, 0);
    let attempts = (RESTART_HOPS / best.len().max(1)).clamp(1, MAX_ATTEMPTS);
    for seed in 1..attempts as u64 {
        let sends = attempt(graph, seed);
        if time(&sends) < time(&best) {
            best = sends;
        }
    }
    if graph.nodes() <= CONVEX_NODES {
        for seed in 0..CONVEX_ATTEMPTS {
            let mut routes = balanced_routes(graph, seed);
            convex_reroute(graph, &mut routes, seed);
            let sends = schedule(graph, &routes, seed);
            if time(&sends) < time(&best) {
                best = sends;
            }
        }
    }
    best.sort_by_key(|s| s.step);
    best
}

/// A tie-breaking key for `x`: `x` itself for seed 0, else a hash of both.
fn tie(seed: u64, x: u64) -> u64 {
    if seed == 0 {
        return x;
    }
    // splitmix64's finaliser.
    let mut z = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(x);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One routing and list scheduling, ties broken by `seed`.
fn attempt(graph: &Graph, seed: u64) -> Vec<TimedSend> {
    schedule(graph, &balanced_routes(graph, seed), seed)
}

/// List scheduling of `routes`: longest path first, each hop at the earliest
/// step its link is free after the message arrived.
fn schedule(graph: &Graph, routes: &Routes, seed: u64) -> Vec<TimedSend> {
    let mut order: Vec<usize> = (0..routes.messages.len()).collect();
    // Longest first; with seed 0, ties keep (destination, source) order.
    order.sort_by_key(|&m| (std::cmp::Reverse(routes.hops(m).len()), tie(seed, m as u64)));
    let mut free: Vec<FreeSteps> = (0..graph.directed_links())
        .map(|_| FreeSteps::default())
        .collect();
    let mut sends = Vec::with_capacity(routes.links.len());
    for m in order {
        let (source, destination) = routes.messages[m];
        let mut arrived = 0u32;
        for &link in routes.hops(m) {
            let step = free[link as usize].take_from(arrived + 1);
            let (from, to) = graph.endpoints(link);
            sends.push(TimedSend {
                step,
                from,
                to,
                source,
                destination,
            });
            arrived = step;
        }
    }
    sends
}

/// Every message's path, as directed link ids, in one flat array.
struct Routes {
    /// `(source, destination)` of message `m`.
    messages: Vec<(u32, u32)>,
    /// `links[starts[m]..starts[m + 1]]` are the links of message `m`, in order.
    links: Vec<u32>,
    starts: Vec<usize>,
}

impl Routes {
    fn hops(&self, m: usize) -> &[u32] {
        &self.links[self.starts[m]..self.starts[m + 1]]
    }
}

/// Rerouting passes after the first routing (each takes about as long as it).
const REROUTE_PASSES: usize = 2;

/// Shortest paths, each link chosen as the least loaded of those that bring
/// the message closer (see the module notes); then each message in turn is
/// taken off its path and routed again the same way, now that the loads of
/// all the others are known.
fn balanced_routes(graph: &Graph, seed: u64) -> Routes {
    let n = graph.nodes() as u32;
    let mut load = vec![0u32; graph.directed_links()];
    let mut routes = Routes {
        messages: Vec::new(),
        links: Vec::new(),
        starts: vec![0],
    };
    for d in 0..n {
        let to_d = graph.distances_to(d);
        for s in (0..n).filter(|&s| s != d) {
            let start = routes.links.len();
            routes.links.resize(start + to_d[s as usize] as usize, 0);
            walk(
                graph,
                &to_d,
                s,
                (&mut load, seed),
                &mut routes.links[start..],
            );
            routes.messages.push((s, d));
            routes.starts.push(routes.links.len());
        }
    }
    for _ in 0..REROUTE_PASSES {
        let mut m = 0;
        for d in 0..n {
            let to_d = graph.distances_to(d);
            for s in (0..n).filter(|&s| s != d) {
                let path = &mut routes.links[routes.starts[m]..routes.starts[m + 1]];
                path.iter().for_each(|&l| load[l as usize] -= 1);
                walk(graph, &to_d, s, (&mut load, seed), path);
                m += 1;
            }
        }
    }
    routes
}

/// Walks from `s` toward the node `to_d` measures distances to, one hop
/// closer each time over the least loaded link (ties: the lowest id), adding
/// to the loads (ties: by `seed`, see [`tie`]); `path` receives the links (its
/// length is the distance).
fn walk(graph: &Graph, to_d: &[u32], s: u32, (load, seed): (&mut [u32], u64), path: &mut [u32]) {
    let mut u = s;
    for slot in path {
        let closer = graph
            .links_of(u)
            .filter(|&l| to_d[graph.endpoints(l).1 as usize] + 1 == to_d[u as usize]);
        // The graph is connected, so some link brings `u` closer.
        let Some(link) = closer.min_by_key(|&l| (load[l as usize], tie(seed, u64::from(l)))) else {
            return;
        };
        load[link as usize] += 1;
        *slot = link;
        u = graph.endpoints(link).1;
    }
}

/// Networks of at most this many nodes also get the convex rerouting.
const CONVEX_NODES: usize = 64;

/// Rerouting passes of the convex rerouting.
const CONVEX_PASSES: usize = 16;

/// Attempts with the convex rerouting (seeds of the first routing's ties).
const CONVEX_ATTEMPTS: u64 = 32;

/// Takes each message off its path and gives it, among all its shortest paths,
/// the one with the least sum of marginal costs (load + 1)⁴ of its links: the
/// hop-by-hop choice of [`walk`] sees one link at a time, this sees the whole
/// path, so a link that is cheap now but leads to a crowded one is avoided.
/// Repeated for a few passes; the busiest link's load, which bounds the list
/// schedule from below, comes down.
fn convex_reroute(graph: &Graph, routes: &mut Routes, seed: u64) {
    let n = graph.nodes() as u32;
    let mut load = vec![0u32; graph.directed_links()];
    routes.links.iter().for_each(|&l| load[l as usize] += 1);
    let to: Vec<Vec<u32>> = (0..n).map(|d| graph.distances_to(d)).collect();
    let by_distance: Vec<Vec<u32>> = to
        .iter()
        .map(|to_d| {
            let mut nodes: Vec<u32> = (0..n).collect();
            nodes.sort_by_key(|&v| to_d[v as usize]);
            nodes
        })
        .collect();
    let mut cost = vec![0u64; n as usize];
    for _ in 0..CONVEX_PASSES {
        for m in 0..routes.messages.len() {
            let (s, d) = routes.messages[m];
            let path = &mut routes.links[routes.starts[m]..routes.starts[m + 1]];
            path.iter().for_each(|&l| load[l as usize] -= 1);
            let to_d = &to[d as usize];
            // Cheapest cost from every node to d, nearest nodes first.
            for &v in &by_distance[d as usize] {
                cost[v as usize] = if v == d {
                    0
                } else {
                    closer_links(graph, to_d, v)
                        .map(|l| marginal(load[l as usize]) + cost[graph.endpoints(l).1 as usize])
                        .min()
                        .unwrap_or(u64::MAX / 2)
                };
            }
            let mut u = s;
            for slot in path.iter_mut() {
                let Some(link) = closer_links(graph, to_d, u).min_by_key(|&l| {
                    let w = graph.endpoints(l).1 as usize;
                    (
                        marginal(load[l as usize]) + cost[w],
                        tie(seed, u64::from(l)),
                    )
                }) else {
                    break;
                };
                *slot = link;
                u = graph.endpoints(link).1;
            }
            path.iter().for_each(|&l| load[l as usize] += 1);
        }
    }
}

/// The links out of `v` that bring it one hop closer to the node `to_d`
/// measures distances to.
fn closer_links<'a>(graph: &'a Graph, to_d: &'a [u32], v: u32) -> impl Iterator<Item = u32> + 'a {
    graph
        .links_of(v)
        .filter(move |&l| to_d[graph.endpoints(l).1 as usize] + 1 == to_d[v as usize])
}

/// The cost of one more message on a link that carries `load`.
fn marginal(load: u32) -> u64 {
    let x = u64::from(load) + 1;
    x * x * x * x
}

/// The busy steps of one directed link: `next[t]` leads to the earliest free
/// step at or after `t` (union-find with path halving; step 0 is never used).
#[derive(Default)]
struct FreeSteps {
    next: Vec<u32>,
}

impl FreeSteps {
    /// The earliest free step at or after `from`, now marked busy.
    fn take_from(&mut self, from: u32) -> u32 {
        let mut t = from;
        loop {
            self.grow(t);
            let parent = self.next[t as usize];
            if parent == t {
                break;
            }
            let grand = {
                self.grow(parent);
                self.next[parent as usize]
            };
            self.next[t as usize] = grand;
            t = grand;
        }
        self.grow(t + 1);
        self.next[t as usize] = t + 1;
        t
    }

    /// Makes room for step `t` (new steps are free).
    fn grow(&mut self, t: u32) {
        let len = self.next.len() as u32;
        if t >= len {
            let new_len = (t + 1).max(len * 2);
            self.next.extend(len..new_len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    #[test]
    fn free_steps_hand_out_each_step_once() {
        let mut f = FreeSteps::default();
        assert_eq!(f.take_from(1), 1);
        assert_eq!(f.take_from(1), 2);
        assert_eq!(f.take_from(5), 5);
        assert_eq!(f.take_from(3), 3);
        assert_eq!(f.take_from(1), 4);
        assert_eq!(f.take_from(1), 6);
    }

    #[test]
    fn every_message_takes_a_shortest_path() {
        let g = "mesh 3 4".parse::<NetworkName>().unwrap().build().unwrap();
        let sends = list_schedule(&g);
        let hops: u64 = (0..12)
            .flat_map(|s| (0..12).map(move |d| (s, d)))
            .map(|(s, d)| u64::from(g.distance(s, d)))
            .sum();
        assert_eq!(sends.len() as u64, hops);
    }
}
