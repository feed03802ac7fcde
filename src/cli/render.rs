//! `txverify render`: a table, or its link utilisation, or a schedule of timed
//! sends (replayed first; docs/render.md), as an SVG picture.

use super::OutputFormat;
use super::check::read_and_load_with_source;
use super::exit::Exit;
use clap::ValueEnum;
use std::path::PathBuf;
use txverify_clients::render::{
    ColourBy, LINK_USE_SHAPE, ScheduleOptions, TableOptions, schedule_svg, table_svg,
    utilisation_svg,
};
use txverify_clients::verify::{SimulationOutcome, VerifyOptions, verify};
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::{Verdict, check};
use txverify_core::load::LoadOptions;
use txverify_core::schedule::format::is_schedule;
use txverify_core::schedule::{ReplayOptions, parse, replay};
use txverify_core::verdict::judge;

#[derive(clap::Args, Debug)]
pub struct RenderArgs {
    /// The `.tbl` file or the schedule (text or JSON, docs/schedule.md) to draw.
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
    if let Some(exit) = schedule_if_schedule(args) {
        return exit;
    }
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
    write_svg(args, &svg).max(exit)
}

/// Writes the picture to `-o` or standard output.
fn write_svg(args: &RenderArgs, svg: &str) -> Exit {
    match &args.output {
        Some(path) => {
            if let Err(e) = std::fs::write(path, svg) {
                eprintln!("error: cannot write {}: {e}", path.display());
                return Exit::Input;
            }
            if !super::global::quiet() {
                eprintln!("wrote {} ({} bytes)", path.display(), svg.len());
            }
        }
        None => out!("{svg}"),
    }
    Exit::Ok
}

/// When `args.file` is a schedule: reads it, replays it on its `network:`, and
/// draws it if the verdict is valid (exit 1 with the violations otherwise);
/// `None` hands the file on to the `.tbl` path.
fn schedule_if_schedule(args: &RenderArgs) -> Option<Exit> {
    let shown = args.file.display().to_string();
    // An unreadable file is reported by the `.tbl` path, as `simulate` does.
    let source = super::read_text(&args.file).ok()?;
    if !is_schedule(&source) {
        return None;
    }
    if args.utilisation {
        eprintln!(
            "error: {shown}: --utilisation is for tables; a schedule's picture shows its link use"
        );
        return Some(Exit::Input);
    }
    let mut schedule = match parse(&source) {
        Ok(s) => s,
        Err(e) => {
            eprint!("{}", e.render(&shown, &source));
            return Some(Exit::Input);
        }
    };
    // A schedule's `edges FILE` is relative to the schedule (docs/networks.md).
    let here = args.file.parent().unwrap_or(std::path::Path::new(""));
    let Some(name) = schedule.network.take().map(|n| n.relative_to(here)) else {
        eprintln!(
            "error: {shown}: the schedule says no `network:` (`simulate --network` can supply one; `render` draws only what the file says)"
        );
        return Some(Exit::Input);
    };
    let graph = match name.build() {
        Ok(g) => g,
        Err(e) => {
            eprintln!("error: {shown}: network {name}: {e}");
            return Some(Exit::Input);
        }
    };
    let report = match replay(&schedule, &graph, &ReplayOptions::default()) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return Some(Exit::Input);
        }
    };
    let verdict = judge(&report, None, None);
    if !verdict.valid() {
        let mut reasons = String::new();
        super::schedule::violation_lines(&report, "  error: ", &mut reasons);
        eprint!(
            "error: {shown}: the schedule is INVALID ({} violations), so it is not drawn\n{reasons}",
            verdict.violations()
        );
        return Some(Exit::Rejected);
    }
    let options = ScheduleOptions {
        max_columns: args.max_columns as usize,
        title: format!("schedule on {name} — {shown}"),
        ..ScheduleOptions::default()
    };
    Some(
        match schedule_svg(&schedule, &graph, &report, &verdict, &options) {
            Ok(svg) => write_svg(args, &svg),
            Err(e) => {
                eprintln!("error: {shown}: {e}");
                Exit::Input
            }
        },
    )
}
