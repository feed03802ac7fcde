//! `search` on fabrics (docs/collectives.md and docs/networks.md, "Search on
//! fabrics"): the formulas take link capacities, switch limits and
//! forward-only nodes; what is found replays VALID on the fabric; a time is
//! refuted where a doubled link is what makes it possible; a switch has no
//! data and needs none; certificates name the fabric, not only its links.

use super::common::cli::{file, txverify};

/// `search ARGS… -o FILE`: the run and the schedule's send lines as
/// `[step, from, to, source]` (the destination `*` of an item left out).
fn search_written(args: &[&str], name: &str) -> (super::common::cli::Run, Vec<[u32; 4]>) {
    let out = file(name, "");
    let mut all: Vec<&str> = vec!["search"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["-o", out.to_str().unwrap()]);
    let run = txverify(&all);
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    let sends = text
        .lines()
        .filter_map(|line| {
            let words: Vec<u32> = line
                .split_whitespace()
                .take(4)
                .map_while(|w| w.parse().ok())
                .collect();
            <[u32; 4]>::try_from(words).ok()
        })
        .collect();
    (run, sends)
}

/// `simulate FILE --network NET`: its exit code and output.
fn simulated(name: &str, network: &str) -> super::common::cli::Run {
    let path = std::env::temp_dir()
        .join(format!("txverify-test-{}", std::process::id()))
        .join(
            std::thread::current()
                .name()
                .unwrap_or("t")
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        )
        .join(name);
    txverify(&["simulate", path.to_str().unwrap(), "--network", network])
}

#[test]
fn schedules_found_on_fabrics_replay_valid_on_them() {
    for (network, collective, chunks, steps) in [
        // The doubled NVLink pairs: SCCL's least steps in 2 chunks.
        ("dgx1", "allgather", "2", 3),
        // One send out and one in a node a step: 3 receipts each.
        ("hub-and-spoke 4", "allgather", "1", 3),
        ("hub-and-spoke 4", "allreduce", "1", 0),
    ] {
        let name = format!("{}-{collective}.sched", network.replace(' ', "-"));
        let (run, sends) = search_written(
            &[
                "--network",
                network,
                "--collective",
                collective,
                "--chunks",
                chunks,
            ],
            &name,
        );
        assert_eq!(
            run.code, 0,
            "{network} {collective}: {}{}",
            run.stdout, run.stderr
        );
        assert!(!sends.is_empty(), "{network}: {}", run.stdout);
        if steps > 0 {
            let last = sends.iter().map(|s| s[0]).max().unwrap();
            assert_eq!(last, steps, "{network}: {}", run.stdout);
            // The fabric's throughput bound proves it least.
            assert!(
                run.stdout
                    .contains(&format!("lower bound {steps} (throughput)"))
                    && run.stdout.contains("OPTIMAL"),
                "{}",
                run.stdout
            );
        }
        let replayed = simulated(&name, network);
        assert_eq!(
            replayed.code, 0,
            "{network}: {}{}",
            replayed.stdout, replayed.stderr
        );
        assert!(
            replayed.stdout.contains("verdict      VALID"),
            "{}",
            replayed.stdout
        );
    }
    // The total exchange, through a switch.
    let (run, _) = search_written(&["--network", "nvswitch 3"], "nvswitch-3.sched");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let replayed = simulated("nvswitch-3.sched", "nvswitch 3");
    assert!(
        replayed.stdout.contains("verdict      VALID"),
        "{}",
        replayed.stdout
    );
}

#[test]
fn a_doubled_link_makes_a_step_fewer_and_capacity_one_refutes_it() {
    let doubled = file("doubled.edges", "0 1 2\n");
    let single = file("single.edges", "0 1\n");
    let search = |path: &std::path::Path, time: Option<&str>, name: &str| {
        let net = format!("edges {}", path.display());
        let mut args = vec![
            "--network",
            &net,
            "--collective",
            "allgather",
            "--chunks",
            "2",
        ];
        if let Some(t) = time {
            args.extend_from_slice(&["--time", t]);
        }
        search_written(&args, name)
    };
    // Both chunks of each node cross the doubled link at once: 1 step.
    let (run, sends) = search(&doubled, None, "doubled.sched");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(sends.iter().map(|s| s[0]).max(), Some(1), "{}", run.stdout);
    // At capacity 1 the formula of 1 step is refuted; 2 steps it takes.
    let (run, _) = search(&single, Some("1"), "single-1.sched");
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("T=1: infeasible"), "{}", run.stdout);
    let (run, sends) = search(&single, None, "single.sched");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(sends.iter().map(|s| s[0]).max(), Some(2), "{}", run.stdout);
}

