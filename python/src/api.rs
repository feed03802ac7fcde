//! The functions of `txverify._txverify`. Each returns what the command line's
//! `--format json` and text reports hold, built by the same library calls:
//! `(json, text, exit status)`, the JSON following docs/json.md.

use crate::args::{self, Arg};
use crate::run::{Fail, call};
use pyo3::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use txverify_clients::bounds::lp::{LpCertificate, parse_certificate, verify_certificate};
use txverify_clients::check::certified::CertificateLookup;
use txverify_clients::msccl;
use txverify_clients::render::ColourBy;
use txverify_clients::render::picture::{RenderRequest, TableView, render_source};
use txverify_clients::report::collective_search::search_collective;
use txverify_clients::report::network_search::search_network;
use txverify_clients::report::network_search::write::write_output;
use txverify_clients::report::schedule::{
    ScheduleRequest, refuse_schedule_options, simulate_schedule,
};
use txverify_clients::report::schedule_request::{
    ScheduleSearchArgs, ScheduleSearchRequest, SearchOption,
};
use txverify_clients::report::single::{self, Emit, SourceCheck, check_source, simulate_table};
use txverify_clients::report::{Status, read_text};
use txverify_clients::timed::TimingRequest;
use txverify_core::format::line_col;
use txverify_core::group::EnumerationLimits;
use txverify_core::load::{LoadOptions, NetworkSpec, Reader, detect, load};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::format::is_schedule;
use txverify_core::schedule::{parse, write_json, write_text};
use txverify_search::SolverChoice;

/// A report: its JSON (one object), its text, and the exit status the
/// command line would give.
type Reported = (String, String, u8);

/// A source as given: its text (a str or bytes), or a file to read.
enum Given {
    Text(String),
    Path(PathBuf),
}

impl Given {
    /// `text=` or `path=`, exactly one of them (`txverify._source` decides).
    fn of(text: &Arg<'_>, path: &Arg<'_>) -> Result<Given, Fail> {
        match (args::source_text(text, "text")?, args::path(path, "path")?) {
            (Some(text), None) => Ok(Given::Text(text)),
            (None, Some(path)) => Ok(Given::Path(path)),
            _ => Err(Fail::input("give a text or a path, not both", None, None)),
        }
    }

    /// How reports name it (the path as given, or `<string>`), and its text.
    fn read(self) -> Result<(String, String), Fail> {
        match self {
            Given::Text(text) => Ok(("<string>".to_string(), text)),
            Given::Path(path) => {
                let shown = path.display().to_string();
                read_text(&path)
                    .map(|text| (shown.clone(), text))
                    .map_err(|e| {
                        Fail::input(format!("cannot read {shown}: {e}"), Some(&shown), None)
                    })
            }
        }
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
#[pyo3(signature = (text=None, path=None, max_order=None, simulate=None,
                    max_simulation_steps=None))]
pub fn check_table<'py>(
    py: Python<'py>,
    text: Arg<'py>,
    path: Arg<'py>,
    max_order: Arg<'py>,
    simulate: Arg<'py>,
    max_simulation_steps: Arg<'py>,
) -> PyResult<(Reported, Option<String>)> {
    call(py, None, || {
        let given = Given::of(&text, &path)?;
        let max_order = args::whole(&max_order, "max_order")?.unwrap_or(2_000_000);
        let simulate = args::flag(&simulate, "simulate")?.unwrap_or(true);
        let max_simulation_steps = args::whole(&max_simulation_steps, "max_simulation_steps")?
            .unwrap_or(txverify_clients::simulate::MAX_WORK);
        Ok(move || check_table_work(given, max_order, simulate, max_simulation_steps))
    })
}

