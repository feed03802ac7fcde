//! Every construction, on rings, lines, meshes, tori, hypercubes, the
//! Petersen graph and random irregular graphs, under 1, 2 or all ports and 1
//! or 3 chunks, replays valid in the core and finishes no earlier than the
//! core's bound.

use super::*;
use txverify_core::bounds;
use txverify_core::network::{NetworkName, parse_edges};
use txverify_core::schedule::{ReplayOptions, Schedule, replay};

fn graph(name: &str) -> Graph {
    name.parse::<NetworkName>().unwrap().build().unwrap()
}

fn petersen() -> Graph {
    let text = "0 1\n1 2\n2 3\n3 4\n4 0\n0 5\n1 6\n2 7\n3 8\n4 9\n5 7\n7 9\n9 6\n6 8\n8 5\n";
    parse_edges(text, "petersen").unwrap()
}

/// A connected graph on `n` nodes: a random tree and `extra` random links.
fn random_graph(n: u32, extra: u32, seed: u64) -> Graph {
    let mut lists = vec![Vec::<u32>::new(); n as usize];
    let join = |a: u32, b: u32, lists: &mut Vec<Vec<u32>>| {
        if a != b && !lists[a as usize].contains(&b) {
            lists[a as usize].push(b);
            lists[b as usize].push(a);
        }
    };
    for x in 1..n {
        let parent = (greedy::tie(seed, u64::from(x)) % u64::from(x)) as u32;
        join(x, parent, &mut lists);
    }
    for k in 0..extra {
        let a = (greedy::tie(seed + 1, u64::from(k)) % u64::from(n)) as u32;
        let b = (greedy::tie(seed + 2, u64::from(k)) % u64::from(n)) as u32;
        join(a, b, &mut lists);
    }
    Graph::from_adjacency(lists).unwrap()
}

/// Replays `made` and checks it is valid, ends at its time, and is no
/// faster than the bound.
fn check(g: &Graph, collective: Collective, ports: Ports, made: &Construction) {
    let schedule = Schedule {
        network: None,
        ports: Some(ports),
        collective,
        sends: made.sends.clone(),
    };
    let report = replay(&schedule, g, &ReplayOptions { max_listed: 3 }).unwrap();
    let what = format!(
        "{collective} C={} ports {ports} on {} nodes by {}",
        collective.chunks(),
        g.nodes(),
        made.method
    );
    assert_eq!(report.violation_count(), 0, "{what}");
    assert_eq!(report.time(), made.time, "{what}");
    let bound = bounds::collective(g, collective, ports).time.best().value();
    assert!(
        u64::from(made.time) >= bound,
        "{what}: {} < {bound}",
        made.time
    );
}

fn every_collective(chunks: u32) -> Vec<Collective> {
    [
        Collective::broadcast(1),
        Collective::reduce(1),
        Collective::ALLGATHER,
        Collective::ReduceScatter { chunks: 1 },
        Collective::Allreduce { chunks: 1 },
    ]
    .into_iter()
    .map(|c| c.with_chunks(chunks).unwrap())
    .collect()
}

#[test]
fn every_construction_replays_valid_and_respects_the_bound() {
    let mut graphs: Vec<Graph> = ["ring 6", "ring 7", "linear 4", "torus 3 4", "hypercube 3"]
        .iter()
        .map(|n| graph(n))
        .collect();
    graphs.push(petersen());
    graphs.push(random_graph(13, 6, 7));
    graphs.push(random_graph(20, 3, 11));
    for g in &graphs {
        for chunks in [1, 3] {
            for ports in [Ports::Limit(1), Ports::Limit(2), Ports::All] {
                for collective in every_collective(chunks) {
                    let made = constructions(g, collective, ports).unwrap();
                    assert!(!made.is_empty());
                    assert!(made.windows(2).all(|w| w[0].time <= w[1].time));
                    for m in &made {
                        check(g, collective, ports, m);
                    }
                }
            }
        }
    }
}

