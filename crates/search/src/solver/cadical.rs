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
//! CaDiCaL polls its terminator seldom in some phases (a 22-million-clause
//! formula spent over 3 s past its deadline in one), so that thread is
//! detached and owns what it works on: the caller streams the clauses to it
//! in chunks (the formula is never held twice), and stops waiting
//! [`ABANDON_AFTER`] after the deadline or a stop flag. An abandoned solver
//! sees the stop at its next poll and then only cleans up: it renumbers no
//! proof and removes its raw one; until then it keeps its memory and a core
//! (at the end of a run, the process's exit ends it).
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

/// Clauses sent to the solver's thread at once, with a look at the limits
/// between two chunks (about a millisecond of adding).
const ADD_POLL: usize = 1 << 14;

/// Chunks of clauses on their way to the solver's thread: the formula's copy
/// in flight is at most this many chunks.
const CHUNKS_IN_FLIGHT: usize = 2;

/// How long the caller waits, past the deadline or a stop, for the solver to
/// notice it before abandoning it.
pub const ABANDON_AFTER: Duration = Duration::from_millis(250);

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
    solve_detached(cnf, control, options, Box::new(|| {}))
}

/// What the solver's thread needs, all of it owned: the thread may outlive the call.
struct Job {
    vars: usize,
    originals: usize,
    clauses: mpsc::Receiver<Vec<i32>>,
    lrat: Option<PathBuf>,
    options: Vec<(String, i32)>,
    limits: Limits,
    counter: Counter,
    abandoned: Arc<AtomicBool>,
    /// Runs just before the solve (tests hold the thread there, as a phase that never polls).
    before_solve: Box<dyn FnOnce() + Send>,
}

fn solve_detached(
    cnf: &Cnf,
    control: SolveControl<'_>,
    options: &[(&str, i32)],
    before_solve: Box<dyn FnOnce() + Send>,
) -> Result<(SatAnswer, u64), SolverError> {
    let SolveControl {
        deadline,
        mut stop,
        proof: _,
        lrat,
        mut on_progress,
    } = control;
    let learned = Arc::new(AtomicU64::new(0));
    let abandoned = Arc::new(AtomicBool::new(false));
    // The caller's view of the limits; the solver's also stops once abandoned.
    let mut limits = Limits {
        deadline,
        stop: stop.clone(),
    };
    stop.push(abandoned.clone());
    let (chunks, clauses) = mpsc::sync_channel(CHUNKS_IN_FLIGHT);
    let (sender, receiver) = mpsc::channel();
    let job = Job {
        vars: cnf.vars(),
        originals: cnf.clauses().len(),
        clauses,
        lrat: lrat.map(Path::to_path_buf),
        options: options.iter().map(|&(n, v)| (n.to_string(), v)).collect(),
        limits: Limits { deadline, stop },
        counter: Counter(learned.clone()),
        abandoned: abandoned.clone(),
        before_solve,
    };
    std::thread::Builder::new()
        .name("cadical".into())
        .spawn(move || {
            let answer = run(job);
            // The caller may have stopped waiting: then no one reads this.
            let _ = sender.send(answer);
        })
        .map_err(|source| SolverError::Thread {
            name: "CaDiCaL",
            source,
        })?;
    // Adding a formula of millions of clauses takes seconds: the limits are
    // polled between chunks, and a stop leaves the formula incomplete (the
    // solver's thread then answers unknown without solving).
    for chunk in cnf.clauses().chunks(ADD_POLL) {
        if limits.terminated() {
            break;
        }
        let mut flat = Vec::with_capacity(chunk.iter().map(|c| c.len() + 1).sum());
        for clause in chunk {
            flat.extend_from_slice(clause);
            flat.push(0);
        }
        if chunks.send(flat).is_err() {
            break; // the thread has answered already (an option it lacks)
        }
    }
    drop(chunks);
    let mut stopped_at: Option<Instant> = None;
    loop {
        match receiver.recv_timeout(REPORT_EVERY.min(ABANDON_AFTER)) {
            Ok(answer) => return Ok((answer?, learned.load(Ordering::Relaxed))),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                on_progress(learned.load(Ordering::Relaxed));
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(SolverError::Panicked { name: "CaDiCaL's" });
            }
        }
        if limits.terminated() {
            let since = *stopped_at.get_or_insert_with(Instant::now);
            if since.elapsed() >= ABANDON_AFTER {
                abandoned.store(true, Ordering::Relaxed);
                // The process may end before the solver cleans up: its raw
                // proof goes now (CaDiCaL writes on to the unlinked file).
                if let Some(path) = lrat {
                    let _ = std::fs::remove_file(raw_path(path));
                }
                return Ok((SatAnswer::Unknown, learned.load(Ordering::Relaxed)));
            }
        }
    }
}

