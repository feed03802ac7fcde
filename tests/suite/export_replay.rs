//! The example `replay_export` (examples/replay_export.rs), run as a program on
//! exports of published tables, must accept them; on exports corrupted in each
//! way a runtime could go wrong it must refuse them, naming the fault.

use crate::common;

use common::cli::{Run, file, txverify};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Builds the example with the profile of this test binary (cheap when it is up
/// to date) and returns its path.
fn replay_export_binary() -> PathBuf {
    let me = std::env::current_exe().unwrap();
    // target/<profile>/deps/export_replay-HASH
    let profile_dir = me.parent().unwrap().parent().unwrap();
    let profile = profile_dir.file_name().unwrap().to_str().unwrap();
    let target_dir = profile_dir.parent().unwrap();
    let mut build = Command::new(env!("CARGO"));
    build
        .args(["build", "--quiet", "--example", "replay_export"])
        .arg("--target-dir")
        .arg(target_dir);
    match profile {
        "debug" => {}
        "release" => {
            build.arg("--release");
        }
        other => {
            build.args(["--profile", other]);
        }
    }
    let status = build.status().expect("cargo runs");
    assert!(status.success(), "the example builds");
    let binary = profile_dir.join("examples").join("replay_export");
    assert!(binary.exists(), "{}", binary.display());
    binary
}

fn run(binary: &Path, file: &Path) -> Run {
    let output = Command::new(binary).arg(file).output().unwrap();
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `txverify export TABLE` as a JSON value.
fn export(table: &str) -> Value {
    let Run { code, stdout, .. } = txverify(&["export", table]);
    assert_eq!(code, 0, "{table}");
    serde_json::from_str(&stdout).unwrap()
}

fn sends(export: &mut Value) -> &mut Vec<Value> {
    export["sends"].as_array_mut().unwrap()
}

#[test]
fn published_exports_replay_valid_and_corrupted_ones_are_refused() {
    let binary = replay_export_binary();
    for (table, nodes, sends_expected) in [
        ("tables/ring6-dihedral-total.tbl", 6, 6 * 9),
        ("tables/ring9-cyclic.tbl", 9, 9 * 20),
        ("tables/hypercube4-a.tbl", 16, 16 * 32),
        ("tables/mesh5.tbl", 25, 25 * 60),
        ("tables/found/torus3x4.tbl", 12, 12 * 20),
    ] {
        let exported = export(table);
        assert_eq!(exported["sends"].as_array().unwrap().len(), sends_expected);
        let path = file("replay.json", &exported.to_string());
        let Run { code, stdout, .. } = run(&binary, &path);
        assert_eq!(code, 0, "{table}: {stdout}");
        assert!(stdout.contains(": VALID on "), "{stdout}");
        assert!(
            stdout.contains(&format!("exactly the {} messages", nodes - 1)),
            "{stdout}"
        );
        assert!(stdout.ends_with('\n'));
    }

    // One corruption per rule, on the 5 × 5 torus (first send: step 1 from 0).
    let base = export("tables/mesh5.tbl");
    let first = base["sends"][0].clone();
    let (from, to) = (
        first["from"].as_u64().unwrap(),
        first["to"].as_u64().unwrap(),
    );
    let mut cases: Vec<(&str, Value)> = Vec::new();

    let mut e = base.clone();
    sends(&mut e)[0]["to"] = Value::from(12); // 0 and 12 = (2, 2) are not neighbours
    cases.push(("are not neighbours", e));

    let mut e = base.clone();
    sends(&mut e).remove(0);
    cases.push(("not at their destination", e));

    let mut e = base.clone();
    let last = sends(&mut e).last().unwrap().clone();
    sends(&mut e).push(last); // the same message twice at its last step
    cases.push(("sent twice in one step", e));

    // A forward moved to the step of the hop that brings the message: the
    // sender does not hold it yet.
    let mut e = base.clone();
    let all = sends(&mut e);
    let forward = (0..all.len())
        .find(|&i| all[i]["from"] != all[i]["source"])
        .unwrap();
    let step = all[forward]["step"].as_u64().unwrap();
    all[forward]["step"] = Value::from(step - 1);
    cases.push(("at the start of the step", e));

    // A second message on the first send's link in its step.
    let mut e = base.clone();
    let all = sends(&mut e);
    let other = all
        .iter()
        .position(|s| s["step"] == 1 && s["from"] == from && s["to"] != to)
        .unwrap();
    all[other]["to"] = Value::from(to);
    cases.push(("carries 2 messages", e));

    // The all-port table declared single-port.
    let mut e = base.clone();
    e["ports"] = Value::from(1);
    cases.push(("(ports 1)", e));

    for (fault, corrupted) in cases {
        let path = file("corrupted.json", &corrupted.to_string());
        let Run { code, stdout, .. } = run(&binary, &path);
        assert_eq!(code, 1, "{fault}: {stdout}");
        assert!(stdout.contains(": INVALID on "), "{fault}: {stdout}");
        assert!(stdout.contains(fault), "{fault}: {stdout}");
    }

    // Not a schedule at all, or one it cannot read: exit 2.
    for (text, message) in [
        ("{\"schema\": \"txverify-schedule/1\"", "EOF"),
        (
            "{\"schema\": \"other/1\", \"network\": \"ring 3\", \"ports\": \"all\", \"collective\": \"total-exchange\", \"sends\": []}",
            "not txverify-schedule/1",
        ),
        (
            "{\"schema\": \"txverify-schedule/1\", \"network\": \"star 4\", \"ports\": \"all\", \"collective\": \"total-exchange\", \"sends\": []}",
            "not one this replay knows",
        ),
    ] {
        let path = file("unreadable.json", text);
        let Run { code, stderr, .. } = run(&binary, &path);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
}
