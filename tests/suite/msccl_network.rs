//! `txverify check PROGRAM.xml --network NET`: the chunks each link carries,
//! counted here from the programs' own construction and routed by this
//! file's closed-form ring distances; the lower bounds against this file's
//! brute force over every cut; and the refusals.

use crate::common::cli::{file, txverify};
use crate::msccl_check::{TbSpec, ring_allreduce, st, xml};
use std::collections::BTreeMap;
use txverify_core::network::NetworkName;

/// An all-pairs allgather on `n` GPUs, out of place: GPU g copies its input
/// chunk to `o[g]`, and for every other GPU p sends it to p and receives p's
/// into `o[p]` (one thread block per peer, on channel 0).
fn allpairs_allgather(n: i64) -> String {
    let gpus: Vec<Vec<TbSpec>> = (0..n)
        .map(|g| {
            let mut tbs = vec![(-1, -1, 0, vec![st("cpy", 'i', 0, 'o', g)])];
            for p in (0..n).filter(|&p| p != g) {
                tbs.push((
                    p,
                    p,
                    0,
                    vec![st("s", 'i', 0, 'o', g), st("r", 'o', p, 'o', p)],
                ));
            }
            tbs
        })
        .collect();
    xml("allgather", n as usize, n, false, 0, &gpus)
}

/// The JSON report of `check PATH --network NET`, which must exit 0.
fn on(program: &str, network: &str) -> serde_json::Value {
    let path = file("p.xml", program);
    let run = txverify(&[
        "check",
        path.to_str().unwrap(),
        "--format",
        "json",
        "--network",
        network,
    ]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    serde_json::from_str(run.stdout.trim()).unwrap()
}

/// The link loads of a report, unused links left out.
fn loads(report: &serde_json::Value) -> BTreeMap<(u64, u64), u64> {
    report["network"]["links"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let f = |k: &str| l[k].as_u64().unwrap();
            ((f("from"), f("to")), f("chunks"))
        })
        .filter(|&(_, c)| c > 0)
        .collect()
}

fn ring_distance(n: u64, x: u64, y: u64) -> u64 {
    let d = x.abs_diff(y);
    d.min(n - d)
}

/// The documented route on ring `n`: from each node, the lower-numbered of
/// its two neighbours that is one hop closer.
fn ring_route(n: u64, mut x: u64, y: u64) -> Vec<(u64, u64)> {
    let mut links = Vec::new();
    while x != y {
        let d = ring_distance(n, x, y);
        let mut next = [(x + 1) % n, (x + n - 1) % n];
        next.sort();
        let w = *next
            .iter()
            .find(|&&w| ring_distance(n, w, y) + 1 == d)
            .unwrap();
        links.push((x, w));
        x = w;
    }
    links
}

/// The best cut bound by brute force over every set A of a graph given by
/// its adjacency test: max over A of ⌈max(out, in) / c(A)⌉, with the chunks
/// that must cross from `demand(|A|, |B|)`.
fn brute_cut(
    n: u64,
    adjacent: impl Fn(u64, u64) -> bool,
    demand: impl Fn(u64, u64) -> (u64, u64),
) -> u64 {
    let mut best = 0;
    for mask in 1u64..(1 << n) - 1 {
        let a = |x: u64| mask >> x & 1 == 1;
        let c = (0..n)
            .flat_map(|x| (0..n).map(move |y| (x, y)))
            .filter(|&(x, y)| a(x) && !a(y) && adjacent(x, y))
            .count() as u64;
        let size = u64::from(mask.count_ones());
        let (out, back) = demand(size, n - size);
        best = best.max(out.max(back).div_ceil(c));
    }
    best
}

