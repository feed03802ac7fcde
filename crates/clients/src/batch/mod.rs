//! `check` over a collection: the files the paths name ([`walk`]), every file
//! checked on a pool of `--jobs` threads, each reduced to a [`FileResult`] (its
//! status, a one-line summary and the problems a CI report points at), handed
//! back in the order the paths named them, and the reports for a CI ([`ci`]).
//!
//! The verdict and every `expect:` claim are the kernel's (through
//! [`CheckReport`]); this module only places them in the file: a violation at the
//! line and character of the letter its report names, a failed claim at its
//! `expect:` line, so that CI annotations land where the error is.

pub mod ci;
pub mod collection;
pub mod fmt;
pub mod walk;

use crate::check::{NetworkCheck, Outcome, VerifyOptions, spec_text};
use crate::report::{CheckReport, describe, json};
use crate::report::{ErrorReport, Failure, Status, json_line, read_text};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use txverify_core::format::line_col;
use txverify_core::format::syntax::{RowToken, TblFile};
use txverify_core::kernel::{Expectation, Verdict};
use txverify_core::load::{FileKind, LoadOptions, Loaded, Reader, detect, load};
use walk::Entry;

/// At most this many violations of one file become problems (the rest are counted).
const PROBLEMS_PER_FILE: usize = 20;

/// What is checked and how.
pub struct BatchOptions {
    /// Loading (group limits).
    pub load: LoadOptions,
    /// Verification (simulation or not).
    pub verify: VerifyOptions,
    /// Whether each result needs its JSON document (`--format json`).
    pub json: bool,
    /// The network MSCCL programs run on (`--network`).
    pub network: Option<txverify_core::network::Graph>,
}

/// One thing wrong with a file, placed in it when it can be.
pub struct Problem {
    /// 1-based line and character column in the file.
    pub at: Option<(usize, usize)>,
    /// What is wrong.
    pub message: String,
}

/// How a file ended: the three outcomes a CI report counts.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// Every expectation holds (exit status 0).
    Passed,
    /// The table is rejected: invalid unexpectedly, a claim fails, or its network does
    /// not match (exit status 1).
    Failed,
    /// The file cannot be read or parsed (2), or a check disagrees with another (3).
    Error,
}

/// One file's check, reduced to what the collection reports show.
pub struct FileResult {
    /// The path as named.
    pub path: String,
    /// The file's status.
    pub status: Status,
    /// The verdict, or the reason the file could not be checked, in one line.
    pub summary: String,
    /// What is wrong (empty when the file passed).
    pub problems: Vec<Problem>,
    /// The file's JSON document (`txverify-check/1`, or its error form), when asked.
    pub json: Option<String>,
    /// Seconds spent on it.
    pub seconds: f64,
}

impl FileResult {
    /// The outcome a CI report counts.
    pub fn ending(&self) -> Ending {
        match self.status {
            Status::Ok => Ending::Passed,
            Status::Rejected => Ending::Failed,
            _ => Ending::Error,
        }
    }

    fn error(path: &str, status: Status, message: String, at: Option<(usize, usize)>) -> Self {
        FileResult {
            path: path.to_string(),
            status,
            summary: message.clone(),
            problems: vec![Problem { at, message }],
            json: None,
            seconds: 0.0,
        }
    }
}

/// Checks every entry on `jobs` threads, largest file first, and calls `each`
/// with the results in entry order, each as soon as it and every entry before
/// it are done. The thread that
/// finishes the next result in order reports it (and any later ones already done),
/// so no thread is woken only to print.
pub fn run(
    entries: &[Entry],
    options: &BatchOptions,
    jobs: usize,
    each: impl FnMut(FileResult) + Send,
) -> Result<(), String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| format!("cannot start {jobs} threads: {e}"))?;
    let state = Mutex::new(InOrder {
        pending: BTreeMap::new(),
        next: 0,
        each,
    });
    let order = largest_first(entries);
    let next = AtomicUsize::new(0);
    pool.scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|_| {
                while let Some(&i) = order.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let result = check_entry(&entries[i], options);
                    // A panic while reporting ends the process; the lock is never reused then.
                    let mut state = state.lock().unwrap_or_else(|e| e.into_inner());
                    state.pending.insert(i, result);
                    state.flush();
                }
            });
        }
    });
    Ok(())
}

/// The entries' indices, largest file first: each thread takes the next one
/// when it is free, so a large table (a long check) is started early instead
/// of being left to one thread at the end while the others idle. The size of
/// the file stands for the time of its check (the longest checks of tables/
/// are of files among its five largest).
fn largest_first(entries: &[Entry]) -> Vec<usize> {
    let size = |entry: &Entry| match entry {
        Entry::File(path) => std::fs::metadata(path).map_or(0, |m| m.len()),
        Entry::Error { .. } => 0,
    };
    let mut keyed: Vec<(u64, usize)> = entries
        .iter()
        .enumerate()
        .map(|(i, e)| (size(e), i))
        .collect();
    keyed.sort_by_key(|&(bytes, i)| (std::cmp::Reverse(bytes), i));
    keyed.into_iter().map(|(_, i)| i).collect()
}

