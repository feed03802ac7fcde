//! Search for tables: encode "a valid table with T columns exists" as CNF, solve
//! it, and hand every table found back to the kernel.
//!
//! Nothing here decides a verdict. A satisfying assignment is decoded into a
//! [`Table`] and re-checked by [`kernel::check`] before it is returned; a table
//! the kernel rejects is an encoder bug and comes back as an error. An
//! unsatisfiable formula is reported as [`Outcome::Infeasible`] with the class of
//! tables it speaks about, and optionally a certificate (the formula's
//! provenance and a DRAT proof) that [`certificate::verify`] checks with a proof
//! checker sharing no code with the solver. See docs/search.md and docs/trust.md.

pub mod certificate;
pub mod cnf;
pub mod encode;
pub mod portfolio;
pub mod proofcheck;
pub mod routes;
pub mod solver;
pub mod split;
pub mod symmetry;

pub use encode::{ENCODING_VERSION, Encoding, EncodingOptions, EncodingStats, WordLengths, encode};

use crate::kernel::{self, Instance, Table, Verdict, Violation};
use serde::Serialize;
use solver::{SatAnswer, SolveControl};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How to search.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// What the formula encodes (word lengths, symmetry restrictions).
    pub encoding: EncodingOptions,
    /// Give up on one `T` after this long (the outcome is then [`Outcome::Unknown`]).
    pub time_limit: Option<Duration>,
    /// Give up when this flag is set.
    pub stop: Option<Arc<AtomicBool>>,
    /// Solver threads: with 2 or more, a helper on a second thread takes turns on
    /// symmetric restrictions and a shuffled copy of the formula (see
    /// [`portfolio`]) while the main solver runs; 0 and 1 mean the main solver alone.
    pub jobs: usize,
    /// Write a certificate for every infeasible `T` into this directory
    /// (`solve` writes into it directly; `minimise` into `T<time>/` below it).
    pub certificate_dir: Option<PathBuf>,
    /// Write the formula as DIMACS to this file (`minimise`: `<file>.T<time>`)
    /// instead of solving it.
    pub dimacs_only: Option<PathBuf>,
    /// The SAT solver.
    pub solver: SolverChoice,
}

/// Which SAT solver runs the formula.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SolverChoice {
    /// varisat, built in, writes DRAT proofs.
    #[default]
    Varisat,
    /// CaDiCaL (cargo feature `cadical`); no proofs: when a certificate is
    /// asked for, an unsatisfiable answer is re-derived with varisat.
    Cadical,
    /// z3 (cargo feature `z3`, links the system's libz3); no proofs either:
    /// certificates are re-derived with varisat as for CaDiCaL.
    Z3,
}

impl SolverChoice {
    /// Whether this build has the solver.
    pub fn available(self) -> bool {
        match self {
            SolverChoice::Varisat => true,
            SolverChoice::Cadical => cfg!(feature = "cadical"),
            SolverChoice::Z3 => cfg!(feature = "z3"),
        }
    }
}

/// Why `T` columns are not enough.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Infeasibility {
    /// The number of columns.
    pub time: usize,
    /// The class of tables the answer speaks about, in words.
    pub claim: String,
    /// Whether that class is every table with these word lengths (no symmetry restriction).
    pub covers_all_tables: bool,
    /// Where the certificate was written, if one was asked for.
    pub certificate: Option<PathBuf>,
}

/// What one search for a table with `T` columns found.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// A table with at most `T` columns, accepted by the kernel, and who found it.
    Found(Table, FoundBy),
    /// No table of the searched class has `T` columns.
    Infeasible(Infeasibility),
    /// The limit ran out, or only a DIMACS file was written.
    Unknown,
}

/// Which solver run found a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FoundBy {
    /// The main solver, on the formula asked for.
    Main,
    /// The portfolio's helper, on the formula described.
    Helper(String),
}

/// Where a search is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Building the formula.
    Encoding,
    /// The solver is running.
    Solving,
    /// This `T` is settled.
    Done,
}

/// A progress report.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct Progress {
    /// The number of columns being tried.
    pub time: usize,
    /// What is happening.
    pub phase: Phase,
    /// Size of the formula (zero while encoding).
    pub stats: EncodingStats,
    /// Clauses the solver has learned so far (about one per conflict).
    pub learned: u64,
    /// What the portfolio's helper is doing, when there is one and the main solver runs.
    pub helper: Option<portfolio::HelperActivity>,
    /// Time spent on this `T`.
    pub elapsed: Duration,
}

