//! `txverify verify-proof --cnf F.cnf PROOF`: any DRAT or LRAT proof checked
//! against any DIMACS formula by `txverify-proofcheck`, and the report of the
//! check (schema `txverify-verify-proof-cnf/1`, docs/json.md), answering as
//! drat-trim does in text: `c` lines, then `s VERIFIED` or `s NOT VERIFIED`.
//!
//! The verdict is the checker's: a proof it accepts is verified (status 0),
//! one it rejects is not (status 1); a formula or proof that cannot be read
//! is an error with its file, line and column (status 2), never a verdict.

use super::failure::{Failure, Status};
use serde::Serialize;
use std::io::{BufReader, Read};
use std::path::Path;
use std::time::Instant;
use txverify_core::load::read::{self, ReadLimits};
use txverify_proofcheck::{self as proofcheck, ProofError, ProofReport, dimacs};

/// The JSON schema of `verify-proof --cnf --format json`.
pub const SCHEMA: &str = "txverify-verify-proof-cnf/1";

/// The proof formats the checker reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    /// DRAT, text or binary.
    Drat,
    /// LRAT, text or binary.
    Lrat,
}

impl ProofFormat {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            ProofFormat::Drat => "drat",
            ProofFormat::Lrat => "lrat",
        }
    }
}

/// What to check.
#[derive(Clone, Copy, Debug)]
pub struct CnfProofRequest<'a> {
    /// The DIMACS formula.
    pub cnf: &'a Path,
    /// The proof.
    pub proof: &'a Path,
    /// Its format (`None`: told from its first line).
    pub format: Option<ProofFormat>,
    /// `--lrat-out`: where a DRAT check writes its LRAT proof.
    pub lrat_out: Option<&'a Path>,
}

/// The LRAT proof a DRAT check wrote.
#[derive(Clone, Debug, Serialize)]
pub struct LratOut {
    /// Where.
    pub path: String,
    /// Clauses it adds, each checked again by the LRAT checker.
    pub clauses_added: usize,
}

/// Why the proof was not verified, with the failing lemma where known.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ProofFailure {
    /// In words.
    pub message: String,
    /// The lemma's number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lemma: Option<usize>,
    /// The proof step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<usize>,
    /// The lemma's literals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clause: Option<Vec<i64>>,
    /// Its line in a text proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    /// Its byte offset in a binary proof.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub byte: Option<u64>,
}

/// The report of one check.
#[derive(Clone, Debug, Serialize)]
pub struct CnfProofReport {
    /// The schema.
    pub schema: &'static str,
    /// The formula as named.
    pub formula: String,
    /// The proof as named.
    pub proof: String,
    /// `drat` or `lrat`.
    pub proof_format: &'static str,
    /// Variables of the formula.
    pub variables: usize,
    /// Clauses of the formula.
    pub clauses: usize,
    /// The checker's verdict.
    pub verified: bool,
    /// Lemmas up to the conflict.
    pub lemmas: Option<usize>,
    /// Of them, in the core.
    pub core_lemmas: Option<usize>,
    /// Of the core, RAT but not RUP.
    pub rat_lemmas: Option<usize>,
    /// Deletions honoured.
    pub deletions: Option<usize>,
    /// Deletions ignored.
    pub ignored_deletions: Option<usize>,
    /// Seconds the check took, to the millisecond.
    pub seconds: f64,
    /// The LRAT written.
    pub lrat_out: Option<LratOut>,
    /// Why it was not verified.
    pub failure: Option<ProofFailure>,
    /// The exit status.
    pub exit_code: u8,
    /// How it ended.
    #[serde(skip)]
    status: Status,
    /// The statistics, for the text.
    #[serde(skip)]
    stats: Option<ProofReport>,
    /// The unrounded seconds, for the text.
    #[serde(skip)]
    elapsed: f64,
}

