//! CaDiCaL 3.0.1 (through the `cadical-sys` bindings) on a [`Cnf`], with a
//! time limit, progress reports and, when asked, an LRAT proof written by
//! CaDiCaL itself.
//!
//! The bindings accept only `'static` callbacks, while the caller's progress
//! callback borrows the caller's state. So the solver runs on a thread of its
//! own: its terminator reads the deadline and the stop flags (shared), its
//! learner counts learned clauses into a shared counter, and the caller's
//! thread relays that count to the progress callback until the answer arrives.
//!
//! The proof is CaDiCaL's binary LRAT, renumbered (`renumber.rs`) so that the
//! formula's clauses are 1, 2, … in the order given, as the LRAT checker and
//! the certificate's `formula.cnf` number them: the proof checks against the
//! formula as it is (no re-solve). Variables are declared before
//! any clause, so that with the `factor` option CaDiCaL's extension variables
//! lie above the formula's.

use super::{Cnf, SatAnswer, SolveControl, SolverError};
use cadical_sys::{CaDiCal, Learner, Status, Terminator};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The bundled CaDiCaL, as a certificate names its proof's author.
pub const CADICAL_NAME: &str = "CaDiCaL 3.0.1 (cadical-sys 0.8.0)";

/// How often the caller's progress callback hears the count of learned clauses.
const REPORT_EVERY: Duration = Duration::from_millis(250);

/// Clauses added between two looks at the limits (about a millisecond).
const ADD_POLL: usize = 1 << 14;

/// Stops the solver at the deadline or when a stop flag is set.
struct Limits {
    deadline: Option<Instant>,
    stop: Vec<Arc<AtomicBool>>,
}

impl Terminator for Limits {
    fn terminated(&mut self) -> bool {
        self.stop.iter().any(|s| s.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Counts learned clauses (it asks for none of their literals).
struct Counter(Arc<AtomicU64>);

impl Learner for Counter {
    fn learning(&mut self, _size: i32) -> bool {
        self.0.fetch_add(1, Ordering::Relaxed);
        false
    }
    fn learn(&mut self, _lit: i32) {}
}

/// Solves `cnf` with CaDiCaL, writing a binary LRAT proof to `control.lrat`
/// when it is given. Returns the answer and the learned clauses.
pub fn solve_cadical(
    cnf: &Cnf,
    control: SolveControl<'_>,
) -> Result<(SatAnswer, u64), SolverError> {
    solve_cadical_with(cnf, control, &[])
}

/// [`solve_cadical`] with CaDiCaL options set first (e.g. `("factor", 1)`,
/// which makes its LRAT proof define extension variables with RAT steps).
pub fn solve_cadical_with(
    cnf: &Cnf,
    control: SolveControl<'_>,
    options: &[(&str, i32)],
) -> Result<(SatAnswer, u64), SolverError> {
    let SolveControl {
        deadline,
        stop,
        proof: _,
        lrat,
        mut on_progress,
    } = control;
    let learned = Arc::new(AtomicU64::new(0));
    let limits = Limits { deadline, stop };
    let counter = Counter(learned.clone());
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("cadical".into())
            .spawn_scoped(scope, move || {
                let answer = run(cnf, lrat, options, limits, counter);
                // The receiver waits for this message; it cannot be gone.
                let _ = sender.send(answer);
            })
            .map_err(|source| SolverError::Thread {
                name: "CaDiCaL",
                source,
            })?;
        loop {
            match receiver.recv_timeout(REPORT_EVERY) {
                Ok(answer) => return Ok((answer?, learned.load(Ordering::Relaxed))),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    on_progress(learned.load(Ordering::Relaxed));
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(SolverError::Panicked { name: "CaDiCaL's" });
                }
            }
        }
    })
}

