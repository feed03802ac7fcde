//! MSCCL programs on fabrics: `export --format msccl` of a schedule that
//! uses a doubled link twice in one step puts the two sends on parallel
//! channels and thread blocks, and the program reads back VALID as the
//! collective on the fabric; `check PROGRAM.xml --network FABRIC` counts each
//! step's chunks per link against its capacity and the switch limits, and
//! names the step of every violation.

use crate::common::cli::{file, txverify};
use std::path::{Path, PathBuf};

/// `export SCHED --format msccl` next to `sched`; the program's path.
fn export(sched: &Path) -> PathBuf {
    let xml = sched.with_extension("xml");
    let run = txverify(&[
        "export",
        sched.to_str().unwrap(),
        "--format",
        "msccl",
        "-o",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "export {}: {}", sched.display(), run.stderr);
    xml
}

/// The JSON report of `check XML --network NET`, and its exit status.
fn check_on(xml: &Path, network: &str) -> (serde_json::Value, i32) {
    let run = txverify(&[
        "check",
        xml.to_str().unwrap(),
        "--format",
        "json",
        "--network",
        network,
    ]);
    let report = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (report, run.code)
}

#[test]
fn an_allgather_on_the_dgx1_exports_valid_on_its_doubled_links() {
    let sched = file(
        "dgx1.sched",
        &std::fs::read_to_string("examples/schedules/dgx1-allgather-3steps.sched").unwrap(),
    );
    let xml = export(&sched);
    let (report, code) = check_on(&xml, "dgx1");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["valid"], true);
    assert_eq!(report["collective"], "allgather");
    // Two sends of one step on a doubled link are two connections.
    let connections = report["figures"]["connections"].as_array().unwrap();
    let on_4_0 = connections
        .iter()
        .filter(|c| c["from"] == 4 && c["to"] == 0)
        .count();
    assert_eq!(on_4_0, 2, "{connections:?}");
    // In steps on the fabric: the schedule's 3, every capacity kept.
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["fits"], true, "{fabric}");
    assert_eq!(fabric["steps"], 3);
    assert_eq!(fabric["busiest_step_load"], 2);
}

/// An allgather in 3 chunks on two GPUs joined by a link of capacity 3 (each
/// way), all in step 1; exported as MSCCL (three lanes a direction). The
/// directory's path.
fn three_lanes() -> PathBuf {
    let cap3 = file("cap3.edges", "0 1 3\n");
    let sched = file(
        "three.sched",
        &format!(
            "network: edges {}\nports: all\ncollective: allgather\nchunks: 3\nsends:\n\
             1 0 1 0 *\n1 0 1 0 * 1\n1 0 1 0 * 2\n1 1 0 1 *\n1 1 0 1 * 1\n1 1 0 1 * 2\n",
            cap3.display()
        ),
    );
    export(&sched)
}

#[test]
fn a_step_over_a_links_capacity_is_named_with_its_step() {
    let xml = three_lanes();
    let dir = xml.parent().unwrap();
    let (fits, _) = check_on(&xml, &format!("edges {}", dir.join("cap3.edges").display()));
    assert_eq!(fits["network"]["fabric"]["fits"], true, "{fits}");
    assert_eq!(fits["network"]["fabric"]["steps"], 1);
    let cap2 = file("cap2.edges", "0 1 2\n");
    let (report, code) = check_on(&xml, &format!("edges {}", cap2.display()));
    // The program is still a right allgather; it does not fit the fabric.
    assert_eq!((code, &report["valid"]), (0, &serde_json::json!(true)));
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["fits"], false, "{fabric}");
    assert_eq!(fabric["violation_count"], 2);
    assert_eq!(
        fabric["violations"][0],
        serde_json::json!({"kind": "over-capacity", "step": 1, "from": 0, "to": 1,
                           "chunks": 3, "capacity": 2})
    );
    let text = txverify(&[
        "check",
        xml.to_str().unwrap(),
        "--network",
        &format!("edges {}", cap2.display()),
    ]);
    assert!(
        text.stdout
            .contains("over-capacity at step 1: link 0→1 carries 3 chunks, capacity 2"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_step_over_a_switch_limit_is_named_with_its_step() {
    let xml = three_lanes();
    // msccl-tools' topology: links[dst][src]; GPU 0 may send 2 chunks a step to 1.
    let topology = file(
        "limited.json",
        r#"{"msccl_type": "topology", "name": "pair", "links": [[0, 3], [3, 0]],
            "switches": [[[0], [1], 2, "out_0"]]}"#,
    );
    let (report, _) = check_on(&xml, topology.to_str().unwrap());
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["violation_count"], 1, "{fabric}");
    assert_eq!(
        fabric["violations"][0],
        serde_json::json!({"kind": "switch-limit", "step": 1, "limit": "out_0",
                           "chunks": 3, "sends": 2})
    );
}

#[test]
fn a_fabric_times_a_program_with_its_link_times_and_capacities() {
    let xml = three_lanes();
    // Its own α and β, no flags: timed; the three lanes cross at once.
    let timed = file("timed.edges", "0 1 3 alpha=5 beta=2\n");
    let (report, code) = check_on(&xml, &format!("edges {}", timed.display()));
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["timed"]["completion"], 7.0, "{}", report["timed"]);
    // The bound still holds: never above the completion.
    let bound = report["timed"]["bound"].as_f64().unwrap();
    assert!(bound <= 7.0, "{}", report["timed"]);
    // On a single link the three messages queue: 3 × (5 + 2).
    let single = file("single.edges", "0 1 1 alpha=5 beta=2\n");
    let (report, _) = check_on(&xml, &format!("edges {}", single.display()));
    assert_eq!(report["timed"]["completion"], 21.0, "{}", report["timed"]);
}