/// Checks the proof against the formula. `Err` is a failure before the
/// check (the formula or the proof's first bytes cannot be read, an option
/// does not apply); a proof that cannot be read during the check is a report
/// with status 2. `progress` is called often during the check with the line
/// that says how far it is (built only when called: the caller shows one every
/// few seconds).
pub fn check_cnf_proof(
    request: &CnfProofRequest<'_>,
    progress: &mut dyn FnMut(&dyn Fn() -> String),
) -> Result<CnfProofReport, Failure> {
    let formula = read::open(request.cnf, ReadLimits::FORMULA)
        .map_err(|e| dimacs::DimacsError::Read(std::io::Error::other(e)))
        .and_then(|f| dimacs::read(BufReader::new(f)))
        .map_err(|e| Failure::input(format!("{}: {e}", request.cnf.display())))?;
    let format = match request.format {
        Some(format) => format,
        None => sniff(request.proof, formula.clauses.len())
            .map_err(|e| Failure::input(format!("{}: {e}", request.proof.display())))?,
    };
    if format == ProofFormat::Lrat && request.lrat_out.is_some() {
        return Err(Failure::input(
            "--lrat-out writes LRAT from a DRAT check; the proof is LRAT already",
        ));
    }
    let start = Instant::now();
    let outcome = match format {
        ProofFormat::Drat => check_drat(request, &formula, progress),
        ProofFormat::Lrat => check_lrat(&formula, request.proof),
    };
    let elapsed = start.elapsed().as_secs_f64();
    let status = match &outcome {
        Ok(_) => Status::Ok,
        Err(Checked::Rejected(_)) => Status::Rejected,
        Err(Checked::Unreadable(_)) => Status::Input,
    };
    let (stats, lrat_out, failure) = match outcome {
        Ok((r, lrat)) => (Some(r), lrat, None),
        Err(Checked::Rejected(e)) => (None, None, Some(failure_of(&e))),
        Err(Checked::Unreadable(message)) => (
            None,
            None,
            Some(ProofFailure {
                message,
                ..ProofFailure::default()
            }),
        ),
    };
    Ok(CnfProofReport {
        schema: SCHEMA,
        formula: request.cnf.display().to_string(),
        proof: request.proof.display().to_string(),
        proof_format: format.name(),
        variables: formula.vars,
        clauses: formula.clauses.len(),
        verified: status == Status::Ok,
        lemmas: stats.as_ref().map(|r| r.lemmas),
        core_lemmas: stats.as_ref().map(|r| r.core_lemmas),
        rat_lemmas: stats.as_ref().map(|r| r.rat_lemmas),
        deletions: stats.as_ref().map(|r| r.deletions),
        ignored_deletions: stats.as_ref().map(|r| r.ignored_deletions),
        seconds: (elapsed * 1000.0).round() / 1000.0,
        lrat_out,
        failure,
        exit_code: status.code(),
        status,
        stats,
        elapsed,
    })
}

impl CnfProofReport {
    /// Verified (0), rejected (1), or a proof that cannot be read (2).
    pub fn status(&self) -> Status {
        self.status
    }

    /// Why the proof could not be read (status 2), for standard error.
    pub fn unreadable(&self) -> Option<&str> {
        (self.status == Status::Input)
            .then(|| self.failure.as_ref().map(|f| f.message.as_str()))
            .flatten()
    }

    /// The report as drat-trim words it (nothing for a proof that cannot be read).
    pub fn text(&self) -> String {
        if self.status == Status::Input {
            return String::new();
        }
        let mut out = format!(
            "c formula: {} variables, {} clauses; proof: {}\n",
            self.variables, self.clauses, self.proof_format
        );
        match (&self.stats, &self.failure) {
            (Some(r), _) => {
                out += &format!(
                    "c {} lemmas up to the conflict, {} in the core (checked), {} RAT lemmas in the core\n",
                    r.lemmas, r.core_lemmas, r.rat_lemmas
                );
                out += &format!(
                    "c {} deletions honoured, {} ignored (clauses not present or giving a top-level value its reason)\n",
                    r.deletions, r.ignored_deletions
                );
                if let Some(lrat) = &self.lrat_out {
                    out += &format!(
                        "c LRAT written to {}: {} clauses added, checked by the LRAT checker\n",
                        lrat.path, lrat.clauses_added
                    );
                }
            }
            (None, Some(failure)) => out += &format!("c rejected: {}\n", failure.message),
            (None, None) => {}
        }
        out += &format!("c time: {:.3} s\n", self.elapsed);
        let verdict = if self.verified {
            "VERIFIED"
        } else {
            "NOT VERIFIED"
        };
        out += &format!("s {verdict}\n");
        out
    }
}

