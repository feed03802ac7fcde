//! Every message's path as directed link ids, one block per destination, so
//! that the messages to one destination can be rerouted together (their
//! paths may change length) without moving the others.

use txverify_core::network::Graph;

/// The paths of the messages to one destination: `links[starts[j]..starts[j + 1]]`
/// is the path of the `j`-th source (the sources other than the destination, in
/// increasing order).
#[derive(Clone, Default)]
pub(super) struct Block {
    pub(super) starts: Vec<u32>,
    pub(super) links: Vec<u32>,
}

impl Block {
    /// The path of the `j`-th source.
    pub(super) fn path(&self, j: usize) -> &[u32] {
        &self.links[self.starts[j] as usize..self.starts[j + 1] as usize]
    }
}

/// Every message's path. Message `m` is `(source(d, j), d)` with
/// `d = m / (n − 1)`, `j = m % (n − 1)`.
#[derive(Clone, Default)]
pub(super) struct Routes {
    pub(super) n: u32,
    pub(super) blocks: Vec<Block>,
}

impl Routes {
    /// The `j`-th source of the messages to `d`.
    pub(super) fn source(d: u32, j: u32) -> u32 {
        if j < d { j } else { j + 1 }
    }

    /// The number of messages, n·(n − 1).
    pub(super) fn messages(&self) -> usize {
        self.n as usize * (self.n as usize).saturating_sub(1)
    }

    /// `(source, destination)` of message `m`.
    pub(super) fn message(&self, m: usize) -> (u32, u32) {
        let per = self.n as usize - 1;
        let (d, j) = ((m / per) as u32, (m % per) as u32);
        (Routes::source(d, j), d)
    }

    /// The path of message `m`.
    pub(super) fn hops(&self, m: usize) -> &[u32] {
        let per = self.n as usize - 1;
        self.blocks[m / per].path(m % per)
    }

    /// All hops of all messages.
    pub(super) fn total_hops(&self) -> u64 {
        self.blocks.iter().map(|b| b.links.len() as u64).sum()
    }

    /// The number of messages each directed link carries.
    pub(super) fn loads(&self, graph: &Graph) -> Vec<u32> {
        let mut load = vec![0u32; graph.directed_links()];
        for b in &self.blocks {
            b.links.iter().for_each(|&l| load[l as usize] += 1);
        }
        load
    }

    /// The largest number of messages on one directed link.
    #[cfg(test)]
    pub(super) fn max_load(&self, graph: &Graph) -> u32 {
        self.loads(graph).into_iter().max().unwrap_or(0)
    }
}

