//! A network's fabric (`txverify_core::network::Fabric`) in the schedule
//! formulas, the same rules the replay judges:
//!
//! - a directed link of capacity c carries at most c packets a step (a
//!   totalizer, [`Cnf::at_most`]; capacity 1 keeps the formula it always had,
//!   so the formulas of networks without a fabric are unchanged byte for byte);
//! - a switch limit (sources, destinations, b) allows at most b sends a step
//!   from one of its sources to one of its destinations;
//! - a forward-only node has no item of its own and needs none (the encoders
//!   leave its block out and ask nothing of it at the end), and unless the
//!   fabric multicasts it sends each combined item at most once in the whole
//!   schedule (`SwitchSends::at_most_once_from_switches`), and a copied item
//!   once per copy received: it may take several copies of one item (one a
//!   unit of a link's capacity a step), and up to every step t its sends of
//!   the item are at most its receipts up to t − 1 (`SwitchCopies`, two
//!   running unary counts).
//!
//! Every clause here is one the replay checks, so a refutation still speaks
//! about every schedule of the model, now on the fabric. The constructions
//! are kept on a fabric only when its replay finds them valid
//! ([`construct_on_fabric`]).

use super::StopToken;
use super::heuristic::collective::{
    Construction, ConstructionError, construct_until, constructions_until,
};
use super::machines::by_machines;
use crate::cnf::{Cnf, Lit};
use txverify_core::network::Graph;
use txverify_core::schedule::{
    Collective, Items, Ports, ReplayOptions, Schedule, TimedSend, replay,
};

/// At most `capacity(link)` of `on_link[(t − 1)·L + link]` a step (L the
/// directed links).
pub(crate) fn link_capacities(cnf: &mut Cnf, graph: &Graph, on_link: &[Vec<Lit>]) {
    let links = graph.directed_links().max(1);
    for (i, vars) in on_link.iter().enumerate() {
        match graph.capacity((i % links) as u32) {
            1 => cnf.at_most_one(vars),
            c => cnf.at_most(vars, c as usize),
        }
    }
}

/// The fabric's switch limits: at most b sends a step from the limit's
/// sources to its destinations, over `on_link` (by step, then directed link).
pub(crate) fn switch_limits(cnf: &mut Cnf, graph: &Graph, on_link: &[Vec<Lit>]) {
    let limits = graph.fabric().limits();
    let links = graph.directed_links();
    if limits.is_empty() || links == 0 {
        return;
    }
    let time = on_link.len() / links;
    for t in 0..time {
        for limit in limits {
            let mut vars = Vec::new();
            for &u in &limit.sources {
                for link in graph.links_of(u) {
                    let (_, w) = graph.endpoints(link);
                    if limit.destinations.binary_search(&w).is_ok() {
                        vars.extend_from_slice(&on_link[t * links + link as usize]);
                    }
                }
            }
            cnf.at_most(&vars, limit.sends as usize);
        }
    }
}

/// Whether the formulas of `collective` on `graph` count copies at a switch
/// that does not copy (`SwitchCopies`): formulas that grow with the steps,
/// where a construction is worth trying first.
pub fn has_counting_switch(graph: &Graph, collective: Collective) -> bool {
    let fabric = graph.fabric();
    fabric.has_forward_only() && !fabric.multicast() && collective.items() == Items::Copies
}

/// The sends of one item out of each node, over every step, to be held to at
/// most one out of a forward-only node that does not copy.
pub(crate) struct SwitchSends {
    /// By node; empty when no node is held (no switch, or multicast).
    by_node: Vec<Vec<Lit>>,
}

impl SwitchSends {
    /// Ready for one item of a collective on `graph`.
    pub(crate) fn new(graph: &Graph) -> SwitchSends {
        let fabric = graph.fabric();
        let held = fabric.has_forward_only() && !fabric.multicast();
        SwitchSends {
            by_node: if held {
                vec![Vec::new(); graph.nodes()]
            } else {
                Vec::new()
            },
        }
    }

    /// Records the send `s` of the item out of node `u`.
    pub(crate) fn record(&mut self, graph: &Graph, u: u32, s: Lit) {
        if !self.by_node.is_empty() && graph.is_forward_only(u) {
            self.by_node[u as usize].push(s);
        }
    }

