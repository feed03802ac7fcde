//! Fabrics (docs/networks.md, "Fabrics"): link capacities, switch limits and
//! forward-only nodes, read from edge lists, msccl-tools topology JSON and
//! names, replayed with their named violations, written back out, and refused
//! where a command does not model them (searches: fabric_search.rs).

use super::common::cli::{file, txverify};

const DGX1_SCHEDULE: &str = "examples/schedules/dgx1-allgather-3steps.sched";

#[test]
fn the_doubled_dgx1_carries_a_three_step_two_chunk_allgather() {
    let run = txverify(&["simulate", DGX1_SCHEDULE]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("verdict      VALID"), "{}", run.stdout);
    // On single links the doubled pairs are busy, and only they.
    let single = "edges examples/networks/dgx1.edges";
    let run = txverify(&["simulate", DGX1_SCHEDULE, "--network", single]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("link-busy"), "{}", run.stdout);
    assert!(!run.stdout.contains("over-capacity"), "{}", run.stdout);
    // The fabric written as msccl-tools JSON and read back is the same fabric.
    let out = file("dgx1.json", "");
    let net = txverify(&["net", "dgx1", "-o", out.to_str().unwrap()]);
    assert_eq!(net.code, 0, "{}", net.stderr);
    let run = txverify(&[
        "simulate",
        DGX1_SCHEDULE,
        "--network",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn over_capacity_and_switch_limit_are_named_violations() {
    let doubled = file("doubled.edges", "0 1 2\n");
    let schedule = format!(
        "network: edges {}\nports: all\ncollective: allgather\nchunks: 3\nsends:\n\
         1 0 1 0 *\n1 0 1 0 * 1\n1 0 1 0 * 2\n1 1 0 1 *\n1 1 0 1 * 1\n2 1 0 1 * 2\n",
        doubled.display()
    );
    let path = file("over.sched", &schedule);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("1 violations: 1 over-capacity")
            || run.stdout.contains("(1 violation: 1 over-capacity)"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("over-capacity: node 0, link 0 -> 1"),
        "{}",
        run.stdout
    );
    // HubAndSpoke(3): one send out of a node a step; node 0 sends two.
    let hub = "network: hub-and-spoke 3\nports: all\ncollective: allgather\nsends:\n\
               1 0 1 0 *\n1 0 2 0 *\n2 1 0 1 *\n3 1 2 1 *\n4 2 0 2 *\n5 2 1 2 *\n";
    let path = file("hub.sched", hub);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("step 1: switch-limit: node 0, link 0 -> 2"),
        "{}",
        run.stdout
    );
    assert_eq!(
        run.stdout.matches("switch-limit: node").count(),
        1,
        "{}",
        run.stdout
    );
}

#[test]
fn a_switch_node_forwards_without_data_of_its_own_and_copies_only_with_multicast() {
    // nvswitch 2: GPUs 0 and 1, the switch is node 2.
    let through = "network: nvswitch 2\nports: all\ncollective: allgather\nsends:\n\
                   1 0 2 0 *\n1 1 2 1 *\n2 2 1 0 *\n2 2 0 1 *\n";
    let path = file("through.sched", through);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // nvswitch 3: the switch (node 3) sends GPU 0's block twice.
    let copies = "network: nvswitch 3\nports: all\ncollective: allgather\nsends:\n\
                  1 0 3 0 *\n2 3 1 0 *\n3 3 2 0 *\n";
    let path = file("copies.sched", copies);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("switch-copy: node 3"), "{}", run.stdout);
    // The same on an edge list whose switch may copy: no switch-copy.
    let star = file("star.edges", "0 3\n1 3\n2 3\nswitch: 3\nmulticast: yes\n");
    let net = format!("edges {}", star.display());
    let run = txverify(&["simulate", path.to_str().unwrap(), "--network", &net]);
    assert!(!run.stdout.contains("switch-copy"), "{}", run.stdout);
}

#[test]
fn hostile_fabric_files_are_refused_with_their_place() {
    let head = r#"{"msccl_type": "topology", "switches": [], "links": "#;
    for (name, text, place, words) in [
        (
            "zero.edges",
            "0 1\n1 2 0\n".to_string(),
            ":2:5:",
            "capacity 0",
        ),
        (
            "negative.edges",
            "0 1 -2\n".into(),
            ":1:5:",
            "not a capacity",
        ),
        (
            "huge.edges",
            "0 1 18446744073709551616\n".into(),
            ":1:5:",
            "more than 65536",
        ),
        (
            "unknown.edges",
            "0 1\nswitch: 5\n".into(),
            ":2:9:",
            "switch 5",
        ),
        (
            "square.json",
            format!("{head}[[0, 1],\n[1, 0, 1]]}}"),
            ":2:",
            "not square",
        ),
        (
            "negative.json",
            format!("{head}[[0, -1],\n[1, 0]]}}"),
            ":1:",
            "not negative",
        ),
        (
            "huge.json",
            format!("{head}[[0, 18446744073709551616], [1, 0]]}}"),
            ":1:",
            "whole number",
        ),
        (
            "switch.json",
            r#"{"msccl_type": "topology", "links": [[0, 1], [1, 0]],
"switches": [[[0], [7], 1, "s"]]}"#
                .into(),
            ":2:",
            "node 7 is not a node",
        ),
    ] {
        let path = file(name, &text);
        // A bare file is told by content: a topology is, an edge list with a
        // bad field is not (it reads as a table); `edges FILE` reads either.
        let mut nets = vec![format!("edges {}", path.display())];
        if name.ends_with(".json") {
            nets.push(path.display().to_string());
        }
        for net in nets {
            let run = txverify(&["bounds", "--network", &net]);
            assert_eq!(run.code, 2, "{name}: {}", run.stderr);
            let at = format!("{}{place}", path.display());
            assert!(run.stderr.contains(&at), "{name}: {}", run.stderr);
            assert!(run.stderr.contains(words), "{name}: {}", run.stderr);
            assert!(!run.stderr.contains("panicked"), "{name}");
        }
    }
    // Endless input: a line longer than the reader takes is refused, not held.
    let endless = file("endless.edges", &format!("0 1 {}\n", "7".repeat(1 << 17)));
    let net = format!("edges {}", endless.display());
    let run = txverify(&["simulate", DGX1_SCHEDULE, "--network", &net]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("longer than"), "{}", run.stderr);
}

