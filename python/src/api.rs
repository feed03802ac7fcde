//! The functions of `txverify._txverify`. Each returns what the command line's
//! `--format json` and text reports hold, built by the same library calls:
//! `(json, text, exit status)`, the JSON following docs/json.md.

use crate::run::{Fail, run};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use txverify_clients::msccl;
use txverify_clients::report::network_search::{NetworkSearchRequest, search_network};
use txverify_clients::report::schedule::{ScheduleRequest, simulate_schedule};
use txverify_clients::report::single::{self, Emit, SourceCheck, check_source, simulate_table};
use txverify_clients::report::{Status, read_text};
use txverify_core::format::line_col;
use txverify_core::load::{LoadOptions, NetworkSpec, Reader, detect, load};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::format::is_schedule;
use txverify_core::schedule::{parse, write_json, write_text};
use txverify_search::SolverChoice;
use txverify_search::schedule::PathClass;
use txverify_search::seconds::Seconds;

/// A report: its JSON (one object), its text, and the exit status the
/// command line would give.
type Reported = (String, String, u8);

/// What `text` or `path` holds, and how reports name it (the path as given,
/// or `<string>`).
fn source(text: Option<String>, path: Option<PathBuf>) -> Result<(String, String), Fail> {
    match (text, path) {
        (Some(text), None) => Ok(("<string>".to_string(), text)),
        (None, Some(path)) => {
            let shown = path.display().to_string();
            read_text(&path)
                .map(|text| (shown.clone(), text))
                .map_err(|e| Fail::input(format!("cannot read {shown}: {e}"), Some(&shown), None))
        }
        _ => Err(Fail::input("give a text or a path, not both", None, None)),
    }
}

/// A network as `--network` takes it: a name, or a file (edge list or `.tbl`).
fn network_spec(words: &str) -> Result<NetworkSpec, Fail> {
    words
        .parse::<NetworkSpec>()
        .map_err(|e| Fail::input(format!("network `{words}`: {e}"), None, None))
}

fn json_text(value: &impl serde::Serialize) -> Result<String, Fail> {
    serde_json::to_string(value).map_err(|e| Fail {
        status: Status::Internal,
        message: format!("cannot write the JSON report (a bug): {e}"),
        file: None,
        at: None,
    })
}

/// `check FILE` on a table (or, told from its text, an MSCCL program).
#[pyfunction]
#[pyo3(signature = (text=None, path=None, max_order=2_000_000, simulate=true,
                    max_simulation_steps=txverify_clients::simulate::MAX_WORK))]
pub fn check_table(
    py: Python<'_>,
    text: Option<String>,
    path: Option<PathBuf>,
    max_order: usize,
    simulate: bool,
    max_simulation_steps: u64,
) -> PyResult<Reported> {
    run(py, None, move || {
        let (shown, source) = source(text, path)?;
        let (load, verify) = single::check_options(max_order, !simulate, max_simulation_steps);
        match check_source(&shown, source, &load, &verify) {
            SourceCheck::Msccl(source) => msccl_report(&shown, &source, None),
            SourceCheck::Failed(failure) => Err(Fail::of(&failure, Some(&shown))),
            SourceCheck::Report(report) => {
                let status = report.status().code();
                let json = report.to_json(status).map_err(|e| Fail {
                    status: Status::Internal,
                    message: format!("{shown}: cannot write the JSON report (a bug): {e}"),
                    file: Some(shown.clone()),
                    at: None,
                })?;
                Ok((json, report.to_text(), status))
            }
        }
    })
}

/// An MSCCL program's report on `network`, if given; an unreadable program
/// is an input error at its line and column.
fn msccl_report(shown: &str, source: &str, network: Option<&Graph>) -> Result<Reported, Fail> {
    match msccl::check_on(source, network) {
        Ok(check) => {
            // The status `check` gives a program in a collection (docs/msccl.md).
            let status = txverify_clients::batch::msccl_status(&check).code();
            let json = msccl::report::json(shown, &check, status).to_string();
            Ok((json, msccl::report::text(shown, &check), status))
        }
        Err(e) => {
            let at = (e.pos.line as usize, e.pos.col as usize);
            Err(Fail::input(e.message, Some(shown), Some(at)))
        }
    }
}

/// `check PROGRAM [--network NET]` on an MSCCL program.
#[pyfunction]
#[pyo3(signature = (text=None, path=None, network=None))]
pub fn check_msccl(
    py: Python<'_>,
    text: Option<String>,
    path: Option<PathBuf>,
    network: Option<String>,
) -> PyResult<Reported> {
    run(py, None, move || {
        let (shown, source) = source(text, path)?;
        let graph = match network.as_deref().map(network_spec).transpose()? {
            Some(spec) => Some(
                spec.graph(&LoadOptions::default())
                    .map_err(|e| Fail::input(format!("network: {e}"), None, None))?,
            ),
            None => None,
        };
        msccl_report(&shown, &source, graph.as_ref())
    })
}

