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

/// A SAT backend compiled outside this crate, with the signature of the ones inside it.
pub type PluggedBackend = fn(&Cnf, SolveControl<'_>) -> Result<(SatAnswer, u64), SolverError>;

/// z3 lives in txverify-native (it links the system's libz3), so that turning its
/// cargo feature on rebuilds that crate and the binary, not this one and its users.
static Z3_BACKEND: std::sync::OnceLock<PluggedBackend> = std::sync::OnceLock::new();

/// Makes `--solver z3` available; txverify-native's `install` calls it at start-up.
pub fn install_z3(solve: PluggedBackend) {
    // A second install is the same function: keeping the first is right.
    let _ = Z3_BACKEND.set(solve);
}

/// The z3 backend, if a crate that has it installed it.
pub fn z3_backend() -> Option<PluggedBackend> {
    Z3_BACKEND.get().copied()
}

impl super::options::SolverChoice {
    /// Whether this build has the solver (z3: whether it was installed).
    pub fn available(self) -> bool {
        use super::options::SolverChoice;
        match self {
            SolverChoice::Varisat => true,
            SolverChoice::Cadical => cfg!(feature = "cadical"),
            SolverChoice::Z3 => z3_backend().is_some(),
            SolverChoice::External => true,
        }
    }
}
