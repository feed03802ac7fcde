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
pub mod options;
pub mod portfolio;
pub mod proofcheck;
pub mod routes;
pub mod solver;
pub mod split;
pub mod symmetry;

pub use encode::{ENCODING_VERSION, Encoding, EncodingOptions, EncodingStats, WordLengths, encode};
pub use options::{
    FoundBy, HelperActivity, Infeasibility, Outcome, Phase, Progress, SearchError, SearchOptions,
    SolverChoice, claim,
};
pub use solver::SolverError;

use crate::kernel::{self, Instance, Table, Verdict};
use solver::{SatAnswer, SolveControl};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
        write_dimacs(instance, time, &options.encoding, &encoding, path)?;
        report.phase = Phase::Done;
        progress(&report);
        return Ok(Outcome::Unknown);
    }
    let proof_path = match &options.certificate_dir {
        Some(dir) => Some(certificate::prepare(dir)?),
        None => None,
    };
    let run = Run {
        instance,
        time,
        options,
        encoding: &encoding,
        proof_path: proof_path.as_deref(),
        started,
    };
    let answers = run.solve(progress)?;
    report.learned = answers.learned;
    report.phase = Phase::Done;
    report.elapsed = started.elapsed();
    progress(&report);
    let outcome = run.settle(answers)?;
    finish(outcome, &options.certificate_dir, &proof_path)
}

/// Writes the formula as DIMACS, with its provenance in comment lines.
fn write_dimacs(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    encoding: &Encoding,
    path: &Path,
) -> Result<(), SearchError> {
    let comments = certificate::provenance_comments(instance, time, options);
    std::fs::write(path, encoding.cnf.to_dimacs(&comments)).map_err(|error| SearchError::Io {
        path: path.to_path_buf(),
        error,
    })
}

/// One search for `time` columns, once the formula is built.
struct Run<'a> {
    instance: &'a Instance,
    time: usize,
    options: &'a SearchOptions,
    encoding: &'a Encoding,
    proof_path: Option<&'a Path>,
    started: Instant,
}

/// What the main solver and the helper answered.
struct Answers {
    main: SatAnswer,
    learned: u64,
    helper: portfolio::HelperOutcome,
}

