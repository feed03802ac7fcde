//! The proof checkers' tests: accepted refutations, and one rejection per way a
//! proof can fail, matched by kind.

use super::*;

/// The name of a rejection's kind, so that a test says which failure it expects.
fn kind(error: &ProofError) -> &'static str {
    match error {
        ProofError::Malformed { .. } => "malformed",
        ProofError::UnknownVariable { .. } => "unknown variable",
        ProofError::Write(_) => "write",
        ProofError::NotRup { .. } => "not RUP",
        ProofError::NoContradiction => "no contradiction",
    }
}

/// Asserts that `result` is a rejection of the given kind.
fn expect_rejection<T: std::fmt::Debug>(result: Result<T, ProofError>, expected: &str) {
    match result {
        Err(e) => assert_eq!(kind(&e), expected, "rejected for another reason: {e}"),
        Ok(v) => panic!("accepted ({v:?}), expected a rejection: {expected}"),
    }
}

/// Pigeonhole: `n + 1` pigeons, `n` holes; variable p*n + h + 1 = pigeon p in hole h.
fn pigeonhole(n: usize) -> (usize, Vec<Vec<i32>>) {
    let var = |p: usize, h: usize| (p * n + h + 1) as i32;
    let mut clauses = Vec::new();
    for p in 0..=n {
        clauses.push((0..n).map(|h| var(p, h)).collect());
    }
    for h in 0..n {
        for p in 0..=n {
            for q in p + 1..=n {
                clauses.push(vec![-var(p, h), -var(q, h)]);
            }
        }
    }
    ((n + 1) * n, clauses)
}

#[test]
fn accepts_a_hand_written_refutation() {
    // (1 ∨ 2)(¬1 ∨ 2)(1 ∨ ¬2)(¬1 ∨ ¬2): lemma 2, then the empty clause.
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let proof = b"2 0\n0\n";
    assert!(check(2, &clauses, proof, ProofFormat::Text).is_ok());
    let binary = [b'a', 4, 0, b'a', 0];
    assert!(check(2, &clauses, &binary, ProofFormat::Binary).is_ok());
}

#[test]
fn rejects_lemmas_that_do_not_follow() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2]];
    // Satisfiable (1 = 2 = true): no proof may pass. Each lemma below is
    // false under that assignment, so it cannot follow by unit propagation.
    for proof in [&b"-2 0\n0\n"[..], b"0\n", b"d 1 2 0\n0\n"] {
        expect_rejection(check(2, &clauses, proof, ProofFormat::Text), "not RUP");
    }
    expect_rejection(
        check(2, &clauses, b"", ProofFormat::Text),
        "no contradiction",
    );
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    expect_rejection(
        check(2, &clauses, b"", ProofFormat::Text),
        "no contradiction",
    );
    expect_rejection(
        check(2, &clauses, b"3 0\n", ProofFormat::Text),
        "unknown variable",
    );
}

#[test]
fn formula_with_an_empty_clause_is_refuted() {
    assert!(check(1, &[vec![1], vec![]], b"", ProofFormat::Text).is_ok());
    assert!(check(1, &[vec![1], vec![-1]], b"", ProofFormat::Text).is_ok());
}

#[test]
fn varisat_proofs_check_and_corruptions_fail() {
    for n in 2..=5 {
        let (vars, clauses) = pigeonhole(n);
        let proof = varisat_proof(vars, &clauses);
        let report = check(vars, &clauses, &proof, ProofFormat::Binary).unwrap();
        assert!(report.lemmas > 0);
        // Drop one clause from the formula: now satisfiable, so the proof must fail.
        let mut weaker = clauses.clone();
        weaker.remove(0);
        let on_weaker = check(vars, &weaker, &proof, ProofFormat::Binary);
        assert!(
            matches!(
                on_weaker,
                Err(ProofError::NotRup { .. } | ProofError::NoContradiction)
            ),
            "{on_weaker:?}"
        );
        // Keep only the last lemma (the empty clause): not RUP for n ≥ 2.
        let steps = parse(&proof, ProofFormat::Binary).unwrap();
        let last = steps.iter().rposition(|(k, _)| *k == Step::Add).unwrap();
        let mut text = String::new();
        for l in &steps[last].1 {
            text.push_str(&format!("{l} "));
        }
        text.push_str("0\n");
        expect_rejection(
            check(vars, &clauses, text.as_bytes(), ProofFormat::Text),
            "not RUP",
        );
    }
}

