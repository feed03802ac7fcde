//! The bounds of the collectives on a fabric (link capacities, switch
//! limits, forward-only nodes): only the arguments that stay sound there.
//!
//! The GPUs are the nodes that are not forward-only; g counts them. Every
//! bound below counts GPUs only (a switch has no data and needs none) and
//! every link at its capacity:
//!
//! - distances: a packet moves one hop a step, so the largest distance
//!   between two GPUs (the root's eccentricity among GPUs) still holds;
//! - holders growth: a holder sends at most one useful copy a link a step,
//!   so the holders of an item reach g GPUs in ⌈log_{1+k} g⌉ steps at least;
//! - throughput ([`crate::bounds::throughput`]): the node set S with a GPU
//!   whose data over the capacity crossing it is largest, stated with S;
//! - fill ([`crate::bounds::fill`]): the same count step by step, a link
//!   into S idle until its tail can hold something S needs (a switch starts
//!   empty), stated with its set (every collective but scatter and gather);
//! - entry and spread ([`crate::bounds::entry_spread`]): the last item to
//!   first enter S does so at few nodes of S, and still has to reach every
//!   GPU of S from there (allgather and broadcast), stated with its set;
//! - saturated switches ([`crate::bounds::saturated`]): an allgather whose
//!   GPUs each hang on one switch that does not copy, every GPU tight at
//!   the fill bound, cannot cross between switches in that many steps;
//! - broadcast and reduce: C chunks over the least capacity between the root
//!   and a set with a GPU; scatter and gather: g − 1 packets over the root's
//!   links' capacities;
//! - sends: C copies a GPU and item (allgather), the contributions that
//!   leave their GPU (reductions), the distances between GPUs (personalised).
//!
//! Left out on a fabric, because their proofs count every node a
//! participant or every link one packet a step: the cut-vertex bound, the
//! one-way gossip bound of allreduce, and for a total exchange the LP bound
//! (its weights are not weighted by capacity) and the K-port refinements.

use super::super::entry_spread::{self, ENTRY_SPREAD};
use super::super::fill::{self, FILL, FillCut};
use super::super::saturated;
use super::super::set::{BoundSet, counting_model, port_limit};
use super::super::throughput::{self, Crossing, ThroughputCut};
use super::{CollectiveBounds, Named, growth_steps};
use crate::network::Graph;
use crate::schedule::{Collective, Items, Ports};

/// Whether `graph` needs these bounds: some capacity other than 1, a switch
/// limit or a forward-only node (link times alone change no step bound).
pub fn is_fabric(graph: &Graph) -> bool {
    let f = graph.fabric();
    f.has_capacities() || !f.limits().is_empty() || f.has_forward_only()
}

/// The name of the throughput bound in every bound set of a fabric.
pub const THROUGHPUT: &str = "throughput";

/// The distances between GPUs: the largest, each GPU's largest, and the sum.
struct GpuDistances {
    diameter: u64,
    total: u64,
}

fn gpu_distances(graph: &Graph, gpus: &[u32]) -> GpuDistances {
    let (mut diameter, mut total) = (0u64, 0u64);
    for &x in gpus {
        let d = graph.distances_from(x);
        for &y in gpus {
            let e = u64::from(d[y as usize]);
            if e != u64::from(u32::MAX) {
                diameter = diameter.max(e);
                total += e;
            }
        }
    }
    GpuDistances { diameter, total }
}

/// The root's largest distance to a GPU and the sum of its distances to them.
fn root_reach(graph: &Graph, root: u32, gpus: &[u32], towards: bool) -> (u64, u64) {
    let d = if towards {
        graph.distances_to(root)
    } else {
        graph.distances_from(root)
    };
    let mut far = (0u64, 0u64);
    for &y in gpus {
        let e = u64::from(d[y as usize]);
        if e != u64::from(u32::MAX) {
            far = (far.0.max(e), far.1 + e);
        }
    }
    far
}

