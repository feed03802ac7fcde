//! `txverify infer FILE`: every segmentation of a letter grid into words that makes a
//! valid table, printed as `.tbl` files with their count (docs/infer.md).

mod complete;

use super::exit::Exit;
use super::{InferArgs, OutputFormat};
use serde_json::{Value, json};
use std::io::IsTerminal;
use std::time::{Duration, Instant};
use txverify_clients::infer::{
    Grid, GridError, InferOptions, InferProgress, Inference, NoSegmentation, infer_with_progress,
    load_grid,
};
use txverify_core::format::{self, render_diagnostic, syntax::TblFile};
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::{Table, Verdict};
use txverify_core::load::{LoadOptions, table_syntax};

/// The JSON schema of `infer --format json`.
const SCHEMA: &str = "txverify-infer/2";

/// How the search was told to stop, for the report.
#[derive(Clone, Copy)]
enum Mode {
    /// `--one`.
    One,
    /// `--count`.
    Count,
    /// Print up to this many.
    Limit(u64),
}

pub fn run(args: &InferArgs) -> Exit {
    let shown = args.file.display().to_string();
    let source = match super::read_text(&args.file) {
        Ok(s) => s,
        Err(e) => return input_error(&shown, args.format, &format!("cannot read {shown}: {e}")),
    };
    let options = LoadOptions {
        limits: EnumerationLimits {
            max_order: args.max_order,
            ..EnumerationLimits::default()
        },
    };
    let grid = match load_grid(&source, &options) {
        Ok(grid) => grid,
        Err(e) => return grid_error(&shown, &source, &e, args.format),
    };
    if let Some(columns) = args.complete {
        return complete::run(args, &shown, &grid, columns);
    }
    let mode = if args.one {
        Mode::One
    } else if args.count {
        Mode::Count
    } else {
        Mode::Limit(args.limit)
    };
    let options = InferOptions {
        shortest_only: args.shortest,
        // One more than the limit, to know whether the limit cut anything off.
        stop_after: match mode {
            Mode::One => Some(1),
            Mode::Count => None,
            Mode::Limit(n) => Some(n.saturating_add(1)),
        },
        keep: match mode {
            Mode::One => 1,
            Mode::Count => 0,
            Mode::Limit(n) => usize::try_from(n).unwrap_or(usize::MAX),
        },
        max_steps: Some(args.max_steps),
    };
    let mut progress = Progress::new(&shown, args.max_steps);
    let inference = infer_with_progress(&grid, &options, &mut |p| progress.show(p));
    progress.finish();
    let inference = match inference {
        Ok(inference) => inference,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return Exit::Internal;
        }
    };
    let claims_hold = inference.first.as_ref().is_none_or(|c| c.passed());
    let exit = if inference.out_of_steps {
        Exit::Limit
    } else if inference.count > 0 && claims_hold {
        Exit::Ok
    } else {
        Exit::Rejected
    };
    match args.format {
        OutputFormat::Text => out!("{}", text(&shown, &grid, &inference, mode)),
        OutputFormat::Json => {
            let report = report_json(&shown, &grid, &inference, mode, args.shortest, exit);
            outln!("{report}");
        }
    }
    exit
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

