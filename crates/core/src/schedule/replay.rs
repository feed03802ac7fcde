//! The buffered replay simulator: every send of a schedule, step by step, on
//! every node, with no appeal to any theorem.
//!
//! Rules (docs/schedule.md): each node starts with the packets the collective
//! gives it; a send at step `t` needs a link `from`–`to`, the packet at `from`
//! since before step `t` (store-and-forward), and room on the directed link (its
//! capacity: one packet per step, or the fabric's; a second packet on a link of
//! capacity 1 is `link-busy`, one too many on a larger link `over-capacity`), in
//! the fabric's switch limits (`switch-limit`) and in the sender's and
//! receiver's ports (K per step, or unlimited for `all`). A fabric's
//! forward-only nodes start with nothing and need nothing: the packets and
//! items of their blocks are not the collective's. One that does not copy
//! counts its copies of each copied item: each receipt adds one (a second
//! receipt is no duplicate), each send spends one received before its step,
//! and a send with none left is `switch-copy`; a combined item it forwards at
//! most once (`switch-copy`). Personalised packets move; the items of broadcast and
//! allgather are copied; those of reduce, reduce-scatter and allreduce are
//! partial combinations, merged at the receiver (`replay/sums.rs`). `gather R` is
//! replayed as the time-and-direction reversal of `scatter R`, its dual.
//!
//! Memory is per packet, not per send: 8 bytes per personalised packet (holder
//! and arrival step), 2 bits per (copied item, node) and N bits per (combined
//! item, node). Beyond the 20
//! bytes of each stored send, the replay takes 4 bytes per send when the sends
//! are not in step order (an index sorted by step) and, to count deroutes when
//! some send is personalised: one search's distances when XOR translations are
//! automorphisms (hypercubes); else on networks of more than
//! [`ALL_PAIRS_MAX_NODES`] nodes 4 bytes per personalised send (an index sorted
//! by destination, one breadth-first search each), on smaller ones an all-pairs
//! distance table. [`StreamReplay`] plays sends fed a batch at a time, so that
//! they need not be stored at all.

use super::{Collective, Items, Packet, Ports, Schedule, TimedSend};
use crate::network::Graph;
use std::collections::BTreeMap;

mod items;
mod report;
mod reverse;
mod stream;
mod sums;

use items::{Bits, ItemSet, Packets};
pub use report::{ReplayReport, StepUse, Violation, ViolationKind};
use reverse::{reverse, unreverse_findings};
pub use stream::StreamReplay;

pub use super::deroute::ALL_PAIRS_MAX_NODES;

/// The largest number of personalised packet slots (N² for a total exchange;
/// 8 bytes each).
pub const MAX_PACKET_SLOTS: usize = 1 << 28;

/// The largest number of bits of item state: (copied item, node) pairs (N²·C
/// for `allgather`; 2 bits each), or N bits per (combined item, node) (N³·C
/// for `reduce-scatter` and `allreduce`).
pub const MAX_BROADCAST_BITS: usize = 1 << 32;

/// How much the replay lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// List at most this many violations (all are counted).
    pub max_listed: usize,
}

impl Default for ReplayOptions {
    fn default() -> ReplayOptions {
        ReplayOptions { max_listed: 1000 }
    }
}

