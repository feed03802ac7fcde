use super::*;
use crate::bounds::fabric_intake::allgather_intake;
use crate::network::{FabricSpec, NetworkName, SwitchLimit};
use proptest::prelude::*;

fn named(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

/// `a/b > c/d` as fractions.
fn ratio(cut: &ThroughputCut) -> (u64, u64) {
    (cut.data, cut.capacity)
}

fn same_ratio(a: &ThroughputCut, b: &ThroughputCut) -> bool {
    a.data * b.capacity == b.data * a.capacity
}

/// Every stated set proves its figures: its data and capacity recomputed.
fn proves(graph: &Graph, cut: &ThroughputCut, crossing: Crossing) {
    let inside = members(graph.nodes(), &cut.set);
    assert_eq!(capacity(graph, &inside, crossing), cut.capacity);
    let outside = gpus(graph).iter().filter(|&&x| !inside[x as usize]).count() as u64;
    assert_eq!(outside, cut.data);
}

#[test]
fn the_doubled_dgx1_is_seven_sixths_a_chunk() {
    let g = named("dgx1");
    for crossing in [Crossing::Into, Crossing::OutOf] {
        let cut = densest(&g, crossing).unwrap();
        assert_eq!(ratio(&cut), (7, 6));
        proves(&g, &cut, crossing);
        assert!(same_ratio(&cut, &exhaustive(&g, crossing).unwrap()));
    }
    let cut = densest(&g, Crossing::Into).unwrap();
    // The existing exhaustive intake agrees: 3 steps for 2 chunks.
    let intake = allgather_intake(&g, 2).unwrap();
    assert_eq!((cut.steps(2), intake.steps), (3, 3));
    assert_eq!(
        (1..=8).map(|c| cut.steps(c)).collect::<Vec<_>>(),
        vec![2, 3, 4, 5, 6, 7, 9, 10]
    );
}

#[test]
fn a_switch_and_a_hub_are_seven_a_chunk() {
    for name in ["nvswitch 8", "hub-and-spoke 8"] {
        let g = named(name);
        let cut = densest(&g, Crossing::Into).unwrap();
        assert_eq!(cut.data, 7 * cut.capacity, "{name}");
        proves(&g, &cut, Crossing::Into);
        assert!(same_ratio(&cut, &exhaustive(&g, Crossing::Into).unwrap()));
        assert_eq!(cut.steps(3), 21);
        // The set has a GPU; the switch is no GPU.
        assert!(cut.set.iter().any(|&x| !g.is_forward_only(x)));
    }
    // The hub's out and in limits: one send a step each way per GPU, which
    // the links alone (7 into each GPU) would not say.
    let hub = named("hub-and-spoke 8");
    let plain = named("complete 8");
    assert_eq!(
        ratio(&densest(&plain, Crossing::Into).unwrap()),
        (7, 7),
        "without limits"
    );
    let pair = narrowest(&hub).unwrap();
    assert_eq!((pair.data, pair.capacity), (8, 1));
}

#[test]
fn two_dgx1_machines_meet_at_their_nics() {
    let g = named("cluster 2 1 dgx1");
    let cut = densest(&g, Crossing::Into).unwrap();
    proves(&g, &cut, Crossing::Into);
    assert!(same_ratio(&cut, &exhaustive(&g, Crossing::Into).unwrap()));
    // One machine takes in the other's 8 GPUs over its NIC's one send a step.
    assert_eq!(ratio(&cut), (8, 1));
    let wide = named("cluster 2 8 dgx1");
    let cut = densest(&wide, Crossing::Into).unwrap();
    assert!(same_ratio(
        &cut,
        &exhaustive(&wide, Crossing::Into).unwrap()
    ));
}

#[test]
fn capacity_one_networks_give_the_plain_cut() {
    // Allgather on a ring of 8: a node takes 7 blocks over 2 links.
    let cut = densest(&named("ring 8"), Crossing::Into).unwrap();
    assert_eq!(ratio(&cut), (7, 2));
    let cut = densest(&named("linear 4"), Crossing::Into).unwrap();
    assert_eq!(ratio(&cut), (3, 1));
    assert!(densest(&named("linear 1"), Crossing::Into).is_none());
}

/// A connected fabric on `n` nodes from the drawn numbers: a path, then the
/// extra links, capacities, forward-only nodes and limits.
fn fabric(
    n: u32,
    extra: &[(u32, u32)],
    caps: &[u64],
    switches: &[u32],
    limits: &[(u32, u32, u32)],
) -> Graph {
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    let mut join = |a: u32, b: u32| {
        if a != b && !lists[a as usize].contains(&b) {
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        }
    };
    for x in 1..n {
        join(x - 1, x);
    }
    for &(a, b) in extra {
        join(a % n, b % n);
    }
    for l in &mut lists {
        l.sort_unstable();
    }
    let g = Graph::from_adjacency(lists).unwrap();
    let mut spec = FabricSpec::default();
    for l in 0..g.directed_links() as u32 {
        let (a, b) = g.endpoints(l);
        spec.capacities.push((a, b, caps[l as usize % caps.len()]));
    }
    spec.forward_only = switches
        .iter()
        .map(|&x| x % n)
        .filter(|&x| x != 0)
        .collect();
    for (i, &(s, d, b)) in limits.iter().enumerate() {
        let pick = |mask: u32| (0..n).filter(|&x| mask >> x & 1 == 1).collect::<Vec<_>>();
        spec.limits.push(SwitchLimit {
            name: format!("l{i}"),
            sources: pick(s),
            destinations: pick(d),
            sends: b,
        });
    }
    g.with_fabric(spec).unwrap()
}

prop_compose! {
    /// A connected fabric of 2 to 8 nodes ([`fabric`]), with its node count.
    fn small_fabric()(
        n in 2u32..9,
        extra in prop::collection::vec((0u32..9, 0u32..9), 0..10),
        caps in prop::collection::vec(1u64..4, 1..6),
        switches in prop::collection::vec(0u32..9, 0..3),
        limits in prop::collection::vec((1u32..512, 1u32..512, 1u32..4), 0..3),
    ) -> (u32, Graph) {
        (n, fabric(n, &extra, &caps, &switches, &limits))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The minimum cuts find the best ratio every set gives, both ways, and
    /// the least capacity between two GPUs.
    #[test]
    fn minimum_cuts_agree_with_every_set((n, g) in small_fabric()) {
        for crossing in [Crossing::Into, Crossing::OutOf] {
            let fast = densest(&g, crossing);
            let every = exhaustive(&g, crossing);
            prop_assert_eq!(fast.is_some(), every.is_some());
            if let (Some(fast), Some(every)) = (fast, every) {
                prop_assert!(same_ratio(&fast, &every), "{:?} {:?}", fast, every);
                proves(&g, &fast, crossing);
            }
        }
        if let Some(pair) = narrowest(&g) {
            let gp = gpus(&g);
            let mut least = u64::MAX;
            for mask in 1u32..(1 << n) - 1 {
                let inside: Vec<bool> = (0..n).map(|x| mask >> x & 1 == 1).collect();
                if gp.iter().any(|&x| inside[x as usize]) && gp.iter().any(|&x| !inside[x as usize]) {
                    least = least.min(capacity(&g, &inside, Crossing::Into));
                }
            }
            prop_assert_eq!(pair.capacity, least);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The rooted bound's cuts find the least capacity, both ways, over
    /// every set with a GPU but not the root (node 0, never forward-only).
    #[test]
    fn rooted_cuts_agree_with_every_set_without_the_root((n, g) in small_fabric()) {
        let gp = gpus(&g);
        for crossing in [Crossing::Into, Crossing::OutOf] {
            let mut least = None::<u64>;
            for mask in (2u32..1 << n).step_by(2) {
                let inside: Vec<bool> = (0..n).map(|x| mask >> x & 1 == 1).collect();
                if gp.iter().any(|&x| inside[x as usize]) {
                    let cap = capacity(&g, &inside, crossing);
                    least = Some(least.map_or(cap, |l| l.min(cap)));
                }
            }
            let cut = rooted(&g, 0, crossing);
            prop_assert_eq!(cut.as_ref().map(|c| c.capacity), least);
            if let Some(cut) = cut {
                prop_assert!(!cut.set.contains(&0) && cut.set.iter().any(|x| gp.contains(x)));
                let inside = members(g.nodes(), &cut.set);
                prop_assert_eq!(capacity(&g, &inside, crossing), cut.capacity);
            }
        }
    }
}

#[test]
fn a_stated_set_is_rechecked_from_the_fabric() {
    use crate::schedule::Collective;
    let g = named("dgx1");
    let ag = Collective::Allgather { chunks: 2 };
    let cut = recheck(&g, ag, &[0]).unwrap();
    assert_eq!((cut.data, cut.capacity, cut.steps(2)), (7, 6, 3));
    assert_eq!(recheck(&g, ag, &[9]), Err(NotAProof::UnknownNode(9)));
    assert!(matches!(
        recheck(&g, ag, &(0..8).collect::<Vec<_>>()),
        Err(NotAProof::Unfit(_))
    ));
    assert!(matches!(
        recheck(&g, Collective::TotalExchange, &[0]),
        Err(NotAProof::NoThroughput(_))
    ));
    assert!(matches!(
        recheck(&g, Collective::broadcast(0), &[0]),
        Err(NotAProof::Unfit(_))
    ));
    // The switch alone holds no GPU.
    assert!(recheck(&named("nvswitch 4"), ag, &[4]).is_err());
}

#[test]
fn on_capacity_one_networks_the_throughput_bound_is_today_s_cut_bound() {
    use crate::bounds::collective;
    use crate::schedule::{Collective, Ports};
    for name in [
        "ring 5",
        "linear 4",
        "mesh 2 3",
        "complete 4",
        "hypercube 3",
        "star 4",
    ] {
        let g = named(name);
        for chunks in [1u32, 3] {
            for (c, crossing) in [
                (Collective::Allgather { chunks }, Crossing::Into),
                (Collective::ReduceScatter { chunks }, Crossing::OutOf),
            ] {
                let plain = collective(&g, c, Ports::All).time;
                let cut = densest(&g, crossing).unwrap();
                assert_eq!(
                    cut.steps(chunks),
                    plain.named("cut").unwrap().value(),
                    "{name}, {c} in {chunks} chunks"
                );
            }
        }
    }
}