/// Why a search failed.
#[derive(Debug, thiserror::Error)]
pub enum SearchError {
    /// The formula could not be built.
    #[error(transparent)]
    Encode(#[from] encode::EncodeError),
    /// The solver failed.
    #[error("solver error: {0}")]
    Solver(String),
    /// The solver's model did not decode to a table, or the kernel rejected it.
    #[error("internal error: the search produced a table the kernel rejects ({0:?})")]
    KernelRejected(Vec<Violation>),
    /// The model did not decode to a table.
    #[error("internal error: the solver's model does not describe a table")]
    Undecodable,
    /// The main solver refuted the formula while the helper found a table the
    /// kernel accepts: the encoding misses tables (or a solver is wrong).
    #[error(
        "internal error: the formula was refuted, but the helper found a valid table with {0} columns"
    )]
    Contradiction(usize),
    /// Files could not be written.
    #[error("cannot write {path}: {error}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The link set is defective, so there is no lower bound to start from.
    #[error("the link set is defective; the kernel reports why")]
    NoBound,
}

/// The class of tables a formula speaks about, in words.
pub fn claim(time: usize, options: &EncodingOptions) -> String {
    let words = match options.lengths {
        WordLengths::Shortest => "whose words are all shortest paths".to_string(),
        WordLengths::Slack(k) => {
            format!("whose words are at most {k} letters longer than shortest paths")
        }
        WordLengths::Any => "with words of any length".to_string(),
    };
    let mut restrictions = Vec::new();
    if let Some(p) = &options.automorphism {
        restrictions.push(format!(
            "invariant under the link automorphism {p:?} (on its full-length orbits of messages)"
        ));
    }
    if options.time_reversal {
        restrictions.push(
            "equal to its time reversal (on the messages that are not involutions)".to_string(),
        );
    }
    if !options.split.is_empty() {
        restrictions.push(format!(
            "made of {} repeated blocks split along the links {:?} (docs/search.md)",
            1usize << options.split.len(),
            options.split
        ));
    }
    let mut text = format!("no valid table with {time} columns {words}");
    if !restrictions.is_empty() {
        text.push_str(" that is ");
        text.push_str(&restrictions.join(" and "));
    }
    text
}

/// Searches for a table with `time` columns.
pub fn solve(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
) -> Result<Outcome, SearchError> {
    solve_reporting(instance, time, options, &mut |_| {})
}

