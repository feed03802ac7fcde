//! Multinode broadcast (seed paper, section 2): a single-node broadcast from
//! 00…0 given as link sets A_1 … A_q, replicated at every node t by XOR
//! translation, A_i(t) = {(t ⊕ x, t ⊕ y) | (x, y) ∈ A_i}.
//!
//! The paper's key observation: when the links of each A_i are of distinct
//! types (differ in distinct bits), the translates A_i(t) of one step are
//! disjoint over t, so all broadcasts run at once without queueing. The link
//! sets built here have d links in each of A_1 … A_(q−1), q = ⌈(2^d − 1)/d⌉.
//! [`check_link_sets`] checks the distinct-types condition and that the sets
//! form a broadcast tree; the replay then checks every send again.

use super::HypercubeError;
use super::necklace::{Classes, Numbering, rotl};
use rayon::prelude::*;
use txverify_core::network::NetworkName;
use txverify_core::schedule::{BROADCAST, Collective, Ports, Schedule, TimedSend};

/// A directed link `(from, to)` of the d-cube.
pub type Link = (u32, u32);

/// Why link sets do not give a conflict-free broadcast tree from 00…0.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LinkSetError {
    /// `(from, to)` is not a link of the d-cube.
    #[error("A_{set}: ({from}, {to}) is not a link of the {d}-cube")]
    NotALink {
        /// The 1-based set.
        set: usize,
        /// Its tail.
        from: u32,
        /// Its head.
        to: u32,
        /// The dimension.
        d: u32,
    },
    /// Two links of one set are of the same type.
    #[error("A_{set}: links ({}, {}) and ({}, {}) are both of type {link_type}", first.0, first.1, second.0, second.1)]
    SameType {
        /// The 1-based set.
        set: usize,
        /// The 1-based type (the differing bit, from the right).
        link_type: u32,
        /// The first link of that type.
        first: Link,
        /// The second.
        second: Link,
    },
    /// A link starts at a node that has not received the packet before the step.
    #[error("A_{set}: link ({from}, {to}) starts at a node that does not hold the packet yet")]
    TailNotReached {
        /// The 1-based set.
        set: usize,
        /// Its tail.
        from: u32,
        /// Its head.
        to: u32,
    },
    /// A node is reached twice, or the root is reached.
    #[error("node {node} is reached twice")]
    ReachedTwice {
        /// The node.
        node: u32,
    },
    /// A node is never reached.
    #[error("node {node} is never reached")]
    NotReached {
        /// The node.
        node: u32,
    },
}

/// The link sets A_1 … A_q of section 2 for the d-cube (d ≥ 1).
///
/// Identities are numbered as in the module `necklace` (the rotation classes) with the first element t
/// of every class chosen so that bit m(t) is 1 and, in R_k1, the bit below it
/// (cyclically) is 0; E_i holds the identities numbered (i−1)d + 1 … id, and
/// A_i joins each t ∈ E_i to t with bit m(t) cleared.
pub fn link_sets(d: u32) -> Vec<Vec<Link>> {
    let classes = Classes::new(d);
    let mut numbering = Numbering::start(d);
    for class in &classes.list {
        let m = numbering.m_of_number(numbering.next());
        let first = if class.rep == (1 << class.weight) - 1 {
            // R_k1: the block of k ones with its lowest bit at position m.
            let mut x = class.rep;
            for _ in 0..m {
                x = rotl(x, d);
            }
            x
        } else {
            let mut x = class.rep;
            while x >> m & 1 == 0 {
                x = rotl(x, d);
            }
            x
        };
        numbering.push_class(first, class.size);
    }
    let all = (1u32 << d) - 1;
    if numbering.number[all as usize] == u32::MAX {
        numbering.push(all);
    }
    let nodes = 1usize << d;
    let q = (nodes - 1).div_ceil(d as usize);
    let mut sets = vec![Vec::new(); q];
    for n in 1..nodes as u32 {
        let t = numbering.order[n as usize];
        let parent = t & !(1 << numbering.m_of_number(n));
        sets[(n as usize - 1) / d as usize].push((parent, t));
    }
    sets
}

