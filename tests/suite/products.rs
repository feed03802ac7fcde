//! `txverify compose a1|a2 NET`: seed 000's product algorithms, each schedule
//! replayed on the product graph. The expected times are computed here from
//! the seed's formulas and from breadth-first searches of the factor graphs,
//! not taken from the binary's report.

use crate::common;

use common::cli::{documented_fields, field_paths, txverify};
use txverify_core::network::NetworkName;

fn compose(algorithm: &str, network: &str) -> (i32, serde_json::Value) {
    let mut args = vec!["compose", algorithm];
    args.extend(network.split_whitespace());
    args.extend(["--format", "json"]);
    let run = txverify(&args);
    let report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{network}: not one JSON object ({e}): {}", run.stdout));
    (run.code, report)
}

/// Σ_v s(v) over a named graph, by breadth-first search from every node.
fn total_status(network: &str) -> u64 {
    let graph = network.parse::<NetworkName>().unwrap().build().unwrap();
    (0..graph.nodes() as u32)
        .map(|v| {
            graph
                .distances_to(v)
                .iter()
                .map(|&d| u64::from(d))
                .sum::<u64>()
        })
        .sum()
}

/// A factor's single-port total-exchange time as the seed and txverify's docs
/// state it: the average status for a Cayley factor (ring, complete graph, two
/// nodes), m − 1 + ⌊(m−1)²/2⌋ for a linear array (the node-load bound).
fn single_port_time(factor: &str) -> u64 {
    let words: Vec<&str> = factor.split_whitespace().collect();
    let m: u64 = words[1].parse().unwrap();
    if words[0] == "linear" && m > 2 {
        m - 1 + (m - 1) * (m - 1) / 2
    } else {
        total_status(factor) / m
    }
}

/// The all-port time of the factor algorithms: the cut bound ⌊m/2⌋⌈m/2⌉/C
/// rounded up, C = 2 links for a ring of at least 3 nodes, 1 otherwise.
fn all_port_time(factor: &str) -> u64 {
    let words: Vec<&str> = factor.split_whitespace().collect();
    let m: u64 = words[1].parse().unwrap();
    let crossing = if words[0] == "ring" && m >= 3 { 2 } else { 1 };
    ((m / 2) * (m - m / 2)).div_ceil(crossing)
}

#[test]
fn a1_meets_corollary_3_and_is_optimal_on_products_of_cayley_graphs() {
    for (network, factors) in [
        ("torus 4 3", vec!["ring 4", "ring 3"]),
        ("mesh 3 5", vec!["linear 3", "linear 5"]),
        ("genhypercube 3 4", vec!["complete 3", "complete 4"]),
        ("hypercube 5", vec!["linear 2"; 5]),
    ] {
        let (code, report) = compose("a1", network);
        let sizes: Vec<u64> = factors
            .iter()
            .map(|f| f.split_whitespace().nth(1).unwrap().parse().unwrap())
            .collect();
        let n: u64 = sizes.iter().product();
        // Corollary 3: T = n Σ T_i / |V_i|.
        let theorem: u64 = factors
            .iter()
            .zip(&sizes)
            .map(|(f, &m)| n / m * single_port_time(f))
            .sum();
        assert_eq!(code, 0, "{network}: {report}");
        assert_eq!(report["valid"], true, "{network}");
        assert_eq!(report["time"], theorem, "{network}");
        assert_eq!(report["theorem_time"], theorem, "{network}");
        assert_eq!(report["nodes"], n);
        // Every packet travels a shortest path: Σ distances sends in all.
        assert_eq!(report["transmissions"], total_status(network), "{network}");
        let cayley = !network.starts_with("mesh");
        assert_eq!(report["theorem_optimal"], cayley, "{network}");
        if cayley {
            // Theorem 3: the time is the average status, computed on the product graph.
            assert_eq!(theorem * n, total_status(network), "{network}");
            assert_eq!(report["lower_bound"]["value"], theorem);
            assert_eq!(report["lower_bound"]["kind"], "average-status");
            assert_eq!(report["optimal"], true, "{network}");
        }
    }
}