/// `check_table`'s work, its arguments read. A table's report comes with its
/// `violations` apart (the JSON text of the array), so that Python parses
/// them only when they are asked for: an invalid table can name millions.
fn check_table_work(
    given: Given,
    max_order: usize,
    simulate: bool,
    max_simulation_steps: u64,
) -> Result<(Reported, Option<String>), Fail> {
    // A `certificates:` path is relative to the file's directory (to the
    // current one for text).
    let path_dir = match &given {
        Given::Path(path) => path.parent().map(PathBuf::from),
        Given::Text(_) => None,
    };
    let (shown, source) = given.read()?;
    let (load, verify) = single::check_options(max_order, !simulate, max_simulation_steps);
    let lookup = CertificateLookup {
        file_dir: path_dir.as_deref(),
        proofs: None,
    };
    match check_source(&shown, source, &load, &verify, &lookup) {
        SourceCheck::Msccl(source) => Ok((msccl_report(&shown, &source, None)?, None)),
        SourceCheck::Failed(failure) => Err(Fail::of(&failure, Some(&shown))),
        SourceCheck::Report(report) => {
            let status = report.status().code();
            let (json, violations) = report.to_json_parts(status).map_err(|e| Fail {
                status: Status::Internal,
                message: format!("{shown}: cannot write the JSON report (a bug): {e}"),
                file: Some(shown.clone()),
                at: None,
            })?;
            Ok(((json, report.to_text(), status), Some(violations)))
        }
    }
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
#[pyo3(signature = (text=None, path=None, network=None, alpha=None, beta=None, link_table=None))]
#[allow(clippy::too_many_arguments)]
pub fn check_msccl<'py>(
    py: Python<'py>,
    text: Arg<'py>,
    path: Arg<'py>,
    network: Arg<'py>,
    alpha: Arg<'py>,
    beta: Arg<'py>,
    link_table: Arg<'py>,
) -> PyResult<Reported> {
    call(py, None, || {
        let given = Given::of(&text, &path)?;
        let network = args::text(&network, "network")?;
        let timing = Timing::of(&alpha, &beta, &link_table)?;
        Ok(move || check_msccl_work(given, network, &timing))
    })
}

/// `--alpha A --beta B --link-table FILE`: the timed replay's link times.
struct Timing {
    alpha: Option<f64>,
    beta: Option<f64>,
    link_table: Option<PathBuf>,
}

impl Timing {
    fn of(alpha: &Arg<'_>, beta: &Arg<'_>, link_table: &Arg<'_>) -> Result<Timing, Fail> {
        Ok(Timing {
            alpha: args::number(alpha, "alpha")?,
            beta: args::number(beta, "beta")?,
            link_table: args::path(link_table, "link_table")?,
        })
    }

    fn request(&self) -> TimingRequest<'_> {
        TimingRequest {
            alpha: self.alpha,
            beta: self.beta,
            link_table: self.link_table.as_deref(),
        }
    }
}

/// `check_msccl`'s work, its arguments read.
fn check_msccl_work(
    given: Given,
    network: Option<String>,
    timing: &Timing,
) -> Result<Reported, Fail> {
    let (shown, source) = given.read()?;
    let graph = match network.as_deref().map(network_spec).transpose()? {
        Some(spec) => Some(
            spec.graph(&LoadOptions::default())
                .map_err(|e| Fail::input(format!("network: {e}"), None, None))?,
        ),
        None => None,
    };
    if !timing.request().asked() {
        return msccl_report(&shown, &source, graph.as_ref());
    }
    // As `check PROGRAM --network NET --alpha A …`: the report and its timed replay.
    let Some(graph) = graph else {
        let message = "alpha, beta and link_table need a network";
        return Err(Fail::input(message, Some(&shown), None));
    };
    match msccl::check_asked(&source, Some(&graph), &timing.request()) {
        Err(e) => Err(Fail::input(e.to_string(), Some(&shown), None)),
        Ok(Err(e)) => {
            let at = (e.pos.line as usize, e.pos.col as usize);
            Err(Fail::input(e.message, Some(&shown), Some(at)))
        }
        Ok(Ok((check, timed))) => {
            let status = txverify_clients::batch::msccl_status(&check).code();
            let json = msccl::report::json_timed(&shown, &check, status, timed.as_ref());
            let text = msccl::report::text_timed(&shown, &check, timed.as_ref());
            Ok((json.to_string(), text, status))
        }
    }
}

/// `bounds --network NET [--ports K] [--lp-certificate FILE]`: the report,
/// and with `lp` the LP bound's certificate (schema txverify-lp-bound/1) as
/// `bounds --lp-certificate` writes it, when the network has one.
#[pyfunction]
#[pyo3(signature = (network, ports=None, lp=None))]
pub fn bounds<'py>(
    py: Python<'py>,
    network: Bound<'py, PyAny>,
    ports: Arg<'py>,
    lp: Arg<'py>,
) -> PyResult<(String, String, u8, Option<String>)> {
    call(py, None, || {
        let network = args::required_text(&network, "network")?;
        let ports = args::whole::<u64>(&ports, "ports")?.unwrap_or(1);
        let lp = args::flag(&lp, "lp")?.unwrap_or(false);
        Ok(move || bounds_work(&network, ports, lp))
    })
}

