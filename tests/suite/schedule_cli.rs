//! Schedules on the command line: exit codes and diagnostics of `simulate` and
//! `schedule convert`, and the examples of docs/schedule.md.

use crate::common;

use common::cli::txverify;
use txverify_core::schedule::parse;

fn file(name: &str, text: &str) -> String {
    common::cli::file(name, text).to_str().unwrap().to_string()
}

const EXAMPLE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/schedules/ring4-total.sched"
);

#[test]
fn cli_exit_zero_for_a_valid_schedule() {
    let r = txverify(&["simulate", EXAMPLE]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("VALID"), "{}", r.stdout);
    let r = txverify(&["simulate", EXAMPLE, "--format", "json"]);
    assert_eq!(r.code, 0);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["schema"], "txverify-schedule-report/1");
    assert_eq!(v["valid"], true);
    assert_eq!(v["time"], 2);
    assert_eq!(v["transmissions"], 16);
    assert_eq!(v["bytes_per_send"], 20);
    assert_eq!(v["link_use"].as_array().unwrap().len(), 2);
}

#[test]
fn cli_exit_one_for_violations_and_overrides() {
    // ring4-total needs two ports: with one, every node sends two packets per step.
    let r = txverify(&["simulate", EXAMPLE, "--ports", "1", "--format", "json"]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["valid"], false);
    assert!(v["violation_counts"]["send-ports"].as_u64().unwrap() > 0);
    assert_eq!(v["violations"][0]["step"], 1);
    // The same sends on a 4-node linear array use a link that is not there.
    let r = txverify(&["simulate", EXAMPLE, "--network", "linear 4"]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("not-a-link"), "{}", r.stdout);
    // A file without a network needs --network.
    let bare = file(
        "bare.sched",
        "ports: 1\ncollective: scatter 0\nsends:\n1 0 1 0 1\n",
    );
    assert_eq!(txverify(&["simulate", &bare]).code, 2);
    assert_eq!(
        txverify(&["simulate", &bare, "--network", "linear 2"]).code,
        0
    );
    assert_eq!(
        txverify(&["simulate", &bare, "--network", "linear 3"]).code,
        1
    );
    assert_eq!(
        txverify(&["simulate", &bare, "--network", "lattice 3"]).code,
        2
    );
}

