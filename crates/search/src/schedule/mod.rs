//! Total-exchange schedules on any network (an edge list, a mesh, any family):
//! the fewest steps by SAT, certificates that fewer are impossible, and a fast
//! heuristic for networks SAT cannot reach.
//!
//! [`minimise`] starts at a lower bound and tries `T`, `T + 1`, … with the
//! formula of [`encode`](mod@encode) until it is satisfiable; each model is
//! decoded into timed sends and replayed (an invalid one is an encoder bug and
//! an error). With a certificate directory, every `T` is solved by varisat with
//! a DRAT proof, and each unsatisfiable `T` leaves a certificate
//! ([`certificate`]) that is checked at once. Nothing here decides a verdict:
//! the caller replays what is found and has it judged by
//! [`txverify_core::verdict::judge`].

pub mod certificate;
pub mod collective;
pub mod collective_certificate;
pub mod collective_sums;
pub mod encode;
pub mod heuristic;

pub use encode::{ExchangeEncodeError, ExchangeEncoding, PathClass, encode_exchange};

use crate::options::{SolverChoice, SolverError};
use crate::refutation::CheckedRefutation;
use crate::solver::{SatAnswer, SolveControl, solve_varisat};
use std::path::{Path, PathBuf};
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
    /// The solver (replaced by varisat when certificates are asked for).
    pub solver: SolverChoice,
    /// Where certificates go (`DIR/T<t>/`).
    pub certificate_dir: Option<PathBuf>,
    /// Try `to`, `to − 1`, … instead (see [`minimise`]).
    pub descending: bool,
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

/// A number of steps shown infeasible.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleInfeasibility {
    /// The number of steps.
    pub time: usize,
    /// What the refutation proves, in words.
    pub claim: String,
    /// Whether it covers every schedule of the model (any paths).
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

/// What a minimisation found.
#[derive(Clone, Debug, Default)]
pub struct ScheduleSearch {
    /// The sends of the fastest schedule found (replayed once, valid).
    pub found: Option<Vec<TimedSend>>,
    /// The numbers of steps shown infeasible, in order.
    pub infeasible: Vec<ScheduleInfeasibility>,
    /// The numbers of steps where the limit ran out.
    pub unknown: Vec<usize>,
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
/// `progress` hears each `T` before it is tried.
///
/// Descending (`options.descending`), it tries `to`, then one below the time
/// of each schedule found, and stops at the first `T` refuted or where the
/// limit runs out: the satisfiable formulas far from the optimum are the easy
/// ones. As no schedule that finishes within `T` steps means none within
/// fewer, a refutation of `T` then settles every `T` below it too.
pub fn minimise(
    graph: &Graph,
    options: &ScheduleSearchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ScheduleSearch, ScheduleSearchError> {
    if options.descending {
        return descend(graph, options, progress);
    }
    let mut result = ScheduleSearch::default();
    for time in options.from..=options.to {
        progress(time);
        match solve_at(graph, time, options)? {
            AtTime::Found(mut sends) => {
                sends.sort_by_key(|s| s.step);
                result.found = Some(sends);
                break;
            }
            AtTime::Infeasible(i) => result.infeasible.push(i),
            // Perhaps a larger T is easier: a limit that runs out moves on.
            AtTime::Unknown => result.unknown.push(time),
        }
    }
    Ok(result)
}

/// [`minimise`], descending.
fn descend(
    graph: &Graph,
    options: &ScheduleSearchOptions,
    progress: &mut dyn FnMut(usize),
) -> Result<ScheduleSearch, ScheduleSearchError> {
    let mut result = ScheduleSearch::default();
    let mut time = options.to;
    while time >= options.from {
        progress(time);
        match solve_at(graph, time, options)? {
            AtTime::Found(mut sends) => {
                sends.sort_by_key(|s| s.step);
                let finished = sends.last().map_or(0, |s| s.step as usize);
                result.found = Some(sends);
                match finished.min(time).checked_sub(1) {
                    Some(next) => time = next,
                    None => break,
                }
            }
            AtTime::Infeasible(i) => {
                result.infeasible.push(i);
                break;
            }
            AtTime::Unknown => {
                result.unknown.push(time);
                break;
            }
        }
    }
    Ok(result)
}

/// The answer for one number of steps.
enum AtTime {
    Found(Vec<TimedSend>),
    Infeasible(ScheduleInfeasibility),
    Unknown,
}

/// Encodes and solves `time` steps; writes and checks a certificate when the
/// answer is unsatisfiable and one is asked for.
fn solve_at(
    graph: &Graph,
    time: usize,
    options: &ScheduleSearchOptions,
) -> Result<AtTime, ScheduleSearchError> {
    let started = Instant::now();
    let estimate = encode::estimate_variables(graph, time, options.paths, options.max_variables);
    if estimate > options.max_variables {
        return Err(ExchangeEncodeError::OverLimit {
            time,
            estimate,
            limit: options.max_variables,
        }
        .into());
    }
    let encoding = encode_exchange(graph, time, options.paths)?;
    let control = |proof: Option<Box<dyn std::io::Write>>| SolveControl {
        deadline: options.time_limit.map(|limit| started + limit),
        stop: vec![],
        proof,
        lrat: None,
        on_progress: Box::new(|_| {}),
    };
    let dir = options
        .certificate_dir
        .as_ref()
        .map(|d| crate::certificate_dir_for(d, time));
    let answer = match &dir {
        Some(dir) => {
            let file = create_proof(dir)?;
            solve_varisat(&encoding.cnf, control(Some(Box::new(file))))?.0
        }
        None => crate::run_solver(options.solver, None, &encoding.cnf, control(None))?.0,
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
            Ok(AtTime::Unknown)
        }
        SatAnswer::Unsat => {
            let verified = match &dir {
                Some(dir) => write_certificate(graph, time, options, &encoding, dir)?,
                None => None,
            };
            Ok(AtTime::Infeasible(ScheduleInfeasibility {
                time,
                claim: certificate::claim(&options.network, time, options.paths),
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

/// Creates `dir` and the proof file in it.
fn create_proof(dir: &Path) -> Result<std::io::BufWriter<std::fs::File>, ScheduleSearchError> {
    let failed = |source| ScheduleSearchError::Write {
        path: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(failed)?;
    let file = std::fs::File::create(dir.join("proof.drat")).map_err(failed)?;
    Ok(std::io::BufWriter::new(file))
}

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
    let provenance =
        certificate::provenance_of(&options.network, graph, time, options.paths, encoding);
    certificate::write(dir, &provenance, encoding).map_err(|source| {
        ScheduleSearchError::Write {
            path: dir.to_path_buf(),
            source,
        }
    })?;
    Ok(certificate::verify_within(graph, dir, options.max_variables).ok())
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
            solver: SolverChoice::Varisat,
            certificate_dir: None,
            descending: false,
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
        let mut down = options("ring 5", 2, 6, PathClass::Any);
        down.descending = true;
        let found = minimise(&g, &down, &mut |_| {}).unwrap();
        assert_eq!(
            found.infeasible.iter().map(|i| i.time).collect::<Vec<_>>(),
            [2]
        );
        let sends = found.found.unwrap();
        assert_eq!(sends.iter().map(|s| s.step).max(), Some(3));
    }
}
