//! Schedules: hand-made schedules, one negative schedule per violation kind,
//! format round trips, random valid schedules and their mutations (the command
//! line is in schedule_cli.rs).

use crate::common::judged::Judged;

use proptest::prelude::*;
use std::collections::{BTreeMap, VecDeque};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::format::{to_json, to_text};
use txverify_core::schedule::{
    BROADCAST, Collective, Ports, ReplayOptions, ReplayReport, Schedule, TimedSend, ViolationKind,
    parse, replay,
};

fn send(step: u32, from: u32, to: u32, source: u32, destination: u32) -> TimedSend {
    TimedSend {
        step,
        from,
        to,
        source,
        destination,
    }
}

const B: u32 = BROADCAST;

fn run_on(
    network: &str,
    ports: Ports,
    collective: Collective,
    sends: Vec<TimedSend>,
) -> ReplayReport {
    let name: NetworkName = network.parse().unwrap();
    let schedule = Schedule {
        network: Some(name.clone()),
        ports: Some(ports),
        collective,
        sends,
    };
    replay(&schedule, &name.build().unwrap(), &ReplayOptions::default()).unwrap()
}

fn replay_file(text: &str) -> ReplayReport {
    let schedule = parse(text).unwrap();
    let graph = schedule.network.as_ref().unwrap().build().unwrap();
    replay(&schedule, &graph, &ReplayOptions::default()).unwrap()
}

/// Asserts that the report has exactly `n` violations, all of `kind`.
fn only(report: &ReplayReport, kind: ViolationKind, n: u64) {
    let expected: BTreeMap<ViolationKind, u64> = [(kind, n)].into_iter().collect();
    assert_eq!(report.counts(), &expected, "{:#?}", report.violations());
    assert!(!report.valid());
    assert!(report.violations().iter().all(|v| v.kind == kind));
}

#[test]
fn hand_made_total_exchanges_are_valid() {
    let ring = replay_file(include_str!("../../examples/schedules/ring4-total.sched"));
    assert!(ring.valid(), "{:?}", ring.violations());
    assert_eq!(
        (ring.time(), ring.transmissions(), ring.derouted()),
        (2, 16, 0)
    );
    // Every directed link of the ring is busy at both steps.
    assert_eq!(
        ring.link_use()
            .iter()
            .map(|u| (u.step, u.busy_links))
            .collect::<Vec<_>>(),
        vec![(1, 8), (2, 8)]
    );
    let line = replay_file(include_str!("../../examples/schedules/linear3-total.sched"));
    assert!(line.valid(), "{:?}", line.violations());
    assert_eq!(
        (line.time(), line.transmissions(), line.peak_queue()),
        (4, 8, 1)
    );
    let mesh = replay_file(include_str!("../../examples/schedules/mesh2x2-total.json"));
    assert!(mesh.valid(), "{:?}", mesh.violations());
    assert_eq!((mesh.time(), mesh.transmissions()), (2, 16));
    let cube = replay_file(include_str!(
        "../../examples/schedules/hypercube3-broadcast.sched"
    ));
    assert!(cube.valid(), "{:?}", cube.violations());
    assert_eq!(cube.time(), 3);
    let gather = replay_file(include_str!(
        "../../examples/schedules/linear3-gather.sched"
    ));
    assert!(gather.valid(), "{:?}", gather.violations());
    assert_eq!(gather.checked_as(), Collective::Scatter(0));
}

#[test]
fn queues_deroutes_and_link_use_are_counted() {
    // scatter 0 on linear 4: node 1 holds two packets in transit after step 2.
    let r = run_on(
        "linear 4",
        Ports::All,
        Collective::Scatter(0),
        vec![
            send(1, 0, 1, 0, 3),
            send(2, 0, 1, 0, 2),
            send(3, 1, 2, 0, 3),
            send(4, 1, 2, 0, 2),
            send(4, 2, 3, 0, 3),
            send(5, 0, 1, 0, 1),
        ],
    );
    assert!(r.valid(), "{:?}", r.violations());
    assert_eq!((r.time(), r.peak_queue(), r.derouted()), (5, 2, 0));
    let uses: Vec<(u32, u32)> = r
        .link_use()
        .iter()
        .map(|u| (u.step, u.busy_links))
        .collect();
    assert_eq!(uses, vec![(1, 1), (2, 1), (3, 1), (4, 2), (5, 1)]);
    // scatter 0 on ring 4 with (0, 1) sent the long way round: one deroute (0 → 3).
    let r = run_on(
        "ring 4",
        Ports::All,
        Collective::Scatter(0),
        vec![
            send(1, 0, 3, 0, 1),
            send(1, 0, 1, 0, 2),
            send(2, 3, 2, 0, 1),
            send(2, 1, 2, 0, 2),
            send(2, 0, 3, 0, 3),
            send(3, 2, 1, 0, 1),
        ],
    );
    assert!(r.valid(), "{:?}", r.violations());
    assert_eq!((r.time(), r.derouted(), r.transmissions()), (3, 1, 6));
}

