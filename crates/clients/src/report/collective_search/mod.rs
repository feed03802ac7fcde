//! `search --network NET --collective X [--chunks C] [--ports K]`: a
//! schedule of a collective that copies (broadcast, allgather) or combines
//! (reduce, reduce-scatter, allreduce), and its report: the fewest steps by
//! SAT from the core's lower bound upward; with `--heuristic` a construction
//! at once ([`txverify_search::schedule::heuristic::collective`]); with
//! `--deadline S` both, anytime: the construction first, then SAT below it,
//! the best kept (and written to `-o` as soon as it is kept), until the
//! deadline or a signal stops the run.
//!
//! Whatever is found is replayed and judged by [`txverify_core::verdict::judge`]
//! against the core's bound ([`txverify_core::bounds::collective()`]) before
//! anything is reported or written; a construction the replay rejects is an
//! internal error. With `--certificate DIR` every refuted time leaves a
//! certificate, checked at once; optimality is claimed when the schedule
//! meets the bound, or by the core's rule on the checked certificates of
//! every time from the bound up ([`optimal_by`]).

use super::anytime::{self, AnytimeSearch, Plan};
use super::network_search::Kept;
use super::network_search::SCHEDULE_SEARCH_SCHEMA;
use super::network_search::write::write_output;
use super::{Failure, ScheduleSearchReport, Status};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use txverify_core::bounds;
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{
    Collective, Ports, ReplayOptions, Schedule, TimedSend, replay, write_text,
};
use txverify_core::verdict::{NamedBound, ScheduleVerdict, judge};
use txverify_search::SolverChoice;
use txverify_search::schedule::collective::{
    CollectiveSearchError, CollectiveSearchOptions, encoding_version, minimise_collective,
};
use txverify_search::schedule::collective_copies::sat_start;
use txverify_search::schedule::fabric::{construct_on_fabric, has_counting_switch};
use txverify_search::schedule::heuristic::collective::ConstructionError;
use txverify_search::schedule::{Phase, StopToken, Stopped};
use txverify_search::schedule::{ScheduleSearch, optimal_by};

/// A collective search's request, its options checked: made only by
/// [`super::schedule_request::ScheduleSearchRequest`]'s `try_from`, where
/// every rule on them lives.
#[derive(Clone, Debug)]
pub struct CollectiveSearchRequest {
    pub(crate) network: NetworkName,
    pub(crate) collective: Collective,
    pub(crate) ports: Ports,
    pub(crate) solver: SolverChoice,
    pub(crate) time: Option<usize>,
    pub(crate) max_time: Option<usize>,
    pub(crate) max_variables: u64,
    pub(crate) time_limit: Option<Duration>,
    pub(crate) output: Option<PathBuf>,
    pub(crate) certificate: Option<PathBuf>,
    pub(crate) heuristic: bool,
    /// Downward from the construction, one step fewer each time.
    pub(crate) descending: bool,
    pub(crate) deadline: Option<Duration>,
    pub(crate) interrupt: Option<Arc<AtomicBool>>,
}

impl CollectiveSearchRequest {
    /// The collective asked for.
    pub fn collective(&self) -> Collective {
        self.collective
    }

    /// The construction is made first: `--heuristic`, `--deadline` or
    /// `--descending`, unless `--time T` asks for SAT at T alone.
    fn constructs(&self) -> bool {
        (self.heuristic || self.deadline.is_some() || self.descending) && self.time.is_none()
    }
}

/// A schedule replayed and judged.
struct Found {
    schedule: Schedule,
    verdict: ScheduleVerdict,
    /// The construction that made it, or `None` for SAT.
    construction: Option<String>,
}

type Outcome<T> = Result<T, Box<Failure>>;

fn fail<T>(status: Status, message: String) -> Outcome<T> {
    Err(Box::new(Failure::new(status, message)))
}

