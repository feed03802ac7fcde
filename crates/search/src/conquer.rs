//! The conquer half of cube-and-conquer: the cubes of [`super::cubes`] written
//! out as files for independent jobs, solved locally on every core, or their
//! answers merged.
//!
//! A directory of cubes holds `cubes.icnf` (the formula and the cubes, with the
//! formula's digest in a comment) and, per cube `cube-NNNN`, the input
//! `cube-NNNN.cnf` (the formula with the cube's literals as unit clauses); the
//! jobs add `cube-NNNN.out` (the solver's output: `s` and `v` lines) and, for
//! an unsatisfiable cube, its proof `cube-NNNN.drat` or `cube-NNNN.lrat`.
//! [`merge`] trusts none of it: a model must satisfy the formula and its table
//! pass the kernel; otherwise every cube needs a proof that refutes the
//! formula with that cube, the cubes must cover every assignment, and only
//! then is the formula refuted. The directory then becomes a certificate
//! (`provenance.json` and `formula.cnf` are added) that `verify-proof` checks.

use super::certificate::{self, CertificateError, ProofAuthor, ProofKind, ProofSource, cube_proof};
use super::cluster::queue::CubeQueue;
use super::cubes::{self, Cube, ICNF_FILE};
use super::encode::{Encoding, encode};
use super::external;
use super::options::{EncodingOptions, SearchError, SearchOptions, SolverChoice, claim};
use super::solver::{SatAnswer, SolveControl};
use super::{Infeasibility, Outcome};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;
use txverify_core::kernel::{self, Instance, Table, Verdict};

/// The comment that carries the formula's digest in [`ICNF_FILE`].
const DIGEST_COMMENT: &str = "c formula digest ";

/// Writes the formula for `time` and its `count` cubes into `dir` (the
/// iCNF file and one DIMACS file per cube). Returns the number of cubes.
pub fn write_cubes(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    count: usize,
    dir: &Path,
) -> Result<usize, SearchError> {
    let encoding = encode(instance, time, options)?;
    let cubes = cubes::make_cubes(&encoding.cnf, count);
    std::fs::create_dir_all(dir).map_err(SearchError::io(dir))?;
    let comments = certificate::provenance_comments(instance, time, options);
    let icnf = dir.join(ICNF_FILE);
    write_icnf(&encoding, &cubes, &comments, &icnf)?;
    for (i, cube) in cubes.iter().enumerate() {
        let path = dir.join(format!("{}.cnf", cubes::cube_stem(i)));
        let mut notes = comments.clone();
        notes.push(format!("cube {} of {}: {cube:?}", i + 1, cubes.len()));
        let text = cubes::with_cube(&encoding.cnf, cube).to_dimacs(&notes);
        std::fs::write(&path, text).map_err(SearchError::io(path))?;
    }
    Ok(cubes.len())
}

/// Writes the formula for `time` and its `count` cubes as one iCNF file.
pub fn write_icnf_file(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    count: usize,
    path: &Path,
) -> Result<usize, SearchError> {
    let encoding = encode(instance, time, options)?;
    let cubes = cubes::make_cubes(&encoding.cnf, count);
    let comments = certificate::provenance_comments(instance, time, options);
    write_icnf(&encoding, &cubes, &comments, path)?;
    Ok(cubes.len())
}

fn write_icnf(
    encoding: &Encoding,
    cubes: &[Cube],
    comments: &[String],
    path: &Path,
) -> Result<(), SearchError> {
    let mut notes = comments.to_vec();
    notes.push(format!(
        "{}{:016x}",
        &DIGEST_COMMENT[2..],
        encoding.cnf.digest()
    ));
    let text = cubes::to_icnf(&encoding.cnf, cubes, &notes);
    std::fs::write(path, text).map_err(SearchError::io(path))
}

/// What one cube's solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
enum CubeAnswer {
    Sat(Vec<bool>),
    Unsat,
    Unknown,
}

/// How the cubes of one run ended: a run stopped by its limit still says how
/// far it got, and which cubes a longer run must take up.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CubeTally {
    /// Cubes made (the first ones and the parts of the cubes split again).
    pub cubes: usize,
    /// Cubes refuted.
    pub refuted: usize,
    /// Cubes with a table (at most one: the run stops at the first).
    pub satisfiable: usize,
    /// Cubes split again after running past the budget.
    pub splits: usize,
    /// The cubes not decided, numbered from 1 as the cube files are (the
    /// parts of split cubes after the first ones).
    pub open: Vec<usize>,
}

