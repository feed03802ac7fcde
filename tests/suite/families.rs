//! `txverify net` families against graphs built here from their combinatorial
//! definitions (permutations, bit strings with a position, coordinates), never
//! through groups: order, degree, diameter and status must agree with the
//! metrics of the header's Cayley graph, and with closed forms where they exist.

use crate::common;

use common::cli::{Run, documented_fields, field_paths, txverify};
use std::collections::{HashMap, VecDeque};
use txverify_clients::bounds::instance_report;
use txverify_core::families::Family;
use txverify_core::load::load;

/// An explicit graph: a neighbour function over nodes numbered by a map.
struct Explicit {
    nodes: usize,
    degree: usize,
    diameter: u32,
    status: u64,
}

/// BFS from `start` over `neighbours`, numbering nodes as they are found.
fn explore<N: Clone + Eq + std::hash::Hash>(
    start: N,
    neighbours: impl Fn(&N) -> Vec<N>,
) -> Explicit {
    let mut distance: HashMap<N, u32> = HashMap::from([(start.clone(), 0)]);
    let mut queue = VecDeque::from([start.clone()]);
    let mut degree = 0;
    while let Some(u) = queue.pop_front() {
        let next = neighbours(&u);
        if u == start {
            degree = next
                .iter()
                .enumerate()
                .filter(|(i, v)| !next[..*i].contains(v))
                .count();
        }
        let d = distance[&u];
        for v in next {
            if !distance.contains_key(&v) {
                distance.insert(v.clone(), d + 1);
                queue.push_back(v);
            }
        }
    }
    Explicit {
        nodes: distance.len(),
        degree,
        diameter: distance.values().copied().max().unwrap_or(0),
        status: distance.values().map(|&d| u64::from(d)).sum(),
    }
}

fn star(n: usize) -> Explicit {
    explore((0..n).collect::<Vec<_>>(), |p| {
        (1..n)
            .map(|i| {
                let mut q = p.clone();
                q.swap(0, i);
                q
            })
            .collect()
    })
}

fn pancake(n: usize) -> Explicit {
    explore((0..n).collect::<Vec<_>>(), |p| {
        (2..=n)
            .map(|i| {
                let mut q = p.clone();
                q[..i].reverse();
                q
            })
            .collect()
    })
}

fn ccc(d: usize) -> Explicit {
    explore((0u32, 0usize), |&(x, p)| {
        vec![(x, (p + 1) % d), (x, (p + d - 1) % d), (x ^ (1 << p), p)]
    })
}

fn butterfly(d: usize) -> Explicit {
    explore((0u32, 0usize), |&(x, l)| {
        let up = (l + 1) % d;
        let down = (l + d - 1) % d;
        vec![
            (x, up),
            (x ^ (1 << l), up),
            (x, down),
            (x ^ (1 << down), down),
        ]
    })
}

/// Coordinates; `complete` joins any two values of a coordinate, otherwise ±1
/// with wrap-around.
fn product(sides: &[usize], complete: bool) -> Explicit {
    explore(vec![0usize; sides.len()], |c| {
        let mut out = Vec::new();
        for (i, &n) in sides.iter().enumerate() {
            let others: Vec<usize> = if complete {
                (1..n).collect()
            } else {
                vec![1, n - 1]
            };
            for delta in others {
                let mut d = c.clone();
                d[i] = (c[i] + delta) % n;
                if d != *c && !out.contains(&d) {
                    out.push(d);
                }
            }
        }
        out
    })
}

fn check_family(name: &str, sizes: &[u64], explicit: Explicit) {
    let family = Family::new(name, sizes).unwrap();
    let loaded = load(&family.header(), &Default::default())
        .unwrap_or_else(|e| panic!("{name} {sizes:?}: {e:?}"));
    assert_eq!(
        family.order(),
        explicit.nodes as u64,
        "{name} {sizes:?}: closed-form order"
    );
    let m = instance_report("family", &loaded.instance, loaded.network.as_ref(), 1).unwrap();
    let what = format!("{name} {sizes:?}");
    assert_eq!(m.order, explicit.nodes as u64, "{what}: order");
    assert_eq!(m.degree, explicit.degree as u64, "{what}: degree");
    assert_eq!(m.diameter, u64::from(explicit.diameter), "{what}: diameter");
    assert_eq!(m.status, explicit.status, "{what}: status");
    assert_eq!(
        m.single_port_bound, explicit.status,
        "{what}: single-port bound"
    );
}

#[test]
fn star_and_pancake_graphs() {
    for n in 3..=6u64 {
        let s = star(n as usize);
        assert_eq!(s.diameter, (3 * (n as u32 - 1)) / 2, "star {n}: ⌊3(n−1)/2⌋");
        check_family("star", &[n], s);
        let p = pancake(n as usize);
        assert_eq!(p.diameter, [0, 0, 1, 3, 4, 5, 7][n as usize], "pancake {n}");
        check_family("pancake", &[n], p);
    }
}

#[test]
fn cube_connected_cycles_and_butterflies() {
    for d in 3..=5u64 {
        let c = ccc(d as usize);
        let closed = if d == 3 { 6 } else { 2 * d + d / 2 - 2 };
        assert_eq!(u64::from(c.diameter), closed, "ccc {d}");
        check_family("ccc", &[d], c);
        let b = butterfly(d as usize);
        assert_eq!(u64::from(b.diameter), d + d / 2, "butterfly {d}");
        check_family("butterfly", &[d], b);
    }
}

