//! The limits of a search run and of a timed replay, as people give them:
//! every duration option (`--deadline`, `--time-limit`, `--cube-budget`,
//! `--cube-lease`) goes through one reader with one range (a huge value is no
//! limit, a negative or NaN one is refused with exit 2 naming the flag), and
//! `--alpha`/`--beta` are bounded so that no time overflows to `inf`
//! (docs/limits.md).

use crate::common::cli::{file, txverify};

/// No run of a limit's option panics (exit 101) or aborts (134).
fn no_panic(run: &crate::common::cli::Run, what: &str) {
    assert!(
        ![101, 134].contains(&run.code) && !run.stderr.contains("panicked"),
        "{what}: exit {}: {}",
        run.code,
        run.stderr
    );
}

#[test]
fn a_bad_duration_is_refused_naming_its_flag_and_a_huge_one_is_no_limit() {
    let ring = "tables/ring6-cyclic-odd.tbl";
    // (the flag, the arguments that reach the option's use)
    let runs: [(&str, Vec<&str>); 5] = [
        ("--time-limit", vec!["search", "--network", "ring 4"]),
        ("--deadline", vec!["search", "--network", "ring 4"]),
        (
            "--deadline",
            vec!["search", "--network", "ring 4", "--collective", "allgather"],
        ),
        (
            "--cube-budget",
            vec!["search", ring, "--time", "3", "--cubes", "2", "--jobs", "1"],
        ),
        ("--cube-lease", vec!["search", ring, "--mpi"]),
    ];
    for (flag, base) in &runs {
        for bad in ["-1", "NaN", "0", "-0.5", "soon"] {
            let mut args = base.clone();
            args.extend([*flag, bad]);
            let run = txverify(&args);
            no_panic(&run, &format!("{flag} {bad}"));
            assert_eq!(run.code, 2, "{flag} {bad}: {}", run.stderr);
            assert!(
                run.stderr.contains(flag) && run.stderr.contains(bad),
                "{flag} {bad}: {}",
                run.stderr
            );
        }
        // Huge values are no limit: the run goes on as without the flag.
        if *flag == "--cube-lease" {
            continue; // needs an MPI build to run
        }
        let unlimited = txverify(base).code;
        for huge in ["inf", "1e20", "18446744073709551616", "1e308"] {
            let mut args = base.clone();
            args.extend([*flag, huge]);
            let run = txverify(&args);
            no_panic(&run, &format!("{flag} {huge}"));
            assert_eq!(
                run.code, unlimited,
                "{flag} {huge}: {}{}",
                run.stdout, run.stderr
            );
        }
    }
}

#[test]
fn a_deadline_too_large_for_a_duration_is_reported_as_the_longest_one() {
    let run = txverify(&[
        "search",
        "--network",
        "ring 4",
        "--deadline",
        "1e20",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(
        report["deadline"].as_f64(),
        Some(txverify_search::seconds::MAX_SECONDS as f64),
        "{report}"
    );
}

#[test]
fn alpha_and_beta_above_their_range_are_refused_and_no_time_is_infinite() {
    let text = "network: ring 4\nports: all\ncollective: broadcast 0\nsends:\n1 0 1 0 *\n1 0 3 0 *\n2 1 2 0 *\n";
    let path = file("b.sched", text);
    let path = path.to_str().unwrap();
    for flag in ["--alpha", "--beta"] {
        for bad in ["1e308", "1e16", "inf", "-1", "NaN"] {
            let run = txverify(&["simulate", path, flag, bad]);
            no_panic(&run, &format!("{flag} {bad}"));
            assert_eq!(run.code, 2, "{flag} {bad}: {}{}", run.stdout, run.stderr);
            assert!(
                run.stderr
                    .contains(&format!("{flag} {}", bad.trim_start_matches('+'))),
                "{flag} {bad}: {}",
                run.stderr
            );
        }
    }
    // The largest values: every time is a finite number.
    let run = txverify(&[
        "simulate", path, "--alpha", "1e15", "--beta", "1e15", "--format", "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let completion = report["timed"]["completion"].as_f64();
    assert_eq!(completion, Some(4e15), "{report}");
    // A link table's fields have the same range.
    let table = file("t.tsv", "0 1 1e308 1\n");
    let run = txverify(&["simulate", path, "--link-table", table.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains(":1:5: `1e308` is not a time"),
        "{}",
        run.stderr
    );
}
