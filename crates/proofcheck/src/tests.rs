//! Tests of the DRAT checker, the LRAT writer and the LRAT checker.

use super::parse::Step;
use super::*;

/// Every step of a DRAT proof.
fn parse(bytes: &[u8], format: ProofFormat) -> Result<Vec<(Step, Vec<i64>)>, ProofError> {
    let mut steps = Vec::new();
    lex::steps(bytes, format, &mut |step| {
        let lits = step.lits.iter().map(|&l| store::lit_value(l)).collect();
        steps.push((step.kind, lits));
        Ok(())
    })?;
    Ok(steps)
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

/// Whether `result` says the lemma at `step` (DRAT: steps counted with
/// deletions; LRAT: the line) is not implied, for `clause`.
fn not_rup<T>(result: Result<T, ProofError>, step: usize, clause: &[i64]) -> bool {
    match result {
        Err(ProofError::NotRup { step: s, clause: c }) => s == step && c == clause,
        Err(ProofError::LemmaNotImplied {
            step: s, clause: c, ..
        }) => s == step && c == clause,
        _ => false,
    }
}

/// Whether an LRAT check failed at this step, the lemma neither following from
/// its hints nor passing the RAT check they spell out.
fn lrat_rejects<T>(result: Result<T, ProofError>, step: usize, clause: &[i64]) -> bool {
    match result {
        Err(ProofError::NotRat {
            step: s, clause: c, ..
        }) => s == step && c == clause,
        other => not_rup(other, step, clause),
    }
}

#[test]
fn not_rup_lemmas_are_rejected() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2]];
    // Satisfiable (1 = 2 = true): no proof may pass.
    let check_text = |proof: &[u8]| check(2, &clauses, proof, ProofFormat::Text);
    assert!(not_rup(check_text(b"-2 0\n0\n"), 1, &[-2]));
    assert!(not_rup(check_text(b"0\n"), 1, &[]));
    assert!(not_rup(check_text(b"d 1 2 0\n0\n"), 2, &[]));
}

#[test]
fn a_proof_that_stops_short_has_no_contradiction() {
    let satisfiable = vec![vec![1, 2], vec![-1, 2], vec![1, -2]];
    assert!(matches!(
        check(2, &satisfiable, b"", ProofFormat::Text),
        Err(ProofError::NoContradiction)
    ));
    // Unsatisfiable, but not refuted by unit propagation alone.
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    assert!(matches!(
        check(2, &clauses, b"", ProofFormat::Text),
        Err(ProofError::NoContradiction)
    ));
    assert!(matches!(
        check(2, &clauses, b"2 0\n", ProofFormat::Text),
        Ok(report) if report.lemmas == 1
    ));
}

/// Every clause over three variables: unsatisfiable, and no single literal
/// follows by unit propagation alone.
fn all_three() -> Vec<Vec<i32>> {
    let mut clauses = Vec::new();
    for bits in 0..8 {
        let sign = |k: i32| if bits & (4 >> (k - 1)) == 0 { k } else { -k };
        clauses.push(vec![sign(1), sign(2), sign(3)]);
    }
    clauses
}

/// A refutation of [`all_three`] through the extension variable 4 ≡ 1,
/// defined by two RAT lemmas (neither is RUP).
const EXTENDED: &str = "4 -1 0\n-4 1 0\n4 2 0\nd 4 2 7 0\n4 0\n-2 0\n0\n";

#[test]
fn extension_variables_defined_by_rat_lemmas_are_accepted() {
    let clauses = all_three();
    let report = check(3, &clauses, EXTENDED.as_bytes(), ProofFormat::Text).unwrap();
    assert_eq!((report.lemmas, report.rat_lemmas), (5, 2));
    assert_eq!(report.ignored_deletions, 1);
    // The same proof in binary, told apart from text by its first byte.
    let binary: &[u8] = &[
        b'a', 8, 3, 0, b'a', 9, 2, 0, b'a', 8, 4, 0, b'd', 8, 4, 14, 0, b'a', 8, 0, b'a', 5, 0,
        b'a', 0,
    ];
    let report = check_reader(3, &clauses, binary, None).unwrap();
    assert_eq!((report.lemmas, report.rat_lemmas), (5, 2));
}

