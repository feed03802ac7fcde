use super::*;
use crate::bounds::general::graph_bounds;
use crate::bounds::total_exchange_with_lp;
use crate::network::NetworkName;
use crate::schedule::Ports;

fn graph(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

fn from_edges(n: usize, edges: &[(u32, u32)]) -> Graph {
    let mut lists = vec![Vec::new(); n];
    for &(u, v) in edges {
        lists[u as usize].push(v);
        lists[v as usize].push(u);
    }
    Graph::from_adjacency(lists).unwrap()
}

fn petersen() -> Graph {
    let outer = (0..5).map(|i| (i, (i + 1) % 5));
    let spokes = (0..5).map(|i| (i, i + 5));
    let inner = (0..5).map(|i| (5 + i, 5 + (i + 2) % 5));
    from_edges(10, &outer.chain(spokes).chain(inner).collect::<Vec<_>>())
}

/// A connected 3-regular graph on `n` nodes, the same for the same seed.
fn random_cubic(n: usize, mut seed: u64) -> Graph {
    loop {
        let mut stubs: Vec<u32> = (0..3 * n as u32).map(|i| i / 3).collect();
        for i in (1..stubs.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            stubs.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        let edges: Vec<(u32, u32)> = stubs.chunks(2).map(|p| (p[0], p[1])).collect();
        let mut lists = vec![Vec::new(); n];
        for &(u, v) in &edges {
            lists[u as usize].push(v);
            lists[v as usize].push(u);
        }
        if let Ok(g) = Graph::from_adjacency(lists) {
            return g;
        }
    }
}

/// The 4 × 4 × 2 torus less two links: not vertex-transitive any more.
fn torus_with_failures() -> Graph {
    let g = graph("torus 4 4 2");
    let dropped = [(0, 1), (5, 9)];
    let edges: Vec<(u32, u32)> = (0..g.nodes() as u32)
        .flat_map(|x| g.neighbours(x).iter().map(move |&y| (x, y)))
        .filter(|&(x, y)| x < y && !dropped.contains(&(x, y)))
        .collect();
    from_edges(g.nodes(), &edges)
}

#[test]
fn unit_weights_give_the_link_load_bound_and_a_cut_the_cut_bound() {
    for g in [graph("ring 8"), graph("torus 3 5"), petersen()] {
        let b = graph_bounds(&g, u64::MAX);
        let ones = evaluate(&g, &vec![1; g.directed_links()]).unwrap();
        assert_eq!(ones.value, b.link_load_bound());
        assert_eq!(ones.weighted_distance, u128::from(b.total_status));
        let cut = b.cut.as_ref().unwrap();
        let by_cut = evaluate(&g, &cut_weights(&g, &cut.nodes)).unwrap();
        assert_eq!(by_cut.value, cut.steps());
    }
}

#[test]
fn weights_that_prove_nothing_are_refused() {
    let g = graph("ring 5");
    assert_eq!(evaluate(&g, &[0; 10]), Err(LpError::ZeroWeight));
    assert!(matches!(
        evaluate(&g, &[1; 9]),
        Err(LpError::Length {
            given: 9,
            links: 10
        })
    ));
    assert_eq!(evaluate(&g, &[u64::MAX; 10]), Err(LpError::TooHeavy));
    // Weight on one link only: every pair whose shortest way avoids it for
    // free counts 0, and the bound is weak but stands.
    let mut one = vec![0; 10];
    one[0] = 7;
    let b = evaluate(&g, &one).unwrap();
    assert!(b.value <= graph_bounds(&g, u64::MAX).link_load_bound());
}

#[test]
fn fractions_compare_exactly() {
    assert!(fraction_greater(7, 3, 2, 1));
    assert!(!fraction_greater(4, 2, 2, 1));
    assert!(fraction_greater(u128::MAX, u128::MAX - 1, 1, 1));
    assert!(!fraction_greater(1, 3, 1, 2));
    assert!(fraction_greater(10, 7, 7, 5));
}

#[test]
fn the_lp_bound_dominates_the_distance_and_cut_bounds() {
    let graphs = [
        graph("ring 9"),
        graph("torus 4 4"),
        petersen(),
        random_cubic(30, 0x9e37_79b9_7f4a_7c15),
        torus_with_failures(),
    ];
    for g in graphs {
        let (set, solution) = total_exchange_with_lp(&g, Ports::All, &LpOptions::default());
        let lp = set.named(LP_BOUND_NAME).unwrap().value();
        let s = solution.unwrap();
        assert_eq!(lp, s.bound.value);
        assert_eq!(evaluate(&g, &s.weights).unwrap(), s.bound);
        for b in set.bounds() {
            if b.name() == "link-load" || b.name().starts_with("cut") {
                assert!(lp >= b.value(), "{} {} > lp {lp}", b.name(), b.value());
            }
        }
        // The routing found carries every message, so no bound exceeds its
        // largest load.
        assert!(s.dual <= s.primal * (1.0 + 1e-9));
        assert!(s.bound.ratio() <= s.primal * (1.0 + 1e-9));
        assert_eq!(s.real_weights.len(), g.directed_links());
        assert_eq!(s.link_loads.len(), g.directed_links());
    }
}

#[test]
fn the_descent_beats_every_cut_on_a_cubic_graph() {
    // On a random cubic graph the fractional bound is above the cut and
    // distance bounds (docs/schedules-any.md measures 60 to 200 nodes).
    let g = random_cubic(40, 12345);
    let b = graph_bounds(&g, u64::MAX);
    let (_, s) = total_exchange_with_lp(&g, Ports::All, &LpOptions::default());
    let s = s.unwrap();
    let old = b.link_load_bound().max(b.cut.unwrap().steps());
    assert!(s.bound.value >= old);
    // The descent ran and its weights are real weights of the links.
    assert!(s.iterations > 0);
    assert!(s.real_weights.iter().all(|&w| (0.0..=1.0).contains(&w)));
}

#[test]
fn the_routing_found_is_a_flow_of_every_message() {
    let g = random_cubic(20, 99);
    let (_, s) = total_exchange_with_lp(&g, Ports::All, &LpOptions::default());
    let s = s.unwrap();
    let per_source = s.per_source.unwrap();
    let n = g.nodes();
    for l in 0..g.directed_links() {
        let sum: f64 = per_source.iter().map(|f| f[l]).sum();
        assert!((sum - s.link_loads[l]).abs() < 1e-6, "link {l}");
    }
    for (src, flow) in per_source.iter().enumerate() {
        let mut net = vec![0.0; n];
        for l in 0..g.directed_links() as u32 {
            let (x, y) = g.endpoints(l);
            net[x as usize] -= flow[l as usize];
            net[y as usize] += flow[l as usize];
        }
        for (v, &b) in net.iter().enumerate() {
            let want = if v == src { -(n as f64 - 1.0) } else { 1.0 };
            assert!((b - want).abs() < 1e-6, "source {src}, node {v}: {b}");
        }
    }
    let largest = s.link_loads.iter().copied().fold(0.0, f64::max);
    assert!((largest - s.primal).abs() < 1e-9);
}

/// A descent stopped by its time takes one step and still proves a bound:
/// never above the bound of the whole descent, never below the link-load bound
/// (its weights, all ones, are a candidate).
#[test]
fn a_descent_past_its_time_stops_after_one_step_with_a_bound() {
    let g = random_cubic(60, 7);
    let (_, full) = total_exchange_with_lp(&g, Ports::All, &LpOptions::default());
    let stopped = LpOptions {
        until: Some(std::time::Instant::now()),
        ..LpOptions::default()
    };
    let (_, early) = total_exchange_with_lp(&g, Ports::All, &stopped);
    let (full, early) = (full.unwrap(), early.unwrap());
    assert!(full.iterations > 1, "{} steps", full.iterations);
    assert_eq!(early.iterations, 1);
    assert!(early.bound.value <= full.bound.value);
    let link_load = graph_bounds(&g, u64::MAX).link_load_bound();
    assert!(
        early.bound.value >= link_load,
        "{} < {link_load}",
        early.bound.value
    );
}
