//! The node-invariant FIFO algorithm on rings, hypercubes, tori, star, pancake,
//! cube-connected-cycles and wrapped-butterfly networks: completion time equal
//! to the status with both initial orders, Lemma 2 and no derouting checked by
//! the run, and the sends replayed independently.

use crate::fifo_replay;

use fifo_replay::{Net, bfs, butterfly, ccc, hypercube, pancake, replay, ring, star, torus};
use txverify_clients::fifo::{self, FifoError, FifoOptions, Order, Routing};
use txverify_core::group::Elem;
use txverify_core::kernel::{Instance, LinkId};
use txverify_core::load::{LoadOptions, load};

fn instance(net: &Net) -> Instance {
    let loaded = load(
        &format!("{}\ntable:\n", net.header),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", net.name));
    loaded.instance
}

/// Runs both orders on the network and checks everything the paper claims.
fn show(net: &Net, degree: usize) {
    let inst = instance(net);
    let group = inst.group();
    assert_eq!(group.order(), net.order, "{}: order", net.name);
    assert!(
        inst.defects().is_empty(),
        "{}: {:?}",
        net.name,
        inst.defects()
    );
    assert_eq!(inst.links().len(), degree, "{}: degree", net.name);
    let (distance, _) = bfs(group, inst.links());
    if let Some(diameter) = net.diameter {
        assert_eq!(
            distance.iter().max().copied(),
            Some(diameter),
            "{}: diameter",
            net.name
        );
    }
    let status: u64 = distance.iter().map(|&d| u64::from(d)).sum();
    let routing = Routing::shortest(&inst).unwrap();
    let wanted = vec![true; group.order()];
    // Entry-by-entry queue comparisons cost n × queue length per step; on the
    // 720-node graphs they run every 50 steps (the step-to-step comparison runs
    // at every step regardless; the benchmark compares in full at every step).
    let every = if group.order() > 200 { 50 } else { 1 };
    for order in [Order::Closest, Order::Furthest] {
        let run = fifo::run(
            &inst,
            &routing,
            &FifoOptions {
                order,
                full_compare_every: every,
            },
        )
        .unwrap_or_else(|e| panic!("{} {order}: {e}", net.name));
        assert_eq!(run.status, status, "{} {order}: status", net.name);
        assert_eq!(
            run.completion_time as u64, status,
            "{} {order}: Theorem 1",
            net.name
        );
        // Lemma 2 was compared at every step, and in full initially, every
        // `every` steps and after the last.
        let t = run.completion_time;
        assert_eq!(run.steps_compared, t, "{} {order}", net.name);
        let full = 1 + t / every + usize::from(!t.is_multiple_of(every));
        assert_eq!(run.full_comparisons, full, "{} {order}", net.name);
        let records: Vec<_> = run.sends.iter().map(|s| s.record()).collect();
        let replayed = replay(group, inst.links(), &wanted, &records)
            .unwrap_or_else(|e| panic!("{} {order}: replay: {e}", net.name));
        assert_eq!(
            replayed.completion_time as u64, status,
            "{} {order}",
            net.name
        );
        assert_eq!(replayed.derouted, 0, "{} {order}", net.name);
        // Every node busy at every step: n sends per step.
        assert_eq!(
            replayed.hops,
            status * group.order() as u64,
            "{} {order}",
            net.name
        );
    }
}

#[test]
fn rings() {
    for n in [2, 3, 4, 7, 10, 16] {
        let net = ring(n);
        let degree = if n == 2 { 1 } else { 2 };
        show(&net, degree);
        // Status of the n-ring: floor(n²/4).
        let inst = instance(&net);
        assert_eq!(
            fifo::status(inst.group(), inst.links()),
            Some((n * n / 4) as u64)
        );
    }
}

#[test]
fn hypercubes() {
    for d in 1..=6 {
        let net = hypercube(d);
        show(&net, d);
        let inst = instance(&net);
        assert_eq!(
            fifo::status(inst.group(), inst.links()),
            Some((d << d >> 1) as u64)
        );
    }
}

#[test]
fn tori() {
    for (p, q) in [(3, 3), (4, 6), (5, 5), (3, 8)] {
        let net = torus(p, q);
        show(&net, 4);
        let inst = instance(&net);
        let expected = q * (p * p / 4) + p * (q * q / 4);
        assert_eq!(
            fifo::status(inst.group(), inst.links()),
            Some(expected as u64)
        );
    }
}

#[test]
fn star_graphs() {
    for n in 4..=6 {
        show(&star(n), n - 1);
    }
}

#[test]
fn pancake_graphs() {
    for n in 4..=6 {
        show(&pancake(n), n - 1);
    }
}

#[test]
fn cube_connected_cycles() {
    for d in 3..=5 {
        show(&ccc(d), 3);
    }
}

#[test]
fn wrapped_butterflies() {
    for d in 3..=5 {
        show(&butterfly(d), 4);
    }
}

#[test]
fn empty_message_set_takes_no_time() {
    let inst = load(
        "group: <a | a^6 = 1>\nmessages: distance 9\ntable:\n",
        &LoadOptions::default(),
    )
    .unwrap()
    .instance;
    let run = fifo::run(
        &inst,
        &Routing::shortest(&inst).unwrap(),
        &FifoOptions::default(),
    )
    .unwrap();
    assert_eq!(run.completion_time, 0);
    assert_eq!(run.status, 0);
    assert!(run.sends.is_empty());
}

#[test]
fn isotropic_message_sets_complete_in_their_load() {
    // Every node sends to the nodes at distance 2 only: the load is 2 × their number.
    let net = star(4);
    let inst = load(
        &format!("{}\nmessages: distance 2\ntable:\n", net.header),
        &LoadOptions::default(),
    )
    .unwrap()
    .instance;
    let group = inst.group();
    let (distance, _) = bfs(group, inst.links());
    let wanted: Vec<bool> = distance.iter().map(|&d| d == 2).collect();
    let load_sum: u64 = wanted.iter().filter(|&&w| w).count() as u64 * 2;
    let run = fifo::run(
        &inst,
        &Routing::shortest(&inst).unwrap(),
        &FifoOptions::default(),
    )
    .unwrap();
    assert_eq!(run.status, load_sum);
    assert_eq!(run.completion_time as u64, load_sum);
    let records: Vec<_> = run.sends.iter().map(|s| s.record()).collect();
    assert_eq!(
        replay(group, inst.links(), &wanted, &records)
            .unwrap()
            .completion_time as u64,
        load_sum
    );
}

#[test]
fn a_derouting_routing_function_is_caught() {
    // Always the first link: on the ring that sends everything one way round,
    // which deroutes the messages for the nodes the other way.
    let inst = instance(&ring(8));
    let always_first = Routing::from_fn(&inst, |_| LinkId(0)).unwrap();
    let err = fifo::run(&inst, &always_first, &FifoOptions::default()).unwrap_err();
    assert!(matches!(err, FifoError::Derouted { .. }), "{err}");

    // Shortest everywhere except one destination of the star graph, where a
    // link that does not shorten the distance is chosen.
    let inst = instance(&star(5));
    let group = inst.group();
    let (distance, word) = bfs(group, inst.links());
    let victim = (1..group.order()).find(|&r| distance[r] == 3).unwrap();
    let good = Routing::shortest(&inst).unwrap();
    let bad_link = (0..inst.links().len())
        .map(|l| LinkId(l as u32))
        .find(|&l| {
            // s·(path from s to the victim) must be longer than a shortest path:
            // the victim's distance from s is s⁻¹·victim, i.e. not distance - 1.
            let s = group.eval(&[inst.links()[l.index()]]);
            let s_inverse = (0..group.order())
                .find(|&b| group.apply_word(s, &word[b]) == Elem(0))
                .unwrap();
            let from_s = group.apply_word(Elem(s_inverse as u32), &word[victim]);
            distance[from_s.index()] + 1 != distance[victim]
        })
        .unwrap();
    let broken = Routing::from_fn(&inst, |r| {
        if r.index() == victim {
            bad_link
        } else {
            good.link(r)
        }
    })
    .unwrap();
    for order in [Order::Closest, Order::Furthest] {
        let err = fifo::run(
            &inst,
            &broken,
            &FifoOptions {
                order,
                full_compare_every: 1,
            },
        )
        .unwrap_err();
        match err {
            FifoError::Derouted {
                destination, from, ..
            } => {
                // The message derouted is one for the victim relative to its sender.
                let (_, w) = bfs(group, inst.links());
                assert_eq!(group.apply_word(from, &w[victim]), destination);
            }
            other => panic!("{order}: expected derouting, got {other}"),
        }
    }
}

#[test]
fn the_replay_counts_a_detour() {
    // The replay's derouting count does not rely on the run: a schedule with
    // one packet's journey replaced by a detour (one hop away, one back, then a
    // shortest path) replays as delivered with exactly one derouted send.
    let inst = instance(&ring(6));
    let group = inst.group();
    let run = fifo::run(
        &inst,
        &Routing::shortest(&inst).unwrap(),
        &FifoOptions::default(),
    )
    .unwrap();
    let mut records: Vec<_> = run.sends.iter().map(|s| s.record()).collect();
    let wanted = vec![true; group.order()];
    assert_eq!(
        replay(group, inst.links(), &wanted, &records)
            .unwrap()
            .derouted,
        0
    );
    // Forge: move one packet away from its destination and back before it goes on.
    let last = records.iter().map(|r| r.0).max().unwrap();
    let (_, from, _, source, destination) = records[0];
    let away = (0..inst.links().len())
        .map(|l| group.apply(Elem(from), inst.links()[l]).0)
        .find(|&x| x != records[0].2)
        .unwrap();
    // Put the packet's whole journey after the schedule ends: first a detour.
    records.retain(|r| !(r.3 == source && r.4 == destination));
    records.push((last + 1, from, away, source, destination));
    records.push((last + 2, away, from, source, destination));
    let (_, word) = bfs(group, inst.links());
    let mut at = Elem(from);
    let rel = (0..group.order())
        .find(|&r| group.apply_word(Elem(from), &word[r]) == Elem(destination))
        .unwrap();
    for (step, &l) in (last + 3..).zip(&word[rel]) {
        let next = group.apply(at, l);
        records.push((step, at.0, next.0, source, destination));
        at = next;
    }
    let replayed = replay(group, inst.links(), &wanted, &records).unwrap();
    assert_eq!(replayed.derouted, 1);
}

#[test]
fn a_run_too_large_to_record_is_refused_up_front() {
    // Ring of 1000: 1000 nodes × status 250000 sends.
    let inst = instance(&ring(1000));
    let routing = Routing::from_fn(&inst, |_| LinkId(0)).unwrap();
    let err = fifo::run(&inst, &routing, &FifoOptions::default()).unwrap_err();
    assert_eq!(
        err,
        FifoError::TooLarge {
            needed: 1000 * 250_000,
            limit: fifo::MAX_SENDS
        }
    );
}
