//! What a replay found: the kinds of violation, each violation with its
//! place, the busy links per step, and the read-only [`ReplayReport`] that
//! only the replay (the parent module) writes.

use super::{Collective, Packet, Ports};
use std::collections::BTreeMap;
use std::fmt;

/// What a violation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum ViolationKind {
    /// A send at step 0 (steps count from 1).
    StepZero,
    /// A node number (sender, receiver, source or destination) that is not a node.
    BadNode,
    /// A packet the collective does not have.
    UnknownPacket,
    /// `from`–`to` is not a link of the network.
    NotALink,
    /// `from` does not hold the packet at the start of the step.
    NotHeld,
    /// A second packet on one direction of a link of capacity 1 in one step.
    LinkBusy,
    /// More packets on one direction of a link in one step than its
    /// capacity, for a link of capacity 2 or more (a fabric's).
    OverCapacity,
    /// More sends in one step than a switch limit of the fabric allows
    /// between its sources and destinations.
    SwitchLimit,
    /// A forward-only node sends an item it has already forwarded, on a
    /// fabric whose switches do not copy (no multicast).
    SwitchCopy,
    /// A node sends more than K packets in one step.
    SendPorts,
    /// A node receives more than K packets in one step.
    ReceivePorts,
    /// A personalised packet sent on from its destination, or a copy sent to a
    /// node that already holds it.
    DeliveredTwice,
    /// A partial combination received that shares a contribution with the
    /// receiver's (without containing it) or with another partial of the same
    /// item received in the same step: combining it would count a
    /// contribution twice.
    DoubleCounted,
    /// At the end, a packet is not where it must be.
    NeverDelivered,
}

impl ViolationKind {
    /// Every kind, in report order.
    pub const ALL: [ViolationKind; 14] = [
        ViolationKind::StepZero,
        ViolationKind::BadNode,
        ViolationKind::UnknownPacket,
        ViolationKind::NotALink,
        ViolationKind::NotHeld,
        ViolationKind::LinkBusy,
        ViolationKind::OverCapacity,
        ViolationKind::SwitchLimit,
        ViolationKind::SwitchCopy,
        ViolationKind::SendPorts,
        ViolationKind::ReceivePorts,
        ViolationKind::DeliveredTwice,
        ViolationKind::DoubleCounted,
        ViolationKind::NeverDelivered,
    ];

    /// The kind's name in reports: `not-a-link`, `link-busy`, ….
    pub fn name(&self) -> &'static str {
        match self {
            ViolationKind::StepZero => "step-zero",
            ViolationKind::BadNode => "bad-node",
            ViolationKind::UnknownPacket => "unknown-packet",
            ViolationKind::NotALink => "not-a-link",
            ViolationKind::NotHeld => "not-held",
            ViolationKind::LinkBusy => "link-busy",
            ViolationKind::OverCapacity => "over-capacity",
            ViolationKind::SwitchLimit => "switch-limit",
            ViolationKind::SwitchCopy => "switch-copy",
            ViolationKind::SendPorts => "send-ports",
            ViolationKind::ReceivePorts => "receive-ports",
            ViolationKind::DeliveredTwice => "delivered-twice",
            ViolationKind::DoubleCounted => "double-counted",
            ViolationKind::NeverDelivered => "never-delivered",
        }
    }
}

impl fmt::Display for ViolationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One violation, in the coordinates of the schedule as written (for `gather`,
/// mapped back from the reversed replay).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// What is wrong.
    pub kind: ViolationKind,
    /// The step of the offending send (`None` for never-delivered).
    pub step: Option<u32>,
    /// The node concerned: the sender, or the receiver for receive-ports and
    /// delivered-twice and double-counted, or where a never-delivered packet is
    /// (personalised) or is missing (an item).
    pub node: u32,
    /// The link `(from, to)` of the offending send.
    pub link: Option<(u32, u32)>,
    /// The packet.
    pub packet: Packet,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(step) = self.step {
            write!(f, "step {step}: ")?;
        }
        write!(f, "{}: node {}", self.kind, self.node)?;
        if let Some((from, to)) = self.link {
            write!(f, ", link {from} -> {to}")?;
        }
        write!(f, ", packet {}", self.packet)
    }
}

