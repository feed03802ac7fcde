//! Schedules: lists of timed sends on a physical network, and their exhaustive replay.
//!
//! A table describes a buffer-free algorithm on a Cayley graph; everything else
//! (queues, meshes and linear arrays, broadcasts that copy packets, schedules
//! brought by users) is a *schedule*: at step `t`, node `from` sends to its
//! neighbour `to` the packet `(source, destination)`. This module holds the one
//! model all of them are checked by: the types ([`Schedule`], [`TimedSend`],
//! [`Collective`], [`Ports`]), the text
//! and JSON formats ([`format`](mod@format)) and the replay simulator ([`replay`](mod@replay)).
//! The networks schedules run on are named and built by [`crate::network`].
//! The format and the rules are specified in `docs/schedule.md`.
//!
//! Sends are stored packed, five `u32` in one [`TimedSend`] (20 bytes, no heap
//! object per send), because a total exchange on a 12-cube has about 10^8 of them.

pub(crate) mod deroute;
pub use deroute::xor_translations_preserve_links;
pub mod format;
pub mod replay;

use std::fmt;
use std::str::FromStr;

use crate::network::NetworkName;

pub use format::{
    ParseError, ParseErrorKind, SendWriter, parse, parse_json, parse_text, write_json, write_text,
};
pub use replay::{
    ReplayError, ReplayOptions, ReplayReport, StreamReplay, Violation, ViolationKind, replay,
    replay_exchange,
};

/// The destination a broadcast packet is written with (`*`), as stored in
/// [`TimedSend::destination`] and [`Packet::destination`]: chunk 0 of a block.
/// Chunk c of a block is stored as `BROADCAST − c` (see [`Packet::item`]), so
/// that a send stays five numbers.
pub const BROADCAST: u32 = u32::MAX;

/// The most chunks per block a collective may have (`chunks: C`, 1 ≤ C ≤ this):
/// the destinations `BROADCAST − C + 1 ..= BROADCAST` name chunks, never nodes.
pub const MAX_CHUNKS: u32 = 1 << 16;

/// A packet: personalised `(source, destination)`, or an *item* `(block, *)`
/// of a collective that copies or combines (broadcast, allgather, reduce,
/// reduce-scatter, allreduce): chunk c of the data of node `block` (for a
/// rooted collective, of the root), destination `*` with the chunk stored as
/// `BROADCAST − c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Packet {
    /// The node the packet starts at.
    pub source: u32,
    /// The node it is for, or [`BROADCAST`] for every node.
    pub destination: u32,
}

impl Packet {
    /// Chunk `chunk` (< [`MAX_CHUNKS`]) of block `block`: destination `*`.
    pub fn item(block: u32, chunk: u32) -> Packet {
        Packet {
            source: block,
            destination: item_destination(chunk),
        }
    }

    /// Whether this is an item of a copying or combining collective
    /// (destination `*`, any chunk).
    pub fn is_broadcast(&self) -> bool {
        self.destination > BROADCAST - MAX_CHUNKS
    }

    /// The chunk of an item (0 for a personalised packet).
    pub fn chunk(&self) -> u32 {
        if self.is_broadcast() {
            BROADCAST - self.destination
        } else {
            0
        }
    }
}

/// The stored destination of chunk `chunk` of an item (`*` written with a
/// chunk number): `BROADCAST − chunk`.
pub fn item_destination(chunk: u32) -> u32 {
    debug_assert!(chunk < MAX_CHUNKS);
    BROADCAST - chunk
}

impl fmt::Display for Packet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_broadcast() && self.chunk() > 0 {
            write!(f, "{} -> * chunk {}", self.source, self.chunk())
        } else if self.is_broadcast() {
            write!(f, "{} -> *", self.source)
        } else {
            write!(f, "{} -> {}", self.source, self.destination)
        }
    }
}

/// One send: at step `step` (1-based) node `from` sends the packet
/// `(source, destination)` to its neighbour `to`. Twenty bytes, `Copy`. The one
/// send type of the crate: files, the constructions (hypercube, products, FIFO)
/// and the replay all use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimedSend {
    /// The step, counted from 1 (0 is kept so that the replay can report it).
    pub step: u32,
    /// The sending node.
    pub from: u32,
    /// The receiving node.
    pub to: u32,
    /// The packet's source.
    pub source: u32,
    /// The packet's destination, or [`BROADCAST`].
    pub destination: u32,
}

