//! Total-exchange schedules on any network (an edge list, a mesh, any family):
//! the fewest steps by SAT, certificates that fewer are impossible, and a fast
//! heuristic for networks SAT cannot reach.
//!
//! [`minimise`] tries `T` from a lower bound upward, or from an upper bound
//! downward, with the formula of [`encode`](mod@encode); each model is
//! decoded into timed sends and replayed (an invalid one is an encoder bug and
//! an error). With a certificate directory, every `T` is solved by varisat with
//! a DRAT proof, and each unsatisfiable `T` leaves a certificate
//! ([`certificate`]) that is checked at once. Nothing here decides a verdict:
//! the caller replays what is found and has it judged by
//! [`txverify_core::verdict::judge`].

pub mod certificate;
#[cfg(test)]
mod certificate_layouts;
pub mod collective;
pub mod collective_copies;
pub mod collective_formula;
pub mod collective_sums;
pub mod collective_symmetry;
pub mod encode;
pub mod fabric;
#[cfg(test)]
mod fabric_props;
pub mod heuristic;
pub mod machines;

pub use encode::{ExchangeEncodeError, ExchangeEncoding, PathClass, encode_exchange};

use crate::options::{SolverChoice, SolverError};
use crate::refutation::CheckedRefutation;
use crate::solver::{SatAnswer, SolveControl, solve_varisat};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_core::network::Graph;
use txverify_core::schedule::{Collective, Ports, ReplayOptions, Schedule, TimedSend, replay};
use txverify_core::verdict::{OptimalBy, ScheduleVerdict, schedule_optimal_by};

/// What a schedule search is asked to do.
#[derive(Clone, Debug)]
pub struct ScheduleSearchOptions {
    /// The network as named (recorded in certificates).
    pub network: String,
    /// The paths messages may take.
    pub paths: PathClass,
    /// The first number of steps tried (the lower bound).
    pub from: usize,
    /// The last number of steps tried.
    pub to: usize,
    /// Give up on one `T` after this long.
    pub time_limit: Option<Duration>,
    /// Stop the whole search at this instant (the `T` being solved is then
    /// unknown, and no other is tried).
    pub deadline: Option<Instant>,
    /// Stop the whole search as soon as any of these flags is set (a signal).
    pub stop: Vec<Arc<AtomicBool>>,
    /// The solver (replaced by varisat when certificates are asked for).
    pub solver: SolverChoice,
    /// Where certificates go (`DIR/T<t>/`).
    pub certificate_dir: Option<PathBuf>,
    /// Refuse a formula estimated to have more variables than this
    /// ([`encode::estimate_variables`]) before building it.
    pub max_variables: u64,
}

