//! Optimality by certificates in `check` and `search` (docs/tbl-format.md,
//! "Certificates"): a table names the certificates that refute the times
//! below its own, `check` re-verifies them and calls the table OPTIMAL only
//! when certificates for every table refute every time from its bound up; a
//! tampered certificate, or one of a narrower class, says why not.

use crate::common::cli::{file, txverify};
use std::path::{Path, PathBuf};

const RING8: &str = "tables/found/ring8-cyclic-anylength.tbl";

/// A copy of `from` (a certificate directory) under `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// The committed ring-8 table, as a file of this test, naming `certificates`
/// (a path relative to the file) and expecting optimal.
fn ring8_naming(certificates: &str) -> PathBuf {
    let text = std::fs::read_to_string(RING8).unwrap();
    let text = text.replace(
        "certificates: ../../proofs/ring8-cyclic-anylength",
        &format!("certificates: {certificates}"),
    );
    assert!(text.contains(&format!("certificates: {certificates}\n")));
    file("ring8.tbl", &text)
}

/// The ring-8 certificates for every table, copied beside `table`, as `name`.
fn certificates_beside(table: &Path, name: &str) -> PathBuf {
    let dir = table.parent().unwrap().join(name);
    let _ = std::fs::remove_dir_all(&dir);
    copy_dir(Path::new("proofs/ring8-cyclic-anylength"), &dir);
    dir
}