/// `bounds`' work, its arguments read.
fn bounds_work(
    network: &str,
    ports: u64,
    lp: bool,
) -> Result<(String, String, u8, Option<String>), Fail> {
    let spec = network_spec(network)?;
    let shown = spec.to_string();
    let fail = |message: String| Fail::input(message, Some(&shown), None);
    let name = spec.name().map_err(|e| fail(e.to_string()))?;
    // The command line's report: the LP bound included.
    let options = txverify_core::bounds::lp::LpOptions::default();
    let words = name.to_string();
    let (report, graph, solution) =
        txverify_clients::bounds::network_report_with_lp(&words, ports, &options, lp)
            .map_err(|e| fail(e.to_string()))?;
    let certificate = match solution.filter(|_| lp) {
        Some(s) => Some(json_text(&LpCertificate::of(&words, &graph, &s))?),
        None => None,
    };
    let status = report.exit_status();
    Ok((
        json_text(&report)?,
        report.text().to_string(),
        status.code(),
        certificate,
    ))
}

/// `verify-bound --network NET FILE`: the LP bound a certificate (its text
/// or its file) proves on the network, recomputed.
#[pyfunction]
#[pyo3(signature = (network, text=None, path=None))]
pub fn verify_bound<'py>(
    py: Python<'py>,
    network: Bound<'py, PyAny>,
    text: Arg<'py>,
    path: Arg<'py>,
) -> PyResult<Reported> {
    call(py, None, || {
        let given = Given::of(&text, &path)?;
        let network = args::required_text(&network, "network")?;
        Ok(move || {
            let (shown, source) = given.read()?;
            let spec = network_spec(&network)?;
            let on = spec.to_string();
            let graph = spec
                .graph(&LoadOptions::default())
                .map_err(|e| Fail::input(format!("{on}: {e}"), None, None))?;
            let report = parse_certificate(&shown, &source)
                .and_then(|c| verify_certificate(&shown, c, &on, &graph))
                .map_err(|e| Fail::input(e.to_string(), Some(&shown), None))?;
            let status = Status::of_validity(report.accepted);
            Ok((json_text(&report)?, report.text(), status.code()))
        })
    })
}

/// A search's report, with the schedule found (schema txverify-schedule/1)
/// when there is one.
type Searched = (String, String, u8, Option<String>);

/// `search --network NET [--collective X ...]`, stopped by Ctrl-C (the flag
/// the binary's SIGINT handler sets). The options are read here and checked
/// by the library's `ScheduleSearchRequest::try_from`, as the command line's
/// are.
#[pyfunction]
#[pyo3(signature = (network, collective=None, chunks=None, root=None, ports=None,
                    time_limit=None, deadline=None, heuristic=None, slack=None,
                    any_length=None, time=None, max_time=None, max_variables=None,
                    certificate=None, ascending=None, solver=None))]
#[allow(clippy::too_many_arguments)]
pub fn search<'py>(
    py: Python<'py>,
    network: Bound<'py, PyAny>,
    collective: Arg<'py>,
    chunks: Arg<'py>,
    root: Arg<'py>,
    ports: Arg<'py>,
    time_limit: Arg<'py>,
    deadline: Arg<'py>,
    heuristic: Arg<'py>,
    slack: Arg<'py>,
    any_length: Arg<'py>,
    time: Arg<'py>,
    max_time: Arg<'py>,
    max_variables: Arg<'py>,
    certificate: Arg<'py>,
    ascending: Arg<'py>,
    solver: Arg<'py>,
) -> PyResult<Searched> {
    let stop = Arc::new(AtomicBool::new(false));
    let interrupt = Arc::clone(&stop);
    call(py, Some(&stop), || {
        let bad = |message: String| Fail::input(message, None, None);
        let words = args::required_text(&network, "network")?;
        let network = words
            .parse::<NetworkName>()
            .map_err(|e| bad(format!("`{words}`: {e}")))?;
        let raw = ScheduleSearchArgs {
            network,
            words,
            collective: args::text(&collective, "collective")?,
            chunks: args::whole::<u32>(&chunks, "chunks")?.map(|c| c.to_string()),
            root: args::whole::<u32>(&root, "root")?,
            ports: ports_of(&ports)?,
            solver: solver_named(args::text(&solver, "solver")?.as_deref())?,
            time: args::whole::<usize>(&time, "time")?,
            max_time: args::whole::<usize>(&max_time, "max_time")?,
            max_variables: args::whole::<u64>(&max_variables, "max_variables")?,
            time_limit: args::number(&time_limit, "time_limit")?,
            deadline: args::number(&deadline, "deadline")?,
            output: None,
            certificate: args::path(&certificate, "certificate")?,
            heuristic: args::flag(&heuristic, "heuristic")?.unwrap_or(false),
            descending: false,
            ascending: args::flag(&ascending, "ascending")?.unwrap_or(false),
            any_length: args::flag(&any_length, "any_length")?.unwrap_or(false),
            slack: args::whole::<u64>(&slack, "slack")?.unwrap_or(0),
            // The LP bound is stated and followed, as the command line's default.
            no_lp: false,
            others: vec![],
            interrupt: Some(interrupt),
            // The schedule is read from the report: held whole, never streamed.
            keep_schedule: true,
            names: option_name,
        };
        let request = ScheduleSearchRequest::try_from(raw).map_err(|e| bad(e.to_string()))?;
        Ok(move || search_work(&request))
    })
}

