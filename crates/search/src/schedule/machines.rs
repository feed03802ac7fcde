//! Allgather and broadcast on a fabric of several machines: a hierarchical
//! list schedule, the NICs a pipeline and each machine spreading what enters
//! it behind them.
//!
//! **The machines are read from the fabric, not from its name.** A switch
//! limit *separates* the GPUs when its sources and destinations are disjoint
//! and together every GPU (msccl-tools' `copy_c_out_remote`: a machine's
//! GPUs to all the others'); the GPUs are grouped by the side of every
//! separating limit they are on. The machines are then the parts of the
//! graph joined by the links that are neither between two GPUs of different
//! groups (a NIC's) nor between two forward-only nodes (switches joined
//! switch to switch). `cluster K B MACHINE`, the same fabric read from
//! msccl-tools' JSON, and an edge list of switches with their GPUs joined at
//! the switches all have such machines; a fabric with fewer than two, or a
//! machine with fewer than two GPUs (`hub-and-spoke N`'s one-GPU "machines"),
//! is not one of them.
//!
//! **The schedule** is made step by step, each step choosing sends in the
//! order of a key, every one checked against the fabric's rules as the
//! replay states them (capacity, switch limits, a receiver's one copy, a
//! switch that does not copy spending a copy it received):
//!
//! 1. **crossings first**: an item enters a machine that has none of it over
//!    a link between machines (once a machine: the rest of it gets the item
//!    inside), in the pipeline's order: chunk by chunk, the blocks in order,
//!    each machine sending a step to one other machine in rotation, so every
//!    NIC carries its capacity a step until the machine's blocks are all out;
//!    a GPU's upload to its machine's switch that is to cross is one of them;
//! 2. **then inside each machine**, the rarest item of the machine first
//!    (the one fewest of its GPUs hold): what has just crossed is spread at
//!    once, pipelined behind the NIC, and the machine's own blocks fill the
//!    links left. A switch that does not copy gets a copy only while more of
//!    its neighbours need the item than it has copies, and forwards each once.
//!
//! Keys are of node numbers, never of link ids, so the same fabric read from
//! another format gets the same schedule. Nothing here is trusted: the caller
//! replays the sends on the fabric before keeping them.

use super::StopToken;
use super::heuristic::collective::{Construction, ConstructionError, allreduce};
use std::collections::HashMap;
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Packet, Ports, TimedSend};

/// The most work of one step (items × directed links, each pair looked at
/// once a step), checked before the schedule is made; beyond, no schedule
/// is made by machines (the other constructions still are).
pub const MAX_MACHINES_STEP_WORK: u64 = 1 << 24;

/// The most work of reading the machines (GPUs × switch limits, and the
/// members of every limit times their degree), checked before it is done.
pub const MAX_MACHINES_READ_WORK: u64 = 1 << 26;

/// The machines of a fabric (module notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machines {
    /// The machine of each node.
    of: Vec<u32>,
    /// How many machines.
    count: u32,
}

impl Machines {
    /// The machines of `graph`'s fabric, or `None` when it has fewer than two
    /// or one with fewer than two GPUs (module notes).
    pub fn of(graph: &Graph) -> Option<Machines> {
        let n = graph.nodes();
        let fabric = graph.fabric();
        if fabric.is_plain() || n < 4 {
            return None;
        }
        let gpu = |x: u32| !graph.is_forward_only(x);
        let gpus = graph.endpoint_count();
        let limits = fabric.limits();
        let work = (gpus as u64).saturating_mul(limits.len() as u64);
        if work > MAX_MACHINES_READ_WORK || graph.directed_links() as u64 > MAX_MACHINES_READ_WORK {
            return None;
        }
        // The GPUs' groups: the sides of every separating limit.
        let mut group = vec![0u32; n];
        for limit in limits {
            let (s, d) = (&limit.sources, &limit.destinations);
            let separating = s.len() + d.len() == gpus
                && s.iter().chain(d).all(|&x| gpu(x))
                && s.iter().all(|x| d.binary_search(x).is_err());
            if !separating {
                continue;
            }
            let mut renamed: HashMap<(u32, bool), u32> = HashMap::new();
            for x in (0..n as u32).filter(|&x| gpu(x)) {
                let side = s.binary_search(&x).is_ok();
                let next = renamed.len() as u32;
                group[x as usize] = *renamed.entry((group[x as usize], side)).or_insert(next);
            }
        }
        // The parts joined by the links inside machines.
        let mut parent: Vec<u32> = (0..n as u32).collect();
        fn root(parent: &mut [u32], mut x: u32) -> u32 {
            while parent[x as usize] != x {
                let up = parent[parent[x as usize] as usize];
                parent[x as usize] = up;
                x = up;
            }
            x
        }
        for u in 0..n as u32 {
            for &w in graph.neighbours(u) {
                let between = if gpu(u) && gpu(w) {
                    group[u as usize] != group[w as usize]
                } else {
                    !gpu(u) && !gpu(w)
                };
                if !between {
                    let (a, b) = (root(&mut parent, u), root(&mut parent, w));
                    parent[a.max(b) as usize] = a.min(b);
                }
            }
        }
        let mut number: HashMap<u32, u32> = HashMap::new();
        let mut of = vec![0u32; n];
        for x in 0..n as u32 {
            let r = root(&mut parent, x);
            let next = number.len() as u32;
            of[x as usize] = *number.entry(r).or_insert(next);
        }
        let count = number.len() as u32;
        let mut gpus_in = vec![0u32; count as usize];
        for x in (0..n as u32).filter(|&x| gpu(x)) {
            gpus_in[of[x as usize] as usize] += 1;
        }
        (count >= 2 && gpus_in.iter().all(|&g| g >= 2)).then_some(Machines { of, count })
    }

