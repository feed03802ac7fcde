//! The `expect:` claims of docs/tbl-format.md ("Expectations"): `invalid` with its
//! places, `not optimal` and `bound B`, decided by the kernel, read by the parser
//! and printed back by `fmt`; an invalid table passes only when the file expects it.

use crate::common::cli::{file, txverify};
use txverify_clients::check::{Outcome, VerifyOptions, verify};
use txverify_core::kernel::{Verdict, check};
use txverify_core::load::{LoadOptions, load};

const HEADER: &str = "group: <b, B | b^2 = B^2 = (bB)^3 = 1>\n";
/// Optimal in 5.
const OPTIMAL: &str = "bBb bB\nBb B . b\n";
/// Valid in 6: not proved optimal.
const SLOW: &str = "bBb bB\nBb . B . b\n";
/// Link b twice in column 3 (rows 1 and 2), link B twice in column 5.
const CONFLICT: &str = "bBb bB\nBb b . B\n";

/// The claims' outcomes and the file's outcome for `expect:` lines over `rows`.
fn outcome(claims: &[&str], rows: &str) -> (Vec<bool>, Outcome, Verdict) {
    let mut text = HEADER.to_string();
    for c in claims {
        text.push_str(&format!("expect: {c}\n"));
    }
    text.push_str("table:\n");
    text.push_str(rows);
    let loaded = load(&text, &LoadOptions::default()).expect("the file loads");
    let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
    let holds = checked.expectations().iter().map(|e| e.holds).collect();
    let outcome = verify(&loaded, &VerifyOptions::default()).outcome();
    (holds, outcome, checked.verdict())
}

#[test]
fn an_invalid_table_passes_only_when_the_file_expects_it() {
    assert_eq!(
        outcome(&["invalid"], CONFLICT),
        (vec![true], Outcome::Passed, Verdict::Invalid)
    );
    assert_eq!(outcome(&[], CONFLICT).1, Outcome::Failed);
    assert_eq!(outcome(&["time 5"], CONFLICT).1, Outcome::Failed);
    // A valid table is not invalid.
    assert_eq!(
        outcome(&["invalid"], OPTIMAL),
        (vec![false], Outcome::Failed, Verdict::Optimal)
    );
    // Every claim must hold, the invalid one too.
    assert_eq!(
        outcome(&["invalid", "time 4"], CONFLICT),
        (vec![true, false], Outcome::Failed, Verdict::Invalid)
    );
}

#[test]
fn invalid_places_are_the_rows_and_columns_the_report_names() {
    for (claim, holds) in [
        ("invalid row 2 column 3", true),
        ("invalid row 1 column 3", true),
        ("invalid row 1 column 5", true),
        ("invalid row 1", true),
        ("invalid column 5", true),
        ("invalid row 3", false),
        ("invalid column 4", false),
        ("invalid row 2 column 4", false),
    ] {
        assert_eq!(outcome(&[claim], CONFLICT).0, vec![holds], "{claim}");
    }
    // Too many letters for one port is a column in no row.
    let ports = "ports: 1\n";
    let single_port = |claim: &str| {
        let text = format!("{HEADER}{ports}expect: {claim}\ntable:\n{OPTIMAL}");
        let loaded = load(&text, &LoadOptions::default()).unwrap();
        check(&loaded.instance, &loaded.table, &loaded.claims).expectations()[0].holds
    };
    assert!(single_port("invalid column 1"));
    assert!(!single_port("invalid row 1 column 1"));
    // A missing message has no place: only a bare `invalid` matches it.
    let missing = "bBb bB\nBb B\n";
    assert_eq!(outcome(&["invalid"], missing).0, vec![true]);
    assert_eq!(outcome(&["invalid row 2"], missing).0, vec![false]);
}

#[test]
fn not_optimal_means_valid_and_above_the_bound() {
    assert_eq!(
        outcome(&["not optimal", "time 6"], SLOW),
        (vec![true, true], Outcome::Passed, Verdict::Valid)
    );
    assert_eq!(outcome(&["not optimal"], OPTIMAL).0, vec![false]);
    // An invalid table is not "valid, not optimal".
    assert_eq!(outcome(&["not optimal"], CONFLICT).0, vec![false]);
}

#[test]
fn bound_is_the_kernels_lower_bound_whatever_the_table() {
    for rows in [OPTIMAL, SLOW, CONFLICT] {
        assert_eq!(outcome(&["bound 5"], rows).0, vec![true]);
        assert_eq!(outcome(&["bound 6"], rows).0, vec![false]);
    }
}

#[test]
fn malformed_claims_are_errors_at_their_place() {
    for (claim, word) in [
        ("invalid column 3 row 2", "row"),
        ("invalid row 2 row 3", "row"),
        ("invalid line 2", "line"),
        ("not fast", "fast"),
        ("invalid row 0", "0"),
        ("bound", "bound"),
    ] {
        let path = file(
            "bad-claim.tbl",
            &format!("{HEADER}expect: {claim}\ntable:\n"),
        );
        let run = txverify(&["check", path.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{claim}: {}", run.stderr);
        assert!(run.stderr.contains(":2:"), "{claim}: {}", run.stderr);
        assert!(run.stderr.contains(word), "{claim}: {}", run.stderr);
    }
}

#[test]
fn fmt_prints_every_claim_back_in_canonical_form() {
    let claims = "expect: INVALID Row 2 COLUMN 3\nexpect: not  optimal\nexpect: bound 5\nexpect: invalid column 7\n";
    let path = file("claims.tbl", &format!("{HEADER}{claims}table:\n{OPTIMAL}"));
    let run = txverify(&["fmt", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "expect: invalid row 2 column 3\nexpect: not optimal\nexpect: bound 5\nexpect: invalid column 7\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn the_report_says_an_invalid_table_passes_as_expected() {
    let path = file(
        "expected.tbl",
        &format!("{HEADER}expect: invalid row 2 column 3\ntable:\n{CONFLICT}"),
    );
    let run = txverify(&["check", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("verdict      INVALID"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout
            .contains("expect       invalid row 2 column 3: holds"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("as the file expects"), "{}", run.stdout);
}