#[test]
fn an_allpairs_allgather_loads_each_ring_link_as_its_routes_say() {
    let n = 6u64;
    let report = on(&allpairs_allgather(n as i64), "ring 6");
    assert_eq!(report["valid"], true);
    let mut want: BTreeMap<(u64, u64), u64> = BTreeMap::new();
    let mut routed = 0;
    for x in 0..n {
        for y in (0..n).filter(|&y| y != x) {
            let route = ring_route(n, x, y);
            routed += u64::from(route.len() > 1);
            for link in route {
                *want.entry(link).or_default() += 1;
            }
        }
    }
    let net = &report["network"];
    assert_eq!(loads(&report), want);
    assert_eq!(net["max_link_load"], *want.values().max().unwrap());
    assert_eq!(net["routed_connections"], routed);
    assert_eq!(net["connections"], n * (n - 1));
    assert_eq!(net["directed_links"], 2 * n);
    // Allgather of one chunk per GPU: every GPU's chunk reaches n − 1 others
    // over at least n − 1 links, over 2n links; the cut's demand is |A| out
    // and |B| in.
    let traffic = (n - 1) * n;
    let adjacent = |x: u64, y: u64| ring_distance(n, x, y) == 1;
    let cut = brute_cut(n, adjacent, |a, b| (a, b));
    let bounds = &net["bounds"];
    assert_eq!(bounds["traffic"], traffic);
    assert_eq!(bounds["link_load"], traffic.div_ceil(2 * n).max(cut));
    assert_eq!(bounds["latency"], n / 2);
    // Every message goes straight to its receiver: the depth is the longest
    // route.
    assert_eq!(net["depth"], n / 2);
    assert_eq!(net["longest_route"], n / 2);
}

#[test]
fn an_allpairs_allgather_on_nvlink_uses_every_link_once() {
    let n = 5u64;
    let report = on(&allpairs_allgather(n as i64), "nvlink 5");
    let net = &report["network"];
    assert_eq!(net["name"], "complete 5");
    let want: BTreeMap<(u64, u64), u64> = (0..n)
        .flat_map(|x| (0..n).filter(move |&y| y != x).map(move |y| ((x, y), 1)))
        .collect();
    assert_eq!(loads(&report), want);
    assert_eq!(net["routed_connections"], 0);
    let cut = brute_cut(n, |x, y| x != y, |a, b| (a, b));
    assert_eq!(
        net["bounds"]["link_load"],
        ((n - 1) * n).div_ceil(n * (n - 1)).max(cut)
    );
    assert_eq!(net["load_ratio"], 1.0);
    assert_eq!(
        (net["depth"].clone(), net["bounds"]["latency"].clone()),
        (1.into(), 1.into())
    );
}

#[test]
fn a_ring_allreduce_loads_one_direction_of_the_ring_twice_the_bound() {
    for (n, channels) in [(4u64, 1u64), (6, 2), (7, 1)] {
        let report = on(
            &ring_allreduce(n as i64, channels as i64),
            &format!("ring {n}"),
        );
        // Each thread block sends 2(n − 1) one-chunk messages to g + 1.
        let want: BTreeMap<(u64, u64), u64> = (0..n)
            .map(|g| ((g, (g + 1) % n), channels * 2 * (n - 1)))
            .collect();
        assert_eq!(loads(&report), want, "ring {n}");
        let net = &report["network"];
        // Allreduce of C = n·channels chunks: 2(n − 1)·C crossings over 2n
        // links; C each way across every cut.
        let c = n * channels;
        let adjacent = |x: u64, y: u64| ring_distance(n, x, y) == 1;
        let cut = brute_cut(n, adjacent, |_, _| (c, c));
        let bound = (2 * (n - 1) * c).div_ceil(2 * n).max(cut);
        assert_eq!(net["bounds"]["link_load"], bound, "ring {n}");
        assert_eq!(
            net["load_ratio"].as_f64().unwrap(),
            (channels * 2 * (n - 1)) as f64 / bound as f64
        );
        // A chunk's chain: one send, n − 2 reduce-and-forwards, one
        // reduce-copy-send, n − 2 forwards: 2(n − 1) messages of one hop.
        assert_eq!(net["depth"], 2 * (n - 1));
        assert_eq!(net["bounds"]["latency"], n / 2);
    }
}

