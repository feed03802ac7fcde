//! Twisted tori (`net twisted`, `network: twisted …`, `bounds`) against graphs
//! built here from coordinates and the lattice of each shape's presentation,
//! never through the library's builder: the library graph must be this graph
//! node for node, and order, degree, diameter, status and the cut counts must
//! agree. Wrong shapes and mislabelled networks must be refused.

use crate::common;

use common::cli::{Run, file, txverify};
use std::collections::VecDeque;
use txverify_clients::bounds::instance_report;
use txverify_core::families::Family;
use txverify_core::load::load;
use txverify_core::network::NetworkName;

/// The lattice of a shape, one vector per dimension with that dimension as
/// pivot, read off the presentation `net twisted` writes: `b^k = a^k` is
/// `k·e2 − k·e1`, `a^k = c^k` is `k·e1 − k·e3`, `a^k = b^k c^k` is
/// `k·e1 − k·e2 − k·e3`, and `x^n = 1` is `n·e_x`. Reduced in this order.
fn lattice(sides: &[i64]) -> Vec<(usize, Vec<i64>)> {
    match *sides {
        [n1, k] => vec![(1, vec![-k, k]), (0, vec![n1, 0])],
        [k, k2, n3] if k == k2 => vec![
            (0, vec![k, 0, -k]),
            (1, vec![0, k, -k]),
            (2, vec![0, 0, n3]),
        ],
        [k, n2, n3] => vec![
            (0, vec![k, -k, -k]),
            (1, vec![0, n2, 0]),
            (2, vec![0, 0, n3]),
        ],
        _ => unreachable!("test shapes only"),
    }
}

/// The representative of `c` in the box `[0, N_i)`, by subtracting multiples
/// of the lattice vectors pivot by pivot.
fn reduce(sides: &[i64], c: &mut [i64]) {
    for (p, v) in lattice(sides) {
        let q = c[p].div_euclid(sides[p]);
        for (ci, vi) in c.iter_mut().zip(&v) {
            *ci -= q * vi;
        }
    }
}

/// Neighbour lists, nodes numbered mixed radix (first coordinate fastest).
fn graph(sides: &[i64]) -> Vec<Vec<usize>> {
    let n: i64 = sides.iter().product();
    let index = |c: &[i64]| {
        c.iter()
            .rev()
            .zip(sides.iter().rev())
            .fold(0, |a, (&ci, &s)| a * s + ci) as usize
    };
    (0..n)
        .map(|x| {
            let mut rest = x;
            let c: Vec<i64> = sides
                .iter()
                .map(|&s| {
                    let ci = rest % s;
                    rest /= s;
                    ci
                })
                .collect();
            let mut out = Vec::new();
            for i in 0..sides.len() {
                for delta in [1, -1] {
                    let mut d = c.clone();
                    d[i] += delta;
                    reduce(sides, &mut d);
                    out.push(index(&d));
                }
            }
            out
        })
        .collect()
}

fn bfs(g: &[Vec<usize>], from: usize) -> Vec<u32> {
    let mut dist = vec![u32::MAX; g.len()];
    dist[from] = 0;
    let mut queue = VecDeque::from([from]);
    while let Some(x) = queue.pop_front() {
        for &y in &g[x] {
            if dist[y] == u32::MAX {
                dist[y] = dist[x] + 1;
                queue.push_back(y);
            }
        }
    }
    dist
}

/// The crossing edges of the halving of each coordinate, and its smaller side.
fn halvings(sides: &[i64], g: &[Vec<usize>]) -> Vec<(u64, u64)> {
    let mut stride = 1usize;
    let mut out = Vec::new();
    for &s in sides {
        let s = s as usize;
        let in_a = |x: usize| (x / stride) % s < s / 2;
        let crossing = (0..g.len())
            .flat_map(|x| g[x].iter().map(move |&y| (x, y)))
            .filter(|&(x, y)| in_a(x) && !in_a(y))
            .count() as u64;
        let side = (0..g.len()).filter(|&x| in_a(x)).count() as u64;
        out.push((side, crossing));
        stride *= s;
    }
    out
}

const SHAPES: [&[i64]; 9] = [
    &[4, 2],
    &[8, 4],
    &[12, 6],
    &[16, 8],
    &[2, 2, 4],
    &[3, 3, 6],
    &[4, 4, 8],
    &[3, 6, 6],
    &[4, 8, 8],
];