/// How one cube of a local run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeEnd {
    Refuted,
    /// Past its budget: its parts are queued.
    Split,
    Satisfiable,
    /// Stopped by the run's limit (or by a table found in another cube).
    Open,
}

/// One cube's end and how far the run is at that moment: a run of hours shows
/// it moving (`search --cubes` prints a line for each, unless `-q`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CubeProgress {
    /// The cube, numbered from 1 as the cube files are.
    pub cube: usize,
    pub end: CubeEnd,
    /// Seconds this cube ran.
    pub seconds: f64,
    /// Cubes refuted so far, of `made`.
    pub refuted: usize,
    /// Cubes made so far (the first ones and the parts of split ones).
    pub made: usize,
    /// Cubes neither refuted nor split: queued, running, or stopped.
    pub open: usize,
}

/// What the threads of a local cube run share: the queue of cubes (as
/// [`crate::cluster::queue`] keeps it for MPI workers), the first model, the
/// first failure.
struct Shared {
    queue: Mutex<CubeQueue>,
    model: Mutex<Option<(u32, Vec<bool>)>>,
    failure: Mutex<Option<SearchError>>,
    /// Set on a table or a failure: the other threads stop.
    found: Arc<AtomicBool>,
}

/// Solves the formula for `time` as `count` cubes on `options.jobs` threads
/// (at least one) with the solver asked for, and stops at the first table.
/// A cube that runs past `budget` seconds is split on two more variables and
/// its parts queued first (the queue of `search --mpi`). With a certificate
/// directory, every cube's refutation is written there (varisat's DRAT,
/// CaDiCaL's LRAT, or the external solver's proof when its command has a
/// proof place; a solver that writes no proof is replaced by varisat), and
/// the directory becomes a cube certificate when every cube is refuted.
/// CaDiCaL's and an external solver's proofs are checked as they come.
/// `on_cube` hears of every cube as it ends.
pub fn solve_cubes(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    cubes: (usize, Option<f64>),
    on_cube: &(dyn Fn(&CubeProgress) + Sync),
) -> Result<(Outcome, CubeTally), SearchError> {
    let result = conquer(instance, time, options, cubes, on_cube);
    let certified = matches!(result, Ok((Outcome::Infeasible(_), _)));
    if let (Some(dir), false) = (&options.certificate_dir, certified) {
        remove_cube_proofs(dir);
    }
    result
}

/// Removes the cubes' proofs, finished or partial, from `dir` (and `dir` if
/// that leaves it empty): a run that found a table, was stopped (by a
/// signal, its deadline or its time limit) or failed leaves no proof behind.
fn remove_cube_proofs(dir: &Path) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if entry
            .file_name()
            .to_str()
            .is_some_and(|n| n.starts_with("cube-"))
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
    let _ = std::fs::remove_dir(dir);
}

