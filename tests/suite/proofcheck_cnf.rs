//! `verify-proof --cnf`: DRAT and LRAT proofs against DIMACS formulas, the
//! verdicts and their exit statuses, the failing lemma named, and the LRAT
//! written from a DRAT check. Formulas and proofs are made here: pigeonhole
//! and random 3-SAT (fixed seeds) with varisat's proofs, and hand-written
//! refutations with extension variables.

use crate::common;
use common::cli::{file, txverify};
use proptest::prelude::*;
use txverify_proofcheck::{self as proofcheck, ProofError, ProofFormat};

/// Pigeonhole: `n + 1` pigeons, `n` holes.
fn pigeonhole(n: usize) -> (usize, Vec<Vec<i32>>) {
    let var = |p: usize, h: usize| (p * n + h + 1) as i32;
    let mut clauses: Vec<Vec<i32>> = (0..=n)
        .map(|p| (0..n).map(|h| var(p, h)).collect())
        .collect();
    for h in 0..n {
        for p in 0..=n {
            for q in p + 1..=n {
                clauses.push(vec![-var(p, h), -var(q, h)]);
            }
        }
    }
    ((n + 1) * n, clauses)
}

/// Random 3-SAT with `m` clauses over `n` variables (a fixed-seed generator).
fn random_3sat(seed: u64, n: usize, m: usize) -> Vec<Vec<i32>> {
    let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut next = move |k: usize| {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((state >> 33) as usize) % k
    };
    (0..m)
        .map(|_| {
            let mut vars: Vec<i32> = Vec::new();
            while vars.len() < 3 {
                let v = next(n) as i32 + 1;
                if !vars.contains(&v) {
                    vars.push(v);
                }
            }
            vars.into_iter()
                .map(|v| if next(2) == 0 { v } else { -v })
                .collect()
        })
        .collect()
}

/// Solves with varisat; a refutation's DRAT proof (binary), or `None` when
/// satisfiable, after checking the model satisfies every clause.
fn varisat_refutation(vars: usize, clauses: &[Vec<i32>]) -> Option<Vec<u8>> {
    use varisat::ExtendFormula;
    let mut proof = Vec::new();
    let sat;
    let model;
    {
        let mut solver = varisat::Solver::new();
        solver.write_proof(&mut proof, varisat::ProofFormat::BinaryDrat);
        let mut formula = varisat::CnfFormula::new();
        formula.set_var_count(vars);
        for c in clauses {
            let lits: Vec<varisat::Lit> = c
                .iter()
                .map(|&l| varisat::Lit::from_dimacs(l as isize))
                .collect();
            formula.add_clause(&lits);
        }
        solver.add_formula(&formula);
        sat = solver.solve().unwrap();
        model = solver.model();
        solver.close_proof().unwrap();
    }
    if sat {
        let model: Vec<isize> = model.unwrap().iter().map(|l| l.to_dimacs()).collect();
        let satisfied = clauses
            .iter()
            .all(|c| c.iter().any(|&l| model.contains(&(l as isize))));
        assert!(satisfied, "varisat's model satisfies the formula");
        return None;
    }
    Some(proof)
}

fn dimacs(vars: usize, clauses: &[Vec<i32>]) -> String {
    let mut text = format!("c made by a test\np cnf {vars} {}\n", clauses.len());
    for c in clauses {
        for l in c {
            text.push_str(&format!("{l} "));
        }
        text.push_str("0\n");
    }
    text
}

/// The steps of a binary DRAT proof as text lines (`d` for deletions).
fn binary_to_text(proof: &[u8]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut i = 0;
    while i < proof.len() {
        let mut line = if proof[i] == b'd' {
            "d ".to_string()
        } else {
            String::new()
        };
        i += 1;
        loop {
            let (mut code, mut shift) = (0u64, 0);
            loop {
                let b = proof[i];
                i += 1;
                code |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    break;
                }
            }
            if code == 0 {
                break;
            }
            let v = (code >> 1) as i64;
            line.push_str(&format!("{} ", if code & 1 == 1 { -v } else { v }));
        }
        line.push('0');
        lines.push(line);
    }
    lines
}

fn json(run: &common::cli::Run) -> serde_json::Value {
    serde_json::from_str(run.stdout.trim()).expect("one JSON object")
}