#[test]
fn a2_meets_corollary_4_and_the_cut_bound_where_theorem_5_says_so() {
    for (network, factor, dimensions) in [
        ("torus 6 6", "ring 6", 2),
        ("mesh 4 4", "linear 4", 2),
        ("torus 3 3 3 3", "ring 3", 4),
        ("hypercube 4", "linear 2", 4),
    ] {
        let (code, report) = compose("a2", network);
        let m: u64 = factor.split_whitespace().nth(1).unwrap().parse().unwrap();
        let t_h = all_port_time(factor);
        let theorem = m.pow(dimensions - 1) * t_h;
        assert_eq!(code, 0, "{network}: {report}");
        assert_eq!(report["valid"], true, "{network}");
        assert_eq!(report["time"], theorem, "{network}");
        assert_eq!(report["theorem_time"], theorem, "{network}");
        assert_eq!(report["transmissions"], total_status(network), "{network}");
        // Theorem 5 needs T_H to equal the cut fraction exactly: not for the
        // 6-ring (4.5 rounded up to 5).
        let exact_cut = factor != "ring 6";
        assert_eq!(report["theorem_optimal"], exact_cut, "{network}");
        if exact_cut {
            assert_eq!(report["lower_bound"]["value"], theorem, "{network}");
            assert_eq!(report["optimal"], true, "{network}");
        } else {
            // The 6 × 6 torus: the bisection bound 18 · 18 / 12 = 27 < 30.
            assert_eq!(report["lower_bound"]["value"], 27);
            assert_eq!(report["optimal"], false);
        }
    }
}

#[test]
fn a1_composes_any_cayley_factor_through_the_fifo_algorithm() {
    // star 4 × ring 3, written as a product: both factors meet their status, so
    // by Theorem 3 the product meets its average status.
    let network = "star 4 x ring 3";
    let (code, report) = compose("a1", network);
    let n = 72;
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["valid"], true);
    assert_eq!(report["factors"][0]["method"], "fifo");
    assert_eq!(report["theorem_optimal"], true);
    assert_eq!(report["time"].as_u64().unwrap() * n, total_status(network));
    assert_eq!(report["optimal"], true);
}

#[test]
fn a2_on_halves_of_equal_size_that_differ_takes_n_times_the_slower_half() {
    // mesh 4 2 2 = L4 × (L2 × L2): T_A = 4, T_B = 2 · 1 (A2 on L2 × L2).
    let (code, report) = compose("a2", "mesh 4 2 2");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["theorem"], "section 6");
    assert_eq!(report["theorem_time"], 4 * 4);
    assert_eq!(report["time"], 4 * 4);
    assert_eq!(report["valid"], true);
    // ring 4 × linear 4: T_A = 2 (the ring table), T_B = 4 (the path's cut).
    let (code, report) = compose("a2", "ring 4 x linear 4");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["theorem_time"], 4 * 4);
    assert_eq!(report["time"], 4 * 4);
    assert_eq!(report["theorem_optimal"], false);
}

#[test]
fn the_status_formula_agrees_with_search_and_cuts_are_reported() {
    let (_, report) = compose("a1", "torus 4 3");
    assert_eq!(report["status_by_theorem_agrees"], true);
    let n = 12.0;
    let average = total_status("torus 4 3") as f64 / n;
    assert_eq!(report["average_status"].as_f64(), Some(average));
    // Every bisection of the 4 × 3 torus tried: the best is at least the
    // one-dimension cut.
    let exhaustive = report["exhaustive_cut"]["value"].as_f64().unwrap();
    let dimension = report["dimension_cut"]["value"].as_f64().unwrap();
    assert!(exhaustive >= dimension, "{report}");
}

