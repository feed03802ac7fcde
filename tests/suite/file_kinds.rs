//! `check` and `simulate` tell a file's kind from its text, not its name:
//! tables, schedules and MSCCL programs under misleading names are read by the
//! command that reads them, and a file given to the wrong command gets one
//! line naming the right one (exit 2).

use crate::common::cli::{export_msccl, file, txverify};

fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap()
}

/// The one `error:` line of a refused file, which names `command` and the file.
fn assert_redirected(run: &crate::common::cli::Run, kind: &str, command: &str, shown: &str) {
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{}", run.stderr);
    let expected = format!("error: {shown} is {kind}: {command}");
    assert!(
        lines[0].starts_with(&expected),
        "{}\nexpected {expected}",
        lines[0]
    );
}

#[test]
fn check_reads_a_table_whatever_its_name() {
    let table = file("ring.sched", &read("tables/mesh5.tbl"));
    let run = txverify(&["check", table.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("optimal"), "{}", run.stdout);
}

#[test]
fn check_reads_an_msccl_program_whatever_its_name() {
    let program = file("alltoall.msccl", &export_msccl("tables/ring7-cyclic.tbl"));
    let shown = program.to_str().unwrap();
    let run = txverify(&["check", shown]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The MSCCL checker's report, not a table's parse error.
    assert!(!run.stderr.contains("expected"), "{}", run.stderr);
    let json = txverify(&["check", shown, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(json.stdout.trim()).unwrap();
    assert!(
        report["schema"].as_str().unwrap().contains("msccl"),
        "{report}"
    );
    // `--network` is for MSCCL programs, and this is one.
    let on_ring = txverify(&["check", shown, "--network", "ring 7"]);
    assert_eq!(on_ring.code, 0, "{}", on_ring.stderr);
}

#[test]
fn check_points_a_schedule_to_simulate() {
    let schedule = file("sched.tbl", &read("examples/schedules/ring4-total.sched"));
    let shown = schedule.to_str().unwrap();
    let run = txverify(&["check", shown]);
    assert_redirected(
        &run,
        "a schedule",
        &format!("run `txverify simulate {shown}`"),
        shown,
    );
    // In a collection it is one failing line, not a parse error.
    let batch = txverify(&["check", shown, "tables/ring7-cyclic.tbl"]);
    assert_eq!(batch.code, 2, "{}", batch.stdout);
    assert!(batch.stdout.contains("is a schedule"), "{}", batch.stdout);
}

#[test]
fn simulate_reads_schedules_and_tables_whatever_their_names() {
    let schedule = file("ring4.tbl", &read("examples/schedules/ring4-total.sched"));
    let run = txverify(&["simulate", schedule.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("schedule"), "{}", run.stdout);
    let json = file("mesh.txt", &read("examples/schedules/mesh2x2-total.json"));
    let run = txverify(&["simulate", json.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let table = file("mesh5.json", &read("tables/mesh5.tbl"));
    let run = txverify(&["simulate", table.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("simulated on torus 5 5"),
        "{}",
        run.stdout
    );
}

#[test]
fn simulate_points_other_files_to_their_commands() {
    let program = file("program.tbl", &export_msccl("tables/ring7-cyclic.tbl"));
    let shown = program.to_str().unwrap();
    let run = txverify(&["simulate", shown]);
    assert_redirected(
        &run,
        "an MSCCL program",
        &format!("run `txverify check {shown}`"),
        shown,
    );

    let edges = file("petersen.tbl", &read("examples/networks/petersen.edges"));
    let shown = edges.to_str().unwrap();
    let run = txverify(&["simulate", shown]);
    assert_redirected(&run, "an edge list", "give it as a network", shown);
    let run = txverify(&["check", shown]);
    assert_redirected(
        &run,
        "an edge list",
        &format!("give it as a network, `--network 'edges {shown}'`"),
        shown,
    );

    let formula = file("formula.sched", "c two clauses\np cnf 2 2\n1 2 0\n-1 0\n");
    let shown = formula.to_str().unwrap();
    for command in ["check", "simulate"] {
        let run = txverify(&[command, shown]);
        assert_redirected(&run, "a DIMACS formula", "check a proof of it", shown);
    }
}
