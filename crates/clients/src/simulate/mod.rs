//! Exhaustive simulation of a table on the physical network.
//!
//! The kernel decides validity from one node's point of view (the tabular
//! theorem: in a Cayley graph every node behaves alike). This module does not
//! use that theorem, so that a bug in either is unlikely to hide in both: it
//! plays the algorithm out on the real wiring, every node sending every
//! message, and checks what actually happens on every directed link at every
//! step. The two are differential-tested against each other.
//!
//! What is checked, step by step: at most one message per directed physical
//! link, at most `ports` messages leaving a node; at the end, every
//! (source, destination) pair of the message set delivered exactly once and
//! nothing else delivered. Messages never wait by construction (each step moves
//! every message in flight over one link); that each hop is a physical link is
//! checked once for every (node, link) pair before the run.
//!
//! Scale is the design constraint (32×32×32 torus: 2.6·10^10 hops). Hops are
//! never materialised: at step `t` only the words active at `t` matter, and the
//! state is one current node per (source, active word). Sources are split into
//! chunks that each own their slice of that state, a private occupancy bitset
//! over directed links and their rows of the delivery bitmap, so the chunks run
//! in parallel (rayon) without atomics; after each step the bitsets are merged
//! and an overlap between chunks is a conflict like one inside a chunk. Every
//! result (counts, recorded failures) is independent of the chunking.
//!
//! Memory: the in-flight state is 4 bytes per node per active word (a valid
//! table has at most `|S|` active words per step); deliveries are one bit per
//! (source, destination) pair, n² bits, which is 128 MiB at 32,768 nodes. The
//! routing table is `n × |S|` entries. Nothing grows with the number of hops.

mod engine;
mod trace;
pub use trace::{Hop, MAX_TRACE_HOPS, trace};
/// Closed-form groups for the unit tests, from the same file as the core's.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../../../tests/suite/common/groups.rs"]
mod group_testing;
/// Greedy valid tables for the unit tests; the same file serves the integration tests.
#[cfg(test)]
#[allow(dead_code)]
#[path = "../../../../tests/suite/common/schedules.rs"]
mod testing;

use serde::Serialize;

use txverify_core::group::{Elem, FiniteGroup, GenLetter};
use txverify_core::network::Embedding;

/// A word placed in the table: what the simulator plays out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlacedWord {
    /// 1-based row.
    pub row: usize,
    /// 1-based column of the first letter (the step at which it is sent).
    pub column: usize,
    /// The letters, as indices into the link list.
    pub letters: Vec<usize>,
    /// The word as written, for reports.
    pub text: String,
}

/// Which messages every node sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MessageSet {
    /// One message to every other node.
    Total,
    /// To every node at odd distance in the physical network.
    Odd,
    /// To every node at one of these distances (each ≥ 1) in the physical network.
    Distances(Vec<u32>),
    /// Node `φ(h)` sends to `φ(h·m)` for each `m` (none the identity, no repeats).
    To(Vec<Elem>),
}

/// Everything a simulation needs.
#[derive(Clone, Copy, Debug)]
pub struct SimulationInput<'a> {
    /// The group the table is written over.
    pub group: &'a FiniteGroup,
    /// The links; word letters index this list.
    pub links: &'a [GenLetter],
    /// The table's words.
    pub words: &'a [PlacedWord],
    /// The message set.
    pub messages: &'a MessageSet,
    /// Messages a node may send in one step.
    pub ports: usize,
    /// The verified map from the Cayley graph onto the network played on.
    pub embedding: &'a Embedding,
}

/// Limits of one run.
#[derive(Clone, Copy, Debug)]
pub struct SimulationOptions {
    /// How many failures of each kind to record in detail (all are counted).
    pub max_records: usize,
    /// Bound on the in-flight state (4 bytes per node per simultaneously active
    /// word); a table needing more is refused rather than swapping.
    pub max_in_flight_bytes: usize,
    /// Number of source chunks; 0 chooses from the network size and the
    /// number of threads. The report does not depend on it.
    pub chunks: usize,
    /// Record which directed links are used at which step, binned to at most
    /// this shape (for pictures; [`SimulationReport::link_use`]). `None`: not recorded.
    pub link_use: Option<LinkUseShape>,
    /// The most message-steps ([`work`]) a run may take; a table needing more
    /// is refused before anything is simulated ([`SimulationError::OverLimit`]).
    pub max_work: u64,
}

/// The default of [`SimulationOptions::max_work`]: 2^35 message-steps, above
/// the 32×32×32 torus's total exchange (2.7·10^10), which simulates in minutes.
pub const MAX_WORK: u64 = 1 << 35;

/// The work of a simulation, in message-steps, counted before it runs: every
/// node plays every letter of every word (one hop each), and every message of
/// the message set is accounted for once (a bit of the delivery bitmap, then
/// checked): nodes × (Σ_w |w| + messages per node). Saturates at `u64::MAX`.
pub fn work(input: &SimulationInput<'_>) -> u64 {
    let nodes = input.group.order() as u64;
    let letters = input
        .words
        .iter()
        .fold(0u64, |sum, w| sum.saturating_add(w.letters.len() as u64));
    let messages = match input.messages {
        MessageSet::To(to) => to.len() as u64,
        MessageSet::Total | MessageSet::Odd | MessageSet::Distances(_) => nodes.saturating_sub(1),
    };
    nodes.saturating_mul(letters.saturating_add(messages))
}

