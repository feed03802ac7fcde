//! `txverify infer --complete N` (docs/infer.md, "Completing a printed prefix"):
//! the completions of a printed prefix, counted against a brute force over every
//! filling of the empty cells and every cut, and the tables derived from them by
//! deleting words, checked against a brute force of the same deletion.

use crate::common;
use common::cli::{documented_fields, file, nested_field_paths, txverify};
use std::collections::BTreeSet;
use txverify_core::kernel::{self, Verdict};
use txverify_core::load::{LoadOptions, load};

const D6: &str = "group: <b, B | b^2 = B^2 = (bB)^3 = 1>\nnetwork: ring 6\n";
const D4: &str = "group: <b, B | b^2 = B^2 = (bB)^2 = 1>\nnetwork: ring 4\n";

/// The first three columns of tables/ring6-dihedral-total.tbl, one letter per token.
const PREFIX: &str = "table:\nb B b\nB b B\n";

fn json_of(args: &[&str]) -> (i32, serde_json::Value) {
    let mut all = vec!["infer", "--format", "json"];
    all.extend_from_slice(args);
    let run = txverify(&all);
    let value = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{all:?}: {e}: {} / {}", run.stdout, run.stderr));
    (run.code, value)
}

/// Every way to write a row of `cells` (letters or `.`) as words: each inner point
/// between two letters is a cut or not. Returns the rows as word lists (column, word).
fn segmentations(cells: &[char]) -> Vec<Vec<(usize, String)>> {
    let points: Vec<usize> = (1..cells.len())
        .filter(|&c| cells[c - 1] != '.' && cells[c] != '.')
        .collect();
    let mut all = Vec::new();
    for mask in 0u32..1 << points.len() {
        let mut words: Vec<(usize, String)> = Vec::new();
        for (c, &cell) in cells.iter().enumerate() {
            if cell == '.' {
                continue;
            }
            let joined = points
                .iter()
                .position(|&p| p == c)
                .is_some_and(|i| mask & (1 << i) == 0);
            match words.last_mut() {
                Some(last) if joined => last.1.push(cell),
                _ => words.push((c + 1, cell.to_string())),
            }
        }
        all.push(words);
    }
    all
}

/// A table's rows in the format (`.` for each blank column).
fn rows_text(rows: &[Vec<(usize, String)>]) -> String {
    let mut out = String::new();
    for words in rows {
        let mut column = 1;
        let mut tokens = Vec::new();
        for (start, word) in words {
            while column < *start {
                tokens.push(".".to_string());
                column += 1;
            }
            tokens.push(word.clone());
            column += word.len();
        }
        out.push_str(&tokens.join(" "));
        out.push('\n');
    }
    out
}

/// The kernel's verdict on a table written with `header`.
fn verdict(header: &str, rows: &[Vec<(usize, String)>]) -> Verdict {
    let source = format!("{header}table:\n{}", rows_text(rows));
    let loaded = load(&source, &LoadOptions::default()).unwrap();
    kernel::check(&loaded.instance, &loaded.table, &[]).verdict()
}

/// Brute force: every filling of the cells after "bBb"/"BbB" up to column 5 (each `b`,
/// `B` or blank) and every cut of the rows, checked by the kernel over D6; and of the
/// valid ones, the tables with the last word of each row deleted, checked over D4.
/// Returns (completions, derived valid, derived optimal).
fn brute_force() -> (usize, usize, usize) {
    let choices = ['b', 'B', '.'];
    let (mut completions, mut valid, mut optimal) = (0, 0, 0);
    for code in 0..81usize {
        let digit = |i: u32| choices[code / 3usize.pow(i) % 3];
        let row1: Vec<char> = ['b', 'B', 'b', digit(0), digit(1)].into();
        let row2: Vec<char> = ['B', 'b', 'B', digit(2), digit(3)].into();
        for first in segmentations(&row1) {
            for second in segmentations(&row2) {
                let rows = [first.clone(), second.clone()];
                if verdict(D6, &rows) == Verdict::Invalid {
                    continue;
                }
                completions += 1;
                let derived: Vec<Vec<(usize, String)>> = rows
                    .iter()
                    .map(|words| words[..words.len().saturating_sub(1)].to_vec())
                    .collect();
                match verdict(D4, &derived) {
                    Verdict::Invalid => {}
                    Verdict::Valid => valid += 1,
                    Verdict::Optimal => {
                        valid += 1;
                        optimal += 1;
                    }
                }
            }
        }
    }
    (completions, valid, optimal)
}