/// Builds the solver, adds the formula and solves it (on the solver's thread).
fn run(
    cnf: &Cnf,
    lrat: Option<&Path>,
    options: &[(&str, i32)],
    limits: Limits,
    counter: Counter,
) -> Result<SatAnswer, SolverError> {
    let mut solver = CaDiCal::new();
    for &(name, value) in options {
        if !solver.set(name, value) {
            return Err(SolverError::GaveUp {
                solver: "CaDiCaL",
                reason: format!("it has no option {name} = {value}"),
            });
        }
    }
    let raw = lrat.map(raw_path);
    if let Some(raw) = &raw {
        solver.set("lrat", 1);
        solver.set("binary", 1);
        let text = raw.to_str().ok_or_else(|| proof_file(raw))?;
        if !solver.trace_proof2(text) {
            return Err(proof_file(raw));
        }
    }
    let vars = i32::try_from(cnf.vars()).map_err(|_| SolverError::GaveUp {
        solver: "CaDiCaL",
        reason: format!("{} variables are more than it takes", cnf.vars()),
    })?;
    solver.resize(vars);
    // Adding a formula of millions of clauses takes seconds: the limits are
    // polled here too, and a stop skips the solve.
    let mut limits = limits;
    for (k, clause) in cnf.clauses().iter().enumerate() {
        if k % ADD_POLL == 0 && limits.terminated() {
            return Ok(SatAnswer::Unknown);
        }
        if clause.is_empty() {
            solver.add(0);
        } else {
            solver.clause6(clause);
        }
    }
    solver.connect_terminator(limits);
    solver.connect_learner(counter);
    let status = solver.solve();
    let answer = match status {
        Status::SATISFIABLE => SatAnswer::Sat((1..=vars).map(|v| solver.val(v) > 0).collect()),
        Status::UNSATISFIABLE => SatAnswer::Unsat,
        Status::UNKNOWN => SatAnswer::Unknown,
    };
    if let (Some(raw), Some(path)) = (&raw, lrat) {
        solver.close_proof_trace(false);
        drop(solver);
        let renumbered = match answer {
            SatAnswer::Unsat => renumber_file(raw, path, cnf.clauses().len() as u64),
            _ => Ok(()),
        };
        let _ = std::fs::remove_file(raw);
        renumbered?;
    }
    Ok(answer)
}

/// Where CaDiCaL writes its proof before it is renumbered into `path`.
fn raw_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".cadical");
    PathBuf::from(name)
}

/// Renumbers CaDiCaL's proof `raw` into `path` (see `renumber.rs`).
fn renumber_file(raw: &Path, path: &Path, originals: u64) -> Result<(), SolverError> {
    let failed = |e: std::io::Error| SolverError::GaveUp {
        solver: "CaDiCaL",
        reason: format!("its proof could not be renumbered: {e}"),
    };
    let input = std::fs::File::open(raw).map_err(failed)?;
    let output = std::fs::File::create(path).map_err(|_| proof_file(path))?;
    super::renumber::renumber(
        std::io::BufReader::with_capacity(1 << 18, input),
        std::io::BufWriter::with_capacity(1 << 18, output),
        originals,
    )
    .map_err(failed)
}