    /// At most one send of the item out of each forward-only node.
    pub(crate) fn at_most_once_from_switches(self, cnf: &mut Cnf) {
        for vars in self.by_node {
            cnf.at_most_one(&vars);
        }
    }
}

/// Whether `x` is a forward-only node that does not copy: it holds a count
/// of each copied item, one more a receipt, one less a send.
pub(crate) fn counts_copies(graph: &Graph, x: u32) -> bool {
    !graph.fabric().multicast() && graph.is_forward_only(x)
}

/// The receipts and sends of one copied item at each forward-only node that
/// does not copy, by step, to hold each such node to the replay's rule: up
/// to every step t, its sends of the item are at most its receipts of it up
/// to step t − 1 (each copy received is forwarded once, from the step after
/// it arrives).
pub(crate) struct SwitchCopies {
    /// By node, by step − 1; empty when no node counts copies.
    receipts: Vec<Vec<Vec<Lit>>>,
    sends: Vec<Vec<Vec<Lit>>>,
}

impl SwitchCopies {
    /// Ready for one item of a formula of `time` steps on `graph`.
    pub(crate) fn new(graph: &Graph, time: usize) -> SwitchCopies {
        let counted = (0..graph.nodes() as u32).any(|x| counts_copies(graph, x));
        let by_node = if counted {
            vec![vec![Vec::new(); time]; graph.nodes()]
        } else {
            Vec::new()
        };
        SwitchCopies {
            receipts: by_node.clone(),
            sends: by_node,
        }
    }

    /// Records `s`, a send of the item at step `t` from `u` to `w`.
    pub(crate) fn record(&mut self, graph: &Graph, t: usize, s: Lit, u: u32, w: u32) {
        if self.sends.is_empty() {
            return;
        }
        if counts_copies(graph, u) {
            self.sends[u as usize][t - 1].push(s);
        }
        if counts_copies(graph, w) {
            self.receipts[w as usize][t - 1].push(s);
        }
    }

    /// For every node and step t: sends up to t at most the receipts up to
    /// t − 1, by two running unary counts ([`Cnf::totalizer`] of each step's
    /// sends, [`Cnf::merge_counts`] onto the count before), up to one more
    /// than all the receipts (so every excess is seen).
    pub(crate) fn forward_no_more_than_received(self, cnf: &mut Cnf) {
        for (receipts, sends) in self.receipts.into_iter().zip(self.sends) {
            if sends.iter().all(Vec::is_empty) {
                continue;
            }
            let time = sends.len();
            let received: usize = receipts[..time - 1].iter().map(Vec::len).sum();
            let width = received + 1;
            let running = |cnf: &mut Cnf, by_step: &[Vec<Lit>]| {
                let mut counts: Vec<Vec<Lit>> = Vec::with_capacity(by_step.len());
                let mut count: Vec<Lit> = Vec::new();
                for lits in by_step {
                    if !lits.is_empty() {
                        let step = cnf.totalizer(lits, width);
                        count = if count.is_empty() {
                            step
                        } else {
                            cnf.merge_counts(&count, &step, width)
                        };
                    }
                    counts.push(count.clone());
                }
                counts
            };
            let got = running(cnf, &receipts[..time - 1]);
            let gave = running(cnf, &sends);
            for (t, gave) in gave.iter().enumerate() {
                // Received up to step t (index t − 1); nothing before step 1.
                let before: &[Lit] = if t == 0 { &[] } else { &got[t - 1] };
                for (k, &g) in gave.iter().enumerate() {
                    match before.get(k) {
                        Some(&r) => cnf.add(&[-g, r]),
                        None => cnf.add(&[-g]),
                    }
                }
            }
        }
    }
}

