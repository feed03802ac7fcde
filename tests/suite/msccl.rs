//! `txverify export --format msccl`: the XML is parsed with roxmltree (a strict
//! XML reader: a file that is not well formed fails here), read as an MSCCL
//! program by code of this test only, and run: every send is paired with the
//! receive its peer makes on the same channel in the same position, both name
//! the same chunks, a forward depends on the receive that brought its message,
//! the steps have an order in which nothing waits forever, and at the end every
//! GPU's output chunk `s` holds the message from `s`. The messages each link
//! carries, in order, must be the library's schedule's sends on that link in
//! step order; a link carries at most one message a step, so this is the list of
//! `(step, from, to, source, destination)` itself.

use crate::common;

use common::cli::{Run, file, txverify};
use std::collections::{BTreeMap, HashMap, VecDeque};
use txverify_clients::check::{physical_network, simulation_words};
use txverify_clients::export::table_schedule;
use txverify_core::load::load;

#[derive(Clone, Debug)]
struct XStep {
    kind: String,
    src: (String, i64),
    dst: (String, i64),
    dep: Option<(usize, usize)>,
    hasdep: bool,
}

#[derive(Clone, Debug)]
struct XTb {
    send: i64,
    recv: i64,
    chan: i64,
    steps: Vec<XStep>,
}

#[derive(Clone, Debug)]
struct XGpu {
    tbs: Vec<XTb>,
}

/// The messages carried by each link, in order: (from, to) -> [(source, destination)].
type Carried = BTreeMap<(u32, u32), Vec<(u32, u32)>>;

fn attr<'a>(node: roxmltree::Node<'a, 'a>, name: &str) -> Result<&'a str, String> {
    node.attribute(name)
        .ok_or_else(|| format!("<{}> lacks `{name}`", node.tag_name().name()))
}

fn int(node: roxmltree::Node, name: &str) -> Result<i64, String> {
    attr(node, name)?
        .parse()
        .map_err(|_| format!("`{name}` is not a number"))
}

/// Reads the program; checks the attributes the runtime requires and the shape.
fn read(xml: &str, nodes: usize) -> Result<Vec<XGpu>, String> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| format!("not well formed: {e}"))?;
    let algo = doc.root_element();
    if algo.tag_name().name() != "algo" {
        return Err("the root is not <algo>".into());
    }
    for (name, value) in [
        ("coll", "alltoall"),
        ("proto", "Simple"),
        ("inplace", "0"),
        ("outofplace", "1"),
        ("minBytes", "0"),
        ("maxBytes", "0"),
    ] {
        if attr(algo, name)? != value {
            return Err(format!("{name} is not {value}"));
        }
    }
    attr(algo, "name")?;
    if int(algo, "ngpus")? != nodes as i64 || int(algo, "nchunksperloop")? != nodes as i64 {
        return Err("ngpus or nchunksperloop is not the node count".into());
    }
    let nchannels = int(algo, "nchannels")?;
    let mut gpus = Vec::new();
    for (rank, g) in algo.children().filter(|n| n.is_element()).enumerate() {
        if g.tag_name().name() != "gpu" || int(g, "id")? != rank as i64 {
            return Err(format!(
                "element {rank} of <algo> is not <gpu id=\"{rank}\">"
            ));
        }
        let chunks = [
            int(g, "i_chunks")?,
            int(g, "o_chunks")?,
            int(g, "s_chunks")?,
        ];
        if chunks[0] != nodes as i64 || chunks[1] != nodes as i64 {
            return Err(format!("GPU {rank}: i_chunks and o_chunks must be {nodes}"));
        }
        let mut tbs = Vec::new();
        for (id, t) in g.children().filter(|n| n.is_element()).enumerate() {
            if t.tag_name().name() != "tb" || int(t, "id")? != id as i64 {
                return Err(format!("GPU {rank}: element {id} is not <tb id=\"{id}\">"));
            }
            let (send, recv, chan) = (int(t, "send")?, int(t, "recv")?, int(t, "chan")?);
            if !(0..nchannels).contains(&chan) || send == rank as i64 || recv == rank as i64 {
                return Err(format!("GPU {rank} tb {id}: bad peer or channel"));
            }
            let mut steps = Vec::new();
            for (s, st) in t.children().filter(|n| n.is_element()).enumerate() {
                if st.tag_name().name() != "step" || int(st, "s")? != s as i64 {
                    return Err(format!(
                        "GPU {rank} tb {id}: element {s} is not <step s=\"{s}\">"
                    ));
                }
                if int(st, "cnt")? != 1 {
                    return Err("cnt is not 1".into());
                }
                let (depid, deps) = (int(st, "depid")?, int(st, "deps")?);
                let hasdep = match attr(st, "hasdep")? {
                    "0" => false,
                    "1" => true,
                    other => return Err(format!("hasdep {other}")),
                };
                let chunk = |buf: &str, off: &str| -> Result<(String, i64), String> {
                    let b = attr(st, buf)?.to_string();
                    let o = int(st, off)?;
                    let limit = match b.as_str() {
                        "i" => chunks[0],
                        "o" => chunks[1],
                        "s" => chunks[2],
                        other => return Err(format!("buffer {other}")),
                    };
                    if !(0..limit).contains(&o) {
                        return Err(format!("GPU {rank}: chunk {b}[{o}] out of range"));
                    }
                    Ok((b, o))
                };
                steps.push(XStep {
                    kind: attr(st, "type")?.to_string(),
                    src: chunk("srcbuf", "srcoff")?,
                    dst: chunk("dstbuf", "dstoff")?,
                    dep: (depid >= 0).then_some((depid as usize, deps as usize)),
                    hasdep,
                });
            }
            tbs.push(XTb {
                send,
                recv,
                chan,
                steps,
            });
        }
        gpus.push(XGpu { tbs });
    }
    if gpus.len() != nodes {
        return Err(format!("{} GPUs, not {nodes}", gpus.len()));
    }
    Ok(gpus)
}

