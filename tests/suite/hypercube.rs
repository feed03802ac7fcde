//! The all-port hypercube collectives of `txverify_clients::hypercube` (Bertsekas,
//! Özveren, Stamoulis, Tseng and Tsitsiklis): every problem for d = 1 … 8 is
//! replayed by the schedule simulator and meets both lower bounds, which are
//! compared with the closed forms of the paper's Table 1, computed here again;
//! broken schedules are rejected at the right step, node and link; and
//! `txverify hypercube` reports what docs/json.md says.

use crate::common;
use crate::common::judged::Judged;

use common::cli::{documented_fields, field_paths, txverify};
use std::collections::HashSet;
use txverify_clients::hypercube::buffer::peak_buffer;
use txverify_clients::hypercube::{Problem, bounds::lower_bounds, build, mnb};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{
    BROADCAST, Packet, ReplayOptions, ReplayReport, Schedule, TimedSend, ViolationKind, replay,
};

/// ⌈(2^d − 1)/d⌉.
fn ceil_ratio(d: u32) -> u64 {
    ((1u64 << d) - 1).div_ceil(u64::from(d))
}

/// Table 1 (and the binomial broadcast tree): (time, transmissions).
fn table_1(problem: Problem, d: u32) -> (u64, u64) {
    let n = 1u64 << d;
    let d64 = u64::from(d);
    match problem {
        Problem::Broadcast | Problem::Accumulate => (d64, n - 1),
        Problem::Scatter | Problem::Gather => (ceil_ratio(d), d64 * n / 2),
        Problem::Mnb => (ceil_ratio(d), n * (n - 1)),
        Problem::Exchange => (n / 2, d64 * n * n / 2),
    }
}

fn replayed(schedule: &Schedule, d: u32) -> ReplayReport {
    let graph = NetworkName::Hypercube(d).build().unwrap();
    replay(schedule, &graph, &ReplayOptions::default()).unwrap()
}

#[test]
fn every_problem_up_to_d_8_is_valid_and_meets_both_bounds() {
    for d in 1..=8u32 {
        let graph = NetworkName::Hypercube(d).build().unwrap();
        for problem in Problem::ALL {
            let roots: Vec<Option<u32>> = if problem.has_root() {
                vec![None, Some((1 << d) - 1), Some(d % (1 << d))]
            } else {
                vec![None]
            };
            for root in roots {
                let built = build(problem, d, root).unwrap();
                let report = replay(&built.schedule, &graph, &ReplayOptions::default()).unwrap();
                let what = format!("{problem} {d} root {root:?}");
                assert!(report.valid(), "{what}: {:?}", report.violations());
                let bounds = lower_bounds(problem, &graph, root.unwrap_or(0));
                let (time, sends) = table_1(problem, d);
                assert_eq!(
                    (bounds.time, bounds.transmissions),
                    (time, sends),
                    "{what}: bounds"
                );
                assert_eq!(u64::from(report.time()), time, "{what}: time");
                assert_eq!(report.transmissions(), sends, "{what}: transmissions");
                assert_eq!(report.derouted(), 0, "{what}");
                assert_eq!(report.collective(), problem.collective(root.unwrap_or(0)));
            }
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// From any root: the rooted problems translate by XOR and stay optimal.
    #[test]
    fn rooted_problems_are_optimal_from_any_root(
        d in 1u32..=7,
        seed in 0u32..u32::MAX,
        which in 0usize..4,
    ) {
        let problem = [Problem::Broadcast, Problem::Scatter, Problem::Gather, Problem::Accumulate][which];
        let root = seed % (1 << d);
        let built = build(problem, d, Some(root)).unwrap();
        let report = replayed(&built.schedule, d);
        proptest::prop_assert!(report.valid(), "{:?}", report.violations());
        let (time, sends) = table_1(problem, d);
        proptest::prop_assert_eq!((u64::from(report.time()), report.transmissions()), (time, sends));
        proptest::prop_assert_eq!(report.collective(), problem.collective(root));
    }
}

#[test]
fn scatter_subtrees_are_perfectly_balanced() {
    for d in 1..=12u32 {
        let sizes = build(Problem::Scatter, d, None)
            .unwrap()
            .subtree_sizes
            .unwrap();
        let total = (1u64 << d) - 1;
        assert_eq!(sizes.len(), d as usize);
        assert_eq!(sizes.iter().sum::<u64>(), total, "d {d}");
        for &s in &sizes {
            assert!(
                s == total / u64::from(d) || s == ceil_ratio(d),
                "d {d}: {sizes:?}"
            );
        }
    }
}

#[test]
fn mnb_link_sets_are_full_and_of_distinct_types_up_to_d_12() {
    for d in 1..=12u32 {
        let sets = mnb::link_sets(d);
        assert_eq!(sets.len() as u64, ceil_ratio(d), "d {d}");
        for (i, set) in sets.iter().enumerate() {
            let types: HashSet<u32> = set.iter().map(|&(x, y)| (x ^ y).trailing_zeros()).collect();
            assert_eq!(types.len(), set.len(), "d {d}: A_{} repeats a type", i + 1);
            if i + 1 < sets.len() {
                assert_eq!(set.len(), d as usize, "d {d}: A_{} is not full", i + 1);
            }
        }
        mnb::check_link_sets(d, &sets).unwrap();
    }
}

/// 2^d mod m by repeated squaring.
fn two_to_the(d: u32, m: u128) -> u128 {
    let (mut result, mut base, mut e) = (1 % m, 2 % m, d);
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % m;
        }
        base = base * base % m;
        e >>= 1;
    }
    result
}