#[test]
fn rings_hypercubes_tori_and_kary() {
    for n in [3u64, 4, 7, 10] {
        let r = product(&[n as usize], false);
        assert_eq!(r.status, n * n / 4, "ring {n}: ⌊n²/4⌋");
        check_family("ring", &[n], r);
    }
    for d in 1..=5u64 {
        let h = product(&vec![2; d as usize], false);
        assert_eq!(h.status, d << (d - 1), "hypercube {d}: d·2^(d−1)");
        check_family("hypercube", &[d], h);
    }
    check_family("torus", &[3, 4], product(&[3, 4], false));
    check_family("torus", &[2, 3, 5], product(&[2, 3, 5], false));
    check_family("kary", &[3, 3], product(&[3, 3, 3], false));
}

#[test]
fn complete_graphs_and_generalised_hypercubes() {
    for n in 2..=6u64 {
        let k = product(&[n as usize], true);
        assert_eq!((k.diameter, k.status), (1, n - 1), "complete {n}");
        check_family("complete", &[n], k);
    }
    check_family("genhypercube", &[2, 3], product(&[2, 3], true));
    check_family("genhypercube", &[3, 3, 4], product(&[3, 3, 4], true));
}

#[test]
fn headers_name_their_network_where_one_applies() {
    let network = |name: &str, sizes: &[u64]| {
        let header = Family::new(name, sizes).unwrap().header();
        let loaded = load(&header, &Default::default()).unwrap();
        loaded.network.map(|n| n.to_string())
    };
    assert_eq!(network("ring", &[6]).as_deref(), Some("ring 6"));
    assert_eq!(network("hypercube", &[3]).as_deref(), Some("hypercube 3"));
    assert_eq!(network("kary", &[4, 2]).as_deref(), Some("torus 4 4"));
    assert_eq!(network("star", &[4]), None);
}

#[test]
fn net_writes_headers_that_check_and_bounds_accept() {
    let dir = std::env::temp_dir().join(format!("txverify-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("torus.tbl");
    let path = file.to_str().unwrap();
    let Run {
        code, stderr: err, ..
    } = txverify(&["net", "torus", "4", "4", "-o", path]);
    assert_eq!(code, 0, "{err}");
    let Run {
        code, stdout: out, ..
    } = txverify(&["bounds", "--format", "json", path]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["schema"], "txverify-bounds/4");
    // The 4 × 4 torus: 16 nodes, degree 4, diameter 4, status 32 (= 2 · 16), the
    // kernel's all-port bound 8, the cut bound 8 · 8 / 8 = 8.
    for (field, value) in [
        ("order", 16),
        ("degree", 4),
        ("diameter", 4),
        ("status", 32),
        ("single_port_bound", 32),
        ("all_port_bound", 8),
    ] {
        assert_eq!(report[field], value, "{field}");
    }
    assert_eq!(report["cut_bound"]["value"], 8);
    // A file's report is the schema's (its product fields null).
    let documented = documented_fields("## Schema `txverify-bounds/4`");
    let fields = field_paths(&report);
    assert!(fields.is_subset(&documented), "{fields:?}");
    assert_eq!(report["file"], path);
    assert_eq!(report["table_bound"], 8, "the kernel's bound for tables");
    assert_eq!(report["all_port"]["best"]["value"], 8);
    assert_eq!(report["average_distance"], 32.0 / 15.0);
    let Run {
        code, stdout: out, ..
    } = txverify(&["bounds", "--ports", "3", "--format", "json", path]);
    assert_eq!(code, 0);
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["single_port_bound"], 11, "⌈32 / 3⌉");
}

#[test]
fn bad_families_and_sizes_are_input_errors() {
    for args in [
        &["net", "moebius", "4"][..],
        &["net", "star", "1"],
        &["net", "star", "12"],
        &["net", "torus"],
        &["net", "ring", "3", "4"],
    ] {
        let Run {
            code,
            stdout: out,
            stderr: err,
        } = txverify(args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

/// Status from node 0 of a schedule network, by its own distances.
fn schedule_status(name: &str) -> (usize, u64) {
    let graph = name
        .parse::<txverify_core::network::NetworkName>()
        .unwrap()
        .build()
        .unwrap();
    let status = (0..graph.nodes() as u32)
        .map(|x| u64::from(graph.distances_to(x)[0]))
        .sum();
    (graph.nodes(), status)
}

#[test]
fn schedules_run_on_the_same_families() {
    let explicit = |e: Explicit| (e.nodes, e.status);
    assert_eq!(schedule_status("star 4"), explicit(star(4)));
    assert_eq!(schedule_status("pancake 5"), explicit(pancake(5)));
    assert_eq!(schedule_status("ccc 4"), explicit(ccc(4)));
    assert_eq!(schedule_status("butterfly 3"), explicit(butterfly(3)));
    assert_eq!(
        schedule_status("genhypercube 2 3 4"),
        explicit(product(&[2, 3, 4], true))
    );
    assert_eq!(
        schedule_status("kary 3 3"),
        explicit(product(&[3, 3, 3], false))
    );
}

#[test]
fn k_ports_above_the_degree_bound_like_all_ports() {
    // The 8-ring: degree 2, status 16. Five ports are no more than two: the
    // K-port bound is 8, the all-port one, not ⌈16 / 5⌉ = 4.
    let dir = std::env::temp_dir().join(format!("txverify-ports-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ring8.tbl");
    let path = file.to_str().unwrap();
    assert_eq!(txverify(&["net", "ring", "8", "-o", path]).code, 0);
    let run = txverify(&["bounds", "--ports", "5", "--format", "json", path]);
    assert_eq!(run.code, 0);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
    assert_eq!(report["ports"], 5);
    assert_eq!(report["single_port_bound"], 8);
    assert_eq!(report["all_port_bound"], 8);
    let text = txverify(&["bounds", "--ports", "5", path]).stdout;
    assert!(text.contains("single-port bound  8 (5-port"), "{text}");
}
