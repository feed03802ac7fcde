//! `txverify check` and `txverify fmt`.

use super::{CheckArgs, FmtArgs, OutputFormat};
use std::path::Path;
use txverify::format::render_diagnostic;
use txverify::group::EnumerationLimits;
use txverify::load::{LoadError, LoadOptions, Loaded, load};
use txverify::report::{CHECK_SCHEMA, CheckReport};
use txverify::verify::{VerifyOptions, verify};

/// Exit status for unreadable input.
pub const EXIT_INPUT: u8 = 2;

/// Validated options of `check`.
struct CheckOptions {
    load: LoadOptions,
    verify: VerifyOptions,
}

pub fn run(args: &CheckArgs) -> u8 {
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
    let mut worst = 0;
    for path in &args.files {
        let code = check_file(path, &options, args.format);
        worst = worst.max(code);
    }
    worst
}

/// Reads and loads a file, reporting any error in `format`; `None` means exit status 2.
pub fn read_and_load(path: &Path, options: &LoadOptions, format: OutputFormat) -> Option<Loaded> {
    read_and_load_with_source(path, options, format).map(|(_, loaded)| loaded)
}

pub fn read_and_load_with_source(
    path: &Path,
    options: &LoadOptions,
    format: OutputFormat,
) -> Option<(String, Loaded)> {
    let shown = path.display().to_string();
    let source = match std::fs::read_to_string(path) {
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

fn check_file(path: &Path, options: &CheckOptions, format: OutputFormat) -> u8 {
    let shown = path.display().to_string();
    let Some((source, loaded)) = read_and_load_with_source(path, &options.load, format) else {
        return EXIT_INPUT;
    };
    let verification = verify(&loaded, &options.verify);
    let report = CheckReport::new(&shown, &source, &loaded, verification);
    match format {
        OutputFormat::Text => out!("{}", report.to_text()),
        OutputFormat::Json => outln!("{}", to_json(&report)),
    }
    report.exit_code as u8
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
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
        OutputFormat::Json => {
            let (line, column) = at.unzip();
            let value = serde_json::json!({
                "schema": CHECK_SCHEMA,
                "file": path,
                "error": { "message": message, "line": line, "column": column },
                "exit_code": EXIT_INPUT,
            });
            outln!("{value}");
        }
    }
}

pub fn fmt(args: &FmtArgs) -> u8 {
    let shown = args.file.display().to_string();
    let source = match std::fs::read_to_string(&args.file) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: cannot read {shown}: {e}");
            return EXIT_INPUT;
        }
    };
    match txverify::format::parse(&source) {
        Ok(file) => {
            out!("{}", txverify::format::print(&file));
            0
        }
        Err(e) => {
            eprint!("{}", txverify::format::render_error(&shown, &source, &e));
            EXIT_INPUT
        }
    }
}