/// A tie-breaking key for `x`: `x` itself for seed 0, else a hash of both.
pub(super) fn tie(seed: u64, x: u64) -> u64 {
    if seed == 0 {
        return x;
    }
    // splitmix64's finaliser.
    let mut z = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(x);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Rerouting passes after the first balanced routing.
const REROUTE_PASSES: usize = 2;

/// [`balanced_until`] without a stop (the tests' routes).
#[cfg(test)]
pub(super) fn balanced(graph: &Graph, seed: u64) -> Routes {
    balanced_until(graph, seed, &|| false).unwrap_or_default()
}

/// Shortest paths, each hop over the least loaded of the links that bring the
/// message one hop closer (ties by `seed`, see [`tie`]); then, twice, each
/// message in turn is taken off its path and routed again the same way, now
/// that the loads of all the others are known ([`rebalance_until`]). `stop`
/// is looked at before each destination's messages are routed (a few
/// thousand walks): `None` once it says stop.
pub(super) fn balanced_until(graph: &Graph, seed: u64, stop: &dyn Fn() -> bool) -> Option<Routes> {
    let n = graph.nodes() as u32;
    let mut load = vec![0u32; graph.directed_links()];
    let mut routes = Routes {
        n,
        blocks: Vec::with_capacity(n as usize),
    };
    for d in 0..n {
        if stop() {
            return None;
        }
        let to = graph.distances_to(d);
        let mut block = Block {
            starts: Vec::with_capacity(n as usize),
            links: Vec::new(),
        };
        block.starts.push(0);
        for j in 0..n.saturating_sub(1) {
            let s = Routes::source(d, j);
            let start = block.links.len();
            block.links.resize(start + to[s as usize] as usize, 0);
            walk(graph, &to, s, (&mut load, seed), &mut block.links[start..]);
            block.starts.push(block.links.len() as u32);
        }
        routes.blocks.push(block);
    }
    rebalance_until(graph, &mut routes, seed, stop)?;
    Some(routes)
}

/// The first routes of an anytime run, made in one walk without loads:
/// the messages to one destination that pass a node take the links that
/// bring them closer in turn, from a rotation hashed from the node and the
/// destination. On tori this spreads every link's load evenly (the 10×10×10
/// torus: the busiest link 1,289 against an average of 1,250, where one walk
/// by the least loaded link gave 1,947 and the three of [`balanced_until`]
/// 1,391); on random regular graphs it ends within 4 % of those three, at a
/// third of their work. [`rebalance_until`] follows after the first schedule
/// is written. `None` once `stop` says stop (asked before each destination).
pub(super) fn spread_until(graph: &Graph, stop: &dyn Fn() -> bool) -> Option<Routes> {
    let n = graph.nodes() as u32;
    let mut routes = Routes {
        n,
        blocks: Vec::with_capacity(n as usize),
    };
    // How many messages to this destination left each node so far.
    let mut turn = vec![0u32; n as usize];
    for d in 0..n {
        if stop() {
            return None;
        }
        let to = graph.distances_to(d);
        turn.iter_mut().for_each(|t| *t = 0);
        let mut block = Block {
            starts: Vec::with_capacity(n as usize),
            links: Vec::new(),
        };
        block.starts.push(0);
        for j in 0..n.saturating_sub(1) {
            let mut u = Routes::source(d, j);
            for _ in 0..to[u as usize] {
                let here = to[u as usize];
                let to = &to;
                let closer = || {
                    graph
                        .links_of(u)
                        .filter(move |&l| to[graph.endpoints(l).1 as usize] + 1 == here)
                };
                let k = closer().count() as u64;
                let rotation = tie(1, u64::from(u) * u64::from(n) + u64::from(d));
                let pick = (u64::from(turn[u as usize]) + rotation) % k.max(1);
                // The graph is connected, so some link brings `u` closer.
                let Some(link) = closer().nth(pick as usize) else {
                    break;
                };
                turn[u as usize] += 1;
                block.links.push(link);
                u = graph.endpoints(link).1;
            }
            block.starts.push(block.links.len() as u32);
        }
        routes.blocks.push(block);
    }
    Some(routes)
}

/// The passes of [`balanced_until`] after its first walk: each message in
/// turn taken off its shortest path in `routes` and walked again under the
/// loads of all the others, [`REROUTE_PASSES`] times. `None` once `stop`
/// says stop (asked before each destination); `routes` are then whole paths
/// still, some walked again and some not.
pub(super) fn rebalance_until(
    graph: &Graph,
    routes: &mut Routes,
    seed: u64,
    stop: &dyn Fn() -> bool,
) -> Option<()> {
    let n = routes.n;
    let mut load = routes.loads(graph);
    for _ in 0..REROUTE_PASSES {
        for d in 0..n {
            if stop() {
                return None;
            }
            let to = graph.distances_to(d);
            let block = &mut routes.blocks[d as usize];
            for j in 0..n - 1 {
                let s = Routes::source(d, j);
                let path = &mut block.links
                    [block.starts[j as usize] as usize..block.starts[j as usize + 1] as usize];
                path.iter().for_each(|&l| load[l as usize] -= 1);
                walk(graph, &to, s, (&mut load, seed), path);
            }
        }
    }
    Some(())
}

/// Walks from `s` toward the node `to_d` measures distances to, one hop
/// closer each time over the least loaded link, adding to the loads; `path`
/// receives the links (its length is the distance).
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
