//! Which formula a collective is searched with: [`encode_copies`] for
//! broadcast and allgather, [`encode_sums`] for reduce, reduce-scatter and
//! allreduce.

use super::collective_copies::{
    COPIES_ENCODING_VERSION, CollectiveEncoding, CollectiveSearchError, encode_copies,
    estimate_variables,
};
use super::collective_sums::{SUMS_ENCODING_VERSION, encode_sums};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Items, Ports};

/// The formula of `collective` for `time` steps: [`encode_copies`] for
/// broadcast and allgather, [`encode_sums`] for reduce,
/// reduce-scatter and allreduce.
pub fn encode(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    match collective.items() {
        Items::Sums => encode_sums(graph, collective, ports, time),
        _ => encode_copies(graph, collective, ports, time),
    }
}

/// The version of the encoding [`encode`] uses for `collective`.
pub fn encoding_version(collective: Collective) -> &'static str {
    match collective.items() {
        Items::Sums => SUMS_ENCODING_VERSION,
        _ => COPIES_ENCODING_VERSION,
    }
}

/// An upper estimate of the variables of [`encode`]'s formula.
pub fn estimate(graph: &Graph, collective: Collective, time: usize) -> u64 {
    match collective.items() {
        Items::Sums => super::collective_sums::estimate_variables(graph, collective, time),
        _ => estimate_variables(graph, collective, time),
    }
}
