//! `txverify check` and `txverify fmt`.

use super::exit::Exit;
use super::{CheckArgs, FmtArgs, OutputFormat};
use std::path::Path;
use txverify::format::render_diagnostic;
use txverify::group::EnumerationLimits;
use txverify::load::{LoadError, LoadOptions, Loaded, load};
use txverify::report::{CheckReport, json};
use txverify::verify::{VerifyOptions, verify};

/// Validated options of `check`.
struct CheckOptions {
    load: LoadOptions,
    verify: VerifyOptions,
}

pub fn run(args: &CheckArgs) -> Exit {
    let options = CheckOptions {
        load: LoadOptions {
            limits: EnumerationLimits {
                max_order: args.max_order,
                ..EnumerationLimits::default()
            },
        },
        verify: VerifyOptions {
            simulate: !args.no_simulate,
            ..VerifyOptions::default()
        },
    };
    let mut worst = Exit::Ok;
    for path in &args.files {
        worst = worst.max(check_file(path, &options, args.format));
    }
    worst
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
    let shown = path.display().to_string();
    let source = match super::read_text(path) {
        Ok(s) => s,
        Err(e) => {
            let message = format!("cannot read {shown}: {e}");
            emit_error(&shown, format, &message, None);
            return None;
        }
    };
    match load(&source, options) {
        Ok(loaded) => Some((source, loaded)),
        Err(e) => {
            report_load_error(&shown, &source, &e, format);
            None
        }
    }
}

fn check_file(path: &Path, options: &CheckOptions, format: OutputFormat) -> Exit {
    let shown = path.display().to_string();
    let Some((source, loaded)) = read_and_load_with_source(path, &options.load, format) else {
        return Exit::Input;
    };
    let verification = verify(&loaded, &options.verify);
    let report = CheckReport::new(&shown, &source, &loaded, verification);
    let exit = Exit::of_outcome(report.outcome);
    match format {
        OutputFormat::Text => out!("{}", report.to_text()),
        OutputFormat::Json => match report.to_json(exit.code()) {
            Ok(line) => outln!("{line}"),
            Err(e) => {
                eprintln!("error: {shown}: cannot write the JSON report (a bug): {e}");
                return Exit::Internal;
            }
        },
    }
    exit
}

fn report_load_error(path: &str, source: &str, error: &LoadError, format: OutputFormat) {
    let span = error.span();
    let message = error.to_string();
    match format {
        OutputFormat::Text => eprint!("{}", render_diagnostic(path, source, span, &message)),
        OutputFormat::Json => emit_error(
            path,
            format,
            &message,
            Some(txverify::format::line_col(source, span.start)),
        ),
    }
}

fn emit_error(path: &str, format: OutputFormat, message: &str, at: Option<(usize, usize)>) {
    match format {
        OutputFormat::Text => eprintln!("error: {message}"),
        OutputFormat::Json => match json::check_error(path, message, at, Exit::Input.code()) {
            Ok(line) => outln!("{line}"),
            // Only the message is lost: the status is still `Exit::Input`.
            Err(e) => eprintln!("error: {message} (and the JSON report failed: {e})"),
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