#[test]
fn section_5_two_to_the_d_minus_1_is_not_divisible_by_d() {
    // The appendix's proposition, for every d from 2 to 64: 2^d ≢ 1 (mod d).
    for d in 2..=64u32 {
        assert_ne!(two_to_the(d, u128::from(d)), 1 % u128::from(d), "d {d}");
    }
    // And the exponentiation is right where it can be checked directly.
    for d in 1..=30u32 {
        for m in 2..=40u128 {
            assert_eq!(two_to_the(d, m), (1u128 << d) % m);
        }
    }
    // d = 1 is the one exception: 1 divides 2^1 − 1.
    assert_eq!(two_to_the(1, 1), 0);
}

/// The first violation of `kind` in a replay.
fn first(report: &ReplayReport, kind: ViolationKind) -> &txverify_core::schedule::Violation {
    report
        .violations()
        .iter()
        .find(|v| v.kind == kind)
        .unwrap_or_else(|| panic!("no {kind}: {:?}", report.violations()))
}

#[test]
fn a_packet_forwarded_before_it_arrives_is_not_held_at_that_step_node_and_link() {
    let d = 4;
    let mut schedule = build(Problem::Exchange, d, None).unwrap().schedule;
    // A packet with two hops or more: move its second hop to the step of its first.
    let (source, destination) = (0u32, 0b1011u32);
    let mut hops: Vec<usize> = (0..schedule.sends.len())
        .filter(|&k| {
            let s = schedule.sends[k];
            (s.source, s.destination) == (source, destination)
        })
        .collect();
    hops.sort_by_key(|&k| schedule.sends[k].step);
    assert_eq!(hops.len(), 3, "three bits differ");
    let first_step = schedule.sends[hops[0]].step;
    schedule.sends[hops[1]].step = first_step;
    let moved = schedule.sends[hops[1]];
    let report = replayed(&schedule, d);
    assert!(!report.valid());
    let v = first(&report, ViolationKind::NotHeld);
    assert_eq!(v.step, Some(first_step));
    assert_eq!(v.node, moved.from);
    assert_eq!(v.link, Some((moved.from, moved.to)));
    assert_eq!(
        v.packet,
        Packet {
            source,
            destination
        }
    );
}

