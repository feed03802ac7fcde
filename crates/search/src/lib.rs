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

//!
//! The modules, from the bottom up: [`options`] (what is asked, what can fail),
//! [`cnf`] and [`routes`] (formulas and walks), [`symmetry`] and [`split`]
//! (restrictions), [`breaking`] (symmetry breaking that keeps every orbit),
//! [`encode`](mod@encode) (the formula), [`solver`] and [`external`] (SAT
//! solvers, built in or run as a command; `run_solver` chooses),
//! [`txverify_proofcheck`] and [`certificate`] (proofs of infeasibility, from varisat or
//! from an external solver), [`portfolio`] (the helper thread), [`cubes`] and
//! [`conquer`] (cube-and-conquer); this module puts them together.
//! [`schedule`](mod@schedule) searches total-exchange schedules (not tables)
//! on any network with its own formula, the same solvers and proof checker.

pub mod breaking;
pub mod certificate;
pub mod cluster;
pub mod cnf;
pub mod conquer;
pub mod cubes;
pub mod encode;
pub mod external;
pub mod options;
pub mod portfolio;
pub mod proof_report;
pub mod refutation;
pub mod routes;
pub mod schedule;
pub mod seconds;
pub mod solver;
pub mod split;
pub mod symmetry;

pub use encode::{ENCODING_VERSION, Encoding, EncodingStats, encode};
pub use options::{
    BreakingMap, EncodeError, EncodingOptions, SearchError, SearchOptions, SolverChoice,
    SolverError, SymmetryBreaking, WordLengths, claim,
};

use certificate::{ProofAuthor, ProofKind};
use portfolio::{Board, HelperOutcome};
use serde::Serialize;
use solver::{SatAnswer, SolveControl};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use txverify_core::kernel::{self, Instance, Table, Verdict};

/// Why `T` columns are not enough.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Infeasibility {
    /// The number of columns.
    pub time: usize,
    /// The class of tables the answer speaks about, in words.
    pub claim: String,
    /// Whether that class is every table: words of any length and no symmetry
    /// restriction (`EncodingOptions::covers_all_tables`).
    pub covers_all_tables: bool,
    /// Whether the class has no symmetry restriction (it may still be limited
    /// to shortest or slack-limited words).
    pub unrestricted: bool,
    /// Where the certificate was written, if one was asked for.
    pub certificate: Option<PathBuf>,
    /// The lemmas of the external solver's proof, when its proof (`{proof}`
    /// or `{lrat}` in the command) was checked against the formula.
    pub checked_proof: Option<usize>,
    /// The refutation, when a proof was checked during the search and the
    /// class covers every table (only this crate makes one).
    #[serde(skip)]
    refutation: Option<refutation::CheckedRefutation>,
}

impl Infeasibility {
    /// The checked refutation made during the search, if any (a certificate
    /// written for a later check has none yet:
    /// [`refutation::table_refutations`] checks it).
    pub fn refutation(&self) -> Option<&refutation::CheckedRefutation> {
        self.refutation.as_ref()
    }
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

    let author = ProofAuthor::of(options);
    let proof_path = match (&options.certificate_dir, author) {
        // Written under its partial name, renamed once the solver has finished it.
        (Some(dir), author) => Some(schedule::partial_proof(&certificate::prepare(
            dir,
            author.kind(),
        )?)),
        // An external solver's proof is checked even when no certificate is kept.
        (None, ProofAuthor::External(kind)) => Some(external::scratch_path(match kind {
            ProofKind::Drat => "drat",
            ProofKind::Lrat => "lrat",
        })),
        (None, _) => None,
    };
    let run = Run {
        instance,
        time,
        options,
        encoding: &encoding,
        started,
        deadline: options.time_limit.map(|limit| started + limit),
        proof_path: proof_path.as_deref(),
        author,
        checked_lemmas: std::sync::OnceLock::new(),
    };
    let outcome = run.race(progress).and_then(|(answer, learned, helped)| {
        report.learned = learned;
        report.phase = Phase::Done;
        report.elapsed = started.elapsed();
        progress(&report);
        run.settle(answer, helped)
    });
    clean_up(&outcome, &options.certificate_dir, &proof_path);
    outcome
}