/// The results waiting for the ones before them, and where they go.
struct InOrder<F> {
    pending: BTreeMap<usize, FileResult>,
    next: usize,
    each: F,
}

impl<F: FnMut(FileResult)> InOrder<F> {
    fn flush(&mut self) {
        while let Some(result) = self.pending.remove(&self.next) {
            (self.each)(result);
            self.next += 1;
        }
    }
}

fn check_entry(entry: &Entry, options: &BatchOptions) -> FileResult {
    let started = Instant::now();
    let mut result = match entry {
        Entry::Error { path, message } => FileResult::error(
            &path.display().to_string(),
            Status::Input,
            message.clone(),
            None,
        ),
        Entry::File(path) => check_path(path, options),
    };
    result.seconds = started.elapsed().as_secs_f64();
    if options.json && result.json.is_none() {
        let at = result.problems.first().and_then(|p| p.at);
        let code = result.status.code();
        result.json = Some(
            json::check_error(&result.path, &result.summary, at, code)
                .unwrap_or_else(|e| unwritable(&e)),
        );
    }
    result
}

fn check_path(path: &Path, options: &BatchOptions) -> FileResult {
    let shown = path.display().to_string();
    let source = match read_text(path) {
        Ok(s) => s,
        Err(e) => {
            let message = format!("cannot read {shown}: {e}");
            return FileResult::error(&shown, Status::Input, message, None);
        }
    };
    // What the file is comes from its text, not its name.
    let kind = detect(&source);
    if kind == FileKind::Msccl {
        return msccl_result(shown, &source, options);
    }
    if let Some(line) = kind.refusal(Reader::Check, &shown) {
        return FileResult::error(&shown, Status::Input, line, None);
    }
    let loaded = match load(&source, &options.load) {
        Ok(loaded) => loaded,
        Err(e) => {
            let at = line_col(&source, e.span().start);
            return FileResult::error(&shown, Status::Input, e.to_string(), Some(at));
        }
    };
    let lookup = crate::check::certified::CertificateLookup::for_file(path, None);
    let certified = match crate::check::certified::check_certificates(&loaded, &lookup) {
        Ok(certified) => certified,
        Err(e) => {
            let at = e.span().map(|span| line_col(&source, span.start));
            return FileResult::error(&shown, Status::Input, e.to_string(), at);
        }
    };
    let verification = crate::check::verify_certified(&loaded, &options.verify, certified);
    let report = CheckReport::new(&shown, &source, &loaded, verification);
    let status = report.status();
    let problems = if status == Status::Ok {
        Vec::new()
    } else {
        problems(&report, &loaded, &source)
    };
    let mut summary = report.verdict_text();
    if report.checked.verdict() == Verdict::Invalid && status == Status::Ok {
        summary.push_str(", as expected");
    }
    let json = options.json.then(|| {
        report
            .to_json(status.code())
            .unwrap_or_else(|e| unwritable(&e))
    });
    FileResult {
        path: shown,
        status,
        summary,
        problems,
        json,
        seconds: 0.0,
    }
}

/// The JSON line standing for a document that could not be written (a bug).
fn unwritable(e: &serde_json::Error) -> String {
    let failure = Failure::internal(format!("cannot write the JSON report (a bug): {e}"));
    let line = json_line(&ErrorReport::new(None, &failure));
    line.trim_end().to_string()
}

/// Why a file that did not pass failed, each reason placed in the file.
fn problems(report: &CheckReport, loaded: &Loaded, source: &str) -> Vec<Problem> {
    let file = &loaded.file;
    let at = |span: txverify_core::format::syntax::Span| Some(line_col(source, span.start));
    let mut problems = Vec::new();
    if report.outcome == Outcome::Disagreement {
        problems.push(Problem {
            at: None,
            message: "the kernel and the simulator disagree: a bug, please report it".into(),
        });
    }
    let checked = &report.checked;
    for (claim, written) in checked.expectations().iter().zip(&file.expect) {
        if !claim.holds {
            let bound = checked
                .bound()
                .map_or("none".to_string(), |b| b.value.to_string());
            problems.push(Problem {
                at: at(written.span),
                message: format!(
                    "expect: {} does not hold (verdict {}, time {}, lower bound {bound})",
                    claim.claim,
                    verdict_word(checked.verdict()),
                    checked.time()
                ),
            });
        }
    }
    if let NetworkCheck::Mismatch { network, reason } = &report.network {
        problems.push(Problem {
            at: file.network.as_ref().and_then(|n| at(n.span)),
            message: format!("the Cayley graph is not {}: {reason}", spec_text(network)),
        });
    }
    let expects_invalid = loaded
        .claims
        .iter()
        .any(|c| matches!(c, Expectation::Invalid { .. }));
    if !expects_invalid {
        let violations = checked.violations();
        for v in violations.iter().take(PROBLEMS_PER_FILE) {
            let place = v
                .places()
                .into_iter()
                .find_map(|p| Some((p.row?, p.column)));
            problems.push(Problem {
                at: place.and_then(|(row, column)| letter_position(file, source, row, column)),
                message: describe(v),
            });
        }
        if violations.len() > PROBLEMS_PER_FILE {
            problems.push(Problem {
                at: None,
                message: format!(
                    "… and {} more violations; `txverify check --format json` lists them all",
                    violations.len() - PROBLEMS_PER_FILE
                ),
            });
        }
    }
    problems
}

