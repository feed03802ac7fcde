//! `search --network NET`: a total-exchange schedule on any network, by SAT
//! (the fewest steps, with certificates) or by the heuristic, and its report.
//!
//! Whatever is found is replayed and judged by [`txverify_core::verdict::judge`]
//! against the lower bound before anything is reported or written; optimality
//! beyond the bound is claimed only on certificates that the checker accepted
//! and that cover every schedule (any paths), by [`sched::optimal_by`].

use super::{Failure, Status};
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use txverify_core::bounds::general::graph_bounds;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{
    Ports, ReplayOptions, Schedule, TimedSend, replay, write_json, write_text,
};
use txverify_core::verdict::{NamedBound, ScheduleVerdict, judge};
use txverify_search::SolverChoice;
use txverify_search::schedule::{self as sched, PathClass, ScheduleSearch, ScheduleSearchOptions};

/// The JSON schema of `search --network --format json`.
pub const SCHEDULE_SEARCH_SCHEMA: &str = "txverify-schedule-search/1";

/// What `search --network` was asked, its arguments checked.
#[derive(Clone, Debug)]
pub struct NetworkSearchRequest {
    /// The network as named.
    pub network: NetworkName,
    /// The network as the command line spelled it.
    pub words: String,
    /// The heuristic instead of SAT.
    pub heuristic: bool,
    /// The paths the messages may take (SAT only).
    pub paths: PathClass,
    /// The solver for SAT.
    pub solver: SolverChoice,
    /// `--time T`: this time only.
    pub time: Option<usize>,
    /// `--max-time T`: the largest time tried.
    pub max_time: Option<usize>,
    /// The largest formula, in variables.
    pub max_variables: u64,
    /// The time limit of each solver call.
    pub time_limit: Option<Duration>,
    /// Where certificates go.
    pub certificate: Option<PathBuf>,
    /// Try the times from the largest down.
    pub descending: bool,
    /// `-o FILE`: where the schedule found is written.
    pub output: Option<PathBuf>,
}

/// Why `search --network` stopped without a report: the failure and the
/// network it names in its JSON object.
#[derive(Debug)]
pub struct NetworkSearchFailure {
    /// What went wrong, and its status.
    pub failure: Box<Failure>,
    /// The network as the error object names it.
    pub network: String,
}

/// What a run found, judged.
struct Judged {
    /// The schedule (its sends empty when it was streamed).
    schedule: Schedule,
    /// The number of sends.
    sends: u64,
    /// Already written to `-o` (streamed).
    written: bool,
    verdict: ScheduleVerdict,
    /// The heuristic found it (SAT found nothing faster).
    by_heuristic: bool,
}

/// The report of `search --network`: text and JSON, and its status.
pub struct NetworkSearchReport {
    text: String,
    json: Value,
    status: Status,
}

impl NetworkSearchReport {
    /// The report for people.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The report for programs (schema txverify-schedule-search/1, docs/json.md).
    pub fn json(&self) -> &Value {
        &self.json
    }

    /// 0 with a schedule, 4 when a limit ran out first, 1 when every `T`
    /// tried is infeasible.
    pub fn status(&self) -> Status {
        self.status
    }
}

type Outcome = Result<NetworkSearchReport, NetworkSearchFailure>;

fn failure(words: &str, status: Status, message: impl Into<String>) -> NetworkSearchFailure {
    NetworkSearchFailure {
        failure: Box::new(Failure::new(status, message)),
        network: words.trim().to_string(),
    }
}

/// Replays `sends` on `graph` and judges them against `bound`.
fn judged(
    network: &NetworkName,
    graph: &Graph,
    sends: Vec<TimedSend>,
    bound: &NamedBound,
) -> Result<Judged, String> {
    let schedule = sched::exchange_schedule(network.clone(), sends);
    let report = replay(&schedule, graph, &ReplayOptions { max_listed: 10 })
        .map_err(|e| format!("the schedule cannot be replayed: {e}"))?;
    let verdict = judge(&report, Some(bound.clone()), None);
    if !verdict.valid() || verdict.beats_bound() {
        return Err(format!(
            "internal error: the schedule found replays with {} violations (time {}, bound {})",
            verdict.violations(),
            verdict.time(),
            bound.value()
        ));
    }
    Ok(Judged {
        sends: schedule.sends.len() as u64,
        schedule,
        written: false,
        verdict,
        by_heuristic: false,
    })
}