/// Pairs, orders and runs the program; returns what each link carried.
fn run_program(gpus: &[XGpu]) -> Result<Carried, String> {
    // A step is (gpu, tb, step); a send and its receive are one event.
    type At = (usize, usize, usize);
    let mut event_of: HashMap<At, usize> = HashMap::new();
    let mut events: Vec<Vec<At>> = Vec::new();
    // (from, to, channel) -> (the sends, the receives), in threadblock order.
    type Sides = (Vec<At>, Vec<At>);
    let mut connections: BTreeMap<(usize, usize, i64), Sides> = BTreeMap::new();
    for (g, gpu) in gpus.iter().enumerate() {
        let mut send_peers = HashMap::new();
        let mut recv_peers = HashMap::new();
        for (t, tb) in gpu.tbs.iter().enumerate() {
            if tb.send >= 0 && tb.recv >= 0 {
                return Err(format!("GPU {g} tb {t} both sends and receives"));
            }
            if (tb.send >= 0 && send_peers.insert((tb.send, tb.chan), t).is_some())
                || (tb.recv >= 0 && recv_peers.insert((tb.recv, tb.chan), t).is_some())
            {
                return Err(format!(
                    "GPU {g}: two threadblocks for one peer and direction"
                ));
            }
            for (s, step) in tb.steps.iter().enumerate() {
                let at = (g, t, s);
                match (step.kind.as_str(), tb.send, tb.recv) {
                    ("s", p, _) if p >= 0 => connections
                        .entry((g, p as usize, tb.chan))
                        .or_default()
                        .0
                        .push(at),
                    ("r", _, p) if p >= 0 => connections
                        .entry((p as usize, g, tb.chan))
                        .or_default()
                        .1
                        .push(at),
                    ("cpy", _, _) => {
                        event_of.insert(at, events.len());
                        events.push(vec![at]);
                    }
                    (kind, _, _) => return Err(format!("GPU {g} tb {t}: step `{kind}` here")),
                }
                if let Some((dt, ds)) = step.dep {
                    let target = gpu.tbs.get(dt).and_then(|tb| tb.steps.get(ds));
                    if dt == t || !target.is_some_and(|x| x.hasdep) {
                        return Err(format!(
                            "GPU {g} tb {t} step {s}: a dependency on a step without hasdep"
                        ));
                    }
                }
            }
        }
    }
    let step = |(g, t, s): At| &gpus[g].tbs[t].steps[s];
    // Every chunk a GPU writes (a receive or a copy) is written once, and every
    // step that reads a chunk other than an input waits for its writer.
    let mut writer: HashMap<(usize, (String, i64)), At> = HashMap::new();
    for (g, gpu) in gpus.iter().enumerate() {
        for (t, tb) in gpu.tbs.iter().enumerate() {
            for (s, st) in tb.steps.iter().enumerate() {
                if st.kind != "s" && writer.insert((g, st.dst.clone()), (g, t, s)).is_some() {
                    return Err(format!("GPU {g}: {:?} is written twice", st.dst));
                }
            }
        }
    }
    for (g, gpu) in gpus.iter().enumerate() {
        for (t, tb) in gpu.tbs.iter().enumerate() {
            for (s, st) in tb.steps.iter().enumerate() {
                if st.kind == "r" || st.src.0 == "i" {
                    continue;
                }
                let Some(&(_, wt, ws)) = writer.get(&(g, st.src.clone())) else {
                    return Err(format!(
                        "GPU {g} tb {t} step {s} reads {:?}, which nothing writes",
                        st.src
                    ));
                };
                if st.dep != Some((wt, ws)) && !(wt == t && ws < s) {
                    return Err(format!(
                        "GPU {g} tb {t} step {s} reads {:?} without depending on its writer",
                        st.src
                    ));
                }
            }
        }
    }
    for (&(a, b, c), (sends, recvs)) in &connections {
        if sends.len() != recvs.len() {
            return Err(format!(
                "{a} -> {b} channel {c}: {} sends, {} receives",
                sends.len(),
                recvs.len()
            ));
        }
        for (&x, &y) in sends.iter().zip(recvs) {
            if step(x).src != step(y).src || step(x).dst != step(y).dst {
                return Err(format!(
                    "{a} -> {b}: a send and its receive name different chunks"
                ));
            }
            event_of.insert(x, events.len());
            event_of.insert(y, events.len());
            events.push(vec![x, y]);
        }
    }
    // Happens-before: threadblock order and dependencies; Kahn's algorithm.
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); events.len()];
    let mut waiting = vec![0usize; events.len()];
    for (g, gpu) in gpus.iter().enumerate() {
        for (t, tb) in gpu.tbs.iter().enumerate() {
            for (s, st) in tb.steps.iter().enumerate() {
                let e = event_of[&(g, t, s)];
                let mut before = Vec::new();
                if s > 0 {
                    before.push(event_of[&(g, t, s - 1)]);
                }
                if let Some((dt, ds)) = st.dep {
                    before.push(event_of[&(g, dt, ds)]);
                }
                for b in before {
                    after[b].push(e);
                    waiting[e] += 1;
                }
            }
        }
    }
    let mut ready: VecDeque<usize> = (0..events.len()).filter(|&e| waiting[e] == 0).collect();
    let mut contents: Vec<HashMap<(String, i64), (u32, u32)>> = (0..gpus.len())
        .map(|r| {
            (0..gpus.len() as i64)
                .map(|d| (("i".to_string(), d), (r as u32, d as u32)))
                .collect()
        })
        .collect();
    let mut carried = Carried::new();
    let mut done = 0;
    while let Some(e) = ready.pop_front() {
        done += 1;
        let (reader, target) = match events[e][..] {
            [x] => (x, x),
            [x, y] => (x, y),
            _ => unreachable!(),
        };
        let src = &step(reader).src;
        let message = *contents[reader.0]
            .get(src)
            .ok_or_else(|| format!("{reader:?} reads the empty chunk {src:?}"))?;
        let dst = step(target).dst.clone();
        if contents[target.0].insert(dst.clone(), message).is_some() {
            return Err(format!("{target:?} overwrites {dst:?}"));
        }
        if reader != target {
            carried
                .entry((reader.0 as u32, target.0 as u32))
                .or_default()
                .push(message);
        }
        for &next in &after[e] {
            waiting[next] -= 1;
            if waiting[next] == 0 {
                ready.push_back(next);
            }
        }
    }
    if done != events.len() {
        return Err(format!(
            "deadlock: {done} of {} events can run",
            events.len()
        ));
    }
    for (d, held) in contents.iter().enumerate() {
        for s in 0..gpus.len() {
            if held.get(&("o".to_string(), s as i64)) != Some(&(s as u32, d as u32)) {
                return Err(format!(
                    "GPU {d}: output chunk {s} is not the message {s} -> {d}"
                ));
            }
        }
    }
    Ok(carried)
}

