//! Single-port tables (`ports: 1`): one row holding one shortest word per
//! message, back to back. Every column then holds one letter, so every node
//! sends one message and receives one per step, and the time is the sum of the
//! distances, the status. The kernel must call such a table valid and optimal,
//! the simulator must agree, and so must the command line.

use crate::common;
use crate::fifo_replay;

use common::cli::{Run, file, txverify};

use fifo_replay::{Net, bfs, butterfly, ccc, hypercube, pancake, ring, star, torus};
use txverify_clients::check::{Agreement, Outcome, SimulationOutcome, VerifyOptions, verify};
use txverify_clients::fifo::{self, FifoOptions, Order, Routing};
use txverify_core::kernel::{Verdict, check};
use txverify_core::load::{LoadOptions, load};

/// The single-port table text for a network, with its status (by the test's own
/// breadth-first search); `furthest` puts the longest words first.
fn single_port_table(net: &Net, furthest: bool) -> (String, u64) {
    let inst = load(
        &format!("{}\ntable:\n", net.header),
        &LoadOptions::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {e}", net.name))
    .instance;
    let group = inst.group();
    assert_eq!(group.order(), net.order, "{}", net.name);
    let (distance, word) = bfs(group, inst.links());
    let status: u64 = distance.iter().map(|&d| u64::from(d)).sum();
    let name_of = |l| {
        let i = inst.links().iter().position(|&m| m == l).unwrap();
        inst.link_names()[i].clone()
    };
    let mut elements: Vec<usize> = (1..group.order()).collect();
    if furthest {
        elements.sort_by_key(|&e| std::cmp::Reverse(distance[e]));
    }
    let row: Vec<String> = elements
        .iter()
        .map(|&e| word[e].iter().map(|&l| name_of(l)).collect::<String>())
        .collect();
    let text = format!(
        "name: {} single port\n{}\nports: 1\nexpect: time {status}\nexpect: optimal\ntable:\n{}\n",
        net.name,
        net.header,
        row.join(" ")
    );
    (text, status)
}

fn networks() -> Vec<Net> {
    vec![
        ring(7),
        ring(10),
        hypercube(4),
        torus(3, 4),
        star(4),
        star(5),
        pancake(4),
        pancake(5),
        ccc(3),
        ccc(4),
        butterfly(3),
    ]
}

#[test]
fn single_row_tables_are_optimal_with_time_equal_to_the_status() {
    for net in networks() {
        for furthest in [false, true] {
            let (text, status) = single_port_table(&net, furthest);
            let loaded = load(&text, &LoadOptions::default()).unwrap();
            assert_eq!(loaded.instance.ports(), 1, "{}", net.name);
            let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
            assert!(checked.passed(), "{}: {:?}", net.name, checked.violations());
            assert_eq!(checked.verdict(), Verdict::Optimal, "{}", net.name);
            assert_eq!(checked.time() as u64, status, "{}", net.name);
            let bound = checked.bound().unwrap();
            assert_eq!(bound.value, status, "{}", net.name);
            assert_eq!(bound.distance_sum, status, "{}", net.name);
            assert!(checked.non_shortest().is_empty(), "{}", net.name);

            // The simulator plays it on the Cayley graph (or the recognised
            // network) and must agree with the kernel.
            let verification = verify(&loaded, &VerifyOptions::default());
            assert_eq!(verification.outcome(), Outcome::Passed, "{}", net.name);
            assert!(
                matches!(verification.agreement(), Agreement::Agree),
                "{}: {:?}",
                net.name,
                verification.agreement()
            );
            match verification.simulation() {
                SimulationOutcome::Ran { report, .. } => {
                    assert!(report.valid, "{}: {:?}", net.name, report.failures);
                    assert_eq!(report.completion_time as u64, status, "{}", net.name);
                    assert_eq!(report.ports, 1, "{}", net.name);
                    let n = net.order as u64;
                    assert_eq!(report.arrived_messages, n * (n - 1), "{}", net.name);
                    assert_eq!(report.hops, n * status, "{}", net.name);
                }
                other => panic!("{}: simulation did not run: {other:?}", net.name),
            }
        }
    }
}

#[test]
fn the_fifo_algorithm_takes_as_long_as_the_single_port_table() {
    // Two single-port schedules of different kinds (buffered queues; a
    // buffer-free table) both meet the status bound on the same networks.
    for net in networks() {
        let (text, _) = single_port_table(&net, false);
        let loaded = load(&text, &LoadOptions::default()).unwrap();
        let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
        let inst = &loaded.instance;
        let routing = Routing::shortest(inst).unwrap();
        let run = fifo::run(
            inst,
            &routing,
            &FifoOptions {
                order: Order::Furthest,
                full_compare_every: 1,
            },
        )
        .unwrap();
        assert_eq!(run.completion_time, checked.time(), "{}", net.name);
    }
}

#[test]
fn two_letters_in_a_column_break_the_single_port() {
    // The same words on two rows: shorter, but columns then hold two letters.
    let (text, status) = single_port_table(&star(4), false);
    let (head, row) = text.split_once("table:\n").unwrap();
    let words: Vec<&str> = row.split_whitespace().collect();
    let half = words.len() / 2;
    let head = head.replace(&format!("expect: time {status}\n"), "");
    let split = format!(
        "{head}table:\n{}\n{}\n",
        words[..half].join(" "),
        words[half..].join(" ")
    );
    let loaded = load(&split, &LoadOptions::default()).unwrap();
    let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
    assert_eq!(checked.verdict(), Verdict::Invalid);
    assert!((checked.time() as u64) < status);
    let verification = verify(&loaded, &VerifyOptions::default());
    assert_eq!(verification.outcome(), Outcome::Failed);
    assert!(
        matches!(verification.agreement(), Agreement::Agree),
        "{:?}",
        verification.agreement()
    );
}

#[test]
fn the_command_line_accepts_single_port_tables() {
    for (i, net) in [star(4), ccc(3), hypercube(3), pancake(4)]
        .iter()
        .enumerate()
    {
        let (text, status) = single_port_table(net, true);
        let path = file(&format!("single-port-{i}.tbl"), &text);
        let path = path.to_str().unwrap();
        let Run {
            code, stdout: out, ..
        } = txverify(&["check", path]);
        assert_eq!(code, 0, "{}: {out}", net.name);
        assert!(out.contains("OPTIMAL"), "{}: {out}", net.name);
        assert!(out.contains("ports 1"), "{}: {out}", net.name);
        let Run {
            code, stdout: out, ..
        } = txverify(&["simulate", path]);
        assert_eq!(code, 0, "{}: {out}", net.name);
        assert!(
            out.contains(&format!("completion time {status}\n")),
            "{}: {out}",
            net.name
        );
        assert!(out.contains("CLEAN"), "{}: {out}", net.name);
    }
}

#[test]
fn the_examples_in_the_docs_are_optimal() {
    let doc = include_str!("../../docs/single-port.md");
    let mut examples = 0;
    let mut rest = doc;
    while let Some(start) = rest.find("```tbl\n") {
        let body = &rest[start + "```tbl\n".len()..];
        let end = body.find("```").expect("closed fence");
        let loaded = load(&body[..end], &LoadOptions::default()).unwrap();
        let verification = verify(&loaded, &VerifyOptions::default());
        assert_eq!(verification.checked().verdict(), Verdict::Optimal);
        assert_eq!(verification.outcome(), Outcome::Passed);
        examples += 1;
        rest = &body[end + 3..];
    }
    assert!(examples > 0, "no tbl example in docs/single-port.md");
}
