//! The copies of broadcast and allgather on any network, step by step: each
//! node that lacks items takes, from each neighbour in turn, one item the
//! neighbour holds and it lacks, the rarest first (the fewest holders at the
//! start of the step), within the port limits.
//!
//! Why rarest first: an item held by few nodes is the one whose spread limits
//! the end; taking it first keeps every item's holders growing (the
//! BitTorrent rule). Why receivers choose: under all ports a directed link
//! into a node serves that node alone, so each receiver's choice is a
//! matching of its own incoming links to distinct items, with no conflict
//! between receivers; under K ports the senders' ports are shared, and the
//! receivers whose subtrees are deepest (broadcast) choose first, so a sender
//! serves them before the leaves (the BFS tree's "deepest subtree first").
//!
//! Every step makes at least one send while a node lacks an item (the graph
//! is connected: some link joins a holder of that item to a node without it,
//! and the first receiver to look at a free sender takes something), so the
//! loop ends; the sends it makes are all of the collective's copies, each
//! node receiving each item once.

use super::ItemSet;
use crate::schedule::StopToken;
use txverify_core::network::Graph;
use txverify_core::schedule::{Ports, TimedSend};

/// At most this many candidate items are looked at per (receiver, sender)
/// pair and step; a wider look gains little and costs N/64 words a pair.
const LOOK: u32 = 48;

/// Which receivers choose first under K ports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Order {
    /// Every node in turn, the first one moving each step.
    Rotating,
    /// The deepest subtree of a BFS tree from this root first.
    DeepestFirst(u32),
}

/// How one greedy run chooses.
#[derive(Clone, Copy, Debug)]
pub(super) struct Choice {
    /// Which receivers choose first.
    pub(super) order: Order,
    /// Where each receiver's look at a sender's items starts (a hash of it).
    pub(super) seed: u64,
    /// Each receiver takes first from the neighbours that offer it the
    /// fewest items (so that the one item a neighbour has is not taken from
    /// another); else in turn.
    pub(super) fewest_first: bool,
}

/// The greedy schedule of `items` on `graph` (see the module notes), or
/// `None` when `stop` says so (polled each step).
pub(super) fn copies(
    graph: &Graph,
    items: &ItemSet,
    ports: Ports,
    choice: Choice,
    stop: &StopToken,
) -> Option<Vec<TimedSend>> {
    let Choice {
        order,
        seed,
        fewest_first,
    } = choice;
    let n = graph.nodes();
    let m = items.count();
    let w = m.div_ceil(64);
    let mut have = vec![0u64; n * w];
    let mut holders = vec![1u32; m];
    let mut missing = vec![m as u32; n];
    for i in 0..m {
        let block = items.block_of(i) as usize;
        have[block * w + i / 64] |= 1 << (i % 64);
        missing[block] -= 1;
    }
    let mut left: u64 = missing.iter().map(|&x| u64::from(x)).sum();
    let limit = match ports {
        Ports::All => u32::MAX,
        Ports::Limit(k) => k,
    };
    let receivers = receiver_order(graph, order);
    let mut chosen = vec![0u64; n * w];
    let mut send_left = vec![0u32; n];
    let mut sends = Vec::new();
    let mut step_sends: Vec<(u32, u32, usize)> = Vec::new();
    let mut senders: Vec<(u32, u32)> = Vec::new();
    let mut step = 0u32;
    while left > 0 {
        if stop.stopped().is_some() {
            return None;
        }
        step += 1;
        send_left.fill(limit);
        step_sends.clear();
        let shift = match order {
            Order::Rotating => (u64::from(step) * 7919 + seed * 104_729) as usize % n,
            Order::DeepestFirst(_) => 0,
        };
        for k in 0..n {
            let v = receivers[(k + shift) % n];
            let vi = v as usize;
            if missing[vi] == 0 {
                continue;
            }
            let mut recv_left = limit;
            let around = graph.neighbours(v);
            let d = around.len();
            senders.clear();
            let turn = step as usize + seed as usize;
            senders.extend((0..d).map(|j| (0, around[(j + turn) % d])));
            if fewest_first {
                for (offered, u) in senders.iter_mut() {
                    let (a, b) = (*u as usize * w, vi * w);
                    *offered = (0..w)
                        .map(|k| (have[a + k] & !have[b + k]).count_ones())
                        .sum();
                }
                senders.sort_by_key(|&(offered, _)| offered);
            }
            for &(_, u) in &senders {
                if recv_left == 0 {
                    break;
                }
                let ui = u as usize;
                if send_left[ui] == 0 {
                    continue;
                }
                let start = if w == 1 {
                    0
                } else {
                    (tie(seed ^ u64::from(step), u64::from(v)) % w as u64) as usize
                };
                let Some(item) = rarest(
                    &have[ui * w..ui * w + w],
                    &have[vi * w..vi * w + w],
                    &chosen[vi * w..vi * w + w],
                    &holders,
                    start,
                ) else {
                    continue;
                };
                chosen[vi * w + item / 64] |= 1 << (item % 64);
                send_left[ui] -= 1;
                recv_left -= 1;
                step_sends.push((u, v, item));
            }
        }
        debug_assert!(!step_sends.is_empty(), "a step without a send");
        if step_sends.is_empty() {
            break;
        }
        for &(u, v, item) in &step_sends {
            let vi = v as usize;
            chosen[vi * w + item / 64] = 0;
            have[vi * w + item / 64] |= 1 << (item % 64);
            holders[item] += 1;
            missing[vi] -= 1;
            left -= 1;
            let (source, destination) = items.packet_of(item);
            sends.push(TimedSend {
                step,
                from: u,
                to: v,
                source,
                destination,
            });
        }
    }
    Some(sends)
}

