//! `txverify check PROGRAM.xml`: MSCCL programs written here by hand (one per
//! step type and per fault), the exporter's programs read back, the JSON
//! fields against docs/json.md, and random mutations judged against a small
//! interpreter of this file's own.

use crate::common::cli::{documented_fields, export_msccl, file, txverify};
use proptest::prelude::*;
use std::collections::BTreeSet;
use txverify_clients::msccl::check;

/// A program of `n` GPUs: `gpus[g]` is the list of thread blocks
/// `(send, recv, chan, steps)`, each step `(type, srcbuf, srcoff, dstbuf,
/// dstoff, cnt, depid, deps, hasdep)`.
pub type StepSpec = (&'static str, char, i64, char, i64, i64, i64, i64, i64);
pub type TbSpec = (i64, i64, i64, Vec<StepSpec>);

pub fn xml(
    coll: &str,
    n: usize,
    chunks: i64,
    inplace: bool,
    scratch: i64,
    gpus: &[Vec<TbSpec>],
) -> String {
    let (i, o) = match coll {
        "allgather" => (chunks / n as i64, chunks),
        "reducescatter" => (chunks, chunks / n as i64),
        _ => (chunks, chunks),
    };
    let mut out = format!(
        "<algo name=\"t\" proto=\"Simple\" nchannels=\"2\" nchunksperloop=\"{chunks}\" ngpus=\"{n}\" coll=\"{coll}\" inplace=\"{}\" outofplace=\"{}\" minBytes=\"0\" maxBytes=\"0\">\n",
        u8::from(inplace),
        u8::from(!inplace)
    );
    for (g, tbs) in gpus.iter().enumerate() {
        out += &format!(
            "  <gpu id=\"{g}\" i_chunks=\"{i}\" o_chunks=\"{o}\" s_chunks=\"{scratch}\">\n"
        );
        for (id, (send, recv, chan, steps)) in tbs.iter().enumerate() {
            out +=
                &format!("    <tb id=\"{id}\" send=\"{send}\" recv=\"{recv}\" chan=\"{chan}\">\n");
            for (s, (t, sb, so, db, doff, cnt, depid, deps, hasdep)) in steps.iter().enumerate() {
                out += &format!(
                    "      <step s=\"{s}\" type=\"{t}\" srcbuf=\"{sb}\" srcoff=\"{so}\" dstbuf=\"{db}\" dstoff=\"{doff}\" cnt=\"{cnt}\" depid=\"{depid}\" deps=\"{deps}\" hasdep=\"{hasdep}\"/>\n"
                );
            }
            out += "    </tb>\n";
        }
        out += "  </gpu>\n";
    }
    out + "</algo>\n"
}

pub fn st(t: &'static str, sb: char, so: i64, db: char, doff: i64) -> StepSpec {
    (t, sb, so, db, doff, 1, -1, -1, 0)
}

/// A 2-GPU allreduce of 2 chunks, out of place: each GPU copies its input to
/// the output, sends chunk `g`, and reduces what it receives into chunk 1-g,
/// then sends it back; the other GPU receives it.
fn allreduce2() -> Vec<Vec<TbSpec>> {
    (0..2)
        .map(|g: i64| {
            let peer = 1 - g;
            vec![
                (-1, -1, 0, vec![("cpy", 'i', 0, 'o', 0, 2, -1, -1, 1)]),
                (
                    peer,
                    peer,
                    0,
                    vec![
                        ("s", 'i', g, 'o', g, 1, 0, 0, 0),
                        ("rrc", 'o', peer, 'o', peer, 1, -1, -1, 0),
                        st("s", 'o', peer, 'o', peer),
                        st("r", 'o', g, 'o', g),
                    ],
                ),
            ]
        })
        .collect()
}

fn verdict(text: &str) -> (bool, String) {
    let c = check(text).expect("readable");
    (c.valid(), c.reason().unwrap_or_default())
}

#[test]
fn a_hand_written_allreduce_is_valid_and_the_cli_says_so() {
    let text = xml("allreduce", 2, 2, false, 0, &allreduce2());
    assert_eq!(verdict(&text), (true, String::new()));
    let path = file("ar2.xml", &text);
    let run = txverify(&["check", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("VALID MSCCL allreduce on 2 GPUs"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("critical path"), "{}", run.stdout);
}

#[test]
fn every_fault_kind_is_found_with_its_place() {
    // Receiving into the wrong chunk: the output is wrong.
    let mut g = allreduce2();
    g[0][1].3[3].4 = 1;
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(!ok);
    assert!(
        why.contains("output chunk 0 of GPU 0 is wrong") || why.contains("race"),
        "{why}"
    );
    // Without the dependency on the copy, the reduction races with it.
    let mut g = allreduce2();
    g[1][1].3[0].6 = -1;
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(
        !ok && why.contains("no dependency or message orders"),
        "{why}"
    );
    // A dependency on a step that never says hasdep: the wait never ends.
    let mut g = allreduce2();
    g[1][0].3[0].8 = 0;
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(!ok && why.contains("hasdep"), "{why}");
    // A send with no receive: GPU 1 does not receive the reduced chunk.
    let mut g = allreduce2();
    g[1][1].3.pop();
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(!ok && why.contains("a send without a receive"), "{why}");
    // Both GPUs receive first: a deadlock, with its cycle.
    let mut g = allreduce2();
    for gpu in &mut g {
        gpu[1].3.swap(0, 3);
    }
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(
        !ok && why.contains("deadlock") && why.contains("closes the cycle"),
        "{why}"
    );
    // Out of range, and reading scratch nothing wrote.
    let mut g = allreduce2();
    g[0][1].3[0].2 = 5;
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(!ok && why.contains("outside"), "{why}");
    let mut g = allreduce2();
    g[0][1].3[0].1 = 's';
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 2, &g));
    assert!(!ok && why.contains("nothing has written"), "{why}");
    // A count the receive does not match.
    let mut g = allreduce2();
    g[0][1].3[2].5 = 2;
    g[0][1].3[2].2 = 0;
    let (ok, why) = verdict(&xml("allreduce", 2, 2, false, 0, &g));
    assert!(!ok, "{why}");
}

#[test]
fn what_the_reader_refuses_is_invalid() {
    let good = xml("allreduce", 2, 2, false, 0, &allreduce2());
    for (from, to, says) in [
        (
            "coll=\"allreduce\"",
            "coll=\"reduce_scatter\"",
            "not a collective the executor accepts",
        ),
        (" outofplace=\"1\"", "", "no `outofplace` attribute"),
        ("type=\"rrc\"", "type=\"rrx\"", "not one the executor knows"),
        ("<tb id=\"1\"", "<tb id=\"2\"", "thread block 1 is missing"),
        ("cnt=\"1\"", "cnt=\"72\"", "cnt = 72"),
    ] {
        let text = good.replacen(from, to, 1);
        let (ok, why) = verdict(&text);
        assert!(!ok && why.contains(says), "{to}: {why}");
    }
    let path = file(
        "bad.xml",
        &good.replacen("coll=\"allreduce\"", "coll=\"custom\"", 1),
    );
    let run = txverify(&["check", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}", run.stdout);
}

#[test]
fn the_json_says_what_the_data_would_be_when_only_the_reader_objects() {
    let json = |text: &str| -> serde_json::Value {
        let path = file("semantics.xml", text);
        let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
        serde_json::from_str(run.stdout.trim()).unwrap()
    };
    // A right program without `outofplace`: refused by the reader, data right.
    let right =
        xml("allreduce", 2, 2, false, 0, &allreduce2()).replacen(" outofplace=\"1\"", "", 1);
    let v = json(&right);
    assert_eq!(v["valid"], false, "{v}");
    assert!(!v["problems"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(v["semantics"]["valid"], true, "{v}");
    assert!(v["semantics"]["finding"].is_null(), "{v}");
    // The same objection on a program that receives into the wrong chunk.
    let mut g = allreduce2();
    g[0][1].3[3].4 = 1;
    let wrong = xml("allreduce", 2, 2, false, 0, &g).replacen(" outofplace=\"1\"", "", 1);
    let v = json(&wrong);
    assert_eq!(v["semantics"]["valid"], false, "{v}");
    let finding = v["semantics"]["finding"].as_str().unwrap();
    assert!(finding.starts_with("GPU "), "{finding}");
    // A valid program: the data is right too.
    let v = json(&xml("allreduce", 2, 2, false, 0, &allreduce2()));
    assert_eq!(
        (v["valid"].clone(), v["semantics"]["valid"].clone()),
        (true.into(), true.into())
    );
}

#[test]
fn an_unreadable_file_has_its_line_and_column() {
    let path = file(
        "broken.xml",
        "<algo name=\"x\">\n  <gpu id=\"0\">\n</algo>\n",
    );
    let run = txverify(&["check", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("broken.xml:3:"), "{}", run.stderr);
    let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(run.code, 2);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["schema"], "txverify-msccl/2");
    assert_eq!(v["line"], 3);
    let path = file(
        "num.xml",
        &xml("allreduce", 2, 2, false, 0, &allreduce2()).replacen("cnt=\"1\"", "cnt=\"one\"", 1),
    );
    assert_eq!(txverify(&["check", path.to_str().unwrap()]).code, 2);
}

/// The field paths of a JSON value, as docs/json.md writes them.
fn paths(prefix: &str, v: &serde_json::Value, out: &mut BTreeSet<String>) {
    if let serde_json::Value::Object(map) = v {
        for (k, child) in map {
            let p = if prefix.is_empty() {
                k.clone()
            } else {
                format!("{prefix}.{k}")
            };
            out.insert(p.clone());
            match child {
                serde_json::Value::Object(_) => paths(&p, child, out),
                serde_json::Value::Array(items) => {
                    if let Some(first @ serde_json::Value::Object(_)) = items.first() {
                        paths(&format!("{p}[]"), first, out);
                    }
                }
                _ => {}
            }
        }
    }
}

#[test]
fn the_json_report_has_the_documented_fields() {
    let mut documented = BTreeSet::new();
    for f in documented_fields("### An MSCCL program that was read") {
        match f.split_once(".{") {
            Some((head, rest)) => {
                for part in rest.trim_end_matches('}').split(',') {
                    documented.insert(format!("{head}.{part}"));
                }
            }
            None => {
                documented.insert(f);
            }
        }
    }
    let mut g = allreduce2();
    g[0][1].3[3].4 = 1;
    let mut seen = BTreeSet::new();
    // A fabric whose one link carries two chunks a step: the capacity fields.
    let fabric = file("doubled.edges", "0 1 2\n");
    let fabric = format!("edges {}", fabric.to_str().unwrap());
    let refused =
        xml("allreduce", 2, 2, false, 0, &allreduce2()).replacen("type=\"rrc\"", "type=\"rrx\"", 1);
    for (text, network) in [
        (xml("allreduce", 2, 2, false, 0, &allreduce2()), None),
        (
            xml("allreduce", 2, 2, false, 0, &allreduce2()),
            Some("nvlink 2"),
        ),
        (
            xml("allreduce", 2, 2, false, 0, &allreduce2()),
            Some(fabric.as_str()),
        ),
        (xml("allreduce", 2, 2, false, 0, &g), None),
        (refused, None),
    ] {
        let path = file("j.xml", &text);
        let mut args = vec!["check", "--format", "json", path.to_str().unwrap()];
        args.extend(network.iter().flat_map(|n| ["--network", n]));
        // With a network, timed too: the `timed` object's fields.
        args.extend(network.iter().flat_map(|_| ["--alpha", "1", "--beta", "1"]));
        let run = txverify(&args);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert!(v["valid"].is_boolean() && v["collective"] == "allreduce" && v["ngpus"] == 2);
        paths("", &v, &mut seen);
    }
    assert_eq!(seen, documented);
}

#[test]
fn every_msccl_export_reads_back_valid() {
    for table in [
        "tables/mesh5.tbl",
        "tables/ring10-dihedral.tbl",
        "tables/hypercube4-a.tbl",
    ] {
        let text = export_msccl(table);
        let c = check(&text).unwrap();
        assert!(c.valid(), "{table}: {:?}", c.reason());
        assert_eq!(c.collective().map(|c| c.name()), Some("alltoall"));
        // Link by link, the program moves as many chunks as the replayed
        // schedule sends on that link.
        let schedule = txverify(&["export", table, "--format", "csv"]);
        let mut per_link: std::collections::BTreeMap<(u32, u32), u64> = Default::default();
        for line in schedule.stdout.lines().skip(1) {
            let f: Vec<u32> = line.split(',').map(|x| x.parse().unwrap()).collect();
            *per_link.entry((f[1], f[2])).or_default() += 1;
        }
        let mut moved: std::collections::BTreeMap<(u32, u32), u64> = Default::default();
        for (&(_, from, to), &chunks) in &c.figures().unwrap().connections {
            *moved.entry((from, to)).or_default() += chunks;
        }
        assert_eq!(moved, per_link, "{table}");
    }
}

/// A ring allreduce on `n` GPUs, one thread block per channel, in place.
pub fn ring_allreduce(n: i64, channels: i64) -> String {
    let gpus: Vec<Vec<TbSpec>> = (0..n)
        .map(|g| {
            (0..channels)
                .map(|r| {
                    let c = |k: i64| r * n + (g - k).rem_euclid(n);
                    let mut steps = vec![st("s", 'i', c(0), 'i', c(0))];
                    for j in 1..n - 1 {
                        steps.push(st("rrs", 'i', c(j), 'i', c(j)));
                    }
                    steps.push(st("rrcs", 'i', c(n - 1), 'i', c(n - 1)));
                    for j in 1..n - 1 {
                        steps.push(st("rcs", 'i', c(j - 1), 'i', c(j - 1)));
                    }
                    steps.push(st("r", 'i', c(n - 2), 'i', c(n - 2)));
                    ((g + 1) % n, (g + n - 1) % n, r, steps)
                })
                .collect()
        })
        .collect();
    xml("allreduce", n as usize, n * channels, true, 0, &gpus)
}

#[test]
fn a_ring_allreduce_is_valid_in_place() {
    let c = check(&ring_allreduce(8, 2)).unwrap();
    assert!(c.valid(), "{:?}", c.reason());
    assert_eq!(c.modes(), ["in-place"]);
}

/// This file's own interpreter for programs of `s`, `r`, `rrc`, `cpy` steps
/// without dependencies (the mutations below keep to them): runs the thread
/// blocks round-robin, a receive taking the first message on its connection,
/// and says whether the allreduce's output is right. `None`: it gets stuck or
/// reads nothing.
fn interpret(gpus: &[Vec<TbSpec>], n: usize, chunks: usize) -> Option<bool> {
    use std::collections::{HashMap, VecDeque};
    type Set = BTreeSet<(usize, usize)>;
    let mut mem: Vec<HashMap<(char, i64), Set>> = (0..n)
        .map(|g| {
            (0..chunks)
                .map(|c| (('i', c as i64), BTreeSet::from([(g, c)])))
                .collect()
        })
        .collect();
    let mut queues: HashMap<(i64, usize, i64), VecDeque<Set>> = HashMap::new();
    let mut pc: Vec<Vec<usize>> = gpus.iter().map(|tbs| vec![0; tbs.len()]).collect();
    loop {
        let mut moved = false;
        for (g, tbs) in gpus.iter().enumerate() {
            for (t, (send, recv, chan, steps)) in tbs.iter().enumerate() {
                let Some(&(ty, sb, so, db, doff, _, _, _, _)) = steps.get(pc[g][t]) else {
                    continue;
                };
                let value = match ty {
                    "s" | "cpy" => mem[g].get(&(sb, so))?.clone(),
                    _ => {
                        let q = queues.entry((*chan, *recv as usize, g as i64)).or_default();
                        let Some(got) = q.pop_front() else { continue };
                        if ty == "rrc" {
                            let mine = mem[g].get(&(sb, so))?;
                            if !got.is_disjoint(mine) {
                                return Some(false);
                            }
                            got.union(mine).copied().collect()
                        } else {
                            got
                        }
                    }
                };
                if ty == "s" {
                    queues
                        .entry((*chan, g, *send))
                        .or_default()
                        .push_back(value);
                } else {
                    mem[g].insert((db, doff), value);
                }
                pc[g][t] += 1;
                moved = true;
            }
        }
        if !moved {
            break;
        }
    }
    let done = pc
        .iter()
        .zip(gpus)
        .all(|(p, tbs)| p.iter().zip(tbs).all(|(&k, tb)| k == tb.3.len()));
    if !done || queues.values().any(|q| !q.is_empty()) {
        return None;
    }
    Some((0..n).all(|g| {
        (0..chunks)
            .all(|c| mem[g].get(&('o', c as i64)) == Some(&(0..n).map(|h| (h, c)).collect::<Set>()))
    }))
}

/// The allreduce of `allreduce2` without dependencies: the copy is done by
/// the communicating thread block itself, first.
fn allreduce2_plain() -> Vec<Vec<TbSpec>> {
    (0..2)
        .map(|g: i64| {
            let peer = 1 - g;
            vec![(
                peer,
                peer,
                0,
                vec![
                    st("cpy", 'i', 0, 'o', 0),
                    st("cpy", 'i', 1, 'o', 1),
                    st("s", 'i', g, 'o', g),
                    st("rrc", 'o', peer, 'o', peer),
                    st("s", 'o', peer, 'o', peer),
                    st("r", 'o', g, 'o', g),
                ],
            )]
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// A mutated program is never called valid unless this file's own
    /// interpreter also finds its output right.
    #[test]
    fn mutants_called_valid_are_right(
        edits in proptest::collection::vec((0usize..2, 0usize..6, 0usize..6, 0i64..3), 1..4)
    ) {
        let mut gpus = allreduce2_plain();
        assert_eq!(interpret(&gpus, 2, 2), Some(true));
        for (g, s, what, v) in edits {
            let steps = &mut gpus[g][0].3;
            if s >= steps.len() { continue; }
            match what {
                0 => steps[s].2 = v,
                1 => steps[s].4 = v,
                2 => steps[s].0 = ["s", "r", "rrc"][v as usize],
                3 => steps[s].1 = ['i', 'o', 'i'][v as usize],
                4 => { steps.remove(s); }
                _ => { let j = (s + v as usize) % steps.len(); steps.swap(s, j); }
            }
        }
        let text = xml("allreduce", 2, 2, false, 0, &gpus);
        let c = check(&text).unwrap();
        if c.valid() {
            prop_assert_eq!(interpret(&gpus, 2, 2), Some(true), "{}", text);
        }
    }
}

#[test]
fn broadcast_finds_its_root_and_allgather_aliases_in_place() {
    // GPU 0 keeps its chunk and sends it; GPU 1 receives it: right for root 0.
    let gpus: Vec<Vec<TbSpec>> = vec![
        vec![(
            1,
            -1,
            0,
            vec![st("cpy", 'i', 0, 'o', 0), st("s", 'i', 0, 'o', 0)],
        )],
        vec![(-1, 0, 0, vec![st("r", 'i', 0, 'o', 0)])],
    ];
    let c = check(&xml("broadcast", 2, 1, false, 0, &gpus)).unwrap();
    assert!(c.valid(), "{:?}", c.reason());
    assert_eq!(c.figures().unwrap().roots, [0]);
    // In place, GPU g's input chunk is its output chunk g: sending it and
    // receiving the other's is an allgather.
    let gpus: Vec<Vec<TbSpec>> = (0..2)
        .map(|g: i64| {
            vec![(
                1 - g,
                1 - g,
                0,
                vec![st("s", 'i', 0, 'o', g), st("r", 'i', 0, 'o', 1 - g)],
            )]
        })
        .collect();
    let c = check(&xml("allgather", 2, 2, true, 0, &gpus)).unwrap();
    assert!(c.valid(), "{:?}", c.reason());
    // Out of place the output chunk g is never written.
    let c = check(&xml("allgather", 2, 2, false, 0, &gpus)).unwrap();
    assert!(!c.valid());
    assert!(
        c.reason().unwrap().contains("never written"),
        "{:?}",
        c.reason()
    );
}

#[test]
fn the_shipped_samples_are_valid_or_wrong_as_their_names_say() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/msccl");
    let mut faults = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let run = txverify(&["check", "--format", "json", path.to_str().unwrap()]);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        match name.strip_prefix("bad_") {
            None => assert_eq!((run.code, v["valid"].clone()), (0, true.into()), "{name}"),
            Some("reader") => {
                assert_eq!(run.code, 1, "{name}");
                assert!(!v["problems"].as_array().unwrap().is_empty(), "{v}");
                assert_eq!(v["semantics"]["valid"], true, "{v}");
            }
            Some(kind) => {
                assert_eq!(run.code, 1, "{name}");
                assert_eq!(v["finding"]["fault"], kind.replace('_', "-"), "{v}");
                faults.insert(kind.replace('_', "-"));
            }
        }
    }
    // One sample of every fault kind the checker names (docs/json.md).
    let kinds = [
        "range",
        "unwritten",
        "race",
        "duplicate",
        "deadlock",
        "count",
        "dependency",
        "wrong-data",
    ];
    assert_eq!(faults, kinds.iter().map(|k| k.to_string()).collect());
}
