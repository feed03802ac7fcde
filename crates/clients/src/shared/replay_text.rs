//! A replayed schedule in words and in JSON: its violations listed, its one-line
//! summary. The commands' reports (`simulate`, `search`) and the features that
//! replay a schedule of their own (hypercube collectives, pictures) all say it
//! this way, so it sits below both.

use serde::Serialize;
use std::fmt::Write as _;
use txverify_core::schedule::replay::ReplayReport;
use txverify_core::verdict::ScheduleVerdict;

/// Violations the text reports list one a line unless `--all` asks for every
/// one: the counts per kind come first, so a few examples of each suffice.
pub const SHOWN_VIOLATIONS: usize = 10;

/// One violation of a replay in JSON.
#[derive(Clone, Debug, Serialize)]
pub struct ViolationEntry {
    /// Its kind's name.
    pub kind: &'static str,
    /// The step of the send.
    pub step: Option<u32>,
    /// The node concerned.
    pub node: u32,
    /// The link `[from, to]`.
    pub link: Option<[u32; 2]>,
    /// The packet.
    pub packet: PacketEntry,
}

/// A packet in JSON: `destination` is `"*"` for an item, and `chunk` its
/// chunk (`null` for a personalised packet).
#[derive(Clone, Debug, Serialize)]
pub struct PacketEntry {
    /// Where it starts (an item's block).
    pub source: u32,
    /// Where it goes, or `"*"`.
    pub destination: serde_json::Value,
    /// The chunk of an item.
    pub chunk: Option<u32>,
}

impl From<&txverify_core::schedule::Violation> for ViolationEntry {
    fn from(v: &txverify_core::schedule::Violation) -> ViolationEntry {
        let destination = if v.packet.is_broadcast() {
            serde_json::Value::from("*")
        } else {
            serde_json::Value::from(v.packet.destination)
        };
        ViolationEntry {
            kind: v.kind.name(),
            step: v.step,
            node: v.node,
            link: v.link.map(|(a, b)| [a, b]),
            packet: PacketEntry {
                source: v.packet.source,
                destination,
                chunk: v.packet.is_broadcast().then(|| v.packet.chunk()),
            },
        }
    }
}

/// The first `shown` violations the replay listed, one a line after
/// `prefix`, and how many more it counted (with how to see them).
pub fn violation_lines(r: &ReplayReport, prefix: &str, shown: usize, out: &mut String) {
    let listed = r.violations().iter().take(shown);
    let count = listed.len();
    for v in listed {
        let _ = writeln!(out, "{prefix}{v}");
    }
    let more = r.violation_count().saturating_sub(count as u64);
    if more > 0 {
        let _ = writeln!(
            out,
            "{prefix}… and {more} more (`simulate --all` lists every one)"
        );
    }
}

/// The replay's one-line summary: validity (the verdict's), time,
/// transmissions, deroutes and peak queue, as the text reports print it after
/// their label.
pub fn replay_summary(r: &ReplayReport, v: &ScheduleVerdict) -> String {
    format!(
        "{}: time {}, {} transmissions, derouted {}, peak queue {}",
        if v.valid() { "valid" } else { "INVALID" },
        r.time(),
        r.transmissions(),
        r.derouted(),
        r.peak_queue()
    )
}