#[test]
fn step_zero() {
    let r = run_on(
        "linear 2",
        Ports::Limit(1),
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(0, 0, 1, 0, 1)],
    );
    only(&r, ViolationKind::StepZero, 1);
    assert_eq!(r.violations()[0].step, Some(0));
}

#[test]
fn bad_node() {
    let r = run_on(
        "linear 2",
        Ports::Limit(1),
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(2, 5, 1, 0, 1)],
    );
    only(&r, ViolationKind::BadNode, 1);
    assert_eq!(r.violations()[0].node, 5);
}

#[test]
fn unknown_packet() {
    let r = run_on(
        "linear 2",
        Ports::All,
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(1, 1, 0, 1, 0)],
    );
    only(&r, ViolationKind::UnknownPacket, 1);
}

#[test]
fn not_a_link() {
    let r = run_on(
        "linear 3",
        Ports::All,
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(1, 0, 2, 0, 2)],
    );
    only(&r, ViolationKind::NotALink, 1);
    assert_eq!(r.violations()[0].link, Some((0, 2)));
    assert_eq!(r.violations()[0].step, Some(1));
}

#[test]
fn not_held() {
    // Node 1 forwards the copy at the step it receives it (and again, legally, later).
    let r = run_on(
        "linear 3",
        Ports::Limit(1),
        Collective::broadcast(0),
        vec![
            send(1, 0, 1, 0, B),
            send(1, 1, 2, 0, B),
            send(2, 1, 2, 0, B),
        ],
    );
    only(&r, ViolationKind::NotHeld, 1);
    assert_eq!(r.violations()[0].node, 1);
    assert_eq!(r.violations()[0].link, Some((1, 2)));
}

#[test]
fn link_busy() {
    let r = run_on(
        "linear 3",
        Ports::All,
        Collective::Scatter(0),
        vec![
            send(1, 0, 1, 0, 1),
            send(1, 0, 1, 0, 2),
            send(2, 1, 2, 0, 2),
        ],
    );
    only(&r, ViolationKind::LinkBusy, 1);
}

#[test]
fn send_ports() {
    let r = run_on(
        "ring 3",
        Ports::Limit(1),
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(1, 0, 2, 0, 2)],
    );
    only(&r, ViolationKind::SendPorts, 1);
    assert_eq!(r.violations()[0].node, 0);
    // The same schedule is fine with two ports.
    let r = run_on(
        "ring 3",
        Ports::Limit(2),
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(1, 0, 2, 0, 2)],
    );
    assert!(r.valid());
}

#[test]
fn receive_ports() {
    let r = run_on(
        "linear 3",
        Ports::Limit(1),
        Collective::ALLGATHER,
        vec![
            send(1, 0, 1, 0, B),
            send(1, 2, 1, 2, B),
            send(1, 1, 0, 1, B),
            send(2, 1, 2, 0, B),
            send(3, 1, 0, 2, B),
            send(4, 1, 2, 1, B),
        ],
    );
    only(&r, ViolationKind::ReceivePorts, 1);
    assert_eq!(r.violations()[0].node, 1);
}

#[test]
fn delivered_twice() {
    let copy = run_on(
        "linear 2",
        Ports::Limit(1),
        Collective::broadcast(0),
        vec![send(1, 0, 1, 0, B), send(2, 1, 0, 0, B)],
    );
    only(&copy, ViolationKind::DeliveredTwice, 1);
    assert_eq!(copy.violations()[0].node, 0);
    let moved_on = run_on(
        "linear 2",
        Ports::Limit(1),
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1), send(2, 1, 0, 0, 1)],
    );
    only(&moved_on, ViolationKind::DeliveredTwice, 1);
}

