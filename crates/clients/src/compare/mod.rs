//! `txverify compare NET…`: networks side by side, one row each — size,
//! degree, distances, the all-to-all lower bounds and the best total exchange
//! txverify knows — as text, JSON lines, CSV or an SVG bar chart
//! (docs/networks.md).
//!
//! The bounds are `bounds --network`'s own report ([`crate::bounds`]), for
//! one port (which also gives the all-port ones); the best schedules are
//! [`crate::product::best`]'s, each replayed and judged by the verdict. A
//! best time below its bound would mean a bound or a verdict is wrong: that
//! network gets [`CompareError::Internal`].

mod chart;

pub use chart::svg;

use crate::bounds::network_report;
use crate::product::best::{Known, best_known};
use serde::Serialize;
use std::fmt::Write as _;
use txverify_core::network::NetworkName;
use txverify_core::schedule::Ports;

/// The JSON schema of one row.
pub const COMPARE_SCHEMA: &str = "txverify-compare/1";

/// One network's figures (schema [`COMPARE_SCHEMA`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// [`COMPARE_SCHEMA`].
    pub schema: &'static str,
    /// The network, as named.
    pub network: String,
    /// Nodes.
    pub nodes: u64,
    /// Links (undirected).
    pub links: u64,
    /// The least degree.
    pub degree_min: u64,
    /// The largest degree.
    pub degree_max: u64,
    /// The largest distance.
    pub diameter: u64,
    /// The mean distance over all ordered pairs.
    pub average_distance: f64,
    /// `bounds --network NET`'s `all_port_bound`.
    pub all_port_bound: u64,
    /// `bounds --network NET --ports 1`'s `ports_bound`.
    pub single_port_bound: u64,
    /// The fastest all-port schedule known, replayed.
    pub best_all_port: Option<Known>,
    /// The fastest single-port schedule known, replayed.
    pub best_single_port: Option<Known>,
}

/// Why a network has no row.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CompareError {
    /// The name gives no network (exit 2).
    #[error("{0}")]
    Input(String),
    /// A bound or a verdict is wrong: statuses that differ, or a best time
    /// below its bound (exit 3).
    #[error("{0}")]
    Internal(String),
}

/// The row of the network named `words`.
pub fn row(words: &str) -> Result<Row, CompareError> {
    let input = |m: String| CompareError::Input(m);
    let network = words
        .parse::<NetworkName>()
        .map_err(|e| input(format!("`{}`: {e}", txverify_core::format::echoed(words))))?;
    crate::bounds::check_size(&network).map_err(|e| input(e.to_string()))?;
    let graph = network
        .build()
        .map_err(|e| input(format!("`{}`: {e}", txverify_core::format::echoed(words))))?;
    // Its best-known schedules are the plain network's: a fabric is refused.
    if txverify_core::bounds::collective::fabric::is_fabric(&graph) {
        return Err(input(
            crate::bounds::BoundsError::Fabric(words.to_string()).to_string(),
        ));
    }
    // The bounds of `bounds --network NET --ports 1`, the very same report.
    let figures = network_report(words, 1).map_err(|e| input(e.to_string()))?;
    if figures.statuses_agree == Some(false) {
        let message = format!("{network}: the status by search and by the seed's formulas differ");
        return Err(CompareError::Internal(message));
    }
    let mut best = [None, None];
    let models = [
        (Ports::All, figures.all_port_bound),
        (Ports::Limit(1), figures.ports_bound),
    ];
    for (slot, (ports, bound)) in best.iter_mut().zip(models) {
        *slot = best_known(&network, &graph, ports, bound)
            .map_err(|e| CompareError::Internal(format!("{network}: {e}")))?;
    }
    let [best_all_port, best_single_port] = best;
    let row = Row {
        schema: COMPARE_SCHEMA,
        network: network.to_string(),
        nodes: figures.order,
        links: figures.directed_links / 2,
        degree_min: figures.degree_min,
        degree_max: figures.degree_max,
        diameter: figures.diameter,
        average_distance: figures.average_distance,
        all_port_bound: figures.all_port_bound,
        single_port_bound: figures.ports_bound,
        best_all_port,
        best_single_port,
    };
    for (known, bound, model) in [
        (&row.best_all_port, row.all_port_bound, "all-port"),
        (&row.best_single_port, row.single_port_bound, "single-port"),
    ] {
        if let Some(k) = known
            && u64::from(k.time) < bound
        {
            let message = format!(
                "{network}: the {model} schedule from {} takes {} steps, below the bound {bound}",
                k.source, k.time
            );
            return Err(CompareError::Internal(message));
        }
    }
    Ok(row)
}

/// The time of a best schedule, or `-`.
fn time_of(known: &Option<Known>) -> String {
    known
        .as_ref()
        .map_or("-".to_string(), |k| k.time.to_string())
}

fn source_of(known: &Option<Known>) -> &str {
    known.as_ref().map_or("none", |k| k.source.as_str())
}

/// The rows as a table, and where each best time comes from.
pub fn text(rows: &[&Row]) -> String {
    let width = rows
        .iter()
        .map(|r| r.network.len())
        .max()
        .unwrap_or(7)
        .max(7);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<width$}  {:>7} {:>7} {:>7} {:>5} {:>8}   {:>16}   {:>16}",
        "network",
        "nodes",
        "links",
        "degree",
        "diam",
        "avg dist",
        "all-port bd/best",
        "1-port bd/best"
    );
    for r in rows {
        let degree = if r.degree_min == r.degree_max {
            r.degree_max.to_string()
        } else {
            format!("{}-{}", r.degree_min, r.degree_max)
        };
        let all = format!("{} / {}", r.all_port_bound, time_of(&r.best_all_port));
        let one = format!("{} / {}", r.single_port_bound, time_of(&r.best_single_port));
        let _ = writeln!(
            s,
            "{:<width$}  {:>7} {:>7} {:>7} {:>5} {:>8.4}   {all:>16}   {one:>16}",
            r.network, r.nodes, r.links, degree, r.diameter, r.average_distance
        );
    }
    let _ = writeln!(s, "best known schedules:");
    for r in rows {
        let _ = writeln!(
            s,
            "  {:<width$}  all-port: {}; 1-port: {}",
            r.network,
            source_of(&r.best_all_port),
            source_of(&r.best_single_port)
        );
    }
    s
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// The rows as CSV, a header line first.
pub fn csv(rows: &[&Row]) -> String {
    let mut s = String::from(
        "network,nodes,links,degree_min,degree_max,diameter,average_distance,all_port_bound,best_all_port_time,best_all_port_source,single_port_bound,best_single_port_time,best_single_port_source\n",
    );
    let time = |k: &Option<Known>| k.as_ref().map_or(String::new(), |k| k.time.to_string());
    let source = |k: &Option<Known>| csv_field(k.as_ref().map_or("", |k| k.source.as_str()));
    for r in rows {
        let _ = writeln!(
            s,
            "{},{},{},{},{},{},{:.6},{},{},{},{},{},{}",
            csv_field(&r.network),
            r.nodes,
            r.links,
            r.degree_min,
            r.degree_max,
            r.diameter,
            r.average_distance,
            r.all_port_bound,
            time(&r.best_all_port),
            source(&r.best_all_port),
            r.single_port_bound,
            time(&r.best_single_port),
            source(&r.best_single_port),
        );
    }
    s
}