/// Runs `search --network`; `progress` hears each time `T` tried.
pub fn search_network(request: &NetworkSearchRequest, progress: &mut dyn FnMut(usize)) -> Outcome {
    let started = Instant::now();
    let words = request.words.as_str();
    let fail = |message: String, status: Status| Err(failure(words, status, message));
    // Both the bound and any schedule are quadratic in the nodes: refused
    // from the name, before the network is built.
    if let Err(e) = crate::bounds::check_size(&request.network) {
        return fail(e.to_string(), Status::Input);
    }
    let graph = match request.network.build() {
        Ok(g) => g,
        Err(e) => return fail(format!("`{words}`: {e}"), Status::Input),
    };
    // Every message makes at least one send: a first bound on the sends,
    // before the distances are computed.
    let nodes = graph.nodes() as u64;
    // The heuristic alone streams its schedule and may hold more.
    let max_sends = if request.heuristic {
        sched::heuristic::MAX_PLANNED_SENDS
    } else {
        sched::heuristic::MAX_SENDS
    };
    if nodes * nodes.saturating_sub(1) > max_sends {
        return fail(
            format!(
                "`{words}`: a total exchange on {nodes} nodes makes at least {} sends, more than the limit of {}",
                nodes * (nodes - 1),
                max_sends
            ),
            Status::Input,
        );
    }
    let figures = graph_bounds(&graph, u64::MAX);
    // The all-port bound every command states for this graph (`total_exchange`'s).
    let bound = figures.bound_set(Ports::All).best().clone();
    if !request.heuristic {
        // The smallest formula tried is estimated first: refused before the
        // heuristic schedule or any clause is made.
        let time = request.time.unwrap_or(bound.value() as usize);
        if graph.nodes() > sched::encode::MAX_NODES {
            let e = sched::ExchangeEncodeError::TooLarge {
                nodes: graph.nodes(),
            };
            return fail(format!("`{words}`: {e}"), Status::Input);
        }
        let limit = request.max_variables;
        let estimate = sched::encode::estimate_variables(&graph, time, request.paths, limit);
        if estimate > limit {
            let e = sched::ExchangeEncodeError::OverLimit {
                time,
                estimate,
                limit,
            };
            return fail(format!("`{words}`: {e}"), Status::Input);
        }
    }
    if figures.total_status > max_sends {
        return fail(
            format!(
                "`{words}`: a total exchange on shortest paths makes {} sends, more than the limit of {}",
                figures.total_status, max_sends
            ),
            Status::Input,
        );
    }
    if request.heuristic {
        let header = sched::exchange_schedule(request.network.clone(), Vec::new());
        let output = request.output.as_deref();
        let header = match output.map(|path| for_output(path, &header)) {
            Some(Ok(named)) => named,
            Some(Err(message)) => return fail(message, Status::Input),
            None => header,
        };
        return match super::network_stream::heuristic(&graph, header, &bound, output) {
            Ok(streamed) => {
                let found = Judged {
                    schedule: streamed.header,
                    sends: streamed.sends,
                    written: true,
                    verdict: streamed.verdict,
                    by_heuristic: true,
                };
                report(request, &graph, &bound, Some(found), None, started)
            }
            Err(message) => fail(message, Status::Internal),
        };
    }
    let heuristic = sched::heuristic::list_schedule(&graph);
    let upper = heuristic.iter().map(|s| s.step as usize).max().unwrap_or(0);
    let from = request.time.unwrap_or(bound.value() as usize);
    let options = ScheduleSearchOptions {
        network: words.trim().to_string(),
        paths: request.paths,
        from,
        // The heuristic's schedule is kept when SAT finds nothing faster.
        to: request
            .time
            .or(request.max_time)
            .unwrap_or(upper.saturating_sub(1)),
        time_limit: request.time_limit,
        solver: request.solver,
        certificate_dir: request.certificate.clone(),
        descending: request.descending,
        max_variables: request.max_variables,
    };
    let searched = match sched::minimise(&graph, &options, progress) {
        Ok(s) => s,
        Err(e) if e.is_io() || e.is_over_limit() => return fail(e.to_string(), Status::Input),
        Err(e) => return fail(e.to_string(), Status::Internal),
    };
    let by_heuristic =
        searched.found.is_none() && request.time.is_none() && request.max_time.is_none();
    let sends = match searched.found.clone() {
        Some(sends) => Some(sends),
        None if by_heuristic => Some(heuristic),
        None => None,
    };
    let found = match sends.map(|sends| judged(&request.network, &graph, sends, &bound)) {
        Some(Ok(mut j)) => {
            j.by_heuristic = by_heuristic;
            Some(j)
        }
        Some(Err(message)) => return fail(message, Status::Internal),
        None => None,
    };
    report(request, &graph, &bound, found, Some(&searched), started)
}