/// The item with the fewest holders among those `from` holds and `to`
/// neither holds nor gets this step, looking at most [`LOOK`] of them from
/// word `start` on.
fn rarest(from: &[u64], to: &[u64], taken: &[u64], holders: &[u32], start: usize) -> Option<usize> {
    let w = from.len();
    let mut best: Option<(u32, usize)> = None;
    let mut looked = 0;
    for k in 0..w {
        let word = (start + k) % w;
        let mut bits = from[word] & !to[word] & !taken[word];
        while bits != 0 {
            let item = word * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let h = holders[item];
            if best.is_none_or(|(b, _)| h < b) {
                best = Some((h, item));
                if h <= 1 {
                    return Some(item);
                }
            }
            looked += 1;
            if looked >= LOOK {
                return best.map(|(_, i)| i);
            }
        }
    }
    best.map(|(_, i)| i)
}

/// The receivers in the order they choose.
fn receiver_order(graph: &Graph, order: Order) -> Vec<u32> {
    let n = graph.nodes() as u32;
    match order {
        Order::Rotating => (0..n).collect(),
        Order::DeepestFirst(root) => {
            let distance = graph.distances_from(root);
            // height(v): the farthest distance from the root among the nodes
            // below v in the BFS layers (v itself included).
            let mut by_distance: Vec<u32> = (0..n).collect();
            by_distance.sort_by_key(|&v| std::cmp::Reverse(distance[v as usize]));
            let mut height = distance.clone();
            for &v in &by_distance {
                for &x in graph.neighbours(v) {
                    if distance[x as usize] + 1 == distance[v as usize] {
                        let h = height[v as usize];
                        let hx = &mut height[x as usize];
                        *hx = (*hx).max(h);
                    }
                }
            }
            let mut order: Vec<u32> = (0..n).collect();
            order.sort_by_key(|&v| (std::cmp::Reverse(height[v as usize]), distance[v as usize]));
            order
        }
    }
}

/// A hash of two numbers, for ties and starting points (splitmix64).
pub(super) fn tie(seed: u64, x: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(x)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
