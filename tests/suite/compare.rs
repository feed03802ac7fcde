//! `txverify compare NET…`: the figures of each row against graphs built here
//! (rings, grids, the Petersen graph as the Kneser graph K(5, 2), the star
//! graph from permutations; distances by breadth-first search), the best
//! times against lower bounds computed here and the kernel's time of the
//! embedded table, and the CSV and SVG forms against the JSON one.

use crate::common;

use common::cli::{documented_fields, field_paths, file, txverify};
use common::graphs::{lists, total_distance};
use std::collections::BTreeMap;

/// The cycle on `m` nodes.
fn ring(m: usize) -> Vec<Vec<usize>> {
    lists(m, &(0..m).map(|i| (i, (i + 1) % m)).collect::<Vec<_>>())
}

/// The `a × b` grid without wrap-around.
fn grid(a: usize, b: usize) -> Vec<Vec<usize>> {
    let mut edges = Vec::new();
    for y in 0..b {
        for x in 0..a {
            if x + 1 < a {
                edges.push((x + a * y, x + 1 + a * y));
            }
            if y + 1 < b {
                edges.push((x + a * y, x + a * (y + 1)));
            }
        }
    }
    lists(a * b, &edges)
}

/// The Petersen graph: 2-subsets of {0…4}, joined when disjoint.
fn petersen() -> (Vec<(usize, usize)>, Vec<Vec<usize>>) {
    let pairs: Vec<(usize, usize)> = (0..5)
        .flat_map(|i| (i + 1..5).map(move |j| (i, j)))
        .collect();
    let mut edges = Vec::new();
    for (u, &(a, b)) in pairs.iter().enumerate() {
        for (v, &(c, d)) in pairs.iter().enumerate().skip(u + 1) {
            if a != c && a != d && b != c && b != d {
                edges.push((u, v));
            }
        }
    }
    let adj = lists(10, &edges);
    (edges, adj)
}

/// The star graph on permutations of 4: p joined to p with its first entry
/// swapped with entry i.
fn star4() -> Vec<Vec<usize>> {
    let mut perms: Vec<Vec<u8>> = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let p = vec![a, b, c, d];
                    let mut q = p.clone();
                    q.sort_unstable();
                    q.dedup();
                    if q.len() == 4 {
                        perms.push(p);
                    }
                }
            }
        }
    }
    let index: BTreeMap<Vec<u8>, usize> = perms
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), i))
        .collect();
    perms
        .iter()
        .map(|p| {
            (1..4)
                .map(|i| {
                    let mut q = p.clone();
                    q.swap(0, i);
                    index[&q]
                })
                .collect()
        })
        .collect()
}

/// Nodes, links, least and largest degree, diameter, Σ d over ordered pairs.
fn figures(adj: &[Vec<usize>]) -> (u64, u64, u64, u64, u64, u64) {
    let n = adj.len();
    let (total, diameter) = total_distance(adj);
    let degrees = adj.iter().map(|l| l.len() as u64);
    let links = adj.iter().map(|l| l.len() as u64).sum::<u64>() / 2;
    (
        n as u64,
        links,
        degrees.clone().min().unwrap(),
        degrees.max().unwrap(),
        diameter,
        total,
    )
}

fn compare_json(networks: &[&str]) -> (i32, Vec<serde_json::Value>) {
    let mut args = vec!["compare"];
    args.extend(networks);
    args.extend(["--format", "json"]);
    let run = txverify(&args);
    let rows = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (run.code, rows)
}

#[test]
fn rows_agree_with_graphs_built_here_and_times_respect_the_bounds() {
    let (edges, petersen_adj) = petersen();
    let text: String = edges.iter().map(|(u, v)| format!("{u} {v}\n")).collect();
    let path = file("petersen.edges", &text);
    let petersen_name = format!("edges {}", path.display());
    let cases = [
        ("ring 6", ring(6)),
        ("mesh 3 4", grid(3, 4)),
        ("star 4", star4()),
        (petersen_name.as_str(), petersen_adj),
    ];
    let names: Vec<&str> = cases.iter().map(|c| c.0).collect();
    let (code, rows) = compare_json(&names);
    assert_eq!(code, 0, "{rows:?}");
    assert_eq!(rows.len(), cases.len());
    for ((name, adj), row) in cases.iter().zip(&rows) {
        let (n, links, dmin, dmax, diameter, total) = figures(adj);
        assert_eq!(row["schema"], "txverify-compare/1");
        assert_eq!(row["nodes"].as_u64(), Some(n), "{name}");
        assert_eq!(row["links"].as_u64(), Some(links), "{name}");
        assert_eq!(row["degree_min"].as_u64(), Some(dmin), "{name}");
        assert_eq!(row["degree_max"].as_u64(), Some(dmax), "{name}");
        assert_eq!(row["diameter"].as_u64(), Some(diameter), "{name}");
        let average = total as f64 / (n * (n - 1)) as f64;
        assert!((row["average_distance"].as_f64().unwrap() - average).abs() < 1e-9);
        // All-port: every hop uses a directed link a step; single-port: a node
        // sends one packet a step.
        let all_port = row["all_port_bound"].as_u64().unwrap();
        let single_port = row["single_port_bound"].as_u64().unwrap();
        assert!(all_port >= total.div_ceil(2 * links), "{name}");
        assert!(single_port >= total.div_ceil(n), "{name}");
        for (best, bound) in [
            ("best_all_port", all_port),
            ("best_single_port", single_port),
        ] {
            let time = row[best]["time"]
                .as_u64()
                .unwrap_or_else(|| panic!("{name}: {row}"));
            assert!(time >= bound, "{name}: {best} {time} < {bound}");
            assert!(row[best]["source"].is_string());
        }
    }
    // The ring of 6: the cut bound ⌈⌊6/2⌋⌈6/2⌉ / 2⌉ = 5, which the ring table meets.
    assert_eq!(rows[0]["all_port_bound"], 5);
    assert_eq!(rows[0]["best_all_port"]["time"], 5);
    // The star graph: the embedded optimal table, with the kernel's time.
    let check = txverify(&["check", "tables/found/star4.tbl", "--format", "json"]);
    let checked: serde_json::Value = serde_json::from_str(check.stdout.trim()).unwrap();
    assert_eq!(rows[2]["best_all_port"]["source"], "tables/found/star4.tbl");
    assert_eq!(rows[2]["best_all_port"]["time"], checked["time"]);
    // Single-port on a Cayley graph: the FIFO algorithm meets the status, Σ d / n.
    let (_, _, _, _, _, star_total) = figures(&star4());
    assert_eq!(
        rows[2]["best_single_port"]["time"].as_u64(),
        Some(star_total / 24)
    );
    assert_eq!(rows[2]["best_single_port"]["source"], "FIFO algorithm");
}