/// The status: 0 with a schedule, 4 when a limit ran out first, 1 when
/// every `T` tried is infeasible.
fn status_of(found: bool, searched: Option<&ScheduleSearch>) -> Status {
    match (found, searched) {
        (true, _) | (false, None) => Status::Ok,
        (false, Some(s)) if s.unknown.is_empty() => Status::Rejected,
        (false, Some(_)) => Status::Limit,
    }
}

/// Writes the schedule to `-o` (JSON for a `.json` name, else text), with an
/// edge list named by an absolute path when the schedule goes elsewhere (a
/// schedule names its edge list relative to itself).
fn write_output(path: &Path, schedule: &Schedule) -> Result<(), String> {
    let schedule = for_output(path, schedule)?;
    let file =
        std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut w = std::io::BufWriter::new(file);
    let json = path.extension().is_some_and(|e| e == "json");
    let written = if json {
        write_json(&schedule, &mut w)
    } else {
        write_text(&schedule, &mut w)
    };
    written
        .and_then(|()| std::io::Write::flush(&mut w))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `schedule` as written to `path`: an edge list named by a relative path is
/// named by its absolute path when `path` is in another directory.
fn for_output(path: &Path, schedule: &Schedule) -> Result<Schedule, String> {
    let mut schedule = schedule.clone();
    if let Some(NetworkName::Edges(edges)) = &schedule.network
        && edges.is_relative()
        && path.parent().is_some_and(|p| !p.as_os_str().is_empty())
    {
        let absolute = std::fs::canonicalize(edges)
            .map_err(|e| format!("cannot resolve {}: {e}", edges.display()))?;
        schedule.network = Some(NetworkName::Edges(absolute));
    }
    Ok(schedule)
}

/// Writes `-o`, then reports the run in text and JSON.
fn report(
    request: &NetworkSearchRequest,
    graph: &Graph,
    bound: &NamedBound,
    found: Option<Judged>,
    searched: Option<&ScheduleSearch>,
    started: Instant,
) -> Outcome {
    let words = &request.network.to_string();
    if let (Some(path), Some(found)) = (&request.output, &found)
        && !found.written
        && let Err(message) = write_output(path, &found.schedule)
    {
        return Err(failure(words, Status::Input, message));
    }
    let status = status_of(found.is_some(), searched);
    let infeasible = searched.map_or(&[][..], |s| &s.infeasible[..]);
    let optimal = found
        .as_ref()
        .map(|f| sched::optimal_by(&f.verdict, infeasible));
    let seconds = started.elapsed().as_secs_f64();
    let facts = Facts {
        request,
        graph,
        bound,
        found: &found,
        searched,
        optimal,
    };
    Ok(NetworkSearchReport {
        text: facts.text(),
        json: facts.json(status, seconds),
        status,
    })
}

/// Everything a report states.
struct Facts<'a> {
    request: &'a NetworkSearchRequest,
    graph: &'a Graph,
    bound: &'a NamedBound,
    found: &'a Option<Judged>,
    searched: Option<&'a ScheduleSearch>,
    optimal: Option<Option<&'static str>>,
}