#[test]
fn varisat_refutations_verify_in_binary_and_text() {
    let (vars, clauses) = pigeonhole(4);
    let proof = varisat_refutation(vars, &clauses).expect("PHP(5,4) is unsatisfiable");
    let cnf = file("php.cnf", &dimacs(vars, &clauses));
    let dir = cnf.parent().unwrap();
    let binary = dir.join("php.drat");
    std::fs::write(&binary, &proof).unwrap();
    let text = file("php-text.drat", &(binary_to_text(&proof).join("\n") + "\n"));
    for p in [&binary, &text] {
        let run = txverify(&[
            "verify-proof",
            "--cnf",
            cnf.to_str().unwrap(),
            p.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}", run.stdout);
        assert!(run.stdout.ends_with("s VERIFIED\n"), "{}", run.stdout);
        assert!(
            run.stdout.contains(" in the core (checked)"),
            "{}",
            run.stdout
        );
    }
}

/// The all-eight-clauses formula over 1, 2, 3 and a refutation through the
/// extension variable 4 ≡ 1, defined by two RAT lemmas.
const ALL_THREE: &str = "p cnf 3 8\n1 2 3 0\n1 2 -3 0\n1 -2 3 0\n1 -2 -3 0\n-1 2 3 0\n-1 2 -3 0\n-1 -2 3 0\n-1 -2 -3 0\n";
const EXTENDED: &str = "4 -1 0\n-4 1 0\n4 2 0\nd 4 2 7 0\n4 0\n-2 0\n0\n";

#[test]
fn extension_variables_and_rat_lemmas_verify_and_write_lrat() {
    let cnf = file("all3.cnf", ALL_THREE);
    let proof = file("ext.drat", EXTENDED);
    let lrat = cnf.parent().unwrap().join("ext.lrat");
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        proof.to_str().unwrap(),
        "--lrat-out",
        lrat.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report = json(&run);
    assert_eq!(report["verified"], true);
    assert_eq!(report["rat_lemmas"], 2);
    assert_eq!(report["ignored_deletions"], 1);
    // The LRAT written is checked by the LRAT checker, here and from the CLI.
    let written = std::fs::read_to_string(&lrat).unwrap();
    assert!(written.lines().last().unwrap().split(' ').nth(1) == Some("0"));
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        lrat.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(run.stdout.contains("proof: lrat"), "{}", run.stdout);
    // Wrong hint: the empty clause's last hint (the false clause) dropped.
    let mut lines: Vec<String> = written.lines().map(str::to_string).collect();
    let last = lines.len() - 1;
    let mut words: Vec<&str> = lines[last].split(' ').collect();
    words.remove(words.len() - 2);
    lines[last] = words.join(" ");
    let broken = file("broken.lrat", &(lines.join("\n") + "\n"));
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        broken.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = json(&run);
    assert_eq!(report["verified"], false);
    assert_eq!(report["failure"]["line"], lines.len());
}

#[test]
fn a_deleted_lemma_names_the_empty_clause_that_no_longer_follows() {
    // PHP has no unit clause: without its lemmas, unit propagation assigns
    // nothing, so the empty clause, on the proof's last line, is not RUP.
    let (vars, clauses) = pigeonhole(3);
    let proof = varisat_refutation(vars, &clauses).unwrap();
    let lines = binary_to_text(&proof);
    let kept: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with('d') || *l == "0")
        .collect();
    let text: String = kept.iter().map(|l| format!("{l}\n")).collect();
    let cnf = file("php3.cnf", &dimacs(vars, &clauses));
    let mutant = file("dropped.drat", &text);
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        mutant.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = json(&run);
    let empty_at = kept.iter().position(|l| *l == "0").unwrap() + 1;
    assert_eq!(report["failure"]["line"], empty_at);
    assert_eq!(report["failure"]["clause"], serde_json::json!([]));
    // The text report names the line and the lemma too.
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        mutant.to_str().unwrap(),
    ]);
    assert!(
        run.stdout
            .contains(&format!("c rejected: line {empty_at}: lemma 1 ")),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("s NOT VERIFIED\n"));
}