#[test]
fn cli_exit_two_with_a_caret() {
    let bad = file(
        "bad.sched",
        "network: ring 4\nports: 1\ncollective: mnb\nsends:\n1 0 1 0 *\n2 1 two 0 *\n",
    );
    let r = txverify(&["simulate", &bad]);
    assert_eq!(r.code, 2);
    let expected =
        format!("{bad}:6:5: error: `two` is not a number\n 6 | 2 1 two 0 *\n   |     ^^^\n");
    assert_eq!(r.stderr, expected);
    let json = file(
        "bad.json",
        "{\"schema\": \"txverify-schedule/1\",\n \"collective\": \"mnb\",\n \"sends\": [1, 2]}\n",
    );
    let r = txverify(&["simulate", &json, "--network", "ring 3", "--ports", "all"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.starts_with(&format!("{json}:3:")), "{}", r.stderr);
    assert!(
        r.stderr.contains(" 3 |  \"sends\": [1, 2]}\n"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains('^'), "{}", r.stderr);
    let r = txverify(&["simulate", &bad, "--format", "json"]);
    assert_eq!(r.code, 2);
    let v: serde_json::Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(v["error"]["line"], 6);
    assert_eq!(v["error"]["column"], 5);
    // --ports and --network belong to schedules.
    let tbl = concat!(env!("CARGO_MANIFEST_DIR"), "/tables/ring6-cyclic-total.tbl");
    assert_eq!(txverify(&["simulate", tbl, "--ports", "1"]).code, 2);
    assert_eq!(txverify(&["simulate", tbl]).code, 0);
}

#[test]
fn cli_converts_both_ways() {
    let json = txverify(&["schedule", "convert", EXAMPLE, "--to", "json"]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let path = file("ring4.json", &json.stdout);
    let text = txverify(&["schedule", "convert", &path, "--to", "text"]);
    assert_eq!(text.code, 0, "{}", text.stderr);
    let original = parse(&std::fs::read_to_string(EXAMPLE).unwrap()).unwrap();
    assert_eq!(parse(&json.stdout).unwrap(), original);
    assert_eq!(parse(&text.stdout).unwrap(), original);
    let broken = file("broken.sched", "collective: mnb\nsends:\n1 2\n");
    assert_eq!(
        txverify(&["schedule", "convert", &broken, "--to", "json"]).code,
        2
    );
}

// ---- docs/schedule.md ----

const DOC: &str = include_str!("../../docs/schedule.md");

/// The fenced blocks of docs/schedule.md with their tags.
fn doc_blocks() -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut open: Option<(String, String)> = None;
    for line in DOC.lines() {
        match open.take() {
            None => {
                if let Some(tag) = line.strip_prefix("```") {
                    open = Some((tag.to_string(), String::new()));
                }
            }
            Some((tag, body)) if line == "```" => blocks.push((tag, body)),
            Some((tag, mut body)) => {
                body.push_str(line);
                body.push('\n');
                open = Some((tag, body));
            }
        }
    }
    blocks
}

#[test]
fn docs_examples_match_the_program() {
    let blocks = doc_blocks();
    let json = blocks.iter().find(|(tag, _)| tag == "json").unwrap();
    let schedule = parse(&json.1).unwrap();
    assert_eq!(schedule.network.unwrap().to_string(), "torus 4 4");
    // The report shown is the one `simulate` prints for the example file.
    let report = blocks
        .iter()
        .find(|(_, body)| body.contains("verdict      VALID"))
        .unwrap();
    let r = txverify(&["simulate", "examples/schedules/linear3-total.sched"]);
    assert_eq!(r.stdout, report.1);
    // The diagnostic shown is the one printed for its line.
    let diagnostic = blocks
        .iter()
        .find(|(_, body)| body.starts_with("bad.sched:"))
        .unwrap();
    let bad = file(
        "bad.sched",
        "network: ring 4\nports: 1\ncollective: mnb\nsends:\n1 0 1 0 *\n2 1 two 0 *\n",
    );
    let r = txverify(&["simulate", &bad]);
    assert_eq!(r.stderr.replace(&bad, "bad.sched"), diagnostic.1);
}

#[test]
fn network_may_be_the_cayley_graph_of_a_tbl_header() {
    // C3 on a and a⁻¹ is K3, whatever the numbering: one step of direct sends.
    let k3 = file("c3.tbl", "group: <a | a^3>\ntable:\n");
    let c6 = file("c6.tbl", "group: <a | a^6>\ntable:\n");
    let mut sends = String::new();
    for x in 0..3 {
        for y in 0..3 {
            if x != y {
                sends.push_str(&format!("1 {x} {y} {x} {y}\n"));
            }
        }
    }
    let schedule = file(
        "direct.sched",
        &format!("ports: all\ncollective: total-exchange\nsends:\n{sends}"),
    );
    let run = txverify(&["simulate", &schedule, "--network", &k3]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("VALID"), "{}", run.stdout);
    // On the 6-ring the same sends are wrong (three nodes only, and not all joined).
    let run = txverify(&["simulate", &schedule, "--network", &c6]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    // A header that does not load is an input error.
    let broken = file("broken.tbl", "group: <a | a^3\ntable:\n");
    let run = txverify(&["simulate", &schedule, "--network", &broken]);
    assert_eq!(run.code, 2);
}

#[test]
fn simulate_lists_a_few_violations_and_every_one_with_all() {
    // A total exchange on a ring of 8 with no send: 56 packets never delivered.
    let path = file(
        "empty-ring8.sched",
        "network: ring 8\nports: all\ncollective: total-exchange\nsends:\n",
    );
    let file = path.as_str();
    let errors = |out: &str| out.lines().filter(|l| l.starts_with("  error: ")).count();
    let run = txverify(&["simulate", file]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("INVALID (56 violations"),
        "{}",
        run.stdout
    );
    assert_eq!(errors(&run.stdout), 11, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("… and 46 more (`simulate --all` lists every one)"),
        "{}",
        run.stdout
    );
    let run = txverify(&["simulate", file, "--all"]);
    assert_eq!(run.code, 1);
    assert_eq!(errors(&run.stdout), 56, "{}", run.stdout);
    assert!(!run.stdout.contains("more (`simulate"), "{}", run.stdout);
}
