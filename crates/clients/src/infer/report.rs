//! The reports of `txverify infer FILE` (schema `txverify-infer/2`) and of
//! `infer --complete N` (schema `txverify-infer-complete/1`): the grid read,
//! the search run, and what it found for people and programs (docs/infer.md,
//! docs/json.md). Every table reported is the kernel's; so are the verdicts.

use super::{
    CompleteOptions, Completions, Deletion, Grid, InferOptions, InferProgress, Inference,
    NoSegmentation, complete, infer_with_progress, load_grid,
};
use crate::shared::failure::{Failure, Status, read_text};
use crate::shared::wording::describe;
use serde::Serialize;
use std::path::{Path, PathBuf};
use txverify_core::format::{self, render_diagnostic, syntax::TblFile};
use txverify_core::group::EnumerationLimits;
use txverify_core::kernel::{Table, Verdict};
use txverify_core::load::{LoadOptions, Loaded, load, table_syntax};

/// The JSON schema of `infer --format json`.
pub const SCHEMA: &str = "txverify-infer/2";
/// The JSON schema of `infer --complete N --format json`.
pub const COMPLETE_SCHEMA: &str = "txverify-infer-complete/1";

/// How the search was told to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// `--one`: the first valid segmentation.
    One,
    /// `--count`: count them all, list none.
    Count,
    /// List up to this many.
    Limit(u64),
}

/// Reads and loads the grid `file` with groups up to `max_order`: a failure
/// is placed in the file (status 2).
pub fn read_grid(file: &Path, max_order: usize) -> Result<Grid, Failure> {
    let shown = file.display().to_string();
    let source =
        read_text(file).map_err(|e| Failure::input(format!("cannot read {shown}: {e}")))?;
    load_grid(&source, &load_options(max_order)).map_err(|e| {
        let message = e.to_string();
        Failure::input(message.clone())
            .at(Some(format::line_col(&source, e.span().start)))
            .shown_as(render_diagnostic(&shown, &source, e.span(), &message))
    })
}

fn load_options(max_order: usize) -> LoadOptions {
    LoadOptions {
        limits: EnumerationLimits {
            max_order,
            ..EnumerationLimits::default()
        },
    }
}

/// The size of the grid.
#[derive(Clone, Debug, Serialize)]
pub struct GridSize {
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub columns: usize,
    /// Letters.
    pub letters: usize,
    /// Runs of letters without a blank.
    pub runs: usize,
}

/// One `expect:` claim and whether it holds.
#[derive(Clone, Debug, Serialize)]
pub struct ClaimEntry {
    /// The claim as the kernel words it.
    pub claim: String,
    /// Whether it holds.
    pub holds: bool,
}

/// One word of a segmentation.
#[derive(Clone, Debug, Serialize)]
pub struct WordEntry {
    /// Its row.
    pub row: usize,
    /// Its first column.
    pub column: usize,
    /// Its letters.
    pub word: String,
}

/// One segmentation.
#[derive(Clone, Debug, Serialize)]
pub struct TableEntry {
    /// The rows as the format writes them, unaligned.
    pub rows: Vec<String>,
    /// The words.
    pub words: Vec<WordEntry>,
}

/// Why there is no segmentation.
#[derive(Clone, Debug, Serialize)]
pub struct Reason {
    /// A short name.
    pub kind: &'static str,
    /// In words.
    pub message: String,
    /// The grid's violations, when that is why.
    pub details: Vec<String>,
}