#[test]
fn the_graph_digest_of_a_certificate_covers_the_fabric() {
    use txverify_core::network::NetworkName;
    use txverify_search::schedule::certificate::graph_digest;
    let graph = |words: &str| words.parse::<NetworkName>().unwrap().build().unwrap();
    let fabric = graph("dgx1");
    let links = graph("edges examples/networks/dgx1.edges");
    assert_eq!(fabric.neighbours(0), links.neighbours(0));
    assert_ne!(graph_digest(&fabric), graph_digest(&links));
    // Without a fabric, the digest is what it always was.
    assert_eq!(
        graph_digest(&graph("ring 4")),
        graph_digest(&graph("ring 4"))
    );
}

#[test]
fn a_switch_neither_sends_data_of_its_own_nor_needs_any() {
    // nvswitch 2: GPUs 0 and 1 on switch 2, which does not copy.
    let (run, sends) = search_written(
        &[
            "--network",
            "nvswitch 2",
            "--collective",
            "allgather",
            "--chunks",
            "2",
        ],
        "switch-allgather.sched",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(!sends.is_empty());
    // Each item is a GPU's, and reaches the other GPU (no send ends at the
    // switch without going on).
    assert!(sends.iter().all(|s| s[3] < 2), "{sends:?}");
    let into = |node: u32| sends.iter().filter(|s| s[2] == node).count();
    assert_eq!(into(2), 4, "{sends:?}");
    assert_eq!(into(0) + into(1), 4, "{sends:?}");
    // The total exchange: no message from or to the switch.
    let (run, sends) = search_written(&["--network", "nvswitch 2"], "switch-exchange.sched");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(sends.len(), 4, "{sends:?}");
    // A rooted collective cannot start at the switch.
    let run = txverify(&[
        "search",
        "--network",
        "nvswitch 2",
        "--collective",
        "broadcast 2",
    ]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.contains("switch"), "{}", run.stderr);
}

#[test]
fn certificates_on_a_fabric_verify_and_name_its_capacities() {
    let doubled = file("doubled.edges", "0 1 2\n");
    let single = file("single.edges", "0 1\n");
    let dir = file("certificates", "");
    std::fs::remove_file(&dir).unwrap();
    let net = format!("edges {}", doubled.display());
    let run = txverify(&[
        "search",
        "--network",
        &net,
        "--collective",
        "allgather",
        "--chunks",
        "4",
        "--time",
        "1",
        "--certificate",
        dir.to_str().unwrap(),
    ]);
    // Below the bound (4 chunks over 2 a step: 2 steps) SAT refutes the time asked for, with a
    // certificate of the fabric.
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("T=1: infeasible"), "{}", run.stdout);
    let dir_arg = dir.to_str().unwrap();
    let run = txverify(&["verify-proof", "--network", &net, dir_arg]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The same links at capacity 1 are another network: even the formula of
    // 0 steps, which has no send to differ by, is not theirs.
    let plain = format!("edges {}", single.display());
    let run = txverify(&["verify-proof", "--network", &plain, dir_arg]);
    assert_ne!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

#[test]
fn allgather_on_a_switch_without_multicast_sends_once_per_destination() {
    // nvswitch 4: each GPU sends each chunk to the switch once per other GPU
    // (3 a chunk), the switch forwards each copy the next step: 3·C + 1 steps,
    // the fill bound (the switch starts empty, so a GPU's one link in is idle
    // at step 1): OPTIMAL.
    for chunks in [1u32, 2] {
        let c = chunks.to_string();
        let name = format!("nvswitch-4-{chunks}.sched");
        let (run, sends) = search_written(
            &[
                "--network",
                "nvswitch 4",
                "--collective",
                "allgather",
                "--chunks",
                &c,
            ],
            &name,
        );
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(!run.stdout.contains("SAT skipped"), "{}", run.stdout);
        assert!(
            run.stdout
                .contains(&format!("lower bound {} (fill)", 3 * chunks + 1)),
            "{}",
            run.stdout
        );
        assert!(run.stdout.contains("OPTIMAL"), "{}", run.stdout);
        let last = sends.iter().map(|s| s[0]).max();
        assert_eq!(last, Some(3 * chunks + 1), "{sends:?}");
        // Into the switch: every GPU's every chunk three times.
        assert_eq!(
            sends.iter().filter(|s| s[2] == 4).count() as u32,
            4 * 3 * chunks
        );
        let replayed = simulated(&name, "nvswitch 4");
        assert_eq!(replayed.code, 0, "{}{}", replayed.stdout, replayed.stderr);
    }
}

#[test]
fn reduce_scatter_through_one_switch_sums_there_and_meets_the_fill_bound() {
    // The dual of the allgather's rotation: each GPU sends one contribution
    // to the switch a step, the switch forwards each chunk's sum once, the
    // step after its last contribution: 7·C + 1 steps on nvswitch 8.
    for chunks in [1u32, 5] {
        let c = chunks.to_string();
        let name = format!("nvswitch-rs-{chunks}.sched");
        let args = ["--network", "nvswitch 8", "--collective", "reduce-scatter"];
        let (run, sends) = search_written(
            &[&args[..], &["--chunks", &c, "--heuristic"]].concat(),
            &name,
        );
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("summed there"), "{}", run.stdout);
        assert!(run.stdout.contains("OPTIMAL"), "{}", run.stdout);
        assert_eq!(sends.iter().map(|s| s[0]).max(), Some(7 * chunks + 1));
        // Out of the switch: one sum a chunk and GPU.
        assert_eq!(
            sends.iter().filter(|s| s[1] == 8).count() as u32,
            8 * chunks
        );
        let replayed = simulated(&name, "nvswitch 8");
        assert_eq!(replayed.code, 0, "{}{}", replayed.stdout, replayed.stderr);
    }
}

#[test]
fn sat_counts_a_non_copying_switch_s_copies_and_refutes_what_it_cannot_forward() {
    // Broadcast from 0 through the switch of nvswitch 3 (by hand): the switch
    // forwards each copy once, and the root's link to it carries one a step,
    // so GPUs 1 and 2 cannot both have the chunk at step 2 (a switch that
    // copies would do it); in 3 steps the root sends it twice. The bounds say
    // 2, so SAT decides, and certifies the refutation of 2.
    let marker = file("marker", "");
    let dir = marker.parent().unwrap().join("switch-broadcast-certs");
    let args = ["--network", "nvswitch 3", "--collective", "broadcast 0"];
    let (run, sends) = search_written(&args, "switch-broadcast.sched");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("found        time 3"), "{}", run.stdout);
    assert!(run.stdout.contains("T=2: infeasible"), "{}", run.stdout);
    assert_eq!(sends.iter().filter(|s| s[1] == 0).count(), 2, "{sends:?}");
    let replayed = simulated("switch-broadcast.sched", "nvswitch 3");
    assert_eq!(replayed.code, 0, "{}{}", replayed.stdout, replayed.stderr);
    let run = txverify(
        &[
            &["search"][..],
            &args,
            &["--time", "2", "--certificate", dir.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let run = txverify(
        &[
            &["verify-proof"][..],
            &["--network", "nvswitch 3", "--collective", "broadcast 0"],
            &[dir.to_str().unwrap()],
        ]
        .concat(),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // Links of capacity 2 to and from a switch that does not copy: each GPU
    // sends two copies of its block in one step, the switch forwards them
    // the next: an allgather of 3 GPUs in 2 steps, found by SAT.
    let edges = file("switch-doubled.edges", "0 3 2\n1 3 2\n2 3 2\nswitch: 3\n");
    let net = format!("edges {}", edges.display());
    let (run, sends) = search_written(
        &[
            "--network",
            &net,
            "--collective",
            "allgather",
            "--time",
            "2",
        ],
        "switch-doubled.sched",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(sends.iter().filter(|s| s[2] == 3).count(), 6, "{sends:?}");
    let replayed = simulated("switch-doubled.sched", &net);
    assert_eq!(replayed.code, 0, "{}{}", replayed.stdout, replayed.stderr);
}

/// The last step of `sends` (0 without any).
fn last_step(sends: &[[u32; 4]]) -> u32 {
    sends.iter().map(|s| s[0]).max().unwrap_or(0)
}

#[test]
fn two_machines_cross_their_nics_as_a_pipeline_and_spread_behind_them() {
    // Two DGX-1s, one NIC each way of capacity 1: 8C items enter a machine, one
    // a step; the last is then at one GPU of degree 4, two steps from the rest
    // of its machine: 8C + 2 steps (the bound 8C plus the pipeline's fill).
    let cluster = "cluster 2 1 dgx1";
    for (collective, name) in [
        ("allgather", "cluster-ag.sched"),
        ("reduce-scatter", "cluster-rs.sched"),
    ] {
        let (run, sends) = search_written(
            &[
                "--network",
                cluster,
                "--collective",
                collective,
                "--chunks",
                "2",
                "--heuristic",
            ],
            name,
        );
        assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
        assert!(run.stdout.contains("by machines"), "{}", run.stdout);
        let last = last_step(&sends);
        assert!(
            (1..=8 * 2 + 2).contains(&last),
            "{collective}: {last}\n{}",
            run.stdout
        );
        let replayed = simulated(name, cluster);
        assert!(
            replayed.stdout.contains("verdict      VALID"),
            "{}",
            replayed.stdout
        );
    }
    // The same fabric as msccl-tools' JSON: the machines are read from its
    // switch limits, not from a name, and the schedule is the same.
    let json = txverify(&["net", cluster]);
    assert_eq!(json.code, 0, "{}", json.stderr);
    let topology = file("cluster.json", &json.stdout);
    let (run, from_json) = search_written(
        &[
            "--network",
            topology.to_str().unwrap(),
            "--collective",
            "allgather",
            "--chunks",
            "2",
            "--heuristic",
        ],
        "cluster-json.sched",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let (_, named) = search_written(
        &[
            "--network",
            cluster,
            "--collective",
            "allgather",
            "--chunks",
            "2",
            "--heuristic",
        ],
        "cluster-named.sched",
    );
    assert!(!from_json.is_empty());
    assert_eq!(from_json, named);
}

#[test]
fn two_switches_joined_switch_to_switch_get_a_schedule() {
    // GPUs 0-7 on switch 16, 8-15 on switch 17, the switches joined at
    // capacity 2; the switches do not copy. Every GPU takes in 15 items over
    // its one link (the bound 15); nothing is down from a switch at step 1,
    // and an item crosses the switches' link before it goes down: 15 + 3.
    let mut text = String::from("switch: 16 17\n");
    for g in 0..16 {
        text += &format!("{g} {}\n", 16 + g / 8);
    }
    text += "16 17 2\n";
    let edges = file("two-switches.edges", &text);
    let network = format!("edges {}", edges.display());
    let (run, sends) = search_written(
        &[
            "--network",
            &network,
            "--collective",
            "allgather",
            "--chunks",
            "1",
            "--heuristic",
        ],
        "two-switches.sched",
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // The throughput bound 15, one step of fill (the switches start empty),
    // and one more: with every GPU's link in busy from step 2 on, each switch
    // would pass on just what its GPUs upload, and nothing would cross.
    assert!(
        run.stdout.contains("lower bound 17 (saturated switches)"),
        "{}",
        run.stdout
    );
    let last = last_step(&sends);
    assert!((17..=18).contains(&last), "{last}\n{}", run.stdout);
    let replayed = simulated("two-switches.sched", &network);
    assert!(
        replayed.stdout.contains("verdict      VALID"),
        "{}",
        replayed.stdout
    );
}

#[test]
fn sat_refutes_one_step_below_the_saturated_switch_bound_and_the_construction_meets_it() {
    // Two switches of 2 GPUs each and three switches on a path of 2 each,
    // switch to switch: every GPU's one link in is busy from step 2 on at
    // the fill bound, so nothing could cross: the bound is the fill + 1.
    for (name, text, chunks, bound) in [
        (
            "two-by-two.edges",
            "switch: 4 5\n0 4\n1 4\n2 5\n3 5\n4 5\n",
            "1",
            5,
        ),
        (
            "two-by-two.edges",
            "switch: 4 5\n0 4\n1 4\n2 5\n3 5\n4 5\n",
            "2",
            8,
        ),
        (
            "three-by-two.edges",
            "switch: 6 7 8\n0 6\n1 6\n2 7\n3 7\n4 8\n5 8\n6 7\n7 8\n",
            "1",
            7,
        ),
    ] {
        let network = format!("edges {}", file(name, text).display());
        let args = ["search", "--network", &network, "--collective", "allgather"];
        let below = (bound - 1).to_string();
        let refuted = txverify(&[&args[..], &["--chunks", chunks, "--time", &below]].concat());
        assert!(
            refuted.stdout.contains(&format!("T={below}: infeasible")),
            "{network}: {}{}",
            refuted.stdout,
            refuted.stderr
        );
        let found =
            txverify(&[&args[..], &["--chunks", chunks, "--heuristic", "--quiet"]].concat());
        assert!(
            found
                .stdout
                .contains(&format!("lower bound {bound} (saturated switches)")),
            "{}",
            found.stdout
        );
    }
}
