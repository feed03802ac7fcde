//! `txverify export FILE [--format json|text|csv] [-o OUT]`: a valid
//! total-exchange table as the schedule a runtime runs (docs/export.md).

use super::check::read_and_load;
use super::exit::Exit;
use super::{ExportArgs, ExportFormat, OutputFormat};
use std::io::Write;
use txverify::export::{table_schedule, write_csv};
use txverify::kernel::{self, MessageSpec, Verdict};
use txverify::schedule::{Schedule, write_json, write_text};
use txverify::verify::{physical_network, simulation_words};

pub fn run(args: &ExportArgs) -> Exit {
    let shown = args.file.display().to_string();
    let Some(loaded) = read_and_load(&args.file, &Default::default(), OutputFormat::Text) else {
        return Exit::Input;
    };
    let instance = &loaded.instance;
    if *instance.message_spec() != MessageSpec::Total {
        eprintln!("error: {shown}: export writes total exchanges only (`messages: total`)");
        return Exit::Input;
    }
    if kernel::check(instance, &loaded.table, &[]).verdict() == Verdict::Invalid {
        eprintln!(
            "error: {shown}: the table is invalid (`txverify check` says why); nothing exported"
        );
        return Exit::Rejected;
    }
    let (_, embedding) = physical_network(instance, loaded.network.as_ref());
    let Some(embedding) = embedding else {
        eprintln!("error: {shown}: the declared network does not match the Cayley graph");
        return Exit::Rejected;
    };
    let prepared = match simulation_words(instance, &loaded.table) {
        Ok(prepared) => prepared,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return Exit::Rejected;
        }
    };
    let input = prepared.input(instance, &embedding);
    let schedule = match table_schedule(&input, instance.ports()) {
        Ok(schedule) => schedule,
        Err(e) => {
            eprintln!("error: {shown}: {e}");
            return Exit::Input;
        }
    };
    let written = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            write(&schedule, args.format, &mut w)?;
            w.flush()
        }),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            write(&schedule, args.format, &mut w).and_then(|()| w.flush())
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

fn write(schedule: &Schedule, format: ExportFormat, w: &mut impl Write) -> std::io::Result<()> {
    match format {
        ExportFormat::Json => write_json(schedule, w),
        ExportFormat::Text => write_text(schedule, w),
        ExportFormat::Csv => write_csv(schedule, w),
    }
}
