//! `txverify compare NET…`: networks side by side
//! ([`txverify_clients::compare`]), printed as text, JSON lines, CSV or an
//! SVG bar chart. A network that gives no row is exit 2 (no network) or 3 (a
//! bound or a verdict is wrong).

use super::exit::Exit;
use txverify_clients::compare::{self, COMPARE_SCHEMA, CompareError, Row};

/// `compare --help` examples.
pub const EXAMPLES: &str = "\
Examples:
  txverify compare 'torus 8 16' 'twisted 16 8' 'hypercube 7' 'edges dragonfly.edges'
  txverify compare 'star 4' 'ccc 3' --format json
  txverify compare 'torus 4 4' 'mesh 4 4' --format svg > networks.svg";

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

pub fn run(args: &CompareArgs) -> Exit {
    let outcomes: Vec<(&str, Result<Row, CompareError>)> = args
        .networks
        .iter()
        .map(|w| (w.as_str(), compare::row(w)))
        .collect();
    let mut worst = Exit::Ok;
    for (_, outcome) in &outcomes {
        if let Err(e) = outcome {
            errorln!("{e}");
            worst = worst.max(exit_of(e));
        }
    }
    let rows: Vec<&Row> = outcomes
        .iter()
        .filter_map(|(_, o)| o.as_ref().ok())
        .collect();
    match args.format {
        CompareFormat::Text => out!("{}", compare::text(&rows)),
        CompareFormat::Csv => out!("{}", compare::csv(&rows)),
        CompareFormat::Svg => out!("{}", compare::svg(&rows)),
        CompareFormat::Json => {
            for (network, outcome) in &outcomes {
                let value = match outcome {
                    Ok(row) => serde_json::to_value(row).unwrap_or_default(),
                    Err(e) => serde_json::json!({
                        "schema": COMPARE_SCHEMA,
                        "network": network,
                        "error": { "message": e.to_string() },
                        "exit_code": exit_of(e).code(),
                    }),
                };
                outln!("{value}");
            }
        }
    }
    worst
}

fn exit_of(error: &CompareError) -> Exit {
    match error {
        CompareError::Input(_) => Exit::Input,
        _ => Exit::Internal,
    }
}
