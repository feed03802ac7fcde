//! End-to-end tests of the `txverify` binary: exit codes, diagnostics, reports.

use crate::common;

use common::cli::{RING8_HEADER, Run, file, nested_field_paths, txverify};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

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
        run.stderr.contains(
            "dup.tbl:3:10: error: `b` is an involution (b^2 = 1), so b' = b: list it once (`b` and `b'` are one link)"
        ),
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

/// `search -o FILE` writes the table found (the `.tbl` text the search would
/// print, after the kernel's check) to FILE instead of standard output, in text
/// and in JSON (which names the file in `output`); the file checks. A file that
/// cannot be written is exit status 2, in JSON with the error object.
#[test]
fn search_o_writes_the_table_found_and_check_accepts_it() {
    let path = file("search8-o.tbl", RING8_HEADER);
    let out = file("found8-o.tbl", "");
    let (p, o) = (path.to_str().unwrap(), out.to_str().unwrap());
    let run = txverify(&["search", "-q", p, "-o", o]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty(), "{}", run.stdout);
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(
        written.contains("expect: time 8\nexpect: optimal\ntable:\n"),
        "{written}"
    );
    let recheck = txverify(&["check", o]);
    assert_eq!(recheck.code, 0, "{}", recheck.stdout);
    assert!(recheck.stdout.contains("OPTIMAL"), "{}", recheck.stdout);

    let json_out = file("found8-o-json.tbl", "");
    let j = json_out.to_str().unwrap();
    let run = txverify(&["search", "-q", p, "--format", "json", "-o", j]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["output"], j);
    let written = std::fs::read_to_string(&json_out).unwrap();
    assert_eq!(value["table"], written.as_str());
    assert_eq!(txverify(&["check", j]).code, 0);

    let unwritable = "/nonexistent-directory/found8.tbl";
    let run = txverify(&["search", "-q", p, "-o", unwritable]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    let run = txverify(&["search", "-q", p, "--format", "json", "-o", unwritable]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(value["exit_code"], 2);
    assert!(
        value["error"]["message"]
            .as_str()
            .unwrap()
            .contains("cannot write"),
        "{value}"
    );
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

const TORUS66_HEADER: &str = "group: <a, A | a^2 = A^2 = (aA)^3 = 1> x <b, B | b^2 = B^2 = (bB)^3 = 1>\nnetwork: torus 6 6\ntable:\n";

#[test]
fn free_tail_takes_the_quarter_turn_and_names_it() {
    // Counting rules the quarter turn of the 6x6 torus out at 27 columns; with a free
    // tail of 6 columns for the antipodes `sigma` takes it (largest order) and says so.
    let path = file("torus66.tbl", TORUS66_HEADER);
    let p = path.to_str().unwrap();
    let args = [
        "search",
        "--jobs",
        "1",
        "--time",
        "27",
        "--symmetry",
        "sigma",
    ];
    let run = txverify(&[&args[..], &["--free-tail", "6", p]].concat());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("--symmetry sigma: the automorphism")
            && run.stderr.contains("(order 4)"),
        "{}",
        run.stderr
    );
    let found = file("found66.tbl", &run.stdout);
    let recheck = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(recheck.code, 0, "{}", recheck.stdout);
    // A tail needs the automorphism, and room in the table.
    let reverse = txverify(&[
        "search",
        "--time",
        "27",
        "--symmetry",
        "reverse",
        "--free-tail",
        "6",
        p,
    ]);
    assert_eq!(reverse.code, 2, "{}", reverse.stderr);
    assert!(
        reverse
            .stderr
            .contains("--free-tail needs --symmetry sigma"),
        "{}",
        reverse.stderr
    );
    let alone = txverify(&["search", "--time", "27", "--free-tail", "6", p]);
    assert_eq!(alone.code, 2, "{}", alone.stderr);
    let wide = txverify(&[&args[..], &["--free-tail", "28", p]].concat());
    assert_eq!(wide.code, 2, "{}{}", wide.stdout, wide.stderr);
    assert!(wide.stderr.contains("0 < W < --time"), "{}", wide.stderr);
}

#[test]
fn free_tail_takes_a_link_rotation_where_no_counting_candidate_exists() {
    // The CCC's only link automorphism, s <-> s', is found by the rotation search, not
    // by the counting candidates; with a free tail it must be found the same way.
    let p = "tables/found/ccc3.tbl";
    let args = [
        "search",
        "--jobs",
        "1",
        "--time",
        "36",
        "--symmetry",
        "sigma",
    ];
    let run = txverify(&[&args[..], &["--free-tail", "12", "--time-limit", "5", p]].concat());
    assert_ne!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("--symmetry sigma: the automorphism s→s', s'→s"),
        "{}",
        run.stderr
    );
}

#[test]
fn split_along_a_ring_factor_names_its_blocks_and_refuses_what_is_not_a_factor() {
    // The 3 x 8 torus at its bound 24: by default the split takes C_3, three blocks
    // of 8 columns for the 8-ring; a reflection of D_8 alone is no direct factor.
    let path = file(
        "torus38.tbl",
        "group: <a | a^3 = 1> x <b, B | b^2 = B^2 = (bB)^4 = 1>\nnetwork: torus 3 8\ntable:\n",
    );
    let p = path.to_str().unwrap();
    let args = [
        "search",
        "--jobs",
        "1",
        "--time",
        "24",
        "--symmetry",
        "split",
    ];
    let run = txverify(&[&args[..], &[p]].concat());
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("--symmetry split: 3 blocks of 8 columns, split along a, a'"),
        "{}",
        run.stderr
    );
    let found = file("found38.tbl", &run.stdout);
    let recheck = txverify(&["check", found.to_str().unwrap()]);
    assert_eq!(recheck.code, 0, "{}", recheck.stdout);
    let named = txverify(&[&args[..], &["--split-along", "b,B", p]].concat());
    assert_eq!(named.code, 0, "{}{}", named.stdout, named.stderr);
    assert!(
        named
            .stderr
            .contains("8 blocks of 3 columns, split along b, B"),
        "{}",
        named.stderr
    );
    let reflection = txverify(&[&args[..], &["--split-along", "b", p]].concat());
    assert_eq!(reflection.code, 2, "{}", reflection.stderr);
    assert!(
        reflection.stderr.contains("must generate a direct factor"),
        "{}",
        reflection.stderr
    );
    let unknown = txverify(&[&args[..], &["--split-along", "c", p]].concat());
    assert_eq!(unknown.code, 2, "{}", unknown.stderr);
    assert!(
        unknown.stderr.contains("\"c\" is not a link"),
        "{}",
        unknown.stderr
    );
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
    assert!(txverify_proofcheck::check_lrat(&clauses, text.as_bytes()).is_ok());
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
    let run = txverify(&["gen", "ring", "6", "-o", "/nonexistent-directory/ring6.tbl"]);
    assert_unwritable(&run, "/nonexistent-directory/ring6.tbl");
}

