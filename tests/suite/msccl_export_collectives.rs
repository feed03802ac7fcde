//! `export --format msccl` of collective schedules, checked by MSCCL in: a
//! schedule found by `search --collective`, exported, must be called VALID by
//! `check PROGRAM.xml --network NET` as the same collective (for broadcast and
//! reduce: right for the schedule's root), on rings, hypercubes, tori, a
//! twisted torus and an edge list; a tampered program must be refused, and so
//! must schedules MSCCL has no program for.

use crate::common::cli::{file, txverify};
use std::path::{Path, PathBuf};
use txverify_clients::export::msccl::collective::{check_collective, collective};
use txverify_clients::export::msccl::{MscclError, StepKind};
use txverify_core::schedule::{Collective, Schedule, TimedSend, parse, write_text};

/// The Petersen graph's edge list, by an absolute path (the schedule and the
/// program are written in a directory of their own).
fn petersen() -> String {
    let path = Path::new("examples/networks/petersen.edges")
        .canonicalize()
        .unwrap();
    format!("edges {}", path.display())
}

/// `search --network NET --collective COLL --chunks C -o DIR/s.sched`; the
/// schedule's path.
fn search(network: &str, coll: &str, chunks: u32) -> PathBuf {
    let dir = file("s.sched", "").parent().unwrap().to_path_buf();
    let sched = dir.join(format!("{}.sched", coll.replace(' ', "_")));
    let chunks = chunks.to_string();
    let run = txverify(&[
        "search",
        "--network",
        network,
        "--collective",
        coll,
        "--chunks",
        &chunks,
        "--quiet",
        "-o",
        sched.to_str().unwrap(),
    ]);
    assert_eq!(
        run.code, 0,
        "search {network} {coll}: {}{}",
        run.stdout, run.stderr
    );
    sched
}

