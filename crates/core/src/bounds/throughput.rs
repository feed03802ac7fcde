//! The throughput bounds of a fabric, weighted by capacity: what can cross
//! into (or out of) a node set S in one step, and the node sets whose ratio
//! of data to that capacity is largest, found by minimum cuts.
//!
//! **What enters S in a step.** A link of capacity c carries c chunks a step.
//! A switch limit (sources, destinations, b) allows at most b sends a step
//! from its sources to its destinations; each directed link is counted in the
//! first limit that names both its ends (in the fabric's order), so the limits
//! counted have disjoint links. For a limit L whose links entering S carry
//! `x_L` a step without it, at most `min(b, out_L(S), in_L(S))` enter, where
//! `out_L(S)` sums the capacities of L's links from each source outside S
//! (all of them, not only those entering S) and `in_L(S)` those into each
//! destination in S: both are at least `x_L`, so this never undercounts, and
//! it is exact for a limit of one source or one destination (a GPU's port).
//! So `cap(S) = Σ (links entering S in no limit) + Σ_L min(b_L, out_L(S),
//! in_L(S))` is at least what can enter S in a step: a weaker bound than the
//! fabric allows where a limit is shared by many nodes, never a wrong one.
//! Ports are not counted (K ports can only be slower), nor whether a
//! forward-only node may copy (not copying can only be slower).
//!
//! **The sets.** An allgather in C chunks a GPU (a node that is not
//! forward-only) must bring into S, a set with a GPU, the C chunks of every
//! GPU outside S: `T ≥ ⌈C · g(V∖S) / cap(S)⌉`, g counting GPUs. A
//! reduce-scatter must take out of S the C chunks of every block outside S,
//! each carrying S's contributions: the same on the reversed fabric. An
//! allreduce's `g·C` items each need, in S, a contribution from outside S
//! when both S and V∖S hold a GPU: `⌈g·C / cap(S)⌉`, largest at the least
//! capacity between two GPUs.
//!
//! **How the largest ratio is found.** `cap` is a cut function of a flow
//! network: each link an arc of its capacity; each limit two nodes `m1 → m2`
//! of capacity b, an arc from each source to m1 (its links' capacities in
//! L) and from m2 to each destination (likewise); a minimum cut places
//! m1, m2 on the side that gives the `min` above. The largest
//! `g(V∖S) / cap(S)` is found by Dinkelbach's parametric search: for the best
//! ratio `p/q` so far, a minimum cut of `q·g(S) + p·cap(S)` over the sets
//! whose first GPU is t (one cut per GPU t) finds a set of larger ratio when
//! one exists (its value is then below `q·g`); the ratio grows every round
//! and is exact when no cut improves it. [`exhaustive`] tries every set of a
//! fabric of at most [`MAX_EXHAUSTIVE_NODES`] nodes and is the tests' check.

use crate::network::Graph;

/// The most nodes whose every subset [`exhaustive`] tries.
pub const MAX_EXHAUSTIVE_NODES: usize = 20;

/// The most minimum cuts one bound takes (each O(V·E) at most on these
/// unit-depth networks): a fabric needing more is refused by
/// [`check_size`] before the work.
pub const MAX_CUT_WORK: u64 = 1 << 36;

/// Which way the data crosses S.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Crossing {
    /// Into S (allgather, allreduce).
    Into,
    /// Out of S (reduce-scatter): the fabric reversed.
    OutOf,
}

/// A throughput bound and the node set that proves it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ThroughputCut {
    /// The set S, increasing (forward-only nodes included).
    pub set: Vec<u32>,
    /// The items per chunk that must cross S (GPUs outside S; allreduce: all GPUs).
    pub data: u64,
    /// The chunks a step that can cross S ([`capacity`]).
    pub capacity: u64,
}

impl ThroughputCut {
    /// ⌈chunks · data / capacity⌉.
    pub fn steps(&self, chunks: u32) -> u64 {
        (u64::from(chunks) * self.data).div_ceil(self.capacity.max(1))
    }
}

/// A limit as the cut counts it: its links by source and by destination.
struct Gadget {
    sends: u64,
    /// `(source, capacity of its links in this limit)`.
    sources: Vec<(u32, u64)>,
    /// `(destination, capacity of its links in this limit)`.
    destinations: Vec<(u32, u64)>,
}

