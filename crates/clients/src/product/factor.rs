//! Total exchanges in one dimension: the factor schedules that algorithms A1
//! and A2 compose.
//!
//! Every factor schedule is built here, then replayed on the factor's own graph
//! before it is used (a composition of invalid parts would only be caught later,
//! and further from the cause). Each factor gets the fastest of the schedules
//! it has ([`factor_exchange`]):
//!
//! | factor | single-port | all-port |
//! | --- | --- | --- |
//! | two nodes, complete `K_m` | `x` sends to `x + t` at step `t` (time m − 1, the status) | everyone at once (time 1) |
//! | ring `R_m`, m ≥ 3 | the node-invariant FIFO algorithm of seed 004 (time = status) | the tabular method's ring table (`gen ring m`), an embedded table |
//! | star, pancake, ccc, butterfly | the FIFO algorithm (time = status) | an embedded table (`tables/found/star4.tbl`), greedy |
//! | linear array `L_m`, edge list | greedy, busiest node first (on `L_m`: m − 1 + ⌊(m−1)²/2⌋, the node-load bound) | greedy, farthest first (on `L_m`: ⌊m²/4⌋, the cut bound) |

use super::ProductError;
use crate::catalogue;
use crate::check::{physical_network, simulation_words};
use crate::construct::{self, Family as TableFamily, GenOptions};
use crate::export::table_schedule;
use crate::fifo::{self, FifoError, FifoOptions, Routing};
use std::fmt;
use std::path::PathBuf;
use txverify_core::group::{FiniteGroup, GenLetter};
use txverify_core::kernel::{self, Instance, MessageSpec, Verdict};
use txverify_core::load::{LoadOptions, load};
use txverify_core::network::{CayleyFamily, Graph, NetworkName};
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, TimedSend, replay};

/// One dimension of a product network.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Factor {
    /// The ring `R_m` (`m ≥ 2`; `R_2` is one link).
    Ring(u32),
    /// The linear array (path) `L_m`.
    Linear(u32),
    /// The complete graph `K_m`.
    Complete(u32),
    /// A Cayley graph of `txverify net` (`star`, `pancake`, `ccc`, `butterfly`).
    Cayley {
        /// The family.
        family: CayleyFamily,
        /// Its size argument.
        size: u32,
        /// Its number of nodes.
        nodes: u32,
    },
    /// The graph of an edge list (`edges FILE`).
    Edges {
        /// The file, as the network name gives it.
        path: PathBuf,
        /// Its number of nodes.
        nodes: u32,
    },
}

impl Factor {
    /// Number of nodes.
    pub fn nodes(&self) -> u32 {
        match self {
            Factor::Ring(m) | Factor::Linear(m) | Factor::Complete(m) => *m,
            Factor::Cayley { nodes, .. } | Factor::Edges { nodes, .. } => *nodes,
        }
    }

    /// The factor as a schedule network (node numbering `0 … m−1` along the
    /// ring or path).
    pub fn network(&self) -> NetworkName {
        match self {
            Factor::Ring(m) => NetworkName::Ring(*m),
            Factor::Linear(m) => NetworkName::Linear(*m),
            Factor::Complete(m) => NetworkName::Complete(*m),
            Factor::Cayley { family, size, .. } => NetworkName::Cayley {
                family: *family,
                size: *size,
            },
            Factor::Edges { path, .. } => NetworkName::Edges(path.clone()),
        }
    }
}

impl fmt::Display for Factor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.network())
    }
}

/// A total exchange on `nodes` nodes in local numbering: every packet
/// `(s, d)`, `s ≠ d`, starts at `s` and ends at `d`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalExchange {
    /// Number of nodes.
    pub nodes: u32,
    /// The last step with a send.
    pub time: u32,
    /// The sends, sorted by step.
    pub sends: Vec<TimedSend>,
}

impl LocalExchange {
    /// Wraps sends, sorting them by step and taking the time from the last.
    pub fn new(nodes: u32, mut sends: Vec<TimedSend>) -> LocalExchange {
        sends.sort_by_key(|s| s.step);
        let time = sends.last().map_or(0, |s| s.step);
        LocalExchange { nodes, time, sends }
    }
}

/// A factor's total exchange and how it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactorExchange {
    /// The factor.
    pub factor: Factor,
    /// The algorithm: `direct`, `fifo`, `table` or `greedy`.
    pub method: &'static str,
    /// Where the schedule comes from: an embedded table's path
    /// (`tables/found/star4.tbl`), `gen ring M`, `FIFO algorithm`, `greedy`.
    pub source: String,
    /// The schedule.
    pub exchange: LocalExchange,
    /// Every schedule tried, replayed, with its time; the fastest is used.
    pub candidates: Vec<Candidate>,
}