/// Busy directed links in one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepUse {
    /// The step.
    pub step: u32,
    /// Distinct directed links that carried a packet.
    pub busy_links: u32,
}

/// What a replay found. Only the replay makes one, and nothing changes it
/// afterwards: its fields are private to the replay and read through
/// getters, so a report is always what a replay counted. Whether that makes
/// the schedule valid is [`crate::verdict::judge`]'s word, not the report's.
///
/// Outside the replay a report can be neither written down nor changed:
///
/// ```compile_fail,E0451
/// # use std::collections::BTreeMap;
/// // Private fields: no struct literal.
/// fn forge(r: &txverify_core::schedule::ReplayReport) -> txverify_core::schedule::ReplayReport {
///     txverify_core::schedule::ReplayReport { counts: BTreeMap::new(), ..r.clone() }
/// }
/// ```
///
/// ```compile_fail,E0616
/// // Private fields: no clearing the violations of an invalid schedule.
/// fn launder(r: &mut txverify_core::schedule::ReplayReport) {
///     r.counts.clear();
/// }
/// ```
///
/// ```compile_fail,E0596
/// // The getters lend, and only to read.
/// fn launder(r: &mut txverify_core::schedule::ReplayReport) {
///     r.counts().clear();
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayReport {
    /// Number of nodes.
    pub(super) nodes: usize,
    /// Number of directed links.
    pub(super) directed_links: usize,
    /// The port model replayed.
    pub(super) ports: Ports,
    /// The collective.
    pub(super) collective: Collective,
    /// The collective actually replayed: `scatter R` for `gather R` (time and
    /// direction reversed), else the collective itself.
    pub(super) checked_as: Collective,
    /// Last step with a send (0 for no sends).
    pub(super) time: u32,
    /// Number of sends.
    pub(super) transmissions: u64,
    /// Sends of a personalised packet that do not bring it closer to its
    /// destination (over a link of the network).
    pub(super) derouted: u64,
    /// Most personalised packets in transit (received, not at their destination)
    /// held by one node at a step boundary.
    pub(super) peak_queue: u32,
    /// Busy directed links per step, for the steps with at least one send on a
    /// link, in increasing step order.
    pub(super) link_use: Vec<StepUse>,
    /// Number of violations of each kind (kinds with none left out).
    pub(super) counts: BTreeMap<ViolationKind, u64>,
    /// The first violations (at most [`super::ReplayOptions::max_listed`]), in replay order.
    pub(super) violations: Vec<Violation>,
}

impl ReplayReport {
    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// Number of directed links.
    pub fn directed_links(&self) -> usize {
        self.directed_links
    }

    /// The port model replayed.
    pub fn ports(&self) -> Ports {
        self.ports
    }

    /// The collective.
    pub fn collective(&self) -> Collective {
        self.collective
    }

    /// The collective actually replayed: `scatter R` for `gather R` (time and
    /// direction reversed), else the collective itself.
    pub fn checked_as(&self) -> Collective {
        self.checked_as
    }

    /// Last step with a send (0 for no sends).
    pub fn time(&self) -> u32 {
        self.time
    }

    /// Number of sends.
    pub fn transmissions(&self) -> u64 {
        self.transmissions
    }

    /// Sends of a personalised packet that do not bring it closer to its
    /// destination (over a link of the network).
    pub fn derouted(&self) -> u64 {
        self.derouted
    }

    /// Most personalised packets in transit (received, not at their destination)
    /// held by one node at a step boundary.
    pub fn peak_queue(&self) -> u32 {
        self.peak_queue
    }

    /// Busy directed links per step, for the steps with at least one send on a
    /// link, in increasing step order.
    pub fn link_use(&self) -> &[StepUse] {
        &self.link_use
    }

    /// Number of violations of each kind (kinds with none left out).
    pub fn counts(&self) -> &BTreeMap<ViolationKind, u64> {
        &self.counts
    }

    /// The first violations (at most [`super::ReplayOptions::max_listed`]), in replay order.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// Total number of violations.
    pub fn violation_count(&self) -> u64 {
        self.counts.values().sum()
    }
}