/// Runs the search; `progress` hears each time tried.
pub fn search_collective(
    request: &CollectiveSearchRequest,
    progress: &mut dyn FnMut(usize),
) -> Outcome<ScheduleSearchReport> {
    let started = Instant::now();
    let words = request.network.to_string();
    if let Err(e) = crate::bounds::check_size(&request.network) {
        return fail(Status::Input, e.to_string());
    }
    let graph = match request.network.build() {
        Ok(g) => g,
        Err(e) => {
            return fail(
                Status::Input,
                format!("`{}`: {e}", txverify_core::format::echoed(&words)),
            );
        }
    };
    if let Some(root) = request.collective.root()
        && root as usize >= graph.nodes()
    {
        let n = graph.nodes();
        return fail(
            Status::Input,
            format!("root {root} is not a node of `{words}` ({n} nodes)"),
        );
    }
    if let Some(root) = request.collective.root()
        && graph.is_forward_only(root)
    {
        return fail(
            Status::Input,
            format!("root {root} of `{words}` is a switch (forward-only): it has no data"),
        );
    }
    // The core's bounds hold on fabrics too (capacities, switch limits,
    // forward-only nodes): one best bound for every network.
    let bound = bounds::collective(&graph, request.collective, request.ports)
        .time
        .best()
        .clone();
    let mut run = Run {
        request,
        graph: &graph,
        bound: &bound,
        started,
        best: None,
        kept: vec![],
        searched: ScheduleSearch::default(),
        sat_skipped: None,
        stop: StopToken::new(
            request.deadline.map(|d| started + d),
            request.interrupt.iter().cloned().collect(),
        ),
        progress,
    };
    let plan = Plan {
        // Behind a switch that does not copy, the construction first: its
        // formulas count copies and grow with the steps.
        constructs: request.constructs()
            || (request.time.is_none() && has_counting_switch(&graph, request.collective)),
        construction_only: request.heuristic,
        time: request.time,
        max_time: request.max_time,
        // On a fabric, where no bound holds yet, below the first time a
        // node can take in its items.
        bound: (bound.value() as usize).max(sat_start(&graph, request.collective, request.ports)),
        descending: request.descending,
    };
    anytime::run(&mut run, &plan)?;
    Ok(run.report())
}

impl AnytimeSearch for Run<'_> {
    type Error = Box<Failure>;
    type Judged = Found;

    fn construct(&mut self) -> Outcome<Option<Found>> {
        let request = self.request;
        match construct_on_fabric(self.graph, request.collective, request.ports, &self.stop) {
            Ok(Some(made)) => self.judged(made.sends, Some(made.method)).map(Some),
            // No construction replays valid on the fabric: SAT alone.
            Ok(None) => Ok(None),
            Err(ConstructionError::Stopped) => {
                self.searched.stopped = self.stop.stopped();
                self.searched.stopped_in = Some(Phase::Construction);
                Ok(None)
            }
            Err(e) => fail(
                Status::Input,
                format!(
                    "`{}`: {e}",
                    txverify_core::format::echoed(&request.network.to_string())
                ),
            ),
        }
    }

    fn time_of(found: &Found) -> u32 {
        found.verdict.time()
    }

    fn keep(&mut self, found: Found) -> Outcome<()> {
        self.offer(found)
    }

    fn sat_follows(&self) -> bool {
        self.searched.stopped.is_none()
    }

    fn best_time(&self) -> Option<u32> {
        self.best.as_ref().map(|b| b.verdict.time())
    }

    fn sat(&mut self, from: usize, to: usize) -> Outcome<Option<u32>> {
        let Some(step) = self.solve(from, to)? else {
            return Ok(None);
        };
        let searched = &mut self.searched;
        searched.infeasible.extend(step.infeasible);
        searched.unknown.extend(step.unknown);
        (searched.stopped, searched.stopped_in) = (step.stopped, step.stopped_in);
        let Some(sends) = step.found else {
            return Ok(None);
        };
        searched.translated = step.translated;
        let found = self.judged(sends, None)?;
        let time = found.verdict.time();
        self.offer(found)?;
        Ok(Some(time))
    }
}

