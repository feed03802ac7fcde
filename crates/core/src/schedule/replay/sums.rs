//! The state of a combining collective (reduce, reduce-scatter, allreduce):
//! for every item and node, the set of contributions the node's partial
//! combination of that item is made of.
//!
//! Every node starts with its own contribution to every item. A send at step t
//! carries the sender's partial as it was at the start of step t; what a node
//! receives at step t is combined into its partial at the end of step t, so the
//! order the sends of a step are listed in changes nothing. A partial received
//! is combined when it is disjoint from the receiver's (the two are added) or
//! contains it (it replaces it), and is disjoint from every other partial of
//! the same item the node receives in that step; otherwise the combination
//! would count a contribution twice (`double-counted`), or the partial brings
//! nothing new (a subset of the receiver's: `delivered-twice`). A refused
//! partial changes nothing.

use super::ViolationKind;
use crate::schedule::TimedSend;

/// Contribution sets, one per (item, node), each `words` 64-bit words.
pub(super) struct Sums {
    n: usize,
    words: usize,
    sets: Vec<u64>,
    /// By node: whether it contributes (is not forward-only).
    contributors: Vec<bool>,
    /// Partials received this step: the send, the item, and where its set
    /// starts in `pending_sets`.
    pending: Vec<(TimedSend, usize, usize)>,
    pending_sets: Vec<u64>,
}

impl Sums {
    /// Every node holds its own contribution to each of `items` items, but
    /// the forward-only ones (`switch[x]`), which contribute nothing.
    pub(super) fn new(n: usize, items: usize, switch: &[bool]) -> Sums {
        let words = n.div_ceil(64);
        let mut sets = vec![0u64; items * n * words];
        for item in 0..items {
            for x in (0..n).filter(|&x| !switch[x]) {
                sets[(item * n + x) * words + x / 64] |= 1 << (x % 64);
            }
        }
        Sums {
            n,
            words,
            sets,
            contributors: switch.iter().map(|&f| !f).collect(),
            pending: Vec::new(),
            pending_sets: Vec::new(),
        }
    }

    /// The number of bits the state of `items` items on `n` nodes takes.
    pub(super) fn bits(n: usize, items: usize) -> Option<usize> {
        items.checked_mul(n)?.checked_mul(n.div_ceil(64) * 64)
    }

    fn set(&self, item: usize, node: usize) -> &[u64] {
        let at = (item * self.n + node) * self.words;
        &self.sets[at..at + self.words]
    }

    /// Records that `s` carries the sender's partial of `item` (as at the start
    /// of the step: nothing is combined before the step ends).
    pub(super) fn send(&mut self, s: TimedSend, item: usize) {
        let start = self.pending_sets.len();
        let at = (item * self.n + s.from as usize) * self.words;
        self.pending_sets
            .extend_from_slice(&self.sets[at..at + self.words]);
        self.pending.push((s, item, start));
    }

    /// Combines the partials received this step, calling `refuse` for each one
    /// refused (the send and why).
    pub(super) fn end_step(&mut self, mut refuse: impl FnMut(TimedSend, ViolationKind)) {
        let mut pending = std::mem::take(&mut self.pending);
        pending.sort_by_key(|&(s, item, start)| (s.to, item, start));
        let w = self.words;
        let mut accepted = Vec::new();
        for group in pending.chunk_by(|a, b| (a.0.to, a.1) == (b.0.to, b.1)) {
            let (to, item) = (group[0].0.to as usize, group[0].1);
            let own = self.set(item, to);
            for (i, &(s, _, start)) in group.iter().enumerate() {
                let got = &self.pending_sets[start..start + w];
                let clash = group.iter().enumerate().any(|(j, &(_, _, other))| {
                    j != i && meet(got, &self.pending_sets[other..other + w])
                });
                let kind = if subset(got, own) {
                    Some(ViolationKind::DeliveredTwice)
                } else if clash || (meet(got, own) && !subset(own, got)) {
                    Some(ViolationKind::DoubleCounted)
                } else {
                    None
                };
                match kind {
                    Some(kind) => refuse(s, kind),
                    None => accepted.push((item * self.n + to, start)),
                }
            }
        }
        for (at, start) in accepted {
            for k in 0..w {
                self.sets[at * w + k] |= self.pending_sets[start + k];
            }
        }
        pending.clear();
        self.pending = pending;
        self.pending_sets.clear();
    }

    /// Whether `node`'s partial of `item` combines every node's contribution.
    pub(super) fn complete(&self, item: usize, node: usize) -> bool {
        let set = self.set(item, node);
        (0..self.n).all(|x| !self.contributors[x] || set[x / 64] >> (x % 64) & 1 == 1)
    }
}

fn subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

fn meet(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}