/// Why a schedule search failed (as opposed to finding nothing).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ScheduleSearchError {
    /// The formula could not be built.
    #[error(transparent)]
    Encode(#[from] ExchangeEncodeError),
    /// The solver failed.
    #[error("solver error: {0}")]
    Solver(#[from] SolverError),
    /// The decoded model is not a valid schedule: an encoder bug.
    #[error("internal error: the model for T={time} replays with {violations} violations")]
    InvalidModel {
        /// The number of steps.
        time: usize,
        /// The violations the replay counted.
        violations: u64,
    },
    /// A certificate could not be written.
    #[error("cannot write the certificate in {path}: {source}")]
    Write {
        /// The directory.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

impl ScheduleSearchError {
    /// Whether the failure is an input/output error.
    pub fn is_io(&self) -> bool {
        matches!(self, ScheduleSearchError::Write { .. })
    }

    /// Whether the input is over a limit of the encoder (too many nodes or
    /// variables): a refusal, not a failure.
    pub fn is_over_limit(&self) -> bool {
        matches!(self, ScheduleSearchError::Encode(_))
    }
}

/// A number of steps shown infeasible, for any collective.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleInfeasibility {
    /// The number of steps.
    pub time: usize,
    /// What the refutation proves, in words.
    pub claim: String,
    /// Whether it covers every schedule of the model (a total exchange with
    /// any paths; always for the other collectives, whose formula restricts
    /// nothing).
    pub covers_all_schedules: bool,
    /// The restrictions it is limited to.
    pub restrictions: Vec<String>,
    /// Where its certificate was written.
    pub certificate: Option<PathBuf>,
    /// Whether that certificate passed [`certificate::verify`] after it was written.
    pub certificate_checked: bool,
    /// The refutation, when the certificate passed and covers every schedule
    /// (only this crate makes one).
    refutation: Option<CheckedRefutation>,
}

impl ScheduleInfeasibility {
    /// The checked refutation, when the certificate passed the checker and its
    /// class covers every schedule of the model.
    pub fn refutation(&self) -> Option<&CheckedRefutation> {
        self.refutation.as_ref()
    }
}

/// Why the judged schedule is optimal, if it is (`lower_bound`,
/// `certificates`): the core's one rule
/// ([`txverify_core::verdict::schedule_optimal_by`]) on the checked
/// refutations among `infeasible`. An infeasibility of shortest paths, or one
/// whose certificate was not written or not accepted, does not count.
pub fn optimal_by(
    verdict: &ScheduleVerdict,
    infeasible: &[ScheduleInfeasibility],
) -> Option<&'static str> {
    let refutations: Vec<CheckedRefutation> = infeasible
        .iter()
        .filter_map(|i| i.refutation().cloned())
        .collect();
    schedule_optimal_by(verdict, &refutations).map(OptimalBy::name)
}

/// What a minimisation found, for any collective ([`minimise`] for the total
/// exchange, [`collective::minimise_collective`] for the others).
#[derive(Clone, Debug, Default)]
pub struct ScheduleSearch {
    /// The sends of the fastest schedule found (replayed once, valid).
    pub found: Option<Vec<TimedSend>>,
    /// The numbers of steps shown infeasible, in order.
    pub infeasible: Vec<ScheduleInfeasibility>,
    /// The numbers of steps where a limit ran out (the one of a `T`, the
    /// run's deadline or a stop request).
    pub unknown: Vec<usize>,
    /// Why the search stopped before it was done, if it did.
    pub stopped: Option<Stopped>,
    /// The phase the stop came in (with `stopped`).
    pub stopped_in: Option<Phase>,
    /// Whether `found` is a translated schedule (the formula of
    /// [`collective_symmetry`] found it; never for a total exchange).
    pub translated: bool,
    /// Why SAT stopped short of the times asked for: the formula of the
    /// next time is over a limit of the encoder (`--max-variables`, the
    /// nodes it takes). The schedules and refutations before it stand.
    /// (A total exchange only: the other collectives' search ends with
    /// [`collective::CollectiveSearchError::OverLimit`] instead.)
    pub over_limit: Option<ExchangeEncodeError>,
}

/// Why a search stopped before it was done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stopped {
    /// The run's deadline ([`ScheduleSearchOptions::deadline`]) passed.
    Deadline,
    /// A stop flag ([`ScheduleSearchOptions::stop`]) was set.
    Requested,
}

impl Stopped {
    /// Whether a search with these stop flags and this deadline must stop now, and
    /// why: the one rule of the total-exchange and the collective searches.
    pub(crate) fn now(stop: &[Arc<AtomicBool>], deadline: Option<Instant>) -> Option<Stopped> {
        if stop.iter().any(|s| s.load(Ordering::Relaxed)) {
            Some(Stopped::Requested)
        } else if deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stopped::Deadline)
        } else {
            None
        }
    }

    /// `deadline` or `signal`, as the reports name it.
    pub fn name(self) -> &'static str {
        match self {
            Stopped::Deadline => "deadline",
            Stopped::Requested => "signal",
        }
    }
}

/// The one stop token of a run: its deadline and the flags a signal sets.
/// Every phase that can take long (a construction's steps, the encoder's
/// messages, the solver's terminator) polls it, so that a run ends soon
/// after either, whatever it is doing.
#[derive(Clone, Debug, Default)]
pub struct StopToken {
    deadline: Option<Instant>,
    flags: Vec<Arc<AtomicBool>>,
}

impl StopToken {
    /// A token that stops at `deadline` or when a flag of `flags` is set.
    pub fn new(deadline: Option<Instant>, flags: Vec<Arc<AtomicBool>>) -> StopToken {
        StopToken { deadline, flags }
    }

    /// Whether the run must stop now, and why.
    pub fn stopped(&self) -> Option<Stopped> {
        Stopped::now(&self.flags, self.deadline)
    }

    /// The deadline.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The flags.
    pub fn flags(&self) -> &[Arc<AtomicBool>] {
        &self.flags
    }
}

