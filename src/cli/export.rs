//! `txverify export FILE [--format json|text|csv|msccl] [-o OUT]`: a valid
//! total-exchange table as the schedule a runtime runs, or as an MSCCL
//! all-to-all program (docs/export.md). The checks and the export are
//! [`txverify_clients::export::table`]'s; this writes what it gives.

use super::check::read_and_load;
use super::exit::Exit;
use super::{ExportArgs, ExportFormat, OutputFormat};
use std::io::Write;
use txverify_clients::export::table::{self, export_table};

pub fn run(args: &ExportArgs) -> Exit {
    let shown = args.file.display().to_string();
    let Some(loaded) = read_and_load(&args.file, &Default::default(), OutputFormat::Text) else {
        return Exit::Input;
    };
    let name = loaded.file.name.as_ref().map_or_else(
        || {
            args.file
                .file_stem()
                .map_or("txverify".into(), |s| s.to_string_lossy())
                .into_owned()
        },
        |n| n.value.clone(),
    );
    let format = match args.format {
        ExportFormat::Json => table::ExportFormat::Json,
        ExportFormat::Text => table::ExportFormat::Text,
        ExportFormat::Csv => table::ExportFormat::Csv,
        ExportFormat::Msccl => table::ExportFormat::Msccl,
    };
    let exported = match export_table(&shown, &loaded, &name, format) {
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
            eprintln!("error: cannot write {target}: {e}");
            Exit::Input
        }
    }
}
