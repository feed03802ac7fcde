//! An independent checker for DRAT and LRAT proofs of unsatisfiability.
//!
//! This module shares no code with the encoder or the solvers: it takes the
//! clauses of a formula as plain integer lists and a proof as a stream of
//! bytes, and decides whether the proof refutes the formula. The DRAT checker
//! is a forward checker: every added lemma must follow from the clauses present
//! by unit propagation (RUP: assign the lemma's literals false, propagate,
//! reach a conflict) or, failing that, be a resolution asymmetric tautology on
//! its first literal (RAT, as CaDiCaL and kissat may write), and the proof must
//! end with the clause set refuted by unit propagation. Lemmas may name
//! extension variables, above the formula's count (a RAT lemma on a fresh
//! variable defines one); the database grows to hold them.
//!
//! Proofs are read through a buffered reader one step at a time (`parse.rs`)
//! and deleted clauses give their memory back (`db.rs`), so a check needs the
//! memory of the clause database, not of the proof: proofs of hundreds of
//! megabytes are checked as they are read.
//!
//! Soundness and deletions. A RUP lemma is implied by the clauses present; a
//! RAT lemma keeps them satisfiable if they were. So the clauses present stay
//! satisfiable as long as the formula is, whichever deletions are honoured:
//! ignoring a deletion of a clause we do not hold, or keeping a clause that
//! still forces a top-level value (as varisat's proofs require: the value
//! stays, so the clause does too, and the RAT check sees it), only makes the
//! set larger, never a satisfiable formula refuted.
//!
//! [`check_to_lrat`] also writes the refutation as an LRAT proof, and
//! [`check_lrat`] checks LRAT proofs, text or binary (in `lrat.rs`, sharing
//! nothing with the writer).

mod db;
mod lrat;
mod parse;
#[cfg(test)]
mod tests;

pub use lrat::{check_lrat, check_lrat_reader};

use db::{Db, NONE, code};
use parse::{DratReader, Step};
use std::io::{BufRead, Read, Write};

/// The largest variable a proof may name: extension variables are allocated
/// on demand, and this keeps one malformed literal from allocating gigabytes.
const MAX_VARIABLE: usize = 1 << 24;

/// How the proof is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProofFormat {
    /// Text DRAT: one clause per line ending in `0`, deletions prefixed by `d`.
    Text,
    /// Binary DRAT: `a`/`d` then variable-length literal codes `2v + sign`, then 0.
    Binary,
}

/// What the checker found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofReport {
    /// Lemmas checked.
    pub lemmas: usize,
    /// Of those, lemmas that are RAT but not RUP.
    pub rat_lemmas: usize,
    /// Deletions honoured.
    pub deletions: usize,
    /// Deletions of clauses not present, ignored.
    pub ignored_deletions: usize,
}

/// Why a proof was rejected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// The bytes of a DRAT proof do not parse.
    #[error("malformed proof at byte {offset}: {problem}")]
    Malformed {
        /// Byte offset.
        offset: usize,
        /// What is wrong.
        problem: Malformation,
    },
    /// A line of an LRAT proof does not parse, or its hints do not do what they must.
    #[error("malformed LRAT proof at line {line}: {problem}")]
    MalformedLrat {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        problem: LratMalformation,
    },
    /// A literal names a variable too large for the checker's memory (over
    /// 2^24); variables above the formula's but below that are extension
    /// variables and accepted.
    #[error("step {step}: variable {variable} is too large (the checker takes up to 2^24)")]
    VariableTooLarge {
        /// 1-based step number.
        step: usize,
        /// The variable.
        variable: u64,
    },
    /// The proof could not be read.
    #[error("cannot read the proof: {0}")]
    Read(#[source] std::io::Error),
    /// A RAT lemma was met while writing LRAT, which is written with RUP hints only.
    #[error("step {step}: lemma {clause:?} is RAT, not RUP; the LRAT output takes RUP lemmas only")]
    RatInLrat {
        /// 1-based step number.
        step: usize,
        /// The lemma.
        clause: Vec<i64>,
    },
    /// The LRAT output could not be written.
    #[error("cannot write the LRAT proof: {0}")]
    Write(#[source] std::io::Error),
    /// A lemma does not follow by unit propagation.
    #[error(
        "step {step}: lemma {clause:?} is not implied by unit propagation, nor RAT on its first literal"
    )]
    NotRup {
        /// 1-based step number.
        step: usize,
        /// The lemma.
        clause: Vec<i64>,
    },
    /// An LRAT lemma's hints reach no conflict and its RAT check on its first
    /// literal fails for one clause containing that literal's negation.
    #[error(
        "step {step}: lemma {clause:?} is not implied by its hints, and its RAT check fails for clause {candidate}"
    )]
    NotRat {
        /// 1-based line (text) or step (binary) number.
        step: usize,
        /// The lemma.
        clause: Vec<i64>,
        /// The clause whose resolvent is not refuted.
        candidate: u64,
    },
    /// The proof ended without refuting the formula.
    #[error("the proof ends without deriving a contradiction")]
    NoContradiction,
}

