//! `txverify verify-proof --cnf F.cnf PROOF`: checks any DRAT or LRAT proof
//! against any DIMACS formula, answering as drat-trim does.
//!
//! Standard output gets `c` lines (statistics, or where and why the proof
//! fails) and one `s VERIFIED` (exit 0) or `s NOT VERIFIED` (exit 1) line; a
//! formula or proof that cannot be read is an error with its file, line and
//! column (exit 2), never a verdict. Progress goes to standard error every
//! few seconds on long checks, not with `--quiet`.

use super::exit::Exit;
use super::{OutputFormat, ProofFormatArg, VerifyProofArgs};
use std::io::{BufReader, Read};
use std::path::Path;
use std::time::{Duration, Instant};
use txverify_proofcheck::{self as proofcheck, ProofError, ProofReport, dimacs};

/// The JSON schema of `verify-proof --cnf --format json`.
const SCHEMA: &str = "txverify-verify-proof-cnf/1";

/// Seconds between two progress lines.
const PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// `txverify verify-proof --cnf FORMULA PROOF`.
pub(super) fn verify(args: &VerifyProofArgs, cnf: &Path) -> Exit {
    let proof_path = &args.file;
    let formula = match std::fs::File::open(cnf)
        .map_err(dimacs::DimacsError::Read)
        .and_then(|f| dimacs::read(BufReader::new(f)))
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {}: {e}", cnf.display());
            return Exit::Input;
        }
    };
    let kind = match args.proof_format {
        Some(kind) => kind,
        None => match sniff(proof_path, formula.clauses.len()) {
            Ok(kind) => kind,
            Err(e) => {
                eprintln!("error: {}: {e}", proof_path.display());
                return Exit::Input;
            }
        },
    };
    if kind == ProofFormatArg::Lrat && args.lrat_out.is_some() {
        eprintln!("error: --lrat-out writes LRAT from a DRAT check; the proof is LRAT already");
        return Exit::Input;
    }
    let start = Instant::now();
    let outcome = match kind {
        ProofFormatArg::Drat => check_drat(args, &formula, proof_path),
        ProofFormatArg::Lrat => check_lrat(&formula, proof_path),
    };
    let seconds = start.elapsed().as_secs_f64();
    report(args, cnf, &formula, kind, outcome, seconds)
}

/// What a check found: the report, the LRAT written (path, clauses added).
type Outcome = Result<(ProofReport, Option<(String, usize)>), Failure>;

/// Why a check did not verify.
enum Failure {
    /// The proof is read but does not refute the formula: exit 1.
    Rejected(ProofError),
    /// A file cannot be read or written, or is malformed: exit 2.
    Unreadable(String),
}

/// Tells LRAT from DRAT by the proof's first line: an LRAT step is a deletion
/// `N d …`, or starts with a clause number above the formula's and holds two
/// `0`s. A binary proof is DRAT unless its name ends in `.lrat`.
fn sniff(path: &Path, clauses: usize) -> std::io::Result<ProofFormatArg> {
    let is_lrat_name = path.extension().is_some_and(|e| e == "lrat");
    let mut head = Vec::new();
    std::fs::File::open(path)?
        .take(1 << 16)
        .read_to_end(&mut head)?;
    let binary = head.first() == Some(&b'a')
        || head[..head.len().min(10)]
            .iter()
            .any(|&b| (b < 0x20 && !b.is_ascii_whitespace()) || b >= 0x7f);
    if binary {
        return Ok(if is_lrat_name {
            ProofFormatArg::Lrat
        } else {
            ProofFormatArg::Drat
        });
    }
    let text = String::from_utf8_lossy(&head);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('c'));
    let Some(line) = first else {
        return Ok(ProofFormatArg::Drat);
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let numbered = words
        .first()
        .and_then(|w| w.parse::<u64>().ok())
        .is_some_and(|n| n as usize > clauses);
    // `N d …` is an LRAT deletion (a DRAT deletion starts with `d`).
    let lrat = words.get(1) == Some(&"d")
        || (numbered && words.iter().filter(|&&w| w == "0").count() >= 2);
    Ok(if lrat || (is_lrat_name && numbered) {
        ProofFormatArg::Lrat
    } else {
        ProofFormatArg::Drat
    })
}

