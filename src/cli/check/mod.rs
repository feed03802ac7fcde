//! `txverify check` and `txverify fmt`.
//!
//! One file gets the full report; several paths, or a directory, make a collection
//! (what a CI checks) whose exit status is the worst of its files'. The library
//! reads, checks and writes the reports (`report::single`, `batch::collection`).

pub mod fmt;

use super::exit::Exit;
use super::{CheckArgs, OutputFormat};
use std::path::Path;
use txverify_clients::batch::collection::{CollectionFormat, check_collection};
use txverify_clients::check::VerifyOptions;
use txverify_clients::report::single::{self, Emit, FileCheck, Format};
use txverify_core::load::{LoadOptions, Loaded};
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
    let single = matches!(args.files.as_slice(), [one] if !one.is_dir());
    let plain_format = match args.format {
        CheckFormat::Json => OutputFormat::Json,
        _ => OutputFormat::Text,
    };
    // One file is read once, here: its kind says whether `--network` applies,
    // and its text is what is checked (a pipe cannot be read twice).
    let plain = matches!(args.format, CheckFormat::Text | CheckFormat::Json);
    let source = match &args.files[..] {
        [one] if single && (plain || args.network.is_some()) => {
            let Some(source) = read_once(one, plain_format) else {
                return Exit::Input;
            };
            Some(source)
        }
        _ => None,
    };
    let one = source.as_deref().map(|s| (args.files[0].as_path(), s));
    let network = single::program_network(args.network.as_ref(), one);
    let Ok(network) = network.map_err(|line| errorln!("{line}")) else {
        return Exit::Input;
    };
    let timing = args.timing.request();
    if timing.asked() && !(single && plain && network.is_some()) {
        errorln!("--alpha, --beta and --link-table time one MSCCL program on its --network");
        return Exit::Input;
    }
    if args.proofs.is_some() && !single {
        eprintln!(
            "error: --proofs names the certificates of one table: give one file (each file of a collection names its own with `certificates:`)"
        );
        return Exit::Input;
    }
    let format = match args.format {
        CheckFormat::Html => return html(args),
        CheckFormat::Text if single => OutputFormat::Text,
        CheckFormat::Json if single => OutputFormat::Json,
        _ => return collection(args, network),
    };
    let (path, (load, verify)) = (&args.files[0], check_options(args));
    let proofs = args.proofs.as_deref();
    let checked = match source {
        Some(source) => {
            single::check_read(path, source, &load, &verify, single_format(format), proofs)
        }
        None => single::check_file(path, &load, &verify, single_format(format), proofs),
    };
    let (exit, emits) = match checked {
        // MSCCL programs have a checker of their own (docs/msccl.md).
        FileCheck::Msccl(source) => {
            let shown = path.display().to_string();
            let on = network.as_ref();
            let c = super::msccl::check_source(&shown, &source, format, on, &timing);
            (c.exit, vec![Emit::Out(c.out), Emit::Err(c.err)])
        }
        FileCheck::Done(outcome) => (Exit::from(outcome.status), outcome.emits),
    };
    let Some(out) = &args.output else {
        emit_all(emits);
        return exit;
    };
    let (text, rest) = single::split_file_text(emits);
    emit_all(rest);
    exit.max(write_output(out, &text))
}

/// `check` over several paths or a directory, streamed unless `--output`.
fn collection(args: &CheckArgs, network: Option<Graph>) -> Exit {
    let (load, verify) = check_options(args);
    let jobs = args.jobs.map(usize::from);
    let format = match args.format {
        CheckFormat::Json => CollectionFormat::Json,
        CheckFormat::Junit => CollectionFormat::Junit,
        CheckFormat::Github => CollectionFormat::Github,
        CheckFormat::Text | CheckFormat::Html => CollectionFormat::Text,
    };
    let mut buffered = String::new();
    let ended = check_collection(&args.files, load, verify, network, jobs, format, |text| {
        if args.output.is_none() {
            out!("{text}");
        } else {
            buffered.push_str(&text);
        }
    });
    let Ok(end) = ended.map_err(|e| errorln!("{e}")) else {
        return Exit::Internal;
    };
    let worst = Exit::from(end.status);
    let Some(path) = &args.output else {
        out!("{}", end.tail);
        return worst;
    };
    buffered.push_str(&end.tail);
    if !super::global::quiet() && args.format != CheckFormat::Text {
        eprint!("{}", end.summary_text);
    }
    worst.max(write_output(path, &buffered))
}

