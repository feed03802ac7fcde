//! `search --solver external --solver-cmd CMD`: any solver that follows the SAT
//! competition's conventions. Scripted "solvers" test what is done with each
//! kind of answer; Debian's `cadical`, when installed, finds a real table.

use crate::common;

use common::cli::{Run, file, txverify};

/// The 8-ring over C_8: no table with 9 columns among shortest-path tables,
/// one with 10.
const RING8: &str = "group: <a | a^8>\nnetwork: ring 8\ntable:\n";

fn search(path: &str, time: &str, command: &str) -> Run {
    txverify(&[
        "search",
        "-q",
        "--jobs",
        "1",
        "--time",
        time,
        path,
        "--solver",
        "external",
        "--solver-cmd",
        command,
    ])
}

/// `txverify search -q --time 10 --model MODEL TABLE`.
fn decode(model: &str, table: &str) -> Run {
    txverify(&["search", "-q", "--time", "10", "--model", model, table])
}

/// Whether Debian's `cadical` (or another on the path) can be run.
fn cadical_installed() -> bool {
    std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_ok()
}

#[test]
fn an_unsatisfiable_answer_is_reported_as_the_solvers_word() {
    let ring = file("ring8-unsat.tbl", RING8);
    let run = search(
        ring.to_str().unwrap(),
        "9",
        "test -s {cnf} && echo 's UNSATISFIABLE' && exit 20",
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
}

#[test]
fn a_model_that_is_not_one_is_an_error_never_a_table() {
    let ring = file("ring8-garbage.tbl", RING8);
    let path = ring.to_str().unwrap();
    for command in [
        // Truncated: no closing 0.
        "echo 's SATISFIABLE'; echo 'v 1 2'; exit 10 # {cnf}",
        // Every variable false: falsifies the formula's clauses.
        "n=$(grep '^p cnf' {cnf} | cut -d' ' -f3); echo 's SATISFIABLE'; \
         printf 'v'; seq 1 $n | sed 's/^/-/' | tr '\\n' ' '; echo 0; exit 10",
        // The exit status says unsatisfiable.
        "echo 's SATISFIABLE'; echo 'v 0'; exit 20 # {cnf}",
        // No answer at all.
        "true {cnf}",
    ] {
        let run = search(path, "10", command);
        assert_eq!(run.code, 3, "{command}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stderr.contains("external solver"),
            "{command}: {}",
            run.stderr
        );
        assert!(
            !run.stdout.contains("table:"),
            "{command}: a table was printed"
        );
    }
}

#[test]
fn the_command_must_name_the_formula_and_go_with_external() {
    let ring = file("ring8-args.tbl", RING8);
    let path = ring.to_str().unwrap();
    let run = search(path, "10", "cadical");
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = txverify(&[
        "search",
        "-q",
        "--time",
        "10",
        path,
        "--solver-cmd",
        "x {cnf}",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
}

#[test]
fn cadical_finds_a_table_the_kernel_accepts_when_installed() {
    if !cadical_installed() {
        eprintln!("cadical is not installed: skipped");
        return;
    }
    let ring = file("ring8-cadical.tbl", RING8);
    let run = search(ring.to_str().unwrap(), "10", "cadical -q {cnf}");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let found = file("ring8-found.tbl", &run.stdout);
    let check = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(check.code, 0, "{}", check.stdout);
    assert!(check.stdout.contains("time         10"), "{}", check.stdout);
    // 9 columns: cadical proves it impossible (its word only).
    let run = search(ring.to_str().unwrap(), "9", "cadical -q {cnf}");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
}

#[test]
fn a_model_file_is_decoded_only_when_it_is_a_model() {
    let ring = file("ring8-model.tbl", RING8);
    let path = ring.to_str().unwrap();
    let cnf = std::env::temp_dir().join(format!("txverify-ring8-{}.cnf", std::process::id()));
    let cnf = cnf.to_str().unwrap();
    let run = txverify(&["search", "-q", "--time", "10", "--dimacs", cnf, path]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let vars: usize = std::fs::read_to_string(cnf)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap();
    // Every variable false falsifies the formula; an `s UNSATISFIABLE` is no model.
    let all_false: String = (1..=vars).map(|v| format!("-{v} ")).collect();
    for text in [format!("v {all_false}0\n"), "s UNSATISFIABLE\n".to_string()] {
        let model = file("bad.model", &text);
        let run = decode(model.to_str().unwrap(), path);
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(!run.stdout.contains("table:"));
    }
    if !cadical_installed() {
        eprintln!("cadical is not installed: the decoding of a real model is skipped");
        return;
    }
    let solved = std::process::Command::new("cadical")
        .args(["-q", cnf])
        .output()
        .unwrap();
    let model = file("good.model", &String::from_utf8_lossy(&solved.stdout));
    let run = decode(model.to_str().unwrap(), path);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = file("ring8-decoded.tbl", &run.stdout);
    assert_eq!(txverify(&["check", found.to_str().unwrap()]).code, 0);
}
