//! The replay on fabrics: link capacities, switch limits, forward-only nodes.

use super::*;
use crate::network::{FabricSpec, NetworkName, SwitchLimit};
use crate::schedule::{Collective, Packet, Ports, Schedule, TimedSend};

/// The send at `step` of chunk `chunk` of `block`'s item from `from` to `to`.
fn item(step: u32, from: u32, to: u32, block: u32, chunk: u32) -> TimedSend {
    let p = Packet::item(block, chunk);
    TimedSend {
        step,
        from,
        to,
        source: p.source,
        destination: p.destination,
    }
}

fn counts(graph: &Graph, collective: Collective, sends: Vec<TimedSend>) -> Vec<(String, u64)> {
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective,
        sends,
    };
    let report = replay(&schedule, graph, &ReplayOptions::default()).unwrap();
    report
        .counts()
        .iter()
        .map(|(k, &c)| (k.name().to_string(), c))
        .collect()
}

fn named(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

fn capacities(graph: Graph, links: &[(u32, u32, u64)]) -> Graph {
    graph
        .with_fabric(FabricSpec {
            capacities: links.to_vec(),
            ..FabricSpec::default()
        })
        .unwrap()
}

/// Both chunks of each block over the one link, both in step 1.
fn two_chunks_at_once() -> Vec<TimedSend> {
    vec![
        item(1, 0, 1, 0, 0),
        item(1, 0, 1, 0, 1),
        item(1, 1, 0, 1, 0),
        item(1, 1, 0, 1, 1),
    ]
}

#[test]
fn a_link_of_capacity_two_carries_two_chunks_a_step() {
    let allgather = Collective::Allgather { chunks: 2 };
    let plain = named("linear 2");
    assert_eq!(
        counts(&plain, allgather, two_chunks_at_once()),
        vec![("link-busy".to_string(), 2)]
    );
    let doubled = capacities(named("linear 2"), &[(0, 1, 2), (1, 0, 2)]);
    assert_eq!(counts(&doubled, allgather, two_chunks_at_once()), vec![]);
    // One direction doubled: the other is still a link of capacity 1.
    let one_way = capacities(named("linear 2"), &[(0, 1, 2)]);
    assert_eq!(
        counts(&one_way, allgather, two_chunks_at_once()),
        vec![("link-busy".to_string(), 1)]
    );
}

#[test]
fn a_third_chunk_on_a_link_of_capacity_two_is_over_capacity() {
    let doubled = capacities(named("linear 2"), &[(0, 1, 2), (1, 0, 2)]);
    let mut sends = two_chunks_at_once();
    sends.push(item(1, 0, 1, 0, 2));
    sends.push(item(2, 1, 0, 1, 2));
    let allgather = Collective::Allgather { chunks: 3 };
    assert_eq!(
        counts(&doubled, allgather, sends),
        vec![("over-capacity".to_string(), 1)]
    );
}

#[test]
fn a_switch_limit_counts_the_sends_among_its_nodes() {
    let limited = named("complete 3")
        .with_fabric(FabricSpec {
            limits: vec![SwitchLimit {
                name: "node_0_out".into(),
                sources: vec![0],
                destinations: vec![1, 2],
                sends: 1,
            }],
            ..FabricSpec::default()
        })
        .unwrap();
    let at_once = |second: u32| {
        vec![
            item(1, 0, 1, 0, 0),
            item(second, 0, 2, 0, 0),
            item(1, 1, 0, 1, 0),
            item(1, 1, 2, 1, 0),
            item(1, 2, 0, 2, 0),
            item(1, 2, 1, 2, 0),
        ]
    };
    let allgather = Collective::Allgather { chunks: 1 };
    assert_eq!(
        counts(&limited, allgather, at_once(1)),
        vec![("switch-limit".to_string(), 1)]
    );
    assert_eq!(counts(&limited, allgather, at_once(2)), vec![]);
}

/// The star with centre 0 as a switch, multicast or not.
fn star_switch(multicast: bool) -> Graph {
    Graph::from_adjacency(vec![vec![1, 2, 3], vec![0], vec![0], vec![0]])
        .unwrap()
        .with_fabric(FabricSpec {
            forward_only: vec![0],
            multicast,
            ..FabricSpec::default()
        })
        .unwrap()
}

/// Allgather of the leaves through the centre: every block in, then out to
/// both other leaves.
fn through_the_centre() -> Vec<TimedSend> {
    let mut sends = Vec::new();
    for leaf in 1..4 {
        sends.push(item(1, leaf, 0, leaf, 0));
    }
    for (step, block) in (2..).zip(1..4) {
        for to in (1..4).filter(|&to| to != block) {
            sends.push(item(step, 0, to, block, 0));
        }
    }
    sends
}

#[test]
fn a_switch_has_no_data_needs_none_and_copies_only_with_multicast() {
    let allgather = Collective::Allgather { chunks: 1 };
    assert_eq!(
        counts(&star_switch(true), allgather, through_the_centre()),
        vec![]
    );
    assert_eq!(
        counts(&star_switch(false), allgather, through_the_centre()),
        vec![("switch-copy".to_string(), 3)]
    );
    // The switch's own block is no item of the collective.
    let mut sends = through_the_centre();
    sends.push(item(5, 0, 1, 0, 0));
    assert_eq!(
        counts(&star_switch(true), allgather, sends),
        vec![("unknown-packet".to_string(), 1)]
    );
    // Without the sends out, the leaves miss the blocks; the switch misses nothing.
    let sends: Vec<TimedSend> = through_the_centre().into_iter().take(3).collect();
    assert_eq!(
        counts(&star_switch(true), allgather, sends),
        vec![("never-delivered".to_string(), 6)]
    );
}

/// Allgather of the leaves through a centre that does not copy: each leaf
/// sends its block to the centre once per other leaf (steps 1 and 2), and the
/// centre forwards each copy the step after it arrives, in a rotation.
fn once_per_destination() -> Vec<TimedSend> {
    let mut sends = Vec::new();
    for round in 0..2u32 {
        for leaf in 1..4u32 {
            sends.push(item(round + 1, leaf, 0, leaf, 0));
            let to = (leaf + round) % 3 + 1;
            sends.push(item(round + 2, 0, to, leaf, 0));
        }
    }
    sends
}

#[test]
fn a_switch_without_multicast_forwards_each_copy_it_received() {
    let allgather = Collective::Allgather { chunks: 1 };
    // A second receipt at the switch is a second copy, not a duplicate.
    assert_eq!(
        counts(&star_switch(false), allgather, once_per_destination()),
        vec![]
    );
    assert_eq!(
        counts(&star_switch(true), allgather, once_per_destination()),
        vec![("delivered-twice".to_string(), 3)]
    );
}

#[test]
fn a_switch_spends_one_copy_a_send() {
    let allgather = Collective::Allgather { chunks: 1 };
    // k receipts of leaf 1's block at the switch (steps 1..=k) and m sends of
    // it out (steps 10.., to leaves 2 and 3 alternately): m − k are
    // switch-copy, or none.
    for received in 1..4u32 {
        for sent in 0..5u32 {
            let mut sends: Vec<TimedSend> = (1..=received).map(|t| item(t, 1, 0, 1, 0)).collect();
            sends.extend((0..sent).map(|i| item(10 + i, 0, 2 + i % 2, 1, 0)));
            let schedule = Schedule {
                network: None,
                ports: Some(Ports::All),
                collective: allgather,
                sends,
            };
            let report = replay(&schedule, &star_switch(false), &ReplayOptions::default()).unwrap();
            let over: Vec<&Violation> = report
                .violations()
                .iter()
                .filter(|v| v.kind == ViolationKind::SwitchCopy)
                .collect();
            assert_eq!(
                over.len() as u32,
                sent.saturating_sub(received),
                "{received} in, {sent} out"
            );
            // Each is named with its step, the switch and the item.
            for (v, step) in over.iter().zip(10 + received..) {
                assert_eq!(
                    (v.step, v.node, v.packet),
                    (Some(step), 0, Packet::item(1, 0))
                );
            }
            // Leaves 2 and 3 receive the block more than once: delivered-twice,
            // as on any GPU.
            let twice = sent.saturating_sub(2) as u64;
            assert_eq!(
                report
                    .counts()
                    .get(&ViolationKind::DeliveredTwice)
                    .copied()
                    .unwrap_or(0),
                twice
            );
        }
    }
}

#[test]
fn a_copy_is_sent_no_sooner_than_the_step_after_it_arrives() {
    let allgather = Collective::Allgather { chunks: 1 };
    // The second copy arrives at step 3; the send at step 3 finds the first
    // spent: switch-copy, named at step 3. A send of an item never received is
    // not-held.
    let sends = vec![
        item(1, 1, 0, 1, 0),
        item(2, 0, 2, 1, 0),
        item(3, 1, 0, 1, 0),
        item(3, 0, 3, 1, 0),
        item(4, 0, 1, 2, 0),
    ];
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective: allgather,
        sends,
    };
    let report = replay(&schedule, &star_switch(false), &ReplayOptions::default()).unwrap();
    let named: Vec<(ViolationKind, Option<u32>)> = report
        .violations()
        .iter()
        .filter(|v| v.kind != ViolationKind::NeverDelivered)
        .map(|v| (v.kind, v.step))
        .collect();
    assert_eq!(
        named,
        vec![
            (ViolationKind::SwitchCopy, Some(3)),
            (ViolationKind::NotHeld, Some(4))
        ]
    );
}