/// Builds the solver, adds the formula as it arrives and solves it (on the solver's thread).
fn run(job: Job) -> Result<SatAnswer, SolverError> {
    let Job {
        vars,
        originals,
        clauses,
        lrat,
        options,
        mut limits,
        counter,
        abandoned,
        before_solve,
    } = job;
    let mut solver = CaDiCal::new();
    for (name, value) in &options {
        if !solver.set(name, *value) {
            return Err(SolverError::GaveUp {
                solver: "CaDiCaL",
                reason: format!("it has no option {name} = {value}"),
            });
        }
    }
    let raw = lrat.as_deref().map(raw_path);
    if let Some(raw) = &raw {
        solver.set("lrat", 1);
        solver.set("binary", 1);
        let text = raw.to_str().ok_or_else(|| proof_file(raw))?;
        if !solver.trace_proof2(text) {
            return Err(proof_file(raw));
        }
    }
    let vars = i32::try_from(vars).map_err(|_| SolverError::GaveUp {
        solver: "CaDiCaL",
        reason: format!("{vars} variables are more than it takes"),
    })?;
    solver.resize(vars);
    let mut added = 0;
    for chunk in clauses.iter() {
        for clause in chunk.split_inclusive(|&l| l == 0) {
            if clause.len() == 1 {
                solver.add(0);
            } else {
                solver.clause6(&clause[..clause.len() - 1]);
            }
            added += 1;
        }
    }
    let answer = if added < originals || limits.terminated() {
        SatAnswer::Unknown
    } else {
        solver.connect_terminator(limits);
        solver.connect_learner(counter);
        before_solve();
        match solver.solve() {
            Status::SATISFIABLE => SatAnswer::Sat((1..=vars).map(|v| solver.val(v) > 0).collect()),
            Status::UNSATISFIABLE => SatAnswer::Unsat,
            Status::UNKNOWN => SatAnswer::Unknown,
        }
    };
    if let (Some(raw), Some(path)) = (&raw, &lrat) {
        solver.close_proof_trace(false);
        drop(solver);
        // An abandoned run's caller has moved on: nothing of it is left under a proof's name.
        let renumbered = match answer {
            SatAnswer::Unsat if !abandoned.load(Ordering::Relaxed) => {
                renumber_file(raw, path, originals as u64)
            }
            _ => Ok(()),
        };
        let _ = std::fs::remove_file(raw);
        if abandoned.load(Ordering::Relaxed) {
            let _ = std::fs::remove_file(path);
        }
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

    /// A solver busy in a phase that never polls its terminator (held before
    /// its solve here) is abandoned at a stop: the call answers unknown while
    /// the solver's thread is still held.
    #[test]
    fn a_solver_that_does_not_poll_is_abandoned_at_a_stop() {
        let stop = Arc::new(AtomicBool::new(false));
        let released = Arc::new(AtomicBool::new(false));
        let (release, held) = mpsc::channel::<()>();
        let hold = {
            let (stop, released) = (stop.clone(), released.clone());
            Box::new(move || {
                stop.store(true, Ordering::Relaxed);
                // Released when the test ends, or after a while if the call waits for it.
                let _ = held.recv_timeout(Duration::from_secs(5));
                released.store(true, Ordering::Relaxed);
            })
        };
        let control = SolveControl {
            stop: vec![stop],
            ..control(None)
        };
        let (answer, _) = solve_detached(&pigeonhole(7, 7), control, &[], hold).unwrap();
        assert_eq!(answer, SatAnswer::Unknown);
        assert!(
            !released.load(Ordering::Relaxed),
            "the call waited for the held solver"
        );
        drop(release);
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