/// The fastest construction of `collective` valid on `graph`'s fabric, or
/// `None` when none is. The constructions
/// ([`super::heuristic::collective::constructions_until`]) know nothing of
/// fabrics: a schedule valid at capacity 1 is valid at any capacity, but a
/// switch limit or a forward-only node may make it invalid. So the sends of a
/// forward-only node's own block are dropped (it has no data), each is
/// replayed on the fabric and the first valid one kept; when none is and the
/// ports are all, the one-port constructions are tried too (one send and one
/// receipt a node a step, which keeps many switch limits, such as
/// `hub-and-spoke`'s). On a fabric of several machines the construction by
/// machines ([`super::machines`]) is made first and kept, when valid, unless
/// one of those is faster. On a network without a fabric it is
/// [`super::heuristic::collective::construct_until`].
pub fn construct_on_fabric(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    stop: &StopToken,
) -> Result<Option<Construction>, ConstructionError> {
    if graph.fabric().is_plain() {
        return construct_until(graph, collective, ports, stop).map(Some);
    }
    if let Some(made) = through_one_switch(graph, collective) {
        let schedule = Schedule {
            network: None,
            ports: Some(ports),
            collective,
            sends: made.sends.clone(),
        };
        if replay(&schedule, graph, &ReplayOptions { max_listed: 0 })
            .is_ok_and(|r| r.violation_count() == 0)
        {
            return Ok(Some(made));
        }
    }
    let valid = |sends: &[TimedSend]| {
        let schedule = Schedule {
            network: None,
            ports: Some(ports),
            collective,
            sends: sends.to_vec(),
        };
        replay(&schedule, graph, &ReplayOptions { max_listed: 0 })
            .is_ok_and(|r| r.violation_count() == 0)
    };
    // Several machines: the NICs a pipeline (`machines`), kept when valid
    // and no slower than the first valid construction that knows no machines.
    let by_machines = by_machines(graph, collective, ports, stop)?.filter(|m| valid(&m.sends));
    let flat = match flat_on_fabric(graph, collective, ports, stop) {
        Ok(flat) => flat,
        // Stopped (or too large) after a schedule by machines: that one.
        Err(_) if by_machines.is_some() => None,
        Err(e) => return Err(e),
    };
    Ok(match (by_machines, flat) {
        (Some(m), Some(f)) => Some(if f.time < m.time { f } else { m }),
        (m, f) => m.or(f),
    })
}

/// The first of the constructions that know no fabric
/// ([`constructions_until`]) valid on `graph`'s fabric (see
/// [`construct_on_fabric`]).
fn flat_on_fabric(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    stop: &StopToken,
) -> Result<Option<Construction>, ConstructionError> {
    let mut tries = vec![ports];
    if ports == Ports::All && !graph.fabric().limits().is_empty() {
        tries.push(Ports::Limit(1));
    }
    for made_with in tries {
        for mut made in constructions_until(graph, collective, made_with, stop)? {
            made.sends
                .retain(|s| !(s.packet().is_broadcast() && graph.is_forward_only(s.source)));
            let schedule = Schedule {
                network: None,
                ports: Some(ports),
                collective,
                sends: made.sends,
            };
            let valid = replay(&schedule, graph, &ReplayOptions { max_listed: 0 })
                .is_ok_and(|r| r.violation_count() == 0);
            if valid {
                made.sends = schedule.sends;
                made.time = made.sends.iter().map(|s| s.step).max().unwrap_or(0);
                return Ok(Some(made));
            }
        }
    }
    Ok(None)
}

/// Allgather on a fabric whose GPUs' only link is to one forward-only node
/// that does not copy (`nvswitch N`): in a rotation over the C chunks and the
/// N − 1 offsets r, at step k + 1 every GPU g sends the k-th (chunk, offset)
/// of its block to the switch, which forwards it at step k + 2 to GPU
/// g + r (mod N): one send in and out of every GPU a step, (N − 1)·C + 1 steps,
/// the throughput bound (N − 1)·C plus one step of pipeline fill: the fill
/// bound. Reduce-scatter is its dual: in the same rotation every GPU g sends
/// its contribution to the k-th (chunk, offset r) of block g + r to the
/// switch, which combines the N − 1 contributions to each chunk of a block
/// and forwards the sum once, the step after the last arrives (a switch
/// forwards a combined item once): again (N − 1)·C + 1 steps. `None` on any
/// other fabric or collective; the caller replays it on the fabric.
fn through_one_switch(graph: &Graph, collective: Collective) -> Option<Construction> {
    let (chunks, reduce) = match collective {
        Collective::Allgather { chunks } => (chunks, false),
        Collective::ReduceScatter { chunks } => (chunks, true),
        _ => return None,
    };
    if graph.fabric().multicast() && !reduce {
        return None;
    }
    let n = graph.nodes() as u32;
    let mut switches = (0..n).filter(|&x| graph.is_forward_only(x));
    let (hub, None) = (switches.next()?, switches.next()) else {
        return None;
    };
    let gpus: Vec<u32> = (0..n).filter(|&x| x != hub).collect();
    if gpus.len() < 2 || gpus.iter().any(|&g| graph.neighbours(g) != [hub]) {
        return None;
    }
    let count = gpus.len();
    let mut sends = Vec::new();
    let mut step = 0u32;
    let item = txverify_core::schedule::Packet::item;
    let send = |step, from, to, (block, chunk)| {
        let p = item(block, chunk);
        TimedSend {
            step,
            from,
            to,
            source: p.source,
            destination: p.destination,
        }
    };
    for chunk in 0..chunks {
        for offset in 1..count {
            step += 1;
            for (i, &g) in gpus.iter().enumerate() {
                let to = gpus[(i + offset) % count];
                if reduce {
                    sends.push(send(step, g, hub, (to, chunk)));
                    continue;
                }
                sends.push(send(step, g, hub, (g, chunk)));
                sends.push(send(step + 1, hub, to, (g, chunk)));
            }
        }
        if reduce {
            // Every contribution to this chunk of every block is in.
            sends.extend(gpus.iter().map(|&b| send(step + 1, hub, b, (b, chunk))));
        }
    }
    sends.sort_by_key(|s| s.step);
    let time = sends.iter().map(|s| s.step).max().unwrap_or(0);
    let method = if reduce {
        "through the switch, summed there"
    } else {
        "through the switch, once per destination"
    };
    Some(Construction {
        method: method.to_string(),
        sends,
        time,
    })
}