/// `bounds --network NET [--ports K]`.
#[pyfunction]
#[pyo3(signature = (network, ports=1))]
pub fn bounds(py: Python<'_>, network: String, ports: u64) -> PyResult<Reported> {
    run(py, None, move || {
        let spec = network_spec(&network)?;
        let shown = spec.to_string();
        let fail = |message: String| Fail::input(message, Some(&shown), None);
        let name = spec.name().map_err(|e| fail(e.to_string()))?;
        // The command line's report: the LP bound included.
        let options = txverify_core::bounds::lp::LpOptions::default();
        let (report, _, _) =
            txverify_clients::bounds::network_report_with_lp(&name.to_string(), ports, &options)
                .map_err(|e| fail(e.to_string()))?;
        // As the command line: statuses by search and by formula that differ are a bug.
        let status = if report.statuses_agree == Some(false) {
            Status::Internal
        } else {
            Status::Ok
        };
        Ok((
            json_text(&report)?,
            report.text().to_string(),
            status.code(),
        ))
    })
}

/// A search's report, with the schedule found (schema txverify-schedule/1)
/// when there is one.
type Searched = (String, String, u8, Option<String>);

/// `search --network NET`, stopped by Ctrl-C (the flag the binary's SIGINT
/// handler sets).
#[pyfunction]
#[pyo3(signature = (network, time_limit=None, deadline=None, heuristic=false, slack=0,
                    any_length=false, time=None, max_time=None,
                    max_variables=txverify_search::schedule::encode::MAX_VARIABLES,
                    certificate=None, ascending=false, solver="cadical"))]
#[allow(clippy::too_many_arguments)]
pub fn search(
    py: Python<'_>,
    network: String,
    time_limit: Option<f64>,
    deadline: Option<f64>,
    heuristic: bool,
    slack: u32,
    any_length: bool,
    time: Option<usize>,
    max_time: Option<usize>,
    max_variables: u64,
    certificate: Option<PathBuf>,
    ascending: bool,
    solver: &str,
) -> PyResult<Searched> {
    let bad = |message: String| Fail::input(message, None, None);
    let stop = Arc::new(AtomicBool::new(false));
    let request = (|| {
        let name = network
            .parse::<NetworkName>()
            .map_err(|e| bad(format!("`{network}`: {e}")))?;
        let sat_only = [
            (time.is_some(), "time"),
            (max_time.is_some(), "max_time"),
            (certificate.is_some(), "certificate"),
            (any_length, "any_length"),
            (slack > 0, "slack"),
            (time_limit.is_some(), "time_limit"),
            (deadline.is_some(), "deadline"),
            (ascending, "ascending"),
        ];
        if heuristic && let Some((_, arg)) = sat_only.iter().find(|(given, _)| *given) {
            return Err(bad(format!(
                "{arg} is for the SAT search, not with heuristic"
            )));
        }
        if any_length && slack > 0 {
            return Err(bad("any_length and slack: give one".to_string()));
        }
        let solver = match solver {
            "cadical" => SolverChoice::Cadical,
            "varisat" => SolverChoice::Varisat,
            other => return Err(bad(format!("solver `{other}`: cadical or varisat"))),
        };
        // The command line's reader and range (docs/limits.md).
        let seconds = |name: &str, given: Option<f64>| {
            given
                .map(|s| Seconds::new(s).map(Seconds::duration))
                .transpose()
                .map_err(|e| bad(format!("{name}: {e}")))
        };
        let time_limit = seconds("time_limit", time_limit)?;
        let deadline = seconds("deadline", deadline)?;
        Ok(NetworkSearchRequest {
            network: name,
            words: network.clone(),
            heuristic,
            paths: match (any_length, slack) {
                (true, _) => PathClass::Any,
                (false, 0) => PathClass::Shortest,
                (false, k) => PathClass::Slack(k),
            },
            solver,
            time,
            max_time,
            max_variables,
            time_limit,
            deadline,
            interrupt: Some(Arc::clone(&stop)),
            certificate,
            descending: !ascending,
            output: None,
        })
    })()
    .map_err(|fail| fail.into_py(py))?;
    run(py, Some(&stop), move || {
        let report = search_network(&request, &mut |_| {})
            .map_err(|e| Fail::of(&e.failure, Some(&e.network)))?;
        let schedule = match report.schedule() {
            Some(schedule) => {
                let mut out = Vec::new();
                write_json(schedule, &mut out).map_err(|e| bad(e.to_string()))?;
                Some(String::from_utf8_lossy(&out).into_owned())
            }
            None => None,
        };
        let json = json_text(report.json())?;
        Ok((
            json,
            report.text().to_string(),
            report.status().code(),
            schedule,
        ))
    })
}

