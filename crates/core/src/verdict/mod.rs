//! The trusted schedule verdict: valid, invalid, optimal.
//!
//! Everything txverify says about a schedule is decided here and only here, as
//! [`kernel`](crate::kernel) decides it for tables. A [`ScheduleVerdict`] has
//! private fields and one constructor, [`judge`], which takes the report of the
//! replay simulator ([`crate::schedule::replay()`], every send checked against
//! the rules of docs/schedule.md) and the lower bounds the caller computed, each
//! a [`NamedBound`]: its value, the argument that gives it, and the [`Model`]
//! under which it is proved (ports, copies, buffering).
//!
//! - **valid**: the replay counted no violation;
//! - **optimal** (in time): valid, the bound holds under the model the
//!   schedule was replayed in, and the completion time equals it. A bound
//!   proved for another model (say a single-port bound given to an all-port
//!   replay) decides nothing, and the verdict says so.
//!
//! Why apart: the commands that build schedules (the FIFO algorithm, the
//! hypercube and product constructions) used to decide their own verdicts.
//! This module shares no code with them nor with the bound computations; it
//! reads the replay's counts and compares numbers.
//!
//! ```compile_fail,E0451
//! // A verdict cannot be written down outside this module (private fields).
//! let forged = txverify_core::verdict::ScheduleVerdict {
//!     valid: true,
//!     violations: 0,
//!     time: 1,
//!     transmissions: 1,
//!     time_bound: None,
//!     transmissions_bound: None,
//! };
//! ```
//!
//! Nor changed once [`judge`] made it (no public field):
//!
//! ```compile_fail,E0616
//! fn promote(v: &mut txverify_core::verdict::ScheduleVerdict) {
//!     v.valid = true;
//! }
//! ```
//!
//! Nor can the replay's report it judges be written down or changed outside
//! the replay (private fields, read through getters):
//!
//! ```compile_fail,E0451
//! fn forge(r: txverify_core::schedule::ReplayReport) -> txverify_core::schedule::ReplayReport {
//!     txverify_core::schedule::ReplayReport { counts: Default::default(), ..r }
//! }
//! ```
//!
//! Optimality beyond the bound has one rule too, for tables and schedules
//! ([`optimality`]): [`schedule_optimal_by`] and [`table_optimal_by`].

use crate::schedule::{Items, Ports, ReplayReport};
use std::fmt;

pub mod optimality;
pub use optimality::{OptimalBy, Refutation, schedule_optimal_by, table_optimal_by};

/// The model a lower bound is proved under: the ports of a node, whether the
/// proof lets packets be copied, whether it lets nodes buffer packets. Its
/// fields are private, so no model is written down outside the core:
///
/// ```compile_fail,E0451
/// let claimed = txverify_core::verdict::Model {
///     ports: txverify_core::schedule::Ports::All,
///     copies: true,
///     buffering: true,
/// };
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Model {
    ports: Ports,
    copies: bool,
    buffering: bool,
    combining: bool,
}

impl Model {
    /// A bound proved for every schedule whose nodes make at most `ports` sends
    /// and receives per step (`Ports::All`: any number), allowing packets to be
    /// copied when `copies`, and nodes to hold packets in queues when
    /// `buffering`. Only [`crate::bounds`] states a model, beside the
    /// argument that proves the bound under it:
    ///
    /// ```compile_fail,E0624
    /// use txverify_core::{schedule::Ports, verdict::Model};
    /// let claimed = Model::new(Ports::All, true, true);
    /// ```
    pub(crate) fn new(ports: Ports, copies: bool, buffering: bool) -> Model {
        Model {
            ports,
            copies,
            buffering,
            combining: false,
        }
    }

    /// The same model, the proof also letting nodes combine partial sums of
    /// an item (reduce, reduce-scatter, allreduce). Only [`crate::bounds`]
    /// states it.
    pub(crate) fn with_combining(self) -> Model {
        Model {
            combining: true,
            ..self
        }
    }

    /// Whether the proof allows nodes to combine partial sums.
    pub fn combining(&self) -> bool {
        self.combining
    }

    /// The port limit of the proof.
    pub fn ports(&self) -> Ports {
        self.ports
    }

    /// Whether the proof allows copies of a packet (broadcasts).
    pub fn copies(&self) -> bool {
        self.copies
    }

    /// Whether the proof allows nodes to buffer packets.
    pub fn buffering(&self) -> bool {
        self.buffering
    }

    /// Whether a bound proved under this model holds for the replayed
    /// schedule: the replay's port limit is at most the proof's, the replay
    /// buffers (it always may), a collective that copies packets needs a
    /// proof that allows copies, and one that combines them a proof that
    /// allows combining.
    fn covers(&self, report: &ReplayReport) -> bool {
        let ports = match (report.ports(), self.ports) {
            (_, Ports::All) => true,
            (Ports::All, Ports::Limit(_)) => false,
            (Ports::Limit(replayed), Ports::Limit(proved)) => replayed <= proved,
        };
        let items = report.checked_as().items();
        let copies = items != Items::Copies || self.copies;
        let combining = items != Items::Sums || self.combining;
        ports && copies && combining && self.buffering
    }
}

impl serde::Serialize for Model {
    /// `{"ports": "all" or K, "copies": bool, "buffering": bool, "combining": bool}`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Model", 4)?;
        match self.ports {
            Ports::All => s.serialize_field("ports", "all")?,
            Ports::Limit(k) => s.serialize_field("ports", &k)?,
        }
        s.serialize_field("copies", &self.copies)?;
        s.serialize_field("buffering", &self.buffering)?;
        s.serialize_field("combining", &self.combining)?;
        s.end()
    }
}

