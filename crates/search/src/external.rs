//! Any SAT solver that follows the SAT competition's conventions, run as a
//! command: DIMACS in (a file), `s SATISFIABLE` / `s UNSATISFIABLE` and `v …`
//! model lines out, exit status 10 or 20.
//!
//! The command is a template run by `sh -c`, with `{cnf}` replaced by the
//! formula's path, so a user can give `cadical {cnf}`, `kissat -q {cnf}` or an
//! `mpirun`/`srun` line for a distributed solver. Nothing it says is trusted:
//! a model must give every variable a value and satisfy every clause before it
//! is returned (and the search then decodes it and has the kernel check the
//! table); a model that is truncated, out of range or wrong is an error, never
//! a table. An "unsatisfiable" is the solver's word only, unless the command
//! has a `{proof}` (DRAT) or `{lrat}` (LRAT) place: then the solver writes its
//! proof there, and the search accepts the answer only when the proof checker
//! refutes the formula with it.

use super::cnf::Cnf;
use super::options::{SearchOptions, SolverChoice, SolverError};
use super::solver::{SatAnswer, SolveControl};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How often the run checks its deadline and stop flags.
const POLL: Duration = Duration::from_millis(20);

/// The place of the formula's file in a command.
pub const CNF_PLACE: &str = "{cnf}";
/// The place of a DRAT proof's file in a command.
pub const DRAT_PLACE: &str = "{proof}";
/// The place of an LRAT proof's file in a command.
pub const LRAT_PLACE: &str = "{lrat}";

/// A command to run, and where its proof goes when it has a proof place.
#[derive(Clone, Copy, Debug)]
pub struct SolverCommand<'a> {
    /// The template, with `{cnf}` and perhaps `{proof}` or `{lrat}`.
    pub template: &'a str,
    /// The file that takes the place of `{proof}` or `{lrat}`.
    pub proof: Option<&'a Path>,
}

impl<'a> SolverCommand<'a> {
    /// The external command of `options` to run with `solver`, if it has one:
    /// the proof file takes the place of `{proof}` or `{lrat}` only when that
    /// solver is the external one.
    pub fn of(
        options: &'a SearchOptions,
        solver: SolverChoice,
        proof: Option<&'a Path>,
    ) -> Option<SolverCommand<'a>> {
        options
            .external_command
            .as_deref()
            .map(|template| SolverCommand {
                template,
                proof: proof.filter(|_| solver == SolverChoice::External),
            })
    }
}

/// Runs the command on `cnf`; the answer, and 0 learned clauses (the command
/// reports none). A proof file left from before is removed first, so that
/// only what this run writes can be checked.
pub fn solve_external(
    command: SolverCommand<'_>,
    cnf: &Cnf,
    control: SolveControl<'_>,
) -> Result<(SatAnswer, u64), SolverError> {
    let path = scratch_path("cnf");
    std::fs::write(&path, cnf.to_dimacs(&[])).map_err(|source| SolverError::External {
        problem: format!("cannot write the formula to {}: {source}", path.display()),
    })?;
    if let Some(proof) = command.proof {
        let _ = std::fs::remove_file(proof);
    }
    let answer = run(command, &path, cnf, &control);
    let _ = std::fs::remove_file(&path);
    answer.map(|a| (a, 0))
}

/// A fresh file name in the temporary directory, with this extension.
pub fn scratch_path(extension: &str) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("txverify-{}-{n}.{extension}", std::process::id()))
}

/// A path quoted for `sh`.
fn quoted(path: &Path) -> String {
    format!("'{}'", path.display().to_string().replace('\'', r"'\''"))
}

fn run(
    solver: SolverCommand<'_>,
    path: &Path,
    cnf: &Cnf,
    control: &SolveControl<'_>,
) -> Result<SatAnswer, SolverError> {
    let mut command = solver.template.replace(CNF_PLACE, &quoted(path));
    if let Some(proof) = solver.proof {
        command = command
            .replace(DRAT_PLACE, &quoted(proof))
            .replace(LRAT_PLACE, &quoted(proof));
    }
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(&command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|source| SolverError::External {
            problem: format!("cannot start `{command}`: {source}"),
        })?;
    let mut stdout = child.stdout.take().expect("stdout is piped");
    // Read on a thread, so that a long model cannot fill the pipe and stall the solver.
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|source| SolverError::External {
            problem: format!("cannot wait for `{command}`: {source}"),
        })? {
            break status;
        }
        let stopped = control
            .stop
            .iter()
            .any(|s| s.load(std::sync::atomic::Ordering::Relaxed));
        if stopped || control.deadline.is_some_and(|d| Instant::now() >= d) {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(SatAnswer::Unknown);
        }
        std::thread::sleep(POLL);
    };
    let output = reader.join().unwrap_or_default();
    interpret(&output, status.code(), cnf)
}