/// The largest (step bins, link bins) grid a [`LinkUse`] may have: a picture of the
/// 32×32×32 torus (131,072 steps × 196,608 directed links) must stay small.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkUseShape {
    /// At most this many columns of steps.
    pub max_step_bins: usize,
    /// At most this many rows of directed links.
    pub max_link_bins: usize,
}

impl Default for SimulationOptions {
    fn default() -> Self {
        SimulationOptions {
            max_records: 16,
            max_in_flight_bytes: 512 << 20,
            chunks: 0,
            link_use: None,
            max_work: MAX_WORK,
        }
    }
}

/// Input the simulator cannot play out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SimulationError {
    /// A word uses a link index outside the link list.
    #[error(
        "word {word} (row {row}, column {column}) uses link number {letter}, but there are {links} links"
    )]
    LinkOutOfRange {
        /// Row of the word.
        row: usize,
        /// Column of the word.
        column: usize,
        /// The word.
        word: String,
        /// The bad index.
        letter: usize,
        /// Number of links.
        links: usize,
    },
    /// A word with no letters.
    #[error("empty word in row {row}, column {column}")]
    EmptyWord {
        /// Row.
        row: usize,
        /// Column.
        column: usize,
    },
    /// Columns are 1-based.
    #[error("word {word} in row {row} starts in column 0; columns are 1-based")]
    ColumnZero {
        /// Row.
        row: usize,
        /// The word.
        word: String,
    },
    /// `ports` must be at least 1.
    #[error("ports must be at least 1")]
    ZeroPorts,
    /// The message set is malformed.
    #[error("invalid message set: {0}")]
    Messages(String),
    /// The embedding is for a group of another size.
    #[error("the embedding has {nodes} nodes but the group has {order} elements")]
    SizeMismatch {
        /// Nodes of the network.
        nodes: usize,
        /// Order of the group.
        order: usize,
    },
    /// A link does not map to a physical link at some node.
    #[error("link {link} at node {node} leads to node {reached}, which is not adjacent")]
    NotAdjacent {
        /// The link, as written.
        link: String,
        /// The node it leaves.
        node: u32,
        /// Where the group says it arrives.
        reached: u32,
    },
    /// The simulation would take more message-steps than the limit; nothing was
    /// simulated.
    #[error("not simulated: {work} message-steps over the limit {limit}")]
    OverLimit {
        /// Message-steps the run would take ([`work`]).
        work: u64,
        /// The limit ([`SimulationOptions::max_work`]).
        limit: u64,
    },
    /// Too many words are in flight at once for the memory bound.
    #[error(
        "{words} words are in flight at step {step}, more than the in-flight memory bound allows"
    )]
    TooManyInFlight {
        /// The step.
        step: usize,
        /// Words active at that step.
        words: usize,
    },
}

/// One message of one source: which word, where from, where to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MessageRef {
    /// The sending node.
    pub source: u32,
    /// The node the word's walk ends at.
    pub destination: u32,
    /// The word as written.
    pub word: String,
    /// Its row.
    pub row: usize,
    /// Its start column.
    pub column: usize,
}

/// One way the run went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Failure {
    /// Two or more messages on one directed link in one step.
    LinkConflict {
        /// The step.
        step: usize,
        /// The directed link id.
        link: u32,
        /// Its tail.
        from: u32,
        /// Its head.
        to: u32,
        /// How many messages used it in that step.
        messages: usize,
        /// The first user, in table order then source order.
        first: MessageRef,
        /// The second user.
        second: MessageRef,
    },
    /// More than `ports` messages left a node in one step.
    PortsExceeded {
        /// The step.
        step: usize,
        /// The node.
        node: u32,
        /// Messages that left it.
        used: usize,
        /// The limit.
        ports: usize,
    },
    /// A message arrived at a node its source sends nothing to: a wrong
    /// destination for a wanted message, or a message that is not wanted at all.
    /// (The walk of a word is the message's address, so the two are one kind.)
    Unexpected {
        /// Arrival step.
        step: usize,
        /// The message.
        message: MessageRef,
    },
    /// A message of the message set was never delivered.
    Missing {
        /// The source node.
        source: u32,
        /// The destination node.
        destination: u32,
    },
    /// A (source, destination) pair was delivered a second time.
    Duplicate {
        /// Arrival step of the second delivery.
        step: usize,
        /// The second delivery.
        message: MessageRef,
        /// An earlier delivery of the same pair.
        earlier: Option<MessageRef>,
    },
    /// A message came back to its own source (its word spells the identity).
    SelfMessage {
        /// Arrival step.
        step: usize,
        /// The message.
        message: MessageRef,
    },
}

