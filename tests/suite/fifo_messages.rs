//! `txverify simulate --algorithm fifo` on message sets other than total
//! exchange (`messages: odd`, `distance …`, `to …`) on rings, tori, hypercubes
//! and star graphs: the schedule must replay valid, and `optimal` must be true
//! exactly when the completion time equals the status of the message set,
//! computed here by the test's own breadth-first search. Also the options the
//! FIFO command honours (`--ports`, `--network`, `--trace`, `-o`).

use crate::common;
use crate::fifo_replay;

use common::cli::{Run, file, txverify};
use fifo_replay::{Net, bfs, hypercube, ring, star, torus};
use txverify_core::load::load;

/// The networks, each with two words for a `messages: to` line.
fn networks() -> Vec<(Net, &'static str)> {
    vec![
        (ring(6), "a aaa"),
        (ring(7), "aa a'"),
        (torus(4, 4), "a ab"),
        (torus(3, 4), "ab b'"),
        (hypercube(3), "abc b"),
        (hypercube(4), "ab cd"),
        (star(4), "{t2}{t3} {t4}"),
    ]
}

/// The status of the message set of `header`: the sum of the distances of its
/// elements, the distances by the test's own search and the set by the rule
/// of each `messages:` kind (`to` words are evaluated by the loader).
fn status_of(header: &str) -> u64 {
    let loaded = load(&format!("{header}\ntable:\n"), &Default::default()).unwrap();
    let inst = &loaded.instance;
    let (distance, _) = bfs(inst.group(), inst.links());
    let line = header
        .lines()
        .find_map(|l| l.strip_prefix("messages: "))
        .unwrap();
    let wanted: Vec<bool> = if line == "odd" {
        distance.iter().map(|&d| d % 2 == 1).collect()
    } else if let Some(list) = line.strip_prefix("distance ") {
        let ds: Vec<u32> = list.split(' ').map(|d| d.parse().unwrap()).collect();
        distance.iter().map(|d| ds.contains(d)).collect()
    } else {
        inst.message_set()
    };
    assert_eq!(wanted, inst.message_set(), "{header}");
    distance
        .iter()
        .zip(&wanted)
        .filter(|(_, w)| **w)
        .map(|(&d, _)| u64::from(d))
        .sum()
}

fn fifo(path: &str, extra: &[&str]) -> Run {
    let mut args = vec!["simulate", "--algorithm", "fifo", path];
    args.extend_from_slice(extra);
    txverify(&args)
}

fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(run.stdout.trim()).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
}

#[test]
fn fifo_serves_every_kind_of_message_set_validly() {
    for (net, words) in networks() {
        for messages in ["odd", "distance 2", "distance 1 2", &format!("to {words}")] {
            let header = format!("{}\nmessages: {messages}", net.header);
            let status = status_of(&header);
            let name = format!("{}-{}.tbl", net.name, messages).replace([' ', '\''], "_");
            let path = file(&name, &format!("{header}\ntable:\n"));
            let run = fifo(path.to_str().unwrap(), &["--format", "json"]);
            let report = json(&run);
            let what = format!("{} messages: {messages}: {report}", net.name);
            assert_eq!(report["valid"], true, "{what}");
            assert_eq!(report["violations"], 0, "{what}");
            assert_eq!(report["status"], status, "{what}");
            assert_eq!(report["bound"], "status of the message set", "{what}");
            let time = report["completion_time"].as_u64().unwrap();
            assert_eq!(report["optimal"], time == status, "{what}");
            assert_eq!(run.code, if time == status { 0 } else { 1 }, "{what}");
            let text = fifo(path.to_str().unwrap(), &[]);
            assert_eq!(text.code, run.code, "{what}");
            assert!(text.stdout.contains("verdict"), "{}", text.stdout);
            assert!(!text.stdout.contains(" { "), "debug text: {}", text.stdout);
        }
    }
}

/// `txverify net star 4` with a `messages:` line added, as a user would write it.
#[test]
fn fifo_on_the_header_net_writes() {
    let header = txverify(&["net", "star", "4"]);
    assert_eq!(header.code, 0, "{}", header.stderr);
    let base = header
        .stdout
        .trim_end()
        .trim_end_matches("table:")
        .trim_end();
    for messages in ["odd", "distance 3"] {
        let text = format!("{base}\nmessages: {messages}\ntable:\n");
        let status = status_of(text.trim_end().trim_end_matches("table:").trim_end());
        let path = file("net-star4.tbl", &text);
        let report = json(&fifo(path.to_str().unwrap(), &["--format", "json"]));
        assert_eq!(report["valid"], true, "{report}");
        assert_eq!(report["status"], status, "{report}");
        let time = report["completion_time"].as_u64().unwrap();
        assert_eq!(report["optimal"], time == status, "{report}");
    }
}

const ODD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tables/ring6-cyclic-odd.tbl");

#[test]
fn the_published_odd_ring_replays_valid_in_plain_words() {
    let run = fifo(ODD, &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("OPTIMAL"), "{}", run.stdout);
    assert!(!run.stdout.contains("Violation"), "{}", run.stdout);
    assert!(!run.stdout.contains("NeverDelivered"), "{}", run.stdout);
}

#[test]
fn ports_network_trace_and_output_are_honoured() {
    // All ports: the single-port status is no bound there; the counting bound is.
    let all = json(&fifo(ODD, &["--ports", "all", "--format", "json"]));
    assert_eq!(all["ports"], "all");
    assert_eq!(all["valid"], true);
    assert_ne!(all["bound"], "status of the message set");
    let two = fifo(ODD, &["--ports", "0"]);
    assert_eq!(two.code, 2, "{}", two.stderr);
    // Another network: as many nodes, or an input error.
    let wrong = fifo(ODD, &["--network", "ring 5"]);
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
    let same = fifo(ODD, &["--network", "complete 6", "--format", "json"]);
    assert!([0, 1].contains(&same.code), "{}", same.stderr);
    assert_eq!(json(&same)["valid"], true);
    // --trace lists the sends.
    let traced = fifo(ODD, &["--trace"]);
    assert!(traced.stdout.contains("step 1:"), "{}", traced.stdout);
    let traced = json(&fifo(ODD, &["--trace", "--format", "json"]));
    assert_eq!(
        traced["trace"].as_array().unwrap().len() as u64,
        traced["transmissions"].as_u64().unwrap()
    );
    // -o: a total exchange is written and replays valid; another message set is refused.
    let out = file("fifo-ring6.sched", "");
    let total = file("ring6-total.tbl", &format!("{}\ntable:\n", ring(6).header));
    let run = fifo(total.to_str().unwrap(), &["-o", out.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cayley = total.to_str().unwrap();
    let replayed = txverify(&["simulate", out.to_str().unwrap(), "--network", cayley]);
    assert_eq!(replayed.code, 0, "{}{}", replayed.stdout, replayed.stderr);
    let refused = fifo(ODD, &["-o", out.to_str().unwrap()]);
    assert_eq!(refused.code, 2, "{}", refused.stderr);
}