/// The links of `graph` as the cut counts them: in no limit, and by limit.
struct CutModel {
    free: Vec<(u32, u32, u64)>,
    gadgets: Vec<Gadget>,
}

impl CutModel {
    fn new(graph: &Graph, crossing: Crossing) -> CutModel {
        let ends = |l: u32| {
            let (a, b) = graph.endpoints(l);
            match crossing {
                Crossing::Into => (a, b),
                Crossing::OutOf => (b, a),
            }
        };
        let mut taken = vec![false; graph.directed_links()];
        let mut gadgets = Vec::new();
        for limit in graph.fabric().limits() {
            let mut from = std::collections::BTreeMap::<u32, u64>::new();
            let mut to = std::collections::BTreeMap::<u32, u64>::new();
            for &a in &limit.sources {
                for l in graph.links_of(a) {
                    let (_, b) = graph.endpoints(l);
                    if taken[l as usize] || limit.destinations.binary_search(&b).is_err() {
                        continue;
                    }
                    taken[l as usize] = true;
                    let c = u64::from(graph.capacity(l));
                    // The link a → b; reversed, it is counted b → a.
                    let (tail, head) = ends(l);
                    *from.entry(tail).or_default() += c;
                    *to.entry(head).or_default() += c;
                }
            }
            if !from.is_empty() {
                gadgets.push(Gadget {
                    sends: u64::from(limit.sends),
                    sources: from.into_iter().collect(),
                    destinations: to.into_iter().collect(),
                });
            }
        }
        let free = (0..graph.directed_links() as u32)
            .filter(|&l| !taken[l as usize])
            .map(|l| {
                let (a, b) = ends(l);
                (a, b, u64::from(graph.capacity(l)))
            })
            .collect();
        CutModel { free, gadgets }
    }

    /// `cap(S)` of the module notes.
    fn capacity(&self, inside: &[bool]) -> u64 {
        let free: u64 = self
            .free
            .iter()
            .filter(|&&(a, b, _)| !inside[a as usize] && inside[b as usize])
            .map(|&(_, _, c)| c)
            .sum();
        let limited: u64 = self
            .gadgets
            .iter()
            .map(|g| {
                let out: u64 = g
                    .sources
                    .iter()
                    .filter(|&&(a, _)| !inside[a as usize])
                    .map(|&(_, c)| c)
                    .sum();
                let into: u64 = g
                    .destinations
                    .iter()
                    .filter(|&&(b, _)| inside[b as usize])
                    .map(|&(_, c)| c)
                    .sum();
                g.sends.min(out).min(into)
            })
            .sum();
        free + limited
    }

    /// The flow network of `scale · cap`: nodes `0..n`, then two per limit.
    fn network(&self, n: usize, scale: u64) -> Flow {
        let mut flow = Flow::new(n + 2 * self.gadgets.len() + 2);
        for &(a, b, c) in &self.free {
            flow.arc(a as usize, b as usize, c * scale);
        }
        for (i, g) in self.gadgets.iter().enumerate() {
            let (m1, m2) = (n + 2 * i, n + 2 * i + 1);
            flow.arc(m1, m2, g.sends * scale);
            for &(a, c) in &g.sources {
                flow.arc(a as usize, m1, c * scale);
            }
            for &(b, c) in &g.destinations {
                flow.arc(m2, b as usize, c * scale);
            }
        }
        flow
    }

    /// Of the minimum cuts between the nodes of each pair `(outside,
    /// inside)`, the first of least capacity, as the nodes on the inside's
    /// side; `None` for no pair.
    fn least_cut(
        &self,
        n: usize,
        pairs: impl IntoIterator<Item = (usize, usize)>,
    ) -> Option<Vec<bool>> {
        let mut best: Option<(u64, Vec<bool>)> = None;
        for (outside, inside) in pairs {
            let mut flow = self.network(n, 1);
            let (source, sink) = (flow.nodes() - 2, flow.nodes() - 1);
            flow.arc(source, outside, INFINITE);
            flow.arc(inside, sink, INFINITE);
            let value = flow.max_flow(source, sink);
            if best.as_ref().is_none_or(|(b, _)| value < *b) {
                let reached = flow.source_side(source);
                best = Some((value, (0..n).map(|x| !reached[x]).collect()));
            }
        }
        best.map(|(_, inside)| inside)
    }
}

