//! Tables as schedules: every hop of every word, from every node, played on the
//! table's physical network as timed sends (docs/schedule.md, docs/export.md).
//!
//! A table is the buffer-free special case of a schedule: a word starting in
//! column `c` leaves its source at step `c` and moves one link a step, never
//! waiting. Writing that out lets a runtime execute a verified table, and lets
//! the schedule replay check it a third time: replaying an exported table must
//! give the table's time (`tests/suite/export.rs` does so for every published table).
//! Nothing here decides anything; the sends are computed from the same
//! verified embedding the simulator plays on. [`msccl`] writes such a schedule
//! as an MSCCL all-to-all program for GPUs.

pub mod msccl;
pub mod network;
pub mod schedule;
pub mod table;

use crate::simulate::SimulationInput;
use txverify_core::schedule::{Collective, Ports, Schedule, TimedSend};

/// At most this many sends are exported (20 bytes each in memory).
pub const MAX_EXPORT_SENDS: u64 = 1 << 25;

/// Why a table cannot be exported.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExportError {
    /// The table runs on its Cayley graph only: a schedule needs a network a
    /// runtime can name (`ring`, `hypercube`, `torus`).
    #[error(
        "the table's network is its Cayley graph only; export needs a ring, hypercube or torus (declared by `network:` or recognised)"
    )]
    NoNamedNetwork,
    /// More sends than [`MAX_EXPORT_SENDS`].
    #[error("the table has {sends} sends, more than the export limit of {MAX_EXPORT_SENDS}")]
    TooLarge {
        /// Sends the export would have.
        sends: u64,
    },
}

/// The schedule of a total-exchange table: one send per letter of every word,
/// from every node, numbered as the physical network numbers its nodes. `ports`
/// is the table's `ports:` value; a table whose ports cover every link is an
/// all-port schedule.
pub fn table_schedule(input: &SimulationInput<'_>, ports: usize) -> Result<Schedule, ExportError> {
    let kind = input.embedding.spec().ok_or(ExportError::NoNamedNetwork)?;
    let nodes = input.group.order() as u64;
    let letters: u64 = input.words.iter().map(|w| w.letters.len() as u64).sum();
    let sends = letters.saturating_mul(nodes);
    if sends > MAX_EXPORT_SENDS {
        return Err(ExportError::TooLarge { sends });
    }
    let mut out = Vec::with_capacity(sends as usize);
    for word in input.words {
        let letters: Vec<_> = word.letters.iter().map(|&l| input.links[l]).collect();
        for h in input.group.elements() {
            let destination = input.embedding.node(input.group.apply_word(h, &letters));
            let source = input.embedding.node(h);
            let mut at = h;
            for (offset, &letter) in letters.iter().enumerate() {
                let next = input.group.apply(at, letter);
                out.push(TimedSend {
                    step: (word.column + offset) as u32,
                    from: input.embedding.node(at),
                    to: input.embedding.node(next),
                    source,
                    destination,
                });
                at = next;
            }
        }
    }
    out.sort_unstable_by_key(|s| (s.step, s.from, s.to));
    Ok(Schedule {
        network: Some(kind.clone()),
        ports: Some(if ports >= input.links.len() {
            Ports::All
        } else {
            Ports::Limit(ports as u32)
        }),
        collective: Collective::TotalExchange,
        sends: out,
    })
}

/// The sends as CSV: a header line `step,from,to,source,destination`, then one
/// line per send (destination `*` for an item, `*` and its chunk after a
/// slash, `*/2`, for chunks other than 0).
pub fn write_csv(schedule: &Schedule, out: &mut impl std::io::Write) -> std::io::Result<()> {
    writeln!(out, "step,from,to,source,destination")?;
    for s in &schedule.sends {
        if s.packet().is_broadcast() && s.chunk() > 0 {
            let (step, from, to, block, chunk) = (s.step, s.from, s.to, s.source, s.chunk());
            writeln!(out, "{step},{from},{to},{block},*/{chunk}")?;
        } else if s.packet().is_broadcast() {
            writeln!(out, "{},{},{},{},*", s.step, s.from, s.to, s.source)?;
        } else {
            writeln!(
                out,
                "{},{},{},{},{}",
                s.step, s.from, s.to, s.source, s.destination
            )?;
        }
    }
    Ok(())
}