/// Runs the solver `choice` on `cnf`. Returns the answer and the number of
/// learned clauses (for z3, its conflicts).
pub(crate) fn run_solver(
    choice: SolverChoice,
    external_command: Option<external::SolverCommand<'_>>,
    cnf: &cnf::Cnf,
    control: SolveControl<'_>,
) -> Result<(SatAnswer, u64), SolverError> {
    match choice {
        SolverChoice::External => match external_command {
            Some(command) => external::solve_external(command, cnf, control),
            None => Err(SolverError::External {
                problem: "no command given (--solver-cmd)".to_string(),
            }),
        },
        SolverChoice::Varisat => solver::solve_varisat(cnf, control),
        #[cfg(feature = "cadical")]
        SolverChoice::Cadical => solver::solve_cadical(cnf, control),
        #[cfg(not(feature = "cadical"))]
        SolverChoice::Cadical => Err(SolverError::NotBuilt {
            name: "CaDiCaL",
            feature: "cadical",
        }),
        SolverChoice::Z3 => match solver::z3_backend() {
            Some(solve_z3) => solve_z3(cnf, control),
            None => Err(SolverError::NotBuilt {
                name: "z3",
                feature: "z3",
            }),
        },
    }
}

/// The kind of proof the external solver's command writes, when it has a
/// `{proof}` (DRAT) or `{lrat}` (LRAT) place.
pub(crate) fn external_proof_kind(options: &SearchOptions) -> Option<ProofKind> {
    let command = options
        .external_command
        .as_deref()
        .filter(|_| options.solver == SolverChoice::External)?;
    if command.contains(external::LRAT_PLACE) {
        Some(ProofKind::Lrat)
    } else if command.contains(external::DRAT_PLACE) {
        Some(ProofKind::Drat)
    } else {
        None
    }
}

/// Writes the formula as DIMACS, with its provenance in comments.
fn write_dimacs(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    encoding: &Encoding,
    path: &Path,
) -> Result<(), SearchError> {
    let comments = certificate::provenance_comments(instance, time, options);
    std::fs::write(path, encoding.cnf.to_dimacs(&comments)).map_err(SearchError::io(path))
}

/// One search for a table with `time` columns, once the formula is built.
struct Run<'a> {
    instance: &'a Instance,
    time: usize,
    options: &'a SearchOptions,
    encoding: &'a Encoding,
    started: Instant,
    deadline: Option<Instant>,
    /// Where the main solver's proof goes, when a certificate is asked for or
    /// the external solver writes one.
    proof_path: Option<&'a Path>,
    /// Who writes the proof at `proof_path`.
    author: ProofAuthor,
    /// The lemmas of CaDiCaL's or the external solver's proof, once it is checked.
    checked_lemmas: std::sync::OnceLock<usize>,
}