impl TimedSend {
    /// The record `(step, from, to, source, destination)`.
    pub fn record(&self) -> (usize, u32, u32, u32, u32) {
        (
            self.step as usize,
            self.from,
            self.to,
            self.source,
            self.destination,
        )
    }

    /// The packet this send carries.
    pub fn packet(&self) -> Packet {
        Packet {
            source: self.source,
            destination: self.destination,
        }
    }

    /// The chunk of the item this send carries (0 for a personalised packet).
    pub fn chunk(&self) -> u32 {
        self.packet().chunk()
    }
}

/// How many sends and receives a node may make per step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ports {
    /// Every link of a node usable at once (`all`).
    All,
    /// At most K ≥ 1 sends and at most K receives per node per step.
    Limit(u32),
}

impl fmt::Display for Ports {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ports::All => write!(f, "all"),
            Ports::Limit(k) => write!(f, "{k}"),
        }
    }
}

/// Why a `ports`, `collective` or `chunks` value cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// `ports` is neither `all` nor a whole number ≥ 1.
    #[error("ports must be `all` or a whole number of at least 1, not `{0}`")]
    BadPorts(String),
    /// Not a collective txverify knows.
    #[error(
        "unknown collective `{0}` (known: total-exchange, scatter R, gather R, broadcast R, reduce R (or accumulate R), allgather (or mnb), reduce-scatter, allreduce)"
    )]
    UnknownCollective(String),
    /// A collective with a root was given none, a bad one or more than one.
    #[error("`{0}` takes one root node number")]
    BadRoot(&'static str),
    /// A collective without a root was given one.
    #[error("`{0}` takes no root")]
    UnexpectedRoot(&'static str),
    /// `chunks` is not a whole number in `1 ..= MAX_CHUNKS`.
    #[error("chunks must be a whole number from 1 to 65536, not `{0}`")]
    BadChunks(String),
    /// More than one chunk for a personalised collective.
    #[error("{0} has one packet per pair of nodes: it takes no chunks")]
    NoChunks(Collective),
}

impl FromStr for Ports {
    type Err = ValueError;

    fn from_str(text: &str) -> Result<Ports, ValueError> {
        let text = text.trim();
        if text == "all" {
            return Ok(Ports::All);
        }
        match text.parse::<u32>() {
            Ok(k) if k >= 1 => Ok(Ports::Limit(k)),
            _ => Err(ValueError::BadPorts(text.to_string())),
        }
    }
}

/// Reads a `chunks` value: a whole number from 1 to [`MAX_CHUNKS`].
pub fn parse_chunks(text: &str) -> Result<u32, ValueError> {
    match text.trim().parse::<u32>() {
        Ok(c) if (1..=MAX_CHUNKS).contains(&c) => Ok(c),
        _ => Err(ValueError::BadChunks(text.trim().to_string())),
    }
}

/// Reads a collective (`allgather`, `broadcast 3`, …) and, when given, its
/// chunks: the values of a command line's `--collective` and `--chunks`.
pub fn parse_collective(name: &str, chunks: Option<&str>) -> Result<Collective, ValueError> {
    let collective = name.parse::<Collective>()?;
    match chunks {
        Some(text) => collective.with_chunks(parse_chunks(text)?),
        None => Ok(collective),
    }
}

/// What must be delivered. The collectives that copy or combine carry the
/// number of chunks each block is cut into (1 ≤ `chunks` ≤ [`MAX_CHUNKS`]);
/// their items are `(block, *)` with a chunk number (docs/schedule.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Collective {
    /// Every node `s` holds one packet `(s, d)` for every `d ≠ s`.
    TotalExchange,
    /// The root holds one packet `(R, d)` for every `d ≠ R`.
    Scatter(u32),
    /// Every `s ≠ R` holds one packet `(s, R)`; checked as the reversal of `scatter R`.
    Gather(u32),
    /// The root holds the items `(R, *)`, chunks `0 … C − 1`, which every node
    /// must get (copies).
    Broadcast {
        /// The root.
        root: u32,
        /// Chunks C.
        chunks: u32,
    },
    /// Every node `s` holds the items `(s, *)`, which every node must get
    /// (copies); formerly `mnb`, the multinode broadcast.
    Allgather {
        /// Chunks C per node.
        chunks: u32,
    },
    /// Every node holds a contribution to each chunk of `(R, *)`; the root
    /// must end with each chunk's combination of all contributions; formerly
    /// `accumulate R`.
    Reduce {
        /// The root.
        root: u32,
        /// Chunks C.
        chunks: u32,
    },
    /// Every node holds a contribution to every item `(b, *)`; node `b` must
    /// end with the combination of all contributions to each of its items.
    ReduceScatter {
        /// Chunks C per block.
        chunks: u32,
    },
    /// Every node holds a contribution to every item `(b, *)`; every node must
    /// end with the combination of all contributions to every item.
    Allreduce {
        /// Chunks C per block.
        chunks: u32,
    },
}

