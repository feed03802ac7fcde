//! `search --mpi`: cube-and-conquer as an MPI job, against the single-process
//! search on the same instances. Needs the `mpi` feature and Open MPI's
//! `mpirun` (CI installs both); without the feature, `--mpi` must be refused.
//!
//! The instances are the 10-ring over C_10 with words of any length: no table
//! has 14 columns (a non-trivial refutation, hundreds of lemmas per cube) and
//! one has 15.

use crate::common;

use common::cli::txverify;

/// The 10-ring over the cyclic group.
const RING10: &str = "group: <a | a^10>\nnetwork: ring 10\ntable:\n";

#[cfg(not(feature = "mpi"))]
#[test]
fn without_the_feature_mpi_is_refused_with_exit_2() {
    let ring = common::cli::file("ring10.tbl", RING10);
    let run = txverify(&["search", ring.to_str().unwrap(), "--time", "15", "--mpi"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.contains("this build has no MPI"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("--features mpi"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn a_budget_or_lease_that_is_not_positive_and_html_are_refused_before_any_mpi() {
    let ring = common::cli::file("ring10.tbl", RING10);
    let ring = ring.to_str().unwrap();
    for (extra, message) in [
        (
            ["--cube-budget", "0"],
            "'0' for '--cube-budget <SECONDS>': 0 is not a positive number of seconds",
        ),
        (
            ["--cube-lease", "inf"],
            "'inf' for '--cube-lease <SECONDS>': inf is not a positive number of seconds",
        ),
        (["--format", "html"], "--mpi reports in text or JSON"),
        (
            ["--descending", "--deadline=5"],
            "--descending starts from the file's table",
        ),
    ] {
        let mut args = vec!["search", ring, "--time", "15", "--mpi"];
        args.extend(extra);
        let run = txverify(&args);
        assert_eq!(run.code, 2, "{extra:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{extra:?}: {}", run.stderr);
    }
}

#[test]
fn solve_cube_names_a_formula_it_cannot_read_and_exits_2() {
    let garbage = common::cli::file("garbage.cnf", "p cnf x y\n\u{1}\u{2}");
    let missing = garbage.with_file_name("no-such-formula.cnf");
    for cnf in [&garbage, &missing] {
        let proof = cnf.with_extension("drat");
        let run = txverify(&["solve-cube", cnf.to_str().unwrap(), proof.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{}", run.stderr);
        let expected = format!("cannot read {}", cnf.display());
        assert!(run.stderr.contains(&expected), "{}", run.stderr);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
    }
}

#[cfg(feature = "mpi")]
mod with_mpi {
    use super::{RING10, common, txverify};
    use common::cli::{Run, file};
    use std::path::{Path, PathBuf};
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    fn ring() -> String {
        file("ring10.tbl", RING10).to_str().unwrap().to_string()
    }

    fn fresh_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("txverify-mpi-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// `mpirun -np N txverify ARGS…`, as root if need be, with `TMPDIR` set to
    /// `tmp` (where the workers' solver processes keep their files).
    fn mpirun(np: usize, args: &[&str], tmp: &Path) -> Child {
        let np = np.to_string();
        let mut command = Command::new("mpirun");
        command
            .args(["-np", &np, "--oversubscribe"])
            .arg(env!("CARGO_BIN_EXE_txverify"))
            .args(args)
            .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
            .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
            .env("TMPDIR", tmp)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        command.spawn().expect("mpirun runs (install openmpi-bin)")
    }

    fn finish(child: Child) -> Run {
        let output = child.wait_with_output().unwrap();
        Run {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        }
    }

    fn json(run: &Run) -> serde_json::Value {
        serde_json::from_str(&run.stdout).unwrap_or_else(|e| panic!("{e}: {}", run.stdout))
    }

    /// verify-proof's JSON report of a certificate, which must be accepted.
    fn verified(ring: &str, certificate: &Path) -> serde_json::Value {
        let run = txverify(&[
            "verify-proof",
            "--format",
            "json",
            ring,
            certificate.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        json(&run)
    }

    /// The single-process certificate for T = 14, to compare with.
    fn single_process_certificate(ring: &str, name: &str) -> serde_json::Value {
        let dir = fresh_dir(name);
        let run = txverify(&[
            "search",
            "-q",
            ring,
            "--time",
            "14",
            "--any-length",
            "--certificate",
            dir.to_str().unwrap(),
        ]);
        assert_eq!(run.code, 1, "{}", run.stderr);
        verified(ring, &dir.join("T14"))
    }

    /// An MPI refutation of T = 14 on `np` processes, compared with the
    /// single-process one: the same claim about the same formula, and a
    /// certificate that verify-proof accepts as a cube certificate.
    fn refutes_like_one_process(np: usize) {
        let ring = ring();
        let tmp = fresh_dir(&format!("unsat-tmp-{np}"));
        let dir = fresh_dir(&format!("unsat-{np}"));
        let args = [
            "search",
            "-q",
            &ring,
            "--time",
            "14",
            "--any-length",
            "--mpi",
            "--certificate",
            dir.to_str().unwrap(),
        ];
        let run = finish(mpirun(np, &args, &tmp));
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(run.stdout.is_empty(), "nothing on stdout: {}", run.stdout);
        assert!(run.stderr.contains("infeasible T=14"), "{}", run.stderr);
        assert!(run.stderr.contains("every cube refuted"), "{}", run.stderr);
        let workers = (np - 1).max(1);
        assert!(
            run.stderr.contains(&format!("workers={workers} ")),
            "{}",
            run.stderr
        );
        let ours = verified(&ring, &dir.join("T14"));
        let theirs = single_process_certificate(&ring, &format!("single-{np}"));
        for key in [
            "claim",
            "covers_all_tables",
            "variables",
            "clauses",
            "encoding",
        ] {
            assert_eq!(ours[key], theirs[key], "{key}");
        }
        assert_eq!(ours["covers_all_tables"], true);
        let provenance = |d: &Path| -> serde_json::Value {
            serde_json::from_str(&std::fs::read_to_string(d.join("provenance.json")).unwrap())
                .unwrap()
        };
        let mpi = provenance(&dir.join("T14"));
        assert_eq!(mpi["cubes"], 8 * workers, "8 cubes per worker by default");
        assert!(dir.join("T14").join("cubes.icnf").is_file());
    }

    #[test]
    fn two_processes_refute_like_one() {
        refutes_like_one_process(2);
    }

    #[test]
    fn three_oversubscribed_processes_refute_like_one() {
        refutes_like_one_process(3);
    }

    #[test]
    fn one_process_solves_the_cubes_itself() {
        refutes_like_one_process(1);
    }

    #[test]
    fn two_processes_find_a_table_the_kernel_accepts() {
        let ring = ring();
        let single = txverify(&["search", "-q", &ring, "--time", "15", "--any-length"]);
        assert_eq!(single.code, 0, "{}", single.stderr);
        let tmp = fresh_dir("sat-tmp");
        let table = tmp.join("found.tbl");
        let args = [
            "search",
            "-q",
            &ring,
            "--time",
            "15",
            "--any-length",
            "--mpi",
            "--cubes",
            "4",
            "-o",
            table.to_str().unwrap(),
        ];
        let run = finish(mpirun(2, &args, &tmp));
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stderr.contains("found in one of"), "{}", run.stderr);
        // The kernel's own verdict on the table written, as on the single-process one.
        for text in [std::fs::read_to_string(&table).unwrap(), single.stdout] {
            let path = file("check.tbl", &text);
            let check = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
            assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
            let report = json(&check);
            let verdict = report["verdict"].as_str().unwrap_or_default();
            assert!(["valid", "optimal"].contains(&verdict), "{report}");
            assert!(report["time"].as_u64().unwrap() <= 15, "{report}");
        }
    }

    /// The solver processes (`txverify solve-cube`) whose files are under
    /// `tmp`, still running (not zombies).
    fn solver_children(tmp: &Path) -> Vec<u32> {
        let marker = tmp.to_str().unwrap();
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return vec![];
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
            .filter(|pid| {
                // The solver itself (`txverify solve-cube …`), not the `sh -c` that started it.
                let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
                let cmdline = String::from_utf8_lossy(&cmdline);
                let solver = cmdline.split('\0').nth(1) == Some("solve-cube");
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
                let running = stat
                    .rsplit(')')
                    .next()
                    .is_some_and(|s| !s.trim_start().starts_with('Z'));
                solver && cmdline.contains(marker) && running
            })
            .collect()
    }

    /// Runs the refutation on two processes and kills the first solver
    /// process it sees; returns the run and whether a kill landed.
    fn run_killing_a_solver(attempt: usize) -> (Run, PathBuf, bool) {
        let ring = ring();
        let tmp = fresh_dir(&format!("kill-tmp-{attempt}"));
        let dir = fresh_dir(&format!("kill-{attempt}"));
        let args = [
            "search",
            "-q",
            &ring,
            "--time",
            "14",
            "--any-length",
            "--mpi",
            "--cubes",
            "16",
            "--certificate",
            dir.to_str().unwrap(),
        ];
        let mut child = mpirun(2, &args, &tmp);
        let mut killed = false;
        let until = Instant::now() + Duration::from_secs(300);
        while !killed && child.try_wait().unwrap().is_none() && Instant::now() < until {
            for pid in solver_children(&tmp) {
                let kill = Command::new("kill")
                    .args(["-KILL", &pid.to_string()])
                    .output();
                if kill.is_ok_and(|o| o.status.success()) {
                    killed = true;
                    break;
                }
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        (finish(child), dir, killed)
    }

    #[test]
    fn a_killed_solver_loses_nothing_its_cube_is_handed_out_again() {
        let ring = ring();
        for attempt in 0..3 {
            let (run, dir, killed) = run_killing_a_solver(attempt);
            if !killed {
                continue; // every solver finished between two looks: try again
            }
            assert_eq!(run.code, 1, "{}", run.stderr);
            assert!(
                run.stderr.contains("lost the solver of cube"),
                "{}",
                run.stderr
            );
            assert!(run.stderr.contains("handed out again"), "{}", run.stderr);
            assert!(run.stderr.contains("handed_out_again=1"), "{}", run.stderr);
            assert!(run.stderr.contains("infeasible T=14"), "{}", run.stderr);
            verified(&ring, &dir.join("T14"));
            return;
        }
        panic!("no solver process could be killed in three runs");
    }

    #[test]
    fn a_cube_past_its_budget_is_split_and_the_parts_still_refute() {
        let ring = ring();
        let tmp = fresh_dir("budget-tmp");
        let dir = fresh_dir("budget");
        // A budget far below a solver's start-up: every first cube comes back
        // unknown and is split, until the cubes fix every variable (then they
        // run without a budget).
        let args = [
            "search",
            "-q",
            &ring,
            "--time",
            "14",
            "--any-length",
            "--mpi",
            "--cubes",
            "2",
            "--cube-budget",
            "0.000001",
            "--certificate",
            dir.to_str().unwrap(),
        ];
        let run = finish(mpirun(2, &args, &tmp));
        assert_eq!(run.code, 1, "{}", run.stderr);
        assert!(!run.stderr.contains("splits=0 "), "{}", run.stderr);
        let ours = verified(&ring, &dir.join("T14"));
        assert_eq!(ours["covers_all_tables"], true);
    }

    /// `mpirun -np 2 txverify search RING --any-length --mpi --certificate DIR
    /// EXTRA…` without `--time`: the minimising run, from the lower bound (13) up.
    fn minimise(extra: &[&str], name: &str) -> (Run, PathBuf) {
        let ring = ring();
        let tmp = fresh_dir(&format!("{name}-tmp"));
        let dir = fresh_dir(name);
        let mut args = vec!["search", "-q", &ring, "--any-length", "--mpi"];
        args.extend(["--certificate", dir.to_str().unwrap()]);
        args.extend(extra);
        (finish(mpirun(2, &args, &tmp)), dir)
    }

    /// The kernel's time of a table printed by a search.
    fn time_of(table: &str) -> u64 {
        let path = file("timed.tbl", table);
        let check = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
        assert_eq!(check.code, 0, "{}{}", check.stdout, check.stderr);
        json(&check)["time"].as_u64().unwrap()
    }

    #[test]
    fn two_processes_minimise_with_a_certificate_for_every_smaller_time() {
        let ring = ring();
        let (run, dir) = minimise(&[], "minimise");
        assert_eq!(run.code, 0, "{}", run.stderr);
        for t in [13, 14] {
            let line = format!("infeasible T={t}");
            assert!(run.stderr.contains(&line), "{}", run.stderr);
            assert!(dir.join(format!("T{t}")).join("cubes.icnf").is_file());
        }
        assert!(run.stderr.contains("found in one of"), "{}", run.stderr);
        assert_eq!(time_of(&run.stdout), 15);
        // No certificate (and no empty directory) for the time with a table.
        assert!(!dir.join("T15").exists());
        // verify-proof checks every T<t>/ of the directory.
        let all = txverify(&["verify-proof", &ring, dir.to_str().unwrap()]);
        assert_eq!(all.code, 0, "{}{}", all.stdout, all.stderr);
        for t in [13, 14] {
            let ours = verified(&ring, &dir.join(format!("T{t}")));
            assert_eq!(ours["covers_all_tables"], true);
        }
    }

    #[test]
    fn the_json_report_has_the_local_fields_and_the_cubes_of_each_time() {
        let ring = ring();
        let (run, _) = minimise(&["--format", "json", "--cubes", "4"], "json");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report = json(&run);
        assert_eq!(report["found"], true, "{report}");
        assert_eq!(report["time"], 15, "{report}");
        assert_eq!(report["optimal"], true, "{report}");
        assert_eq!(report["exit_code"], 0, "{report}");
        let refuted: Vec<u64> = (report["infeasible"].as_array().unwrap().iter())
            .map(|i| i["time"].as_u64().unwrap())
            .collect();
        assert_eq!(refuted, [13, 14], "{report}");
        let cubes = report["cubes"].as_array().unwrap();
        assert_eq!(cubes.len(), 3, "{report}");
        for (round, time) in cubes.iter().zip([13, 14, 15]) {
            assert_eq!(round["time"], time, "{round}");
            let seconds = &round["seconds"];
            let (min, median, max) = (
                seconds["min"].as_f64().unwrap(),
                seconds["median"].as_f64().unwrap(),
                seconds["max"].as_f64().unwrap(),
            );
            assert!(0.0 < min && min <= median && median <= max, "{round}");
            let satisfiable = u64::from(time == 15);
            assert_eq!(round["satisfiable"], satisfiable, "{round}");
            if time < 15 {
                // Four first cubes, each refuted or split into refuted parts.
                assert_eq!(round["open"], 0, "{round}");
                let leaves = 4 + 3 * round["splits"].as_u64().unwrap();
                assert_eq!(round["refuted"], leaves, "{round}");
            }
        }
        // Every field of the local search's report is there, and `cubes` as documented.
        let local = txverify(&["search", "-q", &ring, "--any-length", "--format", "json"]);
        for key in json(&local).as_object().unwrap().keys() {
            assert!(report.get(key).is_some(), "{key} missing: {report}");
        }
        let mut written = std::collections::BTreeSet::new();
        common::cli::nested_field_paths(&report["cubes"], "cubes", &mut written);
        written.insert("cubes".to_string());
        let documented = common::cli::documented_fields("### With `--mpi`: the cubes of each time");
        assert_eq!(written, documented, "docs/json.md");
    }

    #[test]
    fn descending_from_the_files_table_stops_at_the_first_time_refuted() {
        let ring = ring();
        let local = txverify(&["search", "-q", &ring, "--time", "16", "--any-length"]);
        assert_eq!(local.code, 0, "{}", local.stderr);
        let known = time_of(&local.stdout);
        let table = file("ring10-known.tbl", &local.stdout);
        let tmp = fresh_dir("descending-tmp");
        let args = [
            "search",
            "-q",
            table.to_str().unwrap(),
            "--any-length",
            "--mpi",
            "--descending",
            "--format",
            "json",
        ];
        let run = finish(mpirun(2, &args, &tmp));
        let report = json(&run);
        let tried: Vec<u64> = (report["cubes"].as_array().unwrap().iter())
            .map(|r| r["time"].as_u64().unwrap())
            .collect();
        assert_eq!(tried.first(), Some(&(known - 1)), "{report}");
        assert_eq!(tried.last(), Some(&14), "{report}");
        assert_eq!(report["infeasible"][0]["time"], 14, "{report}");
        if known > 15 {
            // A faster table than the file's. Not proved optimal: the bound is 13,
            // and `optimal` asks for every time from the bound up to be refuted
            // (docs/cluster.md), while the walk stopped at T=14.
            assert_eq!(run.code, 0, "{}", run.stderr);
            assert_eq!(report["time"], 15, "{report}");
            assert_eq!(report["optimal"], false, "{report}");
        } else {
            assert_eq!(run.code, 1, "{}", run.stderr);
            assert_eq!(report["found"], false, "{report}");
        }
    }

    #[test]
    fn a_deadline_stops_the_run_and_keeps_what_it_proved() {
        // The 16-ring over C_16 with words of any length: T = 33 alone takes
        // many seconds of cubes; the deadline comes first.
        let tmp = fresh_dir("deadline-tmp");
        let args = [
            "search",
            "-q",
            "campaign/networks/ring16-cyclic-anylength.tbl",
            "--any-length",
            "--mpi",
            "--deadline",
            "3",
            "--format",
            "json",
        ];
        let started = Instant::now();
        let run = finish(mpirun(2, &args, &tmp));
        let took = started.elapsed();
        assert_eq!(run.code, 4, "{}", run.stderr);
        assert!(
            run.stderr.contains("stopped by the deadline"),
            "{}",
            run.stderr
        );
        let report = json(&run);
        assert_eq!(report["found"], false, "{report}");
        assert_eq!(report["exit_code"], 4, "{report}");
        assert_eq!(report["unknown"].as_array().unwrap().len(), 1, "{report}");
        // Well before T = 33's cubes could all be solved in a debug build.
        assert!(took < Duration::from_secs(120), "{took:?}");
    }

    /// Whether `tool` is on the PATH.
    fn installed(tool: &str) -> bool {
        Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .is_ok_and(|o| o.status.success())
    }

    #[test]
    fn the_documented_slurm_scripts_run_on_a_one_node_cluster() {
        let missing: Vec<&str> = ["munged", "slurmctld", "slurmd", "sbatch", "sinfo"]
            .into_iter()
            .filter(|t| !installed(t))
            .collect();
        if !missing.is_empty() {
            eprintln!("skipped: Slurm is not installed (missing {missing:?})");
            return;
        }
        let uid = Command::new("id").arg("-u").output().unwrap();
        if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
            eprintln!("skipped: the one-node Slurm cluster needs root (slurmd)");
            return;
        }
        let output = Command::new("scripts/cluster/slurm-test.sh")
            .arg(env!("CARGO_BIN_EXE_txverify"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(output.status.success(), "{stdout}{stderr}");
        assert!(stdout.contains("MPI script: T=14 refuted"), "{stdout}");
        assert!(stdout.contains("job array: 4 cubes refuted"), "{stdout}");
        assert!(stdout.contains("all checks passed"), "{stdout}");
    }
}