/// The report of `infer FILE`.
#[derive(Clone, Debug, Serialize)]
pub struct InferReport {
    /// The schema.
    pub schema: &'static str,
    /// The file as named.
    pub file: String,
    /// `name:` or the file stem.
    pub name: String,
    /// The grid's size.
    pub grid: GridSize,
    /// Messages per node.
    pub messages: usize,
    /// `--shortest`.
    pub shortest_only: bool,
    /// Segmentations counted (or listed, when the listing stopped).
    pub count: u64,
    /// Whether the search ran to its end.
    pub complete: bool,
    /// Where the listing stopped, if it did.
    pub stopped_at: Option<u64>,
    /// Word starts entered.
    pub explored: u64,
    /// Steps taken.
    pub steps: u64,
    /// Whether the step limit ran out.
    pub out_of_steps: bool,
    /// The tables' time (the kernel's).
    pub time: Option<usize>,
    /// The kernel's verdict.
    pub verdict: Option<&'static str>,
    /// The file's claims.
    pub expectations: Vec<ClaimEntry>,
    /// The segmentations listed.
    pub tables: Vec<TableEntry>,
    /// Why there is none.
    pub reason: Option<Reason>,
    /// The exit status.
    pub exit_code: u8,
    /// How it ended.
    #[serde(skip)]
    status: Status,
    /// The report for people.
    #[serde(skip)]
    text: String,
}

impl InferReport {
    /// How it ended: 4 when the step limit ran out, 0 with segmentations whose
    /// claims hold, 1 otherwise.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The report for people.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// `infer FILE`: every segmentation of `grid` (read from the file shown as
/// `shown`) that makes a valid table, as `mode` asks; `progress` is told how
/// the search goes.
pub fn infer_report(
    shown: &str,
    grid: &Grid,
    mode: Mode,
    shortest_only: bool,
    max_steps: u64,
    progress: &mut dyn FnMut(&InferProgress),
) -> Result<InferReport, Failure> {
    let options = InferOptions {
        shortest_only,
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
        max_steps: Some(max_steps),
    };
    let inference = infer_with_progress(grid, &options, progress)
        .map_err(|e| Failure::internal(format!("{shown}: {e}")))?;
    let claims_hold = inference.first.as_ref().is_none_or(|c| c.passed());
    let status = if inference.out_of_steps {
        Status::Limit
    } else if inference.count > 0 && claims_hold {
        Status::Ok
    } else {
        Status::Rejected
    };
    let (count, stopped) = listed(&inference, mode);
    let first = inference.first.as_ref();
    Ok(InferReport {
        schema: SCHEMA,
        file: shown.to_string(),
        name: file_name(shown, &grid.loaded.file),
        grid: GridSize {
            rows: grid.rows(),
            columns: grid.columns(),
            letters: grid.letters.len(),
            runs: grid.runs.len(),
        },
        messages: grid
            .loaded
            .instance
            .message_set()
            .iter()
            .filter(|&&m| m)
            .count(),
        shortest_only,
        count,
        complete: stopped.is_none() && inference.complete,
        stopped_at: stopped,
        explored: inference.explored,
        steps: inference.steps,
        out_of_steps: inference.out_of_steps,
        time: first.map(|c| c.time()),
        verdict: first.map(|c| match c.verdict() {
            Verdict::Optimal => "optimal",
            Verdict::Valid => "valid",
            Verdict::Invalid => "invalid",
        }),
        expectations: first
            .map(|c| {
                c.expectations()
                    .iter()
                    .map(|e| ClaimEntry {
                        claim: e.claim.clone(),
                        holds: e.holds,
                    })
                    .collect()
            })
            .unwrap_or_default(),
        tables: inference
            .tables
            .iter()
            .take(count as usize)
            .map(|table| TableEntry {
                rows: row_texts(grid, table),
                words: table
                    .words
                    .iter()
                    .map(|w| WordEntry {
                        row: w.row,
                        column: w.column,
                        word: w.text.clone(),
                    })
                    .collect(),
            })
            .collect(),
        reason: inference.none.as_ref().map(reason),
        exit_code: status.code(),
        status,
        text: text(shown, grid, &inference, mode),
    })
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
                out.push_str(&format!("  {}\n", describe(v)));
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
        if mode != Mode::One {
            let of = match stopped {
                Some(_) => String::new(),
                None => format!(" of {count}"),
            };
            out.push_str(&format!("\n# segmentation {}{of}\n", i + 1));
        }
        out.push_str(&format::print(&with_rows(&grid.loaded, table)));
    }
    out
}