// ---- The JSON schemas: every field, against docs/json.md ----

/// Expands one `{a,b,c}` group of a documented path into its paths.
fn expand(path: &str) -> Vec<String> {
    match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => path[open + 1..close]
            .split(',')
            .map(|part| format!("{}{}{}", &path[..open], part.trim(), &path[close + 1..]))
            .collect(),
        _ => vec![path.to_string()],
    }
}

/// The field paths docs/json.md lists under the heading `heading`: the first cells of
/// the rows of tables whose header starts with `field`, up to the next heading.
fn documented_fields(heading: &str) -> BTreeSet<String> {
    let doc = std::fs::read_to_string("docs/json.md").expect("docs/json.md is readable");
    let mut lines = doc.lines().skip_while(|l| l.trim() != heading);
    assert!(lines.next().is_some(), "docs/json.md has no `{heading}`");
    let mut fields = BTreeSet::new();
    let mut in_field_table = false;
    for line in lines.take_while(|l| !l.starts_with('#')) {
        let Some(row) = line.trim().strip_prefix('|') else {
            in_field_table = false;
            continue;
        };
        let first = row.split('|').next().unwrap_or_default().trim();
        if first == "field" {
            in_field_table = true;
        } else if in_field_table && first.starts_with('`') {
            fields.extend(expand(first.trim_matches('`')));
        }
    }
    assert!(!fields.is_empty(), "no fields under `{heading}`");
    fields
}

