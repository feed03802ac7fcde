//! `txverify export FILE.sched`: a schedule file (what `search -o` writes),
//! replayed valid, written again as JSON, text or CSV, or as an MSCCL program
//! (docs/export.md). A total exchange becomes an all-to-all, checked as a
//! table's is; broadcast, reduce, allgather, reduce-scatter and allreduce
//! become the MSCCL collectives of those names, checked by the MSCCL checker
//! before anything is written.

use super::msccl::{self, MscclError, MscclProgram, collective};
use super::table::{ExportFormat, Exported};
use crate::shared::failure::{Failure, Status};
use std::path::Path;
use txverify_core::schedule::{Collective, ReplayOptions, Schedule, parse, replay};
use txverify_core::verdict::judge;

/// Exports the schedule `source` read from `file` as `format`; `name` is the
/// MSCCL program's. An unreadable schedule, one without a network, and one
/// MSCCL has no collective for are refused with status 2; an invalid one
/// with status 1; a program that fails its checks is a bug (status 3).
pub fn export_schedule(
    file: &Path,
    source: &str,
    name: &str,
    format: ExportFormat,
) -> Result<Exported, Failure> {
    let shown = file.display().to_string();
    let about =
        |status: Status, e: &dyn std::fmt::Display| Failure::new(status, format!("{shown}: {e}"));
    let written = parse(source).map_err(|e| {
        Failure::input(e.kind.to_string())
            .at(Some((e.line, e.column)))
            .shown_as(e.render(&shown, source))
    })?;
    // A schedule's `edges FILE` is relative to the schedule (docs/networks.md);
    // the schedule is written again as it was read.
    let mut schedule = written.clone();
    let here = file.parent().unwrap_or(Path::new(""));
    schedule.network = schedule.network.map(|name| name.relative_to(here));
    let Some(network) = &schedule.network else {
        let why = "the schedule says no `network:`; export needs one";
        return Err(about(Status::Input, &why));
    };
    let graph = network
        .build()
        .map_err(|e| about(Status::Input, &format!("network {network}: {e}")))?;
    let report = replay(&schedule, &graph, &ReplayOptions::default())
        .map_err(|e| about(Status::Input, &e))?;
    if !judge(&report, None, None).valid() {
        let why = format!(
            "the schedule is invalid ({} violations; `txverify simulate` says which); nothing exported",
            report.violation_count()
        );
        return Err(about(Status::Rejected, &why));
    }
    if format != ExportFormat::Msccl {
        return Ok(Exported::Schedule(written, format));
    }
    let refuse = |e: MscclError| match e {
        MscclError::TooLarge { .. }
        | MscclError::TooManyWaits { .. }
        | MscclError::Unsupported(_)
        | MscclError::Switches(_)
        | MscclError::NoStep { .. }
        | MscclError::TooManyTries { .. }
        | MscclError::NotPlayed { .. } => about(Status::Input, &e),
        e => Failure::internal(format!(
            "{shown}: {e}; nothing exported (a bug: please report it)"
        )),
    };
    let program = program_of(&schedule, name).map_err(refuse)?;
    let warnings = program.runtime_warnings();
    Ok(Exported::Msccl(Box::new(program), warnings))
}

/// The checked MSCCL program of a schedule replayed valid. Through switch
/// nodes it is also played in steps on the schedule's fabric, as `check
/// PROGRAM.xml --network` plays it, and refused if it exceeds a capacity or
/// a switch limit there.
pub fn program_of(schedule: &Schedule, name: &str) -> Result<MscclProgram, MscclError> {
    if schedule.collective == Collective::TotalExchange {
        let program = msccl::alltoall(schedule, name)?;
        program.check_against(schedule)?;
        return Ok(program);
    }
    let (program, carried) = collective::collective(schedule, name)?;
    collective::check_collective(&program, schedule, &carried)?;
    let network = schedule.network.as_ref().ok_or(MscclError::NoNetwork)?;
    let graph = network.build().map_err(|_| MscclError::NoNetwork)?;
    if graph.fabric().has_forward_only() {
        collective::check_fits(&program, &graph)?;
    }
    Ok(program)
}
