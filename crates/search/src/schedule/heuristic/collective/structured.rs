//! Allgathers of known shape: phases of rings, the bucket algorithm.
//!
//! In each phase the nodes are split into rings (cycles of the graph, or
//! single links); each node's *bucket* is what it holds when the phase
//! starts, all buckets of a phase equally long. Around each ring every node
//! passes on, one item a step, the bucket it received in the round before
//! (its own first): one way under one port, both ways (each bucket to the
//! nearer half) otherwise. After the phase every node holds the buckets of
//! its whole ring.
//!
//! - a **ring** (every node of degree 2, so also an edge list): one phase,
//!   C(N − 1) steps one way (the one-port intake bound), C·⌈(N − 1)/2⌉ both
//!   ways;
//! - a **torus** (its sides s₁ … s_k): one phase per dimension, the rings
//!   along it; one way, C(N − 1) steps, the one-port intake bound again;
//! - a **hypercube** (2^d nodes, x joined to x xor 2^j, also an edge list):
//!   one phase per dimension, rings of two nodes: recursive doubling,
//!   C(2^d − 1) steps.
//!
//! The greedy does better under all ports (these use one or two links of a
//! node at a time); these are kept because under one or two ports it does
//! not, and the fastest is picked anyway.

use super::ItemSet;
use txverify_core::network::{Graph, Topology};
use txverify_core::schedule::{Ports, TimedSend};

/// The rings of each phase, each in cycle order.
pub(super) type Phases = Vec<Vec<Vec<u32>>>;

/// The nodes of a ring in cycle order, if `graph` is one (≥ 3 nodes, all of
/// degree 2; a connected graph of degree 2 is a cycle).
pub(super) fn ring_order(graph: &Graph) -> Option<Vec<u32>> {
    let n = graph.nodes();
    if n < 3 || (0..n as u32).any(|x| graph.degree(x) != 2) {
        return None;
    }
    let mut order = vec![0u32];
    let (mut previous, mut at) = (0u32, graph.neighbours(0)[0]);
    while at != 0 {
        order.push(at);
        let around = graph.neighbours(at);
        let next = if around[0] == previous {
            around[1]
        } else {
            around[0]
        };
        previous = at;
        at = next;
    }
    (order.len() == n).then_some(order)
}

/// The dimension d if `graph` is the d-cube on its own numbering.
pub(super) fn hypercube_dimension(graph: &Graph) -> Option<u32> {
    let n = graph.nodes();
    if n < 2 || !n.is_power_of_two() {
        return None;
    }
    let d = n.trailing_zeros();
    let fits = (0..n as u32)
        .all(|x| graph.degree(x) == d as usize && (0..d).all(|j| graph.adjacent(x, x ^ (1 << j))));
    fits.then_some(d)
}

/// The shapes `graph` has, each as its phases, named: the ring, the torus
/// by dimensions (a ring and a hypercube built by name are tori too), the
/// hypercube on its own numbering.
pub(super) fn shapes(graph: &Graph) -> Vec<(&'static str, Phases)> {
    let mut out = Vec::new();
    if let Some(ring) = ring_order(graph) {
        out.push(("ring", vec![vec![ring]]));
    }
    if let Topology::Torus { sides } = graph.topology()
        && sides.len() > 1
        && !sides.iter().all(|&s| s == 2)
    {
        let phases = torus_phases(sides);
        if adjacent_around(graph, &phases) {
            out.push(("bucket (rings dimension by dimension)", phases));
        }
    }
    if let Some(d) = hypercube_dimension(graph) {
        let phases = (0..d)
            .map(|j| {
                (0..1u32 << d)
                    .filter(|x| x & (1 << j) == 0)
                    .map(|x| vec![x, x | 1 << j])
                    .collect()
            })
            .collect();
        out.push(("recursive doubling", phases));
    }
    out
}

/// The rings along each dimension of the torus with these sides (node
/// `c1 + s1·(c2 + s2·(…))`), sides of 1 left out.
fn torus_phases(sides: &[usize]) -> Phases {
    let n: usize = sides.iter().product();
    let mut stride = 1;
    let mut phases = Vec::new();
    for &s in sides {
        if s > 1 {
            let rings = (0..n)
                .filter(|x| (x / stride) % s == 0)
                .map(|x| (0..s).map(|k| (x + k * stride) as u32).collect())
                .collect();
            phases.push(rings);
        }
        stride *= s;
    }
    phases
}

/// Whether every two nodes next to each other around every ring are joined.
fn adjacent_around(graph: &Graph, phases: &Phases) -> bool {
    phases.iter().flatten().all(|ring| {
        let s = ring.len();
        (0..s).all(|i| s < 2 || graph.adjacent(ring[i], ring[(i + 1) % s]))
    })
}

/// The allgather by these phases (module notes).
pub(super) fn buckets(
    graph: &Graph,
    phases: &Phases,
    items: &ItemSet,
    ports: Ports,
) -> Vec<TimedSend> {
    let n = graph.nodes();
    let chunks = items.chunks();
    // What each node holds, in the order it passes it on.
    let mut held: Vec<Vec<(u32, u32)>> = (0..n as u32)
        .map(|x| (0..chunks).map(|c| (x, c)).collect())
        .collect();
    let both = ports != Ports::Limit(1);
    let mut sends = Vec::new();
    let mut base = 0u32;
    for rings in phases {
        let mut longest = 0u32;
        let mut after = held.clone();
        for ring in rings {
            let s = ring.len();
            let (ahead, behind) = if both {
                (s / 2, (s - 1) / 2)
            } else {
                (s - 1, 0)
            };
            for (way, rounds) in [(1, ahead), (s - 1, behind)] {
                for k in 0..rounds {
                    for i in 0..s {
                        let owner = if way == 1 {
                            ring[(i + s - k) % s]
                        } else {
                            ring[(i + k) % s]
                        };
                        let bucket = &held[owner as usize];
                        let length = bucket.len() as u32;
                        for (c, &(block, chunk)) in bucket.iter().enumerate() {
                            let (source, destination) = items.packet(block, chunk);
                            let step = base + k as u32 * length + c as u32 + 1;
                            longest = longest.max(step - base);
                            sends.push(TimedSend {
                                step,
                                from: ring[i],
                                to: ring[(i + way) % s],
                                source,
                                destination,
                            });
                        }
                        let to = ring[(i + way) % s] as usize;
                        after[to].extend_from_slice(bucket);
                    }
                }
            }
        }
        held = after;
        base += longest;
    }
    sends.sort_by_key(|s| s.step);
    sends
}
