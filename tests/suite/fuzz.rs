//! Fuzzing of the `.tbl` reader and the whole `check` pipeline on small groups,
//! with proptest (stable Rust, no extra tooling): arbitrary bytes, arbitrary
//! text built from the format's own fragments, and every file of the committed
//! corpus `tests/corpus/` (inputs that once found a problem or sit on an edge of
//! the format). Every input must come out as a report or an error, never a
//! panic; the group limits are small so that no input can run long. The
//! number of cases is fixed, so CI time is bounded (`PROPTEST_CASES` raises
//! it for a longer local run).

use proptest::prelude::*;
use std::time::Duration;
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::check;
use txverify_core::load::{LoadOptions, load};

fn small() -> LoadOptions {
    LoadOptions {
        limits: EnumerationLimits {
            max_order: 5_000,
            max_cosets: 50_000,
            time_budget: Some(Duration::from_secs(2)),
        },
    }
}

/// Parses, loads and checks `text`; any outcome but a panic is fine. A loaded
/// table's time is at most the number of characters (each letter is one).
fn run_pipeline(text: &str) {
    let _ = txverify_core::format::parse(text);
    if let Ok(loaded) = load(text, &small()) {
        let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
        assert!(checked.time() <= text.len());
        let _ = txverify_core::kernel::lower_bound(&loaded.instance);
    }
}

/// 300 cases a property, or `PROPTEST_CASES`.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

const FRAGMENTS: &[&str] = &[
    "group: ",
    "<",
    ">",
    "|",
    ",",
    "a",
    "b",
    "A",
    "'",
    "^",
    "2",
    "3",
    "-1",
    "(",
    ")",
    "[",
    "]",
    "=",
    "1",
    " x ",
    "{g1}",
    "\n",
    "table:\n",
    "links: ",
    "ports: ",
    "messages: ",
    "total",
    "odd",
    "to ",
    "distance ",
    "network: ",
    "ring ",
    "torus ",
    "hypercube ",
    "expect: ",
    "optimal",
    "time ",
    "end",
    "#",
    " ",
    "\t",
    "\r\n",
    "\u{feff}",
    "\0",
    "é",
    "\u{304}",
];

fn fragments() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..FRAGMENTS.len(), 0..40)
        .prop_map(|picks| picks.into_iter().map(|i| FRAGMENTS[i]).collect())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        run_pipeline(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn text_from_the_formats_fragments_never_panics(text in fragments()) {
        run_pipeline(&text);
    }

    #[test]
    fn a_header_then_random_rows_never_panics(rows in fragments()) {
        run_pipeline(&format!("group: <a, b | a^2, b^3, (ab)^2>\ntable:\n{rows}"));
    }
}

#[test]
fn every_corpus_file_goes_through_without_panicking() {
    let mut files: Vec<_> = std::fs::read_dir("tests/corpus")
        .expect("tests/corpus exists")
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files.len() >= 20, "the corpus has {} files", files.len());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        run_pipeline(&String::from_utf8_lossy(&bytes));
    }
}