/// `search`'s work, its request checked.
fn search_work(request: &ScheduleSearchRequest) -> Result<Searched, Fail> {
    let report = match request {
        ScheduleSearchRequest::TotalExchange(request) => search_network(request, &mut |_| {})
            .map_err(|e| Fail::of(&e.failure, Some(&e.network)))?,
        ScheduleSearchRequest::Collective(request) => {
            search_collective(request, &mut |_| {}).map_err(|f| Fail::of(&f, None))?
        }
    };
    let found = report.json()["found"] == true;
    let schedule = report.schedule().map(schedule_json).transpose()?;
    // The very schedule the verdict was reached on; a report that found
    // one without holding it would hand over an empty schedule.
    if found != schedule.is_some() {
        return Err(Fail {
            status: Status::Internal,
            message: "the search's report and the schedule it holds disagree (a bug)".to_string(),
            file: None,
            at: None,
        });
    }
    let json = json_text(report.json())?;
    Ok((
        json,
        report.text().to_string(),
        report.status().code(),
        schedule,
    ))
}

/// A schedule as `search -o` writes it (schema txverify-schedule/1).
fn schedule_json(schedule: &txverify_core::schedule::Schedule) -> Result<String, Fail> {
    let mut out = Vec::new();
    write_json(schedule, &mut out).map_err(|e| Fail::input(e.to_string(), None, None))?;
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// How the Python API names each option of a search in its messages.
fn option_name(option: SearchOption) -> &'static str {
    use SearchOption as O;
    match option {
        O::Network => "network",
        O::Collective => "collective",
        O::Chunks => "chunks",
        O::Root => "root",
        O::Ports => "ports",
        O::Time => "time",
        O::MaxTime => "max_time",
        O::TimeLimit => "time_limit",
        O::Deadline => "deadline",
        O::Certificate => "certificate",
        O::Heuristic => "heuristic",
        O::Descending => "descending",
        O::Ascending => "ascending",
        O::AnyLength => "any_length",
        O::Slack => "slack",
        O::NoLp => "lp",
        O::Symmetry => "symmetry",
        O::BreakSymmetry => "break_symmetry",
        O::FreeTail => "free_tail",
        O::SplitAlong => "split_along",
        O::Cubes => "cubes",
        O::Dimacs => "dimacs",
        O::Model => "model",
        O::Merge => "merge",
        O::SolverCmd => "solver_cmd",
        O::FormatHtml => "format html",
    }
}

/// `--ports K` or `--ports all`: K may be given as an int.
fn ports_of(ports: &Arg<'_>) -> Result<Option<String>, Fail> {
    match args::whole::<u64>(ports, "ports") {
        Ok(k) => Ok(k.map(|k| k.to_string())),
        Err(_) => args::text(ports, "ports").map_err(|_| {
            Fail::input(
                "argument `ports`: \"all\" or a whole number is needed",
                None,
                None,
            )
        }),
    }
}

/// The solver named `cadical` (the default) or `varisat`.
fn solver_named(name: Option<&str>) -> Result<SolverChoice, Fail> {
    match name.unwrap_or("cadical") {
        "cadical" => Ok(SolverChoice::Cadical),
        "varisat" => Ok(SolverChoice::Varisat),
        other => Err(Fail::input(
            format!("solver `{other}`: cadical or varisat"),
            None,
            None,
        )),
    }
}