/// The DRAT check, with LRAT output if asked for.
fn check_drat(args: &VerifyProofArgs, formula: &dimacs::Formula, path: &Path) -> Outcome {
    let file = std::fs::File::open(path)
        .map_err(|e| Failure::Unreadable(format!("{}: {e}", path.display())))?;
    let total = file.metadata().map_or(0, |m| m.len());
    let mut reading = Ticker::new();
    let counting = Counting {
        inner: file,
        read: 0,
        tick: &mut |read| {
            reading.tick(|| {
                format!(
                    "read {:.1} of {:.1} MB of the proof",
                    read as f64 / 1e6,
                    total as f64 / 1e6
                )
            })
        },
    };
    let reader = BufReader::with_capacity(1 << 16, counting);
    let mut walking = Ticker::new();
    let mut progress = |done: usize, all: usize| {
        walking.tick(|| format!("walked back over {done} of {all} proof steps"))
    };
    let mut out = match &args.lrat_out {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| Failure::Unreadable(format!("cannot write {}: {e}", p.display())),
        )?)),
        None => None,
    };
    let lrat = out.as_mut().map(|w| w as &mut dyn std::io::Write);
    let checked = proofcheck::check_with(
        formula.vars,
        &formula.clauses,
        reader,
        None,
        lrat,
        Some(&mut progress),
    );
    drop(out);
    let report = checked.map_err(|e| classify(e, path))?;
    let Some(lrat_path) = &args.lrat_out else {
        return Ok((report, None));
    };
    // What was written is checked again by the LRAT checker.
    let written = std::fs::File::open(lrat_path)
        .map_err(|e| Failure::Unreadable(format!("{}: {e}", lrat_path.display())))?;
    let steps = proofcheck::check_lrat_reader(&formula.clauses, BufReader::new(written))
        .map_err(|e| Failure::Unreadable(format!("the LRAT written is rejected: {e}")))?;
    Ok((report, Some((lrat_path.display().to_string(), steps))))
}

/// The LRAT check.
fn check_lrat(formula: &dimacs::Formula, path: &Path) -> Outcome {
    let file = std::fs::File::open(path)
        .map_err(|e| Failure::Unreadable(format!("{}: {e}", path.display())))?;
    let lemmas =
        proofcheck::check_lrat_reader(&formula.clauses, BufReader::with_capacity(1 << 16, file))
            .map_err(|e| classify(e, path))?;
    let report = ProofReport {
        lemmas,
        core_lemmas: lemmas,
        rat_lemmas: 0,
        deletions: 0,
        ignored_deletions: 0,
    };
    Ok((report, None))
}

/// A rejection, or a proof that cannot be read (with its line and column
/// where the error has a byte offset).
fn classify(error: ProofError, path: &Path) -> Failure {
    use proofcheck::LratMalformation as M;
    match &error {
        ProofError::Read(_)
        | ProofError::Write(_)
        | ProofError::VariableTooLarge { .. }
        | ProofError::NewVariableTooLarge { .. } => {
            Failure::Unreadable(format!("{}: {error}", path.display()))
        }
        ProofError::Malformed { offset, problem } => {
            let place = line_and_column(path, *offset)
                .map(|(l, c)| format!("{l}:{c} (byte {offset})"))
                .unwrap_or_else(|| format!("byte {offset}"));
            Failure::Unreadable(format!(
                "{}:{place}: malformed proof: {problem}",
                path.display()
            ))
        }
        ProofError::MalformedLrat { line, problem }
            if matches!(
                problem,
                M::NoStepNumber
                    | M::BadClauseNumber
                    | M::NotANumber
                    | M::ClauseNotEnded
                    | M::HintsNotEnded
            ) =>
        {
            Failure::Unreadable(format!(
                "{}:{line}: malformed LRAT proof: {problem}",
                path.display()
            ))
        }
        _ => Failure::Rejected(error),
    }
}

/// The 1-based line and column of byte `offset` of a text file.
fn line_and_column(path: &Path, offset: usize) -> Option<(usize, usize)> {
    let bytes = std::fs::read(path).ok()?;
    let before = bytes.get(..offset.min(bytes.len()))?;
    if before
        .iter()
        .any(|&b| b >= 0x7f || (b < 0x20 && !b.is_ascii_whitespace()))
    {
        return None;
    }
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let column = 1 + before.iter().rev().take_while(|&&b| b != b'\n').count();
    Some((line, column))
}