/// How a collective's items move: copied, or combined into partial sums.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Items {
    /// Personalised packets `(s, d)` that move (no items).
    None,
    /// Items are copied; a node holds an item or not.
    Copies,
    /// Items are partial combinations; every node starts with its own
    /// contribution to every item.
    Sums,
}

impl Collective {
    /// The root node, for the collectives that have one.
    pub fn root(&self) -> Option<u32> {
        match *self {
            Collective::Scatter(r)
            | Collective::Gather(r)
            | Collective::Broadcast { root: r, .. }
            | Collective::Reduce { root: r, .. } => Some(r),
            _ => None,
        }
    }

    /// The chunks per block (1 for the personalised collectives).
    pub fn chunks(&self) -> u32 {
        match *self {
            Collective::Broadcast { chunks, .. }
            | Collective::Allgather { chunks }
            | Collective::Reduce { chunks, .. }
            | Collective::ReduceScatter { chunks }
            | Collective::Allreduce { chunks } => chunks,
            _ => 1,
        }
    }

    /// The same collective with `chunks` chunks per block; refused for the
    /// personalised collectives unless `chunks` is 1.
    pub fn with_chunks(self, chunks: u32) -> Result<Collective, ValueError> {
        if !(1..=MAX_CHUNKS).contains(&chunks) {
            return Err(ValueError::BadChunks(chunks.to_string()));
        }
        Ok(match self {
            Collective::Broadcast { root, .. } => Collective::Broadcast { root, chunks },
            Collective::Allgather { .. } => Collective::Allgather { chunks },
            Collective::Reduce { root, .. } => Collective::Reduce { root, chunks },
            Collective::ReduceScatter { .. } => Collective::ReduceScatter { chunks },
            Collective::Allreduce { .. } => Collective::Allreduce { chunks },
            personal if chunks == 1 => personal,
            personal => return Err(ValueError::NoChunks(personal)),
        })
    }

    /// Whether items are copied, combined, or the packets are personalised.
    pub fn items(&self) -> Items {
        match self {
            Collective::Broadcast { .. } | Collective::Allgather { .. } => Items::Copies,
            Collective::Reduce { .. }
            | Collective::ReduceScatter { .. }
            | Collective::Allreduce { .. } => Items::Sums,
            _ => Items::None,
        }
    }

    /// `broadcast R` with one chunk.
    pub fn broadcast(root: u32) -> Collective {
        Collective::Broadcast { root, chunks: 1 }
    }

    /// `reduce R` with one chunk.
    pub fn reduce(root: u32) -> Collective {
        Collective::Reduce { root, chunks: 1 }
    }

    /// `allgather` with one chunk (the multinode broadcast).
    pub const ALLGATHER: Collective = Collective::Allgather { chunks: 1 };
}

impl fmt::Display for Collective {
    /// The name and root, as in a file's `collective:` line (the chunks are a
    /// header field of their own).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Collective::TotalExchange => write!(f, "total-exchange"),
            Collective::Scatter(r) => write!(f, "scatter {r}"),
            Collective::Gather(r) => write!(f, "gather {r}"),
            Collective::Broadcast { root, .. } => write!(f, "broadcast {root}"),
            Collective::Allgather { .. } => write!(f, "allgather"),
            Collective::Reduce { root, .. } => write!(f, "reduce {root}"),
            Collective::ReduceScatter { .. } => write!(f, "reduce-scatter"),
            Collective::Allreduce { .. } => write!(f, "allreduce"),
        }
    }
}

impl FromStr for Collective {
    type Err = ValueError;

