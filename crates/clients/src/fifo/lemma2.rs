//! Lemma 2 of the FIFO algorithm, checked on the explicit queues: every node's
//! queue is the translate of the identity's. Kept apart from the run so that the
//! checks read as the lemma does, not as the algorithm's bookkeeping.

use super::arith::Arithmetic;
use super::{FifoError, Lemma2Failure, Message};
use std::collections::VecDeque;
use txverify_core::group::{Elem, FiniteGroup};

/// The translate `v·m` of a message.
pub(super) fn translate(group: &FiniteGroup, arith: &Arithmetic, v: Elem, m: Message) -> Message {
    Message {
        source: arith.mul(group, v, m.source),
        destination: arith.mul(group, v, m.destination),
    }
}

/// Lemma 2 from one step to the next: every node's queue length, the head it
/// sent and the message that joined its tail are the translates of the identity's.
pub(super) fn compare_changes(
    group: &FiniteGroup,
    arith: &Arithmetic,
    queues: &[VecDeque<Message>],
    sent: &[Option<Message>],
    joined: &[Option<Message>],
    step: usize,
) -> Result<(), FifoError> {
    for v in group.elements().skip(1) {
        let i = v.index();
        let fail = |what| {
            Err(FifoError::Lemma2 {
                step,
                node: v,
                what,
            })
        };
        if queues[i].len() != queues[0].len() {
            return fail(Lemma2Failure::Length {
                expected: queues[0].len(),
                found: queues[i].len(),
            });
        }
        if sent[i] != sent[0].map(|m| translate(group, arith, v, m)) {
            return fail(Lemma2Failure::Sent);
        }
        if joined[i] != joined[0].map(|m| translate(group, arith, v, m)) {
            return fail(Lemma2Failure::Joined);
        }
    }
    Ok(())
}

/// Lemma 2: every node's queue is the translate of the identity's, entry by entry.
pub(super) fn compare_queues(
    group: &FiniteGroup,
    arith: &Arithmetic,
    queues: &[VecDeque<Message>],
    step: usize,
    compared: &mut u64,
) -> Result<(), FifoError> {
    let Some((identity, others)) = queues.split_first() else {
        return Ok(());
    };
    let identity: Vec<Message> = identity.iter().copied().collect();
    for (i, queue) in others.iter().enumerate() {
        let node = Elem(i as u32 + 1);
        if queue.len() != identity.len() {
            return Err(FifoError::Lemma2 {
                step,
                node,
                what: Lemma2Failure::Length {
                    expected: identity.len(),
                    found: queue.len(),
                },
            });
        }
        // With a multiplication table, left multiplication by `node` is one row.
        let row = arith.row(node);
        for (position, (mine, base)) in queue.iter().zip(&identity).enumerate() {
            let same = match row {
                Some(row) => {
                    mine.source.0 == row[base.source.index()]
                        && mine.destination.0 == row[base.destination.index()]
                }
                None => *mine == translate(group, arith, node, *base),
            };
            if !same {
                return Err(FifoError::Lemma2 {
                    step,
                    node,
                    what: Lemma2Failure::Entry { position },
                });
            }
        }
        *compared += queue.len() as u64;
    }
    Ok(())
}