#[test]
fn broken_extension_proofs_are_rejected_with_the_lemma_named() {
    let clauses = all_three();
    // With the first definition of the wrong sign, the second is not RAT on
    // ¬4, but it is on 1 (every resolvent on 1 is RUP), which drat-trim
    // accepts too.
    let other_pivot = "4 1 0\n-4 1 0\n4 2 0\n4 0\n-2 0\n0\n";
    let report = check(3, &clauses, other_pivot.as_bytes(), ProofFormat::Text).unwrap();
    assert_eq!(report.rat_lemmas, 2);
    let cases: [(&str, usize, &[i64]); 3] = [
        // Without the second definition, -2 is RAT but the end is not reached.
        ("4 -1 0\n4 2 0\n4 0\n-2 0\n0\n", 5, &[]),
        // A clause over two fresh variables, RAT on its first, and an empty
        // clause that does not follow: backwards, the empty clause fails first.
        ("4 -1 0\n-4 1 0\n4 5 0\n0\n", 4, &[]),
        // The empty clause too early.
        ("4 -1 0\n-4 1 0\n0\n", 3, &[]),
    ];
    for (proof, step, lemma) in cases {
        match check(3, &clauses, proof.as_bytes(), ProofFormat::Text) {
            Err(ProofError::LemmaNotImplied {
                step: s, clause, ..
            }) => {
                assert_eq!((s, &clause[..]), (step, lemma), "{proof}");
            }
            other => panic!("{proof}: {other:?}"),
        }
    }
}

#[test]
fn absurdly_large_variables_are_refused_not_allocated() {
    let clauses = all_three();
    assert!(matches!(
        check(3, &clauses, b"4 0\n99999999999 0\n", ProofFormat::Text),
        Err(ProofError::VariableTooLarge {
            step: 2,
            variable: 99_999_999_999
        })
    ));
}

/// [`EXTENDED`] in LRAT, with a third extension variable 5 whose RAT lemma
/// `5 1` needs a hint group (`-11 1 2`: the resolvent with `-5 2` is RUP).
const EXTENDED_LRAT: &str = "9 4 -1 0 0
10 -4 1 0 -9 0
11 -5 2 0 0
12 5 1 0 -11 1 2 0
13 4 2 0 9 1 2 0
14 4 0 9 13 3 4 0
15 -2 0 14 10 7 8 0
16 0 14 10 15 5 6 0
";

#[test]
fn lrat_rat_hints_are_followed() {
    let clauses = all_three();
    assert_eq!(check_lrat(&clauses, EXTENDED_LRAT.as_bytes()).unwrap(), 8);
}

#[test]
fn broken_lrat_rat_steps_are_rejected_with_the_lemma_named() {
    let clauses = all_three();
    let rat_fails = [
        // The group's hints stop short of a conflict.
        ("12 5 1 0 -11 1 2 0", "12 5 1 0 -11 1 0", 4, 11),
        // The group is missing.
        ("12 5 1 0 -11 1 2 0", "12 5 1 0 0", 4, 11),
        // The first definition has the wrong sign: the second's RAT check fails.
        ("9 4 -1 0 0", "9 4 1 0 0", 2, 9),
    ];
    for (from, to, line, candidate) in rat_fails {
        let proof = EXTENDED_LRAT.replace(from, to);
        match check_lrat(&clauses, proof.as_bytes()) {
            Err(ProofError::NotRat {
                step, candidate: c, ..
            }) => assert_eq!((step, c), (line, candidate), "{to}"),
            other => panic!("{to}: {other:?}"),
        }
    }
    use LratMalformation::*;
    let malformed = [
        ("12 5 1 0 -9 1 2 0", RatHintNotCandidate),
        ("12 5 1 0 -11 1 2 -11 0", RatHintRepeated),
        ("12 5 1 0 -11 1 99 0", HintNotPresent),
    ];
    for (to, problem) in malformed {
        let proof = EXTENDED_LRAT.replace("12 5 1 0 -11 1 2 0", to);
        match check_lrat(&clauses, proof.as_bytes()) {
            Err(ProofError::MalformedLrat {
                line: 4,
                problem: p,
            }) => assert_eq!(p, problem, "{to}"),
            other => panic!("{to}: {other:?}"),
        }
    }
}