/// What a check found: the report, the LRAT written.
type Outcome = Result<(ProofReport, Option<LratOut>), Checked>;

/// Why a check did not verify.
enum Checked {
    /// The proof is read but does not refute the formula: status 1.
    Rejected(ProofError),
    /// A file cannot be read or written, or is malformed: status 2.
    Unreadable(String),
}

/// Tells LRAT from DRAT by the proof's first line: an LRAT step is a deletion
/// `N d …`, or starts with a clause number above the formula's and holds two
/// `0`s. A binary proof is DRAT unless its name ends in `.lrat`.
pub fn sniff(path: &Path, clauses: usize) -> std::io::Result<ProofFormat> {
    let is_lrat_name = path.extension().is_some_and(|e| e == "lrat");
    let mut head = Vec::new();
    read::open(path, ReadLimits::PROOF)
        .map_err(std::io::Error::other)?
        .take(1 << 16)
        .read_to_end(&mut head)?;
    let binary = head.first() == Some(&b'a')
        || head[..head.len().min(10)]
            .iter()
            .any(|&b| (b < 0x20 && !b.is_ascii_whitespace()) || b >= 0x7f);
    if binary {
        return Ok(if is_lrat_name {
            ProofFormat::Lrat
        } else {
            ProofFormat::Drat
        });
    }
    let text = String::from_utf8_lossy(&head);
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('c'));
    let Some(line) = first else {
        return Ok(ProofFormat::Drat);
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
        ProofFormat::Lrat
    } else {
        ProofFormat::Drat
    })
}