#[test]
fn compare_refuses_a_fabric_rather_than_misjudge_it() {
    // `bounds` states a fabric's bounds and `search` searches it
    // (fabric_search.rs); `compare`'s best-known schedules are the plain
    // network's.
    let run = txverify(&["compare", "dgx1"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("a fabric"), "{}", run.stderr);
    let run = txverify(&["bounds", "--network", "dgx1 x ring 2"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("is a fabric"), "{}", run.stderr);
}

/// The best time bound of `bounds --network NET --collective X --chunks C`,
/// and the throughput bound's set and figures.
fn fabric_bound(net: &str, collective: &str, chunks: u32) -> (u64, serde_json::Value) {
    let c = chunks.to_string();
    let args = ["bounds", "--network", net, "--collective", collective];
    let run = txverify(&[&args[..], &["--chunks", &c, "--format", "json"]].concat());
    assert_eq!(run.code, 0, "{net}: {}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let entry = &report["fabric"]["collectives"][0];
    let best = entry["time"]["best"]["value"].as_u64().unwrap();
    (best, entry["throughput"].clone())
}

#[test]
fn bounds_on_a_fabric_are_forestcoll_s_optimum_with_the_set_that_proves_it() {
    // Steps per chunk as ForestColl states them: 7/6 on the doubled DGX-1, 7
    // behind an 8-GPU switch or hub, 8 across two DGX-1s joined by one NIC;
    // the best bound adds the fill (a step behind a switch, which starts
    // empty) or the entry and spread (two steps for the last item into a
    // DGX-1 to reach its 8 GPUs).
    for (net, data, capacity, fill) in [
        ("dgx1", 7, 6, 0),
        ("nvswitch 8", 7, 1, 1),
        ("hub-and-spoke 8", 7, 1, 0),
        ("cluster 2 1 dgx1", 8, 1, 2),
    ] {
        for chunks in [1u32, 2, 5, 8] {
            let (best, proof) = fabric_bound(net, "allgather", chunks);
            let want = (u64::from(chunks) * data).div_ceil(capacity);
            assert_eq!(best, want + fill, "{net}, {chunks} chunks");
            assert_eq!(proof["steps"], want, "{net}");
            assert_eq!(
                (proof["data"].clone(), proof["capacity"].clone()),
                (data.into(), capacity.into())
            );
            assert!(!proof["set"].as_array().unwrap().is_empty(), "{net}");
        }
    }
    // The switch is no participant: its set has a GPU, and a root that is
    // a switch is refused.
    let run = txverify(&[
        "bounds",
        "--network",
        "nvswitch 4",
        "--collective",
        "broadcast 4",
    ]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a GPU"), "{}", run.stderr);
    let run = txverify(&["bounds", "--network", "ring 4", "--collective", "allgather"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("not a fabric"), "{}", run.stderr);
    // The default report states the collectives of one chunk, in words too.
    let run = txverify(&["bounds", "--network", "dgx1"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("S = {0}"), "{}", run.stdout);
    assert!(run.stdout.contains("left out"), "{}", run.stdout);
}

#[test]
fn named_fabrics_are_written_as_msccl_tools_defines_them() {
    let json = |name: &str| {
        let run = txverify(&["net", name]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        serde_json::from_str::<serde_json::Value>(&run.stdout).unwrap()
    };
    // hub_and_spoke(4): every pair linked, and per node one send out, one in.
    let hub = json("hub-and-spoke 4");
    for dst in 0..4 {
        for src in 0..4 {
            assert_eq!(hub["links"][dst][src], u64::from(dst != src), "{dst} {src}");
        }
    }
    let switches = hub["switches"].as_array().unwrap();
    assert_eq!(switches.len(), 8);
    assert_eq!(
        switches[0],
        serde_json::json!([[0], [1, 2, 3], 1, "node_0_out"])
    );
    assert_eq!(
        switches[1],
        serde_json::json!([[1, 2, 3], [0], 1, "node_0_in"])
    );
    // distributed_hub_and_spoke(DGX1, 2, 1): remote links of bandwidth 1,
    // local links kept, two NIC limits per copy.
    let two = json("cluster 2 1 dgx1");
    assert_eq!(two["links"].as_array().unwrap().len(), 16);
    assert_eq!(two["links"][9][8], 2);
    assert_eq!(two["links"][8][0], 1);
    assert_eq!(two["links"][9][0], 1);
    let names: Vec<&str> = two["switches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s[3].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "copy_0_out_remote",
            "copy_0_in_remote",
            "copy_1_out_remote",
            "copy_1_in_remote"
        ]
    );
}

#[test]
fn an_msccl_program_on_a_fabric_reports_loads_against_capacities() {
    let run = txverify(&[
        "check",
        "examples/msccl/allgather_ring.xml",
        "--network",
        "dgx1",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("0→1 7/2"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("busiest for its capacity 3→0: 14 chunks over capacity 1, 14 steps"),
        "{}",
        run.stdout
    );
    let plain = txverify(&[
        "check",
        "examples/msccl/allgather_ring.xml",
        "--network",
        "ring 8",
    ]);
    assert!(!plain.stdout.contains("on capacity"), "{}", plain.stdout);
}

#[test]
fn a_links_own_alpha_and_beta_time_the_replay() {
    // Link 0–1 takes 5 + 1 per message; link 1–2 the command line's 1 + 1.
    let edges = file("timed.edges", "0 1 alpha=5 beta=1\n1 2\n");
    let schedule = format!(
        "network: edges {}\nports: all\ncollective: allgather\nsends:\n\
         1 0 1 0 *\n1 1 0 1 *\n2 1 2 0 *\n2 2 1 2 *\n3 1 0 2 *\n3 1 2 1 *\n",
        edges.display()
    );
    let path = file("timed.sched", &schedule);
    let run = txverify(&[
        "simulate",
        path.to_str().unwrap(),
        "--alpha",
        "1",
        "--beta",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // 1→0 carries two messages of 6 each; on plain links of 2 each, 4.
    assert!(run.stdout.contains("completion 12"), "{}", run.stdout);
    assert!(
        run.stdout.contains("busiest link 1→0 busy 12"),
        "{}",
        run.stdout
    );
    let plain = file("plain.edges", "0 1\n1 2\n");
    let net = format!("edges {}", plain.display());
    let run = txverify(&[
        "simulate",
        path.to_str().unwrap(),
        "--network",
        &net,
        "--alpha",
        "1",
        "--beta",
        "1",
    ]);
    assert!(run.stdout.contains("completion 4"), "{}", run.stdout);
}

#[test]
fn verify_bound_recomputes_a_fabric_s_stated_bounds_from_their_sets() {
    let args = ["bounds", "--network", "dgx1", "--collective", "allgather"];
    let run = txverify(&[&args[..], &["--chunks", "2", "--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let report = file("dgx1-bounds.json", &run.stdout);
    let check = |path: &std::path::Path| {
        let path = path.to_str().unwrap();
        txverify(&[
            "verify-bound",
            "--network",
            "dgx1",
            path,
            "--format",
            "json",
        ])
    };
    let ok = check(&report);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let v: serde_json::Value = serde_json::from_str(&ok.stdout).unwrap();
    assert_eq!(v["schema"], "txverify-verify-fabric-bound/1");
    assert_eq!(v["bounds"][0]["steps"], 3);
    assert_eq!(
        (
            v["bounds"][0]["data"].clone(),
            v["bounds"][0]["capacity"].clone()
        ),
        (7.into(), 6.into())
    );
    // A stated bound above what its set proves is rejected; a set with no
    // GPU outside it proves nothing and is bad input.
    let lying = file(
        "lying.json",
        &run.stdout.replace("\"steps\":3", "\"steps\":4"),
    );
    assert_eq!(check(&lying).code, 1);
    let everything = run
        .stdout
        .replace("\"set\":[0]", "\"set\":[0,1,2,3,4,5,6,7]");
    let unfit = check(&file("unfit.json", &everything));
    assert_eq!(unfit.code, 2, "{}", unfit.stderr);
    assert!(unfit.stderr.contains("no GPU outside"), "{}", unfit.stderr);
}

#[test]
fn an_empty_switch_adds_a_step_of_fill_that_the_search_meets_and_verify_bound_rechecks() {
    // nvswitch 8: a GPU's one link in is from the switch, which holds
    // nothing at step 1: 7C chunks need 7C + 1 steps, the construction's time.
    let args = [
        "bounds",
        "--network",
        "nvswitch 8",
        "--collective",
        "allgather",
    ];
    let run = txverify(&[&args[..], &["--chunks", "2", "--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let fill = &v["fabric"]["collectives"][0]["fill"];
    assert_eq!(
        (fill["steps"].clone(), fill["items"].clone()),
        (15.into(), 14.into())
    );
    assert_eq!(fill["ramp"][0]["from_step"], 2);
    let report = file("nvswitch-bounds.json", &run.stdout);
    let check = |path: &std::path::Path| {
        let path = path.to_str().unwrap();
        txverify(&[
            "verify-bound",
            "--network",
            "nvswitch 8",
            path,
            "--format",
            "json",
        ])
    };
    let ok = check(&report);
    assert_eq!(ok.code, 0, "{}", ok.stderr);
    let v: serde_json::Value = serde_json::from_str(&ok.stdout).unwrap();
    let filled: Vec<&serde_json::Value> = v["bounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["bound"] == "fill")
        .collect();
    assert_eq!(filled.len(), 1, "{v}");
    assert_eq!(filled[0]["steps"], 15);
    let lying = file(
        "fill-lying.json",
        &run.stdout.replace("\"steps\":15", "\"steps\":16"),
    );
    assert_eq!(check(&lying).code, 1);
    let search = txverify(&[
        "search",
        "--network",
        "nvswitch 8",
        "--collective",
        "allgather",
        "--chunks",
        "2",
        "--quiet",
    ]);
    assert_eq!(search.code, 0, "{}", search.stderr);
    assert!(
        search.stdout.contains("lower bound 15 (fill)"),
        "{}",
        search.stdout
    );
    assert!(search.stdout.contains("OPTIMAL"), "{}", search.stdout);
}

#[test]
fn the_last_item_into_a_machine_must_still_spread_so_two_dgx1_take_8c_plus_2() {
    // cluster 2 1 dgx1: 8C items enter a machine one a step (its NIC), so the
    // last first enters at step 8C, at one GPU, which reaches its 4
    // neighbours and one more crossing the step after (6 of 8): 8C + 2, the
    // construction's time, which the search now proves optimal.
    let net = "cluster 2 1 dgx1";
    let args = ["bounds", "--network", net, "--collective", "allgather"];
    let run = txverify(&[&args[..], &["--chunks", "2", "--format", "json"]].concat());
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let entry = &v["fabric"]["collectives"][0];
    assert_eq!(entry["time"]["best"]["value"], 18, "{entry}");
    assert_eq!(entry["time"]["best"]["name"], "entry-spread");
    let spread = &entry["entry_spread"];
    assert_eq!(
        [
            &spread["steps"],
            &spread["items"],
            &spread["capacity"],
            &spread["fill"],
            &spread["last_entry"],
            &spread["entry_nodes"],
            &spread["spread"],
        ]
        .map(|x| x.as_u64().unwrap()),
        [18, 16, 1, 16, 16, 1, 2]
    );
    assert_eq!(spread["set"], serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7]));
    let documented = super::common::cli::documented_fields("## Schema `txverify-bounds/4`");
    assert!(documented.contains("fabric.collectives[].entry_spread"));
    let text = txverify(&[&args[..], &["--chunks", "2"]].concat());
    assert!(
        text.stdout.contains("entry-spread: 16 items enter S"),
        "{}",
        text.stdout
    );
    // verify-bound recomputes it from the set and the fabric alone.
    let report = file("cluster-bounds.json", &run.stdout);
    let check = |path: &std::path::Path| {
        txverify(&[
            "verify-bound",
            "--network",
            net,
            path.to_str().unwrap(),
            "--format",
            "json",
        ])
    };
    let ok = check(&report);
    assert_eq!(ok.code, 0, "{}{}", ok.stdout, ok.stderr);
    let checked: serde_json::Value = serde_json::from_str(&ok.stdout).unwrap();
    let spread_checked: Vec<&serde_json::Value> = checked["bounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["bound"] == "entry-spread")
        .collect();
    assert_eq!(spread_checked.len(), 1, "{checked}");
    assert_eq!(spread_checked[0]["steps"], 18);
    let lying = file(
        "cluster-lying.json",
        &run.stdout.replace("\"steps\":18", "\"steps\":19"),
    );
    assert_eq!(check(&lying).code, 1);
    let search = txverify(&[
        "search",
        "--network",
        net,
        "--collective",
        "allgather",
        "--chunks",
        "1",
        "--quiet",
    ]);
    assert_eq!(search.code, 0, "{}", search.stderr);
    assert!(
        search.stdout.contains("lower bound 10 (entry-spread)"),
        "{}",
        search.stdout
    );
    assert!(search.stdout.contains("OPTIMAL"), "{}", search.stdout);
}

#[test]
fn an_lp_certificate_on_a_fabric_counts_gpu_pairs_and_capacities() {
    // Weight 1 on the 16 links of an 8-GPU switch: the 8 · 7 GPU pairs are 2
    // hops apart, 112 over 16 links: 7 (the switch's own pairs would make 8).
    let links: Vec<String> = (0..8)
        .flat_map(|x| [format!("[{x},8,1]"), format!("[8,{x},1]")])
        .collect();
    let text = format!(
        "{{\"schema\":\"txverify-lp-bound/1\",\"weights\":[{}]}}",
        links.join(",")
    );
    let cert = file("switch.json", &text);
    let run = txverify(&[
        "verify-bound",
        "--network",
        "nvswitch 8",
        cert.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(
        (v["bound"].clone(), v["weighted_distance"].clone()),
        (7.into(), 112.into())
    );
}

#[test]
fn a_fabric_over_the_minimum_cut_work_limit_is_refused_before_the_work() {
    // 512 GPUs, each linked to the 504 of the other machines.
    let run = txverify(&["bounds", "--network", "cluster 64 1 dgx1"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("minimum-cut work"), "{}", run.stderr);
}

#[test]
fn a_switch_without_multicast_forwards_each_copy_it_receives() {
    // nvswitch 3 (switch 3): GPU 0 sends its block to the switch twice, once
    // per destination, and the switch forwards each copy: VALID.
    let twice = "network: nvswitch 3\nports: all\ncollective: allgather\nsends:\n\
                 1 0 3 0 *\n1 1 3 1 *\n1 2 3 2 *\n\
                 2 0 3 0 *\n2 1 3 1 *\n2 2 3 2 *\n\
                 2 3 1 0 *\n2 3 2 1 *\n2 3 0 2 *\n\
                 3 3 2 0 *\n3 3 0 1 *\n3 3 1 2 *\n";
    let path = file("twice.sched", twice);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("VALID"), "{}", run.stdout);
    // A third send of GPU 0's block from the switch, with two copies
    // received, is switch-copy, named with its step.
    let third = format!("{twice}4 3 0 0 *\n");
    let path = file("third.sched", &third);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("step 4: switch-copy: node 3"),
        "{}",
        run.stdout
    );
    // GPU 0 passes on GPU 1's block through the switch (a third copy there)
    // to GPU 2, which has it: delivered-twice at a GPU, as before.
    let again = format!("{twice}4 0 3 1 *\n5 3 2 1 *\n");
    let path = file("again.sched", &again);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("delivered-twice"), "{}", run.stdout);
    assert!(!run.stdout.contains("switch-copy"), "{}", run.stdout);
}

#[test]
fn a_doubled_link_carries_two_messages_at_once_in_the_timed_replay() {
    // A broadcast from 0 in 2 chunks down the DGX-1's doubled ring
    // 0 1 3 2 6 7 5 4, chunk 1 a step behind chunk 0: valid on single links.
    let ring = [0, 1, 3, 2, 6, 7, 5, 4];
    let mut text =
        String::from("network: dgx1\nports: all\ncollective: broadcast 0\nchunks: 2\nsends:\n");
    for hop in 1..ring.len() {
        let (from, to) = (ring[hop - 1], ring[hop]);
        text += &format!("{hop} {from} {to} 0 *\n{} {from} {to} 0 * 1\n", hop + 1);
    }
    let path = file("ring.sched", &text);
    let timed = |network: Option<&str>| {
        let mut args = vec![
            "simulate",
            path.to_str().unwrap(),
            "--alpha",
            "1",
            "--beta",
            "1",
        ];
        if let Some(net) = network {
            args.extend(["--network", net]);
        }
        let run = txverify(&args);
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        run.stdout
    };
    // Both chunks are at the root at time 0. On `dgx1` each doubled link
    // carries the two at once: 7 hops of α + β = 2 each.
    let doubled = timed(None);
    assert!(doubled.contains("completion 14;"), "{doubled}");
    // On single links chunk 1 crosses each link after chunk 0: one α + β more.
    let single = timed(Some("edges examples/networks/dgx1.edges"));
    assert!(single.contains("completion 16;"), "{single}");
}

#[test]
fn no_timed_bound_is_claimed_where_the_replay_ignores_switch_limits() {
    // hub-and-spoke 3: each GPU sends and receives one chunk a step, so the
    // allgather takes 2 steps; timed, every GPU sends both chunks at once.
    let path = file(
        "hub3.sched",
        "network: hub-and-spoke 3\nports: all\ncollective: allgather\nsends:\n\
         1 0 1 0 *\n1 1 2 1 *\n1 2 0 2 *\n2 0 2 0 *\n2 1 0 1 *\n2 2 1 2 *\n",
    );
    let run = txverify(&[
        "simulate",
        path.to_str().unwrap(),
        "--alpha",
        "1",
        "--beta",
        "1",
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Done in one α + β: a step bound of 2 made into time (4) would not hold.
    assert!(run.stdout.contains("completion 2\n"), "{}", run.stdout);
    assert!(!run.stdout.contains("lower bound"), "{}", run.stdout);
    assert!(run.stdout.contains("switch limits"), "{}", run.stdout);
}

#[test]
fn a_fabric_with_its_own_link_times_is_timed_without_the_flags() {
    // Link 0–1 takes 5 + 1 per message; link 1–2 gives no time: 0.
    let edges = file("own.edges", "0 1 alpha=5 beta=1\n1 2\n");
    let schedule = format!(
        "network: edges {}\nports: all\ncollective: allgather\nsends:\n\
         1 0 1 0 *\n1 1 0 1 *\n2 1 2 0 *\n2 2 1 2 *\n3 1 0 2 *\n3 1 2 1 *\n",
        edges.display()
    );
    let path = file("own.sched", &schedule);
    let run = txverify(&["simulate", path.to_str().unwrap()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // 1 → 0 carries block 1 and then block 2, 6 each.
    assert!(run.stdout.contains("completion 12;"), "{}", run.stdout);
}