#[test]
fn flipped_literals_are_rejected_at_or_after_the_flipped_lemma() {
    // A rejection names a lemma no earlier than the flipped one (the lemmas
    // before it are those of a valid proof), and flipping a lemma the
    // refutation needs is caught at that lemma for some of them.
    let (vars, clauses) = pigeonhole(3);
    let proof = varisat_refutation(vars, &clauses).unwrap();
    let lines = binary_to_text(&proof);
    let lemmas: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].starts_with('d') && lines[i] != "0")
        .collect();
    let mut caught_there = 0;
    for (index, &at) in lemmas.iter().enumerate() {
        let mut mutant = lines.clone();
        let flipped = match mutant[at].strip_prefix('-') {
            Some(rest) => rest.to_string(),
            None => format!("-{}", mutant[at]),
        };
        mutant[at] = flipped;
        let text = mutant.join("\n") + "\n";
        match proofcheck::check(vars, &clauses, text.as_bytes(), ProofFormat::Text) {
            Err(ProofError::LemmaNotImplied { lemma, step, .. }) => {
                assert!(
                    lemma > index,
                    "lemma {lemma} before the flipped one {}",
                    index + 1
                );
                caught_there += usize::from(step == at + 1);
            }
            Err(ProofError::NoContradiction) | Ok(_) => {}
            Err(other) => panic!("{other}"),
        }
    }
    assert!(caught_there > 0, "no flipped lemma caught where it is");
}

#[test]
fn truncated_and_malformed_inputs_are_errors_with_their_place() {
    let (vars, clauses) = pigeonhole(3);
    let proof = varisat_refutation(vars, &clauses).unwrap();
    let cnf = file("php3.cnf", &dimacs(vars, &clauses));
    let dir = cnf.parent().unwrap();
    // Binary, cut inside a clause: unreadable, with the byte offset.
    let cut = dir.join("cut.drat");
    std::fs::write(&cut, &proof[..proof.len() - 3]).unwrap();
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        cut.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}", run.stdout);
    assert!(run.stderr.contains("unterminated clause"), "{}", run.stderr);
    // Text, cut at a line before the end: read, but no contradiction.
    let lines = binary_to_text(&proof);
    let head = file("head.drat", &(lines[..lines.len() / 2].join("\n") + "\n"));
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        head.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains("without deriving a contradiction"),
        "{}",
        run.stdout
    );
    // A bad token: line and column.
    let bad = file("bad.drat", "1 2 0\n3 x 0\n");
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("bad.drat:2:3 (byte 8): malformed proof"),
        "{}",
        run.stderr
    );
    // A malformed formula: its file, line and column.
    let formula = file("bad.cnf", "p cnf 2 1\n1 -3 0\n");
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        formula.to_str().unwrap(),
        bad.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("bad.cnf: 2:3: literal -3"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_satisfiable_formula_is_never_verified() {
    // A model exists (varisat finds one, checked clause by clause), so no
    // proof may pass: the refutation of the full formula is rejected.
    let (vars, clauses) = pigeonhole(3);
    let proof = varisat_refutation(vars, &clauses).unwrap();
    let weaker: Vec<Vec<i32>> = clauses[1..].to_vec();
    assert!(varisat_refutation(vars, &weaker).is_none());
    let cnf = file("weaker.cnf", &dimacs(vars, &weaker));
    let p = cnf.parent().unwrap().join("p.drat");
    std::fs::write(&p, &proof).unwrap();
    let run = txverify(&[
        "verify-proof",
        "--cnf",
        cnf.to_str().unwrap(),
        p.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 1, "{}", run.stdout);
    let report = json(&run);
    assert_eq!(report["verified"], false);
    assert_eq!(report["exit_code"], 1);
    let fields = common::cli::field_paths(&report);
    let documented = common::cli::documented_fields("## Schema `txverify-verify-proof-cnf/1`");
    assert!(
        fields.is_subset(&documented),
        "{fields:?} not all in {documented:?}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random unsatisfiable 3-SAT formulas: varisat's refutations verify,
    /// and the LRAT written from the check passes the LRAT checker.
    #[test]
    fn random_refutations_verify(seed in 0u64..1_000_000) {
        let clauses = random_3sat(seed, 14, 100);
        if let Some(proof) = varisat_refutation(14, &clauses) {
            let report = proofcheck::check(14, &clauses, &proof, ProofFormat::Binary);
            prop_assert!(report.is_ok(), "{report:?}");
            let mut lrat = Vec::new();
            proofcheck::check_to_lrat(14, &clauses, &proof[..], None, &mut lrat).unwrap();
            prop_assert!(proofcheck::check_lrat(&clauses, &lrat).is_ok());
        }
    }
}
