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
use super::cubes::{self, Cube, ICNF_FILE};
use super::encode::{Encoding, encode};
use super::external;
use super::options::{EncodingOptions, SearchError, SearchOptions, SolverChoice, claim};
use super::solver::{SatAnswer, SolveControl};
use super::{Infeasibility, Outcome};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
    /// Cubes made.
    pub cubes: usize,
    /// Cubes refuted.
    pub refuted: usize,
    /// Cubes with a table (at most one: the run stops at the first).
    pub satisfiable: usize,
    /// The cubes not decided, numbered from 1 as the cube files are.
    pub open: Vec<usize>,
}

impl CubeTally {
    fn of(answers: &[CubeAnswer]) -> CubeTally {
        CubeTally {
            cubes: answers.len(),
            refuted: answers.iter().filter(|a| **a == CubeAnswer::Unsat).count(),
            satisfiable: answers
                .iter()
                .filter(|a| matches!(a, CubeAnswer::Sat(_)))
                .count(),
            open: (0..answers.len())
                .filter(|&i| answers[i] == CubeAnswer::Unknown)
                .map(|i| i + 1)
                .collect(),
        }
    }
}

/// Solves the formula for `time` as `count` cubes on `options.jobs` threads
/// (at least one) with the solver asked for, and stops at the first table.
/// With a certificate directory, every cube's refutation is written there
/// (varisat's DRAT, CaDiCaL's LRAT, or the external solver's proof when its
/// command has a proof place; a solver that writes no proof is replaced by
/// varisat), and the directory becomes a cube certificate when every cube is
/// refuted. CaDiCaL's and an external solver's proofs are checked as they come.
pub fn solve_cubes(
    instance: &Instance,
    time: usize,
    options: &SearchOptions,
    count: usize,
) -> Result<(Outcome, CubeTally), SearchError> {
    let started = Instant::now();
    let deadline = options.time_limit.map(|limit| started + limit);
    let encoding = encode(instance, time, &options.encoding)?;
    let cubes = cubes::make_cubes(&encoding.cnf, count);
    let author = ProofAuthor::of(options);
    let solver_choice = match options.certificate_dir {
        Some(_) => author.solver(),
        None => options.solver,
    };
    if let Some(dir) = &options.certificate_dir {
        std::fs::create_dir_all(dir).map_err(SearchError::io(dir))?;
    }
    let next = AtomicUsize::new(0);
    let found = Arc::new(AtomicBool::new(false));
    let answers: Mutex<Vec<CubeAnswer>> = Mutex::new(vec![CubeAnswer::Unknown; cubes.len()]);
    let failure: Mutex<Option<SearchError>> = Mutex::new(None);
    let threads = options.jobs.clamp(1, cubes.len());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= cubes.len() || found.load(Ordering::Relaxed) {
                        return;
                    }
                    let job = CubeJob {
                        cnf: &cubes::with_cube(&encoding.cnf, &cubes[i]),
                        index: i,
                        time,
                        options,
                        solver: solver_choice,
                        author,
                        deadline,
                        found: &found,
                    };
                    match job.run() {
                        Ok(answer) => {
                            if matches!(answer, CubeAnswer::Sat(_)) {
                                found.store(true, Ordering::Relaxed);
                            }
                            if let Ok(mut all) = answers.lock() {
                                all[i] = answer;
                            }
                        }
                        Err(e) => {
                            found.store(true, Ordering::Relaxed);
                            if let Ok(mut slot) = failure.lock() {
                                slot.get_or_insert(e);
                            }
                            return;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().ok().flatten() {
        return Err(e);
    }
    let answers = answers.into_inner().unwrap_or_default();
    let tally = CubeTally::of(&answers);
    for answer in &answers {
        if let CubeAnswer::Sat(model) = answer {
            let table = encoding
                .decode(instance, model)
                .ok_or(SearchError::Undecodable)?;
            kernel_accepts(instance, &table, time)?;
            return Ok((Outcome::Found(table, super::FoundBy::Main), tally));
        }
    }
    if answers.contains(&CubeAnswer::Unknown) {
        return Ok((Outcome::Unknown, tally));
    }
    let certificate = match &options.certificate_dir {
        Some(dir) => Some(write_cube_certificate(
            dir, instance, time, options, &encoding, &cubes, author,
        )?),
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
        let extension = match self.author.kind() {
            ProofKind::Drat => "drat",
            ProofKind::Lrat => "lrat",
        };
        let writes_proof = self.solver == self.author.solver();
        let external = matches!(self.author, ProofAuthor::External(_));
        let proof_path: Option<PathBuf> = match &self.options.certificate_dir {
            Some(dir) if writes_proof => Some(dir.join(format!("{stem}.{extension}"))),
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
        if let Some(path) = proof_path.filter(|_| !keep) {
            let _ = std::fs::remove_file(path);
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
