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

/// Runs `txverify ARGS…` with `input` on its standard input.
fn with_stdin(args: &[&str], input: &[u8]) -> crate::common::cli::Run {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // A reader that stops early closes the pipe: the error is not the test's.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    crate::common::cli::Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Runs `txverify ARGS…` where `{}` in an argument is a named FIFO that a
/// thread fills with `input` once; a run that opens it twice would wait
/// forever, so it is stopped after a minute and the test fails.
fn through_fifo(args: &[&str], input: &[u8]) -> crate::common::cli::Run {
    use std::io::Write;
    use std::time::{Duration, Instant};
    let dir = file("fifo.keep", "").parent().unwrap().to_path_buf();
    let fifo = dir.join(format!("input-{}.fifo", args.join("-").len()));
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo");
    let (out, err) = (dir.join("fifo.out"), dir.join("fifo.err"));
    let shown = fifo.to_str().unwrap().to_string();
    let args: Vec<String> = args.iter().map(|a| a.replace("{}", &shown)).collect();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_txverify"))
        .args(&args)
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .expect("the binary runs");
    let input = input.to_vec();
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&path) {
            let _ = f.write_all(&input);
        }
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().ok();
            child.wait().ok();
            // The writer, if still waiting for a reader, is left waiting.
            panic!("{args:?}: still waiting on the FIFO after a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let _ = std::fs::remove_file(&fifo);
    crate::common::cli::Run {
        code: status.code().unwrap_or(-1),
        // Named `{}` in what it wrote, as in the arguments.
        stdout: std::fs::read_to_string(out).unwrap().replace(&shown, "{}"),
        stderr: std::fs::read_to_string(err).unwrap().replace(&shown, "{}"),
    }
}

#[test]
fn a_file_on_standard_input_or_a_fifo_gets_the_verdict_of_the_regular_file() {
    let cases: [(&[&str], &str); 5] = [
        (&["simulate"], "examples/schedules/ring4-total.sched"),
        (&["simulate"], "examples/schedules/mesh2x2-total.json"),
        (&["simulate"], "tables/mesh5.tbl"),
        (&["check"], "tables/mesh5.tbl"),
        (
            &["check", "--network", "ring 8"],
            "examples/msccl/allgather_ring.xml",
        ),
    ];
    for (command, path) in cases {
        let bytes = std::fs::read(path).unwrap();
        let regular = txverify(&[command, &[path]].concat());
        assert_eq!(regular.code, 0, "{path}: {}", regular.stderr);
        for (given, run) in [
            ("-", with_stdin(&[command, &["-"]].concat(), &bytes)),
            ("{}", through_fifo(&[command, &["{}"]].concat(), &bytes)),
        ] {
            assert_eq!(run.code, regular.code, "{path} as {given}: {}", run.stderr);
            // The same report, the file named as it was given.
            assert_eq!(
                run.stdout.replacen(given, "FILE", 1),
                regular.stdout.replacen(path, "FILE", 1),
                "{path} as {given}"
            );
        }
    }
}

/// An edge list is read to estimate the network's size, then to build it: a
/// pipe's text is kept from its one read (it hung on a FIFO).
#[test]
fn an_edge_list_on_standard_input_or_a_fifo_gives_the_regular_files_bounds() {
    let path = "examples/networks/petersen.edges";
    let bytes = std::fs::read(path).unwrap();
    let regular = txverify(&["bounds", "--network", &format!("edges {path}")]);
    assert_eq!(regular.code, 0, "{}", regular.stderr);
    let figures = |out: &str| out.lines().skip(1).map(String::from).collect::<Vec<_>>();
    for (given, run) in [
        ("-", with_stdin(&["bounds", "--network", "edges -"], &bytes)),
        (
            "fifo",
            through_fifo(&["bounds", "--network", "edges {}"], &bytes),
        ),
    ] {
        assert_eq!(run.code, 0, "{given}: {}", run.stderr);
        assert_eq!(figures(&run.stdout), figures(&regular.stdout), "{given}");
    }
}

/// An LP certificate is read once, then tried as a fabric's `bounds` report
/// and as a certificate: a pipe's text is kept from its one read (`-` read
/// nothing the second time, a FIFO hung).
#[test]
fn an_lp_certificate_on_standard_input_or_a_fifo_is_verified_as_the_regular_file() {
    let certificate = file("ring6-stdin.lp.json", "");
    let path = certificate.to_str().unwrap();
    let made = txverify(&["bounds", "--network", "ring 6", "--lp-certificate", path]);
    assert_eq!(made.code, 0, "{}", made.stderr);
    let bytes = std::fs::read(&certificate).unwrap();
    let regular = txverify(&["verify-bound", "--network", "ring 6", path]);
    assert_eq!(regular.code, 0, "{}", regular.stderr);
    for (given, run) in [
        (
            "-",
            with_stdin(&["verify-bound", "--network", "ring 6", "-"], &bytes),
        ),
        (
            "{}",
            through_fifo(&["verify-bound", "--network", "ring 6", "{}"], &bytes),
        ),
    ] {
        assert_eq!(run.code, regular.code, "{given}: {}", run.stderr);
        assert_eq!(
            run.stdout.replacen(given, "FILE", 1),
            regular.stdout.replacen(path, "FILE", 1),
            "{given}"
        );
    }
}

/// `-o` naming a FIFO (or a device such as `/dev/null`) writes into it: the
/// schedule is not written beside it and renamed over it, which would replace
/// the FIFO, or as root `/dev/null` itself, by a plain file.
#[test]
fn a_fifo_named_by_o_is_written_into_not_replaced() {
    use std::io::Read;
    use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
    /// Linux's `O_NONBLOCK`: the read end opens at once, so the run's open
    /// for writing never waits, and reading stops when the pipe is empty.
    const O_NONBLOCK: i32 = 0o4000;
    let dir = file("fifo-out.keep", "").parent().unwrap().to_path_buf();
    let fifo = dir.join("schedule-out.fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success(), "mkfifo");
    let mut reader = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(O_NONBLOCK)
        .open(&fifo)
        .unwrap();
    let shown = fifo.to_str().unwrap();
    let run = txverify(&[
        "search",
        "-q",
        "--network",
        "ring 4",
        "--heuristic",
        "-o",
        shown,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let kind = std::fs::symlink_metadata(&fifo).unwrap().file_type();
    assert!(kind.is_fifo(), "-o replaced the FIFO: {kind:?}");
    let mut written = Vec::new();
    let mut chunk = [0u8; 4096];
    while let Ok(n @ 1..) = reader.read(&mut chunk) {
        written.extend_from_slice(&chunk[..n]);
    }
    let text = String::from_utf8(written).unwrap();
    assert!(text.contains("network: ring 4"), "{text}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".schedule-out.fifo")
        })
        .collect();
    assert!(leftovers.is_empty(), "temporaries left: {leftovers:?}");
    std::fs::remove_file(&fifo).unwrap();
}
