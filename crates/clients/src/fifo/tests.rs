//! Unit tests of the FIFO run.

use super::*;
use txverify_core::load::{LoadOptions, load};

fn instance(header: &str) -> Instance {
    load(&format!("{header}\ntable:\n"), &LoadOptions::default())
        .expect("test header loads")
        .instance
}

#[test]
fn ring_completes_in_status() {
    let inst = instance("group: <a | a^7 = 1>");
    let routing = Routing::shortest(&inst).unwrap();
    for order in [Order::Closest, Order::Furthest] {
        let run = run(
            &inst,
            &routing,
            &FifoOptions {
                order,
                full_compare_every: 1,
            },
        )
        .unwrap();
        // Ring of 7: distances 1, 1, 2, 2, 3, 3.
        assert_eq!(run.status, 12);
        assert_eq!(run.completion_time, 12);
        assert_eq!(run.sends.len(), 7 * 12);
    }
}

#[test]
fn lemma2_comparisons_can_fail() {
    let inst = instance("group: <a | a^5 = 1>");
    let group = inst.group();
    let arith = Arithmetic::new(group);
    let a = group.eval(&[inst.links()[0]]);
    let message = |source: Elem, destination: Elem| Message {
        source,
        destination,
    };
    // Each node v holds (v, v·a) then (v, v·a·a): translates of each other.
    let queues: Vec<VecDeque<Message>> = group
        .elements()
        .map(|v| {
            let va = arith.mul(group, v, a);
            VecDeque::from([message(v, va), message(v, arith.mul(group, va, a))])
        })
        .collect();
    let mut compared = 0;
    compare_queues(group, &arith, &queues, 3, &mut compared).unwrap();
    assert_eq!(compared, 8);
    let mut swapped = queues.clone();
    swapped[2].swap(0, 1);
    // With the multiplication table and without it (products by words).
    let mut plain = Arithmetic::new(group);
    plain.table = None;
    for arith in [&arith, &plain] {
        compare_queues(group, arith, &queues, 3, &mut compared).unwrap();
        assert_eq!(
            compare_queues(group, arith, &swapped, 3, &mut compared),
            Err(FifoError::Lemma2 {
                step: 3,
                node: Elem(2),
                what: Lemma2Failure::Entry { position: 0 }
            })
        );
    }
    let mut short = queues.clone();
    short[4].pop_back();
    assert!(matches!(
        compare_queues(group, &arith, &short, 3, &mut compared),
        Err(FifoError::Lemma2 {
            what: Lemma2Failure::Length {
                expected: 2,
                found: 1
            },
            ..
        })
    ));
    // The step-to-step comparison: node 1 sent what it should not have.
    let sent: Vec<Option<Message>> = queues.iter().map(|q| q.front().copied()).collect();
    let joined = vec![None; 5];
    compare_changes(group, &arith, &queues, &sent, &joined, 1).unwrap();
    let mut wrong = sent.clone();
    wrong[1] = queues[1].back().copied();
    assert!(matches!(
        compare_changes(group, &arith, &queues, &wrong, &joined, 1),
        Err(FifoError::Lemma2 {
            what: Lemma2Failure::Sent,
            ..
        })
    ));
    let mut joined_one = joined.clone();
    joined_one[3] = Some(message(Elem(3), Elem(4)));
    assert!(matches!(
        compare_changes(group, &arith, &queues, &sent, &joined_one, 1),
        Err(FifoError::Lemma2 {
            what: Lemma2Failure::Joined,
            ..
        })
    ));
}

#[test]
fn a_routing_function_for_another_group_is_refused() {
    let five = instance("group: <a | a^5 = 1>");
    let six = instance("group: <a | a^6 = 1>");
    let routing = Routing::shortest(&five).unwrap();
    assert_eq!(
        run(&six, &routing, &FifoOptions::default()),
        Err(FifoError::RoutingOrder {
            routing: 5,
            order: 6
        })
    );
}

#[test]
fn order_names_round_trip() {
    for order in [Order::Closest, Order::Furthest] {
        assert_eq!(order.to_string().parse::<Order>().unwrap(), order);
    }
    assert!(matches!(
        "nearest".parse::<Order>(),
        Err(FifoError::UnknownOrder { .. })
    ));
}

#[test]
fn routing_link_out_of_range_is_refused() {
    let inst = instance("group: <a | a^5 = 1>");
    assert!(matches!(
        Routing::from_fn(&inst, |_| LinkId(9)),
        Err(FifoError::RoutingLink { .. })
    ));
}

#[test]
fn products_agree_with_and_without_table() {
    let inst = instance("group: <a, b | a^2 = b^2 = (ab)^5 = 1>");
    let group = inst.group();
    let mut arith = Arithmetic::new(group);
    let table: Vec<Elem> = group
        .elements()
        .flat_map(|a| group.elements().map(move |b| (a, b)))
        .map(|(a, b)| arith.mul(group, a, b))
        .collect();
    arith.table = None;
    let words: Vec<Elem> = group
        .elements()
        .flat_map(|a| group.elements().map(move |b| (a, b)))
        .map(|(a, b)| arith.mul(group, a, b))
        .collect();
    assert_eq!(table, words);
    for a in group.elements() {
        assert_eq!(arith.mul(group, a, arith.inverse(a)), Elem::IDENTITY);
    }
}
