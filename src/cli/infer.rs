//! `txverify infer FILE`: every segmentation of a letter grid into words that makes a
//! valid table, printed as `.tbl` files with their count (docs/infer.md); with
//! `--complete N`, every completion of a printed prefix. The search and its
//! reports are [`txverify_clients::infer::report`]'s.

use super::exit::Exit;
use super::{InferArgs, OutputFormat};
use std::io::IsTerminal;
use std::time::{Duration, Instant};
use txverify_clients::infer::InferProgress;
use txverify_clients::infer::report::{
    CompleteRequest, Mode, SCHEMA, complete_report, infer_report, read_grid,
};
use txverify_clients::report::{ErrorReport, Failure, Status};

pub fn run(args: &InferArgs) -> Exit {
    let shown = args.file.display().to_string();
    let grid = match read_grid(&args.file, args.max_order) {
        Ok(grid) => grid,
        Err(failure) => return fail(args.format, &shown, &failure),
    };
    if let Some(columns) = args.complete {
        let request = CompleteRequest {
            columns,
            shortest_only: args.shortest,
            max_steps: args.max_steps,
            max_fillings: args.max_fillings,
            max_order: args.max_order,
            derive: args.derive.clone(),
            delete: args.delete,
        };
        return match complete_report(&shown, &grid, &request) {
            Ok(report) => print(args.format, &report, report.text(), report.status()),
            Err(failure) => fail(args.format, &shown, &failure),
        };
    }
    let mode = if args.one {
        Mode::One
    } else if args.count {
        Mode::Count
    } else {
        Mode::Limit(args.limit)
    };
    let mut progress = Progress::new(&shown, args.max_steps);
    let report = infer_report(
        &shown,
        &grid,
        mode,
        args.shortest,
        args.max_steps,
        &mut |p| progress.show(p),
    );
    progress.finish();
    match report {
        Ok(report) => print(args.format, &report, report.text(), report.status()),
        Err(failure) => fail(args.format, &shown, &failure),
    }
}

/// Prints a report; its status.
fn print(format: OutputFormat, report: &impl serde::Serialize, text: &str, status: Status) -> Exit {
    match format {
        OutputFormat::Text => out!("{text}"),
        OutputFormat::Json => super::output::json(report),
    }
    Exit::from(status)
}

/// A failure: in text its diagnostic on standard error, in JSON its error
/// object (with `line` and `column`, `null` when unknown); a bug is said on
/// standard error in both. The object's schema is `infer`'s, with `--complete` too.
fn fail(format: OutputFormat, shown: &str, failure: &Failure) -> Exit {
    if format == OutputFormat::Text || failure.status == Status::Internal {
        super::output::diagnostic(&failure.stderr_text());
    }
    if format == OutputFormat::Json {
        let file = failure.file.as_deref().unwrap_or(shown);
        let report = ErrorReport::new(Some(SCHEMA), failure)
            .about("file", file)
            .placed(failure.at);
        super::output::json(&report);
    }
    Exit::from(failure.status)
}

/// Progress of a long search on standard error: a spinner on a terminal, a
/// line every 10 s otherwise; nothing with `--quiet`.
struct Progress {
    shown: String,
    limit: u64,
    bar: Option<indicatif::ProgressBar>,
    quiet: bool,
    last_line: Instant,
}

impl Progress {
    fn new(shown: &str, limit: u64) -> Progress {
        let quiet = super::global::quiet();
        Progress {
            shown: shown.to_string(),
            limit,
            bar: None,
            quiet,
            last_line: Instant::now(),
        }
    }

    fn show(&mut self, p: &InferProgress) {
        if self.quiet {
            return;
        }
        let text = format!(
            "{}: {} of at most {} steps, {} word starts, {} found",
            self.shown, p.steps, self.limit, p.explored, p.found
        );
        if std::io::stderr().is_terminal() {
            let bar = self.bar.get_or_insert_with(|| {
                let bar = indicatif::ProgressBar::new_spinner();
                bar.enable_steady_tick(Duration::from_millis(120));
                bar
            });
            bar.set_message(text);
        } else if self.last_line.elapsed() >= Duration::from_secs(10) {
            self.last_line = Instant::now();
            eprintln!("{text}");
        }
    }

    fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}
