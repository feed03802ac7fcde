//! `txverify lcc contention|reorder|map|simulate`: channel contention of
//! linear-complement communications on wormhole hypercubes (docs/lcc.md).
//! The arguments go to [`txverify_clients::lcc::report`], which computes and
//! checks every figure; its reports are printed here.

use super::OutputFormat;
use super::exit::Exit;
use serde::Serialize;
use serde_json::Value;
use std::path::PathBuf;
use txverify_clients::lcc::Lcc;
use txverify_clients::lcc::map::Objective;
use txverify_clients::lcc::report::{self as lcc, MapObjective, SimRequest};
use txverify_clients::lcc::wormhole::SimConfig;
use txverify_clients::report::{ErrorReport, Failure};

/// Linear-complement communication on wormhole hypercubes (seed 002).
#[derive(clap::Args, Debug)]
pub struct LccArgs {
    #[command(subcommand)]
    command: LccCommand,
}

#[derive(clap::Subcommand, Debug)]
enum LccCommand {
    /// T_i of every dimension by the rank formula (Theorem 1), checked by counting every e-cube path.
    #[command(after_help = super::examples::LCC_CONTENTION)]
    Contention(SpecsArgs),
    /// The optimal reordering of address bits of each communication (LCP_Optimizer, Theorem 4).
    #[command(after_help = super::examples::LCC_REORDER)]
    Reorder(SpecsArgs),
    /// One reordering for several communications (section 5's dynamic programme).
    #[command(after_help = super::examples::LCC_MAP)]
    Map(MapArgs),
    /// Flit-level wormhole simulation: latency against throughput before and after reordering.
    #[command(after_help = super::examples::LCC_SIMULATE)]
    Simulate(SimArgs),
}

#[derive(clap::Args, Debug)]
struct SpecsArgs {
    /// Communications: files (rows of A, `b: …`) or built-ins `NAME:N` (docs/lcc.md).
    #[arg(required = true)]
    specs: Vec<String>,
    /// Report format (JSON: one object per communication).
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// The objectives of `lcc map`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
enum ObjectiveArg {
    /// The largest contention of any communication; among the orders reaching its least
    /// value, the sum of the communications' contentions; then the sum over dimensions and
    /// communications of T_i.
    #[default]
    Lex,
    /// The largest contention of any communication.
    Max,
    /// The sum over dimensions and communications of T_i.
    Sum,
    /// The largest over dimensions of the sum over communications of T_i.
    Simultaneous,
}

#[derive(clap::Args, Debug)]
struct MapArgs {
    /// The communications, all on the same n.
    #[arg(required = true)]
    specs: Vec<String>,
    /// What to minimise.
    #[arg(long, value_enum, default_value_t)]
    objective: ObjectiveArg,
    /// Weights of the communications, comma-separated (default: all 1).
    #[arg(long)]
    weights: Option<String>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

#[derive(clap::Args, Debug)]
struct SimArgs {
    /// The communication.
    spec: String,
    /// The address-bit order to compare with the identity (default: `lcc reorder`'s).
    #[arg(long)]
    order: Option<String>,
    /// Flits per message.
    #[arg(long, default_value_t = 20)]
    flits: u32,
    /// Offered loads (flits per cycle per sending node), comma-separated.
    #[arg(long)]
    loads: Option<String>,
    /// Cycles before measuring.
    #[arg(long, default_value_t = 2_000)]
    warmup: u64,
    /// Cycles of measurement (at least 1: a run that measures nothing has no rate).
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    measure: u64,
    /// Extra cycles for the measured messages to arrive.
    #[arg(long, default_value_t = 20_000)]
    drain: u64,
    /// Seed of the pseudo-random generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Write the curves as CSV here.
    #[arg(long)]
    csv: Option<PathBuf>,
    /// Write the curves as an SVG picture here.
    #[arg(long)]
    svg: Option<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
}

/// Runs `txverify lcc …`.
pub fn run(args: &LccArgs) -> Exit {
    match &args.command {
        LccCommand::Contention(a) => each(
            a,
            lcc::CONTENTION_SCHEMA,
            lcc::contention_report,
            lcc::ContentionReport::text,
        ),
        LccCommand::Reorder(a) => each(
            a,
            lcc::REORDER_SCHEMA,
            lcc::reorder_report,
            lcc::ReorderReport::text,
        ),
        LccCommand::Map(a) => map_cmd(a),
        LccCommand::Simulate(a) => simulate_cmd(a),
    }
}

/// Prints a report, text or JSON; or the failure and its error object.
fn print<T: Serialize>(
    format: OutputFormat,
    schema: &str,
    spec: Value,
    result: Result<T, Failure>,
    text: fn(&T) -> String,
) -> Exit {
    match (result, format) {
        (Ok(report), OutputFormat::Json) => {
            super::output::json(&report);
            Exit::Ok
        }
        (Ok(report), OutputFormat::Text) => {
            out!("{}", text(&report));
            Exit::Ok
        }
        (Err(failure), format) => {
            let json = (format == OutputFormat::Json)
                .then(|| ErrorReport::new(Some(schema), &failure).about("spec", spec));
            super::output::failure(&failure, json)
        }
    }
}

/// One report per SPEC; the worst status.
fn each<T: Serialize>(
    args: &SpecsArgs,
    schema: &str,
    report: fn(&str, &Lcc) -> Result<T, Failure>,
    text: fn(&T) -> String,
) -> Exit {
    let mut worst = Exit::Ok;
    for s in &args.specs {
        let result = lcc::load(s).and_then(|l| report(s, &l));
        worst = worst.max(print(
            args.format,
            schema,
            Value::from(s.as_str()),
            result,
            text,
        ));
    }
    worst
}

fn map_cmd(args: &MapArgs) -> Exit {
    let objective = match args.objective {
        ObjectiveArg::Lex => MapObjective::Lex,
        ObjectiveArg::Max => MapObjective::Single(Objective::Max),
        ObjectiveArg::Sum => MapObjective::Single(Objective::Sum),
        ObjectiveArg::Simultaneous => MapObjective::Single(Objective::Simultaneous),
    };
    let result = args
        .specs
        .iter()
        .map(|s| lcc::load(s))
        .collect::<Result<Vec<_>, _>>()
        .and_then(|lccs| lcc::map_report(&args.specs, &lccs, objective, args.weights.as_deref()));
    let specs = Value::from(args.specs.clone());
    print(
        args.format,
        lcc::MAP_SCHEMA,
        specs,
        result,
        lcc::MapReport::text,
    )
}

fn simulate_cmd(args: &SimArgs) -> Exit {
    let request = SimRequest {
        spec: args.spec.clone(),
        order: args.order.clone(),
        loads: args.loads.clone(),
        config: SimConfig {
            flits: args.flits,
            warmup: args.warmup,
            measure: args.measure,
            drain: args.drain,
            seed: args.seed,
        },
        csv: args.csv.clone(),
        svg: args.svg.clone(),
    };
    let result = lcc::load(&args.spec).and_then(|l| lcc::simulate(&request, &l));
    let spec = Value::from(args.spec.as_str());
    print(
        args.format,
        lcc::SIMULATE_SCHEMA,
        spec,
        result,
        lcc::SimReport::text,
    )
}