/// What is wrong with the bytes of a DRAT proof (or an LRAT proof that is not text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Malformation {
    /// A binary step starts with another byte than `a` or `d`.
    #[error("expected 'a' or 'd', found byte {0}")]
    BadTag(u8),
    /// The proof ends inside a clause.
    #[error("unterminated clause")]
    UnterminatedClause,
    /// A binary literal code has more than 64 bits.
    #[error("literal too large")]
    LiteralTooLarge,
    /// A binary literal code is 1 (variable 0).
    #[error("literal code 1")]
    LiteralCodeOne,
    /// A text proof is not UTF-8.
    #[error("not UTF-8")]
    NotUtf8,
    /// A text token is neither `d` nor a number.
    #[error("bad token {0:?}")]
    BadToken(String),
}

/// What is wrong with a line of an LRAT proof.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LratMalformation {
    /// The line does not start with a step number.
    #[error("no step number")]
    NoStepNumber,
    /// A deletion names something that is not a clause number.
    #[error("bad clause number")]
    BadClauseNumber,
    /// An added clause's number is not above every number before it.
    #[error("step numbers must increase")]
    StepNumberNotIncreasing,
    /// A word of an added clause's line is not a number.
    #[error("not a number")]
    NotANumber,
    /// The clause has no terminating 0.
    #[error("clause not ended by 0")]
    ClauseNotEnded,
    /// The hints have no terminating 0.
    #[error("hints not ended by 0")]
    HintsNotEnded,
    /// A negative (RAT) hint names a clause that is not present or does not
    /// contain the negation of the lemma's first literal.
    #[error("a RAT hint names no present clause containing the pivot's negation")]
    RatHintNotCandidate,
    /// Two RAT hints name the same clause.
    #[error("a RAT hint names the same clause twice")]
    RatHintRepeated,
    /// A hint names no clause present.
    #[error("hint names no present clause")]
    HintNotPresent,
    /// A hint is satisfied by the assignment so far.
    #[error("a hint is already satisfied")]
    HintSatisfied,
    /// A hint leaves more than one literal open.
    #[error("a hint is not unit")]
    HintNotUnit,
}

/// Checks that `proof` refutes the formula with `vars` variables and these clauses.
pub fn check(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: &[u8],
    format: ProofFormat,
) -> Result<ProofReport, ProofError> {
    check_into(vars, clauses, proof, Some(format), None)
}

/// Like [`check`], reading the proof from `proof` one step at a time; with
/// `format` `None`, text or binary is told from the proof's first bytes, as
/// drat-trim does.
pub fn check_reader(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: impl BufRead,
    format: Option<ProofFormat>,
) -> Result<ProofReport, ProofError> {
    check_into(vars, clauses, proof, format, None)
}

