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

/// The commands whose `--help` offers `--format json` (`lcc map`, …), found by
/// walking the help pages as a user would.
fn commands_with_json_format() -> Vec<Vec<String>> {
    fn subcommands(path: &[String]) -> Vec<String> {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = txverify(&args).stdout;
        help.lines()
            .skip_while(|l| l.trim() != "Commands:")
            .skip(1)
            .take_while(|l| !l.trim().is_empty())
            .filter_map(|l| l.split_whitespace().next())
            .filter(|name| *name != "help")
            .map(str::to_string)
            .collect()
    }
    fn offers_json(path: &[String]) -> bool {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = txverify(&args).stdout;
        let mut lines = help
            .lines()
            .skip_while(|l| !l.trim_start().starts_with("--format <"));
        lines.next().is_some()
            && lines
                // The option's description and values are indented deeper than
                // the next option.
                .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > 6)
                .any(|l| l.trim_start().starts_with("- json"))
    }
    let mut found = Vec::new();
    for name in subcommands(&[]) {
        let path = vec![name];
        let deeper = subcommands(&path);
        if deeper.is_empty() {
            if offers_json(&path) {
                found.push(path);
            }
        } else {
            for sub in deeper {
                let path = vec![path[0].clone(), sub];
                if offers_json(&path) {
                    found.push(path);
                }
            }
        }
    }
    found
}

/// The arguments that make the command `path` read (or write) `file`.
fn reading(path: &[String], file: &str) -> Vec<String> {
    let words: &[&str] = match path.join(" ").as_str() {
        "check" | "simulate" | "search" | "export" | "bounds" | "infer" => &["FILE"],
        "verify-proof" => &["FILE", "FILE"],
        "verify-bound" => &["--network", "ring 4", "FILE"],
        "compare" => &["edges FILE"],
        "lcc contention" | "lcc reorder" | "lcc map" | "lcc simulate" => &["FILE"],
        // Commands that read no file write one: a path under a file, or in a
        // missing directory, cannot be written.
        "gen" => &["ring", "4", "-o", "FILE/x.tbl"],
        "hypercube" => &["exchange", "3", "-o", "FILE/x.json"],
        "compose" => &["a1", "ring", "4", "-o", "FILE/x.json"],
        other => panic!("`{other}` has --format json: say here which file it reads"),
    };
    path.iter()
        .cloned()
        .chain(words.iter().map(|w| w.replace("FILE", file)))
        .collect()
}

#[test]
fn every_command_with_json_format_prints_the_error_object_on_every_failure() {
    let commands = commands_with_json_format();
    assert!(commands.len() >= 15, "{commands:?}");
    // A DIMACS formula is no command's input here (verify-proof reads it
    // only after --cnf).
    let wrong_kind = file("formula.cnf", "p cnf 1 1\n1 0\n");
    let wrong_kind = wrong_kind.to_str().unwrap();
    let missing = "/nonexistent/input.tbl";
    for path in &commands {
        let cases = [
            reading(path, wrong_kind),
            reading(path, missing),
            // A usage error: clap refuses the value before the command runs.
            [reading(path, missing), vec!["--no-such-option".to_string()]].concat(),
        ];
        for mut args in cases {
            args.extend(["--format".to_string(), "json".to_string()]);
            let words: Vec<&str> = args.iter().map(String::as_str).collect();
            let run = txverify(&words);
            assert_eq!(run.code, 2, "{words:?}: {}", run.stderr);
            assert_eq!(
                run.stdout.lines().count(),
                1,
                "{words:?}: not one line on standard output:\n{}\nstderr: {}",
                run.stdout,
                run.stderr
            );
            let object = error_object(&run);
            let schema = object["schema"].as_str().unwrap_or_default();
            assert!(schema.starts_with("txverify-"), "{words:?}: {object}");
            assert!(
                !object["error"]["message"].as_str().unwrap().is_empty(),
                "{words:?}: {object}"
            );
        }
    }
}

#[test]
fn a_refused_timing_value_of_an_msccl_check_prints_the_error_object() {
    // The MSCCL checker writes its report as an empty text when it stops
    // early: that must not count as a report.
    let run = txverify(&[
        "check",
        "tests/golden/torus3x4.msccl.xml",
        "--network",
        "torus 3 4",
        "--alpha",
        "1",
        "--beta",
        "NaN",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let object = error_object(&run);
    assert_eq!(object["schema"], "txverify-msccl/2", "{object}");
    assert!(
        object["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--beta"),
        "{object}"
    );
}
