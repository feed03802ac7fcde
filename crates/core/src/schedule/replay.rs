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
//!
//! Here: the limits, the errors, the `State` a replay keeps and the order
//! sends are played in. Beside it: the state before the first step
//! (`replay/start.rs`), one send's checks and effects (`replay/send.rs`),
//! what is recorded per violation, per step and at the end
//! (`replay/record.rs`), the switches' copies (`replay/switch_copies.rs`),
//! combined items (`replay/sums.rs`) and the report (`replay/report.rs`).

use super::{Collective, Packet, Ports, Schedule, TimedSend};
use crate::network::Graph;
use std::collections::BTreeMap;

mod items;
mod record;
mod report;
mod reverse;
mod send;
mod start;
mod stream;
mod sums;
mod switch_copies;

use items::{Bits, ItemSet, Packets};
pub use report::{ReplayReport, StepUse, Violation, ViolationKind};
use reverse::{reverse, unreverse_findings};
pub use stream::StreamReplay;
use switch_copies::SwitchCopies;

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

#[cfg(test)]
mod fabric_tests;