/// `simulate FILE [--network NET] [--ports K]`: a schedule replayed, or a
/// table played out on its network.
#[pyfunction]
#[pyo3(signature = (text=None, path=None, network=None, ports=None, all=None,
                    alpha=None, beta=None, link_table=None))]
#[allow(clippy::too_many_arguments)]
pub fn simulate<'py>(
    py: Python<'py>,
    text: Arg<'py>,
    path: Arg<'py>,
    network: Arg<'py>,
    ports: Arg<'py>,
    all: Arg<'py>,
    alpha: Arg<'py>,
    beta: Arg<'py>,
    link_table: Arg<'py>,
) -> PyResult<Reported> {
    call(py, None, || {
        let given = Given::of(&text, &path)?;
        let network = args::text(&network, "network")?;
        let ports = ports_of(&ports)?;
        let all = args::flag(&all, "all")?.unwrap_or(false);
        let timing = Timing::of(&alpha, &beta, &link_table)?;
        Ok(move || simulate_work(given, network, ports, all, &timing))
    })
}

/// `simulate`'s work, its arguments read.
fn simulate_work(
    given: Given,
    network: Option<String>,
    ports: Option<String>,
    all: bool,
    timing: &Timing,
) -> Result<Reported, Fail> {
    let (shown, source) = given.read()?;
    if let Some(line) = detect(&source).refusal(Reader::Simulate, &shown) {
        return Err(Fail::input(line, Some(&shown), None));
    }
    if !is_schedule(&source) {
        let timing = timing
            .request()
            .asked()
            .then_some("alpha, beta and link_table");
        let placing = (network.is_some() || ports.is_some()).then_some("network and ports");
        refuse_schedule_options(&format!("{shown}: "), timing, placing)
            .map_err(|e| Fail::input(e.to_string(), Some(&shown), None))?;
        return table_simulation(&shown, &source);
    }
    let spec = network.as_deref().map(network_spec).transpose()?;
    let request = ScheduleRequest {
        network: spec.as_ref(),
        ports: ports.as_deref(),
        trace: false,
        all,
        timing: timing.request(),
    };
    match simulate_schedule(Path::new(&shown), &source, &request) {
        Ok(report) => Ok((
            json_text(&report)?,
            report.text().to_string(),
            report.status().code(),
        )),
        Err(failure) => Err(Fail::of(&failure, Some(&shown))),
    }
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

/// A schedule as the MSCCL program `name` (docs/export.md): a total exchange
/// as an all-to-all, a collective as the collective of that name, checked
/// as `export --format msccl` checks it.
#[pyfunction]
pub fn schedule_msccl_xml<'py>(
    py: Python<'py>,
    schedule: Bound<'py, PyAny>,
    name: Bound<'py, PyAny>,
) -> PyResult<String> {
    call(py, None, || {
        let schedule = args::required_text(&schedule, "schedule")?;
        let name = args::required_text(&name, "name")?;
        Ok(move || {
            let schedule = schedule_of(&schedule)?;
            let program = txverify_clients::export::schedule::program_of(&schedule, &name)
                .map_err(|e| Fail::input(e.to_string(), None, None))?;
            let mut out = Vec::new();
            program
                .write_xml(&mut out)
                .map_err(|e| Fail::input(e.to_string(), None, None))?;
            Ok(String::from_utf8_lossy(&out).into_owned())
        })
    })
}

/// A schedule in the text format (docs/schedule.md).
#[pyfunction]
pub fn schedule_text<'py>(py: Python<'py>, schedule: Bound<'py, PyAny>) -> PyResult<String> {
    call(py, None, || {
        let schedule = args::required_text(&schedule, "schedule")?;
        Ok(move || {
            let schedule = schedule_of(&schedule)?;
            let mut out = Vec::new();
            write_text(&schedule, &mut out).map_err(|e| Fail::input(e.to_string(), None, None))?;
            Ok(String::from_utf8_lossy(&out).into_owned())
        })
    })
}

