//! `txverify export FILE`: a loaded table, checked, simulated on its network
//! and written as the schedule a runtime runs, or as an MSCCL all-to-all
//! program (docs/export.md). Only a table the kernel accepts is exported; an
//! MSCCL program is replayed, run and compared with its schedule before it is
//! written, and a failure of either is a bug (status 3).

use super::msccl::{self, AllToAll};
use super::{table_schedule, write_csv};
use crate::check::{physical_network, simulation_words};
use crate::shared::failure::{Failure, Status};
use txverify_core::kernel::{self, MessageSpec, Verdict};
use txverify_core::load::Loaded;
use txverify_core::schedule::{ReplayOptions, Schedule, replay, write_json, write_text};
use txverify_core::verdict::judge;

/// What `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// The schedule as one JSON object.
    Json,
    /// The schedule as text.
    Text,
    /// The sends as CSV.
    Csv,
    /// An MSCCL all-to-all program (XML).
    Msccl,
}

/// What an export produced, ready to write.
pub enum Exported {
    /// The table's schedule, in the format asked for.
    Schedule(Schedule, ExportFormat),
    /// The MSCCL program, and what the runtime's default build would refuse.
    Msccl(Box<AllToAll>, Vec<String>),
}

impl Exported {
    /// Writes it.
    pub fn write(&self, mut w: &mut dyn std::io::Write) -> std::io::Result<()> {
        match self {
            Exported::Msccl(program, _) => program.write_xml(&mut w),
            Exported::Schedule(schedule, ExportFormat::Json) => write_json(schedule, &mut w),
            Exported::Schedule(schedule, ExportFormat::Text) => write_text(schedule, &mut w),
            Exported::Schedule(schedule, _) => write_csv(schedule, &mut w),
        }
    }

    /// Warnings to show (the runtime limits an MSCCL program exceeds).
    pub fn warnings(&self) -> &[String] {
        match self {
            Exported::Msccl(_, warnings) => warnings,
            Exported::Schedule(..) => &[],
        }
    }
}

/// Exports the table of `loaded` (the file shown as `shown`; `name` is the
/// MSCCL program's) as `format`.
pub fn export_table(
    shown: &str,
    loaded: &Loaded,
    name: &str,
    format: ExportFormat,
) -> Result<Exported, Failure> {
    let about =
        |status: Status, e: &dyn std::fmt::Display| Failure::new(status, format!("{shown}: {e}"));
    let instance = &loaded.instance;
    if *instance.message_spec() != MessageSpec::Total {
        let why = "export writes total exchanges only (`messages: total`)";
        return Err(about(Status::Input, &why));
    }
    if kernel::check(instance, &loaded.table, &[]).verdict() == Verdict::Invalid {
        let why = "the table is invalid (`txverify check` says why); nothing exported";
        return Err(about(Status::Rejected, &why));
    }
    let (_, embedding) = physical_network(instance, loaded.network.as_ref());
    let Some(embedding) = embedding else {
        let why = "the declared network does not match the Cayley graph";
        return Err(about(Status::Rejected, &why));
    };
    let prepared =
        simulation_words(instance, &loaded.table).map_err(|e| about(Status::Rejected, &e))?;
    let input = prepared.input(instance, &embedding);
    let schedule =
        table_schedule(&input, instance.ports()).map_err(|e| about(Status::Input, &e))?;
    if format != ExportFormat::Msccl {
        return Ok(Exported::Schedule(schedule, format));
    }
    let (program, warnings) = msccl_program(&schedule, name)?;
    Ok(Exported::Msccl(Box::new(program), warnings))
}

/// The MSCCL program of a table's schedule. The schedule is replayed first (the
/// program's buffers follow where each message is), and the program is run
/// and compared with the schedule before it is written; a failure of either is
/// a bug (status 3). What the runtime's default build would refuse comes back
/// as warnings.
fn msccl_program(schedule: &Schedule, name: &str) -> Result<(AllToAll, Vec<String>), Failure> {
    let replayed = schedule
        .network
        .as_ref()
        .ok_or_else(|| "the schedule names no network".to_string())
        .and_then(|net| net.build().map_err(|e| e.to_string()))
        .and_then(|graph| {
            replay(schedule, &graph, &ReplayOptions::default()).map_err(|e| e.to_string())
        });
    match replayed {
        Ok(report) if judge(&report, None, None).valid() => {}
        Ok(report) => {
            return Err(Failure::internal(format!(
                "the table's schedule fails its replay ({} violations); nothing exported (a bug: please report it)",
                report.violation_count()
            )));
        }
        Err(e) => {
            return Err(Failure::internal(format!(
                "the table's schedule cannot be replayed: {e}"
            )));
        }
    }
    let program = msccl::alltoall(schedule, name).map_err(|e| match e {
        msccl::MscclError::TooLarge { .. } => Failure::input(e.to_string()),
        e => Failure::internal(format!("{e} (a bug: please report it)")),
    })?;
    program.check_against(schedule).map_err(|e| {
        Failure::internal(format!("{e}; nothing exported (a bug: please report it)"))
    })?;
    let warnings = program.runtime_warnings();
    Ok((program, warnings))
}