#[test]
fn completions_and_derived_tables_match_a_brute_force() {
    let (completions, valid, optimal) = brute_force();
    assert!(completions > 1, "the case must have several completions");
    let grid = file("ring6-prefix.tbl", &format!("{D6}{PREFIX}"));
    let target = file("ring4.tbl", &format!("{D4}table:\n"));
    let (code, report) = json_of(&[
        "--complete",
        "5",
        grid.to_str().unwrap(),
        "--derive",
        target.to_str().unwrap(),
        "--delete",
        "row-ends",
    ]);
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["count"], completions, "{report}");
    assert_eq!(report["complete"], true);
    assert_eq!(report["derived"]["valid"], valid, "{report}");
    assert_eq!(report["derived"]["optimal"], optimal, "{report}");
    // No claims in the target: every valid derived table satisfies them.
    assert_eq!(report["derived"]["claims_hold"], valid, "{report}");
}

#[test]
fn the_erratum_count_of_the_ring_12_prefix_is_the_reported_one() {
    // docs/published-errata.md entry 1: 2,056 completions, 140 of which give an
    // optimal 13-column n = 10 table when the last word of each row is deleted
    // (the figures of the report the entry answers).
    let (code, report) = json_of(&[
        "--complete",
        "18",
        "tests/infer/ring12-dihedral-prefix.tbl",
        "--derive",
        "tables/ring10-dihedral.tbl",
        "--delete",
        "row-ends",
    ]);
    assert_eq!(code, 0);
    assert_eq!(report["count"], 2056);
    assert_eq!(report["derived"]["claims_hold"], 140);
    assert_eq!(
        report["derived"]["claims"],
        serde_json::json!(["time 13", "optimal"])
    );
}

#[test]
fn a_prefix_without_completion_exits_1_and_bad_options_exit_2() {
    // One column cannot hold the 9 letters ring 6 needs.
    let grid = file("short.tbl", &format!("{D6}table:\nb\nB\n"));
    let (code, report) = json_of(&["--complete", "1", grid.to_str().unwrap()]);
    assert_eq!((code, report["count"].as_u64()), (1, Some(0)), "{report}");
    let run = txverify(&[
        "infer",
        "--complete",
        "5",
        grid.to_str().unwrap(),
        "--derive",
        grid.to_str().unwrap(),
        "--delete",
        "first:2",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let missing = txverify(&[
        "infer",
        "--complete",
        "5",
        grid.to_str().unwrap(),
        "--derive",
        "no-such-file.tbl",
        "--delete",
        "row-ends",
    ]);
    assert_eq!(missing.code, 2, "{}", missing.stderr);
}

#[test]
fn infer_complete_json_writes_exactly_the_documented_fields() {
    let grid = file("fields.tbl", &format!("{D6}{PREFIX}"));
    let target = file("fields4.tbl", &format!("{D4}table:\n"));
    let mut written = BTreeSet::new();
    for args in [
        vec!["--complete", "5", grid.to_str().unwrap()],
        vec![
            "--complete",
            "5",
            grid.to_str().unwrap(),
            "--derive",
            target.to_str().unwrap(),
            "--delete",
            "last:2",
        ],
    ] {
        let (_, report) = json_of(&args);
        assert_eq!(report["schema"], "txverify-infer-complete/1");
        nested_field_paths(&report, "", &mut written);
    }
    assert_eq!(
        written,
        documented_fields("### `infer --complete`: a grid that was read")
    );
}
