//! `txverify export FILE [--format json|text|csv|msccl] [-o OUT]`: a valid
//! total-exchange table, or a valid schedule, as the schedule a runtime runs,
//! or as an MSCCL program (docs/export.md). The checks and the export are
//! [`txverify_clients::export`]'s; this writes what it gives.

use super::check::{load_read, read_once};
use super::exit::Exit;
use super::{ExportArgs, ExportFormat, OutputFormat};
use std::io::Write;
use txverify_clients::export::schedule::export_schedule;
use txverify_clients::export::table::{self, export_table};
use txverify_core::schedule::format::is_schedule;

pub fn run(args: &ExportArgs) -> Exit {
    let shown = args.file.display().to_string();
    let stem = || {
        args.file
            .file_stem()
            .map_or("txverify".into(), |s| s.to_string_lossy())
            .into_owned()
    };
    let format = match args.format {
        ExportFormat::Json => table::ExportFormat::Json,
        ExportFormat::Text => table::ExportFormat::Text,
        ExportFormat::Csv => table::ExportFormat::Csv,
        ExportFormat::Msccl => table::ExportFormat::Msccl,
    };
    // A schedule file (what `search -o` writes) has a path of its own.
    // Read once, then told by content: a pipe cannot be read twice.
    let Some(source) = read_once(&args.file, OutputFormat::Text) else {
        return Exit::Input;
    };
    let exported = match is_schedule(&source) {
        true => export_schedule(&args.file, &source, &stem(), format),
        false => {
            let options = Default::default();
            let Some(loaded) = load_read(&args.file, source, &options, OutputFormat::Text) else {
                return Exit::Input;
            };
            let name = loaded
                .file
                .name
                .as_ref()
                .map_or_else(stem, |n| n.value.clone());
            export_table(&shown, &loaded, &name, format)
        }
    };
    let exported = match exported {
        Ok(exported) => exported,
        Err(failure) => return super::output::failure(&failure, None),
    };
    for warning in exported.warnings() {
        eprintln!("warning: {warning}");
    }
    let written = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            exported.write(&mut w)?;
            w.flush()
        }),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            exported.write(&mut w).and_then(|()| w.flush())
        }
    };
    match written {
        Ok(()) => Exit::Ok,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Exit::BrokenPipe,
        Err(e) => {
            let target = args
                .output
                .as_ref()
                .map_or("standard output".to_string(), |p| p.display().to_string());
            errorln!("cannot write {target}: {e}");
            Exit::Input
        }
    }
}
