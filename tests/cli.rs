//! End-to-end tests of the `txverify` binary: exit codes, diagnostics, reports.

use std::path::{Path, PathBuf};
use std::process::Command;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn txverify(args: &[&str]) -> Run {
    let output = Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Writes `text` to a fresh file named `name` and returns its path.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// `txverify search -q --time T --dimacs CNF TABLE`.
fn write_dimacs(table: &std::path::Path, time: usize, cnf: &std::path::Path) -> Run {
    let time = time.to_string();
    txverify(&[
        "search",
        "-q",
        "--time",
        &time,
        "--dimacs",
        cnf.to_str().unwrap(),
        table.to_str().unwrap(),
    ])
}

fn check(name: &str, text: &str) -> Run {
    let path = file(name, text);
    txverify(&["check", path.to_str().unwrap()])
}

const RING6: &str = "\
name: ring6-dihedral-total
group: <b, B | b^2 = B^2 = (bB)^3 = 1>
expect: time 5
expect: optimal
table:
bBb bB
Bb B . b
";

#[test]
fn valid_optimal_table_exits_0_with_its_figures() {
    let run = check("ring6.tbl", RING6);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("(order 6)"), "{}", run.stdout);
    assert!(run.stdout.contains("sum of distances 9"), "{}", run.stdout);
    assert!(run.stdout.contains("lower bound  5"), "{}", run.stdout);
    assert!(run.stdout.contains("OPTIMAL"), "{}", run.stdout);
}

#[test]
fn failed_claim_exits_1() {
    let run = check("claim.tbl", &RING6.replace("time 5", "time 4"));
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("expect       time 4: FAILS"),
        "{}",
        run.stdout
    );
}

#[test]
fn column_conflict_exits_1_with_row_column_and_word() {
    let run = check("conflict.tbl", &RING6.replace("Bb B . b", "bB B . b"));
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("column 1: link `b` used twice: row 1 word `bBb` (from column 1) and row 2 word `bB` (from column 1)"),
        "{}",
        run.stdout
    );
}

#[test]
fn unknown_table_letter_is_an_invalid_table_not_a_parse_error() {
    let run = check("letter.tbl", &RING6.replace("Bb B . b", "Bb B . c"));
    assert_eq!(run.code, 1);
    assert!(
        run.stdout
            .contains("row 2, column 5: word `c`: letter `c` is not a generator"),
        "{}",
        run.stdout
    );
}

#[test]
fn parse_error_exits_2_with_file_line_column_and_caret() {
    let run = check(
        "parse.tbl",
        &RING6.replace("expect: optimal", "expect: fastest"),
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("parse.tbl:4:9: error:"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains(" 4 | expect: fastest"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("^^^^^^^"), "{}", run.stderr);
}

#[test]
fn unknown_link_in_header_exits_2() {
    let run = check("links.tbl", &RING6.replace("expect: time 5", "links: b c"));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("links.tbl:3:10: error: link `c` is not a generator"),
        "{}",
        run.stderr
    );
}

#[test]
fn duplicate_link_in_header_exits_2() {
    let run = check("dup.tbl", &RING6.replace("expect: time 5", "links: b b'"));
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("is the same group element as link `b`"),
        "{}",
        run.stderr
    );
}

#[test]
fn identity_message_word_exits_2() {
    let run = check(
        "to.tbl",
        &RING6.replace("expect: time 5", "messages: to b bb"),
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("to.tbl:3:16: error: message word names the identity"),
        "{}",
        run.stderr
    );
}

#[test]
fn infinite_group_exits_2() {
    let run = check("inf.tbl", "group: <a, b | a^2>\ntable:\n");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("inf.tbl:1:8: error:"), "{}", run.stderr);
    assert!(run.stderr.contains("infinite"), "{}", run.stderr);
}

#[test]
fn missing_file_exits_2() {
    let run = txverify(&["check", "/nonexistent/table.tbl"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("cannot read /nonexistent/table.tbl"),
        "{}",
        run.stderr
    );
}

#[test]
fn json_report_has_the_documented_fields() {
    let path = file("json.tbl", RING6);
    let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 0);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(value["schema"], "txverify-check/1");
    assert_eq!(value["group"]["order"], 6);
    assert_eq!(value["verdict"], "optimal");
    assert_eq!(value["time"], 5);
    assert_eq!(value["bound"]["value"], 5);
    assert_eq!(value["exit_code"], 0);
    assert_eq!(value["expectations"][1]["claim"], "optimal");
}