/// The verdict as one upper-case word, as the text report prints it.
fn verdict_word(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::Invalid => "INVALID",
        Verdict::Valid => "VALID",
        Verdict::Optimal => "OPTIMAL",
    }
}

/// The line and character column of table position (`row`, `column`) in the file.
pub fn letter_position(
    file: &TblFile,
    source: &str,
    row: usize,
    column: usize,
) -> Option<(usize, usize)> {
    let tokens = &file.rows.get(row.checked_sub(1)?)?.tokens;
    let mut first = 1;
    for token in tokens {
        let width = match &token.value {
            RowToken::Word(letters) => letters.len(),
            RowToken::Blanks(n) => *n,
        };
        if let Some(inside) = column.checked_sub(first).filter(|&i| i < width) {
            let offset = match &token.value {
                RowToken::Word(letters) => letters.get(inside)?.span.start,
                RowToken::Blanks(_) => token.span.start.saturating_add(inside),
            };
            return Some(line_col(source, offset));
        }
        first = first.saturating_add(width);
    }
    None
}

/// An MSCCL XML program's check (docs/msccl.md) as a collection result: the
/// program's verdict in one line, and the place its reason points at.
fn msccl_result(shown: String, source: &str, options: &BatchOptions) -> FileResult {
    use crate::msccl;
    let check = match msccl::check_on(source, options.network.as_ref()) {
        Ok(check) => check,
        Err(e) => {
            let at = Some((e.pos.line as usize, e.pos.col as usize));
            return FileResult::error(&shown, Status::Input, e.message, at);
        }
    };
    let status = msccl_status(&check);
    let at = check
        .problems()
        .first()
        .map(|p| p.pos)
        .or_else(|| check.finding().and_then(|(_, f)| f.pos))
        .map(|pos| (pos.line as usize, pos.col as usize));
    // The place goes before the message once (`file:line:col: why`), so the
    // message is the reason without its own position.
    let unplaced = match (check.problems().first(), check.finding()) {
        _ if check.undecided().is_some() => check.reason(),
        (Some(p), _) => Some(p.message.clone()),
        (None, Some((mode, f))) => Some(msccl::report::finding_sentence_unplaced(mode, f)),
        (None, None) => check.reason(),
    };
    // The file's line says what kind of fault; the problem's line says which.
    let what = format!(
        "MSCCL {} on {} GPUs",
        check.collective().map_or(check.coll(), |c| c.name()),
        check.ngpus()
    );
    let fault = check.finding().map(|(_, f)| f.fault.name());
    let kind = match (check.undecided(), check.problems().is_empty(), fault) {
        (Some(_), _, _) => "not decided".to_string(),
        (None, false, Some(fault)) => format!("{fault} (the executor's reader refuses it)"),
        (None, false, None) => "the executor's reader refuses it".to_string(),
        (None, true, fault) => fault.unwrap_or_default().to_string(),
    };
    let (summary, problems) = match unplaced {
        None => (format!("VALID {what}"), Vec::new()),
        Some(reason) => (
            format!("INVALID {what}: {kind}"),
            vec![Problem {
                at,
                message: reason,
            }],
        ),
    };
    let json = options
        .json
        .then(|| msccl::report::json(&shown, &check, status.code()).to_string());
    FileResult {
        path: shown,
        status,
        summary,
        problems,
        json,
        seconds: 0.0,
    }
}

/// The status of an MSCCL program's check: 0 only when nothing was refused
/// and every run passed, 2 when it could not be decided, else 1.
pub fn msccl_status(check: &crate::msccl::Check) -> Status {
    if check.valid() {
        Status::Ok
    } else if check.undecided().is_some() {
        Status::Input
    } else {
        Status::Rejected
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_files_are_checked_first_and_unreadable_entries_last() {
        let dir = std::env::temp_dir().join(format!("txverify-order-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut entries = Vec::new();
        for (name, bytes) in [("a", 10), ("b", 300), ("c", 10), ("d", 2000)] {
            let path = dir.join(format!("{name}.tbl"));
            std::fs::write(&path, "x".repeat(bytes)).unwrap();
            entries.push(Entry::File(path));
        }
        entries.insert(
            1,
            Entry::Error {
                path: dir.join("missing"),
                message: "cannot read".into(),
            },
        );
        // d (2000 bytes), b (300), then a and c (10 each) in entry order, then the error.
        assert_eq!(largest_first(&entries), vec![4, 2, 0, 3, 1]);
        std::fs::remove_dir_all(&dir).ok();
    }
}