/// The phase of a run a stop came in, as the reports name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Making the construction's (heuristic's) schedule.
    Construction,
    /// Building a formula.
    Encoding,
    /// Solving a formula.
    Solving,
}

impl Phase {
    /// `construction`, `encoding` or `solving`.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Construction => "construction",
            Phase::Encoding => "encoding",
            Phase::Solving => "solving",
        }
    }
}

/// What [`minimise`] tells its caller as it goes.
#[derive(Clone, Copy, Debug)]
pub enum ScheduleEvent<'a> {
    /// The formula for `time` steps is being built.
    Encoding {
        /// The number of steps.
        time: usize,
    },
    /// The solver runs on `time` steps (now and then, about every 250 ms).
    Solving {
        /// The number of steps.
        time: usize,
        /// The formula's variables.
        variables: usize,
        /// The formula's clauses.
        clauses: usize,
        /// The clauses the solver has learned so far.
        learned: u64,
        /// The time spent on this `T`.
        elapsed: Duration,
    },
    /// A schedule within `time` steps, decoded and replayed here (sorted by
    /// step): the caller may judge and keep it before the search goes on.
    Found {
        /// The number of steps asked for (the schedule may finish earlier).
        time: usize,
        /// Its sends.
        sends: &'a [TimedSend],
    },
    /// `time` steps are infeasible (the search's `infeasible` says how sure).
    Refuted {
        /// The number of steps.
        time: usize,
    },
    /// A limit ran out on `time` steps (`stopped`: the whole search's).
    Unknown {
        /// The number of steps.
        time: usize,
        /// The run's deadline or a stop request, rather than `T`'s own limit.
        stopped: Option<Stopped>,
    },
}

impl ScheduleSearchOptions {
    /// Whether the whole search must stop now, and why.
    fn stopped(&self) -> Option<Stopped> {
        Stopped::now(&self.stop, self.deadline)
    }

    /// The run's stop token.
    fn token(&self) -> StopToken {
        StopToken::new(self.deadline, self.stop.clone())
    }
}

/// A total-exchange schedule of `sends` on `network`, all-port.
pub fn exchange_schedule(
    network: txverify_core::network::NetworkName,
    sends: Vec<TimedSend>,
) -> Schedule {
    Schedule {
        network: Some(network),
        ports: Some(Ports::All),
        collective: Collective::TotalExchange,
        sends,
    }
}