#[test]
fn a_switch_contributes_nothing_to_a_sum_and_cannot_be_a_root() {
    let mut path = named("linear 3")
        .with_fabric(FabricSpec {
            forward_only: vec![1],
            multicast: true,
            ..FabricSpec::default()
        })
        .unwrap();
    let mut sends = Vec::new();
    for (block, step) in [(0, 1), (2, 3)] {
        sends.push(item(step, 0, 1, block, 0));
        sends.push(item(step, 2, 1, block, 0));
        sends.push(item(step + 1, 1, 0, block, 0));
        sends.push(item(step + 1, 1, 2, block, 0));
    }
    let allreduce = Collective::Allreduce { chunks: 1 };
    assert_eq!(counts(&path, allreduce, sends), vec![]);
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective: Collective::broadcast(1),
        sends: Vec::new(),
    };
    let err = replay(&schedule, &path, &ReplayOptions::default()).unwrap_err();
    assert_eq!(err, ReplayError::RootIsForwardOnly(1));
    path = path.with_fabric(FabricSpec::default()).unwrap();
    assert!(replay(&schedule, &path, &ReplayOptions::default()).is_ok());
}

#[test]
fn a_personalised_exchange_skips_the_switch() {
    let path = named("linear 3")
        .with_fabric(FabricSpec {
            forward_only: vec![1],
            ..FabricSpec::default()
        })
        .unwrap();
    let send = |step, from, to, source, destination| TimedSend {
        step,
        from,
        to,
        source,
        destination,
    };
    let sends = vec![
        send(1, 0, 1, 0, 2),
        send(1, 2, 1, 2, 0),
        send(2, 1, 2, 0, 2),
        send(2, 1, 0, 2, 0),
    ];
    assert_eq!(counts(&path, Collective::TotalExchange, sends), vec![]);
}
