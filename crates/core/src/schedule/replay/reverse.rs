//! The time-and-direction reversal by which `gather R` is replayed as
//! `scatter R`, and the mapping of what the
//! reversed replay found back to the file's own steps, links and ports. Every
//! step is mirrored by [`mirror`], which cannot overflow on the largest step a
//! file may give.

use super::{StepUse, Violation, ViolationKind};
use crate::schedule::{BROADCAST, Packet, TimedSend};
use std::collections::BTreeMap;

/// Maps what the reversed replay found back to the file's own steps, links and
/// ports (a send-ports excess of the reversal is a receive-ports one of the file).
pub(super) fn unreverse_findings(
    violations: &mut [Violation],
    link_use: &mut [StepUse],
    counts: &mut BTreeMap<ViolationKind, u64>,
    time: u32,
) {
    for v in violations.iter_mut() {
        *v = unreverse(v.clone(), time);
    }
    for u in link_use.iter_mut() {
        u.step = mirror(u.step, time);
    }
    link_use.reverse();
    let sends = counts.remove(&ViolationKind::SendPorts);
    let receives = counts.remove(&ViolationKind::ReceivePorts);
    if let Some(s) = sends {
        counts.insert(ViolationKind::ReceivePorts, s);
    }
    if let Some(r) = receives {
        counts.insert(ViolationKind::SendPorts, r);
    }
}

/// The send of the reversed schedule: step `T + 1 − t`, link `to → from`,
/// personalised packet `(s, d)` named `(d, s)`, items unchanged.
/// Step 0 stays 0, so that it is still reported.
pub(super) fn reverse(s: TimedSend, time: u32) -> TimedSend {
    let (source, destination) = if s.packet().is_broadcast() {
        (s.source, BROADCAST)
    } else {
        (s.destination, s.source)
    };
    TimedSend {
        step: mirror(s.step, time),
        from: s.to,
        to: s.from,
        source,
        destination,
    }
}

/// Step `t` of a schedule whose last step is `time`, seen in the reversed
/// schedule: `time + 1 − t`, written so that it cannot overflow when `time` is
/// the largest step a file can give (4294967295). Step 0 stays 0. For
/// `1 ≤ t ≤ time` the result is in `1 ..= time`; a `t` above `time` (never
/// passed: `time` is the largest step) gives 1.
fn mirror(t: u32, time: u32) -> u32 {
    if t == 0 {
        0
    } else {
        time.saturating_sub(t).saturating_add(1)
    }
}

fn unreverse(v: Violation, time: u32) -> Violation {
    let kind = match v.kind {
        ViolationKind::SendPorts => ViolationKind::ReceivePorts,
        ViolationKind::ReceivePorts => ViolationKind::SendPorts,
        k => k,
    };
    let packet = if v.packet.is_broadcast() {
        v.packet
    } else {
        Packet {
            source: v.packet.destination,
            destination: v.packet.source,
        }
    };
    Violation {
        kind,
        step: v.step.map(|t| mirror(t, time)),
        node: v.node,
        link: v.link.map(|(a, b)| (b, a)),
        packet,
    }
}