impl Facts<'_> {
    fn infeasible(&self) -> &[sched::ScheduleInfeasibility] {
        self.searched.map_or(&[][..], |s| &s.infeasible[..])
    }

    fn unknown(&self) -> &[usize] {
        self.searched.map_or(&[][..], |s| &s.unknown[..])
    }

    /// The text report.
    fn text(&self) -> String {
        let (request, bound) = (self.request, self.bound);
        let mut out = String::new();
        let method = if request.heuristic {
            "heuristic".to_string()
        } else {
            format!("SAT, {}", request.paths)
        };
        let _ = writeln!(
            out,
            "{}: total exchange, all-port ({} nodes, {} directed links), {method}",
            request.network.to_string().trim(),
            self.graph.nodes(),
            self.graph.directed_links()
        );
        let _ = writeln!(out, "  lower bound  {} ({})", bound.value(), bound.name());
        for i in self.infeasible() {
            let covers = if i.covers_all_schedules {
                "every schedule"
            } else {
                "restricted: not every schedule"
            };
            let certificate = match (&i.certificate, i.certificate_checked) {
                (Some(dir), true) => format!(", certificate {} (checked)", dir.display()),
                (Some(dir), false) => {
                    format!(", certificate {} (REJECTED by the checker)", dir.display())
                }
                (None, _) => String::new(),
            };
            let _ = writeln!(out, "  infeasible   T={} ({covers}{certificate})", i.time);
        }
        for t in self.unknown() {
            let _ = writeln!(out, "  unknown      T={t}: the limit ran out");
        }
        match (self.found, self.optimal.flatten()) {
            (Some(f), by) => {
                let ratio = f64::from(f.verdict.time()) / bound.value().max(1) as f64;
                let method = if f.by_heuristic { "heuristic" } else { "SAT" };
                let _ = writeln!(
                    out,
                    "  schedule     time {} (found by {method}), {} sends, {:.3} × the bound",
                    f.verdict.time(),
                    f.sends,
                    ratio
                );
                let verdict = match by {
                    Some("lower_bound") => "VALID, OPTIMAL (meets the lower bound)",
                    Some(_) => "VALID, OPTIMAL (fewer steps refuted by checked certificates)",
                    None => "VALID (optimality not proved)",
                };
                let _ = writeln!(out, "  verdict      {verdict}");
            }
            (None, _) => {
                let _ = writeln!(out, "  no schedule found");
            }
        }
        out
    }

    /// The JSON report (schema txverify-schedule-search/1, docs/json.md).
    fn json(&self, status: Status, seconds: f64) -> Value {
        let (request, bound, found) = (self.request, self.bound, self.found);
        let infeasible: Vec<Value> = self
            .infeasible()
            .iter()
            .map(|i| {
                serde_json::json!({
                    "time": i.time,
                    "claim": i.claim,
                    "covers_all_schedules": i.covers_all_schedules,
                    "restrictions": i.restrictions,
                    "certificate": i.certificate.as_ref().map(|p| p.display().to_string()),
                    "certificate_checked": i.certificate_checked,
                })
            })
            .collect();
        let time = found.as_ref().map(|f| f.verdict.time());
        let heuristic = request.heuristic;
        serde_json::json!({
            "schema": SCHEDULE_SEARCH_SCHEMA,
            "network": request.network.to_string(),
            "nodes": self.graph.nodes(),
            "directed_links": self.graph.directed_links(),
            "ports": "all",
            "method": if heuristic { "heuristic" } else { "sat" },
            "paths": paths_name(if heuristic { PathClass::Any } else { request.paths }),
            "lower_bound": bound.value(),
            "bound_name": bound.name(),
            "found": found.is_some(),
            "found_by": found.as_ref().map(|f| if f.by_heuristic { "heuristic" } else { "sat" }),
            "time": time,
            "transmissions": found.as_ref().map(|f| f.sends),
            "valid": found.as_ref().map(|f| f.verdict.valid()),
            "ratio": time.map(|t| f64::from(t) / bound.value().max(1) as f64),
            "optimal": self.optimal.map(|o| o.is_some()),
            "optimal_by": self.optimal.flatten(),
            "infeasible": infeasible,
            "unknown": self.unknown(),
            "solver": if heuristic { None } else { Some(solver_name(request)) },
            "output": found.as_ref().and(request.output.as_ref()).map(|p| p.display().to_string()),
            "seconds": seconds,
            "exit_code": status.code(),
        })
    }
}

/// The path class as JSON names it: `shortest`, `slack K`, `any`.
fn paths_name(paths: PathClass) -> String {
    match paths {
        PathClass::Shortest => "shortest".to_string(),
        PathClass::Slack(k) => format!("slack {k}"),
        PathClass::Any => "any".to_string(),
    }
}

/// The solver that ran: varisat whenever certificates were asked for.
fn solver_name(request: &NetworkSearchRequest) -> String {
    if request.certificate.is_some() {
        return "varisat".to_string();
    }
    match serde_json::to_value(request.solver) {
        Ok(Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}