/// Checks that link sets broadcast from 00…0 over a tree of the d-cube with
/// links of distinct types in every set: every link is a link, its tail holds
/// the packet before the step, every node other than 00…0 is reached exactly
/// once, and no two links of a set differ in the same bit.
pub fn check_link_sets(d: u32, sets: &[Vec<Link>]) -> Result<(), LinkSetError> {
    let nodes = 1usize << d;
    // reached[x]: the 1-based set that reaches x (0 for the root, MAX for none).
    let mut reached = vec![usize::MAX; nodes];
    reached[0] = 0;
    for (i, set) in sets.iter().enumerate() {
        let set_no = i + 1;
        let mut by_type: Vec<Option<Link>> = vec![None; d as usize];
        for &(from, to) in set {
            let diff = from ^ to;
            if diff.count_ones() != 1 || from as usize >= nodes || to as usize >= nodes {
                return Err(LinkSetError::NotALink {
                    set: set_no,
                    from,
                    to,
                    d,
                });
            }
            let kind = diff.trailing_zeros() as usize;
            if let Some(first) = by_type[kind] {
                return Err(LinkSetError::SameType {
                    set: set_no,
                    link_type: kind as u32 + 1,
                    first,
                    second: (from, to),
                });
            }
            by_type[kind] = Some((from, to));
            if reached[from as usize] >= set_no {
                return Err(LinkSetError::TailNotReached {
                    set: set_no,
                    from,
                    to,
                });
            }
        }
        for &(_, to) in set {
            if reached[to as usize] != usize::MAX {
                return Err(LinkSetError::ReachedTwice { node: to });
            }
            reached[to as usize] = set_no;
        }
    }
    match reached.iter().position(|&r| r == usize::MAX) {
        Some(x) => Err(LinkSetError::NotReached { node: x as u32 }),
        None => Ok(()),
    }
}

/// The multinode broadcast of link sets: the packet of node t crosses every
/// link of A_i(t) at step i. Sends are in step order. Nothing is checked here.
pub fn from_link_sets(d: u32, sets: &[Vec<Link>]) -> Schedule {
    let nodes = 1usize << d;
    let links: Vec<(u32, Link)> = sets
        .iter()
        .enumerate()
        .flat_map(|(i, set)| set.iter().map(move |&l| (i as u32 + 1, l)))
        .collect();
    let mut sends = Vec::new();
    (0..links.len() * nodes)
        .into_par_iter()
        .map(|k| {
            let (step, (x, y)) = links[k >> d];
            let t = (k & (nodes - 1)) as u32;
            TimedSend {
                step,
                from: t ^ x,
                to: t ^ y,
                source: t,
                destination: BROADCAST,
            }
        })
        .collect_into_vec(&mut sends);
    Schedule {
        network: Some(NetworkName::Hypercube(d)),
        ports: Some(Ports::All),
        collective: Collective::ALLGATHER,
        sends,
    }
}

/// Section 2's multinode broadcast on the d-cube, after checking its link sets.
pub fn build(d: u32) -> Result<(Schedule, Vec<Vec<Link>>), HypercubeError> {
    let sets = link_sets(d);
    check_link_sets(d, &sets)?;
    Ok((from_link_sets(d, &sets), sets))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn section_2_sets_are_full_and_of_distinct_types() {
        for d in 1..=12u32 {
            let sets = link_sets(d);
            let nodes = 1usize << d;
            assert_eq!(sets.len(), (nodes - 1).div_ceil(d as usize), "d {d}");
            for set in &sets[..sets.len() - 1] {
                assert_eq!(set.len(), d as usize, "d {d}");
            }
            check_link_sets(d, &sets).unwrap_or_else(|e| panic!("d {d}: {e}"));
        }
    }

    #[test]
    fn figure_2_sets_with_two_links_of_one_type_are_refused() {
        // d = 3: A_1 = {(000,001), (000,100)}, A_2 = {(000,010), (001,011), (100,101)}, …:
        // A_1 has types 1 and 3, A_2 has (000,010) of type 2 and (100,101) of type 1,
        // (001,011) of type 2 again.
        let sets = vec![
            vec![(0, 1), (0, 4)],
            vec![(0, 2), (1, 3), (4, 5)],
            vec![(3, 7), (4, 6)],
        ];
        assert!(matches!(
            check_link_sets(3, &sets),
            Err(LinkSetError::SameType {
                set: 2,
                link_type: 2,
                ..
            })
        ));
    }

    #[test]
    fn a_link_from_a_node_not_yet_reached_is_refused() {
        let sets = vec![vec![(0, 1), (1, 3)], vec![(0, 2)]];
        assert!(matches!(
            check_link_sets(2, &sets),
            Err(LinkSetError::TailNotReached {
                set: 1,
                from: 1,
                ..
            })
        ));
    }
}
