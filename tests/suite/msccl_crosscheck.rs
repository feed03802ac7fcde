//! Programs `export --format msccl` writes from txverify's own schedules,
//! run by the MSCCL checker (not the exporter's runner) and compared with the
//! schedule link by link: the same messages in the same order. A program whose
//! sends on one link are swapped (and its receives with them, so that it stays
//! valid) must be caught.

use crate::common::cli::export_msccl as export;
use txverify_clients::check::{physical_network, simulation_words};
use txverify_clients::export::table_schedule;
use txverify_clients::msccl::crosscheck::{Disagreement, against_schedule, carried};
use txverify_core::load::load;
use txverify_core::schedule::Schedule;

/// The library's schedule of a table.
fn schedule_of(table: &str) -> Schedule {
    let source = std::fs::read_to_string(table).unwrap();
    let loaded = load(&source, &Default::default()).unwrap();
    let instance = &loaded.instance;
    let (_, embedding) = physical_network(instance, loaded.network.as_ref());
    let prepared = simulation_words(instance, &loaded.table).unwrap();
    table_schedule(
        &prepared.input(instance, &embedding.unwrap()),
        instance.ports(),
    )
    .unwrap()
}

const TABLES: [&str; 7] = [
    "tables/ring6-dihedral-total.tbl",
    "tables/ring9-cyclic.tbl",
    "tables/hypercube4-a.tbl",
    "tables/mesh5.tbl",
    "tables/found/torus2x3x4.tbl",
    "tables/found/torus3x4.tbl",
    "tables/ring12-dihedral.tbl",
];

#[test]
fn exported_programs_carry_their_schedules_messages_in_order() {
    for table in TABLES {
        let xml = export(table);
        let check = txverify_clients::msccl::check(&xml).unwrap();
        assert!(check.valid(), "{table}: {:?}", check.reason());
        let schedule = schedule_of(table);
        assert_eq!(against_schedule(&xml, &schedule), Ok(()), "{table}");
        // Not vacuous: every send of the schedule is a message of the run.
        let messages: usize = carried(&xml).unwrap().values().map(Vec::len).sum();
        assert_eq!(messages, schedule.sends.len(), "{table}");
    }
}

/// A step line split before ` type=`: its place, and what it does.
fn split(line: &str) -> Option<(&str, &str)> {
    let at = line.find(" type=")?;
    line.contains("<step ").then(|| line.split_at(at))
}

/// The attribute `name` of a line.
fn attr<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let start = line.find(&format!(" {name}=\""))? + name.len() + 3;
    line[start..].split('"').next()
}

/// Every mutation of `xml` that swaps two consecutive receives into the
/// output of one receive thread block (nothing depends on them) together with
/// the two sends they meet at the peer: the same messages, in another order
/// on one link.
fn swapped_links(xml: &str) -> Vec<String> {
    let lines: Vec<&str> = xml.lines().collect();
    // Per thread block: its GPU, `s` or `r` and its peer, its channel, and
    // the indices of its step lines.
    let mut gpu = "";
    let mut blocks: Vec<(String, String, String, Vec<usize>)> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.contains("<gpu ") {
            gpu = attr(line, "id").unwrap();
        } else if line.contains("<tb ") {
            let key = |a: &str| attr(line, a).unwrap().to_string();
            let peer = if key("send") != "-1" {
                format!("s{}", key("send"))
            } else {
                format!("r{}", key("recv"))
            };
            blocks.push((gpu.to_string(), peer, key("chan"), Vec::new()));
        } else if split(line).is_some() {
            blocks.last_mut().unwrap().3.push(i);
        }
    }
    let mut out = Vec::new();
    for (g, peer, chan, steps) in &blocks {
        let Some(from) = peer.strip_prefix('r') else {
            continue;
        };
        let final_receive = |i: usize| {
            attr(lines[i], "dstbuf") == Some("o") && attr(lines[i], "hasdep") == Some("0")
        };
        let Some(j) = (0..steps.len().saturating_sub(1))
            .find(|&j| final_receive(steps[j]) && final_receive(steps[j + 1]))
        else {
            continue;
        };
        let sends = blocks
            .iter()
            .find(|(h, p, c, _)| h == from && *p == format!("s{g}") && c == chan)
            .map(|b| &b.3)
            .unwrap();
        let mut mutated: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        for pair in [(steps[j], steps[j + 1]), (sends[j], sends[j + 1])] {
            let (a, b) = (split(lines[pair.0]).unwrap(), split(lines[pair.1]).unwrap());
            mutated[pair.0] = format!("{}{}", a.0, b.1);
            mutated[pair.1] = format!("{}{}", b.0, a.1);
        }
        out.push(mutated.join("\n") + "\n");
    }
    out
}

#[test]
fn a_program_with_reordered_sends_is_valid_but_disagrees_with_its_schedule() {
    let mut caught = 0;
    for table in ["tables/ring6-dihedral-total.tbl", "tables/hypercube4-a.tbl"] {
        let schedule = schedule_of(table);
        for xml in swapped_links(&export(table)) {
            let check = txverify_clients::msccl::check(&xml).unwrap();
            if !check.valid() {
                continue;
            }
            let verdict = against_schedule(&xml, &schedule);
            assert!(
                matches!(verdict, Err(Disagreement::Link { .. })),
                "{table}: {verdict:?}"
            );
            caught += 1;
        }
    }
    assert!(caught >= 2, "only {caught} reordered programs were tried");
}

#[test]
fn a_program_that_is_not_a_one_chunk_all_to_all_is_not_compared() {
    let xml = crate::msccl_check::ring_allreduce(4, 1);
    let schedule = schedule_of("tables/ring6-dihedral-total.tbl");
    assert!(matches!(
        against_schedule(&xml, &schedule),
        Err(Disagreement::NotComparable(_))
    ));
}