/// One schedule tried for a factor.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Candidate {
    /// The algorithm (as [`FactorExchange::method`]).
    pub method: &'static str,
    /// Where it comes from (as [`FactorExchange::source`]).
    pub source: String,
    /// Its replayed time.
    pub time: u32,
}

/// Factors up to this many nodes also get the greedy schedule as a candidate
/// when another one exists (it is the only one for paths and edge lists).
pub const GREEDY_CANDIDATE_NODES: u32 = 128;

/// The fastest known total exchange of `factor` under `ports` (single-port or
/// all-port) among: the direct one of a complete graph; the FIFO algorithm
/// (single-port, Cayley factors); the ring table of `gen ring M` (all-port
/// rings); the fastest embedded table whose Cayley graph the network layer
/// finds isomorphic to the factor (`crate::catalogue`, checked by the kernel);
/// the greedy schedule. Each is replayed on the factor's graph before it
/// counts; on a tie the first in that order is used.
pub fn factor_exchange(factor: &Factor, ports: Ports) -> Result<FactorExchange, ProductError> {
    let m = factor.nodes();
    let mut made: Vec<(&'static str, String, Vec<TimedSend>)> = Vec::new();
    if m <= 2 || matches!(factor, Factor::Complete(_)) {
        made.push(("direct", "direct".into(), complete_exchange(m, ports)));
    } else {
        let graph = factor.network().build().map_err(ProductError::Network)?;
        match factor {
            Factor::Ring(_) if ports == Ports::All => {
                made.push(("table", format!("gen ring {m}"), ring_table(m)?));
            }
            Factor::Ring(_) => made.push(("fifo", "FIFO algorithm".into(), ring_fifo(m)?)),
            Factor::Cayley { family, size, .. } if ports != Ports::All => {
                made.push((
                    "fifo",
                    "FIFO algorithm".into(),
                    cayley_fifo(*family, *size)?,
                ));
            }
            _ => {}
        }
        if let Some(table) = catalogue::best_table(&factor.network(), &graph, ports) {
            made.push(("table", table.path.to_string(), table.sends));
        }
        if made.is_empty() || m <= GREEDY_CANDIDATE_NODES {
            made.push(("greedy", "greedy".into(), greedy_exchange(&graph, ports)));
        }
    }
    let mut best: Option<FactorExchange> = None;
    let mut candidates = Vec::new();
    for (method, source, sends) in made {
        let exchange = LocalExchange::new(m, sends);
        check_factor(factor, ports, &exchange)?;
        candidates.push(Candidate {
            method,
            source: source.clone(),
            time: exchange.time,
        });
        if best
            .as_ref()
            .is_none_or(|b| exchange.time < b.exchange.time)
        {
            best = Some(FactorExchange {
                factor: factor.clone(),
                method,
                source,
                exchange,
                candidates: Vec::new(),
            });
        }
    }
    let mut best = best.ok_or_else(|| ProductError::Construction(format!("{factor}: none")))?;
    best.candidates = candidates;
    Ok(best)
}

/// Replays a factor's schedule on the factor's graph.
fn check_factor(
    factor: &Factor,
    ports: Ports,
    exchange: &LocalExchange,
) -> Result<(), ProductError> {
    let graph = factor.network().build().map_err(ProductError::Network)?;
    let schedule = Schedule {
        network: Some(factor.network()),
        ports: Some(ports),
        collective: Collective::TotalExchange,
        sends: exchange.sends.clone(),
    };
    let report = replay(&schedule, &graph, &ReplayOptions { max_listed: 1 })
        .map_err(|e| ProductError::Factor(factor.clone(), e.to_string()))?;
    match report.violations().first() {
        None if txverify_core::verdict::judge(&report, None, None).valid() => Ok(()),
        first => Err(ProductError::Factor(
            factor.clone(),
            first.map_or("invalid".to_string(), |v| v.to_string()),
        )),
    }
}

/// `K_m`: single-port, node `x` sends `(x, x + t)` straight to `x + t` at step
/// `t` (every node sends one and receives one packet a step); all-port, every
/// packet at step 1.
fn complete_exchange(m: u32, ports: Ports) -> Vec<TimedSend> {
    let mut sends = Vec::new();
    for t in 1..m {
        for x in 0..m {
            let y = (x + t) % m;
            let step = if ports == Ports::All { 1 } else { t };
            sends.push(TimedSend {
                step,
                from: x,
                to: y,
                source: x,
                destination: y,
            });
        }
    }
    sends
}

/// `R_m` single-port: the FIFO algorithm on the cyclic group `C_m` with links
/// `a, a⁻¹`, whose elements the action numbers `0 … m−1` along the ring.
fn ring_fifo(m: u32) -> Result<Vec<TimedSend>, ProductError> {
    let action: Vec<u32> = (0..m)
        .flat_map(|e| [(e + 1) % m, (e + m - 1) % m])
        .collect();
    let group = FiniteGroup::from_action(vec!["a".into()], action)
        .ok_or_else(|| ProductError::Construction(format!("the cyclic group of order {m}")))?;
    let a = GenLetter {
        generator: 0,
        inverse: false,
    };
    let links = vec![(a, "a".to_string()), (a.inverted(), "A".to_string())];
    let instance = Instance::new(group, links, MessageSpec::Total, Some(1));
    fifo_sends(&instance).map_err(|e| fifo_failed(format!("ring {m}"), e))
}

/// A Cayley family single-port: the FIFO algorithm on the family's group and
/// links (those `txverify net` writes), whose element numbers are the nodes of
/// its schedule network.
fn cayley_fifo(family: CayleyFamily, size: u32) -> Result<Vec<TimedSend>, ProductError> {
    let name = family.name();
    let failed = |what: String| ProductError::Construction(format!("{name} {size}: {what}"));
    let cayley = family.group(size).map_err(|e| failed(e.to_string()))?;
    let instance = Instance::new(cayley.group, cayley.links, MessageSpec::Total, None);
    fifo_sends(&instance).map_err(|e| fifo_failed(format!("{name} {size}"), e))
}

/// A factor's FIFO run that failed: over its size limit, the factor is refused
/// (bad input); any other failure is a bug in the construction.
fn fifo_failed(factor: String, error: FifoError) -> ProductError {
    let message = format!("{factor}: FIFO: {error}");
    match error {
        FifoError::TooLarge { .. } => ProductError::FactorOverLimit(message),
        _ => ProductError::Construction(message),
    }
}

/// The FIFO algorithm's sends on an instance's Cayley graph.
fn fifo_sends(instance: &Instance) -> Result<Vec<TimedSend>, FifoError> {
    let run = Routing::shortest(instance)
        .and_then(|routing| fifo::run(instance, &routing, &FifoOptions::default()))?;
    Ok(run
        .sends
        .iter()
        .map(|s| {
            let (step, from, to, source, destination) = s.record();
            TimedSend {
                step: step as u32,
                from,
                to,
                source,
                destination,
            }
        })
        .collect())
}

/// `R_m` all-port: the ring table of the tabular method (`gen ring m`),
/// checked by the kernel, played out on the ring.
fn ring_table(m: u32) -> Result<Vec<TimedSend>, ProductError> {
    let failed = |what: String| ProductError::Construction(format!("ring table {m}: {what}"));
    let text = construct::generate(TableFamily::Ring, m as usize, GenOptions::default())
        .map_err(|e| failed(e.to_string()))?;
    let loaded = load(&text, &LoadOptions::default()).map_err(|e| failed(e.to_string()))?;
    let instance = &loaded.instance;
    if kernel::check(instance, &loaded.table, &[]).verdict() == Verdict::Invalid {
        return Err(failed("the kernel rejects it".into()));
    }
    let (_, embedding) = physical_network(instance, loaded.network.as_ref());
    let embedding = embedding.ok_or_else(|| failed("no ring embedding".into()))?;
    let prepared = simulation_words(instance, &loaded.table).map_err(|e| failed(e.to_string()))?;
    let schedule = table_schedule(&prepared.input(instance, &embedding), instance.ports())
        .map_err(|e| failed(e.to_string()))?;
    if schedule.network != Some(NetworkName::Ring(m)) {
        return Err(failed("its network is not the ring".into()));
    }
    Ok(schedule.sends)
}

/// A total exchange on any small graph, greedily: every step, each waiting
/// packet may move one hop closer to its destination if the link direction is
/// free and both ends have a port left; packets are offered in priority order.
///
/// All-port: farthest from its destination first, over any free closer
/// neighbour. Under K ports a node's ports are the bottleneck, so a packet
/// follows one fixed shortest route (the lowest-numbered closer neighbour) and
/// the packets at the nodes with the most sends still to make go first; on a
/// linear array this meets the node-load bound [`linear_single_port_bound`].
/// At least one packet moves a step, so the loop ends.
pub fn greedy_exchange(graph: &Graph, ports: Ports) -> Vec<TimedSend> {
    let n = graph.nodes();
    let Some(dist) = graph.all_distances(usize::MAX) else {
        return Vec::new();
    };
    let d = |x: u32, y: u32| dist[x as usize * n + y as usize];
    let next_hop = |at: u32, to: u32| {
        graph
            .neighbours(at)
            .iter()
            .copied()
            .find(|&y| d(y, to) + 1 == d(at, to))
    };
    let cap = match ports {
        Ports::All => u32::MAX,
        Ports::Limit(k) => k,
    };
    // (source, destination, where it is now)
    let mut waiting: Vec<(u32, u32, u32)> = (0..n as u32)
        .flat_map(|s| {
            (0..n as u32)
                .filter(move |&t| t != s)
                .map(move |t| (s, t, s))
        })
        .collect();
    // Sends each node still has to make along the fixed routes (K ports only).
    let mut load = vec![0u64; n];
    if cap != u32::MAX {
        for &(_, to, mut at) in &waiting {
            while let Some(y) = (at != to).then(|| next_hop(at, to)).flatten() {
                load[at as usize] += 1;
                at = y;
            }
        }
    }
    let mut sends = Vec::new();
    let mut link_used = vec![false; graph.directed_links()];
    let (mut sent, mut received) = (vec![0u32; n], vec![0u32; n]);
    let mut step = 0;
    while !waiting.is_empty() {
        step += 1;
        waiting.sort_by_key(|&(s, t, at)| {
            let urgency = if cap == u32::MAX {
                0
            } else {
                load[at as usize]
            };
            (std::cmp::Reverse((urgency, d(at, t))), s, t)
        });
        link_used.iter_mut().for_each(|u| *u = false);
        sent.iter_mut().for_each(|c| *c = 0);
        received.iter_mut().for_each(|c| *c = 0);
        for packet in waiting.iter_mut() {
            let (source, destination, at) = *packet;
            if sent[at as usize] >= cap {
                continue;
            }
            let usable = |y: u32| {
                d(y, destination) + 1 == d(at, destination)
                    && received[y as usize] < cap
                    && graph.link(at, y).is_some_and(|l| !link_used[l as usize])
            };
            let hop = if cap == u32::MAX {
                graph.neighbours(at).iter().copied().find(|&y| usable(y))
            } else {
                next_hop(at, destination).filter(|&y| usable(y))
            };
            if let Some(y) = hop {
                if let Some(l) = graph.link(at, y) {
                    link_used[l as usize] = true;
                }
                sent[at as usize] += 1;
                received[y as usize] += 1;
                load[at as usize] = load[at as usize].saturating_sub(1);
                sends.push(TimedSend {
                    step,
                    from: at,
                    to: y,
                    source,
                    destination,
                });
                packet.2 = y;
            }
        }
        waiting.retain(|&(_, t, at)| at != t);
    }
    sends
}

/// The single-port lower bound of the linear array `L_m`: node `i` (0-based)
/// sends its own `m − 1` packets and forwards the `2·i·(m − 1 − i)` packets
/// between the nodes on its two sides (routes on a path are unique), one send
/// a step, so `T ≥ m − 1 + 2·⌊(m−1)/2⌋·⌈(m−1)/2⌉ = m − 1 + ⌊(m−1)²/2⌋`.
pub fn linear_single_port_bound(m: u32) -> u64 {
    let m = u64::from(m);
    if m < 2 {
        return 0;
    }
    m - 1 + (m - 1) * (m - 1) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_factor_schedule_replays() {
        for factor in [
            Factor::Ring(2),
            Factor::Ring(3),
            Factor::Ring(6),
            Factor::Ring(7),
            Factor::Linear(1),
            Factor::Linear(4),
            Factor::Linear(5),
            Factor::Complete(4),
            Factor::Cayley {
                family: CayleyFamily::Star,
                size: 3,
                nodes: 6,
            },
        ] {
            for ports in [Ports::Limit(1), Ports::All] {
                let made = factor_exchange(&factor, ports).unwrap();
                assert_eq!(made.exchange.nodes, factor.nodes());
            }
        }
    }

    #[test]
    fn greedy_linear_arrays_meet_their_bounds() {
        for m in 2..=16u32 {
            let path = Factor::Linear(m);
            let single = factor_exchange(&path, Ports::Limit(1)).unwrap();
            assert_eq!(
                u64::from(single.exchange.time),
                linear_single_port_bound(m),
                "single-port L{m}"
            );
            // All-port: the middle cut, ⌊m/2⌋·⌈m/2⌉ packets over one link direction.
            let all = factor_exchange(&path, Ports::All).unwrap();
            assert_eq!(
                u64::from(all.exchange.time),
                u64::from(m / 2) * u64::from(m - m / 2),
                "all-port L{m}"
            );
        }
    }

    #[test]
    fn the_node_load_bound_counts_forwarded_packets() {
        // L5: the middle node sends its 4 packets and forwards 2·2·2 = 8.
        assert_eq!(linear_single_port_bound(5), 12);
        assert_eq!(linear_single_port_bound(4), 7);
        assert_eq!(linear_single_port_bound(2), 1);
    }

    #[test]
    fn single_port_complete_graph_takes_m_minus_one_steps() {
        let made = factor_exchange(&Factor::Complete(5), Ports::Limit(1)).unwrap();
        assert_eq!(made.exchange.time, 4);
        assert_eq!(made.exchange.sends.len(), 20);
    }
}
