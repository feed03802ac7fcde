//! Solving one cube in a child process (`txverify solve-cube`), and that
//! child's own work.
//!
//! A worker does not run the solver in its own process: it writes the cube's
//! formula to a file and runs this program again on it, as the external
//! solver of [`crate::external`] (same conventions: `s` and `v` lines,
//! exit status 10 or 20, the proof in a file). A solver that is killed, runs
//! out of memory or crashes then takes only the child with it: the worker
//! lives on, reports the cube lost, and rank 0 hands it out again. The model
//! the child prints is checked against every clause by the external module.

use super::protocol::Answer;
use crate::certificate::{ProofAuthor, ProofKind};
use crate::cnf::Cnf;
use crate::cubes;
use crate::external::{self, SolverCommand};
use crate::options::{SearchError, SolverChoice};
use crate::solver::{SatAnswer, SolveControl};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Who writes the proofs rank 0 checks: the bundled CaDiCaL (LRAT) where the
/// build has it, varisat (DRAT) otherwise.
#[cfg(feature = "cadical")]
pub(crate) const PROOF_AUTHOR: ProofAuthor = ProofAuthor::Cadical;
/// Who writes the proofs rank 0 checks: the bundled CaDiCaL (LRAT) where the
/// build has it, varisat (DRAT) otherwise.
#[cfg(not(feature = "cadical"))]
pub(crate) const PROOF_AUTHOR: ProofAuthor = ProofAuthor::Varisat;

/// The solver the child runs: the one that writes the proofs rank 0 checks.
#[cfg(feature = "cadical")]
pub const PROOF_SOLVER: SolverChoice = SolverChoice::Cadical;
/// The solver the child runs: the one that writes the proofs rank 0 checks.
#[cfg(not(feature = "cadical"))]
pub const PROOF_SOLVER: SolverChoice = SolverChoice::Varisat;

/// The file extension of the proofs the child writes.
pub(crate) fn proof_extension() -> &'static str {
    match PROOF_AUTHOR.kind() {
        ProofKind::Drat => "drat",
        ProofKind::Lrat => "lrat",
    }
}

/// How a worker runs its solver processes.
#[derive(Clone, Debug)]
pub struct ChildSolver {
    /// This program.
    pub exe: PathBuf,
}

impl ChildSolver {
    /// This program as the child, or why it cannot be found.
    pub fn current() -> Result<ChildSolver, String> {
        std::env::current_exe()
            .map(|exe| ChildSolver { exe })
            .map_err(|e| format!("cannot find this program to run its solver: {e}"))
    }

    /// The command template of [`external`]: `{cnf}` and `{proof}` are filled in there.
    fn template(&self) -> String {
        let exe = self.exe.display().to_string().replace('\'', r"'\''");
        format!("'{exe}' solve-cube {{cnf}} {{proof}}")
    }

    /// Solves `cnf ∧ cube` in a child process, giving up after `budget`
    /// seconds or when `stop` is set. Returns the answer and the wall time.
    pub fn solve(
        &self,
        cnf: &Cnf,
        cube: &[i32],
        budget: Option<f64>,
        stop: &Arc<AtomicBool>,
    ) -> (Answer, f64) {
        let started = Instant::now();
        let proof = external::scratch_path(proof_extension());
        let template = self.template();
        let command = SolverCommand {
            template: &template,
            proof: Some(&proof),
        };
        let control = SolveControl {
            deadline: budget.map(|b| started + crate::seconds::saturating(b)),
            stop: vec![stop.clone()],
            proof: None,
            lrat: None,
            on_progress: Box::new(|_| {}),
        };
        let conjoined = cubes::with_cube(cnf, cube);
        let answer =
            match crate::run_solver(SolverChoice::External, Some(command), &conjoined, control) {
                Ok((SatAnswer::Sat(model), _)) => Answer::Sat(model),
                Ok((SatAnswer::Unknown, _)) => Answer::Unknown,
                Ok((SatAnswer::Unsat, _)) => match std::fs::read(&proof) {
                    Ok(bytes) => Answer::Unsat(bytes),
                    Err(e) => Answer::Lost(format!("the solver wrote no proof: {e}")),
                },
                Err(e) => Answer::Lost(e.to_string()),
            };
        let _ = std::fs::remove_file(&proof);
        (answer, started.elapsed().as_secs_f64())
    }
}

/// The child's work: the DIMACS formula at `cnf_path` solved, its proof
/// written to `proof_path` in the format its name says: `.lrat` by the
/// bundled CaDiCaL (an error in a build without it), anything else DRAT by
/// varisat. Workers name it after the solver of [`PROOF_SOLVER`]; a job array chooses.
pub fn solve_cube_file(cnf_path: &Path, proof_path: &Path) -> Result<SatAnswer, SearchError> {
    let unreadable = |source| SearchError::Read {
        path: cnf_path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(cnf_path).map_err(unreadable)?;
    let cnf = Cnf::parse_dimacs(std::io::BufReader::new(file)).map_err(unreadable)?;
    let lrat_named = proof_path.extension().is_some_and(|e| e == "lrat");
    // Written under its partial name, renamed once the formula is refuted:
    // a child killed on the way leaves no truncated proof under the name.
    let partial = crate::certificate::partial_proof(proof_path);
    let (solver, proof, lrat): (_, Option<Box<dyn std::io::Write>>, _) = if lrat_named {
        (SolverChoice::Cadical, None, Some(partial.as_path()))
    } else {
        let file = std::fs::File::create(&partial).map_err(SearchError::io(&partial))?;
        let sink = Box::new(std::io::BufWriter::new(file));
        (SolverChoice::Varisat, Some(sink), None)
    };
    let control = SolveControl {
        deadline: None,
        stop: vec![],
        proof,
        lrat,
        on_progress: Box::new(|_| {}),
    };
    let solved = crate::run_solver(solver, None, &cnf, control);
    if let Ok((SatAnswer::Unsat, _)) = solved {
        std::fs::rename(&partial, proof_path).map_err(SearchError::io(proof_path))?;
    } else {
        let _ = std::fs::remove_file(&partial);
    }
    Ok(solved?.0)
}

/// The answer in the conventions of [`external`]: the text to print and the exit status.
pub fn solver_output(answer: &SatAnswer) -> (String, i32) {
    match answer {
        SatAnswer::Sat(model) => {
            let mut text = String::from("s SATISFIABLE\nv");
            for (i, &value) in model.iter().enumerate() {
                let v = i as i64 + 1;
                text.push_str(&format!(" {}", if value { v } else { -v }));
            }
            text.push_str(" 0\n");
            (text, 10)
        }
        SatAnswer::Unsat => ("s UNSATISFIABLE\n".to_string(), 20),
        SatAnswer::Unknown => ("s UNKNOWN\n".to_string(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_childs_output_is_read_back_by_the_external_module() {
        let mut cnf = Cnf::new();
        let (a, b) = (cnf.fresh(), cnf.fresh());
        cnf.add(&[a, b]);
        cnf.add(&[-a]);
        let model = SatAnswer::Sat(vec![false, true]);
        let (text, code) = solver_output(&model);
        assert_eq!(external::interpret(&text, Some(code), &cnf).unwrap(), model);
        let (text, code) = solver_output(&SatAnswer::Unsat);
        assert_eq!(
            external::interpret(&text, Some(code), &cnf).unwrap(),
            SatAnswer::Unsat
        );
        // A wrong model is caught there, not taken.
        let (text, code) = solver_output(&SatAnswer::Sat(vec![true, true]));
        assert!(external::interpret(&text, Some(code), &cnf).is_err());
    }
}