/// How many tables the report lists, and whether the search stopped before its end.
fn listed(inference: &Inference, mode: Mode) -> (u64, Option<u64>) {
    match mode {
        Mode::One => (inference.count, (!inference.complete).then_some(1)),
        Mode::Count => (inference.count, None),
        Mode::Limit(n) if inference.count > n => (n, Some(n)),
        Mode::Limit(_) => (inference.count, None),
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The kernel's words on the tables: verdict and time (the same for every segmentation).
fn verdict_text(inference: &Inference) -> String {
    match &inference.first {
        Some(c) => {
            let verdict = match c.verdict() {
                Verdict::Optimal => "optimal",
                _ => "valid, not proved optimal",
            };
            format!("{verdict}, time {}", c.time())
        }
        None => String::new(),
    }
}

fn text(shown: &str, grid: &Grid, inference: &Inference, mode: Mode) -> String {
    let mut out = String::new();
    if let Some(why @ NoSegmentation::OutOfSteps { .. }) = &inference.none {
        out.push_str(&format!("{shown}: {why}\n"));
        return out;
    }
    if let Some(why) = &inference.none {
        out.push_str(&format!("{shown}: no valid segmentation: {why}\n"));
        if let NoSegmentation::Grid { violations } = why {
            for v in violations {
                out.push_str(&format!("  {}\n", txverify_clients::report::describe(v)));
            }
        }
        return out;
    }
    let (count, stopped) = listed(inference, mode);
    let checked = verdict_text(inference);
    let summary = match (mode, stopped) {
        _ if inference.out_of_steps => format!(
            "# {shown}: the step limit ran out after {} steps ({} word starts): {count} valid segmentation{} so far, the search did not finish (--max-steps raises the limit); each re-checked by the kernel: {checked}",
            inference.steps,
            inference.explored,
            plural(count)
        ),
        (Mode::Count, _) => format!(
            "{shown}: {count} valid segmentation{} (the whole search; each re-checked by the kernel: {checked})",
            plural(count)
        ),
        (Mode::One, Some(_)) => format!(
            "# {shown}: the first valid segmentation found (--one: the search stopped there; --count counts them all); re-checked by the kernel: {checked}"
        ),
        (_, Some(n)) => format!(
            "# {shown}: stopped at {n} valid segmentation{}: there are more (--limit N lists more, --count counts them all); each re-checked by the kernel: {checked}",
            plural(n)
        ),
        (_, None) => format!(
            "# {shown}: {count} valid segmentation{} (the whole search); each re-checked by the kernel: {checked}",
            plural(count)
        ),
    };
    out.push_str(&summary);
    out.push('\n');
    if let Some(first) = &inference.first {
        for claim in first.expectations().iter().filter(|c| !c.holds) {
            out.push_str(&format!(
                "# claim `expect: {}` fails (no choice of word boundaries changes it)\n",
                claim.claim
            ));
        }
    }
    for (i, table) in inference.tables.iter().take(count as usize).enumerate() {
        if !matches!(mode, Mode::One) {
            let of = match stopped {
                Some(_) => String::new(),
                None => format!(" of {count}"),
            };
            out.push_str(&format!("\n# segmentation {}{of}\n", i + 1));
        }
        out.push_str(&format::print(&with_table(&grid.loaded.file, grid, table)));
    }
    out
}

/// The grid file with its rows replaced by a segmentation's.
fn with_table(file: &TblFile, grid: &Grid, table: &Table) -> TblFile {
    TblFile {
        rows: table_syntax(grid.loaded.instance.group(), table),
        ..file.clone()
    }
}

/// A table's rows as the format writes them, one string per row, unaligned.
fn row_texts(grid: &Grid, table: &Table) -> Vec<String> {
    table_syntax(grid.loaded.instance.group(), table)
        .iter()
        .map(|row| {
            row.tokens
                .iter()
                .map(|t| format::print_row_token(&t.value))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

fn reason_json(why: &NoSegmentation) -> Value {
    let kind = match why {
        NoSegmentation::Grid { .. } => "grid",
        NoSegmentation::TooFewLetters { .. } => "too_few_letters",
        NoSegmentation::TooManyLetters { .. } => "too_many_letters",
        NoSegmentation::TooManyRuns { .. } => "too_many_runs",
        NoSegmentation::Unspellable { .. } => "unspellable",
        NoSegmentation::OutOfSteps { .. } => "step_limit",
        NoSegmentation::Exhausted { .. } => "exhausted",
        _ => "other",
    };
    let details: Vec<String> = match why {
        NoSegmentation::Grid { violations } => violations
            .iter()
            .map(txverify_clients::report::describe)
            .collect(),
        _ => Vec::new(),
    };
    json!({ "kind": kind, "message": why.to_string(), "details": details })
}

fn report_json(
    shown: &str,
    grid: &Grid,
    inference: &Inference,
    mode: Mode,
    shortest_only: bool,
    exit: Exit,
) -> Value {
    let (count, stopped) = listed(inference, mode);
    let tables: Vec<Value> = inference
        .tables
        .iter()
        .take(count as usize)
        .map(|table| {
            let words: Vec<Value> = table
                .words
                .iter()
                .map(|w| json!({ "row": w.row, "column": w.column, "word": w.text }))
                .collect();
            json!({ "rows": row_texts(grid, table), "words": words })
        })
        .collect();
    let first = inference.first.as_ref();
    let expectations: Vec<Value> = first
        .map(|c| {
            c.expectations()
                .iter()
                .map(|e| json!({ "claim": e.claim, "holds": e.holds }))
                .collect()
        })
        .unwrap_or_default();
    let messages = grid
        .loaded
        .instance
        .message_set()
        .iter()
        .filter(|&&m| m)
        .count();
    json!({
        "schema": SCHEMA,
        "file": shown,
        "name": file_name(shown, &grid.loaded.file),
        "grid": {
            "rows": grid.rows(),
            "columns": grid.columns(),
            "letters": grid.letters.len(),
            "runs": grid.runs.len(),
        },
        "messages": messages,
        "shortest_only": shortest_only,
        "count": count,
        "complete": stopped.is_none() && inference.complete,
        "stopped_at": stopped,
        "explored": inference.explored,
        "steps": inference.steps,
        "out_of_steps": inference.out_of_steps,
        "time": first.map(|c| c.time()),
        "verdict": first.map(|c| match c.verdict() {
            Verdict::Optimal => "optimal",
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
        }),
        "expectations": expectations,
        "tables": tables,
        "reason": inference.none.as_ref().map(reason_json),
        "exit_code": exit.code(),
    })
}

/// The `name:` value, or the file stem.
fn file_name(shown: &str, file: &TblFile) -> String {
    match &file.name {
        Some(name) => name.value.clone(),
        None => std::path::Path::new(shown)
            .file_stem()
            .map_or_else(|| shown.to_string(), |s| s.to_string_lossy().into_owned()),
    }
}

pub(super) fn grid_error(
    shown: &str,
    source: &str,
    error: &GridError,
    format: OutputFormat,
) -> Exit {
    let span = error.span();
    let message = error.to_string();
    match format {
        OutputFormat::Text => {
            eprint!("{}", render_diagnostic(shown, source, span, &message));
            Exit::Input
        }
        OutputFormat::Json => {
            let (line, column) = format::line_col(source, span.start);
            error_json(shown, &message, Some((line, column)))
        }
    }
}

pub(super) fn input_error(shown: &str, format: OutputFormat, message: &str) -> Exit {
    match format {
        OutputFormat::Text => {
            eprintln!("error: {message}");
            Exit::Input
        }
        OutputFormat::Json => error_json(shown, message, None),
    }
}

/// The JSON object of a file that could not be read (exit status 2).
pub(super) fn error_json(shown: &str, message: &str, at: Option<(usize, usize)>) -> Exit {
    let report = json!({
        "schema": SCHEMA,
        "file": shown,
        "error": {
            "message": message,
            "line": at.map(|a| a.0),
            "column": at.map(|a| a.1),
        },
        "exit_code": Exit::Input.code(),
    });
    outln!("{report}");
    Exit::Input
}