#[test]
fn never_delivered() {
    let r = run_on(
        "linear 3",
        Ports::Limit(1),
        Collective::Scatter(0),
        vec![send(1, 0, 1, 0, 1)],
    );
    only(&r, ViolationKind::NeverDelivered, 1);
    assert_eq!(r.violations()[0].node, 0);
    assert_eq!(r.violations()[0].step, None);
    let r = run_on("hypercube 2", Ports::All, Collective::ALLGATHER, vec![]);
    only(&r, ViolationKind::NeverDelivered, 12);
}

#[test]
fn gather_is_checked_reversed_and_reduce_combines() {
    let ok = run_on(
        "linear 3",
        Ports::Limit(1),
        Collective::reduce(0),
        vec![send(1, 2, 1, 0, B), send(2, 1, 0, 0, B)],
    );
    assert!(ok.valid(), "{:?}", ok.violations());
    assert_eq!(ok.checked_as(), Collective::reduce(0));
    // Node 1 passes its sum on before node 2's contribution arrives.
    let early = run_on(
        "linear 3",
        Ports::Limit(1),
        Collective::reduce(0),
        vec![send(1, 2, 1, 0, B), send(1, 1, 0, 0, B)],
    );
    assert!(!early.valid());
    // Node 0 receives two packets in one step: receive-ports, in the file's terms.
    let r = run_on(
        "ring 3",
        Ports::Limit(1),
        Collective::Gather(0),
        vec![send(1, 1, 0, 1, 0), send(1, 2, 0, 2, 0)],
    );
    only(&r, ViolationKind::ReceivePorts, 1);
    assert_eq!(r.violations()[0].node, 0);
    assert_eq!(r.violations()[0].step, Some(1));
    // A packet forwarded at the step it arrives: reported on the file's send and packet.
    let r = run_on(
        "linear 3",
        Ports::Limit(1),
        Collective::Gather(0),
        vec![
            send(1, 2, 1, 2, 0),
            send(1, 1, 0, 2, 0),
            send(2, 1, 0, 1, 0),
        ],
    );
    assert!(
        r.counts().contains_key(&ViolationKind::NotHeld),
        "{:?}",
        r.violations()
    );
    let v = r
        .violations()
        .iter()
        .find(|v| v.kind == ViolationKind::NotHeld)
        .unwrap();
    assert_eq!(
        (v.step, v.link, v.packet.source, v.packet.destination),
        (Some(1), Some((2, 1)), 2, 0)
    );
}

#[test]
fn replay_needs_ports_and_a_root_in_range() {
    let name: NetworkName = "ring 4".parse().unwrap();
    let graph = name.build().unwrap();
    let mut s = Schedule {
        network: Some(name),
        ports: None,
        collective: Collective::Scatter(9),
        sends: vec![],
    };
    assert!(replay(&s, &graph, &ReplayOptions::default()).is_err());
    s.ports = Some(Ports::All);
    assert!(replay(&s, &graph, &ReplayOptions::default()).is_err());
}

// ---- random schedules ----

fn bfs(graph: &Graph, to: u32) -> Vec<u32> {
    let mut dist = vec![u32::MAX; graph.nodes()];
    dist[to as usize] = 0;
    let mut queue = VecDeque::from([to]);
    while let Some(x) = queue.pop_front() {
        for &y in graph.neighbours(x) {
            if dist[y as usize] == u32::MAX {
                dist[y as usize] = dist[x as usize] + 1;
                queue.push_back(y);
            }
        }
    }
    dist
}

/// A hop a packet (or a copy) must make, once `after` has happened (a hop index).
struct Hop {
    from: u32,
    to: u32,
    source: u32,
    destination: u32,
    after: Option<usize>,
}