/// [`solve_cubes`] before the proofs of a run without a certificate are removed.
fn conquer(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    (count, budget): (usize, Option<f64>),
    on_cube: &(dyn Fn(&CubeProgress) + Sync),
) -> Result<(Outcome, CubeTally), SearchError> {
    let started = Instant::now();
    let deadline = options.time_limit.map(|limit| started + limit);
    let encoding = encode(instance, time, &options.encoding)?;
    let queue = CubeQueue::new(&encoding.cnf, count, budget);
    let first = queue.made();
    let author = ProofAuthor::of(options);
    let solver_choice = match options.certificate_dir {
        Some(_) => author.solver(),
        None => options.solver,
    };
    if let Some(dir) = &options.certificate_dir {
        std::fs::create_dir_all(dir).map_err(SearchError::io(dir))?;
    }
    let shared = Shared {
        queue: Mutex::new(queue),
        model: Mutex::new(None),
        failure: Mutex::new(None),
        found: Arc::new(AtomicBool::new(false)),
    };
    let threads = options.jobs.clamp(1, first.max(1));
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let (shared, encoding) = (&shared, &encoding);
            scope.spawn(move || {
                let mut job = CubeJob {
                    cnf: &encoding.cnf,
                    index: 0,
                    time,
                    options,
                    solver: solver_choice,
                    author,
                    deadline,
                    found: &shared.found,
                };
                conquer_thread(&mut job, (thread as i32, deadline), shared, on_cube);
            });
        }
    });
    if let Some(e) = shared.failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let queue = shared.queue.into_inner().unwrap_or_else(|e| e.into_inner());
    let model = shared.model.into_inner().ok().flatten();
    let sat_id = model.as_ref().map(|(id, _)| *id);
    let tally = CubeTally {
        cubes: queue.made(),
        refuted: queue.refuted_count(),
        satisfiable: usize::from(model.is_some()),
        splits: queue.splits(),
        open: (queue.open_cubes().into_iter())
            .filter(|&id| Some(id) != sat_id)
            .map(|id| id as usize + 1)
            .collect(),
    };
    if let Some((_, model)) = model {
        let table = encoding
            .decode(instance, &model)
            .ok_or(SearchError::Undecodable)?;
        kernel_accepts(instance, &table, time)?;
        return Ok((Outcome::Found(table, super::FoundBy::Main), tally));
    }
    if !queue.all_refuted() {
        return Ok((Outcome::Unknown, tally));
    }
    let leaves = queue.refuted_cubes();
    let cubes: Vec<Cube> = leaves.iter().map(|(_, c)| (*c).clone()).collect();
    let certificate = match &options.certificate_dir {
        Some(dir) => {
            // The leaves' proofs take the numbers of the leaves (a part's
            // number is never below its place among them, so nothing is overwritten).
            let extension = proof_extension(author.kind());
            for (i, (id, _)) in leaves
                .iter()
                .enumerate()
                .filter(|(i, (id, _))| *i != *id as usize)
            {
                let name = |n: usize| dir.join(format!("{}.{extension}", cubes::cube_stem(n)));
                std::fs::rename(name(*id as usize), name(i)).map_err(SearchError::io(name(i)))?;
            }
            Some(write_cube_certificate(
                dir, instance, time, options, &encoding, &cubes, author,
            )?)
        }
        None => None,
    };
    let infeasibility = Infeasibility {
        time,
        claim: claim(time, &options.encoding),
        covers_all_tables: options.encoding.covers_all_tables(),
        unrestricted: options.encoding.unrestricted(),
        certificate,
        checked_proof: None,
        refutation: None,
    };
    Ok((Outcome::Infeasible(infeasibility), tally))
}

/// One thread of a local cube run: takes cubes from the queue until a table
/// is found, a job fails, every cube is refuted or the time is up. A cube
/// that comes back unknown at its budget is split; one that comes back
/// unknown at the deadline (or on a stop) stays open.
fn conquer_thread(
    job: &mut CubeJob,
    (thread, deadline): (i32, Option<Instant>),
    shared: &Shared,
    on_cube: &(dyn Fn(&CubeProgress) + Sync),
) {
    let stopped = |options: &SearchOptions| {
        shared.found.load(Ordering::Relaxed)
            || options
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
    };
    loop {
        if stopped(job.options) {
            return;
        }
        let lease = {
            let Ok(mut queue) = shared.queue.lock() else {
                return;
            };
            if queue.all_refuted() {
                return;
            }
            queue.lease(thread, Instant::now())
        };
        let Some(lease) = lease else {
            // Every cube is out: one may come back split.
            std::thread::sleep(std::time::Duration::from_millis(5));
            continue;
        };
        let cut = lease
            .budget
            .map(|b| Instant::now() + crate::seconds::saturating(b));
        job.index = lease.id as usize;
        job.deadline = match (cut, deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let conjoined = cubes::with_cube(job.cnf, &lease.cube);
        let started = Instant::now();
        let answer = CubeJob {
            cnf: &conjoined,
            ..*job
        }
        .run();
        let Ok(mut queue) = shared.queue.lock() else {
            return;
        };
        let end = match answer {
            Ok(CubeAnswer::Sat(model)) => {
                shared.found.store(true, Ordering::Relaxed);
                if let Ok(mut slot) = shared.model.lock() {
                    slot.get_or_insert((lease.id, model));
                }
                CubeEnd::Satisfiable
            }
            Ok(CubeAnswer::Unsat) => {
                queue.refuted(lease.id);
                CubeEnd::Refuted
            }
            Ok(CubeAnswer::Unknown) if lease.budget.is_some() && !stopped(job.options) => {
                queue.split(lease.id);
                CubeEnd::Split
            }
            Ok(CubeAnswer::Unknown) => CubeEnd::Open,
            Err(e) => {
                shared.found.store(true, Ordering::Relaxed);
                if let Ok(mut slot) = shared.failure.lock() {
                    slot.get_or_insert(e);
                }
                return;
            }
        };
        let progress = CubeProgress {
            cube: lease.id as usize + 1,
            end,
            seconds: started.elapsed().as_secs_f64(),
            refuted: queue.refuted_count(),
            made: queue.made(),
            open: queue.open_cubes().len(),
        };
        drop(queue);
        on_cube(&progress);
    }
}

fn proof_extension(kind: ProofKind) -> &'static str {
    match kind {
        ProofKind::Drat => "drat",
        ProofKind::Lrat => "lrat",
    }
}

