//! Rank 0's side, without MPI: the formula, the cube queue, and the checks
//! every answer passes before it counts.
//!
//! A model is decoded and the table must pass the kernel; a proof is written
//! to a file and must refute `formula ∧ cube` in the proof checker. Only then
//! is a cube settled. When every leaf is refuted, the proofs are renamed to the
//! layout of a single-machine cube run and [`conquer`]'s certificate writer
//! adds the cubes and the provenance, so `verify-proof` reads it like any
//! other cube certificate.

use super::protocol::Answer;
use super::queue::{CubeQueue, Lease};
use super::task;
use crate::certificate;
use crate::conquer;
use crate::cubes::{self, Cube};
use crate::encode::{Encoding, encode};
use crate::options::{SearchError, SearchOptions, claim};
use crate::{FoundBy, Infeasibility, Outcome};
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;
use std::time::{Duration, Instant};
use txverify_core::kernel::{Instance, Table};

/// A cube lost this many times stops the run (something is wrong with it, not with a worker).
const MAX_LOSSES: u32 = 3;

/// How a cluster run is set up.
#[derive(Clone, Debug)]
pub struct ClusterOptions {
    /// Cubes to start with (`None`: [`CUBES_PER_WORKER`] per worker).
    pub cubes: Option<usize>,
    /// Seconds a solver gets on a cube before the cube is split again.
    pub budget: Option<f64>,
    /// A cube out with a worker for longer than this is handed out again
    /// (`None`: twice the budget and a minute, or never without a budget).
    pub lease: Option<Duration>,
}

/// Cubes per worker when `--cubes` is not given.
pub const CUBES_PER_WORKER: usize = 8;

impl ClusterOptions {
    /// The lease in effect.
    pub fn lease(&self) -> Option<Duration> {
        self.lease.or(self
            .budget
            .map(|b| crate::seconds::saturating(2.0 * b + 60.0)))
    }
}

/// What a cluster run measured.
#[derive(Clone, Debug, Default)]
pub struct ClusterStats {
    /// Processes that solved cubes.
    pub workers: usize,
    /// Cubes at the start.
    pub first_cubes: usize,
    /// Cubes made in all (with the children of splits).
    pub made: usize,
    /// Cubes split again because they ran past the budget.
    pub splits: usize,
    /// Cubes refuted with a checked proof.
    pub refuted: usize,
    /// Cubes with a table the kernel accepted (0 or 1: the run stops at the first).
    pub satisfiable: usize,
    /// Cubes left undecided when the run ended (on a table found, or its limit).
    pub open: usize,
    /// Cubes handed out again after a lost solver or an overdue worker.
    pub handed_out_again: usize,
    /// The wall time of every solver run, in the order the answers came.
    pub cube_seconds: Vec<f64>,
    /// Per worker rank: cubes answered and seconds spent solving.
    pub per_worker: BTreeMap<i32, (usize, f64)>,
    /// Seconds rank 0 spent checking proofs and models.
    pub check_seconds: f64,
    /// Wall time of the run.
    pub wall_seconds: f64,
}

/// Rank 0's state.
pub struct Conductor<'a> {
    instance: &'a Instance,
    time: usize,
    options: &'a SearchOptions,
    encoding: Encoding,
    queue: CubeQueue,
    /// Where checked proofs wait (the certificate directory, or a scratch one).
    proof_dir: PathBuf,
    found: Option<Table>,
    stats: ClusterStats,
    started: Instant,
    /// Proofs being checked on their own threads, oldest first.
    checks: VecDeque<PendingCheck>,
    /// Most proofs checked at once.
    max_checks: usize,
    /// Lemmas of the proofs checked so far.
    lemmas: usize,
}

/// A proof checked on its own thread: the cube, and how long the check took
/// and the lemmas it checked, or why it failed.
struct PendingCheck {
    id: u32,
    handle: std::thread::JoinHandle<Result<(f64, usize), String>>,
}