/// The bounds of `collective` on the fabric `graph` under `ports`, with the
/// set that proves the throughput bound when it is one.
pub fn fabric_collective(graph: &Graph, collective: Collective, ports: Ports) -> CollectiveBounds {
    let mut model = counting_model(ports);
    if collective.items() == Items::Sums {
        model = model.with_combining();
    }
    let gpus = throughput::gpus(graph);
    let g = gpus.len() as u64;
    let c = u64::from(collective.chunks());
    let k = port_limit(ports);
    let degree = |x: u32| {
        let d = graph.degree(x) as u64;
        k.map_or(d, |k| k.min(d)).max(1)
    };
    let widest = (0..graph.nodes() as u32).map(degree).max().unwrap_or(1);
    let growth = growth_steps(g, widest);
    let sized = throughput::check_size(graph).is_ok();
    let distances = || gpu_distances(graph, &gpus);
    let mut proof: Option<ThroughputCut> = None;
    let mut throughput_of = |cut: Option<ThroughputCut>, items: u64| -> Named {
        let Some(cut) = cut.filter(|_| sized) else {
            return Vec::new();
        };
        let steps = (items * cut.data).div_ceil(cut.capacity.max(1));
        proof = Some(cut);
        vec![(steps, THROUGHPUT.to_string())]
    };
    let (time, sends): (Named, Named) = match collective {
        Collective::Allgather { .. } | Collective::ReduceScatter { .. } => {
            let crossing = match collective {
                Collective::Allgather { .. } => Crossing::Into,
                _ => Crossing::OutOf,
            };
            let mut time = vec![
                (distances().diameter, "GPU diameter".to_string()),
                (growth, "holders growth".into()),
            ];
            time.extend(throughput_of(
                sized
                    .then(|| throughput::densest(graph, crossing))
                    .flatten(),
                c,
            ));
            let name = if crossing == Crossing::Into {
                "copies"
            } else {
                "contributions"
            };
            (time, vec![(c * g * g.saturating_sub(1), name.into())])
        }
        Collective::Allreduce { .. } => {
            let mut time = vec![
                (distances().diameter, "GPU diameter".to_string()),
                (growth, "holders growth".into()),
            ];
            time.extend(throughput_of(
                sized.then(|| throughput::narrowest(graph)).flatten(),
                c,
            ));
            // Each GPU's contribution to each of the g·C items leaves it.
            let contributions = if g < 2 { 0 } else { c * g * g };
            (time, vec![(contributions, "contributions".into())])
        }
        Collective::Broadcast { root, .. } | Collective::Reduce { root, .. } => {
            let broadcast = matches!(collective, Collective::Broadcast { .. });
            let (ecc, _) = root_reach(graph, root, &gpus, !broadcast);
            let crossing = if broadcast {
                Crossing::Into
            } else {
                Crossing::OutOf
            };
            let mut time = vec![
                (ecc, "eccentricity of the root".to_string()),
                (growth, "holders growth".into()),
            ];
            time.extend(throughput_of(
                sized
                    .then(|| throughput::rooted(graph, root, crossing))
                    .flatten(),
                c,
            ));
            let others = gpus.iter().filter(|&&x| x != root).count() as u64;
            let name = if broadcast { "copies" } else { "contributions" };
            (time, vec![(c * others, name.into())])
        }
        Collective::Scatter(root) | Collective::Gather(root) => {
            let gather = matches!(collective, Collective::Gather(_));
            let (ecc, status) = root_reach(graph, root, &gpus, gather);
            let links: u64 = graph
                .links_of(root)
                .map(|l| {
                    // The root's links out (scatter) or in (gather), at capacity.
                    let (_, y) = graph.endpoints(l);
                    let back = if gather { graph.link(y, root) } else { Some(l) };
                    back.map_or(0, |b| u64::from(graph.capacity(b)))
                })
                .sum();
            let others = gpus.iter().filter(|&&x| x != root).count() as u64;
            (
                vec![
                    (ecc, "eccentricity of the root".to_string()),
                    (others.div_ceil(links.max(1)), "root links".into()),
                ],
                vec![(status, "status of the root".into())],
            )
        }
        Collective::TotalExchange => {
            let time = super::super::total_exchange(graph, ports);
            return CollectiveBounds {
                time,
                transmissions: BoundSet::new(model, vec![(distances().total, "GPU status".into())]),
                throughput: None,
                fill: sized.then(|| total_exchange_fill(graph)).flatten(),
                entry_spread: None,
            };
        }
    };
    let mut time = time;
    let filled = sized
        .then(|| fill::best(graph, collective, proof.as_ref().map(|p| p.set.as_slice())))
        .flatten();
    if let Some(cut) = &filled {
        time.push((cut.steps, FILL.to_string()));
    }
    let spread = sized
        .then(|| entry_spread::best(graph, collective, proof.as_ref().map(|p| p.set.as_slice())))
        .flatten();
    if let Some(cut) = &spread {
        time.push((cut.steps, ENTRY_SPREAD.to_string()));
    }
    if let Some(steps) = saturated::allgather_bound(graph, collective) {
        time.push((steps, saturated::SATURATED_SWITCHES.to_string()));
    }
    CollectiveBounds {
        time: BoundSet::new(model, time),
        transmissions: BoundSet::new(model, sends),
        throughput: proof,
        fill: filled,
        entry_spread: spread,
    }
}

/// The fill bound of a total exchange, tried on the allgather's densest set
/// too.
fn total_exchange_fill(graph: &Graph) -> Option<FillCut> {
    let densest = throughput::densest(graph, Crossing::Into);
    fill::best(
        graph,
        Collective::TotalExchange,
        densest.as_ref().map(|d| d.set.as_slice()),
    )
}

