//! A schedule as an MSCCL algorithm (the XML the MSCCL runtime loads;
//! docs/export.md, "MSCCL XML"): a total exchange as an all-to-all, and
//! (in [`collective`](mod@collective)) broadcast, reduce, allgather,
//! reduce-scatter and allreduce as the MSCCL collectives of those names.
//!
//! MSCCL runs one program per GPU as a set of threadblocks; each threadblock
//! executes its steps in order, may send to one peer and receive from one peer,
//! and waits for a step of another threadblock of its GPU when a step names it
//! (`depid`, `deps`). A send and a receive meet over the connection (peer,
//! channel) in first-in first-out order. The mapping here is the plainest one
//! that keeps every timed send of the schedule:
//!
//! - one threadblock per (peer, direction) the schedule uses: a *send*
//!   threadblock per out-neighbour, a *receive* threadblock per in-neighbour,
//!   plus one threadblock for the local copy of a GPU's own chunk;
//! - each direction of the network (on a torus: dimension and sign) is a
//!   channel, so that a channel is a set of parallel links, as an NCCL ring is,
//!   and each GPU has at most one send and one receive threadblock per channel;
//! - each threadblock's steps are its sends (or receives) in schedule step
//!   order; a link carries at most one message per step, so the k-th send on
//!   a → b meets the k-th receive at b from a, and both are the same send of the
//!   schedule;
//! - a link of a fabric that carries several messages in one step (a doubled
//!   NVLink, capacity 2) gets a *lane* per message of its busiest step: lane j
//!   is a send threadblock, a receive threadblock and a channel of its own
//!   (the link's channel plus j times the number of channels), and the j-th
//!   send of a step on the link (in the order the sends are listed) takes
//!   lane j, so each connection still carries one message a step, in order
//!   (collectives; a total exchange keeps one lane per link);
//! - a message starts in input chunk `i[d]` of its source, ends in output chunk
//!   `o[s]` of its destination (MSCCL's all-to-all layout), and in between lives
//!   in a scratch chunk of its own at every node it passes (`s[k]`, never
//!   reused, so no step can overwrite a chunk another still needs);
//! - a forward depends on the receive that brought the message (`depid`/`deps`,
//!   and `hasdep` on that receive);
//! - on a fabric with switch limits, the sends of a GPU that is a source of a
//!   limit are held in schedule step order: each waits (through `nop` steps,
//!   one dependency each, then its own) for every send of the GPU's previous
//!   step that sent, so that no step of the program mixes two of the GPU's
//!   schedule steps and every limit on that GPU's sends alone is kept
//!   (docs/export.md, "Switch limits"). A limit that counts several GPUs'
//!   sends (a receive limit) cannot be kept by each GPU's own order.
//!
//! Every send and receive of step t waits only for steps before t, so by
//! induction on t the program cannot deadlock, even if each send waits for its
//! receive. [`AllToAll::execute`] checks this by running the program under that
//! strictest rule, with the data it moves, and [`AllToAll::check_against`]
//! compares what it moved, link by link and in order, with the schedule: the
//! CLI refuses to write a program that fails either. The collectives share
//! the threadblocks, channels and dependencies; their programs are checked by
//! the MSCCL checker itself ([`collective::check_collective`]).

use std::collections::{BTreeMap, HashMap};
use txverify_core::schedule::{Collective, Schedule, TimedSend};

pub mod collective;
mod layout;
pub mod placement;
mod run;
mod switches;
mod xml;

use layout::{Held, Layout, all_delivered, limit_sources, link_lanes, order_waits, ordered_gpus};

/// At most this many sends are written as MSCCL steps (two steps each; the
/// XML takes about 300 bytes per send). A runtime loads far fewer per GPU
/// (docs/export.md).
pub const MAX_MSCCL_SENDS: usize = 1 << 20;

/// At most this many `nop` steps are written to hold sends in step order on
/// a fabric with switch limits (each a send of a GPU waiting for a send of
/// its previous step), counted before any is written.
pub const MAX_ORDER_WAITS: u64 = 1 << 22;

/// Runtime limits of msccl-executor-nccl's XML reader in its default build, the
/// figures [`RuntimeFit`] is compared with.
pub mod runtime_limits {
    /// Steps per threadblock (`MSCCL_MAX_NUM_STEPS`, a build option).
    pub const STEPS_PER_THREADBLOCK: usize = 64;
    /// Elements the reader keeps for one rank: `<algo>`, every `<gpu>`, and the
    /// rank's own `<tb>` and `<step>` elements.
    pub const ELEMENTS_PER_RANK: usize = 4096;
    /// Children of one element (`MAX_SUBS`).
    pub const CHILDREN_PER_ELEMENT: usize = 1024;
}