#[test]
fn the_shapes_meet_their_bounds() {
    let time =
        |name: &str, c: Collective, ports: Ports| construct(&graph(name), c, ports).unwrap().time;
    // The ring: N − 1 one-port, ⌈(N − 1)/2⌉ both ways (the diameter).
    assert_eq!(time("ring 8", Collective::ALLGATHER, Ports::Limit(1)), 7);
    assert_eq!(time("ring 8", Collective::ALLGATHER, Ports::All), 4);
    assert_eq!(time("ring 7", Collective::ALLGATHER, Ports::All), 3);
    // Recursive doubling one-port: 2^d − 1, the intake bound.
    assert_eq!(
        time("hypercube 4", Collective::ALLGATHER, Ports::Limit(1)),
        15
    );
    // The bucket algorithm on a torus, one-port: N − 1, the intake bound.
    assert_eq!(
        time("torus 3 4", Collective::ALLGATHER, Ports::Limit(1)),
        11
    );
    // Broadcast all-port: the eccentricity, as a BFS tree.
    assert_eq!(time("torus 5 5", Collective::broadcast(0), Ports::All), 4);
    // Reduce-scatter and allreduce on the one-way ring: N − 1 and 2(N − 1).
    let rs = Collective::ReduceScatter { chunks: 1 };
    assert_eq!(time("ring 5", rs, Ports::Limit(1)), 4);
    let ar = Collective::Allreduce { chunks: 1 };
    assert_eq!(time("ring 5", ar, Ports::Limit(1)), 8);
}

#[test]
fn the_ring_and_the_hypercube_are_found_from_the_graph() {
    assert_eq!(structured::ring_order(&graph("ring 5")).unwrap().len(), 5);
    assert!(structured::ring_order(&graph("linear 5")).is_none());
    assert_eq!(
        structured::hypercube_dimension(&graph("hypercube 3")),
        Some(3)
    );
    assert!(structured::hypercube_dimension(&graph("ring 8")).is_none());
    assert!(structured::hypercube_dimension(&petersen()).is_none());
    let names = |g: &Graph| -> Vec<&str> { structured::shapes(g).iter().map(|s| s.0).collect() };
    assert_eq!(
        names(&graph("torus 3 4")),
        ["bucket (rings dimension by dimension)"]
    );
    assert_eq!(names(&graph("hypercube 2")), ["ring", "recursive doubling"]);
    assert!(names(&petersen()).is_empty());
}

#[test]
fn personalised_collectives_and_oversized_ones_are_refused() {
    let g = graph("ring 4");
    assert!(matches!(
        constructions(&g, Collective::TotalExchange, Ports::All),
        Err(ConstructionError::Unsupported(_))
    ));
    let many = Collective::ALLGATHER.with_chunks(65536).unwrap();
    assert!(matches!(
        constructions(&graph("hypercube 10"), many, Ports::All),
        Err(ConstructionError::TooLarge { .. })
    ));
}

/// Where a structured construction exists, a greedy run whose work is over
/// its limit is not started (it would take minutes: 15.7 million sends of a
/// reduce-scatter in 65,536 chunks on the 4-cube); below it, it still is.
#[test]
fn the_greedy_is_left_out_beside_a_shape_when_its_work_is_over_the_limit() {
    let cube = graph("hypercube 4");
    let items = |chunks: u32| 16 * chunks as usize;
    assert!(greedy_work(&cube, items(65536)) > MAX_GREEDY_WORK_BESIDE_SHAPES);
    let over = (1u32..)
        .find(|&c| greedy_work(&cube, items(c)) > MAX_GREEDY_WORK_BESIDE_SHAPES)
        .unwrap();
    let gather = |chunks| Collective::Allgather { chunks };
    let made = constructions(&cube, gather(over), Ports::All).unwrap();
    assert!(!made.is_empty() && made.iter().all(|c| !c.method.contains("greedy")));
    let made = constructions(&cube, gather(2), Ports::All).unwrap();
    assert!(made.iter().any(|c| c.method.contains("greedy")));
}
