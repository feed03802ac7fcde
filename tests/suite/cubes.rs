//! `search --cubes K`: cube-and-conquer, solved here on every core, or written
//! for independent jobs and merged with `--merge DIR`, where every answer is
//! checked: models by the kernel, refutations by their proofs, and the cubes'
//! coverage again.

use crate::common;

use common::cli::{Run, file, txverify};
use std::path::{Path, PathBuf};

/// The 8-ring over C_8: no shortest-path table with 9 columns, one with 10.
const RING8: &str = "group: <a | a^8>\nnetwork: ring 8\ntable:\n";

/// The extension of a cube's proof: the default solver (the bundled CaDiCaL)
/// writes LRAT; a build without it refutes cubes with varisat, in DRAT.
const PROOF: &str = if cfg!(feature = "cadical") {
    "lrat"
} else {
    "drat"
};

fn ring() -> String {
    static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PATH.get_or_init(|| file("ring8-cubes.tbl", RING8).to_str().unwrap().to_string())
        .clone()
}

fn search(extra: &[&str]) -> Run {
    let ring = ring();
    let mut args = vec!["search", "-q", &ring];
    args.extend_from_slice(extra);
    txverify(&args)
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("txverify-cubes-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Each cube's end is a line on standard error (none with `-q`): a run of hours
/// shows how far it is.
#[test]
fn a_cube_run_shows_each_cube_as_it_ends() {
    let ring = ring();
    let args = [
        "search", &ring, "--time", "9", "--cubes", "3", "--jobs", "1",
    ];
    let run = txverify(&args);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let lines: Vec<&str> = (run.stderr.lines())
        .filter(|l| l.starts_with("T=9 cube "))
        .collect();
    assert_eq!(lines.len(), 3, "{}", run.stderr);
    for (i, line) in lines.iter().enumerate() {
        let start = format!("T=9 cube {} refuted after ", i + 1);
        let end = format!(": {} of 3 cubes refuted, {} open", i + 1, 2 - i);
        assert!(line.starts_with(&start) && line.ends_with(&end), "{line}");
    }
    let quiet = search(&["--time", "9", "--cubes", "3", "--jobs", "1"]);
    assert_eq!(quiet.code, 1, "{}", quiet.stderr);
    assert!(!quiet.stderr.contains(" cube 1 "), "{}", quiet.stderr);
}

/// SIGINT stops a cube run as its limit does: exit 4, with how many cubes it
/// refuted and which are open. Pancake 5 at its bound 107 is undecided, so the
/// run is still going when the signal comes (after its first cube, or after a
/// minute if that cube takes longer).
#[test]
fn sigint_stops_a_cube_run_with_its_count() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    let args = ["search", "campaign/networks/pancake5.tbl", "--time", "107"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(args)
        .args(["--cubes", "64", "--jobs", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(child.stderr.take().unwrap());
    let (lines, heard) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines.send(line);
        }
    });
    let minute = std::time::Duration::from_secs(60);
    while let Ok(line) = heard.recv_timeout(minute) {
        if line.starts_with("T=107 cube ") {
            break;
        }
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let rest: Vec<String> = heard.try_iter().collect();
    let last = rest.last().cloned().unwrap_or_default();
    assert_eq!(status.code(), Some(4), "{rest:?}");
    let start = "unknown T=107: a signal stopped the run with ";
    assert!(
        last.starts_with(start) && last.contains(" of 64 cubes refuted and "),
        "{rest:?}"
    );
}

#[test]
fn cubes_solved_here_find_the_table_or_refute_every_cube() {
    let run = search(&["--time", "10", "--cubes", "4", "--jobs", "2"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = file("ring8-cube-found.tbl", &run.stdout);
    assert_eq!(txverify(&["check", s(&found)]).code, 0);
    let run = search(&["--time", "9", "--cubes", "3"]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("all 3 cubes refuted"), "{}", run.stderr);
    // With a certificate: one proof per cube, and verify-proof checks them all.
    let dir = fresh_dir("local");
    let run = search(&["--time", "9", "--cubes", "5", "--certificate", s(&dir)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let verified = txverify(&["verify-proof", &ring(), s(&dir)]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
    assert!(verified.stdout.contains("5 cubes"), "{}", verified.stdout);
    let provenance = std::fs::read_to_string(dir.join("T9/provenance.json")).unwrap();
    if cfg!(feature = "cadical") {
        assert!(provenance.contains("CaDiCaL 3.0.1"), "{provenance}");
    }
    // One cube's proof cut to its first half: rejected, naming the cube.
    let cut = dir.join(format!("T9/cube-0002.{PROOF}"));
    let proof = std::fs::read(&cut).unwrap();
    std::fs::write(&cut, &proof[..proof.len() / 2]).unwrap();
    let rejected = txverify(&["verify-proof", &ring(), s(&dir)]);
    assert_eq!(rejected.code, 1, "{}", rejected.stdout);
    assert!(rejected.stdout.contains("cube-0002"), "{}", rejected.stdout);
}

/// Cubes written to a directory for jobs, with the proofs of a local
/// certified run copied in as the jobs' answers (the cubes are the same: they
/// depend on the formula only).
fn answered_cubes(name: &str, count: &str) -> PathBuf {
    let proofs = fresh_dir(&format!("{name}-proofs"));
    let run = search(&["--time", "9", "--cubes", count, "--certificate", s(&proofs)]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let dir = fresh_dir(name);
    let run = search(&["--time", "9", "--cubes", count, "-o", s(&dir)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let icnf = std::fs::read_to_string(dir.join("cubes.icnf")).unwrap();
    assert!(icnf.contains("p inccnf\n"));
    let cubes = icnf.lines().filter(|l| l.starts_with("a ")).count();
    assert_eq!(cubes.to_string(), count);
    for i in 1..=cubes {
        let stem = format!("cube-{i:04}");
        assert!(dir.join(format!("{stem}.cnf")).exists());
        std::fs::copy(
            proofs.join(format!("T9/{stem}.{PROOF}")),
            dir.join(format!("{stem}.{PROOF}")),
        )
        .unwrap();
        std::fs::write(dir.join(format!("{stem}.out")), "s UNSATISFIABLE\n").unwrap();
    }
    dir
}

fn merge(dir: &Path) -> Run {
    search(&["--time", "9", "--merge", s(dir)])
}

#[test]
fn a_merge_refutes_only_with_every_proof_and_covering_cubes() {
    let dir = answered_cubes("merge", "4");
    let run = merge(&dir);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("every cube refuted"), "{}", run.stderr);
    let verified = txverify(&["verify-proof", &ring(), s(&dir)]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);

    // A cube without an answer, or with "unsatisfiable" but no proof: open.
    std::fs::remove_file(dir.join("provenance.json")).unwrap();
    std::fs::remove_file(dir.join("cube-0003.out")).unwrap();
    std::fs::remove_file(dir.join(format!("cube-0004.{PROOF}"))).unwrap();
    let run = merge(&dir);
    assert_eq!(run.code, 4, "{}", run.stderr);
    assert!(
        run.stderr.contains("no answer from cubes 3"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("without a proof"), "{}", run.stderr);
    assert!(!dir.join("provenance.json").exists());
}

#[test]
fn a_lying_cube_or_cubes_that_do_not_cover_are_errors() {
    // A proof that refutes nothing.
    let dir = answered_cubes("lying", "4");
    std::fs::write(dir.join(format!("cube-0002.{PROOF}")), "0\n").unwrap();
    let run = merge(&dir);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("cube-0002"), "{}", run.stderr);
    assert!(!dir.join("provenance.json").exists());
    // A cube dropped from the file: the rest no longer cover.
    let dir = answered_cubes("uncovered", "4");
    let icnf = dir.join("cubes.icnf");
    let text = std::fs::read_to_string(&icnf).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.iter().rposition(|l| l.starts_with("a ")).unwrap();
    let fewer: Vec<&str> = lines
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| i != last)
        .map(|(_, l)| l)
        .collect();
    std::fs::write(&icnf, fewer.join("\n") + "\n").unwrap();
    let run = merge(&dir);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("do not cover"), "{}", run.stderr);
    // Cubes made for another time.
    let run = search(&["--time", "10", "--merge", s(&dir)]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("another formula"), "{}", run.stderr);
}

#[test]
fn a_model_from_any_cube_is_decoded_and_checked() {
    let dir = fresh_dir("model");
    let run = search(&["--time", "10", "--cubes", "2", "-o", s(&dir)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // A model of the whole formula, found by a local run, as cube 2's answer.
    let cnf = dir.join("whole.cnf");
    let run = search(&["--time", "10", "--dimacs", s(&cnf)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let vars: usize = std::fs::read_to_string(&cnf)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("p cnf "))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap();
    // Every variable false is no model: an error, never a table.
    let all_false: String = (1..=vars).map(|v| format!("-{v} ")).collect();
    std::fs::write(
        dir.join("cube-0002.out"),
        format!("s SATISFIABLE\nv {all_false}0\n"),
    )
    .unwrap();
    let run = search(&["--time", "10", "--merge", s(&dir)]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(!run.stdout.contains("table:"));
    if std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("cadical is not installed: the real model is skipped");
        return;
    }
    let cube = dir.join("cube-0002.cnf");
    let solved = std::process::Command::new("cadical")
        .args(["-q", s(&cube)])
        .output()
        .unwrap();
    let output = String::from_utf8_lossy(&solved.stdout).into_owned();
    let cube1 = dir.join("cube-0001.cnf");
    let solved1 = std::process::Command::new("cadical")
        .args(["-q", s(&cube1)])
        .output()
        .unwrap();
    // At least one of the two cubes has a table; give both answers.
    std::fs::write(dir.join("cube-0002.out"), &output).unwrap();
    std::fs::write(dir.join("cube-0001.out"), &solved1.stdout).unwrap();
    let run = search(&["--time", "10", "--merge", s(&dir)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let found = file("ring8-merged.tbl", &run.stdout);
    assert_eq!(txverify(&["check", s(&found)]).code, 0);
}

#[test]
fn cadical_jobs_on_the_cube_files_merge_into_a_certificate() {
    if std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("cadical is not installed: skipped");
        return;
    }
    let dir = fresh_dir("cadical");
    let run = search(&["--time", "9", "--cubes", "8", "-o", s(&dir)]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    for i in 1..=8 {
        let stem = dir.join(format!("cube-{i:04}"));
        let job = format!(
            "cadical -q '{0}.cnf' '{0}.drat' > '{0}.out'",
            stem.display()
        );
        std::process::Command::new("sh")
            .args(["-c", &job])
            .status()
            .unwrap();
    }
    let run = merge(&dir);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let verified = txverify(&["verify-proof", &ring(), s(&dir)]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
}

#[test]
fn cubes_solved_here_by_an_external_solver_need_its_proofs_to_hold() {
    let lying = "echo 's UNSATISFIABLE'; echo 0 > {proof}; exit 20 # {cnf}";
    let run = search(&[
        "--time",
        "9",
        "--cubes",
        "2",
        "--solver",
        "external",
        "--solver-cmd",
        lying,
    ]);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("T=9"), "{}", run.stderr);
    assert!(run.stderr.contains("cube-000"), "{}", run.stderr);
    if std::process::Command::new("cadical")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("cadical is not installed: the real proofs are skipped");
        return;
    }
    let dir = fresh_dir("external");
    let run = search(&[
        "--time",
        "9",
        "--cubes",
        "3",
        "--solver",
        "external",
        "--solver-cmd",
        "cadical -q {cnf} {proof}",
        "--certificate",
        s(&dir),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    let provenance = std::fs::read_to_string(dir.join("T9/provenance.json")).unwrap();
    assert!(provenance.contains("\"cubes\": 3"), "{provenance}");
    let verified = txverify(&["verify-proof", &ring(), s(&dir)]);
    assert_eq!(verified.code, 0, "{}", verified.stdout);
}

#[test]
fn a_cube_run_stopped_by_its_limit_says_how_many_cubes_it_refuted_and_which_are_open() {
    // The 16-ring at 35 with words of any length: refuted, but in tens of
    // seconds; one second for all eight cubes leaves some open.
    let run = txverify(&[
        "search",
        "campaign/networks/ring16-cyclic-anylength.tbl",
        "--any-length",
        "--time",
        "35",
        "--cubes",
        "8",
        "--time-limit",
        "1",
        "--jobs",
        "1",
    ]);
    assert_eq!(run.code, 4, "{}{}", run.stdout, run.stderr);
    let line = run
        .stderr
        .lines()
        .chain(run.stdout.lines())
        .find(|l| l.starts_with("unknown T=35: the limit ran out with "))
        .unwrap_or_else(|| panic!("{}{}", run.stdout, run.stderr))
        .to_string();
    // "… with R of 8 cubes refuted and O open (cubes a, b, …)": R + O = 8,
    // and O cube numbers are listed, each between 1 and 8.
    let words: Vec<&str> = line.split_whitespace().collect();
    let refuted: usize = words[7].parse().unwrap();
    let open: usize = words[13].parse().unwrap();
    assert_eq!(words[9], "8", "{line}");
    assert_eq!(refuted + open, 8, "{line}");
    let listed: Vec<usize> = line
        .split("(cubes ")
        .nth(1)
        .unwrap()
        .trim_end_matches(')')
        .split(", ")
        .map(|n| n.parse().unwrap())
        .collect();
    assert_eq!(listed.len(), open, "{line}");
    assert!(listed.iter().all(|&c| (1..=8).contains(&c)), "{line}");
}

#[test]
fn a_budget_splits_cubes_here_and_the_leaves_still_make_a_certificate() {
    // A budget far below a solver's start-up: cubes come back unknown and are
    // split (twice at most); whatever was split, the refuted leaves must cover.
    let dir = fresh_dir("budget");
    let args = ["--time", "9", "--cubes", "2", "--cube-budget", "0.000001"];
    let run = search(&[&args[..], &["--certificate", s(&dir)]].concat());
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("cubes refuted"), "{}", run.stderr);
    let verified = txverify(&["verify-proof", &ring(), s(&dir)]);
    assert_eq!(verified.code, 0, "{}{}", verified.stdout, verified.stderr);
    // A budget needs cubes to split.
    let run = search(&["--time", "9", "--cube-budget", "1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr
            .contains("--cube-budget needs --cubes K or --mpi")
    );
}