/// The JSON objects `txverify ARGS… FILE` prints, one per line, with the exit status.
fn json_lines(args: &[&str], path: &std::path::Path) -> Vec<(i32, serde_json::Value)> {
    let mut all: Vec<&str> = args.to_vec();
    all.push(path.to_str().unwrap());
    let run = txverify(&all);
    assert!(!run.stdout.trim().is_empty(), "{all:?}: {}", run.stderr);
    run.stdout
        .lines()
        .map(|l| {
            let value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{all:?}: {e}: {l}"));
            (run.code, value)
        })
        .collect()
}

/// Tables between them reaching every variant the command line can produce.
fn schema_cases() -> Vec<PathBuf> {
    let with_net = RING6.replace("expect: time 5", "network: ring 6\nexpect: time 5");
    vec![
        file("schema-ring6.tbl", &with_net),
        file(
            "schema-conflict.tbl",
            &with_net.replace("Bb B . b", "bB B . b"),
        ),
        file(
            "schema-letters.tbl",
            "group: <b, B | b^2 = B^2 = (bB)^3 = 1>\nlinks: b\ntable:\nbBb bB c\nBb B . b\n",
        ),
        file(
            "schema-inverse.tbl",
            "group: <a | a^6>\nlinks: a\ntable:\na aa\n",
        ),
        file(
            "schema-identity-link.tbl",
            "group: <a, b | a^3 = 1, b = 1>\nlinks: a a' b\ntable:\na\na'\n",
        ),
        file(
            "schema-not-a-link.tbl",
            "group: <a, b | a^4 = 1, b = a^2>\nlinks: a a'\ntable:\nb a\na' aa\n",
        ),
        file("schema-identity.tbl", "group: <a | a^4>\ntable:\naaaa a\n"),
        file(
            "schema-long.tbl",
            "group: <a | a^5>\ntable:\naaaa a\na' aa\n",
        ),
        file(
            "schema-odd.tbl",
            "group: <a | a^6>\nmessages: odd\ntable:\na\na'\naa\n",
        ),
        file(
            "schema-ports.tbl",
            "group: <a | a^5>\nports: 1\nmessages: to a a^2\ntable:\na a a aa\naa aaa'\n",
        ),
        file(
            "schema-mismatch.tbl",
            &RING6.replace("expect: time 5", "network: ring 8"),
        ),
        file(
            "schema-torus.tbl",
            "group: <a, b | a^3 = b^2 = (ab)^2 = 1>\ntable:\na b\n",
        ),
        file(
            "schema-cayley.tbl",
            "group: <a, b | a^3 = b^2 = (ab)^3 = 1>\ntable:\na\n",
        ),
        PathBuf::from("tables/hypercube4-a.tbl"),
        // Optimal by the certificates it names.
        PathBuf::from("tables/found/ring8-cyclic-anylength.tbl"),
    ]
}

#[test]
fn check_json_writes_exactly_the_documented_fields() {
    let mut written = BTreeSet::new();
    for path in schema_cases() {
        for args in [
            &["check", "--format", "json"][..],
            &["check", "--format", "json", "--no-simulate"],
        ] {
            for (_, value) in json_lines(args, &path) {
                assert_eq!(value["schema"], "txverify-check/1");
                nested_field_paths(&value, "", &mut written);
            }
        }
    }
    // Only a disagreement between kernel and simulator (a bug) writes the last two.
    assert_same_fields(
        &written,
        "### A file that could be loaded",
        &["agreement.kernel", "agreement.simulator"],
    );
}

/// Asserts that the fields `written` are those docs/json.md lists under `heading`,
/// apart from `unreachable` ones (documented, but not written by any case).
fn assert_same_fields(written: &BTreeSet<String>, heading: &str, unreachable: &[&str]) {
    let documented = documented_fields(heading);
    let undocumented: Vec<_> = written.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "not in docs/json.md under {heading}: {undocumented:?}"
    );
    let never_written: Vec<_> = documented
        .difference(written)
        .filter(|f| !unreachable.contains(&f.as_str()))
        .collect();
    assert!(
        never_written.is_empty(),
        "under {heading}, documented but never written: {never_written:?}"
    );
}

