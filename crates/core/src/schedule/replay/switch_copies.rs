//! The copies held by the forward-only nodes of a fabric without multicast:
//! such a switch forwards what it received, one send per copy received
//! before the step, and a combined item at most once.

/// A non-copying switch's copies of one copied item.
#[derive(Clone, Copy, Debug, Default)]
struct Copies {
    /// Received before this step and not yet sent.
    ready: u32,
    /// Received this step: sendable from the next.
    arriving: u32,
    /// Sent so far.
    spent: u32,
}

/// What a switch's send of an item finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Spend {
    /// A copy received before the step, now spent.
    Spent,
    /// Copies were received before, but every one is spent.
    NoneLeft,
    /// No copy was received before the step.
    NeverHeld,
}

/// The copies held by the forward-only nodes of a fabric without multicast:
/// a switch forwards what it received, one send per copy.
#[derive(Debug, Default)]
pub(super) struct SwitchCopies {
    /// By (item, switch).
    copies: std::collections::HashMap<(usize, u32), Copies>,
    /// The (item, switch) pairs that received this step.
    arrived: Vec<(usize, u32)>,
    /// Combined items are forwarded at most once: the (item, switch) pairs sent.
    pub(super) forwarded_sums: std::collections::HashSet<(usize, u32)>,
}

impl SwitchCopies {
    pub(super) fn receive(&mut self, item: usize, switch: u32) {
        let c = self.copies.entry((item, switch)).or_default();
        if c.arriving == 0 {
            self.arrived.push((item, switch));
        }
        c.arriving = c.arriving.saturating_add(1);
    }

    pub(super) fn spend(&mut self, item: usize, switch: u32) -> Spend {
        let Some(c) = self.copies.get_mut(&(item, switch)) else {
            return Spend::NeverHeld;
        };
        if c.ready > 0 {
            c.ready -= 1;
            c.spent = c.spent.saturating_add(1);
            Spend::Spent
        } else if c.spent > 0 {
            Spend::NoneLeft
        } else {
            Spend::NeverHeld
        }
    }

    pub(super) fn end_step(&mut self) {
        for key in self.arrived.drain(..) {
            if let Some(c) = self.copies.get_mut(&key) {
                c.ready = c.ready.saturating_add(c.arriving);
                c.arriving = 0;
            }
        }
    }
}
