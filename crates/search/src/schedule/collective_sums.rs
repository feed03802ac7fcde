//! The formula "this combining collective (reduce, reduce-scatter, allreduce)
//! finishes in T steps", in the model of docs/schedule.md (rule 4).
//!
//! Per item i, node v, contribution x and time t = 0 … T a variable
//! `has(i, v, x, t)`: v's partial of i contains x after step t (at t = 0
//! exactly x = v; made only where d(x, v) ≤ t, else false). Per item, step
//! and directed link u → w a send variable `s`, with `carry(s, x)` ⇔ s ∧
//! has(i, u, x, t − 1) (the partial sent is the sender's at the start of the
//! step) and a mode `add(s)`: when adding, the partial is disjoint from the
//! receiver's; when replacing, it contains the receiver's; either way it
//! brings a contribution the receiver lacks (`new(s, x)`); two partials of
//! an item received in one step share no contribution; the receiver's partial
//! after the step is its own and what it received. The partial of item i is
//! complete after step T at the item's block node (reduce, reduce-scatter) or
//! everywhere (allreduce). Links and ports as for copies. The restriction by
//! distance holds for every schedule, so a refutation covers every schedule of
//! the model. On a fabric, as for copies ([`super::fabric`]); a forward-only
//! node contributes nothing and need not end complete.

use super::StopToken;
use super::collective_copies::{CollectiveEncoding, CollectiveSearchError, SendSlots};
use super::collective_symmetry::Translations;
use super::fabric::SwitchSends;
use crate::cnf::{Cnf, Lit};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Items, Ports};

/// The version of this encoding.
pub const SUMS_ENCODING_VERSION: &str = "txverify-sums-encoding-1";

/// The items `(block, chunk)` and whether every node must end complete; a
/// forward-only node has no block.
fn items(graph: &Graph, collective: Collective) -> (Vec<(u32, u32)>, bool) {
    let blocks: Vec<u32> = match collective.root() {
        Some(r) => vec![r],
        None => (0..graph.nodes() as u32)
            .filter(|&x| !graph.is_forward_only(x))
            .collect(),
    };
    let chunks = collective.chunks();
    let items = blocks
        .into_iter()
        .flat_map(|b| (0..chunks).map(move |c| (b, c)))
        .collect();
    (items, matches!(collective, Collective::Allreduce { .. }))
}

/// An upper estimate of the formula's variables for `time` steps.
pub fn estimate_variables(graph: &Graph, collective: Collective, time: usize) -> u64 {
    let (items, _) = items(graph, collective);
    let n = graph.nodes() as u64;
    let per_step = n * n + graph.directed_links() as u64 * (2 * n + 2);
    (items.len() as u64).saturating_mul(per_step.saturating_mul(time as u64 + 1))
}

/// Builds the formula for `time` steps.
pub fn encode_sums(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    encode_sums_in(graph, collective, ports, time, None, &StopToken::default())
}