/// The library's schedule of a table, as the messages each link carries in step order.
fn scheduled(table: &str) -> (usize, Carried) {
    let loaded = load(
        &std::fs::read_to_string(table).unwrap(),
        &Default::default(),
    )
    .unwrap();
    let instance = &loaded.instance;
    let (_, embedding) = physical_network(instance, loaded.network.as_ref());
    let embedding = embedding.unwrap();
    let prepared = simulation_words(instance, &loaded.table).unwrap();
    let mut schedule =
        table_schedule(&prepared.input(instance, &embedding), instance.ports()).unwrap();
    schedule.sort_by_step();
    let mut carried = Carried::new();
    let mut steps: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
    for s in &schedule.sends {
        carried
            .entry((s.from, s.to))
            .or_default()
            .push((s.source, s.destination));
        steps.entry((s.from, s.to)).or_default().push(s.step);
    }
    for (link, steps) in steps {
        assert!(
            steps.windows(2).all(|w| w[0] < w[1]),
            "{table}: link {link:?} busy twice in a step"
        );
    }
    (instance.group().order(), carried)
}

fn export_msccl(table: &str) -> String {
    let out = file("algo.xml", "");
    let Run {
        code,
        stderr,
        stdout,
    } = txverify(&[
        "export",
        table,
        "--format",
        "msccl",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{table}: {stderr}");
    assert!(stdout.is_empty());
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn msccl_programs_of_rings_hypercubes_and_tori_carry_the_schedules_sends() {
    for (table, channels) in [
        ("tables/ring6-dihedral-total.tbl", 2),
        ("tables/ring9-cyclic.tbl", 2),
        ("tables/ring12-dihedral.tbl", 2),
        ("tables/hypercube4-a.tbl", 4),
        ("tables/hypercube4-b.tbl", 4),
        ("tables/mesh5.tbl", 4),
        ("tables/found/torus3x4.tbl", 4),
        ("tables/found/torus2x3x4.tbl", 5),
    ] {
        let xml = export_msccl(table);
        assert!(xml.ends_with("</algo>\n"));
        let (nodes, wanted) = scheduled(table);
        let gpus = read(&xml, nodes).unwrap_or_else(|e| panic!("{table}: {e}"));
        let carried = run_program(&gpus).unwrap_or_else(|e| panic!("{table}: {e}"));
        assert_eq!(carried, wanted, "{table}");
        // One channel per direction of the network: each GPU sends to one peer
        // and receives from one per channel.
        let used: std::collections::BTreeSet<i64> =
            gpus.iter().flat_map(|g| &g.tbs).map(|t| t.chan).collect();
        assert_eq!(used.len(), channels, "{table}");
        assert!(
            xml.contains(&format!("nchannels=\"{channels}\"")),
            "{table}"
        );
        for gpu in &gpus {
            // copy + one send and one receive threadblock per neighbour
            let sends = gpu.tbs.iter().filter(|t| t.send >= 0).count();
            let recvs = gpu.tbs.iter().filter(|t| t.recv >= 0).count();
            assert_eq!(
                (sends, recvs, gpu.tbs.len()),
                (sends, sends, 2 * sends + 1),
                "{table}"
            );
        }
    }
}

#[test]
fn the_test_reader_rejects_programs_that_are_wrong() {
    let table = "tables/ring6-dihedral-total.tbl";
    let xml = export_msccl(table);
    let (nodes, wanted) = scheduled(table);
    let lines: Vec<&str> = xml.lines().collect();
    let edit = |f: &dyn Fn(&mut Vec<String>)| {
        let mut lines: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        f(&mut lines);
        lines.join("\n")
    };
    let find = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();
    let forward = find("depid=\"2\"");
    let cases: Vec<(&str, String)> = vec![
        ("not well formed", xml.replacen("</tb>", "</tbx>", 1)),
        ("lacks `hasdep`", xml.replacen(" hasdep=\"0\"", "", 1)),
        // A forward that no longer waits for the receive of its message.
        (
            "without depending",
            edit(&|l| {
                l[forward] =
                    l[forward].replace("depid=\"2\" deps=\"0\"", "depid=\"-1\" deps=\"-1\"")
            }),
        ),
        // A receive whose chunk differs from its send's.
        (
            "different chunks",
            xml.replacen(
                "type=\"r\" srcbuf=\"i\" srcoff=\"4\"",
                "type=\"r\" srcbuf=\"i\" srcoff=\"3\"",
                1,
            ),
        ),
        // The dependency pointing at a step without hasdep.
        (
            "without hasdep",
            edit(&|l| l[forward] = l[forward].replace("deps=\"0\"", "deps=\"2\"")),
        ),
    ];
    for (fault, text) in cases {
        let result = read(&text, nodes).and_then(|g| run_program(&g));
        let error = result.expect_err(fault);
        assert!(error.contains(fault), "{fault}: {error}");
    }
    // Two sends of one link swapped with their receives: the program still
    // runs but carries the messages in another order than the schedule.
    let mut gpus = read(&xml, nodes).unwrap();
    let tb = gpus[0].tbs.iter().position(|t| t.send == 1).unwrap();
    let rtb = gpus[1].tbs.iter().position(|t| t.recv == 0).unwrap();
    let (a, b) = (0, 3); // two sends from input chunks (no dependencies)
    assert!(gpus[0].tbs[tb].steps[a].dep.is_none() && gpus[0].tbs[tb].steps[b].dep.is_none());
    gpus[0].tbs[tb].steps.swap(a, b);
    gpus[1].tbs[rtb].steps.swap(a, b);
    for step in gpus[1].tbs.iter_mut().flat_map(|t| &mut t.steps) {
        if step.dep == Some((rtb, a)) {
            step.dep = Some((rtb, b));
        } else if step.dep == Some((rtb, b)) {
            step.dep = Some((rtb, a));
        }
    }
    // Either it runs and carries another order, or it waits forever.
    match run_program(&gpus) {
        Ok(carried) => assert_ne!(carried, wanted),
        Err(e) => assert!(e.contains("deadlock"), "{e}"),
    }
}

#[test]
fn msccl_export_refuses_what_the_other_formats_refuse() {
    let out = file("refused.xml", "");
    std::fs::remove_file(&out).unwrap();
    let path = out.to_str().unwrap();
    // Invalid: a message missing.
    let invalid = file(
        "ring5.tbl",
        "group: <a | a^5>\nnetwork: ring 5\ntable:\na a' aa\n",
    );
    let Run { code, .. } = txverify(&[
        "export",
        invalid.to_str().unwrap(),
        "--format",
        "msccl",
        "-o",
        path,
    ]);
    assert_eq!(code, 1);
    // Not a total exchange.
    let Run { code, stderr, .. } = txverify(&[
        "export",
        "tables/ring6-dihedral-odd.tbl",
        "--format",
        "msccl",
        "-o",
        path,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("total exchanges only"), "{stderr}");
    // A Cayley graph that is no ring, hypercube or torus.
    let Run { code, stderr, .. } = txverify(&[
        "export",
        "tables/found/a4.tbl",
        "--format",
        "msccl",
        "-o",
        path,
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!out.exists(), "nothing is written for a refused table");
}

#[test]
fn a_table_over_the_runtimes_default_step_limit_is_written_with_a_warning() {
    // 5 × 5 × 5 torus: 75 messages on some link direction, over 64.
    let out = file("torus.xml", "");
    let Run { code, stderr, .. } = txverify(&[
        "export",
        "tables/torus3d-5.tbl",
        "--format",
        "msccl",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: a threadblock has 75 steps"),
        "{stderr}"
    );
    // The 5 × 5 torus (15 a link direction) fits: no warning.
    let Run { code, stderr, .. } = txverify(&["export", "tables/mesh5.tbl", "--format", "msccl"]);
    assert_eq!(code, 0);
    assert!(stderr.is_empty(), "{stderr}");
}

/// The XML of three tables, byte for byte, as the exporter wrote it when the
/// files under `tests/golden/` were made: a change to how the program is
/// built must not change what it writes.
#[test]
fn msccl_programs_are_byte_identical_to_the_golden_files() {
    for (table, golden) in [
        (
            "tables/ring6-dihedral-total.tbl",
            "tests/golden/ring6-dihedral-total.msccl.xml",
        ),
        (
            "tables/ring9-cyclic.tbl",
            "tests/golden/ring9-cyclic.msccl.xml",
        ),
        (
            "tables/found/torus3x4.tbl",
            "tests/golden/torus3x4.msccl.xml",
        ),
    ] {
        let want = std::fs::read_to_string(golden).unwrap();
        assert!(
            export_msccl(table) == want,
            "{table}: differs from {golden}"
        );
    }
}
