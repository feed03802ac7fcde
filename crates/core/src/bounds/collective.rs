//! Lower bounds on time and on sends of the collectives (broadcast, reduce,
//! allgather, reduce-scatter, allreduce, scatter, gather, total exchange) on
//! any graph, under K ports or all, with C chunks per block: counting
//! arguments over distances, degrees and node sets, not formulas of a paper
//! and not properties of any construction. Each is proved in
//! docs/collectives.md (section "Bounds"); in short, with k_x = min(K, deg x)
//! and k = max_x k_x:
//!
//! - A packet moves one hop a step, so a node at distance e is served no
//!   earlier than step e (the eccentricity of the root, or the diameter); a
//!   combination needs every contribution, which travels as far.
//! - Pipeline: the root sends (broadcast) or receives (reduce) at most k_R
//!   packets a step, C distinct chunks in all, so the last chunk to leave (the
//!   first to be complete) does so no earlier than step ⌈C / k_R⌉ (no later
//!   than T − ⌈C / k_R⌉ + 1), and still has e − 1 hops to make (behind it):
//!   ⌈C / k_R⌉ + e − 1.
//! - Growth: a packet's holders (the nodes a contribution has reached, or
//!   the nodes a result depends on) grow at most (1 + k)-fold a step:
//!   ⌈log_{1+k} N⌉ steps (plus ⌈C / k_R⌉ − 1 behind the root's last chunk).
//! - Cuts: every item that must enter a node set S crosses into S at least
//!   once, at most cap(S) a step ([`cuts`]): allgather ⌈C·|V∖S| / cap(S)⌉
//!   (a node alone: its intake), reduce-scatter the same with S's complement
//!   (the blocks outside S need S's contributions: ⌈C·|S| / cap(V∖S)⌉),
//!   allreduce ⌈N·C / cap(S)⌉ (every item needs the contributions from
//!   outside S), broadcast ⌈C / cap(S)⌉ for S without the root, reduce the
//!   same for S with it.
//! - Cut vertex ([`cut_vertex`]): a node x is the only way into and out of
//!   each component of G − x, so it sends (or receives) every item that must
//!   enter (or leave) one, at most min(K, deg x) a step.
//! - Gossip: an allreduce of one item makes at least 2(N − 1) sends (the
//!   one-way gossip bound); N·C items of them, at most Σ_x k_x sends a step.
//! - Scatter and gather: the root's eccentricity and links; total exchange:
//!   [`super::total_exchange`].
//! - Sends: a copy per node and item; a combination's every contribution
//!   leaves its node at least once; a personalised packet its distance.
//!
//! The model of each set is K-port (or all-port) with copies and buffering,
//! and with combining for reduce, reduce-scatter and allreduce: no argument
//! counts on a packet being unique, only on the items and contributions it
//! can carry (one item per packet).

pub mod cut_vertex;
pub mod cuts;
pub mod fabric;

use super::distance::{distance_bound, reach};
use super::set::{BoundSet, counting_model, port_limit};
use crate::network::Graph;
use crate::schedule::{Collective, Items, Ports};

/// Bounds as `(value, name)`, before the model is stated.
type Named = Vec<(u64, String)>;

/// The bounds on time and on sends of one collective.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CollectiveBounds {
    /// No schedule of the collective under the model finishes sooner.
    pub time: BoundSet,
    /// No schedule of the collective under the model makes fewer sends.
    pub transmissions: BoundSet,
    /// On a fabric, the node set that proves the throughput bound
    /// ([`fabric::THROUGHPUT`]; absent on other networks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub throughput: Option<super::throughput::ThroughputCut>,
    /// On a fabric, the node set that proves the fill bound
    /// ([`super::fill::FILL`]; absent on other networks).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fill: Option<super::fill::FillCut>,
    /// On a fabric, the node set that proves the entry-and-spread bound
    /// ([`super::entry_spread::ENTRY_SPREAD`]; allgather and broadcast only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entry_spread: Option<super::entry_spread::EntrySpreadCut>,
}

/// The largest cut bound: `need(S)` items must enter S, for every set tried.
fn cut_bound(graph: &Graph, ports: Ports, need: impl Fn(&[bool]) -> u64) -> u64 {
    let mut best = 0;
    cuts::each_set(graph, |inside| {
        let need = need(inside);
        if need > 0 {
            let cap = cuts::entering(graph, inside, port_limit(ports));
            // A set no packet can enter that needs one: no schedule exists
            // (never on a connected graph); counted as no bound.
            if cap > 0 {
                best = best.max(need.div_ceil(cap));
            }
        }
    });
    best
}

