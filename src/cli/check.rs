//! `txverify check` and `txverify fmt`.

use super::exit::Exit;
use super::{CheckArgs, FmtArgs, OutputFormat};
use rayon::prelude::*;
use std::path::Path;
use txverify::format::render_diagnostic;
use txverify::group::EnumerationLimits;
use txverify::load::{LoadError, LoadOptions, Loaded, load};
use txverify::report::{CheckReport, html, json};
use txverify::verify::{VerifyOptions, verify};

/// Validated options of `check`.
struct CheckOptions {
    load: LoadOptions,
    verify: VerifyOptions,
}

/// Formats of `check`: the shared text and JSON reports, and the HTML page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    /// Human-readable text.
    #[default]
    Text,
    /// JSON (one object per file, one per line), schema in docs/json.md.
    Json,
    /// One self-contained HTML page (one file only; docs/render.md).
    Html,
}

pub fn run(args: &CheckArgs) -> Exit {
    let format = match args.format {
        CheckFormat::Text => OutputFormat::Text,
        CheckFormat::Json => OutputFormat::Json,
        CheckFormat::Html => return html(args),
    };
    if let Some(path) = &args.output {
        eprintln!(
            "error: -o {} is for --format html (text and JSON go to standard output)",
            path.display()
        );
        return Exit::Input;
    }
    let options = CheckOptions {
        load: LoadOptions {
            limits: EnumerationLimits {
                max_order: args.max_order,
                ..EnumerationLimits::default()
            },
        },
        verify: verify_options(args),
    };
    // Files are checked a few at a time on every core and reported in the order
    // given, each chunk as soon as it is done.
    let chunk = 2 * rayon::current_num_threads().max(1);
    let mut worst = Exit::Ok;
    for paths in args.files.chunks(chunk) {
        let results: Vec<(Exit, Vec<Emit>)> = paths
            .par_iter()
            .map(|path| check_file(path, &options, format))
            .collect();
        for (exit, emits) in results {
            for emit in emits {
                emit.write();
            }
            worst = worst.max(exit);
        }
    }
    worst
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

/// `check --format html`: one file's report as a page.
fn html(args: &CheckArgs) -> Exit {
    let [path] = args.files.as_slice() else {
        eprintln!(
            "error: --format html takes one file ({} given): its page holds one table",
            args.files.len()
        );
        return Exit::Input;
    };
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

/// A report's exit status: its outcome's, or 2 (a limit refuses the input)
/// when the simulation was refused for its size — the kernel's verdict is
/// reported all the same.
fn exit_of(report: &CheckReport) -> Exit {
    let exit = Exit::of_outcome(report.outcome);
    if report.simulation_over_limit {
        exit.max(Exit::Input)
    } else {
        exit
    }
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
    let shown = path.display().to_string();
    let source = match super::read_text(path) {
        Ok(s) => s,
        Err(e) => {
            let message = format!("cannot read {shown}: {e}");
            emits.push(error_emit(&shown, format, &message, None));
            return None;
        }
    };
    match load(&source, options) {
        Ok(loaded) => Some((source, loaded)),
        Err(e) => {
            emits.push(load_error_emit(&shown, &source, &e, format));
            None
        }
    }
}

fn check_file(path: &Path, options: &CheckOptions, format: OutputFormat) -> (Exit, Vec<Emit>) {
    // MSCCL XML programs have a checker of their own (docs/msccl.md).
    if let Some(c) = super::msccl::check_path(path, format) {
        return (c.exit, vec![Emit::Out(c.out), Emit::Err(c.err)]);
    }
    let shown = path.display().to_string();
    let mut emits = Vec::new();
    let Some((source, loaded)) = load_collecting(path, &options.load, format, &mut emits) else {
        return (Exit::Input, emits);
    };
    let verification = verify(&loaded, &options.verify);
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
            Some(txverify::format::line_col(source, span.start)),
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

pub fn fmt(args: &FmtArgs) -> Exit {
    let shown = args.file.display().to_string();
    let source = match super::read_text(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {shown}: {e}");
            return Exit::Input;
        }
    };
    match txverify::format::parse(&source) {
        Ok(file) => {
            out!("{}", txverify::format::print(&file));
            Exit::Ok
        }
        Err(e) => {
            eprint!("{}", txverify::format::render_error(&shown, &source, &e));
            Exit::Input
        }
    }
}