#[test]
fn graphs_metrics_and_cuts_match_the_coordinates() {
    for sides in SHAPES {
        let what = format!("twisted {sides:?}");
        let g = graph(sides);
        let dist = bfs(&g, 0);
        assert!(dist.iter().all(|&d| d != u32::MAX), "{what}: connected");
        let degree = g[0].len();
        assert!(g.iter().all(|l| l.len() == degree), "{what}: regular");
        // The library's graph is this one, node for node.
        let words: Vec<String> = sides.iter().map(i64::to_string).collect();
        let name: NetworkName = format!("twisted {}", words.join(" ")).parse().unwrap();
        let built = name.build().unwrap();
        for (x, list) in g.iter().enumerate() {
            let mut mine: Vec<u32> = list.iter().map(|&y| y as u32).collect();
            mine.sort_unstable();
            assert_eq!(
                built.neighbours(x as u32),
                mine.as_slice(),
                "{what}: node {x}"
            );
        }
        // The header's group has the same metrics.
        let sizes: Vec<u64> = sides.iter().map(|&s| s as u64).collect();
        let header = Family::new("twisted", &sizes).unwrap().header();
        let loaded = load(&header, &Default::default()).unwrap();
        assert_eq!(loaded.network.as_ref(), Some(&name), "{what}");
        let m = instance_report("twisted", &loaded.instance, loaded.network.as_ref(), 1).unwrap();
        assert_eq!(m.order, g.len() as u64, "{what}: order");
        assert_eq!(m.degree, degree as u64, "{what}: degree");
        let diameter = *dist.iter().max().unwrap();
        assert_eq!(m.diameter, u64::from(diameter), "{what}: diameter");
        let status: u64 = dist.iter().map(|&d| u64::from(d)).sum();
        assert_eq!(m.status, status, "{what}: status");
        // The cut bound is at least the best halving counted here (the
        // halvings are among the cuts tried; the search may find a better one).
        let best = halvings(sides, &g)
            .into_iter()
            .map(|(a, c)| (a * (g.len() as u64 - a)).div_ceil(c))
            .max()
            .unwrap();
        let cut = m.cut_bound.as_ref().map_or(0, |c| c.value);
        assert!(cut >= best, "{what}: cut {cut} below the halving {best}");
        assert!(m.all_port_bound >= cut, "{what}");
    }
}

#[test]
fn closed_form_cut_counts() {
    // 2k × k: each halving is crossed by 4k edges (docs/networks.md).
    for k in [2i64, 4, 6] {
        let sides = [2 * k, k];
        for (side, crossing) in halvings(&sides, &graph(&sides)) {
            assert_eq!((side, crossing), ((k * k) as u64, (4 * k) as u64));
        }
    }
    // 4 × 4 × 8: halving a or b, 4k² = 64 edges; halving c, 6k² = 96.
    let sides = [4, 4, 8];
    assert_eq!(
        halvings(&sides, &graph(&sides)),
        vec![(64, 64), (64, 64), (64, 96)]
    );
}

#[test]
fn net_refuses_other_shapes() {
    for sizes in [
        &["4", "4", "4"][..],
        &["4", "8"],
        &["8"],
        &["8", "8", "4"],
        &["1", "1", "2"],
    ] {
        let mut args = vec!["net", "twisted"];
        args.extend_from_slice(sizes);
        let Run { code, stderr, .. } = txverify(&args);
        assert_eq!(code, 2, "{sizes:?}");
        assert!(stderr.contains("`twisted k k 2k`"), "{sizes:?}: {stderr}");
    }
}