/// Checks `proof` like [`check_reader`] and writes, as it goes, the same
/// refutation as a text LRAT proof (every lemma with the clauses unit
/// propagation used, by number: the formula's clauses are 1, 2, … in order).
/// Deletions of clauses that still give a top-level value its reason are left
/// out, since the hints of later lemmas may use them. A RAT lemma is an error
/// ([`ProofError::RatInLrat`]): LRAT is written with RUP hints only.
pub fn check_to_lrat(
    vars: usize,
    clauses: &[Vec<i32>],
    proof: impl BufRead,
    format: Option<ProofFormat>,
    lrat: &mut dyn Write,
) -> Result<ProofReport, ProofError> {
    check_into(vars, clauses, proof, format, Some(lrat))
}

fn check_into(
    vars: usize,
    clauses: &[Vec<i32>],
    mut proof: impl BufRead,
    format: Option<ProofFormat>,
    mut lrat: Option<&mut dyn Write>,
) -> Result<ProofReport, ProofError> {
    let (format, head) = match format {
        Some(format) => (format, Vec::new()),
        None => parse::detect(&mut proof)?,
    };
    let mut steps = DratReader::new((&head[..]).chain(proof), format);
    let mut db = Db::new(vars);
    for clause in clauses {
        let top = clause.iter().map(|l| l.unsigned_abs() as usize).max();
        db.grow(top.unwrap_or(0));
        let lits = clause.iter().map(|&l| code(i64::from(l))).collect();
        db.add(lits);
    }
    let mut report = ProofReport {
        lemmas: 0,
        rat_lemmas: 0,
        deletions: 0,
        ignored_deletions: 0,
    };
    let explain = lrat.is_some();
    let mut n = 0;
    while let Some((kind, clause)) = steps.next_step()? {
        n += 1;
        if db.refuted {
            break;
        }
        // Variables above the formula's are extension variables (introduced
        // by RAT lemmas); the database grows to hold them.
        let top = clause.iter().map(|l| l.unsigned_abs()).max().unwrap_or(0);
        let top = usize::try_from(top)
            .ok()
            .filter(|&v| v <= MAX_VARIABLE)
            .ok_or(ProofError::VariableTooLarge {
                step: n,
                variable: top,
            })?;
        db.grow(top);
        let lits: Vec<usize> = clause.iter().map(|&l| code(l)).collect();
        match kind {
            Step::Add => {
                let hints = match db.rup(&lits, explain) {
                    Some(hints) => hints,
                    None if db.rat(&lits) => {
                        if explain {
                            return Err(ProofError::RatInLrat { step: n, clause });
                        }
                        report.rat_lemmas += 1;
                        Vec::new()
                    }
                    None => return Err(ProofError::NotRup { step: n, clause }),
                };
                report.lemmas += 1;
                db.add(lits);
                if let Some(out) = lrat.as_deref_mut() {
                    write_step(out, db.last_id, &clause, &hints)?;
                }
            }
            Step::Delete => match db.delete(lits) {
                Some((id, is_reason)) => {
                    report.deletions += 1;
                    if let Some(out) = lrat.as_deref_mut().filter(|_| !is_reason) {
                        writeln!(out, "{} d {id} 0", db.last_id).map_err(write_error)?;
                    }
                }
                None => report.ignored_deletions += 1,
            },
        }
    }
    if !db.refuted && db.propagate() {
        return Err(ProofError::NoContradiction);
    }
    if let Some(out) = lrat {
        // The empty clause, from the top-level conflict (none needed when the
        // formula or the proof holds the empty clause itself).
        if db.conflict != NONE {
            let hints = db.explain(db.conflict, &[]);
            write_step(out, db.last_id + 1, &[], &hints)?;
        }
        out.flush().map_err(write_error)?;
    }
    Ok(report)
}

/// Writes one added clause of an LRAT proof with its hints.
fn write_step(
    out: &mut dyn Write,
    id: u64,
    clause: &[i64],
    hints: &[u64],
) -> Result<(), ProofError> {
    let mut line = id.to_string();
    for l in clause {
        line.push_str(&format!(" {l}"));
    }
    line.push_str(" 0");
    for h in hints {
        line.push_str(&format!(" {h}"));
    }
    line.push_str(" 0");
    writeln!(out, "{line}").map_err(write_error)
}

fn write_error(e: std::io::Error) -> ProofError {
    ProofError::Write(e)
}
