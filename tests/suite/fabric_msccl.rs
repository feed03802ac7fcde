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
    // In steps on the fabric: the schedule's 3, every capacity kept.
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["fits"], true, "{fabric}");
    assert_eq!(fabric["steps"], 3);
    assert_eq!(fabric["busiest_step_load"], 2);
}

/// An allgather in 3 chunks on two GPUs joined by a link of capacity 3 (each
/// way), all in step 1; exported as MSCCL (three lanes a direction). The
/// directory's path.
fn three_lanes() -> PathBuf {
    let cap3 = file("cap3.edges", "0 1 3\n");
    let sched = file(
        "three.sched",
        &format!(
            "network: edges {}\nports: all\ncollective: allgather\nchunks: 3\nsends:\n\
             1 0 1 0 *\n1 0 1 0 * 1\n1 0 1 0 * 2\n1 1 0 1 *\n1 1 0 1 * 1\n1 1 0 1 * 2\n",
            cap3.display()
        ),
    );
    export(&sched)
}

#[test]
fn a_step_over_a_links_capacity_is_named_with_its_step() {
    let xml = three_lanes();
    let dir = xml.parent().unwrap();
    let (fits, _) = check_on(&xml, &format!("edges {}", dir.join("cap3.edges").display()));
    assert_eq!(fits["network"]["fabric"]["fits"], true, "{fits}");
    assert_eq!(fits["network"]["fabric"]["steps"], 1);
    let cap2 = file("cap2.edges", "0 1 2\n");
    let (report, code) = check_on(&xml, &format!("edges {}", cap2.display()));
    // The program is still a right allgather; it does not fit the fabric.
    assert_eq!((code, &report["valid"]), (0, &serde_json::json!(true)));
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["fits"], false, "{fabric}");
    assert_eq!(fabric["violation_count"], 2);
    assert_eq!(
        fabric["violations"][0],
        serde_json::json!({"kind": "over-capacity", "step": 1, "from": 0, "to": 1,
                           "chunks": 3, "capacity": 2})
    );
    let text = txverify(&[
        "check",
        xml.to_str().unwrap(),
        "--network",
        &format!("edges {}", cap2.display()),
    ]);
    assert!(
        text.stdout
            .contains("over-capacity at step 1: link 0→1 carries 3 chunks, capacity 2"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_step_over_a_switch_limit_is_named_with_its_step() {
    let xml = three_lanes();
    // msccl-tools' topology: links[dst][src]; GPU 0 may send 2 chunks a step to 1.
    let topology = file(
        "limited.json",
        r#"{"msccl_type": "topology", "name": "pair", "links": [[0, 3], [3, 0]],
            "switches": [[[0], [1], 2, "out_0"]]}"#,
    );
    let (report, _) = check_on(&xml, topology.to_str().unwrap());
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["violation_count"], 1, "{fabric}");
    assert_eq!(
        fabric["violations"][0],
        serde_json::json!({"kind": "switch-limit", "step": 1, "limit": "out_0",
                           "chunks": 3, "sends": 2})
    );
}

#[test]
fn a_fabric_times_a_program_with_its_link_times_and_capacities() {
    let xml = three_lanes();
    // Its own α and β, no flags: timed; the three lanes cross at once.
    let timed = file("timed.edges", "0 1 3 alpha=5 beta=2\n");
    let (report, code) = check_on(&xml, &format!("edges {}", timed.display()));
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["timed"]["completion"], 7.0, "{}", report["timed"]);
    // The bound still holds: never above the completion.
    let bound = report["timed"]["bound"].as_f64().unwrap();
    assert!(bound <= 7.0, "{}", report["timed"]);
    // On a single link the three messages queue: 3 × (5 + 2).
    let single = file("single.edges", "0 1 1 alpha=5 beta=2\n");
    let (report, _) = check_on(&xml, &format!("edges {}", single.display()));
    assert_eq!(report["timed"]["completion"], 21.0, "{}", report["timed"]);
}

