//! Running the built-in SAT solver (varisat) on a [`Cnf`], with a time limit,
//! progress reports and an optional DRAT proof.
//!
//! Varisat has no interrupt; it does stream its proof through a writer we
//! supply. We always attach one: it counts the learned clauses (progress), can
//! tee the proof into a file, and fails the write once the deadline or a stop
//! request has passed, which makes the solver give up (reported as "unknown").
//!
//! The bundled CaDiCaL (cargo feature `cadical`) is in `solver/cadical.rs`, and
//! the renumbering of its LRAT proofs in [`renumber`]; z3 (feature `z3`) below.

use super::cnf::Cnf;
use super::options::SolverError;
use std::cell::Cell;
use std::io::{self, Write};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use varisat::{ExtendFormula, ProofFormat};

/// What the solver said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatAnswer {
    /// A model: `model[v - 1]` is the value of variable `v`.
    Sat(Vec<bool>),
    /// Unsatisfiable (with a proof, if one was asked for).
    Unsat,
    /// Gave up: deadline or stop request.
    Unknown,
}

/// Limits and hooks for one solver run.
pub struct SolveControl<'a> {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up when any of these flags is set (the caller's, and a portfolio's).
    pub stop: Vec<Arc<AtomicBool>>,
    /// Where varisat writes a binary DRAT proof.
    pub proof: Option<Box<dyn Write + 'a>>,
    /// Where CaDiCaL writes a binary LRAT proof (the other solvers ignore it).
    pub lrat: Option<&'a Path>,
    /// Called now and then with the number of clauses learned so far.
    pub on_progress: Box<dyn FnMut(u64) + 'a>,
}

struct Monitor<'a> {
    sink: Option<Box<dyn Write + 'a>>,
    lemmas: Rc<Cell<u64>>,
    gave_up: Rc<Cell<bool>>,
    /// Inside a clause of the binary DRAT stream (after its tag).
    in_clause: bool,
    deadline: Option<Instant>,
    stop: Vec<Arc<AtomicBool>>,
    last_report: Instant,
    on_progress: Box<dyn FnMut(u64) + 'a>,
}

impl Write for Monitor<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut lemmas = self.lemmas.get();
        for &b in buf {
            if self.in_clause {
                // A literal's varint never contains a zero byte, so 0 ends the clause.
                self.in_clause = b != 0;
            } else {
                lemmas += u64::from(b == b'a');
                self.in_clause = true;
            }
        }
        self.lemmas.set(lemmas);
        if let Some(sink) = &mut self.sink {
            sink.write_all(buf)?;
        }
        let now = Instant::now();
        let stopped = self.stop.iter().any(|s| s.load(Ordering::Relaxed));
        if stopped || self.deadline.is_some_and(|d| now >= d) {
            self.gave_up.set(true);
            return Err(io::Error::other("search limit reached"));
        }
        if now.duration_since(self.last_report) >= Duration::from_millis(250) {
            self.last_report = now;
            (self.on_progress)(lemmas);
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match &mut self.sink {
            Some(sink) => sink.flush(),
            None => Ok(()),
        }
    }
}

/// Solves `cnf` with varisat. Returns the answer and the number of learned clauses.
pub fn solve_varisat(
    cnf: &Cnf,
    control: SolveControl<'_>,
) -> Result<(SatAnswer, u64), SolverError> {
    let lemmas = Rc::new(Cell::new(0));
    let gave_up = Rc::new(Cell::new(false));
    let monitor = Monitor {
        sink: control.proof,
        lemmas: lemmas.clone(),
        gave_up: gave_up.clone(),
        in_clause: false,
        deadline: control.deadline,
        stop: control.stop,
        last_report: Instant::now(),
        on_progress: control.on_progress,
    };
    let mut solver = varisat::Solver::new();
    solver.write_proof(monitor, ProofFormat::BinaryDrat);
    let mut formula = varisat::CnfFormula::new();
    formula.set_var_count(cnf.vars());
    let mut clause = Vec::new();
    for c in cnf.clauses() {
        clause.clear();
        clause.extend(c.iter().map(|&l| varisat::Lit::from_dimacs(l as isize)));
        formula.add_clause(&clause);
    }
    solver.add_formula(&formula);
    let result = solver.solve();
    let answer = match result {
        Ok(true) => {
            let mut model = vec![false; cnf.vars()];
            for l in solver.model().unwrap_or_default() {
                let v = l.var().index();
                if v < model.len() {
                    model[v] = l.is_positive();
                }
            }
            SatAnswer::Sat(model)
        }
        Ok(false) => {
            solver.close_proof()?;
            SatAnswer::Unsat
        }
        Err(_) if gave_up.get() => SatAnswer::Unknown,
        Err(e) => return Err(e.into()),
    };
    drop(solver);
    Ok((answer, lemmas.get()))
}

#[cfg(feature = "cadical")]
mod cadical;
pub mod renumber;
#[cfg(feature = "cadical")]
pub use cadical::{CADICAL_NAME, solve_cadical, solve_cadical_with};

#[cfg(feature = "z3")]
mod with_z3 {
    //! z3 runs on a thread of its own, which gives it a fresh context (z3's Rust
    //! bindings keep one per thread) that is freed when the run ends. The caller's
    //! thread keeps the progress reports going and watches the deadline and the
    //! stop flag; a small watcher next to the solver turns a cancellation into
    //! z3's interrupt. The deadline is also passed to z3 as its `timeout`.

