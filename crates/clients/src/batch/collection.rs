//! `check` over several paths or a directory: a line (or a document) per file
//! and a summary, in the order the paths name the files.

use super::{BatchOptions, ci, walk};
use crate::check::VerifyOptions;
use crate::report::Status;
use crate::report::json::{self, CheckSummary};
use std::path::PathBuf;
use std::time::Instant;
use txverify_core::load::LoadOptions;
use txverify_core::network::Graph;

/// How a collection is reported (docs/ci.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CollectionFormat {
    /// One line per file and a text summary.
    Text,
    /// One JSON object per file and a JSON summary.
    Json,
    /// JUnit XML, written whole at the end.
    Junit,
    /// GitHub workflow annotations and a text summary.
    Github,
}

/// What a collection ends with, once every file's part has gone to the sink.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CollectionEnd {
    /// The worst (largest) of the files' statuses.
    pub status: Status,
    /// What follows the files' parts: the summary, or the whole JUnit document.
    pub tail: String,
    /// The summary as text, for standard error when the report goes to a file.
    pub summary_text: String,
}

/// Checks the files under `paths` (loaded, verified and, for MSCCL programs,
/// placed on `network` as given) on `jobs` threads (as many as the machine
/// has when `None`), handing each file's part
/// of the report to `sink` in order; an `Err` is a failure of the thread pool.
pub fn check_collection(
    paths: &[PathBuf],
    load: LoadOptions,
    verify: VerifyOptions,
    network: Option<Graph>,
    jobs: Option<usize>,
    format: CollectionFormat,
    mut sink: impl FnMut(String) + Send,
) -> Result<CollectionEnd, String> {
    let started = Instant::now();
    let options = BatchOptions {
        load,
        verify,
        json: format == CollectionFormat::Json,
        network,
    };
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let collected = walk::collect(paths);
    let skipped = collected.skipped_note();
    let mut summary = CheckSummary {
        skipped: collected.not_tables,
        ..CheckSummary::default()
    };
    let mut worst = Status::Ok;
    let mut kept = Vec::new();
    super::run(&collected.entries, &options, jobs, |result| {
        ci::count(&mut summary, &result);
        worst = worst.max(result.status);
        sink(match format {
            CollectionFormat::Json => result.json.clone().map(|j| j + "\n").unwrap_or_default(),
            CollectionFormat::Github => ci::github(&result),
            CollectionFormat::Junit => String::new(),
            CollectionFormat::Text => ci::text_line(&result),
        });
        if format == CollectionFormat::Junit {
            kept.push(result);
        }
    })?;
    summary.seconds = started.elapsed().as_secs_f64();
    let tail = match format {
        CollectionFormat::Json => json::check_summary(&summary, worst.code())
            .map(|j| j + "\n")
            .unwrap_or_else(|e| {
                let message = format!("cannot write the JSON summary (a bug): {e}");
                serde_json::json!({ "error": { "message": message } }).to_string() + "\n"
            }),
        CollectionFormat::Junit => ci::junit(&kept, &summary, skipped.as_deref()),
        _ => ci::text_summary(&summary, skipped.as_deref()),
    };
    Ok(CollectionEnd {
        status: worst,
        tail,
        summary_text: ci::text_summary(&summary, skipped.as_deref()),
    })
}
