//! `search --network`: a total-exchange schedule on any network, by SAT
//! (the fewest steps, with certificates) or by the heuristic, and its report.
//!
//! Whatever is found is replayed and judged by [`txverify_core::verdict::judge`]
//! against the lower bound before anything is reported or written; optimality
//! beyond the bound is claimed only on certificates that the checker accepted
//! and that cover every schedule (any paths), by [`sched::optimal_by`].
//!
//! The search is anytime: the heuristic's schedule is judged and written to
//! `-o` first, then each faster schedule SAT finds, each time whole (a file
//! beside it renamed over it), so that a run stopped by its deadline, a signal
//! or a kill leaves the best schedule found so far.

mod facts;
mod stream;
mod streamed;
pub mod write;

use super::anytime::{self, AnytimeSearch, Ended, Plan};
use super::{Failure, ScheduleSearchReport, Status};
use facts::Facts;
pub(crate) use facts::Kept;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_core::bounds::general::{
    GraphBounds, LP_BOUNDS_NODES, LP_SEARCH_NODES, graph_bounds_before_cuts,
};
use txverify_core::bounds::lp::{LpOptions, LpSolution};
use txverify_core::network::{Graph, NetworkName};
use txverify_core::schedule::{Ports, ReplayOptions, Schedule, TimedSend, replay};
use txverify_core::verdict::{NamedBound, ScheduleVerdict, judge};
use txverify_search::SolverChoice;
use txverify_search::schedule::{
    self as sched, PathClass, ScheduleEvent, ScheduleSearch, ScheduleSearchOptions, Stopped,
};

/// The JSON schema of every schedule search, `search --network --format
/// json`, total exchange and the collectives alike (docs/json.md: it
/// replaces `txverify-schedule-search/2` and `txverify-collective-search/2`).
pub const SCHEDULE_SEARCH_SCHEMA: &str = "txverify-schedule-search/3";

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
    /// `--deadline S`: the limit of the whole run, from its start.
    pub deadline: Option<Duration>,
    /// Set by a signal (SIGINT, SIGTERM): stop and report what was found.
    pub interrupt: Option<Arc<AtomicBool>>,
    /// Where certificates go.
    pub certificate: Option<PathBuf>,
    /// Try the times from the largest down (else from the bound up).
    pub descending: bool,
    /// `-o FILE`: where the schedule found is written.
    pub output: Option<PathBuf>,
    /// State the LP bound, judge against it and route along its flow
    /// (`--no-lp`: false), on networks of at most
    /// [`txverify_core::bounds::general::LP_SEARCH_NODES`] nodes.
    pub lp: bool,
    /// The caller reads the schedule from the report
    /// ([`ScheduleSearchReport::schedule`]), as the Python package does: it is
    /// held whole, never streamed, so the heuristic's limit is
    /// [`sched::heuristic::MAX_SENDS`] sends, not `MAX_PLANNED_SENDS`.
    pub keep_schedule: bool,
}

/// What `search --network` tells its caller as it goes (the binary shows it
/// on standard error).
#[derive(Clone, Copy, Debug)]
pub enum NetworkSearchEvent<'a> {
    /// A faster schedule, replayed and judged, now the best; written to
    /// `written` when `-o` was given.
    Kept {
        /// Its number of steps.
        time: u32,
        /// `heuristic` or `sat`.
        found_by: &'static str,
        /// Where it was written.
        written: Option<&'a Path>,
    },
    /// The SAT search's own news, with the best time so far.
    Search {
        /// What the search did.
        event: ScheduleEvent<'a>,
        /// The best schedule's time so far.
        best: Option<u32>,
        /// The lower bound.
        bound: u64,
        /// The time since the run started.
        elapsed: Duration,
    },
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

/// The schedule a verdict was reached on: every consumer (`-o`, the report's
/// counts, [`ScheduleSearchReport::schedule`]) reads this one value, so none
/// can be handed a schedule other than the one judged.
enum JudgedSchedule {
    /// Held whole: the very sends the replay judged.
    Held(Schedule),
    /// Too large to hold: the heuristic's sends, replayed, judged and written
    /// to `-o` a step at a time as they were planned ([`stream`]); only
    /// their number is kept. Never made for a request with `keep_schedule`.
    Streamed {
        /// The number of sends replayed and written.
        sends: u64,
        /// The replay's report, to judge it again once a better bound is
        /// known (the first schedule is judged before the cuts and the LP).
        replayed: Box<txverify_core::schedule::ReplayReport>,
    },
}

