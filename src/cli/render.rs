//! `txverify render`: a table, or its link utilisation, as an SVG picture.

use super::OutputFormat;
use super::check::read_and_load_with_source;
use super::exit::Exit;
use clap::ValueEnum;
use std::path::PathBuf;
use txverify::group::EnumerationLimits;
use txverify::kernel::{Verdict, check};
use txverify::load::LoadOptions;
use txverify::render::{ColourBy, LINK_USE_SHAPE, TableOptions, table_svg, utilisation_svg};
use txverify::verify::{SimulationOutcome, VerifyOptions, verify};

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The `.tbl` file to draw.
    file: PathBuf,
    /// Write the SVG here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// What colours say: the length of each word, or the link of each letter.
    #[arg(long, value_enum, default_value_t)]
    by: ByArg,
    /// Draw the link utilisation per step found by the exhaustive simulation (a heat
    /// map of directed links × steps and a curve of busy links) instead of the table.
    #[arg(long)]
    utilisation: bool,
    /// Above this many steps, aggregate runs of steps into at most this many drawn columns.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
    max_columns: u32,
    /// Largest group order to enumerate.
    #[arg(long, default_value_t = 2_000_000)]
    max_order: usize,
}

/// What colours say (`--by`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
enum ByArg {
    /// The length of each word.
    #[default]
    Length,
    /// The link of each letter.
    Link,
}

pub fn run(args: &RenderArgs) -> Exit {
    let load = LoadOptions {
        limits: EnumerationLimits {
            max_order: args.max_order,
            ..EnumerationLimits::default()
        },
    };
    let Some((_, loaded)) = read_and_load_with_source(&args.file, &load, OutputFormat::Text) else {
        return Exit::Input;
    };
    let shown = args.file.display().to_string();
    let name = loaded
        .file
        .name
        .as_ref()
        .map(|n| n.value.clone())
        .unwrap_or_else(|| {
            args.file
                .file_stem()
                .map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned())
        });
    let (svg, exit) = if args.utilisation {
        let mut options = VerifyOptions::default();
        options.simulation.link_use = Some(LINK_USE_SHAPE);
        let verification = verify(&loaded, &options);
        let exit = Exit::of_outcome(verification.outcome());
        let report = match verification.simulation() {
            SimulationOutcome::Ran { report, .. } => report,
            SimulationOutcome::Skipped { reason } => {
                eprintln!(
                    "error: {shown}: no utilisation to draw: the simulation did not run ({reason})"
                );
                return exit.max(Exit::Rejected);
            }
            refused @ SimulationOutcome::OverLimit { .. } => {
                let reason = refused.not_run_reason().unwrap_or_default();
                eprintln!("error: {shown}: no utilisation to draw: {reason}");
                return exit.max(Exit::Input);
            }
        };
        match utilisation_svg(report, &format!("link utilisation — {name} ({shown})")) {
            Ok(svg) => (svg, exit),
            Err(e) => {
                eprintln!("error: {shown}: {e}");
                return exit.max(Exit::Rejected);
            }
        }
    } else {
        let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
        let options = TableOptions {
            colour_by: match args.by {
                ByArg::Length => ColourBy::Length,
                ByArg::Link => ColourBy::Link,
            },
            max_columns: args.max_columns as usize,
            title: format!("{name} — {shown}"),
            ..TableOptions::default()
        };
        let exit = if checked.verdict() == Verdict::Invalid {
            Exit::Rejected
        } else {
            Exit::Ok
        };
        (
            table_svg(&loaded.instance, &loaded.table, &checked, &options),
            exit,
        )
    };
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, &svg) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return Exit::Input;
            }
            if !super::global::quiet() {
                eprintln!("wrote {} ({} bytes)", path.display(), svg.len());
            }
        }
        None => out!("{svg}"),
    }
    exit
}