/// Makes `dir`, which holds every cube's refutation, a cube certificate: the
/// cubes as iCNF and the provenance, naming the solver that refuted them.
pub(crate) fn write_cube_certificate(
    dir: &Path,
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    encoding: &Encoding,
    cubes: &[Cube],
    author: ProofAuthor,
) -> Result<PathBuf, SearchError> {
    let icnf = dir.join(ICNF_FILE);
    let comments = certificate::provenance_comments(instance, time, &options.encoding);
    write_icnf(encoding, cubes, &comments, &icnf)?;
    let solver = format!("{}, one run per cube", author.describe(options));
    let source = ProofSource {
        solver: &solver,
        kind: author.kind(),
        format: "one proof per cube of cubes.icnf",
        cubes: Some(cubes.len()),
    };
    certificate::write_provenance(dir, instance, time, &options.encoding, encoding, &source)?;
    Ok(dir.to_path_buf())
}

/// One cube on one thread.
#[derive(Clone, Copy)]
struct CubeJob<'a> {
    cnf: &'a super::cnf::Cnf,
    index: usize,
    time: usize,
    options: &'a SearchOptions,
    solver: SolverChoice,
    /// Who writes the cubes' proofs when a certificate is asked for (an
    /// external solver's are written and checked without one too).
    author: ProofAuthor,
    deadline: Option<Instant>,
    found: &'a Arc<AtomicBool>,
}

impl CubeJob<'_> {
    fn run(&self) -> Result<CubeAnswer, SearchError> {
        let stem = cubes::cube_stem(self.index);
        let extension = proof_extension(self.author.kind());
        let writes_proof = self.solver == self.author.solver();
        let external = matches!(self.author, ProofAuthor::External(_));
        // A certificate's cube proof is written under its partial name and
        // renamed once refuted.
        let finished = (self.options.certificate_dir.as_ref())
            .filter(|_| writes_proof)
            .map(|dir| dir.join(format!("{stem}.{extension}")));
        let proof_path: Option<PathBuf> = match &self.options.certificate_dir {
            Some(_) => finished.as_deref().map(super::certificate::partial_proof),
            None if external && writes_proof => Some(external::scratch_path(extension)),
            _ => None,
        };
        let varisat = self.solver == SolverChoice::Varisat;
        let proof_file = match proof_path.as_deref().filter(|_| varisat) {
            Some(path) => Some(std::fs::File::create(path).map_err(SearchError::io(path))?),
            None => None,
        };
        let mut stop: Vec<Arc<AtomicBool>> = self.options.stop.iter().cloned().collect();
        stop.push(self.found.clone());
        let control = SolveControl {
            deadline: self.deadline,
            stop,
            proof: proof_file
                .map(|f| Box::new(std::io::BufWriter::new(f)) as Box<dyn std::io::Write>),
            lrat: proof_path
                .as_deref()
                .filter(|_| self.solver == SolverChoice::Cadical),
            on_progress: Box::new(|_| {}),
        };
        let command = external::SolverCommand::of(self.options, self.solver, proof_path.as_deref());
        let (answer, _) = super::run_solver(self.solver, command, self.cnf, control)?;
        let answer = match answer {
            SatAnswer::Sat(model) => CubeAnswer::Sat(model),
            SatAnswer::Unknown => CubeAnswer::Unknown,
            SatAnswer::Unsat => {
                let checked = self.author.checked_when_answered();
                if let Some(path) = proof_path.as_deref().filter(|_| checked) {
                    check_cube_proof(self.cnf, path, self.author.kind()).map_err(|problem| {
                        SearchError::ProofRejected {
                            time: self.time,
                            problem: format!("{stem}: {problem}"),
                        }
                    })?;
                }
                CubeAnswer::Unsat
            }
        };
        let keep = answer == CubeAnswer::Unsat && self.options.certificate_dir.is_some();
        match (proof_path, finished) {
            (Some(_), Some(finished)) if keep => {
                super::certificate::finish_proof(&finished).map_err(SearchError::io(&finished))?
            }
            (Some(path), _) => {
                let _ = std::fs::remove_file(path);
            }
            (None, _) => {}
        }
        Ok(answer)
    }
}