/// Routes every hop greedily: at each step, in order, every hop whose packet is
/// held since an earlier step goes if its link and both ports are free.
fn greedy(graph: &Graph, ports: Ports, hops: &[Hop]) -> Vec<TimedSend> {
    let k = match ports {
        Ports::All => u32::MAX,
        Ports::Limit(k) => k,
    };
    let mut done_at: Vec<Option<u32>> = vec![None; hops.len()];
    let mut sends = Vec::new();
    let mut step = 0;
    while done_at.iter().any(Option::is_none) {
        step += 1;
        let mut busy = std::collections::HashSet::new();
        let mut sent = vec![0u32; graph.nodes()];
        let mut received = vec![0u32; graph.nodes()];
        for (i, h) in hops.iter().enumerate() {
            let ready = match h.after {
                None => true,
                Some(j) => done_at[j].is_some_and(|t| t < step),
            };
            if done_at[i].is_some()
                || !ready
                || busy.contains(&(h.from, h.to))
                || sent[h.from as usize] >= k
                || received[h.to as usize] >= k
            {
                continue;
            }
            busy.insert((h.from, h.to));
            sent[h.from as usize] += 1;
            received[h.to as usize] += 1;
            done_at[i] = Some(step);
            sends.push(send(step, h.from, h.to, h.source, h.destination));
        }
    }
    sends
}

/// Hops along shortest paths for personalised packets, along a breadth-first
/// tree for broadcast packets.
fn hops_for(
    graph: &Graph,
    collective: Collective,
    pick: &mut impl FnMut(usize) -> usize,
) -> Vec<Hop> {
    let n = graph.nodes() as u32;
    let mut hops = Vec::new();
    let personal = |hops: &mut Vec<Hop>, s: u32, d: u32, pick: &mut dyn FnMut(usize) -> usize| {
        let dist = bfs(graph, d);
        let mut at = s;
        let mut after = None;
        while at != d {
            let next: Vec<u32> = graph
                .neighbours(at)
                .iter()
                .copied()
                .filter(|&y| dist[y as usize] + 1 == dist[at as usize])
                .collect();
            let y = next[pick(next.len())];
            hops.push(Hop {
                from: at,
                to: y,
                source: s,
                destination: d,
                after,
            });
            after = Some(hops.len() - 1);
            at = y;
        }
    };
    let broadcast = |hops: &mut Vec<Hop>, r: u32, pick: &mut dyn FnMut(usize) -> usize| {
        let dist = bfs(graph, r);
        let mut order: Vec<u32> = (0..n).filter(|&x| x != r).collect();
        order.sort_by_key(|&x| dist[x as usize]);
        let mut hop_into = vec![None; n as usize];
        for x in order {
            let parents: Vec<u32> = graph
                .neighbours(x)
                .iter()
                .copied()
                .filter(|&y| dist[y as usize] + 1 == dist[x as usize])
                .collect();
            let p = parents[pick(parents.len())];
            hops.push(Hop {
                from: p,
                to: x,
                source: r,
                destination: B,
                after: hop_into[p as usize],
            });
            hop_into[x as usize] = Some(hops.len() - 1);
        }
    };
    match collective {
        Collective::TotalExchange => {
            for s in 0..n {
                for d in 0..n {
                    if s != d {
                        personal(&mut hops, s, d, pick);
                    }
                }
            }
        }
        Collective::Scatter(r) => {
            for d in (0..n).filter(|&d| d != r) {
                personal(&mut hops, r, d, pick);
            }
        }
        Collective::Broadcast { root: r, .. } => broadcast(&mut hops, r, pick),
        Collective::Allgather { .. } => {
            for r in 0..n {
                broadcast(&mut hops, r, pick);
            }
        }
        _ => unreachable!("the generator builds the forward collectives"),
    }
    hops
}

/// Reverses a schedule in time and direction (what gather and accumulate are).
fn reversed(sends: &[TimedSend]) -> Vec<TimedSend> {
    let time = sends.iter().map(|s| s.step).max().unwrap_or(0);
    sends
        .iter()
        .map(|s| {
            let (source, destination) = if s.destination == B {
                (s.source, B)
            } else {
                (s.destination, s.source)
            };
            send(time + 1 - s.step, s.to, s.from, source, destination)
        })
        .collect()
}

fn network_strategy() -> impl Strategy<Value = String> {
    prop_oneof![
        (2u32..8).prop_map(|n| format!("ring {n}")),
        (1u32..7).prop_map(|n| format!("linear {n}")),
        (1u32..4, 1u32..4).prop_map(|(a, b)| format!("mesh {a} {b}")),
        (2u32..4, 2u32..4).prop_map(|(a, b)| format!("torus {a} {b}")),
        (0u32..4).prop_map(|d| format!("hypercube {d}")),
        (1u32..6).prop_map(|n| format!("complete {n}")),
    ]
}

