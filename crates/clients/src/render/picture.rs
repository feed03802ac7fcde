//! `txverify render FILE`: the picture of a table, of its link utilisation, or
//! of a schedule of timed sends (docs/render.md), with the status the file
//! gives. A schedule is drawn only when the core's replay and `judge` find it
//! valid; a table's verdict is the kernel's, its utilisation the simulator's.

use super::{
    ColourBy, LINK_USE_SHAPE, ScheduleOptions, TableOptions, schedule_svg, table_svg,
    utilisation_svg,
};
use crate::check::{SimulationOutcome, VerifyOptions, verify};
use crate::shared::failure::{Failure, Status};
use crate::shared::replay_text::{SHOWN_VIOLATIONS, violation_lines};
use std::path::Path;
use txverify_core::format::line_col;
use txverify_core::kernel::{Verdict, check};
use txverify_core::load::{LoadOptions, Loaded, load};
use txverify_core::schedule::format::is_schedule;
use txverify_core::schedule::{ReplayOptions, parse, replay};
use txverify_core::verdict::judge;

/// A picture, and the status of the file it shows (1 for an invalid table:
/// it is drawn with its violations marked).
#[derive(Clone, Debug)]
pub struct Picture {
    /// The SVG document.
    pub svg: String,
    /// The file's status.
    pub status: Status,
}

/// What to draw of a table.
#[derive(Clone, Copy, Debug)]
pub enum TableView {
    /// The table, coloured as asked.
    Table(ColourBy),
    /// The link utilisation per step of its exhaustive simulation.
    Utilisation,
}

/// What `render FILE` is asked to draw, and its limits.
#[derive(Clone, Debug)]
pub struct RenderRequest {
    /// What to draw of a table (a schedule has one picture).
    pub view: TableView,
    /// At most this many drawn columns (runs of steps aggregated above it).
    pub max_columns: usize,
    /// How a table is loaded (the largest group order).
    pub load: LoadOptions,
}

/// `render FILE` on the text `source` of `file`: a schedule (told from its
/// text, see [`render_schedule`]) or a table (see [`render_table`]). The
/// command's rule lives here, for every caller: `--utilisation` is for
/// tables, a schedule's picture already shows its link use.
pub fn render_source(
    file: &Path,
    source: &str,
    request: &RenderRequest,
) -> Result<Picture, Failure> {
    let shown = file.display().to_string();
    if is_schedule(source) {
        if matches!(request.view, TableView::Utilisation) {
            return Err(Failure::input(format!(
                "{shown}: --utilisation is for tables; a schedule's picture shows its link use"
            )));
        }
        return render_schedule(file, source, request.max_columns);
    }
    let loaded = load(source, &request.load).map_err(|e| {
        let mut failure = Failure::input(format!("{shown}: {e}"));
        failure.at = Some(line_col(source, e.span().start));
        failure
    })?;
    let name = table_name(file, &loaded);
    render_table(&shown, &name, &loaded, request.view, request.max_columns)
}

/// A table's name in its picture's title: its `name:` line, else the file's stem.
pub fn table_name(file: &Path, loaded: &Loaded) -> String {
    loaded
        .file
        .name
        .as_ref()
        .map(|n| n.value.clone())
        .unwrap_or_else(|| {
            file.file_stem().map_or_else(
                || file.display().to_string(),
                |s| s.to_string_lossy().into_owned(),
            )
        })
}

/// The picture of the table of `loaded` (the file shown as `shown`, named
/// `name`), aggregated to at most `max_columns` drawn columns.
pub fn render_table(
    shown: &str,
    name: &str,
    loaded: &Loaded,
    view: TableView,
    max_columns: usize,
) -> Result<Picture, Failure> {
    let colour_by = match view {
        TableView::Table(colour_by) => colour_by,
        TableView::Utilisation => return render_utilisation(shown, name, loaded),
    };
    let checked = check(&loaded.instance, &loaded.table, &loaded.claims);
    let options = TableOptions {
        colour_by,
        max_columns,
        title: format!("{name} — {shown}"),
        ..TableOptions::default()
    };
    Ok(Picture {
        svg: table_svg(&loaded.instance, &loaded.table, &checked, &options),
        status: Status::of_validity(checked.verdict() != Verdict::Invalid),
    })
}

/// The link utilisation of the simulation; a failure when it did not run.
fn render_utilisation(shown: &str, name: &str, loaded: &Loaded) -> Result<Picture, Failure> {
    let mut options = VerifyOptions::default();
    options.simulation.link_use = Some(LINK_USE_SHAPE);
    let verification = verify(loaded, &options);
    let status = Status::from(verification.outcome());
    let failure =
        |worse: Status, why: String| Failure::new(status.max(worse), format!("{shown}: {why}"));
    let report = match verification.simulation() {
        SimulationOutcome::Ran { report, .. } => report,
        SimulationOutcome::Skipped { reason } => {
            let why = format!("no utilisation to draw: the simulation did not run ({reason})");
            return Err(failure(Status::Rejected, why));
        }
        refused @ SimulationOutcome::OverLimit { .. } => {
            let reason = refused.not_run_reason().unwrap_or_default();
            return Err(failure(
                Status::Input,
                format!("no utilisation to draw: {reason}"),
            ));
        }
    };
    let title = format!("link utilisation — {name} ({shown})");
    let svg =
        utilisation_svg(report, &title).map_err(|e| failure(Status::Rejected, e.to_string()))?;
    Ok(Picture { svg, status })
}

/// The picture of the schedule `source` (the text of `file`), replayed on its
/// `network:`; an invalid schedule is not drawn (status 1 with its violations).
pub fn render_schedule(file: &Path, source: &str, max_columns: usize) -> Result<Picture, Failure> {
    let shown = file.display().to_string();
    let mut schedule = parse(source)
        .map_err(|e| Failure::input(e.kind.to_string()).shown_as(e.render(&shown, source)))?;
    // A schedule's `edges FILE` is relative to the schedule (docs/networks.md).
    let here = file.parent().unwrap_or(Path::new(""));
    let Some(name) = schedule.network.take().map(|n| n.relative_to(here)) else {
        return Err(Failure::input(format!(
            "{shown}: the schedule says no `network:` (`simulate --network` can supply one; `render` draws only what the file says)"
        )));
    };
    let graph = name
        .build()
        .map_err(|e| Failure::input(format!("{shown}: network {name}: {e}")))?;
    let report = replay(&schedule, &graph, &ReplayOptions::default())
        .map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    let verdict = judge(&report, None, None);
    if !verdict.valid() {
        let mut reasons = String::new();
        violation_lines(&report, "  error: ", SHOWN_VIOLATIONS, &mut reasons);
        let message = format!(
            "{shown}: the schedule is INVALID ({} violations), so it is not drawn",
            verdict.violations()
        );
        let shown_as = format!("error: {message}\n{reasons}");
        return Err(Failure::new(Status::Rejected, message).shown_as(shown_as));
    }
    let options = ScheduleOptions {
        max_columns,
        title: format!("schedule on {name} — {shown}"),
        ..ScheduleOptions::default()
    };
    let svg = schedule_svg(&schedule, &graph, &report, &verdict, &options)
        .map_err(|e| Failure::input(format!("{shown}: {e}")))?;
    Ok(Picture {
        svg,
        status: Status::Ok,
    })
}