impl JudgedSchedule {
    fn sends(&self) -> u64 {
        match self {
            JudgedSchedule::Held(schedule) => schedule.sends.len() as u64,
            JudgedSchedule::Streamed { sends, .. } => *sends,
        }
    }
}

/// What a run found, judged.
struct Judged {
    schedule: JudgedSchedule,
    verdict: ScheduleVerdict,
    /// The heuristic found it (SAT found nothing faster).
    by_heuristic: bool,
}

type Outcome = Result<ScheduleSearchReport, NetworkSearchFailure>;

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
    by_heuristic: bool,
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
        schedule: JudgedSchedule::Held(schedule),
        verdict,
        by_heuristic,
    })
}

/// The best schedule so far, and every one kept, in order: each is written
/// to `-o` (when given) as soon as it is kept.
struct Best<'a> {
    request: &'a NetworkSearchRequest,
    started: Instant,
    judged: Option<Judged>,
    kept: Vec<Kept>,
}

impl Best<'_> {
    fn time(&self) -> Option<u32> {
        self.judged.as_ref().map(|j| j.verdict.time())
    }

    /// Keeps `found` if it is faster than the best so far, and writes it.
    fn offer(
        &mut self,
        found: Judged,
        events: &mut dyn FnMut(NetworkSearchEvent<'_>),
    ) -> Result<(), String> {
        let time = found.verdict.time();
        if self.time().is_some_and(|best| best <= time) {
            return Ok(());
        }
        let output = self.request.output.as_deref();
        // A streamed schedule was written as it was judged.
        if let (Some(path), JudgedSchedule::Held(schedule)) = (output, &found.schedule) {
            write::write_output(path, schedule)?;
        }
        let found_by = if found.by_heuristic {
            "heuristic"
        } else {
            "sat"
        };
        self.kept.push(Kept {
            time,
            found_by,
            seconds: self.started.elapsed().as_secs_f64(),
        });
        self.judged = Some(found);
        events(NetworkSearchEvent::Kept {
            time,
            found_by,
            written: output,
        });
        Ok(())
    }
}

