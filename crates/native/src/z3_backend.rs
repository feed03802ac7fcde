//! The z3 backend (`--solver z3`). z3 runs on a thread of its own, which gives it a fresh context (z3's Rust
//! bindings keep one per thread) that is freed when the run ends. The caller's
//! thread keeps the progress reports going and watches the deadline and the
//! stop flag; a small watcher next to the solver turns a cancellation into
//! z3's interrupt. The deadline is also passed to z3 as its `timeout`.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};
use txverify_search::cnf::Cnf;
use txverify_search::options::SolverError;
use txverify_search::solver::{SatAnswer, SolveControl};
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
pub fn solve_z3(cnf: &Cnf, control: SolveControl<'_>) -> Result<(SatAnswer, u64), SolverError> {
    let SolveControl {
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
fn run(cnf: &Cnf, deadline: Option<Instant>, shared: &Shared) -> Result<SatAnswer, SolverError> {
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
