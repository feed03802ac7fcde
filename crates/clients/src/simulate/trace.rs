//! A step-by-step listing of every hop, for reading small simulations by eye.
//!
//! The listing replays the words from every source; it checks nothing (the
//! engine does) and is refused beyond a size where it could not be read anyway.

use super::SimulationInput;
use serde::Serialize;
use txverify_core::group::Elem;

/// At most this many hops are listed.
pub const MAX_TRACE_HOPS: u64 = 100_000;

/// One message crossing one physical link at one step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Hop {
    /// The step (the table column).
    pub step: usize,
    /// The node the message leaves.
    pub from: u32,
    /// The node it reaches.
    pub to: u32,
    /// The message's source node.
    pub source: u32,
    /// The message's destination node.
    pub destination: u32,
    /// The word, as written.
    pub word: String,
    /// The word's row.
    pub row: usize,
}

/// Every hop of the simulation in step order, or `None` when there are more than
/// [`MAX_TRACE_HOPS`].
pub fn trace(input: &SimulationInput<'_>) -> Option<Vec<Hop>> {
    let nodes = input.embedding.network().nodes() as u64;
    let letters: u64 = input.words.iter().map(|w| w.letters.len() as u64).sum();
    if letters.saturating_mul(nodes) > MAX_TRACE_HOPS {
        return None;
    }
    let mut hops = Vec::new();
    for word in input.words {
        for h in input.group.elements() {
            let letters: Vec<_> = word.letters.iter().map(|&l| input.links[l]).collect();
            let destination = input.embedding.node(input.group.apply_word(h, &letters));
            let mut at: Elem = h;
            for (offset, &letter) in letters.iter().enumerate() {
                let next = input.group.apply(at, letter);
                hops.push(Hop {
                    step: word.column + offset,
                    from: input.embedding.node(at),
                    to: input.embedding.node(next),
                    source: input.embedding.node(h),
                    destination,
                    word: word.text.clone(),
                    row: word.row,
                });
                at = next;
            }
        }
    }
    hops.sort_by_key(|hop| (hop.step, hop.from, hop.to));
    Some(hops)
}