/// Checks a cube's proof against the formula with the cube's units.
fn check_cube_proof(cnf: &super::cnf::Cnf, path: &Path, kind: ProofKind) -> Result<usize, String> {
    certificate::check_proof_file(cnf.vars(), cnf.clauses(), path, kind)
        .map(|r| r.lemmas)
        .map_err(|e| match e {
            CertificateError::Proof(p) => p.to_string(),
            other => other.to_string(),
        })
}

pub(crate) fn kernel_accepts(
    instance: &Instance,
    table: &Table,
    time: usize,
) -> Result<(), SearchError> {
    let checked = kernel::check(instance, table, &[]);
    if checked.verdict() == Verdict::Invalid || checked.time() > time {
        return Err(SearchError::KernelRejected(checked.violations().to_vec()));
    }
    Ok(())
}

/// What the answers in a directory of cubes add up to.
#[derive(Clone, Debug)]
pub enum Merged {
    /// A cube's model, decoded and accepted by the kernel (the cube's index).
    Found(Table, usize),
    /// Every cube refuted with a proof, and the cubes cover: the directory is
    /// now a certificate.
    Infeasible(Infeasibility),
    /// Some cubes have no answer, or an unsatisfiable answer without a proof.
    Open {
        /// Cubes (0-based) without an answer.
        missing: Vec<usize>,
        /// Cubes (0-based) said unsatisfiable without a proof.
        unproved: Vec<usize>,
        /// Cubes refuted with a checked proof.
        proved: usize,
    },
}

/// Why a merge failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MergeError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// The cubes file is malformed.
    #[error("{path}: {source}")]
    Cubes {
        /// The path.
        path: PathBuf,
        /// What is wrong.
        source: cubes::CubeError,
    },
    /// The cubes were written for another formula.
    #[error("{0}: the cubes were made for another formula (another instance, time or options)")]
    OtherFormula(PathBuf),
    /// The cubes leave some assignment uncovered.
    #[error("{0}: the cubes do not cover every assignment, so their refutations prove nothing")]
    NotCovering(PathBuf),
    /// A cube's output or proof is wrong (a model that is not one, a proof that
    /// does not refute the formula with the cube).
    #[error("{stem}: {problem}")]
    Rejected {
        /// The cube.
        stem: String,
        /// What is wrong.
        problem: String,
    },
    /// The formula could not be built, the table is rejected, or the
    /// certificate could not be written.
    #[error(transparent)]
    Search(#[from] SearchError),
}

impl MergeError {
    /// Whether the failure is about the input files (exit status 2) rather
    /// than an answer that does not hold (3).
    pub fn is_input(&self) -> bool {
        match self {
            MergeError::Read { .. }
            | MergeError::Cubes { .. }
            | MergeError::OtherFormula(_)
            | MergeError::NotCovering(_) => true,
            MergeError::Search(e) => e.is_io(),
            MergeError::Rejected { .. } => false,
        }
    }
}