    /// Reads a name and root with one chunk; `mnb` is read as `allgather` and
    /// `accumulate R` as `reduce R`, their former names.
    fn from_str(text: &str) -> Result<Collective, ValueError> {
        let mut words = text.split_whitespace();
        let name = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        let rooted = |name: &'static str| -> Result<u32, ValueError> {
            match rest[..] {
                [r] => r.parse::<u32>().map_err(|_| ValueError::BadRoot(name)),
                _ => Err(ValueError::BadRoot(name)),
            }
        };
        let bare = |name: &'static str, c: Collective| {
            if rest.is_empty() {
                Ok(c)
            } else {
                Err(ValueError::UnexpectedRoot(name))
            }
        };
        match name {
            "total-exchange" => bare("total-exchange", Collective::TotalExchange),
            "allgather" => bare("allgather", Collective::ALLGATHER),
            "mnb" => bare("mnb", Collective::ALLGATHER),
            "reduce-scatter" => bare("reduce-scatter", Collective::ReduceScatter { chunks: 1 }),
            "allreduce" => bare("allreduce", Collective::Allreduce { chunks: 1 }),
            "scatter" => rooted("scatter").map(Collective::Scatter),
            "gather" => rooted("gather").map(Collective::Gather),
            "broadcast" => rooted("broadcast").map(Collective::broadcast),
            "reduce" => rooted("reduce").map(Collective::reduce),
            "accumulate" => rooted("accumulate").map(Collective::reduce),
            _ => Err(ValueError::UnknownCollective(text.trim().to_string())),
        }
    }
}

/// A schedule as read from a file: its header and its sends, in file order.
///
/// `network` and `ports` may be missing from a file (the command line can supply
/// them); the replay needs both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The network the schedule runs on.
    pub network: Option<NetworkName>,
    /// The port model.
    pub ports: Option<Ports>,
    /// What the schedule must deliver.
    pub collective: Collective,
    /// The sends, in any order.
    pub sends: Vec<TimedSend>,
}

impl Schedule {
    /// Bytes of memory one stored send takes.
    pub const BYTES_PER_SEND: usize = std::mem::size_of::<TimedSend>();

    /// Sorts the sends by step (stable within a step), in place.
    pub fn sort_by_step(&mut self) {
        self.sends.sort_by_key(|s| s.step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_send_is_twenty_bytes() {
        assert_eq!(Schedule::BYTES_PER_SEND, 20);
    }

    #[test]
    fn values_print_as_they_parse() {
        for text in [
            "total-exchange",
            "scatter 3",
            "gather 0",
            "broadcast 2",
            "allgather",
            "reduce 1",
            "reduce-scatter",
            "allreduce",
        ] {
            assert_eq!(text.parse::<Collective>().unwrap().to_string(), text);
        }
        // The former names are read and printed as the new ones.
        assert_eq!("mnb".parse::<Collective>(), Ok(Collective::ALLGATHER));
        assert_eq!(
            "accumulate 4".parse::<Collective>(),
            Ok(Collective::reduce(4))
        );
        assert_eq!(Collective::ALLGATHER.with_chunks(3).unwrap().chunks(), 3);
        assert!(Collective::TotalExchange.with_chunks(2).is_err());
        assert!(Collective::ALLGATHER.with_chunks(0).is_err());
        assert_eq!(parse_chunks("65536"), Ok(MAX_CHUNKS));
        assert!(parse_chunks("65537").is_err());
        let p = Packet::item(3, 2);
        assert!(p.is_broadcast());
        assert_eq!((p.source, p.chunk()), (3, 2));
        assert_eq!(p.to_string(), "3 -> * chunk 2");
        assert_eq!(Packet::item(3, 0).destination, BROADCAST);
        assert_eq!("all".parse::<Ports>(), Ok(Ports::All));
        assert_eq!("2".parse::<Ports>(), Ok(Ports::Limit(2)));
        assert!("0".parse::<Ports>().is_err());
        assert!("many".parse::<Ports>().is_err());
        assert_eq!(
            "scatter".parse::<Collective>(),
            Err(ValueError::BadRoot("scatter"))
        );
        assert_eq!(
            "mnb 3".parse::<Collective>(),
            Err(ValueError::UnexpectedRoot("mnb"))
        );
        assert!(matches!(
            "alltoall".parse::<Collective>(),
            Err(ValueError::UnknownCollective(_))
        ));
    }
}
