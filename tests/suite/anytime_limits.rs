//! The limits of a search run and of a timed replay, as people give them:
//! every duration option (`--deadline`, `--time-limit`, `--cube-budget`,
//! `--cube-lease`) goes through one reader with one range (a huge finite
//! value is no limit; 0, a negative number, NaN or `inf` is refused with
//! exit 2 naming the flag), and
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
        for bad in ["-1", "NaN", "inf", "0", "-0.5", "soon"] {
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
        for huge in ["1e20", "18446744073709551616", "1e308"] {
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

/// `search --network NET ARGS… --format json`: the report and the exit status.
fn network_search(network: &str, args: &[&str]) -> (serde_json::Value, i32, String) {
    let mut all = vec!["search", "--network", network, "--format", "json"];
    all.extend_from_slice(args);
    let run = txverify(&all);
    no_panic(&run, network);
    let report = serde_json::from_str(run.stdout.trim()).unwrap_or_default();
    (report, run.code, run.stderr)
}

/// `simulate FILE --format json`: the schedule's time when it is valid.
fn simulated_time(path: &std::path::Path) -> Option<u64> {
    let run = txverify(&["simulate", path.to_str().unwrap(), "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).ok()?;
    (run.code == 0 && report["valid"] == true)
        .then(|| report["time"].as_u64())
        .flatten()
}

#[test]
fn a_deadline_run_over_the_variable_limit_writes_the_heuristic_schedule_and_skips_sat() {
    let out = file("ring12.sched", "");
    std::fs::remove_file(&out).unwrap();
    let out_arg = out.to_str().unwrap();
    for format in ["json", "text"] {
        let run = txverify(&[
            "search",
            "--network",
            "ring 12",
            "--deadline",
            "60",
            "--max-variables",
            "100",
            "-o",
            out_arg,
            "--format",
            format,
        ]);
        no_panic(&run, "ring 12");
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        if format == "json" {
            let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
            let why = report["sat_skipped"].as_str().unwrap_or_default();
            assert!(why.contains("more than the limit of 100"), "{report}");
            assert_eq!(report["found_by"], "heuristic", "{report}");
            assert_eq!(simulated_time(&out), report["time"].as_u64(), "{report}");
        } else {
            assert!(
                run.stdout.contains("SAT skipped  the formula for T="),
                "{}",
                run.stdout
            );
        }
    }
    // Without a deadline the same limit is a refusal, before anything is made.
    let (_, code, stderr) = network_search("ring 12", &["--max-variables", "100"]);
    assert_eq!(code, 2, "{stderr}");
}

/// The number the refusal gives as the formula's estimate.
fn estimate_in(stderr: &str) -> u64 {
    let after = stderr
        .split("would have about ")
        .nth(1)
        .unwrap_or_else(|| panic!("no estimate in {stderr}"));
    after.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn the_refusal_gives_the_formulas_estimate_whatever_the_limit() {
    use txverify_core::network::NetworkName;
    use txverify_search::schedule::encode::{PathClass, encode_exchange};
    let (_, code, low) = network_search("ring 12", &["--max-variables", "100"]);
    assert_eq!(code, 2, "{low}");
    let (_, code, high) = network_search("ring 12", &["--max-variables", "2000"]);
    assert_eq!(code, 2, "{high}");
    let estimate = estimate_in(&low);
    assert_eq!(estimate, estimate_in(&high), "{low}{high}");
    // Near the variables of the formula itself (at T = the bound, 18; the
    // estimate leaves out the auxiliary variables of at-most-one constraints).
    let graph = "ring 12".parse::<NetworkName>().unwrap().build().unwrap();
    let made = encode_exchange(&graph, 18, PathClass::Shortest).unwrap();
    let vars = made.cnf.vars() as u64;
    assert!(
        estimate >= vars / 2 && estimate <= 2 * vars,
        "estimate {estimate}, formula {}",
        made.cnf.vars()
    );
}

#[test]
fn a_deadline_stops_any_phase_and_the_report_names_it() {
    // The torus 6 6's formula for T = 28 has millions of clauses: a deadline
    // of half a second comes while it is built or solved, never after.
    let out = file("torus66.sched", "");
    let (report, code, stderr) = network_search(
        "torus 6 6",
        &["--deadline", "0.5", "-q", "-o", out.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report["stopped"], "deadline", "{report}");
    let phase = report["stopped_in"].as_str().unwrap_or_default();
    assert!(["encoding", "solving"].contains(&phase), "{report}");
    assert_eq!(
        report["unknown"].as_array().map(Vec::len),
        Some(1),
        "{report}"
    );
    assert_eq!(simulated_time(&out), report["time"].as_u64(), "{report}");
    // The collective search: its translated formula is stopped too.
    let out = file("hypercube4.sched", "");
    let (report, code, stderr) = network_search(
        "hypercube 4",
        &[
            "--collective",
            "allreduce",
            "--deadline",
            "0.5",
            "-o",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(report["stopped"], "deadline", "{report}");
    assert!(report["stopped_in"].is_string(), "{report}");
    assert_eq!(simulated_time(&out), report["time"].as_u64(), "{report}");
}

/// A deadline that passes before the construction's first schedule is made
/// (1 ns) stops the run there, at once: nothing is found or written, exit 4,
/// and the report says the deadline stopped it in the construction.
#[test]
fn a_deadline_passed_in_the_construction_is_the_reports_stop() {
    for (network, extra) in [
        // Over the variable limit at once: the streamed construction alone.
        ("torus 4 6", vec!["--max-variables", "100"]),
        // SAT would follow, held.
        ("ring 5", vec![]),
    ] {
        let out = file(&format!("{}-ns.sched", network.replace(' ', "")), "");
        std::fs::remove_file(&out).unwrap();
        let mut args = vec!["--deadline", "1e-9", "-q", "-o", out.to_str().unwrap()];
        args.extend(extra);
        let (report, code, stderr) = network_search(network, &args);
        assert_eq!(code, 4, "{network}: {stderr}{report}");
        assert_eq!(report["stopped"], "deadline", "{network}: {report}");
        assert_eq!(report["stopped_in"], "construction", "{network}: {report}");
        assert_eq!(report["found"], false, "{network}: {report}");
        assert!(!out.exists(), "{network}: {report}");
        let cut = report["routers"]["cut"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        assert!(
            !cut.is_empty() && cut.iter().all(|c| c["why"] == "stopped"),
            "{report}"
        );
    }
}

/// The files under `dir`, at any depth.
fn files_under(dir: &std::path::Path) -> Vec<String> {
    let mut out = vec![];
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(files_under(&path));
        } else {
            out.push(path.display().to_string());
        }
    }
    out
}

#[test]
fn an_incomplete_t_folder_is_named_by_verify_proof_and_a_stop_leaves_no_partial_proof() {
    // A search killed while its solver wrote the proof of T = 5.
    let dir = file("unused", "").with_file_name("certificates");
    let folder = dir.join("T5");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("proof.lrat.partial.cadical"), [0u8; 100]).unwrap();
    let dir_arg = dir.to_str().unwrap();
    for args in [
        vec!["verify-proof", "--network", "ring 4", dir_arg],
        vec!["verify-proof", "tables/ring6-cyclic-odd.tbl", dir_arg],
    ] {
        let run = txverify(&args);
        no_panic(&run, "verify-proof");
        assert_eq!(run.code, 2, "{}", run.stderr);
        assert!(
            run.stderr.contains(&format!(
                "{} is an incomplete certificate",
                folder.display()
            )) && run
                .stderr
                .contains("proof.lrat.partial.cadical (100 bytes)"),
            "{}",
            run.stderr
        );
        assert!(!run.stderr.contains("provenance.json:"), "{}", run.stderr);
    }
    // A search sent SIGTERM while its solver writes the proof of T = 16
    // (the dragonfly example without the LP's routing: SAT at 16 runs for
    // minutes) removes it.
    let certificates = file("unused2", "").with_file_name("stopped-certificates");
    let net = format!(
        "edges {}",
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/networks/dragonfly20.edges")
            .display()
    );
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args([
            "search",
            "--network",
            &net,
            "--no-lp",
            "-q",
            "--format",
            "json",
        ])
        .arg("--certificate")
        .arg(&certificates)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let partial = certificates.join("T16").join("proof.drat.partial");
    let started = std::time::Instant::now();
    while !partial.is_file() && started.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(partial.is_file(), "{:?}", files_under(&certificates));
    std::thread::sleep(std::time::Duration::from_millis(300));
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["stopped"], "signal", "{report}");
    let left = files_under(&certificates);
    assert!(
        left.iter()
            .all(|f| !f.ends_with(".partial") && !f.contains(".cadical")),
        "{left:?}"
    );
}

/// Starts `txverify search ARGS --certificate DIR` and waits (up to two
/// minutes) until a file whose name contains `part` is under `DIR`.
fn table_search_writing(
    args: &[&str],
    dir: &std::path::Path,
    part: &str,
) -> (std::process::Child, Vec<String>) {
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(args)
        .arg("--certificate")
        .arg(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let mut seen = files_under(dir);
    while !seen.iter().any(|f| f.contains(part))
        && started.elapsed() < std::time::Duration::from_secs(120)
    {
        std::thread::sleep(std::time::Duration::from_millis(20));
        seen = files_under(dir);
    }
    (child, seen)
}

fn terminate(child: &std::process::Child) {
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
}

#[test]
fn a_table_search_stopped_by_sigterm_while_its_solver_writes_leaves_no_proof() {
    // The 16-ring at 35 with words of any length: refuted, but in tens of
    // seconds. SIGTERM stops the search as its limit does (a SIGKILL, which
    // cannot be handled, is `search_stopped.rs`), while CaDiCaL writes
    // `proof.lrat.partial.cadical` (its raw proof, renumbered into
    // `proof.lrat.partial`): the partial proof is removed.
    let table = "campaign/networks/ring16-cyclic-anylength.tbl";
    let dir = file("unused", "").with_file_name("certificates");
    let args = ["search", table, "--any-length", "--time", "35", "-q"];
    let (mut child, seen) = table_search_writing(&args, &dir, ".partial");
    terminate(&child);
    let status = child.wait().unwrap();
    assert!(
        seen.iter().any(|f| f.contains("proof.lrat.partial")),
        "{seen:?}"
    );
    assert!(status.code().is_some(), "ended by the signal: {status:?}");
    let left = files_under(&dir);
    assert!(left.iter().all(|f| !f.contains("proof")), "{left:?}");
}

#[test]
fn a_cube_search_stopped_by_sigterm_leaves_no_cube_proof() {
    // Cubes of the same formula: a cube's proof is written under its
    // partial name; a signal stops the run, which removes every cube's proof.
    let table = "campaign/networks/ring16-cyclic-anylength.tbl";
    let dir = file("unused", "").with_file_name("cube-certificates");
    let args = [
        "search",
        table,
        "--any-length",
        "--time",
        "35",
        "--cubes",
        "8",
        "--jobs",
        "1",
        "-q",
    ];
    let (child, seen) = table_search_writing(&args, &dir, ".lrat.partial");
    assert!(
        seen.iter()
            .any(|f| f.contains("cube-") && f.contains(".lrat.partial")),
        "{seen:?}"
    );
    terminate(&child);
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        ![101, 134].contains(&output.status.code().unwrap_or(0)),
        "{stderr}"
    );
    let left = files_under(&dir);
    assert!(left.is_empty(), "{left:?} {:?} {stderr}", output.status);
    let run = txverify(&["verify-proof", table, dir.to_str().unwrap()]);
    no_panic(&run, "verify-proof");
}
