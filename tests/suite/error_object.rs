//! The one JSON error object (docs/json.md, "Shared shapes"): every command
//! that stops without its report writes `error.message`, its subject, its
//! `schema` and `exit_code`, with the members of each object in alphabetical
//! order, and the exit status is the object's `exit_code`.

use crate::common::cli::{Run, file, txverify};
use serde_json::Value;

/// The error object a failed run printed, after checking that the exit status
/// is its `exit_code` and that its members come in alphabetical order.
fn error_object(run: &Run) -> Value {
    let line = run.stdout.lines().last().unwrap_or_default();
    let object: Value = serde_json::from_str(line)
        .unwrap_or_else(|e| panic!("not one JSON line ({e}): {}", run.stdout));
    assert_eq!(
        object["exit_code"].as_i64(),
        Some(i64::from(run.code)),
        "{object}"
    );
    assert!(object["error"]["message"].is_string(), "{object}");
    let keys: Vec<&str> = line_keys(line);
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    assert_eq!(keys, sorted, "members out of order: {line}");
    object
}

/// The top-level member names of a one-line JSON object, in written order.
fn line_keys(line: &str) -> Vec<&str> {
    let object: serde_json::Map<String, Value> = serde_json::from_str(line).expect("a JSON object");
    let mut found: Vec<(usize, &str)> = object
        .keys()
        .map(|key| {
            let needle = format!("\"{key}\":");
            let at = line.find(&needle).expect("the key is written");
            (at, &line[at + 1..at + 1 + key.len()])
        })
        .collect();
    found.sort_unstable();
    found.into_iter().map(|(_, key)| key).collect()
}

#[test]
fn lcc_failures_name_their_spec() {
    let run = txverify(&["lcc", "contention", "no-such:4", "--format", "json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let object = error_object(&run);
    assert_eq!(object["spec"], "no-such:4");
    assert_eq!(object["schema"], "txverify-lcc-contention/1");
    let run = txverify(&[
        "lcc",
        "map",
        "transpose:4",
        "--weights",
        "x",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    // `lcc map` names its SPECs as a list under `spec`.
    assert_eq!(
        error_object(&run)["spec"],
        serde_json::json!(["transpose:4"])
    );
}

#[test]
fn infer_and_schedule_failures_are_placed_in_their_file() {
    let missing = txverify(&["infer", "/nonexistent/grid.tbl", "--format", "json"]);
    assert_eq!(missing.code, 2);
    let object = error_object(&missing);
    assert_eq!(object["file"], "/nonexistent/grid.tbl");
    assert!(object["error"]["line"].is_null() && object["error"]["column"].is_null());
    let garbled = file(
        "garbled.sched",
        "network: ring 4\nports: all\ncollective: broadcast 0\nsends:\n1 0 x 0 *\n",
    );
    let run = txverify(&["simulate", garbled.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let object = error_object(&run);
    assert_eq!(object["schema"], "txverify-schedule-report/1");
    assert_eq!(object["error"]["line"], 5, "{object}");
}

#[test]
fn search_failures_keep_their_exit_status() {
    let run = txverify(&["search", "/nonexistent/x.tbl", "--format", "json"]);
    assert_eq!(run.code, 2);
    let object = error_object(&run);
    assert_eq!(object["schema"], "txverify-search/2");
    assert_eq!(object["file"], "/nonexistent/x.tbl");
}