fn lrat_of(vars: usize, clauses: &[Vec<i32>], proof: &[u8], format: ProofFormat) -> String {
    let mut out = Vec::new();
    check_to_lrat(vars, clauses, proof, format, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn lrat_written_from_varisat_proofs_checks_and_corruptions_fail() {
    for n in 2..=6 {
        let (vars, clauses) = pigeonhole(n);
        let proof = varisat_proof(vars, &clauses);
        let lrat = lrat_of(vars, &clauses, &proof, ProofFormat::Binary);
        let added = check_lrat(&clauses, lrat.as_bytes()).unwrap();
        assert!(added > 0, "n = {n}");
        assert!(lrat.lines().last().unwrap().split(' ').nth(1) == Some("0"));
        // The same proof against a satisfiable formula: rejected.
        let mut weaker = clauses.clone();
        weaker.remove(0);
        assert!(check_lrat(&weaker, lrat.as_bytes()).is_err(), "n = {n}");
        // Dropping the last hint of any added step breaks that step.
        let lines: Vec<&str> = lrat.lines().collect();
        for (i, line) in lines.iter().enumerate().filter(|(_, l)| !l.contains(" d ")) {
            let words: Vec<&str> = line.split(' ').collect();
            let end = words.len() - 1;
            let mut cut = words[..end - 1].to_vec();
            cut.push("0");
            let mut changed = lines.clone();
            let cut_line = cut.join(" ");
            changed[i] = &cut_line;
            let text = changed.join("\n");
            assert!(
                check_lrat(&clauses, text.as_bytes()).is_err(),
                "n = {n}, line {i}"
            );
        }
    }
}

#[test]
fn lrat_of_hand_written_refutations() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let lrat = lrat_of(2, &clauses, b"2 0\n0\n", ProofFormat::Text);
    assert_eq!(check_lrat(&clauses, lrat.as_bytes()).unwrap(), 2);
    // Refuted by the clauses alone: the empty clause from their top-level conflict.
    let units = vec![vec![1], vec![-1, 2], vec![-2]];
    let lrat = lrat_of(2, &units, b"", ProofFormat::Text);
    assert_eq!(lrat.trim(), "4 0 1 2 3 0");
    assert_eq!(check_lrat(&units, lrat.as_bytes()).unwrap(), 1);
    // A hint that is not unit, a missing clause, RAT hints: rejected.
    for bad in ["4 0 1 3 0", "4 0 1 2 7 0", "4 0 1 2 -3 0", "4 0 1 2 0"] {
        assert!(check_lrat(&units, bad.as_bytes()).is_err(), "{bad}");
    }
}

fn varisat_proof(vars: usize, clauses: &[Vec<i32>]) -> Vec<u8> {
    use varisat::ExtendFormula;
    let mut proof = Vec::new();
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
        assert!(!solver.solve().unwrap());
        solver.close_proof().unwrap();
    }
    proof
}

#[test]
fn malformed_proofs_are_rejected_as_malformed() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    // Binary: a step that is neither 'a' nor 'd', an unterminated clause, the
    // literal code 1 (it names no literal), a literal of more than 63 bits.
    for bytes in [
        &b"x\x04\x00"[..],
        &[b'a', 4][..],
        &[b'a', 1, 0][..],
        &[
            b'a', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0,
        ][..],
    ] {
        expect_rejection(check(2, &clauses, bytes, ProofFormat::Binary), "malformed");
    }
    // Text: a token that is not a literal.
    expect_rejection(
        check(2, &clauses, b"2 x 0\n0\n", ProofFormat::Text),
        "malformed",
    );
}

#[test]
fn lrat_write_failure_is_a_write_error() {
    /// A sink that refuses every byte.
    struct Refusing;
    impl std::io::Write for Refusing {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("refused"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let result = check_to_lrat(2, &clauses, b"2 0\n0\n", ProofFormat::Text, &mut Refusing);
    expect_rejection(result, "write");
}