/// The file of `loaded` with its rows replaced by `table`'s.
fn with_rows(loaded: &Loaded, table: &Table) -> TblFile {
    TblFile {
        rows: table_syntax(loaded.instance.group(), table),
        ..loaded.file.clone()
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

fn reason(why: &NoSegmentation) -> Reason {
    let kind = match why {
        NoSegmentation::Grid { .. } => "grid",
        NoSegmentation::TooFewLetters { .. } => "too_few_letters",
        NoSegmentation::TooManyLetters { .. } => "too_many_letters",
        NoSegmentation::TooManyRuns { .. } => "too_many_runs",
        NoSegmentation::Unspellable { .. } => "unspellable",
        NoSegmentation::OutOfSteps { .. } => "step_limit",
        NoSegmentation::Exhausted { .. } => "exhausted",
    };
    let details = match why {
        NoSegmentation::Grid { violations } => violations.iter().map(describe).collect(),
        _ => Vec::new(),
    };
    Reason {
        kind,
        message: why.to_string(),
        details,
    }
}

/// The `name:` value, or the file stem.
fn file_name(shown: &str, file: &TblFile) -> String {
    match &file.name {
        Some(name) => name.value.clone(),
        None => Path::new(shown)
            .file_stem()
            .map_or_else(|| shown.to_string(), |s| s.to_string_lossy().into_owned()),
    }
}

/// What `infer --complete N` is asked.
#[derive(Clone, Debug)]
pub struct CompleteRequest {
    /// N: the most columns of a completion.
    pub columns: u64,
    /// `--shortest`.
    pub shortest_only: bool,
    /// `--max-steps`.
    pub max_steps: u64,
    /// `--max-fillings`.
    pub max_fillings: u64,
    /// `--max-order`, for the `--derive` file.
    pub max_order: usize,
    /// `--derive FILE`.
    pub derive: Option<PathBuf>,
    /// `--delete WHICH` (default: `row-ends`).
    pub delete: Option<Deletion>,
}

/// The verdicts on the derived tables.
#[derive(Clone, Debug, Serialize)]
pub struct DerivedEntry {
    /// The `--derive` file.
    pub file: String,
    /// The words deleted.
    pub delete: String,
    /// Its claims.
    pub claims: Vec<String>,
    /// Derived tables the kernel calls valid.
    pub valid: u64,
    /// … optimal.
    pub optimal: u64,
    /// … valid and satisfying every claim.
    pub claims_hold: u64,
}

/// The report of `infer --complete N FILE`.
#[derive(Clone, Debug, Serialize)]
pub struct CompleteReport {
    /// The schema.
    pub schema: &'static str,
    /// The file as named.
    pub file: String,
    /// N.
    pub columns: u64,
    /// `--shortest`.
    pub shortest_only: bool,
    /// Fillings of the empty cells tried.
    pub fillings: u64,
    /// Of them, with a valid segmentation.
    pub fillings_with_tables: u64,
    /// Valid completions.
    pub count: u64,
    /// Whether the enumeration finished.
    pub complete: bool,
    /// Whether a boundary search ran out of steps.
    pub out_of_steps: bool,
    /// The derived tables' verdicts, with `--derive`.
    pub derived: Option<DerivedEntry>,
    /// The exit status.
    pub exit_code: u8,
    /// How it ended.
    #[serde(skip)]
    status: Status,
    /// The report for people.
    #[serde(skip)]
    text: String,
}

impl CompleteReport {
    /// How it ended: 4 when a limit ran out, 1 with no completion, else 0.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The report for people.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Loads the `--derive` file: a failure is about that file (status 2).
fn load_target(path: &Path, max_order: usize) -> Result<Loaded, Failure> {
    let shown = path.display().to_string();
    let source = read_text(path)
        .map_err(|e| Failure::input(format!("cannot read {shown}: {e}")).in_file(&shown))?;
    load(&source, &load_options(max_order)).map_err(|e| {
        Failure::input(e.to_string())
            .at(Some(format::line_col(&source, e.span().start)))
            .shown_as(render_diagnostic(&shown, &source, e.span(), &e.to_string()))
            .in_file(&shown)
    })
}

fn deletion_text(deletion: Deletion) -> String {
    match deletion {
        Deletion::RowEnds => "row-ends".to_string(),
        Deletion::Last(k) => format!("last:{k}"),
        Deletion::RightMost(k) => format!("right-most:{k}"),
    }
}

/// `infer --complete N FILE`: every completion of `grid` (read from the file
/// shown as `shown`) to at most N columns, and the verdicts on the tables
/// derived from them.
pub fn complete_report(
    shown: &str,
    grid: &Grid,
    request: &CompleteRequest,
) -> Result<CompleteReport, Failure> {
    let target = match &request.derive {
        Some(path) => Some(load_target(path, request.max_order)?),
        None => None,
    };
    let deletion = request.delete.unwrap_or(Deletion::RowEnds);
    let options = CompleteOptions {
        columns: request.columns as usize,
        infer: InferOptions {
            shortest_only: request.shortest_only,
            max_steps: Some(request.max_steps),
            ..InferOptions::default()
        },
        max_fillings: request.max_fillings,
        derive: target.as_ref().map(|t| (t, deletion)),
    };
    let found = complete(grid, &options).map_err(|e| Failure::internal(format!("{shown}: {e}")))?;
    let status = if found.out_of_steps || !found.complete {
        Status::Limit
    } else if found.count == 0 {
        Status::Rejected
    } else {
        Status::Ok
    };
    let derive_shown = request.derive.as_ref().map(|p| p.display().to_string());
    let derived = match (&found.derived, &derive_shown) {
        (Some(d), Some(file)) => Some(DerivedEntry {
            file: file.clone(),
            delete: deletion_text(deletion),
            claims: d.claims.clone(),
            valid: d.valid,
            optimal: d.optimal,
            claims_hold: d.claims_hold,
        }),
        _ => None,
    };
    let text = complete_text(
        shown,
        request.columns,
        &found,
        derive_shown.as_deref(),
        deletion,
        target.as_ref(),
    );
    Ok(CompleteReport {
        schema: COMPLETE_SCHEMA,
        file: shown.to_string(),
        columns: request.columns,
        shortest_only: request.shortest_only,
        fillings: found.fillings,
        fillings_with_tables: found.fillings_with_tables,
        count: found.count,
        complete: found.complete && !found.out_of_steps,
        out_of_steps: found.out_of_steps,
        derived,
        exit_code: status.code(),
        status,
        text,
    })
}

fn complete_text(
    shown: &str,
    columns: u64,
    found: &Completions,
    derive_shown: Option<&str>,
    deletion: Deletion,
    target: Option<&Loaded>,
) -> String {
    let whole = if found.complete && !found.out_of_steps {
        "the whole enumeration"
    } else {
        "the enumeration did not finish (--max-fillings, --max-steps): counts so far"
    };
    let mut out = format!(
        "{shown}: {} valid completions to at most {columns} columns ({whole}; {} fillings of the empty cells, {} with a valid segmentation; each completion re-checked by the kernel)\n",
        found.count, found.fillings, found.fillings_with_tables
    );
    if let (Some(derived), Some(other), Some(target)) = (&found.derived, derive_shown, target) {
        let claims = if derived.claims.is_empty() {
            "no claims".to_string()
        } else {
            derived.claims.join(", ")
        };
        out.push_str(&format!(
            "{other}: deleting {} from each: {} valid, {} optimal, {} satisfy its claims ({claims}); verdicts by the kernel\n",
            deletion_text(deletion),
            derived.valid,
            derived.optimal,
            derived.claims_hold
        ));
        if let Some(first) = &derived.first {
            out.push_str("# the first derived table that satisfies the claims:\n");
            out.push_str(&format::print(&with_rows(target, first)));
        }
    }
    out
}