/// What can cross into (or, [`Crossing::OutOf`], out of) the node set
/// `inside` in one step: `cap(S)` of the module notes.
pub fn capacity(graph: &Graph, inside: &[bool], crossing: Crossing) -> u64 {
    CutModel::new(graph, crossing).capacity(inside)
}

/// The GPUs of `graph` (its nodes that are not forward-only).
pub fn gpus(graph: &Graph) -> Vec<u32> {
    (0..graph.nodes() as u32)
        .filter(|&x| !graph.is_forward_only(x))
        .collect()
}

/// Refuses (with the work it would take) a fabric whose bound needs more
/// than [`MAX_CUT_WORK`]: GPUs × nodes × arcs, a few rounds.
pub fn check_size(graph: &Graph) -> Result<(), u64> {
    let arcs = graph.directed_links() as u64 * 2 + graph.nodes() as u64;
    let work = (graph.endpoint_count() as u64)
        .saturating_mul(graph.nodes() as u64)
        .saturating_mul(arcs);
    if work > MAX_CUT_WORK {
        Err(work)
    } else {
        Ok(())
    }
}

fn members(n: usize, set: &[u32]) -> Vec<bool> {
    let mut inside = vec![false; n];
    for &x in set {
        inside[x as usize] = true;
    }
    inside
}

/// The set S with a GPU that maximises `g(V∖S) / cap(S)` (allgather:
/// [`Crossing::Into`]; reduce-scatter: [`Crossing::OutOf`]), by minimum
/// cuts; `None` with fewer than two GPUs or when no set can be entered.
/// Ties: the first found.
pub fn densest(graph: &Graph, crossing: Crossing) -> Option<ThroughputCut> {
    let n = graph.nodes();
    let gpus = gpus(graph);
    let g = gpus.len() as u64;
    if g < 2 {
        return None;
    }
    let model = CutModel::new(graph, crossing);
    let judge = |inside: &[bool]| {
        let data = gpus.iter().filter(|&&x| !inside[x as usize]).count() as u64;
        (data, model.capacity(inside))
    };
    // Start from the best GPU alone (a GPU's intake is often the answer).
    let mut best_set = members(n, &gpus[..1]);
    let (mut p, mut q) = judge(&best_set);
    for &x in &gpus[1..] {
        let alone = members(n, &[x]);
        let (data, cap) = judge(&alone);
        if q == 0 || (cap > 0 && data * q > p * cap) {
            (p, q, best_set) = (data, cap, alone);
        }
    }
    if q == 0 {
        return None;
    }
    loop {
        let mut improved = false;
        for (i, &t) in gpus.iter().enumerate() {
            let mut flow = model.network(n, p);
            let (source, sink) = (flow.nodes() - 2, flow.nodes() - 1);
            for &v in &gpus {
                flow.arc(source, v as usize, q);
            }
            for &v in &gpus[..i] {
                flow.arc(source, v as usize, INFINITE);
            }
            flow.arc(t as usize, sink, INFINITE);
            let value = flow.max_flow(source, sink);
            if value >= q * g {
                continue;
            }
            let reached = flow.source_side(source);
            let inside: Vec<bool> = (0..n).map(|x| !reached[x]).collect();
            let (data, cap) = judge(&inside);
            if cap > 0 && u128::from(data) * u128::from(q) > u128::from(p) * u128::from(cap) {
                (p, q, best_set, improved) = (data, cap, inside, true);
            }
        }
        if !improved {
            break;
        }
    }
    Some(ThroughputCut {
        set: (0..n as u32).filter(|&x| best_set[x as usize]).collect(),
        data: p,
        capacity: q,
    })
}

/// The least `cap(S)` over the sets S with a GPU inside and one outside
/// (the allreduce's cut, data `g`), by `2(g − 1)` minimum cuts from and to
/// the first GPU; `None` with fewer than two GPUs.
pub fn narrowest(graph: &Graph) -> Option<ThroughputCut> {
    let n = graph.nodes();
    let gpus = gpus(graph);
    if gpus.len() < 2 {
        return None;
    }
    let model = CutModel::new(graph, Crossing::Into);
    let first = gpus[0] as usize;
    let pairs = gpus[1..]
        .iter()
        .flat_map(|&v| [(v as usize, first), (first, v as usize)]);
    let inside = model.least_cut(n, pairs)?;
    Some(ThroughputCut {
        set: (0..n as u32).filter(|&x| inside[x as usize]).collect(),
        data: gpus.len() as u64,
        capacity: model.capacity(&inside),
    })
}

