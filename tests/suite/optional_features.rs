//! The command line where the optional features `z3` and `cadical` change it: the
//! solvers `--version` names, and `--solver z3` with and without z3 built in. Part of
//! both test binaries: the suite, and `native`, the one CI builds with `z3,mpi`.

use crate::common;

use common::cli::{RING8_HEADER, file, txverify};

#[test]
fn version_names_the_compiled_in_solvers() {
    let run = txverify(&["--version"]);
    assert_eq!(run.code, 0);
    assert!(run.stdout.starts_with("txverify "), "{}", run.stdout);
    assert!(run.stdout.contains("varisat"), "{}", run.stdout);
    assert_eq!(
        run.stdout.contains("z3"),
        cfg!(feature = "z3"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.contains("cadical"),
        cfg!(feature = "cadical"),
        "{}",
        run.stdout
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