/// A schedule written to `path` as `search -o` writes it (the same writer):
/// JSON for a `.json` name, else the text format, whole or not at all, an
/// edge list named so that the file finds it.
#[pyfunction]
pub fn schedule_save<'py>(
    py: Python<'py>,
    schedule: Bound<'py, PyAny>,
    path: Bound<'py, PyAny>,
) -> PyResult<()> {
    call(py, None, || {
        let schedule = args::required_text(&schedule, "schedule")?;
        let path = args::path(&Some(path), "path")?
            .ok_or_else(|| Fail::input("argument `path` is needed", None, None))?;
        Ok(move || {
            let schedule = schedule_of(&schedule)?;
            let shown = path.display().to_string();
            write_output(&path, &schedule)
                .map_err(|message| Fail::input(message, Some(&shown), None))
        })
    })
}

/// The SVG picture of the cut (A, V∖A) of `network`, A given by its nodes:
/// what a bounds report's `cut_bound.side` names, drawn by the library.
#[pyfunction]
pub fn cut_svg<'py>(
    py: Python<'py>,
    network: Bound<'py, PyAny>,
    side: Vec<u32>,
    title: Bound<'py, PyAny>,
) -> PyResult<String> {
    call(py, None, || {
        let network = args::required_text(&network, "network")?;
        let title = args::required_text(&title, "title")?;
        Ok(move || {
            let spec = network_spec(&network)?;
            let shown = spec.to_string();
            let graph = spec
                .graph(&LoadOptions::default())
                .map_err(|e| Fail::input(e.to_string(), Some(&shown), None))?;
            txverify_clients::render::cut_svg(&graph, &side, &title)
                .map_err(|e| Fail::input(e.to_string(), Some(&shown), None))
        })
    })
}

/// Panics, on the worker thread or (`on_caller_thread`) while the arguments
/// are read: the tests' way to see that a panic anywhere in an entry point
/// becomes `txverify.InternalError` and leaves the interpreter running.
#[pyfunction]
#[pyo3(signature = (on_caller_thread=None))]
pub fn panic_for_test<'py>(py: Python<'py>, on_caller_thread: Arg<'py>) -> PyResult<()> {
    call(py, None, || {
        if args::flag(&on_caller_thread, "on_caller_thread")?.unwrap_or(false) {
            panic!("a panic asked for by the tests, on the caller's thread");
        }
        Ok(|| -> Result<(), Fail> { panic!("a panic asked for by the tests") })
    })
}

/// `render FILE [--by length|link] [--utilisation] [--max-columns N]
/// [--max-order N]`: the SVG picture of a table or of a schedule (replayed
/// first), drawn by the library's `render_source`, and the file's status
/// (1 for an invalid table, drawn with its violations marked).
#[pyfunction]
#[pyo3(signature = (text=None, path=None, by=None, utilisation=None, max_columns=None,
                    max_order=None))]
pub fn render<'py>(
    py: Python<'py>,
    text: Arg<'py>,
    path: Arg<'py>,
    by: Arg<'py>,
    utilisation: Arg<'py>,
    max_columns: Arg<'py>,
    max_order: Arg<'py>,
) -> PyResult<(String, u8)> {
    call(py, None, || {
        let given = Given::of(&text, &path)?;
        let by = match args::text(&by, "by")?.as_deref() {
            None | Some("length") => ColourBy::Length,
            Some("link") => ColourBy::Link,
            Some(other) => {
                let message =
                    format!("argument `by` is {other:?}: \"length\" or \"link\" is needed");
                return Err(Fail::input(message, None, None));
            }
        };
        let view = if args::flag(&utilisation, "utilisation")?.unwrap_or(false) {
            TableView::Utilisation
        } else {
            TableView::Table(by)
        };
        let max_columns = args::whole::<usize>(&max_columns, "max_columns")?.unwrap_or(1024);
        if max_columns == 0 {
            let message = "argument `max_columns` is 0: at least 1 is needed";
            return Err(Fail::input(message, None, None));
        }
        let max_order = args::whole::<usize>(&max_order, "max_order")?.unwrap_or(2_000_000);
        Ok(move || {
            let file = match &given {
                Given::Path(path) => path.clone(),
                Given::Text(_) => PathBuf::from("<string>"),
            };
            let (shown, source) = given.read()?;
            let request = RenderRequest {
                view,
                max_columns,
                load: LoadOptions {
                    limits: EnumerationLimits {
                        max_order,
                        ..EnumerationLimits::default()
                    },
                },
            };
            let picture =
                render_source(&file, &source, &request).map_err(|e| Fail::of(&e, Some(&shown)))?;
            Ok((picture.svg, picture.status.code()))
        })
    })
}