#[test]
fn malformed_drat_proofs_say_where_and_what() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let cases: [(&[u8], ProofFormat, usize, Malformation); 7] = [
        (
            &[b'a', 4, 0, b'x'],
            ProofFormat::Binary,
            3,
            Malformation::BadTag(b'x'),
        ),
        (
            &[b'a', 4],
            ProofFormat::Binary,
            2,
            Malformation::UnterminatedClause,
        ),
        (
            &[
                b'a', 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1,
            ],
            ProofFormat::Binary,
            11,
            Malformation::LiteralTooLarge,
        ),
        (
            &[b'a', 1, 0],
            ProofFormat::Binary,
            2,
            Malformation::LiteralCodeOne,
        ),
        (
            &[b'2', b' ', 0xff],
            ProofFormat::Text,
            2,
            Malformation::NotUtf8,
        ),
        (
            b"2 0\n1 x 0\n",
            ProofFormat::Text,
            6,
            Malformation::BadToken("x".into()),
        ),
        (
            b"2 0\n1 2",
            ProofFormat::Text,
            7,
            Malformation::UnterminatedClause,
        ),
    ];
    for (proof, format, offset, problem) in cases {
        match check(2, &clauses, proof, format) {
            Err(ProofError::Malformed {
                offset: o,
                problem: p,
            }) => assert_eq!((o, &p), (offset, &problem), "{proof:?}"),
            other => panic!("{proof:?}: {other:?}"),
        }
    }
}

#[test]
fn lrat_output_that_cannot_be_written_is_a_write_error() {
    struct Full;
    impl Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::other("no room"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let result = check_to_lrat(2, &clauses, &b"2 0\n0\n"[..], None, &mut Full);
    assert!(matches!(result, Err(ProofError::Write(e)) if e.to_string() == "no room"));
    // The same proof into a writer that works: accepted.
    assert!(check_to_lrat(2, &clauses, &b"2 0\n0\n"[..], None, &mut Vec::new()).is_ok());
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
        // Drop one clause from the formula: now satisfiable, so some lemma
        // stops following from the clauses.
        let mut weaker = clauses.clone();
        weaker.remove(0);
        assert!(matches!(
            check(vars, &weaker, &proof, ProofFormat::Binary),
            Err(ProofError::LemmaNotImplied { .. })
        ));
        // Keep only the last lemma (the empty clause): not RUP for n ≥ 2.
        let steps = parse(&proof, ProofFormat::Binary).unwrap();
        let last = steps.iter().rposition(|(k, _)| *k == Step::Add).unwrap();
        let mut text = String::new();
        for l in &steps[last].1 {
            text.push_str(&format!("{l} "));
        }
        text.push_str("0\n");
        assert!(not_rup(
            check(vars, &clauses, text.as_bytes(), ProofFormat::Text),
            1,
            &steps[last].1
        ));
    }
}

