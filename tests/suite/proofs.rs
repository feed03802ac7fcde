//! Proofs written by external solvers: `--solver-cmd` with `{proof}` (DRAT) or
//! `{lrat}` (LRAT), where an "unsatisfiable" stands only when the proof checks,
//! and `verify-proof` on certificates whose proof came from such a solver.
//! Scripted "solvers" lie in each way a proof can be wrong; Debian's `cadical`
//! (installed in CI) writes real text and binary DRAT proofs.

use crate::common;

use common::cli::{Run, file, txverify};
use std::path::{Path, PathBuf};

/// The 8-ring over C_8: no shortest-path table with 9 columns, one with 10.
const RING8: &str = "group: <a | a^8>\nnetwork: ring 8\ntable:\n";

/// The ring's file, written once for all the tests of this process (which run
/// in parallel and must not see it half written).
fn ring() -> String {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| {
        file("ring8-proofs.tbl", RING8)
            .to_str()
            .unwrap()
            .to_string()
    })
    .clone()
}

/// `txverify search -q --jobs 1 --time T RING --solver external --solver-cmd CMD [EXTRA…]`.
fn search(time: &str, command: &str, extra: &[&str]) -> Run {
    let ring = ring();
    let mut args = vec![
        "search",
        "-q",
        "--jobs",
        "1",
        "--time",
        time,
        &ring,
        "--solver",
        "external",
        "--solver-cmd",
        command,
    ];
    args.extend_from_slice(extra);
    txverify(&args)
}

fn verify(dir: &Path) -> Run {
    txverify(&["verify-proof", &ring(), dir.to_str().unwrap()])
}

fn cadical_installed() -> bool {
    std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_ok()
}