#[test]
fn check_refuses_a_network_of_another_order_or_an_unknown_one() {
    let path = file("p.xml", &ring_allreduce(6, 1));
    let p = path.to_str().unwrap();
    let run = txverify(&["check", p, "--network", "ring 4"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains(":1:1: the program has ngpus = 6 and the network `ring 4` has 4 nodes"),
        "{}",
        run.stderr
    );
    let run = txverify(&["check", p, "--network", "hypercube 3"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let run = txverify(&["check", p, "--network", "donut 6"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("unknown network family `donut`"),
        "{}",
        run.stderr
    );
    let run = txverify(&["check", p, "--network", "nvlink 0"]);
    assert_eq!(run.code, 2);
    let run = txverify(&["check", "tables/mesh5.tbl", "--network", "ring 5"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("--network is for MSCCL programs"),
        "{}",
        run.stderr
    );
    // The same program on a network of its order is measured.
    assert_eq!(txverify(&["check", p, "--network", "torus 2 3"]).code, 0);
}

#[test]
fn nvlink_is_the_complete_graph() {
    let name: NetworkName = "nvlink 8".parse().unwrap();
    assert_eq!(name, NetworkName::Complete(8));
    let g = name.build().unwrap();
    assert_eq!((g.nodes(), g.directed_links()), (8, 56));
}

#[test]
fn without_network_the_depth_counts_messages() {
    let c = txverify_clients::msccl::check(&ring_allreduce(5, 1)).unwrap();
    assert_eq!(c.figures().unwrap().depth, 8);
    assert!(c.network().is_none());
}

#[test]
fn the_text_report_puts_each_figure_beside_its_bound() {
    let n = 4u64;
    let path = file("r.xml", &ring_allreduce(n as i64, 1));
    let run = txverify(&["check", path.to_str().unwrap(), "--network", "ring 4"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    // C = 4 chunks: 2·3·4 = 24 crossings over 8 links, 3; every cut of the
    // ring has 2 links each way and 4 chunks to carry each way, 2. The
    // program sends 2·3 = 6 chunks on each link of one direction, and its
    // chains are 6 messages long; the diameter is 2.
    let (c, links) = (n, 2 * n);
    let traffic = 2 * (n - 1) * c;
    let load = 2 * (n - 1);
    let want = [
        format!("  on ring 4 ({n} nodes, {links} directed links; GPU i on node i):"),
        format!(
            "    busiest link: {load} chunks; lower bound {b} ({traffic} crossings over {links} links: {b}; cut of 1 node / 3: {c} and {c} chunks across 2 links each way: {cut}); ×{r:.2} the bound",
            b = traffic.div_ceil(links),
            cut = c / 2,
            r = load as f64 / traffic.div_ceil(links) as f64
        ),
        format!(
            "    depth: {d} hops; lower bound 2 (the diameter); ×{r:.2} the bound",
            d = 2 * (n - 1),
            r = (2 * (n - 1)) as f64 / 2.0
        ),
        "    connections: 4, 0 of them between GPUs that are not neighbours, routed on a shortest path (0 chunks; longest route 1 link)".to_string(),
        format!("    link loads (4 of {links} links used): 0→1 {load}, 1→2 {load}, 2→3 {load}, 3→0 {load}"),
    ];
    let lines: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| !l.starts_with("  on "))
        .collect();
    assert_eq!(lines, want, "{}", run.stdout);
}

#[test]
fn an_edge_list_network_routes_as_its_named_twin() {
    // The path 0 - 1 - 2 - 3, its links listed out of order: the same loads,
    // bounds and depth as `linear 4`, and a bad list is refused with its place.
    let edges = file("path.edges", "# a path\n2 3\n0 1\n1 2\n");
    let program = allpairs_allgather(4);
    let by_file = on(&program, &format!("edges {}", edges.display()));
    let named = on(&program, "linear 4");
    for key in [
        "links",
        "max_link_load",
        "routed_connections",
        "depth",
        "bounds",
    ] {
        assert_eq!(by_file["network"][key], named["network"][key], "{key}");
    }
    // Node 0 takes 3 chunks on its one link; the middle link carries 2 · 2.
    let want: BTreeMap<(u64, u64), u64> = [
        ((0, 1), 3),
        ((1, 0), 3),
        ((1, 2), 4),
        ((2, 1), 4),
        ((2, 3), 3),
        ((3, 2), 3),
    ]
    .into_iter()
    .collect();
    assert_eq!(loads(&named), want);
    let bad = file("bad.edges", "0 1\n1 x\n");
    let path = file("p.xml", &program);
    let run = txverify(&[
        "check",
        path.to_str().unwrap(),
        "--network",
        &format!("edges {}", bad.display()),
    ]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains(":2:3"), "{}", run.stderr);
}
