//! `txverify lcc` from the command line: every JSON field against
//! docs/json.md, exit statuses, the files `simulate` writes, and the examples
//! of README.md and docs/lcc.md against the binary's real output.

use crate::common;

use common::cli::{documented_fields, file, nested_field_paths, txverify};
use std::collections::BTreeSet;
use txverify_clients::lcc::contention::{self, by_enumeration};
use txverify_clients::lcc::spec;

fn json_of(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["lcc"];
    all.extend_from_slice(args);
    all.extend(["--format", "json"]);
    let run = txverify(&all);
    let value = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{all:?}: {e}: {} / {}", run.stdout, run.stderr));
    (run.code, value)
}

fn assert_documented(value: &serde_json::Value, heading: &str) {
    let mut written = BTreeSet::new();
    nested_field_paths(value, "", &mut written);
    assert_eq!(written, documented_fields(heading), "{heading}");
}

#[test]
fn contention_and_reorder_json() {
    let (code, v) = json_of(&["contention", "transpose:8"]);
    assert_eq!(code, 0);
    assert_eq!(
        v["per_dimension"],
        serde_json::json!([1, 2, 4, 8, 8, 4, 2, 1])
    );
    assert_eq!(
        (v["contention"].as_u64(), v["class"].as_str()),
        (Some(8), Some("LCP"))
    );
    assert_documented(&v, "## Schema `txverify-lcc-contention/1`");
    let (code, v) = json_of(&["reorder", "transpose:8"]);
    assert_eq!(code, 0);
    assert_eq!(v["order"], serde_json::json!([0, 4, 2, 6, 1, 5, 3, 7]));
    assert_eq!(v["per_dimension"], serde_json::json!(vec![1; 8]));
    assert_eq!(v["contention"], 1);
    assert_documented(&v, "## Schema `txverify-lcc-reorder/1`");
}

#[test]
fn map_json_gives_each_communication_its_contention_after_the_mapping() {
    let (code, v) = json_of(&["map", "transpose:8", "bit-reverse:8"]);
    assert_eq!(code, 0);
    assert_eq!(
        (v["objective"].as_str(), v["value"].as_u64()),
        (Some("lex"), Some(2))
    );
    let order: Vec<usize> = serde_json::from_value(v["order"].clone()).unwrap();
    for (k, name) in ["transpose", "bit-reverse"].iter().enumerate() {
        let after = spec::builtin(name, 8).unwrap().reordered(&order);
        let counted = by_enumeration(&after).unwrap().per_dimension();
        assert_eq!(
            v["communications"][k]["contention"],
            contention::degree(&counted)
        );
    }
    assert_documented(&v, "## Schema `txverify-lcc-map/1`");
    let (code, v) = json_of(&["map", "transpose:8", "transpose:6"]);
    assert_eq!(code, 2);
    assert_eq!(v["exit_code"], 2);
}

#[test]
fn simulate_json_csv_and_svg() {
    let csv = file("curves.csv", "");
    let svg = file("curves.svg", "");
    let (code, v) = json_of(&[
        "simulate",
        "transpose:4",
        "--flits",
        "4",
        "--loads",
        "0.1,0.9",
        "--warmup",
        "100",
        "--measure",
        "500",
        "--drain",
        "500",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{v}");
    assert_documented(&v, "## Schema `txverify-lcc-simulate/2`");
    assert_eq!(v["points"].as_array().unwrap().len(), 4);
    let lines = std::fs::read_to_string(&csv).unwrap().lines().count();
    assert_eq!(lines, 1 + 4);
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(picture.starts_with("<svg") && picture.trim_end().ends_with("</svg>"));
    assert_eq!(picture.matches("<polyline").count(), 2);
}

#[test]
fn input_errors_exit_2_with_place_and_reason() {
    let bad = file("ragged.lcc", "0 1\n1 0 1\n");
    let run = txverify(&["lcc", "contention", bad.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("ragged.lcc:2:5: error: this row has 3 entries"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(" 2 | 1 0 1\n   |     ^"),
        "{}",
        run.stderr
    );
    let (code, v) = json_of(&["reorder", "transpose:7"]);
    assert_eq!(code, 2);
    let mut written = BTreeSet::new();
    nested_field_paths(&v, "", &mut written);
    let expected: BTreeSet<String> = ["schema", "spec", "error", "error.message", "exit_code"]
        .map(String::from)
        .into();
    assert_eq!(written, expected);
    let run = txverify(&["lcc", "simulate", "transpose:4", "--order", "0,1,1,3"]);
    assert_eq!(run.code, 2);
    let run = txverify(&["lcc", "contention", "/nonexistent/x.lcc"]);
    assert_eq!(run.code, 2);
}

/// The `$ txverify lcc …` examples of a document whose arguments are built-ins,
/// with the output lines shown (up to a line `…`).
fn shown_examples(doc: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut out: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut in_block = false;
    let mut current: Option<(Vec<String>, Vec<String>, bool)> = None;
    for line in doc.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
            if let Some((args, lines, _)) = current.take() {
                out.push((args, lines));
            }
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ txverify lcc ") {
            if let Some((args, lines, _)) = current.take() {
                out.push((args, lines));
            }
            let args: Vec<String> = command.split_whitespace().map(String::from).collect();
            let builtins_only = args
                .iter()
                .skip(1)
                .all(|a| a.contains(':') || a.starts_with('-'));
            current = builtins_only.then(|| (args, Vec::new(), false));
        } else if let Some((_, lines, cut)) = current.as_mut() {
            if line.trim() == "…" {
                *cut = true;
            } else if !*cut {
                lines.push(line.to_string());
            }
        }
    }
    out
}

#[test]
fn the_documented_examples_are_the_real_output() {
    let mut checked = 0;
    for doc in ["README.md", "docs/lcc.md"] {
        let text = std::fs::read_to_string(doc).unwrap();
        for (args, shown) in shown_examples(&text) {
            let mut all = vec!["lcc"];
            all.extend(args.iter().map(String::as_str));
            let run = txverify(&all);
            let real: Vec<&str> = run.stdout.lines().take(shown.len()).collect();
            assert_eq!(real, shown, "{doc}: txverify {}", all.join(" "));
            checked += 1;
        }
    }
    assert!(checked >= 4, "{checked} examples");
}

#[test]
fn a_simulation_that_measures_nothing_is_refused() {
    // `--measure 0` used to be run as 1 cycle without a word; it is a bad argument.
    let run = txverify(&["lcc", "simulate", "transpose:4", "--measure", "0"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--measure"), "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}