/// Why a schedule cannot be replayed at all (as opposed to a schedule that
/// replays with violations).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// The schedule gives no port model and none was supplied.
    #[error("the schedule says no `ports:` and none was supplied")]
    NoPorts,
    /// The schedule names no network and none was supplied.
    #[error("the schedule says no `network:` and none was supplied")]
    NoNetwork,
    /// The network cannot be built.
    #[error("{0}")]
    Network(#[from] crate::network::NetworkError),
    /// The collective's root is not a node.
    #[error("root {root} is not a node of a network of {nodes} nodes")]
    RootOutOfRange {
        /// The root given.
        root: u32,
        /// Number of nodes.
        nodes: usize,
    },
    /// The collective's root is a forward-only node, which has no data.
    #[error("root {0} is a forward-only node (a switch), which has no data")]
    RootIsForwardOnly(u32),
    /// [`replay_exchange`] was given a schedule whose collective is not
    /// `total-exchange`.
    #[error("an exchange of a message set is replayed from a total-exchange schedule, not {0}")]
    NotAnExchange(Collective),
    /// More sends than the replay indexes (`u32`).
    #[error("{0} sends are more than the replay indexes (4294967295)")]
    TooManySends(usize),
    /// A send fed to a [`StreamReplay`] has an earlier step than one fed before.
    #[error(
        "a send at step {step} comes after one at step {after}: sends are streamed in step order"
    )]
    OutOfOrder {
        /// The step of the send.
        step: u32,
        /// The step of an earlier send.
        after: u32,
    },
    /// `gather` is replayed reversed, which needs every send.
    #[error("{0} is replayed reversed in time, from the whole schedule, not streamed")]
    NotStreamable(Collective),
    /// The collective has more packets than the replay keeps state for.
    #[error("the collective has too many packets to replay on {nodes} nodes")]
    TooLarge {
        /// Number of nodes.
        nodes: usize,
    },
}

struct State<'a> {
    graph: &'a Graph,
    n: usize,
    ports: Ports,
    packets: Packets,
    /// For an exchange of a message set, the pairs `(s, d)` wanted, bit `s·N + d`.
    wanted: Option<Bits>,
    /// Personalised packets: holder and arrival step (0 = never moved), side
    /// by side so that a send reads one cache line.
    personal: Vec<Held>,
    /// Copied items: `have[p·N + x]`, and the copies received this step.
    have: Bits,
    fresh: Bits,
    fresh_list: Vec<usize>,
    /// Combined items: the contributions of each node's partials.
    sums: Option<sums::Sums>,
    /// Per-step capacity: a bit per link in the plain model, a count per
    /// link when some link of the fabric carries more than one packet.
    link_busy: Bits,
    link_load: Option<Vec<u32>>,
    busy_list: Vec<u32>,
    /// The fabric's switch limits: by node, those it is a source of; the
    /// sends counted this step by each, and the limits touched.
    limits_from: Vec<Vec<u32>>,
    limit_sends: Vec<u32>,
    limits_touched: Vec<u32>,
    /// Forward-only nodes that do not copy: their copies of each copied
    /// item, and the combined items already forwarded.
    switch_copies: Option<SwitchCopies>,
    sent: Vec<u32>,
    received: Vec<u32>,
    port_touched: Vec<u32>,
    /// In-transit packets per node.
    queue: Vec<u32>,
    queue_touched: Vec<u32>,
    peak_queue: u32,
    link_use: Vec<StepUse>,
    counts: BTreeMap<ViolationKind, u64>,
    violations: Vec<Violation>,
    max_listed: usize,
}

/// Where a personalised packet is and the step it arrived there (0: never moved).
#[derive(Clone, Copy)]
struct Held {
    holder: u32,
    arrival: u32,
}

enum Slot {
    Personal(usize),
    Copy(usize),
    Sum(usize),
}

