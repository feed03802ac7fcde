//! Derouted sends: sends of a personalised packet over a link of the network
//! that do not bring it closer to its destination, counted for the replay's
//! report from distances computed here (an all-pairs table up to
//! [`ALL_PAIRS_MAX_NODES`] nodes, else one search per destination).

use super::replay::ALL_PAIRS_MAX_NODES;
use super::{BROADCAST, TimedSend};
use crate::network::Graph;
use rayon::prelude::*;

/// Counts the sends of personalised packets over links of the network that do
/// not bring the packet closer to its destination.
pub(super) fn count_derouted(graph: &Graph, sends: &[TimedSend]) -> u64 {
    let n = graph.nodes() as u32;
    let relevant = |s: &TimedSend| {
        s.destination != BROADCAST
            && s.destination < n
            && s.from < n
            && s.to < n
            && graph.link(s.from, s.to).is_some()
    };
    if sends.iter().all(|s| s.destination == BROADCAST) {
        return 0; // nothing personalised: no distances needed
    }
    if graph.nodes() <= ALL_PAIRS_MAX_NODES {
        let rows: Vec<Vec<u32>> = (0..n)
            .into_par_iter()
            .map(|d| graph.distances_to(d))
            .collect();
        let diameter = rows.iter().flatten().copied().max().unwrap_or(0);
        return if diameter < u32::from(u8::MAX) {
            // One byte per pair: a 12-cube's table (16 MiB) stays in cache.
            let table: Vec<u8> = rows.into_iter().flatten().map(|x| x as u8).collect();
            count_with_table(&table, n as usize, sends, &relevant)
        } else {
            let table: Vec<u32> = rows.into_iter().flatten().collect();
            count_with_table(&table, n as usize, sends, &relevant)
        };
    }
    let mut by_destination: Vec<u32> = (0..sends.len() as u32)
        .filter(|&i| relevant(&sends[i as usize]))
        .collect();
    by_destination.sort_unstable_by_key(|&i| sends[i as usize].destination);
    // One breadth-first search per destination, the destinations in parallel.
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

/// Derouted sends, by an all-pairs table (`table[d·N + x]`: distance of x to d),
/// counted over chunks of sends in parallel.
fn count_with_table<T: Copy + Ord + Sync>(
    table: &[T],
    n: usize,
    sends: &[TimedSend],
    relevant: &(impl Fn(&TimedSend) -> bool + Sync),
) -> u64 {
    sends
        .par_chunks(1 << 16)
        .map(|chunk| {
            chunk
                .iter()
                .filter(|s| relevant(s))
                .filter(|s| {
                    let row = &table[s.destination as usize * n..][..n];
                    row[s.to as usize] >= row[s.from as usize]
                })
                .count() as u64
        })
        .sum()
}