fn lrat_of(vars: usize, clauses: &[Vec<i32>], proof: &[u8], format: ProofFormat) -> String {
    let mut out = Vec::new();
    check_to_lrat(vars, clauses, proof, Some(format), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// Whether `lemma` is RUP or RAT on its first literal, by the DRAT checker's
/// database (code apart from the LRAT checker), over the clauses present after
/// these LRAT lines: then a hint cut from it may rightly change nothing.
fn rat_by_drat(clauses: &[Vec<i32>], lines: &[&str], lemma: &[i64]) -> bool {
    let mut present: std::collections::BTreeMap<i64, Vec<i64>> = (1..)
        .zip(
            clauses
                .iter()
                .map(|c| c.iter().map(|&l| i64::from(l)).collect()),
        )
        .collect();
    for line in lines {
        let words: Vec<i64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
        if line.contains(" d ") {
            for id in &words[1..] {
                present.remove(id);
            }
        } else {
            let clause = words[1..].iter().copied().take_while(|&l| l != 0).collect();
            present.insert(words[0], clause);
        }
    }
    let clauses: Vec<Vec<i64>> = present.into_values().collect();
    backward::implied(&clauses, lemma)
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
        // (The clause numbers shift, so a hint names another clause.)
        assert!(
            matches!(
                check_lrat(&weaker, lrat.as_bytes()),
                Err(ProofError::NotRup { .. } | ProofError::MalformedLrat { .. })
            ),
            "n = {n}"
        );
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
            let clause: Vec<i64> = words[1..]
                .iter()
                .map(|w| w.parse().unwrap())
                .take_while(|&l| l != 0)
                .collect();
            assert!(
                lrat_rejects(check_lrat(&clauses, text.as_bytes()), i + 1, &clause)
                    || rat_by_drat(&clauses, &lines[..i], &clause),
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
    // Hints that leave the clause unrefuted.
    assert!(not_rup(check_lrat(&units, b"4 0 1 3 0"), 1, &[]));
    assert!(not_rup(check_lrat(&units, b"4 0 1 2 0"), 1, &[]));
    // No empty clause at the end.
    assert!(matches!(
        check_lrat(&units, b"4 2 0 1 2 0\n"),
        Err(ProofError::NoContradiction)
    ));
    assert!(matches!(
        check_lrat(&units, b""),
        Err(ProofError::NoContradiction)
    ));
}

#[test]
fn malformed_lrat_lines_say_which_and_what() {
    use LratMalformation::*;
    let units = vec![vec![1], vec![-1, 2], vec![-2]];
    let cases: [(&str, usize, LratMalformation); 11] = [
        ("x 0 0", 1, NoStepNumber),
        ("4 d 1 x 0", 1, BadClauseNumber),
        ("4 2 0 1 2 0\n4 0 1 2 3 0", 2, StepNumberNotIncreasing),
        ("3 0 1 2 3 0", 1, StepNumberNotIncreasing),
        ("4 0 1 x 0", 1, NotANumber),
        ("4 1", 1, ClauseNotEnded),
        ("4 0 1 2", 1, HintsNotEnded),
        ("4 2 0 -1 0", 1, RatHintNotCandidate),
        ("4 2 0 -3 -3 0", 1, RatHintRepeated),
        ("4 0 1 2 7 0", 1, HintNotPresent),
        ("4 0 1 2 2 0", 1, HintSatisfied),
    ];
    for (text, line, problem) in cases {
        match check_lrat(&units, text.as_bytes()) {
            Err(ProofError::MalformedLrat {
                line: l,
                problem: p,
            }) => assert_eq!((l, p), (line, problem), "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(matches!(
        check_lrat(&units, b"4 0 2 0"),
        Err(ProofError::MalformedLrat {
            line: 1,
            problem: HintNotUnit
        })
    ));
    assert!(matches!(
        check_lrat(&units, &[b'4', b' ', 0xff]),
        Err(ProofError::Malformed {
            offset: 2,
            problem: Malformation::NotUtf8
        })
    ));
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
fn rat_lemmas_on_their_first_literal_are_accepted_and_others_rejected() {
    // Unsatisfiable on 1 and 2; variable 3 is free: (3) is RAT (no clause has
    // ¬3) but not RUP.
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let report = check(3, &clauses, b"3 0\n2 0\n0\n", ProofFormat::Text).unwrap();
    // (2) makes the clauses refuted by unit propagation: the replay stops
    // there, and (3) is not in the core, so it is never checked.
    assert_eq!(
        (report.lemmas, report.core_lemmas, report.rat_lemmas),
        (2, 1, 0)
    );
    // (3) in the core: with (¬3 ∨ 2) it refutes, and it is RAT; (2 ∨ 3) is
    // not used.
    let report = check(3, &clauses, b"3 0\n2 3 0\n-3 2 0\n0\n", ProofFormat::Text).unwrap();
    assert_eq!((report.core_lemmas, report.rat_lemmas), (2, 1));
    // Satisfiable (2 = 3 = true): (¬3) is neither RUP nor RAT, since resolving
    // it with (¬2 ∨ 3) gives (¬3 ∨ ¬2), not RUP.
    let satisfiable = vec![vec![1, 2], vec![-1, 2], vec![-2, 3]];
    assert!(not_rup(
        check(4, &satisfiable, b"-3 0\n0\n", ProofFormat::Text),
        1,
        &[-3]
    ));
    // (¬3 ∨ 4) is not RAT on ¬3 but is on 4, the second literal, tried next
    // as drat-trim does; with (¬4) after it, (¬3) follows and refutes.
    let report = check(4, &satisfiable, b"-3 4 0\n-4 0\n-3 0\n", ProofFormat::Text);
    assert!(not_rup(report, 2, &[-4]));
    let report = check(4, &satisfiable, b"-3 4 0\n-3 0\n", ProofFormat::Text);
    assert!(not_rup(report, 2, &[-3]));
    // RAT lemmas are written as LRAT with a hint group per resolved clause.
    let lrat = lrat_of(3, &clauses, b"3 0\n2 3 0\n-3 2 0\n0\n", ProofFormat::Text);
    assert!(lrat.starts_with("5 3 0 0\n"), "{lrat}");
    assert_eq!(check_lrat(&clauses, lrat.as_bytes()).unwrap(), 3);
}

#[test]
fn text_and_binary_are_told_apart_by_their_first_bytes() {
    let clauses = vec![
        vec![1, 2],
        vec![-1, 2],
        vec![1, -2],
        vec![-1, -2],
        vec![1, 2, 3],
    ];
    // The same refutation, with a deletion of the clause not needed first, in both formats.
    let text = b"c a comment\nd 1 2 3 0\n2 0\n0\n";
    let binary = [b'd', 2, 4, 6, 0, b'a', 4, 0, b'a', 0];
    for (proof, expected) in [
        (&text[..], ProofFormat::Text),
        (&binary[..], ProofFormat::Binary),
        (b"d 1 2 0\n", ProofFormat::Text),
        (b"", ProofFormat::Text),
    ] {
        assert_eq!(
            parse::detect(&mut &proof[..]).unwrap().0,
            expected,
            "{proof:?}"
        );
    }
    for proof in [&text[..], &binary[..]] {
        let report = check_reader(3, &clauses, proof, None).unwrap();
        assert_eq!((report.lemmas, report.deletions), (1, 1), "{proof:?}");
    }
    // Read a byte at a time, across every buffer boundary.
    for proof in [&text[..], &binary[..]] {
        let slow = std::io::BufReader::with_capacity(1, proof);
        assert!(check_reader(3, &clauses, slow, None).is_ok());
    }
}

#[test]
fn deleted_clauses_are_not_used_and_absent_ones_are_ignored() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let proof = b"2 0\n0\n";
    assert!(check(2, &clauses, proof, ProofFormat::Text).is_ok());
    // Without (¬1 ∨ 2), (2) is neither RUP nor RAT (its resolvent with
    // (¬1 ∨ ¬2) is not refuted).
    let deleted = check(2, &clauses, b"d -1 2 0\n2 0\n0\n", ProofFormat::Text);
    assert!(not_rup(deleted, 2, &[2]));
    // Literals in another order, repeated: the same clause.
    let deleted = check(2, &clauses, b"d 2 -1 2 0\n2 0\n0\n", ProofFormat::Text);
    assert!(not_rup(deleted, 2, &[2]));
    // A deletion of a clause not present changes nothing.
    let report = check(2, &clauses, b"d 1 2 -1 0\n2 0\n0\n", ProofFormat::Text).unwrap();
    assert_eq!((report.deletions, report.ignored_deletions), (0, 1));
    // A unit clause is never deleted (as in drat-trim): it still refutes.
    let units = vec![vec![1], vec![-1, 2], vec![-2, 3], vec![-3, -1]];
    let report = check(3, &units, b"d 1 0\n0\n", ProofFormat::Text).unwrap();
    assert_eq!(report.deletions, 0);
}

#[test]
fn duplicate_literals_and_tautologies_are_harmless() {
    let clauses = vec![
        vec![1, 2, 1],
        vec![-1, 2],
        vec![1, -2],
        vec![-1, -2],
        vec![3, -3],
    ];
    assert!(check(3, &clauses, b"2 2 0\n1 -1 0\n0\n", ProofFormat::Text).is_ok());
    assert!(check(3, &clauses, b"1 -1 0\n0\n", ProofFormat::Text).is_err());
}

#[test]
fn binary_lrat_is_read_like_text() {
    let clauses = vec![vec![1, 2], vec![-1, 2], vec![1, -2], vec![-1, -2]];
    let text = b"5 2 0 1 2 0\n5 d 1 0\n6 0 5 3 4 0\n";
    assert_eq!(check_lrat(&clauses, text).unwrap(), 2);
    // Numbers as 2|x| + sign: step 5 is 10, literal 2 is 4, hint 1 is 2.
    let binary = [
        b'a', 10, 4, 0, 2, 4, 0, b'd', 2, 0, b'a', 12, 0, 10, 6, 8, 0,
    ];
    assert_eq!(check_lrat(&clauses, &binary).unwrap(), 2);
    // A hint to the deleted clause 1 fails.
    let uses_deleted = [b'a', 10, 4, 0, 2, 4, 0, b'd', 2, 0, b'a', 12, 0, 2, 6, 8, 0];
    assert!(matches!(
        check_lrat(&clauses, &uses_deleted),
        Err(ProofError::MalformedLrat {
            line: 3,
            problem: LratMalformation::HintNotPresent
        })
    ));
}
