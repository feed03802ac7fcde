//! Derouted sends: sends of a personalised packet over a link of the network
//! that do not bring it closer to its destination, counted for the replay's
//! report from distances computed here: one search when every XOR translation
//! is an automorphism of the network (hypercubes), else an all-pairs table up
//! to [`ALL_PAIRS_MAX_NODES`] nodes, else one search per destination.

use super::TimedSend;
use crate::network::Graph;
use rayon::prelude::*;

/// The largest network whose all-pairs distance table the replay keeps to count
/// deroutes (1 byte per pair when the diameter is below 255, else 4: 64 MiB or
/// 256 MiB at this size).
pub const ALL_PAIRS_MAX_NODES: usize = 8192;

/// Counts the sends of personalised packets over links of the network that do
/// not bring the packet closer to its destination.
pub(super) fn count_derouted(graph: &Graph, sends: &[TimedSend]) -> u64 {
    if sends.iter().all(|s| s.packet().is_broadcast()) {
        return 0; // nothing personalised: no distances needed
    }
    Distances::new(graph).count(graph, sends)
}

/// How the distance from a node to a destination is looked up.
pub(super) enum Distances {
    /// XOR translations are automorphisms, so the distance from x to d is that
    /// from x ⊕ d to 0: one search, 4 bytes per node (a scatter on a 16-cube
    /// made 65536 searches before).
    Xor(Vec<u32>),
    /// All pairs, `table[d·N + x]`, one byte each (the diameter is below 255).
    Narrow(Vec<u8>),
    /// All pairs, four bytes each.
    Wide(Vec<u32>),
    /// One search per destination, made while counting.
    PerDestination,
}

impl Distances {
    /// The cheapest lookup `graph` allows.
    pub(super) fn new(graph: &Graph) -> Distances {
        if xor_translations_preserve_links(graph) {
            return Distances::Xor(graph.distances_to(0));
        }
        let Ok(table) = graph.distance_table(ALL_PAIRS_MAX_NODES) else {
            return Distances::PerDestination;
        };
        if table.diameter() < u32::from(u8::MAX) {
            // One byte per pair: a 12-cube's table (16 MiB) stays in cache.
            Distances::Narrow(table.into_vec().into_iter().map(|x| x as u8).collect())
        } else {
            Distances::Wide(table.into_vec())
        }
    }

    /// The derouted sends among `sends` (in any order).
    pub(super) fn count(&self, graph: &Graph, sends: &[TimedSend]) -> u64 {
        let n = graph.nodes();
        let relevant = |s: &TimedSend| {
            !s.packet().is_broadcast()
                && (s.destination as usize) < n
                && (s.from as usize) < n
                && (s.to as usize) < n
                && graph.link(s.from, s.to).is_some()
        };
        match self {
            Distances::Xor(from_zero) => count_chunks(sends, &relevant, |s| {
                from_zero[(s.to ^ s.destination) as usize]
                    >= from_zero[(s.from ^ s.destination) as usize]
            }),
            Distances::Narrow(table) => count_chunks(sends, &relevant, |s| {
                let row = &table[s.destination as usize * n..][..n];
                row[s.to as usize] >= row[s.from as usize]
            }),
            Distances::Wide(table) => count_chunks(sends, &relevant, |s| {
                let row = &table[s.destination as usize * n..][..n];
                row[s.to as usize] >= row[s.from as usize]
            }),
            Distances::PerDestination => count_per_destination(graph, sends, &relevant),
        }
    }
}

/// Whether XOR with every power of two below the node count maps every link to
/// a link (then every XOR translation is an automorphism: they compose).
pub fn xor_translations_preserve_links(graph: &Graph) -> bool {
    let n = graph.nodes() as u32;
    if !n.is_power_of_two() {
        return false;
    }
    (0..n.trailing_zeros()).all(|j| {
        (0..n).into_par_iter().all(|x| {
            graph
                .neighbours(x)
                .iter()
                .all(|&y| graph.link(x ^ 1 << j, y ^ 1 << j).is_some())
        })
    })
}

/// Derouted sends by a per-send test, over chunks of sends in parallel.
fn count_chunks(
    sends: &[TimedSend],
    relevant: &(impl Fn(&TimedSend) -> bool + Sync),
    derouted: impl Fn(&TimedSend) -> bool + Sync,
) -> u64 {
    sends
        .par_chunks(1 << 16)
        .map(|chunk| chunk.iter().filter(|s| relevant(s) && derouted(s)).count() as u64)
        .sum()
}

/// Derouted sends by one breadth-first search per destination, the
/// destinations in parallel (4 bytes per relevant send for the index).
fn count_per_destination(
    graph: &Graph,
    sends: &[TimedSend],
    relevant: &(impl Fn(&TimedSend) -> bool + Sync),
) -> u64 {
    let mut by_destination: Vec<u32> = (0..sends.len() as u32)
        .filter(|&i| relevant(&sends[i as usize]))
        .collect();
    by_destination.sort_unstable_by_key(|&i| sends[i as usize].destination);
    let groups: Vec<&[u32]> = by_destination
        .chunk_by(|&a, &b| sends[a as usize].destination == sends[b as usize].destination)
        .collect();
    groups
        .into_par_iter()
        .map(|group| {
            let dist = graph.distances_to(sends[group[0] as usize].destination);
            group
                .iter()
                .map(|&i| sends[i as usize])
                .filter(|s| dist[s.to as usize] >= dist[s.from as usize])
                .count() as u64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn graph(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    /// Every send over every directed link for every destination.
    fn every_send(g: &Graph) -> Vec<TimedSend> {
        let n = g.nodes() as u32;
        let mut sends = Vec::new();
        for from in 0..n {
            for &to in g.neighbours(from) {
                for destination in 0..n {
                    sends.push(TimedSend {
                        step: 1,
                        from,
                        to,
                        source: from,
                        destination,
                    });
                }
            }
        }
        sends
    }

    #[test]
    fn a_hypercube_is_searched_once_and_counts_as_every_destination_s_search_does() {
        let g = graph("hypercube 6");
        assert!(matches!(Distances::new(&g), Distances::Xor(_)));
        let sends = every_send(&g);
        let one = Distances::new(&g).count(&g, &sends);
        let each = count_per_destination(&g, &sends, &|_: &TimedSend| true);
        // On the d-cube a hop moves one bit closer or one further, so a send is
        // derouted unless it clears a bit of from ⊕ destination.
        let closer = sends
            .iter()
            .filter(|s| (s.to ^ s.destination).count_ones() < (s.from ^ s.destination).count_ones())
            .count() as u64;
        assert_eq!(one, each);
        assert_eq!(one, sends.len() as u64 - closer);
    }

    #[test]
    fn networks_that_xor_does_not_preserve_use_their_own_distances() {
        for name in ["mesh 2 4", "ring 8", "ring 6", "torus 4 4"] {
            let g = graph(name);
            let lookup = Distances::new(&g);
            let sends = every_send(&g);
            let each = count_per_destination(&g, &sends, &|_: &TimedSend| true);
            assert_eq!(lookup.count(&g, &sends), each, "{name}");
            let xor = xor_translations_preserve_links(&g);
            assert_eq!(xor, matches!(lookup, Distances::Xor(_)), "{name}");
        }
        assert!(!xor_translations_preserve_links(&graph("mesh 2 4")));
        assert!(!xor_translations_preserve_links(&graph("ring 8")));
    }
}