/// Merges the answers of the cubes in `dir` for the formula of `time`.
pub fn merge(
    instance: &Instance,
    time: usize,
    options: &EncodingOptions,
    dir: &Path,
) -> Result<Merged, MergeError> {
    let encoding = encode(instance, time, options).map_err(SearchError::from)?;
    let icnf = dir.join(ICNF_FILE);
    let text = read(&icnf)?;
    let digest = format!("{:016x}", encoding.cnf.digest());
    let recorded = text.lines().find_map(|l| l.strip_prefix(DIGEST_COMMENT));
    if recorded.map(str::trim) != Some(digest.as_str()) {
        return Err(MergeError::OtherFormula(icnf));
    }
    let cubes =
        cubes::cubes_of_icnf(&text, encoding.cnf.vars()).map_err(|source| MergeError::Cubes {
            path: icnf.clone(),
            source,
        })?;
    // A model from any cube settles it.
    let mut said_unsat = Vec::new();
    let mut missing = Vec::new();
    for i in 0..cubes.len() {
        let stem = cubes::cube_stem(i);
        let out = dir.join(format!("{stem}.out"));
        if !out.exists() {
            missing.push(i);
            continue;
        }
        let output = read(&out)?;
        let rejected = |problem: String| MergeError::Rejected {
            stem: stem.clone(),
            problem,
        };
        match answer_of(&output) {
            Some("SATISFIABLE") => {
                let model = external::model_from_text(&output, &encoding.cnf)
                    .map_err(|e| rejected(e.to_string()))?;
                let table = encoding
                    .decode(instance, &model)
                    .ok_or(SearchError::Undecodable)?;
                kernel_accepts(instance, &table, time)?;
                return Ok(Merged::Found(table, i));
            }
            Some("UNSATISFIABLE") => said_unsat.push(i),
            _ => missing.push(i),
        }
    }
    if !cubes::covers(&cubes) {
        return Err(MergeError::NotCovering(icnf));
    }
    let mut unproved = Vec::new();
    let mut proved = 0;
    for &i in &said_unsat {
        let stem = cubes::cube_stem(i);
        let Some((path, kind)) = cube_proof(dir, &stem) else {
            unproved.push(i);
            continue;
        };
        let cnf = cubes::with_cube(&encoding.cnf, &cubes[i]);
        check_cube_proof(&cnf, &path, kind)
            .map_err(|problem| MergeError::Rejected { stem, problem })?;
        proved += 1;
    }
    if !missing.is_empty() || !unproved.is_empty() {
        return Ok(Merged::Open {
            missing,
            unproved,
            proved,
        });
    }
    let kind = cube_proof(dir, &cubes::cube_stem(0)).map_or(ProofKind::Drat, |(_, k)| k);
    let source = ProofSource {
        solver: "the cube jobs' solvers (cube-NNNN.out)",
        kind,
        format: "one proof per cube of cubes.icnf",
        cubes: Some(cubes.len()),
    };
    certificate::write_provenance(dir, instance, time, options, &encoding, &source)?;
    Ok(Merged::Infeasible(Infeasibility {
        time,
        claim: claim(time, options),
        covers_all_tables: options.covers_all_tables(),
        unrestricted: options.unrestricted(),
        certificate: Some(dir.to_path_buf()),
        checked_proof: None,
        refutation: None,
    }))
}

/// The `s` line of a solver's output.
fn answer_of(output: &str) -> Option<&str> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("s "))
        .map(str::trim)
        .next_back()
}

fn read(path: &Path) -> Result<String, MergeError> {
    std::fs::read_to_string(path).map_err(|source| MergeError::Read {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::WordLengths;
    use txverify_core::load::{LoadOptions, load};

    #[test]
    fn a_cube_past_its_budget_is_split_and_the_leaves_make_a_certificate() {
        // The 10-ring over C_10 with words of any length has no table with 14
        // columns, and one cube of it takes hundreds of conflicts: far past a
        // budget of a microsecond, so it is split (twice, then solved to the end).
        let text = "group: <a | a^10>\nnetwork: ring 10\ntable:\n";
        let instance = load(text, &LoadOptions::default()).unwrap().instance;
        let dir = std::env::temp_dir().join(format!("txverify-resplit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let options = SearchOptions {
            encoding: EncodingOptions {
                lengths: WordLengths::Any,
                ..EncodingOptions::default()
            },
            jobs: 2,
            certificate_dir: Some(dir.clone()),
            ..SearchOptions::default()
        };
        let heard = Mutex::new(Vec::new());
        let on_cube = |p: &CubeProgress| heard.lock().unwrap().push(*p);
        let (outcome, tally) =
            solve_cubes(&instance, 14, &options, (1, Some(1e-6)), &on_cube).unwrap();
        assert!(matches!(outcome, Outcome::Infeasible(_)), "{outcome:?}");
        assert!(tally.splits >= 1, "{tally:?}");
        assert_eq!(tally.cubes, 1 + 4 * tally.splits, "{tally:?}");
        assert_eq!(tally.refuted, tally.cubes - tally.splits, "{tally:?}");
        assert!(tally.open.is_empty() && tally.satisfiable == 0, "{tally:?}");
        // Every cube ended once, as refuted or split, and the last word is the tally.
        let heard = heard.into_inner().unwrap();
        assert_eq!(heard.len(), tally.cubes, "{heard:?}");
        let ends = |end| heard.iter().filter(|p| p.end == end).count();
        assert_eq!(ends(CubeEnd::Split), tally.splits, "{heard:?}");
        assert_eq!(ends(CubeEnd::Refuted), tally.refuted, "{heard:?}");
        let last = heard.iter().max_by_key(|p| p.refuted).unwrap();
        assert_eq!(
            (last.refuted, last.made, last.open),
            (tally.refuted, tally.cubes, 0)
        );
        // The leaves' proofs, renumbered, cover every assignment and check.
        let verified = certificate::verify(&instance, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        assert!(verified.is_ok(), "{verified:?}");
    }
}