    /// How many machines.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The machine of node `x`.
    pub fn machine_of(&self, x: u32) -> u32 {
        self.of[x as usize]
    }
}

/// How a node holds items.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// A GPU: it keeps what it receives and sends copies.
    Gpu,
    /// A forward-only node that copies: like a GPU, but needs nothing.
    CopyingSwitch,
    /// A forward-only node that does not copy: it spends a copy a send
    /// (index among such switches).
    Switch(u32),
}

/// Allgather or broadcast by machines (module notes), all ports; `None`
/// where the fabric has no machines, for other collectives and ports, over
/// [`MAX_MACHINES_STEP_WORK`], or when the steps stop moving anything.
pub fn by_machines(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    stop: &StopToken,
) -> Result<Option<Construction>, ConstructionError> {
    let (root, chunks) = match collective {
        Collective::Allgather { chunks } => (None, chunks),
        Collective::Broadcast { root, chunks } => (Some(root), chunks),
        // The combining collectives by time reversal (as the constructions
        // that know no machines make them, `heuristic::collective`): valid
        // where the fabric is the same both ways and no switch forwards a
        // combination twice, which the caller's replay decides.
        Collective::ReduceScatter { chunks } | Collective::Allreduce { chunks } => {
            let gather = Collective::Allgather { chunks };
            let Some(made) = by_machines(graph, gather, ports, stop)? else {
                return Ok(None);
            };
            return Ok(Some(match collective {
                Collective::ReduceScatter { .. } => {
                    made.reversed(format!("reversed {}", made.method))
                }
                _ => allreduce(&made),
            }));
        }
        Collective::Reduce { root, chunks } => {
            let spread = Collective::Broadcast { root, chunks };
            let made = by_machines(graph, spread, ports, stop)?;
            return Ok(made.map(|m| m.reversed(format!("reversed {}", m.method))));
        }
        _ => return Ok(None),
    };
    if ports != Ports::All || chunks == 0 {
        return Ok(None);
    }
    let n = graph.nodes() as u32;
    let blocks: Vec<u32> = match root {
        Some(r) if r < n && !graph.is_forward_only(r) => vec![r],
        Some(_) => return Ok(None),
        None => (0..n).filter(|&x| !graph.is_forward_only(x)).collect(),
    };
    let items: Vec<(u32, u32)> = (0..chunks)
        .flat_map(|c| blocks.iter().map(move |&b| (b, c)))
        .collect();
    let work = (items.len() as u64).saturating_mul(graph.directed_links() as u64);
    if work > MAX_MACHINES_STEP_WORK {
        return Ok(None);
    }
    let Some(machines) = Machines::of(graph) else {
        return Ok(None);
    };
    let mut spread = Spread::new(graph, &machines, items);
    let gpus = graph.endpoint_count() as u64;
    // Every step moves an item into a GPU that lacked it, or stops.
    let most_steps = (spread.items.len() as u64).saturating_mul(gpus);
    let mut step = 0u32;
    while spread.missing > 0 {
        if stop.stopped().is_some() {
            return Err(ConstructionError::Stopped);
        }
        step += 1;
        if u64::from(step) > most_steps || !spread.step(step) {
            return Ok(None);
        }
    }
    let time = step;
    Ok(Some(Construction {
        method: "by machines (NIC pipeline, then inside each machine)".to_string(),
        sends: spread.sends,
        time,
    }))
}