impl State<'_> {
    fn slot(&self, p: Packet) -> Option<Slot> {
        let n = self.n as u32;
        let switch = |x: u32| self.graph.is_forward_only(x);
        if switch(p.source) || (!p.is_broadcast() && switch(p.destination)) {
            return None;
        }
        match self.packets {
            Packets::All => {
                let i = p.source as usize * self.n + p.destination as usize;
                (!p.is_broadcast()
                    && p.source != p.destination
                    && self.wanted.as_ref().is_none_or(|w| w.get(i)))
                .then_some(Slot::Personal(i))
            }
            Packets::From(r) => (p.source == r && !p.is_broadcast() && p.destination != r)
                .then_some(Slot::Personal(p.destination as usize)),
            Packets::Items(set) => {
                let i = set.index(p, n as usize)?;
                Some(match set.how {
                    Items::Sums => Slot::Sum(i),
                    _ => Slot::Copy(i),
                })
            }
        }
    }

    /// Reads the state of the personalised packet a send carries, if there is
    /// one, so that its cache line is loaded before the send is played. Changes
    /// nothing; the value read is meaningless.
    fn warm(&self, s: &TimedSend) -> u32 {
        let i = match self.packets {
            Packets::All => (s.source as usize)
                .saturating_mul(self.n)
                .saturating_add(s.destination as usize),
            Packets::From(_) => s.destination as usize,
            _ => return 0,
        };
        self.personal.get(i).map_or(0, |h| h.holder)
    }

    fn report(
        &mut self,
        kind: ViolationKind,
        step: Option<u32>,
        node: u32,
        link: Option<(u32, u32)>,
        packet: Packet,
    ) {
        *self.counts.entry(kind).or_insert(0) += 1;
        if self.violations.len() < self.max_listed {
            self.violations.push(Violation {
                kind,
                step,
                node,
                link,
                packet,
            });
        }
    }

    fn end_step(&mut self, step: u32) {
        if let Some(mut sums) = self.sums.take() {
            sums.end_step(|s, kind| {
                self.report(kind, Some(s.step), s.to, Some((s.from, s.to)), s.packet())
            });
            self.sums = Some(sums);
        }
        if !self.busy_list.is_empty() {
            self.link_use.push(StepUse {
                step,
                busy_links: self.busy_list.len() as u32,
            });
        }
        match &mut self.link_load {
            Some(load) => self.busy_list.drain(..).for_each(|l| load[l as usize] = 0),
            None => {
                for l in self.busy_list.drain(..) {
                    self.link_busy.clear(l as usize);
                }
            }
        }
        for i in self.limits_touched.drain(..) {
            self.limit_sends[i as usize] = 0;
        }
        for x in self.port_touched.drain(..) {
            self.sent[x as usize] = 0;
            self.received[x as usize] = 0;
        }
        for i in self.fresh_list.drain(..) {
            self.fresh.clear(i);
        }
        if let Some(copies) = self.switch_copies.as_mut() {
            copies.end_step();
        }
        for x in self.queue_touched.drain(..) {
            self.peak_queue = self.peak_queue.max(self.queue[x as usize]);
        }
    }

    fn send(&mut self, s: TimedSend) {
        let packet = s.packet();
        let link = Some((s.from, s.to));
        let step = Some(s.step);
        if s.step == 0 {
            return self.report(ViolationKind::StepZero, step, s.from, link, packet);
        }
        let n = self.n as u32;
        let bad = |x: u32| x >= n;
        let item = s.packet().is_broadcast();
        if bad(s.from) || bad(s.to) || bad(s.source) || (!item && bad(s.destination)) {
            let node = [s.from, s.to, s.source, s.destination]
                .into_iter()
                .find(|&x| bad(x) && !(item && x == s.destination))
                .unwrap_or(s.from);
            return self.report(ViolationKind::BadNode, step, node, link, packet);
        }
        let Some(slot) = self.slot(packet) else {
            return self.report(ViolationKind::UnknownPacket, step, s.from, link, packet);
        };
        let link_id = self.graph.link(s.from, s.to);
        if link_id.is_none() {
            self.report(ViolationKind::NotALink, step, s.from, link, packet);
        }
        // Holding and delivery.
        match slot {
            Slot::Personal(i) => {
                let held = self.personal[i];
                if held.holder != s.from || held.arrival >= s.step {
                    return self.report(ViolationKind::NotHeld, step, s.from, link, packet);
                }
                if s.from == s.destination {
                    return self.report(ViolationKind::DeliveredTwice, step, s.from, link, packet);
                }
            }
            Slot::Copy(p) if self.counts_copies(s.from) => {
                let copies = self.switch_copies.as_mut().map(|c| c.spend(p, s.from));
                match copies {
                    Some(Spend::NeverHeld) => {
                        return self.report(ViolationKind::NotHeld, step, s.from, link, packet);
                    }
                    Some(Spend::NoneLeft) => {
                        self.report(ViolationKind::SwitchCopy, step, s.from, link, packet)
                    }
                    _ => {}
                }
                if !self.counts_copies(s.to) && self.have.get(p * self.n + s.to as usize) {
                    return self.report(ViolationKind::DeliveredTwice, step, s.to, link, packet);
                }
            }
            Slot::Copy(p) => {
                let from = p * self.n + s.from as usize;
                if !self.have.get(from) || self.fresh.get(from) {
                    return self.report(ViolationKind::NotHeld, step, s.from, link, packet);
                }
                if !self.counts_copies(s.to) && self.have.get(p * self.n + s.to as usize) {
                    return self.report(ViolationKind::DeliveredTwice, step, s.to, link, packet);
                }
            }
            // Every node holds a partial of every item; what it brings is
            // judged when the step ends.
            Slot::Sum(_) => {}
        }
        // Capacity.
        if let Some(l) = link_id {
            self.use_link(l, s);
        }
        if !self.limits_from.is_empty() {
            self.count_limits(s);
        }
        if let (Some(copies), Slot::Sum(p)) = (&mut self.switch_copies, &slot)
            && self.graph.is_forward_only(s.from)
            && !copies.forwarded_sums.insert((*p, s.from))
        {
            self.report(ViolationKind::SwitchCopy, step, s.from, link, packet);
        }
        let (from, to) = (s.from as usize, s.to as usize);
        if self.sent[from] == 0 && self.received[from] == 0 {
            self.port_touched.push(s.from);
        }
        self.sent[from] = self.sent[from].saturating_add(1);
        if self.sent[to] == 0 && self.received[to] == 0 {
            self.port_touched.push(s.to);
        }
        self.received[to] = self.received[to].saturating_add(1);
        if let Ports::Limit(k) = self.ports {
            if self.sent[from] > k {
                self.report(ViolationKind::SendPorts, step, s.from, link, packet);
            }
            if self.received[to] > k {
                self.report(ViolationKind::ReceivePorts, step, s.to, link, packet);
            }
        }
        // Effect.
        match slot {
            Slot::Personal(i) => {
                if self.personal[i].arrival > 0 {
                    self.queue[from] = self.queue[from].saturating_sub(1);
                }
                self.personal[i] = Held {
                    holder: s.to,
                    arrival: s.step,
                };
                if s.to != s.destination {
                    self.queue[to] = self.queue[to].saturating_add(1);
                    self.queue_touched.push(s.to);
                }
            }
            Slot::Copy(p) => {
                if let Some(copies) = self
                    .switch_copies
                    .as_mut()
                    .filter(|_| self.graph.is_forward_only(s.to))
                {
                    copies.receive(p, s.to);
                }
                let i = p * self.n + to;
                self.have.set(i);
                self.fresh.set(i);
                self.fresh_list.push(i);
            }
            Slot::Sum(p) => {
                if let Some(sums) = self.sums.as_mut() {
                    sums.send(s, p);
                }
            }
        }
    }

    /// Whether `x` is a forward-only node that counts its copies (it does not
    /// copy).
    fn counts_copies(&self, x: u32) -> bool {
        self.switch_copies.is_some() && self.graph.is_forward_only(x)
    }

    /// Counts a send on directed link `l` against its capacity.
    fn use_link(&mut self, l: u32, s: TimedSend) {
        let (step, link, packet) = (Some(s.step), Some((s.from, s.to)), s.packet());
        let Some(load) = self.link_load.as_mut() else {
            if self.link_busy.get(l as usize) {
                self.report(ViolationKind::LinkBusy, step, s.from, link, packet);
            } else {
                self.link_busy.set(l as usize);
                self.busy_list.push(l);
            }
            return;
        };
        let count = &mut load[l as usize];
        if *count == 0 {
            self.busy_list.push(l);
        }
        *count = count.saturating_add(1);
        let capacity = self.graph.capacity(l);
        if *count > capacity {
            let kind = if capacity == 1 {
                ViolationKind::LinkBusy
            } else {
                ViolationKind::OverCapacity
            };
            self.report(kind, step, s.from, link, packet);
        }
    }

    /// Counts a send against every switch limit between its sender and receiver.
    fn count_limits(&mut self, s: TimedSend) {
        let limits = self.graph.fabric().limits();
        let mut over = 0;
        for &i in &self.limits_from[s.from as usize] {
            let limit = &limits[i as usize];
            if limit.destinations.binary_search(&s.to).is_err() {
                continue;
            }
            let sends = &mut self.limit_sends[i as usize];
            if *sends == 0 {
                self.limits_touched.push(i);
            }
            *sends = sends.saturating_add(1);
            if *sends > limit.sends {
                over += 1;
            }
        }
        for _ in 0..over {
            let (step, link) = (Some(s.step), Some((s.from, s.to)));
            self.report(ViolationKind::SwitchLimit, step, s.from, link, s.packet());
        }
    }

    fn finish(&mut self) {
        let n = self.n;
        match self.packets {
            Packets::All | Packets::From(_) => {
                for i in 0..self.personal.len() {
                    let (source, destination) = match self.packets {
                        Packets::All => ((i / n) as u32, (i % n) as u32),
                        Packets::From(r) => (r, i as u32),
                        _ => unreachable!("personalised collectives only"),
                    };
                    let wanted = self.wanted.as_ref().is_none_or(|w| w.get(i))
                        && !self.graph.is_forward_only(source)
                        && !self.graph.is_forward_only(destination);
                    if wanted && source != destination && self.personal[i].holder != destination {
                        let packet = Packet {
                            source,
                            destination,
                        };
                        self.report(
                            ViolationKind::NeverDelivered,
                            None,
                            self.personal[i].holder,
                            None,
                            packet,
                        );
                    }
                }
            }
            Packets::Items(set) => {
                for p in 0..set.count(n) {
                    let block = set.packet(p).source as usize;
                    if self.graph.is_forward_only(block as u32) {
                        continue;
                    }
                    for x in 0..n {
                        if self.graph.is_forward_only(x as u32) {
                            continue;
                        }
                        let missing = match &self.sums {
                            None => !self.have.get(p * n + x),
                            Some(sums) => (set.everywhere || x == block) && !sums.complete(p, x),
                        };
                        if missing {
                            let packet = set.packet(p);
                            self.report(
                                ViolationKind::NeverDelivered,
                                None,
                                x as u32,
                                None,
                                packet,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Replays `schedule` on `graph` (which must be the schedule's network: the
/// caller builds it, from the name or from an adjacency list). The schedule
/// must give its ports.
pub fn replay(
    schedule: &Schedule,
    graph: &Graph,
    options: &ReplayOptions,
) -> Result<ReplayReport, ReplayError> {
    replay_among(schedule, graph, options, None)
}

/// Replays a personalised exchange of a message set: the schedule's collective
/// must be `total-exchange`, and its packets are only the pairs `(s, d)`,
/// `s ≠ d`, for which `wanted(s, d)` (a send of any other pair is an
/// unknown-packet; a wanted pair not delivered is never-delivered). The report
/// names the collective `total-exchange`. Used for the message sets of `.tbl`
/// headers (`messages: odd`, …), which the file formats do not express.
pub fn replay_exchange(
    schedule: &Schedule,
    graph: &Graph,
    options: &ReplayOptions,
    wanted: impl Fn(u32, u32) -> bool,
) -> Result<ReplayReport, ReplayError> {
    if schedule.collective != Collective::TotalExchange {
        return Err(ReplayError::NotAnExchange(schedule.collective));
    }
    let n = graph.nodes();
    let bits = n.checked_mul(n).ok_or(ReplayError::TooLarge { nodes: n })?;
    if bits > MAX_PACKET_SLOTS {
        return Err(ReplayError::TooLarge { nodes: n });
    }
    let mut mask = Bits::new(bits);
    for s in 0..n as u32 {
        for d in 0..n as u32 {
            if s != d && wanted(s, d) {
                mask.set(s as usize * n + d as usize);
            }
        }
    }
    replay_among(schedule, graph, options, Some(mask))
}

/// [`replay`], with the personalised packets of a total exchange restricted to
/// `wanted` when it is given.
fn replay_among(
    schedule: &Schedule,
    graph: &Graph,
    options: &ReplayOptions,
    wanted: Option<Bits>,
) -> Result<ReplayReport, ReplayError> {
    let ports = schedule.ports.ok_or(ReplayError::NoPorts)?;
    let n = graph.nodes();
    // Sends are indexed by `u32` (the step order, the deroute index).
    if u32::try_from(schedule.sends.len()).is_err() {
        return Err(ReplayError::TooManySends(schedule.sends.len()));
    }
    let collective = schedule.collective;
    if let Some(root) = collective.root() {
        if root as usize >= n {
            return Err(ReplayError::RootOutOfRange { root, nodes: n });
        }
        if graph.is_forward_only(root) {
            return Err(ReplayError::RootIsForwardOnly(root));
        }
    }
    let (checked_as, packets, reversed) = plan(collective);
    let mut state = State::start(graph, ports, packets, options)?;
    state.wanted = wanted;
    let sends = &schedule.sends;
    let time = sends.iter().map(|s| s.step).max().unwrap_or(0);
    play(&mut state, sends, reversed, time);
    state.finish();

    let peak_queue = state.peak_queue;
    let (mut violations, mut link_use, mut counts) =
        (state.violations, state.link_use, state.counts);
    if reversed {
        unreverse_findings(&mut violations, &mut link_use, &mut counts, time);
    }
    let derouted = super::deroute::count_derouted(graph, sends);
    Ok(ReplayReport {
        nodes: n,
        directed_links: graph.directed_links(),
        ports,
        collective,
        checked_as,
        time,
        transmissions: sends.len() as u64,
        derouted,
        peak_queue,
        link_use,
        counts,
        violations,
    })
}

/// The collective replayed, its packets, and whether it is replayed reversed
/// (`gather R` as `scatter R`).
fn plan(collective: Collective) -> (Collective, Packets, bool) {
    match collective {
        Collective::Scatter(r) => (collective, Packets::From(r), false),
        Collective::Gather(r) => (Collective::Scatter(r), Packets::From(r), true),
        _ => match ItemSet::of(collective) {
            Some(set) => (collective, Packets::Items(set), false),
            None => (collective, Packets::All, false),
        },
    }
}

/// Plays every send in step order (in the reversed schedule's order for the
/// duals), closing each step when the next begins.
fn play(state: &mut State<'_>, sends: &[TimedSend], reversed: bool, time: u32) {
    let sorted = sends.windows(2).all(|w| w[0].step <= w[1].step);
    let order: Option<Vec<u32>> = (!sorted).then(|| {
        let mut order: Vec<u32> = (0..sends.len() as u32).collect();
        order.sort_unstable_by_key(|&i| (sends[i as usize].step, i));
        order
    });
    let at = |k: usize| -> TimedSend {
        let k = if reversed { sends.len() - 1 - k } else { k };
        let s = match &order {
            Some(order) => sends[order[k] as usize],
            None => sends[k],
        };
        if reversed { reverse(s, time) } else { s }
    };
    let mut current = None;
    let mut warm = 0u32;
    for k in 0..sends.len() {
        if k % WARM_AHEAD == 0 {
            for j in k + WARM_AHEAD..(k + 2 * WARM_AHEAD).min(sends.len()) {
                warm ^= state.warm(&at(j));
            }
        }
        let s = at(k);
        if current != Some(s.step) {
            if let Some(step) = current {
                state.end_step(step);
            }
            current = Some(s.step);
        }
        state.send(s);
    }
    if let Some(step) = current {
        state.end_step(step);
    }
    std::hint::black_box(warm);
}

/// How many sends ahead [`play`] reads the packet state of, in batches: the
/// reads of one batch miss the cache together instead of one after another
/// (a total exchange on a 12-cube keeps 128 MiB of packet state).
const WARM_AHEAD: usize = 64;

impl<'g> State<'g> {
    /// The state before the first step: who holds each personalised packet, which
    /// nodes have each broadcast packet, and empty per-step records.
    fn start(
        graph: &'g Graph,
        ports: Ports,
        packets: Packets,
        options: &ReplayOptions,
    ) -> Result<State<'g>, ReplayError> {
        let n = graph.nodes();
        let personal_slots = match packets {
            Packets::All => n.checked_mul(n).ok_or(ReplayError::TooLarge { nodes: n })?,
            Packets::From(_) => n,
            _ => 0,
        };
        let too_large = ReplayError::TooLarge { nodes: n };
        let (broadcast_bits, sum_bits) = match packets {
            Packets::Items(set) if set.how == Items::Sums => (
                0,
                sums::Sums::bits(n, set.count(n)).ok_or(too_large.clone())?,
            ),
            Packets::Items(set) => (n.checked_mul(set.count(n)).ok_or(too_large.clone())?, 0),
            _ => (0, 0),
        };
        if personal_slots > MAX_PACKET_SLOTS
            || broadcast_bits > MAX_BROADCAST_BITS
            || sum_bits > MAX_BROADCAST_BITS
        {
            return Err(too_large);
        }
        let at = |holder: u32| Held { holder, arrival: 0 };
        let mut personal = Vec::with_capacity(personal_slots);
        match packets {
            Packets::All => {
                // Row s holds (s, d) at s for every d; the diagonal slot (s, s) is
                // not a packet and, held by s, counts as delivered.
                for s in 0..n as u32 {
                    personal.extend(std::iter::repeat_n(at(s), n));
                }
            }
            Packets::From(r) => personal.extend(std::iter::repeat_n(at(r), n)),
            _ => {}
        }
        let fabric = graph.fabric();
        let mut limits_from: Vec<Vec<u32>> = Vec::new();
        if !fabric.limits().is_empty() {
            limits_from = vec![Vec::new(); n];
            for (i, limit) in fabric.limits().iter().enumerate() {
                for &x in &limit.sources {
                    limits_from[x as usize].push(i as u32);
                }
            }
        }
        let mut have = Bits::new(broadcast_bits);
        let mut sums = None;
        if let Packets::Items(set) = packets {
            let switch: Vec<bool> = (0..n as u32).map(|x| graph.is_forward_only(x)).collect();
            if set.how == Items::Sums {
                sums = Some(sums::Sums::new(n, set.count(n), &switch));
            } else {
                // Each item starts at its block's node; a forward-only node has none.
                for p in 0..set.count(n) {
                    let block = set.packet(p).source as usize;
                    if !switch[block] {
                        have.set(p * n + block);
                    }
                }
            }
        }
        Ok(State {
            graph,
            n,
            ports,
            packets,
            wanted: None,
            personal,
            have,
            fresh: Bits::new(broadcast_bits),
            fresh_list: Vec::new(),
            sums,
            link_busy: Bits::new(if fabric.has_capacities() {
                0
            } else {
                graph.directed_links()
            }),
            link_load: fabric
                .has_capacities()
                .then(|| vec![0; graph.directed_links()]),
            busy_list: Vec::new(),
            limits_from,
            limit_sends: vec![0; fabric.limits().len()],
            limits_touched: Vec::new(),
            switch_copies: (fabric.has_forward_only() && !fabric.multicast())
                .then(Default::default),
            sent: vec![0; n],
            received: vec![0; n],
            port_touched: Vec::new(),
            queue: vec![0; n],
            queue_touched: Vec::new(),
            peak_queue: 0,
            link_use: Vec::new(),
            counts: BTreeMap::new(),
            violations: Vec::new(),
            max_listed: options.max_listed,
        })
    }
}

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
enum Spend {
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
struct SwitchCopies {
    /// By (item, switch).
    copies: std::collections::HashMap<(usize, u32), Copies>,
    /// The (item, switch) pairs that received this step.
    arrived: Vec<(usize, u32)>,
    /// Combined items are forwarded at most once: the (item, switch) pairs sent.
    forwarded_sums: std::collections::HashSet<(usize, u32)>,
}

impl SwitchCopies {
    fn receive(&mut self, item: usize, switch: u32) {
        let c = self.copies.entry((item, switch)).or_default();
        if c.arriving == 0 {
            self.arrived.push((item, switch));
        }
        c.arriving = c.arriving.saturating_add(1);
    }

    fn spend(&mut self, item: usize, switch: u32) -> Spend {
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

    fn end_step(&mut self) {
        for key in self.arrived.drain(..) {
            if let Some(c) = self.copies.get_mut(&key) {
                c.ready = c.ready.saturating_add(c.arriving);
                c.arriving = 0;
            }
        }
    }
}

#[cfg(test)]
mod fabric_tests;