impl<'a> Conductor<'a> {
    /// Encodes the formula for `time` and splits it for `workers` workers.
    pub fn new(
        instance: &'a Instance,
        time: usize,
        options: &'a SearchOptions,
        cluster: &ClusterOptions,
        workers: usize,
    ) -> Result<Conductor<'a>, SearchError> {
        let started = Instant::now();
        let encoding = encode(instance, time, &options.encoding)?;
        let count = cluster.cubes.unwrap_or(CUBES_PER_WORKER * workers.max(1));
        let queue = CubeQueue::new(&encoding.cnf, count, cluster.budget);
        let proof_dir = match &options.certificate_dir {
            Some(dir) => dir.clone(),
            None => crate::external::scratch_path("proofs"),
        };
        std::fs::create_dir_all(&proof_dir).map_err(SearchError::io(&proof_dir))?;
        let stats = ClusterStats {
            workers,
            first_cubes: queue.made(),
            ..ClusterStats::default()
        };
        Ok(Conductor {
            instance,
            time,
            options,
            encoding,
            queue,
            proof_dir,
            found: None,
            stats,
            started,
            checks: VecDeque::new(),
            max_checks: std::thread::available_parallelism().map_or(1, |n| n.get()),
            lemmas: 0,
        })
    }

    /// The number of columns of the formula.
    pub fn time(&self) -> usize {
        self.time
    }

    /// The formula's clauses and digest, which the workers must share.
    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// The next cube for `worker`, if one waits and no table is found.
    pub fn lease(&mut self, worker: i32) -> Option<Lease> {
        if self.is_settled() {
            return None;
        }
        self.queue.lease(worker, Instant::now())
    }

    /// Whether the run has its answer: a table, or every cube refuted.
    pub fn is_settled(&self) -> bool {
        self.found.is_some() || (self.checks.is_empty() && self.queue.all_refuted())
    }

    /// Cubes out too long with their worker, handed out again; returns the
    /// workers to give up on.
    pub fn reclaim_overdue(&mut self, lease: Duration) -> Vec<i32> {
        let overdue = self.queue.overdue(Instant::now(), lease);
        for &(id, worker) in &overdue {
            eprintln!(
                "rank {worker} has not answered cube {} in {:.0} s: the cube is handed out again",
                id + 1,
                lease.as_secs_f64()
            );
            self.queue.lost(id);
            self.stats.handed_out_again += 1;
        }
        overdue.into_iter().map(|(_, w)| w).collect()
    }

    /// Takes `worker`'s answer for cube `id`, after checking it.
    pub fn answer(
        &mut self,
        worker: i32,
        id: u32,
        seconds: f64,
        answer: Answer,
    ) -> Result<(), SearchError> {
        if !self.queue.is_leased_to(id, worker) || self.found.is_some() {
            return Ok(()); // stale: handed out again meanwhile, or the run is settled
        }
        self.stats.cube_seconds.push(seconds);
        let slot = self.stats.per_worker.entry(worker).or_default();
        slot.0 += 1;
        slot.1 += seconds;
        self.settle(worker, id, answer)
    }

    fn settle(&mut self, worker: i32, id: u32, answer: Answer) -> Result<(), SearchError> {
        match answer {
            Answer::Sat(model) => {
                let checking = Instant::now();
                let table = self
                    .encoding
                    .decode(self.instance, &model)
                    .ok_or(SearchError::Undecodable)?;
                conquer::kernel_accepts(self.instance, &table, self.time)?;
                self.stats.check_seconds += checking.elapsed().as_secs_f64();
                self.found = Some(table);
            }
            Answer::Unsat(proof) => {
                self.check_proof(id, &proof)?;
            }
            Answer::Unknown => {
                self.queue.split(id);
            }
            Answer::Lost(why) => {
                eprintln!(
                    "rank {worker} lost the solver of cube {} ({why}): the cube is handed out again",
                    id + 1
                );
                self.stats.handed_out_again += 1;
                if self.queue.lost(id) >= MAX_LOSSES {
                    return Err(SearchError::Solver(crate::SolverError::External {
                        problem: format!("cube {} was lost {MAX_LOSSES} times: {why}", id + 1),
                    }));
                }
            }
        }
        Ok(())
    }

    /// Starts checking a cube's proof against `formula ∧ cube` on a thread of
    /// its own (waiting first when as many run as there are cores); the
    /// proof is kept as `refuted-<id>.drat` (or `.lrat`).
    fn check_proof(&mut self, id: u32, proof: &[u8]) -> Result<(), SearchError> {
        if self.checks.len() >= self.max_checks {
            self.collect_checks(1)?;
        }
        let path = self.pending_proof(id);
        certificate::write_whole(&path, proof).map_err(SearchError::io(&path))?;
        let conjoined = cubes::with_cube(&self.encoding.cnf, self.queue.cube(id));
        let handle = std::thread::spawn(move || {
            let started = Instant::now();
            certificate::check_proof_file(
                conjoined.vars(),
                conjoined.clauses(),
                &path,
                task::PROOF_AUTHOR.kind(),
            )
            .map(|report| (started.elapsed().as_secs_f64(), report.lemmas))
            .map_err(|e| {
                let _ = std::fs::remove_file(&path);
                e.to_string()
            })
        });
        self.queue.checking(id);
        self.checks.push_back(PendingCheck { id, handle });
        Ok(())
    }

    /// Takes in the finished proof checks, waiting for the oldest `wait` of
    /// them; a rejected proof fails the run.
    pub fn collect_checks(&mut self, wait: usize) -> Result<(), SearchError> {
        let mut waited = 0;
        while let Some(check) = self.checks.pop_front() {
            if waited >= wait && !check.handle.is_finished() {
                self.checks.push_front(check);
                break;
            }
            waited += 1;
            let result = check
                .handle
                .join()
                .unwrap_or_else(|_| Err("the proof checker's thread panicked".to_string()));
            match result {
                Ok((seconds, lemmas)) => {
                    self.stats.check_seconds += seconds;
                    self.lemmas += lemmas;
                    self.queue.refuted(check.id);
                }
                Err(problem) => {
                    return Err(SearchError::ProofRejected {
                        time: self.time,
                        problem: format!("cube {}: {problem}", check.id + 1),
                    });
                }
            }
        }
        Ok(())
    }

    fn pending_proof(&self, id: u32) -> PathBuf {
        self.proof_dir
            .join(format!("refuted-{}.{}", id + 1, task::proof_extension()))
    }

    /// The outcome, with the certificate written when every cube is refuted
    /// and one was asked for, and what the run measured.
    pub fn finish(mut self) -> Result<(Outcome, ClusterStats), SearchError> {
        if self.found.is_none() {
            self.collect_checks(usize::MAX)?;
        }
        self.stats.made = self.queue.made();
        self.stats.splits = self.queue.splits();
        self.stats.refuted = self.queue.refuted_count();
        self.stats.satisfiable = usize::from(self.found.is_some());
        // The cube that gave the table is not open.
        self.stats.open = self.queue.open_count() - self.stats.satisfiable;
        self.stats.wall_seconds = self.started.elapsed().as_secs_f64();
        let outcome = self.outcome();
        if self.options.certificate_dir.is_none() || !matches!(outcome, Ok(Outcome::Infeasible(_)))
        {
            self.remove_pending_proofs();
        }
        // Without a certificate the scratch directory goes; with one, an
        // empty `T<t>/` (a table found, or the limit) goes too, as in a local search.
        let _ = std::fs::remove_dir(&self.proof_dir);
        outcome.map(|o| (o, self.stats))
    }

    fn outcome(&self) -> Result<Outcome, SearchError> {
        if let Some(table) = &self.found {
            return Ok(Outcome::Found(table.clone(), FoundBy::Main));
        }
        if !self.queue.all_refuted() {
            return Ok(Outcome::Unknown);
        }
        let leaves = self.queue.refuted_cubes();
        let cubes: Vec<Cube> = leaves.iter().map(|(_, c)| (*c).clone()).collect();
        if !cubes::covers(&cubes) {
            return Err(SearchError::ProofRejected {
                time: self.time,
                problem: "internal error: the refuted cubes do not cover".to_string(),
            });
        }
        let certificate = match &self.options.certificate_dir {
            Some(dir) => {
                for (i, (id, _)) in leaves.iter().enumerate() {
                    let to = dir.join(format!(
                        "{}.{}",
                        cubes::cube_stem(i),
                        task::proof_extension()
                    ));
                    std::fs::rename(self.pending_proof(*id), &to).map_err(SearchError::io(&to))?;
                }
                let options = self.options;
                Some(conquer::write_cube_certificate(
                    dir,
                    self.instance,
                    self.time,
                    options,
                    &self.encoding,
                    &cubes,
                    task::PROOF_AUTHOR,
                )?)
            }
            None => None,
        };
        Ok(Outcome::Infeasible(Infeasibility {
            time: self.time,
            claim: claim(self.time, &self.options.encoding),
            covers_all_tables: self.options.encoding.covers_all_tables(),
            unrestricted: self.options.encoding.unrestricted(),
            certificate,
            checked_proof: Some(self.lemmas),
            refutation: crate::refutation::CheckedRefutation::of_checked_table_proof(
                self.time,
                self.options.encoding.covers_all_tables(),
            ),
        }))
    }

    fn remove_pending_proofs(&self) {
        for id in 0..self.queue.made() as u32 {
            let _ = std::fs::remove_file(self.pending_proof(id));
        }
    }
}