#[test]
fn two_packets_on_one_link_direction_in_one_step_are_reported_there() {
    // Figure 2 of the paper (d = 3): A_2 holds two links of type 2, so the
    // translated broadcasts collide; the sets are refused, and their schedule too.
    let sets = vec![
        vec![(0, 1), (0, 4)],
        vec![(0, 2), (1, 3), (4, 5)],
        vec![(3, 7), (4, 6)],
    ];
    assert!(mnb::check_link_sets(3, &sets).is_err());
    let schedule = mnb::from_link_sets(3, &sets);
    // The first send, in list order, on a (step, from, to) already used.
    let mut used = HashSet::new();
    let clash = *schedule
        .sends
        .iter()
        .find(|s| !used.insert((s.step, s.from, s.to)))
        .expect("a collision");
    let report = replayed(&schedule, 3);
    let v = first(&report, ViolationKind::LinkBusy);
    assert_eq!(v.step, Some(clash.step));
    assert_eq!(v.node, clash.from);
    assert_eq!(v.link, Some((clash.from, clash.to)));
    assert_eq!(v.packet, clash.packet());
}

#[test]
fn a_missing_delivery_is_reported_where_the_packet_stopped() {
    let d = 5;
    let mut schedule = build(Problem::Scatter, d, Some(9)).unwrap().schedule;
    // Drop the last hop of the packet sent last.
    let last = schedule.sends.len() - 1;
    let dropped = schedule.sends.remove(last);
    assert_eq!(dropped.to, dropped.destination);
    let report = replayed(&schedule, d);
    assert_eq!(report.violation_count(), 1, "{:?}", report.violations());
    let v = first(&report, ViolationKind::NeverDelivered);
    assert_eq!((v.step, v.link), (None, None));
    assert_eq!(v.node, dropped.from);
    assert_eq!(v.packet, dropped.packet());
    // A broadcast copy that is never sent: the node without it is named.
    let mut schedule = build(Problem::Broadcast, d, Some(3)).unwrap().schedule;
    let dropped = schedule.sends.pop().unwrap();
    let report = replayed(&schedule, d);
    let v = first(&report, ViolationKind::NeverDelivered);
    assert_eq!(v.node, dropped.to);
    assert_eq!(
        v.packet,
        Packet {
            source: 3,
            destination: BROADCAST
        }
    );
}

/// Waiting packets counted the slow way: every hop of every packet, every step.
fn brute_force_buffer(schedule: &Schedule, nodes: usize) -> u32 {
    let time = schedule.sends.iter().map(|s| s.step).max().unwrap_or(0) as usize;
    let mut waiting = vec![vec![0u32; time + 2]; nodes];
    let mut hops: std::collections::HashMap<(u32, u32), Vec<TimedSend>> = Default::default();
    for s in &schedule.sends {
        hops.entry((s.source, s.destination)).or_default().push(*s);
    }
    for list in hops.values_mut() {
        list.sort_by_key(|s| s.step);
        for pair in list.windows(2) {
            // Arrived at pair[1].from at pair[0].step, left at pair[1].step.
            for u in pair[0].step + 1..pair[1].step {
                waiting[pair[1].from as usize][u as usize] += 1;
            }
        }
    }
    waiting.iter().flatten().copied().max().unwrap_or(0)
}

#[test]
fn peak_buffer_agrees_with_a_brute_force_count() {
    for d in 1..=6u32 {
        let nodes = 1usize << d;
        for problem in [Problem::Exchange, Problem::Scatter, Problem::Gather] {
            let schedule = build(problem, d, None).unwrap().schedule;
            let fast = peak_buffer(&schedule, nodes).unwrap();
            assert_eq!(fast, brute_force_buffer(&schedule, nodes), "{problem} {d}");
            if problem != Problem::Exchange {
                assert_eq!(fast, 0, "furthest-first never waits");
            }
        }
        let schedule = build(Problem::Mnb, d, None).unwrap().schedule;
        assert_eq!(peak_buffer(&schedule, nodes), None);
    }
    // Out of step order, with a gap of empty steps: the same count.
    let mut schedule = build(Problem::Exchange, 4, None).unwrap().schedule;
    for s in &mut schedule.sends {
        s.step *= 2;
    }
    schedule.sends.reverse();
    assert_eq!(
        peak_buffer(&schedule, 16).unwrap(),
        brute_force_buffer(&schedule, 16)
    );
}