#[test]
fn json_error_report_has_line_and_column() {
    let path = file("jsonerr.tbl", "group: <a | a^5>\nfoo: 1\n");
    let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(value["error"]["line"], 2);
    assert_eq!(value["error"]["column"], 1);
    assert_eq!(value["exit_code"], 2);
}

#[test]
fn fmt_round_trips_and_aligns() {
    let path = file("fmt.tbl", RING6);
    let run = txverify(&["fmt", path.to_str().unwrap()]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("bBb  bB\nBb B . b"), "{}", run.stdout);
    let again = file("fmt2.tbl", &run.stdout);
    let rerun = txverify(&["fmt", again.to_str().unwrap()]);
    assert_eq!(rerun.stdout, run.stdout);
}

#[test]
fn worst_exit_code_wins_over_several_files() {
    let good = file("good.tbl", RING6);
    let bad = file("bad.tbl", "group: <a | a^3>\ntable:\na a\n");
    let run = txverify(&["check", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(run.code, 1);
}

#[test]
fn check_simulates_on_the_declared_network() {
    let run = check(
        "net.tbl",
        &RING6.replace("expect: time 5", "network: ring 6\nexpect: time 5"),
    );
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("network      ring 6 (declared; isomorphic"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "simulation   on ring 6: 30 of 30 messages arrived, 54 hops, completion time 5"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn check_infers_the_network_when_none_is_declared() {
    let run = check("infer.tbl", RING6);
    assert!(
        run.stdout.contains("network      ring 6 (inferred"),
        "{}",
        run.stdout
    );
}

#[test]
fn wrong_network_exits_1_with_the_reason() {
    let run = check(
        "wrong.tbl",
        &RING6.replace("expect: time 5", "network: ring 8"),
    );
    assert_eq!(run.code, 1, "{}", run.stdout);
    assert!(
        run.stdout
            .contains("MISMATCH: the Cayley graph is not ring 8"),
        "{}",
        run.stdout
    );
}

#[test]
fn hypercube_group_matches_the_4x4_torus() {
    let text = std::fs::read_to_string("tables/hypercube4-a.tbl")
        .unwrap()
        .replace("network: hypercube 4", "network: torus 4 4");
    let run = check("cube-as-torus.tbl", &text);
    assert_eq!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("torus 4 4 (declared; isomorphic"),
        "{}",
        run.stdout
    );
}

#[test]
fn invalid_table_fails_simulation_too_and_they_agree() {
    let run = check("bad-sim.tbl", &RING6.replace("Bb B . b", "bB B . b"));
    assert_eq!(run.code, 1);
    assert!(
        run.stdout.contains("simulation   on ring 6:"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("FAILED ("), "{}", run.stdout);
    assert!(
        run.stdout.contains("first conflict: step 1"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("BUG"), "{}", run.stdout);
}

#[test]
fn no_simulate_skips_the_simulation() {
    let path = file("nosim.tbl", RING6);
    let run = txverify(&["check", "--no-simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains("simulation   not run (not requested)"),
        "{}",
        run.stdout
    );
}

#[test]
fn simulate_trace_lists_every_hop() {
    let path = file("trace.tbl", RING6);
    let run = txverify(&["simulate", "--trace", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("verdict      CLEAN"), "{}", run.stdout);
    // 54 hops, one line each, under 5 step headers.
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.contains(" message "))
            .count(),
        54
    );
    assert_eq!(
        run.stdout
            .lines()
            .filter(|l| l.starts_with("step "))
            .count(),
        5
    );
}

#[test]
fn simulate_reports_the_conflicting_messages() {
    let path = file("simbad.tbl", &RING6.replace("Bb B . b", "bB B . b"));
    let run = txverify(&["simulate", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 1);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(value["report"]["valid"], false);
    let first = &value["report"]["first_conflict"];
    assert_eq!(first["kind"], "link_conflict");
    assert_eq!(first["step"], 1);
}

const RING8_HEADER: &str = "group: <y, Y | y^2 = Y^2 = (yY)^4 = 1>\nnetwork: ring 8\ntable:\n";

#[test]
fn search_finds_an_optimal_table_that_check_accepts() {
    let path = file("search8.tbl", RING8_HEADER);
    let run = txverify(&["search", "-q", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("expect: time 8\nexpect: optimal\ntable:\n"),
        "{}",
        run.stdout
    );
    let found = file("found8.tbl", &run.stdout);
    let recheck = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(recheck.code, 0, "{}", recheck.stdout);
    assert!(recheck.stdout.contains("OPTIMAL"), "{}", recheck.stdout);
}

const TORUS44_HEADER: &str = "group: <a, A | a^2 = A^2 = (aA)^2 = 1> x <b, B | b^2 = B^2 = (bB)^2 = 1>\nnetwork: torus 4 4\ntable:\n";

#[test]
fn symmetry_sigma_picks_an_automorphism_that_can_hold_at_the_bound() {
    // The quarter turn of the 4x4 torus fixes the antipode, whose 4 letters would need
    // 4 columns of 4 free letters (only 8 exist): no invariant table has 8 columns.
    // `sigma` must take a symmetry the counting test keeps (the inversion) instead.
    let path = file("torus44.tbl", TORUS44_HEADER);
    let p = path.to_str().unwrap();
    let run = txverify(&[
        "search",
        "-q",
        "--jobs",
        "1",
        "--time",
        "8",
        "--symmetry",
        "sigma",
        p,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("expect: optimal\n"), "{}", run.stdout);
    let found = file("found44.tbl", &run.stdout);
    let recheck = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(recheck.code, 0, "{}", recheck.stdout);
}

#[test]
fn search_below_the_optimum_exits_1_with_a_certificate_that_verifies() {
    // The 6-ring with the cyclic group needs 6 steps; 5 is infeasible.
    let path = file("c6.tbl", "group: <a | a^6>\ntable:\n");
    let dir = std::env::temp_dir().join(format!("txverify-cert-{}", std::process::id()));
    let run = txverify(&[
        "search",
        "-q",
        "--time",
        "5",
        "--certificate",
        dir.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("infeasible T=5"), "{}", run.stderr);
    let verified = txverify(&[
        "verify-proof",
        path.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
    assert!(
        verified
            .stdout
            .contains("verified: no valid table with 5 columns"),
        "{}",
        verified.stdout
    );
    // An LRAT path that cannot be written is an input error, not a rejection.
    let unwritable = txverify(&[
        "verify-proof",
        path.to_str().unwrap(),
        dir.to_str().unwrap(),
        "--lrat",
        "/nonexistent-directory/proof.lrat",
    ]);
    assert_eq!(
        unwritable.code, 2,
        "{}{}",
        unwritable.stdout, unwritable.stderr
    );
    assert!(
        unwritable.stderr.contains("cannot write"),
        "{}",
        unwritable.stderr
    );
    // The same refutation as LRAT, for the formula that `--dimacs` writes.
    let lrat = dir.join("proof.lrat");
    let with_lrat = txverify(&[
        "verify-proof",
        path.to_str().unwrap(),
        dir.to_str().unwrap(),
        "--lrat",
        lrat.to_str().unwrap(),
    ]);
    assert_eq!(with_lrat.code, 0, "{}", with_lrat.stdout);
    assert!(
        with_lrat.stdout.contains("checked by the LRAT checker"),
        "{}",
        with_lrat.stdout
    );
    let text = std::fs::read_to_string(&lrat).unwrap();
    let last = text.lines().last().unwrap();
    assert_eq!(
        last.split(' ').nth(1),
        Some("0"),
        "ends with the empty clause: {last}"
    );
    let cnf = dir.join("again.cnf");
    let dimacs = write_dimacs(&path, 5, &cnf);
    assert_eq!(dimacs.code, 0, "{}", dimacs.stderr);
    let clauses: Vec<Vec<i32>> = std::fs::read_to_string(&cnf)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('c') && !l.starts_with('p') && !l.trim().is_empty())
        .map(|l| {
            l.split_whitespace()
                .map(|w| w.parse().unwrap())
                .take_while(|&x| x != 0)
                .collect()
        })
        .collect();
    assert!(txverify::search::proofcheck::check_lrat(&clauses, text.as_bytes()).is_ok());
    // The certificate does not apply to another network.
    let other = file("c8.tbl", "group: <a | a^8>\ntable:\n");
    let rejected = txverify(&[
        "verify-proof",
        other.to_str().unwrap(),
        dir.to_str().unwrap(),
    ]);
    assert_eq!(rejected.code, 1, "{}", rejected.stdout);
}

#[test]
fn text_report_caps_each_kind_of_violation_and_says_how_many_more() {
    let run = check("empty50.tbl", "group: <a | a^50>\ntable:\n");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout.matches("error: missing message").count(), 20);
    assert!(
        run.stdout.contains(
            "… and 29 more violations of this kind (missing message); `--format json` lists all 49"
        ),
        "{}",
        run.stdout
    );
    let path = file("empty50j.tbl", "group: <a | a^50>\ntable:\n");
    let json = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(
        json.stdout.matches("\"kind\":\"missing_message\"").count(),
        49
    );
    assert_eq!(
        json.stdout.matches("\"messages\":").count(),
        1,
        "no key twice"
    );
}

#[test]
#[cfg(not(feature = "z3"))]
fn search_with_z3_in_a_build_without_it_names_the_feature() {
    let path = file("z3-missing.tbl", RING8_HEADER);
    let run = txverify(&["search", "-q", "--solver", "z3", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("--features z3"), "{}", run.stderr);
}

#[test]
#[cfg(feature = "z3")]
fn search_with_z3_finds_an_optimal_table_that_check_accepts() {
    let path = file("z3-search8.tbl", RING8_HEADER);
    let run = txverify(&["search", "-q", "--solver", "z3", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("expect: time 8\n"), "{}", run.stdout);
    let found = file("z3-found8.tbl", &run.stdout);
    let recheck = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(recheck.code, 0, "{}", recheck.stdout);
    assert!(recheck.stdout.contains("OPTIMAL"), "{}", recheck.stdout);
}

#[test]
fn search_dimacs_writes_the_formula_and_solves_nothing() {
    let path = file("dimacs6.tbl", "group: <a | a^6>\ntable:\n");
    let cnf = path.with_extension("cnf");
    let run = write_dimacs(&path, 5, &cnf);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("formulas written; nothing solved"),
        "{}",
        run.stderr
    );
    assert!(!run.stderr.contains("unknown"), "{}", run.stderr);
    let text = std::fs::read_to_string(&cnf).unwrap();
    assert!(text.lines().any(|l| l.starts_with("p cnf ")), "{text}");
}

/// Asserts that `run` exited 2 (an input/output error) naming `path` on standard error.
fn assert_unwritable(run: &Run, path: &str) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    assert!(run.stderr.contains(path), "{}", run.stderr);
}

#[test]
fn search_dimacs_to_an_unwritable_path_exits_2_naming_it() {
    let path = file("dimacs-unwritable.tbl", "group: <a | a^6>\ntable:\n");
    let cnf = Path::new("/nonexistent-directory/x.cnf");
    let run = write_dimacs(&path, 5, cnf);
    assert_unwritable(&run, "/nonexistent-directory/x.cnf");
}

#[test]
fn search_certificate_in_an_unwritable_directory_exits_2_naming_it() {
    // A regular file stands where the certificate directory would go.
    let blocker = file("cert-blocker", "not a directory\n");
    let dir = blocker.join("certificate");
    let path = file("cert-unwritable.tbl", "group: <a | a^6>\ntable:\n");
    let run = txverify(&[
        "search",
        "-q",
        "--jobs",
        "1",
        "--time",
        "5",
        "--certificate",
        dir.to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    assert_unwritable(&run, blocker.to_str().unwrap());
}

#[test]
fn gen_output_to_an_unwritable_path_exits_2_naming_it() {
    let run = txverify(&[
        "gen",
        "ring",
        "6",
        "-o",
        "/nonexistent-directory/ring6.tbl",
    ]);
    assert_unwritable(&run, "/nonexistent-directory/ring6.tbl");
}