impl Run<'_> {
    /// Runs the main solver and, with two or more jobs, the portfolio's helper
    /// beside it; whichever is decisive first stops the other.
    fn solve(&self, progress: &mut dyn FnMut(&Progress)) -> Result<Answers, SearchError> {
        let deadline = self.options.time_limit.map(|limit| self.started + limit);
        // Set by the helper when it has the answer, and by the main solve when it has.
        let main_stop = Arc::new(AtomicBool::new(false));
        let helper_stop = Arc::new(AtomicBool::new(false));
        let user_stop: Vec<Arc<AtomicBool>> = self.options.stop.iter().cloned().collect();
        let board = portfolio::Board::default();
        let helping = self.options.jobs >= 2;
        let (main, helped) = std::thread::scope(|scope| {
            let helper = helping.then(|| {
                let mut stops = user_stop.clone();
                stops.push(helper_stop.clone());
                let (main_stop, board) = (main_stop.clone(), &board);
                scope.spawn(move || self.help(deadline, &stops, board, &main_stop))
            });
            let mut stops = user_stop.clone();
            stops.push(main_stop.clone());
            let mut on_progress = |learned| {
                progress(&Progress {
                    time: self.time,
                    phase: Phase::Solving,
                    stats: self.encoding.stats(),
                    learned,
                    helper: helping.then(|| board.read()),
                    elapsed: self.started.elapsed(),
                })
            };
            let main = self.main_solve(deadline, &stops, &mut on_progress);
            helper_stop.store(true, Ordering::Relaxed);
            let helped = helper.map(|h| {
                h.join()
                    .unwrap_or(Err(SearchError::Solver(SolverError::Panicked)))
            });
            (main, helped)
        });
        let (main, learned) = main?;
        let helper = match helped {
            Some(result) => result?,
            None => portfolio::HelperOutcome::Unknown,
        };
        Ok(Answers {
            main,
            learned,
            helper,
        })
    }

    /// The helper's thread: tries restrictions and a shuffled copy, and stops the
    /// main solver when its answer settles the question.
    fn help(
        &self,
        deadline: Option<Instant>,
        stops: &[Arc<AtomicBool>],
        board: &portfolio::Board,
        main_stop: &AtomicBool,
    ) -> Result<portfolio::HelperOutcome, SearchError> {
        let outcome = portfolio::help(
            self.instance,
            self.time,
            self.options,
            self.encoding,
            deadline,
            stops,
            board,
        );
        let decisive = match &outcome {
            Ok(portfolio::HelperOutcome::Found(..)) => true,
            // The shuffled copy's refutation carries no proof.
            Ok(portfolio::HelperOutcome::Unsat) => self.proof_path.is_none(),
            Ok(portfolio::HelperOutcome::Unknown) | Err(_) => false,
        };
        if decisive {
            main_stop.store(true, Ordering::Relaxed);
        }
        outcome
    }

    /// The main solver on the formula asked for; when a certificate is wanted and
    /// the chosen solver writes no proof, an unsatisfiable answer is derived again
    /// with varisat, which does.
    fn main_solve(
        &self,
        deadline: Option<Instant>,
        stops: &[Arc<AtomicBool>],
        on_progress: &mut dyn FnMut(u64),
    ) -> Result<(SatAnswer, u64), SearchError> {
        let chosen = self.options.solver;
        let proof_now = if chosen == SolverChoice::Varisat {
            self.proof_path
        } else {
            None
        };
        let (mut answer, mut learned) =
            self.run_solver(chosen, proof_now, deadline, stops, on_progress)?;
        if answer == SatAnswer::Unsat
            && chosen != SolverChoice::Varisat
            && self.proof_path.is_some()
        {
            let (again, more) = self.run_solver(
                SolverChoice::Varisat,
                self.proof_path,
                deadline,
                stops,
                on_progress,
            )?;
            answer = again;
            learned += more;
        }
        Ok((answer, learned))
    }

    /// One solver run, writing its proof to `proof` when given.
    fn run_solver(
        &self,
        choice: SolverChoice,
        proof: Option<&Path>,
        deadline: Option<Instant>,
        stops: &[Arc<AtomicBool>],
        on_progress: &mut dyn FnMut(u64),
    ) -> Result<(SatAnswer, u64), SearchError> {
        let proof_file = match proof {
            Some(path) => Some(
                std::fs::File::create(path).map_err(|error| SearchError::Io {
                    path: path.to_path_buf(),
                    error,
                })?,
            ),
            None => None,
        };
        let control = SolveControl {
            deadline,
            stop: stops.to_vec(),
            proof: proof_file
                .map(|f| Box::new(std::io::BufWriter::new(f)) as Box<dyn std::io::Write>),
            on_progress: Box::new(on_progress),
        };
        Ok(solver::run_solver(choice, &self.encoding.cnf, control)?)
    }

    /// Turns the two answers into an outcome: a table (re-checked by the kernel),
    /// an infeasibility (with its certificate), or unknown.
    fn settle(&self, answers: Answers) -> Result<Outcome, SearchError> {
        let (table, by) = match (answers.main, answers.helper) {
            (SatAnswer::Sat(model), _) => (
                self.encoding
                    .decode(self.instance, &model)
                    .ok_or(SearchError::Undecodable)?,
                FoundBy::Main,
            ),
            (SatAnswer::Unknown, portfolio::HelperOutcome::Found(table, by)) => {
                (table, FoundBy::Helper(by))
            }
            (SatAnswer::Unsat, portfolio::HelperOutcome::Found(table, _))
                if kernel::check(self.instance, &table, &[]).verdict() != Verdict::Invalid =>
            {
                // Both finished at once; a restricted formula's table is a table of the full one.
                return Err(SearchError::Contradiction(self.time));
            }
            (answer, helped) => {
                let refuted = answer == SatAnswer::Unsat
                    || (self.proof_path.is_none()
                        && matches!(helped, portfolio::HelperOutcome::Unsat));
                return if refuted {
                    self.infeasible()
                } else {
                    Ok(Outcome::Unknown)
                };
            }
        };
        let checked = kernel::check(self.instance, &table, &[]);
        if checked.verdict() == Verdict::Invalid || checked.time() > self.time {
            return Err(SearchError::KernelRejected(checked.violations().to_vec()));
        }
        Ok(Outcome::Found(table, by))
    }

    /// The infeasibility of this `T`, with the certificate's provenance written
    /// when a proof was.
    fn infeasible(&self) -> Result<Outcome, SearchError> {
        let options = self.options;
        let certificate = match (&options.certificate_dir, self.proof_path) {
            (Some(dir), Some(_)) => {
                certificate::write_provenance(
                    dir,
                    self.instance,
                    self.time,
                    &options.encoding,
                    self.encoding,
                )?;
                Some(dir.clone())
            }
            _ => None,
        };
        Ok(Outcome::Infeasible(Infeasibility {
            time: self.time,
            claim: claim(self.time, &options.encoding),
            covers_all_tables: options.encoding.covers_all_tables(),
            certificate,
        }))
    }
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
    let lower_bound = kernel::lower_bound(instance)
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
