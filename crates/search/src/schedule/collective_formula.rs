//! Which formula a collective is searched with: [`encode_copies`] for
//! broadcast and allgather, [`encode_sums`] for reduce, reduce-scatter and
//! allreduce.

use super::StopToken;
use super::collective_copies::{
    COPIES_ENCODING_VERSION, CollectiveEncoding, CollectiveSearchError, encode_copies,
    encode_copies_in, estimate_variables,
};
use super::collective_sums::{SUMS_ENCODING_VERSION, encode_sums, encode_sums_in};
use super::collective_symmetry::Translations;
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

/// [`encode`], given up ([`CollectiveSearchError::Stopped`]) as soon as
/// `stop` says so: it is polled before each item's clauses.
pub fn encode_until(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
    stop: &StopToken,
) -> Result<CollectiveEncoding, CollectiveSearchError> {
    match collective.items() {
        Items::Sums => encode_sums_in(graph, collective, ports, time, None, stop),
        _ => encode_copies_in(graph, collective, ports, time, None, stop),
    }
}

/// The formula of `collective` for `time` steps restricted to translated
/// schedules (the items of block b those of block 0 mapped by σ_b): for
/// allgather, reduce-scatter and allreduce, `None` for the rest. Its models
/// are schedules; its refutations prove nothing and are never reported.
/// `Err` only when `stop` stopped it.
pub(crate) fn encode_translated(
    graph: &Graph,
    collective: Collective,
    ports: Ports,
    time: usize,
    (translations, stop): (&Translations, &StopToken),
) -> Result<Option<CollectiveEncoding>, CollectiveSearchError> {
    if collective.root().is_some() || collective.items() == Items::None {
        return Ok(None);
    }
    let t = Some(translations);
    match match collective.items() {
        Items::Sums => encode_sums_in(graph, collective, ports, time, t, stop),
        _ => encode_copies_in(graph, collective, ports, time, t, stop),
    } {
        Ok(encoding) => Ok(Some(encoding)),
        Err(CollectiveSearchError::Stopped) => Err(CollectiveSearchError::Stopped),
        Err(_) => Ok(None),
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
