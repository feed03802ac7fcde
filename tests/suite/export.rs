//! Exported tables replay as schedules: every published table whose network has a
//! name is exported, read back from its JSON, and replayed by the schedule
//! simulator, which must find it valid with the table's time.

use crate::common;
use crate::common::judged::Judged;

use common::cli::{Run, file, txverify};
use txverify_clients::check::{physical_network, simulation_words};
use txverify_clients::export::table_schedule;
use txverify_core::kernel::{self, MessageSpec, Verdict};
use txverify_core::load::load;
use txverify_core::schedule::format::to_json;
use txverify_core::schedule::{ReplayOptions, parse, replay};

#[test]
fn every_published_table_with_a_named_network_replays_with_its_time() {
    let mut exported = 0;
    for dir in ["tables", "tables/found"] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "tbl") {
                continue;
            }
            let loaded = load(
                &std::fs::read_to_string(&path).unwrap(),
                &Default::default(),
            )
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            let instance = &loaded.instance;
            let checked = kernel::check(instance, &loaded.table, &[]);
            if *instance.message_spec() != MessageSpec::Total
                || checked.verdict() == Verdict::Invalid
            {
                continue;
            }
            let (_, embedding) = physical_network(instance, loaded.network.as_ref());
            let embedding = embedding.unwrap();
            if embedding.spec().is_none() {
                continue;
            }
            let prepared = simulation_words(instance, &loaded.table).unwrap();
            let schedule =
                table_schedule(&prepared.input(instance, &embedding), instance.ports()).unwrap();
            // Through the file format, as a runtime would read it.
            let read_back = parse(&to_json(&schedule)).unwrap();
            let graph = read_back.network.as_ref().unwrap().build().unwrap();
            let report = replay(&read_back, &graph, &ReplayOptions::default()).unwrap();
            let what = path.display();
            assert!(report.valid(), "{what}: {:?}", report.violations());
            assert_eq!(report.time() as usize, checked.time(), "{what}");
            let letters: usize = loaded.table.words.iter().map(|w| w.letters.len()).sum();
            assert_eq!(
                report.transmissions(),
                (letters * instance.group().order()) as u64,
                "{what}"
            );
            exported += 1;
        }
    }
    assert!(exported >= 10, "only {exported} tables exported");
}

#[test]
fn export_writes_json_text_and_csv_and_refuses_what_it_cannot_write() {
    let Run { code, stdout, .. } = txverify(&["export", "--format", "csv", "tables/mesh5.tbl"]);
    assert_eq!(code, 0);
    let mut lines = stdout.lines();
    assert_eq!(lines.next(), Some("step,from,to,source,destination"));
    // The 5 × 5 torus table: 25 nodes, Σ distances 60 letters per node.
    assert_eq!(lines.count(), 25 * 60);
    let Run { code, stdout, .. } = txverify(&["export", "--format", "text", "tables/mesh5.tbl"]);
    assert_eq!(code, 0);
    let text = parse(&stdout).unwrap();
    let Run { stdout, .. } = txverify(&["export", "tables/mesh5.tbl"]);
    assert_eq!(parse(&stdout).unwrap(), text, "JSON and text say the same");

    // A table over a Cayley graph that is no ring, hypercube or torus (A4 on a
    // 3-cycle and a double transposition: the truncated tetrahedron).
    let Run { code, stderr, .. } = txverify(&["export", "tables/found/a4.tbl"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("Cayley graph only"), "{stderr}");
    // An invalid table (a message missing) is not exported.
    let invalid = file(
        "ring5.tbl",
        "group: <a | a^5>\nnetwork: ring 5\ntable:\na a' aa\n",
    );
    let Run { code, .. } = txverify(&["export", invalid.to_str().unwrap()]);
    assert_eq!(code, 1);
}
