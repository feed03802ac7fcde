//! `txverify compare NET…`: networks side by side, one row each — size,
//! degree, distances, the all-to-all lower bounds and the best total exchange
//! txverify knows — as text, JSON lines, CSV or an SVG bar chart
//! (docs/networks.md).
//!
//! The bounds are `bounds --network`'s own figures ([`super::network_bounds`]),
//! computed once for one port (which also gives the all-port ones); the best
//! schedules are [`txverify_clients::product::best`]'s, each replayed and judged by the
//! verdict. A best time below its bound would mean a bound or a verdict is
//! wrong: that row is exit 3.

mod chart;

use super::exit::Exit;
use super::network_bounds::{Figures, average_distance};
use std::fmt::Write as _;
use txverify_clients::product::best::{Known, best_known};
use txverify_core::network::NetworkName;
use txverify_core::schedule::Ports;

/// `compare --help` examples.
pub const EXAMPLES: &str = "\
Examples:
  txverify compare 'torus 8 16' 'twisted 16 8' 'hypercube 7' 'edges dragonfly.edges'
  txverify compare 'star 4' 'ccc 3' --format json
  txverify compare 'torus 4 4' 'mesh 4 4' --format svg > networks.svg";

/// The JSON schema of one row.
const SCHEMA: &str = "txverify-compare/1";

/// Output formats of `compare`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CompareFormat {
    /// A table, one row per network, and where each best time comes from.
    #[default]
    Text,
    /// One JSON object per network, one per line (schema txverify-compare/1).
    Json,
    /// A header line and one line per network.
    Csv,
    /// A bar chart of the bounds and the best times (SVG).
    Svg,
}

/// `txverify compare` arguments.
#[derive(clap::Args, Debug)]
pub struct CompareArgs {
    /// The networks, one argument each (`'torus 8 16'`, `'edges FILE'`, `'star 4 x ring 3'`).
    #[arg(required = true, num_args = 1..)]
    networks: Vec<String>,
    /// Report format (JSON: schema txverify-compare/1).
    #[arg(long, value_enum, default_value_t)]
    format: CompareFormat,
}

/// One network's figures.
struct Row {
    network: String,
    nodes: u64,
    links: u64,
    degree_min: u64,
    degree_max: u64,
    diameter: u64,
    average_distance: f64,
    all_port_bound: u64,
    single_port_bound: u64,
    best_all_port: Option<Known>,
    best_single_port: Option<Known>,
}

/// A row, or why a network has none.
enum Outcome {
    Row(Row),
    Failed {
        network: String,
        message: String,
        exit: Exit,
    },
}

pub fn run(args: &CompareArgs) -> Exit {
    let outcomes: Vec<Outcome> = args.networks.iter().map(|w| outcome(w)).collect();
    let mut worst = Exit::Ok;
    for o in &outcomes {
        if let Outcome::Failed { message, exit, .. } = o {
            eprintln!("error: {message}");
            worst = worst.max(*exit);
        }
    }
    let rows: Vec<&Row> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Row(r) => Some(r),
            Outcome::Failed { .. } => None,
        })
        .collect();
    match args.format {
        CompareFormat::Text => out!("{}", text(&rows)),
        CompareFormat::Csv => out!("{}", csv(&rows)),
        CompareFormat::Svg => out!("{}", chart::svg(&rows)),
        CompareFormat::Json => {
            for o in &outcomes {
                outln!("{}", json(o));
            }
        }
    }
    worst
}

fn outcome(words: &str) -> Outcome {
    let failed = |message: String, exit: Exit| Outcome::Failed {
        network: words.to_string(),
        message,
        exit,
    };
    let network = match words.parse::<NetworkName>() {
        Ok(network) => network,
        Err(e) => return failed(format!("`{words}`: {e}"), Exit::Input),
    };
    if let Err(message) = super::network_bounds::refuse_all_pairs_over_limit(&network) {
        return failed(message, Exit::Input);
    }
    let graph = match network.build() {
        Ok(graph) => graph,
        Err(e) => return failed(format!("`{words}`: {e}"), Exit::Input),
    };
    let figures = match Figures::of(network.clone(), &graph, 1) {
        Ok(figures) => figures,
        Err(e) => return failed(format!("`{words}`: {e}"), Exit::Input),
    };
    if figures.statuses_agree() == Some(false) {
        let message = format!("{network}: the status by search and by the seed's formulas differ");
        return failed(message, Exit::Internal);
    }
    let mut best = [None, None];
    let models = [
        (Ports::All, figures.all_port_bound()),
        (Ports::Limit(1), figures.ports_bound()),
    ];
    for (slot, (ports, bound)) in best.iter_mut().zip(models) {
        match best_known(&network, &graph, ports, bound) {
            Ok(known) => *slot = known,
            Err(e) => return failed(format!("{network}: {e}"), Exit::Internal),
        }
    }
    let [best_all_port, best_single_port] = best;
    let g = &figures.general;
    let row = Row {
        network: network.to_string(),
        nodes: g.order,
        links: g.directed_links / 2,
        degree_min: g.degree_min,
        degree_max: g.degree_max,
        diameter: g.diameter,
        average_distance: average_distance(g),
        all_port_bound: figures.all_port_bound(),
        single_port_bound: figures.ports_bound(),
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
            return failed(message, Exit::Internal);
        }
    }
    Outcome::Row(row)
}

fn known_json(known: &Option<Known>) -> serde_json::Value {
    match known {
        None => serde_json::Value::Null,
        Some(k) => serde_json::json!({
            "time": k.time,
            "method": k.method,
            "source": k.source,
        }),
    }
}

fn json(outcome: &Outcome) -> serde_json::Value {
    match outcome {
        Outcome::Failed {
            network,
            message,
            exit,
        } => serde_json::json!({
            "schema": SCHEMA,
            "network": network,
            "error": { "message": message },
            "exit_code": exit.code(),
        }),
        Outcome::Row(r) => serde_json::json!({
            "schema": SCHEMA,
            "network": r.network,
            "nodes": r.nodes,
            "links": r.links,
            "degree_min": r.degree_min,
            "degree_max": r.degree_max,
            "diameter": r.diameter,
            "average_distance": r.average_distance,
            "all_port_bound": r.all_port_bound,
            "single_port_bound": r.single_port_bound,
            "best_all_port": known_json(&r.best_all_port),
            "best_single_port": known_json(&r.best_single_port),
        }),
    }
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

fn text(rows: &[&Row]) -> String {
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

fn csv(rows: &[&Row]) -> String {
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