/// Exports `sched` as MSCCL next to it; the program's path.
fn export(sched: &Path) -> PathBuf {
    let xml = sched.with_extension("xml");
    let run = txverify(&[
        "export",
        sched.to_str().unwrap(),
        "--format",
        "msccl",
        "-o",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "export {}: {}", sched.display(), run.stderr);
    xml
}

/// `check PROGRAM.xml --network NET --format json`: exit status and report.
fn check(xml: &Path, network: &str) -> (i32, serde_json::Value) {
    let run = txverify(&[
        "check",
        xml.to_str().unwrap(),
        "--network",
        network,
        "--format",
        "json",
    ]);
    let report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (run.code, report)
}

/// The MSCCL name of one of txverify's collectives, and its root.
fn msccl_name(coll: &str) -> (&'static str, Option<u64>) {
    let mut words = coll.split_whitespace();
    let name = match words.next().unwrap() {
        "broadcast" => "broadcast",
        "reduce" => "reduce",
        "allgather" => "allgather",
        "reduce-scatter" => "reducescatter",
        "allreduce" => "allreduce",
        other => panic!("{other}"),
    };
    (name, words.next().map(|r| r.parse().unwrap()))
}

/// Search, export, check: VALID, as the same collective, right for the root.
fn round_trip(network: &str, coll: &str, chunks: u32) {
    exported_and_checked(&search(network, coll, chunks), network, coll);
}

/// Export `sched` (of `coll` on `network`), check: VALID, as the same
/// collective, right for the root, one chunk sent per send.
fn exported_and_checked(sched: &Path, network: &str, coll: &str) {
    let xml = export(sched);
    let (code, report) = check(&xml, network);
    let (name, root) = msccl_name(coll);
    assert_eq!(code, 0, "{network} {coll}: {report}");
    assert_eq!(report["valid"], true, "{network} {coll}: {report}");
    assert_eq!(report["collective"], name, "{network} {coll}");
    let text = std::fs::read_to_string(&xml).unwrap();
    let n = parse(&std::fs::read_to_string(sched).unwrap())
        .unwrap()
        .sends
        .len();
    // Every send of the schedule is one chunk sent by the program.
    assert_eq!(
        report["figures"]["chunks_sent"].as_u64(),
        Some(n as u64),
        "{network} {coll}"
    );
    assert!(text.contains(&format!("coll=\"{name}\"")));
    if let Some(root) = root {
        let roots = report["figures"]["roots"].as_array().unwrap();
        assert!(
            roots.iter().any(|r| r.as_u64() == Some(root)),
            "{network} {coll}: roots {roots:?}"
        );
    }
}

/// The combining collectives from searched copies, where the search for
/// them would be slow in a debug build: `reduce 0` is `broadcast 0` run
/// backwards, `reduce-scatter` is `allgather` backwards (each node sends its
/// partial to the node it got the item from, after its own subtree sent it
/// theirs), `allreduce` is that reduce-scatter followed by the allgather. The
/// export replays each and refuses an invalid one, so a wrong derivation
/// fails the test.
fn combining_from_copies(network: &str) -> Vec<(PathBuf, &'static str)> {
    let read = |p: &Path| parse(&std::fs::read_to_string(p).unwrap()).unwrap();
    let broadcast = read(&search(network, "broadcast 0", 1));
    let allgather = read(&search(network, "allgather", 1));
    let backwards = |s: &Schedule, collective: Collective| {
        let time = s.sends.iter().map(|x| x.step).max().unwrap();
        let mut r = s.clone();
        r.collective = collective;
        for x in &mut r.sends {
            (x.step, x.from, x.to) = (time + 1 - x.step, x.to, x.from);
        }
        r.sends.sort_by_key(|x| (x.step, x.from, x.to));
        r
    };
    let reduce = backwards(&broadcast, Collective::reduce(0));
    let scatter = backwards(&allgather, Collective::ReduceScatter { chunks: 1 });
    let mut allreduce = scatter.clone();
    allreduce.collective = Collective::Allreduce { chunks: 1 };
    let shift = scatter.sends.iter().map(|x| x.step).max().unwrap();
    allreduce
        .sends
        .extend(allgather.sends.iter().map(|x| TimedSend {
            step: x.step + shift,
            ..*x
        }));
    [
        (reduce, "reduce 0"),
        (scatter, "reduce-scatter"),
        (allreduce, "allreduce"),
    ]
    .into_iter()
    .map(|(schedule, coll)| {
        let mut text = Vec::new();
        write_text(&schedule, &mut text).unwrap();
        let name = format!("{}.sched", coll.replace(' ', "_"));
        (file(&name, &String::from_utf8(text).unwrap()), coll)
    })
    .collect()
}

/// Broadcast and allgather searched, the combining collectives derived.
fn every_collective(network: &str) {
    round_trip(network, "broadcast 0", 1);
    round_trip(network, "allgather", 1);
    for (sched, coll) in combining_from_copies(network) {
        exported_and_checked(&sched, network, coll);
    }
}

const ALL: [&str; 5] = [
    "broadcast 0",
    "reduce 0",
    "allgather",
    "reduce-scatter",
    "allreduce",
];

#[test]
fn ring_8_every_collective_searched() {
    for coll in ALL {
        round_trip("ring 8", coll, 1);
    }
}

#[test]
fn hypercube_3_every_collective() {
    every_collective("hypercube 3");
}

#[test]
fn torus_3_3_every_collective() {
    every_collective("torus 3 3");
}

#[test]
fn twisted_4_2_every_collective() {
    every_collective("twisted 4 2");
}

#[test]
fn petersen_every_collective() {
    every_collective(&petersen());
}

#[test]
fn two_chunks_copy_and_combine() {
    round_trip("ring 4", "allgather", 2);
    round_trip("ring 4", "reduce-scatter", 2);
    round_trip("hypercube 2", "broadcast 1", 2);
    round_trip("ring 4", "reduce 2", 2);
}

#[test]
fn a_rooted_program_is_right_for_its_root_only() {
    let sched = search("ring 5", "broadcast 3", 1);
    let (_, report) = check(&export(&sched), "ring 5");
    assert_eq!(report["figures"]["roots"], serde_json::json!([3]));
}

/// The program of a ring-4 allreduce schedule, as text.
fn ring4_allreduce() -> (PathBuf, String) {
    let sched = search("ring 4", "allreduce", 1);
    let xml = export(&sched);
    let text = std::fs::read_to_string(&xml).unwrap();
    (xml, text)
}

/// `text` with the first step that waits for another made to wait for none.
fn without_first_dependency(text: &str) -> String {
    let mut done = false;
    let lines: Vec<String> = text
        .lines()
        .map(|line| {
            let Some(at) = line.find(" depid=\"") else {
                return line.to_string();
            };
            let rest = &line[at..];
            if done || rest.starts_with(" depid=\"-1\"") {
                return line.to_string();
            }
            done = true;
            let end = rest.find(" hasdep=").unwrap();
            format!("{} depid=\"-1\" deps=\"-1\"{}", &line[..at], &rest[end..])
        })
        .collect();
    lines.join("\n") + "\n"
}

#[test]
fn a_tampered_program_is_refused() {
    let (xml, text) = ring4_allreduce();
    assert!(text.contains("type=\"rrc\""), "{text}");
    // Each tampering keeps the file readable; the checker must refuse it.
    let tamperings: Vec<(&str, String)> = vec![
        // A combining receive that only receives loses contributions.
        ("rrc as r", text.replacen("type=\"rrc\"", "type=\"r\"", 1)),
        // The last step waited for in a threadblock that no longer says so:
        // no later step of its threadblock publishes, the wait never ends.
        ("no hasdep", {
            let at = text.rfind("hasdep=\"1\"").unwrap();
            format!("{}hasdep=\"0\"{}", &text[..at], &text[at + 10..])
        }),
        // A forward that sends its input instead of its partial.
        (
            "input forwarded",
            text.replacen("type=\"s\" srcbuf=\"s\"", "type=\"s\" srcbuf=\"i\"", 1),
        ),
        // A dependency dropped: a step reads what another threadblock writes
        // with nothing ordering the two.
        ("no dependency", without_first_dependency(&text)),
    ];
    for (what, tampered) in tamperings {
        assert_ne!(tampered, text, "{what}: nothing to tamper with");
        std::fs::write(&xml, &tampered).unwrap();
        let (code, report) = check(&xml, "ring 4");
        assert_eq!(code, 1, "{what}: {report}");
        assert_eq!(report["valid"], false, "{what}");
    }
}

#[test]
fn the_exporter_refuses_a_program_that_its_check_refuses() {
    let sched = search("ring 4", "allreduce", 1);
    let schedule = {
        let mut s = parse(&std::fs::read_to_string(&sched).unwrap()).unwrap();
        s.network = s.network.map(|n| n.relative_to(sched.parent().unwrap()));
        s
    };
    let (program, carried) = collective(&schedule, "ring4").unwrap();
    check_collective(&program, &schedule, &carried).unwrap();
    // One combining receive turned into a plain one: the checker refuses.
    let mut broken = program.clone();
    let step = broken
        .gpus
        .iter_mut()
        .flat_map(|g| &mut g.threadblocks)
        .flat_map(|t| &mut t.steps)
        .find(|s| s.kind == StepKind::RecvReduceCopy)
        .unwrap();
    step.kind = StepKind::Recv;
    assert!(matches!(
        check_collective(&broken, &schedule, &carried),
        Err(MscclError::Execution(_))
    ));
    // The right program, compared with other messages than the schedule's.
    let mut other = carried.clone();
    let first = other.values_mut().next().unwrap();
    first[0].pop();
    assert!(matches!(
        check_collective(&program, &schedule, &other),
        Err(MscclError::Mismatch { .. })
    ));
}

#[test]
fn refusals_invalid_unsupported_and_no_network() {
    // A send removed: the schedule is invalid (exit 1), nothing written.
    let sched = search("ring 4", "allgather", 1);
    let text = std::fs::read_to_string(&sched).unwrap();
    let last = text.trim_end().rsplit_once('\n').unwrap().0.to_string() + "\n";
    let short = file("short.sched", &last);
    let xml = short.with_extension("xml");
    let run = txverify(&[
        "export",
        short.to_str().unwrap(),
        "--format",
        "msccl",
        "-o",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(run.stderr.contains("invalid"), "{}", run.stderr);
    assert!(!xml.exists());
    // Scatter has no MSCCL collective: exit 2.
    let scatter = file(
        "scatter.sched",
        "network: ring 3\nports: all\ncollective: scatter 0\nsends:\n1 0 1 0 1\n1 0 2 0 2\n",
    );
    let run = txverify(&["export", scatter.to_str().unwrap(), "--format", "msccl"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not scatter 0"), "{}", run.stderr);
    // No network: exit 2.
    let bare = file("bare.sched", "collective: allgather\nsends:\n");
    let run = txverify(&["export", bare.to_str().unwrap(), "--format", "msccl"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("network"), "{}", run.stderr);
}

#[test]
fn a_schedule_exports_as_json_text_and_csv_too() {
    let sched = search("ring 4", "broadcast 0", 1);
    let run = txverify(&["export", sched.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let n = parse(&std::fs::read_to_string(&sched).unwrap())
        .unwrap()
        .sends
        .len();
    assert_eq!(run.stdout.lines().count(), n + 1, "{}", run.stdout);
    assert!(run.stdout.lines().nth(1).unwrap().ends_with(",0,*"));
}
