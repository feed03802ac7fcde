//! Certificates of the default solver: with the bundled CaDiCaL, every
//! refutation of `search --certificate` carries CaDiCaL's LRAT proof (checked
//! when it answered, and again by `verify-proof`); a build without it writes
//! varisat's DRAT. A corrupted hint is rejected.

use crate::common;

use common::cli::{Run, file, txverify};
use std::path::{Path, PathBuf};

/// The 6-ring over C_6: 5 columns are too few for shortest-path tables, 6 suffice.
const C6: &str = "group: <a | a^6>\nnetwork: ring 6\ntable:\n";

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-lrat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn verify(table: &Path, dir: &Path) -> Run {
    txverify(&["verify-proof", s(table), s(dir)])
}

/// The steps of a binary LRAT proof, decoded here (not by the checker): tag and numbers.
#[cfg(feature = "cadical")]
fn binary_steps(proof: &[u8]) -> Vec<(u8, Vec<i64>)> {
    let mut steps = Vec::new();
    let mut i = 0;
    let number = |i: &mut usize| {
        let (mut code, mut shift) = (0u64, 0);
        loop {
            let b = proof[*i];
            *i += 1;
            code |= u64::from(b & 0x7f) << shift;
            shift += 7;
            if b & 0x80 == 0 {
                let m = (code >> 1) as i64;
                return if code & 1 == 1 { -m } else { m };
            }
        }
    };
    while i < proof.len() {
        let tag = proof[i];
        i += 1;
        // An addition has its number, literals up to 0 and hints up to 0; a
        // deletion numbers up to 0.
        let lists = if tag == b'a' { 2 } else { 1 };
        let mut numbers = Vec::new();
        if tag == b'a' {
            numbers.push(number(&mut i));
        }
        for _ in 0..lists {
            loop {
                let x = number(&mut i);
                numbers.push(x);
                if x == 0 {
                    break;
                }
            }
        }
        steps.push((tag, numbers));
    }
    steps
}

#[cfg(feature = "cadical")]
fn encode(steps: &[(u8, Vec<i64>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (tag, numbers) in steps {
        out.push(*tag);
        for &x in numbers {
            let mut code = (x.unsigned_abs() << 1) | u64::from(x < 0);
            while code >= 0x80 {
                out.push((code as u8 & 0x7f) | 0x80);
                code >>= 7;
            }
            out.push(code as u8);
        }
    }
    out
}

#[cfg(feature = "cadical")]
#[test]
fn a_minimising_search_writes_lrat_that_verify_proof_accepts() {
    let table = file("c6.tbl", C6);
    let dir = fresh_dir("minimise");
    let run = txverify(&["search", "-q", s(&table), "--certificate", s(&dir)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cert = dir.join("T5");
    assert!(cert.join("proof.lrat").exists());
    assert!(!cert.join("proof.drat").exists(), "no varisat re-solve");
    let provenance = std::fs::read_to_string(cert.join("provenance.json")).unwrap();
    assert!(
        provenance.contains("\"solver\": \"CaDiCaL 3.0.1"),
        "{provenance}"
    );
    assert!(
        provenance.contains("\"proof\": \"proof.lrat"),
        "{provenance}"
    );
    let verified = verify(&table, &dir);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
    assert!(verified.stdout.contains("no valid table with 5 columns"));
}

#[cfg(feature = "cadical")]
#[test]
fn a_timed_search_writes_lrat_and_a_wrong_hint_is_rejected() {
    let table = file("c6.tbl", C6);
    let dir = fresh_dir("timed");
    let run = txverify(&[
        "search",
        "-q",
        s(&table),
        "--time",
        "5",
        "--certificate",
        s(&dir),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("the solver's proof checked"),
        "{}",
        run.stderr
    );
    assert_eq!(verify(&table, &dir).code, 0);

    // The formula's clauses come first, as in formula.cnf: a proof step never
    // numbers itself at or below their count.
    let proof_path = dir.join("T5/proof.lrat");
    let proof = std::fs::read(&proof_path).unwrap();
    let cnf = std::fs::read_to_string(dir.join("T5/formula.cnf")).unwrap();
    let clauses: i64 = cnf
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|p| p.split_whitespace().nth(1))
        .unwrap()
        .parse()
        .unwrap();
    let mut steps = binary_steps(&proof);
    assert!(steps.iter().all(|(t, n)| *t != b'a' || n[0] > clauses));
    assert_eq!(encode(&steps), proof, "decoded and encoded again unchanged");

    // The last step adds the empty clause (`a id 0 hints 0`): drop its last hint.
    let (tag, last) = steps.last_mut().unwrap();
    assert_eq!((*tag, last[1]), (b'a', 0), "the empty clause comes last");
    let end = last.len() - 1;
    last.remove(end - 1);
    std::fs::write(&proof_path, encode(&steps)).unwrap();
    let rejected = verify(&table, &dir);
    assert_eq!(rejected.code, 1, "{}", rejected.stdout);
    assert!(
        rejected.stdout.contains(&format!("step {}", steps.len()))
            || rejected.stdout.contains(&format!("line {}", steps.len())),
        "{}",
        rejected.stdout
    );
}

#[cfg(feature = "cadical")]
#[test]
fn cube_certificates_carry_lrat() {
    let table = file("c6.tbl", C6);
    let dir = fresh_dir("cubes");
    let run = txverify(&[
        "search",
        "-q",
        s(&table),
        "--time",
        "5",
        "--cubes",
        "4",
        "--certificate",
        s(&dir),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    for i in 1..=4 {
        assert!(
            dir.join(format!("T5/cube-{i:04}.lrat")).exists(),
            "cube {i}"
        );
    }
    let verified = verify(&table, &dir);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
    assert!(verified.stdout.contains("4 cubes"), "{}", verified.stdout);
}

#[cfg(not(feature = "cadical"))]
#[test]
fn without_cadical_certificates_are_varisat_drat() {
    let table = file("c6.tbl", C6);
    let dir = fresh_dir("varisat");
    let run = txverify(&[
        "search",
        "-q",
        s(&table),
        "--time",
        "5",
        "--certificate",
        s(&dir),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(dir.join("T5/proof.drat").exists());
    let provenance = std::fs::read_to_string(dir.join("T5/provenance.json")).unwrap();
    assert!(provenance.contains("varisat"), "{provenance}");
    assert_eq!(verify(&table, &dir).code, 0);
}