/// The DRAT check, with LRAT output if asked for.
fn check_drat(
    request: &CnfProofRequest<'_>,
    formula: &dimacs::Formula,
    progress: &mut dyn FnMut(&dyn Fn() -> String),
) -> Outcome {
    let path = request.proof;
    let total = std::fs::metadata(path).map_or(0, |m| m.len());
    let file = read::open(path, ReadLimits::PROOF)
        .map_err(|e| Checked::Unreadable(format!("{}: {e}", path.display())))?;
    let progress = std::cell::RefCell::new(progress);
    let counting = Counting {
        inner: file,
        read: 0,
        tick: &mut |read| {
            (progress.borrow_mut())(&|| {
                format!(
                    "read {:.1} of {:.1} MB of the proof",
                    read as f64 / 1e6,
                    total as f64 / 1e6
                )
            })
        },
    };
    let reader = BufReader::with_capacity(1 << 16, counting);
    let mut walking = |done: usize, all: usize| {
        (progress.borrow_mut())(&|| format!("walked back over {done} of {all} proof steps"))
    };
    let mut out = match request.lrat_out {
        Some(p) => Some(std::io::BufWriter::new(std::fs::File::create(p).map_err(
            |e| Checked::Unreadable(format!("cannot write {}: {e}", p.display())),
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
        Some(&mut walking),
    );
    drop(out);
    let report = checked.map_err(|e| classify(e, path))?;
    let Some(lrat_path) = request.lrat_out else {
        return Ok((report, None));
    };
    // What was written is checked again by the LRAT checker.
    let written = std::fs::File::open(lrat_path)
        .map_err(|e| Checked::Unreadable(format!("{}: {e}", lrat_path.display())))?;
    let steps = proofcheck::check_lrat_reader(&formula.clauses, BufReader::new(written))
        .map_err(|e| Checked::Unreadable(format!("the LRAT written is rejected: {e}")))?;
    let written = LratOut {
        path: lrat_path.display().to_string(),
        clauses_added: steps,
    };
    Ok((report, Some(written)))
}

/// The LRAT check.
fn check_lrat(formula: &dimacs::Formula, path: &Path) -> Outcome {
    let file = read::open(path, ReadLimits::PROOF)
        .map_err(|e| Checked::Unreadable(format!("{}: {e}", path.display())))?;
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
fn classify(error: ProofError, path: &Path) -> Checked {
    use proofcheck::LratMalformation as M;
    match &error {
        ProofError::Read(_)
        | ProofError::Write(_)
        | ProofError::VariableTooLarge { .. }
        | ProofError::NewVariableTooLarge { .. } => {
            Checked::Unreadable(format!("{}: {error}", path.display()))
        }
        ProofError::Malformed { offset, problem } => {
            let place = line_and_column(path, *offset)
                .map(|(l, c)| format!("{l}:{c} (byte {offset})"))
                .unwrap_or_else(|| format!("byte {offset}"));
            Checked::Unreadable(format!(
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
            Checked::Unreadable(format!(
                "{}:{line}: malformed LRAT proof: {problem}",
                path.display()
            ))
        }
        _ => Checked::Rejected(error),
    }
}

/// The 1-based line and column of byte `offset` of a text file.
fn line_and_column(path: &Path, offset: usize) -> Option<(usize, usize)> {
    // Only the bytes before the offset, which the check has read already.
    let mut bytes = Vec::new();
    read::open(path, ReadLimits::PROOF)
        .ok()?
        .take(offset as u64)
        .read_to_end(&mut bytes)
        .ok()?;
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

/// A rejection in JSON: the message, and the failing lemma where known.
fn failure_of(error: &ProofError) -> ProofFailure {
    let mut failure = ProofFailure {
        message: error.to_string(),
        ..ProofFailure::default()
    };
    match error {
        ProofError::LemmaNotImplied {
            step,
            lemma,
            position,
            clause,
        } => {
            failure.lemma = Some(*lemma);
            failure.step = Some(*step);
            failure.clause = Some(clause.clone());
            match position {
                proofcheck::Position::Line(n) => failure.line = Some(*n),
                proofcheck::Position::Byte(n) => failure.byte = Some(*n),
            }
        }
        ProofError::NotRup { step, clause } | ProofError::NotRat { step, clause, .. } => {
            failure.line = Some(*step as u64);
            failure.clause = Some(clause.clone());
        }
        ProofError::MalformedLrat { line, .. } => failure.line = Some(*line as u64),
        _ => {}
    }
    failure
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

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("txverify-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("a temporary file");
        path
    }

    #[test]
    fn a_refutation_is_verified_and_a_wrong_lemma_rejected() {
        // x1 and ¬x1: the empty clause follows at once.
        let cnf = write("unsat.cnf", "p cnf 1 2\n1 0\n-1 0\n");
        let good = write("good.drat", "0\n");
        let request = CnfProofRequest {
            cnf: &cnf,
            proof: &good,
            format: None,
            lrat_out: None,
        };
        let report = check_cnf_proof(&request, &mut |_| {}).expect("both read");
        assert_eq!(report.status(), Status::Ok, "{}", report.text());
        assert!(report.text().ends_with("s VERIFIED\n"));
        // x1 ∨ x2 alone is satisfiable: no proof refutes it.
        let sat = write("sat.cnf", "p cnf 2 1\n1 2 0\n");
        let request = CnfProofRequest {
            cnf: &sat,
            ..request
        };
        let report = check_cnf_proof(&request, &mut |_| {}).expect("both read");
        assert_eq!(report.status(), Status::Rejected, "{}", report.text());
        assert!(report.failure.is_some());
    }

    #[test]
    fn lrat_is_told_from_drat_by_its_first_line() {
        let lrat = write("p.lrat", "3 0 1 2 0\n");
        assert_eq!(sniff(&lrat, 2).expect("it reads"), ProofFormat::Lrat);
        let drat = write("p.drat", "1 0\nd 1 2 0\n");
        assert_eq!(sniff(&drat, 2).expect("it reads"), ProofFormat::Drat);
    }
}
