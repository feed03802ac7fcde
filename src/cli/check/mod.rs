//! `txverify check` and `txverify fmt`.
//!
//! One file gets the full report, as it always has. Several paths, or a directory,
//! make a collection (what a CI checks): [`walk`] finds the files, [`batch`] checks
//! them on `--jobs` threads and hands the results back in order, and [`ci`] writes
//! them as one line per file and a summary, JSON lines, JUnit XML or GitHub
//! annotations. The exit status is the worst (largest) of the files' statuses.

pub mod fmt;

use super::exit::Exit;
use super::{CheckArgs, OutputFormat};
use std::path::Path;
use std::time::Instant;
use txverify_clients::batch::{self, ci, walk};
use txverify_clients::report::json::CheckSummary;
use txverify_clients::report::{CheckReport, html, json};
use txverify_clients::verify::{VerifyOptions, verify};
use txverify_core::format::render_diagnostic;
use txverify_core::group::EnumerationLimits;
use txverify_core::load::{FileKind, LoadError, LoadOptions, Loaded, Reader, detect, load};
use txverify_core::network::Graph;

/// Formats of `check`: the shared text and JSON reports, the HTML page, and the CI
/// reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// JSON (one object per file, one per line), schema in docs/json.md.
    Json,
    /// One self-contained HTML page (one file only; docs/render.md).
    Html,
    /// JUnit XML: one test case per file (docs/ci.md).
    Junit,
    /// GitHub workflow annotations, `::error file=…,line=…,col=…::…` (docs/ci.md).
    Github,
}

pub fn run(args: &CheckArgs) -> Exit {
    let load = LoadOptions {
        limits: EnumerationLimits {
            max_order: args.max_order,
            ..EnumerationLimits::default()
        },
    };
    let verify = verify_options(args);
    let network = match program_network(args) {
        Ok(network) => network,
        Err(exit) => return exit,
    };
    let single = matches!(args.files.as_slice(), [one] if !one.is_dir());
    let format = match args.format {
        CheckFormat::Html => return html(args),
        CheckFormat::Text if single => OutputFormat::Text,
        CheckFormat::Json if single => OutputFormat::Json,
        _ => return collection(args, load, verify, network),
    };
    let (exit, emits) = check_file(&args.files[0], &load, &verify, format, network.as_ref());
    let Some(out) = &args.output else {
        emits.into_iter().for_each(Emit::write);
        return exit;
    };
    let mut text = String::new();
    for emit in emits {
        match emit {
            Emit::Out(t) => text.push_str(&t),
            err => err.write(),
        }
    }
    exit.max(write_output(out, &text))
}

/// `--network`, built, for MSCCL programs; a bad name, or `--network` with one
/// table, is refused (exit 2).
fn program_network(args: &CheckArgs) -> Result<Option<Graph>, Exit> {
    let Some(spec) = &args.network else {
        return Ok(None);
    };
    let graph = spec.graph(&LoadOptions::default()).map_err(|e| {
        eprintln!("error: --network {e}");
        Exit::Input
    })?;
    if let [one] = args.files.as_slice()
        && !one.is_dir()
        && let Ok(source) = super::read_text(one)
        && detect(&source) != FileKind::Msccl
    {
        eprintln!(
            "error: --network is for MSCCL programs; {} is {}, which names its network itself",
            one.display(),
            detect(&source)
        );
        return Err(Exit::Input);
    }
    Ok(Some(graph))
}

