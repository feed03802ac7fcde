//! What a replay indexes: the packets a collective starts with, the items of
//! a collective that copies or combines, and the bit sets that record them.

use super::super::{Collective, Items, Packet};

/// The packets a collective starts with, as the replay indexes them.
#[derive(Clone, Copy)]
pub(super) enum Packets {
    /// `(s, d)` for all `s ≠ d`, slot `s·N + d`.
    All,
    /// `(R, d)` for `d ≠ R`, slot `d`.
    From(u32),
    /// Items that are copied (`Items::Copies`) or combined (`Items::Sums`).
    Items(ItemSet),
}

/// The items of a collective that copies or combines: chunks `0 … C − 1` of
/// the root's block, or of every node's block; item `b·C + c` is chunk c of
/// block b (`c` alone for a root's block).
#[derive(Clone, Copy)]
pub(super) struct ItemSet {
    pub(super) how: Items,
    /// The one block (the root), or `None`: every node's.
    pub(super) root: Option<u32>,
    pub(super) chunks: u32,
    /// Combined items: every node must end with every item complete
    /// (allreduce), not only the item's block node.
    pub(super) everywhere: bool,
}

impl ItemSet {
    pub(super) fn of(collective: Collective) -> Option<ItemSet> {
        let (root, everywhere) = match collective {
            Collective::Broadcast { root, .. } | Collective::Reduce { root, .. } => {
                (Some(root), false)
            }
            Collective::Allgather { .. } | Collective::ReduceScatter { .. } => (None, false),
            Collective::Allreduce { .. } => (None, true),
            _ => return None,
        };
        Some(ItemSet {
            how: collective.items(),
            root,
            chunks: collective.chunks(),
            everywhere,
        })
    }

    pub(super) fn count(&self, n: usize) -> usize {
        self.chunks as usize * if self.root.is_some() { 1 } else { n }
    }

    /// The index of the item `p` names, if it is one of the collective's.
    pub(super) fn index(&self, p: Packet, n: usize) -> Option<usize> {
        let c = p.chunk();
        if !p.is_broadcast() || c >= self.chunks || p.source as usize >= n {
            return None;
        }
        match self.root {
            Some(r) => (p.source == r).then_some(c as usize),
            None => Some(p.source as usize * self.chunks as usize + c as usize),
        }
    }

    /// The packet of item `i`.
    pub(super) fn packet(&self, i: usize) -> Packet {
        let c = self.chunks as usize;
        let block = self.root.unwrap_or((i / c) as u32);
        Packet::item(block, (i % c) as u32)
    }
}

/// A fixed-size set of bits.
pub(super) struct Bits(Vec<u64>);

impl Bits {
    pub(super) fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    pub(super) fn get(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }
    pub(super) fn set(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
    pub(super) fn clear(&mut self, i: usize) {
        self.0[i / 64] &= !(1 << (i % 64));
    }
}