#[test]
fn a_written_schedule_replays_again_and_a_broken_one_is_rejected() {
    let dir = std::env::temp_dir().join(format!("txverify-products-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mesh44.json");
    let out = txverify(&[
        "compose",
        "a2",
        "mesh",
        "4",
        "4",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let again = txverify(&["simulate", path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(again.code, 0, "{}", again.stderr);
    let replayed: serde_json::Value = serde_json::from_str(again.stdout.trim()).unwrap();
    assert_eq!(replayed["time"], 16);

    // Drop the last send: that packet is never delivered.
    let mut schedule: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    schedule["sends"].as_array_mut().unwrap().pop();
    let broken = dir.join("broken.json");
    std::fs::write(&broken, schedule.to_string()).unwrap();
    let rejected = txverify(&["simulate", broken.to_str().unwrap()]);
    assert_eq!(rejected.code, 1, "{}", rejected.stdout);
    assert!(
        rejected.stdout.contains("never-delivered"),
        "{}",
        rejected.stdout
    );
}

#[test]
fn one_node_networks_compose_to_an_empty_schedule() {
    for (algorithm, network) in [
        ("a1", "hypercube 0"),
        ("a2", "hypercube 0"),
        ("a1", "mesh 1 1"),
    ] {
        let (code, report) = compose(algorithm, network);
        assert_eq!(code, 0, "{network}: {report}");
        assert_eq!(report["nodes"], 1, "{network}");
        assert_eq!(report["time"], 0, "{network}");
        assert_eq!(report["valid"], true, "{network}");
    }
}

#[test]
fn networks_that_are_not_products_or_cannot_be_halved_are_input_errors() {
    for (algorithm, network) in [
        ("a2", "hypercube 5"),
        ("a2", "torus 4 3"),
        ("a1", "moebius 4"),
        ("a1", "torus 4 x"),
    ] {
        let (code, report) = compose(algorithm, network);
        assert_eq!(code, 2, "{network}: {report}");
        assert!(report["error"]["message"].is_string(), "{report}");
    }
}

#[test]
fn every_field_is_documented_and_every_documented_field_written() {
    let (_, report) = compose("a1", "torus 4 3");
    assert_eq!(
        field_paths(&report),
        documented_fields("## Schema `txverify-compose/1`")
    );
}

fn network_bounds(network: &str) -> (i32, serde_json::Value) {
    let run = txverify(&["bounds", "--network", network, "--format", "json"]);
    let report = serde_json::from_str(run.stdout.trim())
        .unwrap_or_else(|e| panic!("{network}: not one JSON object ({e}): {}", run.stdout));
    (run.code, report)
}

#[test]
fn bounds_of_products_agree_with_theorem_1_and_corollary_2() {
    for network in [
        "torus 4 3",
        "mesh 3 5",
        "genhypercube 3 4",
        "hypercube 5",
        "mesh 2 3 4",
    ] {
        let (code, report) = network_bounds(network);
        assert_eq!(code, 0, "{network}: {report}");
        assert_eq!(report["statuses_agree"], true, "{network}");
        let total = total_status(network);
        assert_eq!(report["total_status"], total, "{network}");
        assert_eq!(report["total_status_by_theorem"], total, "{network}");
        let n = report["order"].as_u64().unwrap();
        assert_eq!(report["single_port_bound"], total.div_ceil(n), "{network}");
        if let Some(exhaustive) = report["exhaustive_cut"]["value"].as_f64() {
            assert!(exhaustive >= report["dimension_cut"]["value"].as_f64().unwrap());
        }
    }
}

#[test]
fn the_generalised_hypercube_average_distance_has_the_closed_form_of_section_3_1() {
    for sides in [[3, 4], [2, 5], [4, 4]] {
        let network = format!("genhypercube {} {}", sides[0], sides[1]);
        let (_, report) = network_bounds(&network);
        let n = f64::from(sides[0] * sides[1]);
        let searched = total_status(&network) as f64 / (n * (n - 1.0));
        let closed = report["average_distance_closed_form"].as_f64().unwrap();
        assert!(
            (closed - searched).abs() < 1e-12,
            "{network}: {closed} vs {searched}"
        );
    }
}

#[test]
fn every_network_bounds_field_is_documented() {
    // A plain network's report and a fabric's (with its `fabric` object),
    // two levels deep: the rows of the items of an array (`a[].b`) are deeper.
    let (_, plain) = network_bounds("genhypercube 3 4");
    let (_, fabric) = network_bounds("nvswitch 4");
    let mut fields = field_paths(&plain);
    fields.extend(field_paths(&fabric));
    let documented: std::collections::BTreeSet<String> =
        documented_fields("## Schema `txverify-bounds/4`")
            .into_iter()
            .filter(|f| !f.contains("[]"))
            .collect();
    assert_eq!(fields, documented);
}

#[test]
fn a_product_whose_cut_is_not_computed_says_so_and_never_cut_0() {
    // ccc 3 has 24 nodes: no factor cut by enumeration, but its cube
    // dimension splits it 12 · 12 over 4 links: 36, above the link load 25.
    let (code, report) = network_bounds("ccc 3");
    assert_eq!(code, 0);
    assert_eq!(report["all_port_bound"], 36);
    assert_eq!(report["dimension_cut"]["steps"], 36);
    let text = txverify(&["bounds", "--network", "ccc 3"]).stdout;
    assert!(!text.contains("cut 0"), "{text}");
    assert!(text.contains("one-dimension cut 36"), "{text}");
    // A factor of more than 20 nodes that is not a Cayley graph either way:
    // the complete graph's halves still give a cut; none of the reports
    // prints a cut of 0 steps.
    // One node: no cut at all, and the report says so.
    let text = txverify(&["bounds", "--network", "linear 1"]).stdout;
    assert!(text.contains("one-dimension cut not computed"), "{text}");
    for network in ["complete 21", "linear 21", "ring 30", "linear 1"] {
        let text = txverify(&["bounds", "--network", network]).stdout;
        assert!(!text.contains("cut 0"), "{network}: {text}");
    }
}

#[test]
fn the_k_port_bound_of_a_product_uses_no_more_ports_than_links() {
    // mesh 3 5: corners have degree 2, so 5 ports are at most the degree at
    // every node: the bound is the all-port link load, not ⌈AS(G) / 5⌉.
    let run = txverify(&[
        "bounds",
        "--network",
        "mesh 3 5",
        "--ports",
        "5",
        "--format",
        "json",
    ]);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let total = total_status("mesh 3 5");
    let links = 2 * (2 * 5 + 3 * 4);
    assert_eq!(report["single_port_bound"], total.div_ceil(links));
    assert!(report["single_port_bound"].as_u64() <= report["all_port_bound"].as_u64());
}

#[test]
fn compose_says_which_model_each_bound_is_for() {
    // One port on a path: the node load of node 1 (its own 3 messages and
    // 2 · 2 forwarded) is 7, above the average status 5; the composed time
    // meets it, as every command's bound for linear 4 under one port says.
    let run = txverify(&["compose", "a1", "linear", "4"]);
    assert!(
        run.stdout
            .contains("lower bound 7 (node-load, for any 1-port schedule on linear 4)"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("verdict: optimal"), "{}", run.stdout);
    assert!(
        run.stdout.contains("(cut bound 4, any port model)"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_factor_over_the_fifo_limit_is_refused_as_input_not_reported_as_a_bug() {
    // S_7 has 5,040 nodes: its FIFO run would record more sends than the limit.
    let (code, report) = compose("a1", "star 7");
    assert_eq!(code, 2, "{report}");
    let message = report["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("more than the limit"), "{message}");
}

/// The time `txverify check` (the kernel) gives a table of the repository.
fn table_time(path: &str) -> u64 {
    let run = txverify(&["check", path, "--format", "json"]);
    assert_eq!(run.code, 0, "{path}: {}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(report["messages"]["mode"], "total", "{path}");
    report["time"].as_u64().unwrap()
}

#[test]
fn a2_takes_the_optimal_embedded_factor_tables_of_star_4_and_ccc_3() {
    for (network, factor, table) in [
        ("star 4 x star 4", "star 4", "tables/found/star4.tbl"),
        ("ccc 3 x ccc 3", "ccc 3", "tables/found/ccc3.tbl"),
    ] {
        let t_h = table_time(table);
        let n = factor
            .parse::<NetworkName>()
            .unwrap()
            .build()
            .unwrap()
            .nodes() as u64;
        let (code, report) = compose("a2", network);
        assert_eq!(code, 0, "{network}: {report}");
        assert_eq!(report["valid"], true);
        for f in report["factors"].as_array().unwrap() {
            assert_eq!(f["source"], table, "{network}: {f}");
            assert_eq!(f["method"], "table");
            assert_eq!(f["time"].as_u64(), Some(t_h));
            // The greedy schedule was tried too, and is slower.
            let greedy = f["candidates"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["method"] == "greedy")
                .unwrap_or_else(|| panic!("{network}: no greedy candidate: {f}"));
            assert!(greedy["time"].as_u64().unwrap() > t_h, "{f}");
        }
        // Theorem 4: n·T_H with n = |H|.
        assert_eq!(report["theorem_time"].as_u64(), Some(n * t_h), "{network}");
        assert_eq!(report["time"].as_u64(), Some(n * t_h), "{network}");
    }
}

#[test]
fn a1_keeps_the_fifo_factor_when_the_tables_need_more_ports() {
    // star4.tbl uses three ports a step: not a single-port schedule.
    let (code, report) = compose("a1", "star 4 x ring 3");
    assert_eq!(code, 0, "{report}");
    assert_eq!(report["factors"][0]["source"], "FIFO algorithm");
    let sources: Vec<&str> = report["factors"][0]["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["source"].as_str().unwrap())
        .collect();
    assert!(!sources.contains(&"tables/found/star4.tbl"), "{sources:?}");
}

#[test]
fn edge_list_factors_compose_with_the_theorems_times() {
    // K4 minus one link: nodes 0 and 2 are not joined.
    let edges = common::cli::file("diamond.edges", "0 1\n1 2\n2 3\n3 0\n1 3\n");
    let network = format!("edges {} x ring 4", edges.display());
    for algorithm in ["a1", "a2"] {
        let run = txverify(&["compose", algorithm, &network, "--format", "json"]);
        let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(run.code, 0, "{algorithm}: {report}");
        assert_eq!(report["valid"], true);
        assert_eq!(report["nodes"], 16);
        let f = report["factors"].as_array().unwrap();
        assert_eq!(f[0]["method"], "greedy", "{report}");
        let (t_a, t_b) = (
            f[0]["time"].as_u64().unwrap(),
            f[1]["time"].as_u64().unwrap(),
        );
        // Theorem 2: |A|·T_B + |B|·T_A; A2: n·max(T_A, T_B), |A| = |B| = 4.
        let theorem = if algorithm == "a1" {
            4 * t_b + 4 * t_a
        } else {
            4 * t_a.max(t_b)
        };
        assert_eq!(report["time"].as_u64(), Some(theorem), "{algorithm}");
        assert_eq!(report["theorem_time"].as_u64(), Some(theorem));
    }
    let missing = txverify(&["compose", "a1", "edges no-such.edges x ring 4"]);
    assert_eq!(missing.code, 2);
    assert!(
        missing.stderr.contains("no-such.edges"),
        "{}",
        missing.stderr
    );
}

/// A node map from graph `a` onto graph `b` (adjacency lists) that keeps every
/// link, found by backtracking over the nodes in breadth-first order from
/// node 0 (sent to node 0: the graphs here are vertex-transitive), or `None`.
fn isomorphism(a: &[Vec<u32>], b: &[Vec<u32>]) -> Option<Vec<u32>> {
    let n = a.len();
    if n != b.len() || (0..n).any(|x| a[x].len() != b[0].len() || b[x].len() != b[0].len()) {
        return None;
    }
    let mut order = vec![0usize];
    let mut seen = vec![false; n];
    seen[0] = true;
    let mut i = 0;
    while i < order.len() {
        for &y in &a[order[i]] {
            if !seen[y as usize] {
                seen[y as usize] = true;
                order.push(y as usize);
            }
        }
        i += 1;
    }
    let mut map = vec![u32::MAX; n];
    let mut used = vec![false; n];
    fn extend(
        k: usize,
        order: &[usize],
        a: &[Vec<u32>],
        b: &[Vec<u32>],
        map: &mut [u32],
        used: &mut [bool],
    ) -> bool {
        let Some(&x) = order.get(k) else {
            return true;
        };
        for y in 0..b.len() as u32 {
            let fits = !used[y as usize]
                && a[x].iter().all(|&z| {
                    let image = map[z as usize];
                    image == u32::MAX || b[y as usize].contains(&image)
                })
                && (0..a.len()).all(|z| {
                    map[z] == u32::MAX
                        || a[x].contains(&(z as u32)) == b[y as usize].contains(&map[z])
                });
            if fits {
                map[x] = y;
                used[y as usize] = true;
                if extend(k + 1, order, a, b, map, used) {
                    return true;
                }
                map[x] = u32::MAX;
                used[y as usize] = false;
            }
        }
        false
    }
    extend(0, &order, a, b, &mut map, &mut used).then_some(map)
}

#[test]
fn net_writes_product_headers_whose_cayley_graph_is_the_product_graph() {
    for (network, torus) in [
        ("star 3 x ring 4", None),
        ("ring 4 x ring 3", Some("torus 4 3")),
        ("star 3 x star 3", None),
        ("ccc 3 x complete 3", None),
    ] {
        let written = txverify(&["net", network]);
        assert_eq!(written.code, 0, "{network}: {}", written.stderr);
        let header = written.stdout;
        // The header loads: bounds reads it, and check finds no input error.
        let path = common::cli::file("product.tbl", &header);
        let path = path.to_str().unwrap();
        let bounds = txverify(&["bounds", path, "--format", "json"]);
        assert_eq!(bounds.code, 0, "{network}: {}", bounds.stderr);
        assert_ne!(txverify(&["check", path]).code, 2, "{network}");
        let network_line = header
            .lines()
            .find_map(|l| l.strip_prefix("network: "))
            .map(str::trim);
        assert_eq!(network_line, torus, "{network}");
        // Its Cayley graph, computed from the presentation, against the
        // product graph of the network layer.
        let loaded = txverify_core::load::load(&header, &Default::default()).unwrap();
        let (group, links) = (loaded.instance.group(), loaded.instance.links());
        let cayley: Vec<Vec<u32>> = group
            .elements()
            .map(|g| links.iter().map(|&s| group.apply(g, s).0).collect())
            .collect();
        let product = network.parse::<NetworkName>().unwrap().build().unwrap();
        let built: Vec<Vec<u32>> = (0..product.nodes() as u32)
            .map(|x| product.neighbours(x).to_vec())
            .collect();
        let map = isomorphism(&cayley, &built)
            .unwrap_or_else(|| panic!("{network}: the header's Cayley graph is not the product"));
        for (x, list) in cayley.iter().enumerate() {
            for &y in list {
                assert!(built[map[x] as usize].contains(&map[y as usize]));
            }
        }
        if network == "star 3 x star 3" {
            // C6 × C6 is not C4 × C9 (7 nodes at distance 2, not 8): the search can say no.
            let other = "torus 4 9".parse::<NetworkName>().unwrap().build().unwrap();
            let other: Vec<Vec<u32>> = (0..36).map(|x| other.neighbours(x).to_vec()).collect();
            assert!(isomorphism(&cayley, &other).is_none());
        }
    }
}

#[test]
fn net_refuses_products_with_factors_that_are_not_cayley_graphs() {
    let edges = common::cli::file("square.edges", "0 1\n1 2\n2 3\n3 0\n");
    for network in [
        "linear 3 x ring 4".to_string(),
        "mesh 2 3 x ring 3".to_string(),
        format!("edges {} x ring 4", edges.display()),
        "ring 4 x edges no-such.edges".to_string(),
    ] {
        let run = txverify(&["net", &network]);
        assert_eq!(run.code, 2, "{network}: {}", run.stdout);
        assert!(
            run.stderr.contains("is not a Cayley graph"),
            "{network}: {}",
            run.stderr
        );
        assert!(run.stdout.is_empty());
    }
}

#[test]
fn a_schedule_finds_its_edge_list_factor_relative_to_itself() {
    let edges = common::cli::file("triangle.edges", "0 1\n1 2\n2 0\n");
    let schedule = edges.parent().unwrap().join("composed.json");
    let schedule = schedule.to_str().unwrap();
    let network = format!("edges {} x ring 4", edges.display());
    let composed = txverify(&["compose", "a1", &network, "-o", schedule]);
    assert_eq!(composed.code, 0, "{}", composed.stderr);
    let text = std::fs::read_to_string(schedule).unwrap();
    assert!(text.contains(&network));
    std::fs::write(
        schedule,
        text.replace(&network, "edges triangle.edges x ring 4"),
    )
    .unwrap();
    // The tests run from the crate's root, where there is no triangle.edges.
    let run = txverify(&["simulate", schedule]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("12 nodes"), "{}", run.stdout);
}