/// The bounds of `collective` on the connected `graph` under `ports` (on a
/// fabric, those of [`fabric::fabric_collective`]).
pub fn collective(graph: &Graph, collective: Collective, ports: Ports) -> CollectiveBounds {
    if fabric::is_fabric(graph) {
        return fabric::fabric_collective(graph, collective, ports);
    }
    let mut model = counting_model(ports);
    if collective.items() == Items::Sums {
        model = model.with_combining();
    }
    let n = graph.nodes() as u64;
    let c = u64::from(collective.chunks());
    let k = port_limit(ports);
    let degree = |x: u32| {
        let d = graph.degree(x) as u64;
        k.map_or(d, |k| k.min(d)).max(1)
    };
    let nodes = 0..n as u32;
    let widest = nodes.clone().map(degree).max().unwrap_or(1);
    let least = nodes.clone().map(degree).min().unwrap_or(1);
    let step_sends: u64 = nodes.clone().map(degree).sum();
    let growth = growth_steps(n, widest);
    let sums = || graph.distance_sums();
    let outside = |inside: &[bool]| inside.iter().filter(|&&b| !b).count() as u64;
    let relay = (
        cut_vertex::cut_vertex_bound(graph, collective, ports),
        "cut vertex".to_string(),
    );
    let (time, sends): (Named, Named) = match collective {
        Collective::Broadcast { root, .. } | Collective::Reduce { root, .. } => {
            // On one node nothing is sent and nothing waits behind the root.
            let behind = if n < 2 {
                0
            } else {
                c.div_ceil(degree(root)) - 1
            };
            let ecc = reach(graph, root).eccentricity;
            let broadcast = matches!(collective, Collective::Broadcast { .. });
            // Broadcast: sets without the root receive every chunk; reduce:
            // sets with the root receive every chunk's outside contributions.
            let cut = cut_bound(graph, ports, |inside| {
                if inside[root as usize] != broadcast {
                    c
                } else {
                    0
                }
            });
            let mut time = vec![
                (ecc, "eccentricity of the root".into()),
                (growth + behind, "holders growth".into()),
                (cut, "cut".into()),
                relay,
            ];
            if c > 1 {
                time.push((ecc + behind, "pipeline".into()));
            }
            let name = if broadcast { "copies" } else { "contributions" };
            (time, vec![(c * n.saturating_sub(1), name.into())])
        }
        Collective::Scatter(root) | Collective::Gather(root) => {
            let r = reach(graph, root);
            (
                vec![
                    (r.eccentricity, "eccentricity of the root".into()),
                    (
                        distance_bound(n.saturating_sub(1), degree(root)),
                        "root links".into(),
                    ),
                ],
                vec![(r.status, "status of the root".into())],
            )
        }
        Collective::Allgather { .. } => (
            vec![
                (sums().diameter, "diameter".into()),
                (growth, "holders growth".into()),
                (
                    distance_bound(c * n.saturating_sub(1), least),
                    "intake".into(),
                ),
                (cut_bound(graph, ports, |s| c * outside(s)), "cut".into()),
                relay,
            ],
            vec![(c * n * n.saturating_sub(1), "copies".into())],
        ),
        Collective::ReduceScatter { .. } => (
            vec![
                (sums().diameter, "diameter".into()),
                (growth, "holders growth".into()),
                (
                    distance_bound(c * n.saturating_sub(1), least),
                    "outflow".into(),
                ),
                // Items of the blocks in S (its `inside` count) need the
                // contributions of V ∖ S: they enter S.
                (
                    cut_bound(graph, ports, |s| c * (n - outside(s))),
                    "cut".into(),
                ),
                relay,
            ],
            vec![(c * n * n.saturating_sub(1), "contributions".into())],
        ),
        Collective::Allreduce { .. } => {
            let gossip = 2 * c * n * n.saturating_sub(1);
            (
                vec![
                    (sums().diameter, "diameter".into()),
                    (growth, "holders growth".into()),
                    (cut_bound(graph, ports, |_| c * n), "cut".into()),
                    (distance_bound(gossip, step_sends), "gossip".into()),
                    relay,
                ],
                vec![(gossip, "gossip".into())],
            )
        }
        Collective::TotalExchange => {
            let time = super::total_exchange(graph, ports);
            return CollectiveBounds {
                time,
                transmissions: BoundSet::new(model, vec![(sums().total, "total status".into())]),
                throughput: None,
                fill: None,
                entry_spread: None,
            };
        }
    };
    CollectiveBounds {
        time: BoundSet::new(model, time),
        transmissions: BoundSet::new(model, sends),
        throughput: None,
        fill: None,
        entry_spread: None,
    }
}

