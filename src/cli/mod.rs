//! The command line: clap definitions and the glue from arguments to library calls.
//!
//! Arguments are parsed in two stages, as in ripgrep: clap gives raw
//! arguments; each subcommand validates them and calls the library; the
//! library never prints or exits. Exit status is part of the interface:
//! 0 valid, 1 invalid table or failed claim, 2 unreadable input, 3 internal
//! disagreement (a bug).

mod check;
mod simulate;

use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Verify, simulate and search for data exchange tables on Cayley networks.
#[derive(Parser, Debug)]
#[command(name = "txverify", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Check tables: validity, time, lower bound, optimality and `expect:` claims.
    Check(CheckArgs),
    /// Play a table out on its physical network, every node, message, step and link.
    Simulate(SimulateArgs),
    /// Print a table file back in canonical form with its columns aligned.
    Fmt(FmtArgs),
}

/// Output format of reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// JSON (one object per file, one per line), schema in docs/json.md.
    Json,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The `.tbl` files to check.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    max_order: usize,
    /// Skip the exhaustive simulation on the physical network.
    #[arg(long)]
    no_simulate: bool,
}

#[derive(clap::Args, Debug)]
struct SimulateArgs {
    /// The `.tbl` file to simulate.
    file: PathBuf,
    /// Report format.
    #[arg(long, value_enum, default_value_t)]
    format: OutputFormat,
    /// List every hop, step by step (small networks only).
    #[arg(long)]
    trace: bool,
}

#[derive(clap::Args, Debug)]
struct FmtArgs {
    /// The `.tbl` file to print.
    file: PathBuf,
}

/// Runs the command line and returns the exit status.
pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => check::run(&args),
        Command::Simulate(args) => simulate::run(&args),
        Command::Fmt(args) => check::fmt(&args),
    };
    ExitCode::from(code)
}