fn proof_file(path: &Path) -> SolverError {
    SolverError::ProofFile {
        path: path.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use txverify_proofcheck::{ProofError, check_lrat_reader};

    /// `pigeons` pigeons in `holes` holes, each pigeon in a hole, no two in
    /// one (pairwise at-most-one clauses, which CaDiCaL's `factor` rewrites).
    fn pigeonhole(pigeons: i32, holes: i32) -> Cnf {
        let mut cnf = Cnf::new();
        let var = |p: i32, h: i32| p * holes + h + 1;
        for _ in 0..pigeons * holes {
            cnf.fresh();
        }
        for p in 0..pigeons {
            cnf.add(&(0..holes).map(|h| var(p, h)).collect::<Vec<_>>());
        }
        for h in 0..holes {
            for p in 0..pigeons {
                for q in p + 1..pigeons {
                    cnf.add(&[-var(p, h), -var(q, h)]);
                }
            }
        }
        cnf
    }

    fn control(lrat: Option<&Path>) -> SolveControl<'_> {
        SolveControl {
            deadline: None,
            stop: vec![],
            proof: None,
            lrat,
            on_progress: Box::new(|_| {}),
        }
    }

    fn scratch(name: &str) -> std::path::PathBuf {
        std::env::temp_dir().join(format!("txverify-cadical-{}-{name}", std::process::id()))
    }

    /// The largest variable and the most negative hint of a binary LRAT proof.
    fn extension_and_rat(proof: &[u8], vars: usize) -> (bool, bool) {
        let (mut extension, mut rat) = (false, false);
        let bytes = proof;
        let mut i = 0;
        let varint = |i: &mut usize| {
            let (mut x, mut shift) = (0u64, 0);
            loop {
                let b = bytes[*i];
                *i += 1;
                x |= u64::from(b & 0x7f) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    return x;
                }
            }
        };
        while i < bytes.len() {
            let tag = bytes[i];
            i += 1;
            if tag == b'a' {
                varint(&mut i);
                loop {
                    let l = varint(&mut i);
                    if l == 0 {
                        break;
                    }
                    extension |= (l >> 1) as usize > vars;
                }
            }
            loop {
                let h = varint(&mut i);
                if h == 0 {
                    break;
                }
                rat |= tag == b'a' && h & 1 == 1;
            }
        }
        (extension, rat)
    }

    fn refute_with(options: &[(&str, i32)], name: &str) -> (Cnf, Vec<u8>) {
        let cnf = pigeonhole(8, 7);
        let path = scratch(name);
        let (answer, _) = solve_cadical_with(&cnf, control(Some(&path)), options).unwrap();
        assert_eq!(answer, SatAnswer::Unsat);
        let proof = std::fs::read(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        assert!(check_lrat_reader(cnf.clauses(), &proof[..]).unwrap() > 0);
        (cnf, proof)
    }

    #[test]
    fn its_lrat_proofs_check() {
        let (cnf, proof) = refute_with(&[], "plain.lrat");
        assert_eq!(proof.first(), Some(&b'a'));
        assert_eq!(extension_and_rat(&proof, cnf.vars()), (false, false));
    }

    #[test]
    fn its_lrat_proofs_with_factor_extension_variables_check() {
        let (cnf, proof) = refute_with(&[("factor", 1)], "factor.lrat");
        // The option did its work: the proof defines variables by RAT steps.
        assert_eq!(extension_and_rat(&proof, cnf.vars()), (true, true));
    }

    #[test]
    fn a_wrong_hint_in_its_proof_is_rejected() {
        let (cnf, mut proof) = refute_with(&[], "wrong.lrat");
        // The last step adds the empty clause: `a id 0 hints 0`; drop its last hint.
        let end = proof.len() - 1;
        let last_hint = proof[..end].iter().rposition(|&b| b & 0x80 == 0).unwrap();
        let start = proof[..last_hint]
            .iter()
            .rposition(|&b| b & 0x80 == 0)
            .unwrap()
            + 1;
        proof.drain(start..=last_hint);
        assert!(matches!(
            check_lrat_reader(cnf.clauses(), &proof[..]),
            Err(ProofError::NotRup { .. } | ProofError::MalformedLrat { .. })
        ));
    }

    #[test]
    fn a_satisfiable_formula_gives_a_model_and_a_stop_gives_unknown() {
        let cnf = pigeonhole(7, 7);
        let (answer, _) = solve_cadical(&cnf, control(None)).unwrap();
        let SatAnswer::Sat(model) = answer else {
            panic!("{answer:?}")
        };
        assert!(cnf.clauses().iter().all(|c| {
            c.iter()
                .any(|&l| model[l.unsigned_abs() as usize - 1] == (l > 0))
        }));
        let stopped = SolveControl {
            stop: vec![Arc::new(AtomicBool::new(true))],
            ..control(None)
        };
        let hard = pigeonhole(12, 11);
        assert_eq!(solve_cadical(&hard, stopped).unwrap().0, SatAnswer::Unknown);
    }
}