/// `check` over several paths or a directory: a line (or a document) per file and
/// a summary, in the order the paths name the files.
fn collection(
    args: &CheckArgs,
    load: LoadOptions,
    verify: VerifyOptions,
    network: Option<Graph>,
) -> Exit {
    let started = Instant::now();
    let collected = walk::collect(&args.files);
    let skipped = collected.skipped_note();
    let options = batch::BatchOptions {
        load,
        verify,
        json: args.format == CheckFormat::Json,
        network,
    };
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let mut summary = CheckSummary {
        skipped: collected.not_tables,
        ..CheckSummary::default()
    };
    let mut worst = Exit::Ok;
    let mut kept = Vec::new();
    let mut buffered = String::new();
    let streaming = args.output.is_none();
    let ran = batch::run(&collected.entries, &options, jobs, |result| {
        ci::count(&mut summary, &result);
        worst = worst.max(Exit::from(result.status));
        let text = match args.format {
            CheckFormat::Json => result.json.clone().map(|j| j + "\n").unwrap_or_default(),
            CheckFormat::Github => ci::github(&result),
            CheckFormat::Junit | CheckFormat::Html => String::new(),
            CheckFormat::Text => ci::text_line(&result),
        };
        if streaming {
            out!("{text}");
        } else {
            buffered.push_str(&text);
        }
        if args.format == CheckFormat::Junit {
            kept.push(result);
        }
    });
    if let Err(e) = ran {
        eprintln!("error: {e}");
        return Exit::Internal;
    }
    summary.seconds = started.elapsed().as_secs_f64();
    let tail = match args.format {
        CheckFormat::Json => json::check_summary(&summary, worst.code())
            .map(|j| j + "\n")
            .unwrap_or_else(|e| {
                let message = format!("cannot write the JSON summary (a bug): {e}");
                serde_json::json!({ "error": { "message": message } }).to_string() + "\n"
            }),
        CheckFormat::Junit => ci::junit(&kept, &summary, skipped.as_deref()),
        _ => ci::text_summary(&summary, skipped.as_deref()),
    };
    match &args.output {
        None => {
            out!("{tail}");
            worst
        }
        Some(path) => {
            buffered.push_str(&tail);
            if !super::global::quiet() && args.format != CheckFormat::Text {
                eprint!("{}", ci::text_summary(&summary, skipped.as_deref()));
            }
            worst.max(write_output(path, &buffered))
        }
    }
}

/// What `check` runs besides the kernel: the simulation unless `--no-simulate`,
/// within `--max-simulation-steps`.
fn verify_options(args: &CheckArgs) -> VerifyOptions {
    let mut options = VerifyOptions {
        simulate: !args.no_simulate,
        ..VerifyOptions::default()
    };
    options.simulation.max_work = args.max_simulation_steps;
    options
}

/// A report's exit status: its outcome's, or 2 (a limit refuses the input)
/// when the simulation was refused for its size — the kernel's verdict is
/// reported all the same.
pub(super) fn exit_of(report: &CheckReport) -> Exit {
    Exit::from(report.status())
}

/// Writes a report file; [`Exit::Input`] when it cannot be written.
fn write_output(path: &Path, text: &str) -> Exit {
    match std::fs::write(path, text) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", path.display());
            Exit::Input
        }
    }
}

/// `check --format html`: one file's report as a page.
fn html(args: &CheckArgs) -> Exit {
    let [path] = args.files.as_slice() else {
        eprintln!(
            "error: --format html takes one file ({} given): its page holds one table",
            args.files.len()
        );
        return Exit::Input;
    };
    if path.is_dir() {
        eprintln!(
            "error: --format html takes one file, and {} is a directory: its page holds one table",
            path.display()
        );
        return Exit::Input;
    }
    let load = LoadOptions {
        limits: EnumerationLimits {
            max_order: args.max_order,
            ..EnumerationLimits::default()
        },
    };
    let Some((source, loaded)) = read_and_load_with_source(path, &load, OutputFormat::Text) else {
        return Exit::Input;
    };
    let options = html::verify_options(&verify_options(args));
    let verification = verify(&loaded, &options);
    let shown = path.display().to_string();
    let (report, page) = html::check_page(
        &shown,
        &source,
        &loaded,
        verification,
        &html::PageOptions::default(),
    );
    let exit = exit_of(&report);
    match &args.output {
        Some(out) => {
            if let Err(e) = std::fs::write(out, &page) {
                eprintln!("error: cannot write {}: {e}", out.display());
                return Exit::Input;
            }
            if !super::global::quiet() {
                eprintln!(
                    "{shown}: {}; wrote {} ({} bytes)",
                    report.verdict_text(),
                    out.display(),
                    page.len()
                );
            }
        }
        None => out!("{page}"),
    }
    exit
}

/// Output of one file's check, kept until the files before it are reported.
enum Emit {
    Out(String),
    Err(String),
}

impl Emit {
    fn write(self) {
        match self {
            Emit::Out(text) => out!("{text}"),
            Emit::Err(text) => eprint!("{text}"),
        }
    }
}

/// Reads and loads a file, reporting any error in `format`; `None` means [`Exit::Input`].
pub fn read_and_load(path: &Path, options: &LoadOptions, format: OutputFormat) -> Option<Loaded> {
    read_and_load_with_source(path, options, format).map(|(_, loaded)| loaded)
}