/// Runs `search --network`; `events` hears each schedule kept and the SAT
/// search's progress.
pub fn search_network(
    request: &NetworkSearchRequest,
    events: &mut dyn FnMut(NetworkSearchEvent<'_>),
) -> Outcome {
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
        Err(e) => {
            return fail(
                format!("`{}`: {e}", txverify_core::format::echoed(words)),
                Status::Input,
            );
        }
    };
    // Every message makes at least one send: a first bound on the sends,
    // before the distances are computed.
    let nodes = graph.nodes() as u64;
    let max_sends = if streams(request) || request.deadline.is_some() {
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
    // The cut search waits until a streamed anytime run has written its
    // first schedule (seconds on a thousand nodes): the bounds by distance
    // first, and whether the formula is over a limit already at them.
    let mut figures = sched::heuristic::profiled("distance bounds", || {
        graph_bounds_before_cuts(&graph, u64::MAX)
    });
    let anytime = request.deadline.is_some()
        && request.time.is_none()
        && request.max_time.is_none()
        && !request.keep_schedule
        && !request.heuristic;
    // The formula's estimate takes all-pairs distances (a tenth of a second
    // of CPU on a thousand nodes): made once per bound, not once per question.
    let over_by_distance = anytime
        .then(|| {
            let time = figures.bound_set_with_lp(Ports::All, None).value() as usize;
            sat_over_limit(request, &graph, time)
        })
        .flatten();
    let cuts_searched = over_by_distance.is_none();
    if cuts_searched {
        figures = sched::heuristic::profiled("cut bounds", || figures.with_cuts(&graph));
    }
    // An anytime run whose formula is over a limit already at the bound
    // without the LP (the LP bound is at least as large, and so is the
    // formula) is the heuristic's alone: streamed, its first schedule
    // written before the cuts and the LP are computed.
    let early = figures.bound_set_with_lp(Ports::All, None).best().clone();
    let over_early = match over_by_distance {
        // The cuts were not searched: `early` is the bound by distance.
        Some(over) => Some(over),
        None if anytime => sat_over_limit(request, &graph, early.value() as usize),
        None => None,
    };
    let anytime_construction = anytime && over_early.is_some();
    // The streamed heuristic is written before it is judged: not on a
    // fabric, whose constructions are kept only when their replay is valid.
    if (streams(request) || anytime_construction) && graph.fabric().is_plain() {
        if figures.total_status > sched::heuristic::MAX_PLANNED_SENDS {
            return fail(
                format!(
                    "`{words}`: a total exchange on shortest paths makes {} sends, more than the limit of {}",
                    figures.total_status,
                    sched::heuristic::MAX_PLANNED_SENDS
                ),
                Status::Input,
            );
        }
        let sat_skipped = over_early
            .filter(|_| anytime_construction)
            .map(|e| e.to_string());
        let bounds = EarlyBounds {
            figures,
            cuts_searched,
            early,
        };
        return streamed::streamed_search(request, &graph, bounds, sat_skipped, started, events);
    }
    if !cuts_searched {
        figures = figures.with_cuts(&graph);
    }
    // With a deadline the LP gets half of it: the construction must follow.
    let lp_until = request.deadline.map(|d| started + d / 2);
    let (lp, lp_solution) = lp_bound(request, &graph, &figures, lp_until);
    // The all-port bounds every command states for this graph
    // (`total_exchange`'s), and the LP bound when it was computed: the best.
    let bound = figures
        .bound_set_with_lp(Ports::All, lp_solution.as_ref())
        .best()
        .clone();
    // The smallest formula tried is estimated first: refused before the
    // heuristic schedule or any clause is made; with a deadline (anytime)
    // the heuristic's schedule is made and written, and SAT is skipped.
    let mut sat_skipped = None;
    if !request.heuristic {
        let time = request.time.unwrap_or(bound.value() as usize);
        match sat_over_limit(request, &graph, time) {
            Some(e) if request.deadline.is_some() && request.time.is_none() => {
                sat_skipped = Some(e.to_string());
            }
            Some(e) => {
                return fail(
                    format!("`{}`: {e}", txverify_core::format::echoed(words)),
                    Status::Input,
                );
            }
            None => {}
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
    let run = Run {
        request,
        graph: &graph,
        bound: &bound,
        lp: &lp,
        flow: lp_solution.as_ref().and_then(|s| s.per_source.as_deref()),
        started,
        sat_skipped,
        construction_stopped: None,
    };
    run.search(events)
}

/// Why SAT's formula at `time` cannot be built on `graph` (over
/// [`sched::encode::MAX_NODES`] or over `--max-variables`), if it cannot.
fn sat_over_limit(
    request: &NetworkSearchRequest,
    graph: &Graph,
    time: usize,
) -> Option<sched::ExchangeEncodeError> {
    let limit = request.max_variables;
    if graph.nodes() > sched::encode::MAX_NODES {
        return Some(sched::ExchangeEncodeError::TooLarge {
            nodes: graph.nodes(),
        });
    }
    let estimate = sched::encode::estimate_variables(graph, time, request.paths);
    (estimate > limit).then_some(sched::ExchangeEncodeError::OverLimit {
        time,
        estimate,
        limit,
    })
}

/// Whether the run is to stop: its deadline passed or a signal came.
fn stop_of(request: &NetworkSearchRequest, started: Instant) -> impl Fn() -> bool + '_ {
    move || stopped_now(request, started).is_some()
}

/// Why the run is to stop now, if it is: a signal, else its deadline passed
/// (the order SAT's own stop takes).
fn stopped_now(request: &NetworkSearchRequest, started: Instant) -> Option<Stopped> {
    if request
        .interrupt
        .as_ref()
        .is_some_and(|i| i.load(Ordering::Relaxed))
    {
        Some(Stopped::Requested)
    } else if request
        .deadline
        .is_some_and(|d| Instant::now() >= started + d)
    {
        Some(Stopped::Deadline)
    } else {
        None
    }
}

/// The bounds a streamed run starts from: the figures (their cuts searched
/// or not yet) and the best bound of them without the LP.
struct EarlyBounds {
    figures: GraphBounds,
    cuts_searched: bool,
    early: NamedBound,
}

/// The LP bound of a run, as the report states it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum LpFacts {
    /// Its value in steps.
    Stated(u64),
    /// Why it was not computed.
    Skipped(String),
}

/// The LP bound of `graph` when the request wants it and the network is
/// within [`LP_SEARCH_NODES`] (the core's search for its weights, with
/// [`LpOptions::for_search`], stopped at `until`), or why not.
fn lp_bound(
    request: &NetworkSearchRequest,
    graph: &Graph,
    figures: &GraphBounds,
    until: Option<Instant>,
) -> (LpFacts, Option<LpSolution>) {
    if !request.lp {
        return (LpFacts::Skipped("--no-lp".to_string()), None);
    }
    if !graph.fabric().is_plain() {
        let why = "a fabric: the LP takes one packet a link a step";
        return (LpFacts::Skipped(why.to_string()), None);
    }
    if graph.nodes() > LP_SEARCH_NODES {
        return (
            LpFacts::Skipped(format!(
                "{} nodes, more than the {LP_SEARCH_NODES} a search computes it on (`bounds --network` does up to {LP_BOUNDS_NODES}, `--lp-certificate` beyond)",
                graph.nodes()
            )),
            None,
        );
    }
    let options = LpOptions {
        until,
        ..LpOptions::for_search()
    };
    match figures.lp(graph, &options) {
        Some(s) => (LpFacts::Stated(s.bound.value), Some(s)),
        None => (
            LpFacts::Skipped("a network without links".to_string()),
            None,
        ),
    }
}

/// One run, once the network is built and its bound known.
struct Run<'a> {
    request: &'a NetworkSearchRequest,
    graph: &'a Graph,
    bound: &'a NamedBound,
    lp: &'a LpFacts,
    /// The LP's flow source by source, for the heuristic to follow.
    flow: Option<&'a [Vec<f64>]>,
    started: Instant,
    /// Why SAT is not run after the heuristic (its formula is over a limit).
    sat_skipped: Option<String>,
    /// Why the heuristic's construction was stopped before it was done (its
    /// routers cut or the writing of a faster schedule abandoned), when it was.
    construction_stopped: Option<Stopped>,
}