/// Tries `options.from ..= options.to` steps in order and stops at the first
/// satisfiable one (the `T`s where the limit ran out before are listed: the
/// schedule found is then not shown to be the fastest).
/// `events` hears each `T` tried, the solver's progress, and each schedule
/// found as soon as it is found.
///
/// The search stops at once when `options.deadline` passes or a flag of
/// `options.stop` is set (`stopped`), keeping what it found. Downward, one
/// step below each schedule kept, is the anytime driver's order (the
/// clients' `report::anytime`), which calls this one `T` at a time.
pub fn minimise(
    graph: &Graph,
    options: &ScheduleSearchOptions,
    events: &mut dyn FnMut(ScheduleEvent<'_>),
) -> Result<ScheduleSearch, ScheduleSearchError> {
    let mut result = ScheduleSearch::default();
    let mut time = options.from;
    while time <= options.to {
        if let Some(why) = options.stopped() {
            result.stopped = Some(why);
            break;
        }
        let answer = match solve_at(graph, time, options, events) {
            Err(ScheduleSearchError::Encode(e)) if !e.is_stop() => {
                // SAT goes no further; what it found stands.
                result.over_limit = Some(e);
                break;
            }
            answer => answer?,
        };
        match answer {
            AtTime::Found(mut sends) => {
                sends.sort_by_key(|s| s.step);
                events(ScheduleEvent::Found {
                    time,
                    sends: &sends,
                });
                result.found = Some(sends);
                break;
            }
            AtTime::Infeasible(i) => {
                events(ScheduleEvent::Refuted { time });
                result.infeasible.push(i);
                time += 1;
            }
            AtTime::Unknown(phase) => {
                // The run's own limits first: the solver gave up for them.
                let stopped = options.stopped();
                events(ScheduleEvent::Unknown { time, stopped });
                result.unknown.push(time);
                result.stopped = stopped;
                result.stopped_in = stopped.map(|_| phase);
                // Perhaps a larger T is easier: a limit that runs out moves on.
                if stopped.is_some() {
                    break;
                }
                time += 1;
            }
        }
    }
    Ok(result)
}

/// The answer for one number of steps.
enum AtTime {
    Found(Vec<TimedSend>),
    Infeasible(ScheduleInfeasibility),
    /// A limit ran out in this phase.
    Unknown(Phase),
}

/// Encodes and solves `time` steps; writes and checks a certificate when the
/// answer is unsatisfiable and one is asked for.
fn solve_at(
    graph: &Graph,
    time: usize,
    options: &ScheduleSearchOptions,
    events: &mut dyn FnMut(ScheduleEvent<'_>),
) -> Result<AtTime, ScheduleSearchError> {
    let started = Instant::now();
    events(ScheduleEvent::Encoding { time });
    let estimate = encode::estimate_variables(graph, time, options.paths);
    if estimate > options.max_variables {
        return Err(ExchangeEncodeError::OverLimit {
            time,
            estimate,
            limit: options.max_variables,
        }
        .into());
    }
    let encoding = match encode::encode_exchange_until(graph, time, options.paths, &options.token())
    {
        Err(ExchangeEncodeError::Stopped) => return Ok(AtTime::Unknown(Phase::Encoding)),
        encoding => encoding?,
    };
    // This T's own limit, or the run's deadline if that comes first.
    let deadline = options
        .time_limit
        .map(|limit| started + limit)
        .into_iter()
        .chain(options.deadline)
        .min();
    let (variables, clauses) = (encoding.cnf.vars(), encoding.cnf.clauses().len());
    let dir = options
        .certificate_dir
        .as_ref()
        .map(|d| crate::certificate_dir_for(d, time));
    let proof = match &dir {
        Some(dir) => Some(Box::new(create_proof(dir)?) as Box<dyn std::io::Write>),
        None => None,
    };
    let certified = proof.is_some();
    let control = SolveControl {
        deadline,
        stop: options.stop.clone(),
        proof,
        lrat: None,
        on_progress: Box::new(|learned| {
            events(ScheduleEvent::Solving {
                time,
                variables,
                clauses,
                learned,
                elapsed: started.elapsed(),
            })
        }),
    };
    let answer = if certified {
        solve_varisat(&encoding.cnf, control)?.0
    } else {
        crate::run_solver(options.solver, None, &encoding.cnf, control)?.0
    };
    match answer {
        SatAnswer::Sat(model) => {
            if let Some(dir) = &dir {
                let _ = std::fs::remove_dir_all(dir);
            }
            let sends = encoding.decode(&model);
            check_model(graph, time, &sends)?;
            Ok(AtTime::Found(sends))
        }
        SatAnswer::Unknown => {
            if let Some(dir) = &dir {
                let _ = std::fs::remove_dir_all(dir);
            }
            if options.stopped().is_some() {
                drop_aside(encoding);
            }
            Ok(AtTime::Unknown(Phase::Solving))
        }
        SatAnswer::Unsat => {
            let verified = match &dir {
                Some(dir) => {
                    finish_proof(&dir.join("proof.drat")).map_err(|source| {
                        ScheduleSearchError::Write {
                            path: dir.clone(),
                            source,
                        }
                    })?;
                    write_certificate(graph, time, options, &encoding, dir)?
                }
                None => None,
            };
            Ok(AtTime::Infeasible(ScheduleInfeasibility {
                time,
                claim: certificate::exchange_claim(&options.network, time, options.paths),
                covers_all_schedules: options.paths.covers_all_schedules(),
                restrictions: certificate::restrictions(options.paths),
                certificate: dir,
                certificate_checked: verified.is_some(),
                refutation: verified
                    .as_ref()
                    .and_then(CheckedRefutation::of_schedule_certificate),
            }))
        }
    }
}

/// Frees `value` on a thread of its own: a formula of millions of clauses
/// takes a second or more to free, which a stopped run need not wait for
/// (the process may end first: the memory is the system's again anyway).
pub(crate) fn drop_aside<T: Send + 'static>(value: T) {
    if std::thread::Builder::new()
        .name("free".into())
        .spawn(move || drop(value))
        .is_err()
    {
        // No thread: freed here when the closure is dropped.
    }
}

/// Creates `dir` and the proof file in it, under its partial name
/// ([`partial_proof`]) until the solver has finished it.
fn create_proof(dir: &Path) -> Result<std::io::BufWriter<std::fs::File>, ScheduleSearchError> {
    let failed = |source| ScheduleSearchError::Write {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(failed)?;
    let file = std::fs::File::create(partial_proof(&dir.join("proof.drat"))).map_err(failed)?;
    Ok(std::io::BufWriter::new(file))
}

pub(crate) use crate::certificate::finish_proof;
pub use crate::certificate::{PARTIAL_SUFFIX, partial_proof};

/// Writes the provenance and formula next to the proof, then checks the
/// certificate as `verify-schedule-proof` would; returns what the check
/// found when it passed.
fn write_certificate(
    graph: &Graph,
    time: usize,
    options: &ScheduleSearchOptions,
    encoding: &ExchangeEncoding,
    dir: &Path,
) -> Result<Option<certificate::VerifiedSchedule>, ScheduleSearchError> {
    certificate::write_checked(
        dir,
        &options.network,
        graph,
        certificate::Subject::exchange(options.paths),
        time,
        &encoding.cnf,
        crate::certificate::ProofKind::Drat,
        options.max_variables,
    )
    .map_err(|source| ScheduleSearchError::Write {
        path: dir.to_path_buf(),
        source,
    })
}

/// Replays decoded sends: a model that is not a valid schedule finishing by
/// `time` is an encoder bug.
fn check_model(graph: &Graph, time: usize, sends: &[TimedSend]) -> Result<(), ScheduleSearchError> {
    let schedule = Schedule {
        network: None,
        ports: Some(Ports::All),
        collective: Collective::TotalExchange,
        sends: sends.to_vec(),
    };
    let invalid = |violations| ScheduleSearchError::InvalidModel { time, violations };
    let report =
        replay(&schedule, graph, &ReplayOptions { max_listed: 0 }).map_err(|_| invalid(0))?;
    let violations = report.violation_count();
    if violations > 0 || report.time() as usize > time {
        return Err(invalid(violations));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_core::network::NetworkName;

    fn options(network: &str, from: usize, to: usize, paths: PathClass) -> ScheduleSearchOptions {
        ScheduleSearchOptions {
            network: network.to_string(),
            paths,
            from,
            to,
            time_limit: None,
            deadline: None,
            stop: vec![],
            solver: SolverChoice::Varisat,
            certificate_dir: None,
            max_variables: encode::MAX_VARIABLES,
        }
    }

    #[test]
    fn a_ring_of_five_needs_three_steps() {
        // Ring 5, all-port: 20 messages, 30 hops over 10 directed links: at least 3 steps.
        let g = "ring 5".parse::<NetworkName>().unwrap().build().unwrap();
        let found = minimise(&g, &options("ring 5", 2, 4, PathClass::Any), &mut |_| {}).unwrap();
        assert_eq!(found.infeasible.len(), 1);
        let sends = found.found.unwrap();
        assert_eq!(sends.iter().map(|s| s.step).max(), Some(3));
    }

    #[test]
    fn each_schedule_found_is_heard_and_a_stop_ends_the_search() {
        let g = "ring 5".parse::<NetworkName>().unwrap().build().unwrap();
        let mut down = options("ring 5", 2, 6, PathClass::Any);
        let mut found = vec![];
        let mut hear = |e: ScheduleEvent<'_>| {
            if let ScheduleEvent::Found { time, sends } = e {
                found.push((time, sends.iter().map(|s| s.step).max()));
            }
        };
        let searched = minimise(&g, &down, &mut hear).unwrap();
        assert_eq!(searched.stopped, None);
        // Each schedule is heard as it is found, the last one is kept.
        assert!(!found.is_empty());
        let last = found.last().unwrap().1;
        assert_eq!(last, Some(3));
        assert_eq!(searched.found.unwrap().iter().map(|s| s.step).max(), last);
        // A flag set before the start: nothing is tried.
        let flag = Arc::new(AtomicBool::new(true));
        down.stop = vec![flag.clone()];
        let searched = minimise(&g, &down, &mut |_| {}).unwrap();
        assert_eq!(searched.stopped, Some(Stopped::Requested));
        assert!(searched.found.is_none() && searched.unknown.is_empty());
        // A deadline already passed: the same, for the other reason.
        flag.store(false, Ordering::Relaxed);
        down.deadline = Some(Instant::now());
        let searched = minimise(&g, &down, &mut |_| {}).unwrap();
        assert_eq!(searched.stopped, Some(Stopped::Deadline));
    }
}
