//! The anytime `search --network`: the heuristic's schedule is on disk before
//! SAT runs, `--deadline S` and SIGINT stop the run with the best schedule
//! found (exit 0, `simulate` accepts the file), and bad deadlines are refused.
//!
//! The graph is examples/networks/dragonfly20.edges, where the heuristic finds
//! 17 steps with `--no-lp` (routing along the LP's flow finds 16), the bound
//! is 16 and SAT at T = 16 runs for minutes: every run here is stopped, never
//! finished. No timing is asserted closely (CI is
//! loaded): only that a 2-second deadline ends the run within minutes.

use crate::common::cli::{documented_fields, file, nested_field_paths, txverify};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn dragonfly() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/networks/dragonfly20.edges");
    format!("edges {}", path.display())
}

/// The links of the dragonfly example, read here.
fn dragonfly_links() -> Vec<(usize, usize)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/networks/dragonfly20.edges");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut w = l.split_whitespace().map(|x| x.parse::<usize>().unwrap());
            (w.next().unwrap(), w.next().unwrap())
        })
        .collect()
}

/// `simulate FILE --format json` accepts the schedule: its time.
fn simulated_time(path: &Path) -> u64 {
    let run = txverify(&["simulate", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(report["valid"], true);
    report["time"].as_u64().unwrap()
}

/// The report of a run that was stopped with a schedule: valid, the one in
/// `out`, its gap to the bound stated.
fn assert_stopped_with_a_schedule(report: &serde_json::Value, out: &Path, why: &str) {
    assert_eq!(report["exit_code"], 0, "{report}");
    assert_eq!(report["stopped"], why, "{report}");
    assert_eq!(report["found"], true);
    assert_eq!(report["optimal"], false);
    let time = report["time"].as_u64().unwrap();
    let bound = report["lower_bound"].as_u64().unwrap();
    assert_eq!(report["gap"].as_u64(), Some(time - bound));
    assert_eq!(simulated_time(out), time);
    let kept = report["improvements"].as_array().unwrap();
    assert_eq!(kept[0]["found_by"], "heuristic", "{report}");
    assert_eq!(kept.last().unwrap()["time"], time);
}

#[test]
fn the_dragonfly_example_is_what_its_comment_says() {
    let links = dragonfly_links();
    assert_eq!(links.len(), 40);
    let group = |x: usize| x / 4;
    let local = links.iter().filter(|&&(a, b)| group(a) == group(b)).count();
    assert_eq!(local, 5 * 6, "a K4 in each of the 5 groups");
    let mut pairs: Vec<(usize, usize)> = links
        .iter()
        .filter(|&&(a, b)| group(a) != group(b))
        .map(|&(a, b)| (group(a).min(group(b)), group(a).max(group(b))))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    assert_eq!(pairs.len(), 10, "one global link per pair of groups");
    // A group's 4 routers send 4 · 16 messages out over its 4 global links.
    let r = txverify(&["bounds", "--network", &dragonfly(), "--format", "json"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("\"all_port_bound\":16"), "{}", r.stdout);
}

#[test]
fn a_deadline_ends_the_run_with_the_best_schedule_on_disk() {
    let out = file("dragonfly-deadline.json", "");
    std::fs::remove_file(&out).unwrap();
    let started = Instant::now();
    let run = txverify(&[
        "search",
        "--network",
        &dragonfly(),
        "--no-lp",
        "--deadline",
        "2",
        "-o",
        out.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert!(
        started.elapsed() < Duration::from_secs(180),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(report["schema"], "txverify-schedule-search/3");
    assert_eq!(report["deadline"], 2.0);
    assert_stopped_with_a_schedule(&report, &out, "deadline");
    let mut written = BTreeSet::new();
    nested_field_paths(&report, "", &mut written);
    // Every field written is documented; every top-level one is written
    // (`infeasible` is empty here, so its objects' fields are not).
    let documented = documented_fields("### A schedule search that ran");
    assert!(written.is_subset(&documented), "{written:?}");
    assert!(
        documented
            .iter()
            .filter(|f| !f.contains('['))
            .all(|f| written.contains(f))
    );
    // The text report states the gap and why optimality is not proved.
    let text_out = out.with_file_name("dragonfly-deadline.sched");
    let run = txverify(&[
        "search",
        "--network",
        &dragonfly(),
        "--no-lp",
        "--deadline",
        "1",
        "-o",
        text_out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("gap 1 (6.2 %), optimality not proved: stopped by the deadline"),
        "{}",
        run.stdout
    );
    simulated_time(&text_out);
}

/// Starts `search --network` on the dragonfly, to be stopped.
fn start(out: &Path) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args([
            "search",
            "--network",
            &dragonfly(),
            "--no-lp",
            "--format",
            "json",
            "-o",
        ])
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts")
}

/// Waits until `path` exists (the heuristic's schedule was written).
fn wait_for(path: &Path, child: &mut std::process::Child) {
    let started = Instant::now();
    while !path.exists() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the search ended early"
        );
        assert!(
            started.elapsed() < Duration::from_secs(180),
            "nothing written"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[cfg(unix)]
#[test]
fn sigint_and_sigterm_end_the_run_with_the_best_schedule_on_disk() {
    for signal in ["INT", "TERM"] {
        stopped_by(signal);
    }
}

/// Starts a search, sends `kill -SIGNAL` once the heuristic's schedule is on
/// disk and a second has passed, and checks what the run left.
#[cfg(unix)]
fn stopped_by(signal: &str) {
    let name = format!("dragonfly-{signal}.json");
    let out: PathBuf = file(&name, "");
    std::fs::remove_file(&out).unwrap();
    let mut child = start(&out);
    wait_for(&out, &mut child);
    // Written whole before SAT runs: `simulate` accepts it while the search goes on.
    let written = simulated_time(&out);
    std::thread::sleep(Duration::from_millis(1000));
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "SIG{signal}: {stderr}");
    let report: serde_json::Value =
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_stopped_with_a_schedule(&report, &out, "signal");
    assert!(report["time"].as_u64().unwrap() <= written);
    // Progress went to standard error: the schedule kept.
    assert!(
        stderr.contains("best: 17 steps (found by heuristic)"),
        "{stderr}"
    );
    // Nothing but the schedule is left beside it.
    let names: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(&format!("dragonfly-{signal}")))
        .collect();
    assert_eq!(names, [name]);
}

#[test]
fn bad_deadlines_exit_2() {
    let net = dragonfly();
    for value in ["0", "-1", "abc", "nan", "inf", ""] {
        let given = format!("--deadline={value}");
        let run = txverify(&["search", "--network", &net, &given]);
        assert_eq!(run.code, 2, "--deadline {value:?}: {}", run.stderr);
        assert!(run.stderr.contains("--deadline"), "{}", run.stderr);
    }
    let refused: [&[&str]; 2] = [
        &["search", "tables/mesh5.tbl", "--deadline", "5"],
        &[
            "search",
            "--network",
            &net,
            "--heuristic",
            "--deadline",
            "5",
        ],
    ];
    for args in refused {
        let run = txverify(args);
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
    }
}