// ---- the command line ----

fn json_run(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["hypercube"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--format", "json"]);
    let run = txverify(&all);
    let report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (run.code, report)
}

#[test]
fn the_json_report_has_every_documented_field_and_the_table_1_figures() {
    let built = documented_fields("### `hypercube`: a schedule that was built and replayed");
    for problem in Problem::ALL {
        let d = 4;
        let (code, report) = json_run(&[problem.name(), "4"]);
        assert_eq!(code, 0, "{report}");
        let (time, sends) = table_1(problem, d);
        assert_eq!(report["schema"], "txverify-hypercube/1");
        assert_eq!(report["time"], time);
        assert_eq!(report["time_bound"], time);
        assert_eq!(report["transmissions"], sends);
        assert_eq!(report["transmissions_bound"], sends);
        assert_eq!(report["optimal_time"], true);
        assert_eq!(report["optimal_transmissions"], true);
        assert_eq!(report["valid"], true);
        assert_eq!(report["exit_code"], 0);
        let mut paths = std::collections::BTreeSet::new();
        common::cli::nested_field_paths(&report, "", &mut paths);
        if problem != Problem::Exchange {
            // buffer_free is null: its fields are listed for exchange only.
            paths.extend(
                built
                    .iter()
                    .filter(|f| f.starts_with("buffer_free."))
                    .cloned(),
            );
        }
        assert_eq!(paths, built, "{problem}");
    }
}

#[test]
fn exchange_is_compared_with_the_buffer_free_table_of_gen() {
    let (code, report) = json_run(&["exchange", "4"]);
    assert_eq!(code, 0);
    let table = &report["buffer_free"];
    assert_eq!(table["peak_buffer"], 0);
    assert!(
        report["peak_buffer"].as_u64().unwrap() > 0,
        "section 4 buffers"
    );
    // The table exported and replayed as a schedule gives the same figures.
    let dir = std::env::temp_dir().join(format!("txverify-cube-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let tbl = dir.join("h4.tbl");
    let exported = dir.join("h4.json");
    let tbl_s = tbl.to_str().unwrap();
    let exp_s = exported.to_str().unwrap();
    assert_eq!(txverify(&["gen", "hypercube", "4", "-o", tbl_s]).code, 0);
    assert_eq!(txverify(&["export", tbl_s, "-o", exp_s]).code, 0);
    let run = txverify(&["simulate", exp_s, "--format", "json"]);
    let replayed: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(replayed["valid"], true);
    assert_eq!(table["time"], replayed["time"]);
    assert_eq!(table["transmissions"], replayed["transmissions"]);
    assert_eq!(table["peak_queue"], replayed["peak_queue"]);
}

#[test]
fn a_written_schedule_replays_again_with_simulate() {
    let dir = std::env::temp_dir().join(format!("txverify-cube-o-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (problem, file) in [
        ("gather", "gather.json"),
        ("mnb", "mnb.sched"),
        ("exchange", "x.json"),
    ] {
        let path = dir.join(file);
        let path_s = path.to_str().unwrap();
        let mut args = vec![problem, "3"];
        if problem == "gather" {
            args.extend(["--root", "5"]);
        }
        args.extend(["-o", path_s]);
        let (code, report) = json_run(&args);
        assert_eq!(code, 0, "{report}");
        assert_eq!(report["schedule_file"], path_s);
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.trim_start().starts_with('{'), file.ends_with(".json"));
        let run = txverify(&["simulate", path_s, "--format", "json"]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        let again: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(again["time"], report["time"]);
        assert_eq!(again["transmissions"], report["transmissions"]);
        assert_eq!(again["collective"], report["collective"]);
    }
}

#[test]
fn bad_arguments_and_sizes_over_the_memory_budget_exit_2_and_say_why() {
    let refused = documented_fields("### `hypercube`: a run that was refused or failed");
    let cases: [(&[&str], &str); 7] = [
        (&["alltoall", "3"], "unknown problem"),
        (&["mnb", "0"], "between 1 and 16"),
        (&["mnb", "17"], "between 1 and 16"),
        (&["scatter", "3", "--root", "8"], "not a node"),
        (&["exchange", "3", "--root", "1"], "has no root"),
        (&["exchange", "16"], "needs about"),
        (&["mnb", "8", "--max-memory", "0.001"], "needs about"),
    ];
    for (args, says) in cases {
        let (code, report) = json_run(args);
        assert_eq!(code, 2, "{args:?}: {report}");
        assert_eq!(report["exit_code"], 2);
        let message = report["error"]["message"].as_str().unwrap();
        assert!(message.contains(says), "{args:?}: {message}");
        assert_eq!(field_paths(&report), refused, "{args:?}");
    }
    // The estimate is stated in the text too.
    let run = txverify(&["hypercube", "exchange", "16"]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("GiB"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn the_text_report_names_the_verdict_and_the_subtrees() {
    let run = txverify(&["hypercube", "scatter", "5", "--root", "31"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("OPTIMAL in time and in transmissions"));
    let sizes: Vec<String> = build(Problem::Scatter, 5, Some(31))
        .unwrap()
        .subtree_sizes
        .unwrap()
        .iter()
        .map(u64::to_string)
        .collect();
    assert!(run.stdout.contains(&sizes.join(" ")), "{}", run.stdout);
}

#[test]
fn deroutes_are_counted_alike_below_and_above_the_all_pairs_limit() {
    // Above 8192 nodes the replay counts deroutes by one search per destination
    // (in parallel), below by a distance table: the same sends, the same count.
    for n in [90u32, 9000] {
        let mut sends = Vec::new();
        for k in 1..=5u32 {
            let send = |from, to, destination| TimedSend {
                step: k,
                from,
                to,
                source: 0,
                destination,
            };
            sends.push(send(0, n - 1, k)); // away from k: derouted
            sends.push(send(0, 1, n - k)); // away from n − k: derouted
            sends.push(send(0, 1, k + 10)); // towards it
        }
        let schedule = Schedule {
            network: Some(NetworkName::Ring(n)),
            ports: Some(txverify_core::schedule::Ports::All),
            collective: txverify_core::schedule::Collective::Scatter(0),
            sends,
        };
        let graph = NetworkName::Ring(n).build().unwrap();
        let report = replay(&schedule, &graph, &ReplayOptions::default()).unwrap();
        assert_eq!(report.derouted(), 10, "ring {n}");
    }
}

#[test]
fn a_streamed_exchange_reports_what_the_whole_schedule_reports() {
    // Without -o the exchange is generated and replayed a step at a time; with
    // -o every send is built, written and replayed whole. Both reports must
    // agree on everything but the file and the timings.
    let dir = std::env::temp_dir().join(format!("txverify-cube-s-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for d in [1u32, 3, 6] {
        let path = dir.join(format!("x{d}.json"));
        let dim = d.to_string();
        let (code, mut streamed) = json_run(&["exchange", &dim]);
        let (code_whole, mut whole) = json_run(&["exchange", &dim, "-o", path.to_str().unwrap()]);
        assert_eq!((code, code_whole), (0, 0), "{streamed}\n{whole}");
        for report in [&mut streamed, &mut whole] {
            let object = report.as_object_mut().unwrap();
            object.remove("seconds");
            object.remove("schedule_file");
        }
        assert_eq!(streamed, whole, "exchange {d}");
        let (time, sends) = table_1(Problem::Exchange, d);
        assert_eq!(
            (
                streamed["time"].as_u64(),
                streamed["transmissions"].as_u64()
            ),
            (Some(time), Some(sends))
        );
        // Section 4 keeps up to 2^(d−2) − 1 packets waiting at a node (d ≥ 2).
        let buffer = if d >= 2 { (1u64 << (d - 2)) - 1 } else { 0 };
        assert_eq!(
            streamed["peak_buffer"].as_u64(),
            Some(buffer),
            "exchange {d}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The baselines' closed forms, derived here by counting on the d-cube
/// (N = 2^d nodes, d·2^(d−1) undirected links, Σ distances d·2^(2d−1)):
/// (single-port bound, half-duplex bound).
fn baseline_bounds(problem: Problem, d: u32) -> (u64, u64) {
    let n = 1u64 << d;
    let d64 = u64::from(d);
    match problem {
        Problem::Broadcast | Problem::Accumulate => (d64, d64),
        Problem::Scatter | Problem::Gather => (n - 1, (n - 1).div_ceil(d64)),
        Problem::Mnb => (n - 1, (2 * (n - 1)).div_ceil(d64)),
        Problem::Exchange => (d64 * n / 2, n),
    }
}

#[test]
fn single_port_schedules_replay_with_one_port_and_meet_the_single_port_bound() {
    use txverify_clients::hypercube::{bounds, single_port};
    use txverify_core::schedule::Ports;
    for d in 1..=7u32 {
        let graph = NetworkName::Hypercube(d).build().unwrap();
        for problem in Problem::ALL {
            let root = if problem.has_root() { d % (1 << d) } else { 0 };
            let schedule = single_port::build(problem, d, root);
            assert_eq!(schedule.ports, Some(Ports::Limit(1)));
            let report = replay(&schedule, &graph, &ReplayOptions::default()).unwrap();
            let what = format!("{problem} {d}");
            assert!(report.valid(), "{what}: {:?}", report.violations());
            let (single, half) = baseline_bounds(problem, d);
            assert_eq!(
                bounds::single_port_time(problem, &graph, root),
                single,
                "{what}"
            );
            assert_eq!(
                bounds::half_duplex_time(problem, &graph, root),
                half,
                "{what}"
            );
            assert_eq!(u64::from(report.time()), single, "{what}");
            assert_eq!(report.derouted(), 0, "{what}");
            // The same sends under all ports are valid too, and an all-port
            // schedule replayed with one port is not (d ≥ 2 sends on two links).
            let all_port = build(problem, d, problem.has_root().then_some(root)).unwrap();
            let mut squeezed = all_port.schedule.clone();
            squeezed.ports = Some(Ports::Limit(1));
            let squeezed = replay(&squeezed, &graph, &ReplayOptions::default()).unwrap();
            let one_port_already = matches!(problem, Problem::Broadcast | Problem::Accumulate);
            assert_eq!(squeezed.valid(), d == 1 || one_port_already, "{what}");
        }
    }
}

#[test]
fn the_report_shows_the_all_port_gain_over_both_baselines() {
    for problem in Problem::ALL {
        let d = 5u32;
        let (code, report) = json_run(&[problem.name(), "5"]);
        assert_eq!(code, 0, "{report}");
        let (single, half) = baseline_bounds(problem, d);
        let b = &report["baselines"];
        assert_eq!(
            b["single_port"]["time_bound"].as_u64(),
            Some(single),
            "{problem}"
        );
        assert_eq!(b["single_port"]["time"].as_u64(), Some(single), "{problem}");
        assert_eq!(b["single_port"]["replayed"], true);
        assert_eq!(b["single_port"]["optimal_time"], true);
        assert_eq!(
            b["half_duplex"]["time_bound"].as_u64(),
            Some(half),
            "{problem}"
        );
        let all_port = table_1(problem, d).0 as f64;
        let gain = b["single_port"]["all_port_gain"].as_f64().unwrap();
        assert!((gain - single as f64 / all_port).abs() < 1e-9, "{problem}");
        let split = b["half_duplex"]["time"].as_u64().unwrap();
        assert!(split >= half, "{problem}: {split} below the bound {half}");
    }
    let run = txverify(&["hypercube", "exchange", "3"]);
    assert!(
        run.stdout.contains("single port   time 12, lower bound 12"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("half duplex   time 8, lower bound 8"),
        "{}",
        run.stdout
    );
}