/// `search --network NET --collective allgather --chunks C -o F.json`, then
/// `export F.json --format msccl`; the program's path.
fn searched_and_exported(network: &str, chunks: u32) -> PathBuf {
    let name = format!("{}-{chunks}", network.replace(' ', "-"));
    let json = file(&format!("{name}.json"), "");
    let found = txverify(&[
        "search",
        "--network",
        network,
        "--collective",
        "allgather",
        "--chunks",
        &chunks.to_string(),
        "-o",
        json.to_str().unwrap(),
    ]);
    assert_eq!(found.code, 0, "{}{}", found.stdout, found.stderr);
    export(&json)
}

/// The names of the switch limits of `hub-and-spoke N` that count one GPU's
/// sends (`node_i_out`): those the export keeps by ordering a GPU's sends.
fn is_one_gpus_out_limit(name: &str) -> bool {
    name.starts_with("node_") && name.ends_with("_out")
}

#[test]
fn an_export_on_hub_and_spoke_keeps_every_gpus_one_send_a_step() {
    for chunks in [1, 2] {
        let xml = searched_and_exported("hub-and-spoke 8", chunks);
        let (report, code) = check_on(&xml, "hub-and-spoke 8");
        assert_eq!((code, &report["valid"]), (0, &serde_json::json!(true)));
        let fabric = &report["network"]["fabric"];
        // Every violation left is of a limit on several GPUs' sends (a
        // receive limit), and the report lists it as such.
        let violations = fabric["violations"].as_array().unwrap();
        for v in violations {
            assert_eq!(v["kind"], "switch-limit", "{v}");
            let name = v["limit"].as_str().unwrap();
            assert!(!is_one_gpus_out_limit(name), "C = {chunks}: {v}");
        }
        let across = fabric["limits_across_gpus"].as_array().unwrap();
        for v in violations {
            assert!(across.contains(&v["limit"]), "{v} not in {across:?}");
        }
    }
}

#[test]
fn a_dependency_on_a_send_holds_the_next_send_to_the_following_step() {
    // Each GPU sends its chunk to one peer, then (waiting for that send) to
    // the other. On hub-and-spoke 3 each GPU may send one chunk a step.
    let program = r#"<algo name="ordered" proto="Simple" nchannels="1" nchunksperloop="3" ngpus="3" coll="allgather" inplace="0" outofplace="1" minBytes="0" maxBytes="0">
  <gpu id="0" i_chunks="1" o_chunks="3" s_chunks="0">
    <tb id="0" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="1" send="1" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="1"/>
    </tb>
    <tb id="2" send="2" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="1" deps="0" hasdep="0"/>
    </tb>
    <tb id="3" send="-1" recv="1" chan="0">
      <step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="4" send="-1" recv="2" chan="0">
      <step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
  <gpu id="1" i_chunks="1" o_chunks="3" s_chunks="0">
    <tb id="0" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="1" send="2" recv="0" chan="0">
      <step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
      <step s="1" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="1"/>
    </tb>
    <tb id="2" send="0" recv="2" chan="0">
      <step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2" cnt="1" depid="-1" deps="-1" hasdep="0"/>
      <step s="1" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="1" deps="1" hasdep="0"/>
    </tb>
  </gpu>
  <gpu id="2" i_chunks="1" o_chunks="3" s_chunks="0">
    <tb id="0" send="-1" recv="-1" chan="0">
      <step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="1" send="1" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2" cnt="1" depid="-1" deps="-1" hasdep="1"/>
    </tb>
    <tb id="2" send="0" recv="-1" chan="0">
      <step s="0" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="2" cnt="1" depid="1" deps="0" hasdep="0"/>
    </tb>
    <tb id="3" send="-1" recv="0" chan="0">
      <step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
    <tb id="4" send="-1" recv="1" chan="0">
      <step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>
    </tb>
  </gpu>
</algo>
"#;
    let xml = file("ordered.xml", program);
    let (report, code) = check_on(&xml, "hub-and-spoke 3");
    assert_eq!(
        (code, &report["valid"]),
        (0, &serde_json::json!(true)),
        "{report}"
    );
    let fabric = &report["network"]["fabric"];
    let violations = fabric["violations"].as_array().unwrap();
    // GPU 0 sends to 1 in step 1 and to 2 in step 2, GPU 2 to 1 and then 0,
    // GPU 1 to 2 in step 2 and to 0 in step 3: no `node_i_out` is over its
    // one send a step.
    assert!(
        violations
            .iter()
            .all(|v| !is_one_gpus_out_limit(v["limit"].as_str().unwrap_or(""))),
        "{fabric}"
    );
}

