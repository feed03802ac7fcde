use super::*;
use crate::network::NetworkName;

/// A graph from its edges.
fn graph(n: usize, edges: &[(u32, u32)]) -> Graph {
    let mut lists = vec![Vec::new(); n];
    for &(u, v) in edges {
        lists[u as usize].push(v);
        lists[v as usize].push(u);
    }
    Graph::from_adjacency(lists).unwrap()
}

/// The best K-port cut ratio by trying every subset with counts from scratch.
fn brute_force(g: &Graph, ports: u64) -> Ratio {
    let n = g.nodes();
    let mut best = Ratio {
        numerator: 0,
        denominator: 1,
    };
    for set in 1u64..(1 << n) - 1 {
        let inside = |x: u32| set >> x & 1 == 1;
        let across = |x: u32| {
            g.neighbours(x)
                .iter()
                .filter(|&&y| inside(y) != inside(x))
                .count() as u64
        };
        let send: u64 = (0..n as u32)
            .filter(|&x| inside(x))
            .map(|x| ports.min(across(x)))
            .sum();
        let receive: u64 = (0..n as u32)
            .filter(|&x| !inside(x))
            .map(|x| ports.min(across(x)))
            .sum();
        let size = u64::from(set.count_ones());
        let r = Ratio {
            numerator: size * (n as u64 - size),
            denominator: send.min(receive),
        };
        if r.exceeds(best) {
            best = r;
        }
    }
    best
}

fn same(a: Ratio, b: Ratio) -> bool {
    !a.exceeds(b) && !b.exceeds(a)
}

/// A small deterministic pseudo-random connected graph: a random tree plus extra edges.
fn random_graph(n: usize, extra: usize, seed: u64) -> Graph {
    let mut s = seed | 1;
    let mut next = move |m: usize| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % m as u64) as u32
    };
    let mut edges = Vec::new();
    for v in 1..n as u32 {
        edges.push((next(v as usize), v));
    }
    for _ in 0..extra {
        let (u, v) = (next(n), next(n));
        if u != v
            && !edges.contains(&(u.min(v), u.max(v)))
            && !edges.contains(&(u.max(v), u.min(v)))
        {
            edges.push((u.min(v), u.max(v)));
        }
    }
    graph(n, &edges)
}

#[test]
fn exhaustive_search_agrees_with_brute_force() {
    for seed in 1..12u64 {
        let g = random_graph(9 + (seed as usize % 4), 6, seed);
        for ports in [1, 2, u64::MAX] {
            let found = best_cut(&g, Some(ports)).unwrap();
            assert_eq!(found.method, CutMethod::Exhaustive);
            assert!(
                same(found.ratio, brute_force(&g, ports)),
                "seed {seed} ports {ports}: {:?} {:?}",
                found,
                brute_force(&g, ports)
            );
            // The named side gives the ratio claimed.
            assert_eq!(found.nodes[0], 0);
            assert_eq!(
                found.nodes.len() as u64 + found.other_side,
                g.nodes() as u64
            );
        }
    }
}

#[test]
fn the_named_side_has_the_claimed_edges() {
    let g = random_graph(14, 10, 7);
    let c = best_cut(&g, None).unwrap();
    let inside = |x: u32| c.nodes.contains(&x);
    let edges = (0..14u32)
        .filter(|&x| inside(x))
        .map(|x| g.neighbours(x).iter().filter(|&&y| !inside(y)).count() as u64)
        .sum::<u64>();
    assert_eq!(edges, c.edges);
    assert_eq!(c.capacity, c.edges);
    assert_eq!(c.ratio.numerator, c.nodes.len() as u64 * c.other_side);
}

#[test]
fn heuristic_cuts_are_cuts_and_find_the_ring_halving() {
    // A ring of 40: the best cut is two arcs of 20, 20·20/2 = 200.
    let ring = NetworkName::Ring(40).build().unwrap();
    let c = best_cut(&ring, None).unwrap();
    assert!(matches!(
        c.method,
        CutMethod::Heuristic { refined: true, .. }
    ));
    assert_eq!(c.ratio.numerator * 2, 400 * c.ratio.denominator);
    // On small graphs the heuristic never claims more than the best.
    for seed in 1..8u64 {
        let g = random_graph(16, 12, seed);
        let best = brute_force(&g, u64::MAX);
        let h = heuristic(&g, u64::MAX).unwrap();
        assert!(!h.ratio.exceeds(best), "seed {seed}");
    }
}

#[test]
fn a_torus_halving_is_found() {
    // torus 8 8: halving one dimension, 32·32 / 16 = 64.
    let g = NetworkName::Torus(vec![8, 8]).build().unwrap();
    let c = best_cut(&g, None).unwrap();
    assert_eq!(c.steps(), 64);
}

#[test]
fn a_given_side_is_evaluated_as_the_search_would() {
    let g = random_graph(12, 8, 3);
    for ports in [Some(1), Some(2), None] {
        let c = best_cut(&g, ports).unwrap();
        let again = cut_of(&g, &c.nodes, ports, c.method).unwrap();
        assert_eq!(again, c);
    }
    assert!(cut_of(&g, &[], None, CutMethod::Exhaustive).is_none());
    assert!(cut_of(&g, &[40], None, CutMethod::Exhaustive).is_none());
}
