//! The LP bound's certificates (`bounds --network NET --lp-certificate FILE`,
//! `verify-bound --network NET FILE`): every certificate written is checked
//! here by a Dijkstra of this file's own, on graphs built here; a hand-made
//! weight vector gives a weaker bound that still holds (below the LP bound
//! and below the time of a valid schedule); each way a certificate can be
//! malformed is refused with a message and exit 2.

use super::common::cli::{documented_fields, field_paths, file, txverify};
use super::common::graphs::{edge_list, kneser_petersen, random_cubic};
use std::collections::{BTreeMap, BinaryHeap};

/// ⌈Σ_{s≠t} d_w(s, t) / Σ w⌉ by Dijkstra over `weights` (directed links
/// u → v; links not listed weigh 0), on the undirected `edges` of `n` nodes.
fn bound_by_hand(
    n: usize,
    edges: &[(usize, usize)],
    weights: &BTreeMap<(usize, usize), u64>,
) -> u64 {
    let mut out = vec![Vec::new(); n];
    for &(u, v) in edges {
        for (a, b) in [(u, v), (v, u)] {
            out[a].push((b, u128::from(*weights.get(&(a, b)).unwrap_or(&0))));
        }
    }
    let total: u128 = weights.values().map(|&w| u128::from(w)).sum();
    let mut sum = 0u128;
    for s in 0..n {
        let mut dist = vec![u128::MAX; n];
        dist[s] = 0;
        let mut heap = BinaryHeap::from([std::cmp::Reverse((0u128, s))]);
        while let Some(std::cmp::Reverse((d, x))) = heap.pop() {
            if d > dist[x] {
                continue;
            }
            for &(y, w) in &out[x] {
                if d + w < dist[y] {
                    dist[y] = d + w;
                    heap.push(std::cmp::Reverse((d + w, y)));
                }
            }
        }
        sum += dist.iter().sum::<u128>();
    }
    u64::try_from(sum.div_ceil(total)).unwrap()
}

/// The certificate's weights as a map, each pair checked to be a link.
fn certificate_weights(
    path: &std::path::Path,
    edges: &[(usize, usize)],
) -> BTreeMap<(usize, usize), u64> {
    let text = std::fs::read_to_string(path).unwrap();
    let c: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(c["schema"], "txverify-lp-bound/1");
    let mut map = BTreeMap::new();
    for entry in c["weights"].as_array().unwrap() {
        let u = entry[0].as_u64().unwrap() as usize;
        let v = entry[1].as_u64().unwrap() as usize;
        let w = entry[2].as_u64().unwrap();
        assert!(edges.contains(&(u.min(v), u.max(v))), "{u} {v} is a link");
        assert!(map.insert((u, v), w).is_none(), "{u} {v} once");
    }
    map
}

/// Undirected links, each once.
type Edges = Vec<(usize, usize)>;

fn ring(n: usize) -> Vec<(usize, usize)> {
    (0..n)
        .map(|i| (i.min((i + 1) % n), i.max((i + 1) % n)))
        .collect()
}

fn torus(a: usize, b: usize) -> Vec<(usize, usize)> {
    let mut edges = Vec::new();
    for y in 0..b {
        for x in 0..a {
            let p = x + a * y;
            for q in [(x + 1) % a + a * y, x + a * ((y + 1) % b)] {
                edges.push((p.min(q), p.max(q)));
            }
        }
    }
    edges
}