#[test]
fn check_json_error_objects_write_exactly_the_documented_fields() {
    let mut written = BTreeSet::new();
    let unparsable = file("schema-bad.tbl", "group: <a | a^5>\nfoo: 1\n");
    let missing = PathBuf::from("/nonexistent/schema.tbl");
    for path in [unparsable, missing] {
        for (code, value) in json_lines(&["check", "--format", "json"], &path) {
            assert_eq!(code, 2);
            nested_field_paths(&value, "", &mut written);
        }
    }
    assert_same_fields(&written, "### A file that could not be loaded", &[]);
}

#[test]
fn simulate_json_writes_exactly_the_documented_fields() {
    let mut written = BTreeSet::new();
    for path in schema_cases() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Defective link sets, mismatched networks and letters that are not links leave
        // nothing to simulate on (docs/json.md): the error object with the reason,
        // exit status 1.
        if [
            "inverse",
            "identity-link",
            "letters",
            "not-a-link",
            "mismatch",
        ]
        .iter()
        .any(|n| name.contains(n))
        {
            let run = txverify(&["simulate", "--format", "json", path.to_str().unwrap()]);
            assert_eq!(run.code, 1, "{name}: {}", run.stderr);
            let object: serde_json::Value = serde_json::from_str(run.stdout.trim())
                .unwrap_or_else(|e| panic!("{name}: {e}: {}", run.stdout));
            assert_eq!(object["exit_code"], 1, "{name}: {object}");
            assert_eq!(object["schema"], "txverify-simulate/1", "{name}: {object}");
            let message = object["error"]["message"].as_str().unwrap_or_default();
            // The reason standard error gives, naming the file.
            assert!(
                message.starts_with(path.to_str().unwrap()) && run.stderr.contains(message),
                "{name}: {object}"
            );
            continue;
        }
        for (_, value) in json_lines(&["simulate", "--format", "json"], &path) {
            assert_eq!(value["schema"], "txverify-simulate/1");
            nested_field_paths(&value, "", &mut written);
        }
    }
    let traced = file("schema-trace.tbl", RING6);
    for (_, value) in json_lines(&["simulate", "--format", "json", "--trace"], &traced) {
        nested_field_paths(&value, "", &mut written);
    }
    assert_same_fields(&written, "### A simulated file", &[]);
}

/// The 6-ring table, declared on `ring 6`: every value worked out by hand. Distances
/// 1, 1, 2, 2, 3 (sum 9, so ⌈9/2⌉ = 5 columns); 6 nodes × 5 messages; every letter of
/// the 9 is sent by all 6 nodes (54 hops); columns 1, 2, 3 and 5 use both links at every
/// node (12 directed links each), column 4 one (6): 54 of 5 × 12 link-steps.
fn ring6_check_json(file: &str) -> serde_json::Value {
    let family = "dihedral D_6 (order 6, seed convention)";
    serde_json::json!({
        "schema": "txverify-check/1",
        "file": file,
        "name": "ring6-dihedral-total",
        "group": {
            "presentation": "<b, B | b^2 = B^2 = (bB)^3 = 1>",
            "generators": ["b", "B"],
            "order": 6,
            "family": family,
            "checks": ["relators", "abelianisation", format!("closed form: {family}")],
        },
        "links": ["b", "B"],
        "trivial_generators": [],
        "ports": 2,
        "messages": { "mode": "total", "count": 5 },
        "verdict": "optimal",
        "optimal_by": "lower_bound",
        "time": 5,
        "bound": {
            "value": 5,
            "max_distance": 3,
            "distance_sum": 9,
            "counting": 5,
            "best_subset": { "links": ["b", "B"], "letters_needed": 9, "per_column": 2, "columns": 5 },
            "subsets_tried": 3,
            // {b, B} is exact from the distances; the trees (b first, then B
            // first) put at most 4 letters on {b} or {B}: under the 5 found.
            "subsets_searched": 1,
            "subsets_pruned": 2,
            "exhaustive": true,
        },
        "certificates": [],
        "unrefuted": [],
        "violations": [],
        "non_shortest": [],
        "expectations": [
            { "claim": "time 5", "holds": true },
            { "claim": "optimal", "holds": true },
        ],
        "network": { "status": "matches", "network": { "kind": "ring", "nodes": 6 } },
        "simulation": {
            "status": "ran",
            "on": "ring 6",
            "valid": true,
            "arrived_messages": 30,
            "expected_messages": 30,
            "hops": 54,
            "completion_time": 5,
            "utilisation": 0.9,
            "counts": {
                "link_conflicts": 0, "ports_exceeded": 0, "unexpected": 0,
                "missing": 0, "duplicates": 0, "self_messages": 0,
            },
            "first_conflict": null,
        },
        "agreement": { "status": "agree" },
        "exit_code": 0,
    })
}