impl Run<'_> {
    fn fail(&self, message: String, status: Status) -> Outcome {
        Err(failure(&self.request.words, status, message))
    }

    /// The heuristic's schedule first (unless `--time T` asks for SAT at T
    /// alone, or it is slower than `--max-time`), then SAT below it.
    fn search(&self, events: &mut dyn FnMut(NetworkSearchEvent<'_>)) -> Outcome {
        let request = self.request;
        let best = Best {
            request,
            started: self.started,
            judged: None,
            kept: vec![],
        };
        let mut exchange = Exchange {
            run: self,
            best,
            events,
            searched: ScheduleSearch::default(),
            routers: None,
        };
        let plan = Plan {
            constructs: request.time.is_none(),
            construction_only: request.heuristic,
            time: request.time,
            max_time: request.max_time,
            bound: self.bound.value() as usize,
            descending: request.descending,
        };
        let ended = anytime::run(&mut exchange, &plan);
        let Exchange {
            best,
            searched,
            routers,
            ..
        } = exchange;
        let routers = routers.as_ref();
        match ended {
            Err(e) => Err(e),
            Ok(Ended::Construction) => match (&self.sat_skipped, &best.judged) {
                // A stop in the construction is reported as a stop.
                (Some(why), None) if self.construction_stop(routers).is_none() => {
                    self.fail(format!("`{}`: {why}", request.words), Status::Input)
                }
                _ => self.report_with(best, None, routers),
            },
            // A formula over a limit of the encoder does not take away what
            // was found: SAT is skipped from there, and the report says why.
            Ok(Ended::Sat) => match (&searched.over_limit, &best.judged) {
                (Some(e), None) => self.fail(e.to_string(), Status::Input),
                _ => self.report_with(best, Some(&searched), routers),
            },
        }
    }

    /// Why the construction was stopped: the stop its caller saw, else the
    /// run's stop if one cut the heuristic's routers (a stop stays: the
    /// deadline has passed, the flag stays set, so its reason is read now).
    fn construction_stop(&self, routers: Option<&sched::heuristic::Routers>) -> Option<Stopped> {
        self.construction_stopped.or_else(|| {
            let cut = routers?
                .cut
                .iter()
                .any(|&(_, why)| why == sched::heuristic::Cut::Stopped);
            cut.then(|| match &self.request.interrupt {
                Some(i) if i.load(Ordering::Relaxed) => Stopped::Requested,
                _ => Stopped::Deadline,
            })
        })
    }

    /// Reports the run in text and JSON (the best schedule is on disk
    /// already), saying which of the heuristic's routers ran and which were
    /// cut when `routers` is given.
    fn report_with(
        &self,
        best: Best<'_>,
        searched: Option<&ScheduleSearch>,
        routers: Option<&sched::heuristic::Routers>,
    ) -> Outcome {
        let found = best.judged;
        let construction_stopped = self.construction_stop(routers);
        let status = match (&found, construction_stopped) {
            // Stopped before anything was made.
            (None, Some(_)) => Status::Limit,
            _ => status_of(found.is_some(), searched),
        };
        let infeasible = searched.map_or(&[][..], |s| &s.infeasible[..]);
        let optimal = found
            .as_ref()
            .map(|f| sched::optimal_by(&f.verdict, infeasible));
        let stopped = searched.and_then(|s| s.stopped).or(construction_stopped);
        let stopped_in = searched
            .and_then(|s| s.stopped_in)
            .or(construction_stopped.map(|_| sched::Phase::Construction));
        let stopped = stopped.map(Stopped::name);
        let stopped_in = stopped_in.map(sched::Phase::name);
        let over_limit = searched.and_then(|s| s.over_limit.as_ref().map(|e| e.to_string()));
        let sat_skipped = self.sat_skipped.clone().or(over_limit);
        let facts = Facts {
            request: self.request,
            graph: self.graph,
            bound: self.bound,
            lp: self.lp,
            found: &found,
            searched,
            optimal,
            stopped,
            stopped_in,
            sat_skipped: sat_skipped.as_deref(),
            kept: &best.kept,
            routers,
        };
        Ok(ScheduleSearchReport {
            text: facts.text(),
            json: facts.json(status, self.started.elapsed().as_secs_f64()),
            status,
            schedule: found.and_then(|f| match f.schedule {
                JudgedSchedule::Held(schedule) => Some(schedule),
                JudgedSchedule::Streamed { .. } => None,
            }),
        })
    }
}