/// ⌈log_{1 + k} n⌉: the steps for the holders of a packet to reach n nodes
/// when each holder sends at most k copies a step.
fn growth_steps(n: u64, k: u64) -> u64 {
    let (mut holders, mut steps) = (1u64, 0u64);
    while holders < n {
        holders = holders.saturating_mul(k + 1);
        steps += 1;
    }
    steps
}

/// The lower bound on time when every node uses all its links but a link
/// carries one packet a step in one direction only (half duplex): the
/// all-port bounds still hold, and a multinode broadcast's N(N − 1) copies and
/// a total exchange's Σ d hops are made at most one per undirected link a
/// step. A figure beside a verdict, never compared by one: the replay has no
/// half-duplex model. On a fabric, the all-port bound only (the counts
/// below count every node and one packet a link).
pub fn half_duplex_time(graph: &Graph, collective: Collective) -> u64 {
    let all_port = self::collective(graph, collective, Ports::All).time.value();
    if fabric::is_fabric(graph) {
        return all_port;
    }
    let links = (graph.directed_links() as u64 / 2).max(1);
    let n = graph.nodes() as u64;
    match collective {
        Collective::Allgather { chunks } => {
            let copies = u64::from(chunks) * n * n.saturating_sub(1);
            all_port.max(distance_bound(copies, links))
        }
        Collective::TotalExchange => {
            all_port.max(distance_bound(graph.distance_sums().total, links))
        }
        _ => all_port,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn bounds_on_a_graph_that_is_not_vertex_transitive_use_every_node() {
        // mesh 2 4: node c1 + 2·c2; distance |Δc1| + |Δc2|.
        let g = graph("mesh 2 4");
        let coords = |x: u32| ((x % 2) as i64, (x / 2) as i64);
        let dist = |x: u32, y: u32| {
            let ((a, b), (c, e)) = (coords(x), coords(y));
            ((a - c).abs() + (b - e).abs()) as u64
        };
        let total: u64 = (0..8).flat_map(|x| (0..8).map(move |y| dist(x, y))).sum();
        assert_eq!(total, 112);
        let b = collective(&g, Collective::TotalExchange, Ports::All);
        assert_eq!(b.transmissions.value(), total);
        // ⌈112 / 20⌉ = 6 over links; the middle cut 4 · 4 / 2 = 8.
        assert_eq!(b.time.value(), 8);
        let m = collective(&g, Collective::ALLGATHER, Ports::All);
        assert_eq!((m.time.value(), m.transmissions.value()), (4, 56));
        let s = collective(&g, Collective::Scatter(3), Ports::All);
        let from_3: u64 = (0..8).map(|y| dist(3, y)).sum();
        assert_eq!((s.time.value(), s.transmissions.value()), (3, from_3));
        // Single port: a broadcast's holders double (3 steps) but node 7 is
        // 4 away; every node of an mnb takes 7 packets one a step.
        let one = Ports::Limit(1);
        assert_eq!(collective(&g, Collective::ALLGATHER, one).time.value(), 7);
        assert_eq!(
            collective(&g, Collective::broadcast(0), one).time.value(),
            4
        );
        assert_eq!(half_duplex_time(&g, Collective::ALLGATHER), 6);
    }

    /// The cut bound of every collective against a brute force written
    /// here: every node set, what must enter it, and what can enter it a step
    /// counted link by link.
    #[test]
    fn cut_bounds_are_the_best_over_every_node_set() {
        for name in [
            "ring 5",
            "linear 4",
            "mesh 2 3",
            "complete 4",
            "hypercube 3",
        ] {
            let g = graph(name);
            let n = g.nodes() as u32;
            for ports in [Ports::All, Ports::Limit(1), Ports::Limit(2)] {
                for chunks in [1u32, 3] {
                    let cases = [
                        Collective::Allgather { chunks },
                        Collective::ReduceScatter { chunks },
                        Collective::Allreduce { chunks },
                        Collective::Broadcast { root: 1, chunks },
                        Collective::Reduce {
                            root: n - 1,
                            chunks,
                        },
                    ];
                    for c in cases {
                        let mut best = 0u64;
                        for mask in 1u32..(1 << n) - 1 {
                            let inside = |x: u32| mask >> x & 1 == 1;
                            let size = u64::from(mask.count_ones());
                            let cu = u64::from(chunks);
                            let need = match c {
                                Collective::Allgather { .. } => cu * (u64::from(n) - size),
                                Collective::ReduceScatter { .. } => cu * size,
                                Collective::Allreduce { .. } => cu * u64::from(n),
                                Collective::Broadcast { root, .. } if !inside(root) => cu,
                                Collective::Reduce { root, .. } if inside(root) => cu,
                                _ => 0,
                            };
                            // Links y → x entering the set, limited per receiver and
                            // per sender by the ports.
                            let limit = |e: u64| match ports {
                                Ports::All => e,
                                Ports::Limit(k) => e.min(u64::from(k)),
                            };
                            let crossing = |x: u32| {
                                (0..n)
                                    .filter(|&y| inside(y) != inside(x) && g.adjacent(x, y))
                                    .count() as u64
                            };
                            let receive: u64 = (0..n)
                                .filter(|&x| inside(x))
                                .map(|x| limit(crossing(x)))
                                .sum();
                            let send: u64 = (0..n)
                                .filter(|&y| !inside(y))
                                .map(|y| limit(crossing(y)))
                                .sum();
                            let cap = receive.min(send);
                            if need > 0 {
                                best = best.max(need.div_ceil(cap));
                            }
                        }
                        let b = collective(&g, c, ports);
                        assert_eq!(
                            b.time.named("cut").unwrap().value(),
                            best,
                            "{name}, {c} in {chunks} chunks, ports {ports}"
                        );
                        assert!(b.time.value() >= best);
                    }
                }
            }
        }
    }

    #[test]
    fn the_collectives_bounds_on_small_networks() {
        // Allgather on an 8-ring: 7 items in over 2 links; a half (4 nodes)
        // takes 4 items over 2 links: 2; the diameter 4 is the best.
        let ring = graph("ring 8");
        let ag = collective(&ring, Collective::ALLGATHER, Ports::All);
        assert_eq!(ag.time.value(), 4);
        assert_eq!(ag.transmissions.value(), 56);
        // Reduce-scatter has the same figures by the time-reversed arguments.
        let rs = collective(&ring, Collective::ReduceScatter { chunks: 1 }, Ports::All);
        assert_eq!(rs.time.value(), 4);
        // Allreduce on the 8-ring: the gossip count 2·8·7 over 16 sends a
        // step is 7; the cut of one node, 8 items over 2 links, 4.
        let ar = collective(&ring, Collective::Allreduce { chunks: 1 }, Ports::All);
        assert_eq!(ar.time.named("gossip").unwrap().value(), 7);
        assert_eq!(ar.time.value(), 7);
        assert!(ar.time.model().combining());
        assert!(!ag.time.model().combining());
        // Hypercubes: the allgather intake ⌈(2^d − 1)/d⌉ (4-cube 4, 5-cube 7,
        // 6-cube 11).
        for (d, t) in [(4, 4), (5, 7), (6, 11)] {
            let g = graph(&format!("hypercube {d}"));
            assert_eq!(
                collective(&g, Collective::ALLGATHER, Ports::All)
                    .time
                    .value(),
                t
            );
        }
        // One node: nothing to send, whatever the chunks.
        let one = graph("linear 1");
        for c in [
            Collective::Broadcast { root: 0, chunks: 4 },
            Collective::Reduce { root: 0, chunks: 4 },
            Collective::Allreduce { chunks: 4 },
        ] {
            assert_eq!(collective(&one, c, Ports::Limit(1)).time.value(), 0);
        }
    }

    #[test]
    fn the_hypercube_figures_of_the_seed_paper() {
        // All-port d-cube: broadcast d, scatter ⌈(N − 1) / d⌉ or d, mnb and
        // exchange ⌈(N − 1) / d⌉ and N/2.
        for d in 1..=6u32 {
            let g = graph(&format!("hypercube {d}"));
            let n = 1u64 << d;
            let d64 = u64::from(d);
            let time = |c| collective(&g, c, Ports::All).time.value();
            assert_eq!(time(Collective::broadcast(0)), d64);
            assert_eq!(time(Collective::Scatter(0)), d64.max((n - 1).div_ceil(d64)));
            assert_eq!(time(Collective::TotalExchange), (n / 2).max(d64));
            let single = |c| collective(&g, c, Ports::Limit(1)).time.value();
            assert_eq!(single(Collective::broadcast(0)), d64);
            assert_eq!(single(Collective::ALLGATHER), n - 1);
        }
    }
}