pub fn read_and_load_with_source(
    path: &Path,
    options: &LoadOptions,
    format: OutputFormat,
) -> Option<(String, Loaded)> {
    let mut emits = Vec::new();
    let loaded = load_collecting(path, options, format, &mut emits);
    emits.into_iter().for_each(Emit::write);
    loaded
}

/// [`read_and_load_with_source`], with what it would print kept in `emits`.
fn load_collecting(
    path: &Path,
    options: &LoadOptions,
    format: OutputFormat,
    emits: &mut Vec<Emit>,
) -> Option<(String, Loaded)> {
    let source = read_collecting(path, format, emits)?;
    load_source_collecting(path, source, options, format, emits)
}

/// Reads a file's text, with a read error kept in `emits`.
fn read_collecting(path: &Path, format: OutputFormat, emits: &mut Vec<Emit>) -> Option<String> {
    super::read_text(path)
        .map_err(|e| {
            let shown = path.display().to_string();
            let message = format!("cannot read {shown}: {e}");
            emits.push(error_emit(&shown, format, &message, None));
        })
        .ok()
}

/// Loads text read from `path`, with a load error kept in `emits`.
fn load_source_collecting(
    path: &Path,
    source: String,
    options: &LoadOptions,
    format: OutputFormat,
    emits: &mut Vec<Emit>,
) -> Option<(String, Loaded)> {
    let shown = path.display().to_string();
    match load(&source, options) {
        Ok(loaded) => Some((source, loaded)),
        Err(e) => {
            emits.push(load_error_emit(&shown, &source, &e, format));
            None
        }
    }
}

fn check_file(
    path: &Path,
    load: &LoadOptions,
    options: &VerifyOptions,
    format: OutputFormat,
    network: Option<&Graph>,
) -> (Exit, Vec<Emit>) {
    let shown = path.display().to_string();
    let mut emits = Vec::new();
    let Some(source) = read_collecting(path, format, &mut emits) else {
        return (Exit::Input, emits);
    };
    // The file's kind is told from its text, whatever its name (docs/cli.md).
    let kind = detect(&source);
    if kind == FileKind::Msccl {
        // MSCCL programs have a checker of their own (docs/msccl.md).
        let c = super::msccl::check_source(&shown, &source, format, network);
        return (c.exit, vec![Emit::Out(c.out), Emit::Err(c.err)]);
    }
    if let Some(line) = kind.refusal(Reader::Check, &shown) {
        return (Exit::Input, vec![error_emit(&shown, format, &line, None)]);
    }
    let Some((source, loaded)) = load_source_collecting(path, source, load, format, &mut emits)
    else {
        return (Exit::Input, emits);
    };
    let verification = verify(&loaded, options);
    let report = CheckReport::new(&shown, &source, &loaded, verification);
    let exit = exit_of(&report);
    match format {
        OutputFormat::Text => emits.push(Emit::Out(report.to_text())),
        OutputFormat::Json => match report.to_json(exit.code()) {
            Ok(line) => emits.push(Emit::Out(format!("{line}\n"))),
            Err(e) => {
                emits.push(Emit::Err(format!(
                    "error: {shown}: cannot write the JSON report (a bug): {e}\n"
                )));
                return (Exit::Internal, emits);
            }
        },
    }
    (exit, emits)
}

fn load_error_emit(path: &str, source: &str, error: &LoadError, format: OutputFormat) -> Emit {
    let span = error.span();
    let message = error.to_string();
    match format {
        OutputFormat::Text => Emit::Err(render_diagnostic(path, source, span, &message)),
        OutputFormat::Json => error_emit(
            path,
            format,
            &message,
            Some(txverify_core::format::line_col(source, span.start)),
        ),
    }
}

fn error_emit(path: &str, format: OutputFormat, message: &str, at: Option<(usize, usize)>) -> Emit {
    match format {
        OutputFormat::Text => Emit::Err(format!("error: {message}\n")),
        OutputFormat::Json => match json::check_error(path, message, at, Exit::Input.code()) {
            Ok(line) => Emit::Out(format!("{line}\n")),
            // Only the message is lost: the status is still `Exit::Input`.
            Err(e) => Emit::Err(format!(
                "error: {message} (and the JSON report failed: {e})\n"
            )),
        },
    }
}