/// A fresh directory path (not created) for a certificate.
fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-proofs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A certificate for T = 9 from cadical's proof (`--no-binary` for text DRAT).
fn cadical_certificate(name: &str, text: bool) -> PathBuf {
    let dir = fresh_dir(name);
    let command = if text {
        "cadical -q --no-binary {cnf} {proof}"
    } else {
        "cadical -q {cnf} {proof}"
    };
    let run = search("9", command, &["--certificate", dir.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("proof checked"), "{}", run.stderr);
    dir.join("T9")
}

#[test]
fn a_lying_unsatisfiable_without_a_valid_proof_is_an_error() {
    for command in [
        // No proof written at all.
        "echo 's UNSATISFIABLE'; exit 20 # {cnf} {proof}",
        // An empty proof.
        "echo 's UNSATISFIABLE'; : > {proof}; exit 20 # {cnf}",
        // Garbage.
        "echo 's UNSATISFIABLE'; echo 'no proof here' > {proof}; exit 20 # {cnf}",
        // Only the empty clause, which does not follow by unit propagation.
        "echo 's UNSATISFIABLE'; echo 0 > {proof}; exit 20 # {cnf}",
        // An LRAT proof that is nothing.
        "echo 's UNSATISFIABLE'; echo '9999 0 1 0' > {lrat}; exit 20 # {cnf}",
    ] {
        for time in ["9", "10"] {
            let run = search(time, command, &[]);
            assert_eq!(run.code, 3, "{command}: {}{}", run.stdout, run.stderr);
            assert!(
                run.stderr.contains("its proof is rejected"),
                "{command}: {}",
                run.stderr
            );
            assert!(!run.stderr.contains("infeasible"), "{}", run.stderr);
        }
    }
    // With a certificate asked for, nothing is left that looks like one.
    let dir = fresh_dir("lying");
    let run = search(
        "9",
        "echo 's UNSATISFIABLE'; echo 0 > {proof}; exit 20 # {cnf}",
        &["--certificate", dir.to_str().unwrap()],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(!dir.join("T9/provenance.json").exists());
    assert!(!dir.join("T9/proof.drat").exists());
}

#[test]
fn one_proof_place_only() {
    let run = search("9", "x {cnf} {proof} {lrat}", &[]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn cadicals_proofs_certify_infeasibility_and_verify_proof_accepts_them() {
    if !cadical_installed() {
        eprintln!("cadical is not installed: skipped");
        return;
    }
    // Without a certificate: checked, then thrown away.
    let run = search("9", "cadical -q {cnf} {proof}", &[]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("infeasible T=9"), "{}", run.stderr);
    assert!(
        run.stderr.contains("the solver's proof checked"),
        "{}",
        run.stderr
    );
    // Without `{proof}`: the solver's word, said as such.
    let run = search("9", "cadical -q {cnf}", &[]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("solver's word"), "{}", run.stderr);
    // Binary (cadical's default) and text DRAT: both certificates verify.
    for text in [false, true] {
        let dir = cadical_certificate(if text { "text" } else { "binary" }, text);
        let provenance = std::fs::read_to_string(dir.join("provenance.json")).unwrap();
        assert!(provenance.contains("external: cadical"), "{provenance}");
        let run = verify(&dir);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.starts_with("verified: "), "{}", run.stdout);
        // The certificate's proof, written out as LRAT and checked again.
        let lrat = dir.join("out.lrat");
        let run = txverify(&[
            "verify-proof",
            &ring(),
            dir.to_str().unwrap(),
            "--lrat",
            lrat.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    }
}

/// The steps of a text DRAT proof: (deletion?, literals).
fn text_steps(text: &str) -> Vec<(bool, Vec<i64>)> {
    let mut steps = Vec::new();
    let mut current = (false, Vec::new());
    for token in text.split_whitespace() {
        match token {
            "d" => current.0 = true,
            "0" => steps.push(std::mem::take(&mut current)),
            l => current.1.push(l.parse().unwrap()),
        }
    }
    steps
}

/// The same steps in binary DRAT.
fn binary_of(steps: &[(bool, Vec<i64>)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (deletion, clause) in steps {
        out.push(if *deletion { b'd' } else { b'a' });
        for &l in clause {
            let mut code = 2 * l.unsigned_abs() + u64::from(l < 0);
            while code >= 0x80 {
                out.push((code & 0x7f) as u8 | 0x80);
                code >>= 7;
            }
            out.push(code as u8);
        }
        out.push(0);
    }
    out
}

fn text_of(steps: &[(bool, Vec<i64>)]) -> String {
    let mut out = String::new();
    for (deletion, clause) in steps {
        if *deletion {
            out.push_str("d ");
        }
        for l in clause {
            out.push_str(&format!("{l} "));
        }
        out.push_str("0\n");
    }
    out
}

#[test]
fn the_same_refutation_in_text_and_binary_verifies_and_corruptions_do_not() {
    if !cadical_installed() {
        eprintln!("cadical is not installed: skipped");
        return;
    }
    let dir = cadical_certificate("same", true);
    let proof = dir.join("proof.drat");
    let text = std::fs::read_to_string(&proof).unwrap();
    let steps = text_steps(&text);
    let lemmas = steps.iter().filter(|(d, _)| !d).count();
    assert!(lemmas > 10, "{text}");
    // Binary DRAT of the same steps: accepted, with as many lemmas checked.
    std::fs::write(&proof, binary_of(&steps)).unwrap();
    let binary_run = verify(&dir);
    assert_eq!(binary_run.code, 0, "{}", binary_run.stdout);
    std::fs::write(&proof, text_of(&steps)).unwrap();
    let text_run = verify(&dir);
    assert_eq!(text_run.code, 0, "{}", text_run.stdout);
    assert_eq!(text_run.stdout, binary_run.stdout);

    // Truncated: the first half of the lemmas (no contradiction), or cut
    // inside a clause (malformed), in both formats: rejected.
    let half: Vec<_> = steps[..steps.len() / 2].to_vec();
    let cut_binary = binary_of(&steps);
    for bytes in [
        text_of(&half).into_bytes(),
        binary_of(&half),
        text.as_bytes()[..text.len() / 2].to_vec(),
        cut_binary[..cut_binary.len() / 2].to_vec(),
    ] {
        std::fs::write(&proof, &bytes).unwrap();
        let run = verify(&dir);
        assert_eq!(run.code, 1, "{}", run.stdout);
        assert!(run.stdout.starts_with("rejected: "), "{}", run.stdout);
    }

    // A lemma that does not follow: the negation of one of the formula's unit
    // clauses (neither RUP nor RAT: resolving it with that unit gives itself),
    // then the empty clause.
    let formula = std::fs::read_to_string(dir.join("formula.cnf")).unwrap();
    let unit = formula
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p'))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|words| words.len() == 2)
        .map(|words| words[0].parse::<i64>().unwrap())
        .expect("the formula has a unit clause");
    std::fs::write(&proof, format!("{} 0\n0\n", -unit)).unwrap();
    let run = verify(&dir);
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout.contains(&format!(
            "line 1: lemma 1 (step 1) [{}] is not implied",
            -unit
        )),
        "{}",
        run.stdout
    );
}

#[test]
fn a_solver_that_proves_a_lemma_it_cannot_is_rejected() {
    if !cadical_installed() {
        eprintln!("cadical is not installed: skipped");
        return;
    }
    // T = 10 is satisfiable: the "solver" takes a literal of a real model and
    // claims its negation as a lemma, then the empty clause.
    let command = "l=$(cadical -q {cnf} | grep '^v' | tr ' ' '\\n' | grep -E '^[0-9]+$' | grep -v '^0$' | head -1); \
                   printf -- '-%s 0\\n0\\n' \"$l\" > {proof}; echo 's UNSATISFIABLE'; exit 20";
    let run = search("10", command, &[]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("step 1"), "{}", run.stderr);
    assert!(run.stderr.contains("is not implied"), "{}", run.stderr);
}

#[test]
fn an_lrat_proof_from_the_solver_is_checked_and_kept() {
    if !cadical_installed() {
        eprintln!("cadical is not installed: skipped");
        return;
    }
    // An LRAT proof of T = 9, made from cadical's DRAT by verify-proof.
    let dir = cadical_certificate("for-lrat", false);
    let lrat = file("ring8.lrat", "");
    let run = txverify(&[
        "verify-proof",
        &ring(),
        dir.to_str().unwrap(),
        "--lrat",
        lrat.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
    // A "solver" that hands it over at `{lrat}`.
    let command = format!(
        "cp '{}' {{lrat}}; echo 's UNSATISFIABLE'; exit 20 # {{cnf}}",
        lrat.display()
    );
    let kept = fresh_dir("lrat-kept");
    let run = search("9", &command, &["--certificate", kept.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let kept = kept.join("T9");
    assert!(kept.join("proof.lrat").exists());
    let run = verify(&kept);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The same LRAT with its last step's hints cut: rejected when the solver
    // answers, and by verify-proof.
    let text = std::fs::read_to_string(&lrat).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let last = lines.len() - 1;
    lines[last] = format!("{} 0 0", lines[last].split(' ').next().unwrap());
    let bad = file("ring8-bad.lrat", &(lines.join("\n") + "\n"));
    let command = format!(
        "cp '{}' {{lrat}}; echo 's UNSATISFIABLE'; exit 20 # {{cnf}}",
        bad.display()
    );
    let run = search("9", &command, &[]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    std::fs::copy(&bad, kept.join("proof.lrat")).unwrap();
    let run = verify(&kept);
    assert_eq!(run.code, 1, "{}", run.stdout);
}