/// Prints the verdict as drat-trim does, or as JSON.
fn report(
    args: &VerifyProofArgs,
    cnf: &Path,
    formula: &dimacs::Formula,
    kind: ProofFormatArg,
    outcome: Outcome,
    seconds: f64,
) -> Exit {
    let exit = match &outcome {
        Ok(_) => Exit::Ok,
        Err(Failure::Rejected(_)) => Exit::Rejected,
        Err(Failure::Unreadable(message)) => {
            eprintln!("error: {message}");
            Exit::Input
        }
    };
    let kind_name = match kind {
        ProofFormatArg::Drat => "drat",
        ProofFormatArg::Lrat => "lrat",
    };
    if args.format == OutputFormat::Json {
        let (stats, lrat, failure) = match &outcome {
            Ok((r, lrat)) => (Some(r), lrat.as_ref(), None),
            Err(Failure::Rejected(e)) => (None, None, Some(failure_json(e))),
            Err(Failure::Unreadable(m)) => (None, None, Some(serde_json::json!({ "message": m }))),
        };
        let value = serde_json::json!({
            "schema": SCHEMA,
            "formula": cnf.display().to_string(),
            "proof": args.file.display().to_string(),
            "proof_format": kind_name,
            "variables": formula.vars,
            "clauses": formula.clauses.len(),
            "verified": exit == Exit::Ok,
            "lemmas": stats.map(|r| r.lemmas),
            "core_lemmas": stats.map(|r| r.core_lemmas),
            "rat_lemmas": stats.map(|r| r.rat_lemmas),
            "deletions": stats.map(|r| r.deletions),
            "ignored_deletions": stats.map(|r| r.ignored_deletions),
            "seconds": (seconds * 1000.0).round() / 1000.0,
            "lrat_out": lrat.map(|(p, n)| serde_json::json!({ "path": p, "clauses_added": n })),
            "failure": failure,
            "exit_code": exit.code(),
        });
        outln!("{value}");
        return exit;
    }
    if exit == Exit::Input {
        return exit;
    }
    outln!(
        "c formula: {} variables, {} clauses; proof: {kind_name}",
        formula.vars,
        formula.clauses.len()
    );
    match &outcome {
        Ok((r, lrat)) => {
            outln!(
                "c {} lemmas up to the conflict, {} in the core (checked), {} RAT lemmas in the core",
                r.lemmas,
                r.core_lemmas,
                r.rat_lemmas
            );
            outln!(
                "c {} deletions honoured, {} ignored (clauses not present or giving a top-level value its reason)",
                r.deletions,
                r.ignored_deletions
            );
            if let Some((path, n)) = lrat {
                outln!("c LRAT written to {path}: {n} clauses added, checked by the LRAT checker");
            }
        }
        Err(Failure::Rejected(e)) => outln!("c rejected: {e}"),
        Err(Failure::Unreadable(_)) => {}
    }
    outln!("c time: {seconds:.3} s");
    outln!(
        "s {}",
        if exit == Exit::Ok {
            "VERIFIED"
        } else {
            "NOT VERIFIED"
        }
    );
    exit
}

/// The JSON of a rejection: the message, and the failing lemma where known.
fn failure_json(error: &ProofError) -> serde_json::Value {
    let mut value = serde_json::json!({ "message": error.to_string() });
    match error {
        ProofError::LemmaNotImplied {
            step,
            lemma,
            position,
            clause,
        } => {
            value["lemma"] = (*lemma).into();
            value["step"] = (*step).into();
            value["clause"] = serde_json::json!(clause);
            match position {
                proofcheck::Position::Line(n) => value["line"] = (*n).into(),
                proofcheck::Position::Byte(n) => value["byte"] = (*n).into(),
            }
        }
        ProofError::NotRup { step, clause } | ProofError::NotRat { step, clause, .. } => {
            value["line"] = (*step).into();
            value["clause"] = serde_json::json!(clause);
        }
        ProofError::MalformedLrat { line, .. } => value["line"] = (*line).into(),
        _ => {}
    }
    value
}

/// Prints a progress line every few seconds, none with `--quiet`.
struct Ticker {
    start: Instant,
    last: Instant,
}

impl Ticker {
    fn new() -> Ticker {
        let now = Instant::now();
        Ticker {
            start: now,
            last: now,
        }
    }

    fn tick(&mut self, line: impl FnOnce() -> String) {
        if super::global::quiet() || self.last.elapsed() < PROGRESS_EVERY {
            return;
        }
        self.last = Instant::now();
        eprintln!(
            "verify-proof: {}, {} s",
            line(),
            self.start.elapsed().as_secs()
        );
    }
}

/// A reader that tells how many bytes it has read.
struct Counting<'a, R> {
    inner: R,
    read: u64,
    tick: &'a mut dyn FnMut(u64),
}

impl<R: Read> Read for Counting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read += n as u64;
        (self.tick)(self.read);
        Ok(n)
    }
}
