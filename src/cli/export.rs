//! `txverify export FILE [--format json|text|csv|msccl] [-o OUT]`: a valid
//! total-exchange table as the schedule a runtime runs, or as an MSCCL
//! all-to-all program (docs/export.md).

use super::check::read_and_load;
use super::exit::Exit;
use super::{ExportArgs, ExportFormat, OutputFormat};
use std::io::Write;
use txverify_clients::export::msccl::{self, AllToAll};
use txverify_clients::export::{table_schedule, write_csv};
use txverify_clients::verify::{physical_network, simulation_words};
use txverify_core::kernel::{self, MessageSpec, Verdict};
use txverify_core::schedule::{ReplayOptions, Schedule, replay, write_json, write_text};

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
    let program = if args.format == ExportFormat::Msccl {
        let name = loaded.file.name.as_ref().map_or_else(
            || {
                args.file
                    .file_stem()
                    .map_or("txverify".into(), |s| s.to_string_lossy())
                    .into_owned()
            },
            |n| n.value.clone(),
        );
        match msccl_program(&schedule, &name) {
            Ok(program) => Some(program),
            Err(exit) => return exit,
        }
    } else {
        None
    };
    let emit = |w: &mut dyn Write| match &program {
        Some(program) => program.write_xml(&mut &mut *w),
        None => write(&schedule, args.format, w),
    };
    let written = match &args.output {
        Some(path) => std::fs::File::create(path).and_then(|f| {
            let mut w = std::io::BufWriter::new(f);
            emit(&mut w)?;
            w.flush()
        }),
        None => {
            let mut w = std::io::BufWriter::new(std::io::stdout().lock());
            emit(&mut w).and_then(|()| w.flush())
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

fn write(schedule: &Schedule, format: ExportFormat, mut w: &mut dyn Write) -> std::io::Result<()> {
    match format {
        ExportFormat::Json => write_json(schedule, &mut w),
        ExportFormat::Text => write_text(schedule, &mut w),
        ExportFormat::Csv | ExportFormat::Msccl => write_csv(schedule, &mut w),
    }
}

/// The MSCCL program of a table's schedule. The schedule is replayed first (the
/// program's buffers follow where each message is), and the program is run
/// and compared with the schedule before it is written; a failure of either is
/// a bug (exit 3). What the runtime's default build would refuse is said on
/// standard error.
fn msccl_program(schedule: &Schedule, name: &str) -> Result<AllToAll, Exit> {
    let replayed = schedule
        .network
        .as_ref()
        .ok_or_else(|| "the schedule names no network".to_string())
        .and_then(|net| net.build().map_err(|e| e.to_string()))
        .and_then(|graph| {
            replay(schedule, &graph, &ReplayOptions::default()).map_err(|e| e.to_string())
        });
    match replayed {
        Ok(report) if txverify_core::verdict::judge(&report, None, None).valid() => {}
        Ok(report) => {
            eprintln!(
                "error: the table's schedule fails its replay ({} violations); nothing exported (a bug: please report it)",
                report.violation_count()
            );
            return Err(Exit::Internal);
        }
        Err(e) => {
            eprintln!("error: the table's schedule cannot be replayed: {e}");
            return Err(Exit::Internal);
        }
    }
    let program = match msccl::alltoall(schedule, name) {
        Ok(program) => program,
        Err(e @ msccl::MscclError::TooLarge { .. }) => {
            eprintln!("error: {e}");
            return Err(Exit::Input);
        }
        Err(e) => {
            eprintln!("error: {e} (a bug: please report it)");
            return Err(Exit::Internal);
        }
    };
    if let Err(e) = program.check_against(schedule) {
        eprintln!("error: {e}; nothing exported (a bug: please report it)");
        return Err(Exit::Internal);
    }
    for limit in program.runtime_fit().exceeded() {
        eprintln!("warning: {limit}; see docs/export.md");
    }
    Ok(program)
}