/// The answer in a solver's output: its `s` line, its `v` lines, and its exit
/// status (10 satisfiable, 20 unsatisfiable), which must agree.
pub fn interpret(output: &str, code: Option<i32>, cnf: &Cnf) -> Result<SatAnswer, SolverError> {
    let fail = |problem: String| Err(SolverError::External { problem });
    let status = output
        .lines()
        .filter_map(|l| l.strip_prefix("s "))
        .map(str::trim)
        .next_back();
    match (status, code) {
        (Some("UNSATISFIABLE"), Some(20) | None) => Ok(SatAnswer::Unsat),
        (Some("SATISFIABLE"), Some(10) | None) => read_model(output, cnf).map(SatAnswer::Sat),
        (Some("UNKNOWN"), _) => fail("the solver answered UNKNOWN".to_string()),
        (Some(s), Some(c)) if s == "UNSATISFIABLE" || s == "SATISFIABLE" => fail(format!(
            "the solver said `s {s}` but exited with status {c} (10: satisfiable, 20: unsatisfiable)"
        )),
        (Some(s), _) => fail(format!("unknown answer `s {s}`")),
        (None, c) => fail(format!(
            "no `s` line in the solver's output (exit status {})",
            c.map_or("none".to_string(), |c| c.to_string())
        )),
    }
}

/// A model written by a solver anywhere (`txverify search --model`): its `v`
/// lines, or bare lines of literals; an `s` line, if any, must say SATISFIABLE.
/// Checked like a model from [`solve_external`].
pub fn model_from_text(text: &str, cnf: &Cnf) -> Result<Vec<bool>, SolverError> {
    let said = text
        .lines()
        .filter_map(|l| l.strip_prefix("s "))
        .map(str::trim)
        .next_back();
    if let Some(answer) = said.filter(|&a| a != "SATISFIABLE") {
        return Err(SolverError::External {
            problem: format!("the model file says `s {answer}`"),
        });
    }
    let v_lines: String = text
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            if l.starts_with("v ") {
                Some(format!("{l}\n"))
            } else if l.starts_with(|c: char| c == '-' || c.is_ascii_digit()) {
                Some(format!("v {l}\n"))
            } else {
                None
            }
        })
        .collect();
    read_model(&v_lines, cnf)
}

/// The model of the `v` lines: every variable of `cnf` given once, ended by
/// `0`, and satisfying every clause.
fn read_model(output: &str, cnf: &Cnf) -> Result<Vec<bool>, SolverError> {
    let fail = |problem: String| Err(SolverError::External { problem });
    let n = cnf.vars();
    let mut value: Vec<Option<bool>> = vec![None; n];
    let mut ended = false;
    for line in output.lines().filter_map(|l| l.strip_prefix("v ")) {
        for token in line.split_whitespace() {
            if ended {
                return fail("literals after the model's closing 0".to_string());
            }
            let Ok(literal) = token.parse::<i64>() else {
                return fail(format!("`{token}` in a `v` line is not a literal"));
            };
            if literal == 0 {
                ended = true;
                continue;
            }
            let var = literal.unsigned_abs() as usize;
            if var > n {
                return fail(format!(
                    "literal {literal} names a variable the formula does not have ({n})"
                ));
            }
            if value[var - 1].replace(literal > 0).is_some() {
                return fail(format!("variable {var} is given twice"));
            }
        }
    }
    if !ended {
        return fail("the model is not ended by 0 (truncated?)".to_string());
    }
    let Some(model) = value.into_iter().collect::<Option<Vec<bool>>>() else {
        return fail("the model leaves variables without a value".to_string());
    };
    let satisfied = |clause: &Vec<i32>| {
        clause
            .iter()
            .any(|&l| model[l.unsigned_abs() as usize - 1] == (l > 0))
    };
    if let Some(i) = cnf.clauses().iter().position(|c| !satisfied(c)) {
        return fail(format!("the model falsifies clause {}", i + 1));
    }
    // Indexed like every solver's model here: entry v − 1 is DIMACS variable v.
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formula() -> Cnf {
        // (1 ∨ 2) ∧ (¬1 ∨ 2) ∧ (¬2 ∨ 3)
        let mut cnf = Cnf::new();
        let (a, b, c) = (cnf.fresh(), cnf.fresh(), cnf.fresh());
        cnf.add(&[a, b]);
        cnf.add(&[-a, b]);
        cnf.add(&[-b, c]);
        cnf
    }

    #[test]
    fn a_complete_satisfying_model_is_read() {
        let answer = interpret("c hi\ns SATISFIABLE\nv -1 2\nv 3 0\n", Some(10), &formula());
        assert_eq!(answer.unwrap(), SatAnswer::Sat(vec![false, true, true]));
        let unsat = interpret("s UNSATISFIABLE\n", Some(20), &formula()).unwrap();
        assert_eq!(unsat, SatAnswer::Unsat);
    }

    #[test]
    fn garbage_truncated_and_wrong_models_are_errors() {
        let cnf = formula();
        for (output, code) in [
            ("s SATISFIABLE\nv -1 2 3\n", Some(10)),     // no closing 0
            ("s SATISFIABLE\nv -1 2 0\n", Some(10)),     // variable 3 missing
            ("s SATISFIABLE\nv -1 2 3 4 0\n", Some(10)), // no variable 4
            ("s SATISFIABLE\nv -1 -2 3 0\n", Some(10)),  // falsifies clause 1
            ("s SATISFIABLE\nv -1 2 x 0\n", Some(10)),   // not a literal
            ("s SATISFIABLE\nv -1 2 3 0\n", Some(20)),   // exit status disagrees
            ("s UNKNOWN\n", Some(0)),
            ("nothing\n", Some(1)),
        ] {
            assert!(
                matches!(
                    interpret(output, code, &cnf),
                    Err(SolverError::External { .. })
                ),
                "{output:?} {code:?}"
            );
        }
    }
}
