//! The best total exchange txverify knows for a whole network, for
//! `txverify compare`: an embedded table that fits the network
//! ([`crate::catalogue`]), seed 000's A1 or A2 when the network is a product
//! (for one factor, that factor's best schedule: FIFO, `gen ring`, a table),
//! or the greedy schedule on graphs small enough for it (and A1/A2 only when no
//! factor would need the greedy schedule above that size).
//!
//! Every candidate is replayed on the network and counts only when the trusted
//! verdict ([`txverify_core::verdict::judge`]) finds it valid; the fastest is kept, the
//! first on a tie in the order above.

use super::{Algorithm, Factor, ProductError, run};
use crate::catalogue;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, TimedSend, replay};
use txverify_core::verdict::judge;

/// Networks up to this many nodes also get the greedy schedule (its cost grows
/// with the packets times the steps).
pub const GREEDY_NETWORK_NODES: usize = 128;

/// A replayed, valid total exchange and where it comes from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Known {
    /// Its time, as the replay found it.
    pub time: u32,
    /// `table`, `a1`, `a2`, `fifo`, `direct` or `greedy`.
    pub method: &'static str,
    /// An embedded table's path, `A2 from tables/found/star4.tbl`, `FIFO
    /// algorithm`, `greedy`.
    pub source: String,
}

/// The fastest valid total exchange known for `network` (built as `graph`)
/// under `ports` (A1 is the single-port product algorithm, so products only
/// compose for one port or all), or `None` when no candidate applies. Once a
/// candidate's time equals `bound` (a lower bound for the model) no slower
/// candidate is tried: none can be faster.
pub fn best_known(
    network: &NetworkName,
    graph: &Graph,
    ports: Ports,
    bound: u64,
) -> Result<Option<Known>, ProductError> {
    let mut best: Option<Known> = None;
    let met = |best: &Option<Known>| best.as_ref().is_some_and(|b| u64::from(b.time) <= bound);
    if let Some(table) = catalogue::best_table(network, graph, ports)
        && let Some(time) = replayed_time(network, graph, ports, table.sends)
    {
        offer(
            &mut best,
            Known {
                time,
                method: "table",
                source: table.path.to_string(),
            },
        );
    }
    if !met(&best)
        && let Some(known) = composed(network, ports)?
    {
        offer(&mut best, known);
    }
    if !met(&best) && graph.nodes() <= GREEDY_NETWORK_NODES {
        let sends = super::factor::greedy_exchange(graph, ports);
        if let Some(time) = replayed_time(network, graph, ports, sends) {
            offer(
                &mut best,
                Known {
                    time,
                    method: "greedy",
                    source: "greedy".to_string(),
                },
            );
        }
    }
    Ok(best)
}

/// Keeps `known` if it is faster than `best` (the first stays on a tie).
fn offer(best: &mut Option<Known>, known: Known) {
    if best.as_ref().is_none_or(|b| known.time < b.time) {
        *best = Some(known);
    }
}

/// A1 (one port) or A2 (all ports) on a product network, if it composes.
fn composed(network: &NetworkName, ports: Ports) -> Result<Option<Known>, ProductError> {
    let algorithm = match ports {
        Ports::All => Algorithm::A2,
        Ports::Limit(1) => Algorithm::A1,
        Ports::Limit(_) => return Ok(None),
    };
    // A factor whose only schedule would be the greedy one is held to the
    // greedy size limit too (`star 6` all-port: 720 nodes, no table).
    if let Ok(factors) = super::factors_of(network)
        && factors
            .iter()
            .any(|f| greedy_only(f, ports) && f.nodes() as usize > GREEDY_NETWORK_NODES)
    {
        return Ok(None);
    }
    let made = match run(algorithm, network) {
        Ok(made) => made,
        Err(
            ProductError::NotAProduct(_)
            | ProductError::NoEqualHalves(_)
            | ProductError::TooLarge { .. }
            | ProductError::FactorOverLimit(_),
        ) => return Ok(None),
        Err(e) => return Err(e),
    };
    if !made.verdict.valid() {
        return Ok(None);
    }
    let time = made.verdict.time();
    if let [only] = made.factors.as_slice() {
        return Ok(Some(Known {
            time,
            method: only.part.method,
            source: only.part.source.clone(),
        }));
    }
    let mut sources: Vec<&str> = Vec::new();
    for f in &made.factors {
        if !sources.contains(&f.part.source.as_str()) {
            sources.push(&f.part.source);
        }
    }
    let method = match algorithm {
        Algorithm::A1 => "a1",
        Algorithm::A2 => "a2",
    };
    Ok(Some(Known {
        time,
        method,
        source: format!("{} from {}", method.to_uppercase(), sources.join(", ")),
    }))
}

/// Whether a factor's only schedule under `ports` is the greedy one (see
/// [`super::factor::factor_exchange`]; an embedded table may still exist, but
/// for a network of one factor the table was tried on the whole network).
fn greedy_only(factor: &Factor, ports: Ports) -> bool {
    match factor {
        _ if factor.nodes() <= 2 => false,
        Factor::Complete(_) | Factor::Ring(_) => false,
        Factor::Cayley { .. } => ports == Ports::All,
        Factor::Linear(_) | Factor::Edges { .. } => true,
    }
}

/// The time of a total exchange replayed on `graph`, if the verdict finds it valid.
fn replayed_time(
    network: &NetworkName,
    graph: &Graph,
    ports: Ports,
    sends: Vec<TimedSend>,
) -> Option<u32> {
    let schedule = Schedule {
        network: Some(network.clone()),
        ports: Some(ports),
        collective: Collective::TotalExchange,
        sends,
    };
    let report = replay(&schedule, graph, &ReplayOptions { max_listed: 1 }).ok()?;
    let verdict = judge(&report, None, None);
    verdict.valid().then(|| verdict.time())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn star_4_all_port_is_the_table_and_single_port_the_fifo_algorithm() {
        let star: NetworkName = "star 4".parse().unwrap();
        let graph = star.build().unwrap();
        let all = best_known(&star, &graph, Ports::All, 0).unwrap().unwrap();
        assert_eq!(
            (all.time, all.source.as_str()),
            (21, "tables/found/star4.tbl")
        );
        let one = best_known(&star, &graph, Ports::Limit(1), 0)
            .unwrap()
            .unwrap();
        assert_eq!(one.method, "fifo");
    }
}