/// `simulate FILE [--network NET] [--ports K]`: a schedule replayed, or a
/// table played out on its network.
#[pyfunction]
#[pyo3(signature = (text=None, path=None, network=None, ports=None, all=false))]
pub fn simulate(
    py: Python<'_>,
    text: Option<String>,
    path: Option<PathBuf>,
    network: Option<String>,
    ports: Option<String>,
    all: bool,
) -> PyResult<Reported> {
    run(py, None, move || {
        let (shown, source) = source(text, path)?;
        if let Some(line) = detect(&source).refusal(Reader::Simulate, &shown) {
            return Err(Fail::input(line, Some(&shown), None));
        }
        if !is_schedule(&source) {
            if network.is_some() || ports.is_some() {
                let message = format!("{shown}: network and ports apply to schedule files only");
                return Err(Fail::input(message, Some(&shown), None));
            }
            return table_simulation(&shown, &source);
        }
        let spec = network.as_deref().map(network_spec).transpose()?;
        let request = ScheduleRequest {
            network: spec.as_ref(),
            ports: ports.as_deref(),
            trace: false,
            all,
            timing: Default::default(),
        };
        match simulate_schedule(Path::new(&shown), &source, &request) {
            Ok(report) => Ok((
                json_text(&report)?,
                report.text().to_string(),
                report.status().code(),
            )),
            Err(failure) => Err(Fail::of(&failure, Some(&shown))),
        }
    })
}

/// `simulate TABLE`: its JSON and text reports, or why it could not run.
fn table_simulation(shown: &str, source: &str) -> Result<Reported, Fail> {
    let loaded = load(source, &LoadOptions::default()).map_err(|e| {
        let at = line_col(source, e.span().start);
        Fail::input(e.to_string(), Some(shown), Some(at))
    })?;
    let outcome = |format| simulate_table(shown, &loaded, false, format);
    let json = outcome(single::Format::Json);
    let out = |emits: &[Emit]| {
        emits.iter().find_map(|e| match e {
            Emit::Out(text) => Some(text.trim_end().to_string()),
            Emit::Err(_) => None,
        })
    };
    let Some(report) = out(&json.emits) else {
        // Stopped before a report (a defective link set, over the step limit, …).
        let (_, rest) = single::split_file_text(json.emits);
        let message = rest
            .iter()
            .map(|e| match e {
                Emit::Out(t) | Emit::Err(t) => t.trim_end().trim_start_matches("error: "),
            })
            .collect::<Vec<_>>()
            .join("; ");
        return Err(Fail {
            status: json.status,
            message,
            file: Some(shown.to_string()),
            at: None,
        });
    };
    let text = out(&outcome(single::Format::Text).emits).unwrap_or_default();
    Ok((report, text + "\n", json.status.code()))
}

/// A schedule (text or JSON) and its parse errors, placed.
fn schedule_of(text: &str) -> Result<txverify_core::schedule::Schedule, Fail> {
    parse(text).map_err(|e| {
        let at = Some((e.line, e.column));
        Fail::input(e.to_string(), Some("<schedule>"), at)
    })
}

/// A total-exchange schedule as the MSCCL all-to-all program `name`
/// (docs/export.md).
#[pyfunction]
pub fn schedule_msccl_xml(py: Python<'_>, schedule: String, name: String) -> PyResult<String> {
    run(py, None, move || {
        let schedule = schedule_of(&schedule)?;
        let program = txverify_clients::export::msccl::alltoall(&schedule, &name)
            .map_err(|e| Fail::input(e.to_string(), None, None))?;
        let mut out = Vec::new();
        program
            .write_xml(&mut out)
            .map_err(|e| Fail::input(e.to_string(), None, None))?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    })
}

/// A schedule in the text format (docs/schedule.md).
#[pyfunction]
pub fn schedule_text(py: Python<'_>, schedule: String) -> PyResult<String> {
    run(py, None, move || {
        let schedule = schedule_of(&schedule)?;
        let mut out = Vec::new();
        write_text(&schedule, &mut out).map_err(|e| Fail::input(e.to_string(), None, None))?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    })
}

/// Panics on the worker thread: the tests' way to see that a panic becomes
/// `txverify.InternalError` and leaves the interpreter running.
#[pyfunction]
pub fn panic_for_test(py: Python<'_>) -> PyResult<()> {
    run(py, None, || -> Result<(), Fail> {
        panic!("a panic asked for by the tests")
    })
}