#[test]
fn certificates_are_checked_by_an_independent_dijkstra() {
    let mut failed = torus(4, 4);
    failed.retain(|&e| e != (0, 1) && e != (5, 9));
    let graphs: Vec<(&str, usize, Edges)> = vec![
        ("petersen", 10, kneser_petersen()),
        ("ring9", 9, ring(9)),
        ("torus44", 16, torus(4, 4)),
        ("failed", 16, failed),
        ("cubic", 24, random_cubic(24, 7)),
    ];
    for (name, n, edges) in graphs {
        let net = format!(
            "edges {}",
            file(&format!("{name}.edges"), &edge_list(&edges)).display()
        );
        let cert = file(&format!("{name}.lp.json"), "");
        let cert_s = cert.to_str().unwrap();
        let run = txverify(&[
            "bounds",
            "--network",
            &net,
            "--lp-certificate",
            cert_s,
            "--format",
            "json",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        let weights = certificate_weights(&cert, &edges);
        let by_hand = bound_by_hand(n, &edges, &weights);
        assert_eq!(report["lp_bound"]["value"], by_hand, "{name}");
        // It dominates the distance and cut bounds.
        assert!(
            by_hand >= report["link_load_bound"].as_u64().unwrap(),
            "{name}"
        );
        assert!(
            by_hand >= report["cut_bound"]["value"].as_u64().unwrap(),
            "{name}"
        );
        let set = &report["all_port_with_lp"];
        assert!(
            set["bounds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b["name"] == "lp" && b["value"] == by_hand)
        );
        // verify-bound recomputes the same.
        let run = txverify(&[
            "verify-bound",
            "--network",
            &net,
            cert_s,
            "--format",
            "json",
        ]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(v["schema"], "txverify-verify-bound/1");
        assert_eq!(v["bound"], by_hand, "{name}");
        assert_eq!(v["accepted"], true);
        let documented = documented_fields("## Schema `txverify-verify-bound/1`");
        assert!(field_paths(&v).is_subset(&documented), "{v}");
        let documented = documented_fields("## Schema `txverify-bounds/4`");
        assert!(field_paths(&report).is_subset(&documented), "{report}");
    }
}

#[test]
fn a_hand_made_weight_vector_gives_a_weaker_bound_that_holds() {
    // Ring 10: weight 3 on the clockwise links, 1 on two counter-clockwise
    // ones: not the optimum (uniform weights), but a bound all the same.
    let edges = ring(10);
    let net = format!(
        "edges {}",
        file("ring10.edges", &edge_list(&edges)).display()
    );
    let mut weights = BTreeMap::new();
    for i in 0..10 {
        weights.insert((i, (i + 1) % 10), 3u64);
    }
    weights.insert((1, 0), 1);
    weights.insert((6, 5), 1);
    let by_hand = bound_by_hand(10, &edges, &weights);
    let listed: Vec<String> = weights
        .iter()
        .map(|((u, v), w)| format!("[{u}, {v}, {w}]"))
        .collect();
    let cert = file(
        "hand.json",
        &format!(
            "{{\"schema\": \"txverify-lp-bound/1\", \"weights\": [{}]}}",
            listed.join(", ")
        ),
    );
    let run = txverify(&[
        "verify-bound",
        "--network",
        &net,
        cert.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let v: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(v["bound"], by_hand);
    // The optimised bound is at least as strong; a schedule found on the
    // ring takes at least either.
    let run = txverify(&["bounds", "--network", &net, "--format", "json"]);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let lp = report["lp_bound"]["value"].as_u64().unwrap();
    assert!(by_hand <= lp && by_hand > 0, "{by_hand} {lp}");
    let run = txverify(&[
        "search",
        "--network",
        &net,
        "--heuristic",
        "--format",
        "json",
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let search: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    let time = search["time"].as_u64().unwrap();
    assert!(by_hand <= time && lp <= time, "{by_hand} {lp} {time}");
    // Stating more than the weights prove is a rejected certificate.
    let lying = file(
        "lying.json",
        &format!(
            "{{\"schema\": \"txverify-lp-bound/1\", \"bound\": {}, \"weights\": [{}]}}",
            by_hand + 1,
            listed.join(", ")
        ),
    );
    let run = txverify(&["verify-bound", "--network", &net, lying.to_str().unwrap()]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("REJECTED"), "{}", run.stdout);
}

#[test]
fn malformed_certificates_are_refused_with_exit_2() {
    let net = format!(
        "edges {}",
        file("ring5.edges", &edge_list(&ring(5))).display()
    );
    let cases: [(&str, &str, &str); 9] = [
        (
            "json",
            "{\"schema\": \"txverify-lp-bound/1\",\n \"weights\": [[0, 1, 2]",
            ":2:",
        ),
        (
            "schema",
            "{\"schema\": \"txverify-lp-bound/9\", \"weights\": []}",
            "schema",
        ),
        (
            "notlink",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 2, 1]]}",
            "not a link",
        ),
        (
            "nonode",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 99, 1]]}",
            "not a link",
        ),
        (
            "negative",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 1, -1]]}",
            ":1:",
        ),
        (
            "fraction",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 1, 1.5]]}",
            ":1:",
        ),
        (
            "overflow",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 1, 18446744073709551616]]}",
            ":1:",
        ),
        (
            "duplicate",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 1, 1], [0, 1, 2]]}",
            "again",
        ),
        (
            "zero",
            "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 1, 0]]}",
            "every weight is 0",
        ),
    ];
    for (name, text, says) in cases {
        let cert = file(&format!("{name}.json"), text);
        let run = txverify(&["verify-bound", "--network", &net, cert.to_str().unwrap()]);
        assert_eq!(run.code, 2, "{name}: {}{}", run.stdout, run.stderr);
        assert!(run.stderr.contains(says), "{name}: {}", run.stderr);
        assert!(!run.stderr.contains("panicked"), "{name}");
        // The position is said once, as file:line:col.
        assert!(!run.stderr.contains(" at line "), "{name}: {}", run.stderr);
    }
    // The sum of the weights must fit in 64 bits.
    let heavy = file(
        "heavy.json",
        "{\"schema\": \"txverify-lp-bound/1\", \"weights\": [[0, 1, 18446744073709551615], [1, 0, 1]]}",
    );
    let run = txverify(&["verify-bound", "--network", &net, heavy.to_str().unwrap()]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stderr.contains("2^64"), "{}", run.stderr);
}