#[test]
fn declared_twisted_networks_embed_and_mislabels_are_refused() {
    let twisted = Family::new("twisted", &[4, 4, 8]).unwrap().header();
    let plain = Family::new("torus", &[4, 4, 8]).unwrap().header();
    let cases = [
        (
            "ok.tbl",
            twisted.clone(),
            "twisted 4 4 8 (declared; isomorphic",
        ),
        (
            "plain-as-twisted.tbl",
            plain.replace("network: torus", "network: twisted"),
            "MISMATCH",
        ),
        (
            "twisted-as-plain.tbl",
            twisted.replace("network: twisted", "network: torus"),
            "MISMATCH",
        ),
        (
            "inferred.tbl",
            twisted.replace("network: twisted 4 4 8\n", ""),
            "twisted 4 4 8 (inferred",
        ),
    ];
    for (name, text, expect) in cases {
        let path = file(name, &text);
        let Run { stdout, .. } = txverify(&["check", path.to_str().unwrap()]);
        assert!(stdout.contains(expect), "{name}: {stdout}");
    }
    let bad = file(
        "shape.tbl",
        &twisted.replace("twisted 4 4 8", "twisted 4 4 4"),
    );
    let Run { code, stderr, .. } = txverify(&["check", bad.to_str().unwrap()]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not a twisted-torus shape"), "{stderr}");
}

#[test]
fn gen_twisted_is_valid_and_near_the_bound() {
    // The bounds are the figures (Σ distances / 6 links, computed
    // independently of txverify); 0: not compared.
    for (shape, bound) in [
        (&["8", "4"][..], 21u64),
        (&["16", "8"], 170),
        (&["4", "4", "8"], 74),
        (&["4", "8", "8"], 184),
        (&["2", "4", "4"], 0),
    ] {
        let mut args = vec!["gen", "twisted"];
        args.extend_from_slice(shape);
        args.extend_from_slice(&["--format", "json"]);
        let Run {
            code,
            stdout,
            stderr,
        } = txverify(&args);
        assert_eq!(code, 0, "{shape:?}: {stderr}");
        let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
        assert_ne!(report["verdict"], "invalid", "{shape:?}");
        assert!(
            report["simulation"]["hops"].as_u64().unwrap() > 0,
            "{shape:?}"
        );
        let time = report["time"].as_u64().unwrap();
        if bound > 0 {
            assert_eq!(report["lower_bound"], bound, "{shape:?}");
            // The target: within 5 % of the all-port bound.
            assert!(time * 100 <= bound * 105, "{shape:?}: {time}");
            if shape.len() == 3 {
                // The rotated rows leave a tail small enough to pack exactly
                // on the two small TPU shapes (docs/twisted.md).
                assert_eq!(time, bound, "{shape:?}");
                assert_eq!(report["verdict"], "optimal", "{shape:?}");
            }
        }
    }
    let Run { code, .. } = txverify(&["gen", "twisted", "4", "4", "4"]);
    assert_eq!(code, 2);
}

#[test]
fn twisted_tables_export_and_replay() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tables/found/twisted8x4.tbl");
    let Run { code, stdout, .. } = txverify(&["export", "--format", "json", path]);
    assert_eq!(code, 0);
    assert!(stdout.contains("\"network\": \"twisted 8 4\""));
    let schedule = file("twisted8x4.json", &stdout);
    let Run { code, stdout, .. } = txverify(&["simulate", schedule.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("VALID"), "{stdout}");
}

#[test]
fn bounds_network_names_a_twisted_torus_and_agrees_with_the_coordinates() {
    // `bounds --network` on a twisted torus gives the general figures: order and
    // diameter as the lattice built here says, and total status Σ over all pairs.
    for sides in [[8i64, 4].as_slice(), &[4, 4, 8]] {
        let g = graph(sides);
        let total: u64 = (0..g.len())
            .map(|x| bfs(&g, x).iter().map(|&d| u64::from(d)).sum::<u64>())
            .sum();
        let diameter = (0..g.len()).flat_map(|x| bfs(&g, x)).max().unwrap_or(0);
        let name = sides
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        let run = txverify(&[
            "bounds",
            "--network",
            &format!("twisted {name}"),
            "--format",
            "json",
        ]);
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let report: serde_json::Value = serde_json::from_str(run.stdout.trim()).unwrap();
        assert_eq!(report["order"], g.len(), "{name}");
        assert_eq!(report["diameter"], diameter, "{name}");
        assert_eq!(report["total_status"], total, "{name}");
        let links: u64 = g.iter().map(|n| n.len() as u64).sum();
        assert!(
            report["all_port_bound"].as_u64().unwrap() >= total.div_ceil(links),
            "{name}"
        );
    }
}

#[test]
fn generated_tables_are_already_in_fmt_form() {
    let keep = file("gen-fmt.keep", "");
    let dir = keep.parent().unwrap();
    for (args, name) in [
        (&["gen", "twisted", "4", "4", "8"][..], "twisted.tbl"),
        (&["gen", "torus3d", "6"], "torus3d.tbl"),
        (&["gen", "ring", "12"], "ring.tbl"),
    ] {
        let out = dir.join(name);
        let mut argv = args.to_vec();
        argv.extend_from_slice(&["-o", out.to_str().unwrap()]);
        let Run { code, stderr, .. } = txverify(&argv);
        assert_eq!(code, 0, "{args:?}: {stderr}");
        let Run { code, stdout, .. } = txverify(&["fmt", "--check", out.to_str().unwrap()]);
        assert_eq!(code, 0, "{args:?}: {stdout}");
    }
}