/// Why a schedule cannot be written as an MSCCL all-to-all, or why a program
/// fails its own checks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MscclError {
    /// Only total exchanges are MSCCL all-to-alls.
    #[error("MSCCL export writes total exchanges only, not {0}")]
    NotTotalExchange(String),
    /// A collective MSCCL has no counterpart of (scatter, gather).
    #[error(
        "MSCCL export writes total exchanges, broadcast, reduce, allgather, reduce-scatter and allreduce, not {0}"
    )]
    Unsupported(String),
    /// The schedule leaves a node without what the collective gives it.
    #[error("the schedule does not finish: {0}")]
    Unfinished(String),
    /// The schedule names no network, so its node count is unknown.
    #[error("the schedule names no network")]
    NoNetwork,
    /// More sends than [`MAX_MSCCL_SENDS`].
    #[error(
        "the schedule has {sends} sends, more than the MSCCL export limit of {MAX_MSCCL_SENDS}"
    )]
    TooLarge {
        /// Sends in the schedule.
        sends: usize,
    },
    /// More waits than [`MAX_ORDER_WAITS`] to hold sends in step order.
    #[error(
        "holding each GPU's sends in step order takes {waits} waits, more than the MSCCL export limit of {MAX_ORDER_WAITS}"
    )]
    TooManyWaits {
        /// Waits the order would take.
        waits: u64,
    },
    /// A schedule through switch nodes the export cannot write as GPU-to-GPU sends.
    #[error("{0}")]
    Switches(String),
    /// A GPU-to-GPU send through switch nodes that no step can take
    /// ([`placement`]): its sender may not send it at any step where its
    /// route's links and the switch limits have room.
    #[error(
        "step {}: {} -> {} carrying {}{}: sent at step {} and reaching GPU {} at step {reached} in the schedule, it finds no step (tried up to step {tried_to}) at which GPU {} may send it in the program and every link of its route and every switch limit has room",
        .send.step, .send.from, .send.to, .send.packet(), through(*.switch), .send.step, .send.to, .send.from
    )]
    NoStep {
        /// The send, at the step the schedule sent its copy.
        send: TimedSend,
        /// The step the copy reached its GPU in the schedule.
        reached: u32,
        /// The last switch it crosses.
        switch: Option<u32>,
        /// The last step tried.
        tried_to: u32,
    },
    /// More tries than [`placement::MAX_PLACEMENT_TRIES`] to place the sends
    /// through switch nodes.
    #[error(
        "placing the sends through switch nodes takes more than {} tries, the MSCCL export limit",
        placement::MAX_PLACEMENT_TRIES
    )]
    TooManyTries {
        /// Tries made when the export stopped.
        tries: u64,
    },
    /// The program, played in steps on its fabric as `check --network`
    /// plays it, exceeds a capacity or a switch limit (a bug of this module).
    #[error(
        "the MSCCL program does not fit its fabric ({violations} violations, the first: {first})"
    )]
    OverFabric {
        /// Violations counted.
        violations: u64,
        /// The first, as the check names it.
        first: String,
    },
    /// The program has too many chunk-hops to be played in steps on its
    /// fabric, so it cannot be shown to fit.
    #[error(
        "the MSCCL program has {chunk_hops} chunk-hops, more than the {} the check plays in steps, so its fit to the fabric cannot be checked",
        crate::msccl::links::MAX_STEP_CHUNK_HOPS
    )]
    NotPlayed {
        /// Its chunk-hops.
        chunk_hops: u64,
    },
    /// A send the schedule cannot make (the schedule was not replayed valid).
    #[error("step {}: {} -> {} carrying {}: {reason}", .send.step, .send.from, .send.to, .send.packet())]
    BadSend {
        /// The send.
        send: TimedSend,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A message the schedule leaves away from its destination.
    #[error("message {from_node} -> {destination} never reaches its destination")]
    NotDelivered {
        /// Its source.
        from_node: u32,
        /// Its destination.
        destination: u32,
    },
    /// Running the program went wrong (a bug of this module).
    #[error("the MSCCL program fails when run: {0}")]
    Execution(String),
    /// The program moves other messages than the schedule (a bug of this module).
    #[error("the MSCCL program differs from the schedule on link {from} -> {to}: {detail}")]
    Mismatch {
        /// The link's sender.
        from: u32,
        /// The link's receiver.
        to: u32,
        /// How.
        detail: String,
    },
}