/// [`solve`] with progress reports.
pub fn solve_reporting(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Outcome, SearchError> {
    let started = Instant::now();
    let mut report = Progress {
        time,
        phase: Phase::Encoding,
        stats: EncodingStats::default(),
        learned: 0,
        helper: None,
        elapsed: Duration::ZERO,
    };
    progress(&report);
    let encoding = encode(instance, time, &options.encoding)?;
    report.stats = encoding.stats();
    report.phase = Phase::Solving;
    report.elapsed = started.elapsed();
    progress(&report);

    if let Some(path) = &options.dimacs_only {
        let text = encoding.cnf.to_dimacs(&certificate::provenance_comments(
            instance,
            time,
            &options.encoding,
        ));
        std::fs::write(path, text).map_err(|error| SearchError::Io {
            path: path.clone(),
            error,
        })?;
        report.phase = Phase::Done;
        progress(&report);
        return Ok(Outcome::Unknown);
    }

    let deadline = options.time_limit.map(|limit| started + limit);
    let stats = report.stats;
    let proof_path = match &options.certificate_dir {
        Some(dir) => Some(certificate::prepare(dir)?),
        None => None,
    };
    // Set by the helper when it has the answer, and by the main solve when it has.
    let main_stop = Arc::new(AtomicBool::new(false));
    let helper_stop = Arc::new(AtomicBool::new(false));
    let user_stop: Vec<Arc<AtomicBool>> = options.stop.iter().cloned().collect();
    let board = portfolio::Board::default();
    let helping = options.jobs >= 2;
    let (main, helped) = std::thread::scope(|scope| {
        let helper = helping.then(|| {
            let mut stops = user_stop.clone();
            stops.push(helper_stop.clone());
            let (main_stop, encoding, board) = (main_stop.clone(), &encoding, &board);
            let proof_wanted = proof_path.is_some();
            scope.spawn(move || {
                let outcome =
                    portfolio::help(instance, time, options, encoding, deadline, &stops, board);
                let decisive = match &outcome {
                    Ok(portfolio::HelperOutcome::Found(..)) => true,
                    // The shuffled copy's refutation carries no proof.
                    Ok(portfolio::HelperOutcome::Unsat) => !proof_wanted,
                    Ok(portfolio::HelperOutcome::Unknown) => false,
                    Err(_) => false,
                };
                if decisive {
                    main_stop.store(true, Ordering::Relaxed);
                }
                outcome
            })
        });
        let mut stops = user_stop.clone();
        stops.push(main_stop.clone());
        let mut run = |solver: SolverChoice, proof: Option<&std::path::Path>| {
            let proof_file = match proof {
                Some(path) => {
                    Some(
                        std::fs::File::create(path).map_err(|error| SearchError::Io {
                            path: path.to_path_buf(),
                            error,
                        })?,
                    )
                }
                None => None,
            };
            let control = SolveControl {
                deadline,
                stop: stops.clone(),
                proof: proof_file
                    .map(|f| Box::new(std::io::BufWriter::new(f)) as Box<dyn std::io::Write>),
                on_progress: Box::new(|learned| {
                    progress(&Progress {
                        time,
                        phase: Phase::Solving,
                        stats,
                        learned,
                        helper: helping.then(|| board.read()),
                        elapsed: started.elapsed(),
                    })
                }),
            };
            run_solver(solver, &encoding.cnf, control)
        };
        let main = (|| {
            let (mut answer, mut learned) = match options.solver {
                SolverChoice::Varisat => run(SolverChoice::Varisat, proof_path.as_deref())?,
                other => run(other, None)?,
            };
            if answer == SatAnswer::Unsat
                && options.solver != SolverChoice::Varisat
                && proof_path.is_some()
            {
                // Only varisat writes proofs: derive the refutation again for the certificate.
                let (again, more) = run(SolverChoice::Varisat, proof_path.as_deref())?;
                answer = again;
                learned += more;
            }
            Ok::<_, SearchError>((answer, learned))
        })();
        helper_stop.store(true, Ordering::Relaxed);
        let helped = helper.map(|h| {
            h.join()
                .unwrap_or_else(|_| Err(SearchError::Solver("the helper thread panicked".into())))
        });
        (main, helped)
    });
    let (answer, learned) = main?;
    let helped = match helped {
        Some(result) => result?,
        None => portfolio::HelperOutcome::Unknown,
    };
    report.learned = learned;
    report.phase = Phase::Done;
    report.elapsed = started.elapsed();
    progress(&report);
    let (table, by) = match (answer, helped) {
        (SatAnswer::Sat(model), _) => (
            encoding
                .decode(instance, &model)
                .ok_or(SearchError::Undecodable)?,
            FoundBy::Main,
        ),
        (SatAnswer::Unknown, portfolio::HelperOutcome::Found(table, by)) => {
            (table, FoundBy::Helper(by))
        }
        (SatAnswer::Unsat, portfolio::HelperOutcome::Found(table, _))
            if kernel::check(instance, &table, &[]).verdict() != Verdict::Invalid =>
        {
            // Both finished at once; a restricted formula's table is a table of the full one.
            return Err(SearchError::Contradiction(time));
        }
        (answer, helped) => {
            let refuted = answer == SatAnswer::Unsat
                || (proof_path.is_none() && matches!(helped, portfolio::HelperOutcome::Unsat));
            if !refuted {
                return finish(Outcome::Unknown, &options.certificate_dir, &proof_path);
            }
            let certificate = match (&options.certificate_dir, &proof_path) {
                (Some(dir), Some(_)) => {
                    certificate::write_provenance(
                        dir,
                        instance,
                        time,
                        &options.encoding,
                        &encoding,
                    )?;
                    Some(dir.clone())
                }
                _ => None,
            };
            return finish(
                Outcome::Infeasible(Infeasibility {
                    time,
                    claim: claim(time, &options.encoding),
                    covers_all_tables: options.encoding.covers_all_tables(),
                    certificate,
                }),
                &options.certificate_dir,
                &proof_path,
            );
        }
    };
    let checked = kernel::check(instance, &table, &[]);
    if checked.verdict() == Verdict::Invalid || checked.time() > time {
        return Err(SearchError::KernelRejected(checked.violations().to_vec()));
    }
    finish(
        Outcome::Found(table, by),
        &options.certificate_dir,
        &proof_path,
    )
}

/// Removes an unused proof file (and its directory, if empty) unless the outcome is
/// an infeasibility with a certificate.
fn finish(
    outcome: Outcome,
    certificate_dir: &Option<PathBuf>,
    proof_path: &Option<PathBuf>,
) -> Result<Outcome, SearchError> {
    if !matches!(outcome, Outcome::Infeasible(_))
        && let Some(path) = proof_path
    {
        // No certificate for this T: leave nothing behind (the directory too, if empty).
        let _ = std::fs::remove_file(path);
        if let Some(dir) = certificate_dir {
            let _ = std::fs::remove_dir(dir);
        }
    }
    Ok(outcome)
}

pub(crate) fn run_solver(
    solver: SolverChoice,
    cnf: &cnf::Cnf,
    control: SolveControl<'_>,
) -> Result<(SatAnswer, u64), SearchError> {
    match solver {
        SolverChoice::Varisat => solver::solve_varisat(cnf, control).map_err(SearchError::Solver),
        #[cfg(feature = "cadical")]
        SolverChoice::Cadical => solver::solve_cadical(cnf, control).map_err(SearchError::Solver),
        #[cfg(not(feature = "cadical"))]
        SolverChoice::Cadical => Err(SearchError::Solver(
            "this build has no CaDiCaL (cargo feature `cadical`)".into(),
        )),
        #[cfg(feature = "z3")]
        SolverChoice::Z3 => solver::solve_z3(cnf, control).map_err(SearchError::Solver),
        #[cfg(not(feature = "z3"))]
        SolverChoice::Z3 => Err(SearchError::Solver(
            "this build has no z3 (cargo feature `z3`)".into(),
        )),
    }
}

/// The result of [`minimise`].
#[derive(Clone, Debug)]
pub struct Minimum {
    /// The fastest table found, accepted by the kernel.
    pub table: Table,
    /// Its time.
    pub time: usize,
    /// The kernel's lower bound (holds for every table).
    pub lower_bound: u64,
    /// Every `T` from the lower bound up that was shown infeasible.
    pub infeasible: Vec<Infeasibility>,
    /// Every `T` on which the limit ran out.
    pub unknown: Vec<usize>,
    /// Which solver run found the table.
    pub found_by: FoundBy,
}

/// Searches upwards from the kernel's lower bound until a table is found.
///
/// Returns `Ok(None)` when `dimacs_only` is set (formulas were written for every
/// `T` from the bound up to `max_time`, or for the bound alone), or when no table
/// was found up to `max_time` (or at all, under a symmetry restriction).
pub fn minimise(
    instance: &Instance,
    options: &SearchOptions,
    max_time: Option<usize>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Option<Minimum>, SearchError> {
    let lower_bound = kernel::check(instance, &Table::default(), &[])
        .bound()
        .ok_or(SearchError::NoBound)?
        .value;
    // Words placed one after the other always fit: an upper bound for the loop.
    let serial = encode::shortest_letters(instance);
    // Without a solver (DIMACS only) and no `max_time`, write the lower bound's formula only.
    let default_last = if options.dimacs_only.is_some() {
        lower_bound as usize
    } else {
        serial
    };
    let last = max_time
        .unwrap_or(default_last)
        .min(serial.max(lower_bound as usize));
    let mut infeasible = Vec::new();
    let mut unknown = Vec::new();
    for time in lower_bound as usize..=last {
        let mut step_options = options.clone();
        if let Some(dir) = &options.certificate_dir {
            step_options.certificate_dir = Some(dir.join(format!("T{time}")));
        }
        if let Some(file) = &options.dimacs_only {
            let mut name = file.clone().into_os_string();
            name.push(format!(".T{time}"));
            step_options.dimacs_only = Some(name.into());
        }
        match solve_reporting(instance, time, &step_options, progress)? {
            Outcome::Found(table, found_by) => {
                let time = kernel::check(instance, &table, &[]).time();
                return Ok(Some(Minimum {
                    table,
                    time,
                    lower_bound,
                    infeasible,
                    unknown,
                    found_by,
                }));
            }
            Outcome::Infeasible(i) => infeasible.push(i),
            Outcome::Unknown => unknown.push(time),
        }
    }
    Ok(None)
}
