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
/// [`TimedSend::destination`] and [`Packet::destination`].
pub const BROADCAST: u32 = u32::MAX;

/// A packet: personalised `(source, destination)`, or a broadcast packet
/// `(source, *)` whose destination is [`BROADCAST`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Packet {
    /// The node the packet starts at.
    pub source: u32,
    /// The node it is for, or [`BROADCAST`] for every node.
    pub destination: u32,
}

impl Packet {
    /// Whether this is a broadcast packet (destination `*`).
    pub fn is_broadcast(&self) -> bool {
        self.destination == BROADCAST
    }
}

impl fmt::Display for Packet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_broadcast() {
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

/// Why a `ports` or `collective` value cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValueError {
    /// `ports` is neither `all` nor a whole number ≥ 1.
    #[error("ports must be `all` or a whole number of at least 1, not `{0}`")]
    BadPorts(String),
    /// Not a collective txverify knows.
    #[error(
        "unknown collective `{0}` (known: total-exchange, scatter R, gather R, broadcast R, mnb, accumulate R)"
    )]
    UnknownCollective(String),
    /// A collective with a root was given none, a bad one or more than one.
    #[error("`{0}` takes one root node number")]
    BadRoot(&'static str),
    /// A collective without a root was given one.
    #[error("`{0}` takes no root")]
    UnexpectedRoot(&'static str),
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

/// What must be delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Collective {
    /// Every node `s` holds one packet `(s, d)` for every `d ≠ s`.
    TotalExchange,
    /// The root holds one packet `(R, d)` for every `d ≠ R`.
    Scatter(u32),
    /// Every `s ≠ R` holds one packet `(s, R)`; checked as the reversal of `scatter R`.
    Gather(u32),
    /// The root holds the broadcast packet `(R, *)`, which every node must get.
    Broadcast(u32),
    /// Multinode broadcast: every node `s` holds `(s, *)`, which every node must get.
    Mnb,
    /// Every node contributes to a value the root must get; the sends carry the
    /// packet `(R, *)` and the schedule is checked as the reversal of `broadcast R`.
    Accumulate(u32),
}

impl Collective {
    /// The root node, for the collectives that have one.
    pub fn root(&self) -> Option<u32> {
        match *self {
            Collective::Scatter(r)
            | Collective::Gather(r)
            | Collective::Broadcast(r)
            | Collective::Accumulate(r) => Some(r),
            Collective::TotalExchange | Collective::Mnb => None,
        }
    }
}

impl fmt::Display for Collective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Collective::TotalExchange => write!(f, "total-exchange"),
            Collective::Scatter(r) => write!(f, "scatter {r}"),
            Collective::Gather(r) => write!(f, "gather {r}"),
            Collective::Broadcast(r) => write!(f, "broadcast {r}"),
            Collective::Mnb => write!(f, "mnb"),
            Collective::Accumulate(r) => write!(f, "accumulate {r}"),
        }
    }
}

impl FromStr for Collective {
    type Err = ValueError;

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
            "mnb" => bare("mnb", Collective::Mnb),
            "scatter" => rooted("scatter").map(Collective::Scatter),
            "gather" => rooted("gather").map(Collective::Gather),
            "broadcast" => rooted("broadcast").map(Collective::Broadcast),
            "accumulate" => rooted("accumulate").map(Collective::Accumulate),
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
            "mnb",
            "accumulate 1",
        ] {
            assert_eq!(text.parse::<Collective>().unwrap().to_string(), text);
        }
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