impl fmt::Display for Model {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.ports {
            Ports::All => write!(f, "all-port")?,
            Ports::Limit(k) => write!(f, "{k}-port")?,
        }
        if self.copies {
            write!(f, ", copies")?;
        }
        if self.buffering {
            write!(f, ", buffering")?;
        }
        if self.combining {
            write!(f, ", combining")?;
        }
        Ok(())
    }
}

/// A lower bound with its name and the model it is proved under.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NamedBound {
    value: u64,
    name: String,
    model: Model,
}

impl NamedBound {
    /// No schedule of the model does better than `value`, by the argument
    /// `name` ("the status of the message set", "bisection cut", …). Only
    /// [`crate::bounds`] makes one, so a caller cannot pick a bound's value or
    /// model; it asks `bounds` for the bounds of its graph:
    ///
    /// ```compile_fail,E0624
    /// use txverify_core::verdict::NamedBound;
    /// fn forge(model: txverify_core::verdict::Model) -> NamedBound {
    ///     NamedBound::new(1, "wished for", model)
    /// }
    /// ```
    ///
    /// Nor written down field by field:
    ///
    /// ```compile_fail,E0451
    /// fn forge(model: txverify_core::verdict::Model) -> txverify_core::verdict::NamedBound {
    ///     txverify_core::verdict::NamedBound { value: 1, name: String::new(), model }
    /// }
    /// ```
    pub(crate) fn new(value: u64, name: impl Into<String>, model: Model) -> NamedBound {
        NamedBound {
            value,
            name: name.into(),
            model,
        }
    }

    /// The bound.
    pub fn value(&self) -> u64 {
        self.value
    }

    /// Which bound it is.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The model it is proved under.
    pub fn model(&self) -> Model {
        self.model
    }
}

/// A bound beside the measure it bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Compared {
    bound: NamedBound,
    /// The bound's model covers the replay.
    holds: bool,
    /// The measure equals the bound.
    met: bool,
}

impl Compared {
    fn new(bound: NamedBound, measured: u64, report: &ReplayReport) -> Compared {
        Compared {
            holds: bound.model.covers(report),
            met: measured == bound.value,
            bound,
        }
    }
}

/// The verdict on one replayed schedule. Built only by [`judge`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleVerdict {
    valid: bool,
    violations: u64,
    time: u32,
    transmissions: u64,
    time_bound: Option<Compared>,
    transmissions_bound: Option<Compared>,
}

/// Judges a replay: valid when it counted no violation; optimal in time (or in
/// transmissions) when valid and equal to a bound on time (on transmissions)
/// that holds under the replayed model.
pub fn judge(
    report: &ReplayReport,
    time_bound: Option<NamedBound>,
    transmissions_bound: Option<NamedBound>,
) -> ScheduleVerdict {
    let violations = report.violation_count();
    ScheduleVerdict {
        valid: violations == 0,
        violations,
        time: report.time(),
        transmissions: report.transmissions(),
        time_bound: time_bound.map(|b| Compared::new(b, u64::from(report.time()), report)),
        transmissions_bound: transmissions_bound
            .map(|b| Compared::new(b, report.transmissions(), report)),
    }
}

impl ScheduleVerdict {
    /// No violation.
    pub fn valid(&self) -> bool {
        self.valid
    }

    /// How many violations the replay counted.
    pub fn violations(&self) -> u64 {
        self.violations
    }

    /// The completion time (last step with a send).
    pub fn time(&self) -> u32 {
        self.time
    }

    /// The bound on time, if one was given.
    pub fn time_bound(&self) -> Option<&NamedBound> {
        self.time_bound.as_ref().map(|c| &c.bound)
    }

    /// The bound on transmissions, if one was given.
    pub fn transmissions_bound(&self) -> Option<&NamedBound> {
        self.transmissions_bound.as_ref().map(|c| &c.bound)
    }

    /// Whether the bound on time holds under the replayed model (false without one).
    pub fn bound_holds(&self) -> bool {
        self.time_bound.as_ref().is_some_and(|c| c.holds)
    }

    /// Valid, and the completion time equals a bound on time that holds.
    pub fn optimal(&self) -> bool {
        self.valid && self.time_bound.as_ref().is_some_and(|c| c.holds && c.met)
    }

    /// Valid, and the number of sends equals a bound on sends that holds.
    pub fn optimal_transmissions(&self) -> bool {
        self.valid
            && self
                .transmissions_bound
                .as_ref()
                .is_some_and(|c| c.holds && c.met)
    }

    /// Valid, yet faster than a bound that is said to hold: the bound or the
    /// replay is wrong (a bug to report).
    pub fn beats_bound(&self) -> bool {
        self.valid
            && self
                .time_bound
                .as_ref()
                .is_some_and(|c| c.holds && u64::from(self.time) < c.bound.value)
    }
}

impl fmt::Display for ScheduleVerdict {
    /// `VALID`, `INVALID (N violations)`, `OPTIMAL (…)` or `VALID, not proved
    /// optimal (…)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.valid {
            return write!(f, "INVALID ({} violations)", self.violations);
        }
        let Some(c) = &self.time_bound else {
            return write!(f, "VALID");
        };
        let (t, b, name) = (self.time, c.bound.value, &c.bound.name);
        if !c.holds {
            write!(
                f,
                "valid, optimality not decided (the {name}, {b}, is proved for {}, not for this replay)",
                c.bound.model
            )
        } else if c.met {
            write!(f, "OPTIMAL (completion time {t} equals the {name})")
        } else if self.beats_bound() {
            write!(
                f,
                "valid, below the {name} ({t} < {b}): the bound or the replay is wrong"
            )
        } else {
            // Above a bound proves nothing: the bound need not be tight.
            write!(
                f,
                "VALID, not proved optimal (completion time {t} > the {name}, {b})"
            )
        }
    }
}

#[cfg(test)]
mod tests;
