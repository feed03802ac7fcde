//! The formula "this copying collective (broadcast, allgather) finishes in T
//! steps", and the types every collective formula shares: the encoding and
//! what it decodes to, and why a search fails.
//!
//! The formula "the collective finishes in T steps", in the model of
//! docs/schedule.md: per item i (chunk c of block b) and time t = 0 … T a
//! variable `has(i, v, t)` says that node v holds the item after step t; per
//! step t and directed link u → w a variable `snd(i, t, u → w)` says that the
//! item is copied over that link at step t. Clauses: the item starts at b
//! alone and is everywhere after step T; a copy is sent only by a node that
//! held it after step t − 1, only to a node that did not, and then the
//! receiver holds it; a node holds an item after step t only if it did before
//! or received it at step t, and keeps it; one copy of an item into a node a
//! step (a second is delivered-twice); one packet per directed link a step; at
//! most K sends and K receives per node a step. A `has` variable is made only
//! where breadth-first distance allows (d(b, v) ≤ t), which every schedule
//! respects, so an unsatisfiable formula speaks about every schedule of the
//! model. On a fabric ([`super::fabric`]): a link's capacity and the switch
//! limits bound the sends of a step, a forward-only node has no item and
//! needs none, and without multicast sends each item at most once; and the
//! formula is the empty clause when some node cannot take in its items in
//! time (`fabric::starved`, a count every schedule respects).

use super::StopToken;
use super::collective_symmetry::Translations;
use super::fabric::{self, SwitchCopies};
use crate::cnf::{Cnf, Lit};
use crate::options::SolverError;
use std::path::PathBuf;
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Items, Packet, Ports, TimedSend};

/// The version of this encoding, for the record of a search.
pub const COPIES_ENCODING_VERSION: &str = "txverify-copies-encoding-2";

