//! The allgather bound of a fabric, weighted by capacity: every node set S
//! that holds a GPU must take in the blocks of every GPU outside it, and only
//! the links entering S carry them, at most their capacities a step.
//!
//! For S with at least one GPU (a node that is not forward-only), an
//! allgather in C chunks a GPU sends at least `C · g(V∖S)` chunks into S, `g`
//! counting GPUs, over links whose capacities into S sum to `cap_in(S)`; so
//! `T ≥ ⌈C · g(V∖S) / cap_in(S)⌉`. The maximum over S of `g(V∖S) / cap_in(S)`
//! is the throughput bound ForestColl's optimum meets; this module finds it
//! by trying every S, on fabrics of at most [`MAX_EXHAUSTIVE_NODES`] nodes,
//! and states the set that proves it, counting links only (no switch
//! limits). The commands take the bound from [`super::throughput`], which
//! finds it by minimum cuts and counts limits too; this one is its tests'
//! cross-check on fabrics without limits.

use crate::network::Graph;

/// The most nodes whose every subset [`allgather_intake`] tries (2^N sets,
/// each summing the links).
pub const MAX_EXHAUSTIVE_NODES: usize = 20;

/// An allgather bound of a fabric and the node set that proves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FabricIntake {
    /// The least steps: ⌈chunks · data / capacity⌉.
    pub steps: u64,
    /// The set S, increasing.
    pub set: Vec<u32>,
    /// GPUs outside S, whose blocks must enter it.
    pub data: u64,
    /// The chunks a step the links entering S carry.
    pub capacity: u64,
}

/// The capacity-weighted intake bound of an allgather in `chunks` chunks a
/// GPU on `graph` (ties: the first set in binary order), or `None` over
/// [`MAX_EXHAUSTIVE_NODES`] nodes or with fewer than two GPUs.
pub fn allgather_intake(graph: &Graph, chunks: u32) -> Option<FabricIntake> {
    let n = graph.nodes();
    if n > MAX_EXHAUSTIVE_NODES {
        return None;
    }
    let gpu = |x: usize| !graph.is_forward_only(x as u32);
    let gpus: Vec<usize> = (0..n).filter(|&x| gpu(x)).collect();
    if gpus.len() < 2 {
        return None;
    }
    let links: Vec<(usize, usize, u64)> = (0..graph.directed_links() as u32)
        .map(|l| {
            let (a, b) = graph.endpoints(l);
            (a as usize, b as usize, u64::from(graph.capacity(l)))
        })
        .collect();
    // The best ratio data / capacity, compared as fractions.
    let mut best: Option<(u64, u64, u32)> = None;
    for set in 1u32..(1u32 << n) - 1 {
        let inside = |x: usize| set >> x & 1 == 1;
        if !gpus.iter().any(|&x| inside(x)) {
            continue;
        }
        let data = gpus.iter().filter(|&&x| !inside(x)).count() as u64;
        if data == 0 {
            continue;
        }
        let capacity: u64 = links
            .iter()
            .filter(|&&(a, b, _)| !inside(a) && inside(b))
            .map(|&(_, _, c)| c)
            .sum();
        if capacity == 0 {
            continue;
        }
        if best.is_none_or(|(d, c, _)| data * c > d * capacity) {
            best = Some((data, capacity, set));
        }
    }
    let (data, capacity, set) = best?;
    Some(FabricIntake {
        steps: (u64::from(chunks) * data).div_ceil(capacity),
        set: (0..n as u32).filter(|&x| set >> x & 1 == 1).collect(),
        data,
        capacity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::network::NetworkName;

    fn named(name: &str) -> Graph {
        name.parse::<NetworkName>().unwrap().build().unwrap()
    }

    #[test]
    fn the_doubled_dgx1_needs_three_steps_for_two_chunks() {
        // One GPU takes in 7 blocks over capacity 2 + 2 + 1 + 1 = 6.
        let b = allgather_intake(&named("dgx1"), 2).unwrap();
        assert_eq!((b.steps, b.data, b.capacity), (3, 7, 6));
        assert_eq!(b.set.len(), 1);
        assert_eq!(allgather_intake(&named("dgx1"), 1).unwrap().steps, 2);
        // Two GPUs on one link: each takes in the other's C chunks.
        let single = named("complete 2");
        assert_eq!(allgather_intake(&single, 3).unwrap().steps, 3);
    }

    #[test]
    fn a_switch_is_no_gpu_and_its_links_are_the_bottleneck() {
        // nvswitch 8: a GPU takes in 7 blocks over its one link: 7 per chunk.
        let b = allgather_intake(&named("nvswitch 8"), 2).unwrap();
        assert_eq!((b.steps, b.data, b.capacity), (14, 7, 1));
        assert!(b.set.iter().all(|&x| x < 8));
        let one_gpu = named("linear 3")
            .with_fabric(crate::network::FabricSpec {
                forward_only: vec![1, 2],
                ..Default::default()
            })
            .unwrap();
        assert!(allgather_intake(&one_gpu, 1).is_none());
    }

    #[test]
    fn large_fabrics_are_not_tried() {
        assert!(allgather_intake(&named("cluster 3 1 dgx1"), 1).is_none());
    }
}
