//! The lower bounds of the hypercube collectives: asked of
//! [`txverify_core::bounds::collective()`] (where each counting argument and its
//! model are stated), the problem named as the core's collective. Nothing is
//! computed here.

use super::Problem;
use txverify_core::bounds::{self, CollectiveBounds};
use txverify_core::network::Graph;
use txverify_core::schedule::Ports;

/// A lower bound on the time and one on the number of sends, all-port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// No schedule of the problem finishes in fewer steps.
    pub time: u64,
    /// No schedule of the problem makes fewer sends.
    pub transmissions: u64,
}

/// The all-port bounds of `problem` from `root` (ignored by mnb and
/// exchange) on `graph`, with their names and model.
pub fn all_port(problem: Problem, graph: &Graph, root: u32) -> CollectiveBounds {
    bounds::collective(graph, problem.collective(root), Ports::All)
}

/// The all-port bounds' values.
pub fn lower_bounds(problem: Problem, graph: &Graph, root: u32) -> Bounds {
    let b = all_port(problem, graph, root);
    Bounds {
        time: b.time.value(),
        transmissions: b.transmissions.value(),
    }
}

/// The single-port bounds (every node sends at most one packet and receives
/// at most one a step: the seed paper's SLA assumption).
pub fn single_port(problem: Problem, graph: &Graph, root: u32) -> CollectiveBounds {
    bounds::collective(graph, problem.collective(root), Ports::Limit(1))
}

/// The single-port bound on time.
pub fn single_port_time(problem: Problem, graph: &Graph, root: u32) -> u64 {
    single_port(problem, graph, root).time.value()
}

/// The half-duplex bound on time ([`bounds::half_duplex_time`]).
pub fn half_duplex_time(problem: Problem, graph: &Graph, root: u32) -> u64 {
    bounds::half_duplex_time(graph, problem.collective(root))
}
