//! `txverify simulate --algorithm fifo`: the FIFO schedule is replayed on the
//! Cayley graph and its completion time compared with the status, both computed
//! here again by a breadth-first search of the group (not the binary's).

use crate::common;
use crate::fifo_replay;

use common::cli::{documented_fields, field_paths};

use fifo_replay::{Net, ccc, pancake, star};
use std::process::Command;
use txverify_core::load::load;

fn run_fifo(net: &Net, order: &str) -> (i32, serde_json::Value) {
    let dir = std::env::temp_dir().join(format!("txverify-fifo-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{}.tbl", net.name.replace(' ', "-")));
    std::fs::write(&path, format!("{}\ntable:\n", net.header)).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(["simulate", "--algorithm", "fifo", "--order", order])
        .args(["--format", "json"])
        .arg(&path)
        .output()
        .expect("the binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let report = serde_json::from_str(stdout.trim()).expect("one JSON object");
    (output.status.code().unwrap_or(-1), report)
}

fn status_of(net: &Net) -> u64 {
    let loaded = load(&format!("{}\ntable:\n", net.header), &Default::default()).unwrap();
    fifo_replay::status(loaded.instance.group(), loaded.instance.links())
}

#[test]
fn fifo_reaches_the_status_on_star_pancake_and_ccc() {
    for net in [star(4), pancake(4), ccc(3)] {
        for order in ["closest", "furthest"] {
            let (code, report) = run_fifo(&net, order);
            let status = status_of(&net);
            assert_eq!(code, 0, "{}: {report}", net.name);
            assert_eq!(report["schema"], "txverify-fifo/2");
            assert_eq!(report["status"], status, "{}", net.name);
            assert_eq!(report["completion_time"], status, "{}", net.name);
            assert_eq!(report["optimal"], true);
            assert_eq!(report["valid"], true);
            assert_eq!(report["derouted"], 0);
            assert_eq!(report["nodes"], net.order);
            // Every node sends every message over every hop: n · status sends.
            assert_eq!(report["transmissions"], net.order as u64 * status);
        }
    }
}

#[test]
fn every_field_is_documented_and_every_documented_field_written() {
    let (_, report) = run_fifo(&star(4), "closest");
    assert_eq!(
        field_paths(&report),
        documented_fields("## Schema `txverify-fifo/2`")
    );
}

#[test]
fn a_defective_link_set_is_rejected_as_check_and_simulate_reject_it() {
    // `a` alone does not generate C_3 × C_3: the Cayley graph is disconnected.
    let header = "group: <a, b | a^3, b^3, [a, b]>\nlinks: a a'";
    let net = Net {
        name: "disconnected".into(),
        header: header.into(),
        order: 9,
        diameter: None,
    };
    let (code, report) = run_fifo(&net, "closest");
    assert_eq!(code, 1);
    assert_eq!(report["exit_code"], 1);
    assert!(report["error"]["message"].is_string());
    // The table commands give the same status for the same link set.
    let file = common::cli::file("disconnected.tbl", &format!("{header}\ntable:\na\n"));
    for command in ["check", "simulate"] {
        let run = common::cli::txverify(&[command, file.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{command}: {}", run.stderr);
    }
}
