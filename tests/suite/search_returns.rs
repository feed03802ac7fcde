//! What `search --network` hands back is what it judged: every way a caller
//! gets the schedule (the `-o` file in either format, the library's report
//! that the Python package reads, the MSCCL program exported from the file) is
//! replayed again here, and must give the search report's verdict, time and
//! number of sends. The networks are small enough for SAT to end at once;
//! torus 3 3 is the case where SAT beats the heuristic (4 → 3 steps).

use crate::common::cli::{file, txverify};
use serde_json::Value;
use std::path::Path;
use txverify_clients::report::network_search::{NetworkSearchRequest, search_network};
use txverify_core::network::NetworkName;
use txverify_core::schedule::{ReplayOptions, replay, write_json};
use txverify_core::verdict::judge;
use txverify_search::SolverChoice;
use txverify_search::schedule::PathClass;

const NETWORKS: [&str; 3] = ["ring 5", "torus 3 3", "mesh 2 3"];

fn json_of(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// `search --network NET [--heuristic] -o OUT --format json`: its report.
fn searched(network: &str, heuristic: bool, out: &Path) -> Value {
    let mut args = vec!["search", "--network", network, "-o", out.to_str().unwrap()];
    if heuristic {
        args.push("--heuristic");
    }
    args.extend(["--format", "json"]);
    let run = txverify(&args);
    assert_eq!(run.code, 0, "{network}: {}{}", run.stdout, run.stderr);
    let report = json_of(&run.stdout);
    assert_eq!(report["found"], true, "{report}");
    assert_eq!(report["valid"], true, "{report}");
    report
}

/// The search report's claims that a replay of its schedule must repeat.
fn claims(report: &Value) -> (bool, u64, u64) {
    (
        report["valid"].as_bool().unwrap(),
        report["time"].as_u64().unwrap(),
        report["transmissions"].as_u64().unwrap(),
    )
}

#[test]
fn the_file_search_writes_replays_to_the_verdict_it_reports() {
    for network in NETWORKS {
        for heuristic in [false, true] {
            for name in ["found.sched", "found.json"] {
                let out = file(name, "");
                let report = searched(network, heuristic, &out);
                let run = txverify(&["simulate", out.to_str().unwrap(), "--format", "json"]);
                assert_eq!(
                    run.code, 0,
                    "{network} {name}: {}{}",
                    run.stdout, run.stderr
                );
                let replayed = json_of(&run.stdout);
                assert_eq!(
                    claims(&replayed),
                    claims(&report),
                    "{network}, heuristic {heuristic}, {name}"
                );
                assert_eq!(replayed["network"], report["network"]);
            }
        }
    }
}

#[test]
fn the_msccl_program_of_the_file_search_writes_is_the_schedule_it_reports() {
    for network in NETWORKS {
        for heuristic in [false, true] {
            let out = file("found.json", "");
            let report = searched(network, heuristic, &out);
            let xml = out.with_extension("xml");
            let run = txverify(&[
                "export",
                out.to_str().unwrap(),
                "--format",
                "msccl",
                "-o",
                xml.to_str().unwrap(),
            ]);
            assert_eq!(run.code, 0, "{network}: {}", run.stderr);
            let run = txverify(&["check", xml.to_str().unwrap(), "--format", "json"]);
            assert_eq!(run.code, 0, "{network}: {}{}", run.stdout, run.stderr);
            let checked = json_of(&run.stdout);
            assert_eq!(checked["valid"], true, "{checked}");
            assert_eq!(checked["ngpus"], report["nodes"], "{checked}");
            // One chunk per send: the program moves what the schedule sends.
            assert_eq!(
                checked["figures"]["chunks_sent"], report["transmissions"],
                "{network}, heuristic {heuristic}"
            );
        }
    }
}

/// The request the Python package makes: no `-o`, the schedule read from
/// the report.
fn in_memory(network: &str, heuristic: bool) -> NetworkSearchRequest {
    NetworkSearchRequest {
        network: network.parse::<NetworkName>().unwrap(),
        words: network.to_string(),
        heuristic,
        paths: PathClass::Shortest,
        solver: SolverChoice::Cadical,
        time: None,
        max_time: None,
        max_variables: txverify_search::schedule::encode::MAX_VARIABLES,
        time_limit: None,
        deadline: None,
        interrupt: None,
        certificate: None,
        descending: true,
        output: None,
        lp: true,
        keep_schedule: true,
    }
}

#[test]
fn the_schedule_a_report_holds_replays_to_the_verdict_it_reports() {
    for network in NETWORKS {
        for heuristic in [false, true] {
            let report = search_network(&in_memory(network, heuristic), &mut |_| {})
                .unwrap_or_else(|e| panic!("{network}: {}", e.failure.message));
            let claimed = claims(report.json());
            let schedule = report
                .schedule()
                .unwrap_or_else(|| panic!("{network}, heuristic {heuristic}: no schedule held"));
            let graph = schedule.network.as_ref().unwrap().build().unwrap();
            let replayed = replay(schedule, &graph, &ReplayOptions { max_listed: 10 }).unwrap();
            let verdict = judge(&replayed, None, None);
            assert_eq!(
                (
                    verdict.valid(),
                    u64::from(verdict.time()),
                    schedule.sends.len() as u64
                ),
                claimed,
                "{network}, heuristic {heuristic}"
            );
            // And as the Python package hands it over: JSON, read back by `simulate`.
            let mut text = Vec::new();
            write_json(schedule, &mut text).unwrap();
            let path = file("held.json", std::str::from_utf8(&text).unwrap());
            let run = txverify(&["simulate", path.to_str().unwrap(), "--format", "json"]);
            assert_eq!(run.code, 0, "{network}: {}{}", run.stdout, run.stderr);
            assert_eq!(claims(&json_of(&run.stdout)), claimed, "{network}");
        }
    }
}