#[test]
fn check_says_optimal_for_ring8_by_its_committed_certificates() {
    let run = txverify(&["check", RING8, "--no-simulate"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("verdict      OPTIMAL (T=8, 9 refuted: certificates verified)\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("expect       optimal: holds"),
        "{}",
        run.stdout
    );
    let json = txverify(&["check", RING8, "--no-simulate", "--format", "json"]);
    let value: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert_eq!(value["verdict"], "optimal");
    assert_eq!(value["optimal_by"], "certificates");
    assert_eq!(value["unrefuted"], serde_json::json!([]));
    let times: Vec<_> = value["certificates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["status"].clone(), c["time"].clone()))
        .collect();
    assert_eq!(
        times,
        vec![
            (serde_json::json!("refutes"), serde_json::json!(8)),
            (serde_json::json!("refutes"), serde_json::json!(9))
        ]
    );
}

#[test]
fn without_its_certificates_the_table_is_not_proved_optimal() {
    let text = std::fs::read_to_string(RING8).unwrap();
    let bare: String = text
        .lines()
        .filter(|l| !l.starts_with("certificates:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let path = file("bare.tbl", &bare);
    let run = txverify(&["check", path.to_str().unwrap(), "--no-simulate"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("verdict      VALID, not proved optimal (time 10 > lower bound 8)\n")
    );
    assert!(
        run.stdout.contains("expect       optimal: FAILS"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_tampered_proof_makes_check_say_why_not() {
    let table = ring8_naming("tampered");
    let dir = certificates_beside(&table, "tampered");
    // The last byte of the binary DRAT proof ends its empty clause.
    let proof = dir.join("T9/proof.drat");
    let mut bytes = std::fs::read(&proof).unwrap();
    *bytes.last_mut().unwrap() ^= 1;
    std::fs::write(&proof, bytes).unwrap();
    let run = txverify(&["check", table.to_str().unwrap(), "--no-simulate"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(
        "verdict      VALID, not proved optimal (time 10 > lower bound 8; no verified certificate for every table refutes T=9)\n"
    ), "{}", run.stdout);
    assert!(
        run.stdout.contains("T9: REJECTED: the proof is rejected: "),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("expect       optimal: FAILS"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("OPTIMAL"), "{}", run.stdout);
}

#[test]
fn a_tampered_formula_digest_makes_check_say_why_not() {
    let table = ring8_naming("other-formula");
    let dir = certificates_beside(&table, "other-formula");
    let provenance = dir.join("T8/provenance.json");
    let text = std::fs::read_to_string(&provenance).unwrap();
    let flipped = text.replace("\"digest\": \"b", "\"digest\": \"c");
    assert_ne!(text, flipped, "the digest starts with b");
    std::fs::write(&provenance, flipped).unwrap();
    let run = txverify(&["check", table.to_str().unwrap(), "--no-simulate"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(
        "T8: REJECTED: the certificate does not match: the regenerated formula differs from the one the proof was made for"
    ), "{}", run.stdout);
    assert!(run.stdout.contains("refutes T=8)\n"), "{}", run.stdout);
    // Without the claim, the rejected certificate still fails the file.
    let plain = std::fs::read_to_string(&table)
        .unwrap()
        .replace("expect: optimal\n", "");
    let plain_path = table.parent().unwrap().join("plain.tbl");
    std::fs::write(&plain_path, plain).unwrap();
    let run = txverify(&["check", plain_path.to_str().unwrap(), "--no-simulate"]);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

#[test]
fn shortest_path_certificates_make_no_table_optimal() {
    // Time 11 on the 8-ring; the word `aa'a'` spells a' (distance 1): not a
    // shortest path.
    let table = "group: <a | a^8 = 1>\nexpect: time 11\nexpect: optimal\ntable:\n\
                 a'a'a'a' a'a'a' a'a'\n........ aa'a'\na aa aaa\n";
    let path = file("longer.tbl", table);
    let shown = path.to_str().unwrap();
    let narrow = [
        "check",
        shown,
        "--no-simulate",
        "--proofs",
        "proofs/ring8-cyclic",
    ];
    let run = txverify(&narrow);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("not a shortest path"), "{}", run.stdout);
    assert!(run.stdout.contains(
        "verdict      VALID, not proved optimal (time 11 > lower bound 8; no verified certificate for every table refutes T=8, 9, 10)\n"
    ), "{}", run.stdout);
    assert!(run.stdout.contains(
        "T8: verified, but it proves only \"no valid table with 8 columns whose words are all shortest paths\""
    ), "{}", run.stdout);
    assert!(
        run.stdout.contains("expect       optimal: FAILS"),
        "{}",
        run.stdout
    );
    // Nor do they make a table of shortest words optimal: they say nothing of
    // the faster tables with longer words there might be.
    let run = txverify(&[
        "check",
        RING8,
        "--no-simulate",
        "--proofs",
        "proofs/ring8-cyclic",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains(
        "verdict      VALID, not proved optimal (time 10 > lower bound 8; no verified certificate for every table refutes T=8, 9)\n"
    ), "{}", run.stdout);
}

#[test]
fn a_certificates_line_naming_nothing_is_an_input_error_at_its_value() {
    let path = ring8_naming("nowhere");
    let run = txverify(&["check", path.to_str().unwrap(), "--no-simulate"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let first = run.stderr.lines().next().unwrap_or_default();
    let dir = path.parent().unwrap().join("nowhere");
    assert_eq!(
        first,
        format!(
            "{}:5:15: error: no certificate in {}: it needs a provenance.json, or T<t>/ directories that hold one (write the path relative to the table file's directory)",
            path.display(),
            dir.display()
        ),
        "{}",
        run.stderr
    );
    let collection = txverify(&["check", "tables/", "--proofs", "proofs/ring8-cyclic"]);
    assert_eq!(collection.code, 2);
    assert!(
        collection
            .stderr
            .contains("--proofs names the certificates of one table")
    );
}

#[test]
fn the_last_line_of_search_is_its_verdict() {
    let network = file(
        "ring8.tbl",
        "group: <a | a^8 = 1>\nnetwork: ring 8\ntable:\n",
    );
    let certificates = network.parent().unwrap().join("cert");
    let _ = std::fs::remove_dir_all(&certificates);
    let found = network.parent().unwrap().join("found.tbl");
    let (n, c, f) = (
        network.to_str().unwrap(),
        certificates.to_str().unwrap(),
        found.to_str().unwrap(),
    );
    let run = txverify(&[
        "search",
        n,
        "--any-length",
        "--certificate",
        c,
        "-o",
        f,
        "--jobs",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().last(),
        Some("verdict: OPTIMAL (T=8, 9 refuted for every table: proofs checked)"),
        "{}",
        run.stderr
    );
    // The table written names its certificates and expects optimal, which check confirms.
    let written = std::fs::read_to_string(&found).unwrap();
    assert!(written.contains("certificates: cert\n"), "{written}");
    assert!(written.contains("expect: optimal\n"), "{written}");
    let check = txverify(&["check", f, "--no-simulate"]);
    assert_eq!(check.code, 0, "{}", check.stdout);
    assert!(
        check
            .stdout
            .contains("OPTIMAL (T=8, 9 refuted: certificates verified)")
    );
    // Shortest words only: not proved optimal, and why.
    let run = txverify(&["search", n, "--jobs", "1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().last(),
        Some(
            "verdict: VALID, not proved optimal (time 10 > lower bound 8; T=8, 9 refuted only for tables whose words are all shortest paths (`--any-length` without `--symmetry` refutes every table))"
        ),
        "{}",
        run.stderr
    );
}
