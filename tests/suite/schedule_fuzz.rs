//! Fuzzing of the schedule reader and the replay, as `tests/fuzz.rs` fuzzes the
//! `.tbl` reader: the example schedules (text and JSON) are mutated at random
//! (numbers replaced by edge values such as 0 and 4294967295, fields and lines
//! dropped, repeated or swapped, fragments of the format inserted) and every
//! mutant must be read, replayed and reported without a panic: by the library,
//! and by `txverify simulate`, whose exit status must be 0, 1 or 2 and whose
//! output must hold no Rust debug text. The number of cases is fixed, so CI
//! time is bounded (`PROPTEST_CASES` raises it).

use crate::common;
use crate::common::judged::Judged;

use common::cli::txverify;
use proptest::prelude::*;
use txverify_core::schedule::{ReplayOptions, parse, replay};

/// The example schedules the mutations start from.
const SEEDS: &[&str] = &[
    include_str!("../../examples/schedules/ring4-total.sched"),
    include_str!("../../examples/schedules/linear3-total.sched"),
    include_str!("../../examples/schedules/linear3-gather.sched"),
    include_str!("../../examples/schedules/hypercube3-broadcast.sched"),
    include_str!("../../examples/schedules/mesh2x2-total.json"),
];

/// Numbers that sit on an edge: the largest step, one past it, zero, a node
/// just outside small networks.
const EDGES: &[&str] = &[
    "0",
    "1",
    "4",
    "4294967295",
    "4294967294",
    "4294967296",
    "18446744073709551616",
    "-1",
    "*",
    "\"*\"",
    "null",
];

/// Fragments of both formats.
const FRAGMENTS: &[&str] = &[
    "\n",
    " ",
    "network: ",
    "ports: ",
    "collective: ",
    "sends:\n",
    "gather 0",
    "accumulate 0",
    "gather 4294967295",
    "scatter 1",
    "mnb",
    "ring 4",
    "linear 3",
    "kary 2 64",
    "torus 65536 65536",
    "ports: all\n",
    "{",
    "}",
    "[",
    "]",
    ",",
    "\"step\": ",
    "\"sends\": ",
    "# ",
];

/// One mutation: replace the `which`-th number by an edge value, delete or
/// repeat a line, or insert a fragment at a byte position.
#[derive(Clone, Debug)]
enum Mutation {
    Number(usize, usize),
    DropLine(usize),
    RepeatLine(usize),
    Insert(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 0..EDGES.len()).prop_map(|(a, b)| Mutation::Number(a, b)),
        1 => any::<usize>().prop_map(Mutation::DropLine),
        1 => any::<usize>().prop_map(Mutation::RepeatLine),
        2 => (any::<usize>(), 0..FRAGMENTS.len()).prop_map(|(a, b)| Mutation::Insert(a, b)),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    match *m {
        Mutation::Number(which, edge) => {
            let spans = number_spans(text);
            if spans.is_empty() {
                return text.to_string();
            }
            let (start, end) = spans[which % spans.len()];
            format!("{}{}{}", &text[..start], EDGES[edge], &text[end..])
        }
        Mutation::DropLine(which) | Mutation::RepeatLine(which) => {
            let mut lines: Vec<&str> = text.lines().collect();
            if lines.is_empty() {
                return text.to_string();
            }
            let i = which % lines.len();
            if matches!(m, Mutation::DropLine(_)) {
                lines.remove(i);
            } else {
                lines.insert(i, lines[i]);
            }
            lines.join("\n") + "\n"
        }
        Mutation::Insert(at, fragment) => {
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            format!("{}{}{}", &text[..at], FRAGMENTS[fragment], &text[at..])
        }
    }
}

/// Byte ranges of the runs of ASCII digits in `text`.
fn number_spans(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// Networks larger than this are not built by the library fuzz (the command
/// line refuses or handles them on its own).
const MAX_NODES: u64 = 4096;

/// Reads and replays `text` with the library; any outcome but a panic is fine.
fn run_library(text: &str) {
    let Ok(schedule) = parse(text) else {
        return;
    };
    let Some(name) = schedule.network.as_ref() else {
        return;
    };
    if name
        .to_string()
        .split_whitespace()
        .filter_map(|w| w.parse::<u64>().ok())
        .product::<u64>()
        > MAX_NODES
    {
        return;
    }
    let Ok(graph) = name.build() else {
        return;
    };
    if let Ok(report) = replay(&schedule, &graph, &ReplayOptions { max_listed: 5 }) {
        assert_eq!(report.valid(), report.violation_count() == 0);
    }
}

fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Whether a report shows Rust debug text of an internal type.
fn has_debug_text(output: &str) -> bool {
    [
        "Violation {",
        "Some(",
        "kind:",
        "ViolationKind",
        "TimedSend",
        "Packet {",
    ]
    .iter()
    .any(|d| output.contains(d))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(400)))]

    /// Mutants of the examples read and replay without a panic.
    #[test]
    fn mutated_schedules_never_panic(
        seed in 0..SEEDS.len(),
        mutations in prop::collection::vec(mutation(), 1..5),
    ) {
        let text = mutations.iter().fold(SEEDS[seed].to_string(), |t, m| apply(&t, m));
        run_library(&text);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(40)))]

    /// The command line on mutants: exit 0, 1 or 2, no debug text, in text and
    /// JSON reports.
    #[test]
    fn mutated_schedules_exit_cleanly(
        seed in 0..SEEDS.len(),
        mutations in prop::collection::vec(mutation(), 1..4),
        json in any::<bool>(),
    ) {
        let text = mutations.iter().fold(SEEDS[seed].to_string(), |t, m| apply(&t, m));
        let path = common::cli::file("mutant.sched", &text);
        let path = path.to_str().unwrap();
        let args: &[&str] = if json {
            &["simulate", path, "--format", "json"]
        } else {
            &["simulate", path]
        };
        let r = txverify(args);
        prop_assert!([0, 1, 2].contains(&r.code), "exit {} on\n{}\n{}", r.code, text, r.stderr);
        prop_assert!(!has_debug_text(&r.stdout) && !has_debug_text(&r.stderr), "{}{}", r.stdout, r.stderr);
    }
}

/// A gather schedule whose step is the largest number the format allows: the
/// reversal `T + 1 − t` must not overflow (it once panicked with exit 101).
#[test]
fn the_largest_step_in_a_gather_is_replayed() {
    let text = "network: linear 2\nports: 1\ncollective: gather 0\nsends:\n4294967295 1 0 1 0\n";
    let schedule = parse(text).unwrap();
    let graph = schedule.network.as_ref().unwrap().build().unwrap();
    let report = replay(&schedule, &graph, &ReplayOptions::default()).unwrap();
    assert!(report.valid(), "{:?}", report.violations());
    assert_eq!(report.time(), u32::MAX);
    let path = common::cli::file("largest-step.sched", text);
    let r = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // An accumulate, and a gather whose sends reach the largest step from 1.
    for text in [
        "network: linear 2\nports: 1\ncollective: accumulate 0\nsends:\n4294967295 1 0 0 *\n",
        "network: linear 3\nports: 1\ncollective: gather 0\nsends:\n1 2 1 2 0\n4294967295 1 0 2 0\n4294967295 2 1 1 0\n",
    ] {
        let path = common::cli::file("largest-step-2.sched", text);
        let r = txverify(&["simulate", path.to_str().unwrap()]);
        assert!([0, 1].contains(&r.code), "{}{}", r.stdout, r.stderr);
    }
}