/// Builds the formula for `time` steps; with `translated`, of the schedules
/// whose items of block b are those of block 0 mapped by σ_b, contributions
/// included (reduce-scatter and allreduce only;
/// [`super::collective_symmetry`]).
pub(crate) fn encode_sums_in(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
    translated: Option<&Translations>,
    stop: &StopToken,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    let translated_here =
        translated.is_some() && (collective.root().is_some() || !graph.fabric().is_plain());
    if collective.items() != Items::Sums || translated_here {
        return Err(CollectiveSearchError::Unsupported(collective));
    }
    let n = graph.nodes();
    let links = graph.directed_links();
    let mut cnf = Cnf::new();
    let no = cnf.fresh();
    cnf.add(&[-no]);
    let dist: Vec<Vec<u32>> = (0..n as u32).map(|x| graph.distances_from(x)).collect();
    let mut slots = SendSlots::new(time, n, links);
    let (mut items, everywhere) = items(graph, collective);
    if translated.is_some() {
        items.retain(|&(block, _)| block == 0);
    }
    for (block, chunk) in items {
        if stop.stopped().is_some() {
            return Err(CollectiveSearchError::Stopped);
        }
        // has[t][v][x], `no` where distance forbids.
        let mut has = vec![vec![vec![no; n]; n]; time + 1];
        for (t, layer) in has.iter_mut().enumerate() {
            for (v, row) in layer.iter_mut().enumerate() {
                for (x, slot) in row.iter_mut().enumerate() {
                    // A forward-only node contributes nothing.
                    if dist[x][v] as usize <= t && !graph.is_forward_only(x as u32) {
                        *slot = cnf.fresh();
                    }
                }
            }
        }
        for (v, row) in has[0].iter().enumerate() {
            if row[v] != no {
                cnf.add(&[row[v]]);
            }
        }
        let mut switch_sends = SwitchSends::new(graph);
        for t in 1..=time {
            // carry[w][x]: the carries of x into w at step t.
            let mut carries: Vec<Vec<Vec<Lit>>> = vec![vec![Vec::new(); n]; n];
            for u in 0..n as u32 {
                for link in graph.links_of(u) {
                    let (_, w) = graph.endpoints(link);
                    let (uu, ww) = (u as usize, w as usize);
                    let s = cnf.fresh();
                    let add = cnf.fresh();
                    let mut news = vec![-s];
                    for x in 0..n {
                        let (cu, cw) = (has[t - 1][uu][x], has[t - 1][ww][x]);
                        if cu == no {
                            continue;
                        }
                        let carry = cnf.fresh();
                        cnf.add(&[-carry, s]);
                        cnf.add(&[-carry, cu]);
                        cnf.add(&[-s, -cu, carry]);
                        carries[ww][x].push(carry);
                        // Adding: disjoint. Replacing: contains the receiver's.
                        if cw != no {
                            cnf.add(&[-s, -add, -cu, -cw]);
                        }
                        let new = cnf.fresh();
                        cnf.add(&[-new, cu]);
                        if cw != no {
                            cnf.add(&[-new, -cw]);
                        }
                        news.push(new);
                    }
                    for (&cu, &cw) in has[t - 1][uu].iter().zip(&has[t - 1][ww]) {
                        if cw != no {
                            let mut clause = vec![-s, add, -cw];
                            if cu != no {
                                clause.push(cu);
                            }
                            cnf.add(&clause);
                        }
                    }
                    cnf.add(&news);
                    switch_sends.record(graph, u, s);
                    slots.record(graph, translated, t, s, (u, w, link), (block, chunk));
                }
            }
            for w in 0..n {
                for x in 0..n {
                    let (before, after) = (has[t - 1][w][x], has[t][w][x]);
                    let arriving = &carries[w][x];
                    // No contribution twice in one step.
                    cnf.at_most_one(arriving);
                    if after == no {
                        // Cannot arrive (distance): no carry of it here.
                        for &c in arriving {
                            cnf.add(&[-c]);
                        }
                        continue;
                    }
                    if before != no {
                        cnf.add(&[-before, after]);
                    }
                    for &c in arriving {
                        cnf.add(&[-c, after]);
                    }
                    let mut clause = vec![-after];
                    if before != no {
                        clause.push(before);
                    }
                    clause.extend(arriving);
                    cnf.add(&clause);
                }
            }
        }
        switch_sends.at_most_once_from_switches(&mut cnf);
        let done: Vec<usize> = if everywhere {
            (0..n)
                .filter(|&v| !graph.is_forward_only(v as u32))
                .collect()
        } else {
            vec![block as usize]
        };
        for v in done {
            for (x, &last) in has[time][v].iter().enumerate() {
                if graph.is_forward_only(x as u32) {
                    continue;
                }
                cnf.add(if last == no {
                    &[]
                } else {
                    std::slice::from_ref(&last)
                });
            }
        }
    }
    Ok(slots.finish(graph, cnf, ports, translated.is_some()))
}