/// One run, once the network is built and its bound known.
struct Run<'a> {
    request: &'a CollectiveSearchRequest,
    graph: &'a Graph,
    bound: &'a NamedBound,
    started: Instant,
    best: Option<Found>,
    kept: Vec<Kept>,
    /// What SAT found, every step of the run together.
    searched: ScheduleSearch,
    /// Why SAT stopped short: its formula is over `--max-variables` after a
    /// construction was kept, which stands.
    sat_skipped: Option<String>,
    stop: StopToken,
    /// Hears each time tried.
    progress: &'a mut dyn FnMut(usize),
}

impl Run<'_> {
    /// SAT for `from ..= to` steps, upward; `None` when the formula is over
    /// `--max-variables` after a construction was kept (`sat_skipped` says
    /// why: the construction stands).
    fn solve(&mut self, from: usize, to: usize) -> Outcome<Option<ScheduleSearch>> {
        let request = self.request;
        let words = request.network.to_string();
        let options = CollectiveSearchOptions {
            network: words.clone(),
            certificate_dir: request.certificate.clone(),
            collective: request.collective,
            ports: request.ports,
            from,
            to,
            time_limit: request.time_limit,
            solver: request.solver,
            max_variables: request.max_variables,
            translate: true,
            deadline: request.deadline.map(|d| self.started + d),
            stop: request.interrupt.iter().cloned().collect(),
        };
        match minimise_collective(self.graph, &options, self.progress) {
            Ok(s) => Ok(Some(s)),
            // A formula too large does not take the construction away.
            Err(e @ CollectiveSearchError::OverLimit { .. }) if self.best.is_some() => {
                self.sat_skipped = Some(e.to_string());
                Ok(None)
            }
            Err(e) => {
                use CollectiveSearchError as E;
                let status = match e {
                    E::Unsupported(_) | E::OverLimit { .. } | E::Write { .. } => Status::Input,
                    _ => Status::Internal,
                };
                fail(
                    status,
                    format!("`{}`: {e}", txverify_core::format::echoed(&words)),
                )
            }
        }
    }

    /// Replays `sends` and judges them against the bound: a schedule that is
    /// not valid, or beats the bound, is an internal error.
    fn judged(&self, sends: Vec<TimedSend>, construction: Option<String>) -> Outcome<Found> {
        let request = self.request;
        let schedule = Schedule {
            network: Some(request.network.clone()),
            ports: Some(request.ports),
            collective: request.collective,
            sends,
        };
        let report = match replay(&schedule, self.graph, &ReplayOptions { max_listed: 10 }) {
            Ok(r) => r,
            Err(e) => {
                return fail(
                    Status::Internal,
                    format!("the schedule cannot be replayed: {e}"),
                );
            }
        };
        let verdict = judge(&report, Some(self.bound.clone()), None);
        if !verdict.valid() || verdict.beats_bound() {
            let by = construction.as_deref().unwrap_or("SAT");
            return fail(
                Status::Internal,
                format!(
                    "internal error: the schedule found by {by} replays with {} violations (time {}, bound {})",
                    verdict.violations(),
                    verdict.time(),
                    self.bound.value()
                ),
            );
        }
        Ok(Found {
            schedule,
            verdict,
            construction,
        })
    }

    /// Keeps `found` when it is faster than the best so far, and writes it
    /// to `-o` at once (whole: a file beside it renamed over it).
    fn offer(&mut self, found: Found) -> Outcome<()> {
        let time = found.verdict.time();
        if self.best.as_ref().is_some_and(|b| b.verdict.time() <= time) {
            return Ok(());
        }
        if let Some(path) = &self.request.output
            && let Err(message) = write_output(path, &found.schedule)
        {
            return fail(Status::Input, message);
        }
        self.kept.push(Kept {
            time,
            found_by: if found.construction.is_some() {
                "heuristic"
            } else {
                "sat"
            },
            seconds: self.started.elapsed().as_secs_f64(),
        });
        self.best = Some(found);
        Ok(())
    }

    /// The report in text and JSON.
    fn report(self) -> ScheduleSearchReport {
        let (request, graph, bound) = (self.request, self.graph, self.bound);
        let (searched, sat_skipped) = (&self.searched, self.sat_skipped.clone());
        let found = self.best.as_ref();
        let status = match (
            found,
            searched.unknown.is_empty() && searched.stopped.is_none(),
        ) {
            (Some(_), _) => Status::Ok,
            (None, true) => Status::Rejected,
            (None, false) => Status::Limit,
        };
        let anytime = request.constructs();
        let stopped = searched.stopped.map(|s| match s {
            Stopped::Deadline => "deadline",
            Stopped::Requested => "signal",
        });
        let stopped_in = searched.stopped_in.map(Phase::name);
        let stopped_by = stopped.map(|s| {
            let why = match s {
                "deadline" => "stopped by the deadline",
                _ => "interrupted by a signal",
            };
            match stopped_in {
                Some(phase) => format!("{why} while {}", phase_words(phase)),
                None => why.to_string(),
            }
        });
        let optimal_by = found.and_then(|f| optimal_by(&f.verdict, &searched.infeasible));
        let gap = found.map(|f| u64::from(f.verdict.time()).saturating_sub(bound.value()));
        let found_by = found.map(|f| {
            if f.construction.is_some() {
                "heuristic"
            } else {
                "sat"
            }
        });
        let seconds = self.started.elapsed().as_secs_f64();
        let chunks = request.collective.chunks();
        let words = request.network.to_string();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{} in {chunks} chunk(s) on {words} ({} nodes), ports {}: lower bound {} ({})",
            request.collective,
            graph.nodes(),
            request.ports,
            bound.value(),
            bound.name()
        );
        if let Some(k) = self.kept.first().filter(|k| k.found_by == "heuristic") {
            let _ = writeln!(text, "  heuristic    time {} ({:.3} s)", k.time, k.seconds);
        }
        if let Some(why) = &sat_skipped {
            let _ = writeln!(text, "  SAT skipped  {why}");
        }
        for i in &searched.infeasible {
            let how = match (&i.certificate, i.certificate_checked) {
                (Some(dir), true) => format!("certificate {} checked", dir.display()),
                (Some(dir), false) => format!("certificate {} NOT accepted", dir.display()),
                (None, _) => "the solver's word; no certificate (--certificate DIR)".to_string(),
            };
            let _ = writeln!(text, "  T={}: infeasible ({how})", i.time);
        }
        for (k, t) in searched.unknown.iter().enumerate() {
            let why = match &stopped_by {
                Some(why) if k + 1 == searched.unknown.len() => why.as_str(),
                _ => "time limit",
            };
            let _ = writeln!(text, "  T={t}: unknown ({why})");
        }
        if let (Some(why), true) = (&stopped_by, searched.unknown.is_empty()) {
            let _ = writeln!(text, "  search       {why}");
        }
        if let Some(line) = Kept::improved_line(&self.kept) {
            let _ = writeln!(text, "{line}");
        }
        match found {
            Some(f) => {
                let by = match (&f.construction, anytime) {
                    (Some(how), _) => format!(" (found by the heuristic: {how})"),
                    (None, true) => " (found by SAT)".to_string(),
                    (None, false) => String::new(),
                };
                let _ = writeln!(
                    text,
                    "  found        time {}, {} sends{by}\n  verdict      {}",
                    f.verdict.time(),
                    f.schedule.sends.len(),
                    verdict_text(&f.verdict, optimal_by, bound.value())
                );
                if f.construction.is_none() && searched.translated {
                    let _ = writeln!(
                        text,
                        "  translated   block 0's items scheduled, every block b's mapped from them by an automorphism taking 0 to b"
                    );
                }
                if anytime && optimal_by.is_none() && bound.value() > 0 {
                    let gap = gap.unwrap_or(0);
                    let percent = 100.0 * gap as f64 / bound.value().max(1) as f64;
                    let _ = writeln!(
                        text,
                        "  gap          {gap} step(s) above the bound ({percent:.1} %)"
                    );
                }
                if request.output.is_none() {
                    let mut out = Vec::new();
                    let _ = write_text(&f.schedule, &mut out);
                    text.push_str(&String::from_utf8_lossy(&out));
                }
            }
            None => {
                let _ = writeln!(text, "  no schedule within the times tried");
            }
        }
        let _ = writeln!(text, "  seconds      {seconds:.3}");
        let improvements: Vec<Value> = self.kept.iter().map(Kept::json).collect();
        let json = json!({
            "schema": SCHEDULE_SEARCH_SCHEMA,
            "network": words,
            "nodes": graph.nodes(),
            "directed_links": graph.directed_links(),
            "collective": request.collective.to_string(),
            "chunks": chunks,
            "ports": match request.ports { Ports::All => json!("all"), Ports::Limit(k) => json!(k) },
            "method": if request.heuristic { "heuristic" } else { "sat" },
            "encoding": (!request.heuristic).then(|| encoding_version(request.collective)),
            // The formulas let an item take any path.
            "paths": "any",
            "bound": bound,
            "lower_bound": bound.value(),
            "bound_name": bound.name(),
            // The LP bound the search states is the total exchange's.
            "lp": Value::Null,
            "lp_skipped": "the LP bound is of the total exchange",
            "infeasible": searched.infeasible.iter().map(|i| json!({
                "time": i.time,
                "claim": i.claim,
                "covers_all_schedules": true,
                "restrictions": Vec::<String>::new(),
                "certificate": i.certificate.as_ref().map(|d| d.display().to_string()),
                "certificate_checked": i.certificate_checked,
            })).collect::<Vec<_>>(),
            "unknown": searched.unknown,
            "found": found.is_some(),
            "time": found.map(|f| f.verdict.time()),
            "transmissions": found.map(|f| f.schedule.sends.len()),
            "valid": found.map(|f| f.verdict.valid()),
            "ratio": found.map(|f| f64::from(f.verdict.time()) / bound.value().max(1) as f64),
            "found_by": found_by,
            "construction": found.and_then(|f| f.construction.clone()),
            "gap": gap,
            "optimal": found.map(|_| optimal_by.is_some()),
            "optimal_by": optimal_by,
            "translated": found.map(|f| f.construction.is_none() && searched.translated),
            "verdict": found.map(|f| verdict_text(&f.verdict, optimal_by, bound.value())),
            "improvements": improvements,
            "stopped": stopped,
            "stopped_in": stopped_in,
            "deadline": request.deadline.map(|d| d.as_secs_f64()),
            "sat_skipped": sat_skipped,
            // The routers are the total exchange's heuristic.
            "routers": Value::Null,
            "solver": (!request.heuristic).then(|| solver_name(request.solver)),
            "output": found.and(request.output.as_ref()).map(|p| p.display().to_string()),
            "seconds": seconds,
            "exit_code": status.code(),
        });
        let schedule = self.best.map(|f| f.schedule);
        ScheduleSearchReport {
            text,
            json,
            status,
            schedule,
        }
    }
}

/// A phase as the text report names it.
fn phase_words(phase: &str) -> &'static str {
    match phase {
        "construction" => "the construction was made",
        "encoding" => "the formula was built",
        _ => "the formula was solved",
    }
}

/// The verdict in words; optimal by certificates says so rather than "not
/// optimal" by the bound.
fn verdict_text(verdict: &ScheduleVerdict, optimal_by: Option<&str>, bound: u64) -> String {
    if optimal_by == Some("certificates") {
        format!(
            "OPTIMAL (completion time {}: every time from the bound, {bound}, up to {} refuted by a checked certificate)",
            verdict.time(),
            verdict.time().saturating_sub(1)
        )
    } else if bound == 0 && verdict.valid() {
        // No bound stated: nothing to differ from.
        format!(
            "VALID (completion time {}; no lower bound is stated here: optimal only when the times below it are refuted by checked certificates, --certificate DIR)",
            verdict.time()
        )
    } else {
        verdict.to_string()
    }
}

/// The solver as the report names it.
fn solver_name(solver: SolverChoice) -> String {
    match serde_json::to_value(solver) {
        Ok(Value::String(name)) => name,
        _ => "a SAT solver".to_string(),
    }
}