impl Failure {
    /// The step the failure happened at (`None` for [`Failure::Missing`]).
    pub fn step(&self) -> Option<usize> {
        match self {
            Failure::LinkConflict { step, .. }
            | Failure::PortsExceeded { step, .. }
            | Failure::Unexpected { step, .. }
            | Failure::Duplicate { step, .. }
            | Failure::SelfMessage { step, .. } => Some(*step),
            Failure::Missing { .. } => None,
        }
    }
}

/// How many failures of each kind occurred (all of them, not just the recorded ones).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FailureCounts {
    /// Messages beyond the first on a directed link in a step, summed.
    pub link_conflicts: u64,
    /// (step, node) pairs where more than `ports` messages left the node.
    pub ports_exceeded: u64,
    /// Delivered (source, destination) pairs outside the message set.
    pub unexpected: u64,
    /// Pairs of the message set never delivered.
    pub missing: u64,
    /// Deliveries of a pair beyond the first.
    pub duplicates: u64,
    /// Messages that returned to their source.
    pub self_messages: u64,
}

impl FailureCounts {
    /// The total number of failures.
    pub fn total(&self) -> u64 {
        self.link_conflicts
            + self.ports_exceeded
            + self.unexpected
            + self.missing
            + self.duplicates
            + self.self_messages
    }
}

/// Link use in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StepUse {
    /// The step.
    pub step: usize,
    /// Messages moved (one per message in flight).
    pub hops: u64,
    /// Distinct directed links used.
    pub links_used: u64,
}

/// The outcome of a simulation.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulationReport {
    /// The network played on.
    pub network: String,
    /// Its nodes.
    pub nodes: usize,
    /// Its directed links.
    pub directed_links: usize,
    /// The ports limit in force.
    pub ports: usize,
    /// Words in the table.
    pub words: usize,
    /// Messages the message set asks for (summed over sources).
    pub expected_messages: u64,
    /// Messages that arrived somewhere (summed over sources).
    pub arrived_messages: u64,
    /// Link traversals.
    pub hops: u64,
    /// The step of the last arrival (0 for an empty table).
    pub completion_time: usize,
    /// `true` when no failure of any kind occurred.
    pub valid: bool,
    /// Failure counts by kind.
    pub counts: FailureCounts,
    /// The first link conflict in time order (then lowest link id).
    pub first_conflict: Option<Failure>,
    /// Recorded failures: up to `max_records` per kind, the earliest of each
    /// kind (for Missing and Unexpected: the lowest sources), sorted by step.
    pub failures: Vec<Failure>,
    /// Directed-link use per step, `completion_time` entries.
    pub per_step: Vec<StepUse>,
    /// Distinct (step, link) uses over `completion_time × directed_links`.
    pub utilisation: f64,
    /// Which directed links were used at which step, binned, when
    /// [`SimulationOptions::link_use`] asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link_use: Option<LinkUse>,
}

/// Directed-link use per step, binned: bin `(l, s)` counts the distinct
/// (step, directed link) pairs used with the step in step bin `s` and the link in
/// link bin `l`. Directed links are numbered by their tail node, so a link bin is
/// the links leaving a range of nodes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LinkUse {
    /// Steps per step bin (the last bin may hold fewer).
    pub steps_per_bin: usize,
    /// Directed links per link bin (the last bin may hold fewer).
    pub links_per_bin: usize,
    /// Number of step bins.
    pub step_bins: usize,
    /// Number of link bins.
    pub link_bins: usize,
    /// `used[l * step_bins + s]`.
    pub used: Vec<u64>,
}

impl LinkUse {
    /// An empty grid for `steps` steps and `links` directed links within `shape`.
    pub fn new(steps: usize, links: usize, shape: LinkUseShape) -> LinkUse {
        let steps_per_bin = steps.div_ceil(shape.max_step_bins.max(1)).max(1);
        let links_per_bin = links.div_ceil(shape.max_link_bins.max(1)).max(1);
        let step_bins = steps.div_ceil(steps_per_bin);
        let link_bins = links.div_ceil(links_per_bin);
        LinkUse {
            steps_per_bin,
            links_per_bin,
            step_bins,
            link_bins,
            used: vec![0; step_bins * link_bins],
        }
    }

    /// The 1-based steps of step bin `s`.
    pub fn steps_of(&self, s: usize) -> std::ops::RangeInclusive<usize> {
        s * self.steps_per_bin + 1..=(s + 1) * self.steps_per_bin
    }

    /// Distinct uses in bin `(link bin l, step bin s)`.
    pub fn at(&self, l: usize, s: usize) -> u64 {
        self.used[l * self.step_bins + s]
    }
}

/// Plays the table out on the embedding's network and reports what happened,
/// after refusing a run of more than `options.max_work` message-steps.
pub fn simulate(
    input: &SimulationInput<'_>,
    options: &SimulationOptions,
) -> Result<SimulationReport, SimulationError> {
    let work = work(input);
    if work > options.max_work {
        return Err(SimulationError::OverLimit {
            work,
            limit: options.max_work,
        });
    }
    engine::run(input, options)
}

#[cfg(test)]
mod tests;