/// The state of the schedule as it is made.
struct Spread<'a> {
    graph: &'a Graph,
    machines: &'a Machines,
    /// `(block, chunk)`, in the pipeline's order (chunk-major).
    items: Vec<(u32, u32)>,
    holders: Vec<Holder>,
    /// By item × node: the step it arrived (0 at its block), `u32::MAX` never.
    arrived: Vec<u32>,
    /// By item × switch that does not copy: copies held, to send.
    copies: Vec<u32>,
    /// The same, received this step (held from the next).
    incoming: Vec<u32>,
    /// By item × machine: whether some node of it holds or gets the item.
    reached: Vec<bool>,
    /// By item × machine: how many of its GPUs hold or get the item.
    held_in: Vec<u32>,
    /// The limits that count each directed link.
    limits_of: Vec<Vec<u32>>,
    /// (GPU, item) pairs still to deliver.
    missing: u64,
    sends: Vec<TimedSend>,
}

/// Sort key of a candidate send: class (0 crossing, 1 inside), then the
/// order within it, the item, the sender and the receiver.
type Key = (u8, u32, u32, u32, u32, u32, u32);

impl<'a> Spread<'a> {
    fn new(graph: &'a Graph, machines: &'a Machines, items: Vec<(u32, u32)>) -> Spread<'a> {
        let n = graph.nodes();
        let multicast = graph.fabric().multicast();
        let mut switches = 0u32;
        let holders: Vec<Holder> = (0..n as u32)
            .map(|x| {
                if !graph.is_forward_only(x) {
                    Holder::Gpu
                } else if multicast {
                    Holder::CopyingSwitch
                } else {
                    switches += 1;
                    Holder::Switch(switches - 1)
                }
            })
            .collect();
        let k = machines.count as usize;
        let mut arrived = vec![u32::MAX; items.len() * n];
        let mut reached = vec![false; items.len() * k];
        let mut held_in = vec![0u32; items.len() * k];
        for (i, &(b, _)) in items.iter().enumerate() {
            arrived[i * n + b as usize] = 0;
            let m = machines.machine_of(b) as usize;
            reached[i * k + m] = true;
            held_in[i * k + m] = 1;
        }
        let mut limits_of = vec![Vec::new(); graph.directed_links()];
        for (j, limit) in graph.fabric().limits().iter().enumerate() {
            for &u in &limit.sources {
                for link in graph.links_of(u) {
                    let (_, w) = graph.endpoints(link);
                    if limit.destinations.binary_search(&w).is_ok() {
                        limits_of[link as usize].push(j as u32);
                    }
                }
            }
        }
        // A broadcast's items are missing at every GPU but the root, an
        // allgather's at every GPU but their block's: one fewer than the GPUs.
        let missing = items.len() as u64 * (graph.endpoint_count() as u64 - 1);
        let switch_slots = items.len() * switches as usize;
        Spread {
            graph,
            machines,
            items,
            holders,
            arrived,
            copies: vec![0; switch_slots],
            incoming: vec![0; switch_slots],
            reached,
            held_in,
            limits_of,
            missing,
            sends: Vec::new(),
        }
    }

    fn n(&self) -> usize {
        self.graph.nodes()
    }

    fn k(&self) -> usize {
        self.machines.count as usize
    }

    fn switch_slot(&self, i: usize, s: u32) -> usize {
        let switches = self.copies.len() / self.items.len().max(1);
        i * switches + s as usize
    }

    /// Whether node `u` can send item `i` at step `t`.
    fn can_send(&self, u: u32, i: usize, t: u32) -> bool {
        match self.holders[u as usize] {
            Holder::Switch(s) => self.copies[self.switch_slot(i, s)] > 0,
            _ => self.arrived[i * self.n() + u as usize] < t,
        }
    }

    fn lacks(&self, v: u32, i: usize) -> bool {
        self.arrived[i * self.n() + v as usize] == u32::MAX
    }

    /// How many copies of item `i` switch `w` (not copying) is still to
    /// forward, over what it holds and gets: its neighbours that lack the
    /// item (a GPU of its machine, or a machine the item has not reached).
    fn unmet(&self, w: u32, i: usize) -> i64 {
        let Holder::Switch(s) = self.holders[w as usize] else {
            return 0;
        };
        let (k, mw) = (self.k(), self.machines.machine_of(w));
        let mut need = 0i64;
        for &v in self.graph.neighbours(w) {
            let mv = self.machines.machine_of(v);
            let wanted = if mv != mw {
                !self.reached[i * k + mv as usize]
            } else {
                // A switch of its own machine needs it only through others.
                self.holders[v as usize] == Holder::Gpu && self.lacks(v, i)
            };
            need += i64::from(wanted);
        }
        let slot = self.switch_slot(i, s);
        need - i64::from(self.copies[slot]) - i64::from(self.incoming[slot])
    }

    /// Whether a send of item `i` into `w` from `u` is of use.
    fn useful(&self, u: u32, w: u32, i: usize) -> bool {
        let (mu, mw) = (self.machines.machine_of(u), self.machines.machine_of(w));
        if mu != mw && self.reached[i * self.k() + mw as usize] {
            return false;
        }
        match self.holders[w as usize] {
            Holder::Gpu => self.lacks(w, i),
            Holder::CopyingSwitch => {
                self.lacks(w, i)
                    && self
                        .graph
                        .neighbours(w)
                        .iter()
                        .any(|&v| v != u && self.lacks(v, i))
            }
            Holder::Switch(_) => mu != mw || self.unmet(w, i) > 0,
        }
    }

    /// The key of the candidate `u → w` of item `i` at step `t`.
    fn key(&self, t: u32, u: u32, w: u32, i: usize) -> Key {
        let (k, n) = (self.machines.count, self.n() as u32);
        let (mu, mw) = (self.machines.machine_of(u), self.machines.machine_of(w));
        let (block, chunk) = self.items[i];
        let crossing = mu != mw
            || (matches!(self.holders[w as usize], Holder::Switch(_))
                && self.feeds_a_crossing(w, i));
        if crossing {
            // One destination machine a step, in rotation.
            let turn = if mu != mw && k > 2 {
                let ahead = (mw + k - mu - 1) % k;
                (ahead + (k - 1) - t % (k - 1)) % (k - 1)
            } else {
                0
            };
            // The receiver the same distance on as the sender's.
            let spread = (w + n - u) % n;
            (0, turn, chunk, i as u32, spread, u, w)
        } else {
            let rarity = self.held_in[i * k as usize + mw as usize];
            (1, rarity, chunk, block, i as u32, u, w)
        }
    }

    /// Whether switch `w` has a neighbour in a machine item `i` has not
    /// reached, and no copy of it yet.
    fn feeds_a_crossing(&self, w: u32, i: usize) -> bool {
        let Holder::Switch(s) = self.holders[w as usize] else {
            return false;
        };
        let slot = self.switch_slot(i, s);
        let (k, mw) = (self.k(), self.machines.machine_of(w));
        self.copies[slot] + self.incoming[slot] == 0
            && self.graph.neighbours(w).iter().any(|&v| {
                let mv = self.machines.machine_of(v);
                mv != mw && !self.reached[i * k + mv as usize]
            })
    }

    /// Chooses and makes the sends of step `t`; false when none is of use.
    fn step(&mut self, t: u32) -> bool {
        let n = self.n();
        let graph = self.graph;
        let mut candidates: Vec<(Key, u32, u32)> = Vec::new();
        for u in 0..n as u32 {
            for i in 0..self.items.len() {
                if !self.can_send(u, i, t) {
                    continue;
                }
                for link in graph.links_of(u) {
                    let (_, w) = graph.endpoints(link);
                    if self.useful(u, w, i) {
                        candidates.push((self.key(t, u, w, i), link, i as u32));
                    }
                }
            }
        }
        candidates.sort_unstable();
        let candidates = self.switches_matched(candidates);
        let mut on_link = vec![0u32; graph.directed_links()];
        let limits = graph.fabric().limits();
        let mut on_limit = vec![0u32; limits.len()];
        let made = self.sends.len();
        let mut uploads = Vec::new();
        for (key, link, i) in candidates {
            let (u, w, i) = (key.5, key.6, i as usize);
            if key.0 == 1 && matches!(self.holders[w as usize], Holder::Switch(_)) {
                uploads.push((u, w, link, i));
                continue;
            }
            if self.fits(link, &on_link, &on_limit)
                && self.can_send(u, i, t)
                && self.useful(u, w, i)
            {
                self.take(link, &mut on_link, &mut on_limit);
                self.make(t, u, w, i);
            }
        }
        self.uploads(t, uploads, &mut on_link, &mut on_limit);
        for (held, new) in self.copies.iter_mut().zip(self.incoming.iter_mut()) {
            *held += std::mem::take(new);
        }
        self.sends.len() > made
    }

    /// Whether directed link `link` and its limits have room left this step.
    fn fits(&self, link: u32, on_link: &[u32], on_limit: &[u32]) -> bool {
        let limits = self.graph.fabric().limits();
        on_link[link as usize] < self.graph.capacity(link)
            && self.limits_of[link as usize]
                .iter()
                .all(|&j| on_limit[j as usize] < limits[j as usize].sends)
    }

    /// Counts a send over `link` this step.
    fn take(&self, link: u32, on_link: &mut [u32], on_limit: &mut [u32]) {
        on_link[link as usize] += 1;
        for &j in &self.limits_of[link as usize] {
            on_limit[j as usize] += 1;
        }
    }

    /// The uploads into switches that do not copy (`(u, w, link, item)`, by
    /// sender): each sender's link filled in turn with the item that the
    /// GPU of the switch with the fewest copies waiting for it lacks (so that
    /// every link out of the switch has a copy to carry next step), the rarest
    /// first among equals.
    fn uploads(
        &mut self,
        t: u32,
        mut uploads: Vec<(u32, u32, u32, usize)>,
        on_link: &mut [u32],
        on_limit: &mut [u32],
    ) {
        if uploads.is_empty() {
            return;
        }
        let n = self.n();
        // By node: the items a switch holds or gets that the node lacks.
        let mut waiting = vec![0u32; n];
        let mut switches: Vec<u32> = uploads.iter().map(|c| c.1).collect();
        switches.sort_unstable();
        switches.dedup();
        for &w in &switches {
            let Holder::Switch(s) = self.holders[w as usize] else {
                continue;
            };
            for i in 0..self.items.len() {
                let slot = self.switch_slot(i, s);
                if self.copies[slot] + self.incoming[slot] == 0 {
                    continue;
                }
                for &v in self.graph.neighbours(w) {
                    if self.holders[v as usize] == Holder::Gpu && self.lacks(v, i) {
                        waiting[v as usize] += 1;
                    }
                }
            }
        }
        uploads.sort_by_key(|c| (c.0, c.2));
        let k = self.k();
        let mut start = 0;
        while start < uploads.len() {
            let (u, link) = (uploads[start].0, uploads[start].2);
            let end = start + uploads[start..].partition_point(|c| (c.0, c.2) == (u, link));
            loop {
                if !self.fits(link, on_link, on_limit) {
                    break;
                }
                let best = uploads[start..end]
                    .iter()
                    .filter(|&&(u, w, _, i)| self.can_send(u, i, t) && self.useful(u, w, i))
                    .min_by_key(|&&(_, w, _, i)| {
                        let mw = self.machines.machine_of(w) as usize;
                        let starved = self
                            .graph
                            .neighbours(w)
                            .iter()
                            .filter(|&&v| {
                                self.holders[v as usize] == Holder::Gpu && self.lacks(v, i)
                            })
                            .map(|&v| waiting[v as usize])
                            .min()
                            .unwrap_or(u32::MAX);
                        (starved, self.held_in[i * k + mw], self.items[i].1, i)
                    })
                    .copied();
                let Some((u, w, link, i)) = best else {
                    break;
                };
                let Holder::Switch(s) = self.holders[w as usize] else {
                    break;
                };
                let slot = self.switch_slot(i, s);
                if self.copies[slot] + self.incoming[slot] == 0 {
                    for &v in self.graph.neighbours(w) {
                        if self.holders[v as usize] == Holder::Gpu && self.lacks(v, i) {
                            waiting[v as usize] += 1;
                        }
                    }
                }
                self.take(link, on_link, on_limit);
                self.make(t, u, w, i);
            }
            start = end;
        }
    }

    /// The candidates in the order they are tried: first, out of each switch
    /// that does not copy, as many of its copies as can go out this step
    /// (a largest matching of copies to its links, each copy trying its links
    /// in key order and the copies taken in key order, so the first are kept),
    /// then every other candidate in key order.
    fn switches_matched(&self, candidates: Vec<(Key, u32, u32)>) -> Vec<(Key, u32, u32)> {
        let (mut out_of_switches, others): (Vec<_>, Vec<_>) = candidates
            .into_iter()
            .partition(|c| matches!(self.holders[c.0.5 as usize], Holder::Switch(_)));
        if out_of_switches.is_empty() {
            return others;
        }
        // Stable: by switch, each in key order.
        out_of_switches.sort_by_key(|c| c.0.5);
        let mut chosen = Vec::new();
        for group in out_of_switches.chunk_by(|a, b| a.0.5 == b.0.5) {
            let mut by_key = group.to_vec();
            by_key.sort_unstable();
            chosen.extend(self.matched(&by_key));
        }
        chosen.sort_unstable();
        chosen.extend(others);
        chosen
    }

    /// A largest set of the candidates of one switch (in key order) that its
    /// copies and its links' capacities allow, one copy of an item a link.
    fn matched(&self, candidates: &[(Key, u32, u32)]) -> Vec<(Key, u32, u32)> {
        let Holder::Switch(s) = self.holders[candidates[0].0.5 as usize] else {
            return Vec::new();
        };
        // The copies, each an item: in the order the items are first met.
        let mut copies: Vec<u32> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for c in candidates {
            if seen.insert(c.2) {
                let held = self.copies[self.switch_slot(c.2 as usize, s)];
                let links = candidates.iter().filter(|d| d.2 == c.2).count() as u32;
                copies.extend(std::iter::repeat_n(c.2, held.min(links) as usize));
            }
        }
        let mut on: HashMap<u32, Vec<usize>> = HashMap::new();
        let mut taken: Vec<Option<usize>> = vec![None; copies.len()];
        fn place(
            x: usize,
            copies: &[u32],
            candidates: &[(Key, u32, u32)],
            capacity: &dyn Fn(u32) -> u32,
            on: &mut HashMap<u32, Vec<usize>>,
            taken: &mut [Option<usize>],
            visited: &mut std::collections::HashSet<u32>,
        ) -> bool {
            let item = copies[x];
            for (j, c) in candidates.iter().enumerate().filter(|(_, c)| c.2 == item) {
                let link = c.1;
                if !visited.insert(link) {
                    continue;
                }
                let here = on.entry(link).or_default().clone();
                if here.iter().any(|&y| copies[y] == item) {
                    continue;
                }
                if (here.len() as u32) < capacity(link) {
                    on.entry(link).or_default().push(x);
                    taken[x] = Some(j);
                    return true;
                }
                for y in here {
                    if place(y, copies, candidates, capacity, on, taken, visited) {
                        let slot = on.entry(link).or_default();
                        slot.retain(|&z| z != y);
                        slot.push(x);
                        taken[x] = Some(j);
                        return true;
                    }
                }
            }
            false
        }
        let capacity = |link: u32| self.graph.capacity(link);
        for x in 0..copies.len() {
            let mut visited = std::collections::HashSet::new();
            place(
                x,
                &copies,
                candidates,
                &capacity,
                &mut on,
                &mut taken,
                &mut visited,
            );
        }
        taken.into_iter().flatten().map(|j| candidates[j]).collect()
    }

    /// Records the send `u → w` of item `i` at step `t`.
    fn make(&mut self, t: u32, u: u32, w: u32, i: usize) {
        let (n, k) = (self.n(), self.k());
        if let Holder::Switch(s) = self.holders[u as usize] {
            let slot = self.switch_slot(i, s);
            self.copies[slot] -= 1;
        }
        let mw = self.machines.machine_of(w) as usize;
        self.reached[i * k + mw] = true;
        match self.holders[w as usize] {
            Holder::Switch(s) => {
                let slot = self.switch_slot(i, s);
                self.incoming[slot] += 1;
            }
            holder => {
                self.arrived[i * n + w as usize] = t;
                if holder == Holder::Gpu {
                    self.held_in[i * k + mw] += 1;
                    self.missing -= 1;
                }
            }
        }
        let (block, chunk) = self.items[i];
        let p = Packet::item(block, chunk);
        self.sends.push(TimedSend {
            step: t,
            from: u,
            to: w,
            source: p.source,
            destination: p.destination,
        });
    }
}

#[cfg(test)]
mod tests;