impl ClusterStats {
    /// The figures as `key=value` lines for standard error (read by scripts/bench-mpi.sh).
    pub fn summary(&self) -> String {
        let mut times = self.cube_seconds.clone();
        times.sort_by(f64::total_cmp);
        let pick = |q: f64| {
            times
                .get(((times.len().max(1) - 1) as f64 * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        let busy: Vec<f64> = self.per_worker.values().map(|&(_, s)| s).collect();
        let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
        let max = busy.iter().copied().fold(0.0, f64::max);
        let per_worker: Vec<String> = self
            .per_worker
            .iter()
            .map(|(rank, (n, s))| format!("{rank}:{n}/{s:.2}s"))
            .collect();
        format!(
            "cluster: workers={} wall={:.2}s cubes_first={} cubes_made={} splits={} handed_out_again={} \
             solver_runs={}\ncluster: cube_seconds min={:.3} median={:.3} max={:.3} total={:.2} \
             check_seconds={:.2}\ncluster: per_worker(rank:cubes/busy)={} balance={:.2}",
            self.workers,
            self.wall_seconds,
            self.first_cubes,
            self.made,
            self.splits,
            self.handed_out_again,
            times.len(),
            pick(0.0),
            pick(0.5),
            pick(1.0),
            times.iter().sum::<f64>(),
            self.check_seconds,
            per_worker.join(" "),
            if mean > 0.0 { max / mean } else { 1.0 },
        )
    }
}