/// ` through switch S` for a send through a switch, else nothing.
fn through(switch: Option<u32>) -> String {
    switch.map_or_else(String::new, |s| format!(" through switch {s}"))
}

/// An MSCCL buffer: `i`, `o` or `s`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Buffer {
    /// The input buffer: chunk `d` is the message for GPU `d`.
    Input,
    /// The output buffer: chunk `s` is the message from GPU `s`.
    Output,
    /// Scratch space for messages in transit.
    Scratch,
}

impl Buffer {
    /// The letter the XML writes.
    pub fn letter(self) -> char {
        match self {
            Buffer::Input => 'i',
            Buffer::Output => 'o',
            Buffer::Scratch => 's',
        }
    }
}

/// A chunk of one GPU's buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Chunk {
    /// Which buffer.
    pub buffer: Buffer,
    /// Its index in the buffer.
    pub index: u32,
}

/// What a step does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// `s`: send `src` of this GPU to the threadblock's send peer, into its `dst`.
    Send,
    /// `r`: receive into `dst` of this GPU from the threadblock's receive peer
    /// (which sent its `src`).
    Recv,
    /// `cpy`: copy `src` to `dst` on this GPU.
    Copy,
    /// `rrc`: receive from the threadblock's receive peer, combine with `src`
    /// of this GPU, write the result to `dst` of this GPU.
    RecvReduceCopy,
    /// `nop`: nothing; its dependency is the next step's too (a step waits
    /// for several others through the nops before it).
    Nop,
}

impl StepKind {
    /// The `type` the XML writes.
    pub fn code(self) -> &'static str {
        match self {
            StepKind::Send => "s",
            StepKind::Recv => "r",
            StepKind::Copy => "cpy",
            StepKind::RecvReduceCopy => "rrc",
            StepKind::Nop => "nop",
        }
    }
}

/// One step of a threadblock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// What it does.
    pub kind: StepKind,
    /// The chunk read (on the sender, for a send or a receive).
    pub src: Chunk,
    /// The chunk written (on the receiver, for a send or a receive).
    pub dst: Chunk,
    /// `(threadblock, step)` of this GPU that must be done first.
    pub depends_on: Option<(u32, u32)>,
    /// Whether a step of another threadblock waits for this one (`hasdep`).
    pub has_dependent: bool,
}

/// A threadblock: at most one send peer and one receive peer, on one channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Threadblock {
    /// The GPU it sends to.
    pub send: Option<u32>,
    /// The GPU it receives from.
    pub recv: Option<u32>,
    /// Its channel.
    pub channel: u32,
    /// Its steps, run in order.
    pub steps: Vec<Step>,
}

/// One GPU's program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gpu {
    /// Its rank (the schedule's node number).
    pub rank: u32,
    /// Scratch chunks it needs.
    pub scratch_chunks: u32,
    /// Its threadblocks; a threadblock's id is its index here.
    pub threadblocks: Vec<Threadblock>,
}

/// An MSCCL program for `gpus.len()` GPUs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MscclProgram {
    /// The algorithm's name (letters, digits, `_` and `.` only).
    pub name: String,
    /// What the schedule was, for the XML's opening comment.
    pub origin: String,
    /// The MSCCL collective (`coll`): `alltoall`, `allgather`, …
    pub coll: &'static str,
    /// `nchunksperloop`.
    pub chunks_per_loop: u32,
    /// Input chunks of every GPU (`i_chunks`).
    pub input_chunks: u32,
    /// Output chunks of every GPU (`o_chunks`).
    pub output_chunks: u32,
    /// One program per GPU, by rank.
    pub gpus: Vec<Gpu>,
}

/// The former name of [`MscclProgram`], when every program was an all-to-all.
pub type AllToAll = MscclProgram;

/// A transfer as the program makes it: over `from → to`, the message `source`
/// wrote for `destination`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Transfer {
    /// Sending GPU.
    pub from: u32,
    /// Receiving GPU.
    pub to: u32,
    /// The message's source.
    pub source: u32,
    /// The message's destination.
    pub destination: u32,
}

/// How large the program is against a runtime's limits ([`runtime_limits`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuntimeFit {
    /// Most steps in one threadblock.
    pub max_steps_per_threadblock: usize,
    /// Most threadblocks on one GPU.
    pub max_threadblocks: usize,
    /// Most XML elements the reader keeps for one rank.
    pub max_elements_per_rank: usize,
}

