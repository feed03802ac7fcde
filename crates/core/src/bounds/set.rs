//! The bounds of one question (one graph, one collective, one model), with the
//! largest of them: what every command that states a lower bound prints and
//! what the verdict compares with.

use crate::schedule::Ports;
use crate::verdict::{Model, NamedBound};

/// Every named bound of one graph under one model, and the best of them.
/// Made only by the functions of [`crate::bounds`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct BoundSet {
    /// The largest bound (the first of them on a tie).
    best: NamedBound,
    /// Every bound, in the order the arguments are listed.
    bounds: Vec<NamedBound>,
}

impl BoundSet {
    /// The set of `(value, name)` under `model`; the best is the first largest.
    pub(crate) fn new(model: Model, bounds: Vec<(u64, String)>) -> BoundSet {
        let bounds: Vec<NamedBound> = bounds
            .into_iter()
            .map(|(value, name)| NamedBound::new(value, name, model))
            .collect();
        let best = bounds
            .iter()
            .fold(None::<&NamedBound>, |best, b| match best {
                Some(a) if a.value() >= b.value() => Some(a),
                _ => Some(b),
            })
            .cloned()
            .unwrap_or_else(|| NamedBound::new(0, "none", model));
        BoundSet { best, bounds }
    }

    /// The largest bound.
    pub fn best(&self) -> &NamedBound {
        &self.best
    }

    /// The largest bound's value.
    pub fn value(&self) -> u64 {
        self.best.value()
    }

    /// Every bound.
    pub fn bounds(&self) -> &[NamedBound] {
        &self.bounds
    }

    /// The bound of this name, if the set has one.
    pub fn named(&self, name: &str) -> Option<&NamedBound> {
        self.bounds.iter().find(|b| b.name() == name)
    }

    /// The model every bound of the set is proved under.
    pub fn model(&self) -> Model {
        self.best.model()
    }

    /// No bound, under the set's model: 0 steps (`none`), which every
    /// schedule meets. What a question is judged against when its bounds are
    /// not known to hold for it (a fabric, whose capacities and switch nodes
    /// the counting bounds ignore): optimality is then left to refutations.
    pub fn none(&self) -> NamedBound {
        NamedBound::new(0, "none", self.model())
    }
}

/// The model of a counting bound under `ports`: each of them counts hops,
/// crossings or distinct packets, which no copy of a packet (a copy serves one
/// destination's packet no sooner) and no queue avoids; so the proof allows
/// copies and buffering.
pub(crate) fn counting_model(ports: Ports) -> Model {
    Model::new(ports, true, true)
}

/// The K of K-port (`None`: all ports).
pub(crate) fn port_limit(ports: Ports) -> Option<u64> {
    match ports {
        Ports::All => None,
        Ports::Limit(k) => Some(u64::from(k)),
    }
}