/// The total exchange's search as the anytime driver sees it: the list
/// heuristic is its construction, [`sched::minimise`] its SAT.
struct Exchange<'r, 'a, 'e> {
    run: &'r Run<'a>,
    best: Best<'a>,
    events: &'e mut dyn FnMut(NetworkSearchEvent<'_>),
    /// What SAT found, every step of the run together.
    searched: ScheduleSearch,
    /// Which of the heuristic's routers ran, once it did.
    routers: Option<sched::heuristic::Routers>,
}

impl AnytimeSearch for Exchange<'_, '_, '_> {
    type Error = NetworkSearchFailure;
    type Judged = Judged;

    fn construct(&mut self) -> Result<Option<Judged>, NetworkSearchFailure> {
        let run = self.run;
        let stop = stop_of(run.request, run.started);
        let timed_run = run.request.deadline.is_some();
        let (timed, routers) = sched::heuristic::plan_until(run.graph, run.flow, &stop, timed_run);
        self.routers = Some(routers);
        // Stopped before any schedule was made.
        let Some(timed) = timed else {
            return Ok(None);
        };
        let sends = timed.to_sends(run.graph);
        // On a fabric, kept only when its replay finds it valid.
        let Some(sends) = sched::fabric::exchange_on_fabric(run.graph, sends) else {
            return Ok(None);
        };
        judged(&run.request.network, run.graph, sends, run.bound, true)
            .map(Some)
            .map_err(|message| failure(&run.request.words, Status::Internal, message))
    }

    fn time_of(judged: &Judged) -> u32 {
        judged.verdict.time()
    }

    fn keep(&mut self, judged: Judged) -> Result<(), NetworkSearchFailure> {
        self.best
            .offer(judged, self.events)
            .map_err(|message| failure(&self.run.request.words, Status::Input, message))
    }

    fn sat_follows(&self) -> bool {
        self.run.sat_skipped.is_none()
    }

    fn best_time(&self) -> Option<u32> {
        self.best.time()
    }

    fn sat(&mut self, from: usize, to: usize) -> Result<Option<u32>, NetworkSearchFailure> {
        let run = self.run;
        let request = run.request;
        // Set when a schedule SAT found cannot be kept: the search stops.
        let failed = Arc::new(AtomicBool::new(false));
        let options = ScheduleSearchOptions {
            network: request.words.trim().to_string(),
            paths: request.paths,
            from,
            to,
            time_limit: request.time_limit,
            deadline: request.deadline.map(|d| run.started + d),
            stop: request
                .interrupt
                .iter()
                .cloned()
                .chain([failed.clone()])
                .collect(),
            solver: request.solver,
            certificate_dir: request.certificate.clone(),
            max_variables: request.max_variables,
        };
        let mut problem: Option<(String, Status)> = None;
        let (best, events) = (&mut self.best, &mut *self.events);
        let mut hear = |event: ScheduleEvent<'_>| {
            if let ScheduleEvent::Found { sends, .. } = event
                && problem.is_none()
            {
                let kept = judged(
                    &request.network,
                    run.graph,
                    sends.to_vec(),
                    run.bound,
                    false,
                )
                .map_err(|m| (m, Status::Internal))
                .and_then(|j| best.offer(j, events).map_err(|m| (m, Status::Input)));
                if let Err(e) = kept {
                    problem = Some(e);
                    failed.store(true, Ordering::Relaxed);
                }
            }
            events(NetworkSearchEvent::Search {
                event,
                best: best.time(),
                bound: run.bound.value(),
                elapsed: run.started.elapsed(),
            });
        };
        let step = sched::minimise(run.graph, &options, &mut hear);
        if let Some((message, status)) = problem {
            return Err(failure(&request.words, status, message));
        }
        let step = match step {
            Ok(step) => step,
            Err(e) if e.is_io() || e.is_over_limit() => {
                return Err(failure(&request.words, Status::Input, e.to_string()));
            }
            Err(e) => return Err(failure(&request.words, Status::Internal, e.to_string())),
        };
        let searched = &mut self.searched;
        searched.infeasible.extend(step.infeasible);
        searched.unknown.extend(step.unknown);
        (searched.stopped, searched.stopped_in) = (step.stopped, step.stopped_in);
        if step.over_limit.is_some() {
            searched.over_limit = step.over_limit;
        }
        let finished = step
            .found
            .as_ref()
            .map(|sends| sends.last().map_or(0, |s| s.step));
        if step.found.is_some() {
            searched.found = step.found;
        }
        Ok(finished)
    }
}

/// `--heuristic` alone (no `--max-time` that could refuse its schedule after
/// it is written), for a caller that does not read the schedule from the
/// report, streams the schedule: it is never held whole.
fn streams(request: &NetworkSearchRequest) -> bool {
    request.heuristic
        && request.max_time.is_none()
        && request.time.is_none()
        && !request.keep_schedule
}

/// The status: 0 with a schedule, 4 when a limit ran out first, 1 when
/// every `T` tried is infeasible.
fn status_of(found: bool, searched: Option<&ScheduleSearch>) -> Status {
    match (found, searched) {
        (true, _) | (false, None) => Status::Ok,
        (false, Some(s)) if s.unknown.is_empty() && s.stopped.is_none() => Status::Rejected,
        (false, Some(_)) => Status::Limit,
    }
}

#[cfg(test)]
mod tests;