impl RuntimeFit {
    /// The limits of [`runtime_limits`] this program exceeds, as sentences.
    pub fn exceeded(&self) -> Vec<String> {
        use runtime_limits::*;
        let mut out = Vec::new();
        if self.max_steps_per_threadblock > STEPS_PER_THREADBLOCK {
            out.push(format!(
                "a threadblock has {} steps; the runtime's default build takes {STEPS_PER_THREADBLOCK} (MSCCL_MAX_NUM_STEPS)",
                self.max_steps_per_threadblock
            ));
        }
        if self.max_elements_per_rank > ELEMENTS_PER_RANK {
            out.push(format!(
                "a rank needs {} XML elements; the runtime's reader keeps {ELEMENTS_PER_RANK}",
                self.max_elements_per_rank
            ));
        }
        if self.max_threadblocks.max(self.max_steps_per_threadblock) > CHILDREN_PER_ELEMENT {
            out.push(format!(
                "an element has more than {CHILDREN_PER_ELEMENT} children, the runtime reader's limit"
            ));
        }
        out
    }
}

/// Keeps letters, digits, `_` and `.` (the runtime's reader takes attribute
/// values as raw bytes up to 255 of them), at most 64 characters.
fn sanitize(name: &str) -> String {
    let kept: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' {
                c
            } else {
                '_'
            }
        })
        .take(64)
        .collect();
    if kept.is_empty() {
        "txverify".to_string()
    } else {
        kept
    }
}

/// The MSCCL all-to-all program of a total-exchange schedule (which the caller
/// has replayed valid). `name` is sanitised into the algorithm's name.
pub fn alltoall(schedule: &Schedule, name: &str) -> Result<AllToAll, MscclError> {
    if schedule.collective != Collective::TotalExchange {
        return Err(MscclError::NotTotalExchange(
            schedule.collective.to_string(),
        ));
    }
    let network = schedule.network.as_ref().ok_or(MscclError::NoNetwork)?;
    let n = network.nodes().map_err(|_| MscclError::NoNetwork)? as u32;
    let sends = sends_in_order(schedule, n)?;
    for s in &sends {
        if s.packet().is_broadcast() {
            let reason = "an item in a total exchange";
            return Err(MscclError::BadSend { send: *s, reason });
        }
    }
    // One lane a link: the sends of a step on a link go in (step, from, to) order.
    let lanes: BTreeMap<(u32, u32), u32> = sends.iter().map(|s| ((s.from, s.to), 1)).collect();
    let ordered = ordered_gpus(network, n)?;
    order_waits(&sends, &ordered)?;
    let mut program = Layout::new(n, network, &lanes, &ordered, |rank| {
        vec![Layout::copy(
            Chunk {
                buffer: Buffer::Input,
                index: rank,
            },
            Chunk {
                buffer: Buffer::Output,
                index: rank,
            },
            None,
        )]
    });
    let mut held: HashMap<(u32, u32), Held> = HashMap::new();
    for s in &sends {
        program.place(s, &mut held)?;
    }
    all_delivered(n, &held)?;
    let time = sends.last().map_or(0, |s| s.step);
    Ok(MscclProgram {
        name: sanitize(name),
        origin: format!(
            "all-to-all on {network} ({n} GPUs), {} sends in {time} steps",
            sends.len()
        ),
        coll: "alltoall",
        chunks_per_loop: n,
        input_chunks: n,
        output_chunks: n,
        gpus: program.gpus,
    })
}

/// The schedule's sends in (step, from, to) order, each checked to name nodes
/// of the network and to move between two different ones; at most
/// [`MAX_MSCCL_SENDS`] of them. An item's block is its source; its
/// destination `*` is not a node and not checked here.
fn sends_in_order(schedule: &Schedule, n: u32) -> Result<Vec<TimedSend>, MscclError> {
    if schedule.sends.len() > MAX_MSCCL_SENDS {
        return Err(MscclError::TooLarge {
            sends: schedule.sends.len(),
        });
    }
    let mut sends = schedule.sends.clone();
    sends.sort_by_key(|s| (s.step, s.from, s.to));
    for s in &sends {
        let item = s.packet().is_broadcast();
        let reason =
            if [s.from, s.to, s.source].iter().any(|&x| x >= n) || (!item && s.destination >= n) {
                Some("a node number out of range")
            } else if (!item && s.source == s.destination) || s.from == s.to {
                Some("a node sends to itself")
            } else {
                None
            };
        if let Some(reason) = reason {
            return Err(MscclError::BadSend { send: *s, reason });
        }
    }
    Ok(sends)
}