/// Loading and verification as `--max-order`, `--no-simulate` and
/// `--max-simulation-steps` ask.
fn check_options(args: &CheckArgs) -> (LoadOptions, VerifyOptions) {
    single::check_options(args.max_order, args.no_simulate, args.max_simulation_steps)
}

/// Writes a report file; [`Exit::Input`] when it cannot be written.
fn write_output(path: &Path, text: &str) -> Exit {
    match std::fs::write(path, text) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            errorln!("cannot write {}: {e}", path.display());
            Exit::Input
        }
    }
}

/// `check --format html`: one file's report as a page.
fn html(args: &CheckArgs) -> Exit {
    let (load, verify) = check_options(args);
    let checked = match single::check_html(&args.files, &load, &verify, args.proofs.as_deref()) {
        Ok(checked) => checked,
        Err(stopped) => {
            emit_all(stopped.emits);
            return Exit::from(stopped.status);
        }
    };
    let Some(out) = &args.output else {
        out!("{}", checked.page);
        return Exit::from(checked.status);
    };
    let written = write_output(out, &checked.page);
    if written != Exit::Ok {
        return written;
    }
    if !super::global::quiet() {
        let (shown, verdict) = (&checked.shown, checked.report.verdict_text());
        let (file, bytes) = (out.display(), checked.page.len());
        eprintln!("{shown}: {verdict}; wrote {file} ({bytes} bytes)");
    }
    Exit::from(checked.status)
}

/// The library's format for a single file's report.
pub(super) fn single_format(format: OutputFormat) -> Format {
    match format {
        OutputFormat::Text => Format::Text,
        OutputFormat::Json => Format::Json,
    }
}

/// Prints what a library call produced, in order.
pub(super) fn emit_all(emits: Vec<Emit>) {
    emits.into_iter().for_each(|emit| match emit {
        Emit::Out(text) => out!("{text}"),
        Emit::Err(text) => super::output::diagnostic(&text),
    });
}

/// Reads and loads a file, reporting any error in `format`; `None` means [`Exit::Input`].
pub fn read_and_load(path: &Path, options: &LoadOptions, format: OutputFormat) -> Option<Loaded> {
    read_and_load_with_source(path, options, format).map(|(_, loaded)| loaded)
}

/// Reads a file once (`-`: standard input), reporting an error in `format`;
/// `None` means [`Exit::Input`]. A command that tells the kind of its file
/// reads it with this and passes the text on: a pipe cannot be read twice.
pub fn read_once(path: &Path, format: OutputFormat) -> Option<String> {
    let mut emits = Vec::new();
    let source = single::read_source(path, single_format(format), &mut emits);
    emit_all(emits);
    source
}

/// Loads the text [`read_once`] read, reporting an error in `format`.
pub fn load_read(
    path: &Path,
    source: String,
    options: &LoadOptions,
    format: OutputFormat,
) -> Option<Loaded> {
    let mut emits = Vec::new();
    let loaded = single::load_source(path, source, options, single_format(format), &mut emits);
    emit_all(emits);
    loaded.map(|(_, loaded)| loaded)
}

/// [`read_and_load`], keeping the file's text.
pub fn read_and_load_with_source(
    path: &Path,
    options: &LoadOptions,
    format: OutputFormat,
) -> Option<(String, Loaded)> {
    let mut emits = Vec::new();
    let loaded = single::read_and_load(path, options, single_format(format), &mut emits);
    emit_all(emits);
    loaded
}