/// The least `cap(S)` over the sets S with a GPU but not `root` (broadcast:
/// [`Crossing::Into`], every chunk enters S; reduce: [`Crossing::OutOf`],
/// every chunk's contributions leave S), by one minimum cut per GPU; data 1
/// (per chunk). `None` when no other GPU exists.
pub fn rooted(graph: &Graph, root: u32, crossing: Crossing) -> Option<ThroughputCut> {
    let n = graph.nodes();
    let model = CutModel::new(graph, crossing);
    let pairs = gpus(graph)
        .into_iter()
        .filter(|&v| v != root)
        .map(|v| (root as usize, v as usize));
    let inside = model.least_cut(n, pairs)?;
    Some(ThroughputCut {
        set: (0..n as u32).filter(|&x| inside[x as usize]).collect(),
        data: 1,
        capacity: model.capacity(&inside),
    })
}

/// [`densest`] by trying every set (the tests' cross-check), on fabrics of at
/// most [`MAX_EXHAUSTIVE_NODES`] nodes.
pub fn exhaustive(graph: &Graph, crossing: Crossing) -> Option<ThroughputCut> {
    let n = graph.nodes();
    if n > MAX_EXHAUSTIVE_NODES {
        return None;
    }
    let gpus = gpus(graph);
    if gpus.len() < 2 {
        return None;
    }
    let model = CutModel::new(graph, crossing);
    let mut best: Option<(u64, u64, u32)> = None;
    let mut inside = vec![false; n];
    for mask in 1u32..(1u32 << n) - 1 {
        for (x, slot) in inside.iter_mut().enumerate() {
            *slot = mask >> x & 1 == 1;
        }
        if !gpus.iter().any(|&x| inside[x as usize]) {
            continue;
        }
        let data = gpus.iter().filter(|&&x| !inside[x as usize]).count() as u64;
        let cap = model.capacity(&inside);
        if data == 0 || cap == 0 {
            continue;
        }
        if best.is_none_or(|(d, c, _)| data * c > d * cap) {
            best = Some((data, cap, mask));
        }
    }
    let (data, capacity, mask) = best?;
    Some(ThroughputCut {
        set: (0..n as u32).filter(|&x| mask >> x & 1 == 1).collect(),
        data,
        capacity,
    })
}

/// The capacity of an arc that no minimum cut crosses.
const INFINITE: u64 = u64::MAX / 4;

/// A flow network (Dinic's algorithm).
struct Flow {
    /// By node, the arcs leaving it (indices into `head` and `room`).
    out: Vec<Vec<usize>>,
    head: Vec<usize>,
    room: Vec<u64>,
}

impl Flow {
    fn new(nodes: usize) -> Flow {
        Flow {
            out: vec![Vec::new(); nodes],
            head: Vec::new(),
            room: Vec::new(),
        }
    }

    fn nodes(&self) -> usize {
        self.out.len()
    }

    /// An arc `a → b` of capacity `c` and its residual twin (arc ^ 1).
    fn arc(&mut self, a: usize, b: usize, c: u64) {
        self.out[a].push(self.head.len());
        self.head.push(b);
        self.room.push(c);
        self.out[b].push(self.head.len());
        self.head.push(a);
        self.room.push(0);
    }

    fn levels(&self, source: usize) -> Vec<u32> {
        let mut level = vec![u32::MAX; self.nodes()];
        level[source] = 0;
        let mut queue = std::collections::VecDeque::from([source]);
        while let Some(x) = queue.pop_front() {
            for &e in &self.out[x] {
                let y = self.head[e];
                if self.room[e] > 0 && level[y] == u32::MAX {
                    level[y] = level[x] + 1;
                    queue.push_back(y);
                }
            }
        }
        level
    }