/// Why a collective search failed (as opposed to finding nothing).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CollectiveSearchError {
    /// The collective is not one this search handles.
    #[error(
        "{0} is not searched here: --collective takes broadcast R, allgather, reduce R, reduce-scatter and allreduce (a total exchange: search --network without --collective)"
    )]
    Unsupported(Collective),
    /// The formula would be too large.
    #[error(
        "the formula for T={time} would have about {estimate} variables, more than the limit of {limit}: raise it with --max-variables N"
    )]
    OverLimit {
        /// The number of steps.
        time: usize,
        /// The variables estimated.
        estimate: u64,
        /// The limit.
        limit: u64,
    },
    /// The run's stop token (deadline or signal) stopped the encoder.
    #[error("the formula was not finished: the run was stopped")]
    Stopped,
    /// The solver failed.
    #[error("solver error: {0}")]
    Solver(#[from] SolverError),
    /// A certificate could not be written.
    #[error("cannot write the certificate in {path}: {source}")]
    Write {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The decoded model is not a valid schedule: an encoder bug.
    #[error("internal error: the model for T={time} replays with {violations} violations")]
    InvalidModel {
        /// The number of steps.
        time: usize,
        /// The violations the replay counted.
        violations: u64,
    },
}

/// The formula and what its send variables mean.
pub struct CollectiveEncoding {
    /// The formula.
    pub cnf: Cnf,
    sends: Vec<(Lit, TimedSend)>,
}

impl CollectiveEncoding {
    /// The sends a model (`model[v − 1]`, the value of variable `v`) makes.
    pub fn decode(&self, model: &[bool]) -> Vec<TimedSend> {
        let mut sends: Vec<TimedSend> = self
            .sends
            .iter()
            .filter(|(var, _)| model.get(*var as usize - 1).copied().unwrap_or(false))
            .map(|&(_, s)| s)
            .collect();
        sends.sort_by_key(|s| s.step);
        sends
    }
}

/// The items of a copying collective as `(block, chunk)`; a forward-only
/// node has no block.
fn items(graph: &Graph, collective: Collective) -> Vec<(u32, u32)> {
    let blocks: Vec<u32> = match collective.root() {
        Some(r) => vec![r],
        None => (0..graph.nodes() as u32)
            .filter(|&x| !graph.is_forward_only(x))
            .collect(),
    };
    let chunks = collective.chunks();
    blocks
        .into_iter()
        .flat_map(|b| (0..chunks).map(move |c| (b, c)))
        .collect()
}

/// An upper estimate of the copies formula's variables for `time` steps:
/// per item, the holdings and the sends (one a unit of capacity into a
/// switch that counts copies), and at each such switch its two running
/// counts (each step a totalizer of the step's sends or receipts and a merge
/// onto a count at most one above all its receipts).
pub fn estimate_variables(graph: &Graph, collective: Collective, time: usize) -> u64 {
    let items = items(graph, collective).len() as u64;
    let t = time as u64;
    let copies = |l: u32| {
        let (_, w) = graph.endpoints(l);
        if fabric::counts_copies(graph, w) {
            u64::from(graph.capacity(l))
        } else {
            1
        }
    };
    let sends: u64 = (0..graph.directed_links() as u32).map(copies).sum();
    let totalized = |m: u64| m * (u64::from(m.max(1).ilog2()) + 2);
    let counts: u64 = (0..graph.nodes() as u32)
        .filter(|&w| fabric::counts_copies(graph, w))
        .map(|w| {
            let (into, out) = graph.links_of(w).fold((0u64, 0u64), |(i, o), l| {
                let (_, y) = graph.endpoints(l);
                let back = graph.link(y, w).map_or(0, copies);
                (i + back, o + copies(l))
            });
            let width = t.saturating_mul(into) + 1;
            t.saturating_mul(totalized(into) + totalized(out) + 2 * width)
        })
        .sum();
    let per_item = (t + 1) * graph.nodes() as u64 + t.saturating_mul(sends) + sends + counts;
    items.saturating_mul(per_item)
}

/// Whether some node of a fabric cannot take in, within `time` steps, the
/// items it needs ([`fabric::starved`]): every item not its own arrives once,
/// no sooner than its distance.
pub(crate) fn starved_somewhere(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> bool {
    let all = items(graph, collective);
    let blocks: Vec<u32> = all.iter().map(|&(b, _)| b).collect();
    let dist: Vec<(u32, Vec<u32>)> = {
        let mut seen: Vec<u32> = blocks.clone();
        seen.dedup();
        seen.into_iter()
            .map(|b| (b, graph.distances_from(b)))
            .collect()
    };
    (0..graph.nodes() as u32)
        .filter(|&v| !graph.is_forward_only(v))
        .any(|v| {
            let mut far: Vec<u32> = all
                .iter()
                .filter(|&&(b, _)| b != v)
                .map(|&(b, _)| {
                    let row = &dist[dist.partition_point(|(x, _)| *x < b)].1;
                    row[v as usize]
                })
                .collect();
            fabric::starved(&mut far, fabric::intake_per_step(graph, ports, v), time)
        })
}

/// Builds the formula for `time` steps.
pub fn encode_copies(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    encode_copies_in(graph, collective, ports, time, None, &StopToken::default())
}

/// Builds the formula for `time` steps; with `translated`, of the schedules
/// whose items of block b are those of block 0 mapped by σ_b (an allgather
/// only; [`super::collective_symmetry`]).
pub(crate) fn encode_copies_in(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
    translated: Option<&Translations>,
    stop: &StopToken,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    let translated_here =
        translated.is_some() && (collective.root().is_some() || !graph.fabric().is_plain());
    if collective.items() != Items::Copies || translated_here {
        return Err(CollectiveSearchError::Unsupported(collective));
    }
    let n = graph.nodes();
    let links = graph.directed_links();
    let mut cnf = Cnf::new();
    let mut slots = SendSlots::new(time, n, links);
    if !graph.fabric().is_plain() && starved_somewhere(graph, collective, ports, time) {
        cnf.add(&[]);
    }
    let mut all = items(graph, collective);
    if translated.is_some() {
        all.retain(|&(block, _)| block == 0);
    }
    for (block, chunk) in all {
        if stop.stopped().is_some() {
            return Err(CollectiveSearchError::Stopped);
        }
        let dist = graph.distances_from(block);
        // has[t][v]: 0 where the item cannot be yet.
        let mut has = vec![vec![0 as Lit; n]; time + 1];
        for (t, row) in has.iter_mut().enumerate() {
            for (v, slot) in row.iter_mut().enumerate() {
                if dist[v] as usize <= t {
                    *slot = cnf.fresh();
                }
            }
        }
        cnf.add(&[has[0][block as usize]]);
        for (v, &last) in has[time].iter().enumerate() {
            if graph.is_forward_only(v as u32) {
                continue;
            }
            // Everywhere at the end (an empty clause when too far).
            cnf.add(if last == 0 {
                &[]
            } else {
                std::slice::from_ref(&last)
            });
        }
        let mut switch_copies = SwitchCopies::new(graph, time);
        for t in 1..=time {
            let mut into: Vec<Vec<Lit>> = vec![Vec::new(); n];
            for u in 0..n as u32 {
                let before = has[t - 1][u as usize];
                if before == 0 {
                    continue;
                }
                for link in graph.links_of(u) {
                    let (_, w) = graph.endpoints(link);
                    // A switch that counts copies may take several of one
                    // item a step, one per unit of the link's capacity (in
                    // order: the k-th only with the (k − 1)-th); a node
                    // that copies takes one, and none it holds.
                    let counted = fabric::counts_copies(graph, w);
                    let copies = if counted { graph.capacity(link) } else { 1 };
                    let mut previous: Option<Lit> = None;
                    for _ in 0..copies {
                        let s = cnf.fresh();
                        cnf.add(&[-s, before]);
                        if let Some(p) = previous {
                            cnf.add(&[-s, p]);
                        }
                        let held = has[t - 1][w as usize];
                        if held != 0 && !counted {
                            cnf.add(&[-s, -held]);
                        }
                        cnf.add(&[-s, has[t][w as usize]]);
                        into[w as usize].push(s);
                        switch_copies.record(graph, t, s, u, w);
                        slots.record(graph, translated, t, s, (u, w, link), (block, chunk));
                        previous = Some(s);
                    }
                }
            }
            for (v, arriving) in into.into_iter().enumerate() {
                let (before, after) = (has[t - 1][v], has[t][v]);
                if after == 0 {
                    continue;
                }
                // Held after t: held before, or arrived at t; and kept.
                let mut clause = vec![-after];
                if before != 0 {
                    clause.push(before);
                    cnf.add(&[-before, after]);
                }
                clause.extend(&arriving);
                cnf.add(&clause);
                if !fabric::counts_copies(graph, v as u32) {
                    cnf.at_most_one(&arriving);
                }
            }
        }
        switch_copies.forward_no_more_than_received(&mut cnf);
    }
    Ok(slots.finish(graph, cnf, ports, translated.is_some()))
}

/// The send variables of a formula as it is built: of each (step, link), of each
/// (step, node) out and in, for the capacities at the end, and each with the send it
/// stands for, to read a model back. Both formulas (copies and sums) record theirs here.
pub(crate) struct SendSlots {
    n: usize,
    links: usize,
    on_link: Vec<Vec<Lit>>,
    out: Vec<Vec<Lit>>,
    inn: Vec<Vec<Lit>>,
    sends: Vec<(Lit, TimedSend)>,
}

impl SendSlots {
    pub(crate) fn new(time: usize, n: usize, links: usize) -> SendSlots {
        SendSlots {
            n,
            links,
            on_link: vec![Vec::new(); time * links],
            out: vec![Vec::new(); time * n],
            inn: vec![Vec::new(); time * n],
            sends: Vec::new(),
        }
    }

    /// Records `s`, the send at step `t` of the item (`block`, `chunk`) over the
    /// directed link `link` = `u → w`, and, translated, each of its images.
    pub(crate) fn record(
        &mut self,
        graph: &Graph,
        translated: Option<&Translations>,
        t: usize,
        s: Lit,
        (u, w, link): (u32, u32, u32),
        (block, chunk): (u32, u32),
    ) {
        for (u, w, link, block) in images(graph, translated, u, w, link, block) {
            self.on_link[(t - 1) * self.links + link as usize].push(s);
            self.out[(t - 1) * self.n + u as usize].push(s);
            self.inn[(t - 1) * self.n + w as usize].push(s);
            let p = Packet::item(block, chunk);
            let send = TimedSend {
                step: t as u32,
                from: u,
                to: w,
                source: p.source,
                destination: p.destination,
            };
            self.sends.push((s, send));
        }
    }

    /// The capacities of every step, and the formula with its sends.
    pub(crate) fn finish(
        self,
        graph: &Graph,
        mut cnf: Cnf,
        ports: Ports,
        translated: bool,
    ) -> CollectiveEncoding {
        capacities(
            graph,
            &mut cnf,
            ports,
            &self.on_link,
            &self.out,
            &self.inn,
            translated,
        );
        CollectiveEncoding {
            cnf,
            sends: self.sends,
        }
    }
}

/// Where a send of an item of `block` over `u → w` (directed link `link`)
/// is made: there alone, or translated, once per map σ_b
/// (σ_b(u) → σ_b(w), for the item of block σ_b(block)).
pub(crate) fn images(
    graph: &Graph,
    translated: Option<&Translations>,
    u: u32,
    w: u32,
    link: u32,
    block: u32,
) -> Vec<(u32, u32, u32, u32)> {
    let Some(maps) = translated else {
        return vec![(u, w, link, block)];
    };
    (0..maps.len() as u32)
        .map(|b| {
            let (u2, w2) = (maps.map(b, u), maps.map(b, w));
            // The maps are automorphisms (checked when found).
            let link2 = graph
                .link(u2, w2)
                .expect("a translation maps links to links");
            (u2, w2, link2, maps.map(b, block))
        })
        .collect()
}

/// Its capacity per directed link a step (one packet without a fabric), the
/// fabric's switch limits ([`super::fabric`]), K sends and K receives per
/// node a step. Translated (networks without a fabric only), the constraints
/// of the links (nodes) of one orbit are the same constraint: each is written
/// once (`dedup`, in the order met).
pub(crate) fn capacities(
    graph: &Graph,
    cnf: &mut Cnf,
    ports: Ports,
    on_link: &[Vec<Lit>],
    out: &[Vec<Lit>],
    inn: &[Vec<Lit>],
    dedup: bool,
) {
    let mut written = std::collections::HashSet::new();
    let mut first = |vars: &[Lit]| {
        if !dedup {
            return true;
        }
        let mut key = vars.to_vec();
        key.sort_unstable();
        written.insert(key)
    };
    if graph.fabric().is_plain() {
        for vars in on_link {
            if first(vars) {
                cnf.at_most_one(vars);
            }
        }
    } else {
        fabric::link_capacities(cnf, graph, on_link);
        fabric::switch_limits(cnf, graph, on_link);
    }
    if let Ports::Limit(k) = ports {
        for vars in out.iter().chain(inn) {
            if first(vars) {
                cnf.at_most(vars, k as usize);
            }
        }
    }
}

/// Where an upward SAT search of `collective` on a fabric starts: one step
/// below the first time at which no node is `fabric::starved` (that time's formula
/// is then refuted at once, and its refutation covers every fewer step), so
/// that a fabric whose nodes take in little, such as a hub's one receipt a
/// step, is not searched step by step from 0. 0 for the combining
/// collectives and on networks without a fabric (their bounds start them).
pub fn sat_start(graph: &Graph, collective: Collective, ports: Ports) -> usize {
    if graph.fabric().is_plain() || collective.items() != Items::Copies {
        return 0;
    }
    // Starved at T means starved at every fewer step: a binary search.
    let starved = |t| starved_somewhere(graph, collective, ports, t);
    let (mut low, mut high) = (0, MAX_START);
    if starved(high) {
        return high;
    }
    // starved(t) for t < low, not starved(high).
    while low < high {
        let mid = low + (high - low) / 2;
        if starved(mid) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    high.saturating_sub(1)
}

/// The latest [`sat_start`] (the upward search tries a span of times from it).
const MAX_START: usize = 1 << 12;