impl Run<'_> {
    /// Runs the main solver, and the portfolio's helper next to it when
    /// `jobs >= 2`; whichever has a decisive answer first stops the other.
    /// Returns the main solver's answer, its learned clauses and the helper's outcome.
    fn race(
        &self,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<(SatAnswer, u64, HelperOutcome), SearchError> {
        // Set by the helper when it has the answer, and by the main solve when it has.
        let main_stop = Arc::new(AtomicBool::new(false));
        let helper_stop = Arc::new(AtomicBool::new(false));
        let user_stop: Vec<Arc<AtomicBool>> = self.options.stop.iter().cloned().collect();
        let board = Board::default();
        let helping = self.options.jobs >= 2;
        let (main, helped) = std::thread::scope(|scope| {
            let helper = helping.then(|| {
                let mut stops = user_stop.clone();
                stops.push(helper_stop.clone());
                let (main_stop, board) = (&main_stop, &board);
                scope.spawn(move || self.help(&stops, main_stop, board))
            });
            let mut stops = user_stop.clone();
            stops.push(main_stop.clone());
            let main = self.solve_main(&stops, helping.then_some(&board), progress);
            helper_stop.store(true, Ordering::Relaxed);
            let helped = helper.map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(SolverError::Panicked { name: "the helper" }.into()))
            });
            (main, helped)
        });
        let (answer, learned) = main?;
        let helped = match helped {
            Some(result) => result?,
            None => HelperOutcome::Unknown,
        };
        Ok((answer, learned, helped))
    }

    /// The helper's thread: runs the portfolio's helper and stops the main
    /// solver when the helper's answer is decisive.
    fn help(
        &self,
        stops: &[Arc<AtomicBool>],
        main_stop: &AtomicBool,
        board: &Board,
    ) -> Result<HelperOutcome, SearchError> {
        let outcome = portfolio::help(
            self.instance,
            self.time,
            self.options,
            self.encoding,
            self.deadline,
            stops,
            board,
        );
        let decisive = match &outcome {
            Ok(HelperOutcome::Found(..)) => true,
            // The shuffled copy's refutation carries no proof.
            Ok(HelperOutcome::Unsat) => self.proof_path.is_none(),
            Ok(HelperOutcome::Unknown) | Err(_) => false,
        };
        if decisive {
            main_stop.store(true, Ordering::Relaxed);
        }
        outcome
    }

    /// The main solver on the formula. When CaDiCaL or an external solver
    /// writes a proof, its "unsatisfiable" stands only if the proof checks
    /// (an error otherwise); when a solver that writes none refutes the
    /// formula and a certificate is asked for, varisat derives the refutation again.
    fn solve_main(
        &self,
        stops: &[Arc<AtomicBool>],
        board: Option<&Board>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<(SatAnswer, u64), SearchError> {
        let chosen = self.options.solver;
        let writes_proof = chosen == self.author.solver();
        let proof = self.proof_path.filter(|_| writes_proof);
        let (mut answer, mut learned) = self.solve_once(chosen, proof, stops, board, progress)?;
        if answer == SatAnswer::Unsat {
            if let Some(path) = proof.filter(|_| self.author.checked_when_answered()) {
                let cnf = &self.encoding.cnf;
                let kind = self.author.kind();
                let report = certificate::check_proof_file(cnf.vars(), cnf.clauses(), path, kind)
                    .map_err(|e| SearchError::ProofRejected {
                    time: self.time,
                    problem: match e {
                        certificate::CertificateError::Proof(p) => p.to_string(),
                        other => other.to_string(),
                    },
                })?;
                let _ = self.checked_lemmas.set(report.lemmas);
            } else if !writes_proof && let Some(path) = self.proof_path {
                let (again, more) =
                    self.solve_once(SolverChoice::Varisat, Some(path), stops, board, progress)?;
                answer = again;
                learned += more;
            }
        }
        Ok((answer, learned))
    }

    /// One solver run on the formula, writing a proof to `proof` if given.
    fn solve_once(
        &self,
        chosen: SolverChoice,
        proof: Option<&Path>,
        stops: &[Arc<AtomicBool>],
        board: Option<&Board>,
        progress: &mut dyn FnMut(&Progress),
    ) -> Result<(SatAnswer, u64), SearchError> {
        // varisat streams its proof through a writer; CaDiCaL and an external
        // solver write theirs to the file themselves.
        let proof_file = match proof.filter(|_| chosen == SolverChoice::Varisat) {
            Some(path) => Some(std::fs::File::create(path).map_err(SearchError::io(path))?),
            None => None,
        };
        let stats = self.encoding.stats();
        let control = SolveControl {
            deadline: self.deadline,
            stop: stops.to_vec(),
            proof: proof_file
                .map(|f| Box::new(std::io::BufWriter::new(f)) as Box<dyn std::io::Write>),
            lrat: proof.filter(|_| chosen == SolverChoice::Cadical),
            on_progress: Box::new(|learned| {
                progress(&Progress {
                    time: self.time,
                    phase: Phase::Solving,
                    stats,
                    learned,
                    helper: board.map(Board::read),
                    elapsed: self.started.elapsed(),
                })
            }),
        };
        let command = external::SolverCommand::of(self.options, chosen, proof);
        Ok(run_solver(chosen, command, &self.encoding.cnf, control)?)
    }

    /// What the answers mean: a table (checked by the kernel), an
    /// infeasibility (with its certificate's provenance written), or nothing.
    fn settle(&self, answer: SatAnswer, helped: HelperOutcome) -> Result<Outcome, SearchError> {
        let (table, by) = match (answer, helped) {
            (SatAnswer::Sat(model), _) => (
                self.encoding
                    .decode(self.instance, &model)
                    .ok_or(SearchError::Undecodable)?,
                FoundBy::Main,
            ),
            (SatAnswer::Unknown, HelperOutcome::Found(table, by)) => (table, FoundBy::Helper(by)),
            (SatAnswer::Unsat, HelperOutcome::Found(table, _))
                if kernel::check(self.instance, &table, &[]).verdict() != Verdict::Invalid =>
            {
                // Both finished at once; a restricted formula's table is a table of the full one.
                return Err(SearchError::Contradiction { time: self.time });
            }
            (answer, helped) => {
                let refuted = answer == SatAnswer::Unsat
                    || (self.proof_path.is_none() && matches!(helped, HelperOutcome::Unsat));
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

    /// The infeasibility of `time`, with the certificate's other files written
    /// next to the proof when one is asked for.
    fn infeasible(&self) -> Result<Outcome, SearchError> {
        let encoding_options = &self.options.encoding;
        let certificate = match (&self.options.certificate_dir, self.proof_path) {
            (Some(dir), Some(_)) => {
                let finished = dir.join(self.author.kind().file_name());
                schedule::finish_proof(&finished).map_err(SearchError::io(&finished))?;
                let solver = self.author.describe(self.options);
                let source = certificate::ProofSource {
                    solver: &solver,
                    kind: self.author.kind(),
                    format: self.author.format(),
                    cubes: None,
                };
                certificate::write_provenance(
                    dir,
                    self.instance,
                    self.time,
                    encoding_options,
                    self.encoding,
                    &source,
                )?;
                Some(dir.clone())
            }
            _ => None,
        };
        Ok(Outcome::Infeasible(Infeasibility {
            time: self.time,
            claim: claim(self.time, encoding_options),
            covers_all_tables: encoding_options.covers_all_tables(),
            unrestricted: encoding_options.unrestricted(),
            certificate,
            checked_proof: self.checked_lemmas.get().copied(),
            refutation: self.checked_lemmas.get().and_then(|_| {
                refutation::CheckedRefutation::of_checked_table_proof(
                    self.time,
                    encoding_options.covers_all_tables(),
                )
            }),
        }))
    }
}

/// Removes the proof file, under its partial name or renamed, unless the
/// outcome is an infeasibility with a certificate (and the certificate's
/// directory too, if it is left empty): a run stopped by a signal, its
/// deadline or its time limit leaves no proof behind.
fn clean_up(
    outcome: &Result<Outcome, SearchError>,
    certificate_dir: &Option<PathBuf>,
    proof_path: &Option<PathBuf>,
) {
    let Some(path) = proof_path else {
        return;
    };
    let certified = matches!(outcome, Ok(Outcome::Infeasible(_))) && certificate_dir.is_some();
    if !certified {
        let _ = std::fs::remove_file(path);
        if let Some(dir) = certificate_dir {
            if let Some(finished) = path
                .file_name()
                .and_then(|n| n.to_str()?.strip_suffix(schedule::PARTIAL_SUFFIX))
            {
                let _ = std::fs::remove_file(dir.join(finished));
            }
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The table a model of the formula for `time` columns describes, for a model
/// found anywhere (`text`: a solver's `v` lines, or bare literals): the model
/// must satisfy every clause of the regenerated formula, and the decoded table
/// is re-checked by the kernel, as for a model of the search's own solvers.
pub fn decode_model(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    text: &str,
) -> Result<Table, SearchError> {
    let encoding = encode(instance, time, options)?;
    let model = external::model_from_text(text, &encoding.cnf)?;
    let table = encoding
        .decode(instance, &model)
        .ok_or(SearchError::Undecodable)?;
    let checked = kernel::check(instance, &table, &[]);
    if checked.verdict() == Verdict::Invalid || checked.time() > time {
        return Err(SearchError::KernelRejected(checked.violations().to_vec()));
    }
    Ok(table)
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

/// Everything [`minimise_tried`] tried, whether or not it found a table.
#[derive(Clone, Debug)]
pub struct Tried {
    /// The kernel's lower bound (holds for every table).
    pub lower_bound: u64,
    /// Every `T` from the lower bound up that was shown infeasible.
    pub infeasible: Vec<Infeasibility>,
    /// Every `T` on which the limit ran out.
    pub unknown: Vec<usize>,
    /// The table found (accepted by the kernel), its time and which solver run found it.
    pub found: Option<(Table, usize, FoundBy)>,
}

/// Searches upwards from the kernel's lower bound until a table is found.
///
/// Returns `Ok(None)` when `dimacs_only` is set (formulas were written for every
/// `T` from the bound up to `max_time`, or for the bound alone), or when no table
/// was found up to `max_time` (or at all, under a symmetry restriction);
/// [`minimise_tried`] keeps what was tried then too.
pub fn minimise(
    instance: &Instance,
    options: &SearchOptions,
    max_time: Option<usize>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Option<Minimum>, SearchError> {
    let tried = minimise_tried(instance, options, max_time, progress)?;
    Ok(tried.found.map(|(table, time, found_by)| Minimum {
        table,
        time,
        lower_bound: tried.lower_bound,
        infeasible: tried.infeasible,
        unknown: tried.unknown,
        found_by,
    }))
}

/// [`minimise`], keeping every answer also when no table is found (for a
/// report of the whole search).
pub fn minimise_tried(
    instance: &Instance,
    options: &SearchOptions,
    max_time: Option<usize>,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Tried, SearchError> {
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
        // A stop (SIGINT, SIGTERM) ends the climb: the T it came in is
        // unknown, the ones above it are not tried.
        if options
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            && time > lower_bound as usize
        {
            break;
        }
        match solve_reporting(instance, time, &step_options(options, time), progress)? {
            Outcome::Found(table, found_by) => {
                let time = kernel::check(instance, &table, &[]).time();
                return Ok(Tried {
                    lower_bound,
                    infeasible,
                    unknown,
                    found: Some((table, time, found_by)),
                });
            }
            Outcome::Infeasible(i) => infeasible.push(i),
            Outcome::Unknown => unknown.push(time),
        }
    }
    Ok(Tried {
        lower_bound,
        infeasible,
        unknown,
        found: None,
    })
}

/// Where a search with `--certificate DIR` writes the certificate of `time`:
/// `DIR/T<time>/`, whether it minimises or tries one time, so that one layout
/// serves both (and `proofs/NAME/T<time>` in the repository).
pub fn certificate_dir_for(dir: &Path, time: usize) -> PathBuf {
    dir.join(format!("T{time}"))
}

/// The certificates `dir` names: itself when it holds `provenance.json` (or
/// is not a directory of certificates, so that checking it reports why), else
/// its `T<t>/` subdirectories that hold one ([`certificate_dir_for`]), in
/// order of t: what `verify-proof` checks for each directory it is given.
pub fn certificate_dirs_in(dir: &Path) -> Vec<PathBuf> {
    if dir.join("provenance.json").is_file() {
        return vec![dir.to_path_buf()];
    }
    let complete = complete_certificate_dirs(dir);
    if complete.is_empty() && incomplete_certificate_dirs(dir).is_empty() {
        return vec![dir.to_path_buf()];
    }
    complete
}

/// The `T<t>/` subdirectories of `dir` that hold a certificate, in order of t.
fn complete_certificate_dirs(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<(usize, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let t = name.to_str()?.strip_prefix('T')?.parse().ok()?;
            let path = entry.path();
            path.join("provenance.json").is_file().then_some((t, path))
        })
        .collect();
    found.sort();
    found.into_iter().map(|(_, path)| path).collect()
}

/// A `T<t>/` folder of a certificate directory that holds no certificate:
/// its search was stopped or killed before the certificate was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IncompleteCertificate {
    /// The folder.
    pub dir: PathBuf,
    /// The files in it (a proof still under its partial name, a solver's
    /// raw proof), with their sizes in bytes.
    pub files: Vec<(String, u64)>,
}

impl std::fmt::Display for IncompleteCertificate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is an incomplete certificate: it holds no provenance.json (its search was stopped or killed before the certificate was written)",
            self.dir.display()
        )?;
        if !self.files.is_empty() {
            let files: Vec<String> = self
                .files
                .iter()
                .map(|(name, bytes)| format!("{name} ({bytes} bytes)"))
                .collect();
            write!(f, "; it holds {}", files.join(", "))?;
        }
        Ok(())
    }
}

/// The `T<t>/` subdirectories of `dir` without `provenance.json`, in order
/// of t (none when `dir` is itself a certificate).
pub fn incomplete_certificate_dirs(dir: &Path) -> Vec<IncompleteCertificate> {
    if dir.join("provenance.json").is_file() {
        return vec![];
    }
    let mut found: Vec<(usize, IncompleteCertificate)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let t: usize = name.to_str()?.strip_prefix('T')?.parse().ok()?;
            let path = entry.path();
            if !path.is_dir() || path.join("provenance.json").is_file() {
                return None;
            }
            let mut files: Vec<(String, u64)> = std::fs::read_dir(&path)
                .into_iter()
                .flatten()
                .flatten()
                .map(|f| {
                    let bytes = f.metadata().map_or(0, |m| m.len());
                    (f.file_name().to_string_lossy().into_owned(), bytes)
                })
                .collect();
            files.sort();
            Some((t, IncompleteCertificate { dir: path, files }))
        })
        .collect();
    found.sort_by_key(|(t, _)| *t);
    found.into_iter().map(|(_, i)| i).collect()
}

/// The options of [`minimise`]'s step `time`: certificates into `T<time>/`,
/// the formula into `<file>.T<time>`.
pub(crate) fn step_options(options: &SearchOptions, time: usize) -> SearchOptions {
    let mut step = options.clone();
    if let Some(dir) = &options.certificate_dir {
        step.certificate_dir = Some(certificate_dir_for(dir, time));
    }
    if let Some(file) = &options.dimacs_only {
        let mut name = file.clone().into_os_string();
        name.push(format!(".T{time}"));
        step.dimacs_only = Some(name.into());
    }
    step
}
