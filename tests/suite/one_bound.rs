//! One lower bound per graph and model: every command that states a lower
//! bound for total exchange on a network — `bounds --network`, `bounds FILE`,
//! `compare`, `search --network`, `compose`, `hypercube exchange` and
//! `simulate --algorithm fifo` — states the same value for the same graph
//! and the same port model, because each asks the core's bounds for it.
//! The value is also checked against the distance bound counted here, so a
//! bound that every command got wrong the same way in that direction fails.

use crate::common::cli::{file, txverify};

const BARBELL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/networks/barbell.edges");

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.extend_from_slice(&["--format", "json"]);
    let run = txverify(&all);
    serde_json::from_str(run.stdout.lines().next().unwrap_or_default())
        .unwrap_or_else(|e| panic!("{all:?}: {e}: {}{}", run.stdout, run.stderr))
}

/// `bounds --network NET --ports 1`: the all-port and the single-port bound.
fn stated(network: &str) -> (u64, u64) {
    let r = json(&["bounds", "--network", network, "--ports", "1"]);
    assert_eq!(r["schema"], "txverify-bounds/4", "{r}");
    let all = r["all_port_bound"].as_u64().unwrap();
    let one = r["ports_bound"].as_u64().unwrap();
    assert_eq!(r["all_port"]["best"]["value"], all, "{network}");
    assert_eq!(r["all_port"]["best"]["model"]["ports"], "all", "{network}");
    assert_eq!(r["ports_bounds"]["best"]["value"], one, "{network}");
    assert_eq!(r["ports_bounds"]["best"]["model"]["ports"], 1, "{network}");
    (all, one)
}

/// Σ over all ordered pairs of their distance, and the directed links, by a
/// breadth-first search of the graph built here.
fn distances(network: &str) -> (u64, u64) {
    let graph = network
        .parse::<txverify_core::network::NetworkName>()
        .unwrap()
        .build()
        .unwrap();
    let n = graph.nodes() as u32;
    let mut total = 0u64;
    for x in 0..n {
        let mut dist = vec![u64::MAX; n as usize];
        let mut queue = std::collections::VecDeque::from([x]);
        dist[x as usize] = 0;
        while let Some(y) = queue.pop_front() {
            for &z in graph.neighbours(y) {
                if dist[z as usize] == u64::MAX {
                    dist[z as usize] = dist[y as usize] + 1;
                    queue.push_back(z);
                }
            }
        }
        total += dist.iter().sum::<u64>();
    }
    (total, graph.directed_links() as u64)
}

/// The networks, with whether they are Cayley graphs `net` writes a header
/// for (then `bounds FILE` and the FIFO algorithm run on them too).
const NETWORKS: [(&str, bool); 5] = [
    ("ring 8", true),
    ("torus 4 4", true),
    ("hypercube 3", true),
    ("star 3 x ring 3", true),
    ("", false), // the edge list shipped with the tests
];

fn networks() -> Vec<(String, bool)> {
    NETWORKS
        .iter()
        .map(|&(name, cayley)| {
            let name = if name.is_empty() {
                format!("edges {BARBELL}")
            } else {
                name.to_string()
            };
            (name, cayley)
        })
        .collect()
}

#[test]
fn bounds_compare_and_search_state_the_same_bound() {
    for (network, _) in networks() {
        let (all, one) = stated(&network);
        let (hops, links) = distances(&network);
        let n = json(&["bounds", "--network", &network])["order"]
            .as_u64()
            .unwrap();
        // The distance bounds counted here: no stated bound is below them.
        assert!(all >= hops.div_ceil(links), "{network}: {all}");
        assert!(one >= hops.div_ceil(n), "{network}: {one}");
        assert!(one >= all, "{network}: one port is never faster");
        let row = json(&["compare", &network]);
        assert_eq!(row["all_port_bound"], all, "compare {network}");
        assert_eq!(row["single_port_bound"], one, "compare {network}");
        let search = json(&["search", "--network", &network, "--heuristic"]);
        assert_eq!(search["lower_bound"], all, "search --network {network}");
        assert_eq!(search["ports"], "all");
    }
}

#[test]
fn a_file_and_the_fifo_algorithm_state_the_bound_of_their_network() {
    for (network, cayley) in networks() {
        if !cayley {
            continue;
        }
        let (all, one) = stated(&network);
        let header = txverify(&["net", &network]);
        assert_eq!(header.code, 0, "{network}: {}", header.stderr);
        let path = file("network.tbl", &header.stdout);
        let path = path.to_str().unwrap();
        let r = json(&["bounds", path, "--ports", "1"]);
        assert_eq!(r["schema"], "txverify-bounds/4", "{network}");
        assert_eq!(r["all_port_bound"], all, "bounds FILE of {network}");
        assert_eq!(r["ports_bound"], one, "bounds FILE of {network}");
        // The FIFO algorithm's total exchange: `status` is the bound it is
        // judged against, single-port and all-port.
        let single = json(&["simulate", "--algorithm", "fifo", path]);
        assert_eq!(single["status"], one, "fifo on {network}: {single}");
        let every = json(&["simulate", "--algorithm", "fifo", path, "--ports", "all"]);
        assert_eq!(
            every["status"], all,
            "fifo --ports all on {network}: {every}"
        );
    }
}

#[test]
fn compose_and_hypercube_state_the_same_bound() {
    for network in ["ring 8", "torus 4 4", "hypercube 3", "star 3 x ring 3"] {
        let (all, one) = stated(network);
        let words: Vec<&str> = network.split(' ').collect();
        let mut a1 = vec!["compose", "a1"];
        a1.extend(&words);
        assert_eq!(
            json(&a1)["lower_bound"]["value"],
            one,
            "compose a1 {network}"
        );
        let mut a2 = vec!["compose", "a2"];
        a2.extend(&words);
        let report = json(&a2);
        // A2 needs dimensions that halve again and again (not hypercube 3).
        if report["error"].is_null() {
            assert_eq!(report["lower_bound"]["value"], all, "compose a2 {network}");
        }
    }
    let (all, _) = stated("hypercube 3");
    let cube = json(&["hypercube", "exchange", "3"]);
    assert_eq!(cube["time_bound"], all);
}

#[test]
fn the_edge_list_bound_is_its_middle_link() {
    // Three nodes on each side of the path's middle link would need 3 · 4
    // messages over one link each way: 12 steps, above ⌈92 / 16⌉ = 6.
    let (all, one) = stated(&format!("edges {BARBELL}"));
    assert_eq!(all, 12);
    assert_eq!(distances(&format!("edges {BARBELL}")), (92, 16));
    // Single-port: ⌈92 / 7⌉ = 14.
    assert_eq!(one, 14);
}
