//! How many packets a schedule keeps waiting at one node: the *buffer* a
//! store-and-forward algorithm needs beyond the buffer-free tables, where every
//! packet is sent on at the step after it arrives.
//!
//! A personalised packet that arrives at an intermediate node x at step a and
//! leaves it at step b waits in x's buffer at the start of every step
//! a + 1 < u < b. [`peak_buffer`] is the largest number of packets waiting at
//! one node at the start of one step. It is computed from the sends alone (a
//! replayed, valid schedule), independently of the construction.

use txverify_core::schedule::{Collective, Schedule, TimedSend};

/// Where a packet's state is kept: (source, destination) for a total
/// exchange, the destination for a scatter, the source for a gather.
#[derive(Clone, Copy)]
enum Key {
    Pair(usize),
    Destination,
    Source,
}

impl Key {
    #[inline]
    fn slot(self, s: &TimedSend) -> usize {
        match self {
            Key::Pair(n) => s.source as usize * n + s.destination as usize,
            Key::Destination => s.destination as usize,
            Key::Source => s.source as usize,
        }
    }
}

/// The most personalised packets waiting at one node at the start of one step
/// (received earlier, not at their destination, not sent on in that step), or
/// `None` for a broadcast collective. The schedule should be valid.
pub fn peak_buffer(schedule: &Schedule, nodes: usize) -> Option<u32> {
    let mut count = BufferCount::new(schedule.collective, nodes)?;
    if schedule.sends.windows(2).all(|w| w[0].step <= w[1].step) {
        count.feed(&schedule.sends);
    } else {
        let mut sends = schedule.sends.clone();
        sends.sort_by_key(|s| s.step);
        count.feed(&sends);
    }
    Some(count.finish())
}

/// [`peak_buffer`] fed a batch of sends at a time, in step order, for a
/// schedule that is never held whole (1 bit per packet, 16 bytes per node).
pub struct BufferCount {
    key: Key,
    nodes: u32,
    state: Nodes,
    /// One bit per packet: has it moved (is it in transit where it is)? 2 MiB
    /// for a total exchange on a 12-cube, so the lookups stay in cache.
    moved: Vec<u64>,
    peak: u32,
}

impl BufferCount {
    /// A count for `collective` on `nodes` nodes, or `None` for a broadcast
    /// collective (copies stay where they arrive and are not counted).
    pub fn new(collective: Collective, nodes: usize) -> Option<BufferCount> {
        let (key, slots) = match collective {
            Collective::TotalExchange => (Key::Pair(nodes), nodes * nodes),
            Collective::Scatter(_) => (Key::Destination, nodes),
            Collective::Gather(_) => (Key::Source, nodes),
            _ => return None,
        };
        Some(BufferCount {
            key,
            nodes: nodes as u32,
            state: Nodes::new(nodes),
            moved: vec![0u64; slots.div_ceil(64)],
            peak: 0,
        })
    }

    /// Counts `sends`, which follow the sends fed before in step order; sends
    /// with a node outside the network or at step 0 are skipped.
    pub fn feed(&mut self, sends: &[TimedSend]) {
        let n = self.nodes;
        let fits = |s: &TimedSend| {
            s.step > 0 && s.from < n && s.to < n && s.source < n && s.destination < n
        };
        for s in sends.iter().filter(|s| fits(s)) {
            if s.step != self.state.step {
                self.peak = self.peak.max(self.state.close_step(s.step));
            }
            let slot = self.key.slot(s);
            self.state.touch(s.from);
            self.state.touch(s.to);
            let (word, bit) = (slot / 64, 1u64 << (slot % 64));
            if self.moved[word] & bit != 0 {
                self.state.depart(s.from);
            }
            self.moved[word] |= bit;
            if s.to != s.destination {
                self.state.arrive(s.to);
            }
        }
    }

    /// The peak, once every send has been fed.
    pub fn finish(mut self) -> u32 {
        let next = self.state.step.saturating_add(1);
        self.peak.max(self.state.close_step(next))
    }
}

/// Per node: packets in transit, and what the current step did to them.
struct Nodes {
    /// The step being played (0 before the first).
    step: u32,
    /// Packets in transit at each node, as the sends so far leave them.
    transit: Vec<u32>,
    /// At nodes touched in this step: packets in transit when it began.
    at_start: Vec<u32>,
    /// At nodes touched in this step: packets in transit that left in it.
    departed: Vec<u32>,
    /// The step each node was last touched in.
    stamp: Vec<u32>,
    /// Nodes touched in this step, and in the one before.
    touched: Vec<u32>,
    previous: Vec<u32>,
}

impl Nodes {
    fn new(nodes: usize) -> Nodes {
        Nodes {
            step: 0,
            transit: vec![0; nodes],
            at_start: vec![0; nodes],
            departed: vec![0; nodes],
            stamp: vec![0; nodes],
            touched: Vec::new(),
            previous: Vec::new(),
        }
    }

    fn touch(&mut self, x: u32) {
        let i = x as usize;
        if self.stamp[i] != self.step {
            self.stamp[i] = self.step;
            self.at_start[i] = self.transit[i];
            self.departed[i] = 0;
            self.touched.push(x);
        }
    }

    fn depart(&mut self, x: u32) {
        let i = x as usize;
        self.departed[i] += 1;
        self.transit[i] = self.transit[i].saturating_sub(1);
    }

    fn arrive(&mut self, x: u32) {
        self.transit[x as usize] += 1;
    }

    /// Ends the current step and begins `next`; returns the most packets
    /// waiting at one node in the current step or in the steps without sends
    /// before `next`. A node untouched in a step waits with everything in
    /// transit, which is unchanged since the end of the step it was last
    /// touched in: so only nodes touched in this step or the one before can
    /// hold a new maximum.
    fn close_step(&mut self, next: u32) -> u32 {
        let mut peak = 0;
        for &x in &self.touched {
            let i = x as usize;
            peak = peak.max(self.at_start[i].saturating_sub(self.departed[i]));
        }
        for &x in &self.previous {
            if self.stamp[x as usize] != self.step {
                peak = peak.max(self.transit[x as usize]);
            }
        }
        if next > self.step.saturating_add(1) {
            // Steps without sends: everything in transit after this step waits.
            for &x in &self.touched {
                peak = peak.max(self.transit[x as usize]);
            }
        }
        std::mem::swap(&mut self.touched, &mut self.previous);
        self.touched.clear();
        self.step = next;
        peak
    }
}