#[test]
fn a_program_on_a_switch_crosses_it_on_the_way_in_and_out() {
    // The ring allgather of 8 GPUs: GPU i sends 7 chunks to i + 1. On
    // `nvswitch 8` (the switch is node 8) each crosses i → 8, then 8 → i + 1.
    let run = txverify(&[
        "check",
        "examples/msccl/allgather_ring.xml",
        "--format",
        "json",
        "--network",
        "nvswitch 8",
        "--alpha",
        "1",
        "--beta",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let network = &report["network"];
    assert_eq!(network["nodes"], 9, "{network}");
    let load = |from: u32, to: u32| {
        network["links"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["from"] == from && l["to"] == to)
            .map(|l| l["chunks"].clone())
    };
    assert_eq!(load(0, 8), Some(serde_json::json!(7)), "{network}");
    assert_eq!(load(8, 1), Some(serde_json::json!(7)), "{network}");
    assert_eq!(load(8, 0), Some(serde_json::json!(7)), "{network}");
    assert_eq!(network["longest_route"], 2);
    // Timed there: every message crosses two links.
    assert!(
        report["timed"]["completion"].as_f64().unwrap() > 0.0,
        "{}",
        report["timed"]
    );
    assert_eq!(
        report["timed"]["busiest_link"]["chunks"], 7,
        "{}",
        report["timed"]
    );
}

#[test]
fn a_program_between_gpus_on_several_switches_is_refused_with_the_reason() {
    // Two switches, 4 and 5, each joined to all four GPUs: a send 0 → 1
    // may cross either, so the loads would be a guess.
    let edges = file(
        "two-switches.edges",
        "switch: 4 5\n0 4\n1 4\n2 4\n3 4\n0 5\n1 5\n2 5\n3 5\n",
    );
    let ring4 = r#"<algo name="r" proto="Simple" nchannels="1" nchunksperloop="4" ngpus="4" coll="allgather" inplace="0" outofplace="1" minBytes="0" maxBytes="0">
  <gpu id="0" i_chunks="1" o_chunks="4" s_chunks="0"><tb id="0" send="-1" recv="-1" chan="0"><step s="0" type="cpy" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/></tb></gpu>
  <gpu id="1" i_chunks="1" o_chunks="4" s_chunks="0"/>
  <gpu id="2" i_chunks="1" o_chunks="4" s_chunks="0"/>
  <gpu id="3" i_chunks="1" o_chunks="4" s_chunks="0"/>
</algo>
"#;
    let xml = file("r.xml", ring4);
    let run = txverify(&[
        "check",
        xml.to_str().unwrap(),
        "--network",
        &format!("edges {}", edges.display()),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    let all = format!("{}{}", run.stdout, run.stderr);
    assert!(all.contains("switches 4 and 5"), "{all}");
}

#[test]
fn an_allgather_through_a_switch_exports_valid_within_every_capacity() {
    // The schedule's sends go GPU → switch → GPU; the program names GPUs
    // only, each pair of sends one GPU-to-GPU send that crosses the switch.
    for chunks in [1, 2] {
        let xml = searched_and_exported("nvswitch 8", chunks);
        let (report, code) = check_on(&xml, "nvswitch 8");
        assert_eq!(code, 0, "C = {chunks}: {report}");
        assert_eq!(report["valid"], true, "C = {chunks}");
        assert_eq!(report["collective"], "allgather", "C = {chunks}");
        let fabric = &report["network"]["fabric"];
        let violations = fabric["violations"].as_array().unwrap();
        assert!(violations.is_empty(), "C = {chunks}: {violations:?}");
        // Every GPU receives every other GPU's C chunks, each once.
        assert_eq!(
            report["figures"]["chunks_sent"],
            8 * 7 * chunks,
            "C = {chunks}"
        );
    }
}

#[test]
fn a_reduce_scatter_through_a_switch_is_refused_with_the_reason() {
    let json = file("nvswitch-rs.json", "");
    let found = txverify(&[
        "search",
        "--network",
        "nvswitch 4",
        "--collective",
        "reduce-scatter",
        "-o",
        json.to_str().unwrap(),
    ]);
    assert_eq!(found.code, 0, "{}{}", found.stdout, found.stderr);
    let xml = json.with_extension("xml");
    let run = txverify(&[
        "export",
        json.to_str().unwrap(),
        "--format",
        "msccl",
        "-o",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("combines"), "{}", run.stderr);
    assert!(run.stderr.contains("switch"), "{}", run.stderr);
    assert!(!xml.exists());
}

/// `search --network NET --collective COLL --chunks C -o F.sched`; the
/// schedule's path and its completion time.
fn searched(network: &str, collective: &str, chunks: u32) -> (PathBuf, u64) {
    // An edge list is named by its file's name.
    let shown = match network.strip_prefix("edges ") {
        Some(path) => Path::new(path).file_name().unwrap().to_str().unwrap(),
        None => network,
    };
    let name =
        format!("{shown}-{collective}-{chunks}").replace(|c: char| !c.is_ascii_alphanumeric(), "-");
    let sched = file(&format!("{name}.sched"), "");
    let found = txverify(&[
        "search",
        "--network",
        network,
        "--collective",
        collective,
        "--chunks",
        &chunks.to_string(),
        "-o",
        sched.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(found.code, 0, "{}{}", found.stdout, found.stderr);
    let report: serde_json::Value = serde_json::from_str(&found.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", found.stdout, found.stderr));
    let time = report["time"]
        .as_u64()
        .unwrap_or_else(|| panic!("{report}"));
    (sched, time)
}

/// The link violations (`link-busy`, `over-capacity`) of a `check --network`
/// report.
fn link_violations(report: &serde_json::Value) -> Vec<serde_json::Value> {
    let fabric = &report["network"]["fabric"];
    fabric["violations"]
        .as_array()
        .unwrap_or_else(|| panic!("no fabric steps: {report}"))
        .iter()
        .filter(|v| v["kind"] != "switch-limit")
        .cloned()
        .collect()
}

#[test]
fn a_broadcast_through_a_switch_that_holds_copies_exports_within_every_capacity() {
    // The switch of `nvswitch 8` keeps copies of the root's chunks for a
    // step or more before forwarding them: the program's GPU-to-GPU sends
    // are placed where the links into and out of the switch have room.
    let (sched, _) = searched("nvswitch 8", "broadcast 0", 2);
    let xml = export(&sched);
    let (report, code) = check_on(&xml, "nvswitch 8");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["valid"], true, "{report}");
    assert_eq!(report["collective"], "broadcast", "{report}");
    assert_eq!(
        report["figures"]["roots"],
        serde_json::json!([0]),
        "{report}"
    );
    let fabric = &report["network"]["fabric"];
    assert_eq!(fabric["violation_count"], 0, "{fabric}");
    // Seven GPUs receive each of the two chunks once.
    assert_eq!(report["figures"]["chunks_sent"], 7 * 2, "{report}");
}

/// A small deterministic generator (splitmix64) for the sampled cases.
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }
}

#[test]
fn what_search_finds_on_a_switch_fabric_exports_within_every_capacity_or_is_refused() {
    // Small fabrics, collectives (a root drawn at random) and chunk counts:
    // whatever `search` finds either exports to a program VALID as the
    // collective with no link over its capacity, or is refused (exit 2)
    // with the reason; never a program VALID but over a link's capacity.
    let mut draw = Draw(51);
    let mut cases = Vec::new();
    for n in 3..=5u64 {
        let root = draw.below(n);
        for collective in ["allgather".to_string(), format!("broadcast {root}")] {
            for chunks in 1..=3 {
                cases.push((format!("nvswitch {n}"), collective.clone(), chunks));
            }
        }
        let collective = if draw.below(2) == 0 {
            "allgather".to_string()
        } else {
            format!("broadcast {}", draw.below(n))
        };
        cases.push((format!("hub-and-spoke {n}"), collective, 1 + draw.below(2)));
    }
    // Four GPUs on switch 4, each link to it of capacity 1 or 2, and one
    // link between two GPUs.
    let mut edges = "switch: 4\n0 1\n".to_string();
    for gpu in 0..4 {
        edges.push_str(&format!("{gpu} 4 {}\n", 1 + draw.below(2)));
    }
    let edges = file("switch-capacities.edges", &edges);
    let network = format!("edges {}", edges.display());
    let root = draw.below(4);
    for collective in ["allgather".to_string(), format!("broadcast {root}")] {
        cases.push((network.clone(), collective, 1 + draw.below(3)));
    }
    for (network, collective, chunks) in &cases {
        let case = format!("{network}, {collective}, C = {chunks}");
        let (sched, time) = searched(network, collective, *chunks as u32);
        let xml = sched.with_extension("xml");
        let run = txverify(&[
            "export",
            sched.to_str().unwrap(),
            "--format",
            "msccl",
            "-o",
            xml.to_str().unwrap(),
        ]);
        if run.code != 0 {
            assert_eq!(run.code, 2, "{case}: {}", run.stderr);
            assert!(
                run.stderr.contains("finds no step"),
                "{case}: {}",
                run.stderr
            );
            assert!(!xml.exists(), "{case}");
            continue;
        }
        let (report, code) = check_on(&xml, network);
        assert_eq!(
            (code, &report["valid"]),
            (0, &serde_json::json!(true)),
            "{case}: {report}"
        );
        let coll = collective.split(' ').next().unwrap();
        assert_eq!(report["collective"], coll, "{case}");
        let over = link_violations(&report);
        assert!(over.is_empty(), "{case}: {over:?}");
        if !network.starts_with("hub-and-spoke") {
            // No switch limits: nothing at all is violated, and the program
            // takes no more steps than the schedule.
            let fabric = &report["network"]["fabric"];
            assert_eq!(fabric["violation_count"], 0, "{case}: {fabric}");
            let steps = fabric["steps"].as_u64().unwrap();
            assert!(steps <= time, "{case}: {steps} steps, the schedule {time}");
        }
    }
}

#[test]
fn a_multicast_switchs_second_copy_is_refused_with_the_reason() {
    // A switch that copies (`multicast: yes`) forwards the root's one copy
    // to three GPUs in one step: a program of GPU-to-GPU sends would need
    // three sends into the switch, so the export refuses it (exit 2).
    let edges = file(
        "multicast.edges",
        "switch: 4\nmulticast: yes\n0 4\n1 4\n2 4\n3 4\n",
    );
    let network = format!("edges {}", edges.display());
    let (sched, _) = searched(&network, "broadcast 0", 2);
    let xml = sched.with_extension("xml");
    let run = txverify(&[
        "export",
        sched.to_str().unwrap(),
        "--format",
        "msccl",
        "-o",
        xml.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("does not hold"), "{}", run.stderr);
    assert!(run.stderr.contains("multicast"), "{}", run.stderr);
    assert!(!xml.exists());
}