    fn max_flow(&mut self, source: usize, sink: usize) -> u64 {
        let mut total = 0u64;
        loop {
            let level = self.levels(source);
            if level[sink] == u32::MAX {
                return total;
            }
            let mut next = vec![0usize; self.nodes()];
            loop {
                let pushed = self.augment(source, sink, INFINITE, &level, &mut next);
                if pushed == 0 {
                    break;
                }
                total = total.saturating_add(pushed);
            }
        }
    }

    /// One blocking-flow path (iterative, so deep networks use no stack).
    fn augment(
        &mut self,
        source: usize,
        sink: usize,
        limit: u64,
        level: &[u32],
        next: &mut [usize],
    ) -> u64 {
        let mut path: Vec<usize> = Vec::new();
        let mut x = source;
        loop {
            if x == sink {
                let pushed = path
                    .iter()
                    .map(|&e| self.room[e])
                    .min()
                    .unwrap_or(limit)
                    .min(limit);
                for &e in &path {
                    self.room[e] -= pushed;
                    self.room[e ^ 1] += pushed;
                }
                return pushed;
            }
            let mut advanced = false;
            while next[x] < self.out[x].len() {
                let e = self.out[x][next[x]];
                let y = self.head[e];
                if self.room[e] > 0 && level[y] == level[x].wrapping_add(1) {
                    path.push(e);
                    x = y;
                    advanced = true;
                    break;
                }
                next[x] += 1;
            }
            if !advanced {
                // A dead end: retreat and skip the arc that led here.
                let Some(e) = path.pop() else {
                    return 0;
                };
                x = self.head[e ^ 1];
                next[x] += 1;
            }
        }
    }

    /// The nodes the source still reaches in the residual network.
    fn source_side(&self, source: usize) -> Vec<bool> {
        self.levels(source)
            .into_iter()
            .map(|l| l != u32::MAX)
            .collect()
    }
}

#[cfg(test)]
mod tests;

/// Why a stated node set proves no throughput bound.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NotAProof {
    /// A node number that is not a node.
    #[error("node {0} of the set is not a node of the network")]
    UnknownNode(u32),
    /// The collective has no throughput bound (scatter, gather, total exchange).
    #[error("{0} has no throughput bound")]
    NoThroughput(String),
    /// The set does not meet the bound's conditions.
    #[error("the set {0}")]
    Unfit(&'static str),
}

/// The throughput bound that the node set `set` proves for `collective` on
/// `graph`, recomputed from the fabric alone (its data and the capacity
/// crossing it): what `verify-bound` checks a stated bound against.
pub fn recheck(
    graph: &Graph,
    collective: crate::schedule::Collective,
    set: &[u32],
) -> Result<ThroughputCut, NotAProof> {
    use crate::schedule::Collective as C;
    let n = graph.nodes();
    if let Some(&x) = set.iter().find(|&&x| x as usize >= n) {
        return Err(NotAProof::UnknownNode(x));
    }
    let inside = members(n, set);
    let gpus = gpus(graph);
    let within = gpus.iter().filter(|&&x| inside[x as usize]).count() as u64;
    let outside = gpus.len() as u64 - within;
    if within == 0 {
        return Err(NotAProof::Unfit("holds no GPU"));
    }
    let (data, crossing) = match collective {
        C::Allgather { .. } => (outside, Crossing::Into),
        C::ReduceScatter { .. } => (outside, Crossing::OutOf),
        C::Allreduce { .. } if outside > 0 => (gpus.len() as u64, Crossing::Into),
        C::Broadcast { root, .. } | C::Reduce { root, .. } => {
            if root as usize >= n || inside[root as usize] {
                return Err(NotAProof::Unfit("holds the root"));
            }
            let broadcast = matches!(collective, C::Broadcast { .. });
            (
                1,
                if broadcast {
                    Crossing::Into
                } else {
                    Crossing::OutOf
                },
            )
        }
        C::Allreduce { .. } => return Err(NotAProof::Unfit("leaves no GPU outside")),
        other => return Err(NotAProof::NoThroughput(other.to_string())),
    };
    if data == 0 {
        return Err(NotAProof::Unfit("leaves no GPU outside"));
    }
    let capacity = capacity(graph, &inside, crossing);
    if capacity == 0 {
        return Err(NotAProof::Unfit("cannot be crossed"));
    }
    let mut set = set.to_vec();
    set.sort_unstable();
    set.dedup();
    Ok(ThroughputCut {
        set,
        data,
        capacity,
    })
}
