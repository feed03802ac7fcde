//! The node sets the cut bounds of the collectives try, and what can cross
//! into a set in one step.
//!
//! In one step the packets entering a set S travel on links y → x with y ∉ S
//! and x ∈ S; each such x receives at most min(K, e(x)) of them and each such
//! y sends at most min(K, e(y)), e the neighbours on the other side; so at most
//! `cap(S) = min(Σ_{x∈S} min(K, e(x)), Σ_{y∉S} min(K, e(y)))` packets enter S a
//! step (all-port: the links entering S). Which sets are tried decides only
//! how strong a bound is, never whether it holds: every set of a graph up to
//! [`EVERY_SET_NODES`] nodes; beyond, every single node and its complement,
//! and up to [`BALL_NODES`] nodes every ball (the nodes within distance r of a
//! node) and its complement.

use crate::network::Graph;

/// Largest graph whose every node set is tried.
pub const EVERY_SET_NODES: usize = 16;

/// Largest graph whose balls are tried (N² sets of O(N + L) each).
pub const BALL_NODES: usize = 512;

/// The most packets that can enter `inside` (a membership vector) in one
/// step under `ports` (`None`: all-port).
pub fn entering(graph: &Graph, inside: &[bool], ports: Option<u64>) -> u64 {
    let cap = |e: u64| ports.map_or(e, |k| k.min(e));
    let (mut receivers, mut senders) = (0u64, 0u64);
    for x in 0..graph.nodes() as u32 {
        let across = graph
            .neighbours(x)
            .iter()
            .filter(|&&y| inside[y as usize] != inside[x as usize])
            .count() as u64;
        if inside[x as usize] {
            receivers += cap(across);
        } else {
            senders += cap(across);
        }
    }
    receivers.min(senders)
}

/// Calls `visit` with every set tried (proper and non-empty), as a
/// membership vector.
pub fn each_set(graph: &Graph, mut visit: impl FnMut(&[bool])) {
    let n = graph.nodes();
    if n < 2 {
        return;
    }
    if n <= EVERY_SET_NODES {
        let mut inside = vec![false; n];
        for mask in 1u32..(1 << n) - 1 {
            for (x, slot) in inside.iter_mut().enumerate() {
                *slot = mask >> x & 1 == 1;
            }
            visit(&inside);
        }
        return;
    }
    let mut both = |inside: &mut Vec<bool>| {
        visit(inside);
        inside.iter_mut().for_each(|b| *b = !*b);
        visit(inside);
    };
    for x in 0..n as u32 {
        let dist = graph.distances_from(x);
        let radii = if n <= BALL_NODES {
            dist.iter().copied().max().unwrap_or(0)
        } else {
            1
        };
        for r in 0..radii {
            let mut inside: Vec<bool> = dist.iter().map(|&d| d <= r).collect();
            both(&mut inside);
        }
    }
}
