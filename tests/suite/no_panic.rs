//! Nothing panics on user input: random edits of the published tables go through the
//! whole pipeline (parse, lower, enumerate, load, check) and must come out as a
//! report or an error, never a panic.

use proptest::prelude::*;
use std::time::Duration;
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::check;
use txverify_core::load::{LoadOptions, load};

const SEEDS: &[&str] = &[
    include_str!("../../tables/ring6-dihedral-total.tbl"),
    include_str!("../../tables/ring6-cyclic-odd.tbl"),
    include_str!("../../tables/mesh5.tbl"),
    include_str!("../../tables/mesh6.tbl"),
    include_str!("../../tables/hypercube4-a.tbl"),
];

/// Fragments that are meaningful to the format, so edits reach deep into the pipeline.
const FRAGMENTS: &[&str] = &[
    "a",
    "b",
    "A",
    "B",
    "'",
    ".",
    " ",
    "\n",
    "{x}",
    "^",
    "2",
    "0",
    "-",
    "(",
    ")",
    "[",
    ",",
    "]",
    "=",
    "1",
    "<",
    ">",
    "|",
    " x ",
    "table:",
    "end",
    "links: a",
    "ports: 1",
    "messages: odd",
    "messages: to a",
    "messages: distance 2",
    "network: ring 6",
    "expect: optimal",
    "expect: time 3",
    "#",
    "ā",
    "\u{304}",
    "é",
    ";",
];

#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, usize),
    DuplicateLine(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..8).prop_map(|(at, len)| Edit::Delete(at, len)),
        (any::<usize>(), 0..FRAGMENTS.len()).prop_map(|(at, f)| Edit::Insert(at, f)),
        any::<usize>().prop_map(Edit::DuplicateLine),
    ]
}

fn apply(text: &str, edit: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    match *edit {
        Edit::Delete(at, len) => {
            let at = at % (chars.len() + 1);
            let end = (at + len).min(chars.len());
            chars[..at].iter().chain(&chars[end..]).collect()
        }
        Edit::Insert(at, f) => {
            let at = at % (chars.len() + 1);
            let mut out: String = chars[..at].iter().collect();
            out.push_str(FRAGMENTS[f]);
            out.extend(&chars[at..]);
            out
        }
        Edit::DuplicateLine(at) => {
            let lines: Vec<&str> = text.lines().collect();
            let at = at % lines.len().max(1);
            let mut out = Vec::new();
            for (i, line) in lines.iter().enumerate() {
                out.push(*line);
                if i == at {
                    out.push(line);
                }
            }
            out.join("\n")
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn edited_tables_never_panic(seed in 0..SEEDS.len(), edits in proptest::collection::vec(edit(), 1..4)) {
        let text = edits.iter().fold(SEEDS[seed].to_string(), |t, e| apply(&t, e));
        let options = LoadOptions {
            limits: EnumerationLimits {
                max_order: 10_000,
                max_cosets: 100_000,
                time_budget: Some(Duration::from_secs(2)),
            },
        };
        if let Ok(loaded) = load(&text, &options) {
            let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
            prop_assert!(checked.time() <= text.len());
        }
    }
}