    use super::{Cnf, SatAnswer, SolverError};
    use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};
    use z3::ast::Bool;
    use z3::{Params, SatResult, Solver};

    /// How often the threads look at their flags.
    const POLL: Duration = Duration::from_millis(20);

    /// What the solving thread shares with the caller's.
    struct Shared {
        /// Set by the caller's thread: give up.
        cancel: AtomicBool,
        /// Conflicts z3 reported at the end of its run.
        conflicts: AtomicU64,
    }

    /// Solves `cnf` with z3 (no proof). Returns the answer and z3's conflict count.
    pub fn solve_z3(
        cnf: &Cnf,
        control: super::SolveControl<'_>,
    ) -> Result<(SatAnswer, u64), SolverError> {
        let super::SolveControl {
            deadline,
            stop,
            proof: _,
            lrat: _,
            mut on_progress,
        } = control;
        // A stop asked for before the start must win, whatever the formula's size.
        let stopped_already = stop.iter().any(|s| s.load(Ordering::Relaxed));
        let shared = Shared {
            cancel: AtomicBool::new(false),
            conflicts: AtomicU64::new(0),
        };
        if stopped_already {
            return Ok((SatAnswer::Unknown, 0));
        }
        thread::scope(|scope| {
            let worker = thread::Builder::new()
                .name("z3".into())
                .spawn_scoped(scope, || run(cnf, deadline, &shared))
                .map_err(|source| SolverError::Thread { name: "z3", source })?;
            let mut last_report = Instant::now();
            while !worker.is_finished() {
                thread::park_timeout(POLL);
                let now = Instant::now();
                let stopped = stop.iter().any(|s| s.load(Ordering::Relaxed));
                if stopped || deadline.is_some_and(|d| now >= d) {
                    shared.cancel.store(true, Ordering::Relaxed);
                }
                if now.duration_since(last_report) >= Duration::from_millis(250) {
                    last_report = now;
                    on_progress(shared.conflicts.load(Ordering::Relaxed));
                }
            }
            let answer = worker
                .join()
                .map_err(|_| SolverError::Panicked { name: "z3's" })??;
            Ok((answer, shared.conflicts.load(Ordering::Relaxed)))
        })
    }

    /// Builds the formula in this thread's z3 context and solves it.
    fn run(
        cnf: &Cnf,
        deadline: Option<Instant>,
        shared: &Shared,
    ) -> Result<SatAnswer, SolverError> {
        let cancelled = || shared.cancel.load(Ordering::Relaxed);
        let solver = Solver::new();
        let vars: Vec<Bool> = (1..=cnf.vars() as u32).map(Bool::new_const).collect();
        let mut lits: Vec<Bool> = Vec::new();
        for (i, clause) in cnf.clauses().iter().enumerate() {
            if i % 4096 == 0 && cancelled() {
                return Ok(SatAnswer::Unknown);
            }
            lits.clear();
            lits.extend(clause.iter().map(|&l| {
                let v = &vars[l.unsigned_abs() as usize - 1];
                if l > 0 { v.clone() } else { v.not() }
            }));
            match lits.as_slice() {
                [] => solver.assert(Bool::from_bool(false)),
                [unit] => solver.assert(unit),
                _ => solver.assert(Bool::or(&lits)),
            }
        }
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Ok(SatAnswer::Unknown);
            }
            let mut params = Params::new();
            // Rounded up, so that z3's timer does not fire before the deadline.
            let millis = left.as_micros().div_ceil(1000);
            params.set_u32("timeout", millis.min(u128::from(u32::MAX)) as u32);
            solver.set_params(&params);
        }
        let context = solver.get_context();
        let handle = context.handle();
        let finished = AtomicBool::new(false);
        let result = thread::scope(|scope| {
            scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    if cancelled() {
                        // Repeated until the check returns, in case the first
                        // interrupt came before z3 was listening.
                        handle.interrupt();
                    }
                    thread::sleep(POLL);
                }
            });
            let result = solver.check();
            finished.store(true, Ordering::Relaxed);
            result
        });
        shared
            .conflicts
            .store(conflicts(&solver), Ordering::Relaxed);
        match result {
            SatResult::Sat => {
                let model = solver
                    .get_model()
                    .ok_or(SolverError::NoModel { solver: "z3" })?;
                vars.iter()
                    .map(|v| {
                        model
                            .eval(v, true)
                            .and_then(|b| b.as_bool())
                            .ok_or(SolverError::IncompleteModel { solver: "z3" })
                    })
                    .collect::<Result<Vec<bool>, SolverError>>()
                    .map(SatAnswer::Sat)
            }
            SatResult::Unsat => Ok(SatAnswer::Unsat),
            SatResult::Unknown => {
                let reason = solver.get_reason_unknown().unwrap_or_default();
                // z3's own timer may fire a moment before the deadline.
                let timed_out = deadline.is_some() && reason == "timeout";
                let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
                if cancelled() || timed_out || out_of_time {
                    Ok(SatAnswer::Unknown)
                } else {
                    Err(SolverError::GaveUp {
                        solver: "z3",
                        reason,
                    })
                }
            }
        }
    }

    /// The conflicts z3 counted (its SAT core's and its SMT core's).
    fn conflicts(solver: &Solver) -> u64 {
        solver
            .get_statistics()
            .entries()
            .filter(|e| e.key.ends_with("conflicts"))
            .map(|e| match e.value {
                z3::StatisticsValue::UInt(n) => u64::from(n),
                z3::StatisticsValue::Double(x) => x as u64,
            })
            .sum()
    }
}

#[cfg(feature = "z3")]
pub use with_z3::solve_z3;