/// The bounds of a total exchange on the fabric `graph`: the GPU diameter,
/// the hops of every GPU pair over the capacity of every link, and the
/// throughput bound (every GPU of S takes a packet from every GPU outside
/// it, so at least the allgather's data of one chunk enters S).
pub fn fabric_total_exchange(graph: &Graph, ports: Ports) -> BoundSet {
    let gpus = throughput::gpus(graph);
    let d = gpu_distances(graph, &gpus);
    let capacity: u64 = (0..graph.directed_links() as u32)
        .map(|l| u64::from(graph.capacity(l)))
        .sum();
    let mut bounds = vec![
        (d.diameter, "GPU diameter".to_string()),
        (d.total.div_ceil(capacity.max(1)), "link load".into()),
    ];
    if throughput::check_size(graph).is_ok()
        && let Some(cut) = throughput::densest(graph, Crossing::Into)
    {
        bounds.push((cut.steps(1), THROUGHPUT.into()));
    }
    if throughput::check_size(graph).is_ok()
        && let Some(cut) = total_exchange_fill(graph)
    {
        bounds.push((cut.steps, FILL.into()));
    }
    BoundSet::new(counting_model(ports), bounds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::collective;
    use crate::network::NetworkName;

    fn named(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    fn allgather(graph: &Graph, chunks: u32) -> CollectiveBounds {
        collective(graph, Collective::Allgather { chunks }, Ports::All)
    }

    #[test]
    fn the_doubled_dgx1_allgather_is_forestcoll_s_optimum() {
        // 7 blocks into one GPU over capacity 6: ⌈7C / 6⌉.
        let g = named("dgx1");
        for chunks in 1..=8u32 {
            let b = allgather(&g, chunks);
            assert_eq!(b.time.value(), (7 * u64::from(chunks)).div_ceil(6));
            let rs = collective(&g, Collective::ReduceScatter { chunks }, Ports::All);
            assert_eq!(rs.time.value(), b.time.value());
        }
        let b = allgather(&g, 2);
        assert_eq!(b.time.named(THROUGHPUT).unwrap().value(), 3);
        let proof = b.throughput.unwrap();
        assert_eq!((proof.data, proof.capacity), (7, 6));
    }

    #[test]
    fn a_switch_is_no_participant() {
        // nvswitch 8: 7 blocks into a GPU over its one link, 7 a chunk; the
        // switch needs no copies and sends none of its own. It starts empty,
        // so the GPU's one link in is idle at step 1: one step of fill.
        let g = named("nvswitch 8");
        let b = allgather(&g, 2);
        assert_eq!(b.time.named(THROUGHPUT).unwrap().value(), 14);
        assert_eq!(b.time.named(FILL).unwrap().value(), 15);
        assert_eq!(b.time.value(), 15);
        assert_eq!(b.transmissions.value(), 2 * 8 * 7);
        assert!(b.throughput.unwrap().set.iter().all(|&x| x != 8));
        assert_eq!(b.fill.unwrap().set.len(), 1);
        let ar = collective(&g, Collective::Allreduce { chunks: 1 }, Ports::All);
        assert_eq!(ar.time.named(THROUGHPUT).unwrap().value(), 8);
        assert_eq!(ar.time.value(), 9);
        // A total exchange among the 8 GPUs: 2 hops each over 16 links; a
        // GPU's 7 packets come from the switch, from step 2 on.
        let te = collective(&g, Collective::TotalExchange, Ports::All);
        assert_eq!(te.transmissions.value(), 8 * 7 * 2);
        assert_eq!(te.time.named("link load").unwrap().value(), 7);
        assert_eq!(te.time.value(), 8);
        assert_eq!(te.fill.unwrap().steps, 8);
    }

    #[test]
    fn the_hub_s_limits_and_the_cluster_s_nics_are_counted() {
        let hub = named("hub-and-spoke 8");
        assert_eq!(allgather(&hub, 3).time.value(), 21);
        let ar = collective(&hub, Collective::Allreduce { chunks: 1 }, Ports::All);
        assert_eq!(ar.time.named(THROUGHPUT).unwrap().value(), 8);
        let two = named("cluster 2 1 dgx1");
        for chunks in 1..=8u32 {
            let b = allgather(&two, chunks);
            assert_eq!(
                b.time.named(THROUGHPUT).unwrap().value(),
                8 * u64::from(chunks)
            );
            // The last item into a machine still spreads to its 8 GPUs.
            assert_eq!(b.time.value(), 8 * u64::from(chunks) + 2);
            assert_eq!(b.time.best().name(), ENTRY_SPREAD);
        }
        let b = collective(&named("dgx1"), Collective::broadcast(0), Ports::All);
        // Root 0's links carry 2 + 1 + 1 + 2 = 6, but a single GPU 5 takes in
        // 1 + 2 + 1 + 2 = 6 too: no cut below 6; a chunk needs ≥ 1 step, the
        // farthest GPU is 2 hops.
        assert_eq!(b.time.value(), 2);
    }

    #[test]
    fn capacity_one_networks_keep_their_bounds() {
        // Link times alone are no fabric for the bounds.
        let g = named("ring 8");
        assert!(!is_fabric(&g));
        let b = allgather(&g, 1);
        assert!(b.throughput.is_none());
        assert_eq!(b.time.value(), 4);
    }
}