fn ports_strategy() -> impl Strategy<Value = Ports> {
    prop_oneof![Just(Ports::All), (1u32..4).prop_map(Ports::Limit)]
}

#[derive(Debug, Clone, Copy)]
enum Mutation {
    Drop,
    Earlier,
    Redirect,
}

fn build(network: &str, ports: Ports, kind: u8, root: u32, seed: u64) -> (Schedule, Graph) {
    let name: NetworkName = network.parse().unwrap();
    let graph = name.build().unwrap();
    let n = graph.nodes() as u32;
    let r = root % n;
    let forward = match kind % 6 {
        0 | 4 => Collective::Scatter(r),
        1 => Collective::TotalExchange,
        2 | 5 => Collective::broadcast(r),
        _ => Collective::ALLGATHER,
    };
    let mut state = seed;
    let mut pick = |len: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % len.max(1)
    };
    let hops = hops_for(&graph, forward, &mut pick);
    let mut sends = greedy(&graph, ports, &hops);
    let collective = match (kind % 6, forward) {
        (4, _) => {
            sends = reversed(&sends);
            Collective::Gather(r)
        }
        (5, _) => {
            sends = reversed(&sends);
            Collective::reduce(r)
        }
        (_, c) => c,
    };
    // Files need not be in step order.
    if seed % 2 == 1 {
        sends.reverse();
    }
    let schedule = Schedule {
        network: Some(name),
        ports: Some(ports),
        collective,
        sends,
    };
    (schedule, graph)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn greedy_schedules_replay_as_valid(
        network in network_strategy(),
        ports in ports_strategy(),
        kind in 0u8..6,
        root in 0u32..64,
        seed in any::<u64>(),
    ) {
        let (schedule, graph) = build(&network, ports, kind, root, seed);
        let r = replay(&schedule, &graph, &ReplayOptions::default()).unwrap();
        prop_assert!(r.valid(), "{:?}", r.violations());
        prop_assert_eq!(r.derouted(), 0);
        prop_assert_eq!(r.transmissions(), schedule.sends.len() as u64);
        let time = schedule.sends.iter().map(|s| s.step).max().unwrap_or(0);
        prop_assert_eq!(r.time(), time);
        let busy: u64 = r.link_use().iter().map(|u| u64::from(u.busy_links)).sum();
        prop_assert_eq!(busy, schedule.sends.len() as u64);
        // Personalised packets travel shortest paths: sends = sum of distances.
        if let Collective::TotalExchange = schedule.collective {
            let n = graph.nodes() as u32;
            let hops: u64 = (0..n).map(|d| bfs(&graph, d).iter().map(|&x| u64::from(x)).sum::<u64>()).sum();
            prop_assert_eq!(r.transmissions(), hops);
        }
    }

    #[test]
    fn mutations_are_caught(
        network in network_strategy(),
        ports in ports_strategy(),
        kind in 0u8..6,
        root in 0u32..64,
        seed in any::<u64>(),
        which in any::<prop::sample::Index>(),
        other in any::<prop::sample::Index>(),
        mutation in prop_oneof![Just(Mutation::Drop), Just(Mutation::Earlier), Just(Mutation::Redirect)],
    ) {
        let (mut schedule, graph) = build(&network, ports, kind, root, seed);
        prop_assume!(!schedule.sends.is_empty());
        let i = which.index(schedule.sends.len());
        match mutation {
            Mutation::Drop => {
                schedule.sends.remove(i);
            }
            // A greedy schedule sends everything as early as it can, so one step
            // earlier always breaks it. Gather and accumulate schedules are greedy
            // ones reversed in time: for them a send one step *later* is the one
            // that comes one step earlier in the replayed reversal (a leaf may well
            // send its contribution earlier than needed). A send at the last step
            // is the first of the reversal and cannot come earlier there; it is
            // dropped instead.
            Mutation::Earlier => match schedule.collective {
                Collective::Gather(_) | Collective::Reduce { .. } => {
                    let time = schedule.sends.iter().map(|s| s.step).max().unwrap_or(0);
                    if schedule.sends[i].step < time {
                        schedule.sends[i].step += 1;
                    } else {
                        schedule.sends.remove(i);
                    }
                }
                _ => schedule.sends[i].step -= 1,
            },
            // Changing `to` of a greedy schedule always breaks it. For gather and
            // accumulate, the reversal swaps the ends of every send, so the
            // mutation changes `from` (a leaf may well hand its contribution to
            // another neighbour that passes it on later).
            Mutation::Redirect => {
                let n = graph.nodes();
                let s = &mut schedule.sends[i];
                let end = match schedule.collective {
                    Collective::Gather(_) | Collective::Reduce { .. } => &mut s.from,
                    _ => &mut s.to,
                };
                *end = ((*end as usize + 1 + other.index(n - 1)) % n) as u32;
            }
        }
        let r = replay(&schedule, &graph, &ReplayOptions::default()).unwrap();
        prop_assert!(!r.valid(), "{:?} of send {} went unnoticed", mutation, i);
    }

    #[test]
    fn text_and_json_round_trip(
        network in proptest::option::of(network_strategy()),
        ports in proptest::option::of(ports_strategy()),
        collective in prop_oneof![
            Just(Collective::TotalExchange),
            Just(Collective::ALLGATHER),
            any::<u32>().prop_map(Collective::Scatter),
            any::<u32>().prop_map(Collective::Gather),
            any::<u32>().prop_map(Collective::broadcast),
            any::<u32>().prop_map(Collective::reduce),
        ],
        raw in prop::collection::vec(
            (any::<u32>(), any::<u32>(), any::<u32>(), any::<u32>(), prop_oneof![Just(B), 0u32..=B - txverify_core::schedule::MAX_CHUNKS]),
            0..40,
        ),
    ) {
        let schedule = Schedule {
            network: network.map(|n| n.parse().unwrap()),
            ports,
            collective,
            sends: raw.into_iter().map(|(a, b, c, d, e)| send(a, b, c, d, e)).collect(),
        };
        let text = to_text(&schedule);
        let json = to_json(&schedule);
        prop_assert_eq!(&parse(&text).unwrap(), &schedule);
        prop_assert_eq!(&parse(&json).unwrap(), &schedule);
        prop_assert_eq!(&to_text(&parse(&json).unwrap()), &text);
        prop_assert_eq!(&to_json(&parse(&text).unwrap()), &json);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Whatever the text, reading it gives a schedule or a positioned error.
    #[test]
    fn parsing_never_panics(text in "[ -~\t\n\u{e9}\u{feff}]{0,120}", prefix in 0usize..3) {
        let head = ["", "collective: mnb\nsends:\n", "{\"schema\": \"txverify-schedule/1\", "][prefix];
        let source = format!("{head}{text}");
        if let Err(e) = parse(&source) {
            let rendered = e.render("f", &source);
            let expected = format!("f:{}:{}: error: ", e.line, e.column);
            prop_assert!(rendered.starts_with(&expected), "{}", rendered);
        }
    }

    /// Arbitrary sends (out-of-range nodes, step 0, broadcast packets in
    /// personalised collectives, …) replay without panicking, and a schedule is
    /// valid exactly when no violation is counted.
    #[test]
    fn replay_never_panics(
        network in network_strategy(),
        ports in ports_strategy(),
        collective in prop_oneof![
            Just(Collective::TotalExchange),
            Just(Collective::ALLGATHER),
            (0u32..4).prop_map(Collective::Scatter),
            (0u32..4).prop_map(Collective::Gather),
            (0u32..4).prop_map(Collective::broadcast),
            (0u32..4).prop_map(Collective::reduce),
        ],
        raw in prop::collection::vec((0u32..5, 0u32..10, 0u32..10, 0u32..10, prop_oneof![Just(B), 0u32..10]), 0..60),
    ) {
        let name: NetworkName = network.parse().unwrap();
        let graph = name.build().unwrap();
        let schedule = Schedule {
            network: Some(name),
            ports: Some(ports),
            collective,
            sends: raw.into_iter().map(|(a, b, c, d, e)| send(a, b, c, d, e)).collect(),
        };
        if let Ok(r) = replay(&schedule, &graph, &ReplayOptions { max_listed: 5 }) {
            prop_assert_eq!(r.valid(), r.violation_count() == 0);
            prop_assert!(r.violations().len() <= 5);
        } else {
            prop_assert!(collective.root().is_some_and(|root| root as usize >= graph.nodes()));
        }
    }
}