#[test]
fn csv_and_svg_carry_the_json_figures() {
    let networks = ["ring 5", "torus 3 3", "hypercube 3"];
    let (code, rows) = compare_json(&networks);
    assert_eq!(code, 0);
    let mut args = vec!["compare"];
    args.extend(networks);
    let csv = txverify(&[args.as_slice(), &["--format", "csv"]].concat());
    assert_eq!(csv.code, 0);
    let mut lines = csv.stdout.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(header.len(), 13);
    let records: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(records.len(), rows.len());
    for (record, row) in records.iter().zip(&rows) {
        assert_eq!(record.len(), header.len(), "{record:?}");
        let field = |name: &str| record[header.iter().position(|h| *h == name).unwrap()];
        assert_eq!(field("network"), row["network"].as_str().unwrap());
        for key in [
            "nodes",
            "links",
            "diameter",
            "all_port_bound",
            "single_port_bound",
        ] {
            assert_eq!(field(key), row[key].to_string(), "{key}");
        }
        assert_eq!(
            field("best_all_port_time"),
            row["best_all_port"]["time"].to_string()
        );
        assert_eq!(
            field("best_single_port_source"),
            row["best_single_port"]["source"].as_str().unwrap()
        );
    }
    let svg = txverify(&[args.as_slice(), &["--format", "svg"]].concat());
    assert_eq!(svg.code, 0);
    let doc = roxmltree::Document::parse(&svg.stdout).expect("well-formed SVG");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    let bars: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("data-value").is_some())
        .collect();
    // Two panels, a bound and a best time per network in each.
    assert_eq!(bars.len(), 4 * rows.len());
    for row in &rows {
        let network = row["network"].as_str().unwrap();
        let value = |ports: &str, class: &str| -> u64 {
            let bar = bars
                .iter()
                .find(|b| {
                    b.attribute("data-network") == Some(network)
                        && b.attribute("data-ports") == Some(ports)
                        && b.attribute("class") == Some(class)
                })
                .unwrap_or_else(|| panic!("{network} {ports} {class}"));
            bar.attribute("data-value").unwrap().parse().unwrap()
        };
        assert_eq!(
            value("all-port", "bound"),
            row["all_port_bound"].as_u64().unwrap()
        );
        assert_eq!(
            Some(value("all-port", "best")),
            row["best_all_port"]["time"].as_u64()
        );
        assert_eq!(
            value("single-port", "bound"),
            row["single_port_bound"].as_u64().unwrap()
        );
        assert_eq!(
            Some(value("single-port", "best")),
            row["best_single_port"]["time"].as_u64()
        );
    }
}

#[test]
fn a_bad_network_is_an_input_error_and_the_others_are_still_compared() {
    let missing = "edges no-such-file.edges";
    let (code, rows) = compare_json(&["ring 4", "moebius 3", missing]);
    assert_eq!(code, 2);
    assert_eq!(rows.len(), 3);
    assert_eq!(rows[0]["nodes"], 4);
    for row in &rows[1..] {
        assert_eq!(row["exit_code"], 2, "{row}");
        assert!(row["error"]["message"].is_string());
    }
    let text = txverify(&["compare", "ring 4", missing]);
    assert_eq!(text.code, 2);
    assert!(
        text.stderr.contains("no-such-file.edges"),
        "{}",
        text.stderr
    );
    assert!(text.stdout.contains("ring 4"));
}

#[test]
fn every_field_is_documented_and_every_documented_field_written() {
    let (_, rows) = compare_json(&["ring 4"]);
    assert_eq!(
        field_paths(&rows[0]),
        documented_fields("## Schema `txverify-compare/1`")
    );
}
