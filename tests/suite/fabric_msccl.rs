//! MSCCL programs on fabrics: `export --format msccl` of a schedule that
//! uses a doubled link twice in one step puts the two sends on parallel
//! channels and thread blocks, and the program reads back VALID as the
//! collective on the fabric; `check PROGRAM.xml --network FABRIC` counts each
//! step's chunks per link against its capacity and the switch limits, and
//! names the step of every violation.

use crate::common::cli::{file, txverify};
use std::path::{Path, PathBuf};

/// `export SCHED --format msccl` next to `sched`; the program's path.
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

/// The JSON report of `check XML --network NET`, and its exit status.
fn check_on(xml: &Path, network: &str) -> (serde_json::Value, i32) {
    let run = txverify(&[
        "check",
        xml.to_str().unwrap(),
        "--format",
        "json",
        "--network",
        network,
    ]);
    let report = serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", run.stdout, run.stderr));
    (report, run.code)
}

#[test]
fn an_allgather_on_the_dgx1_exports_valid_on_its_doubled_links() {
    let sched = file(
        "dgx1.sched",
        &std::fs::read_to_string("examples/schedules/dgx1-allgather-3steps.sched").unwrap(),
    );
    let xml = export(&sched);
    let (report, code) = check_on(&xml, "dgx1");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["valid"], true);
    assert_eq!(report["collective"], "allgather");
    // Two sends of one step on a doubled link are two connections.
    let connections = report["figures"]["connections"].as_array().unwrap();
    let on_4_0 = connections
        .iter()
        .filter(|c| c["from"] == 4 && c["to"] == 0)
        .count();
    assert_eq!(on_4_0, 2, "{connections:?}");
}
