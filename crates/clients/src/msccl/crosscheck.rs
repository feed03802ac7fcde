//! The program txverify writes for one of its total-exchange schedules
//! (`export --format msccl`), run by the MSCCL checker and compared with the
//! schedule: link by link, the messages the program's run carried, in the
//! order sent, must be the schedule's sends on that link in step order.
//!
//! The exporter checks its own output with its own runner
//! (`export::msccl`); this comparison goes through the checker instead (the
//! reader, the executor's lowering, the symbolic run), which shares no code
//! with the exporter, so that one bug is unlikely to pass both. A link
//! carries at most one message a step in a schedule, so the schedule's order
//! on a link is total; a program's order on a connection is its FIFO order.

use super::ReadError;
use super::collective::Collective;
use std::collections::BTreeMap;
use txverify_core::schedule::{Collective as Goal, Schedule};

/// What a link carried: `(from, to)` → the messages `(source, destination)` in order.
pub type Carried = BTreeMap<(u32, u32), Vec<(u32, u32)>>;

/// Why a program does not carry its schedule's messages.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Disagreement {
    /// The program cannot be read.
    #[error("the program cannot be read: {}: {}", .0.pos, .0.message)]
    Unreadable(ReadError),
    /// The program is not valid.
    #[error("the program is not valid: {0}")]
    Invalid(String),
    /// The comparison is for total exchanges written as all-to-all programs
    /// with one chunk per pair.
    #[error("not comparable: {0}")]
    NotComparable(String),
    /// Two channels carry messages from one GPU to another: their order on
    /// the link is not defined.
    #[error(
        "GPU {from} sends to GPU {to} on channels {first} and {second}: the order of their messages on the link is not defined"
    )]
    SharedLink {
        /// Sender.
        from: u32,
        /// Receiver.
        to: u32,
        /// One channel.
        first: u32,
        /// Another.
        second: u32,
    },
    /// A chunk holds more than one contribution (a total exchange moves
    /// them one by one).
    #[error("a message from GPU {from} to GPU {to} holds {count} contributions in one chunk")]
    Combined {
        /// Sender.
        from: u32,
        /// Receiver.
        to: u32,
        /// Contributions.
        count: usize,
    },
    /// The first place where the two differ.
    #[error("link {from} → {to}, message {index}: the program carries {}, the schedule {}", show(.program), show(.schedule))]
    Link {
        /// Sender.
        from: u32,
        /// Receiver.
        to: u32,
        /// The message's place on the link (0-based).
        index: usize,
        /// The program's message there, `(source, destination)`.
        program: Option<(u32, u32)>,
        /// The schedule's.
        schedule: Option<(u32, u32)>,
    },
}

fn show(m: &Option<(u32, u32)>) -> String {
    m.map_or("nothing".into(), |(s, d)| format!("the message {s} → {d}"))
}

/// Checks `source` and compares what its run carried on each link with the
/// sends of `schedule`, a total exchange.
pub fn against_schedule(source: &str, schedule: &Schedule) -> Result<(), Disagreement> {
    if schedule.collective != Goal::TotalExchange {
        return Err(Disagreement::NotComparable(
            "the schedule is not a total exchange".into(),
        ));
    }
    let program = carried(source)?;
    let mut sends: Vec<_> = schedule.sends.iter().collect();
    sends.sort_by_key(|s| s.step);
    let mut scheduled = Carried::new();
    for s in sends {
        let link = scheduled.entry((s.from, s.to)).or_default();
        link.push((s.source, s.destination));
    }
    first_difference(&program, &scheduled)
}

/// The messages the program's run carried on each link, in order, as
/// `(source, destination)` pairs; the program must be a valid all-to-all of
/// one chunk per pair.
pub fn carried(source: &str) -> Result<Carried, Disagreement> {
    let check = super::check_recorded(source).map_err(Disagreement::Unreadable)?;
    if !check.valid() {
        let reason = check.reason().unwrap_or_default();
        return Err(Disagreement::Invalid(reason));
    }
    let n = i64::from(check.ngpus as u32);
    if check.collective != Some(Collective::AllToAll) || check.chunks != n {
        return Err(Disagreement::NotComparable(format!(
            "a total exchange is an all-to-all with nchunksperloop = ngpus ({n}), not {} with {}",
            check.coll, check.chunks
        )));
    }
    let figures = check.figures.unwrap_or_default();
    let mut out = Carried::new();
    let mut channel_of: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for (&(chan, from, to), messages) in &figures.carried {
        let first = *channel_of.entry((from, to)).or_insert(chan);
        if first != chan {
            return Err(Disagreement::SharedLink {
                from,
                to,
                first,
                second: chan,
            });
        }
        let link = out.entry((from, to)).or_default();
        for chunk in messages.iter().flatten() {
            let [u] = chunk.as_slice() else {
                let count = chunk.len();
                return Err(Disagreement::Combined { from, to, count });
            };
            // Contribution u is input chunk u mod n of GPU u / n, and input
            // chunk d of GPU s is the message s → d.
            link.push((u / n as u32, u % n as u32));
        }
    }
    Ok(out)
}

/// The first link and place where `program` and `schedule` differ.
fn first_difference(program: &Carried, schedule: &Carried) -> Result<(), Disagreement> {
    let links: std::collections::BTreeSet<_> = program.keys().chain(schedule.keys()).collect();
    for &(from, to) in links {
        let p = program.get(&(from, to)).map_or(&[][..], Vec::as_slice);
        let s = schedule.get(&(from, to)).map_or(&[][..], Vec::as_slice);
        let index = (0..p.len().max(s.len())).find(|&i| p.get(i) != s.get(i));
        if let Some(index) = index {
            return Err(Disagreement::Link {
                from,
                to,
                index,
                program: p.get(index).copied(),
                schedule: s.get(index).copied(),
            });
        }
    }
    Ok(())
}