#[test]
fn check_json_of_a_known_table_has_every_value_and_the_documented_order() {
    let path = file(
        "values-ring6.tbl",
        &RING6.replace("expect: time 5", "network: ring 6\nexpect: time 5"),
    );
    let shown = path.to_str().unwrap();
    let run = txverify(&["check", "--format", "json", shown]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(value, ring6_check_json(shown));
    // Top-level keys come in the documented order (first occurrences are top-level).
    let order = [
        "schema",
        "file",
        "name",
        "group",
        "links",
        "trivial_generators",
        "ports",
        "messages",
        "verdict",
        "optimal_by",
        "time",
        "bound",
        "certificates",
        "unrefuted",
        "violations",
        "non_shortest",
        "expectations",
        "network",
        "simulation",
        "agreement",
        "exit_code",
    ];
    let at: Vec<usize> = order
        .iter()
        .map(|k| run.stdout.find(&format!("\"{k}\":")).expect(k))
        .collect();
    assert!(at.windows(2).all(|w| w[0] < w[1]), "{}", run.stdout);
}

#[test]
fn check_json_of_a_known_invalid_table_has_every_violation() {
    // Rows `bBb bB` and `bB B . b`: columns 1 and 2 hold b and B twice; `bB` at row 2
    // repeats row 1's `bB` (column 4); nothing spells Bb. The simulator sees the same:
    // two conflicting columns at 6 nodes, 6 duplicates, 6 missing messages; columns 1,
    // 2 and 4 use 6 directed links, 3 and 5 use 12: 42 of 60 link-steps.
    let text = RING6
        .replace("expect: time 5", "network: ring 6\nexpect: time 5")
        .replace("Bb B . b", "bB B . b");
    let path = file("values-conflict.tbl", &text);
    let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let word = |row: usize, column: usize, word: &str| serde_json::json!({ "row": row, "column": column, "word": word });
    assert_eq!(
        value["violations"],
        serde_json::json!([
            { "kind": "column_conflict", "column": 1, "link": "b",
              "first": word(1, 1, "bBb"), "second": word(2, 1, "bB") },
            { "kind": "column_conflict", "column": 2, "link": "B",
              "first": word(1, 1, "bBb"), "second": word(2, 1, "bB") },
            { "kind": "duplicate_message", "word": word(2, 1, "bB"),
              "first": word(1, 4, "bB"), "element": "bB" },
            { "kind": "missing_message", "element": "Bb", "distance": 2 },
        ])
    );
    assert_eq!(value["verdict"], "invalid");
    assert_eq!(
        value["expectations"],
        serde_json::json!([
            { "claim": "time 5", "holds": true },
            { "claim": "optimal", "holds": false },
        ])
    );
    let simulation = &value["simulation"];
    assert_eq!(simulation["valid"], false);
    assert_eq!(simulation["utilisation"], 0.7);
    assert_eq!(
        simulation["counts"],
        serde_json::json!({
            "link_conflicts": 12, "ports_exceeded": 0, "unexpected": 0,
            "missing": 6, "duplicates": 6, "self_messages": 0,
        })
    );
    let conflict = &simulation["first_conflict"];
    assert_eq!(conflict["kind"], "link_conflict");
    assert_eq!(conflict["step"], 1);
    assert_eq!(conflict["messages"], 2);
    assert_eq!(conflict["first"]["word"], "bBb");
    assert_eq!(conflict["second"]["word"], "bB");
    assert_eq!(value["agreement"], serde_json::json!({ "status": "agree" }));
    assert_eq!(value["exit_code"], 1);
}

#[test]
fn defective_link_sets_are_reported_field_by_field() {
    let cases = [
        (
            "group: <a | a^6>\nlinks: a\ntable:\na\n",
            serde_json::json!({ "kind": "inverse_missing", "link": "a", "inverse": "a'" }),
        ),
        (
            "group: <a, b | a^3 = 1, b = 1>\nlinks: a a' b\ntable:\na\n",
            serde_json::json!({ "kind": "identity_link", "link": "b" }),
        ),
        (
            "group: <b, B | b^2 = B^2 = (bB)^3 = 1>\nlinks: b\ntable:\nb\n",
            serde_json::json!({ "kind": "not_generating", "reached": 2, "order": 6 }),
        ),
    ];
    for (i, (text, defect)) in cases.into_iter().enumerate() {
        let path = file(&format!("defect{i}.tbl"), text);
        let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
        assert_eq!(run.code, 1, "{text}");
        let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(
            value["violations"][0],
            serde_json::json!({ "kind": "link_set", "defect": defect }),
            "{text}"
        );
        assert_eq!(value["bound"], serde_json::Value::Null, "{text}");
        let skipped =
            serde_json::json!({ "status": "skipped", "reason": "the link set is defective" });
        assert_eq!(value["network"], skipped, "{text}");
        assert_eq!(value["simulation"], skipped, "{text}");
        assert_eq!(
            value["agreement"],
            serde_json::json!({ "status": "kernel_only" })
        );
    }
}

#[test]
fn simulate_json_of_a_known_table_has_every_value_with_sorted_keys() {
    // As in `ring6_check_json`: 5 words, 30 messages, 54 hops; per step 12, 12, 12, 6, 12
    // hops, each on as many distinct directed links.
    let path = file(
        "values-sim-ring6.tbl",
        &RING6.replace("expect: time 5", "network: ring 6\nexpect: time 5"),
    );
    let shown = path.to_str().unwrap();
    let run = txverify(&["simulate", "--format", "json", shown]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let step = |step: usize, used: usize| serde_json::json!({ "step": step, "hops": used, "links_used": used });
    let expected = serde_json::json!({
        "schema": "txverify-simulate/1",
        "file": shown,
        "network": { "status": "matches", "network": { "kind": "ring", "nodes": 6 } },
        "report": {
            "network": "ring 6",
            "nodes": 6,
            "directed_links": 12,
            "ports": 2,
            "words": 5,
            "expected_messages": 30,
            "arrived_messages": 30,
            "hops": 54,
            "completion_time": 5,
            "valid": true,
            "counts": {
                "link_conflicts": 0, "ports_exceeded": 0, "unexpected": 0,
                "missing": 0, "duplicates": 0, "self_messages": 0,
            },
            "first_conflict": null,
            "failures": [],
            "per_step": [step(1, 12), step(2, 12), step(3, 12), step(4, 6), step(5, 12)],
            "utilisation": 0.9,
        },
        "trace": null,
    });
    // serde_json's maps are sorted, as the command's output is: byte for byte.
    assert_eq!(run.stdout, format!("{expected}\n"));
}

#[test]
fn simulate_json_lists_each_kind_of_failure() {
    // <a | a^6>, odd distances: `aa` (distance 2) is unexpected, aaa is missing, and
    // column 1 sends three letters over two ports, `a` twice.
    let path = file(
        "values-sim-odd.tbl",
        "group: <a | a^6>\nmessages: odd\ntable:\na\na'\naa\n",
    );
    let run = txverify(&["simulate", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let value: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let report = &value["report"];
    assert_eq!(report["valid"], false);
    assert_eq!(
        report["counts"],
        serde_json::json!({
            "link_conflicts": 6, "ports_exceeded": 6, "unexpected": 6,
            "missing": 6, "duplicates": 0, "self_messages": 0,
        })
    );
    let kinds: BTreeSet<&str> = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["link_conflict", "missing", "ports_exceeded", "unexpected"].into()
    );
    let ports = report["failures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["kind"] == "ports_exceeded")
        .unwrap();
    assert_eq!(ports["step"], 1);
    assert_eq!(ports["used"], 3);
    assert_eq!(ports["ports"], 2);
}

#[test]
fn a_letter_that_is_not_a_link_skips_the_simulation_naming_the_word() {
    // b = a^2 is a generator but not a link: the kernel calls the table invalid, and the
    // simulator has no physical link to send `b` over.
    let text = "group: <a, b | a^4 = 1, b = a^2>\nlinks: a a'\ntable:\nb a\na' aa\n";
    let run = check("not-a-link-sim.tbl", text);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "simulation   not run (row 1, column 1: word `b` has a letter that is not a link)"
        ),
        "{}",
        run.stdout
    );
    let path = file("not-a-link-sim2.tbl", text);
    let sim = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(sim.code, 1);
    assert!(
        sim.stderr
            .contains("cannot simulate: row 1, column 1: word `b` has a letter that is not a link"),
        "{}",
        sim.stderr
    );
}

#[test]
fn verify_proof_of_a_missing_certificate_exits_2_naming_the_file() {
    let path = file("c6-missing-cert.tbl", "group: <a | a^6>\ntable:\n");
    let run = txverify(&[
        "verify-proof",
        path.to_str().unwrap(),
        "/nonexistent-directory/certificate",
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("cannot read /nonexistent-directory/certificate/"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("rejected"), "{}", run.stdout);
}

#[test]
fn a_file_without_a_table_line_is_malformed() {
    // The spec: header lines, then `table:`. Checking an empty table instead
    // would report missing messages (exit 1); the file is malformed (exit 2).
    let path = file("no-table.tbl", "group: <a | a^5>\nnetwork: ring 5\n");
    let run = txverify(&["check", path.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(":2:16: error: missing `table:` line"),
        "{}",
        run.stderr
    );
}

#[test]
fn many_files_are_reported_in_the_order_given() {
    // Checked several at a time, but reported as listed: good, broken and missing
    // files interleaved, twice over so that chunks of any size are crossed.
    let good = file("order-good.tbl", "group: <a | a^2>\ntable:\na\n");
    let bad = file("order-bad.tbl", "group: <a | a^3>\ntable:\na\n");
    let missing = std::env::temp_dir().join("txverify-no-such-file.tbl");
    let mut paths = Vec::new();
    for _ in 0..4 {
        paths.extend([good.clone(), bad.clone(), missing.clone()]);
    }
    let mut args = vec!["check".to_string(), "--format".into(), "json".into()];
    args.extend(paths.iter().map(|p| p.display().to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = txverify(&refs);
    let documents: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let (summary, documents) = documents.split_last().unwrap();
    assert_eq!(summary["schema"], "txverify-check-summary/1");
    let files: Vec<String> = documents.iter().map(|d| d["file"].to_string()).collect();
    let expected: Vec<String> = paths
        .iter()
        .map(|p| serde_json::Value::from(p.display().to_string()).to_string())
        .collect();
    assert_eq!(files, expected);
    assert_eq!(run.code, 2);
}

/// A minimising search that finds nothing up to `--max-time` still says which
/// times it proved infeasible (the cyclic 6-ring: bound 5, optimum 6).
#[test]
fn a_search_that_finds_nothing_reports_the_times_it_refuted() {
    let table = "tables/ring6-cyclic-total.tbl";
    let text = txverify(&["search", "-q", "--max-time", "5", table]);
    assert_eq!(text.code, 1, "{}", text.stderr);
    assert!(text.stderr.contains("infeasible T=5"), "{}", text.stderr);
    let json = txverify(&["search", "--format", "json", "--max-time", "5", table]);
    assert_eq!(json.code, 1, "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(json.stdout.trim_end()).unwrap();
    assert_eq!(value["found"], false);
    assert_eq!(value["infeasible"][0]["time"], 5, "{value}");
}