/// The most packets node `v` can receive in one step: the capacities of the
/// links into it, its ports (K), and each switch limit with `v` among its
/// destinations (its b, plus what comes over links from nodes that are not
/// its sources).
pub(crate) fn intake_per_step(graph: &Graph, ports: Ports, v: u32) -> u64 {
    let into = |u: u32| graph.link(u, v).map_or(0, |l| u64::from(graph.capacity(l)));
    let neighbours = graph.neighbours(v);
    let mut intake: u64 = neighbours.iter().map(|&u| into(u)).sum();
    if let Ports::Limit(k) = ports {
        intake = intake.min(u64::from(k));
    }
    for limit in graph.fabric().limits() {
        if limit.destinations.binary_search(&v).is_ok() {
            let outside: u64 = neighbours
                .iter()
                .filter(|u| limit.sources.binary_search(u).is_err())
                .map(|&u| into(u))
                .sum();
            intake = intake.min(u64::from(limit.sends) + outside);
        }
    }
    intake
}

/// Whether node `v` cannot take in, within `time` steps, the packets that must
/// reach it, `far[i]` being the hops from where packet i starts to `v` (it
/// arrives at step `far[i]` at the soonest, and takes a receipt of its own):
/// some `s` with more packets at least `s` hops away than `intake` receipts a
/// step can take in steps `s … time`. Every schedule respects this count, so
/// a formula may state it (as the empty clause) and still speak about every
/// schedule; on a fabric it settles at once what the solver would have to
/// count out (a hub's one receipt a step, a switch's first step).
pub(crate) fn starved(far: &mut [u32], intake: u64, time: usize) -> bool {
    far.sort_unstable_by(|a, b| b.cmp(a));
    // far[..k] are the k farthest: all at least far[k − 1] hops away.
    far.iter().enumerate().any(|(k, &s)| {
        let s = s.max(1) as u64;
        let steps = (time as u64 + 1).saturating_sub(s);
        k as u64 + 1 > intake.saturating_mul(steps)
    })
}

/// The heuristic's total exchange `sends` on a fabric: without the messages
/// of forward-only nodes (they send and need none), and only when the
/// fabric's replay finds the rest valid (a switch limit may not hold; a
/// capacity does, every link being used once a step). The sends unchanged on
/// a network without a fabric.
pub fn exchange_on_fabric(graph: &Graph, mut sends: Vec<TimedSend>) -> Option<Vec<TimedSend>> {
    if graph.fabric().is_plain() {
        return Some(sends);
    }
    sends.retain(|s| !graph.is_forward_only(s.source) && !graph.is_forward_only(s.destination));
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective: Collective::TotalExchange,
        sends,
    };
    let valid = replay(&schedule, graph, &ReplayOptions { max_listed: 0 })
        .is_ok_and(|r| r.violation_count() == 0);
    valid.then_some(schedule.sends)
}
